//! Saving Throws (digest §2; rulebook L230–285, L1746–1978): always 3d10 against an
//! attribute, with Total Success, Partial Failure and Total Failure.

use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollRecord, SuccessPool};

use crate::error::Error;
use crate::rules::Rules;
use crate::test::{check_face, check_tn, faces_of, is_success, pool};

/// The dice of every Saving Throw: "There is never an occasion where any Saving Throw is
/// ever made using anything other than 3 d10s" (L237).
pub const SAVE_DICE: u32 = 3;

/// The three outcomes of a Saving Throw (L246–251, L1764–1768), worst first.
///
/// ```
/// use dice_robots_and_rapiers::SaveOutcome;
/// assert_eq!(SaveOutcome::from_successes(3), SaveOutcome::TotalSuccess);
/// assert_eq!(SaveOutcome::from_successes(1), SaveOutcome::PartialFailure { successes: 1 });
/// assert_eq!(SaveOutcome::from_successes(0).failed_dice(), 3);
/// assert!(SaveOutcome::TotalFailure < SaveOutcome::PartialFailure { successes: 2 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SaveOutcome {
    /// All 3 dice failed: "the robot has completely succumbed to the intended effect"
    /// (L247), plus the partial-failure losses for all 3 dice (L1768).
    TotalFailure,
    /// 1 or 2 dice succeeded (L249–251).
    PartialFailure {
        /// Dice that succeeded (1 or 2).
        successes: u8,
    },
    /// All 3 succeeded: "No Effect" (L248, L1766).
    TotalSuccess,
}

impl SaveOutcome {
    /// From the number of successful dice (3 or more is a Total Success).
    ///
    /// ```
    /// use dice_robots_and_rapiers::SaveOutcome;
    /// assert_eq!(SaveOutcome::from_successes(2).successes(), 2);
    /// ```
    pub fn from_successes(successes: u32) -> SaveOutcome {
        match successes {
            0 => SaveOutcome::TotalFailure,
            1 | 2 => SaveOutcome::PartialFailure {
                successes: successes as u8,
            },
            _ => SaveOutcome::TotalSuccess,
        }
    }
    /// Dice that succeeded.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::SaveOutcome::TotalSuccess.successes(), 3);
    /// ```
    pub fn successes(self) -> u8 {
        match self {
            SaveOutcome::TotalFailure => 0,
            SaveOutcome::PartialFailure { successes } => successes,
            SaveOutcome::TotalSuccess => 3,
        }
    }
    /// Dice that failed.
    ///
    /// ```
    /// use dice_robots_and_rapiers::SaveOutcome;
    /// assert_eq!(SaveOutcome::PartialFailure { successes: 2 }.failed_dice(), 1);
    /// ```
    pub fn failed_dice(self) -> u8 {
        3 - self.successes()
    }
    /// Whether this is a Total Failure.
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::SaveOutcome::TotalFailure.is_total_failure());
    /// ```
    pub fn is_total_failure(self) -> bool {
        self == SaveOutcome::TotalFailure
    }
    /// The temporary attribute loss: 2 per failed die, 6 on a Total Failure (L251, L1794;
    /// A8), or the rules' values.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, SaveOutcome};
    /// let r = Rules::default();
    /// assert_eq!(SaveOutcome::PartialFailure { successes: 1 }.attribute_loss(&r), 4);
    /// assert_eq!(SaveOutcome::TotalFailure.attribute_loss(&r), 6);
    /// assert_eq!(SaveOutcome::TotalSuccess.attribute_loss(&r), 0);
    /// ```
    pub fn attribute_loss(self, rules: &Rules) -> u32 {
        match self {
            SaveOutcome::TotalFailure => u32::from(rules.total_failure_loss),
            o => u32::from(o.failed_dice()) * u32::from(rules.loss_per_failed_die),
        }
    }
    /// The Action Point loss of an Action Point Save: 1 per failed die (L285, L1962–1964).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::SaveOutcome::TotalFailure.action_point_loss(), 3);
    /// ```
    pub fn action_point_loss(self) -> u32 {
        u32::from(self.failed_dice())
    }
}

