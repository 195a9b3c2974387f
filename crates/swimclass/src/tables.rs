//! The basic skills' difficulty tables, movement, Brawn and encumbrance, and traits
//! (L97–L181; SW-R9, SW-R29 to SW-R36).

use std::fmt;

use crate::actions::Push;
use crate::implement::Bonus;
use crate::skill::Skill;

/// A difficulty "so easy or common that pretty much anyone with the skill may do it" (L99).
pub const EASY: i32 = 1;

/// A difficulty "madness for all but the most skilled" (L101).
pub const MADNESS: i32 = 6;

/// One line of the basic skills' tables: a skill, a difficulty and what it does (L105–L155).
///
/// ```
/// use dice_swimclass::{BASIC_TASKS, Skill};
/// let cliff = BASIC_TASKS.iter().find(|t| t.skill == Skill::Climb && t.difficulty == 6).unwrap();
/// assert_eq!(cliff.squares, Some(1));
/// assert_eq!(cliff.line, 123);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BasicTask {
    /// The skill.
    pub skill: Skill,
    /// The per-die difficulty ("≥ N").
    pub difficulty: i32,
    /// What a success does, as printed.
    pub effect: &'static str,
    /// Squares moved per round (movement skills), if any.
    pub squares: Option<u32>,
    /// The rulebook line.
    pub line: u32,
}

impl fmt::Display for BasicTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ≥ {}: {}", self.skill, self.difficulty, self.effect)
    }
}

const fn t(
    skill: Skill,
    difficulty: i32,
    effect: &'static str,
    squares: Option<u32>,
    line: u32,
) -> BasicTask {
    BasicTask {
        skill,
        difficulty,
        effect,
        squares,
        line,
    }
}

/// The fixed-difficulty lines of the basic skills (L115–L145): every line that prints
/// "≥ N". Ranged attacks (Basic Ranged, Throw as an attack) are Range + 1:
/// [`crate::ranged_difficulty`]; Basic Melee has no threshold: [`crate::NO_THRESHOLD`].
/// Stealth (opposed by Spot, L151) and Tracking (L153–L155) print no difficulty: a caller
/// input.
pub const BASIC_TASKS: [BasicTask; 11] = [
    t(
        Skill::WalkRun,
        1,
        "2 squares/round on easy terrain; automatic success unless pushed",
        Some(2),
        115,
    ),
    t(Skill::Swim, 1, "1 square/round in calm water", Some(1), 117),
    t(
        Skill::Swim,
        6,
        "1 square in a heavy storm/waves",
        Some(1),
        119,
    ),
    t(
        Skill::Climb,
        1,
        "1 square/round on a decent ladder",
        Some(1),
        121,
    ),
    t(
        Skill::Climb,
        6,
        "1 square on a natural vertical cliff",
        Some(1),
        123,
    ),
    t(Skill::Jump, 1, "cross a gap of 2 feet", None, 125),
    t(
        Skill::Throw,
        1,
        "deliver a small object 3 squares, or a heavy object (about your weight) a couple feet",
        None,
        127,
    ),
    t(
        Skill::Brawn,
        1,
        "carry 20 lbs. without difficulty",
        None,
        133,
    ),
    t(
        Skill::Brawn,
        1,
        "lift 30 lbs, or shove with equal force",
        None,
        135,
    ),
    t(Skill::Spot, 1, "spot / hear 1 unhidden item", None, 143),
    t(Skill::Spot, 6, "spot a well hidden item", None, 145),
];

/// The squares a small object is thrown at difficulty 1 (L127).
pub const THROW_SQUARES: u32 = 3;

/// The table lines for one skill.
///
/// ```
/// use dice_swimclass::{Skill, tables::tasks_for};
/// assert_eq!(tasks_for(Skill::Swim).count(), 2);
/// ```
pub fn tasks_for(skill: Skill) -> impl Iterator<Item = &'static BasicTask> {
    BASIC_TASKS.iter().filter(move |t| t.skill == skill)
}

/// Squares moved in a round by a movement task, pushed or not (L115–L123, L93; SW-E5).
/// `None` for a line that is not movement.
///
/// ```
/// use dice_swimclass::{BASIC_TASKS, push, tables::squares_moved};
/// let walk = &BASIC_TASKS[0];
/// assert_eq!(squares_moved(walk, None), Some(2));
/// assert_eq!(squares_moved(walk, Some(push(1, 3)?)), Some(6)); // SW-E5
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn squares_moved(task: &BasicTask, pushed: Option<Push>) -> Option<u32> {
    task.squares.map(|s| pushed.map_or(s, |p| p.effect(s)))
}

