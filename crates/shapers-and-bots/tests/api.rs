//! Parsing, validation errors, the rulings' defaults, actions, initiative and serde.

use dice_core::{Die, FaceSet, Keep, Pool, Roll, RollDetailed, Sum};
use dice_shapers_and_bots::{
    Action, ActionTaken, Armor, Attack, AttackOutcome, Challenge, ChallengeOutcome, Characteristic,
    Condition, Contest, Contestant, Damage, DamageRule, DamageTable, Error, Fight, Fluke, Health,
    HpSizeSource, Initiative, Level, PunchDamage, Rating, Rules, Size, Skill, Species, Surprise,
    TurnActions, TurnOrder, UndefendedHit, WeaponClass,
};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

#[test]
fn level_names_and_aliases_parse() {
    // L52–57: "Very Low/Awful", "Low/Poor", "Average", "High/Good", "Very High/Great",
    // "Awesome".
    let names = [
        ("Very Low", Level::VeryLow),
        ("Awful", Level::VeryLow),
        ("Very&nbsp;Low", Level::VeryLow),
        ("Low", Level::Low),
        ("Poor", Level::Low),
        ("Average", Level::Average),
        ("High", Level::High),
        ("Good", Level::High),
        ("Very High", Level::VeryHigh),
        ("great", Level::VeryHigh),
        ("AWESOME", Level::Awesome),
        ("very_high", Level::VeryHigh),
    ];
    for (text, level) in names {
        assert_eq!(text.parse::<Level>().unwrap(), level, "{text}");
        assert_eq!(text.parse::<Rating>().unwrap(), Rating::Rated(level));
    }
    for level in Level::ALL {
        assert_eq!(level.to_string().parse::<Level>().unwrap(), level);
        if let Some(a) = level.alias() {
            assert_eq!(a.parse::<Level>().unwrap(), level);
        }
    }
    for none in ["--", "None", "no rating"] {
        assert_eq!(none.parse::<Rating>().unwrap(), Rating::NoRating);
        assert!(none.parse::<Level>().is_err());
    }
    assert!("".parse::<Rating>().is_err());
    let e = "Mediocre".parse::<Rating>().unwrap_err();
    assert!(e.to_string().contains("or none for no rating"));
    assert_eq!(Rating::NoRating.to_string(), "None");
}

#[test]
fn the_ladder() {
    // L50–57 and SB-R1: target = 3 + 2·index; the bonus steps are +2, +1, +2, +2, +2.
    for (i, l) in Level::ALL.into_iter().enumerate() {
        assert_eq!(l.index() as usize, i);
        assert_eq!(l.target(), 3 + 2 * i as i32);
        assert_eq!(Level::from_index(i as u8), Some(l));
    }
    let steps: Vec<i32> = Level::ALL
        .windows(2)
        .map(|w| w[1].bonus() - w[0].bonus())
        .collect();
    assert_eq!(steps, [2, 1, 2, 2, 2]);
}

#[test]
fn characteristics_species_and_skills_parse() {
    for c in Characteristic::ALL {
        assert_eq!(c.abbreviation().parse::<Characteristic>().unwrap(), c);
        assert_eq!(c.name().parse::<Characteristic>().unwrap(), c);
    }
    assert_eq!(
        "INT".parse::<Characteristic>().unwrap(),
        Characteristic::Intellect
    );
    assert!(matches!(
        "LUCK".parse::<Characteristic>(),
        Err(Error::UnknownCharacteristic { .. })
    ));
    for s in Species::ALL {
        assert_eq!(s.name().parse::<Species>().unwrap(), s);
    }
    assert!(matches!(
        "dragon".parse::<Species>(),
        Err(Error::UnknownSpecies { .. })
    ));
    for s in Skill::ALL {
        assert_eq!(s.name().parse::<Skill>().unwrap(), s);
    }
    assert_eq!(
        "picking pockets".parse::<Skill>().unwrap(),
        Skill::PickingPockets
    );
    assert!(matches!(
        "Fishing".parse::<Skill>(),
        Err(Error::UnknownSkill { .. })
    ));
}

