//! Combat modifiers as data: the melee table (PC-R12, L35–48), the ranged table (PC-R13,
//! L49–64), range bands from distance and listed range (PC-A8), outnumbering (PC-R14,
//! L65–68; PC-A6), and the situations that add them up (rulings PC-A7, PC-A12, PC-A14,
//! PC-A15).

use alloc::vec::Vec;
use core::fmt;

use crate::error::{Error, check_distance, check_score};
use crate::location::Aim;
use crate::rules::{OutnumberCount, Rules, SizeVsLargeTarget};

/// How a table row's modifier is worked out.
///
/// ```
/// use dice_shapers_percentile::TableModifier;
/// assert_eq!(TableModifier::Flat(20).to_string(), "+20");
/// assert_eq!(TableModifier::CreatureSizeMinus(10).to_string(), "Creature Size -10");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TableModifier {
    /// A fixed number.
    Flat(i32),
    /// This much per combatant on the outnumbering side (L41).
    PerCombatant(i32),
    /// "+Difference in Size" (L42).
    PlusSizeDifference,
    /// "-Difference in Size" (L44).
    MinusSizeDifference,
    /// "Creature Size -10" (L55): the target's Size minus this.
    CreatureSizeMinus(i32),
}

impl fmt::Display for TableModifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableModifier::Flat(v) => write!(f, "{v:+}"),
            TableModifier::PerCombatant(v) => {
                write!(f, "{v:+} per combatant on the outnumbering side")
            }
            TableModifier::PlusSizeDifference => f.write_str("+Difference in Size"),
            TableModifier::MinusSizeDifference => f.write_str("-Difference in Size"),
            TableModifier::CreatureSizeMinus(v) => write!(f, "Creature Size -{v}"),
        }
    }
}

/// One row of a modifier table: what it is, the rulebook's words, the modifier and the line.
///
/// ```
/// use dice_shapers_percentile::{MELEE_MODIFIERS, MeleeAction, TableModifier};
/// let charge = MeleeAction::Charging.row();
/// assert_eq!(charge.text, "Charging into combat");
/// assert_eq!(charge.modifier, TableModifier::Flat(10));
/// assert_eq!(charge.line, 40);
/// assert_eq!(MELEE_MODIFIERS.len(), 12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Row<A> {
    /// The situation.
    pub action: A,
    /// The rulebook's words.
    pub text: &'static str,
    /// The modifier to the TN.
    pub modifier: TableModifier,
    /// The rulebook line (1-based).
    pub line: u32,
}

/// A row of the melee table (L35–48).
///
/// ```
/// use dice_shapers_percentile::{MeleeAction, TableModifier};
/// assert_eq!(MeleeAction::WhileBlind.row().modifier, TableModifier::Flat(-40));
/// assert_eq!(MeleeAction::ALL.len(), 12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MeleeAction {
    /// Attacking a blind opponent, +20 (L37).
    BlindOpponent,
    /// Attacking a prone opponent, +20 (L38).
    ProneOpponent,
    /// Attacking an engaged opponent in the rear, +20 (L39).
    EngagedOpponentInTheRear,
    /// Charging into combat, +10 (L40).
    Charging,
    /// Outnumbering an opponent, +10 per combatant on the outnumbering side (L41).
    Outnumbering,
    /// Attacking a larger opponent, +Difference in Size (L42).
    LargerOpponent,
    /// A standard melee attack, 0 (L43).
    Standard,
    /// Attacking a smaller opponent, −Difference in Size (L44).
    SmallerOpponent,
    /// Attacking while prone, −10 (L45).
    WhileProne,
    /// Attacking a specific hit location, −20 (L46).
    SpecificHitLocation,
    /// Attacking through fog, mist, heavy rain and other weather effects, −20 (L47).
    Weather,
    /// Attacking while blind, −40 (L48).
    WhileBlind,
}

