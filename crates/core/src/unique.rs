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
use crate::pool::{check_modifier, check_work, check_work_within, powu};
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

/// What the map program tracks besides the set of values taken: the values kept so far (the
/// `k` best), sorted.
trait Kept: Ord + Clone {
    /// None kept.
    fn none() -> Self;
    /// Adds `value`, keeping the `k` highest when `top`, else the `k` lowest.
    fn insert(&mut self, value: u32, k: usize, top: bool);
    /// Their sum.
    fn total(&self) -> i64;
}

impl Kept for Vec<i32> {
    fn none() -> Self {
        Vec::new()
    }
    fn insert(&mut self, value: u32, k: usize, top: bool) {
        insert_kept(self, value as i32, k, top);
    }
    fn total(&self) -> i64 {
        self.iter().map(|&x| i64::from(x)).sum()
    }
}

/// Up to 16 values kept (faces 1 to 128), in increasing order, then zeros: a key compared and
/// copied without allocating (`9d20uokh3` over the map took 2.5 s of CPU this way, 3.6 s
/// with a vector).
impl Kept for [u8; 16] {
    fn none() -> Self {
        [0; 16]
    }
    fn insert(&mut self, value: u32, k: usize, top: bool) {
        let len = self.iter().position(|&x| x == 0).unwrap_or(16);
        let v = value as u8;
        let at = self[..len].partition_point(|&x| x < v);
        if len < k.min(16) {
            self.copy_within(at..len, at + 1);
            self[at] = v;
        } else if top {
            // Full: the least falls out, unless it is the new value.
            if at > 0 {
                self.copy_within(1..at, 0);
                self[at - 1] = v;
            }
        } else if at < len {
            // Full, keeping the lowest: the greatest falls out.
            self.copy_within(at..len - 1, at + 1);
            self[at] = v;
        }
    }
    fn total(&self) -> i64 {
        self.iter().map(|&x| i64::from(x)).sum()
    }
}

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
    /// The work in budget units: exact, except for the map program (more than
    /// [`KEPT_PATTERN_MAX`] dice kept, not all), where it is an upper bound when some taken
    /// values cannot repeat (a compare point).
    work: f64,
    /// The most numbers a program over sets holds at once (else 0).
    held: f64,
    /// For a die facing `b` re-rolled values taken (index `b ≤ s`): [`Plan::chances`], and
    /// whether it drops its paths ending on one ([`Plan::prunes`]).
    faced: Vec<(f64, f64, bool)>,
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

    /// The states of the keep/drop program after `j` dice (`distinct ≤ j < n`), exactly when
    /// every value taken may repeat (`uo`, `u` without a compare point), else an upper bound:
    /// each set `D` of `d` values (`distinct ≤ d ≤ j`) that a path reaches, with the values
    /// kept (the `k' = min(k, j)` best) that `r = j − d` repeated values can give it. A die
    /// may repeat a value of `D` the compare point does not re-roll, and, where not pruned,
    /// any value of `D`; the values kept are the `t` best values of `D` with multiplicities
    /// summing to `k'` (a composition of `k'` into `t` parts, which takes `k' − t ≤ r`
    /// repeats): `Σ_t C(k' − 1, t − 1)` for `max(1, k' − r) ≤ t ≤ min(d, k')`, all of them
    /// reached when every value of `D` may repeat (the repeats left over go to its least
    /// value), fewer when only some may. A set none of whose values may repeat has no state
    /// after a repeat.
    fn states(&self, j: u32, binomial: &[Vec<f64>]) -> f64 {
        let s = self.s;
        let rerolled = self.reroll_mask.count_ones();
        let kept = s - rerolled;
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
                } else if kk == 0 {
                    1.0
                } else {
                    let most = d.min(kk) as usize;
                    let least = kk.saturating_sub(r).max(1) as usize;
                    compositions[most] - compositions[least - 1]
                };
                states += sets * summaries;
            }
        }
        states
    }

    /// The values of the set `taken` that a later die may repeat: those the compare point
    /// does not re-roll, and the re-rolled ones too unless a die facing `taken` drops its
    /// paths ending on a re-rolled duplicate. A die facing a subset of `taken` may repeat
    /// only values of this set (it faces fewer re-rolled values, so it drops at least as
    /// much).
    fn repeatable(&self, taken: u128) -> u128 {
        let bad = (taken & self.reroll_mask).count_ones() as usize;
        if self.faced.get(bad).is_none_or(|f| f.2) {
            taken & !self.reroll_mask
        } else {
            taken
        }
    }

    /// Where the totals of the set `taken` lie after `r` dice repeated a value: from
    /// `Σ taken + r·min R` over `r·(max R − min R) + 1` totals, `R` its repeatable values
    /// (no totals when `r > 0` and nothing repeats). Both ends are reached: take the values
    /// of `taken` first, then repeat the least (or the greatest) `r` times; no path does
    /// better, since every repeated value lies in `R`.
    fn set_totals(&self, taken: u128, r: u32) -> (i64, usize) {
        let mut sum = 0i64;
        let mut rest = taken;
        while rest != 0 {
            sum += i64::from(rest.trailing_zeros()) + 1;
            rest &= rest - 1;
        }
        if r == 0 {
            return (sum, 1);
        }
        let rep = self.repeatable(taken);
        if rep == 0 {
            return (sum, 0);
        }
        let least = rep.trailing_zeros() + 1;
        let most = 128 - rep.leading_zeros();
        (
            sum + i64::from(r) * i64::from(least),
            (r * (most - least) + 1) as usize,
        )
    }

    /// The sets of each size the totals program holds, counted by their numbers of values the
    /// compare point keeps (`e`, of the `|A|` such faces) and re-rolls (`b`, of `|B|`): sets
    /// `C(|A|, e)·C(|B|, b)`; a set may repeat its values of `A`, and those of `B` too unless
    /// dropped (which depends on `b` only); the spans `max R − min R` summed over the sets
    /// from each face's count of sets it is the greatest (or least) member of.
    fn shape(&self) -> Shape {
        let s = self.s;
        let top = self.n.min(s) as usize;
        let binomial = binomials(s);
        let choose = |a: u32, b: i64| -> f64 {
            usize::try_from(b)
                .ok()
                .and_then(|b| binomial[a as usize].get(b).copied())
                .unwrap_or(0.0)
        };
        let n_b = self.reroll_mask.count_ones();
        let n_a = s - n_b;
        // Σ (max D − min D) over the sets D with e values of A and b of B (e + b ≥ 1).
        let spans = |e: i64, b: i64| -> f64 {
            let (mut a_below, mut b_below) = (0u32, 0u32);
            let mut total = 0.0;
            for v in 1..=s {
                let in_b = self.reroll_mask >> (v - 1) & 1 == 1;
                let (a_above, b_above) = if in_b {
                    (n_a - a_below, n_b - b_below - 1)
                } else {
                    (n_a - a_below - 1, n_b - b_below)
                };
                let (greatest, least) = if in_b {
                    (
                        choose(a_below, e) * choose(b_below, b - 1),
                        choose(a_above, e) * choose(b_above, b - 1),
                    )
                } else {
                    (
                        choose(a_below, e - 1) * choose(b_below, b),
                        choose(a_above, e - 1) * choose(b_above, b),
                    )
                };
                total += f64::from(v) * (greatest - least);
                if in_b {
                    b_below += 1;
                } else {
                    a_below += 1;
                }
            }
            total
        };
        let mut shape = Shape {
            slots: (0..=top).map(|d| binomial[s as usize][d]).collect(),
            repeating: alloc::vec![0.0; top + 1],
            spans: alloc::vec![0.0; top + 1],
        };
        for b in 0..=n_b.min(top as u32) {
            let dropped = self.prunes(f64::from(b) / f64::from(s));
            for e in 0..=n_a.min(top as u32 - b) {
                let d = (e + b) as usize;
                if d == 0 || (dropped && e == 0) {
                    continue;
                }
                let (e, b) = (i64::from(e), i64::from(b));
                shape.repeating[d] += choose(n_a, e) * choose(n_b, b);
                shape.spans[d] += if dropped {
                    choose(n_b, b) * spans(e, 0)
                } else {
                    spans(e, b)
                };
            }
        }
        shape
    }

    /// The work of a program over sets ([`sets_law`]) exactly as it counts it, and the most
    /// numbers it holds at once, from `entries(d, i)`: of the sets of `d` values after `i`
    /// dice, how many have entries, and how many entries they have in all, at `cost` units
    /// each. The work: for each die after the first `m`, `s` faces times the cost of the
    /// sets held ([`Level::work`]), and that of the sets after the last die once. The
    /// numbers held (entries and each set's two bounds): while it fills the sets of `d`
    /// values after die `i + 1`, the sets of at most `d` values after die `i` and those of
    /// at least `d` after die `i + 1`.
    fn sets_cost(
        &self,
        slots: &[f64],
        entries: impl Fn(u32, u32) -> (f64, f64),
        cost: f64,
    ) -> (f64, f64) {
        let (s, n, m) = (self.s, self.n, self.distinct);
        let level = |d: u32, i: u32| {
            let (filled, entries) = entries(d, i);
            slots[d as usize] * SLOT_COST + filled * SET_COST + entries * cost
        };
        let step = |i: u32| -> f64 { (m..=i.min(s)).map(|d| level(d, i)).sum() };
        let work = (m..n).map(|i| f64::from(s) * step(i)).sum::<f64>() + step(n);
        let words = |d: u32, i: u32| entries(d, i).1 + 2.0 * slots[d as usize];
        let mut most = 0.0_f64;
        let mut before: Vec<f64> = Vec::with_capacity(s as usize + 2);
        for i in m..n {
            let top = (i + 1).min(s);
            // before[d − m]: the sets of at most d values after die i.
            before.clear();
            let mut sum = 0.0;
            for d in m..=top {
                if d <= i {
                    sum += words(d, i);
                }
                before.push(sum);
            }
            let mut after = 0.0;
            for d in (m..=top).rev() {
                after += words(d, i + 1);
                most = most.max(before[(d - m) as usize] + after);
            }
        }
        (work, most)
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
            held: 0.0,
            faced: Vec::new(),
        };
        plan.faced = (0..=s)
            .map(|b| {
                let q = f64::from(b) / f64::from(s);
                let (fresh, dup) = plan.chances(q);
                (fresh, dup, plan.prunes(q))
            })
            .collect();
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
        if k == n {
            let shape = plan.shape();
            let entries = |d: u32, i: u32| {
                let filled = if i == d {
                    shape.slots[d as usize]
                } else {
                    shape.repeating[d as usize]
                };
                (filled, shape.entries(d, i - d))
            };
            (plan.work, plan.held) = plan.sets_cost(&shape.slots, entries, TOTAL_ENTRY_COST);
            return Ok(plan);
        }
        if k <= KEPT_PATTERN_MAX {
            // Every set of each size, with 2^(k' − 1) patterns of values kept.
            let binomial = binomials(s);
            let slots = &binomial[s as usize];
            let entries = |d: u32, i: u32| {
                let sets = slots[d as usize];
                (sets, sets * f64::from(1u32 << k.min(i).saturating_sub(1)))
            };
            (plan.work, plan.held) = plan.sets_cost(slots, entries, KEPT_ENTRY_COST);
            return Ok(plan);
        }
        // The whole sum, even once over the budget: the refusal reports it. From `s + k`
        // dice on, every set has had `k` repeats or more, and the states stay as many.
        let binomial = binomials(s);
        let per_state = plan.per_state();
        let last = n.min(s + k + 1);
        let mut states = 0.0;
        for j in plan.distinct..last {
            states = plan.states(j, &binomial);
            plan.work += states * per_state;
        }
        plan.work += f64::from(n - last.max(plan.distinct)) * states * per_state;
        Ok(plan)
    }

    /// The exact law for [`Exact::distribution`], with the re-roll limit and the pruning
    /// threshold as parameters (the tests try other ones).
    fn law(&self, l: u32, prune_below: f64) -> Result<Dist<i64>, Error> {
        self.law_within(l, prune_below, crate::MAX_EXACT_WORK as f64)
    }

    /// [`Unique::law`] refused at once when its estimate is over `limit` budget units.
    fn law_within(&self, l: u32, prune_below: f64, limit: f64) -> Result<Dist<i64>, Error> {
        let plan = self.plan(l, prune_below)?;
        check_work_within("unique dice", plan.work, limit)?;
        if plan.held > UNIQUE_MAX_HELD as f64 {
            return Err(Error::TooComplex {
                what: "unique dice (numbers held at once)",
                work: plan.held as u64,
                max: UNIQUE_MAX_HELD,
            });
        }
        let law = if plan.distinct == self.count {
            distinct_law(&plan)
        } else {
            program(&plan)?.0
        };
        Ok(law.shift(self.modifier).into_dist(0.0))
    }
}

