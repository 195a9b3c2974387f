//! Games with state: an encounter (a fight, a chase, a long task) played round by round, and
//! the exact law of how it ends.
//!
//! A game crate describes its encounter as an [`Encounter`]: a state (the combatants' health,
//! statuses, whose turn, what is left of the round's actions), the law of the state after one
//! more round, built from the game's own mechanics, and a way to play that round with an RNG.
//! This module does the rest:
//!
//! - [`play`] plays it to the end with a record of every round;
//! - [`end_law`] gives the exact law of the end (which side wins, or a draw), the expected
//!   number of rounds and their distribution, by dynamic programming over the states the
//!   encounter can reach. A round that leaves the state unchanged (everyone missed) is solved
//!   exactly, as is any loop through several states (healing undone by a hit): the states are
//!   split into strongly connected components, and each component's equations are solved
//!   directly, never by iterating to a cut-off, by an elimination that never subtracts
//!   (Grassmann, Taksar and Heyman's), so that a loop left only rarely is still solved to
//!   rounding. The chance of never ending (a loop with no way out: a stall) is solved for
//!   as an end of its own, exactly 0 when every state can reach an end;
//!   [`never_ending_states`] lists the states of a stall;
//! - [`PlayOut`] is the encounter as a [`Roll`], so Monte Carlo (dice-sim) estimates the same
//!   law.
//!
//! Limits are checked before the work where the game bounds its states
//! ([`Encounter::state_bound`]), and again as the states are listed: at most
//! [`EncounterLimits::max_states`] states ([`Error::TooManyStates`], whose message says to
//! estimate the odds by playing many encounters instead) and
//! [`EncounterLimits::max_component`] states in one loop ([`Error::TooComplex`]).
//!
//! ```
//! use dice_core::{Dist, Encounter, EncounterLimits, Error, Rng, end_law};
//!
//! /// Two duellists with 2 hit points each; every round each hits the other with
//! /// probability 1/2, at the same time. Both at 0 is a draw.
//! struct Duel;
//! impl Encounter for Duel {
//!     type State = (u8, u8);
//!     type End = &'static str;
//!     fn start(&self) -> (u8, u8) { (2, 2) }
//!     fn end(&self, &(a, b): &(u8, u8)) -> Option<&'static str> {
//!         match (a, b) {
//!             (0, 0) => Some("draw"),
//!             (0, _) => Some("B wins"),
//!             (_, 0) => Some("A wins"),
//!             _ => None,
//!         }
//!     }
//!     fn round_law(&self, &(a, b): &(u8, u8)) -> Result<Dist<(u8, u8)>, Error> {
//!         Dist::from_pairs([((a, b), 0.25), ((a - 1, b), 0.25), ((a, b - 1), 0.25), ((a - 1, b - 1), 0.25)])
//!     }
//!     fn play_round<R: Rng + ?Sized>(&self, &(a, b): &(u8, u8), rng: &mut R) -> (u8, u8) {
//!         let r = rng.next_u32();
//!         (a - (r & 1) as u8, b - ((r >> 1) & 1) as u8)
//!     }
//! }
//! let law = end_law(&Duel, EncounterLimits::default())?;
//! assert!((law.ends.probability(&"A wins") - law.ends.probability(&"B wins")).abs() < 1e-15);
//! assert!((law.ends.total() - 1.0).abs() < 1e-12);
//! # Ok::<(), Error>(())
//! ```

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use rand::Rng;

use crate::dist::Dist;
use crate::error::Error;
use crate::{Exact, Roll};

/// An encounter played round by round: its state, how it ends, and the law of the next
/// round. [`end_law`] gives the exact law of its end, [`play`] plays it, [`PlayOut`] rolls it.
pub trait Encounter {
    /// Everything that decides what can happen next. It should hold no round counter (the
    /// engine counts rounds), so that states repeat and the exact law stays small.
    type State: Clone + Ord;
    /// How an encounter ends: which side won, or a draw; survivors' health if it matters.
    type End: Clone + Ord;

