//! Every worked example of the rulebook (digest section 4.2, SC-E1 to SC-E27), one test
//! each, quoting its line. SC-E7, SC-E12 and SC-E21 are errata: their tests show what the
//! rules give and say so.
//!
//! The combat example (L119–L151) is replayed turn by turn through [`Fight`], with each die
//! taken from the total the text gives (total − the ability level added).

use dice_scratch_rps::{
    Ability, Action, AttackKind, Character, CharacterPoints, Combatant, CombatantId, D20Roll,
    Environment, Error, Fight, Health, Initiative, Outcome, Rules, Turn, TurnReport, TurnStatus,
    attack::automatic_damage, character::tgh_half, creation::check_minions, initiative,
};

fn block(text: &str) -> Character {
    Character::from_stat_block(text).expect("a rulebook stat block")
}

// ------------------------------------------------------------------------------ characters

#[test]
fn sc_e1_zimzambamalam() {
    // L9: "Zimzambamalam (8 shooting, 2 toughness, 1 tgh/2, 11 defense) is a master of magic"
    let zim = block("8 shooting, 2 toughness, 1 tgh/2, 11 defense");
    assert_eq!(zim.tgh_half(), 1);
    assert_eq!(zim.defense(), 11);
    assert_eq!(zim.max_hit_points(), 2);
    assert_eq!(zim.total_levels(), 10);
    assert_eq!(
        zim.to_string(),
        "8 shooting, 2 toughness, 1 tgh/2, 11 defense"
    );
    // Level 8 is above the "10 CP and a maximum level of 4" preset (L63), which is not
    // claimed for him (L65–L67: limits depend on the setting).
    assert_eq!(
        CharacterPoints::AVERAGE.check(&zim),
        Err(Error::AboveMaximumLevel {
            ability: Ability::Shooting,
            level: 8,
            max: 4
        })
    );
    assert!(CharacterPoints::new(10, 8).unwrap().check(&zim).is_ok());
}

#[test]
fn sc_e2_craftsmanship_roll_of_15() {
    // L17: "suppose a character with 3 levels of craftsmanship ability has to make a
    // craftsmanship roll of 15. He rolls 12, and 12 plus 3 is equal to the difficulty 15, so
    // he is barely successful."
    let craftsman = block("3 craftsmanship, 2 toughness");
    let roll = craftsman.ability_roll(Ability::Craftsmanship, 15).unwrap();
    assert_eq!(roll.total(12).unwrap(), 15);
    assert_eq!(roll.resolve(12).unwrap(), Outcome::Success);
    assert_eq!(roll.resolve(11).unwrap(), Outcome::Failure);
}

#[test]
fn sc_e3_non_ability_roll_of_11() {
    // L19: "The action succeeds when the roll 11 or greater and fails when the roll is 10 or
    // less."
    let roll = D20Roll::non_ability(11).unwrap();
    for natural in 1..=20 {
        let expected = if natural == 20 {
            Outcome::AutomaticSuccess
        } else if natural >= 11 {
            Outcome::Success
        } else {
            Outcome::Failure
        };
        assert_eq!(roll.resolve(natural).unwrap(), expected, "die {natural}");
    }
}

#[test]
fn sc_e4_defense_13() {
    // L31: "if a character has a defensive ability with 3 levels, and the character has 2
    // tgh/2, then his defense is 13 ... If he is attacked and his attacker's roll plus
    // applicable ability level is 13 (or more,) then the attack would be successful. (If the
    // roll was 12 or less, the attack would fail.)"
    for defensive in [
        Ability::Stalking,
        Ability::Acrobatics,
        Ability::Quickness,
        Ability::Flying,
    ] {
        let c = Character::from_levels([(defensive, 3), (Ability::Toughness, 4)]).unwrap();
        assert_eq!(c.tgh_half(), 2);
        assert_eq!(c.defense(), 13);
        let attack = dice_scratch_rps::Attack::new(
            AttackKind::BasicAttack,
            Some((Ability::Fighting, 2)),
            c.defense(),
            &Rules::default(),
        )
        .unwrap();
        assert!(attack.resolve(11).unwrap().hit()); // 11 + 2 = 13
        assert!(!attack.resolve(10).unwrap().hit()); // 12
    }
}

