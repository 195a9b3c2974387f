//! Every worked example of digest §7 in the Tests, saves, conflict and combat areas
//! (E1, E3–E41 except the creation ones E2, E39, E42–E44), each quoting its line. Errata
//! (E19, E22, E30–E32, E34) test what the rules give and say so. No probability is typed
//! in: each is written out as a formula.

use std::cmp::Ordering;

use dice_core::Exact;
use dice_robots_and_rapiers::{
    AttackType, Attribute, BaseActionPoints, Breadth, Conflict, DamageProcedure, Dice, Faster,
    InspirationRoll, Ledger, Lighting, Opposition, Participant, Program, Ranking, Reaction,
    RelatedPrograms, Rounding, Rules, SaveOutcome, SavingThrow, Senses, Surprise, Test, TestResult,
    TurnOrder, TurnOutcome, ambush_save_tn, combat_ap_tn, difficulty_for, expected_successes,
    guideline_difficulty, parallel_bonus, spread_multiple,
};

fn binomial(n: u32, k: u32, p: f64) -> f64 {
    let c = (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1));
    c * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

#[test]
fn e1_difficulty_instead_of_rolling() {
    // L206: "instead of rolling 6 dice against a Target Number of 5, the GM may decide to
    // simply give a Difficulty of 3".
    assert_eq!(guideline_difficulty(6, 5, 0), 3);
    assert_eq!(expected_successes(6, 5), 3.0);
    // L1515: needing 4 successes is the same as Difficulty 3.
    assert_eq!(difficulty_for(4), 3);
    assert_eq!(
        Test::new(6, 5)
            .unwrap()
            .with_difficulty(3)
            .unwrap()
            .successes_needed(),
        4
    );
}

#[test]
fn e3_e4_juliard_rolls_eight_dice() {
    // L1418: "Fencing (rapier) Program at Level 3 … Core Physical which Juliard has at level
    // 5. Juliard will be rolling 8 d10".
    let dice = Dice::Program {
        program: 3,
        core: 5,
    };
    assert_eq!(dice.base(), Some(8));
    assert_eq!(
        Program::Fencing.core(),
        dice_robots_and_rapiers::Core::Physical
    );
    // L1426–1428: the same 8 dice vs Memory; "the linked Core for Fencing is still Core
    // Physical regardless of the Attribute used".
    let memory = Test::from_dice(dice, 0, &[], 4).unwrap();
    assert_eq!((memory.dice(), memory.tn()), (8, 4));
}

#[test]
fn l1440_l1442_core_default_and_no_dice() {
    // L1440: Burgiss may "roll just Burgiss's Core Social (genteel) dice".
    assert_eq!(Dice::CoreDefault { core: 5 }.base(), Some(5));
    // L1442: "Alfredo's player is stuck with no dice to roll".
    assert!(Test::from_dice(Dice::Unrelated, 0, &[], 5).is_err());
}

#[test]
fn e5_juliard_composes_a_poem() {
    // L1455: "With a Self Awareness of only 2, Juliard will only be rolling a single die, but
    // for 3 Inspiration he can at least set the TN to 9".
    let poem = InspirationRoll::for_program(2, 3, Program::Compose).unwrap();
    assert_eq!((poem.test().dice(), poem.test().tn()), (1, 9));
    // "nearly certain of a basic success": 9 in 10.
    let d = poem.distribution().unwrap();
    assert!((d.probability(&1) - 0.9).abs() < 1e-15);
    // Compose's maximum is 3.
    assert!(InspirationRoll::for_program(2, 4, Program::Compose).is_err());
}

#[test]
fn e6_alfredo_kicks_the_grav_lift() {
    // L1457: "With a Self Awareness Score of 6, the player picks up 3 dice and spends 2
    // Inspiration for a TN of 4" (Mechanics, maximum 2).
    let kick = InspirationRoll::for_program(6, 2, Program::Mechanics).unwrap();
    assert_eq!((kick.test().dice(), kick.test().tn()), (3, 4));
    // "the player rolls and gets his single success": a minimal success.
    let r = kick.test().resolve(&[3, 8, 9]).unwrap();
    assert_eq!(r.result(), TestResult::Won(1));
    // "pretty good odds of getting at least a single success": 1 − 0.6³.
    let d = kick.distribution().unwrap();
    assert!((d.probability_where(|&n| n >= 1) - (1.0 - 0.6f64.powi(3))).abs() < 1e-12);
}

