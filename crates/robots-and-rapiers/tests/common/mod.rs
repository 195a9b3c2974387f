//! Helpers shared by the test files: dice-testkit's enumeration and 5-standard-error check,
//! with the d10 of this game.

#![allow(dead_code, unused_imports)]

use std::collections::BTreeMap;

pub use dice_testkit::{N, as_map, check, histogram, rng, same};

/// Every sequence of `n` d10 faces (1–10), each equally likely (10ⁿ of them).
pub fn all_faces(n: usize) -> impl Iterator<Item = Vec<u8>> {
    dice_testkit::all_faces(n, 10)
}

/// The enumerated law of a function of `n` d10 faces.
pub fn enumerate<O: Ord>(n: usize, f: impl FnMut(&[u8]) -> O) -> BTreeMap<O, f64> {
    dice_testkit::enumerate_faces(n, 10, f)
}
