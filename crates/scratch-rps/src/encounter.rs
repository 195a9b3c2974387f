//! Whole fights as a dice-core [`Encounter`]: the exact odds of who is left standing, and
//! fights played with the caller's RNG, both run by [`Fight`]'s own rules.
//!
//! A [`FightEncounter`] is a [`Fight`] (the combatants, the environment, the rulings) that
//! has not started, a [`Policy`] choosing each combatant's turn (by default [`Tactics`]), and
//! names for the combatants and their sides. One round is one pass through the initiative
//! order (L23); the first round begins with the initiative roll. Its state ([`FightState`])
//! is the initiative order and each combatant's [`Condition`]: no round counter.
//!
//! **One mechanic, one place.** Every turn of the exact law is carried out by the steps of
//! [`Fight::take_turn`] (the pure form) with the dice that matter: for each d20 the turn
//! rolls, the faces are split by outcome (failure, success, automatic success) against the
//! total and difficulty that the turn itself reports for that roll, and one face of each
//! outcome is played, weighted by how many faces give it. Faces with the same outcome give
//! the same fight (nothing in a fight remembers the face), so this is exact; the tests check
//! it against every face of every die. A played round ([`Encounter::play_round`]) rolls the
//! same turns with [`Fight::start_rolled`] and [`Fight::take_turn_rolled`]. Nothing is
//! approximated.
//!
//! **Equivalent situations are one state** ([`FightEncounter::normal_form`]): between
//! rounds, a combatant out of the fight for good (escaped, or down with no one standing who
//! could revive him) only ever passes, so where he sits in the initiative order and what
//! was to last until his next turn do not matter; and twins (a boss's identical thugs) can
//! trade places ([`FightEncounter::with_twins_merged`]). The rules and the tactics treat
//! such situations alike, so the exact law is the same with far fewer states (the Boss and
//! his thugs: 12,754 states, under a quarter as many).
//!
//! **The default tactics do not stall** ([`Tactics`]): a hold alone or an evade only buys
//! time, so a combatant with no ally standing does not spend his turns on them (but to
//! escape); otherwise two lone fighters could hold or dodge each other for ever, and part of
//! the fight would never end ([`dice_core::never_ending_states`] finds such states).
//!
//! ```
//! use dice_core::{EncounterLimits, end_law};
//! use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
//!
//! let mut fight = Fight::new(Environment::default(), Rules::default());
//! fight.add(Combatant::new(Character::from_stat_block("2 fighting, 3 toughness")?, 0))?;
//! fight.add(Combatant::new(Character::from_stat_block("1 quickness, 3 toughness")?, 1))?;
//! let duel = FightEncounter::new(fight)?;
//! let law = end_law(&duel, EncounterLimits::default())?;
//! assert!((law.ends.total() - 1.0).abs() < 1e-12);
//! # Ok::<(), dice_scratch_rps::Error>(())
//! ```

use core::cell::{Cell, RefCell};
use core::fmt;
use std::collections::BTreeMap;
use std::sync::{Mutex, RwLock};

use core::hash::BuildHasher;
use dice_core::{Dist, Encounter, EncounterLimits, Exact, Policy, Rng};
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::ability::{Ability, Movement};
use crate::attack::{AttackKind, BLASTING_TARGETS};
use crate::character::{Character, Health};
use crate::error::Error;
use crate::fight::{
    Action, BonusAction, Combatant, CombatantId, Condition, Fight, RollReport, Turn, TurnReport,
    TurnStatus,
};
use crate::initiative::Initiative;
use crate::roll::{Outcome, resolve};
use crate::rules::{Environment, Rules};

/// The most combatants whose initiative order the exact law lists (every order is weighed:
/// `n!` of them).
pub const MAX_EXACT_COMBATANTS: usize = 6;

/// The default budget of [`FightEncounter::estimated_states`]: the fights measured reach
/// between a quarter and a half of their estimate, at about 60 to 100 µs a state in release,
/// so a fight within 200,000 estimated states is answered in a few seconds (the Boss with a
/// third thug and a tougher Flipfire: 134,401 estimated, 52,101 states, about 4 s), and one
/// beyond is refused at once.
pub const DEFAULT_ESTIMATE_BUDGET: u64 = 200_000;

/// A fight in progress between rounds: the initiative order (empty before it is rolled) and
/// every combatant's [`Condition`], in the order they were added. No round counter.
///
/// ```
/// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightState, Rules};
/// let mut f = Fight::new(Environment::default(), Rules::default());
/// f.add(Combatant::new(Character::from_stat_block("3 toughness")?, 0))?;
/// let s = FightState::of(&f);
/// assert!(!s.is_started());
/// assert_eq!(s.to_string(), "initiative not rolled; #0 3 hp");
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FightState {
    order: Slots<CombatantId>,
    conditions: Slots<Condition>,
}

/// A short list held inline, without allocating, up to [`MAX_EXACT_COMBATANTS`] items (a
/// fight whose exact law is asked for), on the heap beyond. It compares, hashes, prints and
/// (with serde) reads and writes as the list of its items, as a `Vec` would: the exact law
/// handles many thousand states, and copying, comparing and hashing them inline is what
/// keeps it fast.
#[derive(Clone)]
enum Slots<T: Copy> {
    /// The first `len` items are the list; the rest repeat the first item.
    Inline(u8, [T; MAX_EXACT_COMBATANTS]),
    Heap(Vec<T>),
}

impl<T: Copy> Slots<T> {
    fn from_slice(items: &[T]) -> Slots<T> {
        match items.first() {
            Some(&first) if items.len() <= MAX_EXACT_COMBATANTS => {
                let mut inline = [first; MAX_EXACT_COMBATANTS];
                inline[..items.len()].copy_from_slice(items);
                // At most MAX_EXACT_COMBATANTS, which fits a u8.
                Slots::Inline(items.len() as u8, inline)
            }
            _ => Slots::Heap(items.to_vec()),
        }
    }
}

impl<T: Copy> From<Vec<T>> for Slots<T> {
    fn from(v: Vec<T>) -> Slots<T> {
        if v.len() <= MAX_EXACT_COMBATANTS {
            Slots::from_slice(&v)
        } else {
            Slots::Heap(v)
        }
    }
}

impl<T: Copy> FromIterator<T> for Slots<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Slots<T> {
        let mut items = items.into_iter();
        let Some(first) = items.next() else {
            return Slots::Heap(Vec::new());
        };
        let mut inline = [first; MAX_EXACT_COMBATANTS];
        let mut len = 1;
        for x in items.by_ref() {
            if len == MAX_EXACT_COMBATANTS {
                let mut v = inline.to_vec();
                v.push(x);
                v.extend(items);
                return Slots::Heap(v);
            }
            inline[len] = x;
            len += 1;
        }
        Slots::Inline(len as u8, inline)
    }
}

impl<T: Copy> core::ops::Deref for Slots<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Slots::Inline(len, items) => &items[..usize::from(*len)],
            Slots::Heap(v) => v,
        }
    }
}

impl<T: Copy> core::ops::DerefMut for Slots<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Slots::Inline(len, items) => &mut items[..usize::from(*len)],
            Slots::Heap(v) => v,
        }
    }
}

impl<T: Copy + PartialEq> PartialEq for Slots<T> {
    fn eq(&self, other: &Slots<T>) -> bool {
        **self == **other
    }
}

impl<T: Copy + Eq> Eq for Slots<T> {}

impl<T: Copy + Ord> PartialOrd for Slots<T> {
    fn partial_cmp(&self, other: &Slots<T>) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Copy + Ord> Ord for Slots<T> {
    fn cmp(&self, other: &Slots<T>) -> core::cmp::Ordering {
        (**self).cmp(&**other)
    }
}

impl<T: Copy + core::hash::Hash> core::hash::Hash for Slots<T> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: Copy + fmt::Debug> fmt::Debug for Slots<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(feature = "serde")]
impl<T: Copy + serde::Serialize> serde::Serialize for Slots<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de, T: Copy + serde::Deserialize<'de>> serde::Deserialize<'de> for Slots<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Slots<T>, D::Error> {
        Vec::<T>::deserialize(deserializer).map(Slots::from)
    }
}

impl FightState {
    /// The state of `fight` (its order and its combatants' conditions).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightState, Rules};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// f.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// f.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// f.start(&[3, 9], &[])?;
    /// assert_eq!(FightState::of(&f).order(), [1, 0]);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn of(fight: &Fight) -> FightState {
        FightState {
            order: Slots::from_slice(fight.order()),
            conditions: fight
                .combatants()
                .iter()
                .map(Combatant::condition)
                .collect(),
        }
    }

    /// Whether initiative has been rolled.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, FightState, Rules};
    /// assert!(!FightState::of(&Fight::new(Environment::default(), Rules::default())).is_started());
    /// ```
    pub fn is_started(&self) -> bool {
        !self.order.is_empty()
    }

    /// The initiative order, highest first.
    ///
    /// ```
    /// use dice_scratch_rps::{Environment, Fight, FightState, Rules};
    /// assert!(FightState::of(&Fight::new(Environment::default(), Rules::default())).order().is_empty());
    /// ```
    pub fn order(&self) -> &[CombatantId] {
        &self.order
    }

    /// Every combatant's condition, by id.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightState, Rules};
    /// let mut f = Fight::new(Environment::default(), Rules::default());
    /// f.add(Combatant::new(Character::from_stat_block("5 toughness")?, 0))?;
    /// assert_eq!(FightState::of(&f).conditions()[0].hit_points(), 5);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn conditions(&self) -> &[Condition] {
        &self.conditions
    }
}

impl fmt::Display for FightState {
    /// `order #2, #0, #1; #0 3 hp, #1 2 hp, delayed, …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.order.is_empty() {
            f.write_str("initiative not rolled")?;
        } else {
            f.write_str("order ")?;
            for (i, id) in self.order.iter().enumerate() {
                write!(f, "{}#{id}", if i == 0 { "" } else { ", " })?;
            }
        }
        for (i, c) in self.conditions.iter().enumerate() {
            write!(f, "{}#{i} {c}", if i == 0 { "; " } else { ", " })?;
        }
        Ok(())
    }
}

