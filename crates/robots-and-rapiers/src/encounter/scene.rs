//! A duel described in the game's terms: two stat blocks and the [`DuelRules`] (serde,
//! `deny_unknown_fields`).

use crate::combat::{Armor, AttackType, MeleeWeapon};
use crate::damage::{Chassis, SlotState};
use crate::error::Error;
use crate::test::Dice;

use super::{DuelRules, Fighter};

/// A duel in the game's terms: two robots, and how much of the rulebook the duel plays
/// (`[duel]` in TOML; the abstracted duel when absent).
///
/// ```
/// use dice_robots_and_rapiers::{DuelRules, MeleeWeapon, Scene, SceneRobot};
/// let scene = Scene { title: Some("A duel".into()), robots: vec![
///     SceneRobot::new("Ann", 3, 5, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier),
///     SceneRobot::new("Bea", 4, 4, [4, 5, 5, 6, 6, 5], MeleeWeapon::SonicRapier),
/// ], duel: DuelRules::default() };
/// assert_eq!(scene.robots.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Scene {
    /// A title.
    #[cfg_attr(feature = "serde", serde(default))]
    pub title: Option<String>,
    /// The two duellists (`[[robot]]` in TOML).
    #[cfg_attr(feature = "serde", serde(rename = "robot"))]
    pub robots: Vec<SceneRobot>,
    /// How much of the rulebook the duel plays (`[duel]` in TOML).
    #[cfg_attr(feature = "serde", serde(default))]
    pub duel: DuelRules,
}

/// One duellist's stat block.
///
/// ```
/// use dice_robots_and_rapiers::{MeleeWeapon, SceneRobot};
/// let r = SceneRobot::new("Ann", 3, 5, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier);
/// assert_eq!((r.fencing, r.core_physical, r.durability), (3, 5, 6));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SceneRobot {
    /// Its name.
    pub name: String,
    /// Fencing Program level.
    pub fencing: u8,
    /// Core Physical level (linked to Fencing).
    pub core_physical: u8,
    /// Force.
    pub force: i32,
    /// Durability.
    pub durability: i32,
    /// Articulation (attacking TN).
    pub articulation: i32,
    /// Locomotion (parrying TN).
    pub locomotion: i32,
    /// Processor (Base Action Point dice, Action Point maximum).
    pub processor: i32,
    /// Memory.
    pub memory: i32,
    /// Visual sensors (Perception).
    #[cfg_attr(feature = "serde", serde(default = "three"))]
    pub visual: i32,
    /// Audio sensors (Perception).
    #[cfg_attr(feature = "serde", serde(default = "three"))]
    pub audio: i32,
    /// Tactile sensors (at 0–1 the attack and the parry lose dice, L694–699).
    #[cfg_attr(feature = "serde", serde(default = "three"))]
    pub tactile: i32,
    /// Self Awareness (0 if not Sparked).
    #[cfg_attr(feature = "serde", serde(default))]
    pub self_awareness: u32,
    /// Inspiration (Turn Order tie-break).
    #[cfg_attr(feature = "serde", serde(default))]
    pub inspiration: u32,
    /// Size.
    #[cfg_attr(feature = "serde", serde(default = "six"))]
    pub size: u32,
    /// Power.
    #[cfg_attr(feature = "serde", serde(default = "five"))]
    pub power: i32,
    /// Empty External Slots (L1860).
    #[cfg_attr(feature = "serde", serde(default))]
    pub slots: u8,
    /// How many programs it has, Core Programs included: a Memory malfunction's pick draws
    /// from them (L1924). Default 12: the 9 Role Programs of a new robot (L459) and 3 Cores.
    #[cfg_attr(feature = "serde", serde(default = "twelve"))]
    pub programs: u32,
    /// The weapon, snake_case (`sonic_rapier`, `mono_sword`, …).
    pub weapon: MeleeWeapon,
    /// How its blows land for knockdown, `thrust` or `bash` (bashing, cutting or swinging);
    /// by default the weapon's ([`MeleeWeapon::attack_type`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub attack: Option<AttackType>,
    /// Armour worn, snake_case (`tunic_and_jerkin`, `cuirass`, …).
    #[cfg_attr(feature = "serde", serde(default))]
    pub armor: Option<Armor>,
}

