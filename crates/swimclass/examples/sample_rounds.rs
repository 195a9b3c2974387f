//! Replays the rulebook's Sample Rounds (L268–L300) with the dice the text gives, showing
//! the exact odds of every roll, then rolls the same exchanges once more with a seed.
//!
//! `cargo run -p dice-swimclass --example sample_rounds` (add a number to pick the seed:
//! `cargo run -p dice-swimclass --example sample_rounds -- 7`).

use dice_core::{Exact, Roll};
use dice_swimclass::{
    Applies, BASIC_TASKS, Bonus, Health, NO_THRESHOLD, OpposedRoll, Rules, School, Sheet, Skill,
    SkillDice, Task, TaskRoll, implement::catalogue, push, ranged_difficulty,
    tables::squares_moved,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn plus(dice: u32, modifier: i32) -> Bonus {
    Bonus::Plus { dice, modifier }
}

fn show(
    title: &str,
    roll: &OpposedRoll,
    attack: &[u32],
    defense: &[u32],
) -> Result<u32, Box<dyn std::error::Error>> {
    let r = roll.resolve(attack, defense)?;
    let law = roll.hits().distribution()?;
    println!("{title}\n  {roll}\n  {r}");
    println!(
        "  odds: P(success) {:.3}, expected hits {:.3}, P(advance) {:.3}",
        roll.success_chance()?,
        law.mean(),
        roll.advance_chance()?
    );
    Ok(r.outcome.hits)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed: u64 = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 2024,
    };
    let rules = Rules::default();
    println!("rules: {rules}\n");

    // L270–L278: the orc's club against Harro's great sword.
    let orc = SkillDice::new(2).with_bonus(plus(1, 2))?;
    let harro_parry = SkillDice::new(3).with_bonus(plus(1, 1))?;
    let swing = OpposedRoll::new(orc, NO_THRESHOLD, Some(harro_parry), rules)?;
    let mut harro = Health::new(3);
    harro.take(show(
        "The orc swings a club at Harro (L270–L278)",
        &swing,
        &[5, 1],
        &[5, 4, 3],
    )?);
    println!("  Harro: {harro}\n");

    // L280–L284: Harro strikes back.
    let harro_strike = SkillDice::new(3).with_bonus(plus(1, 2))?;
    let strike = OpposedRoll::new(harro_strike, NO_THRESHOLD, Some(SkillDice::new(3)), rules)?;
    let mut orc_health = Health::new(3);
    orc_health.take(show(
        "Harro strikes back (L280–L284)",
        &strike,
        &[5, 2, 1],
        &[6, 2, 1],
    )?);
    println!("  orc: {orc_health}\n");

    // L286–L288: the wind spirit and Cephas (the wind's difficulty is not given: 1 here).
    assert!(rules.wheel.opposes(School::Wind, School::Earth));
    let gust = OpposedRoll::new(SkillDice::new(3), 1, Some(SkillDice::new(4)), rules)?;
    show(
        "The wind spirit blows at Cephas (L286–L288)",
        &gust,
        &[5, 4, 1],
        &[5, 5, 2, 2],
    )?;
    println!();

    // L290–L294: Aerolis' first shot, and his rank.
    let bow = catalogue("Common Bow")
        .and_then(|e| e.implement_for(Applies::ToHit))
        .ok_or("bow")?;
    let mut aerolis = Sheet::with_ranks([(Skill::BasicRanged, 3)]);
    let mut beast = Health::new(3);
    let first = OpposedRoll::new(
        SkillDice::new(aerolis.rank(Skill::BasicRanged)).with_implement(&bow)?,
        ranged_difficulty(1),
        Some(SkillDice::new(3)),
        rules,
    )?;
    beast.take(show(
        "Aerolis shoots the beast at 1 square (L290–L294)",
        &first,
        &[5, 4, 4],
        &[2, 2, 2],
    )?);
    if first.resolve(&[5, 4, 4], &[2, 2, 2])?.outcome.advances {
        for change in aerolis.advance(Skill::BasicRanged, &rules) {
            println!("  advances: {change}");
        }
    }
    println!("  beast: {beast}\n");

    // L296: the beast runs, Walk 2 pushed ×3.
    let walk = &BASIC_TASKS[0];
    let pushed = push(walk.difficulty as u32, 3)?;
    let run = TaskRoll::new(
        SkillDice::new(2),
        Task::single(pushed.difficulty as i32)?,
        rules,
    )?;
    println!(
        "The beast runs (L296)\n  {run}\n  {}",
        run.resolve(&[6, 5])?
    );
    println!(
        "  moves {} squares; P(success) {:.3}\n",
        squares_moved(walk, Some(pushed)).unwrap_or(0),
        run.success_chance()?
    );

    // L298–L300: the second shot at 7 squares.
    let second = OpposedRoll::new(
        SkillDice::new(aerolis.rank(Skill::BasicRanged)).with_implement(&bow)?,
        ranged_difficulty(7),
        Some(SkillDice::new(3)),
        rules,
    )?;
    beast.take(show(
        "Aerolis shoots again at 7 squares (L298–L300)",
        &second,
        &[6, 3, 3, 2],
        &[5, 3, 2],
    )?);
    println!("  beast: {beast}\n");

    // The same exchanges rolled with a seed.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    println!("Rolled with seed {seed}:");
    for (name, roll) in [
        ("club", &swing),
        ("strike", &strike),
        ("gust", &gust),
        ("shot", &first),
        ("long shot", &second),
    ] {
        println!("  {name}: {}", roll.roll(&mut rng));
    }
    println!("  run: {}", run.roll(&mut rng));
    let table = dice_swimclass::HitTable::new(8, 8, 2, &[], &[], &rules)?;
    println!("\nExpected hits at difficulty 2, attack ranks down, defense across:\n{table}");
    Ok(())
}
