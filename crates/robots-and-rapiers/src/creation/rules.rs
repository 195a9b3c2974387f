//! The rulings of the digest (`rules/robots-and-rapiers.md` §8) that concern creation and
//! advancement, as one value whose [`Default`] is the rulings.

use core::fmt;

/// Which Personality Traits count toward the price of a new trait level (A31: L1309 says
/// "1 Inspiration per number of existing Traits" without saying which traits).
///
/// ```
/// use dice_robots_and_rapiers::creation::{CreationRules, TraitCount};
/// assert_eq!(CreationRules::default().trait_count, TraitCount::SelfAwareness);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TraitCount {
    /// The ruling: only Self Awareness-related traits, the ones bought with Inspiration.
    #[default]
    SelfAwareness,
    /// Every Personality Trait, Role-related ones included.
    All,
}

impl fmt::Display for TraitCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TraitCount::SelfAwareness => "Self Awareness-related traits",
            TraitCount::All => "all traits",
        })
    }
}

/// How raising a known Program is priced (A29: the bullet of L1278 and the procedure of
/// L1282-1287 disagree).
///
/// ```
/// use dice_robots_and_rapiers::creation::{CreationRules, ProgramIncreaseCost};
/// assert_eq!(CreationRules::default().program_increase_cost, ProgramIncreaseCost::MemorySave);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ProgramIncreaseCost {
    /// The ruling (L1282-1287): spend 2, make a Memory Save on 3d10 at TN Memory − the
    /// desired level; at least one success qualifies; each failed die costs 2 more. A Total
    /// Failure does not qualify and the 2 are lost.
    #[default]
    MemorySave,
    /// L1278's bullet: "A number of points equal to the desired level", no save.
    DesiredLevel,
}

impl fmt::Display for ProgramIncreaseCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProgramIncreaseCost::MemorySave => "2 plus 2 per failed Memory Save die",
            ProgramIncreaseCost::DesiredLevel => "the desired level",
        })
    }
}

/// The knobs of character creation and advancement. `Default` is the digest's rulings;
/// every field names the lines and the ruling it settles.
///
/// ```
/// use dice_robots_and_rapiers::creation::CreationRules;
/// let rules = CreationRules::default();
/// assert_eq!(rules.self_awareness_base_cost, 2); // L1316
/// assert_eq!(rules.learn_program_cost, 4); // A28
/// assert_eq!(rules.dramatic_control, [1, 3, 5]); // A27b
/// // The slow dial of L1338: base 3, and other costs doubled.
/// let slow = CreationRules { self_awareness_base_cost: 3, double_other_costs: true, ..rules };
/// assert_eq!(slow.inspiration(4), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct CreationRules {
    /// The least level a perception sensor may be bought at. A6: L436 says 0-4, L128 and
    /// L656 "a minimum of 1 in each"; the ruling allows 0 (blind, deaf or numb), so 0.
    pub sensor_minimum: u8,
    /// Whether the Spaces used must also reach the bottom of the Size's band (6·Size + 1).
    /// A32: L567 gives only a maximum, L561 a band; the ruling enforces the maximum and
    /// makes the minimum optional, so `false`.
    pub spaces_band_minimum: bool,
    /// Whether a chosen Vocalization must lie in the range the Body Type's column can roll.
    /// L503 says the choice "should" stay in range "unless they intend to make the exception
    /// be a key facet", so by default it is advice, not a rule: `false`.
    pub vocalization_range: bool,
    /// The highest level a Role Program may start at (L461, L767: 5).
    pub starting_program_max: u8,
    /// Inspiration per level of Self Awareness, before doubling at or under the Anthropoid
    /// Class (L1316: 2; the rate dial of L1334-1340 offers 1 or 3).
    pub self_awareness_base_cost: u32,
    /// "double all of the Inspiration Costs for other purposes" when the dial is slowed
    /// (L1340). Default `false`.
    pub double_other_costs: bool,
    /// Inspiration to learn a new Program. A28: L1294 says both "always 4" and "first spend
    /// 6"; the ruling is 4 (the L1296 bullet).
    pub learn_program_cost: u32,
    /// Whether learning a Program needs an Inspired Roll on it first. A30: yes (L1214,
    /// L1446), with the GM able to waive it.
    pub learning_needs_inspired_roll: bool,
    /// How raising a Program is priced (A29).
    pub program_increase_cost: ProgramIncreaseCost,
    /// Which traits count toward a trait level's price (A31).
    pub trait_count: TraitCount,
    /// Dramatic Control costs of a Minor, Moderate and Major effect. A27b: 1 / 3 / 5
    /// (L1238, L1244, L1252), not the 2 / 4 of the example at L2208-2210.
    pub dramatic_control: [u32; 3],
}

impl Default for CreationRules {
    fn default() -> Self {
        CreationRules {
            sensor_minimum: 0,
            spaces_band_minimum: false,
            vocalization_range: false,
            starting_program_max: 5,
            self_awareness_base_cost: 2,
            double_other_costs: false,
            learn_program_cost: 4,
            learning_needs_inspired_roll: true,
            program_increase_cost: ProgramIncreaseCost::MemorySave,
            trait_count: TraitCount::SelfAwareness,
            dramatic_control: [1, 3, 5],
        }
    }
}

impl CreationRules {
    /// An Inspiration cost "for other purposes" (everything but Self Awareness), doubled when
    /// [`CreationRules::double_other_costs`] is set (L1340).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::CreationRules;
    /// assert_eq!(CreationRules::default().inspiration(3), 3);
    /// ```
    pub const fn inspiration(&self, cost: u32) -> u32 {
        if self.double_other_costs {
            cost.saturating_mul(2)
        } else {
            cost
        }
    }
}

impl fmt::Display for CreationRules {
    /// A one-line summary of the knobs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sensors {}-4, Spaces {}, starting programs max {}, Self Awareness {} per level, \
             learn {}, program increase {}, trait price by {}, Dramatic Control {}/{}/{}",
            self.sensor_minimum,
            if self.spaces_band_minimum {
                "within the Size's band"
            } else {
                "up to the Size's maximum"
            },
            self.starting_program_max,
            self.self_awareness_base_cost,
            self.learn_program_cost,
            self.program_increase_cost,
            self.trait_count,
            self.dramatic_control[0],
            self.dramatic_control[1],
            self.dramatic_control[2],
        )
    }
}
