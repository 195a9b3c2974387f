//! Characters (L7–L11, L29–L35, L69–L71): ability levels, toughness, tgh/2, defense, hit
//! points and health.

use core::fmt;
use core::str::FromStr;

use crate::MAX_LEVEL;
use crate::ability::{Ability, Movement, Vehicle};
use crate::error::Error;
use crate::roll::D20Roll;

/// The base of defense (L29) and of catch difficulty (L51).
pub const DEFENSE_BASE: i64 = 10;

/// Tgh/2: half of toughness, rounded down (L33).
///
/// ```
/// use dice_scratch_rps::character::tgh_half;
/// assert_eq!(tgh_half(7), 3); // L35
/// assert_eq!(tgh_half(1), 0);
/// ```
pub const fn tgh_half(toughness: u32) -> u32 {
    toughness / 2
}

/// Defense from its parts (L29): 10 plus the level of the best defensive ability or 10 plus
/// tgh/2, whichever is greater.
///
/// ```
/// use dice_scratch_rps::character::defense;
/// assert_eq!(defense(3, 2), 13); // L31
/// assert_eq!(defense(1, 2), 12); // Flipfire, L125 and L141
/// ```
pub const fn defense(best_defensive_level: u32, tgh_half: u32) -> i64 {
    let best = if best_defensive_level > tgh_half {
        best_defensive_level
    } else {
        tgh_half
    };
    DEFENSE_BASE + best as i64
}

/// Healthy, injured or incapacitated (L33, SC-R8).
///
/// Ordered from worst to best: `Incapacitated < Injured < Healthy`. Always computed from hit
/// points (SC-A5), so a revived character with toughness 1 (tgh/2 = 0) is healthy at 1 hit
/// point.
///
/// ```
/// use dice_scratch_rps::Health;
/// // L35: 7 toughness, tgh/2 3.
/// assert_eq!(Health::of(4, 7), Health::Healthy);
/// assert_eq!(Health::of(3, 7), Health::Injured);
/// assert_eq!(Health::of(0, 7), Health::Incapacitated);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Health {
    /// Zero hit points: cannot perform actions (L33).
    Incapacitated,
    /// At least one hit point but no more than tgh/2 (L33).
    Injured,
    /// More hit points than tgh/2 (L33).
    Healthy,
}

impl Health {
    /// The state of a character with `hp` hit points and `toughness` (L33).
    ///
    /// ```
    /// use dice_scratch_rps::Health;
    /// assert_eq!(Health::of(1, 1), Health::Healthy); // SC-A5
    /// ```
    pub const fn of(hp: u32, toughness: u32) -> Health {
        if hp == 0 {
            Health::Incapacitated
        } else if hp > tgh_half(toughness) {
            Health::Healthy
        } else {
            Health::Injured
        }
    }

    /// Whether the character can perform actions (not incapacitated, L33).
    ///
    /// ```
    /// assert!(!dice_scratch_rps::Health::Incapacitated.can_act());
    /// ```
    pub const fn can_act(self) -> bool {
        !matches!(self, Health::Incapacitated)
    }
}

impl fmt::Display for Health {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Health::Incapacitated => "incapacitated",
            Health::Injured => "injured",
            Health::Healthy => "healthy",
        })
    }
}

/// Hit points after `damage` (L37): each point of damage removes one hit point, never below
/// zero (L33).
///
/// ```
/// use dice_scratch_rps::character::after_damage;
/// assert_eq!(after_damage(6, 1), 5);
/// assert_eq!(after_damage(2, 5), 0);
/// ```
pub const fn after_damage(hp: u32, damage: u32) -> u32 {
    hp.saturating_sub(damage)
}

/// A character's stat block: a level for each ability (L11), plus any temporary
/// craftsmanship bonuses (L101).
///
/// Every derived value follows the rulebook: maximum hit points = toughness (L33, L71),
/// tgh/2 = toughness / 2 rounded down (L33), defense = 10 + the greater of the best
/// defensive ability and tgh/2 (L29). A character prints as the rulebook prints its stat
/// blocks, and [`Character::from_stat_block`] reads one back, checking the tgh/2 and
/// defense it states.
///
/// ```
/// use dice_scratch_rps::{Ability, Character};
/// // L9: "Zimzambamalam (8 shooting, 2 toughness, 1 tgh/2, 11 defense)".
/// let zim = Character::from_stat_block("8 shooting, 2 toughness, 1 tgh/2, 11 defense")?;
/// assert_eq!(zim.level(Ability::Shooting), 8);
/// assert_eq!(zim.max_hit_points(), 2);
/// assert_eq!(zim.defense(), 11);
/// assert_eq!(zim.to_string(), "8 shooting, 2 toughness, 1 tgh/2, 11 defense");
///
/// let built = Character::new().with(Ability::Shooting, 8)?.with(Ability::Toughness, 2)?;
/// assert_eq!(built, zim);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Character {
    levels: [u32; Ability::COUNT],
    /// Bit `i`: ability `i` carries a temporary +1 (L101).
    bonuses: u32,
}

