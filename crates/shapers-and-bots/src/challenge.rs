//! Tasks: automatic success (SB-R3, L59–68), the challenge roll (SB-R4, L70–80) and the
//! choice between them and a fluke ([`Attempt`], SB-A2).

use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Versus, VersusTarget};

use crate::error::Error;
use crate::fluke::{Fluke, FlukeRoll};
use crate::level::{Level, Rating};
use crate::rules::Rules;
use crate::score::{ScoreRoll, resolve_dice, roll_dice, two_dice};

/// The three outcomes of a challenge roll (L73–78), worst first.
///
/// ```
/// use dice_shapers_and_bots::ChallengeOutcome;
/// assert_eq!(ChallengeOutcome::of(14, 13), ChallengeOutcome::Success);
/// assert_eq!(ChallengeOutcome::of(13, 13), ChallengeOutcome::SuccessWithConsequences);
/// assert_eq!(ChallengeOutcome::of(8, 13), ChallengeOutcome::Failure);
/// assert!(ChallengeOutcome::SuccessWithConsequences.succeeded());
/// assert_eq!(ChallengeOutcome::Failure.to_string(), "failure");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ChallengeOutcome {
    /// "If the result is less, they fail" (L75–76).
    Failure,
    /// "if the result is exactly what's required, they succeed but with some consequences"
    /// (L77–78).
    SuccessWithConsequences,
    /// "If the result is greater than the target for the task, the character succeeds"
    /// (L73–74).
    Success,
}

impl ChallengeOutcome {
    /// Compares a total with a target (L73–78).
    ///
    /// ```
    /// use dice_shapers_and_bots::ChallengeOutcome;
    /// assert_eq!(ChallengeOutcome::of(6, 7), ChallengeOutcome::Failure);
    /// ```
    pub fn of(total: i32, target: i32) -> ChallengeOutcome {
        Self::from(Versus::of(i64::from(total), i64::from(target)))
    }

    /// Whether the character succeeded (with or without consequences).
    ///
    /// ```
    /// assert!(!dice_shapers_and_bots::ChallengeOutcome::Failure.succeeded());
    /// ```
    pub const fn succeeded(self) -> bool {
        !matches!(self, ChallengeOutcome::Failure)
    }
}

impl From<Versus> for ChallengeOutcome {
    /// Above the target is a success, on it a success with consequences, below a failure.
    fn from(v: Versus) -> Self {
        match v {
            Versus::Above => ChallengeOutcome::Success,
            Versus::Equal => ChallengeOutcome::SuccessWithConsequences,
            Versus::Below => ChallengeOutcome::Failure,
        }
    }
}

impl fmt::Display for ChallengeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ChallengeOutcome::Failure => "failure",
            ChallengeOutcome::SuccessWithConsequences => "success with consequences",
            ChallengeOutcome::Success => "success",
        })
    }
}

/// Whether the Director may let a character succeed without rolling (SB-R3, L59–68): the
/// character's level must be higher than the task's. The other condition — "the outcome isn't
/// particularly important" — and the Director's choice ("can rule") are the caller's: see
/// [`Stakes`] and [`Attempt::new`]. A character with no rating is never eligible.
///
/// ```
/// use dice_shapers_and_bots::{auto_success_eligible, Level, Rating};
/// // SB-E1 (L64–67): Average climbing over a Low wall.
/// assert!(auto_success_eligible(Rating::Rated(Level::Average), Level::Low));
/// assert!(!auto_success_eligible(Rating::Rated(Level::Low), Level::Low));
/// assert!(!auto_success_eligible(Rating::NoRating, Level::VeryLow));
/// ```
pub fn auto_success_eligible(character: Rating, task: Level) -> bool {
    character.level().is_some_and(|l| l > task)
}

/// A challenge roll (SB-R4, L70–80): two dice plus the character's bonus against the task's
/// target. Built on a dice-core [`VersusTarget`] (`2d6 + bonus vs target`), whose three
/// [`Versus`] outcomes map onto [`ChallengeOutcome`].
///
/// The rulebook uses a challenge when the character's level is equal to or lower than the
/// task's (L70); a [`Challenge`] may also be built for a higher level, for a task the
/// Director rules important (SB-A2).
///
/// ```
/// use dice_shapers_and_bots::{Challenge, ChallengeOutcome, Level};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // Alouard's High climbing against an Awesome wall (L83–87).
/// let climb = Challenge::new(Level::High, Level::Awesome)?;
/// assert_eq!(climb.resolve([3, 3])?.outcome, ChallengeOutcome::Failure); // 6 + 2 = 8 < 13
///
/// let odds = climb.distribution()?;
/// assert!((odds.probability(&ChallengeOutcome::Success) - 1.0 / 36.0).abs() < 1e-15);
///
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
/// let roll = climb.roll_challenge(&mut rng);
/// println!("{roll}"); // e.g. "[4, 2] + 2 = 8 vs 13: failure"
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    check: VersusTarget,
    character: Level,
    task: Level,
}