/// How a fight ends: the side left standing when fewer than two sides have anyone neither
/// incapacitated nor escaped, and the other sides that got someone away (L53).
///
/// ```
/// use dice_scratch_rps::FightEnd;
/// let won = FightEnd { standing: Some("bounty hunters".into()), escaped: vec![] };
/// assert_eq!(won.to_string(), "bounty hunters victorious");
/// let fled = FightEnd { standing: Some("bounty hunters".into()), escaped: vec!["outlaw".into()] };
/// assert_eq!(fled.to_string(), "outlaw escaped");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FightEnd {
    /// The side with someone still standing, if any.
    pub standing: Option<String>,
    /// The other sides with someone who escaped (the rest of them incapacitated), in side
    /// order; empty when every opponent was incapacitated.
    pub escaped: Vec<String>,
}

impl fmt::Display for FightEnd {
    /// `S victorious` (L149's words), `E escaped`, or `no one left standing`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.escaped.is_empty() {
            return write!(f, "{} escaped", self.escaped.join(" and "));
        }
        match &self.standing {
            Some(s) => write!(f, "{s} victorious"),
            None => f.write_str("no one left standing"),
        }
    }
}

/// The default tactics: each combatant plays as the rulebook's own combat example (L119–L149)
/// and its advice on each action suggest.
///
/// On his turn a combatant who can act takes the first of these that applies:
///
/// 1. **Escape** (L53) if he is giving up and may: "a character can escape the battle if he
///    evaded on his last turn and has not been caught or hit since". He gives up when he is
///    injured, no one of his side is left standing beside him, and two or more opponents
///    stand against him (some characters "give up as soon as they are injured", L71).
/// 2. **Heal** (L99): a healer "attempts to revive" a fallen comrade (Flipfire, L125), or heals
///    an injured one (Flipfire "leaps to Chokestar's aid", L139), the incapacitated first,
///    then the fewest hit points, when the healing roll is at least as likely to succeed as
///    her best attack is to hit.
/// 3. **Evade** (L49) with his best movement ability when giving up, to escape next turn.
/// 4. **Catch** (L51) an opponent who evaded and may escape on his next turn, when the catch is
///    likelier to succeed than any attack on him is to hit (either one spoils the escape);
///    otherwise his attack goes at that opponent.
/// 5. **Attack** with the regular action, and the bonus action, worth the most: the expected
///    hit points it takes from opponents (never more than they have), plus, for a hold
///    (L45), the damage the target would deal on the turn he loses, unless the hold is his
///    whole turn and no ally of his is standing (a hold alone only trades his turn for the
///    target's: with no one to use the time it never wins, and two lone holders would hold
///    each other for ever); minus, for an attack that delays the attacker (knockout, or
///    shooting and blasting when injured, L75–L79), the damage he gives up on his own next
///    turn. **Engage** (L55) is taken when the +2 to the close-range rolls gains more than
///    the −2 defense gives the opponents who act before his next turn; **take cover** (L57),
///    where there is cover, when the +2 defense saves more than the −2 to the long-range
///    rolls costs. The damage an opponent "would deal" is his best single attack action's
///    expected damage ([`Fight::attack_for`]).
/// 6. **Evade** (L49) when an ally of his is standing and the hits the higher defense turns
///    away are worth more than the best attack (alone, dodging only puts off the end: he
///    evades alone only to escape, 3.), or when no attack can be made.
/// 7. **Do nothing** (L41).
///
/// Every number is exact (each attack's odds from [`Fight::attack_for`]); ties (values equal
/// but for rounding) go to the first turn in [`Fight::open_turns`]' order, in the fight as
/// [`FightEncounter::normal_form`] puts it (twins sorted by condition, then by place in the
/// order: the one with fewer hit points first).
///
/// ```
/// use dice_core::Policy;
/// use dice_scratch_rps::{Action, Character, Combatant, Environment, Fight, Rules, Tactics, Turn};
/// let mut f = Fight::new(Environment::default(), Rules::default());
/// f.add(Combatant::new(Character::from_stat_block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness")?, 0))?;
/// f.add(Combatant::new(Character::from_stat_block("2 wrestling, 3 stalking, 3 toughness")?, 0).with_hit_points(1)?)?;
/// f.add(Combatant::new(Character::from_stat_block("4 shooting, 4 fighting, 6 toughness")?, 1))?;
/// f.start(&[20, 1, 2], &[])?; // Chokestar 31, Flipfire 20, Breakhelm X-19 2
/// f.pass()?; // Chokestar does nothing
/// // Flipfire heals the injured Chokestar (L139): 0.6 against a 0.5 shot.
/// let turn = Tactics.choose(&f, 0, &f.open_turns());
/// assert_eq!(turn, Turn::new(Action::Heal { target: 1 }));
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tactics;

/// What the tactics read off the fight once per decision.
struct Reading<'a> {
    fight: &'a Fight,
    who: CombatantId,
    foes: Vec<CombatantId>,
}

impl Reading<'_> {
    fn combatant(&self, id: CombatantId) -> &Combatant {
        &self.fight.combatants()[id]
    }

    /// The expected damage of `attacker`'s best single attack action on `target` in `fight`.
    fn threat_in(fight: &Fight, attacker: CombatantId, target: CombatantId) -> f64 {
        let c = &fight.combatants()[attacker];
        if !c.is_standing() {
            return 0.0;
        }
        let ch = c.character();
        let healthy = c.health() == Health::Healthy;
        let e = |kind: AttackKind, with: Option<Ability>| {
            fight
                .attack_for(attacker, kind, with, target, None)
                .map_or(0.0, |a| a.expected_damage())
        };
        let mut best = e(AttackKind::BasicAttack, None);
        for a in [Ability::Fighting, Ability::Wrestling] {
            if ch.has(a) {
                let x = e(AttackKind::BasicAttack, Some(a));
                let x = if healthy && a == Ability::Fighting {
                    2.0 * x
                } else {
                    x
                };
                best = best.max(x);
            }
        }
        for (a, k) in [
            (Ability::Shooting, AttackKind::Shooting),
            (Ability::Knockout, AttackKind::Knockout),
            (Ability::Blasting, AttackKind::Blasting),
        ] {
            if ch.has(a) {
                best = best.max(e(k, Some(a)));
            }
        }
        if fight.environment().throwable_object {
            best = best.max(e(AttackKind::ThrowObject, None));
        }
        best
    }

    /// What `attacker` would deal on his turn: his best threat to anyone of the other side.
    fn threat(&self, attacker: CombatantId) -> f64 {
        let team = self.combatant(attacker).team();
        (0..self.fight.combatants().len())
            .filter(|&t| {
                t != attacker && self.combatant(t).team() != team && self.combatant(t).is_standing()
            })
            .map(|t| Self::threat_in(self.fight, attacker, t))
            .fold(0.0, f64::max)
    }

    /// The foes who act before my next turn and what they would deal me with my defense
    /// shifted by `delta`; worked out on `costs`' copy of the fight, put back as it was.
    fn exposure(&self, costs: &Costs, delta: i64) -> f64 {
        let mut copy = costs.what_if.borrow_mut();
        let f = copy.get_or_insert_with(|| self.fight.clone());
        f.shift_defense(self.who, delta);
        let x = self
            .foes
            .iter()
            .filter(|&&x| self.combatant(x).status() == TurnStatus::Ready)
            .map(|&x| Self::threat_in(f, x, self.who))
            .sum();
        f.shift_defense(self.who, -delta);
        x
    }

    /// The attack rolls of an action: kind, ability, target.
    fn rolls(action: &Action) -> RollList {
        let mut list = RollList::new();
        match action {
            Action::BasicAttack { target, with } => {
                list.push((AttackKind::BasicAttack, *with, *target));
            }
            Action::Hold { target, with } => list.push((AttackKind::Hold, *with, *target)),
            Action::ThrowObject { target } => list.push((AttackKind::ThrowObject, None, *target)),
            Action::Catch { target, with } => {
                list.push((AttackKind::Catch, with.map(Movement::ability), *target));
            }
            Action::Shoot { target } => {
                list.push((AttackKind::Shooting, Some(Ability::Shooting), *target));
            }
            Action::Blast { targets } => {
                for &t in targets {
                    list.push((AttackKind::Blasting, Some(Ability::Blasting), t));
                }
            }
            Action::Knockout { target } => {
                list.push((AttackKind::Knockout, Some(Ability::Knockout), *target));
            }
            Action::FightingAttacks { first, second } => {
                list.push((AttackKind::BasicAttack, Some(Ability::Fighting), *first));
                list.push((AttackKind::BasicAttack, Some(Ability::Fighting), *second));
            }
            Action::WrestlingAttacks {
                basic_attack, hold, ..
            } => {
                let w = Some(Ability::Wrestling);
                list.push((AttackKind::BasicAttack, w, *basic_attack));
                list.push((AttackKind::Hold, w, *hold));
            }
            _ => {}
        }
        list
    }

    /// The best hit chance of one roll of `turn`, and its value (see [`Tactics`]); `None`
    /// for a turn that is no attack on opponents.
    fn attack_value(&self, turn: &Turn, costs: &Costs) -> Option<(f64, f64)> {
        let rolls = Self::rolls(&turn.action);
        if rolls.as_slice().is_empty() || matches!(turn.action, Action::Catch { .. }) {
            return None;
        }
        let mut value = 0.0;
        let mut hit = 0.0f64;
        let mut delays_me = false;
        for &(kind, with, t) in rolls.as_slice() {
            if !self.foes.contains(&t) {
                return None;
            }
            let a = costs.roll(self, kind, with, t, turn.bonus)?;
            hit = hit.max(a.hit);
            delays_me |= a.delays_me;
            value += a.damage;
            // The turn a hold takes from its target is worth his damage, unless the hold is
            // the whole turn of a holder with no ally standing: then no one uses that time.
            let lone_hold = matches!(turn.action, Action::Hold { .. }) && !costs.ally_standing;
            if kind.delays_target() && !self.combatant(t).is_delayed() && !lone_hold {
                value += a.hit * costs.threat_of(self, t);
            }
        }
        if delays_me {
            value -= costs.threat_of(self, self.who);
        }
        match turn.bonus {
            Some(BonusAction::Engage) => value -= costs.engage(self),
            Some(BonusAction::TakeCover) => value += costs.cover(self),
            _ => {}
        }
        Some((hit, value))
    }
}

/// One attack roll of an action: kind, ability, target.
type RollOf = (AttackKind, Option<Ability>, CombatantId);

/// The attack rolls of one action, without allocating: at most three (blasting's targets;
/// the turns weighed are open ones, which the rules keep within that).
struct RollList {
    rolls: [RollOf; BLASTING_TARGETS],
    len: usize,
}