#[test]
fn sc_e5_toughness_7() {
    // L35: "if a character has 7 toughness, his tgh/2 would be 3, so he would be healthy
    // when his hit points are 4, 5, 6 or 7, injured when his hit points 1, 2 or 3, and
    // incapacitated when his hit points are 0."
    assert_eq!(tgh_half(7), 3);
    for hp in 4..=7 {
        assert_eq!(Health::of(hp, 7), Health::Healthy);
    }
    for hp in 1..=3 {
        assert_eq!(Health::of(hp, 7), Health::Injured);
    }
    assert_eq!(Health::of(0, 7), Health::Incapacitated);
}

#[test]
fn sc_e6_three_damage_does_four() {
    // L37: "An attack that normally causes 3 damage will do 4 damage when it is
    // automatically successful. An attack that delays an opponent without causing damage
    // still does no damage when it is automatically successful."
    assert_eq!(automatic_damage(3), 4);
    assert_eq!(automatic_damage(0), 0);
    let hold =
        dice_scratch_rps::Attack::new(AttackKind::Hold, None, 30, &Rules::default()).unwrap();
    let r = hold.resolve(20).unwrap();
    assert_eq!((r.outcome, r.damage), (Outcome::AutomaticSuccess, 0));
}

#[test]
fn sc_e7_chokestar_build_erratum() {
    // ERRATUM (SC-A2). L63: "Chokestar was created by distributing 2 CP to piloting ability,
    // 2 CP to toughness ability, 3 CP to wrestling ability and 3 CP to stalking ability, for
    // a total of 10 ability levels, and no more than 4 levels of any single ability."
    // L123: "Chokestar (2 piloting, 2 wrestling, 3 stalking, 3 toughness, 1 tgh/2, 13 defense)".
    // What the rules give: both are valid 10 CP / maximum 4 builds with defense 13, but only
    // L123's has the 3 hit points the combat trace starts from (L135: "lowering his hit points
    // from 3 to 2"). The tests use L123's stat block.
    let l63 = Character::from_levels([
        (Ability::Piloting, 2),
        (Ability::Toughness, 2),
        (Ability::Wrestling, 3),
        (Ability::Stalking, 3),
    ])
    .unwrap();
    let l123 = block("2 piloting, 2 wrestling, 3 stalking, 3 toughness, 1 tgh/2, 13 defense");
    for c in [l63, l123] {
        let b = CharacterPoints::AVERAGE.check(&c).unwrap();
        assert_eq!(b.spent, 10);
        assert_eq!(c.defense(), 13);
        assert_eq!(c.tgh_half(), 1);
    }
    assert_eq!(l63.max_hit_points(), 2); // cannot go "from 3 to 2"
    assert_eq!(l123.max_hit_points(), 3);
    assert_ne!(l63, l123);
}

#[test]
fn sc_e8_twelve_cp_maximum_five() {
    // L65: "they might start with 12 CP and a maximum level limit of 5. Characters in this
    // game would have to divide their CP between at least three abilities."
    let limits = CharacterPoints::new(12, 5).unwrap();
    assert_eq!(limits, CharacterPoints::ABOVE_AVERAGE);
    assert_eq!(limits.min_abilities(), 3);
    // Two abilities cannot hold 12 CP at 5 each; three can.
    let two = Character::from_levels([(Ability::Shooting, 5), (Ability::Toughness, 5)]).unwrap();
    assert_eq!(
        limits.check(&two),
        Err(Error::Unspent { spent: 10, cp: 12 })
    );
    let three = two.with(Ability::Stalking, 2).unwrap();
    assert_eq!(limits.check(&three).unwrap().abilities, 3);
}

#[test]
fn sc_e9_stalking_initiative_47() {
    // L87: "if a character has 3 levels of stalking ability and rolls 17 with his initiative
    // die, then his initiative is 47 (17 plus 30.)"
    assert_eq!(Initiative::new(3).unwrap().total(17).unwrap(), 47);
}

