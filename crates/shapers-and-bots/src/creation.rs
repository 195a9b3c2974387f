//! Character creation: the characteristic adjustment (SB-R9, L198–230) and the skill packages
//! (SB-R11, L288–312), each validated with an error that names the broken rule.

use std::collections::BTreeMap;
use std::fmt;

use crate::character::{Characteristic, Characteristics, Shaping, Species};
use crate::error::Error;
use crate::level::{Level, Rating};
use crate::skills::SkillName;

/// Who builds a character, which decides how strictly creation is checked.
///
/// - [`CreatedBy::Player`]: every rule of L198–202 and L288–300, plus the strict rulings of
///   SB-A12 (no lowering a raised characteristic; no lowering without two raises).
/// - [`CreatedBy::Director`]: the lenient flag of SB-A12/SB-A13. The Director builds extras
///   and bots freely (L299–300: "the Director may very occasionally do this for extras";
///   L478–481), so only what cannot exist is refused: levels off the ladder, characteristics
///   the character does not have, and malformed skill lists.
///
/// ```
/// use dice_shapers_and_bots::{adjust_characteristics, Characteristic, CharacteristicChanges,
///     CreatedBy, Level, Species};
/// // Madica (L496–504) has fox Intellect High lowered to Average with no raise: not a
/// // legal player build (SB-E15, SB-A12), but the Director may make her.
/// let lower_iq = CharacteristicChanges { raise: vec![], lower: vec![Characteristic::Intellect] };
/// let fox = Species::Fox.characteristics();
/// assert!(adjust_characteristics(&fox, &lower_iq, CreatedBy::Player).is_err());
/// let madica = adjust_characteristics(&fox, &lower_iq, CreatedBy::Director)?;
/// assert_eq!(madica.intellect, Level::Average);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CreatedBy {
    /// A player character: the strict checks.
    #[default]
    Player,
    /// An extra or bot made by the Director: the lenient checks.
    Director,
}

impl fmt::Display for CreatedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CreatedBy::Player => "player",
            CreatedBy::Director => "Director",
        })
    }
}

/// The characteristics raised and lowered at creation, one level each (L198–200).
///
/// ```
/// use dice_shapers_and_bots::{Characteristic as C, CharacteristicChanges};
/// let nang_ma = CharacteristicChanges::raise_two_lower_one(C::Size, C::Fitness, C::Smell);
/// assert_eq!(nang_ma.raise, [C::Size, C::Fitness]);
/// assert_eq!(nang_ma.to_string(), "+SIZ +FIT -SML");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CharacteristicChanges {
    /// Each raised by one level.
    pub raise: Vec<Characteristic>,
    /// Each lowered by one level.
    pub lower: Vec<Characteristic>,
}

impl CharacteristicChanges {
    /// No change ("she may", L199).
    ///
    /// ```
    /// assert!(dice_shapers_and_bots::CharacteristicChanges::none().raise.is_empty());
    /// ```
    pub fn none() -> Self {
        Self::default()
    }

    /// "raise one characteristic by one level" (L199).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristic, CharacteristicChanges};
    /// let larrapin = CharacteristicChanges::raise(Characteristic::Intellect);
    /// assert_eq!(larrapin.raise.len(), 1);
    /// ```
    pub fn raise(characteristic: Characteristic) -> Self {
        CharacteristicChanges {
            raise: vec![characteristic],
            lower: vec![],
        }
    }

    /// "two characteristics by one level each if she also *lowers* one characteristic by one
    /// level" (L200).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristic as C, CharacteristicChanges};
    /// let c = CharacteristicChanges::raise_two_lower_one(C::Sight, C::Hearing, C::Dexterity);
    /// assert_eq!(c.lower, [C::Dexterity]);
    /// ```
    pub fn raise_two_lower_one(
        first: Characteristic,
        second: Characteristic,
        lowered: Characteristic,
    ) -> Self {
        CharacteristicChanges {
            raise: vec![first, second],
            lower: vec![lowered],
        }
    }
}

impl fmt::Display for CharacteristicChanges {
    /// `+IQ`, `+SIZ +FIT -SML`, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.raise.is_empty() && self.lower.is_empty() {
            return f.write_str("none");
        }
        let parts = self
            .raise
            .iter()
            .map(|c| format!("+{}", c.abbreviation()))
            .chain(self.lower.iter().map(|c| format!("-{}", c.abbreviation())));
        f.write_str(&parts.collect::<Vec<_>>().join(" "))
    }
}

