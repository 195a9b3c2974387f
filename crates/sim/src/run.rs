//! Running a mechanic many times: chunks, seeds, threads, precision stops and progress.

use std::ops::{ControlFlow, Range};

use std::any::Any;

use dice_core::Roll;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::error::SimError;
use crate::histogram::{Estimates, Histogram};
use crate::tables::{Batch, PerTrial};

/// Trials per chunk unless the caller sets another size. Each chunk has its own RNG stream,
/// derived from (seed, chunk index), so results do not depend on how chunks are scheduled.
pub const DEFAULT_CHUNK_SIZE: u64 = 1 << 16;
/// The most trials one simulation may be asked for.
pub const MAX_TRIALS: u64 = 1 << 48;
/// The confidence level of the intervals unless the caller sets another.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// The most chunks in one round of a run with progress (between two progress calls).
const MAX_ROUND: u64 = 64;

/// A round quicker than this grows (see [`Simulation::run_batch_with_progress`]).
const QUICK_ROUND: std::time::Duration = std::time::Duration::from_millis(50);

/// How far a run has got, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Trials run so far.
    pub done: u64,
    /// The most trials the run will make.
    pub total: u64,
}

/// The RNG of chunk `chunk` of a run seeded with `seed`: SplitMix64 finalisers of both
/// mixed into one 64-bit seed for [`Xoshiro256PlusPlus`].
///
/// ```
/// use rand::Rng;
/// let mut a = dice_sim::chunk_rng(7, 3);
/// let mut b = dice_sim::chunk_rng(7, 3);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert_ne!(dice_sim::chunk_rng(7, 4).next_u64(), dice_sim::chunk_rng(7, 3).next_u64());
/// ```
pub fn chunk_rng(seed: u64, chunk: u64) -> Xoshiro256PlusPlus {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ mix(chunk)))
}

/// The chunks of shard `index` (from 0) when `chunks` chunks are cut into `count` shards
/// as evenly as can be: the first `chunks % count` shards get one chunk more. The shards'
/// ranges are disjoint and cover `0..chunks` in order, so running each with
/// [`Simulation::run_chunks`] (anywhere: other processes, other machines) and merging the
/// histograms gives exactly the histogram of one run. A shard may be empty when there are
/// more shards than chunks.
///
/// ```
/// use dice_core::Die;
/// use dice_sim::{Histogram, Simulation, shard_range};
///
/// assert_eq!(shard_range(10, 0, 3), 0..4);
/// assert_eq!(shard_range(10, 1, 3), 4..7);
/// assert_eq!(shard_range(10, 2, 3), 7..10);
///
/// let sim = Simulation::new(11, 100_000)?.chunk_size(4_096)?;
/// let mut merged = Histogram::new();
/// for i in 0..4 {
///     merged.merge(&sim.run_chunks(&Die::D6, shard_range(sim.chunks(), i, 4)));
/// }
/// assert_eq!(&merged, sim.run(&Die::D6).histogram());
/// # Ok::<(), dice_sim::SimError>(())
/// ```
pub fn shard_range(chunks: u64, index: u64, count: u64) -> Range<u64> {
    if count == 0 || index >= count {
        return chunks..chunks;
    }
    let base = chunks / count;
    let extra = chunks % count;
    let start = index * base + index.min(extra);
    let len = base + u64::from(index < extra);
    start..start + len
}

/// A Monte Carlo run: a seed, a number of trials, and how to report.
///
/// The trials are cut into chunks of a fixed size; chunk `i` rolls with [`chunk_rng`]`(seed,
/// i)`. The histogram is the sum of the chunks' histograms, so the same seed, trial count and
/// chunk size give the same histogram bit for bit on any number of threads, in one process
/// or spread over many ([`Simulation::run_chunks`]).
///
/// ```
/// use dice_core::{Comparison, Die, Pool, SuccessPool};
/// use dice_sim::Simulation;
///
/// let test = SuccessPool::new(Pool::new(10, Die::D10)?, Comparison::AtMost(5));
/// let result = Simulation::new(42, 200_000)?.run(&test);
/// let five = result.estimate(&5);
/// println!("P(5 successes) = {:.4} ± {:.4}", five.probability, five.half_width());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Simulation {
    seed: u64,
    trials: u64,
    chunk_size: u64,
    confidence: f64,
    precision: Option<f64>,
    threads: Option<usize>,
}

