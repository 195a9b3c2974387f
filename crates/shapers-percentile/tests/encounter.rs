//! Whole fights: the exact law of a fight against a brute-force enumeration of every die
//! face (melee from the first round, a charge across the gap, a chase under fire), played
//! fights against the exact law, the turn structure, movement, aiming, range bands and
//! cover, and the shipped scene.

use std::collections::BTreeMap;
use std::sync::Mutex;

use dice_core::{Encounter, EncounterLimits, Ending, Exact, PlayOut, Policy, end_law, play};
use dice_shapers_percentile::{
    Action, Aim, Armour, Attack, AttackKind, AttackOutcome, Combatant, Damage, Defence,
    DefenceAptitude, Error, Fight, FightState, Location, Movement, Rules, Scene, Skirmish, Speed,
    StandardTactics, Test, Victory, Weapon,
};
use dice_testkit::{as_map, check, check_rolls, histogram, rng};

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/duel.toml");

/// "Charging into combat | +10 |" (L40).
const CHARGE: i32 = 10;
/// "Spend a round aiming | +10 |" (L54).
const AIMING: i32 = 10;
/// "Target is behind medium cover (example: a wooden fence) | -20 |" (L62).
const FENCE: i32 = -20;
/// The ogre's Size 14 − 10 (L55), the bow's standing modifier in the shipped scene.
const OGRE_SIZE: i32 = 4;

/// The range band modifier of a shot at `d` metres with a weapon of listed range `listed`,
/// read off the ranged table (L51, L53, L56, L60, L64): the first "up to" bound that holds;
/// `None` beyond triple the listed range (PC-A8).
fn band(d: i32, listed: i32) -> Option<i32> {
    if 10 * d <= listed {
        Some(20)
    } else if 2 * d <= listed {
        Some(10)
    } else if d <= listed {
        Some(0)
    } else if d <= 2 * listed {
        Some(-20)
    } else if d <= 3 * listed {
        Some(-40)
    } else {
        None
    }
}

/// Ada against the ogre alone (the shipped scene without Bram), with less Health and the
/// ogre's Mental Agility raised so that Initiative can go either way, ties included. With
/// `engaged` Ada starts 2 m from the ogre; otherwise 10 m off, as shipped.
fn ada_and_the_ogre(ada_health: i32, ogre_health: i32, engaged: bool) -> Scene {
    let mut scene = Scene::duel();
    scene.combatants.remove(1);
    scene.combatants[0].health = ada_health;
    scene.combatants[1].health = ogre_health;
    scene.combatants[1].mental_agility = 13; // PA + MA 19 against Ada's 21
    if engaged {
        scene.combatants[0].position = 33;
    }
    scene
}

/// Bram against the ogre alone, 35 m apart, the ogre behind his fence, with the ogre's
/// Mental Agility raised as above (19 against Bram's 21).
fn bram_and_the_ogre(bram_health: i32, ogre_health: i32) -> Scene {
    let mut scene = Scene::duel();
    scene.combatants.remove(0);
    scene.combatants[0].health = bram_health;
    scene.combatants[1].health = ogre_health;
    scene.combatants[1].mental_agility = 13;
    scene
}

/// P(the first of two combatants acts first): every pair of d10s added to their PA + MA;
/// a tie is rolled off on d10s, re-rolled while equal, so each goes first with 1/2.
fn p_first(a: i32, b: i32) -> f64 {
    let mut p = 0.0;
    for x in 1..=10 {
        for y in 1..=10 {
            p += match (x + a).cmp(&(y + b)) {
                std::cmp::Ordering::Greater => 0.01,
                std::cmp::Ordering::Equal => 0.005,
                std::cmp::Ordering::Less => 0.0,
            };
        }
    }
    p
}

type Law = BTreeMap<(i32, i32), f64>;

/// The law of (damage to the target, damage to the attacker) of one attack, by enumerating
/// every face: the attacker's d100, the defender's d100 when opposed, and the hit-location
/// d100 of a hit or a counter-attack, each resolved with the pure forms.
fn brute_swing(
    attack: &Attack,
    hit: impl Fn(Location) -> Damage,
    counter: Option<&dyn Fn(Location) -> Damage>,
    rules: &Rules,
) -> Law {
    let mut law = BTreeMap::new();
    let opposed = attack.dice() == 2;
    let defender_faces: Vec<u8> = if opposed {
        (1..=100).collect()
    } else {
        vec![0]
    };
    let per = 1.0 / (100.0 * defender_faces.len() as f64 * 100.0);
    for a in 1..=100u8 {
        for &d in &defender_faces {
            let faces: Vec<u8> = if opposed { vec![a, d] } else { vec![a] };
            let outcome = attack.resolve(&faces).unwrap().outcome;
            for loc in 1..=100u8 {
                let l = Location::from_roll(loc).unwrap();
                let pair = match (outcome, counter) {
                    (AttackOutcome::Hit { bonus }, _) => (hit(l).dealt(bonus, rules), 0),
                    (AttackOutcome::CounterAttack { bonus }, Some(c)) => {
                        (0, c(l).dealt(bonus, rules))
                    }
                    _ => (0, 0),
                };
                *law.entry(pair).or_insert(0.0) += per;
            }
        }
    }
    law
}

/// Ada's axe: 7 + PS 13 + the bonus, against the ogre's hide (2 everywhere) and PF 11.
fn axe(_: Location) -> Damage {
    Damage::new(AttackKind::Melee, 7, 13, 12)
        .unwrap()
        .against(2, 11)
        .unwrap()
}

/// The ogre's fists: 3 + PS 18 + the bonus, against Ada's armour 1 and PF 9.
fn fists_on_ada(_: Location) -> Damage {
    Damage::new(AttackKind::Melee, 3, 18, 6)
        .unwrap()
        .against(1, 9)
        .unwrap()
}

/// The ogre's fists on Bram: his jerkin (2) covers the Body only; PF 8.
fn fists_on_bram(l: Location) -> Damage {
    let armour = if l == Location::Body { 2 } else { 0 };
    Damage::new(AttackKind::Melee, 3, 18, 6)
        .unwrap()
        .against(armour, 8)
        .unwrap()
}

/// Bram's bow: 6 + PA 10 + the bonus, against the ogre's hide and PF 11.
fn bow(_: Location) -> Damage {
    Damage::new(AttackKind::Ranged, 6, 9, 10)
        .unwrap()
        .against(2, 11)
        .unwrap()
}

/// Ada's axe on the ogre and the ogre's fists on Ada, built by hand from the chapter, plain
/// and charging: the TN is 50 plus PA plus Aptitude plus the Difference in Size (the ogre
/// is 4 sizes larger: +4 for Ada, −4 for him), +10 for a charge; each parries with their
/// Melee Aptitude (the higher TN); a loss by 30 or more lets the other hit back.
fn ada_and_ogre_laws(rules: &Rules) -> [Law; 4] {
    let ada_parry = Test::new(12, 8, 0, rules).unwrap(); // TN 70 (Dodge: 67)
    let ogre_parry = Test::new(6, 15, 0, rules).unwrap(); // TN 71 (Dodge: 56)
    let ada = |extra: i32| {
        Attack::new(
            Test::new(12, 8, 4 + extra, rules).unwrap(),
            Defence::Opposed(ogre_parry),
            AttackKind::Melee,
            rules,
        )
        .unwrap()
    };
    let ogre = |extra: i32| {
        Attack::new(
            Test::new(6, 15, -4 + extra, rules).unwrap(),
            Defence::Opposed(ada_parry),
            AttackKind::Melee,
            rules,
        )
        .unwrap()
    };
    [
        brute_swing(&ada(0), axe, Some(&fists_on_ada), rules),
        brute_swing(&ogre(0), fists_on_ada, Some(&axe), rules),
        brute_swing(&ada(CHARGE), axe, Some(&fists_on_ada), rules),
        brute_swing(&ogre(CHARGE), fists_on_ada, Some(&axe), rules),
    ]
}

