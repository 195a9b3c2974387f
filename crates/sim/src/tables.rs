//! Table-driven samplers for the cheapest mechanics, and the [`Batch`] trait through which
//! [`crate::Simulation::run_batch`] hands a whole chunk of trials to a mechanic at once.
//!
//! A table sampler draws *the same law* as rolling the dice one by one, not an approximation:
//! its table lists the value of every equally likely combination of faces of a group of dice,
//! and the group's combination is picked uniformly and exactly. Indices are drawn several at
//! a time from one 64-bit word by the batched form of Lemire's method (multiply by each bound
//! in turn, keep the high words, reject the word when the final low word falls below
//! `2⁶⁴ mod Πbounds`): the mixed-radix number so formed is uniform on `[0, Πbounds)`, so every
//! index is uniform and independent of the others.
//!
//! The random stream is used differently from the dice-by-dice roll, so the same seed gives
//! a different (equally valid) sample than [`crate::Simulation::run`] of the plain mechanic;
//! it is still fixed by (seed, trials, chunk size) whatever the number of threads.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use dice_core::{Rng, Roll};

use crate::error::SimError;
use crate::histogram::Histogram;

/// A mechanic that can roll a whole chunk of trials at once, counting them into a histogram;
/// run with [`crate::Simulation::run_batch`]. Batching lets a sampler keep state across trials
/// (several trials from one 64-bit draw, counts in a dense array).
///
/// ```
/// use dice_sim::{Batch, Histogram, TableRoll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let stat = TableRoll::keep_highest(4, 6, 3)?;
/// let mut h = Histogram::new();
/// stat.roll_batch(&mut Xoshiro256PlusPlus::seed_from_u64(1), 1_000, &mut h);
/// assert_eq!(h.trials(), 1_000);
/// # Ok::<(), dice_sim::SimError>(())
/// ```
pub trait Batch: Sync {
    /// What one trial yields.
    type Outcome: Clone + Ord + Hash + Debug + Display + Send + 'static;

    /// Rolls `trials` trials with `rng`, counting each outcome into `histogram`.
    fn roll_batch<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        trials: u64,
        histogram: &mut Histogram<Self::Outcome>,
    );
}

/// The most entries a group table may have (`sides^dice` of one group).
pub const MAX_TABLE: u64 = 1 << 20;
/// Group sizes are chosen so that a group table has at most this many entries (fits in L2).
const GROUP_BUDGET: u64 = 1 << 17;

/// Uniform indices below `radix`, `per_draw` of them from each 64-bit word.
#[derive(Clone, Copy, Debug)]
struct Uniform {
    radix: u64,
    per_draw: usize,
    /// `2⁶⁴ mod radix^per_draw`: a final low word below this rejects the draw.
    reject: u64,
}

impl Uniform {
    fn new(radix: u64) -> Uniform {
        debug_assert!(radix >= 2);
        let mut span = radix;
        let mut per_draw = 1;
        while per_draw < BUF {
            match span.checked_mul(radix) {
                Some(s) => {
                    span = s;
                    per_draw += 1;
                }
                None => break,
            }
        }
        Uniform {
            radix,
            per_draw,
            reject: span.wrapping_neg() % span,
        }
    }

    /// Fills `out` (of length `per_draw` at most) with independent uniform indices.
    #[inline(always)]
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut [u32]) {
        loop {
            let mut x = rng.next_u64();
            for o in out.iter_mut() {
                let m = u128::from(x) * u128::from(self.radix);
                *o = (m >> 64) as u32;
                x = m as u64;
            }
            if x >= self.reject {
                return;
            }
        }
    }
}

const BUF: usize = 64;

/// A stream of uniform indices, refilled a word at a time. Indices left over at the end of a
/// chunk are dropped, which does not bias the others.
struct Stream {
    buf: [u32; BUF],
    pos: usize,
    len: usize,
}

