//! Durability Saves, malfunctions, shutdown and reactivation (digest §2.5–§2.7; rulebook
//! L256–262, L1832–1874, L1914–1926).

use std::fmt;

use dice_core::{Die, Dist, Exact, Rng, Roll, RollDetailed, RollRecord};
use rand::RngExt;

use crate::attribute::Attribute;
use crate::error::Error;
use crate::ledger::Faster;
use crate::rules::Rules;
use crate::save::{SaveOutcome, SaveRoll, SavingThrow};
use crate::test::check_face;

/// The most malfunctions one call resolves: slot re-rolls and capacitor extras could in
/// principle chain; past this many the rest are dropped (each re-roll chain dies out with
/// probability 1, so this is never reached in play).
pub const MAX_MALFUNCTIONS: u32 = 1000;

/// What a failed die of a Durability Save does (L1836, L2270, L2356–2360, L2388).
///
/// ```
/// use dice_robots_and_rapiers::DamageKind;
/// assert_eq!(DamageKind::default(), DamageKind::Malfunctions { per_failed_die: 2 });
/// assert_eq!(DamageKind::Emp { loss_per_failed_die: 2 }.to_string(), "EMP, 2 Durability per failed die");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DamageKind {
    /// Physical damage: malfunctions per failed die (2 normally; fist and small club 1,
    /// great sword 3).
    Malfunctions {
        /// Malfunction rolls per failed die.
        per_failed_die: u8,
    },
    /// An EMP weapon (all firearms, grenades, the pikes): a temporary Durability loss per
    /// failed die instead of malfunctions.
    Emp {
        /// Durability lost per failed die.
        loss_per_failed_die: u8,
    },
}

impl Default for DamageKind {
    /// Two malfunctions per failed die (L1836).
    fn default() -> Self {
        DamageKind::Malfunctions { per_failed_die: 2 }
    }
}

impl fmt::Display for DamageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DamageKind::Malfunctions { per_failed_die } => {
                write!(f, "{per_failed_die} malfunction(s) per failed die")
            }
            DamageKind::Emp {
                loss_per_failed_die,
            } => write!(f, "EMP, {loss_per_failed_die} Durability per failed die"),
        }
    }
}

/// What a Durability Save did.
///
/// ```
/// use dice_robots_and_rapiers::{DamageOutcome, SaveOutcome};
/// let o = DamageOutcome { save: SaveOutcome::TotalSuccess, malfunctions: 0, durability_loss: 0, shutdown: false };
/// assert_eq!(o.to_string(), "Total Success: no damage");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DamageOutcome {
    /// The save's outcome.
    pub save: SaveOutcome,
    /// Rolls owed on the Malfunction Table.
    pub malfunctions: u32,
    /// Temporary Durability lost (EMP weapons).
    pub durability_loss: u32,
    /// Whether the robot shuts down: on a Total Failure (L260, L1840), or when an EMP loss
    /// takes Durability to 0 or below, the full effect of the save "even if the Save was
    /// otherwise partially successful" (L253, L2388).
    pub shutdown: bool,
}

impl fmt::Display for DamageOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.save)?;
        if self.malfunctions == 0 && self.durability_loss == 0 && !self.shutdown {
            return f.write_str(": no damage");
        }
        if self.shutdown {
            f.write_str(": shut down")?;
        }
        if self.malfunctions > 0 {
            write!(f, ", {} malfunction(s)", self.malfunctions)?;
        }
        if self.durability_loss > 0 {
            write!(f, ", −{} Durability", self.durability_loss)?;
        }
        Ok(())
    }
}

/// A Durability Save against damage (L256–262, L1832–1840): Total Success is no damage;
/// each failed die of a Partial Failure gives malfunctions (A9: failed dice × the weapon's
/// multiplier) or, for EMP weapons, a temporary Durability loss; Total Failure shuts the
/// robot down, with the malfunctions of all 3 dice as well (A10, [`Rules`]).
///
/// An EMP loss works "much the way Saving Throws normally operate for other attributes"
/// (L2388): when it takes the robot's Durability to 0 or below, the robot "suffers the full
/// effect of the Saving Throw (even if the Save was otherwise partially successful)" (L253)
/// — the shutdown of L260. That needs the robot's current Durability, which is not the TN
/// once attack successes, weapon Damage or armour have moved it: [`DurabilitySave::new`]
/// takes the TN as the Durability (an unmodified save), [`DurabilitySave::with_durability`]
/// sets it, and [`crate::DamageProcedure::durability_save`] does so itself.
///
/// Decision: an EMP Total Failure also shuts the robot down (L2262 applies to every
/// Durability Save) and takes the loss of all 3 dice.
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{DamageKind, DurabilitySave, Firearm, Rules};
/// let save = DurabilitySave::new(5, DamageKind::default(), &Rules::default())?;
/// let r = save.resolve([3, 7, 9])?;
/// assert_eq!((r.malfunctions, r.shutdown), (4, false));
/// let d = save.distribution()?;
/// assert!((d.probability_where(|o| o.shutdown) - 0.125).abs() < 1e-12);
/// // Durability 2 shot with a pistol: two failed dice take it to 0, a shutdown (L253).
/// let pistol = DurabilitySave::new(2, Firearm::Pistol.damage_kind(), &Rules::default())?;
/// assert!(pistol.resolve([1, 9, 9])?.shutdown);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DurabilitySave {
    save: SavingThrow,
    durability: i32,
    kind: DamageKind,
    per_die: bool,
    on_total_failure: bool,
}

