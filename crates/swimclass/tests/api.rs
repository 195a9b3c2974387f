//! The rest of the rules through the public API: sheets and synergy, the catalogue and its
//! values (SW-R44), crafting (SW-A8's oracles), magic difficulties, traits, actions.

use dice_core::Exact;
use dice_swimclass::{
    Applies, Bonus, CATALOGUE, Context, Error, Health, MagicWheel, OpposedRoll, RARE_VALUE, Rules,
    School, Sheet, Skill, SkillDice, Spell, SpellInput, StrainPenalty, Task, TaskRoll,
    ValuationRule, aid_another, craft, magic, push, strain, tables, two_skills_in_round, windup,
    with_reserve,
};

#[test]
fn creation_and_defaults() {
    // L13, L23, L141, SW-A27.
    let s = Sheet::new([Skill::Magic(School::Life), Skill::PickLock]).unwrap();
    assert_eq!(s.rank(Skill::Magic(School::Life)), 2);
    assert_eq!(s.rank(Skill::PickLock), 2);
    assert_eq!(Sheet::default().rank(Skill::PickLock), 0);
    assert_eq!(Sheet::default().rank(Skill::Climb), 1);
    assert!(matches!(
        Sheet::new([Skill::Flight, Skill::Spot]),
        Err(Error::TraitPick { .. })
    ));
    assert!(!Sheet::default().can_use(Skill::Magic(School::Death), false));
}

#[test]
fn synergy_both_ways_and_to_a_fixed_point() {
    let rules = Rules::default();
    // Basic Ranged 5 pulls Throw to 3, which pulls Brawn to 1 (no change): both ways.
    let mut s = Sheet::with_ranks([(Skill::BasicRanged, 4)]);
    s.advance(Skill::BasicRanged, &rules);
    assert_eq!(s.rank(Skill::Throw), 3);
    // Chains: Brawn 6 → Throw 4 → Basic Ranged 2; Basic Melee 3.
    let mut s = Sheet::with_ranks([(Skill::Brawn, 5)]);
    s.advance(Skill::Brawn, &rules);
    assert_eq!(
        (
            s.rank(Skill::Throw),
            s.rank(Skill::BasicRanged),
            s.rank(Skill::BasicMelee)
        ),
        (4, 2, 3)
    );
    // Default-0 skills gain their first point by synergy (L31); traits do not (L171).
    let mut s = Sheet::with_ranks([(Skill::Craft, 2)]);
    s.advance(Skill::Craft, &rules);
    assert_eq!(s.rank(Skill::SpecializedCraft), 2);
    // The magic wheel's synergies when a wheel is given.
    let wheel = Rules {
        wheel: MagicWheel::new(School::ALL),
        ..rules
    };
    let mut s = Sheet::with_ranks([(Skill::Magic(School::Fire), 3)]);
    s.advance(Skill::Magic(School::Fire), &wheel);
    assert_eq!(s.rank(Skill::Magic(School::Wind)), 2);
    assert_eq!(s.rank(Skill::Magic(School::Death)), 2);
    assert_eq!(s.rank(Skill::Magic(School::Earth)), 0); // two steps away: 2 − 2 = 0
    // Optional synergy: nothing propagates.
    let optional = Rules {
        synergy_optional: true,
        ..rules
    };
    let mut s = Sheet::with_ranks([(Skill::Brawn, 5)]);
    assert_eq!(s.advance(Skill::Brawn, &optional).len(), 1);
    // A rank ceiling stops advancement.
    let capped = Rules {
        max_rank: Some(10),
        ..rules
    };
    let mut s = Sheet::with_ranks([(Skill::Spot, 10)]);
    assert!(s.advance(Skill::Spot, &capped).is_empty());
}

