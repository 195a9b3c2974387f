//! Helpers shared by the test files: enumeration of dice and the 5-standard-error check.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

/// Rolls per statistical test.
pub const N: u64 = 100_000;

pub fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Every sequence of `n` d6 faces, each equally likely.
pub fn all_faces(n: usize) -> impl Iterator<Item = Vec<u8>> {
    let total = 6usize.pow(n as u32);
    (0..total).map(move |mut k| {
        let mut v = vec![0u8; n];
        for f in v.iter_mut() {
            *f = (k % 6) as u8 + 1;
            k /= 6;
        }
        v
    })
}

/// Counts outcomes of `n` calls.
pub fn histogram<O: Ord>(n: u64, mut roll: impl FnMut() -> O) -> BTreeMap<O, u64> {
    let mut h = BTreeMap::new();
    for _ in 0..n {
        *h.entry(roll()).or_insert(0) += 1;
    }
    h
}

/// Observed counts of `n` rolls against an exact law: the law sums to 1, nothing outside it
/// (or of probability 0) is observed, and every outcome is within 5 standard errors
/// `sqrt(p(1 − p)/n)` of its probability.
pub fn check<O: Ord + Debug>(observed: &BTreeMap<O, u64>, exact: &BTreeMap<O, f64>, n: u64) {
    let total: f64 = exact.values().sum();
    assert!((total - 1.0).abs() <= 1e-12, "exact law sums to {total}");
    assert_eq!(observed.values().sum::<u64>(), n);
    for (o, c) in observed {
        assert!(
            exact.get(o).copied().unwrap_or(0.0) > 0.0,
            "{o:?} observed {c} times, exact probability 0"
        );
    }
    let nf = n as f64;
    for (o, &p) in exact {
        let seen = observed.get(o).copied().unwrap_or(0) as f64 / nf;
        let se = (p * (1.0 - p) / nf).sqrt();
        assert!(
            (seen - p).abs() <= 5.0 * se + 1e-12,
            "{o:?}: observed {seen}, exact {p}, {} standard errors",
            (seen - p).abs() / se
        );
    }
}

/// The listed probabilities of a dice-core law as a map.
pub fn as_map<O: Ord + Clone>(d: &dice_core::Dist<O>) -> BTreeMap<O, f64> {
    d.iter().map(|(o, p)| (o.clone(), p)).collect()
}
