//! Every worked example of the rulebook (digest ids SB-E1 … SB-E18), each quoting its lines
//! of `seeds/shapers-and-bots.txt`.

use dice_shapers_and_bots::{
    Action, ActionTaken, Attack, AttackOutcome, Attempt, AttemptRoll, Challenge, ChallengeOutcome,
    Character, Characteristic, CharacteristicChanges, Characteristics, Contest, ContestOutcome,
    Contestant, CreatedBy, Damage, Error, Fight, Fluke, Health, HpSizeSource, Level, Rating, Rules,
    Shaping, ShapingKind, Size, Skill, SkillName, SkillPackage, SkillRaise, Skills, Species,
    TurnActions, TurnOrder, WeaponClass, adjust_characteristics, auto_success_eligible, hit_points,
    raise_skills,
};

fn rules() -> Rules {
    Rules::default()
}

fn skill(s: Skill) -> SkillName {
    SkillName::listed(s).expect("not a category")
}

#[test]
fn sb_e1_automatic_success() {
    // L64–67: "if a wall has Low difficulty, and the character has Average climbing ability,
    // the Director can rule that the character gets over the wall."
    assert!(auto_success_eligible(
        Rating::Rated(Level::Average),
        Level::Low
    ));
    let attempt = Attempt::new(
        Rating::Rated(Level::Average),
        Level::Low,
        dice_shapers_and_bots::Stakes::Routine,
        &rules(),
    )
    .unwrap();
    assert_eq!(attempt, Attempt::AutomaticSuccess);
    assert_eq!(attempt.resolve(&[]).unwrap(), AttemptRoll::AutomaticSuccess);
    // L70: "equal to or lower than the task's" rolls.
    assert!(!auto_success_eligible(
        Rating::Rated(Level::Low),
        Level::Low
    ));
}

#[test]
fn sb_e2_challenge_failure() {
    // L83–87: "Alouard has a High climbing ability but is trying to get up a wall with Awesome
    // difficulty. Her player rolls two dice and gets a total of 6 points. After adding 2 for
    // her bonus, her score is 8, which is well short of the 13 needed to scale this wall."
    let climb = Challenge::new(Level::High, Level::Awesome).unwrap();
    for dice in [[1, 5], [2, 4], [3, 3]] {
        let roll = climb.resolve(dice).unwrap();
        assert_eq!(roll.score.total(), 8);
        assert_eq!(roll.target, 13);
        assert_eq!(roll.outcome, ChallengeOutcome::Failure);
    }
}

#[test]
fn sb_e3_challenge_success_with_consequences() {
    // L89–92: "This time her player rolls 11 and adds her bonus to get exactly 13. Alouard has
    // succeeded, but the Director rules that one of her boots fell off".
    let climb = Challenge::new(Level::High, Level::Awesome).unwrap();
    let roll = climb.resolve([5, 6]).unwrap();
    assert_eq!(roll.score.total(), 13);
    assert_eq!(roll.outcome, ChallengeOutcome::SuccessWithConsequences);
    assert!(roll.outcome.succeeded());
}

#[test]
fn sb_e4_contest_ties_twice() {
    // L103–108: "When their players both roll 9's, the Director decides that they are still
    // locked in combat. They both re-roll and get 5's. This time, the Director rules that the
    // table has broken". Their levels are not given; a tie needs equal totals (SB-A9), so the
    // test gives both the same level and dice with the same totals.
    let arm_wrestling = Contest::new(Level::High.into(), Level::High.into(), &rules()).unwrap();
    let first = arm_wrestling.resolve(&[4, 5], &[3, 6]).unwrap();
    assert_eq!((first.first.total(), first.second.total()), (11, 11)); // 9 + 2 each
    assert_eq!(first.outcome, ContestOutcome::Tie);
    assert!(!first.outcome.is_decided());
    let second = arm_wrestling.resolve(&[2, 3], &[1, 4]).unwrap();
    assert_eq!(second.outcome, ContestOutcome::Tie);
    // With no bonus, "9's" are the totals themselves.
    let even = Contest::new(Level::Average.into(), Level::Average.into(), &rules()).unwrap();
    let r = even.resolve(&[4, 5], &[6, 3]).unwrap();
    assert_eq!(
        (r.first.total(), r.second.total(), r.outcome),
        (9, 9, ContestOutcome::Tie)
    );
}

