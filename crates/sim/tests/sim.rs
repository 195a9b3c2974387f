//! dice-sim: determinism across threads and machines, interval coverage, the precision stop,
//! progress and cancellation, and agreement with the exact laws of every dice-core primitive.

use std::ops::ControlFlow;

use dice_core::{
    BlockRule, Blocking, Cancellation, Comparison, Die, Exact, Explode, FaceSet, Keep, Pool,
    Streak, SuccessPool, Sum, VersusTarget,
};
use dice_sim::{
    AliasSampler, Ended, Histogram, OddsTable, RunToEnd, Simulation, check_against_exact, compare,
    exact_probability, probability, process_fn,
};

fn ten_d10() -> SuccessPool {
    SuccessPool::new(Pool::new(10, Die::D10).unwrap(), Comparison::AtMost(5))
}

#[test]
fn one_thread_and_two_give_the_same_bits() {
    let m = ten_d10();
    let sim = Simulation::new(99, 1_000_000)
        .unwrap()
        .chunk_size(10_000)
        .unwrap();
    let one = sim.clone().threads(1).unwrap().run(&m);
    let two = sim.clone().threads(2).unwrap().run(&m);
    let default = sim.run(&m);
    assert_eq!(one.histogram(), two.histogram());
    assert_eq!(one.histogram(), default.histogram());
    assert_eq!(one.histogram().sorted(), two.histogram().sorted());
    assert_eq!(one.trials(), 1_000_000);
}

#[test]
fn every_thread_count_gives_the_same_bits_including_mean_and_spread() {
    // 3d100 sums (3–300) go through the hash table, where the order in which outcomes
    // were first seen depends on which thread took which chunk; counts, the mean and the
    // standard deviation must not.
    let m = Sum::new(Pool::new(3, Die::new(100).unwrap()).unwrap(), Keep::All, 0).unwrap();
    let sim = Simulation::new(17, 300_000)
        .unwrap()
        .chunk_size(3_000)
        .unwrap();
    let one = sim.clone().threads(1).unwrap().run(&m);
    for threads in [2, 3, 4] {
        let many = sim.clone().threads(threads).unwrap().run(&m);
        assert_eq!(many.histogram(), one.histogram(), "{threads} threads");
        assert_eq!(
            many.mean().to_bits(),
            one.mean().to_bits(),
            "{threads} threads"
        );
        assert_eq!(
            many.std_dev().to_bits(),
            one.std_dev().to_bits(),
            "{threads} threads"
        );
    }
    // Merged in another order than one run would: the same mean to the bit.
    let chunks = sim.chunks();
    let mut merged = sim.run_chunks(&m, chunks / 2..chunks);
    merged.merge(&sim.run_chunks(&m, 0..chunks / 2));
    let merged = dice_sim::Estimates::from_histogram(merged, 0.95);
    assert_eq!(merged.mean().to_bits(), one.mean().to_bits());
}

#[test]
fn chunk_ranges_merge_into_the_whole_run() {
    let m = Sum::new(Pool::new(3, Die::D6).unwrap(), Keep::All, 0).unwrap();
    let sim = Simulation::new(5, 250_001)
        .unwrap()
        .chunk_size(7_000)
        .unwrap();
    let whole = sim.run(&m);
    let chunks = sim.chunks();
    assert_eq!(chunks, 250_001u64.div_ceil(7_000));
    // Three "machines", merged in a scrambled order.
    let parts = [
        sim.run_chunks(&m, 20..chunks),
        sim.run_chunks(&m, 0..7),
        sim.run_chunks(&m, 7..20),
    ];
    let mut merged = Histogram::new();
    for p in &parts {
        merged.merge(p);
    }
    assert_eq!(&merged, whole.histogram());
    assert_eq!(merged.trials(), 250_001);
}

#[cfg(feature = "serde")]
#[test]
fn histograms_travel_through_serde() {
    let m = Die::D20;
    let sim = Simulation::new(6, 100_000)
        .unwrap()
        .chunk_size(10_000)
        .unwrap();
    let shipped = serde_json::to_string(&sim.run_chunks(&m, 0..5)).unwrap();
    let mut back: Histogram<u32> = serde_json::from_str(&shipped).unwrap();
    back.merge(&sim.run_chunks(&m, 5..10));
    assert_eq!(&back, sim.run(&m).histogram());
}

