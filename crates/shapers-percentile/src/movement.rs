//! Rounds, free actions, movement, melee reach and who may defend with what (PC-R1, PC-R3,
//! PC-R4, PC-R5, PC-R8; L2, L5–22; rulings PC-A12, PC-A13).

use core::fmt;

use crate::damage::AttackKind;
use crate::error::{Error, check_distance};
use crate::modifiers::Sizes;

/// "Each round is roughly 3 seconds long" (L2).
///
/// ```
/// use dice_shapers_percentile::{ROUND_SECONDS, ROUNDS_PER_MINUTE};
/// assert_eq!(60 / ROUND_SECONDS, ROUNDS_PER_MINUTE);
/// ```
pub const ROUND_SECONDS: u32 = 3;

/// "… meaning there are 20 rounds in a minute" (L2).
///
/// ```
/// assert_eq!(dice_shapers_percentile::ROUNDS_PER_MINUTE, 20);
/// ```
pub const ROUNDS_PER_MINUTE: u32 = 20;

/// The suggested Free Actions (L5–9): actions that "take hardly any time at all, or can be
/// done while doing something else without penalty". The GM may allow others (L6).
///
/// ```
/// use dice_shapers_percentile::FreeAction;
/// assert_eq!(FreeAction::ALL.len(), 3);
/// assert_eq!(FreeAction::DrawWeapon.to_string(), "Draw a weapon that is easily accessible");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FreeAction {
    /// Move up to their normal walking speed (L7).
    Walk,
    /// Draw a weapon that is easily accessible (L8).
    DrawWeapon,
    /// Shout a command or short warning (L9).
    Shout,
}

impl FreeAction {
    /// The list of L7–9.
    ///
    /// ```
    /// # use dice_shapers_percentile::FreeAction;
    /// assert_eq!(FreeAction::ALL[0], FreeAction::Walk);
    /// ```
    pub const ALL: [FreeAction; 3] = [FreeAction::Walk, FreeAction::DrawWeapon, FreeAction::Shout];
}

impl fmt::Display for FreeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            FreeAction::Walk => "Move up to their normal walking speed",
            FreeAction::DrawWeapon => "Draw a weapon that is easily accessible",
            FreeAction::Shout => "Shout a command or short warning",
        })
    }
}

/// What attacks a way of moving leaves a character this round.
///
/// ```
/// use dice_shapers_percentile::{Attacks, Movement};
/// assert_eq!(Movement::Charge.attacks(), Attacks::OneMelee);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Attacks {
    /// No attack at all.
    None,
    /// One melee attack, at the end of the move.
    OneMelee,
    /// Attacks as usual (with penalties when jogging).
    Any,
}

/// How a character moves during a round (PC-R4, L10–15).
///
/// ```
/// use dice_shapers_percentile::{Attacks, Movement};
/// assert!(Movement::Walk.is_free_action());
/// assert_eq!(Movement::Run.attacks(), Attacks::None);
/// assert_eq!(Movement::Jog.ranged_modifier(), -10);
/// assert_eq!(Movement::Charge.melee_modifier(), Some(10));
/// assert!(Movement::Sprint.may_require_trip_roll());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Movement {
    /// Up to normal walking speed: a free action, without penalty (L7, L12).
    Walk,
    /// Jogging: other actions allowed, "but will suffer penalties" (L13).
    Jog,
    /// Running: "cannot perform another action", except a charge (L14).
    Run,
    /// A charge: up to normal running speed, must end in melee, then one attack (L14), at
    /// +10 (L40).
    Charge,
    /// Sprinting: no charge and no attack, "even if they are standing right next to an
    /// opponent"; the GM may require a Physical Agility + Athletics roll (L15).
    Sprint,
}

impl Movement {
    /// Every way of moving, slowest first.
    ///
    /// ```
    /// # use dice_shapers_percentile::Movement;
    /// assert_eq!(Movement::ALL.len(), 5);
    /// ```
    pub const ALL: [Movement; 5] = [
        Movement::Walk,
        Movement::Jog,
        Movement::Run,
        Movement::Charge,
        Movement::Sprint,
    ];

