//! The one error type of the crate: every message says what is wrong, which rule it breaks
//! (digest id and rulebook lines) and what is allowed.

use crate::character::Characteristic;
use crate::injury::WeaponClass;
use crate::skills::Skill;

/// Everything that can be wrong with the input to a Shapers and Bots mechanic.
///
/// Rolling never fails: all checks happen when a mechanic is built or when dice already
/// rolled are handed to a pure form. [`Error::rule`] names the rule a variant enforces.
///
/// ```
/// use dice_shapers_and_bots::{Error, Level};
/// let err = "Middling".parse::<Level>().unwrap_err();
/// assert!(matches!(err, Error::UnknownLevel { .. }));
/// assert_eq!(err.rule(), Some("SB-R1"));
/// assert!(err.to_string().contains("Very Low (Awful)"));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A dice-core constructor refused its input.
    #[error(transparent)]
    Core(#[from] dice_core::Error),

    // ----------------------------------------------------------------- names and dice
    /// A level name that is not on the ladder.
    #[error(
        "unknown level {text:?}: expected Very Low (Awful), Low (Poor), Average, High (Good), \
         Very High (Great) or Awesome{}",
        if *.rating { ", or none for no rating" } else { "" }
    )]
    UnknownLevel {
        /// The text given.
        text: String,
        /// Whether "no rating" was also allowed here.
        rating: bool,
    },
    /// A characteristic name or abbreviation the rulebook does not use.
    #[error(
        "unknown characteristic {text:?}: expected SIZ, HGT, WGT, FIT, DEX, IQ (or INT), SGT, \
         HER, SML, CRG or HON, or their full names (L137–163)"
    )]
    UnknownCharacteristic {
        /// The text given.
        text: String,
    },
    /// A species that is not in the species table.
    #[error("unknown species {text:?}: the species table (L176–196) lists bear … zebra")]
    UnknownSpecies {
        /// The text given.
        text: String,
    },
    /// A skill that is not in the skill list.
    #[error(
        "unknown skill {text:?}: the skill list is at L243–278 (the Director may add others \
         as SkillName::Custom, L308)"
    )]
    UnknownSkill {
        /// The text given.
        text: String,
    },
    /// A face no d6 shows.
    #[error("a d6 shows 1 to 6, not {face} (SB-A16: the dice are d6)")]
    Face {
        /// The face given.
        face: u8,
    },
    /// The wrong number of dice for a two-dice roll.
    #[error("a challenge, contest or attack rolls two dice (L71, L97, L353), not {got}")]
    DiceCount {
        /// How many were given.
        got: usize,
    },
    /// Faces that all continue a streak: the pure form needs the die that ends it.
    #[error(
        "all {faces} faces given continue the streak; give the face that ends it \
         (L117–118: \"rolls again until she misses a roll\")"
    )]
    StreakUnfinished {
        /// How many faces were given.
        faces: usize,
    },

    // ----------------------------------------------------------------- rolls
    /// A bonus or modifier on a fluke, which adds none.
    #[error(
        "a character with no rating rolls a fluke, whose score is the streak alone \
         (L115–119, SB-R6): a modifier of {modifier:+} cannot apply"
    )]
    NoBonusForFluke {
        /// The modifier asked for.
        modifier: i32,
    },
    /// A fluke where the rulings only allow challenge-type tasks.
    #[error(
        "SB-A21: a fluke is only rolled for a challenge-type task (L113–119); set \
         Rules::fluke_in_contests to allow one in {what}"
    )]
    FlukeNotAllowed {
        /// Where it was asked for ("a contest", "a defended attack").
        what: &'static str,
    },
    /// A surprise bonus other than +1 or +2.
    #[error("the Director's surprise bonus is +1 or +2 (L370, SB-A18), not {bonus:+}")]
    Surprise {
        /// The bonus asked for.
        bonus: i32,
    },

    // ----------------------------------------------------------------- injury
    /// The armored entry for a really powerful weapon, which the rulebook does not give.
    #[error(
        "SB-A6: the rulebook gives no damage for a {class} against an armored target \
         (L400–412); set Rules::armored_really_powerful to the table's ruling"
    )]
    MissingDamageRule {
        /// The weapon class.
        class: WeaponClass,
    },
    /// A damage rule naming a face no d6 shows.
    #[error("a damage rule names d6 faces 1 to 6 (L392–412), not {face}")]
    DamageFace {
        /// The face.
        face: u32,
    },
    /// Hit points of a character whose Size is recorded as Height and Weight, under the
    /// ruling that asks for the Size explicitly.
    #[error(
        "SB-A7: hit points use \"the target figure for their Size\" (L374), and this \
         character records Height and Weight instead; with HpSizeSource::Explicit, call \
         hit_points(size, fitness) with the Size the Director picks"
    )]
    SizeForHitPointsRequired,
    /// A maximum of hit points no character can have.
    #[error(
        "a character has at least 1 hit point (Very Low Size, Very Low Fitness: 3 − 2, \
         L374–375), not {max}"
    )]
    HitPoints {
        /// The maximum given.
        max: i32,
    },

    // ----------------------------------------------------------------- combat
    /// An action when none are left this turn.
    #[error(
        "{action}: no actions left this turn (two per turn, L330–331; only a defense may \
         borrow from the next turn, L362–363)"
    )]
    NoActionsLeft {
        /// The action asked for.
        action: crate::combat::Action,
    },
    /// A defense that would borrow beyond the ruling's limit.
    #[error(
        "SB-A19: a defender may borrow at most {limit} action(s) from later turns \
         (L362–363); set Rules::max_borrowed_actions to allow more"
    )]
    BorrowLimit {
        /// [`crate::Rules::max_borrowed_actions`].
        limit: u8,
    },
    /// A fighter index outside the fight.
    #[error("there is no fighter {index} in a fight of {count}")]
    NoSuchFighter {
        /// The index given.
        index: usize,
        /// How many fighters there are.
        count: usize,
    },
    /// A fighter acting when it is not their turn.
    #[error(
        "fighter {fighter} cannot {action} now: it is fighter {current}'s turn, and characters \
         act in order of Fitness (L324–325); out of turn a fighter may only defend against an \
         attack (L351, L362–363)"
    )]
    OutOfTurn {
        /// The fighter who tried to act.
        fighter: usize,
        /// The fighter whose turn it is.
        current: usize,
        /// The action asked for.
        action: crate::combat::Action,
    },
    /// An unconscious fighter trying to act.
    #[error(
        "fighter {fighter} cannot {action}: they are unconscious (L432: \"When a character's \
         HP reaches zero they are unconscious\")"
    )]
    Unconscious {
        /// The fighter.
        fighter: usize,
        /// The action asked for.
        action: crate::combat::Action,
    },
    /// A turn order that does not list every fighter exactly once.
    #[error(
        "fighter {fighter} is listed {listed} time(s) in the turn order: a fight's order lists \
         each fighter once, and each acts once a turn in that order (L324–328)"
    )]
    TurnOrderListing {
        /// The first fighter listed other than once.
        fighter: usize,
        /// How many times it is listed.
        listed: usize,
    },
    /// Tie rolls that ran out while fighters were still tied.
    #[error(
        "fighters {first} and {second} are tied on Fitness and their tie rolls ran out \
         before one went first (L326–327, SB-A11: re-roll until strictly ordered)"
    )]
    InitiativeTieUnresolved {
        /// One of the tied fighters.
        first: usize,
        /// The other.
        second: usize,
    },
    /// A tie roll that cannot break a tie.
    #[error(
        "the initiative tie roll has no dice, so it can never break a tie (L326–327); \
         give at least one die"
    )]
    TieRollWithoutDice,
    /// A fight whose fighters are all on one side (or with no fighters at all).
    #[error(
        "a fight needs fighters on at least two sides, got {sides} side(s): a fight ends \
         when one side is left standing (L432)"
    )]
    FightSides {
        /// How many sides the fighters are on.
        sides: usize,
    },
    /// More fighters than a whole fight can follow.
    #[error("a fight of {count} fighters is more than the {max} this crate can follow")]
    TooManyFighters {
        /// How many were given.
        count: usize,
        /// The most allowed.
        max: usize,
    },
    /// A fighter in a scene described wrongly.
    #[error("fighter {name:?}: {reason}")]
    Fighter {
        /// The fighter's name.
        name: String,
        /// What is wrong.
        reason: String,
    },

    // ----------------------------------------------------------------- creation
    /// Characteristic changes that are none of the allowed packages.
    #[error(
        "SB-R9: at creation a player may raise one characteristic, or raise two and lower \
         one (L198–200); got {raised} raise(s) and {lowered} lowering(s)"
    )]
    CharacteristicPackage {
        /// Raises asked for.
        raised: usize,
        /// Lowerings asked for.
        lowered: usize,
    },
    /// A characteristic that cannot be adjusted on this character.
    #[error("{characteristic} cannot be adjusted: {reason}")]
    CharacteristicNotAdjustable {
        /// The characteristic.
        characteristic: Characteristic,
        /// Why (with the rulebook lines).
        reason: &'static str,
    },
    /// The same characteristic raised twice.
    #[error(
        "SB-R9: {characteristic} cannot be raised by two levels (L201: \"She cannot raise \
         one characteristic by two levels\")"
    )]
    CharacteristicRaisedTwice {
        /// The characteristic.
        characteristic: Characteristic,
    },
    /// A characteristic both raised and lowered.
    #[error(
        "SB-A12: {characteristic} is both raised and lowered; the strict ruling lowers a \
         different characteristic (L199–200)"
    )]
    RaisedCharacteristicLowered {
        /// The characteristic.
        characteristic: Characteristic,
    },
    /// A raise above Very High.
    #[error(
        "SB-R9: {characteristic} would go above Very High (L202: \"cannot raise any \
         characteristic above Very High\")"
    )]
    CharacteristicAboveVeryHigh {
        /// The characteristic.
        characteristic: Characteristic,
    },
    /// A lowering below Very Low.
    #[error("{characteristic} is already Very Low, the bottom of the ladder (L50–57, SB-A12)")]
    CharacteristicBelowVeryLow {
        /// The characteristic.
        characteristic: Characteristic,
    },
    /// A Director's change that would take a characteristic past Awesome.
    #[error("{characteristic} would go above Awesome, the top of the ladder")]
    CharacteristicAboveAwesome {
        /// The characteristic.
        characteristic: Characteristic,
    },
    /// Skill raises that are none of the four packages.
    #[error(
        "SB-R11: skill raises of {levels:?} levels are none of the packages {{1,1,1,1}}, \
         {{2,1,1}}, {{2,2}}, {{3,1}} (L288–294)"
    )]
    SkillPackage {
        /// The levels asked for, largest first.
        levels: Vec<u8>,
    },
    /// A skill raised by four or more levels.
    #[error(
        "SB-R11: {skill} cannot be raised by {levels} levels (L299: \"Characters cannot \
         raise one skill by four levels\")"
    )]
    SkillRaisedFourLevels {
        /// The skill.
        skill: String,
        /// The levels asked for.
        levels: u8,
    },
    /// A raise of zero levels.
    #[error("SB-R11: a raise of {skill} by 0 levels is not a raise (L291–294)")]
    SkillRaisedZeroLevels {
        /// The skill.
        skill: String,
    },
    /// The same skill in two raises.
    #[error("SB-R11: {skill} is listed twice; each package raises different skills (L291–294)")]
    SkillListedTwice {
        /// The skill.
        skill: String,
    },
    /// A skill raised beyond Awesome.
    #[error("{skill} would go above Awesome, the top of the ladder (L50–57, SB-A13)")]
    SkillAboveAwesome {
        /// The skill.
        skill: String,
    },
    /// A category skill raised without a specialty.
    #[error(
        "{skill} is a category: raise a specialty of it (L280–286: \"Specialties within \
         each category must be mastered separately\")"
    )]
    SpecialtyRequired {
        /// The category.
        skill: Skill,
    },
    /// A skill added by the Director under the name of a skill on the master list.
    #[error(
        "{name:?} is {skill} on the master list (L243–278): the Director adds skills that are \
         not in it (L308); use SkillName::listed"
    )]
    CustomSkillListed {
        /// The name given.
        name: String,
        /// The listed skill it names.
        skill: Skill,
    },
    /// A specialty of a skill that is not a category.
    #[error("{skill} is not a category, so it has no specialties (L280–286)")]
    NotACategory {
        /// The skill.
        skill: Skill,
    },
}

