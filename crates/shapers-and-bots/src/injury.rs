//! Injury (SB-R18–R21, L372–433): hit points, damage streaks for every weapon class against
//! armored and unarmored targets, and unconsciousness.

use std::fmt;

use dice_core::{Dist, Exact, FaceSet, Rng, Roll, RollDetailed, RollRecord, Streak};

use crate::character::Characteristics;
use crate::error::Error;
use crate::rules::{PunchDamage, Rules};
use crate::score::{D6, streak_faces};
use crate::skills::Skill;

/// The weapon classes of L392–401.
///
/// ```
/// use dice_shapers_and_bots::{Skill, WeaponClass};
/// assert_eq!(WeaponClass::Large.to_string(), "large weapon");
/// assert_eq!(WeaponClass::PunchOrKick.usual_skill(), Skill::Brawling);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum WeaponClass {
    /// A punch or kick (L392).
    PunchOrKick,
    /// "A small weapon like a dagger or a cudgel" (L393).
    Small,
    /// "A large weapon like an arrow or a sword" (L398), or a spiked club (L422).
    Large,
    /// "A really powerful weapon like a laser blaster" (L400).
    ReallyPowerful,
}

impl WeaponClass {
    /// Every class, weakest first.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::WeaponClass::ALL.len(), 4);
    /// ```
    pub const ALL: [WeaponClass; 4] = [
        WeaponClass::PunchOrKick,
        WeaponClass::Small,
        WeaponClass::Large,
        WeaponClass::ReallyPowerful,
    ];

    /// The skill that usually attacks with the class: Brawling, "hand-to-hand combat
    /// without weapons" (L245), for a punch or kick, and a Weapon specialty (L278, L286)
    /// for the rest. The rulebook never maps weapons to skills (SB-A20), so this is only a
    /// helper: a thrown dagger uses Throwing (L273).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Skill, WeaponClass};
    /// assert_eq!(WeaponClass::Small.usual_skill(), Skill::Weapon);
    /// ```
    pub const fn usual_skill(self) -> Skill {
        match self {
            WeaponClass::PunchOrKick => Skill::Brawling,
            _ => Skill::Weapon,
        }
    }
}

impl fmt::Display for WeaponClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WeaponClass::PunchOrKick => "punch or kick",
            WeaponClass::Small => "small weapon",
            WeaponClass::Large => "large weapon",
            WeaponClass::ReallyPowerful => "really powerful weapon",
        })
    }
}

/// One cell of the damage table (L409–412), as data: how a hit's damage is rolled.
///
/// ```
/// use dice_shapers_and_bots::{DamageRule, Rules, WeaponClass};
/// let small = DamageRule::rulebook(WeaponClass::Small, false, &Rules::default())?;
/// assert_eq!(small.to_string(), "1 + (5, 6)");
/// let punch_armored = DamageRule::rulebook(WeaponClass::PunchOrKick, true, &Rules::default())?;
/// assert_eq!(punch_armored, DamageRule::NoEffect);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DamageRule {
    /// "no effect" (L404): no damage, no die rolled.
    NoEffect,
    /// `base + (faces)`: `base` points, then one more for each successive face in
    /// `continue_on`, stopping at the first other face — "This works like a fluke roll"
    /// (L394–397).
    Streak {
        /// The guaranteed points.
        base: u32,
        /// The d6 faces that continue the streak.
        continue_on: FaceSet,
    },
    /// One die: 1 point if its face is in `on` (L392 read as prose, SB-A4).
    SingleRoll {
        /// The faces that do a point.
        on: FaceSet,
    },
}