#[test]
fn e7_alfredo_runs_to_his_tryst() {
    // L1469: "To reduce an activity from 1 hour to 15 minutes (1/4 of the time) will take 4
    // additional successes. With the 1 success required … Alfredo needs 5 successes".
    assert_eq!(Faster::Quarter.cost(), 4);
    let mut l = Ledger::new(5);
    l.accomplish(1).unwrap();
    l.faster(Faster::Quarter).unwrap();
    assert_eq!(l.left(), 0);
    assert!(Ledger::new(4).faster(Faster::Quarter).is_err());
    // "8 dice vs. a TN of 7 … the expected result of this roll is right around 5" (5.6).
    let run = Test::new(8, 7).unwrap();
    assert!((run.expected_successes() - 5.6).abs() < 1e-12);
    // "he decides to spend a point of Power to boost the TN to 8".
    let exerted = run.clone().exerted();
    assert_eq!(exerted.tn(), 8);
    let p5 = |t: &Test| t.distribution().unwrap().probability_where(|&n| n >= 5);
    let formula = |p: f64| (5..=8).map(|k| binomial(8, k, p)).sum::<f64>();
    assert!((p5(&run) - formula(0.7)).abs() < 1e-12);
    assert!((p5(&exerted) - formula(0.8)).abs() < 1e-12);
    assert!(p5(&exerted) > p5(&run)); // "This makes success a little more likely"
}

#[test]
fn e8_haggling_with_fencing_as_related_program() {
    // L1483: "8d10 for his Fencing (rapier) Program … against his Memory attribute of 4.
    // This would normally be expected to produce about 3 successes, but with 1 being
    // cancelled by the difficulty".
    let fencing = Test::new(8, 4).unwrap().with_difficulty(1).unwrap();
    assert!((fencing.expected_successes() - 3.2).abs() < 1e-12);
    // L1481: Core Social (genteel) dice withheld: the haggle has only the rolled-over dice.
    let haggle = RelatedPrograms::new(vec![fencing.clone()], Test::new(0, 5).unwrap()).unwrap();
    // 3 successes − 1 Difficulty = 2 bonus dice for the haggle.
    assert_eq!(
        haggle
            .resolve(&[&[1, 2, 4, 5, 6, 7, 8, 9], &[5, 6]])
            .unwrap(),
        1
    );
    // The haggle's law: a mixture over the bonus dice, written out.
    let fencing_law = fencing.distribution().unwrap();
    let mut expect = 0.0;
    for (&net, p) in fencing_law.iter() {
        let k = net.max(0) as u32;
        expect += p * (1.0 - 0.5f64.powi(k as i32));
    }
    let d = haggle.distribution().unwrap();
    assert!((d.probability_where(|&n| n >= 1) - expect).abs() < 1e-12);
}

#[test]
fn e9_navigation_needs_four() {
    // L1519: "Navigation … 6 dice vs Processor 5 … Difficulty 3 … will need at least 4
    // successes".
    let t = Test::new(6, 5).unwrap().with_difficulty(3).unwrap();
    assert_eq!(t.successes_needed(), 4);
    assert_eq!(
        t.resolve(&[1, 2, 3, 6, 7, 8]).unwrap().result(),
        TestResult::Tie
    );
    assert_eq!(
        t.resolve(&[1, 2, 3, 4, 7, 8]).unwrap().result(),
        TestResult::Won(1)
    );
}

#[test]
fn e10_dels_dagger() {
    // L1531: "He'd received 5 successes … converted those successes into a persistent bonus
    // of 2 … Juliard's roll is opposed by Del's persistent bonus of 2, meaning instead of a
    // single success, Juliard needs three."
    let mut l = Ledger::new(5);
    l.accomplish(1).unwrap();
    assert_eq!(l.bonus(4, Breadth::Persistent).unwrap(), 2);
    // (5 × ½ would also give 2: the example cannot tell, digest E10.)
    assert_eq!(Breadth::Persistent.bonus(5), 2);
    let search = Test::new(7, 6).unwrap().with_difficulty(2).unwrap();
    assert_eq!(search.successes_needed(), 3);
}

#[test]
fn e11_del_swings_to_his_horse() {
    // L1566: "Del scores 4 successes … 1 success for the successful swing, and a separate
    // success to land in the saddle. Del takes the remaining 2 successes … 2 extra dice in
    // the subsequent Riding roll".
    let mut l = Ledger::new(4);
    l.accomplish(2).unwrap();
    assert_eq!(l.roll_over(2).unwrap(), 2);
    // L1568: "If Del had only rolled 1 success … his swing … would have been accomplished
    // but he would not have successfully landed on the horse."
    let mut one = Ledger::new(1);
    assert!(one.accomplish(2).is_err());
    one.accomplish(1).unwrap();
    assert_eq!(one.accomplished(), 1);
}

