//! The combat rules, action by action (L21–L57, L73–L107), through [`Fight`].

use dice_scratch_rps::{
    Ability, Action, AttackKind, BonusAction, CatchCondition, CatchMatrix, Character, Combatant,
    Environment, Error, Fight, Health, Movement, Outcome, Rules, ShootingCrit, Turn, TurnStatus,
    Water,
};

fn block(text: &str) -> Character {
    Character::from_stat_block(text).unwrap()
}

/// A started fight in which combatant `i` is on team `i` unless given, acting in id order
/// (initiative dice 20, 19, … and no stalking).
fn fight_with(env: Environment, rules: Rules, members: Vec<Combatant>) -> Fight {
    let mut f = Fight::new(env, rules);
    for c in members {
        f.add(c).unwrap();
    }
    let dice: Vec<u32> = (0..f.combatants().len() as u32).map(|i| 20 - i).collect();
    f.start(&dice, &[]).unwrap();
    f
}

fn duel(a: &str, b: &str) -> Fight {
    fight_with(
        Environment::default(),
        Rules::default(),
        vec![Combatant::new(block(a), 0), Combatant::new(block(b), 1)],
    )
}

fn turn(a: Action) -> Turn {
    Turn::new(a)
}

#[test]
fn engage_helps_close_attacks_and_lowers_defense_until_next_turn() {
    // L55: +2 to close range attack rolls until the end of the turn, −2 defense until the
    // beginning of the next turn.
    let mut f = duel("2 fighting, 4 toughness", "4 toughness");
    let t = turn(Action::BasicAttack {
        target: 1,
        with: Some(Ability::Fighting),
    })
    .with_bonus(BonusAction::Engage);
    // Defense 12: die 8 + 2 fighting + 2 engage = 12 hits.
    let r = f.take_turn(t, &[8]).unwrap();
    assert_eq!(
        (r.rolls[0].total, r.rolls[0].outcome),
        (12, Outcome::Success)
    );
    assert_eq!(f.combatant(0).unwrap().defense(), 10);
    f.pass().unwrap();
    assert_eq!(f.combatant(0).unwrap().defense(), 10); // still until his next turn begins
    f.pass().unwrap(); // his turn begins (and he does nothing)
    assert_eq!(f.combatant(0).unwrap().defense(), 12);
}

#[test]
fn engage_only_before_a_close_range_attack() {
    let mut f = duel("2 shooting, 4 toughness", "4 toughness");
    let before = f.clone();
    let e = f
        .take_turn(
            turn(Action::Shoot { target: 1 }).with_bonus(BonusAction::Engage),
            &[10],
        )
        .unwrap_err();
    assert!(matches!(e, Error::BonusAction(_)));
    let e = f
        .take_turn(turn(Action::Nothing).with_bonus(BonusAction::Engage), &[])
        .unwrap_err();
    assert!(matches!(e, Error::BonusAction(_)));
    assert_eq!(f, before); // nothing changed
}

#[test]
fn take_cover_needs_cover_and_a_long_range_attack() {
    // L57: −2 to long range attack rolls, +2 defense until the beginning of the next turn.
    let mut f = duel("2 shooting, 4 toughness", "4 toughness");
    let cover = turn(Action::Shoot { target: 1 }).with_bonus(BonusAction::TakeCover);
    assert!(matches!(
        f.take_turn(cover.clone(), &[10]),
        Err(Error::Environment(_))
    ));
    let env = Environment {
        cover: true,
        ..Environment::default()
    };
    let mut f = fight_with(
        env,
        Rules::default(),
        vec![
            Combatant::new(block("2 shooting, 4 toughness"), 0),
            Combatant::new(block("4 toughness"), 1),
        ],
    );
    assert!(matches!(
        f.take_turn(
            turn(Action::BasicAttack {
                target: 1,
                with: None
            })
            .with_bonus(BonusAction::TakeCover),
            &[10]
        ),
        Err(Error::BonusAction(_))
    ));
    // Die 12 + 2 shooting − 2 = 12 against defense 12.
    let r = f.take_turn(cover, &[12]).unwrap();
    assert_eq!(
        (r.rolls[0].total, r.rolls[0].outcome),
        (12, Outcome::Success)
    );
    assert_eq!(f.combatant(0).unwrap().defense(), 14);
}

