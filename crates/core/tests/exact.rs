//! Exact distributions ([`Exact`], `distribution_within`, [`Dist`]) against independent
//! oracles.
//!
//! 1. Finite laws against brute-force enumeration: every face combination is enumerated by
//!    the code of this file (never by dice-core), counted with integer weights and compared
//!    outcome by outcome with relative agreement 1e-12.
//! 2. Exploding and otherwise unbounded laws against closed forms or recursions written out
//!    here (geometric laws, the per-die law of an exploding d6, exact enumeration of capped
//!    explosion chains).
//! 3. Monte Carlo: 100,000 rolls with a fixed seed; every outcome's frequency within 5
//!    standard errors of the exact probability, rare outcomes lumped into one bucket.
//! 4. proptest: for random small parameters every law sums to one (listed + tail), every
//!    probability is in `[0, 1]`, outcomes strictly increase and lie where they can.
//! 5. The `Dist` API (cdf, survival, quantile, mean, variance, difference, joint, map,
//!    from_pairs) against enumeration.
//! 6. Regression tests for problems these tests found: the tail of exploding laws is the true
//!    unlisted mass (not the rounding noise of `1 − Σ listed`), ordinary exploding pools are
//!    computed at the default tolerance, totals of mixed exploding pools are exact across the
//!    listed range, and no probability exceeds one.
//!
//! No timing is asserted anywhere.

use crate::common;
use common::enumerate;
use dice_testkit::assert_law;

use std::collections::BTreeMap;
use std::fmt::Debug;

use dice_core::{
    BlockRule, Blocking, Cancellation, Comparison, Die, Dist, Error, Exact, Explode, FaceSet, Keep,
    Pool, Roll, Source, Streak, SuccessPool, Sum, Versus, VersusTarget,
};
use proptest::prelude::*;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

// =============================================================================================
// Shared helpers (the oracles among them never call dice-core)
// =============================================================================================

/// Relative agreement required of every exact probability.
const REL: f64 = 1e-12;

/// A test and the same test written out.
type Case<T> = (Comparison, fn(T) -> bool);

/// `|a − b| ≤ rel · max(|b|, tiny)`.
fn rel_close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-300)
}

fn assert_rel(a: f64, b: f64, rel: f64, what: &str) {
    assert!(
        rel_close(a, b, rel),
        "{what}: got {a:e}, expected {b:e} (relative error {:e})",
        (a - b).abs() / b.abs().max(1e-300)
    );
}

/// Sum of the dice a keep/drop rule keeps, written out: sort, then slice.
fn kept_sum(faces: &[u32], keep: Keep) -> i64 {
    let mut v: Vec<i64> = faces.iter().map(|&f| i64::from(f)).collect();
    v.sort_unstable();
    let n = v.len();
    let kept = match keep {
        Keep::All => &v[..],
        Keep::Highest(k) => &v[n - k as usize..],
        Keep::Lowest(k) => &v[..k as usize],
        Keep::DropHighest(k) => &v[..n - k as usize],
        Keep::DropLowest(k) => &v[k as usize..],
    };
    kept.iter().sum()
}

/// Below / Equal / Above, compared here (not with `Versus::of`).
fn versus(total: i64, target: i64) -> Versus {
    if total < target {
        Versus::Below
    } else if total == target {
        Versus::Equal
    } else {
        Versus::Above
    }
}

/// Whether a defending die blocks an attacking one, written out.
fn blocks(strict: bool, defense: i64, attack: i64) -> bool {
    if strict {
        defense > attack
    } else {
        defense >= attack
    }
}

/// The largest number of `hits` an injective assignment of `defense` dice can block, by
/// trying every assignment.
fn max_blocked(hits: &[i64], defense: &[i64], strict: bool) -> u32 {
    fn go(i: usize, used: u32, hits: &[i64], defense: &[i64], strict: bool) -> u32 {
        if i == hits.len() {
            return 0;
        }
        let mut best = go(i + 1, used, hits, defense, strict);
        for (j, &d) in defense.iter().enumerate() {
            if used & (1 << j) == 0 && blocks(strict, d, hits[i]) {
                best = best.max(1 + go(i + 1, used | (1 << j), hits, defense, strict));
            }
        }
        best
    }
    go(0, 0, hits, defense, strict)
}

/// The law of the sum of two independent variables on `0..a.len()` and `0..b.len()`.
fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &pa) in a.iter().enumerate() {
        for (j, &pb) in b.iter().enumerate() {
            out[i + j] += pa * pb;
        }
    }
    out
}

/// The law of the value of one d6 exploding (or compounding) on a 6, for values `0..=max`:
/// `P(6k + r) = (1/6)^(k+1)` for `r` in `1..=5`, 0 for multiples of 6.
fn d6_exploding_law(max: usize) -> Vec<f64> {
    (0..=max)
        .map(|v| {
            if v % 6 == 0 {
                0.0
            } else {
                (1.0f64 / 6.0).powi((v / 6 + 1) as i32)
            }
        })
        .collect()
}

/// `P(value > v)` for one d6 exploding on a 6: with `v = 6K + r` (`r` in `0..=5`) the value
/// exceeds `v` when the chain has more than `K` sixes, or exactly `K` and ends above `r`:
/// `(6 − r)·(1/6)^(K+1)`.
fn d6_exploding_survival(v: i64) -> f64 {
    let (k, r) = (v / 6, v % 6);
    (6 - r) as f64 * (1.0f64 / 6.0).powi((k + 1) as i32)
}

