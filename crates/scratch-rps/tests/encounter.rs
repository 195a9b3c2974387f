//! Whole fights as an encounter: the exact engine against brute force (every face of every
//! die through `Fight::take_turn`), played fights against the exact law, the rules of turns,
//! and the shipped scene of the rulebook's combat example.

use std::collections::BTreeMap;

use dice_core::{
    Dist, Encounter, EncounterLimits, Ending, Exact, PlayOut, Roll, end_law, never_ending_states,
    play,
};
use dice_scratch_rps::initiative::order;
use dice_scratch_rps::{
    Action, Character, Combatant, Environment, Fight, FightEncounter, FightEnd, FightState,
    Initiative, Rules, Scene, SceneCombatant, Tactics, Turn, TurnStatus,
};
use dice_testkit::{check_rolls, rng};

fn block(s: &str) -> Character {
    Character::from_stat_block(s).unwrap()
}

/// The rulebook's combat example, built in code (the shipped file is read below).
fn example() -> FightEncounter {
    Scene {
        environment: Environment::default(),
        combatants: vec![
            SceneCombatant::new(
                "Chokestar",
                "bounty hunters",
                "2 piloting, 2 wrestling, 3 stalking, 3 toughness, 1 tgh/2, 13 defense",
            ),
            SceneCombatant::new(
                "Flipfire",
                "bounty hunters",
                "2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness, 2 tgh/2, 12 defense",
            ),
            SceneCombatant::new(
                "Breakhelm X-19",
                "outlaw",
                "1 piloting, 4 shooting, 4 fighting, 6 toughness, 3 tgh/2, 13 defense",
            ),
        ],
    }
    .encounter()
    .unwrap()
}

/// Small fights: a duel, a healer and a fighter against a brawler (healing loops), a
/// knockout against an evader, and three equals (three-way initiative ties).
fn small_fights() -> Vec<FightEncounter> {
    let mut out = Vec::new();
    let mut f = Fight::new(Environment::default(), Rules::default());
    f.add(Combatant::new(block("2 fighting, 3 toughness"), 0))
        .unwrap();
    f.add(Combatant::new(
        block("1 shooting, 1 quickness, 3 toughness"),
        1,
    ))
    .unwrap();
    out.push(FightEncounter::new(f).unwrap());
    let mut f = Fight::new(Environment::default(), Rules::default());
    f.add(Combatant::new(block("2 healing, 2 toughness"), 0))
        .unwrap();
    f.add(Combatant::new(block("1 fighting, 2 toughness"), 0))
        .unwrap();
    f.add(Combatant::new(
        block("3 fighting, 1 stalking, 3 toughness"),
        1,
    ))
    .unwrap();
    out.push(FightEncounter::new(f).unwrap());
    let env = Environment {
        cover: true,
        throwable_object: true,
        ..Environment::default()
    };
    let mut f = Fight::new(env, Rules::default());
    f.add(Combatant::new(block("2 knockout, 4 toughness"), 0))
        .unwrap();
    f.add(Combatant::new(
        block("3 quickness, 1 shooting, 2 toughness"),
        1,
    ))
    .unwrap();
    out.push(FightEncounter::new(f).unwrap());
    let mut f = Fight::new(Environment::default(), Rules::default());
    for team in [0, 1, 2] {
        f.add(Combatant::new(block("1 fighting, 1 toughness"), team))
            .unwrap();
    }
    out.push(FightEncounter::new(f).unwrap());
    out
}

/// Brute force: the turn at `position`, the policy's turn played with every face of every
/// die it rolls (`20^k` faces), each through `Fight::take_turn`.
fn brute_turn(e: &FightEncounter, s: &FightState, position: usize) -> Vec<(FightState, f64)> {
    let mut fight = e.fight_at(s, position);
    if fight.is_over() {
        return vec![(s.clone(), 1.0)];
    }
    let who = fight.current().unwrap();
    if fight.combatants()[who].status() != TurnStatus::Ready {
        fight.pass().unwrap();
        return vec![(FightState::of(&fight), 1.0)];
    }
    let turn = e.decide(&fight);
    let k = turn.action.dice_needed();
    let total = 20usize.pow(k as u32);
    let mut out = Vec::new();
    for code in 0..total {
        let mut c = code;
        let dice: Vec<u32> = (0..k)
            .map(|_| {
                let d = (c % 20) as u32 + 1;
                c /= 20;
                d
            })
            .collect();
        let mut f = fight.clone();
        f.take_turn(turn.clone(), &dice).unwrap();
        out.push((FightState::of(&f), 1.0 / total as f64));
    }
    out
}