    /// Whether the move is a free action (walking only, L7, L12).
    ///
    /// ```
    /// # use dice_shapers_percentile::Movement;
    /// assert!(!Movement::Jog.is_free_action());
    /// ```
    pub fn is_free_action(self) -> bool {
        self == Movement::Walk
    }

    /// Whether the character may perform other (non-attack) actions while moving so: yes
    /// when walking or jogging (L12–13), no when running, charging (whose only other action
    /// is its one attack) or sprinting (L14–15).
    ///
    /// ```
    /// # use dice_shapers_percentile::Movement;
    /// assert!(Movement::Jog.allows_other_actions());
    /// assert!(!Movement::Charge.allows_other_actions());
    /// ```
    pub fn allows_other_actions(self) -> bool {
        matches!(self, Movement::Walk | Movement::Jog)
    }

    /// What attacks the character may make (L12–15).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attacks, Movement};
    /// assert_eq!(Movement::Sprint.attacks(), Attacks::None);
    /// assert_eq!(Movement::Jog.attacks(), Attacks::Any);
    /// ```
    pub fn attacks(self) -> Attacks {
        match self {
            Movement::Walk | Movement::Jog => Attacks::Any,
            Movement::Charge => Attacks::OneMelee,
            Movement::Run | Movement::Sprint => Attacks::None,
        }
    }

    /// The modifier to a shot made while moving so: −10 when jogging ("Shooting while you or
    /// your mount is jogging", L57), otherwise 0 (running, charging and sprinting leave no
    /// shot to make).
    ///
    /// ```
    /// # use dice_shapers_percentile::Movement;
    /// assert_eq!(Movement::Walk.ranged_modifier(), 0);
    /// ```
    pub fn ranged_modifier(self) -> i32 {
        match self {
            Movement::Jog => crate::modifiers::RangedAction::Jogging.row_flat(),
            _ => 0,
        }
    }

    /// The modifier to a melee attack made while moving so, when the text gives one: +10 for
    /// a charge (L40), 0 when walking; `None` when jogging, whose melee penalty the charts do
    /// not list (PC-A12: the caller supplies it, [`crate::MeleeSituation::jogging`]), and
    /// when no melee attack is allowed.
    ///
    /// ```
    /// # use dice_shapers_percentile::Movement;
    /// assert_eq!(Movement::Walk.melee_modifier(), Some(0));
    /// assert_eq!(Movement::Jog.melee_modifier(), None);
    /// ```
    pub fn melee_modifier(self) -> Option<i32> {
        match self {
            Movement::Walk => Some(0),
            Movement::Charge => Some(crate::modifiers::MeleeAction::Charging.row_flat()),
            Movement::Jog | Movement::Run | Movement::Sprint => None,
        }
    }

    /// Whether the GM may require a Physical Agility + Athletics roll to avoid tripping over
    /// (L15; see [`crate::Test::sprint_trip`]).
    ///
    /// ```
    /// # use dice_shapers_percentile::Movement;
    /// assert!(!Movement::Run.may_require_trip_roll());
    /// ```
    pub fn may_require_trip_roll(self) -> bool {
        self == Movement::Sprint
    }
}

impl fmt::Display for Movement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Movement::Walk => "walk",
            Movement::Jog => "jog",
            Movement::Run => "run",
            Movement::Charge => "charge",
            Movement::Sprint => "sprint",
        })
    }
}

/// "A character may attack another in melee if they end their movement within 2m of their
/// opponent" (L17).
///
/// ```
/// assert_eq!(dice_shapers_percentile::MELEE_REACH_METRES, 2.0);
/// ```
pub const MELEE_REACH_METRES: f64 = 2.0;

/// Whether an attacker `distance` metres from the opponent may attack in melee (L17): within
/// 2 m, or within `reach` metres for "very large weapons or creatures" whose description says
/// so.
///
/// # Errors
/// [`Error::Distance`] when a number is negative or not finite.
///
/// ```
/// use dice_shapers_percentile::within_melee_reach;
/// assert!(within_melee_reach(2.0, None)?);
/// assert!(!within_melee_reach(2.5, None)?);
/// assert!(within_melee_reach(2.5, Some(3.0))?); // a pike, say
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
pub fn within_melee_reach(distance: f64, reach: Option<f64>) -> Result<bool, Error> {
    let distance = check_distance("distance", distance)?;
    let reach = match reach {
        Some(r) => check_distance("reach", r)?.max(MELEE_REACH_METRES),
        None => MELEE_REACH_METRES,
    };
    Ok(distance <= reach)
}

