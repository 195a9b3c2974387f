//! Keep/drop over pools whose explosions add dice (`5d6!kh3`, `10d10!kh5`, `3d10!>=9kl2`,
//! penetrating `4d6!pdl1`): the exact law, with keep/drop choosing among every die rolled,
//! the added ones included.
//!
//! # The multiset of an exploding pool
//!
//! Sort the dice of a roll by what they are rather than by when they were rolled. Each
//! original die starts a chain: some exploding faces, then a face that does not explode (or,
//! at an explicit cap, nothing more). So the dice of a roll fall into *classes* — "a face that
//! does not explode", "a face that explodes" (and, for penetrating dice, the same two for the
//! added dice, which count one less) — and given how many dice each class holds, the dice of
//! a class show independent faces, uniform on the class's faces. Keep/drop only looks at the
//! multiset of values, so its law is a mixture, over the joint law of the class counts, of
//! keep/drop over independent dice:
//!
//! - untruncated additional explosions: `n` dice that do not explode and `E` that do, with
//!   `E` negative binomial (`P(E = e) = C(n + e − 1, e)·pᵉ·(1 − p)ⁿ`, `p` the chance of an
//!   exploding face), listed until what is left weighs at most the tolerance — that is the
//!   law's tail;
//! - an explicit cap `c`: each chain reaches the cap (`c + 1` exploding faces and no other)
//!   with chance `p^(c+1)`, else it holds `j ≤ c` exploding faces (truncated geometric) and one
//!   that does not explode: a finite joint law, computed exactly;
//! - penetrating dice: of the `n` first dice, `O ~ Binomial(n, p)` explode; they start `O`
//!   chains of added dice (each a plain exploding chain, capped at `c` dice with a cap), whose
//!   counts are as above given `O`.
//!
//! # The dynamic program
//!
//! The values are taken in the order keep/drop takes them (highest first for "keep highest"
//! and "drop highest"). The state is how many dice of each class are not yet placed, how many
//! dice are placed, and the law of the kept score so far. At a value, the dice of a class
//! showing it are binomial among that class's unplaced dice, with chance one over the class's
//! faces not yet passed (the icepool multiset algorithm, one binomial per class). "Keep the
//! first `k`" is settled once `k` dice are placed (the rest of the pool then weighs its whole
//! remaining mass, the binomial's upper tail, a sum of non-negative terms); "drop the first
//! `k`" keeps every die after the `k`-th.
//!
//! The work is checked before each step against [`crate::MAX_EXACT_WORK`]: a state's step
//! costs its number of outcomes times the number of counts it can move to.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use crate::dist::{Dense, Dist, binomial};
use crate::error::Error;
use crate::pool::{Pool, check_work, check_work_within, powu};
use crate::sum::{Keep, powering_steps};

/// Classes of dice: at most four (first / added, exploding / not).
const CLASSES: usize = 4;
type Counts = [u32; CLASSES];

/// What the dynamic program needs: the values in keep order with the classes showing each,
/// how many faces each class has, and the joint law of the class counts.
struct Setup {
    /// `(score, classes with a face of this value)`, in keep order.
    levels: Vec<(i64, Vec<usize>)>,
    /// Faces per class.
    faces: Counts,
    /// `(class counts, probability)`.
    init: Vec<(Counts, f64)>,
    /// The mass of the class counts not listed (untruncated explosions only).
    tail: f64,
}

/// The work of one move of the dynamic program besides adding the laws: a map look-up and
/// an allocation, a hundred nanoseconds or so.
const OVERHEAD: f64 = 300.0;

/// Keep the first `k` dice placed, or drop them and keep the rest.
#[derive(Clone, Copy)]
enum Mode {
    KeepFirst(u32),
    DropFirst(u32),
}

