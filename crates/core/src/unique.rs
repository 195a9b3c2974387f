//! Unique dice, as rpg-dice-roller's `u` and `uo` modifiers define them: a die showing a
//! value that an earlier die of the roll already shows is re-rolled.
//!
//! The rules (rpg-dice-roller's `UniqueModifier`, `src/modifiers/UniqueModifier.js`):
//!
//! - the dice are taken in the order rolled; the first die is never re-rolled, and each later
//!   die is compared with the final values of the dice before it;
//! - `u` re-rolls a die while its value duplicates an earlier one, at most
//!   [`UNIQUE_MAX_REROLLS`] (1,000) times, and then keeps whatever the last re-roll showed —
//!   so with more dice than sides the extra dice are not unique (once every face is taken,
//!   each later die is re-rolled 1,000 times and ends on a uniform face);
//! - `uo` re-rolls a duplicate once, and keeps the new value whatever it is;
//! - with a compare point (`u=5`, `u>4`) only a duplicate whose value passes it is re-rolled,
//!   and the re-rolling stops as soon as the new value fails it, duplicate or not.
//!
//! In rpg-dice-roller's modifier order, unique comes after explode and re-roll and before keep
//! and drop (`4d6ukh3`: unique first, then keep); [`Unique`] rolls plain dice, then keeps.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use rand::Rng;

use crate::dist::{Dense, Dist};
use crate::error::Error;
use crate::faces::Comparison;
use crate::pool::{check_modifier, check_work, powu};
use crate::record::{DieRoll, RollRecord, Source};
use crate::sum::{Keep, kept_sum, mark_kept};
use crate::{Die, Exact, MAX_DICE, Roll, RollDetailed};

/// The most times `u` re-rolls one die (rpg-dice-roller's `maxIterations`).
pub const UNIQUE_MAX_REROLLS: u32 = 1000;

/// The largest die whose unique roll has an exact law here (the set of values taken so far
/// is a 128-bit mask).
pub const UNIQUE_MAX_EXACT_SIDES: u32 = 128;

/// `count` dice of one size rolled unique (rpg-dice-roller's `NdSu`, `NdSuo`, `NdSu=5`), then
/// kept or dropped, plus a flat modifier: the total is the outcome.
///
/// ```
/// use dice_core::{Die, Exact, Keep, Roll, Unique};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // 3d6u: three different faces (re-rolled until they differ).
/// let three = Unique::new(3, Die::D6)?;
/// let total = three.roll(&mut Xoshiro256PlusPlus::seed_from_u64(1));
/// assert!((6..=15).contains(&total));
/// let law = three.distribution()?;
/// // 6 = 1 + 2 + 3: one set of three faces of the 20, up to the 1,000-re-roll limit.
/// assert!((law.probability(&6) - 1.0 / 20.0).abs() < 1e-12);
///
/// // 4d6uo, keep the highest 3.
/// let once = Unique::new(4, Die::D6)?.once().keeping(Keep::Highest(3))?;
/// assert_eq!(once.to_string(), "4d6uokh3");
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unique {
    count: u32,
    die: Die,
    once: bool,
    only: Option<Comparison>,
    keep: Keep,
    modifier: i64,
}

impl Unique {
    /// `count` dice of `die`, each re-rolled while it duplicates an earlier die (`u`).
    ///
    /// # Errors
    /// [`Error::TooManyDice`] when `count > MAX_DICE`.
    pub fn new(count: u32, die: Die) -> Result<Self, Error> {
        if count > MAX_DICE {
            return Err(Error::TooManyDice {
                count: u64::from(count),
                max: MAX_DICE,
            });
        }
        Ok(Unique {
            count,
            die,
            once: false,
            only: None,
            keep: Keep::All,
            modifier: 0,
        })
    }

    /// Re-roll a duplicate at most once (`uo`).
    pub fn once(mut self) -> Self {
        self.once = true;
        self
    }

    /// Re-roll only duplicates whose value passes `compare` (`u=5`, `u>4`).
    pub fn only(mut self, compare: Comparison) -> Self {
        self.only = Some(compare);
        self
    }

    /// Keeps or drops dice after the unique re-rolls.
    ///
    /// # Errors
    /// [`Error::Keep`] when `keep` names more dice than there are.
    pub fn keeping(mut self, keep: Keep) -> Result<Self, Error> {
        let k = keep.k();
        if k > self.count {
            return Err(Error::Keep {
                k,
                count: self.count,
            });
        }
        self.keep = keep;
        Ok(self)
    }