/// The melee table, in the rulebook's order (L35–48).
///
/// ```
/// use dice_shapers_percentile::MELEE_MODIFIERS;
/// assert_eq!(MELEE_MODIFIERS[0].text, "Attacking a blind opponent");
/// assert_eq!(MELEE_MODIFIERS[11].line, 48);
/// ```
pub const MELEE_MODIFIERS: [Row<MeleeAction>; 12] = [
    Row {
        action: MeleeAction::BlindOpponent,
        text: "Attacking a blind opponent",
        modifier: TableModifier::Flat(20),
        line: 37,
    },
    Row {
        action: MeleeAction::ProneOpponent,
        text: "Attacking a prone opponent",
        modifier: TableModifier::Flat(20),
        line: 38,
    },
    Row {
        action: MeleeAction::EngagedOpponentInTheRear,
        text: "Attacking an engaged opponent in the rear",
        modifier: TableModifier::Flat(20),
        line: 39,
    },
    Row {
        action: MeleeAction::Charging,
        text: "Charging into combat",
        modifier: TableModifier::Flat(10),
        line: 40,
    },
    Row {
        action: MeleeAction::Outnumbering,
        text: "Outnumbering an opponent",
        modifier: TableModifier::PerCombatant(10),
        line: 41,
    },
    Row {
        action: MeleeAction::LargerOpponent,
        text: "Attacking a larger opponent",
        modifier: TableModifier::PlusSizeDifference,
        line: 42,
    },
    Row {
        action: MeleeAction::Standard,
        text: "A standard melee attack",
        modifier: TableModifier::Flat(0),
        line: 43,
    },
    Row {
        action: MeleeAction::SmallerOpponent,
        text: "Attacking a smaller opponent",
        modifier: TableModifier::MinusSizeDifference,
        line: 44,
    },
    Row {
        action: MeleeAction::WhileProne,
        text: "Attacking while prone",
        modifier: TableModifier::Flat(-10),
        line: 45,
    },
    Row {
        action: MeleeAction::SpecificHitLocation,
        text: "Attacking a specific hit location",
        modifier: TableModifier::Flat(-20),
        line: 46,
    },
    Row {
        action: MeleeAction::Weather,
        text: "Attacking through fog, mist, heavy rain and other weather effects",
        modifier: TableModifier::Flat(-20),
        line: 47,
    },
    Row {
        action: MeleeAction::WhileBlind,
        text: "Attacking while blind",
        modifier: TableModifier::Flat(-40),
        line: 48,
    },
];

impl MeleeAction {
    /// Every row, in the rulebook's order.
    ///
    /// ```
    /// # use dice_shapers_percentile::MeleeAction;
    /// assert_eq!(MeleeAction::ALL[3], MeleeAction::Charging);
    /// ```
    pub const ALL: [MeleeAction; 12] = [
        MeleeAction::BlindOpponent,
        MeleeAction::ProneOpponent,
        MeleeAction::EngagedOpponentInTheRear,
        MeleeAction::Charging,
        MeleeAction::Outnumbering,
        MeleeAction::LargerOpponent,
        MeleeAction::Standard,
        MeleeAction::SmallerOpponent,
        MeleeAction::WhileProne,
        MeleeAction::SpecificHitLocation,
        MeleeAction::Weather,
        MeleeAction::WhileBlind,
    ];

    /// This action's row of [`MELEE_MODIFIERS`].
    ///
    /// ```
    /// # use dice_shapers_percentile::MeleeAction;
    /// assert_eq!(MeleeAction::Weather.row().line, 47);
    /// ```
    pub fn row(self) -> &'static Row<MeleeAction> {
        &MELEE_MODIFIERS[self as usize]
    }
}

impl fmt::Display for MeleeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.row().text)
    }
}

/// A row of the ranged table (L49–64).
///
/// ```
/// use dice_shapers_percentile::{RangedAction, TableModifier};
/// assert_eq!(RangedAction::HeavyCover.row().modifier, TableModifier::Flat(-30));
/// assert_eq!(RangedAction::ALL.len(), 14);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RangedAction {
    /// Shooting at Point Blank (up to 10% of the listed range), +20 (L51).
    PointBlank,
    /// Shooting at a Large target (example: Stone Guardian), +10 (L52).
    LargeTarget,
    /// Shooting at Short Range (up to half the listed range), +10 (L53).
    ShortRange,
    /// Spend a round aiming, +10 (L54).
    Aiming,
    /// Size modifier, Creature Size −10 (L55).
    SizeModifier,
    /// Shooting at Normal Range (up to the listed range), 0 (L56).
    NormalRange,
    /// Shooting while you or your mount is jogging, −10 (L57).
    Jogging,
    /// Target is behind light cover (example: bushes), −10 (L58).
    LightCover,
    /// Attempting to use a Learned Aptitude without any points in the Aptitude, −20 (L59).
    UntrainedAptitude,
    /// Shooting at Long Range (up to double the listed range), −20 (L60).
    LongRange,
    /// Targeting a specific hit location, −20 (L61).
    SpecificHitLocation,
    /// Target is behind medium cover (example: a wooden fence), −20 (L62).
    MediumCover,
    /// Target is behind heavy cover (example: a car or brick wall), −30 (L63).
    HeavyCover,
    /// Shooting at Extreme Range (up to triple the listed range), −40 (L64).
    ExtremeRange,
}