/// `target += w · (src shifted by shift)`, growing `target` as needed.
fn add_into(target: &mut Dense, src: &Dense, shift: i64, w: f64) {
    if src.p.is_empty() || w == 0.0 {
        return;
    }
    let lo = src.offset + shift;
    if target.p.is_empty() {
        target.offset = lo;
        target.p = src.p.iter().map(|&q| q * w).collect();
        return;
    }
    let hi = lo + src.p.len() as i64;
    if lo < target.offset {
        let grow = (target.offset - lo) as usize;
        let mut p = vec![0.0; grow];
        p.append(&mut target.p);
        target.p = p;
        target.offset = lo;
    }
    if hi > target.offset + target.p.len() as i64 {
        let new_len = (hi - target.offset) as usize;
        target.p.resize(new_len, 0.0);
    }
    let start = (lo - target.offset) as usize;
    for (t, &q) in target.p[start..].iter_mut().zip(&src.p) {
        *t += q * w;
    }
}

/// The negative binomial law of the exploding faces of `a` independent chains, each face
/// exploding with chance `p < 1`: `P(E = e) = C(a + e − 1, e)·pᵉ·(1 − p)ᵃ`, listed from 0 until
/// what is left weighs at most `tol`, and that unlisted mass.
///
/// Computed from the mode outwards with the ratio `P(e + 1)/P(e) = (a + e)·p/(e + 1)` and
/// normalised, so nothing underflows near the mode; the unlisted mass is a sum of terms
/// (the series beyond is bounded geometrically and followed until it no longer matters).
fn negative_binomial(a: u32, p: f64, tol: f64) -> Result<(Vec<f64>, f64), Error> {
    if a == 0 || p <= 0.0 {
        return Ok((vec![1.0], 0.0));
    }
    let af = f64::from(a);
    // The floor of a non-negative value by a saturating cast (no `f64::floor` in no_std).
    let mode = ((af - 1.0) * p / (1.0 - p)).max(0.0) as u64 as f64;
    // Terms from the mode up, until the rest is far below the tolerance.
    check_work("the count of exploding dice", mode * 2.0)?;
    let mode = mode as usize;
    let mut up = vec![1.0];
    let mut e = mode;
    loop {
        let ratio = (af + e as f64) * p / (e as f64 + 1.0);
        let w = up[up.len() - 1];
        // The rest after e is at most w·ratio/(1 − ratio) once ratio < 1.
        if ratio < 1.0 && w * ratio / (1.0 - ratio) < tol * 1e-20 * up[0] {
            break;
        }
        if w == 0.0 {
            break;
        }
        up.push(w * ratio);
        e += 1;
        if up.len() > (1 << 26) {
            return Err(Error::TooComplex {
                what: "the count of exploding dice",
                work: up.len() as u64,
                max: crate::MAX_EXACT_WORK,
            });
        }
    }
    let mut w = vec![0.0; mode];
    let mut cur = 1.0;
    for e in (0..mode).rev() {
        // P(e)/P(e + 1) = (e + 1)/((a + e)·p)
        cur *= (e as f64 + 1.0) / ((af + e as f64) * p);
        if cur == 0.0 {
            break;
        }
        w[e] = cur;
    }
    w.extend_from_slice(&up);
    let total: f64 = w.iter().sum();
    for x in &mut w {
        *x /= total;
    }
    // Cut where what is beyond weighs at most tol (keeping at least one term).
    let mut tail = 0.0;
    let mut cut = w.len();
    while cut > 1 && tail + w[cut - 1] <= tol {
        tail += w[cut - 1];
        cut -= 1;
    }
    w.truncate(cut);
    Ok((w, tail.max(0.0)))
}

/// The law of the number of exploding faces in `r` chains each holding `j ∈ 0..=c` of them
/// with chance `∝ pʲ` (chains that did not reach the cap): a finite law, by binary powering.
fn truncated_geometric(p: f64, c: u32) -> Dense {
    let mut law = Vec::with_capacity(c as usize + 1);
    let mut pj = 1.0;
    for _ in 0..=c {
        law.push(pj);
        pj *= p;
    }
    // Normalise with the sum of its own terms (exact to rounding).
    let total: f64 = law.iter().rev().sum();
    for x in &mut law {
        *x /= total;
    }
    Dense { offset: 0, p: law }.trim_end()
}

