//! The error type of dice-sim.

/// Bad input to a simulation, or an exact law that could not be had.
///
/// ```
/// let err = dice_sim::Simulation::new(1, 0).unwrap_err();
/// assert_eq!(err.to_string(), "trials must be 1..=281474976710656, not 0");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// A trial count out of range.
    #[error("trials must be 1..={max}, not {trials}")]
    Trials {
        /// What was asked for.
        trials: u64,
        /// [`crate::MAX_TRIALS`].
        max: u64,
    },
    /// A confidence level outside (0, 1).
    #[error("a confidence level must be strictly between 0 and 1, not {level}")]
    Confidence {
        /// What was asked for.
        level: f64,
    },
    /// A precision target outside (0, 1).
    #[error("a precision (interval half-width) must be strictly between 0 and 1, not {half_width}")]
    Precision {
        /// What was asked for.
        half_width: f64,
    },
    /// A chunk size out of range.
    #[error("a chunk holds 1..=4294967296 trials, not {size}")]
    ChunkSize {
        /// What was asked for.
        size: u64,
    },
    /// Zero threads.
    #[error("a simulation needs at least one thread")]
    Threads,
    /// A law with unlisted mass cannot be sampled exactly.
    #[error("the distribution leaves {tail:e} of its mass unlisted; sampling it would be biased")]
    Unlisted {
        /// The unlisted mass.
        tail: f64,
    },
    /// An empty distribution.
    #[error("the distribution lists no outcome")]
    Empty,
    /// A round cap of zero for a process.
    #[error("a process needs a round cap of at least 1")]
    RoundCap,
    /// A table-driven sampler whose shape is out of range (too many entries, no dice).
    #[error("table sampler: {reason}")]
    Table {
        /// What was wrong.
        reason: String,
    },
    /// The exact distribution could not be computed.
    #[error("exact distribution: {0}")]
    Exact(#[from] dice_core::Error),
}