/// Checks that `c` exists on the character and may be adjusted.
fn adjustable(base: &Characteristics, c: Characteristic, by: CreatedBy) -> Result<Level, Error> {
    let not = |reason| Error::CharacteristicNotAdjustable {
        characteristic: c,
        reason,
    };
    if by == CreatedBy::Player && matches!(c, Characteristic::Courage | Characteristic::Honesty) {
        return Err(not(
            "player characters have no Courage or Honesty scores (L165–166)",
        ));
    }
    match base.get(c) {
        Some(Rating::Rated(l)) => Ok(l),
        Some(Rating::NoRating) => Err(not(
            "it has no rating (the first-raise rule of L296–298 is for skills only)",
        )),
        None => Err(not(match c {
            Characteristic::Size => "Size is listed as Height and Weight (L138–141)",
            Characteristic::Height | Characteristic::Weight => {
                "Height and Weight are not listed separately (L138–141)"
            }
            _ => "only important extras have Courage and Honesty (L158–163)",
        })),
    }
}

/// Applies the characteristic adjustment of character creation (SB-R9, L198–202) to a
/// species' (or any) characteristics, checking the rules in this order and returning the
/// first broken one:
///
/// 1. the package: nothing, one raise, or two raises and one lowering (L198–200) —
///    [`Error::CharacteristicPackage`];
/// 2. each characteristic named exists and may be adjusted (Courage and Honesty are not a
///    player character's, L165–166; Size vs Height and Weight, L138–141; a characteristic
///    with no rating) — [`Error::CharacteristicNotAdjustable`];
/// 3. no characteristic raised twice (L201) — [`Error::CharacteristicRaisedTwice`];
/// 4. the lowered one is not a raised one (SB-A12, strict ruling) —
///    [`Error::RaisedCharacteristicLowered`];
/// 5. no raise above Very High (L202) — [`Error::CharacteristicAboveVeryHigh`];
/// 6. no lowering below Very Low (the ladder, SB-A12) — [`Error::CharacteristicBelowVeryLow`].
///
/// For [`CreatedBy::Director`] only 2 and the ladder's ends (6, and Awesome at the top —
/// [`Error::CharacteristicAboveAwesome`]) are checked, and repeated changes add up.
///
/// # Errors
/// As listed.
///
/// ```
/// use dice_shapers_and_bots::{adjust_characteristics, Characteristic as C,
///     CharacteristicChanges, CreatedBy, Error, Level, Rating, Size, Species};
/// // SB-E7 (L218–230): Nang-ma the turtle raises Size and Fitness and lowers Smell.
/// let nang_ma = adjust_characteristics(
///     &Species::Turtle.characteristics(),
///     &CharacteristicChanges::raise_two_lower_one(C::Size, C::Fitness, C::Smell),
///     CreatedBy::Player,
/// )?;
/// assert_eq!(nang_ma.size, Size::Single(Level::Average));
/// assert_eq!(nang_ma.smell, Rating::Rated(Level::Low));
///
/// // A parrot's Very High Fitness cannot go higher (L202).
/// let err = adjust_characteristics(
///     &Species::Parrot.characteristics(),
///     &CharacteristicChanges::raise(C::Fitness),
///     CreatedBy::Player,
/// ).unwrap_err();
/// assert_eq!(err, Error::CharacteristicAboveVeryHigh { characteristic: C::Fitness });
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
pub fn adjust_characteristics(
    base: &Characteristics,
    changes: &CharacteristicChanges,
    by: CreatedBy,
) -> Result<Characteristics, Error> {
    let (raise, lower) = (&changes.raise, &changes.lower);
    let strict = by == CreatedBy::Player;
    if strict && !matches!((raise.len(), lower.len()), (0, 0) | (1, 0) | (2, 1)) {
        return Err(Error::CharacteristicPackage {
            raised: raise.len(),
            lowered: lower.len(),
        });
    }
    for &c in raise.iter().chain(lower) {
        adjustable(base, c, by)?;
    }
    if strict {
        for (i, c) in raise.iter().enumerate() {
            if raise[..i].contains(c) {
                return Err(Error::CharacteristicRaisedTwice { characteristic: *c });
            }
        }
        if let Some(c) = lower.iter().find(|c| raise.contains(c)) {
            return Err(Error::RaisedCharacteristicLowered { characteristic: *c });
        }
    }
    // Net steps per characteristic, in a fixed order.
    let mut steps: BTreeMap<Characteristic, i32> = BTreeMap::new();
    for &c in raise {
        *steps.entry(c).or_default() += 1;
    }
    for &c in lower {
        *steps.entry(c).or_default() -= 1;
    }
    let mut out = *base;
    for (&c, &n) in &steps {
        let from = adjustable(base, c, by)?;
        let index = i32::from(from.index()) + n;
        let to = u8::try_from(index).ok().and_then(Level::from_index);
        let to = match to {
            Some(l) if strict && n > 0 && l > Level::VeryHigh => {
                return Err(Error::CharacteristicAboveVeryHigh { characteristic: c });
            }
            Some(l) => l,
            None if index < 0 => {
                return Err(Error::CharacteristicBelowVeryLow { characteristic: c });
            }
            None => return Err(Error::CharacteristicAboveAwesome { characteristic: c }),
        };
        out.set(c, to);
    }
    Ok(out)
}

