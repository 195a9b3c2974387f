//! Whole fights: a scene of combatants played round by round under the combat chapter —
//! Initiative and the Turn Order (L3–4), one attack a turn (L16–18), opposed defence rolls
//! (L19–22) or the optional passive defence (L23–26), counter-attacks (L27–28),
//! outnumbering (L65–68), damage (L69–73) and hit locations (L76–85) — with the exact law of
//! who wins ([`dice_core::end_law`]).
//!
//! The chapter has no Health pool of its own: "the damage is reduced by the victim's
//! Fortitude Attribute … before being deducted from their Health" (L73) is all it says. The
//! scene therefore gives each combatant's Health (a required input), and a combatant whose
//! Health falls to 0 or below is out of the fight (the project's ruling; what happens at 0 is
//! silent, PC-A10).
//!
//! The state of a fight in progress ([`FightState`]) is each combatant's Health (0 for
//! those out of the fight) and the Turn Order once Initiative is rolled. Hit locations have
//! no lasting effect in the chapter: they decide which armour a hit meets (L77: "particularly
//! if they are wearing armour that does not cover their entire body"), so they are rolled
//! with each hit and never stored.
//!
//! ```
//! use dice_core::{EncounterLimits, end_law};
//! use dice_shapers_percentile::{Fight, Rules, Scene};
//!
//! let fight = Fight::new(&Scene::duel(), &Rules::default())?;
//! let law = end_law(&fight, EncounterLimits::default())?;
//! assert!((law.ends.total() - 1.0).abs() < 1e-9);
//! for (end, p) in law.ends.iter() {
//!     println!("{}: {p:.4}", fight.end_name(end));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use std::sync::Mutex;

use dice_core::{Dist, Encounter, Exact, Policy, Rng, Roll};

use crate::attack::{Attack, AttackOutcome, Defence};
use crate::d100::Test;
use crate::damage::{AttackKind, Damage};
use crate::error::{Error, check_score};
use crate::initiative::{Initiative, TurnOrder};
use crate::location::{Aim, HitLocation, Location};
use crate::modifiers::{MeleeSituation, Outnumbering, Sizes};
use crate::movement::{DefenceAptitude, defence_allowed};
use crate::rules::Rules;

/// The most combatants a scene holds (the Turn Order is kept as bytes).
///
/// ```
/// assert_eq!(dice_shapers_percentile::MAX_FIGHTERS, 100);
/// ```
pub const MAX_FIGHTERS: usize = 100;

/// The weapon a combatant attacks with, and the Aptitude behind it (L18: "Use the
/// character's Physical Agility Attribute + appropriate Aptitude to attack").
///
/// ```
/// use dice_shapers_percentile::{AttackKind, Weapon};
/// let axe = Weapon::new("axe", AttackKind::Melee, 8, 7);
/// assert_eq!(axe.to_string(), "axe (melee, Aptitude 8, damage 7)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Weapon {
    /// What it is called ("axe", "bow", "fists").
    pub name: String,
    /// Melee (adds Physical Strength, may be parried with, counter-attacks), Ranged
    /// (Throwing) (adds Physical Strength) or another Ranged Aptitude (adds Physical
    /// Agility) (L70).
    pub kind: AttackKind,
    /// The Aptitude the attack uses: Melee (Armed), Melee (Unarmed), Ranged (Bows) …
    pub aptitude: i32,
    /// The weapon's damage (from Weapons and Armour, outside this chapter).
    pub damage: i32,
    /// The Combat Modifiers that hold for every attack with it in this scene (L34–64): the
    /// range band, cover, the target's Size for a shot, weather, … Outnumbering (L41), the
    /// Size difference in melee (L42, L44) and a called shot (L46, L61) are added by the
    /// fight itself.
    #[cfg_attr(feature = "serde", serde(default))]
    pub modifier: i32,
    /// A melee weapon used with Melee (Unarmed) (fists, claws) rather than Melee (Armed):
    /// it only changes which Aptitude a parry is named after.
    #[cfg_attr(feature = "serde", serde(default))]
    pub unarmed: bool,
}

impl Weapon {
    /// A weapon with no standing modifier, used Armed.
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Weapon};
    /// assert_eq!(Weapon::new("bow", AttackKind::Ranged, 12, 6).modifier, 0);
    /// ```
    pub fn new(name: &str, kind: AttackKind, aptitude: i32, damage: i32) -> Self {
        Weapon {
            name: name.to_string(),
            kind,
            aptitude,
            damage,
            modifier: 0,
            unarmed: false,
        }
    }

    /// The Aptitude a parry with this weapon is named after: Melee (Unarmed) or Melee
    /// (Armed); `None` for a ranged weapon, which cannot parry.
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, DefenceAptitude, Weapon};
    /// assert_eq!(Weapon::new("axe", AttackKind::Melee, 8, 7).parry(), Some(DefenceAptitude::MeleeArmed));
    /// assert_eq!(Weapon::new("bow", AttackKind::Ranged, 12, 6).parry(), None);
    /// ```
    pub fn parry(&self) -> Option<DefenceAptitude> {
        match (self.kind, self.unarmed) {
            (AttackKind::Melee, true) => Some(DefenceAptitude::MeleeUnarmed),
            (AttackKind::Melee, false) => Some(DefenceAptitude::MeleeArmed),
            _ => None,
        }
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, Aptitude {}, damage {}",
            self.name, self.kind, self.aptitude, self.damage
        )?;
        if self.modifier != 0 {
            write!(f, ", {:+} to the TN", self.modifier)?;
        }
        f.write_str(")")
    }
}

