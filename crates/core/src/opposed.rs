//! Opposed resolution: cancellation of successes, and die-against-die blocking.

use alloc::vec::Vec;
use core::fmt;

use rand::Rng;

use crate::error::Error;
use crate::pool::{Pool, check_modifier};
use crate::record::RollRecord;
use crate::success::SuccessPool;
use crate::sum::{STACK_DICE, collect_values};
use crate::{Roll, RollDetailed};

/// Net successes after cancellation: `mine − theirs − difficulty` (Robots & Rapiers: a
/// Difficulty is automatic opposing successes). Positive: the actor wins by that many;
/// negative: the opposition does; zero: a tie.
///
/// ```
/// assert_eq!(dice_core::cancel(4, 1, 2), 1);
/// assert_eq!(dice_core::cancel(1, 3, 0), -2);
/// ```
#[inline]
pub const fn cancel(mine: u32, theirs: u32, difficulty: u32) -> i64 {
    mine as i64 - theirs as i64 - difficulty as i64
}

/// An opposed test by cancellation: the actor's successes minus the opposition's successes
/// (if any) minus a fixed difficulty.
///
/// ```
/// use dice_core::{Cancellation, Comparison, Die, Pool, Roll, SuccessPool};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let actor = SuccessPool::new(Pool::new(8, Die::D10)?, Comparison::AtMost(6));
/// let opposition = SuccessPool::new(Pool::new(6, Die::D10)?, Comparison::AtMost(5));
/// let test = Cancellation::new(actor, Some(opposition), 0)?;
/// let net = test.roll(&mut Xoshiro256PlusPlus::seed_from_u64(6));
/// assert!((-6..=8).contains(&net));
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cancellation {
    actor: SuccessPool,
    opposition: Option<SuccessPool>,
    difficulty: u32,
}

impl Cancellation {
    /// The actor's pool against an optional opposing pool and a difficulty.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when the difficulty exceeds [`crate::MAX_MODIFIER`].
    pub fn new(
        actor: SuccessPool,
        opposition: Option<SuccessPool>,
        difficulty: u32,
    ) -> Result<Self, Error> {
        check_modifier("difficulty", i64::from(difficulty))?;
        Ok(Cancellation {
            actor,
            opposition,
            difficulty,
        })
    }
    /// The acting pool.
    pub fn actor(&self) -> &SuccessPool {
        &self.actor
    }
    /// The opposing pool, if any.
    pub fn opposition(&self) -> Option<&SuccessPool> {
        self.opposition.as_ref()
    }
    /// Automatic opposing successes.
    pub fn difficulty(&self) -> u32 {
        self.difficulty
    }
}

impl Roll for Cancellation {
    /// Net successes: positive for the actor, negative for the opposition.
    type Outcome = i64;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let mine = self.actor.count(rng);
        let theirs = self.opposition.as_ref().map_or(0, |o| o.count(rng));
        cancel(mine, theirs, self.difficulty)
    }
}

impl RollDetailed for Cancellation {
    /// The actor's dice; the opposition's dice follow with [`crate::Source::Other`]`(1)`.
    /// `total` is the net, `successes` the actor's.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.actor.roll_record_into(rng, record);
        let mine = record.successes;
        let mut theirs = 0;
        if let Some(o) = &self.opposition {
            let mut other = RollRecord::new();
            o.roll_record_into(rng, &mut other);
            theirs = other.successes;
            for mut d in other.dice {
                d.source = crate::Source::Other(1);
                record.dice.push(d);
            }
        }
        record.modifier = -i64::from(self.difficulty);
        record.total = cancel(mine, theirs, self.difficulty);
    }
}

impl fmt::Display for Cancellation {
    /// `8d10 count <=6 vs 6d10 count <=5, difficulty 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.actor)?;
        if let Some(o) = &self.opposition {
            write!(f, " vs {o}")?;
        }
        if self.difficulty > 0 {
            write!(f, ", difficulty {}", self.difficulty)?;
        }
        Ok(())
    }
}

/// When an opposing die blocks an attacking die.
///
/// ```
/// use dice_core::BlockRule;
/// assert!(BlockRule::AtLeast.blocks(5, 5));
/// assert!(!BlockRule::Strict.blocks(5, 5));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BlockRule {
    /// A die blocks an attacking die of lesser or equal value (Swimclass L25, L111; the
    /// ruling SW-A2).
    #[default]
    AtLeast,
    /// A die blocks only an attacking die of strictly lesser value (the L37 reading).
    Strict,
}

impl BlockRule {
    /// Whether a defending die showing `defense` blocks an attacking die showing `attack`.
    #[inline]
    pub fn blocks(self, defense: i64, attack: i64) -> bool {
        match self {
            BlockRule::AtLeast => defense >= attack,
            BlockRule::Strict => defense > attack,
        }
    }
}

