//! Every worked example of the combat chapter (PC-E1…E5), the digest's boundary oracles, and
//! every rule with a number in it, each quoting its line of
//! `seeds/shapers-percentile-combat.txt`.

use dice_core::Exact;
use dice_shapers_percentile::{
    AVERAGE_TN, Aim, Attack, AttackKind, AttackOutcome, Attacks, Attributes, COUNTER_ATTACK_LOSS,
    Cover, Damage, Defence, DefenceAptitude, DreamEntry, FreeAction, HIT_LOCATIONS, Initiative,
    Location, MELEE_MODIFIERS, MeleeAction, MeleeSituation, Movement, OutnumberCount, Outnumbering,
    RANGED_MODIFIERS, ROUND_SECONDS, ROUNDS_PER_MINUTE, RangeBand, RangedAction, RangedSituation,
    Rules, Sizes, TableModifier, Test, Triad, TurnOrder, damage_bonus, defence_allowed,
    dreamscape_attribute, within_melee_reach,
};

fn rules() -> Rules {
    Rules::default()
}

/// A test of TN 65 (Physical Agility 10 + Aptitude 5): a roll of `65 − m` has margin `m`.
fn tn65() -> Test {
    Test::new(10, 5, 0, &rules()).unwrap()
}

// ------------------------------------------------------------------ PC-E1 … PC-E5

#[test]
fn pc_e1_passive_defence_turns_a_success_into_a_failure() {
    // L26: "if the attacker succeeded by 15 points, but the defender's Attribute + Aptitude
    // is 20, the net result is -5 which turns that success into a failure!"
    let attack = Attack::new(tn65(), Defence::Passive(20), AttackKind::Melee, &rules()).unwrap();
    let e = attack.resolve(&[50]).unwrap();
    assert_eq!(e.attacker.margin, 15);
    assert!(e.attacker.is_success());
    assert_eq!(e.net, -5);
    assert_eq!(e.outcome, AttackOutcome::Miss);
}

#[test]
fn pc_e2_passive_defence_worsens_a_failure() {
    // L26: "If the attacker had instead failed by -15 points, the defender's Attribute +
    // Aptitude would turn it into an even worse failure of -35 points!"
    let attack = Attack::new(tn65(), Defence::Passive(20), AttackKind::Melee, &rules()).unwrap();
    let e = attack.resolve(&[80]).unwrap();
    assert_eq!(e.attacker.margin, -15);
    assert_eq!(e.net, -35);
    // PC-A11 ruling: passive defence opens no counter-attack, even at −35.
    assert_eq!(e.outcome, AttackOutcome::Miss);
}

#[test]
fn pc_e3_counter_attack_on_a_loss_of_30() {
    // L28: "if the attacker loses by 30 points or more … The defender automatically hits,
    // using the attacker's roll to calculate damage. A failure by 30 points would therefore
    // translate as +3 damage"
    let attack = Attack::new(
        tn65(),
        Defence::Opposed(tn65()),
        AttackKind::Melee,
        &rules(),
    )
    .unwrap();
    // Attacker 80 (−15), defender 50 (+15): loses by 30.
    let e = attack.resolve(&[80, 50]).unwrap();
    assert_eq!(e.net, -30);
    assert_eq!(e.outcome, AttackOutcome::CounterAttack { bonus: 3 });
    assert_eq!(damage_bonus(30), 3);
    // One point less is no counter-attack.
    let e = attack.resolve(&[79, 50]).unwrap();
    assert_eq!(e.net, -29);
    assert_eq!(e.outcome, AttackOutcome::Miss);
    assert_eq!(COUNTER_ATTACK_LOSS, 30);
}

#[test]
fn pc_e4_counter_attack_on_a_loss_of_45_rounds_down() {
    // L28: "a failure by 45 points would be +4, etc."
    let attack = Attack::new(
        tn65(),
        Defence::Opposed(tn65()),
        AttackKind::Melee,
        &rules(),
    )
    .unwrap();
    // Attacker 95 (−30), defender 50 (+15): loses by 45.
    let e = attack.resolve(&[95, 50]).unwrap();
    assert_eq!(e.net, -45);
    assert_eq!(e.outcome, AttackOutcome::CounterAttack { bonus: 4 });
    assert_eq!(damage_bonus(45), 4);
}

