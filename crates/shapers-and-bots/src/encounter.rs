//! Whole fights (issue 16): a [`dice_core::Encounter`] that plays the combat chapter
//! (L318–370) and the injury rules (L372–433) turn by turn, and gives the exact odds of
//! which side is left standing.
//!
//! - [`Combatant`]: a character in a fight, built from its [`Characteristics`] (hit points
//!   from Size and Fitness, L374), its weapon, armor and the skills it attacks and defends
//!   with.
//! - [`FightEncounter`]: the fight. One round of the engine is one turn of the rulebook
//!   ("everything happens in turns that are 5 seconds long", L322–323): every conscious
//!   fighter acts in order of Fitness, ties rolled once for the whole fight (L324–328), with
//!   two actions each (L330–331); a target may defend with one of their actions or borrow one
//!   from their next turn (L351, L362–363); an attack is undefended (against Size),
//!   defended (a contest, ties to the attacker) or a sneak attack (L348–370); a hit does its
//!   weapon's damage streak (L389–412), and a fighter at zero hit points is unconscious and
//!   takes no more part (L432).
//! - [`FightState`]: what the rulebook tracks between turns, with no turn counter: hit
//!   points, the actions each fighter starts the next turn with (fewer when they borrowed),
//!   whether an archer has an arrow ready, whether a fighter with a hand weapon has closed
//!   in, whether a hidden fighter has yet to strike, and the turn order once rolled.
//! - [`Choice`], [`Moment`] and [`RulebookTactics`]: the decisions a fighter makes (what to
//!   do with an action; whether to defend) go through a [`dice_core::Policy`]; the default
//!   plays as the rulebook describes a fight.
//! - [`Scene`]: a fight described in the game's terms (serde, for scene files).
//!
//! The law of a turn is exact: every attack's law is [`Attack`]'s exact law (from
//! dice-core's `Sum`), every hit's damage is [`Damage`]'s exact streak law (hit points stop
//! at zero, SB-A17, so the damage a hit does is capped at what the target has left), chained
//! with [`Dist::and_then`]. Nothing is approximated; position is reduced to one fact per
//! fighter (has a fighter with a hand weapon closed in with the enemy?), which is exact for
//! two fighters and a simplification for more (see [`Combatant::reach`]).
//!
//! ```
//! use dice_core::{EncounterLimits, end_law};
//! use dice_shapers_and_bots::{Armor, Combatant, FightEncounter, Level, Reach, Rules, Species, WeaponClass};
//!
//! let rules = Rules::default();
//! // Dashwood the parrot, armored, with her bow; Slumpy the elephant (Low Fitness) with his
//! // spiked club (L378–426).
//! let dashwood = Combatant::new("Dashwood", Species::Parrot.characteristics(), WeaponClass::Large)
//!     .armor(Armor::Accustomed)
//!     .reach(Reach::Ranged)
//!     .quiver(true);
//! let mut elephant = Species::Elephant.characteristics();
//! elephant.fitness = Level::Low;
//! let slumpy = Combatant::new("Slumpy", elephant, WeaponClass::Large);
//! let fight = FightEncounter::new(vec![dashwood, slumpy], true, &rules)?;
//! let law = end_law(&fight, EncounterLimits::default())?;
//! assert!((law.ends.total() - 1.0).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use dice_core::{Die, Dist, Encounter, Exact, Keep, Policy, Pool, Rng, Roll, Sum};

use crate::character::{Characteristics, Size};
use crate::combat::{Action, Armor, Attack, AttackKind, Initiative, Surprise, TurnActions};
use crate::error::Error;
use crate::injury::{Damage, WeaponClass};
use crate::level::{Level, Rating};
use crate::rules::Rules;
use crate::score::Contestant;

/// The most fighters in one [`FightEncounter`].
///
/// ```
/// assert_eq!(dice_shapers_and_bots::MAX_FIGHTERS, 8);
/// ```
pub const MAX_FIGHTERS: usize = 8;

// ------------------------------------------------------------------------------ combatants

/// How far a fighter's weapon reaches.
///
/// ```
/// use dice_shapers_and_bots::Reach;
/// assert_eq!(Reach::default(), Reach::Melee);
/// assert_eq!(Reach::Ranged.to_string(), "ranged");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Reach {
    /// A hand weapon, fists or horns: the fighter must be next to the target. When the fight
    /// starts with the sides apart, the fighter first has to "Run from one place to another"
    /// (L338), as "Slumpy closes in" (L421).
    #[default]
    Melee,
    /// A bow, a crossbow, a blaster: it hits from where the fighter stands.
    Ranged,
}

impl fmt::Display for Reach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reach::Melee => "melee",
            Reach::Ranged => "ranged",
        })
    }
}

/// A character in a fight: their characteristics (Size for the undefended attack target
/// and, with Fitness, hit points, L353–355, L374; Fitness for the turn order, L324–325),
/// their weapon, armor, and the skills they attack and defend with.
///
/// The rulebook does not say which skill attacks (SB-A20) or defends (SB-A8): by default
/// both are the character's Fitness, the starting level of the Weapon skills (L278),
/// Brawling (L245) and Acrobatics (L243) alike; [`Combatant::attack`] and
/// [`Combatant::defense`] set trained skills. Armor's penalty applies to both (L428–430).
///
/// ```
/// use dice_shapers_and_bots::{Combatant, Level, Rating, Species, WeaponClass};
/// let madica = Combatant::new("Madica", Species::Fox.characteristics(), WeaponClass::Large)
///     .attack(Rating::Rated(Level::High)); // her Quarterstaff (L504)
/// assert_eq!(madica.name(), "Madica");
/// assert_eq!(madica.side_name(), "Madica"); // alone on her side unless told otherwise
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combatant {
    name: String,
    side: String,
    characteristics: Characteristics,
    weapon: WeaponClass,
    armor: Armor,
    attack: Option<Rating>,
    defense: Option<Rating>,
    reach: Reach,
    quiver: bool,
    loaded: bool,
    surprise: Option<Surprise>,
}

impl Combatant {
    /// A fighter named `name` (on a side of their own) with `characteristics`, fighting with
    /// a `weapon`: no armor, attack and defense at Fitness, a hand weapon, no quiver, seen.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Combatant, Species, WeaponClass};
    /// let bear = Combatant::new("Bruno", Species::Bear.characteristics(), WeaponClass::PunchOrKick);
    /// assert_eq!(bear.weapon(), WeaponClass::PunchOrKick);
    /// ```
    pub fn new(
        name: impl Into<String>,
        characteristics: Characteristics,
        weapon: WeaponClass,
    ) -> Self {
        let name = name.into();
        Combatant {
            side: name.clone(),
            name,
            characteristics,
            weapon,
            armor: Armor::Unarmored,
            attack: None,
            defense: None,
            reach: Reach::Melee,
            quiver: false,
            loaded: true,
            surprise: None,
        }
    }

    /// Puts the fighter on `side`: a fight ends when one side is left standing.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// let c = Combatant::new("Rufus", Characteristics::default(), WeaponClass::Small).side("crew");
    /// assert_eq!(c.side_name(), "crew");
    /// ```
    pub fn side(mut self, side: impl Into<String>) -> Self {
        self.side = side.into();
        self
    }

    /// Armor worn (L403–407, L428–430).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Armor, Characteristics, Combatant, WeaponClass};
    /// let c = Combatant::new("Dashwood", Characteristics::default(), WeaponClass::Large)
    ///     .armor(Armor::Accustomed);
    /// assert_eq!(c.armor_worn(), Armor::Accustomed);
    /// ```
    pub fn armor(mut self, armor: Armor) -> Self {
        self.armor = armor;
        self
    }

    /// The skill level the fighter attacks with (their Weapon specialty, Brawling or
    /// Throwing, SB-A20); `Rating::NoRating` attacks by fluke (L113–119, undefended only
    /// unless [`Rules::fluke_in_contests`]).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, Level, Rating, WeaponClass};
    /// let c = Combatant::new("Ann", Characteristics::default(), WeaponClass::Small)
    ///     .attack(Rating::Rated(Level::High));
    /// assert_eq!(c.attack_skill(), Rating::Rated(Level::High));
    /// ```
    pub fn attack(mut self, skill: Rating) -> Self {
        self.attack = Some(skill);
        self
    }

    /// The skill level the fighter defends with (SB-A8).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, Level, Rating, WeaponClass};
    /// let c = Combatant::new("Ann", Characteristics::default(), WeaponClass::Small)
    ///     .defense(Rating::Rated(Level::Low));
    /// assert_eq!(c.defense_skill(), Rating::Rated(Level::Low));
    /// ```
    pub fn defense(mut self, skill: Rating) -> Self {
        self.defense = Some(skill);
        self
    }

    /// How far the weapon reaches. With several fighters a side, a fighter with a hand
    /// weapon who has closed in can reach every enemy (positions are not tracked further).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, Reach, WeaponClass};
    /// let c = Combatant::new("Ann", Characteristics::default(), WeaponClass::Large).reach(Reach::Ranged);
    /// assert_eq!(c.weapon_reach(), Reach::Ranged);
    /// ```
    pub fn reach(mut self, reach: Reach) -> Self {
        self.reach = reach;
        self
    }

