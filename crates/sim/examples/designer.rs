//! A game designer's session with dice-sim, on Project Swimclass task rolls:
//!
//! 1. an odds table over a parameter grid (skill rank × difficulty), exact;
//! 2. a task whose progress adds up over rounds, simulated to completion (each round drawn
//!    in one step from the exact law of one roll), next to the exact chance of finishing
//!    within a number of rounds;
//! 3. the same run cut into two ranges of chunks, as two machines would run it, merged into
//!    the very same histogram.
//!
//! Run with `cargo run --release -p dice-sim --example designer`.

use std::error::Error;

use dice_core::{Exact, Roll};

use dice_sim::{
    AliasSampler, Ended, OddsTable, RunToEnd, Simulation, exact_probability, process_fn,
};
use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};

fn main() -> Result<(), Box<dyn Error>> {
    let rules = Rules::default();

    // 1. P(a single-roll task succeeds) for ranks 1–8 against difficulties 1–6.
    let table = OddsTable::build(
        "P(the task succeeds in one roll)",
        "rank",
        1..=8u32,
        "difficulty",
        1..=6i32,
        |&rank, &difficulty| -> Result<_, Box<dyn Error>> {
            let roll = TaskRoll::new(SkillDice::new(rank), Task::single(difficulty)?, rules)?;
            Ok(exact_probability(&roll, |o| o.succeeded)?)
        },
    )?;
    println!("{}", table.to_markdown());

    // 2. Rank 4 at difficulty 4, 8 progress needed: how many rounds does it take?
    let task = TaskRoll::new(SkillDice::new(4), Task::over_rounds(4, 8)?, rules)?;
    // One round's progress in one draw (alias method) instead of rolling four dice.
    let per_round = AliasSampler::new(&task.progress().distribution()?)?;
    let process = process_fn(
        || 0u32,
        |progress: &mut u32, rng| {
            *progress += per_round.roll(rng);
            (*progress >= 8).then_some("done")
        },
    );
    let run = RunToEnd::new(process, 40)?;
    let sim = Simulation::new(2026, 400_000)?;
    let rounds = sim.run(&run.rounds());
    println!(
        "Rank 4 vs difficulty 4, 8 progress needed ({} runs):",
        rounds.trials()
    );
    println!("rounds  P(takes exactly k), simulated  P(done within k): simulated  exact");
    let mut done_by = 0.0;
    for k in 1..=8u32 {
        let e = rounds.estimate(&Ended::Finished(k));
        done_by += e.probability;
        // The exact chance the task is complete within k rounds.
        let exact = task.progress_after(k)?.probability(&8);
        println!(
            "{k:>6}  {:.4} [{:.4}, {:.4}]             {done_by:.4}       {exact:.4}",
            e.probability, e.low, e.high
        );
    }
    println!(
        "still unfinished after 40 rounds: {:.4}\n",
        rounds.estimate(&Ended::Capped).probability
    );

    // 3. The same run fanned out: chunks 0..k here, k.. "elsewhere", merged. With the
    //    `serde` feature the partial histograms serialize, to ship between machines.
    let chunks = sim.chunks();
    let mut here = sim.run_chunks(&run.rounds(), 0..chunks / 2);
    let elsewhere = sim.run_chunks(&run.rounds(), chunks / 2..chunks);
    here.merge(&elsewhere);
    assert_eq!(&here, rounds.histogram());
    println!(
        "{} chunks run in two halves and merged: the same histogram, bit for bit",
        chunks
    );

    // And the simulation agrees with the exact law of one round's progress.
    let one_round = dice_sim::check_against_exact(&task.progress(), 7, 200_000)?;
    println!(
        "one round's progress, 200,000 rolls: largest deviation {:.2} standard errors, \
         chi-square p = {:.3}",
        one_round.max_deviation, one_round.p_value
    );
    Ok(())
}
