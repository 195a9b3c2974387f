//! One Basic Melee Attack as one exact law: the attack against the parry, the penalty dice a
//! Shut Down Override left bought back, the extra successes to damage, the Durability Save.

use std::fmt;

use dice_core::{Dist, Exact, Roll};
use rand::Rng;

use crate::combat::{Armor, DamageProcedure, MeleeWeapon};
use crate::conflict::TurnOutcome;
use crate::damage::{DamageKind, DamageOutcome, DurabilitySave};
use crate::error::Error;
use crate::rules::Rules;
use crate::test::{Opposition, Test};

use super::{Fighter, core_error};

/// What one Basic Melee Attack did: the attacker's successes, what the parry had left after
/// its own Difficulty (`None` unparried), the successes either side spent first on buying
/// back a Shut Down Override's penalty (L1842), and the Durability Save's damage on a hit.
///
/// ```
/// use dice_robots_and_rapiers::AttackOutcome;
/// let o = AttackOutcome { successes: 3, parry_left: Some(4), difficulty: 0, bought_off: 0, parry_bought_off: 0, damage: None };
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
    /// The attacker's net successes spent first on its Shut Down Override penalty ("must be
    /// the first thing done with any rolled successes", L1842).
    #[cfg_attr(feature = "serde", serde(default))]
    pub bought_off: u32,
    /// The parry's spare successes spent first on the defender's penalty.
    #[cfg_attr(feature = "serde", serde(default))]
    pub parry_bought_off: u32,
    /// The Durability Save's damage, on a hit.
    pub damage: Option<DamageOutcome>,
}

impl AttackOutcome {
    /// Net successes: the attacker's less the parry's and the Difficulty (L203–206).
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert_eq!(AttackOutcome { successes: 5, parry_left: None, difficulty: 1, bought_off: 0, parry_bought_off: 0, damage: None }.net(), 4);
    /// ```
    pub fn net(&self) -> i64 {
        i64::from(self.successes)
            - i64::from(self.parry_left.unwrap_or(0))
            - i64::from(self.difficulty)
    }
    /// Whether the attacker won the roll (net 1 or more, L2135), whatever it then spent the
    /// successes on.
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert!(AttackOutcome { successes: 2, parry_left: None, difficulty: 0, bought_off: 2, parry_bought_off: 0, damage: None }.won());
    /// ```
    pub fn won(&self) -> bool {
        self.net() >= 1
    }
    /// Whether it hit: a net success left once the penalty is bought back (L1420, L1842).
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert!(!AttackOutcome { successes: 1, parry_left: Some(1), difficulty: 0, bought_off: 0, parry_bought_off: 0, damage: None }.hit());
    /// assert!(!AttackOutcome { successes: 2, parry_left: None, difficulty: 0, bought_off: 2, parry_bought_off: 0, damage: None }.hit());
    /// ```
    pub fn hit(&self) -> bool {
        self.net() - i64::from(self.bought_off) >= 1
    }
    /// The successes a hit spends on damage: all but the one that hits (L2222).
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert_eq!(AttackOutcome { successes: 5, parry_left: Some(1), difficulty: 0, bought_off: 1, parry_bought_off: 0, damage: None }.extra(), 2);
    /// ```
    pub fn extra(&self) -> u32 {
        (self.net() - i64::from(self.bought_off) - 1).max(0) as u32
    }
    /// The parry's successes beyond the attacker's. The attacker's Difficulty cancels the
    /// attacker's successes but gives the defender nothing (decision).
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert_eq!(AttackOutcome { successes: 1, parry_left: Some(4), difficulty: 0, bought_off: 0, parry_bought_off: 0, damage: None }.parry_spare(), 3);
    /// ```
    pub fn parry_spare(&self) -> u32 {
        self.parry_left.unwrap_or(0).saturating_sub(self.successes)
    }
    /// The parry's spare successes left once the defender's penalty is bought back: what
    /// buys back Action Points (L2234).
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert_eq!(AttackOutcome { successes: 1, parry_left: Some(4), difficulty: 0, bought_off: 0, parry_bought_off: 2, damage: None }.spare_left(), 1);
    /// ```
    pub fn spare_left(&self) -> u32 {
        self.parry_spare().saturating_sub(self.parry_bought_off)
    }
    /// Who gets the first right to Pay for Turn (L2133–2137): the attacker when it won the
    /// roll, the defender when its parry outdid the attack, else no one (ruling A42).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{AttackOutcome, TurnOutcome};
    /// let o = AttackOutcome { successes: 2, parry_left: Some(4), difficulty: 0, bought_off: 0, parry_bought_off: 0, damage: None };
    /// assert_eq!(o.turn_outcome(1), TurnOutcome::DefenderWon(1));
    /// ```
    pub fn turn_outcome(&self, defender: usize) -> TurnOutcome {
        if self.won() {
            TurnOutcome::ActorWon
        } else if self.parry_spare() > 0 {
            TurnOutcome::DefenderWon(defender)
        } else {
            TurnOutcome::NoRight
        }
    }
    /// The same outcome as far as a duel's turn goes (the net, the parry's spare
    /// successes, the buy-backs, the damage), with the successes moved so that equal turns
    /// compare equal.
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// let a = AttackOutcome { successes: 5, parry_left: Some(3), difficulty: 0, bought_off: 0, parry_bought_off: 0, damage: None };
    /// let b = AttackOutcome { successes: 4, parry_left: Some(2), difficulty: 0, bought_off: 0, parry_bought_off: 0, damage: None };
    /// assert_eq!(a.canonical(), b.canonical());
    /// ```
    pub fn canonical(&self) -> AttackOutcome {
        let (successes, parry_left) = if self.won() {
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
            ..*self
        }
    }

