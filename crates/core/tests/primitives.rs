//! Unit tests for every dice-core primitive, including the rulebooks' worked examples that
//! exercise a primitive on its own (the game crates test the rest).

use dice_core::{
    BlockRule, Blocking, Cancellation, Comparison, Die, Error, Explode, FaceSet, Keep, MAX_DICE,
    MAX_EXPLOSION_CAP, Pool, Roll, RollDetailed, RollRecord, Source, Streak, SuccessPool, Sum,
    Versus, VersusTarget, block, cancel,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

// ---------------------------------------------------------------- dice and validation

#[test]
fn die_sides_are_validated() {
    assert!(matches!(Die::new(0), Err(Error::Sides { sides: 0, .. })));
    assert!(matches!(Die::new(1), Err(Error::Sides { sides: 1, .. })));
    assert!(Die::new(2).is_ok());
    assert!(Die::new(1000).is_ok());
    assert!(matches!(
        Die::new(1001),
        Err(Error::Sides { sides: 1001, .. })
    ));
    assert_eq!(Die::new(100).unwrap(), Die::D100);
    assert_eq!(Die::D100.to_string(), "d100");
}

#[test]
fn d100_rolls_one_to_one_hundred() {
    let mut r = rng(1);
    let mut seen = [false; 101];
    for _ in 0..20_000 {
        let f = Die::D100.roll(&mut r);
        assert!((1..=100).contains(&f));
        seen[f as usize] = true;
    }
    assert!(!seen[0]);
    assert!(seen[1..].iter().all(|&s| s), "every face 1..=100 appears");
}

#[test]
fn pools_are_bounded() {
    assert!(Pool::new(MAX_DICE, Die::D6).is_ok());
    let err = Pool::new(10_000_000, Die::D6).unwrap_err();
    assert_eq!(
        err,
        Error::TooManyDice {
            count: 10_000_000,
            max: MAX_DICE
        }
    );
    assert!(
        Pool::new(MAX_DICE, Die::D6)
            .unwrap()
            .with_dice(1, Die::D6, Source::Bonus)
            .is_err()
    );
    // An explosion that could produce too many dice is refused up front.
    let always = Explode::new(Comparison::AtLeast(1))
        .with_cap(MAX_EXPLOSION_CAP)
        .unwrap();
    assert!(matches!(
        Pool::new(1000, Die::D6).unwrap().exploding(always),
        Err(Error::TooManyRolled { .. })
    ));
}

#[test]
fn errors_say_what_is_allowed() {
    let e = Pool::new(10_000_000, Die::D6).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a pool holds at most 10000 dice, not 10000000"
    );
    let e = Streak::new(Die::D6, FaceSet::range(1, 6).unwrap(), 0).unwrap_err();
    assert!(e.to_string().contains("never stops"), "{e}");
    let e = Sum::new(Pool::new(3, Die::D6).unwrap(), Keep::Highest(4), 0).unwrap_err();
    assert_eq!(e, Error::Keep { k: 4, count: 3 });
    let e = VersusTarget::new(
        Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 0).unwrap(),
        i64::MAX,
    )
    .unwrap_err();
    assert!(matches!(e, Error::OutOfRange { what: "target", .. }));
    assert!(FaceSet::new([0]).is_err());
    assert!(FaceSet::new([129]).is_err());
    assert!(Explode::new(Comparison::Exactly(6)).with_cap(0).is_err());
}

#[test]
fn comparisons_count_faces() {
    assert_eq!(Comparison::AtLeast(4).faces_passing(6), 3);
    assert_eq!(Comparison::AtMost(5).faces_passing(10), 5);
    assert_eq!(Comparison::Above(4).faces_passing(6), 2);
    assert_eq!(Comparison::Below(4).faces_passing(6), 3);
    assert_eq!(Comparison::Exactly(1).faces_passing(6), 1);
    assert_eq!(Comparison::Exactly(7).faces_passing(6), 0);
    assert_eq!(Comparison::AtLeast(-5).faces_passing(6), 6);
    assert_eq!(Comparison::AtMost(11).faces_passing(10), 10);
    let set = FaceSet::new([2, 4, 6]).unwrap();
    assert_eq!(Comparison::OneOf(set).faces_passing(6), 3);
    assert_eq!(Comparison::OneOf(set).faces_passing(4), 2);
}

// ---------------------------------------------------------------- success counting

#[test]
fn certain_and_impossible_tests() {
    let mut r = rng(2);
    let all = SuccessPool::new(Pool::new(25, Die::D10).unwrap(), Comparison::AtMost(10));
    let none = SuccessPool::new(Pool::new(25, Die::D10).unwrap(), Comparison::AtMost(0));
    for _ in 0..100 {
        assert_eq!(all.count(&mut r), 25);
        assert_eq!(none.count(&mut r), 0);
    }
}