/// The laws of `B = m·(c + 1) + (sum of r = count − m truncated geometrics on 0..=c)` for
/// every `m` with `binomial(count, p^(c+1))[m] > 0`, i.e. how many chains of `count` reach the
/// cap, and how many exploding faces they hold in all. Calls `f(m, P(M = m), law of B)`.
fn capped_chains(
    count: u32,
    p: f64,
    c: u32,
    what: &'static str,
    mut f: impl FnMut(u32, f64, &Dense),
) -> Result<(), Error> {
    let capped = binomial(count, powu(p, u64::from(c) + 1));
    let used: Vec<usize> = (0..capped.len()).filter(|&m| capped[m] > 0.0).collect();
    let Some(&m_max) = used.last() else {
        return Ok(());
    };
    let m_min = used[0];
    let tg = if p >= 1.0 {
        Dense::certain(0)
    } else {
        truncated_geometric(p, c)
    };
    let len = tg.p.len() as f64;
    let r_max = f64::from(count) - m_min as f64;
    check_work(
        what,
        r_max * len * len * 2.0 * powering_steps(count)
            + (m_max - m_min) as f64 * r_max * len * len,
    )?;
    // law of r geometrics for r = count − m_max ..= count − m_min, going up by one.
    let mut law = tg.power(count - m_max as u32);
    for m in (m_min..=m_max).rev() {
        if capped[m] > 0.0 {
            let shifted = law.clone().shift(m as i64 * (i64::from(c) + 1));
            f(m as u32, capped[m], &shifted);
        }
        if m > m_min {
            law = law.convolve(&tg).trim_end();
        }
    }
    Ok(())
}

/// The classes and the joint law of their counts for `pool` (one die size), in keep order
/// (`top`: highest value first).
fn setup(pool: &Pool, top: bool, tol: f64, score: &dyn Fn(i64) -> i64) -> Result<Setup, Error> {
    let parts = pool.parts();
    let die = parts[0].die();
    let n = pool.count();
    let s = die.sides();
    let e = pool.explode().ok_or(Error::Unsupported {
        what: "keep/drop among added dice of a pool that does not explode",
    })?;
    let test = parts[0].explode_test;
    let explodes = |f: u32| test.digit(u64::from(f - 1));
    let ne = (1..=s).filter(|&f| explodes(f)).count() as u32;
    let p = f64::from(ne) / f64::from(s);
    let penetrating = e.mode().is_penetrating();
    // Classes: 0 first dice that do not explode, 1 first dice that do, and for penetrating
    // dice 2 / 3 the same for added dice (value one less). Additional dice use 0 / 1 for all.
    let mut pairs: Vec<(i64, usize)> = Vec::new();
    let mut faces: Counts = [0; CLASSES];
    for f in 1..=s {
        let class = usize::from(explodes(f));
        pairs.push((i64::from(f), class));
        faces[class] += 1;
        if penetrating {
            pairs.push((i64::from(f) - 1, class + 2));
            faces[class + 2] += 1;
        }
    }
    if top {
        pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    } else {
        pairs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    }
    let mut levels: Vec<(i64, Vec<usize>)> = Vec::new();
    let mut last = None;
    for (v, class) in pairs {
        if last == Some(v) {
            if let Some(l) = levels.last_mut() {
                l.1.push(class);
            }
        } else {
            levels.push((score(v), vec![class]));
            last = Some(v);
        }
    }
    let capped = e.has_explicit_cap();
    let cap = e.cap();
    let mut init: Vec<(Counts, f64)> = Vec::new();
    let mut tail = 0.0;
    if !penetrating {
        if capped {
            capped_chains(n, p, cap, "keep/drop of capped explosions", |m, pm, law| {
                for (i, &q) in law.p.iter().enumerate() {
                    if q > 0.0 {
                        let b = (law.offset + i as i64) as u32;
                        init.push(([n - m, b, 0, 0], pm * q));
                    }
                }
            })?;
        } else {
            let (nb, t) = negative_binomial(n, p, tol)?;
            for (q, &w) in nb.iter().enumerate() {
                if w > 0.0 {
                    init.push(([n, q as u32, 0, 0], w));
                }
            }
            tail = t;
        }
    } else {
        let first = binomial(n, p);
        for (o, &po) in first.iter().enumerate() {
            if po == 0.0 {
                continue;
            }
            let o32 = o as u32;
            if capped {
                // Each of the o added chains: at most `cap` dice; reaching the cap means `cap`
                // exploding faces and no other.
                let what = "keep/drop of capped penetrating dice";
                if cap == 0 {
                    init.push(([n - o32, o32, 0, 0], po));
                    continue;
                }
                capped_chains(o32, p, cap - 1, what, |m, pm, law| {
                    for (i, &q) in law.p.iter().enumerate() {
                        if q > 0.0 {
                            // law: m·cap + Σ j; its offset already holds m·cap.
                            let b = (law.offset + i as i64) as u32;
                            init.push(([n - o32, o32, o32 - m, b], po * pm * q));
                        }
                    }
                })?;
            } else {
                let (nb, t) = negative_binomial(o32, p, tol)?;
                for (q, &w) in nb.iter().enumerate() {
                    if w > 0.0 {
                        init.push(([n - o32, o32, o32, q as u32], po * w));
                    }
                }
                tail += po * t;
            }
        }
    }
    Ok(Setup {
        levels,
        faces,
        init,
        tail,
    })
}