#[test]
fn sc_e10_command_4_minions() {
    // L103: "A character 4 command could have 1 minion with 4 total ability levels, 2 minions
    // with 2 total ability levels each, or a minion with 1 toughness and another minion with
    // 3 total ability levels."
    let commander = block("4 command, 2 toughness");
    let four = block("2 fighting, 2 toughness");
    let two = block("2 toughness");
    let one = block("1 toughness");
    let three = block("1 shooting, 2 toughness");
    check_minions(&commander, &[four]).unwrap();
    check_minions(&commander, &[two, two]).unwrap();
    check_minions(&commander, &[one, three]).unwrap();
    assert_eq!(
        check_minions(&commander, &[three, three]),
        Err(Error::MinionLevels {
            total: 6,
            command: 4
        })
    );
    let with_command = block("1 command, 1 toughness");
    assert_eq!(
        check_minions(&commander, &[with_command]),
        Err(Error::MinionWithCommand { index: 0 })
    );
}

#[test]
fn sc_e11_the_boss_and_thugs() {
    // L105: "The Boss (2 shooting, 1 stalking, 4 command, 3 toughness, 1 tgh/2, 11 defense)
    // ... He is always accompanied by a couple of thugs (2 toughness, 1 tgh/2, 11 defense)".
    let boss = block("2 shooting, 1 stalking, 4 command, 3 toughness, 1 tgh/2, 11 defense");
    let thug = block("2 toughness, 1 tgh/2, 11 defense");
    assert_eq!(
        boss.to_string(),
        "2 shooting, 1 stalking, 4 command, 3 toughness, 1 tgh/2, 11 defense"
    );
    assert_eq!(CharacterPoints::AVERAGE.check(&boss).unwrap().spent, 10);
    assert_eq!((thug.tgh_half(), thug.defense()), (1, 11));
    check_minions(&boss, &[thug, thug]).unwrap(); // 2 + 2 = 4 ≤ 4
}

#[test]
fn sc_e12_breakhelm_erratum() {
    // ERRATUM (SC-A3). L121: "Breakhelm X-19 (1 piloting, 4 shooting, 4 fighting, 6
    // toughness, 3 tgh/2, 13 defense)", against L63: "The characters in the combat example
    // ... were created with 10 CP and a maximum level of 4."
    // What the rules give: the stat block is consistent (tgh/2 3, defense 13, 6 hit points),
    // but it is a 15 CP build with toughness above the maximum level, so the opt-in check
    // refuses it.
    let b = block("1 piloting, 4 shooting, 4 fighting, 6 toughness, 3 tgh/2, 13 defense");
    assert_eq!((b.tgh_half(), b.defense(), b.max_hit_points()), (3, 13, 6));
    assert_eq!(b.total_levels(), 15);
    assert_eq!(
        CharacterPoints::AVERAGE.check(&b),
        Err(Error::OverBudget { spent: 15, cp: 10 })
    );
    assert_eq!(
        CharacterPoints::new(15, 4).unwrap().check(&b),
        Err(Error::AboveMaximumLevel {
            ability: Ability::Toughness,
            level: 6,
            max: 4
        })
    );
}

#[test]
fn sc_e13_chokestar() {
    // L123: "Chokestar (2 piloting, 2 wrestling, 3 stalking, 3 toughness, 1 tgh/2, 13 defense)"
    let c = block("2 piloting, 2 wrestling, 3 stalking, 3 toughness, 1 tgh/2, 13 defense");
    assert_eq!((c.tgh_half(), c.defense()), (1, 13));
    assert_eq!(c.best_defensive_ability(), Some((Ability::Stalking, 3)));
    assert_eq!(CharacterPoints::AVERAGE.check(&c).unwrap().spent, 10);
    assert_eq!(
        c.to_string(),
        "2 piloting, 2 wrestling, 3 stalking, 3 toughness, 1 tgh/2, 13 defense"
    );
}

