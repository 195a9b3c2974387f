//! `dice swimclass`: the task roll and the combat attack of *Project Swimclass* (crate
//! dice-swimclass), under the project's rulings (`Rules::default()`) unless `--rule` changes one.

use dice_core::{DieRoll, Dist, Source};
use dice_swimclass::encounter::{Fight, Scene};
use dice_swimclass::{
    Bonus, NO_THRESHOLD, OpposedRoll, ProgressStatus, Rules, SkillDice, Task, TaskProgress,
    TaskRoll, ranged_difficulty,
    tables::{EASY, MADNESS},
};
use dice_swimclass::{
    Health, Initiative, InitiativeContest, RECOVERY_DIFFICULTY, Recovery, Side, Stabilize,
};
use serde_json::{Value, json};

mod spell;

use super::OddsFlag;
use crate::Ctx;
use crate::error::CliError;
use crate::render::percent;
use crate::report::{OddsReport, Report, RollReport};

/// `dice swimclass`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Project Swimclass: task rolls, attacks and spells (rank d6 against a difficulty, die-against-die blocking)",
    long_about = "Project Swimclass: task rolls, combat attacks and spells.\n\n\
A task rolls the skill's rank in d6; each die whose value (face plus implements) is at least \
the difficulty is a success, and the successes are the progress the roll adds. A \
roll that does not succeed suffers a critical for each natural 1 after the first; a \
roll that can fail and whose skill dice all succeed showing 4 or more advances the skill.\n\n\
An attack rolls the attack skill against the defender's Defense dice: each attack die that \
meets the difficulty is a potential hit, and each defense die blocks one hit of lesser or \
equal value; the hits left are damage, 1 each. The defense roll is a skill \
roll too: its natural 1s are criticals when it fails, and it advances its skill.\n\n\
Implements are written as in the rulebook: 1+2 (+2 to one die), 2-crit (cancels two \
criticals), 1*5 (one die counts as a 5), 1D (an artifact's extra die); parentheses optional. \
The player places a +M where it does most good (\"up to N dice\", the player's choice): \
the most successes in a task; in an attack the attacker before the defense rolls, the defender \
knowing the attack; --rule assignment=highest puts it on the highest dice as the Sample Rounds \
do.\n\n\
Difficulties run from 1, easy, to 6, madness; --difficulty takes the number or \
the name.\n\n\
Rolls by default; --odds gives the exact odds. Rulings are the project's (dice-swimclass \
Rules::default()); --rule KEY=VALUE changes one (an unknown KEY lists them all).",
    after_help = "Examples:\n  dice swimclass task --rank 3 --difficulty 4\n  dice swimclass task --rank 3 --difficulty 4 --odds\n  dice swimclass task --rank 4 --difficulty 6 --progress 3 --rounds 3 --odds\n  dice swimclass task --rank 3 --difficulty 2 --implement 1+4\n  dice swimclass attack --attack 6 --defense 6\n  dice swimclass attack --attack 3 --defense 3 --range 1 --attack-implement 1+4 --odds\n  dice swimclass spell --spell stun --rank 3 --range 1 --defense 2 --odds"
)]
pub struct Args {
    #[command(subcommand)]
    pub roll: RollKind,
    #[command(flatten)]
    pub rules: super::RuleFlags,
}

/// The rolls of the game.
#[derive(Debug, clap::Subcommand)]
pub enum RollKind {
    /// A task roll: rank d6, each die at or above the difficulty a success.
    #[command(long_about = "A task roll: the skill's rank in d6 (plus aid dice and \
implements) against a difficulty; each die whose value is at least the difficulty is a \
success, adding 1 to the task's progress. The roll succeeds with one success (all of \
the progress for an all-or-nothing task); a roll that did not succeed has a critical \
for each natural 1 after the first. The skill advances when the roll succeeded, could \
have failed, and every skill die succeeded showing 4 or more.\n\n\
--strain rolls a skill of rank 2 or more once at double rank, the skill reduced afterwards \
(by one rank; to rank 1 with --rule strain=to_one). --push N pushes a task of \
difficulty 3 or less: difficulty × N, and each success counts N toward the progress.")]
    Task(TaskArgs),
    /// An attack: attack dice against defense dice, blocked die against die.
    #[command(long_about = "A combat attack or opposed roll: the \
