//! Every chance mechanic of every game crate, simulated and compared with its exact law
//! (`check_against_exact`: largest deviation within 5 standard errors, chi-square p ≥ 1e-6).
//! A new game crate adds its mechanics here with one line each.

use dice_sim::check_against_exact;

/// Trials per mechanic.
const N: u64 = 100_000;

/// Simulates `$m` from seed `$seed` and compares it with its exact law.
macro_rules! agrees {
    ($seed:expr, $m:expr) => {
        check_against_exact(&$m, $seed, N)
            .expect("exact law")
            .assert_consistent()
    };
}

#[test]
fn shapers_and_bots() {
    use dice_shapers_and_bots::{
        Attack, Attempt, Challenge, Contest, Contestant, Damage, Fluke, Level, Rating, Rules, Size,
        Stakes, WeaponClass,
    };
    let rules = Rules::default();
    agrees!(1, Challenge::new(Level::High, Level::Awesome).unwrap());
    agrees!(2, Challenge::new(Level::Low, Level::Low).unwrap());
    agrees!(3, Fluke::new(Level::VeryLow, &rules).unwrap());
    agrees!(
        4,
        Attempt::new(Rating::NoRating, Level::Low, Stakes::Important, &rules).unwrap()
    );
    let high = Contestant::rated(Level::High);
    let average = Contestant::rated(Level::Average);
    agrees!(5, Contest::new(high, average, &rules).unwrap());
    agrees!(6, Attack::defended(high, average, &rules).unwrap());
    agrees!(
        7,
        Attack::undefended(high, &Size::Single(Level::VeryHigh), &rules).unwrap()
    );
    for (seed, class) in [
        (8, WeaponClass::Small),
        (9, WeaponClass::Large),
        (10, WeaponClass::ReallyPowerful),
    ] {
        agrees!(seed, Damage::new(class, false, &rules).unwrap());
    }
    agrees!(11, Damage::new(WeaponClass::Large, true, &rules).unwrap());
}

#[test]
fn shapers_percentile() {
    use dice_shapers_percentile::{
        Attack, AttackKind, Defence, HitLocation, Initiative, OpposedTest, Rules, Test,
    };
    let rules = Rules::default();
    let swing = Test::new(12, 6, 10, &rules).unwrap();
    let parry = Test::new(10, 8, 0, &rules).unwrap();
    agrees!(21, swing);
    agrees!(22, OpposedTest::new(swing, parry, &rules));
    agrees!(
        23,
        Attack::new(swing, Defence::Opposed(parry), AttackKind::Melee, &rules).unwrap()
    );
    agrees!(
        24,
        Attack::new(swing, Defence::Passive(15), AttackKind::Melee, &rules).unwrap()
    );
    agrees!(25, HitLocation);
    agrees!(26, Initiative::new(12, 9).unwrap());
}

#[test]
fn scratch_rps() {
    use dice_scratch_rps::{
        Ability, Attack, AttackKind, Attacks, D20Roll, Initiative, InitiativeContest, Rules,
    };
    let rules = Rules::default();
    agrees!(31, D20Roll::ability(3, 15).unwrap());
    agrees!(32, D20Roll::non_ability(12).unwrap());
    let shot = Attack::new(
        AttackKind::Shooting,
        Some((Ability::Shooting, 4)),
        14,
        &rules,
    )
    .unwrap();
    agrees!(33, shot);
    let punch = Attack::new(AttackKind::BasicAttack, None, 12, &rules).unwrap();
    agrees!(34, Attacks::new(vec![shot, punch]).unwrap());
    agrees!(35, Initiative::new(2).unwrap());
    agrees!(
        36,
        InitiativeContest::new(Initiative::new(1).unwrap(), Initiative::new(0).unwrap())
    );
}