/// Brute force: the fight started by `Fight::start` from every face of every combatant's
/// initiative die and, within ties, every roll-off that settles them at once.
fn brute_initiative(e: &FightEncounter) -> BTreeMap<FightState, f64> {
    let cs = e.fight().combatants();
    let n = cs.len();
    let mut law = BTreeMap::new();
    let total = 20usize.pow(n as u32);
    for code in 0..total {
        let mut c = code;
        let dice: Vec<u32> = (0..n)
            .map(|_| {
                let d = (c % 20) as u32 + 1;
                c /= 20;
                d
            })
            .collect();
        let totals: Vec<u32> = cs
            .iter()
            .zip(&dice)
            .map(|(x, &d)| Initiative::of(x.character()).total(d).unwrap())
            .collect();
        let tied = (0..n)
            .filter(|&i| (0..n).any(|j| j != i && totals[j] == totals[i]))
            .count();
        let mut settled: Vec<FightState> = Vec::new();
        for r in 0..20usize.pow(tied as u32) {
            let mut rc = r;
            let offs: Vec<u32> = (0..tied)
                .map(|_| {
                    let d = (rc % 20) as u32 + 1;
                    rc /= 20;
                    d
                })
                .collect();
            if order(&totals, &offs).is_ok() {
                let mut f = e.fight().clone();
                f.start(&dice, &offs).unwrap();
                settled.push(FightState::of(&f));
            }
        }
        let w = 1.0 / total as f64 / settled.len() as f64;
        for o in settled {
            *law.entry(o).or_insert(0.0) += w;
        }
    }
    law
}

/// Brute force: one whole round.
fn brute_round(e: &FightEncounter, s: &FightState) -> BTreeMap<FightState, f64> {
    let mut mass: BTreeMap<FightState, f64> = if s.is_started() {
        BTreeMap::from([(s.clone(), 1.0)])
    } else {
        brute_initiative(e)
    };
    for position in 0..e.fight().combatants().len() {
        let mut next = BTreeMap::new();
        for (st, m) in &mass {
            for (t, p) in brute_turn(e, st, position) {
                *next.entry(t).or_insert(0.0) += m * p;
            }
        }
        mass = next;
    }
    mass
}

fn assert_same(a: &Dist<FightState>, b: &BTreeMap<FightState, f64>, what: &str) {
    assert_eq!(
        a.len(),
        b.len(),
        "{what}: {} against {} states",
        a.len(),
        b.len()
    );
    for (s, p) in a.iter() {
        let q = b.get(s).copied().unwrap_or(0.0);
        assert!((p - q).abs() < 1e-12, "{what}: {s}: {p} against {q}");
    }
}

#[test]
fn the_initiative_law_matches_every_face_and_roll_off() {
    let mut fights = small_fights();
    fights.push(example());
    for e in &fights {
        let law = e.initiative_law().unwrap();
        let mut brute: BTreeMap<Vec<usize>, f64> = BTreeMap::new();
        for (s, p) in brute_initiative(e) {
            *brute.entry(s.order().to_vec()).or_insert(0.0) += p;
        }
        assert_eq!(law.len(), brute.len());
        for (o, p) in law.iter() {
            let q = brute[o];
            // Sums of thousands of faces against a sum over totals: rounding only.
            assert!((p - q).abs() < 1e-10, "{o:?}: {p} against {q}");
        }
    }
    // L129: Chokestar's 3 stalking puts him first whatever the dice (31 or more against 20).
    let law = example().initiative_law().unwrap();
    assert!((law.probability_where(|o| o[0] == 0) - 1.0).abs() < 1e-12);
}

#[test]
fn every_turn_law_matches_every_face_of_every_die() {
    let mut fights = small_fights();
    fights.push(example());
    for e in &fights {
        // The states of the first two rounds, every position of the order.
        let first = e.round_law(&e.start()).unwrap();
        let mut states: Vec<FightState> = first.outcomes().to_vec();
        for s in first.outcomes().iter().take(12) {
            states.extend(e.round_law(s).unwrap().outcomes().iter().cloned());
        }
        for s in &states {
            if e.end(s).is_some() {
                continue;
            }
            for position in 0..e.fight().combatants().len() {
                let law = e.turn_law(s, position).unwrap();
                let mut brute = BTreeMap::new();
                for (t, p) in brute_turn(e, s, position) {
                    *brute.entry(t).or_insert(0.0) += p;
                }
                assert_same(&law, &brute, &format!("{s} at {position}"));
            }
        }
    }
}

/// The states of `law` in their normal form (the form of `round_law`'s states), equal
/// ones merged.
fn normalized(e: &FightEncounter, law: BTreeMap<FightState, f64>) -> BTreeMap<FightState, f64> {
    let mut out = BTreeMap::new();
    for (s, p) in law {
        *out.entry(e.normal_form(&s)).or_insert(0.0) += p;
    }
    out
}

#[test]
fn the_round_law_matches_brute_force() {
    for e in small_fights().iter().chain([&example()]) {
        let start = e.start();
        assert_same(
            &e.round_law(&start).unwrap(),
            &normalized(e, brute_round(e, &start)),
            "the first round",
        );
        let next = e.round_law(&start).unwrap();
        for s in next.outcomes().iter().take(5) {
            if e.end(s).is_none() {
                assert_same(
                    &e.round_law(s).unwrap(),
                    &normalized(e, brute_round(e, s)),
                    "a later round",
                );
            }
        }
    }
}