#[test]
fn species_table_rows() {
    // Spot checks of L178–196 beyond the examples.
    let bear = Species::Bear.characteristics();
    assert_eq!(
        (
            bear.size,
            bear.fitness,
            bear.dexterity,
            bear.sight,
            bear.smell
        ),
        (
            Size::Single(Level::High),
            Level::High,
            Level::Low,
            Level::Low,
            Rating::Rated(Level::High)
        )
    );
    let eagle = Species::Eagle.characteristics();
    assert_eq!(
        (eagle.fitness, eagle.sight, eagle.hearing, eagle.smell),
        (
            Level::VeryHigh,
            Level::VeryHigh,
            Level::High,
            Rating::Rated(Level::Low)
        )
    );
    assert_eq!(
        Species::Zebra.characteristics(),
        dice_shapers_and_bots::Characteristics::default()
    );
    assert_eq!(Species::Sloth.special(), Some("very slow"));
    // No species starts above Very High or has Courage/Honesty.
    for s in Species::ALL {
        let c = s.characteristics();
        for t in Characteristic::ALL {
            if let Some(Rating::Rated(l)) = c.get(t) {
                assert!(l <= Level::VeryHigh);
            }
        }
        assert_eq!((c.courage, c.honesty), (None, None));
    }
}

/// L178–196, verbatim: every cell of the species table against `Species::characteristics`.
const SPECIES_TABLE: [&str; 19] = [
    "| bear      | High           | High           | Low            |                | Low            |         | High  |              |",
    "| bison     | High           |                | Very&nbsp;Low  |                | Low            |         |       | horns        |",
    "| crow      | Very&nbsp;Low  | High           |                | High           |                |         | Low   | flying       |",
    "| eagle     | Low            | Very&nbsp;High |                |                | Very&nbsp;High | High    | Low   | flying       |",
    "| elephant  | Very&nbsp;High |                |                |                |                |         |       | trunk        |",
    "| fox       | Low            |                | High           | High           |                |         | High  | carnivore    |",
    "| goat      |                |                |                |                |                |         |       | horns        |",
    "| kangaroo  |                | High           |                |                |                |         |       | leaping      |",
    "| lion      |                | High           |                |                |                | High    | High  | carnivore    |",
    "| monkey    | Low            |                | Very&nbsp;High | High           | High           |         |       | tail         |",
    "| parrot    | Very&nbsp;Low  | Very&nbsp;High | High           |                |                |         |       | flying       |",
    "| rabbit    | Very&nbsp;Low  |                |                |                |                | High    | High  | goes berserk |",
    "| raccoon   | Low            |                | Very&nbsp;High |                | High           |         |       |              |",
    "| rhino     | High           |                | Very&nbsp;Low  |                | Low            |         | High  |              |",
    "| sloth     |                |                | Low            | Very&nbsp;High | Low            |         |       | very slow    |",
    "| tiger     |                | High           |                |                |                | High    | High  | carnivore    |",
    "| turtle    | Low            | Low            | High           | High           | Very&nbsp;Low  |         |       |              |",
    "| wolf      |                | High           |                |                |                | High    | High  | carnivore    |",
    "| zebra     |                |                |                |                |                |         |       |              |",
];

#[test]
fn species_table_matches_the_rulebook_text() {
    for (row, species) in SPECIES_TABLE.iter().zip(Species::ALL) {
        let cells: Vec<&str> = row
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        assert_eq!(cells[0], species.name());
        let level = |i: usize| -> Level {
            if cells[i].is_empty() {
                Level::Average // a blank cell is the default (L134–135)
            } else {
                cells[i].parse().unwrap()
            }
        };
        let c = species.characteristics();
        assert_eq!(c.size, Size::Single(level(1)), "{row}");
        assert_eq!(
            [c.fitness, c.dexterity, c.intellect, c.sight, c.hearing],
            [level(2), level(3), level(4), level(5), level(6)],
            "{row}"
        );
        assert_eq!(c.smell, Rating::Rated(level(7)), "{row}");
        let special = (!cells[8].is_empty()).then_some(cells[8]);
        assert_eq!(species.special(), special, "{row}");
    }
}