impl Stream {
    fn new() -> Stream {
        Stream {
            buf: [0; BUF],
            pos: 0,
            len: 0,
        }
    }

    #[inline(always)]
    fn next<R: Rng + ?Sized>(&mut self, u: &Uniform, rng: &mut R) -> usize {
        if self.pos >= self.len {
            let k = u.per_draw;
            u.fill(rng, &mut self.buf[..k]);
            self.pos = 0;
            self.len = k;
        }
        let v = self.buf[self.pos];
        self.pos += 1;
        v as usize
    }
}

/// Every combination of `dice` faces `1..=sides`, in mixed-radix order (the first die most
/// significant), passed to `f` with its index.
fn each_combination(sides: u32, dice: u32, mut f: impl FnMut(&[u32])) {
    let mut faces = vec![1u32; dice as usize];
    loop {
        f(&faces);
        // Advance the last die first.
        let mut i = faces.len();
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if faces[i] < sides {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
        }
    }
}

/// `sides^dice` when at most `limit`.
fn entries(sides: u32, dice: u32, limit: u64) -> Option<u64> {
    let mut n: u64 = 1;
    for _ in 0..dice {
        n = n.checked_mul(u64::from(sides))?;
        if n > limit {
            return None;
        }
    }
    Some(n)
}

/// The largest group size `g ≤ dice` dividing `dice` with `sides^g ≤ GROUP_BUDGET`.
fn group_size(sides: u32, dice: u32) -> u32 {
    (1..=dice)
        .rev()
        .find(|&g| dice % g == 0 && entries(sides, g, GROUP_BUDGET).is_some())
        .unwrap_or(1)
}

fn table_error(reason: impl Into<String>) -> SimError {
    SimError::Table {
        reason: reason.into(),
    }
}

/// A mechanic whose outcome is `offset + Σ value(group)` over `groups` groups of identical
/// dice, each group's value read from a table of all its equally likely face combinations:
/// a keep-highest roll as one group (`4d6kh3`: 1,296 entries, 6 trials per 64-bit draw), a
/// success count split into groups (`10d10 ≤ 5`: two groups of 5 dice, 100,000 entries).
///
/// ```
/// use dice_core::{Comparison, Die, Exact, Pool, SuccessPool};
/// use dice_sim::{Simulation, TableRoll};
///
/// let fast = TableRoll::count(10, 10, |face| face <= 5)?;
/// let r = Simulation::new(1, 100_000)?.run_batch(&fast);
/// let exact = SuccessPool::new(Pool::new(10, Die::D10)?, Comparison::AtMost(5)).distribution()?;
/// assert!(r.estimate(&5).covers(exact.probability(&5)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct TableRoll {
    table: Vec<u16>,
    groups: u32,
    offset: i64,
    /// The largest sum of group values.
    max_total: usize,
    uniform: Uniform,
}

impl TableRoll {
    /// `groups` groups of `group_dice` dice of `sides` faces each; a group's value is
    /// `value(faces)` (faces `1..=sides`), the outcome `offset` plus the groups' values.
    ///
    /// ```
    /// // 3d6 as one group: the sum of the faces.
    /// let three_d6 = dice_sim::TableRoll::new(6, 3, 1, 0, |f| f.iter().sum::<u32>() as u16)?;
    /// assert_eq!(three_d6.entries(), 216);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    ///
    /// # Errors
    /// [`SimError::Table`] when `sides < 2`, `group_dice` or `groups` is 0, a group has more
    /// than [`MAX_TABLE`] combinations, or the largest outcome exceeds `MAX_TABLE` above
    /// `offset`.
    pub fn new(
        sides: u32,
        group_dice: u32,
        groups: u32,
        offset: i64,
        mut value: impl FnMut(&[u32]) -> u16,
    ) -> Result<TableRoll, SimError> {
        if sides < 2 || group_dice == 0 || groups == 0 {
            return Err(table_error(
                "needs dice of at least 2 sides and at least one die",
            ));
        }
        let n = entries(sides, group_dice, MAX_TABLE).ok_or_else(|| {
            table_error(format!(
                "a group of {group_dice}d{sides} has more than {MAX_TABLE} combinations"
            ))
        })?;
        let mut table = Vec::with_capacity(n as usize);
        each_combination(sides, group_dice, |faces| table.push(value(faces)));
        let top = u64::from(table.iter().copied().max().unwrap_or(0));
        let max_total = top
            .checked_mul(u64::from(groups))
            .filter(|&m| m <= MAX_TABLE)
            .ok_or_else(|| table_error("outcomes too large to count densely"))?;
        Ok(TableRoll {
            table,
            groups,
            offset,
            max_total: max_total as usize,
            uniform: Uniform::new(n),
        })
    }

