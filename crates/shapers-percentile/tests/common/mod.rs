//! Helpers shared by the integration tests: dice-testkit's oracles (which never call the
//! crate) and its seeded 5-standard-error check.

#![allow(dead_code, unused_imports)]

pub use dice_testkit::{N, REL, assert_law, check_rolls, enumerate, rng};