#[test]
fn pc_e5_four_humans_outnumber_a_monster() {
    // L68: "As they outnumber the creature by 4 to 1, they each receive a +40 bonus to their
    // TN to hit the beast and a +4 damage bonus too!"
    let humans = Outnumbering::new(4, 1).unwrap();
    assert_eq!(humans.tn_bonus(&rules()), 40);
    assert_eq!(humans.damage_bonus(&rules()), 4);
    let situation = MeleeSituation {
        outnumbering: Some(humans),
        ..MeleeSituation::default()
    };
    assert_eq!(situation.total(&rules()).unwrap(), 40);
    let hit = Damage::new(AttackKind::Melee, 5, 10, 10)
        .unwrap()
        .outnumbering(humans.damage_bonus(&rules()))
        .unwrap();
    assert_eq!(hit.dealt(0, &rules()), 5 + 10 + 4);
    // The excess reading (PC-A6 knob) would give +30 / +3, which does not match L68.
    let excess = Rules {
        outnumber: OutnumberCount::Excess,
        ..rules()
    };
    assert_eq!(humans.tn_bonus(&excess), 30);
    assert_eq!(humans.damage_bonus(&excess), 3);
    // The monster does not outnumber anyone.
    assert_eq!(Outnumbering::new(1, 4).unwrap().tn_bonus(&rules()), 0);
}

// ------------------------------------------------------------------ boundary oracles

#[test]
fn hit_location_boundaries() {
    // L80–85: "01 – 10 | Head", "11 – 25 | Left Arm", "26 – 40 | Right Arm", "41 – 70 | Body",
    // "71 – 85 | Left Leg", "86 – 00 | Right Leg".
    let cases = [
        (1, Location::Head),
        (10, Location::Head),
        (11, Location::LeftArm),
        (25, Location::LeftArm),
        (26, Location::RightArm),
        (40, Location::RightArm),
        (41, Location::Body),
        (70, Location::Body),
        (71, Location::LeftLeg),
        (85, Location::LeftLeg),
        (86, Location::RightLeg),
        (100, Location::RightLeg), // "00"
    ];
    for (roll, loc) in cases {
        assert_eq!(Location::from_roll(roll).unwrap(), loc, "roll {roll}");
    }
    assert!(Location::from_roll(0).is_err());
    assert!(Location::from_roll(101).is_err());
    // The chart's ranges as data.
    for (loc, lo, hi) in HIT_LOCATIONS {
        assert_eq!(loc.rolls(), (lo, hi));
    }
}

#[test]
fn a_round_is_three_seconds_and_a_minute_twenty_rounds() {
    // L2: "Each round is roughly 3 seconds long, meaning there are 20 rounds in a minute."
    assert_eq!(ROUND_SECONDS, 3);
    assert_eq!(60 / ROUND_SECONDS, ROUNDS_PER_MINUTE);
    assert_eq!(ROUNDS_PER_MINUTE, 20);
}

// ------------------------------------------------------------------ the test (L18, L26, L66)

#[test]
fn the_base_difficulty_of_an_attack_is_tn_50() {
    // L18: "the base difficulty of any attack in melee or at range is Average (TN 50). Use the
    // character's Physical Agility Attribute + appropriate Aptitude to attack."
    assert_eq!(AVERAGE_TN, 50);
    let t = Test::new(0, 0, 0, &rules()).unwrap();
    assert_eq!(t.tn(), 50);
    assert_eq!(Test::new(14, 6, 0, &rules()).unwrap().tn(), 70);
    // Roll-under: 50 succeeds with margin 0 (PC-A2), 51 fails by −1.
    assert_eq!(t.resolve(50).unwrap().margin, 0);
    assert!(t.resolve(50).unwrap().is_success());
    assert_eq!(t.resolve(51).unwrap().margin, -1);
    assert!(!t.resolve(51).unwrap().is_success());
}

#[test]
fn increasing_the_tn_by_10_raises_the_chance_to_hit() {
    // L66: "your chances of hitting your opponent go up. Increase the TN by +10 per combatant"
    let base = Test::new(10, 5, 0, &rules()).unwrap();
    let plus = Test::new(10, 5, 10, &rules()).unwrap();
    let faces = |t: &Test| {
        (1..=100u8)
            .filter(|&f| t.resolve(f).unwrap().is_success())
            .count()
    };
    assert_eq!(faces(&plus), faces(&base) + 10);
    assert!(plus.success_probability() > base.success_probability());
}

