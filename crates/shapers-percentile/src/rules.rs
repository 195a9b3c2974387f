//! The rulings: every place where the combat chapter can be read more than one way, as one
//! [`Rules`] value whose `Default` is the project's ruling (digest section 3.3, PC-A1…A15).

use core::fmt;

/// How a d100 test is read (PC-A1, L18, L34, L66).
///
/// ```
/// use dice_shapers_percentile::PctMode;
/// assert_eq!(PctMode::default(), PctMode::RollUnder50Base);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PctMode {
    /// The ruling, PC-A1 (a): `TN = 50 + attribute + aptitude + modifiers`, success when the
    /// d100 is at or under the TN (PC-A2), `margin = TN − roll`.
    #[default]
    RollUnder50Base,
    /// PC-A1 (c): roll-over, success when `d100 + attribute + aptitude + modifiers ≥ 50`,
    /// `margin = d100 + attribute + aptitude + modifiers − 50` (one point kinder than the
    /// ruling, margins shifted by one).
    RollOver50,
}

/// How the two rolls of an opposed test are compared (PC-A3, L20, L28).
///
/// With signed margins (success exactly when the margin is at least 0, PC-R7) both readings
/// pick the same winner for every pair of rolls: a success always has the higher margin
/// over a failure. The knob is kept so a table's reading is explicit; the crate's tests check
/// the two agree on every pair of faces.
///
/// ```
/// use dice_shapers_percentile::OpposedResolution;
/// assert_eq!(OpposedResolution::default(), OpposedResolution::HigherMargin);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum OpposedResolution {
    /// The ruling, PC-A3 (a): the higher margin wins; the loser loses by the difference of
    /// the margins.
    #[default]
    HigherMargin,
    /// PC-A3 (b): a success beats a failure; between two successes or two failures the
    /// higher margin wins.
    SuccessFirst,
}

/// Who wins an opposed test when both margins are equal (PC-A3: "ties are silent").
///
/// ```
/// use dice_shapers_percentile::OpposedTie;
/// assert_eq!(OpposedTie::default(), OpposedTie::Defender);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum OpposedTie {
    /// The ruling (PC-A3): ties go to the defender.
    #[default]
    Defender,
    /// Ties go to the attacker.
    Attacker,
}

/// What "loses by 30 points or more" measures for a counter-attack (PC-A4, L28).
///
/// ```
/// use dice_shapers_percentile::CounterAttackBasis;
/// assert_eq!(CounterAttackBasis::default(), CounterAttackBasis::MarginDifference);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CounterAttackBasis {
    /// The ruling, PC-A4 (a): the defender's margin minus the attacker's margin.
    #[default]
    MarginDifference,
    /// PC-A4 (b): the attacker's own failure ("a failure by 30 points", L28): a margin of −30
    /// or worse. The attacker must still lose the opposed test ("if the attacker loses").
    OwnFailure,
}

/// Which margin gives "+1 damage per 10 points of success" when the attack was defended
/// (PC-A5, L71, L28). Unopposed attacks always use the attacker's own margin.
///
/// ```
/// use dice_shapers_percentile::DamageMargin;
/// assert_eq!(DamageMargin::default(), DamageMargin::Net);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DamageMargin {
    /// The ruling (PC-A5): the net margin over the defender (opposed: attacker's margin minus
    /// defender's; passive defence: margin minus the defence).
    #[default]
    Net,
    /// The attacker's own margin, whatever the defence did.
    Own,
}

/// How many combatants "on the outnumbering side" count (PC-A6, L41, L66–68).
///
/// ```
/// use dice_shapers_percentile::OutnumberCount;
/// assert_eq!(OutnumberCount::default(), OutnumberCount::SideSize);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum OutnumberCount {
    /// The ruling (PC-A6): every combatant on the outnumbering side (4 against 2 gives +40
    /// TN and +4 damage; PC-E5, 4 against 1, gives +40 and +4).
    #[default]
    SideSize,
    /// Only the excess over the opposing side (4 against 2 gives +20 and +2; 4 against 1
    /// gives +30 and +3, which contradicts PC-E5).
    Excess,
}

