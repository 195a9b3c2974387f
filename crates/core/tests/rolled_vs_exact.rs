//! Rolled against exact, systematically: for every dice-core mechanic that can be both rolled
//! and asked its exact law, proptest draws the mechanic from the **whole** allowed range of its
//! parameters (die sizes 2..=MAX_SIDES with the edges 2, 127–130, 255–257, 999, MAX_SIDES drawn
//! often; pool sizes up to MAX_DICE where affordable; thresholds and face sets across the whole
//! die; explosion and streak caps), rolls it with a seeded RNG and compares the frequencies with
//! the exact law by a chi-square goodness-of-fit test (`dice_testkit::assert_fits`: cells of at
//! least 5 expected rolls, narrower in the tails so that explosion and streak caps show, after
//! checking that no roll falls outside the law's support).
//!
//! Every law is also checked for soundness: listed probabilities in (0, 1], outcomes strictly
//! increasing, probabilities plus `tail` summing to 1; and in tests of their own (cheap, no
//! rolling, so that they do not hide the statistical failures), `tail` exactly 0 for finite
//! laws (no explosion, or one with an explicit cap; streaks with an explicit cap; plain sums,
//! counts, cancellations, blocking, roll-off orders).
//!
//! Significance: the p-value of each test must be at least `FAMILY_ALPHA / CHECKS` (1e-6
//! Bonferroni-divided by the number of chi-square tests in this file), so a correct
//! implementation fails this file by chance with probability below 1e-6. The proptest seed and
//! the roll seeds are fixed (each case's roll seed is a hash of the case), so a run is
//! reproducible: green stays green.
//!
//! Cases whose exact law is refused (`TooComplex`, `Unsupported`) or whose exact law would be
//! slow to compute (estimated before asking) are skipped with `prop_assume!`, so proptest draws
//! another case in their place.

use std::collections::BTreeMap;
use std::fmt::Debug;

use dice_core::{
    BlockRule, Blocking, Cancellation, Comparison, Die, Dist, Exact, Explode, FaceSet, Keep,
    MAX_DICE, MAX_EXPLOSION_CAP, MAX_MODIFIER, MAX_SET_FACE, MAX_SIDES, MIN_SIDES, Pool, Roll,
    RollDetailed, Source, Streak, SuccessPool, Sum, VersusTarget, fair_roll_off_orders,
    rank_with_roll_offs,
};
use dice_testkit::{FAMILY_ALPHA, assert_fits, rng};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

// ---------------------------------------------------------------------------------------------
// Budget and significance
// ---------------------------------------------------------------------------------------------

/// Proptest cases per test, and chi-square tests per case.
const DIE_CASES: u32 = 24;
const SUM_CASES: u32 = 32;
const EXPLODING_SUM_CASES: u32 = 40;
const VERSUS_CASES: u32 = 16;
const ADDITIONAL_KEEP_CASES: u32 = 16;
const SUCCESS_CASES: u32 = 40;
const EXPLODING_SUCCESS_CASES: u32 = 32;
const STREAK_CASES: u32 = 40;
const CANCELLATION_CASES: u32 = 16;
const BLOCKING_CASES: u32 = 16;
const ROLL_OFF_CASES: u32 = 12;
const KEEP_AMONG_ADDED_CASES: u32 = 16;
const UNIQUE_CASES: u32 = 16;
const PENETRATING_CASES: u32 = 16;

/// Chi-square tests in this file, at most: the Bonferroni divisor.
const CHECKS: u32 = DIE_CASES
    + SUM_CASES * 2
    + EXPLODING_SUM_CASES * 2
    + VERSUS_CASES
    + ADDITIONAL_KEEP_CASES
    + SUCCESS_CASES * 4
    + EXPLODING_SUCCESS_CASES * 3
    + STREAK_CASES * 2
    + CANCELLATION_CASES
    + BLOCKING_CASES
    + ROLL_OFF_CASES
    + KEEP_AMONG_ADDED_CASES * 2
    + UNIQUE_CASES * 2
    + PENETRATING_CASES * 2;

/// The significance level of each chi-square test.
fn alpha() -> f64 {
    FAMILY_ALPHA / f64::from(CHECKS)
}

/// Cells of the chi-square test in the body of a law (the tails get narrower ones).
const MAX_CELLS: usize = 100;

/// Dice (faces drawn) one case may roll in all: the time budget of a case.
const DICE_BUDGET: f64 = 4e6;

/// Rolls per case: as many as the budget allows for `dice_per_roll`, within 2,000..=100,000.
fn rolls_for(dice_per_roll: f64) -> u64 {
    (DICE_BUDGET / dice_per_roll.max(1.0)).clamp(2_000.0, 100_000.0) as u64
}

/// A limit on the estimated steps of an exact law this file asks for (about 0.1–0.5 s).
const EXACT_BUDGET: f64 = 3e8;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x5eed_d1ce),
        failure_persistence: None,
        max_shrink_iters: 256,
        max_shrink_time: 120_000,
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    }
}

