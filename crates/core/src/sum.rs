//! Totals: keep/drop, sum with a modifier, and a three-way comparison with a target.

use alloc::vec::Vec;
use core::fmt;

use rand::Rng;

use crate::error::Error;
use crate::pool::{Pool, check_modifier};
use crate::record::RollRecord;
use crate::{Roll, RollDetailed};

/// Which dice of a pool count toward a total.
///
/// ```
/// use dice_core::Keep;
/// assert_eq!(Keep::Highest(3).kept_of(4), 3);
/// assert_eq!(Keep::DropLowest(1).kept_of(4), 3);
/// assert_eq!(Keep::All.kept_of(4), 4);
/// assert_eq!(Keep::Highest(3).to_string(), "kh3");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Keep {
    /// Every die counts.
    #[default]
    All,
    /// The k highest dice count.
    Highest(u32),
    /// The k lowest dice count.
    Lowest(u32),
    /// All but the k highest count.
    DropHighest(u32),
    /// All but the k lowest count.
    DropLowest(u32),
}

impl Keep {
    /// How many of `n` dice are kept (0 when k exceeds n).
    pub fn kept_of(self, n: u32) -> u32 {
        match self {
            Keep::All => n,
            Keep::Highest(k) | Keep::Lowest(k) => k.min(n),
            Keep::DropHighest(k) | Keep::DropLowest(k) => n.saturating_sub(k),
        }
    }

    /// The same selection of `n` dice as "keep the `k` highest" (`(true, k)`) or "keep the
    /// `k` lowest" (`(false, k)`).
    ///
    /// ```
    /// use dice_core::Keep;
    /// assert_eq!(Keep::DropLowest(1).as_top(4), (true, 3));
    /// assert_eq!(Keep::DropHighest(1).as_top(4), (false, 3));
    /// assert_eq!(Keep::All.as_top(4), (true, 4));
    /// ```
    pub fn as_top(self, n: u32) -> (bool, u32) {
        match self {
            Keep::All => (true, n),
            Keep::Highest(k) => (true, k.min(n)),
            Keep::DropLowest(k) => (true, n.saturating_sub(k)),
            Keep::Lowest(k) => (false, k.min(n)),
            Keep::DropHighest(k) => (false, n.saturating_sub(k)),
        }
    }

    /// The `k` the rule names (0 for [`Keep::All`]).
    pub(crate) fn k(self) -> u32 {
        match self {
            Keep::All => 0,
            Keep::Highest(k) | Keep::Lowest(k) | Keep::DropHighest(k) | Keep::DropLowest(k) => k,
        }
    }
}

impl fmt::Display for Keep {
    /// `kh3`, `kl1`, `dh1`, `dl1`, or nothing for [`Keep::All`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Keep::All => Ok(()),
            Keep::Highest(k) => write!(f, "kh{k}"),
            Keep::Lowest(k) => write!(f, "kl{k}"),
            Keep::DropHighest(k) => write!(f, "dh{k}"),
            Keep::DropLowest(k) => write!(f, "dl{k}"),
        }
    }
}

/// Dice held on the stack when a roll can produce at most this many.
pub(crate) const STACK_DICE: usize = 64;

/// Rolls `pool` and collects the values passing `keep_value`, in roll order: into `stack`
/// when the pool cannot produce more than [`STACK_DICE`] dice, else into `heap`.
#[inline]
pub(crate) fn collect_values<'a, R: Rng + ?Sized>(
    pool: &Pool,
    rng: &mut R,
    stack: &'a mut [i64; STACK_DICE],
    heap: &'a mut Vec<i64>,
    keep_value: impl Fn(i64) -> bool,
) -> &'a mut [i64] {
    if pool.max_rolled() <= STACK_DICE as u64 {
        let mut n = 0;
        pool.visit(rng, |_, d| {
            if keep_value(d.value) {
                stack[n] = d.value;
                n += 1;
            }
        });
        &mut stack[..n]
    } else {
        heap.clear();
        pool.visit(rng, |_, d| {
            if keep_value(d.value) {
                heap.push(d.value);
            }
        });
        heap
    }
}

/// Sum of the `keep` selected values of `values`; `values` is reordered.
pub(crate) fn kept_sum(values: &mut [i64], keep: Keep) -> i64 {
    let n = values.len() as u32;
    let (top, k) = keep.as_top(n);
    let k = k as usize;
    if k == values.len() {
        return values.iter().sum();
    }
    if k == 0 {
        return 0;
    }
    if values.len() <= 16 {
        // Insertion sort: the fastest way to order a handful of dice.
        for i in 1..values.len() {
            let v = values[i];
            let mut j = i;
            while j > 0 && values[j - 1] > v {
                values[j] = values[j - 1];
                j -= 1;
            }
            values[j] = v;
        }
        return if top {
            values[values.len() - k..].iter().sum()
        } else {
            values[..k].iter().sum()
        };
    }
    if top {
        let idx = values.len() - k;
        values.select_nth_unstable(idx);
        values[idx..].iter().sum()
    } else {
        values.select_nth_unstable(k - 1);
        values[..k].iter().sum()
    }
}

