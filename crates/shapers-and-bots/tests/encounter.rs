//! Whole fights (issue 16): the exact law of a fight against brute-force enumerations
//! derived here from the dice, played fights against the exact law, the rules a fight keeps,
//! and the rulebook's own fight shipped as a scene.

use std::cell::RefCell;
use std::collections::BTreeMap;

use dice_core::{Encounter, EncounterLimits, Ending, Exact, PlayOut, Policy, Roll, end_law, play};
use dice_shapers_and_bots::{
    Armor, AttackKind, Characteristics, Choice, Combatant, Error, FightEncounter, FightState,
    Level, Moment, Reach, RulebookTactics, Rules, Scene, Size, Surprise, Victory, WeaponClass,
};
use dice_testkit::{check_rolls, rng};

const SCENE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenes/dashwood-and-slumpy.toml"
);

fn body(size: Level, fitness: Level) -> Characteristics {
    Characteristics {
        size: Size::Single(size),
        fitness,
        ..Characteristics::default()
    }
}

fn win(side: &str) -> Victory {
    Victory {
        side: side.to_owned(),
    }
}

/// P(2d6 + bonus reaches `target`), by enumerating the 36 faces.
fn p_reach(bonus: i32, target: i32) -> f64 {
    let mut n = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            if a + b + bonus >= target {
                n += 1;
            }
        }
    }
    f64::from(n) / 36.0
}

/// P(2d6 + a ≥ 2d6 + d): a defended attack, ties to the attacker, over the 1296 faces.
fn p_defended(a: i32, d: i32) -> f64 {
    let mut n = 0;
    for x in 1..=6 {
        for y in 1..=6 {
            for u in 1..=6 {
                for v in 1..=6 {
                    if x + y + a >= u + v + d {
                        n += 1;
                    }
                }
            }
        }
    }
    f64::from(n) / 1296.0
}

/// The law of the hit points one attack takes from a target with `hp` left: a miss with
/// 1 − `p_hit`, else `base` + a streak continuing with chance `q` (P(k more) = qᵏ(1 − q)),
/// capped at `hp`.
fn harm(p_hit: f64, base: u32, q: f64, hp: u32) -> BTreeMap<u32, f64> {
    let mut m = BTreeMap::new();
    *m.entry(0).or_insert(0.0) += 1.0 - p_hit;
    let mut below = 0.0;
    for pts in base..hp {
        let p = q.powi((pts - base) as i32) * (1.0 - q);
        *m.entry(pts).or_insert(0.0) += p_hit * p;
        below += p;
    }
    *m.entry(hp).or_insert(0.0) += p_hit * (1.0 - below);
    m
}

/// Pushes every path's mass forward `rounds` turns. `turn` gives the law of the next
/// (a, b) hit points from (a, b). Returns P(A wins), P(B wins), P(ended after r turns).
fn forward(
    start: (u32, u32),
    rounds: u32,
    turn: impl Fn((u32, u32)) -> BTreeMap<(u32, u32), f64>,
) -> (f64, f64, BTreeMap<u32, f64>) {
    let mut mass = BTreeMap::from([(start, 1.0)]);
    let (mut a, mut b) = (0.0, 0.0);
    let mut when = BTreeMap::new();
    for r in 1..=rounds {
        let mut next = BTreeMap::new();
        for (&s, &m) in &mass {
            for (t, p) in turn(s) {
                match t {
                    (_, 0) => {
                        a += m * p;
                        *when.entry(r).or_insert(0.0) += m * p;
                    }
                    (0, _) => {
                        b += m * p;
                        *when.entry(r).or_insert(0.0) += m * p;
                    }
                    _ => *next.entry(t).or_insert(0.0) += m * p,
                }
            }
        }
        mass = next;
    }
    (a, b, when)
}

/// The law of the hit points left after one attack on `hp`.
fn after_attack(hp: u32, harm_law: &dyn Fn(u32) -> BTreeMap<u32, f64>) -> BTreeMap<u32, f64> {
    harm_law(hp)
        .into_iter()
        .map(|(pts, p)| (hp - pts.min(hp), p))
        .fold(BTreeMap::new(), |mut m, (h, p)| {
            *m.entry(h).or_insert(0.0) += p;
            m
        })
}

