//! Rolls (L13–L19): a d20, plus modifiers, against a difficulty; a natural 20 is an automatic
//! success (SC-R2 to SC-R4).

use core::fmt;

use dice_core::{
    Die, Dist, Exact, Keep, Pool, Rng, Roll, RollDetailed, RollRecord, Sum, VersusTarget,
};

use crate::error::Error;
use crate::rules::Rules;
use crate::{MAX_LEVEL, check_range};

/// The face that makes any roll automatically successful (L15).
pub const AUTOMATIC_SUCCESS: u32 = 20;

/// The die every roll uses (L15).
pub const D20: Die = Die::D20;

/// How a roll turns out (L15).
///
/// Ordered `Failure < Success < AutomaticSuccess`.
///
/// ```
/// use dice_scratch_rps::Outcome;
/// assert!(Outcome::AutomaticSuccess.is_success());
/// assert!(!Outcome::Failure.is_success());
/// assert_eq!(Outcome::AutomaticSuccess.to_string(), "automatic success");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// The die is not 20 and the total is below the difficulty (L15).
    Failure,
    /// The total is at least the difficulty (L15).
    Success,
    /// The die shows 20 before modifiers: automatically successful (L15). A damaging attack
    /// does 1 extra damage (L37).
    AutomaticSuccess,
}

impl Outcome {
    /// Whether the action succeeds (a success or an automatic success).
    ///
    /// ```
    /// assert!(dice_scratch_rps::Outcome::Success.is_success());
    /// ```
    pub const fn is_success(self) -> bool {
        !matches!(self, Outcome::Failure)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Failure => "failure",
            Outcome::Success => "success",
            Outcome::AutomaticSuccess => "automatic success",
        })
    }
}

/// Checks that `natural` is a face of a d20.
///
/// # Errors
/// [`Error::Natural`] unless `1 <= natural <= 20`.
///
/// ```
/// use dice_scratch_rps::roll::check_natural;
/// assert_eq!(check_natural(20), Ok(20));
/// assert!(check_natural(0).is_err());
/// ```
pub fn check_natural(natural: u32) -> Result<u32, Error> {
    if (1..=20).contains(&natural) {
        Ok(natural)
    } else {
        Err(Error::Natural { natural })
    }
}

/// The pure rule of L15 (SC-R2): a natural 20 is an automatic success; otherwise the action
/// succeeds when `natural + modifier >= difficulty`. There is no natural-1 rule (SC-A7).
///
/// `modifier` is everything added to the die: the ability level for an ability roll, nothing
/// for a non-ability roll, plus situational modifiers.
///
/// # Errors
/// [`Error::Natural`] for a face outside 1..=20; [`Error::OutOfRange`] for a modifier or
/// difficulty beyond ±[`crate::MAX_DIFFICULTY`].
///
/// ```
/// use dice_scratch_rps::{Outcome, roll::resolve};
/// // L17: 3 craftsmanship, difficulty 15, the die shows 12: 12 + 3 = 15, barely successful.
/// assert_eq!(resolve(12, 3, 15)?, Outcome::Success);
/// assert_eq!(resolve(20, 0, 25)?, Outcome::AutomaticSuccess);
/// assert_eq!(resolve(1, 30, 25)?, Outcome::Success); // no natural-1 rule (SC-A7)
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
pub fn resolve(natural: u32, modifier: i64, difficulty: i64) -> Result<Outcome, Error> {
    check_natural(natural)?;
    check_range("modifier", modifier)?;
    check_range("difficulty", difficulty)?;
    Ok(outcome_of(natural, modifier, difficulty))
}

/// L15 without the checks.
// TODO(dice-core): a target roll in which a natural face (or face set) decides the outcome
// whatever the modifiers (a natural 20 succeeds, a natural 1 fails) is common to d20 games;
// `VersusTarget` could take an optional "natural override" so the exact law and the record
// flags come from dice-core.
#[inline]
pub(crate) fn outcome_of(natural: u32, modifier: i64, difficulty: i64) -> Outcome {
    if natural == AUTOMATIC_SUCCESS {
        Outcome::AutomaticSuccess
    } else if i64::from(natural) + modifier >= difficulty {
        Outcome::Success
    } else {
        Outcome::Failure
    }
}

