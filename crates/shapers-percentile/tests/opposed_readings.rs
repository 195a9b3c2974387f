//! The two readings of an opposed attack (PC-A3, `OpposedResolution`), each against an
//! enumeration of both d100s, and the monotonicity each one has.
//!
//! The rulebook lines behind them (`seeds/shapers-percentile-combat.txt`):
//!
//! - L18: "the base difficulty of any attack in melee or at range is Average (TN 50)";
//! - L20: "Most melee attacks will be Opposed Rolls, so decide which Attribute + Aptitude is
//!   relevant for the defender and make a roll for them.";
//! - L26 (the optional passive defence, which stands in for the defender's roll, L24): "if the
//!   attacker succeeded by 15 points, but the defender's Attribute + Aptitude is 20, the net
//!   result is -5 which turns that success into a failure! If the attacker had instead failed
//!   by -15 points, the defender's Attribute + Aptitude would turn it into an even worse
//!   failure of -35 points!"
//!
//! The oracles never call the crate's resolution: each writes the reading out from those
//! lines (TN = 50 + X, roll under, margin = TN − roll; +1 per 10 points, L71; the
//! counter-attack at a loss of 30, L28) and enumerates all 10,000 pairs of faces.

use crate::common;
use common::{assert_law, enumerate};

use dice_core::Exact;
use dice_shapers_percentile::{
    Attack, AttackKind, AttackOutcome, CounterAttackBasis, Defence, OpposedResolution,
    OpposedResult, OpposedTest, OpposedTie, PctMode, Rules, Side, Test,
};

/// The rules with this reading of PC-A3 and this tie rule.
fn with(opposed: OpposedResolution, opposed_tie: OpposedTie) -> Rules {
    Rules {
        opposed,
        opposed_tie,
        ..Rules::default()
    }
}

/// A test of this TN (attribute = TN − 50).
fn tn(t: i32, rules: &Rules) -> Test {
    Test::new(t - 50, 0, 0, rules).unwrap()
}

/// L18 with PC-A1 (a), PC-A2: margin = TN − roll; PC-A1 (c): roll + X − 50.
fn margin(mode: PctMode, tn: i32, roll: u32) -> i32 {
    match mode {
        PctMode::RollUnder50Base => tn - roll as i32,
        PctMode::RollOver50 => roll as i32 + (tn - 50) - 50,
    }
}

/// L71: +1 per full 10 points.
fn per_ten(points: i32) -> u32 {
    if points < 0 { 0 } else { (points / 10) as u32 }
}

/// Whether the attacker wins, written out for each reading.
///
/// - `HigherMargin`: the higher margin wins, whatever the two tests did; a tie goes as `tie`
///   says.
/// - `SuccessFirst`: the attack must itself succeed (L18: it has a difficulty); a success
///   beats a failed defence; two successes are compared by margin, a tie as `tie` says. A
///   failed attack never wins (L26: the defence only ever makes the attack's result worse).
fn attacker_wins(reading: OpposedResolution, tie: OpposedTie, ma: i32, md: i32) -> bool {
    let by_margin = ma > md || (ma == md && tie == OpposedTie::Attacker);
    match reading {
        OpposedResolution::HigherMargin => by_margin,
        OpposedResolution::SuccessFirst => ma >= 0 && (md < 0 || by_margin),
    }
}

/// The opposed test's result for faces `a` and `d`.
fn opposed_oracle(
    reading: OpposedResolution,
    tie: OpposedTie,
    mode: PctMode,
    (ta, td): (i32, i32),
    a: u32,
    d: u32,
) -> OpposedResult {
    let (ma, md) = (margin(mode, ta, a), margin(mode, td, d));
    OpposedResult {
        net: ma - md,
        winner: if attacker_wins(reading, tie, ma, md) {
            Side::Attacker
        } else {
            Side::Defender
        },
    }
}

/// An opposed melee attack: a win hits with the net's tens (PC-A5), a loss by 30 or more is
/// a counter-attack with the loss's tens (L28, PC-A4 (a)), anything else a miss.
fn attack_oracle(
    reading: OpposedResolution,
    tie: OpposedTie,
    mode: PctMode,
    tns: (i32, i32),
    a: u32,
    d: u32,
) -> AttackOutcome {
    let r = opposed_oracle(reading, tie, mode, tns, a, d);
    if r.winner == Side::Attacker {
        AttackOutcome::Hit {
            bonus: per_ten(r.net),
        }
    } else if -r.net >= 30 {
        AttackOutcome::CounterAttack {
            bonus: per_ten(-r.net),
        }
    } else {
        AttackOutcome::Miss
    }
}

