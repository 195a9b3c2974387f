//! Seeded rolls against the exact laws: each mechanic is rolled 100,000 times with a fixed
//! seed and every outcome's frequency must be within 5 standard errors,
//! `sqrt(p(1 − p)/N)`, of its exact probability (which `tests/exact.rs` checks against
//! brute force); outcomes of probability 0 must never be seen.

use std::fmt::Debug;

use dice_core::{Exact, RollDetailed};
use dice_swimclass::{
    Bonus, BonusAssignment, Health, InitiativeContest, NO_THRESHOLD, OpposedRoll, Rules, SkillDice,
    Stabilize, Task, TaskRoll,
};
use dice_testkit::{N, as_map, histogram, rng};

/// `N` seeded rolls of `m` against its exact law (dice-testkit's 5-standard-error check).
fn check<M: Exact>(m: &M, seed: u64)
where
    M::Outcome: Debug,
{
    let mut r = rng(seed);
    let seen = histogram(N, || m.roll(&mut r));
    dice_testkit::check(&seen, &as_map(&m.distribution().unwrap()), N);
}

fn bow(rank: u32) -> SkillDice {
    SkillDice::new(rank)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 4,
        })
        .unwrap()
}

#[test]
fn task_rolls() {
    let rules = Rules::default();
    check(
        &TaskRoll::new(SkillDice::new(6), Task::single(4).unwrap(), rules).unwrap(),
        1,
    );
    let crafted = SkillDice::new(4)
        .with_bonus(Bonus::Plus {
            dice: 2,
            modifier: 2,
        })
        .unwrap()
        .with_bonus(Bonus::CancelCriticals(1))
        .unwrap()
        .with_bonus(Bonus::Dice(1))
        .unwrap();
    check(
        &TaskRoll::new(crafted.clone(), Task::all_or_nothing(6, 2).unwrap(), rules).unwrap(),
        2,
    );
    let optimal = Rules {
        assignment: BonusAssignment::Optimal,
        ..rules
    };
    check(
        &TaskRoll::new(crafted, Task::all_or_nothing(6, 2).unwrap(), optimal).unwrap(),
        3,
    );
    check(
        &TaskRoll::new(SkillDice::new(5), Task::over_rounds(5, 4).unwrap(), rules)
            .unwrap()
            .progress(),
        4,
    );
    check(
        &TaskRoll::new(bow(3), Task::over_rounds(5, 4).unwrap(), rules)
            .unwrap()
            .progress(),
        5,
    );
}

#[test]
fn opposed_rolls_and_hits() {
    let rules = Rules::default();
    let shot = OpposedRoll::new(bow(3), 2, Some(SkillDice::new(3)), rules).unwrap();
    check(&shot, 10);
    check(&shot.hits(), 11);
    let melee = OpposedRoll::new(
        SkillDice::new(6),
        NO_THRESHOLD,
        Some(SkillDice::new(6)),
        rules,
    )
    .unwrap();
    check(&melee, 12);
    check(&melee.hits(), 13); // dice-core's Blocking path
    let sword = SkillDice::new(4)
        .with_bonus(Bonus::Plus {
            dice: 3,
            modifier: 2,
        })
        .unwrap();
    let shield = SkillDice::new(4)
        .with_bonus(Bonus::Plus {
            dice: 2,
            modifier: 3,
        })
        .unwrap();
    check(
        &OpposedRoll::new(sword, NO_THRESHOLD, Some(shield), rules).unwrap(),
        14,
    );
}

#[test]
fn initiative_and_stabilize() {
    let rules = Rules::default();
    check(
        &InitiativeContest::new(SkillDice::new(3), SkillDice::new(2), &rules).unwrap(),
        20,
    );
    let mut h = Health::new(3);
    h.take(6);
    check(&Stabilize::new(SkillDice::new(3), &h, &rules).unwrap(), 21);
}

#[test]
fn records_agree_with_the_pure_form() {
    // The record path rolls faces and resolves them: its successes match the outcome.
    let rules = Rules::default();
    let shot = OpposedRoll::new(bow(3), 2, Some(SkillDice::new(3)), rules).unwrap();
    let mut rng = rng(30);
    for _ in 0..1000 {
        let r = shot.roll_record(&mut rng);
        assert_eq!(r.dice.len(), 6);
        let through = r.dice[..3].iter().filter(|d| d.flags.success).count() as u32;
        assert_eq!(r.successes, through);
    }
    let task = TaskRoll::new(bow(4), Task::single(6).unwrap(), rules).unwrap();
    for _ in 0..1000 {
        let r = task.roll_record(&mut rng);
        assert_eq!(
            r.successes,
            r.dice.iter().filter(|d| d.flags.success).count() as u32
        );
    }
}