#[test]
fn sc_e14_flipfire() {
    // L125: "Flipfire (2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness, 2 tgh/2,
    // 12 defense)"
    let f =
        block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness, 2 tgh/2, 12 defense");
    assert_eq!(f.tgh_half(), 2);
    assert_eq!(f.defense(), 12); // 10 + tgh/2; acrobatics alone gives 11
    assert_eq!(CharacterPoints::AVERAGE.check(&f).unwrap().spent, 10);
    assert_eq!(
        f.to_string(),
        "2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness, 2 tgh/2, 12 defense"
    );
}

// -------------------------------------------------------------------------- combat example

const BREAKHELM: CombatantId = 0;
const CHOKESTAR: CombatantId = 1;
const FLIPFIRE: CombatantId = 2;

fn combat_example() -> Fight {
    // L127: "Each character has hit points equal to his or her toughness."
    let mut fight = Fight::new(Environment::default(), Rules::default());
    let villain = 1;
    let hunters = 0;
    fight
        .add(Combatant::new(
            block("1 piloting, 4 shooting, 4 fighting, 6 toughness"),
            villain,
        ))
        .unwrap();
    fight
        .add(Combatant::new(
            block("2 piloting, 2 wrestling, 3 stalking, 3 toughness"),
            hunters,
        ))
        .unwrap();
    fight
        .add(Combatant::new(
            block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness"),
            hunters,
        ))
        .unwrap();
    // L129: Chokestar rolls 4 (+30), Flipfire 17, Breakhelm X-19 14.
    fight.start(&[14, 4, 17], &[]).unwrap();
    fight
}

/// The turns of L131–L151, in order, with the dice read from the totals in the text. The
/// last shot's total is not given (L151: it "reaches or exceeds" defense 13): 11 is used.
fn script() -> Vec<(CombatantId, Option<Turn>, Vec<u32>)> {
    let wrestle = |hold_first| Action::WrestlingAttacks {
        basic_attack: BREAKHELM,
        hold: BREAKHELM,
        hold_first,
    };
    let shoot_breakhelm = Action::Shoot { target: BREAKHELM };
    vec![
        // Round 1.
        (CHOKESTAR, Some(wrestle(true).into()), vec![10, 11]), // L131: 12, 13
        (FLIPFIRE, Some(shoot_breakhelm.clone().into()), vec![8]), // L133: 10
        (
            BREAKHELM,
            Some(
                Action::FightingAttacks {
                    first: CHOKESTAR,
                    second: CHOKESTAR,
                }
                .into(),
            ),
            vec![14, 10], // L135: 18, 14
        ),
        // Round 2.
        (
            CHOKESTAR,
            Some(
                Action::Hold {
                    target: BREAKHELM,
                    with: Some(Ability::Wrestling),
                }
                .into(),
            ),
            vec![5], // L137: 7
        ),
        (
            FLIPFIRE,
            Some(Action::Heal { target: CHOKESTAR }.into()),
            vec![13], // L139: 14
        ),
        (
            BREAKHELM,
            Some(Action::Shoot { target: FLIPFIRE }.into()),
            vec![7], // L141: 11
        ),
        // Round 3.
        (CHOKESTAR, Some(wrestle(true).into()), vec![13, 7]), // L143: 15, 9
        (FLIPFIRE, Some(shoot_breakhelm.clone().into()), vec![17]), // L145: 19
        (BREAKHELM, None, vec![]),                            // L147: delayed
        // Round 4.
        (CHOKESTAR, Some(wrestle(false).into()), vec![14, 9]), // L149: 16, 11
        (FLIPFIRE, Some(shoot_breakhelm.into()), vec![11]),    // L151
    ]
}

/// Replays the first `steps` turns of the script; returns the fight and the reports.
fn replay(steps: usize) -> (Fight, Vec<TurnReport>) {
    let mut fight = combat_example();
    let mut reports = Vec::new();
    for (actor, turn, dice) in script().into_iter().take(steps) {
        assert_eq!(fight.current(), Some(actor));
        let r = match turn {
            Some(t) => fight.take_turn(t, &dice).unwrap(),
            None => fight.pass().unwrap(),
        };
        reports.push(r);
    }
    (fight, reports)
}