    /// The sum of the `keep` highest of `dice` dice of `sides` faces (`4d6kh3`), as one group.
    ///
    /// ```
    /// let stat = dice_sim::TableRoll::keep_highest(4, 6, 3)?;
    /// assert_eq!(stat.entries(), 1_296);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    ///
    /// # Errors
    /// As [`TableRoll::new`]; also when `keep > dice`, or when `keep × sides` exceeds
    /// `u16::MAX` (a table entry).
    pub fn keep_highest(dice: u32, sides: u32, keep: u32) -> Result<TableRoll, SimError> {
        if keep > dice {
            return Err(table_error(format!("cannot keep {keep} of {dice} dice")));
        }
        // A table entry is a u16: a larger sum would wrap, not fail.
        if u64::from(keep) * u64::from(sides) > u64::from(u16::MAX) {
            return Err(table_error(format!(
                "the sum of {keep} d{sides} can exceed {}",
                u16::MAX
            )));
        }
        let mut sorted = Vec::with_capacity(dice as usize);
        TableRoll::new(sides, dice, 1, 0, |faces| {
            sorted.clear();
            sorted.extend_from_slice(faces);
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            sorted[..keep as usize].iter().sum::<u32>() as u16
        })
    }

    /// The number of `dice` dice of `sides` faces whose face passes `success`, in groups as
    /// large as fit a table of about 131,072 entries (`10d10`: two groups of 5).
    ///
    /// ```
    /// let t = dice_sim::TableRoll::count(10, 10, |f| f <= 5)?;
    /// assert_eq!(t.entries(), 100_000);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    ///
    /// # Errors
    /// As [`TableRoll::new`].
    pub fn count(
        dice: u32,
        sides: u32,
        success: impl Fn(u32) -> bool,
    ) -> Result<TableRoll, SimError> {
        if sides < 2 || dice == 0 {
            return Err(table_error(
                "needs dice of at least 2 sides and at least one die",
            ));
        }
        let g = group_size(sides, dice);
        TableRoll::new(sides, g, dice / g, 0, |faces| {
            faces.iter().filter(|&&f| success(f)).count() as u16
        })
    }

    /// Entries in the group table.
    pub fn entries(&self) -> usize {
        self.table.len()
    }

    #[inline(always)]
    fn trial<R: Rng + ?Sized>(&self, stream: &mut Stream, rng: &mut R) -> usize {
        let mut total = 0usize;
        for _ in 0..self.groups {
            let i = stream.next(&self.uniform, rng);
            total += usize::from(self.table[i]);
        }
        total
    }
}

impl Roll for TableRoll {
    type Outcome = i64;

    /// One trial (uses a fresh 64-bit word per group: for many trials, prefer
    /// [`Batch::roll_batch`] or [`crate::Simulation::run_batch`]).
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let one = Uniform {
            per_draw: 1,
            ..Uniform::new(self.uniform.radix)
        };
        let mut total = 0i64;
        let mut i = [0u32; 1];
        for _ in 0..self.groups {
            one.fill(rng, &mut i);
            total += i64::from(self.table[i[0] as usize]);
        }
        self.offset + total
    }
}

