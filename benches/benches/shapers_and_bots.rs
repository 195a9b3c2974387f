//! Criterion benches of dice-shapers-and-bots' hot paths: the challenge roll (2d6 + bonus
//! against a target, three outcomes), damage streaks, and the exact law of a whole fight.
//!
//! As in `roll.rs`, every bench rolls with a seeded [`Xoshiro256PlusPlus`] that lives across
//! iterations, only the mechanic is passed through [`black_box`], and [`Throughput::Elements`]
//! is the dice rolled per iteration: 2 for a challenge or a fluke; for a streak continuing
//! with probability p, the expected 1 / (1 − p) dice, rounded (a large weapon unarmored,
//! p = 2/3: 3 dice; armored, p = 1/3: 1.5, counted as 2; a fluke, p = 1/2: 2).
//!
//! Run with `cargo bench -p dice-benches --bench shapers_and_bots`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dice_core::{EncounterLimits, Exact, Roll, end_law};
use dice_shapers_and_bots::{
    Attack, Challenge, Contest, Damage, Fluke, Level, Rules, Scene, WeaponClass,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// The seed every bench starts from.
const SEED: u64 = 0x5EED_D1CE;

fn rng() -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(SEED)
}

/// The challenge roll: outcome only, the detailed roll (dice, total, outcome), a fluke, a
/// contest and a defended attack, and the exact law of a challenge.
fn challenge(c: &mut Criterion) {
    let mut g = c.benchmark_group("sb_challenge");
    let rules = Rules::default();

    let climb = Challenge::new(Level::High, Level::Awesome).expect("valid");
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("high_vs_awesome", |b| {
        b.iter(|| black_box(&climb).roll(&mut r));
    });
    let mut r = rng();
    g.bench_function("high_vs_awesome_detailed", |b| {
        b.iter(|| black_box(&climb).roll_challenge(&mut r));
    });

    let fluke = Fluke::new(Level::Average, &rules).expect("valid");
    let mut r = rng();
    g.bench_function("fluke_vs_average", |b| {
        b.iter(|| black_box(&fluke).roll(&mut r));
    });

    g.throughput(Throughput::Elements(4));
    let contest = Contest::new(Level::High.into(), Level::Average.into(), &rules).expect("valid");
    let mut r = rng();
    g.bench_function("contest_high_vs_average", |b| {
        b.iter(|| black_box(&contest).roll(&mut r));
    });
    let attack =
        Attack::defended(Level::Low.into(), Level::VeryHigh.into(), &rules).expect("valid");
    let mut r = rng();
    g.bench_function("defended_attack", |b| {
        b.iter(|| black_box(&attack).roll(&mut r));
    });

    g.throughput(Throughput::Elements(1));
    g.bench_function("exact_challenge_law", |b| {
        b.iter(|| black_box(&climb).distribution());
    });
    g.finish();
}

/// Damage streaks: a large weapon unarmored (1 + streak on 3–6) and armored (streak on 5–6),
/// outcome only and detailed.
fn damage(c: &mut Criterion) {
    let mut g = c.benchmark_group("sb_damage");
    let rules = Rules::default();

    let sword = Damage::new(WeaponClass::Large, false, &rules).expect("valid");
    g.throughput(Throughput::Elements(3));
    let mut r = rng();
    g.bench_function("large_unarmored", |b| {
        b.iter(|| black_box(&sword).roll(&mut r));
    });
    let mut r = rng();
    g.bench_function("large_unarmored_detailed", |b| {
        b.iter(|| black_box(&sword).roll_damage(&mut r));
    });

    let club = Damage::new(WeaponClass::Large, true, &rules).expect("valid");
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("large_armored", |b| {
        b.iter(|| black_box(&club).roll(&mut r));
    });
    g.finish();
}

/// The exact law of the rulebook's fight, Dashwood and Slumpy, read from the shipped scene
/// `crates/shapers-and-bots/scenes/dashwood-and-slumpy.toml` as `dice shapers-and-bots fight
/// … --odds` reads it: every state it can reach, and P(each side wins).
fn fight(c: &mut Criterion) {
    let mut g = c.benchmark_group("sb_fight");
    let scene: Scene = toml::from_str(include_str!(
        "../../crates/shapers-and-bots/scenes/dashwood-and-slumpy.toml"
    ))
    .expect("the shipped scene is valid");
    let scene = scene.encounter(&Rules::default()).expect("valid");
    g.bench_function("dashwood_and_slumpy_exact_law", |b| {
        b.iter(|| end_law(black_box(&scene), EncounterLimits::default()));
    });
    g.finish();
}

criterion_group!(benches, challenge, damage, fight);
criterion_main!(benches);
