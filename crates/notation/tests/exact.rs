//! Exact laws checked against brute-force enumeration.
//!
//! Each test writes the random process of an expression out by hand — with the reference
//! roller of `common` (the order of docs/notation.md: reroll, explode, clamp, keep, count)
//! or plain code — and enumerates every sequence of faces it can read, each weighing
//! `1/(s₁·s₂·…)`. No probability is typed in. Processes that can read unboundedly many faces
//! (rerolls until, untruncated explosions, streaks) are enumerated up to a number of faces
//! whose left-over mass is at most 10⁻⁹, and that mass widens the tolerance.

use crate::common;

use std::collections::BTreeSet;

use common::{RefPool, Tape, enumerate, floor_div, ref_streak};
use dice_core::{Keep, Versus};
use dice_notation::{Expression, Outcome};

/// Compares `expr`'s exact law with the enumeration of `process`.
fn check(expr: &str, max_draws: usize, process: impl Fn(&mut Tape) -> Outcome) {
    let e = Expression::parse(expr).unwrap_or_else(|err| panic!("{expr}: {err}"));
    let exact = e
        .distribution()
        .unwrap_or_else(|err| panic!("{expr}: {err}"));
    let (brute, missing) = enumerate(max_draws, process);
    assert!(missing <= 1e-9, "{expr}: enumerate further ({missing})");
    let brute_total: f64 = brute.values().sum();
    assert!((brute_total + missing - 1.0).abs() < 1e-12, "{expr}");
    assert!(
        (exact.total() - 1.0).abs() < 1e-12,
        "{expr}: {}",
        exact.total()
    );
    assert!(exact.tail() <= 1e-12, "{expr}: tail {}", exact.tail());
    let tol = 1e-12 + missing;
    let outcomes: BTreeSet<Outcome> = brute
        .keys()
        .copied()
        .chain(exact.outcomes().iter().copied())
        .collect();
    for o in outcomes {
        let p = exact.probability(&o);
        let q = brute.get(&o).copied().unwrap_or(0.0);
        assert!(
            (p - q).abs() <= tol,
            "{expr}: P({o}) exact {p}, enumerated {q}"
        );
    }
}

fn num(f: impl Fn(&mut Tape) -> i64) -> impl Fn(&mut Tape) -> Outcome {
    move |t| Outcome::Number(f(t))
}

fn versus(f: impl Fn(&mut Tape) -> (i64, i64)) -> impl Fn(&mut Tape) -> Outcome {
    move |t| {
        let (total, target) = f(t);
        Outcome::Versus(Versus::of(total, target))
    }
}

fn keep(mut p: RefPool, k: Keep) -> RefPool {
    p.keep = k;
    p
}

#[test]
fn plain_dice_and_percent() {
    check("3d6", 3, num(|t| RefPool::d(3, 6).roll(t)));
    check("d%", 1, num(|t| RefPool::d(1, 100).roll(t)));
    check("2d6+3", 2, num(|t| RefPool::d(2, 6).roll(t) + 3));
}

#[test]
fn fudge_dice() {
    check("3dF+2", 3, num(|t| RefPool::new(3, -1, 1).roll(t) + 2));
    check(
        "4dFkh2",
        4,
        num(|t| keep(RefPool::new(4, -1, 1), Keep::Highest(2)).roll(t)),
    );
    check(
        "4dF!cap2",
        12,
        num(|t| {
            let mut p = RefPool::new(4, -1, 1);
            p.explode = Some((false, Box::new(|f| f == 1), 2));
            p.roll(t)
        }),
    );
    check(
        "4dF>=1",
        4,
        num(|t| {
            let mut p = RefPool::new(4, -1, 1);
            p.success = Some(Box::new(|v| v >= 1));
            p.roll(t)
        }),
    );
    check(
        "3dF={-1,1}",
        3,
        num(|t| {
            let mut p = RefPool::new(3, -1, 1);
            p.success = Some(Box::new(|v| v == -1 || v == 1));
            p.roll(t)
        }),
    );
}

#[test]
fn keep_and_drop() {
    check(
        "4d6kh3",
        4,
        num(|t| keep(RefPool::d(4, 6), Keep::Highest(3)).roll(t)),
    );
    check(
        "4d6dl1",
        4,
        num(|t| keep(RefPool::d(4, 6), Keep::DropLowest(1)).roll(t)),
    );
    check(
        "3d6kl2+1",
        3,
        num(|t| keep(RefPool::d(3, 6), Keep::Lowest(2)).roll(t) + 1),
    );
    check(
        "5d4dh2",
        5,
        num(|t| keep(RefPool::d(5, 4), Keep::DropHighest(2)).roll(t)),
    );
    check(
        "2d20k",
        2,
        num(|t| keep(RefPool::d(2, 20), Keep::Highest(1)).roll(t)),
    );
}

#[test]
fn rerolls() {
    check(
        "2d6r1",
        36,
        num(|t| {
            let mut p = RefPool::d(2, 6);
            p.reroll = Some((false, Box::new(|f| f == 1)));
            p.roll(t)
        }),
    );
    check(
        "2d4r{1,2}",
        40,
        num(|t| {
            let mut p = RefPool::d(2, 4);
            p.reroll = Some((false, Box::new(|f| f <= 2)));
            p.roll(t)
        }),
    );
    check(
        "3d6ro<=2",
        6,
        num(|t| {
            let mut p = RefPool::d(3, 6);
            p.reroll = Some((true, Box::new(|f| f <= 2)));
            p.roll(t)
        }),
    );
    check(
        "4d6ro1kh3",
        8,
        num(|t| {
            let mut p = keep(RefPool::d(4, 6), Keep::Highest(3));
            p.reroll = Some((true, Box::new(|f| f == 1)));
            p.roll(t)
        }),
    );
}

#[test]
fn explosions() {
    check(
        "2d6!cap3",
        8,
        num(|t| {
            let mut p = RefPool::d(2, 6);
            p.explode = Some((false, Box::new(|f| f == 6), 3));
            p.roll(t)
        }),
    );
    check(
        "2d6!",
        30,
        num(|t| {
            let mut p = RefPool::d(2, 6);
            p.explode = Some((false, Box::new(|f| f == 6), 100));
            p.roll(t)
        }),
    );
    check(
        "2d6!5cap1",
        4,
        num(|t| {
            let mut p = RefPool::d(2, 6);
            p.explode = Some((false, Box::new(|f| f == 5), 1));
            p.roll(t)
        }),
    );
    check(
        "2d6!!>=5cap2",
        6,
        num(|t| {
            let mut p = RefPool::d(2, 6);
            p.explode = Some((true, Box::new(|f| f >= 5), 2));
            p.roll(t)
        }),
    );
    check(
        "3d4!!kh2",
        30,
        num(|t| {
            let mut p = keep(RefPool::d(3, 4), Keep::Highest(2));
            p.explode = Some((true, Box::new(|f| f == 4), 100));
            p.roll(t)
        }),
    );
    check(
        "3d4!!min3kh2",
        30,
        num(|t| {
            let mut p = keep(RefPool::d(3, 4), Keep::Highest(2));
            p.explode = Some((true, Box::new(|f| f == 4), 100));
            p.min = Some(3);
            p.roll(t)
        }),
    );
    check(
        "2d6ro1!!cap2",
        12,
        num(|t| {
            let mut p = RefPool::d(2, 6);
            p.reroll = Some((true, Box::new(|f| f == 1)));
            p.explode = Some((true, Box::new(|f| f == 6), 2));
            p.roll(t)
        }),
    );
}

