//! Support and vehicle abilities, character creation and stat blocks (L59–L117).

use dice_scratch_rps::{
    Ability, Character, CharacterPoints, Error, HurryRoll, Outcome, Party, Rules, Treatment,
    Vehicle,
    support::{HEALING_DIFFICULTY, HURRY_DIFFICULTY, healing_roll, vehicle_roll},
};

fn block(text: &str) -> Character {
    Character::from_stat_block(text).unwrap()
}

#[test]
fn craftsmanship_bonuses() {
    // L101: per level, a temporary +1 to a companion's ability already at level 1; at most
    // one per ability, from anyone; not to oneself (SC-A14).
    let smith = block("2 craftsmanship, 2 toughness");
    let tinker = block("1 craftsmanship, 2 toughness");
    let archer = block("3 shooting, 3 toughness");
    let mut party = Party::new(vec![smith, tinker, archer], Rules::default());
    assert_eq!(
        party.give_bonus(0, 0, Ability::Toughness),
        Err(Error::BonusToSelf)
    );
    assert_eq!(
        party.give_bonus(2, 0, Ability::Toughness),
        Err(Error::MissingAbility {
            ability: Ability::Craftsmanship
        })
    );
    assert_eq!(
        party.give_bonus(0, 2, Ability::Healing),
        Err(Error::BonusOnMissingAbility {
            ability: Ability::Healing
        })
    );
    party.give_bonus(0, 2, Ability::Shooting).unwrap();
    assert_eq!(
        party.give_bonus(1, 2, Ability::Shooting),
        Err(Error::BonusAlreadyGiven {
            ability: Ability::Shooting
        })
    );
    party.give_bonus(0, 2, Ability::Toughness).unwrap();
    assert_eq!(
        party.give_bonus(0, 1, Ability::Toughness),
        Err(Error::NoBonusesLeft { level: 2 })
    );
    let archer = party.member(2).unwrap();
    assert_eq!(archer.level(Ability::Shooting), 4);
    assert_eq!(archer.base_level(Ability::Shooting), 3);
    assert_eq!(archer.max_hit_points(), 4);
    assert_eq!(
        archer.to_string(),
        "4 shooting, 4 toughness, 2 tgh/2, 12 defense"
    );
    // Bonuses are not character points (L63).
    assert_eq!(archer.total_levels(), 6);
    party.part_ways(2, 0).unwrap();
    assert!(party.bonuses().is_empty());
    assert_eq!(party.member(2).unwrap().level(Ability::Shooting), 3);
    assert!(party.member(3).is_err());
    assert_eq!(
        party.remove_bonus(0, 2, Ability::Shooting),
        Err(Error::NoSuchBonus {
            from: 0,
            to: 2,
            ability: Ability::Shooting
        })
    );
}

#[test]
fn craftsmanship_in_a_hurry() {
    // L101: "He must make a success roll to add a temporary bonus in a hurry (usually
    // difficulty 10.) If the roll fails he cannot use that temporary bonus until he is no
    // longer in a hurry."
    let smith = block("2 craftsmanship, 2 toughness");
    let archer = block("3 shooting, 3 toughness");
    let mut party = Party::new(vec![smith, archer], Rules::default());
    assert_eq!(
        party
            .hurry_roll(0, HURRY_DIFFICULTY)
            .unwrap()
            .total(8)
            .unwrap(),
        10
    );
    assert_eq!(
        party
            .give_bonus_in_hurry(0, 1, Ability::Shooting, HURRY_DIFFICULTY, 7)
            .unwrap(),
        Outcome::Failure
    );
    assert_eq!(party.member(1).unwrap().level(Ability::Shooting), 3);
    assert_eq!(
        party.give_bonus_in_hurry(0, 1, Ability::Shooting, HURRY_DIFFICULTY, 20),
        Err(Error::BonusBlocked)
    );
    // Another bonus is not blocked.
    assert_eq!(
        party
            .give_bonus_in_hurry(0, 1, Ability::Toughness, HURRY_DIFFICULTY, 8)
            .unwrap(),
        Outcome::Success
    );
    party.end_hurry();
    assert_eq!(
        party
            .give_bonus_in_hurry(0, 1, Ability::Shooting, HURRY_DIFFICULTY, 20)
            .unwrap(),
        Outcome::AutomaticSuccess
    );
    // The other reading of the hurry roll: a non-ability roll.
    let plain = Rules {
        hurry_roll: HurryRoll::NonAbility,
        ..Rules::default()
    };
    let party = Party::new(vec![smith, archer], plain);
    assert_eq!(
        party
            .hurry_roll(0, HURRY_DIFFICULTY)
            .unwrap()
            .total(8)
            .unwrap(),
        8
    );
}

#[test]
fn healing_rule() {
    // L99.
    for toughness in 1..=12u32 {
        assert_eq!(Treatment::needed(0, toughness).unwrap(), Treatment::Revive);
        assert_eq!(Treatment::Revive.hit_points_after(toughness), 1);
        let half = toughness / 2;
        for hp in 1..=half {
            assert_eq!(Treatment::needed(hp, toughness).unwrap(), Treatment::Heal);
        }
        for hp in half + 1..=toughness {
            assert_eq!(Treatment::needed(hp, toughness), Err(Error::NothingToHeal));
        }
        // "barely healthy, with 1 hit point more than half of his maximum hit points".
        let healed = Treatment::Heal.hit_points_after(toughness);
        assert_eq!(healed, half + 1);
        assert_eq!(
            dice_scratch_rps::Health::of(healed, toughness),
            dice_scratch_rps::Health::Healthy
        );
    }
    let healer = block("1 healing, 2 toughness");
    assert_eq!(
        healing_roll(&healer).unwrap().difficulty(),
        HEALING_DIFFICULTY
    );
    assert!(healing_roll(&block("2 toughness")).is_err());
}