/// (first combatant's Health, second's Health, first combatant acts first?, the ogre's
/// position) → mass.
type Mass = BTreeMap<(i32, i32, bool, i32), f64>;

/// Applies one attack's law to the mass, attacker `0` or `1`, the ogre then at `at`.
fn apply(m: f64, key: (i32, i32, bool, i32), who: usize, law: &Law, at: i32, out: &mut Mass) {
    let (a, o, first, _) = key;
    for (&(to_target, to_attacker), &p) in law {
        let (na, no) = if who == 0 {
            ((a - to_attacker).max(0), (o - to_target).max(0))
        } else {
            ((a - to_target).max(0), (o - to_attacker).max(0))
        };
        *out.entry((na, no, first, at)).or_insert(0.0) += m * p;
    }
}

/// Pushes the mass through rounds, `turn(key, who)` giving each turn's law (or a move),
/// and compares the ends and the rounds law with `end_law`.
fn push_and_compare(
    fight: &Fight,
    start: Mass,
    mut turn: impl FnMut(&(i32, i32, bool, i32), usize, u32) -> Turn,
) {
    let law = end_law(fight, EncounterLimits::default()).unwrap();
    let mut mass = start;
    let (mut first_wins, mut second_wins) = (0.0, 0.0);
    let mut when: BTreeMap<u32, f64> = BTreeMap::new();
    for round in 1..=10_000u32 {
        for slot in 0..2 {
            let mut next = Mass::new();
            for (&key, &m) in &mass {
                let (a, o, first, _) = key;
                // Combatant 0 acts in slot 0 when first, in slot 1 otherwise.
                let who = if first == (slot == 0) { 0 } else { 1 };
                if a == 0 || o == 0 {
                    *next.entry(key).or_insert(0.0) += m;
                    continue;
                }
                match turn(&key, who, round) {
                    Turn::Attack(law) => apply(m, key, who, &law, key.3, &mut next),
                    Turn::Charge(law, to) => apply(m, key, who, &law, to, &mut next),
                    Turn::MoveOgre(to) => {
                        *next.entry((a, o, first, to)).or_insert(0.0) += m;
                    }
                }
            }
            mass = next;
        }
        let mut left = Mass::new();
        for (k, v) in mass {
            match k {
                (0, _, _, _) => {
                    second_wins += v;
                    *when.entry(round).or_insert(0.0) += v;
                }
                (_, 0, _, _) => {
                    first_wins += v;
                    *when.entry(round).or_insert(0.0) += v;
                }
                _ => *left.entry(k).or_insert(0.0) += v,
            }
        }
        mass = left;
        // What is left can no longer move any probability by 1e-15.
        if mass.values().sum::<f64>() < 1e-15 {
            break;
        }
    }
    let got_first = law.ends.probability(&Victory { side: 0 });
    let got_second = law.ends.probability(&Victory { side: 1 });
    assert!(
        (got_first - first_wins).abs() < 1e-9,
        "{got_first} vs {first_wins}"
    );
    assert!(
        (got_second - second_wins).abs() < 1e-9,
        "{got_second} vs {second_wins}"
    );
    assert!((law.ends.total() - 1.0).abs() < 1e-9);
    for (r, p) in law.rounds.iter() {
        let q = when.get(r).copied().unwrap_or(0.0);
        assert!((p - q).abs() < 1e-9, "round {r}: {p} vs {q}");
    }
}

/// A turn of the brute force: an attack's law; the ogre's charge (his move to a position,
/// then the attack's law); or the ogre's move.
enum Turn {
    Attack(Law),
    Charge(Law, i32),
    MoveOgre(i32),
}

#[test]
fn one_on_one_matches_every_face_pushed_forward() {
    let rules = Rules::default();
    let [ada, ogre, ada_charge, ogre_charge] = ada_and_ogre_laws(&rules);
    let p = p_first(21, 19);
    for engaged in [true, false] {
        for (ha, ho) in [(20, 25), (12, 9), (30, 30)] {
            let fight = Fight::new(&ada_and_the_ogre(ha, ho, engaged), &rules).unwrap();
            let start = Mass::from([((ha, ho, true, 35), p), ((ha, ho, false, 35), 1.0 - p)]);
            // 10 m apart, whoever acts first in the first round charges (10 ≤ running
            // speed 12 + reach 2, L14) and the other then stands within reach.
            push_and_compare(&fight, start, |&(_, _, first, _), who, round| {
                let charging = !engaged && round == 1 && first == (who == 0);
                Turn::Attack(match (who, charging) {
                    (0, false) => ada.clone(),
                    (1, false) => ogre.clone(),
                    (0, true) => ada_charge.clone(),
                    _ => ogre_charge.clone(),
                })
            });
        }
    }
}

#[test]
fn a_chase_under_fire_matches_every_face_pushed_forward() {
    // The ogre, 35 m from Bram, runs 12 m a round toward him while 12 m would leave him
    // out of charging distance (running speed 12 + reach 2), then charges (+10) to 2 m and
    // fights. Bram shoots every turn: the range band of the distance (listed range 30 m),
    // the fence (−20) while the ogre still stands behind it at 35 m, his Size (+4). The
    // ogre Dodges (PA 6 + 0: TN 56) until Bram shoots from within his reach, when he
    // parries with Melee (Unarmed) (TN 71, L21). Bram Dodges the fists (PA 10 + 6: TN 66)
    // and has no melee weapon to counter-attack with.
    let rules = Rules::default();
    let dodge = Test::new(6, 0, 0, &rules).unwrap();
    let parry = Test::new(6, 15, 0, &rules).unwrap();
    let mut shots: BTreeMap<i32, Law> = BTreeMap::new();
    let mut shot = |at: i32| -> Law {
        shots
            .entry(at)
            .or_insert_with(|| {
                let cover = if at == 35 { FENCE } else { 0 };
                let modifier = OGRE_SIZE + band(at, 30).expect("within triple range") + cover;
                let defence = if at <= 2 { parry } else { dodge };
                let attack = Attack::new(
                    Test::new(10, 12, modifier, &rules).unwrap(),
                    Defence::Opposed(defence),
                    AttackKind::Ranged,
                    &rules,
                )
                .unwrap();
                brute_swing(&attack, bow, None, &rules)
            })
            .clone()
    };
    let fists = |extra: i32| {
        let attack = Attack::new(
            Test::new(6, 15, -4 + extra, &rules).unwrap(),
            Defence::Opposed(Test::new(10, 6, 0, &rules).unwrap()),
            AttackKind::Melee,
            &rules,
        )
        .unwrap();
        brute_swing(&attack, fists_on_bram, None, &rules)
    };
    let (plain, charge) = (fists(0), fists(CHARGE));
    let p = p_first(21, 19);
    for (hb, ho) in [(24, 30), (12, 20)] {
        let fight = Fight::new(&bram_and_the_ogre(hb, ho), &rules).unwrap();
        let start = Mass::from([((hb, ho, true, 35), p), ((hb, ho, false, 35), 1.0 - p)]);
        push_and_compare(&fight, start, |&(_, _, _, at), who, _| {
            if who == 0 {
                return Turn::Attack(shot(at));
            }
            if at <= 2 {
                Turn::Attack(plain.clone())
            } else if at <= 2 + 12 {
                // The charge: the attack is made from 2 m, where the ogre then stays.
                Turn::Charge(charge.clone(), 2)
            } else {
                Turn::MoveOgre(at - 12)
            }
        });
    }
}