#[test]
fn e12_del_charms_vivienne() {
    // L1605–1607: Intrigue, compound action of 2, "Del rolls 3 successes … takes the 1
    // remaining success and rolls it over".
    let mut intrigue = Ledger::new(3);
    intrigue.accomplish(2).unwrap();
    assert_eq!(intrigue.roll_over(1).unwrap(), 1);
    // "He manages 4 successes … The first success is used to Accomplish the Action … rolls 1
    // over … the other two into a +1 Persistent Bonus".
    let mut cajole = Ledger::new(4);
    cajole.accomplish(1).unwrap();
    assert_eq!(cajole.roll_over(1).unwrap(), 1);
    assert_eq!(cajole.bonus(2, Breadth::Persistent).unwrap(), 1);
    assert_eq!(cajole.left(), 0);
}

#[test]
fn e13_stored_successes_months_later() {
    // L1611: "achieved 2 successes on an Orienteering vs. Perception Test … wishes to roll
    // those 2 successes into the attempt" — the GM considered but did not charge a 1-die
    // penalty.
    let strategy = Test::from_dice(
        Dice::Program {
            program: 2,
            core: 4,
        },
        2,
        &[],
        5,
    )
    .unwrap();
    assert_eq!(strategy.dice(), 8);
    let with_penalty = Test::from_dice(
        Dice::Program {
            program: 2,
            core: 4,
        },
        2,
        &[-1],
        5,
    )
    .unwrap();
    assert_eq!(with_penalty.dice(), 7);
}

#[test]
fn e14_alfredo_coaches_burgiss() {
    // L1613: "Etiquette vs. Processor … Difficulty of 2. Alfredo's player rolls and gets 6
    // successes. 1 of those accomplishes the action, leaving 3 … rolls 2 of the 3 into a +1
    // Persistent bonus … The last one, gives an additional 1 time +1".
    let t = Test::new(8, 7).unwrap().with_difficulty(2).unwrap();
    let r = t.resolve(&[1, 2, 3, 4, 5, 6, 9, 10]).unwrap();
    assert_eq!(r.net, 4);
    let mut l = r.ledger();
    l.accomplish(1).unwrap();
    assert_eq!(l.left(), 3);
    assert_eq!(l.bonus(2, Breadth::Persistent).unwrap(), 1);
    assert_eq!(l.roll_over(1).unwrap(), 1);
}

#[test]
fn e15_spreading_a_multiple_bonus() {
    // L1625: "if there are 4 robots … and the bonus is 3 successes × ½ … the player may
    // assign 2 robots a +1 and 2 robots a +2 bonus which then averages out to +1.5".
    let shares = spread_multiple(3, Breadth::Multiple, 4);
    assert_eq!(shares.iter().filter(|&&b| b == 1).count(), 2);
    assert_eq!(shares.iter().filter(|&&b| b == 2).count(), 2);
    assert_eq!(shares.iter().sum::<u32>() * 2, 3 * 4);
    // "rounded down to 1" without spreading.
    assert_eq!(Breadth::Multiple.bonus(3), 1);
}

#[test]
fn e16_le_requin_on_the_quarterdeck() {
    // L1627–1635: "rolls 5 successes. As always, 1 of those successes is spent to
    // 'Accomplish the Action', leaving 4".
    let spare = |f: &dyn Fn(&mut Ledger) -> u32| {
        let mut l = Ledger::new(5);
        l.accomplish(1).unwrap();
        f(&mut l)
    };
    // "roll the whole 4 dice bonus into a single pistol shot".
    assert_eq!(spare(&|l| l.roll_over(4).unwrap()), 4);
    // "After applying the × ½ Persistent modifier he could take a 2 die bonus".
    assert_eq!(spare(&|l| l.bonus(4, Breadth::Persistent).unwrap()), 2);
    // "Applying the × ½ Multiple modifier he could give a 2 die bonus".
    assert_eq!(spare(&|l| l.bonus(4, Breadth::Multiple).unwrap()), 2);
    // "Applying the × ¼ modifier he could give a 1 die bonus … or a +1 bonus to Saving
    // Throws … by increasing the Target Number".
    assert_eq!(
        spare(&|l| l.bonus(4, Breadth::MultiplePersistent).unwrap()),
        1
    );
    assert_eq!(
        spare(&|l| l.raise_save_tn(4, Breadth::MultiplePersistent).unwrap() as u32),
        1
    );
}

#[test]
fn e17_e18_crafting() {
    // L1668: "achieved 9 successes … The first success crafts the blade. After applying the
    // ½ modifier, the remaining 8 successes allow for +4 in persistent bonuses" (+2 attack,
    // +1 defence, +1 damage).
    let mut sword = Ledger::new(9);
    sword.accomplish(1).unwrap();
    let attack = sword.bonus(4, Breadth::Persistent).unwrap();
    let defence = sword.bonus(2, Breadth::Persistent).unwrap();
    let damage = sword.lower_save_tn(2, Breadth::Persistent).unwrap();
    assert_eq!((attack, defence, damage, sword.left()), (2, 1, -1, 0));
    // L1670: "The seamstress rolls 3 successes. The first success creates a fine wearable
    // dress. The other 2 … +1 Persistent".
    let mut dress = Ledger::new(3);
    dress.accomplish(1).unwrap();
    assert_eq!(dress.bonus(2, Breadth::Persistent).unwrap(), 1);
}