    /// The state before the first round.
    fn start(&self) -> Self::State;

    /// `Some(end)` when `state` is final.
    fn end(&self, state: &Self::State) -> Option<Self::End>;

    /// The law of the state after one more round from `state` (not final).
    ///
    /// # Errors
    /// Whatever the game's mechanics return (a law too costly to compute, say).
    fn round_law(&self, state: &Self::State) -> Result<Dist<Self::State>, Error>;

    /// Plays one round from `state` (not final) with the caller's RNG: a draw from
    /// [`Encounter::round_law`].
    fn play_round<R: Rng + ?Sized>(&self, state: &Self::State, rng: &mut R) -> Self::State;

    /// As [`Encounter::play_round`], and tells what happened in the round: a line a person
    /// can read for each action (who did what to whom, the dice, the damage), pushed onto
    /// `told`. It must draw from `rng` exactly as `play_round` does, so that one seed plays
    /// the same fight either way. [`play`] calls it. The default tells nothing.
    fn play_round_told<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut R,
        told: &mut Vec<String>,
    ) -> Self::State {
        let _ = told;
        self.play_round(state, rng)
    }

    /// An upper bound on the states the encounter can reach, known before any is listed
    /// (from the combatants' health ranges, statuses and turn positions), or `None` when the
    /// game gives none. [`end_law`] refuses at once, before any work, when it is above
    /// [`EncounterLimits::max_states`]; without a bound the limit is checked as the states
    /// are listed.
    fn state_bound(&self) -> Option<u64> {
        None
    }

    /// The combatants whose health [`end_law`] reports at the end ([`EndLaw::health`]), by
    /// name, in a fixed order. Empty by default.
    fn health_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The health of each of [`Encounter::health_names`] in `state`, in the same order: at
    /// most [`Encounter::down_at`] for one who is down (out of the fight), above it for one
    /// still standing.
    fn health(&self, state: &Self::State) -> Vec<i64> {
        let _ = state;
        Vec::new()
    }

    /// The highest [`Encounter::health`] at which a combatant is down: 0 by default (hit
    /// points at 0 or below); a game where one may still stand at 0 says so (a robot at
    /// Durability 0 runs until it shuts down).
    fn down_at(&self) -> i64 {
        0
    }
}

/// A policy: which of the actions open to a combatant it takes in a state. Game crates call
/// it from their rounds, and give a default that plays as their rulebook advises; a caller
/// implements it to try other tactics.
///
/// ```
/// use dice_core::Policy;
/// /// Always the first action offered.
/// struct First;
/// impl<S, A: Clone> Policy<S, A> for First {
///     fn choose(&self, _state: &S, _who: usize, open: &[A]) -> A {
///         open[0].clone()
///     }
/// }
/// assert_eq!(First.choose(&(), 0, &["attack", "flee"]), "attack");
/// ```
pub trait Policy<S, A> {
    /// The action combatant `who` takes in `state`, one of `open` (never empty).
    fn choose(&self, state: &S, who: usize, open: &[A]) -> A;
}

/// Bounds on the work of [`end_law`], checked before the work against the game's
/// [`Encounter::state_bound`] and again as the states are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncounterLimits {
    /// The most states an encounter may reach.
    pub max_states: usize,
    /// The most states in one loop (a strongly connected component), whose equations are
    /// solved together in `O(n³)` time and `O(n²)` memory.
    pub max_component: usize,
    /// The most rounds whose distribution is listed; the rest is the rounds law's tail.
    pub max_rounds: u32,
}

impl Default for EncounterLimits {
    /// 200,000 states, loops of 400 states, 10,000 rounds listed.
    fn default() -> Self {
        EncounterLimits {
            max_states: 200_000,
            max_component: 400,
            max_rounds: 10_000,
        }
    }
}