impl DamageRule {
    /// The rulebook's cell for `class` against an `armored` or unarmored target (L392–412),
    /// with the rulings of `rules`:
    ///
    /// |  | Punch or kick | Small | Large | Really powerful |
    /// |---|---|---|---|---|
    /// | Unarmored | one d6, 6 → 1 (SB-A4 ruling; `0 + (6)` with [`PunchDamage::Streak`]) | `1 + (5, 6)` | `1 + (3, 4, 5, 6)` | `1 + (2, 3, 4, 5, 6)` |
    /// | Armored | no effect | `0 + (6)` | `0 + (5, 6)` | [`Rules::armored_really_powerful`] |
    ///
    /// # Errors
    /// [`Error::MissingDamageRule`] for a really powerful weapon against armor when
    /// [`Rules::armored_really_powerful`] is `None` (the default: SB-A6 requires the caller
    /// to supply it).
    ///
    /// ```
    /// use dice_shapers_and_bots::{DamageRule, Error, Rules, WeaponClass};
    /// let err = DamageRule::rulebook(WeaponClass::ReallyPowerful, true, &Rules::default());
    /// assert_eq!(err, Err(Error::MissingDamageRule { class: WeaponClass::ReallyPowerful }));
    /// ```
    pub fn rulebook(class: WeaponClass, armored: bool, rules: &Rules) -> Result<Self, Error> {
        let streak = |base, lo| -> Result<DamageRule, Error> {
            Ok(DamageRule::Streak {
                base,
                continue_on: FaceSet::range(lo, 6)?,
            })
        };
        match (class, armored) {
            (WeaponClass::PunchOrKick, false) => match rules.punch_damage {
                PunchDamage::SingleRoll => Ok(DamageRule::SingleRoll {
                    on: FaceSet::range(6, 6)?,
                }),
                PunchDamage::Streak => streak(0, 6),
            },
            (WeaponClass::Small, false) => streak(1, 5),
            (WeaponClass::Large, false) => streak(1, 3),
            (WeaponClass::ReallyPowerful, false) => streak(1, 2),
            (WeaponClass::PunchOrKick, true) => Ok(DamageRule::NoEffect),
            (WeaponClass::Small, true) => streak(0, 6),
            (WeaponClass::Large, true) => streak(0, 5),
            (WeaponClass::ReallyPowerful, true) => rules
                .armored_really_powerful
                .ok_or(Error::MissingDamageRule { class }),
        }
    }
}

impl fmt::Display for DamageRule {
    /// The table's notation: `0`, `1 + (5, 6)`, and `(6) once` for a single roll.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let faces = |s: FaceSet| {
            s.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match *self {
            DamageRule::NoEffect => f.write_str("0"),
            DamageRule::Streak { base, continue_on } => {
                write!(f, "{base} + ({})", faces(continue_on))
            }
            DamageRule::SingleRoll { on } => write!(f, "({}) once", faces(on)),
        }
    }
}

/// The whole damage table (L409–412 and the really powerful weapon of L400–401) under a set
/// of rulings: data to look up, print or change.
///
/// ```
/// use dice_shapers_and_bots::{DamageTable, Rules, WeaponClass};
/// let table = DamageTable::new(&Rules::default())?;
/// assert!(table.get(WeaponClass::Large, true).is_ok());
/// assert!(table.get(WeaponClass::ReallyPowerful, true).is_err()); // SB-A6
/// println!("{table}");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DamageTable {
    /// `[class][armored]`; `None` where the rulebook gives nothing and the rules supply
    /// nothing.
    cells: [[Option<DamageRule>; 2]; 4],
}

impl DamageTable {
    /// The table under `rules` ([`DamageRule::rulebook`] for every cell).
    ///
    /// # Errors
    /// Only a dice-core constructor's (never in practice).
    ///
    /// ```
    /// use dice_shapers_and_bots::{DamageTable, Rules, WeaponClass};
    /// let t = DamageTable::new(&Rules::default())?;
    /// assert_eq!(t.get(WeaponClass::Small, true)?.to_string(), "0 + (6)");
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn new(rules: &Rules) -> Result<Self, Error> {
        let mut cells = [[None; 2]; 4];
        for (i, class) in WeaponClass::ALL.into_iter().enumerate() {
            for (j, armored) in [false, true].into_iter().enumerate() {
                cells[i][j] = match DamageRule::rulebook(class, armored, rules) {
                    Ok(r) => Some(r),
                    Err(Error::MissingDamageRule { .. }) => None,
                    Err(e) => return Err(e),
                };
            }
        }
        Ok(DamageTable { cells })
    }

