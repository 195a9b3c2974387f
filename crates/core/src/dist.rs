//! Exact probability distributions: the answer to "what are my chances?".

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::error::Error;

/// A probability distribution over ordered outcomes, with probabilities as `f64`.
///
/// Outcomes are kept sorted and distinct. Where a law has unbounded support (exploding dice)
/// the distribution lists a finite part of it and carries the mass it does not list in
/// [`Dist::tail`], so that `sum of probabilities + tail == 1`. For the laws dice-core builds,
/// the unlisted mass lies beyond the largest listed outcome (for a difference of two such
/// laws, beyond either end).
///
/// ```
/// use dice_core::{Die, Dist, Exact};
/// let d6 = Die::D6.distribution()?;
/// assert_eq!(d6.len(), 6);
/// assert!((d6.probability(&3) - 1.0 / 6.0).abs() < 1e-15);
/// assert!((d6.mean() - 3.5).abs() < 1e-12);
/// assert!((d6.cdf(&2) - 1.0 / 3.0).abs() < 1e-15);
/// assert_eq!(d6.quantile(0.5), Some(3));
/// let two = d6.map(|&f| f % 2 == 0);
/// assert!((two.probability(&true) - 0.5).abs() < 1e-15);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Dist<T> {
    outcomes: Vec<T>,
    probs: Vec<f64>,
    tail: f64,
}

impl<T: Ord + Clone> Dist<T> {
    /// The law of a value that is always `value`.
    ///
    /// ```
    /// let d = dice_core::Dist::certain(4i64);
    /// assert_eq!(d.probability(&4), 1.0);
    /// ```
    pub fn certain(value: T) -> Self {
        Dist {
            outcomes: vec![value],
            probs: vec![1.0],
            tail: 0.0,
        }
    }

    /// A distribution from `(outcome, probability)` pairs in any order; repeated outcomes are
    /// added together and zero-probability outcomes dropped.
    ///
    /// The tail is the mass the pairs leave out, `1 − Σp`, where that is more than the
    /// rounding of the sum itself could be (`n·ε` for `n` pairs, ε = `f64::EPSILON`); below
    /// that the law is taken as finite and its tail is 0. To give the tail outright, use
    /// [`Dist::from_pairs_and_tail`].
    ///
    /// # Errors
    /// [`Error::Probability`] when a probability is negative or not finite, or when they add
    /// up to more than one (beyond rounding, 1e-9).
    ///
    /// ```
    /// use dice_core::Dist;
    /// let coin = Dist::from_pairs([("tails", 0.5), ("heads", 0.25), ("heads", 0.25)])?;
    /// assert_eq!(coin.outcomes(), &["heads", "tails"]);
    /// assert!(Dist::from_pairs([(1, 0.7), (2, 0.7)]).is_err());
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn from_pairs<I: IntoIterator<Item = (T, f64)>>(pairs: I) -> Result<Self, Error> {
        let v: Vec<(T, f64)> = pairs.into_iter().collect();
        let mut total = 0.0;
        for (_, p) in &v {
            if !p.is_finite() || *p < 0.0 {
                return Err(Error::Probability { value: *p });
            }
            total += *p;
        }
        if total > 1.0 + 1e-9 {
            return Err(Error::Probability { value: total });
        }
        let rounding = v.len() as f64 * f64::EPSILON;
        let unlisted = 1.0 - total;
        let tail = if unlisted > rounding { unlisted } else { 0.0 };
        let (outcomes, probs) = merge(v);
        Ok(Self::from_sorted(outcomes, probs, tail))
    }

    /// As [`Dist::from_pairs`], with the unlisted mass given rather than taken as `1 − Σp`:
    /// a finite law passes `0.0` and reports no tail, whatever the rounding of its sum.
    ///
    /// # Errors
    /// [`Error::Probability`] when a probability or the tail is negative or not finite, or
    /// when they add up to more than one (beyond rounding, 1e-9).
    ///
    /// ```
    /// use dice_core::Dist;
    /// let thirds = Dist::from_pairs_and_tail([(1, 1.0 / 3.0), (2, 1.0 / 3.0), (3, 1.0 / 3.0)], 0.0)?;
    /// assert_eq!(thirds.tail(), 0.0);
    /// let partial = Dist::from_pairs_and_tail([(0, 0.5), (1, 0.25)], 0.25)?;
    /// assert_eq!(partial.tail(), 0.25);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn from_pairs_and_tail<I: IntoIterator<Item = (T, f64)>>(
        pairs: I,
        tail: f64,
    ) -> Result<Self, Error> {
        if !tail.is_finite() || tail < 0.0 {
            return Err(Error::Probability { value: tail });
        }
        let d = Self::from_pairs(pairs)?;
        let total = d.probs.iter().sum::<f64>() + tail;
        if total > 1.0 + 1e-9 {
            return Err(Error::Probability { value: total });
        }
        Ok(Dist { tail, ..d })
    }

    /// From sorted distinct outcomes; drops zero entries, in place (a law of millions of
    /// outcomes is not copied to do it).
    pub(crate) fn from_sorted(mut outcomes: Vec<T>, mut probs: Vec<f64>, tail: f64) -> Self {
        debug_assert_eq!(outcomes.len(), probs.len());
        if !probs.iter().all(|p| *p > 0.0) {
            // `retain` visits the elements once each, in order.
            let mut listed = probs.iter().map(|p| *p > 0.0);
            outcomes.retain(|_| listed.next() == Some(true));
            probs.retain(|p| *p > 0.0);
        }
        Dist {
            outcomes,
            probs,
            tail,
        }
    }

    /// Number of listed outcomes.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Whether no outcome is listed.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// The listed outcomes, increasing.
    pub fn outcomes(&self) -> &[T] {
        &self.outcomes
    }

    /// The probabilities, in the order of [`Dist::outcomes`].
    pub fn probabilities(&self) -> &[f64] {
        &self.probs
    }

    /// `(outcome, probability)` pairs, increasing.
    pub fn iter(&self) -> impl Iterator<Item = (&T, f64)> + '_ {
        self.outcomes.iter().zip(self.probs.iter().copied())
    }

    /// The probability mass not listed; zero for finite laws.
    pub fn tail(&self) -> f64 {
        self.tail
    }

    /// Sum of the listed probabilities plus the tail: 1 up to rounding.
    pub fn total(&self) -> f64 {
        self.probs.iter().sum::<f64>() + self.tail
    }

    /// P(outcome = `value`).
    pub fn probability(&self, value: &T) -> f64 {
        match self.outcomes.binary_search(value) {
            Ok(i) => self.probs[i],
            Err(_) => 0.0,
        }
    }

    /// P(the outcome satisfies `pred`), over the listed outcomes.
    ///
    /// ```
    /// use dice_core::{Die, Exact};
    /// let d20 = Die::D20.distribution()?;
    /// assert!((d20.probability_where(|&f| f >= 15) - 0.3).abs() < 1e-15);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn probability_where(&self, mut pred: impl FnMut(&T) -> bool) -> f64 {
        // A fold from +0.0: `f64`'s `sum` of nothing is −0.0.
        self.iter()
            .filter(|(o, _)| pred(o))
            .fold(0.0, |acc, (_, p)| acc + p)
    }

    /// P(outcome ≤ `value`).
    pub fn cdf(&self, value: &T) -> f64 {
        let end = match self.outcomes.binary_search(value) {
            Ok(i) => i + 1,
            Err(i) => i,
        };
        self.probs[..end].iter().fold(0.0, |acc, p| acc + p)
    }

    /// P(outcome ≥ `value`), tail included.
    pub fn survival(&self, value: &T) -> f64 {
        let start = match self.outcomes.binary_search(value) {
            Ok(i) | Err(i) => i,
        };
        self.probs[start..].iter().sum::<f64>() + self.tail
    }

    /// The smallest outcome whose cdf reaches `q` (`q` in `[0, 1]`); `None` when `q` is out
    /// of range or falls in the unlisted tail.
    pub fn quantile(&self, q: f64) -> Option<T> {
        if !(0.0..=1.0).contains(&q) {
            return None;
        }
        let mut acc = 0.0;
        for (o, p) in self.iter() {
            acc += p;
            if acc >= q - 1e-12 {
                return Some(o.clone());
            }
        }
        None
    }

    /// The most likely outcome (the smallest, on a tie).
    pub fn mode(&self) -> Option<T> {
        let mut best: Option<(usize, f64)> = None;
        for (i, &p) in self.probs.iter().enumerate() {
            if best.is_none_or(|(_, b)| p > b) {
                best = Some((i, p));
            }
        }
        best.map(|(i, _)| self.outcomes[i].clone())
    }

    /// The law of `f(outcome)`. The tail is carried over as is.
    pub fn map<U: Ord + Clone>(&self, mut f: impl FnMut(&T) -> U) -> Dist<U> {
        let mapped: Vec<U> = self.outcomes.iter().map(&mut f).collect();
        if mapped.windows(2).all(|w| w[0] < w[1]) {
            // The order is kept (a relabelling such as numbers into outcomes): no pairs to
            // sort or merge, so the new law is one array of outcomes beside a copy of the
            // probabilities.
            return Dist::from_sorted(mapped, self.probs.clone(), self.tail);
        }
        let (outcomes, probs) = merge(mapped.into_iter().zip(self.probs.iter().copied()).collect());
        Dist::from_sorted(outcomes, probs, self.tail)
    }

    /// The law of a second roll whose terms depend on this one's outcome: for each outcome
    /// `o` (probability `p`), `then(o)` is the law of what follows, and the result weighs
    /// each of those laws by `p` (a mixture). The tail is this law's tail plus each
    /// following law's tail weighted by its `p`.
    ///
    /// # Errors
    /// The first error `then` returns.
    ///
    /// ```
    /// use dice_core::{Comparison, Die, Dist, Exact, Pool, SuccessPool};
    /// // Roll a d4 for how many d6 to roll, then count the 6s.
    /// let d4 = Die::new(4)?.distribution()?;
    /// let sixes = d4.and_then(|&n| {
    ///     SuccessPool::new(Pool::new(n, Die::D6)?, Comparison::Exactly(6)).distribution()
    /// })?;
    /// // No six: (1/4) Σₙ (5/6)ⁿ over n = 1..4.
    /// let none: f64 = (1..=4).map(|n| (5.0f64 / 6.0).powi(n) / 4.0).sum();
    /// assert!((sixes.probability(&0) - none).abs() < 1e-15);
    /// assert!((sixes.total() - 1.0).abs() < 1e-12);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn and_then<U: Ord + Clone, E>(
        &self,
        mut then: impl FnMut(&T) -> Result<Dist<U>, E>,
    ) -> Result<Dist<U>, E> {
        let mut pairs = Vec::new();
        let mut tail = self.tail;
        for (o, p) in self.iter() {
            let next = then(o)?;
            tail += p * next.tail;
            pairs.extend(next.iter().map(|(u, q)| (u.clone(), p * q)));
        }
        let (outcomes, probs) = merge(pairs);
        Ok(Dist::from_sorted(outcomes, probs, tail))
    }

    /// The joint law of this outcome and an independent `other`'s.
    ///
    /// ```
    /// use dice_core::{Die, Exact};
    /// let d6 = Die::D6.distribution()?;
    /// let both = d6.joint(&d6);
    /// assert_eq!(both.len(), 36);
    /// assert!((both.probability(&(2, 5)) - 1.0 / 36.0).abs() < 1e-15);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn joint<U: Ord + Clone>(&self, other: &Dist<U>) -> Dist<(T, U)> {
        let mut outcomes = Vec::with_capacity(self.len() * other.len());
        let mut probs = Vec::with_capacity(self.len() * other.len());
        for (a, pa) in self.iter() {
            for (b, pb) in other.iter() {
                outcomes.push((a.clone(), b.clone()));
                probs.push(pa * pb);
            }
        }
        Dist::from_sorted(outcomes, probs, combined_tail(self.tail, other.tail))
    }
}