/// The ranged table, in the rulebook's order (L49–64).
///
/// ```
/// use dice_shapers_percentile::RANGED_MODIFIERS;
/// assert_eq!(RANGED_MODIFIERS[0].line, 51);
/// assert_eq!(RANGED_MODIFIERS[13].text, "Shooting at Extreme Range (up to triple the listed range)");
/// ```
pub const RANGED_MODIFIERS: [Row<RangedAction>; 14] = [
    Row {
        action: RangedAction::PointBlank,
        text: "Shooting at Point Blank (up to 10% of the listed range)",
        modifier: TableModifier::Flat(20),
        line: 51,
    },
    Row {
        action: RangedAction::LargeTarget,
        text: "Shooting at a Large target (example: Stone Guardian)",
        modifier: TableModifier::Flat(10),
        line: 52,
    },
    Row {
        action: RangedAction::ShortRange,
        text: "Shooting at Short Range (up to half the listed range)",
        modifier: TableModifier::Flat(10),
        line: 53,
    },
    Row {
        action: RangedAction::Aiming,
        text: "Spend a round aiming",
        modifier: TableModifier::Flat(10),
        line: 54,
    },
    Row {
        action: RangedAction::SizeModifier,
        text: "Size modifier",
        modifier: TableModifier::CreatureSizeMinus(10),
        line: 55,
    },
    Row {
        action: RangedAction::NormalRange,
        text: "Shooting at Normal Range (up to the listed range)",
        modifier: TableModifier::Flat(0),
        line: 56,
    },
    Row {
        action: RangedAction::Jogging,
        text: "Shooting while you or your mount is jogging",
        modifier: TableModifier::Flat(-10),
        line: 57,
    },
    Row {
        action: RangedAction::LightCover,
        text: "Target is behind light cover (example: bushes)",
        modifier: TableModifier::Flat(-10),
        line: 58,
    },
    Row {
        action: RangedAction::UntrainedAptitude,
        text: "Attempting to use a Learned Aptitude without any points in the Aptitude",
        modifier: TableModifier::Flat(-20),
        line: 59,
    },
    Row {
        action: RangedAction::LongRange,
        text: "Shooting at Long Range (up to double the listed range)",
        modifier: TableModifier::Flat(-20),
        line: 60,
    },
    Row {
        action: RangedAction::SpecificHitLocation,
        text: "Targeting a specific hit location",
        modifier: TableModifier::Flat(-20),
        line: 61,
    },
    Row {
        action: RangedAction::MediumCover,
        text: "Target is behind medium cover (example: a wooden fence)",
        modifier: TableModifier::Flat(-20),
        line: 62,
    },
    Row {
        action: RangedAction::HeavyCover,
        text: "Target is behind heavy cover (example: a car or brick wall)",
        modifier: TableModifier::Flat(-30),
        line: 63,
    },
    Row {
        action: RangedAction::ExtremeRange,
        text: "Shooting at Extreme Range (up to triple the listed range)",
        modifier: TableModifier::Flat(-40),
        line: 64,
    },
];

impl RangedAction {
    /// Every row, in the rulebook's order.
    ///
    /// ```
    /// # use dice_shapers_percentile::RangedAction;
    /// assert_eq!(RangedAction::ALL[0], RangedAction::PointBlank);
    /// ```
    pub const ALL: [RangedAction; 14] = [
        RangedAction::PointBlank,
        RangedAction::LargeTarget,
        RangedAction::ShortRange,
        RangedAction::Aiming,
        RangedAction::SizeModifier,
        RangedAction::NormalRange,
        RangedAction::Jogging,
        RangedAction::LightCover,
        RangedAction::UntrainedAptitude,
        RangedAction::LongRange,
        RangedAction::SpecificHitLocation,
        RangedAction::MediumCover,
        RangedAction::HeavyCover,
        RangedAction::ExtremeRange,
    ];

    /// This action's row of [`RANGED_MODIFIERS`].
    ///
    /// ```
    /// # use dice_shapers_percentile::RangedAction;
    /// assert_eq!(RangedAction::Aiming.row().line, 54);
    /// ```
    pub fn row(self) -> &'static Row<RangedAction> {
        &RANGED_MODIFIERS[self as usize]
    }

    /// The fixed modifier of a [`TableModifier::Flat`] row (0 for the Size row, whose value
    /// depends on the target).
    pub(crate) fn row_flat(self) -> i32 {
        match self.row().modifier {
            TableModifier::Flat(v) => v,
            _ => 0,
        }
    }
}

impl fmt::Display for RangedAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.row().text)
    }
}

impl MeleeAction {
    /// The fixed modifier of a [`TableModifier::Flat`] row (0 for the others).
    pub(crate) fn row_flat(self) -> i32 {
        match self.row().modifier {
            TableModifier::Flat(v) => v,
            _ => 0,
        }
    }
}