#[test]
fn different_seeds_differ() {
    let m = ten_d10();
    let a = Simulation::new(1, 100_000).unwrap().run(&m);
    let b = Simulation::new(2, 100_000).unwrap().run(&m);
    assert_ne!(a.histogram(), b.histogram());
}

/// The 95% Wilson interval for P(d6 shows 6) = 1/6 over 1,000 trials, repeated 1,000 times
/// with different seeds, covers 1/6 in 93–97% of the repetitions.
#[test]
fn wilson_intervals_cover_at_their_level() {
    let mut covered = 0;
    for seed in 0..1000u64 {
        let r = Simulation::new(seed, 1_000).unwrap().run(&Die::D6);
        if r.estimate(&6).covers(1.0 / 6.0) {
            covered += 1;
        }
    }
    assert!((930..=970).contains(&covered), "covered {covered} of 1000");
}

#[test]
fn precision_stop_stops_early_and_meets_the_target() {
    let m = Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 0).unwrap();
    let sim = Simulation::new(3, 50_000_000)
        .unwrap()
        .until_precision(0.002)
        .unwrap();
    let r = sim.run(&m);
    assert!(r.widest_half_width() < 0.002);
    assert!(r.trials() < 50_000_000, "ran {}", r.trials());
    // P(7) = 1/6 needs about 1.96² · (1/6)(5/6) / 0.002² ≈ 133,000 trials; rounds are whole
    // chunks, so the run stops within a doubling of that.
    assert!(
        r.trials() >= 133_000 && r.trials() <= 8 * 133_000,
        "{}",
        r.trials()
    );
    // The same on two threads.
    let two = sim.threads(2).unwrap().run(&m);
    assert_eq!(two.histogram(), r.histogram());
}

#[test]
fn progress_is_reported_and_cancellation_stops() {
    let sim = Simulation::new(4, 1_000_000)
        .unwrap()
        .chunk_size(1_000)
        .unwrap();
    let mut seen = Vec::new();
    let r = sim.run_with_progress(&Die::D6, |p| {
        seen.push(p);
        ControlFlow::Continue(())
    });
    assert!(!r.cancelled());
    assert_eq!(seen.last().map(|p| p.done), Some(1_000_000));
    assert!(seen.windows(2).all(|w| w[0].done < w[1].done));
    assert!(seen.iter().all(|p| p.total == 1_000_000));
    let r = sim.run_with_progress(&Die::D6, |_| ControlFlow::Break(()));
    assert!(r.cancelled());
    assert!(r.trials() < 1_000_000);
}

#[test]
fn bad_input_is_an_error() {
    assert!(Simulation::new(1, 0).is_err());
    assert!(Simulation::new(1, u64::MAX).is_err());
    let s = Simulation::new(1, 10).unwrap();
    assert!(s.clone().confidence(1.0).is_err());
    assert!(s.clone().confidence(f64::NAN).is_err());
    assert!(s.clone().until_precision(0.0).is_err());
    assert!(s.clone().chunk_size(0).is_err());
    assert!(s.threads(0).is_err());
}

#[test]
fn numeric_outcomes_have_mean_and_standard_error() {
    let m = Sum::new(Pool::new(3, Die::D6).unwrap(), Keep::All, 0).unwrap();
    let r = Simulation::new(8, 200_000).unwrap().run(&m);
    let exact = m.distribution().unwrap();
    assert!((r.mean() - exact.mean()).abs() < 5.0 * r.standard_error());
    assert!((r.std_dev() - exact.std_dev()).abs() < 0.02);
}

