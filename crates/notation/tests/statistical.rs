//! Seeded rolls against exact laws: 100,000 rolls of each expression with a fixed seed, every
//! outcome's frequency within 5 standard errors `sqrt(p(1 − p)/N)` of its exact probability
//! (the exact laws themselves are checked against enumeration in `exact.rs`).
//!
//! Outcomes expected fewer than 50 times are pooled into one "rare" outcome, so that the
//! normal approximation behind the 5 SE bound holds; an outcome outside the law fails
//! outright. Both rolling paths are exercised: `Roll::roll` (dice-core's count-only paths
//! where a term compiled onto dice-core) and the record path.

use std::collections::BTreeMap;

use dice_core::{Dist, Roll};
use dice_notation::{Expression, Outcome};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

const N: u64 = 100_000;

fn check(expr: &str, seed: u64, record: bool) {
    check_against(expr, expr, seed, record);
}

/// Rolls `expr` and compares with the law of `law`.
fn check_against(expr: &str, law: &str, seed: u64, record: bool) {
    let e = Expression::parse(expr).unwrap();
    let exact: Dist<Outcome> = Expression::parse(law).unwrap().distribution().unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut seen: BTreeMap<Outcome, u64> = BTreeMap::new();
    for _ in 0..N {
        let o = if record {
            e.roll(&mut rng).outcome
        } else {
            Roll::roll(&e, &mut rng)
        };
        *seen.entry(o).or_insert(0) += 1;
    }
    let n = N as f64;
    let (mut rare_p, mut rare_seen) = (exact.tail(), 0u64);
    for (o, count) in &seen {
        let p = exact.probability(o);
        assert!(p > 0.0, "{expr}: {o} was rolled but has probability 0");
        if p * n < 50.0 {
            rare_seen += count;
        }
    }
    let mut failures = Vec::new();
    for (o, p) in exact.iter() {
        if p * n < 50.0 {
            rare_p += p;
            continue;
        }
        let f = seen.get(o).copied().unwrap_or(0) as f64 / n;
        let se = (p * (1.0 - p) / n).sqrt();
        if (f - p).abs() > 5.0 * se {
            failures.push(format!("{o}: {f} vs {p} ({:.1} SE)", (f - p) / se));
        }
    }
    if rare_p * n >= 1.0 {
        let f = rare_seen as f64 / n;
        let se = (rare_p * (1.0 - rare_p) / n).sqrt();
        if (f - rare_p).abs() > 5.0 * se {
            failures.push(format!("rare: {f} vs {rare_p}"));
        }
    } else {
        assert!(rare_seen <= 5, "{expr}: {rare_seen} rare outcomes");
    }
    assert!(failures.is_empty(), "{expr}: {failures:?}");
}

#[test]
fn ability_scores() {
    check("4d6kh3", 1, false);
    check("4d6kh3", 2, true);
}

#[test]
fn rerolls_and_keep() {
    check("4d6ro1kh3", 3, false);
    check("2d20r<=2kl1", 4, true);
}

#[test]
fn exploding_success_counts_with_failures() {
    check("10d10!>=8>=8f1", 5, false);
    check("6d10!10>=8f1", 6, true);
}

#[test]
fn fudge_and_arithmetic() {
    check("3dF+1d4/2", 7, false);
    check("4dF!", 8, true);
    check("max(1d6, 1d8)*2-1d4", 9, false);
}

#[test]
fn comparisons() {
    check("2d20kh1+5 vs 15", 10, false);
    check("1d20+4 vs 1d20+6", 11, true);
}

#[test]
fn streaks_and_compounding() {
    check("streak(d6>=4)", 12, false);
    check("1+streak(d6={5,6}cap3)", 13, true);
    check("3d6!!min4kh2", 14, false);
}

/// The check has teeth: a law that is slightly off is caught.
#[test]
#[should_panic(expected = "SE")]
fn a_wrong_law_is_caught() {
    // Rerolling 1s once against rerolling them until they stop: close, but not the same.
    check_against("4d6r1kh3", "4d6ro1kh3", 15, false);
}
