//! Exact laws (through `dice_core::Exact`) checked against brute-force enumeration of the
//! d10 faces, written out here with the crate's pure "faces in, outcome out" forms. No
//! probability is typed in.

use crate::common;

use common::{as_map, enumerate, same};
use dice_core::Exact;
use dice_robots_and_rapiers::{
    BaseActionPoints, ChainedTest, Compulsion, DamageKind, DurabilitySave, InspirationRoll,
    Malfunction, MalfunctionTable, Opposition, OverrideOutcome, Program, Reaction, RelatedPrograms,
    RoleSave, Rules, SaveOutcome, SavingThrow, SelfReactivation, ShutdownOverride, StrayShot, Test,
    combat_ap_tn,
};

const EPS: f64 = 1e-12;

#[test]
fn test_net_law_matches_enumeration() {
    // Every split of up to 5 dice between actor and opposition, several TNs and
    // Difficulties.
    for (mine, theirs) in [
        (1, 0),
        (2, 0),
        (3, 0),
        (2, 1),
        (3, 2),
        (2, 3),
        (1, 4),
        (4, 1),
    ] {
        for tn in [-1, 0, 1, 4, 7, 10, 12] {
            for otn in [3, 6] {
                for difficulty in [0, 1, 2] {
                    let mut t = Test::new(mine, tn)
                        .unwrap()
                        .with_difficulty(difficulty)
                        .unwrap();
                    if theirs > 0 {
                        t = t.opposed_by(Opposition::new(theirs, otn).unwrap());
                    }
                    let n = (mine + theirs) as usize;
                    let law = enumerate(n, |f| {
                        let (a, o) = f.split_at(mine as usize);
                        if theirs > 0 {
                            t.resolve_opposed(a, o).unwrap().net
                        } else {
                            t.resolve(a).unwrap().net
                        }
                    });
                    same(&as_map(&t.distribution().unwrap()), &law, EPS);
                }
            }
        }
    }
}

#[test]
fn exerted_test_is_one_tn_higher() {
    // From TN 1 up; at TN 0 the attribute has lost its use and Exertion does nothing
    // (L253, L1786; `audit::exertion_cannot_lift_a_tn_of_zero`).
    for tn in 1..=10 {
        let a = Test::new(4, tn).unwrap().exerted();
        let b = Test::new(4, tn + 1).unwrap();
        same(
            &as_map(&a.distribution().unwrap()),
            &as_map(&b.distribution().unwrap()),
            EPS,
        );
    }
}

#[test]
fn eight_dice_against_eight_is_a_difference_of_binomials() {
    // The net law of 8d10 ≤ 6 vs 8d10 ≤ 5 by the convolution written out.
    let b = |n: u32, k: u32, p: f64| {
        let c = (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1));
        c * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
    };
    let t = Test::new(8, 6)
        .unwrap()
        .opposed_by(Opposition::new(8, 5).unwrap())
        .with_difficulty(1)
        .unwrap();
    let d = t.distribution().unwrap();
    for net in -9i64..=7 {
        let mut p = 0.0;
        for mine in 0..=8u32 {
            let theirs = i64::from(mine) - 1 - net;
            if (0..=8).contains(&theirs) {
                p += b(8, mine, 0.6) * b(8, theirs as u32, 0.5);
            }
        }
        assert!((d.probability(&net) - p).abs() < EPS, "net {net}");
    }
}

#[test]
fn inspiration_joint_law_matches_enumeration() {
    for dial in [1u8, 2] {
        let rules = Rules {
            inspiration_faces: dial,
            ..Rules::default()
        };
        for tn in [1, 2, 5, 9] {
            let t = Test::new(3, tn).unwrap();
            let law = enumerate(3, |f| {
                let r = t.resolve(f).unwrap();
                (r.successes, r.inspiration_eligible(&rules))
            });
            same(
                &as_map(&t.inspiration_distribution(&rules).unwrap()),
                &law,
                EPS,
            );
        }
    }
}

#[test]
fn inspiration_roll_is_a_test() {
    let r = InspirationRoll::for_program(7, 3, Program::Observation).unwrap();
    let law = enumerate(3, |f| r.test().resolve(f).unwrap().net);
    same(&as_map(&r.distribution().unwrap()), &law, EPS);
}

