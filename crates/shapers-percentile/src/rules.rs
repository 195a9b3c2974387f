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

/// How the two rolls of an opposed test are compared (PC-A3, L18, L20, L26, L28).
///
/// L20 only says the defender makes a roll ("decide which Attribute + Aptitude is relevant
/// for the defender and make a roll for them"); how the two rolls are compared is silent.
/// The two readings part only when **both** tests fail (a success always has the higher
/// margin over a failure):
///
/// - [`OpposedResolution::SuccessFirst`], the default: the attack must succeed to hit. This
///   keeps L18 ("the base difficulty of any attack … is Average (TN 50)") meaningful in an
///   opposed test, and matches L26, where the optional passive defence — the stand-in for
///   this very roll when there are "too many dice rolls" (L24) — only ever makes the
///   attacker's result worse: a success can become a failure, a failure only "an even worse
///   failure". A defender's roll therefore never raises the chance to hit above that of the
///   same attack unopposed.
/// - [`OpposedResolution::HigherMargin`]: the higher margin wins even when both fail, so a
///   failed attack hits a defender who failed worse: two TN 10 fighters hit each other with
///   probability P(attacker's roll < defender's roll) = (1 − 1/100) / 2 = 49.5 %, against
///   10 % unopposed (9.45 % under success-first: (10·90 + 10·9/2) / 100²). This was the digest's suggested ruling
///   (PC-A3 (a)); it is kept as a knob, but the text does not support a failed attack
///   hitting, so it is not the default.
///
/// The net margin (attacker's margin minus defender's) is the same under both readings, and
/// so are counter-attacks (L28), which need the attacker to lose by 30 or more.
///
/// Monotonicity. Under either reading, P(hit) never falls when the attacker's TN rises and
/// never rises when the defender's TN rises, and face by face a lower attacker roll or a
/// higher defender roll never turns a hit into a miss. Only under `SuccessFirst` is P(hit)
/// at most the attack's own P(success) for every defender (a rolling defender never helps the
/// attacker hit). The damage bonus of a hit is another matter: under the ruling
/// [`DamageMargin::Net`] (PC-A5) it comes from the net margin, so a defender who fails adds
/// their failure to the attacker's points of success; [`DamageMargin::Own`] avoids that.
///
/// ```
/// use dice_shapers_percentile::{OpposedResolution, OpposedTest, Rules, Side, Test};
/// assert_eq!(OpposedResolution::default(), OpposedResolution::SuccessFirst);
/// // Both fail: the attacker by 5, the defender by 20.
/// let rules = Rules::default();
/// let t = Test::new(10, 5, 0, &rules)?; // TN 65
/// assert_eq!(OpposedTest::new(t, t, &rules).resolve(70, 85)?.winner, Side::Defender);
/// let old = Rules { opposed: OpposedResolution::HigherMargin, ..rules };
/// assert_eq!(OpposedTest::new(t, t, &old).resolve(70, 85)?.winner, Side::Attacker);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum OpposedResolution {
    /// PC-A3 (a): the higher margin wins whatever the two tests did (ties: [`OpposedTie`]);
    /// the loser loses by the difference of the margins. A failed attack can hit.
    HigherMargin,
    /// The default (PC-A3 (b), chosen against the digest's (a), see above): a failed attack
    /// never wins; a successful attack beats a failed defence; between two successes the
    /// higher margin wins (ties: [`OpposedTie`]). The loser loses by the difference of the
    /// margins.
    #[default]
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
    /// or worse. The defender must still have outscored the attacker ("if the attacker loses
    /// by …": a lower margin, or an equal one with ties to the defender); a defender who
    /// failed worse than the attacker opens no counter-attack.
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
/// ruling everywhere (digest section 3.3, the lines marked **Suggested**), except
/// [`Rules::opposed`], where the digest's suggestion lets a failed attack hit, which the text
/// does not support (see [`OpposedResolution`]).
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
    /// How an opposed test is compared (PC-A3, L18, L20, L26). Default
    /// [`OpposedResolution::SuccessFirst`]: a failed attack never hits.
    pub opposed: OpposedResolution,
    /// Who wins a tie between two equal margins in an opposed test (PC-A3). Default
    /// [`OpposedTie::Defender`]. Under [`OpposedResolution::SuccessFirst`] two equal
    /// failures always go to the defender (the attack failed).
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
            opposed: OpposedResolution::SuccessFirst,
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