/// Armour by hit location (L73, L77): `all` covers every location a location of its own does
/// not name. Armour values come from the Consumer Guide, outside this chapter.
///
/// ```
/// use dice_shapers_percentile::{Armour, Location};
/// let jerkin = Armour { body: Some(2), ..Armour::default() };
/// assert_eq!(jerkin.at(Location::Body), 2);
/// assert_eq!(jerkin.at(Location::Head), 0);
/// let hide = Armour { all: 2, ..Armour::default() };
/// assert_eq!(hide.at(Location::LeftLeg), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Armour {
    /// Armour on every location not named below.
    pub all: i32,
    /// Head (01–10).
    pub head: Option<i32>,
    /// Left Arm (11–25).
    pub left_arm: Option<i32>,
    /// Right Arm (26–40).
    pub right_arm: Option<i32>,
    /// Body (41–70).
    pub body: Option<i32>,
    /// Left Leg (71–85).
    pub left_leg: Option<i32>,
    /// Right Leg (86–00).
    pub right_leg: Option<i32>,
}

impl Armour {
    /// The armour a hit on `location` meets.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Armour, Location};
    /// assert_eq!(Armour { all: 1, head: Some(3), ..Armour::default() }.at(Location::Head), 3);
    /// ```
    pub fn at(&self, location: Location) -> i32 {
        let own = match location {
            Location::Head => self.head,
            Location::LeftArm => self.left_arm,
            Location::RightArm => self.right_arm,
            Location::Body => self.body,
            Location::LeftLeg => self.left_leg,
            Location::RightLeg => self.right_leg,
        };
        own.unwrap_or(self.all)
    }
}

/// One combatant's stat block for a fight, in the chapter's terms.
///
/// ```
/// use dice_shapers_percentile::{AttackKind, Combatant, Weapon};
/// let ada = Combatant::new("Ada", "shapers", 30, Weapon::new("axe", AttackKind::Melee, 8, 7));
/// assert_eq!(ada.health, 30);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Combatant {
    /// The combatant's name.
    pub name: String,
    /// The side they fight on; the fight ends when only one side has anyone standing.
    pub side: String,
    /// Health (L73): the chapter has no Health pool of its own, so the scene gives it. At 0
    /// or below the combatant is out of the fight.
    pub health: i32,
    /// Physical Agility: attacks, defence rolls, Initiative, damage with non-thrown ranged
    /// weapons.
    pub physical_agility: i32,
    /// Mental Agility ("MA", L4): Initiative.
    pub mental_agility: i32,
    /// Physical Strength: damage with Melee and Ranged (Throwing) (L70).
    pub physical_strength: i32,
    /// Physical Fortitude: taken from the damage of every hit (L73), unless the scene plays
    /// Lethal Damage (L74–75).
    pub physical_fortitude: i32,
    /// The Dodge Aptitude (L21).
    #[cfg_attr(feature = "serde", serde(default))]
    pub dodge: i32,
    /// Size: only differences count (melee ±Difference in Size, L42, L44; Dodge only
    /// against an attacker 10 or more sizes larger, L22).
    #[cfg_attr(feature = "serde", serde(default))]
    pub size: i32,
    /// Whether they can see shots coming, and so Dodge them (L21).
    #[cfg_attr(feature = "serde", serde(default = "yes"))]
    pub sees_shots_coming: bool,
    /// Armour by hit location.
    #[cfg_attr(feature = "serde", serde(default))]
    pub armour: Armour,
    /// The weapon they attack with.
    pub weapon: Weapon,
}

#[cfg(feature = "serde")]
fn yes() -> bool {
    true
}

impl Combatant {
    /// A combatant with this Health and weapon; every attribute, Dodge, Size and armour 0;
    /// sees shots coming.
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Combatant, Weapon};
    /// let c = Combatant::new("the ogre", "ogre", 50, Weapon::new("fists", AttackKind::Melee, 15, 3));
    /// assert!(c.sees_shots_coming);
    /// ```
    pub fn new(name: &str, side: &str, health: i32, weapon: Weapon) -> Self {
        Combatant {
            name: name.to_string(),
            side: side.to_string(),
            health,
            physical_agility: 0,
            mental_agility: 0,
            physical_strength: 0,
            physical_fortitude: 0,
            dodge: 0,
            size: 0,
            sees_shots_coming: true,
            armour: Armour::default(),
            weapon,
        }
    }

    /// Whether the combatant fights in melee (a melee weapon) rather than shooting or
    /// throwing from a distance.
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Combatant, Weapon};
    /// let bram = Combatant::new("Bram", "shapers", 24, Weapon::new("bow", AttackKind::Ranged, 12, 6));
    /// assert!(!bram.fights_in_melee());
    /// ```
    pub fn fights_in_melee(&self) -> bool {
        self.weapon.kind.is_melee()
    }
}

/// A scene: the combatants, and whether the optional passive defence is played. The rulings
/// ([`Rules`], Lethal Damage among them) are given with it to [`Fight::new`].
///
/// ```
/// use dice_shapers_percentile::Scene;
/// let duel = Scene::duel();
/// assert_eq!(duel.combatants.len(), 3);
/// assert!(!duel.passive_defence);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Scene {
    /// The combatants, in the order they are named in reports.
    pub combatants: Vec<Combatant>,
    /// The optional passive defence (L23–26): no defence rolls; the defender's Attribute +
    /// Aptitude is deducted from the attacker's margin. Default: opposed rolls (L20).
    #[cfg_attr(feature = "serde", serde(default))]
    pub passive_defence: bool,
}