    /// Adds a flat modifier to the total.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when `|modifier| > MAX_MODIFIER`.
    pub fn with_modifier(mut self, modifier: i64) -> Result<Self, Error> {
        self.modifier = check_modifier("modifier", modifier)?;
        Ok(self)
    }

    /// How many dice.
    pub fn count(&self) -> u32 {
        self.count
    }
    /// Which die.
    pub fn die(&self) -> Die {
        self.die
    }
    /// Whether a duplicate is re-rolled at most once.
    pub fn is_once(&self) -> bool {
        self.once
    }
    /// The compare point, if only some duplicates are re-rolled.
    pub fn compare(&self) -> Option<Comparison> {
        self.only
    }
    /// The keep/drop rule.
    pub fn keep(&self) -> Keep {
        self.keep
    }
    /// The flat modifier.
    pub fn modifier(&self) -> i64 {
        self.modifier
    }

    fn max_rerolls(&self) -> u32 {
        if self.once { 1 } else { UNIQUE_MAX_REROLLS }
    }

    /// Whether a duplicate showing `value` is re-rolled.
    fn rerolls(&self, value: u32) -> bool {
        self.only.is_none_or(|c| c.test(i64::from(value)))
    }

    /// Rolls every die's final value, passing each to `out` in order.
    fn roll_values<R: Rng + ?Sized>(&self, rng: &mut R, mut out: impl FnMut(u32)) {
        // Values taken so far: one bit per face (at most 1000 faces).
        let mut seen = [0u64; 16];
        let has = |seen: &[u64; 16], v: u32| (seen[(v / 64) as usize] >> (v % 64)) & 1 == 1;
        for i in 0..self.count {
            let mut v = self.die.roll_face(rng);
            if i > 0 {
                let mut tries = 0;
                while tries < self.max_rerolls() && self.rerolls(v) && has(&seen, v) {
                    v = self.die.roll_face(rng);
                    tries += 1;
                }
            }
            seen[(v / 64) as usize] |= 1 << (v % 64);
            out(v);
        }
    }
}

impl Roll for Unique {
    /// The kept total plus the modifier.
    type Outcome = i64;

    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let mut values = Vec::with_capacity(self.count as usize);
        self.roll_values(rng, |v| values.push(i64::from(v)));
        kept_sum(&mut values, self.keep) + self.modifier
    }
}

impl RollDetailed for Unique {
    /// Every die's final value (dropped ones flagged), the modifier and the total.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let die = self.die;
        self.roll_values(rng, |v| {
            record.dice.push(DieRoll::new(die, v, Source::Primary));
        });
        mark_kept(record, self.keep);
        record.modifier = self.modifier;
        record.total = record.kept_values().sum::<i64>() + self.modifier;
    }
}

impl rand::distr::Distribution<i64> for Unique {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for Unique {
    /// `3d6u`, `4d6uokh3`, `5d10u=5+2` (rpg-dice-roller's notation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}u", self.count, self.die)?;
        if self.once {
            f.write_str("o")?;
        }
        if let Some(c) = self.only {
            match c {
                Comparison::Exactly(t) => write!(f, "={t}")?,
                other => write!(f, "{other}")?,
            }
        }
        write!(f, "{}", self.keep)?;
        if self.modifier != 0 {
            write!(f, "{:+}", self.modifier)?;
        }
        Ok(())
    }
}

/// What the exact law tracks besides the set of values taken: the total (everything kept),
/// or the values kept so far (the `k` best, sorted).
/// How many budget units one entry of the unique dice' program costs, per unit of its
/// count: `10d25ku` ran 23 s of one core on an estimate of about 4·10⁹ units before this
/// factor.
const UNIQUE_STEP_COST: f64 = 8.0;

type Summary = Vec<i32>;