#[test]
fn sb_e5_fluke_misses() {
    // L125–129: "The Director rules that hitting the crocodile is an Average task, so
    // Zitterbee needs 7 points. Its player rolls a 5, another 5, a 6, a 4, a 6---and then a 3,
    // ending its lucky streak. Zitterbee's shot misses."
    let shot = Fluke::new(Level::Average, &rules()).unwrap();
    assert_eq!(shot.target(), 7);
    let (roll, used) = shot.resolve(&[5, 5, 6, 4, 6, 3]).unwrap();
    assert_eq!((roll.score, used), (5, 6));
    assert_eq!(roll.outcome, ChallengeOutcome::Failure);
    // The same through the task categories: no rating means a fluke (L113–114).
    let attempt = Attempt::new(
        Rating::NoRating,
        Level::Average,
        dice_shapers_and_bots::Stakes::Important,
        &rules(),
    )
    .unwrap();
    let r = attempt.resolve(&[5, 5, 6, 4, 6, 3]).unwrap();
    assert_eq!(r.outcome(), ChallengeOutcome::Failure);
}

#[test]
fn sb_e6_larrapin_characteristics() {
    // L205–216: "Larrapin is a 15-year-old rabbit. Her player has raised her Intellect from
    // Average to High." | SIZ Very Low | FIT Average | DEX Average | INT High | SGT Average |
    // HER High | SML High |
    let larrapin = adjust_characteristics(
        &Species::Rabbit.characteristics(),
        &CharacteristicChanges::raise("INT".parse().unwrap()),
        CreatedBy::Player,
    )
    .unwrap();
    let expected = [
        ("SIZ", "Very Low"),
        ("FIT", "Average"),
        ("DEX", "Average"),
        ("INT", "High"),
        ("SGT", "Average"),
        ("HER", "High"),
        ("SML", "High"),
    ];
    for (trait_, rating) in expected {
        let c: Characteristic = trait_.parse().unwrap();
        assert_eq!(larrapin.get(c), Some(rating.parse().unwrap()), "{trait_}");
    }
    // Derived oracle (digest 1.2): Larrapin has 3 + 0 = 3 hit points.
    assert_eq!(larrapin.hit_points(&rules()).unwrap(), 3);
}

#[test]
fn sb_e7_nang_ma_characteristics() {
    // L218–230: "Nang-ma is a turtle. His player has raised his Size and Fitness, but has
    // lowered his sense of Smell in exchange." | SIZ Average | FIT Average | DEX High |
    // INT High | SGT Very Low | HER Average | SML Low |
    let nang_ma = adjust_characteristics(
        &Species::Turtle.characteristics(),
        &CharacteristicChanges::raise_two_lower_one(
            Characteristic::Size,
            Characteristic::Fitness,
            Characteristic::Smell,
        ),
        CreatedBy::Player,
    )
    .unwrap();
    assert_eq!(
        nang_ma,
        Characteristics {
            size: Size::Single(Level::Average),
            fitness: Level::Average,
            dexterity: Level::High,
            intellect: Level::High,
            sight: Level::VeryLow,
            hearing: Level::Average,
            smell: Rating::Rated(Level::Low),
            courage: None,
            honesty: None,
        }
    );
    // Derived oracle (digest 1.2): Nang-ma has 7 + 0 = 7 hit points.
    assert_eq!(nang_ma.hit_points(&rules()).unwrap(), 7);
}

#[test]
fn sb_e8_larrapin_skills() {
    // L303–306: "Her player decides to raise her Climbing by 2 levels from Average (her
    // Fitness) to Very High, her First Aid from Very Low (everyone's starting point) to Low,
    // and her Medicine (which starts with nothing) to Low as well."
    let larrapin = Character::create(
        Species::Rabbit,
        &CharacteristicChanges::raise(Characteristic::Intellect),
        &[
            SkillRaise::new(skill(Skill::Climbing), 2),
            SkillRaise::new(skill(Skill::FirstAid), 1),
            SkillRaise::new(skill(Skill::Medicine), 1),
        ],
    )
    .unwrap();
    assert_eq!(
        skill(Skill::Climbing).start(&larrapin.characteristics),
        Rating::Rated(Level::Average)
    );
    assert_eq!(
        larrapin.skill(&skill(Skill::Climbing)),
        Rating::Rated(Level::VeryHigh)
    );
    assert_eq!(
        larrapin.skill(&skill(Skill::FirstAid)),
        Rating::Rated(Level::Low)
    );
    assert_eq!(
        skill(Skill::Medicine).start(&larrapin.characteristics),
        Rating::NoRating
    );
    assert_eq!(
        larrapin.skill(&skill(Skill::Medicine)),
        Rating::Rated(Level::Low)
    ); // L296–298: None → Low
    assert_eq!(
        SkillPackage::matching(&[2, 1, 1]),
        Some(SkillPackage::OneByTwoTwoByOne)
    );
}