impl DurabilitySave {
    /// A Durability Save at TN `tn` by a robot whose current Durability is `tn` (an
    /// unmodified save; see [`crate::DamageProcedure`] for the TN of an attack, and
    /// [`DurabilitySave::with_durability`] when the TN is not the Durability).
    ///
    /// # Errors
    /// As [`SavingThrow::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, DurabilitySave, Rules};
    /// let s = DurabilitySave::new(6, DamageKind::default(), &Rules::default())?;
    /// assert_eq!((s.save().tn(), s.durability()), (6, 6));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(tn: i32, kind: DamageKind, rules: &Rules) -> Result<Self, Error> {
        Ok(DurabilitySave {
            save: SavingThrow::new(tn)?,
            durability: tn,
            kind,
            per_die: rules.malfunctions_per_failed_die,
            on_total_failure: rules.malfunctions_on_total_failure,
        })
    }
    /// The same save by a robot whose current Durability is `durability` (the TN is
    /// unchanged): an EMP loss that takes this to 0 or below is the full effect, a shutdown
    /// (L253, L2388).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DurabilitySave, Firearm, Rules};
    /// // Durability 6, TN 2 after 4 attack successes: a pistol's two failed dice leave 4.
    /// let s = DurabilitySave::new(2, Firearm::Pistol.damage_kind(), &Rules::default())?
    ///     .with_durability(6);
    /// assert!(!s.resolve([1, 9, 9])?.shutdown);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn with_durability(self, durability: i32) -> Self {
        DurabilitySave { durability, ..self }
    }
    /// The robot's current Durability (what an EMP loss is taken from).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, DurabilitySave, Rules};
    /// let s = DurabilitySave::new(3, DamageKind::default(), &Rules::default())?.with_durability(5);
    /// assert_eq!(s.durability(), 5);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn durability(&self) -> i32 {
        self.durability
    }
    /// The underlying 3d10 save.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, DurabilitySave, Rules};
    /// assert_eq!(DurabilitySave::new(2, DamageKind::default(), &Rules::default())?.save().tn(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn save(&self) -> &SavingThrow {
        &self.save
    }
    /// What a failed die does.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, DurabilitySave, Rules};
    /// assert_eq!(DurabilitySave::new(2, DamageKind::default(), &Rules::default())?.kind(), DamageKind::default());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn kind(&self) -> DamageKind {
        self.kind
    }
    /// The same save with Exertion: +1 TN for 1 Power, once, and nothing at a TN of 0 or
    /// less (L1465–1467, L253; [`SavingThrow::exerted`]).
    ///
    /// # Errors
    /// As [`SavingThrow::exerted`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, DurabilitySave, Rules};
    /// let s = DurabilitySave::new(4, DamageKind::default(), &Rules::default())?.exerted()?;
    /// assert_eq!((s.save().tn(), s.save().is_exerted()), (5, true));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn exerted(self) -> Result<Self, Error> {
        Ok(DurabilitySave {
            save: self.save.exerted()?,
            ..self
        })
    }

    /// The damage a save outcome does.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, DurabilitySave, Rules, SaveOutcome};
    /// let great_sword = DurabilitySave::new(4, DamageKind::Malfunctions { per_failed_die: 3 }, &Rules::default())?;
    /// let o = great_sword.outcome(SaveOutcome::TotalFailure);
    /// assert_eq!((o.malfunctions, o.shutdown), (9, true));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn outcome(&self, save: SaveOutcome) -> DamageOutcome {
        let failed = u32::from(save.failed_dice());
        let total = save.is_total_failure();
        let mut o = DamageOutcome {
            save,
            malfunctions: 0,
            durability_loss: 0,
            shutdown: total,
        };
        match self.kind {
            DamageKind::Malfunctions { per_failed_die } => {
                let m = u32::from(per_failed_die);
                if failed > 0 && (!total || self.on_total_failure) {
                    o.malfunctions = if self.per_die { failed * m } else { m };
                }
            }
            DamageKind::Emp {
                loss_per_failed_die,
            } => {
                o.durability_loss = failed * u32::from(loss_per_failed_die);
                // L253: an attribute reduced to 0 (or below) by the loss takes the full
                // effect of the save, which for Durability is the shutdown (L260, L2388).
                let left = i64::from(self.durability) - i64::from(o.durability_loss);
                if o.durability_loss > 0 && left <= 0 {
                    o.shutdown = true;
                }
            }
        }
        o
    }

    /// The pure form.
    ///
    /// # Errors
    /// [`Error::Face`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, DurabilitySave, Rules};
    /// let pistol = DurabilitySave::new(5, DamageKind::Emp { loss_per_failed_die: 1 }, &Rules::default())?;
    /// assert_eq!(pistol.resolve([6, 6, 1])?.durability_loss, 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve(&self, faces: [u8; 3]) -> Result<DamageOutcome, Error> {
        Ok(self.outcome(self.save.resolve(faces)?.outcome))
    }

    /// Rolls with the caller's RNG and reports the three dice with the damage. Uses the
    /// same draws as [`Roll::roll`].
    ///
    /// ```
    /// use dice_core::Roll;
    /// use dice_robots_and_rapiers::{DurabilitySave, Firearm, Rules};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let s = DurabilitySave::new(2, Firearm::Musket.damage_kind(), &Rules::default())?;
    /// let r = s.roll_save(&mut Xoshiro256PlusPlus::seed_from_u64(4));
    /// assert_eq!(r.damage, s.roll(&mut Xoshiro256PlusPlus::seed_from_u64(4)));
    /// assert_eq!(s.resolve(r.roll.faces)?, r.damage);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn roll_save<R: Rng + ?Sized>(&self, rng: &mut R) -> DurabilityRoll {
        let roll = self.save.roll_save(rng);
        DurabilityRoll {
            roll,
            damage: self.outcome(roll.outcome),
        }
    }
}

