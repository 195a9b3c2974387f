//! Invariants under random inputs (proptest), and input validation.

use dice_core::{Exact, Roll};
use dice_shapers_percentile::{
    Attack, AttackKind, AttackOutcome, Attributes, Damage, Defence, DreamEntry, Error,
    HIT_LOCATIONS, Initiative, Location, MAX_SCORE, MeleeSituation, OpposedResolution, OpposedTest,
    PctMode, RangeBand, Rules, Side, Test, Triad, TurnOrder,
};
use proptest::prelude::*;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn rules() -> Rules {
    Rules::default()
}

fn any_rules() -> impl Strategy<Value = Rules> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(a, b, c, d, e, f, g, h)| {
            use dice_shapers_percentile::{CounterAttackBasis, DamageMargin, OpposedTie};
            Rules {
                mode: if a {
                    PctMode::RollOver50
                } else {
                    PctMode::RollUnder50Base
                },
                opposed: if b {
                    OpposedResolution::SuccessFirst
                } else {
                    OpposedResolution::HigherMargin
                },
                opposed_tie: if c {
                    OpposedTie::Attacker
                } else {
                    OpposedTie::Defender
                },
                counter_attack: if d {
                    CounterAttackBasis::OwnFailure
                } else {
                    CounterAttackBasis::MarginDifference
                },
                damage_margin: if e {
                    DamageMargin::Own
                } else {
                    DamageMargin::Net
                },
                lethal: f,
                passive_net_zero_succeeds: g,
                passive_counter_attack: h,
                ..Rules::default()
            }
        })
}

