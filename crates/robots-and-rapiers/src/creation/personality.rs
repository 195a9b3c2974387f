//! Personality Traits (L466-470, L880-908, L1150-1181): a short description rated 1-3,
//! programmed with the Role or developed with Self Awareness.

use core::fmt;

use super::error::CreationError;

/// Where a trait comes from (L1154).
///
/// ```
/// use dice_robots_and_rapiers::creation::TraitKind;
/// assert_eq!(TraitKind::Role.to_string(), "Role-related");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TraitKind {
    /// Programmed at creation; its ratings add up to the Role Score (L1365).
    Role,
    /// Developed by a Sparked robot, bought with Inspiration (L1170-1181, L1301-1310).
    SelfAwareness,
}

impl fmt::Display for TraitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            TraitKind::Role => "Role-related",
            TraitKind::SelfAwareness => "Self Awareness-related",
        })
    }
}

/// The highest trait rating (L470, L898).
pub const MAX_TRAIT_RATING: u8 = 3;

/// A Personality Trait: "no more than a sentence, and often just a word or a clause" and a
/// rating from 1 to 3 (L896).
///
/// ```
/// use dice_robots_and_rapiers::creation::PersonalityTrait;
/// let t = PersonalityTrait::role("Hate Lord Tornay", 2)?;
/// assert_eq!(t.to_string(), "Hate Lord Tornay 2");
/// assert!(PersonalityTrait::role("Afraid of heights", 4).is_err());
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PersonalityTrait {
    /// What the trait is ("Loyal to Cardinal Mathineau").
    pub description: String,
    /// Its strength, 1-3 (0 would mean gone, L1152).
    pub rating: u8,
    /// Role- or Self Awareness-related.
    pub kind: TraitKind,
}

impl PersonalityTrait {
    /// A trait of `kind`.
    ///
    /// # Errors
    /// [`CreationError::UnnamedTrait`]; [`CreationError::TraitRating`] unless 1-3.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{PersonalityTrait, TraitKind};
    /// let t = PersonalityTrait::new("Never wear the same shirt twice", 1, TraitKind::SelfAwareness)?;
    /// assert_eq!(t.kind, TraitKind::SelfAwareness);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn new(
        description: impl Into<String>,
        rating: u8,
        kind: TraitKind,
    ) -> Result<Self, CreationError> {
        let t = PersonalityTrait {
            description: description.into(),
            rating,
            kind,
        };
        t.check()?;
        Ok(t)
    }

    /// A Role-related trait, as chosen at creation.
    ///
    /// # Errors
    /// As [`PersonalityTrait::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{PersonalityTrait, TraitKind};
    /// assert_eq!(PersonalityTrait::role("Short Temper", 3)?.kind, TraitKind::Role);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn role(description: impl Into<String>, rating: u8) -> Result<Self, CreationError> {
        Self::new(description, rating, TraitKind::Role)
    }

    /// Checks the description and the 1-3 rating.
    ///
    /// # Errors
    /// As [`PersonalityTrait::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{PersonalityTrait, TraitKind};
    /// let t = PersonalityTrait { description: "Jealous Lover".into(), rating: 0, kind: TraitKind::Role };
    /// assert!(t.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), CreationError> {
        if self.description.trim().is_empty() {
            return Err(CreationError::UnnamedTrait);
        }
        if !(1..=MAX_TRAIT_RATING).contains(&self.rating) {
            return Err(CreationError::TraitRating {
                description: self.description.clone(),
                rating: self.rating,
            });
        }
        Ok(())
    }
}

impl fmt::Display for PersonalityTrait {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.description, self.rating)
    }
}

/// Checks a robot's traits against its Role Score: every trait rated 1-3 and the Role-related
/// ratings adding up to exactly the Role Score (L466-470, L898, L1365). At creation every
/// trait is Role-related; Self Awareness-related ones are not counted.
///
/// # Errors
/// The first trait's [`PersonalityTrait::check`] error, then [`CreationError::TraitTotal`].
///
/// ```
/// use dice_robots_and_rapiers::creation::{PersonalityTrait, check_traits};
/// let alfredo = [
///     PersonalityTrait::role("Flamboyant", 3)?,
///     PersonalityTrait::role("Reckless", 3)?,
///     PersonalityTrait::role("Eye for the ladies", 2)?,
///     PersonalityTrait::role("Relies on his comrades", 2)?,
/// ];
/// check_traits(&alfredo, 10)?;
/// assert!(check_traits(&alfredo[..3], 10).is_err());
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
pub fn check_traits(traits: &[PersonalityTrait], role: u8) -> Result<(), CreationError> {
    for t in traits {
        t.check()?;
    }
    let total: u32 = traits
        .iter()
        .filter(|t| t.kind == TraitKind::Role)
        .map(|t| u32::from(t.rating))
        .sum();
    if total != u32::from(role) {
        return Err(CreationError::TraitTotal { total, role });
    }
    Ok(())
}
