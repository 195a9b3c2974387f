//! Agreement between a simulation and the exact law.

use std::fmt;
use std::hash::Hash;

use dice_core::{Dist, Exact};

use crate::error::SimError;
use crate::histogram::Estimates;
use crate::run::Simulation;
use crate::stats::chi_square_p_value;

/// How well simulated frequencies agree with an exact distribution.
///
/// ```
/// use dice_core::{Die, Keep, Pool, Sum};
/// let two_d6 = Sum::new(Pool::new(2, Die::D6)?, Keep::All, 0)?;
/// let a = dice_sim::check_against_exact(&two_d6, 1, 100_000)?;
/// assert!(a.max_deviation < 5.0, "{a}");
/// assert!(a.p_value > 1e-6, "{a}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Agreement {
    /// Trials compared.
    pub trials: u64,
    /// The largest `|frequency − p| / sqrt(p(1 − p)/n)` over the outcomes expected at least 5
    /// times, and over the rest pooled into one outcome (where the normal approximation
    /// behind a standard error holds); infinite when an outcome of exact probability 0 was
    /// observed.
    pub max_deviation: f64,
    /// The outcome with the largest deviation, as text.
    pub worst_outcome: String,
    /// Pearson's chi-square statistic over bins of expected count at least 5 (smaller
    /// outcomes and the unlisted tail pooled into one bin).
    pub chi_square: f64,
    /// Degrees of freedom: bins − 1.
    pub degrees_of_freedom: u32,
    /// P(χ² ≥ statistic): small values mean the simulation and the law disagree.
    pub p_value: f64,
    /// Outcomes observed that the exact law says are impossible, as text.
    pub impossible: Vec<String>,
}

impl Agreement {
    /// Whether the deviation stays within `max_se` standard errors, the p-value is at least
    /// `min_p`, and nothing impossible was seen.
    pub fn is_consistent(&self, max_se: f64, min_p: f64) -> bool {
        self.impossible.is_empty() && self.max_deviation <= max_se && self.p_value >= min_p
    }

    /// Panics with the whole report unless [`Agreement::is_consistent`]`(5.0, 1e-6)`: a test
    /// helper.
    #[track_caller]
    pub fn assert_consistent(&self) {
        assert!(
            self.is_consistent(5.0, 1e-6),
            "simulation and exact law disagree: {self}"
        );
    }
}

impl fmt::Display for Agreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} trials: largest deviation {:.2} SE (at {}), chi-square {:.2} on {} dof, p = {:.4}",
            self.trials,
            self.max_deviation,
            self.worst_outcome,
            self.chi_square,
            self.degrees_of_freedom,
            self.p_value
        )?;
        if !self.impossible.is_empty() {
            write!(
                f,
                "; impossible outcomes seen: {}",
                self.impossible.join(", ")
            )?;
        }
        Ok(())
    }
}

/// Compares simulated estimates with an exact law.
pub fn compare<O>(sim: &Estimates<O>, exact: &Dist<O>) -> Agreement
where
    O: Eq + Hash + Clone + Ord + fmt::Debug,
{
    let n = sim.trials();
    let nf = n as f64;
    let mut max_deviation = 0.0f64;
    let mut worst_outcome = String::new();
    let mut impossible = Vec::new();
    for (o, c) in sim.histogram().sorted() {
        if exact.probability(&o) == 0.0 {
            // Outcomes beyond the listed range may be in the unlisted tail.
            let beyond = exact.outcomes().last().is_some_and(|last| &o > last);
            if !(beyond && exact.tail() > 0.0) {
                impossible.push(format!("{o:?} ({c} times)"));
                max_deviation = f64::INFINITY;
                worst_outcome = format!("{o:?}");
            }
        }
    }
    // Bins: every listed outcome with expected count ≥ 5; the rest pooled.
    let mut chi = 0.0;
    let mut bins = 0u32;
    let (mut small_expected, mut small_observed) = (exact.tail() * nf, 0.0);
    let listed: std::collections::BTreeSet<&O> = exact.outcomes().iter().collect();
    for (o, c) in sim.histogram().sorted() {
        if !listed.contains(&o) {
            small_observed += c as f64;
        }
    }
    for (o, p) in exact.iter() {
        let c = sim.histogram().count(o) as f64;
        let expected = p * nf;
        if expected >= 5.0 {
            let se = (p * (1.0 - p) / nf).sqrt();
            let d = (c / nf - p).abs() / se;
            if d > max_deviation {
                max_deviation = d;
                worst_outcome = format!("{o:?}");
            }
            chi += (c - expected) * (c - expected) / expected;
            bins += 1;
        } else {
            small_expected += expected;
            small_observed += c;
        }
    }
    // The pooled rare outcomes count as one outcome for the deviation too.
    if small_expected > 0.0 {
        let p = small_expected / nf;
        let se = (p * (1.0 - p) / nf).sqrt();
        let d = (small_observed / nf - p).abs() / se;
        if d > max_deviation && small_expected >= 5.0 {
            max_deviation = d;
            worst_outcome = "(rare outcomes pooled)".to_string();
        }
    }
    if small_expected >= 5.0 {
        chi += (small_observed - small_expected).powi(2) / small_expected;
        bins += 1;
    } else if small_observed > 0.0 && small_expected > 0.0 {
        // Too small to bin on its own; still count the surprise.
        chi += (small_observed - small_expected).powi(2) / small_expected.max(1.0);
        bins += 1;
    }
    let dof = bins.saturating_sub(1);
    Agreement {
        trials: n,
        max_deviation,
        worst_outcome,
        chi_square: chi,
        degrees_of_freedom: dof,
        p_value: if impossible.is_empty() {
            chi_square_p_value(chi, dof)
        } else {
            0.0
        },
        impossible,
    }
}

/// The one-liner for tests: simulate `mechanic` for `trials` trials from `seed` and compare
/// with its exact distribution.
///
/// # Errors
/// [`SimError::Exact`] when the exact distribution cannot be computed; the simulation's own
/// errors for a bad trial count.
pub fn check_against_exact<M>(mechanic: &M, seed: u64, trials: u64) -> Result<Agreement, SimError>
where
    M: Exact + Sync + ?Sized,
    M::Outcome: Send + 'static,
{
    let exact = mechanic.distribution()?;
    let sim = Simulation::new(seed, trials)?.run(mechanic);
    Ok(compare(&sim, &exact))
}