/// A roll seed that depends on the whole case: FNV-1a of its `Debug` form (stable across
/// toolchains, unlike `DefaultHasher`).
fn seed_of(case: &impl Debug) -> u64 {
    format!("{case:?}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/// The law is sound: probabilities in (0, 1], outcomes strictly increasing, total 1 with the
/// tail, tail in [0, 1].
fn sound<O: Ord + Clone + Debug>(what: &str, law: &Dist<O>) {
    assert!(!law.is_empty(), "{what}: the law lists nothing");
    for &p in law.probabilities() {
        assert!(
            p > 0.0 && p <= 1.0 + 1e-12,
            "{what}: listed probability {p:e}"
        );
    }
    for w in law.outcomes().windows(2) {
        assert!(w[0] < w[1], "{what}: outcomes not increasing: {w:?}");
    }
    let tail = law.tail();
    assert!((0.0..=1.0).contains(&tail), "{what}: tail {tail:e}");
    let total = law.total();
    assert!(
        (total - 1.0).abs() <= 1e-9,
        "{what}: probabilities plus tail sum to {total} (tail {tail:e})"
    );
}

/// A finite law (no explosion or streak without an explicit cap) has a tail of exactly 0.
/// Checked in tests of its own (`*_have_no_tail`), so that a failure here does not hide the
/// rolled-against-exact failures.
fn no_tail<O: Ord + Clone + Debug>(what: &str, law: &Dist<O>) {
    assert_eq!(
        law.tail(),
        0.0,
        "{what}: a finite law has a tail of exactly 0 (lists {} outcomes from {:?} to {:?})",
        law.len(),
        law.outcomes().first(),
        law.outcomes().last()
    );
}

/// Counts `n` outcomes of `roll`.
fn rolled<O: Ord>(n: u64, mut roll: impl FnMut() -> O) -> BTreeMap<O, u64> {
    dice_testkit::histogram(n, &mut roll)
}

/// The exact law, or the case is skipped when the law is refused (too complex, unsupported).
fn law_or_skip<O>(what: &str, law: Result<Dist<O>, dice_core::Error>) -> Option<Dist<O>> {
    match law {
        Ok(d) => Some(d),
        Err(dice_core::Error::TooComplex { .. } | dice_core::Error::Unsupported { .. }) => None,
        Err(e) => panic!("{what}: the exact law fails: {e}"),
    }
}

/// Times a closure, to flag cases that blow the budget (printed with `--nocapture`).
fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = std::time::Instant::now();
    let r = f();
    let s = t.elapsed().as_secs_f64();
    if s > 0.5 {
        eprintln!("slow ({s:.2} s): {what}");
    }
    r
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

/// Die sizes that border a representation limit: a 7-bit digit, a 128-bit mask, a byte, the
/// ends of the range.
const EDGE_SIDES: [u32; 16] = [
    2, 3, 6, 10, 20, 64, 100, 127, 128, 129, 130, 255, 256, 257, 999, 1000,
];

/// A die size from the whole range, edges often.
fn sides() -> impl Strategy<Value = u32> {
    let edges: Vec<u32> = EDGE_SIDES
        .iter()
        .copied()
        .filter(|s| (MIN_SIDES..=MAX_SIDES).contains(s))
        .chain([MIN_SIDES, MAX_SIDES])
        .collect();
    prop_oneof![
        1 => proptest::sample::select(edges),
        1 => MIN_SIDES..=MAX_SIDES,
    ]
}

/// A threshold for a die of `s` sides: anywhere from below the lowest face to above the
/// highest, the ends and the 128-face boundary often.
fn threshold(s: u32) -> impl Strategy<Value = i32> {
    let s = s as i32;
    let edges: Vec<i32> = vec![-1, 0, 1, 2, 3, s - 2, s - 1, s, s + 1, 127, 128, 129, 130];
    prop_oneof![
        1 => proptest::sample::select(edges),
        2 => -1..=s + 1,
    ]
}

/// A face for a face set on a die of `s` sides: on the die mostly, above it sometimes, up to
/// `MAX_SET_FACE`; the edges (1, s, 127–130, 255–257, the limit) often.
fn set_face(s: u32) -> impl Strategy<Value = u32> {
    let top = MAX_SET_FACE;
    let edges: Vec<u32> = [
        1,
        2,
        s - 1,
        s,
        s + 1,
        127,
        128,
        129,
        130,
        255,
        256,
        257,
        top,
    ]
    .into_iter()
    .filter(|&f| (1..=top).contains(&f))
    .collect();
    let on_die = s.min(top);
    prop_oneof![
        2 => proptest::sample::select(edges),
        3 => 1..=on_die,
        1 => 1..=top,
    ]
}

/// A face set for a die of `s` sides: a few faces, or a whole run of them (up to every face
/// the set can hold).
fn face_set(s: u32) -> impl Strategy<Value = FaceSet> {
    prop_oneof![
        3 => proptest::collection::vec(set_face(s), 1..=6)
            .prop_map(|v| FaceSet::new(v).expect("faces within MAX_SET_FACE")),
        1 => (set_face(s), set_face(s)).prop_map(|(a, b)| {
            FaceSet::range(a.min(b), a.max(b)).expect("faces within MAX_SET_FACE")
        }),
    ]
}

/// Any comparison for a die of `s` sides.
fn comparison(s: u32) -> impl Strategy<Value = Comparison> {
    prop_oneof![
        1 => threshold(s).prop_map(Comparison::AtLeast),
        1 => threshold(s).prop_map(Comparison::AtMost),
        1 => threshold(s).prop_map(Comparison::Above),
        1 => threshold(s).prop_map(Comparison::Below),
        1 => threshold(s).prop_map(Comparison::Exactly),
        2 => face_set(s).prop_map(Comparison::OneOf),
    ]
}

/// A pool size: small mostly, the whole range sometimes.
fn dice_count() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => 1u32..=12,
        1 => proptest::sample::select(vec![1u32, 2, 50, 100, 1000, MAX_DICE]),
        1 => 1u32..=MAX_DICE,
    ]
}

/// A modifier or target from the whole allowed range, small ones often.
fn modifier() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => -20i64..=20,
        1 => proptest::sample::select(vec![-MAX_MODIFIER, MAX_MODIFIER]),
        1 => -MAX_MODIFIER..=MAX_MODIFIER,
    ]
}

/// A keep/drop rule for `n` dice, `k` anywhere in `0..=n`.
fn keep(n: u32) -> impl Strategy<Value = Keep> {
    let k = prop_oneof![
        proptest::sample::select(vec![0, 1, n.saturating_sub(1), n]),
        0..=n,
    ];
    (0u8..5, k).prop_map(|(which, k)| match which {
        0 => Keep::All,
        1 => Keep::Highest(k),
        2 => Keep::Lowest(k),
        3 => Keep::DropHighest(k),
        _ => Keep::DropLowest(k),
    })
}

/// An explosion cap: the default, or an explicit one from the whole range (small often).
fn cap() -> impl Strategy<Value = Option<u32>> {
    prop_oneof![
        2 => Just(None),
        1 => (1u32..=5).prop_map(Some),
        1 => proptest::sample::select(vec![1, 99, 100, 101, MAX_EXPLOSION_CAP]).prop_map(Some),
        1 => (1u32..=MAX_EXPLOSION_CAP).prop_map(Some),
    ]
}

/// What makes a die of `s` sides explode: mostly "≥ t" with `t` near the bottom (chains long
/// enough for the default cap of 100 extra dice to matter) or any comparison.
fn explode_on(s: u32) -> impl Strategy<Value = Comparison> {
    prop_oneof![
        1 => (2i32..=4).prop_map(Comparison::AtLeast),
        // A likely explosion, going on with chance 0.9 to 0.999 ("≥ 2" on a d20).
        2 => (0.9f64..0.999).prop_map(move |p| {
            Comparison::AtLeast(((f64::from(s) * (1.0 - p)).round() as i32 + 1).max(2))
        }),
        1 => Just(Comparison::Exactly(s as i32)),
        2 => comparison(s),
    ]
}

