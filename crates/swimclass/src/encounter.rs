//! Whole fights (L33–L45): combatants built from their character sheets, played round by
//! round in initiative order, with the exact law of who wins (an [`Encounter`] of
//! dice-core).
//!
//! The round, as the rulebook gives it:
//! - **Initiative** (L45): before the first round every combatant rolls the skill standing
//!   for "Agility" (SW-A12: the scene names it; Finesse by default); the highest single die
//!   goes first, the second die resolves ties, further ties re-roll among the tied. The
//!   order holds for the whole fight.
//! - **A turn**: on its turn a standing combatant (above 0 HP, not stunned) takes one
//!   action: an **attack** on one standing foe (L35–L39: its attack skill's dice against
//!   the foe's defense dice, die against die, each hit through 1 damage; implements placed
//!   as the player's best, [`crate::BonusAssignment::Best`]), a **stun** (L231: Death magic
//!   at difficulty Range, opposed by the foe's defense; success stuns the target until the
//!   attacker's next turn), or holding a named skill in **reserve** instead of acting (L43:
//!   its dice, less one as in combining, add to every defense roll until its next turn).
//! - **Health** (L41): HP = the rank of the combatant's Defense skill + 1 (the skill it
//!   defends with in this type of combat, L113); at 0 HP it is down, below 0 it is dying
//!   and on each of its turns rolls to stabilize ([`Stabilize`], SW-A13), dead when its
//!   critical failures to stabilize exceed its Defense rank.
//! - **The end**: when only one side has combatants standing, that side wins.
//!
//! Not part of a fight: recovery (an hour of rest, L41), skill advancement (a fight's ranks
//! are fixed; an advance is written on the sheet after it, L27), the GM's adverse results
//! of attack and defense criticals (L21, "left to the GM"), splitting an attack's dice
//! between targets (L35), movement and range changes.
//!
//! The exact law ([`Encounter::round_law`]) is built from the crate's laws: each matchup's
//! attack law ([`OpposedRoll`], the full best-placement engine) is computed once when the
//! fight is built, for the target with and without its reserve (it depends only on the two
//! combatants' dice, never on the rest of the state), and the round is their composition
//! with [`Dist::and_then`]. [`Encounter::play_round`] rolls the same [`OpposedRoll`],
//! [`Stabilize`] and [`Initiative`] values with the caller's RNG. Nothing is approximated.
//!
//! ```
//! use dice_core::{EncounterLimits, end_law};
//! use dice_swimclass::encounter::{Fight, Scene};
//! use dice_swimclass::Rules;
//!
//! let fight = Fight::new(&Scene::sample_rounds(), Rules::default())?;
//! let law = end_law(&fight, EncounterLimits::default())?;
//! assert!((law.ends.total() - 1.0).abs() < 1e-12);
//! # Ok::<(), dice_swimclass::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;

use dice_core::{Dist, Encounter, Exact, Policy, Rng, Roll};

use crate::actions::{Initiative, InitiativeScore};
use crate::combat::{Condition, Health, Stabilize, max_hp, ranged_difficulty, with_reserve};
use crate::dice::SkillDice;
use crate::error::Error;
use crate::implement::{Applies, Bonus, Implement, catalogue};
use crate::opposed::{NO_THRESHOLD, OpposedRoll};
use crate::rules::Rules;
use crate::skill::{School, Sheet, Skill};

/// The most combatants in one fight.
pub const MAX_COMBATANTS: usize = 8;

/// Initiative rolls enumerated at once before the exact order law is refused.
const MAX_INITIATIVE_WORK: u64 = 4_000_000;

/// Re-rolls of a full initiative tie before the play path settles it in scene order
/// (never reached in practice: a tie of every die has chance below 1/6).
const MAX_REROLLS: u32 = 10_000;

// ---------------------------------------------------------------------------------------
// The scene
// ---------------------------------------------------------------------------------------

/// An implement as a scene writes it: a name from the rulebook's catalogue (L237–L260;
/// its bonuses that match the roll: "to hit" for the attack, "defense" for the defense,
/// the skill's own for any other) or one bonus in the crate's terms.
///
/// ```
/// use dice_swimclass::Bonus;
/// use dice_swimclass::encounter::ImplementSpec;
/// let sword = ImplementSpec::Named("Great Sword".into());
/// let club = ImplementSpec::Bonus(Bonus::Plus { dice: 1, modifier: 2 });
/// assert_eq!(club.to_string(), "(1+2)");
/// assert_eq!(sword.to_string(), "Great Sword");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum ImplementSpec {
    /// A catalogue implement by name (case-insensitive).
    Named(String),
    /// One bonus: `{ plus = { dice = 1, modifier = 2 } }`, `{ cancel_criticals = 1 }`,
    /// `{ constant = { dice = 1, value = 5 } }`, `{ dice = 1 }`.
    Bonus(Bonus),
}

impl fmt::Display for ImplementSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImplementSpec::Named(n) => f.write_str(n),
            ImplementSpec::Bonus(b) => write!(f, "{b}"),
        }
    }
}

/// A combatant's tactic for the default policy ([`Rulebook`]).
///
/// ```
/// assert_eq!(dice_swimclass::encounter::Stance::default().to_string(), "attack");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Stance {
    /// Attack the standing foe with the fewest HP every turn.
    #[default]
    Attack,
    /// With an ally standing to make use of it, stun a standing foe that is not stunned
    /// (L231); else attack. (Alone, a stun that lasts until one's own next turn only
    /// delays the fight.)
    Stun,
    /// Hold the reserve skill in reserve (L43) when down to its last HP, else attack.
    Guard,
}

impl fmt::Display for Stance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stance::Attack => "attack",
            Stance::Stun => "stun",
            Stance::Guard => "guard",
        })
    }
}

fn default_defense() -> Skill {
    Skill::BasicDefense
}

