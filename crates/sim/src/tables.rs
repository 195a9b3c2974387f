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

use dice_core::{Keep, Rng, Roll};

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
        // Pack indices while the draw's span stays below 2⁶⁴ / 2^MAX_REJECT_SHIFT, so at
        // most one draw in 64 is rejected: packing one index more can leave a span just
        // below 2⁶⁴ that rejects up to half the draws (`1296⁶` rejects 23%), each a
        // mispredicted branch and a draw thrown away. A radix too large for even one index
        // under that bound still gets one. A power of two is never rejected (its span
        // divides 2⁶⁴), so it packs while the span fits.
        while per_draw < BUF {
            match span
                .checked_mul(radix)
                .filter(|&s| s <= u64::MAX >> MAX_REJECT_SHIFT || radix.is_power_of_two())
            {
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

impl Uniform {
    /// The indices of two words at once (`out.len() == 2 * per_draw`): the first word's into
    /// the first half, the second's into the second. The two chains of multiplications are
    /// independent, so the processor overlaps them; each word is accepted, or drawn again on
    /// its own, as [`Uniform::fill`] does, so each half is uniform and independent of the other.
    #[inline(always)]
    fn fill_pair<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut [u32]) {
        let (a, b) = out.split_at_mut(self.per_draw);
        let radix = u128::from(self.radix);
        let mut x = rng.next_u64();
        let mut y = rng.next_u64();
        for (i, j) in a.iter_mut().zip(b.iter_mut()) {
            let m = u128::from(x) * radix;
            let n = u128::from(y) * radix;
            *i = (m >> 64) as u32;
            *j = (n >> 64) as u32;
            x = m as u64;
            y = n as u64;
        }
        if x < self.reject {
            self.fill(rng, a);
        }
        if y < self.reject {
            self.fill(rng, b);
        }
    }
}

impl Uniform {
    /// The same indices, with `per_draw` cut down to a whole number of trials of `groups`
    /// indices each when at least one fits (so a trial never spans two draws).
    fn whole_trials(self, groups: u32) -> Uniform {
        let g = groups as usize;
        if g == 0 || g > self.per_draw || self.per_draw % g == 0 {
            return self;
        }
        let per_draw = self.per_draw / g * g;
        let span = (0..per_draw).fold(1u64, |span, _| span * self.radix);
        Uniform {
            radix: self.radix,
            per_draw,
            reject: span.wrapping_neg() % span,
        }
    }
}

/// Interleaved copies of each count, one per trial in turn: consecutive trials landing on the
/// same total then add to different memory words, so the additions do not wait on each other.
const LANES: usize = 4;

/// The most indices drawn in one block of [`TableRoll::roll_batch`].
const BLOCK: usize = 4 * BUF;

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

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
/// success count split into groups (`10d10 ≥ 8`: two groups of 5 dice, 100,000 entries).
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
            uniform: Uniform::new(n).whole_trials(groups),
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

    /// The sum of the dice `keep` keeps of `dice` dice of `sides` faces (`4d6kh3`, `2d20kl1`,
    /// `5d8dl2`), as one group: every face combination of all the dice is listed, so the pool
    /// must have at most [`MAX_TABLE`] combinations. [`Keep::All`] is [`TableRoll::sum`].
    ///
    /// ```
    /// use dice_core::Keep;
    /// let worst = dice_sim::TableRoll::keep(2, 20, Keep::Lowest(1))?;
    /// assert_eq!(worst.entries(), 400);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    ///
    /// # Errors
    /// As [`TableRoll::new`]; also when the kept dice's sum can exceed `u16::MAX`.
    pub fn keep(dice: u32, sides: u32, keep: Keep) -> Result<TableRoll, SimError> {
        if keep == Keep::All {
            return TableRoll::sum(dice, sides);
        }
        let kept = keep.kept_of(dice);
        if u64::from(kept) * u64::from(sides) > u64::from(u16::MAX) {
            return Err(table_error(format!(
                "the sum of {kept} d{sides} can exceed {}",
                u16::MAX
            )));
        }
        // The kept dice, as a range of the faces sorted from the highest down.
        let (skip, take) = match keep {
            Keep::Highest(_) | Keep::DropLowest(_) => (0, kept),
            Keep::Lowest(_) | Keep::DropHighest(_) | Keep::All => (dice - kept, kept),
        };
        let mut sorted = Vec::with_capacity(dice as usize);
        TableRoll::new(sides, dice, 1, 0, |faces| {
            sorted.clear();
            sorted.extend_from_slice(faces);
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            sorted[skip as usize..(skip + take) as usize]
                .iter()
                .sum::<u32>() as u16
        })
    }

    /// The sum of `dice` dice of `sides` faces (`3d6`, `10d10`), in groups as large as fit a
    /// table of about 131,072 entries.
    ///
    /// ```
    /// let t = dice_sim::TableRoll::sum(3, 6)?;
    /// assert_eq!(t.entries(), 216);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    ///
    /// # Errors
    /// As [`TableRoll::new`]; also when a group's sum can exceed `u16::MAX`.
    pub fn sum(dice: u32, sides: u32) -> Result<TableRoll, SimError> {
        if sides < 2 || dice == 0 {
            return Err(table_error(
                "needs dice of at least 2 sides and at least one die",
            ));
        }
        let g = group_size(sides, dice);
        if u64::from(g) * u64::from(sides) > u64::from(u16::MAX) {
            return Err(table_error(format!(
                "the sum of {g} d{sides} can exceed {}",
                u16::MAX
            )));
        }
        TableRoll::new(sides, g, dice / g, 0, |faces| {
            faces.iter().sum::<u32>() as u16
        })
    }

    /// The number of `dice` dice of `sides` faces whose face passes `success`, in groups as
    /// large as fit a table of about 131,072 entries. Only the share of passing faces
    /// matters, so it is reduced first: `10d10 ≤ 5` is ten coins (one group, 1,024 entries,
    /// six trials a 64-bit draw), `10d10 ≥ 8` two groups of 5 dice (100,000 entries).
    ///
    /// ```
    /// let coins = dice_sim::TableRoll::count(10, 10, |f| f <= 5)?;
    /// assert_eq!(coins.entries(), 1_024);
    /// let t = dice_sim::TableRoll::count(10, 10, |f| f >= 8)?;
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
        // Only whether a die passes counts, so a die is `passing` chances in `sides`; with
        // the fraction reduced, it is a smaller die of `chances` passing faces in `faces`
        // (`d10 ≤ 5`: one in two). The count's law is the same, the groups larger and the
        // table smaller (`10d10 ≤ 5`: one group of ten coins, 1,024 entries).
        let passing = (1..=sides).filter(|&f| success(f)).count();
        let common = gcd(passing, sides as usize);
        let (mut faces, mut chances) = (sides as usize / common, passing / common);
        if faces < 2 {
            // Every face passes or none does (1 in 1, 0 in 1): the same as 2 in 2 or 0 in 2.
            faces = 2;
            chances *= 2;
        }
        let faces = faces as u32;
        let g = group_size(faces, dice);
        TableRoll::new(faces, g, dice / g, 0, |combination| {
            combination
                .iter()
                .filter(|&&f| f as usize <= chances)
                .count() as u16
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

impl TableRoll {
    /// Counts `trials` trials into `counts`, a word at a time: each word gives `per_draw /
    /// groups` whole trials, whose indices are taken and looked up in one pass (no buffer). A
    /// word that fails the final rejection test is rare (at most one in 64): its trials are
    /// taken back from the counts (the same pass again, subtracting) and a new word drawn, so
    /// what stays counted is exactly what accepted words gave.
    fn count_by_word<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        trials: u64,
        counts: &mut [[u64; LANES]],
    ) {
        // One or two groups a trial (the common tables) with the group loop unrolled.
        match self.groups {
            1 => self.count_words::<1, R>(rng, trials, counts),
            2 => self.count_words::<2, R>(rng, trials, counts),
            _ => self.count_words::<0, R>(rng, trials, counts),
        }
    }

    /// [`TableRoll::count_by_word`] with `G` groups a trial (0: as many as `self.groups`).
    fn count_words<const G: usize, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        trials: u64,
        counts: &mut [[u64; LANES]],
    ) {
        let per_word = (self.uniform.per_draw / self.groups as usize) as u64;
        let reject = self.uniform.reject;
        let mut left = trials;
        // Two words at a time, their chains of multiplications interleaved (independent, so
        // the processor overlaps them); the first word's trials counted in the even lanes,
        // the second's in the odd ones.
        while left >= 2 * per_word {
            let (x, y) = (rng.next_u64(), rng.next_u64());
            let (fx, fy) = self.count_pair::<G>(x, y, counts);
            left -= 2 * per_word;
            if fx < reject {
                self.count_word::<G>(x, per_word, 0, counts, u64::MAX);
                left += per_word;
            }
            if fy < reject {
                self.count_word::<G>(y, per_word, 1, counts, u64::MAX);
                left += per_word;
            }
        }
        while left > 0 {
            let take = per_word.min(left);
            let x = rng.next_u64();
            if self.count_word::<G>(x, take, 0, counts, 1) < reject {
                self.count_word::<G>(x, take, 0, counts, u64::MAX);
                continue;
            }
            left -= take;
        }
    }

    /// Adds `delta` (1, or `u64::MAX` to take back) to the count of each of the first `take`
    /// trials of the word `x`, the `t`-th in lane `(lane + 2t) mod LANES`; gives the word's
    /// final low part, for the rejection test. `G` is the number of groups when known at
    /// compile time, 0 otherwise.
    #[inline(always)]
    fn count_word<const G: usize>(
        &self,
        mut x: u64,
        take: u64,
        lane: usize,
        counts: &mut [[u64; LANES]],
        delta: u64,
    ) -> u64 {
        let radix = u128::from(self.uniform.radix);
        let groups = if G == 0 { self.groups as usize } else { G };
        let per_word = self.uniform.per_draw / groups;
        for t in 0..per_word {
            let mut total = 0usize;
            for _ in 0..groups {
                let m = u128::from(x) * radix;
                total += usize::from(self.table[(m >> 64) as usize]);
                x = m as u64;
            }
            if (t as u64) < take {
                let c = &mut counts[total][(lane + 2 * t) % LANES];
                *c = c.wrapping_add(delta);
            }
        }
        x
    }

    /// [`TableRoll::count_word`] of two whole words at once, interleaved: the first in lanes
    /// `2t mod LANES`, the second in `2t + 1`.
    #[inline(always)]
    fn count_pair<const G: usize>(
        &self,
        mut x: u64,
        mut y: u64,
        counts: &mut [[u64; LANES]],
    ) -> (u64, u64) {
        let radix = u128::from(self.uniform.radix);
        let groups = if G == 0 { self.groups as usize } else { G };
        let per_word = self.uniform.per_draw / groups;
        for t in 0..per_word {
            let (mut tx, mut ty) = (0usize, 0usize);
            for _ in 0..groups {
                let m = u128::from(x) * radix;
                let n = u128::from(y) * radix;
                tx += usize::from(self.table[(m >> 64) as usize]);
                ty += usize::from(self.table[(n >> 64) as usize]);
                x = m as u64;
                y = n as u64;
            }
            counts[tx][(2 * t) % LANES] += 1;
            counts[ty][(2 * t + 1) % LANES] += 1;
        }
        (x, y)
    }

    fn add_counts(&self, counts: &[[u64; LANES]], histogram: &mut Histogram<i64>) {
        for (total, count) in counts.iter().enumerate() {
            let count: u64 = count.iter().sum();
            if count > 0 {
                histogram.add_many(self.offset + total as i64, count);
            }
        }
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
        let mut counts = vec![[0u64; LANES]; self.max_total + 1];
        let g = self.groups as usize;
        if g <= self.uniform.per_draw {
            self.count_by_word(rng, trials, &mut counts);
            self.add_counts(&counts, histogram);
            return;
        }
        let mut lane = 0;
        let pair = 2 * self.uniform.per_draw;
        // A block: whole pairs of draws, whole trials.
        let block = pair / gcd(pair, g) * g;
        if block <= BLOCK {
            let per_block = (block / g) as u64;
            let mut buf = [0u32; BLOCK];
            let mut left = trials;
            while left > 0 {
                for draws in buf[..block].chunks_exact_mut(pair) {
                    self.uniform.fill_pair(rng, draws);
                }
                let take = per_block.min(left);
                if g == 1 {
                    for &i in &buf[..take as usize] {
                        counts[usize::from(self.table[i as usize])][lane] += 1;
                        lane = (lane + 1) % LANES;
                    }
                    left -= take;
                    continue;
                }
                for trial in buf[..take as usize * g].chunks_exact(g) {
                    let total: usize = trial
                        .iter()
                        .map(|&i| usize::from(self.table[i as usize]))
                        .sum();
                    counts[total][lane] += 1;
                    lane = (lane + 1) % LANES;
                }
                left -= take;
            }
        } else {
            let mut stream = Stream::new();
            for _ in 0..trials {
                counts[self.trial(&mut stream, rng)][lane] += 1;
                lane = (lane + 1) % LANES;
            }
        }
        self.add_counts(&counts, histogram);
    }
}

/// Successes among `dice` exploding dice: each face passing `success` counts one, each face
/// passing `explode` adds another die (which may count and explode in turn), at most `cap`
/// extra dice for each die rolled first, as dice-core's exploding pools do.
///
/// The first dice go through a group table (successes and explosions of every face
/// combination of a group of `g` dice). Each explosion starts a *chain* of extra dice, and a
/// chain is read `depth` dice at a time from a second table: for every sequence of `depth`
/// faces, the successes the chain scores along it (up to and including its first face that
/// does not explode) and whether all of them explode, so that the chain goes on. For `d10`
/// the chain table has 1,000 entries and a chain goes on past one lookup once in a thousand:
/// nearly every explosion costs one table read, with no test per die. Near the cap, the last
/// few extra dice of a chain are read one at a time.
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
    /// Per combination of `group` first dice: successes in the low byte, explosions in the
    /// high byte.
    first: Vec<u16>,
    first_uniform: Uniform,
    /// How many groups the first dice make.
    groups: u32,
    /// Per sequence of `depth` chain dice: successes in the low byte, [`GOES_ON`] when every
    /// die of the sequence explodes.
    chain: Vec<u16>,
    chain_uniform: Uniform,
    depth: u32,
    /// Per face of one die: success in the low byte, [`GOES_ON`] when it explodes (the last
    /// dice of a chain near the cap).
    single: Vec<u16>,
    single_uniform: Uniform,
    cap: u32,
    /// When the first groups and `lanes` chain reads fit one 64-bit word: how many chain
    /// reads the word carries, and `2⁶⁴ mod` the word's span (a final low word below it
    /// rejects the word).
    word: Option<(u32, u64)>,
}

