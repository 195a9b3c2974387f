//! A single die and the unbiased extraction of faces from 64-bit draws.
//!
//! # Why the extraction is exact
//!
//! To roll `k` dice of `n` sides we draw one uniform 64-bit word `x` and look at the 128-bit
//! product `x · p` with `p = nᵏ`. Write `hi = ⌊x·p / 2⁶⁴⌋` and `lo = x·p mod 2⁶⁴`. Every value
//! of `hi` in `0..p` is hit by either `⌊2⁶⁴/p⌋` or `⌈2⁶⁴/p⌉` values of `x`; rejecting the draws
//! with `lo < 2⁶⁴ mod p` (Lemire, "Fast Random Integer Generation in an Interval", 2019) leaves
//! exactly `⌊2⁶⁴/p⌋` preimages for each `hi`, so an accepted `hi` is uniform on `0..p`.
//!
//! A uniform `hi` on `0..nᵏ` is the same thing as `k` independent uniform base-`n` digits. The
//! digits are read without dividing: with `rᵢ = x · nⁱ mod 2⁶⁴`, digit `i` (most significant
//! first) is `⌊rᵢ · n / 2⁶⁴⌋`. (By induction, `x·nⁱ⁺¹ = (Σⱼ≤ᵢ dⱼ·nⁱ⁻ʲ)·2⁶⁴ + rᵢ₊₁` with
//! `rᵢ₊₁ = rᵢ·n mod 2⁶⁴`, and every `dⱼ < n` because `rⱼ < 2⁶⁴`.) Each `rᵢ` is a single wrapping
//! multiplication of `x` by a precomputed power, so the digits of one draw do not wait on each
//! other.
//!
//! A digit is below a bound `s` exactly when `rᵢ·n < s·2⁶⁴`, that is when
//! `rᵢ < ⌈s·2⁶⁴/n⌉`, so a success test never needs the face itself: it is one comparison on
//! the raw bits (`Batch::bits_below`, internal).
//!
//! `k` is chosen so that `p ≤ 2⁵⁶`; a draw is then rejected with probability below 2⁻⁸
//! (for a d6 batch of 21 dice it is about 0.1 %, for one d6 it is about 2⁻⁶³).

use core::fmt;

use rand::Rng;

use crate::error::Error;

/// The fewest sides a [`Die`] may have.
pub const MIN_SIDES: u32 = 2;
/// The most sides a [`Die`] may have (a d1000).
pub const MAX_SIDES: u32 = 1000;

/// The largest product of sides read from one 64-bit draw (see the module docs).
const BATCH_LIMIT: u128 = 1 << 56;

/// Most dice one draw can feed: a d2 batch, 2⁵⁶ = 2⁵⁶.
pub(crate) const MAX_BATCH: usize = 56;

/// A die with faces `1..=sides`, such as a d6 or a d100 (faces 1–100).
///
/// A `Die` is a tiny `Copy` value; rolling it takes the caller's RNG, so a seeded RNG
/// reproduces every roll.
///
/// ```
/// use dice_core::{Die, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let d6 = Die::new(6)?;
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
/// let face = d6.roll(&mut rng);
/// assert!((1..=6).contains(&face));
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u32", into = "u32"))]
pub struct Die {
    sides: u32,
}

impl Die {
    /// A d6, for convenience in examples and game crates.
    pub const D6: Die = Die { sides: 6 };
    /// A d10.
    pub const D10: Die = Die { sides: 10 };
    /// A d20.
    pub const D20: Die = Die { sides: 20 };
    /// A d100 (faces 1–100, not 0–99).
    pub const D100: Die = Die { sides: 100 };

    /// A die with `sides` faces numbered `1..=sides`.
    ///
    /// # Errors
    /// [`Error::Sides`] unless `MIN_SIDES <= sides <= MAX_SIDES`.
    ///
    /// ```
    /// use dice_core::Die;
    /// assert_eq!(Die::new(20)?.sides(), 20);
    /// assert!(Die::new(0).is_err());
    /// assert!(Die::new(1001).is_err());
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub const fn new(sides: u32) -> Result<Self, Error> {
        if sides < MIN_SIDES || sides > MAX_SIDES {
            return Err(Error::Sides {
                sides,
                min: MIN_SIDES,
                max: MAX_SIDES,
            });
        }
        Ok(Die { sides })
    }

    /// The number of faces.
    ///
    /// ```
    /// assert_eq!(dice_core::Die::D100.sides(), 100);
    /// ```
    pub const fn sides(self) -> u32 {
        self.sides
    }

    /// Rolls the die once, returning a face in `1..=sides`.
    ///
    /// ```
    /// use dice_core::Die;
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    /// let face = Die::D20.roll_face(&mut rng);
    /// assert!((1..=20).contains(&face));
    /// ```
    #[inline]
    pub fn roll_face<R: Rng + ?Sized>(self, rng: &mut R) -> u32 {
        let n = u64::from(self.sides);
        // One die: the batch of size 1, p = n.
        let reject_below = n.wrapping_neg() % n;
        loop {
            let m = u128::from(rng.next_u64()) * u128::from(n);
            if (m as u64) >= reject_below {
                return (m >> 64) as u32 + 1;
            }
        }
    }
}

impl fmt::Display for Die {
    /// Formats as `d6`, `d100`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides)
    }
}

