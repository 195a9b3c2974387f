//! Every Monte Carlo run of the command goes through [`simulate`]: the progress bar and
//! Ctrl-C, and the two halves of a run spread over machines. With `--shard I/N` only the
//! shard's range of seeded chunks is run and its counts are kept for the shard's JSON
//! ([`take_recorded`]); `dice merge` adds the shards' counts up and hands them back
//! ([`inject`]), so that the command, run again, reports from the whole run's histogram
//! without rolling: the same numbers, bit for bit, as one run with the same seed.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::hash::Hash;
use std::ops::ControlFlow;

use dice_core::{Dist, Exact, Keep, Roll};
use dice_notation::{BinOp, DiceTerm, DieKind, ExprKind, Expression, Outcome};
use dice_sim::{Batch, Estimates, ExplodingCount, Histogram, PerTrial, Simulation, TableRoll};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::Ctx;
use crate::error::CliError;
use crate::expr::{CONFIDENCE, chunk_size};
use crate::progress::ProgressBar;
use crate::report::{Interval, Method, OddsReport};
use crate::seed::Seed;

/// `--shard I/N`: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u64,
    /// How many shards the run is cut into.
    pub count: u64,
}

/// Parses `I/N` with `1 <= I <= N`.
///
/// ```text
/// "3/8" → Shard { index: 3, count: 8 }
/// ```
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let err = || format!("expected I/N with 1 <= I <= N, such as 3/8, not {s:?}");
    let (i, n) = s.split_once('/').ok_or_else(err)?;
    let index: u64 = i.trim().parse().map_err(|_| err())?;
    let count: u64 = n.trim().parse().map_err(|_| err())?;
    if index == 0 || index > count {
        return Err(err());
    }
    Ok(Shard { index, count })
}

thread_local! {
    /// Merged counts waiting to stand in for the next runs, in the order the command makes
    /// them.
    static INJECTED: RefCell<VecDeque<Value>> = const { RefCell::new(VecDeque::new()) };
    /// The shards' runs made so far.
    static RECORDED: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
}

/// Hands merged runs (objects with `seed`, `trials`, `chunk_size`, `counts`) to the next
/// [`simulate`] calls.
pub fn inject(runs: Vec<Value>) {
    INJECTED.with(|q| q.borrow_mut().extend(runs));
}

/// The runs a `--shard` command made, in order.
pub fn take_recorded() -> Vec<Value> {
    RECORDED.with(|r| std::mem::take(&mut *r.borrow_mut()))
}

/// Runs `mechanic` `trials` times from `seed` (or only the shard's chunks, or takes merged
/// counts), with a progress bar on stderr.
///
/// # Errors
/// [`CliError::BadInput`] for a bad trial count, or merged counts that do not fit the run.
pub fn simulate<M>(
    mechanic: &M,
    trials: u64,
    seed: Seed,
    ctx: &Ctx,
) -> Result<Estimates<M::Outcome>, CliError>
where
    M: Roll + Sync + ?Sized,
    M::Outcome: Send + Hash + Ord + Clone + Serialize + DeserializeOwned + 'static,
{
    simulate_batch(&PerTrial(mechanic), trials, seed, ctx)
}

