//! Whole duels: two robots fight with the extended conflict rules, turn by turn, until one
//! is shut down — played with an RNG, or solved exactly through [`dice_core::end_law`].
//!
//! - [`Fighter`]: a robot in play — its [`Chassis`], [`Senses`], the [`Dice`] of its Fencing
//!   Test, Self Awareness, Inspiration, Size, weapon and armour, in one owner; built from a
//!   [`crate::creation::Robot`] by [`Fighter::from_robot`] or from a scene's stat block.
//! - [`Attack`]: one Basic Melee Attack (Fencing vs. Articulation, L345) against a parry or
//!   not (Fencing vs. Locomotion, L346), its extra successes lowering the Durability Save
//!   (L2222, L2248–2262), the save's malfunctions and shutdown (L256–261, L1836–1840) — a
//!   [`Roll`] with its exact law ([`Exact`]), P(shutdown) and the expected malfunctions.
//! - [`Duel`]: the [`Encounter`]. One round is one turn: the robot at the top of the Turn
//!   Order attacks, the other may spend an Action Point to parry, the damage is taken, and
//!   after the turn either may Pay for Turn (L2131–2143). Its state is [`DuelState`], each
//!   robot's part a [`Standing`].
//! - [`DuelRules`]: how much of the rulebook the duel plays — by default Durability,
//!   Action Points and knockdown (exact in well under a second), or, field by field up to
//!   [`DuelRules::FULL`], every malfunction, the Shut Down Override and Exertion too.
//! - [`DuelPolicy`] / [`Rulebook`]: the choices a robot makes (parry or not, Pay for Turn or
//!   not, exert or not, override a shutdown or not), and the default that plays as the
//!   rulebook advises.
//! - [`Scene`]: the duel described in the game's terms (serde, `deny_unknown_fields`).
//!
//! ## What the duel abstracts
//!
//! By default ([`DuelRules::DEFAULT`]) the state holds each robot's current Durability (the
//! TN of its next Durability Save), its Action Points, its Locomotion (which knockdowns
//! lower, L1884–1888), whether it is shut down, and whose turn it is. Malfunctions are
//! rolled on the Malfunction Table and applied by [`Chassis::suffer`], but only the
//! **Durability** points they take (malfunction 2, L1850) and EMP Durability losses (L2270)
//! change the duel; the Shut Down Override and Exertion are left out. That keeps the exact
//! law of the shipped duel to a few thousand states.
//!
//! [`DuelRules::FULL`] plays the rest of the rulebook's combat: every malfunction result
//! that bears on a duel lowers what it reads (Articulation the attack's TN, Locomotion the
//! parry's, Processor the Action Point maximum, Tactile Sensors the dice, a Memory result's
//! save the Fencing or Core Physical levels, Power and the capacitor, slots), with the
//! follow-up malfunctions; the Shut Down Override and its penalty; Exertion. Each robot then
//! carries a dozen numbers that change, and the exact law of a full-size duel is refused
//! before the work ([`Duel::state_bound`]): estimate it by playing many duels
//! ([`dice_core::PlayOut`]). Force is never read: the Basic Melee Attack does not roll it
//! (it feeds damage only through a separate Fencing vs. Force roll, L2256). Inspiration,
//! off-hand weapons, Reach and Cosmetic Damage are not in the duel (see
//! docs/robots-and-rapiers.md, "What the duel abstracts"). The exact law and the played duel
//! ([`Encounter::play_round`]) follow the same rules, so they agree.
//!
//! ```
//! use dice_core::{EncounterLimits, end_law};
//! use dice_robots_and_rapiers::{Duel, DuelRules, Fighter, MeleeWeapon, Rules, Scene, SceneRobot};
//!
//! let robot = |name: &str| SceneRobot::new(name, 3, 5, [5, 3, 6, 5, 5, 4], MeleeWeapon::SonicRapier);
//! let scene = Scene { title: None, robots: vec![robot("Ann"), robot("Bea")], duel: DuelRules::default() };
//! let duel = Duel::from_scene(&scene, Rules::default())?;
//! let law = end_law(&duel, EncounterLimits::default())?;
//! assert!((law.ends.total() - 1.0).abs() < 1e-9);
//! // The whole rulebook: too many states for the exact law, refused at once.
//! let full = duel.with_duel_rules(DuelRules::FULL);
//! assert!(end_law(&full, EncounterLimits::default()).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod attack;
mod scene;
mod standing;

pub use attack::{Attack, AttackOutcome};
pub use scene::{Scene, SceneRobot};
pub use standing::{DuelRules, ProgramPick, Standing};

use std::fmt;

use dice_core::{Dist, Encounter, EncounterLimits, Exact, Policy, Roll};
use rand::Rng;

use crate::combat::{Armor, AttackType, MeleeWeapon};
use crate::conflict::{
    BaseActionPoints, Conflict, ConflictKind, Lighting, Participant, Ranking, Senses, TurnOrder,
    TurnOutcome, combat_ap_tn,
};
use crate::damage::{
    Chassis, DamageOutcome, DurabilitySave, Malfunction, MalfunctionTable, OverrideOutcome,
    ShutdownOverride,
};
use crate::error::Error;
use crate::ledger::Ledger;
use crate::rules::Rules;
use crate::save::{SaveOutcome, SavingThrow};
use crate::test::{Dice, MAX_POOL, Opposition};

use standing::{Memory, malfunction_law, roll_malfunctions};

/// A robot in play: everything of it a duel reads, in one owner.
///
/// ```
/// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon};
/// let f = Fighter::new("Juliard", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
/// assert_eq!((f.fencing_dice(), f.durability(), f.max_action_points()), (8, 6, 5));
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// The robot's name.
    pub name: String,
    /// Its chassis: the six Primary Attributes, sub-systems, Power, slots.
    pub chassis: Chassis,
    /// Its senses (Perception = Visual + Audio, L291).
    pub senses: Senses,
    /// The dice of its Fencing Test: Fencing + Core Physical (L1418).
    pub dice: Dice,
    /// Self Awareness (0 for a robot that is not Sparked): Base Action Point dice and the
    /// Action Point maximum (L2091, L2160).
    pub self_awareness: u32,
    /// Inspiration: the last tie-break of the Turn Order (L296).
    pub inspiration: u32,
    /// Size (L1886).
    pub size: u32,
    /// Its weapon: Difficulty attacking and parrying (L2366), Damage (L2258).
    pub weapon: MeleeWeapon,
    /// Armour worn: raises the Durability TN (L2260, L2442).
    pub armor: Option<Armor>,
    /// How its blows land, for knockdown (L1886–1887): by default its weapon's
    /// ([`MeleeWeapon::attack_type`]).
    pub attack: AttackType,
    /// How many programs it has, Core Programs included: a Memory malfunction's random pick
    /// draws from them (L1924). 12 unless set: 9 Role Programs (L459) and 3 Cores.
    pub programs: u32,
}

impl Fighter {
    /// A robot with the given Fencing dice, Primary Attributes (Force, Durability,
    /// Articulation, Locomotion, Processor, Memory) and weapon; Senses 3/3, Power 5, Size 6,
    /// 12 programs, no Self Awareness, Inspiration or armour (change the fields after).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for an attribute outside 1–10 or no Fencing dice.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon};
    /// assert!(Fighter::new("X", Dice::Program { program: 0, core: 0 }, [5; 6], MeleeWeapon::SonicRapier).is_err());
    /// assert!(Fighter::new("X", Dice::Program { program: 3, core: 5 }, [5, 0, 5, 5, 5, 5], MeleeWeapon::SonicRapier).is_err());
    /// ```
    pub fn new(
        name: impl Into<String>,
        dice: Dice,
        attributes: [i32; 6],
        weapon: MeleeWeapon,
    ) -> Result<Fighter, Error> {
        let f = Fighter {
            name: name.into(),
            chassis: Chassis::new(attributes, [3, 3, 3, 3], 5, Vec::new()),
            senses: Senses::new(3, 3),
            dice,
            self_awareness: 0,
            inspiration: 0,
            size: 6,
            weapon,
            armor: None,
            attack: weapon.attack_type(),
            programs: 12,
        };
        f.check()?;
        Ok(f)
    }