impl Simulation {
    /// At most `trials` trials from `seed`.
    ///
    /// # Errors
    /// [`SimError::Trials`] unless `1 <= trials <= MAX_TRIALS`.
    pub fn new(seed: u64, trials: u64) -> Result<Self, SimError> {
        if trials == 0 || trials > MAX_TRIALS {
            return Err(SimError::Trials {
                trials,
                max: MAX_TRIALS,
            });
        }
        Ok(Simulation {
            seed,
            trials,
            chunk_size: DEFAULT_CHUNK_SIZE,
            confidence: DEFAULT_CONFIDENCE,
            precision: None,
            threads: None,
        })
    }

    /// The confidence level of the intervals (default 0.95).
    ///
    /// # Errors
    /// [`SimError::Confidence`] unless `0 < level < 1`.
    pub fn confidence(mut self, level: f64) -> Result<Self, SimError> {
        if !(level > 0.0 && level < 1.0) {
            return Err(SimError::Confidence { level });
        }
        self.confidence = level;
        Ok(self)
    }

    /// Stop as soon as every seen outcome's interval is narrower than `±half_width`, or at
    /// the trial count, whichever comes first. The check happens after whole rounds of
    /// chunks (1, 1, 2, 4, 8 … chunks, then 64 at a time), so the stopping point, like the
    /// histogram, does not depend on the number of threads.
    ///
    /// ```
    /// use dice_core::Die;
    /// use dice_sim::Simulation;
    /// let r = Simulation::new(3, 10_000_000)?.until_precision(0.005)?.run(&Die::D6);
    /// assert!(r.trials() < 10_000_000);
    /// assert!(r.widest_half_width() < 0.005);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    ///
    /// # Errors
    /// [`SimError::Precision`] unless `0 < half_width < 1`.
    pub fn until_precision(mut self, half_width: f64) -> Result<Self, SimError> {
        if !(half_width > 0.0 && half_width < 1.0) {
            return Err(SimError::Precision { half_width });
        }
        self.precision = Some(half_width);
        Ok(self)
    }

    /// Trials per chunk (default [`DEFAULT_CHUNK_SIZE`]). Part of what defines the random
    /// streams: a different chunk size gives different (equally valid) results.
    ///
    /// # Errors
    /// [`SimError::ChunkSize`] unless `1 <= size <= 2³²`.
    pub fn chunk_size(mut self, size: u64) -> Result<Self, SimError> {
        if size == 0 || size > 1 << 32 {
            return Err(SimError::ChunkSize { size });
        }
        self.chunk_size = size;
        Ok(self)
    }