#[test]
fn success_counts_and_failures() {
    check(
        "6d6>=5",
        6,
        num(|t| {
            let mut p = RefPool::d(6, 6);
            p.success = Some(Box::new(|v| v >= 5));
            p.roll(t)
        }),
    );
    check(
        "5d10>=8f1",
        5,
        num(|t| {
            let mut p = RefPool::d(5, 10);
            p.success = Some(Box::new(|v| v >= 8));
            p.failure = Some(Box::new(|v| v == 1));
            p.roll(t)
        }),
    );
    check(
        "4d6kh3>=5",
        4,
        num(|t| {
            let mut p = keep(RefPool::d(4, 6), Keep::Highest(3));
            p.success = Some(Box::new(|v| v >= 5));
            p.roll(t)
        }),
    );
    check(
        "2d6!>=5>=5",
        40,
        num(|t| {
            let mut p = RefPool::d(2, 6);
            p.explode = Some((false, Box::new(|f| f >= 5), 100));
            p.success = Some(Box::new(|v| v >= 5));
            p.roll(t)
        }),
    );
    check(
        "2d6ro1!cap2>=4f<2",
        12,
        num(|t| {
            let mut p = RefPool::d(2, 6);
            p.reroll = Some((true, Box::new(|f| f == 1)));
            p.explode = Some((false, Box::new(|f| f == 6), 2));
            p.success = Some(Box::new(|v| v >= 4));
            p.failure = Some(Box::new(|v| v < 2));
            p.roll(t)
        }),
    );
    check(
        "3d6min2<3",
        3,
        num(|t| {
            let mut p = RefPool::d(3, 6);
            p.min = Some(2);
            p.success = Some(Box::new(|v| v < 3));
            p.roll(t)
        }),
    );
}

#[test]
fn clamps() {
    check(
        "3d4min2max3",
        3,
        num(|t| {
            let mut p = RefPool::d(3, 4);
            p.min = Some(2);
            p.max = Some(3);
            p.roll(t)
        }),
    );
    check(
        "3d6max4dl1",
        3,
        num(|t| {
            let mut p = keep(RefPool::d(3, 6), Keep::DropLowest(1));
            p.max = Some(4);
            p.roll(t)
        }),
    );
}

#[test]
fn streaks() {
    check(
        "streak(d6>=4)",
        60,
        num(|t| ref_streak(t, 1, 6, |f| f >= 4, 100)),
    );
    check(
        "1+streak(d6={5,6}cap3)",
        4,
        num(|t| 1 + ref_streak(t, 1, 6, |f| f >= 5, 3)),
    );
    check(
        "streak(dF>=0cap4)",
        5,
        num(|t| ref_streak(t, -1, 1, |f| f >= 0, 4)),
    );
    // Faces beyond 128 do not fit a dice-core face set: this crate's own law.
    check(
        "streak(d200>=199)",
        9,
        num(|t| ref_streak(t, 1, 200, |f| f >= 199, 100)),
    );
}

#[test]
fn arithmetic() {
    let d = |t: &mut Tape, n: u32, s: i64| RefPool::d(n, s).roll(t);
    check("1d6*1d4", 2, num(move |t| d(t, 1, 6) * d(t, 1, 4)));
    check(
        "1d20/1d4",
        2,
        num(move |t| floor_div(d(t, 1, 20), d(t, 1, 4))),
    );
    check("(1d6-4)/2", 1, num(move |t| floor_div(d(t, 1, 6) - 4, 2)));
    check("-1d6/4", 1, num(move |t| floor_div(-d(t, 1, 6), 4)));
    check("2*1d6-1d6", 2, num(move |t| 2 * d(t, 1, 6) - d(t, 1, 6)));
    check("10-1d4-1d4", 2, num(move |t| 10 - d(t, 1, 4) - d(t, 1, 4)));
    check("max(1d6, 1d6)", 2, num(move |t| d(t, 1, 6).max(d(t, 1, 6))));
    check(
        "max(1d4, 1d4, 1d4)",
        3,
        num(move |t| d(t, 1, 4).max(d(t, 1, 4)).max(d(t, 1, 4))),
    );
    check("min(2d4, 5)", 2, num(move |t| d(t, 2, 4).min(5)));
    check(
        "(1d4+1)*(1d3-2)",
        2,
        num(move |t| (d(t, 1, 4) + 1) * (d(t, 1, 3) - 2)),
    );
}

#[test]
fn three_way_comparisons() {
    let d = |t: &mut Tape, n: u32, s: i64| RefPool::d(n, s).roll(t);
    check("1d20+2 vs 12", 1, versus(move |t| (d(t, 1, 20) + 2, 12)));
    check(
        "4d6kh3-1 vs 12",
        4,
        versus(|t| (keep(RefPool::d(4, 6), Keep::Highest(3)).roll(t) - 1, 12)),
    );
    check(
        "2d6 vs 1d6+3",
        3,
        versus(move |t| {
            let total = d(t, 2, 6);
            (total, d(t, 1, 6) + 3)
        }),
    );
    check(
        "1d6 vs 1d6",
        2,
        versus(move |t| {
            let total = d(t, 1, 6);
            (total, d(t, 1, 6))
        }),
    );
    check(
        "streak(d6>=4) vs 2",
        60,
        versus(|t| (ref_streak(t, 1, 6, |f| f >= 4, 100), 2)),
    );
}

