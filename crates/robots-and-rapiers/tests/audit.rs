//! Faults found by the rulebook audit, each pinned by a test that quotes the rule it checks
//! (rulebook `seeds/robots-and-rapiers.txt`). Probabilities come from enumerating the d10
//! faces here, never from the code under test.

use crate::common;

use common::{N, as_map, check, enumerate, histogram, rng, same};
use dice_core::{Exact, Roll, RollDetailed, RollRecord};
use dice_robots_and_rapiers::{
    Attribute, BaseActionPoints, ChainedTest, Chassis, Conflict, ConflictKind, DamageKind,
    DamageProcedure, DurabilitySave, Error, Firearm, InspirationCase, InspirationRoll, Ledger,
    Malfunction, MeleeWeapon, MemoryLoss, Opposition, Participant, Program, Ranking,
    RelatedPrograms, Rules, SaveOutcome, SavingThrow, SubSystem, Surprise, Test, TurnOrder,
    TurnOutcome,
};

fn against<M: Roll + Exact>(m: &M, seed: u64)
where
    M::Outcome: Ord,
{
    let mut r = rng(seed);
    let observed = histogram(N, || m.roll(&mut r));
    check(&observed, &as_map(&m.distribution().unwrap()), N);
}

const EPS: f64 = 1e-12;

// ---------------------------------------------------------------------------------------
// 1. EMP Durability loss to 0 (L253, L2388).
// ---------------------------------------------------------------------------------------

/// L253: "If an Attribute is reduced to 0 in this way, the robot loses the use of that
/// Attribute … and suffers the full effect of the Saving Throw (even if the Save was
/// otherwise partially successful)." L2388: EMP loss works "much the way Saving Throws
/// normally operate for other attributes". The full effect of a Durability Save is "a
/// critical shutdown" (L260).
#[test]
fn emp_loss_to_zero_durability_shuts_down() {
    let rules = Rules::default();
    // Durability 2, a pistol (1 Durability per failed die): two failed dice take it to 0.
    let s = DurabilitySave::new(2, Firearm::Pistol.damage_kind(), &rules).unwrap();
    let o = s.resolve([1, 9, 9]).unwrap();
    assert_eq!(o.save, SaveOutcome::PartialFailure { successes: 1 });
    assert_eq!(o.durability_loss, 2);
    assert!(
        o.shutdown,
        "Durability 2 − 2 = 0: the full effect, a shutdown (L253)"
    );
    // One failed die leaves Durability 1: no shutdown.
    assert!(!s.resolve([1, 2, 9]).unwrap().shutdown);
}

/// The exact law of an EMP save against an enumeration of the three faces, with the rule
/// written out here: shutdown on a Total Failure (L260) or when the loss takes Durability
/// to 0 or below (L253).
#[test]
fn emp_save_law_matches_enumeration() {
    let rules = Rules::default();
    for durability in 1..=8i32 {
        for loss in 1..=4u8 {
            let s = DurabilitySave::new(
                durability,
                DamageKind::Emp {
                    loss_per_failed_die: loss,
                },
                &rules,
            )
            .unwrap();
            let law = enumerate(3, |f| {
                let failed = f.iter().filter(|&&x| i32::from(x) > durability).count() as i32;
                failed == 3 || durability - failed * i32::from(loss) <= 0
            });
            let d = s.distribution().unwrap().map(|o| o.shutdown);
            same(&as_map(&d), &law, EPS);
        }
    }
}

