//! Whole duels: the exact engine against a brute-force enumeration of the faces written out
//! here (the turn's law, then every path's mass pushed forward for thousands of turns), played
//! duels against the exact law, the turn structure's rules, and the shipped scene. No
//! probability is typed in.

mod common;

use std::collections::BTreeMap;

use common::{all_faces, same};
use dice_core::{Encounter, EncounterLimits, Ending, Exact, PlayOut, Policy, Roll, end_law, play};
use dice_robots_and_rapiers::{
    Attack, AttackOutcome, BaseActionPoints, Choice, Dice, Duel, DuelState, Fighter, Malfunction,
    MeleeWeapon, Moment, Rulebook, Rules, Standing, Test, Victory, combat_ap_tn,
};
use dice_testkit::{check_rolls, rng};

const EPS: f64 = 1e-12;

/// A small robot: `dice` Fencing dice, the attributes given, Senses 3/3.
fn robot(name: &str, dice: u8, attributes: [i32; 6], weapon: MeleeWeapon) -> Fighter {
    Fighter::new(
        name,
        Dice::Program {
            program: dice,
            core: 0,
        },
        attributes,
        weapon,
    )
    .expect("valid robot")
}

/// Two small fencers with Processor 2, one with an EMP pike, one with a vibro dagger (weapon
/// Damage −1, malfunctions): small enough to enumerate every face.
fn small_duel() -> Duel {
    let mut a = robot("Ann", 1, [4, 3, 6, 5, 2, 4], MeleeWeapon::EnergyPike);
    a.self_awareness = 1;
    let b = robot("Bea", 2, [4, 3, 5, 6, 2, 4], MeleeWeapon::VibroDagger);
    Duel::new([a, b], Rules::default()).expect("valid duel")
}

/// P(one malfunction costs a Durability point), enumerated over the table's three d10s
/// through the pure form and the chassis.
fn per_malfunction_loss(f: &Fighter) -> BTreeMap<u8, f64> {
    let mut m = BTreeMap::new();
    for faces in all_faces(3) {
        let mal = Malfunction::from_faces(faces[0], Some(faces[1]), Some(faces[2])).unwrap();
        let mut c = f.chassis.clone();
        c.slots.clear();
        let before = c.attributes[1];
        c.suffer(mal, None);
        *m.entry((before - c.attributes[1]) as u8).or_insert(0.0) += 1e-3;
    }
    m
}

fn convolve(a: &BTreeMap<u8, f64>, b: &BTreeMap<u8, f64>) -> BTreeMap<u8, f64> {
    let mut out = BTreeMap::new();
    for (x, p) in a {
        for (y, q) in b {
            *out.entry(x + y).or_insert(0.0) += p * q;
        }
    }
    out
}