fn default_initiative() -> Skill {
    Skill::Finesse
}

/// One combatant of a scene, in the rulebook's terms: a character sheet, the skills it
/// fights with and its implements.
///
/// ```
/// use dice_swimclass::{Sheet, Skill};
/// use dice_swimclass::encounter::CombatantSheet;
/// let orc = CombatantSheet::new("Orc", "orcs", Sheet::with_ranks([(Skill::BasicMelee, 2)]));
/// assert_eq!(orc.attack, Skill::BasicMelee);
/// assert_eq!(orc.defense, Skill::BasicDefense);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct CombatantSheet {
    /// Its name (unique in the scene).
    pub name: String,
    /// Its side: combatants of the same side never attack each other.
    pub side: String,
    /// Its skill ranks (skills not written have their defaults, L23).
    pub skills: Sheet,
    /// The attack skill (each class of weapons has its own, L39). Default Basic Melee.
    #[cfg_attr(feature = "serde", serde(default = "default_attack"))]
    pub attack: Skill,
    /// The implements of the attack roll.
    #[cfg_attr(feature = "serde", serde(default))]
    pub attack_implements: Vec<ImplementSpec>,
    /// The range in squares of a ranged attack (difficulty Range + 1, L109); none for a
    /// melee attack (no threshold, L107).
    #[cfg_attr(feature = "serde", serde(default))]
    pub range: Option<u32>,
    /// The skill it defends with, "Defense skill or a skill matching or countering the
    /// attack" (L37); its rank + 1 is the HP pool (L41, L113). Default Basic Defense.
    #[cfg_attr(feature = "serde", serde(default = "default_defense"))]
    pub defense: Skill,
    /// The implements of the defense roll.
    #[cfg_attr(feature = "serde", serde(default))]
    pub defense_implements: Vec<ImplementSpec>,
    /// The skill standing for "Agility" in initiative (L45, SW-A12). Default Finesse.
    #[cfg_attr(feature = "serde", serde(default = "default_initiative"))]
    pub initiative: Skill,
    /// A skill it may hold in reserve instead of acting (L43).
    #[cfg_attr(feature = "serde", serde(default))]
    pub reserve: Option<Skill>,
    /// The range of its Stun (Death magic, difficulty Range, L231), if it casts it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub stun_range: Option<u32>,
    /// Its tactic under the default policy.
    #[cfg_attr(feature = "serde", serde(default))]
    pub stance: Stance,
}

#[cfg(feature = "serde")]
fn default_attack() -> Skill {
    Skill::BasicMelee
}

impl CombatantSheet {
    /// A melee combatant with default skills and no implements.
    ///
    /// ```
    /// use dice_swimclass::Sheet;
    /// let c = dice_swimclass::encounter::CombatantSheet::new("Harro", "heroes", Sheet::default());
    /// assert_eq!(c.range, None);
    /// ```
    pub fn new(name: &str, side: &str, skills: Sheet) -> CombatantSheet {
        CombatantSheet {
            name: name.to_owned(),
            side: side.to_owned(),
            skills,
            attack: Skill::BasicMelee,
            attack_implements: Vec::new(),
            range: None,
            defense: default_defense(),
            defense_implements: Vec::new(),
            initiative: default_initiative(),
            reserve: None,
            stun_range: None,
            stance: Stance::Attack,
        }
    }
}

/// A fight as a scene file describes it: a title and the combatants (TOML
/// `[[combatant]]` tables).
///
/// ```
/// let scene = dice_swimclass::encounter::Scene::sample_rounds();
/// assert_eq!(scene.combatant.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Scene {
    /// What the fight is.
    #[cfg_attr(feature = "serde", serde(default))]
    pub title: Option<String>,
    /// The combatants, in the scene's order (which settles nothing but ties of the default
    /// policy's choice of target).
    pub combatant: Vec<CombatantSheet>,
}

impl Scene {
    /// The Sample Rounds' melee (L270–L284), as `scenes/sample-rounds.toml` ships it: the
    /// orc (Melee 2 with a +2 club, Defense 3) against Harro (Melee 3 with his Great Sword,
    /// parrying with Melee, L272), Finesse 1 each for initiative.
    ///
    /// ```
    /// let s = dice_swimclass::encounter::Scene::sample_rounds();
    /// assert_eq!(s.combatant[1].name, "Harro");
    /// ```
    pub fn sample_rounds() -> Scene {
        let mut orc = CombatantSheet::new(
            "Orc",
            "Orc",
            Sheet::with_ranks([(Skill::BasicMelee, 2), (Skill::BasicDefense, 3)]),
        );
        orc.attack_implements = vec![ImplementSpec::Bonus(Bonus::Plus {
            dice: 1,
            modifier: 2,
        })];
        let mut harro = CombatantSheet::new(
            "Harro",
            "Harro",
            Sheet::with_ranks([(Skill::BasicMelee, 3)]),
        );
        harro.attack_implements = vec![ImplementSpec::Named("Great Sword".into())];
        harro.defense = Skill::BasicMelee;
        harro.defense_implements = vec![ImplementSpec::Named("Great Sword".into())];
        Scene {
            title: Some("Sample Rounds: the orc's club against Harro's Great Sword".into()),
            combatant: vec![orc, harro],
        }
    }
}

// ---------------------------------------------------------------------------------------
// Combatants in play
// ---------------------------------------------------------------------------------------