#[test]
fn evade_then_escape() {
    // L49, L53.
    let mut f = duel("2 quickness, 3 toughness", "3 toughness");
    assert_eq!(
        f.take_turn(turn(Action::Escape), &[]),
        Err(Error::CannotEscape)
    );
    f.take_turn(
        turn(Action::Evade {
            with: Some(Movement::Quickness),
        }),
        &[],
    )
    .unwrap();
    assert_eq!(f.combatant(0).unwrap().defense(), 14);
    f.pass().unwrap();
    let r = f.take_turn(turn(Action::Escape), &[]).unwrap();
    assert!(r.escaped);
    assert!(f.is_over());
    assert_eq!(f.combatant(0).unwrap().status(), TurnStatus::Escaped);
    assert_eq!(
        f.take_turn(
            turn(Action::BasicAttack {
                target: 0,
                with: None
            }),
            &[20]
        ),
        Err(Error::TargetEscaped { id: 0 })
    );
    f.pass().unwrap();
    assert_eq!(f.pass().unwrap().status, TurnStatus::Escaped);
}

#[test]
fn evading_without_a_movement_ability_still_allows_escape() {
    // L49: "A character without movement abilities can also evade, but his defense does not
    // change."
    let mut f = duel("3 toughness", "3 toughness");
    f.take_turn(turn(Action::Evade { with: None }), &[])
        .unwrap();
    assert_eq!(f.combatant(0).unwrap().defense(), 11);
    f.pass().unwrap();
    assert!(f.take_turn(turn(Action::Escape), &[]).is_ok());
}

#[test]
fn a_hit_or_a_catch_spoils_the_escape() {
    // L53: "has not been caught or hit since that turn".
    for action in [
        Action::BasicAttack {
            target: 0,
            with: None,
        },
        Action::Hold {
            target: 0,
            with: None,
        },
        Action::Catch {
            target: 0,
            with: None,
        },
    ] {
        let mut f = duel("3 toughness", "3 toughness");
        f.take_turn(turn(Action::Evade { with: None }), &[])
            .unwrap();
        f.take_turn(turn(action.clone()), &[20]).unwrap();
        if matches!(action, Action::Hold { .. }) {
            // A held evader is delayed: his next turn is skipped, and after it he has not
            // evaded on his last turn.
            assert_eq!(f.pass().unwrap().status, TurnStatus::Delayed);
            f.pass().unwrap();
        }
        assert_eq!(
            f.take_turn(turn(Action::Escape), &[]),
            Err(Error::CannotEscape),
            "{action}"
        );
    }
    // A miss does not spoil it.
    let mut f = duel("3 toughness", "3 toughness");
    f.take_turn(turn(Action::Evade { with: None }), &[])
        .unwrap();
    f.take_turn(
        turn(Action::BasicAttack {
            target: 0,
            with: None,
        }),
        &[2],
    )
    .unwrap();
    assert!(f.take_turn(turn(Action::Escape), &[]).is_ok());
}

#[test]
fn catch_against_an_evader() {
    // L51: difficulty 10 + the evader's movement ability; the catcher adds a movement
    // ability; a success returns the evader's defense to normal.
    let mut f = duel("3 quickness, 3 toughness", "1 quickness, 3 toughness");
    f.pass().unwrap();
    assert_eq!(
        f.take_turn(
            turn(Action::Catch {
                target: 0,
                with: None
            }),
            &[10]
        ),
        Err(Error::NotEvading { id: 0 })
    );
    f.pass().unwrap();
    f.take_turn(
        turn(Action::Evade {
            with: Some(Movement::Quickness),
        }),
        &[],
    )
    .unwrap();
    assert_eq!(f.combatant(0).unwrap().defense(), 16);
    let catch = f
        .attack_for(1, AttackKind::Catch, Some(Ability::Quickness), 0, None)
        .unwrap();
    assert_eq!(catch.d20().difficulty(), 13);
    assert_eq!(catch.d20().total_modifier(), 1);
    assert!(
        f.attack_for(1, AttackKind::Catch, Some(Ability::Flying), 0, None)
            .is_err()
    ); // 1 has no flying, and there is no room to fly
    let r = f
        .take_turn(
            turn(Action::Catch {
                target: 0,
                with: Some(Movement::Quickness),
            }),
            &[12],
        )
        .unwrap();
    assert_eq!(
        (r.rolls[0].total, r.rolls[0].outcome),
        (13, Outcome::Success)
    );
    assert_eq!(r.rolls[0].damage, 0);
    assert_eq!(f.combatant(0).unwrap().evasion(), None);
    assert_eq!(f.combatant(0).unwrap().defense(), 13);
    assert_eq!(
        f.take_turn(turn(Action::Escape), &[]),
        Err(Error::CannotEscape)
    );
}

