//! Criterion benches of dice-robots-and-rapiers: an 8d10 Test (unopposed, and opposed by
//! another 8d10 pool), its detailed roll, a Saving Throw, a Durability Save, Base Action
//! Points, the shipped duel (Juliard vs Del Trevaine) played to its end under the whole
//! combat chapter (`DuelRules::FULL`, whose exact law is refused), and the exact laws of the
//! opposed Test, the save and the shipped duel to its end.
//!
//! As in `roll.rs`, every bench rolls with a seeded [`Xoshiro256PlusPlus`] that lives across
//! iterations, only the mechanic is passed through [`black_box`], and
//! [`Throughput::Elements`] is the d10s rolled per iteration.
//!
//! Run with `cargo bench -p dice-benches --bench robots_and_rapiers`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dice_core::{EncounterLimits, Exact, PlayOut, Roll, end_law};
use dice_robots_and_rapiers::{
    BaseActionPoints, DamageKind, Duel, DuelRules, DurabilitySave, Opposition, Rules, SavingThrow,
    Scene, Test,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// The seed every bench starts from.
const SEED: u64 = 0x5EED_D1CE;

fn rng() -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(SEED)
}

/// Juliard's 8 dice (L1418) against Articulation 6.
fn attack() -> Test {
    Test::new(8, 6).expect("valid")
}

/// The same attack parried with 8 dice against Locomotion 5.
fn opposed() -> Test {
    attack().opposed_by(Opposition::new(8, 5).expect("valid"))
}

/// The shipped scene `crates/robots-and-rapiers/scenes/juliard-vs-del-trevaine.toml`, read
/// as `dice robots-and-rapiers fight … --odds` reads it.
fn juliard_vs_del_trevaine() -> Duel {
    let scene: Scene = toml::from_str(include_str!(
        "../../crates/robots-and-rapiers/scenes/juliard-vs-del-trevaine.toml"
    ))
    .expect("the shipped scene is valid");
    Duel::from_scene(&scene, Rules::default()).expect("valid")
}

fn rolls(c: &mut Criterion) {
    let mut g = c.benchmark_group("robots_and_rapiers/roll");
    let t = attack();
    g.throughput(Throughput::Elements(8));
    g.bench_function("test_8d10", |b| {
        let mut r = rng();
        b.iter(|| black_box(&t).roll(&mut r))
    });
    g.bench_function("test_8d10_detailed", |b| {
        let mut r = rng();
        b.iter(|| black_box(&t).roll_test(&mut r))
    });
    let o = opposed();
    g.throughput(Throughput::Elements(16));
    g.bench_function("test_8d10_vs_8d10", |b| {
        let mut r = rng();
        b.iter(|| black_box(&o).roll(&mut r))
    });
    let s = SavingThrow::new(5).expect("valid");
    g.throughput(Throughput::Elements(3));
    g.bench_function("save_3d10", |b| {
        let mut r = rng();
        b.iter(|| black_box(&s).roll(&mut r))
    });
    let d = DurabilitySave::new(4, DamageKind::default(), &Rules::default()).expect("valid");
    g.bench_function("durability_save", |b| {
        let mut r = rng();
        b.iter(|| black_box(&d).roll(&mut r))
    });
    let ap = BaseActionPoints::new(7, 5, &Rules::default()).expect("valid");
    g.throughput(Throughput::Elements(7));
    g.bench_function("base_action_points_7d10", |b| {
        let mut r = rng();
        b.iter(|| black_box(&ap).roll(&mut r))
    });
    // One whole duel under every rule of the combat chapter: what --monte-carlo repeats (its
    // throughput is one duel, not d10s: a duel rolls as many as its turns take).
    let full = PlayOut::new(
        juliard_vs_del_trevaine().with_duel_rules(DuelRules::FULL),
        1_000,
    )
    .expect("valid");
    g.throughput(Throughput::Elements(1));
    g.bench_function("duel_full_rules_played", |b| {
        let mut r = rng();
        b.iter(|| black_box(&full).roll(&mut r))
    });
    g.finish();
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("robots_and_rapiers/exact");
    let o = opposed();
    g.bench_function("test_8d10_vs_8d10", |b| {
        b.iter(|| black_box(&o).distribution())
    });
    let s = SavingThrow::new(5).expect("valid");
    g.bench_function("save_3d10", |b| b.iter(|| black_box(&s).distribution()));
    let rules = Rules::default();
    let duel = juliard_vs_del_trevaine();
    g.bench_function("duel_juliard_vs_del_trevaine", |b| {
        b.iter(|| end_law(black_box(&duel), EncounterLimits::default()))
    });
    g.bench_function("save_expected_loss", |b| {
        b.iter(|| black_box(&s).expected_loss(&rules))
    });
    g.finish();
}

criterion_group!(benches, rolls, exact);
criterion_main!(benches);