const READINGS: [OpposedResolution; 2] = [
    OpposedResolution::HigherMargin,
    OpposedResolution::SuccessFirst,
];
const TIES: [OpposedTie; 2] = [OpposedTie::Defender, OpposedTie::Attacker];

/// TN pairs: the audit's two cases, equal TNs, lopsided ones and TNs beyond 1..=100.
const PAIRS: [(i32, i32); 9] = [
    (10, 10),
    (65, 30),
    (30, 65),
    (50, 50),
    (90, 20),
    (20, 90),
    (-5, 40),
    (110, 60),
    (65, 65),
];

/// P(event) over all pairs of faces, by enumeration.
fn p_pairs(mut event: impl FnMut(u32, u32) -> bool) -> f64 {
    enumerate(&[100, 100], |f| event(f[0], f[1]))
        .get(&true)
        .copied()
        .unwrap_or(0.0)
}

fn opposed_attack(ta: i32, td: i32, rules: &Rules) -> Attack {
    Attack::new(
        tn(ta, rules),
        Defence::Opposed(tn(td, rules)),
        AttackKind::Melee,
        rules,
    )
    .unwrap()
}

fn p_hit(attack: &Attack) -> f64 {
    attack
        .distribution()
        .unwrap()
        .probability_where(|o| o.is_hit())
}

// ------------------------------------------------------------------ the exact laws

#[test]
fn each_reading_has_its_exact_law() {
    for reading in READINGS {
        for tie in TIES {
            for mode in [PctMode::RollUnder50Base, PctMode::RollOver50] {
                let rules = Rules {
                    mode,
                    ..with(reading, tie)
                };
                for (ta, td) in PAIRS {
                    let what = format!("{reading:?} {tie:?} {mode:?} TN {ta} vs {td}");
                    let o = OpposedTest::new(tn(ta, &rules), tn(td, &rules), &rules);
                    let exact = enumerate(&[100, 100], |f| {
                        opposed_oracle(reading, tie, mode, (ta, td), f[0], f[1])
                    });
                    assert_law(&what, &o.distribution().unwrap(), &exact);
                    let exact = enumerate(&[100, 100], |f| {
                        attack_oracle(reading, tie, mode, (ta, td), f[0], f[1])
                    });
                    assert_law(
                        &what,
                        &opposed_attack(ta, td, &rules).distribution().unwrap(),
                        &exact,
                    );
                }
            }
        }
    }
}

#[test]
fn the_pure_form_agrees_with_the_oracle_on_every_pair_of_faces() {
    for reading in READINGS {
        for tie in TIES {
            let rules = with(reading, tie);
            for (ta, td) in PAIRS {
                let attack = opposed_attack(ta, td, &rules);
                let mode = PctMode::RollUnder50Base;
                for a in 1..=100u8 {
                    for d in 1..=100u8 {
                        let want = attack_oracle(reading, tie, mode, (ta, td), a.into(), d.into());
                        assert_eq!(
                            attack.resolve(&[a, d]).unwrap().outcome,
                            want,
                            "{reading:?} {tie:?} TN {ta} vs {td}, faces {a} and {d}"
                        );
                    }
                }
            }
        }
    }
}

// ------------------------------------------------------------------ the audit's cases

#[test]
fn the_default_reading_is_success_first() {
    // L18 gives every attack a difficulty and L26 shows a defence only ever making the
    // attack's result worse ("an even worse failure"): a failed attack does not hit.
    assert_eq!(Rules::default().opposed, OpposedResolution::SuccessFirst);
    assert_eq!(
        OpposedResolution::default(),
        OpposedResolution::SuccessFirst
    );
}

