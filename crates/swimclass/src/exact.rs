//! The exact engine: every roll of a pool of d6 up to symmetry (the multisets of faces of
//! each colour, with their multinomial weights), and the blocking law of an attack against a
//! defense by Hall's theorem over the attack's values.
//!
//! A pool of `n` d6 has `C(n + 5, 5)` multisets (462 for 6 dice, 1,287 for 8), so a task law
//! is a few thousand evaluations. Blocking groups the attack's rolls by their hits and the
//! defense's by how many dice block at each attack value, then takes
//! `max(0, maxⱼ(Hⱼ − Dⱼ))` for every pair with a fixed-width vector loop.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use dice_core::{BlockRule, count_blocked_sorted};

use crate::dice::{Compiled, Evaluated, MAX_POOL};
use crate::error::Error;

/// A small multiplicative hasher for the grouping maps (keys are short slices of small
/// integers, built by this crate: no adversary).
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    #[inline]
    fn write_i32(&mut self, x: i32) {
        self.write_u64(u64::from(x as u32));
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map with [`FxHasher`].
pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// The most rolls (products of multisets) an exact law may evaluate: a library limit of a
/// second or so.
pub const MAX_ENUMERATION: u64 = 5_000_000;

/// The most attack-against-defense pairs a blocking law may evaluate.
pub const MAX_PAIRS: u64 = 200_000_000;

fn factorials() -> [f64; MAX_POOL as usize + 1] {
    let mut f = [1.0; MAX_POOL as usize + 1];
    for i in 1..f.len() {
        f[i] = f[i - 1] * i as f64;
    }
    f
}

/// The number of multisets of `n` d6 faces, `C(n + 5, 5)`.
pub(crate) fn multiset_count(n: u32) -> u64 {
    let n = u64::from(n);
    (1..=5).fold(1u64, |acc, k| acc * (n + k) / k)
}

/// Every multiset of `n` d6 faces (faces highest first), flat with stride `n`, and their
/// probabilities.
pub(crate) fn multisets(n: u32) -> (Vec<u8>, Vec<f64>) {
    let fact = factorials();
    let n = n as usize;
    let denom = 6f64.powi(n as i32);
    let count = multiset_count(n as u32) as usize;
    let mut faces = Vec::with_capacity(count * n);
    let mut probs = Vec::with_capacity(count);
    let mut counts = [0usize; 6];
    #[allow(clippy::too_many_arguments)]
    fn rec(
        face: usize,
        left: usize,
        counts: &mut [usize; 6],
        n: usize,
        fact: &[f64],
        denom: f64,
        faces: &mut Vec<u8>,
        probs: &mut Vec<f64>,
    ) {
        if face == 0 {
            counts[0] = left;
            let mut w = fact[n];
            for f in (0..6).rev() {
                w /= fact[counts[f]];
                faces.extend(std::iter::repeat_n(f as u8 + 1, counts[f]));
            }
            probs.push(w / denom);
            return;
        }
        for c in 0..=left {
            counts[face] = c;
            rec(face - 1, left - c, counts, n, fact, denom, faces, probs);
        }
        counts[face] = 0;
    }
    rec(5, n, &mut counts, n, &fact, denom, &mut faces, &mut probs);
    (faces, probs)
}

/// The rolls [`enumerate`] visits (capped, for pre-sizing maps).
fn enumeration_size(c: &Compiled) -> usize {
    multiset_count(c.skill)
        .saturating_mul(multiset_count(c.aid))
        .saturating_mul(multiset_count(c.artifact))
        .min(MAX_ENUMERATION) as usize
}

/// Calls `f` with every roll of the compiled dice (up to symmetry) and its probability.
pub(crate) fn enumerate(c: &Compiled, mut f: impl FnMut(&Evaluated, f64)) -> Result<(), Error> {
    let mut ev = Evaluated::new();
    enumerate_naturals(c, |nat, p| {
        c.evaluate(nat, &mut ev);
        f(&ev, p);
    })
}

/// Calls `f` with the rolled faces (pool order) of every roll of the compiled dice (up to
/// symmetry) and its probability.
pub(crate) fn enumerate_naturals(c: &Compiled, mut f: impl FnMut(&[u8], f64)) -> Result<(), Error> {
    let work = multiset_count(c.skill)
        .saturating_mul(multiset_count(c.aid))
        .saturating_mul(multiset_count(c.artifact));
    if work > MAX_ENUMERATION {
        return Err(dice_core::Error::TooComplex {
            what: "a Swimclass roll",
            work,
            max: MAX_ENUMERATION,
        }
        .into());
    }
    let groups = [
        (c.skill as usize, multisets(c.skill)),
        (c.aid as usize, multisets(c.aid)),
        (c.artifact as usize, multisets(c.artifact)),
    ];
    fn rows<'a>(n: usize, faces: &'a [u8], probs: &[f64]) -> Vec<(&'a [u8], f64)> {
        probs
            .iter()
            .enumerate()
            .map(|(i, &p)| (&faces[i * n..(i + 1) * n], p))
            .collect()
    }
    let [s, a, r] = groups
        .each_ref()
        .map(|(n, (faces, probs))| rows(*n, faces, probs));
    let mut nat = Vec::with_capacity(c.rolled());
    for &(sv, sp) in &s {
        for &(av, ap) in &a {
            for &(rv, rp) in &r {
                nat.clear();
                nat.extend_from_slice(sv);
                nat.extend_from_slice(av);
                nat.extend_from_slice(rv);
                f(&nat, sp * ap * rp);
            }
        }
    }
    Ok(())
}