/// Every dice-core primitive with an exact law agrees with 100,000 simulated trials.
#[test]
fn every_core_primitive_agrees_with_its_exact_law() {
    let d6 = || Pool::new(3, Die::D6).unwrap();
    check_against_exact(&Die::D20, 1, 100_000)
        .unwrap()
        .assert_consistent();
    check_against_exact(&Sum::new(d6(), Keep::All, 2).unwrap(), 2, 100_000)
        .unwrap()
        .assert_consistent();
    let four = Pool::new(4, Die::D6).unwrap();
    check_against_exact(&Sum::new(four, Keep::Highest(3), 0).unwrap(), 3, 100_000)
        .unwrap()
        .assert_consistent();
    let exploding = Pool::new(2, Die::D10)
        .unwrap()
        .exploding(Explode::new(Comparison::Exactly(10)))
        .unwrap();
    check_against_exact(
        &Sum::new(exploding.clone(), Keep::All, 0).unwrap(),
        4,
        100_000,
    )
    .unwrap()
    .assert_consistent();
    check_against_exact(
        &SuccessPool::new(exploding, Comparison::AtLeast(8)),
        5,
        100_000,
    )
    .unwrap()
    .assert_consistent();
    let vt = VersusTarget::new(
        Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 2).unwrap(),
        9,
    )
    .unwrap();
    check_against_exact(&vt, 6, 100_000)
        .unwrap()
        .assert_consistent();
    check_against_exact(&ten_d10(), 7, 100_000)
        .unwrap()
        .assert_consistent();
    let fluke = Streak::new(Die::D6, FaceSet::range(4, 6).unwrap(), 0).unwrap();
    check_against_exact(&fluke, 8, 100_000)
        .unwrap()
        .assert_consistent();
    let opposed = Cancellation::new(
        SuccessPool::new(Pool::new(8, Die::D10).unwrap(), Comparison::AtMost(6)),
        Some(SuccessPool::new(
            Pool::new(6, Die::D10).unwrap(),
            Comparison::AtMost(5),
        )),
        1,
    )
    .unwrap();
    check_against_exact(&opposed, 9, 100_000)
        .unwrap()
        .assert_consistent();
    for rule in [BlockRule::AtLeast, BlockRule::Strict] {
        let fight = Blocking::new(
            SuccessPool::new(Pool::new(6, Die::D6).unwrap(), Comparison::AtLeast(2)),
            Pool::new(6, Die::D6).unwrap(),
            rule,
        );
        check_against_exact(&fight, 10, 100_000)
            .unwrap()
            .assert_consistent();
    }
}

#[test]
fn a_wrong_law_is_caught() {
    // Simulate 2d6 but compare with 2d6 + 1: impossible outcomes and a tiny p-value.
    let two = Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 0).unwrap();
    let off = Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 1).unwrap();
    let sim = Simulation::new(1, 10_000).unwrap().run(&two);
    let a = compare(&sim, &off.distribution().unwrap());
    assert!(!a.is_consistent(5.0, 1e-6));
    assert!(!a.impossible.is_empty());
    // A subtly biased law: 4d6 keep 3 against 4d6 keep all but with the same support size
    // would differ wildly; a d6 against a d6 law with 6 slightly favoured is caught too.
    let biased = dice_core::Dist::from_pairs(
        (1..=6u32).map(|f| (f, if f == 6 { 0.19 } else { 0.81 / 5.0 })),
    )
    .unwrap();
    let d6 = Simulation::new(2, 200_000).unwrap().run(&Die::D6);
    let a = compare(&d6, &biased);
    assert!(a.p_value < 1e-6, "{a}");
}

#[test]
fn alias_sampling_reproduces_the_law() {
    let m = Sum::new(Pool::new(10, Die::D6).unwrap(), Keep::Highest(4), 0).unwrap();
    let law = m.distribution().unwrap();
    let fast = AliasSampler::new(&law).unwrap();
    let sim = Simulation::new(11, 200_000).unwrap().run(&fast);
    compare(&sim, &law).assert_consistent();
    // A law with unlisted mass is refused.
    let exploding = Sum::new(
        Pool::new(1, Die::D6)
            .unwrap()
            .exploding(Explode::new(Comparison::Exactly(6)))
            .unwrap(),
        Keep::All,
        0,
    )
    .unwrap();
    let rough = exploding.distribution_within(1e-3).unwrap();
    assert!(AliasSampler::new(&rough).is_err());
    assert!(AliasSampler::new(&exploding.distribution_within(1e-15).unwrap()).is_ok());
}