/// The Durability an EMP loss is taken from is the robot's, not the TN (L2406: the weapon's
/// Damage is "an automatic reduction to the target's Durability Save TN"; L2408: the loss is
/// "to the Durability Attribute"). Through the damage procedure: armour raises the TN, but
/// Durability 2 still goes to 0 on a musket's one failed die (2 per die, L2270).
#[test]
fn emp_loss_is_measured_against_durability_not_the_tn() {
    let rules = Rules::default();
    let armoured = DamageProcedure {
        armor_bonus: 2,
        emp: true,
        ..DamageProcedure::new(2, 0)
    };
    let s = armoured
        .durability_save(Firearm::Musket.damage_kind(), &rules)
        .unwrap();
    assert_eq!((s.save().tn(), s.durability()), (4, 2));
    let o = s.resolve([1, 2, 9]).unwrap();
    assert_eq!(o.save, SaveOutcome::PartialFailure { successes: 2 });
    assert!(o.shutdown);
    // Durability 6 hit by 4 successes (TN 2): a pistol's two failed dice leave 4.
    let hard = DamageProcedure::new(6, 4)
        .durability_save(Firearm::Pistol.damage_kind(), &rules)
        .unwrap();
    assert_eq!(hard.save().tn(), 2);
    assert!(!hard.resolve([1, 9, 9]).unwrap().shutdown);
}

/// The roll and the detailed roll of an EMP save agree with the pure form and the law.
#[test]
fn emp_save_roll_detailed_roll_and_law_agree() {
    let rules = Rules::default();
    let s = DurabilitySave::new(3, Firearm::HeavyMusket.damage_kind(), &rules)
        .unwrap()
        .with_durability(4);
    for seed in 0..300 {
        let d = s.roll_save(&mut rng(seed));
        assert_eq!(d.damage, s.roll(&mut rng(seed)));
        assert_eq!(d.damage, s.resolve(d.roll.faces).unwrap());
    }
    // Durability 4, TN 3, 3 per failed die: one failed die leaves 1, two take it below 0.
    let law = enumerate(3, |f| f.iter().filter(|&&x| x > 3).count() >= 2);
    same(
        &as_map(&s.distribution().unwrap().map(|o| o.shutdown)),
        &law,
        EPS,
    );
    against(&s, 31);
}

// ---------------------------------------------------------------------------------------
// 2. Exertion "by 1 (and only 1)" on a save (L1465–1467).
// ---------------------------------------------------------------------------------------

/// L1465: "increase the TN of any single Test (or Saving Throw) by 1 (and only 1) for the
/// cost of 1 Power Point".
#[test]
fn exertion_on_a_save_does_not_stack() {
    let s = SavingThrow::new(5).unwrap();
    let once = s.exerted().unwrap();
    assert_eq!(once.tn(), 6);
    assert_eq!(once.exerted().unwrap().tn(), 6);
    assert_eq!(once.exerted().unwrap().exerted().unwrap().tn(), 6);
    assert!(once.is_exerted() && !s.is_exerted());
    // The law is the TN 6 save's.
    same(
        &as_map(&once.exerted().unwrap().distribution().unwrap()),
        &as_map(&SavingThrow::new(6).unwrap().distribution().unwrap()),
        EPS,
    );
}

// ---------------------------------------------------------------------------------------
// 3. Opposition in related programs and chains (L203–204, L1405, L1475, L2129).
// ---------------------------------------------------------------------------------------

/// L1405: "Any Test roll may be opposed by another roll in which case rolled successes are
/// canceled before effects are applied." The unopposed pure form must not hand back the
/// unopposed count of an opposed roll.
#[test]
fn related_programs_pure_form_does_not_ignore_opposition() {
    let main = Test::new(1, 5)
        .unwrap()
        .opposed_by(Opposition::new(1, 10).unwrap());
    let r = RelatedPrograms::new(vec![], main).unwrap();
    // The opposer always succeeds: the main roll nets at most 0.
    assert!(r.distribution().unwrap().probability_where(|&n| n > 0) == 0.0);
    if let Ok(n) = r.resolve(&[&[3]]) {
        assert!(n <= 0, "resolve ignored the opposition: {n}");
    }
}