impl TryFrom<u32> for Die {
    type Error = Error;
    fn try_from(sides: u32) -> Result<Self, Error> {
        Die::new(sides)
    }
}

impl From<Die> for u32 {
    fn from(d: Die) -> u32 {
        d.sides
    }
}

/// How to read `len` dice of one size from a single 64-bit draw (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Batch {
    /// Sides of the die.
    pub(crate) n: u64,
    /// Dice read per draw.
    pub(crate) len: usize,
    /// `nᵏ` for this batch.
    p: u64,
    /// `2⁶⁴ mod p`: draws whose low product word falls below this are rejected.
    reject_below: u64,
    /// `nⁱ mod 2⁶⁴` for digit `i`.
    pows: [u64; MAX_BATCH],
}

impl Batch {
    /// The largest batch for a die of `n` sides.
    pub(crate) fn full(n: u32) -> Batch {
        Batch::with_len(n, usize::MAX)
    }

    /// A batch of at most `want` dice (at least one).
    pub(crate) fn with_len(n: u32, want: usize) -> Batch {
        let n = u64::from(n);
        let mut pows = [0u64; MAX_BATCH];
        let mut p: u128 = 1;
        let mut len = 0;
        while len < MAX_BATCH && len < want.max(1) && p * u128::from(n) <= BATCH_LIMIT {
            pows[len] = p as u64;
            p *= u128::from(n);
            len += 1;
        }
        let p = p as u64;
        Batch {
            n,
            len,
            p,
            reject_below: p.wrapping_neg() % p,
            pows,
        }
    }

    /// One accepted 64-bit draw.
    #[inline(always)]
    pub(crate) fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        loop {
            let x = rng.next_u64();
            if x.wrapping_mul(self.p) >= self.reject_below {
                return x;
            }
        }
    }

    /// The raw bits `rᵢ` of digit `i` of draw `x`.
    #[inline(always)]
    pub(crate) fn bits(&self, x: u64, i: usize) -> u64 {
        x.wrapping_mul(self.pows[i])
    }

    /// The multipliers of the first `take` digits.
    #[inline(always)]
    pub(crate) fn pows(&self, take: usize) -> &[u64] {
        &self.pows[..take]
    }

    /// The 0-based digit (face − 1) held in raw bits `r`.
    #[inline(always)]
    pub(crate) fn digit(&self, r: u64) -> u64 {
        ((u128::from(r) * u128::from(self.n)) >> 64) as u64
    }

    /// The raw-bits bound for "digit < s": digit(r) < s exactly when r < bound.
    /// Returns `None` when every digit is below `s` (s ≥ n).
    pub(crate) fn bits_below(n: u64, s: u64) -> Option<u64> {
        if s >= n {
            return None;
        }
        // ⌈s·2⁶⁴ / n⌉, which is < 2⁶⁴ because s < n.
        let num = u128::from(s) << 64;
        Some(num.div_ceil(u128::from(n)) as u64)
    }
}

/// A lazy stream of faces of one die size, for mechanics that do not know in advance how many
/// dice they need (streaks, explosions). Unused faces of the last draw are discarded.
pub(crate) struct FaceStream<'a> {
    batch: &'a Batch,
    x: u64,
    next: usize,
}

impl<'a> FaceStream<'a> {
    pub(crate) fn new(batch: &'a Batch) -> Self {
        FaceStream {
            batch,
            x: 0,
            next: batch.len,
        }
    }

    /// The next face, in `1..=n`.
    #[inline(always)]
    pub(crate) fn face<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        if self.next == self.batch.len {
            self.x = self.batch.draw(rng);
            self.next = 0;
        }
        let r = self.batch.bits(self.x, self.next);
        self.next += 1;
        self.batch.digit(r) as u32 + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_sizes_stay_under_the_limit() {
        for n in MIN_SIDES..=MAX_SIDES {
            let b = Batch::full(n);
            assert!(b.len >= 1);
            assert!(u128::from(b.n).pow(b.len as u32) <= BATCH_LIMIT);
            assert!(u128::from(b.n).pow(b.len as u32 + 1) > BATCH_LIMIT || b.len == MAX_BATCH);
        }
        assert_eq!(Batch::full(6).len, 21);
        assert_eq!(Batch::full(10).len, 16);
        assert_eq!(Batch::with_len(10, 3).len, 3);
    }

    #[test]
    fn digits_match_the_wide_product() {
        // The digits read by the power trick are the base-n digits of hi = ⌊x·p / 2⁶⁴⌋.
        let b = Batch::full(6);
        for &x in &[0u64, 1, 12345678901234567, u64::MAX, 0x8000_0000_0000_0000] {
            let hi = (u128::from(x) * u128::from(b.p)) >> 64;
            let mut rebuilt: u128 = 0;
            for i in 0..b.len {
                rebuilt = rebuilt * 6 + u128::from(b.digit(b.bits(x, i)));
            }
            assert_eq!(rebuilt, hi);
        }
    }

    #[test]
    fn bits_below_is_the_exact_digit_threshold() {
        for n in [2u64, 3, 6, 10, 20, 100, 1000] {
            for s in 1..n {
                let t = Batch::bits_below(n, s).unwrap();
                let digit = |r: u64| ((u128::from(r) * u128::from(n)) >> 64) as u64;
                assert!(digit(t - 1) < s);
                assert!(digit(t) >= s);
            }
            assert_eq!(Batch::bits_below(n, n), None);
        }
    }
}