/// One Durability Save roll: the three dice and the damage they do.
///
/// ```
/// use dice_robots_and_rapiers::{DurabilitySave, Firearm, Rules};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let s = DurabilitySave::new(5, Firearm::Pistol.damage_kind(), &Rules::default())?;
/// let r = s.roll_save(&mut Xoshiro256PlusPlus::seed_from_u64(1));
/// assert!(r.to_string().starts_with(&format!("{:?} vs TN 5: ", r.roll.faces)));
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DurabilityRoll {
    /// The save's dice, TN and outcome.
    pub roll: SaveRoll,
    /// What they did.
    pub damage: DamageOutcome,
}

impl fmt::Display for DurabilityRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} vs TN {}: {}",
            self.roll.faces, self.roll.tn, self.damage
        )
    }
}

impl Roll for DurabilitySave {
    type Outcome = DamageOutcome;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> DamageOutcome {
        self.outcome(self.save.roll(rng))
    }
}

impl RollDetailed for DurabilitySave {
    /// The three dice with their successes flagged.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.save.roll_record_into(rng, record);
    }
}

impl Exact for DurabilitySave {
    /// The save's law mapped through [`DurabilitySave::outcome`] (which knows the
    /// Durability, so an EMP loss to 0 is a shutdown here as in the roll).
    fn distribution(&self) -> Result<Dist<DamageOutcome>, dice_core::Error> {
        Ok(self.save.distribution()?.map(|&s| self.outcome(s)))
    }
}

impl fmt::Display for DurabilitySave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Durability Save vs TN {} ({})",
            self.save.tn(),
            self.kind
        )?;
        if self.durability != self.save.tn() {
            write!(f, ", Durability {}", self.durability)?;
        }
        Ok(())
    }
}

/// A system the Malfunction Table's second table (and its Energy Capacity roll) hits
/// (L1848–1862).
///
/// ```
/// use dice_robots_and_rapiers::SubSystem;
/// assert_eq!(SubSystem::PowerCapacitor.to_string(), "Energy Capacity: Capacitor");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SubSystem {
    /// 1–3: Visual Sensors.
    VisualSensors,
    /// 4–5: Audio Sensors.
    AudioSensors,
    /// 6: Tactile Sensors.
    TactileSensors,
    /// 7: Vocalization.
    Vocalization,
    /// 8–10, then 1–5: a current Power point.
    PowerCurrent,
    /// 8–10, then 6–10: the capacitor (maximum Power).
    PowerCapacitor,
}

impl fmt::Display for SubSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SubSystem::VisualSensors => "Visual Sensors",
            SubSystem::AudioSensors => "Audio Sensors",
            SubSystem::TactileSensors => "Tactile Sensors",
            SubSystem::Vocalization => "Vocalization",
            SubSystem::PowerCurrent => "Energy Capacity: Current Point",
            SubSystem::PowerCapacitor => "Energy Capacity: Capacitor",
        })
    }
}

/// One result of the Malfunction Table (L1848–1862).
///
/// ```
/// use dice_robots_and_rapiers::{Attribute, Malfunction, SubSystem};
/// assert_eq!(Malfunction::from_faces(6, None, None)?, Malfunction::Attribute(Attribute::Memory));
/// assert!(Malfunction::Attribute(Attribute::Memory).memory_save_required());
/// assert_eq!(Malfunction::from_faces(8, Some(9), Some(6))?, Malfunction::SubSystem(SubSystem::PowerCapacitor));
/// assert_eq!(Malfunction::from_faces(10, None, None)?, Malfunction::Slot);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Malfunction {
    /// 1–6: a Primary Attribute loses 1 point permanently (Memory also calls for a Memory
    /// Save, [`ProgramLoss`]).
    Attribute(Attribute),
    /// 7–8: a sub-system loses 1 point.
    SubSystem(SubSystem),
    /// 9–10: a randomly determined External Slot ([`SlotState::hit`]).
    Slot,
}

impl Malfunction {
    /// The pure form: the main d10, the sub-system d10 (for 7–8) and the Energy Capacity d10
    /// (for sub-system 8–10). Unneeded faces are ignored.
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::DiceCount`] when a needed face is missing.
    ///
    /// ```
    /// use dice_robots_and_rapiers::Malfunction;
    /// assert!(Malfunction::from_faces(7, None, None).is_err());
    /// ```
    pub fn from_faces(main: u8, sub: Option<u8>, energy: Option<u8>) -> Result<Self, Error> {
        let need = |f: Option<u8>, what| {
            f.ok_or(Error::DiceCount {
                what,
                expected: 1,
                got: 0,
            })
            .and_then(check_face)
        };
        Ok(match check_face(main)? {
            1 => Malfunction::Attribute(Attribute::Force),
            2 => Malfunction::Attribute(Attribute::Durability),
            3 => Malfunction::Attribute(Attribute::Locomotion),
            4 => Malfunction::Attribute(Attribute::Articulation),
            5 => Malfunction::Attribute(Attribute::Processor),
            6 => Malfunction::Attribute(Attribute::Memory),
            7 | 8 => Malfunction::SubSystem(match need(sub, "the sub-system table")? {
                1..=3 => SubSystem::VisualSensors,
                4 | 5 => SubSystem::AudioSensors,
                6 => SubSystem::TactileSensors,
                7 => SubSystem::Vocalization,
                _ => {
                    if need(energy, "the Energy Capacity roll")? <= 5 {
                        SubSystem::PowerCurrent
                    } else {
                        SubSystem::PowerCapacitor
                    }
                }
            }),
            _ => Malfunction::Slot,
        })
    }

    /// Whether the result calls for an immediate Memory Save (6, L1855, L1924).
    ///
    /// ```
    /// assert!(!dice_robots_and_rapiers::Malfunction::Slot.memory_save_required());
    /// ```
    pub fn memory_save_required(self) -> bool {
        self == Malfunction::Attribute(Attribute::Memory)
    }
}