#[test]
fn margins_are_signed_as_in_the_text() {
    // L26: "succeeded by 15 points" and "failed by -15 points".
    let t = tn65();
    assert_eq!(t.resolve(50).unwrap().to_string(), "50: succeeded by 15");
    assert_eq!(t.resolve(80).unwrap().to_string(), "80: failed by -15");
}

// ------------------------------------------------------------------ initiative (L4)

#[test]
fn initiative_is_d10_plus_pa_plus_ma_highest_first() {
    // L4: "Roll a d10 for each combatant and add their PA and MA to this to get their
    // Initiative score. Whichever combatant has the highest Initiative score gets to go first,
    // followed by the next highest and so on."
    let a = Initiative::new(12, 9).unwrap();
    assert_eq!(a.score(4).unwrap(), 25);
    let fight = TurnOrder::new(vec![
        Initiative::new(5, 5).unwrap(),
        Initiative::new(8, 8).unwrap(),
        Initiative::new(2, 3).unwrap(),
    ])
    .unwrap();
    let r = fight.resolve(&[6, 1, 10]).unwrap(); // 16, 17, 15
    assert_eq!(r.scores, vec![16, 17, 15]);
    assert_eq!(r.order.0, vec![1, 0, 2]);
    assert_eq!(r.dice_used, 3);
}

#[test]
fn initiative_ties_roll_off_until_there_is_a_winner() {
    // L4: "If there is a tie, each combatant that is tied rolls a d10, with the highest going
    // first. If they roll the same, just roll again until you have a winner."
    let fight = TurnOrder::new(vec![
        Initiative::new(4, 4).unwrap(),
        Initiative::new(9, 9).unwrap(),
        Initiative::new(3, 5).unwrap(),
    ])
    .unwrap();
    // Scores 13, 25, 13: 0 and 2 tie. Roll-offs: 7 and 7 (again), 7 and 7 (again), 2 and 9.
    let r = fight.resolve(&[5, 7, 5, 7, 7, 7, 7, 2, 9]).unwrap();
    assert_eq!(r.scores, vec![13, 25, 13]);
    assert_eq!(r.order.0, vec![1, 2, 0]);
    assert_eq!(r.dice_used, 9);
    // Not enough roll-offs: an error, not a guess.
    assert!(fight.resolve(&[5, 7, 5, 7, 7]).is_err());
}

// ------------------------------------------------------------------ movement (L5–17)

#[test]
fn free_actions_and_movement() {
    // L7–9: "Move up to their normal walking speed", "Draw a weapon that is easily
    // accessible", "Shout a command or short warning".
    assert_eq!(
        FreeAction::ALL,
        [FreeAction::Walk, FreeAction::DrawWeapon, FreeAction::Shout]
    );
    // L12: "characters can move up to their normal walking speed as a free action without
    // penalty."
    assert!(Movement::Walk.is_free_action());
    assert_eq!(Movement::Walk.attacks(), Attacks::Any);
    assert_eq!(Movement::Walk.melee_modifier(), Some(0));
    // L13: "Characters may jog while performing other actions, but will suffer penalties."
    assert!(Movement::Jog.allows_other_actions());
    assert_eq!(Movement::Jog.ranged_modifier(), -10); // L57
    assert_eq!(Movement::Jog.melee_modifier(), None); // PC-A12: the caller's
    // L14: "Characters may run, but cannot perform another action with one exception …
    // charge … at which point they may make one attack."
    assert!(!Movement::Run.allows_other_actions());
    assert_eq!(Movement::Run.attacks(), Attacks::None);
    assert_eq!(Movement::Charge.attacks(), Attacks::OneMelee);
    assert_eq!(Movement::Charge.melee_modifier(), Some(10)); // L40
    // L15: "Characters that are sprinting in combat may not charge an opponent and therefore
    // do not get an attack … the GM may require them to make a Physical Agility + Athletics
    // roll to avoid tripping over"
    assert_eq!(Movement::Sprint.attacks(), Attacks::None);
    assert!(Movement::Sprint.may_require_trip_roll());
    assert_eq!(Test::sprint_trip(10, 5, 0, &rules()).unwrap().tn(), 65); // PC-A13
}