#[test]
fn a_rolling_defender_never_raises_the_chance_to_hit_under_success_first() {
    // Two TN 10 fighters (L18: "base difficulty ... Average (TN 50)", here 40 below it).
    let unopposed_p = enumerate(&[100], |f| margin(PctMode::RollUnder50Base, 10, f[0]) >= 0)[&true];
    let sf = with(OpposedResolution::SuccessFirst, OpposedTie::Defender);
    let unopposed = Attack::new(tn(10, &sf), Defence::Unopposed, AttackKind::Melee, &sf).unwrap();
    assert!((p_hit(&unopposed) - unopposed_p).abs() < 1e-12);
    let oracle = |reading| {
        p_pairs(|a, d| {
            attacker_wins(
                reading,
                OpposedTie::Defender,
                margin(PctMode::RollUnder50Base, 10, a),
                margin(PctMode::RollUnder50Base, 10, d),
            )
        })
    };
    let opposed = p_hit(&opposed_attack(10, 10, &sf));
    assert!((opposed - oracle(OpposedResolution::SuccessFirst)).abs() < 1e-12);
    assert!(opposed <= unopposed_p);
    // The other reading, kept as a knob: the defender's roll lifts the attacker from 10 %
    // to (1 − P(tie)) / 2.
    let hm = with(OpposedResolution::HigherMargin, OpposedTie::Defender);
    let opposed = p_hit(&opposed_attack(10, 10, &hm));
    assert!((opposed - oracle(OpposedResolution::HigherMargin)).abs() < 1e-12);
    assert!(opposed > unopposed_p);
}

#[test]
fn under_success_first_a_failed_attack_never_hits() {
    for tie in TIES {
        let sf = with(OpposedResolution::SuccessFirst, tie);
        for (ta, td) in PAIRS {
            let attack = opposed_attack(ta, td, &sf);
            for a in 1..=100u8 {
                for d in 1..=100u8 {
                    let e = attack.resolve(&[a, d]).unwrap();
                    assert!(
                        e.attacker.is_success() || !e.outcome.is_hit(),
                        "TN {ta} vs {td}: faces {a}, {d} fail the attack yet hit"
                    );
                }
            }
        }
    }
    // P(hit | attack roll failed) for TN 65 against TN 30, from the joint law: 0 under
    // success-first, P(roll > 65 and 65 − roll > 30 − defender's roll) / P(roll > 65) under
    // higher-margin.
    let failed_and_hit = |rules: &Rules| {
        let a = tn(65, rules);
        let d = tn(30, rules);
        let joint = a.distribution().unwrap().joint(&d.distribution().unwrap());
        let attack = opposed_attack(65, 30, rules);
        joint.probability_where(|(x, y)| {
            !x.is_success() && attack.resolve(&[x.roll, y.roll]).unwrap().outcome.is_hit()
        })
    };
    let p_failed = 1.0 - tn(65, &Rules::default()).success_probability();
    let sf = with(OpposedResolution::SuccessFirst, OpposedTie::Defender);
    assert_eq!(failed_and_hit(&sf) / p_failed, 0.0);
    let hm = with(OpposedResolution::HigherMargin, OpposedTie::Defender);
    let want = p_pairs(|a, d| a > 65 && 65 - a as i32 > 30 - d as i32);
    assert!((failed_and_hit(&hm) - want).abs() < 1e-12);
    assert!(want > 0.0);
}

#[test]
fn the_readings_differ_only_when_both_tests_fail() {
    // A success always has the higher margin over a failure, so the readings can only part
    // where both fail: there higher-margin lets the less bad failure hit, success-first
    // calls it a miss. Counter-attacks need the attacker to be outscored (L28: "loses by 30
    // points or more"), which no reading changes: their law is the same under both, for
    // either measure of the loss (PC-A4).
    for basis in [
        CounterAttackBasis::MarginDifference,
        CounterAttackBasis::OwnFailure,
    ] {
        for tie in TIES {
            let hm = Rules {
                counter_attack: basis,
                ..with(OpposedResolution::HigherMargin, tie)
            };
            let sf = Rules {
                counter_attack: basis,
                ..with(OpposedResolution::SuccessFirst, tie)
            };
            for (ta, td) in PAIRS {
                let (x, y) = (opposed_attack(ta, td, &hm), opposed_attack(ta, td, &sf));
                for a in 1..=100u8 {
                    for d in 1..=100u8 {
                        let (ex, ey) = (x.resolve(&[a, d]).unwrap(), y.resolve(&[a, d]).unwrap());
                        if ex.outcome != ey.outcome {
                            let what = format!("{basis:?} {tie:?} TN {ta} vs {td}: {a}, {d}");
                            assert!(!ex.attacker.is_success(), "{what}");
                            assert!(!ex.defender.unwrap().is_success(), "{what}");
                            assert!(ex.outcome.is_hit(), "{what}");
                            assert_eq!(ey.outcome, AttackOutcome::Miss, "{what}");
                        }
                        assert_eq!(ex.net, ey.net);
                    }
                }
                let counter =
                    |a: &Attack| {
                        dice_testkit::as_map(&a.distribution().unwrap().map(|o| {
                            matches!(o, AttackOutcome::CounterAttack { .. }).then_some(*o)
                        }))
                    };
                dice_testkit::same(&counter(&x), &counter(&y), 1e-12);
            }
        }
    }
}