#[test]
fn e19_parallel_preparations_erratum() {
    // L1674: "Persuade (haggle) … 1 success … Strategy … 2 successes … Machinery … 3
    // successes … his forge … 2 points of persistent bonuses … From these 4 items the smith
    // earned … 8 extra dice". Erratum (A4): the example uses gross counts, with no Accomplish
    // success taken from each roll. The ruling reproduces it by treating the preparations
    // as augmenting rolls (Ledger::augmenting), whose every success rolls over.
    let gross: u32 = [1u32, 2, 3]
        .iter()
        .map(|&s| Ledger::augmenting(s).roll_over(s).unwrap())
        .sum();
    assert_eq!(gross + 2, 8);
    assert_eq!(parallel_bonus(&[1, 2, 3], Breadth::Single, true) + 2, 8);
    // Had each roll accomplished something, it would be 0 + 1 + 2 + 2 = 5.
    let net: u32 = [1u32, 2, 3].iter().map(|s| s - 1).sum();
    assert_eq!(net + 2, 5);
}

#[test]
fn e20_e22_le_requin_knocks_the_captain_overboard() {
    // L1740: "Athletics vs. Locomotion Test and scores 3 successes. 1 success means the
    // swing was accomplished. The other 2 are rolled into the next roll".
    let mut swing = Ledger::new(3);
    swing.accomplish(1).unwrap();
    assert_eq!(swing.roll_over(2).unwrap(), 2);
    // L1742: "Le Requin scores 4 net successes … The first success … trigger the captain
    // making a Locomotion Saving Throw … the other 3 successes to reduce the captain's
    // Target Number for that save by 3".
    let mut collide = Ledger::new(4);
    collide.accomplish(1).unwrap();
    let change = collide.lower_save_tn(3, Breadth::Single).unwrap();
    // L1798: "The captain has a Locomotion Attribute of 6 which is reduced by 3 to 3".
    let save = SavingThrow::against(6, &[change]).unwrap();
    assert_eq!(save.tn(), 3);
    // L1800–1804: "total success (only about a 3% chance)", "about a 34% chance" of total
    // failure. Erratum (A39): "about a 50% chance to succeed on a single die, a 12% chance to
    // succeed on 2" — the binomial gives 44.1% and 18.9%; the rules are tested.
    let d = save.distribution().unwrap();
    let p = 0.3;
    let ts = d.probability(&SaveOutcome::TotalSuccess);
    let one = d.probability(&SaveOutcome::PartialFailure { successes: 1 });
    let two = d.probability(&SaveOutcome::PartialFailure { successes: 2 });
    let tf = d.probability(&SaveOutcome::TotalFailure);
    assert!((ts - binomial(3, 3, p)).abs() < 1e-12 && (ts - 0.03).abs() < 0.005);
    assert!((tf - binomial(3, 0, p)).abs() < 1e-12 && (tf - 0.34).abs() < 0.005);
    assert!((one - binomial(3, 1, p)).abs() < 1e-12 && (one - 0.50).abs() > 0.05);
    assert!((two - binomial(3, 2, p)).abs() < 1e-12 && (two - 0.12).abs() > 0.05);
    // "to the tune of 2 or 4 points of Locomotion loss"; "he lose 6 points".
    let r = Rules::default();
    assert_eq!(
        SaveOutcome::PartialFailure { successes: 2 }.attribute_loss(&r),
        2
    );
    assert_eq!(
        SaveOutcome::PartialFailure { successes: 1 }.attribute_loss(&r),
        4
    );
    assert_eq!(SaveOutcome::TotalFailure.attribute_loss(&r), 6);
}

#[test]
fn e21_cover_behind_the_wheel() {
    // L1744: "gets 2 successes. The first success puts Francois behind … the wheel. The
    // second success is spent to increase his Durability Target Number by 1 … since Francois
    // did not (could not) make it Persistent it will only help with one of the two".
    let mut l = Ledger::new(2);
    l.accomplish(1).unwrap();
    assert_eq!(Breadth::Persistent.bonus(1), 0);
    assert_eq!(l.raise_save_tn(1, Breadth::Single).unwrap(), 1);
}

