//! Fractions and decimals: the dialects' exact division (`4d6/7`), decimals (`1d20*0.20`),
//! the roundings of a fraction and Avrae d20's truncated total.
//!
//! Each exact law is checked against the enumeration of every combination of faces, with
//! the value written out by hand from the dialect's rules (`Rational` arithmetic, itself
//! checked against textbook formulas in its unit tests); every combination is also rolled
//! with `roll_faces`, which must give the same value. No probability is typed in.

use dice_core::{Roll, Versus};
use dice_notation::{Dialect, Expression, NotationError, Outcome, Rational};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

fn r(n: i64, d: i64) -> Rational {
    Rational::new(n, d).unwrap()
}

fn int(n: u32) -> Rational {
    Rational::from(i64::from(n))
}

fn add(a: Rational, b: Rational) -> Rational {
    a.checked_add(b).unwrap()
}

fn sub(a: Rational, b: Rational) -> Rational {
    a.checked_sub(b).unwrap()
}

fn mul(a: Rational, b: Rational) -> Rational {
    a.checked_mul(b).unwrap()
}

fn div(a: Rational, b: Rational) -> Rational {
    a.checked_div(b).unwrap()
}

/// Checks `text`'s exact law in `dialect` against the enumeration of its dice (`sides`, in
/// the order they are rolled) through `value`, and rolls every combination.
fn check(dialect: Dialect, text: &str, sides: &[u32], value: impl Fn(&[u32]) -> Outcome) {
    let e = Expression::parse_with(text, dialect).unwrap_or_else(|err| panic!("{text}: {err:#}"));
    // The canonical form reads back in this crate's grammar.
    assert_eq!(
        Expression::parse(&e.to_string()).as_ref(),
        Ok(&e),
        "{text} as {e}"
    );
    let oracle = dice_testkit::enumerate(sides, |faces| {
        let want = value(faces);
        let rolled = e
            .roll_faces(faces.iter().map(|&f| i64::from(f)))
            .unwrap_or_else(|err| panic!("{text} {faces:?}: {err}"));
        assert_eq!(rolled.outcome, want, "{text} with {faces:?}: {rolled}");
        want
    });
    let law = e
        .distribution()
        .unwrap_or_else(|err| panic!("{text}: {err}"));
    dice_testkit::assert_law(text, &law, &oracle);
}

fn value(v: Rational) -> Outcome {
    Outcome::from_rational(v)
}

#[test]
fn exact_division_and_decimals_match_the_enumeration() {
    let rpg = Dialect::RpgDiceRoller;
    // rpg-dice-roller's DiceRoll.test.js shape, on smaller dice: 4d3 / 7 + the higher of 2d4.
    check(rpg, "4d3/7+2d4dl1", &[3, 3, 3, 3, 4, 4], |f| {
        let four = int(f[0] + f[1] + f[2] + f[3]);
        value(add(div(four, int(7)), int(f[4].max(f[5]))))
    });
    // A rolled divisor.
    check(rpg, "2d6/1d4", &[6, 6, 4], |f| {
        value(div(int(f[0] + f[1]), int(f[2])))
    });
    // A fraction inside: 2 × (x/2) is x.
    check(rpg, "max(2 * (d7/2), 1d7)", &[7, 7], |f| {
        value(int(f[0].max(f[1])))
    });
    // Decimals: 0.5 and 2.25 exactly.
    check(Dialect::Foundry, "1d20 * 0.5 + 2.25", &[20], |f| {
        value(add(mul(int(f[0]), r(1, 2)), r(9, 4)))
    });
    // A power of a fraction, less JavaScript's remainder of a decimal divisor (the
    // dividend's sign): x − y·trunc(x/y).
    check(rpg, "(1d4/2) ** 2 - 1d3 % 1.5", &[4, 3], |f| {
        let half = div(int(f[0]), int(2));
        let x = int(f[1]);
        let y = r(3, 2);
        let rem = sub(x, mul(y, Rational::from(div(x, y).trunc())));
        value(sub(mul(half, half), rem))
    });
    check(rpg, "abs(1d6/4 - 1) + min(1d4/3, 1)", &[6, 4], |f| {
        let a = sub(div(int(f[0]), int(4)), Rational::ONE);
        let b = div(int(f[1]), int(3)).min(Rational::ONE);
        value(add(a.checked_abs().unwrap(), b))
    });
}