impl Unique {
    /// [`Exact::distribution`] with a smaller work budget: refused with
    /// [`Error::TooComplex`], before any state is built, when the estimate of the work is
    /// over `max_work` budget units (at most [`crate::MAX_EXACT_WORK`]); for a caller with a
    /// budget of its own (dice-notation's, for a whole expression, is a tenth of
    /// dice-core's).
    ///
    /// # Errors
    /// As [`Exact::distribution`], with `max_work` as the work limit.
    ///
    /// ```
    /// use dice_core::{Die, Error, Exact, Unique};
    /// let u = Unique::new(12, Die::new(20)?)?.once();
    /// assert!(matches!(u.distribution_within(1_000), Err(Error::TooComplex { max: 1_000, .. })));
    /// let small = Unique::new(3, Die::D6)?.once();
    /// assert_eq!(small.distribution_within(1_000_000)?, small.distribution()?);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn distribution_within(&self, max_work: u64) -> Result<Dist<i64>, Error> {
        let limit = max_work.min(crate::MAX_EXACT_WORK) as f64;
        self.law_within(self.max_rerolls(), prune_below(self.count), limit)
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
    /// sets of `m` values, its state the set `D` (a bit mask), each set holding a dense
    /// vector: when every die is kept, the chances of its totals (after `r` repeats they lie
    /// in `Σ D + r·[min R, max R]`, `R` the values of `D` that may repeat); for keep/drop of
    /// at most 8 dice, those of its values kept (the `t` best values of `D`, each with a
    /// multiplicity, told apart by `k − 1` bits: where the value changes). Every set of each
    /// size has a place, so the work and the memory are known before the work (`11d15uo`:
    /// 0.05 s of CPU, `12d20uo` 1.8 s, `9d20uokh3` 0.3 s, `15d19kh5uo` 4.8 s). With more
    /// than 8 dice kept and not all, it runs over a map of (set, values kept).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for dice over [`UNIQUE_MAX_EXACT_SIDES`] sides;
    /// [`Error::TooComplex`], at once (before any state is built) and with the whole
    /// estimate, when the work would exceed [`crate::MAX_EXACT_WORK`] (`12d30uo`,
    /// `20d20kh5uo`, `125d128u`), or the numbers held at once 2²⁶, 512 MiB (`10d25uo`,
    /// `14d20uo`). The estimate is exact, except for the map with a compare point, where it
    /// is an upper bound (its values kept counted as if every value taken could repeat).
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

/// The programs over sets ([`sets_law`]): budget units per set and face, besides its
/// entries, for a set with entries (finding the set a new value leads to, reaching it: the
/// sets' layout is too large for the caches, 20 to 30 ns in all), and for any set (stepping
/// to the next). Measured with `12d20uo`, `10d20uo`, `9d20uokh3`, `12d18uokh2` (release,
/// CPU time, a loaded machine).
const SET_COST: f64 = 24.0;
/// See [`SET_COST`].
const SLOT_COST: f64 = 2.0;

/// Budget units per entry and face of the totals program (one multiply-add; 0.4 ns
/// measured with `100d10uo`, `30d12uo`, `13d20uo`).
const TOTAL_ENTRY_COST: f64 = 0.5;

/// Budget units per entry and face of the kept values program (finding where the value goes
/// among those kept, writing the new pattern; 1 to 5 ns measured with `9d20uokh3`,
/// `10d20uokh5`, `15d19uokh5`, `17d20uokh4`, the more the larger the sets' layout).
const KEPT_ENTRY_COST: f64 = 5.0;

/// The most dice kept for which the kept values program holds every pattern of each set
/// (`2^(k − 1)`); beyond, the program over a map of (set, values kept) runs.
const KEPT_PATTERN_MAX: u32 = 8;

/// The most numbers (eight bytes each) a program over sets may hold at once: 2²⁶, 512 MiB
/// (within the budget the totals program could need several GiB: `11d25uo` about 3.8).
const UNIQUE_MAX_HELD: u64 = 1 << 26;

/// The sets of each size `d ≤ min(n, s)` in the totals program, summed over the sets.
#[derive(Clone, Debug)]
struct Shape {
    /// `C(s, d)`: every set of `d` values has a slot.
    slots: Vec<f64>,
    /// The sets of `d` values that have a value a later die may repeat.
    repeating: Vec<f64>,
    /// `Σ (max R − min R)` over those sets, `R` the values that may repeat.
    spans: Vec<f64>,
}

impl Shape {
    /// The entries of the sets of `d` values after `r` dice repeated a value: one total a
    /// set when none did, else `r·(max R − min R) + 1` for each set that can repeat.
    fn entries(&self, d: u32, r: u32) -> f64 {
        let d = d as usize;
        if r == 0 {
            self.slots[d]
        } else {
            f64::from(r) * self.spans[d] + self.repeating[d]
        }
    }
}

/// What each set of a program over sets holds, and how a die's value moves it.
trait Entries {
    /// Budget units per entry and face.
    const COST: f64;
    /// The entries of the set `taken` after `i` dice, `r` of them repeating a value: a
    /// bound (the least total, or 0) and how many.
    fn layout(&self, taken: u128, i: u32, r: u32) -> (i64, usize);
    /// Adds `pv` times the entries `from` (bound `from_lo`) of the set `taken` after `i`
    /// dice, moved by a die showing `v`, into `to` (bound `to_lo`), the entries of
    /// `taken ∪ {v}` after `i + 1` dice.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &self,
        taken: u128,
        i: u32,
        v: u32,
        pv: f64,
        from: &[f64],
        from_lo: i64,
        to: &mut [f64],
        to_lo: i64,
    );
    /// The kept total of entry `e` of the set `taken` (bound `lo`) after the last die.
    fn total(&self, taken: u128, lo: i64, e: usize) -> i64;
    /// The entry of a set of `m` values after `m` dice (all distinct).
    fn distinct(&self, m: u32) -> usize;
}

