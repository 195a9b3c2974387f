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
//!   attacker's next turn), a **heal** (L217–L219: Life magic at difficulty Range + 3 heals
//!   one damage of itself or an ally not dead, "in combat 1/round"), a **stabilization** of
//!   a dying ally (L225: Life magic "vs. damage beyond 0 HP", read as the dying roll's own
//!   difficulty, [`crate::StabilizeRule`]), or holding a named skill in **reserve** instead
//!   of acting (L43: its dice, less one as in combining, add to every defense roll until
//!   its next turn).
//! - **Health** (L41): HP = the rank of the combatant's Defense skill + 1 (the skill it
//!   defends with in this type of combat, L113); at 0 HP it is down, below 0 it is dying
//!   and on each of its turns rolls to stabilize ([`Stabilize`], SW-A13), dead when its
//!   critical failures to stabilize exceed its Defense rank.
//! - **Advancement** (L27), when [`Rules::advance_mid_fight`] is set: every roll of the
//!   fight that earns an advance (the attack for its attacker, a defense that blocks every
//!   hit for its defender, a stun, a heal, a stabilization) raises the skill at once, with
//!   its synergies (L31) and under [`Rules::max_rank`], as the Sample Rounds do (Aerolis
//!   "gains a rank", L294, and shoots 4d6 next, L298). A raised Defense skill raises the HP
//!   pool, the wounds staying (L41 "HP pool before taking damage", the sheet's Wounds row,
//!   L305).
//! - **The end**: when only one side has combatants standing, that side wins.
//!
//! Not part of a fight: recovery rolls (once per hour of rest, L41: a fight's rounds are
//! not an hour), the GM's adverse results of criticals (L21, "left to the GM"), splitting
//! an attack's dice between targets (L35), combining, windup, straining and pushing
//! (L69–L93), movement and range changes, opposing a stun with Life (L231), undead
//! (L223, L233).
//!
//! The exact law ([`Encounter::round_law`]) is built from the crate's laws: each matchup's
//! attack law ([`OpposedRoll`], the full best-placement engine) depends only on the two
//! combatants' ranks and implements and on whether the target holds its reserve, never on
//! the rest of the state, so it is computed once for each such matchup (those of the ranks
//! the fight begins with when the fight is built, those of advanced ranks when first met),
//! and the round is their composition with [`Dist::and_then`], with the exact
//! stabilization, heal and initiative laws. [`Encounter::play_round`] rolls the same
//! [`OpposedRoll`], [`Stabilize`], [`TaskRoll`] and [`Initiative`] values with the caller's
//! RNG. Nothing is approximated.
//!
//! With advancement mid-fight, ranks only grow and nothing but [`Rules::max_rank`] stops
//! them (a defense that blocks every hit with every die at 4 or more advances, and with it
//! the HP pool, without end), so the states are endless: the exact law is then refused
//! with [`dice_core::Error::TooComplex`] unless `max_rank` is set; playing the fight (and
//! Monte Carlo) needs no ceiling.
//!
//! ```
//! use dice_core::{EncounterLimits, end_law};
//! use dice_swimclass::encounter::{Fight, Scene};
//! use dice_swimclass::Rules;
//!
//! let fight = Fight::new(&Scene::sample_rounds(), Rules::default())?;
//! let law = end_law(&fight, EncounterLimits::default())?;
//! assert!((law.ends.total() - 1.0).abs() < 1e-12);
//! // Skills advancing mid-fight with no rank ceiling: endless states, refused.
//! let endless = Rules { advance_mid_fight: true, ..Rules::default() };
//! let fight = Fight::new(&Scene::sample_rounds(), endless)?;
//! assert!(matches!(
//!     end_law(&fight, EncounterLimits::default()),
//!     Err(dice_core::Error::TooComplex { .. })
//! ));
//! # Ok::<(), dice_swimclass::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use dice_core::{Dist, Encounter, Exact, Policy, Rng, Roll};

use crate::actions::{Initiative, InitiativeScore};
use crate::combat::{
    Condition, Health, Stabilize, StabilizeOutcome, max_hp, ranged_difficulty, with_reserve,
};
use crate::dice::SkillDice;
use crate::error::Error;
use crate::implement::{Applies, Bonus, Implement, catalogue};
use crate::opposed::{NO_THRESHOLD, OpposedRoll};
use crate::rules::Rules;
use crate::skill::{School, Sheet, Skill, synergies};
use crate::task::{Task, TaskRoll};

/// The most combatants in one fight.
pub const MAX_COMBATANTS: usize = 8;

/// The most skills a fight follows for one combatant when skills advance mid-fight
/// ([`Rules::advance_mid_fight`]): the skills it fights with and every skill a synergy links
/// them to (L31), whose ranks an advance may change.
pub const MAX_TRACKED: usize = 16;

/// The difficulty of Life magic's heal beyond the range (L217: "≥ Range+3").
pub const HEAL_DIFFICULTY_OVER_RANGE: i32 = 3;

/// Initiative rolls enumerated at once before the exact order law is refused.
const MAX_INITIATIVE_WORK: u64 = 4_000_000;

/// Initiative rolls [`Fight::state_bound_of`] enumerates to count the orders exactly;
/// beyond it the bound counts every order of the combatants (n!), built at once.
const BOUND_INITIATIVE_WORK: u64 = 50_000;

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
    /// With Life magic: stabilize a dying ally (L225), else heal one damage of a side member
    /// (itself included) that is down or at its last HP (L217–L219), else attack.
    Heal,
}

impl fmt::Display for Stance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stance::Attack => "attack",
            Stance::Stun => "stun",
            Stance::Guard => "guard",
            Stance::Heal => "heal",
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
    /// The range of its heal (Life magic, difficulty Range + 3, L217), if it casts Life
    /// magic in the fight; it may then also stabilize a dying ally (L225).
    #[cfg_attr(feature = "serde", serde(default))]
    pub heal_range: Option<u32>,
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
            heal_range: None,
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
    /// The attack dice (skill and implements) at the ranks the fight begins with.
    pub attack: SkillDice,
    /// The per-die difficulty of its attack ([`NO_THRESHOLD`] in melee).
    pub difficulty: i32,
    /// The defense dice (skill and implements) at the ranks the fight begins with.
    pub defense: SkillDice,
    /// The Defense rank the fight begins with: HP, stabilization and death (L41).
    pub defense_rank: u32,
    /// The initiative dice.
    pub initiative: SkillDice,
    /// The rank of the skill it may hold in reserve, as the fight begins.
    pub reserve: Option<u32>,
    /// Stun's dice and difficulty (Range, L231).
    pub stun: Option<(SkillDice, i32)>,
    /// Life magic's dice and the heal's difficulty (Range + 3, L217), if it heals.
    pub heal: Option<(SkillDice, i32)>,
    /// Its tactic for the default policy.
    pub stance: Stance,
    sheet: Sheet,
    attack_skill: Skill,
    attack_specs: Vec<ImplementSpec>,
    defense_skill: Skill,
    defense_specs: Vec<ImplementSpec>,
    reserve_skill: Option<Skill>,
    tracked: Vec<Skill>,
}