/// Which attacking dice were blocked, and by which defending dice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Blocked {
    /// `(attack index, defense index)` for every block, by attack value ascending.
    pub pairs: Vec<(usize, usize)>,
    /// Attacking dice left unblocked.
    pub unblocked: u32,
}

impl Blocked {
    /// Whether attacking die `i` was blocked.
    pub fn is_blocked(&self, i: usize) -> bool {
        self.pairs.iter().any(|&(a, _)| a == i)
    }
}

/// Die-against-die blocking: each defending die may block one attacking die, and the dice are
/// matched to block as many as possible.
///
/// The matching takes the attacking dice from lowest to highest and gives each the lowest
/// defending die still free that blocks it. This is a maximum matching: if some matching
/// blocks the lowest attacking die `a` with `d'` while `d` (the lowest die blocking `a`)
/// blocks `a'` or nothing, swapping `d` and `d'` keeps every block legal (`d' ≥ d ≥ a` covers
/// whatever `d` covered, because `a' ≥ a` and `d ≤ d'`), so some maximum matching agrees
/// with the greedy choice, and induction finishes the proof.
///
/// ```
/// use dice_core::{block, BlockRule};
/// // SW-E3: the wind spirit's (5, 4, 1) against Cephas' (5, 5, 2, 2): all blocked under ≥.
/// let b = block(&[5, 4, 1], &[5, 5, 2, 2], BlockRule::AtLeast);
/// assert_eq!(b.unblocked, 0);
/// // Under the strict reading the 5 gets through.
/// let b = block(&[5, 4, 1], &[5, 5, 2, 2], BlockRule::Strict);
/// assert_eq!(b.unblocked, 1);
/// assert!(!b.is_blocked(0));
/// ```
pub fn block(attack: &[i64], defense: &[i64], rule: BlockRule) -> Blocked {
    let mut a: Vec<usize> = (0..attack.len()).collect();
    let mut d: Vec<usize> = (0..defense.len()).collect();
    a.sort_by_key(|&i| (attack[i], i));
    d.sort_by_key(|&i| (defense[i], i));
    let mut pairs = Vec::new();
    let mut j = 0;
    for &i in &a {
        while j < d.len() && !rule.blocks(defense[d[j]], attack[i]) {
            j += 1;
        }
        if j == d.len() {
            break;
        }
        pairs.push((i, d[j]));
        j += 1;
    }
    let unblocked = (attack.len() - pairs.len()) as u32;
    Blocked { pairs, unblocked }
}

/// The number of attacking dice blocked (the size of the greedy maximum matching of
/// [`block`]) when both sides are already sorted ascending, without allocating: for hot loops
/// and exact laws that keep their dice sorted.
///
/// ```
/// use dice_core::{BlockRule, count_blocked_sorted};
/// // Hits 2, 4, 5 against defense 3, 4: the 3 blocks the 2, the 4 blocks the 4.
/// assert_eq!(count_blocked_sorted(&[2, 4, 5], &[3, 4], BlockRule::AtLeast), 2);
/// // Strictly greater: the 3 blocks the 2, nothing beats the 4.
/// assert_eq!(count_blocked_sorted(&[2, 4, 5], &[3, 4], BlockRule::Strict), 1);
/// ```
#[inline]
pub fn count_blocked_sorted<T: Copy + Into<i64>>(
    attack: &[T],
    defense: &[T],
    rule: BlockRule,
) -> u32 {
    let mut j = 0;
    let mut blocked = 0;
    for &a in attack {
        while j < defense.len() && !rule.blocks(defense[j].into(), a.into()) {
            j += 1;
        }
        if j == defense.len() {
            break;
        }
        blocked += 1;
        j += 1;
    }
    blocked
}

/// The number of hits left unblocked, from both sides' dice counted per value: `hits[k]` the
/// hits showing the `k`-th value, `blockers[k]` the defending dice showing it (values
/// ascending, one slot each; a slot missing from `blockers` counts none). With `Hₜ` the hits
/// showing `t` or more and `Dₜ` the dice able to block them (showing `t` or more; more than
/// `t` under [`BlockRule::Strict`]), the greedy maximum matching of [`block`] leaves
/// `max(0, maxₜ (Hₜ − Dₜ))` hits unblocked. No sorting: for hot loops over small dice.
///
/// ```
/// use dice_core::{BlockRule, count_blocked_sorted, unblocked_by_counts};
/// // Hits 2, 4, 5 against defense 3, 4, as counts per value 1..=6 (slot 0 is value 1).
/// let hits = [0u32, 1, 0, 1, 1, 0];
/// let blockers = [0u32, 0, 1, 1, 0, 0];
/// for rule in [BlockRule::AtLeast, BlockRule::Strict] {
///     let blocked = count_blocked_sorted(&[2, 4, 5], &[3, 4], rule);
///     assert_eq!(unblocked_by_counts(&hits, &blockers, rule), 3 - blocked);
/// }
/// ```
#[inline]
pub fn unblocked_by_counts<T: Copy + Into<i64>>(
    hits: &[T],
    blockers: &[T],
    rule: BlockRule,
) -> u32 {
    let shift = usize::from(rule == BlockRule::Strict);
    let (mut h, mut b, mut worst) = (0i64, 0i64, 0i64);
    for k in (0..hits.len()).rev() {
        h += hits[k].into();
        b += blockers.get(k + shift).map_or(0, |&x| x.into());
        worst = worst.max(h - b);
    }
    worst as u32
}

