//! Combining skills, aid another, two skills in a round, windup, straining, pushing and
//! initiative (L43–L45, L69–L93; SW-R17, SW-R23 to SW-R28).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollRecord};

use crate::dice::{Compiled, Evaluated, MAX_POOL, SkillDice, roll_naturals};
use crate::error::Error;
use crate::exact::enumerate;
use crate::rules::Rules;
use crate::task::core_error;

/// In combat or out of it (L71).
///
/// ```
/// assert_ne!(dice_swimclass::Context::InCombat, dice_swimclass::Context::OutOfCombat);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Context {
    /// In combat: combining N skills takes N rounds (L71).
    InCombat,
    /// Out of combat: the dice may not exceed double the base skill (L71).
    OutOfCombat,
}

/// The dice of a combination, and the rounds it takes.
///
/// ```
/// let c = dice_swimclass::Combined { dice: 4, rounds: 1, capped: false };
/// assert_eq!(c.to_string(), "4 dice over 1 round");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Combined {
    /// Dice rolled.
    pub dice: u32,
    /// Rounds it takes.
    pub rounds: u32,
    /// Whether the out-of-combat cap cut the dice.
    pub capped: bool,
}

impl fmt::Display for Combined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.rounds == 1 { "" } else { "s" };
        write!(f, "{} dice over {} round{s}", self.dice, self.rounds)?;
        if self.capped {
            f.write_str(" (capped)")?;
        }
        Ok(())
    }
}

fn combination(
    ranks: &[u32],
    context: Context,
    cap: bool,
    rules: &Rules,
) -> Result<Combined, Error> {
    let Some(&base) = ranks.first() else {
        return Err(Error::Combine {
            what: "combine at least one skill",
        });
    };
    let sum: u64 = ranks.iter().map(|&r| u64::from(r)).sum();
    let raw = sum.saturating_sub(ranks.len() as u64 - 1);
    let limit = 2 * u64::from(base);
    let (dice, capped) = if cap && context == Context::OutOfCombat && raw > limit {
        if rules.refuse_over_cap {
            return Err(Error::Combine {
                what: "out of combat the combined dice may not be more than double the base skill (L71)",
            });
        }
        (limit, true)
    } else {
        (raw, false)
    };
    if dice > u64::from(MAX_POOL) {
        return Err(Error::TooManyDice {
            count: dice,
            max: MAX_POOL,
        });
    }
    let rounds = match context {
        Context::InCombat => ranks.len() as u32,
        Context::OutOfCombat => 1,
    };
    Ok(Combined {
        dice: dice as u32,
        rounds,
        capped,
    })
}

/// Combining skills (L69–L73; SW-R23): the ranks add, less 1 for each skill added to the
/// first (the base). Out of combat the dice are at most double the base (capped, or refused
/// under [`Rules::refuse_over_cap`]); in combat combining N skills takes N rounds (SW-A11).
///
/// # Errors
/// [`Error::Combine`] for no skills or a refused combination; [`Error::TooManyDice`].
///
/// ```
/// use dice_swimclass::{Context, Rules, combine};
/// // SW-E7, a running jump: Jump 2 + Walk 3 − 1 = 4 ≤ 2 × 2.
/// let jump = combine(&[2, 3], Context::OutOfCombat, &Rules::default())?;
/// assert_eq!((jump.dice, jump.capped), (4, false));
/// // Jump 1 + Walk 3 − 1 = 3 > 2: capped at 2.
/// assert_eq!(combine(&[1, 3], Context::OutOfCombat, &Rules::default())?.dice, 2);
/// assert_eq!(combine(&[2, 3], Context::InCombat, &Rules::default())?.rounds, 2);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn combine(ranks: &[u32], context: Context, rules: &Rules) -> Result<Combined, Error> {
    combination(ranks, context, true, rules)
}

