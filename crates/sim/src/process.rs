//! Multi-step simulations: a process run round by round until it ends or hits a cap.

use std::fmt;
use std::hash::Hash;

use dice_core::{Rng, Roll};

use crate::error::SimError;

/// A process that runs in rounds until it ends: a progress task accumulating successes, a
/// fight until one side is down.
///
/// `start` makes the state; `step` plays one round and returns `Some(outcome)` when the
/// process has ended.
pub trait Process {
    /// What changes from round to round.
    type State;
    /// How it ends.
    type Outcome: Clone + Ord + Hash + fmt::Debug + fmt::Display;
    /// The state before the first round.
    fn start(&self) -> Self::State;
    /// Plays one round.
    fn step<R: Rng + ?Sized>(&self, state: &mut Self::State, rng: &mut R) -> Option<Self::Outcome>;
}

/// How a capped run of a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Ended<O> {
    /// It ended by itself.
    Finished(O),
    /// It was still going at the round cap.
    Capped,
}

impl<O: fmt::Display> fmt::Display for Ended<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ended::Finished(o) => write!(f, "{o}"),
            Ended::Capped => f.write_str("capped"),
        }
    }
}

/// A process run to its end, at most `max_rounds` rounds: a [`Roll`] whose outcome is how
/// it ended, so [`crate::Simulation`] estimates the chance of each ending and of hitting the
/// cap (`estimate(&Ended::Capped)`).
///
/// ```
/// use dice_core::{Comparison, Die, Pool, Roll, SuccessPool};
/// use dice_sim::{Ended, RunToEnd, Simulation, process_fn};
///
/// // A progress task: 3d6, successes on 4+, needs 5 successes in total.
/// let roll = SuccessPool::new(Pool::new(3, Die::D6)?, Comparison::AtLeast(4));
/// let task = process_fn(
///     || 0u32,
///     |progress: &mut u32, rng| {
///         *progress += roll.count(rng);
///         (*progress >= 5).then_some("done")
///     },
/// );
/// let run = RunToEnd::new(task, 50)?;
/// let r = Simulation::new(1, 20_000)?.run(&run);
/// assert!(r.estimate(&Ended::Capped).probability < 1e-3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RunToEnd<P> {
    process: P,
    max_rounds: u32,
}

impl<P: Process> RunToEnd<P> {
    /// `process`, stopped after `max_rounds` rounds.
    ///
    /// # Errors
    /// [`SimError::RoundCap`] when `max_rounds` is 0.
    pub fn new(process: P, max_rounds: u32) -> Result<Self, SimError> {
        if max_rounds == 0 {
            return Err(SimError::RoundCap);
        }
        Ok(RunToEnd {
            process,
            max_rounds,
        })
    }

    /// Runs once, returning the ending and the rounds played.
    pub fn run_once<R: Rng + ?Sized>(&self, rng: &mut R) -> (Ended<P::Outcome>, u32) {
        let mut state = self.process.start();
        for round in 1..=self.max_rounds {
            if let Some(o) = self.process.step(&mut state, rng) {
                return (Ended::Finished(o), round);
            }
        }
        (Ended::Capped, self.max_rounds)
    }

    /// The number of rounds it takes, as a mechanic of its own (capped runs count as
    /// [`Ended::Capped`]).
    pub fn rounds(&self) -> Rounds<'_, P> {
        Rounds(self)
    }
}

impl<P: Process> Roll for RunToEnd<P> {
    type Outcome = Ended<P::Outcome>;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Outcome {
        self.run_once(rng).0
    }
}

/// The rounds a [`RunToEnd`] takes, as a [`Roll`].
#[derive(Clone, Copy, Debug)]
pub struct Rounds<'a, P>(&'a RunToEnd<P>);

impl<P: Process> Roll for Rounds<'_, P> {
    type Outcome = Ended<u32>;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Ended<u32> {
        match self.0.run_once(rng) {
            (Ended::Finished(_), rounds) => Ended::Finished(rounds),
            (Ended::Capped, _) => Ended::Capped,
        }
    }
}

/// A [`Process`] from two closures: `start() -> state` and
/// `step(&mut state, rng) -> Option<outcome>`.
pub fn process_fn<S, O, F, G>(start: F, step: G) -> FnProcess<F, G>
where
    F: Fn() -> S,
    G: Fn(&mut S, &mut dyn rand::Rng) -> Option<O>,
    O: Clone + Ord + Hash + fmt::Debug + fmt::Display,
{
    FnProcess { start, step }
}

/// The [`Process`] made by [`process_fn`].
#[derive(Clone, Copy, Debug)]
pub struct FnProcess<F, G> {
    start: F,
    step: G,
}

impl<S, O, F, G> Process for FnProcess<F, G>
where
    F: Fn() -> S,
    G: Fn(&mut S, &mut dyn rand::Rng) -> Option<O>,
    O: Clone + Ord + Hash + fmt::Debug + fmt::Display,
{
    type State = S;
    type Outcome = O;
    fn start(&self) -> S {
        (self.start)()
    }
    fn step<R: Rng + ?Sized>(&self, state: &mut S, mut rng: &mut R) -> Option<O> {
        let dyn_rng: &mut dyn rand::Rng = &mut rng;
        (self.step)(state, dyn_rng)
    }
}