/// L243–278, verbatim: every skill's starting level and category against `Skill`.
const SKILL_LIST: [&str; 36] = [
    "-   Acrobatics (FIT): walking a tightrope, doing a somersault, etc.",
    "-   Animal Handling (Low): calming a frightened horse or an angry wolverine.",
    "-   Brawling (FIT): hand-to-hand combat without weapons.",
    "-   Boating (Very Low): managing sails and a rudder.",
    "-   Camouflage (Low): disguising objects.",
    "-   Camping (Very Low): setting up a tent and making a fire.",
    "-   Charisma (IQ): charming people (includes talking people into things, fooling them, and acting).",
    "-   Climbing (FIT): walls, ropes, and what-not.",
    "-   Computers (--): handling anything with a digital brain; see Mechanics for the mechanical side of robots.",
    "-   **Craft** (DEX): see below.",
    "-   Dancing (FIT): being graceful on the dance floor.",
    "-   Driving (--): wagons and motorized vehicles alike.",
    "-   Escapology (DEX): getting untied, picking locks, and escaping from handcuffs.",
    "-   Farming (Very Low): growing food.",
    "-   **Fine Art** (DEX): see below.",
    "-   First Aid (Very Low): handling broken bones and wounds; see Medicine.",
    "-   Gambling (Low): cards, dice, and bluffing.",
    "-   Hypnotism (--): putting people into a trance.",
    "-   **Lore** (--): see below.",
    "-   Mechanics (DEX): making or fixing broken things; see Computers for the digital side.",
    "-   Medicine (--): handling disease and infection; see First Aid.",
    "-   Navigation (--): finding your way by the stars and other signs.",
    "-   Picking Pockets (Very Low): taking things without being noticed.",
    "-   Riding (FIT): bicycles and horses.",
    "-   Singing (FIT): making music with the voice.",
    "-   Skating (FIT): handling yourself on metal runners.",
    "-   Skiing (FIT): handling yourself on lengths of wood.",
    "-   Stage Magic (--): juggling, sleight of hand, etc.",
    "-   Stealth (FIT): moving without being spotted.",
    "-   Swimming (Very Low): keeping your head above water.",
    "-   Throwing (FIT): how far and how accurately.",
    "-   Tracking (special): following things' trails. Initial ability is the best of SGT, HER, or SML.",
    "-   Trapping (Very Low): making traps that work.",
    "-   Tunnelling (Low): digging tunnels that don't collapse.",
    "-   Ventriloquism (--): throwing your voice.",
    "-   **Weapon** (FIT): see below.",
];

#[test]
fn skill_list_matches_the_rulebook_text() {
    use dice_shapers_and_bots::SkillStart;
    for (line, skill) in SKILL_LIST.iter().zip(Skill::ALL) {
        let text = line.trim_start_matches("-").trim();
        let (name, rest) = text.split_once(" (").unwrap();
        let start = rest.split_once(')').unwrap().0;
        assert_eq!(name.trim_matches('*'), skill.name(), "{line}");
        assert_eq!(name.starts_with("**"), skill.is_category(), "{line}");
        let want = match start {
            "--" => SkillStart::NoAbility,
            "special" => SkillStart::BestSense,
            s => match s.parse::<Characteristic>() {
                Ok(c) => SkillStart::Characteristic(c),
                Err(_) => SkillStart::Level(s.parse().unwrap()),
            },
        };
        assert_eq!(skill.start(), want, "{line}");
    }
}

#[test]
fn rules_default_is_the_digest_ruling() {
    let r = Rules::default();
    assert_eq!(r.undefended_hit, UndefendedHit::Challenge); // SB-A1
    assert!(r.fluke_equal_is_consequence); // SB-A3
    assert_eq!(r.punch_damage, PunchDamage::SingleRoll); // SB-A4
    assert_eq!(r.armored_really_powerful, None); // SB-A6
    assert_eq!(r.hp_size_source, HpSizeSource::Lower); // SB-A7
    assert!(r.clamp_hp_at_zero); // SB-A17
    assert_eq!(r.max_borrowed_actions, 2); // SB-A19
    assert!(!r.fluke_in_contests); // SB-A21
}

#[test]
fn dice_faces_are_checked() {
    let c = Challenge::new(Level::Average, Level::Average).unwrap();
    assert_eq!(c.resolve([0, 3]), Err(Error::Face { face: 0 }));
    assert_eq!(c.resolve([3, 7]), Err(Error::Face { face: 7 }));
    let f = Fluke::new(Level::Low, &Rules::default()).unwrap();
    assert_eq!(f.resolve(&[4, 9]), Err(Error::Face { face: 9 }));
    assert_eq!(f.resolve(&[]), Err(Error::StreakUnfinished { faces: 0 }));
    let contest = Contest::new(Level::Low.into(), Level::Low.into(), &Rules::default()).unwrap();
    assert_eq!(
        contest.resolve(&[1, 2, 3], &[1, 1]),
        Err(Error::DiceCount { got: 3 })
    );
    let d = Damage::new(WeaponClass::Small, false, &Rules::default()).unwrap();
    assert_eq!(
        d.resolve(&[5, 6]),
        Err(Error::StreakUnfinished { faces: 2 })
    );
    let punch = Damage::new(WeaponClass::PunchOrKick, false, &Rules::default()).unwrap();
    assert_eq!(punch.resolve(&[6]).unwrap().0.points, 1); // one die only (SB-A4)
    assert_eq!(punch.resolve(&[6, 6, 6]).unwrap().1, 1);
    let armored_punch = Damage::new(WeaponClass::PunchOrKick, true, &Rules::default()).unwrap();
    assert_eq!(armored_punch.resolve(&[]).unwrap().0.points, 0); // no effect (L404)
}

