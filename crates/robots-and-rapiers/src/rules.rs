//! The rulings: one [`Rules`] value whose [`Default`] is the project's ruling on every place
//! the rulebook leaves open (digest `rules/robots-and-rapiers.md`, §8).

use std::fmt;

use crate::attribute::Attribute;

/// How a halved sensor is rounded (A5).
///
/// ```
/// use dice_robots_and_rapiers::Rounding;
/// assert_eq!(Rounding::Up.halve(3), 2);
/// assert_eq!(Rounding::Down.halve(3), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Rounding {
    /// Round halves up: the rule text (L664, L2006, L2025) and the ruling.
    #[default]
    Up,
    /// Round down: what the examples E30 and E31 do (L2029, L2037).
    Down,
}

impl Rounding {
    /// Half of `value`, rounded this way (negative values are halved towards the rounding
    /// direction as well).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Rounding::Up.halve(4), 2);
    /// ```
    pub const fn halve(self, value: i32) -> i32 {
        match self {
            Rounding::Up => value.div_euclid(2) + value.rem_euclid(2),
            Rounding::Down => value.div_euclid(2),
        }
    }
}

impl fmt::Display for Rounding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rounding::Up => "rounded up",
            Rounding::Down => "rounded down",
        })
    }
}

/// Where the Base Action Point TN steps to 3 and 7 (A12).
///
/// ```
/// use dice_robots_and_rapiers::Outnumbering;
/// assert_eq!(Outnumbering::default(), Outnumbering::Inclusive);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outnumbering {
    /// The quick reference (L309–310) and the ruling: "2x or more" gives TN 3, "1/2 or
    /// fewer" TN 7, so exactly 2:1 counts.
    #[default]
    Inclusive,
    /// The chapter (L2097–2098): only "More than 2x" and "Less than ½".
    Strict,
}

impl fmt::Display for Outnumbering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outnumbering::Inclusive => "2x or more",
            Outnumbering::Strict => "more than 2x",
        })
    }
}