    /// The robot in play of a robot built with [`crate::creation`]: its attributes, sensors,
    /// Power, slots, Anthropoid Class, Self Awareness and the dice of the named Role Program
    /// (Fencing, say: its level + its Core, L187).
    ///
    /// # Errors
    /// [`Error::UnknownName`] when the robot has no such program; as [`Fighter::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Fighter, MeleeWeapon};
    /// use dice_robots_and_rapiers::creation::Robot;
    /// fn fencer(robot: &Robot) -> Result<Fighter, dice_robots_and_rapiers::Error> {
    ///     Fighter::from_robot("Pierre", robot, "Fencing", MeleeWeapon::SonicRapier)
    /// }
    /// ```
    pub fn from_robot(
        name: impl Into<String>,
        robot: &crate::creation::Robot,
        program: &str,
        weapon: MeleeWeapon,
    ) -> Result<Fighter, Error> {
        let p = robot
            .programs
            .get(program)
            .ok_or_else(|| Error::UnknownName {
                kind: "program",
                text: program.to_owned(),
            })?;
        let a = robot.attributes;
        let mut chassis = Chassis::new(
            [
                a.force,
                a.durability,
                a.articulation,
                a.locomotion,
                a.processor,
                a.memory,
            ]
            .map(i32::from),
            [
                i32::from(robot.sensors.visual),
                i32::from(robot.sensors.audio),
                i32::from(robot.sensors.tactile),
                0,
            ],
            i32::try_from(robot.power).unwrap_or(i32::MAX),
            vec![crate::damage::SlotState::Empty; robot.design.slots as usize],
        );
        chassis.anthropoid_class = i32::from(robot.anthropoid_class.value());
        let f = Fighter {
            name: name.into(),
            chassis,
            senses: Senses::new(
                i32::from(robot.sensors.visual),
                i32::from(robot.sensors.audio),
            ),
            dice: Dice::Program {
                program: p.level,
                core: robot.design.core.get(p.core),
            },
            self_awareness: u32::from(robot.design.tapestry.self_awareness()),
            inspiration: 0,
            size: u32::from(u8::from(robot.design.size)),
            weapon,
            armor: None,
            attack: weapon.attack_type(),
            programs: u32::try_from(robot.design.programs.len())
                .unwrap_or(u32::MAX)
                .saturating_add(3),
        };
        f.check()?;
        Ok(f)
    }

    pub(crate) fn check(&self) -> Result<(), Error> {
        let dice = i64::from(self.fencing_dice());
        if !(1..=i64::from(MAX_POOL)).contains(&dice) {
            return Err(Error::OutOfRange {
                what: "Fencing dice (Program + Core)",
                value: dice,
                min: 1,
                max: i64::from(MAX_POOL),
            });
        }
        for (i, v) in self.chassis.attributes.iter().enumerate() {
            if !(1..=10).contains(v) {
                return Err(Error::OutOfRange {
                    what: [
                        "Force",
                        "Durability",
                        "Articulation",
                        "Locomotion",
                        "Processor",
                        "Memory",
                    ][i],
                    value: i64::from(*v),
                    min: 1,
                    max: 10,
                });
            }
        }
        if self.self_awareness > 10 {
            return Err(Error::OutOfRange {
                what: "Self Awareness",
                value: i64::from(self.self_awareness),
                min: 0,
                max: 10,
            });
        }
        Ok(())
    }

    /// The dice of its Fencing Test.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon};
    /// let f = Fighter::new("D", Dice::Program { program: 4, core: 4 }, [4, 5, 5, 6, 6, 5], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(f.fencing_dice(), 8);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn fencing_dice(&self) -> u32 {
        self.dice.base().unwrap_or(0)
    }
    /// Durability at the start of the duel.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon};
    /// let f = Fighter::new("D", Dice::Program { program: 4, core: 4 }, [4, 5, 5, 6, 6, 5], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(f.durability(), 5);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn durability(&self) -> i32 {
        self.chassis.attributes[1]
    }
    /// The dice of its attack or parry: Fencing + Core Physical less what low Tactile
    /// Sensors take (L694–699; Fencing is neither Fine Motor nor Balance Sensitive).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon};
    /// let mut f = Fighter::new("D", Dice::Program { program: 4, core: 4 }, [4, 5, 5, 6, 6, 5], MeleeWeapon::SonicRapier)?;
    /// f.chassis.subsystems[2] = 1;
    /// assert_eq!(f.pool(), 7);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn pool(&self) -> u32 {
        Standing::new(self).pool()
    }
    pub(crate) fn articulation(&self) -> i32 {
        self.chassis.attributes[2]
    }
    pub(crate) fn locomotion(&self) -> i32 {
        self.chassis.attributes[3]
    }
    fn processor(&self) -> i32 {
        self.chassis.attributes[4]
    }
    /// The most Action Points it may hold: Processor + Self Awareness (L2160).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon};
    /// let mut f = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// f.self_awareness = 2;
    /// assert_eq!(f.max_action_points(), 7);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn max_action_points(&self) -> u32 {
        self.processor().max(0) as u32 + self.self_awareness
    }
    /// Its Turn Order ranking: Perception, then Locomotion, then Inspiration (L295–296).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(f.ranking(&Rules::default()).primary, 6);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn ranking(&self, rules: &Rules) -> Ranking {
        Ranking::new(
            self.senses.perception(Lighting::Normal, rules),
            self.locomotion(),
            self.inspiration,
        )
    }
    /// Its Base Action Points roll in a one-on-one fight: Processor + Self Awareness dice at
    /// TN 5 (L2091–2100).
    ///
    /// # Errors
    /// As [`BaseActionPoints::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(f.base_action_points(&Rules::default())?.dice(), 5);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn base_action_points(&self, rules: &Rules) -> Result<BaseActionPoints, Error> {
        BaseActionPoints::new(self.max_action_points(), combat_ap_tn(1, 1, rules), rules)
    }
}

impl fmt::Display for Fighter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.chassis.attributes;
        write!(
            f,
            "{}: Fencing {} dice, {}, Durability {}, Articulation {}, Locomotion {}, Processor {}",
            self.name,
            self.fencing_dice(),
            self.weapon,
            a[1],
            a[2],
            a[3],
            a[4]
        )?;
        if let Some(armor) = self.armor {
            write!(f, ", {armor}")?;
        }
        Ok(())
    }
}

/// The Durability one malfunction costs `fighter`, as [`Chassis::suffer`] applies it to its
/// chassis (the abstracted duel: follow-up malfunctions are not rolled).
fn durability_cost(fighter: &Fighter, m: Malfunction) -> u8 {
    let mut c = fighter.chassis.clone();
    c.slots.clear();
    let before = c.attributes[1];
    c.suffer(m, None);
    (before - c.attributes[1]).clamp(0, 255) as u8
}

/// A crate error where dice-core's is needed: the duel checks its robots when built, so
/// these do not arise in play.
fn core_error(e: Error) -> dice_core::Error {
    match e {
        Error::Core(e) => e,
        _ => dice_core::Error::Unsupported {
            what: "a move the duel's rules refuse",
        },
    }
}

fn byte(v: u32) -> u8 {
    v.min(255) as u8
}

