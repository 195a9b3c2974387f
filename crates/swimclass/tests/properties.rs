//! Invariants under proptest.

use dice_core::{Exact, Roll};
use dice_swimclass::{
    Bonus, BonusAssignment, InitiativeScore, OpposedRoll, Rules, Sheet, Skill, SkillDice, Task,
    TaskRoll, best_assignment_against, effective_criticals,
};
use proptest::prelude::*;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn dice() -> impl Strategy<Value = SkillDice> {
    (0u32..5, 0u32..2, 0u32..3, -3i32..6, 0u32..2, 0u32..2).prop_map(
        |(rank, artifact, n, m, cancel, constant)| {
            let mut d = SkillDice::new(rank)
                .with_bonus(Bonus::Dice(artifact))
                .unwrap()
                .with_bonus(Bonus::Plus {
                    dice: n,
                    modifier: m,
                })
                .unwrap()
                .with_bonus(Bonus::CancelCriticals(cancel))
                .unwrap();
            if constant > 0 {
                d = d.with_bonus(Bonus::Constant { dice: 1, value: 4 }).unwrap();
            }
            d
        },
    )
}

fn rules() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>()).prop_map(|(optimal, strict)| Rules {
        assignment: if optimal {
            BonusAssignment::Optimal
        } else {
            BonusAssignment::Highest
        },
        block_rule: if strict {
            dice_core::BlockRule::Strict
        } else {
            dice_core::BlockRule::AtLeast
        },
        ..Rules::default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn task_outcomes_are_within_bounds(d in dice(), rules in rules(), t in -2i32..10, progress in 1u32..4, seed in any::<u64>()) {
        let task = Task::all_or_nothing(t, progress).unwrap();
        let roll = TaskRoll::new(d.clone(), task, rules).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let n = d.rolled(&rules) + if rules.constant_dice == dice_swimclass::ConstantDice::ExtraDice { 1 } else { 0 };
        for _ in 0..20 {
            let o = roll.roll(&mut rng);
            prop_assert!(o.successes <= n + 1);
            prop_assert_eq!(o.succeeded, o.successes >= progress);
            prop_assert!(!(o.succeeded && o.criticals > 0));
            prop_assert!(!o.advances || (o.succeeded && roll.has_chance_of_failure()));
            prop_assert!(o.criticals <= n);
        }
        let law = roll.distribution().unwrap();
        prop_assert!((law.total() - 1.0).abs() < 1e-12);
        prop_assert!(law.probability_where(|o| o.advances) <= law.probability_where(|o| o.succeeded) + 1e-12);
    }

    #[test]
    fn easier_tasks_are_likelier(rank in 1u32..6, t in -1i32..8) {
        let p = |r: u32, t: i32| TaskRoll::new(SkillDice::new(r), Task::single(t).unwrap(), Rules::default()).unwrap().success_chance().unwrap();
        prop_assert!(p(rank, t) <= p(rank, t - 1) + 1e-12);
        prop_assert!(p(rank, t) <= p(rank + 1, t) + 1e-12);
    }

    #[test]
    fn blocking_never_adds_hits(a in 1u32..5, d in 0u32..5, t in 1i32..7, faces in prop::collection::vec(1u32..=6, 9)) {
        let rules = Rules::default();
        let roll = OpposedRoll::new(SkillDice::new(a), t, Some(SkillDice::new(d)), rules).unwrap();
        let r = roll.resolve(&faces[..a as usize], &faces[a as usize..(a + d) as usize]).unwrap();
        let successes = faces[..a as usize].iter().filter(|&&f| f as i32 >= t).count() as u32;
        prop_assert!(r.outcome.hits <= successes);
        prop_assert!(successes - r.outcome.hits <= d);
        prop_assert_eq!(r.blocked.len() as u32, successes - r.outcome.hits);
        // Strict blocking lets at least as much through.
        let strict = Rules { block_rule: dice_core::BlockRule::Strict, ..rules };
        let s = OpposedRoll::new(SkillDice::new(a), t, Some(SkillDice::new(d)), strict).unwrap();
        prop_assert!(s.resolve(&faces[..a as usize], &faces[a as usize..(a + d) as usize]).unwrap().outcome.hits >= r.outcome.hits);
    }

    #[test]
    fn the_best_assignment_beats_the_default(faces in prop::collection::vec(1u32..=6, 3), def in prop::collection::vec(1i64..=6, 3), n in 1u32..4, m in 1i32..5, t in 1i32..9) {
        let rules = Rules::default();
        let d = SkillDice::new(3).with_bonus(Bonus::Plus { dice: n, modifier: m }).unwrap();
        let roll = OpposedRoll::new(d.clone(), t, Some(SkillDice::new(3)), rules).unwrap();
        let def_faces: Vec<u32> = def.iter().map(|&x| x as u32).collect();
        let default = roll.resolve(&faces, &def_faces).unwrap().outcome.hits;
        let (choice, best) = best_assignment_against(&d, &faces, t, &def, &rules).unwrap();
        prop_assert!(best >= default);
        let chosen = d.apply_chosen(&faces, &choice, &rules).unwrap();
        let hits: Vec<i64> = chosen.iter().map(|x| x.value).filter(|&v| v >= i64::from(t)).collect();
        prop_assert_eq!(dice_core::block(&hits, &def, rules.block_rule).unblocked, best);
    }

    #[test]
    fn criticals_rule(ones in 0u32..10, succeeded in any::<bool>(), cancel in 0u32..4) {
        let c = effective_criticals(ones, succeeded, cancel);
        prop_assert!(c <= ones.saturating_sub(1));
        if succeeded { prop_assert_eq!(c, 0); }
    }

    #[test]
    fn synergy_holds_after_any_advances(steps in prop::collection::vec(0usize..25, 0..30)) {
        let rules = Rules::default();
        let mut s = Sheet::new([Skill::Brawn, Skill::Spot]).unwrap();
        for i in steps {
            s.advance(Skill::ALL[i], &rules);
        }
        for syn in dice_swimclass::SYNERGIES {
            let (a, b) = (s.rank(syn.a), s.rank(syn.b));
            let trait_gap = |x: Skill, r: u32| x.kind() == dice_swimclass::SkillKind::Trait && r == 0;
            prop_assert!(b + syn.degree >= a || trait_gap(syn.b, b), "{:?} {} {:?} {}", syn.a, a, syn.b, b);
            prop_assert!(a + syn.degree >= b || trait_gap(syn.a, a), "{:?} {} {:?} {}", syn.a, a, syn.b, b);
        }
    }

    #[test]
    fn initiative_is_lexicographic(a in prop::collection::vec(1i64..=6, 0..5), b in prop::collection::vec(1i64..=6, 0..5)) {
        let top2 = |v: &[i64]| { let mut v = v.to_vec(); v.sort_unstable_by(|x, y| y.cmp(x)); (v.first().copied(), v.get(1).copied()) };
        let (sa, sb) = (InitiativeScore::of(&a), InitiativeScore::of(&b));
        prop_assert_eq!((sa.highest, sa.second), top2(&a));
        prop_assert_eq!(sa.cmp(&sb), top2(&a).cmp(&top2(&b)));
    }
}
