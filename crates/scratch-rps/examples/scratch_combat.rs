//! Replays the rulebook's combat example (L119–L151) with the dice the text gives, showing
//! the exact odds of every attack, then simulates the same fight many times with a seed.
//!
//! `cargo run -p dice-scratch-rps --example scratch_combat` (add a number to pick the seed:
//! `cargo run -p dice-scratch-rps --example scratch_combat -- 7`).

use dice_core::Roll;
use dice_scratch_rps::{
    Ability, Action, AttackKind, Character, Combatant, Environment, Fight, FightSimulation, Rules,
    Side, Turn,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed: u64 = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 2011,
    };
    let breakhelm = Character::from_stat_block("1 piloting, 4 shooting, 4 fighting, 6 toughness")?;
    let chokestar = Character::from_stat_block("2 piloting, 2 wrestling, 3 stalking, 3 toughness")?;
    let flipfire =
        Character::from_stat_block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness")?;
    println!("Breakhelm X-19: {breakhelm}");
    println!("Chokestar:      {chokestar}");
    println!("Flipfire:       {flipfire}");

    let rules = Rules::default();
    let mut fight = Fight::new(Environment::default(), rules);
    let (b, c, f) = (
        fight.add(Combatant::new(breakhelm, 1))?,
        fight.add(Combatant::new(chokestar, 0))?,
        fight.add(Combatant::new(flipfire, 0))?,
    );
    fight.start(&[14, 4, 17], &[])?;
    println!("\ninitiative order: {:?} (34, 17, 14)\n", fight.order());

    let wrestle = |hold_first| Action::WrestlingAttacks {
        basic_attack: b,
        hold: b,
        hold_first,
    };
    let script: Vec<(Option<Action>, Vec<u32>)> = vec![
        (Some(wrestle(true)), vec![10, 11]),
        (Some(Action::Shoot { target: b }), vec![8]),
        (
            Some(Action::FightingAttacks {
                first: c,
                second: c,
            }),
            vec![14, 10],
        ),
        (
            Some(Action::Hold {
                target: b,
                with: Some(Ability::Wrestling),
            }),
            vec![5],
        ),
        (Some(Action::Heal { target: c }), vec![13]),
        (Some(Action::Shoot { target: f }), vec![7]),
        (Some(wrestle(true)), vec![13, 7]),
        (Some(Action::Shoot { target: b }), vec![17]),
        (None, vec![]),
        (Some(wrestle(false)), vec![14, 9]),
        (Some(Action::Shoot { target: b }), vec![11]),
    ];
    for (action, dice) in script {
        let Some(actor) = fight.current() else { break };
        // The exact odds of a shot, before it is rolled.
        let mut odds = None;
        if let Some(Action::Shoot { target }) = &action {
            let shot = fight.attack_for(
                actor,
                AttackKind::Shooting,
                Some(Ability::Shooting),
                *target,
                None,
            )?;
            let damage = shot.damage_distribution()?;
            odds = Some(format!(
                "  odds of that shot: hit {:.0}%; damage {}",
                100.0 * shot.hit_chance(),
                damage
                    .iter()
                    .map(|(d, p)| format!("{d} {:.0}%", 100.0 * p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let report = match action {
            Some(a) => fight.take_turn(Turn::new(a), &dice)?,
            None => fight.pass()?,
        };
        println!("{report}");
        if let Some(o) = odds {
            println!("{o}");
        }
    }
    println!(
        "\nover: {}; standing: team {:?}",
        fight.is_over(),
        fight.standing_teams()
    );

    let sim = FightSimulation::new(
        vec![chokestar, flipfire],
        vec![breakhelm],
        Environment::default(),
        rules,
        50,
    )?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let n = 10_000;
    let (mut hunters, mut villain, mut rounds) = (0, 0, 0u64);
    for _ in 0..n {
        let o = sim.roll(&mut rng);
        match o.winner {
            Some(Side::A) => hunters += 1,
            Some(Side::B) => villain += 1,
            None => {}
        }
        rounds += u64::from(o.rounds);
    }
    println!(
        "\nseed {seed}: {n} simulated fights: bounty hunters {:.1}%, Breakhelm X-19 {:.1}%, mean {:.2} rounds",
        100.0 * f64::from(hunters) / f64::from(n),
        100.0 * f64::from(villain) / f64::from(n),
        rounds as f64 / f64::from(n)
    );
    let (outcome, log) = sim.run(&mut rng);
    println!("\none more, turn by turn:");
    for t in &log {
        println!("{t}");
    }
    println!("{outcome}");
    Ok(())
}