#[test]
fn catch_follows_the_environment() {
    // L89–L95 through the default matrix (SC-A9).
    let acrobat = "2 acrobatics, 3 toughness";
    let runner = "2 quickness, 3 toughness";
    let catch = |f: &mut Fight, with| {
        f.take_turn(
            turn(Action::Catch {
                target: 0,
                with: Some(with),
            }),
            &[15],
        )
    };
    let evade = |f: &mut Fight| {
        f.take_turn(
            turn(Action::Evade {
                with: Some(Movement::Quickness),
            }),
            &[],
        )
        .unwrap();
    };
    // Acrobatics catches a quickness escaper only among 3-D structures (L89).
    let mut f = duel(runner, acrobat);
    evade(&mut f);
    assert_eq!(
        catch(&mut f, Movement::Acrobatics),
        Err(Error::CannotCatch {
            catcher: Some(Movement::Acrobatics),
            evader: Some(Movement::Quickness)
        })
    );
    let trees = Environment {
        structures_3d: true,
        ..Environment::default()
    };
    let mut f = fight_with(
        trees,
        Rules::default(),
        vec![
            Combatant::new(block(runner), 0),
            Combatant::new(block(acrobat), 1),
        ],
    );
    evade(&mut f);
    assert!(catch(&mut f, Movement::Acrobatics).is_ok());
    // A table's own matrix.
    let strict = Rules {
        catch: CatchMatrix::default().with(
            Movement::Acrobatics,
            Some(Movement::Quickness),
            CatchCondition::Never,
        ),
        ..Rules::default()
    };
    let mut f = fight_with(
        trees,
        strict,
        vec![
            Combatant::new(block(runner), 0),
            Combatant::new(block(acrobat), 1),
        ],
    );
    evade(&mut f);
    assert!(catch(&mut f, Movement::Acrobatics).is_err());
}

#[test]
fn flying_characters_are_out_of_close_range_after_evading_or_shooting() {
    // L93: "When a flying character evades or uses a long range attack, he cannot be
    // attacked with a close range attack until his next turn."
    let outdoors = Environment {
        room_to_fly: true,
        ..Environment::default()
    };
    let flyer = "2 flying, 2 shooting, 4 toughness";
    let brute = "2 fighting, 2 quickness, 2 shooting, 4 toughness";
    let mut f = fight_with(
        outdoors,
        Rules::default(),
        vec![
            Combatant::new(block(flyer), 0),
            Combatant::new(block(brute), 1),
        ],
    );
    f.take_turn(turn(Action::Shoot { target: 1 }), &[3])
        .unwrap();
    assert!(f.combatant(0).unwrap().is_airborne());
    assert_eq!(
        f.take_turn(
            turn(Action::BasicAttack {
                target: 0,
                with: Some(Ability::Fighting)
            }),
            &[15]
        ),
        Err(Error::OutOfReach { id: 0 })
    );
    assert!(
        f.take_turn(turn(Action::Shoot { target: 0 }), &[15])
            .is_ok()
    );
    f.take_turn(
        turn(Action::Evade {
            with: Some(Movement::Flying),
        }),
        &[],
    )
    .unwrap();
    assert!(f.combatant(0).unwrap().is_airborne());
    // Quickness catches a flying escaper only near the ground (L91); a non-ability catch
    // cannot reach him.
    assert!(matches!(
        f.take_turn(
            turn(Action::Catch {
                target: 0,
                with: Some(Movement::Quickness)
            }),
            &[15]
        ),
        Err(Error::CannotCatch { .. })
    ));
    assert_eq!(
        f.take_turn(
            turn(Action::Catch {
                target: 0,
                with: None
            }),
            &[15]
        ),
        Err(Error::OutOfReach { id: 0 })
    );
    f.pass().unwrap();
    f.take_turn(turn(Action::Nothing), &[]).unwrap(); // his next turn: back in reach
    assert!(!f.combatant(0).unwrap().is_airborne());

    // Indoors there is no room to fly: no evading with flying, and no airborne state.
    let mut f = duel(flyer, brute);
    assert!(matches!(
        f.take_turn(
            turn(Action::Evade {
                with: Some(Movement::Flying)
            }),
            &[]
        ),
        Err(Error::Environment(_))
    ));
    f.take_turn(turn(Action::Shoot { target: 1 }), &[3])
        .unwrap();
    assert!(!f.combatant(0).unwrap().is_airborne());
}

