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

/// How many budget units one entry of the unique dice' program costs, per unit of its
/// count: `10d25ku` ran 23 s of one core on an estimate of about 4·10⁹ units before this
/// factor.
const UNIQUE_STEP_COST: f64 = 8.0;

/// Budget units per cell of the count of distinct sets by kept sum (a test and at most one
/// addition): measured at 0.25 to 0.45 ns a unit (`123d128u`: 63 ms for 2.5·10⁸ units,
/// `64d128u`: 30 ms for 6.8·10⁷), left at one since the largest count, 2.7·10⁸ units,
/// is far below the budget.
const UNIQUE_SUBSET_COST: f64 = 1.0;

/// What the program tracks besides the set of values taken: the total (everything kept), or
/// the values kept so far (the `k` best, sorted).
type Summary = Vec<i32>;

/// The chance at or below which the program drops the paths where a die ends on a re-rolled
/// duplicate (all its re-rolls used up) for a roll of `n` dice: `2⁻⁵³/n`, so that all the
/// dice together drop at most `2⁻⁵³`, the rounding of a probability near 1.
fn prune_below(n: u32) -> f64 {
    f64::EPSILON / 2.0 / f64::from(n.max(1))
}

/// What the exact law of a unique roll will do, worked out before any state is built.
#[derive(Clone, Debug)]
struct Plan {
    /// Sides of the die.
    s: u32,
    /// Number of dice.
    n: u32,
    /// Whether the highest `k` are kept (else the lowest).
    top: bool,
    /// How many dice are kept.
    k: u32,
    /// The most re-rolls of one die (`L`).
    l: u32,
    /// The faces whose duplicates are re-rolled: bit `v − 1` for face `v`.
    reroll_mask: u128,
    /// `q^L` at or below which a die's ending on a re-rolled duplicate is dropped.
    prune_below: f64,
    /// How many leading dice surely show distinct values once those paths are dropped.
    distinct: u32,
    /// The work in budget units: exact when `distinct == n`, else a lower bound.
    work: f64,
}

impl Plan {
    /// Whether a die, facing the share `q` of faces that are re-rolled duplicates, drops its
    /// paths ending on one (`0 < q^L ≤ prune_below`; never when every face is one).
    fn prunes(&self, q: f64) -> bool {
        q < 1.0 && powu(q, u64::from(self.l)) <= self.prune_below
    }

    /// The chance of each value that is not a re-rolled duplicate, for a die facing the
    /// share `q` of re-rolled duplicates: `(1/s)·Σ_{i≤L} qⁱ` (ended on an earlier roll, or
    /// on the last); and that of a re-rolled duplicate, `q^L/s` (0 where pruned).
    fn chances(&self, q: f64) -> (f64, f64) {
        let inv = 1.0 / f64::from(self.s);
        let ql = powu(q, u64::from(self.l));
        let geometric = if q < 1.0 {
            (1.0 - ql) / (1.0 - q)
        } else {
            f64::from(self.l)
        };
        let dup = if self.prunes(q) { 0.0 } else { ql * inv };
        (inv * geometric + ql * inv, dup)
    }

    /// Budget units per state and die of the program over sets and summaries.
    fn per_state(&self) -> f64 {
        f64::from(self.s) * (f64::from(self.k.min(8)) + 40.0) * UNIQUE_STEP_COST
    }