impl fmt::Display for Malfunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Malfunction::Attribute(a) => write!(f, "{a}, 1 point"),
            Malfunction::SubSystem(s) => write!(f, "{s}, 1 point"),
            Malfunction::Slot => f.write_str("External Slot"),
        }
    }
}

/// The Malfunction Table as a mechanic: rolls the main d10 and the sub-tables as needed;
/// its exact law follows the table's face counts.
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{Malfunction, MalfunctionTable, SubSystem};
/// let d = MalfunctionTable.distribution()?;
/// assert!((d.probability(&Malfunction::Slot) - 0.2).abs() < 1e-15);
/// // 7–8 (2 in 10), then 8–10 (3 in 10), then 6–10 (5 in 10).
/// assert!((d.probability(&Malfunction::SubSystem(SubSystem::PowerCapacitor)) - 0.03).abs() < 1e-15);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MalfunctionTable;

impl Roll for MalfunctionTable {
    type Outcome = Malfunction;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Malfunction {
        let d = |rng: &mut R| Die::D10.roll_face(rng) as u8;
        let main = d(rng);
        let sub = if (7..=8).contains(&main) {
            Some(d(rng))
        } else {
            None
        };
        let energy = if sub.is_some_and(|s| s >= 8) {
            Some(d(rng))
        } else {
            None
        };
        Malfunction::from_faces(main, sub, energy).unwrap_or(Malfunction::Slot)
    }
}

impl Exact for MalfunctionTable {
    /// Every combination of the three d10s, counted.
    fn distribution(&self) -> Result<Dist<Malfunction>, dice_core::Error> {
        let mut pairs = Vec::new();
        for main in 1..=10u8 {
            for sub in 1..=10u8 {
                for energy in 1..=10u8 {
                    if let Ok(m) = Malfunction::from_faces(main, Some(sub), Some(energy)) {
                        pairs.push((m, 0.001));
                    }
                }
            }
        }
        Dist::from_pairs(pairs)
    }
}

impl fmt::Display for MalfunctionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Malfunction Table")
    }
}

/// The state of one External Slot (L1860).
///
/// ```
/// use dice_robots_and_rapiers::SlotState;
/// assert_eq!(SlotState::Accessory.hit(), (SlotState::DamagedAccessory, 0));
/// assert_eq!(SlotState::DamagedAccessory.hit(), (SlotState::DestroyedAccessory, 0));
/// assert_eq!(SlotState::DestroyedAccessory.hit(), (SlotState::Damaged, 0));
/// assert_eq!(SlotState::Empty.hit(), (SlotState::Damaged, 0));
/// assert_eq!(SlotState::Damaged.hit(), (SlotState::Damaged, 2)); // "re-roll 2 Malfunctions"
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SlotState {
    /// An empty, working slot.
    Empty,
    /// A working accessory.
    Accessory,
    /// A damaged accessory: "stops working, exactly as if it were not possessed at all";
    /// repairable.
    DamagedAccessory,
    /// A destroyed accessory: "can no longer be repaired, only replaced".
    DestroyedAccessory,
    /// The slot itself is damaged.
    Damaged,
}

impl SlotState {
    /// The slot after a hit, and how many malfunctions to re-roll.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::SlotState::Empty.hit().1, 0);
    /// ```
    pub fn hit(self) -> (SlotState, u32) {
        match self {
            SlotState::Empty => (SlotState::Damaged, 0),
            SlotState::Accessory => (SlotState::DamagedAccessory, 0),
            SlotState::DamagedAccessory => (SlotState::DestroyedAccessory, 0),
            SlotState::DestroyedAccessory => (SlotState::Damaged, 0),
            SlotState::Damaged => (SlotState::Damaged, 2),
        }
    }
}

/// The parts of a robot that malfunctions and EMP losses touch: the six Primary Attributes,
/// the sub-systems, Power, the slots, Anthropoid Class (for Cosmetic Damage) and the
/// Cosmetic Damage accumulated.
///
/// ```
/// use dice_robots_and_rapiers::{Attribute, Chassis, Malfunction, SlotState};
/// let mut c = Chassis::new([4, 5, 6, 5, 4, 4], [3, 3, 3, 3], 5, vec![SlotState::Accessory]);
/// c.anthropoid_class = 6;
/// let extra = c.suffer(Malfunction::Attribute(Attribute::Force), None);
/// assert_eq!((c.attributes[0], extra), (3, 0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Chassis {
    /// The six Primary Attributes in [`Attribute::PRIMARY`] order: Force, Durability,
    /// Articulation, Locomotion, Processor, Memory.
    pub attributes: [i32; 6],
    /// Visual, Audio, Tactile sensors and Vocalization.
    pub subsystems: [i32; 4],
    /// Current Power.
    pub power: i32,
    /// Maximum Power (the capacitor).
    pub max_power: i32,
    /// The External Slots, in the robot's own numbering.
    pub slots: Vec<SlotState>,
    /// Anthropoid Class: each malfunction's d10 at or under it is a Cosmetic Damage point
    /// (L1866).
    pub anthropoid_class: i32,
    /// Cosmetic Damage accumulated (L1866–1870).
    pub cosmetic_damage: u32,
}

impl Chassis {
    /// A chassis with full Power and Anthropoid Class 0.
    ///
    /// ```
    /// let c = dice_robots_and_rapiers::Chassis::new([4; 6], [3; 4], 7, vec![]);
    /// assert_eq!((c.power, c.max_power), (7, 7));
    /// ```
    pub fn new(
        attributes: [i32; 6],
        subsystems: [i32; 4],
        power: i32,
        slots: Vec<SlotState>,
    ) -> Self {
        Chassis {
            attributes,
            subsystems,
            power,
            max_power: power,
            slots,
            anthropoid_class: 0,
            cosmetic_damage: 0,
        }
    }

