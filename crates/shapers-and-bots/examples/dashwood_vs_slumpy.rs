//! The rulebook's fight (L378–426): Dashwood the parrot, armored, with her bow, against
//! Slumpy the elephant and his spiked club — played out turn by turn with a fixed seed, then
//! the exact odds of who is left standing.
//!
//! `cargo run -p dice-shapers-and-bots --example dashwood_vs_slumpy` (add a number to pick
//! another seed).
//!
//! The fight is the shipped scene `scenes/dashwood-and-slumpy.toml`, which also says what
//! the table chooses where the rulebook is silent (both attack and defend at their Fitness,
//! SB-A8, SB-A20; Dashwood is used to her armor and takes an arrow from her quiver before
//! each shot; Slumpy starts at a distance and runs in). The fighters play
//! [`RulebookTactics`](dice_shapers_and_bots::RulebookTactics): each defends only when that
//! lowers the chance of being hit (an undefended attack on a big elephant needs 11, so
//! Slumpy never bothers) and an action can be spared.

use dice_core::{EncounterLimits, end_law, play};
use dice_shapers_and_bots::{Rules, Scene};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

const SCENE: &str = include_str!("../scenes/dashwood-and-slumpy.toml");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 2026,
    };
    let scene: Scene = toml::from_str(SCENE)?;
    let fight = scene.encounter(&Rules::default())?;

    println!("seed {seed}");
    for f in fight.fighters() {
        println!("{f}");
    }
    let played = play(&fight, &mut Xoshiro256PlusPlus::seed_from_u64(seed), 1_000);
    for (turn, state) in played.states.iter().enumerate() {
        match turn {
            0 => println!("start: {}", fight.describe(state)),
            t => println!("turn {t}: {}", fight.describe(state)),
        }
    }
    match &played.end {
        Some(v) => println!("{v} after {} turns", played.rounds()),
        None => println!("still going after {} turns", played.rounds()),
    }

    let law = end_law(&fight, EncounterLimits::default())?;
    println!("exact odds ({} states):", law.states);
    for (v, p) in law.ends.iter() {
        println!("  {v}: {:.4}%", 100.0 * p);
    }
    if let Some(r) = law.expected_rounds {
        println!("  expected turns {r:.4}");
    }
    Ok(())
}
