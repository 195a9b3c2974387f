//! Characteristics (SB-R7, L131–166), species (SB-R8, L168–196), bots (SB-R23, L461–481),
//! shaping (SB-R22, L435–459) and hit points (SB-R18, L372–387).

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::level::{Level, Rating, normalize};
use crate::rules::{HpSizeSource, Rules};

/// A characteristic (L137–163), with the rulebook's abbreviation.
///
/// ```
/// use dice_shapers_and_bots::Characteristic;
/// assert_eq!("IQ".parse::<Characteristic>()?, Characteristic::Intellect);
/// assert_eq!("INT".parse::<Characteristic>()?, Characteristic::Intellect); // SB-A15
/// assert_eq!(Characteristic::Smell.abbreviation(), "SML");
/// assert_eq!(Characteristic::Fitness.to_string(), "Fitness");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Characteristic {
    /// SIZ: how large the character is (L137).
    Size,
    /// HGT: Height, listed instead of Size by some characters (L138–141).
    Height,
    /// WGT: Weight, listed with Height (L138–141).
    Weight,
    /// FIT: how strong and coordinated she is (L143–144).
    Fitness,
    /// DEX: how good she is with her hands (L146–149).
    Dexterity,
    /// IQ (also written INT, L213): book learning and abstract reasoning (L151–152).
    Intellect,
    /// SGT (L154).
    Sight,
    /// HER (L154).
    Hearing,
    /// SML, which includes taste (L154–156).
    Smell,
    /// CRG: important extras only (L158–161).
    Courage,
    /// HON: important extras only (L163).
    Honesty,
}

impl Characteristic {
    /// Every characteristic, in the rulebook's order.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Characteristic::ALL.len(), 11);
    /// ```
    pub const ALL: [Characteristic; 11] = [
        Characteristic::Size,
        Characteristic::Height,
        Characteristic::Weight,
        Characteristic::Fitness,
        Characteristic::Dexterity,
        Characteristic::Intellect,
        Characteristic::Sight,
        Characteristic::Hearing,
        Characteristic::Smell,
        Characteristic::Courage,
        Characteristic::Honesty,
    ];

    /// The rulebook's abbreviation: SIZ, HGT, WGT, FIT, DEX, IQ, SGT, HER, SML, CRG, HON.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Characteristic::Height.abbreviation(), "HGT");
    /// ```
    pub const fn abbreviation(self) -> &'static str {
        match self {
            Characteristic::Size => "SIZ",
            Characteristic::Height => "HGT",
            Characteristic::Weight => "WGT",
            Characteristic::Fitness => "FIT",
            Characteristic::Dexterity => "DEX",
            Characteristic::Intellect => "IQ",
            Characteristic::Sight => "SGT",
            Characteristic::Hearing => "HER",
            Characteristic::Smell => "SML",
            Characteristic::Courage => "CRG",
            Characteristic::Honesty => "HON",
        }
    }

    /// The full name.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Characteristic::Intellect.name(), "Intellect");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Characteristic::Size => "Size",
            Characteristic::Height => "Height",
            Characteristic::Weight => "Weight",
            Characteristic::Fitness => "Fitness",
            Characteristic::Dexterity => "Dexterity",
            Characteristic::Intellect => "Intellect",
            Characteristic::Sight => "Sight",
            Characteristic::Hearing => "Hearing",
            Characteristic::Smell => "Smell",
            Characteristic::Courage => "Courage",
            Characteristic::Honesty => "Honesty",
        }
    }
}

impl fmt::Display for Characteristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Characteristic {
    type Err = Error;

    /// The abbreviation or the full name, case-insensitively; IQ and INT both read as
    /// Intellect (SB-A15).
    fn from_str(s: &str) -> Result<Self, Error> {
        let n = normalize(s);
        Characteristic::ALL
            .into_iter()
            .find(|c| n == normalize(c.abbreviation()) || n == normalize(c.name()))
            .or(match n.as_str() {
                "int" | "intelligence" => Some(Characteristic::Intellect),
                _ => None,
            })
            .ok_or_else(|| Error::UnknownCharacteristic {
                text: s.to_string(),
            })
    }
}

