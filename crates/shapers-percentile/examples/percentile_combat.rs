//! A round of Shapers combat, rolled with a seed, and the exact odds behind it.
//!
//! `cargo run -p dice-shapers-percentile --example percentile_combat` (add a number to pick the seed:
//! `cargo run -p dice-shapers-percentile --example percentile_combat -- 7`).

use dice_core::{Exact, Roll, RollDetailed};
use dice_shapers_percentile::{
    Attack, AttackKind, AttackOutcome, Cover, Damage, Defence, HitLocation, Initiative,
    MeleeSituation, OpposedTest, Outnumbering, RangeBand, RangedSituation, Rules, Side, Test,
    TurnOrder,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 2026,
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let rules = Rules::default();
    println!("seed {seed}\n");

    // Two shapers (PA 12 / MA 9 and PA 10 / MA 11) against an ogre (PA 6 / MA 4).
    let names = ["Ada", "Bram", "the ogre"];
    let fight = TurnOrder::new(vec![
        Initiative::new(12, 9)?,
        Initiative::new(10, 11)?,
        Initiative::new(6, 4)?,
    ])?;
    let ranking = fight.roll_ranking(&mut rng);
    println!("Initiative (d10 + PA + MA, L4):");
    for &i in &ranking.order.0 {
        println!("  {:<9} {}", names[i], ranking.scores[i]);
    }
    let p_ada_first = fight
        .distribution()?
        .probability_where(|o| o.first() == Some(0));
    println!("  P(Ada acts first) = {p_ada_first:.4}\n");

    // Ada charges the ogre with Bram beside her: 2 against 1, +20 (L41) and +10 (L40).
    let two_on_one = Outnumbering::new(2, 1)?;
    let situation = MeleeSituation {
        charging: true,
        outnumbering: Some(two_on_one),
        ..MeleeSituation::default()
    };
    for item in situation.itemize(&rules)? {
        println!("  {item}");
    }
    let swing = Test::new(12, 8, situation.total(&rules)?, &rules)?; // PA 12 + Melee (Armed) 8
    let parry = Test::new(6, 15, 0, &rules)?; // the ogre's PA 6 + Melee (Unarmed) 15
    let attack = Attack::new(swing, Defence::Opposed(parry), AttackKind::Melee, &rules)?;
    println!("Ada's charge: {attack}");
    let exchange = attack.roll_exchange(&mut rng);
    println!("  {exchange}");
    let axe = Damage::new(AttackKind::Melee, 7, 13, 12)?
        .outnumbering(two_on_one.damage_bonus(&rules))?
        .against(2, 11)?; // the ogre's hide and Physical Fortitude
    let fists = Damage::new(AttackKind::Melee, 3, 18, 6)?.against(1, 9)?;
    println!(
        "  damage to the ogre {}, to Ada {}",
        exchange.outcome.dealt_by_attacker(&axe, &rules),
        exchange.outcome.dealt_by_defender(&fists, &rules)
    );
    println!("  where: {}", HitLocation.roll(&mut rng));

    println!("\nExact odds of the charge:");
    let law = attack.distribution()?;
    println!(
        "  P(hit) {:.4}   P(miss) {:.4}   P(counter-attack) {:.4}",
        law.probability_where(|o| o.is_hit()),
        law.probability(&AttackOutcome::Miss),
        law.probability_where(|o| matches!(o, AttackOutcome::CounterAttack { .. })),
    );
    let damage = attack.damage_distribution(&axe)?;
    println!(
        "  damage to the ogre: mean {:.2}, P(at least 15) {:.4}",
        damage.mean(),
        damage.survival(&15)
    );

    // Bram shoots from 35 m with a bow of listed range 30 m, the ogre behind a fence.
    let band = RangeBand::from_distance(35.0, 30.0)?.ok_or("out of range")?;
    let shot = RangedSituation {
        cover: Some(Cover::Medium),
        target_size: Some(14),
        ..RangedSituation::new(band)
    };
    let bow = Test::new(10, 12, shot.total(&rules)?, &rules)?;
    println!("\nBram's shot at {band}: {bow}");
    println!("  {}", bow.roll_record(&mut rng));
    println!("  P(success) {:.2}", bow.success_probability());

    // The margin law of an even opposed test.
    let even = OpposedTest::new(
        Test::new(10, 5, 0, &rules)?,
        Test::new(10, 5, 0, &rules)?,
        &rules,
    );
    let net = even.net_distribution();
    println!(
        "\nEven opposed test (TN 65 each): P(attacker wins) {:.4}, P(loses by 30+) {:.4}",
        even.distribution()?
            .probability_where(|r| r.winner == Side::Attacker),
        net.probability_where(|&n| n <= -30)
    );

    println!("\nHit location (d100, L78-85):");
    for (loc, p) in HitLocation.distribution()?.iter() {
        println!("  {loc:<10} {p:.2}");
    }
    Ok(())
}
