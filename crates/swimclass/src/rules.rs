//! The rulings (digest section 2.3, SW-A…) as one [`Rules`] value.

use std::fmt;

pub use dice_core::BlockRule;

use crate::skill::School;

/// Which dice an (N+M) implement's +M goes to (L51 against L240 and L270–L280; SW-A3).
///
/// L51 gives "+M to up to N dice": the player chooses. The default is the player's best
/// choice for the roll's purpose; the Sample Rounds' procedure ("adds 2 to the highest die",
/// L270, L272) is kept as [`BonusAssignment::Highest`], a plausible reading of the examples
/// (SW-A3 reading c).
///
/// ```
/// use dice_swimclass::BonusAssignment;
/// assert_eq!(BonusAssignment::default(), BonusAssignment::Best);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BonusAssignment {
    /// The ruling: the player's best placement for the roll's purpose (L51 "+M to up to N
    /// dice", the player's choice), found by trying every distinct placement:
    /// - a task roll (and an unopposed roll): the most successes, then (on a tie) the
    ///   placement that lets the skill advance;
    /// - the acting side of an opposed roll or attack places its bonus after its own roll and
    ///   before the opposition's (the order of the Sample Rounds, L270–L272): the highest
    ///   chance that the hits through reach what the roll needs against the opposition's
    ///   law, then the most hits through on average, then the best chance to advance;
    /// - the opposing side places its bonus knowing the acting dice: the fewest hits
    ///   through (die-against-die blocking), then its own advancement.
    ///
    /// Each die takes at most one bonus; a bonus goes to as many dice as it may (+M never
    /// hurts). A penalty (M < 0, not in the rulebook) must be taken and goes where it costs
    /// least. Ties keep the [`BonusAssignment::Highest`] placement. Beyond
    /// [`crate::dice::MAX_PLACEMENTS`] distinct placements for one roll, or an opposition too
    /// large to enumerate, the greedy [`BonusAssignment::Optimal`] placement is used instead.
    #[default]
    Best,
    /// The Sample Rounds' procedure: the highest natural dice take the bonus ("adds 2 to the
    /// highest die", L270). With several (N+M) bonuses the largest +M goes first; each die
    /// takes at most one. The text's example is legal under L51 but often a poor choice: two
    /// dice with a (1+2) needing two successes at difficulty 5 succeed 4/36 of the time this
    /// way, 12/36 with the bonus placed by the player.
    Highest,
    /// A quick greedy placement aiming at the difficulty only: the +M goes to the dice it
    /// lifts to the difficulty (largest +M to the die needing most), and what is left to the
    /// highest dice. It ignores the opposition and advancement; see
    /// [`BonusAssignment::Best`] and [`crate::best_assignment_against`].
    Optimal,
}

/// How an implement is valued (L56–L63; SW-A6).
///
/// ```
/// use dice_swimclass::{Bonus, ValuationRule};
/// assert_eq!(ValuationRule::SumOverDice.value(Bonus::Plus { dice: 3, modifier: 2 }), 6);
/// assert_eq!(ValuationRule::PerDie.value(Bonus::Plus { dice: 3, modifier: 2 }), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ValuationRule {
    /// The ruling (reading A): the sum over the dice affected, N·M for (N+M), 6·N·M for
    /// (N*M).
    #[default]
    SumOverDice,
    /// Reading B: M for (N+M), 6·M for (N*M).
    PerDie,
}

/// What an (N*M) implement's "N dice counted as rolling M" does to the pool (L53; SW-A7).
/// Either way the constant dice are never criticals and never count for advancement.
///
/// ```
/// assert_eq!(dice_swimclass::ConstantDice::default(), dice_swimclass::ConstantDice::ReplacePoolDice);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ConstantDice {
    /// The ruling (reading a): N of the skill's dice are not rolled but count as M.
    #[default]
    ReplacePoolDice,
    /// Reading (b): N extra dice that count as M.
    ExtraDice,
}

/// What straining leaves the skill at (L89 "reduced to a rank"; SW-A9).
///
/// ```
/// use dice_swimclass::StrainPenalty;
/// assert_eq!(StrainPenalty::MinusOne.after(4), 3);
/// assert_eq!(StrainPenalty::ToOne.after(4), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum StrainPenalty {
    /// The ruling (a): reduced by one rank.
    #[default]
    MinusOne,
    /// Reading (b): reduced to rank 1.
    ToOne,
}