/// A character's size: one Size, or Height and Weight listed separately (L137–141: "an
/// extremeley muscular monkey might have Low Size but Average Weight").
///
/// ```
/// use dice_shapers_and_bots::{Level, Size};
/// let rhymes = Size::HeightWeight { height: Level::High, weight: Level::Low };
/// assert_eq!(rhymes.attack_target(), 5); // the lower of 9 and 5 (L354–355)
/// assert_eq!(Size::Single(Level::VeryHigh).attack_target(), 11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Size {
    /// One Size (SIZ).
    Single(Level),
    /// Height (HGT) and Weight (WGT) listed separately.
    HeightWeight {
        /// HGT.
        height: Level,
        /// WGT.
        weight: Level,
    },
}

impl Size {
    /// The Size that attacks use: the Size, or the lower of Height and Weight (L354–355).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Size};
    /// let s = Size::HeightWeight { height: Level::Low, weight: Level::Average };
    /// assert_eq!(s.for_attacks(), Level::Low);
    /// ```
    pub fn for_attacks(&self) -> Level {
        match *self {
            Size::Single(l) => l,
            Size::HeightWeight { height, weight } => height.min(weight),
        }
    }

    /// The score an undefended or sneak attack needs: the target of [`Size::for_attacks`]
    /// (L353–355, L369).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Size};
    /// assert_eq!(Size::Single(Level::VeryLow).attack_target(), 3);
    /// ```
    pub fn attack_target(&self) -> i32 {
        self.for_attacks().target()
    }

    /// The Size whose target gives hit points (L374) under the SB-A7 ruling, or `None` when
    /// the ruling is [`HpSizeSource::Explicit`] and Height and Weight are listed.
    ///
    /// ```
    /// use dice_shapers_and_bots::{HpSizeSource, Level, Size};
    /// let s = Size::HeightWeight { height: Level::High, weight: Level::Low };
    /// assert_eq!(s.for_hit_points(HpSizeSource::Lower), Some(Level::Low));
    /// assert_eq!(s.for_hit_points(HpSizeSource::Higher), Some(Level::High));
    /// assert_eq!(s.for_hit_points(HpSizeSource::Explicit), None);
    /// ```
    pub fn for_hit_points(&self, source: HpSizeSource) -> Option<Level> {
        match (*self, source) {
            (Size::Single(l), _) => Some(l),
            (Size::HeightWeight { height, weight }, HpSizeSource::Lower) => {
                Some(height.min(weight))
            }
            (Size::HeightWeight { height, weight }, HpSizeSource::Higher) => {
                Some(height.max(weight))
            }
            (Size::HeightWeight { .. }, HpSizeSource::Explicit) => None,
        }
    }
}

impl fmt::Display for Size {
    /// `Very Low`, or `Height High, Weight Low`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Size::Single(l) => l.fmt(f),
            Size::HeightWeight { height, weight } => {
                write!(f, "Height {height}, Weight {weight}")
            }
        }
    }
}

/// Hit points (L374–375): "the target figure for their Size, plus or minus one point for each
/// step their Fitness is away from Average". From 1 (Very Low, Very Low) to 16 (Awesome,
/// Awesome).
///
/// ```
/// use dice_shapers_and_bots::{hit_points, Level};
/// assert_eq!(hit_points(Level::VeryLow, Level::VeryHigh), 5); // Dashwood, SB-E10
/// assert_eq!(hit_points(Level::VeryHigh, Level::Low), 10); // Slumpy, SB-E11
/// ```
pub fn hit_points(size: Level, fitness: Level) -> i32 {
    size.target() + fitness.steps_from_average()
}

/// A character's characteristics (SB-R7). Every one is Average unless a species, a bot's
/// design or the Director says otherwise (L134–135).
///
/// Smell may be [`Rating::NoRating`] (most bots, L474; Rhymes With Orange, L529). Courage
/// and Honesty belong to important extras only (L158–166) and have no mechanics.
///
/// ```
/// use dice_shapers_and_bots::{Characteristic, Characteristics, Level, Rating, Rules, Species};
/// let parrot = Species::Parrot.characteristics();
/// assert_eq!(parrot.get(Characteristic::Fitness), Some(Rating::Rated(Level::VeryHigh)));
/// assert_eq!(parrot.hit_points(&Rules::default())?, 5);
/// assert_eq!(Characteristics::default().dexterity, Level::Average);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Characteristics {
    /// SIZ, or HGT and WGT.
    pub size: Size,
    /// FIT.
    pub fitness: Level,
    /// DEX.
    pub dexterity: Level,
    /// IQ.
    pub intellect: Level,
    /// SGT.
    pub sight: Level,
    /// HER.
    pub hearing: Level,
    /// SML (no rating for most bots).
    pub smell: Rating,
    /// CRG, for important extras only.
    pub courage: Option<Level>,
    /// HON, for important extras only.
    pub honesty: Option<Level>,
}