/// Pushes every path's mass forward `rounds` rounds with the brute-force round law.
fn forward(e: &FightEncounter, rounds: u32) -> BTreeMap<FightEnd, f64> {
    let mut cache: BTreeMap<FightState, BTreeMap<FightState, f64>> = BTreeMap::new();
    let mut mass: BTreeMap<FightState, f64> = BTreeMap::from([(e.start(), 1.0)]);
    let mut ends = BTreeMap::new();
    for _ in 0..rounds {
        let mut next = BTreeMap::new();
        for (s, m) in &mass {
            let law = cache
                .entry(s.clone())
                .or_insert_with(|| brute_round(e, s))
                .clone();
            for (t, p) in law {
                match e.end(&t) {
                    Some(end) => *ends.entry(end).or_insert(0.0) += m * p,
                    None => *next.entry(t).or_insert(0.0) += m * p,
                }
            }
        }
        mass = next;
        if mass.values().sum::<f64>() < 1e-15 {
            break;
        }
    }
    ends
}

#[test]
fn end_laws_match_the_forward_iteration_of_brute_force_rounds() {
    for e in small_fights().iter().take(3) {
        let law = end_law(e, EncounterLimits::default()).unwrap();
        let ends = forward(e, 3_000);
        assert_eq!(law.ends.len(), ends.len());
        for (end, p) in &ends {
            let got = law.ends.probability(end);
            assert!((got - p).abs() < 1e-10, "{end}: {got} against {p}");
        }
        assert!((law.ends.total() - 1.0).abs() < 1e-12);
    }
}

/// Fights with twins: a fighter against a boss's two identical thugs (minions, L103–L107),
/// and two identical medics, who revive each other, against a gunman.
fn twin_fights() -> Vec<FightEncounter> {
    let mut out = Vec::new();
    let mut f = Fight::new(Environment::default(), Rules::default());
    f.add(Combatant::new(block("2 fighting, 4 toughness"), 0))
        .unwrap();
    for _ in 0..2 {
        f.add(Combatant::new(block("1 wrestling, 2 toughness"), 1).minion())
            .unwrap();
    }
    out.push(FightEncounter::new(f).unwrap());
    let mut f = Fight::new(Environment::default(), Rules::default());
    for _ in 0..2 {
        f.add(Combatant::new(
            block("1 healing, 1 fighting, 2 toughness"),
            0,
        ))
        .unwrap();
    }
    f.add(Combatant::new(block("2 shooting, 4 toughness"), 1))
        .unwrap();
    out.push(FightEncounter::new(f).unwrap());
    out
}

#[test]
fn twins_are_merged_and_the_law_is_that_of_the_fight_played() {
    for e in twin_fights() {
        assert_eq!(e.twins().len(), 1, "one pair of twins");
        let law = end_law(&e, EncounterLimits::default()).unwrap();
        // Against the fight itself, every face of every die, pushed forward round by round
        // (no state merged): the same ends.
        let ends = forward(&e, 3_000);
        assert_eq!(law.ends.len(), ends.len());
        for (end, p) in &ends {
            let got = law.ends.probability(end);
            assert!((got - p).abs() < 1e-10, "{end}: {got} against {p}");
        }
        assert_eq!(law.ends.tail(), 0.0);
        // Without merging, more states.
        let apart = e.clone().with_policy(Tactics);
        assert!(apart.twins().is_empty());
        let unmerged = end_law(&apart, EncounterLimits::default()).unwrap();
        assert!(
            law.states < unmerged.states,
            "{} against {}",
            law.states,
            unmerged.states
        );
        // Every state of the exact law is its own normal form.
        for s in reachable(&e) {
            assert_eq!(e.normal_form(&s), s, "{s}");
        }
    }
}

/// Fights the tactics once stalled in, every combatant taking turns that change nothing
/// for ever: two lone fighters who only dodged each other, and (the never-ending 4e-7 of a
/// five-combatant scene) a lone medic and a lone gunman, both injured, only ever holding
/// each other, each hold worth the other's lost shot.
fn once_stalled() -> Vec<FightEncounter> {
    let mut out = Vec::new();
    let mut f = Fight::new(Environment::default(), Rules::default());
    f.add(Combatant::new(block("2 toughness, 4 knockout"), 0))
        .unwrap();
    f.add(Combatant::new(
        block("5 toughness, 1 fighting, 1 knockout"),
        1,
    ))
    .unwrap();
    out.push(FightEncounter::new(f).unwrap());
    let env = Environment {
        structures_3d: true,
        throwable_object: true,
        ..Environment::default()
    };
    let mut f = Fight::new(env, Rules::default());
    f.add(Combatant::new(
        block("1 toughness, 2 flying, 1 shooting"),
        0,
    ))
    .unwrap();
    f.add(Combatant::new(block("5 toughness, 4 knockout"), 1))
        .unwrap();
    out.push(FightEncounter::new(f).unwrap());
    let mut f = Fight::new(Environment::default(), Rules::default());
    f.add(
        Combatant::new(
            block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness"),
            0,
        )
        .with_hit_points(1)
        .unwrap(),
    )
    .unwrap();
    f.add(
        Combatant::new(block("2 shooting, 1 stalking, 4 command, 3 toughness"), 1)
            .with_hit_points(1)
            .unwrap(),
    )
    .unwrap();
    out.push(FightEncounter::new(f).unwrap());
    out
}