/// A combatant in play: the dice it rolls, built from its sheet and implements.
///
/// ```
/// use dice_swimclass::Rules;
/// use dice_swimclass::encounter::{Combatant, Scene};
/// let harro = Combatant::new(&Scene::sample_rounds().combatant[1], &Rules::default())?;
/// assert_eq!(harro.max_hp(), 4); // parrying with Melee 3 (L113)
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combatant {
    /// Its name.
    pub name: String,
    /// Its side's name.
    pub side: String,
    /// The attack dice (skill and implements).
    pub attack: SkillDice,
    /// The per-die difficulty of its attack ([`NO_THRESHOLD`] in melee).
    pub difficulty: i32,
    /// The defense dice (skill and implements).
    pub defense: SkillDice,
    /// The Defense rank: HP, stabilization and death (L41).
    pub defense_rank: u32,
    /// The initiative dice.
    pub initiative: SkillDice,
    /// The rank of the skill it may hold in reserve.
    pub reserve: Option<u32>,
    /// Stun's dice and difficulty (Range, L231).
    pub stun: Option<(SkillDice, i32)>,
    /// Its tactic for the default policy.
    pub stance: Stance,
}

fn implement_of(spec: &ImplementSpec, applies: Applies) -> Result<Option<Implement>, Error> {
    match spec {
        ImplementSpec::Bonus(b) => Ok(Some(Implement::new("implement", [*b]))),
        ImplementSpec::Named(n) => {
            let e = catalogue(n).ok_or_else(|| Error::Scene {
                what: format!("{n:?} is not in the rulebook's catalogue of implements"),
            })?;
            Ok(e.implement_for(applies))
        }
    }
}

fn dice_of(
    sheet: &Sheet,
    skill: Skill,
    specs: &[ImplementSpec],
    applies: Applies,
) -> Result<SkillDice, Error> {
    let mut imps = Vec::new();
    for s in specs {
        // A catalogue implement may also grant its bonus to the skill by name.
        let found = match implement_of(s, applies)? {
            Some(i) => Some(i),
            None => implement_of(s, Applies::Skill(skill))?,
        };
        if let Some(i) = found {
            imps.push(i);
        }
    }
    let refs: Vec<&Implement> = imps.iter().collect();
    sheet.dice(skill, &refs)
}

impl Combatant {
    /// The combatant in play for a scene's entry.
    ///
    /// # Errors
    /// [`Error::Scene`] for an empty name or side, an unknown implement, a ranged attack
    /// without a range, or an attack skill with no dice; the sheet's errors for a skill it
    /// may not use ([`Error::Unavailable`]).
    ///
    /// ```
    /// use dice_swimclass::{Rules, Sheet, Skill};
    /// use dice_swimclass::encounter::{Combatant, CombatantSheet};
    /// let mut archer = CombatantSheet::new("Aerolis", "heroes", Sheet::with_ranks([(Skill::BasicRanged, 3)]));
    /// archer.attack = Skill::BasicRanged;
    /// assert!(Combatant::new(&archer, &Rules::default()).is_err()); // no range
    /// archer.range = Some(1);
    /// assert_eq!(Combatant::new(&archer, &Rules::default())?.difficulty, 2);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn new(c: &CombatantSheet, rules: &Rules) -> Result<Combatant, Error> {
        let scene = |what: String| Error::Scene { what };
        if c.name.trim().is_empty() {
            return Err(scene("a combatant has no name".into()));
        }
        if c.side.trim().is_empty() {
            return Err(scene(format!("{} has no side", c.name)));
        }
        let attack = dice_of(&c.skills, c.attack, &c.attack_implements, Applies::ToHit)?;
        if attack.rolled(rules) == 0 {
            return Err(scene(format!("{} has no dice to attack with", c.name)));
        }
        let difficulty = match (c.range, c.attack) {
            (Some(r), _) => {
                if r > 999 {
                    return Err(scene(format!(
                        "{}'s range {r} is beyond 999 squares",
                        c.name
                    )));
                }
                ranged_difficulty(r)
            }
            (None, Skill::BasicRanged | Skill::Throw) => {
                return Err(scene(format!(
                    "{} attacks with {} but the scene gives no range (L109)",
                    c.name, c.attack
                )));
            }
            (None, _) => NO_THRESHOLD,
        };
        let defense = dice_of(
            &c.skills,
            c.defense,
            &c.defense_implements,
            Applies::Defense,
        )?;
        let defense_rank = c.skills.rank(c.defense);
        if defense_rank > 60 {
            return Err(scene(format!(
                "{}'s Defense rank {defense_rank} is beyond 60",
                c.name
            )));
        }
        let initiative = c.skills.dice(c.initiative, &[])?;
        let reserve = c.reserve.map(|s| c.skills.rank(s));
        // The reserve's dice must fit a roll.
        if let Some(r) = reserve {
            with_reserve(defense.clone(), r, rules)?;
        }
        let stun = match c.stun_range {
            Some(r) if r > 999 => {
                return Err(scene(format!("{}'s stun range {r} is beyond 999", c.name)));
            }
            Some(r) => Some((c.skills.dice(Skill::Magic(School::Death), &[])?, r as i32)),
            None => None,
        };
        if c.stance == Stance::Stun && stun.is_none() {
            return Err(scene(format!(
                "{} has the stun stance but no stun_range (Death magic, L231)",
                c.name
            )));
        }
        if c.stance == Stance::Guard && reserve.is_none() {
            return Err(scene(format!(
                "{} has the guard stance but no reserve skill (L43)",
                c.name
            )));
        }
        Ok(Combatant {
            name: c.name.clone(),
            side: c.side.clone(),
            attack,
            difficulty,
            defense,
            defense_rank,
            initiative,
            reserve,
            stun,
            stance: c.stance,
        })
    }

    /// HP before taking damage: Defense + 1 (L41).
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Combatant, Scene}};
    /// let orc = Combatant::new(&Scene::sample_rounds().combatant[0], &Rules::default())?;
    /// assert_eq!(orc.max_hp(), 4);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn max_hp(&self) -> u32 {
        max_hp(self.defense_rank)
    }
}

// ---------------------------------------------------------------------------------------
// The state
// ---------------------------------------------------------------------------------------