impl Challenge {
    /// A character of level `character` attempting a task of level `task`.
    ///
    /// # Errors
    /// None in practice (the levels are always valid); the `Result` carries a dice-core
    /// constructor's.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Challenge, Level};
    /// let c = Challenge::new(Level::Average, Level::High)?;
    /// assert_eq!((c.bonus(), c.target()), (0, 9));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn new(character: Level, task: Level) -> Result<Self, Error> {
        let sum = two_dice(character.bonus())?;
        Ok(Challenge {
            check: VersusTarget::new(sum, i64::from(task.target()))?,
            character,
            task,
        })
    }

    /// The character's level.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Challenge, Level};
    /// assert_eq!(Challenge::new(Level::Low, Level::Low)?.character(), Level::Low);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn character(&self) -> Level {
        self.character
    }

    /// The task's level.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Challenge, Level};
    /// assert_eq!(Challenge::new(Level::Low, Level::High)?.task(), Level::High);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn task(&self) -> Level {
        self.task
    }

    /// The bonus added to the dice.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Challenge, Level};
    /// assert_eq!(Challenge::new(Level::VeryLow, Level::Low)?.bonus(), -3);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn bonus(&self) -> i32 {
        self.character.bonus()
    }

    /// The target to beat.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Challenge, Level};
    /// assert_eq!(Challenge::new(Level::Low, Level::VeryHigh)?.target(), 11);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn target(&self) -> i32 {
        self.task.target()
    }

    /// The dice-core mechanic underneath: `2d6 + bonus vs target`.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Challenge, Level};
    /// let c = Challenge::new(Level::High, Level::Awesome)?;
    /// assert_eq!(c.versus_target().to_string(), "2d6+2 vs 13");
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn versus_target(&self) -> &VersusTarget {
        &self.check
    }

    /// The pure form: the challenge with two dice already rolled.
    ///
    /// # Errors
    /// [`Error::Face`] for a face outside 1–6.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Challenge, ChallengeOutcome, Level};
    /// // SB-E3 (L89–92): "rolls 11 and adds her bonus to get exactly 13".
    /// let roll = Challenge::new(Level::High, Level::Awesome)?.resolve([5, 6])?;
    /// assert_eq!(roll.outcome, ChallengeOutcome::SuccessWithConsequences);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn resolve(&self, dice: [u8; 2]) -> Result<ChallengeRoll, Error> {
        let score = resolve_dice(self.bonus(), 0, &dice)?;
        Ok(self.finish(score))
    }

    /// Rolls with the caller's RNG and reports the dice, the total and the outcome. Uses the
    /// same draws as [`Roll::roll`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Challenge, Level};
    /// use dice_core::Roll;
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let c = Challenge::new(Level::Average, Level::Average)?;
    /// let detailed = c.roll_challenge(&mut Xoshiro256PlusPlus::seed_from_u64(5));
    /// let plain = c.roll(&mut Xoshiro256PlusPlus::seed_from_u64(5));
    /// assert_eq!(detailed.outcome, plain);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn roll_challenge<R: Rng + ?Sized>(&self, rng: &mut R) -> ChallengeRoll {
        let score = roll_dice(self.check.sum(), self.bonus(), 0, rng);
        self.finish(score)
    }

    fn finish(&self, score: ScoreRoll) -> ChallengeRoll {
        ChallengeRoll {
            score,
            target: self.target(),
            outcome: ChallengeOutcome::of(score.total(), self.target()),
        }
    }
}

impl Roll for Challenge {
    type Outcome = ChallengeOutcome;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> ChallengeOutcome {
        self.check.roll(rng).into()
    }
}

impl Exact for Challenge {
    /// The law of the 2d6 total (dice-core's [`VersusTarget`] distribution), mapped onto the
    /// three outcomes.
    fn distribution(&self) -> Result<Dist<ChallengeOutcome>, dice_core::Error> {
        Ok(self
            .check
            .distribution()?
            .map(|&v| ChallengeOutcome::from(v)))
    }
}