/// Marks dropped dice in a record: ties are broken in roll order (the earlier die is kept).
pub(crate) fn mark_kept(record: &mut RollRecord, keep: Keep) {
    let n = record.dice.len() as u32;
    let (top, k) = keep.as_top(n);
    if k == n {
        return;
    }
    let mut order: Vec<usize> = (0..record.dice.len()).collect();
    order.sort_by(|&a, &b| {
        let (va, vb) = (record.dice[a].value, record.dice[b].value);
        let by_value = if top { vb.cmp(&va) } else { va.cmp(&vb) };
        by_value.then(a.cmp(&b))
    });
    for &i in &order[k as usize..] {
        record.dice[i].flags.kept = false;
    }
}

/// The total of a pool: the kept dice plus a flat modifier (`2d6 + 2`, `4d6 keep 3`).
///
/// ```
/// use dice_core::{Die, Keep, Pool, Roll, Sum};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let two_d6_plus_2 = Sum::new(Pool::new(2, Die::D6)?, Keep::All, 2)?;
/// let total = two_d6_plus_2.roll(&mut Xoshiro256PlusPlus::seed_from_u64(9));
/// assert!((4..=14).contains(&total));
/// assert_eq!(two_d6_plus_2.to_string(), "2d6+2");
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sum {
    pool: Pool,
    keep: Keep,
    modifier: i64,
}

impl Sum {
    /// A total of `pool`'s dice selected by `keep`, plus `modifier`.
    ///
    /// # Errors
    /// [`Error::Keep`] when `keep` names more dice than the pool holds before explosions;
    /// [`Error::OutOfRange`] when `|modifier| > MAX_MODIFIER`.
    pub fn new(pool: Pool, keep: Keep, modifier: i64) -> Result<Self, Error> {
        if keep.k() > pool.count() {
            return Err(Error::Keep {
                k: keep.k(),
                count: pool.count(),
            });
        }
        check_modifier("modifier", modifier)?;
        Ok(Sum {
            pool,
            keep,
            modifier,
        })
    }

    /// The pool.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }
    /// The keep/drop rule.
    pub fn keep(&self) -> Keep {
        self.keep
    }
    /// The flat modifier.
    pub fn modifier(&self) -> i64 {
        self.modifier
    }
}

impl Roll for Sum {
    type Outcome = i64;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        if self.keep == Keep::All {
            let mut total = self.modifier;
            self.pool.visit(rng, |_, d| total += d.value);
            return total;
        }
        let max = self.pool.max_rolled();
        let kept = if max <= 8 {
            self.kept_on_stack::<8, R>(rng)
        } else if max <= STACK_DICE as u64 {
            self.kept_on_stack::<STACK_DICE, R>(rng)
        } else {
            let mut values = Vec::with_capacity(self.pool.count() as usize);
            self.pool.visit(rng, |_, d| values.push(d.value));
            kept_sum(&mut values, self.keep)
        };
        kept + self.modifier
    }
}

impl Sum {
    /// The kept total of a pool that cannot roll more than `N` dice, without allocating.
    #[inline(always)]
    fn kept_on_stack<const N: usize, R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let mut buf = [0i64; N];
        let mut n = 0;
        self.pool.visit(rng, |_, d| {
            buf[n] = d.value;
            n += 1;
        });
        kept_sum(&mut buf[..n], self.keep)
    }
}

impl RollDetailed for Sum {
    /// Every die (dropped ones flagged), the modifier and the total.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        self.pool.roll_into(rng, &mut record.dice);
        mark_kept(record, self.keep);
        record.modifier = self.modifier;
        record.total = record.kept_values().sum::<i64>() + self.modifier;
        record.capped = record.dice.iter().any(|d| d.flags.capped);
    }
}

impl fmt::Display for Sum {
    /// `4d6kh3`, `2d6+2`, `1d20-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.pool, self.keep)?;
        if self.modifier != 0 {
            write!(f, "{:+}", self.modifier)?;
        }
        Ok(())
    }
}

/// A total compared with a target: above, exactly on, or below it.
///
/// Ordered `Below < Equal < Above`. Shapers and Bots reads the three differently (success,
/// success with consequences, failure), so the comparison keeps "exactly" apart.
///
/// ```
/// use dice_core::Versus;
/// assert_eq!(Versus::of(13, 13), Versus::Equal);
/// assert_eq!(Versus::of(8, 13), Versus::Below);
/// assert!(Versus::Above > Versus::Equal);
/// assert_eq!(Versus::Above.to_string(), "above");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Versus {
    /// The total is below the target.
    Below,
    /// The total equals the target.
    Equal,
    /// The total is above the target.
    Above,
}

