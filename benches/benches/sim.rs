//! Criterion benchmarks of dice-sim: trials per second on 1 thread and on 2, against the
//! mechanic's own roll loop measured in the same run, so the simulation's overhead per trial
//! (chunking, per-chunk RNG, histogram counting, merging) is the difference of the two.
//!
//! `N_thread_after_pause` times a run that follows 20 ms of idleness, so the pool's threads
//! have to be woken as in a one-off query; `N_thread` times back-to-back runs.
//!
//! The table samplers of dice-sim (`TableRoll`, `ExplodingCount`) are timed beside the plain
//! mechanics of the same law (`table_N_thread` against `N_thread`).
//!
//! Run with `cargo bench -p dice-benches --bench sim`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dice_core::{
    Comparison, DEFAULT_EXPLOSION_CAP, Die, Explode, Keep, Pool, Roll, SuccessPool, Sum,
};
use dice_shapers_and_bots::{Challenge, Level};
use dice_sim::{Batch, ExplodingCount, Simulation, TableRoll};
use dice_swimclass::{OpposedRoll, Rules, SkillDice};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// Trials per measured iteration.
const TRIALS: u64 = 1 << 20;
/// The idle time before each run of the `_after_pause` benches.
const PAUSE: Duration = Duration::from_millis(20);

fn bench_mechanic<M>(c: &mut Criterion, name: &str, m: &M)
where
    M: Roll + Sync,
    M::Outcome: Send + 'static,
{
    let mut g = c.benchmark_group(format!("sim/{name}"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(TRIALS));
    g.bench_function("raw_loop", |b| {
        b.iter(|| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            for _ in 0..TRIALS {
                black_box(m.roll(&mut rng));
            }
        })
    });
    for threads in [1, 2] {
        let sim = Simulation::new(1, TRIALS)
            .expect("valid")
            .threads(threads)
            .expect("valid");
        g.bench_function(format!("{threads}_thread"), |b| {
            b.iter(|| black_box(sim.run(black_box(m))))
        });
        // A run after a pause, as a one-off query (the `dice` tool, a designer's script)
        // meets it: the pool's threads have gone to sleep and must be woken, which on a
        // virtual machine can take a millisecond. Only the run is timed, not the pause.
        g.bench_function(format!("{threads}_thread_after_pause"), |b| {
            b.iter_custom(|iters| {
                let mut timed = Duration::ZERO;
                for _ in 0..iters {
                    std::thread::sleep(PAUSE);
                    let start = Instant::now();
                    black_box(sim.run(black_box(m)));
                    timed += start.elapsed();
                }
                timed
            })
        });
    }
    g.finish();
}

/// A table sampler ([`Batch`]) of the same law as a plain mechanic, in the same group as the
/// plain runs: `table_N_thread` against `N_thread`.
fn bench_batch<B: Batch>(c: &mut Criterion, name: &str, b: &B) {
    let mut g = c.benchmark_group(format!("sim/{name}"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(TRIALS));
    for threads in [1, 2] {
        let sim = Simulation::new(1, TRIALS)
            .expect("valid")
            .threads(threads)
            .expect("valid");
        g.bench_function(format!("table_{threads}_thread"), |bench| {
            bench.iter(|| black_box(sim.run_batch(black_box(b))))
        });
    }
    g.finish();
}

fn sim(c: &mut Criterion) {
    // Ability scores: the sum of the highest 3 of 4d6, rolled die by die and from a table.
    let stat = Sum::new(Pool::new(4, Die::D6).expect("valid"), Keep::Highest(3), 0).expect("valid");
    bench_mechanic(c, "4d6kh3", &stat);
    bench_batch(
        c,
        "4d6kh3",
        &TableRoll::keep_highest(4, 6, 3).expect("valid"),
    );
    // Successes (8+) of 10d10 exploding on 10.
    let exploding = SuccessPool::new(
        Pool::new(10, Die::D10)
            .and_then(|p| p.exploding(Explode::new(Comparison::Exactly(10))))
            .expect("valid"),
        Comparison::AtLeast(8),
    );
    bench_mechanic(c, "10d10x10_ge8", &exploding);
    bench_batch(
        c,
        "10d10x10_ge8",
        &ExplodingCount::new(10, 10, |f| f >= 8, |f| f == 10, DEFAULT_EXPLOSION_CAP)
            .expect("valid"),
    );
    // One chance in two: ten coins, one group of 1,024 entries, six trials a draw.
    bench_batch(
        c,
        "10d10_le5",
        &TableRoll::count(10, 10, |f| f <= 5).expect("valid"),
    );
    // Three chances in ten, which do not reduce: two groups of 5 dice, one trial a draw.
    bench_batch(
        c,
        "10d10_ge8",
        &TableRoll::count(10, 10, |f| f >= 8).expect("valid"),
    );
    let ten_d10 = SuccessPool::new(
        Pool::new(10, Die::D10).expect("valid"),
        Comparison::AtMost(5),
    );
    bench_mechanic(c, "10d10_le5", &ten_d10);
    // A Shapers and Bots challenge: High (2d6 + 2) against an Awesome task (13).
    let challenge = Challenge::new(Level::High, Level::Awesome).expect("valid");
    bench_mechanic(c, "challenge_2d6", &challenge);
    // A Swimclass attack: 6d6 at difficulty 2 against 6d6 blocking, the whole outcome
    // (hits through, criticals, advancement), as dice-swimclass rolls it.
    let rules = Rules::default();
    let attack =
        OpposedRoll::new(SkillDice::new(6), 2, Some(SkillDice::new(6)), rules).expect("valid");
    bench_mechanic(c, "attack_6d6_vs_6d6", &attack);
    // Only the hits that get through: dice-swimclass hands plain dice to dice-core's Blocking.
    bench_mechanic(c, "attack_6d6_vs_6d6_hits", &attack.hits());
}

criterion_group!(benches, sim);
criterion_main!(benches);