/// An attack pool against a blocking defense pool (Swimclass combat): the attacking dice that
/// pass the attack's success test are hits; the defending dice block hits die against die;
/// the outcome is the number of hits left unblocked.
///
/// ```
/// use dice_core::{BlockRule, Blocking, Comparison, Die, Pool, Roll, SuccessPool};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // 6d6 hitting on 2+, against 6d6 blocking.
/// let attack = SuccessPool::new(Pool::new(6, Die::D6)?, Comparison::AtLeast(2));
/// let fight = Blocking::new(attack, Pool::new(6, Die::D6)?, BlockRule::AtLeast);
/// let hits = fight.roll(&mut Xoshiro256PlusPlus::seed_from_u64(12));
/// assert!(hits <= 6);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocking {
    attack: SuccessPool,
    defense: Pool,
    rule: BlockRule,
    /// Set when both pools are plain small dice: the faces that hit.
    hit_mask: Option<u64>,
}

impl Blocking {
    /// `attack`'s successes against `defense`'s blocking dice.
    pub fn new(attack: SuccessPool, defense: Pool, rule: BlockRule) -> Self {
        let hit_mask = Self::hit_mask(&attack, &defense);
        Blocking {
            attack,
            defense,
            rule,
            hit_mask,
        }
    }
    /// The attacking pool and its hit test.
    pub fn attack(&self) -> &SuccessPool {
        &self.attack
    }
    /// The blocking pool.
    pub fn defense(&self) -> &Pool {
        &self.defense
    }
    /// The blocking rule.
    pub fn rule(&self) -> BlockRule {
        self.rule
    }
}

impl Roll for Blocking {
    /// Unblocked hits.
    type Outcome = u32;

    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        if let Some(hit_mask) = self.hit_mask {
            return self.roll_by_faces(rng, hit_mask);
        }
        let test = self.attack.success();
        let (mut a_stack, mut a_heap) = ([0i64; STACK_DICE], Vec::new());
        let (mut d_stack, mut d_heap) = ([0i64; STACK_DICE], Vec::new());
        let hits = collect_values(self.attack.pool(), rng, &mut a_stack, &mut a_heap, |v| {
            test.test(v)
        });
        let def = collect_values(&self.defense, rng, &mut d_stack, &mut d_heap, |_| true);
        hits.sort_unstable();
        def.sort_unstable();
        hits.len() as u32 - count_blocked_sorted(hits, def, self.rule)
    }
}

/// Largest face for the counting path of [`Blocking`].
const FACE_COUNT_LIMIT: u32 = 32;

impl Blocking {
    /// The faces (natural values) that hit, as a mask, when both pools are plain dice of at
    /// most [`FACE_COUNT_LIMIT`] sides.
    fn hit_mask(attack: &SuccessPool, defense: &Pool) -> Option<u64> {
        let small = |p: &Pool| {
            p.explode().is_none()
                && p.parts()
                    .iter()
                    .all(|x| x.die().sides() <= FACE_COUNT_LIMIT)
        };
        if !small(attack.pool()) || !small(defense) {
            return None;
        }
        let test = attack.success();
        Some(
            (1..=FACE_COUNT_LIMIT)
                .filter(|&f| test.test(i64::from(f)))
                .fold(0u64, |m, f| m | (1 << f)),
        )
    }

    /// The roll by counting dice per face: with `Hₜ` the hits showing `t` or more and `Dₜ`
    /// the dice able to block them (showing `t` or more; more than `t` when strict), the
    /// maximum matching leaves `max(0, maxₜ (Hₜ − Dₜ))` hits unblocked (see
    /// [`Exact for Blocking`](Blocking#impl-Exact-for-Blocking)). No sorting.
    #[inline]
    fn roll_by_faces<R: Rng + ?Sized>(&self, rng: &mut R, hit_mask: u64) -> u32 {
        let limit = FACE_COUNT_LIMIT as usize;
        let mut hits = [0u32; FACE_COUNT_LIMIT as usize + 2];
        let mut blockers = [0u32; FACE_COUNT_LIMIT as usize + 2];
        self.attack.pool().visit(rng, |_, d| {
            hits[d.natural as usize] += ((hit_mask >> d.natural) & 1) as u32;
        });
        self.defense
            .visit(rng, |_, d| blockers[d.natural as usize] += 1);
        unblocked_by_counts(&hits[..=limit], &blockers, self.rule)
    }
}