/// A small random character for the sweep below.
fn random_block(next: &mut impl FnMut(u64) -> u64) -> Character {
    const ABILITIES: [&str; 10] = [
        "fighting",
        "wrestling",
        "shooting",
        "knockout",
        "blasting",
        "quickness",
        "acrobatics",
        "stalking",
        "healing",
        "flying",
    ];
    let mut parts = vec![format!("{} toughness", 1 + next(5))];
    let mut used = Vec::new();
    for _ in 0..1 + next(3) {
        let a = ABILITIES[next(ABILITIES.len() as u64) as usize];
        if !used.contains(&a) {
            used.push(a);
            parts.push(format!("{} {a}", 1 + next(4)));
        }
    }
    block(&parts.join(", "))
}

#[test]
fn the_tactics_never_stall() {
    for e in once_stalled() {
        let law = end_law(&e, EncounterLimits::default()).unwrap();
        assert_eq!(law.ends.tail(), 0.0, "{:?}", e.fight().combatants());
        assert!(law.expected_rounds.is_some());
        assert!(
            never_ending_states(&e, EncounterLimits::default())
                .unwrap()
                .is_empty()
        );
    }
    // The medic and the gunman, alone and injured: each shoots or strikes, neither holds
    // (a hold alone only trades turns; with no ally to use the time it never wins).
    let e = &once_stalled()[2];
    let mut f = e.fight().clone();
    f.start(&[20, 1], &[]).unwrap();
    for _ in 0..2 {
        let turn = e.decide(&f);
        assert!(!matches!(turn.action, Action::Hold { .. }), "{turn}");
        f.take_turn(turn, &[1]).unwrap();
    }
    // Seeded random duels and two-against-one fights, in rooms with and without cover,
    // things to throw, room to fly, ledges: none stalls. (The old tactics stalled in about
    // one duel in twenty and one of these fights in forty.)
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    for i in 0..60 {
        let env = Environment {
            cover: next(2) == 0,
            throwable_object: next(2) == 0,
            room_to_fly: next(3) == 0,
            structures_3d: next(3) == 0,
            ..Environment::default()
        };
        let mut f = Fight::new(env, Rules::default());
        let sizes: &[u32] = if i % 3 == 2 { &[2, 1] } else { &[1, 1] };
        for (team, &size) in sizes.iter().enumerate() {
            for _ in 0..size {
                f.add(Combatant::new(random_block(&mut next), team as u32))
                    .unwrap();
            }
        }
        let e = FightEncounter::new(f).unwrap();
        let law = end_law(&e, EncounterLimits::default()).unwrap();
        assert_eq!(
            law.ends.tail(),
            0.0,
            "fight {i} stalls: {:?}",
            never_ending_states(&e, EncounterLimits::default()).unwrap()
        );
    }
}

#[test]
fn played_fights_follow_the_exact_law() {
    for (i, e) in small_fights()
        .into_iter()
        .chain([example()])
        .chain(twin_fights().into_iter().take(1))
        .enumerate()
    {
        let run = PlayOut::new(e, 1_000).unwrap();
        let law = run.distribution().unwrap();
        let exact = end_law(run.encounter(), EncounterLimits::default()).unwrap();
        for (end, p) in exact.ends.iter() {
            assert!((law.probability(&Ending::Ended(end.clone())) - p).abs() < 1e-9);
        }
        let mut r = rng(60 + i as u64);
        check_rolls("a Scratch RPS fight played out", &law, || run.roll(&mut r));
    }
}

/// Every reachable state of `e`, with its fights at every position of the order.
fn reachable(e: &FightEncounter) -> Vec<FightState> {
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![e.start()];
    while let Some(s) = todo.pop() {
        if !seen.insert(s.clone()) || e.end(&s).is_some() {
            continue;
        }
        for t in e.round_law(&s).unwrap().outcomes() {
            todo.push(t.clone());
        }
    }
    seen.into_iter().collect()
}