impl Versus {
    /// Compares `total` with `target`.
    pub fn of(total: i64, target: i64) -> Versus {
        match total.cmp(&target) {
            core::cmp::Ordering::Less => Versus::Below,
            core::cmp::Ordering::Equal => Versus::Equal,
            core::cmp::Ordering::Greater => Versus::Above,
        }
    }
}

impl fmt::Display for Versus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Versus::Below => "below",
            Versus::Equal => "equal",
            Versus::Above => "above",
        })
    }
}

/// A [`Sum`] rolled against a fixed target, with three outcomes.
///
/// ```
/// use dice_core::{Die, Keep, Pool, Roll, Sum, Versus, VersusTarget};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // 2d6 + 2 against 9.
/// let check = VersusTarget::new(Sum::new(Pool::new(2, Die::D6)?, Keep::All, 2)?, 9)?;
/// let outcome: Versus = check.roll(&mut Xoshiro256PlusPlus::seed_from_u64(4));
/// println!("{outcome}");
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersusTarget {
    sum: Sum,
    target: i64,
}

impl VersusTarget {
    /// `sum` against `target`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when `|target| > MAX_MODIFIER`.
    pub fn new(sum: Sum, target: i64) -> Result<Self, Error> {
        check_modifier("target", target)?;
        Ok(VersusTarget { sum, target })
    }
    /// The total rolled.
    pub fn sum(&self) -> &Sum {
        &self.sum
    }
    /// The target.
    pub fn target(&self) -> i64 {
        self.target
    }
}

impl Roll for VersusTarget {
    type Outcome = Versus;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Versus {
        Versus::of(self.sum.roll(rng), self.target)
    }
}

impl RollDetailed for VersusTarget {
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.sum.roll_record_into(rng, record);
    }
}

impl fmt::Display for VersusTarget {
    /// `2d6+2 vs 9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vs {}", self.sum, self.target)
    }
}

// ------------------------------------------------------------------ exact distributions

use crate::Exact;
use crate::dist::{Dense, Dist, Tailed, binomial};
use crate::pool::{
    CAPPED_LISTING_TOLERANCE, DEFAULT_TAIL_TOLERANCE, WHOLE_LISTING_MAX, check_work, powu,
};