/// Whether "Shooting at a Large target +10" and "Size modifier: Creature Size −10" both
/// apply (PC-A7, L52, L55).
///
/// ```
/// use dice_shapers_percentile::SizeVsLargeTarget;
/// assert_eq!(SizeVsLargeTarget::default(), SizeVsLargeTarget::PreferSize);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SizeVsLargeTarget {
    /// The ruling (PC-A7): mutually exclusive; the Size formula when the target's Size is
    /// known, otherwise +10 for a large target.
    #[default]
    PreferSize,
    /// Both rows apply together.
    Both,
}

/// The rulings of the combat chapter, one field per ambiguity; `Default` is the project's
/// ruling everywhere (digest section 3.3, the lines marked **Suggested**).
///
/// Mechanics take `&Rules` when built and keep what they need.
///
/// ```
/// use dice_shapers_percentile::{CounterAttackBasis, Rules};
/// let house = Rules {
///     lethal: true,
///     counter_attack: CounterAttackBasis::OwnFailure,
///     ..Rules::default()
/// };
/// assert!(house.lethal);
/// assert!(!Rules::default().lethal);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct Rules {
    /// How a test is read: TN composition and roll direction (PC-A1, L18, L34, L66).
    /// Default [`PctMode::RollUnder50Base`]; a roll equal to the TN succeeds with margin 0
    /// (PC-A2).
    pub mode: PctMode,
    /// How an opposed test is compared (PC-A3, L20). Default [`OpposedResolution::HigherMargin`].
    pub opposed: OpposedResolution,
    /// Who wins a tie in an opposed test (PC-A3). Default [`OpposedTie::Defender`].
    pub opposed_tie: OpposedTie,
    /// What "loses by 30 points or more" measures (PC-A4, L28). Default
    /// [`CounterAttackBasis::MarginDifference`].
    pub counter_attack: CounterAttackBasis,
    /// The margin behind "+1 per 10 points of success" on a defended attack (PC-A5, L71).
    /// Default [`DamageMargin::Net`].
    pub damage_margin: DamageMargin,
    /// Who counts for outnumbering (PC-A6, L41, L66–68). Default [`OutnumberCount::SideSize`].
    pub outnumber: OutnumberCount,
    /// Large target and Size modifier together or not (PC-A7, L52, L55). Default
    /// [`SizeVsLargeTarget::PreferSize`].
    pub size_vs_large_target: SizeVsLargeTarget,
    /// The optional Lethal Damage rule: ignore the Fortitude Attribute when calculating
    /// damage taken (PC-R16, L74–75). Default `false` (the rule is optional).
    pub lethal: bool,
    /// Passive defence: whether a net of exactly 0 is a success (PC-A11, L25–26). Default
    /// `true`.
    pub passive_net_zero_succeeds: bool,
    /// Passive defence: whether a melee attack that loses by 30 or more against a passive
    /// defence opens a counter-attack (PC-A11; L27–28 names only the "opposed Melee test").
    /// Default `false`.
    pub passive_counter_attack: bool,
    /// Whether damage below 0 counts as 0 (PC-A10, L73: silent). Default `true`.
    pub clamp_damage_at_zero: bool,
    /// Whether "Attempting to use a Learned Aptitude without any points in the Aptitude −20"
    /// (listed only in the ranged chart, L59) applies to melee attacks too (PC-A14). Default
    /// `true`.
    pub untrained_penalty_in_melee: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            mode: PctMode::RollUnder50Base,
            opposed: OpposedResolution::HigherMargin,
            opposed_tie: OpposedTie::Defender,
            counter_attack: CounterAttackBasis::MarginDifference,
            damage_margin: DamageMargin::Net,
            outnumber: OutnumberCount::SideSize,
            size_vs_large_target: SizeVsLargeTarget::PreferSize,
            lethal: false,
            passive_net_zero_succeeds: true,
            passive_counter_attack: false,
            clamp_damage_at_zero: true,
            untrained_penalty_in_melee: true,
        }
    }
}

impl fmt::Display for PctMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            PctMode::RollUnder50Base => "roll under 50 + attribute + aptitude + modifiers",
            PctMode::RollOver50 => "roll + attribute + aptitude + modifiers over 50",
        })
    }
}