/// The state of a duel: whether the Turn Order and Base Action Points are rolled yet, whose
/// turn it is (the top of the Turn Order; the other robot is below), and each robot's
/// [`Standing`]. No round counter.
///
/// ```
/// use dice_robots_and_rapiers::{DuelState, Standing};
/// let mut robot = Standing::down();
/// (robot.shut_down, robot.durability, robot.action_points) = (false, 6, 2);
/// let s = DuelState { engaged: true, top: 1, robots: [robot; 2] };
/// assert_eq!(s.to_string(), "robot 2 to act; robot 1: Durability 6, 2 AP; robot 2: Durability 6, 2 AP");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DuelState {
    /// `false` before the Turn Order and Base Action Points are rolled.
    pub engaged: bool,
    /// The robot at the top of the Turn Order (0 or 1).
    pub top: u8,
    /// Each robot's standing.
    pub robots: [Standing; 2],
}

impl fmt::Display for DuelState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.engaged {
            f.write_str("before the Turn Order")?;
        } else {
            write!(f, "robot {} to act", self.top + 1)?;
        }
        for (i, r) in self.robots.iter().enumerate() {
            write!(f, "; robot {}: {r}", i + 1)?;
        }
        Ok(())
    }
}

/// How a duel ends: the robot left standing (its index).
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::Victory(0).to_string(), "robot 1 wins");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Victory(pub u8);

impl fmt::Display for Victory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "robot {} wins", self.0 + 1)
    }
}

/// A choice a robot makes in a duel.
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::Choice::Parry.to_string(), "parry");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Choice {
    /// Spend 1 Action Point on an opposing roll: parry the attack (L2113, L346).
    Parry,
    /// Take the attack unopposed.
    NoParry,
    /// Announce Pay for Turn: 1 Action Point to take the next turn (L2131).
    PayForTurn,
    /// Do not announce.
    Pass,
    /// Spend 1 Power for +1 TN on the roll (L1465–1467).
    Exert,
    /// Roll at the plain TN.
    NoExertion,
    /// Spend 1 Power on a Self Awareness Save to override a shutdown (L1842).
    Override,
    /// Stay shut down.
    StayDown,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Choice::Parry => "parry",
            Choice::NoParry => "no parry",
            Choice::PayForTurn => "pay for turn",
            Choice::Pass => "pass",
            Choice::Exert => "exert",
            Choice::NoExertion => "no exertion",
            Choice::Override => "override the shutdown",
            Choice::StayDown => "stay down",
        })
    }
}

/// A roll of a duel that Exertion may raise.
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::DuelRoll::DurabilitySave.to_string(), "Durability Save");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DuelRoll {
    /// The attack (Fencing vs. Articulation).
    Attack,
    /// The parry (Fencing vs. Locomotion).
    Parry,
    /// The Durability Save of a hit.
    DurabilitySave,
    /// The Locomotion Save of a knockdown.
    KnockdownSave,
}

impl fmt::Display for DuelRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DuelRoll::Attack => "attack",
            DuelRoll::Parry => "parry",
            DuelRoll::DurabilitySave => "Durability Save",
            DuelRoll::KnockdownSave => "knockdown Locomotion Save",
        })
    }
}

/// When a robot chooses: the state as it stands (with what the turn has spent so far), and
/// what is at stake.
///
/// ```
/// use dice_robots_and_rapiers::{DuelState, Moment, Standing};
/// let state = DuelState { engaged: true, top: 0, robots: [Standing::down(); 2] };
/// let m = Moment::Parry { state, attacker: 0 };
/// assert!(matches!(m, Moment::Parry { attacker: 0, .. }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// `attacker` attacks; the other robot may parry.
    Parry {
        /// The state before the attack.
        state: DuelState,
        /// The attacking robot.
        attacker: u8,
    },
    /// After `actor`'s turn: Pay for Turn is open.
    PayForTurn {
        /// The state after the turn (the damage taken, the parry paid).
        state: DuelState,
        /// The robot that just acted (now at the bottom of the Turn Order).
        actor: u8,
        /// Who holds the first right to pay (L2133–2137), if anyone.
        first_right: Option<u8>,
    },
    /// Robot `who` is about to make `roll` at `tn` and has the Power to exert
    /// ([`DuelRules::exertion`]).
    Exert {
        /// The state, with the Power spent so far this turn.
        state: DuelState,
        /// The robot rolling.
        who: u8,
        /// Which roll.
        roll: DuelRoll,
        /// Its TN before Exertion (1–9: Exertion does nothing at 0 or below, L253, and
        /// nothing is left to gain at 10).
        tn: i32,
    },
    /// Robot `who`, a Spark with Power, has just been shut down ([`DuelRules::shutdown_override`]).
    Override {
        /// The state before the shutdown.
        state: DuelState,
        /// The robot shut down.
        who: u8,
    },
}

/// The tactics of the robots in a duel: a [`Policy`] over [`Moment`]s and [`Choice`]s.
pub trait DuelPolicy: Policy<Moment, Choice> {}
impl<T: Policy<Moment, Choice>> DuelPolicy for T {}

/// The Power [`Rulebook`] keeps back from Exertion: 1 to reactivate after a shutdown (L714)
/// and 1 for a Spark's Shut Down Override (L714, L1842) — Exertion "drains the capacitor
/// quickly and so should be used with caution" (L709).
pub const EXERTION_RESERVE: u8 = 2;

/// The default tactics, as the rulebook advises:
///
/// - **parry whenever there is an Action Point to spend**: "If a robot does not do this,
///   then the attacker's Test is unopposed and likely to succeed by a large margin. One
///   strategy in combat is to run one's opponent out of Action Points so they cannot defend
///   and become easy targets" (L2113–2115);
/// - every extra success of a hit goes to damage, every spare success of a parry buys
///   back Action Points: "1 additional success will replace the 1 spent to make the roll.
///   A second additional success will provide the AP needed to pay for the right …"
///   (L2234) — after a Shut Down Override's penalty, which "must be the first thing done
///   with any rolled successes" (L1842);
/// - **Pay for Turn with the first right** — "as long as you're successful you can keep
///   paying Action Points to take several actions in a row" (L2135) — while it leaves an
///   Action Point to parry with (Charles "elects to pass as he is running low on Action
///   Points", L2143); a robot whose turn comes next anyway does not pay for it;
/// - **exert on its own Durability Saves only, keeping [`EXERTION_RESERVE`] Power**: the
///   save is "the third and final attempt" to avoid the blow (L1772), and Exertion "should
///   be used with caution" (L709);
/// - **always override a shutdown** when it can: the duel is fought to a shutdown, and
///   overriding it is what a Spark "can learn" (L1842).
///
/// ```
/// use dice_core::Policy;
/// use dice_robots_and_rapiers::{Choice, DuelState, Moment, Rulebook, Standing};
/// let mut robot = Standing::down();
/// (robot.shut_down, robot.action_points) = (false, 2);
/// let state = DuelState { engaged: true, top: 1, robots: [robot; 2] };
/// let m = Moment::PayForTurn { state, actor: 0, first_right: Some(0) };
/// assert_eq!(Rulebook.choose(&m, 0, &[Choice::PayForTurn, Choice::Pass]), Choice::PayForTurn);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rulebook;

impl Policy<Moment, Choice> for Rulebook {
    fn choose(&self, moment: &Moment, who: usize, open: &[Choice]) -> Choice {
        let want = match *moment {
            Moment::Parry { .. } => Choice::Parry,
            Moment::PayForTurn {
                state,
                actor,
                first_right,
            } => {
                let ap = state.robots[who.min(1)].action_points;
                if first_right == Some(actor) && usize::from(actor) == who && ap >= 2 {
                    Choice::PayForTurn
                } else {
                    Choice::Pass
                }
            }
            Moment::Exert { state, roll, .. } => {
                if roll == DuelRoll::DurabilitySave
                    && state.robots[who.min(1)].power > EXERTION_RESERVE
                {
                    Choice::Exert
                } else {
                    Choice::NoExertion
                }
            }
            Moment::Override { .. } => Choice::Override,
        };
        if open.contains(&want) { want } else { open[0] }
    }
}