/// L203–204: "In any opposed roll, the Successes earned by each side cancel out." A chain
/// built on a Test that is already opposed keeps that opposer (L2129: the opposer of the
/// acting robot is the first link).
#[test]
fn chained_test_keeps_the_actors_opposition() {
    let t = Test::new(2, 6)
        .unwrap()
        .opposed_by(Opposition::new(2, 5).unwrap());
    let chained = ChainedTest::new(t.clone(), vec![]).unwrap();
    same(
        &as_map(&chained.distribution().unwrap()),
        &as_map(&t.distribution().unwrap()),
        EPS,
    );
}

/// L1475: the related roll "accomplishes nothing by itself, it just augments the main
/// roll"; L1405: an opposed roll's successes "are canceled before effects are applied". The
/// pure form, the roll and the law agree on a series whose related roll and main roll are
/// both opposed. The enumeration counts the successes itself.
#[test]
fn related_programs_resolve_roll_and_law_agree_with_opposition() {
    // Related 1 die vs 6, opposed by 1 die vs 5; main 1 die vs 4 (+ bonus), opposed by 1
    // die vs 3, Difficulty 1. (One related die keeps the enumeration at 10^5 rolls; two
    // made it 10^7 and the slowest test of the suite.)
    let r = RelatedPrograms::new(
        vec![
            Test::new(1, 6)
                .unwrap()
                .opposed_by(Opposition::new(1, 5).unwrap()),
        ],
        Test::new(1, 4)
            .unwrap()
            .with_difficulty(1)
            .unwrap()
            .opposed_by(Opposition::new(1, 3).unwrap()),
    )
    .unwrap();
    // Faces: related 1, its opposer 1, main up to 2, main's opposer 1 = 5 dice.
    let law = enumerate(5, |f| {
        let ok = |x: u8, tn: u8| i64::from(x <= tn);
        let related = ok(f[0], 6) - ok(f[1], 5);
        let bonus = related.max(0) as usize;
        let main_faces = &f[2..3 + bonus];
        let main = main_faces.iter().map(|&x| ok(x, 4)).sum::<i64>() - ok(f[4], 3) - 1;
        let by_pure = r
            .resolve_opposed(&[&f[..1], main_faces], &[Some(&f[1..2]), Some(&f[4..5])])
            .unwrap();
        assert_eq!(by_pure, main);
        main
    });
    same(&as_map(&r.distribution().unwrap()), &law, EPS);
    against(&r, 32);
    // The unopposed pure form refuses an opposed series instead of ignoring the opposer.
    assert!(matches!(
        r.resolve(&[&[1], &[1, 1]]),
        Err(Error::DiceCount { .. })
    ));
    // An opposing entry for an unopposed roll is refused too.
    let plain = RelatedPrograms::new(vec![], Test::new(1, 5).unwrap()).unwrap();
    assert!(plain.resolve_opposed(&[&[3]], &[Some(&[4])]).is_err());
    assert_eq!(plain.resolve_opposed(&[&[3]], &[None]).unwrap(), 1);
}

/// L2129: "the opposer of the acting robot's test has the successes from his roll canceled
/// by his own opposer before using any remaining successes to cancel those of the initially
/// acting robot". With the first opposer given on the Test, the chain is the same as with
/// it given in the list; pure form, roll and law agree.
#[test]
fn chained_test_with_opposition_on_the_test_agrees_everywhere() {
    let actor = Test::new(2, 6).unwrap().with_difficulty(1).unwrap();
    let (first, second) = (
        Opposition::new(2, 5).unwrap(),
        Opposition::new(1, 7).unwrap(),
    );
    let on_test = ChainedTest::new(actor.clone().opposed_by(first), vec![second]).unwrap();
    let in_list = ChainedTest::new(actor, vec![first, second]).unwrap();
    assert_eq!(on_test.opposers(), in_list.opposers());
    let law = enumerate(5, |f| {
        let n = |s: &[u8], tn: u8| s.iter().filter(|&&x| x <= tn).count() as i64;
        let opp = (n(&f[2..4], 5) - n(&f[4..], 7)).max(0);
        let net = n(&f[..2], 6) - opp - 1;
        assert_eq!(on_test.resolve(&f[..2], &[&f[2..4], &f[4..]]).unwrap(), net);
        net
    });
    same(&as_map(&on_test.distribution().unwrap()), &law, EPS);
    against(&on_test, 33);
    // The Test's opposer counts as a link: the pure form wants its faces.
    assert!(on_test.resolve(&[1, 2], &[&[4]]).is_err());
}