proptest! {
    #[test]
    fn success_is_a_margin_of_at_least_zero(x in -200i32..200, roll in 1u8..=100, over in any::<bool>()) {
        let r = Rules { mode: if over { PctMode::RollOver50 } else { PctMode::RollUnder50Base }, ..rules() };
        let t = Test::new(x, 0, 0, &r).unwrap();
        let res = t.resolve(roll).unwrap();
        prop_assert_eq!(res.is_success(), res.margin >= 0);
        prop_assert_eq!(res.roll, roll);
    }

    #[test]
    fn roll_under_and_roll_over_mirror(x in -200i32..200, roll in 1u8..=100) {
        // PC-A1: rolling over with face 101 − r is one point kinder than rolling under with r.
        let under = Test::new(x, 0, 0, &rules()).unwrap();
        let over = Test::new(x, 0, 0, &Rules { mode: PctMode::RollOver50, ..rules() }).unwrap();
        prop_assert_eq!(over.resolve(101 - roll).unwrap().margin, under.resolve(roll).unwrap().margin + 1);
    }

    #[test]
    fn success_probability_is_the_clamped_tn(a in -100i32..100, b in -100i32..100, m in -100i32..100) {
        let t = Test::new(a, b, m, &rules()).unwrap();
        let tn = (50 + a + b + m).clamp(0, 100);
        prop_assert_eq!(t.tn(), 50 + a + b + m);
        prop_assert!((t.success_probability() - f64::from(tn) / 100.0).abs() < 1e-15);
        prop_assert!((t.distribution().unwrap().total() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_two_opposed_readings_agree_unless_both_fail(xa in -80i32..80, xd in -80i32..80, fa in 1u8..=100, fd in 1u8..=100, over in any::<bool>()) {
        let mode = if over { PctMode::RollOver50 } else { PctMode::RollUnder50Base };
        let a = Rules { mode, opposed: OpposedResolution::HigherMargin, ..rules() };
        let b = Rules { mode, opposed: OpposedResolution::SuccessFirst, ..rules() };
        let oa = OpposedTest::new(Test::new(xa, 0, 0, &a).unwrap(), Test::new(xd, 0, 0, &a).unwrap(), &a);
        let ob = OpposedTest::new(Test::new(xa, 0, 0, &b).unwrap(), Test::new(xd, 0, 0, &b).unwrap(), &b);
        let (ra, rb) = (oa.resolve(fa, fd).unwrap(), ob.resolve(fa, fd).unwrap());
        prop_assert_eq!(ra.net, rb.net);
        let both_fail = !oa.attacker().resolve(fa).unwrap().is_success()
            && !oa.defender().resolve(fd).unwrap().is_success();
        if both_fail {
            prop_assert_eq!(rb.winner, Side::Defender);
        } else {
            prop_assert_eq!(ra, rb);
        }
    }

    #[test]
    fn swapping_sides_negates_the_net(xa in -80i32..80, xd in -80i32..80, fa in 1u8..=100, fd in 1u8..=100) {
        let a = Test::new(xa, 0, 0, &rules()).unwrap();
        let d = Test::new(xd, 0, 0, &rules()).unwrap();
        let one = OpposedTest::new(a, d, &rules()).resolve(fa, fd).unwrap();
        let two = OpposedTest::new(d, a, &rules()).resolve(fd, fa).unwrap();
        prop_assert_eq!(one.net, -two.net);
        let both_fail = !a.resolve(fa).unwrap().is_success() && !d.resolve(fd).unwrap().is_success();
        if both_fail {
            // PC-A3: nobody's attack succeeded, so the defender holds either way round.
            prop_assert_eq!((one.winner, two.winner), (Side::Defender, Side::Defender));
        } else if one.net != 0 {
            prop_assert_ne!(one.winner, two.winner);
        } else {
            prop_assert_eq!(one.winner, Side::Defender);
        }
    }

    #[test]
    fn attack_outcomes_are_consistent(r in any_rules(), xa in -80i32..80, xd in -80i32..80, def in -40i32..60,
                                      fa in 1u8..=100, fd in 1u8..=100, melee in any::<bool>(), which in 0u8..3) {
        let a = Test::new(xa, 0, 0, &r).unwrap();
        let d = Test::new(xd, 0, 0, &r).unwrap();
        let defence = match which { 0 => Defence::Unopposed, 1 => Defence::Opposed(d), _ => Defence::Passive(def) };
        let kind = if melee { AttackKind::Melee } else { AttackKind::Ranged };
        let attack = Attack::new(a, defence, kind, &r).unwrap();
        let rolls: Vec<u8> = if which == 1 { vec![fa, fd] } else { vec![fa] };
        let e = attack.resolve(&rolls).unwrap();
        match e.outcome {
            AttackOutcome::Hit { bonus } => {
                prop_assert!(e.net >= 0 || which == 1);
                // The largest net: margin 50 + 79 − 1 against 50 − 80 − 100: 259.
                prop_assert!(bonus <= 25);
                // PC-A3 default: an opposed attack hits only on its own success.
                if which == 1 && r.opposed == OpposedResolution::SuccessFirst {
                    prop_assert!(e.attacker.is_success());
                }
            }
            AttackOutcome::CounterAttack { bonus } => {
                prop_assert!(melee);
                prop_assert!(which == 1 || (which == 2 && r.passive_counter_attack));
                prop_assert!(bonus >= 3);
                // The defender outscored the attacker: a lower net, or 0 going to the defence
                // (an opposed tie to the defender, or a passive net 0 ruled a failure).
                prop_assert!(e.net <= 0);
            }
            AttackOutcome::Miss => {}
        }
        // The exact law lists every outcome the pure form gives.
        prop_assert!(attack.distribution().unwrap().probability(&e.outcome) > 0.0);
    }

    #[test]
    fn range_bands_grow_with_distance(d1 in 0.0f64..500.0, d2 in 0.0f64..500.0, listed in 0.5f64..200.0) {
        let (near, far) = if d1 <= d2 { (d1, d2) } else { (d2, d1) };
        let a = RangeBand::from_distance(near, listed).unwrap();
        let b = RangeBand::from_distance(far, listed).unwrap();
        match (a, b) {
            (Some(a), Some(b)) => prop_assert!(a <= b),
            (None, Some(_)) => prop_assert!(false, "nearer shot impossible"),
            _ => {}
        }
        prop_assert_eq!(b.is_none(), far > 3.0 * listed);
    }

    #[test]
    fn damage_rises_one_per_bonus_point(w in -50i32..50, s in -50i32..50, ag in -50i32..50, arm in 0i32..30,
                                        fort in 0i32..30, bonus in 0u32..20, kind in 0u8..3) {
        let kind = [AttackKind::Melee, AttackKind::Thrown, AttackKind::Ranged][kind as usize];
        let d = Damage::new(kind, w, s, ag).unwrap().against(arm, fort).unwrap();
        let raw = Rules { clamp_damage_at_zero: false, ..rules() };
        prop_assert_eq!(d.dealt(bonus + 1, &raw), d.dealt(bonus, &raw) + 1);
        prop_assert!(d.dealt(bonus, &rules()) >= 0);
        let lethal = Rules { lethal: true, ..rules() };
        prop_assert!(d.dealt(bonus, &lethal) >= d.dealt(bonus, &rules()));
        let attr = if kind == AttackKind::Ranged { ag } else { s };
        prop_assert_eq!(d.dealt(bonus, &raw), w + attr + bonus as i32 - arm - fort);
    }

    #[test]
    fn turn_order_is_a_ranking(bonuses in proptest::collection::vec(-5i32..5, 1..8), seed in any::<u64>()) {
        let fight = TurnOrder::new(bonuses.iter().map(|&b| Initiative::new(b, 0).unwrap()).collect()).unwrap();
        let r = fight.roll_ranking(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let mut sorted = r.order.0.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..bonuses.len()).collect::<Vec<_>>());
        for w in r.order.0.windows(2) {
            prop_assert!(r.scores[w[0]] >= r.scores[w[1]]);
        }
        // The pure form with the same d10s gives the same ranking: rebuild the faces.
        let faces: Vec<u8> = r.scores.iter().zip(&bonuses).map(|(s, b)| (s - b) as u8).collect();
        let again = fight.resolve(&faces);
        if r.dice_used == bonuses.len() {
            prop_assert_eq!(again.unwrap().order, r.order);
        }
    }

    #[test]
    fn awake_dreamers_are_never_weaker(s in -20i32..40, m in -20i32..40) {
        let a = Attributes {
            physical: Triad::default(),
            social: Triad { strength: s, agility: s, fortitude: s },
            mental: Triad { strength: m, agility: m, fortitude: m },
        };
        let awake = a.in_dreamscape(DreamEntry::Awake).physical;
        let asleep = a.in_dreamscape(DreamEntry::Asleep).physical;
        prop_assert!(awake.strength >= asleep.strength);
        prop_assert_eq!(asleep.agility, s);
        prop_assert_eq!(awake.fortitude, s.max(m));
    }

    #[test]
    fn every_roll_has_one_location(roll in 1u8..=100) {
        let l = Location::from_roll(roll).unwrap();
        let (lo, hi) = l.rolls();
        prop_assert!(lo <= roll && roll <= hi);
        prop_assert_eq!(HIT_LOCATIONS.iter().filter(|(_, lo, hi)| (*lo..=*hi).contains(&roll)).count(), 1);
    }

    #[test]
    fn rolls_stay_in_range(seed in any::<u64>(), x in -100i32..100) {
        let mut g = Xoshiro256PlusPlus::seed_from_u64(seed);
        let t = Test::new(x, 0, 0, &rules()).unwrap();
        let r = t.roll(&mut g);
        prop_assert!((1..=100).contains(&r.roll));
        prop_assert_eq!(r, t.resolve(r.roll).unwrap());
        let i = Initiative::new(x, 0).unwrap().roll(&mut g);
        prop_assert!((x + 1..=x + 10).contains(&i));
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let r = rules();
    assert!(matches!(
        Test::new(MAX_SCORE + 1, 0, 0, &r),
        Err(Error::OutOfRange {
            what: "attribute",
            ..
        })
    ));
    assert!(Test::new(0, -MAX_SCORE - 1, 0, &r).is_err());
    assert!(Test::new(0, 0, i32::MIN, &r).is_err());
    assert!(Test::new(MAX_SCORE, MAX_SCORE, MAX_SCORE, &r).is_ok());
    let t = Test::new(0, 0, 0, &r).unwrap();
    assert_eq!(t.resolve(0), Err(Error::Face { die: 100, face: 0 }));
    assert!(t.resolve(101).is_err());
    let o = OpposedTest::new(t, t, &r);
    assert!(o.resolve(50, 0).is_err());
    let a = Attack::new(t, Defence::Opposed(t), AttackKind::Melee, &r).unwrap();
    assert_eq!(
        a.resolve(&[50]),
        Err(Error::DiceCount {
            what: "attack",
            given: 1,
            expected: 2
        })
    );
    assert!(a.resolve(&[50, 101]).is_err());
    assert!(Attack::new(t, Defence::Passive(i32::MAX), AttackKind::Melee, &r).is_err());
    assert!(Initiative::new(0, 0).unwrap().score(11).is_err());
    assert!(TurnOrder::new(Vec::new()).is_err());
    let two = TurnOrder::new(vec![Initiative::new(0, 0).unwrap(); 2]).unwrap();
    assert!(two.resolve(&[3]).is_err());
    assert!(two.resolve(&[3, 4, 0]).is_ok()); // no tie: the extra die is unused
    assert!(two.resolve(&[3, 3, 0]).is_err()); // the roll-off die is checked
    assert!(Damage::new(AttackKind::Melee, i32::MAX, 0, 0).is_err());
    assert!(
        Damage::new(AttackKind::Melee, 0, 0, 0)
            .unwrap()
            .outnumbering(u32::MAX)
            .is_err()
    );
    let huge = MeleeSituation {
        gm: MAX_SCORE,
        charging: true,
        ..MeleeSituation::default()
    };
    assert!(huge.total(&r).is_err());
    assert!(RangeBand::from_distance(f64::NAN, 10.0).is_err());
    assert!(RangeBand::from_distance(1.0, -10.0).is_err());
    // The messages say what is allowed.
    let msg = Test::new(20_000, 0, 0, &r).unwrap_err().to_string();
    assert_eq!(msg, "attribute 20000 is outside -10000..=10000");
}
