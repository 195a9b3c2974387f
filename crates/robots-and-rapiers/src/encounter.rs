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
//!   after the turn either may Pay for Turn (L2131–2143). Its state is [`DuelState`].
//! - [`DuelPolicy`] / [`Rulebook`]: the choices a robot makes (parry or not, Pay for Turn or
//!   not), and the default that plays as the rulebook advises.
//! - [`Scene`]: the duel described in the game's terms (serde, `deny_unknown_fields`).
//!
//! ## What the duel abstracts
//!
//! The state holds what changes from turn to turn and decides what happens next: each
//! robot's current Durability (the TN of its next Durability Save), its Action Points,
//! whether it is shut down, and whose turn it is. Malfunctions are rolled on the
//! Malfunction Table and applied by [`Chassis::suffer`]; the duel keeps the **Durability**
//! points they take (malfunction 2, L1850) and EMP Durability losses (L2270). Malfunctions
//! to the other Attributes (Articulation, Locomotion, Processor, Force, Memory), the
//! sub-systems, Power and the slots are counted by [`Attack`] but do **not** change the
//! duel, and the follow-up malfunctions of a capacitor hit or a damaged slot (L1862, L1858)
//! are not rolled: tracking four attributes per robot makes the exact law of a duel run to
//! millions of states, and those follow-ups depend on Power and slots the duel does not
//! track. Knockdown (L1886–1890) is not rolled (a knocked-down robot has no rule of its own
//! in the duel), nor are Inspiration, Exertion, off-hand weapons or the Shut Down Override.
//! The exact law and the played duel ([`Encounter::play_round`]) follow the same rules, so
//! they agree.
//!
//! ```
//! use dice_core::{EncounterLimits, end_law};
//! use dice_robots_and_rapiers::{Duel, Fighter, MeleeWeapon, Rules, Scene, SceneRobot};
//!
//! let robot = |name: &str| SceneRobot::new(name, 3, 5, [5, 3, 6, 5, 5, 4], MeleeWeapon::SonicRapier);
//! let scene = Scene { title: None, robots: vec![robot("Ann"), robot("Bea")] };
//! let duel = Duel::from_scene(&scene, Rules::default())?;
//! let law = end_law(&duel, EncounterLimits::default())?;
//! assert!((law.ends.total() - 1.0).abs() < 1e-9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use dice_core::{Dist, Encounter, Exact, Policy, Roll};
use rand::Rng;

use crate::combat::{Armor, DamageProcedure, MeleeWeapon};
use crate::conflict::{
    BaseActionPoints, Conflict, ConflictKind, Lighting, Participant, Ranking, Senses, TurnOrder,
    TurnOutcome, combat_ap_tn,
};
use crate::damage::{Chassis, DamageKind, DamageOutcome, DurabilitySave, MalfunctionTable};
use crate::error::Error;
use crate::ledger::Ledger;
use crate::rules::Rules;
use crate::test::{Dice, MAX_POOL, Opposition, Test};

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
}