#[test]
fn one_round_of_the_duel_matches_every_face() {
    // From a set Turn Order (Ada, Bram, the ogre), Ada 2 m from the ogre, one round: Ada's
    // axe, Bram's arrow from 35 m (long range −20, the fence −20, Size +4; the ogre
    // Dodges, PA 6 + Dodge 0), the ogre's fists on Ada (Ada parries). Should Ada fall
    // before the ogre's turn, he runs 12 m toward Bram instead.
    let rules = Rules::default();
    let mut scene = Scene::duel();
    scene.combatants[0].position = 33;
    let fight = Fight::new(&scene, &rules).unwrap();
    let [ada, ogre, _, _] = ada_and_ogre_laws(&rules);
    let arrow = Attack::new(
        Test::new(10, 12, OGRE_SIZE - 20 + FENCE, &rules).unwrap(),
        Defence::Opposed(Test::new(6, 0, 0, &rules).unwrap()),
        AttackKind::Ranged,
        &rules,
    )
    .unwrap();
    let bram = brute_swing(&arrow, bow, None, &rules);
    for (start, order) in [
        ([30, 24, 50], vec![0u8, 1, 2]),
        ([9, 24, 12], vec![2, 0, 1]),
        ([5, 24, 40], vec![0, 1, 2]),
    ] {
        let state = FightState {
            health: start.to_vec(),
            order: order.clone(),
            ..fight.start()
        };
        // Every branch pushed through the three turns by hand: (Health, the ogre's spot).
        let mut mass: BTreeMap<(Vec<i32>, i32), f64> =
            BTreeMap::from([((start.to_vec(), 35), 1.0)]);
        for &who in &order {
            let mut next = BTreeMap::new();
            for ((h, at), m) in mass {
                let up = |i: usize| h[i] > 0;
                if !up(usize::from(who)) || !up(2) || !(up(0) || up(1)) {
                    *next.entry((h, at)).or_insert(0.0) += m;
                    continue;
                }
                let (law, attacker, target) = match who {
                    0 => (&ada, 0, 2),
                    1 => (&bram, 1, 2),
                    _ if up(0) => (&ogre, 2, 0),
                    _ => {
                        *next.entry((h, at - 12)).or_insert(0.0) += m;
                        continue;
                    }
                };
                for (&(t, a), &p) in law {
                    let mut n = h.clone();
                    n[target] = (n[target] - t).max(0);
                    n[attacker] = (n[attacker] - a).max(0);
                    *next.entry((n, at)).or_insert(0.0) += m * p;
                }
            }
            mass = next;
        }
        let exact = fight.round_law(&state).unwrap();
        assert!((exact.total() - 1.0).abs() < 1e-12);
        let mut seen = 0.0;
        for (s, p) in exact.iter() {
            let q = mass
                .get(&(s.health.clone(), s.position[2]))
                .copied()
                .unwrap_or(0.0);
            assert!((p - q).abs() < 1e-12, "{s}: {p} vs {q}");
            seen += q;
            // Those out of the fight leave the Turn Order; an ended fight keeps none.
            let kept: Vec<u8> = if fight.end(s).is_some() {
                vec![]
            } else {
                order
                    .iter()
                    .copied()
                    .filter(|&i| s.health[usize::from(i)] > 0)
                    .collect()
            };
            assert_eq!(s.order, kept);
            assert_eq!(&s.position[..2], &[33, 0]);
        }
        assert!((seen - 1.0).abs() < 1e-12);
    }
}

#[test]
fn the_first_round_rolls_initiative_with_the_turn_order_law() {
    // Ada 2 m from the ogre: from full Health nobody can fall before their turn, nobody
    // moves, and each combatant's attack (its target, its TN, its damage) is the same
    // whoever goes first. So the chance that the round leaves everyone untouched is the
    // same for every Turn Order, and among those states the orders keep the Turn Order's
    // own law.
    let mut scene = Scene::duel();
    scene.combatants[0].position = 33;
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    let law = fight.round_law(&fight.start()).unwrap();
    let orders = fight.turn_order().distribution().unwrap();
    let untouched: Vec<(Vec<u8>, f64)> = law
        .iter()
        .filter(|(s, _)| s.health == [30, 24, 50])
        .map(|(s, p)| (s.order.clone(), p))
        .collect();
    assert!(!untouched.is_empty());
    let total: f64 = untouched.iter().map(|(_, p)| p).sum();
    for (o, p) in untouched {
        let q = orders.probability(&dice_shapers_percentile::Order(
            o.iter().map(|&i| usize::from(i)).collect(),
        ));
        assert!((p / total - q).abs() < 1e-12, "{o:?}: {} vs {q}", p / total);
    }
}

#[test]
fn played_fights_agree_with_the_exact_law() {
    // Whole fights, 20,000 of each (a fight is some twenty attacks), every end within 5
    // standard errors of the exact law; then single rounds, 100,000 of them.
    const FIGHTS: u64 = 20_000;
    let fight = Fight::new(&ada_and_the_ogre(20, 25, false), &Rules::default()).unwrap();
    let run = PlayOut::new(fight, 200).unwrap();
    let exact = run.distribution().unwrap();
    let mut r = rng(11);
    let seen = histogram(FIGHTS, || dice_core::Roll::roll(&run, &mut r));
    check(&seen, &as_map(&exact), FIGHTS);
    let duel = PlayOut::new(Fight::new(&Scene::duel(), &Rules::default()).unwrap(), 200).unwrap();
    let exact = duel.distribution().unwrap();
    assert!(exact.probability(&Ending::Capped) < 1e-12);
    let mut r = rng(12);
    let seen = histogram(FIGHTS, || dice_core::Roll::roll(&duel, &mut r));
    check(&seen, &as_map(&exact), FIGHTS);
    // A round played from a state with everyone placed and an aim held: every state the
    // exact round law gives, at its rate.
    let fight = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let s = FightState {
        health: vec![9, 24, 30],
        order: vec![1, 2, 0],
        position: vec![0, 0, 13],
        aiming: vec![(1, 2)],
    };
    let law = fight.round_law(&s).unwrap();
    let mut r = rng(13);
    check_rolls("a round with a charge and an aimed shot", &law, || {
        fight.play_round(&s, &mut r)
    });
}

/// A policy that records every call (who, the actions offered, the state) and answers as
/// the standard tactics do, or with a fixed answer where a turn offers it.
struct Recorder {
    calls: Mutex<Vec<(usize, Vec<Action>, FightState)>>,
    answer: Option<Action>,
}

impl Recorder {
    fn new(answer: Option<Action>) -> Self {
        Recorder {
            calls: Mutex::new(Vec::new()),
            answer,
        }
    }
}

impl Policy<FightState, Action> for Recorder {
    fn choose(&self, state: &FightState, who: usize, open: &[Action]) -> Action {
        self.calls
            .lock()
            .unwrap()
            .push((who, open.to_vec(), state.clone()));
        match self.answer {
            Some(a) if open.contains(&Action::Hold) => a,
            _ => StandardTactics.choose(state, who, open),
        }
    }
}