/// One skill raised at creation by `levels` levels.
///
/// ```
/// use dice_shapers_and_bots::{Skill, SkillName, SkillRaise};
/// let climb = SkillRaise::new(SkillName::listed(Skill::Climbing)?, 2);
/// assert_eq!(climb.to_string(), "Climbing +2");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SkillRaise {
    /// The skill.
    pub skill: SkillName,
    /// Levels raised.
    pub levels: u8,
}

impl SkillRaise {
    /// `skill` raised by `levels` (checked by [`raise_skills`]).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Skill, SkillName, SkillRaise};
    /// let r = SkillRaise::new(SkillName::specialty(Skill::Lore, "history")?, 1);
    /// assert_eq!(r.levels, 1);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn new(skill: impl Into<SkillName>, levels: u8) -> Self {
        SkillRaise {
            skill: skill.into(),
            levels,
        }
    }
}

impl fmt::Display for SkillRaise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} +{}", self.skill, self.levels)
    }
}

/// The four ways a player may raise skills at creation (L291–294); each is four levels.
///
/// ```
/// use dice_shapers_and_bots::SkillPackage;
/// assert_eq!(SkillPackage::matching(&[1, 2, 1]), Some(SkillPackage::OneByTwoTwoByOne));
/// assert_eq!(SkillPackage::matching(&[2, 1]), None);
/// assert_eq!(SkillPackage::TwoByTwo.levels(), &[2, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SkillPackage {
    /// "Raise 4 skills by 1 level each" (L291).
    FourByOne,
    /// "Raise 1 skill by 2 levels and 2 skills by 1 level each" (L292).
    OneByTwoTwoByOne,
    /// "Raise 2 skills by 2 levels each" (L293).
    TwoByTwo,
    /// "Raise 1 skill by 3 levels and 1 skill by 1 level" (L294).
    OneByThreeOneByOne,
}

impl SkillPackage {
    /// The four packages.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::SkillPackage::ALL.len(), 4);
    /// ```
    pub const ALL: [SkillPackage; 4] = [
        SkillPackage::FourByOne,
        SkillPackage::OneByTwoTwoByOne,
        SkillPackage::TwoByTwo,
        SkillPackage::OneByThreeOneByOne,
    ];

    /// The levels of the package, largest first.
    ///
    /// ```
    /// use dice_shapers_and_bots::SkillPackage;
    /// assert!(SkillPackage::ALL.iter().all(|p| p.levels().iter().sum::<u8>() == 4));
    /// ```
    pub const fn levels(self) -> &'static [u8] {
        match self {
            SkillPackage::FourByOne => &[1, 1, 1, 1],
            SkillPackage::OneByTwoTwoByOne => &[2, 1, 1],
            SkillPackage::TwoByTwo => &[2, 2],
            SkillPackage::OneByThreeOneByOne => &[3, 1],
        }
    }

    /// The package whose levels are `levels` in any order, if any.
    ///
    /// ```
    /// use dice_shapers_and_bots::SkillPackage;
    /// assert_eq!(SkillPackage::matching(&[1, 3]), Some(SkillPackage::OneByThreeOneByOne));
    /// assert_eq!(SkillPackage::matching(&[4]), None);
    /// ```
    pub fn matching(levels: &[u8]) -> Option<SkillPackage> {
        let mut sorted = levels.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        SkillPackage::ALL
            .into_iter()
            .find(|p| p.levels() == sorted.as_slice())
    }
}