#[test]
fn melee_reach_is_two_metres() {
    // L17: "A character may attack another in melee if they end their movement within 2m of
    // their opponent. Some very large weapons or creatures may be able to make melee attacks
    // at greater distances."
    assert!(within_melee_reach(0.0, None).unwrap());
    assert!(within_melee_reach(2.0, None).unwrap());
    assert!(!within_melee_reach(2.01, None).unwrap());
    assert!(within_melee_reach(4.0, Some(4.0)).unwrap());
    assert!(within_melee_reach(-1.0, None).is_err());
    assert!(within_melee_reach(1.0, Some(f64::NAN)).is_err());
}

// ------------------------------------------------------------------ defending (L19–22)

#[test]
fn who_may_defend_with_what() {
    // L21: "Characters may use their Physical Agility + Dodge to defend against a ranged
    // attack, but only if they are able to see the shot coming. If the defender is within
    // melee range they may instead use a Melee Aptitude to defend."
    use DefenceAptitude::*;
    for kind in [AttackKind::Ranged, AttackKind::Thrown] {
        assert!(defence_allowed(Dodge, kind, true, false, None));
        assert!(!defence_allowed(Dodge, kind, false, true, None));
        assert!(!defence_allowed(MeleeArmed, kind, true, false, None));
        assert!(defence_allowed(MeleeArmed, kind, true, true, None));
        assert!(defence_allowed(MeleeUnarmed, kind, true, true, None));
    }
    // L22: "In melee if an attacker is 10 sizes or more larger than you, you may only use
    // Dodge to defend and cannot use Melee (Unarmed) or Melee (Armed)."
    let ten = Some(Sizes {
        attacker: 20,
        target: 10,
    });
    let nine = Some(Sizes {
        attacker: 19,
        target: 10,
    });
    assert!(defence_allowed(Dodge, AttackKind::Melee, true, true, ten));
    assert!(!defence_allowed(
        MeleeArmed,
        AttackKind::Melee,
        true,
        true,
        ten
    ));
    assert!(!defence_allowed(
        MeleeUnarmed,
        AttackKind::Melee,
        true,
        true,
        ten
    ));
    assert!(defence_allowed(
        MeleeArmed,
        AttackKind::Melee,
        true,
        true,
        nine
    ));
}

#[test]
fn a_much_larger_attacker_cannot_be_parried_at_melee_range_even_when_it_shoots() {
    // L21: "If the defender is within melee range they may instead use a Melee Aptitude to
    // defend." L22: "In melee if an attacker is 10 sizes or more larger than you, you may only
    // use Dodge to defend and cannot use Melee (Unarmed) or Melee (Armed)." A defender within
    // melee range is in melee: the size limit holds whatever the attack.
    use DefenceAptitude::*;
    let giant = Some(Sizes {
        attacker: 20,
        target: 10,
    });
    let nine = Some(Sizes {
        attacker: 19,
        target: 10,
    });
    for kind in [AttackKind::Ranged, AttackKind::Thrown] {
        assert!(defence_allowed(Dodge, kind, true, true, giant));
        assert!(!defence_allowed(MeleeArmed, kind, true, true, giant));
        assert!(!defence_allowed(MeleeUnarmed, kind, true, true, giant));
        assert!(defence_allowed(MeleeArmed, kind, true, true, nine));
        assert!(defence_allowed(MeleeUnarmed, kind, true, true, None));
        // Out of melee range only Dodge was ever allowed, and only seeing the shot (L21).
        assert!(defence_allowed(Dodge, kind, true, false, giant));
        assert!(!defence_allowed(Dodge, kind, false, true, giant));
    }
}

// ------------------------------------------------------------------ dreamscapes (L32)