    /// The current value of a Primary Attribute.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attribute, Chassis};
    /// let c = Chassis::new([1, 2, 3, 4, 5, 6], [3; 4], 5, vec![]);
    /// assert_eq!(c.attribute(Attribute::Locomotion), Some(4));
    /// assert_eq!(c.attribute(Attribute::Size), None);
    /// ```
    pub fn attribute(&self, a: Attribute) -> Option<i32> {
        Attribute::PRIMARY
            .iter()
            .position(|&p| p == a)
            .map(|i| self.attributes[i])
    }

    /// Applies one malfunction; `slot` is the slot index hit (for [`Malfunction::Slot`]).
    /// Returns how many further malfunctions it causes (a damaged slot hit again: 2; a
    /// capacitor loss that leaves current Power above the new maximum: 1, L1862). A slot
    /// result on a robot without slots (or an index out of range) has no effect (decision).
    /// Sub-system levels, current Power and the capacitor stop at 0: a hit on one already
    /// at 0 does nothing (and an empty capacitor causes no extra malfunction). Primary
    /// Attributes are not floored.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Chassis, Malfunction, SubSystem};
    /// let mut c = Chassis::new([4; 6], [3; 4], 5, vec![]);
    /// assert_eq!(c.suffer(Malfunction::SubSystem(SubSystem::PowerCapacitor), None), 1);
    /// assert_eq!((c.power, c.max_power), (4, 4));
    /// c.power = 2;
    /// assert_eq!(c.suffer(Malfunction::SubSystem(SubSystem::PowerCapacitor), None), 0);
    /// ```
    pub fn suffer(&mut self, m: Malfunction, slot: Option<usize>) -> u32 {
        match m {
            Malfunction::Attribute(a) => {
                if let Some(i) = Attribute::PRIMARY.iter().position(|&p| p == a) {
                    self.attributes[i] -= 1;
                }
                0
            }
            Malfunction::SubSystem(s) => match s {
                SubSystem::VisualSensors => dec(&mut self.subsystems[0]),
                SubSystem::AudioSensors => dec(&mut self.subsystems[1]),
                SubSystem::TactileSensors => dec(&mut self.subsystems[2]),
                SubSystem::Vocalization => dec(&mut self.subsystems[3]),
                SubSystem::PowerCurrent => dec(&mut self.power),
                SubSystem::PowerCapacitor => {
                    // An empty capacitor has nothing left to lose (L1862 cuts the maximum
                    // "by 1"; a Power Reserve below 0 has no meaning).
                    if self.max_power <= 0 {
                        return 0;
                    }
                    self.max_power -= 1;
                    if self.power > self.max_power {
                        self.power = self.max_power;
                        1
                    } else {
                        0
                    }
                }
            },
            Malfunction::Slot => match slot.and_then(|i| self.slots.get_mut(i)) {
                Some(s) => {
                    let (next, reroll) = s.hit();
                    *s = next;
                    reroll
                }
                None => 0,
            },
        }
    }

    /// Rolls and applies `count` malfunctions with the caller's RNG: the table, a uniformly
    /// random slot for slot results, the follow-up malfunctions, and a d10 per result
    /// against Anthropoid Class for Cosmetic Damage (L1866). At most [`MAX_MALFUNCTIONS`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Chassis, SlotState};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let mut c = Chassis::new([5; 6], [3; 4], 6, vec![SlotState::Empty; 4]);
    /// c.anthropoid_class = 5;
    /// let report = c.roll_malfunctions(4, &mut Xoshiro256PlusPlus::seed_from_u64(2));
    /// assert!(report.len() >= 4);
    /// ```
    pub fn roll_malfunctions<R: Rng + ?Sized>(
        &mut self,
        count: u32,
        rng: &mut R,
    ) -> Vec<MalfunctionReport> {
        let mut out = Vec::new();
        let slots = |c: &Chassis| u32::try_from(c.slots.len()).unwrap_or(u32::MAX);
        roll_malfunction_chain(self, count, rng, slots, |c, malfunction, slot, rng| {
            let slot = slot.map(|k| k as usize);
            let extra = c.suffer(malfunction, slot);
            let cosmetic_die = Die::D10.roll_face(rng) as u8;
            let cosmetic = i32::from(cosmetic_die) <= c.anthropoid_class;
            c.cosmetic_damage += u32::from(cosmetic);
            out.push(MalfunctionReport {
                malfunction,
                slot,
                cosmetic_die,
                cosmetic,
                extra,
            });
            extra
        });
        out
    }

    /// Applies a Durability Save's outcome: rolls its malfunctions, or takes its EMP
    /// Durability loss. Returns the malfunctions rolled.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Chassis, DamageOutcome, SaveOutcome};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let mut c = Chassis::new([5; 6], [3; 4], 6, vec![]);
    /// let emp = DamageOutcome { save: SaveOutcome::PartialFailure { successes: 2 }, malfunctions: 0, durability_loss: 2, shutdown: false };
    /// assert!(c.take_damage(&emp, &mut Xoshiro256PlusPlus::seed_from_u64(0)).is_empty());
    /// assert_eq!(c.attributes[1], 3);
    /// ```
    pub fn take_damage<R: Rng + ?Sized>(
        &mut self,
        damage: &DamageOutcome,
        rng: &mut R,
    ) -> Vec<MalfunctionReport> {
        self.attributes[1] -= damage.durability_loss.min(i32::MAX as u32) as i32;
        self.roll_malfunctions(damage.malfunctions, rng)
    }
}

