//! # dice-core
//!
//! Dice, pools, exploding streaks, keep/drop, success counting and opposed resolution for
//! tabletop role-playing games, rolled with any [`rand`] RNG the caller passes in.
//!
//! Every mechanic is a small immutable value built once by a validating constructor (bad
//! input is an [`Error`], never a panic or a hang) and rolled many times:
//!
//! - [`Roll`]: "roll it" — `mechanic.roll(&mut rng)` gives a plain outcome (a number, a
//!   [`Versus`]) that can be counted in a histogram and printed. Every mechanic also
//!   implements [`rand::distr::Distribution`], so `rng.sample(&mechanic)` works too.
//! - [`RollDetailed`]: the same roll as a [`RollRecord`], with every die's natural face,
//!   modifier, value, source and flags, for people (`Display`) and programs (`serde`).
//!
//! The library never creates an RNG: a seeded RNG reproduces every roll.
//!
//! ```
//! use dice_core::{Comparison, Die, Keep, Pool, Roll, RollDetailed, Sum, SuccessPool};
//! use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
//!
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
//!
//! // 4d6, keep the highest 3.
//! let stat = Sum::new(Pool::new(4, Die::D6)?, Keep::Highest(3), 0)?;
//! let total = stat.roll(&mut rng);
//! assert!((3..=18).contains(&total));
//! println!("{}", stat.roll_record(&mut rng)); // e.g. "[5, (2), 6, 3] = 14"
//!
//! // 10d10, count the dice at or under 5.
//! let test = SuccessPool::new(Pool::new(10, Die::D10)?, Comparison::AtMost(5));
//! assert!(test.roll(&mut rng) <= 10);
//! # Ok::<(), dice_core::Error>(())
//! ```
//!
//! ## Primitives
//!
//! | rule | type |
//! |---|---|
//! | a die, d2 … d1000 | [`Die`] |
//! | a pool, mixed sources, exploding, compounding or penetrating dice | [`Pool`], [`Source`], [`Explode`] |
//! | keep/drop, sum with a modifier | [`Sum`], [`Keep`] |
//! | unique dice (rpg-dice-roller's `u`, `uo`) | [`Unique`] |
//! | total against a target, three outcomes | [`VersusTarget`], [`Versus`] |
//! | success counting, criticals alongside | [`SuccessPool`], [`Comparison`], [`Tally`] |
//! | streaks (flukes, damage streaks) | [`Streak`], [`FaceSet`] |
//! | opposed cancellation | [`Cancellation`], [`cancel`] |
//! | die-against-die blocking | [`Blocking`], [`block`], [`BlockRule`] |
//! | encounters played round by round, the exact law of their end | [`Encounter`], [`end_law`], [`play`], [`PlayOut`], [`Policy`] |
//!
//! ## Limits
//!
//! Checked in constructors, so rolling cannot fail: dice have [`MIN_SIDES`]..=[`MAX_SIDES`]
//! sides; a pool holds at most [`MAX_DICE`] dice; explosions and streaks stop at the cap the
//! caller sets (at most [`MAX_EXPLOSION_CAP`]), and without one only where the chance of going
//! on is below [`UNCAPPED_CUT_MASS`] per die ([`uncapped_roll_cap`], never before
//! [`DEFAULT_EXPLOSION_CAP`]), so rolls draw the untruncated law that the exact distributions
//! list; a pool may never produce more than [`MAX_ROLLED_DICE`] dice;
//! modifiers and targets are within ±[`MAX_MODIFIER`]; face sets hold faces up to
//! [`MAX_SET_FACE`].
//!
//! ## Features
//!
//! - `std` (default): nothing beyond `core` + `alloc` is needed, so the crate builds with
//!   `default-features = false` for `no_std` targets.
//! - `serde`: `Serialize`/`Deserialize` for records, outcomes and rule values.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

pub mod die;
mod dist;
mod encounter;
mod error;
mod faces;
mod keep_exploding;
mod opposed;
mod penetrate;
mod pool;
mod record;
mod roll_off;
mod streak;
mod success;
mod sum;
mod unique;

use core::fmt::{Debug, Display};
use core::hash::Hash;

pub use rand;
pub use rand::Rng;

pub use die::{Die, MAX_SIDES, MIN_SIDES};
pub use dist::{Dist, Numeric, binomial_pmf};
pub use encounter::{
    Encounter, EncounterLimits, EndLaw, Ending, PlayOut, Played, Policy, end_law,
    never_ending_states, play,
};
pub use error::Error;
pub use faces::{Comparison, FaceSet, MAX_SET_FACE};
pub use opposed::{
    BlockRule, Blocked, Blocking, Cancellation, block, cancel, count_blocked_sorted,
    unblocked_by_counts,
};
pub use pool::{
    CAPPED_LISTING_TOLERANCE, DEFAULT_EXPLOSION_CAP, DEFAULT_TAIL_TOLERANCE, DiceRolled, Explode,
    ExplodeMode, MAX_DICE, MAX_EXPLOSION_CAP, MAX_MODIFIER, MAX_ROLLED_DICE, Pool, PoolPart,
    UNCAPPED_CUT_MASS, WHOLE_LISTING_MAX, uncapped_roll_cap,
};
pub use record::{DieFlags, DieRoll, RollRecord, Source};
pub use roll_off::{MAX_ROLL_OFF_ORDERS, RollOffError, fair_roll_off_orders, rank_with_roll_offs};
pub use streak::{Streak, StreakRoll};
pub use success::{SuccessPool, Tally};
pub use sum::{Keep, Sum, Versus, VersusTarget};
pub use unique::{UNIQUE_MAX_EXACT_SIDES, UNIQUE_MAX_REROLLS, Unique};