/// Sorts `(outcome, probability)` pairs and adds up the probabilities of equal outcomes.
fn merge<T: Ord>(mut v: Vec<(T, f64)>) -> (Vec<T>, Vec<f64>) {
    v.sort_by(|a, b| a.0.cmp(&b.0));
    let mut outcomes: Vec<T> = Vec::with_capacity(v.len());
    let mut probs: Vec<f64> = Vec::with_capacity(v.len());
    for (o, p) in v {
        match (outcomes.last() == Some(&o), probs.last_mut()) {
            (true, Some(last)) => *last += p,
            _ => {
                outcomes.push(o);
                probs.push(p);
            }
        }
    }
    (outcomes, probs)
}

/// Outcomes that are numbers, for mean, variance and arithmetic.
pub trait Numeric: Copy + Ord {
    /// As `f64`.
    fn to_f64(self) -> f64;
    /// As `i64`.
    fn to_i64(self) -> i64;
}

macro_rules! numeric {
    ($($t:ty),*) => {$(
        impl Numeric for $t {
            #[inline]
            fn to_f64(self) -> f64 { self as f64 }
            #[inline]
            fn to_i64(self) -> i64 { self as i64 }
        }
    )*};
}
numeric!(i32, u32, i64, u8, u16, i16);

impl Dist<i64> {
    /// The law listing `first + i` with probability `probs[i]` (zero entries dropped) and the
    /// unlisted mass `tail`: [`Dist::from_pairs_and_tail`] for a dense array of consecutive
    /// outcomes, without sorting.
    ///
    /// # Errors
    /// As [`Dist::from_pairs_and_tail`]; [`Error::Probability`] also when `first + i`
    /// overflows for a listed entry.
    ///
    /// ```
    /// use dice_core::Dist;
    /// let d = Dist::from_consecutive(2, vec![0.25, 0.0, 0.75], 0.0)?;
    /// assert_eq!(d.outcomes(), &[2, 4]);
    /// assert_eq!(d.probability(&4), 0.75);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn from_consecutive(first: i64, probs: Vec<f64>, tail: f64) -> Result<Dist<i64>, Error> {
        if !tail.is_finite() || tail < 0.0 {
            return Err(Error::Probability { value: tail });
        }
        // One pass that checks and counts (no branch per entry: zero and nonzero entries mix
        // unpredictably in, say, the law of a product), one that stores every entry and keeps
        // it when it is not zero.
        let (count, valid) = probs.iter().fold((0usize, true), |(count, valid), &p| {
            // NaN fails both comparisons.
            (
                count + usize::from(p > 0.0),
                valid & (0.0..=f64::MAX).contains(&p),
            )
        });
        if !valid {
            let bad = probs.iter().copied().find(|p| !p.is_finite() || *p < 0.0);
            return Err(Error::Probability {
                value: bad.unwrap_or(f64::NAN),
            });
        }
        // One slot more: an entry is written at `kept` before it is known to be kept.
        let (mut outcomes, mut listed) = (vec![0i64; count + 1], vec![0.0; count + 1]);
        let mut kept = 0;
        let mut o = first;
        for &p in &probs {
            // `kept` ≤ the nonzero entries before this one ≤ count.
            outcomes[kept] = o;
            listed[kept] = p;
            kept += usize::from(p > 0.0);
            o = o.wrapping_add(1);
        }
        outcomes.truncate(kept);
        listed.truncate(kept);
        if let Some(&last) = outcomes.last() {
            if last < first {
                // Wrapped past i64::MAX.
                return Err(Error::Probability { value: 0.0 });
            }
        }
        // Four running sums, so that the additions do not wait on each other.
        let mut sums = [0.0; 4];
        let quads = listed.chunks_exact(4);
        let rest: f64 = quads.remainder().iter().sum();
        for q in quads {
            for (s, &p) in sums.iter_mut().zip(q) {
                *s += p;
            }
        }
        let total = tail + rest + (sums[0] + sums[1]) + (sums[2] + sums[3]);
        if total > 1.0 + 1e-9 {
            return Err(Error::Probability { value: total });
        }
        Ok(Dist {
            outcomes,
            probs: listed,
            tail,
        })
    }
}

