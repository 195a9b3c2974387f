//! Parses arbitrary input; when it parses and its exact law is affordable (not refused for
//! cost), rolls it a few times with a seeded RNG, on both rolling paths, and asserts that
//! every rolled outcome is possible according to the exact law: listed (listed outcomes have
//! positive probability), or beyond the listed outcomes at either end when the law has a
//! tail (where dice-core and dice-notation keep their unlisted mass).
//!
//! A first byte 0 to 4 picks the dialect (`Dialect::ALL[byte]`, the rest is the text);
//! otherwise the whole input is text in this crate's grammar, so every seed corpus file is a
//! plain expression. The RNG seed is a hash of the whole input, so a crash reproduces from
//! the file alone.
#![no_main]

use dice_core::{Dist, Roll};
use dice_notation::{Dialect, Expression, Outcome};
use libfuzzer_sys::fuzz_target;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

/// Rolls per path and input.
const ROLLS: usize = 8;

/// FNV-1a, for a seed that depends on the whole input.
fn seed(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Whether `o` has positive probability in `law`, or may lie in its tail.
fn possible(law: &Dist<Outcome>, o: &Outcome) -> bool {
    if law.outcomes().binary_search(o).is_ok() {
        return law.probability(o) > 0.0;
    }
    law.tail() > 0.0
        && match (law.outcomes().first(), law.outcomes().last()) {
            (Some(lo), Some(hi)) => o < lo || o > hi,
            _ => true,
        }
}

fuzz_target!(|data: &[u8]| {
    let (dialect, rest) = match data.split_first() {
        Some((&pick, rest)) if usize::from(pick) < Dialect::ALL.len() => {
            (Dialect::ALL[usize::from(pick)], rest)
        }
        _ => (Dialect::Default, data),
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(e) = Expression::parse_with(text, dialect) else {
        return;
    };
    // Refused for cost (or unsupported): nothing to compare with.
    let Ok(law) = e.distribution() else {
        return;
    };
    assert!(
        (law.total() - 1.0).abs() <= 1e-9,
        "{e}: probabilities plus tail sum to {}",
        law.total()
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed(data));
    for _ in 0..ROLLS {
        let o = Roll::roll(&e, &mut rng);
        assert!(
            possible(&law, &o),
            "{e}: rolled {o}, which the exact law gives no probability (lists {} outcomes \
             from {:?} to {:?}, tail {:e})",
            law.len(),
            law.outcomes().first(),
            law.outcomes().last(),
            law.tail()
        );
        let r = e.roll(&mut rng);
        assert!(
            possible(&law, &r.outcome),
            "{e}: rolled {r}, which the exact law gives no probability (lists {} outcomes \
             from {:?} to {:?}, tail {:e})",
            law.len(),
            law.outcomes().first(),
            law.outcomes().last(),
            law.tail()
        );
    }
});