/// What a combatant rolls a skill for in a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Attack,
    Defense,
    Stun,
    Life,
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
    // `with_aid(0)` checks the pool's size.
    sheet.dice(skill, &refs)?.with_aid(0)
}

/// The skills a combatant fights with and every skill synergies link them to (L31): an
/// advance of one may raise the others, so their ranks are part of the fight's state.
fn linked_skills(fights_with: &[Skill], rules: &Rules) -> Vec<Skill> {
    let table = synergies(rules);
    let mut out: Vec<Skill> = Vec::new();
    let mut work: Vec<Skill> = fights_with.to_vec();
    while let Some(s) = work.pop() {
        if out.contains(&s) {
            continue;
        }
        out.push(s);
        for syn in &table {
            if syn.a == s {
                work.push(syn.b);
            } else if syn.b == s {
                work.push(syn.a);
            }
        }
    }
    out.sort();
    out
}

impl Combatant {
    /// The combatant in play for a scene's entry.
    ///
    /// # Errors
    /// [`Error::Scene`] for an empty name or side, an unknown implement, a ranged attack
    /// without a range, an attack skill with no dice, a stance without what it needs, or
    /// (with [`Rules::advance_mid_fight`]) more than [`MAX_TRACKED`] skills to follow; the
    /// sheet's errors for a skill it may not use ([`Error::Unavailable`]); the dice's
    /// errors for a pool too large ([`Error::TooManyDice`]).
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
        let initiative = c.skills.dice(c.initiative, &[])?.with_aid(0)?;
        let reserve = c.reserve.map(|s| c.skills.rank(s));
        // The reserve's dice must fit a roll.
        if let Some(r) = reserve {
            with_reserve(defense.clone(), r, rules)?;
        }
        let magic = |school: School| -> Result<SkillDice, Error> {
            c.skills.dice(Skill::Magic(school), &[])?.with_aid(0)
        };
        let stun = match c.stun_range {
            Some(r) if r > 999 => {
                return Err(scene(format!("{}'s stun range {r} is beyond 999", c.name)));
            }
            Some(r) => Some((magic(School::Death)?, r as i32)),
            None => None,
        };
        let heal = match c.heal_range {
            Some(r) if r > 997 => {
                return Err(scene(format!("{}'s heal range {r} is beyond 997", c.name)));
            }
            Some(r) => Some((magic(School::Life)?, r as i32 + HEAL_DIFFICULTY_OVER_RANGE)),
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
        if c.stance == Stance::Heal && heal.is_none() {
            return Err(scene(format!(
                "{} has the heal stance but no heal_range (Life magic, L217)",
                c.name
            )));
        }
        let tracked = if rules.advance_mid_fight {
            let mut fights_with = vec![c.attack, c.defense];
            fights_with.extend(c.reserve);
            if stun.is_some() {
                fights_with.push(Skill::Magic(School::Death));
            }
            if heal.is_some() {
                fights_with.push(Skill::Magic(School::Life));
            }
            let linked = linked_skills(&fights_with, rules);
            if linked.len() > MAX_TRACKED {
                return Err(scene(format!(
                    "{}'s skills link by synergy to {} skills: a fight whose skills advance \
                     follows at most {MAX_TRACKED}",
                    c.name,
                    linked.len()
                )));
            }
            linked
        } else {
            Vec::new()
        };
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
            heal,
            stance: c.stance,
            sheet: c.skills.clone(),
            attack_skill: c.attack,
            attack_specs: c.attack_implements.clone(),
            defense_skill: c.defense,
            defense_specs: c.defense_implements.clone(),
            reserve_skill: c.reserve,
            tracked,
        })
    }

    /// HP before taking damage at the ranks the fight begins with: Defense + 1 (L41).
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

    /// The skills whose ranks a fight follows for this combatant, in the order of
    /// [`Standing::gained`]: none unless [`Rules::advance_mid_fight`]; else the skills it
    /// fights with (attack, defense, reserve, Death and Life magic when it casts them) and
    /// those synergies link them to (L31).
    ///
    /// ```
    /// use dice_swimclass::{Rules, Skill, encounter::{Combatant, Scene}};
    /// let harro = &Scene::sample_rounds().combatant[1];
    /// assert!(Combatant::new(harro, &Rules::default())?.tracked().is_empty());
    /// let advancing = Rules { advance_mid_fight: true, ..Rules::default() };
    /// let c = Combatant::new(harro, &advancing)?;
    /// // Melee, and Brawn (synergy 3, L137), Throw (2 to Brawn) and Basic Ranged (2 to Throw).
    /// assert!(c.tracked().contains(&Skill::BasicMelee) && c.tracked().contains(&Skill::Brawn));
    /// assert_eq!(c.tracked().len(), 4);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn tracked(&self) -> &[Skill] {
        &self.tracked
    }

    /// Its sheet as the fight began.
    ///
    /// ```
    /// use dice_swimclass::{Rules, Skill, encounter::{Combatant, Scene}};
    /// let orc = Combatant::new(&Scene::sample_rounds().combatant[0], &Rules::default())?;
    /// assert_eq!(orc.sheet().rank(Skill::BasicDefense), 3);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn sheet(&self) -> &Sheet {
        &self.sheet
    }

    /// The skill it attacks with.
    ///
    /// ```
    /// use dice_swimclass::{Rules, Skill, encounter::{Combatant, Scene}};
    /// let orc = Combatant::new(&Scene::sample_rounds().combatant[0], &Rules::default())?;
    /// assert_eq!(orc.attack_skill(), Skill::BasicMelee);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn attack_skill(&self) -> Skill {
        self.attack_skill
    }

    /// The skill it defends with: its HP pool and the skill of its dying rolls (L41, L113).
    ///
    /// ```
    /// use dice_swimclass::{Rules, Skill, encounter::{Combatant, Scene}};
    /// let harro = Combatant::new(&Scene::sample_rounds().combatant[1], &Rules::default())?;
    /// assert_eq!(harro.defense_skill(), Skill::BasicMelee); // he parries (L272)
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn defense_skill(&self) -> Skill {
        self.defense_skill
    }

    /// The skill it may hold in reserve.
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Combatant, Scene}};
    /// let orc = Combatant::new(&Scene::sample_rounds().combatant[0], &Rules::default())?;
    /// assert_eq!(orc.reserve_skill(), None);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn reserve_skill(&self) -> Option<Skill> {
        self.reserve_skill
    }

    /// Its rank of `skill` with `gained` ranks from the fight.
    fn rank_with(&self, skill: Skill, gained: &[u8; MAX_TRACKED]) -> u32 {
        let base = self.sheet.rank(skill);
        match self.tracked.iter().position(|&s| s == skill) {
            Some(k) => base + u32::from(gained[k]),
            None => base,
        }
    }

    /// Its sheet with `gained` ranks from the fight.
    fn sheet_with(&self, gained: &[u8; MAX_TRACKED]) -> Sheet {
        let mut s = self.sheet.clone();
        for (k, &skill) in self.tracked.iter().enumerate() {
            s.set(skill, self.sheet.rank(skill) + u32::from(gained[k]));
        }
        s
    }

    /// The skill of a role.
    fn skill_of(&self, role: Role) -> Skill {
        match role {
            Role::Attack => self.attack_skill,
            Role::Defense => self.defense_skill,
            Role::Stun => Skill::Magic(School::Death),
            Role::Life => Skill::Magic(School::Life),
        }
    }

    /// The dice of a role at `rank` of its skill.
    fn dice_at(&self, role: Role, rank: u32) -> Result<SkillDice, Error> {
        let skill = self.skill_of(role);
        let mut sheet = self.sheet.clone();
        sheet.set(skill, rank);
        match role {
            Role::Attack => dice_of(&sheet, skill, &self.attack_specs, Applies::ToHit),
            Role::Defense => dice_of(&sheet, skill, &self.defense_specs, Applies::Defense),
            Role::Stun | Role::Life => sheet.dice(skill, &[])?.with_aid(0),
        }
    }

    /// Whether every roll it makes in the fight can still be made with `sheet`'s ranks (no
    /// pool beyond [`crate::MAX_POOL`] dice).
    fn can_roll(&self, sheet: &Sheet, rules: &Rules) -> bool {
        let rank = |role: Role| sheet.rank(self.skill_of(role));
        let defense = self.dice_at(Role::Defense, rank(Role::Defense));
        let reserve_ok = match (self.reserve_skill, &defense) {
            (Some(r), Ok(d)) => with_reserve(d.clone(), sheet.rank(r), rules).is_ok(),
            _ => true,
        };
        defense.is_ok()
            && reserve_ok
            && self.dice_at(Role::Attack, rank(Role::Attack)).is_ok()
            && (self.stun.is_none() || self.dice_at(Role::Stun, rank(Role::Stun)).is_ok())
            && (self.heal.is_none() || self.dice_at(Role::Life, rank(Role::Life)).is_ok())
    }
}