/// Attacks whenever it can (the first enemy offered) and never defends.
struct NeverDefend;
impl<'a> Policy<Moment<'a>, Choice> for NeverDefend {
    fn choose(&self, _m: &Moment<'a>, _who: usize, open: &[Choice]) -> Choice {
        if open.contains(&Choice::NoDefense) {
            return Choice::NoDefense;
        }
        open.iter()
            .copied()
            .find(|c| matches!(c, Choice::Attack(_)))
            .unwrap_or(open[open.len() - 1])
    }
}

/// Attacks whenever it can and defends whenever it may.
struct AlwaysDefend;
impl<'a> Policy<Moment<'a>, Choice> for AlwaysDefend {
    fn choose(&self, _m: &Moment<'a>, _who: usize, open: &[Choice]) -> Choice {
        if open.contains(&Choice::Defend) {
            return Choice::Defend;
        }
        NeverDefend.choose(_m, _who, open)
    }
}

/// (a) Two fighters who never defend: each turn the faster attacks twice, then the slower
/// (if still up) twice; the law derived from the 36 faces of 2d6 and the streak formula.
#[test]
fn undefended_duel_matches_the_forward_iteration() {
    // A: Low Size, High Fitness: 5 + 1 = 6 HP, attacks at +2 with a small weapon.
    // B: Average Size and Fitness: 7 HP, attacks at 0 with a large weapon.
    let a = Combatant::new("A", body(Level::Low, Level::High), WeaponClass::Small);
    let b = Combatant::new(
        "B",
        body(Level::Average, Level::Average),
        WeaponClass::Large,
    );
    let fight = FightEncounter::new(vec![b, a], false, &Rules::default())
        .unwrap()
        .with_policy(NeverDefend);
    assert_eq!(fight.hit_points(), [7, 6]);
    // A against B's Size target 7 at +2; B against A's Size target 5 at 0.
    let a_harm = |hp| harm(p_reach(2, 7), 1, 2.0 / 6.0, hp);
    let b_harm = |hp| harm(p_reach(0, 5), 1, 4.0 / 6.0, hp);
    let turn = |(ha, hb): (u32, u32)| {
        // A's two attacks, then B's two if B is up.
        let mut law: BTreeMap<(u32, u32), f64> = BTreeMap::new();
        for (hb1, p1) in after_attack(hb, &a_harm) {
            let second = if hb1 > 0 {
                after_attack(hb1, &a_harm)
            } else {
                BTreeMap::from([(0, 1.0)])
            };
            for (hb2, p2) in second {
                if hb2 == 0 {
                    *law.entry((ha, 0)).or_insert(0.0) += p1 * p2;
                    continue;
                }
                for (ha1, p3) in after_attack(ha, &b_harm) {
                    let second = if ha1 > 0 {
                        after_attack(ha1, &b_harm)
                    } else {
                        BTreeMap::from([(0, 1.0)])
                    };
                    for (ha2, p4) in second {
                        *law.entry((ha2, hb2)).or_insert(0.0) += p1 * p2 * p3 * p4;
                    }
                }
            }
        }
        law
    };
    let (pa, pb, when) = forward((6, 7), 3_000, turn);
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!((law.ends.probability(&win("A")) - pa).abs() < 1e-12);
    assert!((law.ends.probability(&win("B")) - pb).abs() < 1e-12);
    assert!((law.ends.total() - 1.0).abs() < 1e-12);
    for (r, p) in law.rounds.iter() {
        let q = when.get(r).copied().unwrap_or(0.0);
        assert!((p - q).abs() < 1e-12, "turn {r}: {p} vs {q}");
    }
}

