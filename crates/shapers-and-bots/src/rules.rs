//! The rulings: one [`Rules`] value whose [`Default`] is the project's ruling on every place
//! the rulebook leaves open (digest `rules/small-systems.md`, section 1.3).

use std::fmt;

use crate::injury::DamageRule;

/// How an undefended (or sneak) attack compares the attacker's score with the target's Size
/// figure. SB-A1: L353–355 say the attacker "succeeds if get the score required by the
/// target's Size", without saying whether "required" is a challenge target (L73–78) or a
/// threshold.
///
/// ```
/// use dice_shapers_and_bots::{Rules, UndefendedHit};
/// assert_eq!(Rules::default().undefended_hit, UndefendedHit::Challenge);
/// assert_eq!(UndefendedHit::AtLeast.to_string(), "at least the target");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum UndefendedHit {
    /// The ruling (SB-A1 reading a): a challenge roll against the Size target — above is a
    /// hit, exactly on it a hit with consequences, below a miss.
    #[default]
    Challenge,
    /// Reading b: a total at least the target hits, with no consequences.
    AtLeast,
    /// Reading c: only a total above the target hits.
    Greater,
}

impl fmt::Display for UndefendedHit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UndefendedHit::Challenge => "a challenge against the target",
            UndefendedHit::AtLeast => "at least the target",
            UndefendedHit::Greater => "above the target",
        })
    }
}

/// How a punch or kick does damage to an unarmored target. SB-A4: the prose (L392) says "1
/// point of damage on a roll of 6 on a single die"; the table (L411) writes `0 + (6)`, the
/// notation the armored small weapon uses for "successive 6's" (L406).
///
/// ```
/// use dice_shapers_and_bots::{PunchDamage, Rules};
/// assert_eq!(Rules::default().punch_damage, PunchDamage::SingleRoll);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PunchDamage {
    /// The ruling (the prose, L392): one d6, a 6 does 1 point. Expected damage 1/6.
    #[default]
    SingleRoll,
    /// The table's notation read as a streak (L411): 1 point per successive 6. Expected 1/5.
    Streak,
}

impl fmt::Display for PunchDamage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PunchDamage::SingleRoll => "one die, 1 point on a 6",
            PunchDamage::Streak => "a streak of 6s",
        })
    }
}

/// Which Size gives the hit points of a character that records Height and Weight instead
/// (SB-A7): hit points are "the target figure for their Size" (L374), which is not defined
/// for them; attacks use the lower of the two (L354–355).
///
/// ```
/// use dice_shapers_and_bots::{HpSizeSource, Rules};
/// assert_eq!(Rules::default().hp_size_source, HpSizeSource::Lower);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum HpSizeSource {
    /// The ruling: the lower of Height and Weight, mirroring the attack rule (L355).
    #[default]
    Lower,
    /// The higher of Height and Weight.
    Higher,
    /// No default: the caller gives the Size (`hit_points(size, fitness)`), and
    /// [`Characteristics::hit_points`](crate::Characteristics::hit_points) returns
    /// [`Error::SizeForHitPointsRequired`](crate::Error::SizeForHitPointsRequired).
    Explicit,
}

impl fmt::Display for HpSizeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HpSizeSource::Lower => "the lower of Height and Weight",
            HpSizeSource::Higher => "the higher of Height and Weight",
            HpSizeSource::Explicit => "a Size given by the Director",
        })
    }
}

/// The rulings of a table: every place the rulebook leaves open, with the project's ruling
/// as the [`Default`] (digest ids SB-A…). Mechanics take `&Rules` and keep what they need.
///
/// Rulings that are caller inputs rather than table-wide switches are not here: whether a
/// task is important (SB-A2, [`Stakes`](crate::Stakes)), the defender's and attacker's
/// skill (SB-A8, SB-A20, [`Contestant`](crate::Contestant)), the initiative tie roll (SB-A11,
/// [`Initiative`](crate::Initiative)), the surprise bonus (SB-A18,
/// [`Surprise`](crate::Surprise)) and whether the Director or a player builds a character
/// (SB-A12, SB-A13, [`CreatedBy`](crate::CreatedBy)).
///
/// ```
/// use dice_shapers_and_bots::{DamageRule, PunchDamage, Rules, UndefendedHit};
/// use dice_core::FaceSet;
///
/// let house = Rules {
///     punch_damage: PunchDamage::Streak,
///     armored_really_powerful: Some(DamageRule::Streak {
///         base: 0,
///         continue_on: FaceSet::range(4, 6)?,
///     }),
///     ..Rules::default()
/// };
/// assert_eq!(house.undefended_hit, UndefendedHit::Challenge);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// SB-A1 (L353–355 vs L73–78): how an undefended or sneak attack reads "the score
    /// required by the target's Size". Default [`UndefendedHit::Challenge`].
    pub undefended_hit: UndefendedHit,
    /// SB-A3 (L119, L125–126): whether a fluke score exactly equal to the task's target is a
    /// success with consequences, as in a challenge (L77–78; `true`, the default), or a plain
    /// success ("needs 7 points", `false`).
    pub fluke_equal_is_consequence: bool,
    /// SB-A4 (L392 vs L411): a punch or kick against an unarmored target. Default
    /// [`PunchDamage::SingleRoll`] (the prose).
    pub punch_damage: PunchDamage,
    /// SB-A6 (L400–401, L405, L409–412): the damage of a really powerful weapon against an
    /// armored target, which the rulebook does not give. Default `None`: the ruling requires
    /// the caller to supply it, and asking for that damage without it is
    /// [`Error::MissingDamageRule`](crate::Error::MissingDamageRule).
    pub armored_really_powerful: Option<DamageRule>,
    /// SB-A7 (L138–141, L354–355, L374): which Size gives the hit points of a character that
    /// records Height and Weight. Default [`HpSizeSource::Lower`].
    pub hp_size_source: HpSizeSource,
    /// SB-A17 (L432–433): whether hit points stop at zero (`true`, the default) or go
    /// negative. A character is unconscious at zero or below either way.
    pub clamp_hp_at_zero: bool,
    /// SB-A19 (L362–363): how many actions a defender may owe to later turns. Default 2: a
    /// defender may borrow down to no actions next turn and no further (a turn has two
    /// actions, L330–331). More than 2 lets the debt run over several turns.
    pub max_borrowed_actions: u8,
    /// SB-A21: whether a character with no rating may roll a fluke in a contest or a defended
    /// attack (its fluke score standing for its total). Default `false`: flukes are for
    /// challenge-type tasks only (L113–119), which includes an undefended attack against a
    /// Size target (SB-E5 is one).
    pub fluke_in_contests: bool,
}

impl Default for Rules {
    /// The rulings of the digest (SB-A1, A3, A4, A6, A7, A17, A19, A21).
    fn default() -> Self {
        Rules {
            undefended_hit: UndefendedHit::Challenge,
            fluke_equal_is_consequence: true,
            punch_damage: PunchDamage::SingleRoll,
            armored_really_powerful: None,
            hp_size_source: HpSizeSource::Lower,
            clamp_hp_at_zero: true,
            max_borrowed_actions: 2,
            fluke_in_contests: false,
        }
    }
}
