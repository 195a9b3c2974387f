//! Combat (SB-R13–R17, SB-R20, L318–370, L428–430): initiative by Fitness with a tie roll
//! kept for the fight, two actions per turn and borrowing, undefended, defended and sneak
//! attacks, and armor.

use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollOffError, Sum};

use crate::challenge::ChallengeOutcome;
use crate::character::Size;
use crate::error::Error;
use crate::fluke::fluke_outcome;
use crate::injury::Condition;
use crate::level::Level;
use crate::rules::{Rules, UndefendedHit};
use crate::score::{Contestant, ScoreRoll, Scorer, fold_tail};

// ------------------------------------------------------------------------------ armor

/// Armor and the wearer's habit of it (L428–430): "it reduces the wearer's attack and
/// defense bonus by 1 point if they're used to wearing it, and 3 points if they're not." A
/// target wearing armor also takes less damage (L403–407, [`Damage`](crate::Damage)).
///
/// ```
/// use dice_shapers_and_bots::Armor;
/// assert_eq!(Armor::Accustomed.penalty(), -1);
/// assert_eq!(Armor::Unaccustomed.penalty(), -3);
/// assert!(!Armor::Unarmored.is_worn());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Armor {
    /// No armor.
    #[default]
    Unarmored,
    /// Armor the wearer is used to: −1 to attack and defense.
    Accustomed,
    /// Armor the wearer is not used to: −3 to attack and defense.
    Unaccustomed,
}

impl Armor {
    /// The change to the wearer's attack and defense bonus (nothing says it touches other
    /// rolls, SB-R20).
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Armor::Unarmored.penalty(), 0);
    /// ```
    pub const fn penalty(self) -> i32 {
        match self {
            Armor::Unarmored => 0,
            Armor::Accustomed => -1,
            Armor::Unaccustomed => -3,
        }
    }

    /// Whether armor is worn (the damage table's "Armored" row, L412).
    ///
    /// ```
    /// assert!(dice_shapers_and_bots::Armor::Unaccustomed.is_worn());
    /// ```
    pub const fn is_worn(self) -> bool {
        !matches!(self, Armor::Unarmored)
    }
}

impl fmt::Display for Armor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Armor::Unarmored => "no armor",
            Armor::Accustomed => "armor (used to it)",
            Armor::Unaccustomed => "armor (not used to it)",
        })
    }
}

/// The Director's surprise bonus on a sneak attack (L370: "an extra bonus of +1 or +2";
/// SB-A18: the Director's choice, an input).
///
/// ```
/// use dice_shapers_and_bots::Surprise;
/// assert_eq!(Surprise::from_bonus(2)?, Surprise::PlusTwo);
/// assert_eq!(Surprise::None.bonus(), 0);
/// assert!(Surprise::from_bonus(3).is_err());
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Surprise {
    /// No bonus ("may").
    #[default]
    None,
    /// +1.
    PlusOne,
    /// +2.
    PlusTwo,
}

impl Surprise {
    /// The bonus: 0, 1 or 2.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Surprise::PlusOne.bonus(), 1);
    /// ```
    pub const fn bonus(self) -> i32 {
        self as i32
    }

    /// From the bonus the Director gives.
    ///
    /// # Errors
    /// [`Error::Surprise`] for anything but 0, +1 or +2.
    ///
    /// ```
    /// use dice_shapers_and_bots::Surprise;
    /// assert_eq!(Surprise::from_bonus(0)?, Surprise::None);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn from_bonus(bonus: i32) -> Result<Self, Error> {
        match bonus {
            0 => Ok(Surprise::None),
            1 => Ok(Surprise::PlusOne),
            2 => Ok(Surprise::PlusTwo),
            _ => Err(Error::Surprise { bonus }),
        }
    }
}

impl fmt::Display for Surprise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "surprise {:+}", self.bonus())
    }
}

// ------------------------------------------------------------------------------ attacks

/// The result of an attack, worst first. Only an undefended or sneak attack under the
/// challenge reading of SB-A1 can hit with consequences.
///
/// ```
/// use dice_shapers_and_bots::{AttackOutcome, ChallengeOutcome};
/// assert_eq!(AttackOutcome::from(ChallengeOutcome::SuccessWithConsequences),
///            AttackOutcome::HitWithConsequences);
/// assert!(AttackOutcome::HitWithConsequences.is_hit());
/// assert_eq!(AttackOutcome::Miss.to_string(), "miss");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AttackOutcome {
    /// The attack fails.
    Miss,
    /// The attack succeeds, with consequences (the attacker scored exactly the Size target).
    HitWithConsequences,
    /// The attack succeeds.
    Hit,
}

impl AttackOutcome {
    /// Whether the attack succeeded (roll damage).
    ///
    /// ```
    /// assert!(!dice_shapers_and_bots::AttackOutcome::Miss.is_hit());
    /// ```
    pub const fn is_hit(self) -> bool {
        !matches!(self, AttackOutcome::Miss)
    }
}

impl From<ChallengeOutcome> for AttackOutcome {
    fn from(c: ChallengeOutcome) -> Self {
        match c {
            ChallengeOutcome::Failure => AttackOutcome::Miss,
            ChallengeOutcome::SuccessWithConsequences => AttackOutcome::HitWithConsequences,
            ChallengeOutcome::Success => AttackOutcome::Hit,
        }
    }
}

impl fmt::Display for AttackOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AttackOutcome::Miss => "miss",
            AttackOutcome::HitWithConsequences => "hit with consequences",
            AttackOutcome::Hit => "hit",
        })
    }
}

/// How an attack is resolved (L348–370).
///
/// ```
/// use dice_shapers_and_bots::{Attack, AttackKind, Level, Rules};
/// let a = Attack::defended(Level::Low.into(), Level::Low.into(), &Rules::default())?;
/// assert_eq!(a.kind(), AttackKind::Defended);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AttackKind {
    /// The target does not spend an action to defend: the attacker needs the score of the
    /// target's Size (L352–355).
    Undefended,
    /// The target defends: both roll, ties go to the attacker (L356–358).
    Defended,
    /// A sneak attack: always against Size, with the Director's surprise bonus (L367–370).
    Sneak,
}