#[test]
fn turns_follow_the_rules() {
    for e in small_fights().iter().chain([&example()]) {
        for s in reachable(e).iter().filter(|s| s.is_started()) {
            if e.end(s).is_some() {
                continue;
            }
            for position in 0..s.order().len() {
                let fight = e.fight_at(s, position);
                if fight.is_over() {
                    continue;
                }
                let who = fight.current().unwrap();
                let me = fight.combatants()[who];
                let open = fight.open_turns();
                if me.status() != TurnStatus::Ready {
                    // No action a status forbids: delayed, incapacitated or escaped, the
                    // turn is skipped.
                    assert!(open.is_empty(), "{s}: #{who} is {}", me.status());
                    let law = e.turn_law(s, position).unwrap();
                    assert_eq!(law.len(), 1);
                    let after = &law.outcomes()[0];
                    for (i, (a, b)) in s.conditions().iter().zip(after.conditions()).enumerate() {
                        if i != who {
                            assert_eq!(a, b, "a skipped turn changes no one else");
                        } else {
                            assert_eq!(a.hit_points(), b.hit_points());
                            assert!(!b.is_delayed(), "a delay ends with the skipped turn");
                        }
                    }
                    continue;
                }
                // Every open turn is one the rules accept, and the tactics pick one of them.
                for t in &open {
                    let dice = vec![1; t.action.dice_needed()];
                    assert!(fight.clone().take_turn(t.clone(), &dice).is_ok(), "{t}");
                }
                let turn = e.decide(&fight);
                assert!(open.contains(&turn), "{turn} is not open");
                // Escape only after an evade not caught or hit (L53).
                if turn.action == Action::Escape {
                    assert!(me.condition().may_escape());
                }
                // Healing never himself (L99); attacks never on his own side.
                if let Action::Heal { target } = turn.action {
                    assert_ne!(target, who);
                }
                for target in targets(&turn) {
                    assert_ne!(fight.combatants()[target].team(), me.team(), "{turn}");
                }
                // Not out of turn: the turn at this position is its combatant's.
                assert_eq!(who, s.order()[position]);
                // Nothing changes for a combatant the turn does not touch.
                let law = e.turn_law(s, position).unwrap();
                let patient = match turn.action {
                    Action::Heal { target } => Some(target),
                    _ => None,
                };
                let touched: Vec<usize> = targets(&turn)
                    .into_iter()
                    .chain([who])
                    .chain(patient)
                    .collect();
                for after in law.outcomes() {
                    for i in 0..s.conditions().len() {
                        if !touched.contains(&i) {
                            assert_eq!(s.conditions()[i], after.conditions()[i]);
                        }
                    }
                }
            }
        }
    }
}

fn targets(turn: &Turn) -> Vec<usize> {
    match &turn.action {
        Action::BasicAttack { target, .. }
        | Action::Hold { target, .. }
        | Action::ThrowObject { target }
        | Action::Catch { target, .. }
        | Action::Shoot { target }
        | Action::Knockout { target } => vec![*target],
        Action::Heal { .. } | Action::Nothing | Action::Evade { .. } | Action::Escape => vec![],
        Action::Blast { targets } => targets.clone(),
        Action::FightingAttacks { first, second } => vec![*first, *second],
        Action::WrestlingAttacks {
            basic_attack, hold, ..
        } => vec![*basic_attack, *hold],
    }
}

#[test]
fn a_delayed_combatant_cannot_act_and_the_fight_stops_when_one_side_stands() {
    let mut f = Fight::new(Environment::default(), Rules::default());
    f.add(Combatant::new(block("2 wrestling, 3 toughness"), 0))
        .unwrap();
    f.add(Combatant::new(block("2 fighting, 3 toughness"), 1))
        .unwrap();
    let e = FightEncounter::new(f.clone()).unwrap();
    f.start(&[20, 1], &[]).unwrap();
    // A hold that lands (face 19) delays #1: his turn is skipped, and nothing he could do
    // is open.
    f.take_turn(
        Turn::new(Action::Hold {
            target: 1,
            with: Some(dice_scratch_rps::Ability::Wrestling),
        }),
        &[19],
    )
    .unwrap();
    assert!(f.open_turns().is_empty());
    assert!(f.take_turn(Turn::new(Action::Nothing), &[]).is_err());
    let s = FightState::of(&f);
    let law = e.turn_law(&s, 1).unwrap();
    assert_eq!(law.len(), 1);
    assert!(!law.outcomes()[0].conditions()[1].is_delayed());
    // Once one side stands alone, the fight is over and no more turns are taken.
    let mut g = Fight::new(Environment::default(), Rules::default());
    g.add(Combatant::new(block("2 wrestling, 3 toughness"), 0))
        .unwrap();
    g.add(
        Combatant::new(block("2 fighting, 3 toughness"), 1)
            .with_hit_points(0)
            .unwrap(),
    )
    .unwrap();
    let e2 = FightEncounter::new(g.clone()).unwrap();
    let won = FightEnd {
        standing: Some("team 0".into()),
        escaped: vec![],
    };
    assert_eq!(e2.end(&e2.start()), Some(won));
    g.start(&[1, 2], &[]).unwrap();
    let s = FightState::of(&g);
    assert_eq!(
        e2.turn_law(&s, 0).unwrap().outcomes(),
        std::slice::from_ref(&s)
    );
}

#[test]
fn an_outnumbered_injured_outlaw_evades_then_escapes() {
    let mut f = Fight::new(Environment::default(), Rules::default());
    f.add(Combatant::new(block("2 fighting, 4 toughness"), 0))
        .unwrap();
    f.add(Combatant::new(block("2 fighting, 4 toughness"), 0))
        .unwrap();
    f.add(
        Combatant::new(block("2 quickness, 1 fighting, 6 toughness"), 1)
            .with_hit_points(2)
            .unwrap(),
    )
    .unwrap();
    let e = FightEncounter::new(f.clone()).unwrap();
    f.start(&[1, 2, 20], &[]).unwrap();
    assert_eq!(f.current(), Some(2));
    let turn = Tactics.choose_turn(&f);
    assert!(matches!(turn.action, Action::Evade { .. }), "{turn}");
    f.take_turn(turn, &[]).unwrap();
    f.pass().unwrap();
    f.pass().unwrap();
    assert_eq!(e.decide(&f), Turn::new(Action::Escape));
    f.take_turn(Turn::new(Action::Escape), &[]).unwrap();
    let end = e.end(&FightState::of(&f)).unwrap();
    assert_eq!(end.escaped, vec!["team 1".to_owned()]);
    assert_eq!(end.to_string(), "team 1 escaped");
}