#[test]
fn roundings_of_fractions_match_the_enumeration() {
    // Roll20: floor of a sum holding a decimal, ceil of a sum of two fractions (each rounds
    // the whole sum: a division alone would be this crate's rounded division).
    check(
        Dialect::Roll20,
        "floor(1d6/2 + 0.5) + ceil(1d4/3 + 1d3/2)",
        &[6, 4, 3],
        |f| {
            let a = add(div(int(f[0]), int(2)), r(1, 2)).floor();
            let b = add(div(int(f[1]), int(3)), div(int(f[2]), int(2))).ceil();
            Outcome::Number(a + b)
        },
    );
    // rpg-dice-roller rounds halves away from zero (mathjs): -1.5 is -2.
    check(
        Dialect::RpgDiceRoller,
        "round((1d6-4)/2) * 1.5",
        &[6],
        |f| {
            let x = div(sub(int(f[0]), int(4)), int(2));
            let n = x.round_half_away();
            assert_eq!(n, (x.to_f64()).round() as i64);
            value(mul(Rational::from(n), r(3, 2)))
        },
    );
    // Roll20 and Foundry round halves up (JavaScript's Math.round): -1.5 is -1.
    check(Dialect::Foundry, "round((1d6-4)/2 + 0.25)", &[6], |f| {
        let x = add(div(sub(int(f[0]), int(4)), int(2)), r(1, 4));
        Outcome::Number((x.to_f64() + 0.5).floor() as i64)
    });
}

#[test]
fn avrae_d20_truncates_the_total_and_compares_exactly() {
    let d20 = Dialect::D20;
    // int() of the value: toward 0.
    check(d20, "(1d6 - 4) / 3 + 1d4 / 2", &[6, 4], |f| {
        let x = add(div(sub(int(f[0]), int(4)), int(3)), div(int(f[1]), int(2)));
        Outcome::Number(x.to_f64().trunc() as i64)
    });
    // Python's % (the divisor's sign) and // (toward −∞) of decimals, then int().
    check(d20, "1d6 % 2.5 + 1d4 // 1.5", &[6, 4], |f| {
        let y = r(5, 2);
        let x = int(f[0]);
        let m = sub(x, mul(y, Rational::from(div(x, y).floor())));
        let q = div(int(f[1]), r(3, 2)).floor();
        Outcome::Number(add(m, Rational::from(q)).trunc())
    });
    // A comparison of the exact quotient: 19/3 >= 6 holds, 18/3 >= 7 does not.
    check(d20, "1d20 / 3 >= 1d6", &[20, 6], |f| {
        Outcome::Number(i64::from(div(int(f[0]), int(3)) >= int(f[1])))
    });
}

