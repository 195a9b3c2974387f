//! Whole fights: a scene of combatants played round by round under the combat chapter —
//! Initiative and the Turn Order (L3–4), movement (walking as a free action, jogging with
//! an attack at a penalty, running, charging and sprinting, toward or away from a foe, L7,
//! L10–15, L57), melee reach (L17), one attack a turn (L16–18), attacks on an engaged
//! opponent's rear (L39), aiming (L54), range bands and cover (L51–64), opposed defence
//! rolls (L19–22) or the optional passive defence (L23–26), counter-attacks (L27–28),
//! outnumbering (L65–68), damage (L69–73) and hit locations (L76–85) — with the exact law
//! of who wins ([`dice_core::end_law`]).
//!
//! The chapter has no Health pool of its own: "the damage is reduced by the victim's
//! Fortitude Attribute … before being deducted from their Health" (L73) is all it says. The
//! scene therefore gives each combatant's Health (a required input), and a combatant whose
//! Health falls to 0 or below is out of the fight (the project's ruling; what happens at 0 is
//! silent, PC-A10).
//!
//! Where the combatants stand is a position in whole metres along one line (the line the
//! two sides close along): the distance between two combatants is the difference of their
//! positions. Melee reach (2 m, L17), charging distance (running speed + reach, L14), range
//! bands (L51–64), who counts for outnumbering (L66) and who stands behind whom (L39) are
//! read from it. The chapter gives no speeds, so the scene gives them (walking, jogging,
//! running and sprinting metres a round), and the line has two ends (the scene's field).
//!
//! The state of a fight in progress ([`FightState`]) is each combatant's Health (0 for
//! those out of the fight), the Turn Order once Initiative is rolled, every position, and
//! who spent their last turn aiming at whom. Hit locations have no lasting effect in the
//! chapter: they decide which armour a hit meets (L77: "particularly if they are wearing
//! armour that does not cover their entire body"), so they are rolled with each hit and
//! never stored.
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
use crate::error::{Error, MAX_SCORE, check_score};
use crate::initiative::{Initiative, TurnOrder};
use crate::location::{Aim, HitLocation, Location};
use crate::modifiers::{Cover, MeleeSituation, Outnumbering, RangeBand, RangedAction, Sizes};
use crate::movement::{DefenceAptitude, MELEE_REACH_METRES, Movement, defence_allowed};
use crate::rules::Rules;

/// The most combatants a scene holds (the Turn Order is kept as bytes).
///
/// ```
/// assert_eq!(dice_shapers_percentile::MAX_FIGHTERS, 100);
/// ```
pub const MAX_FIGHTERS: usize = 100;

/// Melee reach in whole metres: "within 2m" (L17).
const REACH: i32 = MELEE_REACH_METRES as i32;

/// The weapon a combatant attacks with, and the Aptitude behind it (L18: "Use the
/// character's Physical Agility Attribute + appropriate Aptitude to attack").
///
/// ```
/// use dice_shapers_percentile::{AttackKind, Weapon};
/// let axe = Weapon::new("axe", AttackKind::Melee, 8, 7);
/// assert_eq!(axe.to_string(), "axe (melee, Aptitude 8, damage 7)");
/// let bow = Weapon { range: Some(30), ..Weapon::new("bow", AttackKind::Ranged, 12, 6) };
/// assert_eq!(bow.to_string(), "bow (ranged, Aptitude 12, damage 6, listed range 30 m)");
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
    /// The Combat Modifiers that hold for every attack with it in this scene (L34–64):
    /// weather, the target's Size for a shot, a range band when no listed range is given, …
    /// Outnumbering (L41), the Size difference in melee (L42, L44), a charge (L40), a called
    /// shot (L46, L61), aiming (L54), the range band from the distance (with `range`) and
    /// the target's cover are added by the fight itself.
    #[cfg_attr(feature = "serde", serde(default))]
    pub modifier: i32,
    /// A melee weapon used with Melee (Unarmed) (fists, claws) rather than Melee (Armed):
    /// it only changes which Aptitude a parry is named after.
    #[cfg_attr(feature = "serde", serde(default))]
    pub unarmed: bool,
    /// A thrown or ranged weapon's listed range in metres (from Weapons and Armour): each shot
    /// then takes the range band of the distance to the target (point blank +20 up to 10 %
    /// of it, short +10 up to half, normal 0, long −20 up to double, extreme −40 up to
    /// triple; L51–64), and a target beyond triple the listed range cannot be shot at
    /// (PC-A8). `None`: shots reach any distance, with `modifier` alone.
    #[cfg_attr(feature = "serde", serde(default))]
    pub range: Option<i32>,
    /// A melee weapon's reach in metres, for "very large weapons or creatures" that "make
    /// melee attacks at greater distances" (L17); `None` (or anything below 2) is the 2 m of
    /// every melee attack.
    #[cfg_attr(feature = "serde", serde(default))]
    pub reach: Option<i32>,
}

impl Weapon {
    /// A weapon with no standing modifier, no listed range and the usual reach, used Armed.
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
            range: None,
            reach: None,
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

    /// How far, in metres, its holder is "in melee" (L17): the weapon's reach for a melee
    /// weapon (at least 2 m), 2 m for anyone else.
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, Weapon};
    /// assert_eq!(Weapon::new("axe", AttackKind::Melee, 8, 7).reach(), 2);
    /// let pike = Weapon { reach: Some(4), ..Weapon::new("pike", AttackKind::Melee, 8, 7) };
    /// assert_eq!(pike.reach(), 4);
    /// ```
    pub fn reach(&self) -> i32 {
        if self.kind.is_melee() {
            self.reach.map_or(REACH, |r| r.max(REACH))
        } else {
            REACH
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
        if let Some(r) = self.range {
            write!(f, ", listed range {r} m")?;
        }
        if let Some(r) = self.reach {
            write!(f, ", reach {r} m")?;
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

/// How far a combatant moves in a round, in metres (L7, L12–15). The chapter gives no
/// speeds, so the scene does; 0 (the default) is a pace the combatant does not take.
///
/// ```
/// use dice_shapers_percentile::{Movement, Speed};
/// let human = Speed { walk: 4, jog: 8, run: 12, sprint: 20 };
/// assert_eq!(human.of(Movement::Charge), 12); // a charge is a run (L14)
/// assert_eq!(human.of(Movement::Jog), 8);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Speed {
    /// "Normal walking speed", a free action (L7, L12): a melee fighter walks up to a foe
    /// and attacks in the same turn.
    pub walk: i32,
    /// Jogging (L13): other actions are allowed "but will suffer penalties": a shot at −10
    /// (L57), a melee attack at the scene's penalty (the charts list none, PC-A12).
    pub jog: i32,
    /// "Normal running speed" (L14): a run leaves no other action; a charge runs at most
    /// this far and ends with one melee attack.
    pub run: i32,
    /// Sprinting (L15): no charge and no attack that turn.
    pub sprint: i32,
}

impl Speed {
    /// The metres a round of `pace` covers: walk, jog, run (a charge too) or sprint.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Movement, Speed};
    /// assert_eq!(Speed { walk: 4, ..Speed::default() }.of(Movement::Walk), 4);
    /// ```
    pub fn of(&self, pace: Movement) -> i32 {
        match pace {
            Movement::Walk => self.walk,
            Movement::Run | Movement::Charge => self.run,
            Movement::Sprint => self.sprint,
            Movement::Jog => self.jog,
        }
    }
}

/// One combatant's stat block for a fight, in the chapter's terms.
///
/// ```
/// use dice_shapers_percentile::{AttackKind, Combatant, Weapon};
/// let ada = Combatant::new("Ada", "shapers", 30, Weapon::new("axe", AttackKind::Melee, 8, 7));
/// assert_eq!(ada.health, 30);
/// assert_eq!(ada.position, 0);
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
    /// Where they stand at the start, in metres along the line of the fight (0 by default:
    /// a scene that gives no positions starts everyone within reach of everyone).
    #[cfg_attr(feature = "serde", serde(default))]
    pub position: i32,
    /// How far they walk, run and sprint in a round (none by default: they stay put).
    #[cfg_attr(feature = "serde", serde(default))]
    pub speed: Speed,
    /// Cover against shots where they start (bushes, a wooden fence, a brick wall: −10, −20,
    /// −30 to shots at them, L58, L62, L63); lost once they move from that spot.
    #[cfg_attr(feature = "serde", serde(default))]
    pub cover: Option<Cover>,
}

#[cfg(feature = "serde")]
fn yes() -> bool {
    true
}

impl Combatant {
    /// A combatant with this Health and weapon; every attribute, Dodge, Size, armour,
    /// position and speed 0; no cover; sees shots coming.
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
            position: 0,
            speed: Speed::default(),
            cover: None,
        }
    }

    /// Whether the combatant fights in melee (a melee weapon) rather than shooting or
    /// throwing.
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
    /// The ends of the line the fight is fought on, in metres: nobody moves beyond them, so
    /// a combatant who falls back to an end is cornered. `None`: from the lowest to the
    /// highest starting position.
    #[cfg_attr(feature = "serde", serde(default))]
    pub field: Option<[i32; 2]>,
    /// The TN penalty of a melee attack made while jogging (L13: "will suffer penalties";
    /// the melee chart lists none, so it is the GM's, PC-A12), as a negative number. `None`:
    /// melee fighters do not attack while jogging. Shots while jogging are always −10 (L57).
    #[cfg_attr(feature = "serde", serde(default))]
    pub melee_jogging_penalty: Option<i32>,
}