#[test]
fn dreamscape_substitution() {
    // L32: "if the character is asleep or otherwise unconscious when entering the dreamscape
    // substitute using their Social Attributes. If the character is fully awake when entering
    // the dreamscape substitute using either their Social or Mental Attributes, whichever is
    // higher."
    assert_eq!(dreamscape_attribute(7, 12, DreamEntry::Asleep), 7);
    assert_eq!(dreamscape_attribute(7, 12, DreamEntry::Awake), 12);
    assert_eq!(dreamscape_attribute(15, 12, DreamEntry::Awake), 15);
    let a = Attributes {
        physical: Triad {
            strength: 18,
            agility: 16,
            fortitude: 17,
        },
        social: Triad {
            strength: 6,
            agility: 13,
            fortitude: 9,
        },
        mental: Triad {
            strength: 11,
            agility: 10,
            fortitude: 12,
        },
    };
    let asleep = a.in_dreamscape(DreamEntry::Asleep);
    assert_eq!(asleep.physical, a.social);
    let awake = a.in_dreamscape(DreamEntry::Awake);
    assert_eq!(
        awake.physical,
        Triad {
            strength: 11,
            agility: 13,
            fortitude: 12
        }
    );
    assert_eq!((awake.social, awake.mental), (a.social, a.mental));
}

// ------------------------------------------------------------------ modifier tables

#[test]
fn melee_table_rows() {
    // L37–48, row by row.
    let expected = [
        (MeleeAction::BlindOpponent, TableModifier::Flat(20), 37), // "| +20 |"
        (MeleeAction::ProneOpponent, TableModifier::Flat(20), 38), // "| +20 |"
        (
            MeleeAction::EngagedOpponentInTheRear,
            TableModifier::Flat(20),
            39,
        ), // "| +20 |"
        (MeleeAction::Charging, TableModifier::Flat(10), 40),      // "| +10 |"
        (
            MeleeAction::Outnumbering,
            TableModifier::PerCombatant(10),
            41,
        ), // "+10 per combatant"
        (
            MeleeAction::LargerOpponent,
            TableModifier::PlusSizeDifference,
            42,
        ),
        (MeleeAction::Standard, TableModifier::Flat(0), 43), // "| 0 |"
        (
            MeleeAction::SmallerOpponent,
            TableModifier::MinusSizeDifference,
            44,
        ),
        (MeleeAction::WhileProne, TableModifier::Flat(-10), 45), // "| -10 |"
        (
            MeleeAction::SpecificHitLocation,
            TableModifier::Flat(-20),
            46,
        ), // "| -20 |"
        (MeleeAction::Weather, TableModifier::Flat(-20), 47),    // "| -20 |"
        (MeleeAction::WhileBlind, TableModifier::Flat(-40), 48), // "| -40 |"
    ];
    assert_eq!(MELEE_MODIFIERS.len(), expected.len());
    for ((action, modifier, line), row) in expected.iter().zip(MELEE_MODIFIERS.iter()) {
        assert_eq!(row.action, *action);
        assert_eq!(row.modifier, *modifier, "{}", row.text);
        assert_eq!(row.line, *line, "{}", row.text);
        assert_eq!(action.row(), row);
    }
    assert_eq!(MeleeAction::ALL.map(|a| a.row().action), MeleeAction::ALL);
}

#[test]
fn ranged_table_rows() {
    // L51–64, row by row.
    let expected = [
        (RangedAction::PointBlank, TableModifier::Flat(20), 51),
        (RangedAction::LargeTarget, TableModifier::Flat(10), 52),
        (RangedAction::ShortRange, TableModifier::Flat(10), 53),
        (RangedAction::Aiming, TableModifier::Flat(10), 54),
        (
            RangedAction::SizeModifier,
            TableModifier::CreatureSizeMinus(10),
            55,
        ),
        (RangedAction::NormalRange, TableModifier::Flat(0), 56),
        (RangedAction::Jogging, TableModifier::Flat(-10), 57),
        (RangedAction::LightCover, TableModifier::Flat(-10), 58),
        (
            RangedAction::UntrainedAptitude,
            TableModifier::Flat(-20),
            59,
        ),
        (RangedAction::LongRange, TableModifier::Flat(-20), 60),
        (
            RangedAction::SpecificHitLocation,
            TableModifier::Flat(-20),
            61,
        ),
        (RangedAction::MediumCover, TableModifier::Flat(-20), 62),
        (RangedAction::HeavyCover, TableModifier::Flat(-30), 63),
        (RangedAction::ExtremeRange, TableModifier::Flat(-40), 64),
    ];
    assert_eq!(RANGED_MODIFIERS.len(), expected.len());
    for ((action, modifier, line), row) in expected.iter().zip(RANGED_MODIFIERS.iter()) {
        assert_eq!(row.action, *action);
        assert_eq!(row.modifier, *modifier, "{}", row.text);
        assert_eq!(row.line, *line, "{}", row.text);
        assert_eq!(action.row(), row);
    }
    assert_eq!(Cover::Light.modifier(), -10);
    assert_eq!(Cover::Medium.modifier(), -20);
    assert_eq!(Cover::Heavy.modifier(), -30);
    // L46, L61: a called shot is −20 either way.
    assert_eq!(Aim::Called(Location::Head).modifier(), -20);
}