impl fmt::Display for AttackKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AttackKind::Undefended => "undefended",
            AttackKind::Defended => "defended",
            AttackKind::Sneak => "sneak",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Against {
    Size {
        needed: i32,
        reading: UndefendedHit,
        fluke_equal_is_consequence: bool,
    },
    Defender(Scorer),
}

/// An attack (L348–370), treated as a contest:
///
/// - [`Attack::undefended`]: "the attacker rolls two dice and adds their bonus, and succeeds
///   if get the score required by the target's Size (or the lower of their Height and
///   Weight)" (L352–355), read as [`Rules::undefended_hit`] says (SB-A1). Smaller targets
///   have lower targets, so they are easier to hit undefended.
/// - [`Attack::defended`]: "both players roll, and the attack succeeds if the attacker's
///   score is equal to or higher than the defender's" (L356–358): ties go to the attacker,
///   unlike a [`Contest`](crate::Contest) (SB-A9).
/// - [`Attack::sneak`]: no defense roll; always against Size, plus the surprise bonus
///   (L367–370).
///
/// Each side's bonus is its [`Contestant`]'s: the skill is the caller's choice (SB-A8,
/// SB-A20), with [`Armor::penalty`] applied by [`Contestant::wearing`].
///
/// ```
/// use dice_shapers_and_bots::{Armor, Attack, AttackOutcome, Contestant, Level, Rules, Size};
/// use dice_core::Exact;
/// let rules = Rules::default();
/// let dashwood = Contestant::rated(Level::VeryHigh).wearing(Armor::Accustomed)?; // +3
/// let slumpy = Size::Single(Level::VeryHigh); // needs 11
/// let arrow = Attack::undefended(dashwood, &slumpy, &rules)?;
/// // 4 + 4 + 3 = 11: exactly the target, a hit with consequences (SB-A1 ruling).
/// assert_eq!(arrow.resolve(&[4, 4], &[])?.outcome, AttackOutcome::HitWithConsequences);
/// let odds = arrow.distribution()?;
/// assert!((odds.probability(&AttackOutcome::Miss) - 21.0 / 36.0).abs() < 1e-15);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    kind: AttackKind,
    attacker: Scorer,
    against: Against,
    sides: (Contestant, Option<Contestant>),
}

impl Attack {
    fn against_size(
        kind: AttackKind,
        attacker: Contestant,
        target: &Size,
        rules: &Rules,
    ) -> Result<Self, Error> {
        Ok(Attack {
            kind,
            attacker: Scorer::new(attacker)?,
            against: Against::Size {
                needed: target.attack_target(),
                reading: rules.undefended_hit,
                fluke_equal_is_consequence: rules.fluke_equal_is_consequence,
            },
            sides: (attacker, None),
        })
    }

