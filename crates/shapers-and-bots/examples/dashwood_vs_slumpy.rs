//! The rulebook's fight (L378–426): Dashwood the parrot, armored, with her bow, against
//! Slumpy the elephant and his spiked club — played out with a fixed seed.
//!
//! `cargo run -p dice-shapers-and-bots --example dashwood_vs_slumpy` (add a number to pick
//! another seed).
//!
//! Choices the rulebook leaves to the table, made here and printed at the start: both defend
//! with Acrobatics (SB-A8), attack with their Weapon specialty (SB-A20), Dashwood is used to
//! her armor, and ties for initiative are rolled on 2d6 (SB-A11). Each side defends only when
//! the exact odds say defending lowers the chance of being hit (an undefended attack on a big
//! elephant needs 11, so Slumpy never bothers), borrowing at most one action from the next
//! turn.

use dice_core::{Die, Exact, Keep, Pool, Sum};
use dice_shapers_and_bots::{
    Action, ActionTaken, Armor, Attack, AttackOutcome, Characteristics, Contestant, Damage, Fight,
    Health, Initiative, Level, Rules, Size, Species, WeaponClass,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

struct Fighter {
    name: &'static str,
    body: Characteristics,
    armor: Armor,
    attack: Contestant,
    defense: Contestant,
    weapon: WeaponClass,
    health: Health,
    /// A bow needs an arrow from the quiver before each shot (L341–343).
    needs_reload: bool,
    /// A club needs the fighter next to the target.
    melee: bool,
    loaded: bool,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 2026,
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let rules = Rules::default();

    // Dashwood: a parrot (Very Low Size, Very High Fitness, L378–382), armored (L424).
    let dashwood_body = Species::Parrot.characteristics();
    let dashwood_armor = Armor::Accustomed;
    // Slumpy: an elephant with Low Fitness (L384–387).
    let slumpy_body = Characteristics {
        fitness: Level::Low,
        ..Species::Elephant.characteristics()
    };
    let mut fighters = [
        Fighter {
            name: "Dashwood",
            body: dashwood_body,
            armor: dashwood_armor,
            // Weapon: bow and Acrobatics both start at Fitness (L243, L278).
            attack: Contestant::rated(dashwood_body.fitness).wearing(dashwood_armor)?,
            defense: Contestant::rated(dashwood_body.fitness).wearing(dashwood_armor)?,
            weapon: WeaponClass::Large, // "an arrow or a sword" (L398)
            health: Health::of(&dashwood_body, &rules)?,
            needs_reload: true,
            melee: false,
            loaded: true,
        },
        Fighter {
            name: "Slumpy",
            body: slumpy_body,
            armor: Armor::Unarmored,
            attack: Contestant::rated(slumpy_body.fitness),
            defense: Contestant::rated(slumpy_body.fitness),
            weapon: WeaponClass::Large, // the spiked club (L421–422)
            health: Health::of(&slumpy_body, &rules)?,
            needs_reload: false,
            melee: true,
            loaded: true,
        },
    ];

    println!("seed {seed}");
    println!(
        "table choices: Weapon skill to attack, Acrobatics to defend (SB-A8, SB-A20); \
         initiative ties on 2d6 (SB-A11); rulings {rules:?}"
    );
    for f in &fighters {
        println!(
            "{:<9} {} | {} | attack {} | defense {} | {}",
            f.name, f.body, f.health, f.attack, f.defense, f.armor
        );
    }

    // Initiative: highest Fitness first, ties on 2d6, rolled once for the fight (L325–328).
    let two_d6 = Sum::new(Pool::new(2, Die::D6)?, Keep::All, 0)?;
    let initiative = Initiative::new(fighters.iter().map(|f| f.body.fitness).collect(), two_d6)?;
    let roll = initiative.roll_initiative(&mut rng);
    let mut fight = Fight::new(roll.order.clone(), &rules)?;
    let names: Vec<&str> = roll.order.iter().map(|i| fighters[i].name).collect();
    println!("initiative: {} ({roll})", names.join(" then "));

    // Slumpy starts at bow range and must run to close in (L421: "Slumpy closes in").
    let mut apart = true;

    'fight: for _ in 0..30 {
        println!("-- turn {} --", fight.turn());
        for me in roll.order.iter() {
            // Fighters act in turn (L324–325); the target may defend in the attacker's turn.
            debug_assert_eq!(fight.current(), me);
            let them = 1 - me;
            while fight.actions(me)?.left() > 0 {
                if fighters[me].needs_reload && !fighters[me].loaded {
                    fight.act(me, Action::Reload)?;
                    fighters[me].loaded = true;
                    println!("{} takes an arrow from her quiver", fighters[me].name);
                    continue;
                }
                if apart && fighters[me].melee {
                    fight.act(me, Action::Run)?;
                    apart = false;
                    println!("{} runs in to close the distance", fighters[me].name);
                    continue;
                }
                fight.act(me, Action::Attack)?;
                fighters[me].loaded = false;
                let attack =
                    choose_attack(&fighters[me], &fighters[them], &mut fight, them, &rules)?;
                let result = attack.roll_attack(&mut rng);
                print!(
                    "{} attacks {}: {result}",
                    fighters[me].name, fighters[them].name
                );
                if result.outcome == AttackOutcome::HitWithConsequences {
                    print!(" (the Director adds a consequence)");
                }
                println!();
                if result.outcome.is_hit() {
                    let armored = fighters[them].armor.is_worn();
                    let damage = Damage::new(fighters[me].weapon, armored, &rules)?;
                    let dealt = damage.roll_damage(&mut rng);
                    let condition = fighters[them].health.take(dealt.points, &rules);
                    println!(
                        "  {} ({}{}) does {dealt}: {} has {} left, {condition}",
                        fighters[me].weapon,
                        if armored { "armored, " } else { "" },
                        damage.rule(),
                        fighters[them].name,
                        fighters[them].health
                    );
                    fight.set_condition(them, condition)?;
                    if condition == dice_shapers_and_bots::Condition::Unconscious {
                        println!("{} is unconscious (L432).", fighters[them].name);
                        break 'fight;
                    }
                }
            }
            // The last fighter's end of turn starts the next turn for everyone.
            fight.end_turn();
        }
    }
    Ok(())
}

