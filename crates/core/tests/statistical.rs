//! Statistical tests: every primitive is rolled 100,000 times with a fixed seed, and the
//! observed frequency of every outcome is compared with its exact probability.
//!
//! The exact probabilities are never typed in: each test derives them, either by brute-force
//! enumeration of every face combination (each equally likely) or by a formula written out in
//! code (binomial pmf, geometric law, a recursion for exploding dice). [`check`] then requires
//! every outcome's frequency to be within 5 standard errors, `SE = sqrt(p(1 − p)/N)`, of its
//! exact probability, and outcomes of probability 0 never to be observed.
//!
//! A 5 SE deviation has two-sided probability about 6·10⁻⁷ under the normal approximation,
//! and at most about 2·10⁻⁶ under the exact binomial law for outcomes expected 77 times or
//! more. Over the roughly 4,500 comparisons of this file (4,000 of them for the 3d1000 pool),
//! plus a few outcomes with small expected counts (the lumped tail of the 2d10 explosion,
//! expected 0.4 times, fails by chance with probability 8·10⁻⁴), a correct implementation
//! fails some test by chance with probability under 1 % for a random seed. The seeds are
//! fixed, so a run is reproducible anyway. Tails of unbounded laws (explosions, streaks) are
//! lumped into one "at least" outcome, so that no outcome has an expected count far below
//! one, where the normal approximation behind the 5 SE bound fails.

use crate::common;
use common::enumerate;

use std::collections::BTreeMap;
use std::fmt::Debug;