#[test]
fn catalogue_values_match_sw_r44() {
    // SW-R44's value column (reading A).
    let expect = [
        ("Great Sword", 9),
        ("Common Bow", 4),
        ("Masterpiece Bow", 18),
        ("Arrow", 0),
        ("Knife", 2),
        ("Quarterstaff", 2),
        ("Medium Shield", 6),
        ("Rope", 0),
        ("Piton", 2),
        ("Hammer", 3),
        ("Flawless crystal of the Ancients", 24),
        ("Bottomless Amphora", 24),
        ("Amulet of Life", 24),
        ("Stave of Hermes", 24),
        ("Eternal Torch", 24),
        ("Skull of a Litch", 24),
    ];
    for (e, (name, value)) in CATALOGUE.iter().zip(expect) {
        assert_eq!(e.name, name);
        assert_eq!(e.value(ValuationRule::SumOverDice), value, "{name}");
        // "All artifacts come out above 20 … every mundane item at 20 or below", both readings.
        for rule in [ValuationRule::SumOverDice, ValuationRule::PerDie] {
            assert_eq!(
                e.value(rule) > RARE_VALUE,
                e.is_artifact(),
                "{name} {rule:?}"
            );
        }
    }
    // Reading B: Great Sword 3, Masterpiece Bow 6, Shield 3 (SW-A6).
    let v = |n: &str| {
        dice_swimclass::implement::catalogue(n)
            .unwrap()
            .value(ValuationRule::PerDie)
    };
    assert_eq!(
        (v("Great Sword"), v("Masterpiece Bow"), v("Medium Shield")),
        (3, 6, 3)
    );
    // The valuation formula's four bullets (L56–L61).
    let r = ValuationRule::SumOverDice;
    assert_eq!(r.value(Bonus::Constant { dice: 2, value: 3 }), 36);
}

#[test]
fn artifacts_let_you_use_the_skill_and_advance_only_without_it() {
    let rules = Rules::default();
    let torch = dice_swimclass::implement::catalogue("Eternal Torch")
        .unwrap()
        .implement_for(Applies::Skill(Skill::Magic(School::Fire)))
        .unwrap();
    // No Fire magic: the artifact's die is the advancement pool (L67).
    let novice = SkillDice::new(0).with_implement(&torch).unwrap();
    let t = TaskRoll::new(novice, Task::single(4).unwrap(), rules).unwrap();
    assert!(t.resolve(&[5]).unwrap().outcome.advances);
    // With the skill, the artifact die does not count: a 2 on it does not spoil advancement,
    // and the skill die alone decides.
    let adept = SkillDice::new(1).with_implement(&torch).unwrap();
    let t = TaskRoll::new(adept, Task::single(2).unwrap(), rules).unwrap();
    let r = t.resolve(&[5, 1]).unwrap();
    assert_eq!(r.dice[1].source, dice_core::Source::Artifact);
    assert!(r.outcome.advances);
    assert!(!t.resolve(&[3, 6]).unwrap().outcome.advances);
}

#[test]
fn crafting_oracles() {
    // SW-A8: r = 8 gives (4, 2); r = 27 gives (9, 3); r = 1 gives (1, 1).
    let rules = Rules::default();
    for (r, m, s) in [(8, 4.0, 2), (27, 9.0, 3), (1, 1.0, 1)] {
        let q = craft::requirements(r, &rules);
        assert_eq!((q.materials, q.successes), (m, s));
    }
    assert_eq!(craft::difficulty(true, false, 2).unwrap(), 3);
    let t = craft::task(9, false, true, 1, &rules).unwrap();
    assert_eq!((t.difficulty, t.progress), (3, 3));
}

#[test]
fn magic_difficulties() {
    let i = SpellInput::default();
    assert_eq!(
        Spell::Blaze
            .difficulty(&SpellInput {
                range: Some(2),
                ..i
            })
            .unwrap(),
        3
    );
    assert!(
        Spell::Blaze
            .difficulty(&SpellInput {
                range: Some(4),
                ..i
            })
            .is_err()
    );
    assert_eq!(
        Spell::Stun
            .difficulty(&SpellInput {
                range: Some(2),
                ..i
            })
            .unwrap(),
        2
    );
    assert_eq!(
        Spell::Stabilize
            .difficulty(&SpellInput {
                beyond_zero: Some(2),
                ..i
            })
            .unwrap(),
        2
    );
    assert_eq!(Spell::RaiseUndead.difficulty(&i).unwrap(), 4);
    assert_eq!(
        Spell::Quake
            .difficulty(&SpellInput {
                given: Some(5),
                ..i
            })
            .unwrap(),
        5
    );
    assert!(matches!(
        Spell::Quake.difficulty(&i),
        Err(Error::Missing { .. })
    ));
    for s in Spell::ALL {
        assert!(s.line() >= 193 && s.line() <= 235);
    }
    assert_eq!(
        magic::blaze_hits(
            2,
            &Rules {
                blaze: dice_swimclass::BlazeHits::PerDie,
                ..Rules::default()
            }
        ),
        2
    );
}