/// The one loop that rolls malfunctions, for [`Chassis::roll_malfunctions`] and the duel's
/// standing: `owed` results on the Malfunction Table, one at a time, at most
/// [`MAX_MALFUNCTIONS`]. A slot result also draws which slot it hit, uniformly among the
/// `slots(target)` slots (none without slots). `apply` applies each result with its slot
/// (what it rolls besides, such as a Cosmetic Damage d10 or a Memory Save, is its own) and
/// returns the further malfunctions the result owes, which join the chain.
pub(crate) fn roll_malfunction_chain<S: ?Sized, R: Rng + ?Sized>(
    target: &mut S,
    owed: u32,
    rng: &mut R,
    slots: impl Fn(&S) -> u32,
    mut apply: impl FnMut(&mut S, Malfunction, Option<u32>, &mut R) -> u32,
) {
    let mut owed = owed;
    let mut rolled = 0;
    while owed > 0 && rolled < MAX_MALFUNCTIONS {
        owed -= 1;
        rolled += 1;
        let malfunction = MalfunctionTable.roll(rng);
        let slot = if malfunction == Malfunction::Slot {
            let n = slots(target);
            (n > 0).then(|| rng.random_range(0..n))
        } else {
            None
        };
        owed = owed.saturating_add(apply(target, malfunction, slot, rng));
    }
}

/// Takes 1 from a level, not below 0 (a sensor, Vocalization or the current Power at 0 has
/// nothing left to lose).
fn dec(x: &mut i32) -> u32 {
    if *x > 0 {
        *x -= 1;
    }
    0
}

/// One malfunction rolled and applied by [`Chassis::roll_malfunctions`].
///
/// ```
/// use dice_robots_and_rapiers::{Malfunction, MalfunctionReport};
/// let r = MalfunctionReport { malfunction: Malfunction::Slot, slot: Some(2), cosmetic_die: 4, cosmetic: true, extra: 0 };
/// assert_eq!(r.to_string(), "External Slot (slot 3), cosmetic damage");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MalfunctionReport {
    /// The table's result.
    pub malfunction: Malfunction,
    /// The slot index hit, for a slot result.
    pub slot: Option<usize>,
    /// The Cosmetic Damage d10.
    pub cosmetic_die: u8,
    /// Whether it scored a Cosmetic Damage point.
    pub cosmetic: bool,
    /// Further malfunctions it caused.
    pub extra: u32,
}

impl fmt::Display for MalfunctionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.malfunction)?;
        if let Some(s) = self.slot {
            write!(f, " (slot {})", s + 1)?;
        }
        if self.cosmetic {
            f.write_str(", cosmetic damage")?;
        }
        if self.extra > 0 {
            write!(f, ", {} more malfunction(s)", self.extra)?;
        }
        Ok(())
    }
}

/// The Memory Save after a Memory malfunction (L1924; A36): Total Success loses only the
/// Memory point; a Partial Failure costs one randomly picked program 1 level per failed
/// die; a Total Failure loses the whole program. The program is drawn from the robot's
/// programs, Core Programs included (the caller's list).
///
/// ```
/// use dice_robots_and_rapiers::{ProgramLoss, SaveOutcome};
/// assert_eq!(ProgramLoss::from_save(SaveOutcome::PartialFailure { successes: 1 }), ProgramLoss::Levels(2));
/// assert_eq!(ProgramLoss::from_save(SaveOutcome::TotalFailure), ProgramLoss::Whole);
/// assert_eq!(ProgramLoss::Levels(2).levels_lost(5), 2);
/// assert_eq!(ProgramLoss::Whole.levels_lost(5), 5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ProgramLoss {
    /// Only the Memory point.
    None,
    /// The picked program loses this many levels.
    Levels(u8),
    /// "the entire Program is lost".
    Whole,
}

impl ProgramLoss {
    /// From the Memory Save's outcome.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ProgramLoss, SaveOutcome};
    /// assert_eq!(ProgramLoss::from_save(SaveOutcome::TotalSuccess), ProgramLoss::None);
    /// ```
    pub fn from_save(outcome: SaveOutcome) -> ProgramLoss {
        match outcome {
            SaveOutcome::TotalSuccess => ProgramLoss::None,
            SaveOutcome::TotalFailure => ProgramLoss::Whole,
            o => ProgramLoss::Levels(o.failed_dice()),
        }
    }
    /// Levels lost from a program at `level`.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::ProgramLoss::Levels(2).levels_lost(1), 1);
    /// ```
    pub fn levels_lost(self, level: u8) -> u8 {
        match self {
            ProgramLoss::None => 0,
            ProgramLoss::Levels(n) => n.min(level),
            ProgramLoss::Whole => level,
        }
    }
    /// Levels lost for good after the second Memory Save made when the Memory point is
    /// repaired (L1924): Total Success regains everything; Partial "permanently loses 1
    /// point for each failed die (up to the amount originally lost)"; Total Failure regains
    /// nothing.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ProgramLoss, SaveOutcome};
    /// assert_eq!(ProgramLoss::permanent_after_repair(SaveOutcome::PartialFailure { successes: 2 }, 3), 1);
    /// assert_eq!(ProgramLoss::permanent_after_repair(SaveOutcome::TotalFailure, 3), 3);
    /// ```
    pub fn permanent_after_repair(repair_save: SaveOutcome, lost: u8) -> u8 {
        match repair_save {
            SaveOutcome::TotalSuccess => 0,
            SaveOutcome::TotalFailure => lost,
            o => o.failed_dice().min(lost),
        }
    }
}

impl fmt::Display for ProgramLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramLoss::None => f.write_str("no program lost"),
            ProgramLoss::Levels(n) => write!(f, "a random program loses {n} level(s)"),
            ProgramLoss::Whole => f.write_str("a random program is lost entirely"),
        }
    }
}

