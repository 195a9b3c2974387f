//! Success counting: how many dice pass a test, with criticals counted alongside.

use alloc::vec::Vec;
use core::fmt;

use rand::Rng;

use crate::die::Batch;
use crate::faces::{Comparison, FaceTest};
use crate::pool::{Pool, PoolPart};
use crate::record::{DieRoll, RollRecord};
use crate::{Roll, RollDetailed};

/// A face test turned into a test on the raw bits of a batch digit (see [`crate::die`]):
/// digit `d` passes exactly when `bits.wrapping_sub(lo) < width`, or always when `all`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BitsTest {
    /// Every face passes.
    All,
    /// Raw bits in `lo .. lo + width` (wrapping) pass.
    Range { lo: u64, width: u64 },
    /// A mask on the digit.
    Mask(u128),
}

impl BitsTest {
    pub(crate) fn new(test: FaceTest, sides: u32) -> BitsTest {
        let n = u64::from(sides);
        match test {
            FaceTest::Range { width, .. } if width == n => BitsTest::All,
            FaceTest::Range { width: 0, .. } => BitsTest::Range { lo: 0, width: 0 },
            FaceTest::Range { lo, width } => {
                // bound(s) = smallest raw bits whose digit is ≥ s; bound(n) wraps to 0 (= 2⁶⁴).
                let bound = |s: u64| Batch::bits_below(n, s).unwrap_or(0);
                let lo_bits = bound(lo);
                BitsTest::Range {
                    lo: lo_bits,
                    width: bound(lo + width).wrapping_sub(lo_bits),
                }
            }
            FaceTest::Set(mask) => BitsTest::Mask(mask),
        }
    }

    #[inline(always)]
    fn count_batch(self, b: &Batch, x: u64, take: usize) -> u32 {
        match self {
            BitsTest::All => take as u32,
            BitsTest::Range { lo, width } => b
                .pows(take)
                .iter()
                .map(|&p| u32::from(x.wrapping_mul(p).wrapping_sub(lo) < width))
                .sum(),
            BitsTest::Mask(mask) => b
                .pows(take)
                .iter()
                .map(|&p| u32::from(mask_has(mask, b.digit(x.wrapping_mul(p)))))
                .sum(),
        }
    }

    #[inline(always)]
    fn passes(self, b: &Batch, r: u64) -> bool {
        match self {
            BitsTest::All => true,
            BitsTest::Range { lo, width } => r.wrapping_sub(lo) < width,
            BitsTest::Mask(mask) => mask_has(mask, b.digit(r)),
        }
    }
}

/// Whether bit `digit` of `mask` is set; digits past the mask's 128 bits are never in it.
///
/// A plain `mask >> digit` is wrong for dice over 128 sides: the shift overflows (a panic in
/// debug builds, a shift by `digit % 128` in release, which read face 133 as face 5).
#[inline(always)]
fn mask_has(mask: u128, digit: u64) -> bool {
    digit < 128 && (mask >> digit) & 1 == 1
}

/// Successes and criticals of one roll.
///
/// ```
/// let t = dice_core::Tally { successes: 2, criticals: 1 };
/// assert_eq!(t.to_string(), "2 successes, 1 critical");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tally {
    /// Dice that passed the success test.
    pub successes: u32,
    /// Dice whose natural face passed the critical test.
    pub criticals: u32,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.successes == 1 { "" } else { "es" };
        let c = if self.criticals == 1 { "" } else { "s" };
        write!(
            f,
            "{} success{s}, {} critical{c}",
            self.successes, self.criticals
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct PartTests {
    success: BitsTest,
    critical: BitsTest,
}

/// A pool whose dice are counted: each die passing `success` is a success, and each die whose
/// natural face passes `critical` (a natural 1 by default) is counted as a critical alongside.
///
/// [`Roll::roll`] returns the success count; [`SuccessPool::tally`] returns both counts;
/// neither allocates. On a pool without explosions a success is decided on the raw random
/// bits, without computing the face.
///
/// ```
/// use dice_core::{Comparison, Die, Pool, Roll, SuccessPool};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // Robots & Rapiers: 10d10, each die at or under 5 succeeds.
/// let test = SuccessPool::new(Pool::new(10, Die::D10)?, Comparison::AtMost(5));
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
/// let successes = test.roll(&mut rng);
/// assert!(successes <= 10);
/// let tally = test.tally(&mut rng);
/// assert!(tally.criticals <= 10);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuccessPool {
    pool: Pool,
    success: Comparison,
    critical: Comparison,
    tests: Vec<PartTests>,
}

