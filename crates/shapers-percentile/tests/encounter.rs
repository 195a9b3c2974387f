//! Whole fights: the exact law of a fight against a brute-force enumeration of every die
//! face, played fights against the exact law, the turn structure, and the shipped scene.

use std::collections::BTreeMap;
use std::sync::Mutex;

use dice_core::{Encounter, EncounterLimits, Ending, Exact, PlayOut, Policy, end_law, play};
use dice_shapers_percentile::{
    Action, Aim, Armour, Attack, AttackKind, AttackOutcome, Combatant, Damage, Defence,
    DefenceAptitude, Error, Fight, FightState, Location, Rules, Scene, StandardTactics, Test,
    Victory, Weapon,
};
use dice_testkit::{check_rolls, rng};

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/duel.toml");

/// Ada against the ogre alone (the shipped scene without Bram), with less Health and the
/// ogre's Mental Agility raised so that Initiative can go either way, ties included.
fn ada_and_the_ogre(ada_health: i32, ogre_health: i32) -> Scene {
    let mut scene = Scene::duel();
    scene.combatants.remove(1);
    scene.combatants[0].health = ada_health;
    scene.combatants[1].health = ogre_health;
    scene.combatants[1].mental_agility = 13; // PA + MA 19 against Ada's 21
    scene
}

/// The law of (damage to the target, damage to the attacker) of one attack, by enumerating
/// every face: the attacker's d100, the defender's d100 when opposed, and the hit-location
/// d100 of a hit or a counter-attack, each resolved with the pure forms.
fn brute_swing(
    attack: &Attack,
    hit: impl Fn(Location) -> Damage,
    counter: impl Fn(Location) -> Damage,
    rules: &Rules,
) -> BTreeMap<(i32, i32), f64> {
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
                let pair = match outcome {
                    AttackOutcome::Hit { bonus } => (hit(l).dealt(bonus, rules), 0),
                    AttackOutcome::CounterAttack { bonus } => (0, counter(l).dealt(bonus, rules)),
                    AttackOutcome::Miss => (0, 0),
                };
                *law.entry(pair).or_insert(0.0) += per;
            }
        }
    }
    law
}

/// Ada's axe on the ogre and the ogre's fists on Ada, built by hand from the chapter: the TN
/// is 50 plus PA plus Aptitude plus the Difference in Size (the ogre is 4 sizes larger: +4
/// for Ada, −4 for him), each parries with their Melee Aptitude (the higher TN), and the
/// damage is weapon plus PS plus the bonus, less armour and Physical Fortitude.
fn hand_built(rules: &Rules) -> [BTreeMap<(i32, i32), f64>; 2] {
    let ada_parry = Test::new(12, 8, 0, rules).unwrap(); // TN 70 (Dodge: 67)
    let ogre_parry = Test::new(6, 15, 0, rules).unwrap(); // TN 71 (Dodge: 56)
    let axe = |l: Location| {
        let _ = l; // the ogre's hide covers every location
        Damage::new(AttackKind::Melee, 7, 13, 12)
            .unwrap()
            .against(2, 11)
            .unwrap()
    };
    let fists = |_: Location| {
        Damage::new(AttackKind::Melee, 3, 18, 6)
            .unwrap()
            .against(1, 9)
            .unwrap()
    };
    let ada = Attack::new(
        Test::new(12, 8, 4, rules).unwrap(),
        Defence::Opposed(ogre_parry),
        AttackKind::Melee,
        rules,
    )
    .unwrap();
    let ogre = Attack::new(
        Test::new(6, 15, -4, rules).unwrap(),
        Defence::Opposed(ada_parry),
        AttackKind::Melee,
        rules,
    )
    .unwrap();
    [
        brute_swing(&ada, axe, fists, rules),
        brute_swing(&ogre, fists, axe, rules),
    ]
}

/// (Ada's Health, the ogre's Health, Ada first?) → mass.
type Mass = BTreeMap<(i32, i32, bool), f64>;