attack skill's dice, each a potential hit when its value meets the difficulty (none for Basic \
Melee, the default; Range + 1 for Basic Ranged, --range), against the defender's Defense dice, \
each of which blocks one hit of lesser or equal value. The hits left get \
through, 1 damage each. --defense 0: the target does not oppose. Both sides have \
criticals and may advance their skill: the defense fails when a hit gets through.")]
    Attack(AttackArgs),
    /// A whole fight from a scene file: played round by round, or its exact odds.
    #[command(
        long_about = "A whole fight, played round by round from a scene file (TOML, or JSON \
by extension) that lists the combatants: each one's name, side, skill ranks, attack and \
defense skills with their implements (a catalogue name such as \"Great Sword\", or a bonus), \
and optionally a range, a reserve skill, a stun range, a heal range and a stance.\n\n\
Before the first round everyone rolls initiative (the skill standing for Agility, Finesse by \
default): the highest die goes first, the second die breaks ties, further ties re-roll. On its \
turn a standing combatant attacks a standing foe (attack dice against defense dice, die \
against die, 1 damage per hit through), stuns one (Death magic), heals one damage of its side \
or stabilizes a dying ally (Life magic), or holds a skill in reserve to add to its defense \
until its next turn. HP is the defense skill's rank + 1; at 0 a combatant is down, below 0 it \
rolls each turn to stabilize. The fight ends when one side alone has combatants standing. \
Ranks stay as the fight began; --rule advance_mid_fight=true raises a skill the moment a roll \
earns it (its exact odds then need a ceiling, --rule max_rank=N).\n\n\
By default every combatant attacks the standing foe with the fewest HP. Plays with --seed; \
--odds gives the exact chance of each side winning; --monte-carlo estimates it by playing \
many fights.",
        after_help = "Examples:\n  dice swimclass fight crates/swimclass/scenes/sample-rounds.toml --seed 1\n  dice swimclass fight crates/swimclass/scenes/sample-rounds.toml --odds\n  dice swimclass fight crates/swimclass/scenes/sample-rounds.toml --monte-carlo --trials 20000"
    )]
    Fight(super::fight::FightArgs),
    /// Initiative: rank d6, the highest die first, the second die breaking ties.
    #[command(
        long_about = "Initiative: the character rolls the dice of the skill standing for \
Agility (its rank, with implements); the highest die acts first, the second-highest breaks a \
tie, and a tie on both is rolled again. Alone, the odds of each score (highest then second \
die); with --against, the chance each of two characters acts first (a full tie re-rolled).",
        after_help = "Examples:\n  dice swimclass initiative --rank 2 --odds\n  dice swimclass initiative --rank 3 --against 2 --odds"
    )]
    Initiative(InitiativeArgs),
    /// An hour's recovery: Defense dice at difficulty 6, 1 HP per success.
    #[command(
        long_about = "An hour's recovery roll: the Defense skill's dice at difficulty 6, one \
HP back per success, criticals not counted, and no more than the HP missing (--rule \
recovery_capped=false lifts the cap). HP are the Defense rank + 1; --hp is the current HP.",
        after_help = "Examples:\n  dice swimclass recovery --defense 3 --hp 1 --odds\n  dice swimclass recovery --defense 2 --hp 0"
    )]
    Recovery(RecoveryArgs),
    /// A roll to stabilize below 0 HP: Defense dice at difficulty = damage beyond 0.
    #[command(
        long_about = "A roll to stabilize a character below 0 HP: the Defense skill's dice at \
a difficulty equal to the damage beyond 0 (the project's ruling); one success stabilizes. On \
a failure each critical that counts (the first natural 1 ignored) is one more damage, and \
criticals beyond the Defense rank kill. --hp is the current HP, below 0.",
        after_help = "Examples:\n  dice swimclass stabilize --defense 2 --hp -2 --odds\n  dice swimclass stabilize --defense 1 --hp -4"
    )]
    Stabilize(StabilizeArgs),
    /// The skill's rank after several rolls of a task, each advance raising it at once.
    #[command(
        long_about = "Skill advancement over several rolls: the skill advances a rank when a \
roll succeeds, could have failed, and every skill die succeeds showing 4 or more. Here the \
same task (--difficulty) is rolled --rounds times, and each advance raises the rank at once, \
so the next roll has one more die (as the Sample Rounds do; a fight keeps its ranks unless \
--rule advance_mid_fight=true). The outcome is the rank after the last roll; ranks stop at \
the largest pool the crate rolls.",
        after_help = "Examples:\n  dice swimclass advance --rank 2 --difficulty 2 --rounds 3 --odds\n  dice swimclass advance --rank 3 --difficulty 4 --rounds 5 --seed 7"
    )]
    Advance(AdvanceArgs),
    /// Crafting an implement: successes at difficulty 4 over rounds.
    #[command(
        long_about = "Crafting an implement of a given value (its rank): the cube root of the \
rank (rounded by --rule craft_rounding) in successes, accumulated over rounds of Craft rolls \
at difficulty 4, one less when specialized in the material (needs general Craft 2), one less \
for a limited-use item; materials cost the rank to the power 2/3. The outcome is the \
progress after --rounds rolls (capped at the successes needed: the item is done).",
        after_help = "Examples:\n  dice swimclass craft --value 8 --craft 2 --rounds 3 --odds\n  dice swimclass craft --value 27 --craft 3 --specialized --rounds 4 --odds"
    )]
    Craft(CraftArgs),
    /// A spell: the school's magic rolled at the spell's difficulty, opposed or not.
    #[command(
        long_about = "Casting a spell: each spell is a skill of its school of magic (Fire, \
Wind, Earth, Water, Life, Death), so the caster rolls its rank in that school's magic in d6, \
each die at or above the spell's difficulty a success, with criticals and advancement as any \
roll.\n\n\
The difficulty comes from the spell: Blaze Range + 1 (up to 3 squares), Light 1, Flight 3 + \
the target's size (--size), Earth shift 2 in soft soil or 6 in hard rock (--hard-rock), Spray \
4, Water breathing 3 (touch), Heal Range + 3, Stabilize the damage beyond 0 HP \
(--beyond-zero), Death damage none in melee or Range + 1 at range, Stun Range, Raise Undead 4. \
The rulebook gives the Wind push and the Earth quake no difficulty: give one with \
--difficulty.\n\n\
Attacks by magic may be resisted: Blaze, the Wind push, Flight, the Earth quake, Death damage \
and Stun are rolled against the target's opposing dice (--defense: its Defense, the skill the \
spell is against, or magic of the same or the opposing school), each blocking one success of \
lesser or equal value, and their outcome is the hits through: Blaze does one hit when any \
gets through, Death damage 1 damage a hit, any hit of a Stun stuns the target until the \
caster's next turn. The other spells are task rolls whose outcome is their successes: a \
square lit per success of Light, a target breathing water per success of Water breathing, \
one damage healed by a successful Heal, a corpse raised by a successful Raise Undead (it acts \
with rank 1 in the basic skills and the caster's Death magic less one).\n\n\
Rolls by default; --odds gives the exact odds, --monte-carlo estimates them.",
        after_help = "Examples:\n  dice swimclass spell --spell blaze --rank 3 --range 2 --odds\n  dice swimclass spell --spell stun --rank 3 --range 1 --defense 2 --odds\n  dice swimclass spell --spell heal --rank 2 --range 0..3 --odds\n  dice swimclass spell --spell quake --rank 4 --difficulty 3 --defense 2 --defense-school wind --seed 5"
    )]
    Spell(spell::SpellArgs),
}