impl Scene {
    /// The shipped scene (`scenes/duel.toml`), built from the crate's example
    /// (`examples/percentile_combat.rs`): Ada (axe) and Bram (bow, shooting from 35 m at a
    /// listed range of 30 m, the ogre behind a wooden fence) against the ogre (fists). The
    /// example gives no Health, no bow damage and no stats for Bram beyond PA and MA; those
    /// are filled in here (see the docs).
    ///
    /// ```
    /// # use dice_shapers_percentile::Scene;
    /// assert_eq!(Scene::duel().combatants[2].name, "the ogre");
    /// ```
    pub fn duel() -> Scene {
        let mut ada = Combatant::new(
            "Ada",
            "the shapers",
            30,
            Weapon::new("axe", AttackKind::Melee, 8, 7),
        );
        ada.physical_agility = 12;
        ada.mental_agility = 9;
        ada.physical_strength = 13;
        ada.physical_fortitude = 9;
        ada.dodge = 5;
        ada.size = 10;
        ada.armour.all = 1;
        let mut bow = Weapon::new("bow", AttackKind::Ranged, 12, 6);
        // Long range −20, medium cover −20, Size 14 − 10 = +4.
        bow.modifier = -36;
        let mut bram = Combatant::new("Bram", "the shapers", 24, bow);
        bram.physical_agility = 10;
        bram.mental_agility = 11;
        bram.physical_strength = 9;
        bram.physical_fortitude = 8;
        bram.dodge = 6;
        bram.size = 10;
        bram.armour.body = Some(2);
        let mut fists = Weapon::new("fists", AttackKind::Melee, 15, 3);
        fists.unarmed = true;
        let mut ogre = Combatant::new("the ogre", "the ogre", 50, fists);
        ogre.physical_agility = 6;
        ogre.mental_agility = 4;
        ogre.physical_strength = 18;
        ogre.physical_fortitude = 11;
        ogre.size = 14;
        ogre.armour.all = 2;
        Scene {
            combatants: vec![ada, bram, ogre],
            passive_defence: false,
        }
    }
}

/// What a combatant does: on their turn, attack or hold; when attacked, how they defend.
///
/// ```
/// use dice_shapers_percentile::{Action, Aim, DefenceAptitude};
/// assert_eq!(Action::Attack { target: 2, aim: Aim::Rolled }.to_string(), "attack 2 (rolled location)");
/// assert_eq!(Action::Defend { with: DefenceAptitude::Dodge, tn: 61 }.to_string(), "defend with Dodge (TN 61)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Action {
    /// The turn's attack (L16–18) on `target` (an index into the scene's combatants), with
    /// the hit location rolled or a called shot at −20 (L46, L61).
    Attack {
        /// Whom.
        target: usize,
        /// Rolled location or a called shot.
        aim: Aim,
    },
    /// Do nothing this turn (free actions only: walk, draw, shout, L5–9).
    Hold,
    /// Defend against an attack with this Attribute + Aptitude (L19–22): Physical Agility +
    /// Dodge or + the Melee Aptitude of the weapon in hand; `tn` is the defence roll's TN
    /// (or, under passive defence, 50 + the amount deducted).
    Defend {
        /// The Aptitude.
        with: DefenceAptitude,
        /// The TN of the defence roll.
        tn: i32,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Attack { target, aim } => write!(f, "attack {target} ({aim})"),
            Action::Hold => f.write_str("hold"),
            Action::Defend { with, tn } => write!(f, "defend with {with} (TN {tn})"),
        }
    }
}

/// The default tactics, as the chapter advises:
///
/// - on their turn a combatant makes "a standard melee attack" (L43) or shot, rolling the
///   hit location (a called shot costs −20, L46, L61), at the enemy within reach with the
///   least Health left (the first in the scene on a tie): every foe taken out of the fight
///   brings the rest of the side closer to "outnumbering an opponent" (L65–68), the one
///   advantage the chapter spells out;
/// - when attacked, they "decide which Attribute + Aptitude is relevant for the defender"
///   (L20) by taking the defence with the highest TN among those allowed (Dodge or the
///   Melee Aptitude in melee; only Dodge against a shot seen coming, L21, or against an
///   attacker 10 or more sizes larger, L22); on a tie, Melee over Dodge.
///
/// ```
/// use dice_core::Policy;
/// use dice_shapers_percentile::{Action, Aim, DefenceAptitude, FightState, StandardTactics};
/// let s = FightState { health: vec![30, 24, 7], order: vec![0, 1, 2] };
/// let open = [Action::Hold, Action::Attack { target: 2, aim: Aim::Rolled }];
/// assert_eq!(StandardTactics.choose(&s, 0, &open), open[1]);
/// let defences = [
///     Action::Defend { with: DefenceAptitude::Dodge, tn: 56 },
///     Action::Defend { with: DefenceAptitude::MeleeUnarmed, tn: 71 },
/// ];
/// assert_eq!(StandardTactics.choose(&s, 2, &defences), defences[1]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StandardTactics;

impl Policy<FightState, Action> for StandardTactics {
    fn choose(&self, state: &FightState, _who: usize, open: &[Action]) -> Action {
        let attack = open
            .iter()
            .filter_map(|a| match *a {
                Action::Attack {
                    target,
                    aim: Aim::Rolled,
                } => Some((state.health.get(target).copied().unwrap_or(0), target, *a)),
                _ => None,
            })
            .min_by_key(|&(h, t, _)| (h, t));
        if let Some((_, _, a)) = attack {
            return a;
        }
        let defence = open
            .iter()
            .filter_map(|a| match *a {
                Action::Defend { with, tn } => Some((tn, with != DefenceAptitude::Dodge, *a)),
                _ => None,
            })
            .max_by_key(|&(tn, melee, _)| (tn, melee));
        if let Some((_, _, a)) = defence {
            return a;
        }
        open.first().copied().unwrap_or(Action::Hold)
    }
}

/// A fight in progress: every combatant's Health (0 once out of the fight) and the Turn
/// Order (combatant indices, first to act first; empty until Initiative is rolled in the
/// first round; those out of the fight are dropped from it at the end of each round).
///
/// ```
/// use dice_shapers_percentile::FightState;
/// let s = FightState { health: vec![30, 0, 12], order: vec![2, 0] };
/// assert!(s.is_down(1));
/// assert_eq!(s.to_string(), "Health 30 / down / 12; order 2, 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FightState {
    /// Health by combatant; 0 is out of the fight.
    pub health: Vec<i32>,
    /// The Turn Order, empty before Initiative.
    pub order: Vec<u8>,
}