/// Applies one attack's brute law to the mass, attacker `0` (Ada) or `1` (the ogre), where
/// the attacker is still standing and so is the target.
fn apply(mass: &Mass, who: usize, law: &BTreeMap<(i32, i32), f64>) -> Mass {
    let mut out = Mass::new();
    for (&(a, o, first), &m) in mass {
        if a == 0 || o == 0 {
            *out.entry((a, o, first)).or_insert(0.0) += m;
            continue;
        }
        for (&(to_target, to_attacker), &p) in law {
            let (na, no) = if who == 0 {
                ((a - to_attacker).max(0), (o - to_target).max(0))
            } else {
                ((a - to_target).max(0), (o - to_attacker).max(0))
            };
            *out.entry((na, no, first)).or_insert(0.0) += m * p;
        }
    }
    out
}

#[test]
fn one_on_one_matches_every_face_pushed_forward() {
    let rules = Rules::default();
    let [ada, ogre] = hand_built(&rules);
    // Initiative: every pair of d10s; Ada's d10 + 21 against the ogre's d10 + 19. A tie is
    // rolled off on d10s, re-rolled while equal: the two roll alike, so each goes first
    // with probability 1/2.
    let mut p_ada_first = 0.0;
    for a in 1..=10 {
        for o in 1..=10 {
            let (sa, so) = (a + 21, o + 19);
            p_ada_first += if sa > so {
                0.01
            } else if sa == so {
                0.005
            } else {
                0.0
            };
        }
    }
    for (ha, ho) in [(20, 25), (12, 9), (30, 30)] {
        let scene = ada_and_the_ogre(ha, ho);
        let fight = Fight::new(&scene, &Rules::default()).unwrap();
        let law = end_law(&fight, EncounterLimits::default()).unwrap();
        let mut mass: Mass = BTreeMap::from([
            ((ha, ho, true), p_ada_first),
            ((ha, ho, false), 1.0 - p_ada_first),
        ]);
        let (mut ada_wins, mut ogre_wins) = (0.0, 0.0);
        let mut when: BTreeMap<u32, f64> = BTreeMap::new();
        for round in 1..=10_000u32 {
            let firsts: Mass = mass
                .iter()
                .filter(|(k, _)| k.2)
                .map(|(k, v)| (*k, *v))
                .collect();
            let seconds: Mass = mass
                .iter()
                .filter(|(k, _)| !k.2)
                .map(|(k, v)| (*k, *v))
                .collect();
            let a = apply(&apply(&firsts, 0, &ada), 1, &ogre);
            let b = apply(&apply(&seconds, 1, &ogre), 0, &ada);
            mass = Mass::new();
            for (k, v) in a.into_iter().chain(b) {
                match k {
                    (0, _, _) => {
                        ogre_wins += v;
                        *when.entry(round).or_insert(0.0) += v;
                    }
                    (_, 0, _) => {
                        ada_wins += v;
                        *when.entry(round).or_insert(0.0) += v;
                    }
                    _ => *mass.entry(k).or_insert(0.0) += v,
                }
            }
            // What is left can no longer move any probability by 1e-15.
            if mass.values().sum::<f64>() < 1e-15 {
                break;
            }
        }
        let got_ada = law.ends.probability(&Victory { side: 0 });
        let got_ogre = law.ends.probability(&Victory { side: 1 });
        assert!(
            (got_ada - ada_wins).abs() < 1e-9,
            "{ha}/{ho}: {got_ada} vs {ada_wins}"
        );
        assert!(
            (got_ogre - ogre_wins).abs() < 1e-9,
            "{ha}/{ho}: {got_ogre} vs {ogre_wins}"
        );
        assert!((law.ends.total() - 1.0).abs() < 1e-9);
        for (r, p) in law.rounds.iter() {
            let q = when.get(r).copied().unwrap_or(0.0);
            assert!((p - q).abs() < 1e-9, "round {r}: {p} vs {q}");
        }
    }
}