/// The outcome of a Shut Down Override (Sparks only; L714, L1842): 1 Power and a Self
/// Awareness Save whose TN "cannot have its TN modified".
///
/// ```
/// use dice_robots_and_rapiers::OverrideOutcome;
/// assert_eq!(OverrideOutcome::Penalty { dice: 4 }.to_string(), "overridden, −4 dice to all Tests until bought off");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum OverrideOutcome {
    /// Total Failure: the robot shuts down after all.
    ShutDown,
    /// Partial Failure: "-2 penalty per failed die to *all* Tests regardless of Attribute
    /// until the penalty is eliminated with successes" — dice (A19), bought off 1 per
    /// success, the first use of any successes.
    Penalty {
        /// Penalty dice.
        dice: u32,
    },
    /// Total Success: overridden with no penalty (implied).
    Overridden,
}

impl fmt::Display for OverrideOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OverrideOutcome::ShutDown => f.write_str("shut down"),
            OverrideOutcome::Penalty { dice } => {
                write!(f, "overridden, −{dice} dice to all Tests until bought off")
            }
            OverrideOutcome::Overridden => f.write_str("overridden"),
        }
    }
}

/// A Shut Down Override (L1842): a Self Awareness Save at the unmodified Self Awareness.
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{OverrideOutcome, Rules, ShutdownOverride};
/// let o = ShutdownOverride::new(4, &Rules::default())?;
/// let d = o.distribution()?;
/// assert!((d.probability(&OverrideOutcome::ShutDown) - 0.216).abs() < 1e-12);
/// assert_eq!(o.resolve([1, 2, 9])?, OverrideOutcome::Penalty { dice: 2 });
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShutdownOverride {
    save: SavingThrow,
    per_die: u32,
}

impl ShutdownOverride {
    /// The override of a robot with this Self Awareness.
    ///
    /// # Errors
    /// [`Error::NotSparked`] at Self Awareness 0 (only Sparks may override, L714).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, ShutdownOverride};
    /// assert!(ShutdownOverride::new(0, &Rules::default()).is_err());
    /// ```
    pub fn new(self_awareness: u8, rules: &Rules) -> Result<Self, Error> {
        if self_awareness == 0 {
            return Err(Error::NotSparked {
                what: "override a shutdown",
            });
        }
        Ok(ShutdownOverride {
            save: SavingThrow::new(i32::from(self_awareness.min(10)))?,
            per_die: u32::from(rules.override_penalty_per_failed_die),
        })
    }
    fn read(&self, o: SaveOutcome) -> OverrideOutcome {
        match o {
            SaveOutcome::TotalFailure => OverrideOutcome::ShutDown,
            SaveOutcome::TotalSuccess => OverrideOutcome::Overridden,
            p => OverrideOutcome::Penalty {
                dice: u32::from(p.failed_dice()) * self.per_die,
            },
        }
    }
    /// The pure form.
    ///
    /// # Errors
    /// [`Error::Face`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{OverrideOutcome, Rules, ShutdownOverride};
    /// assert_eq!(ShutdownOverride::new(4, &Rules::default())?.resolve([5, 6, 7])?, OverrideOutcome::ShutDown);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve(&self, faces: [u8; 3]) -> Result<OverrideOutcome, Error> {
        Ok(self.read(self.save.resolve(faces)?.outcome))
    }
}

impl Roll for ShutdownOverride {
    type Outcome = OverrideOutcome;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> OverrideOutcome {
        self.read(self.save.roll(rng))
    }
}

impl Exact for ShutdownOverride {
    fn distribution(&self) -> Result<Dist<OverrideOutcome>, dice_core::Error> {
        Ok(self.save.distribution()?.map(|&o| self.read(o)))
    }
}

impl fmt::Display for ShutdownOverride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Shut Down Override: Self Awareness Save vs {}",
            self.save.tn()
        )
    }
}

/// How an unassisted reactivation ended (L1844).
///
/// ```
/// use dice_robots_and_rapiers::Reactivation;
/// assert_eq!(Reactivation::Reactivated { hours: 2 }.to_string(), "reactivated after 2 hour(s)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Reactivation {
    /// Reactivated on the `hours`-th hourly check (each cost 1 Power).
    Reactivated {
        /// Hours (= Power) spent.
        hours: u32,
    },
    /// Power ran out after `hours` failed checks.
    OutOfPower {
        /// Hours (= Power) spent.
        hours: u32,
    },
}

impl fmt::Display for Reactivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reactivation::Reactivated { hours } => write!(f, "reactivated after {hours} hour(s)"),
            Reactivation::OutOfPower { hours } => {
                write!(f, "still shut down: Power ran out after {hours} hour(s)")
            }
        }
    }
}

/// Unassisted reactivation (L262, L1844): "Every hour the robot spends 1 point of Power and
/// rolls 1d10. If this roll is equal to or less than Durability, the robot reactivates.
/// If not, another check can be made in an hour if there is Power remaining."
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{Reactivation, SelfReactivation};
/// let r = SelfReactivation::new(4, 2)?;
/// let d = r.distribution()?;
/// assert!((d.probability(&Reactivation::Reactivated { hours: 2 }) - 0.6 * 0.4).abs() < 1e-15);
/// assert!((d.probability(&Reactivation::OutOfPower { hours: 2 }) - 0.36).abs() < 1e-15);
/// assert_eq!(r.resolve(&[7, 3])?, Reactivation::Reactivated { hours: 2 });
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SelfReactivation {
    durability: i32,
    power: u32,
}

