//! `dice shapers-and-bots`: the challenge roll, the fluke, damage and whole fights of *Shapers and Bots*
//! (crate dice-shapers-and-bots), under the project's rulings (`Rules::default()`) unless `--rule` changes one.

use dice_core::{Die, Keep, Pool, RollDetailed, Sum};
use dice_shapers_and_bots::{
    Armor, Attack, AttackOutcome, Attempt, ChallengeOutcome, Contest, ContestOutcome, Contestant,
    Damage, Error, Fluke, Health, Initiative, Level, Rating, Rules, Scene, Size, Stakes, Surprise,
    Victory, WeaponClass, hit_points,
};
use serde_json::json;

use super::{OddsFlag, faces_u8, streak_text};
use crate::Ctx;
use crate::error::CliError;
use crate::render::{label_of, snake};
use crate::report::{OddsReport, Report, RollReport, Row};

/// `dice shapers-and-bots`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Shapers and Bots: challenge rolls, flukes, damage and whole fights (2d6 + level bonus)",
    long_about = "Shapers and Bots: challenge rolls, flukes, damage and whole fights.\n\n\
A challenge is two d6 plus the character's level bonus (Very Low −3, Low −1, Average 0, \
High +2, Very High +4, Awesome +6) against the task's target (Very Low 3, Low 5, Average 7, \
High 9, Very High 11, Awesome 13): above the target succeeds, exactly on it succeeds with \
consequences, below fails. A character with no rating rolls a fluke instead: one point per \
successive 4, 5 or 6 on a single die, against the same target. Damage is a streak too: \
a weapon's guaranteed points plus one per successive face in its range.\n\n\
Rolls by default; --odds gives the exact odds. Rulings are the project's (dice-shapers-and-bots \
Rules::default()); --rule KEY=VALUE changes one (an unknown KEY lists them all).",
    after_help = "Examples:\n  dice shapers-and-bots challenge --skill high --task awesome\n  dice shapers-and-bots challenge --skill high --task awesome --odds\n  dice shapers-and-bots fluke --task average --odds\n  dice shapers-and-bots damage --weapon large --armored\n  dice shapers-and-bots fight crates/shapers-and-bots/scenes/dashwood-and-slumpy.toml --odds"
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
    /// A challenge roll: 2d6 + the skill's bonus against the task's target.
    #[command(
        long_about = "A challenge roll: 2d6 + the skill level's bonus against the task \
level's target. Above the target succeeds, exactly on it succeeds with consequences, below \
fails.\n\n\
A character whose skill is above the task's level succeeds automatically when the outcome is \
routine; pass --important to roll anyway. A character with no rating \
(--skill none) rolls a fluke."
    )]
    Challenge(ChallengeArgs),
    /// A fluke: one point per successive 4, 5 or 6 against the task's target (no rating).
    #[command(
        long_about = "A fluke, the roll of a character with no rating: a single d6, \
one point for each successive 4, 5 or 6, until a miss; the score is compared with the task's \
target (a score exactly on it succeeds with consequences)."
    )]
    Fluke(FlukeArgs),
    /// The damage of one hit: a weapon's streak on a d6.
    #[command(
        long_about = "The damage of one hit: the damage table's streak on a d6 for the \
weapon class, against an unarmored or (--armored) armored target. Unarmored: punch or kick \
1 point on a 6, small 1 + (5, 6), large 1 + (3–6), really powerful 1 + (2–6). \
Armored: punch no effect, small 0 + (6), large 0 + (5, 6); the rulebook gives no figure for a \
really powerful weapon."
    )]
    Damage(DamageArgs),
    /// A whole fight from a scene file: play it, or give the exact odds of who wins.
    #[command(
        long_about = "A whole fight, described in a scene file (TOML, or JSON by its extension): \
the fighters' species, Size and Fitness, weapons, armor and skills, and their sides. Each turn \
every conscious fighter acts in order of Fitness (ties rolled once for the fight) with two \
actions: attack, take an arrow from the quiver, run in to close the distance. A target may \
spend an action to defend, or borrow one from their next turn; an undefended attack needs the \
target's Size target, a defended one must equal or beat the defender's roll, a sneak attack \
cannot be defended. A hit does the weapon's damage streak; a fighter at zero hit points is \
unconscious, and the fight ends when one side is left standing.\n\n\
Fighters play the default tactics: reload or close in when they must, attack the weakest \
enemy, defend when it lowers the chance of being hit and an action can be spared. Plays the \
fight by default; --odds gives the exact odds of each side winning and of the turns it takes, \
--monte-carlo estimates them.",
        after_help = "Examples:\n  dice shapers-and-bots fight crates/shapers-and-bots/scenes/dashwood-and-slumpy.toml --seed 1\n  dice shapers-and-bots fight crates/shapers-and-bots/scenes/dashwood-and-slumpy.toml --odds"
    )]
    Fight(super::fight::FightArgs),
    /// A contest: both sides roll 2d6 + their bonus, the higher score wins.
    #[command(
        long_about = "A contest (arm wrestling, a chase): both sides roll two d6 and add their \
level's bonus (and any modifier); the higher score wins, and equal scores are a tie the \
Director rules on. A side with no rating (none) may only roll a fluke under \
--rule fluke_in_contests=true.",
        after_help = "Examples:\n  dice shapers-and-bots contest --first high --second high --odds\n  dice shapers-and-bots contest --first average --second low --second-modifier 2 --odds"
    )]
    Contest(ContestArgs),
    /// An attack: against the target's Size, against a defender's roll, or a sneak attack.
    #[command(
        long_about = "An attack with a weapon skill. Undefended (--size): 2d6 + the attacker's \
bonus must reach the target figure of the target's Size (very-low 3 … awesome 13; equal is a \
hit with consequences by the project's ruling). Defended (--defender): the defender spends an \
action to roll their own skill, and the attacker must equal or beat it. --sneak: against the \
Size, no defense, with the Director's surprise bonus (--surprise 0, 1 or 2). Armor worn by a \
side lowers its bonus: accustomed −1, unaccustomed −3.",
        after_help = "Examples:\n  dice shapers-and-bots attack --attacker average --size very-low --odds\n  dice shapers-and-bots attack --attacker low --defender high --odds\n  dice shapers-and-bots attack --attacker low --size high --sneak --surprise 2 --odds"
    )]
    Attack(AttackArgs),
    /// Initiative: the order of a fight, by Fitness, ties rolled off.
    #[command(
        long_about = "Initiative: characters act in order of Fitness, highest first; \
characters tied on Fitness roll dice (--tie-dice d6, two by default: the rulebook does not \
say which) and roll again among themselves while still tied, once for the whole fight. \
Give one --fitness per fighter, in order; fighters are numbered from 0 in that order, and \
each outcome is the turn order.",
        after_help = "Examples:\n  dice shapers-and-bots initiative --fitness high --fitness high --fitness low --odds\n  dice shapers-and-bots initiative --fitness very-high --fitness low"
    )]
    Initiative(InitiativeArgs),
    /// Hit points from Size and Fitness, and what hits from a weapon leave of them.
    #[command(
        long_about = "Hit points: the target figure of the character's Size plus one point \
per step their Fitness is above Average (minus one per step below). With --weapon, the hit \
points left after --hits hits of that weapon (the damage table's streak each, against an \
--armored target or not); at zero the character is unconscious.",
        after_help = "Examples:\n  dice shapers-and-bots hit-points --size very-high --fitness low\n  dice shapers-and-bots hit-points --size very-high --fitness low --weapon large --hits 3 --odds"
    )]
    HitPoints(HitPointsArgs),
}