impl Batch for TableRoll {
    type Outcome = i64;

    fn roll_batch<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        trials: u64,
        histogram: &mut Histogram<i64>,
    ) {
        let mut counts = vec![0u64; self.max_total + 1];
        if self.groups == 1 {
            // One index a trial: whole draws at once.
            let k = self.uniform.per_draw;
            let mut buf = [0u32; BUF];
            let mut left = trials;
            while left > 0 {
                let take = (k as u64).min(left) as usize;
                self.uniform.fill(rng, &mut buf[..k]);
                for &i in &buf[..take] {
                    counts[usize::from(self.table[i as usize])] += 1;
                }
                left -= take as u64;
            }
        } else {
            let mut stream = Stream::new();
            for _ in 0..trials {
                counts[self.trial(&mut stream, rng)] += 1;
            }
        }
        for (total, &count) in counts.iter().enumerate() {
            if count > 0 {
                histogram.add_many(self.offset + total as i64, count);
            }
        }
    }
}

/// Successes among `dice` exploding dice: each face passing `success` counts one, each face
/// passing `explode` adds another die (which may count and explode in turn), at most `cap`
/// extra dice for each die rolled first, as dice-core's exploding pools do. Dice go through
/// group tables (successes and explosions of every face combination of 1 to `g` dice): the
/// first dice in groups of `g`, the extra dice a generation at a time.
///
/// ```
/// use dice_core::{Comparison, Die, Exact, Explode, Pool, SuccessPool};
/// use dice_sim::{ExplodingCount, Simulation};
///
/// let fast = ExplodingCount::new(10, 10, |f| f >= 8, |f| f == 10, 100)?;
/// let r = Simulation::new(1, 100_000)?.run_batch(&fast);
/// let pool = Pool::new(10, Die::D10)?.exploding(Explode::new(Comparison::Exactly(10)))?;
/// let exact = SuccessPool::new(pool, Comparison::AtLeast(8)).distribution()?;
/// assert!(r.estimate(&3).covers(exact.probability(&3)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ExplodingCount {
    /// `tables[k - 1]`: per combination of `k` dice, successes in the low byte and
    /// explosions in the high byte, for `k` from 1 to the group size.
    tables: Vec<Vec<u16>>,
    uniforms: Vec<Uniform>,
    /// The group size of the first dice, and how many groups they make.
    group: usize,
    groups: u32,
    cap: u32,
}

impl ExplodingCount {
    /// `dice` dice of `sides` faces; `success` and `explode` test a face `1..=sides`; at
    /// most `cap` extra dice per first die.
    ///
    /// # Errors
    /// [`SimError::Table`] when `sides < 2` or `dice` is 0.
    pub fn new(
        dice: u32,
        sides: u32,
        success: impl Fn(u32) -> bool,
        explode: impl Fn(u32) -> bool,
        cap: u32,
    ) -> Result<ExplodingCount, SimError> {
        if sides < 2 || dice == 0 {
            return Err(table_error(
                "needs dice of at least 2 sides and at least one die",
            ));
        }
        if u64::from(sides) > MAX_TABLE {
            return Err(table_error(format!("at most {MAX_TABLE} sides")));
        }
        let g = group_size(sides, dice).min(255);
        let mut tables = Vec::with_capacity(g as usize);
        for k in 1..=g {
            let mut t = Vec::new();
            each_combination(sides, k, |faces| {
                let s = faces.iter().filter(|&&f| success(f)).count() as u16;
                let e = faces.iter().filter(|&&f| explode(f)).count() as u16;
                t.push(s | (e << 8));
            });
            tables.push(t);
        }
        Ok(ExplodingCount {
            uniforms: tables
                .iter()
                .map(|t| Uniform::new(t.len() as u64))
                .collect(),
            tables,
            group: g as usize,
            groups: dice / g,
            cap,
        })
    }