#[cfg(feature = "serde")]
fn three() -> i32 {
    3
}
#[cfg(feature = "serde")]
fn five() -> i32 {
    5
}
#[cfg(feature = "serde")]
fn six() -> u32 {
    6
}
#[cfg(feature = "serde")]
fn twelve() -> u32 {
    12
}

impl SceneRobot {
    /// A stat block with Fencing, Core Physical, the six Primary Attributes (Force,
    /// Durability, Articulation, Locomotion, Processor, Memory) and a weapon; sensors 3/3/3,
    /// Size 6, Power 5, no slots, 12 programs, no Self Awareness, Inspiration or armour.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{MeleeWeapon, SceneRobot};
    /// assert_eq!(SceneRobot::new("A", 1, 1, [1; 6], MeleeWeapon::RobotFist).size, 6);
    /// ```
    pub fn new(
        name: &str,
        fencing: u8,
        core_physical: u8,
        [
            force,
            durability,
            articulation,
            locomotion,
            processor,
            memory,
        ]: [i32; 6],
        weapon: MeleeWeapon,
    ) -> SceneRobot {
        SceneRobot {
            name: name.to_owned(),
            fencing,
            core_physical,
            force,
            durability,
            articulation,
            locomotion,
            processor,
            memory,
            visual: 3,
            audio: 3,
            tactile: 3,
            self_awareness: 0,
            inspiration: 0,
            size: 6,
            power: 5,
            slots: 0,
            programs: 12,
            weapon,
            attack: None,
            armor: None,
        }
    }

    /// The robot in play.
    ///
    /// # Errors
    /// As [`Fighter::new`]; [`Error::OutOfRange`] for sensors outside 0–4, Power outside
    /// 0–99, fewer than 2 or more than 200 programs.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{MeleeWeapon, SceneRobot};
    /// assert!(SceneRobot::new("A", 0, 0, [5; 6], MeleeWeapon::RobotFist).fighter().is_err());
    /// ```
    pub fn fighter(&self) -> Result<Fighter, Error> {
        let mut f = Fighter::new(
            self.name.clone(),
            Dice::Program {
                program: self.fencing,
                core: self.core_physical,
            },
            [
                self.force,
                self.durability,
                self.articulation,
                self.locomotion,
                self.processor,
                self.memory,
            ],
            self.weapon,
        )?;
        for (what, v) in [
            ("Visual sensors", self.visual),
            ("Audio sensors", self.audio),
            ("Tactile sensors", self.tactile),
        ] {
            if !(0..=4).contains(&v) {
                return Err(Error::OutOfRange {
                    what,
                    value: i64::from(v),
                    min: 0,
                    max: 4,
                });
            }
        }
        if !(0..=99).contains(&self.power) {
            return Err(Error::OutOfRange {
                what: "Power",
                value: i64::from(self.power),
                min: 0,
                max: 99,
            });
        }
        if !(2..=200).contains(&self.programs) {
            return Err(Error::OutOfRange {
                what: "programs (Core Programs included)",
                value: i64::from(self.programs),
                min: 2,
                max: 200,
            });
        }
        f.chassis = Chassis::new(
            f.chassis.attributes,
            [self.visual, self.audio, self.tactile, 3],
            self.power,
            vec![SlotState::Empty; usize::from(self.slots)],
        );
        f.senses = crate::conflict::Senses::new(self.visual, self.audio);
        f.self_awareness = self.self_awareness;
        f.inspiration = self.inspiration;
        f.size = self.size;
        f.programs = self.programs;
        f.attack = self.attack.unwrap_or(self.weapon.attack_type());
        f.armor = self.armor;
        f.check()?;
        Ok(f)
    }
}