impl RollList {
    fn new() -> RollList {
        RollList {
            rolls: [(AttackKind::BasicAttack, None, 0); BLASTING_TARGETS],
            len: 0,
        }
    }

    fn push(&mut self, roll: RollOf) {
        if let Some(slot) = self.rolls.get_mut(self.len) {
            *slot = roll;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[RollOf] {
        &self.rolls[..self.len]
    }
}

/// Two values closer than this are a tie (they differ only by rounding, the order in which
/// their terms were added): the first turn listed wins it.
const TIE: f64 = 1e-9;

/// What one attack roll of mine is worth: its hit chance, the hit points it takes (never
/// more than the target has), whether it delays me.
#[derive(Clone, Copy)]
struct RollWorth {
    hit: f64,
    damage: f64,
    delays_me: bool,
}

/// An attack roll: its kind, ability, target and the bonus action before it.
type RollKey = (
    AttackKind,
    Option<Ability>,
    CombatantId,
    Option<BonusAction>,
);

/// Numbers worked out at most once per decision, when first needed.
struct Costs {
    ally_standing: bool,
    /// The attack rolls weighed so far (many turns share a roll: two fighting attacks).
    rolls: RefCell<FxHashMap<RollKey, Option<RollWorth>>>,
    /// What each combatant would deal on his turn ([`Reading::threat`]).
    threat_of: RefCell<Vec<Option<f64>>>,
    /// What the foes would deal me before my next turn ([`Reading::exposure`]).
    base: Cell<Option<f64>>,
    engage: Cell<Option<f64>>,
    cover: Cell<Option<f64>>,
    /// A copy of the fight for what-ifs (my defense shifted), made when first needed.
    what_if: RefCell<Option<Fight>>,
}

impl Costs {
    fn new(r: &Reading<'_>, ally_standing: bool) -> Costs {
        Costs {
            ally_standing,
            rolls: RefCell::default(),
            threat_of: RefCell::new(vec![None; r.fight.combatants().len()]),
            base: Cell::new(None),
            engage: Cell::new(None),
            cover: Cell::new(None),
            what_if: RefCell::new(None),
        }
    }

    /// The worth of an attack roll of mine ([`Fight::attack_for`]); `None` if the rules
    /// refuse it.
    fn roll(
        &self,
        r: &Reading<'_>,
        kind: AttackKind,
        with: Option<Ability>,
        target: CombatantId,
        bonus: Option<BonusAction>,
    ) -> Option<RollWorth> {
        let key = (kind, with, target, bonus);
        if let Some(w) = self.rolls.borrow().get(&key) {
            return *w;
        }
        let worth = r
            .fight
            .attack_for(r.who, kind, with, target, bonus)
            .ok()
            .map(|a| RollWorth {
                hit: a.hit_chance(),
                damage: a.expected_damage_up_to(r.combatant(target).hit_points()),
                delays_me: a.delays_attacker(),
            });
        self.rolls.borrow_mut().insert(key, worth);
        worth
    }

    fn threat_of(&self, r: &Reading<'_>, id: CombatantId) -> f64 {
        if let Some(Some(x)) = self.threat_of.borrow().get(id) {
            return *x;
        }
        let x = r.threat(id);
        if let Some(slot) = self.threat_of.borrow_mut().get_mut(id) {
            *slot = Some(x);
        }
        x
    }

    fn once(cell: &Cell<Option<f64>>, f: impl FnOnce() -> f64) -> f64 {
        cell.get().unwrap_or_else(|| {
            let x = f();
            cell.set(Some(x));
            x
        })
    }

    fn base(&self, r: &Reading<'_>) -> f64 {
        Self::once(&self.base, || r.exposure(self, 0))
    }

    /// What engaging gives the foes: my defense 2 lower until my next turn.
    fn engage(&self, r: &Reading<'_>) -> f64 {
        Self::once(&self.engage, || {
            r.exposure(self, -crate::fight::ENGAGE_DEFENSE_PENALTY) - self.base(r)
        })
    }

    /// What taking cover saves: my defense 2 higher until my next turn.
    fn cover(&self, r: &Reading<'_>) -> f64 {
        Self::once(&self.cover, || {
            self.base(r) - r.exposure(self, crate::fight::TAKE_COVER_DEFENSE_BONUS)
        })
    }
}

impl Policy<Fight, Turn> for Tactics {
    fn choose(&self, fight: &Fight, who: CombatantId, open: &[Turn]) -> Turn {
        let nothing = Turn::new(Action::Nothing);
        let Some(me) = fight.combatants().get(who) else {
            return open.first().cloned().unwrap_or(nothing);
        };
        let cs = fight.combatants();
        let foes: Vec<CombatantId> = (0..cs.len())
            .filter(|&i| cs[i].team() != me.team() && cs[i].is_standing())
            .collect();
        let ally_standing =
            (0..cs.len()).any(|i| i != who && cs[i].team() == me.team() && cs[i].is_standing());
        let r = Reading { fight, who, foes };
        let giving_up = me.health() == Health::Injured && !ally_standing && r.foes.len() >= 2;
        let escape = Turn::new(Action::Escape);
        if giving_up && open.contains(&escape) {
            return escape;
        }
        let costs = Costs::new(&r, ally_standing);
        let attacks: Vec<(&Turn, f64, f64)> = open
            .iter()
            .filter_map(|t| r.attack_value(t, &costs).map(|(h, v)| (t, h, v)))
            .collect();
        let best_hit = attacks.iter().map(|a| a.1).fold(0.0, f64::max);

        // Heal: the incapacitated first, then the fewest hit points.
        if let Ok(roll) = crate::support::healing_roll(me.character()) {
            let patient = open
                .iter()
                .filter_map(|t| match t.action {
                    Action::Heal { target } if cs[target].team() == me.team() => {
                        Some((cs[target].hit_points(), target, t))
                    }
                    _ => None,
                })
                .min_by_key(|&(hp, id, _)| (hp, id));
            if let Some((_, _, t)) = patient {
                if roll.success_chance() >= best_hit - TIE {
                    return t.clone();
                }
            }
        }

        // The best evade open (the highest level).
        let evade = open
            .iter()
            .filter_map(|t| match t.action {
                Action::Evade { with } if t.bonus.is_none() => {
                    let level = with.map_or(0, |m| me.character().level(m.ability()));
                    Some((level, t))
                }
                _ => None,
            })
            .max_by_key(|&(level, _)| level);
        if giving_up {
            if let Some((_, t)) = evade {
                return t.clone();
            }
        }

        // An opponent who may escape on his next turn: catch him or hit him.
        let escaper = r
            .foes
            .iter()
            .copied()
            .find(|&f| cs[f].condition().may_escape());
        let mut attacks = attacks;
        if let Some(e) = escaper {
            let on_him: Vec<(&Turn, f64, f64)> = attacks
                .iter()
                .copied()
                .filter(|(t, _, _)| {
                    Reading::rolls(&t.action)
                        .as_slice()
                        .iter()
                        .any(|x| x.2 == e)
                })
                .collect();
            let hit_him = on_him.iter().map(|a| a.1).fold(0.0, f64::max);
            let catch = open
                .iter()
                .filter_map(|t| match t.action {
                    Action::Catch { target, with } if target == e => fight
                        .attack_for(
                            who,
                            AttackKind::Catch,
                            with.map(Movement::ability),
                            e,
                            t.bonus,
                        )
                        .ok()
                        .map(|a| (a.hit_chance(), t)),
                    _ => None,
                })
                .fold(None::<(f64, &Turn)>, |b, x| match b {
                    Some(b) if b.0 >= x.0 - TIE => Some(b),
                    _ => Some(x),
                });
            if let Some((p, t)) = catch {
                if p > hit_him + TIE {
                    return t.clone();
                }
            }
            if !on_him.is_empty() {
                attacks = on_him;
            }
        }

        let best = attacks
            .iter()
            .fold(None::<(&Turn, f64)>, |b, &(t, _, v)| match b {
                Some(b) if b.1 >= v - TIE => Some(b),
                _ => Some((t, v)),
            });
        // What the evade's higher defense turns away: weighed only against an attack, and
        // only with an ally standing (alone, he evades only to escape, above).
        let evade_worth = |level: u32| {
            let level = i64::from(level);
            costs.base(&r) - r.exposure(&costs, level)
        };
        match (best, evade) {
            (Some((t, v)), Some((level, e))) if ally_standing => {
                let worth = evade_worth(level);
                if worth > v + TIE && worth > TIE {
                    e.clone()
                } else {
                    t.clone()
                }
            }
            (Some((t, _)), _) => t.clone(),
            (None, Some((_, t))) => t.clone(),
            (None, None) => {
                if open.contains(&nothing) || open.is_empty() {
                    nothing
                } else {
                    open[0].clone()
                }
            }
        }
    }
}

/// A fight as an [`Encounter`]: a [`Fight`] not yet started, a [`Policy`] for every
/// combatant's turns (by default [`Tactics`]), and names.
///
/// The policy is asked once for each situation (a fight state and whose turn it is), and its
/// answer is kept: a policy must choose by the fight alone. The [`Tactics`] do not look at
/// the initiative order, so their answers are kept by the combatants' conditions and whose
/// turn it is. It is asked about the fight in its normal form
/// ([`FightEncounter::normal_form`]): those out of the fight for good at the end of the
/// order, twins (when merged) in their standard order. Each turn's law from each situation
/// met is worked out once and kept for the rounds that pass through it again.
///
/// ```
/// use dice_core::{Encounter, EncounterLimits, end_law};
/// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let mut fight = Fight::new(Environment::default(), Rules::default());
/// fight.add(Combatant::new(Character::from_stat_block("1 shooting, 2 toughness")?, 0))?;
/// fight.add(Combatant::new(Character::from_stat_block("1 fighting, 2 toughness")?, 1))?;
/// let e = FightEncounter::new(fight)?.with_names(vec!["A".into(), "B".into()], vec!["red".into(), "blue".into()])?;
/// let next = e.play_round(&e.start(), &mut Xoshiro256PlusPlus::seed_from_u64(3));
/// assert!(next.is_started());
/// let law = end_law(&e, EncounterLimits::default())?;
/// assert_eq!(law.ends.len(), 2); // red victorious, blue victorious
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
pub struct FightEncounter<P = Tactics> {
    fight: Fight,
    names: Vec<String>,
    sides: Vec<String>,
    policy: P,
    chosen: RwLock<FxHashMap<(FightState, usize), Turn>>,
    /// Whether the policy chooses by the combatants alone, not the initiative order (the
    /// [`Tactics`]): then its answers are kept by conditions and whose turn it is.
    order_blind: bool,
    /// The laws of the turns worked out so far, for [`Encounter::round_law`].
    turns: Mutex<TurnMemo>,
    /// Twins merged by symmetry: classes of two or more ids, increasing; empty when off.
    twins: Vec<Vec<CombatantId>>,
    /// The most states [`FightEncounter::estimated_states`] may estimate before the exact
    /// law is refused.
    budget: u64,
}

impl<P: Clone> Clone for FightEncounter<P> {
    fn clone(&self) -> Self {
        FightEncounter {
            fight: self.fight.clone(),
            names: self.names.clone(),
            sides: self.sides.clone(),
            policy: self.policy.clone(),
            chosen: RwLock::default(),
            order_blind: self.order_blind,
            turns: Mutex::default(),
            twins: self.twins.clone(),
            budget: self.budget,
        }
    }
}

/// The classes of twins of `fight` (combatants who can trade places, [`Combatant`]'s
/// `is_twin_of`), each of two or more ids in increasing order.
fn twin_classes(fight: &Fight) -> Vec<Vec<CombatantId>> {
    let cs = fight.combatants();
    let mut classes: Vec<Vec<CombatantId>> = Vec::new();
    for (id, c) in cs.iter().enumerate() {
        match classes.iter_mut().find(|k| cs[k[0]].is_twin_of(c)) {
            Some(k) => k.push(id),
            None => classes.push(vec![id]),
        }
    }
    classes.retain(|k| k.len() > 1);
    classes
}

/// `state` with combatant `id` renamed `to[id]` (a permutation of the ids).
fn relabel(state: &FightState, to: &[CombatantId]) -> FightState {
    let mut conditions = state.conditions.clone();
    for (id, c) in state.conditions.iter().enumerate() {
        if let Some(slot) = to.get(id).and_then(|&t| conditions.get_mut(t)) {
            *slot = *c;
        }
    }
    FightState {
        order: state
            .order
            .iter()
            .map(|&id| to.get(id).copied().unwrap_or(id))
            .collect(),
        conditions,
    }
}

/// `turn` with combatant `id` renamed `to[id]`.
fn relabel_turn(turn: &Turn, to: &[CombatantId]) -> Turn {
    let r = |id: &CombatantId| to.get(*id).copied().unwrap_or(*id);
    let action = match &turn.action {
        Action::BasicAttack { target, with } => Action::BasicAttack {
            target: r(target),
            with: *with,
        },
        Action::Hold { target, with } => Action::Hold {
            target: r(target),
            with: *with,
        },
        Action::ThrowObject { target } => Action::ThrowObject { target: r(target) },
        Action::Catch { target, with } => Action::Catch {
            target: r(target),
            with: *with,
        },
        Action::Shoot { target } => Action::Shoot { target: r(target) },
        Action::Blast { targets } => Action::Blast {
            targets: targets.iter().map(r).collect(),
        },
        Action::Knockout { target } => Action::Knockout { target: r(target) },
        Action::FightingAttacks { first, second } => Action::FightingAttacks {
            first: r(first),
            second: r(second),
        },
        Action::WrestlingAttacks {
            basic_attack,
            hold,
            hold_first,
        } => Action::WrestlingAttacks {
            basic_attack: r(basic_attack),
            hold: r(hold),
            hold_first: *hold_first,
        },
        Action::Heal { target } => Action::Heal { target: r(target) },
        a @ (Action::Nothing | Action::Evade { .. } | Action::Escape) => a.clone(),
    };
    Turn {
        bonus: turn.bonus,
        action,
    }
}

impl<P: fmt::Debug> fmt::Debug for FightEncounter<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FightEncounter")
            .field("fight", &self.fight)
            .field("names", &self.names)
            .field("sides", &self.sides)
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl FightEncounter<Tactics> {
    /// `fight` (not started, with combatants of at least two teams) played with [`Tactics`];
    /// combatant `i` is named `#i`, team `t` is `team t`.
    ///
    /// # Errors
    /// [`Error::Scene`] when the fight has started or has fewer than two teams.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// assert!(FightEncounter::new(fight).is_err()); // one side only
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn new(fight: Fight) -> Result<FightEncounter<Tactics>, Error> {
        if fight.is_started() {
            return Err(Error::Scene("the fight must not have started".into()));
        }
        let mut teams: Vec<u32> = fight.combatants().iter().map(Combatant::team).collect();
        teams.sort_unstable();
        teams.dedup();
        if teams.len() < 2 {
            return Err(Error::Scene("a fight needs combatants on two sides".into()));
        }
        let max = teams.last().copied().unwrap_or(0) as usize;
        Ok(FightEncounter {
            names: (0..fight.combatants().len())
                .map(|i| format!("#{i}"))
                .collect(),
            sides: (0..=max).map(|t| format!("team {t}")).collect(),
            twins: twin_classes(&fight),
            fight,
            policy: Tactics,
            chosen: RwLock::default(),
            order_blind: true,
            turns: Mutex::default(),
            budget: DEFAULT_ESTIMATE_BUDGET,
        })
    }
}

impl<P: Policy<Fight, Turn>> FightEncounter<P> {
    /// The same encounter with the combatants named `names` (by id) and team `t` named
    /// `sides[t]`.
    ///
    /// # Errors
    /// [`Error::Scene`] when a combatant has no name or its team no side name.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// let e = FightEncounter::new(fight)?;
    /// assert!(e.clone().with_names(vec!["A".into()], vec!["x".into(), "y".into()]).is_err());
    /// let e = e.with_names(vec!["A".into(), "B".into()], vec!["x".into(), "y".into()])?;
    /// assert_eq!(e.names(), ["A", "B"]);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_names(mut self, names: Vec<String>, sides: Vec<String>) -> Result<Self, Error> {
        if names.len() != self.fight.combatants().len() {
            return Err(Error::Scene(format!(
                "{} names for {} combatants",
                names.len(),
                self.fight.combatants().len()
            )));
        }
        if self
            .fight
            .combatants()
            .iter()
            .any(|c| c.team() as usize >= sides.len())
        {
            return Err(Error::Scene("every team needs a side name".into()));
        }
        self.names = names;
        self.sides = sides;
        Ok(self)
    }

    /// The same encounter played with `policy` instead. Twins are not merged for it (see
    /// [`FightEncounter::with_twins_merged`]).
    ///
    /// ```
    /// use dice_core::{EncounterLimits, Policy, end_law};
    /// use dice_scratch_rps::{Action, Character, Combatant, Environment, Fight, FightEncounter, Rules, Turn};
    /// /// Always the first turn the rules allow that is an attack, else nothing.
    /// struct Plain;
    /// impl Policy<Fight, Turn> for Plain {
    ///     fn choose(&self, _: &Fight, _: usize, open: &[Turn]) -> Turn {
    ///         open.iter().find(|t| t.action.range().is_some() && t.bonus.is_none())
    ///             .cloned().unwrap_or(Turn::new(Action::Nothing))
    ///     }
    /// }
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// let e = FightEncounter::new(fight)?.with_policy(Plain);
    /// assert!((end_law(&e, EncounterLimits::default())?.ends.total() - 1.0).abs() < 1e-12);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_policy<Q: Policy<Fight, Turn>>(self, policy: Q) -> FightEncounter<Q> {
        FightEncounter {
            fight: self.fight,
            names: self.names,
            sides: self.sides,
            policy,
            chosen: RwLock::default(),
            order_blind: false,
            turns: Mutex::default(),
            twins: Vec::new(),
            budget: self.budget,
        }
    }

