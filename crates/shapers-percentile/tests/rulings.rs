//! Every ruling (PC-A1…A15) as the default of `Rules`, and every knob's other reading.

use dice_core::Exact;
use dice_shapers_percentile::{
    Aim, Attack, AttackKind, AttackOutcome, CounterAttackBasis, Damage, DamageMargin, Defence,
    Location, MeleeAction, MeleeSituation, ModifierSource, OpposedResolution, OpposedTest,
    OpposedTie, OutnumberCount, Outnumbering, PctMode, RangeBand, RangedAction, RangedSituation,
    Rules, Side, SizeVsLargeTarget, Test,
};

fn rules() -> Rules {
    Rules::default()
}

#[test]
fn defaults_are_the_rulings() {
    let r = Rules::default();
    assert_eq!(r.mode, PctMode::RollUnder50Base); // PC-A1 (a)
    // PC-A3: (b), not the digest's (a), which lets a failed attack hit (L18, L26; see
    // tests/opposed_readings.rs).
    assert_eq!(r.opposed, OpposedResolution::SuccessFirst);
    assert_eq!(r.opposed_tie, OpposedTie::Defender); // PC-A3: ties to the defender
    assert_eq!(r.counter_attack, CounterAttackBasis::MarginDifference); // PC-A4 (a)
    assert_eq!(r.damage_margin, DamageMargin::Net); // PC-A5
    assert_eq!(r.outnumber, OutnumberCount::SideSize); // PC-A6
    assert_eq!(r.size_vs_large_target, SizeVsLargeTarget::PreferSize); // PC-A7
    assert!(!r.lethal); // PC-R16 is optional
    assert!(r.passive_net_zero_succeeds); // PC-A11
    assert!(!r.passive_counter_attack); // PC-A11
    assert!(r.clamp_damage_at_zero); // PC-A10
    assert!(r.untrained_penalty_in_melee); // PC-A14
}

#[test]
fn pc_a1_roll_over_reading() {
    // PC-A1 (c): d100 + Attr + Apt + mods ≥ 50; (51 + X)/100 against (50 + X)/100.
    let over = Rules {
        mode: PctMode::RollOver50,
        ..rules()
    };
    for x in [-60, -20, 0, 15, 49, 50, 70] {
        let under_t = Test::new(x, 0, 0, &rules()).unwrap();
        let over_t = Test::new(x, 0, 0, &over).unwrap();
        let faces_under = (1..=100).filter(|&f| f <= 50 + x).count();
        let faces_over = (1..=100).filter(|&f| f + x >= 50).count();
        assert_eq!(under_t.success_probability(), faces_under as f64 / 100.0);
        assert_eq!(over_t.success_probability(), faces_over as f64 / 100.0);
        for f in 1..=100u8 {
            assert_eq!(over_t.resolve(f).unwrap().margin, i32::from(f) + x - 50);
            assert_eq!(under_t.resolve(f).unwrap().margin, 50 + x - i32::from(f));
        }
    }
    // TNs beyond 0..=100 have no automatic results (PC-A1: silent).
    assert_eq!(
        Test::new(60, 0, 0, &rules()).unwrap().success_probability(),
        1.0
    );
    assert_eq!(
        Test::new(-60, 0, 0, &rules())
            .unwrap()
            .success_probability(),
        0.0
    );
}

#[test]
fn pc_a3_both_readings_agree_unless_both_tests_fail() {
    // A success has margin ≥ 0 > any failure's, so the readings can only differ when both
    // tests fail (the full laws are in tests/opposed_readings.rs).
    let b = Rules {
        opposed: OpposedResolution::HigherMargin,
        ..rules()
    };
    for mode in [PctMode::RollUnder50Base, PctMode::RollOver50] {
        for (xa, xd) in [(0, 0), (15, -10), (-40, 30), (60, 5)] {
            let ra = Rules { mode, ..rules() };
            let rb = Rules { mode, ..b };
            let a = OpposedTest::new(
                Test::new(xa, 0, 0, &ra).unwrap(),
                Test::new(xd, 0, 0, &ra).unwrap(),
                &ra,
            );
            let bb = OpposedTest::new(
                Test::new(xa, 0, 0, &rb).unwrap(),
                Test::new(xd, 0, 0, &rb).unwrap(),
                &rb,
            );
            for fa in 1..=100 {
                for fd in 1..=100 {
                    let both_fail = !a.attacker().resolve(fa).unwrap().is_success()
                        && !a.defender().resolve(fd).unwrap().is_success();
                    if !both_fail {
                        assert_eq!(a.resolve(fa, fd).unwrap(), bb.resolve(fa, fd).unwrap());
                    }
                }
            }
        }
    }
}