/// Every die kept: a set's entries are the chances of its totals, from its least
/// ([`Plan::set_totals`]).
struct Totals<'a>(&'a Plan);

impl Entries for Totals<'_> {
    const COST: f64 = TOTAL_ENTRY_COST;
    fn layout(&self, taken: u128, _: u32, r: u32) -> (i64, usize) {
        self.0.set_totals(taken, r)
    }
    fn add(
        &self,
        _: u128,
        _: u32,
        v: u32,
        pv: f64,
        from: &[f64],
        from_lo: i64,
        to: &mut [f64],
        to_lo: i64,
    ) {
        add_scaled(to, from_lo + i64::from(v) - to_lo, from, pv);
    }
    fn total(&self, _: u128, lo: i64, e: usize) -> i64 {
        lo + e as i64
    }
    fn distinct(&self, _: u32) -> usize {
        0
    }
}

/// Keep/drop of `k ≤` [`KEPT_PATTERN_MAX`] dice: after `i` dice the `k' = min(k, i)` values
/// kept are the `t` best values of the set taken (every value taken shows once at least),
/// the best first, with multiplicities; they are told apart by their pattern, `k' − 1` bits
/// where bit `p` tells whether the `p + 1`-th and `p + 2`-th values kept differ, and a set's
/// entries are the chances of its `2^(k' − 1)` patterns (those with more than `|D|` values
/// kept, or more repeats than were rolled, stay at zero).
struct KeptPatterns<'a>(&'a Plan);