#[test]
fn punch_as_a_streak() {
    let rules = Rules {
        punch_damage: PunchDamage::Streak,
        ..Rules::default()
    };
    let punch = Damage::new(WeaponClass::PunchOrKick, false, &rules).unwrap();
    assert_eq!(punch.resolve(&[6, 6, 2]).unwrap().0.points, 2);
    assert_eq!(punch.rule().to_string(), "0 + (6)");
}

#[test]
fn damage_table_and_rules() {
    let table = DamageTable::new(&Rules::default()).unwrap();
    let text = table.to_string();
    assert!(text.contains("large weapon: unarmored 1 + (3, 4, 5, 6), armored 0 + (5, 6)"));
    assert!(text.contains("small weapon: unarmored 1 + (5, 6), armored 0 + (6)"));
    assert!(text.contains(
        "really powerful weapon: unarmored 1 + (2, 3, 4, 5, 6), armored (not given, SB-A6)"
    ));
    let e = Damage::new(WeaponClass::ReallyPowerful, true, &Rules::default()).unwrap_err();
    assert_eq!(e.rule(), Some("SB-A6"));
    assert!(e.to_string().contains("Rules::armored_really_powerful"));
    let bad = DamageRule::Streak {
        base: 0,
        continue_on: FaceSet::new([5, 7]).unwrap(),
    };
    assert_eq!(Damage::from_rule(bad), Err(Error::DamageFace { face: 7 }));
    assert!(matches!(
        Damage::from_rule(DamageRule::Streak {
            base: 1,
            continue_on: FaceSet::range(1, 6).unwrap()
        }),
        Err(Error::Core(_))
    ));
}

#[test]
fn contestants_and_surprise() {
    assert_eq!(
        Contestant::unrated().wearing(Armor::Accustomed),
        Err(Error::NoBonusForFluke { modifier: -1 })
    );
    assert_eq!(
        Contestant::unrated().wearing(Armor::Unarmored),
        Ok(Contestant::unrated())
    );
    assert_eq!(
        Contestant::rated(Level::High)
            .wearing(Armor::Unaccustomed)
            .unwrap()
            .to_string(),
        "High (+2 -3)"
    );
    for b in [-1, 3, 4] {
        assert_eq!(Surprise::from_bonus(b), Err(Error::Surprise { bonus: b }));
    }
    assert!(
        Attack::sneak(
            Contestant::unrated(),
            &Size::Single(Level::Low),
            Surprise::PlusOne,
            &Rules::default()
        )
        .is_err()
    );
    assert!(matches!(
        Attack::defended(Contestant::unrated(), Level::Low.into(), &Rules::default()),
        Err(Error::FlukeNotAllowed { .. })
    ));
}

#[test]
fn undefended_readings() {
    // SB-A1: "get the score required" — the three readings on a total exactly on the target.
    let size = Size::Single(Level::Average); // needs 7
    let on_target = [3, 4];
    let outcome = |reading| {
        let rules = Rules {
            undefended_hit: reading,
            ..Rules::default()
        };
        Attack::undefended(Level::Average.into(), &size, &rules)
            .unwrap()
            .resolve(&on_target, &[])
            .unwrap()
            .outcome
    };
    assert_eq!(
        outcome(UndefendedHit::Challenge),
        AttackOutcome::HitWithConsequences
    );
    assert_eq!(outcome(UndefendedHit::AtLeast), AttackOutcome::Hit);
    assert_eq!(outcome(UndefendedHit::Greater), AttackOutcome::Miss);
    // A sneak attack is always against Size (L368–369), with the surprise bonus.
    let sneak = Attack::sneak(
        Level::Average.into(),
        &size,
        Surprise::PlusOne,
        &Rules::default(),
    )
    .unwrap();
    assert_eq!(
        sneak.resolve(&[3, 4], &[]).unwrap().outcome,
        AttackOutcome::Hit
    );
    assert_eq!(sneak.needed(), Some(7));
}

