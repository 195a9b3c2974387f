//! Every worked example of the rulebook (digest section 2.2, SW-E1 to SW-E7), one test
//! each, quoting its lines. SW-E2 is an erratum under the catalogue's Great Sword (3+2): its
//! test shows what the rules give and says so.

use dice_core::BlockRule;
use dice_swimclass::{
    Applies, BASIC_TASKS, Bonus, Condition, Context, Health, MagicWheel, NO_THRESHOLD, OpposedRoll,
    Rules, School, Sheet, Skill, SkillDice, Task, TaskRoll, combine, implement::catalogue, push,
    ranged_difficulty, tables::squares_moved,
};

fn values(d: &[dice_core::DieRoll]) -> Vec<i64> {
    d.iter().map(|d| d.value).collect()
}

fn bow() -> dice_swimclass::Implement {
    catalogue("Common Bow")
        .unwrap()
        .implement_for(Applies::ToHit)
        .unwrap()
}

#[test]
fn sw_e1_the_orc_swings_at_harro() {
    // L270: "An orc swings a club at Harro (Melee 2, +2 weapon bonus) rolls 2d6 (5,1), adds 2
    // to the highest die to get (7,1)"
    // L272: "Harro parries with his great sword (Melee 3 +1 defense) rolls 3d6 (5,4,3) adds 1
    // to highest die for (6,4,3)"
    // L274–L278: "7 attack roll is higher than any defense, gets through. 6 defense blocks 1
    // attack. The club slips past the sword to hit Harro for one damage."
    let rules = Rules::default();
    let orc = SkillDice::new(2)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 2,
        })
        .unwrap();
    // The text adds the sword's +1 to one die, as a (1+1).
    let harro = SkillDice::new(3)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 1,
        })
        .unwrap();
    assert_eq!(values(&orc.apply(&[5, 1], &rules).unwrap()), [7, 1]);
    assert_eq!(values(&harro.apply(&[5, 4, 3], &rules).unwrap()), [6, 4, 3]);
    let swing = OpposedRoll::new(orc.clone(), NO_THRESHOLD, Some(harro), rules).unwrap();
    let r = swing.resolve(&[5, 1], &[5, 4, 3]).unwrap();
    assert_eq!(r.outcome.hits, 1);
    assert!(r.outcome.succeeded);
    // The 7 gets through; the 1 is blocked (by the lowest die able to, the 3).
    assert!(!r.attack[0].flags.blocked);
    assert!(r.attack[1].flags.blocked);
    // The orc's natural 1 is no critical: the task succeeded (L21).
    assert_eq!(r.outcome.criticals, 0);
    // The same under the strict reading (SW-A2) and with the catalogue's (3+1) defense,
    // which gives (6,5,4) under the ruling: still one hit.
    let strict = Rules {
        block_rule: BlockRule::Strict,
        ..rules
    };
    let s = OpposedRoll::new(orc.clone(), NO_THRESHOLD, Some(SkillDice::new(3)), strict).unwrap();
    assert_eq!(s.resolve(&[5, 1], &[6, 4, 3]).unwrap().outcome.hits, 1);
    let sword = catalogue("Great Sword")
        .unwrap()
        .implement_for(Applies::Defense)
        .unwrap();
    let harro_sword = SkillDice::new(3).with_implement(&sword).unwrap();
    assert_eq!(
        values(&harro_sword.apply(&[5, 4, 3], &rules).unwrap()),
        [6, 5, 4]
    );
    let c = OpposedRoll::new(orc, NO_THRESHOLD, Some(harro_sword), rules).unwrap();
    assert_eq!(c.resolve(&[5, 1], &[5, 4, 3]).unwrap().outcome.hits, 1);
    // "to hit Harro for one damage"
    let mut health = Health::new(3);
    health.take(r.outcome.hits);
    assert_eq!(health.hp, 3);
}