fn hp(fight: &Fight, id: CombatantId) -> u32 {
    fight.combatant(id).unwrap().hit_points()
}

#[test]
fn sc_e15_initiative_order() {
    // L129: "Chokestar's initiative roll is 4, but his 3 levels of stalking ability add 30 to
    // that roll for a total of 34. Flipfire rolls 17 and Breakhelm X-19 rolls 14. So Chokestar
    // goes first, followed by Flipfire and then Breakhelm X-19."
    let fight = combat_example();
    assert_eq!(fight.initiative(CHOKESTAR), Some(34));
    assert_eq!(fight.initiative(FLIPFIRE), Some(17));
    assert_eq!(fight.initiative(BREAKHELM), Some(14));
    assert_eq!(fight.order(), &[CHOKESTAR, FLIPFIRE, BREAKHELM]);
    assert_eq!(initiative::order(&[14, 34, 17], &[]).unwrap(), [1, 2, 0]);
}

#[test]
fn sc_e16_round_1_chokestar_hold_and_basic_attack() {
    // L131: "A twenty-sided die roll is added to Chokestar's wrestling ability, for a total
    // of 12, which is barely not enough to reach Breakhelm X-19's defense of 13 ... A die roll
    // is added to his wrestling for a total of 13, which is barely equal to Breakhelm X-19's
    // defense, so Breakhelm X-19's hit points are lowered from 6 to 5."
    let (fight, reports) = replay(1);
    let rolls = &reports[0].rolls;
    assert_eq!(rolls.len(), 2);
    assert_eq!(
        rolls[0].purpose,
        dice_scratch_rps::RollPurpose::Attack(AttackKind::Hold)
    );
    assert_eq!((rolls[0].total, rolls[0].difficulty), (12, 13));
    assert_eq!(rolls[0].outcome, Outcome::Failure);
    assert!(!fight.combatant(BREAKHELM).unwrap().is_delayed());
    assert_eq!((rolls[1].total, rolls[1].difficulty), (13, 13));
    assert_eq!(rolls[1].outcome, Outcome::Success);
    assert_eq!(hp(&fight, BREAKHELM), 5);
}

#[test]
fn sc_e17_round_1_flipfire_misses() {
    // L133: "A die is added to her shooting for a total of 10, which is not high enough to
    // reach Breakhelm X-19's defense, so her bullets fail to penetrate his armor."
    let (fight, reports) = replay(2);
    let r = &reports[1].rolls[0];
    assert_eq!(
        (r.total, r.difficulty, r.outcome),
        (10, 13, Outcome::Failure)
    );
    assert_eq!(hp(&fight, BREAKHELM), 5);
}

#[test]
fn sc_e18_round_1_breakhelm_fights_twice() {
    // L135: "A die roll is added to Breakhelm X-19's fighting ability for a total of 18,
    // which damages but does not yet injure Chokestar by lowering his hit points from 3 to 2,
    // still above Chokestar's 1 tgh/2. Breakhelm X-19 can do a second fighting attack ... for
    // a total of 14, so Chokestar is now injured because his hit points are equal his tgh/2."
    let (fight, reports) = replay(3);
    let rolls = &reports[2].rolls;
    assert_eq!((rolls[0].total, rolls[0].difficulty), (18, 13));
    assert_eq!((rolls[0].hit_points, rolls[0].health), (2, Health::Healthy));
    assert_eq!(rolls[1].total, 14);
    assert_eq!((rolls[1].hit_points, rolls[1].health), (1, Health::Injured));
    assert_eq!(hp(&fight, CHOKESTAR), 1);
}

#[test]
fn sc_e19_round_2_injured_chokestar_holds_once() {
    // L137: "Chokestar tries to grapple (hold) Breakhelm X-19. A die roll added to
    // Chokestar's wrestling ability comes to a 7, which fails". Injured, he has only one
    // action (L83: the attack and the hold need a healthy wrestler).
    let (mut fight, _) = replay(3);
    let both = Turn::new(Action::WrestlingAttacks {
        basic_attack: BREAKHELM,
        hold: BREAKHELM,
        hold_first: true,
    });
    assert!(matches!(
        fight.take_turn(both, &[10, 10]),
        Err(Error::NotHealthy { .. })
    ));
    let (fight, reports) = replay(4);
    let r = &reports[3].rolls[0];
    assert_eq!((r.total, r.outcome), (7, Outcome::Failure));
    assert!(!fight.combatant(BREAKHELM).unwrap().is_delayed());
}