/// One combatant's standing in a fight: its HP and what it has going on.
///
/// ```
/// use dice_swimclass::encounter::Standing;
/// let s = Standing::fresh(4);
/// assert_eq!((s.hp, s.reserve, s.stunned_by), (4, false, None));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Standing {
    /// HP (below 0 when dying).
    pub hp: i16,
    /// Stabilized below 0 (down, no longer dying).
    pub stable: bool,
    /// Critical failures to stabilize so far (dead beyond the Defense rank).
    pub stabilize_criticals: u8,
    /// Holding its reserve skill until its next turn (L43).
    pub reserve: bool,
    /// Stunned until this combatant's next turn (L231).
    pub stunned_by: Option<u8>,
}

impl Standing {
    /// Unhurt, with `hp` HP.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::encounter::Standing::fresh(2).hp, 2);
    /// ```
    pub fn fresh(hp: u32) -> Standing {
        Standing {
            hp: hp.min(i16::MAX as u32) as i16,
            stable: false,
            stabilize_criticals: 0,
            reserve: false,
            stunned_by: None,
        }
    }

    fn health(&self, defense_rank: u32) -> Health {
        Health {
            defense_rank,
            hp: i64::from(self.hp),
            stabilize_criticals: u32::from(self.stabilize_criticals),
            stable: self.stable,
        }
    }

    fn set_health(&mut self, h: &Health) {
        self.hp = h.hp.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
        self.stable = h.stable;
        self.stabilize_criticals = h.stabilize_criticals.min(255) as u8;
    }
}

/// A fight in progress: the initiative order (empty before it is rolled) and every
/// combatant's standing, in the scene's order. No round counter.
///
/// ```
/// use dice_core::Encounter;
/// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
/// let fight = Fight::new(&Scene::sample_rounds(), Rules::default())?;
/// let s = fight.start();
/// assert!(s.order.is_empty());
/// assert_eq!(s.to_string(), "initiative to roll; 4 HP, 4 HP");
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FightState {
    /// The initiative order (combatant indices, first to act first); empty before the first
    /// round.
    pub order: Vec<u8>,
    /// Each combatant's standing, in the scene's order.
    pub standing: Vec<Standing>,
}

fn standing_text(s: &Standing, defense_rank: Option<u32>) -> String {
    let mut t = format!("{} HP", s.hp);
    if let Some(d) = defense_rank {
        match s.health(d).condition() {
            Condition::Up => {}
            c => t.push_str(&format!(" {c}")),
        }
    }
    if s.reserve {
        t.push_str(" in reserve");
    }
    if s.stunned_by.is_some() {
        t.push_str(" stunned");
    }
    t
}

impl fmt::Display for FightState {
    /// `initiative to roll; 4 HP, 4 HP` or `order 1 0; 3 HP, 0 HP`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.order.is_empty() {
            f.write_str("initiative to roll; ")?;
        } else {
            let o: Vec<String> = self.order.iter().map(u8::to_string).collect();
            write!(f, "order {}; ", o.join(" "))?;
        }
        let v: Vec<String> = self
            .standing
            .iter()
            .map(|s| standing_text(s, None))
            .collect();
        f.write_str(&v.join(", "))
    }
}

/// What a combatant does on its turn (L35, L43, L231). Targets are combatant indices.
///
/// ```
/// assert_eq!(dice_swimclass::encounter::Action::Attack(1).to_string(), "attack #1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Action {
    /// Attack this standing foe with the attack skill.
    Attack(u8),
    /// Stun this standing foe (Death magic, L231).
    Stun(u8),
    /// Hold the reserve skill in reserve instead of acting (L43).
    Reserve,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Attack(t) => write!(f, "attack #{t}"),
            Action::Stun(t) => write!(f, "stun #{t}"),
            Action::Reserve => f.write_str("hold in reserve"),
        }
    }
}

/// How a fight ends: the side left standing.
///
/// ```
/// let w = dice_swimclass::encounter::Victory { side: "Harro".into() };
/// assert_eq!(w.to_string(), "Harro wins");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Victory {
    /// The winning side's name.
    pub side: String,
}

impl fmt::Display for Victory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} wins", self.side)
    }
}

// ---------------------------------------------------------------------------------------
// The default policy
// ---------------------------------------------------------------------------------------

/// The default policy, playing as the rulebook shows combat (L33–L43, the Sample Rounds):
/// each turn a combatant attacks ("The Attacker rolls for a chosen attack Skill"), choosing
/// the standing foe with the fewest HP (the first in the scene on a tie), so as to bring
/// one down ("A character reduced to 0 HP is down"). Its [`Stance`] can change that: `stun`
/// first stuns a standing foe not yet stunned (the first in the scene) while an ally stands
/// to make use of it; `guard` holds its reserve skill "instead of acting" when down to its
/// last HP.
///
/// ```
/// use dice_core::Policy;
/// use dice_swimclass::encounter::{Action, FightState, Rulebook, Stance, Standing};
/// let p = Rulebook::new(vec![Stance::Attack; 3]);
/// let s = FightState { order: vec![0, 1, 2], standing: vec![Standing::fresh(4), Standing::fresh(3), Standing::fresh(2)] };
/// assert_eq!(p.choose(&s, 0, &[Action::Attack(1), Action::Attack(2)]), Action::Attack(2));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rulebook {
    stances: Vec<Stance>,
    sides: Vec<u8>,
}

impl Rulebook {
    /// The default policy with each combatant's stance (missing ones attack); every
    /// combatant on a side of its own until [`Rulebook::with_sides`].
    ///
    /// ```
    /// let p = dice_swimclass::encounter::Rulebook::new(vec![]);
    /// assert_eq!(p, Default::default());
    /// ```
    pub fn new(stances: Vec<Stance>) -> Rulebook {
        Rulebook {
            stances,
            sides: Vec::new(),
        }
    }