impl fmt::Display for SkillPackage {
    /// `{2,1,1}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l: Vec<String> = self.levels().iter().map(u8::to_string).collect();
        write!(f, "{{{}}}", l.join(","))
    }
}

/// A character's skill ratings that differ from their starting levels; every other skill is
/// at its start ([`SkillName::start`]).
///
/// ```
/// use dice_shapers_and_bots::{Level, Rating, Skill, SkillName, Skills, Species};
/// let fox = Species::Fox.characteristics();
/// let mut madica = Skills::new();
/// madica.set(SkillName::listed(Skill::Boating)?, Rating::Rated(Level::VeryHigh));
/// assert_eq!(madica.rating(&SkillName::listed(Skill::Boating)?, &fox), Rating::Rated(Level::VeryHigh));
/// assert_eq!(madica.rating(&SkillName::listed(Skill::Medicine)?, &fox), Rating::NoRating);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Skills {
    ratings: BTreeMap<SkillName, Rating>,
}

impl Skills {
    /// No skill away from its start.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Skills::new(), Default::default());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets a rating directly (the Director's characters, leveling up — which the rulebook
    /// has not written yet, L316).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Rating, Skill, SkillName, Skills, Species};
    /// let mut s = Skills::new();
    /// s.set(SkillName::listed(Skill::Driving)?, Rating::Rated(Level::Low));
    /// let c = Species::Goat.characteristics();
    /// assert_eq!(s.rating(&SkillName::listed(Skill::Driving)?, &c), Rating::Rated(Level::Low));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn set(&mut self, skill: SkillName, rating: Rating) {
        self.ratings.insert(skill, rating);
    }

    /// The rating of `skill` for a character with `characteristics`.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Level, Rating, Skill, SkillName, Skills, Species};
    /// let c = Species::Monkey.characteristics();
    /// let craft = SkillName::specialty(Skill::Craft, "woodwork")?;
    /// assert_eq!(Skills::new().rating(&craft, &c), Rating::Rated(Level::VeryHigh)); // DEX
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn rating(&self, skill: &SkillName, characteristics: &Characteristics) -> Rating {
        self.ratings
            .get(skill)
            .copied()
            .unwrap_or_else(|| skill.start(characteristics))
    }

    /// The skills set, in order.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Skills::new().iter().count(), 0);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&SkillName, Rating)> + '_ {
        self.ratings.iter().map(|(k, v)| (k, *v))
    }
}

/// Applies the skill raises of character creation (SB-R11, L288–300) for a character with
/// `characteristics` (after their adjustment: a skill starting at a characteristic starts at
/// its adjusted level). Checks, in this order, returning the first broken rule:
///
/// 1. names: a category needs a specialty (L280–286) — [`Error::SpecialtyRequired`],
///    [`Error::NotACategory`];
/// 2. no raise of zero levels — [`Error::SkillRaisedZeroLevels`];
/// 3. no skill listed twice — [`Error::SkillListedTwice`];
/// 4. no skill raised by four levels or more (L299) — [`Error::SkillRaisedFourLevels`];
/// 5. the raises are one of the four packages, or none at all (L291–294) —
///    [`Error::SkillPackage`];
/// 6. nothing above Awesome, the top of the ladder (no other skill cap is stated, SB-A13) —
///    [`Error::SkillAboveAwesome`].
///
/// A skill with no starting level goes to Low on its first raise, not Very Low (L296–298).
/// For [`CreatedBy::Director`] only 1–3 and 6 are checked (L299–300).
///
/// # Errors
/// As listed.
///
/// ```
/// use dice_shapers_and_bots::{raise_skills, CreatedBy, Level, Rating, Skill, SkillName,
///     SkillRaise, Species};
/// // SB-E8 (L303–306): Larrapin raises Climbing by 2 from Average, First Aid from Very Low
/// // and Medicine from nothing, each by 1.
/// let rabbit = Species::Rabbit.characteristics();
/// let climbing = SkillName::listed(Skill::Climbing)?;
/// let medicine = SkillName::listed(Skill::Medicine)?;
/// let skills = raise_skills(&rabbit, &[
///     SkillRaise::new(climbing.clone(), 2),
///     SkillRaise::new(SkillName::listed(Skill::FirstAid)?, 1),
///     SkillRaise::new(medicine.clone(), 1),
/// ], CreatedBy::Player)?;
/// assert_eq!(skills.rating(&climbing, &rabbit), Rating::Rated(Level::VeryHigh));
/// assert_eq!(skills.rating(&medicine, &rabbit), Rating::Rated(Level::Low));
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
pub fn raise_skills(
    characteristics: &Characteristics,
    raises: &[SkillRaise],
    by: CreatedBy,
) -> Result<Skills, Error> {
    let strict = by == CreatedBy::Player;
    for r in raises {
        r.skill.check()?;
    }
    if let Some(r) = raises.iter().find(|r| r.levels == 0) {
        return Err(Error::SkillRaisedZeroLevels {
            skill: r.skill.to_string(),
        });
    }
    for (i, r) in raises.iter().enumerate() {
        if raises[..i].iter().any(|o| o.skill == r.skill) {
            return Err(Error::SkillListedTwice {
                skill: r.skill.to_string(),
            });
        }
    }
    if strict {
        if let Some(r) = raises.iter().find(|r| r.levels >= 4) {
            return Err(Error::SkillRaisedFourLevels {
                skill: r.skill.to_string(),
                levels: r.levels,
            });
        }
        let levels: Vec<u8> = raises.iter().map(|r| r.levels).collect();
        if !levels.is_empty() && SkillPackage::matching(&levels).is_none() {
            let mut levels = levels;
            levels.sort_unstable_by(|a, b| b.cmp(a));
            return Err(Error::SkillPackage { levels });
        }
    }
    let mut skills = Skills::new();
    for r in raises {
        let to = r
            .skill
            .start(characteristics)
            .raised(r.levels)
            .ok_or_else(|| Error::SkillAboveAwesome {
                skill: r.skill.to_string(),
            })?;
        skills.set(r.skill.clone(), to);
    }
    Ok(skills)
}