#[test]
fn record_flags_successes_and_criticals() {
    let p = SuccessPool::new(Pool::new(40, Die::D6).unwrap(), Comparison::AtLeast(4));
    let rec = p.roll_record(&mut rng(3));
    assert_eq!(rec.dice.len(), 40);
    for d in &rec.dice {
        assert_eq!(d.flags.success, d.natural >= 4);
        assert_eq!(d.flags.critical, d.natural == 1);
    }
    assert_eq!(
        rec.successes as usize,
        rec.dice.iter().filter(|d| d.natural >= 4).count()
    );
    assert_eq!(
        rec.criticals as usize,
        rec.dice.iter().filter(|d| d.natural == 1).count()
    );
}

#[test]
fn mixed_pools_keep_their_sources() {
    let pool = Pool::new(3, Die::D6)
        .unwrap()
        .with_dice(2, Die::D6, Source::Artifact)
        .unwrap()
        .with_dice(1, Die::D10, Source::Bonus)
        .unwrap();
    assert_eq!(pool.count(), 6);
    assert_eq!(pool.to_string(), "3d6+2d6(artifact)+1d10(bonus)");
    let dice = pool.roll(&mut rng(4));
    let sources: Vec<Source> = dice.iter().map(|d| d.source).collect();
    assert_eq!(
        sources,
        [
            Source::Primary,
            Source::Primary,
            Source::Primary,
            Source::Artifact,
            Source::Artifact,
            Source::Bonus
        ]
    );
    assert_eq!(dice[5].die, Die::D10);
}

// ---------------------------------------------------------------- keep/drop and sums

#[test]
fn keep_highest_drops_the_lowest_die_and_breaks_ties_in_roll_order() {
    let sum = Sum::new(Pool::new(4, Die::D6).unwrap(), Keep::Highest(3), 0).unwrap();
    let mut r = rng(5);
    for _ in 0..200 {
        let rec = sum.roll_record(&mut r);
        let dropped: Vec<_> = rec.dice.iter().filter(|d| !d.flags.kept).collect();
        assert_eq!(dropped.len(), 1);
        let min = rec.dice.iter().map(|d| d.value).min().unwrap();
        assert_eq!(dropped[0].value, min);
        // The dropped die is the last of the lowest values.
        let last_min = rec.dice.iter().rposition(|d| d.value == min).unwrap();
        assert!(!rec.dice[last_min].flags.kept);
        assert_eq!(rec.total, rec.kept_values().sum::<i64>());
    }
}

#[test]
fn every_keep_rule_selects_its_dice() {
    let mut r = rng(6);
    for keep in [
        Keep::All,
        Keep::Highest(2),
        Keep::Lowest(2),
        Keep::DropHighest(2),
        Keep::DropLowest(2),
    ] {
        let sum = Sum::new(Pool::new(5, Die::D20).unwrap(), keep, -3).unwrap();
        let rec = sum.roll_record(&mut r);
        let mut values: Vec<i64> = rec.dice.iter().map(|d| d.value).collect();
        values.sort_unstable();
        let expect: i64 = match keep {
            Keep::All => values.iter().sum(),
            Keep::Highest(k) => values[5 - k as usize..].iter().sum(),
            Keep::DropLowest(k) => values[k as usize..].iter().sum(),
            Keep::Lowest(k) => values[..k as usize].iter().sum(),
            Keep::DropHighest(k) => values[..5 - k as usize].iter().sum(),
        };
        assert_eq!(rec.total, expect - 3, "{keep:?}");
    }
}

#[test]
fn versus_has_three_outcomes() {
    // SB-E2: High climbing (+2) rolls a total of 6 on the dice, scores 8 against Awesome (13).
    assert_eq!(Versus::of(6 + 2, 13), Versus::Below);
    // SB-E3: "rolls 11 and adds her bonus to get exactly 13".
    assert_eq!(Versus::of(11 + 2, 13), Versus::Equal);
    assert_eq!(Versus::of(14, 13), Versus::Above);
}

#[test]
fn versus_target_agrees_with_the_record() {
    let check = VersusTarget::new(
        Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 2).unwrap(),
        9,
    )
    .unwrap();
    for seed in 0..50 {
        let outcome = check.roll(&mut rng(seed));
        let rec = check.roll_record(&mut rng(seed));
        assert_eq!(outcome, Versus::of(rec.total, 9));
    }
}

