//! Helpers shared by the test files: enumeration of d10 faces and the 5-standard-error check.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

/// Rolls per statistical test.
pub const N: u64 = 100_000;

pub fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Every sequence of `n` d10 faces (1–10), each equally likely (10ⁿ of them).
pub fn all_faces(n: usize) -> impl Iterator<Item = Vec<u8>> {
    let total = 10usize.pow(n as u32);
    (0..total).map(move |mut k| {
        let mut v = vec![0u8; n];
        for f in v.iter_mut() {
            *f = (k % 10) as u8 + 1;
            k /= 10;
        }
        v
    })
}

/// The enumerated law of a function of `n` d10 faces.
pub fn enumerate<O: Ord>(n: usize, mut f: impl FnMut(&[u8]) -> O) -> BTreeMap<O, f64> {
    let total = 10f64.powi(n as i32);
    let mut m = BTreeMap::new();
    for faces in all_faces(n) {
        *m.entry(f(&faces)).or_insert(0.0) += 1.0 / total;
    }
    m
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
/// is observed, and every outcome is within 5 standard errors of its probability.
pub fn check<O: Ord + Debug>(observed: &BTreeMap<O, u64>, exact: &BTreeMap<O, f64>, n: u64) {
    let total: f64 = exact.values().sum();
    assert!((total - 1.0).abs() <= 1e-9, "exact law sums to {total}");
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

/// Two laws agree outcome by outcome within `eps`.
pub fn same<O: Ord + Debug>(a: &BTreeMap<O, f64>, b: &BTreeMap<O, f64>, eps: f64) {
    for (o, &p) in a {
        let q = b.get(o).copied().unwrap_or(0.0);
        assert!((p - q).abs() <= eps, "{o:?}: {p} vs {q}");
    }
    for (o, &q) in b {
        let p = a.get(o).copied().unwrap_or(0.0);
        assert!((p - q).abs() <= eps, "{o:?}: {p} vs {q}");
    }
}