impl SuccessPool {
    /// Counts the dice of `pool` passing `success`; criticals are natural 1s.
    ///
    /// On an exploding pool the test applies to each die's value (a compounding die's whole
    /// value; every added die on its own).
    pub fn new(pool: Pool, success: Comparison) -> Self {
        Self::with_critical(pool, success, Comparison::Exactly(1))
    }

    /// As [`SuccessPool::new`], counting as criticals the dice whose natural face passes
    /// `critical` (Robots & Rapiers' rapid-campaign dial counts 1s and 2s: `AtMost(2)`).
    ///
    /// ```
    /// use dice_core::{Comparison, Die, Pool, SuccessPool};
    /// let p = SuccessPool::with_critical(Pool::new(6, Die::D10)?, Comparison::AtMost(6), Comparison::AtMost(2));
    /// assert_eq!(p.critical(), Comparison::AtMost(2));
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn with_critical(pool: Pool, success: Comparison, critical: Comparison) -> Self {
        let tests = pool
            .parts()
            .iter()
            .map(|p| {
                let sides = p.die().sides();
                PartTests {
                    success: BitsTest::new(success.face_test(sides), sides),
                    critical: BitsTest::new(critical.face_test(sides), sides),
                }
            })
            .collect();
        SuccessPool {
            pool,
            success,
            critical,
            tests,
        }
    }

    /// The pool.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }
    /// The success test.
    pub fn success(&self) -> Comparison {
        self.success
    }
    /// The critical test.
    pub fn critical(&self) -> Comparison {
        self.critical
    }

    /// The success count of one roll: the hot path, allocation-free.
    #[inline]
    pub fn count<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        match (self.pool.parts(), self.tests.as_slice()) {
            ([part], [t]) if !self.pool.explodes() => count_part(rng, part, t.success),
            _ => self.count_general(rng),
        }
    }

    /// [`SuccessPool::count`] for several parts or exploding dice.
    #[inline(never)]
    fn count_general<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        if self.pool.explodes() {
            let mut n = 0;
            self.pool
                .visit(rng, |_, d| n += u32::from(self.success.test(d.value)));
            return n;
        }
        let mut n = 0;
        for (part, t) in self.pool.parts().iter().zip(&self.tests) {
            n += count_part(rng, part, t.success);
        }
        n
    }

    /// Successes and criticals of one roll, allocation-free.
    #[inline]
    pub fn tally<R: Rng + ?Sized>(&self, rng: &mut R) -> Tally {
        let mut tally = Tally::default();
        if self.pool.explodes() {
            self.pool.visit(rng, |_, d| {
                tally.successes += u32::from(self.success.test(d.value));
                tally.criticals += u32::from(self.critical.test(i64::from(d.natural)));
            });
            return tally;
        }
        for (part, t) in self.pool.parts().iter().zip(&self.tests) {
            let b = part.batch();
            let mut left = part.count() as usize;
            while left > 0 {
                let take = left.min(b.len);
                let x = b.draw(rng);
                for &p in b.pows(take) {
                    let r = x.wrapping_mul(p);
                    tally.successes += u32::from(t.success.passes(b, r));
                    tally.criticals += u32::from(t.critical.passes(b, r));
                }
                left -= take;
            }
        }
        tally
    }

    /// Flags successes and criticals on dice already in `record` and fills its counts.
    pub(crate) fn mark(&self, record: &mut RollRecord) {
        let (mut s, mut c) = (0, 0);
        for d in &mut record.dice {
            d.flags.success = d.flags.kept && !d.flags.blocked && self.success.test(d.value);
            d.flags.critical = self.critical.test(i64::from(d.natural));
            s += u32::from(d.flags.success);
            c += u32::from(d.flags.critical);
        }
        record.successes = s;
        record.criticals = c;
    }
}