/// A progress task (3d6 hitting on 4+, 5 successes needed) run round by round: the number
/// of rounds agrees with its exact law, computed here by convolving the per-round
/// success law until the total reaches 5.
#[test]
fn processes_run_to_their_end_or_cap() {
    let roll = SuccessPool::new(Pool::new(3, Die::D6).unwrap(), Comparison::AtLeast(4));
    let per_round = roll.distribution().unwrap();
    let task = process_fn(
        || 0u32,
        |progress: &mut u32, rng| {
            *progress += roll.count(rng);
            (*progress >= 5).then_some("done")
        },
    );
    let cap = 6;
    let run = RunToEnd::new(task, cap).unwrap();
    let sim = Simulation::new(12, 100_000).unwrap();
    let rounds = sim.run(&run.rounds());
    // Exact: distribution of the running total below 5, round by round.
    let mut below = vec![0.0; 5];
    below[0] = 1.0;
    let mut exact = Vec::new();
    for r in 1..=cap {
        let mut next = vec![0.0; 5];
        let mut finished = 0.0;
        for (have, &p) in below.iter().enumerate() {
            for (s, q) in per_round.iter() {
                let total = have + *s as usize;
                if total >= 5 {
                    finished += p * q;
                } else {
                    next[total] += p * q;
                }
            }
        }
        exact.push((Ended::Finished(r), finished));
        below = next;
    }
    exact.push((Ended::Capped, below.iter().sum()));
    let law = dice_core::Dist::from_pairs(exact).unwrap();
    compare(&rounds, &law).assert_consistent();
    assert!(RunToEnd::new(process_fn(|| (), |_: &mut (), _| Some(1u8)), 0).is_err());
}

#[test]
fn odds_tables_are_exact_where_possible() {
    let sim = Simulation::new(1, 20_000).unwrap();
    let table = OddsTable::build(
        "P(at least 2 successes)",
        "dice",
        1..=4u32,
        "TN",
        [3i32, 5, 7],
        |&n, &tn| -> Result<_, dice_sim::SimError> {
            let p = SuccessPool::new(Pool::new(n, Die::D10)?, Comparison::AtMost(tn));
            Ok(probability(&p, |&s| s >= 2, &sim))
        },
    )
    .unwrap();
    assert!(table.cells.iter().flatten().all(|c| c.is_exact()));
    // 2 d10 at TN 5: both succeed, 1/4.
    assert!((table.cells[1][1].value - 0.25).abs() < 1e-15);
    assert_eq!(table.cells[0][0].value, 0.0);
    let md = table.to_markdown();
    assert!(md.contains("| dice \\ TN | 3 | 5 | 7 |"), "{md}");
    let csv = table.to_csv();
    assert_eq!(csv.lines().count(), 5);
    // exact_probability is the same number.
    let two = SuccessPool::new(Pool::new(2, Die::D10).unwrap(), Comparison::AtMost(5));
    assert_eq!(
        exact_probability(&two, |&s| s >= 2).unwrap().value,
        table.cells[1][1].value
    );
}

proptest::proptest! {
    /// The histogram counts exactly what a `BTreeMap` counts, through growth and merges.
    #[test]
    fn histogram_counts_like_a_map(
        a in proptest::collection::vec(-300i64..300, 0..2000),
        b in proptest::collection::vec(-300i64..300, 0..500),
    ) {
        let mut map = std::collections::BTreeMap::new();
        let mut h = Histogram::new();
        for &x in &a {
            h.add(x);
            *map.entry(x).or_insert(0u64) += 1;
        }
        let mut other = Histogram::new();
        for &x in &b {
            other.add(x);
            *map.entry(x).or_insert(0u64) += 1;
        }
        h.merge(&other);
        proptest::prop_assert_eq!(h.trials(), (a.len() + b.len()) as u64);
        proptest::prop_assert_eq!(h.len(), map.len());
        proptest::prop_assert_eq!(h.sorted(), map.into_iter().collect::<Vec<_>>());
        proptest::prop_assert_eq!(&Histogram::from_counts(h.sorted()), &h);
    }
}