/// The rulebook's turn, written out: every face of the attack, the parry and the save.
fn brute_turn(duel: &Duel, s: &DuelState) -> BTreeMap<DuelState, f64> {
    let f = duel.fighters();
    let a = usize::from(s.top);
    let d = 1 - a;
    let parried = s.robots[d].action_points >= 1;
    let attack = duel.attack(s, a, parried).unwrap();
    let test = attack.test().unwrap();
    let per = per_malfunction_loss(&f[d]);
    let mut out = BTreeMap::new();
    let attack_faces: Vec<Vec<u8>> = all_faces(f[a].fencing_dice() as usize).collect();
    let parry_faces: Vec<Vec<u8>> = if parried {
        all_faces(f[d].fencing_dice() as usize).collect()
    } else {
        vec![vec![]]
    };
    let w = 1.0 / (attack_faces.len() * parry_faces.len()) as f64;
    for af in &attack_faces {
        for pf in &parry_faces {
            let roll = if parried {
                test.resolve_opposed(af, pf).unwrap()
            } else {
                test.resolve(af).unwrap()
            };
            let left = roll.opposing.as_ref().map(|o| o.left()).unwrap_or(0);
            // (new Durability of d or None if shut down, probability)
            let mut hits: Vec<(Option<u8>, f64)> = Vec::new();
            if roll.net >= 1 {
                let save = attack.save((roll.net - 1) as u32).unwrap();
                for sf in all_faces(3) {
                    let dmg = save.resolve([sf[0], sf[1], sf[2]]).unwrap();
                    if dmg.shutdown {
                        hits.push((None, 1e-3));
                        continue;
                    }
                    let mut loss = BTreeMap::from([(0u8, 1.0)]);
                    for _ in 0..dmg.malfunctions {
                        loss = convolve(&loss, &per);
                    }
                    for (l, p) in loss {
                        let dur = s.robots[d]
                            .durability
                            .saturating_sub(l)
                            .saturating_sub(dmg.durability_loss as u8);
                        hits.push((Some(dur), 1e-3 * p));
                    }
                }
            } else {
                hits.push((Some(s.robots[d].durability), 1.0));
            }
            for (dur, p) in hits {
                let mut n = *s;
                let max_d = f[d].max_action_points() as u8;
                if parried {
                    n.robots[d].action_points -= 1;
                }
                let spare = left.saturating_sub(roll.successes) as u8;
                let hit = roll.net >= 1;
                if !hit && spare > 0 {
                    let room = max_d.saturating_sub(n.robots[d].action_points);
                    n.robots[d].action_points += spare.min(room);
                }
                match dur {
                    None => {
                        // A shut-down robot's Durability no longer matters: 0.
                        n.robots[d].shut_down = true;
                        n.robots[d].durability = 0;
                    }
                    Some(v) => {
                        n.robots[d].durability = v;
                        // The actor pays for the next turn with the first right and 2 AP.
                        if hit && n.robots[a].action_points >= 2 {
                            n.robots[a].action_points -= 1;
                            n.top = a as u8;
                        } else {
                            n.top = d as u8;
                        }
                    }
                }
                *out.entry(n).or_insert(0.0) += w * p;
            }
        }
    }
    out
}

/// The Turn Order and Base Action Points, written out: the rankings, every face of the
/// Base Action Point rolls.
fn brute_setup(duel: &Duel, s: &DuelState) -> BTreeMap<DuelState, f64> {
    let f = duel.fighters();
    let rules = Rules::default();
    let (r0, r1) = (f[0].ranking(&rules), f[1].ranking(&rules));
    let tops: Vec<(u8, f64)> = match r0.compare(&r1) {
        std::cmp::Ordering::Greater => vec![(0, 1.0)],
        std::cmp::Ordering::Less => vec![(1, 1.0)],
        std::cmp::Ordering::Equal => vec![(0, 0.5), (1, 0.5)],
    };
    let ap = |i: usize| {
        let dice = f[i].max_action_points();
        let base = BaseActionPoints::new(dice, combat_ap_tn(1, 1, &rules), &rules).unwrap();
        let mut m = BTreeMap::new();
        let faces: Vec<Vec<u8>> = all_faces(dice as usize).collect();
        for fs in &faces {
            *m.entry(base.resolve(fs).unwrap() as u8).or_insert(0.0) += 1.0 / faces.len() as f64;
        }
        m
    };
    let (ap0, ap1) = (ap(0), ap(1));
    let mut out = BTreeMap::new();
    for &(t, pt) in &tops {
        for (x, px) in &ap0 {
            for (y, py) in &ap1 {
                let mut n = *s;
                n.engaged = true;
                n.top = t;
                n.robots[0].action_points = *x;
                n.robots[1].action_points = *y;
                *out.entry(n).or_insert(0.0) += pt * px * py;
            }
        }
    }
    out
}

/// One round, brute force: the setup and first turn, or a turn.
fn brute_round(duel: &Duel, s: &DuelState) -> BTreeMap<DuelState, f64> {
    if s.engaged {
        return brute_turn(duel, s);
    }
    let mut out = BTreeMap::new();
    for (t, p) in brute_setup(duel, s) {
        for (n, q) in brute_turn(duel, &t) {
            *out.entry(n).or_insert(0.0) += p * q;
        }
    }
    out
}