impl KeptPatterns<'_> {
    /// The values kept after `i` dice.
    fn kept(&self, i: u32) -> usize {
        self.0.k.min(i) as usize
    }

    /// The values kept, best first, of the set `taken` with pattern `pattern`, `len` of them.
    fn decode(&self, taken: u128, pattern: usize, len: usize) -> [u32; 16] {
        let mut best = [0u32; 16];
        let mut rest = taken;
        for b in best.iter_mut().take(len) {
            if rest == 0 {
                break;
            }
            let bit = if self.0.top {
                127 - rest.leading_zeros()
            } else {
                rest.trailing_zeros()
            };
            *b = bit + 1;
            rest &= !(1u128 << bit);
        }
        let mut kept = [0u32; 16];
        let mut g = 0;
        for (p, slot) in kept.iter_mut().enumerate().take(len) {
            if p > 0 && pattern >> (p - 1) & 1 == 1 {
                g += 1;
            }
            *slot = best[g];
        }
        kept
    }
}

impl Entries for KeptPatterns<'_> {
    const COST: f64 = KEPT_ENTRY_COST;
    fn layout(&self, _: u128, i: u32, _: u32) -> (i64, usize) {
        (0, 1 << self.kept(i).saturating_sub(1))
    }
    fn add(
        &self,
        taken: u128,
        i: u32,
        v: u32,
        pv: f64,
        from: &[f64],
        _: i64,
        to: &mut [f64],
        _: i64,
    ) {
        let (len, full) = (self.kept(i), self.kept(i) == self.kept(i + 1));
        // The values of `taken` better than `v`, and whether `v` is one of them: `v` goes
        // in before the first value kept that it beats, the first of group `g` (the groups
        // of equal values kept, one a value of `taken`, best first).
        let bit = 1u128 << (v - 1);
        let equal = taken & bit != 0;
        let better = if self.0.top {
            taken.checked_shr(v).unwrap_or(0).count_ones()
        } else {
            (taken & (bit - 1)).count_ones()
        };
        let g = better + u32::from(equal);
        for (pattern, &w) in from.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            // Where group g starts: after the g-th change of value, if there are that many.
            let at = if g == 0 {
                0
            } else if g > pattern.count_ones() {
                len
            } else {
                let mut rest = pattern;
                for _ in 1..g {
                    rest &= rest - 1;
                }
                rest.trailing_zeros() as usize + 1
            };
            let next = if at >= len && full {
                pattern
            } else {
                // Insert v at `at`: it differs from the value after it, and from the one
                // before unless it equals it; the last value falls out when all k are kept.
                let low = (1usize << at.saturating_sub(1)) - 1;
                let mut next = (pattern & low) | (pattern >> at) << (at + 1);
                if at > 0 && !equal {
                    next |= 1 << (at - 1);
                }
                if at < len {
                    next |= 1 << at;
                }
                if full {
                    next &= (1 << (len - 1)) - 1;
                }
                next
            };
            if let Some(t) = to.get_mut(next) {
                *t += pv * w;
            }
        }
    }
    fn total(&self, taken: u128, _: i64, e: usize) -> i64 {
        let len = self.kept(self.0.n);
        self.decode(taken, e, len)[..len]
            .iter()
            .map(|&c| i64::from(c))
            .sum()
    }
    fn distinct(&self, m: u32) -> usize {
        // All the values kept differ.
        (1 << self.kept(m).saturating_sub(1)) - 1
    }
}