    /// The same policy knowing each combatant's side (the index of its side), which the
    /// `stun` stance needs to see an ally standing.
    ///
    /// ```
    /// use dice_swimclass::encounter::{Rulebook, Stance};
    /// let p = Rulebook::new(vec![Stance::Stun, Stance::Attack]).with_sides(vec![0, 0]);
    /// assert_ne!(p, Rulebook::new(vec![Stance::Stun, Stance::Attack]));
    /// ```
    pub fn with_sides(mut self, sides: Vec<u8>) -> Rulebook {
        self.sides = sides;
        self
    }
}

impl Policy<FightState, Action> for Rulebook {
    fn choose(&self, state: &FightState, who: usize, open: &[Action]) -> Action {
        let stance = self.stances.get(who).copied().unwrap_or_default();
        let hp = |t: u8| state.standing.get(t as usize).map_or(i16::MAX, |s| s.hp);
        match stance {
            Stance::Stun => {
                let side = self.sides.get(who);
                let ally = side.is_some()
                    && state
                        .standing
                        .iter()
                        .enumerate()
                        .any(|(k, s)| k != who && self.sides.get(k) == side && s.hp > 0);
                let fresh = open.iter().find(|a| {
                    matches!(a, Action::Stun(t)
                        if state.standing.get(*t as usize).is_some_and(|s| s.stunned_by.is_none()))
                });
                if let (true, Some(a)) = (ally, fresh) {
                    return *a;
                }
            }
            Stance::Guard => {
                let me = state.standing.get(who).map_or(0, |s| s.hp);
                if me <= 1 && open.contains(&Action::Reserve) {
                    return Action::Reserve;
                }
            }
            Stance::Attack => {}
        }
        let mut best: Option<(i16, u8)> = None;
        for a in open {
            if let Action::Attack(t) = *a {
                if best.is_none_or(|(h, _)| hp(t) < h) {
                    best = Some((hp(t), t));
                }
            }
        }
        match best {
            Some((_, t)) => Action::Attack(t),
            None => open[0],
        }
    }
}

// ---------------------------------------------------------------------------------------
// The fight
// ---------------------------------------------------------------------------------------

/// One matchup's rolls: the attack (and stun) of one combatant on another, against the
/// target's defense with or without its reserve, and their exact laws.
#[derive(Clone, Debug)]
struct Matchup {
    attack: OpposedRoll,
    hits: Dist<u32>,
    stun: Option<(OpposedRoll, Dist<bool>)>,
}

/// A fight: the combatants, the rulings and the policy they play by. An [`Encounter`]
/// whose exact law is [`dice_core::end_law`] and whose rounds are played with
/// [`dice_core::play`].
///
/// ```
/// use dice_core::{Encounter, play};
/// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let fight = Fight::new(&Scene::sample_rounds(), Rules::default())?;
/// let played = play(&fight, &mut Xoshiro256PlusPlus::seed_from_u64(1), 1_000);
/// assert!(played.end.is_some());
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Fight<P = Rulebook> {
    combatants: Vec<Combatant>,
    sides: Vec<u8>,
    side_names: Vec<String>,
    title: String,
    rules: Rules,
    policy: P,
    /// Keyed by (attacker, target, target holds its reserve).
    matchups: BTreeMap<(u8, u8, bool), Matchup>,
    initiative: Vec<Initiative>,
    order_law: Dist<Vec<u8>>,
}

impl Fight<Rulebook> {
    /// The fight of a scene under `rules`, played by the default policy ([`Rulebook`]).
    ///
    /// # Errors
    /// [`Error::Scene`] for fewer than two sides, more than [`MAX_COMBATANTS`], a name used
    /// twice, or two combatants with no initiative dice; [`Combatant::new`]'s errors; the
    /// attack laws' errors (an attack too large to enumerate).
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let mut s = Scene::sample_rounds();
    /// s.combatant.pop();
    /// assert!(Fight::new(&s, Rules::default()).is_err()); // one side only
    /// ```
    pub fn new(scene: &Scene, rules: Rules) -> Result<Fight<Rulebook>, Error> {
        let stances = scene.combatant.iter().map(|c| c.stance).collect();
        let mut f = Fight::with_policy(scene, rules, Rulebook::new(stances))?;
        f.policy = f.policy.clone().with_sides(f.sides.clone());
        Ok(f)
    }
}