impl Fighter {
    /// A robot with the given Fencing dice, Primary Attributes (Force, Durability,
    /// Articulation, Locomotion, Processor, Memory) and weapon; Senses 3/3, Power 5, Size 6,
    /// no Self Awareness, Inspiration or armour (change the fields after).
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
        };
        f.check()?;
        Ok(f)
    }

    fn check(&self) -> Result<(), Error> {
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
    fn articulation(&self) -> i32 {
        self.chassis.attributes[2]
    }
    fn locomotion(&self) -> i32 {
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

/// What one Basic Melee Attack did: the attacker's successes, what the parry had left after
/// its own Difficulty (`None` unparried), and the Durability Save's damage on a hit.
///
/// ```
/// use dice_robots_and_rapiers::AttackOutcome;
/// let o = AttackOutcome { successes: 3, parry_left: Some(4), difficulty: 0, damage: None };
/// assert_eq!((o.net(), o.parry_spare()), (-1, 1));
/// assert_eq!(o.to_string(), "3 successes vs parry 4: parried");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AttackOutcome {
    /// The attacker's successes.
    pub successes: u32,
    /// The parry's successes left after its weapon's Difficulty; `None` when unparried.
    pub parry_left: Option<u32>,
    /// The attacker's weapon Difficulty.
    pub difficulty: u32,
    /// The Durability Save's damage, on a hit.
    pub damage: Option<DamageOutcome>,
}

impl AttackOutcome {
    /// Net successes: the attacker's less the parry's and the Difficulty (L203–206).
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert_eq!(AttackOutcome { successes: 5, parry_left: None, difficulty: 1, damage: None }.net(), 4);
    /// ```
    pub fn net(&self) -> i64 {
        i64::from(self.successes)
            - i64::from(self.parry_left.unwrap_or(0))
            - i64::from(self.difficulty)
    }
    /// Whether it hit (net 1 or more, L1420).
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert!(!AttackOutcome { successes: 1, parry_left: Some(1), difficulty: 0, damage: None }.hit());
    /// ```
    pub fn hit(&self) -> bool {
        self.net() >= 1
    }
    /// The parry's successes beyond the attacker's: what the defender spends (an
    /// Action Point back per success, L2234). The attacker's Difficulty cancels the
    /// attacker's successes but gives the defender nothing (decision).
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert_eq!(AttackOutcome { successes: 1, parry_left: Some(4), difficulty: 0, damage: None }.parry_spare(), 3);
    /// ```
    pub fn parry_spare(&self) -> u32 {
        self.parry_left.unwrap_or(0).saturating_sub(self.successes)
    }
    /// Who gets the first right to Pay for Turn (L2133–2137): the attacker when it won, the
    /// defender when its parry outdid the attack, else no one (ruling A42).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{AttackOutcome, TurnOutcome};
    /// let o = AttackOutcome { successes: 2, parry_left: Some(4), difficulty: 0, damage: None };
    /// assert_eq!(o.turn_outcome(1), TurnOutcome::DefenderWon(1));
    /// ```
    pub fn turn_outcome(&self, defender: usize) -> TurnOutcome {
        if self.hit() {
            TurnOutcome::ActorWon
        } else if self.parry_spare() > 0 {
            TurnOutcome::DefenderWon(defender)
        } else {
            TurnOutcome::NoRight
        }
    }
    /// The same outcome as far as a duel's turn goes (the net, the parry's spare
    /// successes, who won, the damage), with the successes moved so that equal turns compare
    /// equal.
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// let a = AttackOutcome { successes: 5, parry_left: Some(3), difficulty: 0, damage: None };
    /// let b = AttackOutcome { successes: 4, parry_left: Some(2), difficulty: 0, damage: None };
    /// assert_eq!(a.canonical(), b.canonical());
    /// ```
    pub fn canonical(&self) -> AttackOutcome {
        let (successes, parry_left) = if self.hit() {
            (
                (self.net() + i64::from(self.difficulty)) as u32,
                self.parry_left.map(|_| 0),
            )
        } else {
            (0, self.parry_left.map(|_| self.parry_spare()))
        };
        AttackOutcome {
            successes,
            parry_left,
            difficulty: self.difficulty,
            damage: self.damage,
        }
    }

    /// Whether the target is shut down.
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert!(!AttackOutcome { successes: 0, parry_left: None, difficulty: 0, damage: None }.shutdown());
    /// ```
    pub fn shutdown(&self) -> bool {
        self.damage.is_some_and(|d| d.shutdown)
    }
    /// Malfunction rolls owed.
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert_eq!(AttackOutcome { successes: 0, parry_left: None, difficulty: 0, damage: None }.malfunctions(), 0);
    /// ```
    pub fn malfunctions(&self) -> u32 {
        self.damage.map_or(0, |d| d.malfunctions)
    }
}

impl fmt::Display for AttackOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} successes", self.successes)?;
        if let Some(p) = self.parry_left {
            write!(f, " vs parry {p}")?;
        }
        match (self.hit(), self.damage) {
            (true, Some(d)) => write!(f, ": hit, {d}"),
            (true, None) => f.write_str(": hit"),
            (false, _) if self.parry_spare() > 0 => f.write_str(": parried"),
            (false, _) => f.write_str(": no hit"),
        }
    }
}