impl FightState {
    /// Whether combatant `who` is out of the fight (or not in the scene).
    ///
    /// ```
    /// # use dice_shapers_percentile::FightState;
    /// assert!(!FightState { health: vec![1], order: vec![] }.is_down(0));
    /// ```
    pub fn is_down(&self, who: usize) -> bool {
        self.health.get(who).is_none_or(|&h| h <= 0)
    }

    /// `who` takes `damage` (0 or more); Health stops at 0.
    fn hurt(&mut self, who: usize, damage: i32) {
        if damage > 0 {
            if let Some(h) = self.health.get_mut(who) {
                *h = (*h - damage).max(0);
            }
        }
    }
}

impl fmt::Display for FightState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Health ")?;
        for (i, h) in self.health.iter().enumerate() {
            if i > 0 {
                f.write_str(" / ")?;
            }
            if *h <= 0 {
                f.write_str("down")?;
            } else {
                write!(f, "{h}")?;
            }
        }
        if self.order.is_empty() {
            f.write_str("; Initiative not rolled")
        } else {
            f.write_str("; order ")?;
            for (k, c) in self.order.iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{c}")?;
            }
            Ok(())
        }
    }
}

/// How a fight ends: the side (an index into [`Fight::sides`]) with the only combatants
/// still standing.
///
/// ```
/// use dice_shapers_percentile::Victory;
/// assert_eq!(Victory { side: 1 }.to_string(), "side 1 wins");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Victory {
    /// The winning side.
    pub side: usize,
}

impl fmt::Display for Victory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "side {} wins", self.side)
    }
}

/// Health during a round: inline for small scenes (no allocation per branch of the law).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Healths {
    Inline { len: u8, health: [i32; INLINE] },
    Heap(Vec<i32>),
}

/// The most combatants whose Health is kept inline during a round.
const INLINE: usize = 8;

impl Healths {
    fn new(health: &[i32]) -> Self {
        if health.len() <= INLINE {
            let mut h = [0; INLINE];
            h[..health.len()].copy_from_slice(health);
            Healths::Inline {
                len: health.len() as u8,
                health: h,
            }
        } else {
            Healths::Heap(health.to_vec())
        }
    }

    fn as_slice(&self) -> &[i32] {
        match self {
            Healths::Inline { len, health } => &health[..usize::from(*len)],
            Healths::Heap(v) => v,
        }
    }

    fn hurt(&mut self, who: usize, damage: i32) {
        let h = match self {
            Healths::Inline { len, health } => health[..usize::from(*len)].get_mut(who),
            Healths::Heap(v) => v.get_mut(who),
        };
        if let Some(h) = h {
            if damage > 0 {
                *h = (*h - damage).max(0);
            }
        }
    }
}

/// One attack as resolved: who, whom, the defence, the sides in melee and the aim. Its
/// damage law is cached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Swing {
    attacker: usize,
    target: usize,
    /// `None`: unopposed.
    defence: Option<DefenceAptitude>,
    /// Outnumbering in melee: (the attacker's side, the target's side) in the melee; (1, 1)
    /// for a shot.
    sides: (u32, u32),
    aim: Aim,
}

/// An attack built from a [`Swing`]: the exchange and the damage each way, by location.
struct Built {
    attack: Attack,
    /// Damage the attacker's hit does, by location (chart order).
    hit: [Damage; 6],
    /// Damage a counter-attack does to the attacker, by location; `None` when the defender
    /// has no melee weapon to hit back with.
    counter: Option<[Damage; 6]>,
}

/// A whole fight (a [`dice_core::Encounter`]): the scene's combatants played round by round
/// with a [`Policy`] ([`StandardTactics`] by default).
///
/// A round:
///
/// 1. In the first round, Initiative: d10 + PA + MA for each combatant, highest first, ties
///    rolled off (L3–4, [`TurnOrder`]). The Turn Order holds for the whole fight (the chapter
///    says nothing of rolling it again).
/// 2. Each combatant still standing, in the Turn Order, takes one turn: one attack (L16–18)
///    or nothing, the free actions aside (L5–9), which change nothing here. Whoever is out
///    of the fight when their turn comes does not act; damage takes effect at once.
/// 3. An attack: Physical Agility + the weapon's Aptitude against TN 50 (L18), with the
///    weapon's standing modifier, and in melee Outnumbering (+10 per combatant on the
///    outnumbering side, L41, L66) and ±Difference in Size (L42, L44). The defender rolls the
///    defence the policy picks (L20–22), or none against a shot they cannot see coming; under
///    the scene's passive defence their Attribute + Aptitude is deducted instead (L23–26).
///    Resolution, counter-attacks (losing an opposed melee test by 30 or more, L27–28) and
///    the +1 damage per 10 points are [`Attack`]'s, under the scene's [`Rules`].
/// 4. A hit rolls its location (or takes the called one) and does the weapon's damage +
///    Physical Strength (melee, thrown) or Physical Agility (other ranged) + the bonus +
///    the outnumbering damage bonus (L67) − the armour on that location − Physical Fortitude
///    (L69–73, [`Damage`]). A counter-attack is the defender's melee weapon, with the same
///    terms, on a location rolled on the attacker; a defender holding only a ranged weapon
///    has nothing to hit back with.
///
/// Reach (positions are not kept): melee fighters are engaged with every enemy melee
/// fighter; shooters stand off, out of melee reach, until no melee fighter of their own
/// side is standing, when the enemy walks up to them (a free action, L7) and they are in the
/// melee too. Shots keep the scene's modifier throughout. The fight ends when only one side
/// has anyone standing.
///
/// ```
/// use dice_core::{Encounter, Roll, play};
/// use dice_shapers_percentile::{Fight, Rules, Scene};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let fight = Fight::new(&Scene::duel(), &Rules::default())?;
/// let played = play(&fight, &mut Xoshiro256PlusPlus::seed_from_u64(1), 1_000);
/// let end = played.end.expect("someone wins");
/// println!("{} after {} rounds", fight.end_name(&end), played.rounds());
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
pub struct Fight<P = StandardTactics> {
    combatants: Vec<Combatant>,
    /// Side index of each combatant.
    side_of: Vec<usize>,
    sides: Vec<String>,
    passive: bool,
    rules: Rules,
    turn_order: TurnOrder,
    policy: P,
    cache: Mutex<BTreeMap<Swing, Dist<(i32, i32)>>>,
}