    /// Whether the target is shut down.
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert!(!AttackOutcome { successes: 0, parry_left: None, difficulty: 0, bought_off: 0, parry_bought_off: 0, damage: None }.shutdown());
    /// ```
    pub fn shutdown(&self) -> bool {
        self.damage.is_some_and(|d| d.shutdown)
    }
    /// Malfunction rolls owed.
    ///
    /// ```
    /// use dice_robots_and_rapiers::AttackOutcome;
    /// assert_eq!(AttackOutcome { successes: 0, parry_left: None, difficulty: 0, bought_off: 0, parry_bought_off: 0, damage: None }.malfunctions(), 0);
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
        if self.bought_off > 0 {
            write!(f, " ({} bought back the penalty)", self.bought_off)?;
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
/// (or EMP Durability loss), Total Failure shuts the robot down (L1840, L2262). A side that
/// owes a Shut Down Override's penalty rolls that many dice fewer (the caller's `dice`) and
/// spends its first successes buying them back (L1842).
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
    /// The target's current Durability. At 0 or below every Durability Save is a Total
    /// Failure, armour or not: the attribute has lost its use (L253, L1786, L2262).
    pub durability: i32,
    /// The target's armour bonus.
    pub armor_bonus: i32,
    /// The rulings.
    pub rules: Rules,
    /// Exertion on the attack: +1 TN (L1465).
    pub exerted: bool,
    /// Exertion on the Durability Save: +1 TN.
    pub save_exerted: bool,
    /// Penalty dice the attacker still owes (its first net successes buy them back).
    pub penalty: u32,
    /// Penalty dice the defender still owes (the parry's first spare successes).
    pub parry_penalty: u32,
}

impl Attack {
    /// `attacker`'s attack on `defender`, whose Durability is now `durability`, parried or
    /// not: the robots' Fencing dice (less Tactile Sensors' dice, L694–699), Articulation and
    /// Locomotion, no Exertion, no penalty.
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
                Opposition::new(defender.pool(), defender.locomotion())?
                    .with_difficulty(defender.weapon.difficulty())?,
            )
        } else {
            None
        };
        let a = Attack {
            dice: attacker.pool(),
            articulation: attacker.articulation(),
            weapon: attacker.weapon,
            parry,
            durability,
            armor_bonus: defender.armor.map_or(0, Armor::bonus),
            rules,
            exerted: false,
            save_exerted: false,
            penalty: 0,
            parry_penalty: 0,
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
        let mut t =
            Test::new(self.dice, self.articulation)?.with_difficulty(self.weapon.difficulty())?;
        if self.exerted {
            t = t.exerted();
        }
        Ok(match &self.parry {
            Some(p) => t.opposed_by(*p),
            None => t,
        })
    }

    /// The damage procedure of a hit with `extra` successes (L2248–2262): the target's
    /// Durability, the successes, the weapon's Damage, the armour.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
    /// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::MonoSword)?;
    /// let p = Attack::between(&j, &j, 6, false, Rules::default())?.procedure(2);
    /// assert_eq!((p.durability, p.attack_successes, p.weapon_damage), (6, 2, 4));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn procedure(&self, extra: u32) -> DamageProcedure {
        DamageProcedure {
            weapon_damage: self.weapon.damage(),
            armor_bonus: self.armor_bonus,
            emp: matches!(self.weapon.damage_kind(), DamageKind::Emp { .. }),
            ..DamageProcedure::new(self.durability, extra)
        }
    }

    /// The Durability Save a hit with `extra` successes calls for (L2248–2262), exerted if
    /// [`Attack::save_exerted`].
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
        let save = if self.durability <= 0 {
            // L253: a lost attribute saves at TN 0 whatever raised the TN.
            DurabilitySave::new(0, kind, &self.rules)?.with_durability(self.durability)
        } else {
            self.procedure(extra).durability_save(kind, &self.rules)?
        };
        if self.save_exerted {
            save.exerted()
        } else {
            Ok(save)
        }
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

    /// The outcome of the rolls before any save: the successes, the parry's, the
    /// buy-backs.
    fn exchange(&self, successes: u32, parry_left: Option<u32>) -> AttackOutcome {
        let mut o = AttackOutcome {
            successes,
            parry_left,
            difficulty: self.weapon.difficulty(),
            bought_off: 0,
            parry_bought_off: 0,
            damage: None,
        };
        o.bought_off = (o.net().max(0) as u32).min(self.penalty);
        o.parry_bought_off = o.parry_spare().min(self.parry_penalty);
        o
    }

    /// The law of the rolls before any save ([`AttackOutcome::damage`] is `None`): the
    /// attacker's successes and the parry's, independent binomials joined.
    ///
    /// # Errors
    /// As [`Exact::distribution`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
    /// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// let law = Attack::between(&j, &j, 6, true, Rules::default())?.exchange_distribution()?;
    /// assert!(law.iter().all(|(o, _)| o.damage.is_none()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exchange_distribution(&self) -> Result<Dist<AttackOutcome>, dice_core::Error> {
        let t = Test::new(self.dice, self.articulation).map_err(core_error)?;
        let mine = if self.exerted { t.exerted() } else { t }
            .distribution()?
            .map(|&s| s.max(0) as u32);
        let theirs: Dist<Option<u32>> = match &self.parry {
            Some(p) => p
                .successes_distribution()
                .map_err(core_error)?
                .map(|&s| Some(p.successes_left(s))),
            None => Dist::certain(None),
        };
        Ok(mine.joint(&theirs).map(|&(s, left)| self.exchange(s, left)))
    }

    /// Rolls the Test (and parry) with [`Test::roll_test`]: the outcome before any save.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attack, Dice, Fighter, MeleeWeapon, Rules};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let j = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
    /// let a = Attack::between(&j, &j, 6, true, Rules::default())?;
    /// assert!(a.roll_exchange(&mut Xoshiro256PlusPlus::seed_from_u64(3)).damage.is_none());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn roll_exchange<R: Rng + ?Sized>(&self, rng: &mut R) -> AttackOutcome {
        let Ok(test) = self.test() else {
            return self.exchange(0, None);
        };
        let roll = test.roll_test(rng);
        self.exchange(roll.successes, roll.opposing.as_ref().map(|p| p.left()))
    }

    fn damage_law(&self, o: AttackOutcome) -> Result<Dist<AttackOutcome>, dice_core::Error> {
        if !o.hit() {
            return Ok(Dist::certain(o));
        }
        let save = self.save(o.extra()).map_err(core_error)?;
        Ok(save.distribution()?.map(|d| AttackOutcome {
            damage: Some(*d),
            ..o
        }))
    }
}

impl Roll for Attack {
    type Outcome = AttackOutcome;
    /// Rolls the Test (and parry) with [`Attack::roll_exchange`], then on a hit the
    /// Durability Save with [`DurabilitySave::roll_save`].
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> AttackOutcome {
        let mut o = self.roll_exchange(rng);
        if o.hit() {
            if let Ok(save) = self.save(o.extra()) {
                o.damage = Some(save.roll_save(rng).damage);
            }
        }
        o
    }
}

impl Exact for Attack {
    /// [`Attack::exchange_distribution`]; on a hit, the Durability Save's law at the TN the
    /// extra successes give.
    fn distribution(&self) -> Result<Dist<AttackOutcome>, dice_core::Error> {
        self.exchange_distribution()?
            .and_then(|&o| self.damage_law(o))
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