#[test]
fn groups_and_comparisons_with_fractions_match_the_enumeration() {
    let rpg = Dialect::RpgDiceRoller;
    // Counting items (rpg-dice-roller's `{4d6+5, 20/2d10, d4-1}>10` on smaller dice).
    check(rpg, "{2d4+1, 12/1d6, 1d4-1}>3f<1", &[4, 4, 6, 4], |f| {
        let items = [
            int(f[0] + f[1] + 1),
            div(int(12), int(f[2])),
            sub(int(f[3]), int(1)),
        ];
        let count = items.iter().filter(|&&v| v > int(3)).count() as i64
            - items.iter().filter(|&&v| v < int(1)).count() as i64;
        Outcome::Number(count)
    });
    // Keeping the two highest of three items, two of them fractions (every joint outcome).
    check(rpg, "{1d4/2, 1d3, 1d6/4}k2", &[4, 3, 6], |f| {
        let mut items = [div(int(f[0]), int(2)), int(f[1]), div(int(f[2]), int(4))];
        items.sort();
        value(add(items[1], items[2]))
    });
    // A selection over fractions (Avrae d20's `k>1`), then the total truncated.
    check(Dialect::D20, "(1d4 / 2, 1d3 / 3, 1)k>1", &[4, 3], |f| {
        let items = [
            div(int(f[0]), int(2)),
            div(int(f[1]), int(3)),
            Rational::ONE,
        ];
        let kept = items
            .iter()
            .filter(|&&v| v > Rational::ONE)
            .fold(Rational::ZERO, |a, &v| add(a, v));
        Outcome::Number(kept.trunc())
    });
    // This crate's grammar: an exact division compared with a random target.
    check(Dialect::Default, "exact(1d6/2) vs 1d3", &[6, 3], |f| {
        let x = div(int(f[0]), int(2));
        Outcome::Versus(match x.cmp(&int(f[1])) {
            std::cmp::Ordering::Less => Versus::Below,
            std::cmp::Ordering::Equal => Versus::Equal,
            std::cmp::Ordering::Greater => Versus::Above,
        })
    });
}