/// Aid another / convergence (L79–L81; SW-R25): several characters' skills combined as in
/// [`combine`], the acting character's first. The out-of-combat cap applies when
/// [`Rules::cap_aid_and_windup`] (SW-A11).
///
/// # Errors
/// As [`combine`].
///
/// ```
/// use dice_swimclass::{Context, Rules, aid_another};
/// // A friend's Throw 3 helps a Jump 2 across a chasm: 2 + 3 − 1 = 4.
/// assert_eq!(aid_another(&[2, 3], Context::OutOfCombat, &Rules::default())?.dice, 4);
/// assert_eq!(aid_another(&[1, 3], Context::OutOfCombat, &Rules::default())?.dice, 2);
/// let loose = Rules { cap_aid_and_windup: false, ..Rules::default() };
/// assert_eq!(aid_another(&[1, 3], Context::OutOfCombat, &loose)?.dice, 3);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn aid_another(ranks: &[u32], context: Context, rules: &Rules) -> Result<Combined, Error> {
    combination(ranks, context, rules.cap_aid_and_windup, rules)
}

/// Windup (L83–L85; SW-R26): a skill combined with itself over `rounds` rounds,
/// `rounds·rank − (rounds − 1)` dice, taking those rounds; the out-of-combat cap applies
/// when [`Rules::cap_aid_and_windup`].
///
/// # Errors
/// As [`combine`]; [`Error::Combine`] for zero rounds.
///
/// ```
/// use dice_swimclass::{Context, Rules, windup};
/// let w = windup(3, 2, Context::InCombat, &Rules::default())?;
/// assert_eq!((w.dice, w.rounds), (5, 2));
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn windup(rank: u32, rounds: u32, context: Context, rules: &Rules) -> Result<Combined, Error> {
    if rounds == 0 || rounds > MAX_POOL {
        return Err(Error::Combine {
            what: "wind up over 1 or more rounds",
        });
    }
    let ranks = vec![rank; rounds as usize];
    let mut c = combination(&ranks, context, rules.cap_aid_and_windup, rules)?;
    c.rounds = rounds;
    Ok(c)
}

/// Two skills in one round (L75–L77; SW-R24): each at half its rank, rounded down.
///
/// ```
/// assert_eq!(dice_swimclass::two_skills_in_round(3, 4), (1, 2));
/// ```
pub const fn two_skills_in_round(first: u32, second: u32) -> (u32, u32) {
    (first / 2, second / 2)
}

/// A strained roll (L87–L89; SW-R27).
///
/// ```
/// let s = dice_swimclass::Strain { dice: 6, rank_after: 2 };
/// assert_eq!(s.dice, 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Strain {
    /// Dice rolled: double the rank.
    pub dice: u32,
    /// The rank afterwards ([`Rules::strain`]).
    pub rank_after: u32,
}

/// Straining (L87–L89): a skill of rank 2 or more rolled once at double rank, after which
/// it is reduced ([`Rules::strain`], SW-A9).
///
/// # Errors
/// [`Error::Strain`] below rank 2; [`Error::TooManyDice`] beyond [`MAX_POOL`].
///
/// ```
/// use dice_swimclass::{Rules, strain};
/// let s = strain(3, &Rules::default())?;
/// assert_eq!((s.dice, s.rank_after), (6, 2));
/// assert!(strain(1, &Rules::default()).is_err());
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn strain(rank: u32, rules: &Rules) -> Result<Strain, Error> {
    if rank < 2 {
        return Err(Error::Strain { rank });
    }
    let dice = u64::from(rank) * 2;
    if dice > u64::from(MAX_POOL) {
        return Err(Error::TooManyDice {
            count: dice,
            max: MAX_POOL,
        });
    }
    Ok(Strain {
        dice: dice as u32,
        rank_after: rules.strain.after(rank),
    })
}

/// A pushed task (L91–L93; SW-R28, SW-A10).
///
/// ```
/// let p = dice_swimclass::push(1, 3)?;
/// assert_eq!((p.difficulty, p.effect(2)), (3, 6)); // SW-E5: 2 squares × 3
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Push {
    /// The push factor N.
    pub factor: u32,
    /// The pushed difficulty: base × N.
    pub difficulty: u32,
}

impl Push {
    /// The effect (squares moved, progress) × N.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::push(2, 2)?.effect(1), 2);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub const fn effect(&self, base: u32) -> u32 {
        base.saturating_mul(self.factor)
    }

    /// The opposing dice of a pushed opposed skill: doubled in number (L93; SW-A10).
    ///
    /// ```
    /// assert_eq!(dice_swimclass::push(1, 2)?.opposing_dice(3), 6);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub const fn opposing_dice(&self, dice: u32) -> u32 {
        dice.saturating_mul(2)
    }

    /// Whether any die can still meet the pushed difficulty (a d6 plus `best_modifier`).
    ///
    /// ```
    /// assert!(!dice_swimclass::push(3, 3)?.reachable(0)); // difficulty 9
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub const fn reachable(&self, best_modifier: i32) -> bool {
        (self.difficulty as i64) <= 6 + best_modifier as i64
    }
}

