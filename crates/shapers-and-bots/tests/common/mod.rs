//! Helpers shared by the test files: dice-testkit's enumeration and 5-standard-error check,
//! with the d6 of this game.

#![allow(dead_code, unused_imports)]

pub use dice_testkit::{N, as_map, check, histogram, rng};

/// Every sequence of `n` d6 faces, each equally likely.
pub fn all_faces(n: usize) -> impl Iterator<Item = Vec<u8>> {
    dice_testkit::all_faces(n, 6)
}