// ---------------------------------------------------------------- streaks and explosions

#[test]
fn fluke_example_sb_e5() {
    // SB-E5, L125-129: "5, 5, 6, 4, 6, 3" — five 4-6 results before the 3: 5 points, and
    // an Average task needs 7, so the shot misses.
    let fluke = Streak::new(Die::D6, FaceSet::range(4, 6).unwrap(), 0).unwrap();
    let (score, used) = fluke.score_faces([5, 5, 6, 4, 6, 3]);
    assert_eq!((score, used), (5, 6));
    assert_eq!(Versus::of(score, 7), Versus::Below);
}

#[test]
fn armored_damage_streak_sb_e13() {
    // SB-E13, L421-426: a spiked club (large) against armored Dashwood: no guaranteed damage,
    // a streak on 5-6; "5, 6, 1" does 2.
    let large_armored = Streak::new(Die::D6, FaceSet::range(5, 6).unwrap(), 0).unwrap();
    assert_eq!(large_armored.score_faces([5, 6, 1]), (2, 3));
}

#[test]
fn arrow_streak_sb_e12_erratum() {
    // SB-E12, L415-419: the bow's arrow is a large weapon, "1 + streak{3,4,5,6}" unarmored
    // (L398-399, L411). The text says "rolls a 5 ... then a 3 to end her streak ... total of
    // 2", but under the rules a 3 continues a large-weapon streak, so 5, 3 (then a 1) scores
    // 3. The text's 2 is what a small weapon's {5,6} streak would give (SB-A5).
    let large = Streak::new(Die::D6, FaceSet::range(3, 6).unwrap(), 1).unwrap();
    assert_eq!(large.score_faces([5, 3, 1]), (3, 3));
    let small = Streak::new(Die::D6, FaceSet::range(5, 6).unwrap(), 1).unwrap();
    assert_eq!(small.score_faces([5, 3]), (2, 2));
}

#[test]
fn streak_cap_is_visible() {
    let always = Streak::capped(Die::D6, FaceSet::range(1, 6).unwrap(), 0, 7).unwrap();
    let roll = always.roll_streak(&mut rng(7));
    assert_eq!((roll.length, roll.score, roll.capped), (7, 7, true));
    let rec = always.roll_record(&mut rng(7));
    assert!(rec.capped);
    assert_eq!(rec.dice.len(), 7);
    assert_eq!(rec.total, 7);
    assert!(rec.dice.last().unwrap().flags.capped);
    assert!(rec.to_string().contains("cap"));
}

#[test]
fn streak_record_matches_the_roll() {
    let s = Streak::new(Die::D6, FaceSet::range(4, 6).unwrap(), 1).unwrap();
    for seed in 0..100 {
        let roll = s.roll_streak(&mut rng(seed));
        let rec = s.roll_record(&mut rng(seed));
        assert_eq!(rec.total, roll.score);
        assert_eq!(rec.dice.len() as u32, roll.length + 1);
        let faces: Vec<u32> = rec.dice.iter().map(|d| d.natural).collect();
        assert_eq!(s.score_faces(faces).0, roll.score);
    }
}

#[test]
fn additional_explosions_add_dice_and_respect_the_cap() {
    let explode = Explode::new(Comparison::AtLeast(1)).with_cap(3).unwrap();
    let pool = Pool::new(2, Die::D6).unwrap().exploding(explode).unwrap();
    let sum = Sum::new(pool, Keep::All, 0).unwrap();
    let rec = sum.roll_record(&mut rng(8));
    assert_eq!(rec.dice.len(), 8, "each die explodes exactly 3 times");
    assert!(rec.capped);
    assert_eq!(rec.dice.iter().filter(|d| d.flags.capped).count(), 2);
    assert_eq!(rec.dice.iter().filter(|d| d.flags.added).count(), 6);
    assert_eq!(rec.total, rec.dice.iter().map(|d| d.value).sum::<i64>());
}

#[test]
fn exploded_dice_are_followed_by_their_extra_die() {
    let pool = Pool::new(50, Die::D6)
        .unwrap()
        .exploding(Explode::new(Comparison::Exactly(6)))
        .unwrap();
    let dice = pool.roll(&mut rng(9));
    assert!(dice.len() >= 50);
    for (i, d) in dice.iter().enumerate() {
        assert_eq!(d.flags.exploded, d.natural == 6);
        if d.flags.exploded {
            assert!(dice[i + 1].flags.added);
        }
    }
    assert_eq!(dice.iter().filter(|d| !d.flags.added).count(), 50);
}