    /// Run on exactly `threads` threads: the calling thread and `threads − 1` from a pool
    /// of that size kept for the process (with the `parallel` feature; without it,
    /// everything runs on the calling thread). Default: as many threads in all as rayon's
    /// current pool has (the global pool's size, `RAYON_NUM_THREADS` or the CPUs, unless
    /// called from inside another pool): from outside any pool, the calling thread and a
    /// kept pool of one thread fewer, as for `threads(n)`; from inside a pool, the calling
    /// thread and that pool. The results are the same bit for bit whatever the choice.
    ///
    /// # Errors
    /// [`SimError::Threads`] when `threads` is 0.
    pub fn threads(mut self, threads: usize) -> Result<Self, SimError> {
        if threads == 0 {
            return Err(SimError::Threads);
        }
        self.threads = Some(threads);
        Ok(self)
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The most trials the run makes.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// The number of chunks `trials` is cut into.
    pub fn chunks(&self) -> u64 {
        self.trials.div_ceil(self.chunk_size)
    }

    /// Trials in chunk `i` (the last chunk may be short).
    fn chunk_len(&self, i: u64) -> u64 {
        (self.trials - i * self.chunk_size).min(self.chunk_size)
    }

    /// Runs `mechanic` to the end (or to the precision target).
    pub fn run<M>(&self, mechanic: &M) -> Estimates<M::Outcome>
    where
        M: Roll + Sync + ?Sized,
        M::Outcome: Send + 'static,
    {
        self.run_batch(&PerTrial(mechanic))
    }

    /// As [`Simulation::run`], calling `progress` after every round of chunks; returning
    /// `ControlFlow::Break(())` stops the run there, and the result says it was cancelled.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use dice_core::Die;
    /// use dice_sim::Simulation;
    ///
    /// let sim = Simulation::new(5, 1_000_000)?.chunk_size(10_000)?;
    /// let mut calls = 0;
    /// let r = sim.run_with_progress(&Die::D6, |p| {
    ///     calls += 1;
    ///     if p.done >= 100_000 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// });
    /// assert!(r.cancelled());
    /// assert!(r.trials() >= 100_000 && r.trials() < 1_000_000);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    pub fn run_with_progress<M, F>(&self, mechanic: &M, progress: F) -> Estimates<M::Outcome>
    where
        M: Roll + Sync + ?Sized,
        M::Outcome: Send + 'static,
        F: FnMut(Progress) -> ControlFlow<()>,
    {
        self.run_batch_with_progress(&PerTrial(mechanic), progress)
    }

    /// Runs a [`Batch`] mechanic (a table sampler) to the end or the precision target: each
    /// chunk is handed to it whole, with the chunk's RNG. Same chunks, seeds, threads and
    /// reproducibility as [`Simulation::run`].
    ///
    /// ```
    /// use dice_sim::{Simulation, TableRoll};
    /// let stat = TableRoll::keep_highest(4, 6, 3)?;
    /// let sim = Simulation::new(8, 200_000)?;
    /// let a = sim.clone().threads(1)?.run_batch(&stat);
    /// let b = sim.threads(2)?.run_batch(&stat);
    /// assert_eq!(a.histogram(), b.histogram());
    /// assert!(a.estimate(&18).probability < 0.03);
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    pub fn run_batch<B: Batch + ?Sized>(&self, batch: &B) -> Estimates<B::Outcome> {
        if self.precision.is_some() {
            return self.run_batch_with_progress(batch, |_| ControlFlow::Continue(()));
        }
        // With nothing to report and no stopping test, every chunk in one round: the
        // threads meet once at the end instead of once a round (the same histogram, since
        // it is the sum of the chunks' whatever the rounds are).
        let total = self.run_batch_chunks(batch, 0..self.chunks());
        Estimates::from_histogram(total, self.confidence)
    }

    /// As [`Simulation::run_batch`], with progress and cancel as in
    /// [`Simulation::run_with_progress`].
    ///
    /// Without a precision target the first round is one chunk per thread, so the first
    /// progress call (and chance to cancel) comes after that many chunks, however slow
    /// each chunk is; rounds then grow while they are quick (at most 64 chunks). The rounds
    /// do not change the histogram: it is the same, bit for bit, as
    /// [`Simulation::run_batch`]'s.
    pub fn run_batch_with_progress<B, F>(
        &self,
        mechanic: &B,
        mut progress: F,
    ) -> Estimates<B::Outcome>
    where
        B: Batch + ?Sized,
        F: FnMut(Progress) -> ControlFlow<()>,
    {
        let chunks = self.chunks();
        let mut total = Histogram::new();
        let mut next = 0u64;
        let mut round = 0u32;
        let mut cancelled = false;
        // Without a precision target, rounds only pace the progress calls (and so how soon
        // a cancel is seen): they start at one chunk per thread and double, up to
        // `MAX_ROUND` chunks, while a round takes less than `QUICK_ROUND`, halving again
        // when one takes more than four times that. Slow chunks (a whole fight per trial)
        // are so checked on every few, and cheap ones are not held up by a call per chunk.
        // The histogram is the sum of the chunks' histograms whatever the rounds are.
        let threads = self.round_threads();
        let mut pace = threads;
        while next < chunks {
            // Rounds: 1, 1, 2, 4, … chunks while checking precision; 64 at a time after.
            let size = if self.precision.is_some() {
                match round {
                    0 => 1,
                    1..=6 => 1u64 << (round - 1),
                    _ => MAX_ROUND,
                }
            } else {
                pace
            };
            let end = (next + size).min(chunks);
            let started = std::time::Instant::now();
            let h = self.run_batch_chunks(mechanic, next..end);
            let took = started.elapsed();
            if took < QUICK_ROUND {
                pace = (pace * 2).min(MAX_ROUND.max(threads));
            } else if took > QUICK_ROUND * 4 {
                pace = (pace / 2).max(threads);
            }
            total.merge(&h);
            next = end;
            round += 1;
            let done = total.trials();
            if progress(Progress {
                done,
                total: self.trials,
            })
            .is_break()
            {
                cancelled = next < chunks;
                break;
            }
            if let Some(target) = self.precision {
                let e = Estimates::from_histogram(total.clone(), self.confidence);
                if e.widest_half_width() < target {
                    break;
                }
            }
        }
        let mut e = Estimates::from_histogram(total, self.confidence);
        e.cancelled = cancelled;
        e
    }

    /// How many threads a round of chunks is shared by: its first size without a
    /// precision target, so that every thread has a chunk.
    fn round_threads(&self) -> u64 {
        #[cfg(feature = "parallel")]
        let n = self.threads.unwrap_or_else(rayon::current_num_threads);
        #[cfg(not(feature = "parallel"))]
        let n = 1;
        u64::try_from(n).unwrap_or(u64::MAX).clamp(1, MAX_ROUND)
    }

    /// The histogram of chunks `range` alone: run disjoint ranges anywhere (other threads,
    /// processes or machines), [`Histogram::merge`] them, and the result is bit for bit the
    /// histogram of one run over all of them.
    ///
    /// ```
    /// use dice_core::Die;
    /// use dice_sim::Simulation;
    /// let sim = Simulation::new(9, 300_000)?.chunk_size(50_000)?;
    /// let mut a = sim.run_chunks(&Die::D6, 0..2);
    /// let b = sim.run_chunks(&Die::D6, 2..sim.chunks());
    /// a.merge(&b);
    /// assert_eq!(&a, sim.run(&Die::D6).histogram());
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    pub fn run_chunks<M>(&self, mechanic: &M, range: Range<u64>) -> Histogram<M::Outcome>
    where
        M: Roll + Sync + ?Sized,
        M::Outcome: Send + 'static,
    {
        self.run_batch_chunks(&PerTrial(mechanic), range)
    }

    /// As [`Simulation::run_chunks`], for a [`Batch`] mechanic.
    pub fn run_batch_chunks<B: Batch + ?Sized>(
        &self,
        mechanic: &B,
        range: Range<u64>,
    ) -> Histogram<B::Outcome> {
        let end = range.end.min(self.chunks());
        let range = range.start.min(end)..end;
        #[cfg(feature = "parallel")]
        {
            let chunks = range.end - range.start;
            match self.threads {
                // One thread, or nothing to share: the calling thread, with no pool to wake.
                Some(1) => {}
                _ if chunks <= 1 => {}
                Some(n) => {
                    // The caller is one of the `n` threads; the pool holds the others.
                    if let Some(pool) = thread_pool(n - 1) {
                        return self.shared(mechanic, range, n, Some(&pool));
                    }
                    // No pool could be built: run on the calling thread (same results).
                }
                None => {
                    let n = rayon::current_num_threads();
                    // Called from outside any pool (a program's main thread): the caller and a
                    // pool of `n − 1`, as for `threads(n)`. The global pool has `n` threads of
                    // its own, so with the caller working too there would be one thread more
                    // than the CPUs, and its idle worker's spinning slowed both others.
                    if n > 1 && rayon::current_thread_index().is_none() {
                        if let Some(pool) = thread_pool(n - 1) {
                            return self.shared(mechanic, range, n, Some(&pool));
                        }
                    }
                    return self.shared(mechanic, range, n, None);
                }
            }
        }
        self.sequential(mechanic, range)
    }

    fn sequential<M: Batch + ?Sized>(
        &self,
        mechanic: &M,
        range: Range<u64>,
    ) -> Histogram<M::Outcome> {
        let mut h = Histogram::new();
        for i in range {
            self.one_chunk(mechanic, i, &mut h);
        }
        h
    }

    /// Chunks `range` shared by the calling thread and `threads - 1` helpers from `pool`
    /// (rayon's current or global pool when `None`): each takes the next chunk not yet
    /// taken until none is left, counting into a histogram of its own, and the histograms
    /// are added up at the end.
    ///
    /// The caller starts on the first chunk at once and helpers join as they wake, so a
    /// helper that wakes late (an idle virtual CPU can take a millisecond) only takes fewer
    /// chunks instead of holding the run up; the counts do not depend on who took which
    /// chunk, since each chunk's RNG is fixed by its index and counts add up in any order.
    #[cfg(feature = "parallel")]
    fn shared<M>(
        &self,
        mechanic: &M,
        range: Range<u64>,
        threads: usize,
        pool: Option<&rayon::ThreadPool>,
    ) -> Histogram<M::Outcome>
    where
        M: Batch + ?Sized,
    {
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicU64, Ordering};

        let next = AtomicU64::new(range.start);
        let end = range.end;
        // More helpers than chunks after the caller's first would only wake for nothing.
        let spare = usize::try_from(end - range.start - 1).unwrap_or(usize::MAX);
        let helpers = threads.saturating_sub(1).min(spare);
        let found: Mutex<Vec<Histogram<M::Outcome>>> = Mutex::new(Vec::with_capacity(helpers));
        let take_chunks = || {
            let mut h = Histogram::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= end {
                    return h;
                }
                self.one_chunk(mechanic, i, &mut h);
            }
        };
        let done = std::sync::atomic::AtomicUsize::new(0);
        let mut total = match pool {
            Some(pool) => pool.in_place_scope(|scope| {
                caller_and_helpers(scope, helpers, &take_chunks, &found, &done)
            }),
            None => rayon::in_place_scope(|scope| {
                caller_and_helpers(scope, helpers, &take_chunks, &found, &done)
            }),
        };
        let found = found
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for h in &found {
            total.merge(h);
        }
        total
    }

    /// One chunk, with its own RNG, counted into `h`.
    fn one_chunk<B: Batch + ?Sized>(&self, batch: &B, i: u64, h: &mut Histogram<B::Outcome>) {
        let mut rng = chunk_rng(self.seed, i);
        batch.roll_batch(&mut rng, self.chunk_len(i), h);
    }
}