#[test]
fn turns_follow_the_turn_order_and_the_fallen_do_not_act() {
    for seed in 0..60 {
        let fight =
            Fight::with_policy(&Scene::duel(), &Rules::default(), Recorder::new(None)).unwrap();
        let mut r = rng(seed);
        let orders = [vec![0u8, 1, 2], vec![2, 0, 1], vec![1, 2, 0]];
        let mut state = FightState {
            order: orders[seed as usize % 3].clone(),
            ..fight.start()
        };
        while fight.end(&state).is_none() {
            let next = fight.play_round(&state, &mut r);
            let calls = std::mem::take(&mut *fight.policy().calls.lock().unwrap());
            // Turn calls (those offering Hold) come in the Turn Order, once each at most.
            let mut pos = 0;
            for (who, open, s) in calls.iter().filter(|(_, o, _)| o.contains(&Action::Hold)) {
                let at = state.order[pos..]
                    .iter()
                    .position(|&o| usize::from(o) == *who)
                    .expect("a turn out of the Turn Order");
                pos += at + 1;
                assert!(!s.is_down(*who), "a combatant out of the fight acted");
                assert!(fight.end(s).is_none(), "a turn after the fight ended");
                for a in open {
                    let target = match *a {
                        Action::Attack { target, .. }
                        | Action::Charge { target, .. }
                        | Action::TakeAim { target } => target,
                        Action::Move { toward, .. } => toward,
                        _ => continue,
                    };
                    assert!(!s.is_down(target));
                    assert_ne!(fight.side_of(target), fight.side_of(*who));
                    // The ogre cannot reach Bram, 35 m off, while Ada stands.
                    if *who == 2 && target == 1 && matches!(a, Action::Attack { .. }) {
                        assert!(s.is_down(0));
                    }
                }
            }
            // Defence calls offer only defences.
            for (_, open, _) in calls.iter().filter(|(_, o, _)| !o.contains(&Action::Hold)) {
                assert!(open.iter().all(|a| matches!(a, Action::Defend { .. })));
            }
            // Health stops at 0, and the fallen leave the Turn Order.
            assert!(next.health.iter().all(|&h| h >= 0));
            if fight.end(&next).is_none() {
                let kept: Vec<u8> = state
                    .order
                    .iter()
                    .copied()
                    .filter(|&i| next.health[usize::from(i)] > 0)
                    .collect();
                assert_eq!(next.order, kept);
            }
            state = next;
        }
    }
}

#[test]
fn an_action_not_offered_is_not_taken() {
    // Ada 2 m from the ogre. Every turn, each combatant tries to attack Ada: Bram (her own
    // side) and Ada herself may not, so only the ogre's attacks on Ada are taken.
    let wrong = Action::Attack {
        target: 0,
        aim: Aim::Rolled,
    };
    let mut scene = Scene::duel();
    scene.combatants[0].position = 33;
    let fight = Fight::with_policy(&scene, &Rules::default(), Recorder::new(Some(wrong))).unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    // Bram is never hurt (the ogre's "attack Ada" is no longer offered once she is down),
    // so the ogre never wins; he can fall to Ada's counter-attacks; with Ada down and
    // nobody allowed to attack, the fight never ends.
    assert_eq!(law.ends.probability(&Victory { side: 1 }), 0.0);
    assert!(law.ends.probability(&Victory { side: 0 }) > 0.0);
    assert!(law.ends.tail() > 0.0);
    // From 10 m the ogre's "attack Ada" is not offered at all (only a charge): nobody is
    // ever hurt.
    let fight = Fight::with_policy(
        &Scene::duel(),
        &Rules::default(),
        Recorder::new(Some(wrong)),
    )
    .unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!(law.ends.is_empty());
    // Holding every turn: nobody is ever hurt, the fight never ends.
    let fight = Fight::with_policy(
        &Scene::duel(),
        &Rules::default(),
        Recorder::new(Some(Action::Hold)),
    )
    .unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!(law.ends.is_empty());
    assert_eq!(law.ends.tail(), 1.0);
    assert_eq!(law.expected_rounds, None);
}

/// Combatant 0 takes `action` whenever it is offered, and holds otherwise; everyone else
/// holds; defences are the standard ones.
struct Scripted(Action);

impl Policy<FightState, Action> for Scripted {
    fn choose(&self, state: &FightState, who: usize, open: &[Action]) -> Action {
        if !open.contains(&Action::Hold) {
            return StandardTactics.choose(state, who, open);
        }
        if who == 0 && open.contains(&self.0) {
            self.0
        } else {
            Action::Hold
        }
    }
}

/// The one state a round of `fight` from `state` leads to (a round without dice).
fn only<P: Policy<FightState, Action>>(fight: &Fight<P>, state: &FightState) -> FightState {
    let law = fight.round_law(state).unwrap();
    assert_eq!(law.len(), 1, "{law:?}");
    law.iter().next().unwrap().0.clone()
}

#[test]
fn moves_follow_the_chapter() {
    // Ada 45 m from the ogre (walk 4, run 12, sprint 20 m a round).
    let mut scene = Scene::duel();
    scene.combatants[0].position = -10;
    let rules = Rules::default();
    let start = |f: &Fight<Scripted>| FightState {
        order: vec![0, 1, 2],
        ..f.start()
    };
    for (pace, to) in [
        (Movement::Walk, -6),
        (Movement::Run, 2),
        (Movement::Sprint, 10),
    ] {
        let fight =
            Fight::with_policy(&scene, &rules, Scripted(Action::Move { toward: 2, pace })).unwrap();
        let s = start(&fight);
        // Too far to strike: no attack, no charge.
        assert!(
            !fight
                .turn_actions(&s, 0)
                .iter()
                .any(|a| matches!(a, Action::Attack { .. } | Action::Charge { .. }))
        );
        let next = only(&fight, &s);
        assert_eq!(next.position, vec![to, 0, 35], "{pace}");
        assert_eq!(next.health, vec![30, 24, 50]);
    }
    // From 16 m a sprint stops within reach, 2 m short of the ogre (L17), with no attack.
    scene.combatants[0].position = 19;
    let sprint = Action::Move {
        toward: 2,
        pace: Movement::Sprint,
    };
    let fight = Fight::with_policy(&scene, &rules, Scripted(sprint)).unwrap();
    let next = only(&fight, &start(&fight));
    assert_eq!(next.position, vec![33, 0, 35]);
    // Within reach now: Ada may attack, but not charge (she is in melee) nor move closer.
    let open = fight.turn_actions(&next, 0);
    assert!(open.contains(&Action::Attack {
        target: 2,
        aim: Aim::Rolled
    }));
    assert!(
        !open
            .iter()
            .any(|a| matches!(a, Action::Charge { .. } | Action::Move { toward: 2, .. }))
    );
    // From 6 m she may walk up and attack (4 m + 2 m of reach), or charge (+10): the
    // standard tactics charge. Either way she ends 2 m from him.
    scene.combatants[0].position = 29;
    let fight = Fight::new(&scene, &rules).unwrap();
    let s = FightState {
        order: vec![0],
        ..fight.start()
    };
    let open = fight.turn_actions(&s, 0);
    for a in [
        Action::Attack {
            target: 2,
            aim: Aim::Rolled,
        },
        Action::Charge {
            target: 2,
            aim: Aim::Rolled,
        },
    ] {
        assert!(open.contains(&a));
    }
    assert_eq!(
        StandardTactics.choose(&s, 0, &open),
        Action::Charge {
            target: 2,
            aim: Aim::Rolled
        }
    );
    let law = fight.round_law(&s).unwrap();
    assert!(law.iter().all(|(n, _)| n.position == [33, 0, 35]));
    // The charge's swing is Ada's axe at +10 (L40): P(the ogre untouched) is the same as
    // by hand (a hit does at least 7 + 13 − 2 − 11 = 7).
    let charge = Attack::new(
        Test::new(12, 8, 4 + CHARGE, &rules).unwrap(),
        Defence::Opposed(Test::new(6, 15, 0, &rules).unwrap()),
        AttackKind::Melee,
        &rules,
    )
    .unwrap();
    let miss = 1.0
        - charge
            .distribution()
            .unwrap()
            .probability_where(AttackOutcome::is_hit);
    let untouched = law.probability_where(|n| n.health[2] == 50);
    assert!((untouched - miss).abs() < 1e-12, "{untouched} vs {miss}");
    // Without a running speed there is no charge (a charge is a run, L14).
    scene.combatants[0].speed.run = 0;
    let fight = Fight::new(&scene, &rules).unwrap();
    assert!(
        !fight
            .turn_actions(&s, 0)
            .iter()
            .any(|a| matches!(a, Action::Charge { .. }))
    );
    // A reach of 4 m (L17: "very large weapons") strikes from 4 m without stepping in, and
    // a 4 m gap is being in melee: no charge.
    let mut scene = Scene::duel();
    scene.combatants[0].weapon.reach = Some(4);
    scene.combatants[0].position = 31;
    let fight = Fight::new(&scene, &rules).unwrap();
    let s = FightState {
        order: vec![0],
        ..fight.start()
    };
    assert!(fight.turn_actions(&s, 0).contains(&Action::Attack {
        target: 2,
        aim: Aim::Rolled
    }));
    assert!(
        !fight
            .turn_actions(&s, 0)
            .iter()
            .any(|a| matches!(a, Action::Charge { .. }))
    );
    assert!(
        fight
            .round_law(&s)
            .unwrap()
            .iter()
            .all(|(n, _)| n.position[0] == 31)
    );
}