impl SelfReactivation {
    /// A robot with this (current) Durability and Power left.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for more Power than [`MAX_MALFUNCTIONS`] hours of checks.
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::SelfReactivation::new(4, 5000).is_err());
    /// ```
    pub fn new(durability: i32, power: u32) -> Result<Self, Error> {
        if power > MAX_MALFUNCTIONS {
            return Err(Error::OutOfRange {
                what: "Power for hourly reactivation checks",
                value: i64::from(power),
                min: 0,
                max: i64::from(MAX_MALFUNCTIONS),
            });
        }
        Ok(SelfReactivation { durability, power })
    }
    /// The pure form: the hourly d10s in order (those after the reactivating one are
    /// ignored).
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::DiceCount`] when the faces run out before the Power does
    /// and no face reactivated.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Reactivation, SelfReactivation};
    /// assert_eq!(SelfReactivation::new(4, 1)?.resolve(&[9])?, Reactivation::OutOfPower { hours: 1 });
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[u8]) -> Result<Reactivation, Error> {
        for (i, &f) in faces.iter().take(self.power as usize).enumerate() {
            if i32::from(check_face(f)?) <= self.durability {
                return Ok(Reactivation::Reactivated {
                    hours: i as u32 + 1,
                });
            }
        }
        if faces.len() < self.power as usize {
            return Err(Error::DiceCount {
                what: "unassisted reactivation",
                expected: self.power as usize,
                got: faces.len(),
            });
        }
        Ok(Reactivation::OutOfPower { hours: self.power })
    }
}

impl Roll for SelfReactivation {
    type Outcome = Reactivation;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Reactivation {
        for h in 1..=self.power {
            if Die::D10.roll_face(rng) as i32 <= self.durability {
                return Reactivation::Reactivated { hours: h };
            }
        }
        Reactivation::OutOfPower { hours: self.power }
    }
}

impl Exact for SelfReactivation {
    /// A geometric law truncated at the Power.
    fn distribution(&self) -> Result<Dist<Reactivation>, dice_core::Error> {
        let p = f64::from(self.durability.clamp(0, 10)) / 10.0;
        let mut pairs = Vec::new();
        let mut fail = 1.0;
        for h in 1..=self.power {
            pairs.push((Reactivation::Reactivated { hours: h }, fail * p));
            fail *= 1.0 - p;
        }
        pairs.push((Reactivation::OutOfPower { hours: self.power }, fail));
        Dist::from_pairs(pairs.into_iter().filter(|&(_, q)| q > 0.0))
    }
}

impl fmt::Display for SelfReactivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "hourly 1d10 vs Durability {} with {} Power",
            self.durability, self.power
        )
    }
}

/// Minutes an assisted reactivation takes (L262, L1844; A20): another robot's Robot
/// Repair vs. Articulation (its own Articulation) needs 1 success for 1 hour; extra
/// successes shorten it by the faster-completion table. `None` when the roll failed (each
/// attempt costs 1 Power and an hour; retries are allowed).
///
/// ```
/// use dice_robots_and_rapiers::assisted_reactivation_minutes;
/// assert_eq!(assisted_reactivation_minutes(0), None);
/// assert_eq!(assisted_reactivation_minutes(1), Some(60.0));
/// assert_eq!(assisted_reactivation_minutes(3), Some(30.0));
/// assert_eq!(assisted_reactivation_minutes(9), Some(7.5));
/// ```
pub fn assisted_reactivation_minutes(net_successes: i64) -> Option<f64> {
    if net_successes < 1 {
        return None;
    }
    let extra = (net_successes - 1).min(i64::from(u32::MAX)) as u32;
    Some(match Faster::best_for(extra) {
        Some(f) => {
            let (n, d) = f.time_fraction();
            60.0 * f64::from(n) / f64::from(d)
        }
        None => 60.0,
    })
}

/// The Memory Save of a Sparked robot on reactivation after any shutdown (L281, L1846,
/// L1926; A37): 2 Inspiration per failed die; on a Total Failure 6 Inspiration and a level
/// of Self Awareness.
///
/// ```
/// use dice_robots_and_rapiers::{MemoryLoss, SaveOutcome};
/// let m = MemoryLoss::from_save(SaveOutcome::TotalFailure);
/// assert_eq!((m.inspiration, m.self_awareness), (6, 1));
/// // A37: Inspiration floors at 0; SA −1 gives Role +1.
/// assert_eq!(m.apply(4, 3, 7), (0, 2, 8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MemoryLoss {
    /// Inspiration lost.
    pub inspiration: u32,
    /// Self Awareness levels lost.
    pub self_awareness: u8,
}

impl MemoryLoss {
    /// From the Memory Save's outcome.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{MemoryLoss, SaveOutcome};
    /// assert_eq!(MemoryLoss::from_save(SaveOutcome::PartialFailure { successes: 2 }).inspiration, 2);
    /// ```
    pub fn from_save(outcome: SaveOutcome) -> MemoryLoss {
        MemoryLoss {
            inspiration: 2 * u32::from(outcome.failed_dice()),
            self_awareness: u8::from(outcome.is_total_failure()),
        }
    }
    /// The new (Inspiration, Self Awareness, Role): Inspiration floored at 0, Self Awareness
    /// at 0, Role raised to keep Role + SA = 10 (at most 10).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{MemoryLoss, SaveOutcome};
    /// assert_eq!(MemoryLoss::from_save(SaveOutcome::TotalSuccess).apply(5, 2, 8), (5, 2, 8));
    /// ```
    pub fn apply(self, inspiration: u32, self_awareness: u8, role: u8) -> (u32, u8, u8) {
        let sa = self_awareness.saturating_sub(self.self_awareness);
        let role = role.saturating_add(self_awareness - sa).min(10);
        (inspiration.saturating_sub(self.inspiration), sa, role)
    }
}

impl fmt::Display for MemoryLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "−{} Inspiration", self.inspiration)?;
        if self.self_awareness > 0 {
            write!(f, ", −{} Self Awareness", self.self_awareness)?;
        }
        Ok(())
    }
}