    /// The same encounter with twins merged: combatants identical but for their condition
    /// (the same character, side, minion or not, in water or not), such as a boss's two
    /// thugs, can trade places without changing anything the rules look at, so the exact
    /// law counts a situation and its mirror image (the twins' conditions and places in the
    /// order swapped) once. The policy is then asked with the twins in a standard order
    /// (sorted by condition, then by place in the initiative order) and its answer renamed
    /// back, so that it treats twins alike; a policy that does not care which twin is which
    /// plays the same. [`FightEncounter::new`] (the [`Tactics`]) merges them; after
    /// [`FightEncounter::with_policy`], call this to merge them for another policy.
    ///
    /// ```
    /// use dice_core::{EncounterLimits, end_law};
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules, Tactics};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 fighting, 4 toughness")?, 0))?;
    /// for _ in 0..2 {
    ///     fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1).minion())?;
    /// }
    /// let merged = FightEncounter::new(fight.clone())?;
    /// assert_eq!(merged.twins(), [vec![1, 2]]);
    /// let apart = FightEncounter::new(fight)?.with_policy(Tactics);
    /// assert!(apart.twins().is_empty());
    /// let (a, b) = (end_law(&merged, EncounterLimits::default())?, end_law(&apart, EncounterLimits::default())?);
    /// assert!(a.states < b.states);
    /// assert!((a.ends.total() - 1.0).abs() < 1e-12);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_twins_merged(mut self) -> Self {
        self.twins = twin_classes(&self.fight);
        // What was remembered was for the states apart.
        self.chosen = RwLock::default();
        self.turns = Mutex::default();
        self
    }

    /// The classes of twins merged (each of two or more ids, increasing); empty when twins
    /// are not merged.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// assert!(FightEncounter::new(fight)?.twins().is_empty()); // different sides
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn twins(&self) -> &[Vec<CombatantId>] {
        &self.twins
    }

    /// The same encounter with another budget for [`FightEncounter::estimated_states`]: the
    /// exact law is refused at its start, before any work, when the estimate is above
    /// `states` (by default [`DEFAULT_ESTIMATE_BUDGET`]). A larger budget lets the engine
    /// try, and its own limits ([`EncounterLimits`]) still stop it as the states are listed.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// let e = FightEncounter::new(fight)?.with_estimate_budget(2_000_000);
    /// assert_eq!(e.estimate_budget(), 2_000_000);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_estimate_budget(mut self, states: u64) -> Self {
        self.budget = states;
        self
    }

    /// The budget of [`FightEncounter::with_estimate_budget`].
    ///
    /// ```
    /// use dice_scratch_rps::encounter::DEFAULT_ESTIMATE_BUDGET;
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// assert_eq!(FightEncounter::new(fight)?.estimate_budget(), DEFAULT_ESTIMATE_BUDGET);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn estimate_budget(&self) -> u64 {
        self.budget
    }

    /// An estimate of the states the exact law will list, worked out from the scene alone:
    /// every combatant's hit points from 0 to full (twins as a multiset: their order does not
    /// count when they are merged), times the initiative orders (`n!`, over `k!` for each
    /// class of `k` merged twins), plus the start. It is **not a bound**: the evades, delays
    /// and shifts of defense a state also holds multiply it, while the fights end as soon as
    /// a side is down and those out of the fight for good stop counting, so that the shipped
    /// fights reach between a third and a half of it (the combat example 289 of 841, the Boss
    /// 12,754 of 28,801). [`Encounter::round_law`] refuses the start, before any work, when it
    /// is above [`FightEncounter::estimate_budget`], or when there are more than
    /// [`MAX_EXACT_COMBATANTS`]. The true bound ([`FightEncounter::rules_bound`]) is far too
    /// loose for that.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("3 toughness")?, 1))?;
    /// // 3 × 4 hit points, 2 orders, and the start.
    /// assert_eq!(FightEncounter::new(fight)?.estimated_states(), 1 + 3 * 4 * 2);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn estimated_states(&self) -> u64 {
        let cs = self.fight.combatants();
        let values = |id: CombatantId| u128::from(cs[id].character().max_hit_points()) + 1;
        let mut product = orders(cs.len(), &self.twins);
        for id in 0..cs.len() {
            if !self.twins.iter().any(|k| k.contains(&id)) {
                product = product.and_then(|p| p.checked_mul(values(id)));
            }
        }
        for class in &self.twins {
            // Multisets of k values out of h: C(h + k − 1, k).
            let (k, h) = (class.len() as u128, values(class[0]));
            product = product.and_then(|p| p.checked_mul(binomial(h + k - 1, k)?));
        }
        saturate(product)
    }

    /// A true upper bound on the states the exact law can reach, from the rules alone: each
    /// combatant's conditions (hit points 0 to full, times what may last until his next turn:
    /// delayed or not (L45, L75–L79), and what his own last turn left: nothing, an evade with
    /// no movement ability or with each he may use, caught or hit since or not (L49–L53), an
    /// engage (L55), cover where there is some (L57), out of close range for a flier (L93);
    /// and two more, escaped and set aside), multiplied, times the `n!` initiative orders, over
    /// `k!` for each class of `k` merged twins (their standard order is one of the `k!`
    /// renamings, none of which leaves a started state unchanged), plus the start. It is far
    /// above what the tactics reach beyond a duel (the Boss and his thugs: about 7.8 billion
    /// against 12,754), so [`Encounter::state_bound`] gives it only when it is within the
    /// engine's default limit, and the exact law is kept in check by
    /// [`FightEncounter::estimated_states`].
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// // Each: 3 hit points × 2 (delayed) × (nothing, evade, evade caught or hit, engage) + 2.
    /// assert_eq!(FightEncounter::new(fight)?.rules_bound(), 1 + 2 * 26 * 26);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn rules_bound(&self) -> u64 {
        let env = self.fight.environment();
        let cs = self.fight.combatants();
        let mut product = orders(cs.len(), &self.twins);
        for c in cs {
            let ch = c.character();
            let movements = ch
                .movement_abilities()
                .filter(|&(m, _)| match m {
                    Movement::Flying => env.room_to_fly,
                    Movement::Swimming => env.water.is_present(),
                    _ => true,
                })
                .count() as u64;
            let own = 1 + 2 * (1 + movements as u128) + 1 + u128::from(env.cover);
            let airborne = if env.room_to_fly && ch.has(Ability::Flying) {
                2
            } else {
                1
            };
            let conditions = (u128::from(ch.max_hit_points()) + 1) * 2 * own * airborne + 2;
            product = product.and_then(|p| p.checked_mul(conditions));
        }
        saturate(product)
    }

    /// The renaming of twins that puts `state` in its standard form (each class sorted by
    /// condition, then by place in the initiative order): `to[id]` is `id`'s new name.
    /// `None` when no one is renamed.
    fn standard_names(&self, state: &FightState) -> Option<Vec<CombatantId>> {
        if self.twins.is_empty() {
            return None;
        }
        let place = |id: CombatantId| {
            state
                .order
                .iter()
                .position(|&x| x == id)
                .unwrap_or(usize::MAX)
        };
        let mut to: Vec<CombatantId> = (0..state.conditions.len()).collect();
        let mut moved = false;
        for class in &self.twins {
            let mut members = class.clone();
            members.sort_by_key(|&id| (state.conditions.get(id).copied(), place(id)));
            for (&name, &id) in class.iter().zip(&members) {
                if let Some(slot) = to.get_mut(id) {
                    *slot = name;
                    moved |= id != name;
                }
            }
        }
        moved.then_some(to)
    }

    /// `state` in its standard form (itself when twins are not merged).
    fn standard(&self, state: &FightState) -> FightState {
        match self.standard_names(state) {
            Some(to) => relabel(state, &to),
            None => state.clone(),
        }
    }

    /// Whether each combatant is out of the fight for good in `state`: escaped (L53),
    /// without toughness (L71), or at 0 hit points with no way back: a minion (L107), or no
    /// one standing who has healing to revive him (L99). His turns never come again.
    fn out_for_good<'s>(&'s self, state: &'s FightState) -> impl Fn(CombatantId) -> bool + 's {
        let cs = self.fight.combatants();
        let healer = cs.iter().zip(state.conditions.iter()).any(|(c, k)| {
            !k.has_escaped()
                && k.hit_points() > 0
                && c.character().toughness() > 0
                && c.character().has(Ability::Healing)
        });
        move |id| {
            let k = &state.conditions[id];
            k.has_escaped()
                || cs[id].character().toughness() == 0
                || (k.hit_points() == 0 && (cs[id].is_minion() || !healer))
        }
    }

    /// `state` with those out for good set aside: what lasts only until their next turn
    /// forgotten (it never comes), and their places in the initiative order moved to its
    /// end, by id (they only ever pass, so where they pass changes nothing). With `position`
    /// the place of the turn to come, also where that turn is in the new order. `None` when
    /// nothing changes.
    fn settle(&self, state: &FightState, position: usize) -> Option<(FightState, usize)> {
        let out = self.out_for_good(state);
        let n = state.conditions.len();
        let living = state.order.iter().filter(|&&id| !out(id)).count();
        let in_place = state.order.iter().enumerate().all(|(i, &id)| {
            // The living first, then those out by id.
            i < living && !out(id)
                || i >= living && out(id) && (i == living || state.order[i - 1] < id)
        });
        let fresh =
            (0..n).all(|id| !out(id) || state.conditions[id] == state.conditions[id].settled());
        if in_place && fresh {
            return None;
        }
        let conditions = (0..n)
            .map(|id| {
                let k = state.conditions[id];
                if out(id) { k.settled() } else { k }
            })
            .collect();
        let current = state.order.get(position).copied();
        let mut order: Vec<CombatantId> =
            state.order.iter().copied().filter(|&id| !out(id)).collect();
        let position = current
            .and_then(|c| order.iter().position(|&id| id == c))
            .unwrap_or(position);
        if !state.order.is_empty() {
            order.extend((0..n).filter(|&id| out(id)));
        }
        Some((
            FightState {
                order: order.into(),
                conditions,
            },
            position,
        ))
    }

    /// The one state that stands, between rounds, for every state equivalent to `state`:
    /// those out of the fight for good (escaped, L53; without toughness, L71; or at 0 hit
    /// points with no way back, a minion, L107, or no one standing who can heal, L99) set
    /// aside, what lasts only until their next turn forgotten and their places moved to the
    /// end of the initiative order (they only ever pass, so nothing changes), then twins in
    /// their standard order ([`FightEncounter::with_twins_merged`]). The states of
    /// [`Encounter::round_law`] are in this form, and the policy is asked about fights in
    /// it, so that equivalent situations are one state of the exact law.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, FightState, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 fighting, 3 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("3 toughness")?, 1).with_hit_points(0)?)?;
    /// fight.add(Combatant::new(Character::from_stat_block("1 shooting, 3 toughness")?, 1))?;
    /// let e = FightEncounter::new(fight.clone())?;
    /// fight.start(&[5, 20, 1], &[])?; // #1 is down with no healer: out for good
    /// let s = FightState::of(&fight);
    /// assert_eq!(s.order(), [1, 0, 2]);
    /// assert_eq!(e.normal_form(&s).order(), [0, 2, 1]);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn normal_form(&self, state: &FightState) -> FightState {
        match self.settle(state, 0) {
            Some((settled, _)) => self.standard(&settled),
            None => self.standard(state),
        }
    }

    /// The fight as it starts (not started: initiative is rolled in the first round).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// assert_eq!(FightEncounter::new(fight)?.fight().combatants().len(), 2);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn fight(&self) -> &Fight {
        &self.fight
    }

    /// The combatants' names, by id.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// assert_eq!(FightEncounter::new(fight)?.names(), ["#0", "#1"]);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The fight of `state` with the turn at `position` of its initiative order to come.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// let e = FightEncounter::new(fight)?;
    /// assert!(!e.fight_at(&e.start(), 0).is_started());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn fight_at(&self, state: &FightState, position: usize) -> Fight {
        self.fight.resume(&state.order, &state.conditions, position)
    }

    /// The turn the policy takes in `fight` (started, the current combatant able to act),
    /// remembered for the fight's state. With twins merged the policy is asked about the
    /// fight in its standard form and the answer renamed back
    /// ([`FightEncounter::with_twins_merged`]).
    ///
    /// ```
    /// use dice_scratch_rps::{Action, Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 shooting, 2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// let e = FightEncounter::new(fight.clone())?;
    /// fight.start(&[20, 1], &[])?;
    /// assert_eq!(e.decide(&fight).action, Action::Shoot { target: 1 });
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn decide(&self, fight: &Fight) -> Turn {
        let state = FightState::of(fight);
        let (state, position, settled) = match self.settle(&state, fight.position()) {
            Some((settled, position)) => (settled, position, true),
            None => (state, fight.position(), false),
        };
        match self.standard_names(&state) {
            None if settled => self.decide_as(&self.fight_at(&state, position), state, position),
            None => self.decide_as(fight, state, position),
            Some(to) => {
                // Asked in the standard form, answered in this fight's names.
                let standard = relabel(&state, &to);
                let turn = self.decide_as(&self.fight_at(&standard, position), standard, position);
                let mut back = vec![0; to.len()];
                for (id, &name) in to.iter().enumerate() {
                    if let Some(b) = back.get_mut(name) {
                        *b = id;
                    }
                }
                relabel_turn(&turn, &back)
            }
        }
    }

    /// The policy's turn in `fight`, whose state is `state`, remembered: for the situation
    /// (the state and the place in the order whose turn it is), or, for [`Tactics`], which
    /// do not look at the initiative order, for the combatants' conditions and whose turn it
    /// is (the same conditions come back in many orders).
    fn decide_as(&self, fight: &Fight, state: FightState, position: usize) -> Turn {
        let who = fight.current().unwrap_or(0);
        let key = if self.order_blind {
            let conditions_only = FightState {
                order: Slots::Heap(Vec::new()),
                conditions: state.conditions,
            };
            (conditions_only, who)
        } else {
            (state, position)
        };
        if let Ok(map) = self.chosen.read() {
            if let Some(t) = map.get(&key) {
                return t.clone();
            }
        }
        let open = fight.open_turns();
        let turn = if open.is_empty() {
            Turn::new(Action::Nothing)
        } else {
            self.policy.choose(fight, who, &open)
        };
        if let Ok(mut map) = self.chosen.write() {
            map.insert(key, turn.clone());
        }
        turn
    }

    /// The exact law of the state after the turn at `position` of `state`'s initiative order:
    /// the turn passed when its combatant cannot act, or the policy's turn carried out by
    /// [`Fight::take_turn`] with one face of each outcome of each die. Unchanged once the
    /// fight is over.
    ///
    /// # Errors
    /// [`Error::Scene`] when the policy chooses a turn the rules refuse.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, FightState, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 shooting, 2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// let e = FightEncounter::new(fight.clone())?;
    /// fight.start(&[20, 1], &[])?;
    /// let law = e.turn_law(&FightState::of(&fight), 0)?;
    /// // Faces 9..=19 hit for 2, a natural 20 does 5 (ruling SC-A1): 2 hp or 0 hp left.
    /// assert_eq!(law.len(), 2);
    /// assert!((law.iter().map(|(s, p)| p * f64::from(s.conditions()[1].hit_points())).sum::<f64>() - 2.0 * 8.0 / 20.0).abs() < 1e-12);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn turn_law(&self, state: &FightState, position: usize) -> Result<Dist<FightState>, Error> {
        let mut fight = self.fight_at(state, position);
        if fight.is_over() {
            return Ok(Dist::certain(state.clone()));
        }
        let Some(who) = fight.current() else {
            return Ok(Dist::certain(state.clone()));
        };
        if fight.combatants()[who].status() != TurnStatus::Ready {
            fight.pass()?;
            return Ok(Dist::certain(FightState::of(&fight)));
        }
        let turn = self.decide(&fight);
        let mut out = Vec::new();
        outcomes(
            &fight,
            &turn,
            &mut Vec::new(),
            1.0,
            &mut Scratch::default(),
            &mut out,
        )
        .map_err(|e| Error::Scene(format!("the tactics chose `{turn}`, refused: {e}")))?;
        Ok(Dist::from_pairs(out)?)
    }

    /// Where the law of the turn at `position` from state number `id` is in `memo.laws`,
    /// worked out now if it was not: [`FightEncounter::turn_law`], its outcomes with twins in
    /// their standard order, or in the normal form after the round's last turn (`n` turns).
    fn turn_in(
        &self,
        memo: &mut TurnMemo,
        id: u32,
        position: usize,
        n: usize,
    ) -> Result<(usize, usize), dice_core::Error> {
        let slot = id as usize * n + position;
        if let Some(&(from, to)) = memo.slots.get(slot) {
            if from != u32::MAX {
                return Ok((from as usize, to as usize));
            }
        }
        let state = memo.states[id as usize].clone();
        let law = self.turn_law(&state, position).map_err(core_error)?;
        let last = position + 1 == n;
        let mut outcomes = Vec::with_capacity(law.len());
        for (s, p) in law.iter() {
            let s = if last {
                self.normal_form(s)
            } else if self.twins.is_empty() {
                s.clone()
            } else {
                self.standard(s)
            };
            outcomes.push((memo.id(s, n)?, p));
        }
        merge_ids(&mut outcomes);
        let from = memo.laws.len();
        memo.laws.extend_from_slice(&outcomes);
        let to = memo.laws.len();
        let range = (
            u32::try_from(from).map_err(|_| too_many_turns(from))?,
            u32::try_from(to).map_err(|_| too_many_turns(to))?,
        );
        memo.slots[slot] = range;
        Ok((from, to))
    }

    /// The exact law of the initiative order (L23, SC-A8): every combatant's total
    /// ([`Initiative`]) is independent, and tied characters roll off with fair dice, so each
    /// order of a tie is as likely as any other. For each order, the chance is a sum over
    /// non-increasing totals, with `1/k!` for each run of `k` equal totals.
    ///
    /// # Errors
    /// [`Error::Core`] (too complex) beyond [`MAX_EXACT_COMBATANTS`] combatants.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 1))?;
    /// let law = FightEncounter::new(fight)?.initiative_law()?;
    /// assert!((law.probability(&vec![0, 1]) - 0.5).abs() < 1e-15);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn initiative_law(&self) -> Result<Dist<Vec<CombatantId>>, Error> {
        let n = self.fight.combatants().len();
        if n > MAX_EXACT_COMBATANTS {
            return Err(Error::Core(dice_core::Error::TooComplex {
                what: "the initiative orders of a fight",
                work: n as u64,
                max: MAX_EXACT_COMBATANTS as u64,
            }));
        }
        let laws: Vec<Dist<u32>> = self
            .fight
            .combatants()
            .iter()
            .map(|c| Initiative::of(c.character()).distribution())
            .collect::<Result<_, _>>()?;
        // Every order of the combatants (dice-core's list of the orders of one tie of all).
        let orders = dice_core::fair_roll_off_orders(n, |_, _| core::cmp::Ordering::Equal)?;
        let pairs: Vec<(Vec<CombatantId>, f64)> = orders
            .outcomes()
            .iter()
            .map(|perm| (perm.clone(), order_chance(&laws, perm)))
            .collect();
        Ok(Dist::from_pairs(pairs)?)
    }

    /// One round played with `rng`, told onto `told` when it is given (no line is formatted
    /// otherwise); the same draws either way.
    fn play_round_with<R: Rng + ?Sized>(
        &self,
        state: &FightState,
        rng: &mut R,
        mut told: Option<&mut Vec<String>>,
    ) -> FightState {
        let mut fight = if state.is_started() {
            self.fight_at(state, 0)
        } else {
            let mut f = self.fight.clone();
            // Cannot fail: the fight has combatants and has not started.
            let _ = f.start_rolled(rng);
            if let Some(t) = told.as_deref_mut() {
                t.push(self.tell_initiative(&f));
            }
            f
        };
        for _ in 0..self.fight.combatants().len() {
            if fight.is_over() {
                break;
            }
            let ready = fight
                .current()
                .is_some_and(|a| fight.combatants()[a].status() == TurnStatus::Ready);
            let report = if ready {
                let turn = self.decide(&fight);
                match fight.take_turn_rolled(turn, rng) {
                    Ok(r) => Ok(r),
                    Err(_) => fight.pass(),
                }
            } else {
                fight.pass()
            };
            if let (Some(t), Ok(r)) = (told.as_deref_mut(), report) {
                t.push(self.tell_turn(&r));
            }
        }
        FightState::of(&fight)
    }

    /// `text` with every `#id` written as the combatant's name.
    fn named(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(i) = rest.find('#') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            match after[..digits]
                .parse::<usize>()
                .ok()
                .and_then(|id| self.names.get(id))
            {
                Some(name) => out.push_str(name),
                None => out.push_str(&rest[i..=i + digits]),
            }
            rest = &after[digits..];
        }
        out.push_str(rest);
        out
    }

    /// `initiative: A 31, B 20, C 2` in the order rolled (L23).
    fn tell_initiative(&self, fight: &Fight) -> String {
        let totals: Vec<String> = fight
            .order()
            .iter()
            .map(|&id| {
                let total = fight.initiative(id).unwrap_or(0);
                format!("{} {total}", self.names[id])
            })
            .collect();
        format!("initiative: {}", totals.join(", "))
    }

    /// One turn in words, with names.
    fn tell_turn(&self, r: &TurnReport) -> String {
        let who = &self.names[r.actor];
        let mut line = match &r.turn {
            _ if r.escaped => format!("{who} escapes"),
            None if r.status == TurnStatus::Ready => format!("{who} does nothing"),
            None => format!("{who}: {}, turn skipped", r.status),
            Some(t) => format!("{who}: {}", self.named(&t.to_string())),
        };
        for (i, roll) in r.rolls.iter().enumerate() {
            line.push_str(if i == 0 { " — " } else { "; then " });
            line.push_str(&self.named(&roll.to_string()));
        }
        if r.delayed_self {
            line.push_str(&format!(
                "; {who} is delayed until the end of his next turn"
            ));
        }
        line
    }

    fn end_of(&self, fight: &Fight) -> Option<FightEnd> {
        let standing = fight.standing_teams();
        if standing.len() >= 2 {
            return None;
        }
        let side = |t: u32| {
            self.sides
                .get(t as usize)
                .cloned()
                .unwrap_or_else(|| format!("team {t}"))
        };
        let mut escaped: Vec<u32> = fight
            .combatants()
            .iter()
            .filter(|c| c.has_escaped() && !standing.contains(&c.team()))
            .map(Combatant::team)
            .collect();
        escaped.sort_unstable();
        escaped.dedup();
        Some(FightEnd {
            standing: standing.first().map(|&t| side(t)),
            escaped: escaped.into_iter().map(side).collect(),
        })
    }

    /// One line for a person: each combatant's name, hit points and condition.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_scratch_rps::{Character, Combatant, Environment, Fight, FightEncounter, Rules};
    /// let mut fight = Fight::new(Environment::default(), Rules::default());
    /// fight.add(Combatant::new(Character::from_stat_block("2 toughness")?, 0))?;
    /// fight.add(Combatant::new(Character::from_stat_block("3 toughness")?, 1))?;
    /// let e = FightEncounter::new(fight)?;
    /// assert_eq!(e.describe(&e.start()), "#0 2/2 hp healthy; #1 3/3 hp healthy");
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn describe(&self, state: &FightState) -> String {
        let fight = self.fight_at(state, 0);
        let mut parts = Vec::new();
        for (i, c) in fight.combatants().iter().enumerate() {
            let name = &self.names[i];
            let k = &state.conditions[i];
            if k.has_escaped() {
                parts.push(format!("{name} escaped"));
                continue;
            }
            let mut s = format!(
                "{name} {}/{} hp {}",
                k.hit_points(),
                c.character().max_hit_points(),
                c.health()
            );
            if k.is_delayed() {
                s.push_str(", delayed");
            }
            if c.evasion().is_some() {
                s.push_str(", evading");
            }
            parts.push(s);
        }
        parts.join("; ")
    }
}