#[test]
fn shots_take_the_range_band_and_cover_from_where_they_stand() {
    // Bram's arrow at the ogre from each distance, by hand: +4 for his Size, the band of
    // the distance (listed range 30 m), the fence while he stands at 35 m; Dodge, or a parry
    // from within his reach (L21). A hit always hurts (6 + 10 − 2 − 11 = 3 or more), so
    // P(the ogre untouched) is P(miss).
    let rules = Rules::default();
    for at in [35, 34, 20, 15, 11, 3, 2] {
        let mut scene = bram_and_the_ogre(24, 50);
        scene.combatants[1].position = at;
        // The fence stands where he stands in the first case only.
        if at != 35 {
            scene.combatants[1].cover = None;
        }
        let fight = Fight::new(&scene, &rules).unwrap();
        let s = FightState {
            order: vec![0],
            ..fight.start()
        };
        let cover = if at == 35 { FENCE } else { 0 };
        let defence = if at <= 2 {
            Test::new(6, 15, 0, &rules).unwrap()
        } else {
            Test::new(6, 0, 0, &rules).unwrap()
        };
        let shot = Attack::new(
            Test::new(10, 12, OGRE_SIZE + band(at, 30).unwrap() + cover, &rules).unwrap(),
            Defence::Opposed(defence),
            AttackKind::Ranged,
            &rules,
        )
        .unwrap();
        let miss = 1.0
            - shot
                .distribution()
                .unwrap()
                .probability_where(AttackOutcome::is_hit);
        let law = fight.round_law(&s).unwrap();
        let untouched = law.probability_where(|n| n.health[1] == 50);
        assert!(
            (untouched - miss).abs() < 1e-12,
            "{at} m: {untouched} vs {miss}"
        );
    }
    // Cover is lost once the ogre leaves his spot: the same 34 m with and without the fence
    // differ, and from 35 m it counts.
    let scene = bram_and_the_ogre(24, 50);
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    let at = |p: i32| {
        let s = FightState {
            order: vec![0],
            position: vec![0, p],
            ..fight.start()
        };
        fight
            .round_law(&s)
            .unwrap()
            .probability_where(|n| n.health[1] == 50)
    };
    assert!(at(35) > at(34));
    // Beyond triple the listed range there is no shot (PC-A8): a 10 m bow at 35 m.
    let mut scene = bram_and_the_ogre(24, 50);
    scene.combatants[0].weapon.range = Some(10);
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    let open = fight.turn_actions(
        &FightState {
            order: vec![0, 1],
            ..fight.start()
        },
        0,
    );
    assert!(
        !open
            .iter()
            .any(|a| matches!(a, Action::Attack { .. } | Action::TakeAim { .. }))
    );
    assert!(open.contains(&Action::Move {
        toward: 1,
        pace: Movement::Run
    }));
}

/// Takes aim whenever it may, and otherwise plays the standard tactics.
struct Aimer;

impl Policy<FightState, Action> for Aimer {
    fn choose(&self, state: &FightState, who: usize, open: &[Action]) -> Action {
        match open.iter().find(|a| matches!(a, Action::TakeAim { .. })) {
            Some(a) => *a,
            None => StandardTactics.choose(state, who, open),
        }
    }
}

#[test]
fn a_round_spent_aiming_adds_ten_to_the_next_shot() {
    let rules = Rules::default();
    let mut scene = bram_and_the_ogre(24, 50);
    scene.combatants[1].speed = Speed::default(); // the ogre stays behind his fence
    // A round aiming: nobody hurt, the aim held.
    let aimer = Fight::with_policy(&scene, &rules, Aimer).unwrap();
    let s = FightState {
        order: vec![0, 1],
        ..aimer.start()
    };
    let next = only(&aimer, &s);
    assert_eq!(next.aiming, vec![(0, 1)]);
    assert_eq!(next.health, vec![24, 50]);
    // The next round's shot at him: +10 on the TN, by hand; the aim is spent.
    let fight = Fight::new(&scene, &rules).unwrap();
    let law = fight.round_law(&next).unwrap();
    assert!(law.iter().all(|(n, _)| n.aiming.is_empty()));
    let shot = |extra: i32| {
        Attack::new(
            Test::new(10, 12, OGRE_SIZE - 20 + FENCE + extra, &rules).unwrap(),
            Defence::Opposed(Test::new(6, 0, 0, &rules).unwrap()),
            AttackKind::Ranged,
            &rules,
        )
        .unwrap()
        .distribution()
        .unwrap()
        .probability_where(AttackOutcome::is_hit)
    };
    let hurt = law.probability_where(|n| n.health[1] < 50);
    assert!(
        (hurt - shot(AIMING)).abs() < 1e-12,
        "{hurt} vs {}",
        shot(AIMING)
    );
    assert!(shot(AIMING) > shot(0));
    // An aim not used on the next turn is lost.
    let holder = Fight::with_policy(&scene, &rules, Scripted(Action::Hold)).unwrap();
    assert!(only(&holder, &next).aiming.is_empty());
}

#[test]
fn defences_follow_the_chapter() {
    let mut scene = Scene::duel();
    // A giant 12 sizes larger than Ada: she may only Dodge (L22).
    scene.combatants[2].size = 22;
    // The ogre cannot see Bram's arrows coming (L21).
    scene.combatants[2].sees_shots_coming = false;
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    let s = fight.start();
    assert_eq!(
        fight.defences(&s, 2, 0),
        vec![Action::Defend {
            with: DefenceAptitude::Dodge,
            tn: 67
        }]
    );
    assert!(fight.defences(&s, 1, 2).is_empty());
    // Ada against the giant may still parry or Dodge.
    assert_eq!(fight.defences(&s, 0, 2).len(), 2);
    // A shot from within melee range may be parried with a Melee Aptitude (L21).
    let fight = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let near = FightState {
        position: vec![25, 33, 35],
        ..fight.start()
    };
    assert_eq!(fight.defences(&fight.start(), 1, 2).len(), 1);
    assert!(fight.defences(&near, 1, 2).contains(&Action::Defend {
        with: DefenceAptitude::MeleeUnarmed,
        tn: 71
    }));
    // The default tactics take the higher TN, Melee on a tie.
    let open = [
        Action::Defend {
            with: DefenceAptitude::Dodge,
            tn: 60,
        },
        Action::Defend {
            with: DefenceAptitude::MeleeArmed,
            tn: 60,
        },
    ];
    assert_eq!(StandardTactics.choose(&s, 0, &open), open[1]);
}