impl Default for Characteristics {
    /// Everything Average, no Courage or Honesty (L134–135, L165–166).
    fn default() -> Self {
        Characteristics {
            size: Size::Single(Level::Average),
            fitness: Level::Average,
            dexterity: Level::Average,
            intellect: Level::Average,
            sight: Level::Average,
            hearing: Level::Average,
            smell: Rating::Rated(Level::Average),
            courage: None,
            honesty: None,
        }
    }
}

impl Characteristics {
    /// A bot (L472–476): Size, Fitness, Dexterity and Intellect as designed, Sight and
    /// Hearing Average, and no sense of Smell (most bots have none; set
    /// [`Characteristics::smell`] for the few that do).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Level, Rating, Size};
    /// // Rhymes With Orange (L520–529), before its Hearing was damaged.
    /// let mut rhymes = Characteristics::bot(
    ///     Size::HeightWeight { height: Level::High, weight: Level::Low },
    ///     Level::Average, Level::Average, Level::Average,
    /// );
    /// assert_eq!(rhymes.smell, Rating::NoRating);
    /// rhymes.hearing = Level::Low;
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn bot(size: Size, fitness: Level, dexterity: Level, intellect: Level) -> Self {
        Characteristics {
            size,
            fitness,
            dexterity,
            intellect,
            smell: Rating::NoRating,
            ..Characteristics::default()
        }
    }

    /// The rating of `characteristic`, or `None` when the character does not have it (Size
    /// when Height and Weight are listed, or the reverse; Courage and Honesty for most
    /// characters).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristic, Characteristics};
    /// let c = Characteristics::default();
    /// assert!(c.get(Characteristic::Size).is_some());
    /// assert!(c.get(Characteristic::Height).is_none());
    /// assert!(c.get(Characteristic::Courage).is_none());
    /// ```
    pub fn get(&self, characteristic: Characteristic) -> Option<Rating> {
        use Characteristic as C;
        let level = match (characteristic, self.size) {
            (C::Size, Size::Single(l)) => l,
            (C::Height, Size::HeightWeight { height, .. }) => height,
            (C::Weight, Size::HeightWeight { weight, .. }) => weight,
            (C::Size | C::Height | C::Weight, _) => return None,
            (C::Fitness, _) => self.fitness,
            (C::Dexterity, _) => self.dexterity,
            (C::Intellect, _) => self.intellect,
            (C::Sight, _) => self.sight,
            (C::Hearing, _) => self.hearing,
            (C::Smell, _) => return Some(self.smell),
            (C::Courage, _) => return self.courage.map(Rating::Rated),
            (C::Honesty, _) => return self.honesty.map(Rating::Rated),
        };
        Some(Rating::Rated(level))
    }

    /// Sets a characteristic the character has to `level`; returns `false` (and changes
    /// nothing) when it does not have it.
    pub(crate) fn set(&mut self, characteristic: Characteristic, level: Level) -> bool {
        use Characteristic as C;
        match (characteristic, &mut self.size) {
            (C::Size, Size::Single(l)) => *l = level,
            (C::Height, Size::HeightWeight { height, .. }) => *height = level,
            (C::Weight, Size::HeightWeight { weight, .. }) => *weight = level,
            (C::Size | C::Height | C::Weight, _) => return false,
            (C::Fitness, _) => self.fitness = level,
            (C::Dexterity, _) => self.dexterity = level,
            (C::Intellect, _) => self.intellect = level,
            (C::Sight, _) => self.sight = level,
            (C::Hearing, _) => self.hearing = level,
            (C::Smell, _) => {
                if self.smell == Rating::NoRating {
                    return false;
                }
                self.smell = Rating::Rated(level);
            }
            (C::Courage, _) => match &mut self.courage {
                Some(l) => *l = level,
                None => return false,
            },
            (C::Honesty, _) => match &mut self.honesty {
                Some(l) => *l = level,
                None => return false,
            },
        }
        true
    }

