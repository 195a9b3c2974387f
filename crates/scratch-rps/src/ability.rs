//! The abilities (L59–L117) and their families: attack, defensive, movement, support and
//! vehicle abilities.

use core::fmt;
use core::str::FromStr;

use crate::error::Error;

/// One of the rulebook's abilities (L59–L117).
///
/// [`Ability::ALL`] lists them in the order the rulebook's stat blocks use, so a
/// [`crate::Character`] prints as the book prints it.
///
/// ```
/// use dice_scratch_rps::Ability;
/// assert!(Ability::Stalking.is_defensive());
/// assert!(!Ability::Swimming.is_defensive()); // a movement ability only (L95)
/// assert!(Ability::Acrobatics.is_movement());
/// assert_eq!("shooting".parse::<Ability>()?, Ability::Shooting);
/// assert_eq!(Ability::Craftsmanship.to_string(), "craftsmanship");
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Ability {
    /// Operates a ground vehicle (L113).
    Driving,
    /// Operates a water vehicle (L115).
    Navigation,
    /// Operates an air or space vehicle (L117).
    Piloting,
    /// A powerful long-range attack on one character: 2 damage (L75).
    Shooting,
    /// A long-range attack on up to three separate targets: 1 damage each (L77).
    Blasting,
    /// A devastating close-range attack: 4 damage, 2 if injured; delays the user (L79).
    Knockout,
    /// Revives incapacitated and heals injured characters (L99).
    Healing,
    /// Added to basic attacks; two basic attacks as one action when healthy (L81).
    Fighting,
    /// Added to basic attacks and holds; an attack and a hold as one action when healthy (L83).
    Wrestling,
    /// Defensive and movement ability among three-dimensional structures (L89).
    Acrobatics,
    /// Defensive and movement ability on level ground (L91).
    Quickness,
    /// Defensive and movement ability where there is room to fly (L93).
    Flying,
    /// Movement ability in water; added to defense and close-range attacks in water (L95).
    Swimming,
    /// Defensive ability; adds 10 per level to initiative (L87).
    Stalking,
    /// Temporary +1 bonuses to companions' abilities (L101).
    Craftsmanship,
    /// One or two minions (L103).
    Command,
    /// Maximum hit points (L33, L71).
    Toughness,
}

impl Ability {
    /// How many abilities there are.
    pub const COUNT: usize = 17;

    /// Every ability, in the order the rulebook's stat blocks list them (toughness last).
    ///
    /// ```
    /// use dice_scratch_rps::Ability;
    /// assert_eq!(Ability::ALL.len(), Ability::COUNT);
    /// assert_eq!(Ability::ALL[Ability::COUNT - 1], Ability::Toughness);
    /// ```
    pub const ALL: [Ability; Ability::COUNT] = [
        Ability::Driving,
        Ability::Navigation,
        Ability::Piloting,
        Ability::Shooting,
        Ability::Blasting,
        Ability::Knockout,
        Ability::Healing,
        Ability::Fighting,
        Ability::Wrestling,
        Ability::Acrobatics,
        Ability::Quickness,
        Ability::Flying,
        Ability::Swimming,
        Ability::Stalking,
        Ability::Craftsmanship,
        Ability::Command,
        Ability::Toughness,
    ];

    /// The position in [`Ability::ALL`].
    ///
    /// ```
    /// use dice_scratch_rps::Ability;
    /// assert_eq!(Ability::ALL[Ability::Flying.index()], Ability::Flying);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rulebook's name, lower case (`"shooting"`).
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::Ability::Piloting.name(), "piloting");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Ability::Driving => "driving",
            Ability::Navigation => "navigation",
            Ability::Piloting => "piloting",
            Ability::Shooting => "shooting",
            Ability::Blasting => "blasting",
            Ability::Knockout => "knockout",
            Ability::Healing => "healing",
            Ability::Fighting => "fighting",
            Ability::Wrestling => "wrestling",
            Ability::Acrobatics => "acrobatics",
            Ability::Quickness => "quickness",
            Ability::Flying => "flying",
            Ability::Swimming => "swimming",
            Ability::Stalking => "stalking",
            Ability::Craftsmanship => "craftsmanship",
            Ability::Command => "command",
            Ability::Toughness => "toughness",
        }
    }

    /// Attack abilities (L73–L83): shooting, blasting, knockout, fighting, wrestling.
    ///
    /// ```
    /// assert!(dice_scratch_rps::Ability::Knockout.is_attack());
    /// ```
    pub const fn is_attack(self) -> bool {
        matches!(
            self,
            Ability::Shooting
                | Ability::Blasting
                | Ability::Knockout
                | Ability::Fighting
                | Ability::Wrestling
        )
    }

    /// Defensive abilities, the ones whose best level sets defense (L29): stalking (L87),
    /// acrobatics (L89), quickness (L91) and flying (L93). Swimming is not one (L95, SC-A10).
    ///
    /// ```
    /// assert!(dice_scratch_rps::Ability::Flying.is_defensive());
    /// ```
    pub const fn is_defensive(self) -> bool {
        matches!(
            self,
            Ability::Stalking | Ability::Acrobatics | Ability::Quickness | Ability::Flying
        )
    }

    /// Movement abilities (L49, L89–L95): acrobatics, quickness, flying, swimming.
    ///
    /// ```
    /// assert!(dice_scratch_rps::Ability::Swimming.is_movement());
    /// ```
    pub const fn is_movement(self) -> bool {
        matches!(
            self,
            Ability::Acrobatics | Ability::Quickness | Ability::Flying | Ability::Swimming
        )
    }

    /// Support abilities (L97–L107): healing, craftsmanship, command.
    ///
    /// ```
    /// assert!(dice_scratch_rps::Ability::Command.is_support());
    /// ```
    pub const fn is_support(self) -> bool {
        matches!(
            self,
            Ability::Healing | Ability::Craftsmanship | Ability::Command
        )
    }

    /// Vehicle operator abilities (L109–L117): driving, navigation, piloting.
    ///
    /// ```
    /// assert!(dice_scratch_rps::Ability::Navigation.is_vehicle());
    /// ```
    pub const fn is_vehicle(self) -> bool {
        matches!(
            self,
            Ability::Driving | Ability::Navigation | Ability::Piloting
        )
    }
}