    /// An attack on a target that does not defend. An attacker with no rating rolls a fluke
    /// against the Size target (a challenge-type task, as Zitterbee's shot of SB-E5).
    ///
    /// # Errors
    /// Only a dice-core constructor's (never in practice).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, AttackOutcome, Contestant, Level, Rules, Size};
    /// let a = Attack::undefended(Level::Average.into(), &Size::Single(Level::VeryLow), &Rules::default())?;
    /// assert_eq!(a.needed(), Some(3));
    /// assert_eq!(a.resolve(&[1, 2], &[])?.outcome, AttackOutcome::HitWithConsequences);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn undefended(attacker: Contestant, target: &Size, rules: &Rules) -> Result<Self, Error> {
        Self::against_size(AttackKind::Undefended, attacker, target, rules)
    }

    /// A sneak attack: against Size, no defense allowed, with the Director's surprise bonus
    /// added to the attacker's.
    ///
    /// # Errors
    /// [`Error::NoBonusForFluke`] for a surprise bonus on an attacker with no rating.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, Contestant, Level, Rules, Size, Surprise};
    /// let a = Attack::sneak(Level::Low.into(), &Size::Single(Level::High), Surprise::PlusTwo, &Rules::default())?;
    /// assert_eq!(a.attacker().bonus(), Some(1)); // −1 + 2
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn sneak(
        attacker: Contestant,
        target: &Size,
        surprise: Surprise,
        rules: &Rules,
    ) -> Result<Self, Error> {
        let attacker = attacker.with_modifier(surprise.bonus())?;
        Self::against_size(AttackKind::Sneak, attacker, target, rules)
    }

    /// An attack the target defends with one of their actions (perhaps borrowed, L362–363).
    ///
    /// # Errors
    /// [`Error::FlukeNotAllowed`] for a side with no rating unless
    /// [`Rules::fluke_in_contests`] (SB-A21).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, AttackOutcome, Level, Rules};
    /// let a = Attack::defended(Level::Low.into(), Level::High.into(), &Rules::default())?;
    /// // 5 + 6 − 1 = 10 against 6 + 2 + 2 = 10: a tie, which the attacker wins.
    /// assert_eq!(a.resolve(&[5, 6], &[6, 2])?.outcome, AttackOutcome::Hit);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn defended(
        attacker: Contestant,
        defender: Contestant,
        rules: &Rules,
    ) -> Result<Self, Error> {
        let (a, d) = (Scorer::new(attacker)?, Scorer::new(defender)?);
        if (a.is_fluke() || d.is_fluke()) && !rules.fluke_in_contests {
            return Err(Error::FlukeNotAllowed {
                what: "a defended attack",
            });
        }
        Ok(Attack {
            kind: AttackKind::Defended,
            attacker: a,
            against: Against::Defender(d),
            sides: (attacker, Some(defender)),
        })
    }

    /// Undefended, defended or sneak.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, AttackKind, Level, Rules, Size, Surprise};
    /// let a = Attack::sneak(Level::Low.into(), &Size::Single(Level::Low), Surprise::None, &Rules::default())?;
    /// assert_eq!(a.kind(), AttackKind::Sneak);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn kind(&self) -> AttackKind {
        self.kind
    }

    /// The attacker (with the surprise bonus of a sneak attack).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, Contestant, Level, Rules};
    /// let a = Attack::defended(Level::High.into(), Level::Low.into(), &Rules::default())?;
    /// assert_eq!(a.attacker(), Contestant::rated(Level::High));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn attacker(&self) -> Contestant {
        self.sides.0
    }

    /// The defender of a defended attack.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, Contestant, Level, Rules};
    /// let a = Attack::defended(Level::High.into(), Level::Low.into(), &Rules::default())?;
    /// assert_eq!(a.defender(), Some(Contestant::rated(Level::Low)));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn defender(&self) -> Option<Contestant> {
        self.sides.1
    }

    /// The score an attack against Size needs (`None` for a defended attack).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, Level, Rules, Size};
    /// let a = Attack::undefended(Level::Low.into(), &Size::Single(Level::High), &Rules::default())?;
    /// assert_eq!(a.needed(), Some(9));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn needed(&self) -> Option<i32> {
        match self.against {
            Against::Size { needed, .. } => Some(needed),
            Against::Defender(_) => None,
        }
    }

    fn outcome_of(&self, attacker: i64, defender: i64) -> AttackOutcome {
        match self.against {
            Against::Size {
                needed,
                reading,
                fluke_equal_is_consequence,
            } => {
                let needed64 = i64::from(needed);
                match reading {
                    UndefendedHit::Challenge if self.attacker.is_fluke() => {
                        let score = u32::try_from(attacker).unwrap_or(u32::MAX);
                        fluke_outcome(score, needed, fluke_equal_is_consequence).into()
                    }
                    UndefendedHit::Challenge => {
                        ChallengeOutcome::from(dice_core::Versus::of(attacker, needed64)).into()
                    }
                    UndefendedHit::AtLeast if attacker >= needed64 => AttackOutcome::Hit,
                    UndefendedHit::Greater if attacker > needed64 => AttackOutcome::Hit,
                    _ => AttackOutcome::Miss,
                }
            }
            Against::Defender(_) if attacker >= defender => AttackOutcome::Hit,
            Against::Defender(_) => AttackOutcome::Miss,
        }
    }

    /// The pure form: the attacker's faces and the defender's (empty unless defended).
    ///
    /// # Errors
    /// [`Error::Face`], [`Error::DiceCount`] or [`Error::StreakUnfinished`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, AttackOutcome, Level, Rules};
    /// let a = Attack::defended(Level::Average.into(), Level::Average.into(), &Rules::default())?;
    /// assert_eq!(a.resolve(&[1, 2], &[6, 6])?.outcome, AttackOutcome::Miss);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn resolve(&self, attacker: &[u8], defender: &[u8]) -> Result<AttackRoll, Error> {
        let a = self.attacker.resolve(attacker)?;
        let d = match &self.against {
            Against::Defender(s) => Some(s.resolve(defender)?),
            Against::Size { .. } => None,
        };
        Ok(self.finish(a, d))
    }

    /// Rolls the attack (attacker first, then defender) with the caller's RNG.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Attack, Level, Rules};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let a = Attack::defended(Level::High.into(), Level::Average.into(), &Rules::default())?;
    /// println!("{}", a.roll_attack(&mut Xoshiro256PlusPlus::seed_from_u64(1)));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn roll_attack<R: Rng + ?Sized>(&self, rng: &mut R) -> AttackRoll {
        let a = self.attacker.roll_score(rng);
        let d = match &self.against {
            Against::Defender(s) => Some(s.roll_score(rng)),
            Against::Size { .. } => None,
        };
        self.finish(a, d)
    }

    fn finish(&self, a: ScoreRoll, d: Option<ScoreRoll>) -> AttackRoll {
        let dt = d.map_or(0, |d| i64::from(d.total()));
        AttackRoll {
            kind: self.kind,
            attacker: a,
            defender: d,
            needed: self.needed(),
            outcome: self.outcome_of(i64::from(a.total()), dt),
        }
    }
}

impl Roll for Attack {
    type Outcome = AttackOutcome;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> AttackOutcome {
        let a = self.attacker.roll_total(rng);
        let d = match &self.against {
            Against::Defender(s) => s.roll_total(rng),
            Against::Size { .. } => 0,
        };
        self.outcome_of(a, d)
    }
}

impl Exact for Attack {
    /// Against Size: the attacker's law mapped onto the outcomes. Defended: the law of the
    /// margin (dice-core's [`Dist::difference`]), a hit at zero or above. A fluke's unlisted
    /// tail counts for its side.
    fn distribution(&self) -> Result<Dist<AttackOutcome>, dice_core::Error> {
        let a = self.attacker.distribution()?;
        match &self.against {
            Against::Size { .. } => {
                let d = a.map(|&t| self.outcome_of(t, 0));
                fold_tail(d, AttackOutcome::Hit)
            }
            Against::Defender(s) => {
                let d = a
                    .difference(&s.distribution()?)
                    .map(|&m| self.outcome_of(m, 0));
                match (self.attacker.is_fluke(), s.is_fluke()) {
                    (true, false) => fold_tail(d, AttackOutcome::Hit),
                    (false, true) => fold_tail(d, AttackOutcome::Miss),
                    _ => Ok(d),
                }
            }
        }
    }
}

impl fmt::Display for Attack {
    /// `undefended attack: Very High (+4 -1) vs Size 11`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} attack: {}", self.kind, self.sides.0)?;
        match (self.needed(), self.sides.1) {
            (Some(n), _) => write!(f, " vs Size {n}"),
            (None, Some(d)) => write!(f, " vs {d}"),
            (None, None) => Ok(()),
        }
    }
}

