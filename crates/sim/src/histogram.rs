//! Histograms of outcomes and the estimates drawn from them.

use std::fmt;
use std::hash::Hash;

use dice_core::{Dist, Numeric};
use rustc_hash::FxBuildHasher;

use crate::stats::wilson_interval;

/// Counts of outcomes over a number of trials.
///
/// Two histograms of disjoint chunk ranges of the same run [`merge`](Histogram::merge) into
/// exactly the histogram of the whole range (counts are integers, so the order of merging
/// does not matter). With the `serde` feature a histogram serializes as its sorted
/// `(outcome, count)` pairs, so runs made in other processes or on other machines can be
/// shipped back and merged.
///
/// ```
/// use dice_sim::Histogram;
/// let mut a = Histogram::new();
/// a.add(3u32);
/// a.add(3);
/// let mut b = Histogram::new();
/// b.add(5u32);
/// a.merge(&b);
/// assert_eq!(a.trials(), 3);
/// assert_eq!(a.count(&3), 2);
/// assert_eq!(a.sorted(), vec![(3, 2), (5, 1)]);
/// ```
#[derive(Clone, Debug)]
pub struct Histogram<O: Eq + Hash> {
    /// Open addressing with linear probing on the Fx hash's high bits: one multiply, one
    /// load and one comparison per trial when the slot is right, as it nearly always is.
    slots: Vec<Option<(O, u64)>>,
    /// `64 − log₂(slots.len())`.
    shift: u32,
    distinct: usize,
    trials: u64,
    /// More than [`MAX_DISTINCT`] distinct outcomes came up: the counts are dropped and only
    /// trials are counted.
    saturated: bool,
}

/// Slots of a new histogram (a power of two).
const INITIAL_SLOTS: usize = 64;

/// The most distinct outcomes a [`Histogram`] holds (about 50 MB of table for `i64`
/// outcomes). One more makes it [saturated](Histogram::is_saturated): it drops its counts,
/// so a run's memory stays bounded whatever the mechanic. Whether a run saturates depends
/// only on the set of outcomes it meets, not on the order or the threads, so it is as
/// reproducible as the counts.
pub const MAX_DISTINCT: usize = 1 << 20;

impl<O: Eq + Hash> Default for Histogram<O> {
    fn default() -> Self {
        Histogram {
            slots: (0..INITIAL_SLOTS).map(|_| None).collect(),
            shift: 64 - INITIAL_SLOTS.trailing_zeros(),
            distinct: 0,
            trials: 0,
            saturated: false,
        }
    }
}

impl<O: Eq + Hash> PartialEq for Histogram<O> {
    fn eq(&self, other: &Self) -> bool {
        self.trials == other.trials
            && self.saturated == other.saturated
            && self.distinct == other.distinct
            && self.iter().all(|(o, c)| other.count(o) == c)
    }
}

impl<O: Eq + Hash> Eq for Histogram<O> {}

impl<O: Eq + Hash> Histogram<O> {
    /// An empty histogram.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline(always)]
    fn home(&self, outcome: &O) -> usize {
        use std::hash::BuildHasher;
        (FxBuildHasher.hash_one(outcome) >> self.shift) as usize
    }

    /// Counts one trial's outcome.
    #[inline]
    pub fn add(&mut self, outcome: O) {
        self.add_count(outcome, 1);
    }

    /// Counts `count` trials of one outcome.
    pub fn add_many(&mut self, outcome: O, count: u64) {
        self.add_count(outcome, count);
    }

    #[inline]
    fn add_count(&mut self, outcome: O, count: u64) {
        self.trials += count;
        if self.saturated {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(&outcome);
        loop {
            match &mut self.slots[i] {
                Some((o, c)) if *o == outcome => {
                    *c += count;
                    return;
                }
                Some(_) => i = (i + 1) & mask,
                slot @ None => {
                    if self.distinct == MAX_DISTINCT {
                        self.saturate();
                        return;
                    }
                    *slot = Some((outcome, count));
                    self.distinct += 1;
                    if self.distinct * 2 > self.slots.len() {
                        self.grow();
                    }
                    return;
                }
            }
        }
    }

    /// Drops the counts (freeing their memory) and counts only trials from now on.
    #[cold]
    fn saturate(&mut self) {
        *self = Histogram {
            trials: self.trials,
            saturated: true,
            ..Histogram::default()
        };
    }

    /// Whether more than [`MAX_DISTINCT`] distinct outcomes came up, so that the counts were
    /// dropped: [`Histogram::trials`] is still right, every count reads 0, and estimates
    /// drawn from it list nothing.
    ///
    /// ```
    /// use dice_sim::{Histogram, MAX_DISTINCT};
    /// let mut h = Histogram::new();
    /// for v in 0..=MAX_DISTINCT as u64 {
    ///     h.add(v);
    /// }
    /// assert!(h.is_saturated());
    /// assert_eq!(h.trials(), MAX_DISTINCT as u64 + 1);
    /// assert_eq!(h.len(), 0);
    /// ```
    pub fn is_saturated(&self) -> bool {
        self.saturated
    }

    /// Doubles the table.
    #[cold]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let len = old.len() * 2;
        self.slots = (0..len).map(|_| None).collect();
        self.shift -= 1;
        let mask = len - 1;
        for (o, c) in old.into_iter().flatten() {
            let mut i = self.home(&o);
            while self.slots[i].is_some() {
                i = (i + 1) & mask;
            }
            self.slots[i] = Some((o, c));
        }
    }