impl fmt::Display for SaveOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveOutcome::TotalFailure => f.write_str("Total Failure"),
            SaveOutcome::PartialFailure { successes } => {
                write!(f, "Partial Failure ({} failed)", 3 - successes)
            }
            SaveOutcome::TotalSuccess => f.write_str("Total Success"),
        }
    }
}

/// A Saving Throw: 3d10 against a TN (L236–244), the TN being an attribute "increased or
/// decreased by spent successes" and the GM (L1754–1756). At TN ≤ 0 Total Failure is
/// certain, at TN ≥ 10 Total Success (L268–269; A7). Saves are never opposed (L266).
///
/// Its [`Roll`] outcome is the [`SaveOutcome`]; [`Exact`] gives the law of the outcome.
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{SaveOutcome, SavingThrow};
/// // E22 (L1798–1804): the captain's Locomotion 6 − 3 = TN 3.
/// let save = SavingThrow::against(6, &[-3])?;
/// let d = save.distribution()?;
/// assert!((d.probability(&SaveOutcome::TotalFailure) - 0.343).abs() < 1e-12);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavingThrow {
    tn: i32,
    exerted: bool,
    pool: SuccessPool,
}

impl SavingThrow {
    /// A save at TN `tn`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] beyond ±[`crate::MAX_TN`].
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::SavingThrow::new(7)?.tn(), 7);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(tn: i32) -> Result<Self, Error> {
        let tn = check_tn("a Saving Throw's TN", tn)?;
        Ok(SavingThrow {
            tn,
            exerted: false,
            pool: pool(SAVE_DICE, tn)?,
        })
    }

    /// A save against an attribute with TN modifiers (successes spent, GM adjustments,
    /// armour, weapon Damage, Exertion's +1 …), summed.
    ///
    /// # Errors
    /// As [`SavingThrow::new`].
    ///
    /// ```
    /// // E23 (L1828): Force 8 + Hydraulics = 9, −3 Difficulty, +1 → "3 dice against a
    /// // target number of 7".
    /// assert_eq!(dice_robots_and_rapiers::SavingThrow::against(9, &[-3, 1])?.tn(), 7);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn against(attribute: i32, modifiers: &[i32]) -> Result<Self, Error> {
        let m: i64 = modifiers.iter().map(|&x| i64::from(x)).sum();
        let tn = (i64::from(attribute) + m).clamp(i64::from(i32::MIN), i64::from(i32::MAX));
        Self::new(tn as i32)
    }

    /// The TN (with Exertion, if any).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::SavingThrow::new(-2)?.tn(), -2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn tn(&self) -> i32 {
        self.tn
    }

    /// The same save with Exertion: +1 TN for 1 Power (L715), "by 1 (and only 1)"
    /// (L1465–1467). Idempotent, like [`crate::Test::exerted`]: exerting a save that is
    /// already exerted returns it unchanged (no second point of Power is owed). The Power is
    /// the caller's to deduct. (A TN modifier of +1 passed to [`SavingThrow::against`] is
    /// not recognised as Exertion: use this method for it.)
    ///
    /// At a TN of 0 or less Exertion does nothing: "If reduced to 0, Total Failure is
    /// guaranteed" (L268), and an attribute at 0 has lost its use (L253); the save stays as
    /// it is, unexerted.
    ///
    /// # Errors
    /// As [`SavingThrow::new`].
    ///
    /// ```
    /// let s = dice_robots_and_rapiers::SavingThrow::new(5)?.exerted()?;
    /// assert_eq!(s.tn(), 6);
    /// assert_eq!(s.exerted()?.exerted()?.tn(), 6); // "(and only 1)"
    /// assert_eq!(dice_robots_and_rapiers::SavingThrow::new(0)?.exerted()?.tn(), 0);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn exerted(&self) -> Result<Self, Error> {
        if self.exerted || self.tn <= 0 {
            return Ok(self.clone());
        }
        Ok(SavingThrow {
            exerted: true,
            ..Self::new(self.tn + 1)?
        })
    }

    /// Whether Power was spent on this save for +1 TN.
    ///
    /// ```
    /// let s = dice_robots_and_rapiers::SavingThrow::new(5)?;
    /// assert!(!s.is_exerted() && s.exerted()?.is_exerted());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn is_exerted(&self) -> bool {
        self.exerted
    }

    /// The pure form: three faces.
    ///
    /// # Errors
    /// [`Error::Face`] for a face outside 1–10.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{SaveOutcome, SavingThrow};
    /// let r = SavingThrow::new(5)?.resolve([2, 5, 9])?;
    /// assert_eq!(r.outcome, SaveOutcome::PartialFailure { successes: 2 });
    /// assert_eq!(r.to_string(), "[2, 5, 9] vs TN 5: Partial Failure (1 failed)");
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve(&self, faces: [u8; 3]) -> Result<SaveRoll, Error> {
        let mut n = 0;
        for f in faces {
            n += u32::from(is_success(check_face(f)?, self.tn));
        }
        Ok(SaveRoll {
            faces,
            tn: self.tn,
            outcome: SaveOutcome::from_successes(n),
        })
    }

    /// Rolls with the caller's RNG and reports the dice. Uses the same draws as
    /// [`Roll::roll`].
    ///
    /// ```
    /// use dice_core::Roll;
    /// use dice_robots_and_rapiers::SavingThrow;
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let s = SavingThrow::new(6)?;
    /// let r = s.roll_save(&mut Xoshiro256PlusPlus::seed_from_u64(9));
    /// assert_eq!(r.outcome, s.roll(&mut Xoshiro256PlusPlus::seed_from_u64(9)));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn roll_save<R: Rng + ?Sized>(&self, rng: &mut R) -> SaveRoll {
        let mut record = RollRecord::new();
        self.pool.roll_record_into(rng, &mut record);
        let f = faces_of(&record);
        SaveRoll {
            faces: [f[0], f[1], f[2]],
            tn: self.tn,
            outcome: SaveOutcome::from_successes(record.successes),
        }
    }

    /// The law of the temporary attribute loss (0, 2, 4 or 6 by default).
    ///
    /// # Errors
    /// None in practice.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, SavingThrow};
    /// let d = SavingThrow::new(10)?.loss_distribution(&Rules::default())?;
    /// assert_eq!(d.probability(&0), 1.0);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn loss_distribution(&self, rules: &Rules) -> Result<Dist<u32>, Error> {
        Ok(self.distribution()?.map(|o| o.attribute_loss(rules)))
    }

    /// The expected temporary attribute loss.
    ///
    /// # Errors
    /// None in practice.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, SavingThrow};
    /// // TN 0: a certain Total Failure, 6 points.
    /// assert_eq!(SavingThrow::new(0)?.expected_loss(&Rules::default())?, 6.0);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn expected_loss(&self, rules: &Rules) -> Result<f64, Error> {
        Ok(self.loss_distribution(rules)?.mean())
    }
}