#[test]
fn range_bands_from_distance_and_listed_range() {
    // L51 "up to 10% of the listed range", L53 "up to half", L56 "up to the listed range",
    // L60 "up to double", L64 "up to triple"; beyond: silent, ruled no shot (PC-A8).
    let listed = 40.0;
    let cases = [
        (0.0, Some(RangeBand::PointBlank)),
        (4.0, Some(RangeBand::PointBlank)),
        (4.5, Some(RangeBand::Short)),
        (20.0, Some(RangeBand::Short)),
        (21.0, Some(RangeBand::Normal)),
        (40.0, Some(RangeBand::Normal)),
        (41.0, Some(RangeBand::Long)),
        (80.0, Some(RangeBand::Long)),
        (81.0, Some(RangeBand::Extreme)),
        (120.0, Some(RangeBand::Extreme)),
        (120.5, None),
    ];
    for (d, band) in cases {
        assert_eq!(RangeBand::from_distance(d, listed).unwrap(), band, "{d}");
    }
    assert_eq!(
        RangeBand::ALL.map(RangeBand::modifier),
        [20, 10, 0, -20, -40]
    );
    assert!(RangeBand::from_distance(1.0, 0.0).is_err());
    assert!(RangeBand::from_distance(-1.0, 10.0).is_err());
    assert!(RangeBand::from_distance(f64::INFINITY, 10.0).is_err());
}

#[test]
fn situations_add_up_the_tables() {
    let r = rules();
    // L37, L39, L45, L47: +20 + 20 − 10 − 20.
    let melee = MeleeSituation {
        opponent_blind: true,
        rear_of_engaged_opponent: true,
        prone: true,
        weather: true,
        ..MeleeSituation::default()
    };
    assert_eq!(melee.total(&r).unwrap(), 10);
    // L42 / L44: "+Difference in Size" / "-Difference in Size".
    let larger = MeleeSituation {
        sizes: Some(Sizes {
            attacker: 10,
            target: 13,
        }),
        ..MeleeSituation::default()
    };
    assert_eq!(larger.total(&r).unwrap(), 3);
    let smaller = MeleeSituation {
        sizes: Some(Sizes {
            attacker: 13,
            target: 10,
        }),
        ..MeleeSituation::default()
    };
    assert_eq!(smaller.total(&r).unwrap(), -3);
    // L38, L48: +20 − 40, blind against a prone foe.
    let blind = MeleeSituation {
        opponent_prone: true,
        blind: true,
        ..MeleeSituation::default()
    };
    assert_eq!(blind.total(&r).unwrap(), -20);
    // L52–58: large target, short range, aiming, jogging, light cover.
    let shot = RangedSituation {
        large_target: true,
        aiming: true,
        jogging: true,
        cover: Some(Cover::Light),
        ..RangedSituation::new(RangeBand::Short)
    };
    assert_eq!(shot.total(&r).unwrap(), 10 + 10 + 10 - 10 - 10);
    // L55: "Creature Size -10": a Size 4 target is −6.
    let small = RangedSituation {
        target_size: Some(4),
        ..RangedSituation::new(RangeBand::Normal)
    };
    assert_eq!(small.total(&r).unwrap(), -6);
    // L59, L61: untrained, called shot.
    let desperate = RangedSituation {
        untrained: true,
        aim: Aim::Called(Location::Body),
        ..RangedSituation::new(RangeBand::Normal)
    };
    assert_eq!(desperate.total(&r).unwrap(), -40);
}