impl Error {
    /// The digest id of the rule or ruling the error enforces, when there is one.
    ///
    /// ```
    /// use dice_shapers_and_bots::Error;
    /// assert_eq!(Error::Surprise { bonus: 3 }.rule(), Some("SB-A18"));
    /// assert_eq!(Error::SkillPackage { levels: vec![3, 3] }.rule(), Some("SB-R11"));
    /// ```
    pub fn rule(&self) -> Option<&'static str> {
        Some(match self {
            Error::Core(_) => return None,
            Error::UnknownLevel { .. } => "SB-R1",
            Error::UnknownCharacteristic { .. } => "SB-R7",
            Error::UnknownSpecies { .. } => "SB-R8",
            Error::UnknownSkill { .. } => "SB-R10",
            Error::Face { .. } => "SB-A16",
            Error::DiceCount { .. } => "SB-R2",
            Error::StreakUnfinished { .. } => "SB-R6",
            Error::NoBonusForFluke { .. } => "SB-R6",
            Error::FlukeNotAllowed { .. } => "SB-A21",
            Error::Surprise { .. } => "SB-A18",
            Error::MissingDamageRule { .. } => "SB-A6",
            Error::DamageFace { .. } => "SB-R19",
            Error::SizeForHitPointsRequired => "SB-A7",
            Error::HitPoints { .. } => "SB-R18",
            Error::NoActionsLeft { .. } => "SB-R14",
            Error::BorrowLimit { .. } => "SB-A19",
            Error::NoSuchFighter { .. } => return None,
            Error::OutOfTurn { .. } => "SB-R13",
            Error::TurnOrderListing { .. } => "SB-R13",
            Error::Unconscious { .. } => "SB-R21",
            Error::InitiativeTieUnresolved { .. } => "SB-A11",
            Error::TieRollWithoutDice => "SB-A11",
            Error::FightSides { .. } => "SB-R21",
            Error::TooManyFighters { .. } => return None,
            Error::Fighter { .. } => return None,
            Error::CharacteristicPackage { .. } => "SB-R9",
            Error::CharacteristicNotAdjustable { .. } => "SB-R7",
            Error::CharacteristicRaisedTwice { .. } => "SB-R9",
            Error::RaisedCharacteristicLowered { .. } => "SB-A12",
            Error::CharacteristicAboveVeryHigh { .. } => "SB-R9",
            Error::CharacteristicBelowVeryLow { .. } => "SB-A12",
            Error::CharacteristicAboveAwesome { .. } => "SB-R1",
            Error::SkillPackage { .. } => "SB-R11",
            Error::SkillRaisedFourLevels { .. } => "SB-R11",
            Error::SkillRaisedZeroLevels { .. } => "SB-R11",
            Error::SkillListedTwice { .. } => "SB-R11",
            Error::SkillAboveAwesome { .. } => "SB-A13",
            Error::SpecialtyRequired { .. } => "SB-R10",
            Error::NotACategory { .. } => "SB-R10",
            Error::CustomSkillListed { .. } => "SB-R10",
        })
    }
}