/// The sets of `d` values after some dice, in colex order (their masks increasing), each
/// with its entries: set `i` has bound `lo[i]` and entries `p[start[i]..start[i + 1]]`.
struct Level {
    d: u32,
    lo: Vec<i64>,
    start: Vec<usize>,
    p: Vec<f64>,
}

impl Level {
    /// The sets of `d` values after `i` dice (`i − d` of them repeats), every chance zero.
    fn new<E: Entries>(entries: &E, d: u32, i: u32, slots: usize) -> Level {
        let mut lo = Vec::with_capacity(slots);
        let mut start = Vec::with_capacity(slots + 1);
        start.push(0);
        let mut end = 0;
        for_each_mask(d, slots, |mask| {
            let (least, width) = entries.layout(mask, i, i - d);
            lo.push(least);
            end += width;
            start.push(end);
        });
        Level {
            d,
            lo,
            start,
            p: alloc::vec![0.0; end],
        }
    }

    /// The budget units this level costs, with `faces` faces tried from each set, at
    /// `cost` units an entry.
    fn work(&self, faces: u32, cost: f64) -> f64 {
        let filled = self.start.windows(2).filter(|w| w[1] > w[0]).count();
        f64::from(faces)
            * (self.lo.len() as f64 * SLOT_COST
                + filled as f64 * SET_COST
                + self.p.len() as f64 * cost)
    }

    /// The numbers it holds (eight bytes each): its entries and each set's two bounds.
    fn held(&self) -> f64 {
        (self.p.len() + 2 * self.lo.len()) as f64
    }
}

/// Calls `f` with the first `count` sets of `d` bits in increasing order (colex order of the
/// sets), by Gosper's rule.
fn for_each_mask(d: u32, count: usize, mut f: impl FnMut(u128)) {
    let mut mask: u128 = if d >= 128 {
        u128::MAX
    } else {
        (1u128 << d) - 1
    };
    for i in 0..count {
        f(mask);
        if i + 1 < count {
            let low = mask & mask.wrapping_neg();
            let ripple = mask.wrapping_add(low);
            mask = (((ripple ^ mask) >> 2) >> low.trailing_zeros()) | ripple;
        }
    }
}

/// Adds `scale · from` into `to` from index `at` (which the layout keeps in range).
fn add_scaled(to: &mut [f64], at: i64, from: &[f64], scale: f64) {
    debug_assert!(at >= 0 && at as usize + from.len() <= to.len());
    let Ok(at) = usize::try_from(at) else {
        return;
    };
    for (t, &x) in to.iter_mut().skip(at).zip(from) {
        *t += scale * x;
    }
}

