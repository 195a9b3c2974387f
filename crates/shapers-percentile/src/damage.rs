//! Taking damage: weapon + Strength or Agility + 1 per 10 points of success, less armour and
//! Fortitude (PC-R15, L69–73), the optional Lethal Damage (PC-R16, L74–75), the damage floor
//! (PC-A10).

use core::fmt;

use crate::error::{Error, check_score};
use crate::rules::Rules;

/// "For every 10 points of success, increase the damage caused by 1 point" (L71): the margin
/// divided by 10, rounded down, and 0 for a failure. The counter-attack uses the same rule on
/// the attacker's loss (L28: "a failure by 30 points would therefore translate as +3 damage,
/// a failure by 45 points would be +4").
///
/// ```
/// use dice_shapers_percentile::damage_bonus;
/// assert_eq!(damage_bonus(9), 0);
/// assert_eq!(damage_bonus(10), 1);
/// assert_eq!(damage_bonus(45), 4);
/// assert_eq!(damage_bonus(-20), 0);
/// ```
pub fn damage_bonus(margin: i32) -> u32 {
    margin.max(0).unsigned_abs() / 10
}

/// Which Aptitude made the attack: it decides whether Physical Strength or Physical Agility
/// adds to the damage (L70), and whether a counter-attack can follow (only in melee, L28).
///
/// ```
/// use dice_shapers_percentile::AttackKind;
/// assert!(AttackKind::Melee.is_melee());
/// assert!(AttackKind::Thrown.adds_strength());
/// assert!(!AttackKind::Ranged.adds_strength());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AttackKind {
    /// A Melee Aptitude (Unarmed or Armed): adds Physical Strength.
    Melee,
    /// The Ranged (Throwing) Aptitude: adds Physical Strength.
    Thrown,
    /// Any other Ranged Aptitude: adds Physical Agility.
    Ranged,
}

impl AttackKind {
    /// Whether the attack is made in melee.
    ///
    /// ```
    /// # use dice_shapers_percentile::AttackKind;
    /// assert!(!AttackKind::Thrown.is_melee());
    /// ```
    pub fn is_melee(self) -> bool {
        self == AttackKind::Melee
    }

    /// Whether Physical Strength (rather than Physical Agility) adds to the damage: "When
    /// using the Melee or Ranged (Throwing) Aptitudes add your Physical Strength … When using
    /// any other Ranged Aptitude, add your Physical Agility" (L70).
    ///
    /// ```
    /// # use dice_shapers_percentile::AttackKind;
    /// assert!(AttackKind::Melee.adds_strength());
    /// ```
    pub fn adds_strength(self) -> bool {
        matches!(self, AttackKind::Melee | AttackKind::Thrown)
    }
}

impl fmt::Display for AttackKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            AttackKind::Melee => "melee",
            AttackKind::Thrown => "ranged (throwing)",
            AttackKind::Ranged => "ranged",
        })
    }
}

/// The damage one hit does to one victim (PC-R15, L69–73):
///
/// ```text
/// weapon + (Physical Strength, or Physical Agility for non-thrown ranged)
///        + 1 per 10 points of success + outnumbering bonus
///        − armour − Fortitude (skipped under Lethal Damage)
/// ```
///
/// clamped at 0 under the ruling (PC-A10). Weapon damage, armour and Fortitude come from
/// other chapters (Weapons and Armour, the Consumer Guide) and are the caller's inputs; which
/// Fortitude (Physical, Social or Mental) depends on the type of attack (L73). In a dreamscape
/// pass the substituted attributes ([`crate::Attributes::in_dreamscape`]).
///
/// ```
/// use dice_shapers_percentile::{AttackKind, Damage, Rules};
/// // A blade of damage 6 in the hands of Physical Strength 12, against armour 2 and
/// // Physical Fortitude 5, with 4 on the outnumbering side (+4, L67).
/// let blade = Damage::new(AttackKind::Melee, 6, 12, 9)?.outnumbering(4)?.against(2, 5)?;
/// assert_eq!(blade.dealt(3, &Rules::default()), 6 + 12 + 3 + 4 - 2 - 5);
/// let lethal = Rules { lethal: true, ..Rules::default() };
/// assert_eq!(blade.dealt(3, &lethal), 23);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Damage {
    kind: AttackKind,
    weapon: i32,
    strength: i32,
    agility: i32,
    outnumbering: u32,
    armour: i32,
    fortitude: i32,
}

