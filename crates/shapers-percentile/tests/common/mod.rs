//! Helpers shared by the integration tests. The oracles here never call the crate.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use dice_core::Dist;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

/// Rolls per statistical test.
pub const N: u64 = 100_000;

/// Relative agreement required of an exact probability against its enumeration.
pub const REL: f64 = 1e-12;

pub fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// The law of `f(faces)` when one die of each of `sides` is rolled: every combination of faces
/// is enumerated once (all equally likely) and counted with integer weights, then divided by
/// the number of combinations.
pub fn enumerate<O: Ord>(sides: &[u32], mut f: impl FnMut(&[u32]) -> O) -> BTreeMap<O, f64> {
    let mut counts: BTreeMap<O, u64> = BTreeMap::new();
    let mut faces = vec![1u32; sides.len()];
    let mut combinations = 0u64;
    loop {
        *counts.entry(f(&faces)).or_insert(0) += 1;
        combinations += 1;
        let mut i = 0;
        loop {
            if i == faces.len() {
                let total = combinations as f64;
                return counts
                    .into_iter()
                    .map(|(o, c)| (o, c as f64 / total))
                    .collect();
            }
            if faces[i] < sides[i] {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

/// Asserts that `dist` is the finite law `exact`: no tail, the same outcomes in increasing
/// order, every probability within relative [`REL`], total 1.
pub fn assert_law<O: Ord + Clone + Debug>(what: &str, dist: &Dist<O>, exact: &BTreeMap<O, f64>) {
    assert_eq!(dist.tail(), 0.0, "{what}: a finite law has no tail");
    let expected: Vec<O> = exact
        .iter()
        .filter(|(_, p)| **p > 0.0)
        .map(|(o, _)| o.clone())
        .collect();
    assert_eq!(dist.outcomes(), &expected[..], "{what}: outcomes differ");
    for (o, p) in dist.iter() {
        let q = exact[o];
        assert!(
            (p - q).abs() <= REL * q,
            "{what}: {o:?} has {p:e}, enumeration gives {q:e}"
        );
    }
    assert!(
        (dist.total() - 1.0).abs() <= 1e-12,
        "{what}: total {}",
        dist.total()
    );
}

/// Rolls `N` times and compares every outcome's frequency with its exact probability: within
/// 5 standard errors `sqrt(p(1 − p)/N)`. Outcomes expected fewer than 50 times are lumped into
/// one bucket (so the normal approximation holds); outcomes of probability 0 must never
/// appear.
pub fn check_rolls<O: Ord + Clone + Debug>(
    what: &str,
    exact: &Dist<O>,
    mut roll: impl FnMut() -> O,
) {
    let mut seen: BTreeMap<O, u64> = BTreeMap::new();
    for _ in 0..N {
        *seen.entry(roll()).or_insert(0) += 1;
    }
    let n = N as f64;
    let mut rare_p = 0.0;
    let mut rare_seen = 0u64;
    for (o, p) in exact.iter() {
        let count = seen.remove(o).unwrap_or(0);
        if p * n < 50.0 {
            rare_p += p;
            rare_seen += count;
            continue;
        }
        let se = (p * (1.0 - p) / n).sqrt();
        let freq = count as f64 / n;
        assert!(
            (freq - p).abs() <= 5.0 * se,
            "{what}: {o:?} seen {freq}, exact {p} (5 SE = {})",
            5.0 * se
        );
    }
    assert!(
        seen.is_empty(),
        "{what}: impossible outcomes seen: {seen:?}"
    );
    if rare_p > 0.0 {
        let se = (rare_p * (1.0 - rare_p) / n).sqrt();
        let freq = rare_seen as f64 / n;
        assert!(
            (freq - rare_p).abs() <= 5.0 * se + 1.0 / n,
            "{what}: rare outcomes seen {freq}, exact {rare_p}"
        );
    }
}
