//! The level ladder (SB-R1, L45–57): levels, bonuses, targets, and "no rating".

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// A level on the ladder of L50–57, lowest first: characteristics and abilities have a level
/// (which gives a [bonus](Level::bonus)), and so does every task (which gives a
/// [target](Level::target)).
///
/// | Level | Bonus | Target |
/// |---|---:|---:|
/// | Very Low / Awful | −3 | 3 |
/// | Low / Poor | −1 | 5 |
/// | Average | 0 | 7 |
/// | High / Good | +2 | 9 |
/// | Very High / Great | +4 | 11 |
/// | Awesome | +6 | 13 |
///
/// ```
/// use dice_shapers_and_bots::Level;
/// assert_eq!(Level::High.bonus(), 2);
/// assert_eq!(Level::Awesome.target(), 13);
/// assert!(Level::Low < Level::Average);
/// assert_eq!("Great".parse::<Level>()?, Level::VeryHigh);
/// assert_eq!(Level::VeryLow.to_string(), "Very Low");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Level {
    /// Very Low (also "Awful"): bonus −3, target 3.
    VeryLow,
    /// Low (also "Poor"): bonus −1, target 5.
    Low,
    /// Average: bonus 0, target 7. Every characteristic's default (L134–135).
    Average,
    /// High (also "Good"): bonus +2, target 9.
    High,
    /// Very High (also "Great"): bonus +4, target 11. The cap for raising a characteristic
    /// at creation (L202).
    VeryHigh,
    /// Awesome: bonus +6, target 13.
    Awesome,
}

impl Level {
    /// Every level, lowest first.
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// assert_eq!(Level::ALL.len(), 6);
    /// assert!(Level::ALL.windows(2).all(|w| w[0] < w[1]));
    /// ```
    pub const ALL: [Level; 6] = [
        Level::VeryLow,
        Level::Low,
        Level::Average,
        Level::High,
        Level::VeryHigh,
        Level::Awesome,
    ];

    /// The position on the ladder: 0 for Very Low … 5 for Awesome.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Level::Average.index(), 2);
    /// ```
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The level at ladder position `index` (0 for Very Low … 5 for Awesome).
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// assert_eq!(Level::from_index(5), Some(Level::Awesome));
    /// assert_eq!(Level::from_index(6), None);
    /// ```
    pub const fn from_index(index: u8) -> Option<Level> {
        match index {
            0 => Some(Level::VeryLow),
            1 => Some(Level::Low),
            2 => Some(Level::Average),
            3 => Some(Level::High),
            4 => Some(Level::VeryHigh),
            5 => Some(Level::Awesome),
            _ => None,
        }
    }

    /// The bonus a character with this level adds to two dice (L50–57, L71–72). Not linear:
    /// the steps are +2, +1, +2, +2, +2.
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// let bonuses: Vec<i32> = Level::ALL.iter().map(|l| l.bonus()).collect();
    /// assert_eq!(bonuses, [-3, -1, 0, 2, 4, 6]);
    /// ```
    pub const fn bonus(self) -> i32 {
        match self {
            Level::VeryLow => -3,
            Level::Low => -1,
            Level::Average => 0,
            Level::High => 2,
            Level::VeryHigh => 4,
            Level::Awesome => 6,
        }
    }

    /// The target of a task of this level (L50–57): `3 + 2 × index`. A challenge succeeds
    /// above it and succeeds with consequences exactly on it (L73–78).
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// let targets: Vec<i32> = Level::ALL.iter().map(|l| l.target()).collect();
    /// assert_eq!(targets, [3, 5, 7, 9, 11, 13]);
    /// ```
    pub const fn target(self) -> i32 {
        3 + 2 * self as i32
    }

    /// Steps from Average: −2 for Very Low … +3 for Awesome. Hit points move one point per
    /// step of Fitness (L374–375).
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// assert_eq!(Level::VeryHigh.steps_from_average(), 2);
    /// assert_eq!(Level::Low.steps_from_average(), -1);
    /// ```
    pub const fn steps_from_average(self) -> i32 {
        self as i32 - Level::Average as i32
    }

    /// The level `steps` higher, or `None` past Awesome.
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// assert_eq!(Level::Average.raised(2), Some(Level::VeryHigh));
    /// assert_eq!(Level::VeryHigh.raised(2), None);
    /// ```
    pub const fn raised(self, steps: u8) -> Option<Level> {
        match (self as u8).checked_add(steps) {
            Some(i) => Level::from_index(i),
            None => None,
        }
    }

    /// The level `steps` lower, or `None` below Very Low.
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// assert_eq!(Level::Average.lowered(1), Some(Level::Low));
    /// assert_eq!(Level::VeryLow.lowered(1), None);
    /// ```
    pub const fn lowered(self, steps: u8) -> Option<Level> {
        match (self as u8).checked_sub(steps) {
            Some(i) => Level::from_index(i),
            None => None,
        }
    }

    /// The name the ladder gives (L52–57): "Very Low" … "Awesome".
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Level::VeryHigh.name(), "Very High");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Level::VeryLow => "Very Low",
            Level::Low => "Low",
            Level::Average => "Average",
            Level::High => "High",
            Level::VeryHigh => "Very High",
            Level::Awesome => "Awesome",
        }
    }

    /// The ladder's alias after the slash (L52–56): Awful, Poor, Good, Great.
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// assert_eq!(Level::Low.alias(), Some("Poor"));
    /// assert_eq!(Level::Average.alias(), None);
    /// ```
    pub const fn alias(self) -> Option<&'static str> {
        match self {
            Level::VeryLow => Some("Awful"),
            Level::Low => Some("Poor"),
            Level::High => Some("Good"),
            Level::VeryHigh => Some("Great"),
            Level::Average | Level::Awesome => None,
        }
    }
}