/// Which kind of roll (L17, L19).
///
/// ```
/// use dice_scratch_rps::RollKind;
/// assert_eq!(RollKind::Ability { level: 3 }.level(), 3);
/// assert_eq!(RollKind::NonAbility.level(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RollKind {
    /// An ability roll: the ability level is added (L17). Level 0 means the character does
    /// not have the ability and cannot succeed (L11, L17).
    Ability {
        /// The ability level (including any temporary craftsmanship bonus, L101).
        level: u32,
    },
    /// A non-ability roll: no ability level is added (L19).
    NonAbility,
}

impl RollKind {
    /// The level added (0 for a non-ability roll).
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::RollKind::Ability { level: 2 }.level(), 2);
    /// ```
    pub const fn level(self) -> u32 {
        match self {
            RollKind::Ability { level } => level,
            RollKind::NonAbility => 0,
        }
    }
}

/// One roll of L15–L19: a d20, plus the ability level (for an ability roll) and situational
/// modifiers, against a difficulty; a natural 20 is an automatic success.
///
/// Rolling it gives an [`Outcome`]; [`Exact::distribution`] enumerates the 20 faces, so the
/// law includes the natural-20 rule exactly. For an ability roll with level `m`,
/// `P(success) = clamp(21 − difficulty + m, 1, 20) / 20` (SC-R2). An ability roll without
/// the ability (level 0) cannot succeed and is not rolled (L17, SC-A6), unless
/// [`Rules::natural_20_without_ability`] says otherwise.
///
/// ```
/// use dice_scratch_rps::{D20Roll, Outcome};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // "Make a command roll (difficulty 25)" with 4 command (L17): only a natural 20.
/// let command = D20Roll::ability(4, 25)?;
/// let d = command.distribution()?;
/// assert_eq!(d.probability(&Outcome::AutomaticSuccess), 0.05);
/// assert_eq!(d.probability(&Outcome::Success), 0.0);
///
/// // "Make a non-ability roll of 11" (L19): 11 to 20 succeed.
/// let plain = D20Roll::non_ability(11)?;
/// assert_eq!(plain.success_chance(), 0.5);
/// let outcome = plain.roll(&mut Xoshiro256PlusPlus::seed_from_u64(1));
/// println!("{plain}: {outcome}");
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct D20Roll {
    kind: RollKind,
    modifier: i64,
    difficulty: i64,
    natural_20_without_ability: bool,
}

