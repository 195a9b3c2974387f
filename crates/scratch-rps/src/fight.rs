//! Combat (L21–L57, L73–L107): initiative order, turns with a regular and a bonus action,
//! every basic action and attack ability, delays, evading, catching and escaping, flying and
//! swimming, healing in combat.
//!
//! A [`Fight`] holds the combatants and whose turn it is. Each turn is either taken with a
//! [`Turn`] (a regular [`Action`] and an optional [`BonusAction`]) and the d20 faces it needs
//! ([`Fight::take_turn`], the pure form) or rolled ([`Fight::take_turn_rolled`]), or passed
//! ([`Fight::pass`]: doing nothing, or the turn of a delayed, incapacitated or escaped
//! combatant). A turn is checked in full before anything changes: an invalid turn is an
//! [`Error`] and leaves the fight as it was.

use core::fmt;

use dice_core::Rng;

use crate::ability::{Ability, Movement};
use crate::attack::{Attack, AttackKind, BLASTING_TARGETS, Range};
use crate::character::{Character, Health, after_damage};
use crate::error::Error;
use crate::initiative::{self, Initiative};
use crate::roll::{D20, Outcome, check_natural};
use crate::rules::{Environment, Rules};
use crate::support::{HEALING_DIFFICULTY, Treatment};

/// A combatant's index in its [`Fight`], in the order added.
pub type CombatantId = usize;

/// Engage: added to the attacker's close-range attack rolls this turn (L55).
pub const ENGAGE_ATTACK_BONUS: i64 = 2;
/// Engage: taken from the attacker's defense until the beginning of his next turn (L55).
pub const ENGAGE_DEFENSE_PENALTY: i64 = 2;
/// Take cover: taken from the attacker's long-range attack rolls this turn (L57).
pub const TAKE_COVER_ATTACK_PENALTY: i64 = 2;
/// Take cover: added to the attacker's defense until the beginning of his next turn (L57).
pub const TAKE_COVER_DEFENSE_BONUS: i64 = 2;

/// Whether a combatant can act when its turn comes.
///
/// ```
/// use dice_scratch_rps::TurnStatus;
/// assert_eq!(TurnStatus::Delayed.to_string(), "delayed until the end of this turn");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TurnStatus {
    /// Can act.
    Ready,
    /// Delayed (by a hold, L45, or by its own shooting, blasting or knockout, L75–L79): the
    /// turn is skipped (SC-A17).
    Delayed,
    /// Zero hit points (L33), or no toughness (L71): cannot perform actions.
    Incapacitated,
    /// Left the fight (L53).
    Escaped,
}

impl fmt::Display for TurnStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TurnStatus::Ready => "ready",
            TurnStatus::Delayed => "delayed until the end of this turn",
            TurnStatus::Incapacitated => "incapacitated",
            TurnStatus::Escaped => "escaped",
        })
    }
}

/// An evade in force (L49): the movement ability used (none is allowed) and its level, added
/// to defense until the evader's next turn.
///
/// ```
/// use dice_scratch_rps::{Evasion, Movement};
/// let e = Evasion { ability: Some(Movement::Quickness), level: 2 };
/// assert_eq!(e.to_string(), "evading with quickness (+2 defense)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Evasion {
    /// The movement ability (`None`: no movement ability, defense unchanged).
    pub ability: Option<Movement>,
    /// Its level.
    pub level: u32,
}

impl fmt::Display for Evasion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ability {
            Some(m) => write!(f, "evading with {m} (+{} defense)", self.level),
            None => f.write_str("evading with no movement ability"),
        }
    }
}

/// A character in a fight, with its hit points and everything that lasts between turns.
///
/// ```
/// use dice_scratch_rps::{Character, Combatant, Health};
/// let c = Character::from_stat_block("4 toughness")?;
/// let hurt = Combatant::new(c, 0).with_hit_points(2)?;
/// assert_eq!(hurt.health(), Health::Injured);
/// assert_eq!(Combatant::new(c, 0).hit_points(), 4); // usually full (L127)
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Combatant {
    character: Character,
    team: u32,
    hp: u32,
    minion: bool,
    in_water: bool,
    delayed: bool,
    evasion: Option<Evasion>,
    caught_or_hit: bool,
    can_escape: bool,
    defense_shift: i64,
    airborne: bool,
    escaped: bool,
    /// Whether there is room to fly where it fights (L93): set by [`Fight::add`]; `true`
    /// outside a fight, where defense is the stat block's.
    room_to_fly: bool,
}

impl Combatant {
    /// `character` on `team` (any label; the fight is over when fewer than two teams have
    /// someone standing), at maximum hit points (L127: "usually").
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// let c = Combatant::new(Character::from_stat_block("6 toughness")?, 1);
    /// assert_eq!((c.team(), c.hit_points()), (1, 6));
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn new(character: Character, team: u32) -> Combatant {
        Combatant {
            character,
            team,
            hp: character.max_hit_points(),
            minion: false,
            in_water: false,
            delayed: false,
            evasion: None,
            caught_or_hit: false,
            can_escape: false,
            defense_shift: 0,
            airborne: false,
            escaped: false,
            room_to_fly: true,
        }
    }

