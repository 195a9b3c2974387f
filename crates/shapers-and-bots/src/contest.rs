//! Contests (SB-R5, L95–109): two characters roll, the higher score wins, the Director rules
//! on a tie.

use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll};

use crate::error::Error;
use crate::rules::Rules;
use crate::score::{Contestant, ScoreRoll, Scorer, fold_tail};

/// Who won a contest, from the first side's point of view (worst first).
///
/// ```
/// use dice_shapers_and_bots::ContestOutcome;
/// assert_eq!(ContestOutcome::of(9, 9), ContestOutcome::Tie);
/// assert_eq!(ContestOutcome::of(10, 9), ContestOutcome::FirstWins);
/// assert!(!ContestOutcome::Tie.is_decided());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ContestOutcome {
    /// The second side scored higher.
    SecondWins,
    /// Equal scores: "the Director rules on whether the contest continues or whether
    /// something unusual happened" (L99–100). Roll again or narrate; the library does not
    /// decide.
    Tie,
    /// The first side scored higher.
    FirstWins,
}

impl ContestOutcome {
    /// Compares two scores: "the higher score wins" (L98).
    ///
    /// ```
    /// use dice_shapers_and_bots::ContestOutcome;
    /// assert_eq!(ContestOutcome::of(3, 8), ContestOutcome::SecondWins);
    /// ```
    pub fn of(first: i32, second: i32) -> ContestOutcome {
        Self::of_margin(i64::from(first) - i64::from(second))
    }

    fn of_margin(margin: i64) -> ContestOutcome {
        match margin.signum() {
            1 => ContestOutcome::FirstWins,
            0 => ContestOutcome::Tie,
            _ => ContestOutcome::SecondWins,
        }
    }

    /// Whether someone won (not a tie).
    ///
    /// ```
    /// assert!(dice_shapers_and_bots::ContestOutcome::SecondWins.is_decided());
    /// ```
    pub const fn is_decided(self) -> bool {
        !matches!(self, ContestOutcome::Tie)
    }
}

impl fmt::Display for ContestOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ContestOutcome::SecondWins => "second wins",
            ContestOutcome::Tie => "tie",
            ContestOutcome::FirstWins => "first wins",
        })
    }
}

/// A contest (L95–100): "both players roll dice and add their bonuses, and the higher score
/// wins." The exact law is the difference of the two sides' 2d6 laws (dice-core's
/// [`Dist::difference`]).
///
/// A side with no rating may only roll a fluke here when
/// [`Rules::fluke_in_contests`] allows it (SB-A21).
///
/// ```
/// use dice_shapers_and_bots::{Contest, ContestOutcome, Contestant, Level, Rules};
/// use dice_core::Exact;
///
/// let arm_wrestling = Contest::new(Level::High.into(), Level::High.into(), &Rules::default())?;
/// // SB-E4 (L103–108): both score 9: a tie, and the Director decides.
/// assert_eq!(arm_wrestling.resolve(&[4, 3], &[5, 2])?.outcome, ContestOutcome::Tie);
/// let odds = arm_wrestling.distribution()?;
/// assert!((odds.probability(&ContestOutcome::Tie) - 146.0 / 1296.0).abs() < 1e-15);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contest {
    first: Scorer,
    second: Scorer,
    sides: [Contestant; 2],
}

impl Contest {
    /// A contest between `first` and `second`.
    ///
    /// # Errors
    /// [`Error::FlukeNotAllowed`] for a side with no rating unless
    /// [`Rules::fluke_in_contests`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contest, Contestant, Level, Rules};
    /// let rules = Rules::default();
    /// assert!(Contest::new(Contestant::unrated(), Level::Low.into(), &rules).is_err());
    /// let house = Rules { fluke_in_contests: true, ..rules };
    /// assert!(Contest::new(Contestant::unrated(), Level::Low.into(), &house).is_ok());
    /// ```
    pub fn new(first: Contestant, second: Contestant, rules: &Rules) -> Result<Self, Error> {
        let (a, b) = (Scorer::new(first)?, Scorer::new(second)?);
        if (a.is_fluke() || b.is_fluke()) && !rules.fluke_in_contests {
            return Err(Error::FlukeNotAllowed { what: "a contest" });
        }
        Ok(Contest {
            first: a,
            second: b,
            sides: [first, second],
        })
    }