/// A range band of the ranged table: "up to" each bound, inclusive, the first that fits
/// (PC-R13, PC-A8).
///
/// ```
/// use dice_shapers_percentile::RangeBand;
/// // A listed range of 50 m.
/// assert_eq!(RangeBand::from_distance(5.0, 50.0)?, Some(RangeBand::PointBlank));
/// assert_eq!(RangeBand::from_distance(25.0, 50.0)?, Some(RangeBand::Short));
/// assert_eq!(RangeBand::from_distance(50.0, 50.0)?, Some(RangeBand::Normal));
/// assert_eq!(RangeBand::from_distance(100.0, 50.0)?, Some(RangeBand::Long));
/// assert_eq!(RangeBand::from_distance(150.0, 50.0)?, Some(RangeBand::Extreme));
/// assert_eq!(RangeBand::from_distance(151.0, 50.0)?, None); // PC-A8: no shot
/// assert_eq!(RangeBand::Long.modifier(), -20);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RangeBand {
    /// Up to 10% of the listed range, +20 (L51).
    PointBlank,
    /// Up to half the listed range, +10 (L53).
    Short,
    /// Up to the listed range, 0 (L56).
    Normal,
    /// Up to double the listed range, −20 (L60).
    Long,
    /// Up to triple the listed range, −40 (L64).
    Extreme,
}

impl RangeBand {
    /// Every band, nearest first.
    ///
    /// ```
    /// # use dice_shapers_percentile::RangeBand;
    /// assert_eq!(RangeBand::ALL.len(), 5);
    /// ```
    pub const ALL: [RangeBand; 5] = [
        RangeBand::PointBlank,
        RangeBand::Short,
        RangeBand::Normal,
        RangeBand::Long,
        RangeBand::Extreme,
    ];

    /// The band of a shot at `distance` with a weapon of `listed` range (both in the same
    /// unit): the first band whose bound is at least the distance; `None` beyond triple the
    /// listed range (PC-A8: silent in the text, ruled an impossible shot).
    ///
    /// # Errors
    /// [`Error::Distance`] when a number is negative or not finite, or the listed range is 0.
    ///
    /// ```
    /// # use dice_shapers_percentile::RangeBand;
    /// assert_eq!(RangeBand::from_distance(0.0, 30.0)?, Some(RangeBand::PointBlank));
    /// assert_eq!(RangeBand::from_distance(3.0, 30.0)?, Some(RangeBand::PointBlank)); // 10%
    /// assert_eq!(RangeBand::from_distance(3.5, 30.0)?, Some(RangeBand::Short));
    /// assert!(RangeBand::from_distance(3.0, 0.0).is_err());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn from_distance(distance: f64, listed: f64) -> Result<Option<RangeBand>, Error> {
        let distance = check_distance("distance", distance)?;
        if !(listed.is_finite() && listed > 0.0) {
            return Err(Error::Distance {
                what: "listed range",
                allowed: "above 0",
                value: listed,
            });
        }
        // Compare `distance ≤ fraction · listed` as `distance · denominator ≤ numerator ·
        // listed`, exact for whole numbers.
        let bands = [
            (RangeBand::PointBlank, 10.0, 1.0),
            (RangeBand::Short, 2.0, 1.0),
            (RangeBand::Normal, 1.0, 1.0),
            (RangeBand::Long, 1.0, 2.0),
            (RangeBand::Extreme, 1.0, 3.0),
        ];
        Ok(bands
            .iter()
            .find(|(_, den, num)| distance * den <= num * listed)
            .map(|(b, _, _)| *b))
    }

    /// The band's row of the ranged table.
    ///
    /// ```
    /// # use dice_shapers_percentile::{RangeBand, RangedAction};
    /// assert_eq!(RangeBand::Short.action(), RangedAction::ShortRange);
    /// ```
    pub fn action(self) -> RangedAction {
        match self {
            RangeBand::PointBlank => RangedAction::PointBlank,
            RangeBand::Short => RangedAction::ShortRange,
            RangeBand::Normal => RangedAction::NormalRange,
            RangeBand::Long => RangedAction::LongRange,
            RangeBand::Extreme => RangedAction::ExtremeRange,
        }
    }

    /// The band's modifier to the TN.
    ///
    /// ```
    /// # use dice_shapers_percentile::RangeBand;
    /// assert_eq!(RangeBand::PointBlank.modifier(), 20);
    /// assert_eq!(RangeBand::Extreme.modifier(), -40);
    /// ```
    pub fn modifier(self) -> i32 {
        self.action().row_flat()
    }
}

impl fmt::Display for RangeBand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            RangeBand::PointBlank => "point blank",
            RangeBand::Short => "short range",
            RangeBand::Normal => "normal range",
            RangeBand::Long => "long range",
            RangeBand::Extreme => "extreme range",
        })
    }
}

/// Cover between a shooter and the target (L58, L62, L63).
///
/// ```
/// use dice_shapers_percentile::Cover;
/// assert_eq!(Cover::Medium.modifier(), -20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Cover {
    /// Light cover (example: bushes), −10.
    Light,
    /// Medium cover (example: a wooden fence), −20.
    Medium,
    /// Heavy cover (example: a car or brick wall), −30.
    Heavy,
}

impl Cover {
    /// The cover's row of the ranged table.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Cover, RangedAction};
    /// assert_eq!(Cover::Heavy.action(), RangedAction::HeavyCover);
    /// ```
    pub fn action(self) -> RangedAction {
        match self {
            Cover::Light => RangedAction::LightCover,
            Cover::Medium => RangedAction::MediumCover,
            Cover::Heavy => RangedAction::HeavyCover,
        }
    }