    /// A weapon shot from a quiver: "getting another arrow from a quiver counts as one
    /// action (so archers can fire one shot per turn)" (L341–343). The fighter starts with
    /// an arrow ready; [`Combatant::loaded`] changes that.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// let c = Combatant::new("Ann", Characteristics::default(), WeaponClass::Large).quiver(true);
    /// assert!(c.uses_quiver());
    /// ```
    pub fn quiver(mut self, quiver: bool) -> Self {
        self.quiver = quiver;
        self
    }

    /// Whether a fighter with a quiver starts with an arrow ready (default `true`).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// let c = Combatant::new("Ann", Characteristics::default(), WeaponClass::Large)
    ///     .quiver(true)
    ///     .loaded(false);
    /// assert!(!c.starts_loaded());
    /// ```
    pub fn loaded(mut self, loaded: bool) -> Self {
        self.loaded = loaded;
        self
    }

    /// The fighter starts unseen: their first attack is a sneak attack, which the target
    /// cannot defend, with the Director's surprise bonus (L367–370).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, Surprise, WeaponClass};
    /// let c = Combatant::new("Ann", Characteristics::default(), WeaponClass::Small)
    ///     .sneak(Surprise::PlusOne);
    /// assert_eq!(c.sneak_attack(), Some(Surprise::PlusOne));
    /// ```
    pub fn sneak(mut self, surprise: Surprise) -> Self {
        self.surprise = Some(surprise);
        self
    }

    /// The name.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// assert_eq!(Combatant::new("Zed", Characteristics::default(), WeaponClass::Small).name(), "Zed");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The side's name.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// assert_eq!(Combatant::new("Zed", Characteristics::default(), WeaponClass::Small).side_name(), "Zed");
    /// ```
    pub fn side_name(&self) -> &str {
        &self.side
    }

    /// The characteristics.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// let c = Combatant::new("Zed", Characteristics::default(), WeaponClass::Small);
    /// assert_eq!(c.characteristics(), &Characteristics::default());
    /// ```
    pub fn characteristics(&self) -> &Characteristics {
        &self.characteristics
    }

    /// The weapon class.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// assert_eq!(Combatant::new("Zed", Characteristics::default(), WeaponClass::Small).weapon(), WeaponClass::Small);
    /// ```
    pub fn weapon(&self) -> WeaponClass {
        self.weapon
    }

    /// The armor worn.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Armor, Characteristics, Combatant, WeaponClass};
    /// assert_eq!(Combatant::new("Zed", Characteristics::default(), WeaponClass::Small).armor_worn(), Armor::Unarmored);
    /// ```
    pub fn armor_worn(&self) -> Armor {
        self.armor
    }

    /// The attack skill: as set, or Fitness.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Combatant, Level, Rating, Species, WeaponClass};
    /// let c = Combatant::new("Polly", Species::Parrot.characteristics(), WeaponClass::Small);
    /// assert_eq!(c.attack_skill(), Rating::Rated(Level::VeryHigh));
    /// ```
    pub fn attack_skill(&self) -> Rating {
        self.attack
            .unwrap_or(Rating::Rated(self.characteristics.fitness))
    }

    /// The defense skill: as set, or Fitness.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Combatant, Level, Rating, Species, WeaponClass};
    /// let c = Combatant::new("Tortuga", Species::Turtle.characteristics(), WeaponClass::Small);
    /// assert_eq!(c.defense_skill(), Rating::Rated(Level::Low));
    /// ```
    pub fn defense_skill(&self) -> Rating {
        self.defense
            .unwrap_or(Rating::Rated(self.characteristics.fitness))
    }

    /// The weapon's reach.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, Reach, WeaponClass};
    /// assert_eq!(Combatant::new("Zed", Characteristics::default(), WeaponClass::Small).weapon_reach(), Reach::Melee);
    /// ```
    pub fn weapon_reach(&self) -> Reach {
        self.reach
    }

    /// Whether the weapon needs an arrow from the quiver before each shot.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// assert!(!Combatant::new("Zed", Characteristics::default(), WeaponClass::Small).uses_quiver());
    /// ```
    pub fn uses_quiver(&self) -> bool {
        self.quiver
    }

    /// Whether an arrow is ready at the start (always, without a quiver).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// assert!(Combatant::new("Zed", Characteristics::default(), WeaponClass::Small).starts_loaded());
    /// ```
    pub fn starts_loaded(&self) -> bool {
        self.loaded || !self.quiver
    }

    /// The surprise bonus of the opening sneak attack, when the fighter starts unseen.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, WeaponClass};
    /// assert_eq!(Combatant::new("Zed", Characteristics::default(), WeaponClass::Small).sneak_attack(), None);
    /// ```
    pub fn sneak_attack(&self) -> Option<Surprise> {
        self.surprise
    }

    /// Full hit points ([`Characteristics::hit_points`], L374).
    ///
    /// # Errors
    /// [`Error::SizeForHitPointsRequired`] under the explicit SB-A7 ruling; [`Error::HitPoints`]
    /// below 1.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Combatant, Rules, Species, WeaponClass};
    /// let c = Combatant::new("Dashwood", Species::Parrot.characteristics(), WeaponClass::Large);
    /// assert_eq!(c.hit_points(&Rules::default())?, 5);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn hit_points(&self, rules: &Rules) -> Result<u8, Error> {
        let hp = self.characteristics.hit_points(rules)?;
        if hp < 1 {
            return Err(Error::HitPoints { max: hp });
        }
        u8::try_from(hp).map_err(|_| Error::HitPoints { max: hp })
    }
}

impl fmt::Display for Combatant {
    /// `Dashwood (Dashwood): large weapon, ranged, quiver, armor (used to it)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.name, self.side, self.weapon)?;
        write!(f, ", {}", self.reach)?;
        if self.quiver {
            f.write_str(", quiver")?;
        }
        write!(f, ", {}", self.armor)?;
        write!(
            f,
            ", attack {}, defense {}",
            self.attack_skill(),
            self.defense_skill()
        )?;
        if let Some(s) = self.surprise {
            write!(f, ", unseen ({s})")?;
        }
        Ok(())
    }
}

// ------------------------------------------------------------------------------ state

/// One fighter between turns.
///
/// ```
/// use dice_shapers_and_bots::{FightState, FighterState};
/// let down = FighterState::down();
/// assert!(!down.is_conscious());
/// assert_eq!(down.hit_points(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FighterState {
    hit_points: u8,
    actions: TurnActions,
    loaded: bool,
    closed_in: bool,
    unseen: bool,
}

impl FighterState {
    /// An unconscious fighter (everything else is forgotten: they take no more part, L432).
    ///
    /// ```
    /// assert!(!dice_shapers_and_bots::FighterState::down().is_conscious());
    /// ```
    pub const fn down() -> Self {
        FighterState {
            hit_points: 0,
            actions: TurnActions::new(),
            loaded: false,
            closed_in: false,
            unseen: false,
        }
    }

    /// Hit points left.
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::FighterState::down().hit_points(), 0);
    /// ```
    pub const fn hit_points(&self) -> u8 {
        self.hit_points
    }

    /// Above zero hit points (L432).
    ///
    /// ```
    /// assert!(!dice_shapers_and_bots::FighterState::down().is_conscious());
    /// ```
    pub const fn is_conscious(&self) -> bool {
        self.hit_points > 0
    }

    /// The actions the fighter has when the next turn starts: two, less what they borrowed
    /// to defend (L362–363).
    ///
    /// ```
    /// assert_eq!(dice_shapers_and_bots::FighterState::down().actions().left(), 2);
    /// ```
    pub const fn actions(&self) -> TurnActions {
        self.actions
    }

    /// An arrow is ready (always true without a quiver).
    ///
    /// ```
    /// assert!(!dice_shapers_and_bots::FighterState::down().is_loaded());
    /// ```
    pub const fn is_loaded(&self) -> bool {
        self.loaded
    }

    /// Close enough to the enemy to use a hand weapon (always true for a ranged weapon, or
    /// when the fight starts at close quarters).
    ///
    /// ```
    /// assert!(!dice_shapers_and_bots::FighterState::down().is_closed_in());
    /// ```
    pub const fn is_closed_in(&self) -> bool {
        self.closed_in
    }

    /// Not seen yet: the next attack is a sneak attack (L367–370).
    ///
    /// ```
    /// assert!(!dice_shapers_and_bots::FighterState::down().is_unseen());
    /// ```
    pub const fn is_unseen(&self) -> bool {
        self.unseen
    }
}

/// `1 action next turn`, `0 actions next turn, 1 more owed`.
fn next_turn(a: TurnActions) -> String {
    let s = if a.left() == 1 { "" } else { "s" };
    let mut t = format!("{} action{s} next turn", a.left());
    if a.owed() > 0 {
        t.push_str(&format!(", {} more owed", a.owed()));
    }
    t
}

