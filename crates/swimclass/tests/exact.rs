//! The exact laws against brute force: every roll of every die (all 6ⁿ face tuples, not
//! multisets) resolved through the pure forms, for small pools; and formulas written out
//! here for plain dice.

use std::collections::BTreeMap;
use std::fmt::Debug;

use dice_core::{BlockRule, Exact, block};
use dice_swimclass::{
    Bonus, BonusAssignment, ConstantDice, Health, HitTable, Initiative, InitiativeContest,
    InitiativeScore, NO_THRESHOLD, OpposedRoll, Recovery, Rules, Side, SkillDice, Stabilize, Task,
    TaskRoll,
};

/// Every tuple of `n` d6 faces.
fn tuples(n: usize) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|t| {
                (1..=6).map(move |f| {
                    let mut t = t.clone();
                    t.push(f);
                    t
                })
            })
            .collect();
    }
    out
}

fn assert_same<O: Ord + Debug + Clone>(
    exact: &dice_core::Dist<O>,
    brute: &BTreeMap<O, f64>,
    what: &str,
) {
    let total: f64 = brute.values().sum();
    assert!(
        (total - 1.0).abs() < 1e-12,
        "{what}: brute force sums to {total}"
    );
    assert!(
        (exact.total() - 1.0).abs() < 1e-12,
        "{what}: law sums to {}",
        exact.total()
    );
    for (o, &p) in brute {
        let q = exact.probability(o);
        assert!((p - q).abs() < 1e-12, "{what}: {o:?} brute {p} exact {q}");
    }
    for (o, q) in exact.iter() {
        if q > 1e-15 {
            assert!(
                brute.contains_key(o),
                "{what}: {o:?} has {q} but never happens"
            );
        }
    }
}

fn dice_configs() -> Vec<SkillDice> {
    let plus = |n, m| Bonus::Plus {
        dice: n,
        modifier: m,
    };
    let mut v = Vec::new();
    for rank in 0..=3u32 {
        v.push(SkillDice::new(rank));
        v.push(SkillDice::new(rank).with_bonus(plus(1, 2)).unwrap());
        v.push(
            SkillDice::new(rank)
                .with_bonus(plus(2, 3))
                .unwrap()
                .with_bonus(Bonus::CancelCriticals(1))
                .unwrap(),
        );
        v.push(SkillDice::new(rank).with_bonus(Bonus::Dice(1)).unwrap());
        v.push(
            SkillDice::new(rank)
                .with_bonus(plus(1, 4))
                .unwrap()
                .with_bonus(plus(1, 1))
                .unwrap()
                .with_modifier(-1)
                .unwrap(),
        );
        v.push(
            SkillDice::new(rank)
                .with_bonus(Bonus::Constant { dice: 1, value: 5 })
                .unwrap(),
        );
        v.push(
            SkillDice::new(rank)
                .with_aid(1)
                .unwrap()
                .with_bonus(plus(1, 2))
                .unwrap(),
        );
    }
    v
}

fn rule_variants() -> Vec<Rules> {
    vec![
        Rules::default(),
        Rules {
            assignment: BonusAssignment::Optimal,
            advancement_uses_natural: false,
            ..Rules::default()
        },
        Rules {
            constant_dice: ConstantDice::ExtraDice,
            block_rule: BlockRule::Strict,
            ..Rules::default()
        },
    ]
}

#[test]
fn task_rolls_match_brute_force() {
    let tasks = [
        Task::single(1).unwrap(),
        Task::single(4).unwrap(),
        Task::single(7).unwrap(),
        Task::all_or_nothing(3, 2).unwrap(),
        Task::over_rounds(5, 3).unwrap(),
        Task::single(-1).unwrap(),
    ];
    let mut checked = 0;
    for rules in rule_variants() {
        for dice in dice_configs() {
            let n = dice.rolled(&rules) as usize;
            let all = tuples(n);
            let w = 1.0 / all.len() as f64;
            for task in tasks {
                let roll = TaskRoll::new(dice.clone(), task, rules).unwrap();
                let mut brute = BTreeMap::new();
                for f in &all {
                    *brute.entry(roll.resolve(f).unwrap().outcome).or_insert(0.0) += w;
                }
                let what = format!("{roll} under {rules:?}");
                assert_same(&roll.distribution().unwrap(), &brute, &what);
                // The progress law is the marginal of the successes.
                let mut prog = BTreeMap::new();
                for (o, p) in &brute {
                    *prog.entry(o.successes).or_insert(0.0) += p;
                }
                assert_same(&roll.progress().distribution().unwrap(), &prog, &what);
                checked += 1;
            }
        }
    }
    assert!(checked > 400);
}

/// P(Binomial(n, p) ≥ k).
fn binomial_at_least(n: u32, p: f64, k: u32) -> f64 {
    let choose = |n: u32, k: u32| (0..k).fold(1.0, |a, i| a * f64::from(n - i) / f64::from(i + 1));
    (k..=n)
        .map(|j| choose(n, j) * p.powi(j as i32) * (1.0 - p).powi((n - j) as i32))
        .sum()
}