    /// The cover's modifier to the TN.
    ///
    /// ```
    /// # use dice_shapers_percentile::Cover;
    /// assert_eq!(Cover::Light.modifier(), -10);
    /// ```
    pub fn modifier(self) -> i32 {
        self.action().row_flat()
    }
}

/// The most combatants on a side.
const MAX_COMBATANTS: u32 = 10_000;

/// Outnumbering in melee (PC-R14, L65–68): the sizes of the two sides of a fight.
///
/// When `side > opponents`, each combatant on the outnumbering side gains +10 TN and +1
/// damage per counted combatant: every combatant on the side under the ruling (PC-A6), or
/// only the excess under [`OutnumberCount::Excess`].
///
/// ```
/// use dice_shapers_percentile::{Outnumbering, Rules};
/// // L68: "4 humans … outnumber the creature by 4 to 1, they each receive a +40 bonus to
/// // their TN to hit the beast and a +4 damage bonus too!"
/// let humans = Outnumbering::new(4, 1)?;
/// assert_eq!(humans.tn_bonus(&Rules::default()), 40);
/// assert_eq!(humans.damage_bonus(&Rules::default()), 4);
/// assert_eq!(Outnumbering::new(1, 4)?.tn_bonus(&Rules::default()), 0); // the monster
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RawOutnumbering"))]
pub struct Outnumbering {
    side: u32,
    opponents: u32,
}

/// The unchecked form of [`Outnumbering`] that serde reads before validating.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct RawOutnumbering {
    side: u32,
    opponents: u32,
}

#[cfg(feature = "serde")]
impl TryFrom<RawOutnumbering> for Outnumbering {
    type Error = Error;
    fn try_from(raw: RawOutnumbering) -> Result<Self, Error> {
        Outnumbering::new(raw.side, raw.opponents)
    }
}

impl Outnumbering {
    /// `side` combatants (the attacker's side, the attacker included) against `opponents`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] unless both are in `1..=10000`.
    ///
    /// ```
    /// # use dice_shapers_percentile::Outnumbering;
    /// assert!(Outnumbering::new(0, 1).is_err());
    /// assert!(Outnumbering::new(3, 2)?.is_outnumbering());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn new(side: u32, opponents: u32) -> Result<Self, Error> {
        for (what, n) in [("combatants on the side", side), ("opponents", opponents)] {
            if !(1..=MAX_COMBATANTS).contains(&n) {
                return Err(Error::OutOfRange {
                    what,
                    value: i64::from(n),
                    min: 1,
                    max: i64::from(MAX_COMBATANTS),
                });
            }
        }
        Ok(Outnumbering { side, opponents })
    }

    /// Combatants on the attacker's side.
    ///
    /// ```
    /// # use dice_shapers_percentile::Outnumbering;
    /// assert_eq!(Outnumbering::new(3, 2)?.side(), 3);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn side(&self) -> u32 {
        self.side
    }

    /// Combatants on the other side.
    ///
    /// ```
    /// # use dice_shapers_percentile::Outnumbering;
    /// assert_eq!(Outnumbering::new(3, 2)?.opponents(), 2);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn opponents(&self) -> u32 {
        self.opponents
    }

    /// Whether the attacker's side outnumbers the other.
    ///
    /// ```
    /// # use dice_shapers_percentile::Outnumbering;
    /// assert!(!Outnumbering::new(2, 2)?.is_outnumbering());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn is_outnumbering(&self) -> bool {
        self.side > self.opponents
    }

    /// How many combatants count "on the outnumbering side" (PC-A6): 0 when not
    /// outnumbering.
    ///
    /// ```
    /// # use dice_shapers_percentile::{OutnumberCount, Outnumbering, Rules};
    /// let four_vs_two = Outnumbering::new(4, 2)?;
    /// assert_eq!(four_vs_two.count(&Rules::default()), 4);
    /// let excess = Rules { outnumber: OutnumberCount::Excess, ..Rules::default() };
    /// assert_eq!(four_vs_two.count(&excess), 2);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn count(&self, rules: &Rules) -> u32 {
        if !self.is_outnumbering() {
            return 0;
        }
        match rules.outnumber {
            OutnumberCount::SideSize => self.side,
            OutnumberCount::Excess => self.side - self.opponents,
        }
    }

    /// "Increase the TN by +10 per combatant on the outnumbering side" (L66).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Outnumbering, Rules};
    /// assert_eq!(Outnumbering::new(2, 1)?.tn_bonus(&Rules::default()), 20);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn tn_bonus(&self, rules: &Rules) -> i32 {
        let per = match MeleeAction::Outnumbering.row().modifier {
            TableModifier::PerCombatant(v) => v,
            _ => 0,
        };
        // At most 10,000 combatants: 100,000 fits.
        per * self.count(rules) as i32
    }

    /// "Increase damage caused by +1 per combatant on the outnumbering side" (L67).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Outnumbering, Rules};
    /// assert_eq!(Outnumbering::new(2, 1)?.damage_bonus(&Rules::default()), 2);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn damage_bonus(&self, rules: &Rules) -> u32 {
        self.count(rules)
    }
}