    /// Hit points (L374–375) under `rules`: [`hit_points`] of the Size and Fitness. For a
    /// character with Height and Weight, the Size is chosen by
    /// [`Rules::hp_size_source`] (SB-A7).
    ///
    /// # Errors
    /// [`Error::SizeForHitPointsRequired`] for Height and Weight under
    /// [`HpSizeSource::Explicit`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, HpSizeSource, Level, Rules, Size};
    /// let rhymes = Characteristics::bot(
    ///     Size::HeightWeight { height: Level::High, weight: Level::Low },
    ///     Level::Average, Level::Average, Level::Average,
    /// );
    /// assert_eq!(rhymes.hit_points(&Rules::default())?, 5);
    /// let explicit = Rules { hp_size_source: HpSizeSource::Explicit, ..Rules::default() };
    /// assert!(rhymes.hit_points(&explicit).is_err());
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn hit_points(&self, rules: &Rules) -> Result<i32, Error> {
        let size = self
            .size
            .for_hit_points(rules.hp_size_source)
            .ok_or(Error::SizeForHitPointsRequired)?;
        Ok(hit_points(size, self.fitness))
    }

    /// The best of Sight, Hearing and Smell: Tracking's starting level (L274).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Rating, Species};
    /// assert_eq!(Species::Eagle.characteristics().best_sense(), Rating::Rated(Level::VeryHigh));
    /// ```
    pub fn best_sense(&self) -> Rating {
        Rating::Rated(self.sight.max(self.hearing)).max(self.smell)
    }
}

impl fmt::Display for Characteristics {
    /// `SIZ Very Low, FIT Very High, DEX High, IQ Average, SGT Average, HER Average, SML
    /// Average`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.size {
            Size::Single(l) => write!(f, "SIZ {l}")?,
            Size::HeightWeight { height, weight } => write!(f, "HGT {height}, WGT {weight}")?,
        }
        write!(
            f,
            ", FIT {}, DEX {}, IQ {}, SGT {}, HER {}, SML {}",
            self.fitness, self.dexterity, self.intellect, self.sight, self.hearing, self.smell
        )?;
        if let Some(c) = self.courage {
            write!(f, ", CRG {c}")?;
        }
        if let Some(h) = self.honesty {
            write!(f, ", HON {h}")?;
        }
        Ok(())
    }
}

/// A species from the table of L176–196. A blank cell is Average (L134–135, L174).
///
/// ```
/// use dice_shapers_and_bots::{Level, Size, Species};
/// let elephant = Species::Elephant.characteristics();
/// assert_eq!(elephant.size, Size::Single(Level::VeryHigh));
/// assert_eq!(Species::Elephant.special(), Some("trunk"));
/// assert_eq!("Rabbit".parse::<Species>()?, Species::Rabbit);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Species {
    /// L178: High SIZ, High FIT, Low DEX, Low SGT, High SML (every other cell Average).
    Bear,
    /// L179: High SIZ, Very Low DEX, Low SGT; horns (every other cell Average).
    Bison,
    /// L180: Very Low SIZ, High FIT, High IQ, Low SML; flying (every other cell Average).
    Crow,
    /// L181: Low SIZ, Very High FIT, Very High SGT, High HER, Low SML; flying (every other cell Average).
    Eagle,
    /// L182: Very High SIZ; trunk (every other cell Average).
    Elephant,
    /// L183: Low SIZ, High DEX, High IQ, High SML; carnivore (every other cell Average).
    Fox,
    /// L184: all Average; horns.
    Goat,
    /// L185: High FIT; leaping (every other cell Average).
    Kangaroo,
    /// L186: High FIT, High HER, High SML; carnivore (every other cell Average).
    Lion,
    /// L187: Low SIZ, Very High DEX, High IQ, High SGT; tail (every other cell Average).
    Monkey,
    /// L188: Very Low SIZ, Very High FIT, High DEX; flying (every other cell Average).
    Parrot,
    /// L189: Very Low SIZ, High HER, High SML; goes berserk (every other cell Average).
    Rabbit,
    /// L190: Low SIZ, Very High DEX, High SGT (every other cell Average).
    Raccoon,
    /// L191: High SIZ, Very Low DEX, Low SGT, High SML (every other cell Average).
    Rhino,
    /// L192: Low DEX, Very High IQ, Low SGT; very slow (every other cell Average).
    Sloth,
    /// L193: High FIT, High HER, High SML; carnivore (every other cell Average).
    Tiger,
    /// L194: Low SIZ, Low FIT, High DEX, High IQ, Very Low SGT (every other cell Average).
    Turtle,
    /// L195: High FIT, High HER, High SML; carnivore (every other cell Average).
    Wolf,
    /// L196: all Average.
    Zebra,
}