/// One class of attack rolls: the hit values (ascending), the natural 1s, and whether the
/// advancement pool passed its own tests (every die a success and ≥ 4).
#[derive(Clone, Debug)]
pub(crate) struct AttackGroup {
    pub hits: Vec<i32>,
    pub ones: u32,
    pub pool_ok: bool,
    pub p: f64,
}

/// Facts about one evaluated roll that decide a task or an attack.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RollFacts {
    pub successes: u32,
    pub ones: u32,
    pub pool_ok: bool,
}

/// The facts of one roll against `difficulty`.
#[inline]
pub(crate) fn facts(
    ev: &Evaluated,
    difficulty: i32,
    adv_colour: u8,
    uses_natural: bool,
) -> RollFacts {
    let mut successes = 0;
    let mut ones = 0;
    let mut pool = 0;
    let mut pool_ok = true;
    for i in 0..ev.len {
        let v = ev.value[i];
        let hit = v >= difficulty;
        successes += u32::from(hit);
        ones += u32::from(ev.natural[i] == 1);
        if ev.colour[i] == adv_colour {
            pool += 1;
            let face = if uses_natural {
                i32::from(ev.natural[i])
            } else {
                v
            };
            pool_ok &= hit && face >= 4;
        }
    }
    RollFacts {
        successes,
        ones,
        pool_ok: pool_ok && pool > 0,
    }
}

/// The attack rolls grouped by what blocking and the outcome need.
pub(crate) fn attack_groups(
    c: &Compiled,
    adv_colour: u8,
    uses_natural: bool,
) -> Result<Vec<AttackGroup>, Error> {
    // Key: the sorted hits, then the 1s and the pool flag (looked up by slice, so a key is
    // only allocated for a new group).
    let mut map: FxMap<Vec<i32>, f64> =
        FxMap::with_capacity_and_hasher(enumeration_size(c), Default::default());
    let mut key = [0i32; MAX_POOL as usize + 2];
    enumerate(c, |ev, p| {
        let f = facts(ev, c.difficulty, adv_colour, uses_natural);
        let mut h = 0;
        for &v in &ev.value[..ev.len] {
            if v >= c.difficulty {
                key[h] = v;
                h += 1;
            }
        }
        key[..h].sort_unstable();
        key[h] = f.ones as i32;
        key[h + 1] = i32::from(f.pool_ok);
        let k = &key[..h + 2];
        match map.get_mut(k) {
            Some(q) => *q += p,
            None => {
                map.insert(k.to_vec(), p);
            }
        }
    })?;
    let mut v: Vec<AttackGroup> = map
        .into_iter()
        .map(|(mut k, p)| {
            let pool_ok = k.pop() == Some(1);
            let ones = k.pop().unwrap_or(0) as u32;
            AttackGroup {
                hits: k,
                ones,
                pool_ok,
                p,
            }
        })
        .collect();
    v.sort_unstable_by(|a, b| (&a.hits, a.ones, a.pool_ok).cmp(&(&b.hits, b.ones, b.pool_ok)));
    Ok(v)
}

/// The defense rolls as sorted values with probabilities.
pub(crate) fn defense_values(c: &Compiled) -> Result<Vec<(Vec<i32>, f64)>, Error> {
    let mut map: FxMap<Vec<i32>, f64> =
        FxMap::with_capacity_and_hasher(enumeration_size(c), Default::default());
    let mut key = [0i32; MAX_POOL as usize];
    enumerate(c, |ev, p| {
        let k = &mut key[..ev.len];
        k.copy_from_slice(&ev.value[..ev.len]);
        k.sort_unstable();
        match map.get_mut(&*k) {
            Some(q) => *q += p,
            None => {
                map.insert(k.to_vec(), p);
            }
        }
    })?;
    let mut v: Vec<_> = map.into_iter().collect();
    v.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(v)
}