/// Where a modifier comes from.
///
/// ```
/// use dice_shapers_percentile::{MeleeAction, ModifierSource};
/// assert_eq!(ModifierSource::Melee(MeleeAction::Charging).to_string(), "Charging into combat (L40)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ModifierSource {
    /// A row of the melee table.
    Melee(MeleeAction),
    /// A row of the ranged table.
    Ranged(RangedAction),
    /// Jogging in melee: "will suffer penalties" (L13), with no melee row; the caller's value
    /// (PC-A12).
    MeleeJogging,
    /// The GM's own judgement (L34).
    Gm,
}

impl fmt::Display for ModifierSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModifierSource::Melee(a) => write!(f, "{} (L{})", a.row().text, a.row().line),
            ModifierSource::Ranged(a) => write!(f, "{} (L{})", a.row().text, a.row().line),
            ModifierSource::MeleeJogging => f.write_str("Jogging in melee (L13, GM's penalty)"),
            ModifierSource::Gm => f.write_str("GM's judgement (L34)"),
        }
    }
}

/// One modifier that applies, and its value.
///
/// ```
/// use dice_shapers_percentile::{Applied, ModifierSource, RangedAction};
/// let a = Applied { source: ModifierSource::Ranged(RangedAction::Aiming), value: 10 };
/// assert_eq!(a.to_string(), "+10 Spend a round aiming (L54)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Applied {
    /// Where it comes from.
    pub source: ModifierSource,
    /// Its value.
    pub value: i32,
}

impl fmt::Display for Applied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+} {}", self.value, self.source)
    }
}

/// The Size of an attacker and its target, as plain numbers (PC-A9: the units and the human
/// baseline are not given).
///
/// ```
/// use dice_shapers_percentile::Sizes;
/// let s = Sizes { attacker: 10, target: 14 };
/// assert_eq!(s.difference(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sizes {
    /// The attacker's Size.
    pub attacker: i32,
    /// The target's Size.
    pub target: i32,
}

impl Sizes {
    /// `target − attacker`: positive when the target is larger (saturating at the ends of
    /// `i32`).
    ///
    /// ```
    /// # use dice_shapers_percentile::Sizes;
    /// assert_eq!(Sizes { attacker: 12, target: 10 }.difference(), -2);
    /// ```
    pub fn difference(&self) -> i32 {
        self.target.saturating_sub(self.attacker)
    }
}

/// Adds an item when its value is not 0.
fn push(out: &mut Vec<Applied>, source: ModifierSource, value: i32) {
    if value != 0 {
        out.push(Applied { source, value });
    }
}

/// The sum of the items, checked against [`crate::MAX_SCORE`].
fn sum(items: &[Applied]) -> Result<i32, Error> {
    let total: i64 = items.iter().map(|a| i64::from(a.value)).sum();
    let clamped = i32::try_from(total).unwrap_or(if total < 0 { i32::MIN } else { i32::MAX });
    check_score("total modifier", clamped)
}

/// A melee attack's situation: which rows of the melee table apply (L35–48), plus the
/// untrained penalty (L59, PC-A14), jogging (PC-A12) and the GM's own modifier (L34).
///
/// ```
/// use dice_shapers_percentile::{Aim, Location, MeleeSituation, Outnumbering, Rules};
/// let rules = Rules::default();
/// let s = MeleeSituation {
///     charging: true,                                  // +10
///     outnumbering: Some(Outnumbering::new(2, 1)?),    // +20
///     aim: Aim::Called(Location::Head),                // −20
///     ..MeleeSituation::default()
/// };
/// assert_eq!(s.total(&rules)?, 10);
/// assert_eq!(s.itemize(&rules)?.len(), 3);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct MeleeSituation {
    /// Attacking a blind opponent, +20 (L37).
    pub opponent_blind: bool,
    /// Attacking a prone opponent, +20 (L38).
    pub opponent_prone: bool,
    /// Attacking an engaged opponent in the rear, +20 (L39).
    pub rear_of_engaged_opponent: bool,
    /// Charging into combat, +10 (L40).
    pub charging: bool,
    /// The sides of the fight, for "+10 per combatant on the outnumbering side" (L41, L66).
    pub outnumbering: Option<Outnumbering>,
    /// Sizes, for "±Difference in Size" (L42, L44); `None` when not in play.
    pub sizes: Option<Sizes>,
    /// Attacking while prone, −10 (L45).
    pub prone: bool,
    /// A called shot at a specific hit location, −20 (L46); the location is then chosen,
    /// not rolled (PC-A15).
    pub aim: Aim,
    /// Attacking through fog, mist, heavy rain and other weather effects, −20 (L47).
    pub weather: bool,
    /// Attacking while blind, −40 (L48).
    pub blind: bool,
    /// A Learned Aptitude without any points, −20 (L59; applied in melee under the ruling
    /// PC-A14, knob [`Rules::untrained_penalty_in_melee`]).
    pub untrained: bool,
    /// Jogging while attacking: the GM's penalty (L13 refers to the charts, which give none
    /// for melee; PC-A12). `None` when not jogging.
    pub jogging: Option<i32>,
    /// Any other modifier by the GM's judgement (L34).
    pub gm: i32,
}