fn as_map<T: Ord + Clone>(d: &dice_core::Dist<T>) -> BTreeMap<T, f64> {
    d.iter().map(|(k, p)| (k.clone(), p)).collect()
}

#[test]
fn the_attack_law_matches_enumeration() {
    let a = robot("A", 2, [4, 5, 6, 5, 3, 4], MeleeWeapon::VibroCutlass);
    let b = robot("B", 1, [4, 4, 5, 6, 3, 4], MeleeWeapon::EnergyPike);
    for (att, def, parried) in [(&a, &b, true), (&a, &b, false), (&b, &a, true)] {
        let attack =
            Attack::between(att, def, def.durability(), parried, Rules::default()).unwrap();
        let test = attack.test().unwrap();
        let mut brute: BTreeMap<AttackOutcome, f64> = BTreeMap::new();
        let n_att = att.fencing_dice() as usize;
        let n_def = if parried {
            def.fencing_dice() as usize
        } else {
            0
        };
        let w = 10f64.powi(-((n_att + n_def) as i32));
        for af in all_faces(n_att) {
            for pf in all_faces(n_def) {
                let roll = if parried {
                    test.resolve_opposed(&af, &pf).unwrap()
                } else {
                    test.resolve(&af).unwrap()
                };
                let mut o = AttackOutcome {
                    successes: roll.successes,
                    parry_left: roll.opposing.as_ref().map(|p| p.left()),
                    difficulty: att.weapon.difficulty(),
                    damage: None,
                };
                assert_eq!(o.net(), roll.net);
                if roll.net >= 1 {
                    let save = attack.save((roll.net - 1) as u32).unwrap();
                    for sf in all_faces(3) {
                        o.damage = Some(save.resolve([sf[0], sf[1], sf[2]]).unwrap());
                        *brute.entry(o).or_insert(0.0) += w * 1e-3;
                    }
                } else {
                    *brute.entry(o).or_insert(0.0) += w;
                }
            }
        }
        let law = attack.distribution().unwrap();
        same(&as_map(&law), &brute, EPS);
        let p_shut: f64 = brute
            .iter()
            .filter(|(o, _)| o.shutdown())
            .map(|(_, p)| p)
            .sum();
        let mal: f64 = brute
            .iter()
            .map(|(o, p)| p * f64::from(o.malfunctions()))
            .sum();
        assert!((attack.shutdown_chance().unwrap() - p_shut).abs() < EPS);
        assert!((attack.expected_malfunctions().unwrap() - mal).abs() < EPS);
    }
}

#[test]
fn played_attacks_follow_the_exact_law() {
    let a = robot("A", 3, [4, 5, 6, 5, 3, 4], MeleeWeapon::SonicRapier);
    let attack = Attack::between(&a, &a, 4, true, Rules::default()).unwrap();
    let law = attack.distribution().unwrap();
    let mut r = rng(11);
    check_rolls("attack", &law, || attack.roll(&mut r));
}

#[test]
fn every_round_law_matches_the_enumerated_turn() {
    let duel = small_duel();
    // Every state the brute-force turn reaches, each round law against it.
    let mut seen = BTreeMap::new();
    let mut todo = vec![duel.start()];
    while let Some(s) = todo.pop() {
        if seen.contains_key(&s) || duel.end(&s).is_some() {
            continue;
        }
        let brute = brute_round(&duel, &s);
        let law = duel.round_law(&s).unwrap();
        same(&as_map(&law), &brute, 1e-9);
        todo.extend(brute.keys().copied());
        seen.insert(s, ());
    }
    assert!(seen.len() > 10, "only {} states", seen.len());
}

