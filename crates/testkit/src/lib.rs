//! Test helpers shared by the integration tests of the dicepool crates: enumeration oracles
//! that never call the code under test, and seeded Monte Carlo checks at 5 standard errors.
//!
//! A 5 SE deviation has two-sided probability about 6·10⁻⁷, so a correct implementation
//! fails a check by chance far less than once in the life of the suite; the seeds are fixed
//! anyway, so a failure is reproducible.
//!
//! Not published: the game crates list it as a path-only dev-dependency.
#![warn(missing_docs)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use dice_core::Dist;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// Rolls per statistical test.
pub const N: u64 = 100_000;

/// Relative agreement required of an exact probability against its enumeration.
pub const REL: f64 = 1e-12;

/// The seeded RNG of the tests.
///
/// ```
/// use rand::Rng;
/// assert_eq!(dice_testkit::rng(1).next_u64(), dice_testkit::rng(1).next_u64());
/// ```
pub fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// The law of `f(faces)` when one die of each of `sides` is rolled: every combination of
/// faces is enumerated once (all equally likely) and counted with integer weights, then
/// divided by the number of combinations.
///
/// ```
/// let two_d6 = dice_testkit::enumerate(&[6, 6], |f| f[0] + f[1]);
/// assert_eq!(two_d6[&7], 6.0 / 36.0);
/// ```
pub fn enumerate<O: Ord>(sides: &[u32], mut f: impl FnMut(&[u32]) -> O) -> BTreeMap<O, f64> {
    let mut counts: BTreeMap<O, u64> = BTreeMap::new();
    let mut faces = vec![1u32; sides.len()];
    let mut combinations = 0u64;
    loop {
        *counts.entry(f(&faces)).or_insert(0) += 1;
        combinations += 1;
        // Odometer step: the first die that can go up does, the ones before it wrap to 1.
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

/// Every sequence of `n` faces of a die with `sides` faces (1..=sides), each once.
///
/// ```
/// assert_eq!(dice_testkit::all_faces(2, 6).count(), 36);
/// ```
pub fn all_faces(n: usize, sides: u8) -> impl Iterator<Item = Vec<u8>> {
    let s = usize::from(sides);
    let total = s.pow(n as u32);
    (0..total).map(move |mut k| {
        let mut v = vec![0u8; n];
        for f in v.iter_mut() {
            *f = (k % s) as u8 + 1;
            k /= s;
        }
        v
    })
}

/// The law of `f(faces)` over every sequence of `n` faces of a `sides`-sided die.
///
/// ```
/// let best = dice_testkit::enumerate_faces(2, 10, |f| *f.iter().max().unwrap());
/// assert!((best[&10] - 19.0 / 100.0).abs() < 1e-15);
/// ```
pub fn enumerate_faces<O: Ord>(
    n: usize,
    sides: u8,
    mut f: impl FnMut(&[u8]) -> O,
) -> BTreeMap<O, f64> {
    let mut counts: BTreeMap<O, u64> = BTreeMap::new();
    let mut total = 0u64;
    for faces in all_faces(n, sides) {
        *counts.entry(f(&faces)).or_insert(0) += 1;
        total += 1;
    }
    counts
        .into_iter()
        .map(|(o, c)| (o, c as f64 / total as f64))
        .collect()
}

/// Counts the outcomes of `n` calls.
///
/// ```
/// let h = dice_testkit::histogram(10, || 3);
/// assert_eq!(h[&3], 10);
/// ```
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
            "{o:?}: observed {seen}, exact {p}, {:.1} standard errors",
            (seen - p).abs() / se
        );
    }
}

/// The listed probabilities of a dice-core law as a map.
pub fn as_map<O: Ord + Clone>(d: &Dist<O>) -> BTreeMap<O, f64> {
    d.iter().map(|(o, p)| (o.clone(), p)).collect()
}

/// Two laws agree outcome by outcome within `eps` (an outcome missing from one counts 0).
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

/// Rolls [`N`] times and compares every outcome's frequency with its exact probability:
/// within 5 standard errors. Outcomes expected fewer than 50 times are lumped into one
/// bucket (so the normal approximation holds); outcomes of probability 0 must never appear.
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

/// Asserts that `value` survives a round trip through JSON unchanged.
///
/// ```
/// dice_testkit::round_trip(&vec![(1u8, "one".to_string())]);
/// ```
pub fn round_trip<T>(value: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + Debug,
{
    let json = serde_json::to_string(value).expect("serializes");
    let back: T = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(&back, value, "{json}");
}