impl Scene {
    /// The shipped scene (`scenes/duel.toml`), built from the crate's example
    /// (`examples/percentile_combat.rs`): Ada (axe) charges the ogre (fists), 10 m off behind
    /// a wooden fence, while Bram shoots from 35 m with a bow of listed range 30 m. The
    /// example gives no Health, no bow damage, no speeds and no stats for Bram beyond PA and
    /// MA; those are filled in here (see the docs).
    ///
    /// ```
    /// # use dice_shapers_percentile::Scene;
    /// assert_eq!(Scene::duel().combatants[2].name, "the ogre");
    /// ```
    pub fn duel() -> Scene {
        let human = Speed {
            walk: 4,
            jog: 8,
            run: 12,
            sprint: 20,
        };
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
        ada.position = 25;
        ada.speed = human;
        let mut bow = Weapon::new("bow", AttackKind::Ranged, 12, 6);
        // The ogre's Size 14 − 10 = +4 (L55); the range band and the fence come from the
        // positions and the ogre's cover.
        bow.modifier = 4;
        bow.range = Some(30);
        let mut bram = Combatant::new("Bram", "the shapers", 24, bow);
        bram.physical_agility = 10;
        bram.mental_agility = 11;
        bram.physical_strength = 9;
        bram.physical_fortitude = 8;
        bram.dodge = 6;
        bram.size = 10;
        bram.armour.body = Some(2);
        bram.speed = human;
        let mut fists = Weapon::new("fists", AttackKind::Melee, 15, 3);
        fists.unarmed = true;
        let mut ogre = Combatant::new("the ogre", "the ogre", 50, fists);
        ogre.physical_agility = 6;
        ogre.mental_agility = 4;
        ogre.physical_strength = 18;
        ogre.physical_fortitude = 11;
        ogre.size = 14;
        ogre.armour.all = 2;
        ogre.position = 35;
        ogre.speed = human;
        ogre.cover = Some(Cover::Medium);
        Scene {
            combatants: vec![ada, bram, ogre],
            passive_defence: false,
            field: None,
            melee_jogging_penalty: None,
        }
    }
}

/// What a combatant does: on their turn, attack, charge, move, aim or hold; when attacked,
/// how they defend.
///
/// ```
/// use dice_shapers_percentile::{Action, Aim, DefenceAptitude, Movement};
/// assert_eq!(Action::Attack { target: 2, aim: Aim::Rolled }.to_string(), "attack 2 (rolled location)");
/// assert_eq!(Action::Charge { target: 2, aim: Aim::Rolled }.to_string(), "charge 2 (rolled location)");
/// assert_eq!(Action::Move { toward: 1, pace: Movement::Run }.to_string(), "run toward 1");
/// assert_eq!(Action::TakeAim { target: 2 }.to_string(), "take aim at 2");
/// assert_eq!(Action::JogAttack { target: 2, aim: Aim::Rolled }.to_string(), "jog and attack 2 (rolled location)");
/// let back = Action::Retreat { from: 2, pace: Movement::Walk, shot: Some((2, Aim::Rolled)) };
/// assert_eq!(back.to_string(), "walk away from 2 and shoot 2 (rolled location)");
/// assert_eq!(Action::Defend { with: DefenceAptitude::Dodge, tn: 61 }.to_string(), "defend with Dodge (TN 61)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Action {
    /// The turn's attack (L16–18) on `target` (an index into the scene's combatants), with
    /// the hit location rolled or a called shot at −20 (L46, L61). A melee fighter first
    /// walks up to the target if it is within walking speed + reach (a free action, L7, L12,
    /// L17); a shooter shoots from where they stand.
    Attack {
        /// Whom.
        target: usize,
        /// Rolled location or a called shot.
        aim: Aim,
    },
    /// A charge (L14): run at most running speed to end within reach of `target`, then one
    /// melee attack at +10 (L40). Only for a melee fighter not yet in melee with anyone.
    Charge {
        /// Whom.
        target: usize,
        /// Rolled location or a called shot.
        aim: Aim,
    },
    /// Move toward `toward` without attacking: walk (L7), run ("cannot perform another
    /// action", L14) or sprint (no attack, L15), stopping once within reach.
    Move {
        /// Whom they move toward.
        toward: usize,
        /// Walk, run or sprint.
        pace: Movement,
    },
    /// Jog and attack (L13): a melee fighter jogs up to a foe within jogging speed + reach
    /// and strikes at the scene's melee jogging penalty (PC-A12; offered only when the scene
    /// gives one); a shooter jogs toward the target, at most jogging speed and stopping
    /// within reach, and shoots from there at −10 (L57).
    JogAttack {
        /// Whom.
        target: usize,
        /// Rolled location or a called shot.
        aim: Aim,
    },
    /// Fall back: move away from the foe `from` at `pace` (walk, jog, run or sprint, L7,
    /// L12–15), as far as the field allows. The chapter puts no limit on which way anyone
    /// moves and gives no free attack on leaving a melee. A shooter falling back at a walk
    /// (a free action) or a jog may shoot `shot` from where the move ends, at −10 when
    /// jogging (L57); a run or a sprint leaves no attack (L14–15).
    Retreat {
        /// The foe they move away from.
        from: usize,
        /// Walk, jog, run or sprint.
        pace: Movement,
        /// The shot taken after the move, if any: whom, and the location rolled or called.
        shot: Option<(usize, Aim)>,
    },
    /// "Spend a round aiming" (L54): no shot this turn; the next turn's shot at `target`
    /// is at +10.
    TakeAim {
        /// Whom.
        target: usize,
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
            Action::Charge { target, aim } => write!(f, "charge {target} ({aim})"),
            Action::Move { toward, pace } => write!(f, "{pace} toward {toward}"),
            Action::JogAttack { target, aim } => write!(f, "jog and attack {target} ({aim})"),
            Action::Retreat { from, pace, shot } => {
                write!(f, "{pace} away from {from}")?;
                match shot {
                    Some((target, aim)) => write!(f, " and shoot {target} ({aim})"),
                    None => Ok(()),
                }
            }
            Action::TakeAim { target } => write!(f, "take aim at {target}"),
            Action::Hold => f.write_str("hold"),
            Action::Defend { with, tn } => write!(f, "defend with {with} (TN {tn})"),
        }
    }
}

/// The default tactics, as the chapter advises:
///
/// - on their turn a combatant strikes the enemy with the least Health left among those they
///   can attack this turn (the first in the scene on a tie): every foe taken out of the
///   fight brings the rest of the side closer to "outnumbering an opponent" (L65–68), the
///   one advantage the chapter spells out. The strike is "a standard melee attack" (L43) or
///   a shot, rolling the hit location rather than paying −20 to call it (L46, L61), and a
///   charge (+10, L40) rather than a walk up to the same foe when both are open;
/// - with nobody to strike, they run at the nearest enemy (walk when they cannot run), so
///   that a charge comes within reach; they never sprint, which allows no charge and no
///   attack (L15), and never spend a round aiming (L54), which costs a whole shot for +10;
/// - they never jog to attack (walking up and charging reach a foe without a penalty; a
///   shooter trades −10 for a closer range band only with a foe moving in anyway) and never
///   fall back (see [`Skirmish`] for tactics that do);
/// - when attacked, they "decide which Attribute + Aptitude is relevant for the defender"
///   (L20) by taking the defence with the highest TN among those allowed (Dodge or the
///   Melee Aptitude in melee; only Dodge against a shot seen coming from out of melee
///   range, L21, or against an attacker 10 or more sizes larger, L22); on a tie, Melee
///   over Dodge.
///
/// ```
/// use dice_core::Policy;
/// use dice_shapers_percentile::{Action, Aim, DefenceAptitude, FightState, Movement, StandardTactics};
/// let s = FightState { health: vec![30, 24, 7], order: vec![0, 1, 2], position: vec![25, 0, 35], aiming: vec![] };
/// let open = [
///     Action::Hold,
///     Action::Attack { target: 2, aim: Aim::Rolled },
///     Action::Charge { target: 2, aim: Aim::Rolled },
/// ];
/// assert_eq!(StandardTactics.choose(&s, 0, &open), open[2]);
/// let far = [Action::Hold, Action::Move { toward: 2, pace: Movement::Sprint }, Action::Move { toward: 2, pace: Movement::Run }];
/// assert_eq!(StandardTactics.choose(&s, 1, &far), far[2]);
/// let defences = [
///     Action::Defend { with: DefenceAptitude::Dodge, tn: 56 },
///     Action::Defend { with: DefenceAptitude::MeleeUnarmed, tn: 71 },
/// ];
/// assert_eq!(StandardTactics.choose(&s, 2, &defences), defences[1]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StandardTactics;