/// One Basic Melee Attack (Fencing vs. Articulation, L345), parried or not (Fencing vs.
/// Locomotion, L346; each weapon's Difficulty on its own roll, L2366): the first net
/// success hits, the rest lower the Durability Save's TN (L1420, L2252), with the weapon's
/// Damage and the target's armour (L2258–2260); the save's failed dice give malfunctions
/// (or EMP Durability loss), Total Failure shuts the robot down (L1840, L2262).
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
/// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
/// let d = Fighter::new("D", Dice::Program { program: 4, core: 4 }, [4, 5, 5, 6, 6, 5], MeleeWeapon::SonicRapier)?;
/// let a = Attack::between(&j, &d, d.durability(), true, Rules::default())?;
/// let law = a.distribution()?;
/// assert!((law.total() - 1.0).abs() < 1e-12);
/// assert!(a.shutdown_chance()? > 0.0 && a.expected_malfunctions()? > 0.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    /// The attacker's dice.
    pub dice: u32,
    /// The attacker's Articulation.
    pub articulation: i32,
    /// The attacker's weapon.
    pub weapon: MeleeWeapon,
    /// The parry, if any: the defender's dice, Locomotion and weapon Difficulty.
    pub parry: Option<Opposition>,
    /// The target's current Durability.
    pub durability: i32,
    /// The target's armour bonus.
    pub armor_bonus: i32,
    /// The rulings.
    pub rules: Rules,
}

impl Attack {
    /// `attacker`'s attack on `defender`, whose Durability is now `durability`, parried or
    /// not.
    ///
    /// # Errors
    /// As [`Test::new`] and [`Opposition::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
    /// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// assert!(Attack::between(&j, &j, 6, false, Rules::default())?.parry.is_none());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn between(
        attacker: &Fighter,
        defender: &Fighter,
        durability: i32,
        parried: bool,
        rules: Rules,
    ) -> Result<Attack, Error> {
        let parry = if parried {
            Some(
                Opposition::new(defender.fencing_dice(), defender.locomotion())?
                    .with_difficulty(defender.weapon.difficulty())?,
            )
        } else {
            None
        };
        let a = Attack {
            dice: attacker.fencing_dice(),
            articulation: attacker.articulation(),
            weapon: attacker.weapon,
            parry,
            durability,
            armor_bonus: defender.armor.map_or(0, Armor::bonus),
            rules,
        };
        a.test()?;
        Ok(a)
    }

    /// The attack as a Test (with its parry).
    ///
    /// # Errors
    /// As [`Test::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
    /// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(Attack::between(&j, &j, 6, true, Rules::default())?.test()?.dice(), 8);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn test(&self) -> Result<Test, Error> {
        let t =
            Test::new(self.dice, self.articulation)?.with_difficulty(self.weapon.difficulty())?;
        Ok(match &self.parry {
            Some(p) => t.opposed_by(*p),
            None => t,
        })
    }

    /// The Durability Save a hit with `extra` successes calls for (L2248–2262).
    ///
    /// # Errors
    /// As [`DamageProcedure::durability_save`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
    /// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// // Durability 6, 2 extra successes, a Sonic Rapier (Damage 0): TN 4.
    /// assert_eq!(Attack::between(&j, &j, 6, false, Rules::default())?.save(2)?.save().tn(), 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn save(&self, extra: u32) -> Result<DurabilitySave, Error> {
        let kind = self.weapon.damage_kind();
        let blow = DamageProcedure {
            weapon_damage: self.weapon.damage(),
            armor_bonus: self.armor_bonus,
            emp: matches!(kind, DamageKind::Emp { .. }),
            ..DamageProcedure::new(self.durability, extra)
        };
        blow.durability_save(kind, &self.rules)
    }

    /// P(the target is shut down).
    ///
    /// # Errors
    /// As [`Exact::distribution`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
    /// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// assert!(Attack::between(&j, &j, 6, false, Rules::default())?.shutdown_chance()? < 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown_chance(&self) -> Result<f64, dice_core::Error> {
        Ok(self.distribution()?.probability_where(|o| o.shutdown()))
    }

    /// The expected number of malfunction rolls owed.
    ///
    /// # Errors
    /// As [`Exact::distribution`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
    /// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// assert!(Attack::between(&j, &j, 6, false, Rules::default())?.expected_malfunctions()? > 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn expected_malfunctions(&self) -> Result<f64, dice_core::Error> {
        Ok(self
            .distribution()?
            .iter()
            .map(|(o, p)| p * f64::from(o.malfunctions()))
            .sum())
    }

    fn outcome_law(
        &self,
        successes: u32,
        parry_left: Option<u32>,
    ) -> Result<Dist<AttackOutcome>, dice_core::Error> {
        let mut o = AttackOutcome {
            successes,
            parry_left,
            difficulty: self.weapon.difficulty(),
            damage: None,
        };
        if !o.hit() {
            return Ok(Dist::certain(o));
        }
        let extra = (o.net() - 1) as u32;
        let save = self.save(extra).map_err(core_error)?;
        Ok(save.distribution()?.map(|d| {
            o.damage = Some(*d);
            o
        }))
    }
}