/// (a) A defender who defends every attack spends both of their actions in the faster
/// fighter's part and never attacks (L330–331, L351): the faster wins for certain, and the
/// turns it takes follow two defended attacks a turn (ties to the attacker, L358).
#[test]
fn a_defender_who_always_defends_never_attacks() {
    let a = Combatant::new("A", body(Level::Average, Level::High), WeaponClass::Large);
    let b = Combatant::new(
        "B",
        body(Level::Average, Level::Average),
        WeaponClass::Large,
    );
    let fight = FightEncounter::new(vec![a, b], false, &Rules::default())
        .unwrap()
        .with_policy(AlwaysDefend);
    let b_harm = |hp| harm(p_defended(2, 0), 1, 4.0 / 6.0, hp);
    let turn = |(ha, hb): (u32, u32)| {
        let mut law = BTreeMap::new();
        for (h1, p1) in after_attack(hb, &b_harm) {
            let second = if h1 > 0 {
                after_attack(h1, &b_harm)
            } else {
                BTreeMap::from([(0, 1.0)])
            };
            for (h2, p2) in second {
                *law.entry((ha, h2)).or_insert(0.0) += p1 * p2;
            }
        }
        law
    };
    let (pa, pb, when) = forward((8, 7), 3_000, turn);
    assert_eq!(pb, 0.0);
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!((law.ends.probability(&win("A")) - 1.0).abs() < 1e-12);
    assert_eq!(law.ends.probability(&win("B")), 0.0);
    assert!((pa - 1.0).abs() < 1e-12);
    for (r, p) in law.rounds.iter() {
        let q = when.get(r).copied().unwrap_or(0.0);
        assert!((p - q).abs() < 1e-12, "turn {r}: {p} vs {q}");
    }
}

/// (a) Fighters tied on Fitness roll once for the order (L326–328); two fighters alike but
/// for their names win equally often, by symmetry.
#[test]
fn tied_initiative_is_fair() {
    let a = Combatant::new("A", body(Level::Low, Level::Average), WeaponClass::Small);
    let b = Combatant::new("B", body(Level::Low, Level::Average), WeaponClass::Small);
    let fight = FightEncounter::new(vec![a, b], false, &Rules::default()).unwrap();
    assert!(fight.start().order().is_empty());
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    let (pa, pb) = (
        law.ends.probability(&win("A")),
        law.ends.probability(&win("B")),
    );
    assert!((pa - pb).abs() < 1e-12, "{pa} vs {pb}");
    assert!((pa + pb - 1.0).abs() < 1e-12);
    // After the first turn the order is always rolled, and kept.
    for (s, _) in fight.round_law(&fight.start()).unwrap().iter() {
        assert_eq!(s.order().len(), 2);
        if fight.end(s).is_none() {
            for (t, _) in fight.round_law(s).unwrap().iter() {
                assert_eq!(t.order(), s.order());
            }
        }
    }
}

/// (a) A sneak attack cannot be defended and gets the surprise bonus (L367–370): a hidden
/// fighter's first attack on a 1 HP target ends the fight with the chance of 2d6 + bonus +
/// surprise reaching the Size target, derived from the faces.
#[test]
fn a_sneak_attack_is_against_size_with_the_surprise_bonus() {
    // Very Low Size and Fitness: 3 − 2 = 1 hit point.
    let target = Combatant::new(
        "mouse",
        body(Level::VeryLow, Level::VeryLow),
        WeaponClass::Small,
    );
    let hidden = Combatant::new(
        "cat",
        body(Level::Average, Level::Average),
        WeaponClass::Small,
    )
    .attack(Level::Low.into())
    .sneak(Surprise::PlusTwo);
    let fight = FightEncounter::new(vec![target, hidden], false, &Rules::default())
        .unwrap()
        .with_policy(AlwaysDefend);
    let first = fight.round_law(&fight.start()).unwrap();
    let p_first = first.probability_where(|s| fight.end(s) == Some(win("cat")));
    // First attack: sneak (−1 + 2 against 3); second: the mouse defends (always), −1
    // against its −3 (Very Low Fitness), ties to the attacker.
    let sneak = p_reach(-1 + 2, 3);
    let defended = p_defended(-1, -3);
    let expected = sneak + (1.0 - sneak) * defended;
    assert!(
        (p_first - expected).abs() < 1e-12,
        "{p_first} vs {expected}"
    );
}