#[test]
fn pc_a3_ties() {
    let t = Test::new(10, 5, 0, &rules()).unwrap();
    let d = OpposedTest::new(t, t, &rules());
    assert_eq!(d.resolve(40, 40).unwrap().winner, Side::Defender);
    let to_attacker = Rules {
        opposed_tie: OpposedTie::Attacker,
        ..rules()
    };
    let a = OpposedTest::new(t, t, &to_attacker);
    assert_eq!(a.resolve(40, 40).unwrap().winner, Side::Attacker);
    // As an attack: a tie is a miss by default, a hit with bonus 0 for the attacker.
    let miss = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &rules()).unwrap();
    assert_eq!(
        miss.resolve(&[40, 40]).unwrap().outcome,
        AttackOutcome::Miss
    );
    let hit = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &to_attacker).unwrap();
    assert_eq!(
        hit.resolve(&[40, 40]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 0 }
    );
}

#[test]
fn pc_a3_a_failed_attack_misses_however_badly_the_defender_fails() {
    // L18: every attack has a difficulty; L26: a defence only makes the attacker's result
    // worse ("an even worse failure"). An attacker failing by 5 against a defender failing
    // by 20 misses under the ruling; only the higher-margin knob lets it hit by 15.
    let t = Test::new(10, 5, 0, &rules()).unwrap(); // TN 65
    let a = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &rules()).unwrap();
    let e = a.resolve(&[70, 85]).unwrap();
    assert_eq!((e.attacker.margin, e.defender.unwrap().margin), (-5, -20));
    assert_eq!(e.net, 15);
    assert_eq!(e.outcome, AttackOutcome::Miss);
    let higher = Rules {
        opposed: OpposedResolution::HigherMargin,
        ..rules()
    };
    let a = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &higher).unwrap();
    assert_eq!(
        a.resolve(&[70, 85]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 1 }
    );
}

#[test]
fn pc_a4_counter_attack_basis() {
    let t = Test::new(10, 5, 0, &rules()).unwrap(); // TN 65
    let own = Rules {
        counter_attack: CounterAttackBasis::OwnFailure,
        ..rules()
    };
    let by_diff = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &rules()).unwrap();
    let by_own = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &own).unwrap();
    // Attacker −20, defender +15: loses by 35 but fails by only 20.
    assert_eq!(
        by_diff.resolve(&[85, 50]).unwrap().outcome,
        AttackOutcome::CounterAttack { bonus: 3 }
    );
    assert_eq!(
        by_own.resolve(&[85, 50]).unwrap().outcome,
        AttackOutcome::Miss
    );
    // Attacker TN 50 rolls 95 (−45), defender TN 60 rolls 100 (−40): loses by 5, fails by 45.
    let weak = Test::new(0, 0, 0, &rules()).unwrap();
    let sixty = Test::new(5, 5, 0, &rules()).unwrap();
    let by_diff = Attack::new(weak, Defence::Opposed(sixty), AttackKind::Melee, &rules()).unwrap();
    let by_own = Attack::new(weak, Defence::Opposed(sixty), AttackKind::Melee, &own).unwrap();
    assert_eq!(by_diff.resolve(&[95, 100]).unwrap().net, -5);
    assert_eq!(
        by_diff.resolve(&[95, 100]).unwrap().outcome,
        AttackOutcome::Miss
    );
    assert_eq!(
        by_own.resolve(&[95, 100]).unwrap().outcome,
        AttackOutcome::CounterAttack { bonus: 4 }
    );
    // Failing by 40 against a defender failing by 45: under the ruling of PC-A3 the failed
    // attack misses, but the defender, 5 points worse, has not made the attacker "lose by"
    // anything (L28): no counter-attack. Under the higher-margin knob the attacker wins by
    // 5: a hit.
    let fifty_five = Test::new(5, 0, 0, &rules()).unwrap(); // TN 55: 100 is −45
    let by_own = Attack::new(weak, Defence::Opposed(fifty_five), AttackKind::Melee, &own).unwrap();
    let e = by_own.resolve(&[90, 100]).unwrap(); // −40 against −45
    assert_eq!(e.net, 5);
    assert_eq!(e.outcome, AttackOutcome::Miss);
    let own_higher = Rules {
        opposed: OpposedResolution::HigherMargin,
        ..own
    };
    let by_own = Attack::new(
        weak,
        Defence::Opposed(fifty_five),
        AttackKind::Melee,
        &own_higher,
    )
    .unwrap();
    assert_eq!(
        by_own.resolve(&[90, 100]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 0 }
    );
}