impl Roll for Attack {
    type Outcome = AttackOutcome;
    /// Rolls the Test (and parry) with [`Test::roll_test`], then on a hit the Durability
    /// Save with [`DurabilitySave::roll_save`].
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> AttackOutcome {
        let Ok(test) = self.test() else {
            return AttackOutcome {
                successes: 0,
                parry_left: None,
                difficulty: 0,
                damage: None,
            };
        };
        let roll = test.roll_test(rng);
        let mut o = AttackOutcome {
            successes: roll.successes,
            parry_left: roll.opposing.as_ref().map(|p| p.left()),
            difficulty: self.weapon.difficulty(),
            damage: None,
        };
        if o.hit() {
            // Let chains need Rust 1.88; the crate's MSRV is 1.85.
            if let Ok(save) = self.save((o.net() - 1) as u32) {
                o.damage = Some(save.roll_save(rng).damage);
            }
        }
        o
    }
}

impl Exact for Attack {
    /// The attacker's successes and the parry's (after its Difficulty), independent
    /// binomials joined; on a hit, the Durability Save's law at the TN the extra successes
    /// give.
    fn distribution(&self) -> Result<Dist<AttackOutcome>, dice_core::Error> {
        let mine = Test::new(self.dice, self.articulation)
            .map_err(core_error)?
            .distribution()?
            .map(|&s| s.max(0) as u32);
        let theirs: Dist<Option<u32>> = match &self.parry {
            Some(p) => p
                .successes_distribution()
                .map_err(core_error)?
                .map(|&s| Some(p.successes_left(s))),
            None => Dist::certain(None),
        };
        mine.joint(&theirs)
            .and_then(|&(s, left)| self.outcome_law(s, left))
    }
}

impl fmt::Display for Attack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}d10 Fencing vs Articulation {} with a {}",
            self.dice, self.articulation, self.weapon
        )?;
        if let Some(p) = &self.parry {
            write!(f, ", parried by {p}")?;
        }
        write!(f, ", against Durability {}", self.durability)
    }
}

/// The Durability one malfunction costs `fighter`, as [`Chassis::suffer`] applies it to its
/// chassis (follow-up malfunctions are not rolled: see the module documentation).
fn durability_cost(fighter: &Fighter, m: crate::damage::Malfunction) -> u8 {
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

/// One robot's standing in a duel: what changes from turn to turn.
///
/// ```
/// use dice_robots_and_rapiers::Standing;
/// let s = Standing { durability: 6, action_points: 3, shut_down: false };
/// assert_eq!(s.to_string(), "Durability 6, 3 AP");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Standing {
    /// Current Durability, at least 0 (at 0 every Durability Save is a Total Failure, L2262).
    pub durability: u8,
    /// Action Points left.
    pub action_points: u8,
    /// Shut down (L1840).
    pub shut_down: bool,
}

