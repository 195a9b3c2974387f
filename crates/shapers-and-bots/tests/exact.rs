//! Exact laws (through `dice_core::Exact`) checked against brute-force enumeration of the d6
//! faces, written out here. No probability is typed in: each is a count of equally likely
//! face sequences, or (for unbounded streaks) built from counts by the streak's
//! memorylessness — after `n` continuing faces a streak starts afresh, so
//! P(length = k) = P(first n continue)^(k div n) · P(length = k mod n), both factors counted.

use crate::common;

use std::collections::BTreeMap;

use common::all_faces;
use dice_core::{Exact, FaceSet};
use dice_shapers_and_bots::{
    Armor, Attack, AttackOutcome, Attempt, Challenge, ChallengeOutcome, Contest, ContestOutcome,
    Contestant, Damage, DamageRule, Fluke, Initiative, Level, PunchDamage, Rating, Rules, Size,
    Stakes, Surprise, TurnOrder, UndefendedHit, WeaponClass,
};

const EPS: f64 = 1e-14;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= EPS
}

/// Counts of the three challenge outcomes of `bonus` against `target` over the 36 pairs of
/// faces.
fn challenge_counts(bonus: i32, target: i32) -> [u32; 3] {
    let mut c = [0u32; 3]; // failure, consequences, success
    for f in all_faces(2) {
        let total = i32::from(f[0] + f[1]) + bonus;
        c[match total.cmp(&target) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 2,
        }] += 1;
    }
    c
}

#[test]
fn every_challenge_matches_enumeration() {
    for character in Level::ALL {
        for task in Level::ALL {
            let d = Challenge::new(character, task)
                .unwrap()
                .distribution()
                .unwrap();
            let c = challenge_counts(character.bonus(), task.target());
            let outcomes = [
                ChallengeOutcome::Failure,
                ChallengeOutcome::SuccessWithConsequences,
                ChallengeOutcome::Success,
            ];
            for (o, n) in outcomes.iter().zip(c) {
                assert!(
                    close(d.probability(o), f64::from(n) / 36.0),
                    "{character} vs {task}: {o}"
                );
            }
            assert!(close(d.total(), 1.0));
        }
    }
}

#[test]
fn equal_level_challenge_odds_of_the_digest() {
    // SB-R4's oracle: at equal levels P(>, =, <) is (7/12, 5/36, 5/18) for Very Low and Low,
    // and (5/12, 1/6, 5/12) from Average up: target − bonus is 6 for the first two and 7 for
    // the rest. Here as counts out of 36, derived by enumeration.
    for level in Level::ALL {
        let [below, equal, above] = challenge_counts(level.bonus(), level.target());
        let expected = if level <= Level::Low {
            [10, 5, 21] // 5/18, 5/36, 7/12
        } else {
            [15, 6, 15] // 5/12, 1/6, 5/12
        };
        assert_eq!([below, equal, above], expected, "{level}");
        assert_eq!(
            level.target() - level.bonus(),
            if level <= Level::Low { 6 } else { 7 }
        );
        let d = Challenge::new(level, level)
            .unwrap()
            .distribution()
            .unwrap();
        assert!(close(
            d.probability(&ChallengeOutcome::Success),
            f64::from(above) / 36.0
        ));
    }
    // Other oracles: High vs Awesome is (1/36, 1/18, 11/12); Very Low vs Very High (0, 0, 1).
    assert_eq!(challenge_counts(2, 13), [33, 2, 1]);
    assert_eq!(challenge_counts(-3, 11), [36, 0, 0]);
    let d = Challenge::new(Level::VeryLow, Level::VeryHigh)
        .unwrap()
        .distribution()
        .unwrap();
    assert_eq!(d.probability(&ChallengeOutcome::Failure), 1.0);
}