/// The situations met inside rounds, numbered, and the law of each turn from each of them
/// (to numbered situations), kept for the next rounds: a round from one state passes through
/// many situations that rounds from other states pass through too.
#[derive(Default)]
struct TurnMemo {
    /// The number of the first situation met with each hash (the situations are kept once,
    /// in `states`: a map from situation to number would keep them twice).
    ids: FxHashMap<u64, u32>,
    /// The number of each situation met whose hash another one has already.
    collided: FxHashMap<FightState, u32>,
    /// The situations by number.
    states: Vec<FightState>,
    /// For situation `id` and the turn at `position` of `n`, `slots[id * n + position]` is
    /// the range of `laws` holding that turn's law; `(u32::MAX, 0)` until worked out.
    slots: Vec<(u32, u32)>,
    /// The outcomes of the turns worked out: (situation number, chance).
    laws: Vec<(u32, f64)>,
}

impl TurnMemo {
    /// The number of `state`, given now if it is new (with room for its `n` turns).
    fn id(&mut self, state: FightState, n: usize) -> Result<u32, dice_core::Error> {
        let hash = FxBuildHasher.hash_one(&state);
        let first = self.ids.get(&hash).copied();
        if let Some(id) = first {
            if self.states.get(id as usize) == Some(&state) {
                return Ok(id);
            }
            if let Some(&id) = self.collided.get(&state) {
                return Ok(id);
            }
        }
        let id = u32::try_from(self.states.len()).map_err(|_| too_many_turns(self.states.len()))?;
        if first.is_some() {
            self.collided.insert(state.clone(), id);
        } else {
            self.ids.insert(hash, id);
        }
        self.states.push(state);
        self.slots.resize(self.states.len() * n, (u32::MAX, 0));
        Ok(id)
    }
}