impl StrainPenalty {
    /// The rank after straining a skill of rank `rank`.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::StrainPenalty::MinusOne.after(2), 1);
    /// ```
    pub const fn after(self, rank: u32) -> u32 {
        match self {
            StrainPenalty::MinusOne => rank.saturating_sub(1),
            StrainPenalty::ToOne => 1,
        }
    }
}

/// How a character below 0 HP stabilizes (L41; SW-A13).
///
/// ```
/// assert_eq!(dice_swimclass::StabilizeRule::default(), dice_swimclass::StabilizeRule::DifficultyIsDamage);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum StabilizeRule {
    /// The ruling (a): a Defense roll at difficulty = damage beyond 0; one success
    /// stabilizes.
    #[default]
    DifficultyIsDamage,
    /// Reading (b): successes needed = damage beyond 0, at the given difficulty (the text
    /// gives none).
    SuccessesAreDamage {
        /// The per-die difficulty.
        difficulty: u32,
    },
}

/// What Blaze's "does 1 hit unless opposed" means (L193; SW-A15).
///
/// ```
/// assert_eq!(dice_swimclass::BlazeHits::default(), dice_swimclass::BlazeHits::One);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BlazeHits {
    /// The ruling (a): exactly one hit when any die gets through.
    #[default]
    One,
    /// Reading (b): one hit per die that gets through, like any attack.
    PerDie,
}

/// How much ammunition a ranged roll uses (L109; SW-A23).
///
/// ```
/// use dice_swimclass::Ammunition;
/// assert_eq!(Ammunition::PerRoll.used(3), 1);
/// assert_eq!(Ammunition::PerDie.used(3), 3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Ammunition {
    /// The ruling: one arrow per roll.
    #[default]
    PerRoll,
    /// One per die rolled.
    PerDie,
}

impl Ammunition {
    /// The ammunition used by a roll of `dice` dice.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Ammunition::default().used(4), 1);
    /// ```
    pub const fn used(self, dice: u32) -> u32 {
        match self {
            Ammunition::PerRoll => 1,
            Ammunition::PerDie => dice,
        }
    }
}

/// How crafting's fractional requirements are rounded (L157; SW-A8).
///
/// ```
/// use dice_swimclass::CraftRounding;
/// assert_eq!(CraftRounding::Up.round(1.26), 2);
/// assert_eq!(CraftRounding::Nearest.round(1.26), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CraftRounding {
    /// The ruling: round up.
    #[default]
    Up,
    /// Round to the nearest (halves up).
    Nearest,
    /// Round down.
    Down,
}

impl CraftRounding {
    /// Rounds a non-negative number (a tiny tolerance absorbs floating-point noise, so
    /// `cbrt(8)` is 2).
    ///
    /// ```
    /// assert_eq!(dice_swimclass::CraftRounding::Up.round(2.0000000000000004), 2);
    /// ```
    pub fn round(self, x: f64) -> u32 {
        let x = x.max(0.0);
        let r = x.round();
        let x = if (x - r).abs() < 1e-9 { r } else { x };
        match self {
            CraftRounding::Up => x.ceil() as u32,
            CraftRounding::Nearest => x.round() as u32,
            CraftRounding::Down => x.floor() as u32,
        }
    }
}

/// The magic wheel (L185–L187): the picture "at right" is not in the text, so the order of
/// the schools around it is configuration (SW-A18).
///
/// Adjacent schools have synergy 2 (L185). A magic attack may be opposed by magic of the
/// same or the opposing type (L187): opposite on the wheel when it is given; without it only
/// the pair the Sample Rounds show (Earth opposing Wind, L286–L288).
///
/// ```
/// use dice_swimclass::{MagicWheel, School};
/// assert!(MagicWheel::default().opposes(School::Earth, School::Wind));
/// assert!(!MagicWheel::default().opposes(School::Fire, School::Water));
/// let w = MagicWheel::new([School::Fire, School::Wind, School::Life, School::Water, School::Earth, School::Death]);
/// assert!(w.opposes(School::Fire, School::Water));
/// assert!(w.adjacent(School::Fire, School::Death));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MagicWheel {
    /// The schools in order around the wheel, or `None` (the default: unknown).
    pub order: Option<[School; 6]>,
}