#[test]
fn compounding_dice_stay_one_die() {
    let pool = Pool::new(30, Die::D6)
        .unwrap()
        .exploding(Explode::compounding(Comparison::Exactly(6)))
        .unwrap();
    let dice = pool.roll(&mut rng(10));
    assert_eq!(dice.len(), 30);
    for d in dice.iter() {
        assert_eq!(d.flags.exploded, d.natural == 6);
        if d.natural < 6 {
            assert_eq!(d.value, i64::from(d.natural));
        } else {
            assert!(d.value > 6 && d.value % 6 != 0);
        }
    }
}

#[test]
fn endless_explosions_need_an_explicit_cap() {
    let pool = Pool::new(1, Die::D6).unwrap();
    let err = pool
        .clone()
        .exploding(Explode::new(Comparison::AtLeast(1)))
        .unwrap_err();
    assert!(matches!(err, Error::Endless { .. }));
    assert!(
        pool.exploding(Explode::new(Comparison::AtLeast(1)).with_cap(5).unwrap())
            .is_ok()
    );
    // Adding a part later is checked too: a d2 exploding on >= 1 never stops.
    let p = Pool::new(1, Die::D6)
        .unwrap()
        .exploding(Explode::new(Comparison::AtLeast(5)))
        .unwrap();
    assert!(
        p.clone()
            .with_dice(1, Die::new(4).unwrap(), Source::Bonus)
            .is_ok()
    );
    let p = Pool::new(1, Die::D6)
        .unwrap()
        .exploding(Explode::new(Comparison::AtLeast(1)).with_cap(2).unwrap())
        .unwrap();
    assert!(p.with_dice(1, Die::new(2).unwrap(), Source::Bonus).is_ok());
}

// ---------------------------------------------------------------- opposed resolution

#[test]
fn cancellation_is_mine_minus_theirs_minus_difficulty() {
    assert_eq!(cancel(5, 2, 0), 3);
    assert_eq!(cancel(3, 3, 0), 0);
    assert_eq!(cancel(2, 0, 3), -1);
    // Robots & Rapiers L1515: needing 4 successes is a Difficulty of 3 — 4 successes net 1.
    assert_eq!(cancel(4, 0, 3), 1);
    assert_eq!(cancel(3, 0, 3), 0);
}

#[test]
fn cancellation_roll_matches_its_record() {
    let c = Cancellation::new(
        SuccessPool::new(Pool::new(8, Die::D10).unwrap(), Comparison::AtMost(6)),
        Some(SuccessPool::new(
            Pool::new(6, Die::D10).unwrap(),
            Comparison::AtMost(5),
        )),
        1,
    )
    .unwrap();
    for seed in 0..50 {
        let net = c.roll(&mut rng(seed));
        let rec = c.roll_record(&mut rng(seed));
        assert_eq!(rec.total, net);
        assert_eq!(rec.dice.len(), 14);
    }
}

#[test]
fn blocking_sw_e1() {
    // SW-E1, L270-278: the orc's (5, 1) with "+2 to the highest" is (7, 1); Basic Melee has
    // no threshold, so both are hits. Harro's (5, 4, 3) +1 is (6, 4, 3): the 6 blocks the 1,
    // nothing blocks the 7 — 1 hit.
    for rule in [BlockRule::AtLeast, BlockRule::Strict] {
        let b = block(&[7, 1], &[6, 4, 3], rule);
        assert_eq!(b.unblocked, 1, "{rule:?}");
        assert!(!b.is_blocked(0));
        assert!(b.is_blocked(1));
    }
}

#[test]
fn blocking_sw_e2() {
    // SW-E2, L280-284: Harro's (5, 2, 1) +2 is (7, 2, 1); the orc defends with (6, 2, 1).
    // 1 hit, under both readings.
    assert_eq!(
        block(&[7, 2, 1], &[6, 2, 1], BlockRule::AtLeast).unblocked,
        1
    );
    assert_eq!(
        block(&[7, 2, 1], &[6, 2, 1], BlockRule::Strict).unblocked,
        1
    );
}

#[test]
fn blocking_sw_e3() {
    // SW-E3, L286-288: the wind spirit's (5, 4, 1) against Cephas' (5, 5, 2, 2): "block the
    // wind" — fully blocked under >=; under the strict reading the 5 gets through.
    let b = block(&[5, 4, 1], &[5, 5, 2, 2], BlockRule::AtLeast);
    assert_eq!(b.unblocked, 0);
    assert_eq!(b.pairs.len(), 3);
    let b = block(&[5, 4, 1], &[5, 5, 2, 2], BlockRule::Strict);
    assert_eq!(b.unblocked, 1);
    assert!(!b.is_blocked(0));
}