/// Successes among the dice of one non-exploding part: one draw per batch, then one
/// multiplication and one comparison per die.
#[inline(always)]
fn count_part<R: Rng + ?Sized>(rng: &mut R, part: &PoolPart, test: BitsTest) -> u32 {
    let b = part.batch();
    let count = part.count() as usize;
    match test {
        BitsTest::All => count as u32,
        BitsTest::Range { lo, width } => {
            let mut n = 0;
            let mut left = count;
            while left > 0 {
                let take = left.min(b.len);
                let x = b.draw(rng);
                for &p in b.pows(take) {
                    n += u32::from(x.wrapping_mul(p).wrapping_sub(lo) < width);
                }
                left -= take;
            }
            n
        }
        BitsTest::Mask(_) => {
            let mut n = 0;
            let mut left = count;
            while left > 0 {
                let take = left.min(b.len);
                let x = b.draw(rng);
                n += test.count_batch(b, x, take);
                left -= take;
            }
            n
        }
    }
}

impl Roll for SuccessPool {
    /// The number of successes.
    type Outcome = u32;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.count(rng)
    }
}

impl RollDetailed for SuccessPool {
    /// Every die, with successes and criticals flagged and counted, and the total of values.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        if self.pool.explodes() {
            self.pool.roll_into(rng, &mut record.dice);
            self.mark(record);
            record.total = record.kept_values().sum();
            record.capped = record.dice.iter().any(|d| d.flags.capped);
            return;
        }
        // One pass: faces and flags straight from the raw bits.
        record.dice.reserve(self.pool.count() as usize);
        let (mut successes, mut criticals, mut total) = (0u32, 0u32, 0i64);
        for (part, t) in self.pool.parts().iter().zip(&self.tests) {
            let b = part.batch();
            let die = part.die();
            let source = part.source();
            let mut left = part.count() as usize;
            while left > 0 {
                let take = left.min(b.len);
                let x = b.draw(rng);
                // `extend` from a slice iterator reserves once per batch.
                record.dice.extend(b.pows(take).iter().map(|&p| {
                    let r = x.wrapping_mul(p);
                    let natural = b.digit(r) as u32 + 1;
                    let success = t.success.passes(b, r);
                    let critical = t.critical.passes(b, r);
                    successes += u32::from(success);
                    criticals += u32::from(critical);
                    total += i64::from(natural);
                    let mut d = DieRoll::new(die, natural, source);
                    d.flags.success = success;
                    d.flags.critical = critical;
                    d
                }));
                left -= take;
            }
        }
        record.successes = successes;
        record.criticals = criticals;
        record.total = total;
    }
}

impl fmt::Display for SuccessPool {
    /// `10d10 count <=5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} count {}", self.pool, self.success)
    }
}

// ------------------------------------------------------------------ exact distributions

use crate::Exact;
use crate::dist::{Dense, Dist, Tailed, binomial};
use crate::error::Error;
use crate::pool::{DEFAULT_TAIL_TOLERANCE, ExplodeMode, check_work};