/// `trials` rolls of `mechanic` counted into `h`.
///
/// Small non-negative integer outcomes (`u32`, `i64`, `i32`, `u8` below [`DENSE`]) are
/// counted in a plain array first: the type test is resolved at compile time for each
/// mechanic, so this costs one bounds check per trial instead of a hash-table probe.
#[inline]
pub(crate) fn count_trials<M, R>(
    mechanic: &M,
    rng: &mut R,
    trials: u64,
    h: &mut Histogram<M::Outcome>,
) where
    M: Roll + ?Sized,
    M::Outcome: 'static,
    R: dice_core::Rng + ?Sized,
{
    let mut dense = [0u64; DENSE];
    for _ in 0..trials {
        let o = mechanic.roll(rng);
        match small_index(&o) {
            Some(k) => dense[k] += 1,
            None => h.add(o),
        }
    }
    for (k, &count) in dense.iter().enumerate() {
        if count > 0 {
            if let Some(o) = from_small_index::<M::Outcome>(k) {
                h.add_many(o, count);
            }
        }
    }
}

/// Spawns `helpers` tasks on `scope` that each run `take`, leave its result in `found` and
/// count themselves in `done`; runs `take` on the calling thread too, and returns the
/// caller's result.
#[cfg(feature = "parallel")]
fn caller_and_helpers<'s, H, T>(
    scope: &rayon::Scope<'s>,
    helpers: usize,
    take: &'s T,
    found: &'s std::sync::Mutex<Vec<H>>,
    done: &'s std::sync::atomic::AtomicUsize,
) -> H
where
    H: Send + 's,
    T: Fn() -> H + Sync,
{
    use std::sync::atomic::Ordering;
    for _ in 0..helpers {
        scope.spawn(move |_| {
            let h = take();
            // A poisoned lock only means another helper panicked after pushing; that panic
            // reaches the caller through the scope anyway.
            found
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(h);
            done.fetch_add(1, Ordering::Release);
        });
    }
    let mine = take();
    // The helpers are on their last chunks: wait for them awake for a little while, since a
    // caller asleep in the scope's wait has to be woken again, which on a virtual machine
    // can take longer than the chunk. Yielding, so that a helper short of a CPU of its own
    // gets this one. Past `FINISH_SPIN`, the scope's own wait.
    let start = std::time::Instant::now();
    while done.load(Ordering::Acquire) < helpers && start.elapsed() < FINISH_SPIN {
        std::thread::yield_now();
    }
    mine
}