/// [`simulate`] for a [`Batch`] mechanic (a table sampler, or any mechanic through
/// [`PerTrial`]): the same chunks, shards, merged counts and progress bar.
///
/// # Errors
/// As [`simulate`].
pub fn simulate_batch<B>(
    mechanic: &B,
    trials: u64,
    seed: Seed,
    ctx: &Ctx,
) -> Result<Estimates<B::Outcome>, CliError>
where
    B: Batch + ?Sized,
    B::Outcome: Serialize + DeserializeOwned,
{
    let sim = Simulation::new(seed.value, trials)?
        .chunk_size(chunk_size(trials))?
        .confidence(CONFIDENCE)?;
    if let Some(run) = INJECTED.with(|q| q.borrow_mut().pop_front()) {
        let same = run["seed"].as_u64() == Some(seed.value)
            && run["trials"].as_u64() == Some(trials)
            && run["chunk_size"].as_u64() == Some(chunk_size(trials));
        if !same {
            return Err(CliError::bad_input(
                "the shards' runs do not match the command they were made by (seed, trials)",
            ));
        }
        let counts: Vec<(B::Outcome, u64)> = serde_json::from_value(run["counts"].clone())
            .map_err(|e| CliError::bad_input(format_args!("the shards' counts: {e}")))?;
        return Ok(Estimates::from_histogram(
            Histogram::from_counts(counts),
            CONFIDENCE,
        ));
    }
    if let Some(shard) = ctx.shard {
        let chunks = sim.chunks();
        let range = dice_sim::shard_range(chunks, shard.index - 1, shard.count);
        let h = sim.run_batch_chunks(mechanic, range.clone());
        if h.is_saturated() {
            return Err(CliError::bad_input(format_args!(
                "more than {} distinct outcomes came up in this shard, too many to count",
                dice_sim::MAX_DISTINCT
            )));
        }
        let counts = serde_json::to_value(h.sorted())
            .map_err(|e| CliError::Failure(format!("cannot write the counts: {e}")))?;
        RECORDED.with(|r| {
            r.borrow_mut().push(json!({
                "seed": seed.value,
                "trials": trials,
                "chunk_size": chunk_size(trials),
                "chunks": [range.start, range.end],
                "counts": counts,
            }));
        });
        return Ok(Estimates::from_histogram(h, CONFIDENCE));
    }
    let mut bar = ProgressBar::new();
    let est = sim.run_batch_with_progress(mechanic, |p| {
        bar.update(p.done, p.total);
        if crate::progress::interrupted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    bar.finish();
    Ok(est)
}

/// The most entries of a table built for a routed run: a group table of dice-sim's samplers
/// (a keep/drop pool is one group of all its dice). A run of fewer trials than its table has
/// entries is not routed either: building the table would cost more than it saves.
const MAX_ROUTED_TABLE: u64 = 1 << 17;

/// A table sampler of dice-sim standing in for an expression of the shapes it covers, with
/// the constant added to the term (`3d6+2`: the 3d6 table, offset 2). It draws the same law
/// as rolling the expression (its tables list every equally likely face combination), but
/// uses the seed's random stream differently: `--seed N` gives another (equally valid)
/// sample than the die-by-die roll would, the same one on any number of threads, and shards
/// of it merge into exactly one run, since every shard routes the same way.
#[derive(Clone, Debug)]
pub enum Routed {
    /// A sum, a keep/drop or a success count of plain dice.
    Table(TableRoll, i64),
    /// A success count of exploding dice.
    Exploding(ExplodingCount, i64),
}

impl Batch for Routed {
    type Outcome = Outcome;

    fn roll_batch<R: dice_core::Rng + ?Sized>(
        &self,
        rng: &mut R,
        trials: u64,
        histogram: &mut Histogram<Outcome>,
    ) {
        match self {
            Routed::Table(table, offset) => {
                let mut h = Histogram::new();
                table.roll_batch(rng, trials, &mut h);
                for (v, count) in h.sorted() {
                    histogram.add_many(Outcome::Number(v.saturating_add(*offset)), count);
                }
            }
            Routed::Exploding(pool, offset) => {
                let mut h = Histogram::new();
                pool.roll_batch(rng, trials, &mut h);
                for (v, count) in h.sorted() {
                    let v = i64::from(v).saturating_add(*offset);
                    histogram.add_many(Outcome::Number(v), count);
                }
            }
        }
    }
}

/// The table sampler of `e` for a run of `trials`, when `e` is one dice term, alone or plus
/// or minus a constant, of one of these shapes (`NdS` with `S` sides, no other modifier):
///
/// | shape | example | sampler |
/// |---|---|---|
/// | a sum | `3d6`, `1d20+5` | [`TableRoll::sum`] |
/// | keep/drop | `4d6kh3`, `2d20kl1` | [`TableRoll::keep`] (one group of all the dice) |
/// | a success count | `10d10>=8`, `6d6={5,6}` | [`TableRoll::count`] |
/// | a success count of exploding dice | `10d10!10>=8`, `5d6!>=5cap3>=4` | [`ExplodingCount`] |
///
/// `None` for anything else (rerolls, clamps, failures, compounding or penetrating
/// explosions, `vs`, other arithmetic…), which is rolled as it is written; and `None` when
/// the table would have more than `min(trials, 131,072)` entries.
pub fn route(e: &Expression, trials: u64) -> Option<Routed> {
    let (term, offset) = match &e.expr().kind {
        ExprKind::Dice(t) => (t, 0),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (t, n, sign) = match (&a.kind, &b.kind) {
                (ExprKind::Dice(t), ExprKind::Number(n)) => {
                    (t, n, if *op == BinOp::Add { 1 } else { -1 })
                }
                (ExprKind::Number(n), ExprKind::Dice(t)) if *op == BinOp::Add => (t, n, 1),
                _ => return None,
            };
            (t, i64::try_from(*n).ok()? * sign)
        }
        _ => return None,
    };
    let limit = trials.min(MAX_ROUTED_TABLE);
    route_term(term, limit).map(|r| match r {
        Routed::Table(t, _) => Routed::Table(t, offset),
        Routed::Exploding(x, _) => Routed::Exploding(x, offset),
    })
}

/// The sampler of one dice term, offset 0, with tables of at most `limit` entries.
fn route_term(t: &DiceTerm, limit: u64) -> Option<Routed> {
    let DieKind::Sides(sides) = t.die else {
        return None;
    };
    // Modifiers that change values; `cs`, `cf` and sorting only mark or order the dice.
    let plain = t.reroll.is_none()
        && t.min.is_none()
        && t.max.is_none()
        && t.failure.is_none()
        && !t.failure_value
        && t.select.is_none()
        && t.reroll_add.is_none()
        && t.unique.is_none()
        && t.matches.is_none()
        && t.steps.is_empty()
        && t.sequence.is_empty();
    if !plain || t.count == 0 {
        return None;
    }
    let entries = |dice: u32| {
        (0..dice).try_fold(1u64, |n, _| {
            n.checked_mul(u64::from(sides)).filter(|&n| n <= limit)
        })
    };
    // The largest group a table sampler would use: one die must fit at least.
    entries(1)?;
    let face = |f: u32| i64::from(f);
    match (&t.explode, &t.success) {
        (None, None) if t.keep == Keep::All => TableRoll::sum(t.count, sides)
            .ok()
            .filter(|r| r.entries() as u64 <= limit)
            .map(|r| Routed::Table(r, 0)),
        (None, None) => {
            entries(t.count)?;
            TableRoll::keep(t.count, sides, t.keep)
                .ok()
                .map(|r| Routed::Table(r, 0))
        }
        (None, Some(on)) if t.keep == Keep::All => {
            TableRoll::count(t.count, sides, |f| on.test(face(f)))
                .ok()
                .filter(|r| r.entries() as u64 <= limit)
                .map(|r| Routed::Table(r, 0))
        }
        (Some(x), Some(on)) if t.keep == Keep::All && !x.compound && !x.penetrate => {
            let passing = (1..=sides).filter(|&f| x.on.test(face(f))).count();
            // Every face exploding needs an explicit cap (the parser's rule); a cap of dice
            // as rolls use without one: where going on is negligible.
            let cap = match x.cap {
                Some(cap) => cap,
                None => dice_core::uncapped_roll_cap(passing as f64 / f64::from(sides)),
            };
            let pool = ExplodingCount::new(
                t.count,
                sides,
                |f| on.test(face(f)),
                |f| x.on.test(face(f)),
                cap,
            )
            .ok()?;
            (pool.entries() as u64 <= limit).then_some(Routed::Exploding(pool, 0))
        }
        _ => None,
    }
}

/// Runs the expression `e` as [`simulate`] does, through its table sampler when it has one
/// ([`route`]).
///
/// # Errors
/// As [`simulate`].
pub fn simulate_expression(
    e: &Expression,
    trials: u64,
    seed: Seed,
    ctx: &Ctx,
) -> Result<Estimates<Outcome>, CliError> {
    match route(e, trials) {
        Some(routed) => simulate_batch(&routed, trials, seed, ctx),
        None => simulate(e, trials, seed, ctx),
    }
}

/// The Wilson interval of a probability `p` estimated over `trials`: the count it stands
/// for (`p × trials`, rounded, at most `trials`) and the interval's ends. Every interval the
/// command prints (rows, headline probabilities, sweep cells) comes from here.
pub fn interval_of(p: f64, trials: u64, confidence: f64) -> Interval {
    let count = ((p * trials as f64).round() as u64).min(trials);
    let (low, high) = dice_sim::wilson_interval(count, trials, confidence);
    Interval { count, low, high }
}

/// A law to report: exact, or the frequencies of a Monte Carlo run.
#[derive(Debug)]
pub struct Law<O: Ord + Clone> {
    /// The (exact or observed) probabilities.
    pub dist: Dist<O>,
    /// The run, for a simulated law: seed, trials, whether Ctrl-C stopped it.
    pub run: Option<(Seed, u64, bool)>,
}

impl<O: Ord + Clone> Law<O> {
    /// Marks `report` as simulated (seed, trials, intervals on every row from its count)
    /// when the law was; the headline probabilities get their intervals when printed.
    pub fn decorate(&self, mut report: OddsReport) -> OddsReport {
        let Some((seed, trials, cancelled)) = self.run else {
            return report;
        };
        for row in &mut report.rows {
            row.interval = Some(interval_of(row.probability, trials, CONFIDENCE));
        }
        let standard_error = report.std_dev.map(|sd| {
            // The sample deviation (n − 1), as dice odds --monte-carlo reports it.
            let n = trials as f64;
            let sample = if trials > 1 {
                sd * (n / (n - 1.0)).sqrt()
            } else {
                0.0
            };
            report.std_dev = Some(sample);
            sample / n.sqrt()
        });
        if cancelled {
            report.notes.push(format!(
                "stopped by Ctrl-C after {}",
                crate::progress::trials_text(trials)
            ));
        }
        report.method = Method::MonteCarlo {
            seed,
            trials,
            confidence: CONFIDENCE,
            standard_error,
        };
        report
    }

    /// The same law with outcomes mapped (`successes` of a task roll's outcome).
    pub fn map<U: Ord + Clone>(&self, f: impl Fn(&O) -> U) -> Law<U> {
        Law {
            dist: self.dist.map(f),
            run: self.run,
        }
    }
}

/// `--odds`, `--monte-carlo` and `--trials`: the odds of a game roll instead of a roll.
/// Flattened into every game roll.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct OddsFlag {
    /// Show the exact odds of every outcome instead of rolling.
    #[arg(long, conflicts_with = "monte_carlo")]
    pub odds: bool,
    /// Estimate the odds by rolling many times (--trials) instead of computing them.
    #[arg(long, visible_alias = "mc")]
    pub monte_carlo: bool,
    /// How many times to roll for --monte-carlo.
    #[arg(
        long,
        value_name = "N",
        default_value_t = crate::expr::DEFAULT_TRIALS,
        requires = "monte_carlo",
        value_parser = clap::value_parser!(u64).range(1..=crate::expr::MAX_TRIALS)
    )]
    pub trials: u64,
}