/// The law of `Σ score(v)` over the `k` dice kept of `n` independent dice, where
/// `ordered` lists each value's probability and score in the order keep/drop takes the
/// values (highest first for "keep the highest"), and `unlisted` is the mass of values not
/// listed (an untruncated explosion's). Returns the joint law P(kept score = S and every
/// die takes a listed value).
///
/// A dynamic program over the values in keep order (the multiset approach of icepool): the
/// state is the number `m < k` of dice already placed on earlier values and the sum of their
/// scores. At value `v`, of the `n − m` dice not yet placed (each on `v` or a later value),
/// the number showing `v` is binomial with probability `q_v / U_v`, where `U_v` is the mass
/// of `v` and every later value; once `k` dice are placed the kept score is settled.
/// Work ~ F·R·k³/6 for F values whose scores span a range R.
pub(crate) fn keep_first(
    n: u32,
    k: u32,
    ordered: &[(f64, i64)],
    unlisted: f64,
) -> Result<Dense, Error> {
    // P(every die takes a listed value).
    let all_listed = powu(1.0 - unlisted, u64::from(n));
    let listed: Vec<(f64, i64)> = ordered.iter().copied().filter(|&(q, _)| q > 0.0).collect();
    if k == 0 || listed.is_empty() {
        return Ok(Dense {
            offset: 0,
            p: alloc::vec![all_listed],
        });
    }
    let smin = listed.iter().map(|&(_, s)| s).min().unwrap_or(0);
    let smax = listed.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let faces = listed.len() as f64;
    let kf = f64::from(k);
    let spread = smax as f64 - smin as f64;
    check_work(
        "keep/drop",
        KEEP_COST * (faces * (spread + 1.0) * kf * kf * kf / 6.0 + faces * f64::from(n) * kf),
    )?;
    // Within the work limit, so the spread of scores is far below usize::MAX.
    let range = smax.abs_diff(smin) as usize;
    let k_us = k as usize;
    // rest[i]: mass of entries i.. (positive partial sums).
    let mut rest = alloc::vec![0.0; listed.len() + 1];
    for i in (0..listed.len()).rev() {
        rest[i] = rest[i + 1] + listed[i].0;
    }
    // states[m][j]: P(m dice placed, their score = m·smin + j), conditional law; span[m]
    // bounds its entries that may be nonzero. Two sets of rows, swapped at each value.
    let rows = || -> Vec<Vec<f64>> { (0..k_us).map(|m| alloc::vec![0.0; m * range + 1]).collect() };
    let (mut states, mut next) = (rows(), rows());
    let mut span: Vec<Option<(usize, usize)>> = alloc::vec![None; k_us];
    let mut next_span: Vec<Option<(usize, usize)>> = alloc::vec![None; k_us];
    states[0][0] = 1.0;
    span[0] = Some((0, 0));
    let mut done = alloc::vec![0.0; k_us * range + 1];
    for (i, &(q, score)) in listed.iter().enumerate() {
        let ds = score.abs_diff(smin) as usize;
        let pi = if i + 1 == listed.len() {
            1.0
        } else {
            (q / rest[i]).min(1.0)
        };
        // Each row m moves to rows m + c, shifted by c·ds and scaled by P(c dice show this
        // value): one contiguous multiply-add per (m, c). Every entry of `next` receives its
        // terms in increasing m, as a loop over single entries would add them.
        for m in 0..k_us {
            let Some((lo, hi)) = span[m] else {
                continue;
            };
            let src = &states[m][lo..=hi];
            let pmf = binomial(n - m as u32, pi);
            for (c, &pc) in pmf.iter().enumerate().take(k_us - m) {
                if pc == 0.0 {
                    continue;
                }
                let (to_lo, to_hi) = (lo + c * ds, hi + c * ds);
                for (o, &w) in next[m + c][to_lo..=to_hi].iter_mut().zip(src) {
                    *o += w * pc;
                }
                next_span[m + c] = Some(match next_span[m + c] {
                    None => (to_lo, to_hi),
                    Some((a, b)) => (a.min(to_lo), b.max(to_hi)),
                });
            }
            // P(C ≥ k − m): the kept set is completed at this value.
            let complete: f64 = pmf[(k_us - m).min(pmf.len())..].iter().sum();
            if complete > 0.0 {
                let at = lo + (k_us - m) * ds;
                for (o, &w) in done[at..=at + hi - lo].iter_mut().zip(src) {
                    *o += w * complete;
                }
            }
        }
        core::mem::swap(&mut states, &mut next);
        core::mem::swap(&mut span, &mut next_span);
        // Clear what the old rows held, for their next use.
        for (row, s) in next.iter_mut().zip(next_span.iter_mut()) {
            if let Some((lo, hi)) = s.take() {
                row[lo..=hi].fill(0.0);
            }
        }
    }
    if unlisted > 0.0 {
        for x in &mut done {
            *x *= all_listed;
        }
    }
    Ok(Dense {
        offset: i64::from(k) * smin,
        p: done,
    }
    .trim())
}

/// The law of the sum of the `k` highest (`top`) or lowest of `n` dice of `w` sides (uniform
/// on `1..=w`, `1 ≤ k < n`): the same law as [`keep_first`] over the uniform law, in about
/// `Σ_v (w − v)·k²/2` window-sum entries rather than `w²k³/12` multiply-adds.
///
/// For the highest: condition on the `k`-th highest face `v` and on the number `j < k` of
/// dice above it. Then `P(v, j) = C(n, j)·((w − v)/w)ʲ·(v/w)ⁿ⁻ʲ·P(B ≥ k − j)` with `B`
/// binomial `(n − j, 1/v)` (of the dice at or below `v`, at least `k − j` show `v`), and
/// the `j` dice above `v` are independent and uniform on `v + 1..=w`: the kept sum is
/// `k·v + Uʲ` with `U` uniform on `1..=w − v` (the `j` dice's excess over `v`). So the law is
/// `Σ_v shift(Σ_j P(v, j)·U*ʲ, k·v)`, the inner sum by Horner's scheme
/// (`T ← P(v, j) + U ⊛ T` for `j` from `k − 1` down to 0, each `U ⊛` a window sum): every
/// term non-negative. The lowest are the highest of the faces `w + 1 − f`, reflected.
fn keep_uniform(n: u32, k: u32, w: u32, top: bool) -> Result<Dense, Error> {
    let wf = f64::from(w);
    check_work("keep/drop", uniform_keep_work(n, k, w))?;
    let k_us = k as usize;
    let mut law = alloc::vec![0.0; (k * w) as usize + 1];
    let mut horner = crate::dist::UniformHorner::default();
    // P(j dice above v) for the v of the loop: binomial (n, (w − v)/w).
    for v in 1..=w {
        let above = binomial(n, f64::from(w - v) / wf);
        let at_least = at_least_tails(n, k, 1.0 / f64::from(v));
        let weights: Vec<f64> = above.iter().zip(&at_least).map(|(a, t)| a * t).collect();
        let excess = w - v;
        // T = Σ_j weights[j]·U*ʲ by Horner, U uniform on 1..=excess (none above the top face).
        horner.start(
            weights[if excess > 0 { k_us - 1 } else { 0 }],
            excess as usize,
        );
        if excess > 0 {
            let scale = 1.0 / f64::from(excess);
            for &weight in weights[..k_us - 1].iter().rev() {
                // weight + U ⊛ T, U on 1..=excess: the window sums give P(value i + 1) at
                // i, so they follow the weight at 0.
                horner.step(weight, scale);
            }
        }
        let at = (k * v) as usize;
        for (o, &q) in law[at..].iter_mut().zip(horner.law()) {
            *o += q;
        }
    }
    let mut kept = Dense { offset: 0, p: law }.trim();
    if !top {
        // Lowest of f = highest of w + 1 − f: sum s ↦ k(w + 1) − s.
        kept = kept.negate().shift(i64::from(k) * i64::from(w + 1));
    }
    Ok(kept)
}

