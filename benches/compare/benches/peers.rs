//! Side-by-side criterion benches: the same workloads through dicepool and through the
//! published Rust dice crates a user would otherwise pick — `tyche` (fastest roller), `caith`
//! (success counting) and `xdy` (exact distributions). The table, the machine it ran on and
//! the reasons behind every ratio are in `docs/performance.md`.
//!
//! Each workload is one criterion group `peers/<workload>`, with one function per library, so
//! `benches/peers/table.py` can pair them:
//!
//! - `dicepool`: dice-core used directly (`Die`, `Sum` with `Keep`, `SuccessPool`,
//!   `Exact::distribution`);
//! - `dicepool-notation`: dice-notation's `Expression`, parsed once outside the timed loop,
//!   rolled value-only with `dice_core::Roll::roll`, or asked `distribution()`;
//! - `tyche`: a `tyche::Dice` parsed once, rolled with tyche's own `FastRand` roller (fastrand's
//!   wyrand, seeded), then `total()`; `tyche-xoshiro` rolls the same `Dice` through a `Roller`
//!   written here over the seeded Xoshiro256++ that dicepool uses, to separate tyche's code
//!   from its cheaper generator;
//! - `caith`: a `caith::Roller`, which stores the text and parses it with pest **on every
//!   roll** (its API has no way to keep the parse), rolled with `Roller::roll`, i.e. rand 0.8's
//!   `thread_rng()`: caith's `roll_with` takes a rand 0.8 generator, which this package cannot
//!   name without another dependency, and the generator's cost is a few nanoseconds against
//!   microseconds of parsing;
//! - `xdy`: an `Evaluator` compiled (and optimized) once; rolls call `evaluate` with the same
//!   seeded Xoshiro256++ (xdy takes a rand 0.10 `Rng`), exact queries call
//!   `plan_distribution` then `build` with an unlimited budget (exact big-integer weights).
//!
//! Every roll bench rolls with a generator that lives across iterations. At setup, each
//! peer's exact distribution is checked against dicepool's (same support, probabilities equal
//! within 1e-12), and each roll's value against its bounds, so no column times a different
//! question.
//!
//! This package (benches/compare) is outside the workspace, so that only this comparison
//! builds the peer libraries. Run it from the repository's root with
//! `cargo bench --manifest-path benches/compare/Cargo.toml --target-dir target --bench peers`;
//! for the first table in the doc, add `-- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};
use dice_core::{Comparison, Die, Exact, Explode, Keep, Pool, Roll, SuccessPool, Sum};
use dice_notation::{Expression, Outcome};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// The seed every bench starts from.
const SEED: u64 = 0x5EED_D1CE;

fn rng() -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(SEED)
}

fn pool(count: u32, die: Die) -> Pool {
    Pool::new(count, die).expect("valid")
}

/// 10d10, a natural 10 adding a die (untruncated).
fn ten_d10_exploding() -> Pool {
    pool(10, Die::D10)
        .exploding(Explode::new(Comparison::Exactly(10)))
        .expect("valid")
}

fn sum(p: Pool, keep: Keep) -> Sum {
    Sum::new(p, keep, 0).expect("valid")
}

fn notation(text: &str) -> Expression {
    Expression::parse(text).expect("valid notation")
}

/// A tyche `Roller` over the seeded Xoshiro256++ that dicepool's benches roll with.
struct XoshiroRoller(Xoshiro256PlusPlus);

impl tyche::dice::Roller for XoshiroRoller {
    fn roll_die(&mut self, sides: u8) -> tyche::dice::DieRoll {
        tyche::dice::DieRoll::new(self.0.random_range(1..=sides))
    }
}

fn tyche_dice(text: &str) -> tyche::Dice {
    text.parse().expect("valid tyche dice")
}

fn xdy_evaluator(text: &str) -> xdy::Evaluator {
    xdy::Evaluator::new(xdy::compile(text).expect("valid xdy expression"))
}

/// Rolls a value within `lo..=hi` through every library given, checked once at setup.
struct RollWorkload<'a> {
    name: &'a str,
    lo: i64,
    hi: i64,
    /// dice-core's mechanic, timed through `Roll::roll` and widened to `i64`.
    dicepool: &'a dyn Fn(&mut Xoshiro256PlusPlus) -> i64,
    notation: &'a str,
    tyche: Option<&'a str>,
    caith: Option<&'a str>,
    xdy: Option<&'a str>,
}