impl<T: Numeric> Dist<T> {
    /// The mean of the listed outcomes (with a nonzero tail, a lower bound).
    pub fn mean(&self) -> f64 {
        self.iter().map(|(o, p)| o.to_f64() * p).sum()
    }

    /// The variance of the listed outcomes.
    pub fn variance(&self) -> f64 {
        let m = self.mean();
        self.iter()
            .map(|(o, p)| {
                let d = o.to_f64() - m;
                d * d * p
            })
            .sum()
    }

    /// The standard deviation.
    pub fn std_dev(&self) -> f64 {
        sqrt(self.variance())
    }

    /// The law of `self + other` for independent outcomes.
    ///
    /// ```
    /// use dice_core::{Die, Exact};
    /// let d6 = Die::D6.distribution()?;
    /// let two = d6.add(&d6);
    /// assert!((two.probability(&7) - 6.0 / 36.0).abs() < 1e-15);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn add<U: Numeric>(&self, other: &Dist<U>) -> Dist<i64> {
        Dense::from_dist(self)
            .convolve(&Dense::from_dist(other))
            .into_dist(combined_tail(self.tail, other.tail))
    }

    /// The law of `self − other` for independent outcomes (an opposed roll's margin).
    ///
    /// ```
    /// use dice_core::{Die, Exact};
    /// let d6 = Die::D6.distribution()?;
    /// let diff = d6.difference(&d6);
    /// assert!((diff.probability(&0) - 1.0 / 6.0).abs() < 1e-15);
    /// assert!((diff.probability_where(|&d| d > 0) - 15.0 / 36.0).abs() < 1e-15);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn difference<U: Numeric>(&self, other: &Dist<U>) -> Dist<i64> {
        Dense::from_dist(self)
            .convolve(&Dense::from_dist(other).negate())
            .into_dist(combined_tail(self.tail, other.tail))
    }

    /// The law of `outcome + k`.
    pub fn shift(&self, k: i64) -> Dist<i64> {
        Dist {
            outcomes: self.outcomes.iter().map(|o| o.to_i64() + k).collect(),
            probs: self.probs.clone(),
            tail: self.tail,
        }
    }
}

impl<T: fmt::Display> fmt::Display for Dist<T> {
    /// One line per outcome: `outcome  probability`, then the tail if any.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (o, p) in self.outcomes.iter().zip(&self.probs) {
            writeln!(f, "{o}\t{p:.6}")?;
        }
        if self.tail > 0.0 {
            writeln!(f, "(beyond)\t{:.3e}", self.tail)?;
        }
        Ok(())
    }
}

/// The unlisted mass of a law built from two independent laws with unlisted masses `a`, `b`:
/// `1 − (1 − a)(1 − b)`.
fn combined_tail(a: f64, b: f64) -> f64 {
    if a == 0.0 && b == 0.0 {
        0.0
    } else {
        a + b - a * b
    }
}

/// Square root without `std`: Newton's iteration from a bit-level first guess.
pub(crate) fn sqrt(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.sqrt()
    }
    #[cfg(not(feature = "std"))]
    {
        if x <= 0.0 || !x.is_finite() {
            return if x == 0.0 || x.is_infinite() {
                x
            } else {
                f64::NAN
            };
        }
        let mut y = f64::from_bits((x.to_bits() >> 1) + (1023u64 << 51));
        for _ in 0..8 {
            y = 0.5 * (y + x / y);
        }
        y
    }
}

/// A law over the integers `offset .. offset + p.len()`, dense: the work horse of the exact
/// algorithms.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Dense {
    pub(crate) offset: i64,
    pub(crate) p: Vec<f64>,
}

impl Dense {
    pub(crate) fn certain(v: i64) -> Dense {
        Dense {
            offset: v,
            p: vec![1.0],
        }
    }

    /// Uniform on `lo..=hi`.
    pub(crate) fn uniform(lo: i64, hi: i64) -> Dense {
        let n = (hi - lo + 1) as usize;
        Dense {
            offset: lo,
            p: vec![1.0 / n as f64; n],
        }
    }

    pub(crate) fn from_dist<T: Numeric>(d: &Dist<T>) -> Dense {
        let Some(first) = d.outcomes.first() else {
            return Dense {
                offset: 0,
                p: Vec::new(),
            };
        };
        let offset = first.to_i64();
        let last = d.outcomes[d.outcomes.len() - 1].to_i64();
        let mut p = vec![0.0; (last - offset + 1) as usize];
        for (o, q) in d.iter() {
            p[(o.to_i64() - offset) as usize] = q;
        }
        Dense { offset, p }
    }

    /// To a `Dist` over any integer outcome type (values outside `T` cannot occur here:
    /// callers only convert laws whose support fits).
    pub(crate) fn into_dist_as<T: Ord + Clone + TryFrom<i64>>(self, tail: f64) -> Dist<T> {
        let mut outcomes = Vec::with_capacity(self.p.len());
        let mut probs = Vec::with_capacity(self.p.len());
        for (i, q) in self.p.into_iter().enumerate() {
            // Rounding can push a certain outcome a few ulps past 1.
            let q = q.min(1.0);
            if q > 0.0 {
                if let Ok(o) = T::try_from(self.offset + i as i64) {
                    outcomes.push(o);
                    probs.push(q);
                }
            }
        }
        Dist {
            outcomes,
            probs,
            tail,
        }
    }

    pub(crate) fn into_dist(self, tail: f64) -> Dist<i64> {
        self.into_dist_as(tail)
    }

    pub(crate) fn negate(mut self) -> Dense {
        self.p.reverse();
        self.offset = -(self.offset + self.p.len() as i64 - 1);
        self
    }

    pub(crate) fn shift(mut self, k: i64) -> Dense {
        self.offset += k;
        self
    }

    /// The law of the sum of independent draws from `self` and `other`: direct convolution,
    /// all terms non-negative, so every entry keeps full relative precision.
    pub(crate) fn convolve(&self, other: &Dense) -> Dense {
        if self.p.is_empty() || other.p.is_empty() {
            return Dense {
                offset: 0,
                p: Vec::new(),
            };
        }
        let (a, b) = if self.p.len() >= other.p.len() {
            (&self.p, &other.p)
        } else {
            (&other.p, &self.p)
        };
        let mut out = vec![0.0; a.len() + b.len() - 1];
        for (j, &bj) in b.iter().enumerate() {
            if bj == 0.0 {
                continue;
            }
            for (o, &ai) in out[j..j + a.len()].iter_mut().zip(a.iter()) {
                *o += ai * bj;
            }
        }
        Dense {
            offset: self.offset + other.offset,
            p: out,
        }
    }