/// `tails[j] = P(B_j ≥ k − j)` for `j < k`, with `B_j` binomial `(n − j, p)`, `0 < p ≤ 1`:
/// of the `n − j` dice at or below a face, the chance that at least `k − j` show it.
///
/// With `b = n − k + 1` fixed, `tails[j]` is the regularized incomplete beta function
/// `I_p(k − j, b)`, and `I_p(a, b) − I_p(a + 1, b) = C(a + b − 1, a)·pᵃ·(1 − p)ᵇ`, so
/// `tails[j] = tails[j − 1] + (1 − p)·P(B_j = k − j)`: every step adds a non-negative term.
/// `P(B_0 ≥ k)` and `P(B_0 = k)` come from one binomial law, and
/// `P(B_j = k − j) = P(B_{j−1} = k − j + 1)·(k − j + 1)/((n − j + 1)·p)`: `k` binomial laws
/// of about `n` terms each become one. The terms grow, then shrink (the ratio falls with
/// `j`), so when the first is a normal number none is lost to underflow and each keeps a
/// relative error of a few ulps per step; when it is not (`P(B_0 = k)` below about 1e-308),
/// each tail is summed from its own binomial law instead.
fn at_least_tails(n: u32, k: u32, p: f64) -> Vec<f64> {
    let k_us = k as usize;
    let first = binomial(n, p);
    if p >= 1.0 || first[k_us] < f64::MIN_POSITIVE {
        return (0..k)
            .map(|j| binomial(n - j, p)[(k - j) as usize..].iter().sum())
            .collect();
    }
    let q = 1.0 - p;
    let mut tails = Vec::with_capacity(k_us);
    let mut tail: f64 = first[k_us..].iter().sum();
    let mut at = first[k_us];
    tails.push(tail);
    for j in 1..k {
        at *= f64::from(k - j + 1) / (f64::from(n - j + 1) * p);
        tail += q * at;
        tails.push(tail.min(1.0));
    }
    tails
}

/// The window-sum entries of [`keep_uniform`] (about `Σ_v (w − v)·k²/2`), in budget units: one
/// an entry for excesses of up to 16 (fixed-width window sums), three beyond (block sums),
/// as for sums of dice; plus the binomial laws, `n` terms for each `(v, j)`.
fn uniform_keep_work(n: u32, k: u32, w: u32) -> f64 {
    let (nf, kf, wf) = (f64::from(n), f64::from(k), f64::from(w));
    let narrow = wf.min(16.0);
    let wide = (wf - 16.0).max(0.0);
    // Σ over excesses 1..=narrow of e, and over 17..=w − 1 of 3e.
    let entries = narrow * (narrow + 1.0) / 2.0 + 3.0 * wide * (wf + 16.0) / 2.0;
    entries * kf * kf / 2.0 + wf * kf * nf * 2.0
}

/// `(probability, value)` of a dense law's values in the order keep/drop takes them.
fn keep_order(law: &Dense, top: bool) -> Vec<(f64, i64)> {
    let pairs = law
        .p
        .iter()
        .enumerate()
        .map(|(i, &q)| (q, law.offset + i as i64));
    if top {
        pairs.rev().collect()
    } else {
        pairs.collect()
    }
}

impl Dist<i64> {
    /// The law of the sum of the dice kept (by `keep`) of `n` independent dice that each
    /// follow this law: keep/drop over any per-die law, not only a [`Pool`]'s.
    ///
    /// The tail of the result is the chance that some die falls in this law's tail; each
    /// listed probability is jointly with every die taking a listed value.
    ///
    /// # Errors
    /// [`Error::TooComplex`] beyond [`crate::MAX_EXACT_WORK`].
    ///
    /// ```
    /// use dice_core::{Dist, Keep};
    /// // A d4 rerolled once on a 1 (faces 1–4 with 1/16, 5/16, 5/16, 5/16), two kept of three.
    /// let d = Dist::from_pairs([(1, 1.0 / 16.0), (2, 5.0 / 16.0), (3, 5.0 / 16.0), (4, 5.0 / 16.0)])?;
    /// let kept = d.kept_sum(3, Keep::Highest(2))?;
    /// // Only 1-1-1 keeps a total of 2.
    /// assert!((kept.probability(&2) - (1.0f64 / 16.0).powi(3)).abs() < 1e-15);
    /// assert!((kept.total() - 1.0).abs() < 1e-12);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    ///
    /// [`Pool`]: crate::Pool
    pub fn kept_sum(&self, n: u32, keep: Keep) -> Result<Dist<i64>, Error> {
        self.kept_score(n, keep, |v| v)
    }