/// `Binomial(n, p)`: the chances of `0..min(need, n + 1)` and of `need` or more, each a sum
/// of non-negative terms.
///
/// The head starts from `(1 − p)ⁿ` and goes up by the ratio `(n − c)/(c + 1)·p/(1 − p)`;
/// where that underflows (the head is then below f64's range unless `need` nears the mode) or
/// the head holds most of the mass, the whole law is computed from its mode outwards.
fn head_and_rest(n: u32, p: f64, need: u32) -> (Vec<f64>, f64) {
    let len = need.min(n.saturating_add(1)) as usize;
    if p >= 1.0 || n < need.saturating_mul(4) {
        let pmf = binomial(n, p);
        let rest: f64 = pmf[len..].iter().rev().sum();
        return (pmf[..len].to_vec(), rest);
    }
    let first = powu(1.0 - p, u64::from(n));
    let odds = p / (1.0 - p);
    let mut head = Vec::with_capacity(len);
    let mut term = first;
    for c in 0..len {
        head.push(term);
        term *= (f64::from(n) - c as f64) / (c as f64 + 1.0) * odds;
    }
    let total: f64 = head.iter().sum();
    if first < 1e-290 || total > 0.5 {
        let pmf = binomial(n, p);
        let rest: f64 = pmf[len..].iter().rev().sum();
        return (pmf[..len].to_vec(), rest);
    }
    (head, 1.0 - total)
}