// ---------------------------------------------------------------------------------------
// The state
// ---------------------------------------------------------------------------------------

/// One combatant's standing in a fight: its HP, what it has going on, and the ranks its
/// skills gained in the fight.
///
/// ```
/// use dice_swimclass::encounter::Standing;
/// let s = Standing::fresh(4);
/// assert_eq!((s.hp, s.reserve, s.stunned_by), (4, false, None));
/// assert!(s.gained.iter().all(|&g| g == 0));
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
    /// The ranks each skill the fight follows for this combatant ([`Combatant::tracked`],
    /// in that order) gained in the fight (L27, L31); all 0 unless
    /// [`Rules::advance_mid_fight`].
    pub gained: [u8; MAX_TRACKED],
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
            gained: [0; MAX_TRACKED],
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

/// What a combatant does on its turn (L35, L43, L217–L231). Targets are combatant
/// indices.
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
    /// Heal one damage of this side member, itself included (Life magic, L217–L219).
    Heal(u8),
    /// Stabilize this dying ally (Life magic, L225).
    Stabilize(u8),
    /// Hold the reserve skill in reserve instead of acting (L43).
    Reserve,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Attack(t) => write!(f, "attack #{t}"),
            Action::Stun(t) => write!(f, "stun #{t}"),
            Action::Heal(t) => write!(f, "heal #{t}"),
            Action::Stabilize(t) => write!(f, "stabilize #{t}"),
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
/// last HP; `heal` first stabilizes a dying ally ("stabilize a defeated character", the one
/// furthest below 0), else heals "one damage" of the side member (itself included) with the
/// fewest HP when that one is down or at its last HP.
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
            Stance::Heal => {
                let dying = open
                    .iter()
                    .filter_map(|a| match *a {
                        Action::Stabilize(t) => Some(t),
                        _ => None,
                    })
                    .min_by_key(|&t| (hp(t), t));
                if let Some(t) = dying {
                    return Action::Stabilize(t);
                }
                let hurt = open
                    .iter()
                    .filter_map(|a| match *a {
                        Action::Heal(t) if hp(t) <= 1 => Some(t),
                        _ => None,
                    })
                    .min_by_key(|&t| (hp(t), t));
                if let Some(t) = hurt {
                    return Action::Heal(t);
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

/// What one opposed roll of a fight (an attack or a stun) does: the hits through and the
/// advances it earns (L27), both sides' (the actor's when it succeeds, the defender's when
/// it blocks every hit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Exchange {
    hits: u32,
    advances: bool,
    defense_advances: bool,
}

/// Which opposed roll: who rolls it on whom, at which ranks (the actor's attack or Death
/// magic, the target's defense and the reserve it holds, if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RollKey {
    stun: bool,
    by: u8,
    on: u8,
    rank: u32,
    defense: u32,
    reserve: Option<u32>,
}

/// One matchup's roll at the ranks the fight begins with, and its exact law.
#[derive(Clone, Debug)]
struct Matchup {
    roll: Arc<OpposedRoll>,
    law: Arc<Dist<Exchange>>,
    hits: Dist<u32>,
}

/// Values computed when first needed, kept for the rest of the fight (shared between the
/// threads that play it).
struct Memo<K, V>(Mutex<BTreeMap<K, V>>);

impl<K: Ord + Clone, V: Clone> Memo<K, V> {
    fn new() -> Self {
        Memo(Mutex::new(BTreeMap::new()))
    }

    fn get_or_try(&self, key: &K, make: impl FnOnce() -> Result<V, Error>) -> Result<V, Error> {
        let mut m = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(v) = m.get(key) {
            return Ok(v.clone());
        }
        let v = make()?;
        m.insert(key.clone(), v.clone());
        Ok(v)
    }
}