#[test]
fn sb_e9_director_added_skill() {
    // L310–312: "The Director decides that the initial level is Very Low, so Nang-Ma spends
    // two points during character construction to raise his ability to Average."
    let diving = SkillName::custom("deep-sea diving gear", Rating::Rated(Level::VeryLow));
    assert_eq!(
        Rating::Rated(Level::VeryLow).raised(2),
        Some(Rating::Rated(Level::Average))
    );
    // The two points are the "2" of a {2,1,1} package; his other raises are not given.
    let turtle = Species::Turtle.characteristics();
    let skills = raise_skills(
        &turtle,
        &[
            SkillRaise::new(diving.clone(), 2),
            SkillRaise::new(skill(Skill::Swimming), 1),
            SkillRaise::new(skill(Skill::Boating), 1),
        ],
        CreatedBy::Player,
    )
    .unwrap();
    assert_eq!(
        skills.rating(&diving, &turtle),
        Rating::Rated(Level::Average)
    );
}

#[test]
fn sb_e10_dashwood_hit_points() {
    // L378–382: "Dashwood is a parrot with Very Low Size, which gives her 3 Hit Points.
    // However, she has Very High Fitness. Since that is two steps above Average, she gets an
    // extra 2 Hit Points, bringing her total to 5."
    assert_eq!(Level::VeryLow.target(), 3);
    assert_eq!(Level::VeryHigh.steps_from_average(), 2);
    assert_eq!(hit_points(Level::VeryLow, Level::VeryHigh), 5);
    let parrot = Species::Parrot.characteristics();
    assert_eq!(parrot.hit_points(&rules()).unwrap(), 5);
    assert_eq!(Health::of(&parrot, &rules()).unwrap().current(), 5);
}

#[test]
fn sb_e11_slumpy_hit_points() {
    // L384–387: "Slumpy the elephant has Very High Size, which gives him 11 Hit Points, but
    // Low Fitness, which brings it down to 10."
    assert_eq!(hit_points(Level::VeryHigh, Level::Low), 10);
    let slumpy = Characteristics {
        fitness: Level::Low,
        ..Species::Elephant.characteristics()
    };
    assert_eq!(slumpy.hit_points(&rules()).unwrap(), 10);
}

#[test]
fn sb_e12_arrow_streak_erratum() {
    // ERRATUM (SB-A5). L415–419: "Dashwood shoots Slumpy with her bow. The arrow does a
    // guaranteed 1 point of damage; Dashwood rolls a 5 for one more point, then a 3 to end
    // her streak, for a total of 2 points of damage."
    // But an arrow is a large weapon (L398: "A large weapon like an arrow or a sword"), whose
    // unarmored streak continues on 3, 4, 5, 6 (L399, L411: "1 + (3, 4, 5, 6)"). Under the
    // rules the 3 does not end the streak. This test shows what the rules give.
    let arrow = Damage::new(WeaponClass::Large, false, &rules()).unwrap();
    // The example's dice, 5 then 3, are not a finished streak under the rules …
    assert_eq!(
        arrow.resolve(&[5, 3]),
        Err(Error::StreakUnfinished { faces: 2 })
    );
    // … 5, 3 and then a miss (1 or 2) does 1 + 2 = 3 points, not 2.
    let (roll, used) = arrow.resolve(&[5, 3, 1]).unwrap();
    assert_eq!((roll.points, roll.streak, used), (3, 2, 3));
    // The example's total of 2 is what 5 then a real miss (a 2) gives.
    assert_eq!(arrow.resolve(&[5, 2]).unwrap().0.points, 2);
    // And the example's dice give 2 only for a small weapon's {5, 6} streak (SB-A5 reading b,
    // which contradicts L398).
    let small = Damage::new(WeaponClass::Small, false, &rules()).unwrap();
    assert_eq!(small.resolve(&[5, 3]).unwrap().0.points, 2);
}