/// A duel between two robots under the extended conflict rules, with the robots' tactics
/// `P`, playing as much of the rulebook as its [`DuelRules`] say.
///
/// ```
/// use dice_core::{Encounter, play};
/// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let f = |n| Fighter::new(n, Dice::Program { program: 3, core: 5 }, [5, 3, 6, 5, 5, 4], MeleeWeapon::SonicRapier);
/// let duel = Duel::new([f("Ann")?, f("Bea")?], Rules::default())?;
/// let played = play(&duel, &mut Xoshiro256PlusPlus::seed_from_u64(1), 1000);
/// assert!(played.end.is_some());
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Duel<P = Rulebook> {
    fighters: [Fighter; 2],
    rules: Rules,
    model: DuelRules,
    policy: P,
    title: String,
    /// The Durability `k` malfunctions cost each robot (index `k`), from the table and
    /// [`Chassis::suffer`], computed once (the abstracted duel).
    losses: [Vec<Dist<u8>>; 2],
    /// What each robot's Memory malfunctions draw from.
    memory: [Memory; 2],
    /// The Malfunction Table's law.
    table: Vec<(Malfunction, f64)>,
    /// The most states [`Duel::state_bound`] may promise before the exact law is refused.
    budget: u64,
}

/// The most malfunctions whose Durability law is computed ahead (a Mono Great Sword's Total
/// Failure owes 9, which shuts the robot down anyway).
const LOSS_LAWS: u32 = 12;

/// What a turn's rolls are, decided before they are made.
struct Plan {
    /// The attack, or `None` when the robot at the top cannot make one.
    attack: Option<Attack>,
    /// Whether the defender parries.
    parried: bool,
    /// The state with the Power of the Exertions on the attack and the parry spent.
    state: DuelState,
}

/// The saves a hit calls for, decided once the hit is known.
struct Hit {
    save: DurabilitySave,
    knockdown: Option<SavingThrow>,
}

impl Duel<Rulebook> {
    /// A duel with the default tactics.
    ///
    /// # Errors
    /// As [`Duel::with_policy`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(Duel::new([f.clone(), f], Rules::default())?.fighters()[0].name, "A");
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(fighters: [Fighter; 2], rules: Rules) -> Result<Self, Error> {
        Duel::with_policy(fighters, rules, Rulebook)
    }

    /// The duel a scene describes, with its [`DuelRules`].
    ///
    /// # Errors
    /// [`Error::NotAllowed`] unless the scene has exactly two robots; as
    /// [`SceneRobot::fighter`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Duel, DuelRules, Rules, Scene};
    /// let empty = Scene { title: None, robots: vec![], duel: DuelRules::default() };
    /// assert!(Duel::from_scene(&empty, Rules::default()).is_err());
    /// ```
    pub fn from_scene(scene: &Scene, rules: Rules) -> Result<Self, Error> {
        let [a, b] = scene.robots.as_slice() else {
            return Err(Error::NotAllowed("a duel is fought by exactly two robots"));
        };
        let mut duel = Duel::new([a.fighter()?, b.fighter()?], rules)?.with_duel_rules(scene.duel);
        if let Some(t) = &scene.title {
            duel.title = t.clone();
        }
        Ok(duel)
    }
}