impl fmt::Display for Standing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.shut_down {
            return f.write_str("shut down");
        }
        write!(
            f,
            "Durability {}, {} AP",
            self.durability, self.action_points
        )
    }
}

/// The state of a duel: whether the Turn Order and Base Action Points are rolled yet, whose
/// turn it is (the top of the Turn Order; the other robot is below), and each robot's
/// [`Standing`]. No round counter.
///
/// ```
/// use dice_robots_and_rapiers::{DuelState, Standing};
/// let s = DuelState { engaged: true, top: 1, robots: [Standing { durability: 6, action_points: 2, shut_down: false }; 2] };
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
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Choice::Parry => "parry",
            Choice::NoParry => "no parry",
            Choice::PayForTurn => "pay for turn",
            Choice::Pass => "pass",
        })
    }
}

/// When a robot chooses: the state, and for Pay for Turn who holds the first right (the
/// robot that just acted has already moved to the bottom of the Turn Order).
///
/// ```
/// use dice_robots_and_rapiers::{DuelState, Moment, Standing};
/// let state = DuelState { engaged: true, top: 0, robots: [Standing { durability: 6, action_points: 2, shut_down: false }; 2] };
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
}

/// The tactics of the robots in a duel: a [`Policy`] over [`Moment`]s and [`Choice`]s.
pub trait DuelPolicy: Policy<Moment, Choice> {}
impl<T: Policy<Moment, Choice>> DuelPolicy for T {}

/// The default tactics, as the rulebook advises:
///
/// - **parry whenever there is an Action Point to spend**: "If a robot does not do this,
///   then the attacker's Test is unopposed and likely to succeed by a large margin. One
///   strategy in combat is to run one's opponent out of Action Points so they cannot defend
///   and become easy targets" (L2113–2115);
/// - every extra success of a hit goes to damage, every spare success of a parry buys
///   back Action Points: "1 additional success will replace the 1 spent to make the roll.
///   A second additional success will provide the AP needed to pay for the right …"
///   (L2234);
/// - **Pay for Turn with the first right** — "as long as you're successful you can keep
///   paying Action Points to take several actions in a row" (L2135) — while it leaves an
///   Action Point to parry with (Charles "elects to pass as he is running low on Action
///   Points", L2143); a robot whose turn comes next anyway does not pay for it.
///
/// ```
/// use dice_core::Policy;
/// use dice_robots_and_rapiers::{Choice, DuelState, Moment, Rulebook, Standing};
/// let state = DuelState { engaged: true, top: 1, robots: [Standing { durability: 6, action_points: 2, shut_down: false }; 2] };
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
        };
        if open.contains(&want) { want } else { open[0] }
    }
}

/// A duel in the game's terms: two robots (serde, `deny_unknown_fields`).
///
/// ```
/// use dice_robots_and_rapiers::{MeleeWeapon, Scene, SceneRobot};
/// let scene = Scene { title: Some("A duel".into()), robots: vec![
///     SceneRobot::new("Ann", 3, 5, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier),
///     SceneRobot::new("Bea", 4, 4, [4, 5, 5, 6, 6, 5], MeleeWeapon::SonicRapier),
/// ]};
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
    /// The weapon, snake_case (`sonic_rapier`, `mono_sword`, …).
    pub weapon: MeleeWeapon,
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

impl SceneRobot {
    /// A stat block with Fencing, Core Physical, the six Primary Attributes (Force,
    /// Durability, Articulation, Locomotion, Processor, Memory) and a weapon; Senses 3/3,
    /// Size 6, Power 5, no Self Awareness, Inspiration or armour.
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
            self_awareness: 0,
            inspiration: 0,
            size: 6,
            power: 5,
            weapon,
            armor: None,
        }
    }

    /// The robot in play.
    ///
    /// # Errors
    /// As [`Fighter::new`].
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
        f.chassis = Chassis::new(
            f.chassis.attributes,
            [self.visual, self.audio, 3, 3],
            self.power,
            Vec::new(),
        );
        f.senses = Senses::new(self.visual, self.audio);
        f.self_awareness = self.self_awareness;
        f.inspiration = self.inspiration;
        f.size = self.size;
        f.armor = self.armor;
        f.check()?;
        Ok(f)
    }
}