#[test]
fn borrowing_is_limited_by_the_ruling() {
    let rules = Rules::default();
    let mut a = TurnActions::new();
    a.take(Action::Attack, &rules).unwrap();
    assert_eq!(a.take(Action::Drop, &rules).unwrap(), ActionTaken::Free);
    a.take(Action::Run, &rules).unwrap();
    assert_eq!(
        a.take(Action::PickUp, &rules),
        Err(Error::NoActionsLeft {
            action: Action::PickUp
        })
    );
    assert_eq!(
        a.take(Action::Defend, &rules).unwrap(),
        ActionTaken::Borrowed
    );
    assert_eq!(
        a.take(Action::Defend, &rules).unwrap(),
        ActionTaken::Borrowed
    );
    // SB-A19: down to no actions next turn, and no further.
    assert_eq!(
        a.take(Action::Defend, &rules),
        Err(Error::BorrowLimit { limit: 2 })
    );
    a.next_turn();
    assert_eq!((a.left(), a.owed()), (0, 0));
    a.next_turn();
    assert_eq!(a.left(), 2);
    // A table that lets the debt run over several turns.
    let deep = Rules {
        max_borrowed_actions: 3,
        ..rules
    };
    let mut b = TurnActions::new();
    b.take(Action::Attack, &deep).unwrap();
    b.take(Action::Attack, &deep).unwrap();
    for _ in 0..3 {
        b.take(Action::Defend, &deep).unwrap();
    }
    b.next_turn();
    assert_eq!((b.left(), b.owed()), (0, 1));
    b.next_turn();
    assert_eq!((b.left(), b.owed()), (1, 0));
}

#[test]
fn fight_errors_and_order() {
    let mut fight = Fight::new(TurnOrder::new(vec![1, 0]), &Rules::default()).unwrap();
    assert_eq!(
        fight.act(2, Action::Attack),
        Err(Error::NoSuchFighter { index: 2, count: 2 })
    );
    assert!(fight.actions(5).is_err());
    assert_eq!(fight.order().first(), Some(1));
}

/// Audit fault (given): `Fight` let a fighter act out of turn. L324–325: "In each turn,
/// characters act in order of Fitness (highest Fitness first)." Before the fix fighter 1's
/// attack in fighter 0's turn was taken (`Ok(ThisTurn)`).
#[test]
fn fight_refuses_acting_out_of_turn() {
    let rules = Rules::default();
    // Fighter 2 has the highest Fitness, then 0, then 1.
    let mut fight = Fight::new(TurnOrder::new(vec![2, 0, 1]), &rules).unwrap();
    assert_eq!((fight.turn(), fight.current()), (1, 2));
    // L322–323: "turns that are 5 seconds long in game time".
    assert_eq!(Fight::SECONDS_PER_TURN, 5);
    for action in [
        Action::Attack,
        Action::Run,
        Action::PickUp,
        Action::DrawWeapon,
        Action::Reload,
        Action::Drop,
    ] {
        let err = fight.act(0, action).unwrap_err();
        assert_eq!(
            err,
            Error::OutOfTurn {
                fighter: 0,
                current: 2,
                action
            }
        );
        assert_eq!(err.rule(), Some("SB-R13"));
        assert!(err.to_string().contains("L324–325"), "{err}");
    }
    // The refusal cost nothing.
    assert_eq!(fight.actions(0).unwrap().left(), 2);
    // Fighter 2 attacks fighter 1, who defends in fighter 2's turn (L351).
    assert_eq!(fight.act(2, Action::Attack), Ok(ActionTaken::ThisTurn));
    assert_eq!(fight.act(1, Action::Defend), Ok(ActionTaken::ThisTurn));
    // Turns pass in order, and the next turn keeps the order (L326–328).
    assert_eq!(fight.end_turn(), 0);
    assert!(matches!(
        fight.act(2, Action::Attack),
        Err(Error::OutOfTurn { current: 0, .. })
    ));
    assert_eq!(fight.act(0, Action::Attack), Ok(ActionTaken::ThisTurn));
    assert_eq!(fight.end_turn(), 1);
    assert_eq!(fight.act(1, Action::Attack), Ok(ActionTaken::ThisTurn));
    assert_eq!(fight.actions(1).unwrap().left(), 0); // one defense, one attack
    assert_eq!(fight.end_turn(), 2);
    assert_eq!((fight.turn(), fight.current()), (2, 2));
    assert_eq!(fight.actions(1).unwrap().left(), 2);
    // `next_turn` passes the turns of everyone still to act.
    fight.act(2, Action::Run).unwrap();
    fight.next_turn();
    assert_eq!((fight.turn(), fight.current()), (3, 2));
}