impl RollDetailed for Challenge {
    /// Both dice, the bonus as the modifier, and the total.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.check.roll_record_into(rng, record);
    }
}

impl fmt::Display for Challenge {
    /// `High vs Awesome: 2d6+2 vs 13`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vs {}: {}", self.character, self.task, self.check)
    }
}

/// One challenge roll: the dice, the target and the outcome.
///
/// ```
/// use dice_shapers_and_bots::{Challenge, Level};
/// let roll = Challenge::new(Level::High, Level::Awesome)?.resolve([5, 6])?;
/// assert_eq!(roll.to_string(), "[5, 6] + 2 = 13 vs 13: success with consequences");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChallengeRoll {
    /// The dice and the total.
    pub score: ScoreRoll,
    /// The task's target.
    pub target: i32,
    /// Above, on or below the target.
    pub outcome: ChallengeOutcome,
}

impl fmt::Display for ChallengeRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vs {}: {}", self.score, self.target, self.outcome)
    }
}

/// Whether the outcome of a task matters (L61–62: "the outcome isn't particularly
/// important"). The caller (the Director) decides; see [`Attempt::new`].
///
/// ```
/// use dice_shapers_and_bots::Stakes;
/// assert_eq!(Stakes::Routine.to_string(), "routine");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Stakes {
    /// Not particularly important: a higher-level character succeeds automatically (the
    /// Director "can rule" it, L67; pass [`Stakes::Important`] to have them roll anyway).
    Routine,
    /// Important: always rolled, even by a higher-level character (SB-A2).
    Important,
}

impl fmt::Display for Stakes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stakes::Routine => "routine",
            Stakes::Important => "important",
        })
    }
}

/// A character trying a task: one of the categories of L59–80 and L111–119.
///
/// - [`Attempt::AutomaticSuccess`]: the character's level is higher than the task's and the
///   stakes are routine (SB-R3).
/// - [`Attempt::Challenge`]: the level is equal or lower (SB-R4), or higher but the task is
///   important (SB-A2: the ruling falls back to a challenge roll).
/// - [`Attempt::Fluke`]: the character has no rating (SB-R6).
///
/// (A contest, the third category of L95, is a [`Contest`](crate::Contest).)
///
/// ```
/// use dice_shapers_and_bots::{Attempt, ChallengeOutcome, Level, Rating, Rules, Stakes};
/// use dice_core::Exact;
/// let rules = Rules::default();
/// let wall = Attempt::new(Rating::Rated(Level::Average), Level::Low, Stakes::Routine, &rules)?;
/// assert_eq!(wall, Attempt::AutomaticSuccess); // SB-E1
/// let shot = Attempt::new(Rating::NoRating, Level::Average, Stakes::Important, &rules)?;
/// assert!(matches!(shot, Attempt::Fluke(_)));
/// let odds = shot.distribution()?;
/// assert!((odds.probability(&ChallengeOutcome::Success) - 1.0 / 256.0).abs() < 1e-15);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// No roll: the character gets it done.
    AutomaticSuccess,
    /// A challenge roll.
    Challenge(Challenge),
    /// A fluke roll.
    Fluke(Fluke),
}

impl Attempt {
    /// The category a character with `rating` falls into for a task of level `task`.
    ///
    /// # Errors
    /// Only a dice-core constructor's (never in practice).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attempt, Level, Rating, Rules, Stakes};
    /// let a = Attempt::new(Rating::Rated(Level::High), Level::Low, Stakes::Important, &Rules::default())?;
    /// assert!(matches!(a, Attempt::Challenge(_))); // SB-A2
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn new(rating: Rating, task: Level, stakes: Stakes, rules: &Rules) -> Result<Self, Error> {
        Ok(match rating {
            Rating::NoRating => Attempt::Fluke(Fluke::new(task, rules)?),
            Rating::Rated(_)
                if auto_success_eligible(rating, task) && stakes == Stakes::Routine =>
            {
                Attempt::AutomaticSuccess
            }
            Rating::Rated(l) => Attempt::Challenge(Challenge::new(l, task)?),
        })
    }