/// The exact law of an encounter's end.
#[derive(Clone, Debug, PartialEq)]
pub struct EndLaw<O> {
    /// P(each end). Its tail is the chance that the encounter never ends (it reaches states
    /// from which no end can be reached, [`never_ending_states`]), solved for as an end of
    /// its own: exactly 0 when every state can reach an end.
    pub ends: Dist<O>,
    /// P(the encounter ends after exactly `n` rounds), listed until what is left that can
    /// still end is below `1e-12` or [`EncounterLimits::max_rounds`]; the tail holds the
    /// rest (what never ends included).
    pub rounds: Dist<u32>,
    /// The expected number of rounds, solved exactly; `None` when the encounter may never end.
    pub expected_rounds: Option<f64>,
    /// How many states the encounter can reach (final ones included).
    pub states: usize,
    /// Each combatant's health at the end ([`Encounter::health_names`], in that order): the
    /// law of its value in the final state, solved with the ends. Its tail is the chance of
    /// never ending. Empty when the game names no combatants.
    pub health: Vec<(String, Dist<i64>)>,
}

/// The rounds law stops listing when what is left weighs less than this.
const ROUNDS_TOLERANCE: f64 = 1e-12;

/// The exact law of how `encounter` ends.
///
/// # Errors
/// [`Error::TooManyStates`] beyond [`EncounterLimits::max_states`] (at once when the game's
/// [`Encounter::state_bound`] is over it), [`Error::TooComplex`] for a loop beyond
/// [`EncounterLimits::max_component`] or rounds too many to list; whatever
/// [`Encounter::round_law`] returns.
pub fn end_law<E: Encounter>(
    encounter: &E,
    limits: EncounterLimits,
) -> Result<EndLaw<E::End>, Error> {
    let graph = Graph::explore(encounter, limits)?;
    let ends = graph.end_kinds();
    let can_end = graph.can_end();
    // Columns: the ends, then each combatant's health values at the end, one block each.
    let names = encounter.health_names();
    let healths: Vec<Option<Vec<i64>>> = graph
        .end
        .iter()
        .zip(&graph.states)
        .map(|(e, s)| e.as_ref().map(|_| encounter.health(s)))
        .collect();
    let mut values: Vec<Vec<i64>> = vec![Vec::new(); names.len()];
    for h in healths.iter().flatten() {
        for (v, &x) in values.iter_mut().zip(h) {
            v.push(x);
        }
    }
    let mut first = Vec::with_capacity(names.len());
    let mut width = ends.len();
    for v in &mut values {
        v.sort_unstable();
        v.dedup();
        first.push(width);
        width += v.len();
    }
    let columns: Vec<Vec<usize>> = graph
        .end
        .iter()
        .zip(&healths)
        .map(|(e, h)| match (e, h) {
            (Some(e), Some(h)) => {
                let mut c = vec![ends.binary_search(e).unwrap_or(0)];
                for ((v, &x), &f) in values.iter().zip(h).zip(&first) {
                    c.push(f + v.binary_search(&x).unwrap_or(0));
                }
                c
            }
            _ => Vec::new(),
        })
        .collect();
    let (absorb, expected) = graph.solve(&columns, width, &can_end, limits)?;
    let start = 0;
    let row = &absorb[start];
    let pairs = ends
        .iter()
        .enumerate()
        .map(|(j, end)| (end.clone(), row[j].clamp(0.0, 1.0)));
    // Solved for as an end of its own (no end reached), not as 1 − the rest: exactly 0 when
    // every state can reach an end.
    let never = row[width].clamp(0.0, 1.0);
    let ends_law = Dist::from_pairs_and_tail(pairs, never)?;
    let health = names
        .into_iter()
        .zip(&values)
        .zip(&first)
        .map(|((name, v), &f)| {
            let pairs = v
                .iter()
                .enumerate()
                .map(|(i, &x)| (x, row[f + i].clamp(0.0, 1.0)));
            Dist::from_pairs_and_tail(pairs, never).map(|d| (name, d))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let rounds = graph.rounds_law(&can_end, limits.max_rounds)?;
    Ok(EndLaw {
        ends: ends_law,
        rounds,
        expected_rounds: expected[start],
        states: graph.states.len(),
        health,
    })
}

/// The reachable states from which the encounter can never end: the loops with no way out
/// (say, two fighters who only ever dodge) and the states that lead only into them. Empty
/// when [`EndLaw::ends`] has no tail. A policy that stalls shows up here.
///
/// # Errors
/// As [`end_law`] while listing the states.
///
/// ```
/// use dice_core::{Dist, Encounter, EncounterLimits, Error, Rng, never_ending_states};
///
/// /// A standoff: from 1 the walk may go to 0 (an end) or to 2, and 2 only returns to 2.
/// struct Standoff;
/// impl Encounter for Standoff {
///     type State = u8;
///     type End = ();
///     fn start(&self) -> u8 { 1 }
///     fn end(&self, &s: &u8) -> Option<()> { (s == 0).then_some(()) }
///     fn round_law(&self, &s: &u8) -> Result<Dist<u8>, Error> {
///         if s == 1 { Dist::from_pairs([(0, 0.5), (2, 0.5)]) } else { Ok(Dist::certain(2)) }
///     }
///     fn play_round<R: Rng + ?Sized>(&self, &s: &u8, rng: &mut R) -> u8 {
///         if s == 1 && rng.next_u32() & 1 == 0 { 0 } else { 2 }
///     }
/// }
/// assert_eq!(never_ending_states(&Standoff, EncounterLimits::default())?, [2]);
/// let law = dice_core::end_law(&Standoff, EncounterLimits::default())?;
/// assert_eq!(law.ends.tail(), 0.5);
/// assert_eq!(law.expected_rounds, None);
/// # Ok::<(), Error>(())
/// ```
pub fn never_ending_states<E: Encounter>(
    encounter: &E,
    limits: EncounterLimits,
) -> Result<Vec<E::State>, Error> {
    let graph = Graph::explore(encounter, limits)?;
    let can_end = graph.can_end();
    Ok(graph
        .states
        .into_iter()
        .zip(can_end)
        .filter_map(|(s, ok)| (!ok).then_some(s))
        .collect())
}

/// The reachable states and their transitions.
struct Graph<S, O> {
    states: Vec<S>,
    /// `Some(end)` for final states.
    end: Vec<Option<O>>,
    /// Transitions of each state that is not final: `(to, probability)`.
    next: Vec<Vec<(usize, f64)>>,
}

impl<S: Clone + Ord, O: Clone + Ord> Graph<S, O> {
    fn explore<E: Encounter<State = S, End = O>>(
        e: &E,
        limits: EncounterLimits,
    ) -> Result<Self, Error> {
        if let Some(bound) = e.state_bound() {
            if bound > limits.max_states as u64 {
                return Err(Error::TooManyStates {
                    states: bound,
                    max: limits.max_states as u64,
                });
            }
        }
        let mut index: BTreeMap<S, usize> = BTreeMap::new();
        let mut g = Graph {
            states: Vec::new(),
            end: Vec::new(),
            next: Vec::new(),
        };
        let start = e.start();
        index.insert(start.clone(), 0);
        g.end.push(e.end(&start));
        g.states.push(start);
        g.next.push(Vec::new());
        let mut i = 0;
        while i < g.states.len() {
            if g.end[i].is_none() {
                let law = e.round_law(&g.states[i])?;
                let mut out = Vec::with_capacity(law.len());
                for (s, p) in law.iter() {
                    let j = match index.get(s) {
                        Some(&j) => j,
                        None => {
                            let j = g.states.len();
                            if j >= limits.max_states {
                                return Err(Error::TooManyStates {
                                    states: j as u64 + 1,
                                    max: limits.max_states as u64,
                                });
                            }
                            index.insert(s.clone(), j);
                            g.end.push(e.end(s));
                            g.states.push(s.clone());
                            g.next.push(Vec::new());
                            j
                        }
                    };
                    out.push((j, p));
                }
                g.next[i] = out;
            }
            i += 1;
        }
        Ok(g)
    }

    /// The distinct ends, in order.
    fn end_kinds(&self) -> Vec<O> {
        let mut v: Vec<O> = self.end.iter().flatten().cloned().collect();
        v.sort();
        v.dedup();
        v
    }

    /// Which states can reach an end (a final state, by some path of positive chance).
    fn can_end(&self) -> Vec<bool> {
        let n = self.states.len();
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (s, out) in self.next.iter().enumerate() {
            for &(t, _) in out {
                into[t].push(s);
            }
        }
        let mut ok: Vec<bool> = self.end.iter().map(Option::is_some).collect();
        let mut todo: Vec<usize> = (0..n).filter(|&s| ok[s]).collect();
        while let Some(t) = todo.pop() {
            for &s in &into[t] {
                if !ok[s] {
                    ok[s] = true;
                    todo.push(s);
                }
            }
        }
        ok
    }

    /// For every state, P(each end), then P(no end is ever reached), and the expected rounds
    /// to the end (`None` where an end may never come), component by component in reverse
    /// topological order. States that cannot end are not solved for: P(no end) = 1.
    #[allow(clippy::type_complexity)]
    fn solve(
        &self,
        columns: &[Vec<usize>],
        k: usize,
        can_end: &[bool],
        limits: EncounterLimits,
    ) -> Result<(Vec<Vec<f64>>, Vec<Option<f64>>), Error> {
        let n = self.states.len();
        // Columns: `k` of them (a final state puts its 1 in each of its `columns`), then
        // "never ends".
        let mut absorb = vec![vec![0.0; k + 1]; n];
        let mut expected: Vec<Option<f64>> = vec![None; n];
        for (i, e) in self.end.iter().enumerate() {
            if e.is_some() {
                for &c in &columns[i] {
                    absorb[i][c] = 1.0;
                }
                expected[i] = Some(0.0);
            } else if !can_end[i] {
                absorb[i][k] = 1.0;
            }
        }
        // Where each state of the component being solved sits in it (MAX: not in it).
        let mut slot = vec![usize::MAX; n];
        for comp in self.components() {
            if comp.iter().any(|&s| self.end[s].is_some() || !can_end[s]) {
                // A final state (alone in its component), or a component that cannot end.
                continue;
            }
            let m = comp.len();
            if m > limits.max_component {
                return Err(Error::TooComplex {
                    what: "a loop of states in an encounter",
                    work: m as u64,
                    max: limits.max_component as u64,
                });
            }
            for (r, &s) in comp.iter().enumerate() {
                slot[s] = r;
            }
            // x = P x + b for the states of the loop: P their moves among themselves, b what
            // their moves out of it bring (each end, never ending, and 1 + the rounds still
            // to come); `out` is the chance of leaving.
            let mut p = vec![vec![0.0; m]; m];
            let mut b = vec![vec![0.0; k + 2]; m];
            let mut out = vec![0.0; m];
            let mut finite = true;
            for (r, &s) in comp.iter().enumerate() {
                b[r][k + 1] = 1.0;
                for &(t, q) in &self.next[s] {
                    if slot[t] != usize::MAX {
                        p[r][slot[t]] += q;
                    } else {
                        out[r] += q;
                        for (bk, x) in b[r].iter_mut().zip(&absorb[t]) {
                            *bk += q * x;
                        }
                        match expected[t] {
                            Some(x) => b[r][k + 1] += q * x,
                            None => finite = false,
                        }
                    }
                }
            }
            let x = solve_loop(p, b, out);
            for (r, &s) in comp.iter().enumerate() {
                slot[s] = usize::MAX;
                let row = &x[r];
                absorb[s] = row[..=k].to_vec();
                // Expected rounds are finite only where the end is certain: where no state
                // this component leads to may never end.
                expected[s] = finite.then(|| row[k + 1]);
            }
        }
        Ok((absorb, expected))
    }

    /// Strongly connected components of the non-final states and the final ones, each
    /// emitted after every component it leads to (Tarjan's order), iteratively.
    fn components(&self) -> Vec<Vec<usize>> {
        let n = self.states.len();
        let mut index = vec![usize::MAX; n];
        let mut low = vec![0usize; n];
        let mut on_stack = vec![false; n];
        let mut stack = Vec::new();
        let mut out = Vec::new();
        let mut counter = 0;
        for root in 0..n {
            if index[root] != usize::MAX {
                continue;
            }
            // (state, next edge to look at)
            let mut call = vec![(root, 0usize)];
            index[root] = counter;
            low[root] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut e)) = call.last_mut() {
                if let Some(&(w, _)) = self.next[v].get(*e) {
                    *e += 1;
                    if index[w] == usize::MAX {
                        index[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        call.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                } else {
                    call.pop();
                    if let Some(&(u, _)) = call.last() {
                        low[u] = low[u].min(low[v]);
                    }
                    if low[v] == index[v] {
                        let mut comp = Vec::new();
                        while let Some(w) = stack.pop() {
                            on_stack[w] = false;
                            comp.push(w);
                            if w == v {
                                break;
                            }
                        }
                        out.push(comp);
                    }
                }
            }
        }
        out
    }

    /// P(the encounter ends after exactly `r` rounds), by pushing the mass forward round by
    /// round over the states that hold some. Mass that reaches a state that cannot end is
    /// set aside at once (it is in the tail, never ended), so that a stall does not keep the
    /// listing going to `max_rounds`.
    fn rounds_law(&self, can_end: &[bool], max_rounds: u32) -> Result<Dist<u32>, Error> {
        let n = self.states.len();
        if self.end[0].is_some() {
            return Ok(Dist::certain(0));
        }
        // The moves laid out one after another, state by state, so that each round reads
        // them in one sweep rather than from one list per state (a round touches every state
        // that holds some mass, many thousand of them, for a hundred rounds or more).
        let too_many = |work: usize| Error::TooComplex {
            what: "the moves of an encounter",
            work: work as u64,
            max: u64::from(u32::MAX),
        };
        let mut first = Vec::with_capacity(n + 1);
        let mut to: Vec<u32> = Vec::new();
        let mut chance: Vec<f64> = Vec::new();
        first.push(0);
        for out in &self.next {
            for &(t, p) in out {
                to.push(u32::try_from(t).map_err(|_| too_many(t))?);
                chance.push(p);
            }
            first.push(to.len());
        }
        let mut pairs = Vec::new();
        let mut never = 0.0;
        let mut mass = vec![0.0; n];
        let mut next = vec![0.0; n];
        // The states holding mass now, and those reached in the round being pushed.
        let mut live: Vec<usize> = Vec::new();
        let mut reached: Vec<usize> = Vec::new();
        if can_end[0] {
            mass[0] = 1.0;
            live.push(0);
        } else {
            never = 1.0;
        }
        let mut left = mass[0];
        let mut round = 0u32;
        while left > ROUNDS_TOLERANCE && round < max_rounds {
            round += 1;
            for &s in &live {
                let m = mass[s];
                mass[s] = 0.0;
                let moves = first[s]..first[s + 1];
                for (&t, &p) in to[moves.clone()].iter().zip(&chance[moves]) {
                    let t = t as usize;
                    if next[t] == 0.0 {
                        reached.push(t);
                    }
                    next[t] += m * p;
                }
            }
            let mut ended = 0.0;
            left = 0.0;
            live.clear();
            for &t in &reached {
                let x = core::mem::replace(&mut next[t], 0.0);
                if x == 0.0 {
                    continue;
                }
                if self.end[t].is_some() {
                    ended += x;
                } else if !can_end[t] {
                    never += x;
                } else {
                    if mass[t] == 0.0 {
                        live.push(t);
                    }
                    mass[t] += x;
                    left += x;
                }
            }
            reached.clear();
            if ended > 0.0 {
                pairs.push((round, ended));
            }
        }
        Dist::from_pairs_and_tail(pairs, (left + never).max(0.0))
    }
}

/// Solves `x = P·x + b` for the states of one loop (several right-hand sides), where `P`
/// holds the chances of moving among them (self-loops included) and `out[i]` the chance of
/// leaving the loop from state `i`, by elimination in the way of Grassmann, Taksar and
/// Heyman: eliminating state `j` sends the moves into it on along its own moves, and its
/// chance of not staying put, `1 − P[j][j]`, is taken as the sum of its moves elsewhere and
/// out, never by the subtraction. Every quantity is a sum of products of nonnegative numbers,
/// so nothing cancels and the answers are accurate to rounding relative to their size,
/// however slowly the loop is left. Every state must be able to leave the loop (then each
/// divisor is positive); a state that cannot gets zeros.
fn solve_loop(mut p: Vec<Vec<f64>>, mut b: Vec<Vec<f64>>, mut out: Vec<f64>) -> Vec<Vec<f64>> {
    let m = p.len();
    let width = b.first().map_or(0, Vec::len);
    let mut leave = vec![0.0; m];
    for j in 0..m {
        // The chance that j moves on: to a state not yet eliminated, or out.
        let d = out[j] + p[j][j + 1..].iter().sum::<f64>();
        leave[j] = d;
        if d <= 0.0 {
            continue;
        }
        let (done, rest) = p.split_at_mut(j + 1);
        let row_j = &done[j];
        let (b_done, b_rest) = b.split_at_mut(j + 1);
        let b_j = &b_done[j];
        for (i, row_i) in rest.iter_mut().enumerate() {
            let f = row_i[j] / d;
            if f == 0.0 {
                continue;
            }
            row_i[j] = 0.0;
            for (x, &y) in row_i[j + 1..].iter_mut().zip(&row_j[j + 1..]) {
                *x += f * y;
            }
            for (x, &y) in b_rest[i].iter_mut().zip(b_j) {
                *x += f * y;
            }
            out[j + 1 + i] += f * out[j];
        }
    }
    let mut x = vec![vec![0.0; width]; m];
    for j in (0..m).rev() {
        let d = leave[j];
        if d <= 0.0 {
            continue;
        }
        let (now, later) = x.split_at_mut(j + 1);
        let xj = &mut now[j];
        xj.copy_from_slice(&b[j]);
        for (l, xl) in later.iter().enumerate() {
            let q = p[j][j + 1 + l];
            if q != 0.0 {
                for (a, &c) in xj.iter_mut().zip(xl) {
                    *a += q * c;
                }
            }
        }
        for a in xj.iter_mut() {
            *a /= d;
        }
    }
    x
}

/// One encounter played to its end: every state it went through, and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Played<S, O> {
    /// The states, the start first; one more per round played.
    pub states: Vec<S>,
    /// What happened in each round, as the game tells it
    /// ([`Encounter::play_round_told`]): `told[i]` holds the lines of round `i + 1`.
    pub told: Vec<Vec<String>>,
    /// How it ended, or `None` if it was still going after the round cap.
    pub end: Option<O>,
}

impl<S, O> Played<S, O> {
    /// Rounds played.
    pub fn rounds(&self) -> u32 {
        u32::try_from(self.states.len().saturating_sub(1)).unwrap_or(u32::MAX)
    }
}

impl<S: fmt::Display, O: fmt::Display> fmt::Display for Played<S, O> {
    /// The start, then each round: what happened (indented), then the state after it; then
    /// the end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.states.iter().enumerate() {
            if i == 0 {
                writeln!(f, "start: {s}")?;
            } else {
                for line in self.told.get(i - 1).into_iter().flatten() {
                    writeln!(f, "  {line}")?;
                }
                writeln!(f, "round {i}: {s}")?;
            }
        }
        match &self.end {
            Some(e) => write!(f, "end after {} rounds: {e}", self.rounds()),
            None => write!(f, "still going after {} rounds", self.rounds()),
        }
    }
}