/// "In melee if an attacker is 10 sizes or more larger than you, you may only use Dodge"
/// (L22).
///
/// ```
/// assert_eq!(dice_shapers_percentile::DODGE_ONLY_SIZE_GAP, 10);
/// ```
pub const DODGE_ONLY_SIZE_GAP: i32 = 10;

/// The Aptitude a defender rolls (L20–22).
///
/// ```
/// use dice_shapers_percentile::DefenceAptitude;
/// assert_eq!(DefenceAptitude::MeleeArmed.to_string(), "Melee (Armed)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DefenceAptitude {
    /// Physical Agility + Dodge.
    Dodge,
    /// Melee (Unarmed).
    MeleeUnarmed,
    /// Melee (Armed).
    MeleeArmed,
    /// Another Attribute + Aptitude the GM decides is relevant against a melee attack (L20).
    Other,
}

impl fmt::Display for DefenceAptitude {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            DefenceAptitude::Dodge => "Dodge",
            DefenceAptitude::MeleeUnarmed => "Melee (Unarmed)",
            DefenceAptitude::MeleeArmed => "Melee (Armed)",
            DefenceAptitude::Other => "another Aptitude",
        })
    }
}

/// Whether a defender may defend with `with` (PC-R8, L19–22):
///
/// - against a ranged attack (thrown or not): only if the defender can see the shot coming;
///   then Dodge, or a Melee Aptitude when within melee range (L21);
/// - against a melee attack: whatever the GM decides is relevant (L20);
/// - in melee (a melee attack, or a ranged one parried from within melee range), when the
///   attacker is [`DODGE_ONLY_SIZE_GAP`] or more sizes larger: only Dodge, never Melee
///   (Unarmed) or Melee (Armed) (L22).
///
/// `sizes` has the attacker's and the defender's (the target's) Size, when in play.
///
/// A defender who may not defend at all faces an unopposed attack ([`crate::Defence::Unopposed`]).
///
/// ```
/// use dice_shapers_percentile::{AttackKind, DefenceAptitude, Sizes, defence_allowed};
/// // An arrow seen coming, from out of melee range.
/// assert!(defence_allowed(DefenceAptitude::Dodge, AttackKind::Ranged, true, false, None));
/// assert!(!defence_allowed(DefenceAptitude::MeleeArmed, AttackKind::Ranged, true, false, None));
/// assert!(!defence_allowed(DefenceAptitude::Dodge, AttackKind::Ranged, false, false, None));
/// // A giant 12 sizes larger swinging at you.
/// let giant = Some(Sizes { attacker: 22, target: 10 });
/// assert!(!defence_allowed(DefenceAptitude::MeleeArmed, AttackKind::Melee, true, true, giant));
/// assert!(defence_allowed(DefenceAptitude::Dodge, AttackKind::Melee, true, true, giant));
/// // The giant throwing a rock from within melee range: still no parry.
/// assert!(!defence_allowed(DefenceAptitude::MeleeArmed, AttackKind::Thrown, true, true, giant));
/// ```
pub fn defence_allowed(
    with: DefenceAptitude,
    against: AttackKind,
    sees_shot_coming: bool,
    within_melee_range: bool,
    sizes: Option<Sizes>,
) -> bool {
    // L22 holds for anyone "in melee": against a melee attack, and against a ranged attack
    // parried with a Melee Aptitude from within melee range (L21).
    let dodge_only = sizes.is_some_and(|s| {
        i64::from(s.attacker) - i64::from(s.target) >= i64::from(DODGE_ONLY_SIZE_GAP)
    });
    if against.is_melee() {
        !dodge_only || with == DefenceAptitude::Dodge
    } else {
        sees_shot_coming
            && match with {
                DefenceAptitude::Dodge => true,
                DefenceAptitude::MeleeUnarmed | DefenceAptitude::MeleeArmed => {
                    within_melee_range && !dodge_only
                }
                DefenceAptitude::Other => false,
            }
    }
}