/// One attack roll.
///
/// ```
/// use dice_shapers_and_bots::{Attack, Level, Rules, Size};
/// let a = Attack::undefended(Level::High.into(), &Size::Single(Level::Average), &Rules::default())?;
/// assert_eq!(a.resolve(&[2, 3], &[])?.to_string(), "[2, 3] + 2 = 7 vs Size 7: hit with consequences");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AttackRoll {
    /// Undefended, defended or sneak.
    pub kind: AttackKind,
    /// The attacker's score.
    pub attacker: ScoreRoll,
    /// The defender's score, when defended.
    pub defender: Option<ScoreRoll>,
    /// The Size target, when not defended.
    pub needed: Option<i32>,
    /// The result.
    pub outcome: AttackOutcome,
}

impl fmt::Display for AttackRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.attacker)?;
        if let Some(n) = self.needed {
            write!(f, " vs Size {n}")?;
        }
        if let Some(d) = self.defender {
            write!(f, " vs {d}")?;
        }
        write!(f, ": {}", self.outcome)
    }
}

// ------------------------------------------------------------------------------ initiative

/// The order fighters act in each turn: indices into the caller's list, first to act first.
///
/// ```
/// use dice_shapers_and_bots::TurnOrder;
/// let order = TurnOrder::new(vec![2, 0, 1]);
/// assert_eq!(order.first(), Some(2));
/// assert_eq!(order.to_string(), "2, 0, 1");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TurnOrder(pub Vec<usize>);

impl TurnOrder {
    /// An order given by hand.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::TurnOrder::new(vec![0]).first(), Some(0));
    /// ```
    pub fn new(order: Vec<usize>) -> Self {
        TurnOrder(order)
    }

    /// The fighter who acts first.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::TurnOrder::default().first(), None);
    /// ```
    pub fn first(&self) -> Option<usize> {
        self.0.first().copied()
    }

    /// The fighters in order.
    ///
    /// ```
    /// let order = dice_shapers_and_bots::TurnOrder::new(vec![1, 0]);
    /// assert_eq!(order.iter().collect::<Vec<_>>(), [1, 0]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().copied()
    }

    /// Where `fighter` acts (0 = first).
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::TurnOrder::new(vec![1, 0]).position(0), Some(1));
    /// ```
    pub fn position(&self, fighter: usize) -> Option<usize> {
        self.0.iter().position(|&f| f == fighter)
    }
}

impl fmt::Display for TurnOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(usize::to_string).collect();
        f.write_str(&parts.join(", "))
    }
}

/// The most rounds of tie rolls before the roll path gives up and keeps the listing order
/// (only reachable with probability far below 2⁻¹⁰⁰⁰).
const MAX_TIE_ROUNDS: u32 = 1000;

/// Initiative (SB-R13, L322–328): "characters act in order of Fitness (highest Fitness first).
/// If two or more characters are tied, roll dice to see who goes first for the duration of
/// that fight."
///
/// The rulebook does not say which dice (SB-A11), so the tie roll is the caller's: any
/// dice-core [`Sum`] (two d6 like every other roll, or one). The higher tie roll goes first,
/// and fighters still tied roll again among themselves until they are strictly ordered
/// (SB-A11). Roll once per fight and keep the order (see [`Fight`]): "Don't roll on each
/// turn" (L328).
///
/// Because all tied fighters roll the same dice, every order of a tied group is equally
/// likely, which is the exact law ([`Exact`]).
///
/// ```
/// use dice_shapers_and_bots::{Initiative, Level, TurnOrder};
/// use dice_core::{Die, Keep, Pool, Sum};
/// let two_d6 = Sum::new(Pool::new(2, Die::D6)?, Keep::All, 0)?;
/// // Dashwood (Very High Fitness) goes before Slumpy (Low), no roll needed.
/// let init = Initiative::new(vec![Level::VeryHigh, Level::Low], two_d6.clone())?;
/// assert_eq!(init.order_from_tie_rolls(&[&[], &[]])?, TurnOrder::new(vec![0, 1]));
/// // Two High fighters tie on 7, roll again, and 9 beats 5.
/// let tied = Initiative::new(vec![Level::High, Level::High, Level::Low], two_d6)?;
/// assert_eq!(tied.order_from_tie_rolls(&[&[7, 5], &[7, 9], &[]])?, TurnOrder::new(vec![1, 0, 2]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Initiative {
    fitness: Vec<Level>,
    tie_roll: Sum,
}

