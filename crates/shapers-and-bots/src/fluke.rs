//! The fluke (SB-R6, L111–129): how a character with no rating can still succeed.

use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Streak};

use crate::challenge::ChallengeOutcome;
use crate::error::Error;
use crate::level::Level;
use crate::rules::Rules;
use crate::score::{fluke_streak, fold_tail, streak_faces};

/// How a fluke score compares with a target (SB-A3). Above is a success, below a failure;
/// exactly on it is a success with consequences when `equal_is_consequence` (the ruling,
/// [`Rules::fluke_equal_is_consequence`], reusing the challenge's three outcomes of L73–78),
/// else a plain success ("needs 7 points", L126).
///
/// ```
/// use dice_shapers_and_bots::{fluke_outcome, ChallengeOutcome};
/// assert_eq!(fluke_outcome(5, 7, true), ChallengeOutcome::Failure);
/// assert_eq!(fluke_outcome(7, 7, true), ChallengeOutcome::SuccessWithConsequences);
/// assert_eq!(fluke_outcome(7, 7, false), ChallengeOutcome::Success);
/// ```
pub fn fluke_outcome(score: u32, target: i32, equal_is_consequence: bool) -> ChallengeOutcome {
    let score = i32::try_from(score).unwrap_or(i32::MAX);
    match ChallengeOutcome::of(score, target) {
        ChallengeOutcome::SuccessWithConsequences if !equal_is_consequence => {
            ChallengeOutcome::Success
        }
        o => o,
    }
}

/// A fluke roll against a task (L113–119): "The player rolls a single die: if it is a 4, 5,
/// or 6, she gets one point and rolls again until she misses a roll." The score, with no
/// bonus, is compared with the task's target (L125–126: "an Average task, so Zitterbee needs
/// 7 points"), as [`fluke_outcome`] says.
///
/// Built on a dice-core [`Streak`] (base 0, continuing on {4, 5, 6}): P(score ≥ k) = 2⁻ᵏ.
///
/// ```
/// use dice_shapers_and_bots::{ChallengeOutcome, Fluke, Level, Rules};
/// use dice_core::Exact;
///
/// let crossbow = Fluke::new(Level::Average, &Rules::default())?;
/// // SB-E5 (L127–129): 5, 5, 6, 4, 6, then a 3.
/// let (roll, used) = crossbow.resolve(&[5, 5, 6, 4, 6, 3])?;
/// assert_eq!((roll.score, used, roll.outcome), (5, 6, ChallengeOutcome::Failure));
///
/// let odds = crossbow.distribution()?;
/// let reach = odds.probability_where(|o| o.succeeded());
/// assert!((reach - 1.0 / 128.0).abs() < 1e-15); // P(score ≥ 7) = 2⁻⁷
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fluke {
    streak: Box<Streak>,
    task: Level,
    equal_is_consequence: bool,
}