#[test]
fn sb_e13_armored_club() {
    // L421–426: "Slumpy closes in and hits Dashwood with her spiked club (which definitely
    // counts as a large weapon), but Dashwood is wearing armor, so there is no guaranteed
    // damage. Slumpy rolls 5, 6, and 1 (ending the streak), so the blow does a total of 2
    // points of damage."
    let club = Damage::new(WeaponClass::Large, true, &rules()).unwrap();
    let (roll, used) = club.resolve(&[5, 6, 1]).unwrap();
    assert_eq!((roll.points, used), (2, 3));
    let mut dashwood = Health::of(&Species::Parrot.characteristics(), &rules()).unwrap();
    dashwood.take(roll.points, &rules());
    assert_eq!(dashwood.current(), 3);
}

#[test]
fn sb_e14_shaping() {
    // L456–459: "Larrapin is an air shaper. Before her grandfather passed away, he taught her
    // what little he knew, so her score is now Low instead of Very Low."
    let typical = Shaping::typical(ShapingKind::Air);
    assert_eq!(typical.rating, Level::VeryLow); // L439–440
    let larrapin = Shaping {
        rating: typical.rating.raised(1).unwrap(),
        ..typical
    };
    assert_eq!(larrapin.rating, Level::Low);
    // SB-A14: set by the Director, not paid from her {2,1,1} skill package (SB-E8).
    let c = Character {
        shaping: Some(larrapin),
        ..Character::create(Species::Rabbit, &CharacteristicChanges::none(), &[]).unwrap()
    };
    assert_eq!(c.shaping.map(|s| s.rating), Some(Level::Low));
}

#[test]
fn sb_e15_madica() {
    // L496–504: Madica the fox: Size Low, Fitness Average, Dexterity High, Intellect Average,
    // Sight Average, Hearing Average, Smell High; Boating Very High, Fishing Very High,
    // Swimming High, Knots High, Singing High, Quarterstaff High.
    let madica = adjust_characteristics(
        &Species::Fox.characteristics(),
        &CharacteristicChanges {
            raise: vec![],
            lower: vec![Characteristic::Intellect],
        },
        CreatedBy::Director,
    )
    .unwrap();
    assert_eq!(madica.size, Size::Single(Level::Low));
    assert_eq!(madica.intellect, Level::Average);
    assert_eq!(madica.smell, Rating::Rated(Level::High));
    // Derived: 5 + 0 = 5 hit points; an undefended attack on her needs 5.
    assert_eq!(madica.hit_points(&rules()).unwrap(), 5);
    assert_eq!(madica.size.attack_target(), 5);
    let mut skills = Skills::new();
    let staff = SkillName::specialty(Skill::Weapon, "quarterstaff").unwrap();
    let fishing = SkillName::custom("Fishing", Rating::NoRating);
    skills.set(skill(Skill::Boating), Rating::Rated(Level::VeryHigh));
    skills.set(fishing.clone(), Rating::Rated(Level::VeryHigh));
    skills.set(staff.clone(), Rating::Rated(Level::High));
    assert_eq!(skills.rating(&staff, &madica), Rating::Rated(Level::High));
    assert_eq!(
        skills.rating(&skill(Skill::Singing), &madica),
        Rating::Rated(Level::Average)
    );
    // Not a legal player creation (digest SB-E15, SB-A12, SB-A13): fox Intellect lowered with
    // no raise, and Boating Very Low → Very High is +4 (L299). The strict checks say so; the
    // example characters need not pass them (SB-A13: "validate only at creation").
    let err = adjust_characteristics(
        &Species::Fox.characteristics(),
        &CharacteristicChanges {
            raise: vec![],
            lower: vec![Characteristic::Intellect],
        },
        CreatedBy::Player,
    )
    .unwrap_err();
    assert_eq!(
        err,
        Error::CharacteristicPackage {
            raised: 0,
            lowered: 1
        }
    );
    let err = raise_skills(
        &madica,
        &[SkillRaise::new(skill(Skill::Boating), 4)],
        CreatedBy::Player,
    )
    .unwrap_err();
    assert!(matches!(
        err,
        Error::SkillRaisedFourLevels { levels: 4, .. }
    ));
}

