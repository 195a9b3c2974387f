//! Criterion benches of dice-shapers-percentile: the roll paths of the d100 test, opposed
//! tests, attacks (opposed melee with counter-attacks, passive defence), hit locations and
//! initiative, and the exact laws (a test, an opposed melee attack's 10,000-pair joint law,
//! a three-combatant turn order), and the exact law of the shipped fight (`scenes/duel.toml`).
//!
//! As in `roll.rs`, every bench rolls with a seeded [`Xoshiro256PlusPlus`] that lives across
//! iterations, only the mechanic goes through [`black_box`], and [`Throughput::Elements`] is
//! the number of dice rolled per iteration (a turn order's roll-offs are rare and not
//! counted).
//!
//! Run with `cargo bench -p dice-benches --bench shapers_percentile`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dice_core::{EncounterLimits, Exact, Roll, RollDetailed, RollRecord, end_law};
use dice_shapers_percentile::{
    Attack, AttackKind, Defence, Fight, HitLocation, Initiative, OpposedTest, Rules, Scene, Test,
    TurnOrder,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// The seed every bench starts from.
const SEED: u64 = 0x5EED_D1CE;

fn rng() -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(SEED)
}

fn test(x: i32) -> Test {
    Test::new(x, 0, 0, &Rules::default()).expect("valid")
}

/// The roll paths.
fn roll(c: &mut Criterion) {
    let mut g = c.benchmark_group("shapers_percentile_roll");
    let rules = Rules::default();

    let swing = test(15);
    g.throughput(Throughput::Elements(1));
    let mut r = rng();
    g.bench_function("test_d100", |b| {
        b.iter(|| black_box(&swing).roll(&mut r));
    });
    let mut r = rng();
    let mut record = RollRecord::new();
    g.bench_function("test_d100_record", |b| {
        b.iter(|| {
            black_box(&swing).roll_record_into(&mut r, &mut record);
            black_box(&record);
        });
    });

    let opposed = OpposedTest::new(test(15), test(10), &rules);
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("opposed_test", |b| {
        b.iter(|| black_box(&opposed).roll(&mut r));
    });

    let melee = Attack::new(
        test(15),
        Defence::Opposed(test(10)),
        AttackKind::Melee,
        &rules,
    )
    .expect("valid");
    let mut r = rng();
    g.bench_function("attack_opposed_melee", |b| {
        b.iter(|| black_box(&melee).roll(&mut r));
    });

    let passive =
        Attack::new(test(15), Defence::Passive(18), AttackKind::Melee, &rules).expect("valid");
    g.throughput(Throughput::Elements(1));
    let mut r = rng();
    g.bench_function("attack_passive_defence", |b| {
        b.iter(|| black_box(&passive).roll(&mut r));
    });

    let mut r = rng();
    g.bench_function("hit_location", |b| {
        b.iter(|| black_box(&HitLocation).roll(&mut r));
    });

    let fight = TurnOrder::new(vec![
        Initiative::new(12, 9).expect("valid"),
        Initiative::new(10, 11).expect("valid"),
        Initiative::new(6, 4).expect("valid"),
        Initiative::new(8, 8).expect("valid"),
    ])
    .expect("valid");
    g.throughput(Throughput::Elements(4));
    let mut r = rng();
    g.bench_function("turn_order_4", |b| {
        b.iter(|| black_box(&fight).roll(&mut r));
    });

    g.finish();
}

/// The exact laws.
fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("shapers_percentile_exact");
    let rules = Rules::default();

    let swing = test(15);
    g.bench_function("test_law", |b| {
        b.iter(|| black_box(&swing).distribution());
    });

    let melee = Attack::new(
        test(15),
        Defence::Opposed(test(10)),
        AttackKind::Melee,
        &rules,
    )
    .expect("valid");
    g.bench_function("attack_opposed_melee_law", |b| {
        b.iter(|| black_box(&melee).distribution());
    });

    let fight = TurnOrder::new(vec![
        Initiative::new(12, 9).expect("valid"),
        Initiative::new(10, 11).expect("valid"),
        Initiative::new(6, 4).expect("valid"),
    ])
    .expect("valid");
    g.bench_function("turn_order_3_law", |b| {
        b.iter(|| black_box(&fight).distribution());
    });

    g.finish();
}

/// The exact law of the shipped scene (`scenes/duel.toml`, [`Scene::duel`]): Ada and Bram
/// against the ogre, played to the end — what `dice shapers-percentile fight … --odds`
/// computes. A fresh [`Fight`] each iteration, so its cache of attack laws starts empty.
fn fight(c: &mut Criterion) {
    let mut g = c.benchmark_group("shapers_percentile_fight");
    g.sample_size(10);
    let scene: Scene = toml::from_str(include_str!(
        "../../crates/shapers-percentile/scenes/duel.toml"
    ))
    .expect("the shipped scene is valid");
    let rules = Rules::default();
    g.bench_function("duel_end_law", |b| {
        b.iter(|| {
            let fight = Fight::new(black_box(&scene), &rules).expect("valid");
            end_law(&fight, EncounterLimits::default()).expect("within the limits")
        });
    });
    g.finish();
}

criterion_group!(benches, roll, exact, fight);
criterion_main!(benches);