/// How long the calling thread waits awake for the helpers' last chunks.
#[cfg(feature = "parallel")]
const FINISH_SPIN: std::time::Duration = std::time::Duration::from_micros(500);

/// Outcomes below this are counted densely when they are small integers.
const DENSE: usize = 64;

/// `Some(k)` when `o` is an integer of a known type with value `k < DENSE`.
#[inline(always)]
fn small_index<O: 'static>(o: &O) -> Option<usize> {
    let any = o as &dyn Any;
    let k = if let Some(&v) = any.downcast_ref::<u32>() {
        usize::try_from(v).ok()
    } else if let Some(&v) = any.downcast_ref::<i64>() {
        usize::try_from(v).ok()
    } else if let Some(&v) = any.downcast_ref::<i32>() {
        usize::try_from(v).ok()
    } else if let Some(&v) = any.downcast_ref::<u8>() {
        Some(usize::from(v))
    } else {
        None
    };
    k.filter(|&k| k < DENSE)
}

/// The outcome of dense index `k` (the inverse of [`small_index`]).
fn from_small_index<O: 'static + Clone>(k: usize) -> Option<O> {
    let boxed: Box<dyn Any> = if std::any::TypeId::of::<O>() == std::any::TypeId::of::<u32>() {
        Box::new(k as u32)
    } else if std::any::TypeId::of::<O>() == std::any::TypeId::of::<i64>() {
        Box::new(k as i64)
    } else if std::any::TypeId::of::<O>() == std::any::TypeId::of::<i32>() {
        Box::new(k as i32)
    } else if std::any::TypeId::of::<O>() == std::any::TypeId::of::<u8>() {
        Box::new(k as u8)
    } else {
        return None;
    };
    boxed.downcast_ref::<O>().cloned()
}