    /// The same combatant starting at `hp` hit points.
    ///
    /// # Errors
    /// [`Error::HitPoints`] above the maximum (toughness, L33).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// let c = Character::from_stat_block("3 toughness")?;
    /// assert!(Combatant::new(c, 0).with_hit_points(4).is_err());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_hit_points(mut self, hp: u32) -> Result<Combatant, Error> {
        let max = self.character.max_hit_points();
        if hp > max {
            return Err(Error::HitPoints { hp, max });
        }
        self.hp = hp;
        Ok(self)
    }

    /// The same combatant as a minion (L103–L107: cannot be healed in combat).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(Combatant::new(Character::new(), 0).minion().is_minion());
    /// ```
    pub const fn minion(mut self) -> Combatant {
        self.minion = true;
        self
    }

    /// The same combatant in water (L95); the fight checks there is water.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(Combatant::new(Character::new(), 0).in_water(true).is_in_water());
    /// ```
    pub const fn in_water(mut self, in_water: bool) -> Combatant {
        self.in_water = in_water;
        self
    }

    /// The character (with its temporary bonuses).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// let c = Character::from_stat_block("2 toughness")?;
    /// assert_eq!(Combatant::new(c, 0).character(), &c);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn character(&self) -> &Character {
        &self.character
    }

    /// The team label.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert_eq!(Combatant::new(Character::new(), 7).team(), 7);
    /// ```
    pub const fn team(&self) -> u32 {
        self.team
    }

    /// Current hit points.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert_eq!(Combatant::new(Character::new(), 0).hit_points(), 0);
    /// ```
    pub const fn hit_points(&self) -> u32 {
        self.hp
    }

    /// Healthy, injured or incapacitated, from the hit points (L33, SC-A5).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Health};
    /// assert_eq!(Combatant::new(Character::new(), 0).health(), Health::Incapacitated); // L71
    /// ```
    pub const fn health(&self) -> Health {
        self.character.health(self.hp)
    }

    /// Whether it is a minion.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).is_minion());
    /// ```
    pub const fn is_minion(&self) -> bool {
        self.minion
    }

    /// Whether it is in water.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).is_in_water());
    /// ```
    pub const fn is_in_water(&self) -> bool {
        self.in_water
    }

    /// Whether its next turn will be skipped (L45, L75–L79).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).is_delayed());
    /// ```
    pub const fn is_delayed(&self) -> bool {
        self.delayed
    }

    /// The evade in force, if any (L49).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert_eq!(Combatant::new(Character::new(), 0).evasion(), None);
    /// ```
    pub const fn evasion(&self) -> Option<Evasion> {
        self.evasion
    }

    /// Whether it is out of close range until its next turn (a flying character who evaded
    /// or made a long-range attack, L93).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).is_airborne());
    /// ```
    pub const fn is_airborne(&self) -> bool {
        self.airborne
    }

    /// Whether it has escaped (L53).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).has_escaped());
    /// ```
    pub const fn has_escaped(&self) -> bool {
        self.escaped
    }

    /// Whether it could act if its turn came now: not after escaping (L53), not with zero
    /// hit points (L33), never without toughness (L71), not while delayed (L45, L75–L79).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, TurnStatus};
    /// let c = Character::from_stat_block("2 toughness")?;
    /// assert_eq!(Combatant::new(c, 0).status(), TurnStatus::Ready);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn status(&self) -> TurnStatus {
        if self.escaped {
            TurnStatus::Escaped
        } else if self.hp == 0 || self.character.toughness() == 0 {
            TurnStatus::Incapacitated
        } else if self.delayed {
            TurnStatus::Delayed
        } else {
            TurnStatus::Ready
        }
    }

    /// Whether it is still in the fight: neither incapacitated (no hit points, or no
    /// toughness, L33, L71) nor escaped.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).is_standing());
    /// ```
    pub const fn is_standing(&self) -> bool {
        !self.escaped && self.hp > 0 && self.character.toughness() > 0
    }

    /// Current defense: L29's defense, plus the evade in force (L49), minus 2 after engaging
    /// (L55), plus 2 after taking cover (L57), plus swimming in water (L95); the changes add
    /// up (SC-A15). In a fight without room to fly, flying does not count among the
    /// defensive abilities (L93, [`Character::defense_where`]).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, Rules};
    /// let c = Character::from_stat_block("1 swimming, 4 toughness")?;
    /// assert_eq!(Combatant::new(c, 0).defense(), 12);
    /// assert_eq!(Combatant::new(c, 0).in_water(true).defense(), 13);
    /// // Indoors (no room to fly) flying gives no defense (L93).
    /// let flyer = Character::from_stat_block("3 flying, 2 toughness")?;
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// let id = f.add(Combatant::new(flyer, 0))?;
    /// assert_eq!(f.combatant(id)?.defense(), 11);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn defense(&self) -> i64 {
        let evade = self.evasion.map_or(0, |e| i64::from(e.level));
        let water = if self.in_water {
            i64::from(self.character.level(Ability::Swimming))
        } else {
            0
        };
        self.character.defense_where(self.room_to_fly) + evade + self.defense_shift + water
    }

    /// What changes about it as the fight goes on ([`Condition`]).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// let c = Combatant::new(Character::from_stat_block("4 toughness")?, 0);
    /// assert_eq!(c.condition().hit_points(), 4);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn condition(&self) -> Condition {
        if self.escaped {
            // An escaped character can neither act nor be attacked again (L53).
            return Condition {
                hp: 0,
                escaped: true,
                delayed: false,
                evasion: None,
                caught_or_hit: false,
                defense_shift: 0,
                airborne: false,
            };
        }
        Condition {
            hp: self.hp,
            escaped: false,
            delayed: self.delayed,
            evasion: self.evasion,
            caught_or_hit: self.caught_or_hit && self.evasion.is_some(),
            defense_shift: self.defense_shift,
            airborne: self.airborne,
        }
    }

    /// Whether `other` is the same combatant but for his [`Condition`]: the same character,
    /// side, minion or not, in water or not, under the same sky. Two such twins can trade
    /// places in a fight without changing anything the rules look at.
    pub(crate) fn is_twin_of(&self, other: &Combatant) -> bool {
        self.character == other.character
            && self.team == other.team
            && self.minion == other.minion
            && self.in_water == other.in_water
            && self.room_to_fly == other.room_to_fly
    }

    /// Puts back a condition taken with [`Combatant::condition`].
    pub(crate) fn restore(&mut self, c: &Condition) {
        self.hp = c.hp;
        self.escaped = c.escaped;
        self.delayed = c.delayed;
        self.evasion = c.evasion;
        self.caught_or_hit = c.caught_or_hit;
        self.defense_shift = c.defense_shift;
        self.airborne = c.airborne;
        self.can_escape = false;
    }

    /// Whether it is a flying character here: it has flying and there is room to fly (L93).
    fn flies(&self, env: &Environment) -> bool {
        env.room_to_fly && self.character.has(Ability::Flying)
    }

    /// What ends when its turn begins: the evade (remembering whether it allows an escape,
    /// L53), engage and take cover (L55, L57), being out of close range (L93).
    fn begin_turn(&mut self) {
        self.can_escape = self.evasion.is_some() && !self.caught_or_hit;
        self.evasion = None;
        self.caught_or_hit = false;
        self.defense_shift = 0;
        self.airborne = false;
    }
}

/// What changes about a combatant as a fight goes on: hit points, a delay, an evade in force
/// (and whether he has been caught or hit since), the engage or take-cover shift of his
/// defense, being out of close range, having escaped. A small ordered value: the state of a
/// fight in progress is one per combatant ([`crate::FightState`]).
///
/// What only matters inside the combatant's own turn (whether he may escape, worked out when
/// his turn begins, L53) is not kept, and being caught or hit is kept only while he evades,
/// so equal situations give equal conditions.
///
/// ```
/// use dice_scratch_rps::{Character, Combatant};
/// let c = Combatant::new(Character::from_stat_block("6 toughness")?, 0);
/// assert_eq!(c.condition().hit_points(), 6);
/// assert_eq!(c.condition().to_string(), "6 hp");
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Condition {
    hp: u32,
    escaped: bool,
    delayed: bool,
    evasion: Option<Evasion>,
    caught_or_hit: bool,
    defense_shift: i64,
    airborne: bool,
}

impl Condition {
    /// The same condition with everything that lasts only until his next turn, or while he
    /// can act, put aside (delay, evade, shifts of defense, being out of close range): the
    /// condition of someone out of the fight for good, whose next turn never comes.
    pub(crate) fn settled(&self) -> Condition {
        Condition {
            hp: self.hp,
            escaped: self.escaped,
            delayed: false,
            evasion: None,
            caught_or_hit: false,
            defense_shift: 0,
            airborne: false,
        }
    }

    /// Hit points.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// let c = Combatant::new(Character::from_stat_block("3 toughness")?, 0).with_hit_points(1)?;
    /// assert_eq!(c.condition().hit_points(), 1);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn hit_points(&self) -> u32 {
        self.hp
    }

    /// Whether he has escaped (L53).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).condition().has_escaped());
    /// ```
    pub const fn has_escaped(&self) -> bool {
        self.escaped
    }

    /// Whether his next turn will be skipped (L45, L75–L79).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).condition().is_delayed());
    /// ```
    pub const fn is_delayed(&self) -> bool {
        self.delayed
    }

    /// Whether he evaded and has not been caught or hit since: he may escape on his next
    /// turn (L53).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant};
    /// assert!(!Combatant::new(Character::new(), 0).condition().may_escape());
    /// ```
    pub const fn may_escape(&self) -> bool {
        self.evasion.is_some() && !self.caught_or_hit && !self.escaped
    }
}

impl fmt::Display for Condition {
    /// `5 hp`, then `escaped`, `delayed`, `evading +1`, `caught or hit`, `defense -2`,
    /// `out of close range` as they apply.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.escaped {
            return f.write_str("escaped");
        }
        write!(f, "{} hp", self.hp)?;
        if self.delayed {
            f.write_str(", delayed")?;
        }
        if let Some(e) = self.evasion {
            write!(f, ", evading +{}", e.level)?;
            if self.caught_or_hit {
                f.write_str(" (caught or hit)")?;
            }
        }
        if self.defense_shift != 0 {
            write!(f, ", defense {:+}", self.defense_shift)?;
        }
        if self.airborne {
            f.write_str(", out of close range")?;
        }
        Ok(())
    }
}

impl fmt::Display for Combatant {
    /// `team 1, 5/6 hp, healthy, defense 13` and any lasting state.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "team {}, {}/{} hp, {}, defense {}",
            self.team,
            self.hp,
            self.character.max_hit_points(),
            self.health(),
            self.defense()
        )?;
        if let Some(e) = self.evasion {
            write!(f, ", {e}")?;
        }
        if self.delayed {
            f.write_str(", delayed")?;
        }
        if self.airborne {
            f.write_str(", flying out of close range")?;
        }
        if self.in_water {
            f.write_str(", in water")?;
        }
        if self.escaped {
            f.write_str(", escaped")?;
        }
        Ok(())
    }
}