impl RollDetailed for Blocking {
    /// The attacking dice (hits flagged as successes, blocked hits flagged `blocked`), then
    /// the defending dice as [`crate::Source::Other`]`(1)`. `successes` is the unblocked hits.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.attack.roll_record_into(rng, record);
        let mut def = Vec::new();
        self.defense.roll_into(rng, &mut def);
        let hit_idx: Vec<usize> = (0..record.dice.len())
            .filter(|&i| record.dice[i].flags.success)
            .collect();
        let hit_values: Vec<i64> = hit_idx.iter().map(|&i| record.dice[i].value).collect();
        let def_values: Vec<i64> = def.iter().map(|d| d.value).collect();
        let b = block(&hit_values, &def_values, self.rule);
        for &(h, _) in &b.pairs {
            let die = &mut record.dice[hit_idx[h]];
            die.flags.blocked = true;
            die.flags.success = false;
        }
        record.successes = b.unblocked;
        for mut d in def {
            d.source = crate::Source::Other(1);
            record.dice.push(d);
        }
        record.total = i64::from(b.unblocked);
    }
}

impl fmt::Display for Blocking {
    /// `6d6 count >=2 blocked by 6d6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let strict = if self.rule == BlockRule::Strict {
            " (strictly)"
        } else {
            ""
        };
        write!(f, "{} blocked by {}{strict}", self.attack, self.defense)
    }
}

// ------------------------------------------------------------------ exact distributions

use crate::Exact;
use crate::dist::{Dense, Dist};
use crate::pool::{DEFAULT_TAIL_TOLERANCE, check_work};

impl Exact for Cancellation {
    /// The law of the net successes: the actor's count law minus the opposition's, shifted by
    /// the difficulty (the two pools are independent).
    ///
    /// ```
    /// use dice_core::{Cancellation, Comparison, Die, Exact, Pool, SuccessPool};
    /// // One d10 ≤ 5 against one d10 ≤ 5: a tie (0) half the time.
    /// let one = || SuccessPool::new(Pool::new(1, Die::D10).unwrap(), Comparison::AtMost(5));
    /// let d = Cancellation::new(one(), Some(one()), 0)?.distribution()?;
    /// assert!((d.probability(&0) - 0.5).abs() < 1e-15);
    /// assert!((d.probability(&1) - 0.25).abs() < 1e-15);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    fn distribution(&self) -> Result<Dist<i64>, Error> {
        let (mine, mine_tail) = self.actor.count_law(DEFAULT_TAIL_TOLERANCE)?;
        let (theirs, theirs_tail) = match &self.opposition {
            Some(o) => o.count_law(DEFAULT_TAIL_TOLERANCE)?,
            None => (Dense::certain(0), 0.0),
        };
        let net = mine
            .convolve(&theirs.negate())
            .shift(-i64::from(self.difficulty));
        let tail = if mine_tail == 0.0 && theirs_tail == 0.0 {
            0.0
        } else {
            mine_tail + theirs_tail - mine_tail * theirs_tail
        };
        Ok(net.into_dist(tail))
    }
}

impl Blocking {
    /// The single die of each side, when every part of the pool uses the same die and nothing
    /// explodes.
    fn plain_die(pool: &Pool) -> Result<Option<crate::Die>, Error> {
        if pool.explode().is_some() {
            return Err(Error::Unsupported {
                what: "the exact law of blocking with exploding dice",
            });
        }
        let Some(first) = pool.parts().first() else {
            return Ok(None);
        };
        if pool.parts().iter().any(|p| p.die() != first.die()) {
            return Err(Error::Unsupported {
                what: "the exact law of blocking with dice of different sizes on one side",
            });
        }
        Ok(Some(first.die()))
    }
}