/// The initiative orders of `n` combatants, `n!`, over `k!` for each class of `k` twins
/// merged; `None` beyond `u128`.
fn orders(n: usize, twins: &[Vec<CombatantId>]) -> Option<u128> {
    let factorial = |n: usize| (1..=n as u128).try_fold(1u128, |a, i| a.checked_mul(i));
    let mut orders = factorial(n)?;
    for class in twins {
        orders /= factorial(class.len())?;
    }
    Some(orders)
}

/// `n` choose `k`; `None` beyond `u128`.
fn binomial(n: u128, k: u128) -> Option<u128> {
    (0..k.min(n)).try_fold(1u128, |r, i| Some(r.checked_mul(n - i)? / (i + 1)))
}

/// One more (the start) than `count`, as a `u64`: `u64::MAX` when it does not fit.
fn saturate(count: Option<u128>) -> u64 {
    count
        .and_then(|c| u64::try_from(c.checked_add(1)?).ok())
        .unwrap_or(u64::MAX)
}

/// More situations or turn outcomes than a `u32` numbers.
fn too_many_turns(work: usize) -> dice_core::Error {
    dice_core::Error::TooComplex {
        what: "the situations met within the rounds of a fight",
        work: work as u64,
        max: u64::from(u32::MAX),
    }
}