impl Roll for SavingThrow {
    type Outcome = SaveOutcome;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> SaveOutcome {
        SaveOutcome::from_successes(self.pool.count(rng))
    }
}

impl RollDetailed for SavingThrow {
    /// The three dice with their successes flagged.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.pool.roll_record_into(rng, record);
    }
}

impl Exact for SavingThrow {
    /// dice-core's binomial law of the 3 dice, mapped onto the outcomes.
    fn distribution(&self) -> Result<Dist<SaveOutcome>, dice_core::Error> {
        Ok(self
            .pool
            .distribution()?
            .map(|&s| SaveOutcome::from_successes(s)))
    }
}

impl fmt::Display for SavingThrow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Saving Throw 3d10 vs TN {}", self.tn)?;
        if self.exerted {
            f.write_str(" (exerted)")?;
        }
        Ok(())
    }
}

/// One Saving Throw roll.
///
/// ```
/// use dice_robots_and_rapiers::{SaveOutcome, SavingThrow};
/// let r = SavingThrow::new(3)?.resolve([4, 8, 10])?;
/// assert_eq!(r.outcome, SaveOutcome::TotalFailure);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SaveRoll {
    /// The three faces.
    pub faces: [u8; 3],
    /// The TN.
    pub tn: i32,
    /// The outcome.
    pub outcome: SaveOutcome,
}