/// Every turn the current combatant might name, each kept if `take_turn` (on a copy, with
/// the dice it needs) accepts it: what `Fight::open_turns` must list, in its order.
fn every_accepted_turn(f: &Fight) -> Vec<Turn> {
    use dice_scratch_rps::{Ability, BonusAction, Movement, Range};
    let Some(me) = f.current() else {
        return vec![];
    };
    if f.combatants()[me].status() != TurnStatus::Ready {
        return vec![];
    }
    let targets: Vec<usize> = (0..f.combatants().len())
        .filter(|&t| t != me && !f.combatants()[t].has_escaped())
        .collect();
    let movements = [
        None,
        Some(Movement::Acrobatics),
        Some(Movement::Quickness),
        Some(Movement::Flying),
        Some(Movement::Swimming),
    ];
    let mut actions = vec![Action::Nothing, Action::Escape];
    actions.extend(movements.map(|with| Action::Evade { with }));
    for &t in &targets {
        for with in [None, Some(Ability::Fighting), Some(Ability::Wrestling)] {
            actions.push(Action::BasicAttack { target: t, with });
        }
        for with in [None, Some(Ability::Wrestling)] {
            actions.push(Action::Hold { target: t, with });
        }
        actions.push(Action::ThrowObject { target: t });
        actions.extend(movements.map(|with| Action::Catch { target: t, with }));
        actions.push(Action::Shoot { target: t });
        actions.push(Action::Knockout { target: t });
        actions.push(Action::Heal { target: t });
        for &u in &targets {
            actions.push(Action::FightingAttacks {
                first: t,
                second: u,
            });
            for hold_first in [false, true] {
                actions.push(Action::WrestlingAttacks {
                    basic_attack: t,
                    hold: u,
                    hold_first,
                });
            }
        }
    }
    let n = targets.len();
    for i in 0..n {
        actions.push(Action::Blast {
            targets: vec![targets[i]],
        });
        for j in i + 1..n {
            actions.push(Action::Blast {
                targets: vec![targets[i], targets[j]],
            });
            for k in j + 1..n {
                actions.push(Action::Blast {
                    targets: vec![targets[i], targets[j], targets[k]],
                });
            }
        }
    }
    let mut open = Vec::new();
    for action in actions {
        let bonuses: &[Option<BonusAction>] = match action.range() {
            Some(Range::Close) => &[None, Some(BonusAction::Engage)],
            Some(Range::Long) => &[None, Some(BonusAction::TakeCover)],
            None => &[None],
        };
        for &bonus in bonuses {
            let turn = Turn {
                bonus,
                action: action.clone(),
            };
            let dice = vec![1; turn.action.dice_needed()];
            if f.clone().take_turn(turn.clone(), &dice).is_ok() {
                open.push(turn);
            }
        }
    }
    open
}

/// A fight where every movement ability and every part of the environment counts: room to
/// fly, ledges, shallow water with a swimmer in it, cover, things to throw, a healer.
fn wild_fight() -> FightEncounter {
    let env = Environment {
        room_to_fly: true,
        structures_3d: true,
        water: dice_scratch_rps::Water::Shallow,
        cover: true,
        throwable_object: true,
        ..Environment::default()
    };
    let mut f = Fight::new(env, Rules::default());
    f.add(Combatant::new(
        block("2 flying, 2 shooting, 1 knockout, 3 toughness"),
        0,
    ))
    .unwrap();
    f.add(
        Combatant::new(
            block("2 swimming, 2 wrestling, 1 quickness, 3 toughness"),
            1,
        )
        .in_water(true),
    )
    .unwrap();
    f.add(Combatant::new(
        block("2 acrobatics, 1 healing, 2 blasting, 2 toughness"),
        1,
    ))
    .unwrap();
    FightEncounter::new(f).unwrap()
}

#[test]
fn open_turns_are_every_turn_the_rules_allow() {
    // Fewer turns are tried than named (those refused whatever the dice are skipped, and a
    // turn after engaging or taking cover is open when the turn alone is): the same list.
    for e in small_fights()
        .iter()
        .chain([&example(), &wild_fight()])
        .chain(twin_fights().iter())
    {
        for s in reachable(e).iter().filter(|s| s.is_started()) {
            for position in 0..s.order().len() {
                let f = e.fight_at(s, position);
                assert_eq!(f.open_turns(), every_accepted_turn(&f), "{s} at {position}");
            }
        }
    }
}

/// The tactics' choice for the current combatant among the open turns.
trait ChooseTurn {
    fn choose_turn(&self, f: &Fight) -> Turn;
}
impl ChooseTurn for Tactics {
    fn choose_turn(&self, f: &Fight) -> Turn {
        use dice_core::Policy;
        self.choose(f, f.current().unwrap(), &f.open_turns())
    }
}

