//! The error type of character creation and advancement: every message names the rule it
//! enforces (the rulebook's lines, and the digest's ambiguity number where a ruling decides).

use super::programs::Core;

/// Everything that can be wrong with a creation choice, a built robot or an advancement.
///
/// Rolling never fails: the checks happen when a value is built, when dice already rolled are
/// handed to a pure "faces in, entry out" lookup, or when a design is validated.
///
/// ```
/// use dice_robots_and_rapiers::creation::{BodyType, CreationError};
/// let err = BodyType::from_face(11).unwrap_err();
/// assert_eq!(err, CreationError::Face { face: 11 });
/// assert!(err.to_string().contains("1..=10"));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CreationError {
    /// A dice-core constructor refused its input.
    #[error(transparent)]
    Core(#[from] dice_core::Error),

    // ------------------------------------------------------------------ tables and ranges
    /// A d10 face outside 1..=10 (a "0" on the die is 10).
    #[error("d10 face {face} is not in 1..=10 (a 0 on the die reads as 10)")]
    Face {
        /// The face given.
        face: u32,
    },
    /// A Body Type or Vocalization Type above 5.
    #[error(
        "{what} Type {value} does not exist: Types run 0-5 (L494-512; 5 only by accessory, A2)"
    )]
    Type {
        /// "Body" or "Vocalization".
        what: &'static str,
        /// The value given.
        value: u8,
    },
    /// Type 5 asked of a random roll or a choice: only accessories give it.
    #[error(
        "{what} Type 5 cannot be rolled or chosen: it comes only from the {accessory} \
         accessory (L499, L512, A2)"
    )]
    TypeFiveByAccessoryOnly {
        /// "Body" or "Vocalization".
        what: &'static str,
        /// The accessory that gives it.
        accessory: &'static str,
    },
    /// A Size outside 0..=9.
    #[error("Size {size} is not on the Size table: 0-9 (L573-583, A3)")]
    Size {
        /// The value given.
        size: u8,
    },
    /// A Size the random table cannot give for that gender (random sizes are 3-8).
    #[error("the random Size table has no Size {size} for a {gender} robot (L573-583)")]
    SizeNotRolled {
        /// The value given.
        size: u8,
        /// The gender column.
        gender: &'static str,
    },
    /// Role and Self Awareness out of 0..=10 or not adding up to 10.
    #[error(
        "Role {role} and Self Awareness {self_awareness} must each be 0-10 and add up to \
         exactly 10 (L416-418, L1024, A35)"
    )]
    RoleAwareness {
        /// The Role given.
        role: u8,
        /// The Self Awareness given.
        self_awareness: u8,
    },
    /// Vocalization outside the range the Body Type's column allows, when the rules enforce it.
    #[error(
        "Vocalization Type {vocalization} is outside the range for Body Type {body} \
         ({low}-{high}); L503 restricts choices to the table's range"
    )]
    VocalizationOutOfRange {
        /// The Body Type.
        body: u8,
        /// The Vocalization Type chosen.
        vocalization: u8,
        /// Lowest Type the column gives.
        low: u8,
        /// Highest Type the column gives.
        high: u8,
    },

    // ---------------------------------------------------------------------- attributes
    /// A primary attribute outside 1..=8.
    #[error("{attribute} {value} is outside 1-8: primary attributes are rated 1-8 (L429, L601)")]
    PrimaryAttribute {
        /// The attribute's name.
        attribute: &'static str,
        /// The value given.
        value: u8,
    },
    /// Durability above the Body Type's cap.
    #[error(
        "Durability {durability} is above Body Type {body}'s maximum of {max} (L615-618; \
         only Heavy Duty Insulation may exceed it, L932)"
    )]
    DurabilityCap {
        /// The Durability bought.
        durability: u8,
        /// The Body Type (of the casing).
        body: u8,
        /// Its cap.
        max: u8,
    },
    /// A perception sensor outside its purchasable range.
    #[error(
        "{sensor} Sensors {value} are outside {min}-4: sensors are bought at 0-4 (L436, A6; \
         level 5 only by an Advanced accessory)"
    )]
    Sensor {
        /// "Visual", "Audio" or "Tactile".
        sensor: &'static str,
        /// The value given.
        value: u8,
        /// The least allowed by the rules value.
        min: u8,
    },

    // ------------------------------------------------------------- spaces, points, power
    /// More Spaces used than the Size allows.
    #[error(
        "{used} Spaces used but Size {size} has at most {max} (6 plus 6 per Size, L567): \
         Mass 2 per point, Mobility 1, Capacitor 1 per level, Slot 1"
    )]
    TooManySpaces {
        /// Spaces used.
        used: u32,
        /// The Size.
        size: u8,
        /// The maximum.
        max: u32,
    },
    /// Fewer Spaces used than the Size's band, when the rules enforce the band (A32).
    #[error(
        "{used} Spaces used but Size {size}'s band starts at {min} (\"must lie within the \
         range specified for its Size\", L561, A32)"
    )]
    TooFewSpaces {
        /// Spaces used.
        used: u32,
        /// The Size.
        size: u8,
        /// The band's minimum.
        min: u32,
    },
    /// More Design Points spent than rolled.
    #[error(
        "{spent} Design Points spent but only {available} available (attributes, sensors, \
         Capacitor levels, extra program levels and accessories each cost Design Points, \
         L427-475)"
    )]
    TooManyDesignPoints {
        /// Spent.
        spent: u32,
        /// Available.
        available: u32,
    },
    /// Accessories needing more Slots than were built.
    #[error("accessories need {needed} Slots but only {slots} were built (L446-449, L912)")]
    TooFewSlots {
        /// Slots needed.
        needed: u32,
        /// Slots built.
        slots: u32,
    },
    /// A Design Dice count or Anthropoid Class out of range for the Design Points roll.
    #[error(
        "Design Points roll of {design_dice} + {anthropoid_class} d10s: \"X\" must be 1-{max_x} \
         and the Anthropoid Class 0-10 (L587-597)"
    )]
    DesignRoll {
        /// "X".
        design_dice: u32,
        /// Starting Anthropoid Class.
        anthropoid_class: u32,
        /// Largest X accepted.
        max_x: u32,
    },
    /// A faces slice of the wrong length for a pure lookup.
    #[error("expected {expected} dice, got {got}")]
    DiceCount {
        /// Dice expected.
        expected: usize,
        /// Dice given.
        got: usize,
    },

    // ------------------------------------------------------------------------ programs
    /// Core Programs not 2 + a share of the Role Score, at least 1 each.
    #[error(
        "Core Programs {physical}/{mental}/{social}: each starts at 2 and the Role Score \
         ({role}) levels are divided among them, at least 1 each (L451-455, L743-749)"
    )]
    CorePrograms {
        /// Core Physical.
        physical: u8,
        /// Core Mental.
        mental: u8,
        /// Core Social.
        social: u8,
        /// The Role Score divided.
        role: u8,
    },
    /// Fewer than 9 Role Programs.
    #[error("{count} Role Programs: a robot starts with 9 (L459, L779)")]
    TooFewPrograms {
        /// Programs given.
        count: usize,
    },
    /// A Role Program above the starting maximum.
    #[error(
        "{program} at level {level}: starting Role Programs are at most level {max} (L461, L767)"
    )]
    ProgramAboveStartingMax {
        /// The program.
        program: String,
        /// Its level.
        level: u8,
        /// The maximum.
        max: u8,
    },
    /// A Role Program above level 10.
    #[error("{program} at level {level}: Role Programs are rated 0-10 (L767)")]
    ProgramAboveTen {
        /// The program.
        program: String,
        /// Its level.
        level: u8,
    },
    /// More additional specialties than the program's level.
    #[error(
        "{program} level {level} has {additional} additional specialties: at most one per \
         Program level (L799)"
    )]
    TooManySpecialties {
        /// The program.
        program: String,
        /// Its level.
        level: u8,
        /// Additional specialties.
        additional: usize,
    },
    /// The same program listed twice.
    #[error("{program} is listed twice")]
    ProgramListedTwice {
        /// The program.
        program: String,
    },
    /// A program with an empty name.
    #[error("a program needs a name")]
    UnnamedProgram,
    /// A package program above the one before it (random method, L787).
    #[error(
        "{program} (level {level}) is above {above} (level {above_level}), the program before \
         it in the package: \"no Program may be of a higher level than the Program above it\" \
         (L787)"
    )]
    PackageOrder {
        /// The program out of order.
        program: String,
        /// Its level.
        level: u8,
        /// The program before it.
        above: String,
        /// That program's level.
        above_level: u8,
    },

    // -------------------------------------------------------------------------- traits
    /// A Personality Trait rated outside 1..=3.
    #[error("trait {description:?} rated {rating}: Personality Traits are rated 1-3 (L470, L898)")]
    TraitRating {
        /// The trait.
        description: String,
        /// Its rating.
        rating: u8,
    },
    /// Role-related trait ratings not adding up to the Role Score.
    #[error(
        "Role-related Personality Traits add up to {total}, but must equal the Role Score \
         {role} (L468, L898, L1365)"
    )]
    TraitTotal {
        /// The total of the ratings.
        total: u32,
        /// The Role Score.
        role: u8,
    },
    /// A trait with an empty description.
    #[error("a Personality Trait needs a description (L896)")]
    UnnamedTrait,
    /// No trait of the kind needed at that index.
    #[error("no {kind} trait at index {index}")]
    NoSuchTrait {
        /// "Role-related" or "Self Awareness-related".
        kind: &'static str,
        /// The index given.
        index: usize,
    },
    /// A trait that cannot be bought or changed with Inspiration.
    #[error("only Self Awareness-related traits can be bought or changed with Inspiration (L1303)")]
    RoleTraitNotForSale,
    /// A trait already at 3 raised further.
    #[error("trait {description:?} is already at 3, the maximum rating (L1305)")]
    TraitAtMaximum {
        /// The trait.
        description: String,
    },

    // ---------------------------------------------------------------------- accessories
    /// An accessory that can only be taken once, taken twice.
    #[error("{accessory} can only be taken once (L918-1004)")]
    AccessoryTwice {
        /// The accessory.
        accessory: &'static str,
    },
    /// An accessory whose prerequisite is missing.
    #[error("{accessory}: {requirement} (L918-1004)")]
    AccessoryRequirement {
        /// The accessory.
        accessory: &'static str,
        /// What it needs.
        requirement: &'static str,
    },
    /// A Memory Chip of other than 1-3 Design Points.
    #[error("a Memory Chip costs 1-3 Design Points, not {design_points} (L976)")]
    MemoryChip {
        /// The Design Points given.
        design_points: u8,
    },

    // ---------------------------------------------------------------------- advancement
    /// Not enough Inspiration for a cost.
    #[error("{what} costs {cost} Inspiration but only {available} is available")]
    Unaffordable {
        /// What was to be bought.
        what: &'static str,
        /// Its cost.
        cost: u32,
        /// Inspiration available.
        available: u32,
    },
    /// A Self Awareness level outside 1..=10 asked the cost of.
    #[error("Self Awareness level {level} cannot be bought: levels run 1-10 (L1312-1332)")]
    SelfAwarenessLevel {
        /// The level asked.
        level: u8,
    },
    /// Self Awareness already 10.
    #[error("Self Awareness is already 10, the maximum (L1342)")]
    FullySentient,
    /// A Core Program chosen to lose a level that is not among the highest.
    #[error(
        "{chosen} ({level}) is not the highest Core Program ({highest}): the highest loses \
         the level, ties chosen by the player (L1344, L1355)"
    )]
    NotHighestCore {
        /// The Core chosen.
        chosen: Core,
        /// Its level.
        level: u8,
        /// The highest level.
        highest: u8,
    },
    /// A program increase to a level outside 1..=10.
    #[error("a Role Program can be raised to level 1-10, not {level} (L767, L1276-1288)")]
    ProgramIncreaseLevel {
        /// The desired level.
        level: u8,
    },
    /// Learning a program without the Inspired Roll the rules require (A30).
    #[error(
        "at least one Inspired Roll on a Program is required before learning it (L1214, \
         L1446, A30)"
    )]
    NoInspiredRoll,
    /// A robot that is not Sparked tried to advance.
    #[error("only Sparked robots may earn or spend Inspiration (L1052, A50)")]
    NotSparked,
}