impl MeleeSituation {
    /// Every modifier that applies, in the table's order, zero values left out.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when a Size, the jogging penalty or the GM's modifier exceeds
    /// [`crate::MAX_SCORE`] in magnitude.
    ///
    /// ```
    /// # use dice_shapers_percentile::{MeleeAction, MeleeSituation, ModifierSource, Rules, Sizes};
    /// let s = MeleeSituation { sizes: Some(Sizes { attacker: 10, target: 16 }), ..Default::default() };
    /// let items = s.itemize(&Rules::default())?;
    /// assert_eq!(items[0].source, ModifierSource::Melee(MeleeAction::LargerOpponent));
    /// assert_eq!(items[0].value, 6);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn itemize(&self, rules: &Rules) -> Result<Vec<Applied>, Error> {
        use MeleeAction as M;
        let mut out = Vec::new();
        let flag = |out: &mut Vec<Applied>, on: bool, a: MeleeAction| {
            if on {
                push(out, ModifierSource::Melee(a), a.row_flat());
            }
        };
        flag(&mut out, self.opponent_blind, M::BlindOpponent);
        flag(&mut out, self.opponent_prone, M::ProneOpponent);
        flag(
            &mut out,
            self.rear_of_engaged_opponent,
            M::EngagedOpponentInTheRear,
        );
        flag(&mut out, self.charging, M::Charging);
        if let Some(o) = self.outnumbering {
            push(
                &mut out,
                ModifierSource::Melee(M::Outnumbering),
                o.tn_bonus(rules),
            );
        }
        if let Some(s) = self.sizes {
            check_score("attacker size", s.attacker)?;
            check_score("target size", s.target)?;
            let d = s.difference();
            let row = if d >= 0 {
                M::LargerOpponent
            } else {
                M::SmallerOpponent
            };
            push(&mut out, ModifierSource::Melee(row), d);
        }
        flag(&mut out, self.prone, M::WhileProne);
        flag(
            &mut out,
            matches!(self.aim, Aim::Called(_)),
            M::SpecificHitLocation,
        );
        flag(&mut out, self.weather, M::Weather);
        flag(&mut out, self.blind, M::WhileBlind);
        if self.untrained && rules.untrained_penalty_in_melee {
            push(
                &mut out,
                ModifierSource::Ranged(RangedAction::UntrainedAptitude),
                RangedAction::UntrainedAptitude.row_flat(),
            );
        }
        if let Some(p) = self.jogging {
            push(
                &mut out,
                ModifierSource::MeleeJogging,
                check_score("jogging penalty", p)?,
            );
        }
        push(
            &mut out,
            ModifierSource::Gm,
            check_score("GM modifier", self.gm)?,
        );
        Ok(out)
    }

    /// The sum of [`MeleeSituation::itemize`]: the modifier for [`crate::Test::new`].
    ///
    /// # Errors
    /// As [`MeleeSituation::itemize`], and [`Error::OutOfRange`] when the sum exceeds
    /// [`crate::MAX_SCORE`] in magnitude.
    ///
    /// ```
    /// # use dice_shapers_percentile::{MeleeSituation, Rules};
    /// let s = MeleeSituation { opponent_prone: true, prone: true, ..Default::default() };
    /// assert_eq!(s.total(&Rules::default())?, 10);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn total(&self, rules: &Rules) -> Result<i32, Error> {
        sum(&self.itemize(rules)?)
    }
}