/// (b) Played fights follow the exact law: whole fights (`PlayOut`) and single turns.
#[test]
fn played_fights_follow_the_exact_law() {
    let scene: Scene = toml::from_str(&std::fs::read_to_string(SCENE).unwrap()).unwrap();
    let shipped = scene.encounter(&Rules::default()).unwrap();
    let run = PlayOut::new(shipped.clone(), 10_000).unwrap();
    let law = run.distribution().unwrap();
    let exact = end_law(&shipped, EncounterLimits::default()).unwrap();
    for (v, p) in exact.ends.iter() {
        assert!((law.probability(&Ending::Ended(v.clone())) - p).abs() < 1e-12);
    }
    let mut r = rng(16);
    check_rolls("Dashwood and Slumpy played out", &law, || run.roll(&mut r));

    // A tied, three-fighter fight with a sneak attack and a quiver, turn by turn.
    let a = Combatant::new("A", body(Level::Low, Level::Average), WeaponClass::Small).side("x");
    let b = Combatant::new("B", body(Level::Low, Level::Average), WeaponClass::Large)
        .side("x")
        .reach(Reach::Ranged)
        .quiver(true);
    let c = Combatant::new(
        "C",
        body(Level::Average, Level::Average),
        WeaponClass::Large,
    )
    .armor(Armor::Accustomed)
    .sneak(Surprise::PlusOne);
    let three = FightEncounter::new(vec![a, b, c], true, &Rules::default()).unwrap();
    let mut state = three.start();
    for turn in 0..3 {
        let law = three.round_law(&state).unwrap();
        assert!((law.total() - 1.0).abs() < 1e-12);
        let mut r = rng(100 + turn);
        check_rolls("a turn of three fighters", &law, || {
            three.play_round(&state, &mut r)
        });
        state = three.play_round(&state, &mut rng(7 + turn));
        if three.end(&state).is_some() {
            break;
        }
    }
    let exact = end_law(&three, EncounterLimits::default()).unwrap();
    let run = PlayOut::new(three, 10_000).unwrap();
    let law = run.distribution().unwrap();
    for (v, p) in exact.ends.iter() {
        assert!((law.probability(&Ending::Ended(v.clone())) - p).abs() < 1e-12);
    }
    let mut r = rng(17);
    check_rolls("three fighters played out", &law, || run.roll(&mut r));
}

/// Every decision a fighter is asked to make, checked against the rules as it is made.
struct Referee<'l>(&'l RefCell<u64>);

impl<'a> Policy<Moment<'a>, Choice> for Referee<'_> {
    fn choose(&self, m: &Moment<'a>, who: usize, open: &[Choice]) -> Choice {
        let me = m.state(who).unwrap();
        let actions = m.actions(who).unwrap();
        let f = m.fighter(who).unwrap();
        // Unconscious fighters are never asked anything (L432).
        assert!(me.is_conscious(), "{who} is unconscious: {open:?}");
        match m.attacked_by() {
            None => {
                // Only the fighter whose turn it is acts (L324–325), with an action left.
                assert_eq!(who, m.current());
                assert_eq!(open.last(), Some(&Choice::EndTurn));
                for c in open {
                    match *c {
                        Choice::Attack(t) => {
                            assert!(actions.left() > 0);
                            assert!(m.are_enemies(who, t));
                            assert!(m.state(t).unwrap().is_conscious());
                            assert!(me.is_loaded() && me.is_closed_in());
                        }
                        Choice::Reload => assert!(f.uses_quiver() && !me.is_loaded()),
                        Choice::Run => assert!(!me.is_closed_in()),
                        Choice::EndTurn => {}
                        Choice::Defend | Choice::NoDefense => panic!("defense offered in turn"),
                    }
                }
            }
            Some(attacker) => {
                // A defense happens in another's turn, with an action left or one that may
                // be borrowed (L362–363, SB-A19); never against a sneak attack (L367–369).
                assert_eq!(attacker, m.current());
                assert_ne!(who, attacker);
                assert_eq!(open, [Choice::Defend, Choice::NoDefense]);
                assert!(actions.left() > 0 || actions.owed() < m.rules().max_borrowed_actions);
                assert!(!m.state(attacker).unwrap().is_unseen());
                assert!(m.hit_chance(attacker, who, AttackKind::Defended).is_some());
            }
        }
        *self.0.borrow_mut() += 1;
        RulebookTactics.choose(m, who, open)
    }
}

