//! 100,000 seeded rolls of every chance mechanic against its exact law (itself checked
//! against enumeration in `exact.rs`): every outcome within 5 standard errors. Unbounded
//! streaks are lumped into "at least k" so no outcome is expected far below once. The detailed
//! roll paths use the same draws as `Roll::roll`, which is checked too.

use crate::common;

use std::collections::BTreeMap;

use common::{N, as_map, check, histogram, rng};
use dice_core::{Exact, Roll};
use dice_shapers_and_bots::{
    Armor, Attack, Attempt, Challenge, Contest, Contestant, Damage, DamageRule, Fluke, Initiative,
    Level, Rating, Rules, Size, Stakes, Surprise, WeaponClass,
};

#[test]
fn challenges() {
    let pairs = [
        (Level::VeryLow, Level::VeryLow),
        (Level::Average, Level::Average),
        (Level::High, Level::Awesome),
        (Level::Low, Level::High),
    ];
    for (seed, (c, t)) in pairs.into_iter().enumerate() {
        let ch = Challenge::new(c, t).unwrap();
        let mut r = rng(seed as u64);
        let h = histogram(N, || ch.roll(&mut r));
        check(&h, &as_map(&ch.distribution().unwrap()), N);
        // The detailed path draws the same dice.
        let mut a = rng(100 + seed as u64);
        let mut b = rng(100 + seed as u64);
        for _ in 0..1000 {
            assert_eq!(ch.roll_challenge(&mut a).outcome, ch.roll(&mut b));
        }
    }
}

/// A streak law (listed part) lumped into `0..cap` and "at least cap".
fn lump(d: &dice_core::Dist<i64>, cap: i64) -> BTreeMap<i64, f64> {
    let mut m = BTreeMap::new();
    for (&k, p) in d.iter() {
        *m.entry(k.min(cap)).or_insert(0.0) += p;
    }
    *m.entry(cap).or_insert(0.0) += d.tail();
    m
}

#[test]
fn flukes() {
    let rules = Rules::default();
    for (seed, task) in Level::ALL.into_iter().enumerate() {
        let fluke = Fluke::new(task, &rules).unwrap();
        let mut r = rng(10 + seed as u64);
        let h = histogram(N, || fluke.roll(&mut r));
        check(&h, &as_map(&fluke.distribution().unwrap()), N);
    }
    // The score itself, lumped at 10 (P ≈ 1e-3, expected ~100 times).
    let fluke = Fluke::new(Level::Average, &rules).unwrap();
    let mut r = rng(20);
    let h = histogram(N, || fluke.roll_fluke(&mut r).score.min(10) as i64);
    check(&h, &lump(&fluke.score_distribution().unwrap(), 10), N);
}

#[test]
fn attempts() {
    let rules = Rules::default();
    let cases = [
        (Rating::Rated(Level::High), Level::Low, Stakes::Routine),
        (Rating::Rated(Level::High), Level::Low, Stakes::Important),
        (Rating::NoRating, Level::VeryLow, Stakes::Routine),
    ];
    for (seed, (rating, task, stakes)) in cases.into_iter().enumerate() {
        let a = Attempt::new(rating, task, stakes, &rules).unwrap();
        let mut r = rng(30 + seed as u64);
        let h = histogram(N, || a.roll(&mut r));
        check(&h, &as_map(&a.distribution().unwrap()), N);
    }
}