impl Exact for Blocking {
    /// The law of the unblocked hits, by a dynamic program over the faces, not by enumerating
    /// rolls.
    ///
    /// By Hall's theorem the greedy matching leaves unblocked exactly
    /// `max(0, maxₜ (Hₜ − Dₜ))`, where `Hₜ` counts the hits showing `t` or more and `Dₜ` the
    /// defending dice able to block such a hit (showing `t` or more; more than `t` under
    /// [`BlockRule::Strict`]): the hits at or above `t` can only be blocked by those dice.
    /// The program walks the faces from the highest down; at face `t`, of the dice not yet
    /// placed (all showing `t` or less) the number showing `t` is binomial with chance
    /// `1/t`. Its state is (attack dice placed, defending dice placed, hits placed, running
    /// maximum), so the work is polynomial: about `faces · a³ · d · (a + d)`.
    ///
    /// ```
    /// use dice_core::{BlockRule, Blocking, Comparison, Die, Exact, Pool, SuccessPool};
    /// // One d6 hitting on anything, against one d6 blocking on ≥: blocked unless the attack
    /// // is higher, P(unblocked) = 15/36.
    /// let fight = Blocking::new(
    ///     SuccessPool::new(Pool::new(1, Die::D6)?, Comparison::AtLeast(1)),
    ///     Pool::new(1, Die::D6)?,
    ///     BlockRule::AtLeast,
    /// );
    /// let d = fight.distribution()?;
    /// assert!((d.probability(&1) - 15.0 / 36.0).abs() < 1e-15);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    fn distribution(&self) -> Result<Dist<u32>, Error> {
        let a_die = Self::plain_die(self.attack.pool())?;
        let d_die = Self::plain_die(&self.defense)?;
        let na = self.attack.pool().count() as usize;
        let nd = self.defense.count() as usize;
        let Some(a_die) = a_die else {
            return Ok(Dist::certain(0));
        };
        let sa = a_die.sides() as usize;
        let sd = d_die.map_or(0, |d| d.sides() as usize);
        let faces = sa.max(sd);
        let test = self.attack.success();
        // The faces that hit, when they are all those from some face up (a `≥` test).
        let hits: Vec<bool> = (1..=sa).map(|t| test.test(t as i64)).collect();
        if let Some(lowest_hit) = hits.iter().position(|&h| h) {
            if hits[lowest_hit..].iter().all(|&h| h) {
                let work = upset_work(faces - lowest_hit, na, nd);
                check_work("a blocking contest", work * BLOCKING_UNIT)?;
                let strict = self.rule == BlockRule::Strict;
                let law = blocking_from_threshold(na, nd, sa, sd, lowest_hit + 1, strict);
                return Ok(Dense { offset: 0, p: law }.into_dist_as(0.0));
            }
        } else {
            // No face hits.
            return Ok(Dist::certain(0));
        }
        let work = faces as f64
            * ((na + 1) * (nd + 1) * (na + 1) * (na + 1)) as f64
            * (na + nd + 2) as f64;
        check_work("a blocking contest", work)?;
        let strict = self.rule == BlockRule::Strict;
        // state index: ((ma · (nd+1) + md) · (na+1) + h) · (na+1) + y
        let idx = |ma: usize, md: usize, h: usize, y: usize| {
            ((ma * (nd + 1) + md) * (na + 1) + h) * (na + 1) + y
        };
        let size = (na + 1) * (nd + 1) * (na + 1) * (na + 1);
        let mut cur = alloc::vec![0.0; size];
        cur[idx(0, 0, 0, 0)] = 1.0;
        // Binomial laws for "of n remaining dice, how many show this face", chance 1/t.
        let binom = |n: usize, t: usize| crate::dist::binomial(n as u32, 1.0 / t as f64);
        let update_y = |v: &[f64]| {
            // y ← max(y, h − md) for every state.
            let mut out = alloc::vec![0.0; v.len()];
            for ma in 0..=na {
                for md in 0..=nd {
                    for h in 0..=na {
                        let x = h as i64 - md as i64;
                        for y in 0..=na {
                            let w = v[idx(ma, md, h, y)];
                            if w != 0.0 {
                                let y2 = (y as i64).max(x).max(0) as usize;
                                out[idx(ma, md, h, y2)] += w;
                            }
                        }
                    }
                }
            }
            out
        };
        for t in (1..=faces).rev() {
            let hit = test.test(t as i64);
            // Defending dice showing t (for ≥ they count at threshold t).
            // Place the dice of one side that show `t`: of the `rem` dice of that side not yet
            // placed, the number showing `t` is binomial with chance 1/t.
            let place = |v: &[f64], attack: bool| {
                if t > if attack { sa } else { sd } {
                    return v.to_vec();
                }
                let pmfs: Vec<Vec<f64>> = (0..=na.max(nd)).map(|r| binom(r, t)).collect();
                let mut out = alloc::vec![0.0; v.len()];
                for ma in 0..=na {
                    for md in 0..=nd {
                        let pmf = &pmfs[if attack { na - ma } else { nd - md }];
                        for h in 0..=na {
                            for y in 0..=na {
                                let w = v[idx(ma, md, h, y)];
                                if w == 0.0 {
                                    continue;
                                }
                                for (c, &pc) in pmf.iter().enumerate() {
                                    if pc == 0.0 {
                                        continue;
                                    }
                                    let to = match (attack, hit) {
                                        (true, true) => idx(ma + c, md, h + c, y),
                                        (true, false) => idx(ma + c, md, h, y),
                                        (false, _) => idx(ma, md + c, h, y),
                                    };
                                    out[to] += w * pc;
                                }
                            }
                        }
                    }
                }
                out
            };
            let place_attack = |v: &[f64]| place(v, true);
            let place_defense = |v: &[f64]| place(v, false);
            cur = if strict {
                // Threshold t: hits ≥ t against blockers > t (placed before this face).
                place_defense(&update_y(&place_attack(&cur)))
            } else {
                update_y(&place_attack(&place_defense(&cur)))
            };
        }
        let mut law = alloc::vec![0.0; na + 1];
        for md in 0..=nd {
            for h in 0..=na {
                for (y, slot) in law.iter_mut().enumerate() {
                    *slot += cur[idx(na, md, h, y)];
                }
            }
        }
        Ok(Dense { offset: 0, p: law }.into_dist_as(0.0))
    }
}

