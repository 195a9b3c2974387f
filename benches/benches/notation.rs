//! Criterion benches of dice-notation: parsing an expression, rolling a compiled expression
//! (with every die recorded for display, and value only as dice-sim does), and asking its exact distribution.
//!
//! Rolls use a seeded [`Xoshiro256PlusPlus`] that lives across iterations; the expression is
//! parsed once, outside the timed loop, except in the `parse` benches.
//!
//! Run with `cargo bench -p dice-benches --bench notation`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use dice_core::Roll;
use dice_notation::Expression;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// The seed every bench starts from.
const SEED: u64 = 0x5EED_D1CE;

/// Expressions a virtual-tabletop user types, from the simplest to a modified pool.
const EXPRESSIONS: [&str; 4] = ["1d20+5", "4d6kh3", "10d10!10>=8", "2d6+3 vs 9"];

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("notation/parse");
    for text in EXPRESSIONS {
        group.bench_function(text, |b| {
            b.iter(|| Expression::parse(black_box(text)).expect("valid"))
        });
    }
    group.finish();
}

fn roll(c: &mut Criterion) {
    let mut group = c.benchmark_group("notation/roll");
    for text in EXPRESSIONS {
        let expression = Expression::parse(text).expect("valid");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        group.bench_function(text, |b| b.iter(|| black_box(&expression).roll(&mut rng)));
    }
    group.finish();
}

fn roll_value(c: &mut Criterion) {
    let mut group = c.benchmark_group("notation/roll_value");
    for text in EXPRESSIONS {
        let expression = Expression::parse(text).expect("valid");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        group.bench_function(text, |b| {
            b.iter(|| Roll::roll(black_box(&expression), &mut rng))
        });
    }
    group.finish();
}

fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("notation/exact");
    for text in ["4d6kh3", "10d10!10>=8", "2d6+3 vs 9"] {
        let expression = Expression::parse(text).expect("valid");
        group.bench_function(text, |b| {
            b.iter(|| black_box(&expression).distribution().expect("exact"))
        });
    }
    group.finish();
}

/// Expressions whose exact law once took seconds, or was refused by a cost estimate far from
/// the time it takes (issue 20; docs/performance.md has the medians and goals).
const LARGE: [&str; 8] = [
    "min(1d1000*1d1000,4d1000)",
    "1d1000*1d1000/4d1000",
    "100d100kh50",
    "10000d6",
    "1000d100",
    "500d6!",
    "3000d10!10>=8",
    "1000d10!10>=8",
];

fn exact_large(c: &mut Criterion) {
    let mut group = c.benchmark_group("notation/exact_large");
    group.sample_size(10);
    for text in LARGE {
        let expression = Expression::parse(text).expect("valid");
        // A refused expression is timed as its refusal.
        group.bench_function(text, |b| {
            b.iter(|| black_box(&expression).distribution().is_ok())
        });
    }
    group.finish();
}

criterion_group!(benches, parse, roll, roll_value, exact, exact_large);
criterion_main!(benches);