#[test]
fn swimming_in_water() {
    // L95: in water, swimming is added to defense and close range attack rolls; it evades
    // and catches in water; in deep water swimmers cannot be reached by other movers.
    let shallow = Environment {
        water: Water::Shallow,
        room_to_fly: true,
        ..Environment::default()
    };
    let swimmer = "2 swimming, 1 fighting, 4 toughness";
    let flyer = "3 flying, 4 toughness";
    let members = |w| {
        vec![
            Combatant::new(block(swimmer), 0).in_water(w),
            Combatant::new(block(flyer), 1),
        ]
    };
    let mut f = fight_with(shallow, Rules::default(), members(true));
    assert_eq!(f.combatant(0).unwrap().defense(), 14); // 12 + 2 swimming
    let a = f
        .attack_for(0, AttackKind::BasicAttack, Some(Ability::Fighting), 1, None)
        .unwrap();
    assert_eq!(a.d20().total_modifier(), 3); // fighting 1 + swimming 2
    f.take_turn(
        turn(Action::Evade {
            with: Some(Movement::Swimming),
        }),
        &[],
    )
    .unwrap();
    assert_eq!(f.combatant(0).unwrap().defense(), 16);
    // A flyer catches a swimmer in shallow water (L93).
    assert!(
        f.attack_for(1, AttackKind::Catch, Some(Ability::Flying), 0, None)
            .is_ok()
    );
    let deep = Environment {
        water: Water::Deep,
        ..shallow
    };
    let mut f = fight_with(deep, Rules::default(), members(true));
    f.take_turn(
        turn(Action::Evade {
            with: Some(Movement::Swimming),
        }),
        &[],
    )
    .unwrap();
    assert!(matches!(
        f.attack_for(1, AttackKind::Catch, Some(Ability::Flying), 0, None),
        Err(Error::CannotCatch { .. })
    ));
    assert!(matches!(
        f.attack_for(1, AttackKind::Catch, None, 0, None),
        Err(Error::CannotCatch { .. })
    ));
    // Out of the water, no swimming evade and no bonus.
    let mut f = fight_with(shallow, Rules::default(), members(false));
    assert_eq!(f.combatant(0).unwrap().defense(), 12);
    assert!(matches!(
        f.take_turn(
            turn(Action::Evade {
                with: Some(Movement::Swimming)
            }),
            &[]
        ),
        Err(Error::Environment(_))
    ));
    f.set_in_water(0, true).unwrap();
    assert_eq!(f.combatant(0).unwrap().defense(), 14);
    let mut dry = duel(swimmer, flyer);
    assert!(dry.set_in_water(0, true).is_err());
}

#[test]
fn blasting_three_separate_targets() {
    // L77, SC-A12.
    let mut f = fight_with(
        Environment::default(),
        Rules::default(),
        vec![
            Combatant::new(block("3 blasting, 4 toughness"), 0),
            Combatant::new(block("2 toughness"), 1),
            Combatant::new(block("2 toughness"), 1),
            Combatant::new(block("2 toughness"), 1),
            Combatant::new(block("2 toughness"), 1),
        ],
    );
    assert_eq!(
        f.take_turn(
            turn(Action::Blast {
                targets: vec![1, 2, 3, 4]
            }),
            &[10; 4]
        ),
        Err(Error::BlastTargets { count: 4 })
    );
    assert_eq!(
        f.take_turn(
            turn(Action::Blast {
                targets: vec![1, 2, 1]
            }),
            &[10; 3]
        ),
        Err(Error::BlastRepeat { id: 1 })
    );
    assert_eq!(
        f.take_turn(turn(Action::Blast { targets: vec![] }), &[]),
        Err(Error::BlastTargets { count: 0 })
    );
    let r = f
        .take_turn(
            turn(Action::Blast {
                targets: vec![1, 2, 3],
            }),
            &[8, 7, 20],
        )
        .unwrap();
    let damage: Vec<u32> = r.rolls.iter().map(|x| x.damage).collect();
    assert_eq!(damage, [1, 0, 2]); // 11 hits 11; 10 misses; a natural 20 does 1 + 1
    assert!(!r.delayed_self);
}