/// Budget units per multiply-add of [`blocking_from_threshold`] (calibrated with the
/// `exact_large/blocking_*` benches: see docs/performance.md).
const BLOCKING_UNIT: f64 = 0.5;

/// The multiply-adds [`blocking_from_threshold`] makes over `faces` faces. Per face and per
/// `j` (attacking dice placed above the running maximum), each of the `na − j + 1` values of
/// the maximum holds a run over the defending dice placed `md ≥ j`: placing attacking dice
/// adds `(na − j + 2)/2` scaled runs of `nd − j + 1` on average, placing defending dice one
/// binomial row of `nd − md + 1` terms per entry.
fn upset_work(faces: usize, na: usize, nd: usize) -> f64 {
    let per_face: f64 = (0..=na.min(nd))
        .map(|j| {
            let (a, d) = ((na - j + 1) as f64, (nd - j + 1) as f64);
            a * d * ((a + 1.0) + (d + 1.0)) / 2.0
        })
        .sum();
    faces as f64 * per_face
}

/// Each law with its leading and trailing zeros cut: (index of the first kept term, terms).
fn nonzero_spans(laws: Vec<Vec<f64>>) -> Vec<(usize, Vec<f64>)> {
    laws.into_iter()
        .map(|p| {
            let first = p.iter().position(|&q| q != 0.0).unwrap_or(p.len());
            let last = p.iter().rposition(|&q| q != 0.0).map_or(first, |l| l + 1);
            (first, p[first..last].to_vec())
        })
        .collect()
}