#[test]
fn one_round_of_the_duel_matches_every_face() {
    // From a set Turn Order (Ada, Bram, the ogre), one round: Ada's axe, Bram's arrow (the
    // ogre Dodges, PA 6 + Dodge 0), the ogre's fists on Ada (Ada parries).
    let rules = Rules::default();
    let fight = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let [ada, ogre] = hand_built(&rules);
    let arrow = Attack::new(
        Test::new(10, 12, -36, &rules).unwrap(),
        Defence::Opposed(Test::new(6, 0, 0, &rules).unwrap()),
        AttackKind::Ranged,
        &rules,
    )
    .unwrap();
    let bow = |_: Location| {
        Damage::new(AttackKind::Ranged, 6, 9, 10)
            .unwrap()
            .against(2, 11)
            .unwrap()
    };
    let never = |_: Location| -> Damage { unreachable!("a shot opens no counter-attack") };
    let bram = brute_swing(&arrow, bow, never, &rules);
    for (start, order) in [
        ([30, 24, 50], vec![0u8, 1, 2]),
        ([9, 24, 12], vec![2, 0, 1]),
    ] {
        let state = FightState {
            health: start.to_vec(),
            order: order.clone(),
        };
        // Every branch pushed through the three turns by hand.
        let mut mass: BTreeMap<Vec<i32>, f64> = BTreeMap::from([(start.to_vec(), 1.0)]);
        for &who in &order {
            let mut next = BTreeMap::new();
            for (h, m) in mass {
                let up = |i: usize| h[i] > 0;
                let shapers_up = up(0) || up(1);
                if !up(usize::from(who)) || !up(2) || !shapers_up {
                    *next.entry(h).or_insert(0.0) += m;
                    continue;
                }
                let (law, attacker, target) = match who {
                    0 => (&ada, 0, 2),
                    1 => (&bram, 1, 2),
                    _ => {
                        assert!(up(0), "the ogre only reaches Bram once Ada is down");
                        (&ogre, 2, 0)
                    }
                };
                for (&(t, a), &p) in law {
                    let mut n = h.clone();
                    n[target] = (n[target] - t).max(0);
                    n[attacker] = (n[attacker] - a).max(0);
                    *next.entry(n).or_insert(0.0) += m * p;
                }
            }
            mass = next;
        }
        let exact = fight.round_law(&state).unwrap();
        assert!((exact.total() - 1.0).abs() < 1e-12);
        let mut seen = 0.0;
        for (s, p) in exact.iter() {
            let q = mass.get(&s.health).copied().unwrap_or(0.0);
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
        }
        assert!((seen - 1.0).abs() < 1e-12);
    }
}

#[test]
fn the_first_round_rolls_initiative_with_the_turn_order_law() {
    let fight = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let law = fight.round_law(&fight.start()).unwrap();
    let orders = fight.turn_order().distribution().unwrap();
    // From full Health nobody can fall before their turn, and each combatant's attack (its
    // target, its TN, its damage) is the same whoever goes first. So the chance that the
    // round leaves everyone untouched is the same for every Turn Order, and among those
    // states the orders keep the Turn Order's own law.
    let untouched: Vec<(Vec<u8>, f64)> = law
        .iter()
        .filter(|(s, _)| s.health == [30, 24, 50])
        .map(|(s, p)| (s.order.clone(), p))
        .collect();
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
    let fight = Fight::new(&ada_and_the_ogre(20, 25), &Rules::default()).unwrap();
    let run = PlayOut::new(fight, 200).unwrap();
    let exact = run.distribution().unwrap();
    let mut r = rng(11);
    check_rolls("Ada against the ogre", &exact, || {
        dice_core::Roll::roll(&run, &mut r)
    });
    let duel = PlayOut::new(Fight::new(&Scene::duel(), &Rules::default()).unwrap(), 200).unwrap();
    let exact = duel.distribution().unwrap();
    assert!(exact.probability(&Ending::Capped) < 1e-12);
    let mut r = rng(12);
    check_rolls("the duel", &exact, || dice_core::Roll::roll(&duel, &mut r));
}