impl Fluke {
    /// A fluke against a task of level `task`, under `rules` (SB-A3).
    ///
    /// # Errors
    /// Only a dice-core constructor's (never in practice).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fluke, Level, Rules};
    /// assert_eq!(Fluke::new(Level::Low, &Rules::default())?.target(), 5);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn new(task: Level, rules: &Rules) -> Result<Self, Error> {
        Ok(Fluke {
            streak: Box::new(fluke_streak()?),
            task,
            equal_is_consequence: rules.fluke_equal_is_consequence,
        })
    }

    /// The task's level.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fluke, Level, Rules};
    /// assert_eq!(Fluke::new(Level::High, &Rules::default())?.task(), Level::High);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn task(&self) -> Level {
        self.task
    }

    /// The score needed: the task's target.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fluke, Level, Rules};
    /// assert_eq!(Fluke::new(Level::Average, &Rules::default())?.target(), 7);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn target(&self) -> i32 {
        self.task.target()
    }

    /// The dice-core streak underneath.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fluke, Level, Rules};
    /// let f = Fluke::new(Level::Average, &Rules::default())?;
    /// assert_eq!(f.streak().to_string(), "streak(d6 in{4,5,6})");
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn streak(&self) -> &Streak {
        &self.streak
    }

    /// The pure form: the faces rolled, ending with the one that misses. Returns the roll and
    /// how many faces it used (faces after the miss are not read).
    ///
    /// # Errors
    /// [`Error::Face`] for a face outside 1–6; [`Error::StreakUnfinished`] when every face
    /// continues the streak.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Error, Fluke, Level, Rules};
    /// let f = Fluke::new(Level::VeryLow, &Rules::default())?;
    /// assert_eq!(f.resolve(&[4, 6, 2, 6])?.1, 3);
    /// assert_eq!(f.resolve(&[4, 6]), Err(Error::StreakUnfinished { faces: 2 }));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[u8]) -> Result<(FlukeRoll, usize), Error> {
        let (score, used) = streak_faces(&self.streak, faces)?;
        Ok((self.finish(score, score >= self.streak.cap()), used))
    }

    /// Rolls with the caller's RNG (the same draws as [`Roll::roll`]).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fluke, Level, Rules};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let f = Fluke::new(Level::Average, &Rules::default())?;
    /// let roll = f.roll_fluke(&mut Xoshiro256PlusPlus::seed_from_u64(2));
    /// assert_eq!(roll.target, 7);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn roll_fluke<R: Rng + ?Sized>(&self, rng: &mut R) -> FlukeRoll {
        let r = self.streak.roll_streak(rng);
        self.finish(r.length, r.capped)
    }

    fn finish(&self, score: u32, capped: bool) -> FlukeRoll {
        FlukeRoll {
            score,
            target: self.target(),
            outcome: fluke_outcome(score, self.target(), self.equal_is_consequence),
            capped,
        }
    }

    /// The exact law of the score: P(score = k) = 2⁻⁽ᵏ⁺¹⁾, listed until the unlisted tail is
    /// below 1e-15 (dice-core's [`Streak::distribution`]).
    ///
    /// # Errors
    /// Only dice-core's (never for this streak).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fluke, Level, Rules};
    /// let d = Fluke::new(Level::Average, &Rules::default())?.score_distribution()?;
    /// assert_eq!(d.probability(&0), 0.5);
    /// assert_eq!(d.probability(&3), 1.0 / 16.0);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn score_distribution(&self) -> Result<Dist<i64>, Error> {
        Ok(self.streak.distribution()?)
    }
}

impl Roll for Fluke {
    type Outcome = ChallengeOutcome;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> ChallengeOutcome {
        let score = u32::try_from(self.streak.roll(rng)).unwrap_or(u32::MAX);
        fluke_outcome(score, self.target(), self.equal_is_consequence)
    }
}

impl Exact for Fluke {
    /// The streak's law mapped onto the outcomes; the unlisted tail (scores far above every
    /// target) counts as a success.
    fn distribution(&self) -> Result<Dist<ChallengeOutcome>, dice_core::Error> {
        let target = self.target();
        let eq = self.equal_is_consequence;
        let d = self
            .streak
            .distribution()?
            .map(|&s| fluke_outcome(u32::try_from(s).unwrap_or(u32::MAX), target, eq));
        fold_tail(d, ChallengeOutcome::Success)
    }
}

impl RollDetailed for Fluke {
    /// Every face rolled; the 4s, 5s and 6s are marked as successes.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.streak.roll_record_into(rng, record);
    }
}

impl fmt::Display for Fluke {
    /// `fluke vs Average (7)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fluke vs {} ({})", self.task, self.target())
    }
}

/// One fluke roll.
///
/// ```
/// use dice_shapers_and_bots::{Fluke, Level, Rules};
/// let (roll, _) = Fluke::new(Level::Average, &Rules::default())?.resolve(&[5, 5, 6, 4, 6, 3])?;
/// assert_eq!(roll.to_string(), "fluke 5 vs 7: failure");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlukeRoll {
    /// The number of successive 4s, 5s and 6s.
    pub score: u32,
    /// The task's target.
    pub target: i32,
    /// The outcome.
    pub outcome: ChallengeOutcome,
    /// The streak stopped at dice-core's cap (100 dice) rather than on a miss.
    pub capped: bool,
}

impl fmt::Display for FlukeRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fluke {} vs {}: {}",
            self.score, self.target, self.outcome
        )?;
        if self.capped {
            f.write_str(" (cap reached)")?;
        }
        Ok(())
    }
}
