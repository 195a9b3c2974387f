//! Regression tests for the silent wrong answers that independent checks found in dice-core
//! (issue 15). Each test failed before its fix; the comment above it says what was wrong.

use dice_core::{
    Comparison, DEFAULT_EXPLOSION_CAP, Die, Dist, Exact, Explode, FaceSet, Keep, MAX_DICE,
    MAX_SIDES, Pool, Roll, RollDetailed, Streak, SuccessPool, Sum, UNCAPPED_CUT_MASS,
    uncapped_roll_cap,
};
use dice_testkit::{as_map, check_rolls, rng};

/// A face set tested on a die of more than 128 sides shifted its 128-bit mask by the face,
/// which overflowed: face 133 of a d388 read as face 5 (133 − 128), so `50d388={5}` marked
/// 133s as successes and `d1000={1,2,3}` rolled 2.389 % instead of 0.300 %.
#[test]
fn face_sets_on_dice_over_128_sides_match_only_their_faces() {
    let five = FaceSet::new([5]).unwrap();
    let pool = SuccessPool::new(
        Pool::new(50, Die::new(388).unwrap()).unwrap(),
        Comparison::OneOf(five),
    );
    let mut r = rng(15);
    for _ in 0..2_000 {
        let record = pool.roll_record(&mut r);
        for d in &record.dice {
            assert_eq!(d.flags.success, d.natural == 5, "{d:?} in {record}");
        }
    }
    // The count-only path, against the exact law: 1d1000 in {1,2,3} is 3/1000.
    let three = SuccessPool::new(
        Pool::new(1, Die::new(1000).unwrap()).unwrap(),
        Comparison::OneOf(FaceSet::new([1, 2, 3]).unwrap()),
    );
    let law = three.distribution().unwrap();
    assert!((law.probability(&1) - 3.0 / 1000.0).abs() < 1e-15);
    let mut r = rng(16);
    check_rolls("1d1000 in {1,2,3}", &law, || three.roll(&mut r));
}

/// Every die size: a set of high and low faces on each die from 2 to MAX_SIDES, rolled a few
/// thousand times, never counts a face outside the set.
#[test]
fn face_sets_never_count_a_face_outside_them_at_any_size() {
    let set = FaceSet::new([1, 2, 64, 127, 128]).unwrap();
    let mut r = rng(17);
    for sides in (2..=MAX_SIDES).step_by(7).chain([129, 256, 257, MAX_SIDES]) {
        let pool = SuccessPool::new(
            Pool::new(40, Die::new(sides).unwrap()).unwrap(),
            Comparison::OneOf(set),
        );
        for _ in 0..20 {
            let record = pool.roll_record(&mut r);
            for d in &record.dice {
                assert_eq!(d.flags.success, set.contains(d.natural), "d{sides}: {d:?}");
            }
            // The count-only path draws the same faces from the same state.
        }
    }
}

/// An uncapped roll stops only where going on is less likely than UNCAPPED_CUT_MASS, and
/// never before DEFAULT_EXPLOSION_CAP: checked for every die size and a spread of tests.
#[test]
fn uncapped_roll_caps_cut_less_than_the_promised_mass() {
    for sides in 2..=MAX_SIDES {
        for going_on in [1, sides / 2, sides - 1] {
            if going_on == 0 {
                continue;
            }
            let p = f64::from(going_on) / f64::from(sides);
            let k = uncapped_roll_cap(p);
            assert!(k >= DEFAULT_EXPLOSION_CAP);
            assert!(p.powi(k as i32) <= UNCAPPED_CUT_MASS, "d{sides} {going_on}");
            // Over a whole pool, the cut mass stays below the exact laws' tail tolerance.
            assert!(f64::from(MAX_DICE) * p.powi(k as i32) <= 1e-15);
        }
    }
}