/// Adds up the chances of the same situation number, in order of number.
fn merge_ids(v: &mut Vec<(u32, f64)>) {
    v.sort_by_key(|&(id, _)| id);
    let mut w = 0;
    for r in 0..v.len() {
        if w > 0 && v[w - 1].0 == v[r].0 {
            v[w - 1].1 += v[r].1;
        } else {
            v[w] = v[r];
            w += 1;
        }
    }
    v.truncate(w);
}

/// Room reused by [`outcomes`]: the combatants after a turn, its rolls, and dice to probe.
#[derive(Default)]
struct Scratch {
    state: Vec<Combatant>,
    rolls: Vec<RollReport>,
    probe: Vec<u32>,
}

/// Plays `turn` in `fight` (the current combatant's, who can act) with every outcome of each
/// die, one face per outcome, pushing `(state, chance)` to `out`. Each play is
/// [`Fight::take_turn`]'s own steps on a scratch copy of the combatants.
fn outcomes(
    fight: &Fight,
    turn: &Turn,
    dice: &mut Vec<u32>,
    weight: f64,
    scratch: &mut Scratch,
    out: &mut Vec<(FightState, f64)>,
) -> Result<(), Error> {
    let actor = fight
        .current()
        .ok_or(Error::FightPhase("roll initiative first"))?;
    let k = turn.action.dice_needed();
    let i = dice.len();
    if i == k {
        fight.carry_out(actor, turn, dice, &mut scratch.state, &mut scratch.rolls)?;
        let state = FightState {
            order: Slots::from_slice(fight.order()),
            conditions: scratch.state.iter().map(Combatant::condition).collect(),
        };
        out.push((state, weight));
        return Ok(());
    }
    // The roll this die is for, as the turn reports it after the dice so far.
    scratch.probe.clear();
    scratch.probe.extend_from_slice(dice);
    scratch.probe.resize(k, 1);
    fight.carry_out(
        actor,
        turn,
        &scratch.probe,
        &mut scratch.state,
        &mut scratch.rolls,
    )?;
    let roll = scratch.rolls.get(i).ok_or(Error::Dice {
        needed: k,
        given: scratch.rolls.len(),
    })?;
    let (modifier, difficulty) = (roll.total - i64::from(roll.natural), roll.difficulty);
    let mut classes: Vec<(Outcome, u32, u32)> = Vec::with_capacity(3);
    for face in 1..=20 {
        let o = resolve(face, modifier, difficulty)?;
        match classes.iter_mut().find(|c| c.0 == o) {
            Some(c) => c.2 += 1,
            None => classes.push((o, face, 1)),
        }
    }
    for (_, face, count) in classes {
        dice.push(face);
        outcomes(
            fight,
            turn,
            dice,
            weight * f64::from(count) / 20.0,
            scratch,
            out,
        )?;
        dice.pop();
    }
    Ok(())
}

/// P(the initiative order is `perm`): a sum over non-increasing totals along `perm`, `1/k!`
/// for each run of `k` equal totals (the fair roll-offs).
fn order_chance(laws: &[Dist<u32>], perm: &[usize]) -> f64 {
    // (last total, length of the run of equal totals) → chance so far.
    let mut dp: BTreeMap<(u32, u32), f64> = BTreeMap::new();
    for (&t, p) in laws[perm[0]].iter() {
        *dp.entry((t, 1)).or_insert(0.0) += p;
    }
    for &c in &perm[1..] {
        let mut next = BTreeMap::new();
        for (&(v, run), &m) in &dp {
            for (&w, p) in laws[c].iter() {
                if w < v {
                    *next.entry((w, 1)).or_insert(0.0) += m * p;
                } else if w == v {
                    *next.entry((w, run + 1)).or_insert(0.0) += m * p / f64::from(run + 1);
                }
            }
        }
        dp = next;
    }
    dp.values().sum()
}

impl<P: Policy<Fight, Turn>> Encounter for FightEncounter<P> {
    type State = FightState;
    type End = FightEnd;

    fn start(&self) -> FightState {
        FightState::of(&self.fight)
    }

    fn end(&self, state: &FightState) -> Option<FightEnd> {
        self.end_of(&self.fight_at(state, 0))
    }

    /// Initiative (in the first round), then each combatant's turn in order, each turn's law
    /// from [`FightEncounter::turn_law`]. The start of a fight whose
    /// [`FightEncounter::estimated_states`] is above its budget
    /// ([`FightEncounter::with_estimate_budget`]) is refused before any work
    /// ([`dice_core::Error::TooComplex`]). Many rounds pass through the same situations, so
    /// each turn's law from each situation met is worked out once and kept, its outcomes
    /// already in the form the next turn is asked about (twins in their standard order, and
    /// after the last turn of the round the normal form).
    fn round_law(&self, state: &FightState) -> Result<Dist<FightState>, dice_core::Error> {
        let n = self.fight.combatants().len();
        let mut memo = match self.turns.lock() {
            Ok(m) => m,
            Err(poisoned) => {
                // A turn law failed half-way through in another thread: start afresh.
                self.turns.clear_poison();
                let mut m = poisoned.into_inner();
                *m = TurnMemo::default();
                m
            }
        };
        if !state.is_started() {
            let estimate = self.estimated_states();
            if estimate > self.budget {
                return Err(dice_core::Error::TooComplex {
                    what: "the states of this fight (an estimate from its hit points and \
                           initiative orders)",
                    work: estimate,
                    max: self.budget,
                });
            }
        }
        let mut layer: Vec<(u32, f64)> = Vec::new();
        if state.is_started() {
            layer.push((memo.id(state.clone(), n)?, 1.0));
        } else {
            for (order, p) in self.initiative_law().map_err(core_error)?.iter() {
                let start = FightState {
                    order: Slots::from_slice(order),
                    conditions: state.conditions.clone(),
                };
                layer.push((memo.id(start, n)?, p));
            }
        }
        let mut next: Vec<(u32, f64)> = Vec::new();
        for position in 0..n {
            next.clear();
            for &(id, p) in &layer {
                let (from, to) = self.turn_in(&mut memo, id, position, n)?;
                next.extend(memo.laws[from..to].iter().map(|&(t, q)| (t, p * q)));
            }
            merge_ids(&mut next);
            core::mem::swap(&mut layer, &mut next);
        }
        // In the order of the states, so that the law is built without moving them about.
        layer.sort_by(|a, b| memo.states[a.0 as usize].cmp(&memo.states[b.0 as usize]));
        let pairs = layer
            .iter()
            .map(|&(id, p)| (memo.states[id as usize].clone(), p));
        Dist::from_pairs_and_tail(pairs, 0.0)
    }

    /// The same round rolled: [`Fight::start_rolled`] in the first round, then
    /// [`Fight::take_turn_rolled`] with the policy's turns (or [`Fight::pass`]).
    fn play_round<R: Rng + ?Sized>(&self, state: &FightState, rng: &mut R) -> FightState {
        self.play_round_with(state, rng, None)
    }