    /// The pure form: `faces` are the dice rolled (none for an automatic success, two for a
    /// challenge, the streak and the face that ends it for a fluke).
    ///
    /// # Errors
    /// [`Error::Face`], [`Error::DiceCount`] or [`Error::StreakUnfinished`] for faces that
    /// do not fit.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attempt, ChallengeOutcome, Level, Rating, Rules, Stakes};
    /// let a = Attempt::new(Rating::NoRating, Level::Average, Stakes::Important, &Rules::default())?;
    /// // SB-E5 (L127–129): 5, 5, 6, 4, 6, then a 3: five points, seven needed.
    /// assert_eq!(a.resolve(&[5, 5, 6, 4, 6, 3])?.outcome(), ChallengeOutcome::Failure);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[u8]) -> Result<AttemptRoll, Error> {
        Ok(match self {
            Attempt::AutomaticSuccess => AttemptRoll::AutomaticSuccess,
            Attempt::Challenge(c) => {
                let dice: [u8; 2] = faces
                    .try_into()
                    .map_err(|_| Error::DiceCount { got: faces.len() })?;
                AttemptRoll::Challenge(c.resolve(dice)?)
            }
            Attempt::Fluke(fl) => AttemptRoll::Fluke(fl.resolve(faces)?.0),
        })
    }

    /// Rolls with the caller's RNG (no draw for an automatic success).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attempt, Level, Rating, Rules, Stakes};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let a = Attempt::new(Rating::Rated(Level::Low), Level::High, Stakes::Routine, &Rules::default())?;
    /// let roll = a.roll_attempt(&mut Xoshiro256PlusPlus::seed_from_u64(3));
    /// println!("{roll}");
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn roll_attempt<R: Rng + ?Sized>(&self, rng: &mut R) -> AttemptRoll {
        match self {
            Attempt::AutomaticSuccess => AttemptRoll::AutomaticSuccess,
            Attempt::Challenge(c) => AttemptRoll::Challenge(c.roll_challenge(rng)),
            Attempt::Fluke(fl) => AttemptRoll::Fluke(fl.roll_fluke(rng)),
        }
    }
}

impl Roll for Attempt {
    type Outcome = ChallengeOutcome;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> ChallengeOutcome {
        match self {
            Attempt::AutomaticSuccess => ChallengeOutcome::Success,
            Attempt::Challenge(c) => c.roll(rng),
            Attempt::Fluke(fl) => fl.roll(rng),
        }
    }
}

impl Exact for Attempt {
    /// Certain success, or the challenge's or fluke's law.
    fn distribution(&self) -> Result<Dist<ChallengeOutcome>, dice_core::Error> {
        match self {
            Attempt::AutomaticSuccess => Ok(Dist::certain(ChallengeOutcome::Success)),
            Attempt::Challenge(c) => c.distribution(),
            Attempt::Fluke(fl) => fl.distribution(),
        }
    }
}

impl RollDetailed for Attempt {
    /// No dice for an automatic success; otherwise the challenge's or fluke's dice.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        match self {
            Attempt::AutomaticSuccess => record.clear(),
            Attempt::Challenge(c) => c.roll_record_into(rng, record),
            Attempt::Fluke(fl) => fl.roll_record_into(rng, record),
        }
    }
}

impl fmt::Display for Attempt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Attempt::AutomaticSuccess => f.write_str("automatic success"),
            Attempt::Challenge(c) => write!(f, "challenge {c}"),
            Attempt::Fluke(fl) => write!(f, "{fl}"),
        }
    }
}

/// The result of an [`Attempt`].
///
/// ```
/// use dice_shapers_and_bots::{AttemptRoll, ChallengeOutcome};
/// assert_eq!(AttemptRoll::AutomaticSuccess.outcome(), ChallengeOutcome::Success);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AttemptRoll {
    /// No roll was needed.
    AutomaticSuccess,
    /// A challenge roll.
    Challenge(ChallengeRoll),
    /// A fluke.
    Fluke(FlukeRoll),
}

impl AttemptRoll {
    /// The outcome (an automatic success is a [`ChallengeOutcome::Success`]).
    ///
    /// ```
    /// use dice_shapers_and_bots::{AttemptRoll, ChallengeOutcome};
    /// assert!(AttemptRoll::AutomaticSuccess.outcome().succeeded());
    /// ```
    pub fn outcome(&self) -> ChallengeOutcome {
        match self {
            AttemptRoll::AutomaticSuccess => ChallengeOutcome::Success,
            AttemptRoll::Challenge(c) => c.outcome,
            AttemptRoll::Fluke(fl) => fl.outcome,
        }
    }
}

impl fmt::Display for AttemptRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttemptRoll::AutomaticSuccess => f.write_str("automatic success"),
            AttemptRoll::Challenge(c) => c.fmt(f),
            AttemptRoll::Fluke(fl) => fl.fmt(f),
        }
    }
}