/// A policy that records every call (who, the actions offered, the state) and answers as
/// the standard tactics do, or with a fixed wrong answer.
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
            health: vec![30, 24, 50],
            order: orders[seed as usize % 3].clone(),
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
                    if let Action::Attack { target, .. } = a {
                        assert!(!s.is_down(*target));
                        assert_ne!(fight.side_of(*target), fight.side_of(*who));
                        // The ogre cannot reach Bram while Ada stands.
                        if *who == 2 && *target == 1 {
                            assert!(s.is_down(0));
                        }
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
    // Every turn, each combatant tries to attack Ada: Bram (her own side) and Ada herself
    // may not, so only the ogre's attacks on Ada are taken.
    let wrong = Action::Attack {
        target: 0,
        aim: Aim::Rolled,
    };
    let fight = Fight::with_policy(
        &Scene::duel(),
        &Rules::default(),
        Recorder::new(Some(wrong)),
    )
    .unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    // Bram is never hurt (the ogre's "attack Ada" is no longer offered once she is down),
    // so the ogre never wins; he can fall to Ada's counter-attacks; with Ada down and
    // nobody allowed to attack, the fight never ends.
    assert_eq!(law.ends.probability(&Victory { side: 1 }), 0.0);
    assert!(law.ends.probability(&Victory { side: 0 }) > 0.0);
    assert!(law.ends.tail() > 0.0);
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

#[test]
fn defences_follow_the_chapter() {
    let mut scene = Scene::duel();
    // A giant 12 sizes larger than Ada: she may only Dodge (L22).
    scene.combatants[2].size = 22;
    // The ogre cannot see Bram's arrows coming (L21).
    scene.combatants[2].sees_shots_coming = false;
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    assert_eq!(
        fight.defences(2, 0),
        vec![Action::Defend {
            with: DefenceAptitude::Dodge,
            tn: 67
        }]
    );
    assert!(fight.defences(1, 2).is_empty());
    // Ada against the giant may still parry or Dodge.
    assert_eq!(fight.defences(0, 2).len(), 2);
    // The default tactics take the higher TN, Melee on a tie.
    let s = fight.start();
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
    let mut troll = scene.combatants[2].clone();
    troll.name = "the troll".into();
    troll.health = 20;
    scene.combatants.push(troll);
    let fight = Fight::new(&scene, &Rules::default()).unwrap();
    let s = FightState {
        health: vec![30, 24, 50, 20],
        order: vec![0, 1, 2, 3],
    };
    let open = fight.turn_actions(&s, 0);
    assert_eq!(
        StandardTactics.choose(&s, 0, &open),
        Action::Attack {
            target: 3,
            aim: Aim::Rolled
        }
    );
    // Two brutes against Ada alone in the melee (Bram stands off): +20 to their TN and +2
    // damage (L41, L66–67), as the exact law of the round shows: the ogre's swing from
    // 2-against-1 is the swing of a lone ogre with +20 and +2.
    let rules = Rules::default();
    let alone = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let with_troll = FightState {
        health: vec![30, 24, 50, 20],
        order: vec![2],
    };
    let two = fight.round_law(&with_troll).unwrap();
    let one = alone
        .round_law(&FightState {
            health: vec![30, 24, 50],
            order: vec![2],
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
    // Nobody at all.
    let scene = Scene {
        combatants: vec![],
        passive_defence: false,
    };
    assert!(Fight::new(&scene, &Rules::default()).is_err());
}

#[test]
fn armour_follows_the_hit_location() {
    // Bram's jerkin covers his Body only: the ogre's fists on Bram once Ada is down do
    // 3 + 18 + bonus − 8, less 2 on the Body (30 % of hits).
    let fight = Fight::new(&Scene::duel(), &Rules::default()).unwrap();
    let s = FightState {
        health: vec![0, 24, 50],
        order: vec![2, 1],
    };
    let law = fight.round_law(&s).unwrap();
    // Every Health Bram ends the round on is 24, or 24 − (13 + bonus), or 24 − (11 + bonus).
    for (st, _) in law.iter() {
        let lost = 24 - st.health[1];
        assert!(lost == 0 || lost >= 11, "{st}");
    }
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