impl fmt::Display for FighterState {
    /// `5 HP`, `3 HP (1 action next turn), no arrow ready`, `unconscious`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_conscious() {
            return f.write_str("unconscious");
        }
        write!(f, "{} HP", self.hit_points)?;
        if self.actions.left() < TurnActions::PER_TURN || self.actions.owed() > 0 {
            write!(f, " ({})", next_turn(self.actions))?;
        }
        if !self.loaded {
            f.write_str(", no arrow ready")?;
        }
        if !self.closed_in {
            f.write_str(", out of reach")?;
        }
        if self.unseen {
            f.write_str(", unseen")?;
        }
        Ok(())
    }
}

/// A fight between turns: every fighter's [`FighterState`], and the turn order once rolled
/// (empty until then: fighters tied on Fitness roll once, in the first turn, L326–328).
/// There is no turn counter, so states repeat and the exact law stays small.
///
/// ```
/// use dice_shapers_and_bots::{Combatant, FightEncounter, Rules, Species, WeaponClass};
/// use dice_core::Encounter;
/// let a = Combatant::new("A", Species::Zebra.characteristics(), WeaponClass::Small);
/// let b = Combatant::new("B", Species::Goat.characteristics(), WeaponClass::Small);
/// let fight = FightEncounter::new(vec![a, b], false, &Rules::default())?;
/// let start = fight.start();
/// assert!(start.order().is_empty()); // both Average Fitness: rolled in the first turn
/// assert_eq!(start.fighters()[0].hit_points(), 7);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FightState {
    order: Vec<u8>,
    fighters: Vec<FighterState>,
}

impl FightState {
    /// The turn order (fighter indices, first to act first); empty before it is rolled.
    ///
    /// ```
    /// # use dice_shapers_and_bots::{Combatant, FightEncounter, Rules, Species, WeaponClass};
    /// # use dice_core::Encounter;
    /// let a = Combatant::new("A", Species::Parrot.characteristics(), WeaponClass::Small);
    /// let b = Combatant::new("B", Species::Turtle.characteristics(), WeaponClass::Small);
    /// let fight = FightEncounter::new(vec![b, a], false, &Rules::default())?;
    /// assert_eq!(fight.start().order(), &[1, 0]); // the parrot's Very High Fitness first
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn order(&self) -> &[u8] {
        &self.order
    }

    /// Every fighter, in the order they were listed.
    ///
    /// ```
    /// # use dice_shapers_and_bots::{Combatant, FightEncounter, Rules, Species, WeaponClass};
    /// # use dice_core::Encounter;
    /// let a = Combatant::new("A", Species::Parrot.characteristics(), WeaponClass::Small);
    /// let b = Combatant::new("B", Species::Turtle.characteristics(), WeaponClass::Small);
    /// let fight = FightEncounter::new(vec![a, b], false, &Rules::default())?;
    /// assert_eq!(fight.start().fighters().len(), 2);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn fighters(&self) -> &[FighterState] {
        &self.fighters
    }
}

impl fmt::Display for FightState {
    /// `#0 5 HP; #1 10 HP` (names come from [`FightEncounter::describe`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.fighters.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "#{i} {s}")?;
        }
        Ok(())
    }
}

/// How a fight ends: the side left standing (every fighter of the other sides is
/// unconscious, L432).
///
/// ```
/// use dice_shapers_and_bots::Victory;
/// let v = Victory { side: "Dashwood".to_owned() };
/// assert_eq!(v.to_string(), "Dashwood wins");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Victory {
    /// The side's name.
    pub side: String,
}

impl fmt::Display for Victory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} wins", self.side)
    }
}

// ------------------------------------------------------------------------------ choices

/// What a fighter does with an action, or whether they defend.
///
/// In their turn a fighter chooses among [`Choice::Attack`], [`Choice::Reload`],
/// [`Choice::Run`] and [`Choice::EndTurn`]; when attacked (and not by a sneak attack), among
/// [`Choice::Defend`] and [`Choice::NoDefense`]. Only the choices offered can be taken: any
/// other answer counts as the last one offered (ending the turn, or not defending).
///
/// ```
/// use dice_shapers_and_bots::{Action, Choice};
/// assert_eq!(Choice::Attack(1).action(), Some(Action::Attack));
/// assert_eq!(Choice::EndTurn.action(), None);
/// assert_eq!(Choice::Attack(1).to_string(), "attack fighter 1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Choice {
    /// "Attack someone" (L333): the fighter with this index.
    Attack(usize),
    /// Take another arrow from the quiver (L341–343).
    Reload,
    /// "Run from one place to another" (L338): close in with the enemy.
    Run,
    /// Stop acting this turn (any actions left are lost).
    EndTurn,
    /// "Defend against an attack" (L334): one of this turn's actions, or one borrowed from
    /// the next (L362–363).
    Defend,
    /// Let the attack come against Size (L352–355).
    NoDefense,
}

impl Choice {
    /// The action it takes, if any.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Action, Choice};
    /// assert_eq!(Choice::Defend.action(), Some(Action::Defend));
    /// ```
    pub const fn action(self) -> Option<Action> {
        match self {
            Choice::Attack(_) => Some(Action::Attack),
            Choice::Reload => Some(Action::Reload),
            Choice::Run => Some(Action::Run),
            Choice::Defend => Some(Action::Defend),
            Choice::EndTurn | Choice::NoDefense => None,
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Attack(t) => write!(f, "attack fighter {t}"),
            Choice::Reload => f.write_str("take an arrow from the quiver"),
            Choice::Run => f.write_str("run in to close the distance"),
            Choice::EndTurn => f.write_str("end the turn"),
            Choice::Defend => f.write_str("defend"),
            Choice::NoDefense => f.write_str("do not defend"),
        }
    }
}

/// What a [`Policy`] sees when a fighter decides: the fighters, their hit points and
/// actions, whose turn it is, who is attacking, and the exact chance of each kind of attack.
///
/// ```
/// use dice_core::Policy;
/// use dice_shapers_and_bots::{Choice, Moment};
/// /// Attacks whenever it can and never defends.
/// struct Reckless;
/// impl<'a> Policy<Moment<'a>, Choice> for Reckless {
///     fn choose(&self, _m: &Moment<'a>, _who: usize, open: &[Choice]) -> Choice {
///         open.iter().copied().find(|c| matches!(c, Choice::Attack(_)))
///             .unwrap_or(open[open.len() - 1])
///     }
/// }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Moment<'a> {
    roster: &'a Roster,
    order: &'a [u8],
    place: usize,
    fighters: &'a [FighterState],
    actions: &'a [TurnActions],
    attacker: Option<usize>,
}