/// A die size for exploding dice: the whole range, small dice (whose long chains are
/// affordable to compute exactly) often.
fn exploding_sides() -> impl Strategy<Value = u32> {
    prop_oneof![
        1 => sides(),
        1 => MIN_SIDES..=64,
    ]
}

/// The dice of a pool: one to three parts `(count, sides)`.
fn parts(max_parts: usize) -> impl Strategy<Value = Vec<(u32, u32)>> {
    proptest::collection::vec((dice_count(), sides()), 1..=max_parts)
}

fn build_pool(parts: &[(u32, u32)]) -> Option<Pool> {
    let mut pool = Pool::empty();
    for (i, &(count, s)) in parts.iter().enumerate() {
        let source = if i == 0 {
            Source::Primary
        } else {
            Source::Other(i as u8)
        };
        pool = pool.with_dice(count, Die::new(s).unwrap(), source).ok()?;
    }
    Some(pool)
}

fn explode(on: Comparison, compound: bool, cap: Option<u32>) -> Explode {
    let e = if compound {
        Explode::compounding(on)
    } else {
        Explode::new(on)
    };
    match cap {
        Some(c) => e.with_cap(c).unwrap(),
        None => e,
    }
}

// ---------------------------------------------------------------------------------------------
// Cost estimates (so that no case computes an exact law for seconds)
// ---------------------------------------------------------------------------------------------

/// Chance that a die of `s` sides explodes on `on`.
fn explode_chance(on: Comparison, s: u32) -> f64 {
    f64::from(on.faces_passing(s)) / f64::from(s)
}

/// Extra dice per original die before the unlisted mass is below 1e-16 (the untruncated law)
/// or the explicit cap.
fn chain_len(p: f64, cap: Option<u32>) -> f64 {
    match cap {
        Some(c) => f64::from(c),
        None if p <= 0.0 => 0.0,
        None if p >= 1.0 => f64::INFINITY,
        None => (1e-16f64).ln() / p.ln(),
    }
}

/// Expected dice per roll of `count` dice exploding with chance `p`, at most `cap` extra dice
/// each (no cap: the untruncated chain).
fn dice_per_roll(count: u32, p: f64, cap: Option<u32>) -> f64 {
    let chain = match cap {
        Some(c) if p >= 1.0 => f64::from(c) + 1.0,
        Some(c) => (1.0 - p.powf(f64::from(c) + 1.0)) / (1.0 - p),
        None if p >= 1.0 => f64::INFINITY,
        None => 1.0 / (1.0 - p),
    };
    f64::from(count) * chain
}

/// Values listed for one exploding die's law (dice-core's `value_law`): the whole capped law,
/// or the untruncated one up to where its tail is below about 1e-16.
fn value_law_len(s: u32, on: Comparison, cap: Option<u32>) -> f64 {
    let p = explode_chance(on, s);
    let sf = f64::from(s);
    if p <= 0.0 {
        return sf;
    }
    let passing: Vec<u32> = (1..=s).filter(|&f| on.test(i64::from(f))).collect();
    let mean = passing.iter().map(|&f| f64::from(f)).sum::<f64>() / passing.len() as f64;
    match cap {
        Some(c) if p >= 1.0 || p.powf(f64::from(c)) > 1e-300 => (f64::from(c) + 1.0) * sf,
        _ => chain_len(p, None) * mean + sf,
    }
}

/// Estimated steps of the law of one exploding die's value: the capped recursion
/// (cap² · s · exploding faces) when an explicit cap can matter, else the untruncated one
/// (values listed · s).
fn value_law_cost(s: u32, on: Comparison, cap: Option<u32>) -> f64 {
    let p = explode_chance(on, s);
    let sf = f64::from(s);
    let ne = f64::from(on.faces_passing(s));
    match cap {
        Some(c) if p >= 1.0 || p.powf(f64::from(c)) > 1e-300 => {
            f64::from(c) * f64::from(c) * sf * ne
        }
        _ => value_law_len(s, on, cap) * sf,
    }
}

/// Estimated steps of a convolution power of `n` copies of a law listing `len` values.
fn power_cost(n: u32, len: f64) -> f64 {
    if n <= 1 {
        return len;
    }
    let total = (f64::from(n) * len).max(16.0).log2().ceil().exp2();
    total * total * 4.0 * (f64::from(n).log2() + 2.0)
}