impl fmt::Display for SaveRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} vs TN {}: {}", self.faces, self.tn, self.outcome)
    }
}

/// The effect of an attribute save on the attribute (L251–253, L1786): the loss, the new
/// value, and whether the robot suffers the full effect — on a Total Failure, or when the
/// attribute reaches 0 or less "(even if the Save was otherwise partially successful)".
/// Attributes may go negative (Charles's Perception −2, L2077).
///
/// ```
/// use dice_robots_and_rapiers::{AttributeLoss, Rules, SaveOutcome};
/// let r = Rules::default();
/// // Locomotion 3, one failed die: 3 − 2 = 1, still usable.
/// let l = AttributeLoss::apply(3, SaveOutcome::PartialFailure { successes: 2 }, &r);
/// assert_eq!((l.loss, l.value, l.full_effect, l.usable()), (2, 1, false, true));
/// // Two failed dice take it to −1: full effect and loss of use.
/// let l = AttributeLoss::apply(3, SaveOutcome::PartialFailure { successes: 1 }, &r);
/// assert_eq!((l.value, l.full_effect, l.usable()), (-1, true, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AttributeLoss {
    /// Points lost (temporary).
    pub loss: u32,
    /// The attribute after the loss.
    pub value: i32,
    /// Whether the full effect of the save applies.
    pub full_effect: bool,
}

impl AttributeLoss {
    /// Applies a save's outcome to the current value of the attribute that loses points.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{AttributeLoss, Rules, SaveOutcome};
    /// let l = AttributeLoss::apply(8, SaveOutcome::TotalFailure, &Rules::default());
    /// assert_eq!((l.value, l.full_effect), (2, true));
    /// ```
    pub fn apply(current: i32, outcome: SaveOutcome, rules: &Rules) -> AttributeLoss {
        let loss = outcome.attribute_loss(rules);
        let value = current.saturating_sub(loss.min(i32::MAX as u32) as i32);
        AttributeLoss {
            loss,
            value,
            full_effect: outcome.is_total_failure() || (loss > 0 && value <= 0),
        }
    }

    /// Whether Tests and Saves can still use the attribute: at 0 or less its TN "is 0 and
    /// … impossible" (L253) "until it is restored to at least an effective score of 1"
    /// (L1786).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{AttributeLoss, Rules, SaveOutcome};
    /// assert!(AttributeLoss::apply(5, SaveOutcome::TotalSuccess, &Rules::default()).usable());
    /// ```
    pub fn usable(&self) -> bool {
        self.value >= 1
    }

    /// A 2-point temporary loss taken as a persistent loss instead: ×½, rounded down
    /// (L1715, L1882).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{AttributeLoss, Rules, SaveOutcome};
    /// let l = AttributeLoss::apply(6, SaveOutcome::PartialFailure { successes: 2 }, &Rules::default());
    /// assert_eq!(l.persistent(), 1);
    /// ```
    pub fn persistent(&self) -> u32 {
        self.loss / 2
    }
}

impl fmt::Display for AttributeLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "−{} → {}", self.loss, self.value)?;
        if self.full_effect {
            f.write_str(" (full effect)")?;
        }
        Ok(())
    }
}

/// The reading of a Role Save or Self Awareness Save (L1124–1148), from "compelled to act
/// per programming" to "free to act", with the stipulations between.
///
/// ```
/// use dice_robots_and_rapiers::{Compulsion, SaveOutcome};
/// assert_eq!(Compulsion::from_role_save(SaveOutcome::TotalSuccess), Compulsion::Compelled);
/// assert_eq!(Compulsion::from_self_awareness_save(SaveOutcome::TotalSuccess), Compulsion::Free);
/// assert_eq!(
///     Compulsion::from_role_save(SaveOutcome::PartialFailure { successes: 2 }),
///     Compulsion::CompelledWithPlayerStipulation
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Compulsion {
    /// Compelled to act per programming.
    Compelled,
    /// "largely compelled … but the player can place a single stipulation" (L1136).
    CompelledWithPlayerStipulation,
    /// "largely free … but the GM can place a single stipulation" (L1135).
    FreeWithGmStipulation,
    /// Free to act.
    Free,
}