/// `contest`.
#[derive(Debug, clap::Args)]
pub struct ContestArgs {
    /// The first side's level in the skill used (very-low … awesome, or none).
    #[arg(long, value_name = "LEVEL", value_parser = rating)]
    pub first: Rating,
    /// The second side's level.
    #[arg(long, value_name = "LEVEL", value_parser = rating)]
    pub second: Rating,
    /// A modifier to the first side's bonus.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub first_modifier: i32,
    /// A modifier to the second side's bonus.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub second_modifier: i32,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// Armor a side wears.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ArmorArg {
    /// No armor.
    None,
    /// Armor the wearer is used to: −1.
    Accustomed,
    /// Armor the wearer is not used to: −3.
    Unaccustomed,
}

impl From<ArmorArg> for Armor {
    fn from(a: ArmorArg) -> Armor {
        match a {
            ArmorArg::None => Armor::Unarmored,
            ArmorArg::Accustomed => Armor::Accustomed,
            ArmorArg::Unaccustomed => Armor::Unaccustomed,
        }
    }
}

/// `attack`.
#[derive(Debug, clap::Args)]
pub struct AttackArgs {
    /// The attacker's level in the weapon skill (very-low … awesome, or none).
    #[arg(long, value_name = "LEVEL", value_parser = rating)]
    pub attacker: Rating,
    /// The target's Size (the lower of Height and Weight), for an undefended or sneak attack.
    #[arg(long, value_name = "LEVEL", value_parser = level, required_unless_present = "defender", conflicts_with = "defender")]
    pub size: Option<Level>,
    /// The defender's level in the skill they defend with: a defended attack.
    #[arg(long, value_name = "LEVEL", value_parser = rating)]
    pub defender: Option<Rating>,
    /// A sneak attack (needs --size): no defense allowed.
    #[arg(long, requires = "size")]
    pub sneak: bool,
    /// The Director's surprise bonus for a sneak attack: 0, 1 or 2.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "sneak")]
    pub surprise: i32,
    /// Armor the attacker wears.
    #[arg(long, value_enum, default_value = "none")]
    pub attacker_armor: ArmorArg,
    /// Armor the defender wears (a defended attack).
    #[arg(long, value_enum, default_value = "none", requires = "defender")]
    pub defender_armor: ArmorArg,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `initiative`.
#[derive(Debug, clap::Args)]
pub struct InitiativeArgs {
    /// A fighter's Fitness (repeat once per fighter, in order).
    #[arg(long, value_name = "LEVEL", value_parser = level, required = true)]
    pub fitness: Vec<Level>,
    /// How many d6 tied fighters roll.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=10))]
    pub tie_dice: u32,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `hit-points`.
#[derive(Debug, clap::Args)]
pub struct HitPointsArgs {
    /// The character's Size (the figure used for hit points).
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    pub size: Level,
    /// The character's Fitness.
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    pub fitness: Level,
    /// The weapon hitting the character: gives the law of the hit points left.
    #[arg(long, value_enum)]
    pub weapon: Option<Weapon>,
    /// The character wears armor (the damage table's armored row).
    #[arg(long, requires = "weapon")]
    pub armored: bool,
    /// How many hits the character takes.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "weapon", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub hits: u32,
    #[command(flatten)]
    pub odds: OddsFlag,
}

fn level(s: &str) -> Result<Level, String> {
    s.parse::<Level>().map_err(|e| e.to_string())
}

fn rating(s: &str) -> Result<Rating, String> {
    s.parse::<Rating>().map_err(|e| e.to_string())
}

/// `challenge`.
#[derive(Debug, clap::Args)]
pub struct ChallengeArgs {
    /// The character's level in the skill used: very-low (awful), low (poor), average,
    /// high (good), very-high (great), awesome, or none (no rating: a fluke).
    #[arg(long, value_name = "LEVEL", value_parser = rating)]
    pub skill: Rating,
    /// The task's level, which sets its target: very-low 3, low 5, average 7, high 9,
    /// very-high 11, awesome 13.
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    pub task: Level,
    /// The outcome matters: roll even when the skill is above the task (no automatic success).
    #[arg(long)]
    pub important: bool,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `fluke`.
#[derive(Debug, clap::Args)]
pub struct FlukeArgs {
    /// The task's level, which sets the score needed: very-low 3, low 5, average 7, high 9,
    /// very-high 11, awesome 13.
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    pub task: Level,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// A weapon class of the damage table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Weapon {
    /// A punch or kick.
    #[value(alias = "kick")]
    Punch,
    /// A small weapon: a dagger, a cudgel.
    Small,
    /// A large weapon: an arrow, a sword, a spiked club.
    Large,
    /// A really powerful weapon: a laser blaster.
    ReallyPowerful,
}

impl From<Weapon> for WeaponClass {
    fn from(w: Weapon) -> WeaponClass {
        match w {
            Weapon::Punch => WeaponClass::PunchOrKick,
            Weapon::Small => WeaponClass::Small,
            Weapon::Large => WeaponClass::Large,
            Weapon::ReallyPowerful => WeaponClass::ReallyPowerful,
        }
    }
}

/// `damage`.
#[derive(Debug, clap::Args)]
pub struct DamageArgs {
    /// The weapon class.
    #[arg(long, value_enum)]
    pub weapon: Weapon,
    /// The target wears armor.
    #[arg(long)]
    pub armored: bool,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// Runs a Shapers and Bots roll.
pub fn run(args: Args, ctx: &Ctx) -> Result<Report, CliError> {
    let rules: Rules = args.rules.apply()?;
    match args.roll {
        RollKind::Challenge(a) => challenge(a, &rules, ctx),
        RollKind::Fluke(a) => {
            let fluke = Fluke::new(a.task, &rules)?;
            let cmd = "shapers-and-bots fluke";
            if a.odds.wanted() {
                let law = a.odds.law(&fluke, ctx)?;
                Ok(Report::Odds(
                    law.decorate(
                        outcome_odds(cmd, fluke.to_string(), &law.dist)
                            .field("task", level_key(a.task)),
                    ),
                ))
            } else {
                let r = roll_fluke(cmd, &fluke, ctx)?;
                Ok(Report::Roll(r.field("task", level_key(a.task))))
            }
        }
        RollKind::Damage(a) => damage(a, &rules, ctx),
        RollKind::Fight(a) => fight(&a, &rules, ctx),
        RollKind::Contest(a) => contest(&a, &rules, ctx),
        RollKind::Attack(a) => attack(&a, &rules, ctx),
        RollKind::Initiative(a) => initiative(&a, ctx),
        RollKind::HitPoints(a) => hit_points_cmd(&a, &rules, ctx),
    }
}

fn contest(a: &ContestArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let first = Contestant::new(a.first, a.first_modifier)?;
    let second = Contestant::new(a.second, a.second_modifier)?;
    let contest = Contest::new(first, second, rules)?;
    let fields = vec![
        ("first", json!(rating_key(a.first))),
        ("second", json!(rating_key(a.second))),
        ("first_modifier", json!(a.first_modifier)),
        ("second_modifier", json!(a.second_modifier)),
    ];
    super::named_mechanic(
        "shapers-and-bots contest",
        contest.to_string(),
        &contest,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_first_wins",
                "the first side wins",
                d.probability(&ContestOutcome::FirstWins),
            )
        },
    )
}

fn attack(a: &AttackArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let attacker = Contestant::from(a.attacker).wearing(a.attacker_armor.into())?;
    let attack = match (a.size, a.defender) {
        (Some(size), _) if a.sneak => {
            let surprise = Surprise::from_bonus(a.surprise)?;
            Attack::sneak(attacker, &Size::Single(size), surprise, rules)?
        }
        (Some(size), _) => Attack::undefended(attacker, &Size::Single(size), rules)?,
        (None, Some(d)) => {
            let defender = Contestant::from(d).wearing(a.defender_armor.into())?;
            Attack::defended(attacker, defender, rules)?
        }
        (None, None) => {
            return Err(CliError::bad_input(
                "an attack needs the target's --size or a --defender",
            ));
        }
    };
    let fields = vec![
        ("attacker", json!(rating_key(a.attacker))),
        ("size", json!(a.size.map(level_key))),
        ("defender", json!(a.defender.map(rating_key))),
        ("sneak", json!(a.sneak)),
        ("surprise", json!(a.surprise)),
    ];
    super::named_mechanic(
        "shapers-and-bots attack",
        attack.to_string(),
        &attack,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_hit",
                "a hit, with or without consequences",
                d.probability_where(|x| *x != AttackOutcome::Miss),
            )
        },
    )
}