/// Length of the streak of `faces` continuing on `set`, or `None` when every face continues
/// (the length is then not decided by these faces).
fn streak_len(faces: &[u8], set: &[u8]) -> Option<u32> {
    faces
        .iter()
        .position(|f| !set.contains(f))
        .map(|p| p as u32)
}

/// The law of a streak's length on `set`, from the 6ⁿ sequences of `n` faces: the exact
/// probabilities of lengths `0..n` and of "all n continue".
fn streak_law(set: &[u8], n: usize) -> (Vec<f64>, f64) {
    let mut counts = vec![0u64; n + 1];
    for f in all_faces(n) {
        counts[streak_len(&f, set).map_or(n, |l| l as usize)] += 1;
    }
    let total = 6f64.powi(n as i32);
    let p: Vec<f64> = counts.iter().map(|&c| c as f64 / total).collect();
    (p[..n].to_vec(), p[n])
}

/// P(length = k), extended past the enumerated faces by memorylessness.
fn streak_p(law: &(Vec<f64>, f64), k: usize) -> f64 {
    let n = law.0.len();
    law.1.powi((k / n) as i32) * law.0[k % n]
}

#[test]
fn fluke_matches_enumeration() {
    let law = streak_law(&[4, 5, 6], 8);
    // P(score ≥ 7) is 2⁻⁷ (SB-R6): here the count of sequences whose first 7 faces continue.
    let reach7: f64 = 1.0 - (0..7).map(|k| streak_p(&law, k)).sum::<f64>();
    let first7 = all_faces(7)
        .filter(|f| streak_len(f, &[4, 5, 6]).is_none())
        .count();
    assert!(close(reach7, first7 as f64 / 6f64.powi(7)));
    for eq in [true, false] {
        let rules = Rules {
            fluke_equal_is_consequence: eq,
            ..Rules::default()
        };
        for task in Level::ALL {
            let fluke = Fluke::new(task, &rules).unwrap();
            let t = task.target() as usize;
            let below: f64 = (0..t).map(|k| streak_p(&law, k)).sum();
            let on = streak_p(&law, t);
            let d = fluke.distribution().unwrap();
            assert!(
                close(d.probability(&ChallengeOutcome::Failure), below),
                "{task}"
            );
            let (consequence, success) = if eq {
                (on, 1.0 - below - on)
            } else {
                (0.0, 1.0 - below)
            };
            assert!(close(
                d.probability(&ChallengeOutcome::SuccessWithConsequences),
                consequence
            ));
            assert!(close(d.probability(&ChallengeOutcome::Success), success));
            assert_eq!(d.tail(), 0.0, "the tail is folded into success");
            let scores = fluke.score_distribution().unwrap();
            for k in 0..40 {
                let want = streak_p(&law, k);
                assert!(
                    (scores.probability(&(k as i64)) - want).abs()
                        <= 1e-15 * want.max(1e-300) + 1e-18,
                    "score {k}"
                );
            }
        }
    }
}

#[test]
fn contest_matches_enumeration() {
    for a in Level::ALL {
        for b in Level::ALL {
            let contest = Contest::new(a.into(), b.into(), &Rules::default()).unwrap();
            let mut counts: BTreeMap<ContestOutcome, u32> = BTreeMap::new();
            let mut margins: BTreeMap<i64, u32> = BTreeMap::new();
            for f in all_faces(4) {
                let x = i32::from(f[0] + f[1]) + a.bonus();
                let y = i32::from(f[2] + f[3]) + b.bonus();
                *counts.entry(ContestOutcome::of(x, y)).or_default() += 1;
                *margins.entry(i64::from(x - y)).or_default() += 1;
            }
            let d = contest.distribution().unwrap();
            for o in [
                ContestOutcome::SecondWins,
                ContestOutcome::Tie,
                ContestOutcome::FirstWins,
            ] {
                let want = f64::from(counts.get(&o).copied().unwrap_or(0)) / 1296.0;
                assert!(close(d.probability(&o), want), "{a} vs {b}: {o}");
            }
            let m = contest.margin_distribution().unwrap();
            for (k, c) in margins {
                assert!(close(m.probability(&k), f64::from(c) / 1296.0));
            }
        }
    }
}