/// A bonus action (L25): one per turn, besides the regular action.
///
/// ```
/// use dice_scratch_rps::BonusAction;
/// assert_eq!(BonusAction::Engage.to_string(), "engage");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BonusAction {
    /// Before a close-range attack: +2 to close-range attack rolls this turn, −2 defense
    /// until the beginning of the next turn (L55).
    Engage,
    /// Before a long-range attack, with cover: −2 to long-range attack rolls this turn, +2
    /// defense until the beginning of the next turn (L57).
    TakeCover,
    /// Opening a door, pushing a button, handing an item to another character (L25): no
    /// effect on the dice.
    Other,
}

impl fmt::Display for BonusAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BonusAction::Engage => "engage",
            BonusAction::TakeCover => "take cover",
            BonusAction::Other => "another bonus action",
        })
    }
}

/// A regular action (L25, L39–L57, L73–L99): one per turn.
///
/// ```
/// use dice_scratch_rps::{Ability, Action};
/// let a = Action::BasicAttack { target: 2, with: Some(Ability::Fighting) };
/// assert_eq!(a.dice_needed(), 1);
/// assert_eq!(a.to_string(), "basic attack on #2 (fighting)");
/// assert_eq!(Action::Blast { targets: vec![1, 2, 3] }.dice_needed(), 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Action {
    /// Do nothing (L41).
    Nothing,
    /// Basic attack: close range, 1 damage; a non-ability, fighting or wrestling roll
    /// against the target's defense (L43).
    BasicAttack {
        /// The target.
        target: CombatantId,
        /// `None`, fighting or wrestling.
        with: Option<Ability>,
    },
    /// Hold: close range; on a success the target is delayed until the end of its next turn
    /// (L45); a non-ability or wrestling roll.
    Hold {
        /// The target.
        target: CombatantId,
        /// `None` or wrestling.
        with: Option<Ability>,
    },
    /// Throw object: long range, 1 damage, a non-ability roll; needs a throwable object
    /// (L47).
    ThrowObject {
        /// The target.
        target: CombatantId,
    },
    /// Evade: add one movement ability's level to defense until the next turn; with none,
    /// defense does not change (L49).
    Evade {
        /// The movement ability, if any.
        with: Option<Movement>,
    },
    /// Catch: close range against an evading character, difficulty 10 + the evader's
    /// movement ability; the catcher may add a movement ability the environment allows
    /// (L51, L89–L95, SC-A9). A success ends the evade.
    Catch {
        /// The evader.
        target: CombatantId,
        /// The catcher's movement ability, if any.
        with: Option<Movement>,
    },
    /// Escape: leave the fight; needs an evade on the last turn, not caught or hit since
    /// (L53).
    Escape,
    /// Shooting: long range, 2 damage; an injured shooter delays himself (L75).
    Shoot {
        /// The target.
        target: CombatantId,
    },
    /// Blasting: long range, 1 damage each, up to three separate targets (L77, SC-A12); an
    /// injured blaster delays himself.
    Blast {
        /// 1 to 3 distinct targets.
        targets: Vec<CombatantId>,
    },
    /// Knockout: close range, 4 damage (2 if injured); the user delays himself (L79).
    Knockout {
        /// The target.
        target: CombatantId,
    },
    /// Fighting: two basic attacks as one action, healthy only (L81).
    FightingAttacks {
        /// The first attack's target.
        first: CombatantId,
        /// The second attack's target.
        second: CombatantId,
    },
    /// Wrestling: one basic attack and one hold as one action, healthy only (L83).
    WrestlingAttacks {
        /// The basic attack's target.
        basic_attack: CombatantId,
        /// The hold's target.
        hold: CombatantId,
        /// Whether the hold is rolled first (as at L131 and L143).
        hold_first: bool,
    },
    /// Healing: revive an incapacitated or heal an injured character, not oneself and not a
    /// minion; difficulty 10 (L99, L107).
    Heal {
        /// The patient.
        target: CombatantId,
    },
}

impl Action {
    /// How many d20 rolls the action makes.
    ///
    /// ```
    /// use dice_scratch_rps::Action;
    /// assert_eq!(Action::FightingAttacks { first: 1, second: 1 }.dice_needed(), 2);
    /// assert_eq!(Action::Escape.dice_needed(), 0);
    /// ```
    pub fn dice_needed(&self) -> usize {
        match self {
            Action::Nothing | Action::Evade { .. } | Action::Escape => 0,
            Action::FightingAttacks { .. } | Action::WrestlingAttacks { .. } => 2,
            Action::Blast { targets } => targets.len(),
            _ => 1,
        }
    }

    /// The ability the action cannot be taken without (L11), if any.
    fn ability_needed(&self) -> Option<Ability> {
        match self {
            Action::BasicAttack { with, .. } | Action::Hold { with, .. } => *with,
            Action::Evade { with } | Action::Catch { with, .. } => with.map(Movement::ability),
            Action::Shoot { .. } => Some(Ability::Shooting),
            Action::Blast { .. } => Some(Ability::Blasting),
            Action::Knockout { .. } => Some(Ability::Knockout),
            Action::FightingAttacks { .. } => Some(Ability::Fighting),
            Action::WrestlingAttacks { .. } => Some(Ability::Wrestling),
            Action::Heal { .. } => Some(Ability::Healing),
            Action::Nothing | Action::ThrowObject { .. } | Action::Escape => None,
        }
    }

    /// The range of its attacks, for an attack action.
    ///
    /// ```
    /// use dice_scratch_rps::{Action, Range};
    /// assert_eq!(Action::Shoot { target: 1 }.range(), Some(Range::Long));
    /// assert_eq!(Action::Heal { target: 1 }.range(), None);
    /// ```
    pub fn range(&self) -> Option<Range> {
        match self {
            Action::BasicAttack { .. }
            | Action::Hold { .. }
            | Action::Catch { .. }
            | Action::Knockout { .. }
            | Action::FightingAttacks { .. }
            | Action::WrestlingAttacks { .. } => Some(Range::Close),
            Action::ThrowObject { .. } | Action::Shoot { .. } | Action::Blast { .. } => {
                Some(Range::Long)
            }
            Action::Nothing | Action::Evade { .. } | Action::Escape | Action::Heal { .. } => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let with = |a: &Option<Ability>| a.map_or(String::new(), |a| format!(" ({a})"));
        let movement = |m: &Option<Movement>| m.map_or(String::new(), |m| format!(" ({m})"));
        match self {
            Action::Nothing => f.write_str("nothing"),
            Action::BasicAttack { target, with: w } => {
                write!(f, "basic attack on #{target}{}", with(w))
            }
            Action::Hold { target, with: w } => write!(f, "hold on #{target}{}", with(w)),
            Action::ThrowObject { target } => write!(f, "throw object at #{target}"),
            Action::Evade { with: m } => write!(f, "evade{}", movement(m)),
            Action::Catch { target, with: m } => write!(f, "catch #{target}{}", movement(m)),
            Action::Escape => f.write_str("escape"),
            Action::Shoot { target } => write!(f, "shoot #{target}"),
            Action::Blast { targets } => {
                f.write_str("blast")?;
                for (i, t) in targets.iter().enumerate() {
                    write!(f, "{}#{t}", if i == 0 { " " } else { ", " })?;
                }
                Ok(())
            }
            Action::Knockout { target } => write!(f, "knockout on #{target}"),
            Action::FightingAttacks { first, second } => {
                write!(f, "two fighting attacks on #{first} and #{second}")
            }
            Action::WrestlingAttacks {
                basic_attack,
                hold,
                hold_first,
            } => {
                if *hold_first {
                    write!(
                        f,
                        "wrestling hold on #{hold}, then basic attack on #{basic_attack}"
                    )
                } else {
                    write!(
                        f,
                        "wrestling basic attack on #{basic_attack}, then hold on #{hold}"
                    )
                }
            }
            Action::Heal { target } => write!(f, "heal #{target}"),
        }
    }
}

/// One turn: a regular action and at most one bonus action (L25).
///
/// ```
/// use dice_scratch_rps::{Action, BonusAction, Turn};
/// let t = Turn::new(Action::Knockout { target: 1 }).with_bonus(BonusAction::Engage);
/// assert_eq!(t.to_string(), "engage, then knockout on #1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Turn {
    /// The bonus action, if any (taken before the regular action).
    pub bonus: Option<BonusAction>,
    /// The regular action.
    pub action: Action,
}