/// Pushing a skill (L91–L93): a task of difficulty ≤ 3 pushed ×N has difficulty ×N and
/// effect ×N; declared before the roll. N = 1 is no push.
///
/// # Errors
/// [`Error::Push`] for a base difficulty above 3 or a factor below 1.
///
/// ```
/// assert!(dice_swimclass::push(4, 2).is_err());
/// assert_eq!(dice_swimclass::push(2, 1)?.difficulty, 2);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn push(difficulty: u32, factor: u32) -> Result<Push, Error> {
    if difficulty > 3 || factor == 0 || factor > 1_000 {
        return Err(Error::Push { difficulty, factor });
    }
    Ok(Push {
        factor,
        difficulty: difficulty * factor,
    })
}

/// An initiative roll's standing: the highest die, then the second (L45; SW-A12). A missing
/// die ranks below any die.
///
/// ```
/// use dice_swimclass::InitiativeScore;
/// let a = InitiativeScore::of(&[6, 2, 5]);
/// assert_eq!((a.highest, a.second), (Some(6), Some(5)));
/// assert!(a > InitiativeScore::of(&[6, 4]));
/// assert!(InitiativeScore::of(&[6]) < InitiativeScore::of(&[6, 1]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InitiativeScore {
    /// The highest die.
    pub highest: Option<i64>,
    /// The second-highest die, which resolves ties.
    pub second: Option<i64>,
}

impl InitiativeScore {
    /// The score of some die values.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::InitiativeScore::of(&[]).highest, None);
    /// ```
    pub fn of(values: &[i64]) -> InitiativeScore {
        let (mut a, mut b) = (None, None);
        for &v in values {
            if a.is_none_or(|x| v > x) {
                b = a;
                a = Some(v);
            } else if b.is_none_or(|x| v > x) {
                b = Some(v);
            }
        }
        InitiativeScore {
            highest: a,
            second: b,
        }
    }
}

impl fmt::Display for InitiativeScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |x: Option<i64>| x.map_or("-".to_owned(), |v| v.to_string());
        write!(f, "{} then {}", s(self.highest), s(self.second))
    }
}

/// Who acts first between two initiative rolls (L45): `Greater` when `a` goes first,
/// `Equal` when they tie on both dice (a re-roll, SW-A12).
///
/// ```
/// use std::cmp::Ordering;
/// assert_eq!(dice_swimclass::initiative_order(&[6, 3], &[6, 2]), Ordering::Greater);
/// assert_eq!(dice_swimclass::initiative_order(&[5, 3, 1], &[5, 3, 6]), Ordering::Less);
/// ```
pub fn initiative_order(a: &[i64], b: &[i64]) -> Ordering {
    InitiativeScore::of(a).cmp(&InitiativeScore::of(b))
}

/// An initiative roll: the caller names the skill standing for "Agility" (SW-A12) and
/// gives its dice.
///
/// ```
/// use dice_swimclass::{Initiative, Rules, SkillDice};
/// use dice_core::Exact;
/// let i = Initiative::new(SkillDice::new(1), &Rules::default());
/// let d = i.distribution()?;
/// assert_eq!(d.len(), 6);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Initiative {
    compiled: Compiled,
    dice: SkillDice,
    rules: Rules,
}

impl Initiative {
    /// The initiative roll of these dice.
    ///
    /// ```
    /// let i = dice_swimclass::Initiative::new(dice_swimclass::SkillDice::new(2), &Default::default());
    /// println!("{i}");
    /// ```
    pub fn new(dice: SkillDice, rules: &Rules) -> Initiative {
        Initiative {
            compiled: dice.compile(rules, 1),
            dice,
            rules: *rules,
        }
    }

    fn score(ev: &Evaluated) -> InitiativeScore {
        let v: Vec<i64> = ev.value[..ev.len].iter().map(|&x| i64::from(x)).collect();
        InitiativeScore::of(&v)
    }
}