impl Default for OddsFlag {
    fn default() -> OddsFlag {
        OddsFlag {
            odds: false,
            monte_carlo: false,
            trials: crate::expr::DEFAULT_TRIALS,
        }
    }
}

impl OddsFlag {
    /// Whether odds (exact or simulated) are asked for rather than a roll.
    pub fn wanted(&self) -> bool {
        self.odds || self.monte_carlo
    }

    /// The law of `mechanic`: exact with `--odds`, estimated with `--monte-carlo`. Exact odds
    /// refused (too costly, or not supported) come with the hint to estimate them.
    ///
    /// # Errors
    /// [`CliError::BadInput`] when the exact law cannot be had, or for a bad run.
    pub fn law<M>(&self, mechanic: &M, ctx: &Ctx) -> Result<Law<M::Outcome>, CliError>
    where
        M: Exact + Sync,
        M::Outcome: Send + Hash + Ord + Clone + Serialize + DeserializeOwned + 'static,
    {
        if self.monte_carlo {
            let seed = ctx.seed();
            let est = simulate(mechanic, self.trials, seed, ctx)?;
            let dist = est.to_dist()?;
            return Ok(Law {
                dist,
                run: Some((seed, est.trials(), est.cancelled())),
            });
        }
        let dist = mechanic.distribution().map_err(|e| CliError::BadInput {
            message: format!("exact odds: {e}"),
            detail: vec![
                "hint: estimate them by rolling many times: --monte-carlo [--trials N]".to_owned(),
            ],
        })?;
        Ok(Law { dist, run: None })
    }
}