#[test]
fn saving_throw_law_matches_enumeration() {
    let rules = Rules::default();
    for tn in -2..=12 {
        let s = SavingThrow::new(tn).unwrap();
        let law = enumerate(3, |f| s.resolve([f[0], f[1], f[2]]).unwrap().outcome);
        same(&as_map(&s.distribution().unwrap()), &law, EPS);
        let loss = enumerate(3, |f| {
            s.resolve([f[0], f[1], f[2]])
                .unwrap()
                .outcome
                .attribute_loss(&rules)
        });
        same(&as_map(&s.loss_distribution(&rules).unwrap()), &loss, EPS);
        let mean: f64 = loss.iter().map(|(&l, &p)| f64::from(l) * p).sum();
        assert!((s.expected_loss(&rules).unwrap() - mean).abs() < EPS);
    }
}

#[test]
fn durability_save_law_matches_enumeration() {
    let rules = Rules::default();
    let flat = Rules {
        malfunctions_per_failed_die: false,
        malfunctions_on_total_failure: false,
        ..Rules::default()
    };
    for r in [&rules, &flat] {
        for kind in [
            DamageKind::default(),
            DamageKind::Malfunctions { per_failed_die: 3 },
            DamageKind::Emp {
                loss_per_failed_die: 2,
            },
        ] {
            for tn in [0, 3, 6, 10] {
                let s = DurabilitySave::new(tn, kind, r).unwrap();
                let law = enumerate(3, |f| s.resolve([f[0], f[1], f[2]]).unwrap());
                same(&as_map(&s.distribution().unwrap()), &law, EPS);
            }
        }
    }
}

#[test]
fn role_and_self_awareness_saves_are_statistically_identical() {
    // L1138, L1978: Role + SA = 10 makes the two saves "statistically identical".
    for role in 0..=10u8 {
        let a = RoleSave::Role { role }.distribution().unwrap();
        let b = RoleSave::SelfAwareness {
            self_awareness: 10 - role,
        }
        .distribution()
        .unwrap();
        same(&as_map(&a), &as_map(&b), EPS);
        let law = enumerate(3, |f| {
            let o = SavingThrow::new(i32::from(role))
                .unwrap()
                .resolve([f[0], f[1], f[2]])
                .unwrap()
                .outcome;
            Compulsion::from_role_save(o)
        });
        same(&as_map(&a), &law, EPS);
    }
}

#[test]
fn shutdown_override_law_matches_enumeration() {
    let rules = Rules::default();
    for sa in 1..=10u8 {
        let o = ShutdownOverride::new(sa, &rules).unwrap();
        let law = enumerate(3, |f| o.resolve([f[0], f[1], f[2]]).unwrap());
        same(&as_map(&o.distribution().unwrap()), &law, EPS);
    }
    assert_eq!(
        ShutdownOverride::new(10, &rules)
            .unwrap()
            .distribution()
            .unwrap()
            .probability(&OverrideOutcome::Overridden),
        1.0
    );
}

#[test]
fn base_action_points_match_enumeration() {
    let rules = Rules::default();
    for (mine, theirs) in [(1, 1), (2, 1), (1, 2), (3, 1), (1, 3), (3, 2)] {
        let tn = combat_ap_tn(mine, theirs, &rules);
        for dice in 0..=4u32 {
            for loss in [0, 2] {
                let ap = BaseActionPoints::new(dice, tn, &rules)
                    .unwrap()
                    .surprised(loss);
                let law = enumerate(dice as usize, |f| ap.resolve(f).unwrap());
                same(&as_map(&ap.distribution().unwrap()), &law, EPS);
            }
        }
    }
}

#[test]
fn chained_opposition_matches_enumeration() {
    let t = ChainedTest::new(
        Test::new(2, 6).unwrap().with_difficulty(1).unwrap(),
        vec![
            Opposition::new(2, 5).unwrap(),
            Opposition::new(1, 7).unwrap(),
        ],
    )
    .unwrap();
    let law = enumerate(5, |f| t.resolve(&f[..2], &[&f[2..4], &f[4..]]).unwrap());
    same(&as_map(&t.distribution().unwrap()), &law, EPS);
}

#[test]
fn related_programs_match_enumeration() {
    // A 2-die related roll (Difficulty 1) feeding a 1-die main roll: enumerate all dice the
    // series could roll (2 + 1 + up to 1 bonus), ignoring unused faces.
    let r = RelatedPrograms::new(
        vec![Test::new(2, 6).unwrap().with_difficulty(1).unwrap()],
        Test::new(1, 4).unwrap(),
    )
    .unwrap();
    let law = enumerate(4, |f| {
        let related = &f[..2];
        let bonus = (related.iter().filter(|&&x| x <= 6).count() as i64 - 1).max(0) as usize;
        let main = &f[2..3 + bonus];
        r.resolve(&[related, main]).unwrap()
    });
    same(&as_map(&r.distribution().unwrap()), &law, EPS);
}