#[test]
fn the_standard_tactics_attack_the_weakest_foe_in_reach() {
    let mut scene = Scene::duel();
    scene.combatants[0].position = 33;
    let mut troll = scene.combatants[2].clone();
    troll.name = "the troll".into();
    troll.health = 20;
    scene.combatants.push(troll);
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    let s = FightState {
        health: vec![30, 24, 50, 20],
        order: vec![0, 1, 2, 3],
        ..fight.start()
    };
    let open = fight.turn_actions(&s, 0);
    assert_eq!(
        StandardTactics.choose(&s, 0, &open),
        Action::Attack {
            target: 3,
            aim: Aim::Rolled
        }
    );
    // Two brutes against Ada alone in the melee (Bram stands 35 m off): +20 to their TN
    // and +2 damage (L41, L66–67), as the exact law of the round shows: the ogre's swing
    // from 2-against-1 is the swing of a lone ogre with +20 and +2.
    let rules = Rules::default();
    let mut one = Scene::duel();
    one.combatants[0].position = 33;
    let alone = Fight::new(&one, &Rules::default()).unwrap();
    let with_troll = FightState {
        order: vec![2],
        ..s.clone()
    };
    let two = fight.round_law(&with_troll).unwrap();
    let one = alone
        .round_law(&FightState {
            order: vec![2],
            ..alone.start()
        })
        .unwrap();
    assert!(
        two.probability_where(|s| s.health[0] < 30) > one.probability_where(|s| s.health[0] < 30)
    );
    let fists = Attack::new(
        Test::new(6, 15, -4 + 20, &rules).unwrap(),
        Defence::Opposed(Test::new(12, 8, 0, &rules).unwrap()),
        AttackKind::Melee,
        &rules,
    )
    .unwrap();
    let p_hit = fists
        .distribution()
        .unwrap()
        .probability_where(AttackOutcome::is_hit);
    assert!((two.probability_where(|s| s.health[0] < 30) - p_hit).abs() < 1e-12);
    // With Bram beside Ada, 2 m from the brutes too, the ogre goes for Bram (Health 24,
    // the weaker, now in reach) two against two: no bonus; Bram Dodges (PA 10 + 6).
    let even = FightState {
        position: vec![33, 33, 35, 35],
        ..with_troll
    };
    let lone = Attack::new(
        Test::new(6, 15, -4, &rules).unwrap(),
        Defence::Opposed(Test::new(10, 6, 0, &rules).unwrap()),
        AttackKind::Melee,
        &rules,
    )
    .unwrap()
    .distribution()
    .unwrap()
    .probability_where(AttackOutcome::is_hit);
    let law = fight.round_law(&even).unwrap();
    assert_eq!(law.probability_where(|s| s.health[0] < 30), 0.0);
    assert!((law.probability_where(|s| s.health[1] < 24) - lone).abs() < 1e-12);
}

#[test]
fn the_shipped_scene_loads_plays_and_its_odds_sum_to_one() {
    let text = std::fs::read_to_string(DUEL).unwrap();
    let scene: Scene = toml::from_str(&text).unwrap();
    assert_eq!(scene, Scene::duel());
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    let played = play(&fight, &mut rng(1), 1_000);
    assert!(played.end.is_some());
    assert!(played.rounds() >= 1);
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!((law.ends.total() - 1.0).abs() < 1e-9);
    assert_eq!(law.ends.tail(), 0.0);
    assert!(law.states < 5_000, "{} states", law.states);
    let shapers = law.ends.probability(&Victory { side: 0 });
    assert!(shapers > 0.0 && shapers < 1.0);
    assert_eq!(fight.end_name(&Victory { side: 0 }), "the shapers win");
}

#[test]
fn bad_scenes_are_refused_with_the_crates_errors() {
    // An unknown field.
    let text = std::fs::read_to_string(DUEL)
        .unwrap()
        .replace("dodge = 5", "dodgy = 5");
    assert!(toml::from_str::<Scene>(&text).is_err());
    // One side only.
    let mut scene = Scene::duel();
    scene.combatants.pop();
    assert!(matches!(
        Fight::new(&scene, &Rules::default()),
        Err(Error::Scene { .. })
    ));
    // Already out of the fight.
    let mut scene = Scene::duel();
    scene.combatants[0].health = 0;
    let e = Fight::new(&scene, &Rules::default()).unwrap_err();
    assert!(e.to_string().contains("Ada"), "{e}");
    // A number beyond the guard.
    let mut scene = Scene::duel();
    scene.combatants[1].weapon.modifier = 20_000;
    assert!(matches!(
        Fight::new(&scene, &Rules::default()),
        Err(Error::OutOfRange { .. })
    ));
    // A listed range on an axe, a reach on a bow, a listed range of 0, a negative speed.
    let mut scene = Scene::duel();
    scene.combatants[0].weapon.range = Some(10);
    let e = Fight::new(&scene, &Rules::default()).unwrap_err();
    assert!(e.to_string().contains("axe"), "{e}");
    let mut scene = Scene::duel();
    scene.combatants[1].weapon.reach = Some(3);
    assert!(matches!(
        Fight::new(&scene, &Rules::default()),
        Err(Error::Scene { .. })
    ));
    let mut scene = Scene::duel();
    scene.combatants[1].weapon.range = Some(0);
    assert!(matches!(
        Fight::new(&scene, &Rules::default()),
        Err(Error::OutOfRange { .. })
    ));
    let mut scene = Scene::duel();
    scene.combatants[2].speed.run = -1;
    assert!(matches!(
        Fight::new(&scene, &Rules::default()),
        Err(Error::OutOfRange { .. })
    ));
    // Nobody at all.
    let scene = Scene {
        combatants: vec![],
        ..Scene::duel()
    };
    assert!(Fight::new(&scene, &Rules::default()).is_err());
}

#[test]
fn armour_follows_the_hit_location() {
    // Bram's jerkin covers his Body only: the ogre's fists on Bram, 2 m off once Ada is
    // down, do 3 + 18 + bonus − 8, less 2 on the Body (30 % of hits).
    let fight = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let s = FightState {
        health: vec![0, 24, 50],
        order: vec![2, 1],
        position: vec![25, 0, 2],
        aiming: vec![],
    };
    let law = fight.round_law(&s).unwrap();
    // Every Health Bram ends the round on is 24, or 24 − (13 + bonus), or 24 − (11 + bonus).
    let mut lost_body = false;
    for (st, _) in law.iter() {
        let lost = 24 - st.health[1];
        assert!(lost == 0 || lost >= 11, "{st}");
        lost_body |= lost == 11;
    }
    assert!(lost_body);
    let jerkin = Armour {
        body: Some(2),
        ..Armour::default()
    };
    assert_eq!(jerkin.at(Location::Body), 2);
    assert_eq!(jerkin.at(Location::Head), 0);
    // Passive defence plays without defence rolls.
    let mut scene = Scene::duel();
    scene.passive_defence = true;
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!((law.ends.total() - 1.0).abs() < 1e-9);
    let _ = Combatant::new("x", "y", 1, Weapon::new("w", AttackKind::Melee, 0, 0));
}