#[test]
fn injured_shooters_and_blasters_delay_themselves() {
    // L75, L77: "When an injured character uses this ability he delays himself until the
    // end of his next turn."
    for action in [
        Action::Shoot { target: 1 },
        Action::Blast { targets: vec![1] },
    ] {
        let members = vec![
            Combatant::new(block("2 shooting, 2 blasting, 4 toughness"), 0)
                .with_hit_points(2)
                .unwrap(),
            Combatant::new(block("4 toughness"), 1),
        ];
        let mut f = fight_with(Environment::default(), Rules::default(), members);
        let r = f.take_turn(turn(action.clone()), &[1]).unwrap();
        assert!(r.delayed_self, "{action}");
        f.pass().unwrap();
        assert_eq!(f.pass().unwrap().status, TurnStatus::Delayed);
        assert_eq!(f.combatant(0).unwrap().status(), TurnStatus::Ready);
    }
    let mut f = duel("2 shooting, 4 toughness", "4 toughness");
    assert!(
        !f.take_turn(turn(Action::Shoot { target: 1 }), &[1])
            .unwrap()
            .delayed_self
    );
}

#[test]
fn knockout_always_delays_and_depends_on_health() {
    // L79: 4 damage if healthy, 2 if injured; the user always delays himself.
    let mut f = duel("3 knockout, 6 toughness", "8 toughness");
    // Defense 14: die 11 + 3 knockout.
    let r = f
        .take_turn(turn(Action::Knockout { target: 1 }), &[11])
        .unwrap();
    assert_eq!(r.rolls[0].damage, 4);
    assert!(r.delayed_self);
    assert_eq!(f.combatant(1).unwrap().hit_points(), 4);
    let members = vec![
        Combatant::new(block("3 knockout, 6 toughness"), 0)
            .with_hit_points(3)
            .unwrap(),
        Combatant::new(block("8 toughness"), 1),
    ];
    let mut f = fight_with(Environment::default(), Rules::default(), members);
    let r = f
        .take_turn(turn(Action::Knockout { target: 1 }), &[20])
        .unwrap();
    assert_eq!(r.rolls[0].damage, 3); // injured 2, +1 on a natural 20
    assert!(r.delayed_self);
}

#[test]
fn shooting_natural_20_follows_the_knob() {
    // SC-A1.
    for (crit, damage) in [
        (ShootingCrit::Override5, 5),
        (ShootingCrit::GeneralPlusOne, 3),
    ] {
        let rules = Rules {
            shooting_crit: crit,
            ..Rules::default()
        };
        let members = vec![
            Combatant::new(block("1 shooting, 4 toughness"), 0),
            Combatant::new(block("8 toughness"), 1),
        ];
        let mut f = fight_with(Environment::default(), rules, members);
        let r = f
            .take_turn(turn(Action::Shoot { target: 1 }), &[20])
            .unwrap();
        assert_eq!(r.rolls[0].outcome, Outcome::AutomaticSuccess);
        assert_eq!(r.rolls[0].damage, damage);
    }
}

#[test]
fn which_abilities_each_basic_action_allows() {
    let mut f = duel("2 fighting, 2 wrestling, 4 toughness", "4 toughness");
    let before = f.clone();
    for (action, error) in [
        (
            Action::Hold {
                target: 1,
                with: Some(Ability::Fighting),
            },
            Error::NotAllowed {
                attack: AttackKind::Hold,
                ability: Some(Ability::Fighting),
            },
        ),
        (
            Action::BasicAttack {
                target: 1,
                with: Some(Ability::Shooting),
            },
            Error::NotAllowed {
                attack: AttackKind::BasicAttack,
                ability: Some(Ability::Shooting),
            },
        ),
        (
            Action::Shoot { target: 1 },
            Error::MissingAbility {
                ability: Ability::Shooting,
            },
        ),
        (
            Action::ThrowObject { target: 1 },
            Error::Environment("throw object needs a dangerous throwable object (L47)"),
        ),
        (
            Action::BasicAttack {
                target: 0,
                with: None,
            },
            Error::TargetSelf,
        ),
        (
            Action::BasicAttack {
                target: 9,
                with: None,
            },
            Error::NoSuchCombatant { id: 9, count: 2 },
        ),
    ] {
        assert_eq!(f.take_turn(turn(action), &[10]), Err(error));
    }
    assert_eq!(f, before);
    assert!(
        f.take_turn(
            turn(Action::Hold {
                target: 1,
                with: None
            }),
            &[10]
        )
        .is_ok()
    );
}

