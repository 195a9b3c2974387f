//! The one error type of this crate.

/// The largest magnitude accepted for an attribute, aptitude, modifier, size, weapon damage,
/// armour, fortitude or defence value.
///
/// This is an overflow guard, not a rule of the game: the combat chapter gives no limits.
///
/// ```
/// assert_eq!(dice_shapers_percentile::MAX_SCORE, 10_000);
/// ```
pub const MAX_SCORE: i32 = 10_000;

/// Everything that can be wrong with the input to a constructor or a pure resolution of this
/// crate.
///
/// Every variant says what was given and what is allowed, so the message alone tells a user
/// what to change. Rolling never fails: all checks happen when a mechanic is built.
///
/// ```
/// use dice_shapers_percentile::{Error, Location};
/// let err = Location::from_roll(0).unwrap_err();
/// assert_eq!(err, Error::Face { die: 100, face: 0 });
/// assert_eq!(
///     err.to_string(),
///     "a d100 shows a face in 1..=100 (read 00 as 100), not 0"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A number outside what the rules (or the overflow guard [`MAX_SCORE`]) allow.
    #[error("{what} {value} is outside {min}..={max}")]
    OutOfRange {
        /// What the number is (`"attribute"`, `"aptitude"`, `"combatants"` …).
        what: &'static str,
        /// The offending value.
        value: i64,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A die face that the die cannot show, given to a pure resolution.
    #[error("a d{die} shows a face in 1..={die} (read 00 as 100), not {face}")]
    Face {
        /// Sides of the die (100 or 10).
        die: u32,
        /// The offending face.
        face: u32,
    },
    /// A distance or range that is negative, not finite, or (for a listed range) zero.
    #[error("{what} must be a finite number {allowed}, not {value}")]
    Distance {
        /// What the number is (`"distance"`, `"listed range"`, `"reach"`).
        what: &'static str,
        /// What is allowed, as text (`"at least 0"`, `"above 0"`).
        allowed: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A pure resolution needed more dice than it was given.
    #[error("{what} needs more dice than the {given} given")]
    NotEnoughDice {
        /// What was being resolved (`"turn order"`, `"opposed test"`).
        what: &'static str,
        /// How many dice were given.
        given: usize,
    },
    /// A pure resolution was given the wrong number of dice.
    #[error("{what} takes {expected} dice, not {given}")]
    DiceCount {
        /// What was being resolved (`"attack"`).
        what: &'static str,
        /// How many dice were given.
        given: usize,
        /// How many it takes.
        expected: usize,
    },
    /// A mechanic that needs at least one combatant was given none.
    #[error("{what} needs at least one combatant")]
    NoCombatants {
        /// The mechanic.
        what: &'static str,
    },
    /// A scene that cannot be fought as given (one side only, a combatant already out of
    /// the fight, …).
    #[error("the scene cannot be fought: {reason}")]
    Scene {
        /// What is wrong, in the scene's terms.
        reason: alloc::string::String,
    },
    /// An error from dice-core (an exact computation that would take too long, …).
    #[error(transparent)]
    Core(#[from] dice_core::Error),
}

/// Checks `|value| <= MAX_SCORE`.
pub(crate) fn check_score(what: &'static str, value: i32) -> Result<i32, Error> {
    if value.unsigned_abs() > MAX_SCORE.unsigned_abs() {
        return Err(Error::OutOfRange {
            what,
            value: i64::from(value),
            min: -i64::from(MAX_SCORE),
            max: i64::from(MAX_SCORE),
        });
    }
    Ok(value)
}

/// Checks a d100 face (`1..=100`).
pub(crate) fn check_d100(face: u8) -> Result<u8, Error> {
    if (1..=100).contains(&face) {
        Ok(face)
    } else {
        Err(Error::Face {
            die: 100,
            face: u32::from(face),
        })
    }
}

/// Checks a d10 face (`1..=10`).
pub(crate) fn check_d10(face: u8) -> Result<u8, Error> {
    if (1..=10).contains(&face) {
        Ok(face)
    } else {
        Err(Error::Face {
            die: 10,
            face: u32::from(face),
        })
    }
}

/// Checks a distance: finite and at least 0.
pub(crate) fn check_distance(what: &'static str, value: f64) -> Result<f64, Error> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(Error::Distance {
            what,
            allowed: "at least 0",
            value,
        })
    }
}