fn number(outcome: Outcome) -> i64 {
    match outcome {
        Outcome::Number(n) => n,
        Outcome::Versus(_) => unreachable!("no workload compares"),
        Outcome::Fraction(_) => unreachable!("no workload divides exactly"),
    }
}

fn bench_roll(c: &mut Criterion, w: &RollWorkload) {
    let mut g = c.benchmark_group(format!("peers/{}", w.name));
    let within = |v: i64, who: &str| {
        assert!(
            (w.lo..=w.hi).contains(&v),
            "{who} rolled {v} for {}, outside {}..={}",
            w.name,
            w.lo,
            w.hi
        );
    };

    let mut r = rng();
    within((w.dicepool)(&mut r), "dicepool");
    g.bench_function("dicepool", |b| b.iter(|| (w.dicepool)(&mut r)));

    let expression = notation(w.notation);
    let mut r = rng();
    within(number(Roll::roll(&expression, &mut r)), "dicepool-notation");
    g.bench_function("dicepool-notation", |b| {
        b.iter(|| Roll::roll(black_box(&expression), &mut r))
    });

    if let Some(text) = w.tyche {
        use tyche::dice::Roller;
        let dice = tyche_dice(text);
        let mut roller = tyche::dice::roller::FastRand::with_seed(SEED);
        let total = roller
            .roll(&dice, true)
            .expect("rolls")
            .total()
            .expect("fits");
        within(i64::from(total), "tyche");
        g.bench_function("tyche", |b| {
            b.iter(|| {
                roller
                    .roll(black_box(&dice), true)
                    .expect("rolls")
                    .total()
                    .expect("fits")
            })
        });
        let mut roller = XoshiroRoller(rng());
        g.bench_function("tyche-xoshiro", |b| {
            b.iter(|| {
                roller
                    .roll(black_box(&dice), true)
                    .expect("rolls")
                    .total()
                    .expect("fits")
            })
        });
    }

    if let Some(text) = w.caith {
        let roller = caith::Roller::new(text).expect("valid caith");
        let total = |r: &caith::Roller| -> i64 {
            r.roll()
                .expect("rolls")
                .as_single()
                .expect("a single roll")
                .get_total()
        };
        within(total(&roller), "caith");
        g.bench_function("caith", |b| b.iter(|| total(black_box(&roller))));
    }

    if let Some(text) = w.xdy {
        let mut evaluator = xdy_evaluator(text);
        let mut r = rng();
        let v = evaluator.evaluate([], &mut r).expect("evaluates").result;
        within(i64::from(v), "xdy");
        g.bench_function("xdy", |b| {
            b.iter(|| evaluator.evaluate([], &mut r).expect("evaluates").result)
        });
    }

    g.finish();
}

fn rolls(c: &mut Criterion) {
    let d20 = Die::D20;
    bench_roll(
        c,
        &RollWorkload {
            name: "roll_1d20",
            lo: 1,
            hi: 20,
            dicepool: &|r| i64::from(black_box(&d20).roll(r)),
            notation: "1d20",
            tyche: Some("1d20"),
            caith: Some("1d20"),
            xdy: Some("1D20"),
        },
    );

    let stat = sum(pool(4, Die::D6), Keep::Highest(3));
    bench_roll(
        c,
        &RollWorkload {
            name: "roll_4d6_keep_3",
            lo: 3,
            hi: 18,
            dicepool: &|r| black_box(&stat).roll(r),
            notation: "4d6kh3",
            tyche: Some("4d6kh3"),
            caith: Some("4d6 K3"),
            xdy: Some("4D6 drop lowest 1"),
        },
    );

    // In effect untruncated in all three: dicepool's default cap (100 extra rolls per die, a
    // 10⁻¹⁰⁰ chance) is never met, tyche has none, caith 4.2.4's `ie` loops while a die
    // qualifies. xdy cannot explode.
    let exploding = sum(ten_d10_exploding(), Keep::All);
    bench_roll(
        c,
        &RollWorkload {
            name: "roll_10d10_explode_10",
            lo: 10,
            hi: i64::MAX,
            dicepool: &|r| black_box(&exploding).roll(r),
            notation: "10d10!",
            tyche: Some("10d10x"),
            caith: Some("10d10 ie10"),
            xdy: None,
        },
    );

    // Only caith counts successes (and counts the dice the explosions add).
    let successes = SuccessPool::new(ten_d10_exploding(), Comparison::AtLeast(8));
    bench_roll(
        c,
        &RollWorkload {
            name: "roll_10d10_explode_10_count_ge8",
            lo: 0,
            hi: i64::MAX,
            dicepool: &|r| i64::from(black_box(&successes).roll(r)),
            notation: "10d10!10>=8",
            tyche: None,
            caith: Some("10d10 ie10 t8"),
            xdy: None,
        },
    );
}