/// One row of the species table: SIZ, FIT, DEX, IQ, SGT, HER, SML (`None` = blank =
/// Average), Special.
type Row = ([Option<Level>; 7], Option<&'static str>);

impl Species {
    /// Every species, in the table's order.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Species::ALL.len(), 19);
    /// ```
    pub const ALL: [Species; 19] = [
        Species::Bear,
        Species::Bison,
        Species::Crow,
        Species::Eagle,
        Species::Elephant,
        Species::Fox,
        Species::Goat,
        Species::Kangaroo,
        Species::Lion,
        Species::Monkey,
        Species::Parrot,
        Species::Rabbit,
        Species::Raccoon,
        Species::Rhino,
        Species::Sloth,
        Species::Tiger,
        Species::Turtle,
        Species::Wolf,
        Species::Zebra,
    ];

    /// The table's name: `bear` … `zebra`.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Species::Kangaroo.name(), "kangaroo");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Species::Bear => "bear",
            Species::Bison => "bison",
            Species::Crow => "crow",
            Species::Eagle => "eagle",
            Species::Elephant => "elephant",
            Species::Fox => "fox",
            Species::Goat => "goat",
            Species::Kangaroo => "kangaroo",
            Species::Lion => "lion",
            Species::Monkey => "monkey",
            Species::Parrot => "parrot",
            Species::Rabbit => "rabbit",
            Species::Raccoon => "raccoon",
            Species::Rhino => "rhino",
            Species::Sloth => "sloth",
            Species::Tiger => "tiger",
            Species::Turtle => "turtle",
            Species::Wolf => "wolf",
            Species::Zebra => "zebra",
        }
    }

    /// The row of L178–196, cell by cell.
    const fn row(self) -> Row {
        const VL: Option<Level> = Some(Level::VeryLow);
        const L: Option<Level> = Some(Level::Low);
        const H: Option<Level> = Some(Level::High);
        const VH: Option<Level> = Some(Level::VeryHigh);
        const __: Option<Level> = None;
        match self {
            //                   SIZ FIT DEX IQ  SGT HER SML
            Species::Bear => ([H, H, L, __, L, __, H], None),
            Species::Bison => ([H, __, VL, __, L, __, __], Some("horns")),
            Species::Crow => ([VL, H, __, H, __, __, L], Some("flying")),
            Species::Eagle => ([L, VH, __, __, VH, H, L], Some("flying")),
            Species::Elephant => ([VH, __, __, __, __, __, __], Some("trunk")),
            Species::Fox => ([L, __, H, H, __, __, H], Some("carnivore")),
            Species::Goat => ([__, __, __, __, __, __, __], Some("horns")),
            Species::Kangaroo => ([__, H, __, __, __, __, __], Some("leaping")),
            Species::Lion => ([__, H, __, __, __, H, H], Some("carnivore")),
            Species::Monkey => ([L, __, VH, H, H, __, __], Some("tail")),
            Species::Parrot => ([VL, VH, H, __, __, __, __], Some("flying")),
            Species::Rabbit => ([VL, __, __, __, __, H, H], Some("goes berserk")),
            Species::Raccoon => ([L, __, VH, __, H, __, __], None),
            Species::Rhino => ([H, __, VL, __, L, __, H], None),
            Species::Sloth => ([__, __, L, VH, L, __, __], Some("very slow")),
            Species::Tiger => ([__, H, __, __, __, H, H], Some("carnivore")),
            Species::Turtle => ([L, L, H, H, VL, __, __], None),
            Species::Wolf => ([__, H, __, __, __, H, H], Some("carnivore")),
            Species::Zebra => ([__, __, __, __, __, __, __], None),
        }
    }

    /// The species' default characteristics (L176–196); blank cells are Average.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Rating, Size, Species};
    /// let turtle = Species::Turtle.characteristics();
    /// assert_eq!(turtle.size, Size::Single(Level::Low));
    /// assert_eq!(turtle.sight, Level::VeryLow);
    /// assert_eq!(turtle.smell, Rating::Rated(Level::Average));
    /// ```
    pub const fn characteristics(self) -> Characteristics {
        const fn pick(c: Option<Level>) -> Level {
            match c {
                Some(l) => l,
                None => Level::Average,
            }
        }
        let (cells, _) = self.row();
        Characteristics {
            size: Size::Single(pick(cells[0])),
            fitness: pick(cells[1]),
            dexterity: pick(cells[2]),
            intellect: pick(cells[3]),
            sight: pick(cells[4]),
            hearing: pick(cells[5]),
            smell: Rating::Rated(pick(cells[6])),
            courage: None,
            honesty: None,
        }
    }

    /// The Special column (L176–196): horns, flying, trunk, … It has no mechanics anywhere in
    /// the rulebook (SB-A22), so it is plain text.
    ///
    /// ```
    /// use dice_shapers_and_bots::Species;
    /// assert_eq!(Species::Rabbit.special(), Some("goes berserk"));
    /// assert_eq!(Species::Bear.special(), None);
    /// ```
    pub const fn special(self) -> Option<&'static str> {
        self.row().1
    }
}