    /// One trial. Extra dice are rolled a generation at a time (every chain's next die at
    /// once, from the table of that many dice): after `k` generations every chain has `k`
    /// extra dice, so stopping after `cap` generations is the per-die cap exactly.
    #[inline(always)]
    fn trial<R: Rng + ?Sized>(&self, streams: &mut [Stream], rng: &mut R) -> u32 {
        let g = self.group;
        let mut successes = 0u32;
        let mut pending = 0usize;
        for _ in 0..self.groups {
            let e = self.tables[g - 1][streams[g - 1].next(&self.uniforms[g - 1], rng)];
            successes += u32::from(e & 0xff);
            pending += usize::from(e >> 8);
        }
        let mut generation = 0;
        while pending > 0 && generation < self.cap {
            let mut next = 0usize;
            while pending > 0 {
                let k = pending.min(g);
                let e = self.tables[k - 1][streams[k - 1].next(&self.uniforms[k - 1], rng)];
                successes += u32::from(e & 0xff);
                next += usize::from(e >> 8);
                pending -= k;
            }
            pending = next;
            generation += 1;
        }
        successes
    }

    fn streams(&self) -> Vec<Stream> {
        (0..self.group).map(|_| Stream::new()).collect()
    }
}

impl Roll for ExplodingCount {
    type Outcome = u32;

    /// One trial (draws fresh words; for many trials prefer [`Batch::roll_batch`]).
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.trial(&mut self.streams(), rng)
    }
}

impl Batch for ExplodingCount {
    type Outcome = u32;

    fn roll_batch<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        trials: u64,
        histogram: &mut Histogram<u32>,
    ) {
        let mut dense = [0u64; 64];
        let mut streams = self.streams();
        for _ in 0..trials {
            let s = self.trial(&mut streams, rng);
            match dense.get_mut(s as usize) {
                Some(c) => *c += 1,
                None => histogram.add(s),
            }
        }
        for (s, &count) in dense.iter().enumerate() {
            if count > 0 {
                histogram.add_many(s as u32, count);
            }
        }
    }
}

/// Any [`Roll`], one trial at a time: how [`crate::Simulation::run`] runs a mechanic.
pub(crate) struct PerTrial<'a, M: ?Sized>(pub(crate) &'a M);

impl<M> Batch for PerTrial<'_, M>
where
    M: Roll + Sync + ?Sized,
    M::Outcome: Send + 'static,
{
    type Outcome = M::Outcome;

    #[inline]
    fn roll_batch<R: Rng + ?Sized>(&self, rng: &mut R, trials: u64, h: &mut Histogram<M::Outcome>) {
        crate::run::count_trials(self.0, rng, trials, h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_packs_as_many_indices_as_fit() {
        assert_eq!(Uniform::new(1_296).per_draw, 6);
        assert_eq!(Uniform::new(100_000).per_draw, 3);
        assert_eq!(Uniform::new(10).per_draw, 19);
        // 2^64 mod 6^24, computed in 128 bits.
        let span: u128 = 6u128.pow(24);
        assert_eq!(u128::from(Uniform::new(1_296).reject), (1u128 << 64) % span);
    }

    #[test]
    fn combinations_are_listed_once_each() {
        let mut seen = Vec::new();
        each_combination(3, 2, |f| seen.push((f[0], f[1])));
        assert_eq!(seen.len(), 9);
        assert_eq!(seen[0], (1, 1));
        assert_eq!(seen[1], (1, 2));
        assert_eq!(seen[8], (3, 3));
    }

    #[test]
    fn group_sizes_divide_the_pool() {
        assert_eq!(group_size(10, 10), 5);
        assert_eq!(group_size(6, 10), 5);
        assert_eq!(group_size(6, 4), 4);
        assert_eq!(group_size(1000, 3), 1);
    }
}
