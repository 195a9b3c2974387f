//! Skills (SB-R10, L232–312): the master list, their starting levels, categories and
//! specialties, and skills the Director adds.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use crate::character::{Characteristic, Characteristics};
use crate::error::Error;
use crate::level::{Level, Rating, normalize};

/// Where a skill starts before any training (L236–241).
///
/// ```
/// use dice_shapers_and_bots::{Characteristic, Skill, SkillStart};
/// assert_eq!(Skill::Climbing.start(), SkillStart::Characteristic(Characteristic::Fitness));
/// assert_eq!(Skill::Medicine.start(), SkillStart::NoAbility);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SkillStart {
    /// "If a characteristic is given beside the skill, the character's starting level …
    /// is equal to that characteristic" (L236–237).
    Characteristic(Characteristic),
    /// "If a specific level is listed; the character starts with that" (L238–239).
    Level(Level),
    /// "--": "no ability at all, and must rely on fluke rolls" (L240–241).
    NoAbility,
    /// Tracking: "the best of SGT, HER, or SML" (L274).
    BestSense,
}

impl SkillStart {
    /// The starting rating for a character with `characteristics`.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Rating, SkillStart, Species};
    /// let fox = Species::Fox.characteristics();
    /// assert_eq!(SkillStart::BestSense.rating(&fox), Rating::Rated(Level::High));
    /// ```
    pub fn rating(self, characteristics: &Characteristics) -> Rating {
        match self {
            SkillStart::Characteristic(c) => characteristics.get(c).unwrap_or(Rating::NoRating),
            SkillStart::Level(l) => Rating::Rated(l),
            SkillStart::NoAbility => Rating::NoRating,
            SkillStart::BestSense => characteristics.best_sense(),
        }
    }
}

impl fmt::Display for SkillStart {
    /// `FIT`, `Low`, `--`, `special`, as the list writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkillStart::Characteristic(c) => f.write_str(c.abbreviation()),
            SkillStart::Level(l) => l.fmt(f),
            SkillStart::NoAbility => f.write_str("--"),
            SkillStart::BestSense => f.write_str("special"),
        }
    }
}

macro_rules! skills {
    ($($variant:ident $name:literal $start:expr, $category:literal;)*) => {
        /// A skill from the master list (L243–278). The four in bold there — Craft, Fine
        /// Art, Lore and Weapon — are categories whose specialties are separate skills
        /// (L280–286); see [`SkillName`].
        ///
        /// ```
        /// use dice_shapers_and_bots::Skill;
        /// assert_eq!(Skill::ALL.len(), 36);
        /// assert_eq!("first aid".parse::<Skill>()?, Skill::FirstAid);
        /// assert!(Skill::Weapon.is_category());
        /// assert_eq!(Skill::AnimalHandling.to_string(), "Animal Handling");
        /// # Ok::<(), dice_shapers_and_bots::Error>(())
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
        pub enum Skill {
            $(
                #[doc = concat!($name, ".")]
                $variant,
            )*
        }

        impl Skill {
            /// The master list, in the rulebook's order.
            ///
            /// ```
            /// assert_eq!(dice_shapers_and_bots::Skill::ALL[0], dice_shapers_and_bots::Skill::Acrobatics);
            /// ```
            pub const ALL: [Skill; 36] = [$(Skill::$variant),*];

            /// The list's name.
            ///
            /// ```
            /// assert_eq!(dice_shapers_and_bots::Skill::StageMagic.name(), "Stage Magic");
            /// ```
            pub const fn name(self) -> &'static str {
                match self { $(Skill::$variant => $name),* }
            }

            /// The starting level given beside the skill (L243–278).
            ///
            /// ```
            /// use dice_shapers_and_bots::{Level, Skill, SkillStart};
            /// assert_eq!(Skill::Swimming.start(), SkillStart::Level(Level::VeryLow));
            /// ```
            pub const fn start(self) -> SkillStart {
                use Characteristic as C;
                use SkillStart as S;
                #[allow(unused_imports)]
                use Level as L;
                match self { $(Skill::$variant => $start),* }
            }

            /// Whether the skill is a category (bold in the list, L280–286).
            ///
            /// ```
            /// use dice_shapers_and_bots::Skill;
            /// assert!(Skill::Lore.is_category());
            /// assert!(!Skill::Climbing.is_category());
            /// ```
            pub const fn is_category(self) -> bool {
                match self { $(Skill::$variant => $category),* }
            }
        }
    };
}