/// Plays `encounter` with the caller's RNG until it ends or `max_rounds` rounds have been
/// played, keeping every state and what the game tells of each round
/// ([`Encounter::play_round_told`]).
pub fn play<E: Encounter, R: Rng + ?Sized>(
    encounter: &E,
    rng: &mut R,
    max_rounds: u32,
) -> Played<E::State, E::End> {
    let mut states = vec![encounter.start()];
    let mut told = Vec::new();
    loop {
        let now = &states[states.len() - 1];
        if let Some(end) = encounter.end(now) {
            return Played {
                states,
                told,
                end: Some(end),
            };
        }
        if states.len() > max_rounds as usize {
            return Played {
                states,
                told,
                end: None,
            };
        }
        let mut lines = Vec::new();
        let next = encounter.play_round_told(now, rng, &mut lines);
        told.push(lines);
        states.push(next);
    }
}

/// How one encounter played by [`PlayOut`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Ending<O> {
    /// It ended so.
    Ended(O),
    /// It was still going at the round cap.
    Capped,
}

impl<O: fmt::Display> fmt::Display for Ending<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Ended(o) => write!(f, "{o}"),
            Ending::Capped => f.write_str("still going at the round cap"),
        }
    }
}

/// An encounter as a [`Roll`]: each roll plays it to its end (at most `max_rounds` rounds,
/// without keeping the states) and yields how it ended, so Monte Carlo estimates the law that
/// [`end_law`] computes; [`Exact`] gives that law, the round cap's share in
/// [`Ending::Capped`].
#[derive(Clone, Debug)]
pub struct PlayOut<E> {
    encounter: E,
    max_rounds: u32,
}