/// `initiative`.
#[derive(Debug, clap::Args)]
pub struct InitiativeArgs {
    /// The rank of the skill standing for Agility (Finesse in the fights): the d6 rolled.
    #[arg(long, value_name = "N")]
    pub rank: u32,
    /// An implement bonus (repeatable): 1+2, 2-crit, 1*5, 1D.
    #[arg(long, value_name = "BONUS", value_parser = bonus)]
    pub implement: Vec<Bonus>,
    /// The other character's rank: the chance each acts first.
    #[arg(long, value_name = "N")]
    pub against: Option<u32>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `recovery`.
#[derive(Debug, clap::Args)]
pub struct RecoveryArgs {
    /// The Defense rank: the d6 rolled, and HP = rank + 1.
    #[arg(long, value_name = "N")]
    pub defense: u32,
    /// The current HP.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub hp: i64,
    /// An implement bonus (repeatable): 1+2, 2-crit, 1*5, 1D.
    #[arg(long, value_name = "BONUS", value_parser = bonus)]
    pub implement: Vec<Bonus>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `stabilize`.
#[derive(Debug, clap::Args)]
pub struct StabilizeArgs {
    /// The Defense rank: the d6 rolled.
    #[arg(long, value_name = "N")]
    pub defense: u32,
    /// The current HP, below 0.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub hp: i64,
    /// An implement bonus (repeatable): 1+2, 2-crit, 1*5, 1D.
    #[arg(long, value_name = "BONUS", value_parser = bonus)]
    pub implement: Vec<Bonus>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `advance`.
#[derive(Debug, clap::Args)]
pub struct AdvanceArgs {
    /// The skill's rank before the first roll.
    #[arg(long, value_name = "N")]
    pub rank: u32,
    /// The task's difficulty: a number, or `easy` (1) or `madness` (6).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = difficulty)]
    pub difficulty: i32,
    /// How many rolls.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: u32,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `craft`.
#[derive(Debug, clap::Args)]
pub struct CraftArgs {
    /// The implement's value (its rank): sets the successes and materials needed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub value: u32,
    /// The Craft rank rolled (the specialized craft's, with --specialized).
    #[arg(long, value_name = "N")]
    pub craft: u32,
    /// Specialized in the material: difficulty −1 (needs general Craft 2, --general).
    #[arg(long)]
    pub specialized: bool,
    /// The general Craft rank, for specialized crafting (default: --craft).
    #[arg(long, value_name = "N")]
    pub general: Option<u32>,
    /// A limited-use item: difficulty −1 (and a 1 in 6 chance to fall apart after each use).
    #[arg(long)]
    pub limited_use: bool,
    /// How many rounds of crafting.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub rounds: u32,
    /// An implement bonus (repeatable): 1+2, 2-crit, 1*5, 1D.
    #[arg(long, value_name = "BONUS", value_parser = bonus)]
    pub implement: Vec<Bonus>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// The rank after rolling one task several times, each advance raising the rank at once.
#[derive(Clone, Debug)]
struct Advancement {
    /// The task roll at each rank, from the starting one; the last never advances.
    rolls: Vec<TaskRoll>,
    start: u32,
    rounds: u32,
}

impl Advancement {
    fn new(rank: u32, difficulty: i32, rounds: u32, rules: Rules) -> Result<Self, CliError> {
        let task = Task::single(difficulty)?;
        if rank > dice_swimclass::MAX_POOL {
            return Err(CliError::bad_input(format_args!(
                "a roll holds at most {} dice, not {rank}",
                dice_swimclass::MAX_POOL
            )));
        }
        let top = rank.saturating_add(rounds).min(dice_swimclass::MAX_POOL);
        let mut rolls = Vec::new();
        for r in rank..=top {
            rolls.push(TaskRoll::new(SkillDice::new(r), task, rules)?);
        }
        Ok(Advancement {
            rolls,
            start: rank,
            rounds,
        })
    }
}

impl dice_core::Roll for Advancement {
    type Outcome = u32;
    fn roll<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let mut i = 0;
        for _ in 0..self.rounds {
            if i + 1 < self.rolls.len() && self.rolls[i].roll(rng).advances {
                i += 1;
            }
        }
        self.start + i as u32
    }
}

impl dice_core::Exact for Advancement {
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        let chance = self
            .rolls
            .iter()
            .map(|r| match r.advance_chance() {
                Ok(p) => Ok(p),
                // A pool too large to enumerate (some 55 dice and more) advances only when
                // every die shows 4 or more, under 2^-55 a roll: taken as 0, as before.
                Err(dice_swimclass::Error::Core(dice_core::Error::TooComplex { .. })) => Ok(0.0),
                Err(e) => Err(core_error(e)),
            })
            .collect::<Result<Vec<f64>, _>>()?;
        let n = self.rolls.len();
        let mut law = vec![0.0; n];
        law[0] = 1.0;
        for _ in 0..self.rounds {
            let mut next = vec![0.0; n];
            for (i, &p) in law.iter().enumerate() {
                if i + 1 < n {
                    next[i + 1] += p * chance[i];
                    next[i] += p * (1.0 - chance[i]);
                } else {
                    next[i] += p;
                }
            }
            law = next;
        }
        Dist::from_pairs(
            law.into_iter()
                .enumerate()
                .map(|(i, p)| (self.start + i as u32, p)),
        )
    }
}

/// The progress of a task after some rounds, capped at what it needs.
#[derive(Clone, Debug)]
struct Rounds {
    roll: TaskRoll,
    rounds: u32,
}

impl dice_core::Roll for Rounds {
    type Outcome = u32;
    fn roll<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let need = self.roll.task().progress;
        let progress = self.roll.progress();
        let mut acc = 0;
        for _ in 0..self.rounds {
            if acc >= need {
                break;
            }
            acc += progress.roll(rng);
        }
        acc.min(need)
    }
}

impl dice_core::Exact for Rounds {
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        self.roll.progress_after(self.rounds).map_err(core_error)
    }
}

/// A game error met while computing an exact law, as dice-core's (the [`dice_core::Exact`]
/// error type).
fn core_error(e: dice_swimclass::Error) -> dice_core::Error {
    match e {
        dice_swimclass::Error::Core(c) => c,
        _ => dice_core::Error::Unsupported {
            what: "this swimclass roll",
        },
    }
}

/// Parses an implement bonus as the rulebook writes it: `N+M`, `N-M`, `N-crit`,
/// `N*M`, `ND`, with or without parentheses. The crate has no parser of its own.
pub fn bonus(s: &str) -> Result<Bonus, String> {
    let err = || {
        format!(
            "expected an implement bonus N+M, N-M, N-crit, N*M or ND, such as 1+2, \
             not {s:?}"
        )
    };
    let t = s.trim();
    let t = t
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(t)
        .trim()
        .to_ascii_lowercase();
    let num = |x: &str| x.trim().parse::<u32>().map_err(|_| err());
    let int = |x: &str| x.trim().parse::<i32>().map_err(|_| err());
    if let Some(n) = t.strip_suffix("-crit") {
        return Ok(Bonus::CancelCriticals(num(n)?));
    }
    if let Some(n) = t.strip_suffix('d') {
        return Ok(Bonus::Dice(num(n)?));
    }
    if let Some((n, m)) = t.split_once('*') {
        return Ok(Bonus::Constant {
            dice: num(n)?,
            value: int(m)?,
        });
    }
    if let Some((n, m)) = t.split_once('+') {
        return Ok(Bonus::Plus {
            dice: num(n)?,
            modifier: int(m)?,
        });
    }
    if let Some((n, m)) = t.split_once('-') {
        return Ok(Bonus::Plus {
            dice: num(n)?,
            modifier: -int(m)?,
        });
    }
    Err(err())
}

/// Parses a difficulty: a number, or a name of the rulebook's scale, `easy` (1) or
/// `madness` (6), in any case.
pub fn difficulty(s: &str) -> Result<i32, String> {
    let t = s.trim();
    match t.to_ascii_lowercase().as_str() {
        "easy" => return Ok(EASY),
        "madness" => return Ok(MADNESS),
        _ => {}
    }
    t.parse::<i32>().map_err(|_| {
        format!(
            "expected a difficulty: a number, or easy ({EASY}) or madness ({MADNESS}), \
             not {s:?}"
        )
    })
}

/// `task`.
#[derive(Debug, clap::Args)]
pub struct TaskArgs {
    /// The skill's rank: the d6 rolled.
    #[arg(long, value_name = "N")]
    pub rank: u32,
    /// The task's difficulty: each die's value must be at least this. The rulebook's
    /// scale runs from 1, easy, to 6, madness: a number, or `easy` or `madness`.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = difficulty
    )]
    pub difficulty: i32,
    /// The progress the task needs: successes accumulated over rounds.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub progress: u32,
    /// The progress must come from one roll (jumping a chasm).
    #[arg(long)]
    pub all_or_nothing: bool,
    /// With --odds: also the chance the task is complete within this many rounds.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub rounds: Option<u32>,
    /// An implement bonus (repeatable): 1+2, 2-crit, 1*5, 1D.
    #[arg(long, value_name = "BONUS", value_parser = bonus)]
    pub implement: Vec<Bonus>,
    /// Dice lent by others or held in reserve (aid another); they never advance.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub aid: u32,
    /// Strain the skill: roll it once at double rank (rank 2 or more); it is reduced
    /// afterwards.
    #[arg(long)]
    pub strain: bool,
    /// Push the task ×N (difficulty 3 or less): difficulty × N, each success worth N
    /// progress.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub push: Option<u32>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `attack`.