#[test]
fn end_law_matches_mass_pushed_forward() {
    let duel = small_duel();
    let law = end_law(&duel, EncounterLimits::default()).unwrap();
    let mut cache: BTreeMap<DuelState, BTreeMap<DuelState, f64>> = BTreeMap::new();
    let mut mass = BTreeMap::from([(duel.start(), 1.0)]);
    let mut ended: BTreeMap<Victory, f64> = BTreeMap::new();
    let mut expected_rounds = 0.0;
    for round in 1..=3000u32 {
        let mut next = BTreeMap::new();
        for (s, m) in &mass {
            let step = cache.entry(*s).or_insert_with(|| brute_round(&duel, s));
            for (t, p) in step.iter() {
                match duel.end(t) {
                    Some(v) => {
                        *ended.entry(v).or_insert(0.0) += m * p;
                        expected_rounds += f64::from(round) * m * p;
                    }
                    None => *next.entry(*t).or_insert(0.0) += m * p,
                }
            }
        }
        mass = next;
    }
    let left: f64 = mass.values().sum();
    assert!(left < 1e-10, "mass left {left}");
    for (v, p) in &ended {
        assert!((law.ends.probability(v) - p).abs() < 1e-9, "{v}: {p}");
    }
    assert!((law.expected_rounds.unwrap() - expected_rounds).abs() < 1e-6);
    assert!((law.ends.total() - 1.0).abs() < 1e-9);
}

#[test]
fn played_duels_follow_the_exact_law() {
    let out = PlayOut::new(small_duel(), 10_000).unwrap();
    let law = out.distribution().unwrap();
    let mut r = rng(5);
    check_rolls("duel", &law, || out.roll(&mut r));
    assert!(law.probability(&Ending::Capped) < 1e-9);
    for v in [Victory(0), Victory(1)] {
        assert!(law.probability(&Ending::Ended(v)) > 0.05, "{v}");
    }
}

/// Tactics that check what they are offered and pay whenever they may.
struct Eager;
impl Policy<Moment, Choice> for Eager {
    fn choose(&self, m: &Moment, who: usize, open: &[Choice]) -> Choice {
        let state = match m {
            Moment::Parry { state, attacker } => {
                // Only the robot attacked is asked, never the attacker, and only with an
                // Action Point to spend.
                assert_ne!(usize::from(*attacker), who);
                state
            }
            Moment::PayForTurn { state, .. } => state,
        };
        assert!(
            state.robots[who].action_points > 0,
            "offered a choice at 0 AP"
        );
        if open.contains(&Choice::Parry) {
            Choice::Parry
        } else {
            Choice::PayForTurn
        }
    }
}

#[test]
fn the_turn_structure_is_enforced() {
    let f = small_duel().fighters().clone();
    let duel = Duel::with_policy(f, Rules::default(), Eager).unwrap();
    let law = end_law(&duel, EncounterLimits::default()).unwrap();
    assert!((law.ends.total() - 1.0).abs() < 1e-9);
    let st = |ap0: u8, ap1: u8| DuelState {
        engaged: true,
        top: 0,
        robots: [
            Standing {
                durability: 3,
                action_points: ap0,
                shut_down: false,
            },
            Standing {
                durability: 2,
                action_points: ap1,
                shut_down: false,
            },
        ],
    };
    // The defender without Action Points cannot parry: it never spends one, and the
    // attacker (the top of the order) is the only one to act.
    for (t, _) in duel.round_law(&st(0, 0)).unwrap().iter() {
        assert_eq!(t.robots[1].action_points, 0);
        assert_eq!(t.robots[0].action_points, 0);
        // No one can pay: the turn passes down the order.
        if !t.robots[1].shut_down {
            assert_eq!(t.top, 1);
        }
        assert!(
            !t.robots[0].shut_down,
            "the attacker is never harmed on its own turn"
        );
    }
    // Both always announce Pay for Turn. The defender parries with 1 of its 2 Action Points.
    // The attacker gets the next turn only with the first right (it hit): after a tie, the
    // highest in the order (the defender, the attacker having moved to the bottom) takes
    // precedence and pays its last point; after a won parry the defender has the right.
    let mut tie_kept_by_defender = false;
    for (t, _) in duel.round_law(&st(3, 2)).unwrap().iter() {
        if t.robots[1].shut_down {
            continue;
        }
        if t.top == 0 {
            assert_eq!(t.robots[0].action_points, 2, "{t:?}");
            assert_eq!(t.robots[1].action_points, 1, "{t:?}");
        } else {
            assert_eq!(t.robots[0].action_points, 3, "{t:?}");
            tie_kept_by_defender |= t.robots[1].action_points == 0;
        }
    }
    assert!(tie_kept_by_defender);
    // A shut-down robot ends the duel: no round is played from it.
    let mut over = st(2, 2);
    over.robots[1].shut_down = true;
    assert_eq!(duel.end(&over), Some(Victory(0)));
}