impl Turn {
    /// A turn with only a regular action.
    ///
    /// ```
    /// use dice_scratch_rps::{Action, Turn};
    /// assert_eq!(Turn::new(Action::Escape).bonus, None);
    /// ```
    pub const fn new(action: Action) -> Turn {
        Turn {
            bonus: None,
            action,
        }
    }

    /// The same turn with a bonus action.
    ///
    /// ```
    /// use dice_scratch_rps::{Action, BonusAction, Turn};
    /// let t = Turn::new(Action::Shoot { target: 0 }).with_bonus(BonusAction::TakeCover);
    /// assert_eq!(t.bonus, Some(BonusAction::TakeCover));
    /// ```
    pub fn with_bonus(mut self, bonus: BonusAction) -> Turn {
        self.bonus = Some(bonus);
        self
    }
}

impl From<Action> for Turn {
    fn from(action: Action) -> Turn {
        Turn::new(action)
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(b) = self.bonus {
            write!(f, "{b}, then ")?;
        }
        write!(f, "{}", self.action)
    }
}

/// What a roll in a turn was for.
///
/// ```
/// use dice_scratch_rps::{AttackKind, RollPurpose};
/// assert_eq!(RollPurpose::Attack(AttackKind::Hold).to_string(), "hold");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RollPurpose {
    /// An attack.
    Attack(AttackKind),
    /// Healing (L99).
    Healing(Treatment),
}

impl fmt::Display for RollPurpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollPurpose::Attack(k) => write!(f, "{k}"),
            RollPurpose::Healing(t) => write!(f, "{t}"),
        }
    }
}

/// One d20 roll made in a turn and what it did to its target.
///
/// ```
/// use dice_scratch_rps::{AttackKind, Health, Outcome, RollPurpose, RollReport};
/// let r = RollReport {
///     purpose: RollPurpose::Attack(AttackKind::BasicAttack), target: 2, natural: 11,
///     total: 13, difficulty: 13, outcome: Outcome::Success, damage: 1,
///     hit_points: 5, health: Health::Healthy, delayed: false,
/// };
/// assert_eq!(r.to_string(), "basic attack on #2: 11+2=13 vs 13, success, 1 damage; #2 at 5 hp, healthy");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RollReport {
    /// What the roll was for.
    pub purpose: RollPurpose,
    /// The target.
    pub target: CombatantId,
    /// The die.
    pub natural: u32,
    /// The die plus everything added.
    pub total: i64,
    /// The difficulty.
    pub difficulty: i64,
    /// The outcome.
    pub outcome: Outcome,
    /// Damage dealt.
    pub damage: u32,
    /// The target's hit points afterwards.
    pub hit_points: u32,
    /// The target's health afterwards.
    pub health: Health,
    /// Whether the roll delayed the target (a successful hold, L45).
    pub delayed: bool,
}

impl fmt::Display for RollReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.total - i64::from(self.natural);
        write!(f, "{} on #{}: {}", self.purpose, self.target, self.natural)?;
        if m != 0 {
            write!(f, "{m:+}={}", self.total)?;
        }
        write!(f, " vs {}, {}", self.difficulty, self.outcome)?;
        if self.damage > 0 {
            write!(f, ", {} damage", self.damage)?;
        }
        if self.delayed {
            f.write_str(", delayed")?;
        }
        write!(
            f,
            "; #{} at {} hp, {}",
            self.target, self.hit_points, self.health
        )
    }
}

/// What happened in one turn.
///
/// ```
/// use dice_scratch_rps::{TurnReport, TurnStatus};
/// let r = TurnReport { actor: 2, round: 3, status: TurnStatus::Delayed, turn: None,
///     rolls: vec![], delayed_self: false, escaped: false };
/// assert_eq!(r.to_string(), "round 3, #2: delayed until the end of this turn");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TurnReport {
    /// Whose turn it was.
    pub actor: CombatantId,
    /// The round (1 for the first pass through the initiative order).
    pub round: u32,
    /// [`TurnStatus::Ready`] when the combatant could act; otherwise why the turn was skipped.
    pub status: TurnStatus,
    /// The turn taken (`None` when passed or skipped).
    pub turn: Option<Turn>,
    /// The rolls made, in order.
    pub rolls: Vec<RollReport>,
    /// Whether the actor delayed himself (L75–L79).
    pub delayed_self: bool,
    /// Whether the actor escaped (L53).
    pub escaped: bool,
}

impl fmt::Display for TurnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {}, #{}: ", self.round, self.actor)?;
        match &self.turn {
            None if self.status == TurnStatus::Ready => f.write_str("does nothing")?,
            None => write!(f, "{}", self.status)?,
            Some(t) => write!(f, "{t}")?,
        }
        for r in &self.rolls {
            write!(f, "\n  {r}")?;
        }
        if self.delayed_self {
            f.write_str("\n  delays himself until the end of his next turn")?;
        }
        if self.escaped {
            f.write_str("\n  escapes")?;
        }
        Ok(())
    }
}

/// A fight: combatants, initiative order and whose turn it is (L21–L57).
///
/// ```
/// use dice_scratch_rps::{Ability, Action, Character, Combatant, Environment, Fight, Rules, Turn};
///
/// let mut fight = Fight::new(Environment::default(), Rules::default());
/// let a = fight.add(Combatant::new(Character::from_stat_block("3 fighting, 4 toughness")?, 0))?;
/// let b = fight.add(Combatant::new(Character::from_stat_block("2 quickness, 4 toughness")?, 1))?;
/// fight.start(&[15, 9], &[])?; // initiative dice
/// assert_eq!(fight.current(), Some(a));
/// // Healthy: two fighting attacks (L81), dice 10 and 3 against defense 12.
/// let report = fight.take_turn(Turn::new(Action::FightingAttacks { first: b, second: b }), &[10, 3])?;
/// assert_eq!(fight.combatant(b)?.hit_points(), 3);
/// println!("{report}");
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Fight {
    combatants: Vec<Combatant>,
    environment: Environment,
    rules: Rules,
    initiative: Vec<u32>,
    order: Vec<CombatantId>,
    position: usize,
    round: u32,
}

impl Fight {
    /// An empty fight in `environment` under `rules`.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// let f = Fight::new(Environment::default(), Rules::default());
    /// assert!(f.combatants().is_empty());
    /// ```
    pub fn new(environment: Environment, rules: Rules) -> Fight {
        Fight {
            combatants: Vec::new(),
            environment,
            rules,
            initiative: Vec::new(),
            order: Vec::new(),
            position: 0,
            round: 0,
        }
    }