impl SuccessPool {
    /// The exact law of the success count, listing counts until the unlisted mass is at most
    /// `tail_tolerance` (only pools with explosions and no explicit cap have one).
    ///
    /// - Plain dice: each part is binomial; parts are convolved.
    /// - Compounding dice: each die succeeds with the probability that its whole value
    ///   passes, so again binomial.
    /// - Additional explosions (a die passing the explosion test adds a die, each die counted
    ///   on its own): one die's count has the generating function
    ///   `G(z) = (a·z + b) / (1 − c·z − d)`, where `a`/`b` are the chances of a succeeding /
    ///   failing face that does not explode and `c`/`d` those of a face that does; its series
    ///   is `g₀ = b/(1−d)`, `g₁ = (a + c·g₀)/(1−d)`, `gⱼ = c·gⱼ₋₁/(1−d)`, every term a sum of
    ///   non-negative numbers. `n` dice are `Gⁿ`, computed by binary powering. With an explicit
    ///   cap the chain is cut after `cap` explosions and the law is the capped one.
    ///
    /// # Errors
    /// [`Error::TooComplex`] beyond [`crate::MAX_EXACT_WORK`].
    ///
    /// ```
    /// use dice_core::{Comparison, Die, Explode, Pool, SuccessPool};
    /// // d10s: 8+ succeeds, a 10 adds a die.
    /// let pool = Pool::new(10, Die::D10)?.exploding(Explode::new(Comparison::Exactly(10)))?;
    /// let d = SuccessPool::new(pool, Comparison::AtLeast(8)).distribution_within(1e-18)?;
    /// assert!((d.total() - 1.0).abs() < 1e-12);
    /// assert!(d.tail() <= 1e-18);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn distribution_within(&self, tail_tolerance: f64) -> Result<Dist<u32>, Error> {
        let (law, tail) = self.count_law(tail_tolerance)?;
        Ok(law.into_dist_as(tail))
    }

    /// The success-count law as a dense vector from 0, and its unlisted mass.
    pub(crate) fn count_law(&self, tail_tolerance: f64) -> Result<(Dense, f64), Error> {
        let tol = if tail_tolerance > 0.0 {
            tail_tolerance
        } else {
            DEFAULT_TAIL_TOLERANCE
        };
        let pool = &self.pool;
        let n = pool.count();
        check_work("a success count", f64::from(n) * f64::from(n) * 2.0)?;
        match pool.explode() {
            None => {
                let mut law = Dense::certain(0);
                for part in pool.parts() {
                    let sides = part.die().sides();
                    let p = f64::from(self.success.faces_passing(sides)) / f64::from(sides);
                    let b = Dense {
                        offset: 0,
                        p: binomial(part.count(), p),
                    };
                    law = law.convolve(&b);
                }
                Ok((law, 0.0))
            }
            Some(e) if e.mode() == ExplodeMode::Penetrate => {
                crate::penetrate::count_law(pool.parts(), e, self.success, tol)
            }
            Some(e) if !e.mode().adds_dice() => {
                // The tail of a die's value law lies above every threshold, so whether it
                // passes is known: the success chance is exact.
                let mut law = Dense::certain(0);
                for part in pool.parts() {
                    let threshold = match self.success {
                        Comparison::AtLeast(t)
                        | Comparison::AtMost(t)
                        | Comparison::Above(t)
                        | Comparison::Below(t)
                        | Comparison::Exactly(t) => t.max(0) as usize + 1,
                        Comparison::OneOf(_) => crate::faces::MAX_SET_FACE as usize + 1,
                    };
                    let v = pool.value_law(part, tol / f64::from(n.max(1)), threshold)?;
                    // Values beyond the listed range are above every threshold.
                    let beyond_passes = self.success.test(i64::MAX / 2);
                    let listed_pass: f64 = v
                        .law
                        .p
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| self.success.test(v.law.offset + *i as i64))
                        .map(|(_, q)| q)
                        .sum();
                    let listed_fail: f64 = v.law.p.iter().sum::<f64>() - listed_pass;
                    let p = if beyond_passes {
                        1.0 - listed_fail
                    } else {
                        listed_pass
                    };
                    let b = Dense {
                        offset: 0,
                        p: binomial(part.count(), p.clamp(0.0, 1.0)),
                    };
                    law = law.convolve(&b);
                }
                Ok((law, 0.0))
            }
            Some(e) => self.additional_count_law(e, tol),
        }
    }

    fn additional_count_law(&self, e: crate::Explode, tol: f64) -> Result<(Dense, f64), Error> {
        // An added die is tested like the first: the same chances for both.
        let chains: Vec<ChainDice> = self
            .pool
            .parts()
            .iter()
            .map(|part| {
                let one = face_chances(part.die().sides(), e.on(), |f| self.success.test(f));
                ChainDice {
                    count: part.count(),
                    first: one,
                    added: one,
                }
            })
            .collect();
        chain_count_law(&chains, e.has_explicit_cap().then(|| e.cap()), tol)
    }
}