    /// The same round, told: the initiative totals when they are rolled, then a line for
    /// each turn with the combatants' names (the turn, each d20 with its total, difficulty,
    /// outcome and damage, the target's hit points and health after it, a delay or an
    /// escape), or why it was skipped. The dice are drawn as [`Encounter::play_round`] draws
    /// them.
    fn play_round_told<R: Rng + ?Sized>(
        &self,
        state: &FightState,
        rng: &mut R,
        told: &mut Vec<String>,
    ) -> FightState {
        self.play_round_with(state, rng, Some(told))
    }

    /// The rules' bound ([`FightEncounter::rules_bound`]) when it is within the engine's
    /// default limit ([`EncounterLimits::max_states`]); `None` above it, where it would
    /// refuse fights the exact law finishes in a second (the start is then checked against
    /// [`FightEncounter::estimated_states`] instead).
    fn state_bound(&self) -> Option<u64> {
        let bound = self.rules_bound();
        (bound <= EncounterLimits::default().max_states as u64).then_some(bound)
    }

    /// The combatants' names ([`FightEncounter::names`]).
    fn health_names(&self) -> Vec<String> {
        self.names.clone()
    }

    /// Each combatant's hit points (L33); 0 for one who has escaped (the state keeps no hit
    /// points for him).
    fn health(&self, state: &FightState) -> Vec<i64> {
        state
            .conditions
            .iter()
            .map(|c| i64::from(c.hit_points()))
            .collect()
    }
}

fn core_error(e: Error) -> dice_core::Error {
    match e {
        Error::Core(c) => c,
        _ => dice_core::Error::Unsupported {
            what: "a turn the rules refuse (chosen by the policy)",
        },
    }
}

/// One combatant of a [`Scene`]: a name, a side, and the rulebook's stat block.
///
/// ```
/// use dice_scratch_rps::SceneCombatant;
/// let c = SceneCombatant::new("Chokestar", "bounty hunters", "2 piloting, 2 wrestling, 3 stalking, 3 toughness, 1 tgh/2, 13 defense");
/// assert_eq!(c.hit_points, None); // full: toughness (L127)
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SceneCombatant {
    /// The character's name.
    pub name: String,
    /// The side he fights on; combatants with the same side are allies.
    pub side: String,
    /// The stat block as the rulebook writes it: `4 shooting, 4 fighting, 6 toughness, 3
    /// tgh/2, 13 defense` (the tgh/2 and defense, if given, are checked).
    pub stats: String,
    /// Hit points at the start; full (his toughness) when left out (L127).
    #[cfg_attr(feature = "serde", serde(default))]
    pub hit_points: Option<u32>,
    /// A minion (L103–L107): cannot be healed in combat.
    #[cfg_attr(feature = "serde", serde(default))]
    pub minion: bool,
    /// In water at the start (L95); the environment must have water.
    #[cfg_attr(feature = "serde", serde(default))]
    pub in_water: bool,
}

impl SceneCombatant {
    /// A combatant at full hit points, not a minion, not in water.
    ///
    /// ```
    /// use dice_scratch_rps::SceneCombatant;
    /// assert!(!SceneCombatant::new("Zim", "wizards", "8 shooting, 2 toughness").minion);
    /// ```
    pub fn new(name: &str, side: &str, stats: &str) -> SceneCombatant {
        SceneCombatant {
            name: name.to_owned(),
            side: side.to_owned(),
            stats: stats.to_owned(),
            hit_points: None,
            minion: false,
            in_water: false,
        }
    }
}

/// A fight scene: the combatants and the environment (cover, things to throw, room to fly,
/// water …), read from a file (TOML or JSON under the `serde` feature) and made into a
/// [`FightEncounter`] played with [`Tactics`] under the project's rulings.
///
/// ```
/// use dice_scratch_rps::{Environment, Scene, SceneCombatant};
/// let scene = Scene {
///     environment: Environment::default(),
///     combatants: vec![
///         SceneCombatant::new("Chokestar", "bounty hunters", "2 wrestling, 3 stalking, 3 toughness"),
///         SceneCombatant::new("Breakhelm X-19", "outlaw", "4 shooting, 4 fighting, 6 toughness"),
///     ],
/// };
/// let e = scene.encounter()?;
/// assert_eq!(e.names(), ["Chokestar", "Breakhelm X-19"]);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Scene {
    /// Where they fight; a bare room when left out (no cover, nothing to throw, no room to
    /// fly, no water).
    #[cfg_attr(feature = "serde", serde(default))]
    pub environment: Environment,
    /// The combatants (`[[combatant]]` in TOML), in the order of their ids.
    #[cfg_attr(feature = "serde", serde(rename = "combatant"))]
    pub combatants: Vec<SceneCombatant>,
}

impl Scene {
    /// The scene's fight, played with [`Tactics`] under [`Rules::default`] (the project's
    /// rulings).
    ///
    /// # Errors
    /// [`Error::SceneCombatant`] for a bad stat block, hit points above toughness, or water
    /// where there is none; [`Error::Scene`] for fewer than two sides or a blank name.
    ///
    /// ```
    /// use dice_scratch_rps::{Scene, SceneCombatant};
    /// let bad = Scene { combatants: vec![SceneCombatant::new("A", "x", "3 tuffness")], ..Scene::default() };
    /// assert!(bad.encounter().unwrap_err().to_string().contains("A"));
    /// ```
    pub fn encounter(&self) -> Result<FightEncounter, Error> {
        self.encounter_with(Rules::default())
    }

    /// The scene's fight, played with [`Tactics`] under `rules`.
    ///
    /// # Errors
    /// As [`Scene::encounter`].
    ///
    /// ```
    /// use dice_scratch_rps::{Rules, Scene, SceneCombatant, ShootingCrit};
    /// let scene = Scene { combatants: vec![
    ///     SceneCombatant::new("A", "x", "2 shooting, 2 toughness"),
    ///     SceneCombatant::new("B", "y", "2 toughness"),
    /// ], ..Scene::default() };
    /// let rules = Rules { shooting_crit: ShootingCrit::GeneralPlusOne, ..Rules::default() };
    /// assert_eq!(scene.encounter_with(rules)?.fight().rules(), &rules);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn encounter_with(&self, rules: Rules) -> Result<FightEncounter, Error> {
        let mut fight = Fight::new(self.environment, rules);
        let mut sides: Vec<String> = Vec::new();
        let mut names = Vec::new();
        for c in &self.combatants {
            if c.name.trim().is_empty() || c.side.trim().is_empty() {
                return Err(Error::Scene(
                    "every combatant needs a name and a side".into(),
                ));
            }
            let wrap = |e: Error| Error::SceneCombatant {
                name: c.name.clone(),
                problem: Box::new(e),
            };
            let team = match sides.iter().position(|s| *s == c.side) {
                Some(t) => t,
                None => {
                    sides.push(c.side.clone());
                    sides.len() - 1
                }
            };
            let character = Character::from_stat_block(&c.stats).map_err(wrap)?;
            let mut combatant = Combatant::new(character, team as u32).in_water(c.in_water);
            if let Some(hp) = c.hit_points {
                combatant = combatant.with_hit_points(hp).map_err(wrap)?;
            }
            if c.minion {
                combatant = combatant.minion();
            }
            fight.add(combatant).map_err(wrap)?;
            names.push(c.name.clone());
        }
        if sides.len() < 2 {
            return Err(Error::Scene(format!(
                "a fight needs combatants on two sides, the scene has {}",
                sides.len()
            )));
        }
        FightEncounter::new(fight)?.with_names(names, sides)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice_core::{EncounterLimits, end_law};

    #[test]
    fn slots_compare_hash_and_read_as_their_items() {
        use core::hash::BuildHasher;
        let lists: [Vec<u32>; 5] = [vec![], vec![3], vec![1, 2], vec![1, 2, 0], (0..9).collect()];
        for a in &lists {
            let sa: Slots<u32> = a.iter().copied().collect();
            assert_eq!(&*sa, a.as_slice());
            assert_eq!(&*Slots::from(a.clone()), a.as_slice());
            assert_eq!(&*Slots::from_slice(a), a.as_slice());
            assert_eq!(
                FxBuildHasher.hash_one(&sa),
                FxBuildHasher.hash_one(a.as_slice())
            );
            for b in &lists {
                let sb = Slots::from_slice(b);
                assert_eq!(sa.cmp(&sb), a.cmp(b));
                assert_eq!(sa == sb, a == b);
            }
        }
    }

    /// The combat example of the rulebook (L119–L151).
    fn combat_example() -> Scene {
        Scene {
            environment: Environment::default(),
            combatants: vec![
                SceneCombatant::new(
                    "Chokestar",
                    "bounty hunters",
                    "2 piloting, 2 wrestling, 3 stalking, 3 toughness",
                ),
                SceneCombatant::new(
                    "Flipfire",
                    "bounty hunters",
                    "2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness",
                ),
                SceneCombatant::new(
                    "Breakhelm X-19",
                    "outlaw",
                    "1 piloting, 4 shooting, 4 fighting, 6 toughness",
                ),
            ],
        }
    }

    #[test]
    fn tactics_kept_by_conditions_play_as_tactics_kept_by_situation() {
        // The default encounter keeps the tactics' choices by the combatants' conditions
        // and whose turn it is; asked for every situation (order and place in it) apart,
        // they choose the same, so the two laws are the same to the last bit.
        let e = combat_example().encounter().expect("valid scene");
        let apart = e.clone().with_policy(Tactics).with_twins_merged();
        assert!(e.order_blind && !apart.order_blind);
        let limits = EncounterLimits::default();
        let (a, b) = (
            end_law(&e, limits).expect("exact"),
            end_law(&apart, limits).expect("exact"),
        );
        assert_eq!(a.states, b.states);
        assert_eq!(a.ends.len(), b.ends.len());
        for ((x, p), (y, q)) in a.ends.iter().zip(b.ends.iter()) {
            assert_eq!((x, p.to_bits()), (y, q.to_bits()));
        }
        let by_situation = apart.chosen.read().map(|m| m.len()).unwrap_or(0);
        let by_conditions = e.chosen.read().map(|m| m.len()).unwrap_or(0);
        assert!(0 < by_conditions && by_conditions < by_situation);
    }

    #[test]
    fn a_round_law_is_the_same_asked_twice() {
        // The second time, every turn comes from what was kept.
        let e = combat_example().encounter().expect("valid scene");
        let first = e.round_law(&e.start()).expect("law");
        let again = e.round_law(&e.start()).expect("law");
        assert_eq!(first, again);
        assert!((first.total() - 1.0).abs() < 1e-12);
    }
}