#[derive(Debug, clap::Args)]
pub struct AttackArgs {
    /// The attack skill's rank: the attacker's d6.
    #[arg(long, value_name = "N")]
    pub attack: u32,
    /// The defender's Defense rank (or the skill opposing): the blocking d6. 0: unopposed.
    #[arg(long, value_name = "N")]
    pub defense: u32,
    /// The difficulty each attack die must meet to hit (default: no threshold, Basic
    /// Melee): a number, or `easy` (1) or `madness` (6).
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        conflicts_with = "range",
        value_parser = difficulty
    )]
    pub difficulty: Option<i32>,
    /// A ranged attack at this range in squares: difficulty Range + 1.
    #[arg(long, value_name = "SQUARES", value_parser = clap::value_parser!(u32).range(0..=999))]
    pub range: Option<u32>,
    /// The attacker's implement bonus (repeatable): 1+2, 2-crit, 1*5, 1D.
    #[arg(long, value_name = "BONUS", value_parser = bonus)]
    pub attack_implement: Vec<Bonus>,
    /// The defender's implement bonus (repeatable).
    #[arg(long, value_name = "BONUS", value_parser = bonus)]
    pub defense_implement: Vec<Bonus>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// Runs a Swimclass roll.
pub fn run(args: Args, ctx: &Ctx) -> Result<Report, CliError> {
    let rules: Rules = args.rules.apply()?;
    match args.roll {
        RollKind::Task(a) => task(a, rules, ctx),
        RollKind::Attack(a) => attack(a, rules, ctx),
        RollKind::Fight(a) => fight(&a, rules, ctx),
        RollKind::Initiative(a) => initiative(&a, rules, ctx),
        RollKind::Recovery(a) => recovery(&a, rules, ctx),
        RollKind::Stabilize(a) => stabilize(&a, rules, ctx),
        RollKind::Advance(a) => advance(&a, rules, ctx),
        RollKind::Craft(a) => craft(&a, rules, ctx),
        RollKind::Spell(a) => spell::run(&a, rules, ctx),
    }
}