/// The dynamic program over the values in keep order; returns the law of the kept score
/// jointly with the class counts being listed.
fn run(setup: &Setup, mode: Mode, limit: f64) -> Result<Dense, Error> {
    let what = "keep/drop with added dice";
    let mut states: BTreeMap<(Counts, u32), Dense> = BTreeMap::new();
    for &(counts, w) in &setup.init {
        let entry = states.entry((counts, 0)).or_insert(Dense {
            offset: 0,
            p: Vec::new(),
        });
        add_into(entry, &Dense::certain(0), 0, w);
    }
    let mut done = Dense {
        offset: 0,
        p: Vec::new(),
    };
    let mut left = setup.faces;
    // Up front: every listed class count carried through every step (states can only
    // die out early), so that hopeless cases are refused at once.
    let slots: usize = setup.levels.iter().map(|l| l.1.len()).sum();
    check_work_within(
        what,
        setup.init.len() as f64 * slots as f64 * OVERHEAD,
        limit,
    )?;
    let mut work = 0.0;
    for (score, classes) in &setup.levels {
        for &class in classes {
            let r = left[class];
            left[class] -= 1;
            // Pre-check this step's work.
            for ((counts, m), law) in &states {
                let rem = counts[class];
                let moves = match mode {
                    Mode::KeepFirst(k) => rem.min(k - m) + 1,
                    Mode::DropFirst(_) => rem + 1,
                };
                // A move adds the state's law into another (a few steps per outcome) after
                // a map look-up (OVERHEAD steps).
                work += f64::from(moves) * (3.0 * law.p.len() as f64 + OVERHEAD);
            }
            check_work_within(what, work, limit)?;
            let chance = 1.0 / f64::from(r);
            // Keep-first: the first `need` terms and the rest, per count (and need).
            let mut heads: BTreeMap<(u32, u32), (Vec<f64>, f64)> = BTreeMap::new();
            let mut pmfs: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
            let mut next: BTreeMap<(Counts, u32), Dense> = BTreeMap::new();
            for ((counts, m), law) in core::mem::take(&mut states) {
                let rem = counts[class];
                match mode {
                    Mode::KeepFirst(k) => {
                        let need = (k - m) as usize;
                        let (head, rest) = heads
                            .entry((rem, k - m))
                            .or_insert_with(|| head_and_rest(rem, chance, k - m));
                        for (c, &pc) in head.iter().enumerate() {
                            if pc > 0.0 {
                                let mut nc = counts;
                                nc[class] -= c as u32;
                                let slot = next.entry((nc, m + c as u32)).or_insert(Dense {
                                    offset: 0,
                                    p: Vec::new(),
                                });
                                add_into(slot, &law, c as i64 * score, pc);
                            }
                        }
                        if *rest > 0.0 {
                            add_into(&mut done, &law, need as i64 * score, *rest);
                        }
                    }
                    Mode::DropFirst(k) => {
                        let pmf = pmfs.entry(rem).or_insert_with(|| binomial(rem, chance));
                        for (c, &pc) in pmf.iter().enumerate() {
                            if pc > 0.0 {
                                let mut nc = counts;
                                nc[class] -= c as u32;
                                let placed = m + c as u32;
                                let m2 = placed.min(k);
                                let kept = i64::from(placed - m2);
                                let slot = next.entry((nc, m2)).or_insert(Dense {
                                    offset: 0,
                                    p: Vec::new(),
                                });
                                add_into(slot, &law, kept * score, pc);
                            }
                        }
                    }
                }
            }
            // States whose chance underflowed to zero carry nothing further.
            next.retain(|_, law| law.p.iter().any(|&q| q != 0.0));
            states = next;
        }
    }
    // What is left: every die placed (fewer than k in all, for "keep the first k"; every
    // state for "drop the first k").
    for (_, law) in states {
        add_into(&mut done, &law, 0, 1.0);
    }
    if done.p.is_empty() {
        done = Dense::certain(0);
        done.p[0] = 0.0;
    }
    Ok(done.trim())
}

/// The exact law of `Σ score(value)` over the dice kept by `keep` among every die `pool`
/// rolls, for a pool of one die size whose explosions add dice ([`crate::ExplodeMode::Additional`]
/// or [`crate::ExplodeMode::Penetrate`]), and its unlisted mass.
pub(crate) fn kept_law(
    pool: &Pool,
    keep: Keep,
    tol: f64,
    score: &dyn Fn(i64) -> i64,
) -> Result<(Dense, f64), Error> {
    kept_law_within(pool, keep, tol, score, crate::MAX_EXACT_WORK as f64)
}