/// L432: "When a character's HP reaches zero they are unconscious." An unconscious fighter
/// takes no action, not even a defense, and their turns pass them by; the Director may bring
/// them round ("What happens next depends on the situation", L433).
#[test]
fn fight_unconscious_fighters_do_not_act() {
    let rules = Rules::default();
    let mut fight = Fight::new(TurnOrder::new(vec![0, 1, 2]), &rules).unwrap();
    let mut health = Health::new(3).unwrap();
    fight.act(0, Action::Attack).unwrap();
    let condition = health.take(3, &rules);
    fight.set_condition(1, condition).unwrap();
    assert_eq!(fight.condition(1), Ok(Condition::Unconscious));
    for action in [Action::Defend, Action::Attack, Action::Drop] {
        let err = fight.act(1, action).unwrap_err();
        assert_eq!(err, Error::Unconscious { fighter: 1, action });
        assert!(err.to_string().contains("L432"), "{err}");
    }
    // Fighter 1's turn is skipped, this turn and the next.
    assert_eq!(fight.end_turn(), 2);
    assert_eq!(fight.end_turn(), 0);
    assert_eq!(fight.turn(), 2);
    assert_eq!(fight.end_turn(), 2);
    // Knocked out in their own turn, the turn passes on.
    fight.set_condition(2, Condition::Unconscious).unwrap();
    assert_eq!((fight.turn(), fight.current()), (3, 0));
    // Brought round, fighter 1 acts again in their place.
    fight.set_condition(1, Condition::Conscious).unwrap();
    assert_eq!(fight.end_turn(), 1);
    assert_eq!(fight.act(1, Action::Attack), Ok(ActionTaken::ThisTurn));
    assert_eq!(
        fight.set_condition(3, Condition::Conscious),
        Err(Error::NoSuchFighter { index: 3, count: 3 })
    );
}

/// Found in this audit: `Fight::new` took any order, so a fighter could be listed twice (two
/// turns in one) or left out (a fighter of the fight who never has a turn). L324–328: each
/// character acts once a turn, in the order of Fitness kept for the fight. Before the fix
/// `Fight::new(TurnOrder::new(vec![0, 2]), ..)` made a fight whose fighter 1 had actions but
/// no place in the order.
#[test]
fn fight_order_lists_each_fighter_once() {
    let rules = Rules::default();
    let listing = |order: Vec<usize>| Fight::new(TurnOrder::new(order), &rules).map(|_| ());
    assert_eq!(
        listing(vec![0, 2]),
        Err(Error::TurnOrderListing {
            fighter: 1,
            listed: 0
        })
    );
    assert_eq!(
        listing(vec![1, 0, 1]),
        Err(Error::TurnOrderListing {
            fighter: 1,
            listed: 2
        })
    );
    assert_eq!(
        listing(vec![]),
        Err(Error::TurnOrderListing {
            fighter: 0,
            listed: 0
        })
    );
    let e = listing(vec![0, 0]).unwrap_err();
    assert_eq!(e.rule(), Some("SB-R13"));
    assert!(e.to_string().contains("L324–328"));
    assert_eq!(listing(vec![2, 0, 1]), Ok(()));
    assert_eq!(listing(vec![0]), Ok(()));
}

