//! The error type of the Tests, saves, conflicts and combat: every message says what is
//! wrong, which rule it breaks (rulebook lines) and what is allowed.

/// Everything that can be wrong with the input to a Robots & Rapiers mechanic.
///
/// Rolling never fails: all checks happen when a mechanic is built, when dice already rolled
/// are handed to a pure form, or when successes are spent.
///
/// ```
/// use dice_robots_and_rapiers::{Error, Ledger};
/// let mut ledger = Ledger::new(2);
/// ledger.accomplish(1)?;
/// let err = ledger.roll_over(3).unwrap_err();
/// assert!(matches!(err, Error::Unaffordable { wanted: 3, left: 1, .. }));
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A dice-core constructor refused its input.
    #[error(transparent)]
    Core(#[from] dice_core::Error),
    /// A name that is not in the rulebook's lists.
    #[error("unknown {kind} {text:?}")]
    UnknownName {
        /// What kind of name ("attribute", "program", "weapon", …).
        kind: &'static str,
        /// The text given.
        text: String,
    },
    /// A face no d10 shows.
    #[error("a d10 shows 1 to 10, not {face} (the text's \"0\" is 10)")]
    Face {
        /// The face given.
        face: u8,
    },
    /// The wrong number of dice for a roll.
    #[error("{what} rolls {expected} dice, not {got}")]
    DiceCount {
        /// The roll.
        what: &'static str,
        /// How many it rolls.
        expected: usize,
        /// How many were given.
        got: usize,
    },
    /// No dice for an action the robot has no program for and that is not related to its
    /// role (L1438).
    #[error(
        "no dice: without the program, and not related to the robot's role, \"The player gets \
         no dice to roll\" (L1438); a Sparked robot may make an Inspiration Roll"
    )]
    NoDice,
    /// A pool larger than the crate's limit.
    #[error("a Test pool holds at most {max} dice, not {dice}")]
    TooManyDice {
        /// What was asked for.
        dice: u32,
        /// [`crate::MAX_POOL`].
        max: u32,
    },
    /// A modifier or target outside the sane range.
    #[error("{what} must be within {min}..={max}, not {value}")]
    OutOfRange {
        /// What.
        what: &'static str,
        /// The value given.
        value: i64,
        /// The least allowed.
        min: i64,
        /// The most allowed.
        max: i64,
    },
    /// A spend larger than the successes left.
    #[error("cannot spend {wanted} success(es) on {on}: only {left} left")]
    Unaffordable {
        /// What the successes were to buy.
        on: &'static str,
        /// How many were asked for.
        wanted: u32,
        /// How many are left.
        left: u32,
    },
    /// Spending successes before the action is accomplished.
    #[error(
        "the first success accomplishes the action and \"cannot be used for any of the other \
         purposes\" (L212): accomplish first, or use Ledger::augmenting for a roll that only \
         augments (A4)"
    )]
    NotAccomplished,
    /// A Sparked-only use by a robot that is not Sparked.
    #[error("only Sparked robots may {what} (L1052, L1403, L1438)")]
    NotSparked {
        /// The use.
        what: &'static str,
    },
    /// A program that allows no Inspiration Roll, or too many points.
    #[error(
        "an Inspiration Roll for {program} may spend at most {max} point(s), not {points} (L199, L807)"
    )]
    InspirationLimit {
        /// The program or "the GM's limit".
        program: String,
        /// The maximum.
        max: u8,
        /// What was asked for.
        points: u8,
    },
    /// Not enough Action Points, Power or Inspiration for something.
    #[error("{what} costs {cost}, only {have} available")]
    CannotPay {
        /// What is being paid.
        what: &'static str,
        /// Its cost.
        cost: u32,
        /// What there is.
        have: u32,
    },
    /// A combatant index outside the conflict.
    #[error("there is no participant {index} in a conflict of {count}")]
    NoSuchParticipant {
        /// The index given.
        index: usize,
        /// How many there are.
        count: usize,
    },
    /// An action not allowed at this point of an extended conflict.
    #[error("{0}")]
    NotAllowed(&'static str),
}