/// A dynamic program over the dice whose state is the set of values taken, a bit mask, each
/// set holding its entries (`E`: the chances of its totals, or of its values kept). The
/// sets of each size are laid out in colex order (a set's place is its rank
/// `Σ_j C(c_j, j + 1)`, `c_0 < c_1 < …` its values less one), every set of a size that can
/// occur has a place, and the entries of each are known before the work, so the work it
/// counts is [`Plan::sets_cost`]'s. Returns the law, that work and the most numbers held at
/// once.
fn sets_law<E: Entries>(plan: &Plan, entries: &E) -> Result<(Dense, f64, f64), Error> {
    let (s, n, m) = (plan.s, plan.n, plan.distinct);
    // C(a, b) for a ≤ s, b ≤ s + 1, exact while the levels fit the budget.
    let mut choose = alloc::vec![alloc::vec![0u64; s as usize + 2]; s as usize + 1];
    for a in 0..=s as usize {
        choose[a][0] = 1;
        for b in 1..=a {
            choose[a][b] = choose[a - 1][b - 1].saturating_add(choose[a - 1][b]);
        }
    }
    let slots = |d: u32| -> Result<usize, Error> {
        usize::try_from(choose[s as usize][d as usize]).map_err(|_| Error::TooComplex {
            what: "unique dice",
            work: u64::MAX,
            max: crate::MAX_EXACT_WORK,
        })
    };
    // P(one given set of m values) = m!·Π_{i<m} P(one given new value | i taken).
    let start: f64 = (0..m)
        .map(|i| f64::from(i + 1) * plan.chances(f64::from(i) / f64::from(s)).0)
        .product();
    let mut first = Level::new(entries, m, m, slots(m)?);
    let at = entries.distinct(m);
    for set in first.start.windows(2) {
        if let Some(p) = first.p[set[0]..set[1]].get_mut(at) {
            *p = start;
        }
    }
    // The levels after `i` dice, by increasing size.
    let mut levels = alloc::vec![first];
    let mut work = 0.0;
    let mut most_held = 0.0_f64;
    let mut bits: Vec<u32> = Vec::with_capacity(s as usize);
    let mut below: Vec<u64> = Vec::with_capacity(s as usize + 1);
    let mut above: Vec<u64> = Vec::with_capacity(s as usize + 1);
    for i in m..n {
        work += levels.iter().map(|l| l.work(s, E::COST)).sum::<f64>();
        check_work("unique dice", work)?;
        let mut made = Vec::with_capacity(levels.len() + 1);
        for d in (m..=(i + 1).min(s)).rev() {
            let mut to = Level::new(entries, d, i + 1, slots(d)?);
            let held = levels.iter().chain(&made).map(Level::held).sum::<f64>() + to.held();
            most_held = most_held.max(held);
            // A set repeating one of its values.
            let same = if levels.last().is_some_and(|l| l.d == d) {
                levels.pop()
            } else {
                None
            };
            if let Some(from) = same {
                let mut rank = 0;
                for_each_mask(d, from.lo.len(), |mask| {
                    let here = &from.p[from.start[rank]..from.start[rank + 1]];
                    let bad = mask & plan.reroll_mask;
                    let (fresh, dup, _) = plan.faced[bad.count_ones() as usize];
                    let target = &mut to.p[to.start[rank]..to.start[rank + 1]];
                    let mut rep = if here.is_empty() {
                        0
                    } else {
                        plan.repeatable(mask)
                    };
                    while rep != 0 {
                        let v = rep.trailing_zeros();
                        rep &= rep - 1;
                        let pv = if bad >> v & 1 == 1 { dup } else { fresh };
                        let (from_lo, to_lo) = (from.lo[rank], to.lo[rank]);
                        entries.add(mask, i, v + 1, pv, here, from_lo, target, to_lo);
                    }
                    rank += 1;
                });
            }
            // A set of d − 1 values taking a new one.
            if let Some(from) = levels.last().filter(|l| d > m && l.d == d - 1) {
                let mut rank = 0;
                for_each_mask(d - 1, from.lo.len(), |mask| {
                    let here = &from.p[from.start[rank]..from.start[rank + 1]];
                    if !here.is_empty() {
                        let bad = mask & plan.reroll_mask;
                        let fresh = plan.faced[bad.count_ones() as usize].0;
                        bits.clear();
                        let mut rest = mask;
                        while rest != 0 {
                            bits.push(rest.trailing_zeros());
                            rest &= rest - 1;
                        }
                        // Inserting value c + 1 after the first j members moves the rest
                        // up one place: below[j] + C(c, j + 1) + above[j].
                        below.clear();
                        below.push(0);
                        for (j, &c) in bits.iter().enumerate() {
                            below.push(below[j] + choose[c as usize][j + 1]);
                        }
                        above.clear();
                        above.resize(bits.len() + 1, 0);
                        for (j, &c) in bits.iter().enumerate().rev() {
                            above[j] = above[j + 1] + choose[c as usize][j + 2];
                        }
                        let mut j = 0;
                        for c in 0..s {
                            if j < bits.len() && bits[j] == c {
                                j += 1;
                                continue;
                            }
                            let place = (below[j] + choose[c as usize][j + 1] + above[j]) as usize;
                            let target = &mut to.p[to.start[place]..to.start[place + 1]];
                            let (from_lo, to_lo) = (from.lo[rank], to.lo[place]);
                            entries.add(mask, i, c + 1, fresh, here, from_lo, target, to_lo);
                        }
                    }
                    rank += 1;
                });
            }
            made.push(to);
        }
        made.reverse();
        levels = made;
    }
    work += levels.iter().map(|l| l.work(1, E::COST)).sum::<f64>();
    // Each total sums the chances of up to millions of sets: compensated.
    let mut sums: Vec<(f64, f64)> = Vec::new();
    for l in &levels {
        let mut rank = 0;
        for_each_mask(l.d, l.lo.len(), |mask| {
            let here = &l.p[l.start[rank]..l.start[rank + 1]];
            for (e, &w) in here.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                let Ok(t) = usize::try_from(entries.total(mask, l.lo[rank], e)) else {
                    continue;
                };
                if sums.len() <= t {
                    sums.resize(t + 1, (0.0, 0.0));
                }
                compensated_add(&mut sums[t], w);
            }
            rank += 1;
        });
    }
    let lo = sums.iter().position(|&(w, _)| w != 0.0).unwrap_or(0);
    let law = Dense {
        offset: lo as i64,
        p: sums[lo..].iter().map(|&(sum, carry)| sum + carry).collect(),
    };
    Ok((law, work, most_held))
}

/// The dynamic program for the law once dice may repeat values: over sets with the chances
/// of their totals ([`Totals`]) when every die is kept, with those of their values kept
/// ([`KeptPatterns`]) for at most [`KEPT_PATTERN_MAX`] kept, else over a map of (set,
/// values kept). With the work it counted and the most numbers it held at once (0 for the
/// map).
fn program(plan: &Plan) -> Result<(Dense, f64, f64), Error> {
    if plan.k == plan.n {
        sets_law(plan, &Totals(plan))
    } else if plan.k <= KEPT_PATTERN_MAX {
        sets_law(plan, &KeptPatterns(plan))
    } else {
        let (law, work) = program_law(plan)?;
        Ok((law, work, 0.0))
    }
}