impl fmt::Display for Ability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Ability {
    type Err = Error;

    /// The rulebook name, any case.
    fn from_str(s: &str) -> Result<Self, Error> {
        let t = s.trim();
        Ability::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| Error::UnknownAbility { name: t.to_owned() })
    }
}

/// A movement ability (L49): the abilities that evade, escape and catch.
///
/// ```
/// use dice_scratch_rps::{Ability, Movement};
/// assert_eq!(Movement::Flying.ability(), Ability::Flying);
/// assert_eq!(Movement::try_from(Ability::Quickness), Ok(Movement::Quickness));
/// assert!(Movement::try_from(Ability::Stalking).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Movement {
    /// Acrobatics (L89).
    Acrobatics,
    /// Quickness (L91).
    Quickness,
    /// Flying (L93).
    Flying,
    /// Swimming (L95).
    Swimming,
}

impl Movement {
    /// Every movement ability.
    pub const ALL: [Movement; 4] = [
        Movement::Acrobatics,
        Movement::Quickness,
        Movement::Flying,
        Movement::Swimming,
    ];

    /// The ability.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Movement};
    /// assert_eq!(Movement::Swimming.ability(), Ability::Swimming);
    /// ```
    pub const fn ability(self) -> Ability {
        match self {
            Movement::Acrobatics => Ability::Acrobatics,
            Movement::Quickness => Ability::Quickness,
            Movement::Flying => Ability::Flying,
            Movement::Swimming => Ability::Swimming,
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl From<Movement> for Ability {
    fn from(m: Movement) -> Ability {
        m.ability()
    }
}

impl TryFrom<Ability> for Movement {
    type Error = Error;
    fn try_from(a: Ability) -> Result<Movement, Error> {
        Movement::ALL
            .into_iter()
            .find(|m| m.ability() == a)
            .ok_or_else(|| Error::UnknownAbility {
                name: format!("{a} (not a movement ability)"),
            })
    }
}

impl fmt::Display for Movement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.ability().name())
    }
}

/// A kind of vehicle and the ability that operates it (L109–L117).
///
/// The vehicle rules themselves are not in the rulebook text (L111, L133; SC-R33, SC-A11), so
/// this crate only says who may operate what; a vehicle roll's difficulty is the caller's.
///
/// ```
/// use dice_scratch_rps::{Ability, Vehicle};
/// assert_eq!(Vehicle::AirOrSpace.ability(), Ability::Piloting);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Vehicle {
    /// A ground vehicle: driving (L113).
    Ground,
    /// A water vehicle: navigation (L115).
    Water,
    /// An air or space vehicle: piloting (L117).
    AirOrSpace,
}

impl Vehicle {
    /// The operating ability.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Vehicle};
    /// assert_eq!(Vehicle::Water.ability(), Ability::Navigation);
    /// ```
    pub const fn ability(self) -> Ability {
        match self {
            Vehicle::Ground => Ability::Driving,
            Vehicle::Water => Ability::Navigation,
            Vehicle::AirOrSpace => Ability::Piloting,
        }
    }
}

impl fmt::Display for Vehicle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Vehicle::Ground => "ground vehicle",
            Vehicle::Water => "water vehicle",
            Vehicle::AirOrSpace => "air or space vehicle",
        })
    }
}