impl Initiative {
    /// Fighters with the given Fitness levels (their indices are their ids) and the dice tied
    /// fighters roll.
    ///
    /// # Errors
    /// [`Error::TieRollWithoutDice`] for a tie roll with no dice.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Initiative, Level};
    /// use dice_core::{Die, Keep, Pool, Sum};
    /// let one_d6 = Sum::new(Pool::new(1, Die::D6)?, Keep::All, 0)?;
    /// assert!(Initiative::new(vec![Level::High, Level::High], one_d6).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(fitness: Vec<Level>, tie_roll: Sum) -> Result<Self, Error> {
        if tie_roll.pool().count() == 0 {
            return Err(Error::TieRollWithoutDice);
        }
        Ok(Initiative { fitness, tie_roll })
    }

    /// The fighters' Fitness.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Initiative, Level};
    /// use dice_core::{Die, Keep, Pool, Sum};
    /// let init = Initiative::new(vec![Level::Low], Sum::new(Pool::new(2, Die::D6)?, Keep::All, 0)?)?;
    /// assert_eq!(init.fitness(), &[Level::Low]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fitness(&self) -> &[Level] {
        &self.fitness
    }

    /// Highest Fitness first, ties in listing order (before any tie roll).
    fn by_fitness(&self) -> TurnOrder {
        let mut idx: Vec<usize> = (0..self.fitness.len()).collect();
        idx.sort_by(|&a, &b| self.fitness[b].cmp(&self.fitness[a]));
        TurnOrder(idx)
    }

    /// Fitness first, then roll-offs among the tied by `next` (dice-core's
    /// [`rank_with_roll_offs`](dice_core::rank_with_roll_offs)).
    fn order_with(
        &self,
        next: impl FnMut(usize) -> Result<i64, Error>,
    ) -> Result<TurnOrder, Error> {
        dice_core::rank_with_roll_offs(
            self.fitness.len(),
            |a, b| self.fitness[a].cmp(&self.fitness[b]),
            MAX_TIE_ROUNDS,
            next,
        )
        .map(TurnOrder)
        .map_err(|e| match e {
            RollOffError::Roll(e) => e,
            RollOffError::Unresolved { first, second } => {
                Error::InitiativeTieUnresolved { first, second }
            }
        })
    }

    /// The pure form: each fighter's successive tie rolls (only read while they are tied;
    /// an untied fighter's may be empty).
    ///
    /// # Errors
    /// [`Error::InitiativeTieUnresolved`] when tied fighters run out of rolls;
    /// [`Error::NoSuchFighter`] when the number of roll lists is not the number of fighters.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Initiative, Level, TurnOrder};
    /// use dice_core::{Die, Keep, Pool, Sum};
    /// let init = Initiative::new(vec![Level::Low, Level::Low], Sum::new(Pool::new(2, Die::D6)?, Keep::All, 0)?)?;
    /// assert_eq!(init.order_from_tie_rolls(&[&[4], &[11]])?, TurnOrder::new(vec![1, 0]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn order_from_tie_rolls(&self, tie_rolls: &[&[i64]]) -> Result<TurnOrder, Error> {
        if tie_rolls.len() != self.fitness.len() {
            return Err(Error::NoSuchFighter {
                index: tie_rolls.len(),
                count: self.fitness.len(),
            });
        }
        let mut used = vec![0usize; tie_rolls.len()];
        self.order_with(|i| {
            let v = tie_rolls[i].get(used[i]).copied();
            used[i] += 1;
            v.ok_or(Error::InitiativeTieUnresolved {
                first: i,
                second: i,
            })
        })
        .map_err(|e| self.name_the_tie(e))
    }

    /// Names a fighter the unresolved one was tied with.
    fn name_the_tie(&self, e: Error) -> Error {
        match e {
            Error::InitiativeTieUnresolved { first, .. } => {
                let second = (0..self.fitness.len())
                    .find(|&j| j != first && self.fitness[j] == self.fitness[first])
                    .unwrap_or(first);
                Error::InitiativeTieUnresolved {
                    first: first.min(second),
                    second: first.max(second),
                }
            }
            e => e,
        }
    }

    /// Rolls initiative with the caller's RNG: the order and every tie roll made.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Initiative, Level};
    /// use dice_core::{Die, Keep, Pool, Sum};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let d6 = Sum::new(Pool::new(1, Die::D6)?, Keep::All, 0)?;
    /// let init = Initiative::new(vec![Level::Average; 3], d6)?;
    /// let roll = init.roll_initiative(&mut Xoshiro256PlusPlus::seed_from_u64(9));
    /// assert_eq!(roll.order.0.len(), 3);
    /// assert!(roll.tie_rolls.iter().all(|r| !r.is_empty()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn roll_initiative<R: Rng + ?Sized>(&self, rng: &mut R) -> InitiativeRoll {
        let mut tie_rolls = vec![Vec::new(); self.fitness.len()];
        let order = self
            .order_with(|i| {
                let v = self.tie_roll.roll(rng);
                tie_rolls[i].push(v);
                Ok(v)
            })
            .unwrap_or_else(|_| self.by_fitness());
        InitiativeRoll { order, tie_rolls }
    }
}

impl Roll for Initiative {
    type Outcome = TurnOrder;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> TurnOrder {
        self.order_with(|_| Ok(self.tie_roll.roll(rng)))
            .unwrap_or_else(|_| self.by_fitness())
    }
}

impl Exact for Initiative {
    /// Every order of each group tied on Fitness is equally likely (the tied fighters roll
    /// the same dice, so the process is symmetric in them): dice-core's
    /// [`fair_roll_off_orders`](dice_core::fair_roll_off_orders).
    ///
    /// # Errors
    /// [`dice_core::Error::TooComplex`] beyond 40,320 orders.
    fn distribution(&self) -> Result<Dist<TurnOrder>, dice_core::Error> {
        let law = dice_core::fair_roll_off_orders(self.fitness.len(), |a, b| {
            self.fitness[a].cmp(&self.fitness[b])
        })?;
        Ok(law.map(|o| TurnOrder(o.clone())))
    }
}

impl fmt::Display for Initiative {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.fitness.iter().map(Level::to_string).collect();
        write!(
            f,
            "initiative by Fitness [{}], ties on {}",
            parts.join(", "),
            self.tie_roll
        )
    }
}

/// One initiative roll: the order and each fighter's tie rolls, in the order made.
///
/// ```
/// use dice_shapers_and_bots::{Initiative, Level};
/// use dice_core::{Die, Keep, Pool, Sum};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let init = Initiative::new(vec![Level::High, Level::Low], Sum::new(Pool::new(2, Die::D6)?, Keep::All, 0)?)?;
/// let roll = init.roll_initiative(&mut Xoshiro256PlusPlus::seed_from_u64(1));
/// assert!(roll.tie_rolls.iter().all(Vec::is_empty)); // no tie, no roll
/// assert_eq!(roll.to_string(), "order 0, 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InitiativeRoll {
    /// Who acts first, second, …
    pub order: TurnOrder,
    /// Each fighter's tie rolls (empty for a fighter with no tie).
    pub tie_rolls: Vec<Vec<i64>>,
}

impl fmt::Display for InitiativeRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "order {}", self.order)?;
        for (i, r) in self
            .tie_rolls
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.is_empty())
        {
            write!(f, "; fighter {i} rolled {r:?}")?;
        }
        Ok(())
    }
}