/// Checks that `theirs` (outcome → probability) lists exactly `ours`.
fn same_law(who: &str, workload: &str, ours: &dice_core::Dist<i64>, theirs: &[(i64, f64)]) {
    assert_eq!(ours.len(), theirs.len(), "{who}: support of {workload}");
    for ((o, p), (t, q)) in ours.iter().zip(theirs) {
        assert_eq!(o, t, "{who}: outcomes of {workload}");
        assert!(
            (p - q).abs() <= 1e-12 * p.max(*q).max(1e-300),
            "{who}: P({o}) of {workload} is {q}, dicepool says {p}"
        );
    }
}

fn bench_exact(
    g: &mut BenchmarkGroup<WallTime>,
    workload: &str,
    ours: &Sum,
    text: &str,
    xdy: Option<&str>,
) {
    let law = ours.distribution().expect("exact");
    g.bench_function("dicepool", |b| b.iter(|| black_box(ours).distribution()));

    let expression = notation(text);
    let listed: Vec<(i64, f64)> = expression
        .distribution()
        .expect("exact")
        .iter()
        .map(|(o, p)| (number(*o), p))
        .collect();
    same_law("dicepool-notation", workload, &law, &listed);
    g.bench_function("dicepool-notation", |b| {
        b.iter(|| black_box(&expression).distribution())
    });

    let Some(xdy) = xdy else {
        return;
    };
    let evaluator = xdy_evaluator(xdy);
    let build = |e: &xdy::Evaluator| {
        e.plan_distribution([])
            .expect("plans")
            .build(xdy::Budget::UNLIMITED, &xdy::Unobserved)
            .expect("builds")
    };
    let listed: Vec<(i64, f64)> = build(&evaluator)
        .to_f64()
        .into_iter()
        .map(|(o, p)| (i64::from(o), p))
        .collect();
    same_law("xdy", workload, &law, &listed);
    g.bench_function("xdy", |b| b.iter(|| build(black_box(&evaluator))));
}

fn exact(c: &mut Criterion) {
    let cases = [
        (
            "exact_100d6",
            sum(pool(100, Die::D6), Keep::All),
            "100d6",
            Some("100D6"),
        ),
        (
            "exact_20d10_drop_lowest_10",
            sum(pool(20, Die::D10), Keep::DropLowest(10)),
            "20d10dl10",
            Some("20D10 drop lowest 10"),
        ),
        (
            "exact_100d6_drop_lowest_10",
            sum(pool(100, Die::D6), Keep::DropLowest(10)),
            "100d6dl10",
            Some("100D6 drop lowest 10"),
        ),
        // Where icepool with its cache warm was ahead (issue 20). xdy's big-integer order
        // statistics take minutes here: left out.
        (
            "exact_100d100_keep_highest_50",
            sum(pool(100, Die::D100), Keep::Highest(50)),
            "100d100kh50",
            None,
        ),
    ];
    for (workload, ours, text, xdy) in &cases {
        let mut g = c.benchmark_group(format!("peers/{workload}"));
        g.sample_size(10);
        bench_exact(&mut g, workload, ours, text, *xdy);
        g.finish();
    }
    // Die-against-die blocking: dice-core's `Blocking` (no peer but icepool expresses it; its
    // side is in benches/peers/icepool_bench.py).
    let mut g = c.benchmark_group("peers/exact_blocking_40v40_d6");
    g.sample_size(10);
    let fight = dice_core::Blocking::new(
        dice_core::SuccessPool::new(pool(40, Die::D6), dice_core::Comparison::AtLeast(1)),
        pool(40, Die::D6),
        dice_core::BlockRule::AtLeast,
    );
    g.bench_function("dicepool", |b| b.iter(|| black_box(&fight).distribution()));
    g.finish();
}

criterion_group!(benches, rolls, exact);
criterion_main!(benches);