impl MagicWheel {
    /// A wheel with the schools in this order.
    ///
    /// ```
    /// use dice_swimclass::{MagicWheel, School};
    /// assert!(MagicWheel::new(School::ALL).order.is_some());
    /// ```
    pub const fn new(order: [School; 6]) -> MagicWheel {
        MagicWheel { order: Some(order) }
    }

    fn position(&self, s: School) -> Option<usize> {
        self.order?.iter().position(|&x| x == s)
    }

    /// Whether two schools sit next to each other (synergy 2, L185). Unknown without a
    /// wheel: `false`.
    ///
    /// ```
    /// use dice_swimclass::{MagicWheel, School};
    /// assert!(MagicWheel::new(School::ALL).adjacent(School::Fire, School::Wind));
    /// ```
    pub fn adjacent(&self, a: School, b: School) -> bool {
        match (self.position(a), self.position(b)) {
            (Some(i), Some(j)) => (i + 6 - j) % 6 == 1 || (j + 6 - i) % 6 == 1,
            _ => false,
        }
    }

    /// Whether magic of school `b` may oppose an attack of school `a` (L187): the same
    /// school, the opposite one on the wheel, or without a wheel Earth–Wind (SW-E3).
    ///
    /// ```
    /// use dice_swimclass::{MagicWheel, School};
    /// assert!(MagicWheel::default().opposes(School::Fire, School::Fire));
    /// ```
    pub fn opposes(&self, a: School, b: School) -> bool {
        if a == b {
            return true;
        }
        match (self.position(a), self.position(b)) {
            (Some(i), Some(j)) => (i + 6 - j) % 6 == 3,
            _ => matches!(
                (a, b),
                (School::Earth, School::Wind) | (School::Wind, School::Earth)
            ),
        }
    }
}