/// The chances of one face, for the success count of dice whose explosions add dice:
/// `[a, b, c, d]`, the chances that it succeeds and stops, fails and stops, succeeds and
/// explodes, fails and explodes.
pub(crate) type FaceChances = [f64; 4];

/// [`FaceChances`] of a die of `sides` faces exploding on `on`, a face `f` succeeding when
/// `success(f)` (the caller shifts the face for penetrating added dice).
pub(crate) fn face_chances(
    sides: u32,
    on: Comparison,
    success: impl Fn(i64) -> bool,
) -> FaceChances {
    let inv = 1.0 / f64::from(sides);
    let mut chances = [0.0; 4];
    for face in 1..=sides {
        let explodes = on.test(i64::from(face));
        chances[usize::from(explodes) * 2 + usize::from(!success(i64::from(face)))] += inv;
    }
    chances
}

/// One part of a pool for [`chain_count_law`]: `count` dice, each starting a chain whose first
/// die has the chances `first` and every die it adds the chances `added` (the same for plain
/// additional explosions; a face less one for penetrating ones).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChainDice {
    pub(crate) count: u32,
    pub(crate) first: FaceChances,
    pub(crate) added: FaceChances,
}

/// The success-count law of dice whose explosions add dice (plain or penetrating: one helper
/// for both), and its unlisted mass.
///
/// One chain's count has the generating function `G(z) = (a·z + b) + (c·z + d)·H(z)` with the
/// first die's chances, where `H` is the count of the dice the first adds:
/// `H = (a'·z + b')/(1 − c'·z − d')` untruncated (primed: the added dice's chances), so
/// `h₀ = b'/(1 − d')`, `hⱼ = h₁·rʲ⁻¹` with `h₁ = (a' + c'·h₀)/(1 − d')`, `r = c'/(1 − d')`
/// and `P(H > j) = h₁·rʲ/(1 − r)`; with a cap, `H₁ = (a' + c')·z + (b' + d')` and
/// `Hⱼ = (a'·z + b') + (c'·z + d')·Hⱼ₋₁` up to `H_cap`. Series and survival functions are
/// sums of non-negative terms; `n` dice are `Gⁿ` by binary powering, the untruncated listing
/// starting at the Chernoff bound ([`crate::pool::exploding_count_len`]) and lengthened
/// until the rest weighs at most `tol`.
pub(crate) fn chain_count_law(
    chains: &[ChainDice],
    cap: Option<u32>,
    tol: f64,
) -> Result<(Dense, f64), Error> {
    let n: u32 = chains.iter().map(|c| c.count).sum();
    if let Some(cap) = cap {
        let cap = cap as usize;
        check_work(
            "a capped exploding success count",
            (cap * cap) as f64 * f64::from(n) * f64::from(n),
        )?;
        let mut law = Dense::certain(0);
        for chain in chains {
            let [a, b, c, d] = chain.first;
            let [a2, b2, c2, d2] = chain.added;
            // One step of `(α·z + β) + (γ·z + δ)·h`.
            let step = |h: &[f64], [alpha, beta, gamma, delta]: FaceChances| {
                let mut next = alloc::vec![0.0; h.len() + 1];
                next[0] += beta;
                next[1] += alpha;
                for (j, &hj) in h.iter().enumerate() {
                    next[j] += delta * hj;
                    next[j + 1] += gamma * hj;
                }
                next
            };
            let mut h = alloc::vec![b2 + d2, a2 + c2];
            for _ in 1..cap {
                h = step(&h, chain.added);
            }
            let g = step(&h, [a, b, c, d]);
            law = law.convolve(&Dense { offset: 0, p: g }.power(chain.count));
        }
        return Ok((law.trim_end(), 0.0));
    }
    let mut len = crate::pool::exploding_count_len(chains, tol)
        .map_or(16usize.max(4 * n as usize), |l| l.clamp(16, 1 << 22));
    loop {
        check_work(
            "an exploding success count",
            (len * len) as f64
                * crate::sum::TAILED_COST
                * 2.0
                * crate::sum::powering_steps(n)
                * chains.len() as f64,
        )?;
        let mut law = Tailed::zero(len);
        for chain in chains {
            let [a, b, c, d] = chain.first;
            let [a2, b2, c2, _] = chain.added;
            let go_on = a2 + b2 + c2; // 1 − d', as a sum of non-negative terms
            let r = c2 / go_on;
            let one_minus_r = (a2 + b2) / go_on;
            let h0 = b2 / go_on;
            let h1 = (a2 + c2 * h0) / go_on;
            // H's series and survival function: hs[j] = P(H > j).
            let mut hf = alloc::vec![0.0; len];
            let mut hs = alloc::vec![0.0; len];
            hf[0] = h0;
            let mut rj = 1.0; // r^(j−1), then r^j
            for slot in hf.iter_mut().skip(1) {
                *slot = h1 * rj;
                rj *= r;
            }
            let mut rj = 1.0;
            for slot in hs.iter_mut() {
                *slot = h1 * rj / one_minus_r;
                rj *= r;
            }
            // G = (a·z + b) + c·z·H + d·H, and its survival function likewise.
            let mut gf = alloc::vec![0.0; len];
            let mut gs = alloc::vec![0.0; len];
            for j in 0..len {
                let (mut fj, mut sj) = (d * hf[j], d * hs[j]);
                if j == 0 {
                    fj += b;
                    sj += a + c; // the first die's own success, or an added count ≥ 0
                } else {
                    fj += c * hf[j - 1];
                    sj += c * hs[j - 1];
                    if j == 1 {
                        fj += a;
                    }
                }
                gf[j] = fj;
                gs[j] = sj;
            }
            let one = Tailed { f: gf, s: gs };
            law = law.add(&one.power(chain.count, len), len);
        }
        if law.tail() <= tol || len > (1 << 22) {
            return Ok(law.into_dense());
        }
        len *= 2;
    }
}