/// A duel between two robots under the extended conflict rules, with the robots' tactics
/// `P`.
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
    policy: P,
    title: String,
    /// The Durability `k` malfunctions cost each robot (index `k`), from the table and
    /// [`Chassis::suffer`], computed once.
    losses: [Vec<Dist<u8>>; 2],
}

/// The most malfunctions whose Durability law is computed ahead (a Mono Great Sword's Total
/// Failure owes 9, which shuts the robot down anyway).
const LOSS_LAWS: u32 = 12;

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

    /// The duel a scene describes.
    ///
    /// # Errors
    /// [`Error::NotAllowed`] unless the scene has exactly two robots; as
    /// [`SceneRobot::fighter`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Duel, Rules, Scene};
    /// let empty = Scene { title: None, robots: vec![] };
    /// assert!(Duel::from_scene(&empty, Rules::default()).is_err());
    /// ```
    pub fn from_scene(scene: &Scene, rules: Rules) -> Result<Self, Error> {
        let [a, b] = scene.robots.as_slice() else {
            return Err(Error::NotAllowed("a duel is fought by exactly two robots"));
        };
        let mut duel = Duel::new([a.fighter()?, b.fighter()?], rules)?;
        if let Some(t) = &scene.title {
            duel.title = t.clone();
        }
        Ok(duel)
    }
}

impl<P: DuelPolicy> Duel<P> {
    /// A duel with the caller's tactics.
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
        Ok(Duel {
            fighters,
            rules,
            policy,
            title,
            losses,
        })
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

