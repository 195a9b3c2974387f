//! The rulebook's duel between Juliard of the Cardinal's Guard and the rogue Del Trevaine
//! (L1418, L1527, L1890), played out with the extended conflict rules and a fixed seed.
//!
//! From the rulebook: Juliard rolls Fencing (rapier) 3 + Core Physical 5 = 8 dice (L1418),
//! has Memory 4 (L1483) and Self Awareness 2 (L1455); Del is Size 6 (L1890). The other
//! numbers are not in the text and are this example's own.
//!
//! `cargo run -p dice-robots-and-rapiers --example juliard_vs_del_trevaine`

use dice_core::Roll;
use dice_robots_and_rapiers::{
    AttackType, BaseActionPoints, Breadth, Chassis, CombatAction, Conflict, ConflictKind,
    DamageProcedure, Dice, Error, Ledger, MeleeWeapon, Opposition, Participant, Ranking, Rules,
    Senses, Test, TestResult, TurnOrder, TurnOutcome, combat_ap_tn, knockdown_save,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

struct Duelist {
    name: &'static str,
    dice: Dice,
    chassis: Chassis,
    size: u32,
    senses: Senses,
    self_awareness: u32,
    inspiration: u32,
    weapon: MeleeWeapon,
}

impl Duelist {
    fn articulation(&self) -> i32 {
        self.chassis.attributes[2]
    }
    fn locomotion(&self) -> i32 {
        self.chassis.attributes[3]
    }
    fn processor(&self) -> i32 {
        self.chassis.attributes[4]
    }
    fn durability(&self) -> i32 {
        self.chassis.attributes[1]
    }
}

fn main() -> Result<(), Error> {
    let rules = Rules::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1627);
    let mut duelists = [
        Duelist {
            name: "Juliard",
            dice: Dice::Program {
                program: 3,
                core: 5,
            },
            // Force, Durability, Articulation, Locomotion, Processor, Memory.
            chassis: Chassis::new([5, 6, 6, 5, 5, 4], [4, 3, 3, 3], 7, vec![]),
            size: 6,
            senses: Senses::new(4, 3),
            self_awareness: 2,
            inspiration: 3,
            weapon: MeleeWeapon::SonicRapier,
        },
        Duelist {
            name: "Del Trevaine",
            dice: Dice::Program {
                program: 4,
                core: 4,
            },
            chassis: Chassis::new([4, 5, 5, 6, 6, 5], [3, 4, 3, 4], 6, vec![]),
            size: 6,
            senses: Senses::new(3, 4),
            self_awareness: 0,
            inspiration: 0,
            weapon: MeleeWeapon::SonicRapier,
        },
    ];

    // Initial turn order (L295–296) and Base Action Points (L2091): one on one, TN 5.
    let rankings: Vec<Ranking> = duelists
        .iter()
        .map(|d| {
            let p = d.senses.perception(Default::default(), &rules);
            Ranking::new(p, d.locomotion(), d.inspiration)
        })
        .collect();
    let order = TurnOrder::roll_initial(&rankings, ConflictKind::Combat, &rules, &mut rng)?;
    let mut participants = Vec::new();
    for d in &duelists {
        let dice = d.processor() as u32 + d.self_awareness;
        let base = BaseActionPoints::new(dice, combat_ap_tn(1, 1, &rules), &rules)?;
        let ap = base.roll(&mut rng);
        println!("{}: {base} → {ap} Action Points", d.name);
        participants.push(Participant::new(d.name, ap, dice));
    }
    let mut conflict = Conflict::new(participants, order)?;
    println!("Turn order: {conflict}\n");

    for turn in 1..=40 {
        let Some(actor) = conflict.order().top() else {
            break;
        };
        let defender = 1 - actor;
        let (atk, def) = (&duelists[actor], &duelists[defender]);

        // Basic Melee Attack, Fencing vs Articulation (L345); the defender parries with
        // Fencing vs Locomotion (L346) if it has an Action Point to spend (L2113).
        let attack_dice = atk.dice.base().unwrap_or(0);
        let mut attack =
            Test::new(attack_dice, atk.articulation())?.with_difficulty(atk.weapon.difficulty())?;
        let defends = conflict.participant(defender)?.action_points > 0;
        if defends {
            conflict.oppose(defender, 1)?;
            // The parrying weapon's Difficulty applies to the parry too (L2366).
            let parry = Opposition::new(def.dice.base().unwrap_or(0), def.locomotion())?
                .with_difficulty(def.weapon.difficulty())?;
            attack = attack.opposed_by(parry);
        }
        let roll = attack.roll_test(&mut rng);
        println!(
            "Turn {turn}: {} attacks ({}): {roll}",
            atk.name,
            CombatAction::MeleeAttack
        );

        let mut outcome = TurnOutcome::from_roll(&roll, defends.then_some(defender));
        match roll.result() {
            TestResult::Won(n) => {
                // The first success hits; the rest lower the Durability Save (L2222).
                let mut ledger = roll.ledger();
                ledger.accomplish(1)?;
                let extra = ledger.left();
                let damage = -ledger.lower_save_tn(extra, Breadth::Single)? as u32;
                let blow = DamageProcedure {
                    weapon_damage: atk.weapon.damage(),
                    ..DamageProcedure::new(def.durability(), damage)
                };
                let save = blow.durability_save(atk.weapon.damage_kind(), &rules)?;
                let result = save.roll(&mut rng);
                println!("  hit with {n} net: {save} → {result}");
                if let Some(m) = blow.knockdown(def.size, AttackType::Thrust, &rules) {
                    let k = knockdown_save(def.locomotion(), m)?.roll_save(&mut rng);
                    println!("  knockdown save: {k}");
                }
                for report in duelists[defender].chassis.take_damage(&result, &mut rng) {
                    println!("  malfunction: {report}");
                }
                if result.shutdown {
                    let winner = duelists[actor].name;
                    println!(
                        "\n{} is shut down. {winner} wins the duel.",
                        duelists[defender].name
                    );
                    return Ok(());
                }
            }
            TestResult::Lost(n) => {
                // The parry won: its first extra success refunds the Action Point (L2234).
                println!("  parried by {n}");
                if n >= 1 {
                    let p = conflict.participant(defender)?;
                    if p.action_points < p.max_action_points {
                        // The parry's n net successes: a defence only blocks (A4).
                        let mut parry = Ledger::augmenting(n);
                        conflict.regain(defender, &mut parry, 1)?;
                    }
                }
            }
            TestResult::Tie => {
                println!("  a tie: the blade is turned");
                outcome = TurnOutcome::NoRight;
            }
        }
        conflict.end_turn(outcome);
        // Whoever holds the first right pays for the next turn while it has points to
        // spare (L315, L2135).
        let wants: Vec<usize> = (0..2)
            .filter(|&w| conflict.participant(w).is_ok_and(|p| p.action_points >= 2))
            .collect();
        if let Some(payer) = conflict.pay_for_turn(&wants)? {
            println!("  {} pays for the next turn", duelists[payer].name);
        }
        println!("  order: {conflict}");
    }
    println!("\nThe duel is broken off: both robots are still standing.");
    Ok(())
}