/// The dynamic program for keep/drop over the dice, from every set of the first
/// `m = plan.distinct` values (equally likely, each with the values it keeps), with the state
/// the set of values taken and the values kept so far; with the work it counted.
fn program_law(plan: &Plan) -> Result<(Dense, f64), Error> {
    if plan.k <= 16 {
        program_law_as::<[u8; 16]>(plan)
    } else {
        program_law_as::<Vec<i32>>(plan)
    }
}

/// [`program_law`] with the values kept held as `K`.
fn program_law_as<K: Kept>(plan: &Plan) -> Result<(Dense, f64), Error> {
    let (s, n, k, top) = (plan.s, plan.n, plan.k, plan.top);
    let m = plan.distinct;
    let mut states: BTreeMap<(u128, K), f64> = BTreeMap::new();
    // P(one given set of m values) = m!·Π_{i<m} P(one given new value | i taken).
    let start: f64 = (0..m)
        .map(|i| f64::from(i + 1) * plan.chances(f64::from(i) / f64::from(s)).0)
        .product();
    for_each_subset(s, m, |faces| {
        let mut taken = 0u128;
        let mut summary = K::none();
        for &v in faces {
            taken |= 1u128 << (v - 1);
            if k > 0 {
                summary.insert(v, k as usize, top);
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
        let mut next: BTreeMap<(u128, K), f64> = BTreeMap::new();
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
                if k > 0 {
                    sm.insert(v, k as usize, top);
                }
                *next.entry((taken | bit, sm)).or_insert(0.0) += w * pv;
            }
        }
        states = next;
    }
    // Compensated sums (Neumaier) of many states into each total.
    let mut pairs: BTreeMap<i64, (f64, f64)> = BTreeMap::new();
    for ((_, summary), w) in states {
        compensated_add(pairs.entry(summary.total()).or_insert((0.0, 0.0)), w);
    }
    let mut law = Dense {
        offset: 0,
        p: Vec::new(),
    };
    if let (Some((&lo, _)), Some((&hi, _))) = (pairs.first_key_value(), pairs.last_key_value()) {
        law.offset = lo;
        law.p = alloc::vec![0.0; (hi - lo + 1) as usize];
        for (t, (sum, carry)) in pairs {
            law.p[(t - lo) as usize] = sum + carry;
        }
    }
    Ok((law, work))
}

/// Adds `x` to the sum `acc.0` with its rounding errors gathered in `acc.1` (Neumaier), so
/// that the sum of many chances is off by a few roundings, not by their number's worth.
fn compensated_add(acc: &mut (f64, f64), x: f64) {
    let (sum, carry) = acc;
    let t = *sum + x;
    *carry += if sum.abs() >= x.abs() {
        (*sum - t) + x
    } else {
        (x - t) + *sum
    };
    *sum = t;
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
    use crate::faces::FaceSet;

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
    fn totals_program_matches_the_enumerated_re_roll_process() {
        use Comparison::{AtLeast, AtMost, Exactly, OneOf};
        let two_and_five = FaceSet::new([2, 5]).unwrap();
        // Every die kept, dice that may repeat values: `uo`, compare points (`u`'s pruned
        // re-rolled values, `uo`'s not), more dice than sides.
        let cases = [
            unique(5, 4, true, None, Keep::All),
            unique(4, 7, true, None, Keep::All)
                .with_modifier(-2)
                .unwrap(),
            unique(6, 3, true, None, Keep::DropLowest(0)),
            unique(5, 5, false, Some(AtMost(2)), Keep::All),
            unique(4, 6, false, Some(Exactly(6)), Keep::All),
            unique(4, 6, true, Some(AtLeast(4)), Keep::All),
            unique(5, 3, false, Some(AtLeast(2)), Keep::All),
            unique(4, 6, false, Some(OneOf(two_and_five)), Keep::Highest(4)),
            unique(2, 5, true, None, Keep::All),
        ];
        for u in &cases {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert!(plan.k == plan.n && plan.distinct < plan.n, "{u}");
            check(u, u.max_rerolls(), prune_below(u.count()));
        }
    }

    #[test]
    fn totals_program_matches_the_kept_values_program() {
        use Comparison::{AtLeast, AtMost};
        // Larger than enumeration reaches: the keep/drop program keeping every value (sorted)
        // is a second, independent program for the same law.
        for u in [
            unique(7, 12, true, None, Keep::All),
            unique(6, 9, false, Some(AtLeast(4)), Keep::All),
            unique(9, 5, true, Some(AtMost(3)), Keep::All),
        ] {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert!(plan.k == plan.n && plan.distinct < plan.n, "{u}");
            let (law, _, _) = sets_law(&plan, &Totals(&plan)).unwrap();
            same_as_map_program(&u, &plan, &law);
        }
    }

    /// Asserts that `law` (from the program set by set) is the map program's, entry by entry.
    fn same_as_map_program(u: &Unique, plan: &Plan, law: &Dense) {
        let (other, _) = program_law(plan).unwrap();
        assert_eq!(law.offset, other.offset, "{u}");
        assert_eq!(law.p.len(), other.p.len(), "{u}");
        for (i, (&p, &q)) in law.p.iter().zip(&other.p).enumerate() {
            assert!((p - q).abs() <= 1e-12 * q, "{u}: total {i} has {p} and {q}");
        }
    }

    #[test]
    fn kept_values_program_matches_the_map_program() {
        use Comparison::{AtLeast, AtMost, Exactly};
        // Larger than enumeration reaches: the program over a map of (set, values kept) is a
        // second, independent program for the same law.
        for u in [
            unique(7, 12, true, None, Keep::Highest(3)),
            unique(8, 9, false, Some(AtLeast(5)), Keep::Lowest(4)),
            unique(9, 6, true, None, Keep::Highest(8)),
            unique(7, 7, true, Some(Exactly(3)), Keep::DropHighest(5)),
            unique(10, 5, false, Some(AtMost(2)), Keep::DropLowest(9)),
            unique(6, 8, true, None, Keep::Highest(0)),
        ] {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert!(plan.k < plan.n && plan.distinct < plan.n, "{u}");
            let (law, _, _) = sets_law(&plan, &KeptPatterns(&plan)).unwrap();
            same_as_map_program(&u, &plan, &law);
        }
    }

    #[test]
    fn estimates_match_or_bound_the_work_counted() {
        use Comparison::{AtLeast, AtMost, Exactly};
        // (the roll, whether the estimate is exact rather than an upper bound)
        for (u, exact) in [
            // Every die kept, or at most 8 kept: programs over sets, the work and the
            // numbers held counted exactly.
            (unique(6, 8, true, None, Keep::All), true),
            (unique(7, 4, false, None, Keep::All), true),
            (unique(5, 10, false, Some(AtLeast(4)), Keep::All), true),
            (unique(6, 5, false, Some(Exactly(3)), Keep::All), true),
            (unique(8, 6, true, Some(AtMost(4)), Keep::All), true),
            (unique(6, 6, true, None, Keep::Lowest(2)), true),
            (unique(7, 8, true, None, Keep::Highest(3)), true),
            (
                unique(6, 5, true, Some(AtLeast(3)), Keep::DropLowest(2)),
                true,
            ),
            (unique(7, 4, false, None, Keep::Highest(3)), true),
            (
                unique(5, 10, false, Some(AtLeast(4)), Keep::Highest(2)),
                true,
            ),
            // More kept, over a map: exact when every value taken may repeat, an upper
            // bound otherwise.
            (unique(10, 4, true, None, Keep::Highest(9)), true),
            (unique(11, 5, false, None, Keep::Lowest(9)), true),
            // The states no longer grow from s + k dice on (the estimate stops there).
            (unique(16, 4, true, None, Keep::Highest(9)), true),
            // More than 16 kept: held in vectors.
            (unique(19, 3, true, None, Keep::Highest(17)), true),
            (
                unique(10, 5, false, Some(AtMost(2)), Keep::DropLowest(1)),
                false,
            ),
            (
                unique(10, 6, false, Some(AtLeast(3)), Keep::Highest(9)),
                false,
            ),
        ] {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert!(plan.distinct < u.count(), "{u}");
            let (law, work, held) = program(&plan).unwrap();
            assert_eq!(plan.held, held, "{u}");
            if exact {
                assert_eq!(plan.work, work, "{u}");
            } else {
                assert!(plan.work > work, "{u}: {} under {work}", plan.work);
            }
            let total: f64 = law.p.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{u}");
        }
        // The first dice surely distinct (m = 3), then repeats.
        for keep in [Keep::All, Keep::Highest(2)] {
            let u = unique(6, 4, false, None, keep);
            let plan = u.plan(3, 0.2).unwrap();
            assert_eq!(plan.distinct, 3);
            let (_, work, held) = program(&plan).unwrap();
            assert_eq!((plan.work, plan.held), (work, held), "{u}");
        }
    }

    #[test]
    fn programs_over_budget_are_refused_before_any_state() {
        use Comparison::AtLeast;
        for u in [
            unique(12, 30, true, None, Keep::All),
            unique(20, 30, false, Some(AtLeast(3)), Keep::All),
            unique(125, 128, false, None, Keep::All),
            unique(20, 20, true, None, Keep::Highest(5)),
            unique(12, 20, true, None, Keep::Highest(8)),
            unique(12, 20, true, None, Keep::Highest(10)),
            unique(15, 20, false, Some(AtLeast(3)), Keep::Lowest(12)),
        ] {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert!(plan.work > MAX_EXACT_WORK as f64, "{u}: {}", plan.work);
            // The error carries the estimate: the up-front check refused, not the program.
            match u.distribution() {
                Err(Error::TooComplex { work, .. }) => assert_eq!(work, plan.work as u64, "{u}"),
                other => panic!("{u}: {other:?}"),
            }
        }
        // Within the work budget, but holding too many numbers at once.
        for u in [
            unique(10, 25, true, None, Keep::All),
            unique(14, 20, true, None, Keep::All),
        ] {
            let plan = u.plan(u.max_rerolls(), prune_below(u.count())).unwrap();
            assert!(plan.work <= MAX_EXACT_WORK as f64, "{u}: {}", plan.work);
            assert!(plan.held > UNIQUE_MAX_HELD as f64, "{u}: {}", plan.held);
            match u.distribution() {
                Err(Error::TooComplex { work, max, .. }) => {
                    assert_eq!((work, max), (plan.held as u64, UNIQUE_MAX_HELD), "{u}");
                }
                other => panic!("{u}: {other:?}"),
            }
        }
    }

    #[test]
    fn refusals_report_the_whole_estimate() {
        // One die more is more work: the estimate is summed over every die, not cut off at
        // the budget.
        for rolls in [
            [12, 13, 14].map(|n| unique(n, 30, true, None, Keep::All)),
            [20, 21, 22].map(|n| unique(n, 20, true, None, Keep::Highest(5))),
            [12, 13, 14].map(|n| unique(n, 20, true, None, Keep::Highest(10))),
        ] {
            let works = rolls.clone().map(|u| match u.distribution() {
                Err(Error::TooComplex { work, .. }) => work,
                other => panic!("{u}: {other:?}"),
            });
            assert!(works[0] < works[1] && works[1] < works[2], "{works:?}");
        }
    }
}
