//! Whole fights: the exact round law against a brute force over every face of every roll
//! (pushed forward for thousands of rounds), with heals, stabilization by Life and skills
//! advancing mid-fight; played fights against the exact law; the turn rules; and the shipped
//! Sample Rounds scene.

use std::cell::RefCell;
use std::collections::BTreeMap;

use dice_core::{
    Dist, Encounter, EncounterLimits, Ending, Exact, PlayOut, Policy, Roll, end_law, play,
};
use dice_swimclass::encounter::{
    Action, CombatantSheet, Fight, FightState, ImplementSpec, Scene, Stance,
};
use dice_swimclass::{
    Bonus, Error, Health, InitiativeScore, OpposedRoll, Rules, School, Sheet, Skill, SkillDice,
    Stabilize, Task, TaskRoll, with_reserve,
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

/// The outcome of an opposed roll that a fight uses: hits, and both sides' advances.
type Exchange = (u32, bool, bool);

/// The law of an opposed roll's outcome from every face of both sides (the pure form).
fn opposed_by_faces(roll: &OpposedRoll, att: u32, def: u32) -> BTreeMap<Exchange, f64> {
    let af = faces(att);
    let df = faces(def);
    let p = 1.0 / (af.len() * df.len()) as f64;
    let mut m = BTreeMap::new();
    for a in &af {
        for d in &df {
            let o = roll.resolve(a, d).unwrap().outcome;
            *m.entry((o.hits, o.advances, o.defense_advances))
                .or_insert(0.0) += p;
        }
    }
    m
}

/// The law of a task roll's (success, criticals, advances) from every face.
fn task_by_faces(roll: &TaskRoll, dice: u32) -> BTreeMap<(bool, u32, bool), f64> {
    let all = faces(dice);
    let p = 1.0 / all.len() as f64;
    let mut m = BTreeMap::new();
    for f in &all {
        let o = roll.resolve(f).unwrap().outcome;
        *m.entry((o.succeeded, o.criticals, o.advances))
            .or_insert(0.0) += p;
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

/// Which roll of a fight: (stun, attacker, target, attacking rank, defending rank, reserve
/// rank held).
type Key = (bool, usize, usize, u32, u32, Option<u32>);

/// The rules of a turn, written again from the rulebook, with every roll's law from its
/// faces, at the ranks the state holds.
struct Brute<'a> {
    fight: &'a Fight,
    rules: Rules,
    opposed: RefCell<BTreeMap<Key, BTreeMap<Exchange, f64>>>,
    order: BTreeMap<Vec<u8>, f64>,
}

impl<'a> Brute<'a> {
    fn new(fight: &'a Fight) -> Brute<'a> {
        let rules = *fight.rules();
        let cs = fight.combatants();
        let init: Vec<SkillDice> = cs.iter().map(|c| c.initiative.clone()).collect();
        let all: Vec<u8> = (0..cs.len() as u8).collect();
        let order = order_by_faces(&init, &all, &rules);
        Brute {
            fight,
            rules,
            opposed: RefCell::new(BTreeMap::new()),
            order,
        }
    }

    /// `who`'s rank of `skill`: the sheet's, and what the fight gained.
    fn rank(&self, s: &FightState, who: usize, skill: Skill) -> u32 {
        let c = &self.fight.combatants()[who];
        let base = c.sheet().rank(skill);
        match c.tracked().iter().position(|&t| t == skill) {
            Some(k) => base + u32::from(s.standing[who].gained[k]),
            None => base,
        }
    }

    /// Dice of `rank` for a role whose dice at the sheet's rank are `base` (the small
    /// fights that advance use dice with no implements).
    fn dice(base: &SkillDice, base_rank: u32, rank: u32) -> SkillDice {
        if rank == base_rank {
            return base.clone();
        }
        assert_eq!(
            base,
            &SkillDice::new(base_rank),
            "advancing dice with implements"
        );
        SkillDice::new(rank)
    }

    fn defense_rank(&self, s: &FightState, who: usize) -> u32 {
        self.rank(s, who, self.fight.combatants()[who].defense_skill())
    }

    /// L27, L31: the skill +1 with its synergies; the HP pool follows the Defense rank.
    fn advance(&self, s: &mut FightState, who: usize, skill: Skill) {
        if !self.rules.advance_mid_fight {
            return;
        }
        let c = &self.fight.combatants()[who];
        let mut sheet = c.sheet().clone();
        for &t in c.tracked() {
            sheet.set(t, self.rank(s, who, t));
        }
        let before = sheet.rank(c.defense_skill());
        if sheet.advance(skill, &self.rules).is_empty() {
            return;
        }
        for (k, &t) in c.tracked().iter().enumerate() {
            s.standing[who].gained[k] = (sheet.rank(t) - c.sheet().rank(t)) as u8;
        }
        s.standing[who].hp += (sheet.rank(c.defense_skill()) - before) as i16;
        if s.standing[who].hp >= 0 {
            s.standing[who].stable = false;
        }
    }

    fn opposed(&self, s: &FightState, stun: bool, who: usize, t: usize) -> BTreeMap<Exchange, f64> {
        let cs = self.fight.combatants();
        let (a, d) = (&cs[who], &cs[t]);
        let skill = if stun {
            Skill::Magic(School::Death)
        } else {
            a.attack_skill()
        };
        let rank = self.rank(s, who, skill);
        let def_rank = self.defense_rank(s, t);
        let reserve = match (s.standing[t].reserve, d.reserve_skill()) {
            (true, Some(r)) => Some(self.rank(s, t, r)),
            _ => None,
        };
        let key = (stun, who, t, rank, def_rank, reserve);
        if let Some(m) = self.opposed.borrow().get(&key) {
            return m.clone();
        }
        let (dice, difficulty) = if stun {
            let (dice, diff) = a.stun.clone().unwrap();
            (Self::dice(&dice, a.sheet().rank(skill), rank), diff)
        } else {
            (
                Self::dice(&a.attack, a.sheet().rank(skill), rank),
                a.difficulty,
            )
        };
        let mut def = Self::dice(&d.defense, d.defense_rank, def_rank);
        if let Some(r) = reserve {
            def = with_reserve(def, r, &self.rules).unwrap();
        }
        let roll =
            OpposedRoll::new(dice.clone(), difficulty, Some(def.clone()), self.rules).unwrap();
        let mut m = opposed_by_faces(&roll, dice.rolled(&self.rules), def.rolled(&self.rules));
        if stun {
            // A stun needs one die through.
            let mut n = BTreeMap::new();
            for ((h, a, b), p) in m {
                *n.entry((h.min(1), a, b)).or_insert(0.0) += p;
            }
            m = n;
        }
        self.opposed.borrow_mut().insert(key, m.clone());
        m
    }

    fn life(&self, s: &FightState, who: usize) -> SkillDice {
        let c = &self.fight.combatants()[who];
        let skill = Skill::Magic(School::Life);
        let (dice, _) = c.heal.clone().unwrap();
        Self::dice(&dice, c.sheet().rank(skill), self.rank(s, who, skill))
    }

    fn health(&self, s: &FightState, who: usize) -> Health {
        Health {
            defense_rank: self.defense_rank(s, who),
            hp: i64::from(s.standing[who].hp),
            stabilize_criticals: u32::from(s.standing[who].stabilize_criticals),
            stable: s.standing[who].stable,
        }
    }

    fn turn(&self, s: &FightState, who: usize) -> Vec<(FightState, f64)> {
        if self.fight.end(s).is_some() {
            return vec![(s.clone(), 1.0)];
        }
        let cs = self.fight.combatants();
        let adv = self.rules.advance_mid_fight;
        let mut s = s.clone();
        // "until your next turn" (L43), "until attacker's next turn" (L231).
        s.standing[who].reserve = false;
        for x in &mut s.standing {
            if x.stunned_by == Some(who as u8) {
                x.stunned_by = None;
            }
        }
        let me = s.standing[who];
        let rank = self.defense_rank(&s, who);
        let mut out = Vec::new();
        if me.hp < 0 && !me.stable && u32::from(me.stabilize_criticals) <= rank {
            // Dying: a roll of the defending skill at difficulty = damage beyond 0.
            let h = self.health(&s, who);
            let roll = Stabilize::new(SkillDice::new(rank), &h, &self.rules).unwrap();
            for ((ok, crits, advances), p) in task_by_faces(roll.task(), rank) {
                let mut t = s.clone();
                if ok {
                    t.standing[who].stable = true;
                } else {
                    t.standing[who].hp -= crits as i16;
                    t.standing[who].stabilize_criticals += crits as u8;
                }
                if adv && advances {
                    self.advance(&mut t, who, cs[who].defense_skill());
                }
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
                Action::Attack(t) | Action::Stun(t) => {
                    let stun = matches!(a, Action::Stun(_));
                    let t = t as usize;
                    for ((hits, advances, defense_advances), p) in self.opposed(&s, stun, who, t) {
                        let mut n = s.clone();
                        if stun {
                            if hits > 0 {
                                n.standing[t].stunned_by = Some(who as u8);
                            }
                        } else {
                            n.standing[t].hp -= hits as i16;
                            if hits > 0 && n.standing[t].hp < 0 {
                                n.standing[t].stable = false;
                            }
                        }
                        if adv && advances {
                            let skill = if stun {
                                Skill::Magic(School::Death)
                            } else {
                                cs[who].attack_skill()
                            };
                            self.advance(&mut n, who, skill);
                        }
                        if adv && defense_advances {
                            self.advance(&mut n, t, cs[t].defense_skill());
                        }
                        out.push((n, p));
                    }
                }
                Action::Heal(t) => {
                    // Life at Range + 3 heals one damage (L217).
                    let t = t as usize;
                    let dice = self.life(&s, who);
                    let (_, difficulty) = cs[who].heal.clone().unwrap();
                    let roll =
                        TaskRoll::new(dice.clone(), Task::single(difficulty).unwrap(), self.rules)
                            .unwrap();
                    for ((ok, _, advances), p) in task_by_faces(&roll, dice.rolled(&self.rules)) {
                        let mut n = s.clone();
                        if ok {
                            let max = self.defense_rank(&n, t) as i16 + 1;
                            n.standing[t].hp = (n.standing[t].hp + 1).min(max);
                            if n.standing[t].hp >= 0 {
                                n.standing[t].stable = false;
                            }
                        }
                        if adv && advances {
                            self.advance(&mut n, who, Skill::Magic(School::Life));
                        }
                        out.push((n, p));
                    }
                }
                Action::Stabilize(t) => {
                    // Life "vs. damage beyond 0 HP" (L225).
                    let t = t as usize;
                    let dice = self.life(&s, who);
                    let roll =
                        Stabilize::new(dice.clone(), &self.health(&s, t), &self.rules).unwrap();
                    for ((ok, _, advances), p) in
                        task_by_faces(roll.task(), dice.rolled(&self.rules))
                    {
                        let mut n = s.clone();
                        if ok {
                            n.standing[t].stable = true;
                        }
                        if adv && advances {
                            self.advance(&mut n, who, Skill::Magic(School::Life));
                        }
                        out.push((n, p));
                    }
                }
            }
        } else {
            out.push((s, 1.0));
        }
        for (x, _) in &mut out {
            for y in &mut x.standing {
                if y.hp <= 0 {
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

/// A Life mage who heals and stabilizes (stance `heal`) and her squire, against an ogre.
fn healers() -> Scene {
    let mut cleric = fighter("Cleric", "temple", 1, 1);
    cleric.skills.set(Skill::Magic(School::Life), 1);
    cleric.heal_range = Some(0); // touch: difficulty 3 (L217)
    cleric.stance = Stance::Heal;
    let squire = fighter("Squire", "temple", 1, 1);
    let ogre = fighter("Ogre", "ogre", 2, 2);
    Scene {
        title: Some("healers".into()),
        combatant: vec![cleric, squire, ogre],
    }
}

/// A duel whose skills advance mid-fight: Ana parries with Melee (her HP pool is Melee + 1,
/// L113), Bo defends with Basic Defense.
fn advancing_duel() -> Scene {
    let mut ana = fighter("Ana", "Ana", 1, 1);
    ana.defense = Skill::BasicMelee;
    let bo = fighter("Bo", "Bo", 1, 1);
    Scene {
        title: Some("advancing duel".into()),
        combatant: vec![ana, bo],
    }
}

/// Skills that advance mid-fight, under a rank ceiling.
fn advancing(max_rank: u32) -> Rules {
    Rules {
        advance_mid_fight: true,
        max_rank: Some(max_rank),
        ..Rules::default()
    }
}

fn fights() -> Vec<Fight> {
    vec![
        Fight::new(&Scene::sample_rounds(), Rules::default()).unwrap(),
        Fight::new(&two_on_one(), Rules::default()).unwrap(),
        Fight::new(&mage_duel(), Rules::default()).unwrap(),
        Fight::new(&healers(), Rules::default()).unwrap(),
        Fight::new(&advancing_duel(), advancing(2)).unwrap(),
        Fight::new(&healers(), advancing(2)).unwrap(),
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
    let law = f.initiative_law().unwrap();
    assert_eq!(law.len(), 6);
    for (o, p) in &brute {
        assert!((law.probability(o) - p).abs() < 1e-12, "{o:?}");
    }
    // Ana and Bo roll alike: they are equally likely in either order.
    assert!((law.probability(&vec![0, 1, 2]) - law.probability(&vec![0, 2, 1])).abs() < 1e-12);
}

#[test]
fn played_fights_follow_the_exact_law() {
    // The shipped scene, a reserve, a stun, and heals with skills advancing (100,000 fights
    // each: the rest are checked against the brute force above).
    for (i, f) in fights()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| [0, 1, 2, 5].contains(i))
    {
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
            .filter(|((k, _, _), _)| k == h)
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

// ---------------------------------------------------------------------------------------
// Heals, stabilization by Life, advancement mid-fight
// ---------------------------------------------------------------------------------------

#[test]
fn a_healer_heals_and_stabilizes_her_side() {
    let f = Fight::new(&healers(), Rules::default()).unwrap();
    let mut s = f.start();
    s.order = vec![0, 1, 2];
    // Nobody hurt: nothing to heal, the cleric attacks the ogre.
    assert_eq!(f.open_actions(&s, 0), vec![Action::Attack(2)]);
    // The squire at his last HP: healed (L217), not the ogre.
    s.standing[1].hp = 1;
    let open = f.open_actions(&s, 0);
    assert_eq!(open, vec![Action::Attack(2), Action::Heal(1)]);
    assert_eq!(f.policy().choose(&s, 0, &open), Action::Heal(1));
    // Life 1 at touch range: one die at difficulty 0 + 3 heals with 4/6.
    s.order = vec![0];
    let law = f.round_law(&s).unwrap();
    assert!((law.probability_where(|t| t.standing[1].hp == 2) - 4.0 / 6.0).abs() < 1e-12);
    assert!((law.total() - 1.0).abs() < 1e-12);
    // Dying at −2: stabilized by Life "vs. damage beyond 0 HP" (L225), difficulty 2, 5/6;
    // no damage from the cleric's criticals.
    s.standing[1].hp = -2;
    let open = f.open_actions(&s, 0);
    assert!(open.contains(&Action::Heal(1)) && open.contains(&Action::Stabilize(1)));
    assert_eq!(f.policy().choose(&s, 0, &open), Action::Stabilize(1));
    let law = f.round_law(&s).unwrap();
    assert!((law.probability_where(|t| t.standing[1].stable) - 5.0 / 6.0).abs() < 1e-12);
    assert!(law.iter().all(|(t, _)| t.standing[1].hp == -2));
    // Dead (criticals to stabilize beyond Defense 1): neither healed nor stabilized.
    s.standing[1].stabilize_criticals = 2;
    assert_eq!(f.open_actions(&s, 0), vec![Action::Attack(2)]);
    // The cleric at her last HP heals herself; the squire never heals (no Life magic).
    let mut s = f.start();
    s.standing[0].hp = 1;
    assert_eq!(
        f.policy().choose(&s, 0, &f.open_actions(&s, 0)),
        Action::Heal(0)
    );
    assert_eq!(f.open_actions(&s, 1), vec![Action::Attack(2)]);
}

#[test]
fn the_heal_stance_needs_life_magic() {
    let mut scene = healers();
    scene.combatant[0].heal_range = None;
    assert!(matches!(
        Fight::new(&scene, Rules::default()),
        Err(Error::Scene { .. })
    ));
    let mut scene = healers();
    scene.combatant[0].skills.set(Skill::Magic(School::Life), 0);
    assert!(matches!(
        Fight::new(&scene, Rules::default()),
        Err(Error::Unavailable { .. })
    ));
}

/// An archer (Basic Ranged 3 at range 1, defending with Throw 1) against a brawler with
/// Defense 3.
fn archer() -> Scene {
    let mut archer = fighter("Archer", "archer", 1, 1);
    archer.skills.set(Skill::BasicRanged, 3);
    archer.attack = Skill::BasicRanged;
    archer.range = Some(1);
    archer.defense = Skill::Throw;
    let brawler = fighter("Brawler", "brawler", 1, 3);
    Scene {
        title: Some("archer".into()),
        combatant: vec![archer, brawler],
    }
}

#[test]
fn an_advance_raises_its_synergies_and_the_hp_pool_at_once() {
    let f = Fight::new(&archer(), advancing(6)).unwrap();
    // Basic Ranged links Throw (2, L131), Throw links Brawn (2, L137), Brawn links Melee.
    let tracked = f.combatants()[0].tracked();
    for s in [
        Skill::BasicRanged,
        Skill::Throw,
        Skill::Brawn,
        Skill::BasicMelee,
    ] {
        assert!(tracked.contains(&s), "{s:?}");
    }
    let mut s = f.start();
    s.order = vec![0]; // the archer's turn alone
    let law = f.round_law(&s).unwrap();
    // The shot's laws from every face: three arrows at difficulty 2 against 3 dice.
    let rules = *f.rules();
    let shot = OpposedRoll::new(SkillDice::new(3), 2, Some(SkillDice::new(3)), rules).unwrap();
    let by_faces = opposed_by_faces(&shot, 3, 3);
    let p_adv: f64 = by_faces.iter().filter(|(o, _)| o.1).map(|(_, p)| p).sum();
    let p_def: f64 = by_faces.iter().filter(|(o, _)| o.2).map(|(_, p)| p).sum();
    assert!(p_adv > 0.0 && p_def > 0.0);
    let ranged = |t: &FightState| f.rank(t, 0, Skill::BasicRanged);
    assert!((law.probability_where(|t| ranged(t) == 4) - p_adv).abs() < 1e-12);
    assert!(
        (law.probability_where(|t| f.rank(t, 1, Skill::BasicDefense) == 4) - p_def).abs() < 1e-12
    );
    for (t, _) in law.iter() {
        if ranged(t) == 4 {
            // Ranged 4 raises Throw to 4 − 2 = 2: one more defense die and one more HP (the
            // pool is the defending skill + 1, the wounds staying).
            assert_eq!(f.rank(t, 0, Skill::Throw), 2);
            assert_eq!((t.standing[0].hp, f.max_hp(t, 0)), (3, 3));
            assert!(
                f.describe(t).contains("Basic Ranged 4"),
                "{}",
                f.describe(t)
            );
        } else {
            assert_eq!(f.rank(t, 0, Skill::Throw), 1);
            assert_eq!(t.standing[0].hp, 2);
        }
        if f.rank(t, 1, Skill::BasicDefense) == 4 {
            // Blocked every arrow: no damage, one more HP.
            assert_eq!(t.standing[1].hp, 5);
        }
    }
    // Under the default ruling the ranks stay as the fight began.
    let fixed = Fight::new(&archer(), Rules::default()).unwrap();
    let law = fixed.round_law(&s).unwrap();
    assert!(
        law.iter()
            .all(|(t, _)| t.standing.iter().all(|x| x.gained == [0; 16]))
    );
    // A ceiling stops it: at max rank 3 the archer's Ranged 3 never advances.
    let capped = Fight::new(&archer(), advancing(3)).unwrap();
    let law = capped.round_law(&s).unwrap();
    assert!(
        law.iter()
            .all(|(t, _)| capped.rank(t, 0, Skill::BasicRanged) == 3)
    );
}

#[test]
fn skills_advancing_with_no_ceiling_are_played_but_not_solved() {
    let rules = Rules {
        advance_mid_fight: true,
        ..Rules::default()
    };
    let f = Fight::new(&Scene::sample_rounds(), rules).unwrap();
    match end_law(&f, EncounterLimits::default()) {
        Err(dice_core::Error::TooComplex { what, .. }) => {
            assert!(what.contains("max_rank"), "{what}");
        }
        other => panic!("not refused: {other:?}"),
    }
    // Played, ranks rise mid-fight as the Sample Rounds' Aerolis does (L294–L298).
    let mut r = rng(7);
    let mut raised = 0;
    for _ in 0..2_000 {
        let played = play(&f, &mut r, 1_000);
        assert!(played.end.is_some());
        if played
            .states
            .iter()
            .any(|s| s.standing.iter().any(|x| x.gained.iter().any(|&g| g > 0)))
        {
            raised += 1;
        }
    }
    assert!(raised > 0);
}

// ------------------------------------------------------------------ told, bound, health

/// Plays `e` twice with one seed, once telling: the same states each round, and the lines.
fn told_rounds<E: Encounter>(e: &E, seed: u64) -> Vec<String> {
    let (mut a, mut b) = (rng(seed), rng(seed));
    let (mut s, mut t) = (e.start(), e.start());
    let mut lines = Vec::new();
    for _ in 0..500 {
        if e.end(&s).is_some() {
            break;
        }
        s = e.play_round(&s, &mut a);
        t = e.play_round_told(&t, &mut b, &mut lines);
        assert!(s == t, "the told round drew differently");
    }
    lines
}

#[test]
fn told_rounds_name_the_actors_and_draw_as_play_round() {
    let fight = Fight::new(&Scene::sample_rounds(), Rules::default()).unwrap();
    for seed in 0..5 {
        let lines = told_rounds(&fight, seed);
        assert!(lines[0].starts_with("Initiative"));
        assert!(lines.iter().any(|l| l.starts_with("Harro attacks Orc")));
        assert!(lines.iter().any(|l| l.contains("hit")));
    }
}

/// Two a side, all alike, at `attack` and `defense` ranks.
fn two_a_side(attack: u32, defense: u32) -> Scene {
    let mut scene = Scene::sample_rounds();
    let base = scene.combatant[0].clone();
    scene.combatant = (0..4)
        .map(|k| {
            let mut c = base.clone();
            c.name = format!("F{k}");
            c.side = format!("S{}", k % 2);
            c.skills =
                Sheet::with_ranks([(Skill::BasicMelee, attack), (Skill::BasicDefense, defense)]);
            c.attack_implements = Vec::new();
            c
        })
        .collect();
    scene
}

#[test]
fn state_bound_holds_and_refuses_large_fights_at_once() {
    let mut scenes = vec![Scene::sample_rounds()];
    let mut three = Scene::sample_rounds();
    let mut extra = three.combatant[0].clone();
    extra.name = "Second orc".into();
    three.combatant.push(extra);
    scenes.push(three);
    let mut low = two_a_side(1, 1);
    low.combatant.truncate(3);
    scenes.push(low);
    for scene in &scenes {
        let fight = Fight::new(scene, Rules::default()).unwrap();
        let law = end_law(&fight, EncounterLimits::default()).unwrap();
        let bound = fight.state_bound().unwrap();
        assert!(bound >= law.states as u64, "{bound} < {}", law.states);
    }
    // Two a side at ranks 5 and 6: refused before any work.
    let big = Fight::new(&two_a_side(5, 6), Rules::default()).unwrap();
    assert!(big.state_bound().unwrap() > 200_000);
    assert!(matches!(
        end_law(&big, EncounterLimits::default()),
        Err(dice_core::Error::TooManyStates { .. })
    ));
}

#[test]
fn health_at_the_end_matches_the_winner() {
    let fight = Fight::new(&Scene::sample_rounds(), Rules::default()).unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert_eq!(fight.health_names(), ["Orc", "Harro"]);
    for (name, health) in &law.health {
        assert!((health.total() + law.ends.tail() - 1.0).abs() < 1e-9);
        let standing: f64 = health.iter().filter(|&(&h, _)| h > 0).map(|(_, p)| p).sum();
        let wins: f64 = law
            .ends
            .iter()
            .filter(|(v, _)| v.to_string().starts_with(name.as_str()))
            .map(|(_, p)| p)
            .sum();
        assert!(
            (standing - wins).abs() < 1e-9,
            "{name}: {standing} vs {wins}"
        );
    }
}

#[test]
fn eight_combatants_are_refused_before_the_initiative_law_is_built() {
    // Eight alike at Finesse 3: the joint initiative rolls are too many to enumerate
    // (the order law would be refused with TooComplex), yet the fight is built, played,
    // and its exact law refused from the bound alone (TooManyStates, not TooComplex: the
    // initiative law was never asked for).
    let mut scene = two_a_side(1, 1);
    let base = scene.combatant[0].clone();
    scene.combatant = (0..8)
        .map(|k| {
            let mut c = base.clone();
            c.name = format!("F{k}");
            c.side = format!("S{}", k % 2);
            c.skills = Sheet::with_ranks([
                (Skill::BasicMelee, 1),
                (Skill::BasicDefense, 1),
                (Skill::Finesse, 3),
            ]);
            c
        })
        .collect();
    let fight = Fight::new(&scene, Rules::default()).unwrap();
    assert!(matches!(
        end_law(&fight, EncounterLimits::default()),
        Err(dice_core::Error::TooManyStates { .. })
    ));
    assert!(matches!(
        fight.initiative_law(),
        Err(dice_swimclass::Error::Core(
            dice_core::Error::TooComplex { .. }
        ))
    ));
    let played = dice_core::play(&fight, &mut rng(1), 1_000);
    assert!(played.end.is_some());
}