impl Roll for Initiative {
    type Outcome = InitiativeScore;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> InitiativeScore {
        let n = self.compiled.rolled();
        let mut nat = [0u8; MAX_POOL as usize];
        roll_naturals(rng, n, &mut nat);
        let mut ev = Evaluated::new();
        self.compiled.evaluate(&nat[..n], &mut ev);
        Self::score(&ev)
    }
}

impl Exact for Initiative {
    fn distribution(&self) -> Result<Dist<InitiativeScore>, dice_core::Error> {
        let mut map = BTreeMap::new();
        enumerate(&self.compiled, |ev, p| {
            *map.entry(Self::score(ev)).or_insert(0.0) += p;
        })
        .map_err(core_error)?;
        Dist::from_pairs(map)
    }
}

impl RollDetailed for Initiative {
    /// Every die; `total` is the highest die (0 with no dice).
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let faces = self.dice.roll_faces(rng, &self.rules);
        if let Ok(dice) = self.dice.apply(&faces, &self.rules) {
            record.dice = dice;
        }
        record.total = record.dice.iter().map(|d| d.value).max().unwrap_or(0);
    }
}

impl fmt::Display for Initiative {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "initiative on {}d6", self.compiled.rolled())
    }
}

/// Which of two characters acts first.
///
/// ```
/// assert_eq!(dice_swimclass::Side::First.to_string(), "first");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Side {
    /// The first character named.
    First,
    /// The second.
    Second,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

/// Two characters' initiative, re-rolled until they differ (SW-A12).
///
/// ```
/// use dice_swimclass::{InitiativeContest, Rules, Side, SkillDice};
/// use dice_core::Exact;
/// let c = InitiativeContest::new(SkillDice::new(2), SkillDice::new(2), &Rules::default())?;
/// let d = c.distribution()?;
/// assert!((d.probability(&Side::First) - 0.5).abs() < 1e-12);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitiativeContest {
    first: Initiative,
    second: Initiative,
}

/// Re-rolls before a tied contest is settled by a coin (unreachable in practice: a tie of
/// two dice has chance below 1/6).
const MAX_REROLLS: u32 = 10_000;

impl InitiativeContest {
    /// Two characters' initiative dice.
    ///
    /// # Errors
    /// [`Error::Combine`] when neither side rolls a die (they would tie for ever).
    ///
    /// ```
    /// use dice_swimclass::{InitiativeContest, Rules, SkillDice};
    /// assert!(InitiativeContest::new(SkillDice::new(0), SkillDice::new(0), &Rules::default()).is_err());
    /// ```
    pub fn new(first: SkillDice, second: SkillDice, rules: &Rules) -> Result<Self, Error> {
        if first.rolled(rules) == 0 && second.rolled(rules) == 0 {
            return Err(Error::Combine {
                what: "an initiative contest needs dice on at least one side",
            });
        }
        Ok(InitiativeContest {
            first: Initiative::new(first, rules),
            second: Initiative::new(second, rules),
        })
    }
}

impl Roll for InitiativeContest {
    type Outcome = Side;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Side {
        for _ in 0..MAX_REROLLS {
            match self.first.roll(rng).cmp(&self.second.roll(rng)) {
                Ordering::Greater => return Side::First,
                Ordering::Less => return Side::Second,
                Ordering::Equal => {}
            }
        }
        if rng.next_u32() & 1 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }
}

impl Exact for InitiativeContest {
    /// P(first) = P(a > b) / (P(a > b) + P(a < b)): the re-rolls condition on no tie.
    fn distribution(&self) -> Result<Dist<Side>, dice_core::Error> {
        let a = self.first.distribution()?;
        let b = self.second.distribution()?;
        let (mut win, mut lose) = (0.0, 0.0);
        for (x, p) in a.iter() {
            for (y, q) in b.iter() {
                match x.cmp(y) {
                    Ordering::Greater => win += p * q,
                    Ordering::Less => lose += p * q,
                    Ordering::Equal => {}
                }
            }
        }
        let t = win + lose;
        Dist::from_pairs([(Side::First, win / t), (Side::Second, lose / t)])
    }
}

impl fmt::Display for InitiativeContest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} against {}", self.first, self.second)
    }
}