// ------------------------------------------------------------------------------ actions

/// An action in a turn (L330–346).
///
/// ```
/// use dice_shapers_and_bots::Action;
/// assert_eq!(Action::Attack.cost(), 1);
/// assert_eq!(Action::Drop.cost(), 0); // SB-A10
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Action {
    /// "Attack someone."
    Attack,
    /// "Defend against an attack": the only action that may be borrowed from the next turn
    /// (L362–363).
    Defend,
    /// "Pick something up."
    PickUp,
    /// "Draw a weapon."
    DrawWeapon,
    /// "Run from one place to another."
    Run,
    /// One action of reloading: taking an arrow from a quiver is one (L341–343, so "archers
    /// can fire one shot per turn"); a crossbow "may require several turns" (L344–346), a
    /// number the rulebook leaves to the weapon (the caller counts them).
    Reload,
    /// Dropping something, which is free (L336: "doesn't count as an attack", read as "an
    /// action", SB-A10).
    Drop,
}

impl Action {
    /// Actions it uses: 1, or 0 for [`Action::Drop`].
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Action::Reload.cost(), 1);
    /// ```
    pub const fn cost(self) -> u8 {
        match self {
            Action::Drop => 0,
            _ => 1,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Attack => "attack",
            Action::Defend => "defend",
            Action::PickUp => "pick up",
            Action::DrawWeapon => "draw a weapon",
            Action::Run => "run",
            Action::Reload => "reload",
            Action::Drop => "drop",
        })
    }
}

/// Where an action came from.
///
/// ```
/// use dice_shapers_and_bots::{Action, ActionTaken, Rules, TurnActions};
/// let mut a = TurnActions::new();
/// assert_eq!(a.take(Action::Drop, &Rules::default())?, ActionTaken::Free);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ActionTaken {
    /// A free action.
    Free,
    /// One of this turn's two.
    ThisTurn,
    /// Borrowed from the next turn for a defense (L362–363).
    Borrowed,
}

impl fmt::Display for ActionTaken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ActionTaken::Free => "free",
            ActionTaken::ThisTurn => "this turn's",
            ActionTaken::Borrowed => "borrowed from the next turn",
        })
    }
}

/// A fighter's actions (SB-R14, SB-R16): "a character can take two actions" a turn
/// (L330–331); "If the target has already used all of their actions, they can borrow an
/// action from their next turn to use for defense" (L362–363), at most
/// [`Rules::max_borrowed_actions`] owed at once (SB-A19).
///
/// ```
/// use dice_shapers_and_bots::{Action, ActionTaken, Rules, TurnActions};
/// let rules = Rules::default();
/// let mut archer = TurnActions::new();
/// // SB-E17 (L341–343): an arrow from the quiver, then the shot: both actions.
/// archer.take(Action::Reload, &rules)?;
/// archer.take(Action::Attack, &rules)?;
/// assert!(archer.take(Action::Attack, &rules).is_err());
/// // Attacked now, she borrows from her next turn to defend.
/// assert_eq!(archer.take(Action::Defend, &rules)?, ActionTaken::Borrowed);
/// archer.next_turn();
/// assert_eq!(archer.left(), 1);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TurnActions {
    left: u8,
    owed: u8,
}

impl Default for TurnActions {
    fn default() -> Self {
        Self::new()
    }
}

impl TurnActions {
    /// Actions a turn (L330–331).
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::TurnActions::PER_TURN, 2);
    /// ```
    pub const PER_TURN: u8 = 2;

    /// A fresh turn: two actions, nothing owed.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::TurnActions::new().left(), 2);
    /// ```
    pub const fn new() -> Self {
        TurnActions {
            left: Self::PER_TURN,
            owed: 0,
        }
    }

    /// Actions left this turn.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Action, Rules, TurnActions};
    /// let mut a = TurnActions::new();
    /// a.take(Action::Run, &Rules::default())?;
    /// assert_eq!(a.left(), 1);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub const fn left(&self) -> u8 {
        self.left
    }

    /// Actions borrowed from later turns.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::TurnActions::new().owed(), 0);
    /// ```
    pub const fn owed(&self) -> u8 {
        self.owed
    }

    /// Takes `action`, borrowing for a defense when no action is left.
    ///
    /// # Errors
    /// [`Error::NoActionsLeft`] for anything but a defense when none are left;
    /// [`Error::BorrowLimit`] for a defense beyond [`Rules::max_borrowed_actions`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Action, Error, Rules, TurnActions};
    /// let rules = Rules::default();
    /// let mut a = TurnActions::new();
    /// a.take(Action::DrawWeapon, &rules)?;
    /// a.take(Action::Attack, &rules)?;
    /// assert_eq!(a.take(Action::Run, &rules), Err(Error::NoActionsLeft { action: Action::Run }));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn take(&mut self, action: Action, rules: &Rules) -> Result<ActionTaken, Error> {
        if action.cost() == 0 {
            return Ok(ActionTaken::Free);
        }
        if self.left > 0 {
            self.left -= 1;
            return Ok(ActionTaken::ThisTurn);
        }
        if action != Action::Defend {
            return Err(Error::NoActionsLeft { action });
        }
        if self.owed >= rules.max_borrowed_actions {
            return Err(Error::BorrowLimit {
                limit: rules.max_borrowed_actions,
            });
        }
        self.owed += 1;
        Ok(ActionTaken::Borrowed)
    }

    /// Starts the fighter's next turn: two actions, less what was borrowed.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Action, Rules, TurnActions};
    /// let rules = Rules::default();
    /// let mut a = TurnActions::new();
    /// a.take(Action::Attack, &rules)?;
    /// a.next_turn();
    /// assert_eq!(a.left(), 2);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn next_turn(&mut self) {
        let repaid = self.owed.min(Self::PER_TURN);
        self.left = Self::PER_TURN - repaid;
        self.owed -= repaid;
    }
}