#[test]
fn counter_attacks_follow_melee_only() {
    // L28: "During an opposed Melee test".
    let t = Test::new(10, 5, 0, &rules()).unwrap();
    for kind in [AttackKind::Ranged, AttackKind::Thrown] {
        let a = Attack::new(t, Defence::Opposed(t), kind, &rules()).unwrap();
        assert_eq!(a.resolve(&[100, 1]).unwrap().outcome, AttackOutcome::Miss);
        let law = a.distribution().unwrap();
        assert_eq!(
            law.probability_where(|o| matches!(o, AttackOutcome::CounterAttack { .. })),
            0.0
        );
    }
    // An unopposed melee attack has nobody to counter.
    let u = Attack::new(t, Defence::Unopposed, AttackKind::Melee, &rules()).unwrap();
    assert_eq!(u.resolve(&[100]).unwrap().outcome, AttackOutcome::Miss);
}

#[test]
fn pc_a5_damage_margin() {
    let t = Test::new(10, 5, 0, &rules()).unwrap(); // TN 65
    let own = Rules {
        damage_margin: DamageMargin::Own,
        ..rules()
    };
    // Opposed: attacker +45 (roll 20), defender +30 (roll 35): net 15.
    let net = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &rules()).unwrap();
    let mine = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &own).unwrap();
    assert_eq!(
        net.resolve(&[20, 35]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 1 }
    );
    assert_eq!(
        mine.resolve(&[20, 35]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 4 }
    );
    // Passive: +45 against 20: net 25.
    let net = Attack::new(t, Defence::Passive(20), AttackKind::Melee, &rules()).unwrap();
    let mine = Attack::new(t, Defence::Passive(20), AttackKind::Melee, &own).unwrap();
    assert_eq!(
        net.resolve(&[20]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 2 }
    );
    assert_eq!(
        mine.resolve(&[20]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 4 }
    );
    // Unopposed: the own margin either way.
    let u = Attack::new(t, Defence::Unopposed, AttackKind::Melee, &rules()).unwrap();
    assert_eq!(
        u.resolve(&[20]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 4 }
    );
}

#[test]
fn pc_a6_outnumber_count() {
    let four_two = Outnumbering::new(4, 2).unwrap();
    assert_eq!(four_two.tn_bonus(&rules()), 40);
    assert_eq!(four_two.damage_bonus(&rules()), 4);
    let excess = Rules {
        outnumber: OutnumberCount::Excess,
        ..rules()
    };
    assert_eq!(four_two.tn_bonus(&excess), 20);
    assert_eq!(four_two.damage_bonus(&excess), 2);
    // Even fights give nothing under either reading.
    for r in [rules(), excess] {
        assert_eq!(Outnumbering::new(3, 3).unwrap().tn_bonus(&r), 0);
        assert_eq!(Outnumbering::new(2, 5).unwrap().damage_bonus(&r), 0);
    }
    assert!(Outnumbering::new(1, 0).is_err());
}

#[test]
fn pc_a7_large_target_and_size() {
    let s = RangedSituation {
        large_target: true,
        target_size: Some(30),
        ..RangedSituation::new(RangeBand::Normal)
    };
    assert_eq!(s.total(&rules()).unwrap(), 20); // Size 30 − 10 only
    let both = Rules {
        size_vs_large_target: SizeVsLargeTarget::Both,
        ..rules()
    };
    assert_eq!(s.total(&both).unwrap(), 30);
    // Size unknown: the Large row.
    let unknown = RangedSituation {
        large_target: true,
        ..RangedSituation::new(RangeBand::Normal)
    };
    assert_eq!(unknown.total(&rules()).unwrap(), 10);
    assert_eq!(unknown.total(&both).unwrap(), 10);
}