// ---------------------------------------------------------------------------------------
// 4. Action Points have one owner (L2091, L2099).
// ---------------------------------------------------------------------------------------

/// L2091: "Base Action Points equal 1 plus 1 for each success on this roll, reduced by
/// surprise (to a minimum of 0)" — reduced once.
#[test]
fn surprise_reduces_action_points_once() {
    let rules = Rules::default();
    let s = Surprise::from_save(SaveOutcome::PartialFailure { successes: 1 }, &rules);
    assert_eq!(s.ap_loss, 2);
    // 4 dice at TN 5, faces 1, 2, 9, 9: 2 successes, 1 + 2 − 2 = 1.
    let base = BaseActionPoints::new(4, 5, &rules)
        .unwrap()
        .surprised(s.ap_loss)
        .resolve(&[1, 2, 9, 9])
        .unwrap();
    assert_eq!(base, 1);
    let mut c = Conflict::new(
        vec![Participant::new("Burgiss", base, 9)],
        TurnOrder::from_list(vec![0]),
    )
    .unwrap();
    c.surprise(0, &s).unwrap();
    assert_eq!(c.participant(0).unwrap().action_points, 1);
    assert_eq!(c.participant(0).unwrap().surprise_loss, 4);
}

/// L2160: "Action Points cannot be increased beyond their maximum level, which equals
/// Processor + Self Awareness"; L2170: successes are "the only way to increase ones Action
/// Point pool while engaged". The conflict spends the successes and adds the gain once.
#[test]
fn regaining_action_points_spends_and_gains_once() {
    let mut c = Conflict::new(
        vec![Participant::new("Charles", 1, 4)],
        TurnOrder::from_list(vec![0]),
    )
    .unwrap();
    let mut l = Ledger::augmenting(5);
    assert_eq!(c.regain(0, &mut l, 2).unwrap(), 3);
    assert_eq!(l.left(), 3);
    // Past the maximum: refused, and no success spent.
    assert!(c.regain(0, &mut l, 2).is_err());
    assert_eq!((l.left(), c.participant(0).unwrap().action_points), (3, 3));
    // Unaffordable: refused, no point gained.
    let mut short = Ledger::augmenting(0);
    assert!(c.regain(0, &mut short, 1).is_err());
    assert_eq!(c.participant(0).unwrap().action_points, 3);
    // The ledger alone takes and returns the gain, like restore.
    assert_eq!(Ledger::augmenting(2).regain_action_points(2).unwrap(), 2);
}

/// L366, L2546: social ties are broken by "Perception, Inspiration and d6 roll"; A16 makes
/// the die a ruling (`Rules::social_tie_die_sides`). The pure form takes faces of that die.
#[test]
fn social_tie_die_is_the_rules_die() {
    let as_written = Rules {
        social_tie_die_sides: 6,
        ..Rules::default()
    };
    let r = [Ranking::social(5, 6, 1), Ranking::social(5, 6, 1)];
    assert!(TurnOrder::initial_for(ConflictKind::Social, &as_written, &r, &[6, 2]).is_ok());
    assert!(matches!(
        TurnOrder::initial_for(ConflictKind::Social, &as_written, &r, &[7, 2]),
        Err(Error::Face { face: 7 })
    ));
    // The default ruling is a d10, as in combat (L296).
    assert!(TurnOrder::initial_for(ConflictKind::Social, &Rules::default(), &r, &[7, 2]).is_ok());
    assert!(TurnOrder::initial(&r, &[10, 2]).is_ok());
    // Rolled: a d6 tie die still settles every tie.
    for seed in 0..50 {
        let o =
            TurnOrder::roll_initial(&r, ConflictKind::Social, &as_written, &mut rng(seed)).unwrap();
        assert_eq!(o.len(), 2);
    }
}