#[test]
fn fighting_and_wrestling_combos_need_the_ability_and_health() {
    // L81, L83.
    let mut f = duel("2 wrestling, 4 toughness", "4 toughness");
    assert_eq!(
        f.take_turn(
            turn(Action::FightingAttacks {
                first: 1,
                second: 1
            }),
            &[10, 10]
        ),
        Err(Error::MissingAbility {
            ability: Ability::Fighting
        })
    );
    let r = f
        .take_turn(
            turn(Action::WrestlingAttacks {
                basic_attack: 1,
                hold: 1,
                hold_first: false,
            }),
            &[10, 10],
        )
        .unwrap();
    assert_eq!(r.rolls.len(), 2);
    assert_eq!(f.combatant(1).unwrap().hit_points(), 3);
    assert!(f.combatant(1).unwrap().is_delayed());
    let members = vec![
        Combatant::new(block("2 fighting, 4 toughness"), 0)
            .with_hit_points(2)
            .unwrap(),
        Combatant::new(block("4 toughness"), 1),
    ];
    let mut f = fight_with(Environment::default(), Rules::default(), members);
    assert!(matches!(
        f.take_turn(
            turn(Action::FightingAttacks {
                first: 1,
                second: 1
            }),
            &[10, 10]
        ),
        Err(Error::NotHealthy { .. })
    ));
}

#[test]
fn healing_in_combat() {
    // L99, L107, SC-A5, SC-A13.
    let healer = "2 healing, 3 toughness";
    let members = vec![
        Combatant::new(block(healer), 0),
        Combatant::new(block("1 toughness"), 0)
            .with_hit_points(0)
            .unwrap(),
        Combatant::new(block("4 toughness"), 0)
            .with_hit_points(1)
            .unwrap()
            .minion(),
        Combatant::new(block("4 toughness"), 0),
        Combatant::new(block("3 toughness"), 1),
    ];
    let mut f = fight_with(Environment::default(), Rules::default(), members);
    assert_eq!(
        f.take_turn(turn(Action::Heal { target: 0 }), &[10]),
        Err(Error::HealSelf)
    );
    assert_eq!(
        f.take_turn(turn(Action::Heal { target: 2 }), &[10]),
        Err(Error::HealMinion)
    );
    assert_eq!(
        f.take_turn(turn(Action::Heal { target: 3 }), &[10]),
        Err(Error::NothingToHeal)
    );
    let r = f.take_turn(turn(Action::Heal { target: 1 }), &[8]).unwrap();
    assert_eq!(
        (r.rolls[0].total, r.rolls[0].outcome),
        (10, Outcome::Success)
    );
    // Revived at 1 hit point; with toughness 1 (tgh/2 0) that is healthy (SC-A5).
    assert_eq!(f.combatant(1).unwrap().hit_points(), 1);
    assert_eq!(f.combatant(1).unwrap().health(), Health::Healthy);
    // The revived character acts on his turn.
    assert_eq!(f.current(), Some(1));
    assert_eq!(f.combatant(1).unwrap().status(), TurnStatus::Ready);
    let mut g = duel("3 toughness", "3 toughness");
    assert_eq!(
        g.take_turn(turn(Action::Heal { target: 1 }), &[10]),
        Err(Error::MissingAbility {
            ability: Ability::Healing
        })
    );
}

#[test]
fn incapacitated_and_toughless_characters_cannot_act() {
    // L33, L71.
    let members = vec![
        Combatant::new(block("2 fighting, 3 toughness"), 0)
            .with_hit_points(0)
            .unwrap(),
        Combatant::new(Character::new(), 1),
        Combatant::new(block("3 toughness"), 1),
    ];
    let mut f = fight_with(Environment::default(), Rules::default(), members);
    assert_eq!(
        f.take_turn(turn(Action::Nothing), &[]),
        Err(Error::CannotAct {
            id: 0,
            status: TurnStatus::Incapacitated
        })
    );
    assert_eq!(f.pass().unwrap().status, TurnStatus::Incapacitated);
    assert_eq!(f.pass().unwrap().status, TurnStatus::Incapacitated);
    assert!(f.is_over());
}

#[test]
fn dice_are_checked() {
    let mut f = duel("2 fighting, 4 toughness", "4 toughness");
    let two = turn(Action::FightingAttacks {
        first: 1,
        second: 1,
    });
    assert_eq!(
        f.take_turn(two.clone(), &[10]),
        Err(Error::Dice {
            needed: 2,
            given: 1
        })
    );
    assert_eq!(
        f.take_turn(two.clone(), &[10, 21]),
        Err(Error::Natural { natural: 21 })
    );
    assert!(f.take_turn(two, &[10, 11]).is_ok());
}