/// [`kept_law`] refused beyond `limit` budget units of its dynamic program (at most
/// [`crate::MAX_EXACT_WORK`]).
pub(crate) fn kept_law_within(
    pool: &Pool,
    keep: Keep,
    tol: f64,
    score: &dyn Fn(i64) -> i64,
    limit: f64,
) -> Result<(Dense, f64), Error> {
    let limit = limit.min(crate::MAX_EXACT_WORK as f64);
    let (top, mode) = match keep {
        Keep::All => (true, Mode::DropFirst(0)),
        Keep::Highest(k) => (true, Mode::KeepFirst(k)),
        Keep::Lowest(k) => (false, Mode::KeepFirst(k)),
        Keep::DropHighest(k) => (true, Mode::DropFirst(k)),
        Keep::DropLowest(k) => (false, Mode::DropFirst(k)),
    };
    if let Mode::KeepFirst(0) = mode {
        return Ok((Dense::certain(0), 0.0));
    }
    let setup = setup(pool, top, tol, score)?;
    // A law spans at most (kept dice) × (score spread) entries: refuse one longer than the
    // budget before any is allocated (a score of huge values would otherwise overflow or
    // exhaust memory).
    let (lo, hi) = setup
        .levels
        .iter()
        .fold((0i64, 0i64), |(lo, hi), l| (lo.min(l.0), hi.max(l.0)));
    let most_dice = setup
        .init
        .iter()
        .map(|(c, _)| c.iter().map(|&x| f64::from(x)).sum::<f64>())
        .fold(0.0, f64::max);
    let kept = match mode {
        Mode::KeepFirst(k) => most_dice.min(f64::from(k)),
        Mode::DropFirst(_) => most_dice,
    };
    check_work("keep/drop with added dice", (hi as f64 - lo as f64) * kept)?;
    let law = run(&setup, mode, limit)?;
    Ok((law, setup.tail))
}