/// A ranged attack's situation: which rows of the ranged table apply (L49–64) and the GM's
/// own modifier (L34).
///
/// ```
/// use dice_shapers_percentile::{Cover, RangeBand, RangedSituation, Rules};
/// let rules = Rules::default();
/// let band = RangeBand::from_distance(40.0, 30.0)?.expect("within triple range");
/// let s = RangedSituation { aiming: true, cover: Some(Cover::Light), ..RangedSituation::new(band) };
/// assert_eq!(s.total(&rules)?, -20 + 10 - 10);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RangedSituation {
    /// The range band (L51, L53, L56, L60, L64), see [`RangeBand::from_distance`].
    pub range: RangeBand,
    /// Shooting at a Large target, +10 (L52); with a known Size see
    /// [`Rules::size_vs_large_target`] (PC-A7).
    pub large_target: bool,
    /// The target's Size, for "Creature Size −10" (L55); `None` when unknown.
    pub target_size: Option<i32>,
    /// Spend a round aiming, +10 (L54).
    pub aiming: bool,
    /// Shooting while you or your mount is jogging, −10 (L57).
    pub jogging: bool,
    /// Cover (L58, L62, L63).
    pub cover: Option<Cover>,
    /// A Learned Aptitude without any points, −20 (L59).
    pub untrained: bool,
    /// A called shot at a specific hit location, −20 (L61); the location is then chosen, not
    /// rolled (PC-A15).
    pub aim: Aim,
    /// Any other modifier by the GM's judgement (L34).
    pub gm: i32,
}

impl RangedSituation {
    /// A shot at `range` with nothing else in play.
    ///
    /// ```
    /// # use dice_shapers_percentile::{RangeBand, RangedSituation, Rules};
    /// let s = RangedSituation::new(RangeBand::PointBlank);
    /// assert_eq!(s.total(&Rules::default())?, 20);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn new(range: RangeBand) -> Self {
        RangedSituation {
            range,
            large_target: false,
            target_size: None,
            aiming: false,
            jogging: false,
            cover: None,
            untrained: false,
            aim: Aim::Rolled,
            gm: 0,
        }
    }

    /// Every modifier that applies, in the table's order, zero values left out.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when the target's Size or the GM's modifier exceeds
    /// [`crate::MAX_SCORE`] in magnitude.
    ///
    /// ```
    /// # use dice_shapers_percentile::{ModifierSource, RangeBand, RangedAction, RangedSituation, Rules, SizeVsLargeTarget};
    /// let s = RangedSituation { large_target: true, target_size: Some(25), ..RangedSituation::new(RangeBand::Normal) };
    /// let items = s.itemize(&Rules::default())?; // PC-A7: the Size row only
    /// assert_eq!(items.len(), 1);
    /// assert_eq!((items[0].source, items[0].value), (ModifierSource::Ranged(RangedAction::SizeModifier), 15));
    /// let both = Rules { size_vs_large_target: SizeVsLargeTarget::Both, ..Rules::default() };
    /// assert_eq!(s.total(&both)?, 25);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn itemize(&self, rules: &Rules) -> Result<Vec<Applied>, Error> {
        use RangedAction as R;
        let mut out = Vec::new();
        let flag = |out: &mut Vec<Applied>, on: bool, a: RangedAction| {
            if on {
                push(out, ModifierSource::Ranged(a), a.row_flat());
            }
        };
        let size = match self.target_size {
            Some(s) => Some(check_score("target size", s)?),
            None => None,
        };
        let large = self.large_target
            && (size.is_none() || rules.size_vs_large_target == SizeVsLargeTarget::Both);
        let band = self.range.action();
        flag(&mut out, band == R::PointBlank, R::PointBlank);
        flag(&mut out, large, R::LargeTarget);
        flag(&mut out, band == R::ShortRange, R::ShortRange);
        flag(&mut out, self.aiming, R::Aiming);
        if let Some(s) = size {
            let minus = match R::SizeModifier.row().modifier {
                TableModifier::CreatureSizeMinus(v) => v,
                _ => 0,
            };
            push(&mut out, ModifierSource::Ranged(R::SizeModifier), s - minus);
        }
        flag(&mut out, self.jogging, R::Jogging);
        flag(&mut out, self.cover == Some(Cover::Light), R::LightCover);
        flag(&mut out, self.untrained, R::UntrainedAptitude);
        flag(&mut out, band == R::LongRange, R::LongRange);
        flag(
            &mut out,
            matches!(self.aim, Aim::Called(_)),
            R::SpecificHitLocation,
        );
        flag(&mut out, self.cover == Some(Cover::Medium), R::MediumCover);
        flag(&mut out, self.cover == Some(Cover::Heavy), R::HeavyCover);
        flag(&mut out, band == R::ExtremeRange, R::ExtremeRange);
        push(
            &mut out,
            ModifierSource::Gm,
            check_score("GM modifier", self.gm)?,
        );
        Ok(out)
    }

    /// The sum of [`RangedSituation::itemize`]: the modifier for [`crate::Test::new`].
    ///
    /// # Errors
    /// As [`RangedSituation::itemize`], and [`Error::OutOfRange`] when the sum exceeds
    /// [`crate::MAX_SCORE`] in magnitude.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Cover, RangeBand, RangedSituation, Rules};
    /// let s = RangedSituation { cover: Some(Cover::Heavy), ..RangedSituation::new(RangeBand::Extreme) };
    /// assert_eq!(s.total(&Rules::default())?, -70);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn total(&self, rules: &Rules) -> Result<i32, Error> {
        sum(&self.itemize(rules)?)
    }
}