/// (c) The rules a fight keeps: turn order, actions, borrowing, unconsciousness.
#[test]
fn fighters_keep_the_rules() {
    let fighters = || {
        vec![
            Combatant::new("A", body(Level::Low, Level::High), WeaponClass::Large)
                .side("x")
                .reach(Reach::Ranged)
                .quiver(true)
                .loaded(false),
            Combatant::new(
                "B",
                body(Level::Average, Level::Average),
                WeaponClass::Small,
            )
            .side("x")
            .sneak(Surprise::PlusOne),
            Combatant::new("C", body(Level::High, Level::Low), WeaponClass::Large)
                .armor(Armor::Accustomed),
            Combatant::new(
                "D",
                body(Level::VeryLow, Level::VeryHigh),
                WeaponClass::Small,
            ),
        ]
    };
    let asked = RefCell::new(0);
    for borrow in [0u8, 1, 2, 3] {
        let rules = Rules {
            max_borrowed_actions: borrow,
            ..Rules::default()
        };
        let fight = FightEncounter::new(fighters(), true, &rules)
            .unwrap()
            .with_policy(Referee(&asked));
        let law = end_law(&fight, EncounterLimits::default()).unwrap();
        assert!((law.ends.total() - 1.0).abs() < 1e-9);
        for seed in 0..50 {
            let played = play(&fight, &mut rng(seed), 1_000);
            assert!(played.end.is_some());
            for s in &played.states {
                for (f, st) in s.fighters().iter().enumerate() {
                    // Never more than two actions a turn, nor owed beyond the ruling.
                    assert!(st.actions().left() <= 2);
                    assert!(st.actions().owed() <= borrow.saturating_sub(2));
                    assert!(st.hit_points() <= fight.hit_points()[f]);
                }
            }
        }
    }
    assert!(*asked.borrow() > 1_000);
}

/// (c) "In practice, this often means that the character with the higher Fitness gets two
/// attacks in the first turn, then one attack each turn after that" (L364–366), with the
/// default tactics, when defending helps both.
#[test]
fn the_faster_attacks_twice_then_once_a_turn() {
    let log = RefCell::new(Vec::new());
    struct Counting<'l>(&'l RefCell<Vec<usize>>);
    impl<'a> Policy<Moment<'a>, Choice> for Counting<'_> {
        fn choose(&self, m: &Moment<'a>, who: usize, open: &[Choice]) -> Choice {
            let c = RulebookTactics.choose(m, who, open);
            if let Choice::Attack(_) = c {
                self.0.borrow_mut().push(who);
            }
            c
        }
    }
    // Big enough to survive two turns for sure, skilled defenders.
    let tough = |fit| Characteristics {
        size: Size::Single(Level::VeryHigh),
        fitness: fit,
        ..Characteristics::default()
    };
    let fast = Combatant::new("fast", tough(Level::High), WeaponClass::PunchOrKick)
        .defense(Level::Awesome.into());
    let slow = Combatant::new("slow", tough(Level::Average), WeaponClass::PunchOrKick)
        .defense(Level::Awesome.into());
    let fight = FightEncounter::new(vec![slow, fast], false, &Rules::default())
        .unwrap()
        .with_policy(Counting(&log));
    let mut state = fight.start();
    let mut r = rng(3);
    let mut per_turn = Vec::new();
    for _ in 0..4 {
        log.borrow_mut().clear();
        state = fight.play_round(&state, &mut r);
        let l = log.borrow();
        per_turn.push((
            l.iter().filter(|&&w| w == 1).count(),
            l.iter().filter(|&&w| w == 0).count(),
        ));
    }
    assert_eq!(per_turn, [(2, 1), (1, 1), (1, 1), (1, 1)]);
}

/// (c) A policy that answers out of turn, or with an action not offered, takes nothing:
/// the fighter ends their turn (or does not defend).
#[test]
fn a_policy_cannot_break_the_rules() {
    struct Cheat;
    impl<'a> Policy<Moment<'a>, Choice> for Cheat {
        fn choose(&self, m: &Moment<'a>, who: usize, open: &[Choice]) -> Choice {
            if who == 0 {
                // Attack a friend, defend in its own turn, run when close: never offered.
                if m.attacked_by().is_some() {
                    return Choice::Attack(1);
                }
                return Choice::Defend;
            }
            NeverDefend.choose(m, who, open)
        }
    }
    let a = Combatant::new(
        "cheat",
        body(Level::Average, Level::VeryHigh),
        WeaponClass::Large,
    );
    let b = Combatant::new(
        "honest",
        body(Level::Average, Level::Low),
        WeaponClass::Small,
    );
    let fight = FightEncounter::new(vec![a, b], false, &Rules::default())
        .unwrap()
        .with_policy(Cheat);
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!((law.ends.probability(&win("honest")) - 1.0).abs() < 1e-12);
    assert_eq!(law.ends.probability(&win("cheat")), 0.0);
    // The cheat never acted: its actions are whole every turn.
    let played = play(&fight, &mut rng(5), 1_000);
    for s in &played.states {
        assert!(s.fighters()[0].actions().left() == 2 || !s.fighters()[0].is_conscious());
    }
}