#[test]
fn sw_e2_harro_strikes_back() {
    // L280: "Harro strikes back (Melee 3 +2) rolls 3d6 (5,2,1) netting (7,2,1)"
    // L282: "Orc rolls (Defense 3) 3d6 (6,2,1),"
    // L284: "7 attack beats any defense. 6 and 2 defense block 2 and 1 attack. Orc is hit for 1
    // damage in return."
    let rules = Rules::default();
    let harro = SkillDice::new(3)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 2,
        })
        .unwrap();
    assert_eq!(values(&harro.apply(&[5, 2, 1], &rules).unwrap()), [7, 2, 1]);
    let strike = OpposedRoll::new(harro, NO_THRESHOLD, Some(SkillDice::new(3)), rules).unwrap();
    let r = strike.resolve(&[5, 2, 1], &[6, 2, 1]).unwrap();
    assert_eq!(r.outcome.hits, 1);
    assert_eq!(r.outcome.criticals, 0); // Harro's 1: the task succeeded
    // Under the strict reading the 6 blocks the 2 and the 2 blocks the 1: still one hit.
    let strict = Rules {
        block_rule: BlockRule::Strict,
        ..rules
    };
    let s = OpposedRoll::new(
        SkillDice::new(3)
            .with_bonus(Bonus::Plus {
                dice: 1,
                modifier: 2,
            })
            .unwrap(),
        NO_THRESHOLD,
        Some(SkillDice::new(3)),
        strict,
    )
    .unwrap();
    assert_eq!(s.resolve(&[5, 2, 1], &[6, 2, 1]).unwrap().outcome.hits, 1);
    // The orc (Defense 3: HP 4, L41) is hit for 1.
    let mut orc = Health::new(3);
    orc.take(r.outcome.hits);
    assert_eq!(orc.hp, 3);

    // Erratum (SW-A3): with the catalogue's Great Sword, "3+2 to hit" (L240), the ruling
    // puts +2 on the three highest dice, (7,4,3), and two hits get through, not one. The text
    // applied the bonus to one die; `apply_chosen` reproduces that choice.
    let sword = catalogue("Great Sword")
        .unwrap()
        .implement_for(Applies::ToHit)
        .unwrap();
    let harro_sword = SkillDice::new(3).with_implement(&sword).unwrap();
    assert_eq!(
        values(&harro_sword.apply(&[5, 2, 1], &rules).unwrap()),
        [7, 4, 3]
    );
    let e = OpposedRoll::new(
        harro_sword.clone(),
        NO_THRESHOLD,
        Some(SkillDice::new(3)),
        rules,
    )
    .unwrap();
    assert_eq!(e.resolve(&[5, 2, 1], &[6, 2, 1]).unwrap().outcome.hits, 2);
    assert_eq!(
        values(
            &harro_sword
                .apply_chosen(&[5, 2, 1], &[vec![0]], &rules)
                .unwrap()
        ),
        [7, 2, 1]
    );
}

#[test]
fn sw_e3_the_wind_spirit_and_cephas() {
    // L286: "An angry wind spirit blows at Cephas (Wind magic 3) rolls 3d6 (5,4,1)"
    // L288: "Cephas raises a Earth barrier (Earth magic 4, opposing Wind) rolls 4d6 (5,5,2,2)
    // in time to block the wind."
    let rules = Rules::default();
    assert!(rules.wheel.opposes(School::Wind, School::Earth));
    let spirit = Sheet::with_ranks([(Skill::Magic(School::Wind), 3)]);
    let cephas = Sheet::with_ranks([(Skill::Magic(School::Earth), 4)]);
    // The wind's difficulty is not given (SW-A17); every difficulty up to 4 lets all three
    // dice succeed, so the result is the same for each.
    for difficulty in [1, 2, 3, 4] {
        let gust = OpposedRoll::new(
            SkillDice::new(spirit.rank(Skill::Magic(School::Wind))),
            difficulty,
            Some(SkillDice::new(cephas.rank(Skill::Magic(School::Earth)))),
            rules,
        )
        .unwrap();
        let r = gust.resolve(&[5, 4, 1], &[5, 5, 2, 2]).unwrap();
        // Under ≥: 5 vs 5, 5 vs 4, 2 vs 1: "block the wind".
        assert_eq!(r.outcome.hits, 0, "difficulty {difficulty}");
        assert!(!r.outcome.succeeded);
        // The spirit's natural 1 is a critical of a failed task, and the first is ignored.
        assert_eq!(r.outcome.criticals, 0);
        assert!(r.attack[2].flags.critical);
        // Under the strict reading (L37) one 5 gets through: the example needs ≥ (SW-A2).
        let strict = Rules {
            block_rule: BlockRule::Strict,
            ..rules
        };
        let s = OpposedRoll::new(
            SkillDice::new(3),
            difficulty,
            Some(SkillDice::new(4)),
            strict,
        )
        .unwrap();
        assert_eq!(
            s.resolve(&[5, 4, 1], &[5, 5, 2, 2]).unwrap().outcome.hits,
            1
        );
    }
    // Without a wheel, Wind is opposed only by Wind or Earth (L187, SW-E3).
    assert!(!MagicWheel::default().opposes(School::Wind, School::Fire));
}

#[test]
fn sw_e4_aerolis_first_shot_and_the_rank_up() {
    // L290: "Aerolis the archer takes aim at his target, a rampaging beast (Ranged 3, +4
    // common bow) rolls 3d6 (5,4,4), netting (9,4,4)."
    // L292: "At one square separation from his target he need only roll 2s to be on target."
    // L294: "The beast attempts to dodge (Defense 3) rolls 3d6 (2,2,2), but is too slow and is
    // hit for 3 damage. In addition, Aerolis is so greatly successful he gains a rank in his
    // skill."
    let rules = Rules::default();
    let mut aerolis = Sheet::with_ranks([(Skill::BasicRanged, 3)]);
    let dice = SkillDice::new(aerolis.rank(Skill::BasicRanged))
        .with_implement(&bow())
        .unwrap();
    assert_eq!(values(&dice.apply(&[5, 4, 4], &rules).unwrap()), [9, 4, 4]);
    assert_eq!(ranged_difficulty(1), 2);
    let shot =
        OpposedRoll::new(dice, ranged_difficulty(1), Some(SkillDice::new(3)), rules).unwrap();
    assert!(shot.has_chance_of_failure());
    let r = shot.resolve(&[5, 4, 4], &[2, 2, 2]).unwrap();
    assert_eq!(r.outcome.hits, 3);
    assert!(r.blocked.is_empty());
    let mut beast = Health::new(3);
    beast.take(r.outcome.hits);
    assert_eq!(beast.hp, 1);
    // All three skill dice hit, all show 4 or more, the roll could fail: a rank.
    assert!(r.outcome.advances);
    let changes = aerolis.advance(Skill::BasicRanged, &rules);
    assert_eq!(aerolis.rank(Skill::BasicRanged), 4);
    assert_eq!((changes[0].from, changes[0].to), (3, 4));
    // Synergy 2 with Throw (L131): Throw rises to 2 to stay within two points.
    assert_eq!(aerolis.rank(Skill::Throw), 2);
}