impl Damage {
    /// A hit with a weapon of `weapon_damage`, made with an Aptitude of `kind` by a character
    /// with these Physical Strength and Physical Agility; no armour, no Fortitude and no
    /// outnumbering yet.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when a number's magnitude exceeds [`crate::MAX_SCORE`].
    ///
    /// ```
    /// use dice_shapers_percentile::{AttackKind, Damage, Rules};
    /// let bow = Damage::new(AttackKind::Ranged, 5, 12, 9)?;
    /// assert_eq!(bow.dealt(0, &Rules::default()), 14); // 5 + Physical Agility 9
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn new(
        kind: AttackKind,
        weapon_damage: i32,
        physical_strength: i32,
        physical_agility: i32,
    ) -> Result<Self, Error> {
        Ok(Damage {
            kind,
            weapon: check_score("weapon damage", weapon_damage)?,
            strength: check_score("strength", physical_strength)?,
            agility: check_score("agility", physical_agility)?,
            outnumbering: 0,
            armour: 0,
            fortitude: 0,
        })
    }

    /// The same hit with the outnumbering damage bonus (L67), as given by
    /// [`crate::Outnumbering::damage_bonus`].
    ///
    /// # Errors
    /// [`Error::OutOfRange`] above [`crate::MAX_SCORE`].
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Damage, Rules};
    /// let d = Damage::new(AttackKind::Melee, 4, 10, 10)?.outnumbering(4)?;
    /// assert_eq!(d.dealt(0, &Rules::default()), 18);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn outnumbering(mut self, bonus: u32) -> Result<Self, Error> {
        let b = i32::try_from(bonus).unwrap_or(i32::MAX);
        self.outnumbering = check_score("outnumbering bonus", b)?.unsigned_abs();
        Ok(self)
    }

    /// The same hit against a victim with this armour (for the damage type and location) and
    /// this Fortitude Attribute (Physical, Social or Mental, by the type of attack, L73).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when a magnitude exceeds [`crate::MAX_SCORE`].
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Damage, Rules};
    /// let d = Damage::new(AttackKind::Melee, 4, 10, 10)?.against(3, 20)?;
    /// assert_eq!(d.dealt(1, &Rules::default()), 0); // 15 − 3 − 20 = −8, clamped (PC-A10)
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn against(mut self, armour: i32, fortitude: i32) -> Result<Self, Error> {
        self.armour = check_score("armour", armour)?;
        self.fortitude = check_score("fortitude", fortitude)?;
        Ok(self)
    }

    /// The kind of attack.
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Damage};
    /// assert_eq!(Damage::new(AttackKind::Thrown, 3, 8, 8)?.kind(), AttackKind::Thrown);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn kind(&self) -> AttackKind {
        self.kind
    }

    /// The attribute added to the weapon: Physical Strength for Melee and Ranged (Throwing),
    /// Physical Agility for the other Ranged Aptitudes (L70).
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Damage};
    /// assert_eq!(Damage::new(AttackKind::Thrown, 3, 8, 11)?.attribute(), 8);
    /// assert_eq!(Damage::new(AttackKind::Ranged, 3, 8, 11)?.attribute(), 11);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn attribute(&self) -> i32 {
        if self.kind.adds_strength() {
            self.strength
        } else {
            self.agility
        }
    }

    /// The damage taken for a hit with `bonus` from "+1 per 10 points of success" (or from a
    /// counter-attack's loss), under `rules` (Lethal Damage skips Fortitude, PC-R16; damage
    /// below 0 is 0 unless [`Rules::clamp_damage_at_zero`] is off, PC-A10).
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Damage, Rules};
    /// let d = Damage::new(AttackKind::Melee, 2, 3, 3)?.against(0, 10)?;
    /// let raw = Rules { clamp_damage_at_zero: false, ..Rules::default() };
    /// assert_eq!(d.dealt(0, &raw), -5);
    /// assert_eq!(d.dealt(0, &Rules::default()), 0);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn dealt(&self, bonus: u32, rules: &Rules) -> i32 {
        let fortitude = if rules.lethal { 0 } else { self.fortitude };
        let total = i64::from(self.weapon)
            + i64::from(self.attribute())
            + i64::from(bonus)
            + i64::from(self.outnumbering)
            - i64::from(self.armour)
            - i64::from(fortitude);
        let total = if rules.clamp_damage_at_zero {
            total.max(0)
        } else {
            total
        };
        i32::try_from(total).unwrap_or(if total < 0 { i32::MIN } else { i32::MAX })
    }
}

impl fmt::Display for Damage {
    /// `melee: 6 + 12 + bonus + 4 - 2 armour - 5 fortitude`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} {:+} + bonus",
            self.kind,
            self.weapon,
            self.attribute()
        )?;
        if self.outnumbering > 0 {
            write!(f, " + {}", self.outnumbering)?;
        }
        write!(
            f,
            " - {} armour - {} fortitude",
            self.armour, self.fortitude
        )
    }
}