    /// A lower bound on the states of the program after `j` dice (`distinct ≤ j < n`): each
    /// set `D` of `d` values (`distinct ≤ d ≤ j`) that a path reaches, with the summaries that
    /// `r = j − d` repeated values can give it. A die may repeat a value of `D` the compare
    /// point does not re-roll, and, where not pruned, any value of `D`; with `f` values to
    /// repeat, the totals number at least `r·(f − 1) + 1` (the sums of `r` values of a set
    /// of `f` integers). The values kept (the `k' = min(k, j)` best), when every value of `D`
    /// may repeat, are exactly counted: they are the `t` best values of `D` with
    /// multiplicities summing to `k'` (a composition of `k'` into `t` parts, which takes
    /// `k' − t ≤ r` repeats), `Σ_t C(k' − 1, t − 1)` for `max(1, k' − r) ≤ t ≤ min(d, k')`;
    /// otherwise at least one.
    fn least_states(&self, j: u32, binomial: &[Vec<f64>]) -> f64 {
        let s = self.s;
        let rerolled = self.reroll_mask.count_ones();
        let kept = s - rerolled;
        let keep_all = self.k == self.n;
        // compositions[t]: the compositions of k' into at most t parts (t ≤ s).
        let kk = self.k.min(j);
        let mut compositions = alloc::vec![0.0; s as usize + 1];
        let mut ways = 1.0; // C(k' − 1, t − 1)
        for t in 1..=s.min(kk) {
            compositions[t as usize] = compositions[t as usize - 1] + ways;
            ways = ways * f64::from(kk - t) / f64::from(t);
        }
        for t in (kk + 1)..=s {
            compositions[t as usize] = compositions[t as usize - 1];
        }
        let mut states = 0.0;
        for d in self.distinct..=j.min(s) {
            let r = j - d;
            for e in 0..=d.min(kept) {
                let b = d - e;
                if b > rerolled {
                    continue;
                }
                let sets =
                    binomial[kept as usize][e as usize] * binomial[rerolled as usize][b as usize];
                let free = if self.prunes(f64::from(b) / f64::from(s)) {
                    e
                } else {
                    d
                };
                let summaries = if r == 0 {
                    1.0
                } else if free == 0 {
                    0.0
                } else if keep_all {
                    f64::from(r) * f64::from(free - 1) + 1.0
                } else if free == d {
                    let most = d.min(kk) as usize;
                    let least = kk.saturating_sub(r).max(1) as usize;
                    if kk == 0 {
                        1.0
                    } else {
                        compositions[most] - compositions[least - 1]
                    }
                } else {
                    1.0
                };
                states += sets * summaries;
            }
        }
        states
    }
}

/// `C(a, b)` for `a, b ≤ s`, as floating point (exact up to 2⁵³, then rounded).
fn binomials(s: u32) -> Vec<Vec<f64>> {
    let mut rows: Vec<Vec<f64>> = Vec::with_capacity(s as usize + 1);
    for a in 0..=s as usize {
        let mut row = alloc::vec![1.0; a + 1];
        for b in 1..a {
            row[b] = rows[a - 1][b - 1] + rows[a - 1][b];
        }
        rows.push(row);
    }
    rows
}

impl Unique {
    /// The plan of the exact law with at most `l` re-rolls and paths ending on a re-rolled
    /// duplicate dropped where `q^L ≤ prune_below`, and its work, before any state is built.
    fn plan(&self, l: u32, prune_below: f64) -> Result<Plan, Error> {
        let s = self.die.sides();
        if s > UNIQUE_MAX_EXACT_SIDES {
            return Err(Error::Unsupported {
                what: "the exact law of unique dice over 128 sides",
            });
        }
        let n = self.count;
        let (top, k) = self.keep.as_top(n);
        let reroll_mask: u128 = (1..=s)
            .filter(|&v| self.rerolls(v))
            .fold(0, |m, v| m | 1u128 << (v - 1));
        let mut plan = Plan {
            s,
            n,
            top,
            k,
            l,
            reroll_mask,
            prune_below,
            distinct: n.min(1),
            work: 0.0,
        };
        // Every face re-rolled: a die facing `i` values taken surely shows a new one while
        // `(i/s)^L` is pruned.
        if reroll_mask.count_ones() == s {
            while plan.distinct < n && plan.prunes(f64::from(plan.distinct) / f64::from(s)) {
                plan.distinct += 1;
            }
        }
        if plan.distinct == n {
            // The count of n-sets by kept sum: s values × (n + 1) counts × (k·s + 1) sums.
            plan.work = f64::from(s)
                * (f64::from(n) + 1.0)
                * (f64::from(k) * f64::from(s) + 1.0)
                * UNIQUE_SUBSET_COST;
            return Ok(plan);
        }
        let binomial = binomials(s);
        let per_state = plan.per_state();
        for j in plan.distinct..n {
            plan.work += plan.least_states(j, &binomial) * per_state;
            if plan.work > crate::MAX_EXACT_WORK as f64 {
                break;
            }
        }
        Ok(plan)
    }