fn initiative(a: &InitiativeArgs, ctx: &Ctx) -> Result<Report, CliError> {
    let tie = Sum::new(Pool::new(a.tie_dice, Die::D6)?, Keep::All, 0)?;
    let init = Initiative::new(a.fitness.clone(), tie)?;
    let names: Vec<String> = a
        .fitness
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{i}: {l}"))
        .collect();
    let title = format!(
        "initiative of {} (ties: {}d6)",
        names.join(", "),
        a.tie_dice
    );
    let fields = vec![
        (
            "fitness",
            json!(a.fitness.iter().map(|&l| level_key(l)).collect::<Vec<_>>()),
        ),
        ("tie_dice", json!(a.tie_dice)),
    ];
    super::named_mechanic(
        "shapers-and-bots initiative",
        title,
        &init,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_first_goes_first",
                "fighter 0 goes first",
                d.probability_where(|t| t.first() == Some(0)),
            )
        },
    )
}

/// The hit points left after some hits of one weapon: a character's health under a
/// repeated damage streak.
#[derive(Clone, Debug)]
struct HitsTaken {
    damage: Damage,
    hits: u32,
    hit_points: i32,
    rules: Rules,
}

impl HitsTaken {
    fn left(&self, total: u64) -> i64 {
        let mut h = match Health::new(self.hit_points) {
            Ok(h) => h,
            Err(_) => return 0,
        };
        h.take(u32::try_from(total).unwrap_or(u32::MAX), &self.rules);
        i64::from(h.current())
    }
}

