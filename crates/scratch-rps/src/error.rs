//! The one error type of dice-scratch-rps.

use crate::ability::{Ability, Movement};
use crate::attack::AttackKind;
use crate::fight::{CombatantId, TurnStatus};

/// Everything that can be wrong with the input to a constructor, a pure resolution or a
/// combat action of this crate.
///
/// Each variant says what is wrong and what is allowed, so the message alone tells a user what
/// to change. Rolling a mechanic that was built successfully never fails.
///
/// ```
/// use dice_scratch_rps::{Error, roll::resolve};
/// let err = resolve(21, 0, 11).unwrap_err();
/// assert_eq!(err, Error::Natural { natural: 21 });
/// assert_eq!(err.to_string(), "a twenty-sided die shows 1 to 20, not 21");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Invalid input to a dice-core constructor (a modifier or difficulty out of range).
    #[error(transparent)]
    Core(#[from] dice_core::Error),
    /// A die face that a d20 cannot show.
    #[error("a twenty-sided die shows 1 to 20, not {natural}")]
    Natural {
        /// The offending face.
        natural: u32,
    },
    /// A modifier or difficulty beyond what this library computes with.
    #[error("{what} {value} is outside -{max}..={max}")]
    OutOfRange {
        /// What the number is (`"difficulty"`, `"modifier"`).
        what: &'static str,
        /// The offending value.
        value: i64,
        /// [`crate::MAX_DIFFICULTY`].
        max: i64,
    },
    /// An ability level above the library limit.
    #[error("{ability} level {level} is above the library limit of {max}")]
    Level {
        /// The ability.
        ability: Ability,
        /// The level asked for.
        level: u32,
        /// [`crate::MAX_LEVEL`].
        max: u32,
    },
    /// An ability level above the library limit, for a roll not tied to a character.
    #[error("an ability level of {level} is above the library limit of {max}")]
    LevelLimit {
        /// The level asked for.
        level: u32,
        /// [`crate::MAX_LEVEL`].
        max: u32,
    },
    /// The same ability listed twice in a stat block.
    #[error("{ability} is listed twice; give each ability once")]
    DuplicateAbility {
        /// The ability.
        ability: Ability,
    },
    /// A word that is not one of the rulebook's abilities.
    #[error(
        "`{name}` is not an ability; the abilities are toughness, shooting, blasting, knockout, \
         fighting, wrestling, stalking, acrobatics, quickness, flying, swimming, healing, \
         craftsmanship, command, driving, navigation and piloting"
    )]
    UnknownAbility {
        /// The word.
        name: String,
    },
    /// A stat-block entry that is not `<number> <ability>`, `<number> tgh/2` or
    /// `<number> defense`.
    #[error("`{item}` is not `<level> <ability>`, `<n> tgh/2` or `<n> defense`")]
    StatBlockSyntax {
        /// The entry.
        item: String,
    },
    /// A stat block whose written tgh/2 or defense is not what its abilities give.
    #[error("the stat block says {written} {stat}, but its abilities give {derived}")]
    StatBlockMismatch {
        /// `"tgh/2"` or `"defense"`.
        stat: &'static str,
        /// The number written.
        written: i64,
        /// The number the rules give.
        derived: i64,
    },
    /// Hit points above the character's maximum (its toughness, L33).
    #[error("{hp} hit points is more than the maximum of {max} (toughness, L33)")]
    HitPoints {
        /// What was asked for.
        hp: u32,
        /// The toughness.
        max: u32,
    },
    /// Using an ability the character does not have (fewer than 1 level, L11).
    #[error("needs at least 1 level of {ability} (L11: without it the ability cannot be used)")]
    MissingAbility {
        /// The ability.
        ability: Ability,
    },
    /// An attack rolled with an ability its rule does not allow (L43–L51, L75–L83).
    #[error(
        "{attack} cannot be rolled with {}; allowed: {}",
        match ability { Some(a) => a.name(), None => "a non-ability roll" },
        attack.allowed_rolls()
    )]
    NotAllowed {
        /// The attack.
        attack: AttackKind,
        /// The ability asked for (`None`: a non-ability roll).
        ability: Option<Ability>,
    },
    /// An incapacitated character cannot perform actions (L33).
    #[error("an incapacitated character cannot perform actions (L33)")]
    Incapacitated,
    /// Fighting's two attacks and wrestling's attack-and-hold need a healthy attacker
    /// (L81, L83).
    #[error("{what} as one action needs a healthy attacker (L81, L83)")]
    NotHealthy {
        /// `"two fighting attacks"` or `"wrestling's attack and hold"`.
        what: &'static str,
    },
    /// A pure form given the wrong number of d20 faces.
    #[error("this needs {needed} twenty-sided die rolls, {given} were given")]
    Dice {
        /// How many the rule needs.
        needed: usize,
        /// How many were given.
        given: usize,
    },
    /// A series of attacks with no attack or more than one action makes.
    #[error("one action makes 1 to {max} attacks, not {count}")]
    AttackCount {
        /// How many were given.
        count: usize,
        /// [`crate::attack::MAX_ATTACKS_PER_ACTION`].
        max: usize,
    },
    /// Invalid character points or maximum level.
    #[error(
        "character creation needs at least 1 CP and a maximum level of 1 to {max}, not {cp} CP and maximum {max_level}"
    )]
    CharacterPoints {
        /// CP asked for.
        cp: u32,
        /// Maximum level asked for.
        max_level: u32,
        /// [`crate::MAX_LEVEL`].
        max: u32,
    },
    /// A build that spends more CP than it has (L63).
    #[error("the build spends {spent} CP, more than the {cp} CP available (L63)")]
    OverBudget {
        /// Levels bought.
        spent: u32,
        /// CP available.
        cp: u32,
    },
    /// A build that leaves CP undistributed (L63, L65).
    #[error("the build spends {spent} of {cp} CP; every CP is distributed (L63, L65)")]
    Unspent {
        /// Levels bought.
        spent: u32,
        /// CP available.
        cp: u32,
    },
    /// An ability above the build's maximum level (L63).
    #[error("{ability} has {level} levels, more than the maximum level {max} (L63)")]
    AboveMaximumLevel {
        /// The ability.
        ability: Ability,
        /// Its level.
        level: u32,
        /// The maximum.
        max: u32,
    },
    /// A build without toughness (L61: all characters have toughness).
    #[error("every character has toughness (L61); give at least 1 level")]
    NoToughness,
    /// Command provides one or two minions (L103).
    #[error("command provides one or two minions, not {count} (L103)")]
    MinionCount {
        /// Minions given.
        count: usize,
    },
    /// Minions whose ability levels add up to more than the command level (L103).
    #[error("the minions have {total} ability levels in all, more than command {command} (L103)")]
    MinionLevels {
        /// Their total ability levels.
        total: u32,
        /// The command level.
        command: u32,
    },
    /// A minion with command ability (L103).
    #[error("minion {index} has command ability; followers cannot (L103)")]
    MinionWithCommand {
        /// The minion's position in the list.
        index: usize,
    },
    /// A party member index out of range.
    #[error("there is no member {index}; the party has {count}")]
    NoSuchMember {
        /// The index.
        index: usize,
        /// Party size.
        count: usize,
    },
    /// A craftsman giving a temporary bonus to himself (SC-A14).
    #[error(
        "craftsmanship improves a traveling companion's equipment, not one's own (L101, SC-A14)"
    )]
    BonusToSelf,
    /// A temporary bonus on an ability below level 1 (L101).
    #[error(
        "a temporary bonus goes to an ability already at level 1 or more, not {ability} (L101)"
    )]
    BonusOnMissingAbility {
        /// The ability.
        ability: Ability,
    },
    /// A second temporary bonus on one ability (L101).
    #[error("{ability} already has a temporary bonus (L101: at most one)")]
    BonusAlreadyGiven {
        /// The ability.
        ability: Ability,
    },
    /// A craftsman with every level already giving a bonus (L101).
    #[error("craftsmanship {level} gives at most {level} temporary bonuses, all given (L101)")]
    NoBonusesLeft {
        /// The craftsman's craftsmanship level.
        level: u32,
    },
    /// A bonus whose hurried roll failed, tried again in the same hurry (L101).
    #[error(
        "that bonus failed its roll in this hurry; it cannot be used until the hurry is over (L101)"
    )]
    BonusBlocked,
    /// Removing a bonus that was not given.
    #[error("member {from} has given no temporary bonus to {ability} of member {to}")]
    NoSuchBonus {
        /// The craftsman.
        from: usize,
        /// The companion.
        to: usize,
        /// The ability.
        ability: Ability,
    },
    /// Initiative ties that need more roll-off dice than given.
    #[error("the initiative ties need more roll-off dice than the {given} given")]
    RollOffShort {
        /// Roll-off dice given.
        given: usize,
    },
    /// Roll-off dice left over.
    #[error("the initiative ties used {used} roll-off dice, but {given} were given")]
    RollOffExtra {
        /// Dice used.
        used: usize,
        /// Dice given.
        given: usize,
    },
    /// Combat actions before initiative was rolled, or adding combatants after.
    #[error("{0}")]
    FightPhase(&'static str),
    /// A combatant id out of range.
    #[error("there is no combatant {id}; the fight has {count}")]
    NoSuchCombatant {
        /// The id.
        id: CombatantId,
        /// Combatants in the fight.
        count: usize,
    },
    /// The current combatant cannot act this turn.
    #[error("combatant {id} cannot act this turn: {status}")]
    CannotAct {
        /// The combatant.
        id: CombatantId,
        /// Why.
        status: TurnStatus,
    },
    /// Attacking or healing oneself where the rules do not allow it.
    #[error("a character cannot target himself with this action")]
    TargetSelf,
    /// A target that has escaped the fight (L53).
    #[error("combatant {id} has escaped and cannot be attacked (L53)")]
    TargetEscaped {
        /// The target.
        id: CombatantId,
    },
    /// A close-range attack on a flying character who evaded or made a long-range attack
    /// since his last turn (L93).
    #[error("combatant {id} is flying out of close range until his next turn (L93)")]
    OutOfReach {
        /// The target.
        id: CombatantId,
    },
    /// A mechanic that needs something in the environment that is not there.
    #[error("{0}")]
    Environment(&'static str),
    /// A bonus action used with a regular action it does not go with (L55, L57).
    #[error("{0}")]
    BonusAction(&'static str),
    /// Catching a character who is not evading (L51).
    #[error("combatant {id} is not evading; catch is used against an evading character (L51)")]
    NotEvading {
        /// The target.
        id: CombatantId,
    },
    /// A catch the environment does not allow with that ability (L89–L95).
    #[error(
        "{} cannot catch a character evading with {} here (L89–L95)",
        match catcher { Some(m) => m.ability().name(), None => "a non-ability roll" },
        match evader { Some(m) => m.ability().name(), None => "no ability" }
    )]
    CannotCatch {
        /// The catcher's movement ability.
        catcher: Option<Movement>,
        /// The evader's movement ability.
        evader: Option<Movement>,
    },
    /// Escape needs an evade on the last turn, not caught or hit since (L53).
    #[error("escape needs an evade on the last turn, not caught or hit since (L53)")]
    CannotEscape,
    /// Blasting attacks 1 to 3 separate targets (L77, SC-A12).
    #[error("blasting attacks 1 to 3 separate targets, not {count} (L77)")]
    BlastTargets {
        /// Targets given.
        count: usize,
    },
    /// Blasting one target twice in a turn (L77).
    #[error("blasting cannot attack combatant {id} more than once in a turn (L77)")]
    BlastRepeat {
        /// The repeated target.
        id: CombatantId,
    },
    /// Healing oneself (L99).
    #[error("a character cannot heal himself (L99)")]
    HealSelf,
    /// Healing a minion in combat (L107).
    #[error("minions cannot be healed with healing ability in combat (L107)")]
    HealMinion,
    /// Reviving or healing a character without toughness: toughness is the maximum hit
    /// points (L33), so he has no hit point to be revived to, and he may not act in combat
    /// anyway (L71).
    #[error(
        "a character without toughness has no hit points to restore and may not perform actions in combat (L33, L71)"
    )]
    WithoutToughness,
    /// Healing a healthy character (L99, SC-A13).
    #[error(
        "healing revives the incapacitated and heals the injured, not the healthy (L99, SC-A13)"
    )]
    NothingToHeal,
    /// A simulation with an empty team or a zero round cap.
    #[error("{0}")]
    Simulation(&'static str),
    /// A fight scene or encounter that cannot be played: fewer than two sides, a blank name,
    /// a turn the rules refuse.
    #[error("{0}")]
    Scene(String),
    /// A combatant of a scene that is not valid.
    #[error("combatant {name}: {problem}")]
    SceneCombatant {
        /// His name in the scene.
        name: String,
        /// What is wrong.
        problem: Box<Error>,
    },
}