/// Something that can be rolled with an RNG and yields an outcome: the one trait every
/// mechanic shares, and the only one Monte Carlo and the command-line tool need.
///
/// The outcome is plain data that can be counted in a histogram (`Ord + Hash`) and printed
/// (`Display`). As small as [`rand::distr::Distribution`], and every mechanic of this crate
/// implements that too.
///
/// ```
/// use dice_core::{Die, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// fn histogram<M: Roll>(m: &M, n: usize, seed: u64) -> std::collections::BTreeMap<M::Outcome, usize> {
///     let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
///     let mut h = std::collections::BTreeMap::new();
///     for _ in 0..n {
///         *h.entry(m.roll(&mut rng)).or_default() += 1;
///     }
///     h
/// }
/// let h = histogram(&Die::D6, 600, 1);
/// assert_eq!(h.len(), 6);
/// assert_eq!(h.values().sum::<usize>(), 600);
/// ```
pub trait Roll {
    /// What one roll yields.
    type Outcome: Clone + Ord + Hash + Debug + Display;

    /// Rolls once with the caller's RNG.
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Outcome;
}

impl<T: Roll + ?Sized> Roll for &T {
    type Outcome = T::Outcome;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> T::Outcome {
        (**self).roll(rng)
    }
}

/// A mechanic that can also report every die of a roll in a [`RollRecord`].
///
/// ```
/// use dice_core::{Die, Keep, Pool, RollDetailed, RollRecord, Sum};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let sum = Sum::new(Pool::new(3, Die::D6)?, Keep::All, 1)?;
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
/// let mut record = RollRecord::new();
/// for _ in 0..3 {
///     sum.roll_record_into(&mut rng, &mut record); // reuses the buffer
///     assert_eq!(record.total, record.kept_values().sum::<i64>() + 1);
/// }
/// # Ok::<(), dice_core::Error>(())
/// ```
pub trait RollDetailed: Roll {
    /// Rolls once into `record`, which is cleared first and whose buffer is reused.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord);

    /// Rolls once into a new record.
    fn roll_record<R: Rng + ?Sized>(&self, rng: &mut R) -> RollRecord {
        let mut record = RollRecord::new();
        self.roll_record_into(rng, &mut record);
        record
    }
}

/// The largest amount of work an exact distribution may take before it returns
/// [`Error::TooComplex`] instead. Work is counted in budget units of about a nanosecond of one
/// core each, every algorithm's estimate scaled by a constant measured with the criterion
/// benches (docs/performance.md, "Cost model"), so this limit is about ten seconds.
pub const MAX_EXACT_WORK: u64 = 10_000_000_000;

/// A mechanic whose outcome distribution can be computed exactly: the answer to "what are my
/// chances?", without sampling.
///
/// Laws with unbounded support (exploding dice without an explicit cap) list a finite part and
/// carry the rest as [`Dist::tail`]; with an explicit cap, the law is the capped one.
///
/// ```
/// use dice_core::{Die, Exact, Keep, Pool, Sum};
/// let two_d6 = Sum::new(Pool::new(2, Die::D6)?, Keep::All, 0)?;
/// let d = two_d6.distribution()?;
/// assert!((d.probability(&7) - 6.0 / 36.0).abs() < 1e-15);
/// # Ok::<(), dice_core::Error>(())
/// ```
pub trait Exact: Roll {
    /// The exact law of [`Roll::roll`]'s outcome.
    ///
    /// # Errors
    /// [`Error::TooComplex`] when the computation would exceed [`MAX_EXACT_WORK`].
    fn distribution(&self) -> Result<Dist<Self::Outcome>, Error>;
}

impl<T: Exact + ?Sized> Exact for &T {
    fn distribution(&self) -> Result<Dist<T::Outcome>, Error> {
        (**self).distribution()
    }
}

impl Exact for Die {
    fn distribution(&self) -> Result<Dist<u32>, Error> {
        Ok(dist::Dense::uniform(1, i64::from(self.sides())).into_dist_as(0.0))
    }
}

impl Roll for Die {
    /// The face, `1..=sides`.
    type Outcome = u32;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.roll_face(rng)
    }
}

impl RollDetailed for Die {
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let face = self.roll_face(rng);
        record.dice.push(DieRoll::new(*self, face, Source::Primary));
        record.total = i64::from(face);
    }
}

/// Implements `rand::distr::Distribution<Outcome>` by delegating to [`Roll::roll`].
macro_rules! distribution_via_roll {
    ($($t:ty),* $(,)?) => {$(
        impl rand::distr::Distribution<<$t as Roll>::Outcome> for $t {
            #[inline]
            fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> <$t as Roll>::Outcome {
                Roll::roll(self, rng)
            }
        }
    )*};
}

distribution_via_roll!(
    Die,
    Pool,
    Sum,
    VersusTarget,
    SuccessPool,
    Streak,
    Cancellation,
    Blocking,
);
