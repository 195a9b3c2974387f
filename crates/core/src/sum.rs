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

    /// The same selection as "keep the top `k`" (`true`) or "keep the bottom `k`" (`false`)
    /// of `n` dice.
    pub(crate) fn as_top(self, n: u32) -> (bool, u32) {
        match self {
            Keep::All => (true, n),
            Keep::Highest(k) => (true, k.min(n)),
            Keep::DropLowest(k) => (true, n.saturating_sub(k)),
            Keep::Lowest(k) => (false, k.min(n)),
            Keep::DropHighest(k) => (false, n.saturating_sub(k)),
        }
    }

    fn k(self) -> u32 {
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
fn kept_sum(values: &mut [i64], keep: Keep) -> i64 {
    let n = values.len() as u32;
    let (top, k) = keep.as_top(n);
    let k = k as usize;
    if k == values.len() {
        return values.iter().sum();
    }
    if k == 0 {
        return 0;
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
            total
        } else {
            let (mut stack, mut heap) = ([0i64; STACK_DICE], Vec::new());
            let values = collect_values(&self.pool, rng, &mut stack, &mut heap, |_| true);
            kept_sum(values, self.keep) + self.modifier
        }
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