    /// The law of `Σ score(v)` over the dice kept (by value, by `keep`) of `n` independent
    /// dice that each follow this law: which dice are kept depends on their values, what
    /// they add up to on `score` (a success count of the kept dice, a clamp).
    ///
    /// The tail is as for [`Dist::kept_sum`].
    ///
    /// # Errors
    /// [`Error::TooComplex`] beyond [`crate::MAX_EXACT_WORK`].
    ///
    /// ```
    /// use dice_core::{Die, Dist, Exact, Keep};
    /// // Roll 4d6, keep the 3 highest, count those showing 5 or more.
    /// let d6: Dist<i64> = Die::D6.distribution()?.map(|&f| i64::from(f));
    /// let hits = d6.kept_score(4, Keep::Highest(3), |v| i64::from(v >= 5))?;
    /// // No hit only when no die shows 5+ at all: (4/6)^4.
    /// assert!((hits.probability(&0) - (4.0f64 / 6.0).powi(4)).abs() < 1e-15);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn kept_score(
        &self,
        n: u32,
        keep: Keep,
        score: impl Fn(i64) -> i64,
    ) -> Result<Dist<i64>, Error> {
        let (top, k) = keep.as_top(n);
        let mut ordered: Vec<(f64, i64)> = self.iter().map(|(&v, q)| (q, score(v))).collect();
        if top {
            ordered.reverse();
        }
        let kept = keep_first(n, k, &ordered, self.tail())?;
        Ok(kept.into_dist(some_of(n, self.tail())))
    }
}