impl fmt::Display for Species {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Species {
    type Err = Error;

    /// The table's name, case-insensitively.
    fn from_str(s: &str) -> Result<Self, Error> {
        let n = normalize(s);
        Species::ALL
            .into_iter()
            .find(|sp| n == sp.name())
            .ok_or_else(|| Error::UnknownSpecies {
                text: s.to_string(),
            })
    }
}

/// The six common kinds of shaping (L441–451).
///
/// ```
/// use dice_shapers_and_bots::ShapingKind;
/// assert_eq!(ShapingKind::ALL.len(), 6);
/// assert_eq!(ShapingKind::Air.to_string(), "Air");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ShapingKind {
    /// Dirt and stone; very experienced shapers also metal (L443).
    Earth,
    /// Wind and sound (L444).
    Air,
    /// Silent illusions and shadows (L445).
    Light,
    /// Liquid water; very experienced shapers also ice (L446–448).
    Water,
    /// Increase or decrease the chance of something happening (L449).
    Luck,
    /// Slow things down or speed them up (L450–451).
    Time,
}

impl ShapingKind {
    /// Every kind, in the rulebook's order.
    ///
    /// ```
    /// assert!(dice_shapers_and_bots::ShapingKind::ALL.contains(&dice_shapers_and_bots::ShapingKind::Luck));
    /// ```
    pub const ALL: [ShapingKind; 6] = [
        ShapingKind::Earth,
        ShapingKind::Air,
        ShapingKind::Light,
        ShapingKind::Water,
        ShapingKind::Luck,
        ShapingKind::Time,
    ];
}

impl fmt::Display for ShapingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShapingKind::Earth => "Earth",
            ShapingKind::Air => "Air",
            ShapingKind::Light => "Light",
            ShapingKind::Water => "Water",
            ShapingKind::Luck => "Luck",
            ShapingKind::Time => "Time",
        })
    }
}

/// A shaper's power (SB-R22, L435–459): a kind and a rating. The rulebook gives it no dice
/// mechanics (even Luck's "increase or decrease the chance" has no numbers, SB-A22), so it is
/// plain data; its rating is set by the Director and is not paid from the skill packages
/// (SB-A14).
///
/// ```
/// use dice_shapers_and_bots::{Level, Shaping, ShapingKind};
/// // SB-E14 (L456–459): Larrapin's grandfather taught her, "so her score is now Low instead
/// // of Very Low".
/// let mut larrapin = Shaping::typical(ShapingKind::Air);
/// assert_eq!(larrapin.rating, Level::VeryLow);
/// larrapin.rating = larrapin.rating.raised(1).unwrap_or(larrapin.rating);
/// assert_eq!(larrapin.rating, Level::Low);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Shaping {
    /// The kind ("It is *extremely* rare for someone to be able to do more than one", L453).
    pub kind: ShapingKind,
    /// The rating.
    pub rating: Level,
}

impl Shaping {
    /// A new shaper of `kind`: "Characters who can shape typically start with a rating of
    /// Very Low" (L439–440).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Shaping, ShapingKind};
    /// assert_eq!(Shaping::typical(ShapingKind::Earth).rating, Level::VeryLow);
    /// ```
    pub const fn typical(kind: ShapingKind) -> Self {
        Shaping {
            kind,
            rating: Level::VeryLow,
        }
    }
}

impl fmt::Display for Shaping {
    /// `Air shaping: Low`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} shaping: {}", self.kind, self.rating)
    }
}