impl Compulsion {
    /// A Role Save (TN = Role Score, L1132): 3 successes compelled … 0 free.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Compulsion, SaveOutcome};
    /// assert_eq!(Compulsion::from_role_save(SaveOutcome::TotalFailure), Compulsion::Free);
    /// ```
    pub fn from_role_save(outcome: SaveOutcome) -> Compulsion {
        match outcome.successes() {
            3 => Compulsion::Compelled,
            2 => Compulsion::CompelledWithPlayerStipulation,
            1 => Compulsion::FreeWithGmStipulation,
            _ => Compulsion::Free,
        }
    }
    /// A Self Awareness Save (TN = Self Awareness, L1144–1148): the readings reversed.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Compulsion, SaveOutcome};
    /// assert_eq!(
    ///     Compulsion::from_self_awareness_save(SaveOutcome::PartialFailure { successes: 1 }),
    ///     Compulsion::CompelledWithPlayerStipulation
    /// );
    /// ```
    pub fn from_self_awareness_save(outcome: SaveOutcome) -> Compulsion {
        match outcome.successes() {
            3 => Compulsion::Free,
            2 => Compulsion::FreeWithGmStipulation,
            1 => Compulsion::CompelledWithPlayerStipulation,
            _ => Compulsion::Compelled,
        }
    }
}

impl fmt::Display for Compulsion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compulsion::Compelled => "compelled",
            Compulsion::CompelledWithPlayerStipulation => "largely compelled (player stipulation)",
            Compulsion::FreeWithGmStipulation => "largely free (GM stipulation)",
            Compulsion::Free => "free",
        })
    }
}

/// Which of the two saves decides whether a robot follows its programming (L1124–1148).
///
/// ```
/// use dice_robots_and_rapiers::{Compulsion, RoleSave};
/// use dice_core::Exact;
/// // Role 10: "automatically Totally Successful" (L1166).
/// let d = RoleSave::Role { role: 10 }.distribution()?;
/// assert_eq!(d.probability(&Compulsion::Compelled), 1.0);
/// // "statistically identical" (L1138): Role 7 vs Self Awareness 3.
/// let a = RoleSave::Role { role: 7 }.distribution()?;
/// let b = RoleSave::SelfAwareness { self_awareness: 3 }.distribution()?;
/// for c in [Compulsion::Compelled, Compulsion::CompelledWithPlayerStipulation,
///           Compulsion::FreeWithGmStipulation, Compulsion::Free] {
///     assert!((a.probability(&c) - b.probability(&c)).abs() < 1e-12);
/// }
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RoleSave {
    /// The GM rolls 3d10 against the Role Score.
    Role {
        /// Role Score 0–10.
        role: u8,
    },
    /// The player rolls 3d10 against Self Awareness.
    SelfAwareness {
        /// Self Awareness 0–10.
        self_awareness: u8,
    },
}

impl RoleSave {
    /// The underlying save.
    ///
    /// ```
    /// use dice_robots_and_rapiers::RoleSave;
    /// assert_eq!(RoleSave::Role { role: 6 }.save().tn(), 6);
    /// ```
    pub fn save(self) -> SavingThrow {
        let tn = match self {
            RoleSave::Role { role } => role,
            RoleSave::SelfAwareness { self_awareness } => self_awareness,
        };
        // 0..=255 is always within MAX_TN after clamping.
        SavingThrow::new(i32::from(tn.min(10))).unwrap_or_else(|_| unreachable_save())
    }

    fn read(self, o: SaveOutcome) -> Compulsion {
        match self {
            RoleSave::Role { .. } => Compulsion::from_role_save(o),
            RoleSave::SelfAwareness { .. } => Compulsion::from_self_awareness_save(o),
        }
    }
}