/// The histogram is exactly what rolling chunk by chunk with `chunk_rng` and counting gives,
/// for outcomes on both sides of the dense-counting range (3d6 + 58: 61 … 76) and for
/// negative ones.
#[test]
fn histograms_are_the_plain_counts_of_the_chunk_streams() {
    use dice_core::Roll;
    for modifier in [58i64, -10] {
        let m = Sum::new(Pool::new(3, Die::D6).unwrap(), Keep::All, modifier).unwrap();
        let sim = Simulation::new(77, 5_500)
            .unwrap()
            .chunk_size(1_000)
            .unwrap();
        let mut want = std::collections::BTreeMap::new();
        for chunk in 0..sim.chunks() {
            let mut rng = dice_sim::chunk_rng(77, chunk);
            let n = (5_500 - chunk * 1_000).min(1_000);
            for _ in 0..n {
                *want.entry(m.roll(&mut rng)).or_insert(0u64) += 1;
            }
        }
        let got = sim.run(&m);
        assert_eq!(
            got.histogram().sorted(),
            want.into_iter().collect::<Vec<_>>()
        );
    }
}

// ------------------------------------------------------------------ table samplers

/// Chi-square tests made below, for the Bonferroni split of the family's significance.
const TABLE_CHECKS: f64 = 12.0;

fn fits_batch<B>(what: &str, b: &B, law: &dice_core::Dist<B::Outcome>, seed: u64, trials: u64)
where
    B: dice_sim::Batch,
{
    let r = Simulation::new(seed, trials)
        .unwrap()
        .chunk_size(7_919)
        .unwrap()
        .run_batch(b);
    assert_eq!(r.trials(), trials);
    let seen = r.histogram().sorted().into_iter().collect();
    dice_testkit::assert_fits(
        what,
        law,
        &seen,
        dice_testkit::FAMILY_ALPHA / TABLE_CHECKS,
        60,
    );
}

fn fits_rolls<M: dice_core::Roll>(what: &str, m: &M, law: &dice_core::Dist<M::Outcome>, seed: u64) {
    let mut rng = dice_testkit::rng(seed);
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..20_000 {
        *seen.entry(m.roll(&mut rng)).or_insert(0u64) += 1;
    }
    dice_testkit::assert_fits(
        what,
        law,
        &seen,
        dice_testkit::FAMILY_ALPHA / TABLE_CHECKS,
        60,
    );
}