#[test]
fn contest_with_a_fluke_matches_enumeration() {
    // SB-A21 off by default; with the knob on, a fluke's score stands against 2d6 + bonus.
    let rules = Rules {
        fluke_in_contests: true,
        ..Rules::default()
    };
    let law = streak_law(&[4, 5, 6], 8);
    for b in Level::ALL {
        let contest = Contest::new(Contestant::unrated(), b.into(), &rules).unwrap();
        let d = contest.distribution().unwrap();
        let mut p = [0.0f64; 3]; // second wins, tie, first wins
        for f in all_faces(2) {
            let y = i64::from(f[0] + f[1]) + i64::from(b.bonus());
            for k in 0..60usize {
                let w = streak_p(&law, k) / 36.0;
                p[match (k as i64).cmp(&y) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 2,
                }] += w;
            }
        }
        assert!(
            close(d.probability(&ContestOutcome::SecondWins), p[0]),
            "{b}"
        );
        assert!(close(d.probability(&ContestOutcome::Tie), p[1]), "{b}");
        assert!((d.probability(&ContestOutcome::FirstWins) - p[2]).abs() <= 1e-13);
        assert!(close(d.total(), 1.0));
    }
}

fn attack_outcome(total: i32, needed: i32, reading: UndefendedHit) -> AttackOutcome {
    match reading {
        UndefendedHit::Challenge => ChallengeOutcome::of(total, needed).into(),
        UndefendedHit::AtLeast if total >= needed => AttackOutcome::Hit,
        UndefendedHit::Greater if total > needed => AttackOutcome::Hit,
        _ => AttackOutcome::Miss,
    }
}

