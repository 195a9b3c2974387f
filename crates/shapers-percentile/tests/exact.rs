//! Exact odds against brute-force enumeration written out here, and against 100,000 seeded
//! rolls (every outcome within 5 standard errors; outcomes expected fewer than 50 times
//! lumped into one bucket).
//!
//! The oracles never call the crate's resolution: each writes the rule out again from the
//! rulebook line (TN = 50 + X, roll under, margin = TN − roll; the counter-attack at a loss
//! of 30; the hit-location chart's ranges) and enumerates every face of every die, counting
//! with integer weights.

use crate::common;
use common::{assert_law, check_rolls, enumerate, rng};

use std::collections::BTreeMap;

use dice_core::{Exact, Roll, RollDetailed};
use dice_shapers_percentile::{
    Aim, Attack, AttackKind, AttackOutcome, Damage, Defence, HitLocation, Initiative, Location,
    OpposedResult, OpposedTest, Order, PctMode, Rules, Side, Test, TestResult, TurnOrder,
};

fn rules() -> Rules {
    Rules::default()
}

/// The bonuses (attribute + aptitude + modifiers) the tests sweep: TNs from −10 to 130.
const BONUSES: [i32; 9] = [-60, -35, -12, 0, 7, 23, 49, 50, 80];

// ------------------------------------------------------------------ the oracles

/// L18 with PC-A1 (a), PC-A2 written out: TN = 50 + X, margin = TN − roll.
fn margin_under(x: i32, roll: u32) -> i32 {
    50 + x - roll as i32
}

/// PC-A1 (c): margin = roll + X − 50.
fn margin_over(x: i32, roll: u32) -> i32 {
    roll as i32 + x - 50
}

/// L71: +1 per full 10 points of success.
fn per_ten(points: i32) -> u32 {
    if points < 0 { 0 } else { (points / 10) as u32 }
}

/// The default rulings for an opposed test, written out: the attacker wins only with a
/// successful test that meets a failed defence or has the higher margin (ties to the
/// defender; PC-A3).
fn attacker_wins(ma: i32, md: i32) -> bool {
    ma >= 0 && (md < 0 || ma > md)
}

/// The default rulings for an opposed melee attack, written out: a win gives the net's tens,
/// a loss by 30 or more a counter-attack with the loss's tens.
fn opposed_melee_oracle(xa: i32, xd: i32, a: u32, d: u32) -> AttackOutcome {
    let (ma, md) = (margin_under(xa, a), margin_under(xd, d));
    let net = ma - md;
    if attacker_wins(ma, md) {
        AttackOutcome::Hit {
            bonus: per_ten(net),
        }
    } else if -net >= 30 {
        AttackOutcome::CounterAttack {
            bonus: per_ten(-net),
        }
    } else {
        AttackOutcome::Miss
    }
}

/// L80–85 typed as ranges: "01 – 10 Head … 86 – 00 Right Leg".
fn chart(roll: u32) -> Location {
    if roll <= 10 {
        Location::Head
    } else if roll <= 25 {
        Location::LeftArm
    } else if roll <= 40 {
        Location::RightArm
    } else if roll <= 70 {
        Location::Body
    } else if roll <= 85 {
        Location::LeftLeg
    } else {
        Location::RightLeg
    }
}

// ------------------------------------------------------------------ the d100 test

#[test]
fn test_law_against_enumeration() {
    for mode in [PctMode::RollUnder50Base, PctMode::RollOver50] {
        let r = Rules { mode, ..rules() };
        for x in BONUSES {
            // Split X over attribute, aptitude and modifier: only the sum matters.
            let t = Test::new(x / 2, x / 3, x - x / 2 - x / 3, &r).unwrap();
            let margin = |roll: u32| match mode {
                PctMode::RollUnder50Base => margin_under(x, roll),
                PctMode::RollOver50 => margin_over(x, roll),
            };
            let exact = enumerate(&[100], |f| TestResult {
                margin: margin(f[0]),
                roll: f[0] as u8,
            });
            assert_law(
                &format!("{mode:?} X={x}"),
                &t.distribution().unwrap(),
                &exact,
            );
            let margins = enumerate(&[100], |f| margin(f[0]));
            assert_law("margins", &t.margin_distribution(), &margins);
            let successes = enumerate(&[100], |f| margin(f[0]) >= 0);
            let p = successes.get(&true).copied().unwrap_or(0.0);
            assert!(
                (t.success_probability() - p).abs() <= 1e-15,
                "{mode:?} X={x}"
            );
            let law_p = t
                .distribution()
                .unwrap()
                .probability_where(|r| r.is_success());
            assert!((law_p - p).abs() <= 1e-12);
        }
    }
}