impl<P: DuelPolicy> Duel<P> {
    /// A duel with the caller's tactics, under the default [`DuelRules`].
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a robot whose Fencing dice, attributes or Action Points are
    /// out of the rules' range.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules, Rulebook};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// assert!(Duel::with_policy([f.clone(), f], Rules::default(), Rulebook).is_ok());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn with_policy(fighters: [Fighter; 2], rules: Rules, policy: P) -> Result<Self, Error> {
        for f in &fighters {
            f.check()?;
            f.base_action_points(&rules)?;
            Attack::between(f, f, f.durability(), true, rules)?;
        }
        let title = format!("{} vs {}", fighters[0].name, fighters[1].name);
        let table = MalfunctionTable.distribution()?;
        let losses = [0, 1].map(|who| {
            let one = table.map(|&m| durability_cost(&fighters[who], m));
            let mut laws = vec![Dist::certain(0u8)];
            for k in 1..=LOSS_LAWS as usize {
                let next = laws[k - 1].joint(&one).map(|&(x, y)| x.saturating_add(y));
                laws.push(next);
            }
            laws
        });
        let memory = [Memory::of(&fighters[0]), Memory::of(&fighters[1])];
        Ok(Duel {
            fighters,
            rules,
            model: DuelRules::default(),
            policy,
            title,
            losses,
            memory,
            table: standing::table()?,
            budget: EncounterLimits::default().max_states as u64,
        })
    }

    /// The same duel playing as much of the rulebook as `model` says.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, DuelRules, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// let duel = Duel::new([f.clone(), f], Rules::default())?.with_duel_rules(DuelRules::FULL);
    /// assert_eq!(duel.duel_rules(), DuelRules::FULL);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn with_duel_rules(self, model: DuelRules) -> Self {
        Duel { model, ..self }
    }

    /// The same duel with another budget for its exact law: the start is refused when
    /// [`Duel::state_bound`] is above `states` (by default the engine's default
    /// [`EncounterLimits::max_states`], 200,000). The bound is loose when many things are
    /// tracked: a larger budget lets the engine try, and its own limits still stop it.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, DuelRules, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// let duel = Duel::new([f.clone(), f], Rules::default())?.with_state_budget(10_000_000);
    /// assert_eq!(duel.state_budget(), 10_000_000);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn with_state_budget(self, states: u64) -> Self {
        Duel {
            budget: states,
            ..self
        }
    }

    /// The budget of [`Duel::with_state_budget`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(Duel::new([f.clone(), f], Rules::default())?.state_budget(), 200_000);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn state_budget(&self) -> u64 {
        self.budget
    }

    /// How much of the rulebook the duel plays.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, DuelRules, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(Duel::new([f.clone(), f], Rules::default())?.duel_rules(), DuelRules::DEFAULT);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn duel_rules(&self) -> DuelRules {
        self.model
    }

    /// The two robots.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(Duel::new([f.clone(), f], Rules::default())?.fighters().len(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn fighters(&self) -> &[Fighter; 2] {
        &self.fighters
    }

    /// The title: the scene's, or "A vs B".
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules};
    /// let f = |n| Fighter::new(n, Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier);
    /// assert_eq!(Duel::new([f("A")?, f("B")?], Rules::default())?.title(), "A vs B");
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn title(&self) -> &str {
        &self.title
    }

    /// A state in words, with the robots' names; each robot's Articulation, Locomotion,
    /// Processor, attack dice and Power too once they differ from the start.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules};
    /// let f = |n| Fighter::new(n, Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier);
    /// let duel = Duel::new([f("A")?, f("B")?], Rules::default())?;
    /// let mut s = duel.start();
    /// assert_eq!(duel.describe(&s), "before the Turn Order; A: Durability 5, 0 AP; B: Durability 5, 0 AP");
    /// s.robots[1].locomotion = 3;
    /// assert!(duel.describe(&s).ends_with("B: Durability 5, 0 AP, Locomotion 3"));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn describe(&self, state: &DuelState) -> String {
        let mut s = if state.engaged {
            format!("{} to act", self.fighters[usize::from(state.top)].name)
        } else {
            "before the Turn Order".to_owned()
        };
        for (f, r) in self.fighters.iter().zip(&state.robots) {
            s.push_str(&format!("; {}: {r}", f.name));
            if r.shut_down {
                continue;
            }
            let was = Standing::new(f);
            for (what, now, then) in [
                (
                    "Articulation",
                    u32::from(r.articulation),
                    u32::from(was.articulation),
                ),
                (
                    "Locomotion",
                    u32::from(r.locomotion),
                    u32::from(was.locomotion),
                ),
                (
                    "Processor",
                    u32::from(r.processor),
                    u32::from(was.processor),
                ),
                ("dice", r.pool(), was.pool()),
                ("Power", u32::from(r.power), u32::from(was.power)),
            ] {
                if now != then {
                    s.push_str(&format!(", {what} {now}"));
                }
            }
        }
        s
    }

    /// The attack `attacker` makes from `state`, parried or not, without Exertion: the dice,
    /// Articulation, Locomotion, Durability and penalties of the robots' standings.
    ///
    /// # Errors
    /// None in practice (the robots were checked when the duel was built).
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules};
    /// let f = |n| Fighter::new(n, Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier);
    /// let duel = Duel::new([f("A")?, f("B")?], Rules::default())?;
    /// assert_eq!(duel.attack(&duel.start(), 0, false)?.durability, 5);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn attack(
        &self,
        state: &DuelState,
        attacker: usize,
        parried: bool,
    ) -> Result<Attack, Error> {
        self.build_attack(state, attacker.min(1), parried, false, false)
    }

    fn build_attack(
        &self,
        state: &DuelState,
        a: usize,
        parried: bool,
        exerted: bool,
        parry_exerted: bool,
    ) -> Result<Attack, Error> {
        let d = 1 - a;
        let (ra, rd) = (&state.robots[a], &state.robots[d]);
        let parry = if parried {
            Some(
                Opposition::new(
                    rd.pool(),
                    i32::from(rd.locomotion) + i32::from(parry_exerted),
                )?
                .with_difficulty(self.fighters[d].weapon.difficulty())?,
            )
        } else {
            None
        };
        Ok(Attack {
            dice: ra.pool(),
            articulation: i32::from(ra.articulation),
            weapon: self.fighters[a].weapon,
            parry,
            durability: i32::from(rd.durability),
            armor_bonus: self.fighters[d].armor.map_or(0, Armor::bonus),
            rules: self.rules,
            exerted,
            save_exerted: false,
            penalty: u32::from(ra.penalty),
            parry_penalty: u32::from(rd.penalty),
        })
    }

    /// An upper bound on the states the exact law of this duel can reach: for each robot,
    /// the product of the ranges of what its [`Standing`] may hold under the duel's
    /// [`DuelRules`] (Durability and Action Points always; Articulation, Locomotion,
    /// Processor, Memory, Tactile Sensors, Fencing, Core Physical and the two Power values
    /// with every malfunction; Locomotion with knockdown; Power with Exertion or the
    /// override; the penalty with the override), one more for shut down; the two robots'
    /// products multiplied, twice for whose turn it is. [`Encounter::round_law`] refuses the
    /// start of a duel whose bound is beyond its budget ([`Duel::with_state_budget`]; by
    /// default the engine's default [`EncounterLimits::max_states`]) before any work.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Duel, DuelRules, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// let duel = Duel::new([f.clone(), f], Rules::default())?;
    /// // Durability 0–5 and 0–6 Action Points (5 Processor dice: 1 + up to 5).
    /// assert_eq!(duel.state_bound(), 1 + 2 * (6 * 7 + 1) * (6 * 7 + 1));
    /// assert!(duel.with_duel_rules(DuelRules::FULL).state_bound() > 1_000_000_000);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn state_bound(&self) -> u64 {
        let m = self.model;
        let one = |i: usize| -> u64 {
            let f = &self.fighters[i];
            let s = Standing::new(f);
            let v = |x: u8| u64::from(x) + 1;
            let dice = u64::from(f.max_action_points());
            let ap = dice + u64::from(self.rules.base_ap_plus_one);
            let mut r = v(s.durability).saturating_mul(ap + 1);
            if m.all_malfunctions {
                for x in [
                    s.articulation,
                    s.locomotion,
                    s.processor,
                    s.memory,
                    s.tactile,
                    s.fencing,
                    s.core,
                    s.max_power,
                ] {
                    r = r.saturating_mul(v(x));
                }
            } else if m.knockdown && self.knockdown_matters(i) {
                r = r.saturating_mul(self.knockdown_values(s.locomotion));
            }
            if m.tracks_power() {
                r = r.saturating_mul(v(s.power));
            }
            if m.shutdown_override && f.self_awareness > 0 {
                r = r.saturating_mul(u64::from(s.fencing_dice()) + 1);
            }
            r.saturating_add(1)
        };
        one(0)
            .saturating_mul(one(1))
            .saturating_mul(2)
            .saturating_add(1)
    }

    /// Whether a knockdown can ever leave robot `d` standing with less Locomotion: not when
    /// every blow strong enough to knock it down also takes its Durability Save to a TN of 0
    /// or less (a certain shutdown), unless it may override the shutdown.
    fn knockdown_matters(&self, d: usize) -> bool {
        let a = 1 - d;
        let (fa, fd) = (&self.fighters[a], &self.fighters[d]);
        if self.model.shutdown_override && fd.self_awareness > 0 {
            return true;
        }
        let Ok(attack) = Attack::between(fa, fd, fd.durability(), false, self.rules) else {
            return true;
        };
        for extra in 0..fa.fencing_dice() {
            if attack
                .procedure(extra)
                .knockdown(fd.size, fa.attack, &self.rules)
                .is_some()
            {
                let tn = attack.save(extra).map_or(1, |s| s.save().tn());
                return tn + i32::from(self.model.exertion) > 0;
            }
        }
        false
    }

    /// How many Locomotion values knockdown losses alone can leave from `locomotion`: the
    /// sums of 1, 2 or 3 failed dice's losses (L251, L1794), floored at 0.
    fn knockdown_values(&self, locomotion: u8) -> u64 {
        let step = [
            u32::from(self.rules.loss_per_failed_die),
            2 * u32::from(self.rules.loss_per_failed_die),
            u32::from(self.rules.total_failure_loss),
        ];
        let top = u32::from(locomotion);
        let mut seen = vec![false; top as usize + 1];
        let mut todo = vec![top];
        while let Some(x) = todo.pop() {
            if std::mem::replace(&mut seen[x as usize], true) {
                continue;
            }
            for &l in &step {
                if l > 0 {
                    todo.push(x.saturating_sub(l));
                }
            }
        }
        seen.iter().filter(|&&b| b).count() as u64
    }

    /// Refuses, before any work, an exact law the engine could not finish.
    fn check_exact(&self) -> Result<(), dice_core::Error> {
        if self.model.all_malfunctions && self.fighters.iter().any(|f| !f.chassis.slots.is_empty())
        {
            return Err(dice_core::Error::Unsupported {
                what: "the exact law of a duel with every malfunction between robots with \
                       External Slots (a damaged slot hit again re-rolls 2 malfunctions, \
                       without end)",
            });
        }
        let bound = self.state_bound();
        if bound > self.budget {
            return Err(dice_core::Error::TooComplex {
                what: "the states of this duel (a bound from what its rules track)",
                work: bound,
                max: self.budget,
            });
        }
        Ok(())
    }

    /// Whether `who` parries an attack from `state`.
    fn parries(&self, state: &DuelState, who: usize) -> bool {
        let m = Moment::Parry {
            state: *state,
            attacker: (1 - who) as u8,
        };
        self.policy
            .choose(&m, who, &[Choice::Parry, Choice::NoParry])
            == Choice::Parry
    }

    /// Whether `who` exerts on `roll` at `tn` (asked only when Exertion is on, it has the
    /// Power, and the TN is one Exertion can help: 1–9).
    fn exerts(&self, state: &DuelState, who: usize, roll: DuelRoll, tn: i32) -> bool {
        if !self.model.exertion || state.robots[who].power == 0 || !(1..10).contains(&tn) {
            return false;
        }
        let m = Moment::Exert {
            state: *state,
            who: who as u8,
            roll,
            tn,
        };
        self.policy
            .choose(&m, who, &[Choice::Exert, Choice::NoExertion])
            == Choice::Exert
    }

    /// Whether `who`, just shut down, overrides (a Spark with Power, when the override is
    /// on).
    fn overrides(&self, state: &DuelState, who: usize) -> bool {
        if !self.model.shutdown_override
            || self.fighters[who].self_awareness == 0
            || state.robots[who].power == 0
        {
            return false;
        }
        let m = Moment::Override {
            state: *state,
            who: who as u8,
        };
        self.policy
            .choose(&m, who, &[Choice::Override, Choice::StayDown])
            == Choice::Override
    }

    /// The turn's attack and parry, decided before the dice: a robot with no dice or no
    /// Articulation left cannot attack (L253, L1786: Tests against an attribute at 0 are
    /// impossible), and one with no dice, no Locomotion or no Action Point cannot parry.
    fn plan(&self, s: &DuelState) -> Result<Plan, Error> {
        let a = usize::from(s.top.min(1));
        let d = 1 - a;
        let mut st = *s;
        let art = i32::from(st.robots[a].articulation);
        if st.robots[a].pool() == 0 || art <= 0 {
            return Ok(Plan {
                attack: None,
                parried: false,
                state: st,
            });
        }
        let exerted = self.exerts(&st, a, DuelRoll::Attack, art);
        if exerted {
            st.robots[a].power -= 1;
        }
        let rd = st.robots[d];
        let loc = i32::from(rd.locomotion);
        let parried = rd.action_points >= 1 && rd.pool() >= 1 && loc >= 1 && self.parries(&st, d);
        let parry_exerted = parried && self.exerts(&st, d, DuelRoll::Parry, loc);
        if parry_exerted {
            st.robots[d].power -= 1;
        }
        let attack = self.build_attack(&st, a, parried, exerted, parry_exerted)?;
        Ok(Plan {
            attack: Some(attack),
            parried,
            state: st,
        })
    }

    /// The state once the rolls' successes have bought back the penalties.
    fn after_exchange(plan: &Plan, a: usize, o: &AttackOutcome) -> DuelState {
        let mut st = plan.state;
        st.robots[a].penalty -= byte(o.bought_off).min(st.robots[a].penalty);
        let d = 1 - a;
        st.robots[d].penalty -= byte(o.parry_bought_off).min(st.robots[d].penalty);
        st
    }

    /// The saves of a hit, and the Power spent exerting on them.
    fn hit(
        &self,
        attack: &Attack,
        st: &mut DuelState,
        a: usize,
        o: &AttackOutcome,
    ) -> Result<Hit, Error> {
        let d = 1 - a;
        let extra = o.extra();
        let mut save = attack.save(extra)?;
        if self.exerts(st, d, DuelRoll::DurabilitySave, save.save().tn()) {
            save = save.exerted()?;
            st.robots[d].power -= 1;
        }
        let mut knockdown = None;
        if self.model.knockdown {
            let size = self.fighters[d].size;
            let how = self.fighters[a].attack;
            if let Some(m) = attack.procedure(extra).knockdown(size, how, &self.rules) {
                let tn = i32::from(st.robots[d].locomotion) + m;
                let mut k = SavingThrow::new(tn.max(-crate::test::MAX_TN))?;
                if self.exerts(st, d, DuelRoll::KnockdownSave, tn) {
                    k = k.exerted()?;
                    st.robots[d].power -= 1;
                }
                knockdown = Some(k);
            }
        }
        Ok(Hit { save, knockdown })
    }

    /// What a hit's saves leave of the defender, before any malfunction is rolled: the EMP
    /// loss, the knockdown's Locomotion loss (2 a failed die, 6 on a Total Failure, L251,
    /// L1794).
    fn wounds(
        &self,
        mut r: Standing,
        dm: &DamageOutcome,
        knockdown: Option<SaveOutcome>,
    ) -> Standing {
        r.durability = r.durability.saturating_sub(byte(dm.durability_loss));
        if let Some(k) = knockdown {
            r.locomotion = r
                .locomotion
                .saturating_sub(byte(k.attribute_loss(&self.rules)));
        }
        r.normalize();
        r
    }

    /// The exact law of the defender `d` after a hit's saves: the override of a shutdown,
    /// the wounds, the malfunctions.
    fn harm_law(
        &self,
        st: &DuelState,
        d: usize,
        dm: &DamageOutcome,
        knockdown: Option<SaveOutcome>,
    ) -> Result<Dist<Standing>, Error> {
        let r = st.robots[d];
        if !dm.shutdown {
            return self.malfunction_law(d, self.wounds(r, dm, knockdown), dm.malfunctions);
        }
        if !self.overrides(st, d) {
            return Ok(Dist::certain(Standing::down()));
        }
        let mut r = r;
        r.power -= 1;
        let sa = byte(self.fighters[d].self_awareness);
        ShutdownOverride::new(sa, &self.rules)?
            .distribution()?
            .and_then(|o| match *o {
                OverrideOutcome::ShutDown => Ok(Dist::certain(Standing::down())),
                OverrideOutcome::Penalty { dice } => {
                    let mut t = r;
                    t.penalty = t.penalty.saturating_add(byte(dice));
                    self.malfunction_law(d, self.wounds(t, dm, knockdown), dm.malfunctions)
                }
                OverrideOutcome::Overridden => {
                    self.malfunction_law(d, self.wounds(r, dm, knockdown), dm.malfunctions)
                }
            })
    }

    /// The same, rolled.
    fn harm_rolled<R: Rng + ?Sized>(
        &self,
        st: &DuelState,
        d: usize,
        dm: &DamageOutcome,
        knockdown: Option<SaveOutcome>,
        rng: &mut R,
    ) -> Standing {
        let mut r = st.robots[d];
        if dm.shutdown {
            if !self.overrides(st, d) {
                return Standing::down();
            }
            r.power -= 1;
            let sa = byte(self.fighters[d].self_awareness);
            let Ok(o) = ShutdownOverride::new(sa, &self.rules) else {
                return Standing::down();
            };
            match o.roll(rng) {
                OverrideOutcome::ShutDown => return Standing::down(),
                OverrideOutcome::Penalty { dice } => {
                    r.penalty = r.penalty.saturating_add(byte(dice));
                }
                OverrideOutcome::Overridden => {}
            }
        }
        let mut r = self.wounds(r, dm, knockdown);
        if self.model.all_malfunctions {
            roll_malfunctions(&mut r, dm.malfunctions, self.memory[d], rng);
        } else {
            for _ in 0..dm.malfunctions {
                let m = MalfunctionTable.roll(rng);
                let cost = durability_cost(&self.fighters[d], m);
                r.durability = r.durability.saturating_sub(cost);
            }
        }
        r
    }

    /// The exact law of robot `who`'s standing after `owed` malfunctions under the duel's
    /// rules: with every malfunction, each result applied through [`Chassis::suffer`] with
    /// its follow-ups and a Memory result's save and pick; otherwise only the Durability they
    /// cost.
    ///
    /// # Errors
    /// [`Error::Core`] (`Unsupported`) with every malfunction on a standing with External
    /// Slots (a damaged slot re-rolls without end).
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_robots_and_rapiers::{Dice, Duel, DuelRules, Fighter, MeleeWeapon, Rules};
    /// let f = Fighter::new("A", Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier)?;
    /// let duel = Duel::new([f.clone(), f], Rules::default())?.with_duel_rules(DuelRules::FULL);
    /// let mut robot = duel.start().robots[0];
    /// robot.power = 2; // below the capacitor's 5: a capacitor hit owes no extra malfunction
    /// let law = duel.malfunctions(0, &robot, 1)?;
    /// // Result 4 of the d10 costs a point of Articulation.
    /// let p: f64 = law.iter().filter(|(s, _)| s.articulation == 4).map(|(_, p)| p).sum();
    /// assert!((p - 0.1).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn malfunctions(
        &self,
        who: usize,
        standing: &Standing,
        owed: u32,
    ) -> Result<Dist<Standing>, Error> {
        self.malfunction_law(who.min(1), *standing, owed)
    }

    /// The exact law of `k` malfunctions on robot `d`'s standing `r`.
    fn malfunction_law(&self, d: usize, r: Standing, k: u32) -> Result<Dist<Standing>, Error> {
        if self.model.all_malfunctions {
            return malfunction_law(&r, k, self.memory[d], &self.table);
        }
        let laws = &self.losses[d];
        let loss = laws
            .get(k as usize)
            .or(laws.last())
            .cloned()
            .unwrap_or_else(|| Dist::certain(0));
        Ok(loss.map(|&l| {
            let mut t = r;
            t.durability = t.durability.saturating_sub(l);
            t
        }))
    }

    /// The end of the turn from `before`, with the standings of `next`: the parry paid, the
    /// parry's spare successes turned into Action Points (up to Processor + Self Awareness,
    /// L2160, L2234), the turn ended and Pay for Turn open (L2131–2143). A shutdown ends the
    /// duel at once.
    fn settle(
        &self,
        before: &DuelState,
        plan: &Plan,
        next: DuelState,
        outcome: Option<&AttackOutcome>,
    ) -> Result<DuelState, Error> {
        let a = usize::from(before.top.min(1));
        let d = 1 - a;
        let mut next = next;
        if next.robots[d].shut_down {
            next.robots[d] = Standing::down();
            return Ok(next);
        }
        let cap = |i: usize| u32::from(next.robots[i].processor) + self.fighters[i].self_awareness;
        let participants = (0..2)
            .map(|i| Participant::new("", u32::from(next.robots[i].action_points), cap(i)))
            .collect();
        let mut conflict = Conflict::new(participants, TurnOrder::from_list(vec![a, d]))?;
        if plan.parried {
            conflict.oppose(d, 1)?;
        }
        let spare = outcome.map_or(0, AttackOutcome::spare_left);
        if plan.parried && spare > 0 {
            let p = conflict.participant(d)?;
            let room = p.max_action_points.saturating_sub(p.action_points);
            let points = spare.min(room);
            if points > 0 {
                let mut ledger = Ledger::augmenting(spare);
                conflict.regain(d, &mut ledger, points)?;
            }
        }
        let turn = outcome.map_or(TurnOutcome::NoRight, |o| o.turn_outcome(d));
        conflict.end_turn(turn);
        for i in 0..2 {
            next.robots[i].action_points = byte(conflict.participant(i)?.action_points);
        }
        let first_right = match turn {
            TurnOutcome::ActorWon => Some(a as u8),
            TurnOutcome::DefenderWon(w) => Some(w as u8),
            TurnOutcome::NoRight => None,
        };
        let moment = Moment::PayForTurn {
            state: next,
            actor: a as u8,
            first_right,
        };
        let wanting: Vec<usize> = [a, d]
            .into_iter()
            .filter(|&w| {
                next.robots[w].action_points > 0
                    && self
                        .policy
                        .choose(&moment, w, &[Choice::PayForTurn, Choice::Pass])
                        == Choice::PayForTurn
            })
            .collect();
        conflict.pay_for_turn(&wanting)?;
        for i in 0..2 {
            next.robots[i].action_points = byte(conflict.participant(i)?.action_points);
        }
        next.top = conflict.order().top().unwrap_or(d) as u8;
        Ok(next)
    }

    /// The exact law of one turn from an engaged `state`.
    fn turn_law(&self, s: &DuelState) -> Result<Dist<DuelState>, Error> {
        let a = usize::from(s.top.min(1));
        let d = 1 - a;
        let plan = self.plan(s)?;
        let Some(attack) = &plan.attack else {
            return Ok(Dist::certain(self.settle(s, &plan, plan.state, None)?));
        };
        // Only the net, the parry's spare successes, the buy-backs and the damage matter to
        // the turn: merge the outcomes that agree on them.
        let law = attack.exchange_distribution()?.map(|o| o.canonical());
        law.and_then(|o| {
            let mut st = Self::after_exchange(&plan, a, o);
            if !o.hit() {
                return Ok(Dist::certain(self.settle(s, &plan, st, Some(o))?));
            }
            let hit = self.hit(attack, &mut st, a, o)?;
            let damage = hit.save.distribution()?;
            let knockdown: Dist<Option<SaveOutcome>> = match &hit.knockdown {
                Some(k) => k.distribution()?.map(|&x| Some(x)),
                None => Dist::certain(None),
            };
            // The defender's standings first, merged, then the end of the turn from each.
            let harm = damage
                .joint(&knockdown)
                .and_then(|(dm, kd)| self.harm_law(&st, d, dm, *kd))?;
            harm.and_then(|r| {
                let mut n = st;
                n.robots[d] = *r;
                Ok::<_, Error>(Dist::certain(self.settle(s, &plan, n, Some(o))?))
            })
        })
    }

    /// One turn played with the caller's RNG: the same steps, rolled; told onto `told` when
    /// it is given (nothing is formatted otherwise), with the same draws either way.
    fn play_turn<R: Rng + ?Sized>(
        &self,
        s: &DuelState,
        rng: &mut R,
        mut told: Option<&mut Vec<String>>,
    ) -> DuelState {
        let a = usize::from(s.top.min(1));
        let d = 1 - a;
        let Ok(plan) = self.plan(s) else {
            return *s;
        };
        let name = |i: usize| &self.fighters[i].name;
        let Some(attack) = &plan.attack else {
            let next = self.settle(s, &plan, plan.state, None).unwrap_or(*s);
            if let Some(t) = told {
                t.push(format!(
                    "{} cannot attack (no dice or no Articulation left)",
                    name(a)
                ));
                t.push(self.tell_end_of_turn(s, &next));
            }
            return next;
        };
        let o = attack.roll_exchange(rng);
        if let Some(t) = told.as_deref_mut() {
            t.push(self.tell_exchange(s, &plan, attack, &o));
        }
        let mut st = Self::after_exchange(&plan, a, &o);
        if !o.hit() {
            let next = self.settle(s, &plan, st, Some(&o)).unwrap_or(*s);
            if let Some(t) = told {
                t.push(self.tell_end_of_turn(s, &next));
            }
            return next;
        }
        let Ok(hit) = self.hit(attack, &mut st, a, &o) else {
            return *s;
        };
        let dm = hit.save.roll(rng);
        let kd = hit.knockdown.as_ref().map(|k| k.roll(rng));
        let before = st.robots[d];
        st.robots[d] = self.harm_rolled(&st, d, &dm, kd, rng);
        let next = self.settle(s, &plan, st, Some(&o)).unwrap_or(*s);
        if let Some(t) = told {
            let spent = plan.state.robots[d].power.saturating_sub(before.power);
            let exerted = if spent > 0 {
                format!(" ({spent} Power spent exerting)")
            } else {
                String::new()
            };
            t.push(format!(
                "{}'s Durability Save at TN {}{exerted}: {dm}",
                name(d),
                hit.save.save().tn()
            ));
            if let (Some(k), Some(out)) = (&hit.knockdown, kd) {
                t.push(format!(
                    "{}'s knockdown Locomotion Save at TN {}: {out}",
                    name(d),
                    k.tn()
                ));
            }
            let after = st.robots[d];
            if after.shut_down {
                t.push(format!("{} is shut down", name(d)));
            } else {
                let mut line = format!("{} stands at Durability {}", name(d), after.durability);
                if after.durability != before.durability {
                    line.push_str(&format!(" (was {})", before.durability));
                }
                if after.penalty > 0 {
                    line.push_str(&format!(", −{} dice until bought off", after.penalty));
                }
                if dm.shutdown {
                    line.push_str(" (the shutdown overridden)");
                }
                if after.locomotion < before.locomotion {
                    line.push_str(&format!(", Locomotion {}", after.locomotion));
                }
                t.push(line);
            }
            t.push(self.tell_end_of_turn(s, &next));
        }
        next
    }

    /// The attack and parry in words: who attacks whom with how many dice, the parry or not,
    /// the successes and what they did.
    fn tell_exchange(
        &self,
        s: &DuelState,
        plan: &Plan,
        attack: &Attack,
        o: &AttackOutcome,
    ) -> String {
        let a = usize::from(s.top.min(1));
        let d = 1 - a;
        let (fa, fd) = (&self.fighters[a].name, &self.fighters[d].name);
        let exerted = |i: usize| {
            if plan.state.robots[i].power < s.robots[i].power {
                ", exerting"
            } else {
                ""
            }
        };
        let parry = if plan.parried {
            format!("{fd} parries (1 AP{})", exerted(d))
        } else {
            format!("{fd} does not parry")
        };
        format!(
            "{fa} attacks {fd} with {} dice at TN {}{}; {parry}: {o}",
            attack.dice,
            attack.articulation,
            exerted(a)
        )
    }

    /// The end of a turn in words: the Action Points left, who Paid for Turn, who acts next.
    fn tell_end_of_turn(&self, before: &DuelState, next: &DuelState) -> String {
        let a = usize::from(before.top.min(1));
        let name = |i: usize| &self.fighters[i].name;
        if next.robots.iter().any(|r| r.shut_down) {
            return format!(
                "{} wins",
                name(if next.robots[0].shut_down { 1 } else { 0 })
            );
        }
        let top = usize::from(next.top.min(1));
        let paid = if top == a {
            format!("{} pays for another turn; ", name(a))
        } else {
            String::new()
        };
        format!(
            "{paid}{} to act ({} {} AP, {} {} AP)",
            name(top),
            name(0),
            next.robots[0].action_points,
            name(1),
            next.robots[1].action_points
        )
    }

    /// The exact law of the Turn Order and Base Action Points (L295–299, L2091).
    fn setup_law(&self, state: &DuelState) -> Result<Dist<DuelState>, Error> {
        let r0 = self.fighters[0].ranking(&self.rules);
        let r1 = self.fighters[1].ranking(&self.rules);
        // A tie is rolled off on equal dice, again until settled: each robot 1 in 2.
        let top = match r0.compare(&r1) {
            std::cmp::Ordering::Greater => Dist::certain(0u8),
            std::cmp::Ordering::Less => Dist::certain(1u8),
            std::cmp::Ordering::Equal => Dist::from_pairs([(0u8, 0.5), (1u8, 0.5)])?,
        };
        let ap0 = self.fighters[0]
            .base_action_points(&self.rules)?
            .distribution()?;
        let ap1 = self.fighters[1]
            .base_action_points(&self.rules)?
            .distribution()?;
        let s = *state;
        Ok(top.joint(&ap0.joint(&ap1)).map(|&(t, (x, y))| {
            let mut n = s;
            n.engaged = true;
            n.top = t;
            n.robots[0].action_points = byte(x);
            n.robots[1].action_points = byte(y);
            n
        }))
    }

    fn play_setup<R: Rng + ?Sized>(
        &self,
        state: &DuelState,
        rng: &mut R,
        told: Option<&mut Vec<String>>,
    ) -> DuelState {
        let rankings = [
            self.fighters[0].ranking(&self.rules),
            self.fighters[1].ranking(&self.rules),
        ];
        let top = TurnOrder::roll_initial(&rankings, ConflictKind::Combat, &self.rules, rng)
            .ok()
            .and_then(|o| o.top())
            .unwrap_or(0);
        let mut n = *state;
        n.engaged = true;
        n.top = top as u8;
        for i in 0..2 {
            n.robots[i].action_points = self.fighters[i]
                .base_action_points(&self.rules)
                .map_or(0, |b| byte(b.roll(rng)));
        }
        if let Some(t) = told {
            let name = |i: usize| &self.fighters[i].name;
            t.push(format!(
                "Turn Order: {} at the top; Base Action Points: {} {}, {} {}",
                name(top),
                name(0),
                n.robots[0].action_points,
                name(1),
                n.robots[1].action_points
            ));
        }
        n
    }
}