/// The defender defends when the exact odds say it lowers the chance of being hit and an
/// action is available: this turn's, or one borrowed from the next (L362–363) — at most one
/// owed, so that it keeps an action of its own next turn. Returns the attack to roll.
fn choose_attack(
    attacker: &Fighter,
    defender: &Fighter,
    fight: &mut Fight,
    defender_id: usize,
    rules: &Rules,
) -> Result<Attack, Box<dyn std::error::Error>> {
    let size: Size = defender.body.size;
    let undefended = Attack::undefended(attacker.attack, &size, rules)?;
    let defended = Attack::defended(attacker.attack, defender.defense, rules)?;
    let p_hit = |a: &Attack| -> Result<f64, dice_core::Error> {
        Ok(a.distribution()?.probability_where(|o| o.is_hit()))
    };
    let (pu, pd) = (p_hit(&undefended)?, p_hit(&defended)?);
    // Borrow at most one action a turn, so as to keep one for the next turn.
    let actions = fight.actions(defender_id)?;
    if pd < pu && (actions.left() > 0 || actions.owed() == 0) {
        if let Ok(taken) = fight.act(defender_id, Action::Defend) {
            let how = if taken == ActionTaken::Borrowed {
                ", borrowing from next turn"
            } else {
                ""
            };
            println!(
                "  {} defends{how} (hit chance {:.0}% instead of {:.0}%)",
                defender.name,
                100.0 * pd,
                100.0 * pu
            );
            return Ok(defended);
        }
    }
    println!(
        "  {} does not defend: needs {} (hit chance {:.0}%)",
        defender.name,
        size.attack_target(),
        100.0 * pu
    );
    Ok(undefended)
}