#[test]
fn the_gms_own_modifier_adds_to_the_tn() {
    // L34: "There are of course other factors that may affect the TN in combat. The GM is
    // advised to use their own judgement, but below are some suggestions to help you."
    let r = rules();
    let melee = MeleeSituation {
        charging: true,
        gm: -15,
        ..MeleeSituation::default()
    };
    assert_eq!(melee.total(&r).unwrap(), 10 - 15);
    let shot = RangedSituation {
        gm: 5,
        ..RangedSituation::new(RangeBand::Long)
    };
    assert_eq!(shot.total(&r).unwrap(), -20 + 5);
    let swing = Test::new(10, 5, melee.total(&r).unwrap(), &r).unwrap();
    assert_eq!(swing.tn(), 50 + 10 + 5 + 10 - 15);
}

// ------------------------------------------------------------------ damage (L67–75)

#[test]
fn damage_formula() {
    // L70: "When using the Melee or Ranged (Throwing) Aptitudes add your Physical Strength to
    // the damage caused by the weapon. When using any other Ranged Aptitude, add your
    // Physical Agility"
    let r = rules();
    let melee = Damage::new(AttackKind::Melee, 6, 12, 9).unwrap();
    let thrown = Damage::new(AttackKind::Thrown, 6, 12, 9).unwrap();
    let shot = Damage::new(AttackKind::Ranged, 6, 12, 9).unwrap();
    assert_eq!(melee.dealt(0, &r), 18);
    assert_eq!(thrown.dealt(0, &r), 18);
    assert_eq!(shot.dealt(0, &r), 15);
    // L71: "For every 10 points of success, increase the damage caused by 1 point"
    assert_eq!(damage_bonus(0), 0);
    assert_eq!(damage_bonus(9), 0);
    assert_eq!(damage_bonus(10), 1);
    assert_eq!(damage_bonus(19), 1);
    assert_eq!(damage_bonus(20), 2);
    assert_eq!(tn65().resolve(30).unwrap().damage_bonus(), 3); // margin 35
    // L72–73: armour, then "the damage is reduced by the victim's Fortitude Attribute".
    let armoured = melee.against(3, 7).unwrap();
    assert_eq!(armoured.dealt(2, &r), 18 + 2 - 3 - 7);
    // L75: "just ignore the Fortitude Attribute when calculating damage taken. Armour and
    // other resistances will still apply."
    let lethal = Rules { lethal: true, ..r };
    assert_eq!(armoured.dealt(2, &lethal), 18 + 2 - 3);
    // PC-A10 ruling: never below 0.
    let tough = melee.against(10, 30).unwrap();
    assert_eq!(tough.dealt(0, &r), 0);
    // L67: "Increase damage caused by +1 per combatant on the outnumbering side."
    let ganged = melee.outnumbering(3).unwrap();
    assert_eq!(ganged.dealt(0, &r), 21);
}

#[test]
fn a_hit_deals_damage_and_a_counter_attack_hurts_the_attacker() {
    // L28: "The defender automatically hits, using the attacker's roll to calculate damage."
    let r = rules();
    let attack = Attack::new(tn65(), Defence::Opposed(tn65()), AttackKind::Melee, &r).unwrap();
    let attacker_blade = Damage::new(AttackKind::Melee, 5, 10, 10)
        .unwrap()
        .against(2, 4)
        .unwrap();
    let defender_blade = Damage::new(AttackKind::Melee, 7, 11, 10)
        .unwrap()
        .against(1, 6)
        .unwrap();
    let counter = attack.resolve(&[95, 50]).unwrap().outcome; // loses by 45, +4
    assert_eq!(counter.dealt_by_attacker(&attacker_blade, &r), 0);
    assert_eq!(
        counter.dealt_by_defender(&defender_blade, &r),
        7 + 11 + 4 - 1 - 6
    );
    let hit = attack.resolve(&[20, 70]).unwrap().outcome; // 45 − (−5) = net 50, +5
    assert_eq!(hit, AttackOutcome::Hit { bonus: 5 });
    assert_eq!(
        hit.dealt_by_attacker(&attacker_blade, &r),
        5 + 10 + 5 - 2 - 4
    );
    // Exact law of the attacker's damage: hits only.
    let law = attack.damage_distribution(&attacker_blade).unwrap();
    let p_hit = attack
        .distribution()
        .unwrap()
        .probability_where(|o| o.is_hit());
    assert!((law.probability_where(|&d| d > 0) - p_hit).abs() < 1e-12);
}