#[test]
fn plain_task_odds_by_formula() {
    // A die succeeds with chance (7 − T)/6, clamped; P(success) is binomial; the skill
    // advances when every die shows max(T, 4) or more and the task can fail (T ≥ 2).
    for n in 0..=8u32 {
        for t in -1..=8i32 {
            for progress in 1..=3u32 {
                let task = Task::all_or_nothing(t, progress).unwrap();
                let roll = TaskRoll::new(SkillDice::new(n), task, Rules::default()).unwrap();
                let p = (f64::from(7 - t) / 6.0).clamp(0.0, 1.0);
                let want = binomial_at_least(n, p, progress);
                let got = roll.success_chance().unwrap();
                assert!(
                    (got - want).abs() < 1e-12,
                    "{n}d6 ≥{t} ×{progress}: {got} vs {want}"
                );
                let can_fail = want < 1.0;
                assert_eq!(roll.has_chance_of_failure(), can_fail, "{n} {t} {progress}");
                let adv = if can_fail && n >= progress && n > 0 {
                    (f64::from(7 - t.max(4)) / 6.0)
                        .clamp(0.0, 1.0)
                        .powi(n as i32)
                } else {
                    0.0
                };
                let got = roll.advance_chance().unwrap();
                assert!(
                    (got - adv).abs() < 1e-12,
                    "advance {n} {t} {progress}: {got} vs {adv}"
                );
            }
        }
    }
}

#[test]
fn opposed_rolls_match_brute_force() {
    let plus = |n, m| Bonus::Plus {
        dice: n,
        modifier: m,
    };
    let attacks = [
        SkillDice::new(1),
        SkillDice::new(2).with_bonus(plus(1, 2)).unwrap(),
        SkillDice::new(3).with_bonus(plus(1, 4)).unwrap(),
        SkillDice::new(0).with_bonus(Bonus::Dice(2)).unwrap(),
        SkillDice::new(2)
            .with_bonus(Bonus::Dice(1))
            .unwrap()
            .with_bonus(Bonus::CancelCriticals(1))
            .unwrap(),
        SkillDice::new(2)
            .with_bonus(Bonus::Constant { dice: 1, value: 4 })
            .unwrap(),
    ];
    let defenses = [
        None,
        Some(SkillDice::new(1)),
        Some(SkillDice::new(2).with_bonus(plus(1, 1)).unwrap()),
        Some(SkillDice::new(3)),
        Some(SkillDice::new(2).with_bonus(plus(2, 3)).unwrap()),
    ];
    for rules in rule_variants() {
        for a in &attacks {
            for d in &defenses {
                for difficulty in [NO_THRESHOLD, 2, 5, 8] {
                    let na = a.rolled(&rules) as usize;
                    let nd = d.as_ref().map_or(0, |d| d.rolled(&rules) as usize);
                    if na + nd > 6 {
                        continue;
                    }
                    let roll = OpposedRoll::new(a.clone(), difficulty, d.clone(), rules).unwrap();
                    let (at, dt) = (tuples(na), tuples(nd));
                    let w = 1.0 / (at.len() * dt.len()) as f64;
                    let mut brute = BTreeMap::new();
                    let mut hits = BTreeMap::new();
                    for x in &at {
                        for y in &dt {
                            let o = roll.resolve(x, y).unwrap().outcome;
                            *brute.entry(o).or_insert(0.0) += w;
                            *hits.entry(o.hits).or_insert(0.0) += w;
                        }
                    }
                    let what = format!("{roll} at {difficulty} under {rules:?}");
                    assert_same(&roll.distribution().unwrap(), &brute, &what);
                    assert_same(&roll.hits().distribution().unwrap(), &hits, &what);
                }
            }
        }
    }
}

#[test]
fn plain_hits_agree_with_an_independent_count() {
    // Plain dice: `hits()` is dice-core's Blocking; count here with dice_core::block.
    for rule in [BlockRule::AtLeast, BlockRule::Strict] {
        let rules = Rules {
            block_rule: rule,
            ..Rules::default()
        };
        for na in 1..=3usize {
            for nd in 0..=3usize {
                for t in [1, 3, 6] {
                    let roll = OpposedRoll::new(
                        SkillDice::new(na as u32),
                        t,
                        Some(SkillDice::new(nd as u32)),
                        rules,
                    )
                    .unwrap();
                    let (at, dt) = (tuples(na), tuples(nd));
                    let w = 1.0 / (at.len() * dt.len()) as f64;
                    let mut brute = BTreeMap::new();
                    for x in &at {
                        let h: Vec<i64> = x
                            .iter()
                            .map(|&f| i64::from(f))
                            .filter(|&v| v >= i64::from(t))
                            .collect();
                        for y in &dt {
                            let d: Vec<i64> = y.iter().map(|&f| i64::from(f)).collect();
                            *brute.entry(block(&h, &d, rule).unblocked).or_insert(0.0) += w;
                        }
                    }
                    assert_same(
                        &roll.hits().distribution().unwrap(),
                        &brute,
                        &format!("{roll}"),
                    );
                }
            }
        }
    }
}

