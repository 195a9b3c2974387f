//! Rolls a few mechanics with a seed and prints every die.
//!
//! `cargo run -p dice-core --example roll` (add a number to pick the seed:
//! `cargo run -p dice-core --example roll -- 7`).

use dice_core::{
    BlockRule, Blocking, Cancellation, Comparison, Die, Explode, FaceSet, Keep, Pool, Roll,
    RollDetailed, Source, Streak, SuccessPool, Sum, VersusTarget,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 2026,
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    println!("seed {seed}");

    let stat = Sum::new(Pool::new(4, Die::D6)?, Keep::Highest(3), 0)?;
    println!("{:<28} {}", stat.to_string(), stat.roll_record(&mut rng));

    let challenge = VersusTarget::new(Sum::new(Pool::new(2, Die::D6)?, Keep::All, 2)?, 9)?;
    let record = challenge.roll_record(&mut rng);
    let outcome = dice_core::Versus::of(record.total, challenge.target());
    println!("{:<28} {record} -> {outcome}", challenge.to_string());

    let fluke = Streak::new(Die::D6, FaceSet::range(4, 6)?, 0)?;
    println!("{:<28} {}", fluke.to_string(), fluke.roll_record(&mut rng));

    let program = SuccessPool::new(
        Pool::new(8, Die::D10)?.with_dice(2, Die::D10, Source::Bonus)?,
        Comparison::AtMost(5),
    );
    println!(
        "{:<28} {}",
        program.to_string(),
        program.roll_record(&mut rng)
    );

    let exploding = SuccessPool::new(
        Pool::new(10, Die::D10)?.exploding(Explode::new(Comparison::Exactly(10)))?,
        Comparison::AtLeast(8),
    );
    println!(
        "{:<28} {}",
        exploding.to_string(),
        exploding.roll_record(&mut rng)
    );

    let opposed = Cancellation::new(
        SuccessPool::new(Pool::new(8, Die::D10)?, Comparison::AtMost(6)),
        Some(SuccessPool::new(
            Pool::new(6, Die::D10)?,
            Comparison::AtMost(5),
        )),
        1,
    )?;
    println!("{opposed}\n{:<28} {}", "", opposed.roll_record(&mut rng));

    let melee = Blocking::new(
        SuccessPool::new(Pool::new(3, Die::D6)?, Comparison::AtLeast(2)),
        Pool::new(3, Die::D6)?,
        BlockRule::AtLeast,
    );
    println!("{:<28} {}", melee.to_string(), melee.roll_record(&mut rng));

    let d20 = Die::D20;
    println!("{:<28} {}", d20.to_string(), d20.roll(&mut rng));
    Ok(())
}