#[test]
fn blocking_sw_e4_and_e6() {
    // SW-E4, L290-294: Aerolis' (5, 4, 4) with the bow's +4 on the highest is (9, 4, 4);
    // difficulty 2, so three hits; the beast's (2, 2, 2) blocks nothing: 3 hits.
    let hits: Vec<i64> = [9, 4, 4]
        .into_iter()
        .filter(|&v| Comparison::AtLeast(2).test(v))
        .collect();
    assert_eq!(block(&hits, &[2, 2, 2], BlockRule::AtLeast).unblocked, 3);
    // SW-E6, L298-300: (6, 3, 3, 2) +4 is (10, 3, 3, 2) at difficulty 8: only the 10 hits;
    // the beast's (5, 3, 2) cannot block it: 1 hit.
    let hits: Vec<i64> = [10, 3, 3, 2]
        .into_iter()
        .filter(|&v| Comparison::AtLeast(8).test(v))
        .collect();
    assert_eq!(block(&hits, &[5, 3, 2], BlockRule::AtLeast).unblocked, 1);
}

#[test]
fn blocking_roll_matches_its_record() {
    let fight = Blocking::new(
        SuccessPool::new(Pool::new(6, Die::D6).unwrap(), Comparison::AtLeast(3)),
        Pool::new(6, Die::D6).unwrap(),
        BlockRule::AtLeast,
    );
    for seed in 0..100 {
        let hits = fight.roll(&mut rng(seed));
        let rec = fight.roll_record(&mut rng(seed));
        assert_eq!(rec.successes, hits);
        assert_eq!(rec.dice.len(), 12);
        let blocked = rec.dice.iter().filter(|d| d.flags.blocked).count() as u32;
        let raw_hits = rec.dice[..6].iter().filter(|d| d.value >= 3).count() as u32;
        assert_eq!(raw_hits - blocked, hits);
    }
}

// ---------------------------------------------------------------- records

#[test]
fn records_display_every_die() {
    let sum = Sum::new(Pool::new(4, Die::D6).unwrap(), Keep::Highest(3), 2).unwrap();
    let rec = sum.roll_record(&mut rng(11));
    let text = rec.to_string();
    assert!(text.starts_with('['), "{text}");
    assert!(
        text.contains('('),
        "a dropped die is in parentheses: {text}"
    );
    assert!(text.ends_with(&format!("+ 2 = {}", rec.total)), "{text}");
}

#[test]
fn record_buffers_are_reused() {
    let sum = Sum::new(Pool::new(10, Die::D10).unwrap(), Keep::All, 0).unwrap();
    let mut rec = RollRecord::new();
    let mut r = rng(12);
    sum.roll_record_into(&mut r, &mut rec);
    let cap = rec.dice.capacity();
    let ptr = rec.dice.as_ptr();
    for _ in 0..100 {
        sum.roll_record_into(&mut r, &mut rec);
        assert_eq!(rec.dice.len(), 10);
    }
    assert_eq!(rec.dice.capacity(), cap);
    assert_eq!(rec.dice.as_ptr(), ptr);
}

#[test]
fn same_seed_same_record() {
    let p = SuccessPool::new(
        Pool::new(10, Die::D10)
            .unwrap()
            .exploding(Explode::new(Comparison::Exactly(10)))
            .unwrap(),
        Comparison::AtLeast(8),
    );
    assert_eq!(p.roll_record(&mut rng(13)), p.roll_record(&mut rng(13)));
    assert_ne!(p.roll_record(&mut rng(13)), p.roll_record(&mut rng(14)));
}

#[test]
fn mechanics_are_rand_distributions() {
    use rand::distr::Distribution;
    let d = Die::D20;
    let v: Vec<u32> = d.sample_iter(rng(15)).take(10).collect();
    assert_eq!(v.len(), 10);
    assert!(v.iter().all(|f| (1..=20).contains(f)));
}

#[cfg(feature = "serde")]
#[test]
fn records_round_trip_through_serde() {
    let p = SuccessPool::new(Pool::new(5, Die::D10).unwrap(), Comparison::AtMost(5));
    let rec = p.roll_record(&mut rng(16));
    let json = serde_json::to_string(&rec).unwrap();
    let back: RollRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, rec);
    assert!(json.contains("\"natural\""));
    let die: Die = serde_json::from_str("6").unwrap();
    assert_eq!(die, Die::D6);
    assert!(serde_json::from_str::<Die>("0").is_err());
    let v: Versus = serde_json::from_str("\"equal\"").unwrap();
    assert_eq!(v, Versus::Equal);
}