/// L367, L2547: "An Etiquette Save is used instead of a Perception Save to see how well the
/// robot handles the shock"; A17 makes its attribute a ruling
/// (`Rules::etiquette_save_attribute`, default Anthropoid Class).
#[test]
fn social_ambush_save_uses_the_etiquette_attribute() {
    let value = |a: Attribute| match a {
        Attribute::Perception => 7,
        Attribute::AnthropoidClass => 5,
        Attribute::Processor => 3,
        _ => 0,
    };
    let rules = Rules::default();
    assert_eq!(
        ConflictKind::Combat
            .surprise_save(&rules, value, 0, 1)
            .unwrap()
            .tn(),
        7
    );
    assert_eq!(
        ConflictKind::Social
            .surprise_save(&rules, value, 0, 1)
            .unwrap()
            .tn(),
        5
    );
    let processor = Rules {
        etiquette_save_attribute: Attribute::Processor,
        ..rules
    };
    // 4 extra successes against 2 targets: ×½ (L2047) = −2.
    assert_eq!(
        ConflictKind::Social
            .surprise_save(&processor, value, 4, 2)
            .unwrap()
            .tn(),
        1
    );
}

// ---------------------------------------------------------------------------------------
// Other faults found on the way.
// ---------------------------------------------------------------------------------------

/// L1846, L1926: a Total Failure on the shutdown Memory Save also "loses a level of Self
/// Awareness" (A37: Role rises to keep Role + SA = 10, at most 10). A Role given above the
/// rulebook's 10 (L536) must not overflow.
#[test]
fn memory_loss_never_overflows_role() {
    let m = MemoryLoss::from_save(SaveOutcome::TotalFailure);
    assert_eq!(m.apply(3, 1, 255), (0, 0, 10));
    assert_eq!(m.apply(8, 4, 6), (2, 3, 7));
}

/// L253: at 0 "the robot loses the use of that Attribute (Tests rolled against it have a
/// Target Number of 0 and are thus impossible)"; L1786: "unable to make any Test rolls using
/// that attribute until it is restored to at least an effective score of 1". Exertion
/// raises a TN (L1465), it does not restore the attribute. For saves, L268: "If reduced to
/// 0, Total Failure is guaranteed".
#[test]
fn exertion_cannot_lift_a_tn_of_zero() {
    for tn in [-2, 0] {
        let t = Test::new(5, tn).unwrap().exerted();
        assert_eq!(t.tn(), tn);
        assert!(!t.is_exerted(), "no Power is spent on an impossible Test");
        assert_eq!(t.distribution().unwrap().probability_where(|&n| n > 0), 0.0);
        let s = SavingThrow::new(tn).unwrap().exerted().unwrap();
        assert_eq!(s.tn(), tn);
        assert!(!s.is_exerted());
        assert_eq!(
            s.distribution()
                .unwrap()
                .probability(&SaveOutcome::TotalFailure),
            1.0
        );
    }
    // At TN 1 Exertion still works.
    assert_eq!(Test::new(5, 1).unwrap().exerted().tn(), 2);
    assert_eq!(SavingThrow::new(1).unwrap().exerted().unwrap().tn(), 2);
}

/// L1705: "Robots may spend the first couple successes of a Fencing roll to negate a
/// Locomotion loss"; L1707: the GM may "require the Attribute losses to be bought off as
/// soon as possible". Restoring comes before (and instead of) Accomplish Action.
#[test]
fn the_first_successes_may_buy_off_a_loss() {
    let mut l = Ledger::new(2);
    assert_eq!(l.restore(2).unwrap(), 2);
    assert_eq!(l.left(), 0);
    assert!(l.accomplish(1).is_err()); // the loss is gone, the action fails
    let mut l = Ledger::new(3);
    l.restore(1).unwrap();
    l.accomplish(1).unwrap();
    assert_eq!(l.roll_over(1).unwrap(), 1);
}

