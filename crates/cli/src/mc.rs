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

use dice_core::{Dist, Exact, Roll};
use dice_sim::{Estimates, Histogram, Simulation};
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
        let counts: Vec<(M::Outcome, u64)> = serde_json::from_value(run["counts"].clone())
            .map_err(|e| CliError::bad_input(format_args!("the shards' counts: {e}")))?;
        return Ok(Estimates::from_histogram(
            Histogram::from_counts(counts),
            CONFIDENCE,
        ));
    }
    if let Some(shard) = ctx.shard {
        let chunks = sim.chunks();
        let range = dice_sim::shard_range(chunks, shard.index - 1, shard.count);
        let h = sim.run_chunks(mechanic, range.clone());
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
    let est = sim.run_with_progress(mechanic, |p| {
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

    #[test]
    fn shards_are_parsed() {
        assert_eq!(parse_shard("3/8"), Ok(Shard { index: 3, count: 8 }));
        assert!(parse_shard("0/8").is_err());
        assert!(parse_shard("9/8").is_err());
        assert!(parse_shard("3").is_err());
    }
}
