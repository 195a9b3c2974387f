//! Dreamscapes: Physical Attributes are replaced by Social or Mental ones (PC-R11, L29–32).

use core::fmt;

/// How a character entered the dreamscape (L32).
///
/// ```
/// use dice_shapers_percentile::DreamEntry;
/// assert_eq!(DreamEntry::Asleep.to_string(), "asleep or unconscious");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DreamEntry {
    /// "Asleep or otherwise unconscious": substitute the Social Attributes.
    Asleep,
    /// "Fully awake": substitute the Social or the Mental Attribute, whichever is higher.
    Awake,
}

impl fmt::Display for DreamEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            DreamEntry::Asleep => "asleep or unconscious",
            DreamEntry::Awake => "fully awake",
        })
    }
}

/// The Attribute that stands in for a Physical one in a dreamscape, given the Social and
/// the Mental Attribute of the same kind (L32): the Social one when the character entered
/// asleep, the higher of the two when awake.
///
/// The text calls this "a general rule of thumb"; a GM who rules otherwise passes the
/// attributes directly.
///
/// ```
/// use dice_shapers_percentile::{DreamEntry, dreamscape_attribute};
/// assert_eq!(dreamscape_attribute(8, 14, DreamEntry::Asleep), 8);
/// assert_eq!(dreamscape_attribute(8, 14, DreamEntry::Awake), 14);
/// ```
pub fn dreamscape_attribute(social: i32, mental: i32, entry: DreamEntry) -> i32 {
    match entry {
        DreamEntry::Asleep => social,
        DreamEntry::Awake => social.max(mental),
    }
}

/// Strength, Agility and Fortitude of one of the three spheres.
///
/// ```
/// use dice_shapers_percentile::Triad;
/// let t = Triad { strength: 10, agility: 12, fortitude: 8 };
/// assert_eq!(t.agility, 12);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Triad {
    /// Strength.
    pub strength: i32,
    /// Agility.
    pub agility: i32,
    /// Fortitude.
    pub fortitude: i32,
}

/// A character's Physical, Social and Mental Attributes (the chapter names Physical
/// Strength, Agility and Fortitude, L32, L70, and Social and Mental Fortitude, L73; MA is read
/// as Mental Agility, PC-A9).
///
/// ```
/// use dice_shapers_percentile::{Attributes, DreamEntry, Triad};
/// let a = Attributes {
///     physical: Triad { strength: 15, agility: 12, fortitude: 14 },
///     social: Triad { strength: 9, agility: 11, fortitude: 7 },
///     mental: Triad { strength: 13, agility: 8, fortitude: 10 },
/// };
/// let dreaming = a.in_dreamscape(DreamEntry::Awake);
/// assert_eq!(dreaming.physical, Triad { strength: 13, agility: 11, fortitude: 10 });
/// assert_eq!(a.in_dreamscape(DreamEntry::Asleep).physical, a.social);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Attributes {
    /// Physical Strength, Agility and Fortitude.
    pub physical: Triad,
    /// Social Strength, Agility and Fortitude.
    pub social: Triad,
    /// Mental Strength, Agility and Fortitude.
    pub mental: Triad,
}

impl Attributes {
    /// The attributes "wherever the rules would normally refer to Physical Strength, Physical
    /// Agility or Physical Fortitude" in a dreamscape (L32): each Physical Attribute replaced
    /// by [`dreamscape_attribute`] of the Social and Mental ones of the same kind. Social and
    /// Mental stay as they are.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attributes, DreamEntry, Triad};
    /// let a = Attributes { social: Triad { strength: 4, agility: 5, fortitude: 6 }, ..Default::default() };
    /// assert_eq!(a.in_dreamscape(DreamEntry::Asleep).physical.fortitude, 6);
    /// ```
    pub fn in_dreamscape(&self, entry: DreamEntry) -> Attributes {
        let sub = |s: i32, m: i32| dreamscape_attribute(s, m, entry);
        Attributes {
            physical: Triad {
                strength: sub(self.social.strength, self.mental.strength),
                agility: sub(self.social.agility, self.mental.agility),
                fortitude: sub(self.social.fortitude, self.mental.fortitude),
            },
            social: self.social,
            mental: self.mental,
        }
    }
}