impl Exact for SuccessPool {
    /// [`SuccessPool::distribution_within`] with [`DEFAULT_TAIL_TOLERANCE`].
    fn distribution(&self) -> Result<Dist<u32>, Error> {
        self.distribution_within(DEFAULT_TAIL_TOLERANCE)
    }
}

#[cfg(test)]
mod chain_tests {
    use super::*;
    use crate::{Die, Exact, Explode};

    /// The count law of dice with additional explosions as it was computed before the helper
    /// was shared: one chain's count is geometric past 0, `g₀ = b/(1 − d)`,
    /// `gⱼ = g₁·rʲ⁻¹` (untruncated), or `Gⱼ = (a·z + b) + (c·z + d)·Gⱼ₋₁` from
    /// `G₀ = (a + c)·z + (b + d)`, `cap` times (capped); `n` dice by repeated convolution.
    fn geometric_reference(n: u32, [a, b, c, d]: FaceChances, cap: Option<u32>) -> Vec<f64> {
        let one = match cap {
            Some(cap) => {
                let mut g = alloc::vec![b + d, a + c];
                for _ in 0..cap {
                    let mut next = alloc::vec![0.0; g.len() + 1];
                    next[0] += b;
                    next[1] += a;
                    for (j, &gj) in g.iter().enumerate() {
                        next[j] += d * gj;
                        next[j + 1] += c * gj;
                    }
                    g = next;
                }
                g
            }
            None => {
                let go_on = a + b + c;
                let (g0, r) = (b / go_on, c / go_on);
                let g1 = (a + c * g0) / go_on;
                let mut g = alloc::vec![g0];
                let mut gj = g1;
                while gj > 1e-300 {
                    g.push(gj);
                    gj *= r;
                }
                g
            }
        };
        let one = Dense { offset: 0, p: one };
        let mut law = Dense::certain(0);
        for _ in 0..n {
            law = law.convolve(&one);
        }
        law.p
    }