#[test]
fn fight_phases() {
    let mut f = Fight::new(Environment::default(), Rules::default());
    assert!(matches!(f.pass(), Err(Error::FightPhase(_))));
    assert!(matches!(f.start(&[], &[]), Err(Error::FightPhase(_))));
    f.add(Combatant::new(block("2 toughness"), 0)).unwrap();
    f.add(Combatant::new(block("2 toughness"), 1)).unwrap();
    assert_eq!(
        f.start(&[3], &[]).unwrap_err(),
        Error::Dice {
            needed: 2,
            given: 1
        }
    );
    assert_eq!(
        f.start(&[3, 3], &[]).unwrap_err(),
        Error::RollOffShort { given: 0 }
    );
    assert_eq!(
        f.start(&[3, 4], &[5]).unwrap_err(),
        Error::RollOffExtra { used: 0, given: 1 }
    );
    f.start(&[3, 4], &[]).unwrap();
    assert!(matches!(
        f.add(Combatant::new(Character::new(), 0)),
        Err(Error::FightPhase(_))
    ));
    assert!(matches!(f.start(&[3, 4], &[]), Err(Error::FightPhase(_))));
    assert_eq!(f.order(), &[1, 0]);
    assert_eq!(f.round(), 1);
    f.pass().unwrap();
    f.pass().unwrap();
    assert_eq!(f.round(), 2);
}

#[test]
fn attack_for_is_the_attack_take_turn_rolls() {
    let mut f = duel("3 fighting, 4 toughness", "2 quickness, 5 toughness");
    for natural in 1..=20 {
        let a = f
            .attack_for(0, AttackKind::BasicAttack, Some(Ability::Fighting), 1, None)
            .unwrap();
        let expected = a.resolve(natural).unwrap();
        let mut g = f.clone();
        let r = g
            .take_turn(
                turn(Action::BasicAttack {
                    target: 1,
                    with: Some(Ability::Fighting),
                }),
                &[natural],
            )
            .unwrap();
        assert_eq!(
            (r.rolls[0].outcome, r.rolls[0].damage),
            (expected.outcome, expected.damage)
        );
    }
    f.pass().unwrap();
}

#[test]
fn rolled_turns_match_pure_turns() {
    use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    for seed in 0..50 {
        let mut a = duel("2 fighting, 4 toughness", "4 toughness");
        let mut b = a.clone();
        let t = turn(Action::FightingAttacks {
            first: 1,
            second: 1,
        });
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let r = a.take_turn_rolled(t.clone(), &mut rng).unwrap();
        let dice: Vec<u32> = r.rolls.iter().map(|x| x.natural).collect();
        let s = b.take_turn(t, &dice).unwrap();
        assert_eq!(r, s);
        assert_eq!(a, b);
    }
}

// ------------------------------------------------------------- faults found in the audit

#[test]
fn toughless_characters_cannot_be_revived_or_act() {
    // L71: "Characters without toughness may not perform actions in combat rounds." L33: "A
    // character's toughness ability level is his maximum hit points." Against L99: "After
    // being successfully revived a character is still injured, and has only one hit point."
    // A character with no toughness has no hit point to be revived to.
    let members = vec![
        Combatant::new(block("2 healing, 3 toughness"), 0),
        Combatant::new(Character::new(), 0),
        Combatant::new(block("3 toughness"), 1),
    ];
    let mut f = fight_with(Environment::default(), Rules::default(), members);
    let before = f.clone();
    assert_eq!(
        f.take_turn(turn(Action::Heal { target: 1 }), &[15]),
        Err(Error::WithoutToughness)
    );
    assert_eq!(f, before);
    f.pass().unwrap();
    // His turn: still no hit points, and he cannot act.
    assert_eq!(f.combatant(1).unwrap().hit_points(), 0);
    assert_eq!(
        f.take_turn(turn(Action::Nothing), &[]),
        Err(Error::CannotAct {
            id: 1,
            status: TurnStatus::Incapacitated
        })
    );
    assert_eq!(f.pass().unwrap().status, TurnStatus::Incapacitated);
    assert_eq!(f.standing_teams(), [0, 1]);
}

#[test]
fn flying_adds_no_defense_without_room_to_fly() {
    // L93: "Flying can only be used where there is room to fly. (There is usually room to
    // fly outdoors but not indoors.)" L29: defense is 10 plus the best defensive ability, or
    // 10 plus tgh/2. Indoors a flyer's defense cannot come from flying.
    let flyer = "3 flying, 1 quickness, 2 toughness";
    let members = || {
        vec![
            Combatant::new(block(flyer), 0),
            Combatant::new(block("2 toughness"), 1),
        ]
    };
    let indoors = fight_with(Environment::default(), Rules::default(), members());
    assert_eq!(indoors.combatant(0).unwrap().defense(), 11); // 10 + quickness 1
    let a = indoors
        .attack_for(1, AttackKind::BasicAttack, None, 0, None)
        .unwrap();
    assert_eq!(a.d20().difficulty(), 11);
    let outdoors = Environment {
        room_to_fly: true,
        ..Environment::default()
    };
    let f = fight_with(outdoors, Rules::default(), members());
    assert_eq!(f.combatant(0).unwrap().defense(), 13); // 10 + flying 3
    // The stat block itself (L29, as the rulebook prints it) is not tied to a place.
    assert_eq!(block(flyer).defense(), 13);
}