#[test]
fn test_rolls_match_the_law() {
    for (seed, x) in [(1, 15), (2, -30), (3, 45)] {
        let t = Test::new(x, 0, 0, &rules()).unwrap();
        let law = t.distribution().unwrap();
        let mut g = rng(seed);
        check_rolls(&format!("test X={x}"), &law, || t.roll(&mut g));
        let success = law.map(|r| r.is_success());
        let mut g = rng(seed + 100);
        check_rolls("success", &success, || t.roll(&mut g).is_success());
        // The record path rolls the same thing.
        let mut g = rng(seed + 200);
        let margins = t.margin_distribution().map(|&m| i64::from(m));
        check_rolls("record", &margins, || t.roll_record(&mut g).total);
    }
}

// ------------------------------------------------------------------ opposed tests

#[test]
fn opposed_law_against_enumeration() {
    for (xa, xd) in [(15, 15), (20, -5), (-30, 40), (55, 10), (0, 70)] {
        let o = OpposedTest::new(
            Test::new(xa, 0, 0, &rules()).unwrap(),
            Test::new(xd, 0, 0, &rules()).unwrap(),
            &rules(),
        );
        let exact = enumerate(&[100, 100], |f| {
            let (ma, md) = (margin_under(xa, f[0]), margin_under(xd, f[1]));
            OpposedResult {
                net: ma - md,
                winner: if attacker_wins(ma, md) {
                    Side::Attacker
                } else {
                    Side::Defender
                },
            }
        });
        assert_law(
            &format!("opposed {xa} vs {xd}"),
            &o.distribution().unwrap(),
            &exact,
        );
        let nets = enumerate(&[100, 100], |f| {
            i64::from(margin_under(xa, f[0]) - margin_under(xd, f[1]))
        });
        assert_law("net", &o.net_distribution(), &nets);
    }
}

#[test]
fn opposed_rolls_match_the_law() {
    let o = OpposedTest::new(
        Test::new(20, 0, 0, &rules()).unwrap(),
        Test::new(5, 0, 0, &rules()).unwrap(),
        &rules(),
    );
    let law = o.distribution().unwrap();
    let mut g = rng(11);
    check_rolls("opposed winner", &law.map(|r| r.winner), || {
        o.roll(&mut g).winner
    });
    let mut g = rng(12);
    check_rolls("opposed", &law, || o.roll(&mut g));
    let mut g = rng(13);
    let nets = law.map(|r| i64::from(r.net));
    check_rolls("opposed record", &nets, || o.roll_record(&mut g).total);
}

// ------------------------------------------------------------------ attacks: the damage bonus

#[test]
fn damage_bonus_law_against_enumeration() {
    for (xa, xd) in [(15, 15), (30, 0), (-20, 35), (45, -10)] {
        let a = Test::new(xa, 0, 0, &rules()).unwrap();
        let d = Test::new(xd, 0, 0, &rules()).unwrap();
        // Opposed melee.
        let attack = Attack::new(a, Defence::Opposed(d), AttackKind::Melee, &rules()).unwrap();
        let exact = enumerate(&[100, 100], |f| opposed_melee_oracle(xa, xd, f[0], f[1]));
        assert_law(
            &format!("melee {xa} vs {xd}"),
            &attack.distribution().unwrap(),
            &exact,
        );
        // Unopposed: a success gives its own margin's tens.
        let attack = Attack::new(a, Defence::Unopposed, AttackKind::Ranged, &rules()).unwrap();
        let exact = enumerate(&[100], |f| {
            let m = margin_under(xa, f[0]);
            if m >= 0 {
                AttackOutcome::Hit { bonus: per_ten(m) }
            } else {
                AttackOutcome::Miss
            }
        });
        assert_law("unopposed", &attack.distribution().unwrap(), &exact);
        // Passive defence (L25): margin − defence; net 0 succeeds; no counter-attack.
        let def = xd.rem_euclid(40);
        let attack = Attack::new(a, Defence::Passive(def), AttackKind::Melee, &rules()).unwrap();
        let exact = enumerate(&[100], |f| {
            let net = margin_under(xa, f[0]) - def;
            if net >= 0 {
                AttackOutcome::Hit {
                    bonus: per_ten(net),
                }
            } else {
                AttackOutcome::Miss
            }
        });
        assert_law("passive", &attack.distribution().unwrap(), &exact);
    }
}