#[test]
fn malfunction_table_matches_enumeration() {
    let law = enumerate(3, |f| {
        Malfunction::from_faces(f[0], Some(f[1]), Some(f[2])).unwrap()
    });
    same(
        &as_map(&MalfunctionTable.distribution().unwrap()),
        &law,
        EPS,
    );
}

#[test]
fn self_reactivation_matches_enumeration() {
    for durability in [0, 3, 7, 10] {
        for power in 0..=3u32 {
            let r = SelfReactivation::new(durability, power).unwrap();
            let law = enumerate(power as usize, |f| r.resolve(f).unwrap());
            same(&as_map(&r.distribution().unwrap()), &law, EPS);
        }
    }
}

#[test]
fn stray_shot_matches_enumeration() {
    for difficulty in 0..=3u32 {
        let s = StrayShot::new(difficulty).unwrap();
        let law = enumerate(difficulty as usize + 1, |f| {
            f.iter().filter(|&&x| x == 10).count() as u32
        });
        same(&as_map(&s.distribution().unwrap()), &law, EPS);
    }
}

#[test]
fn reaction_costs_follow_the_save() {
    let s = SavingThrow::new(5).unwrap();
    let law = enumerate(3, |f| {
        Reaction::from_save(s.resolve([f[0], f[1], f[2]]).unwrap().outcome).opposing_cost()
    });
    let d = s
        .distribution()
        .unwrap()
        .map(|&o| Reaction::from_save(o).opposing_cost());
    same(&as_map(&d), &law, EPS);
    // Total Failure at TN 5: all three dice above 5.
    assert!((d.probability(&None) - 0.5f64.powi(3)).abs() < EPS);
    assert_eq!(SaveOutcome::TotalFailure.failed_dice(), 3);
}

#[test]
fn big_laws_are_proper() {
    // 8d10 vs 8d10 and larger pools: the laws sum to 1 and their means are exact.
    for (mine, theirs) in [(8, 8), (20, 15), (100, 100)] {
        let t = Test::new(mine, 6)
            .unwrap()
            .opposed_by(Opposition::new(theirs, 4).unwrap());
        let d = t.distribution().unwrap();
        assert!((d.total() - 1.0).abs() < 1e-9);
        let mean = f64::from(mine) * 0.6 - f64::from(theirs) * 0.4;
        assert!((d.mean() - mean).abs() < 1e-9);
    }
}

/// §2.8 (L1930–1932): a single-sense save rolls against 2 × the sensor, and the loss never
/// exceeds the sensor's level; every 3d10 roll, for sensors 0–5.
#[test]
fn sensor_save_matches_enumeration() {
    use dice_robots_and_rapiers::SensorSave;
    let rules = Rules::default();
    for sensor in 0..=5u32 {
        let s = SensorSave::new(sensor, &[]).unwrap();
        let tn = 2 * sensor as u8;
        let by_hand = enumerate(3, |f| {
            let successes = f.iter().filter(|&&x| x <= tn).count() as u32;
            // 2 per failed die, 6 on a Total Failure (A8), capped at the sensor's level.
            let loss = if successes == 0 {
                6
            } else {
                2 * (3 - successes)
            };
            loss.min(sensor)
        });
        same(
            &as_map(&s.loss_distribution(&rules).unwrap()),
            &by_hand,
            EPS,
        );
        let outcomes = enumerate(3, |f| {
            SaveOutcome::from_successes(f.iter().filter(|&&x| x <= tn).count() as u32)
        });
        same(&as_map(&s.distribution().unwrap()), &outcomes, EPS);
    }
}

/// §2.7 (L1920): the debate's loser saves Memory at −(extra successes); a Total Failure or
/// Memory at 0 or below loses the debate. Every 3d10 roll, Memory 1–8, margins 0–4.
#[test]
fn debate_matches_enumeration() {
    use dice_robots_and_rapiers::{Debate, DebateResult};
    for memory in 1..=8i32 {
        for margin in 0..=4u32 {
            let d = Debate::new(memory, margin, Rules::default()).unwrap();
            let tn = memory - margin as i32;
            let by_hand = enumerate(3, |f| {
                let successes = f.iter().filter(|&&x| i32::from(x) <= tn).count() as i32;
                let loss = if successes == 0 {
                    6
                } else {
                    2 * (3 - successes)
                };
                if successes == 0 || memory - loss <= 0 {
                    DebateResult::Loses
                } else {
                    DebateResult::Holds
                }
            });
            same(&as_map(&d.distribution().unwrap()), &by_hand, EPS);
        }
    }
}