#[test]
fn the_rulebook_policy_parries_and_pays_as_advised() {
    let s = DuelState {
        engaged: true,
        top: 1,
        robots: [Standing {
            durability: 5,
            action_points: 1,
            shut_down: false,
        }; 2],
    };
    let parry = Moment::Parry {
        state: s,
        attacker: 1,
    };
    assert_eq!(
        Rulebook.choose(&parry, 0, &[Choice::Parry, Choice::NoParry]),
        Choice::Parry
    );
    // With the first right but a single Action Point: keep it to parry with.
    let pay = Moment::PayForTurn {
        state: s,
        actor: 1,
        first_right: Some(1),
    };
    assert_eq!(
        Rulebook.choose(&pay, 1, &[Choice::PayForTurn, Choice::Pass]),
        Choice::Pass
    );
}

#[test]
fn a_robot_at_durability_zero_is_shut_down_by_any_hit() {
    let a = robot("A", 2, [4, 5, 6, 5, 3, 4], MeleeWeapon::SonicRapier);
    let attack = Attack::between(&a, &a, 0, false, Rules::default()).unwrap();
    let law = attack.distribution().unwrap();
    let p_hit = law.probability_where(|o| o.hit());
    assert!(p_hit > 0.0);
    assert!((attack.shutdown_chance().unwrap() - p_hit).abs() < EPS);
    // The hit is the Test's law: net 1 or more.
    let t = Test::new(2, 6).unwrap().distribution().unwrap();
    assert!((p_hit - t.probability_where(|&n| n >= 1)).abs() < EPS);
}

#[cfg(feature = "serde")]
#[test]
fn bad_scenes_are_refused() {
    use dice_robots_and_rapiers::Scene;
    let text = include_str!("../scenes/juliard-vs-del-trevaine.toml");
    let mut scene: Scene = toml::from_str(text).unwrap();
    scene.robots.pop();
    assert!(Duel::from_scene(&scene, Rules::default()).is_err());
    let mut scene: Scene = toml::from_str(text).unwrap();
    scene.robots[0].articulation = 0;
    assert!(Duel::from_scene(&scene, Rules::default()).is_err());
    let mut scene: Scene = toml::from_str(text).unwrap();
    scene.robots[1].fencing = 0;
    scene.robots[1].core_physical = 0;
    assert!(Duel::from_scene(&scene, Rules::default()).is_err());
    assert!(toml::from_str::<Scene>(&text.replace("inspiration = 3", "luck = 3")).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn the_shipped_scene_loads_plays_and_its_odds_sum_to_one() {
    use dice_robots_and_rapiers::Scene;
    let text = include_str!("../scenes/juliard-vs-del-trevaine.toml");
    let scene: Scene = toml::from_str(text).unwrap();
    let duel = Duel::from_scene(&scene, Rules::default()).unwrap();
    assert_eq!(duel.fighters()[0].fencing_dice(), 8);
    let played = play(&duel, &mut rng(1), 1000);
    assert!(played.end.is_some());
    let law = end_law(&duel, EncounterLimits::default()).unwrap();
    assert!((law.ends.total() - 1.0).abs() < 1e-9);
    assert!(law.states < 20_000, "{} states", law.states);
    assert!(law.ends.probability(&Victory(0)) > 0.0 && law.ends.probability(&Victory(1)) > 0.0);
}