    /// Convolves with the uniform law on `lo..=hi` in O(len) with additions only, so every
    /// entry keeps the relative precision of a sum of non-negative terms.
    ///
    /// Leading and trailing zeros (the ends of a long sum underflow to 0) are dropped first,
    /// so a sum of `n` dice costs O(n · its listed width), not O(n · its range). Each output
    /// is the sum of a window of `w` inputs: for `w` up to [`UNROLLED_WIDTH`] by
    /// [`window_into`]'s fixed-width loop (as [`Dense::add_uniform_dice`] adds each die),
    /// beyond that by the van Herk / Gil-Werman block trick (a window is a block's suffix sum
    /// plus the next block's prefix sum, blocks walked as blocks, with no `i % w` per entry).
    pub(crate) fn convolve_uniform(&self, lo: i64, hi: i64) -> Dense {
        let w = (hi - lo + 1) as usize;
        let Some(first) = self.p.iter().position(|&q| q != 0.0) else {
            return Dense {
                offset: 0,
                p: Vec::new(),
            };
        };
        let last = self.p.iter().rposition(|&q| q != 0.0).unwrap_or(first);
        let src = &self.p[first..=last];
        let offset = self.offset + first as i64 + lo;
        if w == 1 {
            return Dense {
                offset,
                p: src.to_vec(),
            };
        }
        let n = src.len();
        let len = n + w - 1;
        // a: the law with w − 1 zeros before and w after; out[t] = a[t] + … + a[t + w − 1].
        let mut a = vec![0.0; n + 2 * w - 1];
        a[w - 1..w - 1 + n].copy_from_slice(src);
        let scale = 1.0 / w as f64;
        if w <= UNROLLED_WIDTH {
            // out[t] is the window of w entries of `a` that ends at t + w − 1.
            let mut out = vec![0.0; len];
            window_into(&a, &mut out, w - 1, w, scale);
            return Dense { offset, p: out };
        }
        let mut out = vec![0.0; len];
        window_sums_scaled(&a, w, &mut out, scale, &mut Vec::new());
        Dense { offset, p: out }
    }

    /// The law of this value plus `count` dice of `sides` faces (uniform on `1..=sides`):
    /// [`Dense::convolve_uniform`] `count` times, in two buffers reused throughout, each step
    /// one pass that writes each entry once, skipping the ends that have underflowed to 0
    /// (past about 400 d6, the two ends of the range are below f64's smallest number: a sum
    /// of `n` dice costs O(n^1.5), not O(n²)).
    ///
    /// A law of one point plus many dice (a plain sum of one part) goes by
    /// [`uniform_dice_by_squaring`] instead, about three times fewer operations.
    pub(crate) fn add_uniform_dice(&self, count: u32, sides: u32) -> Dense {
        let w = sides as usize;
        if self.p.len() == 1
            && self.p[0] > 0.0
            && count > DIRECT_DICE
            && (2..=UNROLLED_WIDTH).contains(&w)
        {
            let law = uniform_dice_by_squaring(count, w);
            let scaled = if self.p[0] == 1.0 {
                law.p
            } else {
                law.p.into_iter().map(|q| q * self.p[0]).collect()
            };
            return Dense {
                offset: law.offset + self.offset,
                p: scaled,
            }
            .trim();
        }
        self.add_uniform_dice_one_by_one(count, sides)
    }

    /// [`Dense::add_uniform_dice`] one die at a time (see there).
    pub(crate) fn add_uniform_dice_one_by_one(&self, count: u32, sides: u32) -> Dense {
        let w = sides as usize;
        if count == 0 || w <= 1 || w > UNROLLED_WIDTH {
            let mut total = self.clone();
            for _ in 0..count {
                total = total.convolve_uniform(1, i64::from(sides));
            }
            return total;
        }
        let Some(first) = self.p.iter().position(|&q| q != 0.0) else {
            return Dense {
                offset: 0,
                p: Vec::new(),
            };
        };
        let last = self.p.iter().rposition(|&q| q != 0.0).unwrap_or(first);
        // Entry i of a buffer is the value offset + i − (w − 1) (w − 1 zeros lead), with the
        // nonzero part in lo..=hi; adding a die maps value v to v + 1 ..= v + w, entry i to
        // i ..= i + w − 1, so with the offset raised by one the new entry i sums the old
        // entries i − w + 1 ..= i.
        let full = (last - first + 1) + count as usize * (w - 1) + 2 * (w - 1);
        let mut a = vec![0.0; full];
        let mut b = vec![0.0; full];
        let pad = w - 1;
        a[pad..pad + last - first + 1].copy_from_slice(&self.p[first..=last]);
        let (mut lo, mut hi) = (pad, pad + last - first);
        let mut offset = self.offset + first as i64;
        let scale = 1.0 / w as f64;
        // Both buffers are zero outside the law they hold: a on lo..=hi, b on stale. A pass
        // over lo..=hi + w − 1 overwrites b's old law but for what lies outside (below lo,
        // which never falls; above, where an end underflowed), which is cleared.
        let mut stale = (lo, hi);
        for _ in 0..count {
            let new_hi = hi + w - 1;
            window_into(&a, &mut b[lo..=new_hi], lo, w, scale);
            b[stale.0..lo].fill(0.0);
            if stale.1 > new_hi {
                b[new_hi + 1..=stale.1].fill(0.0);
            }
            core::mem::swap(&mut a, &mut b);
            stale = (lo, hi);
            offset += 1;
            hi = new_hi;
            while lo < hi && a[lo] == 0.0 {
                lo += 1;
            }
            while hi > lo && a[hi] == 0.0 {
                hi -= 1;
            }
        }
        Dense {
            offset: offset + lo as i64 - pad as i64,
            p: a[lo..=hi].to_vec(),
        }
    }

    /// `self` convolved with itself `n` times (`n = 0` gives the point law at 0), by binary
    /// powering.
    pub(crate) fn power(&self, mut n: u32) -> Dense {
        let mut result = Dense::certain(0);
        let mut base = self.clone();
        while n > 0 {
            if n & 1 == 1 {
                result = result.convolve(&base);
            }
            n >>= 1;
            if n > 0 {
                base = base.convolve(&base);
            }
        }
        result
    }

    /// Removes trailing zeros (keeps the offset).
    pub(crate) fn trim_end(mut self) -> Dense {
        while self.p.len() > 1 && self.p.last() == Some(&0.0) {
            self.p.pop();
        }
        self
    }

    /// Removes leading and trailing zeros.
    pub(crate) fn trim(mut self) -> Dense {
        let start = self.p.iter().position(|&q| q > 0.0).unwrap_or(self.p.len());
        let end = self
            .p
            .iter()
            .rposition(|&q| q > 0.0)
            .map_or(start, |e| e + 1);
        self.p.truncate(end);
        self.p.drain(..start);
        self.offset += start as i64;
        self
    }
}

/// `out[j] = scale · (a[at + j − w + 1] + … + a[at + j])`: one window sum per entry, written
/// once, for windows of up to [`UNROLLED_WIDTH`] (a fixed-width loop the compiler unrolls
/// for each width).
fn window_into(a: &[f64], out: &mut [f64], at: usize, w: usize, scale: f64) {
    fn fixed<const W: usize>(a: &[f64], out: &mut [f64], at: usize, scale: f64) {
        let src = &a[at + 1 - W..at + out.len()];
        for (o, win) in out.iter_mut().zip(src.windows(W)) {
            let mut s = 0.0;
            for &x in win {
                s += x;
            }
            *o = s * scale;
        }
    }
    match w {
        2 => fixed::<2>(a, out, at, scale),
        3 => fixed::<3>(a, out, at, scale),
        4 => fixed::<4>(a, out, at, scale),
        5 => fixed::<5>(a, out, at, scale),
        6 => fixed::<6>(a, out, at, scale),
        7 => fixed::<7>(a, out, at, scale),
        8 => fixed::<8>(a, out, at, scale),
        9 => fixed::<9>(a, out, at, scale),
        10 => fixed::<10>(a, out, at, scale),
        11 => fixed::<11>(a, out, at, scale),
        12 => fixed::<12>(a, out, at, scale),
        13 => fixed::<13>(a, out, at, scale),
        14 => fixed::<14>(a, out, at, scale),
        15 => fixed::<15>(a, out, at, scale),
        _ => fixed::<16>(a, out, at, scale),
    }
}