#[test]
fn swimclass() {
    use dice_swimclass::{
        Bonus, Health, InitiativeContest, NO_THRESHOLD, OpposedRoll, Rules, SkillDice, Stabilize,
        Task, TaskRoll,
    };
    let rules = Rules::default();
    let bow = SkillDice::new(3)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 4,
        })
        .unwrap();
    let task = TaskRoll::new(SkillDice::new(6), Task::single(4).unwrap(), rules).unwrap();
    agrees!(41, task);
    let long = TaskRoll::new(bow.clone(), Task::over_rounds(5, 4).unwrap(), rules).unwrap();
    agrees!(42, long.progress());
    let shot = OpposedRoll::new(bow, 2, Some(SkillDice::new(3)), rules).unwrap();
    agrees!(43, shot);
    agrees!(44, shot.hits());
    let melee = OpposedRoll::new(
        SkillDice::new(6),
        NO_THRESHOLD,
        Some(SkillDice::new(6)),
        rules,
    )
    .unwrap();
    agrees!(45, melee.hits());
    agrees!(
        46,
        InitiativeContest::new(SkillDice::new(3), SkillDice::new(2), &rules).unwrap()
    );
    let mut hurt = Health::new(3);
    hurt.take(6);
    agrees!(
        47,
        Stabilize::new(SkillDice::new(3), &hurt, &rules).unwrap()
    );
}

#[test]
fn robots_and_rapiers() {
    use dice_robots_and_rapiers::creation::{DesignPointsRoll, RandomSize};
    use dice_robots_and_rapiers::{
        BaseActionPoints, DamageKind, DurabilitySave, MalfunctionTable, Opposition, RoleSave,
        Rules, SavingThrow, SelfReactivation, StrayShot, Test,
    };
    let rules = Rules::default();
    let duel = Test::new(8, 6)
        .unwrap()
        .opposed_by(Opposition::new(8, 5).unwrap())
        .with_difficulty(1)
        .unwrap();
    agrees!(51, duel);
    agrees!(52, Test::new(6, 9).unwrap().exerted());
    agrees!(53, SavingThrow::new(4).unwrap());
    agrees!(54, RoleSave::Role { role: 7 });
    agrees!(
        55,
        DurabilitySave::new(5, DamageKind::default(), &rules).unwrap()
    );
    agrees!(56, BaseActionPoints::new(7, 4, &rules).unwrap());
    agrees!(57, MalfunctionTable);
    agrees!(58, SelfReactivation::new(4, 5).unwrap());
    agrees!(59, StrayShot::new(3).unwrap());
    agrees!(60, DesignPointsRoll::new(6, 5).unwrap());
    agrees!(61, RandomSize);
}

/// Whole fights as dice-sim runs them: each trial plays a fight to its end
/// ([`dice_core::PlayOut`]) and the run's counts are compared with the exact law of the end,
/// for the rulebooks' own fights (built here as the shipped scene files describe them).
#[test]
fn whole_fights() {
    use dice_core::PlayOut;
    // Shapers and Bots: Dashwood (a parrot with a ranged weapon, quiver, accustomed armor)
    // against Slumpy (an elephant of low fitness), undefended attacks from the start.
    {
        use dice_shapers_and_bots::{
            Armor, Combatant, FightEncounter, Level, Reach, Rules, Species, WeaponClass,
        };
        let rules = Rules::default();
        let dashwood = Combatant::new(
            "Dashwood",
            Species::Parrot.characteristics(),
            WeaponClass::Large,
        )
        .reach(Reach::Ranged)
        .quiver(true)
        .armor(Armor::Accustomed);
        let mut elephant = Species::Elephant.characteristics();
        elephant.fitness = Level::Low;
        let slumpy = Combatant::new("Slumpy", elephant, WeaponClass::Large);
        let fight = FightEncounter::new(vec![dashwood, slumpy], true, &rules).unwrap();
        check_against_exact(&PlayOut::new(fight, 1_000).unwrap(), 41, 20_000)
            .expect("exact law")
            .assert_consistent();
    }
    // Swimclass: the rulebook's sample rounds.
    {
        use dice_swimclass::{Fight, Rules, Scene};
        let fight = Fight::new(&Scene::sample_rounds(), Rules::default()).unwrap();
        check_against_exact(&PlayOut::new(fight, 1_000).unwrap(), 42, 20_000)
            .expect("exact law")
            .assert_consistent();
    }
}