#[test]
fn e23_pierre_holds_the_beam() {
    // L1826: "The GM … assigns a Difficulty of 1 … Pierre gets 3 successes, 2 of which (due
    // to the difficulty) are needed to 'Accomplish the Action' … With the third success".
    let run = Test::new(8, 7).unwrap().with_difficulty(1).unwrap();
    let r = run.resolve(&[1, 2, 3, 8, 8, 9, 10, 10]).unwrap();
    assert_eq!(r.net, 2);
    let mut l = r.ledger();
    l.accomplish(1).unwrap();
    let plus = l.raise_save_tn(1, Breadth::Single).unwrap();
    // L1828: "Force of 8, plus Heavy Duty Hydraulics … Force of 9. With the minus 3 from the
    // difficulty, and the +1 for the extra success, Pierre is rolling 3 dice against a
    // target number of 7."
    let save = SavingThrow::against(8 + 1, &[-3, plus]).unwrap();
    assert_eq!(save.tn(), 7);
    // L1830: "a 3% chance of Pierre … simply collapsing … a 34% chance he'll manage …
    // (Total Success) … a 63% chance of Partial Failure".
    let d = save.distribution().unwrap();
    let p = 0.7;
    let tf = d.probability(&SaveOutcome::TotalFailure);
    let ts = d.probability(&SaveOutcome::TotalSuccess);
    let partial = d.probability_where(|o| matches!(o, SaveOutcome::PartialFailure { .. }));
    assert!((tf - binomial(3, 0, p)).abs() < 1e-12 && (tf - 0.03).abs() < 0.005);
    assert!((ts - binomial(3, 3, p)).abs() < 1e-12 && (ts - 0.34).abs() < 0.005);
    assert!((partial - 0.63).abs() < 0.005);
    // "the +1 bonus … was not a Persistent bonus. It is only good for that first Save."
    assert_eq!(SavingThrow::against(9, &[-3]).unwrap().tn(), 6);
}

#[test]
fn e24_e25_damage_and_knockdown() {
    let r = Rules::default();
    // L1884: "A hit with only a single success is enough to trigger a Durability Save, but
    // with 0 damage … A hit with 4 successes that … reduces the Save's Target Number by 3, is
    // said to be 3 damage."
    assert_eq!(DamageProcedure::new(6, 0).damage(&r), 0);
    assert_eq!(DamageProcedure::new(6, 3).damage(&r), 3);
    // L1890: "catches him with a solid blow of 5 successes. The first success goes towards
    // accomplishing the hit, the other 4 go to damage … the damage difficulty of 4 is 1 point
    // greater than ½ Del's Size of 6, Del must make a Locomotion Save at -1".
    let mut bench = Ledger::new(5);
    bench.accomplish(1).unwrap();
    let change = bench.lower_save_tn(4, Breadth::Single).unwrap();
    let blow = DamageProcedure::new(6, (-change) as u32);
    assert_eq!(blow.knockdown(6, AttackType::Bash, &r), Some(-1));
    assert_eq!(blow.tn(&r), 2);
    // A thrust of 4 on Size 6 does not knock down.
    assert_eq!(blow.knockdown(6, AttackType::Thrust, &r), None);
}

#[test]
fn e26_e27_e28_saves_triggered_by_opposed_tests() {
    // L1898: won "with a single success" forces an Articulation Save "but not enough to make
    // it more difficult".
    let mut l = Ledger::new(1);
    l.accomplish(1).unwrap();
    assert!(l.lower_save_tn(1, Breadth::Single).is_err());
    // L1912: "Juliard wins this roll with 3 successes. The first is sufficient to … trigger
    // a Processor Save. The next two increase the difficulty of this save by 2."
    let oration = Test::new(7, 6)
        .unwrap()
        .opposed_by(Opposition::new(5, 5).unwrap());
    let r = oration
        .resolve_opposed(&[1, 2, 3, 4, 5, 9, 10], &[1, 2, 8, 9, 10])
        .unwrap();
    assert_eq!(r.result(), TestResult::Won(3));
    let mut l = r.ledger();
    l.accomplish(1).unwrap();
    assert_eq!(l.lower_save_tn(2, Breadth::Single).unwrap(), -2);
    // L1940: "The urchin wins by 3, forcing the guard to make a Perception Save … using the
    // extra successes to make the Save more difficult" (TN −2).
    let mut urchin = Ledger::new(3);
    urchin.accomplish(1).unwrap();
    let guard = SavingThrow::against(6, &[urchin.lower_save_tn(2, Breadth::Single).unwrap()]);
    assert_eq!(guard.unwrap().tn(), 4);
}

fn friends(lighting: Lighting, rules: &Rules) -> [Ranking; 4] {
    // L2014–2019: Alfredo V4 A4 Loc 7 Insp 5; Burgiss V2 A4 Loc 4 Insp 3; Charles V3 A3 Loc 6
    // Insp 3; Devon V4 (Advanced Visual → 5) A3 Loc 5 Insp 7.
    let a = Senses::new(4, 4);
    let b = Senses::new(2, 4);
    let c = Senses::new(3, 3);
    let d = Senses {
        advanced_visual: true,
        ..Senses::new(5, 3)
    };
    [
        Ranking::new(a.perception(lighting, rules), 7, 5),
        Ranking::new(b.perception(lighting, rules), 4, 3),
        Ranking::new(c.perception(lighting, rules), 6, 3),
        Ranking::new(d.perception(lighting, rules), 5, 7),
    ]
}

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;