fn initiative(a: &InitiativeArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let dice = skill_dice(a.rank, &a.implement, 0)?;
    let mut fields = vec![
        ("rank", json!(a.rank)),
        ("implements", implements_json(&a.implement)),
    ];
    if let Some(other) = a.against {
        let contest = InitiativeContest::new(dice, SkillDice::new(other).with_aid(0)?, &rules)?;
        fields.push(("against", json!(other)));
        let title = format!(
            "initiative: {}d6 against {other}d6 (full ties re-rolled)",
            a.rank
        );
        return super::named_mechanic(
            "swimclass initiative",
            title,
            &contest,
            &a.odds,
            ctx,
            fields,
            |o, d| {
                o.summary(
                    "p_first",
                    "the first character acts first",
                    d.probability(&Side::First),
                )
            },
        );
    }
    let init = Initiative::new(dice, &rules);
    super::named_mechanic(
        "swimclass initiative",
        format!("{init}: highest die, then second"),
        &init,
        &a.odds,
        ctx,
        fields,
        |o, _| o,
    )
}

/// A character's health at `hp` with this Defense rank.
fn health(defense: u32, hp: i64) -> Health {
    let mut h = Health::new(defense);
    let missing = h.hp.saturating_sub(hp);
    if missing > 0 {
        h.take(u32::try_from(missing).unwrap_or(u32::MAX));
    } else if missing < 0 {
        h.hp = hp;
    }
    h
}

fn recovery(a: &RecoveryArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let h = health(a.defense, a.hp);
    if a.hp > i64::from(h.max()) {
        return Err(CliError::bad_input(format!(
            "--hp {} is above the maximum, {} for Defense {}",
            a.hp,
            h.max(),
            a.defense
        )));
    }
    let r = Recovery::new(skill_dice(a.defense, &a.implement, 0)?, &h, &rules)?;
    let title = format!(
        "recovery: Defense {}d6 at difficulty {RECOVERY_DIFFICULTY}, at {h}: HP recovered",
        a.defense
    );
    let fields = vec![
        ("defense", json!(a.defense)),
        ("hp", json!(a.hp)),
        ("max_hp", json!(h.max())),
        ("implements", implements_json(&a.implement)),
    ];
    super::numeric_mechanic(
        "swimclass recovery",
        title,
        &r,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_recover",
                "at least 1 HP back",
                d.probability_where(|&x| x > 0),
            )
        },
    )
}

fn stabilize(a: &StabilizeArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    if a.hp >= 0 {
        return Err(CliError::bad_input(format!(
            "--hp {}: only a character below 0 HP rolls to stabilize",
            a.hp
        )));
    }
    let h = health(a.defense, a.hp);
    let s = Stabilize::new(skill_dice(a.defense, &a.implement, 0)?, &h, &rules)?;
    let title = format!(
        "stabilize: Defense {}d6 at {h}, {}",
        a.defense,
        s.task().task()
    );
    let fields = vec![
        ("defense", json!(a.defense)),
        ("hp", json!(a.hp)),
        ("implements", implements_json(&a.implement)),
    ];
    super::named_mechanic(
        "swimclass stabilize",
        title,
        &s,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_stabilized",
                "stabilized",
                d.probability_where(|x| x.stabilized),
            )
        },
    )
}

fn advance(a: &AdvanceArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let adv = Advancement::new(a.rank, a.difficulty, a.rounds, rules)?;
    let title = format!(
        "rank after {} roll(s) at difficulty {} from rank {}",
        a.rounds, a.difficulty, a.rank
    );
    let fields = vec![
        ("rank", json!(a.rank)),
        ("difficulty", json!(a.difficulty)),
        ("rounds", json!(a.rounds)),
    ];
    let start = a.rank;
    super::numeric_mechanic(
        "swimclass advance",
        title,
        &adv,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_advance",
                "at least one advance",
                d.probability_where(|&r| r > start),
            )
        },
    )
}