impl Character {
    /// A character with no abilities (toughness 0: cannot act in combat, L71).
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::Character::new().total_levels(), 0);
    /// ```
    pub const fn new() -> Character {
        Character {
            levels: [0; Ability::COUNT],
            bonuses: 0,
        }
    }

    /// The same character with `ability` at `level` (replacing its level).
    ///
    /// # Errors
    /// [`Error::Level`] above [`MAX_LEVEL`].
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// let c = Character::new().with(Ability::Toughness, 3)?;
    /// assert_eq!(c.toughness(), 3);
    /// assert!(Character::new().with(Ability::Toughness, 1_000_000).is_err());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with(mut self, ability: Ability, level: u32) -> Result<Character, Error> {
        if level > MAX_LEVEL {
            return Err(Error::Level {
                ability,
                level,
                max: MAX_LEVEL,
            });
        }
        self.levels[ability.index()] = level;
        if level == 0 {
            self.bonuses &= !(1 << ability.index());
        }
        Ok(self)
    }

    /// A character from `(ability, level)` pairs, each ability at most once.
    ///
    /// # Errors
    /// [`Error::DuplicateAbility`]; [`Error::Level`] above [`MAX_LEVEL`].
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// let thug = Character::from_levels([(Ability::Toughness, 2)])?; // L105
    /// assert_eq!(thug.defense(), 11);
    /// assert!(Character::from_levels([(Ability::Toughness, 2), (Ability::Toughness, 1)]).is_err());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn from_levels<I: IntoIterator<Item = (Ability, u32)>>(
        levels: I,
    ) -> Result<Character, Error> {
        let mut c = Character::new();
        let mut seen = [false; Ability::COUNT];
        for (ability, level) in levels {
            if seen[ability.index()] {
                return Err(Error::DuplicateAbility { ability });
            }
            seen[ability.index()] = true;
            c = c.with(ability, level)?;
        }
        Ok(c)
    }

    /// Reads a rulebook stat block such as `"2 shooting, 1 healing, 2 fighting,
    /// 1 acrobatics, 4 toughness, 2 tgh/2, 12 defense"` (L125). Entries are
    /// `<level> <ability>`; `<n> tgh/2` and `<n> defense` entries are checked against what
    /// the abilities give.
    ///
    /// # Errors
    /// [`Error::StatBlockSyntax`], [`Error::UnknownAbility`], [`Error::DuplicateAbility`],
    /// [`Error::Level`], or [`Error::StatBlockMismatch`] when the stated tgh/2 or defense is
    /// not what the rules give.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Error};
    /// let flipfire = Character::from_stat_block(
    ///     "2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness, 2 tgh/2, 12 defense",
    /// )?;
    /// assert_eq!(flipfire.defense(), 12);
    /// let wrong = Character::from_stat_block("1 acrobatics, 4 toughness, 11 defense");
    /// assert_eq!(wrong, Err(Error::StatBlockMismatch { stat: "defense", written: 11, derived: 12 }));
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn from_stat_block(text: &str) -> Result<Character, Error> {
        let mut levels = Vec::new();
        let mut stated: Vec<(&'static str, i64)> = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let syntax = || Error::StatBlockSyntax {
                item: item.to_owned(),
            };
            let (number, word) = item.split_once(char::is_whitespace).ok_or_else(syntax)?;
            let n: u32 = number.trim().parse().map_err(|_| syntax())?;
            match word.trim() {
                "tgh/2" => stated.push(("tgh/2", i64::from(n))),
                "defense" => stated.push(("defense", i64::from(n))),
                name => levels.push((name.parse::<Ability>()?, n)),
            }
        }
        let c = Character::from_levels(levels)?;
        for (stat, written) in stated {
            let derived = match stat {
                "tgh/2" => i64::from(c.tgh_half()),
                _ => c.defense(),
            };
            if written != derived {
                return Err(Error::StatBlockMismatch {
                    stat,
                    written,
                    derived,
                });
            }
        }
        Ok(c)
    }

    /// The level of `ability`, including a temporary craftsmanship bonus (L101).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// let c = Character::new().with(Ability::Quickness, 2)?;
    /// assert_eq!(c.level(Ability::Quickness), 2);
    /// assert_eq!(c.level(Ability::Flying), 0);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn level(&self, ability: Ability) -> u32 {
        self.levels[ability.index()] + self.has_bonus(ability) as u32
    }

    /// The level bought with character points, without temporary bonuses.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// let c = Character::new().with(Ability::Fighting, 2)?.with_temporary_bonus(Ability::Fighting)?;
    /// assert_eq!((c.base_level(Ability::Fighting), c.level(Ability::Fighting)), (2, 3));
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn base_level(&self, ability: Ability) -> u32 {
        self.levels[ability.index()]
    }

    /// Whether the character has the ability: at least one level (L11).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// assert!(!Character::new().has(Ability::Swimming));
    /// ```
    pub const fn has(&self, ability: Ability) -> bool {
        self.level(ability) >= 1
    }

    /// Whether `ability` carries a temporary +1 (L101).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// assert!(!Character::new().has_bonus(Ability::Shooting));
    /// ```
    pub const fn has_bonus(&self, ability: Ability) -> bool {
        self.bonuses & (1 << ability.index()) != 0
    }

    /// The same character with a temporary +1 on `ability` (L101). Use
    /// [`crate::Party::give_bonus`] to track who gave it.
    ///
    /// # Errors
    /// [`Error::BonusOnMissingAbility`] below level 1; [`Error::BonusAlreadyGiven`] when
    /// the ability already has one.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// let c = Character::new().with(Ability::Shooting, 2)?;
    /// assert_eq!(c.with_temporary_bonus(Ability::Shooting)?.level(Ability::Shooting), 3);
    /// assert!(c.with_temporary_bonus(Ability::Healing).is_err());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_temporary_bonus(mut self, ability: Ability) -> Result<Character, Error> {
        if self.base_level(ability) < 1 {
            return Err(Error::BonusOnMissingAbility { ability });
        }
        if self.has_bonus(ability) {
            return Err(Error::BonusAlreadyGiven { ability });
        }
        self.bonuses |= 1 << ability.index();
        Ok(self)
    }

    /// The same character without the temporary bonus on `ability` (if any).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// let c = Character::new().with(Ability::Shooting, 2)?.with_temporary_bonus(Ability::Shooting)?;
    /// assert_eq!(c.without_temporary_bonus(Ability::Shooting).level(Ability::Shooting), 2);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn without_temporary_bonus(mut self, ability: Ability) -> Character {
        self.bonuses &= !(1 << ability.index());
        self
    }

    /// Every ability with at least one level, and its level, in stat-block order.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// let c = Character::from_stat_block("4 command, 3 toughness")?;
    /// let v: Vec<_> = c.abilities().collect();
    /// assert_eq!(v, [(Ability::Command, 4), (Ability::Toughness, 3)]);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn abilities(&self) -> impl Iterator<Item = (Ability, u32)> + '_ {
        Ability::ALL
            .into_iter()
            .map(|a| (a, self.level(a)))
            .filter(|&(_, l)| l > 0)
    }

    /// The ability levels bought: the character points spent (L63), without temporary
    /// bonuses.
    ///
    /// ```
    /// use dice_scratch_rps::Character;
    /// let c = Character::from_stat_block("2 piloting, 2 wrestling, 3 stalking, 3 toughness")?;
    /// assert_eq!(c.total_levels(), 10); // L123
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn total_levels(&self) -> u32 {
        self.levels.iter().sum()
    }

    /// Toughness: the maximum hit points (L33, L71).
    ///
    /// ```
    /// let c = dice_scratch_rps::Character::from_stat_block("6 toughness")?;
    /// assert_eq!(c.toughness(), 6);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn toughness(&self) -> u32 {
        self.level(Ability::Toughness)
    }

    /// Maximum hit points: the toughness level (L33).
    ///
    /// ```
    /// let c = dice_scratch_rps::Character::from_stat_block("4 toughness")?;
    /// assert_eq!(c.max_hit_points(), 4);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn max_hit_points(&self) -> u32 {
        self.toughness()
    }

    /// Tgh/2: half the toughness, rounded down (L33).
    ///
    /// ```
    /// let c = dice_scratch_rps::Character::from_stat_block("7 toughness")?;
    /// assert_eq!(c.tgh_half(), 3); // L35
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn tgh_half(&self) -> u32 {
        tgh_half(self.toughness())
    }

    /// The best defensive ability (stalking, acrobatics, quickness, flying) and its level,
    /// if the character has one (L29, L87–L93). On equal levels the first in stat-block
    /// order.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character};
    /// let c = Character::from_stat_block("1 acrobatics, 3 stalking, 3 toughness")?;
    /// assert_eq!(c.best_defensive_ability(), Some((Ability::Stalking, 3)));
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn best_defensive_ability(&self) -> Option<(Ability, u32)> {
        self.abilities()
            .filter(|(a, _)| a.is_defensive())
            .fold(None, |best, (a, l)| match best {
                Some((_, bl)) if bl >= l => best,
                _ => Some((a, l)),
            })
    }

    /// Defense: 10 + the greater of the best defensive ability's level and tgh/2 (L29).
    /// Temporary changes (evade, engage, take cover, water) are the fight's
    /// ([`crate::Combatant::defense`]).
    ///
    /// ```
    /// let c = dice_scratch_rps::Character::from_stat_block("1 acrobatics, 4 toughness")?;
    /// assert_eq!(c.defense(), 12); // tgh/2 2 beats acrobatics 1 (L125, L141)
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn defense(&self) -> i64 {
        self.defense_where(true)
    }

    /// Defense (L29) in a place with or without room to fly: flying "can only be used where
    /// there is room to fly" (L93), so without room its level is not a defensive ability
    /// there, and the best of the others (or tgh/2) counts.
    ///
    /// ```
    /// let c = dice_scratch_rps::Character::from_stat_block("3 flying, 1 quickness, 2 toughness")?;
    /// assert_eq!(c.defense_where(true), 13);
    /// assert_eq!(c.defense_where(false), 11); // indoors: quickness 1
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn defense_where(&self, room_to_fly: bool) -> i64 {
        let best = self
            .abilities()
            .filter(|&(a, _)| a.is_defensive() && (room_to_fly || a != Ability::Flying))
            .map(|(_, l)| l)
            .max()
            .unwrap_or(0);
        defense(best, self.tgh_half())
    }

    /// The movement abilities the character has, with their levels (L49).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Movement};
    /// let c = Character::from_stat_block("1 acrobatics, 2 swimming, 4 toughness")?;
    /// let v: Vec<_> = c.movement_abilities().collect();
    /// assert_eq!(v, [(Movement::Acrobatics, 1), (Movement::Swimming, 2)]);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn movement_abilities(&self) -> impl Iterator<Item = (Movement, u32)> + '_ {
        Movement::ALL
            .into_iter()
            .map(|m| (m, self.level(m.ability())))
            .filter(|&(_, l)| l > 0)
    }

    /// The health of this character at `hp` hit points (L33).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Health};
    /// let c = Character::from_stat_block("3 toughness")?;
    /// assert_eq!(c.health(1), Health::Injured); // L135
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn health(&self, hp: u32) -> Health {
        Health::of(hp, self.toughness())
    }

    /// Whether the character can operate `vehicle` (L109–L117: at least one level of its
    /// ability).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Vehicle};
    /// let c = Character::from_stat_block("2 piloting, 3 toughness")?;
    /// assert!(c.can_operate(Vehicle::AirOrSpace));
    /// assert!(!c.can_operate(Vehicle::Ground));
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn can_operate(&self, vehicle: Vehicle) -> bool {
        self.has(vehicle.ability())
    }

    /// An ability roll with this character's level of `ability` against `difficulty` (L17).
    /// A character without the ability cannot succeed (L17, SC-A6).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a difficulty beyond ±[`crate::MAX_DIFFICULTY`].
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character, Outcome};
    /// let c = Character::from_stat_block("3 craftsmanship, 2 toughness")?;
    /// let r = c.ability_roll(Ability::Craftsmanship, 15)?;
    /// assert_eq!(r.resolve(12)?, Outcome::Success); // L17
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn ability_roll(&self, ability: Ability, difficulty: i64) -> Result<D20Roll, Error> {
        D20Roll::ability(self.level(ability), difficulty)
    }
}

impl fmt::Display for Character {
    /// The rulebook's stat block: `2 piloting, 2 wrestling, 3 stalking, 3 toughness,
    /// 1 tgh/2, 13 defense` (L123). Levels include temporary bonuses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (a, l) in self.abilities().filter(|(a, _)| *a != Ability::Toughness) {
            write!(f, "{l} {a}, ")?;
        }
        write!(
            f,
            "{} toughness, {} tgh/2, {} defense",
            self.toughness(),
            self.tgh_half(),
            self.defense()
        )
    }
}

impl FromStr for Character {
    type Err = Error;
    /// [`Character::from_stat_block`].
    fn from_str(s: &str) -> Result<Character, Error> {
        Character::from_stat_block(s)
    }
}
