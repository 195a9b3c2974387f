//! Criterion benchmarks of the hot roll-resolution paths of `dice-core`.
//!
//! Every bench rolls with a seeded [`Xoshiro256PlusPlus`] that lives across iterations, so
//! the numbers measure the mechanic plus its share of RNG draws, not RNG construction. Each
//! bench sets [`Throughput::Elements`] to the dice rolled per iteration, so criterion also
//! reports dice per second:
//!
//! - fixed pools count their dice (10d10 is 10, 8d10 against 6d10 is 14);
//! - exploding pools and streaks roll a random number of dice, so they count the expected
//!   number, rounded: 10d10 exploding on 10s rolls 10 / (1 − 1/10) ≈ 11.1 dice, a d6 streak
//!   on {4, 5, 6} rolls 1 / (1 − 1/2) = 2 dice.
//!
//! Only the mechanic is passed through [`black_box`] (so nothing is constant-folded from
//! it); the outcome is returned from the closure, which criterion's `Bencher::iter` sinks
//! with `black_box` itself.
//!
//! The `baseline` group runs in the same process for ratios: ten `random_range(1..=10)`
//! draws counting faces ≤ 5 (the naive way to roll 10d10 ≤ 5) and one raw `next_u64`.
//!
//! Run with `cargo bench -p dice-benches`; criterion options follow `--`, for example
//! `cargo bench -p dice-benches -- --warm-up-time 1 --measurement-time 3 success`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dice_core::{
    BlockRule, Blocking, Cancellation, Comparison, Die, Explode, FaceSet, Keep, Pool, Roll,
    RollDetailed, RollRecord, Streak, SuccessPool, Sum, VersusTarget,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};

/// The seed every bench starts from.
const SEED: u64 = 0x5EED_D1CE;

fn rng() -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(SEED)
}

fn pool(count: u32, die: Die) -> Pool {
    Pool::new(count, die).expect("valid")
}

/// 10d10 exploding on a natural 10 (additional dice).
fn ten_d10_exploding() -> Pool {
    pool(10, Die::D10)
        .exploding(Explode::new(Comparison::Exactly(10)))
        .expect("valid")
}

/// Success counting: the count-only and record paths of 10d10 ≤ 5, a tally with
/// criticals, and an exploding pool (which takes the per-die visit path).
fn success_pool(c: &mut Criterion) {
    let mut g = c.benchmark_group("success_pool");

    let ten_d10_le5 = SuccessPool::new(pool(10, Die::D10), Comparison::AtMost(5));
    g.throughput(Throughput::Elements(10));
    let mut r = rng();
    g.bench_function("10d10_le5_count", |b| {
        b.iter(|| black_box(&ten_d10_le5).count(&mut r));
    });
    let mut r = rng();
    let mut record = RollRecord::new();
    g.bench_function("10d10_le5_record", |b| {
        b.iter(|| {
            black_box(&ten_d10_le5).roll_record_into(&mut r, &mut record);
            black_box(&record);
        });
    });

    let six_d6_ge4 = SuccessPool::new(pool(6, Die::D6), Comparison::AtLeast(4));
    g.throughput(Throughput::Elements(6));
    let mut r = rng();
    g.bench_function("6d6_ge4_tally", |b| {
        b.iter(|| {
            // Sunk by reference: sinking the two-`u32` struct by value reloads it as one
            // `u64` right after two 32-bit stores (a store-forwarding stall that belongs to
            // the harness, not to the tally).
            let tally = black_box(&six_d6_ge4).tally(&mut r);
            black_box(&tally);
        });
    });

    let exploding_ge8 = SuccessPool::new(ten_d10_exploding(), Comparison::AtLeast(8));
    g.throughput(Throughput::Elements(11));
    let mut r = rng();
    g.bench_function("10d10_explode10_ge8_count", |b| {
        b.iter(|| black_box(&exploding_ge8).count(&mut r));
    });

    g.finish();
}

/// Totals: a sum against a target, keep-highest, and an exploding sum.
fn sum(c: &mut Criterion) {
    let mut g = c.benchmark_group("sum");

    let check = VersusTarget::new(Sum::new(pool(2, Die::D6), Keep::All, 2).expect("valid"), 9)
        .expect("valid");
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("2d6_plus2_vs_9", |b| {
        b.iter(|| black_box(&check).roll(&mut r));
    });

    let stat = Sum::new(pool(4, Die::D6), Keep::Highest(3), 0).expect("valid");
    g.throughput(Throughput::Elements(4));
    let mut r = rng();
    g.bench_function("4d6_keep_highest_3", |b| {
        b.iter(|| black_box(&stat).roll(&mut r));
    });

    let exploding = Sum::new(ten_d10_exploding(), Keep::All, 0).expect("valid");
    g.throughput(Throughput::Elements(11));
    let mut r = rng();
    g.bench_function("10d10_explode10_sum", |b| {
        b.iter(|| black_box(&exploding).roll(&mut r));
    });

    g.finish();
}

/// A Shapers and Bots fluke: a d6 streak continuing on {4, 5, 6}.
fn streak(c: &mut Criterion) {
    let mut g = c.benchmark_group("streak");

    let fluke = Streak::new(Die::D6, FaceSet::range(4, 6).expect("valid"), 0).expect("valid");
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("d6_in_4to6", |b| {
        b.iter(|| black_box(&fluke).roll(&mut r));
    });

    g.finish();
}

/// Opposed resolution: cancellation of successes and die-against-die blocking.
fn opposed(c: &mut Criterion) {
    let mut g = c.benchmark_group("opposed");

    let cancellation = Cancellation::new(
        SuccessPool::new(pool(8, Die::D10), Comparison::AtMost(6)),
        Some(SuccessPool::new(pool(6, Die::D10), Comparison::AtMost(5))),
        0,
    )
    .expect("valid");
    g.throughput(Throughput::Elements(14));
    let mut r = rng();
    g.bench_function("cancel_8d10_le6_vs_6d10_le5", |b| {
        b.iter(|| black_box(&cancellation).roll(&mut r));
    });

    let blocking = Blocking::new(
        SuccessPool::new(pool(6, Die::D6), Comparison::AtLeast(2)),
        pool(6, Die::D6),
        BlockRule::AtLeast,
    );
    g.throughput(Throughput::Elements(12));
    let mut r = rng();
    g.bench_function("block_6d6_ge2_vs_6d6", |b| {
        b.iter(|| black_box(&blocking).roll(&mut r));
    });

    g.finish();
}

/// Baselines for ratios: the naive 10d10 ≤ 5 with `random_range`, and one raw draw.
fn baseline(c: &mut Criterion) {
    let mut g = c.benchmark_group("baseline");

    g.throughput(Throughput::Elements(10));
    let mut r = rng();
    g.bench_function("random_range_10d10_le5", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for _ in 0..10 {
                n += u32::from(r.random_range(1..=10u32) <= 5);
            }
            n
        });
    });

    g.throughput(Throughput::Elements(1));
    let mut r = rng();
    g.bench_function("next_u64", |b| {
        b.iter(|| r.next_u64());
    });

    g.finish();
}

criterion_group!(benches, success_pool, sum, streak, opposed, baseline);
criterion_main!(benches);
