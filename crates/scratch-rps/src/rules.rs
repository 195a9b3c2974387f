//! The rulings (digest section 4.3, SC-A…) as one [`Rules`] value, and the combat
//! environment ([`Environment`]) that the movement abilities depend on.

use core::fmt;

use crate::ability::Movement;

/// What shooting does on an automatic success (L75 against L37; SC-A1).
///
/// ```
/// use dice_scratch_rps::ShootingCrit;
/// assert_eq!(ShootingCrit::default(), ShootingCrit::Override5);
/// assert_eq!(ShootingCrit::Override5.damage(), 5);
/// assert_eq!(ShootingCrit::GeneralPlusOne.damage(), 3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ShootingCrit {
    /// The ruling (SC-A1 (a)): L75's "it causes 5 damage instead of 3" is shooting's own rule
    /// and beats the general +1 of L37, so an automatically successful shot does 5.
    #[default]
    Override5,
    /// SC-A1 (b): L75's sentence is an erratum; the general rule of L37 applies, 2 + 1 = 3.
    GeneralPlusOne,
}

impl ShootingCrit {
    /// The damage of an automatically successful shot.
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::ShootingCrit::Override5.damage(), 5);
    /// ```
    pub const fn damage(self) -> u32 {
        match self {
            ShootingCrit::Override5 => crate::attack::SHOOTING_AUTOMATIC_DAMAGE,
            ShootingCrit::GeneralPlusOne => crate::attack::SHOOTING_DAMAGE + 1,
        }
    }
}

/// Which roll a craftsman makes to add a temporary bonus in a hurry (L101). Not in the
/// digest: L101 says "a success roll", L99–L101 do not say whether the craftsmanship level
/// is added.
///
/// ```
/// use dice_scratch_rps::HurryRoll;
/// assert_eq!(HurryRoll::default(), HurryRoll::Craftsmanship);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum HurryRoll {
    /// Library choice: a craftsmanship ability roll (the level is added, as L17's
    /// "craftsmanship roll of 15" does).
    #[default]
    Craftsmanship,
    /// A non-ability roll (L19).
    NonAbility,
}

/// Water in the combat environment (L95).
///
/// ```
/// use dice_scratch_rps::Water;
/// assert_eq!(Water::default(), Water::None);
/// assert!(Water::Deep.is_present());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Water {
    /// No water.
    #[default]
    None,
    /// Shallow water: fliers can catch swimmers (L93), swimmers cannot get far from solid
    /// ground (L91).
    Shallow,
    /// Deep water: swimmers escaping cannot be reached by flying, quickness or acrobatics
    /// (L95).
    Deep,
}

impl Water {
    /// Whether there is any water.
    ///
    /// ```
    /// assert!(!dice_scratch_rps::Water::None.is_present());
    /// ```
    pub const fn is_present(self) -> bool {
        !matches!(self, Water::None)
    }
}

/// The combat environment: the conditions L47, L57 and L89–L95 refer to (SC-A9).
///
/// The default is a bare room: no structures, no room to fly, no water, no cover, nothing to
/// throw.
///
/// ```
/// use dice_scratch_rps::{Environment, Water};
/// let outdoors = Environment { room_to_fly: true, cover: true, ..Environment::default() };
/// assert!(outdoors.room_to_fly);
/// assert_eq!(outdoors.water, Water::None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Environment {
    /// Three-dimensional structures (ropes, nets, ledges, ladders, fences, trees, cliffs):
    /// acrobatics catches acrobatics, quickness and flying escapers (L89).
    pub structures_3d: bool,
    /// Room to fly (usually outdoors, not indoors): flying can only be used here (L93).
    pub room_to_fly: bool,
    /// Obstacles like tree branches protect climbers from fliers (L93).
    pub climbers_protected: bool,
    /// Water, and how deep (L95).
    pub water: Water,
    /// The environment does not let escapers get far from solid ground (short trees, shallow
    /// water, low ceiling): quickness catches acrobatics, swimming and flying escapers (L91).
    pub near_ground: bool,
    /// Some kind of cover (a hill, a wall, a large box): needed to take cover (L57).
    pub cover: bool,
    /// A dangerous throwable object (a rock, a chair): needed to throw an object (L47).
    pub throwable_object: bool,
}

/// When a catcher's movement ability may catch an evader's (one cell of [`CatchMatrix`]).
///
/// ```
/// use dice_scratch_rps::{CatchCondition, Environment};
/// let env = Environment { structures_3d: true, ..Environment::default() };
/// assert!(CatchCondition::Structures3d.holds(&env, false));
/// assert!(!CatchCondition::NearGround.holds(&env, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CatchCondition {
    /// Never.
    Never,
    /// Always.
    Always,
    /// When [`Environment::structures_3d`].
    Structures3d,
    /// When [`Environment::near_ground`].
    NearGround,
    /// When [`Environment::near_ground`] or the water is shallow: an escaper who cannot get
    /// far from solid ground, as a swimmer in shallow water (L91: "short trees, shallow water
    /// or low ceiling for example").
    NearGroundOrShallowWater,
    /// When the water is shallow.
    ShallowWater,
    /// When no obstacles protect climbers from fliers.
    ClimbersUnprotected,
    /// When the evader is in water.
    EvaderInWater,
}