#[test]
fn damage_law_against_enumeration() {
    let a = Test::new(25, 0, 0, &rules()).unwrap();
    let d = Test::new(10, 0, 0, &rules()).unwrap();
    let attack = Attack::new(a, Defence::Opposed(d), AttackKind::Melee, &rules()).unwrap();
    let mine = Damage::new(AttackKind::Melee, 6, 11, 9)
        .unwrap()
        .against(3, 8)
        .unwrap();
    let theirs = Damage::new(AttackKind::Melee, 4, 9, 12)
        .unwrap()
        .against(1, 10)
        .unwrap();
    let exact = enumerate(&[100, 100], |f| {
        match opposed_melee_oracle(25, 10, f[0], f[1]) {
            AttackOutcome::Hit { bonus } => (6 + 11 + bonus as i32 - 3 - 8).max(0),
            _ => 0,
        }
    });
    assert_law(
        "damage dealt",
        &attack.damage_distribution(&mine).unwrap(),
        &exact,
    );
    let exact = enumerate(&[100, 100], |f| {
        match opposed_melee_oracle(25, 10, f[0], f[1]) {
            AttackOutcome::CounterAttack { bonus } => (4 + 9 + bonus as i32 - 1 - 10).max(0),
            _ => 0,
        }
    });
    assert_law(
        "counter damage",
        &attack.counter_damage_distribution(&theirs).unwrap(),
        &exact,
    );
}

#[test]
fn attack_rolls_match_the_law() {
    let a = Test::new(10, 5, 0, &rules()).unwrap();
    let d = Test::new(12, 6, 0, &rules()).unwrap();
    for (seed, defence) in [
        (21, Defence::Opposed(d)),
        (22, Defence::Passive(18)),
        (23, Defence::Unopposed),
    ] {
        let attack = Attack::new(a, defence, AttackKind::Melee, &rules()).unwrap();
        let law = attack.distribution().unwrap();
        let mut g = rng(seed);
        check_rolls(&format!("{defence:?}"), &law, || attack.roll(&mut g));
        let mut g = rng(seed + 100);
        let hits = law.map(|o| o.is_hit());
        check_rolls("record", &hits, || {
            attack.roll_record(&mut g).successes == 1
        });
    }
}

// ------------------------------------------------------------------ hit locations

#[test]
fn hit_location_law_against_enumeration() {
    let exact = enumerate(&[100], |f| chart(f[0]));
    assert_law("hit location", &HitLocation.distribution().unwrap(), &exact);
    assert_law("aim rolled", &Aim::Rolled.distribution().unwrap(), &exact);
    // The chart's shares, counted: 10, 15, 15, 30, 15, 15 faces.
    let counts: Vec<usize> = Location::ALL
        .iter()
        .map(|l| (1..=100).filter(|&f| chart(f) == *l).count())
        .collect();
    assert_eq!(counts, vec![10, 15, 15, 30, 15, 15]);
    for (l, c) in Location::ALL.iter().zip(&counts) {
        assert!(
            (HitLocation.distribution().unwrap().probability(l) - *c as f64 / 100.0).abs() < 1e-15
        );
    }
}