fn unreachable_save() -> SavingThrow {
    SavingThrow {
        tn: 0,
        exerted: false,
        pool: SuccessPool::new(dice_core::Pool::empty(), dice_core::Comparison::AtMost(0)),
    }
}

impl Roll for RoleSave {
    type Outcome = Compulsion;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Compulsion {
        self.read(self.save().roll(rng))
    }
}

impl Exact for RoleSave {
    fn distribution(&self) -> Result<Dist<Compulsion>, dice_core::Error> {
        Ok(self.save().distribution()?.map(|&o| self.read(o)))
    }
}

impl fmt::Display for RoleSave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoleSave::Role { role } => write!(f, "Role Save vs {role}"),
            RoleSave::SelfAwareness { self_awareness } => {
                write!(f, "Self Awareness Save vs {self_awareness}")
            }
        }
    }
}

/// A Perception Save aimed at a single sense (§2.8, L1928–1936): the TN is "2 × a single
/// sensor" instead of Perception, and the "total loss to a sensor cannot exceed the total
/// level of that sensor" (L1932).
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{Rules, SaveOutcome, SensorSave};
/// // A blinding flash against Visual 3: TN 6, and at most 3 points of Visual lost.
/// let flash = SensorSave::new(3, &[])?;
/// assert_eq!(flash.save().tn(), 6);
/// assert_eq!(flash.loss(SaveOutcome::TotalFailure, &Rules::default()), 3);
/// assert_eq!(flash.loss(SaveOutcome::PartialFailure { successes: 2 }, &Rules::default()), 2);
/// assert!((flash.distribution()?.total() - 1.0).abs() < 1e-12);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SensorSave {
    sensor: u32,
    save: SavingThrow,
}

impl SensorSave {
    /// A save of the sense whose sensor is at level `sensor`, with TN modifiers.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a sensor above 100 or a TN beyond ±[`crate::MAX_TN`].
    ///
    /// ```
    /// let s = dice_robots_and_rapiers::SensorSave::new(4, &[-1])?;
    /// assert_eq!((s.sensor(), s.save().tn()), (4, 7));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(sensor: u32, modifiers: &[i32]) -> Result<Self, Error> {
        if sensor > 100 {
            return Err(Error::OutOfRange {
                what: "a sensor's level",
                value: i64::from(sensor),
                min: 0,
                max: 100,
            });
        }
        Ok(SensorSave {
            sensor,
            save: SavingThrow::against(2 * sensor as i32, modifiers)?,
        })
    }

    /// The sensor's level.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::SensorSave::new(2, &[])?.sensor(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn sensor(&self) -> u32 {
        self.sensor
    }

    /// The Saving Throw itself (TN = 2 × the sensor + modifiers).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::SensorSave::new(2, &[1])?.save().tn(), 5);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn save(&self) -> &SavingThrow {
        &self.save
    }

    /// The sensor points lost on `outcome`: the usual loss, capped at the sensor's level.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, SaveOutcome, SensorSave};
    /// let s = SensorSave::new(1, &[])?;
    /// assert_eq!(s.loss(SaveOutcome::PartialFailure { successes: 1 }, &Rules::default()), 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn loss(&self, outcome: SaveOutcome, rules: &Rules) -> u32 {
        outcome.attribute_loss(rules).min(self.sensor)
    }

    /// The exact law of the sensor points lost.
    ///
    /// # Errors
    /// None in practice.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, SensorSave};
    /// // TN 0 (a sensor at 0): a certain Total Failure, but nothing left to lose.
    /// let d = SensorSave::new(0, &[])?.loss_distribution(&Rules::default())?;
    /// assert_eq!(d.probability(&0), 1.0);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn loss_distribution(&self, rules: &Rules) -> Result<Dist<u32>, Error> {
        Ok(self.distribution()?.map(|&o| self.loss(o, rules)))
    }
}

impl Roll for SensorSave {
    type Outcome = SaveOutcome;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> SaveOutcome {
        self.save.roll(rng)
    }
}