impl fmt::Display for Level {
    /// The ladder's name: `Very Low`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Lower-cases, turns `&nbsp;`, `_` and `-` into spaces and drops the spaces, so "Very Low",
/// "very&nbsp;low", "VERY_LOW" and "VeryLow" all read the same.
pub(crate) fn normalize(text: &str) -> String {
    text.replace("&nbsp;", " ")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-' && *c != '\u{a0}')
        .flat_map(char::to_lowercase)
        .collect()
}

fn level_from_normalized(n: &str) -> Option<Level> {
    Some(match n {
        "verylow" | "awful" => Level::VeryLow,
        "low" | "poor" => Level::Low,
        "average" => Level::Average,
        "high" | "good" => Level::High,
        "veryhigh" | "great" => Level::VeryHigh,
        "awesome" => Level::Awesome,
        _ => return None,
    })
}

impl FromStr for Level {
    type Err = Error;

    /// Reads the ladder's names and aliases, case-insensitively, with or without spaces:
    /// "Very Low", "Awful", "Low", "Poor", "Average", "High", "Good", "Very High", "Great",
    /// "Awesome" (also `Very&nbsp;Low` as the species table writes it).
    ///
    /// ```
    /// use dice_shapers_and_bots::Level;
    /// assert_eq!("awful".parse::<Level>()?, Level::VeryLow);
    /// assert_eq!("Very&nbsp;High".parse::<Level>()?, Level::VeryHigh);
    /// assert!("Superb".parse::<Level>().is_err());
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, Error> {
        level_from_normalized(&normalize(s)).ok_or_else(|| Error::UnknownLevel {
            text: s.to_string(),
            rating: false,
        })
    }
}

/// A character's rating for something: a [`Level`], or no rating at all.
///
/// "No rating" is the seventh state of SB-R1: "a character has no rating at all for a task"
/// (L113), a skill that starts at "--" (L240) and Rhymes With Orange's "Smell | None" (L529).
/// A character with no rating can only succeed by [fluke](crate::Fluke). `NoRating` orders
/// below every level.
///
/// ```
/// use dice_shapers_and_bots::{Level, Rating};
/// assert_eq!("--".parse::<Rating>()?, Rating::NoRating);
/// assert_eq!("None".parse::<Rating>()?, Rating::NoRating);
/// assert_eq!("Good".parse::<Rating>()?, Rating::Rated(Level::High));
/// assert!(Rating::NoRating < Rating::Rated(Level::VeryLow));
/// assert_eq!(Rating::from(Level::Low).level(), Some(Level::Low));
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rating {
    /// No rating at all: fluke rolls only (L113–119, L240–241).
    NoRating,
    /// A level on the ladder.
    Rated(Level),
}

impl Rating {
    /// The level, if rated.
    ///
    /// ```
    /// use dice_shapers_and_bots::Rating;
    /// assert_eq!(Rating::NoRating.level(), None);
    /// ```
    pub const fn level(self) -> Option<Level> {
        match self {
            Rating::NoRating => None,
            Rating::Rated(l) => Some(l),
        }
    }

    /// The rating after `raises` raises, as a skill is raised at creation (L296–298): the
    /// first raise of a skill with no rating brings it to Low, not Very Low; every other
    /// raise is one level. `None` past Awesome.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Rating};
    /// assert_eq!(Rating::NoRating.raised(1), Some(Rating::Rated(Level::Low)));
    /// assert_eq!(Rating::NoRating.raised(2), Some(Rating::Rated(Level::Average)));
    /// assert_eq!(Rating::Rated(Level::VeryLow).raised(2), Some(Rating::Rated(Level::Average)));
    /// assert_eq!(Rating::Rated(Level::VeryHigh).raised(2), None);
    /// ```
    pub const fn raised(self, raises: u8) -> Option<Rating> {
        match self {
            Rating::NoRating if raises == 0 => Some(Rating::NoRating),
            Rating::NoRating => match Level::Low.raised(raises - 1) {
                Some(l) => Some(Rating::Rated(l)),
                None => None,
            },
            Rating::Rated(l) => match l.raised(raises) {
                Some(l) => Some(Rating::Rated(l)),
                None => None,
            },
        }
    }
}

impl From<Level> for Rating {
    fn from(level: Level) -> Self {
        Rating::Rated(level)
    }
}

impl fmt::Display for Rating {
    /// The level's name, or `None` (as in L529).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rating::NoRating => f.write_str("None"),
            Rating::Rated(l) => l.fmt(f),
        }
    }
}

impl FromStr for Rating {
    type Err = Error;

    /// A level name or alias, or "None", "--", "no rating" (L113, L240, L529).
    fn from_str(s: &str) -> Result<Self, Error> {
        let n = normalize(s);
        if matches!(s.trim(), "--" | "—" | "–") || matches!(n.as_str(), "none" | "norating") {
            return Ok(Rating::NoRating);
        }
        level_from_normalized(&n)
            .map(Rating::Rated)
            .ok_or_else(|| Error::UnknownLevel {
                text: s.to_string(),
                rating: true,
            })
    }
}