impl Policy<FightState, Action> for StandardTactics {
    fn choose(&self, state: &FightState, who: usize, open: &[Action]) -> Action {
        let health = |t: usize| state.health.get(t).copied().unwrap_or(0);
        let strike = open
            .iter()
            .filter_map(|a| match *a {
                Action::Charge {
                    target,
                    aim: Aim::Rolled,
                } => Some((health(target), target, 0, *a)),
                Action::Attack {
                    target,
                    aim: Aim::Rolled,
                } => Some((health(target), target, 1, *a)),
                _ => None,
            })
            .min_by_key(|&(h, t, k, _)| (h, t, k));
        if let Some((_, _, _, a)) = strike {
            return a;
        }
        let at = |i: usize| state.position.get(i).copied().unwrap_or(0);
        let here = at(who);
        let step = open
            .iter()
            .filter_map(|a| match *a {
                Action::Move {
                    toward,
                    pace: Movement::Run,
                } => Some(((at(toward) - here).abs(), toward, 0, *a)),
                Action::Move {
                    toward,
                    pace: Movement::Walk,
                } => Some(((at(toward) - here).abs(), toward, 1, *a)),
                _ => None,
            })
            .min_by_key(|&(d, t, k, _)| (d, t, k));
        if let Some((_, _, _, a)) = step {
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

/// The standard tactics with falling back (a policy option; [`StandardTactics`] never
/// falls back):
///
/// - **a shooter keeps away**: with an enemy within `keep_away` metres, a shooter falls back
///   from the nearest enemy at a walk, a free action (L7, L12), and shoots from where they
///   stop, at the enemy with the least Health among those offered (location rolled). When
///   the field leaves no room, or no shot is offered from there, they play the standard
///   tactics;
/// - **the losing side gives ground**: a combatant whose Health is at or below
///   `fall_back_at`, within 2 m of an enemy (in melee, L17), with an ally still standing, runs away from
///   the nearest enemy (no attack, L14), leaving the fight to the ally, until cornered at
///   the end of the field;
/// - everything else (defences included) as [`StandardTactics`].
///
/// ```
/// use dice_core::{EncounterLimits, end_law};
/// use dice_shapers_percentile::{Fight, Rules, Scene, Skirmish};
/// let mut scene = Scene::duel();
/// scene.field = Some([-40, 35]); // room behind Bram
/// let fight = Fight::with_policy(&scene, &Rules::default(), Skirmish::new(&scene, 14, 0))?;
/// let law = end_law(&fight, EncounterLimits::default())?;
/// assert!((law.ends.total() - 1.0).abs() < 1e-9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Skirmish {
    /// The side of each combatant, by index (the scene's side names).
    sides: Vec<String>,
    /// A shooter falls back from an enemy this close, in metres.
    keep_away: i32,
    /// A combatant falls back at this Health or below.
    fall_back_at: i32,
}

impl Skirmish {
    /// The tactics for `scene`: shooters keep `keep_away` metres from their enemies, and a
    /// combatant at `fall_back_at` Health or below gives ground while an ally stands (0: never).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Scene, Skirmish};
    /// let s = Skirmish::new(&Scene::duel(), 14, 5);
    /// assert_eq!((s.keep_away(), s.fall_back_at()), (14, 5));
    /// ```
    pub fn new(scene: &Scene, keep_away: i32, fall_back_at: i32) -> Self {
        Skirmish {
            sides: scene.combatants.iter().map(|c| c.side.clone()).collect(),
            keep_away,
            fall_back_at,
        }
    }

    /// How close, in metres, an enemy makes a shooter fall back.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Scene, Skirmish};
    /// assert_eq!(Skirmish::new(&Scene::duel(), 14, 0).keep_away(), 14);
    /// ```
    pub fn keep_away(&self) -> i32 {
        self.keep_away
    }

    /// The Health at or below which a combatant gives ground.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Scene, Skirmish};
    /// assert_eq!(Skirmish::new(&Scene::duel(), 14, 6).fall_back_at(), 6);
    /// ```
    pub fn fall_back_at(&self) -> i32 {
        self.fall_back_at
    }
}

impl Policy<FightState, Action> for Skirmish {
    fn choose(&self, state: &FightState, who: usize, open: &[Action]) -> Action {
        let standard = StandardTactics.choose(state, who, open);
        if !open.contains(&Action::Hold) {
            return standard; // a defence
        }
        let side = |i: usize| self.sides.get(i);
        let enemies: Vec<usize> = (0..state.health.len())
            .filter(|&e| side(e) != side(who) && !state.is_down(e))
            .collect();
        let Some(&nearest) = enemies.iter().min_by_key(|&&e| (state.distance(who, e), e)) else {
            return standard;
        };
        let health = |t: usize| state.health.get(t).copied().unwrap_or(0);
        let ally =
            (0..state.health.len()).any(|a| a != who && side(a) == side(who) && !state.is_down(a));
        let in_reach = state.distance(who, nearest) <= REACH;
        if ally && health(who) <= self.fall_back_at && in_reach {
            let run = Action::Retreat {
                from: nearest,
                pace: Movement::Run,
                shot: None,
            };
            if open.contains(&run) {
                return run;
            }
        }
        if state.distance(who, nearest) <= self.keep_away {
            let shot = open
                .iter()
                .filter_map(|a| match *a {
                    Action::Retreat {
                        from,
                        pace: Movement::Walk,
                        shot: Some((target, Aim::Rolled)),
                    } if from == nearest => Some((health(target), target, *a)),
                    _ => None,
                })
                .min_by_key(|&(h, t, _)| (h, t));
            if let Some((_, _, a)) = shot {
                return a;
            }
        }
        standard
    }
}

/// A fight in progress: every combatant's Health (0 once out of the fight), the Turn Order
/// (combatant indices, first to act first; empty until Initiative is rolled in the first
/// round; those out of the fight are dropped from it at the end of each round), every
/// combatant's position (metres along the line of the fight), and who spent their last
/// turn aiming at whom (L54).
///
/// ```
/// use dice_shapers_percentile::FightState;
/// let s = FightState { health: vec![30, 0, 12], order: vec![2, 0], position: vec![0, 0, 2], aiming: vec![] };
/// assert!(s.is_down(1));
/// assert_eq!(s.to_string(), "Health 30 / down / 12; at 0 / 0 / 2 m; order 2, 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FightState {
    /// Health by combatant; 0 is out of the fight.
    pub health: Vec<i32>,
    /// The Turn Order, empty before Initiative.
    pub order: Vec<u8>,
    /// Position by combatant, in metres along the line of the fight.
    pub position: Vec<i32>,
    /// (shooter, target) for every shooter who spent their last turn aiming (L54), in
    /// increasing order; the aim holds for their next turn only.
    pub aiming: Vec<(u8, u8)>,
}

impl FightState {
    /// Whether combatant `who` is out of the fight (or not in the scene).
    ///
    /// ```
    /// # use dice_shapers_percentile::FightState;
    /// assert!(!FightState { health: vec![1], order: vec![], position: vec![0], aiming: vec![] }.is_down(0));
    /// ```
    pub fn is_down(&self, who: usize) -> bool {
        self.health.get(who).is_none_or(|&h| h <= 0)
    }

