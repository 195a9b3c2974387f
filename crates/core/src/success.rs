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
        let n = self.pool.count();
        // Per part: a, b, c, d as in the docs.
        let mut abcd = Vec::new();
        for part in self.pool.parts() {
            let sides = part.die().sides();
            let (mut a, mut b, mut c, mut d) = (0.0, 0.0, 0.0, 0.0);
            let inv = 1.0 / f64::from(sides);
            for face in 1..=sides {
                let s = self.success.test(i64::from(face));
                let x = e.on().test(i64::from(face));
                match (x, s) {
                    (false, true) => a += inv,
                    (false, false) => b += inv,
                    (true, true) => c += inv,
                    (true, false) => d += inv,
                }
            }
            abcd.push((part.count(), a, b, c, d));
        }
        if e.has_explicit_cap() {
            // G₀ = (a + c)·z + (b + d); Gⱼ = (a·z + b) + (c·z + d)·Gⱼ₋₁, cut at the cap.
            let cap = e.cap() as usize;
            check_work(
                "a capped exploding success count",
                (cap * cap) as f64 * f64::from(n) * f64::from(n),
            )?;
            let mut law = Dense::certain(0);
            for &(count, a, b, c, d) in &abcd {
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
                let one = Dense { offset: 0, p: g };
                law = law.convolve(&one.power(count));
            }
            return Ok((law.trim_end(), 0.0));
        }
        // Untruncated: list counts 0..len with their survival function, raising len until
        // the rest weighs at most tol. One die: gⱼ = g₁·rʲ⁻¹ for j ≥ 1 with r = c/(1 − d),
        // so P(count > j) = g₁·rʲ/(1 − r), and 1 − r = (a + b)/(a + b + c).
        // Start where the Chernoff bound says the rest weighs at most tol.
        let mut len = crate::pool::exploding_count_len(&abcd, tol)
            .map_or(16usize.max(4 * n as usize), |l| l.clamp(16, 1 << 22));
        loop {
            check_work(
                "an exploding success count",
                (len * len) as f64
                    * crate::sum::TAILED_COST
                    * 2.0
                    * crate::sum::powering_steps(n)
                    * abcd.len() as f64,
            )?;
            let mut law = Tailed::zero(len);
            for &(count, a, b, c, _d) in &abcd {
                let go_on = a + b + c; // 1 − d, as a sum of non-negative terms
                let r = c / go_on;
                let one_minus_r = (a + b) / go_on;
                let mut g = alloc::vec![0.0; len];
                let mut surv = alloc::vec![0.0; len];
                g[0] = b / go_on;
                let g1 = (a + c * g[0]) / go_on;
                let mut rj = 1.0; // r^(j−1)
                for gj in g.iter_mut().skip(1) {
                    *gj = g1 * rj;
                    rj *= r;
                }
                // surv[j] = g₁·rʲ/(1 − r) for j ≥ 0 (j = 0: everything above 0).
                let mut rj = 1.0;
                for slot in surv.iter_mut() {
                    *slot = g1 * rj / one_minus_r;
                    rj *= r;
                }
                let one = Tailed { f: g, s: surv };
                law = law.add(&one.power(count, len), len);
            }
            if law.tail() <= tol || len > (1 << 22) {
                return Ok(law.into_dense());
            }
            len *= 2;
        }
    }
}

impl Exact for SuccessPool {
    /// [`SuccessPool::distribution_within`] with [`DEFAULT_TAIL_TOLERANCE`].
    fn distribution(&self) -> Result<Dist<u32>, Error> {
        self.distribution_within(DEFAULT_TAIL_TOLERANCE)
    }
}