#[test]
fn initiative_pure_form() {
    let two_d6 = Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 0).unwrap();
    // L325: highest Fitness first.
    let init = Initiative::new(
        vec![Level::Low, Level::VeryHigh, Level::Average],
        two_d6.clone(),
    )
    .unwrap();
    assert_eq!(
        init.order_from_tie_rolls(&[&[], &[], &[]]).unwrap(),
        TurnOrder::new(vec![1, 2, 0])
    );
    // Three tied: 8, 8, 3 → the two 8s roll again: 4 vs 10.
    let tied = Initiative::new(vec![Level::High; 3], two_d6.clone()).unwrap();
    assert_eq!(
        tied.order_from_tie_rolls(&[&[8, 4], &[8, 10], &[3]])
            .unwrap(),
        TurnOrder::new(vec![1, 0, 2])
    );
    assert_eq!(
        tied.order_from_tie_rolls(&[&[8], &[8], &[3]]),
        Err(Error::InitiativeTieUnresolved {
            first: 0,
            second: 1
        })
    );
    assert!(tied.order_from_tie_rolls(&[&[8]]).is_err());
    let nothing = Sum::new(Pool::empty(), Keep::All, 3).unwrap();
    assert_eq!(
        Initiative::new(vec![Level::Low], nothing),
        Err(Error::TieRollWithoutDice)
    );
    // The roll path: kept for the fight, so a Fight is built from it once.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let roll = tied.roll_initiative(&mut rng);
    let fight = Fight::new(roll.order.clone(), &Rules::default()).unwrap();
    assert_eq!(fight.order(), &roll.order);
    let mut sorted = roll.order.0.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [0, 1, 2]);
}

#[test]
fn health_and_unconsciousness() {
    let rules = Rules::default();
    assert_eq!(Health::new(0), Err(Error::HitPoints { max: 0 }));
    let mut h = Health::new(5).unwrap();
    h.take(5, &rules);
    assert_eq!(h.condition(), dice_shapers_and_bots::Condition::Unconscious); // L432
    assert_eq!(h.to_string(), "0/5 HP");
}

#[test]
fn records_show_every_die() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let c = Challenge::new(Level::High, Level::Average).unwrap();
    let rec = c.roll_record(&mut rng);
    assert_eq!(rec.dice.len(), 2);
    assert_eq!(rec.modifier, 2);
    let f = Fluke::new(Level::Average, &Rules::default()).unwrap();
    let rec = f.roll_record(&mut rng);
    assert_eq!(rec.total, i64::from(rec.successes));
    assert_eq!(rec.dice.len() as u32, rec.successes + 1);
    // rand's Distribution, delegating to Roll.
    use rand::RngExt;
    let o: ChallengeOutcome = rng.sample(&c);
    assert!(o <= ChallengeOutcome::Success);
    let _: u32 = Damage::new(WeaponClass::Small, true, &Rules::default())
        .unwrap()
        .roll(&mut rng);
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trips() {
    let rules = Rules {
        armored_really_powerful: Some(DamageRule::Streak {
            base: 0,
            continue_on: FaceSet::range(4, 6).unwrap(),
        }),
        ..Rules::default()
    };
    let json = serde_json::to_string(&rules).unwrap();
    assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
    let roll = Challenge::new(Level::High, Level::Awesome)
        .unwrap()
        .resolve([5, 6])
        .unwrap();
    let json = serde_json::to_string(&roll).unwrap();
    assert!(json.contains("success_with_consequences"));
    assert_eq!(
        serde_json::from_str::<dice_shapers_and_bots::ChallengeRoll>(&json).unwrap(),
        roll
    );
    let c = Species::Parrot.characteristics();
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(
        serde_json::from_str::<dice_shapers_and_bots::Characteristics>(&json).unwrap(),
        c
    );
}

/// Found in this audit: a damage streak rolled by hand that ran into dice-core's cap was
/// reported as ended by a miss (`capped: false`), unlike the same streak rolled with an RNG
/// and unlike a fluke. L396–397: "as long as the player keeps rolling a 5 or 6, the damage
/// keeps accumulating" — the cap is the library's limit, and the record must say when it,
/// not a miss, ended the streak.
#[test]
fn hand_rolled_damage_says_when_the_cap_ended_it() {
    let rules = Rules::default();
    let small = Damage::new(WeaponClass::Small, false, &rules).unwrap();
    let sixes = [6u8; 400];
    let (roll, used) = small.resolve(&sixes).unwrap();
    assert!(used < sixes.len());
    assert_eq!(roll.points, 1 + roll.streak);
    assert!(roll.capped, "{roll:?}");
    assert!(roll.to_string().contains("cap reached"));
    // A fluke rolled by hand already said so.
    let (fluke, _) = Fluke::new(Level::Average, &rules)
        .unwrap()
        .resolve(&sixes)
        .unwrap();
    assert!(fluke.capped);
    assert_eq!(fluke.score, roll.streak);
    // A streak that a miss ends is not capped.
    assert!(!small.resolve(&[6, 5, 1]).unwrap().0.capped);
}