impl<P> Fight<P> {
    /// The fight of a scene played by the caller's policy.
    ///
    /// # Errors
    /// As [`Fight::new`].
    ///
    /// ```
    /// use dice_core::Policy;
    /// use dice_swimclass::{Rules, encounter::{Action, Fight, FightState, Scene}};
    /// struct First;
    /// impl Policy<FightState, Action> for First {
    ///     fn choose(&self, _: &FightState, _: usize, open: &[Action]) -> Action { open[0] }
    /// }
    /// let f = Fight::with_policy(&Scene::sample_rounds(), Rules::default(), First)?;
    /// assert_eq!(f.combatants().len(), 2);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn with_policy(scene: &Scene, rules: Rules, policy: P) -> Result<Fight<P>, Error> {
        let scene_err = |what: String| Error::Scene { what };
        let n = scene.combatant.len();
        if n > MAX_COMBATANTS {
            return Err(scene_err(format!(
                "{n} combatants: a fight holds at most {MAX_COMBATANTS}"
            )));
        }
        let combatants = scene
            .combatant
            .iter()
            .map(|c| Combatant::new(c, &rules))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, c) in combatants.iter().enumerate() {
            if combatants[..i].iter().any(|d| d.name == c.name) {
                return Err(scene_err(format!("two combatants are named {}", c.name)));
            }
        }
        let mut side_names: Vec<String> = Vec::new();
        let mut sides = Vec::new();
        for c in &combatants {
            let k = match side_names.iter().position(|s| *s == c.side) {
                Some(k) => k,
                None => {
                    side_names.push(c.side.clone());
                    side_names.len() - 1
                }
            };
            sides.push(k as u8);
        }
        if side_names.len() < 2 {
            return Err(scene_err(
                "a fight needs combatants on at least two sides".into(),
            ));
        }
        let no_dice = combatants
            .iter()
            .filter(|c| c.initiative.rolled(&rules) == 0)
            .count();
        if no_dice > 1 {
            return Err(scene_err(
                "two combatants roll no initiative dice: they would tie for ever (L45)".into(),
            ));
        }
        let mut matchups = BTreeMap::new();
        for (i, a) in combatants.iter().enumerate() {
            for (t, d) in combatants.iter().enumerate() {
                if sides[i] == sides[t] {
                    continue;
                }
                for reserve in [false, true] {
                    let defense = match (reserve, d.reserve) {
                        (false, _) => d.defense.clone(),
                        (true, Some(r)) => with_reserve(d.defense.clone(), r, &rules)?,
                        (true, None) => continue,
                    };
                    let attack = OpposedRoll::new(
                        a.attack.clone(),
                        a.difficulty,
                        Some(defense.clone()),
                        rules,
                    )?;
                    let hits = attack.distribution()?.map(|o| o.hits);
                    let stun = match &a.stun {
                        Some((dice, difficulty)) => {
                            let r =
                                OpposedRoll::new(dice.clone(), *difficulty, Some(defense), rules)?;
                            let law = r.distribution()?.map(|o| o.succeeded);
                            Some((r, law))
                        }
                        None => None,
                    };
                    matchups.insert((i as u8, t as u8, reserve), Matchup { attack, hits, stun });
                }
            }
        }
        let initiative: Vec<Initiative> = combatants
            .iter()
            .map(|c| Initiative::new(c.initiative.clone(), &rules))
            .collect();
        let all: Vec<u8> = (0..n as u8).collect();
        let mut memo = BTreeMap::new();
        let order_law = order_law(&initiative, &all, &mut memo)?;
        let title = scene.title.clone().unwrap_or_else(|| {
            let names: Vec<&str> = combatants.iter().map(|c| c.name.as_str()).collect();
            names.join(" against ")
        });
        Ok(Fight {
            combatants,
            sides,
            side_names,
            title,
            rules,
            policy,
            matchups,
            initiative,
            order_law,
        })
    }

    /// The combatants, in the scene's order.
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert_eq!(f.combatants()[0].name, "Orc");
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn combatants(&self) -> &[Combatant] {
        &self.combatants
    }

    /// The scene's title.
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert!(f.title().starts_with("Sample Rounds"));
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The policy the combatants play by.
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene, Stance}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// let _ = f.policy();
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn policy(&self) -> &P {
        &self.policy
    }

    /// The rulings the fight is played under.
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert_eq!(f.rules(), &Rules::default());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The exact law of the initiative order (L45): combatant indices, first to act first.
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// // Finesse 1 each: a fair coin after re-rolls.
    /// assert!((f.initiative_law().probability(&vec![0, 1]) - 0.5).abs() < 1e-12);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn initiative_law(&self) -> &Dist<Vec<u8>> {
        &self.order_law
    }

    /// The exact law of the hits an attack of `attacker` gets through to `target`, with or
    /// without the target's reserve (`None` for allies, or a reserve the target lacks).
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// let club = f.hits_law(0, 1, false).unwrap();
    /// assert!((club.total() - 1.0).abs() < 1e-12);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn hits_law(&self, attacker: usize, target: usize, reserve: bool) -> Option<&Dist<u32>> {
        self.matchups
            .get(&(attacker as u8, target as u8, reserve))
            .map(|m| &m.hits)
    }

    /// The side (index in the order sides first appear in the scene) of a combatant.
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert_ne!(f.side_of(0), f.side_of(1));
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn side_of(&self, who: usize) -> usize {
        self.sides[who] as usize
    }

    /// A state for a person: every combatant's name, HP and status.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert_eq!(f.describe(&f.start()), "Orc 4/4 HP, Harro 4/4 HP");
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn describe(&self, state: &FightState) -> String {
        let v: Vec<String> = self
            .combatants
            .iter()
            .zip(&state.standing)
            .map(|(c, s)| {
                let mut t = format!("{} {}/{} HP", c.name, s.hp, c.max_hp());
                let h = s.health(c.defense_rank).condition();
                if h != Condition::Up {
                    t.push_str(&format!(" {h}"));
                }
                if s.reserve {
                    t.push_str(" (reserve)");
                }
                if s.stunned_by.is_some() {
                    t.push_str(" (stunned)");
                }
                t
            })
            .collect();
        v.join(", ")
    }

    fn condition(&self, state: &FightState, who: usize) -> Condition {
        state.standing[who]
            .health(self.combatants[who].defense_rank)
            .condition()
    }

    /// Whether a combatant stands (above 0 HP: it may act and be attacked).
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert!(f.stands(&f.start(), 0));
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn stands(&self, state: &FightState, who: usize) -> bool {
        self.condition(state, who) == Condition::Up
    }

    /// The actions open to `who` on its turn in `state` (after its turn began: its reserve
    /// dropped, stuns it caused ended): none unless it stands and is not stunned; else an
    /// attack on each standing foe, a stun on each when it casts Stun, and holding its
    /// reserve when it has one.
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_swimclass::{Rules, encounter::{Action, Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert_eq!(f.open_actions(&f.start(), 0), vec![Action::Attack(1)]);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn open_actions(&self, state: &FightState, who: usize) -> Vec<Action> {
        let mut open = Vec::new();
        if !self.stands(state, who) || state.standing[who].stunned_by.is_some() {
            return open;
        }
        for t in 0..self.combatants.len() {
            if self.sides[t] != self.sides[who] && self.stands(state, t) {
                open.push(Action::Attack(t as u8));
            }
        }
        if self.combatants[who].stun.is_some() {
            let n = open.len();
            for k in 0..n {
                if let Action::Attack(t) = open[k] {
                    open.push(Action::Stun(t));
                }
            }
        }
        if self.combatants[who].reserve.is_some() {
            open.push(Action::Reserve);
        }
        open
    }

    /// The start of `who`'s turn: its reserve ends, stuns it caused end (L43, L231).
    fn begin_turn(&self, state: &mut FightState, who: usize) {
        state.standing[who].reserve = false;
        for s in &mut state.standing {
            if s.stunned_by == Some(who as u8) {
                s.stunned_by = None;
            }
        }
    }

    /// Merges states that play alike: a combatant no longer standing holds no reserve and
    /// is not stunned.
    fn tidy(&self, state: &mut FightState) {
        for who in 0..state.standing.len() {
            if !self.stands(state, who) {
                state.standing[who].reserve = false;
                state.standing[who].stunned_by = None;
            }
        }
    }

    fn stabilize_roll(&self, state: &FightState, who: usize) -> Result<Stabilize, Error> {
        let c = &self.combatants[who];
        let h = state.standing[who].health(c.defense_rank);
        Stabilize::new(SkillDice::new(c.defense_rank), &h, &self.rules)
    }

    fn matchup(&self, who: usize, target: usize, state: &FightState) -> &Matchup {
        let reserve = state.standing[target].reserve;
        &self.matchups[&(who as u8, target as u8, reserve)]
    }
}

impl<P: Policy<FightState, Action>> Fight<P> {
    /// The policy's choice, if open; else the first open action (an action not open is
    /// refused: no combatant acts out of turn or beyond what its status allows).
    fn choice(&self, state: &FightState, who: usize, open: &[Action]) -> Action {
        let a = self.policy.choose(state, who, open);
        if open.contains(&a) { a } else { open[0] }
    }

    /// The exact law of the state after `who`'s turn.
    fn turn_law(&self, state: &FightState, who: usize) -> Result<Dist<FightState>, Error> {
        if self.end(state).is_some() {
            return Ok(Dist::certain(state.clone()));
        }
        let mut s = state.clone();
        self.begin_turn(&mut s, who);
        let law = match self.condition(&s, who) {
            Condition::Dying => {
                let roll = self.stabilize_roll(&s, who)?;
                let d = roll.distribution()?;
                let rank = self.combatants[who].defense_rank;
                d.map(|o| {
                    let mut t = s.clone();
                    let mut h = t.standing[who].health(rank);
                    h.stabilize(*o);
                    t.standing[who].set_health(&h);
                    t
                })
            }
            Condition::Up => {
                let open = self.open_actions(&s, who);
                if open.is_empty() {
                    Dist::certain(s)
                } else {
                    match self.choice(&s, who, &open) {
                        Action::Reserve => {
                            s.standing[who].reserve = true;
                            Dist::certain(s)
                        }
                        Action::Attack(t) => {
                            let t = t as usize;
                            let rank = self.combatants[t].defense_rank;
                            self.matchup(who, t, &s).hits.map(|&hits| {
                                let mut n = s.clone();
                                let mut h = n.standing[t].health(rank);
                                h.take(hits);
                                n.standing[t].set_health(&h);
                                n
                            })
                        }
                        Action::Stun(t) => match &self.matchup(who, t as usize, &s).stun {
                            Some((_, law)) => law.map(|&stunned| {
                                let mut n = s.clone();
                                if stunned {
                                    n.standing[t as usize].stunned_by = Some(who as u8);
                                }
                                n
                            }),
                            None => Dist::certain(s),
                        },
                    }
                }
            }
            Condition::Down | Condition::Dead => Dist::certain(s),
        };
        Ok(law.map(|x| {
            let mut x = x.clone();
            self.tidy(&mut x);
            x
        }))
    }

    /// Plays `who`'s turn with the caller's RNG.
    fn play_turn<R: Rng + ?Sized>(&self, state: &mut FightState, who: usize, rng: &mut R) {
        if self.end(state).is_some() {
            return;
        }
        self.begin_turn(state, who);
        match self.condition(state, who) {
            Condition::Dying => {
                if let Ok(roll) = self.stabilize_roll(state, who) {
                    let o = roll.roll(rng);
                    let rank = self.combatants[who].defense_rank;
                    let mut h = state.standing[who].health(rank);
                    h.stabilize(o);
                    state.standing[who].set_health(&h);
                }
            }
            Condition::Up => {
                let open = self.open_actions(state, who);
                if !open.is_empty() {
                    match self.choice(state, who, &open) {
                        Action::Reserve => state.standing[who].reserve = true,
                        Action::Attack(t) => {
                            let t = t as usize;
                            let hits = self.matchup(who, t, state).attack.roll(rng).hits;
                            let rank = self.combatants[t].defense_rank;
                            let mut h = state.standing[t].health(rank);
                            h.take(hits);
                            state.standing[t].set_health(&h);
                        }
                        Action::Stun(t) => {
                            let t = t as usize;
                            let ok = self
                                .matchup(who, t, state)
                                .stun
                                .as_ref()
                                .is_some_and(|(r, _)| r.roll(rng).succeeded);
                            if ok {
                                state.standing[t].stunned_by = Some(who as u8);
                            }
                        }
                    }
                }
            }
            Condition::Down | Condition::Dead => {}
        }
        self.tidy(state);
    }

    /// The exact law of one round played in `order`.
    fn round_in_order(&self, state: &FightState) -> Result<Dist<FightState>, Error> {
        let mut law = Dist::certain(state.clone());
        for &who in &state.order {
            law = law.and_then(|s| self.turn_law(s, who as usize))?;
        }
        Ok(law)
    }
}

impl<P: Policy<FightState, Action>> Encounter for Fight<P> {
    type State = FightState;
    type End = Victory;

    fn start(&self) -> FightState {
        FightState {
            order: Vec::new(),
            standing: self
                .combatants
                .iter()
                .map(|c| Standing::fresh(c.max_hp()))
                .collect(),
        }
    }

    fn end(&self, state: &FightState) -> Option<Victory> {
        let mut up: Option<u8> = None;
        for who in 0..state.standing.len() {
            if self.stands(state, who) {
                match up {
                    None => up = Some(self.sides[who]),
                    Some(s) if s != self.sides[who] => return None,
                    Some(_) => {}
                }
            }
        }
        // Nobody standing cannot happen (only standing foes are attacked, one at a time);
        // it would count for the first side.
        let side = up.unwrap_or(0) as usize;
        Some(Victory {
            side: self.side_names[side].clone(),
        })
    }

    fn round_law(&self, state: &FightState) -> Result<Dist<FightState>, dice_core::Error> {
        let r = if state.order.is_empty() {
            self.order_law.and_then(|order| {
                let mut s = state.clone();
                s.order = order.clone();
                self.round_in_order(&s)
            })
        } else {
            self.round_in_order(state)
        };
        r.map_err(crate::task::core_error)
    }

    fn play_round<R: Rng + ?Sized>(&self, state: &FightState, rng: &mut R) -> FightState {
        let mut s = state.clone();
        if s.order.is_empty() {
            let all: Vec<u8> = (0..self.combatants.len() as u8).collect();
            s.order = roll_order(&self.initiative, &all, rng);
        }
        let order = s.order.clone();
        for who in order {
            self.play_turn(&mut s, who as usize, rng);
        }
        s
    }
}

// ---------------------------------------------------------------------------------------
// Initiative for any number of combatants
// ---------------------------------------------------------------------------------------

/// Groups `members` by score, best first; members of one group tie.
fn groups(members: &[u8], scores: &[InitiativeScore]) -> Vec<Vec<u8>> {
    let mut v: Vec<(InitiativeScore, u8)> =
        members.iter().zip(scores).map(|(&m, &s)| (s, m)).collect();
    v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut last: Option<InitiativeScore> = None;
    for (s, m) in v {
        if last == Some(s) {
            if let Some(g) = out.last_mut() {
                g.push(m);
            }
        } else {
            out.push(vec![m]);
        }
        last = Some(s);
    }
    out
}

/// The exact law of the order of `members` (L45): one roll each; a group that ties
/// re-rolls among itself (SW-A12), all of them tying re-rolls the whole roll.
fn order_law(
    init: &[Initiative],
    members: &[u8],
    memo: &mut BTreeMap<Vec<u8>, Dist<Vec<u8>>>,
) -> Result<Dist<Vec<u8>>, Error> {
    if members.len() <= 1 {
        return Ok(Dist::certain(members.to_vec()));
    }
    if let Some(d) = memo.get(members) {
        return Ok(d.clone());
    }
    let laws: Vec<Dist<InitiativeScore>> = members
        .iter()
        .map(|&m| init[m as usize].distribution())
        .collect::<Result<_, _>>()?;
    let work = laws
        .iter()
        .fold(1u64, |w, l| w.saturating_mul(l.len() as u64));
    if work > MAX_INITIATIVE_WORK {
        return Err(dice_core::Error::TooComplex {
            what: "the initiative order of a Swimclass fight",
            work,
            max: MAX_INITIATIVE_WORK,
        }
        .into());
    }
    // Every joint roll, as an odometer over the laws.
    let mut pairs: BTreeMap<Vec<Vec<u8>>, f64> = BTreeMap::new();
    let mut tie = 0.0;
    let mut idx = vec![0usize; laws.len()];
    loop {
        let mut p = 1.0;
        let mut scores = Vec::with_capacity(laws.len());
        for (l, &k) in laws.iter().zip(&idx) {
            scores.push(l.outcomes()[k]);
            p *= l.probabilities()[k];
        }
        let g = groups(members, &scores);
        if g.len() == 1 {
            tie += p;
        } else {
            *pairs.entry(g).or_insert(0.0) += p;
        }
        let mut j = 0;
        loop {
            if j == idx.len() {
                break;
            }
            idx[j] += 1;
            if idx[j] < laws[j].len() {
                break;
            }
            idx[j] = 0;
            j += 1;
        }
        if j == idx.len() {
            break;
        }
    }
    let resolved = 1.0 - tie;
    let mut out: Vec<(Vec<u8>, f64)> = Vec::new();
    for (gs, p) in pairs {
        let mut law = Dist::certain(Vec::new());
        for g in &gs {
            let sub = order_law(init, g, memo)?;
            law = law.and_then(|prefix: &Vec<u8>| -> Result<Dist<Vec<u8>>, Error> {
                Ok(sub.map(|o| {
                    let mut v = prefix.clone();
                    v.extend_from_slice(o);
                    v
                }))
            })?;
        }
        out.extend(law.iter().map(|(o, q)| (o.clone(), p * q / resolved)));
    }
    let d = Dist::from_pairs(out)?;
    memo.insert(members.to_vec(), d.clone());
    Ok(d)
}

/// Rolls the initiative order of `members` with the caller's RNG, re-rolling ties among
/// the tied (the play path of [`order_law`]).
fn roll_order<R: Rng + ?Sized>(init: &[Initiative], members: &[u8], rng: &mut R) -> Vec<u8> {
    if members.len() <= 1 {
        return members.to_vec();
    }
    for _ in 0..MAX_REROLLS {
        let scores: Vec<InitiativeScore> = members
            .iter()
            .map(|&m| init[m as usize].roll(rng))
            .collect();
        let g = groups(members, &scores);
        if g.len() > 1 {
            return g
                .iter()
                .flat_map(|grp| roll_order(init, grp, rng))
                .collect();
        }
    }
    members.to_vec()
}