/// Horner's scheme over the uniform law `U` on `1..=w`: `T ← lead, scale·(U ⊛ T)` step
/// by step (`lead` at 0, then the window sums of `w` entries of `T`), in two buffers that
/// keep `T` between `w − 1` zeros before and `w` after, so that a step reads its input in
/// place and writes its output where the next step reads it: no copy, nothing zeroed but
/// the `w` entries after the new `T`. Each entry is computed as [`Dense::convolve_uniform`]
/// computes it (fixed-width window sums up to [`UNROLLED_WIDTH`], block sums beyond).
#[derive(Default)]
pub(crate) struct UniformHorner {
    /// `w − 1` zeros, `T`, at least `w` zeros.
    cur: Vec<f64>,
    /// The next step's output, behind the same `w − 1` zeros.
    next: Vec<f64>,
    /// Scratch of [`window_sums_scaled`].
    before: Vec<f64>,
    w: usize,
    len: usize,
}

impl UniformHorner {
    /// Starts over with `T = [first]`, for windows of `w ≥ 1` entries.
    pub(crate) fn start(&mut self, first: f64, w: usize) {
        let w = w.max(1);
        let pad = w - 1;
        self.w = w;
        self.len = 1;
        self.cur.clear();
        self.cur.resize(pad, 0.0);
        self.cur.push(first);
        self.cur.resize(pad + 1 + w, 0.0);
        self.next.clear();
        self.next.resize(pad, 0.0);
    }

    /// One step: `T ← lead, scale·t[i − w + 1] + … + scale·t[i]` for `i < len(T) + w − 1`
    /// (`lead + U ⊛ T` when `scale = 1/w`).
    pub(crate) fn step(&mut self, lead: f64, scale: f64) {
        let (w, len) = (self.w, self.len);
        let pad = w - 1;
        let new_len = len + w;
        if self.next.len() < pad + new_len + w {
            self.next.resize(pad + new_len + w, 0.0);
        }
        let a = &self.cur[..pad + len + w];
        let (head, out) = self.next[pad..pad + new_len].split_at_mut(1);
        head[0] = lead;
        if w == 1 {
            for (o, &x) in out.iter_mut().zip(&a[..len]) {
                *o = x * scale;
            }
        } else if w <= UNROLLED_WIDTH {
            window_into(a, out, w - 1, w, scale);
        } else {
            window_sums_scaled(a, w, out, scale, &mut self.before);
        }
        self.next[pad + new_len..pad + new_len + w].fill(0.0);
        core::mem::swap(&mut self.cur, &mut self.next);
        self.len = new_len;
    }

    /// `T`.
    pub(crate) fn law(&self) -> &[f64] {
        &self.cur[self.w - 1..self.w - 1 + self.len]
    }
}

/// Widest window summed by [`window_into`]'s fixed-width loop (beyond it, by blocks).
const UNROLLED_WIDTH: usize = 16;

/// Sums of at most this many dice are added one die at a time by
/// [`uniform_dice_by_squaring`] (its starting law), and by [`Dense::add_uniform_dice`].
const DIRECT_DICE: u32 = 32;

/// The laws [`uniform_dice_by_squaring`] works on are scaled by `2^SCALE_EXP`, so that every
/// probability it keeps (down to `2^KEPT_EXP`) and every product of two it adds is a normal
/// `f64`: arithmetic on subnormal numbers is tens of times slower, and had been half the time
/// of a sum of 10,000 dice.
const SCALE_EXP: i32 = 256;

/// [`uniform_dice_by_squaring`] keeps the probabilities and the products of two of at least
/// `2^KEPT_EXP`: a sum of up to 2¹⁴ products below it (a listing 16,384 values wide) is below
/// `2^−1086`, under half the least subnormal `f64` (`2^−1074`), so what is dropped never
/// changes a listed outcome by more than rounding would.
const KEPT_EXP: i32 = -1100;