/// (c) Fights the rules do not allow are refused with the crate's errors.
#[test]
fn bad_fights_are_refused() {
    let rules = Rules::default();
    let x = |n: &str| Combatant::new(n, Characteristics::default(), WeaponClass::Small);
    assert_eq!(
        FightEncounter::new(vec![x("A").side("s"), x("B").side("s")], false, &rules).unwrap_err(),
        Error::FightSides { sides: 1 }
    );
    assert!(matches!(
        FightEncounter::new(vec![x("A"), x("A")], false, &rules),
        Err(Error::Fighter { .. })
    ));
    assert!(matches!(
        FightEncounter::new((0..9).map(|i| x(&i.to_string())).collect(), false, &rules),
        Err(Error::TooManyFighters { count: 9, .. })
    ));
    // SB-A6: a blaster against armor has no damage in the rulebook.
    let blaster = Combatant::new(
        "bot",
        Characteristics::default(),
        WeaponClass::ReallyPowerful,
    );
    let knight = x("knight").armor(Armor::Accustomed);
    assert!(matches!(
        FightEncounter::new(vec![blaster, knight], false, &rules),
        Err(Error::MissingDamageRule { .. })
    ));
    // Armor on a fighter with no rating (a fluke takes no modifier).
    let clumsy = x("clumsy")
        .attack(dice_shapers_and_bots::Rating::NoRating)
        .armor(Armor::Unaccustomed);
    assert!(matches!(
        FightEncounter::new(vec![clumsy, x("B")], false, &rules),
        Err(Error::NoBonusForFluke { .. })
    ));
    // Scene files: unknown fields, weapons, species and levels.
    for bad in [
        "[[fighters]]\nname = \"A\"\nweapon = \"small\"\nhorns = true\n",
        "[[fighters]]\nname = \"A\"\nweapon = \"spoon\"\n[[fighters]]\nname = \"B\"\nweapon = \"small\"\n",
        "[[fighters]]\nname = \"A\"\nweapon = \"small\"\nspecies = \"dragon\"\n[[fighters]]\nname = \"B\"\nweapon = \"small\"\n",
        "[[fighters]]\nname = \"A\"\nweapon = \"small\"\nfitness = \"middling\"\n[[fighters]]\nname = \"B\"\nweapon = \"small\"\n",
        "[[fighters]]\nname = \"A\"\nweapon = \"small\"\nheight = \"high\"\n[[fighters]]\nname = \"B\"\nweapon = \"small\"\n",
        "[[fighters]]\nname = \"A\"\nweapon = \"small\"\nsneak = 3\n[[fighters]]\nname = \"B\"\nweapon = \"small\"\n",
    ] {
        let refused = toml::from_str::<Scene>(bad)
            .map_err(|e| e.to_string())
            .and_then(|s| s.encounter(&rules).map(|_| ()).map_err(|e| e.to_string()));
        assert!(refused.is_err(), "{bad}");
    }
}