#[test]
fn e29_initial_turn_order() {
    // L2021–2023: "Alfredo and Devon are tied with Perception 8, Alfredo wins the tie by
    // having superior Locomotion … The Initial Turn Order then proceeds: Alfredo, Devon,
    // Charles, Burgiss."
    let r = friends(Lighting::Normal, &Rules::default());
    assert_eq!(r[D].primary, 8);
    assert_eq!(
        TurnOrder::initial(&r, &[]).unwrap().as_slice(),
        &[A, D, C, B]
    );
}

#[test]
fn e30_moonlit_bridge_erratum() {
    // L2025–2031: "½ Visual (rounded up) … Charles has Level 3 Visual Sensors which are
    // halved to 1, for an effective Perception of 4 … Devon, Alfredo, Burgiss, Charles".
    // Erratum (A5): 3 halved and rounded up is 2, so Charles has 5 and (Locomotion 6 > 4)
    // goes before Burgiss. The rule (round up) is the default.
    let up = friends(Lighting::Dark, &Rules::default());
    assert_eq!(
        up.map(|r| r.primary),
        [6, 5, 5, 8] // Alfredo 2 + 4, Burgiss 1 + 4, Charles 2 + 3, Devon 8
    );
    assert_eq!(
        TurnOrder::initial(&up, &[]).unwrap().as_slice(),
        &[D, A, C, B]
    );
    // The example's numbers come from rounding down.
    let down_rules = Rules {
        darkness_rounding: Rounding::Down,
        ..Rules::default()
    };
    let down = friends(Lighting::Dark, &down_rules);
    assert_eq!(down.map(|r| r.primary), [6, 5, 4, 8]);
    assert_eq!(
        TurnOrder::initial(&down, &[]).unwrap().as_slice(),
        &[D, A, B, C]
    );
}

#[test]
fn e31_edward_joins_the_fray() {
    // L2037–2041: order "Burgiss, Alfredo, Charles, Devon. Edward … Level 3 Visual and Level
    // 4 Audio Sensors, which in darkness provide an effective Perception of 5. His Locomotion
    // is 4 and his current Inspiration is 1." He loses to Burgiss on Inspiration, to Alfredo
    // on Perception, beats Charles: third. Erratum (A5): this needs rounding down.
    let down_rules = Rules {
        darkness_rounding: Rounding::Down,
        ..Rules::default()
    };
    let r = friends(Lighting::Dark, &down_rules);
    let edward = Ranking::new(
        Senses::new(3, 4).perception(Lighting::Dark, &down_rules),
        4,
        1,
    );
    assert_eq!(edward.primary, 5);
    let mut order = TurnOrder::from_list(vec![B, A, C, D]);
    order.insert(4, &edward, &r, |_| Ordering::Less);
    assert_eq!(order.as_slice(), &[B, A, 4, C, D]);
    // With the rule (round up) Edward has 6, beats Burgiss (5) and goes to the top.
    let rules = Rules::default();
    let r = friends(Lighting::Dark, &rules);
    let edward = Ranking::new(Senses::new(3, 4).perception(Lighting::Dark, &rules), 4, 1);
    assert_eq!(edward.primary, 6);
    let mut order = TurnOrder::from_list(vec![B, A, C, D]);
    order.insert(4, &edward, &r, |_| Ordering::Less);
    assert_eq!(order.as_slice(), &[4, B, A, C, D]);
}

#[test]
fn e32_the_thugs_prepare_an_ambush_erratum() {
    // L2065: "received 4 successes … the GM assigns the Multiple Bonus cost of x1/2 giving
    // each thug +2 dice". Erratum (A4): ×½ of all 4, no Accomplish success taken; the
    // preparation is an augmenting roll under the ruling.
    let mut prep = Ledger::augmenting(4);
    assert_eq!(prep.bonus(4, Breadth::Multiple).unwrap(), 2);
    // With an Accomplish success: 3 × ½ = 1.
    let mut strict = Ledger::new(4);
    strict.accomplish(1).unwrap();
    assert_eq!(strict.bonus(3, Breadth::Multiple).unwrap(), 1);
    // L2067: "The lowest Locomotion among the Thugs is 4. The highest Stealth … is 7. The
    // ambush roll will thus be 9 dice … vs. a Target Number of 4." (A45: quoted pools are
    // totals.)
    let locomotions = [5, 4, 6, 5, 7, 5];
    let stealths = [3, 2, 4, 7, 3, 2];
    let tn = *locomotions.iter().min().unwrap();
    let dice = stealths.iter().max().unwrap() + 2;
    let ambush = Test::new(dice, tn).unwrap();
    assert_eq!((ambush.dice(), ambush.tn()), (9, 4));
    assert_eq!("Stealth".parse::<Program>().unwrap(), Program::Sneak);
}