/// P(a shot or a swing misses): 1 − P(hit) of the attack built by hand.
fn miss(tn_mod: i32, pa: i32, aptitude: i32, defence: Test, kind: AttackKind) -> f64 {
    let rules = Rules::default();
    1.0 - Attack::new(
        Test::new(pa, aptitude, tn_mod, &rules).unwrap(),
        Defence::Opposed(defence),
        kind,
        &rules,
    )
    .unwrap()
    .distribution()
    .unwrap()
    .probability_where(AttackOutcome::is_hit)
}

/// "Shooting while you or your mount is jogging | -10 |" (L57).
const JOGGING_SHOT: i32 = -10;

#[test]
fn jogging_attacks_take_their_penalty() {
    let rules = Rules::default();
    // Bram jogs 8 m toward the ogre (35 m off, behind his fence) and shoots from 27 m:
    // normal range (0) instead of long (−20), less 10 for the jog (L57). The ogre Dodges.
    let mut scene = bram_and_the_ogre(24, 50);
    scene.combatants[1].speed = Speed::default();
    let jog = Action::JogAttack {
        target: 1,
        aim: Aim::Rolled,
    };
    let fight = Fight::with_policy(&scene, &rules, Scripted(jog)).unwrap();
    let s = FightState {
        order: vec![0, 1],
        ..fight.start()
    };
    assert!(fight.turn_actions(&s, 0).contains(&jog));
    let law = fight.round_law(&s).unwrap();
    assert!(law.iter().all(|(n, _)| n.position == [8, 35]));
    let by_hand = miss(
        OGRE_SIZE + band(27, 30).unwrap() + FENCE + JOGGING_SHOT,
        10,
        12,
        Test::new(6, 0, 0, &rules).unwrap(),
        AttackKind::Ranged,
    );
    let untouched = law.probability_where(|n| n.health[1] == 50);
    assert!(
        (untouched - by_hand).abs() < 1e-12,
        "{untouched} vs {by_hand}"
    );
    // Without a jogging speed there is no jog.
    let mut still = scene.clone();
    still.combatants[0].speed.jog = 0;
    let fight = Fight::new(&still, &rules).unwrap();
    assert!(!fight.turn_actions(&s, 0).contains(&jog));
    // Ada 10 m from the ogre: a melee jog attack only when the scene gives its penalty
    // (the melee chart has none, PC-A12); then she jogs to 2 m and swings at it.
    let mut scene = ada_and_the_ogre(30, 50, false);
    scene.combatants[1].speed = Speed::default();
    let jog = Action::JogAttack {
        target: 1,
        aim: Aim::Rolled,
    };
    let fight = Fight::with_policy(&scene, &rules, Scripted(jog)).unwrap();
    let s = FightState {
        order: vec![0, 1],
        ..fight.start()
    };
    assert!(!fight.turn_actions(&s, 0).contains(&jog));
    scene.melee_jogging_penalty = Some(-15);
    let fight = Fight::with_policy(&scene, &rules, Scripted(jog)).unwrap();
    assert!(fight.turn_actions(&s, 0).contains(&jog));
    let law = fight.round_law(&s).unwrap();
    assert!(law.iter().all(|(n, _)| n.position == [33, 35]));
    // PA 12 + Melee 8, the ogre 4 sizes larger, −15 for the jog; he parries (TN 71).
    let by_hand = miss(
        4 - 15,
        12,
        8,
        Test::new(6, 15, 0, &rules).unwrap(),
        AttackKind::Melee,
    );
    let untouched = law.probability_where(|n| n.health[1] == 50);
    assert!(
        (untouched - by_hand).abs() < 1e-12,
        "{untouched} vs {by_hand}"
    );
    // 12 m off is beyond jogging speed + reach.
    scene.combatants[0].position = 23;
    let fight = Fight::with_policy(&scene, &rules, Scripted(jog)).unwrap();
    assert!(!fight.turn_actions(&fight.start(), 0).contains(&jog));
}

#[test]
fn falling_back_moves_away_within_the_field() {
    let rules = Rules::default();
    // Ada 2 m from the ogre runs 12 m away, sprints 20 m; walking 4 m.
    let mut scene = Scene::duel();
    scene.combatants[0].position = 33;
    for (pace, to) in [
        (Movement::Walk, 29),
        (Movement::Jog, 25),
        (Movement::Run, 21),
        (Movement::Sprint, 13),
    ] {
        let back = Action::Retreat {
            from: 2,
            pace,
            shot: None,
        };
        let fight = Fight::with_policy(&scene, &rules, Scripted(back)).unwrap();
        let s = FightState {
            order: vec![0],
            ..fight.start()
        };
        assert!(fight.turn_actions(&s, 0).contains(&back), "{pace}");
        assert_eq!(only(&fight, &s).position, vec![to, 0, 35], "{pace}");
        // A melee fighter falling back has no shot.
        assert!(
            !fight
                .turn_actions(&s, 0)
                .iter()
                .any(|a| matches!(a, Action::Retreat { shot: Some(_), .. }))
        );
    }
    // Bram at 0 stands at the end of the field (the lowest starting position): no room.
    let fight = Fight::new(&scene, &rules).unwrap();
    let s = FightState {
        order: vec![1],
        ..fight.start()
    };
    assert!(
        !fight
            .turn_actions(&s, 1)
            .iter()
            .any(|a| matches!(a, Action::Retreat { .. }))
    );
    // With room behind him: a sprint stops at the end of the field, and a walk back leaves
    // a shot from 39 m (long range, the fence, the ogre's Size), the ogre Dodging.
    scene.field = Some([-10, 35]);
    let sprint = Action::Retreat {
        from: 2,
        pace: Movement::Sprint,
        shot: None,
    };
    let fight = Fight::with_policy(&scene, &rules, Scripted(sprint)).unwrap();
    assert!(fight.turn_actions(&s, 1).contains(&sprint));
    let back = Action::Retreat {
        from: 2,
        pace: Movement::Walk,
        shot: Some((2, Aim::Rolled)),
    };
    let mut bram_first = scene.clone();
    bram_first.combatants.swap(0, 1);
    bram_first.combatants[1].position = -5; // Ada far off, out of the way
    let fight = Fight::with_policy(&bram_first, &rules, Scripted(back)).unwrap();
    let s = FightState {
        order: vec![0],
        ..fight.start()
    };
    let law = fight.round_law(&s).unwrap();
    assert!(law.iter().all(|(n, _)| n.position[0] == -4));
    let by_hand = miss(
        OGRE_SIZE + band(39, 30).unwrap() + FENCE,
        10,
        12,
        Test::new(6, 0, 0, &rules).unwrap(),
        AttackKind::Ranged,
    );
    let untouched = law.probability_where(|n| n.health[2] == 50);
    assert!(
        (untouched - by_hand).abs() < 1e-12,
        "{untouched} vs {by_hand}"
    );
    // A field that leaves out a starting position is refused.
    scene.field = Some([0, 30]);
    assert!(matches!(
        Fight::new(&scene, &rules),
        Err(Error::Scene { .. })
    ));
}