/// The rulings of a table: every place the rulebook leaves open, with the digest's ruling as
/// the [`Default`] (ids A1 … A54 of digest §8). Mechanics take `&Rules`.
///
/// Rulings that are per-roll inputs are not here: whether a roll only augments another (A4,
/// [`Ledger::augmenting`](crate::Ledger::augmenting)), which save a maneuver calls for (A15),
/// the attack type for knockdown (A24, [`AttackType`](crate::AttackType)).
///
/// ```
/// use dice_robots_and_rapiers::{Rounding, Rules};
/// let house = Rules { inspiration_faces: 2, darkness_rounding: Rounding::Down, ..Rules::default() };
/// assert_eq!(house.total_failure_loss, 6);
/// assert_eq!(Rules::default().inspiration_faces, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// The campaign dial of L1340: the highest face a Sparked robot may take as Inspiration
    /// instead of a success (L195, L1403). Default 1 (ones only); 2 for a rapid campaign
    /// ("on a 1 or a 2"). 0 turns Inspiration from dice off.
    pub inspiration_faces: u8,
    /// A8 (L251, L1768, L1794): the attribute loss on a Total Failure. Default 6 (2 per die).
    pub total_failure_loss: u8,
    /// L251: the attribute loss per failed die of a Partial Failure. Default 2.
    pub loss_per_failed_die: u8,
    /// A9 (L261 vs L1836): whether a Partial Durability Save gives malfunctions per failed
    /// die (`true`, the ruling: failed dice × the weapon's multiplier, default 2) or a flat
    /// "2 rolls on the Malfunction table" (`false`; the weapon multiplier then replaces the 2).
    pub malfunctions_per_failed_die: bool,
    /// A10 (L260, L1768, L1840): whether a Durability Total Failure also gives malfunctions
    /// (3 × the multiplier) besides the shutdown. Default `true`.
    pub malfunctions_on_total_failure: bool,
    /// A5 (L297, L664, L2006 vs the examples L2029, L2037): how darkness halves Visual
    /// Sensors (and noise Audio). Default [`Rounding::Up`].
    pub darkness_rounding: Rounding,
    /// A11 (L2091, L2099 vs L2103): Base Action Points are 1 + successes (`true`, default)
    /// or successes only.
    pub base_ap_plus_one: bool,
    /// A12 (L308–310 vs L2096–2098): the outnumbering thresholds. Default
    /// [`Outnumbering::Inclusive`]; also used by the social table (L2551–2552).
    pub outnumbering: Outnumbering,
    /// A13: whether the Base Action Point roll is capped at Processor + Self Awareness.
    /// Default `false` (only regains are capped, L2160).
    pub cap_base_action_points: bool,
    /// A14 (L327, L2052, L2073–2077 vs L2105): Action Points a surprised robot loses per
    /// failed die of its Perception Save. Default 1.
    pub surprise_ap_per_failed_die: u8,
    /// A14 (L327, L2052): Perception lost for the initial turn order per failed die. Default 2.
    pub surprise_perception_per_failed_die: u8,
    /// A16 (L366, L2546): sides of the social turn-order tie-break die (the combat tie-break
    /// is a d10, L296). Default 10 (the ruling's "use d10 for uniformity"); 6 as written.
    /// Read by [`ConflictKind::tie_die_sides`](crate::ConflictKind::tie_die_sides), hence
    /// by [`TurnOrder::initial_for`](crate::TurnOrder::initial_for) and
    /// [`TurnOrder::roll_initial`](crate::TurnOrder::roll_initial).
    pub social_tie_die_sides: u32,
    /// A17 (L367, L2547): the attribute of the "Etiquette Save" of a social ambush. Default
    /// Anthropoid Class. Read by
    /// [`ConflictKind::surprise_save_attribute`](crate::ConflictKind::surprise_save_attribute)
    /// and [`ConflictKind::surprise_save`](crate::ConflictKind::surprise_save).
    pub etiquette_save_attribute: Attribute,
    /// A18: whether a knockdown needs at least 1 damage (`true`) or follows the text
    /// literally, so a Size 0–1 robot is knocked down by any bashing hit (`false`, default).
    pub knockdown_needs_damage: bool,
    /// A24 (L555–556, L1886–1887 vs L278): knockdown at damage ≥ the threshold (`true`,
    /// default) or only above it.
    pub knockdown_inclusive: bool,
    /// A25 (L1884 vs L554): whether the weapon's Damage rating counts as knockdown damage.
    /// Default `false`.
    pub weapon_damage_counts_for_knockdown: bool,
    /// A26 (L982, L2260): whether the weapon's Damage rating counts towards the successes
    /// Armor Plating ignores. Default `false`.
    pub plating_counts_weapon_damage: bool,
    /// A27 (L2455): whether worn armour still raises the Durability TN against EMP weapons.
    /// Default `true` ("The armor bonus is unaffected by EMP weapons").
    pub armor_vs_emp: bool,
    /// A19 (L1842): the Shut Down Override's penalty dice per failed die. Default 2.
    pub override_penalty_per_failed_die: u8,
    /// A22 (L512 vs L926): dice for a Voice Sensitive program at Vocalization Type 5.
    /// Default 2.
    pub vocalization_type5_dice: i8,
}

impl Default for Rules {
    /// The digest's rulings (A5, A8–A14, A16–A19, A22, A24–A27) and the ones-only
    /// Inspiration dial.
    fn default() -> Self {
        Rules {
            inspiration_faces: 1,
            total_failure_loss: 6,
            loss_per_failed_die: 2,
            malfunctions_per_failed_die: true,
            malfunctions_on_total_failure: true,
            darkness_rounding: Rounding::Up,
            base_ap_plus_one: true,
            outnumbering: Outnumbering::Inclusive,
            cap_base_action_points: false,
            surprise_ap_per_failed_die: 1,
            surprise_perception_per_failed_die: 2,
            social_tie_die_sides: 10,
            etiquette_save_attribute: Attribute::AnthropoidClass,
            knockdown_needs_damage: false,
            knockdown_inclusive: true,
            weapon_damage_counts_for_knockdown: false,
            plating_counts_weapon_damage: false,
            armor_vs_emp: true,
            override_penalty_per_failed_die: 2,
            vocalization_type5_dice: 2,
        }
    }
}