impl Pool {
    /// The exact law of `Σ score(value)` over the dice `keep` keeps among **every** die this
    /// pool rolls (an explosion's added dice included), listing outcomes until the unlisted
    /// mass is at most `tail_tolerance` (0 or less: [`crate::DEFAULT_TAIL_TOLERANCE`]).
    ///
    /// `score` turns a kept die's value into what is added up: the value itself for a total
    /// ([`crate::Sum`] does that), `1` or `0` to count the kept dice passing a test. Keep/drop
    /// over a pool whose explosions add dice is computed by a dynamic program over the values
    /// in keep order (see `docs/dice-core.md`); otherwise each die's law is kept/dropped as in
    /// [`Dist::kept_score`].
    ///
    /// The laws of "keep the highest / lowest k" list every outcome; untruncated explosions
    /// give them a tail all the same (the chance that more dice explode than are listed, at
    /// most `tail_tolerance`), and each listed probability is exact jointly with that.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for pools mixing die sizes; [`Error::TooComplex`] beyond
    /// [`crate::MAX_EXACT_WORK`].
    ///
    /// ```
    /// use dice_core::{Comparison, Die, Explode, Keep, Pool};
    /// // 3d6!, keep the highest 2, count those showing 5 or more.
    /// let pool = Pool::new(3, Die::D6)?.exploding(Explode::new(Comparison::Exactly(6)))?;
    /// let hits = pool.kept_score(Keep::Highest(2), |v| i64::from(v >= 5), 0.0)?;
    /// // No hit: no die shows 5 or 6 at all (a 6 always explodes into a further die).
    /// assert!((hits.probability(&0) - (4.0f64 / 6.0).powi(3)).abs() < 1e-15);
    /// assert!((hits.total() - 1.0).abs() < 1e-12);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn kept_score(
        &self,
        keep: Keep,
        score: impl Fn(i64) -> i64,
        tail_tolerance: f64,
    ) -> Result<Dist<i64>, Error> {
        self.kept_score_within(keep, score, tail_tolerance, crate::MAX_EXACT_WORK)
    }

    /// [`Pool::kept_score`] with a smaller work budget for the dynamic program over dice that
    /// explosions add: refused with [`Error::TooComplex`] beyond `max_work` budget units (at
    /// most [`crate::MAX_EXACT_WORK`]), for a caller that has a budget of its own
    /// (dice-notation's, for a whole expression). That program can only bound its work from
    /// below before it starts (its states may die out early), so it checks its work as it
    /// goes: with this, a query over the caller's budget stops when that budget is spent, not
    /// dice-core's. Other pools are checked before the work, as in [`Pool::kept_score`].
    ///
    /// # Errors
    /// As [`Pool::kept_score`], with `max_work` as the limit; the error's `max` is `max_work`.
    ///
    /// ```
    /// use dice_core::{Comparison, Die, Error, Explode, Keep, Pool};
    /// let pool = Pool::new(100, Die::D10)?.exploding(Explode::penetrating(Comparison::Exactly(10)))?;
    /// let refused = pool.kept_score_within(Keep::Highest(50), |v| v, 0.0, 1_000_000);
    /// assert!(matches!(refused, Err(Error::TooComplex { max: 1_000_000, .. })));
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn kept_score_within(
        &self,
        keep: Keep,
        score: impl Fn(i64) -> i64,
        tail_tolerance: f64,
        max_work: u64,
    ) -> Result<Dist<i64>, Error> {
        let limit = max_work.min(crate::MAX_EXACT_WORK) as f64;
        let tol = if tail_tolerance > 0.0 {
            tail_tolerance
        } else {
            crate::DEFAULT_TAIL_TOLERANCE
        };
        let n = self.count();
        let parts = self.parts();
        if n == 0 {
            return Ok(Dist::certain(0));
        }
        let die = parts[0].die();
        if parts.iter().any(|p| p.die() != die) {
            return Err(Error::Unsupported {
                what: "exact keep/drop over dice of different sizes",
            });
        }
        let adds_dice = self.explode().is_some_and(|e| e.mode().adds_dice()) && self.can_explode();
        if adds_dice {
            let (law, tail) = kept_law_within(self, keep, tol, &score, limit)?;
            return Ok(law.into_dist(tail));
        }
        let v = self.value_law(&parts[0], tol / f64::from(n), 0)?;
        let per_die = v.law.into_dist(v.tail);
        per_die.kept_score(n, keep, score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_binomial_matches_its_formula() {
        for (a, p) in [(1u32, 0.5), (3, 0.1), (10, 1.0 / 6.0), (4, 0.9)] {
            let (law, tail) = negative_binomial(a, p, 1e-18).unwrap();
            let mut coef = 1.0; // C(a + e − 1, e)
            for (e, &q) in law.iter().enumerate() {
                let exact = coef * p.powi(e as i32) * (1.0 - p).powi(a as i32);
                assert!(
                    (q - exact).abs() <= 1e-12 * exact,
                    "{a} {p} {e}: {q} {exact}"
                );
                coef *= (f64::from(a) + e as f64) / (e as f64 + 1.0);
            }
            assert!(tail <= 1e-18);
            assert!((law.iter().sum::<f64>() + tail - 1.0).abs() < 1e-14);
        }
    }

    #[test]
    fn huge_scores_are_refused_not_allocated() {
        use crate::{Comparison, Die, Explode};
        let pool = Pool::new(3, Die::D6)
            .unwrap()
            .exploding(Explode::new(Comparison::Exactly(6)))
            .unwrap();
        for keep in [Keep::Highest(2), Keep::DropLowest(1)] {
            let law = pool.kept_score(keep, |v| if v >= 4 { i64::MAX / 2 } else { 0 }, 0.0);
            assert!(matches!(law, Err(Error::TooComplex { .. })), "{keep:?}");
        }
        // Scores of ordinary size are untouched by the check.
        let law = pool
            .kept_score(Keep::Highest(2), |v| v * 1000, 0.0)
            .unwrap();
        assert!((law.total() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn add_into_aligns() {
        let mut t = Dense {
            offset: 3,
            p: vec![1.0],
        };
        add_into(&mut t, &Dense::certain(0), 1, 2.0);
        add_into(&mut t, &Dense::certain(5), 0, 4.0);
        assert_eq!(t.offset, 1);
        assert_eq!(t.p, vec![2.0, 0.0, 1.0, 0.0, 4.0]);
    }
}