    /// Adds a combatant before initiative is rolled; returns its id. Its defense follows the
    /// environment from now on (flying counts only where there is room to fly, L93).
    ///
    /// # Errors
    /// [`Error::FightPhase`] after the start; [`Error::Environment`] for a combatant in
    /// water where there is none.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, Rules};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// assert_eq!(f.add(Combatant::new(Character::new(), 0))?, 0);
    /// assert!(f.add(Combatant::new(Character::new(), 0).in_water(true)).is_err());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn add(&mut self, combatant: Combatant) -> Result<CombatantId, Error> {
        if self.is_started() {
            return Err(Error::FightPhase(
                "combatants join before initiative is rolled",
            ));
        }
        if combatant.in_water && !self.environment.water.is_present() {
            return Err(Error::Environment("there is no water here (L95)"));
        }
        let mut combatant = combatant;
        combatant.room_to_fly = self.environment.room_to_fly;
        self.combatants.push(combatant);
        Ok(self.combatants.len() - 1)
    }

    /// The pure form of the start: rolls initiative with the given dice, one per combatant in
    /// id order, and breaks ties with the roll-off dice (L23, L87, SC-A8; see
    /// [`initiative::order`]). Returns the order.
    ///
    /// # Errors
    /// [`Error::FightPhase`] when already started or without combatants; [`Error::Dice`]
    /// unless one die per combatant; [`Error::Natural`]; [`Error::RollOffShort`],
    /// [`Error::RollOffExtra`].
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, Rules};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// for _ in 0..2 { f.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?; }
    /// assert_eq!(f.start(&[8, 8], &[2, 19])?, [1, 0]); // a tie, then a roll-off
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn start(&mut self, naturals: &[u32], roll_offs: &[u32]) -> Result<&[CombatantId], Error> {
        self.check_can_start()?;
        if naturals.len() != self.combatants.len() {
            return Err(Error::Dice {
                needed: self.combatants.len(),
                given: naturals.len(),
            });
        }
        let totals = self
            .combatants
            .iter()
            .zip(naturals)
            .map(|(c, &n)| Initiative::of(&c.character).total(n))
            .collect::<Result<Vec<u32>, Error>>()?;
        let order = initiative::order(&totals, roll_offs)?;
        Ok(self.begin(totals, order))
    }

    /// The start with initiative and roll-offs rolled with `rng`. Returns the order.
    ///
    /// # Errors
    /// [`Error::FightPhase`] when already started or without combatants.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, Rules};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// f.add(Combatant::new(Character::from_stat_block("3 stalking, 2 toughness")?, 0))?;
    /// f.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// let order = f.start_rolled(&mut Xoshiro256PlusPlus::seed_from_u64(1))?.to_vec();
    /// assert_eq!(order, [0, 1]); // 31 or more against 20 or less
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn start_rolled<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<&[CombatantId], Error> {
        self.check_can_start()?;
        let totals: Vec<u32> = self
            .combatants
            .iter()
            .map(|c| dice_core::Roll::roll(&Initiative::of(&c.character), rng))
            .collect();
        let (order, _) = initiative::order_rolled(&totals, rng);
        Ok(self.begin(totals, order))
    }

    fn check_can_start(&self) -> Result<(), Error> {
        if self.is_started() {
            return Err(Error::FightPhase("initiative has already been rolled"));
        }
        if self.combatants.is_empty() {
            return Err(Error::FightPhase("a fight needs at least one combatant"));
        }
        Ok(())
    }

    fn begin(&mut self, totals: Vec<u32>, order: Vec<CombatantId>) -> &[CombatantId] {
        self.initiative = totals;
        self.order = order;
        self.position = 0;
        self.round = 1;
        &self.order
    }

    /// Whether initiative has been rolled.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// assert!(!Fight::new(Environment::default(), Rules::default()).is_started());
    /// ```
    pub fn is_started(&self) -> bool {
        !self.order.is_empty()
    }

    /// The environment.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// let f = Fight::new(Environment::default(), Rules::default());
    /// assert_eq!(f.environment(), &Environment::default());
    /// ```
    pub fn environment(&self) -> &Environment {
        &self.environment
    }

    /// The rules.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// let f = Fight::new(Environment::default(), Rules::default());
    /// assert_eq!(f.rules(), &Rules::default());
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Every combatant, by id.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// assert!(Fight::new(Environment::default(), Rules::default()).combatants().is_empty());
    /// ```
    pub fn combatants(&self) -> &[Combatant] {
        &self.combatants
    }

    /// One combatant.
    ///
    /// # Errors
    /// [`Error::NoSuchCombatant`].
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// assert!(Fight::new(Environment::default(), Rules::default()).combatant(0).is_err());
    /// ```
    pub fn combatant(&self, id: CombatantId) -> Result<&Combatant, Error> {
        self.combatants.get(id).ok_or(Error::NoSuchCombatant {
            id,
            count: self.combatants.len(),
        })
    }

    /// The initiative order (empty before the start).
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// assert!(Fight::new(Environment::default(), Rules::default()).order().is_empty());
    /// ```
    pub fn order(&self) -> &[CombatantId] {
        &self.order
    }

    /// A combatant's initiative total, once rolled.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// assert_eq!(Fight::new(Environment::default(), Rules::default()).initiative(0), None);
    /// ```
    pub fn initiative(&self, id: CombatantId) -> Option<u32> {
        self.initiative.get(id).copied()
    }

    /// The current round (1 from the start; 0 before).
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// assert_eq!(Fight::new(Environment::default(), Rules::default()).round(), 0);
    /// ```
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Whose turn it is (none before the start).
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// assert_eq!(Fight::new(Environment::default(), Rules::default()).current(), None);
    /// ```
    pub fn current(&self) -> Option<CombatantId> {
        self.order.get(self.position).copied()
    }

    /// Teams with someone still standing (neither incapacitated nor escaped), increasing.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, Rules};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// f.add(Combatant::new(Character::from_stat_block("2 toughness")?, 4))?;
    /// f.add(Combatant::new(Character::new(), 5))?; // no toughness: incapacitated (L71)
    /// assert_eq!(f.standing_teams(), [4]);
    /// assert!(f.is_over());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn standing_teams(&self) -> Vec<u32> {
        let mut teams: Vec<u32> = self
            .combatants
            .iter()
            .filter(|c| c.is_standing())
            .map(|c| c.team)
            .collect();
        teams.sort_unstable();
        teams.dedup();
        teams
    }

    /// Whether fewer than two teams have someone standing.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, Rules};
    /// assert!(Fight::new(Environment::default(), Rules::default()).is_over());
    /// ```
    pub fn is_over(&self) -> bool {
        self.standing_teams().len() < 2
    }

    /// Moves a combatant into or out of water (L95).
    ///
    /// # Errors
    /// [`Error::NoSuchCombatant`]; [`Error::Environment`] where there is no water.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, Rules, Water};
    /// let env = Environment { water: Water::Shallow, ..Environment::default() };
    /// let mut f = Fight::new(env, Rules::default());
    /// let id = f.add(Combatant::new(Character::new(), 0))?;
    /// f.set_in_water(id, true)?;
    /// assert!(f.combatant(id)?.is_in_water());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn set_in_water(&mut self, id: CombatantId, in_water: bool) -> Result<(), Error> {
        self.combatant(id)?;
        if in_water && !self.environment.water.is_present() {
            return Err(Error::Environment("there is no water here (L95)"));
        }
        self.combatants[id].in_water = in_water;
        Ok(())
    }

    /// The exact attack `actor` would roll now: `kind` rolled with `with` against `target`,
    /// after `bonus` (engage or take cover), with the target's current defense (or the catch
    /// difficulty) and every situational modifier. Its [`Attack::hit_chance`] and
    /// [`Attack::damage_distribution`] are the exact odds of that attack in this fight.
    ///
    /// # Errors
    /// As [`Fight::take_turn`] for that attack.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, AttackKind, BonusAction, Character, Combatant, Environment, Fight, Rules};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// let a = f.add(Combatant::new(Character::from_stat_block("2 wrestling, 3 toughness")?, 0))?;
    /// let b = f.add(Combatant::new(Character::from_stat_block("4 fighting, 6 toughness")?, 1))?;
    /// let hold = f.attack_for(a, AttackKind::Hold, Some(Ability::Wrestling), b, Some(BonusAction::Engage))?;
    /// assert_eq!(hold.hit_chance(), 0.6); // 2 + 2 + die ≥ 13
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn attack_for(
        &self,
        actor: CombatantId,
        kind: AttackKind,
        with: Option<Ability>,
        target: CombatantId,
        bonus: Option<BonusAction>,
    ) -> Result<Attack, Error> {
        self.combatant(actor)?;
        build_attack(
            &self.combatants,
            &self.environment,
            &self.rules,
            actor,
            kind,
            with,
            target,
            bonus,
        )
    }

    fn current_ready(&self) -> Result<CombatantId, Error> {
        let a = self
            .current()
            .ok_or(Error::FightPhase("roll initiative first"))?;
        let status = self.combatants[a].status();
        if status != TurnStatus::Ready {
            return Err(Error::CannotAct { id: a, status });
        }
        Ok(a)
    }

    /// The pure form of a turn: the current combatant takes `turn`, using `dice` (the d20
    /// faces its rolls need, [`Action::dice_needed`], in order: for wrestling, in the order
    /// of `hold_first`; for blasting, in target order).
    ///
    /// # Errors
    /// [`Error::FightPhase`] before the start; [`Error::CannotAct`] when the current
    /// combatant is delayed, incapacitated or escaped (use [`Fight::pass`]);
    /// [`Error::Dice`], [`Error::Natural`]; and whatever the action breaks
    /// ([`Error::MissingAbility`], [`Error::NotAllowed`], [`Error::TargetSelf`],
    /// [`Error::TargetEscaped`], [`Error::OutOfReach`], [`Error::NotEvading`],
    /// [`Error::CannotCatch`], [`Error::CannotEscape`], [`Error::Environment`],
    /// [`Error::BonusAction`], [`Error::NotHealthy`], [`Error::BlastTargets`],
    /// [`Error::BlastRepeat`], [`Error::HealSelf`], [`Error::HealMinion`],
    /// [`Error::NothingToHeal`], [`Error::WithoutToughness`], [`Error::NoSuchCombatant`]).
    /// On an error nothing changes.
    ///
    /// ```
    /// use dice_scratch_rps::{Action, Character, Combatant, Environment, Error, Fight, Movement, Rules, Turn};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// let a = f.add(Combatant::new(Character::from_stat_block("2 quickness, 3 toughness")?, 0))?;
    /// let b = f.add(Combatant::new(Character::from_stat_block("3 toughness")?, 1))?;
    /// f.start(&[20, 1], &[])?;
    /// f.take_turn(Turn::new(Action::Evade { with: Some(Movement::Quickness) }), &[])?;
    /// assert_eq!(f.combatant(a)?.defense(), 14);
    /// f.pass()?; // b does nothing
    /// f.take_turn(Turn::new(Action::Escape), &[])?; // evaded last turn, not caught or hit
    /// assert!(f.combatant(a)?.has_escaped());
    /// assert_eq!(f.take_turn(Turn::new(Action::Shoot { target: a }), &[10]).unwrap_err(),
    ///     Error::TargetEscaped { id: a });
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn take_turn(&mut self, turn: Turn, dice: &[u32]) -> Result<TurnReport, Error> {
        let a = self.current_ready()?;
        let needed = turn.action.dice_needed();
        if dice.len() != needed {
            return Err(Error::Dice {
                needed,
                given: dice.len(),
            });
        }
        for &d in dice {
            check_natural(d)?;
        }
        let mut state = Vec::new();
        let mut rolls = Vec::new();
        let (delayed_self, escaped) = self.carry_out(a, &turn, dice, &mut state, &mut rolls)?;
        self.combatants = state;
        let report = TurnReport {
            actor: a,
            round: self.round,
            status: TurnStatus::Ready,
            turn: Some(turn),
            rolls,
            delayed_self,
            escaped,
        };
        self.advance();
        Ok(report)
    }

    /// The current combatant takes `turn` with its dice rolled with `rng`.
    ///
    /// # Errors
    /// As [`Fight::take_turn`] (apart from the dice). On an error the fight is unchanged
    /// (the RNG may have advanced).
    ///
    /// ```
    /// use dice_scratch_rps::{Action, Character, Combatant, Environment, Fight, Rules, Turn};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// f.add(Combatant::new(Character::from_stat_block("2 shooting, 4 toughness")?, 0))?;
    /// f.add(Combatant::new(Character::from_stat_block("4 toughness")?, 1))?;
    /// let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    /// f.start(&[12, 3], &[])?;
    /// let report = f.take_turn_rolled(Turn::new(Action::Shoot { target: 1 }), &mut rng)?;
    /// assert_eq!(report.rolls.len(), 1);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn take_turn_rolled<R: Rng + ?Sized>(
        &mut self,
        turn: Turn,
        rng: &mut R,
    ) -> Result<TurnReport, Error> {
        self.current_ready()?;
        let dice: Vec<u32> = (0..turn.action.dice_needed())
            .map(|_| D20.roll_face(rng))
            .collect();
        self.take_turn(turn, &dice)
    }

    /// The current combatant's turn passes: it does nothing (L41), or it cannot act
    /// (delayed, incapacitated or escaped) and its turn is skipped. A delay ends with this
    /// turn (L45, SC-A17).
    ///
    /// # Errors
    /// [`Error::FightPhase`] before the start.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, Rules, TurnStatus};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// f.add(Combatant::new(Character::new(), 0))?;
    /// f.start(&[5], &[])?;
    /// assert_eq!(f.pass()?.status, TurnStatus::Incapacitated);
    /// assert_eq!(f.round(), 2);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn pass(&mut self) -> Result<TurnReport, Error> {
        let a = self
            .current()
            .ok_or(Error::FightPhase("roll initiative first"))?;
        let status = self.combatants[a].status();
        let c = &mut self.combatants[a];
        c.begin_turn();
        c.delayed = false;
        let report = TurnReport {
            actor: a,
            round: self.round,
            status,
            turn: None,
            rolls: Vec::new(),
            delayed_self: false,
            escaped: false,
        };
        self.advance();
        Ok(report)
    }

    /// Every turn the current combatant may take now, as the rules allow it: each regular
    /// action on each other combatant still in the fight, alone or after engaging (before a
    /// close-range attack) or taking cover (before a long-range attack, where there is cover).
    /// Each is checked by the steps of [`Fight::take_turn`] on a copy of the combatants (the
    /// bonus action changes the rolls, not whether the turn may be taken, so the turn alone
    /// is checked for both). Empty when the current combatant cannot act (delayed,
    /// incapacitated, escaped) or before the start; otherwise it holds at least
    /// [`Action::Nothing`]. The bonus action "other" (a door, a button) changes no roll and
    /// is left out.
    ///
    /// ```
    /// use dice_scratch_rps::{Action, Character, Combatant, Environment, Fight, Rules, Turn};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// f.add(Combatant::new(Character::from_stat_block("2 shooting, 4 toughness")?, 0))?;
    /// f.add(Combatant::new(Character::from_stat_block("4 toughness")?, 1))?;
    /// f.start(&[12, 3], &[])?;
    /// let open = f.open_turns();
    /// assert!(open.contains(&Turn::new(Action::Shoot { target: 1 })));
    /// assert!(!open.contains(&Turn::new(Action::Escape))); // he has not evaded
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn open_turns(&self) -> Vec<Turn> {
        let Ok(me) = self.current_ready() else {
            return Vec::new();
        };
        let mut open = Vec::new();
        // Each turn is carried out by take_turn's own steps on one scratch copy of the
        // combatants, reused; an action needing an ability he lacks is refused by those
        // steps (L11), so it is not tried (nor even listed).
        let mut check = TurnCheck {
            fight: self,
            me,
            healthy: self.combatants[me].health() == Health::Healthy,
            state: Vec::with_capacity(self.combatants.len()),
            rolls: Vec::new(),
        };
        let has = |a: Ability| self.combatants[me].character.level(a) > 0;
        let targets =
            || (0..self.combatants.len()).filter(move |&t| t != me && !self.combatants[t].escaped);
        let movements = [
            None,
            Some(Movement::Acrobatics),
            Some(Movement::Quickness),
            Some(Movement::Flying),
            Some(Movement::Swimming),
        ];
        check.offer(Action::Nothing, &mut open);
        check.offer(Action::Escape, &mut open);
        for m in movements {
            check.offer(Action::Evade { with: m }, &mut open);
        }
        for t in targets() {
            for with in [None, Some(Ability::Fighting), Some(Ability::Wrestling)] {
                check.offer(Action::BasicAttack { target: t, with }, &mut open);
            }
            for with in [None, Some(Ability::Wrestling)] {
                check.offer(Action::Hold { target: t, with }, &mut open);
            }
            check.offer(Action::ThrowObject { target: t }, &mut open);
            for m in movements {
                check.offer(Action::Catch { target: t, with: m }, &mut open);
            }
            check.offer(Action::Shoot { target: t }, &mut open);
            check.offer(Action::Knockout { target: t }, &mut open);
            check.offer(Action::Heal { target: t }, &mut open);
            for u in targets() {
                check.offer(
                    Action::FightingAttacks {
                        first: t,
                        second: u,
                    },
                    &mut open,
                );
                for hold_first in [false, true] {
                    check.offer(
                        Action::WrestlingAttacks {
                            basic_attack: t,
                            hold: u,
                            hold_first,
                        },
                        &mut open,
                    );
                }
            }
        }
        // Blasting: 1 to 3 separate targets, in increasing order.
        if has(Ability::Blasting) {
            for i in targets() {
                check.offer(Action::Blast { targets: vec![i] }, &mut open);
                for j in targets().filter(|&j| j > i) {
                    check.offer(
                        Action::Blast {
                            targets: vec![i, j],
                        },
                        &mut open,
                    );
                    for k in targets().filter(|&k| k > j) {
                        check.offer(
                            Action::Blast {
                                targets: vec![i, j, k],
                            },
                            &mut open,
                        );
                    }
                }
            }
        }
        open
    }

    /// Carries out `turn` for `actor` with `dice` on `state`, a copy of the combatants made
    /// here (the fight itself does not change); the rolls are left in `rolls`. Returns
    /// (delayed himself, escaped). [`Fight::take_turn`] is these steps after its checks
    /// (whose turn it is, how many dice), then the move to the next turn.
    pub(crate) fn carry_out(
        &self,
        actor: CombatantId,
        turn: &Turn,
        dice: &[u32],
        state: &mut Vec<Combatant>,
        rolls: &mut Vec<RollReport>,
    ) -> Result<(bool, bool), Error> {
        state.clear();
        state.extend_from_slice(&self.combatants);
        state[actor].begin_turn();
        rolls.clear();
        let mut run = Run {
            state,
            env: &self.environment,
            rules: &self.rules,
            actor,
            bonus: turn.bonus,
            dice,
            used: 0,
            rolls: core::mem::take(rolls),
        };
        let result = run.turn(turn);
        *rolls = run.rolls;
        result
    }

    /// The same fight at `position` in the initiative `order`, its combatants in
    /// `conditions`, in round 1 (a fight resumed from a [`crate::FightState`]).
    pub(crate) fn resume(
        &self,
        order: &[CombatantId],
        conditions: &[Condition],
        position: usize,
    ) -> Fight {
        let mut f = self.clone();
        for (c, k) in f.combatants.iter_mut().zip(conditions) {
            c.restore(k);
        }
        f.initiative = Vec::new();
        f.order = order.to_vec();
        f.position = position;
        f.round = 1;
        f
    }

    /// Where in the initiative order the fight is (0 for the first).
    pub(crate) fn position(&self) -> usize {
        self.position
    }

    /// Shifts a combatant's defense by `delta` until his next turn: a what-if for tactics.
    pub(crate) fn shift_defense(&mut self, id: CombatantId, delta: i64) {
        if let Some(c) = self.combatants.get_mut(id) {
            c.defense_shift += delta;
        }
    }

    fn advance(&mut self) {
        self.position += 1;
        if self.position >= self.order.len() {
            self.position = 0;
            self.round += 1;
        }
    }
}