impl D20Roll {
    /// An ability roll with `level` against `difficulty` (L17).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a difficulty beyond ±[`crate::MAX_DIFFICULTY`];
    /// [`Error::LevelLimit`] for a level above [`MAX_LEVEL`].
    ///
    /// ```
    /// use dice_scratch_rps::{D20Roll, Outcome};
    /// let r = D20Roll::ability(3, 15)?;
    /// assert_eq!(r.resolve(12)?, Outcome::Success); // L17
    /// assert_eq!(r.resolve(11)?, Outcome::Failure);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn ability(level: u32, difficulty: i64) -> Result<D20Roll, Error> {
        if level > MAX_LEVEL {
            return Err(Error::LevelLimit {
                level,
                max: MAX_LEVEL,
            });
        }
        D20Roll::build(RollKind::Ability { level }, 0, difficulty, false)
    }

    /// A non-ability roll against `difficulty` (L19).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a difficulty beyond ±[`crate::MAX_DIFFICULTY`].
    ///
    /// ```
    /// use dice_scratch_rps::{D20Roll, Outcome};
    /// let r = D20Roll::non_ability(11)?;
    /// assert_eq!(r.resolve(11)?, Outcome::Success); // L19
    /// assert_eq!(r.resolve(10)?, Outcome::Failure);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn non_ability(difficulty: i64) -> Result<D20Roll, Error> {
        D20Roll::build(RollKind::NonAbility, 0, difficulty, false)
    }

    fn build(
        kind: RollKind,
        modifier: i64,
        difficulty: i64,
        natural_20_without_ability: bool,
    ) -> Result<D20Roll, Error> {
        check_range("difficulty", difficulty)?;
        check_range("modifier", modifier)?;
        let roll = D20Roll {
            kind,
            modifier,
            difficulty,
            natural_20_without_ability,
        };
        // The dice-core form is built on demand ([`D20Roll::check`]), so that making a roll
        // allocates nothing: the ranges checked above keep it within dice-core's limits.
        const _: () = assert!(
            crate::MAX_DIFFICULTY + MAX_LEVEL as i64 <= dice_core::MAX_MODIFIER,
            "a checked roll always makes a dice-core VersusTarget"
        );
        Ok(roll)
    }

    /// The same roll with a situational modifier added to the die (engage +2, take cover −2,
    /// swimming in water…); replaces any previous modifier.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] beyond ±[`crate::MAX_DIFFICULTY`].
    ///
    /// ```
    /// use dice_scratch_rps::D20Roll;
    /// let engaged = D20Roll::non_ability(13)?.with_modifier(2)?; // engage (L55)
    /// assert_eq!(engaged.total(11)?, 13);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_modifier(self, modifier: i64) -> Result<D20Roll, Error> {
        D20Roll::build(
            self.kind,
            modifier,
            self.difficulty,
            self.natural_20_without_ability,
        )
    }

    /// The same roll under `rules` (only [`Rules::natural_20_without_ability`] matters here).
    ///
    /// ```
    /// use dice_scratch_rps::{D20Roll, Outcome, Rules};
    /// let lenient = Rules { natural_20_without_ability: true, ..Rules::default() };
    /// let r = D20Roll::ability(0, 10)?;
    /// assert_eq!(r.resolve(20)?, Outcome::Failure); // SC-A6 ruling
    /// assert_eq!(r.with_rules(&lenient).resolve(20)?, Outcome::AutomaticSuccess);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_rules(mut self, rules: &Rules) -> D20Roll {
        self.natural_20_without_ability = rules.natural_20_without_ability;
        self
    }

    /// The kind of roll.
    ///
    /// ```
    /// use dice_scratch_rps::{D20Roll, RollKind};
    /// assert_eq!(D20Roll::ability(2, 12)?.kind(), RollKind::Ability { level: 2 });
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn kind(&self) -> RollKind {
        self.kind
    }

    /// The situational modifier (not counting the ability level).
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::D20Roll::non_ability(10)?.modifier(), 0);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn modifier(&self) -> i64 {
        self.modifier
    }

    /// Everything added to the die: ability level plus modifier.
    ///
    /// ```
    /// let r = dice_scratch_rps::D20Roll::ability(3, 15)?.with_modifier(2)?;
    /// assert_eq!(r.total_modifier(), 5);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn total_modifier(&self) -> i64 {
        i64::from(self.kind.level()) + self.modifier
    }

    /// The difficulty.
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::D20Roll::non_ability(11)?.difficulty(), 11);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn difficulty(&self) -> i64 {
        self.difficulty
    }

    /// The dice-core form of the roll: `1d20 + modifiers` against the difficulty (without
    /// the natural-20 rule), built on demand.
    ///
    /// # Errors
    /// None for a roll made by this type's constructors (their range checks keep it within
    /// dice-core's limits); the `Result` is dice-core's.
    ///
    /// ```
    /// let r = dice_scratch_rps::D20Roll::ability(3, 15)?;
    /// assert_eq!(r.check()?.to_string(), "1d20+3 vs 15");
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn check(&self) -> Result<VersusTarget, Error> {
        Ok(VersusTarget::new(
            Sum::new(Pool::new(1, D20)?, Keep::All, self.total_modifier())?,
            self.difficulty,
        )?)
    }

    /// Whether the die is rolled at all: not for an ability roll without the ability (L17,
    /// SC-A6), unless the rules let a natural 20 succeed anyway.
    ///
    /// ```
    /// use dice_scratch_rps::D20Roll;
    /// assert!(!D20Roll::ability(0, 10)?.is_rolled());
    /// assert!(D20Roll::non_ability(10)?.is_rolled());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn is_rolled(&self) -> bool {
        !self.lacks_ability() || self.natural_20_without_ability
    }

    fn lacks_ability(&self) -> bool {
        matches!(self.kind, RollKind::Ability { level: 0 })
    }

    /// The total: the die plus everything added to it.
    ///
    /// # Errors
    /// [`Error::Natural`] for a face outside 1..=20.
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::D20Roll::ability(3, 30)?.total(17)?, 20);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn total(&self, natural: u32) -> Result<i64, Error> {
        Ok(i64::from(check_natural(natural)?) + self.total_modifier())
    }

    /// The pure form: the outcome for a die already rolled.
    ///
    /// # Errors
    /// [`Error::Natural`] for a face outside 1..=20.
    ///
    /// ```
    /// use dice_scratch_rps::{D20Roll, Outcome};
    /// let r = D20Roll::ability(2, 25)?;
    /// assert_eq!(r.resolve(20)?, Outcome::AutomaticSuccess);
    /// assert_eq!(r.resolve(19)?, Outcome::Failure);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn resolve(&self, natural: u32) -> Result<Outcome, Error> {
        check_natural(natural)?;
        Ok(self.outcome(natural))
    }

    #[inline]
    pub(crate) fn outcome(&self, natural: u32) -> Outcome {
        if self.lacks_ability() {
            if self.natural_20_without_ability && natural == AUTOMATIC_SUCCESS {
                return Outcome::AutomaticSuccess;
            }
            return Outcome::Failure;
        }
        outcome_of(natural, self.total_modifier(), self.difficulty)
    }

    /// The exact chance of success (automatic or not), by counting the faces that succeed.
    ///
    /// ```
    /// let r = dice_scratch_rps::D20Roll::ability(2, 13)?;
    /// assert_eq!(r.success_chance(), 0.5); // faces 11..=20
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn success_chance(&self) -> f64 {
        let (_, success, automatic) = self.face_counts();
        f64::from(success + automatic) / 20.0
    }

    /// How many of the 20 faces fail, succeed, and succeed automatically: the faces of
    /// [`D20Roll::outcome`] counted by its own thresholds (a natural 20, then the faces 1 to 19
    /// whose total reaches the difficulty).
    pub(crate) fn face_counts(&self) -> (u32, u32, u32) {
        if self.lacks_ability() {
            return if self.natural_20_without_ability {
                (19, 0, 1)
            } else {
                (20, 0, 0)
            };
        }
        // Faces n in 1..=19 with n + modifier >= difficulty: from max(1, difficulty -
        // modifier) to 19. The ranges checked at construction keep this far from overflow.
        let lowest = (self.difficulty - self.total_modifier()).max(1);
        let success = u32::try_from((20 - lowest).clamp(0, 19)).unwrap_or(0);
        (19 - success, success, 1)
    }
}

