//! Character creation by character points with a maximum level (L61–L67, SC-R18), and
//! command's minions (L103–L107, SC-R32).

use core::fmt;

use crate::MAX_LEVEL;
use crate::ability::Ability;
use crate::character::Character;
use crate::error::Error;

/// Character points and a maximum level: the limits of character creation (L63–L67).
///
/// Each CP buys one ability level; no ability may exceed the maximum level (L63). Every CP is
/// distributed: L65's "would have to divide their CP between at least three abilities" only
/// holds if none is left over. Every character has toughness (L61). Temporary craftsmanship
/// bonuses are not bought and are not counted.
///
/// The check is opt-in (SC-A3): villains such as Breakhelm X-19 (15 CP, toughness 6, L121)
/// are non-standard builds.
///
/// ```
/// use dice_scratch_rps::{Character, CharacterPoints};
/// // L63: Chokestar, 10 CP and a maximum level of 4 (L123's stat block, SC-A2).
/// let chokestar = Character::from_stat_block("2 piloting, 2 wrestling, 3 stalking, 3 toughness")?;
/// let build = CharacterPoints::AVERAGE.check(&chokestar)?;
/// assert_eq!(build.spent, 10);
/// assert_eq!(CharacterPoints::ABOVE_AVERAGE.min_abilities(), 3); // L65
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CharacterPoints {
    cp: u32,
    max_level: u32,
}

impl CharacterPoints {
    /// 10 CP and a maximum level of 4: "good limits for making characters that are like
    /// average people" (L63).
    pub const AVERAGE: CharacterPoints = CharacterPoints {
        cp: 10,
        max_level: 4,
    };

    /// 12 CP and a maximum level of 5: "slightly more powerful than the average person"
    /// (L65).
    pub const ABOVE_AVERAGE: CharacterPoints = CharacterPoints {
        cp: 12,
        max_level: 5,
    };

    /// `cp` character points with a maximum level of `max_level` (L63, L67: they depend on
    /// the setting).
    ///
    /// # Errors
    /// [`Error::CharacterPoints`] unless `cp >= 1` and `1 <= max_level <= MAX_LEVEL`.
    ///
    /// ```
    /// use dice_scratch_rps::CharacterPoints;
    /// assert_eq!(CharacterPoints::new(12, 5)?, CharacterPoints::ABOVE_AVERAGE);
    /// assert!(CharacterPoints::new(10, 0).is_err());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn new(cp: u32, max_level: u32) -> Result<CharacterPoints, Error> {
        if cp == 0 || max_level == 0 || max_level > MAX_LEVEL {
            return Err(Error::CharacterPoints {
                cp,
                max_level,
                max: MAX_LEVEL,
            });
        }
        Ok(CharacterPoints { cp, max_level })
    }

    /// The character points.
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::CharacterPoints::AVERAGE.cp(), 10);
    /// ```
    pub const fn cp(&self) -> u32 {
        self.cp
    }

    /// The maximum level of any ability.
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::CharacterPoints::AVERAGE.max_level(), 4);
    /// ```
    pub const fn max_level(&self) -> u32 {
        self.max_level
    }

    /// The fewest abilities a build must spread its CP over: `ceil(cp / max_level)` (L65).
    ///
    /// ```
    /// use dice_scratch_rps::CharacterPoints;
    /// assert_eq!(CharacterPoints::AVERAGE.min_abilities(), 3);
    /// ```
    pub const fn min_abilities(&self) -> u32 {
        self.cp.div_ceil(self.max_level)
    }

    /// Checks a build: every CP spent, no ability above the maximum level, toughness
    /// present (L61–L65).
    ///
    /// # Errors
    /// [`Error::OverBudget`], [`Error::Unspent`], [`Error::AboveMaximumLevel`] (the first
    /// ability in stat-block order), [`Error::NoToughness`].
    ///
    /// ```
    /// use dice_scratch_rps::{Character, CharacterPoints, Error};
    /// // L121: Breakhelm X-19 is not a 10 CP / maximum 4 build (SC-A3).
    /// let breakhelm = Character::from_stat_block("1 piloting, 4 shooting, 4 fighting, 6 toughness")?;
    /// assert_eq!(
    ///     CharacterPoints::AVERAGE.check(&breakhelm),
    ///     Err(Error::OverBudget { spent: 15, cp: 10 })
    /// );
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn check(&self, character: &Character) -> Result<Build, Error> {
        let spent = character.total_levels();
        if spent > self.cp {
            return Err(Error::OverBudget { spent, cp: self.cp });
        }
        if let Some(ability) = Ability::ALL
            .into_iter()
            .find(|&a| character.base_level(a) > self.max_level)
        {
            return Err(Error::AboveMaximumLevel {
                ability,
                level: character.base_level(ability),
                max: self.max_level,
            });
        }
        if character.base_level(Ability::Toughness) == 0 {
            return Err(Error::NoToughness);
        }
        if spent < self.cp {
            return Err(Error::Unspent { spent, cp: self.cp });
        }
        let abilities = Ability::ALL
            .into_iter()
            .filter(|&a| character.base_level(a) > 0)
            .count() as u32;
        Ok(Build {
            spent,
            abilities,
            limits: *self,
        })
    }
}

