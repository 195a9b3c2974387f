//! Regression tests for the silent wrong answers that independent checks found in
//! dice-notation (issue 15). Each test failed before its fix.

use dice_core::{Dist, Roll, Versus};
use dice_notation::{Expression, NotationError, Outcome};
use dice_testkit::{as_map, check_rolls, rng, same};

fn law(text: &str) -> Dist<Outcome> {
    Expression::parse(text)
        .unwrap()
        .distribution()
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn numbers(text: &str) -> Dist<i64> {
    law(text).map(|o| o.as_number().unwrap())
}

/// `d1000={1,2,3}` was 0.300 % exact but 2.389 % rolled; `50d388={5}` marked 133s.
#[test]
fn face_sets_on_large_dice_roll_their_law() {
    let e = Expression::parse("d1000={1,2,3}").unwrap();
    let exact = law("d1000={1,2,3}");
    assert!((exact.probability(&Outcome::Number(1)) - 0.003).abs() < 1e-15);
    let mut r = rng(20);
    check_rolls("d1000={1,2,3}", &exact, || Roll::roll(&e, &mut r));
    let e = Expression::parse("50d388={5}").unwrap();
    let mut r = rng(21);
    for _ in 0..500 {
        let roll = e.roll(&mut r);
        for d in &roll.terms[0].dice {
            assert_eq!(d.success, d.natural == 5, "{d:?}");
        }
    }
}

/// `streak(d129>=2)` was cut at 100 steps: mean 23.65 and a tail of 0.456 (true mean 128),
/// and `streak(d129>=2) vs 50` gave 21.67 % above instead of 67.24 %.
#[test]
fn streaks_on_dice_over_128_sides_are_untruncated() {
    let p: f64 = 128.0 / 129.0;
    let d = numbers("streak(d129>=2)");
    assert!(d.tail() <= 1e-15, "tail {}", d.tail());
    assert!((d.mean() - p / (1.0 - p)).abs() < 1e-6, "mean {}", d.mean());
    // Above 50: a length of 51 or more, p^51.
    let vs = law("streak(d129>=2) vs 50");
    let above = vs.probability(&Outcome::Versus(Versus::Above));
    assert!(
        (above - p.powi(51)).abs() < 1e-12,
        "{above} vs {}",
        p.powi(51)
    );
    let e = Expression::parse("streak(d129>=2) vs 50").unwrap();
    let mut r = rng(22);
    check_rolls("streak(d129>=2) vs 50", &vs, || Roll::roll(&e, &mut r));
}

/// Rolls of `1d20!>=2>=1` stopped after 100 extra dice: P(101) was 0.0058 rolled and 0.0003
/// exact.
#[test]
fn likely_explosions_roll_the_law_their_odds_list() {
    let text = "1d20!>=2>=1";
    let exact = numbers(text);
    let p: f64 = 0.95;
    // 101 dice: 100 explosions then a stop.
    assert!((exact.probability(&101) - p.powi(100) * (1.0 - p)).abs() < 1e-15);
    let e = Expression::parse(text).unwrap();
    let beyond = exact.probability_where(|&n| n > 101);
    let n = 40_000u32;
    let mut r = rng(23);
    let seen = (0..n)
        .filter(|_| Roll::roll(&e, &mut r).as_number().unwrap() > 101)
        .count() as f64
        / f64::from(n);
    let se = (beyond * (1.0 - beyond) / f64::from(n)).sqrt();
    assert!((seen - beyond).abs() <= 5.0 * se, "{seen} vs {beyond}");
}

/// An uncapped explosion whose test matches no face was refused as infinitely costly.
#[test]
fn explosions_no_face_sets_off_have_the_plain_law() {
    for (exploding, plain) in [
        ("1d6!7", "1d6"),
        ("1d20!>20", "1d20"),
        ("3d6!0", "3d6"),
        ("4d6!7kh3", "4d6kh3"),
    ] {
        let (a, b) = (numbers(exploding), numbers(plain));
        assert_eq!(a.tail(), 0.0, "{exploding}");
        same(&as_map(&a), &as_map(&b), 1e-15);
    }
}

/// Finite laws reported rounding noise as a tail (up to 1.9e-12), and a capped explosion
/// carried one.
#[test]
fn finite_laws_report_no_tail() {
    for text in [
        "1d100*1000000000+1d1000",
        "1d6max0",
        "4d6min2",
        "1d6!cap1000",
        "2d6*3d6",
        "max(1d20,1d20)/2",
        "3d6r1",
    ] {
        let d = numbers(text);
        assert_eq!(d.tail(), 0.0, "{text}");
        // Σp of 100,000 equal terms rounds by up to about 1e-11 (the law itself is exact).
        assert!((d.total() - 1.0).abs() < 1e-9, "{text}: {}", d.total());
    }
    // An untruncated law keeps its (small) tail.
    let d = numbers("1d6!");
    assert!(d.tail() > 0.0 && d.tail() <= 1e-15);
}

/// Products and quotients of large laws ran for seconds (and hundreds of MB) before they were
/// refused: they are refused by an estimate made before any work.
#[test]
fn costly_combinations_are_refused_by_their_estimate() {
    for text in [
        "1d1000*1d1000*1d1000",
        "1d1000*1d1000/1d1000/1d1000/1d1000/1d1000",
        "(1d1000*1d1000)/(1d1000)/(1d1000)",
        // Differing items, three kept: the sorted three best of five items' values.
        "{1d100, 1d99, 1d98, 1d97, 1d96}kh3",
    ] {
        let err = Expression::parse(text).unwrap().distribution().unwrap_err();
        assert!(
            matches!(err, NotationError::TooComplex { .. }),
            "{text}: {err}"
        );
    }
    // One product of two large dice is within the budget, and exact.
    let d = numbers("1d1000*1d1000");
    assert_eq!(d.tail(), 0.0);
    assert!((d.mean() - 500.5 * 500.5).abs() < 1e-6);
}

/// Products and quotients whose operands straddle 0 land where the dense combination puts
/// them: each law against a pair-by-pair enumeration (division rounds down).
#[test]
fn quotients_and_products_match_enumeration() {
    let enumerate = |xs: Vec<i64>, ys: Vec<i64>, f: fn(i64, i64) -> i64| {
        let w = 1.0 / (xs.len() * ys.len()) as f64;
        let mut exact = std::collections::BTreeMap::new();
        for &x in &xs {
            for &y in &ys {
                *exact.entry(f(x, y)).or_insert(0.0) += w;
            }
        }
        exact
    };
    let product = enumerate((-4..=4).collect(), (-3..=3).collect(), |a, b| a * b);
    same(&as_map(&numbers("(1d9-5)*(1d7-4)")), &product, 1e-12);
    let floor = |a: i64, b: i64| (a as f64 / b as f64).floor() as i64;
    let negative = enumerate((-10..=10).collect(), vec![-4, -3, -2], floor);
    same(&as_map(&numbers("(1d21-11)/(-1d3-1)")), &negative, 1e-12);
    let quotient = enumerate((-10..=10).collect(), vec![2, 3, 4], floor);
    same(&as_map(&numbers("(1d21-11)/(1d3+1)")), &quotient, 1e-12);
}