/// The law of the unblocked hits when the hits are the attacking dice showing `k` or more:
/// `max(0, maxₜ (Hₜ − Dₜ))` as in [`Exact for Blocking`](Blocking#impl-Exact-for-Blocking),
/// where now every attacking die placed at a face `t ≥ k` is a hit, so the hits placed are
/// the attacking dice placed `ma`. Below `k` the hits stop growing while the blockers can
/// only grow, so the maximum is settled once face `k` is placed.
///
/// The state is (running maximum `y`, `j = ma − y`, defending dice placed `md`). Between
/// faces `y ≥ ma − md` and `y ≤ ma`, so `0 ≤ j ≤ md` and `y + j ≤ na`: about `n³/2`
/// entries, not the `n³` of (md, y, ma). Rows `(y, j)` are laid out one after the other
/// (`j` fastest, `j ≤ na − y`), each a run over `md`, so:
/// - placing attacking dice moves `(y, j, md)` to `(y, j + c, md)` with the binomial term
///   of `c` among the `na − y − j` left, the same for every `md`: one scalar times a
///   contiguous run per `(y, j, c)`;
/// - placing defending dice adds a binomial row along a run, per entry;
/// - the update `y ← max(y, ma − md)` moves the entries with `j > md` to `(y + j − md, md,
///   md)`.
///
/// `O(faces · n⁴/4)` multiply-adds, with contiguous runs and no allocation per face
/// beyond the binomial rows.
// `y` indexes several tables (`off` and the rows it locates): plain ranges read clearer.
#[allow(clippy::needless_range_loop)]
fn blocking_from_threshold(
    na: usize,
    nd: usize,
    sa: usize,
    sd: usize,
    k: usize,
    strict: bool,
) -> Vec<f64> {
    let n1 = na + 1;
    let nd1 = nd + 1;
    // Row (y, j) starts at (off[y] + j) · nd1, j = 0..=na − y.
    let off: Vec<usize> = (0..=n1)
        .map(|y| y * n1 - y * y.saturating_sub(1) / 2)
        .collect();
    let size = off[n1] * nd1;
    let mut cur = alloc::vec![0.0; size];
    let mut out = alloc::vec![0.0; size];
    cur[0] = 1.0;
    // q[c · n1 + m]: of the na − m attacking dice left, the chance that c show this face.
    let mut q = alloc::vec![0.0; n1 * n1];
    // For each c, the span of m where that chance is not zero.
    let mut span = alloc::vec![(0usize, 0usize); n1];
    let faces = sa.max(sd);
    for t in (k..=faces).rev() {
        let chance = 1.0 / t as f64;
        let place_defense = |cur: &[f64], out: &mut [f64]| {
            let pmfs = nonzero_spans(
                (0..=nd)
                    .map(|r| crate::dist::binomial(r as u32, chance))
                    .collect(),
            );
            out.fill(0.0);
            for y in 0..n1 {
                for j in 0..=(na - y).min(nd) {
                    let r = (off[y] + j) * nd1;
                    let src = &cur[r..r + nd1];
                    let dst = &mut out[r..r + nd1];
                    for (md, &w) in src.iter().enumerate().skip(j) {
                        if w == 0.0 {
                            continue;
                        }
                        let (first, pmf) = &pmfs[nd - md];
                        for (o, &p) in dst[md + first..].iter_mut().zip(pmf) {
                            *o += w * p;
                        }
                    }
                }
            }
        };
        let place_attack = |cur: &[f64], out: &mut [f64], q: &[f64], span: &[(usize, usize)]| {
            out.fill(0.0);
            for y in 0..n1 {
                for j in 0..=(na - y).min(nd) {
                    let m = y + j;
                    let r = (off[y] + j) * nd1;
                    let src = &cur[r + j..r + nd1];
                    // Rows not reached yet (most of them at the first faces) add nothing.
                    if src.iter().all(|&w| w == 0.0) {
                        continue;
                    }
                    for (c, &(lo, hi)) in span.iter().enumerate().take(n1 - m) {
                        if m < lo || m >= hi {
                            continue;
                        }
                        let p = q[c * n1 + m];
                        let to = (off[y] + j + c) * nd1;
                        for (o, &w) in out[to + j..to + nd1].iter_mut().zip(src) {
                            *o += w * p;
                        }
                    }
                }
            }
            // y ← max(y, ma − md): the entries with j > md move to (y + j − md, md, md).
            for y in 0..n1 {
                for j in 1..n1 - y {
                    let r = (off[y] + j) * nd1;
                    for md in 0..j.min(nd1) {
                        let w = core::mem::replace(&mut out[r + md], 0.0);
                        if w != 0.0 {
                            out[(off[y + j - md] + md) * nd1 + md] += w;
                        }
                    }
                }
            }
        };
        let attack_here = t <= sa;
        let defense_here = t <= sd;
        if attack_here {
            q.fill(0.0);
            for m in 0..=na {
                let pmf = crate::dist::binomial((na - m) as u32, chance);
                for (c, &p) in pmf.iter().enumerate() {
                    q[c * n1 + m] = p;
                }
            }
            for (c, s) in span.iter_mut().enumerate() {
                let row = &q[c * n1..(c + 1) * n1];
                let lo = row.iter().position(|&x| x != 0.0).unwrap_or(n1);
                let hi = row.iter().rposition(|&x| x != 0.0).map_or(lo, |h| h + 1);
                *s = (lo, hi);
            }
        }
        if strict {
            // Hits ≥ t against blockers > t, placed at earlier faces.
            if attack_here {
                place_attack(&cur, &mut out, &q, &span);
                core::mem::swap(&mut cur, &mut out);
            }
            if defense_here && t > k {
                place_defense(&cur, &mut out);
                core::mem::swap(&mut cur, &mut out);
            }
        } else {
            if defense_here {
                place_defense(&cur, &mut out);
                core::mem::swap(&mut cur, &mut out);
            }
            if attack_here {
                place_attack(&cur, &mut out, &q, &span);
                core::mem::swap(&mut cur, &mut out);
            }
        }
    }
    // Every entry left has ma = na; its row's y is the number unblocked.
    (0..n1)
        .map(|y| {
            let r = off[y] * nd1;
            cur[r..r + (n1 - y) * nd1].iter().sum()
        })
        .collect()
}

#[cfg(test)]
mod threshold_tests {
    use super::{blocking_from_threshold, nonzero_spans};
    use alloc::vec::Vec;