impl Sum {
    /// The exact law of the total, listing outcomes until the unlisted mass is at most
    /// `tail_tolerance` (it matters only for exploding dice without an explicit cap; a
    /// smaller tolerance lists more outcomes).
    ///
    /// Without keep/drop the listed probabilities are exact. With keep/drop on exploding dice
    /// each listed probability is exact up to the unlisted mass (`Dist::tail`), which bounds
    /// the error.
    ///
    /// # Errors
    /// [`Error::TooComplex`] beyond [`crate::MAX_EXACT_WORK`]; [`Error::Unsupported`] for
    /// keep/drop across dice of different sizes. Keep/drop on explosions that add dice keeps
    /// among every die rolled (see [`Pool::kept_score`]).
    ///
    /// ```
    /// use dice_core::{Comparison, Die, Explode, Keep, Pool, Sum};
    /// let d6_exploding = Sum::new(
    ///     Pool::new(1, Die::D6)?.exploding(Explode::new(Comparison::Exactly(6)))?,
    ///     Keep::All,
    ///     0,
    /// )?;
    /// let d = d6_exploding.distribution_within(1e-20)?;
    /// assert!((d.probability(&8) - 1.0 / 36.0).abs() < 1e-15); // 6 then 2
    /// assert!(d.tail() <= 1e-20);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn distribution_within(&self, tail_tolerance: f64) -> Result<Dist<i64>, Error> {
        let tol = if tail_tolerance > 0.0 {
            tail_tolerance
        } else {
            DEFAULT_TAIL_TOLERANCE
        };
        let n = self.pool.count();
        if n == 0 {
            return Ok(Dist::certain(self.modifier));
        }
        let parts = self.pool.parts();
        let (top, k) = self.keep.as_top(n);
        // Keep/drop counts the dice rolled, explosions' added dice included: keeping `n` of
        // them is keeping them all only when no die can add another.
        let adds_dice =
            self.pool.explode().is_some_and(|e| e.mode().adds_dice()) && self.pool.can_explode();
        let keeps_all = matches!(
            self.keep,
            Keep::All | Keep::DropHighest(0) | Keep::DropLowest(0)
        );
        let (law, tail) = if keeps_all || (k == n && !adds_dice) {
            self.total_law(tol)?
        } else {
            let die = parts[0].die();
            if parts.iter().any(|p| p.die() != die) {
                return Err(Error::Unsupported {
                    what: "exact keep/drop over dice of different sizes",
                });
            }
            // An explosion no face sets off (`!7` on a d6) adds no dice: the plain law.
            if adds_dice {
                // Keep/drop among every die rolled, the added ones included.
                let (kept, tail) =
                    crate::keep_exploding::kept_law(&self.pool, self.keep, tol, &|v| v)?;
                return Ok(kept.shift(self.modifier).into_dist(tail));
            }
            if self.pool.explode().is_none() && k > 0 {
                let kept = keep_uniform(n, k, die.sides(), top)?;
                return Ok(kept.shift(self.modifier).into_dist(0.0));
            }
            let per_die_tol = tol / f64::from(n);
            let v = self.pool.value_law(&parts[0], per_die_tol, 0)?;
            let kept = keep_first(n, k, &keep_order(&v.law, top), v.tail)?;
            (kept, some_of(n, v.tail))
        };
        Ok(law.shift(self.modifier).into_dist(tail))
    }

    /// The law of the sum of every die, and its unlisted mass.
    fn total_law(&self, tol: f64) -> Result<(Dense, f64), Error> {
        let n = self.pool.count();
        if self.pool.explode().is_none() {
            let mut total = Dense::certain(0);
            let mut dice = 0.0;
            for part in self.pool.parts() {
                // The first part starts from a point law: many small dice go by squaring.
                let squaring = dice == 0.0;
                dice += f64::from(part.count());
                let sides = f64::from(part.die().sides());
                check_work("a sum of dice", uniform_sum_work(dice, sides, squaring))?;
                total = total.add_uniform_dice(part.count(), part.die().sides());
            }
            return Ok((total, 0.0));
        }
        // Exploding dice: list every die's law and its survival function up to the same
        // length, add them up with their survival functions (all sums of non-negative
        // terms), and lengthen the listing until what lies beyond weighs at most `tol`.
        let mut len = 16usize.max(4 * n as usize);
        // Capped explosions have finite laws: list them whole when that is not too long.
        let mut full_len = 1usize;
        for part in self.pool.parts() {
            let v = self.pool.value_law(part, tol / f64::from(n), 0)?;
            if v.tail > 0.0 {
                full_len = usize::MAX;
                break;
            }
            full_len += part.count() as usize * (v.law.offset as usize + v.law.p.len() - 1);
        }
        // A finite law listed whole has no tail (its survival past the listing is rounding
        // noise at most, below 1e-300 for a capped explosion listed until it underflows).
        let finite = full_len != usize::MAX;
        // Start where the Chernoff bound says the rest weighs little enough (a capped die's
        // value is at most the untruncated one's, so the bound holds for it too).
        let goal = if finite {
            CAPPED_LISTING_TOLERANCE
        } else {
            tol
        };
        if let Some(l) = self.pool.exploding_total_len(goal) {
            len = l.clamp(16, 1 << 22);
        }
        if finite && full_len <= WHOLE_LISTING_MAX {
            len = full_len;
        }
        loop {
            let mut total = Tailed::zero(len);
            for part in self.pool.parts() {
                let v = self.pool.value_law(part, tol / f64::from(n), len)?;
                check_work(
                    "a sum of exploding dice",
                    (len * len) as f64 * TAILED_COST * 2.0 * powering_steps(part.count()),
                )?;
                total = total.add(&v.tailed.power(part.count(), len), len);
            }
            // A finite law is listed until what is left is below f64's range of probabilities
            // next to 1 (or whole): it reports no tail.
            if finite && (len >= full_len || total.tail() <= CAPPED_LISTING_TOLERANCE) {
                return Ok((total.into_dense().0, 0.0));
            }
            if (!finite && total.tail() <= tol) || len > (1 << 22) {
                return Ok(total.into_dense());
            }
            len *= 2;
        }
    }
}

/// P(at least one of `n` independent events of chance `p` happens), `1 − (1 − p)ⁿ`, without
/// the cancellation of that formula when `n·p` is small (there the alternating series
/// `Σ (−1)ⁱ⁺¹ C(n, i) pⁱ` converges at once).
fn some_of(n: u32, p: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    if f64::from(n) * p > 0.1 {
        return 1.0 - powu(1.0 - p, u64::from(n));
    }
    let (mut sum, mut term) = (0.0, 1.0);
    for i in 1..=u64::from(n) {
        term *= (f64::from(n) - (i - 1) as f64) / i as f64 * p;
        let signed = if i % 2 == 1 { term } else { -term };
        sum += signed;
        if term <= sum.abs() * 1e-18 {
            break;
        }
    }
    sum
}

/// Budget units (about a nanosecond of one core each, docs/performance.md "Cost model") per
/// term `F·R·k³/6` of [`keep_first`]'s estimate, measured on `100d100kh50` and `50d100kh25`.
const KEEP_COST: f64 = 0.25;

/// Budget units per `len²` of each addition of laws with their survival functions (exploding
/// listings), measured on `500d6!`.
pub(crate) const TAILED_COST: f64 = 1.2;