    /// A state in words, with the robots' names.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_robots_and_rapiers::{Dice, Duel, Fighter, MeleeWeapon, Rules};
    /// let f = |n| Fighter::new(n, Dice::Program { program: 3, core: 5 }, [5; 6], MeleeWeapon::SonicRapier);
    /// let duel = Duel::new([f("A")?, f("B")?], Rules::default())?;
    /// assert_eq!(duel.describe(&duel.start()), "before the Turn Order; A: Durability 5, 0 AP; B: Durability 5, 0 AP");
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
        }
        s
    }

    /// The attack `attacker` makes from `state`, parried or not.
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
        let d = 1 - attacker;
        Attack::between(
            &self.fighters[attacker],
            &self.fighters[d],
            i32::from(state.robots[d].durability),
            parried,
            self.rules,
        )
    }

    /// Whether `who` parries an attack from `state`.
    fn parries(&self, state: &DuelState, who: usize) -> bool {
        if state.robots[who].action_points == 0 {
            return false;
        }
        let m = Moment::Parry {
            state: *state,
            attacker: (1 - who) as u8,
        };
        self.policy
            .choose(&m, who, &[Choice::Parry, Choice::NoParry])
            == Choice::Parry
    }

    /// The state after the turn from `state`: the attack's `outcome` with `loss`
    /// Durability points from malfunctions, through the [`Conflict`] rules (the parry paid,
    /// spare parry successes regained, the turn ended, Pay for Turn).
    fn after_turn(
        &self,
        state: &DuelState,
        parried: bool,
        outcome: &AttackOutcome,
        loss: u8,
    ) -> Result<DuelState, Error> {
        let a = usize::from(state.top);
        let d = 1 - a;
        let participants = (0..2)
            .map(|i| {
                Participant::new(
                    "",
                    u32::from(state.robots[i].action_points),
                    self.fighters[i].max_action_points(),
                )
            })
            .collect();
        let mut conflict = Conflict::new(participants, TurnOrder::from_list(vec![a, d]))?;
        if parried {
            conflict.oppose(d, 1)?;
        }
        let mut next = *state;
        if let Some(damage) = outcome.damage.filter(|_| outcome.hit()) {
            let r = &mut next.robots[d];
            let emp = damage.durability_loss.min(255) as u8;
            r.durability = r.durability.saturating_sub(loss).saturating_sub(emp);
            r.shut_down = damage.shutdown;
            if r.shut_down {
                // Its Durability no longer matters: one final state per shutdown.
                r.durability = 0;
            }
        }
        let spare = outcome.parry_spare();
        if parried && spare > 0 {
            let p = conflict.participant(d)?;
            let room = p.max_action_points.saturating_sub(p.action_points);
            let points = spare.min(room);
            if points > 0 {
                let mut ledger = Ledger::augmenting(spare);
                conflict.regain(d, &mut ledger, points)?;
            }
        }
        let turn = outcome.turn_outcome(d);
        conflict.end_turn(turn);
        if next.robots[d].shut_down {
            for i in 0..2 {
                next.robots[i].action_points =
                    conflict.participant(i)?.action_points.min(255) as u8;
            }
            return Ok(next);
        }
        for i in 0..2 {
            next.robots[i].action_points = conflict.participant(i)?.action_points.min(255) as u8;
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
            next.robots[i].action_points = conflict.participant(i)?.action_points.min(255) as u8;
        }
        next.top = conflict.order().top().unwrap_or(d) as u8;
        Ok(next)
    }

    /// The exact law of one turn from an engaged `state`.
    fn turn_law(&self, state: &DuelState) -> Result<Dist<DuelState>, Error> {
        let a = usize::from(state.top);
        let d = 1 - a;
        let parried = self.parries(state, d);
        let attack = self.attack(state, a, parried)?;
        // Only the net, the parry's spare successes and the damage matter to the turn:
        // merge the outcomes that agree on them.
        let law = attack.distribution()?.map(|o| o.canonical());
        law.and_then(|o| {
            let k = if o.shutdown() { 0 } else { o.malfunctions() };
            let laws = &self.losses[d];
            let loss = laws
                .get(k as usize)
                .or(laws.last())
                .cloned()
                .unwrap_or_else(|| Dist::certain(0));
            loss.and_then(|&l| {
                Ok::<_, Error>(Dist::certain(self.after_turn(state, parried, o, l)?))
            })
        })
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
            n.robots[0].action_points = x.min(255) as u8;
            n.robots[1].action_points = y.min(255) as u8;
            n
        }))
    }

    fn play_setup<R: Rng + ?Sized>(&self, state: &DuelState, rng: &mut R) -> DuelState {
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
                .map_or(0, |b| b.roll(rng).min(255) as u8);
        }
        n
    }

    fn play_turn<R: Rng + ?Sized>(&self, state: &DuelState, rng: &mut R) -> DuelState {
        let a = usize::from(state.top);
        let d = 1 - a;
        let parried = self.parries(state, d);
        let Ok(attack) = self.attack(state, a, parried) else {
            return *state;
        };
        let o = attack.roll(rng);
        let mut loss = 0u8;
        if !o.shutdown() {
            for _ in 0..o.malfunctions() {
                let m = MalfunctionTable.roll(rng);
                loss = loss.saturating_add(durability_cost(&self.fighters[d], m));
            }
        }
        self.after_turn(state, parried, &o, loss).unwrap_or(*state)
    }
}

impl<P: DuelPolicy> Encounter for Duel<P> {
    type State = DuelState;
    type End = Victory;

    fn start(&self) -> DuelState {
        let standing = |f: &Fighter| Standing {
            durability: f.durability().clamp(0, 255) as u8,
            action_points: 0,
            shut_down: false,
        };
        DuelState {
            engaged: false,
            top: 0,
            robots: [standing(&self.fighters[0]), standing(&self.fighters[1])],
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
    /// (so the first round is the setup and the first attack).
    fn round_law(&self, state: &DuelState) -> Result<Dist<DuelState>, dice_core::Error> {
        let law = if state.engaged {
            self.turn_law(state)
        } else {
            self.setup_law(state)
                .and_then(|setup| setup.and_then(|s| self.turn_law(s)))
        };
        law.map_err(core_error)
    }

    fn play_round<R: Rng + ?Sized>(&self, state: &DuelState, rng: &mut R) -> DuelState {
        if state.engaged {
            self.play_turn(state, rng)
        } else {
            let s = self.play_setup(state, rng);
            self.play_turn(&s, rng)
        }
    }
}