#[test]
fn sc_e20_round_2_flipfire_heals_chokestar() {
    // L139: "Flipfire's healing ability is added to a die roll for a total of 14, which is
    // equal to or greater than the 10 difficulty of healing a character from injured to
    // healthy. This restores Chokestar to 2 hit points, so he is health rather than injured."
    let (fight, reports) = replay(5);
    let r = &reports[4].rolls[0];
    assert_eq!(
        (r.total, r.difficulty, r.outcome),
        (14, 10, Outcome::Success)
    );
    assert_eq!(hp(&fight, CHOKESTAR), 2); // 1 + tgh/2
    assert_eq!(
        fight.combatant(CHOKESTAR).unwrap().health(),
        Health::Healthy
    );
}

#[test]
fn sc_e21_round_2_breakhelm_misses_flipfire_erratum() {
    // ERRATUM (SC-A4). L141: "A die roll is added to his shooting ability for a total of 11,
    // which only grazes Flipfire causing her no damage because it does not quite reach her 12
    // defense (10 plus her acrobatics ability.)"
    // What the rules give: the miss is right, but 12 is 10 + tgh/2 (L29); 10 plus her
    // acrobatics is 11, a defense that a total of 11 would have hit.
    let (fight, reports) = replay(6);
    let r = &reports[5].rolls[0];
    assert_eq!(
        (r.total, r.difficulty, r.outcome),
        (11, 12, Outcome::Failure)
    );
    assert_eq!(hp(&fight, FLIPFIRE), 4);
    assert!(!reports[5].delayed_self); // healthy at 5 > 3: shooting does not delay him (L75)
    let flipfire = fight.combatant(FLIPFIRE).unwrap().character();
    assert_eq!(10 + i64::from(flipfire.level(Ability::Acrobatics)), 11);
    assert_eq!(10 + i64::from(flipfire.tgh_half()), 12);
    assert_eq!(flipfire.defense(), 12);
    let against_the_parenthetical =
        D20Roll::ability(4, 10 + i64::from(flipfire.level(Ability::Acrobatics))).unwrap();
    assert_eq!(
        against_the_parenthetical.resolve(7).unwrap(),
        Outcome::Success
    );
}

#[test]
fn sc_e22_round_3_chokestar_delays_breakhelm() {
    // L143: "Chokestar's wrestling ability plus a die roll comes to 15, reaching and
    // surpassing Breakhelm X-19's defense, so Breakhelm X-19 is delayed until the end of his
    // next turn as he shakes off being stunned."
    let (fight, reports) = replay(7);
    let r = &reports[6].rolls[0];
    assert_eq!((r.total, r.outcome), (15, Outcome::Success));
    assert!(r.delayed);
    assert!(fight.combatant(BREAKHELM).unwrap().is_delayed());
    assert_eq!(reports[6].round, 3);
}

#[test]
fn sc_e23_round_3_chokestar_basic_attack_fails() {
    // L143: "Chokestar gets a second damaging attack from his wrestling because he is
    // healthy, but a die roll plus his wrestling ability only comes to a 9, so Chokestar fails
    // to also damage Breakhealm X-19."
    let (fight, reports) = replay(7);
    let r = &reports[6].rolls[1];
    assert_eq!(
        r.purpose,
        dice_scratch_rps::RollPurpose::Attack(AttackKind::BasicAttack)
    );
    assert_eq!((r.total, r.outcome, r.damage), (9, Outcome::Failure, 0));
    assert_eq!(hp(&fight, BREAKHELM), 5);
}