    /// The exact law for [`Exact::distribution`], with the re-roll limit and the pruning
    /// threshold as parameters (the tests try other ones).
    fn law(&self, l: u32, prune_below: f64) -> Result<Dist<i64>, Error> {
        let plan = self.plan(l, prune_below)?;
        check_work("unique dice", plan.work)?;
        let law = if plan.distinct == self.count {
            distinct_law(&plan)
        } else {
            program_law(&plan)?.0
        };
        Ok(law.shift(self.modifier).into_dist(0.0))
    }
}

impl Exact for Unique {
    /// The exact law of the total, up to rounding (the law is finite: no tail).
    ///
    /// A die's final value depends on the earlier dice only through the set `D` of values
    /// they show: with `B` the values of `D` that the compare point re-rolls, `q = |B|/s` and
    /// `L` the most re-rolls (1,000, or 1 for `uo`), it ends on a value outside `B` at its
    /// first such roll among the first `L`, else on its last roll:
    /// `P(v) = [v ∉ B]·(1/s)·Σ_{i<L} qⁱ + q^L/s`.
    ///
    /// A die ends on a re-rolled duplicate only when all its `L` re-rolls were duplicates
    /// too, a chance of `q^{L+1}` (`(14/19)^1001 ≈ 10⁻¹³³` for the 15th d19 of `15d19u`).
    /// Where `q^L ≤ 2⁻⁵³/n` (`n` dice) those paths are dropped: each die drops at most
    /// `2⁻⁵³/n` of the mass, so the probabilities listed are each at most `2⁻⁵³` below the
    /// unpruned ones and sum to at least `1 − 2⁻⁵³` (the rounding of a sum near 1), and
    /// totals reachable only through such paths (a chance below that) are not listed.
    /// Nothing is dropped with `uo` (`q^1` is not that small) nor when every face is a
    /// re-rolled duplicate (`q = 1`: the extra dice of more dice than sides).
    ///
    /// Without a compare point (or with one re-rolling every face), the first dice then show
    /// distinct values for sure, and every set of `m` of them is equally likely (a die's
    /// chances depend only on how many values are taken); when that holds for all `n` dice,
    /// the law is counted over the `C(s, n)` sets directly, by kept sum, in
    /// `s·(n+1)·(k·s+1)` steps (`15d19u`, `12d20u`, `20d20kh5u`, `100d128u` take
    /// milliseconds). Otherwise (`uo`, a compare point, the dice after the first `m` of a
    /// die over 25 sides or beyond its sides), a dynamic program runs over the dice from the
    /// sets of `m` values, with the state `D` (a bit mask) and the total, or the values kept
    /// so far for keep/drop.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for dice over [`UNIQUE_MAX_EXACT_SIDES`] sides;
    /// [`Error::TooComplex`] when the work would exceed [`crate::MAX_EXACT_WORK`]: at once
    /// (before any state is built) when its estimate does (`12d20uo`, `15d19kh5uo`,
    /// `10d25uo`, `125d128u`). The estimate is exact for the sets counted directly and for
    /// the program's kept values when every value may repeat (`uo`, the dice beyond the
    /// first `m` of `u`), and a lower bound on its states otherwise (totals of `uo` or of a
    /// compare point: 20 to 30 % under them in the cases measured); the program also counts
    /// its states as they grow, and refuses within about one die once over (`11d15uo`, after
    /// about 3 s).
    fn distribution(&self) -> Result<Dist<i64>, Error> {
        self.law(self.max_rerolls(), prune_below(self.count))
    }
}