    /// The two sides.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contest, Contestant, Level, Rules};
    /// let c = Contest::new(Level::Low.into(), Level::High.into(), &Rules::default())?;
    /// assert_eq!(c.sides()[1], Contestant::rated(Level::High));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn sides(&self) -> [Contestant; 2] {
        self.sides
    }

    /// The pure form: each side's faces (two dice, or a fluke's streak and the face that
    /// ends it).
    ///
    /// # Errors
    /// [`Error::Face`], [`Error::DiceCount`] or [`Error::StreakUnfinished`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contest, ContestOutcome, Level, Rules};
    /// let c = Contest::new(Level::Low.into(), Level::High.into(), &Rules::default())?;
    /// assert_eq!(c.resolve(&[6, 6], &[1, 1])?.outcome, ContestOutcome::FirstWins); // 11 vs 4
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn resolve(&self, first: &[u8], second: &[u8]) -> Result<ContestRoll, Error> {
        let (a, b) = (self.first.resolve(first)?, self.second.resolve(second)?);
        Ok(ContestRoll::new(a, b))
    }

    /// Rolls both sides (first, then second) with the caller's RNG.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contest, Level, Rules};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let c = Contest::new(Level::Average.into(), Level::Average.into(), &Rules::default())?;
    /// let roll = c.roll_contest(&mut Xoshiro256PlusPlus::seed_from_u64(4));
    /// println!("{roll}"); // e.g. "[3, 5] = 8 vs [6, 1] = 7: first wins"
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn roll_contest<R: Rng + ?Sized>(&self, rng: &mut R) -> ContestRoll {
        let a = self.first.roll_score(rng);
        let b = self.second.roll_score(rng);
        ContestRoll::new(a, b)
    }

    /// The exact law of the margin, first's score minus second's (dice-core's
    /// [`Dist::difference`] of the two sides' laws). With a fluke side its tail (below 1e-15)
    /// is carried as [`Dist::tail`].
    ///
    /// # Errors
    /// Only dice-core's.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contest, Level, Rules};
    /// let c = Contest::new(Level::High.into(), Level::Average.into(), &Rules::default())?;
    /// let margin = c.margin_distribution()?;
    /// assert!((margin.mean() - 2.0).abs() < 1e-12);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn margin_distribution(&self) -> Result<Dist<i64>, Error> {
        Ok(self
            .first
            .distribution()?
            .difference(&self.second.distribution()?))
    }
}

impl Roll for Contest {
    type Outcome = ContestOutcome;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> ContestOutcome {
        let a = self.first.roll_total(rng);
        let b = self.second.roll_total(rng);
        ContestOutcome::of_margin(a - b)
    }
}

impl Exact for Contest {
    /// The sign of the margin's law. A fluke side's unlisted tail (scores beyond any 2d6
    /// total) counts as a win for that side; with flukes on both sides it stays unlisted.
    fn distribution(&self) -> Result<Dist<ContestOutcome>, dice_core::Error> {
        let (a, b) = (self.first.distribution()?, self.second.distribution()?);
        let d = a.difference(&b).map(|&m| ContestOutcome::of_margin(m));
        match (self.first.is_fluke(), self.second.is_fluke()) {
            (true, false) => fold_tail(d, ContestOutcome::FirstWins),
            (false, true) => fold_tail(d, ContestOutcome::SecondWins),
            _ => Ok(d),
        }
    }
}

impl fmt::Display for Contest {
    /// `High (+2) vs Average (+0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vs {}", self.sides[0], self.sides[1])
    }
}

/// One contest roll: both sides' scores and who won.
///
/// ```
/// use dice_shapers_and_bots::{Contest, Level, Rules};
/// let c = Contest::new(Level::Average.into(), Level::Average.into(), &Rules::default())?;
/// assert_eq!(c.resolve(&[4, 5], &[3, 6])?.to_string(), "[4, 5] = 9 vs [3, 6] = 9: tie");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContestRoll {
    /// The first side's score.
    pub first: ScoreRoll,
    /// The second side's score.
    pub second: ScoreRoll,
    /// Who won.
    pub outcome: ContestOutcome,
}

impl ContestRoll {
    fn new(first: ScoreRoll, second: ScoreRoll) -> Self {
        ContestRoll {
            first,
            second,
            outcome: ContestOutcome::of(first.total(), second.total()),
        }
    }
}

impl fmt::Display for ContestRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vs {}: {}", self.first, self.second, self.outcome)
    }
}