impl dice_core::Roll for HitsTaken {
    type Outcome = i64;
    fn roll<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let total: u64 = (0..self.hits)
            .map(|_| u64::from(self.damage.roll(rng)))
            .sum();
        self.left(total)
    }
}

impl dice_core::Exact for HitsTaken {
    fn distribution(&self) -> Result<dice_core::Dist<i64>, dice_core::Error> {
        let one = self.damage.distribution()?;
        let mut total = dice_core::Dist::from_pairs([(0i64, 1.0)])?;
        for _ in 0..self.hits {
            total = total.add(&one);
        }
        Ok(total.map(|&t| self.left(u64::try_from(t).unwrap_or(0))))
    }
}

fn hit_points_cmd(a: &HitPointsArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "shapers-and-bots hit-points";
    let hp = hit_points(a.size, a.fitness);
    let head = format!("Size {}, Fitness {}: {hp} hit points", a.size, a.fitness);
    let Some(weapon) = a.weapon else {
        if a.odds.wanted() {
            return Err(CliError::bad_input(
                "hit points are fixed; --odds needs a --weapon to hit with",
            ));
        }
        return Ok(Report::Roll(
            RollReport::new(cmd, ctx.seed())
                .line(head)
                .field("size", level_key(a.size))
                .field("fitness", level_key(a.fitness))
                .field("hit_points", hp),
        ));
    };
    let class = WeaponClass::from(weapon);
    let damage = match Damage::new(class, a.armored, rules) {
        Err(Error::MissingDamageRule { .. }) => {
            return Err(CliError::bad_input(format!(
                "the rulebook gives no damage for a {class} against an armored target; the project leaves it to the table"
            )));
        }
        other => other?,
    };
    let taken = HitsTaken {
        damage,
        hits: a.hits,
        hit_points: hp,
        rules: *rules,
    };
    let title = format!(
        "{head}, after {} hit(s) of a {class} ({}): hit points left",
        a.hits,
        taken.damage.rule()
    );
    let fields = vec![
        ("size", json!(level_key(a.size))),
        ("fitness", json!(level_key(a.fitness))),
        ("hit_points", json!(hp)),
        ("weapon", json!(snake(&class.to_string()))),
        ("armored", json!(a.armored)),
        ("hits", json!(a.hits)),
    ];
    super::numeric_mechanic(cmd, title, &taken, &a.odds, ctx, fields, |o, d| {
        o.summary(
            "p_unconscious",
            "unconscious, at 0 hit points",
            d.probability_where(|&x| x <= 0),
        )
    })
}