/// A word plan is used only when it rejects at most this fraction of draws (1/64).
const MAX_REJECT_SHIFT: u32 = 6;

/// The flag of a chain-table entry whose dice all explode.
const GOES_ON: u16 = 1 << 8;

/// Chain tables hold at most this many sequences (8 KB of `u16`, in L1).
const CHAIN_BUDGET: u64 = 4_096;

impl ExplodingCount {
    /// `dice` dice of `sides` faces; `success` and `explode` test a face `1..=sides`; at
    /// most `cap` extra dice per first die.
    ///
    /// ```
    /// use dice_sim::ExplodingCount;
    /// // 6d6 exploding on 6, successes on 5+, at most 3 extra dice per die.
    /// let pool = ExplodingCount::new(6, 6, |f| f >= 5, |f| f == 6, 3)?;
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    ///
    /// # Errors
    /// [`SimError::Table`] when `sides < 2`, `dice` is 0, or `sides` exceeds [`MAX_TABLE`].
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
        let mut first = Vec::new();
        each_combination(sides, g, |faces| {
            let s = faces.iter().filter(|&&f| success(f)).count() as u16;
            let e = faces.iter().filter(|&&f| explode(f)).count() as u16;
            first.push(s | (e << 8));
        });
        // The deepest chain sequence that fits the budget, no deeper than the cap.
        let depth = (1..=cap.min(16))
            .rev()
            .find(|&d| entries(sides, d, CHAIN_BUDGET).is_some())
            .unwrap_or(1);
        let mut chain = Vec::new();
        each_combination(sides, depth, |faces| {
            let mut s = 0u16;
            for &f in faces {
                s += u16::from(success(f));
                if !explode(f) {
                    chain.push(s);
                    return;
                }
            }
            chain.push(s | GOES_ON);
        });
        let single: Vec<u16> = (1..=sides)
            .map(|f| u16::from(success(f)) | if explode(f) { GOES_ON } else { 0 })
            .collect();
        let groups = dice / g;
        let word = word_plan(first.len() as u64, groups, chain.len() as u64, cap);
        Ok(ExplodingCount {
            first_uniform: Uniform::new(first.len() as u64),
            first,
            groups,
            chain_uniform: Uniform::new(chain.len() as u64),
            chain,
            depth,
            single_uniform: Uniform::new(u64::from(sides)),
            single,
            cap,
            word,
        })
    }

    /// Entries in the largest table (the first dice's group table).
    ///
    /// ```
    /// let pool = dice_sim::ExplodingCount::new(10, 10, |f| f >= 8, |f| f == 10, 100)?;
    /// assert_eq!(pool.entries(), 100_000);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    pub fn entries(&self) -> usize {
        self.first.len().max(self.chain.len())
    }

    /// One trial from one 64-bit word (nearly always): the first groups' indices and
    /// `lanes` chain-table indices, as the digits of one uniform mixed-radix number. The
    /// first `chains` chain reads count (the others are drawn and dropped, which biases
    /// nothing: the digits are independent); more chains than lanes, or a chain that goes
    /// on, finish through the streams.
    #[inline(always)]
    fn trial_word<R: Rng + ?Sized>(
        &self,
        lanes: u32,
        reject: u64,
        streams: &mut [Stream; 3],
        rng: &mut R,
    ) -> u32 {
        let first_radix = self.first.len() as u128;
        let chain_radix = self.chain.len() as u128;
        let mut entries = [0u16; MAX_LANES];
        loop {
            let mut x = rng.next_u64();
            let mut successes = 0u32;
            let mut chains = 0u32;
            for _ in 0..self.groups {
                let m = u128::from(x) * first_radix;
                let e = self.first[(m >> 64) as usize];
                x = m as u64;
                successes += u32::from(e & 0xff);
                chains += u32::from(e >> 8);
            }
            let mut goes_on = 0u16;
            for (k, slot) in entries.iter_mut().enumerate().take(lanes as usize) {
                let m = u128::from(x) * chain_radix;
                let e = self.chain[(m >> 64) as usize];
                x = m as u64;
                let counted = u16::from((k as u32) < chains);
                successes += u32::from(counted * (e & 0xff));
                goes_on |= counted * (e & GOES_ON);
                *slot = e;
            }
            if x < reject {
                continue;
            }
            if chains > lanes || goes_on != 0 {
                successes += self.more(&entries[..lanes as usize], chains, streams, rng);
            }
            return successes;
        }
    }

    /// The rest of a word trial: chains of the word that go on, and chains beyond its lanes.
    #[cold]
    #[inline(never)]
    fn more<R: Rng + ?Sized>(
        &self,
        entries: &[u16],
        chains: u32,
        streams: &mut [Stream; 3],
        rng: &mut R,
    ) -> u32 {
        let mut successes = 0;
        for (k, &e) in entries.iter().enumerate() {
            if (k as u32) < chains && e & GOES_ON != 0 {
                successes += self.chain_on(self.cap - self.depth, streams, rng);
            }
        }
        for _ in entries.len() as u32..chains {
            successes += self.chain_on(self.cap, streams, rng);
        }
        successes
    }

    /// The successes of a chain with `left` extra dice allowed, read from the streams.
    #[inline(always)]
    fn chain_on<R: Rng + ?Sized>(
        &self,
        mut left: u32,
        streams: &mut [Stream; 3],
        rng: &mut R,
    ) -> u32 {
        let [_, chain, single] = streams;
        let mut successes = 0;
        while left > 0 {
            let (e, used) = if left >= self.depth {
                (self.chain[chain.next(&self.chain_uniform, rng)], self.depth)
            } else {
                (self.single[single.next(&self.single_uniform, rng)], 1)
            };
            successes += u32::from(e & 0xff);
            left -= used;
            if e & GOES_ON == 0 {
                break;
            }
        }
        successes
    }

    /// One trial: from one word when the plan allows, else from the streams.
    #[inline(always)]
    fn trial<R: Rng + ?Sized>(&self, streams: &mut [Stream; 3], rng: &mut R) -> u32 {
        if let Some((lanes, reject)) = self.word {
            return self.trial_word(lanes, reject, streams, rng);
        }
        let mut successes = 0u32;
        let mut chains = 0u32;
        for _ in 0..self.groups {
            let e = self.first[streams[0].next(&self.first_uniform, rng)];
            successes += u32::from(e & 0xff);
            chains += u32::from(e >> 8);
        }
        if self.cap == 0 {
            return successes;
        }
        for _ in 0..chains {
            successes += self.chain_on(self.cap, streams, rng);
        }
        successes
    }

    fn streams() -> [Stream; 3] {
        [Stream::new(), Stream::new(), Stream::new()]
    }
}