/// What a character carries without difficulty (L133).
pub const CARRY_LB: f64 = 20.0;

/// What Brawn ≥ 1 lifts or shoves (L135).
pub const LIFT_LB: f64 = 30.0;

/// Whether a load encumbers: more than 20 lb (L133). An encumbered character rolls Brawn
/// before each movement action, at a difficulty the text does not give (a caller input,
/// SW-A17).
///
/// ```
/// assert!(!dice_swimclass::tables::is_encumbered(20.0));
/// assert!(dice_swimclass::tables::is_encumbered(20.5));
/// ```
pub fn is_encumbered(load_lb: f64) -> bool {
    load_lb > CARRY_LB
}

/// A vision trait's bonus (L173–L175): Dark Vision and Far Vision are "(N+1)", +1 to as many
/// dice as the trait's rank, on Spot in low light or at distance.
///
/// ```
/// use dice_swimclass::{Bonus, tables::vision_bonus};
/// assert_eq!(vision_bonus(2), Bonus::Plus { dice: 2, modifier: 1 });
/// ```
pub const fn vision_bonus(trait_rank: u32) -> Bonus {
    Bonus::Plus {
        dice: trait_rank,
        modifier: 1,
    }
}

/// The Flight trait's difficulty (L177).
pub const FLIGHT_DIFFICULTY: i32 = 2;

/// What a flight roll does (L177, L201).
///
/// ```
/// use dice_swimclass::tables::{Flight, flight};
/// assert_eq!(flight(0), Flight::Falls);
/// assert_eq!(flight(1), Flight::Hovers { squares: 0 });
/// assert_eq!(flight(3), Flight::Hovers { squares: 2 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Flight {
    /// "On failure/insufficient success, you fall."
    Falls,
    /// "You hover. Each additional success makes controlled movement 1 square."
    Hovers {
        /// Squares of controlled movement.
        squares: u32,
    },
}

/// Flight from the successes that got through the wind (L177; SW-R36).
///
/// ```
/// assert_eq!(dice_swimclass::tables::flight(2), dice_swimclass::tables::Flight::Hovers { squares: 1 });
/// ```
pub const fn flight(successes: u32) -> Flight {
    if successes == 0 {
        Flight::Falls
    } else {
        Flight::Hovers {
            squares: successes - 1,
        }
    }
}

/// A trait that is a bonus on one skill and a penalty on another, of a degree set at
/// creation (L179–L181): ±degree on every die of those skills (SW-A22; see
/// [`crate::SkillDice::with_modifier`]).
///
/// ```
/// use dice_swimclass::{Skill, tables::PairedTrait};
/// let fins = PairedTrait::fins(2);
/// assert_eq!(fins.modifier(Skill::Swim), 2);
/// assert_eq!(fins.modifier(Skill::WalkRun), -2);
/// assert_eq!(fins.modifier(Skill::Jump), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PairedTrait {
    /// Its name.
    pub name: &'static str,
    /// The skill it helps.
    pub bonus: Skill,
    /// The skill it hinders.
    pub penalty: Skill,
    /// The degree.
    pub degree: i32,
}

impl PairedTrait {
    /// Fins: a bonus to Swim, a penalty to Walk / Run (L181).
    ///
    /// ```
    /// assert_eq!(dice_swimclass::tables::PairedTrait::fins(2).degree, 2);
    /// ```
    pub const fn fins(degree: i32) -> PairedTrait {
        PairedTrait {
            name: "Fins",
            bonus: Skill::Swim,
            penalty: Skill::WalkRun,
            degree,
        }
    }

    /// The per-die modifier it gives a skill.
    ///
    /// ```
    /// use dice_swimclass::{Skill, tables::PairedTrait};
    /// assert_eq!(PairedTrait::fins(1).modifier(Skill::Swim), 1);
    /// ```
    pub fn modifier(&self, skill: Skill) -> i32 {
        if skill == self.bonus {
            self.degree
        } else if skill == self.penalty {
            -self.degree
        } else {
            0
        }
    }
}