fn craft(a: &CraftArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let general = a.general.unwrap_or(a.craft);
    let task = dice_swimclass::craft::task(a.value, a.specialized, a.limited_use, general, &rules)?;
    let need = dice_swimclass::craft::requirements(a.value, &rules);
    let roll = TaskRoll::new(skill_dice(a.craft, &a.implement, 0)?, task, rules)?;
    let mechanic = Rounds {
        roll,
        rounds: a.rounds,
    };
    let title = format!(
        "crafting an implement of value {}: {} success(es) at difficulty {} with Craft {}d6, materials {:.2}; progress after {} round(s)",
        a.value, task.progress, task.difficulty, a.craft, need.materials, a.rounds
    );
    let fields = vec![
        ("value", json!(a.value)),
        ("craft", json!(a.craft)),
        ("specialized", json!(a.specialized)),
        ("limited_use", json!(a.limited_use)),
        ("rounds", json!(a.rounds)),
        ("difficulty", json!(task.difficulty)),
        ("successes_needed", json!(task.progress)),
        ("materials", json!(need.materials)),
    ];
    let needed = task.progress;
    super::numeric_mechanic(
        "swimclass craft",
        title,
        &mechanic,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_complete",
                "the implement is done",
                d.probability(&needed),
            )
        },
    )
}

/// `fight`: a scene played, or its exact or estimated odds.
fn fight(a: &super::fight::FightArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let scene: Scene = super::fight::load_scene(&a.scene)?;
    let encounter = Fight::new(&scene, rules)?;
    let title = encounter.title().to_owned();
    let names = encounter.clone();
    super::fight::run(
        "swimclass fight",
        &title,
        encounter,
        a,
        ctx,
        |s| names.describe(s),
        |v| v.to_string(),
    )
}

/// A rank's dice with implements (and aid), checked by the crate (`with_aid` checks the
/// pool's size even with no aid).
fn skill_dice(rank: u32, implements: &[Bonus], aid: u32) -> Result<SkillDice, CliError> {
    let mut d = SkillDice::new(rank).with_aid(aid)?;
    for &b in implements {
        d = d.with_bonus(b)?;
    }
    Ok(d)
}

fn implements_json(implements: &[Bonus]) -> Value {
    json!(implements.iter().map(Bonus::to_string).collect::<Vec<_>>())
}

/// Where a die came from, as the JSON names it.
fn colour(d: &DieRoll) -> &'static str {
    match d.source {
        Source::Primary => "skill",
        Source::Aid => "aid",
        Source::Artifact => "artifact",
        Source::Bonus => "constant",
        _ => "opposition",
    }
}

fn die_json(d: &DieRoll) -> Value {
    json!({
        "face": d.natural,
        "modifier": d.modifier,
        "value": d.value,
        "colour": colour(d),
        "success": d.flags.success,
        "critical": d.flags.critical,
        "blocked": d.flags.blocked,
    })
}

fn list(dice: &[DieRoll]) -> String {
    let v: Vec<String> = dice.iter().map(ToString::to_string).collect();
    format!("[{}]", v.join(", "))
}

/// The criticals' law as text (`criticals: 1 3.1%, 2 0.4%`) and JSON.
/// What the exact law of a task roll or an attack adds to its odds table: P(success),
/// P(the skill advances), P(at least one critical) and the law of criticals.
struct Chances {
    success: f64,
    advance: f64,
    critical: f64,
    critical_text: Option<String>,
    critical_json: Value,
}

impl Chances {
    fn of<O: Ord + Clone>(
        law: &Dist<O>,
        succeeded: impl Fn(&O) -> bool,
        advances: impl Fn(&O) -> bool,
        criticals_of: impl Fn(&O) -> u32,
    ) -> Chances {
        let crit_law = law.map(criticals_of);
        let (critical_text, critical_json) = criticals(&crit_law);
        Chances {
            success: law.probability_where(succeeded),
            advance: law.probability_where(advances),
            critical: crit_law.probability_where(|&c| c > 0),
            critical_text,
            critical_json,
        }
    }
}

fn criticals(law: &Dist<u32>) -> (Option<String>, Value) {
    let rows: Vec<Value> = law
        .iter()
        .map(|(c, p)| json!({ "criticals": c, "probability": p }))
        .collect();
    let some: Vec<String> = law
        .iter()
        .filter(|(c, _)| **c > 0)
        .map(|(c, p)| format!("{c} ({})", percent(p, 4)))
        .collect();
    let text = (!some.is_empty()).then(|| format!("criticals: {}", some.join(", ")));
    (text, Value::Array(rows))
}