#[test]
fn e33_the_ambush() {
    let rules = Rules::default();
    // L2071: "gets 5 successes … The first success accomplishes the action … The remaining 4
    // … Since there are 4 targets, the x1/2 Multiple modifier applies meaning all Perception
    // Saves are reduced by 2."
    let mut l = Ledger::new(5);
    l.accomplish(1).unwrap();
    let reduction = l.lower_save_tn(4, Breadth::Multiple).unwrap();
    assert_eq!(reduction, -2);
    // L2073–2079: (Perception, faces rolled, turn-order Perception, AP lost).
    let cases: [(i32, [u8; 3], i32, u32); 4] = [
        (6, [5, 9, 10], 0, 3),  // Alfredo: TN 4, no successes
        (5, [3, 7, 9], 1, 2),   // Burgiss: TN 3, 1 success
        (4, [3, 8, 10], -2, 3), // Charles: TN 2, fails all three
        (8, [1, 4, 6], 8, 0),   // Devon: TN 6, total success
    ];
    let tns = [4, 3, 2, 6];
    for ((perception, faces, order_perception, ap), tn) in cases.into_iter().zip(tns) {
        assert_eq!(ambush_save_tn(perception, 4, 4), tn);
        let save = SavingThrow::against(perception, &[reduction]).unwrap();
        assert_eq!(save.tn(), tn);
        let outcome = save.resolve(faces).unwrap().outcome;
        let s = Surprise::from_save(outcome, &rules);
        assert_eq!(perception - s.perception_loss as i32, order_perception);
        assert_eq!(s.ap_loss, ap);
        // "cannot buy Initiative" for the three surprised.
        assert_eq!(s.surprised(), ap > 0);
    }
}

#[test]
fn e34_base_action_points_in_the_alley_erratum() {
    let rules = Rules::default();
    // L2103: "outnumbered 6 to 4 … Processor + Self Awareness vs. Target Number 6 … thugs
    // … vs. Target Number 4" (6:4 is below 2:1).
    assert_eq!(combat_ap_tn(4, 6, &rules), 6);
    assert_eq!(combat_ap_tn(6, 4, &rules), 4);
    // A non-Sparked thug rolls Processor only (L2089, L2103).
    let thug = BaseActionPoints::new(4, 4, &rules).unwrap();
    // Erratum (A11): "1 Action Point per success rolled"; the rule is 1 + successes.
    assert_eq!(thug.resolve(&[1, 2, 9, 9]).unwrap(), 3);
    let as_printed = Rules {
        base_ap_plus_one: false,
        ..Rules::default()
    };
    assert_eq!(
        BaseActionPoints::new(4, 4, &as_printed)
            .unwrap()
            .resolve(&[1, 2, 9, 9])
            .unwrap(),
        2
    );
    // L2105: "reduced by 2 per failed die" — erratum (A14); the ruling is 1 per failed die
    // (L327, L2052, E33).
    let s = Surprise::from_save(SaveOutcome::PartialFailure { successes: 1 }, &rules);
    assert_eq!(s.ap_loss, 2);
}

#[test]
fn e35_alfredo_attacks_charles() {
    // L2117: "Alfredo rolls 5 successes and Charles rolls 4. Alfredo wins with 1 success. If
    // Charles hadn't defended, Alfredo would have won with 5 successes."
    let attack = Test::new(8, 6)
        .unwrap()
        .opposed_by(Opposition::new(7, 5).unwrap());
    let r = attack
        .resolve_opposed(&[1, 2, 3, 4, 5, 7, 8, 9], &[1, 2, 3, 4, 7, 8, 9])
        .unwrap();
    assert_eq!(r.result(), TestResult::Won(1));
    let alone = Test::new(8, 6)
        .unwrap()
        .resolve(&[1, 2, 3, 4, 5, 7, 8, 9])
        .unwrap();
    assert_eq!(alone.result(), TestResult::Won(5));
}