#[test]
fn table_samplers_draw_the_exact_law_of_the_plain_roll() {
    use dice_sim::{ExplodingCount, TableRoll};
    // 4d6kh3: one group, six trials a draw.
    let stat = TableRoll::keep_highest(4, 6, 3).unwrap();
    let law = Sum::new(Pool::new(4, Die::D6).unwrap(), Keep::Highest(3), 0)
        .unwrap()
        .distribution()
        .unwrap();
    fits_batch("4d6kh3 table", &stat, &law, 1, 200_000);
    fits_rolls("4d6kh3 table, one roll at a time", &stat, &law, 2);
    // 10d10 <= 5: one chance in two, so ten coins, one group of 1,024 entries.
    let count = TableRoll::count(10, 10, |f| f <= 5).unwrap();
    let law = ten_d10().distribution().unwrap().map(|&s| i64::from(s));
    fits_batch("10d10<=5 table", &count, &law, 3, 100_000);
    // 10d10 >= 8: two groups of 5 dice a trial, one trial a draw.
    let count = TableRoll::count(10, 10, |f| f >= 8).unwrap();
    let law = SuccessPool::new(Pool::new(10, Die::D10).unwrap(), Comparison::AtLeast(8))
        .distribution()
        .unwrap()
        .map(|&s| i64::from(s));
    fits_batch("10d10>=8 table", &count, &law, 9, 100_000);
    // 7d6 >= 5: seven groups of one die (7 is prime), 24 indices a draw.
    let seven = TableRoll::count(7, 6, |f| f >= 5).unwrap();
    let law = SuccessPool::new(Pool::new(7, Die::D6).unwrap(), Comparison::AtLeast(5))
        .distribution()
        .unwrap()
        .map(|&s| i64::from(s));
    fits_batch("7d6>=5 table", &seven, &law, 4, 50_000);
    // 10d10 exploding on 10, successes on 8+ (the default cap).
    let pool = Pool::new(10, Die::D10)
        .unwrap()
        .exploding(Explode::new(Comparison::Exactly(10)))
        .unwrap();
    let cap = pool.explode().unwrap().cap();
    let law = SuccessPool::new(pool, Comparison::AtLeast(8))
        .distribution()
        .unwrap();
    let fast = ExplodingCount::new(10, 10, |f| f >= 8, |f| f == 10, cap).unwrap();
    fits_batch("10d10!10>=8 table", &fast, &law, 5, 100_000);
    fits_rolls("10d10!10>=8, one roll at a time", &fast, &law, 6);
    // A small cap that shows: 3d4 exploding on 3+, at most 2 extra dice per die, 4s count.
    let pool = Pool::new(3, Die::new(4).unwrap())
        .unwrap()
        .exploding(Explode::new(Comparison::AtLeast(3)).with_cap(2).unwrap())
        .unwrap();
    let law = SuccessPool::new(pool, Comparison::Exactly(4))
        .distribution()
        .unwrap();
    let fast = ExplodingCount::new(3, 4, |f| f == 4, |f| f >= 3, 2).unwrap();
    fits_batch("3d4!>=3 cap 2, ==4", &fast, &law, 7, 50_000);
    fits_rolls("3d4!>=3 cap 2, one roll at a time", &fast, &law, 8);
}

/// A success count's table sampler reduces the share of passing faces (`d10 ≤ 5` is a
/// coin, `d12 ∈ {3, 6, 9, 12}` a d3) and picks its groups by the reduced die: over the whole
/// range of die sizes (2 to 1,000 sides, powers of two and not), shares (none, some, all,
/// scattered faces) and pool sizes (1 to 40 dice, prime and not), the rolled counts fit the
/// exact law of the plain success pool.
#[test]
fn success_count_tables_draw_the_exact_law_across_sides_shares_and_pools() {
    use dice_core::FaceSet;
    use dice_sim::TableRoll;
    let cases: Vec<(u32, u32, Comparison)> = vec![
        (1, 2, Comparison::AtLeast(2)),
        (40, 2, Comparison::AtMost(1)),
        (7, 3, Comparison::AtLeast(2)),
        (12, 6, Comparison::AtLeast(4)),
        (6, 6, Comparison::AtLeast(7)),
        (5, 6, Comparison::AtLeast(1)),
        (13, 10, Comparison::AtMost(5)),
        (
            9,
            12,
            Comparison::OneOf(FaceSet::new([3, 6, 9, 12]).unwrap()),
        ),
        (17, 20, Comparison::AtLeast(16)),
        (3, 20, Comparison::Exactly(20)),
        (31, 64, Comparison::AtMost(48)),
        (4, 100, Comparison::AtMost(50)),
        (11, 100, Comparison::AtLeast(37)),
        (6, 128, Comparison::AtLeast(65)),
        (2, 129, Comparison::AtMost(43)),
        (5, 1000, Comparison::AtLeast(751)),
        (
            3,
            1000,
            Comparison::OneOf(FaceSet::new((1..=125).step_by(5)).unwrap()),
        ),
        (7, 1000, Comparison::AtMost(999)),
    ];
    let checks = cases.len() as f64;
    for (i, (dice, sides, on)) in cases.into_iter().enumerate() {
        let what = format!("{dice}d{sides} {on:?} table");
        let die = Die::new(sides).unwrap();
        let pool = SuccessPool::new(Pool::new(dice, die).unwrap(), on);
        let law = pool.distribution().unwrap().map(|&s| i64::from(s));
        let table = TableRoll::count(dice, sides, |f| on.test(i64::from(f))).unwrap();
        assert!(
            table.entries() <= 1 << 17,
            "{what}: {} entries",
            table.entries()
        );
        let r = Simulation::new(100 + i as u64, 20_000)
            .unwrap()
            .chunk_size(3_001)
            .unwrap()
            .run_batch(&table);
        let seen = r.histogram().sorted().into_iter().collect();
        dice_testkit::assert_fits(&what, &law, &seen, dice_testkit::FAMILY_ALPHA / checks, 60);
    }
}