impl<E> PlayOut<E> {
    /// `encounter`, played at most `max_rounds` rounds a roll.
    ///
    /// # Errors
    /// [`Error::Cap`] when `max_rounds` is 0.
    pub fn new(encounter: E, max_rounds: u32) -> Result<Self, Error> {
        if max_rounds == 0 {
            return Err(Error::Cap {
                cap: 0,
                max: u32::MAX,
            });
        }
        Ok(PlayOut {
            encounter,
            max_rounds,
        })
    }

    /// The encounter.
    pub fn encounter(&self) -> &E {
        &self.encounter
    }
}

impl<E: Encounter> Roll for PlayOut<E>
where
    E::End: fmt::Debug + fmt::Display + core::hash::Hash,
{
    type Outcome = Ending<E::End>;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Ending<E::End> {
        let mut state = self.encounter.start();
        for _ in 0..self.max_rounds {
            if let Some(end) = self.encounter.end(&state) {
                return Ending::Ended(end);
            }
            state = self.encounter.play_round(&state, rng);
        }
        match self.encounter.end(&state) {
            Some(end) => Ending::Ended(end),
            None => Ending::Capped,
        }
    }
}

impl<E: Encounter> Exact for PlayOut<E>
where
    E::End: fmt::Debug + fmt::Display + core::hash::Hash,
{
    /// The law of how a roll ends: each end's chance of coming within the round cap, and
    /// the rest (the chance of still going at the cap, and of never ending) as
    /// [`Ending::Capped`]. Computed by pushing the mass forward round by round, at most
    /// `max_rounds` rounds.
    fn distribution(&self) -> Result<Dist<Ending<E::End>>, Error> {
        let limits = EncounterLimits::default();
        let g = Graph::explore(&self.encounter, limits)?;
        let n = g.states.len();
        let mut at: BTreeMap<E::End, f64> = BTreeMap::new();
        let mut mass = vec![0.0; n];
        mass[0] = 1.0;
        for _ in 0..=self.max_rounds {
            let mut next = vec![0.0; n];
            for (s, &m) in mass.iter().enumerate() {
                if m == 0.0 {
                    continue;
                }
                match &g.end[s] {
                    Some(e) => *at.entry(e.clone()).or_insert(0.0) += m,
                    None => {
                        for &(t, p) in &g.next[s] {
                            next[t] += m * p;
                        }
                    }
                }
            }
            mass = next;
        }
        // What was still going after `max_rounds` rounds (pushed one round further above,
        // wherever it landed).
        let capped: f64 = mass.iter().sum();
        let pairs = at
            .into_iter()
            .map(|(e, p)| (Ending::Ended(e), p))
            .chain(core::iter::once((Ending::Capped, capped)));
        Dist::from_pairs(pairs)
    }
}