#[test]
fn undefended_and_sneak_attacks_match_enumeration() {
    let sizes = [
        Size::Single(Level::VeryLow),
        Size::Single(Level::VeryHigh),
        Size::HeightWeight {
            height: Level::High,
            weight: Level::Low,
        },
    ];
    for reading in [
        UndefendedHit::Challenge,
        UndefendedHit::AtLeast,
        UndefendedHit::Greater,
    ] {
        let rules = Rules {
            undefended_hit: reading,
            ..Rules::default()
        };
        for level in Level::ALL {
            for armor in [Armor::Unarmored, Armor::Accustomed, Armor::Unaccustomed] {
                for size in sizes {
                    for surprise in [None, Some(Surprise::None), Some(Surprise::PlusTwo)] {
                        let attacker = Contestant::rated(level).wearing(armor).unwrap();
                        let attack = match surprise {
                            None => Attack::undefended(attacker, &size, &rules),
                            Some(s) => Attack::sneak(attacker, &size, s, &rules),
                        }
                        .unwrap();
                        let bonus =
                            level.bonus() + armor.penalty() + surprise.map_or(0, Surprise::bonus);
                        let needed = match size {
                            Size::Single(l) => l.target(),
                            Size::HeightWeight { height, weight } => {
                                height.target().min(weight.target())
                            }
                        };
                        let mut counts: BTreeMap<AttackOutcome, u32> = BTreeMap::new();
                        for f in all_faces(2) {
                            let total = i32::from(f[0] + f[1]) + bonus;
                            *counts
                                .entry(attack_outcome(total, needed, reading))
                                .or_default() += 1;
                        }
                        let d = attack.distribution().unwrap();
                        for o in [
                            AttackOutcome::Miss,
                            AttackOutcome::HitWithConsequences,
                            AttackOutcome::Hit,
                        ] {
                            let want = f64::from(counts.get(&o).copied().unwrap_or(0)) / 36.0;
                            assert!(close(d.probability(&o), want), "{attack}: {o}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn undefended_fluke_attack_matches_enumeration() {
    // Zitterbee's crossbow against a target's Size (SB-E5 is the same fluke against 7).
    let law = streak_law(&[4, 5, 6], 8);
    for size in Level::ALL {
        let t = size.target() as usize;
        let attack = Attack::undefended(
            Contestant::unrated(),
            &Size::Single(size),
            &Rules::default(),
        )
        .unwrap();
        let d = attack.distribution().unwrap();
        let miss: f64 = (0..t).map(|k| streak_p(&law, k)).sum();
        assert!(close(d.probability(&AttackOutcome::Miss), miss));
        assert!(close(
            d.probability(&AttackOutcome::HitWithConsequences),
            streak_p(&law, t)
        ));
        assert!(close(d.total(), 1.0));
    }
}

#[test]
fn defended_attacks_match_enumeration() {
    // L356–358: a hit when the attacker's score is equal to or higher than the defender's.
    for a in Level::ALL {
        for b in Level::ALL {
            for (ar, dr) in [
                (Armor::Unarmored, Armor::Unarmored),
                (Armor::Accustomed, Armor::Unaccustomed),
            ] {
                let attacker = Contestant::rated(a).wearing(ar).unwrap();
                let defender = Contestant::rated(b).wearing(dr).unwrap();
                let attack = Attack::defended(attacker, defender, &Rules::default()).unwrap();
                let hits = all_faces(4)
                    .filter(|f| {
                        i32::from(f[0] + f[1]) + a.bonus() + ar.penalty()
                            >= i32::from(f[2] + f[3]) + b.bonus() + dr.penalty()
                    })
                    .count();
                let d = attack.distribution().unwrap();
                assert!(close(
                    d.probability(&AttackOutcome::Hit),
                    hits as f64 / 1296.0
                ));
                assert!(close(
                    d.probability(&AttackOutcome::Miss),
                    (1296 - hits) as f64 / 1296.0
                ));
                assert_eq!(d.probability(&AttackOutcome::HitWithConsequences), 0.0);
            }
        }
    }
}

/// Faces a rule continues on, and its guaranteed points.
fn rule_parts(rule: DamageRule) -> Option<(Vec<u8>, u32, bool)> {
    match rule {
        DamageRule::NoEffect => None,
        DamageRule::Streak { base, continue_on } => {
            Some((continue_on.iter().map(|f| f as u8).collect(), base, false))
        }
        DamageRule::SingleRoll { on } => Some((on.iter().map(|f| f as u8).collect(), 0, true)),
    }
}

#[test]
fn damage_streaks_match_enumeration() {
    let powerful_armored = DamageRule::Streak {
        base: 0,
        continue_on: FaceSet::range(4, 6).unwrap(),
    };
    for punch in [PunchDamage::SingleRoll, PunchDamage::Streak] {
        let rules = Rules {
            punch_damage: punch,
            armored_really_powerful: Some(powerful_armored),
            ..Rules::default()
        };
        for class in WeaponClass::ALL {
            for armored in [false, true] {
                let damage = Damage::new(class, armored, &rules).unwrap();
                let d = damage.distribution().unwrap();
                match rule_parts(damage.rule()) {
                    None => assert_eq!(d.probability(&0), 1.0),
                    Some((set, base, true)) => {
                        // One die (L392): 1 point on a face of the set.
                        let hits = all_faces(1).filter(|f| set.contains(&f[0])).count();
                        assert!(close(d.probability(&1), hits as f64 / 6.0));
                        assert!(close(d.probability(&0), (6 - hits) as f64 / 6.0));
                        assert_eq!(base, 0);
                    }
                    Some((set, base, false)) => {
                        let law = streak_law(&set, 6);
                        for k in 0..30usize {
                            let want = streak_p(&law, k);
                            let got = d.probability(&(base + k as u32));
                            if got == 0.0 {
                                // Beyond the listed part: carried in the tail (≤ 1e-15).
                                assert!(want <= d.tail() && d.tail() <= 1e-15);
                                continue;
                            }
                            assert!(
                                (got - want).abs() <= 1e-14 * want.max(1e-300) + 1e-17,
                                "{class} armored={armored}: {k} ({got} vs {want})"
                            );
                        }
                        assert_eq!(d.probability(&(base.wrapping_sub(1))), 0.0);
                    }
                }
            }
        }
    }
}

#[test]
fn expected_damage_of_the_digest() {
    // SB-R19: a streak on a set of s faces has mean p/(1 − p) with p = s/6 (geometric law);
    // here p is counted from the faces, and the means come from dice-core's laws.
    let rules = Rules::default();
    let cases = [
        (WeaponClass::Small, false),
        (WeaponClass::Large, false),
        (WeaponClass::ReallyPowerful, false),
        (WeaponClass::Small, true),
        (WeaponClass::Large, true),
    ];
    for (class, armored) in cases {
        let damage = Damage::new(class, armored, &rules).unwrap();
        let Some((set, base, false)) = rule_parts(damage.rule()) else {
            panic!("a streak")
        };
        let p = all_faces(1).filter(|f| set.contains(&f[0])).count() as f64 / 6.0;
        let mean = f64::from(base) + p / (1.0 - p);
        let d = damage.distribution().unwrap();
        assert!((d.mean() - mean).abs() < 1e-12, "{class} armored={armored}");
    }
    // Punch: one die (1/6) by the ruling, a streak of 6s (1/5) with the other reading.
    let single = Damage::new(WeaponClass::PunchOrKick, false, &rules).unwrap();
    assert!((single.distribution().unwrap().mean() - 1.0 / 6.0).abs() < 1e-15);
    let streak = Damage::new(
        WeaponClass::PunchOrKick,
        false,
        &Rules {
            punch_damage: PunchDamage::Streak,
            ..rules
        },
    )
    .unwrap();
    assert!((streak.distribution().unwrap().mean() - 0.2).abs() < 1e-12);
}

#[test]
fn attempt_laws() {
    let rules = Rules::default();
    let auto = Attempt::new(
        Rating::Rated(Level::High),
        Level::Low,
        Stakes::Routine,
        &rules,
    )
    .unwrap();
    assert_eq!(
        auto.distribution()
            .unwrap()
            .probability(&ChallengeOutcome::Success),
        1.0
    );
    let rolled = Attempt::new(
        Rating::Rated(Level::High),
        Level::Low,
        Stakes::Important,
        &rules,
    )
    .unwrap();
    let c = challenge_counts(Level::High.bonus(), Level::Low.target());
    assert!(close(
        rolled
            .distribution()
            .unwrap()
            .probability(&ChallengeOutcome::Success),
        f64::from(c[2]) / 36.0
    ));
}

#[test]
fn initiative_orders_are_uniform_within_fitness_groups() {
    let tie = dice_core::Sum::new(
        dice_core::Pool::new(2, dice_core::Die::D6).unwrap(),
        dice_core::Keep::All,
        0,
    )
    .unwrap();
    let fitness = vec![
        Level::Low,
        Level::High,
        Level::High,
        Level::Low,
        Level::High,
    ];
    let init = Initiative::new(fitness.clone(), tie).unwrap();
    let d = init.distribution().unwrap();
    // 3! orders of the High fighters times 2! of the Low ones.
    assert_eq!(d.len(), 6 * 2);
    for (order, p) in d.iter() {
        assert!(close(p, 1.0 / 12.0));
        let levels: Vec<Level> = order.iter().map(|i| fitness[i]).collect();
        assert!(levels.windows(2).all(|w| w[0] >= w[1]), "{order}");
    }
    assert!(d.probability(&TurnOrder::new(vec![2, 1, 4, 3, 0])) > 0.0);
}