#[test]
fn an_integer_result_stays_a_number_and_the_total_rounds_down() {
    let e = Expression::parse_with("4d6/7+2d10dl1", Dialect::RpgDiceRoller).unwrap();
    let roll = e.roll_faces([1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(roll.outcome, Outcome::Fraction(r(52, 7)));
    assert_eq!(roll.total_exact, Some(r(52, 7)));
    assert_eq!(roll.total, 7);
    assert!(roll.to_string().ends_with("→ 52/7 (≈7.43)"), "{roll}");
    let whole = e.roll_faces([1, 2, 2, 2, 5, 6]).unwrap();
    assert_eq!(whole.outcome, Outcome::Number(7));
    assert_eq!(whole.total_exact, None);
    // A comparison with fractions shows the exact sides.
    let v = Expression::parse("exact(1d6/2) vs exact(5/2)").unwrap();
    let roll = v.roll_faces([5]).unwrap();
    assert_eq!(roll.outcome, Outcome::Versus(Versus::Equal));
    assert!(roll.to_string().ends_with("5/2 vs 5/2: equal"), "{roll}");
}

#[test]
fn what_has_no_exact_fraction_is_refused_with_a_reason() {
    let rpg = Dialect::RpgDiceRoller;
    for (text, part) in [
        ("2**0.5", "irrational"),
        ("pow(-8, 1/3)", "not a real number"),
        ("1d20**0.5", "irrational"),
        ("2**(1d4/2)", "irrational"),
        ("3d(5/2)", "whole"),
        ("2.5d6", "whole"),
        ("1d6/(1d3-2)", "can be 0"),
        ("1d6/(0.5-0.5)", "can be 0"),
        ("1.0000000001", "too precise"),
        ("1d1000/999999937/999999929/7", "denominators"),
    ] {
        let err = Expression::parse_with(text, rpg).unwrap_err();
        assert!(err.to_string().contains(part), "{text}: {err}");
    }
    // Roll20's rolled counts must be whole too.
    let err = Expression::parse_with("(1d4/2)d6", Dialect::Roll20).unwrap_err();
    assert!(err.to_string().contains("whole"), "{err}");
    // This crate's own grammar keeps its meaning: no decimals, `/` rounds down.
    assert!(Expression::parse("1.5").is_err());
    assert_eq!(
        Expression::parse("7/2")
            .unwrap()
            .roll_faces([])
            .unwrap()
            .total,
        3
    );
}

#[test]
fn a_rounding_of_a_sum_with_a_division_reads_back() {
    // A rounding function whose argument shows a `/` of the integer engine (exact by its
    // numbers, d20's `//`, or an inner rounding's) prints it in parentheses, where this
    // crate's grammar would read `floor(x/y + …)` as the rounded division of `x/y` (found by
    // fuzzing: the first).
    for (dialect, text, canonical) in [
        (
            Dialect::Foundry,
            "ceil(0%3-6/6+ 1d3/1+0.5)",
            "ceil((rem(0, 3)-6/6+1d3/1+exact(1/2)))",
        ),
        (
            Dialect::Roll20,
            "floor(floor(1d6/2) + 0.5)",
            "floor((1d6/2+exact(1/2)))",
        ),
        (Dialect::D20, "15 // 2 + 1.5", "trunc((15/2+exact(3/2)))"),
        (
            Dialect::Roll20,
            "floor(1d6/2 + 0.5)",
            "floor(exact(1d6/2)+exact(1/2))",
        ),
    ] {
        let e = Expression::parse_with(text, dialect).unwrap_or_else(|err| panic!("{err:#}"));
        assert_eq!(e.to_string(), canonical, "{text}");
        assert_eq!(Expression::parse(canonical).as_ref(), Ok(&e), "{text}");
    }
    let e = Expression::parse_with("15 // 2 + 1.5", Dialect::D20).unwrap();
    assert_eq!(e.roll_faces([]).unwrap().outcome, Outcome::Number(8));
}

#[test]
fn a_costly_fraction_law_is_refused_before_the_work() {
    let e = Expression::parse_with("1d1000/1d999 + 1d1000/1d997", Dialect::RpgDiceRoller).unwrap();
    assert!(matches!(
        e.distribution(),
        Err(NotationError::TooComplex { .. })
    ));
    // Rolling it works.
    let mut rng = dice_testkit::rng(1);
    assert!(matches!(
        Roll::roll(&e, &mut rng),
        Outcome::Fraction(_) | Outcome::Number(_)
    ));
}

#[test]
fn fraction_laws_match_their_rolls() {
    // 100,000 seeded rolls of each path against the exact law (5 standard errors).
    for (seed, (dialect, text)) in [
        (Dialect::RpgDiceRoller, "4d6/7+2d10dl1"),
        (Dialect::D20, "(2d6 - 7) / 3 + 1d4 * 0.5"),
    ]
    .into_iter()
    .enumerate()
    {
        let e = Expression::parse_with(text, dialect).unwrap();
        let law = e.distribution().unwrap();
        let mut rng = dice_testkit::rng(seed as u64 + 200);
        dice_testkit::check_rolls(text, &law, || Roll::roll(&e, &mut rng));
        let mut rng = dice_testkit::rng(seed as u64 + 300);
        dice_testkit::check_rolls(text, &law, || e.roll(&mut rng).outcome);
    }
}

#[cfg(feature = "serde")]
#[test]
fn rolls_with_fractions_serialize_exactly() {
    let e = Expression::parse_with("1d20+1.45", Dialect::RpgDiceRoller).unwrap();
    let roll = e.roll_faces([8]).unwrap();
    let json = serde_json::to_value(&roll).unwrap();
    assert_eq!(json["outcome"], "189/20");
    assert_eq!(json["total"], 9);
    assert_eq!(json["total_exact"], "189/20");
    assert!(json.get("target_exact").is_none());
    let back: dice_notation::RollResult = serde_json::from_value(json).unwrap();
    assert_eq!(back, roll);
    // A whole roll's JSON is as before: no exact fields.
    let plain = Expression::parse("1d20").unwrap().roll_faces([8]).unwrap();
    let json = serde_json::to_value(&plain).unwrap();
    assert!(json.get("total_exact").is_none());
}

/// Expressions in rpg-dice-roller's notation built from small dice, numbers, decimals,
/// the four operations, roundings, `max` and groups.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("1d4"),
        Just("2d3"),
        Just("1d6"),
        Just("3"),
        Just("0.5"),
        Just("1.25"),
        Just("2"),
    ]
    .prop_map(str::to_owned);
    leaf.prop_recursive(3, 10, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop_oneof![Just('+'), Just('-'), Just('*'), Just('/')],
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a}){op}({b})")),
            (
                prop_oneof![Just("floor"), Just("ceil"), Just("round"), Just("abs")],
                inner.clone()
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("{{{a}, {b}}}k1")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every rolled value lies in the exact law's support, both rolling paths agree, the
    /// total lies within the bounds, and the canonical form reads back.
    #[test]
    fn rolled_fractions_lie_in_the_exact_support(text in expression(), seed in any::<u64>()) {
        let Ok(e) = Expression::parse_with(&text, Dialect::RpgDiceRoller) else {
            // A divisor that can be 0.
            return Ok(());
        };
        let again = Expression::parse(&e.to_string());
        prop_assert_eq!(again.as_ref(), Ok(&e), "{}", e);
        let Ok(law) = e.distribution() else { return Ok(()) };
        prop_assert!((law.total() - 1.0).abs() < 1e-9, "{}: {}", e, law.total());
        let (lo, hi) = e.bounds();
        let mut a = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut b = Xoshiro256PlusPlus::seed_from_u64(seed);
        for _ in 0..8 {
            let plain = Roll::roll(&e, &mut a);
            let detailed = e.roll(&mut b);
            prop_assert_eq!(plain, detailed.outcome, "{}", e);
            prop_assert!(law.probability(&plain) > 0.0, "{}: {} not in the law", e, plain);
            prop_assert!((lo..=hi).contains(&detailed.total), "{}: {}", e, detailed.total);
            match plain {
                Outcome::Fraction(x) => {
                    prop_assert_eq!(detailed.total_exact, Some(x));
                    prop_assert_eq!(detailed.total, x.floor());
                }
                Outcome::Number(n) => {
                    prop_assert_eq!(detailed.total, n);
                    prop_assert_eq!(detailed.total_exact, None);
                }
                Outcome::Versus(_) => prop_assert!(false, "{}: a comparison", e),
            }
        }
    }
}