/// L1862: a current-point hit reduces "the robot's current Power Reserve total by 1"; a
/// capacitor hit reduces the maximum by 1 and "does not effect the current score unless the
/// current score would now be higher than the maximum. In this case, reduce the current
/// Power to the new maximum capacity and roll for an extra Malfunction." Nothing goes below
/// 0, and an empty capacitor cannot cut the current Power again.
#[test]
fn power_and_sub_systems_stop_at_zero() {
    let mut c = Chassis::new([5; 6], [0, 1, 0, 0], 0, vec![]);
    let cap = Malfunction::SubSystem(SubSystem::PowerCapacitor);
    assert_eq!(c.suffer(cap, None), 0);
    assert_eq!((c.power, c.max_power), (0, 0));
    assert_eq!(c.suffer(cap, None), 0);
    assert_eq!(
        c.suffer(Malfunction::SubSystem(SubSystem::PowerCurrent), None),
        0
    );
    assert_eq!(c.power, 0);
    c.suffer(Malfunction::SubSystem(SubSystem::VisualSensors), None);
    c.suffer(Malfunction::SubSystem(SubSystem::AudioSensors), None);
    c.suffer(Malfunction::SubSystem(SubSystem::AudioSensors), None);
    assert_eq!(c.subsystems, [0, 0, 0, 0]);
    // With Power to cut, the capacitor rule still costs the extra malfunction.
    let mut full = Chassis::new([5; 6], [3; 4], 2, vec![]);
    assert_eq!(full.suffer(cap, None), 1);
    assert_eq!((full.power, full.max_power), (1, 1));
}

// ---------------------------------------------------------------------------------------
// Gaps the audit marked partial (L329, L2135–2136, L2366, L827–851).
// ---------------------------------------------------------------------------------------

/// L329: "If the target was surprised (failed at least 1 die on the Save) they may not Pay
/// for Turn until the Perception Loss is bought off." L2133: "any combatant … may buy
/// initiative"; L2137: the others "keep their Action Point". A surprised robot (or one with
/// no Action Point to spend) is left out of the announcement; the rest still compete.
#[test]
fn pay_for_turn_leaves_out_a_surprised_or_penniless_announcer() {
    let (burgiss, alfredo, charles, devon) = (0, 1, 2, 3);
    let mut c = Conflict::new(
        vec![
            Participant {
                surprise_loss: 4,
                ..Participant::new("Burgiss", 3, 9)
            },
            Participant::new("Alfredo", 3, 9),
            Participant::new("Charles", 0, 9),
            Participant::new("Devon", 3, 9),
        ],
        TurnOrder::from_list(vec![devon, burgiss, alfredo, charles]),
    )
    .unwrap();
    c.end_turn(TurnOutcome::NoRight); // Devon acted: Burgiss, Alfredo, Charles, Devon
    // Burgiss is highest but surprised, Charles has no point: Alfredo pays.
    assert_eq!(
        c.pay_for_turn(&[burgiss, charles, alfredo]).unwrap(),
        Some(alfredo)
    );
    let ap = |c: &Conflict, w| c.participant(w).unwrap().action_points;
    assert_eq!(
        (ap(&c, burgiss), ap(&c, alfredo), ap(&c, charles)),
        (3, 2, 0)
    );
    assert_eq!(c.order().as_slice(), &[alfredo, burgiss, charles, devon]);
    // A surprised defender who won keeps no first right he may not use (L2136, L329): the
    // right falls to the highest eligible announcer.
    c.end_turn(TurnOutcome::DefenderWon(burgiss)); // Burgiss, Charles, Devon, Alfredo
    assert_eq!(c.participant(burgiss).unwrap().surprise_loss, 3); // L330
    assert_eq!(c.pay_for_turn(&[alfredo, burgiss]).unwrap(), Some(alfredo));
    // Announcing alone, each is still refused, and nothing is spent.
    c.end_turn(TurnOutcome::NoRight);
    assert!(matches!(
        c.pay_for_turn(&[burgiss]),
        Err(Error::NotAllowed(_))
    ));
    assert!(matches!(
        c.pay_for_turn(&[charles]),
        Err(Error::CannotPay { .. })
    ));
    assert!(matches!(
        c.pay_for_turn(&[burgiss, charles]),
        Err(Error::NotAllowed(_))
    ));
    assert_eq!((ap(&c, burgiss), ap(&c, charles)), (3, 0));
    // An unknown robot is still an error.
    assert!(matches!(
        c.pay_for_turn(&[alfredo, 9]),
        Err(Error::NoSuchParticipant { .. })
    ));
}

