//! The public API as dice-sim and the command-line tool use it: the dice-core traits,
//! outcomes, records, serde, and the limits (errors, never hangs).

use std::time::{Duration, Instant};

use dice_core::{Dist, Exact, Roll, Versus};
use dice_notation::{
    DiceTerm, DieKind, Expr, Expression, MAX_DICE, MAX_ROLLED, NotationError, Outcome,
    ParseErrorKind,
};
use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};

fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// What dice-sim asks of a mechanic.
fn simulate<M: Roll + Sync + Send>(m: &M, n: usize) -> Vec<M::Outcome> {
    let mut r = rng(0);
    (0..n).map(|_| m.roll(&mut r)).collect()
}

fn exact_mean<M: Exact>(m: &M) -> f64
where
    M::Outcome: dice_core::Numeric,
{
    m.distribution().unwrap().mean()
}

#[test]
fn expressions_are_mechanics() {
    let e = Expression::parse("2d6+3").unwrap();
    let rolls = simulate(&e, 1000);
    assert!(
        rolls
            .iter()
            .all(|o| (5..=15).contains(&o.as_number().unwrap()))
    );
    assert!((exact_mean(&e) - 10.0).abs() < 1e-12);
    // rand's Distribution: rng.sample works.
    let o: Outcome = rng(1).sample(&e);
    assert!(o.as_number().is_some());
    // Through a reference too.
    assert_eq!(Roll::roll(&&e, &mut rng(2)), Roll::roll(&e, &mut rng(2)));
}

#[test]
fn comparisons_have_three_outcomes_and_a_signed_mean() {
    let e = Expression::parse("1d20+5 vs 15").unwrap();
    assert!(e.is_comparison());
    let d: Dist<Outcome> = e.distribution().unwrap();
    assert_eq!(
        d.outcomes(),
        &[
            Outcome::Versus(Versus::Below),
            Outcome::Versus(Versus::Equal),
            Outcome::Versus(Versus::Above)
        ]
    );
    // 1d20+5 against 15: 9 faces below, 1 equal, 10 above.
    assert!((d.probability(&Outcome::Versus(Versus::Below)) - 9.0 / 20.0).abs() < 1e-15);
    assert!((d.mean() - (10.0 - 9.0) / 20.0).abs() < 1e-15);
    // The generic trait gives the same law.
    assert_eq!(Exact::distribution(&e).unwrap(), d);
}

#[test]
fn the_record_and_the_plain_roll_agree() {
    for expr in [
        "4d6kh3",
        "10d10!>=8>=8f1",
        "6d10!10>=8",
        "4d6ro1!kh3+1d8",
        "3dF+streak(d6>=4)",
        "max(2d20kl1, 1d20)-1d4 vs 1d20/2",
        "4d6>=1",
        "20d6!!cap3dl5",
        "streak(d200>=150)+streak(d6={6})",
    ] {
        let e = Expression::parse(expr).unwrap();
        for seed in 0..200 {
            let detailed = e.roll(&mut rng(seed));
            let plain = Roll::roll(&e, &mut rng(seed));
            assert_eq!(detailed.outcome, plain, "{expr} seed {seed}");
        }
    }
}

#[test]
fn records_show_every_die() {
    let e = Expression::parse("10d10!>=9>=8f1 + 4d6kh3").unwrap();
    let r = e.roll(&mut rng(5));
    assert_eq!(r.terms.len(), 2);
    let pool = &r.terms[0];
    assert_eq!(pool.term, "10d10!>=9>=8f1");
    assert!(pool.dice.len() >= 10);
    assert_eq!(
        pool.dice.iter().filter(|d| d.added).count(),
        pool.dice.iter().filter(|d| d.exploded).count()
    );
    let net = pool.dice.iter().filter(|d| d.success).count() as i64
        - pool.dice.iter().filter(|d| d.failure).count() as i64;
    assert_eq!(net, pool.value);
    let stat = &r.terms[1];
    assert_eq!(stat.dice.iter().filter(|d| d.kept).count(), 3);
    assert_eq!(
        stat.dice
            .iter()
            .filter(|d| d.kept)
            .map(|d| d.value)
            .sum::<i64>(),
        stat.value
    );
    assert_eq!(r.total, pool.value + stat.value);
    // Fudge dice show −1, 0, +1.
    let f = Expression::parse("20dF").unwrap().roll(&mut rng(1));
    assert!(
        f.terms[0]
            .dice
            .iter()
            .all(|d| (-1..=1).contains(&d.natural))
    );
}

#[test]
fn trees_built_by_hand() {
    let e = Expression::from_expr(Expr::dice(DiceTerm::new(3, DieKind::Sides(6)))).unwrap();
    assert_eq!(e, Expression::parse("3d6").unwrap());
    assert_eq!(e.bounds(), (3, 18));
    assert_eq!(format!("{e:?}"), "Expression(\"3d6\")");
    let bad = Expression::from_expr(Expr::dice(DiceTerm::new(3, DieKind::Sides(1)))).unwrap_err();
    assert_eq!(bad.input(), "3d1");
    assert_eq!(bad.span().start, 2);
    assert!("1d6".parse::<Expression>().is_ok());
    assert!(Expression::try_from("1d6+").is_err());
    assert_eq!(String::from(Expression::parse("d20").unwrap()), "1d20");
}