#[test]
fn quickness_catches_swimmers_in_shallow_water() {
    // L91: quickness "can also be used to catch characters escaping with acrobatics, swimming
    // or flying when the environment does not allow them to get far from solid ground (short
    // trees, shallow water or low ceiling for example.)"
    let shallow = Environment {
        water: Water::Shallow,
        ..Environment::default()
    };
    let mut f = fight_with(
        shallow,
        Rules::default(),
        vec![
            Combatant::new(block("2 swimming, 3 toughness"), 0).in_water(true),
            Combatant::new(block("2 quickness, 3 toughness"), 1),
        ],
    );
    f.take_turn(
        turn(Action::Evade {
            with: Some(Movement::Swimming),
        }),
        &[],
    )
    .unwrap();
    let r = f
        .take_turn(
            turn(Action::Catch {
                target: 0,
                with: Some(Movement::Quickness),
            }),
            &[10],
        )
        .unwrap();
    assert_eq!((r.rolls[0].total, r.rolls[0].difficulty), (12, 12));
    assert_eq!(r.rolls[0].outcome, Outcome::Success);
    // In deep water swimmers cannot be reached by quickness (L95).
    let deep = Environment {
        water: Water::Deep,
        ..Environment::default()
    };
    assert!(!CatchMatrix::default().allows(
        Some(Movement::Quickness),
        Some(Movement::Swimming),
        &deep,
        true
    ));
}

#[test]
fn catching_with_swimming_needs_the_catcher_in_water() {
    // L95: swimming is added "When a character is in water"; it is "used to evade, escape
    // and catch characters who are trying to escape in water". Evading with it needs the
    // evader in water; catching with it needs the catcher in water too.
    let shallow = Environment {
        water: Water::Shallow,
        ..Environment::default()
    };
    let members = |catcher_wet| {
        vec![
            Combatant::new(block("2 swimming, 3 toughness"), 0).in_water(true),
            Combatant::new(block("2 swimming, 3 toughness"), 1).in_water(catcher_wet),
        ]
    };
    let mut f = fight_with(shallow, Rules::default(), members(false));
    f.take_turn(
        turn(Action::Evade {
            with: Some(Movement::Swimming),
        }),
        &[],
    )
    .unwrap();
    let before = f.clone();
    assert!(matches!(
        f.take_turn(
            turn(Action::Catch {
                target: 0,
                with: Some(Movement::Swimming)
            }),
            &[15]
        ),
        Err(Error::Environment(_))
    ));
    assert_eq!(f, before);
    // A non-ability catch from the bank is still allowed.
    assert!(f.attack_for(1, AttackKind::Catch, None, 0, None).is_ok());
    let mut f = fight_with(shallow, Rules::default(), members(true));
    f.take_turn(
        turn(Action::Evade {
            with: Some(Movement::Swimming),
        }),
        &[],
    )
    .unwrap();
    let a = f
        .attack_for(1, AttackKind::Catch, Some(Ability::Swimming), 0, None)
        .unwrap();
    assert_eq!(a.d20().difficulty(), 12);
}

#[test]
fn flying_catches_climbers_unless_protected() {
    // L93: flying "can also be used to catch characters escaping by climbing unless obstacles
    // like tree branches protect climbers from fliers".
    let open = Environment {
        room_to_fly: true,
        structures_3d: true,
        ..Environment::default()
    };
    for (protected, allowed) in [(false, true), (true, false)] {
        let env = Environment {
            climbers_protected: protected,
            ..open
        };
        let mut f = fight_with(
            env,
            Rules::default(),
            vec![
                Combatant::new(block("2 acrobatics, 3 toughness"), 0),
                Combatant::new(block("2 flying, 3 toughness"), 1),
            ],
        );
        f.take_turn(
            turn(Action::Evade {
                with: Some(Movement::Acrobatics),
            }),
            &[],
        )
        .unwrap();
        let catch = f.attack_for(1, AttackKind::Catch, Some(Ability::Flying), 0, None);
        assert_eq!(catch.is_ok(), allowed, "climbers protected: {protected}");
    }
}