#[test]
fn vehicles() {
    // L113–L117.
    let c = block("1 driving, 2 navigation, 3 piloting, 2 toughness");
    for (v, level) in [
        (Vehicle::Ground, 1),
        (Vehicle::Water, 2),
        (Vehicle::AirOrSpace, 3),
    ] {
        assert!(c.can_operate(v));
        assert_eq!(vehicle_roll(&c, v, 12).unwrap().total_modifier(), level);
        assert!(v.ability().is_vehicle());
    }
    assert_eq!(
        vehicle_roll(&block("2 toughness"), Vehicle::Ground, 12),
        Err(Error::MissingAbility {
            ability: Ability::Driving
        })
    );
}

#[test]
fn character_points() {
    // L61–L67.
    assert!(CharacterPoints::new(0, 4).is_err());
    assert!(CharacterPoints::new(10, 0).is_err());
    let no_toughness = Character::from_levels([
        (Ability::Shooting, 4),
        (Ability::Fighting, 4),
        (Ability::Stalking, 2),
    ])
    .unwrap();
    assert_eq!(
        CharacterPoints::AVERAGE.check(&no_toughness),
        Err(Error::NoToughness)
    );
    let short = block("4 shooting, 4 toughness");
    assert_eq!(
        CharacterPoints::AVERAGE.check(&short),
        Err(Error::Unspent { spent: 8, cp: 10 })
    );
    assert_eq!(
        CharacterPoints::AVERAGE.to_string(),
        "10 CP, maximum level 4"
    );
}

#[test]
fn stat_blocks() {
    assert_eq!(
        Character::from_stat_block("8 shooting, 2 toughness, 2 tgh/2"),
        Err(Error::StatBlockMismatch {
            stat: "tgh/2",
            written: 2,
            derived: 1
        })
    );
    assert!(matches!(
        Character::from_stat_block("8 lasers, 2 toughness"),
        Err(Error::UnknownAbility { .. })
    ));
    assert!(matches!(
        Character::from_stat_block("shooting 8"),
        Err(Error::StatBlockSyntax { .. })
    ));
    assert!(matches!(
        Character::from_stat_block("1 shooting, 2 Shooting"),
        Err(Error::DuplicateAbility {
            ability: Ability::Shooting
        })
    ));
    assert!(matches!(
        Character::from_stat_block("5000 toughness"),
        Err(Error::Level { .. })
    ));
    let c: Character = "1 Flying, 3 Swimming, 2 toughness".parse().unwrap();
    assert_eq!(c.defense(), 11); // flying is defensive, swimming is not (SC-A10)
    assert_eq!(c.best_defensive_ability(), Some((Ability::Flying, 1)));
}

#[test]
fn error_messages_say_what_is_allowed() {
    let e = Error::NotAllowed {
        attack: dice_scratch_rps::AttackKind::Hold,
        ability: Some(Ability::Fighting),
    };
    assert_eq!(
        e.to_string(),
        "hold cannot be rolled with fighting; allowed: a non-ability or wrestling roll"
    );
    let e = Error::MissingAbility {
        ability: Ability::Knockout,
    };
    assert!(e.to_string().contains("at least 1 level of knockout"));
}

#[test]
fn a_character_without_toughness_cannot_be_revived() {
    // L71: "Characters without toughness may not perform actions in combat rounds." L33: "A
    // character's toughness ability level is his maximum hit points." Against L99: "After
    // being successfully revived a character is still injured, and has only one hit point."
    assert_eq!(Treatment::needed(0, 0), Err(Error::WithoutToughness));
    // Never more hit points than the maximum (L33).
    assert_eq!(Treatment::Revive.hit_points_after(0), 0);
    assert_eq!(Treatment::Heal.hit_points_after(0), 0);
    let toughless = dice_scratch_rps::Combatant::new(Character::new(), 0);
    assert_eq!(
        toughless.status(),
        dice_scratch_rps::TurnStatus::Incapacitated
    );
    assert!(toughless.with_hit_points(1).is_err());
    assert!(!toughless.is_standing());
}

#[test]
fn a_failed_hurried_bonus_stays_blocked_until_the_hurry_ends() {
    // L101: "He must make a success roll to add a temporary bonus in a hurry (usually
    // difficulty 10.) If the roll fails he cannot use that temporary bonus until he is no
    // longer in a hurry."
    let smith = block("2 craftsmanship, 2 toughness");
    let archer = block("3 shooting, 3 toughness");
    let mut party = Party::new(vec![smith, archer], Rules::default());
    assert_eq!(
        party
            .give_bonus_in_hurry(0, 1, Ability::Shooting, HURRY_DIFFICULTY, 1)
            .unwrap(),
        Outcome::Failure
    );
    // Giving it without a roll while still in the hurry is still using it.
    assert_eq!(
        party.give_bonus(0, 1, Ability::Shooting),
        Err(Error::BonusBlocked)
    );
    assert_eq!(party.member(1).unwrap().level(Ability::Shooting), 3);
    party.end_hurry();
    party.give_bonus(0, 1, Ability::Shooting).unwrap();
    assert_eq!(party.member(1).unwrap().level(Ability::Shooting), 4);
}