/// Where a term compiles onto dice-core, a modifier that changes nothing (`min1` on dice
/// whose faces start at 1) sends it through this crate's own laws instead: the two must agree.
#[test]
fn dice_core_and_own_laws_agree() {
    for (core, own) in [
        ("4d6kh3", "4d6min1kh3"),
        ("6d10dl2", "6d10min1dl2"),
        ("3d6!!kh2", "3d6!!min1kh2"),
        ("3d6!!>=5cap3kl2", "3d6!!>=5cap3min1kl2"),
        ("10d10!>=8", "10d10!>=8min1"),
        ("4d8!cap3", "4d8!cap3min1"),
        ("6d6>=5", "6d6min1>=5"),
        ("5d10!>=9>=8", "5d10!>=9min1>=8"),
        ("5d10!!>=9>=8", "5d10!!>=9min1>=8"),
        ("3d12!>=11cap2<=3", "3d12!>=11cap2min1<=3"),
        ("20d6", "20d6min1"),
        ("4dF", "4dFmin-1"),
        ("4dFkl3", "4dFmin-1kl3"),
        ("4dF>=0", "4dFmin-1>=0"),
    ] {
        let a = Expression::parse(core).unwrap().distribution().unwrap();
        let b = Expression::parse(own).unwrap().distribution().unwrap();
        let outcomes: BTreeSet<Outcome> =
            a.outcomes().iter().chain(b.outcomes()).copied().collect();
        for o in outcomes {
            let (p, q) = (a.probability(&o), b.probability(&o));
            assert!((p - q).abs() <= 1e-12, "{core} vs {own}: P({o}) {p} / {q}");
        }
        assert!((a.total() - 1.0).abs() < 1e-12 && (b.total() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn untruncated_laws_leave_a_tiny_tail() {
    for expr in [
        "10d6!",
        "5d6!!>=5kh2",
        "20d10!>=9>=8",
        "streak(d6>=2)",
        "3d6!>=4min2",
    ] {
        let d = Expression::parse(expr).unwrap().distribution().unwrap();
        assert!(d.tail() <= 1e-14, "{expr}: {}", d.tail());
        assert!((d.total() - 1.0).abs() < 1e-12, "{expr}");
    }
}

#[test]
fn exact_odds_that_cannot_be_had_are_errors_not_hangs() {
    let start = std::time::Instant::now();
    for expr in [
        "1000d1000*1000d1000",
        "1000d1000/1d1000*1000d1000",
        "500d1000r1+1",
        "1d1000!>1",
        "1000d1000kh500",
        "max(9000d100, 1d1000*1000)",
    ] {
        let e = Expression::parse(expr).unwrap();
        assert!(e.distribution().is_err(), "{expr}");
    }
    let err = Expression::parse("2d6ro1!kh1")
        .unwrap()
        .distribution()
        .unwrap_err();
    assert!(err.to_string().contains("not supported"), "{err}");
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

/// The law of a whole expression as numbers, with its tail.
fn number_law(text: &str) -> (std::collections::BTreeMap<i64, f64>, f64) {
    let d = Expression::parse(text).unwrap().distribution().unwrap();
    let law = d
        .iter()
        .map(|(o, q)| match o {
            Outcome::Number(v) => (*v, q),
            other => panic!("{text}: {other:?}"),
        })
        .collect();
    (law, d.tail())
}

/// `min` and `max` come from the two laws' cumulative sums; the reference here takes every
/// pair of outcomes, as the combination once did, on laws of a few hundred outcomes, with and
/// without an (exploding) tail.
#[test]
fn min_and_max_against_every_pair() {
    for (x, y) in [
        ("3d6*1d8", "2d20"),
        ("1d6!", "2d6"),
        ("4d10-12", "1d4*1d4-3"),
    ] {
        let ((lx, tx), (ly, ty)) = (number_law(x), number_law(y));
        for func in ["min", "max"] {
            let mut want = std::collections::BTreeMap::new();
            for (&v, &p) in &lx {
                for (&w, &q) in &ly {
                    let r = if func == "min" { v.min(w) } else { v.max(w) };
                    *want.entry(r).or_insert(0.0) += p * q;
                }
            }
            let (got, tail) = number_law(&format!("{func}({x}, {y})"));
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                want.keys().collect::<Vec<_>>()
            );
            for (v, q) in &want {
                assert!(
                    (got[v] - q).abs() <= 5e-14,
                    "{func}({x}, {y}) {v}: {} vs {q}",
                    got[v]
                );
            }
            let unlisted = if tx == 0.0 && ty == 0.0 {
                0.0
            } else {
                tx + ty - tx * ty
            };
            assert_eq!(tail, unlisted);
        }
    }
}

/// A group keeping one of items with different laws is their `max` (`kh1`) or `min`
/// (`kl1`): checked against every pair of the items' outcomes, including items whose ranges
/// differ (where `kl1` once fell outside the bounds computed for `max`).
#[test]
fn groups_keeping_one_against_every_pair() {
    for (x, y) in [("1d6", "2d6"), ("1d4+3", "1d6"), ("1d8", "1d6")] {
        let ((lx, _), (ly, _)) = (number_law(x), number_law(y));
        for (keep, highest) in [("kh1", true), ("kl1", false)] {
            let mut want = std::collections::BTreeMap::new();
            for (&v, &p) in &lx {
                for (&w, &q) in &ly {
                    let r = if highest { v.max(w) } else { v.min(w) };
                    *want.entry(r).or_insert(0.0) += p * q;
                }
            }
            let text = format!("{{{x}, {y}}}{keep}");
            let (got, tail) = number_law(&text);
            assert_eq!(tail, 0.0, "{text}");
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                want.keys().collect::<Vec<_>>(),
                "{text}"
            );
            for (v, q) in &want {
                assert!((got[v] - q).abs() <= 1e-15, "{text} {v}: {} vs {q}", got[v]);
            }
        }
    }
}

/// A fair die of `sides` faces, in a process written out by hand.
fn die(t: &mut Tape, sides: u32) -> i64 {
    i64::from(t.roll(sides))
}

/// `n` dice of `sides` faces, each face read.
fn dice(t: &mut Tape, n: u32, sides: u32) -> Vec<i64> {
    (0..n).map(|_| die(t, sides)).collect()
}

/// The sum of the `k` highest (or lowest) of `values`.
fn sum_of_top(mut values: Vec<i64>, k: usize, highest: bool) -> i64 {
    values.sort_unstable();
    if highest {
        values.reverse();
    }
    values.iter().take(k).sum()
}

/// The constructs the dialects brought (docs/notation.md, "One example per construct"),
/// each written out as its documented random process: penetration, reroll-and-add,
/// selections, failures' values, unique dice, keep/drop over dice that explosions add.
#[test]
fn dialect_pool_constructs() {
    // Penetrating: an added die counts one less; the explosion reads the face.
    let penetrating = |t: &mut Tape, cap: u32| {
        let mut f = die(t, 6);
        let mut total = f;
        let mut n = 0;
        while f == 6 && n < cap {
            f = die(t, 6);
            total += f - 1;
            n += 1;
        }
        total
    };
    check(
        "2d6!p",
        24,
        num(move |t| penetrating(t, 1000) + penetrating(t, 1000)),
    );
    check(
        "2d6!pcap2",
        6,
        num(move |t| penetrating(t, 2) + penetrating(t, 2)),
    );
    // Reroll and add: if a die shows 1, one more die is added (once).
    check(
        "3d6ra1",
        4,
        num(|t| {
            let faces = dice(t, 3, 6);
            let extra = if faces.contains(&1) { die(t, 6) } else { 0 };
            faces.iter().sum::<i64>() + extra
        }),
    );
    // Selections: the dice passing the test are dropped (kept).
    check(
        "4d6d(<3)",
        4,
        num(|t| dice(t, 4, 6).into_iter().filter(|&f| f >= 3).sum()),
    );
    check(
        "5d6k(>4)",
        5,
        num(|t| dice(t, 5, 6).into_iter().filter(|&f| f > 4).sum()),
    );
    // Failures' values: without a success test, failures subtract theirs, others add.
    check(
        "3d6sf<3",
        3,
        num(|t| {
            dice(t, 3, 6)
                .into_iter()
                .map(|f| if f < 3 { -f } else { f })
                .sum()
        }),
    );
    // Keep/drop over every die rolled, those the explosions add included.
    let all_faces = |t: &mut Tape, n: u32, sides: u32, penetrate: bool| {
        let mut values = Vec::new();
        for _ in 0..n {
            let mut f = die(t, sides);
            values.push(f);
            while f == i64::from(sides) && !t.stopped() {
                f = die(t, sides);
                values.push(if penetrate { f - 1 } else { f });
            }
        }
        values
    };
    check(
        "3d4!kh2",
        24,
        num(move |t| sum_of_top(all_faces(t, 3, 4, false), 2, true)),
    );
    check(
        "3d4!pdl1",
        24,
        num(move |t| {
            let values = all_faces(t, 3, 4, true);
            let n = values.len();
            sum_of_top(values, n - 1, true)
        }),
    );
    check(
        "3d4!kl2>=3",
        24,
        num(move |t| {
            let mut values = all_faces(t, 3, 4, false);
            values.sort_unstable();
            values.iter().take(2).filter(|&&v| v >= 3).count() as i64
        }),
    );
    // Unique: a die showing an earlier die's face is rerolled, until it does not (`uo`:
    // once, and the new face stands). Faces rerolled away are forgotten: one branch.
    let unique = |t: &mut Tape, n: u32, once: bool| {
        let mut shown: Vec<i64> = Vec::new();
        for _ in 0..n {
            let class = |s: &[i64], f: u32| {
                if s.contains(&i64::from(f)) {
                    0
                } else {
                    u64::from(f)
                }
            };
            let mut f = i64::from(t.roll_by(6, |f| class(&shown, f)));
            if once {
                // The second face stands, whatever it shows.
                if shown.contains(&f) {
                    f = die(t, 6);
                }
            } else {
                while shown.contains(&f) && !t.stopped() {
                    f = i64::from(t.roll_by(6, |g| class(&shown, g)));
                }
            }
            shown.push(f);
        }
        shown
    };
    check("3d6u", 40, num(move |t| unique(t, 3, false).iter().sum()));
    check(
        "4d6uokh3",
        8,
        num(move |t| sum_of_top(unique(t, 4, true), 3, true)),
    );
}

/// Groups: each item rolled once, then kept/dropped or counted as dice are.
#[test]
fn dialect_groups() {
    let items = |t: &mut Tape| {
        let a = die(t, 6) + die(t, 6);
        let b = die(t, 8) + 2;
        let c = die(t, 4);
        vec![a, b, c]
    };
    check(
        "{2d6, 1d8+2, 1d4}kh2",
        4,
        num(move |t| sum_of_top(items(t), 2, true)),
    );
    check(
        "{2d6, 1d8+2, 1d4}kl2",
        4,
        num(move |t| sum_of_top(items(t), 2, false)),
    );
    check(
        "{2d6, 1d8+2, 1d4}dl1",
        4,
        num(move |t| sum_of_top(items(t), 2, true)),
    );
    check(
        "{2d6, 1d8+2, 1d4}>=6",
        4,
        num(move |t| items(t).into_iter().filter(|&v| v >= 6).count() as i64),
    );
    check(
        "{2d6, 1d8+2, 1d4}d(<5)",
        4,
        num(move |t| items(t).into_iter().filter(|&v| v >= 5).sum()),
    );
    check(
        "{3d4, 3d4, 3d4}kh2",
        9,
        num(|t| {
            let v = (0..3).map(|_| dice(t, 3, 4).iter().sum()).collect();
            sum_of_top(v, 2, true)
        }),
    );
}

/// The operators and functions the dialects brought: comparisons as values, `%` (the
/// divisor's sign), `**`, rounded divisions, `abs`, `sign`.
#[test]
fn dialect_arithmetic() {
    check(
        "(1d6 >= 1d6)",
        2,
        num(|t| i64::from(die(t, 6) >= die(t, 6))),
    );
    check(
        "(1d6+1d4 < 2d4)",
        4,
        num(|t| {
            let x = die(t, 6) + die(t, 4);
            i64::from(x < die(t, 4) + die(t, 4))
        }),
    );
    let floor_mod = |x: i64, y: i64| x - y * floor_div(x, y);
    check(
        "(2d6-7) % 3",
        2,
        num(move |t| floor_mod(die(t, 6) + die(t, 6) - 7, 3)),
    );
    check(
        "(1d20-10) % (1d4+1)",
        2,
        num(move |t| {
            let x = die(t, 20) - 10;
            floor_mod(x, die(t, 4) + 1)
        }),
    );
    check(
        "(1d4-2) ** 1d3",
        2,
        num(|t| {
            let x = die(t, 4) - 2;
            x.pow(die(t, 3) as u32)
        }),
    );
    check("2d6 ** 2", 2, num(|t| (die(t, 6) + die(t, 6)).pow(2)));
    let ceil_div = |x: i64, y: i64| -floor_div(-x, y);
    // Halves up: floor(x/y + 1/2) for y > 0.
    let round_div = |x: i64, y: i64| floor_div(2 * x + y, 2 * y);
    check("ceil(1d20/3)", 1, num(move |t| ceil_div(die(t, 20), 3)));
    check(
        "round((2d6-7)/2)",
        2,
        num(move |t| round_div(die(t, 6) + die(t, 6) - 7, 2)),
    );
    check(
        "round(1d20/1d3)",
        2,
        num(move |t| {
            let x = die(t, 20);
            round_div(x, die(t, 3))
        }),
    );
    check(
        "trunc((2d6-7)/3)",
        2,
        num(|t| (die(t, 6) + die(t, 6) - 7) / 3),
    );
    check(
        "ceil((1d10-5)/1d3)",
        2,
        num(move |t| {
            let x = die(t, 10) - 5;
            ceil_div(x, die(t, 3))
        }),
    );
    check("abs(1d6-1d8)", 2, num(|t| (die(t, 6) - die(t, 8)).abs()));
    check(
        "sign(1d6-1d8)",
        2,
        num(|t| (die(t, 6) - die(t, 8)).signum()),
    );
}

/// Compares the exact law of `expr` read in `dialect` with the enumeration of `process`.
fn check_in(
    dialect: dice_notation::Dialect,
    expr: &str,
    max_draws: usize,
    process: impl Fn(&mut Tape) -> i64,
) {
    let e = Expression::parse_with(expr, dialect).unwrap_or_else(|err| panic!("{expr}: {err}"));
    let exact = e
        .distribution()
        .unwrap_or_else(|err| panic!("{expr}: {err}"));
    let (brute, missing) = enumerate(max_draws, |t| process(t));
    assert!(missing <= 1e-9, "{expr}: enumerate further ({missing})");
    assert!((exact.total() - 1.0).abs() < 1e-12, "{expr}");
    let tol = 1e-12 + missing + exact.tail();
    let outcomes: BTreeSet<i64> = brute
        .keys()
        .copied()
        .chain(exact.outcomes().iter().filter_map(|o| o.as_number()))
        .collect();
    for v in outcomes {
        let p = exact.probability(&Outcome::Number(v));
        let q = brute.get(&v).copied().unwrap_or(0.0);
        assert!(
            (p - q).abs() <= tol,
            "{expr}: P({v}) exact {p}, enumerated {q}"
        );
    }
}

/// Computed counts and sides (Foundry's `(2d4)d8`, `1d(1d20)`; Roll20's computed dice): the
/// count is rolled, then the sides, then that many dice of that size. Enumerated over every
/// count and size, each pool's faces read one by one.
#[test]
fn computed_counts_and_sides() {
    use dice_notation::Dialect::{Default, Foundry, Roll20};
    // (1d4)d3: a d4, then that many d3.
    check_in(Foundry, "(1d4)d3", 5, |t| {
        let n = die(t, 4);
        (0..n).map(|_| die(t, 3)).sum()
    });
    // (1d3+1)d4: two to four d4.
    check_in(Roll20, "(1d3+1)d4", 5, |t| {
        let n = die(t, 3) + 1;
        (0..n).map(|_| die(t, 4)).sum()
    });
    // 2d(1d4+2): the sides (3 to 6) first, then two dice.
    check_in(Foundry, "2d(1d4+2)", 3, |t| {
        let s = die(t, 4) as u32 + 2;
        die(t, s) + die(t, s)
    });
    // 1d(1d3): a die of one side shows 1.
    check_in(Foundry, "1d(1d3)", 2, |t| {
        let s = die(t, 3) as u32;
        if s == 1 { 1 } else { die(t, s) }
    });
    // (1d3-1)d4kh2: none, one or two d4, keeping the highest two (all of them).
    check_in(Default, "(1d3-1)d4kh1", 3, |t| {
        let n = die(t, 3) - 1;
        let v = dice(t, n as u32, 4);
        v.into_iter().max().unwrap_or(0)
    });
    // Both rolled, with a success count: (1d2+1)d(1d2+3)>=4.
    check_in(Default, "(1d2+1)d(1d2+3)>=4", 5, |t| {
        let n = die(t, 2) + 1;
        let s = die(t, 2) as u32 + 3;
        dice(t, n as u32, s).into_iter().filter(|&f| f >= 4).count() as i64
    });
    // An exploding pool of rolled size: (1d2)d3!, untruncated.
    check_in(Default, "(1d2)d3!", 30, |t| {
        let n = die(t, 2);
        let mut total = 0;
        for _ in 0..n {
            let mut f = die(t, 3);
            total += f;
            while f == 3 && !t.stopped() {
                f = die(t, 3);
                total += f;
            }
        }
        total
    });
}

/// rpg-dice-roller's `dF.1` (a d6: 1 is −1, 6 is +1, the rest 0) and `u` with a compare
/// point (only duplicates passing it are rerolled, until the face fails it or is new).
#[test]
fn fate_variants_and_unique_with_a_compare_point() {
    use dice_notation::Dialect::RpgDiceRoller;
    let fate1 = |f: i64| match f {
        1 => -1,
        6 => 1,
        _ => 0,
    };
    check_in(RpgDiceRoller, "3dF.1", 3, move |t| {
        dice(t, 3, 6).into_iter().map(fate1).sum()
    });
    check_in(RpgDiceRoller, "3dF.2", 3, |t| {
        dice(t, 3, 3).into_iter().map(|f| f - 2).sum()
    });
    // 3d4u=4: a later die showing a 4 an earlier die shows is rerolled while it shows 4
    // (dice-core's limit of 1,000 rerolls leaves less than 1e-120 unaccounted).
    let unique = |t: &mut Tape, n: usize, sides: u32, on: &dyn Fn(i64) -> bool| {
        let mut shown: Vec<i64> = Vec::new();
        for _ in 0..n {
            let mut f = die(t, sides);
            while on(f) && shown.contains(&f) && !t.stopped() {
                f = die(t, sides);
            }
            shown.push(f);
        }
        shown
    };
    check_in(RpgDiceRoller, "3d4u=4", 40, move |t| {
        unique(t, 3, 4, &|f| f == 4).iter().sum()
    });
    check_in(RpgDiceRoller, "3d4u=4kh2", 40, move |t| {
        sum_of_top(unique(t, 3, 4, &|f| f == 4), 2, true)
    });
}

/// Keep/drop over exploding dice that are also rerolled until they stand (`4d6r1!kh3`):
/// every die, added ones included, is rerolled; keep among all of them. With a cap, so
/// that only the rerolls go on (a 1 rerolled away is forgotten: one branch).
#[test]
fn keep_over_exploding_dice_that_are_rerolled() {
    use dice_notation::Dialect::Default;
    let all = |t: &mut Tape, n: u32, cap: u32| {
        let mut values = Vec::new();
        let stand = |t: &mut Tape| loop {
            let f = i64::from(t.roll_by(4, |f| u64::from(f != 1) * u64::from(f)));
            if f != 1 || t.stopped() {
                return f;
            }
        };
        for _ in 0..n {
            let mut f = stand(t);
            values.push(f);
            let mut extra = 0;
            while f == 4 && extra < cap {
                f = stand(t);
                values.push(f);
                extra += 1;
            }
        }
        values
    };
    check_in(Default, "2d4r1!cap2kh2", 24, move |t| {
        sum_of_top(all(t, 2, 2), 2, true)
    });
    check_in(Default, "2d4r1!cap1dl1>=3", 24, move |t| {
        let mut v = all(t, 2, 1);
        v.sort_unstable();
        v.iter().skip(1).filter(|&&x| x >= 3).count() as i64
    });
}

/// Avrae d20's chained selectors, written out as plain code over every sequence of faces:
/// joined selectors keep the union (`5d4kh2kl1`), a set's operation chooses among the dice
/// its item kept (`(5d4kh3)kl2`), a drop after a keep among those kept (`5d4k1ph1`), with
/// rerolls and clamps before them, and over a set's items.
#[test]
fn chained_selectors() {
    use dice_notation::Dialect::{D20, Default};
    let sorted = |mut v: Vec<i64>| {
        v.sort_unstable();
        v
    };
    // The highest 2 together with the lowest 1 of 5 dice. As d20 picks, among equal values
    // the earlier die first, so on a tie both may pick the same die (five 1s keep two).
    let union = |v: &[i64], hi: usize, lo: usize| {
        let mut by: Vec<usize> = (0..v.len()).collect();
        by.sort_by_key(|&i| std::cmp::Reverse(v[i]));
        let mut kept: BTreeSet<usize> = by.iter().take(hi).copied().collect();
        by.sort_by_key(|&i| v[i]);
        kept.extend(by.iter().take(lo));
        kept.iter().map(|&i| v[i]).sum::<i64>()
    };
    check_in(D20, "5d4kh2kl1", 5, move |t| union(&dice(t, 5, 4), 2, 1));
    // Fewer dice than the selectors name: every die is kept once.
    check_in(D20, "2d4kh2kl1", 2, move |t| dice(t, 2, 4).iter().sum());
    // The lowest 2 of the highest 3.
    check_in(D20, "(5d4kh3)kl2", 5, move |t| {
        let v = sorted(dice(t, 5, 4));
        v[2] + v[3]
    });
    // The 1s kept, then the highest of them dropped.
    check_in(D20, "5d4k1ph1", 5, move |t| {
        let ones = dice(t, 5, 4).iter().filter(|&&f| f == 1).count() as i64;
        (ones - 1).max(0)
    });
    // Dropping the 1s and the 4s, then keeping the highest of the rest.
    check_in(D20, "4d4p1p4kh1", 4, move |t| {
        let v = dice(t, 4, 4);
        v.into_iter()
            .filter(|&f| f != 1 && f != 4)
            .max()
            .unwrap_or(0)
    });
    // Rerolled once and clamped before the chain.
    check_in(D20, "4d4ro1mi2kh1kl1", 8, move |t| {
        let v: Vec<i64> = (0..4)
            .map(|_| {
                let f = die(t, 4);
                let f = if f == 1 { die(t, 4) } else { f };
                f.max(2)
            })
            .collect();
        union(&v, 1, 1)
    });
    // A set of differing items: the highest and the lowest.
    check_in(D20, "(1d4, 1d6, 2)kh1kl1", 2, move |t| {
        union(&[die(t, 4), die(t, 6), 2], 1, 1)
    });
    // This crate's spelling of the steps.
    check_in(Default, "4d4k(h3)d(l1,=4)", 4, move |t| {
        let v = sorted(dice(t, 4, 4));
        v[1..].iter().skip(1).filter(|&&f| f != 4).sum()
    });
}

/// rpg-dice-roller's unique dice with a compare point cannot run out of faces when some
/// face fails the point: `10d4u<=2` is read (a 3 or a 4 ends the rerolling), and its law
/// sums to 1; `5d4u<=4` (every face rerolled) is refused as `5d4u` is.
#[test]
fn unique_with_a_compare_point_that_stops() {
    use dice_notation::Dialect::RpgDiceRoller;
    let e = Expression::parse_with("10d4u<=2", RpgDiceRoller).expect("10d4u<=2");
    let law = e.distribution().expect("law");
    assert!((law.total() - 1.0).abs() < 1e-12);
    assert!(Expression::parse_with("5d4u<=4", RpgDiceRoller).is_err());
    check_in(RpgDiceRoller, "3d3u=1", 25, move |t| {
        // Only a duplicate 1 is rerolled, while it shows 1 (at most 1,000 times; the
        // enumeration stops long before that matters).
        let mut seen: Vec<i64> = Vec::new();
        for _ in 0..3 {
            let mut f = die(t, 3);
            while f == 1 && seen.contains(&1) && !t.stopped() {
                f = die(t, 3);
            }
            seen.push(f);
        }
        seen.iter().sum()
    });
}

/// Issue 17's Roll20 and Foundry constructs, each written out as its source documents it:
/// Roll20's one-item groups (a constant added to each die before the test; keep/drop across
/// dice of several kinds), bare `r` (1s rerolled until they stand), repeated critical
/// markers; Foundry's bare `d`, `df` without `cs`, a bare `df` after `cs` or `cf`, and the
/// coin's call.
#[test]
fn roll20_and_foundry_constructs() {
    use dice_notation::Dialect::{Foundry, Roll20};
    let count =
        |v: Vec<i64>, pass: &dyn Fn(i64) -> bool| v.into_iter().filter(|&x| pass(x)).count() as i64;
    // `{3d4+1}>4`: 1 added to each die, then 4 or more (Roll20's `>` includes the 4).
    check_in(Roll20, "{3d4+1}>4", 3, move |t| {
        count(dice(t, 3, 4), &|x| x + 1 >= 4)
    });
    // With failures: `<3` includes the 3.
    check_in(Roll20, "{2d6+1}>6f<3", 2, |t| {
        dice(t, 2, 6)
            .into_iter()
            .map(|x| x + 1)
            .map(|v| i64::from(v >= 6) - i64::from(v <= 3))
            .sum()
    });
    // Dice of two kinds and a constant taken away, counted.
    check_in(Roll20, "{2d4+1d6-1}<2", 3, move |t| {
        let mut v = dice(t, 2, 4);
        v.push(die(t, 6));
        count(v, &|x| x - 1 <= 2)
    });
    // Keep and drop across dice of two kinds.
    check_in(Roll20, "{2d4+2d6}k3", 4, |t| {
        let mut v = dice(t, 2, 4);
        v.extend(dice(t, 2, 6));
        sum_of_top(v, 3, true)
    });
    check_in(Roll20, "{1d4+2d6}dh1", 3, |t| {
        let mut v = vec![die(t, 4)];
        v.extend(dice(t, 2, 6));
        sum_of_top(v, 2, false)
    });
    // A bare `r`: a 1 is rerolled until it is no 1 (a face rerolled away is forgotten).
    check_in(Roll20, "2d4r", 34, |t| {
        let mut total = 0;
        for _ in 0..2 {
            let mut f = t.roll(4);
            while f == 1 && !t.stopped() {
                f = t.roll(4);
            }
            total += i64::from(f);
        }
        total
    });
    // Critical markers, given twice, leave the law alone.
    check_in(Roll20, "2d6cs6cs1cf2", 2, |t| dice(t, 2, 6).iter().sum());
    // `%` keeps the dividend's sign (JavaScript's), in Roll20 and Foundry.
    check_in(Roll20, "(1d6-4)%3", 1, |t| (die(t, 6) - 4) % 3);
    check_in(Foundry, "(2d4-5)%-3", 2, |t| {
        (die(t, 4) + die(t, 4) - 5) % -3
    });
    // Foundry's bare `d`: the lowest die dropped.
    check_in(Foundry, "3d4d", 3, |t| sum_of_top(dice(t, 3, 4), 2, true));
    // `df` alone: the dice that are no 1 add their values, each 1 deducts one.
    check_in(Foundry, "3d4df", 3, |t| {
        dice(t, 3, 4)
            .into_iter()
            .map(|x| if x == 1 { -1 } else { x })
            .sum()
    });
    check_in(Foundry, "3d6df<=2", 3, |t| {
        dice(t, 3, 6)
            .into_iter()
            .map(|x| if x <= 2 { -1 } else { x })
            .sum()
    });
    // A bare `df` after `cs>2`: every die that is no success deducts one.
    check_in(Foundry, "4d4cs>2df", 4, |t| {
        dice(t, 4, 4)
            .into_iter()
            .map(|x| if x > 2 { 1 } else { -1 })
            .sum()
    });
    // After `cf<2`: each counted failure deducts one.
    check_in(Foundry, "4d4cf<2df", 4, move |t| {
        -count(dice(t, 4, 4), &|x| x < 2)
    });
    // The coin's call: the coins showing the face called (heads 1, tails 0) are counted.
    check_in(Foundry, "3dcc0", 3, move |t| {
        count(dice(t, 3, 2), &|x| x - 1 == 0)
    });
    check_in(Foundry, "3dcc1", 3, move |t| {
        count(dice(t, 3, 2), &|x| x - 1 == 1)
    });
}

/// The number of distinct values among `values` shown at least `least` times that pass
/// `on`: Roll20's sets of matching dice, written out by hand.
fn sets_of(values: &[i64], least: usize, on: &dyn Fn(i64) -> bool) -> i64 {
    let distinct: BTreeSet<i64> = values.iter().copied().collect();
    distinct
        .into_iter()
        .filter(|&v| on(v) && values.iter().filter(|&&x| x == v).count() >= least)
        .count() as i64
}

/// Roll20's `mt`: the number of sets of matching dice, against every sequence of faces; with
/// rerolls and clamps in this crate's grammar; and the chance of no set at all against
/// `n!/(n−k)!/nᵏ` (every die a different face) for a pool too large to enumerate.
#[test]
fn sets_of_matching_dice() {
    use dice_notation::Dialect::{Default, Roll20};
    let any = |_: i64| true;
    check_in(Roll20, "4d6mt", 4, move |t| {
        sets_of(&dice(t, 4, 6), 2, &any)
    });
    check_in(Roll20, "2d6mt", 2, move |t| {
        sets_of(&dice(t, 2, 6), 2, &any)
    });
    check_in(Roll20, "5d4mt3", 5, move |t| {
        sets_of(&dice(t, 5, 4), 3, &any)
    });
    // Roll20's `>3` includes the 3.
    check_in(Roll20, "5d4mt3>3", 5, |t| {
        sets_of(&dice(t, 5, 4), 3, &|v| v >= 3)
    });
    check_in(Default, "5d4mt3(>=3)", 5, |t| {
        sets_of(&dice(t, 5, 4), 3, &|v| v >= 3)
    });
    check_in(Default, "5d3mt(=2)", 5, |t| {
        sets_of(&dice(t, 5, 3), 2, &|v| v == 2)
    });
    check_in(Default, "3d5mt1", 3, move |t| {
        sets_of(&dice(t, 3, 5), 1, &any)
    });
    // Rerolled once, then matched.
    check_in(Default, "3d4ro1mt", 6, move |t| {
        let v: Vec<i64> = (0..3)
            .map(|_| match die(t, 4) {
                1 => die(t, 4),
                f => f,
            })
            .collect();
        sets_of(&v, 2, &any)
    });
    // Clamped values match: a 1 and a 2 both count as 2.
    check_in(Default, "4d5min2mt", 4, move |t| {
        let v: Vec<i64> = dice(t, 4, 5).into_iter().map(|x| x.max(2)).collect();
        sets_of(&v, 2, &any)
    });
    // Fate dice: faces −1, 0, 1.
    check_in(Default, "4dFmt", 4, move |t| {
        let v: Vec<i64> = dice(t, 4, 3).into_iter().map(|x| x - 2).collect();
        sets_of(&v, 2, &any)
    });
    // No set among 9d12: every die a different face.
    let law = Expression::parse("9d12mt")
        .unwrap_or_else(|err| panic!("9d12mt: {err}"))
        .distribution()
        .unwrap_or_else(|err| panic!("9d12mt: {err}"));
    let none: f64 = (0..9).map(|i| f64::from(12 - i) / 12.0).product();
    let p = law.probability(&Outcome::Number(0));
    assert!((p - none).abs() < 1e-12, "9d12mt: P(0) {p}, formula {none}");
    assert!((law.total() - 1.0).abs() < 1e-12);
    // Refused where the value would need a ruling: with explosions, keep/drop, tests.
    for text in ["6d6!mt", "6d6kh3mt", "6d6mt>=4", "6d6mtmt"] {
        assert!(Expression::parse(text).is_err(), "{text} parsed");
    }
}

/// rpg-dice-roller's keep and drops on one term: the library sorts every die once (ties in
/// rolling order), its keep marks the dice outside the ranks it keeps, then each drop marks
/// the ranks it names, over all the dice; the rest add up. Written out by ranks here.
#[test]
fn rpg_dice_roller_keep_and_drops_on_one_term() {
    use dice_notation::Dialect::RpgDiceRoller;
    // (keep highest q, keep lowest q, drop lowest r, drop highest r), by rank.
    let by_ranks = |v: Vec<i64>, kh: usize, kl: usize, dl: usize, dh: usize| -> i64 {
        let mut sorted = v;
        sorted.sort_unstable();
        let n = sorted.len();
        sorted
            .iter()
            .enumerate()
            .filter(|&(i, _)| {
                let kept = (kh == 0 || i + kh >= n) && (kl == 0 || i < kl);
                let dropped = i < dl || i + dh >= n;
                kept && !dropped
            })
            .map(|(_, &x)| x)
            .sum()
    };
    check_in(RpgDiceRoller, "3d6k1dh1", 3, move |t| {
        by_ranks(dice(t, 3, 6), 1, 0, 0, 1)
    });
    check_in(RpgDiceRoller, "4d4k2d1", 4, move |t| {
        by_ranks(dice(t, 4, 4), 2, 0, 1, 0)
    });
    check_in(RpgDiceRoller, "4d4kh3dl1dh1", 4, move |t| {
        by_ranks(dice(t, 4, 4), 3, 0, 1, 1)
    });
    check_in(RpgDiceRoller, "4d4kl3dh2dl1", 4, move |t| {
        by_ranks(dice(t, 4, 4), 0, 3, 1, 2)
    });
    check_in(RpgDiceRoller, "4d4dl1kl2", 4, move |t| {
        by_ranks(dice(t, 4, 4), 0, 2, 1, 0)
    });
    check_in(RpgDiceRoller, "5d3dh1dl2", 5, move |t| {
        by_ranks(dice(t, 5, 3), 0, 0, 2, 1)
    });
    // Rolled with faces given: the written order does not matter.
    for text in ["5d6dh1kh3", "5d6kh3dh1"] {
        let e = Expression::parse_with(text, RpgDiceRoller).unwrap_or_else(|err| panic!("{err}"));
        let r = e
            .roll_faces([6, 2, 5, 1, 4])
            .unwrap_or_else(|err| panic!("{text}: {err}"));
        // The highest three are 6, 5, 4; the 6 is then dropped.
        assert_eq!(r.outcome, Outcome::Number(5 + 4), "{text}");
    }
    // Both ends kept: the ranks both keeps keep (none when they do not meet).
    check_in(RpgDiceRoller, "4d4kh3kl2", 4, move |t| {
        by_ranks(dice(t, 4, 4), 3, 2, 0, 0)
    });
    check_in(RpgDiceRoller, "4d4kh1kl1", 4, move |t| {
        by_ranks(dice(t, 4, 4), 1, 1, 0, 0)
    });
    check_in(RpgDiceRoller, "5d3kh4kl3dl1", 5, move |t| {
        by_ranks(dice(t, 5, 3), 4, 3, 1, 0)
    });
    // A modifier given twice is refused, and both ends kept over a number of dice that
    // explosions change.
    for text in ["4d6dl1dl2", "4d6!kh1kl1"] {
        assert!(
            Expression::parse_with(text, RpgDiceRoller).is_err(),
            "{text}"
        );
    }
}

/// One reroll or explosion step as Foundry VTT's `Die#reroll` and `Die#explode` run it: the
/// results are walked in order (new dice appended at the end); an inactive (rerolled) result
/// is skipped; the walk stops once the term-wide limit is spent; a passing result explodes
/// (a new die appended) or is rerolled (set inactive, a new die appended); a non-recursive
/// step stops after the results there when it began.
struct Walk {
    explode: bool,
    recursive: bool,
    on: fn(i64) -> bool,
    limit: Option<u32>,
}

/// The faces of the active results after Foundry's steps, on `n` dice of `sides` faces
/// (faces read through `class`: what follows depends on a face only through its class).
fn foundry(t: &mut Tape, n: u32, sides: u32, steps: &[Walk], class: fn(u32) -> u64) -> Vec<i64> {
    let mut results: Vec<(i64, bool)> = (0..n)
        .map(|_| (i64::from(t.roll_by(sides, class)), true))
        .collect();
    for step in steps {
        let initial = results.len();
        let mut left = step.limit;
        let mut checked = 0;
        while checked < results.len() && !t.stopped() {
            let (face, active) = results[checked];
            checked += 1;
            if !active {
                continue;
            }
            if left == Some(0) {
                break;
            }
            if (step.on)(face) {
                if !step.explode {
                    results[checked - 1].1 = false;
                }
                results.push((i64::from(t.roll_by(sides, class)), true));
                left = left.map(|l| l - 1);
            }
            if !step.recursive && checked >= initial {
                break;
            }
        }
    }
    results.into_iter().filter(|r| r.1).map(|r| r.0).collect()
}

/// Every face its own class.
fn each(f: u32) -> u64 {
    u64::from(f)
}

/// Foundry's term-wide limits (`6d10x5=10`, `20d20r1=1`) and rerolls or explosions applied
/// one after the other in the order written (`5d10xo<8x10`), against Foundry's walk written
/// out above.
#[test]
fn foundry_limits_and_steps_in_order() {
    use dice_notation::Dialect::Foundry;
    let x = |recursive, on, limit| Walk {
        explode: true,
        recursive,
        on,
        limit,
    };
    let r = |recursive, on, limit| Walk {
        explode: false,
        recursive,
        on,
        limit,
    };
    let sum = |v: Vec<i64>| v.into_iter().sum::<i64>();
    let count = |v: Vec<i64>, at: i64| v.into_iter().filter(|&f| f >= at).count() as i64;
    // Explode, at most 2 (3) explosions in the term.
    check_in(Foundry, "4d6x2=6", 6, move |t| {
        sum(foundry(t, 4, 6, &[x(true, |f| f == 6, Some(2))], each))
    });
    check_in(Foundry, "3d6x3>=5", 6, move |t| {
        sum(foundry(t, 3, 6, &[x(true, |f| f >= 5, Some(3))], each))
    });
    // Explode once, at most 2; a limit above the dice never bites.
    check_in(Foundry, "3d6xo2=6", 5, move |t| {
        sum(foundry(t, 3, 6, &[x(false, |f| f == 6, Some(2))], each))
    });
    check_in(Foundry, "2d4xo3>=3", 4, move |t| {
        sum(foundry(t, 2, 4, &[x(false, |f| f >= 3, Some(3))], each))
    });
    // Reroll once, at most 2; reroll until, at most 2.
    check_in(Foundry, "4d6r2=1", 6, move |t| {
        sum(foundry(t, 4, 6, &[r(false, |f| f == 1, Some(2))], each))
    });
    check_in(Foundry, "3d4rr2<=2", 5, move |t| {
        sum(foundry(t, 3, 4, &[r(true, |f| f <= 2, Some(2))], each))
    });
    // Every face explodes: only the limit stops it (counted successes, faces in classes).
    check_in(Foundry, "3d6x5>=1cs>=6", 8, move |t| {
        let v = foundry(t, 3, 6, &[x(true, |f| f >= 1, Some(5))], |f| {
            u64::from(f == 6)
        });
        count(v, 6)
    });
    // A limit with successes counted, faces in classes.
    check_in(Foundry, "6d6x3=6cs>=5", 9, move |t| {
        let class = |f: u32| u64::from(f >= 5) + u64::from(f == 6);
        let v = foundry(t, 6, 6, &[x(true, |f| f == 6, Some(3))], class);
        count(v, 5)
    });
    // Two steps without limits: once on 5, then once on 6; rerolls once on 1, then on 2.
    check_in(Foundry, "2d6xo5xo6cs>=5", 8, move |t| {
        let steps = [x(false, |f| f == 5, None), x(false, |f| f == 6, None)];
        let class = |f: u32| u64::from(f.max(4) - 4);
        count(foundry(t, 2, 6, &steps, class), 5)
    });
    check_in(Foundry, "2d6r1r2", 6, move |t| {
        let steps = [r(false, |f| f == 1, None), r(false, |f| f == 2, None)];
        sum(foundry(t, 2, 6, &steps, each))
    });
    // Once on a 1, then recursively on 10s (untruncated: the walk's faces in classes).
    check_in(Foundry, "2d10xo1x10cs>=10", 24, move |t| {
        let steps = [x(false, |f| f == 1, None), x(true, |f| f == 10, None)];
        let class = |f: u32| match f {
            1 => 0,
            10 => 2,
            _ => 1,
        };
        count(foundry(t, 2, 10, &steps, class), 10)
    });
    // Rerolls until, one after the other, on one die.
    check_in(Foundry, "1d10rr1rr10cs>=9", 30, move |t| {
        let steps = [r(true, |f| f == 1, None), r(true, |f| f == 10, None)];
        let class = |f: u32| match f {
            1 => 0,
            9 => 2,
            10 => 3,
            _ => 1,
        };
        count(foundry(t, 1, 10, &steps, class), 9)
    });
    // A limit together with another step rolls, but has no exact law here.
    let e = Expression::parse_with("3d6r1=1x6", Foundry).unwrap_or_else(|err| panic!("{err}"));
    assert!(matches!(
        e.distribution(),
        Err(dice_notation::NotationError::Unsupported { .. })
    ));
}

/// rpg-dice-roller's group of one sub-roll: a compare point compares its total; a keep or
/// drop ranks every die in it (by value, a later die above an earlier one among equals)
/// and the sub-roll is computed with each term's kept dice.
#[test]
fn groups_of_one_sub_roll() {
    use dice_notation::Dialect::RpgDiceRoller;
    // The terms' dice in rolling order; the kept ones by rank (value, then position).
    let keep = |terms: &[Vec<i64>], top: bool, k: usize| -> Vec<i64> {
        let mut ranked: Vec<(i64, usize, usize)> = Vec::new();
        for (i, v) in terms.iter().enumerate() {
            for &x in v {
                let pos = ranked.len();
                ranked.push((x, pos, i));
            }
        }
        ranked.sort();
        let chosen: Vec<&(i64, usize, usize)> = if top {
            ranked.iter().rev().take(k).collect()
        } else {
            ranked.iter().take(k).collect()
        };
        let mut sums = vec![0; terms.len()];
        for &&(x, _, i) in &chosen {
            sums[i] += x;
        }
        sums
    };
    check_in(RpgDiceRoller, "{2d4*1d6}k2", 3, move |t| {
        let s = keep(&[dice(t, 2, 4), dice(t, 1, 6)], true, 2);
        s[0] * s[1]
    });
    check_in(RpgDiceRoller, "{2d3*2d3}k2", 4, move |t| {
        let s = keep(&[dice(t, 2, 3), dice(t, 2, 3)], true, 2);
        s[0] * s[1]
    });
    check_in(RpgDiceRoller, "{2d3*2d3}kl3", 4, move |t| {
        let s = keep(&[dice(t, 2, 3), dice(t, 2, 3)], false, 3);
        s[0] * s[1]
    });
    // Drop the highest one (keep the lowest 2), drop the lowest (keep the highest 3).
    check_in(RpgDiceRoller, "{1d4*2d3}dh1", 3, move |t| {
        let s = keep(&[dice(t, 1, 4), dice(t, 2, 3)], false, 2);
        s[0] * s[1]
    });
    check_in(RpgDiceRoller, "{2d4-2d3+1}d1", 4, move |t| {
        let s = keep(&[dice(t, 2, 4), dice(t, 2, 3)], true, 3);
        s[0] - s[1] + 1
    });
    check_in(RpgDiceRoller, "{2dF*1d4}d1", 3, move |t| {
        let fate: Vec<i64> = (0..2).map(|_| die(t, 3) - 2).collect();
        let s = keep(&[fate, dice(t, 1, 4)], true, 2);
        s[0] * s[1]
    });
    check_in(RpgDiceRoller, "{max(2d4, 1d6)+1d3}kl2", 4, move |t| {
        let s = keep(&[dice(t, 2, 4), dice(t, 1, 6), dice(t, 1, 3)], false, 2);
        s[0].max(s[1]) + s[2]
    });
    // A compare point on the total, with failures; after a keep of the dice.
    check_in(RpgDiceRoller, "{2d6+1}>8f<4", 2, move |t| {
        let v = die(t, 6) + die(t, 6) + 1;
        i64::from(v > 8) - i64::from(v < 4)
    });
    check_in(RpgDiceRoller, "{2d4*1d4}k2>5", 3, move |t| {
        let s = keep(&[dice(t, 2, 4), dice(t, 1, 4)], true, 2);
        i64::from(s[0] * s[1] > 5)
    });
}

/// Roll20's inline rolls: rolled first, then a number where they stand: the count, the
/// sides, a success target.
#[test]
fn inline_rolls() {
    use dice_notation::Dialect::Roll20;
    check_in(Roll20, "3d4>[[1d3]]", 4, |t| {
        let target = die(t, 3);
        dice(t, 3, 4).into_iter().filter(|&f| f >= target).count() as i64
    });
    check_in(Roll20, "2d6<[[1d4+1]]f6", 3, |t| {
        let target = die(t, 4) + 1;
        dice(t, 2, 6)
            .into_iter()
            .map(|f| i64::from(f <= target) - i64::from(f == 6))
            .sum()
    });
    check_in(Roll20, "[[1d3]]d4+[[1d2]]", 5, |t| {
        let n = die(t, 3) as u32;
        let total: i64 = dice(t, n, 4).into_iter().sum();
        total + die(t, 2)
    });
    check_in(Roll20, "2d[[1d3+1]]", 3, |t| {
        let sides = die(t, 3) as u32 + 1;
        dice(t, 2, sides).into_iter().sum()
    });
}

/// Keep/drop over penetrating dice runs dice-core's program over the dice explosions add,
/// whose work is known only as it goes: it gets what is left of the expression's budget, so a
/// query over that budget is refused by it, not after dice-core's ten times larger one (found
/// by fuzzing: `450d10!pk99` worked 12 s before it was refused). No timing: the refusal's
/// limit is the expression's.
#[test]
fn keep_over_penetrating_dice_stops_at_the_expressions_budget() {
    for text in ["450d10!pk99", "300d10!pk99"] {
        let e = Expression::parse(text).unwrap();
        match e.distribution() {
            Err(dice_notation::NotationError::TooComplex { work, max, .. }) => {
                assert_eq!(max, dice_notation::MAX_EXACT_WORK, "{text}");
                assert!(work > max, "{text}: {work}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Within the budget: answered, total 1 with the tail.
    let law = Expression::parse("10d10!pk5")
        .unwrap()
        .distribution()
        .unwrap();
    assert!((law.total() - 1.0).abs() < 1e-9);
}

/// Groups of many items whose laws are cheap: a success count adds the items' 0/1 laws one
/// at a time, keeping one takes the running maximum, and alike items take order statistics
/// over one law. Each was refused for cost while a group was charged the product of its
/// items' outcome counts. Success counts enumerate each die by whether it passes; the
/// highest of seven d20 is the formula `(v/20)^7 − ((v−1)/20)^7`.
#[test]
fn groups_of_many_items_are_cheap() {
    use dice_notation::Dialect::{D20, Foundry, Roll20};
    let passes = |t: &mut Tape, n: usize, sides: u32, on: fn(u32) -> bool| {
        (0..n)
            .filter(|_| on(t.roll_by(sides, |f| u64::from(on(f)))))
            .count() as i64
    };
    check(
        "{1d100, 1d100, 1d100, 1d100, 1d100}>50",
        5,
        num(move |t| passes(t, 5, 100, |f| f > 50)),
    );
    // Roll20's `>15` includes 15.
    check_in(
        Roll20,
        "{1d20, 1d20, 1d20, 1d20, 1d20, 1d20, 1d20}>15",
        7,
        move |t| passes(t, 7, 20, |f| f >= 15),
    );
    check_in(
        Foundry,
        "{1d20, 1d20, 1d20, 1d20, 1d20, 1d20, 1d20, 1d20}cs>=10",
        8,
        move |t| passes(t, 8, 20, |f| f >= 10),
    );
    let law = Expression::parse_with("(1d20, 1d20, 1d20, 1d20, 1d20, 1d20, 1d20)kh1", D20)
        .unwrap()
        .distribution()
        .unwrap();
    assert_eq!(law.tail(), 0.0);
    for v in 1..=20 {
        let q = (f64::from(v) / 20.0).powi(7) - (f64::from(v - 1) / 20.0).powi(7);
        let p = law.probability(&Outcome::Number(i64::from(v)));
        assert!((p - q).abs() < 1e-12, "P({v}) exact {p}, formula {q}");
    }
}

/// The law of one exploding die (`1d<sides>!`) up to `top`: a face below the highest ends
/// the chain, so `j` highest faces then `r` has chance `sides^−(j+1)`.
fn exploding_die(sides: i64, top: i64) -> Vec<f64> {
    let mut p = vec![0.0; top as usize + 1];
    let mut chain = 0;
    let mut weight = 1.0 / sides as f64;
    while chain < top {
        for r in 1..sides {
            if chain + r <= top {
                p[(chain + r) as usize] += weight;
            }
        }
        chain += sides;
        weight /= sides as f64;
    }
    p
}

/// The law of the sum of independent laws, up to `top` (exact below it: every value is ≥ 0).
fn convolve_to(x: &[f64], y: &[f64], top: usize) -> Vec<f64> {
    let mut out = vec![0.0; top + 1];
    for (i, p) in x.iter().enumerate() {
        for (j, q) in y.iter().enumerate() {
            if i + j <= top {
                out[i + j] += p * q;
            }
        }
    }
    out
}

/// Groups of alike exploding items (`{4d6!, 4d6!, 4d6!}kh2`): three items, each the sum of
/// exploding dice, kept or counted; against every triple of item values up to a bound
/// (every value is at least 1, so a kept total `s` at most the bound needs no item above
/// it), and the count against the binomial law of one item's chance.
#[test]
fn groups_of_alike_exploding_items() {
    const TOP: usize = 48;
    let d6 = exploding_die(6, TOP as i64);
    let mut four = vec![1.0];
    for _ in 0..4 {
        four = convolve_to(&four, &d6, TOP);
    }
    let d20 = exploding_die(20, TOP as i64);
    type Kept = fn([usize; 3]) -> usize;
    let cases: [(&str, &Vec<f64>, Kept); 3] = [
        ("{4d6!, 4d6!, 4d6!}kh1", &four, |v| v[2]),
        ("{4d6!, 4d6!, 4d6!}kh2", &four, |v| v[1] + v[2]),
        ("{1d20!, 1d20!, 1d20!}kh2", &d20, |v| v[1] + v[2]),
    ];
    for (text, item, kept) in cases {
        let law = Expression::parse(text).unwrap().distribution().unwrap();
        assert!((law.total() - 1.0).abs() < 1e-12, "{text}");
        let mut brute = vec![0.0; TOP + 1];
        for a in 0..=TOP {
            for b in 0..=TOP {
                for c in 0..=TOP {
                    let mut v = [a, b, c];
                    v.sort_unstable();
                    let s = kept(v);
                    if s <= TOP {
                        brute[s] += item[a] * item[b] * item[c];
                    }
                }
            }
        }
        for (s, q) in brute.iter().enumerate() {
            let p = law.probability(&Outcome::Number(s as i64));
            assert!(
                (p - q).abs() < 1e-12,
                "{text}: P({s}) exact {p}, enumerated {q}"
            );
        }
    }
    // The count of items above 10: binomial, with one item's chance from its law.
    let p: f64 = 1.0 - four[..=10].iter().sum::<f64>();
    let law = Expression::parse("{4d6!, 4d6!, 4d6!}>10")
        .unwrap()
        .distribution()
        .unwrap();
    for (j, choose) in [1.0, 3.0, 3.0, 1.0].into_iter().enumerate() {
        let q = choose * p.powi(j as i32) * (1.0 - p).powi(3 - j as i32);
        let got = law.probability(&Outcome::Number(j as i64));
        assert!((got - q).abs() < 1e-12, "P({j}) exact {got}, binomial {q}");
    }
}