use dice_core::{
    BlockRule, Blocking, Cancellation, Comparison, Die, Explode, FaceSet, Keep, Pool, Roll, Source,
    Streak, SuccessPool, Sum, Tally, Versus, VersusTarget,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

/// Rolls per test.
const N: u64 = 100_000;

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Counts the outcomes of `n` calls of `roll`.
fn histogram<O: Ord>(n: u64, mut roll: impl FnMut() -> O) -> BTreeMap<O, u64> {
    let mut h = BTreeMap::new();
    for _ in 0..n {
        *h.entry(roll()).or_insert(0) += 1;
    }
    h
}

/// Compares observed counts of `n` independent trials with the exact law.
///
/// Asserts that the exact probabilities sum to 1 within 1e-12, that the observed counts sum
/// to `n`, that no outcome outside the law (or of exact probability 0) was observed, and that
/// every outcome's frequency is within 5 standard errors `sqrt(p(1 − p)/n)` of `p` (a count of
/// exactly 0 for `p = 0`). All failing outcomes are listed in the panic message.
fn check<O: Ord + Debug>(observed: BTreeMap<O, u64>, exact: BTreeMap<O, f64>, n: u64) {
    let total: f64 = exact.values().sum();
    assert!(
        (total - 1.0).abs() <= 1e-12,
        "exact probabilities sum to {total}, not 1"
    );
    for (o, &p) in &exact {
        assert!(
            (0.0..=1.0).contains(&p),
            "exact probability of {o:?} is {p}"
        );
    }
    let seen: u64 = observed.values().sum();
    assert_eq!(seen, n, "observed counts sum to {seen}, not {n}");

    let mut failures = Vec::new();
    for (o, &count) in &observed {
        if exact.get(o).copied().unwrap_or(0.0) == 0.0 {
            failures.push(format!(
                "{o:?}: observed {count} times, exact probability 0"
            ));
        }
    }
    let nf = n as f64;
    let mut worst_z = 0.0f64;
    for (o, &p) in &exact {
        let count = observed.get(o).copied().unwrap_or(0);
        if p == 0.0 {
            // Already reported above when observed.
            continue;
        }
        let freq = count as f64 / nf;
        let se = (p * (1.0 - p) / nf).sqrt();
        let dev = (freq - p).abs();
        if se > 0.0 {
            worst_z = worst_z.max(dev / se);
        }
        // The 1e-12 only absorbs rounding when p is 1 (SE 0).
        if dev > 5.0 * se + 1e-12 {
            failures.push(format!(
                "{o:?}: observed {count} ({freq:.6}), expected {p:.6} (count {:.1}), \
                 |z| = {:.2}",
                p * nf,
                dev / se
            ));
        }
    }
    println!(
        "{} outcomes, n = {n}, largest |z| = {worst_z:.2}",
        exact.len()
    );
    assert!(
        failures.is_empty(),
        "{} outcome(s) disagree with the exact law:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// The fraction of the faces `1..=sides` that pass `pred`.
fn face_fraction(sides: u32, pred: impl Fn(u32) -> bool) -> f64 {
    (1..=sides).filter(|&f| pred(f)).count() as f64 / f64::from(sides)
}

/// `C(n, k)`, exact in `f64` for the small `n` used here (every partial product is an integer).
fn choose(n: u32, k: u32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// The binomial pmf: `P(X = k) = C(n, k) pᵏ (1 − p)ⁿ⁻ᵏ` for `k = 0..=n`.
fn binomial(n: u32, p: f64) -> Vec<f64> {
    (0..=n)
        .map(|k| choose(n, k) * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32))
        .collect()
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

/// Sum of the `k` highest (`top`) or lowest faces.
fn kept_sum(faces: &[u32], top: bool, k: usize) -> i64 {
    let mut v: Vec<i64> = faces.iter().map(|&f| i64::from(f)).collect();
    v.sort_unstable();
    if top {
        v[v.len() - k..].iter().sum()
    } else {
        v[..k].iter().sum()
    }
}

/// An outcome of an unbounded law, with the tail lumped together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Bucket {
    /// Exactly this value.
    Is(i64),
    /// This value or more.
    AtLeast(i64),
}

/// `x` itself below `tail`, else the tail bucket.
fn bucket(x: i64, tail: i64) -> Bucket {
    if x >= tail {
        Bucket::AtLeast(tail)
    } else {
        Bucket::Is(x)
    }
}

// ---------------------------------------------------------------------------------------------
// Die
// ---------------------------------------------------------------------------------------------

/// Rolls a single die of `sides` and checks the faces against the uniform law, obtained by
/// enumerating the faces `1..=sides` (each `1/sides`).
fn check_die(sides: u32, seed: u64) {
    let die = Die::new(sides).unwrap();
    let mut rng = rng(seed);
    let observed = histogram(N, || die.roll(&mut rng));
    check(observed, enumerate(&[sides], |f| f[0]), N);
}

/// A d2 shows 1 and 2 with probability 1/2 each (exact law: enumeration of the two faces).
#[test]
fn die_d2_is_uniform() {
    check_die(2, 0xD2);
}

/// A d6 shows each face with probability 1/6 (exact law: enumeration of the six faces).
#[test]
fn die_d6_is_uniform() {
    check_die(6, 0xD6);
}

/// A d10 shows each face with probability 1/10 (exact law: enumeration of the faces).
#[test]
fn die_d10_is_uniform() {
    check_die(10, 0xD10);
}

/// A d20 shows each face with probability 1/20 (exact law: enumeration of the faces).
#[test]
fn die_d20_is_uniform() {
    check_die(20, 0xD20);
}

/// A d100 shows each face 1–100 with probability 1/100, 0 never (exact law: enumeration of
/// the faces; the rejection step of the extraction must leave no bias).
#[test]
fn die_d100_is_uniform() {
    check_die(100, 0xD100);
}

/// Rolls a pool of `count` dice of `sides` and checks the natural faces, counted over all the
/// dice of all rolls (`count · N` independent faces, each uniform: enumeration of the faces),
/// and then the faces at each position of the pool separately (`N` faces each), so that a
/// bias of one digit of the batched extraction cannot hide in the total.
fn check_pool_faces(count: u32, sides: u32, seed: u64) {
    let die = Die::new(sides).unwrap();
    let pool = Pool::new(count, die).unwrap();
    let mut rng = rng(seed);
    let mut buf = Vec::new();
    let mut all: BTreeMap<u32, u64> = BTreeMap::new();
    let mut by_position: Vec<BTreeMap<u32, u64>> = vec![BTreeMap::new(); count as usize];
    for _ in 0..N {
        pool.roll_into(&mut rng, &mut buf);
        assert_eq!(buf.len(), count as usize);
        for (d, at) in buf.iter().zip(&mut by_position) {
            assert_eq!(d.die, die);
            assert_eq!(d.value, i64::from(d.natural));
            *all.entry(d.natural).or_insert(0) += 1;
            *at.entry(d.natural).or_insert(0) += 1;
        }
    }
    let exact = enumerate(&[sides], |f| f[0]);
    println!("all {count} dice:");
    check(all, exact.clone(), u64::from(count) * N);
    for (i, at) in by_position.into_iter().enumerate() {
        println!("die #{i} of the pool:");
        check(at, exact.clone(), N);
    }
}

/// 25d6 (one full 21-die batch of a 64-bit draw plus a partial one of 4): every face 1/6 over
/// all 2,500,000 dice, and at every position of the pool (exact law: enumeration of a d6).
#[test]
fn pool_25d6_faces_are_uniform() {
    check_pool_faces(25, 6, 0x25D6);
}

/// 3d1000 (a partial batch: five d1000 fit in one draw): every face 1/1000 over all 300,000
/// dice, and at every position (exact law: enumeration of a d1000's faces).
#[test]
fn pool_3d1000_faces_are_uniform() {
    check_pool_faces(3, 1000, 0x3D1000);
}

// ---------------------------------------------------------------------------------------------
// Sum, Keep, VersusTarget
// ---------------------------------------------------------------------------------------------

/// 3d6 summed: the law of the total, by enumeration of the 6³ = 216 face combinations.
#[test]
fn sum_3d6() {
    let sum = Sum::new(Pool::new(3, Die::D6).unwrap(), Keep::All, 0).unwrap();
    let mut rng = rng(0x3D6);
    let observed = histogram(N, || sum.roll(&mut rng));
    let exact = enumerate(&[6; 3], |f| f.iter().map(|&x| i64::from(x)).sum::<i64>());
    check(observed, exact, N);
}

/// 2d6 + 2 against 9: Below / Equal / Above, by enumeration of the 36 combinations of 2d6,
/// adding 2 and comparing with 9 in the test (not with `Versus::of`).
#[test]
fn versus_target_2d6_plus_2_vs_9() {
    let sum = Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 2).unwrap();
    let check_9 = VersusTarget::new(sum, 9).unwrap();
    let mut rng = rng(0x2D60009);
    let observed = histogram(N, || check_9.roll(&mut rng));
    let exact = enumerate(&[6, 6], |f| {
        let total = i64::from(f[0] + f[1]) + 2;
        if total < 9 {
            Versus::Below
        } else if total == 9 {
            Versus::Equal
        } else {
            Versus::Above
        }
    });
    check(observed, exact, N);
}

/// 4d6 keep the highest 3: the law of the total by enumeration of the 6⁴ = 1296
/// combinations, sorting each and summing its top three.
#[test]
fn keep_4d6_highest_3() {
    let sum = Sum::new(Pool::new(4, Die::D6).unwrap(), Keep::Highest(3), 0).unwrap();
    let mut rng = rng(0x4D60003);
    let observed = histogram(N, || sum.roll(&mut rng));
    let exact = enumerate(&[6; 4], |f| kept_sum(f, true, 3));
    check(observed, exact, N);
}

/// 5d6 drop the lowest 2: the law of the total by enumeration of the 6⁵ = 7776
/// combinations, sorting each and summing its top three.
#[test]
fn keep_5d6_drop_lowest_2() {
    let sum = Sum::new(Pool::new(5, Die::D6).unwrap(), Keep::DropLowest(2), 0).unwrap();
    let mut rng = rng(0x5D60002);
    let observed = histogram(N, || sum.roll(&mut rng));
    let exact = enumerate(&[6; 5], |f| kept_sum(f, true, 3));
    check(observed, exact, N);
}

/// 3d10 keep the lowest 1: the law of the minimum by enumeration of the 10³ = 1000
/// combinations.
#[test]
fn keep_3d10_lowest_1() {
    let sum = Sum::new(Pool::new(3, Die::D10).unwrap(), Keep::Lowest(1), 0).unwrap();
    let mut rng = rng(0x3D100001);
    let observed = histogram(N, || sum.roll(&mut rng));
    let exact = enumerate(&[10; 3], |f| kept_sum(f, false, 1));
    check(observed, exact, N);
}

// ---------------------------------------------------------------------------------------------
// SuccessPool
// ---------------------------------------------------------------------------------------------

/// 10d10 counting dice ≤ 5: Binomial(10, p) with p = (faces of a d10 that are ≤ 5)/10,
/// the binomial pmf written out.
#[test]
fn success_10d10_at_most_5_is_binomial() {
    let pool = SuccessPool::new(Pool::new(10, Die::D10).unwrap(), Comparison::AtMost(5));
    let mut rng = rng(0x10D1005);
    let observed = histogram(N, || pool.count(&mut rng));
    let p = face_fraction(10, |f| f <= 5);
    let exact = binomial(10, p)
        .into_iter()
        .enumerate()
        .map(|(k, q)| (k as u32, q))
        .collect();
    check(observed, exact, N);
}

/// 6d6 counting dice ≥ 4, with natural 1s as criticals, via `tally`: the joint law of
/// (successes, criticals), by enumeration of the 6⁶ = 46656 combinations.
#[test]
fn success_6d6_at_least_4_tally_joint_law() {
    let pool = SuccessPool::new(Pool::new(6, Die::D6).unwrap(), Comparison::AtLeast(4));
    let mut rng = rng(0x6D604);
    let observed = histogram(N, || pool.tally(&mut rng));
    let exact = enumerate(&[6; 6], |f| Tally {
        successes: f.iter().filter(|&&x| x >= 4).count() as u32,
        criticals: f.iter().filter(|&&x| x == 1).count() as u32,
    });
    check(observed, exact, N);
}

/// A mixed pool, 3d6 + 2d10 (bonus), counting dice ≥ 5: the success count (`count`, the
/// raw-bits path) and the joint (successes, natural 1s) law (`tally`), both by enumeration of
/// the 6³·10² = 21600 combinations.
#[test]
fn success_mixed_3d6_2d10_at_least_5() {
    let pool = Pool::new(3, Die::D6)
        .unwrap()
        .with_dice(2, Die::D10, Source::Bonus)
        .unwrap();
    let pool = SuccessPool::new(pool, Comparison::AtLeast(5));
    let sides = [6, 6, 6, 10, 10];
    let mut rng = rng(0x3D62D10);

    let observed = histogram(N, || pool.count(&mut rng));
    let exact = enumerate(&sides, |f| f.iter().filter(|&&x| x >= 5).count() as u32);
    println!("count:");
    check(observed, exact, N);

    let observed = histogram(N, || pool.tally(&mut rng));
    let exact = enumerate(&sides, |f| Tally {
        successes: f.iter().filter(|&&x| x >= 5).count() as u32,
        criticals: f.iter().filter(|&&x| x == 1).count() as u32,
    });
    println!("tally:");
    check(observed, exact, N);
}

/// 4d6 counting dice whose face is one of {1, 5, 9} (9 cannot come up on a d6): the success
/// count by enumeration of the 6⁴ = 1296 combinations, membership tested on a plain array.
#[test]
fn success_one_of_on_d6() {
    let faces = [1u32, 5, 9];
    let set = FaceSet::new(faces).unwrap();
    let pool = SuccessPool::new(Pool::new(4, Die::D6).unwrap(), Comparison::OneOf(set));
    let mut rng = rng(0x1D60F);
    let observed = histogram(N, || pool.count(&mut rng));
    let exact = enumerate(&[6; 4], |f| {
        f.iter().filter(|x| faces.contains(x)).count() as u32
    });
    check(observed, exact, N);
}

// ---------------------------------------------------------------------------------------------
// Exploding dice
// ---------------------------------------------------------------------------------------------

/// The exact law of a single d6 exploding (or compounding) on 6, summed, with totals of 31
/// or more lumped. A total `t = 6k + r` with `r` in 1..=5 takes exactly k sixes and then r:
/// probability (1/6)^(k+1); a multiple of 6 is impossible. A total ≥ 31 needs the first five
/// faces to be sixes: probability (1/6)^5. (The default cap of 100 extra dice only matters
/// after 100 sixes, probability 6⁻¹⁰⁰.)
fn exploding_d6_law() -> BTreeMap<Bucket, f64> {
    const TAIL: i64 = 31;
    let q = face_fraction(6, |f| f == 6);
    let mut exact = BTreeMap::new();
    for t in 1..TAIL {
        let (k, r) = (t / 6, t % 6);
        let p = if r == 0 { 0.0 } else { q.powi(k as i32 + 1) };
        exact.insert(Bucket::Is(t), p);
    }
    exact.insert(Bucket::AtLeast(TAIL), q.powi(5));
    exact
}

/// 1d6 exploding on 6 (an additional die per 6), summed: the law of [`exploding_d6_law`]
/// (geometric number of sixes, then a uniform non-six).
#[test]
fn explode_d6_additional_sum() {
    let pool = Pool::new(1, Die::D6)
        .unwrap()
        .exploding(Explode::new(Comparison::Exactly(6)))
        .unwrap();
    let sum = Sum::new(pool, Keep::All, 0).unwrap();
    let mut rng = rng(0xE6AD);
    let observed = histogram(N, || bucket(sum.roll(&mut rng), 31));
    check(observed, exploding_d6_law(), N);
}

/// 1d6 compounding on 6, summed: a compounding die's value is the same sum of faces as the
/// additional dice of an explosion, so the law is again [`exploding_d6_law`].
#[test]
fn explode_d6_compounding_sum() {
    let pool = Pool::new(1, Die::D6)
        .unwrap()
        .exploding(Explode::compounding(Comparison::Exactly(6)))
        .unwrap();
    let sum = Sum::new(pool, Keep::All, 0).unwrap();
    let mut rng = rng(0xE6C0);
    let observed = histogram(N, || bucket(sum.roll(&mut rng), 31));
    check(observed, exploding_d6_law(), N);
}

/// 2d10 exploding on 10, counting dice ≥ 8 as successes. One original die's chain: each die
/// shows 10 (succeeds and adds a die, q = 1/10), 8–9 (succeeds and stops, s = 2/10) or 1–7
/// (fails and stops, f = 7/10), so the successes S of one chain satisfy the recursion
/// `P(S = n) = f·[n = 0] + s·[n = 1] + q·P(S = n − 1)`, computed up to n = 60 (the rest is
/// below 10⁻⁶⁰; the default cap of 100 is further still). The two chains are independent:
/// the law of the count is the convolution, with counts of 7 or more lumped.
#[test]
fn explode_2d10_on_10_count_at_least_8() {
    let pool = Pool::new(2, Die::D10)
        .unwrap()
        .exploding(Explode::new(Comparison::Exactly(10)))
        .unwrap();
    let pool = SuccessPool::new(pool, Comparison::AtLeast(8));
    let mut rng = rng(0x2D10E8);
    const TAIL: i64 = 7;
    let observed = histogram(N, || bucket(i64::from(pool.count(&mut rng)), TAIL));

    let q = face_fraction(10, |x| x == 10);
    let s = face_fraction(10, |x| (8..10).contains(&x));
    let f = face_fraction(10, |x| x < 8);
    let mut one = vec![0.0f64; 61];
    for n in 0..one.len() {
        let start = match n {
            0 => f,
            1 => s,
            _ => 0.0,
        };
        let carried = if n == 0 { 0.0 } else { q * one[n - 1] };
        one[n] = start + carried;
    }
    let two = convolve(&one, &one);
    let mut exact = BTreeMap::new();
    for (n, &p) in two.iter().enumerate() {
        *exact.entry(bucket(n as i64, TAIL)).or_insert(0.0) += p;
    }
    check(observed, exact, N);
}

// ---------------------------------------------------------------------------------------------
// Streak
// ---------------------------------------------------------------------------------------------

/// The law of `base + length` for an uncapped streak continuing with probability `p`:
/// `P(length = k) = pᵏ(1 − p)` (geometric), lengths of `tail` or more lumped (probability
/// `p^tail`); a score below `base` is impossible (an explicit 0-probability outcome).
fn streak_law(base: i64, p: f64, tail: u32) -> BTreeMap<Bucket, f64> {
    let mut exact = BTreeMap::new();
    exact.insert(Bucket::Is(base - 1), 0.0);
    for k in 0..tail {
        exact.insert(
            Bucket::Is(base + i64::from(k)),
            p.powi(k as i32) * (1.0 - p),
        );
    }
    exact.insert(Bucket::AtLeast(base + i64::from(tail)), p.powi(tail as i32));
    exact
}

/// Rolls `streak` and checks its score against [`streak_law`] with `p` the fraction of the
/// faces of a d6 that pass `continues` (the test's own copy of the set, not `FaceSet`), and
/// that the default cap is never reported reached.
fn check_streak(streak: &Streak, continues: impl Fn(u32) -> bool, seed: u64, tail: u32) {
    assert_eq!(streak.die(), Die::D6);
    let p = face_fraction(6, continues);
    let base = streak.base();
    let mut rng = rng(seed);
    let observed = histogram(N, || {
        let r = streak.roll_streak(&mut rng);
        assert!(!r.capped);
        assert_eq!(r.score, base + i64::from(r.length));
        bucket(r.score, base + i64::from(tail))
    });
    check(observed, streak_law(base, p, tail), N);
}

/// The Shapers and Bots fluke, a d6 continuing on {4, 5, 6} with base 0: P(score = k) =
/// (1/2)ᵏ·(1/2), scores of 14 or more lumped ((1/2)¹⁴).
#[test]
fn streak_fluke_d6_4_to_6() {
    let fluke = Streak::new(Die::D6, FaceSet::range(4, 6).unwrap(), 0).unwrap();
    check_streak(&fluke, |f| [4, 5, 6].contains(&f), 0xF10CE, 14);
}

/// A damage streak, a d6 continuing on {5, 6} with base 1: P(score = 1 + k) = (1/3)ᵏ·(2/3),
/// lengths of 9 or more lumped ((1/3)⁹), and never a score of 0.
#[test]
fn streak_damage_base_1_on_5_6() {
    let damage = Streak::new(Die::D6, FaceSet::new([5, 6]).unwrap(), 1).unwrap();
    check_streak(&damage, |f| [5, 6].contains(&f), 0xDA0A6E, 9);
}

/// A streak capped at 3, a d6 continuing on {2, …, 6} (p = 5/6), base 0: the law of
/// (length, capped) is P(k, not capped) = pᵏ(1 − p) for k < 3 and P(3, capped) = p³; a
/// length of 3 not flagged as capped is impossible.
#[test]
fn streak_capped_at_3() {
    let streak = Streak::capped(Die::D6, FaceSet::range(2, 6).unwrap(), 0, 3).unwrap();
    let p = face_fraction(6, |f| (2..=6).contains(&f));
    let mut rng = rng(0xCA9003);
    let observed = histogram(N, || {
        let r = streak.roll_streak(&mut rng);
        assert_eq!(r.score, i64::from(r.length));
        (r.length, r.capped)
    });
    let mut exact = BTreeMap::new();
    for k in 0..3u32 {
        exact.insert((k, false), p.powi(k as i32) * (1.0 - p));
    }
    exact.insert((3, false), 0.0);
    exact.insert((3, true), p.powi(3));
    check(observed, exact, N);
}

// ---------------------------------------------------------------------------------------------
// Cancellation
// ---------------------------------------------------------------------------------------------

/// 4d10 counting ≤ 6 against 3d10 counting ≤ 5, difficulty 1: the net `A − B − 1` with A ~
/// Binomial(4, 6/10) and B ~ Binomial(3, 5/10) independent (binomial pmfs written out,
/// combined over every pair (a, b)).
#[test]
fn cancellation_4d10_vs_3d10_difficulty_1() {
    let actor = SuccessPool::new(Pool::new(4, Die::D10).unwrap(), Comparison::AtMost(6));
    let opposition = SuccessPool::new(Pool::new(3, Die::D10).unwrap(), Comparison::AtMost(5));
    let test = Cancellation::new(actor, Some(opposition), 1).unwrap();
    let mut rng = rng(0xCA4C31);
    let observed = histogram(N, || test.roll(&mut rng));

    let a = binomial(4, face_fraction(10, |f| f <= 6));
    let b = binomial(3, face_fraction(10, |f| f <= 5));
    let mut exact = BTreeMap::new();
    for (i, &pa) in a.iter().enumerate() {
        for (j, &pb) in b.iter().enumerate() {
            *exact.entry(i as i64 - j as i64 - 1).or_insert(0.0) += pa * pb;
        }
    }
    check(observed, exact, N);
}

// ---------------------------------------------------------------------------------------------
// Blocking
// ---------------------------------------------------------------------------------------------

/// The most hits that the free defending dice can block, by trying every assignment: the
/// first hit is either left unblocked or given to each free defending die that blocks it, and
/// the rest is solved recursively.
fn max_blocked(
    hits: &[i64],
    defense: &[i64],
    used: &mut [bool],
    blocks: fn(i64, i64) -> bool,
) -> u32 {
    let Some((&hit, rest)) = hits.split_first() else {
        return 0;
    };
    let mut best = max_blocked(rest, defense, used, blocks);
    for (j, &d) in defense.iter().enumerate() {
        if !used[j] && blocks(d, hit) {
            used[j] = true;
            best = best.max(1 + max_blocked(rest, defense, used, blocks));
            used[j] = false;
        }
    }
    best
}

/// 3d6 hitting on ≥ 2 against 3d6 blocking under `rule`: the law of the unblocked hits, by
/// enumeration of all 6⁶ = 46656 rolls of both pools and a brute-force maximum matching.
fn check_blocking(rule: BlockRule, seed: u64) {
    let attack = SuccessPool::new(Pool::new(3, Die::D6).unwrap(), Comparison::AtLeast(2));
    let fight = Blocking::new(attack, Pool::new(3, Die::D6).unwrap(), rule);
    let mut rng = rng(seed);
    let observed = histogram(N, || fight.roll(&mut rng));

    let blocks: fn(i64, i64) -> bool = match rule {
        BlockRule::AtLeast => |d, a| d >= a,
        BlockRule::Strict => |d, a| d > a,
    };
    let exact = enumerate(&[6; 6], |f| {
        let hits: Vec<i64> = f[..3]
            .iter()
            .filter(|&&x| x >= 2)
            .map(|&x| i64::from(x))
            .collect();
        let defense: Vec<i64> = f[3..].iter().map(|&x| i64::from(x)).collect();
        let blocked = max_blocked(&hits, &defense, &mut [false; 3], blocks);
        hits.len() as u32 - blocked
    });
    check(observed, exact, N);
}

/// Blocking with `BlockRule::AtLeast` (a die blocks a hit of lesser or equal value): exact law
/// by enumeration of all 6⁶ rolls with a brute-force maximum matching (see [`check_blocking`]).
#[test]
fn blocking_3d6_vs_3d6_at_least() {
    check_blocking(BlockRule::AtLeast, 0xB10CA7);
}

/// Blocking with `BlockRule::Strict` (a die blocks only a strictly lesser hit): exact law by
/// enumeration of all 6⁶ rolls with a brute-force maximum matching (see [`check_blocking`]).
#[test]
fn blocking_3d6_vs_3d6_strict() {
    check_blocking(BlockRule::Strict, 0xB10C57);
}