    /// The cell for `class` against an `armored` or unarmored target.
    ///
    /// # Errors
    /// [`Error::MissingDamageRule`] for the cell the rulebook does not give.
    ///
    /// ```
    /// use dice_shapers_and_bots::{DamageRule, DamageTable, Rules, WeaponClass};
    /// let t = DamageTable::new(&Rules::default())?;
    /// assert_eq!(t.get(WeaponClass::PunchOrKick, true)?, DamageRule::NoEffect);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn get(&self, class: WeaponClass, armored: bool) -> Result<DamageRule, Error> {
        self.cells[class as usize][usize::from(armored)].ok_or(Error::MissingDamageRule { class })
    }

    /// Replaces a cell (a house rule).
    ///
    /// ```
    /// use dice_shapers_and_bots::{DamageRule, DamageTable, Rules, WeaponClass};
    /// let mut t = DamageTable::new(&Rules::default())?;
    /// t.set(WeaponClass::ReallyPowerful, true, DamageRule::NoEffect);
    /// assert!(t.get(WeaponClass::ReallyPowerful, true).is_ok());
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn set(&mut self, class: WeaponClass, armored: bool, rule: DamageRule) {
        self.cells[class as usize][usize::from(armored)] = Some(rule);
    }
}

impl fmt::Display for DamageTable {
    /// One line per class: `large weapon: unarmored 1 + (3, 4, 5, 6), armored 0 + (5, 6)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, class) in WeaponClass::ALL.into_iter().enumerate() {
            let cell = |c: Option<DamageRule>| match c {
                Some(r) => r.to_string(),
                None => "(not given, SB-A6)".to_string(),
            };
            writeln!(
                f,
                "{class}: unarmored {}, armored {}",
                cell(self.cells[i][0]),
                cell(self.cells[i][1])
            )?;
        }
        Ok(())
    }
}

/// The damage of one hit (L389–412): a [`DamageRule`] rolled as a dice-core [`Streak`] on a
/// d6 (a single roll is a streak capped at one die).
///
/// Expected damage: 1.5 for a small weapon and 3 for a large one unarmored, 6 for a really
/// powerful one; 0.2 and 0.5 for small and large against armor; 1/6 for a punch (1/5 as a
/// streak).
///
/// ```
/// use dice_shapers_and_bots::{Damage, Rules, WeaponClass};
/// use dice_core::Exact;
/// let club = Damage::new(WeaponClass::Large, true, &Rules::default())?;
/// // SB-E13 (L421–426): against armored Dashwood, 5, 6, then a 1: 2 points.
/// assert_eq!(club.resolve(&[5, 6, 1])?.0.points, 2);
/// let d = club.distribution()?;
/// assert!((d.mean() - 0.5).abs() < 1e-12);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    rule: DamageRule,
    streak: Option<Streak>,
}

impl Damage {
    /// The damage of a `class` weapon against an `armored` or unarmored target, from the
    /// rulebook's table under `rules` ([`DamageRule::rulebook`]).
    ///
    /// # Errors
    /// [`Error::MissingDamageRule`] for the cell SB-A6 leaves to the caller.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Damage, Rules, WeaponClass};
    /// assert!(Damage::new(WeaponClass::ReallyPowerful, false, &Rules::default()).is_ok());
    /// ```
    pub fn new(class: WeaponClass, armored: bool, rules: &Rules) -> Result<Self, Error> {
        Self::from_rule(DamageRule::rulebook(class, armored, rules)?)
    }