/// The shard's JSON: the command line it belongs to, which shard it is, and its runs.
pub fn shard_json(argv: &[String], shard: Shard, runs: Vec<Value>) -> Value {
    json!({
        "dice_shard": 1,
        "argv": argv,
        "shard": { "index": shard.index, "count": shard.count },
        "runs": runs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every routed shape, rolled through its table sampler, against the expression's exact
    /// law (chi-square and the largest deviation in standard errors, as dice-sim's checks).
    #[test]
    fn routed_expressions_draw_the_exact_law() {
        let cases = [
            "1d20",
            "3d6",
            "3d6+2",
            "5+2d10",
            "4d6-3",
            "10d10",
            "4d6kh3",
            "2d20kl1",
            "5d8dl2",
            "4d6dh1",
            "10d10>=8",
            "6d6={5,6}",
            "7d6>=5",
            "10d10!10>=8",
            "10d10!10>=8+1",
            "5d6!>=5>=4",
            "6d6!>=4cap5>=4",
            "12d6!>=4>=5",
            "4d10!>=9cap1>=9",
            "1d10!>=2cap3<=5",
            "40d10!10>=8",
        ];
        for (i, text) in cases.iter().enumerate() {
            let e = Expression::parse(text).unwrap();
            let routed = route(&e, 1_000_000).unwrap_or_else(|| panic!("{text} is not routed"));
            let est = Simulation::new(100 + i as u64, 40_000)
                .unwrap()
                .chunk_size(4_096)
                .unwrap()
                .run_batch(&routed);
            let exact = e.distribution().unwrap();
            let agreement = dice_sim::compare(&est, &exact);
            // 21 checks: at 1e-7 each, a false alarm is out of reach.
            assert!(agreement.is_consistent(5.5, 1e-7), "{text}: {agreement}");
        }
    }

    #[test]
    fn other_shapes_are_rolled_as_written() {
        for text in [
            "3d6r1",
            "2d6+1d4",
            "10d10>=8f1",
            "3d6!",
            "5d6!kh3",
            "1d20+5 vs 15",
            "4dF",
            "10d10!!>=8",
            "2d6*2",
            "3d6min2",
            "4d6kh3>=4",
            "6d6mt",
            "10d6kh5k(l2)",
            "8d6k(h5,l2)",
        ] {
            let e = Expression::parse(text).unwrap();
            assert!(route(&e, 1_000_000).is_none(), "{text} was routed");
        }
        // A table larger than the run is not built.
        let e = Expression::parse("10d10").unwrap();
        assert!(route(&e, 1_000).is_none());
        assert!(route(&e, 1_000_000).is_some());
    }

    /// The same seed gives the same histogram on 1 thread and 2, and shards of a routed run
    /// add up to the whole run.
    #[test]
    fn routed_runs_are_reproducible_and_shard_exactly() {
        let e = Expression::parse("10d10!10>=8").unwrap();
        let routed = route(&e, 300_000).unwrap();
        let sim = Simulation::new(9, 300_000)
            .unwrap()
            .chunk_size(7_000)
            .unwrap();
        let one = sim.clone().threads(1).unwrap().run_batch(&routed);
        let two = sim.clone().threads(2).unwrap().run_batch(&routed);
        assert_eq!(one.histogram(), two.histogram());
        let mut merged = Histogram::new();
        for i in 0..3 {
            let range = dice_sim::shard_range(sim.chunks(), i, 3);
            merged.merge(&sim.run_batch_chunks(&routed, range));
        }
        assert_eq!(&merged, one.histogram());
    }

    #[test]
    fn shards_are_parsed() {
        assert_eq!(parse_shard("3/8"), Ok(Shard { index: 3, count: 8 }));
        assert!(parse_shard("0/8").is_err());
        assert!(parse_shard("9/8").is_err());
        assert!(parse_shard("3").is_err());
    }
}