#[test]
fn a_played_record_starts_at_the_start_and_ends_where_end_says() {
    let e = example();
    let played = play(&e, &mut rng(9), 1_000);
    assert_eq!(played.states[0], e.start());
    assert!(played.states[1].is_started());
    let last = played.states.last().unwrap();
    assert_eq!(played.end, e.end(last));
}

#[test]
fn scenes_are_checked() {
    let one_side = Scene {
        combatants: vec![SceneCombatant::new("A", "x", "2 toughness")],
        ..Scene::default()
    };
    assert!(one_side.encounter().is_err());
    let mut too_hurt = SceneCombatant::new("B", "y", "2 toughness");
    too_hurt.hit_points = Some(3);
    let scene = Scene {
        combatants: vec![SceneCombatant::new("A", "x", "2 toughness"), too_hurt],
        ..Scene::default()
    };
    let err = scene.encounter().unwrap_err().to_string();
    assert!(err.contains("combatant B"), "{err}");
    let mut wet = SceneCombatant::new("C", "y", "2 toughness");
    wet.in_water = true;
    let scene = Scene {
        combatants: vec![SceneCombatant::new("A", "x", "2 toughness"), wet],
        ..Scene::default()
    };
    assert!(scene.encounter().is_err());
}

#[cfg(feature = "serde")]
mod shipped {
    use super::*;

    fn load() -> Scene {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/combat-example.toml");
        toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn the_combat_example_loads_plays_and_its_odds_sum_to_one() {
        let scene = load();
        let e = scene.encounter().unwrap();
        assert_eq!(e.names(), ["Chokestar", "Flipfire", "Breakhelm X-19"]);
        assert_eq!(e.fight().combatants(), example().fight().combatants());
        let played = play(&e, &mut rng(1), 1_000);
        assert!(played.end.is_some());
        let law = end_law(&e, EncounterLimits::default()).unwrap();
        assert!((law.ends.total() - 1.0).abs() < 1e-12);
        assert_eq!(law.ends.tail(), 0.0);
        assert!(law.states < 2_000, "{} states", law.states);
        // The same law as the scene built in code.
        let other = end_law(&example(), EncounterLimits::default()).unwrap();
        assert_eq!(law.ends, other.ends);
    }

    #[test]
    fn malformed_scenes_are_refused() {
        for bad in [
            "[[combatant]]\nname = \"A\"\nside = \"x\"\nstats = \"2 toughness\"\nspeed = 3\n",
            "colour = \"red\"\n",
            "[environment]\nlava = true\n",
        ] {
            assert!(toml::from_str::<Scene>(bad).is_err(), "{bad}");
        }
    }
}

/// The seeded rounds of `e`, played one by one with `play_round`.
fn rounds_played(e: &FightEncounter, seed: u64, cap: usize) -> Vec<FightState> {
    let mut r = rng(seed);
    let mut states = vec![e.start()];
    while states.len() <= cap {
        let now = states.last().unwrap();
        if e.end(now).is_some() {
            break;
        }
        states.push(e.play_round(now, &mut r));
    }
    states
}

#[test]
fn told_rounds_name_the_actors_and_play_as_untold_ones() {
    let mut fights = vec![example()];
    fights.extend(small_fights());
    fights.extend(twin_fights());
    for (i, e) in fights.iter().enumerate() {
        for seed in [3, 11] {
            let played = play(e, &mut rng(seed), 200);
            assert_eq!(played.states, rounds_played(e, seed, 200), "fight {i}");
            assert_eq!(played.told.len(), played.states.len() - 1);
            assert!(
                played.told[0][0].starts_with("initiative: "),
                "{:?}",
                played.told[0]
            );
            for round in &played.told {
                assert!(!round.is_empty());
                // A scene's combatants have names: no id is left as `#i`.
                let named = !e.names()[0].starts_with('#');
                for line in round {
                    assert!(!named || !line.contains('#'), "an id left unnamed: {line}");
                }
                // Each turn's line begins with the name of who took it.
                for line in round.iter().filter(|l| !l.starts_with("initiative: ")) {
                    assert!(
                        e.names().iter().any(|n| line.starts_with(n.as_str())),
                        "{line}"
                    );
                }
            }
        }
    }
    // The rulebook's scene: its names, its rolls and their outcomes.
    let played = play(&example(), &mut rng(5), 200);
    let all = played.told.concat().join("\n");
    for word in ["Chokestar", "Flipfire", "Breakhelm X-19", " vs ", " hp"] {
        assert!(all.contains(word), "{word} missing from\n{all}");
    }
}

/// Duels of small random characters, in a bare room and in one with cover and things to
/// throw.
fn random_duels() -> Vec<FightEncounter> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let mut out = Vec::new();
    for i in 0..6 {
        let env = if i % 2 == 0 {
            Environment::default()
        } else {
            Environment {
                cover: true,
                throwable_object: true,
                ..Environment::default()
            }
        };
        let mut f = Fight::new(env, Rules::default());
        f.add(Combatant::new(random_block(&mut next), 0)).unwrap();
        f.add(Combatant::new(random_block(&mut next), 1)).unwrap();
        out.push(FightEncounter::new(f).unwrap());
    }
    out
}