#[test]
fn every_mechanic_samples_through_rand() {
    use rand::RngExt;
    let t = Test::new(10, 0, 0, &rules()).unwrap();
    let mut g = rng(61);
    let by_sample: Vec<TestResult> = (0..100).map(|_| g.sample(t)).collect();
    let mut g = rng(61);
    let by_roll: Vec<TestResult> = (0..100).map(|_| t.roll(&mut g)).collect();
    assert_eq!(by_sample, by_roll);
    let mut g = rng(62);
    let _: OpposedResult = g.sample(OpposedTest::new(t, t, &rules()));
    let _: AttackOutcome =
        g.sample(Attack::new(t, Defence::Unopposed, AttackKind::Melee, &rules()).unwrap());
    let _: Location = g.sample(HitLocation);
    let _: Location = g.sample(Aim::Called(Location::Body));
    let _: i32 = g.sample(Initiative::new(1, 1).unwrap());
    let _: Order = g.sample(TurnOrder::new(vec![Initiative::new(1, 1).unwrap()]).unwrap());
}

#[test]
fn hit_location_rolls_match_the_law() {
    let law = Aim::Rolled.distribution().unwrap();
    let mut g = rng(33);
    check_rolls("aim rolled", &law, || Aim::Rolled.roll(&mut g));
    let law = HitLocation.distribution().unwrap();
    let mut g = rng(31);
    check_rolls("hit location", &law, || HitLocation.roll(&mut g));
    let mut g = rng(32);
    let faces = enumerate(&[100], |f| i64::from(f[0]));
    let faces = dice_core::Dist::from_pairs(faces).unwrap();
    check_rolls("hit location record", &faces, || {
        HitLocation.roll_record(&mut g).total
    });
}

// ------------------------------------------------------------------ initiative and turn order

#[test]
fn initiative_law_against_enumeration() {
    for (seed, (pa, ma)) in [(41, (0, 0)), (42, (12, 9)), (43, (-3, 7))] {
        let i = Initiative::new(pa, ma).unwrap();
        let exact = enumerate(&[10], |f| f[0] as i32 + pa + ma);
        assert_law("initiative", &i.distribution().unwrap(), &exact);
        let mut g = rng(seed);
        check_rolls("initiative", &i.distribution().unwrap(), || i.roll(&mut g));
    }
}

/// The law of the order of a tied group after L4's roll-offs, derived without assuming any
/// symmetry: enumerate one round of d10s for the group; a round where everybody ties is
/// rolled again (so the other rounds are renormalised by 1 − P(all tie)); sub-groups that tie
/// roll off among themselves recursively.
fn roll_off_oracle(group: &[usize]) -> BTreeMap<Vec<usize>, f64> {
    let mut out = BTreeMap::new();
    if group.len() == 1 {
        out.insert(group.to_vec(), 1.0);
        return out;
    }
    let sides = vec![10u32; group.len()];
    let rounds = enumerate(&sides, |f| f.to_vec());
    let all_tie: f64 = rounds
        .iter()
        .filter(|(f, _)| f.iter().all(|x| *x == f[0]))
        .map(|(_, p)| p)
        .sum();
    for (faces, p) in rounds {
        if faces.iter().all(|x| *x == faces[0]) {
            continue;
        }
        // Sub-groups of equal faces, highest first, members in group order.
        let mut distinct: Vec<u32> = faces.clone();
        distinct.sort_unstable_by(|a, b| b.cmp(a));
        distinct.dedup();
        let mut partial: BTreeMap<Vec<usize>, f64> = BTreeMap::new();
        partial.insert(Vec::new(), p / (1.0 - all_tie));
        for v in distinct {
            let sub: Vec<usize> = group
                .iter()
                .zip(&faces)
                .filter(|(_, f)| **f == v)
                .map(|(c, _)| *c)
                .collect();
            let sub_law = roll_off_oracle(&sub);
            let mut next = BTreeMap::new();
            for (prefix, q) in &partial {
                for (tail, r) in &sub_law {
                    let mut o = prefix.clone();
                    o.extend(tail);
                    *next.entry(o).or_insert(0.0) += q * r;
                }
            }
            partial = next;
        }
        for (o, q) in partial {
            *out.entry(o).or_insert(0.0) += q;
        }
    }
    out
}