    #[test]
    fn shared_chain_helper_matches_the_geometric_law_of_additional_explosions() {
        let cases = [
            (5, 10, Comparison::Exactly(10), Comparison::AtLeast(8), None),
            (3, 6, Comparison::AtLeast(5), Comparison::AtMost(2), None),
            (
                4,
                6,
                Comparison::AtLeast(5),
                Comparison::AtLeast(4),
                Some(3),
            ),
            (
                2,
                4,
                Comparison::AtLeast(1),
                Comparison::Exactly(2),
                Some(5),
            ),
        ];
        for (n, sides, on, success, cap) in cases {
            let one = face_chances(sides, on, |f| success.test(f));
            let chains = [ChainDice {
                count: n,
                first: one,
                added: one,
            }];
            let (law, tail) = chain_count_law(&chains, cap, 1e-18).unwrap();
            let reference = geometric_reference(n, one, cap);
            assert!(tail <= 1e-18);
            // Listed until the rest weighs at most 1e-18: compare what is listed, and the rest.
            let beyond: f64 = reference.iter().skip(law.p.len()).sum();
            assert!(beyond <= 1e-18 && (tail - beyond).abs() <= 1e-15 * beyond.max(1e-200) + 1e-30);
            for (j, &got) in law.p.iter().enumerate() {
                let want = reference.get(j).copied().unwrap_or(0.0);
                assert!(
                    (got - want).abs() <= 1e-15 * want.max(1e-200),
                    "{n}d{sides} {success:?} cap {cap:?}: P({j}) {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn penetrating_and_additional_counts_agree_where_the_shift_cannot_matter() {
        // Counting every die rolled (a penetrating added die's face less one is still ≥ 0):
        // the same law whether explosions penetrate or not, as both decide on natural faces.
        for (n, sides, on, cap) in [
            (4, 6, Comparison::Exactly(6), None),
            (3, 10, Comparison::AtLeast(9), Some(4)),
            (6, 4, Comparison::AtLeast(3), None),
        ] {
            let pool = |e: Explode| {
                let e = match cap {
                    Some(c) => e.with_cap(c).unwrap(),
                    None => e,
                };
                Pool::new(n, Die::new(sides).unwrap())
                    .unwrap()
                    .exploding(e)
                    .unwrap()
            };
            let every = Comparison::AtLeast(0);
            let plain = SuccessPool::new(pool(Explode::new(on)), every)
                .distribution()
                .unwrap();
            let pen = SuccessPool::new(pool(Explode::penetrating(on)), every)
                .distribution()
                .unwrap();
            assert_eq!(plain.outcomes(), pen.outcomes(), "{n}d{sides}");
            for (p, q) in plain.probabilities().iter().zip(pen.probabilities()) {
                assert!((p - q).abs() <= 1e-15 * p, "{n}d{sides}: {p} vs {q}");
            }
            assert!((plain.tail() - pen.tail()).abs() <= 1e-18);
        }
    }
}