/// Pools of an exact size kept for the life of the process: building one spawns its threads,
/// which cost about 3 ms a run on the 2-core machine the benches run on (a third of a
/// million-trial run of a cheap mechanic), so each size is built once and reused. A run on
/// `n` threads uses the pool of `n − 1` (the caller is the `n`-th).
#[cfg(feature = "parallel")]
const MAX_CACHED_POOLS: usize = 8;

/// The cached pool of `threads` threads, built on first use; `None` if it cannot be built.
#[cfg(feature = "parallel")]
fn thread_pool(threads: usize) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    use std::sync::{Arc, Mutex, OnceLock};
    type Pools = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(Vec::new()));
    // A poisoned lock only means another run panicked while holding it; the list is intact.
    let mut pools = pools
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(Arc::clone(pool));
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()?,
    );
    if pools.len() < MAX_CACHED_POOLS {
        pools.push((threads, Arc::clone(&pool)));
    }
    Some(pool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice_core::{Die, Keep, Pool, Sum};

    /// Progress rounds pace the calls only: the histogram is the one of every chunk run in
    /// one go, on any number of threads, and the first call comes after one chunk per
    /// thread.
    #[test]
    fn progress_rounds_change_nothing_but_when_progress_is_called() {
        let m = Sum::new(Pool::new(3, Die::D6).unwrap(), Keep::All, 0).unwrap();
        let sim = Simulation::new(21, 300_000)
            .unwrap()
            .chunk_size(1_000)
            .unwrap();
        let whole = sim
            .clone()
            .threads(1)
            .unwrap()
            .run_chunks(&m, 0..sim.chunks());
        for threads in [1, 2, 3] {
            let s = sim.clone().threads(threads).unwrap();
            // Without the `parallel` feature every run is on the calling thread alone.
            let per_round = if cfg!(feature = "parallel") {
                threads
            } else {
                1
            } as u64;
            let mut calls = Vec::new();
            let r = s.run_with_progress(&m, |p| {
                calls.push(p.done);
                ControlFlow::Continue(())
            });
            assert_eq!(r.histogram(), &whole, "{threads} threads");
            // Without progress, every chunk in one round: the same histogram.
            assert_eq!(
                s.run(&m).histogram(),
                &whole,
                "{threads} threads, one round"
            );
            assert!(!r.cancelled());
            assert_eq!(calls.first(), Some(&(per_round * 1_000)));
            assert_eq!(calls.last(), Some(&300_000));
            // A cancel at the first call stops after one chunk per thread.
            let cut = s.run_with_progress(&m, |_| ControlFlow::Break(()));
            assert!(cut.cancelled());
            assert_eq!(cut.trials(), per_round * 1_000);
        }
    }
}