#[test]
fn contests() {
    let rules = Rules::default();
    let pairs = [
        (Level::Average, Level::Average),
        (Level::VeryLow, Level::Awesome),
        (Level::High, Level::Low),
    ];
    for (seed, (a, b)) in pairs.into_iter().enumerate() {
        let c = Contest::new(a.into(), b.into(), &rules).unwrap();
        let mut r = rng(40 + seed as u64);
        let h = histogram(N, || c.roll(&mut r));
        check(&h, &as_map(&c.distribution().unwrap()), N);
        let mut x = rng(50 + seed as u64);
        let mut y = rng(50 + seed as u64);
        for _ in 0..1000 {
            assert_eq!(c.roll_contest(&mut x).outcome, c.roll(&mut y));
        }
    }
    // A fluke side, with the SB-A21 knob on.
    let house = Rules {
        fluke_in_contests: true,
        ..rules
    };
    let c = Contest::new(Contestant::unrated(), Level::VeryLow.into(), &house).unwrap();
    let mut r = rng(45);
    let h = histogram(N, || c.roll(&mut r));
    check(&h, &as_map(&c.distribution().unwrap()), N);
}

#[test]
fn attacks() {
    let rules = Rules::default();
    let dashwood = Contestant::rated(Level::VeryHigh)
        .wearing(Armor::Accustomed)
        .unwrap();
    let slumpy = Contestant::rated(Level::Low);
    let attacks = [
        Attack::undefended(dashwood, &Size::Single(Level::VeryHigh), &rules).unwrap(),
        Attack::undefended(slumpy, &Size::Single(Level::VeryLow), &rules).unwrap(),
        Attack::defended(slumpy, dashwood, &rules).unwrap(),
        Attack::defended(dashwood, slumpy, &rules).unwrap(),
        Attack::sneak(
            slumpy,
            &Size::HeightWeight {
                height: Level::High,
                weight: Level::Average,
            },
            Surprise::PlusOne,
            &rules,
        )
        .unwrap(),
        Attack::undefended(Contestant::unrated(), &Size::Single(Level::VeryLow), &rules).unwrap(),
    ];
    for (seed, a) in attacks.iter().enumerate() {
        let mut r = rng(60 + seed as u64);
        let h = histogram(N, || a.roll(&mut r));
        check(&h, &as_map(&a.distribution().unwrap()), N);
        let mut x = rng(70 + seed as u64);
        let mut y = rng(70 + seed as u64);
        for _ in 0..1000 {
            assert_eq!(a.roll_attack(&mut x).outcome, a.roll(&mut y), "{a}");
        }
    }
}

#[test]
fn damage_streaks() {
    let rules = Rules {
        armored_really_powerful: Some(DamageRule::Streak {
            base: 0,
            continue_on: dice_core::FaceSet::range(3, 6).unwrap(),
        }),
        ..Rules::default()
    };
    let mut seed = 80;
    for class in WeaponClass::ALL {
        for armored in [false, true] {
            let d = Damage::new(class, armored, &rules).unwrap();
            let law = d.distribution().unwrap().map(|&p| i64::from(p));
            // Lump where the expected count of "at least k" drops near 100.
            let cap = (0..)
                .find(|&k| law.survival(&k) * N as f64 <= 100.0)
                .unwrap_or(1)
                .max(1);
            let mut r = rng(seed);
            let h = histogram(N, || i64::from(d.roll(&mut r)).min(cap));
            check(&h, &lump(&law, cap), N);
            let mut x = rng(seed + 100);
            let mut y = rng(seed + 100);
            for _ in 0..1000 {
                assert_eq!(d.roll_damage(&mut x).points, d.roll(&mut y));
            }
            seed += 1;
        }
    }
}

#[test]
fn initiative_ties() {
    let one_d6 = dice_core::Sum::new(
        dice_core::Pool::new(1, dice_core::Die::D6).unwrap(),
        dice_core::Keep::All,
        0,
    )
    .unwrap();
    let init = Initiative::new(
        vec![Level::Average, Level::High, Level::Average, Level::Average],
        one_d6,
    )
    .unwrap();
    let mut r = rng(90);
    let h = histogram(N, || init.roll(&mut r));
    check(&h, &as_map(&init.distribution().unwrap()), N);
    let mut x = rng(91);
    let mut y = rng(91);
    for _ in 0..1000 {
        assert_eq!(init.roll_initiative(&mut x).order, init.roll(&mut y));
    }
}