    /// The damage of any rule (a house rule, or the armored really powerful weapon).
    ///
    /// # Errors
    /// [`Error::DamageFace`] for a face outside 1–6; a dice-core error for a streak that
    /// continues on every face (it would never end).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Damage, DamageRule};
    /// use dice_core::FaceSet;
    /// let ok = DamageRule::Streak { base: 0, continue_on: FaceSet::range(4, 6)? };
    /// assert!(Damage::from_rule(ok).is_ok());
    /// let endless = DamageRule::Streak { base: 1, continue_on: FaceSet::range(1, 6)? };
    /// assert!(Damage::from_rule(endless).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_rule(rule: DamageRule) -> Result<Self, Error> {
        let check = |s: FaceSet| match s.iter().find(|&x| x > 6) {
            Some(face) => Err(Error::DamageFace { face }),
            None => Ok(s),
        };
        let streak = match rule {
            DamageRule::NoEffect => None,
            DamageRule::Streak { base, continue_on } => {
                Some(Streak::new(D6, check(continue_on)?, i64::from(base))?)
            }
            DamageRule::SingleRoll { on } => Some(Streak::capped(D6, check(on)?, 0, 1)?),
        };
        Ok(Damage { rule, streak })
    }

    /// The rule.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Damage, DamageRule, Rules, WeaponClass};
    /// let d = Damage::new(WeaponClass::PunchOrKick, true, &Rules::default())?;
    /// assert_eq!(d.rule(), DamageRule::NoEffect);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn rule(&self) -> DamageRule {
        self.rule
    }

    /// The pure form: the faces rolled, ending with the one that stops the streak (one face
    /// for a single roll, none for no effect). Returns the roll and the faces used.
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::StreakUnfinished`] when no face stops the streak.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Damage, Rules, WeaponClass};
    /// let small = Damage::new(WeaponClass::Small, false, &Rules::default())?;
    /// assert_eq!(small.resolve(&[6, 5, 2])?.0.points, 3);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[u8]) -> Result<(DamageRoll, usize), Error> {
        match &self.streak {
            None => Ok((DamageRoll::default(), 0)),
            Some(s) => {
                let (length, used) = streak_faces(s, faces)?;
                Ok((self.finish(s, length, length >= s.cap()), used))
            }
        }
    }

    /// Rolls the damage with the caller's RNG (the same draws as [`Roll::roll`]).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Damage, Rules, WeaponClass};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let sword = Damage::new(WeaponClass::Large, false, &Rules::default())?;
    /// let roll = sword.roll_damage(&mut Xoshiro256PlusPlus::seed_from_u64(6));
    /// assert!(roll.points >= 1); // the guaranteed point
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn roll_damage<R: Rng + ?Sized>(&self, rng: &mut R) -> DamageRoll {
        match &self.streak {
            None => DamageRoll::default(),
            Some(s) => {
                let r = s.roll_streak(rng);
                self.finish(s, r.length, r.capped)
            }
        }
    }

    fn finish(&self, s: &Streak, length: u32, capped: bool) -> DamageRoll {
        let base = u32::try_from(s.base()).unwrap_or(0);
        DamageRoll {
            points: base.saturating_add(length),
            streak: length,
            // A single roll's cap of one die is the rule, not a cap reached.
            capped: capped && !matches!(self.rule, DamageRule::SingleRoll { .. }),
        }
    }
}

impl Roll for Damage {
    /// Points of damage.
    type Outcome = u32;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        match &self.streak {
            None => 0,
            Some(s) => u32::try_from(s.roll(rng)).unwrap_or(0),
        }
    }
}

impl Exact for Damage {
    /// dice-core's [`Streak::distribution`] (geometric; a tail below 1e-15 is carried as
    /// [`Dist::tail`]), or certain 0 for no effect.
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        match &self.streak {
            None => Ok(Dist::certain(0)),
            Some(s) => Ok(s.distribution()?.map(|&p| u32::try_from(p).unwrap_or(0))),
        }
    }
}

impl RollDetailed for Damage {
    /// Every face rolled; the ones that continued the streak are successes.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        match &self.streak {
            None => record.clear(),
            Some(s) => s.roll_record_into(rng, record),
        }
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rule.fmt(f)
    }
}

/// One damage roll.
///
/// ```
/// use dice_shapers_and_bots::{Damage, Rules, WeaponClass};
/// let (roll, _) = Damage::new(WeaponClass::Large, true, &Rules::default())?.resolve(&[5, 6, 1])?;
/// assert_eq!((roll.points, roll.streak), (2, 2));
/// assert_eq!(roll.to_string(), "2 points");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DamageRoll {
    /// Hit points lost.
    pub points: u32,
    /// Successive faces that continued the streak.
    pub streak: u32,
    /// The streak stopped at dice-core's cap (100 dice) rather than on a miss.
    pub capped: bool,
}