/// Fractions from dice of every size, not only small ones: rolled against the exact law by a
/// chi-square test over binned outcomes (`dice_testkit::assert_fits`), with the plain and the
/// recording paths, at a significance Bonferroni-adjusted over the checks of this test.
#[test]
fn large_fraction_laws_fit_their_rolls() {
    use std::collections::BTreeMap;
    let cases = [
        (Dialect::RpgDiceRoller, "1d1000/1d7"),
        (Dialect::RpgDiceRoller, "2d100*0.37+1d999/3"),
        (Dialect::RpgDiceRoller, "round(1d1000/1d13)+1d257/2"),
        (Dialect::D20, "(1d1000 - 500) / 1d13 + 1d130 / 4"),
        (Dialect::Foundry, "1d1000 * 1.5 / 1d7"),
        (Dialect::Roll20, "floor(1d1000/7)+1d256/1d3"),
    ];
    let alpha = dice_testkit::FAMILY_ALPHA / (2 * cases.len()) as f64;
    for (seed, (dialect, text)) in cases.into_iter().enumerate() {
        let e = Expression::parse_with(text, dialect).unwrap();
        let law = e.distribution().unwrap();
        assert!(law.len() > 500, "{text}: {} outcomes", law.len());
        assert!((law.total() - 1.0).abs() < 1e-9, "{text}");
        let mut rng = dice_testkit::rng(seed as u64 + 900);
        let seen = dice_testkit::histogram(40_000, || Roll::roll(&e, &mut rng));
        dice_testkit::assert_fits(text, &law, &seen, alpha, 100);
        let seen: BTreeMap<Outcome, u64> =
            dice_testkit::histogram(20_000, || e.roll(&mut rng).outcome);
        dice_testkit::assert_fits(text, &law, &seen, alpha, 100);
    }
}