/// The rulings of digest section 2.3 that a table might play differently. `Default` is the
/// project's rulings.
///
/// Rulings with a knob here:
/// - [`Rules::block_rule`]: SW-A2 (L25, L111 against L37).
/// - [`Rules::assignment`]: SW-A3 (L51 against L240, L270–L280).
/// - [`Rules::advancement_uses_natural`]: SW-A4 (L27).
/// - [`Rules::valuation`]: SW-A6 (L56–L61).
/// - [`Rules::constant_dice`]: SW-A7 (L53).
/// - [`Rules::craft_rounding`]: SW-A8 (L157).
/// - [`Rules::strain`]: SW-A9 (L89).
/// - [`Rules::cap_aid_and_windup`], [`Rules::reserve_uses_combine_penalty`],
///   [`Rules::refuse_over_cap`]: SW-A11 (L43, L71, L81, L85).
/// - [`Rules::stabilize`]: SW-A13 (L41, L225).
/// - [`Rules::recovery_capped`]: SW-A14 (L41).
/// - [`Rules::blaze`]: SW-A15 (L193).
/// - [`Rules::wheel`]: SW-A18 (L185–L187).
/// - [`Rules::synergy_optional`]: SW-A20 (L31).
/// - [`Rules::ammunition`]: SW-A23 (L109).
/// - [`Rules::max_rank`]: SW-A24 (the sheet's ten pips).
/// - [`Rules::advance_mid_fight`]: when an advance earned in a fight takes effect (L27,
///   L294–L298).
///
/// Rulings followed without a knob: SW-A1 (a die succeeds on value ≥ difficulty), SW-A5
/// (a roll "succeeded" when this roll's unblocked successes reach what it needs: the whole
/// progress for an all-or-nothing task, one for a round of a longer task), SW-A10 (push ×N:
/// difficulty and effect ×N, opposing dice doubled in number), SW-A12 (initiative compares
/// the highest two dice, a missing die below any die, further ties re-roll), SW-A16 (Life
/// heals one damage per cast), SW-A17 (missing difficulties are caller inputs), SW-A19 (the
/// catalogue's parses), SW-A21 (costs keep their unit), SW-A22 (paired traits add ±X to
/// every die), SW-A26 (difficulty 1 is automatic only when no die can fail), SW-A27
/// (starting picks of default-0 skills start at 2).
///
/// ```
/// use dice_swimclass::{BlockRule, Rules};
/// let strict = Rules { block_rule: BlockRule::Strict, ..Rules::default() };
/// assert_ne!(strict, Rules::default());
/// assert!(Rules::default().advancement_uses_natural);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// SW-A2: when a die blocks an attacking die. Default [`BlockRule::AtLeast`] (≥; SW-E3
    /// only works so).
    pub block_rule: BlockRule,
    /// SW-A3: which dice take an (N+M) bonus. Default [`BonusAssignment::Best`] (the
    /// player's choice, L51).
    pub assignment: BonusAssignment,
    /// SW-A4: whether "all dice roll ≥ 4" reads the natural faces. Default `true`.
    pub advancement_uses_natural: bool,
    /// SW-A6: the implement valuation. Default [`ValuationRule::SumOverDice`].
    pub valuation: ValuationRule,
    /// SW-A7: what (N*M) does to the pool. Default [`ConstantDice::ReplacePoolDice`].
    pub constant_dice: ConstantDice,
    /// SW-A8: rounding of crafting requirements. Default [`CraftRounding::Up`].
    pub craft_rounding: CraftRounding,
    /// SW-A9: the rank left after straining. Default [`StrainPenalty::MinusOne`].
    pub strain: StrainPenalty,
    /// SW-A11: whether the out-of-combat cap (twice the base skill, L71) also binds aid
    /// another and windup. Default `true`.
    pub cap_aid_and_windup: bool,
    /// SW-A11: whether a skill held in reserve adds its rank − 1 to the defense (as in
    /// combining) rather than its rank. Default `true`.
    pub reserve_uses_combine_penalty: bool,
    /// SW-A11 / SW-E7: over the out-of-combat cap, refuse the combination instead of capping
    /// the dice. Default `false` (cap).
    pub refuse_over_cap: bool,
    /// SW-A13: how to stabilize below 0 HP. Default [`StabilizeRule::DifficultyIsDamage`].
    pub stabilize: StabilizeRule,
    /// SW-A14: whether recovery stops at max HP. Default `true`.
    pub recovery_capped: bool,
    /// SW-A15: Blaze's hits. Default [`BlazeHits::One`].
    pub blaze: BlazeHits,
    /// SW-A18: the magic wheel. Default: unknown (no magic synergies; Earth opposes Wind).
    pub wheel: MagicWheel,
    /// SW-A20: whether synergy raises are left to the player ("may automatically
    /// improve"). Default `false`: mandatory, to a fixed point.
    pub synergy_optional: bool,
    /// SW-A23: ammunition per ranged roll. Default [`Ammunition::PerRoll`].
    pub ammunition: Ammunition,
    /// SW-A24: a rank ceiling (the sheet has ten pips). Default `None`: no ceiling.
    pub max_rank: Option<u32>,
    /// Whether a skill advances in the middle of a fight, the moment a roll earns it (L27),
    /// so that the rest of the fight rolls the new rank, as the Sample Rounds tell it
    /// (Aerolis "gains a rank in his skill", L294, and his next shot rolls 4d6, L298).
    /// Default `false`: a fight is played at the ranks it began with. With `true` and no
    /// [`Rules::max_rank`] a fight's ranks have no ceiling, so its exact law is refused
    /// (the states are endless) and its odds are estimated by playing it; see
    /// [`crate::encounter`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub advance_mid_fight: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            block_rule: BlockRule::AtLeast,
            assignment: BonusAssignment::Best,
            advancement_uses_natural: true,
            valuation: ValuationRule::SumOverDice,
            constant_dice: ConstantDice::ReplacePoolDice,
            craft_rounding: CraftRounding::Up,
            strain: StrainPenalty::MinusOne,
            cap_aid_and_windup: true,
            reserve_uses_combine_penalty: true,
            refuse_over_cap: false,
            stabilize: StabilizeRule::DifficultyIsDamage,
            recovery_capped: true,
            blaze: BlazeHits::One,
            wheel: MagicWheel::default(),
            synergy_optional: false,
            ammunition: Ammunition::PerRoll,
            max_rank: None,
            advance_mid_fight: false,
        }
    }
}

impl fmt::Display for Rules {
    /// A one-line summary of the main knobs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "blocking {}; bonus to the {} dice; advancement on {} faces",
            match self.block_rule {
                BlockRule::AtLeast => "≥",
                BlockRule::Strict => ">",
            },
            match self.assignment {
                BonusAssignment::Best => "player's best",
                BonusAssignment::Highest => "highest",
                BonusAssignment::Optimal => "greedy",
            },
            if self.advancement_uses_natural {
                "natural"
            } else {
                "modified"
            }
        )
    }
}