impl Exact for Unique {
    /// The exact law of the total, up to rounding (the law is finite: no tail).
    ///
    /// A die's final value depends on the earlier dice only through the set `D` of values
    /// they show: with `B` the values of `D` that the compare point re-rolls, `q = |B|/s` and
    /// `L` the most re-rolls (1,000, or 1 for `uo`), it ends on a value outside `B` at its
    /// first such roll among the first `L`, else on its last roll:
    /// `P(v) = [v ∉ B]·(1/s)·Σ_{i<L} qⁱ + q^L/s`. The dynamic program runs over the dice with
    /// the state `D` (a bit mask) and the total, or the values kept so far for keep/drop.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for dice over [`UNIQUE_MAX_EXACT_SIDES`] sides;
    /// [`Error::TooComplex`] when the states would exceed [`crate::MAX_EXACT_WORK`]: at once
    /// when the sets of distinct values alone would (`10d25u`), otherwise as the states grow
    /// (`10d20u` is answered, `12d20u` refused after a few seconds).
    fn distribution(&self) -> Result<Dist<i64>, Error> {
        let s = self.die.sides();
        if s > UNIQUE_MAX_EXACT_SIDES {
            return Err(Error::Unsupported {
                what: "the exact law of unique dice over 128 sides",
            });
        }
        let n = self.count;
        let (top, k) = self.keep.as_top(n);
        let keep_all = k == n;
        let inv = 1.0 / f64::from(s);
        let reroll_mask: u128 = (1..=s)
            .filter(|&v| self.rerolls(v))
            .fold(0, |m, v| m | 1u128 << (v - 1));
        let l = self.max_rerolls();
        let mut states: BTreeMap<(u128, Summary), f64> = BTreeMap::new();
        states.insert((0, if keep_all { alloc::vec![0] } else { Vec::new() }), 1.0);
        // Before any work: after i dice every set of i distinct values is a state of its own
        // (all dice differing has a positive chance), so the work below is at least
        // Σ_{i<n} C(s, i)·s·(…) — refuse at once when that alone is over the budget.
        // A map insert of a set and its summary: measured at about 300 budget units (ns).
        let per_state = f64::from(s) * (f64::from(k.min(8)) + 40.0) * UNIQUE_STEP_COST;
        let (mut sets, mut least) = (1.0_f64, 0.0_f64);
        for i in 0..n.min(s + 1) {
            least += sets * per_state;
            sets = sets * f64::from(s - i) / f64::from(i + 1);
        }
        check_work("unique dice", least)?;
        let mut work = 0.0;
        for _ in 0..n {
            // Each state moves to at most s others; a map insert costs a few dozen steps.
            work += states.len() as f64 * per_state;
            check_work("unique dice", work)?;
            let mut next: BTreeMap<(u128, Summary), f64> = BTreeMap::new();
            for ((taken, summary), w) in states {
                let bad = taken & reroll_mask;
                let q = f64::from(bad.count_ones()) * inv;
                // Σ_{i<L} qⁱ, and q^L.
                let ql = powu(q, u64::from(l));
                let geometric = if q < 1.0 {
                    (1.0 - ql) / (1.0 - q)
                } else {
                    f64::from(l)
                };
                for v in 1..=s {
                    let bit = 1u128 << (v - 1);
                    let pv = if bad & bit == 0 {
                        inv * geometric + ql * inv
                    } else {
                        ql * inv
                    };
                    if pv == 0.0 {
                        continue;
                    }
                    let mut sm = summary.clone();
                    let value = v as i32;
                    if keep_all {
                        sm[0] += value;
                    } else if k > 0 {
                        insert_kept(&mut sm, value, k as usize, top);
                    }
                    *next.entry((taken | bit, sm)).or_insert(0.0) += w * pv;
                }
            }
            states = next;
        }
        let mut law = Dense {
            offset: 0,
            p: Vec::new(),
        };
        let mut pairs: BTreeMap<i64, f64> = BTreeMap::new();
        for ((_, summary), w) in states {
            let total: i64 = summary.iter().map(|&x| i64::from(x)).sum();
            *pairs.entry(total).or_insert(0.0) += w;
        }
        if let (Some((&lo, _)), Some((&hi, _))) = (pairs.first_key_value(), pairs.last_key_value())
        {
            law.offset = lo;
            law.p = alloc::vec![0.0; (hi - lo + 1) as usize];
            for (t, w) in pairs {
                law.p[(t - lo) as usize] += w;
            }
        }
        Ok(law.shift(self.modifier).into_dist(0.0))
    }
}

/// Adds `value` to the sorted kept values `kept` (the `k` highest when `top`, else the `k`
/// lowest), dropping the one that falls out.
fn insert_kept(kept: &mut Vec<i32>, value: i32, k: usize, top: bool) {
    let pos = kept.partition_point(|&x| x < value);
    kept.insert(pos, value);
    if kept.len() > k {
        if top {
            kept.remove(0);
        } else {
            kept.pop();
        }
    }
}