    /// The distance in metres between combatants `a` and `b` (at most `i32::MAX`, however
    /// far apart a hand-made state puts them).
    ///
    /// ```
    /// # use dice_shapers_percentile::FightState;
    /// let s = FightState { health: vec![1, 1], order: vec![], position: vec![25, 35], aiming: vec![] };
    /// assert_eq!(s.distance(1, 0), 10);
    /// let far = FightState { position: vec![i32::MIN, i32::MAX], ..s };
    /// assert_eq!(far.distance(0, 1), i32::MAX);
    /// ```
    pub fn distance(&self, a: usize, b: usize) -> i32 {
        let at = |i: usize| self.position.get(i).copied().unwrap_or(0);
        i32::try_from(at(a).abs_diff(at(b))).unwrap_or(i32::MAX)
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
        if !self.position.is_empty() {
            f.write_str("; at ")?;
            for (i, p) in self.position.iter().enumerate() {
                if i > 0 {
                    f.write_str(" / ")?;
                }
                write!(f, "{p}")?;
            }
            f.write_str(" m")?;
        }
        for (shooter, target) in &self.aiming {
            write!(f, "; {shooter} aiming at {target}")?;
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

/// A row of numbers by combatant: inline for small scenes (no allocation per branch of the
/// law).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Numbers {
    Inline { len: u8, values: [i32; INLINE] },
    Heap(Vec<i32>),
}

/// The most combatants whose numbers are kept inline during a round.
const INLINE: usize = 8;

impl Numbers {
    fn new(values: &[i32]) -> Self {
        if values.len() <= INLINE {
            let mut v = [0; INLINE];
            v[..values.len()].copy_from_slice(values);
            Numbers::Inline {
                len: values.len() as u8,
                values: v,
            }
        } else {
            Numbers::Heap(values.to_vec())
        }
    }

    fn as_slice(&self) -> &[i32] {
        match self {
            Numbers::Inline { len, values } => &values[..usize::from(*len)],
            Numbers::Heap(v) => v,
        }
    }

    fn get_mut(&mut self, i: usize) -> Option<&mut i32> {
        match self {
            Numbers::Inline { len, values } => values[..usize::from(*len)].get_mut(i),
            Numbers::Heap(v) => v.get_mut(i),
        }
    }
}

/// The state during a round, less the round's Turn Order (which does not change within it).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Board {
    health: Numbers,
    position: Numbers,
    aiming: Vec<(u8, u8)>,
}

impl Board {
    fn new(s: &FightState) -> Board {
        Board {
            health: Numbers::new(&s.health),
            position: Numbers::new(&s.position),
            aiming: s.aiming.clone(),
        }
    }

    fn state(&self, order: &[u8]) -> FightState {
        FightState {
            health: self.health.as_slice().to_vec(),
            order: order.to_vec(),
            position: self.position.as_slice().to_vec(),
            aiming: self.aiming.clone(),
        }
    }

    /// `who` takes `damage` (0 or more); Health stops at 0.
    fn hurt(&mut self, who: usize, damage: i32) {
        if damage > 0 {
            if let Some(h) = self.health.get_mut(who) {
                *h = (*h - damage).max(0);
            }
        }
    }

    fn move_to(&mut self, who: usize, to: i32) {
        if let Some(p) = self.position.get_mut(who) {
            *p = to;
        }
    }

    /// Whatever `who` aimed at, the aim is spent with their turn.
    fn stop_aiming(&mut self, who: usize) {
        self.aiming.retain(|&(s, _)| usize::from(s) != who);
    }

    fn take_aim(&mut self, who: usize, target: usize) {
        self.stop_aiming(who);
        if let (Ok(s), Ok(t)) = (u8::try_from(who), u8::try_from(target)) {
            let at = self.aiming.partition_point(|&(x, _)| x < s);
            self.aiming.insert(at, (s, t));
        }
    }

    /// What a turn without dice does: hold, move or take aim (an attack's move is made
    /// before its dice).
    fn apply(&mut self, who: usize, plan: &Plan) {
        self.stop_aiming(who);
        match *plan {
            Plan::Move { to } => self.move_to(who, to),
            Plan::TakeAim { target } => self.take_aim(who, target),
            Plan::Attack { to, .. } => self.move_to(who, to),
            Plan::Hold => {}
        }
    }
}

/// One attack as resolved: who, whom, the defence, the sides in melee, the aim, whether it
/// ends a charge, and the shot's modifiers from the distance, cover and aiming. Its damage
/// law is cached.
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
    /// A charge's attack (+10, L40).
    charge: bool,
    /// A melee attack made while jogging (the scene's penalty, L13, PC-A12).
    jog: bool,
    /// A melee attack on an engaged opponent's rear (+20, L39).
    rear: bool,
    /// A shot's range band, the target's cover, aiming and jogging (0 in melee).
    shot: i32,
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

/// What a turn comes to once the policy has chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// Nothing (free actions only).
    Hold,
    /// Move to this position.
    Move { to: i32 },
    /// Spend the turn aiming.
    TakeAim { target: usize },
    /// Move to `to` (walking up, or a charge), then attack.
    Attack { to: i32, swing: Swing },
}

/// A whole fight (a [`dice_core::Encounter`]): the scene's combatants played round by round
/// with a [`Policy`] ([`StandardTactics`] by default).
///
/// A round:
///
/// 1. In the first round, Initiative: d10 + PA + MA for each combatant, highest first, ties
///    rolled off (L3–4, [`TurnOrder`]). The Turn Order holds for the whole fight (the chapter
///    says nothing of rolling it again).
/// 2. Each combatant still standing, in the Turn Order, takes one turn (whoever is out of
///    the fight when their turn comes does not act; damage and moves take effect at once):
///    - an attack (L16–18): a melee fighter may first walk up to the target, a free action
///      (L7, L12), and must end within reach (2 m, or the weapon's reach, L17); a shooter
///      shoots from where they stand at anyone within triple the listed range (L64, PC-A8);
///    - a charge (L14): a melee fighter in melee with nobody runs at most running speed to
///      end within reach of the target and makes one attack at +10 (L40);
///    - a jog and an attack (L13): a melee fighter jogs up to a foe within jogging speed +
///      reach and strikes at the scene's melee jogging penalty (the melee chart lists none,
///      PC-A12: offered only when the scene gives it); a shooter jogs toward the target and
///      shoots from where the jog ends at −10 (L57);
///    - a move without an attack: walk, jog, run ("cannot perform another action", L14) or
///      sprint (no charge, no attack, L15), toward an enemy, stopping within reach;
///    - falling back: a move away from an enemy at any pace, as far as the ends of the
///      field allow; a shooter falling back at a walk (free, L7) or a jog (−10, L57) may
///      shoot from where they stop;
///    - spending the round aiming (L54): the next turn's shot at the same target is at +10;
///    - or nothing.
/// 3. An attack: Physical Agility + the weapon's Aptitude against TN 50 (L18), with the
///    weapon's standing modifier. In melee: Outnumbering (+10 per combatant on the
///    outnumbering side, counting those within reach of the target and of the attacker,
///    L41, L66), ±Difference in Size (L42, L44), the charge, the jogging penalty, and +20
///    against an engaged opponent's rear (L39: the target faces the nearest enemy in melee
///    with them, the first in the scene on a tie; an attacker on their other side is
///    behind them). A shot: the range band of
///    the distance (L51–64, with a listed range), the target's cover while they stand where
///    they started (L58, L62, L63) and aiming. The defender rolls the defence the policy
///    picks (L20–22: Dodge; a Melee Aptitude in melee, or against a shot from within their
///    reach), or none against a shot they cannot see coming; under the scene's passive
///    defence their Attribute + Aptitude is deducted instead (L23–26). Resolution,
///    counter-attacks (losing an opposed melee test by 30 or more, L27–28) and the +1 damage
///    per 10 points are [`Attack`]'s, under the scene's [`Rules`].
/// 4. A hit rolls its location (or takes the called one) and does the weapon's damage +
///    Physical Strength (melee, thrown) or Physical Agility (other ranged) + the bonus +
///    the outnumbering damage bonus (L67) − the armour on that location − Physical Fortitude
///    (L69–73, [`Damage`]). A counter-attack is the defender's melee weapon, with the same
///    terms, on a location rolled on the attacker; a defender holding only a ranged weapon
///    has nothing to hit back with.
///
/// The fight ends when only one side has anyone standing; leaving the field is not an end
/// (the chapter has no rule for escaping), so a combatant who falls back to its end is
/// cornered. Not played: the sprinter's trip roll (the GM "may require" it and its effect
/// is silent, L15) and the conditions the chapter never inflicts (blind, prone, weather:
/// the weapon's standing modifier holds them).
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
    /// The ends of the line (lowest, highest).
    field: (i32, i32),
    /// The melee jogging penalty, when the scene gives one.
    melee_jog: Option<i32>,
    rules: Rules,
    turn_order: TurnOrder,
    policy: P,
    /// Whether the combatants start at more than one position (then reports show them).
    spread: bool,
    cache: Mutex<BTreeMap<Swing, Dist<(i32, i32)>>>,
}

