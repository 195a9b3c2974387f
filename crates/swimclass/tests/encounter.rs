//! Whole fights: the exact round law against a brute force over every face of every roll
//! (pushed forward for thousands of rounds), played fights against the exact law, the turn
//! rules, and the shipped Sample Rounds scene.

use std::cell::RefCell;
use std::collections::BTreeMap;

use dice_core::{
    Dist, Encounter, EncounterLimits, Ending, Exact, PlayOut, Policy, Roll, end_law, play,
};
use dice_swimclass::encounter::{
    Action, CombatantSheet, Fight, FightState, ImplementSpec, Scene, Stance, Standing,
};
use dice_swimclass::{
    Bonus, Error, InitiativeScore, OpposedRoll, Rules, School, Sheet, Skill, SkillDice, Stabilize,
    with_reserve,
};
use dice_testkit::{check_rolls, rng};

// ---------------------------------------------------------------------------------------
// Brute force
// ---------------------------------------------------------------------------------------

/// Every list of `n` d6 faces.
fn faces(n: u32) -> Vec<Vec<u32>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|v| {
                (1..=6).map(move |f| {
                    let mut w = v.clone();
                    w.push(f);
                    w
                })
            })
            .collect();
    }
    out
}

/// The law of an opposed roll's outcome from every face of both sides (the pure form).
fn opposed_by_faces(roll: &OpposedRoll, att: u32, def: u32) -> BTreeMap<(u32, bool), f64> {
    let af = faces(att);
    let df = faces(def);
    let p = 1.0 / (af.len() * df.len()) as f64;
    let mut m = BTreeMap::new();
    for a in &af {
        for d in &df {
            let o = roll.resolve(a, d).unwrap().outcome;
            *m.entry((o.hits, o.succeeded)).or_insert(0.0) += p;
        }
    }
    m
}

/// The initiative order of `members` from every face: one roll each, tied groups re-roll
/// among themselves, a full tie re-rolls everything (a geometric series).
fn order_by_faces(dice: &[SkillDice], members: &[u8], rules: &Rules) -> BTreeMap<Vec<u8>, f64> {
    if members.len() == 1 {
        return BTreeMap::from([(members.to_vec(), 1.0)]);
    }
    // Joint faces of every member, as one long list.
    let counts: Vec<u32> = members
        .iter()
        .map(|&m| dice[m as usize].rolled(rules))
        .collect();
    let all = faces(counts.iter().sum());
    let p = 1.0 / all.len() as f64;
    let mut tie = 0.0;
    let mut by_groups: BTreeMap<Vec<Vec<u8>>, f64> = BTreeMap::new();
    for f in &all {
        let mut at = 0;
        let mut scored: Vec<(InitiativeScore, u8)> = Vec::new();
        for (&m, &c) in members.iter().zip(&counts) {
            let vals: Vec<i64> = f[at..at + c as usize]
                .iter()
                .map(|&x| i64::from(x))
                .collect();
            at += c as usize;
            scored.push((InitiativeScore::of(&vals), m));
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut groups: Vec<Vec<u8>> = Vec::new();
        for (k, &(s, m)) in scored.iter().enumerate() {
            if k > 0 && scored[k - 1].0 == s {
                groups.last_mut().unwrap().push(m);
            } else {
                groups.push(vec![m]);
            }
        }
        if groups.len() == 1 {
            tie += p;
        } else {
            *by_groups.entry(groups).or_insert(0.0) += p;
        }
    }
    let mut out = BTreeMap::new();
    for (gs, p) in by_groups {
        let mut law: BTreeMap<Vec<u8>, f64> = BTreeMap::from([(Vec::new(), 1.0)]);
        for g in &gs {
            let sub = order_by_faces(dice, g, rules);
            let mut next = BTreeMap::new();
            for (pre, q) in &law {
                for (o, r) in &sub {
                    let mut v = pre.clone();
                    v.extend_from_slice(o);
                    *next.entry(v).or_insert(0.0) += q * r;
                }
            }
            law = next;
        }
        for (o, q) in law {
            *out.entry(o).or_insert(0.0) += p * q / (1.0 - tie);
        }
    }
    out
}

/// The rules of a turn, written again from the rulebook, with every roll's law from its
/// faces.
struct Brute<'a> {
    fight: &'a Fight,
    rules: Rules,
    /// (attacker, target, reserve) → hits law; stun success law.
    hits: BTreeMap<(usize, usize, bool), BTreeMap<u32, f64>>,
    stun: BTreeMap<(usize, usize, bool), f64>,
    order: BTreeMap<Vec<u8>, f64>,
}