impl CatchCondition {
    /// Whether the condition holds in `env` for an evader who is (or is not) in water.
    ///
    /// ```
    /// use dice_scratch_rps::{CatchCondition, Environment};
    /// assert!(CatchCondition::EvaderInWater.holds(&Environment::default(), true));
    /// ```
    pub const fn holds(self, env: &Environment, evader_in_water: bool) -> bool {
        match self {
            CatchCondition::Never => false,
            CatchCondition::Always => true,
            CatchCondition::Structures3d => env.structures_3d,
            CatchCondition::NearGround => env.near_ground,
            CatchCondition::NearGroundOrShallowWater => {
                env.near_ground || matches!(env.water, Water::Shallow)
            }
            CatchCondition::ShallowWater => matches!(env.water, Water::Shallow),
            CatchCondition::ClimbersUnprotected => !env.climbers_protected,
            CatchCondition::EvaderInWater => evader_in_water,
        }
    }
}

/// Which movement ability may catch which evader, and when: the environment-to-catch matrix
/// of SC-A9, built from L89–L95 (SC-R26 to SC-R29).
///
/// Rows are the catcher's movement ability, columns the ability the evader evaded with (or
/// none). The default ([`CatchMatrix::RULEBOOK`]) reads:
///
/// | catcher \ evader | none | acrobatics | quickness | flying | swimming |
/// |---|---|---|---|---|---|
/// | acrobatics (L89) | never | 3-D structures | 3-D structures | 3-D structures | never |
/// | quickness (L91) | always | near ground | always | near ground | near ground or shallow water |
/// | flying (L93) | never | climbers unprotected | always | always | shallow water |
/// | swimming (L95) | evader in water | evader in water | evader in water | evader in water | evader in water |
///
/// On top of the matrix, and not part of the knob because the text states them outright:
/// flying is only used where there is room to fly (L93), and in deep water a character
/// escaping by swimming cannot be reached by flying, quickness or acrobatics (L95). A catch
/// with no movement ability added is a plain non-ability roll and is always allowed except
/// against that deep-water swimmer. (A [`crate::Fight`] also checks that a catcher using
/// swimming is in water, L95.)
///
/// ```
/// use dice_scratch_rps::{CatchMatrix, Environment, Movement, Water};
/// let m = CatchMatrix::default();
/// let env = Environment { room_to_fly: true, water: Water::Shallow, ..Environment::default() };
/// assert!(m.allows(Some(Movement::Flying), Some(Movement::Swimming), &env, true));
/// let deep = Environment { water: Water::Deep, ..env };
/// assert!(!m.allows(Some(Movement::Flying), Some(Movement::Swimming), &deep, true));
/// assert!(m.allows(Some(Movement::Quickness), None, &Environment::default(), false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CatchMatrix {
    /// `cells[catcher][evader]`: catcher in [`Movement::ALL`] order; evader 0 = no ability,
    /// then [`Movement::ALL`] order.
    pub cells: [[CatchCondition; 5]; 4],
}

impl CatchMatrix {
    /// The matrix read from L89–L95 (see the type's table).
    pub const RULEBOOK: CatchMatrix = {
        use CatchCondition::*;
        CatchMatrix {
            cells: [
                // acrobatics (L89): acrobatics, quickness and even flying, with 3-D structures.
                [Never, Structures3d, Structures3d, Structures3d, Never],
                // quickness (L91): quickness or no ability; acrobatics, swimming, flying
                // when they cannot get far from solid ground (shallow water, for swimmers).
                [
                    Always,
                    NearGround,
                    Always,
                    NearGround,
                    NearGroundOrShallowWater,
                ],
                // flying (L93): flying and quickness; climbers unless protected; swimmers
                // in shallow water.
                [Never, ClimbersUnprotected, Always, Always, ShallowWater],
                // swimming (L95): characters trying to escape in water.
                [
                    EvaderInWater,
                    EvaderInWater,
                    EvaderInWater,
                    EvaderInWater,
                    EvaderInWater,
                ],
            ],
        }
    };

    /// The condition for one catcher and evader.
    ///
    /// ```
    /// use dice_scratch_rps::{CatchCondition, CatchMatrix, Movement};
    /// let m = CatchMatrix::default();
    /// assert_eq!(m.condition(Movement::Acrobatics, Some(Movement::Flying)), CatchCondition::Structures3d);
    /// ```
    pub const fn condition(&self, catcher: Movement, evader: Option<Movement>) -> CatchCondition {
        self.cells[catcher.index()][evader_column(evader)]
    }

    /// A copy with one cell changed.
    ///
    /// ```
    /// use dice_scratch_rps::{CatchCondition, CatchMatrix, Movement};
    /// let m = CatchMatrix::default().with(Movement::Flying, None, CatchCondition::Always);
    /// assert_eq!(m.condition(Movement::Flying, None), CatchCondition::Always);
    /// ```
    pub const fn with(
        mut self,
        catcher: Movement,
        evader: Option<Movement>,
        condition: CatchCondition,
    ) -> CatchMatrix {
        self.cells[catcher.index()][evader_column(evader)] = condition;
        self
    }