/// L2135: "If the acting combatant … won the roll (or was unopposed and rolled at least 1
/// success) … they get first right"; L2136: "If the acting combatant had been opposed and
/// the defender won the roll, the defender gets first right"; L1505: in an opposed Test "the
/// successes of the two rolls cancel and the winner is the robot who has successes
/// remaining"; L1509: a Difficulty is an "Unrolled Opposed Roll", the GM's automatic
/// successes, not the defender's. An actor who out-rolls the defender but loses to the
/// Difficulty gives the defender no right.
#[test]
fn a_difficulty_does_not_hand_the_defender_the_first_right() {
    let t = Test::new(3, 5)
        .unwrap()
        .with_difficulty(2)
        .unwrap()
        .opposed_by(Opposition::new(4, 5).unwrap());
    // Actor 3, defender 2, Difficulty 2: net −1, but the actor won the roll against the roll.
    let r = t.resolve_opposed(&[1, 2, 3], &[1, 2, 9, 9]).unwrap();
    assert_eq!(r.net, -1);
    assert_eq!(TurnOutcome::from_roll(&r, Some(7)), TurnOutcome::NoRight);
    // Defender 3 = actor 3: a tie between the rolls, no right (A42).
    let r = t.resolve_opposed(&[1, 2, 3], &[1, 2, 3, 9]).unwrap();
    assert_eq!(TurnOutcome::from_roll(&r, Some(7)), TurnOutcome::NoRight);
    // Defender 4 > actor 3: the defender won.
    let r = t.resolve_opposed(&[1, 2, 3], &[1, 2, 3, 4]).unwrap();
    assert_eq!(
        TurnOutcome::from_roll(&r, Some(7)),
        TurnOutcome::DefenderWon(7)
    );
    // Unopposed: at least 1 net success is the actor's right, a Difficulty beaten or not.
    let u = Test::new(3, 5).unwrap().with_difficulty(2).unwrap();
    let won = u.resolve(&[1, 2, 3]).unwrap();
    assert_eq!(TurnOutcome::from_roll(&won, None), TurnOutcome::ActorWon);
    let lost = u.resolve(&[1, 2, 9]).unwrap();
    assert_eq!(TurnOutcome::from_roll(&lost, None), TurnOutcome::NoRight);
    // Without a Difficulty the roll and the net agree everywhere (every face enumerated).
    let plain = Test::new(2, 5)
        .unwrap()
        .opposed_by(Opposition::new(2, 6).unwrap());
    enumerate(4, |f| {
        let r = plain.resolve_opposed(&f[..2], &f[2..]).unwrap();
        assert_eq!(
            TurnOutcome::from_roll(&r, Some(1)),
            TurnOutcome::from_net(r.net, Some(1))
        );
    });
}