/// The law of the kept total when all `n` dice surely differ: every set of `n` faces is
/// equally likely, so count the sets by kept sum. Faces are taken from the kept end (the
/// highest first when keeping the highest), so the first `k` members a set takes are the
/// ones kept; `ways[c][t]` counts the sets of `c` faces so far whose first `min(c, k)` sum
/// to `t`.
fn distinct_law(plan: &Plan) -> Dense {
    let (s, n, k) = (plan.s as usize, plan.n as usize, plan.k as usize);
    let width = k * s + 1;
    let mut ways = alloc::vec![0.0_f64; (n + 1) * width];
    ways[0] = 1.0;
    for step in 0..s {
        let v = if plan.top { s - step } else { step + 1 };
        for c in (0..n.min(step + 1)).rev() {
            let add = if c < k { v } else { 0 };
            let (lower, upper) = ways.split_at_mut((c + 1) * width);
            let from = &lower[c * width..c * width + c.min(k) * s + 1];
            let to = &mut upper[add..];
            for (t, &w) in from.iter().enumerate() {
                if w != 0.0 {
                    to[t] += w;
                }
            }
        }
    }
    let row = &ways[n * width..];
    // The mass of all dice differing: Π_{i<n} (s − i)·P(one new value | i taken).
    let mass: f64 = (0..plan.n)
        .map(|i| {
            let q = f64::from(i) / f64::from(plan.s);
            f64::from(plan.s - i) * plan.chances(q).0
        })
        .product();
    let sets: f64 = row.iter().sum();
    let lo = row.iter().position(|&w| w != 0.0).unwrap_or(0);
    let hi = row.iter().rposition(|&w| w != 0.0).unwrap_or(0);
    Dense {
        offset: lo as i64,
        p: row[lo..=hi].iter().map(|&w| w / sets * mass).collect(),
    }
}