/// `fight SCENE`: the scene's fighters, played or with the odds of each side winning.
fn fight(args: &super::fight::FightArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let scene: Scene = super::fight::load_scene(&args.scene)?;
    let encounter = scene
        .encounter(rules)
        .map_err(|e| CliError::bad_input(format!("the scene {}: {e}", args.scene.display())))?;
    let title = match &scene.title {
        Some(t) => t.clone(),
        None => {
            let names: Vec<&str> = encounter.fighters().iter().map(|f| f.name()).collect();
            names.join(" vs ")
        }
    };
    let describer = encounter.clone();
    super::fight::run(
        "shapers-and-bots fight",
        &title,
        encounter,
        args,
        ctx,
        move |s| describer.describe(s),
        |v: &Victory| v.to_string(),
    )
}

/// `very_high`, or `none` for no rating.
fn level_key(l: Level) -> String {
    snake(l.name())
}

fn rating_key(r: Rating) -> String {
    r.level().map_or_else(|| "none".to_owned(), level_key)
}

fn challenge(a: ChallengeArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "shapers-and-bots challenge";
    let stakes = if a.important {
        Stakes::Important
    } else {
        Stakes::Routine
    };
    let attempt = Attempt::new(a.skill, a.task, stakes, rules)?;
    let kind = match &attempt {
        Attempt::AutomaticSuccess => "automatic_success",
        Attempt::Challenge(_) => "challenge",
        Attempt::Fluke(_) => "fluke",
    };
    let title = match &attempt {
        Attempt::AutomaticSuccess => format!("{} vs {}: automatic success", a.skill, a.task),
        Attempt::Challenge(c) => c.to_string(),
        Attempt::Fluke(f) => format!("no rating: {f}"),
    };
    let report = if a.odds.wanted() {
        let law = a.odds.law(&attempt, ctx)?;
        let mut o = law.decorate(outcome_odds(cmd, title, &law.dist));
        if let Attempt::AutomaticSuccess = attempt {
            o = o.note(AUTO_NOTE);
        }
        Report::Odds(
            o.field("skill", rating_key(a.skill))
                .field("task", level_key(a.task))
                .field("important", a.important)
                .field("attempt", kind),
        )
    } else {
        let r = match &attempt {
            Attempt::AutomaticSuccess => RollReport::new(cmd, ctx.seed())
                .line(title)
                .line(AUTO_NOTE)
                .field("dice", json!([]))
                .field("outcome", "success"),
            Attempt::Challenge(c) => {
                let seed = ctx.seed();
                let roll = c.roll_challenge(&mut seed.rng());
                let (dice, bonus, total) = match roll.score {
                    dice_shapers_and_bots::ScoreRoll::Dice {
                        dice, bonus, total, ..
                    } => (dice.to_vec(), bonus, total),
                    dice_shapers_and_bots::ScoreRoll::Fluke { score, .. } => {
                        (Vec::new(), 0, i32::try_from(score).unwrap_or(i32::MAX))
                    }
                };
                RollReport::new(cmd, seed)
                    .line(title)
                    .line(format!("dice {roll}"))
                    .field("dice", json!(dice))
                    .field("bonus", bonus)
                    .field("total", total)
                    .field("target", roll.target)
                    .field("outcome", snake(&roll.outcome.to_string()))
            }
            Attempt::Fluke(f) => roll_fluke(cmd, f, ctx)?,
        };
        Report::Roll(
            r.field("skill", rating_key(a.skill))
                .field("task", level_key(a.task))
                .field("important", a.important)
                .field("attempt", kind),
        )
    };
    Ok(report)
}