impl<P: Clone> Clone for Fight<P> {
    fn clone(&self) -> Self {
        Fight {
            combatants: self.combatants.clone(),
            side_of: self.side_of.clone(),
            sides: self.sides.clone(),
            passive: self.passive,
            rules: self.rules,
            turn_order: self.turn_order.clone(),
            policy: self.policy.clone(),
            cache: Mutex::new(BTreeMap::new()),
        }
    }
}

impl<P> fmt::Debug for Fight<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fight")
            .field("combatants", &self.combatants)
            .field("sides", &self.sides)
            .field("passive", &self.passive)
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

fn scene_error(reason: impl Into<String>) -> Error {
    Error::Scene {
        reason: reason.into(),
    }
}

impl Fight<StandardTactics> {
    /// The fight of `scene` under `rules`, played with [`StandardTactics`].
    ///
    /// # Errors
    /// [`Error::Scene`] for fewer than two sides, more than [`MAX_FIGHTERS`] combatants, a
    /// Health below 1, a blank name or side; [`Error::OutOfRange`] for a number whose
    /// magnitude exceeds [`crate::MAX_SCORE`] (or a TN modifier that could).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// let mut scene = Scene::duel();
    /// scene.combatants.truncate(2); // Ada and Bram: one side only
    /// assert!(Fight::new(&scene, &Rules::default()).is_err());
    /// ```
    pub fn new(scene: &Scene, rules: &Rules) -> Result<Self, Error> {
        Fight::with_policy(scene, rules, StandardTactics)
    }
}