#[test]
fn traits_and_movement() {
    // Dark Vision 2 on Spot in low light: (2+1).
    let spot = SkillDice::new(2)
        .with_bonus(tables::vision_bonus(2))
        .unwrap();
    let d = spot.apply(&[5, 3], &Rules::default()).unwrap();
    assert_eq!((d[0].value, d[1].value), (6, 4));
    // Flight: difficulty 2 opposed by wind, first success hovers.
    let fly = OpposedRoll::new(
        SkillDice::new(3),
        tables::FLIGHT_DIFFICULTY,
        Some(SkillDice::new(1)),
        Rules::default(),
    )
    .unwrap();
    let r = fly.resolve(&[6, 4, 1], &[5]).unwrap();
    assert_eq!(
        tables::flight(r.outcome.hits),
        tables::Flight::Hovers { squares: 0 }
    );
    // Fins −2 on Walk makes difficulty 1 failable (SW-A26).
    let walk = SkillDice::new(1)
        .with_modifier(tables::PairedTrait::fins(2).modifier(Skill::WalkRun))
        .unwrap();
    let t = TaskRoll::new(walk, Task::single(1).unwrap(), Rules::default()).unwrap();
    assert!(t.has_chance_of_failure());
    assert!((t.success_chance().unwrap() - 4.0 / 6.0).abs() < 1e-12);
    assert!(tables::is_encumbered(25.0));
}

#[test]
fn actions() {
    let rules = Rules::default();
    assert_eq!(two_skills_in_round(5, 1), (2, 0));
    assert_eq!(
        strain(
            4,
            &Rules {
                strain: StrainPenalty::ToOne,
                ..rules
            }
        )
        .unwrap()
        .rank_after,
        1
    );
    assert_eq!(windup(2, 3, Context::OutOfCombat, &rules).unwrap().dice, 4); // 6 − 2 = 4 ≤ 4
    assert_eq!(
        aid_another(&[2, 2, 2], Context::InCombat, &rules)
            .unwrap()
            .rounds,
        3
    );
    assert!(push(3, 2).is_ok() && push(4, 2).is_err());
    // Reserve: Defense 3 + Melee 2 − 1.
    let d = with_reserve(SkillDice::new(3), 2, &rules).unwrap();
    assert_eq!(d.rolled(&rules), 4);
    let plain = with_reserve(
        SkillDice::new(3),
        2,
        &Rules {
            reserve_uses_combine_penalty: false,
            ..rules
        },
    )
    .unwrap();
    assert_eq!(plain.rolled(&rules), 5);
    // Splitting an attack between two targets: each part is its own roll.
    let parts = SkillDice::new(4).split(&[2, 2]).unwrap();
    let a = OpposedRoll::new(parts[0].clone(), 1, Some(SkillDice::new(1)), rules).unwrap();
    assert!(a.hits().distribution().unwrap().outcomes().len() <= 3);
}

#[test]
fn health_and_death() {
    let mut h = Health::new(1); // 2 HP
    h.take(3);
    assert_eq!(h.condition(), dice_swimclass::Condition::Dying);
    h.stabilize(dice_swimclass::StabilizeOutcome {
        stabilized: true,
        criticals: 0,
    });
    assert_eq!(h.condition(), dice_swimclass::Condition::Down);
    let mut h = Health::new(2);
    h.take(3);
    h.stabilize(dice_swimclass::StabilizeOutcome {
        stabilized: false,
        criticals: 2,
    });
    assert_eq!(h.condition(), dice_swimclass::Condition::Dying); // 2 is not more than 2
    h.stabilize(dice_swimclass::StabilizeOutcome {
        stabilized: false,
        criticals: 1,
    });
    assert_eq!(h.condition(), dice_swimclass::Condition::Dead);
    let mut h = Health::new(3);
    h.take(2);
    h.heal(5, Rules::default().recovery_capped);
    assert_eq!(h.hp, 4);
}