impl<P: Clone> Clone for Fight<P> {
    fn clone(&self) -> Self {
        Fight {
            combatants: self.combatants.clone(),
            side_of: self.side_of.clone(),
            sides: self.sides.clone(),
            passive: self.passive,
            field: self.field,
            melee_jog: self.melee_jog,
            rules: self.rules,
            turn_order: self.turn_order.clone(),
            policy: self.policy.clone(),
            spread: self.spread,
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

/// `state` with `who` moved to `to`.
fn moved(state: &FightState, who: usize, to: i32) -> FightState {
    let mut s = state.clone();
    if let Some(p) = s.position.get_mut(who) {
        *p = to;
    }
    s
}

fn scene_error(reason: impl Into<String>) -> Error {
    Error::Scene {
        reason: reason.into(),
    }
}

/// Checks `0 <= value <= MAX_SCORE`.
fn check_metres(what: &'static str, value: i32) -> Result<i32, Error> {
    if (0..=MAX_SCORE).contains(&value) {
        Ok(value)
    } else {
        Err(Error::OutOfRange {
            what,
            value: i64::from(value),
            min: 0,
            max: i64::from(MAX_SCORE),
        })
    }
}

impl Fight<StandardTactics> {
    /// The fight of `scene` under `rules`, played with [`StandardTactics`].
    ///
    /// # Errors
    /// [`Error::Scene`] for fewer than two sides, more than [`MAX_FIGHTERS`] combatants, a
    /// Health below 1, a blank name or side, a listed range on a melee weapon or a reach on
    /// a shooting one; [`Error::OutOfRange`] for a number whose magnitude exceeds
    /// [`crate::MAX_SCORE`] (or a TN modifier that could), a negative speed or reach, or a
    /// listed range below 1.
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
                ("position", c.position),
            ] {
                check_score(what, v)?;
            }
            for (what, v) in [
                ("walking speed", c.speed.walk),
                ("jogging speed", c.speed.jog),
                ("running speed", c.speed.run),
                ("sprinting speed", c.speed.sprint),
            ] {
                check_metres(what, v)?;
            }
            match (c.weapon.kind.is_melee(), c.weapon.range, c.weapon.reach) {
                (true, Some(_), _) => {
                    return Err(scene_error(format!(
                        "{}'s {} is a melee weapon: a listed range is for thrown and ranged weapons",
                        c.name, c.weapon.name
                    )));
                }
                (false, _, Some(_)) => {
                    return Err(scene_error(format!(
                        "{}'s {} shoots: a reach is for melee weapons",
                        c.name, c.weapon.name
                    )));
                }
                (_, Some(r), _) if !(1..=MAX_SCORE).contains(&r) => {
                    return Err(Error::OutOfRange {
                        what: "listed range",
                        value: i64::from(r),
                        min: 1,
                        max: i64::from(MAX_SCORE),
                    });
                }
                (_, _, Some(r)) => {
                    check_metres("reach", r)?;
                }
                _ => {}
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
        let spread = scene
            .combatants
            .windows(2)
            .any(|w| w[0].position != w[1].position);
        let starts = scene.combatants.iter().map(|c| c.position);
        let span = (starts.clone().min().unwrap_or(0), starts.max().unwrap_or(0));
        let field = match scene.field {
            Some([lo, hi]) => {
                check_score("field end", lo)?;
                check_score("field end", hi)?;
                if lo > hi || lo > span.0 || hi < span.1 {
                    return Err(scene_error(format!(
                        "the field [{lo}, {hi}] must run from low to high and hold every starting position ({} to {} m)",
                        span.0, span.1
                    )));
                }
                (lo, hi)
            }
            None => span,
        };
        let melee_jog = match scene.melee_jogging_penalty {
            Some(p) => Some(check_score("melee jogging penalty", p)?),
            None => None,
        };
        let fight = Fight {
            combatants: scene.combatants.clone(),
            side_of,
            sides,
            passive: scene.passive_defence,
            field,
            melee_jog,
            rules: *rules,
            turn_order: TurnOrder::new(initiative)?,
            policy,
            spread,
            cache: Mutex::new(BTreeMap::new()),
        };
        // Every attack the fight can make must be buildable: check the extremes of the
        // modifiers (the most and fewest in the melee, a called shot or not, a charge or
        // not, jogging and from the rear or not, the worst and best range band with cover,
        // jogging and aiming).
        let worst_shot = RangeBand::Extreme.modifier()
            + Cover::Heavy.modifier()
            + RangedAction::Jogging.row_flat();
        let best_shot = RangeBand::PointBlank.modifier() + RangedAction::Aiming.row_flat();
        for a in 0..n {
            for t in 0..n {
                if fight.side_of[a] == fight.side_of[t] {
                    continue;
                }
                let big = n as u32;
                let variants: &[(bool, bool, bool, i32)] = if fight.combatants[a].fights_in_melee()
                {
                    &[
                        (false, false, false, 0),
                        (true, false, true, 0),
                        (false, true, false, 0),
                    ]
                } else {
                    &[
                        (false, false, false, worst_shot),
                        (false, false, false, best_shot),
                    ]
                };
                for sides in [(1, 1), (big, 1), (1, big)] {
                    for aim in [Aim::Rolled, Aim::Called(Location::Head)] {
                        let defences = [
                            None,
                            Some(DefenceAptitude::Dodge),
                            fight.combatants[t].weapon.parry(),
                        ];
                        for defence in defences {
                            for &(charge, jog, rear, shot) in variants {
                                if jog && fight.melee_jog.is_none() {
                                    continue;
                                }
                                fight.build(&Swing {
                                    attacker: a,
                                    target: t,
                                    defence,
                                    sides,
                                    aim,
                                    charge,
                                    jog,
                                    rear,
                                    shot,
                                })?;
                            }
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

    /// An upper bound on the states the fight can reach, from the scene alone, before any
    /// work ([`Encounter::state_bound`]): the start, and for each set of combatants still
    /// standing, their Health (the start, or from 1 to the start less the least damage an
    /// enemy's weapon can do them), Turn Orders and aims (a shooter's, at an enemy or
    /// none), times every metre of the field for each combatant who can move.
    ///
    /// Where everyone stands depends on the tactics, which can send anyone to any metre of
    /// the field, so the positions multiply the bound by the field's width once per mobile
    /// combatant. When that alone takes a fight over the default limit
    /// ([`dice_core::EncounterLimits::max_states`]) while the bound without positions is
    /// within it, as for the shipped duel (a few thousand states reached, the positions
    /// set by the tactics), the bound says nothing and is `None`: the states are counted
    /// as they are listed. Otherwise it is given, and a fight whose Health, Turn Orders
    /// and aims alone exceed the limit (two against two ogres) is refused at once.
    ///
    /// ```
    /// use dice_core::{EncounterLimits, end_law};
    /// use dice_shapers_percentile::{Fight, Rules, Scene};
    /// let mut scene = Scene::duel();
    /// assert_eq!(Fight::new(&scene, &Rules::default())?.state_bound_of(), None);
    /// // Ada and the ogre toe to toe, nobody moving far: a small field.
    /// scene.combatants.remove(1);
    /// scene.combatants[0].position = 33;
    /// scene.field = Some([33, 35]);
    /// let fight = Fight::new(&scene, &Rules::default())?;
    /// let law = end_law(&fight, EncounterLimits::default())?;
    /// assert!(fight.state_bound_of().is_some_and(|b| b >= law.states as u64));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state_bound_of(&self) -> Option<u64> {
        let limit = dice_core::EncounterLimits::default().max_states as u64;
        let (without, with) = self.bounds();
        (with <= limit || without > limit).then_some(with)
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

    /// A state for a person: each combatant's name, Health and (when the scene spreads them
    /// out) position, who is aiming at whom, and the Turn Order.
    ///
    /// ```
    /// # use dice_core::Encounter;
    /// # use dice_shapers_percentile::{Fight, Rules, Scene};
    /// let f = Fight::new(&Scene::duel(), &Rules::default())?;
    /// assert_eq!(
    ///     f.describe(&f.start()),
    ///     "Ada 30 at 25 m, Bram 24 at 0 m, the ogre 50 at 35 m; Initiative not rolled"
    /// );
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn describe(&self, state: &FightState) -> String {
        let mut out = String::new();
        let name = |i: usize| self.combatants.get(i).map_or("?", |c| c.name.as_str());
        for (i, c) in self.combatants.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let h = state.health.get(i).copied().unwrap_or(0);
            if h <= 0 {
                out.push_str(&format!("{} out of the fight", c.name));
            } else {
                out.push_str(&format!("{} {h}", c.name));
                if self.spread {
                    let at = state.position.get(i).copied().unwrap_or(0);
                    out.push_str(&format!(" at {at} m"));
                }
            }
        }
        for &(s, t) in &state.aiming {
            out.push_str(&format!(
                "; {} aiming at {}",
                name(usize::from(s)),
                name(usize::from(t))
            ));
        }
        if self.winner(state).is_some() {
            // Over: no Turn Order to show.
        } else if state.order.is_empty() {
            out.push_str("; Initiative not rolled");
        } else {
            let names: Vec<&str> = state.order.iter().map(|&i| name(usize::from(i))).collect();
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

    /// An upper bound on the states the fight can reach, from the scene alone: `(without
    /// positions, with them)`. Health only falls, and a hit or counter-attack on a
    /// combatant takes at least the least damage any enemy's weapon can do them (bonus and
    /// outnumbering only add; at least 1), so a standing combatant's Health is its start
    /// or from 1 to the start less that least damage; one out of the fight has Health 0.
    /// A state before the final one holds a Turn Order of those standing (at most k! for
    /// k standing) and, for each standing shooter, an aim at one of their enemies or none;
    /// a final state holds neither. Positions stay within the field's ends (a move stops
    /// within reach of its target, a fall back at the ends): every metre of the field for
    /// a combatant who can move, their start for one whose speeds are all 0.
    fn bounds(&self) -> (u64, u64) {
        let n = self.combatants.len();
        let health: Vec<u64> = (0..n)
            .map(|i| {
                let d = &self.combatants[i];
                let mut least = i64::MAX;
                for a in (0..n).filter(|&a| self.side_of[a] != self.side_of[i]) {
                    let c = &self.combatants[a];
                    let mut kinds = vec![c.weapon.kind];
                    if c.fights_in_melee() {
                        kinds.push(AttackKind::Melee);
                    }
                    for kind in kinds {
                        for l in Location::ALL {
                            let dealt = Damage::new(
                                kind,
                                c.weapon.damage,
                                c.physical_strength,
                                c.physical_agility,
                            )
                            .and_then(|x| x.against(d.armour.at(l), d.physical_fortitude))
                            .map_or(1, |x| x.dealt(0, &self.rules));
                            least = least.min(i64::from(dealt));
                        }
                    }
                }
                let h = i64::from(d.health);
                1 + (h - least.max(1)).max(0) as u64
            })
            .collect();
        // Per standing combatant before the end: Health times the aims it may hold.
        let weight: Vec<u64> = (0..n)
            .map(|i| {
                let aims = if self.combatants[i].fights_in_melee() {
                    1
                } else {
                    1 + (0..n)
                        .filter(|&e| self.side_of[e] != self.side_of[i])
                        .count() as u64
                };
                health[i].saturating_mul(aims)
            })
            .collect();
        // Sum over the standing sets S of |S|! times the product of their weights (the
        // elementary symmetric sums, by size); it counts the final sets too, over.
        let mut by_size = vec![0u64; n + 1];
        by_size[0] = 1;
        for (i, &w) in weight.iter().enumerate() {
            for k in (1..=i + 1).rev() {
                by_size[k] = by_size[k].saturating_add(by_size[k - 1].saturating_mul(w));
            }
        }
        let mut going = 0u64;
        let mut orders = 1u64;
        for (k, &e) in by_size.iter().enumerate().skip(1) {
            orders = orders.saturating_mul(k as u64);
            going = going.saturating_add(orders.saturating_mul(e));
        }
        // Final states: one side standing (someone on it), the rest at 0.
        let finals = (0..self.sides.len()).fold(0u64, |sum, side| {
            let ways = (0..n)
                .filter(|&i| self.side_of[i] == side)
                .fold(1u64, |w, i| w.saturating_mul(health[i] + 1));
            sum.saturating_add(ways - 1)
        });
        let width = u64::from((self.field.1 - self.field.0).unsigned_abs()) + 1;
        let places = self.combatants.iter().fold(1u64, |p, c| {
            let moves = [
                Movement::Walk,
                Movement::Jog,
                Movement::Run,
                Movement::Charge,
                Movement::Sprint,
            ]
            .iter()
            .any(|&m| c.speed.of(m) > 0);
            p.saturating_mul(if moves { width } else { 1 })
        });
        let states = going.saturating_add(finals);
        (
            states.saturating_add(1),
            states.saturating_mul(places).saturating_add(1),
        )
    }

    /// Whether `m` stands within their reach of `t` ("in melee", L17).
    fn threatens(&self, state: &FightState, m: usize, t: usize) -> bool {
        !state.is_down(m) && state.distance(m, t) <= self.combatants[m].weapon.reach()
    }

    /// Whether `who` is in melee with a standing enemy: within their reach, or within the
    /// enemy's.
    fn engaged(&self, state: &FightState, who: usize) -> bool {
        (0..self.combatants.len()).any(|e| {
            self.side_of[e] != self.side_of[who]
                && !state.is_down(e)
                && (self.threatens(state, who, e) || self.threatens(state, e, who))
        })
    }

    /// The modifier a shot by `a` at `t` takes from where they stand: the range band of the
    /// distance (with a listed range) and the target's cover while they stand where they
    /// started; `None` beyond triple the listed range (PC-A8).
    fn shot_modifier(&self, state: &FightState, a: usize, t: usize) -> Option<i32> {
        let band = match self.combatants[a].weapon.range {
            Some(listed) => {
                let d = f64::from(state.distance(a, t));
                RangeBand::from_distance(d, f64::from(listed))
                    .ok()
                    .flatten()?
                    .modifier()
            }
            None => 0,
        };
        let target = &self.combatants[t];
        let cover = match target.cover {
            Some(c) if state.position.get(t) == Some(&target.position) => c.modifier(),
            _ => 0,
        };
        Some(band + cover)
    }

    /// Where `who` ends after moving at most `speed` metres toward `t`, stopping once within
    /// reach.
    fn approach(&self, state: &FightState, who: usize, t: usize, speed: i32) -> i32 {
        let at = |i: usize| state.position.get(i).copied().unwrap_or(0);
        let (x, y) = (at(who), at(t));
        let gap = (y - x).abs() - self.combatants[who].weapon.reach();
        if gap <= 0 || speed <= 0 {
            return x;
        }
        x + speed.min(gap) * (y - x).signum()
    }

    /// Where `who` ends after moving at most `speed` metres away from `from`, stopping at
    /// the end of the field. From the same spot, away is toward the end with more room.
    fn fall_back(&self, state: &FightState, who: usize, from: usize, speed: i32) -> i32 {
        let at = |i: usize| state.position.get(i).copied().unwrap_or(0);
        let (x, y) = (at(who), at(from));
        let (lo, hi) = self.field;
        let away = match (x - y).signum() {
            0 if x - lo > hi - x => -1,
            0 => 1,
            d => d,
        };
        if speed <= 0 {
            return x;
        }
        (x + speed * away).clamp(lo.min(x), hi.max(x))
    }

    /// Whether a melee attack by `a` on `t` comes at an engaged opponent's rear (L39). On a
    /// line, `t` faces the nearest enemy in melee with them (the first in the scene on a
    /// tie); an attacker on the other side of `t` from that enemy strikes from behind. The
    /// one `t` faces never does, so a lone opponent is never attacked in the rear.
    fn strikes_from_behind(&self, state: &FightState, a: usize, t: usize) -> bool {
        let faced = (0..self.combatants.len())
            .filter(|&e| {
                self.side_of[e] != self.side_of[t]
                    && !state.is_down(e)
                    && (self.threatens(state, e, t) || self.threatens(state, t, e))
            })
            .min_by_key(|&e| (state.distance(e, t), e));
        let at = |i: usize| state.position.get(i).copied().unwrap_or(0);
        match faced {
            Some(f) if f != a => (at(a) - at(t)).signum() * (at(f) - at(t)).signum() < 0,
            _ => false,
        }
    }

    /// The actions open to `who` on their turn: hold; attack an enemy within reach after a
    /// walk (melee) or within triple the listed range (a shot); charge an enemy within
    /// running speed + reach when in melee with nobody; take aim at an enemy they could
    /// shoot; jog and attack (a melee fighter, when the scene gives the melee jogging
    /// penalty, an enemy within jogging speed + reach; a shooter, a foe they can shoot from
    /// where the jog toward them ends); walk, jog, run or sprint toward an enemy out of
    /// reach, or away from any enemy while the field leaves room (a shooter falling back at
    /// a walk or a jog may shoot from where they stop). Attacks and charges come with the
    /// location rolled or called.
    ///
    /// ```
    /// # use dice_core::Encounter;
    /// # use dice_shapers_percentile::{Action, Aim, Fight, FightState, Movement, Rules, Scene};
    /// let f = Fight::new(&Scene::duel(), &Rules::default())?;
    /// let start = FightState { order: vec![0, 1, 2], ..f.start() };
    /// // Ada, 10 m from the ogre, may charge him, but not walk up and attack.
    /// let open = f.turn_actions(&start, 0);
    /// assert!(open.contains(&Action::Charge { target: 2, aim: Aim::Rolled }));
    /// assert!(!open.contains(&Action::Attack { target: 2, aim: Aim::Rolled }));
    /// assert!(open.contains(&Action::Move { toward: 2, pace: Movement::Sprint }));
    /// // Once she stands 2 m from him, the ogre cannot reach Bram, 35 m off.
    /// let engaged = FightState { position: vec![33, 0, 35], ..start.clone() };
    /// let open = f.turn_actions(&engaged, 2);
    /// assert!(open.contains(&Action::Attack { target: 0, aim: Aim::Rolled }));
    /// assert!(!open.iter().any(|a| matches!(a, Action::Attack { target: 1, .. } | Action::Charge { .. })));
    /// let ada_down = FightState { health: vec![0, 24, 50], ..engaged };
    /// assert_eq!(f.turn_actions(&ada_down, 0), vec![]);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn turn_actions(&self, state: &FightState, who: usize) -> Vec<Action> {
        if who >= self.combatants.len() || state.is_down(who) {
            return Vec::new();
        }
        let mut open = vec![Action::Hold];
        let me = &self.combatants[who];
        let melee = me.fights_in_melee();
        let reach = me.weapon.reach();
        let engaged = self.engaged(state, who);
        let called = |open: &mut Vec<Action>, make: &dyn Fn(Aim) -> Action| {
            open.push(make(Aim::Rolled));
            for l in Location::ALL {
                open.push(make(Aim::Called(l)));
            }
        };
        for t in 0..self.combatants.len() {
            if self.side_of[t] == self.side_of[who] || state.is_down(t) {
                continue;
            }
            let d = state.distance(who, t);
            let jog = me.speed.jog;
            if melee {
                if d <= reach + me.speed.walk {
                    called(&mut open, &|aim| Action::Attack { target: t, aim });
                }
                if jog > 0 && self.melee_jog.is_some() && d <= reach + jog {
                    called(&mut open, &|aim| Action::JogAttack { target: t, aim });
                }
                if !engaged && me.speed.run > 0 && d > reach && d <= reach + me.speed.run {
                    called(&mut open, &|aim| Action::Charge { target: t, aim });
                }
            } else {
                if self.shot_modifier(state, who, t).is_some() {
                    called(&mut open, &|aim| Action::Attack { target: t, aim });
                    open.push(Action::TakeAim { target: t });
                }
                if jog > 0 {
                    let to = self.approach(state, who, t, jog);
                    if self.shot_modifier(&moved(state, who, to), who, t).is_some() {
                        called(&mut open, &|aim| Action::JogAttack { target: t, aim });
                    }
                }
            }
            if d > reach {
                for pace in [
                    Movement::Walk,
                    Movement::Jog,
                    Movement::Run,
                    Movement::Sprint,
                ] {
                    if me.speed.of(pace) > 0 {
                        open.push(Action::Move { toward: t, pace });
                    }
                }
            }
        }
        for from in 0..self.combatants.len() {
            if self.side_of[from] == self.side_of[who] || state.is_down(from) {
                continue;
            }
            for pace in [
                Movement::Walk,
                Movement::Jog,
                Movement::Run,
                Movement::Sprint,
            ] {
                let to = self.fall_back(state, who, from, me.speed.of(pace));
                if to == state.position.get(who).copied().unwrap_or(0) {
                    continue;
                }
                open.push(Action::Retreat {
                    from,
                    pace,
                    shot: None,
                });
                if melee || !matches!(pace, Movement::Walk | Movement::Jog) {
                    continue;
                }
                let there = moved(state, who, to);
                for t in 0..self.combatants.len() {
                    if self.side_of[t] != self.side_of[who]
                        && !state.is_down(t)
                        && self.shot_modifier(&there, who, t).is_some()
                    {
                        called(&mut open, &|aim| Action::Retreat {
                            from,
                            pace,
                            shot: Some((t, aim)),
                        });
                    }
                }
            }
        }
        open
    }

    /// The defences open to `target` against an attack by `attacker` from where they stand
    /// in `state`: Physical Agility + Dodge, or + the Melee Aptitude of a melee weapon in
    /// melee or against a shot from within reach, as L21–22 allow (empty: the attack is
    /// unopposed).
    ///
    /// ```
    /// # use dice_core::Encounter;
    /// # use dice_shapers_percentile::{Action, DefenceAptitude, Fight, Rules, Scene};
    /// let f = Fight::new(&Scene::duel(), &Rules::default())?;
    /// // The ogre against Ada's axe: Dodge (TN 56) or Melee (Unarmed) (TN 71).
    /// let open = f.defences(&f.start(), 0, 2);
    /// assert_eq!(open.len(), 2);
    /// assert!(open.contains(&Action::Defend { with: DefenceAptitude::MeleeUnarmed, tn: 71 }));
    /// // Against Bram's arrow from 35 m, only Dodge.
    /// assert_eq!(f.defences(&f.start(), 1, 2), vec![Action::Defend { with: DefenceAptitude::Dodge, tn: 56 }]);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn defences(&self, state: &FightState, attacker: usize, target: usize) -> Vec<Action> {
        let (Some(a), Some(d)) = (self.combatants.get(attacker), self.combatants.get(target))
        else {
            return Vec::new();
        };
        let sizes = Some(Sizes {
            attacker: a.size,
            target: d.size,
        });
        let kind = a.weapon.kind;
        let close = self.threatens(state, target, attacker);
        let mut open = Vec::new();
        let mut offer = |with: DefenceAptitude, aptitude: i32| {
            if defence_allowed(with, kind, d.sees_shots_coming, close, sizes) {
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

    /// The combatants in the melee on each side of a melee attack by `attacker` on `target`:
    /// those of the attacker's side within reach of the target, and those of the target's
    /// side within reach of the attacker.
    fn melee_sides(&self, state: &FightState, attacker: usize, target: usize) -> (u32, u32) {
        if !self.combatants[attacker].fights_in_melee() {
            return (1, 1);
        }
        let count = |side: usize, near: usize| {
            (0..self.combatants.len())
                .filter(|&k| self.side_of[k] == side && self.threatens(state, k, near))
                .count()
                .max(1) as u32
        };
        (
            count(self.side_of[attacker], target),
            count(self.side_of[target], attacker),
        )
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
                charging: s.charge,
                rear_of_engaged_opponent: s.rear,
                jogging: if s.jog { self.melee_jog } else { None },
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
            check_score("modifier", a.weapon.modifier + s.aim.modifier() + s.shot)?
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
    fn roll_damage<R: Rng + ?Sized>(
        &self,
        s: &Swing,
        rng: &mut R,
        told: Option<&mut Vec<String>>,
    ) -> (i32, i32) {
        let Ok(b) = self.build(s) else {
            return (0, 0);
        };
        let exchange = b.attack.roll_exchange(rng);
        let (dealt, place) = match exchange.outcome {
            AttackOutcome::Hit { bonus } => {
                let l = s.aim.roll(rng);
                ((b.hit[l as usize].dealt(bonus, &self.rules), 0), Some(l))
            }
            AttackOutcome::CounterAttack { bonus } => match &b.counter {
                Some(c) => {
                    let l = HitLocation.roll(rng);
                    ((0, c[l as usize].dealt(bonus, &self.rules)), Some(l))
                }
                None => ((0, 0), None),
            },
            AttackOutcome::Miss => ((0, 0), None),
        };
        if let Some(t) = told {
            let name = |k: usize| self.combatants.get(k).map_or("?", |c| c.name.as_str());
            let mut line = format!(
                "{} attacks {}: {exchange}",
                name(s.attacker),
                name(s.target)
            );
            if let Some(l) = place {
                let (who, d) = if dealt.0 > 0 || dealt.1 == 0 {
                    (s.target, dealt.0)
                } else {
                    (s.attacker, dealt.1)
                };
                line.push_str(&format!("; {} hit in the {l} for {d} Health", name(who)));
            } else if matches!(exchange.outcome, AttackOutcome::CounterAttack { .. }) {
                line.push_str(&format!(
                    "; {} does not fight in melee, so no counter-attack",
                    name(s.target)
                ));
            }
            line.push('.');
            t.push(line);
        }
        dealt
    }

    /// The winning side once only one side has anyone standing.
    fn winner(&self, state: &FightState) -> Option<usize> {
        let mut standing = (0..self.combatants.len())
            .filter(|&i| !state.is_down(i))
            .map(|i| self.side_of[i]);
        let first = standing.next()?;
        standing.all(|s| s == first).then_some(first)
    }

    /// Drops those out of the fight from the Turn Order, and aims at or by them; a final
    /// state keeps no Turn Order and no aim.
    fn settle(&self, mut state: FightState) -> FightState {
        if self.winner(&state).is_some() {
            state.order.clear();
            state.aiming.clear();
        } else {
            let h = &state.health;
            let up = |i: u8| h.get(usize::from(i)).is_some_and(|&x| x > 0);
            state.order.retain(|&i| up(i));
            state.aiming.retain(|&(s, t)| up(s) && up(t));
        }
        state
    }
}

impl<P: Policy<FightState, Action>> Fight<P> {
    /// One round with the caller's RNG, telling it when `told` is given (the same draws).
    fn play_told<R: Rng + ?Sized>(
        &self,
        state: &FightState,
        rng: &mut R,
        mut told: Option<&mut Vec<String>>,
    ) -> FightState {
        let name = |k: usize| self.combatants.get(k).map_or("?", |c| c.name.as_str());
        let mut order = state.order.clone();
        if order.is_empty() {
            order = self
                .turn_order
                .roll(rng)
                .0
                .iter()
                .map(|&i| i as u8)
                .collect();
            if let Some(t) = told.as_deref_mut() {
                let names: Vec<&str> = order.iter().map(|&i| name(usize::from(i))).collect();
                t.push(format!(
                    "Initiative (d10 + PA + MA, ties rolled off): {}.",
                    names.join(", ")
                ));
            }
        }
        let mut board = Board::new(state);
        for &who in &order {
            let who = usize::from(who);
            let plan = self.plan(&board.state(&order), who);
            board.apply(who, &plan);
            if let Some(t) = told.as_deref_mut() {
                match plan {
                    Plan::Move { to } => t.push(format!("{} moves to {to} m.", name(who))),
                    Plan::TakeAim { target } => {
                        t.push(format!("{} takes aim at {}.", name(who), name(target)));
                    }
                    Plan::Attack { to, .. } if state.position.get(who) != Some(&to) => {
                        t.push(format!("{} moves to {to} m.", name(who)));
                    }
                    _ => {}
                }
            }
            if let Plan::Attack { swing, .. } = plan {
                let (to_target, to_attacker) = self.roll_damage(&swing, rng, told.as_deref_mut());
                board.hurt(swing.target, to_target);
                board.hurt(swing.attacker, to_attacker);
                if let Some(t) = told.as_deref_mut() {
                    let after = board.state(&order);
                    for k in [swing.target, swing.attacker] {
                        if (to_target > 0 && k == swing.target)
                            || (to_attacker > 0 && k == swing.attacker)
                        {
                            let h = after.health.get(k).copied().unwrap_or(0);
                            t.push(if h <= 0 {
                                format!("  {} is out of the fight.", name(k))
                            } else {
                                format!("  {} has {h} Health left.", name(k))
                            });
                        }
                    }
                }
            }
        }
        self.settle(board.state(&order))
    }

    /// What `who`'s turn in `state` comes to: the policy's choice among
    /// [`Fight::turn_actions`] (a choice not offered is no action), and for an attack the
    /// move before it and the target's defence among [`Fight::defences`].
    fn plan(&self, state: &FightState, who: usize) -> Plan {
        if state.is_down(who) || self.winner(state).is_some() {
            return Plan::Hold;
        }
        let open = self.turn_actions(state, who);
        let choice = self.policy.choose(state, who, &open);
        if !open.contains(&choice) {
            return Plan::Hold;
        }
        let speed = self.combatants[who].speed;
        match choice {
            Action::Attack { target, aim } => {
                self.attack_plan(state, who, target, aim, Movement::Walk)
            }
            Action::JogAttack { target, aim } => {
                self.attack_plan(state, who, target, aim, Movement::Jog)
            }
            Action::Charge { target, aim } => {
                self.attack_plan(state, who, target, aim, Movement::Charge)
            }
            Action::Move { toward, pace } => Plan::Move {
                to: self.approach(state, who, toward, speed.of(pace)),
            },
            Action::Retreat { from, pace, shot } => {
                let to = self.fall_back(state, who, from, speed.of(pace));
                match shot {
                    Some((target, aim)) => {
                        self.swing_from(state, who, to, target, aim, pace == Movement::Jog, false)
                    }
                    None => Plan::Move { to },
                }
            }
            Action::TakeAim { target } => Plan::TakeAim { target },
            Action::Hold | Action::Defend { .. } => Plan::Hold,
        }
    }

    /// An attack by `who` on `target` after a walk (`Movement::Walk`: a melee fighter
    /// walks up, a shooter stands), a jog toward them or a charge: the move first, then the
    /// swing as it stands after the move.
    fn attack_plan(
        &self,
        state: &FightState,
        who: usize,
        target: usize,
        aim: Aim,
        pace: Movement,
    ) -> Plan {
        let me = &self.combatants[who];
        let here = state.position.get(who).copied().unwrap_or(0);
        let to = if me.fights_in_melee() || pace == Movement::Jog {
            self.approach(state, who, target, me.speed.of(pace))
        } else {
            here
        };
        let charge = pace == Movement::Charge;
        self.swing_from(state, who, to, target, aim, pace == Movement::Jog, charge)
    }

    /// The attack by `who` on `target` once `who` has moved to `to`, jogging or charging.
    #[allow(clippy::too_many_arguments)]
    fn swing_from(
        &self,
        state: &FightState,
        who: usize,
        to: i32,
        target: usize,
        aim: Aim,
        jog: bool,
        charge: bool,
    ) -> Plan {
        let melee = self.combatants[who].fights_in_melee();
        let moved = moved(state, who, to);
        let shot = if melee {
            0
        } else {
            let aimed = state
                .aiming
                .iter()
                .any(|&(s, t)| usize::from(s) == who && usize::from(t) == target);
            self.shot_modifier(&moved, who, target).unwrap_or(0)
                + if aimed {
                    RangedAction::Aiming.row_flat()
                } else {
                    0
                }
                + if jog {
                    RangedAction::Jogging.row_flat()
                } else {
                    0
                }
        };
        let defences = self.defences(&moved, who, target);
        let defence = if defences.is_empty() {
            None
        } else {
            match self.policy.choose(&moved, target, &defences) {
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
        Plan::Attack {
            to,
            swing: Swing {
                attacker: who,
                target,
                defence,
                sides: self.melee_sides(&moved, who, target),
                aim,
                charge,
                jog: jog && melee,
                rear: melee && self.strikes_from_behind(&moved, who, target),
                shot,
            },
        }
    }

    /// The exact law of the board after `who`'s turn (the Turn Order is the round's).
    fn turn_law(&self, board: &Board, order: &[u8], who: usize) -> Result<Dist<Board>, Error> {
        // The policy sees the whole state; the Turn Order does not change within a round.
        let state = board.state(order);
        let plan = self.plan(&state, who);
        let mut next = board.clone();
        next.apply(who, &plan);
        let Plan::Attack { swing, .. } = plan else {
            return Ok(Dist::certain(next));
        };
        self.with_damage_law(&swing, |law| {
            law.map(|&(to_target, to_attacker)| {
                let mut b = next.clone();
                b.hurt(swing.target, to_target);
                b.hurt(swing.attacker, to_attacker);
                b
            })
        })
    }

    /// The exact law of the rest of a round whose Turn Order is set.
    fn turns_law(&self, state: &FightState) -> Result<Dist<FightState>, Error> {
        let mut law = Dist::certain(Board::new(state));
        for &who in &state.order {
            law = law.and_then(|b| self.turn_law(b, &state.order, usize::from(who)))?;
        }
        Ok(law.map(|b| self.settle(b.state(&state.order))))
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
            position: self.combatants.iter().map(|c| c.position).collect(),
            aiming: Vec::new(),
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
        self.play_told(state, rng, None)
    }

    /// As [`Encounter::play_round`], telling the Turn Order when it is rolled, each move,
    /// aim and attack (the exchange's rolls and result, where a hit lands and the Health
    /// it takes), and who is out of the fight.
    fn play_round_told<R: Rng + ?Sized>(
        &self,
        state: &FightState,
        rng: &mut R,
        told: &mut Vec<String>,
    ) -> FightState {
        self.play_told(state, rng, Some(told))
    }

    /// An upper bound from the scene alone ([`Fight::state_bound_of`]).
    fn state_bound(&self) -> Option<u64> {
        self.state_bound_of()
    }

    /// Every combatant's name, in the scene's order.
    fn health_names(&self) -> Vec<String> {
        self.combatants.iter().map(|c| c.name.clone()).collect()
    }

    /// Every combatant's Health (0 when out of the fight).
    fn health(&self, state: &FightState) -> Vec<i64> {
        state.health.iter().map(|&h| i64::from(h)).collect()
    }
}