#[test]
fn sb_e16_rhymes_with_orange() {
    // L520–529: | Height High | Weight Low | Fitness Average | Dexterity Average | IQ Average |
    // Sight Average | Hearing Low | Smell None |
    let mut rhymes = Characteristics::bot(
        Size::HeightWeight {
            height: "High".parse().unwrap(),
            weight: "Low".parse().unwrap(),
        },
        Level::Average,
        Level::Average,
        "IQ".parse::<Characteristic>()
            .map(|_| Level::Average)
            .unwrap(),
    );
    rhymes.hearing = Level::Low;
    assert_eq!(rhymes.smell, "None".parse::<Rating>().unwrap());
    // Undefended attacks need the lower of Height and Weight: min(9, 5) = 5 (L354–355).
    assert_eq!(rhymes.size.attack_target(), 5);
    let a = Attack::undefended(Level::Average.into(), &rhymes.size, &rules()).unwrap();
    assert_eq!(a.needed(), Some(5));
    // Smell is None, so smell tasks are fluke only (L113–114).
    let sniff = Attempt::new(
        rhymes.smell,
        Level::Low,
        dice_shapers_and_bots::Stakes::Routine,
        &rules(),
    )
    .unwrap();
    assert!(matches!(sniff, Attempt::Fluke(_)));
    // Hit points are undefined for Height/Weight (SB-A7): the ruling uses the lower, 5 + 0.
    assert_eq!(rhymes.hit_points(&rules()).unwrap(), 5);
    let higher = Rules {
        hp_size_source: HpSizeSource::Higher,
        ..rules()
    };
    assert_eq!(rhymes.hit_points(&higher).unwrap(), 9);
    let explicit = Rules {
        hp_size_source: HpSizeSource::Explicit,
        ..rules()
    };
    assert_eq!(
        rhymes.hit_points(&explicit),
        Err(Error::SizeForHitPointsRequired)
    );
}

#[test]
fn sb_e17_archer_one_shot_per_turn() {
    // L341–343: "getting another arrow from a quiver counts as one action (so archers can fire
    // one shot per turn)."
    let rules = rules();
    let mut archer = TurnActions::new();
    for _turn in 0..3 {
        assert_eq!(
            archer.take(Action::Reload, &rules).unwrap(),
            ActionTaken::ThisTurn
        );
        assert_eq!(
            archer.take(Action::Attack, &rules).unwrap(),
            ActionTaken::ThisTurn
        );
        assert_eq!(
            archer.take(Action::Attack, &rules),
            Err(Error::NoActionsLeft {
                action: Action::Attack
            })
        );
        archer.next_turn();
    }
}

#[test]
fn sb_e18_higher_fitness_two_attacks_then_one() {
    // L364–366: "In practice, this often means that the character with the higher Fitness gets
    // two attacks in the first turn, then one attack each turn after that." Not an exact
    // oracle (digest SB-E18); this plays one natural script that gives that pattern: the
    // faster fighter attacks with every action and defends every blow (borrowing from its
    // next turn when it has nothing left, L362–363); the slower one defends only while it
    // can still keep an action to strike back.
    let rules = rules();
    let (fast, slow) = (0, 1);
    let mut fight = Fight::new(TurnOrder::new(vec![fast, slow]), &rules).unwrap();
    let mut attacks = [[0u32; 2]; 4];
    let mut borrowed = 0;
    for turn in attacks.iter_mut() {
        while fight.actions(fast).unwrap().left() > 0 {
            fight.act(fast, Action::Attack).unwrap();
            turn[fast] += 1;
            if fight.actions(slow).unwrap().left() == 2 {
                fight.act(slow, Action::Defend).unwrap();
            }
        }
        assert_eq!(fight.end_turn(), slow); // L325: the slower acts second
        while fight.actions(slow).unwrap().left() > 0 {
            fight.act(slow, Action::Attack).unwrap();
            turn[slow] += 1;
            if fight.act(fast, Action::Defend).unwrap() == ActionTaken::Borrowed {
                borrowed += 1;
            }
        }
        assert_eq!(fight.end_turn(), fast); // the next turn, in the same order
    }
    assert_eq!(attacks[0][fast], 2, "two attacks in the first turn");
    for (t, turn) in attacks.iter().enumerate().skip(1) {
        assert_eq!(turn[fast], 1, "then one attack each turn (turn {})", t + 1);
        assert_eq!(turn[slow], 1);
    }
    assert_eq!(
        borrowed, 4,
        "the faster fighter borrows one defense every turn"
    );
    // Defending borrowed nothing it could not repay: never more than the limit owed.
    assert!(fight.actions(fast).unwrap().owed() <= rules.max_borrowed_actions);
    // A defended attack: ties go to the attacker (L358).
    let a = Attack::defended(
        Contestant::rated(Level::Average),
        Contestant::rated(Level::Average),
        &rules,
    )
    .unwrap();
    assert_eq!(
        a.resolve(&[3, 4], &[5, 2]).unwrap().outcome,
        AttackOutcome::Hit
    );
}