#[test]
fn the_engine_agrees_with_dice_core_on_ranks_1_to_8() {
    // The full law's hit marginal (this crate's engine) against `hits()` (dice-core's
    // Blocking DP) for every cell of the designer's table, both block rules.
    for rule in [BlockRule::AtLeast, BlockRule::Strict] {
        let rules = Rules {
            block_rule: rule,
            ..Rules::default()
        };
        for t in [NO_THRESHOLD, 4] {
            let table = HitTable::new(8, 8, t, &[], &[], &rules).unwrap();
            for a in 1..=8 {
                for d in 1..=8 {
                    let roll =
                        OpposedRoll::new(SkillDice::new(a), t, Some(SkillDice::new(d)), rules)
                            .unwrap();
                    let full = roll.distribution().unwrap();
                    let plain = table.distribution(a, d).unwrap();
                    for h in 0..=a {
                        let p = full.probability_where(|o| o.hits == h);
                        assert!(
                            (p - plain.probability(&h)).abs() < 1e-12,
                            "{a} vs {d} at {t}: {h}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn progress_over_rounds_matches_brute_force() {
    // Two rounds of 2 dice with a (1+2), progress 3: enumerate both rounds' dice.
    let dice = SkillDice::new(2)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 2,
        })
        .unwrap();
    let task = Task::over_rounds(5, 3).unwrap();
    let roll = TaskRoll::new(dice, task, Rules::default()).unwrap();
    let all = tuples(2);
    let w = 1.0 / (all.len() * all.len()) as f64;
    let mut brute = BTreeMap::new();
    for x in &all {
        for y in &all {
            let s1 = roll.resolve(x).unwrap().outcome.successes;
            let s2 = if s1 >= 3 {
                0
            } else {
                roll.resolve(y).unwrap().outcome.successes
            };
            *brute.entry((s1 + s2).min(3)).or_insert(0.0) += w;
        }
    }
    assert_same(&roll.progress_after(2).unwrap(), &brute, "progress after 2");
    assert!((roll.completion_chance(2).unwrap() - brute[&3]).abs() < 1e-12);
}

#[test]
fn initiative_matches_brute_force() {
    let a = SkillDice::new(2);
    let b = SkillDice::new(1)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 1,
        })
        .unwrap();
    let rules = Rules::default();
    let ia = Initiative::new(a.clone(), &rules);
    let mut brute = BTreeMap::new();
    for x in tuples(2) {
        let v: Vec<i64> = x.iter().map(|&f| i64::from(f)).collect();
        *brute.entry(InitiativeScore::of(&v)).or_insert(0.0) += 1.0 / 36.0;
    }
    assert_same(&ia.distribution().unwrap(), &brute, "initiative 2d6");
    // Contest: P(first) = wins / (wins + losses), counted over every pair of rolls.
    let (mut win, mut lose) = (0.0, 0.0);
    for x in tuples(2) {
        for y in tuples(1) {
            let vx: Vec<i64> = x.iter().map(|&f| i64::from(f)).collect();
            let vy = vec![i64::from(y[0]) + 1];
            match InitiativeScore::of(&vx).cmp(&InitiativeScore::of(&vy)) {
                std::cmp::Ordering::Greater => win += 1.0,
                std::cmp::Ordering::Less => lose += 1.0,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    let c = InitiativeContest::new(a, b, &rules).unwrap();
    let d = c.distribution().unwrap();
    assert!((d.probability(&Side::First) - win / (win + lose)).abs() < 1e-12);
}

#[test]
fn recovery_and_stabilization_match_brute_force() {
    let rules = Rules::default();
    let mut h = Health::new(3);
    h.take(2);
    let rec = Recovery::new(SkillDice::new(3), &h, &rules).unwrap();
    let mut brute = BTreeMap::new();
    for x in tuples(3) {
        let sixes = x.iter().filter(|&&f| f == 6).count() as u32;
        *brute.entry(sixes.min(2)).or_insert(0.0) += 1.0 / 216.0;
    }
    assert_same(&rec.distribution().unwrap(), &brute, "recovery");

    let mut dying = Health::new(3);
    dying.take(7); // −3: difficulty 3
    let st = Stabilize::new(SkillDice::new(3), &dying, &rules).unwrap();
    let mut brute = BTreeMap::new();
    for x in tuples(3) {
        let o = st.resolve(&x).unwrap();
        let stabilized = x.iter().any(|&f| f >= 3);
        let ones = x.iter().filter(|&&f| f == 1).count() as u32;
        assert_eq!(o.stabilized, stabilized);
        assert_eq!(
            o.criticals,
            if stabilized {
                0
            } else {
                ones.saturating_sub(1)
            }
        );
        *brute.entry(o).or_insert(0.0) += 1.0 / 216.0;
    }
    assert_same(&st.distribution().unwrap(), &brute, "stabilize");
}