#[test]
fn sw_e5_the_beast_runs() {
    // L296: "The beast runs (Walk 2, pushing *3 for speed) rolls 2d6 (6,5) and streaks
    // through the street to place 6 squares behind it."
    let walk = &BASIC_TASKS[0];
    assert_eq!(
        (walk.skill, walk.difficulty, walk.squares),
        (Skill::WalkRun, 1, Some(2))
    );
    let pushed = push(walk.difficulty as u32, 3).unwrap();
    assert_eq!(pushed.difficulty, 3);
    let run = TaskRoll::new(
        SkillDice::new(2),
        Task::single(pushed.difficulty as i32).unwrap(),
        Rules::default(),
    )
    .unwrap();
    let o = run.resolve(&[6, 5]).unwrap().outcome;
    assert!(o.succeeded);
    assert_eq!(o.successes, 2);
    assert_eq!(squares_moved(walk, Some(pushed)), Some(6));
    assert_eq!(1 + squares_moved(walk, Some(pushed)).unwrap(), 7); // SW-E6's 7 squares
    // Unpushed, Walk is automatic (L115) and cannot advance; pushed it could fail, so by
    // SW-R8 the beast's Walk advances too. The text does not narrate it (SW-A25).
    assert!(run.has_chance_of_failure());
    assert!(o.advances);
    let easy = TaskRoll::new(
        SkillDice::new(2),
        Task::single(1).unwrap(),
        Rules::default(),
    )
    .unwrap();
    assert!(!easy.resolve(&[6, 5]).unwrap().outcome.advances);
}

#[test]
fn sw_e6_aerolis_second_shot_drops_the_beast() {
    // L298: "Aerolis again takes aim, rolls 4d6 (6,3,3,2), nets (10,3,3,2). With 7 squares
    // separating him from his target only the 10 has a chance to hit."
    // L300: "The beast again attempts to dodge, rolls defense (5,3,2), but is again hit. Only
    // one damage, but that is enough to drop the beast."
    let rules = Rules::default();
    // Ranged 4 after SW-E4's rank-up.
    let dice = SkillDice::new(4).with_implement(&bow()).unwrap();
    assert_eq!(
        values(&dice.apply(&[6, 3, 3, 2], &rules).unwrap()),
        [10, 3, 3, 2]
    );
    assert_eq!(ranged_difficulty(7), 8);
    let shot =
        OpposedRoll::new(dice, ranged_difficulty(7), Some(SkillDice::new(3)), rules).unwrap();
    let r = shot.resolve(&[6, 3, 3, 2], &[5, 3, 2]).unwrap();
    let hits: Vec<bool> = r.attack.iter().map(|d| d.flags.success).collect();
    assert_eq!(hits, [true, false, false, false]); // "only the 10 has a chance to hit"
    assert_eq!(r.outcome.hits, 1);
    assert!(!r.outcome.advances); // three dice missed
    // The beast: Defense 3, 4 HP (L41); 3 from SW-E4, 1 now.
    let mut beast = Health::new(3);
    beast.take(3);
    beast.take(r.outcome.hits);
    assert_eq!(beast.hp, 0);
    assert_eq!(beast.condition(), Condition::Down);
}

#[test]
fn sw_e7_a_running_jump() {
    // L71: "To combine skills, add the skill dice from the combined skills, and subtract 1
    // for each skill added to the first. Out of combat total skill dice may not more than
    // double the base skill (in the example jumping)."
    // L73: "Example, a running jump. ... the Walk/Run Skill may be added to your Jump skill"
    let rules = Rules::default();
    let good = combine(&[2, 3], Context::OutOfCombat, &rules).unwrap();
    assert_eq!((good.dice, good.capped), (4, false));
    let capped = combine(&[1, 3], Context::OutOfCombat, &rules).unwrap();
    assert_eq!((capped.dice, capped.capped), (2, true));
    let refuse = Rules {
        refuse_over_cap: true,
        ..rules
    };
    assert!(combine(&[1, 3], Context::OutOfCombat, &refuse).is_err());
    // "In combat, combining N skills this way takes N rounds."
    assert_eq!(
        combine(&[2, 3], Context::InCombat, &rules).unwrap().rounds,
        2
    );
}