#[test]
fn an_engaged_opponent_is_struck_from_behind() {
    // Ada 2 m on one side of the ogre, a second axe-fighter 2 m on the other: the ogre
    // faces Ada (the nearest enemy in melee, the first in the scene on a tie), so the
    // second strikes his rear: +20 (L39), on top of outnumbering 2 to 1 (+20, +2 damage)
    // and the Difference in Size (+4). Ada's swing has no rear bonus.
    let rules = Rules::default();
    let mut scene = Scene::duel();
    scene.combatants[0].position = 33;
    scene.combatants[1] = Combatant {
        name: "Cora".into(),
        position: 37,
        ..scene.combatants[0].clone()
    };
    let fight = Fight::new(&scene, &rules).unwrap();
    let parry = Test::new(6, 15, 0, &rules).unwrap();
    for (who, rear) in [(0, 0), (1, 20)] {
        let s = FightState {
            order: vec![who],
            ..fight.start()
        };
        let law = fight.round_law(&s).unwrap();
        let by_hand = miss(4 + 20 + rear, 12, 8, parry, AttackKind::Melee);
        let untouched = law.probability_where(|n| n.health[2] == 50);
        assert!(
            (untouched - by_hand).abs() < 1e-12,
            "{who}: {untouched} vs {by_hand}"
        );
    }
    // Both on the same side of him: nobody is behind.
    scene.combatants[1].position = 33;
    let fight = Fight::new(&scene, &rules).unwrap();
    let s = FightState {
        order: vec![1],
        ..fight.start()
    };
    let untouched = fight
        .round_law(&s)
        .unwrap()
        .probability_where(|n| n.health[2] == 50);
    let by_hand = miss(4 + 20, 12, 8, parry, AttackKind::Melee);
    assert!((untouched - by_hand).abs() < 1e-12);
}

#[test]
fn skirmishing_falls_back_and_agrees_with_play() {
    // Bram alone against the ogre with 60 m of field behind him: he keeps 14 m away
    // (the ogre's running speed + reach), walking back as he shoots. Each walk back costs
    // the ogre 4 m of his 12 m a round, so the chase still ends.
    let rules = Rules::default();
    let mut scene = bram_and_the_ogre(24, 30);
    scene.field = Some([-60, 35]);
    let skirmish = Skirmish::new(&scene, 14, 0);
    let fight = Fight::with_policy(&scene, &rules, skirmish.clone()).unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!((law.ends.total() - 1.0).abs() < 1e-9);
    assert_eq!(law.ends.tail(), 0.0);
    // Once the ogre is within 14 m, Bram's turn is a walk back and a shot.
    let s = FightState {
        order: vec![0, 1],
        position: vec![0, 12],
        ..fight.start()
    };
    let open = fight.turn_actions(&s, 0);
    assert_eq!(
        skirmish.choose(&s, 0, &open),
        Action::Retreat {
            from: 1,
            pace: Movement::Walk,
            shot: Some((1, Aim::Rolled))
        }
    );
    // Played fights agree with the exact law.
    const FIGHTS: u64 = 4_000;
    let run = PlayOut::new(fight, 200).unwrap();
    let exact = run.distribution().unwrap();
    let mut r = rng(21);
    let seen = histogram(FIGHTS, || dice_core::Roll::roll(&run, &mut r));
    check(&seen, &as_map(&exact), FIGHTS);
    // Giving ground: Ada at Health 10 or less, in melee with the ogre while Bram stands,
    // runs 12 m away from him.
    let mut duel = Scene::duel();
    duel.combatants[0].position = 33;
    let fight = Fight::with_policy(&duel, &rules, Skirmish::new(&duel, 14, 10)).unwrap();
    let low = FightState {
        health: vec![10, 24, 50],
        order: vec![0],
        ..fight.start()
    };
    assert_eq!(only(&fight, &low).position, vec![21, 0, 35]);
    let high = FightState {
        health: vec![11, 24, 50],
        ..low.clone()
    };
    assert!(fight.round_law(&high).unwrap().len() > 1); // she swings instead
}

// ------------------------------------------------------------------ told and health

#[test]
fn told_rounds_name_the_actors_and_draw_as_play_round() {
    let fight = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let names = fight.health_names();
    for seed in 0..5 {
        let (mut a, mut b) = (rng(seed), rng(seed));
        let (mut s, mut t) = (fight.start(), fight.start());
        let mut lines = Vec::new();
        for _ in 0..500 {
            if fight.end(&s).is_some() {
                break;
            }
            s = fight.play_round(&s, &mut a);
            t = fight.play_round_told(&t, &mut b, &mut lines);
            assert_eq!(s, t, "the told round drew differently");
        }
        assert!(lines[0].starts_with("Initiative"));
        assert!(
            lines
                .iter()
                .any(|l| names.iter().any(|n| l.starts_with(&format!("{n} attacks"))))
        );
    }
}

#[test]
fn health_at_the_end_sums_to_one_and_matches_the_winner() {
    let fight = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    let n = fight.combatants().len();
    assert_eq!(law.health.len(), n);
    assert_eq!(fight.health(&fight.start()).len(), n);
    for (k, (_, health)) in law.health.iter().enumerate() {
        assert!((health.total() + law.ends.tail() - 1.0).abs() < 1e-9);
        let standing: f64 = health.iter().filter(|&(&h, _)| h > 0).map(|(_, p)| p).sum();
        // Standing at the end: only on the winning side.
        let side = fight.side_of(k).unwrap();
        let wins = law.ends.probability(&Victory { side });
        assert!(standing <= wins + 1e-9);
    }
}

#[test]
fn state_bound_holds_and_refuses_large_fights_at_once() {
    let limits = EncounterLimits::default();
    // The shipped scenes: never refused by the bound (it is None there: the tactics, not
    // the scene, set where everyone stands), and a bound given holds.
    let room = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/duel-with-room.toml");
    for path in [DUEL, room] {
        let scene: Scene = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let standard = Fight::new(&scene, &Rules::default()).unwrap();
        let skirmish =
            Fight::with_policy(&scene, &Rules::default(), Skirmish::new(&scene, 14, 5)).unwrap();
        for bound in [standard.state_bound(), skirmish.state_bound()] {
            assert!(
                bound.is_none_or(|b| b <= limits.max_states as u64),
                "{bound:?}"
            );
        }
    }
    // Small scenes with a bound: it is at least the states reached.
    let duel = Scene::duel();
    let mut toe_to_toe = duel.clone();
    toe_to_toe.combatants.remove(1);
    toe_to_toe.combatants[0].position = 33;
    toe_to_toe.field = Some([33, 35]);
    let mut standing = toe_to_toe.clone();
    for c in &mut standing.combatants {
        c.speed = Speed::default();
        c.position = 34;
        c.health = 12;
    }
    standing.field = None;
    standing.passive_defence = true;
    let mut shooter = duel.clone();
    shooter.combatants.remove(0);
    shooter.combatants[0].position = 30;
    shooter.combatants[0].health = 8;
    shooter.combatants[1].health = 9;
    shooter.combatants[1].speed = Speed::default();
    let lethal = Rules {
        lethal: true,
        ..Rules::default()
    };
    for (scene, rules) in [
        (&toe_to_toe, Rules::default()),
        (&standing, Rules::default()),
        (&shooter, Rules::default()),
        (&toe_to_toe, lethal),
    ] {
        let fight = Fight::new(scene, &rules).unwrap();
        let law = end_law(&fight, limits).unwrap();
        let bound = fight.state_bound().unwrap();
        assert!(bound >= law.states as u64, "{bound} < {}", law.states);
        let skirmish = Fight::with_policy(scene, &rules, Skirmish::new(scene, 14, 5)).unwrap();
        let law = end_law(&skirmish, limits).unwrap();
        assert!(
            bound >= law.states as u64,
            "{bound} < {} (skirmish)",
            law.states
        );
    }
    // Ada and Bram against two ogres: refused before any state is listed.
    let mut two = duel.clone();
    let mut second = two.combatants[2].clone();
    second.name = "the second ogre".into();
    second.position = 33;
    two.combatants.push(second);
    let fight = Fight::new(&two, &Rules::default()).unwrap();
    assert!(
        fight
            .state_bound()
            .is_some_and(|b| b > limits.max_states as u64)
    );
    assert!(matches!(
        end_law(&fight, limits),
        Err(dice_core::Error::TooManyStates { .. })
    ));
}