impl<P: DuelPolicy> Encounter for Duel<P> {
    type State = DuelState;
    type End = Victory;

    fn start(&self) -> DuelState {
        DuelState {
            engaged: false,
            top: 0,
            robots: [
                Standing::new(&self.fighters[0]),
                Standing::new(&self.fighters[1]),
            ],
        }
    }

    fn end(&self, state: &DuelState) -> Option<Victory> {
        match (state.robots[0].shut_down, state.robots[1].shut_down) {
            (true, _) => Some(Victory(1)),
            (_, true) => Some(Victory(0)),
            _ => None,
        }
    }

    /// One turn; before the first, the Turn Order and Base Action Points are rolled too
    /// (so the first round is the setup and the first attack). From the start, a duel whose
    /// [`Duel::state_bound`] is beyond its budget ([`Duel::with_state_budget`]) is refused
    /// ([`dice_core::Error::TooComplex`]) before any work, as is every malfunction between
    /// robots with External Slots ([`dice_core::Error::Unsupported`]).
    fn round_law(&self, state: &DuelState) -> Result<Dist<DuelState>, dice_core::Error> {
        let law = if state.engaged {
            self.turn_law(state)
        } else {
            self.check_exact()?;
            self.setup_law(state)
                .and_then(|setup| setup.and_then(|s| self.turn_law(s)))
        };
        law.map_err(core_error)
    }