impl fmt::Display for DamageRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.points == 1 { "" } else { "s" };
        write!(f, "{} point{s}", self.points)?;
        if self.capped {
            f.write_str(" (cap reached)")?;
        }
        Ok(())
    }
}

/// Whether a character is still up (L432–433).
///
/// ```
/// use dice_shapers_and_bots::Condition;
/// assert_eq!(Condition::Unconscious.to_string(), "unconscious");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Condition {
    /// "When a character's HP reaches zero they are unconscious" (L432). What happens next
    /// "depends on the situation" (L433).
    Unconscious,
    /// Above zero hit points.
    Conscious,
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Condition::Unconscious => "unconscious",
            Condition::Conscious => "conscious",
        })
    }
}

/// A character's hit points during a fight: the fixed maximum (L374) and what is left.
///
/// ```
/// use dice_shapers_and_bots::{Condition, Health, Rules, Species};
/// let rules = Rules::default();
/// let mut dashwood = Health::of(&Species::Parrot.characteristics(), &rules)?;
/// assert_eq!(dashwood.current(), 5);
/// assert_eq!(dashwood.take(2, &rules), Condition::Conscious);
/// assert_eq!(dashwood.take(9, &rules), Condition::Unconscious);
/// assert_eq!(dashwood.current(), 0); // SB-A17: clamped at zero by default
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Health {
    max: i32,
    current: i32,
}

impl Health {
    /// Full health with `max` hit points.
    ///
    /// # Errors
    /// [`Error::HitPoints`] below 1 (the fewest any character has).
    ///
    /// ```
    /// use dice_shapers_and_bots::Health;
    /// assert!(Health::new(0).is_err());
    /// assert_eq!(Health::new(10)?.maximum(), 10);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn new(max: i32) -> Result<Self, Error> {
        if max < 1 {
            return Err(Error::HitPoints { max });
        }
        Ok(Health { max, current: max })
    }

    /// Full health for a character ([`Characteristics::hit_points`]).
    ///
    /// # Errors
    /// [`Error::SizeForHitPointsRequired`] under the explicit SB-A7 ruling.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Health, Rules, Species};
    /// assert_eq!(Health::of(&Species::Bear.characteristics(), &Rules::default())?.maximum(), 10);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn of(characteristics: &Characteristics, rules: &Rules) -> Result<Self, Error> {
        Health::new(characteristics.hit_points(rules)?)
    }

    /// The maximum.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Health::new(7)?.maximum(), 7);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn maximum(&self) -> i32 {
        self.max
    }

    /// Hit points left (negative only when [`Rules::clamp_hp_at_zero`] is off).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Health, Rules};
    /// let mut h = Health::new(7)?;
    /// h.take(2, &Rules::default());
    /// assert_eq!(h.current(), 5);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn current(&self) -> i32 {
        self.current
    }

    /// Conscious above zero, unconscious at zero or below (L432, SB-A17).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Condition, Health};
    /// assert_eq!(Health::new(3)?.condition(), Condition::Conscious);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn condition(&self) -> Condition {
        if self.current > 0 {
            Condition::Conscious
        } else {
            Condition::Unconscious
        }
    }

    /// Loses `points` hit points ("Each time a character is hit by a weapon, they lose Hit
    /// Points", L389) and returns the condition. Stops at zero unless
    /// [`Rules::clamp_hp_at_zero`] is off (SB-A17).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Health, Rules};
    /// let mut h = Health::new(3)?;
    /// h.take(5, &Rules { clamp_hp_at_zero: false, ..Rules::default() });
    /// assert_eq!(h.current(), -2);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn take(&mut self, points: u32, rules: &Rules) -> Condition {
        let points = i32::try_from(points).unwrap_or(i32::MAX);
        self.current = self.current.saturating_sub(points);
        if rules.clamp_hp_at_zero {
            self.current = self.current.max(0);
        }
        self.condition()
    }
}

impl fmt::Display for Health {
    /// `3/5 HP`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{} HP", self.current, self.max)
    }
}
