//! Seeded rolls against the exact laws: each mechanic is rolled 100,000 times with a fixed
//! seed and every outcome's frequency must be within 5 standard errors,
//! `sqrt(p(1 − p)/N)`, of its exact probability; outcomes of probability 0 must never be
//! seen. The exact probabilities come from the library's laws, which `tests/exact.rs` checks
//! against enumeration, or are derived here (by counting permutations).
//!
//! A 5 SE deviation has two-sided probability about 6·10⁻⁷; over the few hundred comparisons
//! here a correct implementation fails by chance with probability well under 10⁻³, and the
//! seeds are fixed anyway.

use std::collections::BTreeMap;

use dice_core::{Exact, Roll};
use dice_scratch_rps::{
    Ability, Attack, AttackKind, Attacks, Character, D20Roll, Environment, FightSimulation, Health,
    Initiative, InitiativeContest, Rules, Side, initiative::order_rolled,
};
use dice_testkit::{N, as_map, check, histogram, rng};
use rand::RngExt;

fn law<M: Exact>(m: &M) -> BTreeMap<M::Outcome, f64> {
    as_map(&m.distribution().unwrap())
}

fn check_mechanic<M: Exact>(m: &M, seed: u64) {
    let mut r = rng(seed);
    let observed = histogram(N, || m.roll(&mut r));
    check(&observed, &law(m), N);
}

#[test]
fn d20_rolls() {
    check_mechanic(&D20Roll::ability(3, 15).unwrap(), 1);
    check_mechanic(&D20Roll::ability(2, 25).unwrap(), 2); // only a natural 20
    check_mechanic(&D20Roll::non_ability(11).unwrap(), 3);
    check_mechanic(
        &D20Roll::ability(4, 8).unwrap().with_modifier(-2).unwrap(),
        4,
    );
    check_mechanic(&D20Roll::ability(0, 5).unwrap(), 5); // no roll: always a failure
}

#[test]
fn attacks() {
    let rules = Rules::default();
    let shot = Attack::new(
        AttackKind::Shooting,
        Some((Ability::Shooting, 4)),
        12,
        &rules,
    )
    .unwrap();
    check_mechanic(&shot, 11);
    let ko = Attack::new(
        AttackKind::Knockout,
        Some((Ability::Knockout, 2)),
        13,
        &rules,
    )
    .unwrap()
    .with_attacker(Health::Injured)
    .unwrap();
    check_mechanic(&ko, 12);
    let hold = Attack::new(AttackKind::Hold, Some((Ability::Wrestling, 2)), 13, &rules).unwrap();
    check_mechanic(&hold, 13);
    let catch = Attack::new(AttackKind::Catch, Some((Ability::Quickness, 1)), 13, &rules).unwrap();
    check_mechanic(&catch, 14);
}

#[test]
fn attack_series_total_damage() {
    let rules = Rules::default();
    let blast = |d| {
        Attack::new(
            AttackKind::Blasting,
            Some((Ability::Blasting, 3)),
            d,
            &rules,
        )
        .unwrap()
    };
    check_mechanic(
        &Attacks::new(vec![blast(11), blast(13), blast(15)]).unwrap(),
        21,
    );
    let fight = Attack::new(
        AttackKind::BasicAttack,
        Some((Ability::Fighting, 4)),
        13,
        &rules,
    )
    .unwrap();
    check_mechanic(&Attacks::new(vec![fight.clone(), fight]).unwrap(), 22);
}

#[test]
fn initiative() {
    check_mechanic(&Initiative::new(3).unwrap(), 31);
    check_mechanic(
        &InitiativeContest::new(Initiative::new(1).unwrap(), Initiative::new(1).unwrap()),
        32,
    );
    check_mechanic(
        &InitiativeContest::new(Initiative::new(1).unwrap(), Initiative::new(0).unwrap()),
        33,
    );
}

#[test]
fn three_way_tie_roll_offs_are_uniform() {
    // Three characters tied: by symmetry every one of the 3! orders is equally likely.
    let perms: Vec<Vec<usize>> = vec![
        vec![0, 1, 2],
        vec![0, 2, 1],
        vec![1, 0, 2],
        vec![1, 2, 0],
        vec![2, 0, 1],
        vec![2, 1, 0],
    ];
    let exact: BTreeMap<Vec<usize>, f64> = perms
        .iter()
        .map(|p| (p.clone(), 1.0 / perms.len() as f64))
        .collect();
    let mut r = rng(41);
    let observed = histogram(N, || order_rolled(&[12, 12, 12], &mut r).0);
    check(&observed, &exact, N);
}

#[test]
fn rand_distribution_delegates_to_roll() {
    let roll = D20Roll::ability(2, 13).unwrap();
    let mut r = rng(51);
    let observed = histogram(N, || r.sample(roll));
    check(&observed, &law(&roll), N);
}

#[test]
fn mirror_match_is_fair() {
    // Two identical fighters: by symmetry side A and side B win equally often. Checked on
    // the difference of the two frequencies (SE of a difference of multinomial counts).
    let c = Character::from_stat_block("2 fighting, 1 quickness, 4 toughness").unwrap();
    let sim = FightSimulation::new(
        vec![c],
        vec![c],
        Environment::default(),
        Rules::default(),
        40,
    )
    .unwrap();
    let n = 4_000u64;
    let mut r = rng(61);
    let observed = histogram(n, || sim.roll(&mut r).winner);
    let nf = n as f64;
    let a = observed.get(&Some(Side::A)).copied().unwrap_or(0) as f64 / nf;
    let b = observed.get(&Some(Side::B)).copied().unwrap_or(0) as f64 / nf;
    let se = ((a + b - (a - b).powi(2)) / nf).sqrt();
    assert!((a - b).abs() <= 5.0 * se, "A {a}, B {b}");
    assert!(a + b > 0.9, "almost every such fight ends within 40 rounds");
}