impl<P> Fight<P> {
    /// The fight of `scene` under `rules`, played with `policy`.
    ///
    /// # Errors
    /// As [`Fight::new`].
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene, StandardTactics};
    /// let f = Fight::with_policy(&Scene::duel(), &Rules::default(), StandardTactics)?;
    /// assert_eq!(f.sides().len(), 2);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn with_policy(scene: &Scene, rules: &Rules, policy: P) -> Result<Self, Error> {
        let n = scene.combatants.len();
        if n > MAX_FIGHTERS {
            return Err(scene_error(format!(
                "{n} combatants, more than the {MAX_FIGHTERS} a scene holds"
            )));
        }
        let mut sides: Vec<String> = Vec::new();
        let mut side_of = Vec::with_capacity(n);
        let mut initiative = Vec::with_capacity(n);
        for c in &scene.combatants {
            if c.name.trim().is_empty() {
                return Err(scene_error("a combatant has no name"));
            }
            if c.side.trim().is_empty() {
                return Err(scene_error(format!("{} has no side", c.name)));
            }
            if c.health < 1 {
                return Err(scene_error(format!(
                    "{} starts with Health {}, already out of the fight (Health must be at least 1)",
                    c.name, c.health
                )));
            }
            check_score("health", c.health)?;
            for (what, v) in [
                ("physical strength", c.physical_strength),
                ("physical fortitude", c.physical_fortitude),
                ("dodge", c.dodge),
                ("size", c.size),
                ("weapon aptitude", c.weapon.aptitude),
                ("weapon damage", c.weapon.damage),
                ("weapon modifier", c.weapon.modifier),
                ("armour", c.armour.all),
            ] {
                check_score(what, v)?;
            }
            for l in Location::ALL {
                check_score("armour", c.armour.at(l))?;
            }
            initiative.push(Initiative::new(c.physical_agility, c.mental_agility)?);
            let s = match sides.iter().position(|s| *s == c.side) {
                Some(s) => s,
                None => {
                    sides.push(c.side.clone());
                    sides.len() - 1
                }
            };
            side_of.push(s);
        }
        if sides.len() < 2 {
            return Err(scene_error(
                "a fight needs combatants on at least two sides",
            ));
        }
        let fight = Fight {
            combatants: scene.combatants.clone(),
            side_of,
            sides,
            passive: scene.passive_defence,
            rules: *rules,
            turn_order: TurnOrder::new(initiative)?,
            policy,
            cache: Mutex::new(BTreeMap::new()),
        };
        // Every attack the fight can make must be buildable: check the extremes of the
        // modifiers (the most and fewest in the melee, a called shot or not).
        for a in 0..n {
            for t in 0..n {
                if fight.side_of[a] == fight.side_of[t] {
                    continue;
                }
                let big = n as u32;
                for sides in [(1, 1), (big, 1), (1, big)] {
                    for aim in [Aim::Rolled, Aim::Called(Location::Head)] {
                        let defences = [
                            None,
                            Some(DefenceAptitude::Dodge),
                            fight.combatants[t].weapon.parry(),
                        ];
                        for defence in defences {
                            fight.build(&Swing {
                                attacker: a,
                                target: t,
                                defence,
                                sides,
                                aim,
                            })?;
                        }
                    }
                }
            }
        }
        Ok(fight)
    }

    /// The combatants, by index.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// assert_eq!(Fight::new(&Scene::duel(), &Rules::default())?.combatants()[0].name, "Ada");
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn combatants(&self) -> &[Combatant] {
        &self.combatants
    }

    /// The sides, in the order they first appear in the scene.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// assert_eq!(Fight::new(&Scene::duel(), &Rules::default())?.sides(), ["the shapers", "the ogre"]);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn sides(&self) -> &[String] {
        &self.sides
    }

    /// The side of combatant `who`.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// assert_eq!(Fight::new(&Scene::duel(), &Rules::default())?.side_of(2), Some(1));
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn side_of(&self, who: usize) -> Option<usize> {
        self.side_of.get(who).copied()
    }

    /// The policy the combatants play by.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene, StandardTactics};
    /// assert_eq!(Fight::new(&Scene::duel(), &Rules::default())?.policy(), &StandardTactics);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn policy(&self) -> &P {
        &self.policy
    }

    /// The rulings the fight is played under.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// assert_eq!(Fight::new(&Scene::duel(), &Rules::default())?.rules(), &Rules::default());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The Turn Order mechanic (every combatant's Initiative).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// assert_eq!(Fight::new(&Scene::duel(), &Rules::default())?.turn_order().combatants().len(), 3);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn turn_order(&self) -> &TurnOrder {
        &self.turn_order
    }

    /// A state for a person: each combatant's name and Health, and the Turn Order.
    ///
    /// ```
    /// # use dice_core::Encounter;
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// let f = Fight::new(&Scene::duel(), &Rules::default())?;
    /// assert_eq!(f.describe(&f.start()), "Ada 30, Bram 24, the ogre 50; Initiative not rolled");
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn describe(&self, state: &FightState) -> String {
        let mut out = String::new();
        for (i, c) in self.combatants.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let h = state.health.get(i).copied().unwrap_or(0);
            if h <= 0 {
                out.push_str(&format!("{} out of the fight", c.name));
            } else {
                out.push_str(&format!("{} {h}", c.name));
            }
        }
        if self.winner(state).is_some() {
            // Over: no Turn Order to show.
        } else if state.order.is_empty() {
            out.push_str("; Initiative not rolled");
        } else {
            let names: Vec<&str> = state
                .order
                .iter()
                .filter_map(|&i| self.combatants.get(usize::from(i)))
                .map(|c| c.name.as_str())
                .collect();
            out.push_str("; order ");
            out.push_str(&names.join(", "));
        }
        out
    }

    /// An end for a person: "the shapers win".
    ///
    /// ```
    /// # use dice_shapers_percentile::{Fight, Rules, Scene, Victory};
    /// assert_eq!(Fight::new(&Scene::duel(), &Rules::default())?.end_name(&Victory { side: 1 }), "the ogre wins");
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn end_name(&self, end: &Victory) -> String {
        let side = self.sides.get(end.side).map_or("?", String::as_str);
        let members = self.side_of.iter().filter(|&&s| s == end.side).count();
        let plural = members > 1 || side.ends_with('s') && !side.ends_with("ss");
        format!("{side} {}", if plural { "win" } else { "wins" })
    }

    /// Whether `who` is in the melee: standing, and holding a melee weapon or left with no
    /// melee fighter of their own side standing to keep the enemy off.
    fn in_melee(&self, state: &FightState, who: usize) -> bool {
        if state.is_down(who) {
            return false;
        }
        self.combatants[who].fights_in_melee()
            || !(0..self.combatants.len()).any(|k| {
                self.side_of[k] == self.side_of[who]
                    && !state.is_down(k)
                    && self.combatants[k].fights_in_melee()
            })
    }

    /// The actions open to `who` on their turn: hold, or attack an enemy within reach
    /// (anyone standing for a shot; one in the melee for a melee weapon), with the location
    /// rolled or called.
    ///
    /// ```
    /// # use dice_core::Encounter;
    /// # use dice_shapers_percentile::{Action, Aim, Fight, FightState, Rules, Scene};
    /// let f = Fight::new(&Scene::duel(), &Rules::default())?;
    /// let s = FightState { health: vec![30, 24, 50], order: vec![0, 1, 2] };
    /// // The ogre cannot reach Bram while Ada stands.
    /// let open = f.turn_actions(&s, 2);
    /// assert!(open.contains(&Action::Attack { target: 0, aim: Aim::Rolled }));
    /// assert!(!open.iter().any(|a| matches!(a, Action::Attack { target: 1, .. })));
    /// assert_eq!(f.turn_actions(&FightState { health: vec![0, 24, 50], order: vec![1, 2] }, 0), vec![]);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn turn_actions(&self, state: &FightState, who: usize) -> Vec<Action> {
        if who >= self.combatants.len() || state.is_down(who) {
            return Vec::new();
        }
        let mut open = vec![Action::Hold];
        let melee = self.combatants[who].fights_in_melee();
        for t in 0..self.combatants.len() {
            if self.side_of[t] == self.side_of[who] || state.is_down(t) {
                continue;
            }
            if melee && !self.in_melee(state, t) {
                continue;
            }
            open.push(Action::Attack {
                target: t,
                aim: Aim::Rolled,
            });
            for l in Location::ALL {
                open.push(Action::Attack {
                    target: t,
                    aim: Aim::Called(l),
                });
            }
        }
        open
    }

    /// The defences open to `target` against an attack by `attacker`: Physical Agility +
    /// Dodge, or + the Melee Aptitude of a melee weapon in melee, as L21–22 allow (empty:
    /// the attack is unopposed).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Action, DefenceAptitude, Fight, Rules, Scene};
    /// let f = Fight::new(&Scene::duel(), &Rules::default())?;
    /// // The ogre against Ada's axe: Dodge (TN 56) or Melee (Unarmed) (TN 71).
    /// let open = f.defences(0, 2);
    /// assert_eq!(open.len(), 2);
    /// assert!(open.contains(&Action::Defend { with: DefenceAptitude::MeleeUnarmed, tn: 71 }));
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn defences(&self, attacker: usize, target: usize) -> Vec<Action> {
        let (Some(a), Some(d)) = (self.combatants.get(attacker), self.combatants.get(target))
        else {
            return Vec::new();
        };
        let sizes = Some(Sizes {
            attacker: a.size,
            target: d.size,
        });
        let kind = a.weapon.kind;
        let mut open = Vec::new();
        let mut offer = |with: DefenceAptitude, aptitude: i32| {
            if defence_allowed(with, kind, d.sees_shots_coming, false, sizes) {
                let tn =
                    Test::new(d.physical_agility, aptitude, 0, &self.rules).map_or(0, |t| t.tn());
                open.push(Action::Defend { with, tn });
            }
        };
        offer(DefenceAptitude::Dodge, d.dodge);
        if let Some(parry) = d.weapon.parry() {
            offer(parry, d.weapon.aptitude);
        }
        open
    }

    /// The combatants in the melee on each side of an attack by `attacker` on `target`.
    fn melee_sides(&self, state: &FightState, attacker: usize, target: usize) -> (u32, u32) {
        if !self.combatants[attacker].fights_in_melee() {
            return (1, 1);
        }
        let count = |side: usize| {
            (0..self.combatants.len())
                .filter(|&k| self.side_of[k] == side && self.in_melee(state, k))
                .count()
                .max(1) as u32
        };
        (count(self.side_of[attacker]), count(self.side_of[target]))
    }

    /// Builds the attack and its damage.
    fn build(&self, s: &Swing) -> Result<Built, Error> {
        let a = &self.combatants[s.attacker];
        let d = &self.combatants[s.target];
        let rules = &self.rules;
        let kind = a.weapon.kind;
        let outnumbering = Outnumbering::new(s.sides.0, s.sides.1)?;
        let modifier = if kind.is_melee() {
            MeleeSituation {
                outnumbering: Some(outnumbering),
                sizes: Some(Sizes {
                    attacker: a.size,
                    target: d.size,
                }),
                aim: s.aim,
                gm: a.weapon.modifier,
                ..MeleeSituation::default()
            }
            .total(rules)?
        } else {
            check_score("modifier", a.weapon.modifier + s.aim.modifier())?
        };
        let test = Test::new(a.physical_agility, a.weapon.aptitude, modifier, rules)?;
        let defence = match s.defence {
            None => Defence::Unopposed,
            Some(with) => {
                let aptitude = if with == DefenceAptitude::Dodge {
                    d.dodge
                } else {
                    d.weapon.aptitude
                };
                if self.passive {
                    Defence::Passive(check_score(
                        "passive defence",
                        d.physical_agility + aptitude,
                    )?)
                } else {
                    Defence::Opposed(Test::new(d.physical_agility, aptitude, 0, rules)?)
                }
            }
        };
        let attack = Attack::new(test, defence, kind, rules)?;
        let bonus = if kind.is_melee() {
            outnumbering.damage_bonus(rules)
        } else {
            0
        };
        let base = Damage::new(
            kind,
            a.weapon.damage,
            a.physical_strength,
            a.physical_agility,
        )?
        .outnumbering(bonus)?;
        let mut hit = [base; 6];
        for (h, l) in hit.iter_mut().zip(Location::ALL) {
            *h = base.against(d.armour.at(l), d.physical_fortitude)?;
        }
        let counter = if d.fights_in_melee() {
            let back = Outnumbering::new(s.sides.1, s.sides.0)?.damage_bonus(rules);
            let base = Damage::new(
                AttackKind::Melee,
                d.weapon.damage,
                d.physical_strength,
                d.physical_agility,
            )?
            .outnumbering(back)?;
            let mut c = [base; 6];
            for (h, l) in c.iter_mut().zip(Location::ALL) {
                *h = base.against(a.armour.at(l), a.physical_fortitude)?;
            }
            Some(c)
        } else {
            None
        };
        Ok(Built {
            attack,
            hit,
            counter,
        })
    }

    /// The exact law of (damage to the target, damage to the attacker) of one attack.
    fn damage_law(&self, s: &Swing) -> Result<Dist<(i32, i32)>, Error> {
        let b = self.build(s)?;
        let rules = self.rules;
        let outcomes = b.attack.distribution()?;
        let rolled = HitLocation.distribution()?;
        let aimed = s.aim.distribution()?;
        outcomes.and_then(|o| -> Result<Dist<(i32, i32)>, Error> {
            Ok(match *o {
                AttackOutcome::Hit { bonus } => {
                    aimed.map(|&l| (b.hit[l as usize].dealt(bonus, &rules), 0))
                }
                AttackOutcome::CounterAttack { bonus } => match &b.counter {
                    Some(c) => rolled.map(|&l| (0, c[l as usize].dealt(bonus, &rules))),
                    None => Dist::certain((0, 0)),
                },
                AttackOutcome::Miss => Dist::certain((0, 0)),
            })
        })
    }

    /// Applies `f` to the (cached) damage law of `s`.
    fn with_damage_law<T>(
        &self,
        s: &Swing,
        f: impl FnOnce(&Dist<(i32, i32)>) -> T,
    ) -> Result<T, Error> {
        match self.cache.lock() {
            Ok(mut cache) => {
                if !cache.contains_key(s) {
                    let law = self.damage_law(s)?;
                    cache.insert(*s, law);
                }
                match cache.get(s) {
                    Some(law) => Ok(f(law)),
                    None => Ok(f(&self.damage_law(s)?)),
                }
            }
            // A poisoned cache (a panic elsewhere): compute afresh.
            Err(_) => Ok(f(&self.damage_law(s)?)),
        }
    }

    /// Rolls one attack: (damage to the target, damage to the attacker), with the crate's
    /// roll paths (the exchange, then the hit location).
    fn roll_damage<R: Rng + ?Sized>(&self, s: &Swing, rng: &mut R) -> (i32, i32) {
        let Ok(b) = self.build(s) else {
            return (0, 0);
        };
        match b.attack.roll_exchange(rng).outcome {
            AttackOutcome::Hit { bonus } => {
                let l = s.aim.roll(rng);
                (b.hit[l as usize].dealt(bonus, &self.rules), 0)
            }
            AttackOutcome::CounterAttack { bonus } => match &b.counter {
                Some(c) => {
                    let l = HitLocation.roll(rng);
                    (0, c[l as usize].dealt(bonus, &self.rules))
                }
                None => (0, 0),
            },
            AttackOutcome::Miss => (0, 0),
        }
    }

    /// The winning side once only one side has anyone standing.
    fn winner(&self, state: &FightState) -> Option<usize> {
        let mut standing = (0..self.combatants.len())
            .filter(|&i| !state.is_down(i))
            .map(|i| self.side_of[i]);
        let first = standing.next()?;
        standing.all(|s| s == first).then_some(first)
    }

    /// Drops those out of the fight from the Turn Order; a final state keeps none.
    fn settle(&self, mut state: FightState) -> FightState {
        if self.winner(&state).is_some() {
            state.order.clear();
        } else {
            let h = &state.health;
            state
                .order
                .retain(|&i| h.get(usize::from(i)).is_some_and(|&x| x > 0));
        }
        state
    }
}