impl<'a> Moment<'a> {
    /// How many fighters.
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> usize {
    /// m.count()
    /// # }
    /// ```
    pub fn count(&self) -> usize {
        self.fighters.len()
    }

    /// A fighter's description.
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> bool {
    /// m.fighter(0).is_some()
    /// # }
    /// ```
    pub fn fighter(&self, i: usize) -> Option<&'a Combatant> {
        self.roster.fighters.get(i)
    }

    /// A fighter's state (hit points, arrow, closed in); its actions are
    /// [`Moment::actions`].
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> u8 {
    /// m.state(0).map_or(0, |s| s.hit_points())
    /// # }
    /// ```
    pub fn state(&self, i: usize) -> Option<FighterState> {
        self.fighters.get(i).copied()
    }

    /// A fighter's actions now: left this turn, and owed to the next.
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> u8 {
    /// m.actions(0).map_or(0, |a| a.left())
    /// # }
    /// ```
    pub fn actions(&self, i: usize) -> Option<TurnActions> {
        self.actions.get(i).copied()
    }

    /// The fighter whose turn it is.
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> usize {
    /// m.current()
    /// # }
    /// ```
    pub fn current(&self) -> usize {
        self.order.get(self.place).map_or(0, |&i| usize::from(i))
    }

    /// Whether fighter `i` has had their part of this turn already.
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> bool {
    /// !m.has_acted(m.current())
    /// # }
    /// ```
    pub fn has_acted(&self, i: usize) -> bool {
        self.order
            .iter()
            .position(|&f| usize::from(f) == i)
            .is_some_and(|p| p < self.place)
    }

    /// The attacker, when the decision is whether to defend.
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> Option<usize> {
    /// m.attacked_by()
    /// # }
    /// ```
    pub fn attacked_by(&self) -> Option<usize> {
        self.attacker
    }

    /// Whether `a` and `b` are on different sides.
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> bool {
    /// !m.are_enemies(0, 0)
    /// # }
    /// ```
    pub fn are_enemies(&self, a: usize, b: usize) -> bool {
        self.roster.enemies(a, b)
    }

    /// The exact chance that an attack of `kind` by `attacker` on `target` hits (`None`
    /// between fighters of one side, and for a defended attack the rules do not allow, or a
    /// sneak attack by a fighter who is not unseen).
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> Option<f64> {
    /// m.hit_chance(0, 1, dice_shapers_and_bots::AttackKind::Defended)
    /// # }
    /// ```
    pub fn hit_chance(&self, attacker: usize, target: usize, kind: AttackKind) -> Option<f64> {
        let pair = self.roster.pair(attacker, target)?;
        pair.hit(kind).map(|d| d.probability(&true))
    }

    /// The rulings in play.
    ///
    /// ```
    /// # fn f(m: &dice_shapers_and_bots::Moment) -> u8 {
    /// m.rules().max_borrowed_actions
    /// # }
    /// ```
    pub fn rules(&self) -> &'a Rules {
        &self.roster.rules
    }
}

/// The default tactics, as the rulebook describes a fight:
///
/// - **In their turn**, a fighter with a quiver and no arrow ready takes one ("getting another
///   arrow from a quiver counts as one action", L341–343); a fighter with a hand weapon who
///   is not next to the enemy runs in ("Slumpy closes in", L421); otherwise they attack. The
///   target is the conscious enemy with the fewest hit points left (the first listed on a
///   tie). A fighter ends their turn only when nothing else is open.
/// - **When attacked**, a fighter defends when defending lowers the chance of being hit (a
///   big, slow target is better off letting the attacker roll against its Size) and they can
///   spare the action: before their own part of the turn, only if one action is left after it
///   for their own attack; after their part, with an action left over, or by borrowing one
///   from the next turn when they owe nothing yet, so they keep one to act with. "In
///   practice, this often means that the character with the higher Fitness gets two attacks
///   in the first turn, then one attack each turn after that" (L364–366).
///
/// ```
/// use dice_core::Policy;
/// use dice_shapers_and_bots::{Choice, Moment, RulebookTactics};
/// fn check<P: for<'a> Policy<Moment<'a>, Choice>>(_: &P) {}
/// check(&RulebookTactics);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RulebookTactics;

impl<'a> Policy<Moment<'a>, Choice> for RulebookTactics {
    fn choose(&self, m: &Moment<'a>, who: usize, open: &[Choice]) -> Choice {
        let last = open.last().copied().unwrap_or(Choice::EndTurn);
        if let Some(attacker) = m.attacked_by() {
            if !open.contains(&Choice::Defend) {
                return last;
            }
            let undefended = m.hit_chance(attacker, who, AttackKind::Undefended);
            let defended = m.hit_chance(attacker, who, AttackKind::Defended);
            let helps = matches!((undefended, defended), (Some(u), Some(d)) if d < u);
            let Some(a) = m.actions(who) else {
                return last;
            };
            let spare = if m.has_acted(who) {
                a.left() > 0 || a.owed() == 0
            } else {
                a.left() >= 2
            };
            return if helps && spare {
                Choice::Defend
            } else {
                Choice::NoDefense
            };
        }
        if open.contains(&Choice::Reload) {
            return Choice::Reload;
        }
        if open.contains(&Choice::Run) {
            return Choice::Run;
        }
        open.iter()
            .copied()
            .filter_map(|c| match c {
                Choice::Attack(t) => Some((m.state(t).map_or(u8::MAX, |s| s.hit_points()), t)),
                _ => None,
            })
            .min()
            .map_or(last, |(_, t)| Choice::Attack(t))
    }
}

// ------------------------------------------------------------------------------ the fight

/// The odds of one attacker against one target, worked out once.
#[derive(Clone, Debug)]
struct PairOdds {
    undefended: Attack,
    defended: Option<Attack>,
    sneak: Option<Attack>,
    /// P(hit) laws: undefended, defended, sneak.
    hit: [Option<Dist<bool>>; 3],
    damage: Damage,
    damage_law: Dist<u32>,
    /// `harm[slot][hp]`: the law of the hit points an attack of that kind takes from a
    /// target with `hp` left ([`PairOdds::harm_law`]), outcomes of chance 0 left out;
    /// worked out once for every `hp` up to the target's full hit points.
    harm: [Vec<Vec<(u8, f64)>>; 3],
}

impl PairOdds {
    fn slot(kind: AttackKind) -> usize {
        match kind {
            AttackKind::Undefended => 0,
            AttackKind::Defended => 1,
            AttackKind::Sneak => 2,
        }
    }

    fn hit(&self, kind: AttackKind) -> Option<&Dist<bool>> {
        self.hit[Self::slot(kind)].as_ref()
    }

    fn attack(&self, kind: AttackKind) -> Option<&Attack> {
        match kind {
            AttackKind::Undefended => Some(&self.undefended),
            AttackKind::Defended => self.defended.as_ref(),
            AttackKind::Sneak => self.sneak.as_ref(),
        }
    }

    /// The exact law of the hit points an attack of `kind` takes from a target with `hp`
    /// left: a miss takes none; a hit takes its damage, at most `hp` (SB-A17).
    /// The listed law of [`PairOdds::harm_law`] for `hp`, worked out once.
    fn harm(&self, kind: AttackKind, hp: u8) -> Result<&[(u8, f64)], dice_core::Error> {
        self.harm[Self::slot(kind)]
            .get(usize::from(hp))
            .map(Vec::as_slice)
            .ok_or(dice_core::Error::Unsupported {
                what: "an attack the rules do not allow",
            })
    }

    fn harm_law(&self, kind: AttackKind, hp: u8) -> Result<Dist<u8>, dice_core::Error> {
        let hit = self.hit(kind).ok_or(dice_core::Error::Unsupported {
            what: "an attack the rules do not allow",
        })?;
        hit.and_then(|&h| {
            if !h {
                return Ok(Dist::certain(0));
            }
            // P(k) for k below the hit points left, the rest on `hp` (exact whatever the
            // listed law's tail: every unlisted streak is longer than every listed one).
            let mut below = 0.0;
            let mut pairs = Vec::with_capacity(usize::from(hp) + 1);
            for k in 0..hp {
                let p = self.damage_law.probability(&u32::from(k));
                below += p;
                pairs.push((k, p));
            }
            pairs.push((hp, (1.0 - below).max(0.0)));
            Dist::from_pairs(pairs)
        })
    }
}

/// Everything fixed in a fight.
#[derive(Clone, Debug)]
struct Roster {
    fighters: Vec<Combatant>,
    /// Side index of each fighter.
    side: Vec<usize>,
    sides: Vec<String>,
    /// `pairs[a * n + t]`, for enemies.
    pairs: Vec<Option<PairOdds>>,
    max_hp: Vec<u8>,
    rules: Rules,
}

impl Roster {
    fn enemies(&self, a: usize, b: usize) -> bool {
        match (self.side.get(a), self.side.get(b)) {
            (Some(x), Some(y)) => x != y,
            _ => false,
        }
    }

    fn pair(&self, a: usize, t: usize) -> Option<&PairOdds> {
        let n = self.fighters.len();
        if a >= n || t >= n {
            return None;
        }
        self.pairs[a * n + t].as_ref()
    }
}

/// A whole fight of *Shapers and Bots*, as a [`dice_core::Encounter`]: one round is one
/// turn of the rulebook ("everything happens in turns that are 5 seconds long", L322–323).
///
/// - Every conscious fighter acts in order of Fitness, ties rolled once for the whole fight
///   (L324–328), with two actions (L330–331): attack, take an arrow from the quiver
///   (L341–343), run in to close the distance (L338), or end the turn.
/// - The target of an attack may defend with one of their actions, or borrow one from their
///   next turn (L351, L362–363, at most [`Rules::max_borrowed_actions`] owed). An attack is
///   undefended (against Size), defended (a contest, ties to the attacker) or, for an unseen
///   fighter's first, a sneak attack (L348–370): [`Attack`].
/// - A hit does its weapon's damage streak (L389–412, [`Damage`]); hit points stop at zero
///   (SB-A17), and a fighter at zero is unconscious: they take no action, not even a defense
///   (L432). The fight ends when one side is left standing ([`Victory`]).
/// - [`FightState`] holds what the rulebook tracks between turns, with no turn counter.
/// - Decisions go through a [`Policy`]; the default is [`RulebookTactics`]. A choice that is
///   not offered is not taken, so no policy can break the rules.
///
/// The law of a turn is exact: every attack's law is [`Attack`]'s exact law, every hit's
/// damage is [`Damage`]'s exact streak law capped at the hit points left, chained with
/// [`Dist::and_then`]; nothing is approximated. Position is one fact per fighter (has a
/// fighter with a hand weapon closed in?), which is exact for two fighters; with more, a
/// fighter who has closed in reaches every enemy.
///
/// ```
/// use dice_core::{Encounter, EncounterLimits, end_law, play};
/// use dice_shapers_and_bots::{Combatant, FightEncounter, Level, Rules, Size, Characteristics, WeaponClass};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let small = Characteristics { size: Size::Single(Level::VeryLow), fitness: Level::Low, ..Characteristics::default() };
/// let a = Combatant::new("Pip", small, WeaponClass::Small);
/// let b = Combatant::new("Squeak", small, WeaponClass::Small);
/// let fight = FightEncounter::new(vec![a, b], false, &Rules::default())?;
/// let law = end_law(&fight, EncounterLimits::default())?;
/// assert!((law.ends.total() - 1.0).abs() < 1e-12);
/// let played = play(&fight, &mut Xoshiro256PlusPlus::seed_from_u64(1), 1_000);
/// assert!(played.end.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct FightEncounter<P = RulebookTactics> {
    roster: Roster,
    initiative: Initiative,
    apart: bool,
    policy: P,
    /// Played by [`RulebookTactics`] (every attack on a side falls on its conscious
    /// fighter with the fewest hit points, the first listed on a tie), which
    /// [`Encounter::state_bound`] uses.
    focus: bool,
}

impl FightEncounter<RulebookTactics> {
    /// A fight between `fighters` under `rules`, played with [`RulebookTactics`]. When
    /// `apart`, the sides start at a distance: fighters with a hand weapon must run in
    /// before they can attack. Fighters tied on Fitness roll 2d6 once for the order
    /// (SB-A11: the dice are the table's; every order of a tied group is equally likely
    /// whatever the dice).
    ///
    /// # Errors
    /// [`Error::FightSides`] unless there are at least two sides; [`Error::TooManyFighters`]
    /// beyond [`MAX_FIGHTERS`]; [`Error::Fighter`] for two fighters with one name, or a
    /// fighter with no name; the errors of hit points ([`Combatant::hit_points`]), of armor
    /// on a fluke ([`Contestant::wearing`]), of the damage table ([`Damage::new`], SB-A6)
    /// and of the attacks ([`Attack::undefended`], [`Attack::sneak`]).
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, Error, FightEncounter, Rules, WeaponClass};
    /// let a = Combatant::new("A", Characteristics::default(), WeaponClass::Small).side("x");
    /// let b = Combatant::new("B", Characteristics::default(), WeaponClass::Small).side("x");
    /// let e = FightEncounter::new(vec![a, b], false, &Rules::default());
    /// assert!(matches!(e, Err(Error::FightSides { sides: 1 })));
    /// ```
    pub fn new(fighters: Vec<Combatant>, apart: bool, rules: &Rules) -> Result<Self, Error> {
        let n = fighters.len();
        if n > MAX_FIGHTERS {
            return Err(Error::TooManyFighters {
                count: n,
                max: MAX_FIGHTERS,
            });
        }
        for (i, f) in fighters.iter().enumerate() {
            if f.name.trim().is_empty() {
                return Err(Error::Fighter {
                    name: f.name.clone(),
                    reason: "a fighter needs a name".to_owned(),
                });
            }
            if fighters[..i].iter().any(|g| g.name == f.name) {
                return Err(Error::Fighter {
                    name: f.name.clone(),
                    reason: "two fighters have this name".to_owned(),
                });
            }
        }
        let mut sides: Vec<String> = Vec::new();
        let mut side = Vec::with_capacity(n);
        for f in &fighters {
            let s = match sides.iter().position(|s| *s == f.side) {
                Some(s) => s,
                None => {
                    sides.push(f.side.clone());
                    sides.len() - 1
                }
            };
            side.push(s);
        }
        if sides.len() < 2 {
            return Err(Error::FightSides { sides: sides.len() });
        }
        let max_hp = fighters
            .iter()
            .map(|f| f.hit_points(rules))
            .collect::<Result<Vec<u8>, Error>>()?;
        let mut pairs = Vec::with_capacity(n * n);
        for (a, fa) in fighters.iter().enumerate() {
            for (t, ft) in fighters.iter().enumerate() {
                if side[a] == side[t] {
                    pairs.push(None);
                    continue;
                }
                pairs.push(Some(pair_odds(fa, ft, max_hp[t], rules)?));
            }
        }
        let two_d6 = Sum::new(Pool::new(2, Die::D6)?, Keep::All, 0)?;
        let initiative = Initiative::new(
            fighters.iter().map(|f| f.characteristics.fitness).collect(),
            two_d6,
        )?;
        Ok(FightEncounter {
            roster: Roster {
                fighters,
                side,
                sides,
                pairs,
                max_hp,
                rules: *rules,
            },
            initiative,
            apart,
            policy: RulebookTactics,
            focus: true,
        })
    }
}

fn pair_odds(
    a: &Combatant,
    t: &Combatant,
    target_hp: u8,
    rules: &Rules,
) -> Result<PairOdds, Error> {
    let attacker = Contestant::new(a.attack_skill(), 0)?.wearing(a.armor)?;
    let defender = Contestant::new(t.defense_skill(), 0)?.wearing(t.armor)?;
    let size: Size = t.characteristics.size;
    let undefended = Attack::undefended(attacker, &size, rules)?;
    let defended = match Attack::defended(attacker, defender, rules) {
        Ok(d) => Some(d),
        Err(Error::FlukeNotAllowed { .. }) => None,
        Err(e) => return Err(e),
    };
    let sneak = match a.surprise {
        Some(s) => Some(Attack::sneak(attacker, &size, s, rules)?),
        None => None,
    };
    let hit_law =
        |x: &Attack| -> Result<Dist<bool>, Error> { Ok(x.distribution()?.map(|o| o.is_hit())) };
    let hit = [
        Some(hit_law(&undefended)?),
        defended.as_ref().map(hit_law).transpose()?,
        sneak.as_ref().map(hit_law).transpose()?,
    ];
    let damage = Damage::new(a.weapon, t.armor.is_worn(), rules)?;
    let damage_law = damage.distribution()?;
    let mut odds = PairOdds {
        undefended,
        defended,
        sneak,
        hit,
        damage,
        damage_law,
        harm: [Vec::new(), Vec::new(), Vec::new()],
    };
    for kind in [
        AttackKind::Undefended,
        AttackKind::Defended,
        AttackKind::Sneak,
    ] {
        if odds.hit(kind).is_none() {
            continue;
        }
        let mut table = Vec::with_capacity(usize::from(target_hp) + 1);
        for hp in 0..=target_hp {
            let law = odds.harm_law(kind, hp)?;
            table.push(
                law.iter()
                    .filter(|&(_, p)| p > 0.0)
                    .map(|(&k, p)| (k, p))
                    .collect(),
            );
        }
        odds.harm[PairOdds::slot(kind)] = table;
    }
    Ok(odds)
}

/// A turn in progress.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Melee {
    order: Vec<u8>,
    place: usize,
    fighters: Vec<FighterState>,
    actions: Vec<TurnActions>,
}

/// Where a turn in progress goes next.
enum Step {
    /// The turn is over (or one side is left standing).
    Done(FightState),
    /// `attacker` attacks `target` (actions already taken): roll it, then apply the harm.
    Attack {
        melee: Melee,
        attacker: usize,
        target: usize,
        kind: AttackKind,
    },
}

impl<P> FightEncounter<P> {
    /// The same fight played with other tactics.
    ///
    /// ```
    /// use dice_core::Policy;
    /// use dice_shapers_and_bots::{Characteristics, Choice, Combatant, FightEncounter, Moment, Rules, WeaponClass};
    /// struct NeverDefend;
    /// impl<'a> Policy<Moment<'a>, Choice> for NeverDefend {
    ///     fn choose(&self, _: &Moment<'a>, _: usize, open: &[Choice]) -> Choice {
    ///         if open.contains(&Choice::NoDefense) { Choice::NoDefense } else { open[0] }
    ///     }
    /// }
    /// let a = Combatant::new("A", Characteristics::default(), WeaponClass::Small);
    /// let b = Combatant::new("B", Characteristics::default(), WeaponClass::Small);
    /// let fight = FightEncounter::new(vec![a, b], false, &Rules::default())?.with_policy(NeverDefend);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn with_policy<Q>(self, policy: Q) -> FightEncounter<Q> {
        FightEncounter {
            roster: self.roster,
            initiative: self.initiative,
            apart: self.apart,
            policy,
            focus: false,
        }
    }

    /// The fighters, as listed.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, FightEncounter, Rules, WeaponClass};
    /// let a = Combatant::new("A", Characteristics::default(), WeaponClass::Small);
    /// let b = Combatant::new("B", Characteristics::default(), WeaponClass::Small);
    /// let fight = FightEncounter::new(vec![a, b], false, &Rules::default())?;
    /// assert_eq!(fight.fighters()[1].name(), "B");
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn fighters(&self) -> &[Combatant] {
        &self.roster.fighters
    }

    /// The sides, in order of first appearance.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, FightEncounter, Rules, WeaponClass};
    /// let a = Combatant::new("A", Characteristics::default(), WeaponClass::Small);
    /// let b = Combatant::new("B", Characteristics::default(), WeaponClass::Small);
    /// let fight = FightEncounter::new(vec![a, b], false, &Rules::default())?;
    /// assert_eq!(fight.sides(), ["A", "B"]);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn sides(&self) -> &[String] {
        &self.roster.sides
    }

    /// Full hit points of each fighter.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Combatant, FightEncounter, Rules, Species, WeaponClass};
    /// let a = Combatant::new("A", Species::Parrot.characteristics(), WeaponClass::Small);
    /// let b = Combatant::new("B", Species::Bear.characteristics(), WeaponClass::Small);
    /// let fight = FightEncounter::new(vec![a, b], false, &Rules::default())?;
    /// assert_eq!(fight.hit_points(), [5, 10]);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn hit_points(&self) -> &[u8] {
        &self.roster.max_hp
    }

    /// Whether the sides start apart.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Characteristics, Combatant, FightEncounter, Rules, WeaponClass};
    /// let a = Combatant::new("A", Characteristics::default(), WeaponClass::Small);
    /// let b = Combatant::new("B", Characteristics::default(), WeaponClass::Small);
    /// assert!(FightEncounter::new(vec![a, b], true, &Rules::default())?.starts_apart());
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn starts_apart(&self) -> bool {
        self.apart
    }

    /// One line for a person: every fighter's hit points and what they are waiting on.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_shapers_and_bots::{Combatant, FightEncounter, Rules, Species, WeaponClass};
    /// let a = Combatant::new("Dashwood", Species::Parrot.characteristics(), WeaponClass::Large);
    /// let b = Combatant::new("Slumpy", Species::Elephant.characteristics(), WeaponClass::Large);
    /// let fight = FightEncounter::new(vec![a, b], false, &Rules::default())?;
    /// assert_eq!(fight.describe(&fight.start()), "Dashwood 5/5 HP; Slumpy 11/11 HP");
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn describe(&self, state: &FightState) -> String {
        let mut parts = Vec::with_capacity(state.fighters.len());
        for (i, s) in state.fighters.iter().enumerate() {
            let name = self.roster.fighters.get(i).map_or("?", |f| f.name.as_str());
            let max = self.roster.max_hp.get(i).copied().unwrap_or(0);
            let text = if s.is_conscious() {
                let mut t = format!("{name} {}/{max} HP", s.hit_points);
                if s.actions.left() < TurnActions::PER_TURN || s.actions.owed() > 0 {
                    t.push_str(&format!(" ({})", next_turn(s.actions)));
                }
                if !s.loaded {
                    t.push_str(", no arrow ready");
                }
                if !s.closed_in {
                    t.push_str(", not yet closed in");
                }
                if s.unseen {
                    t.push_str(", unseen");
                }
                t
            } else {
                format!("{name} unconscious")
            };
            parts.push(text);
        }
        parts.join("; ")
    }

    fn fresh(&self, i: usize) -> FighterState {
        let f = &self.roster.fighters[i];
        FighterState {
            hit_points: self.roster.max_hp[i],
            actions: TurnActions::new(),
            loaded: f.starts_loaded(),
            closed_in: !self.apart || f.reach == Reach::Ranged,
            unseen: f.surprise.is_some(),
        }
    }

    /// The sides with a conscious fighter.
    fn standing(&self, fighters: &[FighterState]) -> Vec<usize> {
        let mut s: Vec<usize> = fighters
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_conscious())
            .map(|(i, _)| self.roster.side[i])
            .collect();
        s.sort_unstable();
        s.dedup();
        s
    }