#[test]
fn pc_a10_damage_floor() {
    let d = Damage::new(AttackKind::Melee, 1, 1, 1)
        .unwrap()
        .against(5, 5)
        .unwrap();
    assert_eq!(d.dealt(0, &rules()), 0);
    let raw = Rules {
        clamp_damage_at_zero: false,
        ..rules()
    };
    assert_eq!(d.dealt(0, &raw), -8);
}

#[test]
fn pc_a11_passive_defence_flags() {
    let t = Test::new(10, 5, 0, &rules()).unwrap(); // TN 65
    // Margin 20 against 20: net 0.
    let a = Attack::new(t, Defence::Passive(20), AttackKind::Melee, &rules()).unwrap();
    assert_eq!(
        a.resolve(&[45]).unwrap().outcome,
        AttackOutcome::Hit { bonus: 0 }
    );
    let strict = Rules {
        passive_net_zero_succeeds: false,
        ..rules()
    };
    let a = Attack::new(t, Defence::Passive(20), AttackKind::Melee, &strict).unwrap();
    assert_eq!(a.resolve(&[45]).unwrap().outcome, AttackOutcome::Miss);
    // PC-E2's −35 with counter-attacks switched on.
    let counter = Rules {
        passive_counter_attack: true,
        ..rules()
    };
    let a = Attack::new(t, Defence::Passive(20), AttackKind::Melee, &counter).unwrap();
    assert_eq!(
        a.resolve(&[80]).unwrap().outcome,
        AttackOutcome::CounterAttack { bonus: 3 }
    );
    // …but never for a ranged attack.
    let a = Attack::new(t, Defence::Passive(20), AttackKind::Ranged, &counter).unwrap();
    assert_eq!(a.resolve(&[80]).unwrap().outcome, AttackOutcome::Miss);
}

#[test]
fn pc_a12_jogging_in_melee_is_the_callers_penalty() {
    let s = MeleeSituation {
        jogging: Some(-15),
        ..MeleeSituation::default()
    };
    let items = s.itemize(&rules()).unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].source, ModifierSource::MeleeJogging);
    assert_eq!(s.total(&rules()).unwrap(), -15);
}

#[test]
fn pc_a14_untrained_in_melee() {
    let s = MeleeSituation {
        untrained: true,
        ..MeleeSituation::default()
    };
    assert_eq!(s.total(&rules()).unwrap(), -20);
    assert_eq!(
        s.itemize(&rules()).unwrap()[0].source,
        ModifierSource::Ranged(RangedAction::UntrainedAptitude)
    );
    let ranged_only = Rules {
        untrained_penalty_in_melee: false,
        ..rules()
    };
    assert_eq!(s.total(&ranged_only).unwrap(), 0);
}

#[test]
fn pc_a15_called_shot_chooses_the_location() {
    let aim = Aim::Called(Location::LeftArm);
    for roll in [1, 50, 100] {
        assert_eq!(aim.location(roll).unwrap(), Location::LeftArm);
    }
    assert_eq!(
        aim.distribution().unwrap().probability(&Location::LeftArm),
        1.0
    );
    let s = MeleeSituation {
        aim,
        ..MeleeSituation::default()
    };
    assert_eq!(
        s.itemize(&rules()).unwrap()[0].source,
        ModifierSource::Melee(MeleeAction::SpecificHitLocation)
    );
    assert_eq!(s.total(&rules()).unwrap(), -20);
}

#[test]
fn lethal_damage_skips_fortitude_only() {
    // L75: "just ignore the Fortitude Attribute … Armour and other resistances will still
    // apply."
    let d = Damage::new(AttackKind::Ranged, 8, 0, 10)
        .unwrap()
        .against(4, 9)
        .unwrap();
    let lethal = Rules {
        lethal: true,
        ..rules()
    };
    assert_eq!(d.dealt(1, &rules()), 8 + 10 + 1 - 4 - 9);
    assert_eq!(d.dealt(1, &lethal), 8 + 10 + 1 - 4);
}