/// What [`Fight::open_turns`] needs to try a turn: the fight, whose turn it is, and scratch
/// room for the combatants and rolls of the try, reused.
struct TurnCheck<'a> {
    fight: &'a Fight,
    me: CombatantId,
    healthy: bool,
    state: Vec<Combatant>,
    rolls: Vec<RollReport>,
}

impl TurnCheck<'_> {
    /// Pushes `action` to `open` if the rules allow it now, then the same after engaging
    /// (before a close-range attack) or taking cover (before a long-range one, where there
    /// is cover): the bonus action changes the rolls, not whether the turn may be taken, so
    /// one try serves both.
    fn offer(&mut self, action: Action, open: &mut Vec<Turn>) {
        const ONES: [u32; BLASTING_TARGETS] = [1; BLASTING_TARGETS];
        let f = self.fight;
        let actor = &f.combatants[self.me];
        // Refused whatever the dice (L11, L47, L51, L81, L83): not tried.
        let refused = action
            .ability_needed()
            .is_some_and(|a| actor.character.level(a) == 0)
            || match &action {
                Action::Catch { target, .. } => f.combatants[*target].evasion.is_none(),
                Action::ThrowObject { .. } => !f.environment.throwable_object,
                Action::FightingAttacks { .. } | Action::WrestlingAttacks { .. } => !self.healthy,
                _ => false,
            };
        if refused {
            return;
        }
        let Some(dice) = ONES.get(..action.dice_needed()) else {
            return;
        };
        let bonus = match action.range() {
            Some(Range::Close) => Some(BonusAction::Engage),
            Some(Range::Long) if f.environment.cover => Some(BonusAction::TakeCover),
            Some(Range::Long) | None => None,
        };
        let turn = Turn::new(action);
        if f.carry_out(self.me, &turn, dice, &mut self.state, &mut self.rolls)
            .is_ok()
        {
            if let Some(b) = bonus {
                open.push(turn.clone());
                open.push(turn.with_bonus(b));
            } else {
                open.push(turn);
            }
        }
    }
}