fn task(a: TaskArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "swimclass task";
    // Straining rolls double the rank (L87–89); pushing multiplies the difficulty and what
    // each success is worth, so the task needs the progress over N in successes (L91–93).
    let strained = if a.strain {
        Some(dice_swimclass::strain(a.rank, &rules)?)
    } else {
        None
    };
    let pushed = match a.push {
        Some(n) => {
            let base = u32::try_from(a.difficulty).map_err(|_| {
                CliError::bad_input("only a task of difficulty 1 to 3 may be pushed")
            })?;
            Some(dice_swimclass::push(base, n)?)
        }
        None => None,
    };
    let rank = strained.map_or(a.rank, |s| s.dice);
    let difficulty = pushed.map_or(a.difficulty, |p| {
        i32::try_from(p.difficulty).unwrap_or(i32::MAX)
    });
    let needed = pushed.map_or(a.progress, |p| a.progress.div_ceil(p.factor));
    let dice = skill_dice(rank, &a.implement, a.aid)?;
    let task = if a.all_or_nothing {
        Task::all_or_nothing(difficulty, needed)?
    } else {
        Task::over_rounds(difficulty, needed)?
    };
    let roll = TaskRoll::new(dice.clone(), task, rules)?;
    let mut title = roll.to_string();
    if let Some(s) = strained {
        title.push_str(&format!(
            ", strained (rank {} rolled at double, rank {} afterwards)",
            a.rank, s.rank_after
        ));
    }
    if let Some(p) = pushed {
        title.push_str(&format!(
            ", pushed ×{} (difficulty {} × {}, each success worth {} progress: {needed} success(es) for progress {})",
            p.factor, a.difficulty, p.factor, p.factor, a.progress
        ));
    }
    let fill = |o: &mut serde_json::Map<String, Value>| {
        // Only when asked for, so that the JSON of a plain task keeps its fields.
        if let Some(s) = strained {
            o.insert(
                "strain".into(),
                json!({"dice": s.dice, "rank_after": s.rank_after}),
            );
        }
        if let Some(p) = pushed {
            o.insert(
                "push".into(),
                json!({"factor": p.factor, "difficulty": p.difficulty, "successes_needed": needed}),
            );
        }
        o.insert("rank".into(), json!(a.rank));
        o.insert("difficulty".into(), json!(a.difficulty));
        o.insert("progress".into(), json!(a.progress));
        o.insert("all_or_nothing".into(), json!(a.all_or_nothing));
        o.insert("aid".into(), json!(a.aid));
        o.insert("implements".into(), implements_json(&a.implement));
    };
    if a.odds.wanted() {
        let mut o = task_odds(
            cmd,
            title,
            &roll,
            Effect {
                note: "outcome: successes (the progress one roll adds)",
                key: "p_success",
                success: "success",
                skill: "the skill",
            },
            &a.odds,
            ctx,
        )?;
        if let Some(r) = a.rounds {
            let p = roll.completion_chance(r)?;
            let s = if r == 1 { "" } else { "s" };
            o = o
                .summary(
                    "p_complete",
                    format!("the task is complete within {r} round{s}"),
                    p,
                )
                .field("rounds", r);
        }
        fill(&mut o.fields);
        return Ok(Report::Odds(o));
    }
    let (mut report, r) = task_rolled(cmd, title, &roll, &rules, ctx)?;
    let mut progress = TaskProgress::new(task);
    let status = progress.add(r.outcome.successes);
    if a.progress > 1 {
        report = report.line(format!("progress: {status}"));
    }
    let status_key = match status {
        ProgressStatus::InProgress { .. } => "in_progress",
        ProgressStatus::Complete => "complete",
        ProgressStatus::Failed => "failed",
    };
    report = report.field("status", status_key);
    fill(&mut report.fields);
    Ok(Report::Roll(report))
}

/// The exact or simulated odds of one task roll: the law of its successes, with P(success)
/// (`effect` says what succeeding is), P(the skill advances), P(at least one critical) and
/// the law of the criticals. The table of `task`, and of every spell rolled as a task.
fn task_odds(
    cmd: &str,
    title: String,
    roll: &TaskRoll,
    effect: Effect<'_>,
    odds: &OddsFlag,
    ctx: &Ctx,
) -> Result<OddsReport, CliError> {
    let run = odds.law(roll, ctx)?;
    let successes = run.map(|o| o.successes);
    let law = run.dist;
    let c = Chances::of(&law, |o| o.succeeded, |o| o.advances, |o| o.criticals);
    let mut o = successes
        .decorate(OddsReport::new(cmd, title).numeric(&successes.dist))
        .note(effect.note)
        .summary(effect.key, effect.success, c.success)
        .summary("p_advance", format!("{} advances", effect.skill), c.advance)
        .summary("p_critical", "at least one critical", c.critical);
    if !roll.has_chance_of_failure() {
        o = o.footnote("no chance of failure: the skill cannot advance");
    }
    if let Some(t) = c.critical_text {
        o = o.footnote(t);
    }
    Ok(o.field("criticals", c.critical_json)
        .field("can_fail", roll.has_chance_of_failure()))
}

/// One task roll rolled: the report's lines (`title`, then every die and the outcome) and
/// JSON fields (the dice, success, successes, criticals, advancement, `outcome`), and the
/// result for the caller's own lines.
fn task_rolled(
    cmd: &str,
    title: String,
    roll: &TaskRoll,
    rules: &Rules,
    ctx: &Ctx,
) -> Result<(RollReport, dice_swimclass::TaskResult), CliError> {
    let seed = ctx.seed();
    let faces = roll.dice().roll_faces(&mut seed.rng(), rules);
    let r = roll.resolve(&faces)?;
    let report = RollReport::new(cmd, seed)
        .line(title)
        .line(format!("dice {r}"))
        .field(
            "dice",
            json!(r.dice.iter().map(die_json).collect::<Vec<_>>()),
        )
        .field("succeeded", r.outcome.succeeded)
        .field("successes", r.outcome.successes)
        .field("criticals", r.outcome.criticals)
        .field("advances", r.outcome.advances)
        .field(
            "outcome",
            if r.outcome.succeeded {
                "success"
            } else {
                "failure"
            },
        );
    Ok((report, r))
}