#[test]
fn sc_e24_round_3_flipfire_injures_breakhelm() {
    // L145: "Her shooting ability plus a die roll comes to 19, lowering Breakhelm X-19's hit
    // points to 3, and injuring him because his remaining hit points are not greater than his
    // 3 tgh/2." Two damage, so the die was 17, not a natural 20.
    let (fight, reports) = replay(8);
    let r = &reports[7].rolls[0];
    assert_eq!(r.natural, 17);
    assert_eq!((r.total, r.outcome, r.damage), (19, Outcome::Success, 2));
    assert_eq!(hp(&fight, BREAKHELM), 3);
    assert_eq!(
        fight.combatant(BREAKHELM).unwrap().health(),
        Health::Injured
    );
}

#[test]
fn sc_e25_round_3_breakhelm_is_delayed() {
    // L147: "Breakhelm X-19 does nothing on his turn because he has been delayed by a hit from
    // Chokestar's stun gun." (The delayed turn falls in the same round, SC-A17.)
    let (mut fight, reports) = replay(8);
    assert_eq!(fight.current(), Some(BREAKHELM));
    assert_eq!(
        fight.combatant(BREAKHELM).unwrap().status(),
        TurnStatus::Delayed
    );
    assert_eq!(
        fight.take_turn(Action::Shoot { target: FLIPFIRE }.into(), &[20]),
        Err(Error::CannotAct {
            id: BREAKHELM,
            status: TurnStatus::Delayed
        })
    );
    assert_eq!(reports[7].round, 3);
    let (fight, reports) = replay(9);
    assert_eq!(reports[8].status, TurnStatus::Delayed);
    assert_eq!(reports[8].round, 3);
    assert!(!fight.combatant(BREAKHELM).unwrap().is_delayed()); // the delay has ended
    assert_eq!(fight.round(), 4);
}

#[test]
fn sc_e26_round_4_chokestar_strikes_then_fails_to_hold() {
    // L149: "Chokestar's wrestling ability is added to a die roll for a total of 16, which is
    // equal to or greater than Breakhelm X-19's defense, lowering his hit points to 2.
    // Chokestar tries to follow up with another stun gun attack, but his wrestling ability
    // plus a die roll only come to 11, failing to delay Breakhelm X-19."
    let (fight, reports) = replay(10);
    let rolls = &reports[9].rolls;
    assert_eq!((rolls[0].total, rolls[0].outcome), (16, Outcome::Success));
    assert_eq!(rolls[0].hit_points, 2);
    assert_eq!((rolls[1].total, rolls[1].outcome), (11, Outcome::Failure));
    assert!(!fight.combatant(BREAKHELM).unwrap().is_delayed());
    assert_eq!(hp(&fight, BREAKHELM), 2);
}

#[test]
fn sc_e27_round_4_flipfire_incapacitates_breakhelm() {
    // L151: "Her shooting ability plus a die roll reaches or exceeds Breakhelm X-19's
    // defense, his hit points are lowered to 0 and he is incapacitated. The bounty hunters are
    // victorious." Every die that reaches 13 (11 to 20) gives 0, a natural 20's 5 damage
    // included (hit points never go below 0).
    let (before, _) = replay(10);
    for natural in 11..=20 {
        let mut fight = before.clone();
        fight
            .take_turn(Action::Shoot { target: BREAKHELM }.into(), &[natural])
            .unwrap();
        let b = fight.combatant(BREAKHELM).unwrap();
        assert_eq!(b.hit_points(), 0, "die {natural}");
        assert_eq!(b.health(), Health::Incapacitated);
        assert!(fight.is_over());
        assert_eq!(fight.standing_teams(), [0]);
    }
    let mut fight = before;
    fight
        .take_turn(Action::Shoot { target: BREAKHELM }.into(), &[10])
        .unwrap();
    assert_eq!(hp(&fight, BREAKHELM), 2); // 12 does not reach 13
}

#[test]
fn combat_example_log_prints() {
    let (_, reports) = replay(script().len());
    let text: Vec<String> = reports.iter().map(ToString::to_string).collect();
    assert!(text[0].starts_with("round 1, #1: wrestling hold on #0, then basic attack on #0"));
    assert!(text[8].contains("delayed"));
}