/// Builds the attack `actor` makes on `target` in `state` (see [`Fight::attack_for`]).
#[allow(clippy::too_many_arguments)]
fn build_attack(
    state: &[Combatant],
    env: &Environment,
    rules: &Rules,
    actor: CombatantId,
    kind: AttackKind,
    with: Option<Ability>,
    target: CombatantId,
    bonus: Option<BonusAction>,
) -> Result<Attack, Error> {
    let me = &state[actor];
    let them = state.get(target).ok_or(Error::NoSuchCombatant {
        id: target,
        count: state.len(),
    })?;
    if target == actor {
        return Err(Error::TargetSelf);
    }
    if them.escaped {
        return Err(Error::TargetEscaped { id: target });
    }
    if kind == AttackKind::ThrowObject && !env.throwable_object {
        return Err(Error::Environment(
            "throw object needs a dangerous throwable object (L47)",
        ));
    }
    let level = with.map(|a| (a, me.character.level(a)));
    let difficulty = if kind == AttackKind::Catch {
        let evasion = them.evasion.ok_or(Error::NotEvading { id: target })?;
        let catcher = match with {
            None => None,
            Some(a) => Some(Movement::try_from(a).map_err(|_| Error::NotAllowed {
                attack: kind,
                ability: Some(a),
            })?),
        };
        if catcher == Some(Movement::Swimming) && !me.in_water {
            return Err(Error::Environment(
                "swimming is used in water: the catcher is not in water (L95)",
            ));
        }
        if !rules
            .catch
            .allows(catcher, evasion.ability, env, them.in_water)
        {
            return Err(Error::CannotCatch {
                catcher,
                evader: evasion.ability,
            });
        }
        if them.airborne && catcher.is_none() {
            return Err(Error::OutOfReach { id: target });
        }
        crate::character::DEFENSE_BASE + i64::from(evasion.level)
    } else {
        if kind.range() == Range::Close && them.airborne {
            return Err(Error::OutOfReach { id: target });
        }
        them.defense()
    };
    let modifier = match kind.range() {
        Range::Close => {
            let engage = if bonus == Some(BonusAction::Engage) {
                ENGAGE_ATTACK_BONUS
            } else {
                0
            };
            let water = if me.in_water {
                i64::from(me.character.level(Ability::Swimming))
            } else {
                0
            };
            engage + water
        }
        Range::Long => {
            if bonus == Some(BonusAction::TakeCover) {
                -TAKE_COVER_ATTACK_PENALTY
            } else {
                0
            }
        }
    };
    Attack::new(kind, level, difficulty, rules)?
        .with_modifier(modifier)?
        .with_attacker(me.health())
}

/// One turn being carried out on a copy of the combatants.
struct Run<'a> {
    state: &'a mut Vec<Combatant>,
    env: &'a Environment,
    rules: &'a Rules,
    actor: CombatantId,
    bonus: Option<BonusAction>,
    dice: &'a [u32],
    used: usize,
    rolls: Vec<RollReport>,
}