impl Roll for D20Roll {
    type Outcome = Outcome;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Outcome {
        if !self.is_rolled() {
            return Outcome::Failure;
        }
        self.outcome(D20.roll_face(rng))
    }
}

impl Exact for D20Roll {
    /// The law of the outcome, from the 20 equally likely faces.
    fn distribution(&self) -> Result<Dist<Outcome>, dice_core::Error> {
        if !self.is_rolled() {
            return Ok(Dist::certain(Outcome::Failure));
        }
        Ok(D20.distribution()?.map(|&n| self.outcome(n)))
    }
}

impl RollDetailed for D20Roll {
    /// The die (natural face, modifier, total); flagged `success` when the roll succeeds and
    /// `critical` on a natural 20. An ability roll without the ability records no die.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        if !self.is_rolled() {
            record.clear();
            return;
        }
        match self.check() {
            Ok(check) => check.roll_record_into(rng, record),
            Err(_) => {
                record.clear();
                return;
            }
        }
        if let Some(die) = record.dice.first_mut() {
            let outcome = self.outcome(die.natural);
            die.flags.success = outcome.is_success();
            die.flags.critical = outcome == Outcome::AutomaticSuccess;
            record.successes = u32::from(outcome.is_success());
            record.criticals = u32::from(outcome == Outcome::AutomaticSuccess);
        }
    }
}

impl fmt::Display for D20Roll {
    /// `ability roll 1d20+3 vs 15`, `non-ability roll 1d20 vs 11`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            RollKind::Ability { .. } => "ability roll",
            RollKind::NonAbility => "non-ability roll",
        };
        match self.check() {
            Ok(check) => write!(f, "{kind} {check}"),
            Err(_) => write!(
                f,
                "{kind} 1d20{:+} vs {}",
                self.total_modifier(),
                self.difficulty
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_counts_count_the_outcomes_of_the_faces() {
        for n20 in [false, true] {
            for level in 0..=4 {
                for modifier in [-3, 0, 2] {
                    for difficulty in -25..=45 {
                        let r = D20Roll::ability(level, difficulty)
                            .and_then(|r| r.with_modifier(modifier))
                            .map(|r| {
                                r.with_rules(&Rules {
                                    natural_20_without_ability: n20,
                                    ..Rules::default()
                                })
                            });
                        let Ok(r) = r else { continue };
                        let mut want = (0, 0, 0);
                        for n in 1..=20 {
                            match r.outcome(n) {
                                Outcome::Failure => want.0 += 1,
                                Outcome::Success => want.1 += 1,
                                Outcome::AutomaticSuccess => want.2 += 1,
                            }
                        }
                        assert_eq!(r.face_counts(), want, "{level} {modifier} {difficulty}");
                        let hits = (1..=20).filter(|&n| r.outcome(n).is_success()).count();
                        assert_eq!(r.success_chance(), hits as f64 / 20.0);
                    }
                }
            }
        }
    }
}