    /// The choices open to `who` in their turn: attacks on reachable conscious enemies,
    /// a reload, a run; always ending with [`Choice::EndTurn`].
    fn open_in_turn(&self, m: &Melee, who: usize) -> Vec<Choice> {
        let me = &self.roster.fighters[who];
        let st = m.fighters[who];
        let mut open = Vec::new();
        if m.actions[who].left() > 0 {
            if st.loaded && st.closed_in {
                for (t, ft) in m.fighters.iter().enumerate() {
                    if ft.is_conscious() && self.roster.enemies(who, t) {
                        open.push(Choice::Attack(t));
                    }
                }
            }
            if me.quiver && !st.loaded {
                open.push(Choice::Reload);
            }
            if !st.closed_in {
                open.push(Choice::Run);
            }
        }
        open.push(Choice::EndTurn);
        open
    }

    /// Whether `target` may defend now: conscious, a defended attack is allowed, and an
    /// action is left or may be borrowed (L362–363, SB-A19).
    fn can_defend(&self, m: &Melee, attacker: usize, target: usize) -> bool {
        let rules = &self.roster.rules;
        m.fighters[target].is_conscious()
            && self
                .roster
                .pair(attacker, target)
                .is_some_and(|p| p.defended.is_some())
            && {
                let mut a = m.actions[target];
                a.take(Action::Defend, rules).is_ok()
            }
    }