/// A character: characteristics, skills, and a shaping power if any.
///
/// ```
/// use dice_shapers_and_bots::{Character, CharacteristicChanges, Characteristic, Level,
///     Species};
/// // SB-E6 (L205–216): Larrapin, a rabbit whose Intellect is raised to High.
/// let larrapin = Character::create(
///     Species::Rabbit,
///     &CharacteristicChanges::raise(Characteristic::Intellect),
///     &[],
/// )?;
/// assert_eq!(larrapin.characteristics.intellect, Level::High);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Character {
    /// The species, for living characters (bots have none).
    pub species: Option<Species>,
    /// The characteristics.
    pub characteristics: Characteristics,
    /// Skills away from their starting level.
    pub skills: Skills,
    /// A shaping power, set by the Director (SB-A14).
    pub shaping: Option<Shaping>,
}

impl Character {
    /// A player character of `species`, with the creation choices checked by
    /// [`adjust_characteristics`] and then [`raise_skills`] (skills start from the adjusted
    /// characteristics).
    ///
    /// # Errors
    /// The first broken rule, as those functions list.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Character, Characteristic as C, CharacteristicChanges,
    ///     Level, Rating, Skill, SkillName, SkillRaise, Species};
    /// let nang_ma = Character::create(
    ///     Species::Turtle,
    ///     &CharacteristicChanges::raise_two_lower_one(C::Size, C::Fitness, C::Smell),
    ///     &[SkillRaise::new(SkillName::listed(Skill::Swimming)?, 2),
    ///       SkillRaise::new(SkillName::listed(Skill::Boating)?, 2)],
    /// )?;
    /// assert_eq!(nang_ma.skill(&SkillName::listed(Skill::Swimming)?), Rating::Rated(Level::Average));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn create(
        species: Species,
        changes: &CharacteristicChanges,
        raises: &[SkillRaise],
    ) -> Result<Self, Error> {
        let characteristics =
            adjust_characteristics(&species.characteristics(), changes, CreatedBy::Player)?;
        let skills = raise_skills(&characteristics, raises, CreatedBy::Player)?;
        Ok(Character {
            species: Some(species),
            characteristics,
            skills,
            shaping: None,
        })
    }

    /// The rating of a skill.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Character, CharacteristicChanges, Level, Rating, Skill,
    ///     SkillName, Species};
    /// let c = Character::create(Species::Bear, &CharacteristicChanges::none(), &[])?;
    /// assert_eq!(c.skill(&SkillName::listed(Skill::Brawling)?), Rating::Rated(Level::High));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn skill(&self, skill: &SkillName) -> Rating {
        self.skills.rating(skill, &self.characteristics)
    }
}
