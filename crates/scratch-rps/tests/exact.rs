//! Exact laws against brute-force enumeration written here: every d20 face (or every
//! combination of faces) is listed, each equally likely, and the rule is applied to it
//! directly from the rulebook text. No probability is typed in.

use std::collections::BTreeMap;

use dice_core::{Exact, Versus};
use dice_scratch_rps::{
    Ability, Attack, AttackKind, AttackResult, Attacks, D20Roll, Health, Initiative,
    InitiativeContest, Outcome, Rules, ShootingCrit, Side,
};

const TOL: f64 = 1e-12;

/// L15 written out: a natural 20 succeeds automatically; otherwise total ≥ difficulty.
fn rule_of_l15(natural: u32, added: i64, difficulty: i64) -> Outcome {
    if natural == 20 {
        Outcome::AutomaticSuccess
    } else if i64::from(natural) + added >= difficulty {
        Outcome::Success
    } else {
        Outcome::Failure
    }
}

/// The law of `f(face)` for a fair d20, by counting faces.
fn enumerate<T: Ord>(f: impl Fn(u32) -> T) -> BTreeMap<T, f64> {
    let mut m = BTreeMap::new();
    for n in 1..=20 {
        *m.entry(f(n)).or_insert(0.0) += 1.0 / 20.0;
    }
    m
}

fn same<T: Ord + Clone + std::fmt::Debug>(d: &dice_core::Dist<T>, expected: &BTreeMap<T, f64>) {
    assert!((d.total() - 1.0).abs() < TOL);
    for (o, p) in d.iter() {
        let e = expected.get(o).copied().unwrap_or(0.0);
        assert!((p - e).abs() < TOL, "{o:?}: {p} vs {e}");
    }
    for (o, &e) in expected {
        assert!((d.probability(o) - e).abs() < TOL, "{o:?}");
    }
}

#[test]
fn d20_rolls_match_enumeration() {
    for level in 0..=8u32 {
        for modifier in -4..=4i64 {
            for difficulty in -5..=35i64 {
                let r = D20Roll::ability(level, difficulty)
                    .unwrap()
                    .with_modifier(modifier)
                    .unwrap();
                let expected = enumerate(|n| {
                    if level == 0 {
                        Outcome::Failure // L17: cannot succeed without the ability (SC-A6)
                    } else {
                        rule_of_l15(n, i64::from(level) + modifier, difficulty)
                    }
                });
                same(&r.distribution().unwrap(), &expected);
                let success: f64 = expected
                    .iter()
                    .filter(|(o, _)| o.is_success())
                    .map(|(_, p)| p)
                    .sum();
                assert!((r.success_chance() - success).abs() < TOL);
                for n in 1..=20 {
                    let want = if level == 0 {
                        Outcome::Failure
                    } else {
                        rule_of_l15(n, i64::from(level) + modifier, difficulty)
                    };
                    assert_eq!(r.resolve(n).unwrap(), want);
                }
            }
        }
    }
}

#[test]
fn non_ability_rolls_match_enumeration() {
    for modifier in -4..=4i64 {
        for difficulty in -5..=35i64 {
            let r = D20Roll::non_ability(difficulty)
                .unwrap()
                .with_modifier(modifier)
                .unwrap();
            let expected = enumerate(|n| rule_of_l15(n, modifier, difficulty));
            same(&r.distribution().unwrap(), &expected);
        }
    }
}

#[test]
fn natural_20_without_the_ability_knob() {
    // SC-A6's other reading: only a natural 20 succeeds.
    let rules = Rules {
        natural_20_without_ability: true,
        ..Rules::default()
    };
    for difficulty in [1, 10, 25] {
        let r = D20Roll::ability(0, difficulty).unwrap().with_rules(&rules);
        let expected = enumerate(|n| {
            if n == 20 {
                Outcome::AutomaticSuccess
            } else {
                Outcome::Failure
            }
        });
        same(&r.distribution().unwrap(), &expected);
    }
}

#[test]
fn digest_formula_for_ability_rolls() {
    // SC-R2: P(success) = clamp(21 − difficulty + m, 1, 20) / 20, checked against counting.
    for m in 1..=10i64 {
        for d in -10..=40i64 {
            let count = (1..=20)
                .filter(|&n| rule_of_l15(n, m, d).is_success())
                .count() as f64;
            let formula = (21 - d + m).clamp(1, 20) as f64 / 20.0;
            assert!((count / 20.0 - formula).abs() < TOL);
            let r = D20Roll::ability(m as u32, d).unwrap();
            assert!((r.success_chance() - formula).abs() < TOL);
        }
    }
}

#[test]
fn d20_roll_agrees_with_dice_core_versus_target() {
    // The dice-core form gives P(total ≥ difficulty); the natural 20 adds the faces that
    // reach 20 yet fall short.
    for level in 1..=5u32 {
        for difficulty in 5..=30i64 {
            let r = D20Roll::ability(level, difficulty).unwrap();
            let v = r.check().unwrap().distribution().unwrap();
            let reach = v.probability(&Versus::Equal) + v.probability(&Versus::Above);
            let short_20 = if 20 + i64::from(level) < difficulty {
                1.0 / 20.0
            } else {
                0.0
            };
            assert!((r.success_chance() - (reach + short_20)).abs() < TOL);
        }
    }
}