    /// The end of a turn: each conscious fighter's actions for the next turn (two, less what
    /// they borrowed).
    fn finish(&self, m: Melee) -> FightState {
        let fighters = m
            .fighters
            .iter()
            .zip(&m.actions)
            .map(|(f, a)| {
                if f.is_conscious() {
                    let mut next = *a;
                    next.next_turn();
                    FighterState {
                        actions: next,
                        ..*f
                    }
                } else {
                    FighterState::down()
                }
            })
            .collect();
        FightState {
            order: m.order,
            fighters,
        }
    }

    /// Takes `action` for `who` the way [`crate::Fight::act`] does: only the fighter whose
    /// turn it is acts, except to defend; an unconscious fighter does nothing; two actions a
    /// turn, borrowing only to defend.
    fn act(&self, m: &mut Melee, who: usize, action: Action) -> Result<(), Error> {
        let current = m.order.get(m.place).map_or(0, |&i| usize::from(i));
        if !m.fighters[who].is_conscious() {
            return Err(Error::Unconscious {
                fighter: who,
                action,
            });
        }
        if who != current && action != Action::Defend {
            return Err(Error::OutOfTurn {
                fighter: who,
                current,
                action,
            });
        }
        m.actions[who].take(action, &self.roster.rules)?;
        Ok(())
    }

    fn harmed(m: &Melee, target: usize, points: u8) -> Melee {
        let mut m = m.clone();
        let f = &mut m.fighters[target];
        f.hit_points = f.hit_points.saturating_sub(points);
        if f.hit_points == 0 {
            *f = FighterState::down();
            m.actions[target] = TurnActions::new();
        }
        m
    }
}

impl<P: for<'a> Policy<Moment<'a>, Choice>> FightEncounter<P> {
    fn moment<'a>(&'a self, m: &'a Melee, attacker: Option<usize>) -> Moment<'a> {
        Moment {
            roster: &self.roster,
            order: &m.order,
            place: m.place,
            fighters: &m.fighters,
            actions: &m.actions,
            attacker,
        }
    }

    /// Plays the turn forward through every decision until an attack is to be rolled or the
    /// turn is over; with `told`, a line for each action taken (reload, run, the attack and
    /// the defense).
    fn step(&self, mut m: Melee, mut told: Option<&mut Vec<String>>) -> Step {
        loop {
            if self.standing(&m.fighters).len() <= 1 || m.place >= m.order.len() {
                return Step::Done(self.finish(m));
            }
            let cur = usize::from(m.order[m.place]);
            if !m.fighters[cur].is_conscious() || m.actions[cur].left() == 0 {
                m.place += 1;
                continue;
            }
            let open = self.open_in_turn(&m, cur);
            let mut choice = self.policy.choose(&self.moment(&m, None), cur, &open);
            if !open.contains(&choice) {
                choice = Choice::EndTurn;
            }
            let taken = match choice.action() {
                Some(a) => self.act(&mut m, cur, a).is_ok(),
                None => false,
            };
            if !taken {
                m.place += 1;
                continue;
            }
            match choice {
                Choice::Reload => {
                    m.fighters[cur].loaded = true;
                    if let Some(t) = told.as_deref_mut() {
                        t.push(format!(
                            "{} takes an arrow from the quiver.",
                            self.name(cur)
                        ));
                    }
                }
                Choice::Run => {
                    m.fighters[cur].closed_in = true;
                    if let Some(t) = told.as_deref_mut() {
                        t.push(format!("{} runs in to close the distance.", self.name(cur)));
                    }
                }
                Choice::Attack(target) => {
                    if self.roster.fighters[cur].quiver {
                        m.fighters[cur].loaded = false;
                    }
                    let mut how = String::new();
                    let kind = if m.fighters[cur].unseen {
                        m.fighters[cur].unseen = false;
                        how.push_str(", unseen: a sneak attack, which cannot be defended");
                        AttackKind::Sneak
                    } else if self.can_defend(&m, cur, target) {
                        let open = [Choice::Defend, Choice::NoDefense];
                        let d = self
                            .policy
                            .choose(&self.moment(&m, Some(cur)), target, &open);
                        let owed = m.actions[target].owed();
                        if d == Choice::Defend && self.act(&mut m, target, Action::Defend).is_ok() {
                            how.push_str(if m.actions[target].owed() > owed {
                                ", who defends with an action borrowed from the next turn"
                            } else {
                                ", who defends"
                            });
                            AttackKind::Defended
                        } else {
                            how.push_str(", who does not defend (the attack is against Size)");
                            AttackKind::Undefended
                        }
                    } else {
                        how.push_str(", who cannot defend (the attack is against Size)");
                        AttackKind::Undefended
                    };
                    if let Some(t) = told.as_deref_mut() {
                        t.push(format!(
                            "{} attacks {}{how}.",
                            self.name(cur),
                            self.name(target)
                        ));
                    }
                    return Step::Attack {
                        melee: m,
                        attacker: cur,
                        target,
                        kind,
                    };
                }
                _ => {}
            }
        }
    }