/// The most chain reads one word carries.
const MAX_LANES: usize = 4;

/// The word plan of [`ExplodingCount`]: the most chain reads (up to [`MAX_LANES`]) that fit
/// one 64-bit word beside the first `groups` indices below `first`, each below `chain`,
/// with at most 1/64 of the words rejected; `None` when not even the first indices fit.
fn word_plan(first: u64, groups: u32, chain: u64, cap: u32) -> Option<(u32, u64)> {
    let mut span: u128 = 1;
    for _ in 0..groups {
        span = span
            .checked_mul(u128::from(first))
            .filter(|&s| s <= 1 << 64)?;
    }
    let reject_of = |span: u128| ((1u128 << 64) % span) as u64;
    let fits = |span: u128| span <= 1 << 64 && reject_of(span) <= u64::MAX >> MAX_REJECT_SHIFT;
    if !fits(span) {
        return None;
    }
    let mut lanes = 0;
    if cap > 0 {
        while lanes < MAX_LANES as u32 && fits(span * u128::from(chain)) {
            span *= u128::from(chain);
            lanes += 1;
        }
        if lanes == 0 {
            return None;
        }
    }
    Some((lanes, reject_of(span)))
}

impl Roll for ExplodingCount {
    type Outcome = u32;

    /// One trial (draws fresh words; for many trials prefer [`Batch::roll_batch`]).
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.trial(&mut Self::streams(), rng)
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
        let mut streams = Self::streams();
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

/// Any [`Roll`] as a [`Batch`], one trial at a time: how [`crate::Simulation::run`] runs a
/// mechanic. For code that takes a [`Batch`] and should also take plain mechanics.
///
/// ```
/// use dice_core::Die;
/// use dice_sim::{PerTrial, Simulation};
///
/// let sim = Simulation::new(4, 10_000)?;
/// assert_eq!(sim.run_batch(&PerTrial(&Die::D6)), sim.run(&Die::D6));
/// # Ok::<(), dice_sim::SimError>(())
/// ```
pub struct PerTrial<'a, M: ?Sized>(pub &'a M);

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
    fn uniform_packs_as_many_indices_as_keep_rejection_rare() {
        // The most indices whose span is at most 2^58 (so at most 1 draw in 64 rejected).
        for (radix, per_draw) in [(1_296u64, 5usize), (100_000, 3), (10, 17), (6, 22)] {
            let u = Uniform::new(radix);
            assert_eq!(u.per_draw, per_draw, "radix {radix}");
            let span = u128::from(radix).pow(per_draw as u32);
            assert!(span <= 1 << 58 && span * u128::from(radix) > 1 << 58);
            // 2^64 mod span, computed in 128 bits.
            assert_eq!(u128::from(u.reject), (1u128 << 64) % span);
        }
        // A radix over 2^58 still gets one index a draw.
        assert_eq!(Uniform::new(1 << 60).per_draw, 1);
        // A power of two divides 2^64: never rejected, so it packs while the span fits.
        for (radix, per_draw) in [(2u64, 63usize), (64, 10), (1_024, 6), (1 << 17, 3)] {
            let u = Uniform::new(radix);
            assert_eq!(u.per_draw, per_draw, "radix {radix}");
            assert_eq!(u.reject, 0, "radix {radix}");
            let span = u128::from(radix).pow(per_draw as u32);
            assert!(span < 1 << 64 && span * u128::from(radix) >= 1 << 64);
        }
        // Whole trials: 3 indices of 100,000 a draw, cut to 2 for trials of 2 groups.
        let u = Uniform::new(100_000).whole_trials(2);
        assert_eq!(u.per_draw, 2);
        assert_eq!(u128::from(u.reject), (1u128 << 64) % 10u128.pow(10));
        assert_eq!(Uniform::new(1_296).whole_trials(1).per_draw, 5);
        assert_eq!(Uniform::new(1_296).whole_trials(7).per_draw, 5);
    }

    /// Words given in advance (then 0s): the sampler's draws are known.
    struct Words(Vec<u64>, usize);

    impl rand::TryRng for Words {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let w = self.0.get(self.1).copied().unwrap_or(0);
            self.1 += 1;
            Ok(w)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for b in dst {
                *b = self.try_next_u64()? as u8;
            }
            Ok(())
        }
    }

    /// The trials of the accepted words, decoded one index at a time as Lemire's method
    /// defines them (the reference for the word-at-a-time counting).
    fn decode(table: &TableRoll, words: &[u64], trials: u64) -> Vec<(i64, u64)> {
        let u = table.uniform;
        let g = table.groups as usize;
        let mut totals = std::collections::BTreeMap::new();
        let mut left = trials;
        for &w in words {
            if left == 0 {
                break;
            }
            let mut x = w;
            let mut word = Vec::new();
            for _ in 0..u.per_draw {
                let m = u128::from(x) * u128::from(u.radix);
                word.push(i64::from(table.table[(m >> 64) as usize]));
                x = m as u64;
            }
            if x < u.reject {
                continue;
            }
            for trial in word.chunks_exact(g) {
                if left == 0 {
                    break;
                }
                *totals
                    .entry(table.offset + trial.iter().sum::<i64>())
                    .or_insert(0) += 1;
                left -= 1;
            }
        }
        totals.into_iter().collect()
    }

    #[test]
    fn rejected_words_are_taken_back_exactly() {
        // 4d6kh3 (one group a trial, 5 a word) and 10d10 >= 8 (two groups of 5 dice a trial,
        // one trial a word). A word 0 is always rejected (its final low word is 0 < `reject`):
        // here in both halves of a pair, alone, and as the last, partly used word.
        let tables = [
            TableRoll::keep_highest(4, 6, 3).unwrap(),
            TableRoll::count(10, 10, |f| f >= 8).unwrap(),
        ];
        for table in &tables {
            assert!(table.uniform.reject > 1);
            let mut words = Vec::new();
            let mut state = 0x9E37_79B9_7F4A_7C15u64;
            for i in 0..40u64 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                words.push(if i % 7 == 3 || i % 11 == 0 {
                    i % 2
                } else {
                    state
                });
            }
            for trials in [1, 4, 5, 9, 10, 17, 23] {
                let mut h = Histogram::new();
                table.roll_batch(&mut Words(words.clone(), 0), trials, &mut h);
                assert_eq!(h.trials(), trials);
                assert_eq!(h.sorted(), decode(table, &words, trials), "{trials} trials");
            }
        }
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
