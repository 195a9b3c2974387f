//! The opposing side's roll is a skill roll too: its natural 1s are criticals when it does
//! not succeed (L21) and it advances its skill (L27). Only recovery is exempt from
//! criticals (L41: "Don't count critical failures for this"). These tests failed before the
//! opposing side's criticals and advancement were part of the outcome.

use std::collections::BTreeMap;

use dice_core::{Exact, Roll};
use dice_swimclass::{NO_THRESHOLD, OpposedRoll, Rules, SkillDice};
use dice_testkit::{as_map, check_rolls, enumerate_faces, rng, same};

#[test]
fn a_failed_defense_shows_its_criticals() {
    // L21: "A natural roll of 1 is a Critical if the task did not succeed. First critical
    // is ignored. Additional criticals in a skill roll bring increasingly adverse results".
    // Three 6s swing at a defense of three 1s: the defense fails with three 1s, two count.
    let swing = OpposedRoll::new(
        SkillDice::new(3),
        NO_THRESHOLD,
        Some(SkillDice::new(3)),
        Rules::default(),
    )
    .unwrap();
    let r = swing.resolve(&[6, 6, 6], &[1, 1, 1]).unwrap();
    assert_eq!(r.outcome.hits, 3);
    assert_eq!(r.outcome.defense_criticals, 2);
    assert!(r.defense.iter().all(|d| d.flags.critical));
    // SW-E2 (L282–L284): the orc's Defense (6,2,1) fails against Harro's (7,2,1): one 1,
    // ignored as the first critical.
    let harro = SkillDice::new(3)
        .with_bonus(dice_swimclass::Bonus::Plus {
            dice: 1,
            modifier: 2,
        })
        .unwrap();
    let strike = OpposedRoll::new(
        harro,
        NO_THRESHOLD,
        Some(SkillDice::new(3)),
        Rules::default(),
    )
    .unwrap();
    let o = strike.resolve(&[5, 2, 1], &[6, 2, 1]).unwrap().outcome;
    assert_eq!((o.hits, o.defense_criticals), (1, 0));
    assert!(!o.defense_advances);
}

#[test]
fn a_defense_that_succeeds_with_every_die_at_4_or_more_advances() {
    // L27: "A Skill Advances when you succeed in a task with all Skill dice, and all dice
    // roll ≥ 4. A Task roll must have a chance of failure to merit skill advancement."
    // A shot at difficulty 2 (range 1, L109) rolls a 5; the defense's (6, 4) blocks it.
    let shot = OpposedRoll::new(
        SkillDice::new(1),
        2,
        Some(SkillDice::new(2)),
        Rules::default(),
    )
    .unwrap();
    let o = shot.resolve(&[5], &[6, 4]).unwrap().outcome;
    assert_eq!(o.hits, 0);
    assert!(o.defense_advances);
    // A 3 among the defense's dice: no advancement (SW-E3, Cephas' (5,5,2,2), L288).
    assert!(
        !shot
            .resolve(&[5], &[6, 3])
            .unwrap()
            .outcome
            .defense_advances
    );
    // A defense that cannot fail does not advance: an attack that can never hit
    // (difficulty 7 on plain dice).
    let hopeless = OpposedRoll::new(
        SkillDice::new(1),
        7,
        Some(SkillDice::new(2)),
        Rules::default(),
    )
    .unwrap();
    assert!(!hopeless.defense_has_chance_of_failure());
    assert!(
        !hopeless
            .resolve(&[6], &[6, 6])
            .unwrap()
            .outcome
            .defense_advances
    );
}

#[test]
fn the_exact_law_carries_the_defense_criticals_and_advancement() {
    // The same shot (1 die at difficulty 2) against Defense 2, by enumerating every roll of
    // the three dice: (defense criticals, defense advances).
    let shot = OpposedRoll::new(
        SkillDice::new(1),
        2,
        Some(SkillDice::new(2)),
        Rules::default(),
    )
    .unwrap();
    let want = enumerate_faces(3, 6, |f| {
        let a = f[0];
        let d = &f[1..];
        let through = u32::from(a >= 2 && !d.iter().any(|&x| x >= a));
        let attack_ok = through >= 1;
        let ones = d.iter().filter(|&&x| x == 1).count() as u32;
        let crits = if attack_ok { ones.saturating_sub(1) } else { 0 };
        let adv = !attack_ok && d.iter().all(|&x| x >= 4);
        (crits, adv)
    });
    let law = shot
        .distribution()
        .unwrap()
        .map(|o| (o.defense_criticals, o.defense_advances));
    let want: BTreeMap<(u32, bool), f64> = want.into_iter().collect();
    same(&as_map(&law), &want, 1e-12);
    let mut r = rng(21);
    check_rolls("defense facts rolls", &law, || {
        let o = shot.roll(&mut r);
        (o.defense_criticals, o.defense_advances)
    });
}