#[test]
fn e36_pay_for_turn() {
    // L2141–2143, starting from "Alfredo, Devon, Charles, and Burgiss".
    let ps = ["Alfredo", "Burgiss", "Charles", "Devon"]
        .map(|n| Participant::new(n, 5, 9))
        .to_vec();
    let mut c = Conflict::new(ps, TurnOrder::from_list(vec![A, D, C, B])).unwrap();
    // No one may pay before the first turn (L2139).
    assert!(c.pay_for_turn(&[D]).is_err());
    // Alfredo attacks, Charles defends (1 AP); Alfredo wins 5 to 4.
    c.oppose(C, 1).unwrap();
    c.end_turn(TurnOutcome::from_net(1, Some(C)));
    // "Since Alfredo won his attack he gets the first right to pay for turn, which he does".
    assert_eq!(c.pay_for_turn(&[A, D]).unwrap(), Some(A));
    assert_eq!(c.order().top(), Some(A));
    // "Charles again spends an Action Point to oppose … only 2 successes. Charles gets 4 …
    // the right to pay for turn goes to Charles. Charles does so".
    c.oppose(C, 1).unwrap();
    c.end_turn(TurnOutcome::from_net(2 - 4, Some(C)));
    assert_eq!(c.pay_for_turn(&[C, D]).unwrap(), Some(C));
    // "Charles has now spent a total of 3 Action Points."
    assert_eq!(c.participant(C).unwrap().action_points, 5 - 3);
    // "Charles now attacks Alfredo and wins with 3 net successes … he elects to pass …
    // moved to the bottom … right below Alfredo."
    c.end_turn(TurnOutcome::from_net(3, Some(A)));
    assert_eq!(c.order().as_slice(), &[D, B, A, C]);
    // "Both Burgiss and Alfredo decide to pay for turn. Since Burgiss is higher … Alfredo
    // remains where he is (without spending any points). The Turn Order is now Burgiss,
    // Devon, Alfredo, Charles."
    assert_eq!(c.pay_for_turn(&[A, B]).unwrap(), Some(B));
    assert_eq!(c.order().as_slice(), &[B, D, A, C]);
    assert_eq!(c.participant(A).unwrap().action_points, 5 - 1);
    assert_eq!(c.participant(B).unwrap().action_points, 5 - 1);
}

#[test]
fn e37_perception_save_to_react() {
    // L2154: "He gets two successes, which means there will be an additional 1 Action Point
    // cost in addition to the normal 1 Action Point cost to make an opposed roll."
    let save = SavingThrow::new(6).unwrap();
    let outcome = save.resolve([2, 5, 9]).unwrap().outcome;
    let reaction = Reaction::from_save(outcome);
    assert_eq!(reaction, Reaction::ExtraCost(1));
    assert_eq!(reaction.opposing_cost(), Some(2));
    // Total Failure: "No Action Point is spent".
    assert_eq!(
        Reaction::from_save(SaveOutcome::TotalFailure).opposing_cost(),
        None
    );
}

#[test]
fn e38_charles_replenishes() {
    // L2166: "Charles wins the defense by 2 successes … Charles replenishes his stock of
    // Action Points by 2 points."
    let defence = Test::new(7, 5)
        .unwrap()
        .opposed_by(Opposition::new(8, 6).unwrap());
    let r = defence
        .resolve_opposed(&[1, 2, 3, 4, 5, 9, 9], &[1, 2, 3, 9, 9, 9, 9, 9])
        .unwrap();
    assert_eq!(r.result(), TestResult::Won(2));
    let ps = vec![
        Participant::new("Alfredo", 3, 9),
        Participant::new("Charles", 1, 9),
    ];
    let mut c = Conflict::new(ps, TurnOrder::from_list(vec![0, 1])).unwrap();
    let mut l = Ledger::augmenting(2);
    assert_eq!(c.regain(1, &mut l, 2).unwrap(), 3);
    assert_eq!(l.left(), 0);
}

#[test]
fn e40_expected_successes_guideline() {
    // L2489: "rolling 8 dice vs. a TN of 6 gives just under 5 successes".
    let e = expected_successes(8, 6);
    assert!((e - 8.0 * 6.0 / 10.0).abs() < 1e-12);
    assert!(e < 5.0 && e > 4.5);
    // The exact mean agrees.
    let d = Test::new(8, 6).unwrap().distribution().unwrap();
    assert!((d.mean() - e).abs() < 1e-12);
}

#[test]
fn e41_compound_action_of_four() {
    // L2513: "1 success, rises … 1 draws the sword, 1 hurls the insults and triggers a
    // Processor Save, and 1 lands the attack" — 4 successes needed, Difficulty 3 in effect
    // (L2497–2499).
    assert_eq!(difficulty_for(4), 3);
    let mut l = Ledger::new(4);
    l.accomplish(4).unwrap();
    assert!(Ledger::new(3).accomplish(4).is_err());
}

#[test]
fn quoted_attribute_tn_defaults() {
    // L1420: "When fighting, this is Articulation for attacking and Locomotion for
    // defending."
    use dice_robots_and_rapiers::CombatAction;
    assert_eq!(CombatAction::MeleeAttack.test().1, Attribute::Articulation);
    assert_eq!(CombatAction::MeleeDefence.test().1, Attribute::Locomotion);
}