#[test]
fn table_samplers_are_reproducible_on_any_thread_count_and_shard() {
    let stat = dice_sim::TableRoll::keep_highest(4, 6, 3).unwrap();
    let sim = Simulation::new(17, 300_001)
        .unwrap()
        .chunk_size(10_000)
        .unwrap();
    let one = sim.clone().threads(1).unwrap().run_batch(&stat);
    let two = sim.clone().threads(2).unwrap().run_batch(&stat);
    assert_eq!(one.histogram(), two.histogram());
    let mut merged = Histogram::new();
    for i in 0..3 {
        merged.merge(&sim.run_batch_chunks(&stat, dice_sim::shard_range(sim.chunks(), i, 3)));
    }
    assert_eq!(&merged, one.histogram());
    assert_ne!(
        Simulation::new(18, 300_001)
            .unwrap()
            .run_batch(&stat)
            .histogram(),
        one.histogram()
    );
}

#[test]
fn table_samplers_refuse_bad_shapes() {
    use dice_sim::{ExplodingCount, SimError, TableRoll};
    assert!(matches!(
        TableRoll::keep_highest(3, 6, 4),
        Err(SimError::Table { .. })
    ));
    assert!(matches!(
        TableRoll::new(1, 3, 1, 0, |_| 0),
        Err(SimError::Table { .. })
    ));
    assert!(matches!(
        TableRoll::new(100, 4, 1, 0, |_| 0),
        Err(SimError::Table { .. })
    ));
    // 1d100000 fits a table, but its faces do not fit an entry: refused, not wrapped.
    assert!(matches!(
        TableRoll::keep_highest(1, 100_000, 1),
        Err(SimError::Table { .. })
    ));
    assert!(matches!(
        TableRoll::count(0, 6, |_| true),
        Err(SimError::Table { .. })
    ));
    assert!(matches!(
        ExplodingCount::new(0, 6, |_| true, |_| false, 1),
        Err(SimError::Table { .. })
    ));
}

/// The exploding sampler's three ways through a trial: one word carrying the first dice and
/// a few chain reads (with more chains than it carries, and chains going on past the cap's
/// last full read, one die at a time), and the streams alone when the first dice do not fit
/// one word.
#[test]
fn exploding_counts_take_every_path_to_the_exact_law() {
    use dice_sim::ExplodingCount;
    let law = |dice: u32, sides: u32, on: u32, cap: Option<u32>, success: u32| {
        let mut explode = Explode::new(Comparison::AtLeast(on as i32));
        if let Some(cap) = cap {
            explode = explode.with_cap(cap).unwrap();
        }
        let pool = Pool::new(dice, Die::new(sides).unwrap())
            .unwrap()
            .exploding(explode)
            .unwrap();
        let cap = pool.explode().unwrap().cap();
        let exact = SuccessPool::new(pool, Comparison::AtLeast(success as i32))
            .distribution()
            .unwrap();
        let fast = ExplodingCount::new(dice, sides, |f| f >= success, |f| f >= on, cap).unwrap();
        (fast, exact)
    };
    // Half the dice explode: often more chains than one word carries.
    let (fast, exact) = law(12, 6, 4, None, 5);
    fits_batch("12d6!>=4 >=5", &fast, &exact, 21, 60_000);
    // A cap of 5 with chain reads of 4 dice: the fifth extra die is read alone.
    let (fast, exact) = law(6, 6, 4, Some(5), 4);
    fits_batch("6d6!>=4cap5 >=4", &fast, &exact, 22, 60_000);
    // 40 first dice in 8 groups of 5: 10^40 combinations, no word; the streams alone.
    let (fast, exact) = law(40, 10, 10, None, 8);
    fits_batch("40d10!10 >=8", &fast, &exact, 23, 30_000);
}