    /// Whether a catcher adding `catcher` (or no ability) may catch a character who evaded
    /// with `evader` (or no ability) in `env`.
    ///
    /// ```
    /// use dice_scratch_rps::{CatchMatrix, Environment, Movement};
    /// let m = CatchMatrix::default();
    /// let indoors = Environment::default();
    /// // No room to fly indoors (L93).
    /// assert!(!m.allows(Some(Movement::Flying), Some(Movement::Quickness), &indoors, false));
    /// ```
    pub const fn allows(
        &self,
        catcher: Option<Movement>,
        evader: Option<Movement>,
        env: &Environment,
        evader_in_water: bool,
    ) -> bool {
        let swimming_in_deep_water =
            matches!(evader, Some(Movement::Swimming)) && matches!(env.water, Water::Deep);
        match catcher {
            None => !swimming_in_deep_water,
            Some(c) => {
                if matches!(c, Movement::Flying) && !env.room_to_fly {
                    return false;
                }
                if swimming_in_deep_water && !matches!(c, Movement::Swimming) {
                    return false;
                }
                self.condition(c, evader).holds(env, evader_in_water)
            }
        }
    }
}

const fn evader_column(evader: Option<Movement>) -> usize {
    match evader {
        None => 0,
        Some(m) => m.index() + 1,
    }
}

impl Default for CatchMatrix {
    fn default() -> Self {
        CatchMatrix::RULEBOOK
    }
}

/// The rulings of digest section 4.3 that a table might play differently. `Default` is the
/// project's rulings.
///
/// Rulings with a knob here:
/// - [`Rules::shooting_crit`]: SC-A1 (L75 against L37).
/// - [`Rules::catch`]: SC-A9 (L49, L51, L89–L95).
/// - [`Rules::natural_20_without_ability`]: SC-A6 (L15 against L17).
/// - [`Rules::hurry_roll`]: L101 (not in the digest).
///
/// Rulings followed without a knob (the text leaves no second reading worth a switch):
/// - SC-A2: Chokestar is L123's stat block (tests).
/// - SC-A3: Breakhelm is a non-standard build; [`crate::CharacterPoints::check`] is opt-in.
/// - SC-A4: defense is always computed by L29's formula.
/// - SC-A5: health is always computed from hit points ([`crate::Health::of`]).
/// - SC-A7: no natural-1 rule.
/// - SC-A8: initiative ties re-roll among all tied characters until strictly ordered
///   ([`crate::initiative::order`]).
/// - SC-A10: swimming is not a defensive ability; in water it is added on top.
/// - SC-A11: the missing die alternatives and vehicle rules are not invented.
/// - SC-A12: blasting attacks up to three separate targets.
/// - SC-A13: healing only revives the incapacitated and heals the injured.
/// - SC-A14: craftsmanship bonuses go to others only, at most one per level.
/// - SC-A15: temporary defense changes add up; one bonus action per turn.
/// - SC-A16: engage and craftsmanship bonuses stack with the one ability added; fighting
///   and wrestling never stack; swimming in water is added on top.
/// - SC-A17: a delayed character skips its next turn, even later in the same round.
/// - SC-A18: minions are only checked for the level sum and "no command".
///
/// ```
/// use dice_scratch_rps::{Rules, ShootingCrit};
/// let house = Rules { shooting_crit: ShootingCrit::GeneralPlusOne, ..Rules::default() };
/// assert_ne!(house, Rules::default());
/// assert!(!Rules::default().natural_20_without_ability);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// SC-A1: damage of an automatically successful shot (L75 "5 damage instead of 3" against
    /// L37's +1). Default [`ShootingCrit::Override5`].
    pub shooting_crit: ShootingCrit,
    /// SC-A9: which movement ability catches which evader in which environment (L89–L95).
    /// Default [`CatchMatrix::RULEBOOK`].
    pub catch: CatchMatrix,
    /// SC-A6: whether a natural 20 succeeds at an ability roll the character has no level in
    /// (L15 "automatically successful" against L17 "cannot succeed"). Default `false`: the
    /// missing ability wins, no roll.
    pub natural_20_without_ability: bool,
    /// L101: which roll adds a temporary bonus in a hurry. Default
    /// [`HurryRoll::Craftsmanship`] (library choice, not in the digest).
    pub hurry_roll: HurryRoll,
}

impl fmt::Display for Rules {
    /// A one-line summary.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shooting natural 20: {} damage; natural 20 without the ability: {}; hurry roll: {}",
            self.shooting_crit.damage(),
            if self.natural_20_without_ability {
                "succeeds"
            } else {
                "no roll"
            },
            match self.hurry_roll {
                HurryRoll::Craftsmanship => "craftsmanship roll",
                HurryRoll::NonAbility => "non-ability roll",
            }
        )
    }
}