fn attack(a: AttackArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "swimclass attack";
    let att = skill_dice(a.attack, &a.attack_implement, 0)?;
    let def = if a.defense == 0 && a.defense_implement.is_empty() {
        None
    } else {
        Some(skill_dice(a.defense, &a.defense_implement, 0)?)
    };
    let difficulty = match (a.difficulty, a.range) {
        (Some(d), _) => d,
        (None, Some(r)) => ranged_difficulty(r),
        (None, None) => NO_THRESHOLD,
    };
    let roll = OpposedRoll::new(att.clone(), difficulty, def.clone(), rules)?;
    let title = roll.to_string();
    let difficulty_json = if difficulty == NO_THRESHOLD {
        Value::Null
    } else {
        json!(difficulty)
    };
    let fill = |fields: &mut serde_json::Map<String, Value>| {
        fields.insert("attack".into(), json!(a.attack));
        fields.insert("defense".into(), json!(a.defense));
        fields.insert("difficulty".into(), difficulty_json.clone());
        fields.insert("range".into(), json!(a.range));
        fields.insert(
            "attack_implements".into(),
            implements_json(&a.attack_implement),
        );
        fields.insert(
            "defense_implements".into(),
            implements_json(&a.defense_implement),
        );
    };
    if a.odds.wanted() {
        let mut o = opposed_odds(
            cmd,
            title,
            &roll,
            def.is_some(),
            Effect {
                note: "outcome: hits through (1 damage each)",
                key: "p_hit",
                success: "at least one hit through",
                skill: "the attack skill",
            },
            |h| h,
            &a.odds,
            ctx,
        )?;
        fill(&mut o.fields);
        return Ok(Report::Odds(o));
    }
    let (mut report, r) = opposed_rolled(cmd, title, &roll, &att, def.as_ref(), &rules, ctx)?;
    report = report.field("outcome", if r.outcome.hits > 0 { "hit" } else { "miss" });
    fill(&mut report.fields);
    Ok(Report::Roll(report))
}

/// What a roll's odds call its outcome and its success.
struct Effect<'a> {
    /// The note under the title: what the outcome is.
    note: &'a str,
    /// The headline probability's key.
    key: &'a str,
    /// What succeeding does.
    success: &'a str,
    /// The acting skill, for "… advances".
    skill: &'a str,
}

/// The exact or simulated odds of an opposed roll: the law of its hits through (each
/// mapped by `hits`, Blaze's one hit), with P(success), P(the acting skill advances),
/// P(at least one critical), and with an opposing roll the same for the defense. The table
/// of `attack`, and of every opposed spell.
#[allow(clippy::too_many_arguments)]
fn opposed_odds(
    cmd: &str,
    title: String,
    roll: &OpposedRoll,
    opposed: bool,
    effect: Effect<'_>,
    hits: impl Fn(u32) -> u32,
    odds: &OddsFlag,
    ctx: &Ctx,
) -> Result<OddsReport, CliError> {
    let run = odds.law(roll, ctx)?;
    let through = run.map(|o| hits(o.hits));
    let law = run.dist;
    let c = Chances::of(&law, |o| o.succeeded, |o| o.advances, |o| o.criticals);
    let mut o = through
        .decorate(OddsReport::new(cmd, title).numeric(&through.dist))
        .note(effect.note)
        .summary(effect.key, effect.success, c.success)
        .summary("p_advance", format!("{} advances", effect.skill), c.advance)
        .summary("p_critical", "at least one critical", c.critical);
    if let Some(t) = c.critical_text {
        o = o.footnote(t);
    }
    o = o.field("criticals", c.critical_json);
    if opposed {
        let d = Chances::of(
            &law,
            |o| !o.succeeded,
            |o| o.defense_advances,
            |o| o.defense_criticals,
        );
        o = o
            .summary("p_defense_advance", "the defense skill advances", d.advance)
            .summary(
                "p_defense_critical",
                "at least one defense critical",
                d.critical,
            )
            .field("defense_criticals", d.critical_json);
        if let Some(t) = d.critical_text {
            o = o.footnote(format!("defense {t}"));
        }
    }
    Ok(o)
}

/// An opposed roll rolled: the report's lines (`title`, both sides' dice, the blocks, the
/// outcome) and JSON fields (the dice, blocks, hits, success, criticals and advancement of
/// both sides), and the result for the caller's own lines.
fn opposed_rolled(
    cmd: &str,
    title: String,
    roll: &OpposedRoll,
    att: &SkillDice,
    def: Option<&SkillDice>,
    rules: &Rules,
    ctx: &Ctx,
) -> Result<(RollReport, dice_swimclass::OpposedResult), CliError> {
    let seed = ctx.seed();
    let mut rng = seed.rng();
    let af = att.roll_faces(&mut rng, rules);
    let df = def.map_or_else(Vec::new, |d| d.roll_faces(&mut rng, rules));
    let r = roll.resolve(&af, &df)?;
    let mut report = RollReport::new(cmd, seed).line(title).line(format!(
        "attack {} vs defense {}",
        list(&r.attack),
        list(&r.defense)
    ));
    if !r.blocked.is_empty() {
        let pairs: Vec<String> = r
            .blocked
            .iter()
            .map(|&(x, y)| format!("{} by {}", r.attack[x].value, r.defense[y].value))
            .collect();
        report = report.line(format!("blocked: {}", pairs.join(", ")));
    }
    report = report
        .line(r.outcome.to_string())
        .field(
            "attack_dice",
            json!(r.attack.iter().map(die_json).collect::<Vec<_>>()),
        )
        .field(
            "defense_dice",
            json!(r.defense.iter().map(die_json).collect::<Vec<_>>()),
        )
        .field(
            "blocked",
            json!(
                r.blocked
                    .iter()
                    .map(|&(x, y)| json!({ "attack_die": x, "defense_die": y }))
                    .collect::<Vec<_>>()
            ),
        )
        .field("hits", r.outcome.hits)
        .field("succeeded", r.outcome.succeeded)
        .field("criticals", r.outcome.criticals)
        .field("advances", r.outcome.advances)
        .field("defense_criticals", r.outcome.defense_criticals)
        .field("defense_advances", r.outcome.defense_advances);
    Ok((report, r))
}