#[test]
fn the_state_bound_is_above_the_states_reached() {
    let mut fights = vec![example()];
    fights.extend(small_fights());
    fights.extend(twin_fights());
    fights.extend(random_duels());
    let mut given = 0;
    for e in &fights {
        let law = end_law(e, EncounterLimits::default()).unwrap();
        let states = law.states as u64;
        assert!(e.rules_bound() >= states, "{} < {states}", e.rules_bound());
        if let Some(b) = e.state_bound() {
            assert_eq!(b, e.rules_bound());
            assert!(b <= EncounterLimits::default().max_states as u64);
            given += 1;
        }
    }
    // The duels are bounded, the combat example is not (its bound would refuse it).
    assert!(given >= 6, "{given} bounds given");
    assert_eq!(example().state_bound(), None);
}

/// The Boss's gang of the shipped scene (L103–L107) against the bounty hunters, with
/// `extra` more on the gang's side.
fn boss_fight(extra: &[(&str, bool)]) -> FightEncounter {
    let env = Environment {
        cover: true,
        throwable_object: true,
        ..Environment::default()
    };
    let mut f = Fight::new(env, Rules::default());
    f.add(Combatant::new(
        block("2 piloting, 2 wrestling, 3 stalking, 3 toughness"),
        0,
    ))
    .unwrap();
    f.add(Combatant::new(
        block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness"),
        0,
    ))
    .unwrap();
    f.add(Combatant::new(
        block("2 shooting, 1 stalking, 4 command, 3 toughness"),
        1,
    ))
    .unwrap();
    let thug = ("2 toughness", true);
    for &(stats, minion) in [thug, thug].iter().chain(extra) {
        let c = Combatant::new(block(stats), 1);
        f.add(if minion { c.minion() } else { c }).unwrap();
    }
    FightEncounter::new(f).unwrap()
}

#[test]
fn fights_too_large_are_refused_before_any_work() {
    // A sixth combatant with 6 hit points: estimated at more than the budget (it reaches
    // more than 200,000 states).
    let big = boss_fight(&[("1 piloting, 4 shooting, 4 fighting, 6 toughness", false)]);
    assert!(big.estimated_states() > big.estimate_budget());
    assert_eq!(big.state_bound(), None);
    let err = end_law(&big, EncounterLimits::default()).unwrap_err();
    assert!(
        matches!(err, dice_core::Error::TooComplex { work, .. } if work == big.estimated_states()),
        "{err}"
    );
    // Two more thugs: seven combatants, more initiative orders than the exact law lists.
    let seven = boss_fight(&[("2 toughness", true), ("2 toughness", true)]);
    assert!(matches!(
        end_law(&seven, EncounterLimits::default()),
        Err(dice_core::Error::TooComplex { .. })
    ));
    // The Boss and his two thugs are within the budget (the scene's exact law, 12,754
    // states, is checked by the CLI and the benches).
    let boss = boss_fight(&[]);
    assert!(boss.estimated_states() <= boss.estimate_budget());
    // A larger budget lets the engine try (its own limits stop it as the states are listed).
    let tight = boss.with_estimate_budget(10);
    assert!(matches!(
        end_law(&tight, EncounterLimits::default()),
        Err(dice_core::Error::TooComplex { max: 10, .. })
    ));
}

#[test]
fn health_at_the_end_is_each_combatants_hit_points() {
    let end = |side: &str| FightEnd {
        standing: Some(side.into()),
        escaped: vec![],
    };
    // A duel (no one to give up to, L53: no escapes): standing at the end is winning.
    let duel = &small_fights()[0];
    let law = end_law(duel, EncounterLimits::default()).unwrap();
    assert_eq!(law.health.len(), 2);
    for (i, (name, d)) in law.health.iter().enumerate() {
        assert_eq!(name, &format!("#{i}"));
        let up: f64 = d.iter().filter(|(h, _)| **h > 0).map(|(_, p)| p).sum();
        let won = law.ends.probability(&end(&format!("team {i}")));
        assert!((up - won).abs() < 1e-12, "{name}: {up} against {won}");
        assert!((d.total() + d.tail() - 1.0).abs() < 1e-12);
        let max = i64::from(duel.fight().combatants()[i].character().max_hit_points());
        assert!(d.iter().all(|(h, _)| (0..=max).contains(h)));
    }
    // The combat example: Breakhelm X-19 is left standing exactly when the outlaw wins (when
    // he escapes, the state keeps no hit points for him).
    let e = example();
    let law = end_law(&e, EncounterLimits::default()).unwrap();
    let names: Vec<&str> = law.health.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, e.names());
    let breakhelm = &law.health[2].1;
    let up: f64 = breakhelm
        .iter()
        .filter(|(h, _)| **h > 0)
        .map(|(_, p)| p)
        .sum();
    assert!((up - law.ends.probability(&end("outlaw"))).abs() < 1e-12);
    for (_, d) in &law.health {
        assert!((d.total() - 1.0).abs() < 1e-12);
    }
}