skills! {
    Acrobatics "Acrobatics" S::Characteristic(C::Fitness), false;
    AnimalHandling "Animal Handling" S::Level(L::Low), false;
    Brawling "Brawling" S::Characteristic(C::Fitness), false;
    Boating "Boating" S::Level(L::VeryLow), false;
    Camouflage "Camouflage" S::Level(L::Low), false;
    Camping "Camping" S::Level(L::VeryLow), false;
    Charisma "Charisma" S::Characteristic(C::Intellect), false;
    Climbing "Climbing" S::Characteristic(C::Fitness), false;
    Computers "Computers" S::NoAbility, false;
    Craft "Craft" S::Characteristic(C::Dexterity), true;
    Dancing "Dancing" S::Characteristic(C::Fitness), false;
    Driving "Driving" S::NoAbility, false;
    Escapology "Escapology" S::Characteristic(C::Dexterity), false;
    Farming "Farming" S::Level(L::VeryLow), false;
    FineArt "Fine Art" S::Characteristic(C::Dexterity), true;
    FirstAid "First Aid" S::Level(L::VeryLow), false;
    Gambling "Gambling" S::Level(L::Low), false;
    Hypnotism "Hypnotism" S::NoAbility, false;
    Lore "Lore" S::NoAbility, true;
    Mechanics "Mechanics" S::Characteristic(C::Dexterity), false;
    Medicine "Medicine" S::NoAbility, false;
    Navigation "Navigation" S::NoAbility, false;
    PickingPockets "Picking Pockets" S::Level(L::VeryLow), false;
    Riding "Riding" S::Characteristic(C::Fitness), false;
    Singing "Singing" S::Characteristic(C::Fitness), false;
    Skating "Skating" S::Characteristic(C::Fitness), false;
    Skiing "Skiing" S::Characteristic(C::Fitness), false;
    StageMagic "Stage Magic" S::NoAbility, false;
    Stealth "Stealth" S::Characteristic(C::Fitness), false;
    Swimming "Swimming" S::Level(L::VeryLow), false;
    Throwing "Throwing" S::Characteristic(C::Fitness), false;
    Tracking "Tracking" S::BestSense, false;
    Trapping "Trapping" S::Level(L::VeryLow), false;
    Tunnelling "Tunnelling" S::Level(L::Low), false;
    Ventriloquism "Ventriloquism" S::NoAbility, false;
    Weapon "Weapon" S::Characteristic(C::Fitness), true;
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Skill {
    type Err = Error;

    /// The list's name, case-insensitively, with or without spaces.
    fn from_str(s: &str) -> Result<Self, Error> {
        let n = normalize(s);
        Skill::ALL
            .into_iter()
            .find(|sk| n == normalize(sk.name()))
            .ok_or_else(|| Error::UnknownSkill {
                text: s.to_string(),
            })
    }
}

/// A skill a character can have a rating in: one from the list, a specialty of a category
/// (a Weapon: sword; a Lore: history, L283–286), or one the Director adds with a starting
/// rating of their choice (L308–312).
///
/// Two names are the same skill when they name it the same way up to case, spaces, `-` and
/// `_` ("Weapon: Sword" is "Weapon: sword"; a Director's skill is one skill whatever start it
/// is given), so a specialty cannot be raised twice under two spellings.
///
/// ```
/// use dice_shapers_and_bots::{Level, Rating, Skill, SkillName, Species};
/// let fox = Species::Fox.characteristics();
/// let staff = SkillName::specialty(Skill::Weapon, "quarterstaff")?;
/// assert_eq!(staff.start(&fox), Rating::Rated(Level::Average)); // Weapon (FIT)
/// let diving = SkillName::custom("deep-sea diving gear", Rating::Rated(Level::VeryLow));
/// assert_eq!(diving.to_string(), "deep-sea diving gear");
/// assert!(SkillName::specialty(Skill::Climbing, "ropes").is_err());
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SkillName {
    /// A skill of the list that is not a category.
    Listed(Skill),
    /// A specialty within a category, which starts where its category does.
    Specialty {
        /// Craft, Fine Art, Lore or Weapon.
        category: Skill,
        /// Sewing, sculpture, history, sword, …
        specialty: String,
    },
    /// A skill the Director adds (L308–312), with the starting rating they set.
    Custom {
        /// Its name.
        name: String,
        /// Its starting rating.
        start: Rating,
    },
}

impl SkillName {
    /// A skill of the list.
    ///
    /// # Errors
    /// [`Error::SpecialtyRequired`] for a category (L280–286).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Skill, SkillName};
    /// assert!(SkillName::listed(Skill::Climbing).is_ok());
    /// assert!(SkillName::listed(Skill::Lore).is_err());
    /// ```
    pub fn listed(skill: Skill) -> Result<Self, Error> {
        if skill.is_category() {
            return Err(Error::SpecialtyRequired { skill });
        }
        Ok(SkillName::Listed(skill))
    }

    /// A specialty of a category.
    ///
    /// # Errors
    /// [`Error::NotACategory`] when `category` is not Craft, Fine Art, Lore or Weapon.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Skill, SkillName};
    /// assert!(SkillName::specialty(Skill::Lore, "mathematics").is_ok());
    /// ```
    pub fn specialty(category: Skill, specialty: impl Into<String>) -> Result<Self, Error> {
        if !category.is_category() {
            return Err(Error::NotACategory { skill: category });
        }
        Ok(SkillName::Specialty {
            category,
            specialty: specialty.into(),
        })
    }

    /// A skill the Director adds, starting at `start` (L308–312).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Rating, SkillName};
    /// let fishing = SkillName::custom("Fishing", Rating::NoRating);
    /// assert!(matches!(fishing, SkillName::Custom { .. }));
    /// ```
    pub fn custom(name: impl Into<String>, start: Rating) -> Self {
        SkillName::Custom {
            name: name.into(),
            start,
        }
    }

    /// The starting rating for a character with `characteristics`.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Rating, Skill, SkillName, Species};
    /// let rabbit = Species::Rabbit.characteristics();
    /// let first_aid = SkillName::listed(Skill::FirstAid)?;
    /// assert_eq!(first_aid.start(&rabbit), Rating::Rated(Level::VeryLow));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn start(&self, characteristics: &Characteristics) -> Rating {
        match self {
            SkillName::Listed(s) => s.start().rating(characteristics),
            SkillName::Specialty { category, .. } => category.start().rating(characteristics),
            SkillName::Custom { start, .. } => *start,
        }
    }

    /// Checks a name built by hand (a [`SkillName::Listed`] category, a
    /// [`SkillName::Specialty`] of a non-category or with no name, a
    /// [`SkillName::Custom`] skill that is on the master list).
    pub(crate) fn check(&self) -> Result<(), Error> {
        match self {
            SkillName::Listed(s) if s.is_category() => Err(Error::SpecialtyRequired { skill: *s }),
            SkillName::Specialty { category, .. } if !category.is_category() => {
                Err(Error::NotACategory { skill: *category })
            }
            SkillName::Specialty {
                category,
                specialty,
            } if normalize(specialty).is_empty() => {
                Err(Error::SpecialtyRequired { skill: *category })
            }
            SkillName::Custom { name, .. } => match name.parse::<Skill>() {
                Ok(skill) => Err(Error::CustomSkillListed {
                    name: name.clone(),
                    skill,
                }),
                Err(_) => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// What makes two names the same skill: the kind, the category, and the text without
    /// case, spaces, `-` or `_`.
    fn key(&self) -> (u8, Option<Skill>, String) {
        match self {
            SkillName::Listed(s) => (0, Some(*s), String::new()),
            SkillName::Specialty {
                category,
                specialty,
            } => (1, Some(*category), normalize(specialty)),
            SkillName::Custom { name, .. } => (2, None, normalize(name)),
        }
    }
}

impl PartialEq for SkillName {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for SkillName {}

impl PartialOrd for SkillName {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SkillName {
    /// Listed skills, then specialties, then the Director's, each by name.
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl Hash for SkillName {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl From<Skill> for SkillName {
    /// A listed skill (a category becomes its unnamed specialty, which
    /// [`raise_skills`](crate::raise_skills) refuses).
    fn from(skill: Skill) -> Self {
        SkillName::Listed(skill)
    }
}

impl fmt::Display for SkillName {
    /// `Climbing`, `Weapon: sword`, `deep-sea diving gear`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkillName::Listed(s) => s.fmt(f),
            SkillName::Specialty {
                category,
                specialty,
            } => write!(f, "{category}: {specialty}"),
            SkillName::Custom { name, .. } => f.write_str(name),
        }
    }
}
