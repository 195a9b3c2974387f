//! # dice-sim
//!
//! Monte Carlo odds for anything that rolls: any mechanic implementing [`dice_core::Roll`]
//! is run for many trials, reproducibly from one seed whatever the number of threads, and
//! every outcome gets an estimated probability with a Wilson confidence interval.
//!
//! ```
//! use dice_core::{Comparison, Die, Pool, SuccessPool};
//! use dice_sim::{Simulation, check_against_exact};
//!
//! let test = SuccessPool::new(Pool::new(10, Die::D10)?, Comparison::AtMost(5));
//! // Run until every interval is narrower than ±0.002, or 5 million trials.
//! let result = Simulation::new(2026, 5_000_000)?.until_precision(0.002)?.run(&test);
//! println!("{result}");
//! // And check the simulation against the exact law.
//! check_against_exact(&test, 7, 100_000)?.assert_consistent();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! | need | item |
//! |---|---|
//! | run N trials, or until a precision, with progress and cancel | [`Simulation`] |
//! | per-outcome estimates, intervals, mean and standard error | [`Estimates`], [`Estimate`] |
//! | split a run across processes or machines | [`shard_range`], [`Simulation::run_chunks`], [`Histogram::merge`] |
//! | compare with an exact law | [`compare`], [`check_against_exact`], [`Agreement`] |
//! | odds tables over a parameter grid (Markdown, CSV, serde) | [`OddsTable`], [`probability`] |
//! | sample a known law with one draw | [`AliasSampler`] |
//! | the cheapest pools from tables of all face combinations, several trials a draw | [`TableRoll`], [`ExplodingCount`], [`Simulation::run_batch`] |
//! | a process over rounds (progress tasks, fights) with a round cap | [`Process`], [`RunToEnd`] |
//!
//! ## Reproducibility
//! Trials are cut into chunks of [`DEFAULT_CHUNK_SIZE`]; chunk `i` rolls with
//! [`chunk_rng`]`(seed, i)` (a [`rand::rngs::Xoshiro256PlusPlus`]). Histograms are integer
//! counts, so the sum over chunks is the same whatever order the chunks finish in: the same
//! seed, trial count and chunk size give the same histogram on 1 thread, on 2, or spread
//! over machines, and the means and deviations drawn from it are summed in the order of the
//! outcomes, so they match to the bit too.
//!
//! ## Features
//! - `parallel` (default): the calling thread and rayon's pool share the chunks, each
//!   taking the next one left.
//! - `serde`: histograms (for merging runs made elsewhere), estimates, agreements and tables.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod compare;
mod error;
mod histogram;
mod process;
mod run;
mod sampler;
mod stats;
mod table;
mod tables;

pub use compare::{Agreement, check_against_exact, compare};
pub use error::SimError;
pub use histogram::{Estimate, Estimates, Histogram, MAX_DISTINCT};
pub use process::{Ended, FnProcess, Process, Rounds, RunToEnd, process_fn};
pub use run::{
    DEFAULT_CHUNK_SIZE, DEFAULT_CONFIDENCE, MAX_TRIALS, Progress, Simulation, chunk_rng,
    shard_range,
};
pub use sampler::AliasSampler;
pub use stats::{chi_square_p_value, normal_quantile, wilson_interval};
pub use table::{Cell, OddsTable, exact_probability, probability, simulated_probability};
pub use tables::{Batch, ExplodingCount, MAX_TABLE, PerTrial, TableRoll};