impl<'a> Brute<'a> {
    fn new(fight: &'a Fight) -> Brute<'a> {
        let rules = *fight.rules();
        let cs = fight.combatants();
        let mut hits = BTreeMap::new();
        let mut stun = BTreeMap::new();
        for (i, a) in cs.iter().enumerate() {
            for (t, d) in cs.iter().enumerate() {
                if fight.side_of(i) == fight.side_of(t) {
                    continue;
                }
                for reserve in [false, true] {
                    let def = match (reserve, d.reserve) {
                        (false, _) => d.defense.clone(),
                        (true, Some(r)) => with_reserve(d.defense.clone(), r, &rules).unwrap(),
                        (true, None) => continue,
                    };
                    let roll =
                        OpposedRoll::new(a.attack.clone(), a.difficulty, Some(def.clone()), rules)
                            .unwrap();
                    let m = opposed_by_faces(&roll, a.attack.rolled(&rules), def.rolled(&rules));
                    let mut h = BTreeMap::new();
                    for ((k, _), p) in m {
                        *h.entry(k).or_insert(0.0) += p;
                    }
                    hits.insert((i, t, reserve), h);
                    if let Some((dice, diff)) = &a.stun {
                        let roll = OpposedRoll::new(dice.clone(), *diff, Some(def.clone()), rules)
                            .unwrap();
                        let m = opposed_by_faces(&roll, dice.rolled(&rules), def.rolled(&rules));
                        let p: f64 = m.iter().filter(|((_, s), _)| *s).map(|(_, p)| p).sum();
                        stun.insert((i, t, reserve), p);
                    }
                }
            }
        }
        let init: Vec<SkillDice> = cs.iter().map(|c| c.initiative.clone()).collect();
        let all: Vec<u8> = (0..cs.len() as u8).collect();
        let order = order_by_faces(&init, &all, &rules);
        Brute {
            fight,
            rules,
            hits,
            stun,
            order,
        }
    }

    fn up(&self, s: &Standing) -> bool {
        s.hp > 0
    }

    fn turn(&self, s: &FightState, who: usize) -> Vec<(FightState, f64)> {
        if self.fight.end(s).is_some() {
            return vec![(s.clone(), 1.0)];
        }
        let cs = self.fight.combatants();
        let mut s = s.clone();
        // "until your next turn" (L43), "until attacker's next turn" (L231).
        s.standing[who].reserve = false;
        for x in &mut s.standing {
            if x.stunned_by == Some(who as u8) {
                x.stunned_by = None;
            }
        }
        let me = s.standing[who];
        let rank = cs[who].defense_rank;
        let mut out = Vec::new();
        if me.hp < 0 && !me.stable && u32::from(me.stabilize_criticals) <= rank {
            // Dying: a Defense roll at difficulty = damage beyond 0, from its faces.
            let h = dice_swimclass::Health {
                defense_rank: rank,
                hp: i64::from(me.hp),
                stabilize_criticals: u32::from(me.stabilize_criticals),
                stable: false,
            };
            let roll = Stabilize::new(SkillDice::new(rank), &h, &self.rules).unwrap();
            let all = faces(rank);
            let p = 1.0 / all.len() as f64;
            for f in &all {
                let o = roll.resolve(f).unwrap();
                let mut t = s.clone();
                let mut hh = h;
                hh.stabilize(o);
                t.standing[who].hp = hh.hp as i16;
                t.standing[who].stable = hh.stable;
                t.standing[who].stabilize_criticals = hh.stabilize_criticals as u8;
                out.push((t, p));
            }
        } else if me.hp > 0 && me.stunned_by.is_none() {
            let open = self.fight.open_actions(&s, who);
            let a = self.fight.policy().choose(&s, who, &open);
            match a {
                Action::Reserve => {
                    s.standing[who].reserve = true;
                    out.push((s, 1.0));
                }
                Action::Attack(t) => {
                    let t = t as usize;
                    let law = &self.hits[&(who, t, s.standing[t].reserve)];
                    for (&k, &p) in law {
                        let mut n = s.clone();
                        n.standing[t].hp -= k as i16;
                        if k > 0 && n.standing[t].hp < 0 {
                            n.standing[t].stable = false;
                        }
                        out.push((n, p));
                    }
                }
                Action::Stun(t) => {
                    let t = t as usize;
                    let p = self.stun[&(who, t, s.standing[t].reserve)];
                    let mut n = s.clone();
                    n.standing[t].stunned_by = Some(who as u8);
                    out.push((n, p));
                    out.push((s, 1.0 - p));
                }
            }
        } else {
            out.push((s, 1.0));
        }
        for (x, _) in &mut out {
            for y in &mut x.standing {
                if !self.up(y) {
                    y.reserve = false;
                    y.stunned_by = None;
                }
            }
        }
        out
    }

    fn round(&self, s: &FightState) -> BTreeMap<FightState, f64> {
        let starts: Vec<(FightState, f64)> = if s.order.is_empty() {
            self.order
                .iter()
                .map(|(o, p)| {
                    let mut t = s.clone();
                    t.order = o.clone();
                    (t, *p)
                })
                .collect()
        } else {
            vec![(s.clone(), 1.0)]
        };
        let mut out = BTreeMap::new();
        for (start, p0) in starts {
            let mut now: BTreeMap<FightState, f64> = BTreeMap::from([(start.clone(), p0)]);
            for &who in &start.order {
                let mut next = BTreeMap::new();
                for (x, p) in &now {
                    for (y, q) in self.turn(x, who as usize) {
                        if q > 0.0 {
                            *next.entry(y).or_insert(0.0) += p * q;
                        }
                    }
                }
                now = next;
            }
            for (x, p) in now {
                *out.entry(x).or_insert(0.0) += p;
            }
        }
        out
    }

    /// P(each end) by pushing the mass forward `rounds` rounds.
    fn forward(&self, rounds: u32) -> BTreeMap<String, f64> {
        let mut cache: BTreeMap<FightState, BTreeMap<FightState, f64>> = BTreeMap::new();
        let mut mass = BTreeMap::from([(self.fight.start(), 1.0)]);
        let mut ends = BTreeMap::new();
        for _ in 0..rounds {
            let mut next = BTreeMap::new();
            for (s, m) in &mass {
                if !cache.contains_key(s) {
                    cache.insert(s.clone(), self.round(s));
                }
                for (t, p) in &cache[s] {
                    match self.fight.end(t) {
                        Some(e) => *ends.entry(e.side).or_insert(0.0) += m * p,
                        None => *next.entry(t.clone()).or_insert(0.0) += m * p,
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
}

// ---------------------------------------------------------------------------------------
// Small fights
// ---------------------------------------------------------------------------------------

fn fighter(name: &str, side: &str, melee: u32, defense: u32) -> CombatantSheet {
    CombatantSheet::new(
        name,
        side,
        Sheet::with_ranks([(Skill::BasicMelee, melee), (Skill::BasicDefense, defense)]),
    )
}

/// One against two, plain dice, with a guard who holds Brawn in reserve when hurt.
fn two_on_one() -> Scene {
    let mut brute = fighter("Brute", "brutes", 2, 2);
    brute.skills.set(Skill::Finesse, 2);
    let mut a = fighter("Ana", "heroes", 1, 1);
    a.skills.set(Skill::Brawn, 2);
    a.reserve = Some(Skill::Brawn);
    a.stance = Stance::Guard;
    let b = fighter("Bo", "heroes", 1, 1);
    Scene {
        title: None,
        combatant: vec![brute, a, b],
    }
}

/// A Death mage who stuns and her ally, against a swordsman with a knife and a shield.
fn mage_duel() -> Scene {
    let mut mage = fighter("Mage", "mage", 1, 1);
    mage.skills.set(Skill::Magic(School::Death), 2);
    mage.stun_range = Some(1);
    mage.stance = Stance::Stun;
    let grunt = fighter("Grunt", "mage", 1, 1);
    let mut sword = fighter("Sword", "sword", 1, 2);
    sword.attack_implements = vec![ImplementSpec::Named("Knife".into())];
    sword.defense_implements = vec![ImplementSpec::Bonus(Bonus::Plus {
        dice: 1,
        modifier: 1,
    })];
    Scene {
        title: Some("stun".into()),
        combatant: vec![mage, grunt, sword],
    }
}

fn fights() -> Vec<Fight> {
    vec![
        Fight::new(&Scene::sample_rounds(), Rules::default()).unwrap(),
        Fight::new(&two_on_one(), Rules::default()).unwrap(),
        Fight::new(&mage_duel(), Rules::default()).unwrap(),
    ]
}

#[test]
fn round_laws_match_every_face() {
    for f in fights() {
        let brute = Brute::new(&f);
        // The first round (initiative and every turn), then every state reached.
        let law = end_law(&f, EncounterLimits::default()).unwrap();
        let mut seen = vec![f.start()];
        let mut k = 0;
        while k < seen.len() && k < 400 {
            let s = seen[k].clone();
            k += 1;
            if f.end(&s).is_some() {
                continue;
            }
            let exact = f.round_law(&s).unwrap();
            let by_faces = brute.round(&s);
            assert_eq!(exact.len(), by_faces.len(), "{}: {s}", f.title());
            for (t, p) in exact.iter() {
                let q = by_faces.get(t).copied().unwrap_or(0.0);
                assert!(
                    (p - q).abs() < 1e-12,
                    "{}: {s} -> {t}: {p} vs {q}",
                    f.title()
                );
                if !seen.contains(t) {
                    seen.push(t.clone());
                }
            }
        }
        // The end law against thousands of rounds pushed forward.
        let ends = brute.forward(5_000);
        for (side, p) in &ends {
            let got = law
                .ends
                .probability(&dice_swimclass::Victory { side: side.clone() });
            assert!(
                (got - p).abs() < 1e-9,
                "{}: {side}: {got} vs {p}",
                f.title()
            );
        }
        assert!((law.ends.total() - 1.0).abs() < 1e-12);
        assert!(law.states < 5_000, "{} states", law.states);
    }
}

#[test]
fn initiative_for_three_matches_every_face() {
    let f = Fight::new(&two_on_one(), Rules::default()).unwrap();
    let init: Vec<SkillDice> = f
        .combatants()
        .iter()
        .map(|c| c.initiative.clone())
        .collect();
    let brute = order_by_faces(&init, &[0, 1, 2], &Rules::default());
    let law = f.initiative_law();
    assert_eq!(law.len(), 6);
    for (o, p) in &brute {
        assert!((law.probability(o) - p).abs() < 1e-12, "{o:?}");
    }
    // Ana and Bo roll alike: they are equally likely in either order.
    assert!((law.probability(&vec![0, 1, 2]) - law.probability(&vec![0, 2, 1])).abs() < 1e-12);
}

#[test]
fn played_fights_follow_the_exact_law() {
    for (i, f) in fights().into_iter().enumerate() {
        let exact = end_law(&f, EncounterLimits::default()).unwrap();
        let run = PlayOut::new(f, 1_000).unwrap();
        let law = run.distribution().unwrap();
        for (v, p) in exact.ends.iter() {
            assert!((law.probability(&Ending::Ended(v.clone())) - p).abs() < 1e-12);
        }
        let mut r = rng(60 + i as u64);
        check_rolls("a Swimclass fight played out", &law, || run.roll(&mut r));
    }
}

// ---------------------------------------------------------------------------------------
// The rules of a turn
// ---------------------------------------------------------------------------------------

thread_local! {
    static LOG: RefCell<Vec<(usize, Vec<Action>)>> = const { RefCell::new(Vec::new()) };
}

/// Records who the policy was asked about and what was open, and picks the last open
/// action.
struct Recording;

impl Policy<FightState, Action> for Recording {
    fn choose(&self, _: &FightState, who: usize, open: &[Action]) -> Action {
        LOG.with(|l| l.borrow_mut().push((who, open.to_vec())));
        open[open.len() - 1]
    }
}

#[test]
fn only_the_combatant_whose_turn_it_is_acts() {
    let f = Fight::with_policy(&two_on_one(), Rules::default(), Recording).unwrap();
    let mut s = f.start();
    s.order = vec![2, 0, 1];
    LOG.with(|l| l.borrow_mut().clear());
    let _ = f.round_law(&s).unwrap();
    let log = LOG.with(|l| l.borrow().clone());
    // Bo, then the brute (once for each of Bo's results), then Ana: turns in order.
    let pos = |who: usize| s.order.iter().position(|&w| w as usize == who).unwrap();
    assert_eq!(log[0].0, 2);
    assert!(log.windows(2).all(|w| pos(w[0].0) <= pos(w[1].0)));
    assert!(log.iter().any(|x| x.0 == 0) && log.iter().any(|x| x.0 == 1));
    // The brute is offered only the heroes; the heroes only the brute, and Ana her reserve.
    for (who, open) in &log {
        match who {
            0 => assert!(open.iter().all(|a| matches!(a, Action::Attack(1 | 2)))),
            1 => assert_eq!(open, &vec![Action::Attack(0), Action::Reserve]),
            2 => assert_eq!(open, &vec![Action::Attack(0)]),
            _ => unreachable!(),
        }
    }
}

/// Always picks an action the fight does not offer (stunning oneself).
struct Cheat;

impl Policy<FightState, Action> for Cheat {
    fn choose(&self, _: &FightState, who: usize, _: &[Action]) -> Action {
        Action::Stun(who as u8)
    }
}

#[test]
fn an_action_not_open_is_refused() {
    let f = Fight::with_policy(&Scene::sample_rounds(), Rules::default(), Cheat).unwrap();
    let plain = Fight::new(&Scene::sample_rounds(), Rules::default()).unwrap();
    let s = f.start();
    // Stunning oneself is not open: the first open action (the attack) is taken instead,
    // so the fight plays as the default policy does.
    assert_eq!(f.round_law(&s).unwrap(), plain.round_law(&s).unwrap());
}

#[test]
fn down_and_stunned_combatants_do_not_act() {
    let f = Fight::new(&two_on_one(), Rules::default()).unwrap();
    let mut s = f.start();
    s.order = vec![0, 1, 2];
    // Bo is down: no actions, never a target.
    s.standing[2].hp = 0;
    assert!(f.open_actions(&s, 2).is_empty());
    assert_eq!(f.open_actions(&s, 0), vec![Action::Attack(1)]);
    // Ana is stunned by the brute: her turn (first) passes; the stun ends on the brute's.
    s.order = vec![1, 0, 2];
    s.standing[1].stunned_by = Some(0);
    assert!(f.open_actions(&s, 1).is_empty());
    let law = f.round_law(&s).unwrap();
    for (t, _) in law.iter() {
        assert_eq!(t.standing[1].stunned_by, None);
        // Nobody but the brute acted: the brute is unhurt.
        assert_eq!(t.standing[0].hp, s.standing[0].hp);
    }
    // Stunned by Bo (down, but his turn still comes after Ana's): Ana does not act, and
    // the stun ends with Bo's turn.
    let mut s2 = s.clone();
    s2.standing[1].stunned_by = Some(2);
    for (t, _) in f.round_law(&s2).unwrap().iter() {
        assert_eq!(t.standing[0].hp, s.standing[0].hp);
        assert_eq!(t.standing[1].stunned_by, None);
    }
}

#[test]
fn reserve_adds_to_defense_until_the_next_turn() {
    let f = Fight::new(&two_on_one(), Rules::default()).unwrap();
    let with = f.hits_law(0, 1, true).unwrap();
    let without = f.hits_law(0, 1, false).unwrap();
    // Brawn 2 in reserve adds 2 − 1 = 1 die (as in combining, L43): fewer hits.
    assert!(with.mean() < without.mean());
    assert!(f.hits_law(0, 2, true).is_none()); // Bo has no reserve skill
    // Ana at 1 HP guards; her reserve ends when her next turn begins.
    let mut s = f.start();
    s.order = vec![1, 0, 2];
    s.standing[1].hp = 1;
    let law = f.round_law(&s).unwrap();
    assert!(
        law.iter()
            .all(|(t, _)| t.standing[1].hp <= 0 || t.standing[1].reserve)
    );
    let mut again = s.clone();
    again.standing[1].reserve = true;
    again.standing[1].hp = 2; // unhurt enough to attack: the reserve is dropped
    for (t, _) in f.round_law(&again).unwrap().iter() {
        assert!(!t.standing[1].reserve);
    }
}

#[test]
fn the_dying_roll_to_stabilize_and_may_die() {
    let f = Fight::new(&two_on_one(), Rules::default()).unwrap();
    let mut s = f.start();
    s.order = vec![1, 0, 2];
    s.standing[1].hp = -1;
    // Ana (Defense 1) rolls 1d6 at difficulty 1: always stabilized.
    for (t, _) in f.round_law(&s).unwrap().iter() {
        assert!(t.standing[1].stable);
    }
    // Defense 1 against difficulty 2: a single die never has a critical that counts (the
    // first is ignored), so she stabilizes with 5/6 and stays dying otherwise.
    s.standing[1].hp = -2;
    let law = f.round_law(&s).unwrap();
    let stable = law.probability_where(|t| t.standing[1].stable);
    assert!((stable - 5.0 / 6.0).abs() < 1e-12);
    // Dead: criticals to stabilize beyond Defense; no more rolls.
    s.standing[1].stabilize_criticals = 2;
    for (t, _) in f.round_law(&s).unwrap().iter() {
        assert_eq!(t.standing[1].hp, -2);
        assert!(!t.standing[1].stable);
    }
}

#[test]
fn stun_lasts_until_the_attackers_next_turn() {
    let f = Fight::new(&mage_duel(), Rules::default()).unwrap();
    let mut s = f.start();
    s.order = vec![0, 2, 1];
    let law = f.round_law(&s).unwrap();
    // The mage stuns (stance, with an ally standing): the swordsman, stunned, does not hit
    // back that round.
    let stunned = law.probability_where(|t| t.standing[2].stunned_by == Some(0));
    assert!(stunned > 0.0 && stunned < 1.0);
    for (t, _) in law.iter() {
        if t.standing[2].stunned_by == Some(0) {
            assert_eq!((t.standing[0].hp, t.standing[1].hp), (2, 2));
        }
    }
    // Next round the mage's turn ends the stun, and (stance) it stuns again.
    let mut next = s.clone();
    next.standing[2].stunned_by = Some(0);
    let again = f.round_law(&next).unwrap();
    let p = again.probability_where(|t| t.standing[2].stunned_by == Some(0));
    assert!((p - stunned).abs() < 1e-12);
    // Alone, the mage attacks instead: a stun without an ally only delays.
    let mut alone = s.clone();
    alone.standing[1].hp = 0;
    let law = f.round_law(&alone).unwrap();
    assert!(law.iter().all(|(t, _)| t.standing[2].stunned_by.is_none()));
}

#[test]
fn bad_scenes_are_refused() {
    let rules = Rules::default();
    let mut s = Scene::sample_rounds();
    s.combatant[1].name = "Orc".into();
    assert!(matches!(Fight::new(&s, rules), Err(Error::Scene { .. })));
    let mut s = Scene::sample_rounds();
    s.combatant[1].side = "Orc".into();
    assert!(matches!(Fight::new(&s, rules), Err(Error::Scene { .. })));
    let mut s = Scene::sample_rounds();
    s.combatant[0].attack_implements = vec![ImplementSpec::Named("Vorpal Blade".into())];
    assert!(matches!(Fight::new(&s, rules), Err(Error::Scene { .. })));
    let mut s = Scene::sample_rounds();
    s.combatant[0].stun_range = Some(1); // no Death magic: unavailable (L23)
    assert!(matches!(
        Fight::new(&s, rules),
        Err(Error::Unavailable { .. })
    ));
    let mut s = Scene::sample_rounds();
    s.combatant[0].attack = Skill::BasicRanged;
    assert!(matches!(Fight::new(&s, rules), Err(Error::Scene { .. })));
    let mut s = Scene::sample_rounds();
    for c in &mut s.combatant {
        c.skills.set(Skill::Finesse, 0);
    }
    assert!(matches!(Fight::new(&s, rules), Err(Error::Scene { .. })));
    let mut s = Scene::sample_rounds();
    s.combatant = (0..9)
        .map(|k| fighter(&format!("F{k}"), &format!("S{k}"), 1, 1))
        .collect();
    assert!(matches!(Fight::new(&s, rules), Err(Error::Scene { .. })));
}

// ---------------------------------------------------------------------------------------
// The shipped scene
// ---------------------------------------------------------------------------------------

#[test]
fn the_sample_rounds_play_to_an_end() {
    let f = Fight::new(&Scene::sample_rounds(), Rules::default()).unwrap();
    let played = play(&f, &mut rng(1), 1_000);
    assert!(played.end.is_some());
    let law = end_law(&f, EncounterLimits::default()).unwrap();
    assert!((law.ends.total() - 1.0).abs() < 1e-12);
    assert_eq!(law.ends.len(), 2);
    assert!(law.states < 1_000);
    // Its first exchange (L270–L284): the orc's club against Harro's parry, the exact law
    // the crate gives an opposed roll.
    let orc = f.hits_law(0, 1, false).unwrap();
    let club = OpposedRoll::new(
        SkillDice::new(2)
            .with_bonus(Bonus::Plus {
                dice: 1,
                modifier: 2,
            })
            .unwrap(),
        dice_swimclass::NO_THRESHOLD,
        Some(
            SkillDice::new(3)
                .with_bonus(Bonus::Plus {
                    dice: 3,
                    modifier: 1,
                })
                .unwrap(),
        ),
        Rules::default(),
    )
    .unwrap();
    let by_faces = opposed_by_faces(&club, 2, 3);
    for (h, p) in orc.iter() {
        let q: f64 = by_faces
            .iter()
            .filter(|((k, _), _)| k == h)
            .map(|(_, p)| p)
            .sum();
        assert!((p - q).abs() < 1e-12);
    }
    let _: &Dist<u32> = orc;
}

#[cfg(feature = "serde")]
#[test]
fn the_shipped_scene_file_is_the_sample_rounds() {
    let text = include_str!("../scenes/sample-rounds.toml");
    let scene: Scene = toml::from_str(text).unwrap();
    assert_eq!(scene, Scene::sample_rounds());
    let f = Fight::new(&scene, Rules::default()).unwrap();
    let law = end_law(&f, EncounterLimits::default()).unwrap();
    assert!((law.ends.total() - 1.0).abs() < 1e-12);
    // Unknown fields are refused.
    let bad = text.replace("side = \"Orc\"", "side = \"Orc\"\ncolour = \"green\"");
    assert!(toml::from_str::<Scene>(&bad).is_err());
}