/// `2^k`, for `−1022 ≤ k ≤ 1023` (exact).
fn pow2(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// The law of `count` dice of `w` sides (`2 ≤ w ≤ UNROLLED_WIDTH`), offset `count`, by
/// binary powering: the law of the first [`DIRECT_DICE`] or fewer dice (the leading bits of
/// `count`) one die at a time, then for each further bit the law squared ([`square_scaled`])
/// and, for a one, a die more (a window sum). Squaring costs about `W²/2·π/4` multiply-adds
/// for a law listed `W` wide (the products kept lie in a disc), against about `3W²` additions
/// for the dice it doubles added one by one.
///
/// The work is done on the law scaled by `2^SCALE_EXP`, keeping values down to `2^KEPT_EXP`;
/// scaled back at the end, what falls below the least subnormal `f64` is dropped, so the
/// listing ends where the true probabilities round to 0. Every term is non-negative, so every
/// listed probability keeps its relative precision (the rounding of `1/w` raised to the
/// `count`, about `count·1.1e−16`, is shared with the one-by-one path).
fn uniform_dice_by_squaring(count: u32, w: usize) -> Dense {
    let mut shift = 0;
    while count >> shift > DIRECT_DICE {
        shift += 1;
    }
    let start = Dense::certain(0).add_uniform_dice_one_by_one(count >> shift, w as u32);
    let up = pow2(SCALE_EXP);
    let keep = pow2(SCALE_EXP + KEPT_EXP);
    let mut offset = start.offset;
    let mut law: Vec<f64> = start.p.iter().map(|&q| q * up).collect();
    let scale = 1.0 / w as f64;
    for bit in (0..shift).rev() {
        law = square_scaled(&law);
        offset *= 2;
        if (count >> bit) & 1 == 1 {
            // One die more: out[j] sums entries j − w + 1 ..= j of the law padded with zeros.
            let mut padded = vec![0.0; law.len() + 2 * (w - 1)];
            padded[w - 1..w - 1 + law.len()].copy_from_slice(&law);
            let mut out = vec![0.0; law.len() + w - 1];
            window_into(&padded, &mut out, w - 1, w, scale);
            law = out;
            offset += 1;
        }
        let first = law.iter().position(|&q| q >= keep).unwrap_or(0);
        let last = law
            .iter()
            .rposition(|&q| q >= keep)
            .map_or(first, |l| l + 1);
        law.truncate(last);
        law.drain(..first);
        offset += first as i64;
    }
    let down = pow2(-SCALE_EXP);
    for q in &mut law {
        *q *= down;
    }
    Dense { offset, p: law }.trim()
}

/// `c[s] = Σ_{i+j=s} a[i]·a[j]` for a unimodal `a` scaled by `2^SCALE_EXP` (as
/// [`uniform_dice_by_squaring`] keeps it), returned at the same scale: each pair `i < j` once,
/// doubled (an exact scaling), row by row as one contiguous multiply-add over the `j` whose
/// product is at least `2^KEPT_EXP` unscaled, an interval found by binary search on each side
/// of the mode. Each `c[s]` adds its terms in increasing `i`, the small ones of the tails
/// first.
fn square_scaled(a: &[f64]) -> Vec<f64> {
    let n = a.len();
    if n == 0 {
        return Vec::new();
    }
    // Products are scaled by 2^(2·SCALE_EXP): keep those of at least 2^(2·SCALE_EXP + KEPT_EXP).
    let least = pow2(2 * SCALE_EXP + KEPT_EXP);
    let least_root = pow2(SCALE_EXP + KEPT_EXP / 2);
    let mut mode = 0;
    for (i, &q) in a.iter().enumerate() {
        if q > a[mode] {
            mode = i;
        }
    }
    let (rising, falling) = (&a[..=mode], &a[mode..]);
    let mut c = vec![0.0; 2 * n - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        if x >= least_root {
            c[2 * i] += x * x;
        }
        // a[j] ≥ least/x on [lo, hi), an interval as a is unimodal.
        let t = least / x;
        let lo = rising.partition_point(|&v| v < t).max(i + 1);
        let hi = mode + falling.partition_point(|&v| v >= t);
        if lo >= hi {
            continue;
        }
        let x2 = 2.0 * x;
        for (o, &y) in c[i + lo..i + hi].iter_mut().zip(&a[lo..hi]) {
            *o += x2 * y;
        }
    }
    let down = pow2(-SCALE_EXP);
    for q in &mut c {
        *q *= down;
    }
    c
}

/// `out[t] = scale·(a[t] + … + a[t + w − 1])` for `t < out.len()` (`a` holds at least
/// `out.len() + w` entries), by blocks of `w` entries of `a` (the van Herk / Gil-Werman
/// scheme): with `before[i]` the sum from the start of `i`'s block up to `i` excluded, and
/// `suffix[t]` the sum from `t` to the end of its block, a window starting at `t` is
/// `suffix[t] + before[t + w]` (the rest of `t`'s block and the start of the next). One
/// forward scan writes `before` (scratch, grown as needed); one backward scan keeps the
/// suffix in a register and writes each `out[t]` once.
///
/// Each running sum is a chain of dependent additions, so one block at a time runs at the
/// adder's latency. Both scans walk four blocks side by side instead, four independent
/// chains: each entry still gets exactly the additions, in the same order, that a walk of
/// its own block alone would give it.
fn window_sums_scaled(a: &[f64], w: usize, out: &mut [f64], scale: f64, before: &mut Vec<f64>) {
    /// The four blocks of `w` of a group of `4w`.
    fn quarters(x: &[f64], w: usize) -> [&[f64]; 4] {
        let (x0, r) = x.split_at(w);
        let (x1, r) = r.split_at(w);
        let (x2, x3) = r.split_at(w);
        [x0, x1, x2, &x3[..w]]
    }
    /// [`quarters`], mutable.
    fn quarters_mut(x: &mut [f64], w: usize) -> [&mut [f64]; 4] {
        let (x0, r) = x.split_at_mut(w);
        let (x1, r) = r.split_at_mut(w);
        let (x2, x3) = r.split_at_mut(w);
        [x0, x1, x2, &mut x3[..w]]
    }
    let len = out.len();
    let a = &a[..len + w];
    if before.len() < a.len() {
        before.resize(a.len(), 0.0);
    }
    let before = &mut before[..a.len()];
    // Forward: `before`, for every block of `a`.
    let group = 4 * w;
    let whole = a.len() / group * group;
    for (x, bef) in a[..whole]
        .chunks_exact(group)
        .zip(before[..whole].chunks_exact_mut(group))
    {
        let [x0, x1, x2, x3] = quarters(x, w);
        let [b0, b1, b2, b3] = quarters_mut(bef, w);
        let (mut s0, mut s1, mut s2, mut s3) = (0.0, 0.0, 0.0, 0.0);
        for p in 0..w {
            b0[p] = s0;
            b1[p] = s1;
            b2[p] = s2;
            b3[p] = s3;
            s0 += x0[p];
            s1 += x1[p];
            s2 += x2[p];
            s3 += x3[p];
        }
    }
    for (x, bef) in a[whole..].chunks(w).zip(before[whole..].chunks_mut(w)) {
        let mut acc = 0.0;
        for (b, &v) in bef.iter_mut().zip(x) {
            *b = acc;
            acc += v;
        }
    }
    // Backward: the suffix of each block, and the windows that start in it. Groups of four
    // whole blocks whose windows all start below `len`, then block by block.
    let before = &*before;
    let whole = len / group * group;
    for (g, o) in out[..whole].chunks_exact_mut(group).enumerate() {
        let at = g * group;
        let [x0, x1, x2, x3] = quarters(&a[at..at + group], w);
        let [n0, n1, n2, n3] = quarters(&before[at + w..at + w + group], w);
        let [o0, o1, o2, o3] = quarters_mut(o, w);
        let (mut s0, mut s1, mut s2, mut s3) = (0.0, 0.0, 0.0, 0.0);
        for p in (0..w).rev() {
            s0 += x0[p];
            s1 += x1[p];
            s2 += x2[p];
            s3 += x3[p];
            o0[p] = (s0 + n0[p]) * scale;
            o1[p] = (s1 + n1[p]) * scale;
            o2[p] = (s2 + n2[p]) * scale;
            o3[p] = (s3 + n3[p]) * scale;
        }
    }
    let mut at = whole;
    while at < len {
        let end = (at + w).min(a.len());
        let mut acc = 0.0;
        for t in (at..end).rev() {
            acc += a[t];
            if t < len {
                out[t] = (acc + before[t + w]) * scale;
            }
        }
        at += w;
    }
}

#[cfg(test)]
mod tests {

    /// The four-blocks-at-once window sums give every entry exactly (bit for bit) what the
    /// scans of its own block alone give it, for groups of four blocks, leftover blocks, a
    /// short last block and outputs that end inside a block.
    #[test]
    fn block_window_sums_match_one_block_at_a_time() {
        // Values of very different sizes, so that a change in the order of additions shows.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((x % 40) as i32 - 20)
        };
        let mut scratch = Vec::new();
        for w in [1, 2, 3, 17, 40, 99] {
            for len in [0, 1, w, 4 * w, 4 * w + 1, 8 * w - 1, 9 * w - 1, 13 * w + 5] {
                let a: Vec<f64> = (0..len + w + 3).map(|_| next()).collect();
                let scale = next();
                let mut out = vec![f64::NAN; len];
                super::window_sums_scaled(&a, w, &mut out, scale, &mut scratch);
                // One block at a time: `before` by a forward walk, the suffix backward.
                let a = &a[..len + w];
                let mut before = vec![0.0; a.len()];
                for (b, block) in a.chunks(w).enumerate() {
                    let mut acc = 0.0;
                    for (i, &v) in block.iter().enumerate() {
                        before[b * w + i] = acc;
                        acc += v;
                    }
                }
                for (b, block) in a.chunks(w).enumerate() {
                    let mut acc = 0.0;
                    for (i, &v) in block.iter().enumerate().rev() {
                        acc += v;
                        let t = b * w + i;
                        if t < len {
                            let want = (acc + before[t + w]) * scale;
                            assert_eq!(out[t].to_bits(), want.to_bits(), "w {w} len {len} t {t}");
                        }
                    }
                }
            }
        }
    }

    /// Horner's scheme in place gives what `lead` followed by [`Dense::convolve_uniform`]
    /// gives, bit for bit, for narrow and block widths.
    #[test]
    fn uniform_horner_matches_convolve_uniform() {
        let mut h = super::UniformHorner::default();
        for w in [1usize, 2, 5, 16, 17, 40] {
            let scale = 1.0 / w as f64;
            // No zero lead: `convolve_uniform` cuts zeros off the ends of its input first.
            let leads = [0.25, 1e-300, 1e-30, 0.5, 0.125, 3.0];
            h.start(0.75, w);
            let mut want = vec![0.75];
            for &lead in &leads {
                h.step(lead, scale);
                let t = Dense {
                    offset: 0,
                    p: want.clone(),
                };
                let conv = if w == 1 {
                    want.iter().map(|&x| x * scale).collect()
                } else {
                    t.convolve_uniform(1, w as i64).p
                };
                want = core::iter::once(lead).chain(conv).collect();
                let got = h.law();
                assert_eq!(got.len(), want.len(), "w {w}");
                for (g, e) in got.iter().zip(&want) {
                    assert_eq!(g.to_bits(), e.to_bits(), "w {w}");
                }
            }
        }
    }

    #[test]
    fn map_keeps_or_rebuilds_the_order_and_merges_equal_images() {
        let d = Dist::from_pairs([(1, 0.1), (2, 0.2), (3, 0.3), (4, 0.4)]).unwrap();
        // Order kept: the same probabilities, relabelled.
        let up = d.map(|&o| o * 10);
        assert_eq!(up.outcomes(), &[10, 20, 30, 40]);
        assert_eq!(up.probabilities(), d.probabilities());
        // Order reversed: sorted again.
        let down = d.map(|&o| -o);
        assert_eq!(down.outcomes(), &[-4, -3, -2, -1]);
        assert_eq!(down.probabilities(), &[0.4, 0.3, 0.2, 0.1]);
        // Not one to one: equal images merged (odd 0.1 + 0.3, even 0.2 + 0.4).
        let parity = d.map(|&o| o % 2);
        assert_eq!(parity.outcomes(), &[0, 1]);
        assert!((parity.probability(&0) - (0.2 + 0.4)).abs() < 1e-15);
        assert!((parity.probability(&1) - (0.1 + 0.3)).abs() < 1e-15);
        // Monotone but not strictly: merged too.
        let halves = d.map(|&o| o / 2);
        assert_eq!(halves.outcomes(), &[0, 1, 2]);
        assert!((halves.probability(&1) - (0.2 + 0.3)).abs() < 1e-15);
    }

    #[test]
    fn from_sorted_drops_zero_entries_in_place() {
        let d = Dist::from_sorted(vec![1, 2, 3, 4, 5], vec![0.0, 0.5, 0.0, 0.5, 0.0], 0.0);
        assert_eq!(d.outcomes(), &[2, 4]);
        assert_eq!(d.probabilities(), &[0.5, 0.5]);
        let kept = Dist::from_sorted(vec![1, 2], vec![0.25, 0.75], 0.0);
        assert_eq!(kept.outcomes(), &[1, 2]);
    }

    #[test]
    fn nothing_has_probability_plus_zero() {
        let d = Dist::from_pairs([(1, 0.5), (2, 0.5)]).unwrap();
        assert!(d.probability_where(|&o| o > 5).is_sign_positive());
        assert!(d.cdf(&0).is_sign_positive());
        assert!(d.probability(&7).is_sign_positive());
    }

    use super::*;

    #[test]
    fn uniform_convolution_matches_direct() {
        // Zeros at both ends (dropped by the fast path) and inside (kept).
        let ramp: Vec<f64> = (1..=40).map(|i| f64::from(i) / 820.0).collect();
        let bases = [
            vec![0.1, 0.2, 0.3, 0.4],
            vec![0.0, 0.0, 0.1, 0.0, 0.5, 0.4, 0.0],
            ramp,
        ];
        for p in bases {
            let base = Dense { offset: 3, p };
            // Widths on both sides of UNROLLED_WIDTH, powers of two among them.
            for (lo, hi) in [
                (1, 6),
                (1, 2),
                (0, 9),
                (1, 1),
                (2, 13),
                (1, 16),
                (1, 17),
                (1, 20),
                (1, 32),
                (1, 100),
                (-5, 60),
            ] {
                let fast = base.convolve_uniform(lo, hi).trim();
                let slow = base.convolve(&Dense::uniform(lo, hi)).trim();
                assert_eq!(fast.offset, slow.offset);
                assert_eq!(fast.p.len(), slow.p.len());
                for (a, b) in fast.p.iter().zip(&slow.p) {
                    assert!((a - b).abs() <= 5e-14 * b, "{lo}..={hi}: {a} {b}");
                }
            }
        }
    }

    #[test]
    fn uniform_dice_match_repeated_direct_convolution() {
        // Past 420 d6 the ends underflow and are skipped; both ends of odd laws too.
        let starts = [
            Dense::certain(0),
            Dense {
                offset: -2,
                p: vec![0.0, 0.25, 0.0, 0.75, 0.0],
            },
        ];
        for start in starts {
            for (count, sides) in [(0, 6), (1, 6), (7, 2), (30, 16), (450, 6), (5, 17), (3, 1)] {
                let fast = start.add_uniform_dice(count, sides);
                let mut slow = start.clone();
                for _ in 0..count {
                    slow = slow.convolve(&Dense::uniform(1, i64::from(sides)));
                }
                let slow = slow.trim();
                let fast = fast.trim();
                assert_eq!(fast.offset, slow.offset, "{count}d{sides}");
                assert_eq!(fast.p.len(), slow.p.len(), "{count}d{sides}");
                for (a, b) in fast.p.iter().zip(&slow.p) {
                    // Relative, down to the subnormal far ends (compared absolutely there).
                    assert!(
                        (a - b).abs() <= 5e-14 * b.max(1e-290),
                        "{count}d{sides}: {a} {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn sums_by_squaring_match_integer_counts_and_the_one_by_one_path() {
        // Exact: the number of ways of each total of 49d6 (6⁴⁹ < 2¹²⁸) and of 45d7, 33d13
        // counted in integers, then divided.
        for (count, sides) in [(49u32, 6u32), (45, 7), (33, 13), (40, 2)] {
            let mut ways: Vec<u128> = vec![1];
            for _ in 0..count {
                let mut next = vec![0u128; ways.len() + sides as usize - 1];
                for (i, &c) in ways.iter().enumerate() {
                    for slot in &mut next[i..i + sides as usize] {
                        *slot += c;
                    }
                }
                ways = next;
            }
            let all = (u128::from(sides)).pow(count) as f64;
            let got = Dense::certain(0).add_uniform_dice(count, sides);
            assert_eq!(got.offset, i64::from(count));
            assert_eq!(got.p.len(), ways.len(), "{count}d{sides}");
            for (i, (&q, &c)) in got.p.iter().zip(&ways).enumerate() {
                let want = c as f64 / all;
                assert!(
                    (q - want).abs() <= 1e-14 * want,
                    "{count}d{sides} +{i}: {q} vs {want}"
                );
            }
        }
        // Longer sums, whose far ends underflow: against adding the dice one by one, relative
        // in the normal range, the subnormal ends absolutely (there the one-by-one path's
        // rounding of subnormal numbers may list an end value more or fewer).
        for (count, sides) in [(33u32, 6u32), (300, 2), (333, 16), (1001, 6), (2048, 3)] {
            let fast = uniform_dice_by_squaring(count, sides as usize);
            let slow = Dense::certain(0).add_uniform_dice_one_by_one(count, sides);
            let at = |d: &Dense, v: i64| {
                usize::try_from(v - d.offset)
                    .ok()
                    .and_then(|i| d.p.get(i))
                    .copied()
                    .unwrap_or(0.0)
            };
            let (lo, hi) = (
                fast.offset.min(slow.offset),
                fast.offset.max(slow.offset) + 20_000,
            );
            for v in lo..hi {
                let (a, b) = (at(&fast, v), at(&slow, v));
                assert!(
                    (a - b).abs() <= 1e-13 * b.max(1e-290),
                    "{count}d{sides} {v}: {a} vs {b}"
                );
            }
            assert!((fast.offset - slow.offset).abs() <= 16, "{count}d{sides}");
            let total: f64 = fast.p.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{count}d{sides}: {total}");
        }
    }

    #[test]
    fn power_is_repeated_convolution() {
        let d = Dense::uniform(1, 6);
        let mut slow = Dense::certain(0);
        for _ in 0..7 {
            slow = slow.convolve(&d);
        }
        let fast = d.power(7);
        assert_eq!(fast.offset, slow.offset);
        for (a, b) in fast.p.iter().zip(&slow.p) {
            assert!((a - b).abs() <= 1e-14 * b);
        }
    }

    #[test]
    fn sqrt_is_right() {
        for x in [0.0, 1.0, 2.0, 1e-10, 12345.678] {
            assert!((sqrt(x) * sqrt(x) - x).abs() <= 1e-12 * x.max(1.0));
        }
    }
}

/// The binomial law of successes among `n` trials of probability `p`, as `pmf[0..=n]`: the
/// law every success count of identical dice is built from, for crates that build their own
/// laws (each term accurate to a few ulps, nothing underflows near the mode).
///
/// # Errors
/// [`Error::Probability`] unless `0 ≤ p ≤ 1`; [`Error::OutOfRange`] when `n` is above
/// [`crate::MAX_ROLLED_DICE`].
///
/// ```
/// let pmf = dice_core::binomial_pmf(3, 0.5)?;
/// assert_eq!(pmf, vec![0.125, 0.375, 0.375, 0.125]);
/// # Ok::<(), dice_core::Error>(())
/// ```
pub fn binomial_pmf(n: u32, p: f64) -> Result<Vec<f64>, Error> {
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::Probability { value: p });
    }
    if u64::from(n) > crate::MAX_ROLLED_DICE {
        return Err(Error::OutOfRange {
            what: "number of trials",
            value: i64::from(n),
            min: 0,
            max: crate::MAX_ROLLED_DICE as i64,
        });
    }
    Ok(binomial(n, p))
}

/// The binomial law of successes among `n` trials of probability `p`, as `pmf[0..=n]`.
///
/// Computed from the mode outwards with the ratio `pmf(c+1)/pmf(c) = (n−c)/(c+1) · p/(1−p)`
/// and normalised at the end, so nothing underflows near the mode and every term keeps a
/// relative error of a few ulps per step from the mode.
pub(crate) fn binomial(n: u32, p: f64) -> Vec<f64> {
    let n_us = n as usize;
    let mut pmf = vec![0.0; n_us + 1];
    if p <= 0.0 {
        pmf[0] = 1.0;
        return pmf;
    }
    if p >= 1.0 {
        pmf[n_us] = 1.0;
        return pmf;
    }
    let q = 1.0 - p;
    let mode = (((f64::from(n) + 1.0) * p) as usize).min(n_us);
    pmf[mode] = 1.0;
    for c in mode..n_us {
        let next = pmf[c] * ((n_us - c) as f64 / (c + 1) as f64) * (p / q);
        if next == 0.0 {
            break;
        }
        pmf[c + 1] = next;
    }
    for c in (0..mode).rev() {
        let prev = pmf[c + 1] * ((c + 1) as f64 / (n_us - c) as f64) * (q / p);
        if prev == 0.0 {
            break;
        }
        pmf[c] = prev;
    }
    let total: f64 = pmf.iter().sum();
    for x in &mut pmf {
        *x /= total;
    }
    pmf
}

#[cfg(test)]
mod binomial_tests {
    use super::binomial;

    #[test]
    fn binomial_matches_pascal() {
        // Pascal's triangle in exact integers, for n up to 30.
        let mut row: Vec<u64> = vec![1];
        for n in 1..=30u32 {
            let mut next = vec![1u64; row.len() + 1];
            for i in 1..row.len() {
                next[i] = row[i - 1] + row[i];
            }
            row = next;
            for p in [0.1, 0.3, 0.5, 0.9] {
                let pmf = binomial(n, p);
                for (c, &coef) in row.iter().enumerate() {
                    let exact = coef as f64
                        * (0..c).fold(1.0, |a, _| a * p)
                        * (0..n as usize - c).fold(1.0, |a, _| a * (1.0 - p));
                    assert!((pmf[c] - exact).abs() <= 1e-13 * exact, "{n} {p} {c}");
                }
            }
        }
    }

    #[test]
    fn binomial_survives_large_n() {
        let pmf = binomial(5000, 0.9);
        assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(pmf[4500] > 0.0);
    }
}

/// A law on `0, 1, 2, …` listed up to `len − 1`, with its survival function over the same
/// range: `f[x] = P(X = x)` and `s[x] = P(X > x)`, both exact and both computed from sums of
/// non-negative terms, so the unlisted mass `s[len − 1]` keeps full relative precision
/// (where `1 − Σ f` would only give rounding noise).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tailed {
    pub(crate) f: Vec<f64>,
    pub(crate) s: Vec<f64>,
}

impl Tailed {
    /// The point law at 0.
    pub(crate) fn zero(len: usize) -> Tailed {
        let mut f = vec![0.0; len];
        f[0] = 1.0;
        Tailed {
            f,
            s: vec![0.0; len],
        }
    }

    /// The law of `A + B` for independent non-negative `A` (self) and `B`, up to `len − 1`:
    /// `P(A + B = c) = Σₐ f_A(a) f_B(c − a)` and
    /// `P(A + B > c) = Σ_{a ≤ c} f_A(a) s_B(c − a) + s_A(c)`.
    pub(crate) fn add(&self, other: &Tailed, len: usize) -> Tailed {
        let mut f = vec![0.0; len];
        let mut s = vec![0.0; len];
        for (a, &fa) in self.f.iter().enumerate().take(len) {
            if fa == 0.0 {
                continue;
            }
            let room = (len - a).min(other.f.len());
            // Slices of equal length, so the loop has no bounds checks and vectorizes.
            let (fo, so) = (&mut f[a..a + room], &mut s[a..a + room]);
            let (fb, sb) = (&other.f[..room], &other.s[..room]);
            for (fo, &fb) in fo.iter_mut().zip(fb) {
                *fo += fa * fb;
            }
            for (so, &sb) in so.iter_mut().zip(sb) {
                *so += fa * sb;
            }
            // Where B's listing ends before `len`, B's unlisted mass is its last survival.
            if other.f.len() < len - a {
                let last = other.s[other.s.len() - 1];
                for slot in &mut s[a + other.f.len()..] {
                    *slot += fa * last;
                }
            }
        }
        for (c, slot) in s.iter_mut().enumerate() {
            *slot += self.s.get(c).copied().unwrap_or(self.s[self.s.len() - 1]);
        }
        Tailed { f, s }
    }

    /// The law of the sum of `n` independent copies, by binary powering.
    pub(crate) fn power(&self, mut n: u32, len: usize) -> Tailed {
        let mut result = Tailed::zero(len);
        let mut base = self.clone();
        while n > 0 {
            if n & 1 == 1 {
                result = result.add(&base, len);
            }
            n >>= 1;
            if n > 0 {
                base = base.add(&base, len);
            }
        }
        result
    }

    /// The unlisted mass: `P(X > len − 1)`.
    pub(crate) fn tail(&self) -> f64 {
        self.s[self.s.len() - 1]
    }

    /// As a dense law from 0 (trailing zeros dropped) and its unlisted mass.
    pub(crate) fn into_dense(self) -> (Dense, f64) {
        let tail = self.tail();
        (
            Dense {
                offset: 0,
                p: self.f,
            }
            .trim_end(),
            tail,
        )
    }
}

#[cfg(test)]
mod tailed_tests {
    use super::*;

    #[test]
    fn sums_keep_exact_survival() {
        // A geometric law P(X = x) = (1/2)^(x+1): survival (1/2)^(x+1).
        let len = 40;
        let f: Vec<f64> = (0..len).map(|x| 0.5f64.powi(x as i32 + 1)).collect();
        let s = f.clone();
        let g = Tailed { f, s };
        // X1 + X2 is negative binomial: P(S = c) = (c + 1)(1/2)^(c+2),
        // P(S > c) = (c + 3)(1/2)^(c+2).
        let two = g.add(&g, len);
        for c in 0..len {
            let pc = (c as f64 + 1.0) * 0.5f64.powi(c as i32 + 2);
            let sc = (c as f64 + 3.0) * 0.5f64.powi(c as i32 + 2);
            assert!((two.f[c] - pc).abs() <= 1e-15 * pc);
            assert!((two.s[c] - sc).abs() <= 1e-15 * sc, "{c}");
        }
        let p = g.power(2, len);
        assert_eq!(p.f.len(), len);
        assert!((p.tail() - two.tail()).abs() <= 1e-15 * two.tail());
    }
}