impl fmt::Display for TurnActions {
    /// `2 actions left`, `0 actions left, 1 owed`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.left == 1 { "" } else { "s" };
        write!(f, "{} action{s} left", self.left)?;
        if self.owed > 0 {
            write!(f, ", {} owed", self.owed)?;
        }
        Ok(())
    }
}

/// A fight in progress (SB-R13, SB-R14, SB-R16): the turn order rolled once and kept for the
/// whole fight (L326–328), whose turn it is, and every fighter's actions.
///
/// "In each turn, characters act in order of Fitness (highest Fitness first)" (L324–325):
/// only the fighter whose turn it is ([`Fight::current`]) may attack, run, reload, pick up,
/// draw or drop; [`Fight::end_turn`] passes the turn to the next fighter in the order, and
/// after the last one starts the next turn. The one action a fighter takes in another's turn
/// is a defense, when attacked: "The target says whether they are going to use one of their
/// actions for defense" (L351), borrowing from their next turn when none are left
/// (L362–363).
///
/// ```
/// use dice_shapers_and_bots::{Action, Error, Fight, Rules, TurnOrder};
/// let mut fight = Fight::new(TurnOrder::new(vec![0, 1]), &Rules::default())?;
/// assert_eq!((fight.turn(), fight.current()), (1, 0));
/// fight.act(0, Action::Attack)?;
/// fight.act(1, Action::Defend)?; // the target defends in the attacker's turn
/// assert!(matches!(fight.act(1, Action::Attack), Err(Error::OutOfTurn { .. })));
/// fight.end_turn();
/// fight.act(1, Action::Attack)?; // now it is fighter 1's turn
/// fight.end_turn();
/// assert_eq!((fight.turn(), fight.current()), (2, 0));
/// assert_eq!(fight.order(), &TurnOrder::new(vec![0, 1])); // not re-rolled
/// assert_eq!(fight.actions(1)?.left(), 2);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Fight {
    order: TurnOrder,
    actions: Vec<TurnActions>,
    turn: u32,
    /// The position in `order` of the fighter whose turn it is.
    place: usize,
    /// Fighters knocked out (L432), by index.
    out: Vec<bool>,
    rules: Rules,
}

