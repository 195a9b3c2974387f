//! The one error type of dice-swimclass.

use crate::skill::Skill;

/// Everything that can be wrong with the input to a constructor or a pure resolution of
/// this crate.
///
/// Each variant says what is wrong and what is allowed, so the message alone tells a user
/// what to change. Rolling a mechanic that was built successfully never fails.
///
/// ```
/// use dice_swimclass::{Error, Rules, SkillDice};
/// let err = SkillDice::new(2).apply(&[5, 7], &Rules::default()).unwrap_err();
/// assert_eq!(err, Error::Face { face: 7 });
/// assert_eq!(err.to_string(), "a d6 shows 1 to 6, not 7");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Invalid input to a dice-core constructor, or an exact law dice-core refuses.
    #[error(transparent)]
    Core(#[from] dice_core::Error),
    /// A face a d6 cannot show.
    #[error("a d6 shows 1 to 6, not {face}")]
    Face {
        /// The offending face.
        face: u32,
    },
    /// The pure form was given the wrong number of dice.
    #[error("{what} needs {expected} dice, but {given} were given")]
    DiceCount {
        /// Which roll.
        what: &'static str,
        /// The dice the roll has.
        expected: usize,
        /// The dice given.
        given: usize,
    },
    /// More dice than a Swimclass roll may hold.
    #[error("a roll holds at most {max} dice, not {count}")]
    TooManyDice {
        /// The dice asked for.
        count: u64,
        /// [`crate::MAX_POOL`].
        max: u32,
    },
    /// A number outside the range this library accepts.
    #[error("{what} {value} is outside {min}..={max}")]
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The offending value.
        value: i64,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A skill the character cannot use: an exotic skill at rank 0 without an artifact
    /// (L23, L54).
    #[error("{skill} is unavailable: rank 0 and no artifact (L23, L54)")]
    Unavailable {
        /// The skill.
        skill: Skill,
    },
    /// Character creation needs two different skills (L13).
    #[error("pick two different skills at creation (L13), not {skill} twice")]
    SamePick {
        /// The skill picked twice.
        skill: Skill,
    },
    /// A trait cannot be picked as a starting skill: it comes from your kind (L167–L171).
    #[error("{skill} is a trait: it comes from your kind, not from a pick (L167–L171)")]
    TraitPick {
        /// The trait.
        skill: Skill,
    },
    /// Straining needs a skill of rank 2 or higher (L89).
    #[error("only a skill of rank 2 or higher may be strained (L89), not rank {rank}")]
    Strain {
        /// The rank.
        rank: u32,
    },
    /// Pushing needs a skill with difficulty at most 3 and a factor of at least 2 (L93).
    #[error(
        "only a task of difficulty 3 or less may be pushed, by a factor of 2 or more (L93); not difficulty {difficulty} by {factor}"
    )]
    Push {
        /// The base difficulty.
        difficulty: u32,
        /// The push factor.
        factor: u32,
    },
    /// Specialized crafting needs general Craft 2 (L161).
    #[error("specialized crafting needs general Craft 2 (L161), not {rank}")]
    SpecializedCraft {
        /// The general Craft rank.
        rank: u32,
    },
    /// Combining needs at least one skill; splitting needs shares within the dice.
    #[error("{what}")]
    Combine {
        /// What is wrong.
        what: &'static str,
    },
    /// An explicit bonus assignment that the implements do not allow.
    #[error("bonus assignment: {what}")]
    Assignment {
        /// What is wrong.
        what: &'static str,
    },
    /// A rule the text leaves without a number: the caller must give it (SW-A17).
    #[error("{what} is not given by the rules (SW-A17): the caller must supply it")]
    Missing {
        /// What is missing.
        what: &'static str,
    },
    /// A rank above the rules' rank ceiling (SW-A24).
    #[error("rank {rank} is above the ceiling of {max} (SW-A24)")]
    RankCeiling {
        /// The rank.
        rank: u32,
        /// The ceiling.
        max: u32,
    },
    /// A scene that does not describe a fight the rules can play.
    #[error("the scene: {what}")]
    Scene {
        /// What is wrong.
        what: String,
    },
}