    /// The previous program, over (md, y, ma) with `ma` fastest, kept as the reference.
    fn reference(na: usize, nd: usize, sa: usize, sd: usize, k: usize, strict: bool) -> Vec<f64> {
        let row = na + 1; // entries per (md, y) row, by ma
        let block = row * row; // entries per md block, by (y, ma)
        let size = (nd + 1) * block;
        let mut cur = alloc::vec![0.0; size];
        let mut out = alloc::vec![0.0; size];
        cur[0] = 1.0;
        // The binomial laws of "of r dice left, how many show t", chance 1/t, for r ≤ n.
        let laws = |n: usize, t: usize| -> Vec<Vec<f64>> {
            (0..=n)
                .map(|r| crate::dist::binomial(r as u32, 1.0 / t as f64))
                .collect()
        };
        let faces = sa.max(sd);
        for t in (k..=faces).rev() {
            // Between faces every entry has ma ≤ y + md (y ≥ ma − md after each update), so only
            // the first y + md + 1 entries of a row can be nonzero; and of each binomial row only
            // its nonzero span is added (at chance 1, face 1, a single term).
            let place_attack = |cur: &[f64], out: &mut [f64]| {
                let pmfs = nonzero_spans(laws(na, t));
                out.fill(0.0);
                let rows = cur.chunks_exact(row).zip(out.chunks_exact_mut(row));
                for (r, (src, dst)) in rows.enumerate() {
                    let (md, y) = (r / row, r % row);
                    let live = (y + md + 1).min(row);
                    for (ma, &w) in src[..live].iter().enumerate() {
                        if w == 0.0 {
                            continue;
                        }
                        let (first, pmf) = &pmfs[na - ma];
                        for (o, &pc) in dst[ma + first..].iter_mut().zip(pmf) {
                            *o += w * pc;
                        }
                    }
                }
            };
            let place_defense = |cur: &[f64], out: &mut [f64]| {
                let pmfs = nonzero_spans(laws(nd, t));
                out.fill(0.0);
                for (md, src) in cur.chunks_exact(block).enumerate() {
                    let (first, pmf) = &pmfs[nd - md];
                    // Rows from y0 on are live whole: one long multiply-add over them.
                    let y0 = row.saturating_sub(md + 1);
                    for (c, &pc) in pmf.iter().enumerate() {
                        let to = (md + first + c) * block;
                        let dst = &mut out[to..to + block];
                        for (o, &w) in dst[y0 * row..].iter_mut().zip(&src[y0 * row..]) {
                            *o += w * pc;
                        }
                        for y in 0..y0 {
                            let (at, live) = (y * row, y + md + 1);
                            for (o, &w) in dst[at..at + live].iter_mut().zip(&src[at..at + live]) {
                                *o += w * pc;
                            }
                        }
                    }
                }
            };
            // y ← max(y, ma − md): an entry moves to a higher row, where it stays.
            let update = |cur: &mut [f64]| {
                for md in 0..=nd {
                    for y in 0..=na {
                        for ma in (md + y + 1)..=na {
                            let from = md * block + y * row + ma;
                            let w = cur[from];
                            if w != 0.0 {
                                cur[from] = 0.0;
                                cur[md * block + (ma - md) * row + ma] += w;
                            }
                        }
                    }
                }
            };
            let attack_here = t <= sa;
            let defense_here = t <= sd;
            if strict {
                // Hits ≥ t against blockers > t, placed at earlier faces.
                if attack_here {
                    place_attack(&cur, &mut out);
                    core::mem::swap(&mut cur, &mut out);
                }
                update(&mut cur);
                if defense_here && t > k {
                    place_defense(&cur, &mut out);
                    core::mem::swap(&mut cur, &mut out);
                }
            } else {
                if defense_here {
                    place_defense(&cur, &mut out);
                    core::mem::swap(&mut cur, &mut out);
                }
                if attack_here {
                    place_attack(&cur, &mut out);
                    core::mem::swap(&mut cur, &mut out);
                }
                update(&mut cur);
            }
        }
        let mut law = alloc::vec![0.0; na + 1];
        for rows in cur.chunks_exact(block) {
            for (y, r) in rows.chunks_exact(row).enumerate() {
                law[y] += r.iter().sum::<f64>();
            }
        }
        law
    }

    #[test]
    fn threshold_program_matches_the_previous_one() {
        let cases = [
            (0, 3, 6, 6, 1),
            (3, 0, 6, 6, 2),
            (1, 1, 6, 6, 1),
            (3, 4, 6, 6, 2),
            (5, 3, 6, 8, 3),
            (6, 6, 8, 6, 1),
            (9, 11, 6, 6, 4),
            (12, 7, 10, 10, 5),
            (14, 14, 6, 6, 1),
        ];
        for (na, nd, sa, sd, k) in cases {
            for strict in [false, true] {
                let want = reference(na, nd, sa, sd, k, strict);
                let got = blocking_from_threshold(na, nd, sa, sd, k, strict);
                assert_eq!(got.len(), want.len());
                for (y, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (g - w).abs() <= 5e-14,
                        "{na}d{sa} v {nd}d{sd}, hits from {k}, strict {strict}, {y}: {g} vs {w}"
                    );
                }
                let total: f64 = got.iter().sum();
                assert!((total - 1.0).abs() < 1e-13);
            }
        }
    }
}