impl Run<'_> {
    fn next_die(&mut self) -> Result<u32, Error> {
        let d = self.dice.get(self.used).copied().ok_or(Error::Dice {
            needed: self.used + 1,
            given: self.dice.len(),
        })?;
        self.used += 1;
        Ok(d)
    }

    fn me(&self) -> &Combatant {
        &self.state[self.actor]
    }

    fn require(&self, ability: Ability) -> Result<u32, Error> {
        let level = self.me().character.level(ability);
        if level == 0 {
            return Err(Error::MissingAbility { ability });
        }
        Ok(level)
    }

    fn require_healthy(&self, what: &'static str) -> Result<(), Error> {
        if self.me().health() != Health::Healthy {
            return Err(Error::NotHealthy { what });
        }
        Ok(())
    }

    /// Carries out the turn; returns (delayed himself, escaped).
    fn turn(&mut self, turn: &Turn) -> Result<(bool, bool), Error> {
        match turn.bonus {
            Some(BonusAction::Engage) => {
                if turn.action.range() != Some(Range::Close) {
                    return Err(Error::BonusAction(
                        "engage is used before a close range attack (L55)",
                    ));
                }
                self.state[self.actor].defense_shift -= ENGAGE_DEFENSE_PENALTY;
            }
            Some(BonusAction::TakeCover) => {
                if turn.action.range() != Some(Range::Long) {
                    return Err(Error::BonusAction(
                        "take cover is used before a long range attack (L57)",
                    ));
                }
                if !self.env.cover {
                    return Err(Error::Environment(
                        "take cover needs some kind of cover (L57)",
                    ));
                }
                self.state[self.actor].defense_shift += TAKE_COVER_DEFENSE_BONUS;
            }
            Some(BonusAction::Other) | None => {}
        }
        let health = self.me().health();
        let mut attack_kind = None;
        let mut escaped = false;
        match &turn.action {
            Action::Nothing => {}
            Action::BasicAttack { target, with } => {
                self.attack(AttackKind::BasicAttack, *with, *target)?;
                attack_kind = Some(AttackKind::BasicAttack);
            }
            Action::Hold { target, with } => {
                self.attack(AttackKind::Hold, *with, *target)?;
                attack_kind = Some(AttackKind::Hold);
            }
            Action::ThrowObject { target } => {
                self.attack(AttackKind::ThrowObject, None, *target)?;
                attack_kind = Some(AttackKind::ThrowObject);
            }
            Action::Evade { with } => self.evade(*with)?,
            Action::Catch { target, with } => {
                self.attack(AttackKind::Catch, with.map(Movement::ability), *target)?;
                attack_kind = Some(AttackKind::Catch);
            }
            Action::Escape => {
                if !self.me().can_escape {
                    return Err(Error::CannotEscape);
                }
                self.state[self.actor].escaped = true;
                escaped = true;
            }
            Action::Shoot { target } => {
                self.attack(AttackKind::Shooting, Some(Ability::Shooting), *target)?;
                attack_kind = Some(AttackKind::Shooting);
            }
            Action::Blast { targets } => {
                if targets.is_empty() || targets.len() > BLASTING_TARGETS {
                    return Err(Error::BlastTargets {
                        count: targets.len(),
                    });
                }
                for (i, t) in targets.iter().enumerate() {
                    if targets[..i].contains(t) {
                        return Err(Error::BlastRepeat { id: *t });
                    }
                }
                for &t in targets {
                    self.attack(AttackKind::Blasting, Some(Ability::Blasting), t)?;
                }
                attack_kind = Some(AttackKind::Blasting);
            }
            Action::Knockout { target } => {
                self.attack(AttackKind::Knockout, Some(Ability::Knockout), *target)?;
                attack_kind = Some(AttackKind::Knockout);
            }
            Action::FightingAttacks { first, second } => {
                self.require(Ability::Fighting)?;
                self.require_healthy("two fighting attacks")?;
                self.attack(AttackKind::BasicAttack, Some(Ability::Fighting), *first)?;
                self.attack(AttackKind::BasicAttack, Some(Ability::Fighting), *second)?;
                attack_kind = Some(AttackKind::BasicAttack);
            }
            Action::WrestlingAttacks {
                basic_attack,
                hold,
                hold_first,
            } => {
                self.require(Ability::Wrestling)?;
                self.require_healthy("wrestling's attack and hold")?;
                let w = Some(Ability::Wrestling);
                if *hold_first {
                    self.attack(AttackKind::Hold, w, *hold)?;
                    self.attack(AttackKind::BasicAttack, w, *basic_attack)?;
                } else {
                    self.attack(AttackKind::BasicAttack, w, *basic_attack)?;
                    self.attack(AttackKind::Hold, w, *hold)?;
                }
                attack_kind = Some(AttackKind::BasicAttack);
            }
            Action::Heal { target } => self.heal(*target)?,
        }
        let delayed_self = attack_kind.is_some_and(|k| k.delays_attacker(health));
        let flies = self.me().flies(self.env);
        let me = &mut self.state[self.actor];
        if delayed_self {
            me.delayed = true;
        }
        if flies
            && (matches!(turn.action, Action::Evade { .. })
                || turn.action.range() == Some(Range::Long))
        {
            me.airborne = true;
        }
        Ok((delayed_self, escaped))
    }

    fn attack(
        &mut self,
        kind: AttackKind,
        with: Option<Ability>,
        target: CombatantId,
    ) -> Result<(), Error> {
        let attack = build_attack(
            self.state, self.env, self.rules, self.actor, kind, with, target, self.bonus,
        )?;
        let natural = self.next_die()?;
        let result = attack.resolve(natural)?;
        let t = &mut self.state[target];
        let mut delayed = false;
        if result.hit() {
            t.hp = after_damage(t.hp, result.damage);
            t.caught_or_hit = true;
            if kind.delays_target() {
                t.delayed = true;
                delayed = true;
            }
            if kind == AttackKind::Catch {
                t.evasion = None;
            }
        }
        self.rolls.push(RollReport {
            purpose: RollPurpose::Attack(kind),
            target,
            natural,
            total: i64::from(natural) + attack.d20().total_modifier(),
            difficulty: attack.d20().difficulty(),
            outcome: result.outcome,
            damage: result.damage,
            hit_points: t.hp,
            health: t.health(),
            delayed,
        });
        Ok(())
    }

    fn evade(&mut self, with: Option<Movement>) -> Result<(), Error> {
        let level = match with {
            None => 0,
            Some(m) => {
                let level = self.require(m.ability())?;
                if m == Movement::Flying && !self.env.room_to_fly {
                    return Err(Error::Environment(
                        "flying can only be used where there is room to fly (L93)",
                    ));
                }
                if m == Movement::Swimming && !self.me().in_water {
                    return Err(Error::Environment("swimming is used in water (L95)"));
                }
                level
            }
        };
        self.state[self.actor].evasion = Some(Evasion {
            ability: with,
            level,
        });
        Ok(())
    }

    fn heal(&mut self, target: CombatantId) -> Result<(), Error> {
        let level = self.require(Ability::Healing)?;
        let t = self.state.get(target).ok_or(Error::NoSuchCombatant {
            id: target,
            count: self.state.len(),
        })?;
        if target == self.actor {
            return Err(Error::HealSelf);
        }
        if t.escaped {
            return Err(Error::TargetEscaped { id: target });
        }
        if t.minion {
            return Err(Error::HealMinion);
        }
        let toughness = t.character.toughness();
        let treatment = Treatment::needed(t.hp, toughness)?;
        let roll = crate::roll::D20Roll::ability(level, HEALING_DIFFICULTY)?;
        let natural = self.next_die()?;
        let outcome = roll.resolve(natural)?;
        let t = &mut self.state[target];
        if outcome.is_success() {
            t.hp = treatment.hit_points_after(toughness);
        }
        self.rolls.push(RollReport {
            purpose: RollPurpose::Healing(treatment),
            target,
            natural,
            total: i64::from(natural) + roll.total_modifier(),
            difficulty: HEALING_DIFFICULTY,
            outcome,
            damage: 0,
            hit_points: t.hp,
            health: t.health(),
            delayed: false,
        });
        Ok(())
    }
}