/// For every attack group, the law of the hits left unblocked (index = hits through).
pub(crate) fn through_laws(
    attack: &[AttackGroup],
    defense: Option<&[(Vec<i32>, f64)]>,
    rule: BlockRule,
) -> Result<Vec<Vec<f64>>, Error> {
    let Some(defense) = defense else {
        return Ok(attack
            .iter()
            .map(|g| {
                let mut law = vec![0.0; g.hits.len() + 1];
                law[g.hits.len()] = 1.0;
                law
            })
            .collect());
    };
    let pairs = (attack.len() as u64).saturating_mul(defense.len() as u64);
    if pairs > MAX_PAIRS {
        return Err(dice_core::Error::TooComplex {
            what: "a Swimclass attack",
            work: pairs,
            max: MAX_PAIRS,
        }
        .into());
    }
    let mut lanes: Vec<i32> = attack.iter().flat_map(|g| g.hits.iter().copied()).collect();
    lanes.sort_unstable();
    lanes.dedup();
    if lanes.len() > MAX_LANES {
        return Ok(through_lanes_slow(attack, defense, rule));
    }
    Ok(through_lanes(attack, defense, rule, &lanes))
}

/// The most distinct hit values the vector loop handles (beyond: a plain greedy matching).
const MAX_LANES: usize = 64;

fn blocks(rule: BlockRule, d: i32, a: i32) -> bool {
    rule.blocks(i64::from(d), i64::from(a))
}

/// Hall's count for every pair: the defense as columns (one per hit value, one entry per
/// defense class), so `max(0, maxⱼ(Hⱼ − Dⱼ))` runs over all classes at once with byte
/// arithmetic the compiler vectorizes; the law is then gathered into four interleaved
/// accumulators so consecutive additions do not wait on each other.
fn through_lanes(
    attack: &[AttackGroup],
    defense: &[(Vec<i32>, f64)],
    rule: BlockRule,
    lanes: &[i32],
) -> Vec<Vec<f64>> {
    // Defense classes: Dⱼ = dice able to block a hit of value lanes[j].
    let mut dmap: FxMap<Vec<i8>, f64> =
        FxMap::with_capacity_and_hasher(defense.len(), Default::default());
    for (vals, p) in defense {
        let d: Vec<i8> = lanes
            .iter()
            .map(|&v| vals.iter().filter(|&&x| blocks(rule, x, v)).count() as i8)
            .collect();
        *dmap.entry(d).or_insert(0.0) += p;
    }
    let mut classes: Vec<(Vec<i8>, f64)> = dmap.into_iter().collect();
    classes.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let cols: Vec<Vec<i8>> = (0..lanes.len())
        .map(|j| classes.iter().map(|(d, _)| d[j]).collect())
        .collect();
    let probs: Vec<f64> = classes.iter().map(|c| c.1).collect();
    let mut m = vec![0i8; classes.len()];
    let mut acc = [[0.0f64; 128]; 4];
    // Groups with the same hits (differing in 1s or advancement) share one law.
    let mut done: FxMap<&[i32], usize> =
        FxMap::with_capacity_and_hasher(attack.len(), Default::default());
    let mut laws: Vec<Vec<f64>> = Vec::with_capacity(attack.len());
    for g in attack {
        if let Some(&i) = done.get(g.hits.as_slice()) {
            laws.push(laws[i].clone());
            continue;
        }
        m.fill(0);
        for (j, col) in cols.iter().enumerate() {
            let h = g.hits.iter().filter(|&&x| x >= lanes[j]).count() as i8;
            if h == 0 {
                continue;
            }
            for (mm, &d) in m.iter_mut().zip(col) {
                *mm = (*mm).max(h - d);
            }
        }
        let n = g.hits.len() + 1;
        for a in acc.iter_mut() {
            a[..n].fill(0.0);
        }
        let (mc, pc) = (m.chunks_exact(4), probs.chunks_exact(4));
        let (mr, pr) = (mc.remainder(), pc.remainder());
        for (ms, ps) in mc.zip(pc) {
            // m ≤ MAX_POOL < 128, so the mask never changes an index.
            acc[0][ms[0] as usize & 127] += ps[0];
            acc[1][ms[1] as usize & 127] += ps[1];
            acc[2][ms[2] as usize & 127] += ps[2];
            acc[3][ms[3] as usize & 127] += ps[3];
        }
        for (&x, &p) in mr.iter().zip(pr) {
            acc[0][x as usize & 127] += p;
        }
        done.insert(g.hits.as_slice(), laws.len());
        laws.push(
            (0..n)
                .map(|t| acc[0][t] + acc[1][t] + acc[2][t] + acc[3][t])
                .collect(),
        );
    }
    laws
}

fn through_lanes_slow(
    attack: &[AttackGroup],
    defense: &[(Vec<i32>, f64)],
    rule: BlockRule,
) -> Vec<Vec<f64>> {
    attack
        .iter()
        .map(|g| {
            let mut law = vec![0.0; g.hits.len() + 1];
            for (vals, p) in defense {
                let blocked = count_blocked_sorted(&g.hits, vals, rule) as usize;
                law[g.hits.len() - blocked] += p;
            }
            law
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multisets_sum_to_one_and_count() {
        for n in 0..=8 {
            let (faces, probs) = multisets(n);
            assert_eq!(probs.len() as u64, multiset_count(n));
            assert_eq!(faces.len(), probs.len() * n as usize);
            let total: f64 = probs.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{n}: {total}");
        }
    }
}