#[test]
fn notation_errors_name_the_term() {
    let e = Expression::parse("1d6 + 2d6ro1!kh1").unwrap();
    let err = e.distribution().unwrap_err();
    assert_eq!(err.term(), "2d6ro1!kh1");
    assert_eq!(err.span().start, 6);
    assert!(matches!(err, NotationError::Unsupported { .. }));
    // In dice-core's terms for the Exact trait.
    assert!(matches!(
        Exact::distribution(&e).unwrap_err(),
        dice_core::Error::Unsupported { .. }
    ));
    let big = Expression::parse("1d1000*1000d1000 + 1").unwrap();
    let err = big.distribution().unwrap_err();
    assert!(matches!(err, NotationError::TooComplex { .. }), "{err}");
    assert!(matches!(
        dice_core::Error::from(err),
        dice_core::Error::TooComplex { .. }
    ));
}

#[test]
fn limits_are_errors_and_worst_cases_are_quick() {
    let err = Expression::parse(&format!("{}d6+1d6", MAX_DICE)).unwrap_err();
    assert!(matches!(err.kind(), ParseErrorKind::OutOfRange { .. }));
    // 10,000 d6 exploding up to 100 times each: 1,010,000 dice in the worst case.
    let err = Expression::parse("10000d6!").unwrap_err();
    assert!(err.to_string().contains(&MAX_ROLLED.to_string()), "{err}");
    assert!(Expression::parse("10000d1000r<1000").is_err());
    // The worst cases allowed roll in well under a second.
    for expr in [
        "1000d2!>=1cap999",     // always a million dice
        "1000d1000r<1000",      // a thousand rolls a die, on average
        "10000d1000kh5000",     // the largest keep
        "streak(d6>=1cap1000)", // the longest streak
    ] {
        let e = Expression::parse(expr).unwrap();
        let start = Instant::now();
        let r = e.roll(&mut rng(3));
        let _ = Roll::roll(&e, &mut rng(3));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{expr}: {:?}",
            start.elapsed()
        );
        assert!(!r.terms[0].dice.is_empty());
    }
}

#[cfg(feature = "serde")]
mod serde_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outcomes_are_numbers_or_names() {
        assert_eq!(
            serde_json::to_value(Outcome::Number(12)).unwrap(),
            json!(12)
        );
        assert_eq!(
            serde_json::to_value(Outcome::Versus(Versus::Above)).unwrap(),
            json!("above")
        );
        let back: Outcome = serde_json::from_value(json!("below")).unwrap();
        assert_eq!(back, Outcome::Versus(Versus::Below));
        let back: Outcome = serde_json::from_value(json!(-3)).unwrap();
        assert_eq!(back, Outcome::Number(-3));
    }

    #[test]
    fn expressions_are_their_canonical_text() {
        let e = Expression::parse("4d6kh3 + 0").unwrap();
        assert_eq!(serde_json::to_value(&e).unwrap(), json!("4d6kh3+0"));
        let back: Expression = serde_json::from_value(json!("4d6kh3+0")).unwrap();
        assert_eq!(back, e);
        assert!(serde_json::from_value::<Expression>(json!("4d6kh5")).is_err());
    }

    #[test]
    fn roll_results_round_trip() {
        let e = Expression::parse("4d6ro1!kh3 vs 12").unwrap();
        let r = e.roll(&mut rng(9));
        let v = serde_json::to_value(&r).unwrap();
        assert!(v["outcome"].is_string());
        assert_eq!(v["terms"][0]["term"], json!("4d6ro1!kh3"));
        assert!(v["terms"][0]["dice"][0]["kept"].is_boolean());
        let back: dice_notation::RollResult = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
    }
}

/// Computed dice stay within the limits: a count that could exceed `MAX_DICE` is refused
/// when parsing (no allocation), and a mixture too costly for exact odds is refused before
/// its work, not after.
#[test]
fn computed_dice_are_bounded() {
    use dice_notation::Dialect;
    for text in [
        "(1000d1000)d1000",
        "(1d20-5)d6",
        "2d(1d1000+1)",
        "(2d6)d(1d6-1)!>=3",
    ] {
        assert!(
            Expression::parse_with(text, Dialect::Foundry).is_err(),
            "{text}"
        );
    }
    let e = Expression::parse("(5d1000)d1000").unwrap();
    let start = Instant::now();
    assert!(matches!(
        e.distribution(),
        Err(NotationError::TooComplex { .. })
    ));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // Rolled: within the bounds the compiler proved.
    let e = Expression::parse("(1d4)d6kh2").unwrap();
    let mut r = rng(5);
    for _ in 0..200 {
        let v = e.roll(&mut r).total;
        assert!((e.bounds().0..=e.bounds().1).contains(&v), "{v}");
    }
    assert_eq!(e.bounds(), (1, 12));
}
