//! Parses arbitrary input and rolls whatever parses: no panic, no hang, limits respected.
//!
//! A first byte 0 to 4 picks the dialect (`Dialect::ALL[byte]`, the rest is the text);
//! otherwise the whole input is text in this crate's grammar, so every seed corpus file is a
//! plain expression. The RNG seed is a hash of the whole input, so a crash reproduces from
//! the file alone.
#![no_main]

use dice_core::Roll;
use dice_notation::{Dialect, Expression, MAX_INPUT_LEN, MAX_ROLLED, Outcome};
use libfuzzer_sys::fuzz_target;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

/// FNV-1a, for a seed that depends on the whole input.
fn seed(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
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
    let e = match Expression::parse_with(text, dialect) {
        Ok(e) => e,
        Err(err) => {
            // The span lies within the input, on character boundaries, and both forms of
            // the message print.
            let s = err.span();
            assert!(s.start <= s.end && s.end <= text.len());
            assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
            let _ = format!("{err} {err:#}");
            return;
        }
    };
    assert!(text.len() <= MAX_INPUT_LEN);
    let seed = seed(data);
    let result = e.roll(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
    // The plain path draws the same numbers and agrees.
    let plain = Roll::roll(&e, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
    assert_eq!(result.outcome, plain, "{e}");
    // The total lies within the bounds the parser checked.
    let (lo, hi) = e.bounds();
    assert!((lo..=hi).contains(&result.total), "{e}: {}", result.total);
    if let Outcome::Number(n) = result.outcome {
        assert_eq!(n, result.total);
    }
    // No roll makes more dice than the limit.
    let dice: usize = result.terms.iter().map(|t| t.dice.len()).sum();
    assert!(dice as u64 <= MAX_ROLLED, "{e}: {dice} dice");
    let _ = result.to_string();
});