/// L2366: "Difficulty is additional fixed Difficulty to all rolls made with the weapon that
/// involve the weapon being employed aggressively or defensively"; L205: a Difficulty "is
/// treated as automatic opposed Successes"; L2129: an opposer's successes are "canceled by
/// his own opposer before using any remaining successes to cancel those of the initially
/// acting robot". A parry with a Mono Sword (Difficulty 2, L2341–2358) loses 2 of its
/// successes before it cancels the attacker's.
#[test]
fn a_parry_carries_its_weapons_difficulty() {
    let k = MeleeWeapon::MonoSword.difficulty();
    assert_eq!(k, 2);
    let parry = Opposition::new(3, 6).unwrap().with_difficulty(k).unwrap();
    assert_eq!(parry.difficulty(), 2);
    let attack = Test::new(2, 6)
        .unwrap()
        .with_difficulty(1)
        .unwrap()
        .opposed_by(parry);
    let n = |s: &[u8], tn: u8| s.iter().filter(|&&x| x <= tn).count() as i64;
    let law = enumerate(5, |f| {
        let net = n(&f[..2], 6) - (n(&f[2..], 6) - 2).max(0) - 1;
        let r = attack.resolve_opposed(&f[..2], &f[2..]).unwrap();
        assert_eq!(r.net, net);
        net
    });
    same(&as_map(&attack.distribution().unwrap()), &law, EPS);
    against(&attack, 41);
    for seed in 0..300 {
        let detailed = attack.roll_test(&mut rng(seed));
        assert_eq!(detailed.net, attack.roll(&mut rng(seed)));
        let mut record = RollRecord::new();
        attack.roll_record_into(&mut rng(seed), &mut record);
        assert_eq!(record.total, detailed.net);
    }
    // In a chain the parry's Difficulty is cancelled with its own opposer's successes
    // (L2129); in a series of related programs the main roll's law is the Test's.
    let chained = ChainedTest::new(attack.clone(), vec![Opposition::new(1, 5).unwrap()]).unwrap();
    let law = enumerate(6, |f| {
        let parry_left = (n(&f[2..5], 6) - 2 - n(&f[5..], 5)).max(0);
        let net = n(&f[..2], 6) - parry_left - 1;
        assert_eq!(chained.resolve(&f[..2], &[&f[2..5], &f[5..]]).unwrap(), net);
        net
    });
    same(&as_map(&chained.distribution().unwrap()), &law, EPS);
    against(&chained, 42);
    let series = RelatedPrograms::new(vec![], attack.clone()).unwrap();
    same(
        &as_map(&series.distribution().unwrap()),
        &as_map(&attack.distribution().unwrap()),
        EPS,
    );
}

/// The Maximum Inspiration column gives some programs a lower maximum (L827 Carousing "4:
/// Core Social (common) 2: Core Social (genteel)"; L833 Craft "3: Basic Crafts 2: Advanced";
/// L834 Dancing "4: Free Style 2: Formal"; L838 Etiquette "4: if Core Social matches 2: if
/// Core Social does not match"; L851 Labor as Carousing). L807: "The maximum number of
/// points that can be spent on any single Inspiration Roll depends on the Program".
#[test]
fn inspiration_rolls_honour_the_lower_maximum() {
    for (program, usual, lower) in [
        (Program::Carousing, 4, 2),
        (Program::Craft, 3, 2),
        (Program::Dancing, 4, 2),
        (Program::Etiquette, 4, 2),
        (Program::Labor, 4, 2),
        (Program::Fencing, 3, 3), // one value: the case changes nothing
    ] {
        let m = program.max_inspiration().unwrap();
        assert_eq!(m.limit(InspirationCase::Usual), usual, "{program:?}");
        assert_eq!(m.limit(InspirationCase::Restricted), lower, "{program:?}");
        assert!(InspirationRoll::for_program_in(6, usual, program, InspirationCase::Usual).is_ok());
        assert!(
            InspirationRoll::for_program_in(6, lower, program, InspirationCase::Restricted).is_ok()
        );
        if lower < usual {
            assert!(matches!(
                InspirationRoll::for_program_in(6, lower + 1, program, InspirationCase::Restricted),
                Err(Error::InspirationLimit { max, .. }) if max == lower
            ));
        }
    }
    // Programming has no Inspiration Roll in either case (L863).
    assert!(
        InspirationRoll::for_program_in(6, 1, Program::Programming, InspirationCase::Usual)
            .is_err()
    );
}