impl Fight {
    /// Game time of one turn, in seconds: "everything happens in turns that are 5 seconds
    /// long in game time" (L322–323).
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::Fight::SECONDS_PER_TURN, 5);
    /// ```
    pub const SECONDS_PER_TURN: u32 = 5;

    /// A fight in `order` (from [`Initiative`]), turn 1, the first fighter in the order to
    /// act.
    ///
    /// # Errors
    /// [`Error::TurnOrderListing`] unless `order` lists each of the fighters `0..n` exactly
    /// once (each character acts once a turn, in order, L324–325).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Error, Fight, Rules, TurnOrder};
    /// let fight = Fight::new(TurnOrder::new(vec![1, 0]), &Rules::default())?;
    /// assert_eq!((fight.turn(), fight.current()), (1, 1));
    /// let twice = Fight::new(TurnOrder::new(vec![0, 1, 0]), &Rules::default());
    /// assert_eq!(twice, Err(Error::TurnOrderListing { fighter: 0, listed: 2 }));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn new(order: TurnOrder, rules: &Rules) -> Result<Self, Error> {
        let n = order.0.len();
        let mut listed = vec![0usize; n.max(1)];
        for &f in &order.0 {
            match listed.get_mut(f) {
                Some(c) => *c += 1,
                // An index past the end leaves a fighter below it unlisted.
                None => {
                    let fighter = (0..n).find(|i| !order.0.contains(i)).unwrap_or(0);
                    return Err(Error::TurnOrderListing { fighter, listed: 0 });
                }
            }
        }
        if let Some((fighter, &times)) = listed.iter().enumerate().find(|(_, c)| **c != 1) {
            return Err(Error::TurnOrderListing {
                fighter,
                listed: times,
            });
        }
        Ok(Fight {
            actions: vec![TurnActions::new(); n],
            order,
            turn: 1,
            place: 0,
            out: vec![false; n],
            rules: *rules,
        })
    }

    /// The order, the same every turn.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fight, Rules, TurnOrder};
    /// let fight = Fight::new(TurnOrder::new(vec![1, 0]), &Rules::default())?;
    /// assert_eq!(fight.order().first(), Some(1));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn order(&self) -> &TurnOrder {
        &self.order
    }

    /// The turn number, from 1. Each turn is [`Fight::SECONDS_PER_TURN`] seconds of game time
    /// (L322–323).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fight, Rules, TurnOrder};
    /// let mut fight = Fight::new(TurnOrder::new(vec![0]), &Rules::default())?;
    /// fight.next_turn();
    /// assert_eq!(fight.turn(), 2);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The fighter whose turn it is (L324–325).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fight, Rules, TurnOrder};
    /// let mut fight = Fight::new(TurnOrder::new(vec![2, 0, 1]), &Rules::default())?;
    /// assert_eq!(fight.current(), 2);
    /// fight.end_turn();
    /// assert_eq!(fight.current(), 0);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn current(&self) -> usize {
        self.order.0.get(self.place).copied().unwrap_or(0)
    }

    /// A fighter's actions.
    ///
    /// # Errors
    /// [`Error::NoSuchFighter`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Fight, Rules, TurnOrder};
    /// let fight = Fight::new(TurnOrder::new(vec![0, 1]), &Rules::default())?;
    /// assert_eq!(fight.actions(1)?.left(), 2);
    /// assert!(fight.actions(2).is_err());
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn actions(&self, fighter: usize) -> Result<TurnActions, Error> {
        self.actions
            .get(fighter)
            .copied()
            .ok_or(Error::NoSuchFighter {
                index: fighter,
                count: self.actions.len(),
            })
    }

    /// `fighter` takes `action` ([`TurnActions::take`]). Only the fighter whose turn it is
    /// may act (L324–325), except to defend against an attack (L351, L362–363), which a
    /// target does in the attacker's turn.
    ///
    /// # Errors
    /// [`Error::NoSuchFighter`]; [`Error::Unconscious`] for a fighter knocked out
    /// ([`Fight::set_condition`], L432); [`Error::OutOfTurn`] for anything but a defense by a
    /// fighter whose turn it is not; [`Error::NoActionsLeft`], [`Error::BorrowLimit`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Action, ActionTaken, Error, Fight, Rules, TurnOrder};
    /// let mut fight = Fight::new(TurnOrder::new(vec![0, 1]), &Rules::default())?;
    /// assert_eq!(fight.act(0, Action::Attack)?, ActionTaken::ThisTurn);
    /// assert_eq!(
    ///     fight.act(1, Action::Run),
    ///     Err(Error::OutOfTurn { fighter: 1, current: 0, action: Action::Run })
    /// );
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn act(&mut self, fighter: usize, action: Action) -> Result<ActionTaken, Error> {
        let count = self.actions.len();
        let current = self.current();
        let rules = self.rules;
        let actions = self.actions.get_mut(fighter).ok_or(Error::NoSuchFighter {
            index: fighter,
            count,
        })?;
        if self.out.get(fighter).copied().unwrap_or(false) {
            return Err(Error::Unconscious { fighter, action });
        }
        if fighter != current && action != Action::Defend {
            return Err(Error::OutOfTurn {
                fighter,
                current,
                action,
            });
        }
        actions.take(action, &rules)
    }

    /// Ends the current fighter's turn (any actions left are not used) and passes it to the
    /// next fighter in the order; after the last, the next turn starts for everyone, in the
    /// same order ([`TurnActions::next_turn`]). Returns the fighter whose turn it is now.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Action, Fight, Rules, TurnOrder};
    /// let mut fight = Fight::new(TurnOrder::new(vec![1, 0]), &Rules::default())?;
    /// fight.act(1, Action::Attack)?;
    /// assert_eq!(fight.end_turn(), 0);
    /// assert_eq!(fight.end_turn(), 1);
    /// assert_eq!(fight.turn(), 2);
    /// assert_eq!(fight.actions(1)?.left(), 2);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn end_turn(&mut self) -> usize {
        self.place += 1;
        if self.place >= self.order.0.len() {
            self.next_turn();
        } else {
            self.skip_unconscious();
        }
        self.current()
    }

    /// Moves the turn past fighters who are unconscious (at most one full turn, so a fight
    /// where everyone is out stops on the first place it reaches).
    fn skip_unconscious(&mut self) {
        let n = self.order.0.len();
        for _ in 0..n {
            if !self.out.get(self.current()).copied().unwrap_or(false) {
                return;
            }
            if self.place + 1 >= n {
                self.place = 0;
                self.turn = self.turn.saturating_add(1);
                for a in &mut self.actions {
                    a.next_turn();
                }
            } else {
                self.place += 1;
            }
        }
    }

    /// Whether `fighter` is conscious ([`Condition::Conscious`], the start of a fight) or
    /// has been knocked out ([`Fight::set_condition`]).
    ///
    /// # Errors
    /// [`Error::NoSuchFighter`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Condition, Fight, Rules, TurnOrder};
    /// let fight = Fight::new(TurnOrder::new(vec![0, 1]), &Rules::default())?;
    /// assert_eq!(fight.condition(1)?, Condition::Conscious);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn condition(&self, fighter: usize) -> Result<Condition, Error> {
        match self.out.get(fighter) {
            Some(true) => Ok(Condition::Unconscious),
            Some(false) => Ok(Condition::Conscious),
            None => Err(Error::NoSuchFighter {
                index: fighter,
                count: self.out.len(),
            }),
        }
    }

    /// Records a fighter's condition, as [`Health::take`](crate::Health::take) returns it:
    /// "When a character's HP reaches zero they are unconscious" (L432), so an unconscious
    /// fighter takes no action — not even a defense — and their turns pass them by. "What
    /// happens next depends on the situation" (L433): the Director may set them
    /// [`Condition::Conscious`] again. When the fighter whose turn it is goes down, the turn
    /// passes to the next fighter.
    ///
    /// # Errors
    /// [`Error::NoSuchFighter`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Action, Condition, Error, Fight, Rules, TurnOrder};
    /// let mut fight = Fight::new(TurnOrder::new(vec![0, 1, 2]), &Rules::default())?;
    /// fight.set_condition(1, Condition::Unconscious)?;
    /// assert!(matches!(fight.act(1, Action::Defend), Err(Error::Unconscious { .. })));
    /// assert_eq!(fight.end_turn(), 2); // fighter 1's turn passes
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn set_condition(&mut self, fighter: usize, condition: Condition) -> Result<(), Error> {
        let count = self.out.len();
        let out = self.out.get_mut(fighter).ok_or(Error::NoSuchFighter {
            index: fighter,
            count,
        })?;
        *out = condition == Condition::Unconscious;
        if fighter == self.current() {
            self.skip_unconscious();
        }
        Ok(())
    }

    /// Starts the next turn for everyone, in the same order: every fighter who has not had
    /// their turn yet in this one passes, and the first in the order acts next.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Action, Fight, Rules, TurnOrder};
    /// let mut fight = Fight::new(TurnOrder::new(vec![0, 1]), &Rules::default())?;
    /// fight.act(0, Action::Attack)?;
    /// fight.next_turn();
    /// assert_eq!((fight.turn(), fight.current()), (2, 0));
    /// assert_eq!(fight.actions(0)?.left(), 2);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn next_turn(&mut self) {
        self.turn = self.turn.saturating_add(1);
        self.place = 0;
        for a in &mut self.actions {
            a.next_turn();
        }
        self.skip_unconscious();
    }
}