#[test]
fn a_counter_attack_needs_the_defender_to_outscore_the_attacker() {
    // L28: "if the attacker loses by 30 points or more, then they have left themselves
    // exposed to a counter-attack. The defender automatically hits". Under the own-failure
    // measure (PC-A4 (b)) an attacker failing by 30 against a defender failing by 31 has
    // failed by 30, but was not outscored: the attack misses, nobody is exposed.
    let rules = Rules {
        counter_attack: CounterAttackBasis::OwnFailure,
        ..Rules::default()
    };
    let attack = opposed_attack(-12, 50, &rules);
    let e = attack.resolve(&[18, 81]).unwrap();
    assert_eq!((e.attacker.margin, e.defender.unwrap().margin), (-30, -31));
    assert_eq!(e.outcome, AttackOutcome::Miss);
    // Outscored by the defender's 81 → 79 (−29): failing by 30 now opens the counter-attack.
    let e = attack.resolve(&[18, 79]).unwrap();
    assert_eq!(e.outcome, AttackOutcome::CounterAttack { bonus: 3 });
}

// ------------------------------------------------------------------ monotonicity

/// TNs from below 1 to above 100.
const GRID: [i32; 13] = [-10, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110];

#[test]
fn whatever_the_reading_the_chance_to_hit_rises_with_the_attackers_tn_and_falls_with_the_defenders()
{
    // L66: "your chances of hitting your opponent go up. Increase the TN by +10": a higher
    // attacker TN never lowers P(hit); a higher defender TN never raises it.
    for reading in READINGS {
        for tie in TIES {
            let rules = with(reading, tie);
            let table: Vec<Vec<f64>> = GRID
                .iter()
                .map(|&ta| {
                    GRID.iter()
                        .map(|&td| p_hit(&opposed_attack(ta, td, &rules)))
                        .collect()
                })
                .collect();
            for i in 0..GRID.len() {
                for j in 0..GRID.len() {
                    if i + 1 < GRID.len() {
                        assert!(
                            table[i + 1][j] >= table[i][j] - 1e-12,
                            "{reading:?} {i} {j}"
                        );
                    }
                    if j + 1 < GRID.len() {
                        assert!(
                            table[i][j + 1] <= table[i][j] + 1e-12,
                            "{reading:?} {i} {j}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn whatever_the_reading_a_better_roll_never_turns_a_hit_into_a_miss() {
    // Face by face: if the attacker hits with faces (a, d), a lower attacker roll or a higher
    // defender roll (a larger attacker margin or a smaller defender margin) also hits.
    for reading in READINGS {
        for tie in TIES {
            let rules = with(reading, tie);
            for (ta, td) in PAIRS {
                let attack = opposed_attack(ta, td, &rules);
                let hit = |a: u8, d: u8| attack.resolve(&[a, d]).unwrap().outcome.is_hit();
                for a in 1..=100u8 {
                    for d in 1..=100u8 {
                        if hit(a, d) {
                            if a > 1 {
                                assert!(hit(a - 1, d), "{reading:?} TN {ta} vs {td}: {a}, {d}");
                            }
                            if d < 100 {
                                assert!(hit(a, d + 1), "{reading:?} TN {ta} vs {td}: {a}, {d}");
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn only_success_first_keeps_a_defence_roll_from_helping_the_attacker() {
    // Success-first: for every defender, P(hit) ≤ P(the attack's own test succeeds), the
    // chance of the same attack unopposed, as L26 has it for the passive defence.
    // Higher-margin: no such bound (a weak enough defender makes a TN 10 attacker a
    // near-certain hitter).
    let sf = with(OpposedResolution::SuccessFirst, OpposedTie::Defender);
    let hm = with(OpposedResolution::HigherMargin, OpposedTie::Defender);
    let mut broken = 0;
    for &ta in &GRID {
        let alone = tn(ta, &sf).success_probability();
        for &td in &GRID {
            assert!(
                p_hit(&opposed_attack(ta, td, &sf)) <= alone + 1e-12,
                "{ta} vs {td}"
            );
            if p_hit(&opposed_attack(ta, td, &hm)) > alone + 1e-12 {
                broken += 1;
            }
        }
    }
    assert!(broken > 0);
}