impl<P: Policy<FightState, Action>> Fight<P> {
    /// The attack `who` makes on their turn in `state`, if any: the policy's choice among
    /// [`Fight::turn_actions`] (a choice not offered is no action), then the target's
    /// defence among [`Fight::defences`].
    fn swing(&self, state: &FightState, who: usize) -> Option<Swing> {
        if state.is_down(who) || self.winner(state).is_some() {
            return None;
        }
        let open = self.turn_actions(state, who);
        let choice = self.policy.choose(state, who, &open);
        if !open.contains(&choice) {
            return None;
        }
        let Action::Attack { target, aim } = choice else {
            return None;
        };
        let defences = self.defences(who, target);
        let defence = if defences.is_empty() {
            None
        } else {
            match self.policy.choose(state, target, &defences) {
                Action::Defend { with, tn } if defences.contains(&Action::Defend { with, tn }) => {
                    Some(with)
                }
                // A defence not offered: the first offered.
                _ => match defences[0] {
                    Action::Defend { with, .. } => Some(with),
                    _ => None,
                },
            }
        };
        Some(Swing {
            attacker: who,
            target,
            defence,
            sides: self.melee_sides(state, who, target),
            aim,
        })
    }

    /// The exact law of the Health after `who`'s turn (the Turn Order is the round's).
    fn turn_law(&self, health: &Healths, order: &[u8], who: usize) -> Result<Dist<Healths>, Error> {
        // The policy sees the whole state; the Turn Order does not change within a round.
        let state = FightState {
            health: health.as_slice().to_vec(),
            order: order.to_vec(),
        };
        let Some(s) = self.swing(&state, who) else {
            return Ok(Dist::certain(health.clone()));
        };
        self.with_damage_law(&s, |law| {
            law.map(|&(to_target, to_attacker)| {
                let mut next = health.clone();
                next.hurt(s.target, to_target);
                next.hurt(s.attacker, to_attacker);
                next
            })
        })
    }