// ---------------------------------------------------------------------------------------------
// Die
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(DIE_CASES))]

    /// One die of any size: uniform on its faces.
    #[test]
    fn die_rolls_fit_its_law(s in sides()) {
        let die = Die::new(s).unwrap();
        let law = die.distribution().unwrap();
        let what = format!("d{s}");
        sound(&what, &law);
        prop_assert_eq!(law.len(), s as usize);
        let mut r = rng(seed_of(&what));
        let seen = rolled(rolls_for(1.0).max(20 * u64::from(s)), || die.roll(&mut r));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// Sum (plain dice, keep/drop, modifier) and VersusTarget
// ---------------------------------------------------------------------------------------------

fn plain_sum_case() -> impl Strategy<Value = (Vec<(u32, u32)>, Keep, i64)> {
    parts(3).prop_flat_map(|parts| {
        let n: u32 = parts.iter().map(|p| p.0).sum();
        (Just(parts), keep(n), modifier())
    })
}

/// Estimated steps of the exact law of a plain sum.
fn plain_sum_cost(parts: &[(u32, u32)], keep: Keep) -> f64 {
    let n: u32 = parts.iter().map(|p| p.0).sum();
    let (_, k) = keep.as_top(n);
    if k == n {
        // Convolutions: Σ count · (running length).
        let mut len = 1.0;
        let mut work = 0.0;
        for &(c, s) in parts {
            len += f64::from(c) * f64::from(s);
            work += len * f64::from(c);
        }
        work
    } else {
        let s = f64::from(parts[0].1);
        let k = f64::from(k);
        s * s * k * k * k / 6.0 + s * f64::from(n) * k
    }
}

proptest! {
    #![proptest_config(config(SUM_CASES))]

    /// Totals of plain dice (one to three sizes), any keep/drop, any modifier: both rolling
    /// paths (the plain roll and the record).
    #[test]
    fn sum_rolls_fit_its_law((parts, keep, modifier) in plain_sum_case()) {
        let what = format!("Sum {parts:?} {keep:?} {modifier:+}");
        let pool = build_pool(&parts);
        prop_assume!(pool.is_some());
        let sum = Sum::new(pool.unwrap(), keep, modifier);
        prop_assume!(sum.is_ok());
        let sum = sum.unwrap();
        prop_assume!(plain_sum_cost(&parts, keep) <= EXACT_BUDGET);
        let law = timed(&what, || law_or_skip(&what, sum.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        let dice = f64::from(sum.pool().count());
        let n = rolls_for(dice);
        let mut r = rng(seed_of(&what));
        let seen = timed(&what, || rolled(n, || sum.roll(&mut r)));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
        let mut record = dice_core::RollRecord::new();
        let seen = rolled(n / 2, || {
            sum.roll_record_into(&mut r, &mut record);
            record.total
        });
        assert_fits(&format!("{what} (record)"), &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// Sum with explosions
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct ExplodingSum {
    count: u32,
    sides: u32,
    on: Comparison,
    compound: bool,
    cap: Option<u32>,
    keep: Keep,
    modifier: i64,
}

fn exploding_sum_case() -> impl Strategy<Value = ExplodingSum> {
    (
        prop_oneof![4 => 1u32..=6, 1 => 1u32..=MAX_DICE],
        exploding_sides(),
        any::<bool>(),
        cap(),
        -20i64..=20,
    )
        .prop_flat_map(|(count, sides, compound, cap, modifier)| {
            // Keep/drop on compounding dice only here: with additional explosions it keeps
            // among the added dice too, checked in `keep_among_added_dice_rolls_fit_its_law`
            // and, for rules that keep as many dice as the pool holds,
            // `additional_explosions_with_keep_rolls_fit_its_law`.
            let keep = if compound {
                keep(count).boxed()
            } else {
                Just(Keep::All).boxed()
            };
            (explode_on(sides), keep).prop_map(move |(on, keep)| ExplodingSum {
                count,
                sides,
                on,
                compound,
                cap,
                keep,
                modifier,
            })
        })
}

/// Additional explosions with a keep/drop rule that keeps as many dice as the pool holds
/// (`Highest(n)`, `Lowest(n)`, `DropHighest(0)`, `DropLowest(0)`).
fn additional_keep_case() -> impl Strategy<Value = ExplodingSum> {
    (1u32..=6, exploding_sides(), cap(), -20i64..=20, 0u8..4).prop_flat_map(
        |(count, sides, cap, modifier, which)| {
            let keep = match which {
                0 => Keep::Highest(count),
                1 => Keep::Lowest(count),
                2 => Keep::DropHighest(0),
                _ => Keep::DropLowest(0),
            };
            explode_on(sides).prop_map(move |on| ExplodingSum {
                count,
                sides,
                on,
                compound: false,
                cap,
                keep,
                modifier,
            })
        },
    )
}

impl ExplodingSum {
    fn build(&self) -> Option<Sum> {
        let pool = Pool::new(self.count, Die::new(self.sides).unwrap())
            .ok()?
            .exploding(explode(self.on, self.compound, self.cap))
            .ok()?;
        Sum::new(pool, self.keep, self.modifier).ok()
    }

    /// Estimated steps of the exact law: the per-die chain, the listing of the total and its
    /// convolution power.
    fn cost(&self) -> f64 {
        let len = value_law_len(self.sides, self.on, self.cap);
        let n = f64::from(self.count);
        let die_work = value_law_cost(self.sides, self.on, self.cap);
        let (_, k) = self.keep.as_top(self.count);
        let total_work = if k == self.count {
            power_cost(self.count, len)
        } else {
            let k = f64::from(k);
            len * len * k * k * k / 6.0 + len * n * k
        };
        die_work + total_work
    }

    /// The law is finite: no explosion possible on this die, or an explicit cap.
    fn finite(&self) -> bool {
        self.cap.is_some() || self.on.faces_passing(self.sides) == 0
    }
}

proptest! {
    #![proptest_config(config(EXPLODING_SUM_CASES))]

    /// Totals of exploding or compounding dice, default or explicit caps, any keep/drop
    /// (compounding dice only): both rolling paths.
    #[test]
    fn exploding_sum_rolls_fit_its_law(case in exploding_sum_case()) {
        let what = format!("{case:?}");
        let sum = case.build();
        prop_assume!(sum.is_some());
        let sum = sum.unwrap();
        prop_assume!(case.cost() <= EXACT_BUDGET);
        let law = timed(&what, || law_or_skip(&what, sum.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        let p = explode_chance(case.on, case.sides);
        let n = rolls_for(dice_per_roll(case.count, p, case.cap));
        let mut r = rng(seed_of(&what));
        let seen = timed(&what, || rolled(n, || sum.roll(&mut r)));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
        let mut record = dice_core::RollRecord::new();
        let seen = rolled(n / 2, || {
            sum.roll_record_into(&mut r, &mut record);
            record.total
        });
        assert_fits(&format!("{what} (record)"), &law, &seen, alpha(), MAX_CELLS);
    }
}

proptest! {
    #![proptest_config(config(ADDITIONAL_KEEP_CASES))]

    /// Additional explosions under a keep/drop rule naming as many dice as the pool holds:
    /// `DropHighest(0)` and `DropLowest(0)` keep every die rolled, `Highest(n)` and
    /// `Lowest(n)` keep `n` among them, added dice included.
    #[test]
    fn additional_explosions_with_keep_rolls_fit_its_law(case in additional_keep_case()) {
        let what = format!("{case:?}");
        let sum = case.build();
        prop_assume!(sum.is_some());
        let sum = sum.unwrap();
        // A quarter of the budget: these laws are now computed (keep/drop among the added
        // dice), and the listing of a long chain is redone as it lengthens.
        prop_assume!(case.cost() <= EXACT_BUDGET / 4.0);
        let law = timed(&what, || law_or_skip(&what, sum.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        let p = explode_chance(case.on, case.sides);
        let n = rolls_for(dice_per_roll(case.count, p, case.cap));
        let mut r = rng(seed_of(&what));
        let seen = timed(&what, || rolled(n, || sum.roll(&mut r)));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
    }
}

proptest! {
    #![proptest_config(config(VERSUS_CASES))]

    /// A total (exploding or not) against a target anywhere around its range.
    #[test]
    fn versus_target_rolls_fit_its_law(case in exploding_sum_case(), at in 0.0f64..=1.0) {
        let sum = case.build();
        prop_assume!(sum.is_some());
        let sum = sum.unwrap();
        prop_assume!(case.cost() <= EXACT_BUDGET);
        let total = timed("versus", || law_or_skip("versus", sum.distribution()));
        prop_assume!(total.is_some());
        let total = total.unwrap();
        // A target at the `at` quantile of the total, so all three outcomes are likely.
        let target = total.quantile(at).unwrap_or(case.modifier);
        let what = format!("{case:?} vs {target}");
        let vt = VersusTarget::new(sum, target).unwrap();
        let law = vt.distribution().unwrap();
        sound(&what, &law);
        let p = explode_chance(case.on, case.sides);
        let n = rolls_for(dice_per_roll(case.count, p, case.cap));
        let mut r = rng(seed_of(&what));
        let seen = rolled(n, || vt.roll(&mut r));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// SuccessPool: plain dice (count, tally, record paths; criticals)
// ---------------------------------------------------------------------------------------------

fn success_case() -> impl Strategy<Value = (Vec<(u32, u32)>, Comparison, Comparison)> {
    parts(2).prop_flat_map(|parts| {
        let s = parts[0].1;
        (Just(parts), comparison(s), comparison(s))
    })
}

proptest! {
    #![proptest_config(config(SUCCESS_CASES))]

    /// Success counts of plain dice (one or two sizes) on any comparison, face sets included:
    /// the count path, the tally path and the record path against the exact law of the
    /// successes, and the tally's criticals against the exact law of the critical test.
    #[test]
    fn success_rolls_fit_its_law((parts, success, critical) in success_case()) {
        let what = format!("SuccessPool {parts:?} count {success:?} crit {critical:?}");
        let pool = build_pool(&parts);
        prop_assume!(pool.is_some());
        let pool = pool.unwrap();
        let sp = SuccessPool::with_critical(pool.clone(), success, critical);
        let law = timed(&what, || law_or_skip(&what, sp.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        let crit_law = SuccessPool::new(pool, critical).distribution().unwrap();
        sound(&what, &crit_law);
        let n = rolls_for(f64::from(sp.pool().count()));
        let mut r = rng(seed_of(&what));
        let seen = timed(&what, || rolled(n, || sp.roll(&mut r)));
        assert_fits(&format!("{what} (count)"), &law, &seen, alpha(), MAX_CELLS);
        let tallies = rolled(n / 2, || sp.tally(&mut r));
        let mut successes = BTreeMap::new();
        let mut criticals = BTreeMap::new();
        for (t, c) in tallies {
            *successes.entry(t.successes).or_insert(0) += c;
            *criticals.entry(t.criticals).or_insert(0) += c;
        }
        assert_fits(&format!("{what} (tally successes)"), &law, &successes, alpha(), MAX_CELLS);
        assert_fits(&format!("{what} (tally criticals)"), &crit_law, &criticals, alpha(), MAX_CELLS);
        let mut record = dice_core::RollRecord::new();
        let seen = rolled(n / 4, || {
            sp.roll_record_into(&mut r, &mut record);
            record.successes
        });
        assert_fits(&format!("{what} (record)"), &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// SuccessPool with explosions
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct ExplodingSuccess {
    count: u32,
    sides: u32,
    on: Comparison,
    success: Comparison,
    compound: bool,
    cap: Option<u32>,
}

fn exploding_success_case() -> impl Strategy<Value = ExplodingSuccess> {
    (
        prop_oneof![4 => 1u32..=10, 1 => 1u32..=MAX_DICE],
        exploding_sides(),
        any::<bool>(),
        cap(),
    )
        .prop_flat_map(|(count, sides, compound, cap)| {
            (explode_on(sides), comparison(sides)).prop_map(move |(on, success)| ExplodingSuccess {
                count,
                sides,
                on,
                success,
                compound,
                cap,
            })
        })
}

impl ExplodingSuccess {
    fn build(&self) -> Option<SuccessPool> {
        let pool = Pool::new(self.count, Die::new(self.sides).unwrap())
            .ok()?
            .exploding(explode(self.on, self.compound, self.cap))
            .ok()?;
        Some(SuccessPool::new(pool, self.success))
    }

    fn cost(&self) -> f64 {
        let s = f64::from(self.sides);
        let n = f64::from(self.count);
        let p = explode_chance(self.on, self.sides);
        let chain = chain_len(p, self.cap);
        if self.compound {
            // The value law of one die, listed to its tail or past the threshold.
            value_law_cost(self.sides, self.on, self.cap) + (chain + 1.0) * s * s + n * n
        } else if let Some(c) = self.cap {
            f64::from(c) * f64::from(c) * n * n + n * n * f64::from(c)
        } else {
            let len = (n * (chain + 1.0)).max(16.0).max(4.0 * n);
            len * len * 64.0 * 2.0
        }
    }

    fn finite(&self) -> bool {
        self.cap.is_some() || self.on.faces_passing(self.sides) == 0
    }
}

proptest! {
    #![proptest_config(config(EXPLODING_SUCCESS_CASES))]

    /// Success counts of exploding or compounding dice, default or explicit caps, any success
    /// test: the count, tally and record paths.
    #[test]
    fn exploding_success_rolls_fit_its_law(case in exploding_success_case()) {
        let what = format!("{case:?}");
        let sp = case.build();
        prop_assume!(sp.is_some());
        let sp = sp.unwrap();
        prop_assume!(case.cost() <= EXACT_BUDGET);
        let law = timed(&what, || law_or_skip(&what, sp.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        let p = explode_chance(case.on, case.sides);
        let n = rolls_for(dice_per_roll(case.count, p, case.cap));
        let mut r = rng(seed_of(&what));
        let seen = timed(&what, || rolled(n, || sp.roll(&mut r)));
        assert_fits(&format!("{what} (count)"), &law, &seen, alpha(), MAX_CELLS);
        let seen = rolled(n / 2, || sp.tally(&mut r).successes);
        assert_fits(&format!("{what} (tally)"), &law, &seen, alpha(), MAX_CELLS);
        let mut record = dice_core::RollRecord::new();
        let seen = rolled(n / 4, || {
            sp.roll_record_into(&mut r, &mut record);
            record.successes
        });
        assert_fits(&format!("{what} (record)"), &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// Streak
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct StreakCase {
    sides: u32,
    on: FaceSet,
    base: i64,
    cap: Option<u32>,
}

fn streak_case() -> impl Strategy<Value = StreakCase> {
    (sides(), modifier(), cap()).prop_flat_map(|(sides, base, cap)| {
        let s = sides;
        let on = prop_oneof![
            2 => face_set(s),
            // Every face the set can hold but one: continuing with chance close to 1.
            1 => (1u32..=s.min(MAX_SET_FACE)).prop_map(move |gap| {
                FaceSet::new((1..=s.min(MAX_SET_FACE)).filter(|&f| f != gap)).unwrap()
            }),
            // Every face the set can hold (endless on dice up to MAX_SET_FACE sides: needs a cap).
            1 => Just(FaceSet::range(1, MAX_SET_FACE).unwrap()),
        ];
        on.prop_map(move |on| StreakCase {
            sides,
            on,
            base,
            cap,
        })
    })
}

impl StreakCase {
    fn build(&self) -> Option<Streak> {
        let die = Die::new(self.sides).unwrap();
        match self.cap {
            Some(c) => Streak::capped(die, self.on, self.base, c).ok(),
            None => Streak::new(die, self.on, self.base).ok(),
        }
    }
}

proptest! {
    #![proptest_config(config(STREAK_CASES))]

    /// Streaks on any die, any face set (faces above the die's too), any base, default or
    /// explicit cap: the plain and the record paths.
    #[test]
    fn streak_rolls_fit_its_law(case in streak_case()) {
        let what = format!("{case:?}");
        let streak = case.build();
        prop_assume!(streak.is_some());
        let streak = streak.unwrap();
        let law = timed(&what, || law_or_skip(&what, streak.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        let p = streak.continue_probability();
        let n = rolls_for(dice_per_roll(1, p, case.cap)).max(20_000);
        let mut r = rng(seed_of(&what));
        let seen = timed(&what, || rolled(n, || streak.roll(&mut r)));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
        let mut record = dice_core::RollRecord::new();
        let seen = rolled(n / 2, || {
            streak.roll_record_into(&mut r, &mut record);
            record.total
        });
        assert_fits(&format!("{what} (record)"), &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// Cancellation
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct CancellationCase {
    actor: (Vec<(u32, u32)>, Comparison),
    opposition: Option<(Vec<(u32, u32)>, Comparison)>,
    difficulty: u32,
}

fn side() -> impl Strategy<Value = (Vec<(u32, u32)>, Comparison)> {
    parts(2).prop_flat_map(|parts| {
        let s = parts[0].1;
        (Just(parts), comparison(s))
    })
}

fn cancellation_case() -> impl Strategy<Value = CancellationCase> {
    (
        side(),
        proptest::option::of(side()),
        prop_oneof![3 => 0u32..=5, 1 => 0u32..=MAX_MODIFIER as u32],
    )
        .prop_map(|(actor, opposition, difficulty)| CancellationCase {
            actor,
            opposition,
            difficulty,
        })
}

proptest! {
    #![proptest_config(config(CANCELLATION_CASES))]

    /// Net successes of two plain success pools and a difficulty.
    #[test]
    fn cancellation_rolls_fit_its_law(case in cancellation_case()) {
        let what = format!("{case:?}");
        let actor = build_pool(&case.actor.0).map(|p| SuccessPool::new(p, case.actor.1));
        prop_assume!(actor.is_some());
        let opposition = match &case.opposition {
            Some((parts, c)) => {
                let p = build_pool(parts);
                prop_assume!(p.is_some());
                Some(SuccessPool::new(p.unwrap(), *c))
            }
            None => None,
        };
        let c = Cancellation::new(actor.unwrap(), opposition, case.difficulty);
        prop_assume!(c.is_ok());
        let c = c.unwrap();
        let law = timed(&what, || law_or_skip(&what, c.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        let dice = f64::from(c.actor().pool().count())
            + c.opposition().map_or(0.0, |o| f64::from(o.pool().count()));
        let mut r = rng(seed_of(&what));
        let seen = rolled(rolls_for(dice), || c.roll(&mut r));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// Blocking
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct BlockingCase {
    attack: (u32, u32),
    hit: Comparison,
    defense: (u32, u32),
    strict: bool,
}

fn blocking_case() -> impl Strategy<Value = BlockingCase> {
    let small = || prop_oneof![4 => 1u32..=6, 1 => 1u32..=12];
    ((small(), sides()), (small(), sides()), any::<bool>()).prop_flat_map(
        |(attack, defense, strict)| {
            comparison(attack.1).prop_map(move |hit| BlockingCase {
                attack,
                hit,
                defense,
                strict,
            })
        },
    )
}

impl BlockingCase {
    fn cost(&self) -> f64 {
        let (na, nd) = (f64::from(self.attack.0), f64::from(self.defense.0));
        let faces = f64::from(self.attack.1.max(self.defense.1));
        // Each face places both sides over every state, with a binomial per state.
        faces * (na + 1.0).powi(3) * (nd + 1.0) * (na + nd + 2.0) * 3.0
    }
}

proptest! {
    #![proptest_config(config(BLOCKING_CASES))]

    /// Unblocked hits of plain attack dice against plain defending dice, any sizes, both rules.
    #[test]
    fn blocking_rolls_fit_its_law(case in blocking_case()) {
        let what = format!("{case:?}");
        prop_assume!(case.cost() <= EXACT_BUDGET);
        let attack = SuccessPool::new(
            Pool::new(case.attack.0, Die::new(case.attack.1).unwrap()).unwrap(),
            case.hit,
        );
        let defense = Pool::new(case.defense.0, Die::new(case.defense.1).unwrap()).unwrap();
        let rule = if case.strict { BlockRule::Strict } else { BlockRule::AtLeast };
        let b = Blocking::new(attack, defense, rule);
        let law = timed(&what, || law_or_skip(&what, b.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        let mut r = rng(seed_of(&what));
        let seen = rolled(rolls_for(f64::from(case.attack.0 + case.defense.0)), || b.roll(&mut r));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// Roll-offs
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(ROLL_OFF_CASES))]

    /// Initiative orders with ties rolled off on a die of any size: every order of a tied
    /// group as likely (`fair_roll_off_orders`).
    #[test]
    fn roll_off_orders_fit_their_law(
        scores in proptest::collection::vec(0u8..=2, 1..=6),
        s in sides(),
    ) {
        let what = format!("scores {scores:?} rolled off on d{s}");
        let law = fair_roll_off_orders(scores.len(), |a, b| scores[a].cmp(&scores[b])).unwrap();
        let die = Die::new(s).unwrap();
        let mut r = rng(seed_of(&what));
        let seen = rolled(20_000, || {
            rank_with_roll_offs(
                scores.len(),
                |a, b| scores[a].cmp(&scores[b]),
                u32::MAX,
                |_| Ok::<u32, ()>(die.roll(&mut r)),
            )
            .unwrap()
        });
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
        sound(&what, &law);
    }
}

// ---------------------------------------------------------------------------------------------
// Finite laws have no tail (no rolling: cheap, many cases)
// ---------------------------------------------------------------------------------------------

/// Cases per tail test.
const TAIL_CASES: u32 = 64;

proptest! {
    #![proptest_config(config(TAIL_CASES))]

    /// Plain sums, success counts, cancellations: finite, so no tail.
    #[test]
    fn plain_laws_have_no_tail(
        (parts, keep, modifier) in plain_sum_case(),
        (sparts, success, _) in success_case(),
    ) {
        if let Some(sum) = build_pool(&parts).and_then(|p| Sum::new(p, keep, modifier).ok()) {
            if plain_sum_cost(&parts, keep) <= EXACT_BUDGET {
                let what = format!("Sum {parts:?} {keep:?} {modifier:+}");
                if let Some(law) = law_or_skip(&what, sum.distribution()) {
                    no_tail(&what, &law);
                }
            }
        }
        if let Some(pool) = build_pool(&sparts) {
            let what = format!("SuccessPool {sparts:?} count {success:?}");
            let sp = SuccessPool::new(pool, success);
            if let Some(law) = law_or_skip(&what, sp.distribution()) {
                no_tail(&what, &law);
            }
            let c = Cancellation::new(sp.clone(), Some(sp), 1).unwrap();
            if let Some(law) = law_or_skip(&what, c.distribution()) {
                no_tail(&format!("{what} cancelled by itself"), &law);
            }
        }
    }

    /// Explosions with an explicit cap (or that cannot explode on this die): finite.
    #[test]
    fn capped_explosions_have_no_tail(
        case in exploding_sum_case(),
        scase in exploding_success_case(),
    ) {
        if let Some(sum) = case.build() {
            if case.finite() && case.cost() <= EXACT_BUDGET {
                let what = format!("{case:?}");
                if let Some(law) = law_or_skip(&what, sum.distribution()) {
                    no_tail(&what, &law);
                }
            }
        }
        if let Some(sp) = scase.build() {
            if scase.finite() && scase.cost() <= EXACT_BUDGET {
                let what = format!("{scase:?}");
                if let Some(law) = law_or_skip(&what, sp.distribution()) {
                    no_tail(&what, &law);
                }
            }
        }
    }

    /// Streaks with an explicit cap, blocking and roll-off orders: finite.
    #[test]
    fn capped_streaks_blocking_and_roll_offs_have_no_tail(
        case in streak_case(),
        bcase in blocking_case(),
        scores in proptest::collection::vec(0u8..=2, 1..=6),
    ) {
        if let (Some(streak), true) = (case.build(), case.cap.is_some()) {
            let what = format!("{case:?}");
            no_tail(&what, &streak.distribution().unwrap());
        }
        if bcase.cost() <= EXACT_BUDGET {
            let b = Blocking::new(
                SuccessPool::new(
                    Pool::new(bcase.attack.0, Die::new(bcase.attack.1).unwrap()).unwrap(),
                    bcase.hit,
                ),
                Pool::new(bcase.defense.0, Die::new(bcase.defense.1).unwrap()).unwrap(),
                if bcase.strict { BlockRule::Strict } else { BlockRule::AtLeast },
            );
            let what = format!("{bcase:?}");
            if let Some(law) = law_or_skip(&what, b.distribution()) {
                no_tail(&what, &law);
            }
        }
        let law = fair_roll_off_orders(scores.len(), |a, b| scores[a].cmp(&scores[b])).unwrap();
        no_tail(&format!("roll-off orders of scores {scores:?}"), &law);
    }
}

/// Finite laws that once listed a tail (found by the tests above): a capped explosion whose
/// `p^cap` underflows, one whose capped law is long, roll-off orders of a tie of three.
#[test]
fn known_finite_laws_have_no_tail() {
    let capped = |count: u32, sides: u32, on: Comparison, cap: u32| {
        let pool = Pool::new(count, Die::new(sides).unwrap())
            .unwrap()
            .exploding(Explode::new(on).with_cap(cap).unwrap())
            .unwrap();
        Sum::new(pool, Keep::All, 0)
            .unwrap()
            .distribution()
            .unwrap()
    };
    no_tail(
        "1d2!>=2cap1078",
        &capped(1, 2, Comparison::AtLeast(2), 1078),
    );
    no_tail(
        "10d71!=71cap99",
        &capped(10, 71, Comparison::Exactly(71), 99),
    );
    let scores = [1, 1, 1];
    let law = fair_roll_off_orders(3, |a, b| scores[a].cmp(&scores[b])).unwrap();
    no_tail("roll-off orders of a three-way tie", &law);
}

// ---------------------------------------------------------------------------------------------
// Keep/drop among the dice explosions add (additional and penetrating), unique dice
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct KeepAmongAdded {
    count: u32,
    sides: u32,
    on: Comparison,
    penetrate: bool,
    cap: Option<u32>,
    keep: Keep,
}

/// Dice 2..=100 (small often), one to eight of them, explosions likely or not, any keep/drop,
/// additional or penetrating, capped (small caps) or not.
fn keep_among_added_case() -> impl Strategy<Value = KeepAmongAdded> {
    (
        prop_oneof![1 => 2u32..=100, 1 => 2u32..=12],
        1u32..=8,
        any::<bool>(),
        prop_oneof![2 => Just(None), 1 => (1u32..=4).prop_map(Some)],
    )
        .prop_flat_map(|(sides, count, penetrate, cap)| {
            let on = prop_oneof![
                2 => Just(Comparison::Exactly(sides as i32)),
                1 => (2..=sides as i32).prop_map(Comparison::AtLeast),
            ];
            (on, keep(count)).prop_map(move |(on, keep)| KeepAmongAdded {
                count,
                sides,
                on,
                penetrate,
                cap,
                keep,
            })
        })
}

impl KeepAmongAdded {
    fn build(&self) -> Option<Sum> {
        let e = if self.penetrate {
            Explode::penetrating(self.on)
        } else {
            Explode::new(self.on)
        };
        let e = match self.cap {
            Some(c) => e.with_cap(c).ok()?,
            None => e,
        };
        let pool = Pool::new(self.count, Die::new(self.sides).unwrap())
            .ok()?
            .exploding(e)
            .ok()?;
        Sum::new(pool, self.keep, 0).ok()
    }
}

proptest! {
    #![proptest_config(config(KEEP_AMONG_ADDED_CASES))]

    /// Keep/drop among every die rolled when explosions add dice (`5d6!kh3`, `4d6!pdl1`):
    /// both rolling paths against the exact law.
    #[test]
    fn keep_among_added_dice_rolls_fit_its_law(case in keep_among_added_case()) {
        let what = format!("{case:?}");
        let sum = case.build();
        prop_assume!(sum.is_some());
        let sum = sum.unwrap();
        // Long chains (a likely explosion on a big die) are slow to roll and to solve.
        let p = explode_chance(case.on, case.sides);
        prop_assume!(dice_per_roll(case.count, p, case.cap) <= 60.0);
        let law = timed(&what, || law_or_skip(&what, sum.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        if case.cap.is_some() {
            no_tail(&what, &law);
        }
        let n = rolls_for(dice_per_roll(case.count, p, case.cap)).min(40_000);
        let mut r = rng(seed_of(&what));
        let seen = timed(&what, || rolled(n, || sum.roll(&mut r)));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
        let mut record = dice_core::RollRecord::new();
        let seen = rolled(n / 2, || {
            sum.roll_record_into(&mut r, &mut record);
            record.total
        });
        assert_fits(&format!("{what} (record)"), &law, &seen, alpha(), MAX_CELLS);
    }
}

#[derive(Clone, Debug)]
struct UniqueCase {
    count: u32,
    sides: u32,
    once: bool,
    only: Option<Comparison>,
    keep: Keep,
}

/// Unique dice: d2 … d100, more dice than sides sometimes, `u` or `uo`, a compare point or
/// not, any keep/drop.
fn unique_case() -> impl Strategy<Value = UniqueCase> {
    prop_oneof![1 => 2u32..=100, 2 => 2u32..=10]
        .prop_flat_map(|sides| {
            let most = if sides > 20 { 3 } else { 6 };
            (
                Just(sides),
                1u32..=most,
                any::<bool>(),
                proptest::option::of(comparison(sides)),
            )
        })
        .prop_flat_map(|(sides, count, once, only)| {
            keep(count).prop_map(move |keep| UniqueCase {
                count,
                sides,
                once,
                only,
                keep,
            })
        })
}

proptest! {
    #![proptest_config(config(UNIQUE_CASES))]

    /// Unique dice (rpg-dice-roller's `u`, `uo`, `u=5`), kept or dropped: both rolling paths.
    #[test]
    fn unique_rolls_fit_its_law(case in unique_case()) {
        let what = format!("{case:?}");
        let mut u = dice_core::Unique::new(case.count, Die::new(case.sides).unwrap())
            .unwrap()
            .keeping(case.keep)
            .unwrap();
        if case.once {
            u = u.once();
        }
        if let Some(c) = case.only {
            u = u.only(c);
        }
        let law = timed(&what, || law_or_skip(&what, u.distribution()));
        prop_assume!(law.is_some());
        let law = law.unwrap();
        sound(&what, &law);
        no_tail(&what, &law);
        let n = rolls_for(f64::from(case.count) * 2.0).min(40_000);
        let mut r = rng(seed_of(&what));
        let seen = rolled(n, || u.roll(&mut r));
        assert_fits(&what, &law, &seen, alpha(), MAX_CELLS);
        let mut record = dice_core::RollRecord::new();
        let seen = rolled(n / 2, || {
            u.roll_record_into(&mut r, &mut record);
            record.total
        });
        assert_fits(&format!("{what} (record)"), &law, &seen, alpha(), MAX_CELLS);
    }
}

// ---------------------------------------------------------------------------------------------
// Penetrating dice: totals and success counts, pools up to MAX_DICE
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct PenetratingCase {
    count: u32,
    sides: u32,
    on: Comparison,
    success: Comparison,
    compound: bool,
    cap: Option<u32>,
}

/// Penetrating dice (`!p`, `!!p`): small pools often, up to 300 dice next, any pool size up
/// to `MAX_DICE` sometimes, default or explicit caps, any success test.
fn penetrating_case() -> impl Strategy<Value = PenetratingCase> {
    (
        prop_oneof![3 => 1u32..=10, 2 => 11u32..=300, 1 => 1u32..=MAX_DICE],
        exploding_sides(),
        any::<bool>(),
        cap(),
    )
        .prop_flat_map(|(count, sides, compound, cap)| {
            (explode_on(sides), comparison(sides)).prop_map(move |(on, success)| PenetratingCase {
                count,
                sides,
                on,
                success,
                compound,
                cap,
            })
        })
}

impl PenetratingCase {
    fn pool(&self) -> Option<Pool> {
        let e = if self.compound {
            Explode::penetrating_compound(self.on)
        } else {
            Explode::penetrating(self.on)
        };
        let e = match self.cap {
            Some(c) => e.with_cap(c).ok()?,
            None => e,
        };
        Pool::new(self.count, Die::new(self.sides).unwrap())
            .ok()?
            .exploding(e)
            .ok()
    }

    /// The cost estimates of the same case without penetration (a penetrating die's law is
    /// listed as far as the plain one's, and its count the same way).
    fn cost(&self) -> f64 {
        let total = ExplodingSum {
            count: self.count,
            sides: self.sides,
            on: self.on,
            compound: self.compound,
            cap: self.cap,
            keep: Keep::All,
            modifier: 0,
        };
        let count = ExplodingSuccess {
            count: self.count,
            sides: self.sides,
            on: self.on,
            success: self.success,
            compound: self.compound,
            cap: self.cap,
        };
        total.cost().max(count.cost())
    }
}

proptest! {
    #![proptest_config(config(PENETRATING_CASES))]

    /// Penetrating dice, additional or compounding: the rolled total and the rolled success
    /// count against their exact laws.
    #[test]
    fn penetrating_rolls_fit_their_laws(case in penetrating_case()) {
        let what = format!("{case:?}");
        let pool = case.pool();
        prop_assume!(pool.is_some());
        let pool = pool.unwrap();
        prop_assume!(case.cost() <= EXACT_BUDGET);
        let sum = Sum::new(pool.clone(), Keep::All, 0).unwrap();
        let sp = SuccessPool::new(pool, case.success);
        let total_law = timed(&what, || law_or_skip(&what, sum.distribution()));
        let count_law = timed(&what, || law_or_skip(&what, sp.distribution()));
        prop_assume!(total_law.is_some() && count_law.is_some());
        let (total_law, count_law) = (total_law.unwrap(), count_law.unwrap());
        sound(&what, &total_law);
        sound(&what, &count_law);
        let p = explode_chance(case.on, case.sides);
        let n = rolls_for(dice_per_roll(case.count, p, case.cap));
        let mut r = rng(seed_of(&what));
        let seen = timed(&what, || rolled(n, || sum.roll(&mut r)));
        assert_fits(&format!("{what} (total)"), &total_law, &seen, alpha(), MAX_CELLS);
        let seen = timed(&what, || rolled(n, || sp.roll(&mut r)));
        assert_fits(&format!("{what} (count)"), &count_law, &seen, alpha(), MAX_CELLS);
    }
}
