//! Seeds: the one given with `--seed`, or a fresh one from the OS (std's randomly keyed
//! hasher and the clock), always reported so that a roll can be replayed.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// Fresh seeds are below this, so that they are short enough to retype.
pub const FRESH_SEED_BOUND: u64 = 1_000_000_000;

/// The seed of a roll or a Monte Carlo run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The seed.
    pub value: u64,
    /// Whether it was given with `--seed` (else it is fresh).
    pub given: bool,
}

impl Seed {
    /// The seed given, or a fresh one.
    pub fn resolve(given: Option<u64>) -> Seed {
        match given {
            Some(value) => Seed { value, given: true },
            None => Seed {
                value: fresh(),
                given: false,
            },
        }
    }

    /// The RNG every roll of the tool uses: xoshiro256++ seeded with the seed (through
    /// `SeedableRng::seed_from_u64`), so `--seed N` replays a roll exactly.
    pub fn rng(&self) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(self.value)
    }

    /// `seed 123 (replay with --seed 123)`, or `seed 123` when it was given.
    pub fn line(&self) -> String {
        if self.given {
            format!("seed {}", self.value)
        } else {
            format!("seed {0} (replay with --seed {0})", self.value)
        }
    }
}

/// A seed from the OS: std's `RandomState` is keyed from the OS's entropy source; the clock
/// and the process id are mixed in too.
fn fresh() -> u64 {
    let mut h = RandomState::new().build_hasher();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    h.finish() % FRESH_SEED_BOUND
}
