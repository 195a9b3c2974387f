//! Seeded rolls against the exact laws: 100,000 rolls each, every outcome within 5 standard
//! errors. Also checks that the detailed roll paths use the same draws as `Roll::roll`.

use crate::common;

use common::{N, as_map, check, histogram, rng};
use dice_core::{Exact, Roll};
use dice_robots_and_rapiers::{
    BaseActionPoints, ChainedTest, DamageKind, DurabilitySave, MalfunctionTable, Opposition,
    RelatedPrograms, RoleSave, Rules, SavingThrow, SelfReactivation, StrayShot, Test,
};

fn against<M: Roll + Exact>(m: &M, seed: u64)
where
    M::Outcome: Ord,
{
    let mut r = rng(seed);
    let observed = histogram(N, || m.roll(&mut r));
    check(&observed, &as_map(&m.distribution().unwrap()), N);
}

#[test]
fn eight_dice_test_opposed_by_eight() {
    let t = Test::new(8, 6)
        .unwrap()
        .opposed_by(Opposition::new(8, 5).unwrap())
        .with_difficulty(1)
        .unwrap();
    against(&t, 1);
}

#[test]
fn unopposed_and_exerted_tests() {
    against(&Test::new(5, 3).unwrap(), 2);
    against(&Test::new(6, 9).unwrap().exerted(), 3);
}

#[test]
fn saves() {
    let rules = Rules::default();
    against(&SavingThrow::new(4).unwrap(), 4);
    against(&RoleSave::Role { role: 7 }, 5);
    against(
        &DurabilitySave::new(5, DamageKind::default(), &rules).unwrap(),
        6,
    );
}

#[test]
fn conflict_and_damage_mechanics() {
    let rules = Rules::default();
    against(
        &BaseActionPoints::new(7, 4, &rules).unwrap().surprised(2),
        7,
    );
    against(&MalfunctionTable, 8);
    against(&SelfReactivation::new(4, 5).unwrap(), 9);
    against(&StrayShot::new(3).unwrap(), 10);
}

#[test]
fn chained_and_related() {
    let chained = ChainedTest::new(
        Test::new(6, 6).unwrap(),
        vec![
            Opposition::new(5, 5).unwrap(),
            Opposition::new(4, 5).unwrap(),
        ],
    )
    .unwrap();
    against(&chained, 11);
    let related = RelatedPrograms::new(
        vec![
            Test::new(5, 5).unwrap(),
            Test::new(2, 6).unwrap().with_difficulty(1).unwrap(),
        ],
        Test::new(1, 4).unwrap(),
    )
    .unwrap();
    against(&related, 12);
}

#[test]
fn detailed_rolls_use_the_same_draws() {
    let t = Test::new(8, 6)
        .unwrap()
        .opposed_by(Opposition::new(7, 5).unwrap());
    let s = SavingThrow::new(5).unwrap();
    for seed in 0..200 {
        assert_eq!(t.roll_test(&mut rng(seed)).net, t.roll(&mut rng(seed)));
        assert_eq!(s.roll_save(&mut rng(seed)).outcome, s.roll(&mut rng(seed)));
    }
}

#[test]
fn d10_faces_are_uniform() {
    // Every face of the detailed path, counted over many seeded Tests.
    let t = Test::new(10, 5).unwrap();
    let mut r = rng(13);
    let mut counts = [0u64; 10];
    let rolls = N / 10;
    for _ in 0..rolls {
        for f in t.roll_test(&mut r).faces {
            counts[usize::from(f) - 1] += 1;
        }
    }
    let observed = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u8 + 1, c))
        .collect();
    let exact = (1..=10u8).map(|f| (f, 0.1)).collect();
    check(&observed, &exact, rolls * 10);
}