/// The work of a sum of `dice` plain dice of up to `sides` faces: each die added one by one
/// passes once over the listed width, which is at most the range `n(s − 1) + 1` and, past a
/// few hundred dice, the ±40 standard deviations outside which the law has underflowed to 0
/// (and is no longer listed). About a nanosecond an entry for dice of up to 16 sides (window
/// sums), three beyond (block sums); measured on `2000d6` (before squaring), `1000d100`,
/// `300d20`. When the dice start from nothing (`squaring`), more than 32 dice of up to 16
/// sides go by binary powering: each squaring of the law of `m` dice costs about `W(m)²/2`
/// multiply-adds for its listed width `W(m)`, [`SQUARE_COST`] units each (measured on
/// `10000d6` and `2000d6`).
fn uniform_sum_work(dice: f64, sides: f64, squaring: bool) -> f64 {
    let sd = crate::dist::sqrt((sides * sides - 1.0) / 12.0);
    let width = |m: f64| (m * (sides - 1.0) + 1.0).min(80.0 * sd * crate::dist::sqrt(m) + sides);
    if squaring && sides <= 16.0 && dice > 32.0 {
        let mut work = 0.0;
        let mut m = dice / 2.0;
        while m > 16.0 {
            work += SQUARE_COST * width(m) * width(m) / 2.0;
            m /= 2.0;
        }
        return work + 32.0 * width(32.0) * sides;
    }
    let unit = if sides <= 16.0 { 1.0 } else { 3.0 };
    unit * dice * width(dice)
}

/// Budget units per multiply-add of a squaring in a sum of many small dice (see
/// [`uniform_sum_work`]).
const SQUARE_COST: f64 = 0.3;

/// `⌈log₂ n⌉ + 1`: the convolutions binary powering makes, for work estimates.
pub(crate) fn powering_steps(n: u32) -> f64 {
    f64::from(33 - n.leading_zeros())
}

impl Exact for Sum {
    /// [`Sum::distribution_within`] with [`DEFAULT_TAIL_TOLERANCE`].
    fn distribution(&self) -> Result<Dist<i64>, Error> {
        self.distribution_within(DEFAULT_TAIL_TOLERANCE)
    }
}

impl Exact for VersusTarget {
    /// P(above), P(equal), P(below) the target. Unlisted mass of an exploding total lies above
    /// every listed total; it counts as "above" when the target is listed below it.
    fn distribution(&self) -> Result<Dist<Versus>, Error> {
        let d = self.sum.distribution()?;
        let mut v = d.map(|&t| Versus::of(t, self.target));
        let top = d.outcomes().last().copied().unwrap_or(i64::MIN);
        if d.tail() > 0.0 && self.target < top {
            let above = v.probability(&Versus::Above) + d.tail();
            let pairs = [
                (Versus::Below, v.probability(&Versus::Below)),
                (Versus::Equal, v.probability(&Versus::Equal)),
                (Versus::Above, above),
            ];
            v = Dist::from_pairs(pairs)?;
        }
        Ok(v)
    }
}

#[cfg(test)]
mod keep_tests {
    use super::*;

    /// The incomplete-beta recurrence gives each tail as summing its own binomial law does,
    /// including where the first term underflows (the fallback) and at chance 1.
    #[test]
    fn at_least_tails_match_binomial_sums() {
        for (n, k) in [
            (2u32, 1u32),
            (4, 3),
            (20, 10),
            (100, 50),
            (100, 99),
            (1000, 500),
            (3000, 2900),
        ] {
            for p in [1.0, 0.5, 1.0 / 3.0, 0.1, 0.01, 1e-3] {
                let fast = at_least_tails(n, k, p);
                assert_eq!(fast.len(), k as usize);
                for (j, &got) in fast.iter().enumerate() {
                    let j = j as u32;
                    let want: f64 = binomial(n - j, p)[(k - j) as usize..].iter().sum();
                    assert!(
                        (got - want).abs() <= 1e-12 * want || (got - want).abs() < 1e-300,
                        "n {n} k {k} p {p} j {j}: {got} vs {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn uniform_keep_matches_the_multiset_program() {
        for (n, k, w) in [
            (4u32, 3u32, 6u32),
            (2, 1, 20),
            (10, 3, 10),
            (20, 10, 10),
            (30, 7, 20),
            (17, 16, 6),
            (40, 20, 100),
            (12, 1, 2),
        ] {
            for top in [true, false] {
                let fast = keep_uniform(n, k, w, top).unwrap();
                let uniform = Dense::uniform(1, i64::from(w));
                let slow = keep_first(n, k, &keep_order(&uniform, top), 0.0).unwrap();
                assert_eq!(
                    (fast.offset, fast.p.len()),
                    (slow.offset, slow.p.len()),
                    "{n}d{w}k{k}"
                );
                for (a, b) in fast.p.iter().zip(&slow.p) {
                    assert!(
                        (a - b).abs() <= 1e-13 * b,
                        "{n}d{w} keep {k} {top}: {a} vs {b}"
                    );
                }
            }
        }
    }
}
