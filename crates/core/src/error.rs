//! The one error type of dice-core.

/// Everything that can be wrong with the input to a dice-core constructor.
///
/// Every variant carries the offending value and the allowed range, so the message alone tells
/// a user what to change. Rolling never fails: all checks happen when a mechanic is built.
///
/// ```
/// use dice_core::{Die, Error};
/// let err = Die::new(0).unwrap_err();
/// assert_eq!(err, Error::Sides { sides: 0, min: 2, max: 1000 });
/// assert_eq!(err.to_string(), "a die needs 2 to 1000 sides, not 0");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A die with too few or too many sides.
    #[error("a die needs {min} to {max} sides, not {sides}")]
    Sides {
        /// What was asked for.
        sides: u32,
        /// [`crate::MIN_SIDES`].
        min: u32,
        /// [`crate::MAX_SIDES`].
        max: u32,
    },
    /// A pool with more dice than [`crate::MAX_DICE`].
    #[error("a pool holds at most {max} dice, not {count}")]
    TooManyDice {
        /// What was asked for.
        count: u64,
        /// [`crate::MAX_DICE`].
        max: u32,
    },
    /// A face outside what a face set can hold.
    #[error("face {face} is outside 1..={max}")]
    Face {
        /// The offending face.
        face: i64,
        /// The largest face allowed here.
        max: u32,
    },
    /// Keeping or dropping more dice than the pool has.
    #[error("cannot keep or drop {k} dice of a pool of {count}")]
    Keep {
        /// How many dice were to be kept or dropped.
        k: u32,
        /// How many dice the pool has.
        count: u32,
    },
    /// A streak or explosion that would continue on every face of its die, with no cap given.
    #[error(
        "a {die} that continues on every face never stops: give an explicit cap (1..={max_cap})"
    )]
    Endless {
        /// The die, as text (`d6`).
        die: crate::Die,
        /// [`crate::MAX_EXPLOSION_CAP`].
        max_cap: u32,
    },
    /// An explosion or streak cap outside the allowed range.
    #[error("cap {cap} is outside 1..={max}")]
    Cap {
        /// The offending cap.
        cap: u32,
        /// [`crate::MAX_EXPLOSION_CAP`].
        max: u32,
    },
    /// A pool whose worst case (every die exploding to its cap) is more dice than a roll may
    /// produce.
    #[error("{count} dice exploding up to {cap} times each could make more than {max} dice")]
    TooManyRolled {
        /// Dice in the pool.
        count: u32,
        /// Explosion cap per die.
        cap: u32,
        /// [`crate::MAX_ROLLED_DICE`].
        max: u64,
    },
    /// A modifier, threshold or target outside `-MAX_MODIFIER..=MAX_MODIFIER`.
    #[error("{what} {value} is outside {min}..={max}")]
    OutOfRange {
        /// What the number is (`"modifier"`, `"target"`, `"difficulty"` …).
        what: &'static str,
        /// The offending value.
        value: i64,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A probability that is negative, not finite, or a set of probabilities adding up to
    /// more than one.
    #[error("{value} is not a probability (or the probabilities add up to more than 1)")]
    Probability {
        /// The offending value (or the total).
        value: f64,
    },
    /// An exact distribution whose computation would exceed the work limit
    /// [`crate::MAX_EXACT_WORK`].
    #[error("the exact distribution of {what} needs about {work} steps, more than {max}")]
    TooComplex {
        /// The mechanic.
        what: &'static str,
        /// Estimated steps.
        work: u64,
        /// [`crate::MAX_EXACT_WORK`].
        max: u64,
    },
    /// An encounter whose exact law would list more states than its limit
    /// ([`crate::EncounterLimits::max_states`]): from the game's bound before any work
    /// ([`crate::Encounter::state_bound`]), or counted as the states are listed.
    #[error(
        "the exact odds of this encounter may need {states} states, more than {max}: \
         estimate them by playing it many times instead (Monte Carlo)"
    )]
    TooManyStates {
        /// The game's bound, or the states listed when the limit was reached.
        states: u64,
        /// [`crate::EncounterLimits::max_states`].
        max: u64,
    },
    /// An exact computation this version does not offer.
    #[error("not supported: {what}")]
    Unsupported {
        /// What was asked.
        what: &'static str,
    },
    /// A pool with no dice where at least one is needed.
    #[error("{what} needs at least one die")]
    NoDice {
        /// The mechanic that needs dice.
        what: &'static str,
    },
}