const AUTO_NOTE: &str =
    "no roll: the skill is above the task and the outcome is routine; --important rolls anyway";

/// Rolls a fluke showing every face.
fn roll_fluke(cmd: &str, fluke: &Fluke, ctx: &Ctx) -> Result<RollReport, CliError> {
    let seed = ctx.seed();
    let record = fluke.roll_record(&mut seed.rng());
    let (roll, _) = fluke.resolve(&faces_u8(&record))?;
    Ok(RollReport::new(cmd, seed)
        .line(format!("no rating: {fluke}"))
        .line(format!("dice {} → {roll}", streak_text(&record)))
        .field("dice", json!(faces_u8(&record)))
        .field("score", roll.score)
        .field("target", roll.target)
        .field("capped", roll.capped)
        .field("outcome", snake(&roll.outcome.to_string())))
}

/// The odds of a challenge outcome, with P(success with or without consequences).
fn outcome_odds(cmd: &str, title: String, dist: &dice_core::Dist<ChallengeOutcome>) -> OddsReport {
    let p_success = dist.probability_where(|o| o.succeeded());
    OddsReport::new(cmd, title)
        .named(dist, |o, p| Row::new(label_of(o), p))
        .summary(
            "p_success",
            "success, with or without consequences",
            p_success,
        )
}

fn damage(a: DamageArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "shapers-and-bots damage";
    let class = WeaponClass::from(a.weapon);
    let dmg = match Damage::new(class, a.armored, rules) {
        Err(Error::MissingDamageRule { .. }) => {
            return Err(CliError::bad_input(format!(
                "the rulebook gives no damage for a {class} against an armored target; the project leaves it to the table"
            )));
        }
        other => other?,
    };
    let target = if a.armored { "armored" } else { "unarmored" };
    let title = format!("{class} against an {target} target: {}", dmg.rule());
    let weapon = match a.weapon {
        Weapon::Punch => "punch",
        Weapon::Small => "small",
        Weapon::Large => "large",
        Weapon::ReallyPowerful => "really_powerful",
    };
    if a.odds.wanted() {
        let law = a.odds.law(&dmg, ctx)?;
        let o = law.decorate(OddsReport::new(cmd, title).numeric(&law.dist));
        return Ok(Report::Odds(
            o.field("weapon", weapon).field("armored", a.armored),
        ));
    }
    let seed = ctx.seed();
    let record = dmg.roll_record(&mut seed.rng());
    let faces = faces_u8(&record);
    let (roll, _) = dmg.resolve(&faces)?;
    let dice_line = if faces.is_empty() {
        format!("no dice → {roll}")
    } else {
        format!("dice {} → {roll}", streak_text(&record))
    };
    Ok(Report::Roll(
        RollReport::new(cmd, seed)
            .line(title)
            .line(dice_line)
            .field("weapon", weapon)
            .field("armored", a.armored)
            .field("dice", json!(faces))
            .field("points", roll.points)
            .field("streak", roll.streak)
            .field("capped", roll.capped),
    ))
}