impl<K: Clone, V: Clone> Clone for Memo<K, V> {
    fn clone(&self) -> Self {
        Memo(Mutex::new(
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
        ))
    }
}

impl<K, V> fmt::Debug for Memo<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.lock().map_or(0, |m| m.len());
        write!(f, "Memo({n} kept)")
    }
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
    /// The matchups at the ranks the fight begins with.
    base: BTreeMap<RollKey, Matchup>,
    /// Rolls and laws at ranks gained in the fight, built when first met.
    rolls: Memo<RollKey, Arc<OpposedRoll>>,
    laws: Memo<RollKey, Arc<Dist<Exchange>>>,
    initiative: Vec<Initiative>,
    /// The exact law of the initiative order, built when the exact path first needs it
    /// (for eight combatants it can take many seconds, which a played fight never spends).
    order_law: OnceLock<Result<Dist<Vec<u8>>, Error>>,
    /// Played by [`Rulebook`] ([`Fight::new`]), which [`Fight::state_bound_of`] needs.
    rulebook: bool,
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
        f.rulebook = true;
        Ok(f)
    }
}

/// The law of an opposed roll's hits (for a stun, whether any got through) and advances
/// (none unless `advance`).
fn exchange_law(roll: &OpposedRoll, stun: bool, advance: bool) -> Result<Dist<Exchange>, Error> {
    Ok(roll.distribution()?.map(|o| Exchange {
        hits: if stun { o.hits.min(1) } else { o.hits },
        advances: advance && o.advances,
        defense_advances: advance && o.defense_advances,
    }))
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
        let mut base = BTreeMap::new();
        for (i, a) in combatants.iter().enumerate() {
            for (t, d) in combatants.iter().enumerate() {
                if sides[i] == sides[t] {
                    continue;
                }
                let mut reserves = vec![None];
                reserves.extend(d.reserve.map(Some));
                for reserve in reserves {
                    let defense = match reserve {
                        None => d.defense.clone(),
                        Some(r) => with_reserve(d.defense.clone(), r, &rules)?,
                    };
                    let mut rolls = vec![(false, a.attack.clone(), a.difficulty)];
                    if let Some((dice, difficulty)) = &a.stun {
                        rolls.push((true, dice.clone(), *difficulty));
                    }
                    for (stun, dice, difficulty) in rolls {
                        let key = RollKey {
                            stun,
                            by: i as u8,
                            on: t as u8,
                            rank: a.rank_with(
                                if stun {
                                    Skill::Magic(School::Death)
                                } else {
                                    a.attack_skill
                                },
                                &[0; MAX_TRACKED],
                            ),
                            defense: d.defense_rank,
                            reserve,
                        };
                        let roll =
                            OpposedRoll::new(dice, difficulty, Some(defense.clone()), rules)?;
                        let law = exchange_law(&roll, stun, rules.advance_mid_fight)?;
                        let hits = law.map(|x| x.hits);
                        base.insert(
                            key,
                            Matchup {
                                roll: Arc::new(roll),
                                law: Arc::new(law),
                                hits,
                            },
                        );
                    }
                }
            }
        }
        // The heals' rolls must be possible (a difficulty within bounds).
        for c in &combatants {
            if let Some((dice, difficulty)) = &c.heal {
                TaskRoll::new(dice.clone(), Task::single(*difficulty)?, rules)?;
            }
        }
        let initiative: Vec<Initiative> = combatants
            .iter()
            .map(|c| Initiative::new(c.initiative.clone(), &rules))
            .collect();
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
            base,
            rolls: Memo::new(),
            laws: Memo::new(),
            initiative,
            order_law: OnceLock::new(),
            rulebook: false,
        })
    }

    /// An upper bound on the states the fight can reach, from the scene alone
    /// ([`Encounter::state_bound`]; `None` for a policy other than [`Rulebook`], when skills
    /// advance mid-fight, whose ranks and HP pools the states also hold, or when an
    /// attack's hits have no top). It counts the initiative orders the roll can give (and
    /// the start before it) times the ways each side can stand:
    /// - a standing member: its HP from 1 to its pool, times holding its reserve or not
    ///   (when it has one), times stunned by none or by each foe who casts Stun;
    /// - a member no longer standing: the HP it fell to (from 0 down to 1 less the most hits
    ///   a foe's attack can get through), and below 0 its stabilization criticals so far and
    ///   whether it is stable (or dead, criticals beyond its Defense rank, as many as one
    ///   more roll can add), when no one on its side heals; when one does, every HP from the
    ///   lowest reachable to the pool with every count of criticals;
    /// - with no `heal` stance in the fight and no healer on the side, only the HP its
    ///   attacks reach (each lands on the side's standing member with the fewest HP); else
    ///   every combination.
    ///
    /// The last member of a side to fall ends the fight at once, so a side all down in a
    /// final state of a two-sided fight has one member just fallen (no roll to stabilize
    /// yet).
    ///
    /// ```
    /// use dice_core::{Encounter, EncounterLimits, end_law};
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// let law = end_law(&f, EncounterLimits::default())?;
    /// assert!(f.state_bound_of().is_some_and(|b| b >= law.states as u64));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state_bound_of(&self) -> Option<u64> {
        if self.rules.advance_mid_fight || !self.rulebook {
            return None;
        }
        let focus = self.combatants.iter().all(|c| c.stance != Stance::Heal);
        let n = self.combatants.len();
        let heals_on =
            |side: u8| (0..n).any(|k| self.sides[k] == side && self.combatants[k].heal.is_some());
        // Per member: standing weight S (per HP), states once fallen N, just fallen H.
        let mut standing_w = vec![0u64; n];
        let mut fallen = vec![0u64; n];
        let mut fresh = vec![0u64; n];
        for i in 0..n {
            let c = &self.combatants[i];
            let mut hits = 0u64;
            for m in self
                .base
                .iter()
                .filter(|(k, _)| !k.stun && k.on as usize == i)
            {
                // The attack's law is enumerated in full: a tail is only rounding.
                if m.1.hits.tail() > 1e-9 {
                    return None;
                }
                let top =
                    m.1.hits
                        .iter()
                        .filter(|&(_, p)| p > 0.0)
                        .map(|(&h, _)| u64::from(h))
                        .max()
                        .unwrap_or(0);
                hits = hits.max(top);
            }
            let r = u64::from(c.defense_rank);
            // A critical is one die's face: at most one per die of the roll.
            let crit = u64::from(SkillDice::new(c.defense_rank).rolled(&self.rules));
            let stunners = (0..n)
                .filter(|&k| self.sides[k] != self.sides[i] && self.combatants[k].stun.is_some())
                .count() as u64;
            let reserve = if c.reserve.is_some() { 2 } else { 1 };
            if heals_on(self.sides[i]) {
                let counts = r + crit + 1;
                let low = hits + r + crit; // HP from -low to 0
                standing_w[i] = reserve * (1 + stunners) * (r + 1);
                fallen[i] = (low + 1) * counts * 2;
                fresh[i] = fallen[i];
            } else {
                standing_w[i] = reserve * (1 + stunners);
                fallen[i] = if hits == 0 {
                    0
                } else {
                    1 + (hits - 1) * (2 * (r + 1) + crit)
                };
                fresh[i] = hits;
            }
        }
        let sides = self.side_names.len();
        let mut up = vec![0u64; sides];
        let mut down = vec![0u64; sides];
        let mut down_fresh = vec![0u64; sides];
        for side in 0..sides {
            let members: Vec<usize> = (0..n).filter(|&k| self.sides[k] as usize == side).collect();
            let focused = if focus && !heals_on(side as u8) {
                self.focused_side(&members, &standing_w, &fallen)
            } else {
                None
            };
            let (u, d) = match focused {
                Some(x) => x,
                None => {
                    let all = members.iter().fold(1u64, |a, &k| {
                        let s =
                            u64::from(self.combatants[k].max_hp()).saturating_mul(standing_w[k]);
                        a.saturating_mul(s.saturating_add(fallen[k]))
                    });
                    let d = members
                        .iter()
                        .fold(1u64, |a, &k| a.saturating_mul(fallen[k]));
                    (all.saturating_sub(d), d)
                }
            };
            up[side] = u;
            down[side] = d;
            down_fresh[side] = members.iter().fold(0u64, |sum, &k| {
                let others = members
                    .iter()
                    .filter(|&&j| j != k)
                    .fold(fresh[k], |a, &j| a.saturating_mul(fallen[j]));
                sum.saturating_add(others)
            });
        }
        let states = if sides == 2 {
            up[0]
                .saturating_mul(up[1])
                .saturating_add(up[0].saturating_mul(down_fresh[1].min(down[1])))
                .saturating_add(up[1].saturating_mul(down_fresh[0].min(down[0])))
        } else {
            let all = (0..sides).fold(1u64, |a, s| a.saturating_mul(up[s].saturating_add(down[s])));
            let none = (0..sides).fold(1u64, |a, s| a.saturating_mul(down[s]));
            all.saturating_sub(none)
        };
        // The orders the roll can give, counted from the law when it is cheap to build;
        // else every order of the combatants, an upper bound known at once.
        let every = (1..=n as u64).fold(1u64, |a, k| a.saturating_mul(k));
        let orders = if self.initiative_work() <= BOUND_INITIATIVE_WORK {
            self.initiative_law().map_or(every, |l| l.len() as u64)
        } else {
            every
        };
        Some(orders.saturating_mul(states).saturating_add(1))
    }

    /// A side's states with someone standing and with everyone down, when every attack on
    /// it lands on its standing member with the fewest HP (the first in the scene on a tie):
    /// the HP so reached, each standing member weighted by `standing_w`, each fallen one by
    /// `fallen`. `None` beyond a million HP combinations.
    fn focused_side(
        &self,
        members: &[usize],
        standing_w: &[u64],
        fallen: &[u64],
    ) -> Option<(u64, u64)> {
        // 0 stands for "no longer standing".
        let start: Vec<u32> = members
            .iter()
            .map(|&k| self.combatants[k].max_hp())
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        let mut todo = vec![start.clone()];
        seen.insert(start);
        while let Some(hp) = todo.pop() {
            let Some(k) = (0..hp.len())
                .filter(|&k| hp[k] > 0)
                .min_by_key(|&k| (hp[k], k))
            else {
                continue;
            };
            for left in 0..hp[k] {
                let mut next = hp.clone();
                next[k] = left;
                if seen.insert(next.clone()) {
                    if seen.len() > 1_000_000 {
                        return None;
                    }
                    todo.push(next);
                }
            }
        }
        let (mut up, mut down) = (0u64, 0u64);
        for hp in &seen {
            let w = hp.iter().zip(members).fold(1u64, |w, (&h, &k)| {
                w.saturating_mul(if h > 0 { standing_w[k] } else { fallen[k] })
            });
            if hp.iter().any(|&h| h > 0) {
                up = up.saturating_add(w);
            } else {
                down = down.saturating_add(w);
            }
        }
        Some((up, down))
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
    /// Built when first asked for (by this or the exact path), then kept; a played fight
    /// rolls the order without it.
    ///
    /// # Errors
    /// [`dice_core::Error::TooComplex`] (as [`Error::Core`]) when the joint initiative
    /// rolls of the combatants (or of a tie among them) are too many to enumerate.
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// // Finesse 1 each: a fair coin after re-rolls.
    /// assert!((f.initiative_law()?.probability(&vec![0, 1]) - 0.5).abs() < 1e-12);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn initiative_law(&self) -> Result<&Dist<Vec<u8>>, Error> {
        self.order_law
            .get_or_init(|| {
                let all: Vec<u8> = (0..self.combatants.len() as u8).collect();
                order_law(&self.initiative, &all, &mut BTreeMap::new())
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The joint initiative rolls of all the combatants, which the order law enumerates
    /// first (ties then re-roll among fewer): the product of their laws' sizes.
    fn initiative_work(&self) -> u64 {
        self.initiative.iter().fold(1u64, |w, i| {
            w.saturating_mul(i.distribution().map_or(u64::MAX, |l| l.len() as u64))
        })
    }

    /// The exact law of the hits an attack of `attacker` gets through to `target` at the
    /// ranks the fight begins with, with or without the target's reserve (`None` for
    /// allies, or a reserve the target lacks).
    ///
    /// ```
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// let club = f.hits_law(0, 1, false).unwrap();
    /// assert!((club.total() - 1.0).abs() < 1e-12);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn hits_law(&self, attacker: usize, target: usize, reserve: bool) -> Option<&Dist<u32>> {
        let a = self.combatants.get(attacker)?;
        let d = self.combatants.get(target)?;
        let reserve = if reserve { Some(d.reserve?) } else { None };
        let key = RollKey {
            stun: false,
            by: attacker as u8,
            on: target as u8,
            rank: a.sheet.rank(a.attack_skill),
            defense: d.defense_rank,
            reserve,
        };
        self.base.get(&key).map(|m| &m.hits)
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

    /// `who`'s rank of `skill` in `state`: its sheet's, with what the fight gained (L27).
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_swimclass::{Rules, Skill, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert_eq!(f.rank(&f.start(), 1, Skill::BasicMelee), 3);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn rank(&self, state: &FightState, who: usize, skill: Skill) -> u32 {
        self.combatants[who].rank_with(skill, &state.standing[who].gained)
    }

    /// `who`'s HP pool in `state`: its defending skill's rank there + 1 (L41).
    ///
    /// ```
    /// use dice_core::Encounter;
    /// use dice_swimclass::{Rules, encounter::{Fight, Scene}};
    /// let f = Fight::new(&Scene::sample_rounds(), Rules::default())?;
    /// assert_eq!(f.max_hp(&f.start(), 0), 4);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn max_hp(&self, state: &FightState, who: usize) -> u32 {
        max_hp(self.defense_rank(state, who))
    }

    fn defense_rank(&self, state: &FightState, who: usize) -> u32 {
        self.rank(state, who, self.combatants[who].defense_skill)
    }

    /// A state for a person: every combatant's name, HP and status, and the ranks its
    /// skills gained in the fight.
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
            .enumerate()
            .map(|(who, (c, s))| {
                let mut t = format!("{} {}/{} HP", c.name, s.hp, self.max_hp(state, who));
                let h = self.condition(state, who);
                if h != Condition::Up {
                    t.push_str(&format!(" {h}"));
                }
                if s.reserve {
                    t.push_str(" (reserve)");
                }
                if s.stunned_by.is_some() {
                    t.push_str(" (stunned)");
                }
                let raised: Vec<String> = c
                    .tracked
                    .iter()
                    .zip(&s.gained)
                    .filter(|&(_, &g)| g > 0)
                    .map(|(&skill, _)| format!("{skill} {}", self.rank(state, who, skill)))
                    .collect();
                if !raised.is_empty() {
                    t.push_str(&format!(" ({})", raised.join(", ")));
                }
                t
            })
            .collect();
        v.join(", ")
    }

    fn health(&self, state: &FightState, who: usize) -> Health {
        state.standing[who].health(self.defense_rank(state, who))
    }

    fn set_health(state: &mut FightState, who: usize, h: &Health) {
        state.standing[who].set_health(h);
    }

    fn condition(&self, state: &FightState, who: usize) -> Condition {
        self.health(state, who).condition()
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
    /// attack on each standing foe, a stun on each when it casts Stun, a heal of each side
    /// member (itself included) below its HP pool and not dead and a stabilization of each
    /// dying ally when it casts Life magic, and holding its reserve when it has one.
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
        if self.combatants[who].heal.is_some() {
            for t in 0..self.combatants.len() {
                if self.sides[t] != self.sides[who] {
                    continue;
                }
                let c = self.condition(state, t);
                if c != Condition::Dead
                    && i64::from(state.standing[t].hp) < i64::from(self.max_hp(state, t))
                {
                    open.push(Action::Heal(t as u8));
                }
            }
            for t in 0..self.combatants.len() {
                if t != who
                    && self.sides[t] == self.sides[who]
                    && self.condition(state, t) == Condition::Dying
                {
                    open.push(Action::Stabilize(t as u8));
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

    /// `who`'s own roll to stabilize: its defending skill's dice (L41).
    fn stabilize_roll(&self, state: &FightState, who: usize) -> Result<Stabilize, Error> {
        let h = self.health(state, who);
        Stabilize::new(SkillDice::new(h.defense_rank), &h, &self.rules)
    }

    /// `who`'s Life dice in `state`.
    fn life_dice(&self, state: &FightState, who: usize) -> Result<SkillDice, Error> {
        let c = &self.combatants[who];
        c.dice_at(
            Role::Life,
            self.rank(state, who, Skill::Magic(School::Life)),
        )
    }

    /// `who`'s heal (L217): Life magic at difficulty Range + 3.
    fn heal_roll(&self, state: &FightState, who: usize) -> Result<TaskRoll, Error> {
        let difficulty = self.combatants[who]
            .heal
            .as_ref()
            .map_or(HEAL_DIFFICULTY_OVER_RANGE, |(_, d)| *d);
        TaskRoll::new(
            self.life_dice(state, who)?,
            Task::single(difficulty)?,
            self.rules,
        )
    }

    /// `who` stabilizing the dying `target` with Life magic (L225): "vs. damage beyond 0
    /// HP", as the dying roll's own difficulty ([`Rules::stabilize`]).
    fn life_stabilize_roll(
        &self,
        state: &FightState,
        who: usize,
        target: usize,
    ) -> Result<Stabilize, Error> {
        Stabilize::new(
            self.life_dice(state, who)?,
            &self.health(state, target),
            &self.rules,
        )
    }

    /// The key of `who`'s attack (or stun) on `target` in `state`.
    fn key(&self, stun: bool, who: usize, target: usize, state: &FightState) -> RollKey {
        let a = &self.combatants[who];
        let d = &self.combatants[target];
        let skill = if stun {
            Skill::Magic(School::Death)
        } else {
            a.attack_skill
        };
        let reserve = match (state.standing[target].reserve, d.reserve_skill) {
            (true, Some(r)) => Some(self.rank(state, target, r)),
            _ => None,
        };
        RollKey {
            stun,
            by: who as u8,
            on: target as u8,
            rank: self.rank(state, who, skill),
            defense: self.defense_rank(state, target),
            reserve,
        }
    }

    /// The opposed roll of a key.
    fn roll_of(&self, key: &RollKey) -> Result<Arc<OpposedRoll>, Error> {
        if let Some(m) = self.base.get(key) {
            return Ok(Arc::clone(&m.roll));
        }
        self.rolls.get_or_try(key, || {
            let a = &self.combatants[key.by as usize];
            let d = &self.combatants[key.on as usize];
            let (dice, difficulty) = if key.stun {
                let difficulty = a.stun.as_ref().map_or(0, |(_, x)| *x);
                (a.dice_at(Role::Stun, key.rank)?, difficulty)
            } else {
                (a.dice_at(Role::Attack, key.rank)?, a.difficulty)
            };
            let mut defense = d.dice_at(Role::Defense, key.defense)?;
            if let Some(r) = key.reserve {
                defense = with_reserve(defense, r, &self.rules)?;
            }
            Ok(Arc::new(OpposedRoll::new(
                dice,
                difficulty,
                Some(defense),
                self.rules,
            )?))
        })
    }

    /// The exact law of a key's roll.
    fn law_of(&self, key: &RollKey) -> Result<Arc<Dist<Exchange>>, Error> {
        if let Some(m) = self.base.get(key) {
            return Ok(Arc::clone(&m.law));
        }
        let roll = self.roll_of(key)?;
        self.laws.get_or_try(key, || {
            Ok(Arc::new(exchange_law(
                &roll,
                key.stun,
                self.rules.advance_mid_fight,
            )?))
        })
    }

    /// Raises `who`'s `skill` by one (L27) with its synergies (L31), under the rank ceiling,
    /// when the rules advance skills mid-fight; a raised defending skill raises the HP pool,
    /// the wounds staying (L41). An advance that would make a roll of the fight larger than
    /// a pool can hold is not taken.
    fn advance(&self, state: &mut FightState, who: usize, skill: Skill) {
        if !self.rules.advance_mid_fight {
            return;
        }
        let c = &self.combatants[who];
        let st = &mut state.standing[who];
        let mut sheet = c.sheet_with(&st.gained);
        let before = sheet.rank(c.defense_skill);
        if sheet.advance(skill, &self.rules).is_empty() || !c.can_roll(&sheet, &self.rules) {
            return;
        }
        let mut gained = [0u8; MAX_TRACKED];
        for (k, &s) in c.tracked.iter().enumerate() {
            match u8::try_from(sheet.rank(s).saturating_sub(c.sheet.rank(s))) {
                Ok(g) => gained[k] = g,
                Err(_) => return,
            }
        }
        st.gained = gained;
        let raised = sheet.rank(c.defense_skill).saturating_sub(before);
        st.hp = st
            .hp
            .saturating_add(i16::try_from(raised).unwrap_or(i16::MAX));
        if st.hp >= 0 {
            st.stable = false;
        }
    }

    /// An attack's (or stun's) result on `state`.
    fn apply_exchange(
        &self,
        state: &mut FightState,
        stun: bool,
        who: usize,
        t: usize,
        x: Exchange,
    ) {
        if stun {
            if x.hits > 0 {
                state.standing[t].stunned_by = Some(who as u8);
            }
        } else {
            let mut h = self.health(state, t);
            h.take(x.hits);
            Self::set_health(state, t, &h);
        }
        if x.advances {
            let skill = if stun {
                Skill::Magic(School::Death)
            } else {
                self.combatants[who].attack_skill
            };
            self.advance(state, who, skill);
        }
        if x.defense_advances {
            self.advance(state, t, self.combatants[t].defense_skill);
        }
    }

    /// A dying roll's result on `state` (L41; SW-A13).
    fn apply_own_stabilize(
        &self,
        state: &mut FightState,
        who: usize,
        o: StabilizeOutcome,
        advances: bool,
    ) {
        let mut h = self.health(state, who);
        h.stabilize(o);
        Self::set_health(state, who, &h);
        if advances {
            self.advance(state, who, self.combatants[who].defense_skill);
        }
    }

    /// A heal's result (L217): one damage healed on success.
    fn apply_heal(
        &self,
        state: &mut FightState,
        who: usize,
        t: usize,
        healed: bool,
        advances: bool,
    ) {
        if healed {
            let mut h = self.health(state, t);
            h.heal(1, true);
            Self::set_health(state, t, &h);
        }
        if advances {
            self.advance(state, who, Skill::Magic(School::Life));
        }
    }

    /// A stabilization by Life's result (L225): the target stable on success.
    fn apply_life_stabilize(
        &self,
        state: &mut FightState,
        who: usize,
        t: usize,
        stabilized: bool,
        advances: bool,
    ) {
        if stabilized {
            state.standing[t].stable = true;
        }
        if advances {
            self.advance(state, who, Skill::Magic(School::Life));
        }
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
        let adv = self.rules.advance_mid_fight;
        let mut s = state.clone();
        self.begin_turn(&mut s, who);
        let law = match self.condition(&s, who) {
            Condition::Dying => {
                let roll = self.stabilize_roll(&s, who)?;
                roll.task().distribution()?.map(|o| {
                    let mut t = s.clone();
                    let outcome = StabilizeOutcome {
                        stabilized: o.succeeded,
                        criticals: o.criticals,
                    };
                    self.apply_own_stabilize(&mut t, who, outcome, adv && o.advances);
                    t
                })
            }
            Condition::Up => {
                let open = self.open_actions(&s, who);
                if open.is_empty() {
                    Dist::certain(s)
                } else {
                    let action = self.choice(&s, who, &open);
                    match action {
                        Action::Reserve => {
                            s.standing[who].reserve = true;
                            Dist::certain(s)
                        }
                        Action::Attack(t) | Action::Stun(t) => {
                            let stun = matches!(action, Action::Stun(_));
                            let t = t as usize;
                            let law = self.law_of(&self.key(stun, who, t, &s))?;
                            law.map(|&x| {
                                let mut n = s.clone();
                                self.apply_exchange(&mut n, stun, who, t, x);
                                n
                            })
                        }
                        Action::Heal(t) => {
                            let roll = self.heal_roll(&s, who)?;
                            roll.distribution()?.map(|o| {
                                let mut n = s.clone();
                                self.apply_heal(
                                    &mut n,
                                    who,
                                    t as usize,
                                    o.succeeded,
                                    adv && o.advances,
                                );
                                n
                            })
                        }
                        Action::Stabilize(t) => {
                            let roll = self.life_stabilize_roll(&s, who, t as usize)?;
                            roll.task().distribution()?.map(|o| {
                                let mut n = s.clone();
                                self.apply_life_stabilize(
                                    &mut n,
                                    who,
                                    t as usize,
                                    o.succeeded,
                                    adv && o.advances,
                                );
                                n
                            })
                        }
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

    /// Plays `who`'s turn with the caller's RNG; with `told`, a line for what it did and
    /// what the roll meant (the same draws either way).
    fn play_turn<R: Rng + ?Sized>(
        &self,
        state: &mut FightState,
        who: usize,
        rng: &mut R,
        mut told: Option<&mut Vec<String>>,
    ) {
        if self.end(state).is_some() {
            return;
        }
        let name = |k: usize| self.combatants.get(k).map_or("?", |c| c.name.as_str());
        let adv = self.rules.advance_mid_fight;
        self.begin_turn(state, who);
        // A roll that cannot be built (never, for a fight that was built: every rank an
        // advance reaches is checked) leaves the turn without effect.
        match self.condition(state, who) {
            Condition::Dying => {
                if let Ok(roll) = self.stabilize_roll(state, who) {
                    let o = roll.task().roll(rng);
                    let outcome = StabilizeOutcome {
                        stabilized: o.succeeded,
                        criticals: o.criticals,
                    };
                    self.apply_own_stabilize(state, who, outcome, adv && o.advances);
                    if let Some(t) = told.as_deref_mut() {
                        t.push(format!(
                            "{} is dying and rolls to stabilize ({}): {o}: {}.",
                            name(who),
                            roll.task(),
                            self.condition_text(state, who)
                        ));
                    }
                }
            }
            Condition::Up => {
                let open = self.open_actions(state, who);
                if open.is_empty() {
                    if let Some(t) = told.as_deref_mut() {
                        t.push(format!("{} is stunned and loses the turn.", name(who)));
                    }
                } else {
                    match self.choice(state, who, &open) {
                        Action::Reserve => {
                            state.standing[who].reserve = true;
                            if let Some(t) = told.as_deref_mut() {
                                t.push(format!(
                                    "{} holds its reserve instead of acting (L43).",
                                    name(who)
                                ));
                            }
                        }
                        a @ (Action::Attack(t) | Action::Stun(t)) => {
                            let stun = matches!(a, Action::Stun(_));
                            let t = t as usize;
                            if let Ok(roll) = self.roll_of(&self.key(stun, who, t, state)) {
                                let o = roll.roll(rng);
                                let x = Exchange {
                                    hits: o.hits,
                                    advances: adv && o.advances,
                                    defense_advances: adv && o.defense_advances,
                                };
                                self.apply_exchange(state, stun, who, t, x);
                                if let Some(told) = told.as_deref_mut() {
                                    let what = if stun { "tries to stun" } else { "attacks" };
                                    let after = if stun {
                                        if x.hits > 0 {
                                            "stunned until its next turn".to_owned()
                                        } else {
                                            "not stunned".to_owned()
                                        }
                                    } else {
                                        self.condition_text(state, t)
                                    };
                                    told.push(format!(
                                        "{} {what} {}: {o}: {} {after}.",
                                        name(who),
                                        name(t),
                                        name(t)
                                    ));
                                }
                            }
                        }
                        Action::Heal(t) => {
                            if let Ok(roll) = self.heal_roll(state, who) {
                                let o = roll.roll(rng);
                                self.apply_heal(
                                    state,
                                    who,
                                    t as usize,
                                    o.succeeded,
                                    adv && o.advances,
                                );
                                if let Some(told) = told.as_deref_mut() {
                                    told.push(format!(
                                        "{} heals {} with Life magic: {o}: {} {}.",
                                        name(who),
                                        name(t as usize),
                                        name(t as usize),
                                        self.condition_text(state, t as usize)
                                    ));
                                }
                            }
                        }
                        Action::Stabilize(t) => {
                            if let Ok(roll) = self.life_stabilize_roll(state, who, t as usize) {
                                let o = roll.task().roll(rng);
                                self.apply_life_stabilize(
                                    state,
                                    who,
                                    t as usize,
                                    o.succeeded,
                                    adv && o.advances,
                                );
                                if let Some(told) = told {
                                    told.push(format!(
                                        "{} stabilizes {} with Life magic: {o}: {} {}.",
                                        name(who),
                                        name(t as usize),
                                        name(t as usize),
                                        self.condition_text(state, t as usize)
                                    ));
                                }
                            }
                        }
                    }
                }
            }
            Condition::Down | Condition::Dead => {}
        }
        self.tidy(state);
    }

    /// One round with the caller's RNG, telling it when `told` is given.
    fn play_told<R: Rng + ?Sized>(
        &self,
        state: &FightState,
        rng: &mut R,
        mut told: Option<&mut Vec<String>>,
    ) -> FightState {
        let mut s = state.clone();
        if s.order.is_empty() {
            let all: Vec<u8> = (0..self.combatants.len() as u8).collect();
            s.order = roll_order(&self.initiative, &all, rng);
            if let Some(t) = told.as_deref_mut() {
                let names: Vec<&str> = s
                    .order
                    .iter()
                    .map(|&k| {
                        self.combatants
                            .get(k as usize)
                            .map_or("?", |c| c.name.as_str())
                    })
                    .collect();
                t.push(format!(
                    "Initiative (highest die first, then the second; ties re-rolled): {}.",
                    names.join(", ")
                ));
            }
        }
        let order = s.order.clone();
        for who in order {
            self.play_turn(&mut s, who as usize, rng, told.as_deref_mut());
        }
        s
    }

    /// `3/4 HP`, `-1/4 HP dying`.
    fn condition_text(&self, state: &FightState, who: usize) -> String {
        let hp = state.standing[who].hp;
        let max = self.max_hp(state, who);
        match self.condition(state, who) {
            Condition::Up => format!("{hp}/{max} HP"),
            c => format!("{hp}/{max} HP, {c}"),
        }
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

    /// The exact law of the next round.
    ///
    /// # Errors
    /// [`dice_core::Error::TooComplex`] when skills advance mid-fight with no rank ceiling
    /// ([`Rules::advance_mid_fight`] without [`Rules::max_rank`]: endless states); the
    /// rolls' errors.
    fn round_law(&self, state: &FightState) -> Result<Dist<FightState>, dice_core::Error> {
        if self.rules.advance_mid_fight && self.rules.max_rank.is_none() {
            return Err(dice_core::Error::TooComplex {
                what: "a Swimclass fight whose skills advance with no rank ceiling \
                       (endless states; set max_rank, or simulate)",
                work: u64::MAX,
                max: dice_core::EncounterLimits::default().max_states as u64,
            });
        }
        let r = if state.order.is_empty() {
            let orders = self.initiative_law().map_err(crate::task::core_error)?;
            orders.and_then(|order| {
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
        self.play_told(state, rng, None)
    }

    /// As [`Encounter::play_round`], telling the initiative order when it is rolled and
    /// each turn: the action, the roll's meaning (hits through, criticals, advances;
    /// successes), and the target's HP and condition after it (down, dying, stable, dead).
    fn play_round_told<R: Rng + ?Sized>(
        &self,
        state: &FightState,
        rng: &mut R,
        told: &mut Vec<String>,
    ) -> FightState {
        self.play_told(state, rng, Some(told))
    }

    /// An upper bound from the scene ([`Fight::state_bound_of`]).
    fn state_bound(&self) -> Option<u64> {
        self.state_bound_of()
    }

    /// Every combatant's name, in the scene's order.
    fn health_names(&self) -> Vec<String> {
        self.combatants.iter().map(|c| c.name.clone()).collect()
    }

    /// Every combatant's HP (L41): 0 when down, below 0 when dying, stable or dead.
    fn health(&self, state: &FightState) -> Vec<i64> {
        state.standing.iter().map(|s| i64::from(s.hp)).collect()
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