    /// The exact law of the rest of a turn from `m`: the turns in progress, merged when
    /// they meet, are walked one attack at a time until each is over.
    fn turn_law(&self, m: Melee) -> Result<Dist<FightState>, dice_core::Error> {
        let mut done: BTreeMap<FightState, f64> = BTreeMap::new();
        let mut going: BTreeMap<Melee, f64> = BTreeMap::new();
        going.insert(m, 1.0);
        while !going.is_empty() {
            let mut next: BTreeMap<Melee, f64> = BTreeMap::new();
            for (m, p) in going {
                match self.step(m, None) {
                    Step::Done(s) => *done.entry(s).or_insert(0.0) += p,
                    Step::Attack {
                        melee,
                        attacker,
                        target,
                        kind,
                    } => {
                        let hp = melee.fighters[target].hit_points;
                        let pair = self.roster.pair(attacker, target).ok_or(
                            dice_core::Error::Unsupported {
                                what: "an attack between fighters of one side",
                            },
                        )?;
                        for &(pts, q) in pair.harm(kind, hp)? {
                            *next.entry(Self::harmed(&melee, target, pts)).or_insert(0.0) += p * q;
                        }
                    }
                }
            }
            going = next;
        }
        Dist::from_pairs(done)
    }

    fn begin(state: &FightState, order: Vec<u8>) -> Melee {
        Melee {
            order,
            place: 0,
            actions: state.fighters.iter().map(|f| f.actions).collect(),
            fighters: state.fighters.clone(),
        }
    }

    /// A fighter's name.
    fn name(&self, i: usize) -> &str {
        self.roster.fighters.get(i).map_or("?", |f| f.name.as_str())
    }

    /// One turn with the caller's RNG; with `told`, a line for each action. The same draws
    /// either way: the attack and the damage are rolled with the faces kept
    /// ([`Attack::roll_attack`], [`Damage::roll_damage`]) only when telling.
    fn play_turn<R: Rng + ?Sized>(
        &self,
        state: &FightState,
        rng: &mut R,
        mut told: Option<&mut Vec<String>>,
    ) -> FightState {
        let order: Vec<u8> = if state.order.is_empty() {
            let o = self.initiative.roll(rng);
            let order: Vec<u8> = o.iter().filter_map(|i| u8::try_from(i).ok()).collect();
            if let Some(t) = told.as_deref_mut() {
                let names: Vec<&str> = order.iter().map(|&i| self.name(usize::from(i))).collect();
                t.push(format!(
                    "Turn order, by Fitness with ties rolled on 2d6 once for the fight: {}.",
                    names.join(", ")
                ));
            }
            order
        } else {
            state.order.clone()
        };
        let mut m = Self::begin(state, order);
        loop {
            match self.step(m, told.as_deref_mut()) {
                Step::Done(s) => return s,
                Step::Attack {
                    melee,
                    attacker,
                    target,
                    kind,
                } => {
                    let hp = melee.fighters[target].hit_points;
                    let pair = self.roster.pair(attacker, target);
                    let attack = pair.and_then(|p| p.attack(kind));
                    let points = match (pair, attack, told.as_deref_mut()) {
                        (Some(p), Some(a), None) if a.roll(rng).is_hit() => {
                            let d: u32 = p.damage.roll(rng);
                            u8::try_from(d.min(u32::from(hp))).unwrap_or(hp)
                        }
                        (Some(_), Some(_), None) => 0,
                        (Some(p), Some(a), Some(t)) => {
                            let roll = a.roll_attack(rng);
                            t.push(format!("  {} attack: {roll}.", a.kind()));
                            if roll.outcome.is_hit() {
                                let d = p.damage.roll_damage(rng);
                                let pts = u8::try_from(d.points.min(u32::from(hp))).unwrap_or(hp);
                                let left = hp - pts;
                                let max = self.roster.max_hp.get(target).copied().unwrap_or(0);
                                let after = if left == 0 {
                                    "unconscious".to_owned()
                                } else {
                                    format!("{left}/{max} HP")
                                };
                                t.push(format!(
                                    "  Damage ({}): {d}, {pts} taken: {} {after}.",
                                    p.damage,
                                    self.name(target)
                                ));
                                pts
                            } else {
                                0
                            }
                        }
                        _ => 0,
                    };
                    m = Self::harmed(&melee, target, points);
                }
            }
        }
    }
}

impl<P: for<'a> Policy<Moment<'a>, Choice>> Encounter for FightEncounter<P> {
    type State = FightState;
    type End = Victory;

    /// Everyone at full hit points with two actions; the order by Fitness when no one is
    /// tied, else left to the first turn's roll.
    fn start(&self) -> FightState {
        let n = self.roster.fighters.len();
        let fit: Vec<Level> = self
            .roster
            .fighters
            .iter()
            .map(|f| f.characteristics.fitness)
            .collect();
        let tied = (0..n).any(|i| (0..i).any(|j| fit[i] == fit[j]));
        let order = if tied {
            Vec::new()
        } else {
            let mut o: Vec<usize> = (0..n).collect();
            o.sort_by(|&a, &b| fit[b].cmp(&fit[a]));
            o.into_iter().filter_map(|i| u8::try_from(i).ok()).collect()
        };
        FightState {
            order,
            fighters: (0..n).map(|i| self.fresh(i)).collect(),
        }
    }

    fn end(&self, state: &FightState) -> Option<Victory> {
        match self.standing(&state.fighters).as_slice() {
            [one] => Some(Victory {
                side: self.roster.sides[*one].clone(),
            }),
            _ => None,
        }
    }

    /// One turn: the initiative roll first if it is still to be made (every order of a
    /// tied group equally likely, [`Initiative`]'s exact law), then every fighter's part.
    fn round_law(&self, state: &FightState) -> Result<Dist<FightState>, dice_core::Error> {
        if state.order.is_empty() {
            let orders = self.initiative.distribution()?;
            return orders.and_then(|o| {
                let order = o.iter().filter_map(|i| u8::try_from(i).ok()).collect();
                self.turn_law(Self::begin(state, order))
            });
        }
        self.turn_law(Self::begin(state, state.order.clone()))
    }

    fn play_round<R: Rng + ?Sized>(&self, state: &FightState, rng: &mut R) -> FightState {
        self.play_turn(state, rng, None)
    }

    /// As [`Encounter::play_round`], telling the turn order when it is rolled, every
    /// reload and run, every attack (its kind, the defense, the dice: [`AttackRoll`](crate::AttackRoll)) and
    /// every hit's damage streak with the hit points left or unconsciousness.
    fn play_round_told<R: Rng + ?Sized>(
        &self,
        state: &FightState,
        rng: &mut R,
        told: &mut Vec<String>,
    ) -> FightState {
        self.play_turn(state, rng, Some(told))
    }

    /// An upper bound known from the scene: the turn orders (one when no one ties on
    /// Fitness, else every order of the tied groups, and the start before the roll) times,
    /// for each side, the hit points its fighters can be left with, each conscious fighter
    /// times its other facts (the actions it starts a turn with, one per debt from 0 to
    /// [`Rules::max_borrowed_actions`]; an arrow ready or not with a quiver; closed in or
    /// not for a hand weapon when the sides start apart; unseen or not). With
    /// [`RulebookTactics`] every attack on a side falls on its conscious fighter with the
    /// fewest hit points (the first listed on a tie), so only the side's hit points that
    /// such attacks reach are counted (every combination if that listing grows beyond a
    /// million). With another policy there is no bound (`None`): the states are counted as
    /// they are listed.
    fn state_bound(&self) -> Option<u64> {
        let r = &self.roster;
        let n = r.fighters.len();
        let debts = u64::from(r.rules.max_borrowed_actions) + 1;
        let facts: Vec<u64> = r
            .fighters
            .iter()
            .map(|f| {
                let two = |b: bool| if b { 2 } else { 1 };
                debts
                    * two(f.quiver)
                    * two(self.apart && f.reach == Reach::Melee)
                    * two(f.surprise.is_some())
            })
            .collect();
        if !self.focus {
            return None;
        }
        let mut total: u64 = 1;
        for side in 0..r.sides.len() {
            let members: Vec<usize> = (0..n).filter(|&i| r.side[i] == side).collect();
            let count = focused_side_count(&members, &r.max_hp, &facts);
            let count = count.unwrap_or_else(|| {
                members.iter().fold(1u64, |c, &i| {
                    c.saturating_mul(1 + u64::from(r.max_hp[i]).saturating_mul(facts[i]))
                })
            });
            total = total.saturating_mul(count);
        }
        // Orders: the product of the factorials of the groups tied on Fitness.
        let mut orders: u64 = 1;
        let mut tied = false;
        for (i, f) in r.fighters.iter().enumerate() {
            let before = r.fighters[..i]
                .iter()
                .filter(|g| g.characteristics.fitness == f.characteristics.fitness)
                .count() as u64;
            if before > 0 {
                tied = true;
            }
            orders = orders.saturating_mul(before + 1);
        }
        let states = orders.saturating_mul(total);
        Some(if tied {
            states.saturating_add(1)
        } else {
            states
        })
    }

    /// Every fighter's name, as listed.
    fn health_names(&self) -> Vec<String> {
        self.roster
            .fighters
            .iter()
            .map(|f| f.name.clone())
            .collect()
    }

    /// Every fighter's hit points left (0 when unconscious).
    fn health(&self, state: &FightState) -> Vec<i64> {
        state
            .fighters
            .iter()
            .map(|f| i64::from(f.hit_points))
            .collect()
    }
}