impl Exact for SensorSave {
    /// The law of the underlying [`SavingThrow`].
    fn distribution(&self) -> Result<Dist<SaveOutcome>, dice_core::Error> {
        self.save.distribution()
    }
}

impl fmt::Display for SensorSave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sensor save (sensor {}): {}", self.sensor, self.save)
    }
}

/// Whether the loser of an opposed Academics vs Processor roll keeps arguing.
///
/// ```
/// use dice_robots_and_rapiers::DebateResult;
/// assert_eq!(DebateResult::Loses.to_string(), "loses the debate");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DebateResult {
    /// A Total Failure, or Memory brought to 0 or below: the debate is lost.
    Loses,
    /// The robot keeps its footing (and takes the Memory loss).
    Holds,
}

impl fmt::Display for DebateResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            DebateResult::Loses => "loses the debate",
            DebateResult::Holds => "holds",
        })
    }
}

/// A debate (§2.7, L1920): an opposed Academics vs Processor roll; "the loser makes a Memory
/// Save at −(extra successes)". A Total Failure, or Memory reaching 0, loses the debate.
///
/// ```
/// use dice_core::{Exact, Roll};
/// use dice_robots_and_rapiers::{Debate, DebateResult, Rules, SaveOutcome};
/// // Memory 5, out-argued by 2: a Memory Save at TN 3.
/// let d = Debate::new(5, 2, Rules::default())?;
/// assert_eq!(d.save().tn(), 3);
/// assert_eq!(d.result(SaveOutcome::TotalFailure), DebateResult::Loses);
/// // One failed die costs 2 Memory: 5 → 3, the robot holds.
/// assert_eq!(d.result(SaveOutcome::PartialFailure { successes: 2 }), DebateResult::Holds);
/// // Only a Total Failure loses here (two failed dice leave Memory 1): 0.7³.
/// let p_lose = d.distribution()?.probability(&DebateResult::Loses);
/// assert!((p_lose - 0.7f64.powi(3)).abs() < 1e-12);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Debate {
    memory: i32,
    save: SavingThrow,
    rules: Rules,
}

impl Debate {
    /// The loser's Memory and the winner's extra successes.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when the TN (Memory − extra successes) is beyond
    /// ±[`crate::MAX_TN`].
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::Debate::new(4, 1, Default::default()).is_ok());
    /// ```
    pub fn new(memory: i32, extra_successes: u32, rules: Rules) -> Result<Self, Error> {
        let penalty = i32::try_from(extra_successes).unwrap_or(i32::MAX);
        Ok(Debate {
            memory,
            save: SavingThrow::against(memory, &[penalty.saturating_neg()])?,
            rules,
        })
    }

    /// The loser's Memory Save.
    ///
    /// ```
    /// let d = dice_robots_and_rapiers::Debate::new(6, 4, Default::default())?;
    /// assert_eq!(d.save().tn(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn save(&self) -> &SavingThrow {
        &self.save
    }

    /// The pure form: what a save's outcome means for the debate.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Debate, DebateResult, SaveOutcome};
    /// // Memory 2: one failed die takes it to 0, which loses the debate.
    /// let d = Debate::new(2, 0, Default::default())?;
    /// assert_eq!(d.result(SaveOutcome::PartialFailure { successes: 2 }), DebateResult::Loses);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn result(&self, outcome: SaveOutcome) -> DebateResult {
        let loss = AttributeLoss::apply(self.memory, outcome, &self.rules);
        if outcome.is_total_failure() || loss.value <= 0 {
            DebateResult::Loses
        } else {
            DebateResult::Holds
        }
    }
}

impl Roll for Debate {
    type Outcome = DebateResult;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> DebateResult {
        self.result(self.save.roll(rng))
    }
}

impl Exact for Debate {
    /// The save's law mapped through [`Debate::result`].
    fn distribution(&self) -> Result<Dist<DebateResult>, dice_core::Error> {
        Ok(self.save.distribution()?.map(|&o| self.result(o)))
    }
}

impl fmt::Display for Debate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "debate: Memory {}, {}", self.memory, self.save)
    }
}