/// Every chain of natural faces one die of `sides` can roll when a face passing `explodes`
/// adds a die, at most `cap` extra dice, each with its weight: the number of the equally
/// likely sequences of `cap + 1` faces it stands for, `sides^(cap + 1 − len)`. The weights
/// add up to `sides^(cap + 1)`.
fn capped_chains(sides: u32, explodes: &dyn Fn(u32) -> bool, cap: u32) -> Vec<(Vec<u32>, u64)> {
    fn go(
        sides: u32,
        explodes: &dyn Fn(u32) -> bool,
        cap: u32,
        prefix: &mut Vec<u32>,
        out: &mut Vec<(Vec<u32>, u64)>,
    ) {
        for f in 1..=sides {
            prefix.push(f);
            // prefix.len() − 1 extra dice so far; another one is allowed while fewer than cap.
            if explodes(f) && prefix.len() as u32 <= cap {
                go(sides, explodes, cap, prefix, out);
            } else {
                let weight = u64::from(sides).pow(cap + 1 - prefix.len() as u32);
                out.push((prefix.clone(), weight));
            }
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    go(sides, explodes, cap, &mut Vec::new(), &mut out);
    let total: u64 = out.iter().map(|c| c.1).sum();
    assert_eq!(total, u64::from(sides).pow(cap + 1));
    out
}

/// The law of `f(chain₁, …, chainₙ)` for `n` independent dice with the given weighted chains,
/// by enumerating every combination of chains (integer weights).
fn combine_chains<O: Ord>(
    chains: &[(Vec<u32>, u64)],
    n: usize,
    mut f: impl FnMut(&[&[u32]]) -> O,
) -> BTreeMap<O, f64> {
    let mut counts: BTreeMap<O, u128> = BTreeMap::new();
    let mut idx = vec![0usize; n];
    let mut total = 0u128;
    loop {
        let chosen: Vec<&[u32]> = idx.iter().map(|&i| &chains[i].0[..]).collect();
        let w: u128 = idx.iter().map(|&i| u128::from(chains[i].1)).product();
        *counts.entry(f(&chosen)).or_insert(0) += w;
        total += w;
        let mut i = 0;
        loop {
            if i == n {
                let t = total as f64;
                return counts.into_iter().map(|(o, c)| (o, c as f64 / t)).collect();
            }
            if idx[i] + 1 < chains.len() {
                idx[i] += 1;
                break;
            }
            idx[i] = 0;
            i += 1;
        }
    }
}

fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

fn d(sides: u32) -> Die {
    Die::new(sides).unwrap()
}

fn pool(n: u32, die: Die) -> Pool {
    Pool::new(n, die).unwrap()
}

fn sum(pool: Pool, keep: Keep, modifier: i64) -> Sum {
    Sum::new(pool, keep, modifier).unwrap()
}

// =============================================================================================
// 1. Finite laws against brute-force enumeration
// =============================================================================================

#[test]
fn die_d6_and_d20_are_uniform() {
    for sides in [6, 20] {
        let law = d(sides).distribution().unwrap();
        let exact = enumerate(&[sides], |f| f[0]);
        assert_law(&format!("d{sides}"), &law, &exact);
    }
}

#[test]
fn sum_3d6_plus_2() {
    let law = sum(pool(3, Die::D6), Keep::All, 2).distribution().unwrap();
    let exact = enumerate(&[6; 3], |f| kept_sum(f, Keep::All) + 2);
    assert_law("3d6+2", &law, &exact);
}

#[test]
fn sum_mixed_2d6_1d10() {
    let p = pool(2, Die::D6)
        .with_dice(1, Die::D10, Source::Bonus)
        .unwrap();
    let law = sum(p, Keep::All, 0).distribution().unwrap();
    let exact = enumerate(&[6, 6, 10], |f| kept_sum(f, Keep::All));
    assert_law("2d6+1d10", &law, &exact);
}

#[test]
fn sum_keep_and_drop_against_enumeration() {
    let cases = [
        (4, 6, Keep::Highest(3)),
        (5, 6, Keep::DropLowest(2)),
        (4, 10, Keep::Lowest(2)),
        (3, 8, Keep::DropHighest(1)),
        (3, 6, Keep::Highest(0)),
        (4, 6, Keep::DropLowest(4)),
        (2, 20, Keep::Highest(1)),
    ];
    for (n, sides, keep) in cases {
        let law = sum(pool(n, d(sides)), keep, -1).distribution().unwrap();
        let exact = enumerate(&vec![sides; n as usize], |f| kept_sum(f, keep) - 1);
        assert_law(&format!("{n}d{sides} {keep:?} -1"), &law, &exact);
    }
}

/// Score of the dice a keep/drop rule keeps (chosen by value), written out.
fn kept_score(values: &[i64], keep: Keep, score: impl Fn(i64) -> i64) -> i64 {
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    let kept = match keep {
        Keep::All => &v[..],
        Keep::Highest(k) => &v[n - (k as usize).min(n)..],
        Keep::Lowest(k) => &v[..(k as usize).min(n)],
        Keep::DropHighest(k) => &v[..n - (k as usize).min(n)],
        Keep::DropLowest(k) => &v[(k as usize).min(n)..],
    };
    kept.iter().map(|&x| score(x)).sum()
}

/// The law of the kept score of `n` dice whose values `values[i]` have integer weights
/// `weights[i]`, by enumerating every `values.len()ⁿ` tuple with its weight.
fn weighted_kept_law(
    values: &[i64],
    weights: &[u64],
    n: u32,
    keep: Keep,
    score: &dyn Fn(i64) -> i64,
) -> BTreeMap<i64, f64> {
    let total: u64 = weights.iter().sum();
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    let mut index = vec![0usize; n as usize];
    loop {
        let dice: Vec<i64> = index.iter().map(|&i| values[i]).collect();
        let w: u64 = index.iter().map(|&i| weights[i]).product();
        *counts.entry(kept_score(&dice, keep, score)).or_default() += w;
        // Next tuple, odometer style.
        let mut pos = 0;
        loop {
            if pos == index.len() {
                let all = (total as f64).powi(n as i32);
                return counts
                    .into_iter()
                    .filter(|(_, c)| *c > 0)
                    .map(|(o, c)| (o, c as f64 / all))
                    .collect();
            }
            index[pos] += 1;
            if index[pos] < values.len() {
                break;
            }
            index[pos] = 0;
            pos += 1;
        }
    }
}

#[test]
fn kept_score_of_any_per_die_law_against_enumeration() {
    // Non-uniform per-die laws (a d4 rerolled once on a 1, a lopsided die with a gap and a
    // negative face, a dF) with integer weights, so enumeration is exact.
    let laws: [(&[i64], &[u64]); 3] = [
        (&[1, 2, 3, 4], &[1, 5, 5, 5]),
        (&[-2, 0, 3, 7], &[3, 1, 4, 2]),
        (&[-1, 0, 1], &[1, 1, 1]),
    ];
    let keeps = [
        Keep::All,
        Keep::Highest(2),
        Keep::Lowest(1),
        Keep::DropHighest(1),
        Keep::DropLowest(2),
        Keep::Highest(0),
        Keep::Lowest(9),
    ];
    let scores: [(&str, &dyn Fn(i64) -> i64); 3] = [
        ("value", &|v| v),
        ("hit on 3+, miss on a negative", &|v| {
            i64::from(v >= 3) - i64::from(v < 0)
        }),
        ("clamped to 0..=3", &|v| v.clamp(0, 3)),
    ];
    for (values, weights) in laws {
        let total: u64 = weights.iter().sum();
        let law = Dist::from_pairs(
            values
                .iter()
                .zip(weights)
                .map(|(&v, &w)| (v, w as f64 / total as f64)),
        )
        .unwrap();
        for n in 1..=4 {
            for keep in keeps {
                for (name, score) in scores {
                    let got = law.kept_score(n, keep, score).unwrap();
                    let exact = weighted_kept_law(values, weights, n, keep, score);
                    assert_law(
                        &format!("{values:?}×{weights:?}, {n} dice, {keep:?}, {name}"),
                        &got,
                        &exact,
                    );
                }
                let sum = law.kept_sum(n, keep).unwrap();
                assert_eq!(sum, law.kept_score(n, keep, |v| v).unwrap());
            }
        }
    }
}

#[test]
fn and_then_is_the_mixture_of_the_following_laws() {
    // A d4 says how many d6 to sum: enumerate every (n, faces) with weight 1/4 · 1/6ⁿ.
    let d4 = Die::new(4).unwrap().distribution().unwrap();
    let got = d4
        .and_then(|&n| sum(pool(n, d(6)), Keep::All, 0).distribution())
        .unwrap();
    let mut exact: BTreeMap<i64, f64> = BTreeMap::new();
    for n in 1..=4usize {
        for (total, p) in enumerate(&vec![6; n], |f| {
            f.iter().map(|&x| i64::from(x)).sum::<i64>()
        }) {
            *exact.entry(total).or_default() += p / 4.0;
        }
    }
    for (o, p) in got.iter() {
        assert_rel(p, exact[o], 1e-12, &format!("total {o}"));
    }
    assert_eq!(got.len(), exact.len());
    assert_rel(got.total(), 1.0, 1e-12, "total");
    // Tails: 0.25 unlisted in the first law, and each following law leaves 0.1 · k unlisted.
    let first = Dist::from_pairs([(1u32, 0.5), (2, 0.25)]).unwrap();
    let mixed = first
        .and_then(|&k| Dist::from_pairs([(10 * k, 1.0 - 0.1 * f64::from(k))]))
        .unwrap();
    assert_rel(mixed.tail(), 0.25 + 0.5 * 0.1 + 0.25 * 0.2, 1e-12, "tail");
    assert_rel(mixed.probability(&20), 0.25 * 0.8, 1e-12, "outcome 20");
    // The first error stops it.
    assert!(first.and_then(|_| Err::<Dist<u32>, _>("no")).is_err());
}

#[test]
fn kept_score_of_a_law_with_a_tail() {
    // Listed faces 1–3 with 0.2 each, 0.4 unlisted: the listed kept laws are the joint
    // laws with every die listed, and the tail is P(some die unlisted) = 1 − 0.6ⁿ.
    let law = Dist::from_pairs([(1i64, 0.2), (2, 0.2), (3, 0.2)]).unwrap();
    for n in 1..=4u32 {
        let got = law.kept_sum(n, Keep::Highest(2)).unwrap();
        let exact = weighted_kept_law(&[1, 2, 3], &[1, 1, 1], n, Keep::Highest(2), &|v| v);
        let listed = 0.6f64.powi(n as i32);
        for (o, p) in got.iter() {
            assert_rel(p, exact[o] * listed, REL, &format!("{n} dice, outcome {o}"));
        }
        assert_eq!(got.len(), exact.len());
        assert_rel(got.tail(), 1.0 - listed, REL, &format!("{n} dice, tail"));
    }
}

#[test]
fn sum_of_no_dice_is_the_modifier() {
    let law = sum(Pool::empty(), Keep::All, 5).distribution().unwrap();
    assert_eq!(law.outcomes(), &[5]);
    assert_eq!(law.probabilities(), &[1.0]);
}

#[test]
fn keep_over_mixed_dice_is_unsupported() {
    let mixed = pool(2, Die::D6)
        .with_dice(1, Die::D10, Source::Bonus)
        .unwrap();
    assert!(matches!(
        sum(mixed, Keep::Highest(2), 0).distribution(),
        Err(Error::Unsupported { .. })
    ));
    // Keep/drop with additional explosions has a law since issue 17 (tested below against
    // enumerated chains).
    let exploding = pool(3, Die::D6)
        .exploding(Explode::new(Comparison::Exactly(6)))
        .unwrap();
    assert!(sum(exploding, Keep::Highest(2), 0).distribution().is_ok());
}

#[test]
fn versus_target_2d6_plus_2_vs_9() {
    let v = VersusTarget::new(sum(pool(2, Die::D6), Keep::All, 2), 9).unwrap();
    let exact = enumerate(&[6, 6], |f| versus(i64::from(f[0] + f[1]) + 2, 9));
    assert_law("2d6+2 vs 9", &v.distribution().unwrap(), &exact);
}

#[test]
fn versus_target_every_target_3_to_13_vs_2d6() {
    for target in 3..=13 {
        let v = VersusTarget::new(sum(pool(2, Die::D6), Keep::All, 0), target).unwrap();
        let exact = enumerate(&[6, 6], |f| versus(i64::from(f[0] + f[1]), target));
        assert_law(
            &format!("2d6 vs {target}"),
            &v.distribution().unwrap(),
            &exact,
        );
    }
}

#[test]
fn success_6d6_at_least_4() {
    let sp = SuccessPool::new(pool(6, Die::D6), Comparison::AtLeast(4));
    let exact = enumerate(&[6; 6], |f| f.iter().filter(|&&x| x >= 4).count() as u32);
    assert_law("6d6 >=4", &sp.distribution().unwrap(), &exact);
}

#[test]
fn success_mixed_3d6_2d10_at_least_5() {
    let p = pool(3, Die::D6)
        .with_dice(2, Die::D10, Source::Bonus)
        .unwrap();
    let sp = SuccessPool::new(p, Comparison::AtLeast(5));
    let exact = enumerate(&[6, 6, 6, 10, 10], |f| {
        f.iter().filter(|&&x| x >= 5).count() as u32
    });
    assert_law("3d6+2d10 >=5", &sp.distribution().unwrap(), &exact);
}

#[test]
fn success_one_of_plain_and_mixed() {
    let set = FaceSet::new([1, 3, 6]).unwrap();
    let sp = SuccessPool::new(pool(5, Die::D6), Comparison::OneOf(set));
    let exact = enumerate(&[6; 5], |f| {
        f.iter().filter(|&&x| x == 1 || x == 3 || x == 6).count() as u32
    });
    assert_law("5d6 in{1,3,6}", &sp.distribution().unwrap(), &exact);

    // Faces 7 and 10 exist only on the d10s.
    let set = FaceSet::new([2, 7, 10]).unwrap();
    let p = pool(2, Die::D6)
        .with_dice(2, Die::D10, Source::Aid)
        .unwrap();
    let sp = SuccessPool::new(p, Comparison::OneOf(set));
    let exact = enumerate(&[6, 6, 10, 10], |f| {
        f.iter().filter(|&&x| x == 2 || x == 7 || x == 10).count() as u32
    });
    assert_law("2d6+2d10 in{2,7,10}", &sp.distribution().unwrap(), &exact);
}

#[test]
fn success_other_comparisons() {
    let cases: [Case<u32>; 5] = [
        (Comparison::AtMost(3), |x| x <= 3),
        (Comparison::Above(6), |x| x > 6),
        (Comparison::Below(2), |x| x < 2),
        (Comparison::Exactly(8), |x| x == 8),
        (Comparison::AtLeast(11), |_| false),
    ];
    for (cmp, pred) in cases {
        let sp = SuccessPool::new(pool(4, d(8)), cmp);
        let exact = enumerate(&[8; 4], |f| f.iter().filter(|&&x| pred(x)).count() as u32);
        assert_law(&format!("4d8 {cmp}"), &sp.distribution().unwrap(), &exact);
    }
}

/// 4d10 ≤ 6 against 3d10 ≤ 5, difficulty 1: each side enumerated over its 10⁴ and 10³
/// combinations, then every pair of combinations combined (the sides are independent).
#[test]
fn cancellation_4d10_vs_3d10_difficulty_1() {
    let actor = SuccessPool::new(pool(4, Die::D10), Comparison::AtMost(6));
    let opposition = SuccessPool::new(pool(3, Die::D10), Comparison::AtMost(5));
    let c = Cancellation::new(actor, Some(opposition), 1).unwrap();
    let mine = enumerate(&[10; 4], |f| f.iter().filter(|&&x| x <= 6).count() as i64);
    let theirs = enumerate(&[10; 3], |f| f.iter().filter(|&&x| x <= 5).count() as i64);
    let mut exact: BTreeMap<i64, f64> = BTreeMap::new();
    for (&m, &pm) in &mine {
        for (&t, &pt) in &theirs {
            *exact.entry(m - t - 1).or_insert(0.0) += pm * pt;
        }
    }
    assert_law("4d10<=6 vs 3d10<=5, 1", &c.distribution().unwrap(), &exact);

    // Without opposition: the actor's count minus the difficulty.
    let alone = Cancellation::new(
        SuccessPool::new(pool(4, Die::D10), Comparison::AtMost(6)),
        None,
        2,
    )
    .unwrap();
    let exact = enumerate(&[10; 4], |f| {
        f.iter().filter(|&&x| x <= 6).count() as i64 - 2
    });
    assert_law("4d10<=6, 2", &alone.distribution().unwrap(), &exact);
}

/// Blocking by enumeration: every face combination of both sides, hits by the test written
/// out, unblocked = hits − the brute-force maximum matching.
fn check_blocking(na: u32, sa: u32, nd: u32, sd: u32, hit_from: i32, strict: bool) {
    let rule = if strict {
        BlockRule::Strict
    } else {
        BlockRule::AtLeast
    };
    let fight = Blocking::new(
        SuccessPool::new(pool(na, d(sa)), Comparison::AtLeast(hit_from)),
        pool(nd, d(sd)),
        rule,
    );
    let mut sides = vec![sa; na as usize];
    sides.extend(vec![sd; nd as usize]);
    let exact = enumerate(&sides, |f| {
        let (a, def) = f.split_at(na as usize);
        let hits: Vec<i64> = a
            .iter()
            .filter(|&&x| x as i32 >= hit_from)
            .map(|&x| i64::from(x))
            .collect();
        let def: Vec<i64> = def.iter().map(|&x| i64::from(x)).collect();
        hits.len() as u32 - max_blocked(&hits, &def, strict)
    });
    assert_law(
        &format!("{na}d{sa} >={hit_from} blocked by {nd}d{sd}, strict {strict}"),
        &fight.distribution().unwrap(),
        &exact,
    );
}

#[test]
fn blocking_against_brute_force_matching() {
    for strict in [false, true] {
        check_blocking(3, 6, 3, 6, 2, strict);
        check_blocking(2, 6, 4, 6, 2, strict);
        check_blocking(4, 6, 2, 8, 2, strict);
        check_blocking(2, 8, 3, 6, 3, strict);
        check_blocking(3, 6, 0, 6, 4, strict);
    }
}

/// Blocking by the face counts of each side (every composition of the dice over the faces, with
/// its multinomial chance) and the Hall formula `max(0, maxₜ(Hₜ − Dₜ))` written out: a
/// reference for pools too large to enumerate roll by roll.
fn blocking_by_face_counts(
    na: u32,
    nd: u32,
    sides: u32,
    hits: impl Fn(u32) -> bool,
    strict: bool,
) -> BTreeMap<u32, f64> {
    fn compositions(n: u32, parts: usize) -> Vec<Vec<u32>> {
        if parts == 1 {
            return vec![vec![n]];
        }
        let mut out = Vec::new();
        for first in 0..=n {
            for mut rest in compositions(n - first, parts - 1) {
                rest.insert(0, first);
                out.push(rest);
            }
        }
        out
    }
    // The multinomial coefficients in integers: rolls are counted exactly, and divided by
    // the number of rolls once at the end (summing a million f64 chances would round).
    let count = |c: &[u32]| {
        let mut coef: u128 = 1;
        let mut placed = 0u128;
        for &x in c {
            for i in 1..=u128::from(x) {
                placed += 1;
                coef = coef * placed / i;
            }
        }
        coef
    };
    let (a_all, d_all) = (
        compositions(na, sides as usize),
        compositions(nd, sides as usize),
    );
    let d_weights: Vec<u128> = d_all.iter().map(|c| count(c)).collect();
    let mut rolls: BTreeMap<u32, u128> = BTreeMap::new();
    for a in &a_all {
        let pa = count(a);
        for (d, pd) in d_all.iter().zip(&d_weights) {
            let mut worst = 0i64;
            for t in 1..=sides {
                // Hits showing t or more; blockers showing t or more (more than t when strict).
                let h: i64 = (t..=sides)
                    .filter(|&f| hits(f))
                    .map(|f| i64::from(a[f as usize - 1]))
                    .sum();
                let from = if strict { t + 1 } else { t };
                let b: i64 = (from..=sides).map(|f| i64::from(d[f as usize - 1])).sum();
                worst = worst.max(h - b);
            }
            *rolls.entry(worst as u32).or_insert(0) += pa * pd;
        }
    }
    let all = f64::from(sides).powi((na + nd) as i32);
    rolls
        .into_iter()
        .map(|(u, c)| (u, c as f64 / all))
        .collect()
}

#[test]
fn blocking_of_larger_pools_against_face_counts() {
    // ≥ tests (the threshold program) and other tests (the general one), both rules.
    type Case = (u32, u32, Comparison, fn(u32) -> bool);
    let cases: [Case; 4] = [
        (7, 7, Comparison::AtLeast(3), |f| f >= 3),
        (8, 5, Comparison::AtLeast(1), |_| true),
        (5, 8, Comparison::AtLeast(6), |f| f >= 6),
        (6, 6, Comparison::AtMost(4), |f| f <= 4),
    ];
    for (na, nd, test, hits) in cases {
        for strict in [false, true] {
            let rule = if strict {
                BlockRule::Strict
            } else {
                BlockRule::AtLeast
            };
            let fight = Blocking::new(SuccessPool::new(pool(na, d(6)), test), pool(nd, d(6)), rule);
            let got = fight.distribution().unwrap();
            let want = blocking_by_face_counts(na, nd, 6, hits, strict);
            for (&u, &q) in &want {
                let p = got.probability(&u);
                assert!(
                    (p - q).abs() <= 5e-14,
                    "{na}v{nd} {test:?} strict {strict}: {u}: {p} vs {q}"
                );
            }
            assert!((got.total() - 1.0).abs() < 1e-12);
        }
    }
}

/// The keep/drop program as first written, one entry and one count at a time: the reference
/// for the contiguous version (which must add the same terms in the same order).
fn keep_first_reference(n: u32, k: u32, ordered: &[(f64, i64)]) -> BTreeMap<i64, f64> {
    let listed: Vec<(f64, i64)> = ordered.iter().copied().filter(|&(q, _)| q > 0.0).collect();
    let smin = listed.iter().map(|&(_, s)| s).min().unwrap();
    let smax = listed.iter().map(|&(_, s)| s).max().unwrap();
    let range = (smax - smin) as usize;
    let k = k as usize;
    let mut rest = vec![0.0; listed.len() + 1];
    for i in (0..listed.len()).rev() {
        rest[i] = rest[i + 1] + listed[i].0;
    }
    let mut states: Vec<Vec<f64>> = (0..k).map(|m| vec![0.0; m * range + 1]).collect();
    states[0][0] = 1.0;
    let mut done = vec![0.0; k * range + 1];
    for (i, &(q, score)) in listed.iter().enumerate() {
        let ds = (score - smin) as usize;
        let pi = if i + 1 == listed.len() {
            1.0
        } else {
            (q / rest[i]).min(1.0)
        };
        let mut next: Vec<Vec<f64>> = (0..k).map(|m| vec![0.0; m * range + 1]).collect();
        for m in 0..k {
            let pmf = dice_core::binomial_pmf(n - m as u32, pi).unwrap();
            let complete: f64 = pmf[(k - m).min(pmf.len())..].iter().sum();
            for (j, &w) in states[m].iter().enumerate() {
                for (c, &pc) in pmf.iter().enumerate().take(k - m) {
                    next[m + c][j + c * ds] += w * pc;
                }
                done[j + (k - m) * ds] += w * complete;
            }
        }
        states = next;
    }
    done.iter()
        .enumerate()
        .filter(|(_, q)| **q > 0.0)
        .map(|(j, &q)| (k as i64 * smin + j as i64, q))
        .collect()
}

#[test]
fn keep_drop_against_the_entry_by_entry_program() {
    // Plain dice and an uneven per-die law, both directions, up to 40 dice.
    let uneven =
        Dist::from_pairs((1..=12).map(|v| (v, f64::from(v as u32 % 5 + 1) / 35.0))).unwrap();
    let d20 = Dist::from_pairs((1..=20).map(|v| (v, 1.0 / 20.0))).unwrap();
    for (law, n, keep) in [
        (&d20, 30, Keep::Highest(12)),
        (&d20, 25, Keep::Lowest(7)),
        (&uneven, 40, Keep::DropLowest(10)),
        (&uneven, 9, Keep::Highest(1)),
    ] {
        let got = law.kept_sum(n, keep).unwrap();
        let (top, k) = keep.as_top(n);
        let mut ordered: Vec<(f64, i64)> = law.iter().map(|(&v, q)| (q, v)).collect();
        if top {
            ordered.reverse();
        }
        let want = keep_first_reference(n, k, &ordered);
        assert_eq!(got.len(), want.len(), "{n} {keep:?}");
        for (&v, &q) in &want {
            let p = got.probability(&v);
            assert!(
                (p - q).abs() <= 5e-14 * q.max(1e-300),
                "{n} {keep:?} {v}: {p} vs {q}"
            );
        }
    }
}

#[test]
fn long_uniform_sums_against_repeated_convolution() {
    // 500d6 (its ends underflow, and are dropped as they do), 40d20 (block sums), 2d6+3d4.
    let direct = |parts: &[(u32, u32)]| {
        let mut law = vec![1.0];
        let mut offset = 0i64;
        for &(n, s) in parts {
            for _ in 0..n {
                law = convolve(&law, &vec![1.0 / f64::from(s); s as usize]);
                offset += 1;
            }
        }
        law.iter()
            .enumerate()
            .filter(|(_, q)| **q > 0.0)
            .map(|(i, &q)| (offset + i as i64, q))
            .collect::<BTreeMap<i64, f64>>()
    };
    let cases: [&[(u32, u32)]; 3] = [&[(500, 6)], &[(40, 20)], &[(2, 6), (3, 4)]];
    for parts in cases {
        let mut p = pool(parts[0].0, d(parts[0].1));
        for &(n, s) in &parts[1..] {
            p = p.with_dice(n, d(s), Source::Bonus).unwrap();
        }
        let got = sum(p, Keep::All, 0).distribution().unwrap();
        let want = direct(parts);
        // Relative down to the normal range; the subnormal far ends (where the two orders of
        // rounding may leave one side 0) absolutely.
        for (&v, &q) in &want {
            let g = got.probability(&v);
            assert!(
                (g - q).abs() <= 5e-14 * q.max(1e-290),
                "{parts:?} {v}: {g} vs {q}"
            );
        }
        for (&v, g) in got.iter() {
            assert!(
                want.contains_key(&v) || g < 1e-300,
                "{parts:?} {v}: {g} listed"
            );
        }
    }
}

#[test]
fn exploding_listings_are_sized_to_the_tail_bound() {
    // 1,000 d10s, 8+ succeeding, tens adding a die: about 333 successes expected; the listing
    // stops a few hundred past the mean with at most 1e-15 unlisted, and every listed count
    // agrees with a much longer listing.
    let p = pool(1000, Die::D10)
        .exploding(Explode::new(Comparison::Exactly(10)))
        .unwrap();
    let count = SuccessPool::new(p, Comparison::AtLeast(8));
    let short = count.distribution().unwrap();
    let long = count.distribution_within(1e-60).unwrap();
    assert!(short.tail() <= 1e-15 && short.tail() > 0.0);
    let last = *short.outcomes().last().unwrap();
    assert!(last < 600, "listed up to {last}");
    for (v, q) in short.iter() {
        assert!((q - long.probability(v)).abs() <= 5e-14 * q, "{v}");
    }
    // The same for a sum: 200 d6 exploding on 6.
    let p = pool(200, Die::D6)
        .exploding(Explode::new(Comparison::Exactly(6)))
        .unwrap();
    let total = sum(p, Keep::All, 0);
    let short = total.distribution().unwrap();
    let long = total.distribution_within(1e-60).unwrap();
    assert!(short.tail() <= 1e-15 && short.tail() > 0.0);
    for (v, q) in short.iter() {
        assert!((q - long.probability(v)).abs() <= 5e-14 * q, "{v}");
    }
}

// =============================================================================================
// 2. Exploding and unbounded laws against formulas
// =============================================================================================

/// Probabilities at least this large are normal `f64`s with full relative precision; the far
/// end of a very long listing is subnormal and is compared absolutely.
const NORMAL: f64 = 1e-290;

/// Checks the law of one d6 exploding on a 6 against `P(6k + r) = (1/6)^(k+1)`: every listed
/// value is a positive non-multiple of 6 with that probability, every value of normal
/// probability up to the last listed one is listed, the tail is at most `tol` and the total
/// is 1.
fn check_d6_exploding(law: &Dist<i64>, tol: f64, what: &str) {
    assert!(law.tail() <= tol, "{what}: tail {:e}", law.tail());
    let last = *law.outcomes().last().unwrap();
    let exact = d6_exploding_law(last as usize);
    for (&v, p) in law.iter() {
        assert!(v > 0 && v % 6 != 0, "{what}: impossible value {v} listed");
        let q = exact[v as usize];
        if q >= NORMAL {
            assert_rel(p, q, REL, &format!("{what}: P({v})"));
        } else {
            assert!(
                (p - q).abs() <= 1e-300,
                "{what}: P({v}) = {p:e}, expected {q:e}"
            );
        }
    }
    for (v, &q) in exact.iter().enumerate() {
        if q >= NORMAL {
            assert!(law.probability(&(v as i64)) > 0.0, "{what}: {v} not listed");
        }
    }
    assert!((law.total() - 1.0).abs() <= 1e-12, "{what}: total");
}

#[test]
fn d6_exploding_on_6_is_geometric() {
    let six = Comparison::Exactly(6);
    let additional = sum(
        pool(1, Die::D6).exploding(Explode::new(six)).unwrap(),
        Keep::All,
        0,
    )
    .distribution_within(1e-30)
    .unwrap();
    check_d6_exploding(&additional, 1e-30, "d6!");
    let compounding = sum(
        pool(1, Die::D6)
            .exploding(Explode::compounding(six))
            .unwrap(),
        Keep::All,
        0,
    )
    .distribution_within(1e-30)
    .unwrap();
    check_d6_exploding(&compounding, 1e-30, "d6!!");
    assert_eq!(additional.outcomes(), compounding.outcomes());
    for ((_, a), (_, b)) in additional.iter().zip(compounding.iter()) {
        assert_rel(a, b, REL, "d6! vs d6!!");
    }
}

#[test]
fn three_d6_exploding_on_6_summed() {
    let law = sum(
        pool(3, Die::D6)
            .exploding(Explode::new(Comparison::Exactly(6)))
            .unwrap(),
        Keep::All,
        0,
    )
    .distribution_within(1e-20)
    .unwrap();
    assert!(law.tail() <= 1e-20);
    assert!((law.total() - 1.0).abs() <= 1e-12);
    // Totals up to 40 only involve die values up to 38.
    let one = d6_exploding_law(40);
    let three = convolve(&convolve(&one, &one), &one);
    for (t, &exact) in three.iter().enumerate().take(41) {
        let got = law.probability(&(t as i64));
        if exact == 0.0 {
            assert_eq!(got, 0.0, "P({t})");
        } else {
            assert_rel(got, exact, REL, &format!("3d6! P({t})"));
        }
    }
    // Compounding: the same law.
    let compounding = sum(
        pool(3, Die::D6)
            .exploding(Explode::compounding(Comparison::Exactly(6)))
            .unwrap(),
        Keep::All,
        0,
    )
    .distribution_within(1e-20)
    .unwrap();
    for (t, &exact) in three.iter().enumerate().take(41).skip(3) {
        assert_rel(
            compounding.probability(&(t as i64)),
            exact,
            REL,
            &format!("3d6!! P({t})"),
        );
    }
}

/// An exploding total against a target: the unlisted mass lies above the target.
#[test]
fn versus_target_with_an_exploding_total() {
    let s = sum(
        pool(1, Die::D6)
            .exploding(Explode::new(Comparison::Exactly(6)))
            .unwrap(),
        Keep::All,
        0,
    );
    let v = VersusTarget::new(s, 10).unwrap().distribution().unwrap();
    let one = d6_exploding_law(10);
    let below: f64 = one[..10].iter().sum();
    assert_rel(v.probability(&Versus::Below), below, REL, "below 10");
    assert_rel(v.probability(&Versus::Equal), one[10], REL, "equal 10");
    assert_rel(
        v.probability(&Versus::Above),
        d6_exploding_survival(10),
        REL,
        "above 10",
    );
    assert!((v.total() - 1.0).abs() <= 1e-12);
}

/// 2d10 counting ≥ 8, a 10 adding a die: one die's count has `P(n) = 0.7[n=0] + 0.2[n=1] +
/// 0.1·P(n−1)`; two dice convolved.
#[test]
fn two_d10_tens_exploding_count_at_least_8() {
    let tens = pool(2, Die::D10)
        .exploding(Explode::new(Comparison::Exactly(10)))
        .unwrap();
    let law = SuccessPool::new(tens, Comparison::AtLeast(8))
        .distribution_within(1e-20)
        .unwrap();
    assert!(law.tail() <= 1e-20);
    assert!((law.total() - 1.0).abs() <= 1e-12);
    let mut one = vec![0.0; 20];
    for n in 0..20 {
        let prev = if n > 0 { 0.1 * one[n - 1] } else { 0.0 };
        one[n] = match n {
            0 => 0.7,
            1 => 0.2 + prev,
            _ => prev,
        };
    }
    let two = convolve(&one, &one);
    for (n, &exact) in two.iter().enumerate().take(16) {
        assert_rel(
            law.probability(&(n as u32)),
            exact,
            REL,
            &format!("P({n} successes)"),
        );
    }
}

/// Compounding dice are counted on their whole value: 2d10 compounding on 10, ≥ 8, is
/// Binomial(2, 0.3); 4d6 compounding on 6 against several tests, with the per-die law
/// `P(6k + r) = (1/6)^(k+1)`.
#[test]
fn compounding_success_counts_are_binomial() {
    let binomial = |n: u32, p: f64| -> Vec<f64> {
        (0..=n)
            .map(|k| {
                let c = (0..k).fold(1.0, |a, i| a * f64::from(n - i) / f64::from(i + 1));
                c * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
            })
            .collect()
    };
    let tens = pool(2, Die::D10)
        .exploding(Explode::compounding(Comparison::Exactly(10)))
        .unwrap();
    let law = SuccessPool::new(tens, Comparison::AtLeast(8))
        .distribution()
        .unwrap();
    for (k, &q) in binomial(2, 0.3).iter().enumerate() {
        assert_rel(law.probability(&(k as u32)), q, REL, "2d10!! >=8");
    }

    let one = d6_exploding_law(300);
    let cases: [Case<usize>; 5] = [
        (Comparison::AtLeast(8), |v| v >= 8),
        (Comparison::Exactly(7), |v| v == 7),
        (Comparison::AtMost(13), |v| v <= 13),
        (Comparison::Below(6), |v| v < 6),
        (Comparison::OneOf(FaceSet::EMPTY), |_| false),
    ];
    for (cmp, pred) in cases {
        let p_listed: f64 = (0..=300).filter(|&v| pred(v)).map(|v| one[v]).sum();
        let p = if pred(1_000_000) {
            p_listed + d6_exploding_survival(300)
        } else {
            p_listed
        };
        let d6s = pool(4, Die::D6)
            .exploding(Explode::compounding(Comparison::Exactly(6)))
            .unwrap();
        let law = SuccessPool::new(d6s, cmp).distribution().unwrap();
        for (k, &q) in binomial(4, p).iter().enumerate() {
            if q > 0.0 {
                assert_rel(
                    law.probability(&(k as u32)),
                    q,
                    REL,
                    &format!("4d6!! {cmp}"),
                );
            } else {
                assert_eq!(law.probability(&(k as u32)), 0.0);
            }
        }
    }
    // A set with faces beyond the die: {3, 7, 13} passes 3, 6+1 and 6+6+1.
    let d6s = pool(3, Die::D6)
        .exploding(Explode::compounding(Comparison::Exactly(6)))
        .unwrap();
    let set = FaceSet::new([3, 7, 13]).unwrap();
    let law = SuccessPool::new(d6s, Comparison::OneOf(set))
        .distribution()
        .unwrap();
    let p = one[3] + one[7] + one[13];
    for (k, &q) in binomial(3, p).iter().enumerate() {
        assert_rel(law.probability(&(k as u32)), q, REL, "3d6!! in{3,7,13}");
    }
}

/// 3d10, a 10 adding a die at most twice per die, counting ≥ 8 and summed; and the same cap
/// compounding: the capped chains enumerated exactly.
#[test]
fn capped_explosions_3d10() {
    let ten = |f: u32| f == 10;
    let chains = capped_chains(10, &ten, 2);
    assert_eq!(chains.len(), 9 + 9 + 10);
    let count = |c: &[&[u32]]| {
        c.iter()
            .map(|ch| ch.iter().filter(|&&x| x >= 8).count() as u32)
            .sum::<u32>()
    };
    let total = |c: &[&[u32]]| {
        c.iter()
            .map(|ch| ch.iter().map(|&x| i64::from(x)).sum::<i64>())
            .sum::<i64>()
    };
    let exact_count = combine_chains(&chains, 3, count);
    let exact_total = combine_chains(&chains, 3, total);

    let capped = Explode::new(Comparison::Exactly(10)).with_cap(2).unwrap();
    let p = pool(3, Die::D10).exploding(capped).unwrap();
    let law = SuccessPool::new(p.clone(), Comparison::AtLeast(8))
        .distribution()
        .unwrap();
    assert_law("3d10!10 cap 2, >=8", &law, &exact_count);
    assert_eq!(*law.outcomes().last().unwrap(), 9);
    let law = sum(p, Keep::All, 0).distribution().unwrap();
    assert_law("3d10!10 cap 2, summed", &law, &exact_total);
    assert_eq!(*law.outcomes().last().unwrap(), 90);

    // Compounding with the same cap: the die's value is its chain's sum.
    let capped = Explode::compounding(Comparison::Exactly(10))
        .with_cap(2)
        .unwrap();
    let p = pool(3, Die::D10).exploding(capped).unwrap();
    let law = sum(p.clone(), Keep::All, 0).distribution().unwrap();
    assert_law("3d10!!10 cap 2, summed", &law, &exact_total);
    let set = FaceSet::new([9, 13, 25, 30]).unwrap();
    let exact = combine_chains(&chains, 3, |c| {
        c.iter()
            .filter(|ch| matches!(ch.iter().sum::<u32>(), 9 | 13 | 25 | 30))
            .count() as u32
    });
    let law = SuccessPool::new(p.clone(), Comparison::OneOf(set))
        .distribution()
        .unwrap();
    assert_law("3d10!!10 cap 2, in{9,13,25,30}", &law, &exact);
    // Keep the highest 2 of the capped compounding dice.
    let exact = combine_chains(&chains, 3, |c| {
        let mut v: Vec<u32> = c.iter().map(|ch| ch.iter().sum::<u32>()).collect();
        v.sort_unstable();
        i64::from(v[1] + v[2])
    });
    let law = sum(p, Keep::Highest(2), 0).distribution().unwrap();
    assert_law("3d10!!10 cap 2, kh2", &law, &exact);
}

/// A cap on an explosion that passes on every face: every die reaches it.
#[test]
fn capped_explosion_on_every_face() {
    let always = Explode::new(Comparison::AtLeast(1)).with_cap(1).unwrap();
    let p = pool(2, Die::D6).exploding(always).unwrap();
    let exact = enumerate(&[6; 4], |f| kept_sum(f, Keep::All));
    assert_law(
        "2d6!>=1 cap 1",
        &sum(p, Keep::All, 0).distribution().unwrap(),
        &exact,
    );
}

#[test]
fn streak_laws_are_geometric() {
    // Fluke: continue on {4, 5, 6}, P(k) = (1/2)^(k+1).
    let fluke = Streak::new(Die::D6, FaceSet::range(4, 6).unwrap(), 0).unwrap();
    let law = fluke.distribution_within(1e-30).unwrap();
    let last = *law.outcomes().last().unwrap();
    assert_eq!(law.outcomes(), &(0..=last).collect::<Vec<_>>()[..]);
    for (&k, p) in law.iter() {
        assert_rel(p, 0.5f64.powi(k as i32 + 1), REL, &format!("fluke P({k})"));
        assert_eq!(fluke.length_probability(k as u32), p);
    }
    // The unlisted mass is P(length > J) = p^(J+1) for the last listed length J.
    assert_rel(law.tail(), 0.5f64.powi(last as i32 + 1), REL, "fluke tail");
    assert!(law.tail() <= 1e-30 && law.tail() > 1e-30 * 0.5 * 0.5);
    assert!((law.total() - 1.0).abs() <= 1e-15);

    // Damage streak: base 1, continue on {5, 6}: P(1 + k) = (1/3)^k · 2/3.
    let damage = Streak::new(Die::D6, FaceSet::new([5, 6]).unwrap(), 1).unwrap();
    let law = damage.distribution_within(1e-25).unwrap();
    let last = *law.outcomes().last().unwrap();
    assert_eq!(law.outcomes(), &(1..=last).collect::<Vec<_>>()[..]);
    for (&s, p) in law.iter() {
        let k = (s - 1) as i32;
        assert_rel(
            p,
            (1.0f64 / 3.0).powi(k) * (2.0 / 3.0),
            REL,
            &format!("damage P({s})"),
        );
    }
    let j = (last - 1) as i32;
    assert_rel(law.tail(), (1.0f64 / 3.0).powi(j + 1), REL, "damage tail");
    assert!(law.tail() <= 1e-25);
    // The default tolerance.
    let law = damage.distribution().unwrap();
    assert!(law.tail() <= dice_core::DEFAULT_TAIL_TOLERANCE);
    assert!((law.total() - 1.0).abs() <= 1e-15);

    // No face continues: the base, always.
    let never = Streak::new(d(4), FaceSet::EMPTY, 3).unwrap();
    let law = never.distribution().unwrap();
    assert_eq!(law.outcomes(), &[3]);
    assert_eq!(law.probabilities(), &[1.0]);
    assert_eq!(law.tail(), 0.0);
}

#[test]
fn capped_streak_laws() {
    // {4, 5, 6} capped at 5: P(k) = (1/2)^(k+1) for k < 5, P(5) = (1/2)^5.
    let s = Streak::capped(Die::D6, FaceSet::range(4, 6).unwrap(), 2, 5).unwrap();
    let law = s.distribution().unwrap();
    assert_eq!(law.outcomes(), &[2, 3, 4, 5, 6, 7]);
    assert_eq!(law.tail(), 0.0);
    for (&score, p) in law.iter() {
        let k = (score - 2) as i32;
        let exact = if k < 5 {
            0.5f64.powi(k + 1)
        } else {
            0.5f64.powi(5)
        };
        assert_rel(p, exact, REL, &format!("capped P({score})"));
        assert_eq!(s.length_probability(k as u32), p);
    }
    assert_eq!(s.length_probability(6), 0.0);
    assert!((law.total() - 1.0).abs() <= 1e-15);

    // d10 with {1, 2, 3} capped at 3, by enumeration of 3 faces (lengths stop at the cap).
    let s = Streak::capped(d(10), FaceSet::new([1, 2, 3]).unwrap(), 0, 3).unwrap();
    let exact = enumerate(&[10; 3], |f| {
        f.iter().take_while(|&&x| x <= 3).count() as i64
    });
    assert_law(
        "d10 streak {1,2,3} cap 3",
        &s.distribution().unwrap(),
        &exact,
    );

    // Every face continues: always the cap.
    let s = Streak::capped(Die::D6, FaceSet::range(1, 6).unwrap(), -1, 4).unwrap();
    let law = s.distribution().unwrap();
    assert_eq!(law.outcomes(), &[3]);
    assert_rel(law.probabilities()[0], 1.0, REL, "always capped");
    assert_eq!(law.tail(), 0.0);
}

/// The law of `f(values)` for three compounding d6s (exploding on 6), each value listed up to
/// `MAX` and the rest lumped as `None` ("beyond"); `f` returns `None` when the outcome
/// involves a lumped die. For kept totals up to `MAX + 1` that cannot happen, so those are
/// exact.
fn three_compounding_d6(f: impl Fn(&mut [Option<usize>]) -> Option<i64>) -> BTreeMap<i64, f64> {
    const MAX: usize = 60;
    let one = d6_exploding_law(MAX);
    let beyond = d6_exploding_survival(MAX as i64);
    let values: Vec<(Option<usize>, f64)> = (1..=MAX)
        .filter(|v| one[*v] > 0.0)
        .map(|v| (Some(v), one[v]))
        .chain([(None, beyond)])
        .collect();
    let mut law = BTreeMap::new();
    for &(a, pa) in &values {
        for &(b, pb) in &values {
            for &(c, pc) in &values {
                let mut v = [a, b, c];
                if let Some(s) = f(&mut v) {
                    *law.entry(s).or_insert(0.0) += pa * pb * pc;
                }
            }
        }
    }
    law
}

/// Sorts values with the lumped `None` as the largest.
fn sort_beyond_last(v: &mut [Option<usize>]) {
    v.sort_by_key(|x| (x.is_none(), x.unwrap_or(0)));
}

#[test]
fn keep_highest_2_of_3_compounding_d6() {
    let p = pool(3, Die::D6)
        .exploding(Explode::compounding(Comparison::Exactly(6)))
        .unwrap();
    let law = sum(p, Keep::Highest(2), 0).distribution().unwrap();
    assert!(law.tail() <= dice_core::DEFAULT_TAIL_TOLERANCE);
    assert!((law.total() - 1.0).abs() <= 1e-12);
    let exact = three_compounding_d6(|v| {
        sort_beyond_last(v);
        Some((v[1]? + v[2]?) as i64)
    });
    for s in 2..=61i64 {
        let got = law.probability(&s);
        let want = exact.get(&s).copied().unwrap_or(0.0);
        assert!(
            (got - want).abs() <= law.tail() + 1e-13,
            "kh2 P({s}) = {got:e}, expected {want:e}"
        );
        // Keeping the top dice, totals up to the listed range are exact.
        if want > 0.0 {
            assert_rel(got, want, REL, &format!("kh2 P({s})"));
        } else {
            assert_eq!(got, 0.0, "kh2 P({s})");
        }
    }
    // Beyond 61 the enumeration misses the lumped dice, P(some die > 60) ≤ 3·6⁻¹⁰.
    let lumped = 3.0 * d6_exploding_survival(60);
    for (&s, got) in law.iter().filter(|(s, _)| **s > 61) {
        let want = exact.get(&s).copied().unwrap_or(0.0);
        assert!(
            (got - want).abs() <= law.tail() + lumped + 1e-13,
            "kh2 P({s})"
        );
    }
}

#[test]
fn keep_lowest_2_of_3_compounding_d6() {
    let p = pool(3, Die::D6)
        .exploding(Explode::compounding(Comparison::Exactly(6)))
        .unwrap();
    let law = sum(p, Keep::Lowest(2), 0).distribution().unwrap();
    assert!(law.tail() <= dice_core::DEFAULT_TAIL_TOLERANCE);
    assert!((law.total() - 1.0).abs() <= 1e-12);
    let exact = three_compounding_d6(|v| {
        sort_beyond_last(v);
        Some((v[0]? + v[1]?) as i64)
    });
    for s in 2..=61i64 {
        let got = law.probability(&s);
        let want = exact.get(&s).copied().unwrap_or(0.0);
        // A dropped die may lie beyond the listed range: exact up to the tail.
        assert!(
            (got - want).abs() <= law.tail() + 1e-13,
            "kl2 P({s}) = {got:e}, expected {want:e}"
        );
        if want > 1e-3 {
            assert_rel(got, want, 1e-12, &format!("kl2 P({s})"));
        }
    }
}

// =============================================================================================
// 3. Monte Carlo agreement
// =============================================================================================

/// Rolls per Monte Carlo test.
const N: u64 = 100_000;
/// Outcomes expected fewer times than this are lumped together.
const MIN_EXPECTED: f64 = 25.0;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Bucket<O> {
    Is(O),
    Rest,
}

/// Rolls `m` [`N`] times and checks every outcome's frequency within 5 standard errors of
/// its exact probability in `law`; outcomes expected fewer than [`MIN_EXPECTED`] times, and
/// the tail, form one bucket (enlarged with the next rarest outcomes until it is expected at
/// least [`MIN_EXPECTED`] times). An outcome the law calls impossible must never be rolled.
fn mc_check<M: Roll>(what: &str, m: &M, law: &Dist<M::Outcome>, seed: u64) {
    let nf = N as f64;
    assert!((law.total() - 1.0).abs() <= 1e-12, "{what}: total");
    let mut by_p: Vec<(M::Outcome, f64)> = law.iter().map(|(o, p)| (o.clone(), p)).collect();
    by_p.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut rest = law.tail();
    let mut first_big = 0;
    for (_, p) in &by_p {
        if p * nf < MIN_EXPECTED || (rest > 0.0 && rest * nf < MIN_EXPECTED) {
            rest += p;
            first_big += 1;
        } else {
            break;
        }
    }
    let mut exact: BTreeMap<Bucket<M::Outcome>, f64> = by_p[first_big..]
        .iter()
        .map(|(o, p)| (Bucket::Is(o.clone()), *p))
        .collect();
    if rest > 0.0 {
        exact.insert(Bucket::Rest, rest);
    }
    let mut observed: BTreeMap<Bucket<M::Outcome>, u64> = BTreeMap::new();
    let mut impossible = Vec::new();
    let mut r = rng(seed);
    for _ in 0..N {
        let o = m.roll(&mut r);
        let b = Bucket::Is(o.clone());
        let b = if exact.contains_key(&b) {
            b
        } else {
            if law.probability(&o) == 0.0 && law.tail() == 0.0 {
                impossible.push(o);
            }
            Bucket::Rest
        };
        *observed.entry(b).or_insert(0) += 1;
    }
    assert!(
        impossible.is_empty(),
        "{what}: impossible outcomes rolled: {impossible:?}"
    );
    let mut failures = Vec::new();
    for (b, &p) in &exact {
        let count = observed.get(b).copied().unwrap_or(0);
        let freq = count as f64 / nf;
        let se = (p * (1.0 - p) / nf).sqrt();
        if (freq - p).abs() > 5.0 * se + 1e-12 {
            failures.push(format!(
                "{b:?}: observed {count}, expected {:.1} (|z| = {:.2})",
                p * nf,
                (freq - p).abs() / se
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{what}: {} bucket(s) disagree:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

fn mc<M: Exact>(what: &str, m: &M, seed: u64) {
    let law = m.distribution().unwrap();
    mc_check(what, m, &law, seed);
}

#[test]
fn monte_carlo_die() {
    mc("d20", &Die::D20, 0xE0D20);
    mc("d6", &Die::D6, 0xE0D6);
}

#[test]
fn monte_carlo_sums() {
    mc("3d6+2", &sum(pool(3, Die::D6), Keep::All, 2), 0xE03D6);
    let mixed = pool(2, Die::D6)
        .with_dice(1, Die::D10, Source::Bonus)
        .unwrap();
    mc("2d6+1d10", &sum(mixed, Keep::All, 0), 0xE02D6);
    mc(
        "4d6kh3",
        &sum(pool(4, Die::D6), Keep::Highest(3), 0),
        0xE04D6,
    );
    mc(
        "4d10kl2",
        &sum(pool(4, Die::D10), Keep::Lowest(2), 0),
        0xE04D10,
    );
    mc(
        "3d8dh1",
        &sum(pool(3, d(8)), Keep::DropHighest(1), 3),
        0xE03D8,
    );
}

#[test]
fn monte_carlo_exploding_sums() {
    let six = Comparison::Exactly(6);
    let s = sum(
        pool(1, Die::D6).exploding(Explode::new(six)).unwrap(),
        Keep::All,
        0,
    );
    mc("d6!", &s, 0xE01);
    let s = sum(
        pool(3, Die::D6).exploding(Explode::new(six)).unwrap(),
        Keep::All,
        0,
    );
    mc("3d6!", &s, 0xE02);
    let s = sum(
        pool(3, Die::D6)
            .exploding(Explode::compounding(six))
            .unwrap(),
        Keep::Highest(2),
        0,
    );
    mc("3d6!! kh2", &s, 0xE03);
    let capped = Explode::new(Comparison::Exactly(10)).with_cap(2).unwrap();
    let s = sum(pool(3, Die::D10).exploding(capped).unwrap(), Keep::All, 0);
    mc("3d10! cap 2", &s, 0xE04);
}

#[test]
fn monte_carlo_versus_target() {
    let v = VersusTarget::new(sum(pool(2, Die::D6), Keep::All, 2), 9).unwrap();
    mc("2d6+2 vs 9", &v, 0xE05);
    let s = sum(
        pool(2, Die::D6)
            .exploding(Explode::new(Comparison::Exactly(6)))
            .unwrap(),
        Keep::All,
        0,
    );
    mc("2d6! vs 12", &VersusTarget::new(s, 12).unwrap(), 0xE06);
}

#[test]
fn monte_carlo_success_pools() {
    mc(
        "6d6 >=4",
        &SuccessPool::new(pool(6, Die::D6), Comparison::AtLeast(4)),
        0xE07,
    );
    let mixed = pool(3, Die::D6)
        .with_dice(2, Die::D10, Source::Bonus)
        .unwrap();
    mc(
        "3d6+2d10 >=5",
        &SuccessPool::new(mixed, Comparison::AtLeast(5)),
        0xE08,
    );
    let tens = pool(2, Die::D10)
        .exploding(Explode::new(Comparison::Exactly(10)))
        .unwrap();
    mc(
        "2d10!10 >=8",
        &SuccessPool::new(tens, Comparison::AtLeast(8)),
        0xE09,
    );
    let tens = pool(6, Die::D10)
        .exploding(Explode::new(Comparison::AtLeast(9)))
        .unwrap();
    mc(
        "6d10!>=9 >=7",
        &SuccessPool::new(tens, Comparison::AtLeast(7)),
        0xE0A,
    );
    let capped = Explode::new(Comparison::Exactly(10)).with_cap(2).unwrap();
    mc(
        "3d10!10 cap 2 >=8",
        &SuccessPool::new(
            pool(3, Die::D10).exploding(capped).unwrap(),
            Comparison::AtLeast(8),
        ),
        0xE0B,
    );
    let compounding = pool(4, Die::D6)
        .exploding(Explode::compounding(Comparison::Exactly(6)))
        .unwrap();
    mc(
        "4d6!! >=8",
        &SuccessPool::new(compounding, Comparison::AtLeast(8)),
        0xE0C,
    );
}

#[test]
fn monte_carlo_streaks() {
    let fluke = Streak::new(Die::D6, FaceSet::range(4, 6).unwrap(), 0).unwrap();
    mc("fluke", &fluke, 0xE0D);
    let damage = Streak::new(Die::D6, FaceSet::new([5, 6]).unwrap(), 1).unwrap();
    mc("damage", &damage, 0xE0E);
    let capped = Streak::capped(Die::D6, FaceSet::range(3, 6).unwrap(), 0, 4).unwrap();
    mc("capped streak", &capped, 0xE0F);
}

#[test]
fn monte_carlo_opposed() {
    let actor = SuccessPool::new(pool(4, Die::D10), Comparison::AtMost(6));
    let opposition = SuccessPool::new(pool(3, Die::D10), Comparison::AtMost(5));
    let c = Cancellation::new(actor, Some(opposition), 1).unwrap();
    mc("cancellation", &c, 0xE010);
    for (strict, seed) in [(false, 0xE011), (true, 0xE012)] {
        let rule = if strict {
            BlockRule::Strict
        } else {
            BlockRule::AtLeast
        };
        let fight = Blocking::new(
            SuccessPool::new(pool(3, Die::D6), Comparison::AtLeast(2)),
            pool(3, Die::D6),
            rule,
        );
        mc("3d6 vs 3d6", &fight, seed);
        let fight = Blocking::new(
            SuccessPool::new(pool(4, Die::D6), Comparison::AtLeast(2)),
            pool(2, d(8)),
            rule,
        );
        mc("4d6 vs 2d8", &fight, seed + 0x100);
        let fight = Blocking::new(
            SuccessPool::new(
                pool(4, d(12)),
                Comparison::OneOf(FaceSet::new([2, 5, 9, 12]).unwrap()),
            ),
            pool(3, Die::D10),
            rule,
        );
        mc("4d12 in{2,5,9,12} vs 3d10", &fight, seed + 0x200);
    }
}

// =============================================================================================
// 4. Properties of every law (proptest)
// =============================================================================================

/// Listed probabilities plus the tail add up to 1 within 1e-12, every probability is in
/// `[0, 1]`, the outcomes strictly increase.
fn law_is_sound<O: Ord + Clone + Debug>(law: &Dist<O>) -> Result<(), TestCaseError> {
    prop_assert!((law.total() - 1.0).abs() <= 1e-12, "total {}", law.total());
    prop_assert!((0.0..=1.0).contains(&law.tail()), "tail {}", law.tail());
    // Rounding may push a probability of (nearly) 1 a few ulps above 1: see
    // `probabilities_never_exceed_one`, which checks `[0, 1]` exactly.
    for &p in law.probabilities() {
        prop_assert!((0.0..=1.0 + 1e-12).contains(&p), "probability {p}");
    }
    prop_assert_eq!(law.outcomes().len(), law.probabilities().len());
    for w in law.outcomes().windows(2) {
        prop_assert!(
            w[0] < w[1],
            "outcomes not increasing: {:?} {:?}",
            w[0],
            w[1]
        );
    }
    Ok(())
}

fn comparison() -> impl Strategy<Value = Comparison> {
    prop_oneof![
        (-1i32..14).prop_map(Comparison::AtLeast),
        (-1i32..14).prop_map(Comparison::AtMost),
        (-1i32..14).prop_map(Comparison::Above),
        (-1i32..14).prop_map(Comparison::Below),
        (-1i32..14).prop_map(Comparison::Exactly),
        proptest::collection::vec(1u32..=14, 0..5)
            .prop_map(|v| Comparison::OneOf(FaceSet::new(v).unwrap())),
    ]
}

/// An explosion for a die of `sides`: `(threshold seed, compounding, cap)`; without a cap it
/// explodes on `≥ t` for some `t ≥ 2` (never every face), with a cap on any `≥ t`.
#[derive(Clone, Copy, Debug)]
struct ExplodeSpec {
    t_seed: u32,
    compound: bool,
    cap: Option<u32>,
}

fn explode_spec() -> impl Strategy<Value = Option<ExplodeSpec>> {
    proptest::option::of(
        (any::<u32>(), any::<bool>(), proptest::option::of(1u32..=4)).prop_map(
            |(t_seed, compound, cap)| ExplodeSpec {
                t_seed,
                compound,
                cap,
            },
        ),
    )
}

impl ExplodeSpec {
    fn build(self, sides: u32) -> Explode {
        let t = match self.cap {
            None => 2 + self.t_seed % (sides - 1),
            Some(_) => 1 + self.t_seed % sides,
        } as i32;
        let on = Comparison::AtLeast(t);
        let e = if self.compound {
            Explode::compounding(on)
        } else {
            Explode::new(on)
        };
        match self.cap {
            Some(c) => e.with_cap(c).unwrap(),
            None => e,
        }
    }
}

fn keep_of(which: u32, k_seed: u32, n: u32) -> Keep {
    let k = k_seed % (n + 1);
    match which % 5 {
        0 => Keep::All,
        1 => Keep::Highest(k),
        2 => Keep::Lowest(k),
        3 => Keep::DropHighest(k),
        _ => Keep::DropLowest(k),
    }
}

/// A success pool of `n` dice of `sides`, optionally with `extra` dice of another size, and
/// optionally exploding.
fn success_pool(
    n: u32,
    sides: u32,
    extra: (u32, u32),
    explode: Option<ExplodeSpec>,
    success: Comparison,
) -> SuccessPool {
    let mut p = pool(n, d(sides));
    if extra.0 > 0 {
        p = p.with_dice(extra.0, d(extra.1), Source::Bonus).unwrap();
    }
    if let Some(e) = explode {
        let smallest = if extra.0 > 0 {
            sides.min(extra.1)
        } else {
            sides
        };
        p = p.exploding(e.build(smallest)).unwrap();
    }
    SuccessPool::new(p, success)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sum_laws_are_sound(
        n in 0u32..12, sides in 2u32..=12, which in 0u32..5, k_seed in any::<u32>(),
        modifier in -20i64..20, explode in explode_spec(),
    ) {
        let keep = keep_of(which, k_seed, n);
        let mut p = pool(n, d(sides));
        if let Some(e) = explode {
            p = p.exploding(e.build(sides)).unwrap();
        }
        let s = sum(p, keep, modifier);
        let law = match s.distribution() {
            Ok(law) => law,
            Err(Error::TooComplex { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
        };
        law_is_sound(&law)?;
        let k = i64::from(keep.kept_of(n));
        // Explosions that add dice: every die is worth at most `sides`, and keep/drop picks
        // among all the dice rolled, so a drop rule keeps from `n − k` to (at the cap)
        // `n·(cap + 1) − k` of them; keeping every die keeps `n` to `n·(cap + 1)`.
        let adds = explode.is_some_and(|e| !e.compound);
        let (kept_lo, kept_hi, per_die_max) = if adds {
            let cap = explode.and_then(|e| e.cap);
            let most = cap.map(|c| i64::from(n) * (i64::from(c) + 1));
            let drops = match keep {
                Keep::All => Some(0),
                Keep::DropHighest(d) | Keep::DropLowest(d) => Some(i64::from(d)),
                _ => None,
            };
            match drops {
                Some(d) => (i64::from(n) - d, most.map(|m| m - d), Some(i64::from(sides))),
                None => (k, Some(k), Some(i64::from(sides))),
            }
        } else {
            let m = match explode.map(|e| e.cap) {
                None => Some(i64::from(sides)),
                Some(Some(cap)) => Some(i64::from(sides) * (i64::from(cap) + 1)),
                Some(None) => None,
            };
            (k, Some(k), m)
        };
        let lo = kept_lo.max(0) + modifier;
        for &o in law.outcomes() {
            prop_assert!(o >= lo, "{o} below {lo}");
            if let (Some(m), Some(kh)) = (per_die_max, kept_hi) {
                prop_assert!(o <= kh * m + modifier, "{o} above {}", kh * m + modifier);
            }
        }
        let finite = explode.is_none_or(|e| e.cap.is_some());
        if finite {
            prop_assert_eq!(law.tail(), 0.0);
        }
    }

    #[test]
    fn success_laws_are_sound(
        n in 0u32..12, sides in 2u32..=12, extra in (0u32..4, 2u32..=12),
        explode in explode_spec(), success in comparison(),
    ) {
        let sp = success_pool(n, sides, extra, explode, success);
        let law = match sp.distribution() {
            Ok(law) => law,
            Err(Error::TooComplex { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
        };
        law_is_sound(&law)?;
        let dice = n + extra.0;
        let most = match explode {
            Some(ExplodeSpec { compound: false, cap: Some(c), .. }) => Some(dice * (c + 1)),
            Some(ExplodeSpec { compound: false, cap: None, .. }) => None,
            _ => Some(dice),
        };
        if let Some(m) = most {
            prop_assert!(law.outcomes().iter().all(|&o| o <= m));
            prop_assert_eq!(law.tail(), 0.0);
        }
    }

    #[test]
    fn streak_laws_are_sound(
        sides in 2u32..=12, faces in proptest::collection::vec(1u32..=12, 0..12),
        base in -5i64..5, cap in proptest::option::of(1u32..30),
    ) {
        let set = FaceSet::new(faces.iter().copied()).unwrap();
        let die = d(sides);
        let s = match cap {
            Some(c) => Streak::capped(die, set, base, c).unwrap(),
            None => match Streak::new(die, set, base) {
                Ok(s) => s,
                Err(Error::Endless { .. }) => {
                    prop_assert_eq!(set.count_within(sides), sides);
                    return Ok(());
                }
                Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
            },
        };
        let law = s.distribution().unwrap();
        law_is_sound(&law)?;
        prop_assert!(law.outcomes().iter().all(|&o| o >= base));
        if let Some(c) = cap {
            prop_assert_eq!(law.tail(), 0.0);
            prop_assert!(law.outcomes().iter().all(|&o| o <= base + i64::from(c)));
        }
    }

    #[test]
    fn cancellation_laws_are_sound(
        na in 0u32..12, sa in 2u32..=12, ea in explode_spec(), ca in comparison(),
        no in 0u32..12, so in 2u32..=12, eo in explode_spec(), co in comparison(),
        opposed in any::<bool>(), difficulty in 0u32..5,
    ) {
        let actor = success_pool(na, sa, (0, 2), ea, ca);
        let opposition = opposed.then(|| success_pool(no, so, (0, 2), eo, co));
        let c = Cancellation::new(actor, opposition, difficulty).unwrap();
        let law = match c.distribution() {
            Ok(law) => law,
            Err(Error::TooComplex { .. }) => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
        };
        law_is_sound(&law)?;
        let bounded = |e: Option<ExplodeSpec>| !matches!(e, Some(ExplodeSpec { compound: false, .. }));
        if bounded(ea) && (!opposed || bounded(eo)) {
            let lo = -i64::from(if opposed { no } else { 0 }) - i64::from(difficulty);
            let hi = i64::from(na) - i64::from(difficulty);
            prop_assert!(law.outcomes().iter().all(|&o| (lo..=hi).contains(&o)));
        }
    }

    #[test]
    fn blocking_laws_are_sound(
        na in 0u32..=4, sa in 2u32..=12, nd in 0u32..=4, sd in 2u32..=12,
        hit in comparison(), strict in any::<bool>(),
    ) {
        let rule = if strict { BlockRule::Strict } else { BlockRule::AtLeast };
        let fight = Blocking::new(SuccessPool::new(pool(na, d(sa)), hit), pool(nd, d(sd)), rule);
        let law = fight.distribution().unwrap();
        law_is_sound(&law)?;
        prop_assert_eq!(law.tail(), 0.0);
        prop_assert!(law.outcomes().iter().all(|&o| o <= na));
    }

    /// Small random contests against enumeration and the brute-force matching.
    #[test]
    fn blocking_matches_enumeration(
        na in 0u32..=3, sa in 2u32..=6, nd in 0u32..=3, sd in 2u32..=6,
        hit_from in 1i32..=6, strict in any::<bool>(),
    ) {
        check_blocking(na, sa, nd, sd, hit_from, strict);
    }

    /// Small random keep/drop sums against enumeration.
    #[test]
    fn keep_matches_enumeration(
        n in 0u32..=4, sides in 2u32..=7, which in 0u32..5, k_seed in any::<u32>(),
        modifier in -3i64..3,
    ) {
        let keep = keep_of(which, k_seed, n);
        let law = sum(pool(n, d(sides)), keep, modifier).distribution().unwrap();
        let exact = enumerate(&vec![sides; n as usize], |f| kept_sum(f, keep) + modifier);
        assert_law(&format!("{n}d{sides} {keep:?}"), &law, &exact);
    }
}

// =============================================================================================
// 5. The Dist API
// =============================================================================================

/// 2d6 by enumeration, as integer counts out of 36.
fn two_d6_counts() -> BTreeMap<i64, u32> {
    let mut c = BTreeMap::new();
    for a in 1..=6 {
        for b in 1..=6 {
            *c.entry(a + b).or_insert(0) += 1;
        }
    }
    c
}

fn two_d6() -> Dist<i64> {
    sum(pool(2, Die::D6), Keep::All, 0).distribution().unwrap()
}

#[test]
fn dist_cdf_survival_of_2d6() {
    let law = two_d6();
    let counts = two_d6_counts();
    for v in -1..=15i64 {
        let below: u32 = counts.range(..=v).map(|(_, c)| c).sum();
        let above: u32 = counts.range(v..).map(|(_, c)| c).sum();
        let cdf = f64::from(below) / 36.0;
        let surv = f64::from(above) / 36.0;
        assert!((law.cdf(&v) - cdf).abs() <= 1e-15, "cdf({v})");
        assert!((law.survival(&v) - surv).abs() <= 1e-15, "survival({v})");
        let p = f64::from(counts.get(&v).copied().unwrap_or(0)) / 36.0;
        assert!((law.probability(&v) - p).abs() <= 1e-15, "P({v})");
        // cdf(v) + survival(v) = 1 + P(v).
        assert!((law.cdf(&v) + law.survival(&v) - 1.0 - p).abs() <= 1e-15);
    }
    let sevens = law.probability_where(|&v| v % 7 == 0);
    assert!((sevens - 6.0 / 36.0).abs() <= 1e-15);
    assert_eq!(law.mode(), Some(7));
    assert_eq!(law.len(), 11);
    assert!(!law.is_empty());
}

#[test]
fn dist_quantile_of_2d6() {
    let law = two_d6();
    let counts = two_d6_counts();
    // The smallest v whose cumulative count reaches 36·q (up to rounding).
    let oracle = |q: f64| {
        let mut acc = 0u32;
        for (&v, &c) in &counts {
            acc += c;
            if f64::from(acc) >= 36.0 * q - 1e-9 {
                return Some(v);
            }
        }
        None
    };
    let mut qs: Vec<f64> = (0..=36).map(|k| f64::from(k) / 36.0).collect();
    qs.extend((0..36).map(|k| (f64::from(k) + 0.5) / 36.0));
    qs.extend([0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0]);
    for q in qs {
        assert_eq!(law.quantile(q), oracle(q), "quantile({q})");
    }
    assert_eq!(law.quantile(0.5), Some(7));
    assert_eq!(law.quantile(-0.01), None);
    assert_eq!(law.quantile(1.01), None);
    assert_eq!(law.quantile(f64::NAN), None);
    // A quantile that falls in the unlisted tail is None.
    let exploding = sum(
        pool(1, Die::D6)
            .exploding(Explode::new(Comparison::Exactly(6)))
            .unwrap(),
        Keep::All,
        0,
    )
    .distribution_within(1e-3)
    .unwrap();
    assert!(exploding.tail() > 1e-12 && exploding.tail() <= 1e-3);
    assert_eq!(exploding.quantile(1.0), None);
    assert_eq!(exploding.quantile(0.5), Some(3));
}

#[test]
fn dist_moments_of_2d6() {
    let law = two_d6();
    let counts = two_d6_counts();
    let mean_num: i64 = counts.iter().map(|(&v, &c)| v * i64::from(c)).sum();
    let mean = mean_num as f64 / 36.0;
    // Σ c·(36v − Σ)² / 36³, in integers.
    let var_num: i64 = counts
        .iter()
        .map(|(&v, &c)| i64::from(c) * (36 * v - mean_num).pow(2))
        .sum();
    let var = var_num as f64 / 36f64.powi(3);
    assert_rel(law.mean(), mean, REL, "mean");
    assert_rel(mean, 7.0, 0.0, "mean is 7");
    assert_rel(law.variance(), var, REL, "variance");
    assert_rel(var, 35.0 / 6.0, REL, "variance is 35/6");
    assert_rel(law.std_dev(), var.sqrt(), REL, "std_dev");
}

#[test]
fn dist_difference_add_shift() {
    let d6 = Die::D6.distribution().unwrap();
    let diff = d6.difference(&d6);
    let exact: BTreeMap<i64, f64> = (-5..=5i64)
        .map(|x| (x, (6 - x.abs()) as f64 / 36.0))
        .collect();
    assert_law("d6 − d6", &diff, &exact);

    let d10 = Die::D10.distribution().unwrap();
    let exact = enumerate(&[6, 10], |f| i64::from(f[0]) - i64::from(f[1]));
    assert_law("d6 − d10", &d6.difference(&d10), &exact);
    let exact = enumerate(&[10, 6], |f| i64::from(f[0]) - i64::from(f[1]));
    assert_law("d10 − d6", &d10.difference(&d6), &exact);

    let exact = enumerate(&[6, 10], |f| i64::from(f[0] + f[1]));
    assert_law("d6 + d10", &d6.add(&d10), &exact);
    assert_law(
        "2d6 via add",
        &d6.add(&d6),
        &enumerate(&[6, 6], |f| i64::from(f[0] + f[1])),
    );

    let exact = enumerate(&[6], |f| i64::from(f[0]) - 4);
    assert_law("d6 − 4", &d6.shift(-4), &exact);

    // Tails combine as 1 − (1 − a)(1 − b).
    let a = Dist::from_pairs([(1i64, 0.5), (2, 0.25)]).unwrap();
    let b = Dist::from_pairs([(0i64, 0.9)]).unwrap();
    let diff = a.difference(&b);
    assert_rel(diff.tail(), 1.0 - 0.75 * 0.9, REL, "difference tail");
    assert_rel(diff.probability(&1), 0.45, REL, "difference P(1)");
    assert!((diff.total() - 1.0).abs() <= 1e-15);
    let added = a.add(&b);
    assert_rel(added.tail(), 1.0 - 0.75 * 0.9, REL, "add tail");
}

#[test]
fn dist_joint() {
    let d6 = Die::D6.distribution().unwrap();
    let d4 = d(4).distribution().unwrap();
    let joint = d6.joint(&d4);
    let exact = enumerate(&[6, 4], |f| (f[0], f[1]));
    assert_law("d6 × d4", &joint, &exact);
    // Lexicographic order.
    let expected: Vec<(u32, u32)> = (1..=6).flat_map(|a| (1..=4).map(move |b| (a, b))).collect();
    assert_eq!(joint.outcomes(), &expected[..]);
    // The tail of the pair: either component unlisted.
    let a = Dist::from_pairs([("x", 0.8)]).unwrap();
    let b = Dist::from_pairs([(true, 0.5), (false, 0.25)]).unwrap();
    let j = a.joint(&b);
    assert_rel(j.tail(), 1.0 - 0.8 * 0.75, REL, "joint tail");
    assert_rel(j.probability(&("x", true)), 0.4, REL, "joint P(x, true)");
}

#[test]
fn dist_map() {
    let law = two_d6();
    let exact = enumerate(&[6, 6], |f| (f[0] + f[1]) / 4);
    let mapped = law.map(|&v| v as u32 / 4);
    assert_law("2d6 / 4", &mapped, &exact);
    let parity = Die::D6.distribution().unwrap().map(|&f| f % 2 == 0);
    assert_eq!(parity.outcomes(), &[false, true]);
    assert_rel(parity.probability(&true), 0.5, REL, "even");
    // The tail is carried over.
    let exploding = sum(
        pool(1, Die::D6)
            .exploding(Explode::new(Comparison::Exactly(6)))
            .unwrap(),
        Keep::All,
        0,
    )
    .distribution_within(1e-12)
    .unwrap();
    let m = exploding.map(|&v| v > 6);
    assert_eq!(m.tail(), exploding.tail());
    assert!((m.total() - 1.0).abs() <= 1e-15);
    assert_rel(m.probability(&false), 5.0 / 6.0, REL, "d6! ≤ 6");
}

#[test]
fn dist_from_pairs_and_certain() {
    let bad =
        |pairs: Vec<(i32, f64)>| matches!(Dist::from_pairs(pairs), Err(Error::Probability { .. }));
    assert!(bad(vec![(1, -0.1), (2, 0.5)]));
    assert!(bad(vec![(1, -1e-300)]));
    assert!(bad(vec![(1, f64::NAN)]));
    assert!(bad(vec![(1, f64::INFINITY)]));
    assert!(bad(vec![(1, 0.7), (2, 0.7)]));
    assert!(bad(vec![(1, 1.5)]));
    assert!(bad(vec![(1, 0.6), (1, 0.6)]));
    // Rounding up to 1e-9 over one is allowed.
    assert!(Dist::from_pairs([(1, 0.5), (2, 0.5 + 1e-10)]).is_ok());

    let law = Dist::from_pairs([(3, 0.25), (1, 0.25), (3, 0.25), (2, 0.0)]).unwrap();
    assert_eq!(law.outcomes(), &[1, 3]);
    assert_eq!(law.probabilities(), &[0.25, 0.5]);
    assert_rel(law.tail(), 0.25, REL, "from_pairs tail");
    assert!((law.total() - 1.0).abs() <= 1e-15);

    let empty = Dist::<i32>::from_pairs([]).unwrap();
    assert!(empty.is_empty());
    assert_eq!(empty.tail(), 1.0);
    assert_eq!(empty.mode(), None);

    let c = Dist::certain(4i64);
    assert_eq!(c.probability(&4), 1.0);
    assert_eq!(c.tail(), 0.0);
    assert_eq!(c.mean(), 4.0);
    assert_eq!(c.variance(), 0.0);
}

/// `Exact` through a reference gives the same law.
#[test]
fn exact_through_a_reference() {
    let s = sum(pool(2, Die::D6), Keep::All, 0);
    fn through<M: Exact>(m: M) -> Dist<M::Outcome> {
        m.distribution().unwrap()
    }
    assert_eq!(through(&s), s.distribution().unwrap());
}

// =============================================================================================
// 6. Regressions: exploding tails, mixed exploding pools, probabilities above one
// =============================================================================================

/// 1d6 + 1d10 exploding on ≥ 6 (a d6 explodes on 6, a d10 on 6–10): each die's law by its
/// own recursion, `f(v) = [v ≤ s, v does not explode]/s + Σ_{e explodes, e < v} f(v − e)/s`,
/// convolved; every listed total must agree.
///
/// dice-core lists each part's value law to its own length (the d6 to about 120, the d10 to
/// about 410) but treats every total up to the longest one plus `n − 1` as exact, so totals
/// above about 121 miss the d6 values beyond its listing (relative error up to 9e-12).
#[test]
fn mixed_exploding_sum_lists_exact_probabilities() {
    let p = pool(1, Die::D6)
        .with_dice(1, Die::D10, Source::Bonus)
        .unwrap()
        .exploding(Explode::new(Comparison::AtLeast(6)))
        .unwrap();
    let law = sum(p, Keep::All, 0).distribution().unwrap();
    let last = *law.outcomes().last().unwrap() as usize;
    let die_law = |s: usize, max: usize| {
        let mut f = vec![0.0; max + 1];
        for v in 1..=max {
            let mut x = if v <= s && v < 6 { 1.0 / s as f64 } else { 0.0 };
            for e in 6..=s {
                if e < v {
                    x += f[v - e] / s as f64;
                }
            }
            f[v] = x;
        }
        f
    };
    let exact = convolve(&die_law(6, last + 10), &die_law(10, last + 10));
    let mut bad = Vec::new();
    let mut worst = (0.0f64, 0i64);
    for (&t, p) in law.iter() {
        let q = exact[t as usize];
        if !rel_close(p, q, REL) {
            let err = (p - q).abs() / q;
            if err > worst.0 {
                worst = (err, t);
            }
            bad.push(format!(
                "P({t}) = {p:e}, expected {q:e} (relative error {err:.3e})"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} listed totals disagree (last listed {last}, tail {:e}); worst relative error \
         {:.3e} at {}; the first ones:\n  {}",
        bad.len(),
        law.len(),
        law.tail(),
        worst.0,
        worst.1,
        bad[..bad.len().min(5)].join("\n  ")
    );
}

/// `P(X₁ + X₂ + X₃ > l)` for three d6s exploding on a 6, as sums of non-negative terms:
/// `P(X + Y + Z > l) = Σ_{a<l} f(a)·P(Y + Z > l − a) + P(X ≥ l)`, likewise for two dice.
fn three_d6_exploding_survival(l: i64) -> f64 {
    let f = d6_exploding_law(l.max(1) as usize);
    let s = |x: i64| if x < 0 { 1.0 } else { d6_exploding_survival(x) };
    let two = |m: i64| -> f64 { (1..m).map(|b| f[b as usize] * s(m - b)).sum::<f64>() + s(m - 1) };
    (1..l).map(|a| f[a as usize] * two(l - a)).sum::<f64>() + s(l - 1)
}

/// The tail of an exploding sum should be the mass beyond the listed totals, `P(total >
/// last listed)`, which the test computes as a sum of non-negative terms. dice-core reports
/// `max(0, 1 − Σ listed)` instead: rounding noise of about 1e-16, often exactly 0.
#[test]
fn exploding_sum_tail_is_the_unlisted_mass() {
    let mut bad = Vec::new();
    let six = Comparison::Exactly(6);
    for (n, tol) in [(1, 1e-12), (1, 1e-15), (1, 1e-30), (3, 1e-12), (3, 1e-15)] {
        let law = sum(
            pool(n, Die::D6).exploding(Explode::new(six)).unwrap(),
            Keep::All,
            0,
        )
        .distribution_within(tol)
        .unwrap();
        let last = *law.outcomes().last().unwrap();
        let exact = if n == 1 {
            d6_exploding_survival(last)
        } else {
            three_d6_exploding_survival(last)
        };
        if !rel_close(law.tail(), exact, 1e-6) {
            bad.push(format!(
                "{n}d6! within {tol:e}: listed up to {last}, tail {:e}, P(total > {last}) = \
                 {exact:e}",
                law.tail()
            ));
        }
    }
    assert!(bad.is_empty(), "\n  {}", bad.join("\n  "));
}

/// Ordinary exploding pools at the default tolerance, down to a single d6 exploding on 2–6:
/// the tail estimate `1 − Σ listed` is rounding noise (1e-15 to 3e-15) above
/// `DEFAULT_TAIL_TOLERANCE` (1e-15), so the listing is doubled until the work limit and
/// `TooComplex` comes back.
#[test]
fn exploding_laws_at_the_default_tolerance_are_computed() {
    let mut bad = Vec::new();
    let exploding = |n: u32, sides: u32, on: i32, compound: bool| {
        let on = Comparison::AtLeast(on);
        let e = if compound {
            Explode::compounding(on)
        } else {
            Explode::new(on)
        };
        pool(n, d(sides)).exploding(e).unwrap()
    };
    for (n, sides, on, compound, keep) in [
        (1, 6, 2, false, Keep::All),
        (4, 8, 5, false, Keep::All),
        (3, 9, 3, true, Keep::All),
        (2, 11, 2, true, Keep::Highest(2)),
        (8, 3, 2, false, Keep::All),
        (10, 8, 7, false, Keep::All),
    ] {
        let s = sum(exploding(n, sides, on, compound), keep, 0);
        match s.distribution() {
            Ok(law) if (law.total() - 1.0).abs() <= 1e-12 => {}
            Ok(law) => bad.push(format!("{s}: total {}", law.total())),
            Err(e) => bad.push(format!("{s}: {e}")),
        }
    }
    for (n, sides, on, from) in [
        (1, 9, 2, 4),
        (5, 3, 2, 2),
        (12, 20, 20, 2),
        (20, 20, 20, 11),
        (30, 10, 9, 9),
    ] {
        let sp = SuccessPool::new(exploding(n, sides, on, false), Comparison::AtLeast(from));
        match sp.distribution() {
            Ok(law) if (law.total() - 1.0).abs() <= 1e-12 => {}
            Ok(law) => bad.push(format!("{sp}: total {}", law.total())),
            Err(e) => bad.push(format!("{sp}: {e}")),
        }
        let c = Cancellation::new(sp.clone(), Some(sp.clone()), 0).unwrap();
        if let Err(e) = c.distribution() {
            bad.push(format!("{c}: {e}"));
        }
    }
    assert!(bad.is_empty(), "\n  {}", bad.join("\n  "));
}

/// Every probability of a `Dist` should lie in `[0, 1]`; a certain outcome computed through a
/// product or a dynamic program comes out a few ulps above 1.
#[test]
fn probabilities_never_exceed_one() {
    let mut bad = Vec::new();
    // No face hits: unblocked = 0 with probability 1.
    let fight = Blocking::new(
        SuccessPool::new(pool(1, Die::D6), Comparison::Exactly(0)),
        pool(1, d(8)),
        BlockRule::AtLeast,
    );
    let law = fight.distribution().unwrap();
    for (o, p) in law.iter() {
        if p > 1.0 {
            bad.push(format!("{fight}: P({o}) = {p:?}"));
        }
    }
    // Keep none of 4 capped compounding d5s: the total is 0 with probability 1.
    let every = Explode::compounding(Comparison::AtLeast(1))
        .with_cap(1)
        .unwrap();
    let s = sum(pool(4, d(5)).exploding(every).unwrap(), Keep::Highest(0), 0);
    let law = s.distribution().unwrap();
    for (o, p) in law.iter() {
        if p > 1.0 {
            bad.push(format!("{s}: P({o}) = {p:?}"));
        }
    }
    assert!(bad.is_empty(), "\n  {}", bad.join("\n  "));
}

// =============================================================================================
// 7. Accuracy at the extremes of the issue's workloads: 1e-12 relative to closed forms
// =============================================================================================

/// 100d6 and 50d100: the extreme totals have closed forms (`6⁻¹⁰⁰`, `100·6⁻¹⁰⁰`, `100⁻⁵⁰`)
/// that a subtraction-based convolution would lose entirely.
#[test]
fn wide_sums_are_accurate_in_the_tails() {
    let d = sum(pool(100, Die::D6), Keep::All, 0)
        .distribution()
        .unwrap();
    let p = (1.0f64 / 6.0).powi(100);
    assert_rel(d.probability(&100), p, 1e-12, "P(100d6 = 100)");
    assert_rel(d.probability(&101), 100.0 * p, 1e-12, "P(100d6 = 101)");
    // 102: two dice show 2, or one shows 3: C(100, 2) + 100 ways.
    assert_rel(
        d.probability(&102),
        (4950.0 + 100.0) * p,
        1e-12,
        "P(100d6 = 102)",
    );
    assert_rel(d.probability(&600), p, 1e-12, "P(100d6 = 600)");
    assert_rel(d.mean(), 350.0, 1e-12, "mean of 100d6");
    assert_rel(
        d.variance(),
        100.0 * 35.0 / 12.0,
        1e-12,
        "variance of 100d6",
    );
    let d = sum(pool(50, Die::D100), Keep::All, 0)
        .distribution()
        .unwrap();
    assert_rel(
        d.probability(&50),
        0.01f64.powi(50),
        1e-12,
        "P(50d100 = 50)",
    );
    assert_rel(
        d.probability(&5000),
        0.01f64.powi(50),
        1e-12,
        "P(50d100 = 5000)",
    );
    assert_rel(d.mean(), 50.0 * 50.5, 1e-12, "mean of 50d100");
}

/// 100d6 drop lowest 10: the least total (90, every die a 1) and the greatest (540: at
/// least 90 sixes) against the binomial law written out here.
#[test]
fn drop_lowest_is_accurate_in_the_tails() {
    let d = sum(pool(100, Die::D6), Keep::DropLowest(10), 0)
        .distribution()
        .unwrap();
    assert_rel(d.probability(&90), (1.0f64 / 6.0).powi(100), 1e-12, "P(90)");
    let mut top = 0.0;
    for j in 90..=100u32 {
        // C(100, j) as a product, then (1/6)^j (5/6)^(100 − j).
        let c = (0..(100 - j)).fold(1.0, |a, i| a * f64::from(100 - i) / f64::from(i + 1));
        top += c * (1.0f64 / 6.0).powi(j as i32) * (5.0f64 / 6.0).powi((100 - j) as i32);
    }
    assert_rel(d.probability(&540), top, 1e-12, "P(540)");
}

/// 1,000 d10 counting ≤ 5: P(0) = 2⁻¹⁰⁰⁰ (near the bottom of f64) and P(500) = C(1000, 500)/2¹⁰⁰⁰,
/// built as a product of factors near one.
#[test]
fn thousand_dice_binomial_is_accurate() {
    let d = SuccessPool::new(pool(1000, Die::D10), Comparison::AtMost(5))
        .distribution()
        .unwrap();
    assert_rel(d.probability(&0), 0.5f64.powi(1000), 1e-12, "P(0)");
    let middle = (1..=500).fold(1.0, |a, i| a * f64::from(500 + i) / f64::from(i) * 0.25);
    assert_rel(d.probability(&500), middle, 1e-12, "P(500)");
}

/// 10 and 100 exploding d10s counting ≥ 8: no success at all means every die shows 1–7
/// (a 10 is itself a success), so P(0) = 0.7ⁿ; the mean count per die is
/// (0.2 + 0.1) / (1 − 0.1) = 1/3.
#[test]
fn exploding_counts_are_accurate() {
    for n in [10u32, 100] {
        let p = pool(n, Die::D10)
            .exploding(Explode::new(Comparison::Exactly(10)))
            .unwrap();
        let d = SuccessPool::new(p, Comparison::AtLeast(8))
            .distribution()
            .unwrap();
        assert_rel(d.probability(&0), 0.7f64.powi(n as i32), 1e-12, "P(0)");
        assert_rel(d.mean(), f64::from(n) / 3.0, 1e-12, "mean");
        assert!(d.tail() <= dice_core::DEFAULT_TAIL_TOLERANCE);
    }
}

// =============================================================================================
// Keep/drop among the dice explosions add; penetrating dice; unique dice (issue 17)
// =============================================================================================

/// Every chain one die can start, followed to at most `depth` extra dice: `(values, chance)`,
/// and the chance of the chains cut there (left out). The rules are played out literally: a
/// die whose natural face passes `explodes` rolls another (unless `cap` extra dice were
/// rolled); with `penetrate` each die after the first counts its face less one. Chains with
/// the same values in another order are merged (keep/drop and sums only see the values).
fn chains_to_depth(
    sides: u32,
    explodes: &dyn Fn(u32) -> bool,
    cap: Option<u32>,
    penetrate: bool,
    depth: u32,
) -> (Vec<(Vec<i64>, f64)>, f64) {
    let mut out: BTreeMap<Vec<i64>, f64> = BTreeMap::new();
    let inv = 1.0 / f64::from(sides);
    // Chains whose last die goes on, by their sorted values.
    let mut open: BTreeMap<Vec<i64>, f64> = BTreeMap::new();
    for f in 1..=sides {
        let target = if explodes(f) && cap != Some(0) {
            &mut open
        } else {
            &mut out
        };
        *target.entry(vec![i64::from(f)]).or_insert(0.0) += inv;
    }
    let mut extra = 0;
    while !open.is_empty() {
        if extra == depth {
            let cut = open.values().sum();
            return (out.into_iter().collect(), cut);
        }
        extra += 1;
        let reached_cap = cap == Some(extra);
        let mut next = BTreeMap::new();
        for (values, w) in &open {
            for f in 1..=sides {
                let mut v = values.clone();
                v.push(i64::from(f) - i64::from(penetrate));
                v.sort_unstable();
                let target = if explodes(f) && !reached_cap {
                    &mut next
                } else {
                    &mut out
                };
                *target.entry(v).or_insert(0.0) += w * inv;
            }
        }
        open = next;
    }
    (out.into_iter().collect(), 0.0)
}

/// The law of `keep` over the dice of `n` independent chains, by folding the chains one at a
/// time into a state that holds every die's total and the `k` dice keep/drop singles out
/// (highest or lowest) as a sorted list; and the mass the cut chains leave out.
fn brute_keep_over_chains(n: u32, chains: &[(Vec<i64>, f64)], keep: Keep) -> BTreeMap<i64, f64> {
    // (k, the k highest?, kept are the singled out?)
    let (k, highest, singled_kept) = match keep {
        Keep::All => (0, true, false),
        Keep::Highest(k) => (k, true, true),
        Keep::Lowest(k) => (k, false, true),
        Keep::DropHighest(k) => (k, true, false),
        Keep::DropLowest(k) => (k, false, false),
    };
    let mut states: BTreeMap<(Vec<i64>, i64), f64> = BTreeMap::new();
    states.insert((Vec::new(), 0), 1.0);
    for _ in 0..n {
        let mut next = BTreeMap::new();
        for ((singled, total), w) in &states {
            for (values, q) in chains {
                let mut s = singled.clone();
                s.extend(values);
                s.sort_unstable();
                if highest {
                    s.reverse();
                }
                s.truncate(k as usize);
                // The total only matters when the singled-out dice are the dropped ones.
                let t = if singled_kept {
                    0
                } else {
                    total + values.iter().sum::<i64>()
                };
                *next.entry((s, t)).or_insert(0.0) += w * q;
            }
        }
        states = next;
    }
    let mut law = BTreeMap::new();
    for ((singled, total), w) in states {
        let s: i64 = singled.iter().sum();
        let kept = if singled_kept { s } else { total - s };
        *law.entry(kept).or_insert(0.0) += w;
    }
    law
}

/// A pool of `n` dice of `sides` exploding on `on` (additional or penetrating, capped or not).
fn exploding_pool(n: u32, sides: u32, on: Comparison, cap: Option<u32>, penetrate: bool) -> Pool {
    let e = if penetrate {
        Explode::penetrating(on)
    } else {
        Explode::new(on)
    };
    let e = match cap {
        Some(c) => e.with_cap(c).unwrap(),
        None => e,
    };
    pool(n, d(sides)).exploding(e).unwrap()
}

/// dice-core's law against the chains enumerated to `depth`: every outcome within the cut
/// mass (plus rounding), the tail within the tolerance, the total 1.
/// One keep/drop case over exploding dice: `(n, sides, explode on, cap, penetrating, keep)`.
type ChainCase = (u32, u32, Comparison, Option<u32>, bool, Keep);

fn check_against_chains(what: &str, case: ChainCase, depth: u32) -> f64 {
    let (n, sides, on, cap, penetrate, keep) = case;
    let (chains, cut) = chains_to_depth(sides, &|f| on.test(i64::from(f)), cap, penetrate, depth);
    let brute = brute_keep_over_chains(n, &chains, keep);
    let law = sum(exploding_pool(n, sides, on, cap, penetrate), keep, 0)
        .distribution()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let lost = f64::from(n) * cut;
    let mut worst: f64 = 0.0;
    for (o, &p) in &brute {
        worst = worst.max((law.probability(o) - p).abs());
    }
    for (o, p) in law.iter() {
        worst = worst.max((brute.get(o).copied().unwrap_or(0.0) - p).abs());
    }
    assert!(
        worst <= lost + 1e-12,
        "{what}: differs from the enumerated chains by {worst:e} (cut mass {lost:e})"
    );
    assert!(law.tail() <= 1e-15, "{what}: tail {:e}", law.tail());
    if cap.is_some() {
        assert_eq!(law.tail(), 0.0, "{what}: a capped law has no tail");
    }
    assert!(
        (law.total() - 1.0).abs() <= 1e-12,
        "{what}: total {}",
        law.total()
    );
    worst
}

#[test]
fn keep_drop_among_added_dice_matches_enumerated_chains() {
    // The cases of benches/peers/keep_exploding.py (whose icepool laws agree with these to
    // about 1e-15), and more: (n, sides, lowest exploding face, keep, cap).
    let cases: &[(u32, u32, i32, Keep, Option<u32>)] = &[
        (5, 6, 6, Keep::Highest(3), None),
        (10, 10, 10, Keep::Highest(5), None),
        (3, 10, 9, Keep::Lowest(2), None),
        (4, 6, 6, Keep::DropLowest(1), None),
        (2, 8, 7, Keep::DropHighest(1), None),
        (6, 4, 4, Keep::Highest(2), None),
        (2, 20, 20, Keep::Lowest(1), None),
        (5, 6, 6, Keep::Highest(3), Some(3)),
        (4, 6, 5, Keep::DropLowest(1), Some(2)),
        (3, 10, 9, Keep::Lowest(2), Some(4)),
        (6, 3, 3, Keep::DropHighest(2), Some(5)),
        (3, 2, 2, Keep::Highest(2), Some(1)),
        (2, 3, 2, Keep::DropLowest(1), None),
        (3, 2, 2, Keep::Lowest(1), None),
    ];
    for &(n, s, on, keep, cap) in cases {
        let on = Comparison::AtLeast(on);
        let p = f64::from(on.faces_passing(s)) / f64::from(s);
        // Depth where the cut chains weigh below 1e-14 (or the cap).
        let depth = cap.unwrap_or((1e-14f64.ln() / p.ln()).ceil() as u32);
        let what = format!("{n}d{s}!{on} cap {cap:?} {keep}");
        check_against_chains(&what, (n, s, on, cap, false, keep), depth);
    }
}

#[test]
fn penetrating_dice_match_enumerated_chains() {
    let cases: &[(u32, u32, Comparison, Keep, Option<u32>)] = &[
        (3, 6, Comparison::Exactly(6), Keep::All, None),
        (3, 6, Comparison::Exactly(6), Keep::Highest(2), None),
        (4, 6, Comparison::Exactly(6), Keep::DropLowest(1), None),
        (3, 4, Comparison::AtLeast(3), Keep::Lowest(2), Some(2)),
        (2, 3, Comparison::AtMost(1), Keep::DropHighest(1), None), // a 1 explodes and adds 0
        (3, 10, Comparison::AtLeast(9), Keep::Highest(1), None),
        (2, 2, Comparison::Exactly(2), Keep::All, Some(3)),
    ];
    for &(n, s, on, keep, cap) in cases {
        let p = f64::from(on.faces_passing(s)) / f64::from(s);
        let depth = cap.unwrap_or((1e-14f64.ln() / p.ln()).ceil() as u32);
        let what = format!("{n}d{s}!p{on} cap {cap:?} {keep}");
        check_against_chains(&what, (n, s, on, cap, true, keep), depth);
        // Compounding penetrating dice have the same total, one die per chain.
        if keep == Keep::All {
            let e = Explode::penetrating_compound(on);
            let e = match cap {
                Some(c) => e.with_cap(c).unwrap(),
                None => e,
            };
            let compound = sum(pool(n, d(s)).exploding(e).unwrap(), keep, 0)
                .distribution()
                .unwrap();
            let (chains, cut) = chains_to_depth(s, &|f| on.test(i64::from(f)), cap, true, depth);
            let brute = brute_keep_over_chains(n, &chains, Keep::All);
            for (o, &q) in &brute {
                assert!((compound.probability(o) - q).abs() <= f64::from(n) * cut + 1e-12);
            }
        }
    }
    // Compounding penetrating dice with keep: one value per die, kept like compounding dice.
    let on = Comparison::Exactly(6);
    let (chains, cut) = chains_to_depth(6, &|f| f == 6, None, true, 20);
    let per_die: Vec<(Vec<i64>, f64)> = chains
        .iter()
        .map(|(v, q)| (vec![v.iter().sum::<i64>()], *q))
        .collect();
    let brute = brute_keep_over_chains(3, &per_die, Keep::Highest(2));
    let law = sum(
        pool(3, d(6))
            .exploding(Explode::penetrating_compound(on))
            .unwrap(),
        Keep::Highest(2),
        0,
    )
    .distribution()
    .unwrap();
    for (o, &q) in &brute {
        assert!((law.probability(o) - q).abs() <= 3.0 * cut + 1e-12, "{o}");
    }
}

#[test]
fn penetrating_success_counts_match_enumerated_chains() {
    for &(n, s, on, test, cap) in &[
        (
            3u32,
            6u32,
            Comparison::Exactly(6),
            Comparison::AtLeast(5),
            None,
        ),
        (
            2,
            4,
            Comparison::AtLeast(3),
            Comparison::AtLeast(3),
            Some(2u32),
        ),
        (3, 10, Comparison::Exactly(10), Comparison::AtLeast(8), None),
        (2, 3, Comparison::AtMost(1), Comparison::AtMost(1), None),
    ] {
        let p = f64::from(on.faces_passing(s)) / f64::from(s);
        let depth = cap.unwrap_or((1e-14f64.ln() / p.ln()).ceil() as u32);
        let (chains, cut) = chains_to_depth(s, &|f| on.test(i64::from(f)), cap, true, depth);
        let counted: Vec<(Vec<i64>, f64)> = chains
            .iter()
            .map(|(v, q)| (vec![v.iter().filter(|&&x| test.test(x)).count() as i64], *q))
            .collect();
        let brute = brute_keep_over_chains(n, &counted, Keep::All);
        let law = SuccessPool::new(exploding_pool(n, s, on, cap, true), test)
            .distribution()
            .unwrap();
        assert!((law.total() - 1.0).abs() < 1e-12);
        for (o, &q) in &brute {
            let got = law.probability(&(*o as u32));
            assert!(
                (got - q).abs() <= f64::from(n) * cut + 1e-12,
                "{n}d{s}!p{on} count {test}: {o} has {got}, chains give {q}"
            );
        }
    }
}

#[test]
fn keep_drop_among_added_dice_refuses_beyond_the_work_limit() {
    // d1000s exploding on 2 or more: about a thousand dice each, dropping the lowest one.
    let p = exploding_pool(20, 1000, Comparison::AtLeast(2), None, false);
    assert!(matches!(
        sum(p, Keep::DropLowest(1), 0).distribution(),
        Err(Error::TooComplex { .. })
    ));
}

/// The final value of a unique die given the values before it, by playing the re-roll loop
/// out as a probability vector (rpg-dice-roller's loop: re-roll while the value is a
/// duplicate that the compare point re-rolls, at most `max` times).
fn unique_die_law(sides: u32, before: &[u32], rerolls: &dyn Fn(u32) -> bool, max: u32) -> Vec<f64> {
    let inv = 1.0 / f64::from(sides);
    let bad = |v: u32| before.contains(&v) && rerolls(v);
    // current[v]: still rolling, showing v; done[v]: stopped on v.
    let mut current = vec![inv; sides as usize + 1];
    current[0] = 0.0;
    let mut done = vec![0.0; sides as usize + 1];
    if before.is_empty() {
        return current;
    }
    for _ in 0..max {
        let mut again = 0.0;
        for v in 1..=sides {
            if bad(v) {
                again += current[v as usize];
            } else {
                done[v as usize] += current[v as usize];
            }
        }
        current = vec![again * inv; sides as usize + 1];
        current[0] = 0.0;
    }
    for v in 1..=sides {
        done[v as usize] += current[v as usize];
    }
    done
}

/// The law of a unique roll by enumerating every sequence of final values.
fn brute_unique(
    n: u32,
    sides: u32,
    rerolls: &dyn Fn(u32) -> bool,
    max: u32,
    keep: Keep,
) -> BTreeMap<i64, f64> {
    let mut seqs: Vec<(Vec<u32>, f64)> = vec![(Vec::new(), 1.0)];
    for _ in 0..n {
        let mut next = Vec::new();
        for (seq, w) in &seqs {
            let law = unique_die_law(sides, seq, rerolls, max);
            for v in 1..=sides {
                if law[v as usize] > 0.0 {
                    let mut s = seq.clone();
                    s.push(v);
                    next.push((s, w * law[v as usize]));
                }
            }
        }
        seqs = next;
    }
    let mut out = BTreeMap::new();
    for (seq, w) in seqs {
        *out.entry(kept_sum(&seq, keep)).or_insert(0.0) += w;
    }
    out
}

#[test]
fn unique_dice_match_enumerated_sequences() {
    use dice_core::Unique;
    let cases: &[(u32, u32, bool, Option<Comparison>, Keep)] = &[
        (3, 6, false, None, Keep::All),
        (4, 6, true, None, Keep::Highest(3)),
        (3, 4, false, Some(Comparison::Exactly(2)), Keep::All),
        (5, 3, false, None, Keep::All), // more dice than sides
        (
            4,
            3,
            true,
            Some(Comparison::AtLeast(2)),
            Keep::DropLowest(1),
        ),
        (3, 10, false, None, Keep::Lowest(2)),
        (4, 2, false, None, Keep::DropHighest(1)),
        // All distinct, counted over sets (a compare point every face passes, too).
        (4, 5, false, None, Keep::Highest(2)),
        (
            4,
            6,
            false,
            Some(Comparison::AtLeast(1)),
            Keep::DropLowest(1),
        ),
        (4, 5, false, Some(Comparison::AtLeast(4)), Keep::Lowest(2)),
        // Values repeating: over sets with their totals (every die kept) or their values
        // kept.
        (6, 4, true, None, Keep::All),
        (5, 5, false, Some(Comparison::AtMost(2)), Keep::All),
        (5, 6, true, Some(Comparison::Exactly(4)), Keep::Highest(2)),
        (6, 4, false, Some(Comparison::AtLeast(2)), Keep::Lowest(3)),
    ];
    for &(n, s, once, only, keep) in cases {
        let mut u = Unique::new(n, d(s)).unwrap().keeping(keep).unwrap();
        if once {
            u = u.once();
        }
        if let Some(c) = only {
            u = u.only(c);
        }
        let rerolls = |v: u32| only.is_none_or(|c| c.test(i64::from(v)));
        let max = if once {
            1
        } else {
            dice_core::UNIQUE_MAX_REROLLS
        };
        let brute = brute_unique(n, s, &rerolls, max, keep);
        let law = u.distribution().unwrap();
        assert_eq!(law.tail(), 0.0);
        for (o, &q) in &brute {
            let p = law.probability(o);
            assert!(
                (p - q).abs() <= 1e-12 * q.max(1e-3),
                "{u}: {o} has {p}, enumeration gives {q}"
            );
        }
        assert!((law.total() - 1.0).abs() < 1e-12, "{u}");
    }
}

#[test]
fn unique_exact_law_reaches_its_largest_die_and_refuses_beyond() {
    use dice_core::{UNIQUE_MAX_EXACT_SIDES, Unique};
    let s = UNIQUE_MAX_EXACT_SIDES;
    // The largest die (the bit mask's last bit in use) against enumeration.
    let every = |_: u32| true;
    let brute = brute_unique(2, s, &every, dice_core::UNIQUE_MAX_REROLLS, Keep::All);
    let law = Unique::new(2, d(s)).unwrap().distribution().unwrap();
    for (o, &q) in &brute {
        let p = law.probability(o);
        assert!(
            (p - q).abs() <= 1e-12 * q,
            "2d{s}u: {o} has {p}, enumeration gives {q}"
        );
    }
    assert!((law.total() - 1.0).abs() < 1e-12);
    // Repeats (`uo`) over sets of the largest die: every die kept, and the highest kept.
    for keep in [Keep::All, Keep::Highest(1)] {
        let brute = brute_unique(2, s, &every, 1, keep);
        let u = Unique::new(2, d(s)).unwrap().once().keeping(keep).unwrap();
        let law = u.distribution().unwrap();
        for (o, &q) in &brute {
            let p = law.probability(o);
            assert!(
                (p - q).abs() <= 1e-12 * q,
                "{u}: {o} has {p}, enumeration gives {q}"
            );
        }
        assert!((law.total() - 1.0).abs() < 1e-12, "{u}");
    }
    // One side more: refused, not wrong.
    assert!(matches!(
        Unique::new(2, d(s + 1)).unwrap().distribution(),
        Err(Error::Unsupported { .. })
    ));
}