    /// `(outcome, count)` pairs in no particular order.
    fn iter(&self) -> impl Iterator<Item = (&O, u64)> + '_ {
        self.slots.iter().flatten().map(|(o, c)| (o, *c))
    }

    /// Trials counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// How often `outcome` came up.
    pub fn count(&self, outcome: &O) -> u64 {
        let mask = self.slots.len() - 1;
        let mut i = self.home(outcome);
        loop {
            match &self.slots[i] {
                Some((o, c)) if o == outcome => return *c,
                Some(_) => i = (i + 1) & mask,
                None => return 0,
            }
        }
    }

    /// Adds another histogram's counts to this one.
    pub fn merge(&mut self, other: &Histogram<O>)
    where
        O: Clone,
    {
        if other.saturated {
            self.trials += other.trials;
            if !self.saturated {
                self.saturate();
            }
            return;
        }
        for (o, c) in other.iter() {
            self.add_count(o.clone(), c);
        }
    }

    /// Number of distinct outcomes seen.
    pub fn len(&self) -> usize {
        self.distinct
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.trials == 0
    }

    /// `(outcome, count)` pairs in increasing order of outcome.
    pub fn sorted(&self) -> Vec<(O, u64)>
    where
        O: Clone + Ord,
    {
        let mut v: Vec<(O, u64)> = self.iter().map(|(o, c)| (o.clone(), c)).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// Builds a histogram from `(outcome, count)` pairs.
    pub fn from_counts<I: IntoIterator<Item = (O, u64)>>(pairs: I) -> Self {
        let mut h = Histogram::new();
        for (o, c) in pairs {
            h.add_count(o, c);
        }
        h
    }
}

#[cfg(feature = "serde")]
impl<O: Eq + Hash + Clone + Ord + serde::Serialize> serde::Serialize for Histogram<O> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.saturated {
            return Err(serde::ser::Error::custom(
                "a saturated histogram has no counts to serialize",
            ));
        }
        self.sorted().serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de, O: Eq + Hash + serde::Deserialize<'de>> serde::Deserialize<'de> for Histogram<O> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let pairs: Vec<(O, u64)> = Vec::deserialize(d)?;
        Ok(Histogram::from_counts(pairs))
    }
}

/// One outcome's estimated probability with its confidence interval.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Estimate<O> {
    /// The outcome (or the event's description, for [`Estimates::probability_where`]).
    pub outcome: O,
    /// How often it came up.
    pub count: u64,
    /// `count / trials`.
    pub probability: f64,
    /// Lower end of the Wilson score interval.
    pub low: f64,
    /// Upper end of the Wilson score interval.
    pub high: f64,
}

impl<O> Estimate<O> {
    /// Half the interval's width: the "±" of the estimate.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Whether `p` lies in the interval.
    pub fn covers(&self, p: f64) -> bool {
        self.low <= p && p <= self.high
    }
}

impl<O: fmt::Display> fmt::Display for Estimate<O> {
    /// `7: 0.16670 [0.16440, 0.16902]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {:.5} [{:.5}, {:.5}]",
            self.outcome, self.probability, self.low, self.high
        )
    }
}

/// What a simulation found: the histogram, the trials run, and estimates at a confidence
/// level.
///
/// ```
/// use dice_core::Die;
/// use dice_sim::Simulation;
///
/// let result = Simulation::new(1, 60_000)?.run(&Die::D6);
/// assert_eq!(result.trials(), 60_000);
/// let six = result.estimate(&6);
/// assert!(six.covers(1.0 / 6.0));
/// assert!((result.mean() - 3.5).abs() < 5.0 * result.standard_error());
/// # Ok::<(), dice_sim::SimError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "O: Eq + Hash + Clone + Ord + serde::Serialize",
        deserialize = "O: Eq + Hash + serde::Deserialize<'de>"
    ))
)]
pub struct Estimates<O: Eq + Hash> {
    pub(crate) histogram: Histogram<O>,
    pub(crate) confidence: f64,
    pub(crate) cancelled: bool,
}