/// (d) The rulebook's fight ships as a scene: Dashwood 5 HP and Slumpy 10 HP (L378–387),
/// Dashwood first (Very High Fitness against Low), it plays to an end, and its exact odds
/// sum to one over a small state space.
#[test]
fn the_shipped_scene_plays() {
    let scene: Scene = toml::from_str(&std::fs::read_to_string(SCENE).unwrap()).unwrap();
    assert_eq!(scene.title.as_deref(), Some("Dashwood and Slumpy"));
    let fight = scene.encounter(&Rules::default()).unwrap();
    assert_eq!(fight.hit_points(), [5, 10]);
    let start: FightState = fight.start();
    assert_eq!(start.order(), [0, 1]);
    assert_eq!(
        fight.describe(&start),
        "Dashwood 5/5 HP; Slumpy 10/10 HP, not yet closed in"
    );
    let played = play(&fight, &mut rng(1), 1_000);
    assert!(played.end.is_some());
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert!((law.ends.total() - 1.0).abs() < 1e-12);
    assert_eq!(law.ends.tail(), 0.0);
    assert_eq!(law.ends.len(), 2);
    assert!(law.states < 1_000, "{} states", law.states);
    assert!(law.expected_rounds.is_some());
    // JSON scenes read the same.
    let json = serde_json::to_string(&scene).unwrap();
    let back: Scene = serde_json::from_str(&json).unwrap();
    assert_eq!(back, scene);
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

fn sb_scene(text: &str) -> FightEncounter {
    toml::from_str::<Scene>(text)
        .unwrap()
        .encounter(&Rules::default())
        .unwrap()
}

const TWO_V_TWO: &str = r#"
[[fighters]]
name = "A1"
weapon = "small"
side = "a"
[[fighters]]
name = "A2"
weapon = "small"
side = "a"
[[fighters]]
name = "B1"
weapon = "small"
side = "b"
[[fighters]]
name = "B2"
weapon = "small"
side = "b"
"#;

#[test]
fn told_rounds_name_the_actors_and_draw_as_play_round() {
    let scene: Scene = toml::from_str(&std::fs::read_to_string(SCENE).unwrap()).unwrap();
    let fight = scene.encounter(&Rules::default()).unwrap();
    for seed in 0..5 {
        let lines = told_rounds(&fight, seed);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("Dashwood attacks Slumpy"))
        );
        assert!(lines.iter().any(|l| l.starts_with("Slumpy runs in")));
        assert!(lines.iter().any(|l| l.contains("unconscious")));
    }
    // play() with a seed goes through the told rounds: the same ending as play_round.
    let played = play(&fight, &mut rng(7), 1_000);
    let mut r = rng(7);
    let mut s = fight.start();
    while fight.end(&s).is_none() {
        s = fight.play_round(&s, &mut r);
    }
    assert_eq!(played.end, fight.end(&s));
}

#[test]
fn state_bound_holds_and_refuses_large_fights_at_once() {
    let scene: Scene = toml::from_str(&std::fs::read_to_string(SCENE).unwrap()).unwrap();
    let small = Characteristics {
        size: Size::Single(Level::VeryLow),
        fitness: Level::Low,
        ..Characteristics::default()
    };
    let varied = vec![
        scene.encounter(&Rules::default()).unwrap(),
        FightEncounter::new(
            vec![
                Combatant::new("Pip", small, WeaponClass::Small).side("x"),
                Combatant::new("Pop", small, WeaponClass::PunchOrKick).side("x"),
                Combatant::new("Squeak", small, WeaponClass::Large).sneak(Surprise::PlusOne),
            ],
            false,
            &Rules::default(),
        )
        .unwrap(),
        FightEncounter::new(
            vec![
                Combatant::new("Ann", small, WeaponClass::Large)
                    .reach(Reach::Ranged)
                    .quiver(true),
                Combatant::new("Bob", small, WeaponClass::Small),
            ],
            true,
            &Rules::default(),
        )
        .unwrap(),
    ];
    for fight in &varied {
        let law = end_law(fight, EncounterLimits::default()).unwrap();
        let bound = fight.state_bound().unwrap();
        assert!(bound >= law.states as u64, "{bound} < {}", law.states);
        // Other tactics: no bound, the states are counted as they are listed.
        assert_eq!(
            fight.clone().with_policy(RulebookTactics).state_bound(),
            None
        );
    }
    // Four elephants, two a side: refused before any work.
    let elephants = sb_scene(&TWO_V_TWO.replace(
        "weapon = \"small\"",
        "weapon = \"large\"\nspecies = \"elephant\"",
    ));
    let bound = elephants.state_bound().unwrap();
    assert!(bound > 200_000);
    assert!(matches!(
        end_law(&elephants, EncounterLimits::default()),
        Err(dice_core::Error::TooManyStates { .. })
    ));
}

#[test]
fn health_at_the_end_matches_the_winner() {
    let scene: Scene = toml::from_str(&std::fs::read_to_string(SCENE).unwrap()).unwrap();
    let fight = scene.encounter(&Rules::default()).unwrap();
    let law = end_law(&fight, EncounterLimits::default()).unwrap();
    assert_eq!(fight.health_names(), ["Dashwood", "Slumpy"]);
    assert_eq!(fight.health(&fight.start()), [5, 10]);
    for (name, health) in &law.health {
        assert!((health.total() + law.ends.tail() - 1.0).abs() < 1e-9);
        let standing: f64 = health.iter().filter(|&(&h, _)| h > 0).map(|(_, p)| p).sum();
        let wins = law.ends.probability(&Victory { side: name.clone() });
        assert!(
            (standing - wins).abs() < 1e-9,
            "{name}: {standing} vs {wins}"
        );
    }
}