/// The most hit-point combinations of one side [`focused_side_count`] lists before giving up.
const MAX_SIDE_CONFIGURATIONS: usize = 1_000_000;

/// The states one side's fighters can be in when every attack on the side falls on its
/// conscious fighter with the fewest hit points (the first listed on a tie) and may leave it
/// with any fewer: the hit points so reached, each conscious fighter weighted by its other
/// facts. `None` when the listing grows beyond [`MAX_SIDE_CONFIGURATIONS`].
fn focused_side_count(members: &[usize], max_hp: &[u8], facts: &[u64]) -> Option<u64> {
    let start: Vec<u8> = members.iter().map(|&i| max_hp[i]).collect();
    let mut seen: BTreeSet<Vec<u8>> = BTreeSet::new();
    let mut todo = vec![start.clone()];
    seen.insert(start);
    while let Some(hp) = todo.pop() {
        let target = (0..hp.len())
            .filter(|&k| hp[k] > 0)
            .min_by_key(|&k| (hp[k], k));
        let Some(k) = target else { continue };
        for left in 0..hp[k] {
            let mut next = hp.clone();
            next[k] = left;
            if !seen.contains(&next) {
                if seen.len() >= MAX_SIDE_CONFIGURATIONS {
                    return None;
                }
                seen.insert(next.clone());
                todo.push(next);
            }
        }
    }
    Some(seen.iter().fold(0u64, |sum, hp| {
        let w = hp
            .iter()
            .zip(members)
            .filter(|&(&h, _)| h > 0)
            .fold(1u64, |w, (_, &i)| w.saturating_mul(facts[i]));
        sum.saturating_add(w)
    }))
}

// ------------------------------------------------------------------------------ scenes

/// A fight described in the game's terms, as a scene file holds it (TOML or JSON, with the
/// `serde` feature). Every fighter's characteristics start from their species (all Average
/// without one) and any of Size, Height and Weight, or Fitness may be given over it; levels
/// are the ladder's names (`"very high"`, `"Low"`, …), skills may also be `"none"`.
///
/// ```
/// use dice_shapers_and_bots::{Rules, Scene, SceneFighter};
/// let scene = Scene {
///     title: None,
///     apart: false,
///     fighters: vec![
///         SceneFighter { name: "Rufus".into(), species: Some("bear".into()), weapon: "small".into(), ..SceneFighter::default() },
///         SceneFighter { name: "Doofus".into(), species: Some("bison".into()), weapon: "punch".into(), ..SceneFighter::default() },
///     ],
/// };
/// let fight = scene.encounter(&Rules::default())?;
/// assert_eq!(fight.hit_points(), [10, 9]);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Scene {
    /// What the fight is (shown above a played fight).
    #[cfg_attr(feature = "serde", serde(default))]
    pub title: Option<String>,
    /// The sides start at a distance: fighters with a hand weapon must run in first.
    #[cfg_attr(feature = "serde", serde(default))]
    pub apart: bool,
    /// The fighters (`[[fighters]]` in TOML).
    pub fighters: Vec<SceneFighter>,
}

/// One fighter of a [`Scene`].
///
/// ```
/// use dice_shapers_and_bots::SceneFighter;
/// let f = SceneFighter { name: "Slumpy".into(), species: Some("elephant".into()), fitness: Some("low".into()), weapon: "large".into(), ..SceneFighter::default() };
/// assert_eq!(f.combatant()?.characteristics().fitness, dice_shapers_and_bots::Level::Low);
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SceneFighter {
    /// The fighter's name.
    pub name: String,
    /// Their side (default: their name, alone).
    #[cfg_attr(feature = "serde", serde(default))]
    pub side: Option<String>,
    /// A species of the species table (L176–196); without one, every characteristic is
    /// Average (a bot, L472–476).
    #[cfg_attr(feature = "serde", serde(default))]
    pub species: Option<String>,
    /// Size (SIZ) over the species'.
    #[cfg_attr(feature = "serde", serde(default))]
    pub size: Option<String>,
    /// Height (HGT), with `weight`, instead of one Size.
    #[cfg_attr(feature = "serde", serde(default))]
    pub height: Option<String>,
    /// Weight (WGT), with `height`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub weight: Option<String>,
    /// Fitness (FIT) over the species'.
    #[cfg_attr(feature = "serde", serde(default))]
    pub fitness: Option<String>,
    /// The weapon class: `punch` (or `kick`), `small`, `large`, `really powerful`.
    pub weapon: String,
    /// `melee` (default) or `ranged`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub reach: Reach,
    /// Takes an arrow from a quiver before each shot.
    #[cfg_attr(feature = "serde", serde(default))]
    pub quiver: bool,
    /// With a quiver: no arrow ready at the start.
    #[cfg_attr(feature = "serde", serde(default))]
    pub unloaded: bool,
    /// `unarmored` (default), `accustomed` or `unaccustomed`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub armor: Armor,
    /// The attack skill's level (default Fitness), or `none`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub attack: Option<String>,
    /// The defense skill's level (default Fitness), or `none`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub defense: Option<String>,
    /// Starts unseen: the first attack is a sneak attack with this surprise bonus (0, 1 or
    /// 2).
    #[cfg_attr(feature = "serde", serde(default))]
    pub sneak: Option<i32>,
}

fn parse_weapon(name: &str, text: &str) -> Result<WeaponClass, Error> {
    let n: String = text
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect();
    Ok(match n.as_str() {
        "punch" | "kick" | "punchorkick" => WeaponClass::PunchOrKick,
        "small" => WeaponClass::Small,
        "large" => WeaponClass::Large,
        "reallypowerful" | "powerful" => WeaponClass::ReallyPowerful,
        _ => {
            return Err(Error::Fighter {
                name: name.to_owned(),
                reason: format!(
                    "unknown weapon {text:?}: expected punch (or kick), small, large or \
                     really powerful (L392–401)"
                ),
            });
        }
    })
}

impl SceneFighter {
    /// The combatant it describes.
    ///
    /// # Errors
    /// [`Error::UnknownSpecies`], [`Error::UnknownLevel`], [`Error::Surprise`], and
    /// [`Error::Fighter`] for an unknown weapon, a Height without a Weight (or the other way
    /// round), or a Size given with them.
    ///
    /// ```
    /// use dice_shapers_and_bots::SceneFighter;
    /// let f = SceneFighter { name: "X".into(), weapon: "spoon".into(), ..SceneFighter::default() };
    /// assert!(f.combatant().is_err());
    /// ```
    pub fn combatant(&self) -> Result<Combatant, Error> {
        let mut ch = match &self.species {
            Some(s) => s.parse::<crate::character::Species>()?.characteristics(),
            None => Characteristics::default(),
        };
        let level = |s: &Option<String>| s.as_deref().map(str::parse::<Level>).transpose();
        match (level(&self.height)?, level(&self.weight)?) {
            (Some(height), Some(weight)) => {
                if self.size.is_some() {
                    return Err(Error::Fighter {
                        name: self.name.clone(),
                        reason: "give either a Size or a Height and a Weight, not both \
                                 (L138–141)"
                            .to_owned(),
                    });
                }
                ch.size = Size::HeightWeight { height, weight };
            }
            (None, None) => {}
            _ => {
                return Err(Error::Fighter {
                    name: self.name.clone(),
                    reason: "a Height needs a Weight and a Weight a Height (L138–141)".to_owned(),
                });
            }
        }
        if let Some(s) = level(&self.size)? {
            ch.size = Size::Single(s);
        }
        if let Some(f) = level(&self.fitness)? {
            ch.fitness = f;
        }
        let weapon = parse_weapon(&self.name, &self.weapon)?;
        let mut c = Combatant::new(self.name.clone(), ch, weapon)
            .armor(self.armor)
            .reach(self.reach)
            .quiver(self.quiver)
            .loaded(!self.unloaded);
        if let Some(side) = &self.side {
            c = c.side(side.clone());
        }
        if let Some(a) = &self.attack {
            c = c.attack(a.parse::<Rating>()?);
        }
        if let Some(d) = &self.defense {
            c = c.defense(d.parse::<Rating>()?);
        }
        if let Some(b) = self.sneak {
            c = c.sneak(Surprise::from_bonus(b)?);
        }
        Ok(c)
    }
}

impl Scene {
    /// The fight it describes, under `rules`, with [`RulebookTactics`].
    ///
    /// # Errors
    /// Those of [`SceneFighter::combatant`] and [`FightEncounter::new`].
    ///
    /// ```
    /// use dice_shapers_and_bots::{Error, Rules, Scene};
    /// assert!(matches!(Scene::default().encounter(&Rules::default()), Err(Error::FightSides { sides: 0 })));
    /// ```
    pub fn encounter(&self, rules: &Rules) -> Result<FightEncounter, Error> {
        let fighters = self
            .fighters
            .iter()
            .map(SceneFighter::combatant)
            .collect::<Result<Vec<_>, Error>>()?;
        FightEncounter::new(fighters, self.apart, rules)
    }
}