/// The turn-order law: every combination of Initiative d10s, groups of equal score from the
/// highest down, each group ordered by [`roll_off_oracle`].
fn turn_order_oracle(bonuses: &[i32]) -> BTreeMap<Order, f64> {
    let sides = vec![10u32; bonuses.len()];
    let combos = enumerate(&sides, |f| f.to_vec());
    let mut out: BTreeMap<Order, f64> = BTreeMap::new();
    for (faces, p) in combos {
        let scores: Vec<i32> = faces
            .iter()
            .zip(bonuses)
            .map(|(f, b)| *f as i32 + b)
            .collect();
        let mut distinct = scores.clone();
        distinct.sort_unstable_by(|a, b| b.cmp(a));
        distinct.dedup();
        let mut partial: BTreeMap<Vec<usize>, f64> = BTreeMap::new();
        partial.insert(Vec::new(), p);
        for s in distinct {
            let group: Vec<usize> = (0..bonuses.len()).filter(|&i| scores[i] == s).collect();
            let law = roll_off_oracle(&group);
            let mut next = BTreeMap::new();
            for (prefix, q) in &partial {
                for (tail, r) in &law {
                    let mut o = prefix.clone();
                    o.extend(tail);
                    *next.entry(o).or_insert(0.0) += q * r;
                }
            }
            partial = next;
        }
        for (o, q) in partial {
            *out.entry(Order(o)).or_insert(0.0) += q;
        }
    }
    out
}

#[test]
fn turn_order_law_against_enumeration() {
    for bonuses in [
        vec![0, 0],
        vec![21, 20],
        vec![5, 5, 5],
        vec![10, 12, 9],
        vec![3, 0, 3],
    ] {
        let fight = TurnOrder::new(
            bonuses
                .iter()
                .map(|&b| Initiative::new(b, 0).unwrap())
                .collect(),
        )
        .unwrap();
        let exact = turn_order_oracle(&bonuses);
        let law = fight.distribution().unwrap();
        // Probabilities derived through the geometric renormalisation: agreement to 1e-12.
        assert_eq!(
            law.outcomes(),
            exact.keys().cloned().collect::<Vec<_>>().as_slice()
        );
        for (o, p) in law.iter() {
            assert!(
                (p - exact[o]).abs() <= 1e-12,
                "{bonuses:?} {o}: {p} vs {}",
                exact[o]
            );
        }
    }
    // The limit of the enumeration.
    let seven = TurnOrder::new(vec![Initiative::new(0, 0).unwrap(); 7]).unwrap();
    assert!(seven.distribution().is_err());
}

#[test]
fn turn_order_rolls_match_the_law() {
    let fight = TurnOrder::new(vec![
        Initiative::new(5, 5).unwrap(),
        Initiative::new(6, 5).unwrap(),
        Initiative::new(4, 5).unwrap(),
    ])
    .unwrap();
    let law = fight.distribution().unwrap();
    let mut g = rng(51);
    check_rolls("turn order", &law, || fight.roll(&mut g));
    // The record path rolls the same dice as the ranking: Initiative d10s with PA + MA as
    // modifier, then the roll-offs; total is the highest score.
    let (mut g1, mut g2) = (rng(53), rng(53));
    for _ in 0..1000 {
        let record = fight.roll_record(&mut g1);
        let ranking = fight.roll_ranking(&mut g2);
        assert_eq!(record.dice.len(), ranking.dice_used);
        let scores: Vec<i32> = record.dice[..3].iter().map(|d| d.value as i32).collect();
        assert_eq!(scores, ranking.scores);
        assert_eq!(
            record.total,
            i64::from(*ranking.scores.iter().max().unwrap())
        );
    }
    // The record holds every d10 and the ranking is consistent with it.
    let mut g = rng(52);
    for _ in 0..1000 {
        let r = fight.roll_ranking(&mut g);
        assert!(r.dice_used >= 3);
        for w in r.order.0.windows(2) {
            assert!(r.scores[w[0]] >= r.scores[w[1]]);
        }
    }
}