impl fmt::Display for CharacterPoints {
    /// `10 CP, maximum level 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} CP, maximum level {}", self.cp, self.max_level)
    }
}

/// A build that passed [`CharacterPoints::check`].
///
/// ```
/// use dice_scratch_rps::{Character, CharacterPoints};
/// let c = Character::from_stat_block("2 shooting, 1 stalking, 4 command, 3 toughness")?;
/// let b = CharacterPoints::AVERAGE.check(&c)?; // The Boss, L105
/// assert_eq!((b.spent, b.abilities), (10, 4));
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Build {
    /// CP spent (every one, once checked).
    pub spent: u32,
    /// How many abilities have at least one level.
    pub abilities: u32,
    /// The limits checked against.
    pub limits: CharacterPoints,
}

impl fmt::Display for Build {
    /// `10 CP over 4 abilities (10 CP, maximum level 4)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} CP over {} abilities ({})",
            self.spent, self.abilities, self.limits
        )
    }
}

/// Checks command's minions (L103): one or two followers whose total ability levels are no
/// greater than the commander's command level, none with command ability. Nothing else is
/// required of a minion (SC-A18: the text sets no minimum and does not require toughness).
///
/// # Errors
/// [`Error::MissingAbility`] without command; [`Error::MinionCount`] unless 1 or 2 minions;
/// [`Error::MinionWithCommand`]; [`Error::MinionLevels`].
///
/// ```
/// use dice_scratch_rps::{Character, creation::check_minions};
/// // L105: the Boss (4 command) and a couple of thugs (2 toughness each).
/// let boss = Character::from_stat_block("2 shooting, 1 stalking, 4 command, 3 toughness")?;
/// let thug = Character::from_stat_block("2 toughness, 1 tgh/2, 11 defense")?;
/// check_minions(&boss, &[thug, thug])?;
/// assert!(check_minions(&boss, &[thug, thug, thug]).is_err());
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
pub fn check_minions(commander: &Character, minions: &[Character]) -> Result<(), Error> {
    let command = commander.level(Ability::Command);
    if command == 0 {
        return Err(Error::MissingAbility {
            ability: Ability::Command,
        });
    }
    if !(1..=2).contains(&minions.len()) {
        return Err(Error::MinionCount {
            count: minions.len(),
        });
    }
    if let Some(index) = minions.iter().position(|m| m.has(Ability::Command)) {
        return Err(Error::MinionWithCommand { index });
    }
    let total: u32 = minions.iter().map(Character::total_levels).sum();
    if total > command {
        return Err(Error::MinionLevels { total, command });
    }
    Ok(())
}