/// L37, L43–L51, L75–L79 written out: the damage of an attack for a die.
fn damage_rule(kind: AttackKind, attacker: Health, crit: ShootingCrit, outcome: Outcome) -> u32 {
    let base = match kind {
        AttackKind::BasicAttack | AttackKind::ThrowObject | AttackKind::Blasting => 1,
        AttackKind::Shooting => 2,
        AttackKind::Knockout => {
            if attacker == Health::Healthy {
                4
            } else {
                2
            }
        }
        AttackKind::Hold | AttackKind::Catch => 0,
    };
    match outcome {
        Outcome::Failure => 0,
        Outcome::Success => base,
        Outcome::AutomaticSuccess => match (kind, crit) {
            (AttackKind::Shooting, ShootingCrit::Override5) => 5,
            _ if base == 0 => 0,
            _ => base + 1,
        },
    }
}

fn ability_for(kind: AttackKind) -> Option<Ability> {
    match kind {
        AttackKind::Shooting => Some(Ability::Shooting),
        AttackKind::Blasting => Some(Ability::Blasting),
        AttackKind::Knockout => Some(Ability::Knockout),
        _ => None,
    }
}

#[test]
fn attacks_match_enumeration() {
    for crit in [ShootingCrit::Override5, ShootingCrit::GeneralPlusOne] {
        let rules = Rules {
            shooting_crit: crit,
            ..Rules::default()
        };
        for kind in AttackKind::ALL {
            for attacker in [Health::Healthy, Health::Injured] {
                for level in 1..=5u32 {
                    for difficulty in 8..=27i64 {
                        let with = ability_for(kind).map(|a| (a, level));
                        let added = if with.is_some() { i64::from(level) } else { 0 };
                        let a = Attack::new(kind, with, difficulty, &rules)
                            .unwrap()
                            .with_attacker(attacker)
                            .unwrap();
                        let expected = enumerate(|n| {
                            let outcome = rule_of_l15(n, added, difficulty);
                            AttackResult {
                                outcome,
                                damage: damage_rule(kind, attacker, crit, outcome),
                            }
                        });
                        same(&a.distribution().unwrap(), &expected);
                        let damage = enumerate(|n| {
                            damage_rule(kind, attacker, crit, rule_of_l15(n, added, difficulty))
                        });
                        same(&a.damage_distribution().unwrap(), &damage);
                        let hit: f64 = expected
                            .iter()
                            .filter(|(r, _)| r.outcome.is_success())
                            .map(|(_, p)| p)
                            .sum();
                        assert!((a.hit_chance() - hit).abs() < TOL);
                        let mean: f64 = damage.iter().map(|(d, p)| f64::from(*d) * p).sum();
                        assert!((a.expected_damage() - mean).abs() < TOL);
                        assert!((a.damage_distribution().unwrap().mean() - mean).abs() < TOL);
                    }
                }
            }
        }
    }
}

#[test]
fn attack_series_match_enumeration() {
    let rules = Rules::default();
    let fighting = |d| {
        Attack::new(
            AttackKind::BasicAttack,
            Some((Ability::Fighting, 3)),
            d,
            &rules,
        )
        .unwrap()
    };
    let shot = Attack::new(
        AttackKind::Shooting,
        Some((Ability::Shooting, 2)),
        14,
        &rules,
    )
    .unwrap();
    let blast = |d| {
        Attack::new(
            AttackKind::Blasting,
            Some((Ability::Blasting, 4)),
            d,
            &rules,
        )
        .unwrap()
    };
    let cases = vec![
        vec![fighting(13), fighting(13)],
        vec![fighting(11), shot.clone()],
        vec![blast(11), blast(13), blast(16)],
        vec![shot],
    ];
    for attacks in cases {
        let series = Attacks::new(attacks.clone()).unwrap();
        let mut expected = BTreeMap::new();
        let k = attacks.len() as u32;
        for code in 0..20u32.pow(k) {
            let mut c = code;
            let mut total = 0;
            for a in &attacks {
                total += a.resolve(c % 20 + 1).unwrap().damage;
                c /= 20;
            }
            *expected.entry(total).or_insert(0.0) += 1.0 / f64::from(20u32.pow(k));
        }
        same(&series.distribution().unwrap(), &expected);
    }
}

#[test]
fn initiative_matches_enumeration() {
    for stalking in 0..=5u32 {
        let init = Initiative::new(stalking).unwrap();
        let expected = enumerate(|n| n + 10 * stalking);
        same(&init.distribution().unwrap(), &expected);
    }
}

#[test]
fn initiative_contest_matches_enumeration() {
    // The roll-off, enumerated: of the 400 pairs of faces, the 20 ties roll again, so A wins
    // the roll-off with probability (A's higher pairs) / (unequal pairs).
    let higher = (1..=20u32)
        .flat_map(|x| (1..=20u32).map(move |y| (x, y)))
        .filter(|(x, y)| x > y)
        .count() as f64;
    let unequal = (1..=20u32)
        .flat_map(|x| (1..=20u32).map(move |y| (x, y)))
        .filter(|(x, y)| x != y)
        .count() as f64;
    let roll_off = higher / unequal;
    for sa in 0..=3u32 {
        for sb in 0..=3u32 {
            let mut p_a = 0.0;
            for x in 1..=20u32 {
                for y in 1..=20u32 {
                    let (ta, tb) = (x + 10 * sa, y + 10 * sb);
                    p_a += if ta > tb {
                        1.0
                    } else if ta == tb {
                        roll_off
                    } else {
                        0.0
                    } / 400.0;
                }
            }
            let c =
                InitiativeContest::new(Initiative::new(sa).unwrap(), Initiative::new(sb).unwrap());
            let d = c.distribution().unwrap();
            assert!((d.probability(&Side::A) - p_a).abs() < TOL);
            assert!((d.probability(&Side::B) - (1.0 - p_a)).abs() < TOL);
            assert!((c.first_chance() - p_a).abs() < TOL);
        }
    }
}