/// Streaks without a cap stopped rolling at 100 steps, though their law is untruncated: on a
/// d128 continuing on 2..=128 (p = 127/128, mean length 127) the rolled mean was about 69.
#[test]
fn uncapped_streaks_roll_their_untruncated_law() {
    let s = Streak::new(Die::new(128).unwrap(), FaceSet::range(2, 128).unwrap(), 0).unwrap();
    let p: f64 = 127.0 / 128.0;
    assert!(p.powi(s.cap() as i32) <= UNCAPPED_CUT_MASS);
    let law = s.distribution().unwrap();
    assert!((law.mean() - p / (1.0 - p)).abs() < 1e-9, "{}", law.mean());
    // P(length ≥ 101) = p^101, which a cut at 100 made 0.
    let beyond = p.powi(101);
    let n = 40_000u32;
    let mut r = rng(18);
    let seen = (0..n).filter(|_| s.roll(&mut r) >= 101).count() as f64 / f64::from(n);
    let se = (beyond * (1.0 - beyond) / f64::from(n)).sqrt();
    assert!((seen - beyond).abs() <= 5.0 * se, "{seen} vs {beyond}");
}

/// Rolls of likely explosions stopped after 100 extra dice while the exact law went on: a d20
/// exploding on 2 or more goes past 100 extra dice with chance 0.95^100 ≈ 5.9e-3.
#[test]
fn likely_explosions_roll_past_100_extra_dice() {
    let pool = Pool::new(1, Die::D20)
        .unwrap()
        .exploding(Explode::new(Comparison::AtLeast(2)))
        .unwrap();
    let dice = SuccessPool::new(pool, Comparison::AtLeast(1));
    let law = dice.distribution().unwrap();
    let p: f64 = 0.95;
    // P(more than 101 dice) = P(more than 100 explosions) = p^101.
    let beyond = law.probability_where(|&n| n > 101);
    assert!((beyond - p.powi(101)).abs() < 1e-12, "{beyond}");
    let n = 40_000u32;
    let mut r = rng(19);
    let seen = (0..n).filter(|_| dice.roll(&mut r) > 101).count() as f64 / f64::from(n);
    let se = (beyond * (1.0 - beyond) / f64::from(n)).sqrt();
    assert!((seen - beyond).abs() <= 5.0 * se, "{seen} vs {beyond}");
}

/// An uncapped explosion that no face sets off (`4d6!7kh3`) was refused; its law is the
/// plain one.
#[test]
fn explosions_no_face_sets_off_have_the_plain_law() {
    let plain = Sum::new(Pool::new(4, Die::D6).unwrap(), Keep::Highest(3), 0).unwrap();
    let never = Sum::new(
        Pool::new(4, Die::D6)
            .unwrap()
            .exploding(Explode::new(Comparison::AtLeast(7)))
            .unwrap(),
        Keep::Highest(3),
        0,
    )
    .unwrap();
    let (a, b) = (plain.distribution().unwrap(), never.distribution().unwrap());
    assert_eq!(b.tail(), 0.0);
    assert_eq!(a.outcomes(), b.outcomes());
    dice_testkit::same(&as_map(&a), &as_map(&b), 1e-15);
}

/// A capped explosion whose cap lies beyond f64's range (`1d6!cap1000`) reported a tail of
/// about 1e-300, though a capped law is finite.
#[test]
fn capped_explosions_report_no_tail() {
    let pool = Pool::new(1, Die::D6)
        .unwrap()
        .exploding(Explode::new(Comparison::Exactly(6)).with_cap(1000).unwrap())
        .unwrap();
    let law = Sum::new(pool, Keep::All, 0)
        .unwrap()
        .distribution()
        .unwrap();
    assert_eq!(law.tail(), 0.0);
    assert!((law.total() - 1.0).abs() < 1e-12);
    // One d6 exploding on 6: mean 3.5 / (1 − 1/6) = 4.2.
    assert!((law.mean() - 4.2).abs() < 1e-9, "{}", law.mean());
}

/// A law built from pairs can carry its tail as given, so a finite law reports 0.
#[test]
fn laws_from_pairs_take_their_tail_as_given() {
    let third = 1.0 / 3.0;
    let d = Dist::from_pairs_and_tail([(1, third), (2, third), (3, third)], 0.0).unwrap();
    assert_eq!(d.tail(), 0.0);
    assert!(Dist::from_pairs_and_tail([(1, 0.5)], -0.1).is_err());
    assert!(Dist::from_pairs_and_tail([(1, 0.9)], 0.2).is_err());
}