    /// The exact law of the rest of a round whose Turn Order is set.
    fn turns_law(&self, state: &FightState) -> Result<Dist<FightState>, Error> {
        let mut law = Dist::certain(Healths::new(&state.health));
        for &who in &state.order {
            law = law.and_then(|h| self.turn_law(h, &state.order, usize::from(who)))?;
        }
        Ok(law.map(|h| {
            self.settle(FightState {
                health: h.as_slice().to_vec(),
                order: state.order.clone(),
            })
        }))
    }

    /// The exact law of one round from `state` (Initiative first, in the first round), in
    /// the crate's errors.
    ///
    /// # Errors
    /// [`Error::Core`] when the Turn Order of more than [`crate::MAX_EXACT_COMBATANTS`]
    /// combatants is asked for exactly.
    ///
    /// ```
    /// # use dice_core::Encounter;
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// let f = Fight::new(&Scene::duel(), &Rules::default())?;
    /// let law = f.round(&f.start())?;
    /// assert!((law.total() - 1.0).abs() < 1e-12);
    /// assert!(law.iter().all(|(s, _)| !s.order.is_empty() || f.end(s).is_some()));
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn round(&self, state: &FightState) -> Result<Dist<FightState>, Error> {
        if state.order.is_empty() {
            let orders = self.turn_order.distribution()?;
            orders.and_then(|o| {
                let mut s = state.clone();
                s.order = o.0.iter().map(|&i| i as u8).collect();
                self.turns_law(&s)
            })
        } else {
            self.turns_law(state)
        }
    }
}

impl<P: Policy<FightState, Action>> Encounter for Fight<P> {
    type State = FightState;
    type End = Victory;

    fn start(&self) -> FightState {
        FightState {
            health: self.combatants.iter().map(|c| c.health).collect(),
            order: Vec::new(),
        }
    }

    fn end(&self, state: &FightState) -> Option<Victory> {
        self.winner(state).map(|side| Victory { side })
    }

    fn round_law(&self, state: &FightState) -> Result<Dist<FightState>, dice_core::Error> {
        self.round(state).map_err(|e| match e {
            Error::Core(e) => e,
            Error::OutOfRange {
                what,
                value,
                min,
                max,
            } => dice_core::Error::OutOfRange {
                what,
                value,
                min,
                max,
            },
            _ => dice_core::Error::Unsupported {
                what: "an attack this scene cannot make",
            },
        })
    }

    fn play_round<R: Rng + ?Sized>(&self, state: &FightState, rng: &mut R) -> FightState {
        let mut s = state.clone();
        if s.order.is_empty() {
            s.order = self
                .turn_order
                .roll(rng)
                .0
                .iter()
                .map(|&i| i as u8)
                .collect();
        }
        let order = s.order.clone();
        for who in order {
            if let Some(swing) = self.swing(&s, usize::from(who)) {
                let (to_target, to_attacker) = self.roll_damage(&swing, rng);
                s.hurt(swing.target, to_target);
                s.hurt(swing.attacker, to_attacker);
            }
        }
        self.settle(s)
    }
}
