//! Criterion benchmarks of the exact distributions of `dice-core`: the workloads that the
//! exact-odds issue sets targets for (the targets and the peers' times are in the comments).
//!
//! Run with `cargo bench -p dice-benches --bench exact`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use dice_core::{
    BlockRule, Blocking, Comparison, Die, Exact, Explode, Keep, Pool, SuccessPool, Sum,
};

fn pool(count: u32, die: Die) -> Pool {
    Pool::new(count, die).expect("valid")
}

/// `n` d10s, each 8+ a success, a 10 adding a die (untruncated).
fn exploding_d10_successes(n: u32) -> SuccessPool {
    let p = pool(n, Die::D10)
        .exploding(Explode::new(Comparison::Exactly(10)))
        .expect("valid");
    SuccessPool::new(p, Comparison::AtLeast(8))
}

fn sum(p: Pool, keep: Keep) -> Sum {
    Sum::new(p, keep, 0).expect("valid")
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("exact");
    g.sample_size(20);

    // Target < 100 µs (icepool, truncated at depth 9: 7.6 ms).
    let ten = exploding_d10_successes(10);
    g.bench_function("10d10_explode10_count_ge8", |b| {
        b.iter(|| black_box(&ten).distribution())
    });
    // Target < 10 ms (icepool: 743 ms).
    let hundred = exploding_d10_successes(100);
    g.bench_function("100d10_explode10_count_ge8", |b| {
        b.iter(|| black_box(&hundred).distribution())
    });
    // Target < 0.5 ms (xdy: 1.40 ms).
    let d6x100 = sum(pool(100, Die::D6), Keep::All);
    g.bench_function("100d6", |b| b.iter(|| black_box(&d6x100).distribution()));
    // Target < 20 ms (xdy: 85 ms).
    let drop10 = sum(pool(100, Die::D6), Keep::DropLowest(10));
    g.bench_function("100d6_drop_lowest_10", |b| {
        b.iter(|| black_box(&drop10).distribution())
    });
    // Target < 5 ms (icepool: 82 ms): roll 10 keep 5, tens explode (compounding).
    let keep5 = sum(
        pool(10, Die::D10)
            .exploding(Explode::compounding(Comparison::Exactly(10)))
            .expect("valid"),
        Keep::Highest(5),
    );
    g.bench_function("10d10_explode10_keep_5", |b| {
        b.iter(|| black_box(&keep5).distribution())
    });
    // Target < 0.3 ms (icepool: 30 ms).
    let keep10 = sum(pool(20, Die::D10), Keep::Highest(10));
    g.bench_function("20d10_keep_10", |b| {
        b.iter(|| black_box(&keep10).distribution())
    });
    // Target < 1 ms (icepool: 92 ms, dyce: 2.8 s).
    let block = Blocking::new(
        SuccessPool::new(pool(6, Die::D6), Comparison::AtLeast(1)),
        pool(6, Die::D6),
        BlockRule::AtLeast,
    );
    g.bench_function("6d6_vs_6d6_blocking", |b| {
        b.iter(|| black_box(&block).distribution())
    });
    // Target < 1 ms (dyce: 1.95 s).
    let thousand = SuccessPool::new(pool(1000, Die::D10), Comparison::AtMost(5));
    g.bench_function("1000d10_count_le5", |b| {
        b.iter(|| black_box(&thousand).distribution())
    });
    // Not a target: 50d100, a wide sum.
    let d100x50 = sum(pool(50, Die::D100), Keep::All);
    g.bench_function("50d100", |b| b.iter(|| black_box(&d100x50).distribution()));
    // Keep/drop among the dice explosions add (issue 17): 10d10!kh5, untruncated (about
    // 0.1 ms when it was added; icepool's explode_to_pool at depth 30 takes seconds).
    let kh5 = sum(
        pool(10, Die::D10)
            .exploding(Explode::new(Comparison::Exactly(10)))
            .expect("valid"),
        Keep::Highest(5),
    );
    g.bench_function("10d10_explode_keep_5", |b| {
        b.iter(|| black_box(&kh5).distribution())
    });
    g.finish();
}

/// The workloads of issue 20 (exact laws where the algorithm's exponent or constant was the
/// problem), with the goal each was given: docs/performance.md has the medians.
fn exact_large(c: &mut Criterion) {
    let mut g = c.benchmark_group("exact_large");
    g.sample_size(10);
    // Goal ≤ 3 ms for 40v40, growth ≤ N^3.5 (icepool with its cache warm: 3.7 ms); 80v80
    // shows the growth past the caches.
    for n in [10, 20, 40, 80] {
        let fight = Blocking::new(
            SuccessPool::new(pool(n, Die::D6), Comparison::AtLeast(1)),
            pool(n, Die::D6),
            BlockRule::AtLeast,
        );
        g.bench_function(format!("blocking_{n}v{n}_d6"), |b| {
            b.iter(|| black_box(&fight).distribution())
        });
    }
    // The strict rule takes the same program: 40v40 under `>`.
    let strict = Blocking::new(
        SuccessPool::new(pool(40, Die::D6), Comparison::AtLeast(2)),
        pool(40, Die::D6),
        BlockRule::Strict,
    );
    g.bench_function("blocking_40v40_d6_strict", |b| {
        b.iter(|| black_box(&strict).distribution())
    });
    // Goal ≤ 16 ms for 100d100 kh50 (icepool warm: 16 ms).
    for (n, k) in [(50, 25), (100, 50)] {
        let keep = sum(pool(n, Die::D100), Keep::Highest(k));
        g.bench_function(format!("{n}d100_keep_highest_{k}"), |b| {
            b.iter(|| black_box(&keep).distribution())
        });
    }
    // Goal ≤ 50 ms for 10000d6.
    for (n, die) in [(10_000, Die::D6), (1000, Die::D100)] {
        let total = sum(pool(n, die), Keep::All);
        g.bench_function(format!("{n}d{}", die.sides()), |b| {
            b.iter(|| black_box(&total).distribution())
        });
    }
    // Listing sized to the tail bound (icepool: killed at 8.5 GB).
    let counted = exploding_d10_successes(1000);
    g.bench_function("1000d10_explode10_count_ge8", |b| {
        b.iter(|| black_box(&counted).distribution())
    });
    let counted = exploding_d10_successes(3000);
    g.bench_function("3000d10_explode10_count_ge8", |b| {
        b.iter(|| black_box(&counted).distribution())
    });
    let exploding = sum(
        pool(500, Die::D6)
            .exploding(Explode::new(Comparison::Exactly(6)))
            .expect("valid"),
        Keep::All,
    );
    g.bench_function("500d6_explode6", |b| {
        b.iter(|| black_box(&exploding).distribution())
    });
    g.finish();
}

criterion_group!(benches, exact, exact_large);
criterion_main!(benches);