    fn play_round<R: Rng + ?Sized>(&self, state: &DuelState, rng: &mut R) -> DuelState {
        if state.engaged {
            self.play_turn(state, rng, None)
        } else {
            let s = self.play_setup(state, rng, None);
            self.play_turn(&s, rng, None)
        }
    }

    /// The same round, told: the Turn Order and Base Action Points when they are rolled; the
    /// attack (dice, TN, the parry or not, the successes and whether it hit); on a hit the
    /// Durability Save and any knockdown save, what they left of the defender (shut down, or
    /// its Durability and Action Points); who acts next, and who Paid for Turn. The dice are
    /// drawn as [`Encounter::play_round`] draws them.
    fn play_round_told<R: Rng + ?Sized>(
        &self,
        state: &DuelState,
        rng: &mut R,
        told: &mut Vec<String>,
    ) -> DuelState {
        if state.engaged {
            self.play_turn(state, rng, Some(told))
        } else {
            let s = self.play_setup(state, rng, Some(told));
            self.play_turn(&s, rng, Some(told))
        }
    }

    /// [`Duel::state_bound`], so that the engine refuses at once a duel bounded beyond its
    /// limit; `None` when the duel's own budget ([`Duel::with_state_budget`]) was raised to
    /// admit a bound above the engine's default limit: the bound is loose there, and the
    /// engine tries, its limits stopping it as the states are listed.
    fn state_bound(&self) -> Option<u64> {
        let bound = Duel::state_bound(self);
        let default = EncounterLimits::default().max_states as u64;
        (bound <= default || bound > self.budget).then_some(bound)
    }

    /// The two robots' names.
    fn health_names(&self) -> Vec<String> {
        self.fighters.iter().map(|f| f.name.clone()).collect()
    }

    /// Each robot's Durability (L2222), or −1 once it is shut down (a robot can stand at
    /// Durability 0).
    fn health(&self, state: &DuelState) -> Vec<i64> {
        state
            .robots
            .iter()
            .map(|r| {
                if r.shut_down {
                    -1
                } else {
                    i64::from(r.durability)
                }
            })
            .collect()
    }

    /// −1: a shut-down robot; one at Durability 0 still runs.
    fn down_at(&self) -> i64 {
        -1
    }
}