/// The dynamic program over the dice, from every set of the first `m = plan.distinct`
/// values (equally likely, each with its summary), with the state the set of values taken
/// and the summary; with the work it counted.
fn program_law(plan: &Plan) -> Result<(Dense, f64), Error> {
    let (s, n, k, top) = (plan.s, plan.n, plan.k, plan.top);
    let keep_all = k == n;
    let m = plan.distinct;
    let mut states: BTreeMap<(u128, Summary), f64> = BTreeMap::new();
    // P(one given set of m values) = m!·Π_{i<m} P(one given new value | i taken).
    let start: f64 = (0..m)
        .map(|i| f64::from(i + 1) * plan.chances(f64::from(i) / f64::from(s)).0)
        .product();
    for_each_subset(s, m, |faces| {
        let mut taken = 0u128;
        let mut summary: Summary = if keep_all { alloc::vec![0] } else { Vec::new() };
        for &v in faces {
            taken |= 1u128 << (v - 1);
            if keep_all {
                summary[0] += v as i32;
            } else if k > 0 {
                insert_kept(&mut summary, v as i32, k as usize, top);
            }
        }
        states.insert((taken, summary), start);
    });
    let per_state = plan.per_state();
    let mut work = 0.0;
    for _ in m..n {
        // Each state moves to at most s others; a map insert costs a few dozen steps.
        work += states.len() as f64 * per_state;
        check_work("unique dice", work)?;
        let mut next: BTreeMap<(u128, Summary), f64> = BTreeMap::new();
        for ((taken, summary), w) in states {
            let bad = taken & plan.reroll_mask;
            let (fresh, dup) = plan.chances(f64::from(bad.count_ones()) / f64::from(s));
            for v in 1..=s {
                let bit = 1u128 << (v - 1);
                let pv = if bad & bit == 0 { fresh } else { dup };
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
    let mut pairs: BTreeMap<i64, f64> = BTreeMap::new();
    for ((_, summary), w) in states {
        let total: i64 = summary.iter().map(|&x| i64::from(x)).sum();
        *pairs.entry(total).or_insert(0.0) += w;
    }
    let mut law = Dense {
        offset: 0,
        p: Vec::new(),
    };
    if let (Some((&lo, _)), Some((&hi, _))) = (pairs.first_key_value(), pairs.last_key_value()) {
        law.offset = lo;
        law.p = alloc::vec![0.0; (hi - lo + 1) as usize];
        for (t, w) in pairs {
            law.p[(t - lo) as usize] += w;
        }
    }
    Ok((law, work))
}

/// Calls `f` with every set of `m ≥ 1` faces of `1..=s` (`m ≤ s`), in increasing order.
fn for_each_subset(s: u32, m: u32, mut f: impl FnMut(&[u32])) {
    let m = m as usize;
    let mut faces: Vec<u32> = (1..=m as u32).collect();
    loop {
        f(&faces);
        // The last position that can still move up.
        let Some(i) = (0..m).rev().find(|&i| faces[i] < s - (m - 1 - i) as u32) else {
            return;
        };
        faces[i] += 1;
        for j in i + 1..m {
            faces[j] = faces[j - 1] + 1;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MAX_EXACT_WORK;

    /// A die's final value given the set `taken` of earlier values, by playing the re-roll
    /// loop out as a probability vector: re-roll while the value is a duplicate the compare
    /// point re-rolls, at most `l` times. Where `q^l ≤ prune` (and `q < 1`), the chance of
    /// ending on such a duplicate is dropped.
    fn die_law(u: &Unique, taken: u128, l: u32, prune: f64) -> Vec<f64> {
        let s = u.die().sides();
        let inv = 1.0 / f64::from(s);
        let bad = |v: u32| taken >> (v - 1) & 1 == 1 && u.rerolls(v);
        let mut current = alloc::vec![inv; s as usize + 1];
        current[0] = 0.0;
        let mut done = alloc::vec![0.0; s as usize + 1];
        if taken != 0 {
            for _ in 0..l {
                let mut again = 0.0;
                for v in 1..=s {
                    if bad(v) {
                        again += current[v as usize];
                    } else {
                        done[v as usize] += current[v as usize];
                    }
                }
                current = alloc::vec![again * inv; s as usize + 1];
                current[0] = 0.0;
            }
        }
        let q = f64::from((1..=s).filter(|&v| bad(v)).count() as u32) * inv;
        let dropped = q < 1.0 && q.powi(l as i32) <= prune;
        for v in 1..=s {
            if !(dropped && bad(v)) {
                done[v as usize] += current[v as usize];
            }
        }
        done
    }

    /// The law of the kept total (without the modifier) by enumerating every sequence of
    /// final values, depth first.
    fn enumerated(u: &Unique, l: u32, prune: f64) -> BTreeMap<i64, f64> {
        fn walk(
            u: &Unique,
            l: u32,
            prune: f64,
            seq: &mut Vec<i64>,
            taken: u128,
            w: f64,
            out: &mut BTreeMap<i64, f64>,
        ) {
            if seq.len() == u.count() as usize {
                let mut values = seq.clone();
                *out.entry(kept_sum(&mut values, u.keep())).or_insert(0.0) += w;
                return;
            }
            let law = die_law(u, taken, l, prune);
            for v in 1..=u.die().sides() {
                if law[v as usize] > 0.0 {
                    seq.push(i64::from(v));
                    let next = taken | 1 << (v - 1);
                    walk(u, l, prune, seq, next, w * law[v as usize], out);
                    seq.pop();
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(u, l, prune, &mut Vec::new(), 0, 1.0, &mut out);
        out
    }

    fn unique(n: u32, s: u32, once: bool, only: Option<Comparison>, keep: Keep) -> Unique {
        let mut u = Unique::new(n, Die::new(s).unwrap())
            .unwrap()
            .keeping(keep)
            .unwrap();
        if once {
            u = u.once();
        }
        if let Some(c) = only {
            u = u.only(c);
        }
        u
    }

    /// Checks `u`'s law with `l` re-rolls and threshold `prune` against the enumeration
    /// with the same pruning (to rounding), and against the unpruned enumeration: every
    /// probability within the mass the dice may drop, `(n − 1)·prune`.
    fn check(u: &Unique, l: u32, prune: f64) {
        let law = u.law(l, prune).unwrap();
        assert_eq!(law.tail(), 0.0);
        let pruned = enumerated(u, l, prune);
        let full = enumerated(u, l, 0.0);
        let slack = f64::from(u.count().saturating_sub(1)) * prune;
        for (&o, &q) in &full {
            let p = law.probability(&(o + u.modifier()));
            let r = pruned.get(&o).copied().unwrap_or(0.0);
            assert!(
                (p - r).abs() <= 1e-12 * r.max(1e-3),
                "{u}: {o} has {p}, pruned enumeration {r}"
            );
            assert!(
                p <= q + 1e-12 && q - p <= slack + 1e-12,
                "{u}: {o} has {p}, unpruned {q}"
            );
        }
        for (o, p) in law.iter() {
            assert!(
                full.contains_key(&(o - u.modifier())),
                "{u}: {o} ({p}) cannot happen"
            );
        }
        let total: f64 = full.values().sum();
        assert!(
            total - law.total() <= slack + 1e-12 && law.total() <= total + 1e-12,
            "{u}"
        );
    }

    #[test]
    fn pruned_law_matches_the_enumerated_re_roll_process() {
        use Comparison::{AtLeast, AtMost, Exactly};
        let cases = [
            unique(0, 6, false, None, Keep::All),
            unique(1, 7, false, None, Keep::Highest(1)),
            unique(3, 4, false, None, Keep::All),
            unique(4, 5, false, None, Keep::Highest(2)),
            unique(4, 6, false, None, Keep::DropLowest(1))
                .with_modifier(3)
                .unwrap(),
            unique(5, 6, false, None, Keep::Lowest(2)),
            unique(4, 6, true, None, Keep::Highest(3)),
            unique(4, 4, true, None, Keep::All),
            unique(3, 4, false, Some(Exactly(2)), Keep::All),
            unique(4, 5, false, Some(AtLeast(4)), Keep::Lowest(2)),
            unique(4, 5, true, Some(AtMost(2)), Keep::DropHighest(1)),
            // A compare point every face passes: as without one.
            unique(4, 6, false, Some(AtLeast(1)), Keep::Highest(2)),
            // More dice than sides: the extra dice repeat values.
            unique(5, 3, false, None, Keep::All),
            unique(6, 3, false, None, Keep::DropLowest(2)),
            unique(5, 2, true, None, Keep::Highest(0)),
        ];
        for u in &cases {
            check(u, u.max_rerolls(), prune_below(u.count()));
        }
    }

    #[test]
    fn program_after_the_distinct_dice_matches_enumeration() {
        // Few re-rolls and a coarse threshold, so that the first `m` dice surely differ
        // and later ones may repeat (with `u`, that takes a die over 25 sides).
        for (u, l, prune, m) in [
            (unique(5, 6, false, None, Keep::All), 4, 0.01, 2),
            (unique(5, 6, false, None, Keep::Highest(2)), 4, 0.01, 2),
            (unique(6, 5, false, None, Keep::Lowest(3)), 6, 0.05, 4),
            (unique(6, 4, false, None, Keep::All), 3, 0.2, 3),
        ] {
            assert_eq!(u.plan(l, prune).unwrap().distinct, m, "{u}");
            check(&u, l, prune);
        }
        // With the real threshold: 27d26u repeats a value from the 26th die on.
        let u = unique(27, 26, false, None, Keep::All);
        let plan = u.plan(u.max_rerolls(), prune_below(27)).unwrap();
        assert_eq!(plan.distinct, 25);
        let law = u.distribution().unwrap();
        assert!((law.total() - 1.0).abs() < 1e-12);
        // At least 1..=25 and two more dice.
        assert_eq!(law.iter().next().map(|(o, _)| *o), Some(25 * 26 / 2 + 2));
    }

    #[test]
    fn all_distinct_dice_are_counted_up_front_and_answered() {
        // Every die but the first faces (i/s)^1000 ≤ 2⁻⁵³/n: the work is the count of sets.
        for (u, sets) in [
            (unique(15, 19, false, None, Keep::Highest(5)), true),
            (unique(10, 20, false, None, Keep::All), true),
            (unique(12, 20, false, None, Keep::All), true),
            (unique(8, 19, false, None, Keep::Highest(3)), true),
            (unique(20, 20, false, None, Keep::Highest(5)), true),
            (unique(60, 100, false, None, Keep::DropLowest(10)), true),
            (
                unique(
                    15,
                    19,
                    false,
                    Some(Comparison::AtLeast(1)),
                    Keep::Highest(5),
                ),
                true,
            ),
        ] {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert_eq!(plan.distinct == u.count(), sets, "{u}");
            let (s, n, k) = (f64::from(plan.s), f64::from(plan.n), f64::from(plan.k));
            assert_eq!(
                plan.work,
                s * (n + 1.0) * (k * s + 1.0) * UNIQUE_SUBSET_COST
            );
            let law = u.distribution().unwrap();
            assert!((law.total() - 1.0).abs() < 1e-12, "{u}: {}", law.total());
        }
        // 20d20kh5u: every face but one taken, so the five kept are 16..=20.
        let law = unique(20, 20, false, None, Keep::Highest(5))
            .distribution()
            .unwrap();
        assert!((law.probability(&(16..=20).sum::<i64>()) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn programs_over_budget_are_refused_before_any_state() {
        // `uo`, and `u` with a compare point, keep duplicates: the up-front estimate is a
        // lower bound on the program's work, and these are over the budget by it alone.
        for u in [
            unique(12, 20, true, None, Keep::All),
            unique(15, 19, true, None, Keep::Highest(5)),
            unique(10, 25, true, None, Keep::All),
            unique(13, 20, false, Some(Comparison::AtLeast(3)), Keep::All),
            unique(125, 128, false, None, Keep::All),
        ] {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert!(plan.work > MAX_EXACT_WORK as f64, "{u}: {}", plan.work);
            // The error carries the estimate: the up-front check refused, not the program.
            match u.distribution() {
                Err(Error::TooComplex { work, .. }) => assert_eq!(work, plan.work as u64, "{u}"),
                other => panic!("{u}: {other:?}"),
            }
        }
    }

    #[test]
    fn estimate_is_a_lower_bound_on_the_program() {
        use Comparison::AtLeast;
        for (u, exact) in [
            (unique(6, 8, true, None, Keep::All), false),
            (unique(6, 6, true, None, Keep::Lowest(2)), true),
            (unique(7, 8, true, None, Keep::Highest(3)), true),
            (
                unique(6, 5, true, Some(AtLeast(3)), Keep::DropLowest(2)),
                true,
            ),
            (unique(5, 10, false, Some(AtLeast(4)), Keep::All), true),
            (
                unique(5, 10, false, Some(AtLeast(4)), Keep::Highest(2)),
                false,
            ),
            (unique(7, 4, false, None, Keep::All), true),
            (unique(7, 4, false, None, Keep::Highest(3)), true),
        ] {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert!(plan.distinct < u.count(), "{u}");
            let (law, work) = program_law(&plan).unwrap();
            assert!(
                plan.work <= work,
                "{u}: estimate {} over the work {work}",
                plan.work
            );
            if exact {
                assert_eq!(plan.work, work, "{u}");
            }
            let total: f64 = law.p.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{u}");
        }
    }
}