impl<O: Eq + Hash + Clone + Ord> Estimates<O> {
    /// Estimates from a histogram at a confidence level (0 < level < 1).
    pub fn from_histogram(histogram: Histogram<O>, confidence: f64) -> Self {
        Estimates {
            histogram,
            confidence,
            cancelled: false,
        }
    }

    /// The counts.
    pub fn histogram(&self) -> &Histogram<O> {
        &self.histogram
    }

    /// Trials actually run.
    pub fn trials(&self) -> u64 {
        self.histogram.trials()
    }

    /// The confidence level of the intervals.
    pub fn confidence(&self) -> f64 {
        self.confidence
    }

    /// Whether the run was cancelled by its progress hook before it finished.
    pub fn cancelled(&self) -> bool {
        self.cancelled
    }

    /// The estimate for one outcome (also for outcomes never seen: probability 0 with an
    /// interval above it).
    pub fn estimate(&self, outcome: &O) -> Estimate<O> {
        self.make(outcome.clone(), self.histogram.count(outcome))
    }

    fn make<T>(&self, outcome: T, count: u64) -> Estimate<T> {
        let n = self.trials();
        let (low, high) = wilson_interval(count, n, self.confidence);
        Estimate {
            outcome,
            count,
            probability: if n == 0 { 0.0 } else { count as f64 / n as f64 },
            low,
            high,
        }
    }

    /// Every outcome seen, in increasing order, with its estimate.
    pub fn estimates(&self) -> Vec<Estimate<O>> {
        self.histogram
            .sorted()
            .into_iter()
            .map(|(o, c)| self.make(o, c))
            .collect()
    }

    /// The estimated probability of an event (a set of outcomes) with its interval.
    ///
    /// ```
    /// use dice_core::Die;
    /// use dice_sim::Simulation;
    /// let r = Simulation::new(2, 20_000)?.run(&Die::D20);
    /// let crit = r.probability_where("natural 20", |&f| f == 20);
    /// assert!(crit.covers(0.05));
    /// # Ok::<(), dice_sim::SimError>(())
    /// ```
    pub fn probability_where<L>(&self, label: L, mut pred: impl FnMut(&O) -> bool) -> Estimate<L> {
        let count = self
            .histogram
            .iter()
            .filter(|(o, _)| pred(o))
            .map(|(_, c)| c)
            .sum();
        self.make(label, count)
    }

    /// The widest half-width of any seen outcome's interval.
    pub fn widest_half_width(&self) -> f64 {
        self.histogram
            .iter()
            .map(|(_, c)| {
                let (lo, hi) = wilson_interval(c, self.trials(), self.confidence);
                (hi - lo) / 2.0
            })
            .fold(0.0, f64::max)
    }

    /// The histogram as a [`Dist`] of observed frequencies (to use the `Dist` API on it).
    ///
    /// # Errors
    /// Never in practice (frequencies of one histogram add up to one); the `Result` is
    /// [`Dist::from_pairs`]'s.
    pub fn to_dist(&self) -> Result<Dist<O>, dice_core::Error> {
        let n = self.trials().max(1) as f64;
        Dist::from_pairs(
            self.histogram
                .sorted()
                .into_iter()
                .map(|(o, c)| (o, c as f64 / n)),
        )
    }
}

impl<O: Eq + Hash + Clone + Ord + Numeric> Estimates<O> {
    /// The sample mean of a numeric outcome.
    ///
    /// Summed in increasing order of outcome, so it is the same bit for bit however the
    /// histogram was put together (threads, merged ranges).
    pub fn mean(&self) -> f64 {
        let n = self.trials().max(1) as f64;
        self.histogram
            .sorted()
            .into_iter()
            .map(|(o, c)| o.to_f64() * c as f64)
            .sum::<f64>()
            / n
    }

    /// The sample standard deviation.
    pub fn std_dev(&self) -> f64 {
        let n = self.trials();
        if n < 2 {
            return 0.0;
        }
        let m = self.mean();
        let ss: f64 = self
            .histogram
            .sorted()
            .into_iter()
            .map(|(o, c)| {
                let d = o.to_f64() - m;
                d * d * c as f64
            })
            .sum();
        (ss / (n - 1) as f64).sqrt()
    }

    /// The standard error of the mean.
    pub fn standard_error(&self) -> f64 {
        self.std_dev() / (self.trials().max(1) as f64).sqrt()
    }
}

impl<O: Eq + Hash + Clone + Ord + fmt::Display> fmt::Display for Estimates<O> {
    /// One line per outcome: `outcome  probability [low, high]`, then the trials.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in self.estimates() {
            writeln!(f, "{e}")?;
        }
        write!(
            f,
            "({} trials, {:.0}% intervals{})",
            self.trials(),
            self.confidence * 100.0,
            if self.cancelled { ", cancelled" } else { "" }
        )
    }
}
