//! `dice robots-and-rapiers`: the Test and the Saving Throw of *Robots & Rapiers* (crate
//! dice-robots-and-rapiers), under the project's rulings (`Rules::default()`) unless `--rule` changes one.

use dice_robots_and_rapiers::creation::{DesignPointsRoll, RandomDesignPoints};
use dice_robots_and_rapiers::{
    AttributeLoss, Duel, Opposition, Rules, SaveOutcome, SavingThrow, Scene, Test, TestResult,
    Victory, is_success,
};
use dice_robots_and_rapiers::{
    BaseActionPoints, DamageKind, DurabilitySave, InspirationRoll, MalfunctionTable, Program,
};
use serde_json::{Value, json};

use super::OddsFlag;
use crate::Ctx;
use crate::error::CliError;
use crate::render::{label_of, snake};
use crate::report::{OddsReport, Report, RollReport, Row};

/// `dice robots-and-rapiers`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Robots & Rapiers: Tests (d10 pools at or under a TN) and Saving Throws (3d10)",
    long_about = "Robots & Rapiers: Tests and Saving Throws.\n\n\
A Test rolls a pool of d10s (Program + linked Core) against a Target Number, an attribute: \
each die at or under the TN is a success. An opposing roll's successes \
and a Difficulty cancel successes one for one; the net successes are what the \
robot spends, and at least 1 accomplishes the action.\n\n\
A Saving Throw is always 3d10 against a TN: three successes are a Total Success (no \
effect), one or two a Partial Failure (2 attribute points lost per failed die), none a Total \
Failure (the full effect, 6 points lost).\n\n\
Rolls by default; --odds gives the exact odds. Rulings are the project's \
(dice-robots-and-rapiers Rules::default()); --rule KEY=VALUE changes one (an unknown KEY lists them all).",
    after_help = "Examples:\n  dice robots-and-rapiers test --dice 8 --tn 4 --difficulty 1\n  dice robots-and-rapiers test --dice 8 --tn 6 --opposing-dice 7 --opposing-tn 5 --odds\n  dice robots-and-rapiers save --tn 5\n  dice robots-and-rapiers save --tn 6 --modifier -3 --current 6 --odds"
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
    /// A Test: d10s at or under a TN, less opposing successes and the Difficulty.
    #[command(long_about = "A Test: --dice d10s against \
--tn; each die at or under the TN succeeds (a TN of 0 or below never succeeds, one of 10 \
or more always does). An opposing roll (--opposing-dice d10s against --opposing-tn) and the \
Difficulty (automatic opposing successes) cancel successes one for one; the opposing \
roll's own Difficulty (--opposing-difficulty, e.g. a parrying weapon's) cancels its \
successes first. Net 1 or more accomplishes the action; net 0 is a tie; below 0 the \
opposition wins. --exert spends 1 Power for +1 TN, once; at a TN of 0 or below \
it does nothing, the attribute being unusable.")]
    Test(TestArgs),
    /// A Saving Throw: 3d10 at or under a TN; the outcome and the attribute loss.
    #[command(long_about = "A Saving Throw: always 3d10 against a TN, \
the attribute increased or decreased by modifiers (--modifier, repeatable; --exert for +1, \
once, and nothing when the TN is 0 or below: Total Failure is certain there). \
3 successes: Total Success, no effect. 1 or 2: Partial Failure, 2 attribute points lost per \
failed die. 0: Total Failure, the full effect and 6 points lost. --current gives \
the value of the attribute that loses the points, to show what is left: at 0 or less the \
full effect applies and the attribute cannot be used.")]
    Save(SaveArgs),
    /// A whole duel from a scene file: played turn by turn, or its exact odds.
    #[command(
        long_about = "A whole duel between two robots, played turn by turn from a scene file \
(TOML, or JSON by extension) that gives each robot's name, Fencing and Core Physical levels, \
six Primary Attributes, senses, Self Awareness, Inspiration, Size, Power, weapon and armour.\n\n\
First the Turn Order is set by Perception, then Locomotion, then Inspiration, ties rolled off, \
and each robot rolls its Base Action Points (Processor + Self Awareness dice at TN 5). On its \
turn the robot at the top of the Turn Order attacks (Fencing vs. Articulation); the other may \
spend an Action Point to parry (Fencing vs. Locomotion), each weapon's Difficulty on its own \
roll. The first net success hits and the rest lower the target's Durability Save, with the \
weapon's Damage and the target's armour; each failed die gives malfunctions (or an EMP weapon's \
Durability loss) and a Total Failure shuts the robot down, which ends the duel. A parry's spare \
successes buy back Action Points. After each turn the winner of the roll may Pay for Turn to \
act again.\n\n\
By default a robot parries whenever it has an Action Point, and pays for the next turn when it \
won the roll and has 2 or more Action Points. The duel keeps the Durability points malfunctions \
cost, not their other effects. Plays with --seed; --odds gives the exact chance of each robot \
winning; --monte-carlo estimates it by playing many duels.",
        after_help = "Examples:\n  dice robots-and-rapiers fight crates/robots-and-rapiers/scenes/juliard-vs-del-trevaine.toml --seed 1\n  dice robots-and-rapiers fight crates/robots-and-rapiers/scenes/juliard-vs-del-trevaine.toml --odds\n  dice robots-and-rapiers fight crates/robots-and-rapiers/scenes/juliard-vs-del-trevaine.toml --monte-carlo --trials 20000"
    )]
    Fight(super::fight::FightArgs),
    /// A Durability Save against damage: 3d10, malfunctions per failed die, shutdown.
    #[command(
        long_about = "A Durability Save against damage: 3d10 at or under the TN (the \
Durability, after attack successes, weapon Damage and armour). Three successes: no damage. \
Each failed die of a Partial Failure owes rolls on the Malfunction Table (--per-failed-die, 2 \
normally; a fist or small club 1, a great sword 3), or with --emp a temporary Durability loss \
per failed die. A Total Failure shuts the robot down, with the malfunctions of all three dice. \
--durability gives the robot's current Durability when it is not the TN (an EMP loss to 0 \
shuts it down).",
        after_help = "Examples:\n  dice robots-and-rapiers durability --tn 5 --odds\n  dice robots-and-rapiers durability --tn 2 --durability 6 --emp 1 --odds"
    )]
    Durability(DurabilityArgs),
    /// One roll on the Malfunction Table (a d10, and the sub-tables as needed).
    #[command(
        long_about = "One roll on the Malfunction Table: a d10 for the attribute, sub-system \
or External Slot damaged, with a second d10 on the sub-system table and a third on the energy \
table when the first rolls call for them.",
        after_help = "Examples:\n  dice robots-and-rapiers malfunction --odds\n  dice robots-and-rapiers malfunction --seed 4"
    )]
    Malfunction(PlainArgs),
    /// Base Action Points: 1 + the successes of Processor + Self Awareness dice.
    #[command(
        long_about = "Base Action Points for a conflict: 1 plus the successes of --dice d10s \
(Processor + Self Awareness, or Processor alone for a robot that is not Sparked) at or under \
--tn (5 when the sides are even; the side-size table otherwise), less the Action Points a \
surprised robot loses.",
        after_help = "Examples:\n  dice robots-and-rapiers action-points --dice 5 --tn 5 --odds\n  dice robots-and-rapiers action-points --dice 4 --tn 6 --surprise-loss 1"
    )]
    ActionPoints(ActionPointsArgs),
    /// An Inspiration Roll: ½ Self Awareness dice against TN = points × 2 (× 3 for art).
    #[command(
        long_about = "An Inspiration Roll (Sparked robots only): half the Self Awareness score \
in d10s, rounded down, against a TN of the Inspiration points spent × 2 (× 3 for Artistry and \
Compose), at most the program's Maximum Inspiration. The outcome is the successes.",
        after_help = "Examples:\n  dice robots-and-rapiers inspiration --self-awareness 6 --points 2 --program Mechanics --odds\n  dice robots-and-rapiers inspiration --self-awareness 2 --points 3 --program Compose"
    )]
    Inspiration(InspirationArgs),
    /// Design Points: (design dice + Anthropoid Class) d10, keep the design dice highest.
    #[command(
        long_about = "Design Points for a new robot: design dice (the Size) plus the \
Anthropoid Class in d10s, keeping the highest design dice, summed. With --random, the random \
method's whole roll: Body Type, Vocalization, gender and Size rolled on their tables first.",
        after_help = "Examples:\n  dice robots-and-rapiers design-points --design-dice 6 --anthropoid-class 5 --odds\n  dice robots-and-rapiers design-points --random --odds"
    )]
    DesignPoints(DesignPointsArgs),
    /// Turn order: robots ranked by Perception, Locomotion, Inspiration; ties rolled off.
    #[command(
        name = "turn-order",
        long_about = "The initial turn order of an extended conflict: \
robots ranked by Perception, then Locomotion, then current Inspiration (social conflicts: \
Processor, Perception, Inspiration); robots tied on all three roll the tie die (a d10 in \
combat, the rules' die in a social conflict), re-rolling while still tied. Give each \
robot as --robot [NAME=]PERCEPTION:LOCOMOTION:INSPIRATION (social: \
PROCESSOR:PERCEPTION:INSPIRATION), top rank first or in any order. --odds gives the chance of \
every order: the roll-offs favour no one, so each order of a tied group is equally likely.",
        after_help = "Examples:\n  dice robots-and-rapiers turn-order --robot Alfredo=8:7:5 --robot Charles=6:4:3 --robot Devon=6:6:3 --robot Burgiss=8:5:7\n  dice robots-and-rapiers turn-order --robot A=5:4:1 --robot B=5:4:1 --robot C=6:2:0 --odds"
    )]
    TurnOrder(TurnOrderArgs),
}

/// `turn-order`.
#[derive(Debug, clap::Args)]
pub struct TurnOrderArgs {
    /// A robot: [NAME=]PERCEPTION:LOCOMOTION:INSPIRATION (social:
    /// PROCESSOR:PERCEPTION:INSPIRATION). Repeat for each robot.
    #[arg(long = "robot", value_name = "[NAME=]P:L:I", value_parser = robot_ranking, required = true)]
    pub robots: Vec<(Option<String>, dice_robots_and_rapiers::Ranking)>,
    /// A social conflict: rankings by Processor, Perception, Inspiration, ties on the
    /// rules' social tie die.
    #[arg(long)]
    pub social: bool,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `[NAME=]P:L:I` → the name and the ranking.
fn robot_ranking(s: &str) -> Result<(Option<String>, dice_robots_and_rapiers::Ranking), String> {
    let (name, numbers) = match s.split_once('=') {
        Some((n, rest)) => (Some(n.trim().to_owned()), rest),
        None => (None, s),
    };
    let parts: Vec<&str> = numbers.split(':').map(str::trim).collect();
    let bad = || {
        format!(
            "expected [NAME=]PERCEPTION:LOCOMOTION:INSPIRATION such as Alfredo=8:7:5, not `{s}`"
        )
    };
    let [p, l, i] = parts.as_slice() else {
        return Err(bad());
    };
    let p: i32 = p.parse().map_err(|_| bad())?;
    let l: i32 = l.parse().map_err(|_| bad())?;
    let i: u32 = i.parse().map_err(|_| bad())?;
    Ok((name, dice_robots_and_rapiers::Ranking::new(p, l, i)))
}

/// A turn order as the outcome of a roll: participant indices, top first.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Order(pub Vec<usize>);

impl std::fmt::Display for Order {
    /// Participants numbered from 1: `1, 4, 3, 2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let numbers: Vec<String> = self.0.iter().map(|i| (i + 1).to_string()).collect();
        f.write_str(&numbers.join(", "))
    }
}

/// The initial turn order of a conflict as a mechanic: rolled with the crate's
/// [`TurnOrder::roll_initial`](dice_robots_and_rapiers::TurnOrder::roll_initial), and its
/// exact law by dice-core's [`fair_roll_off_orders`](dice_core::fair_roll_off_orders) (the
/// tie die is the same for every robot, so each order of a tied group is equally likely).
pub struct InitialOrder {
    rankings: Vec<dice_robots_and_rapiers::Ranking>,
    kind: dice_robots_and_rapiers::ConflictKind,
    rules: Rules,
}

impl dice_core::Roll for InitialOrder {
    type Outcome = Order;
    fn roll<R: dice_core::Rng + ?Sized>(&self, rng: &mut R) -> Order {
        match dice_robots_and_rapiers::TurnOrder::roll_initial(
            &self.rankings,
            self.kind,
            &self.rules,
            rng,
        ) {
            Ok(order) => Order(order.as_slice().to_vec()),
            // Only robots still tied after 65 rounds of roll-offs (below 10⁻⁶⁰), the count
            // having been checked when the mechanic was made: the ranking order.
            Err(_) => {
                let mut idx: Vec<usize> = (0..self.rankings.len()).collect();
                idx.sort_by(|&a, &b| self.rankings[b].compare(&self.rankings[a]));
                Order(idx)
            }
        }
    }
}

impl dice_core::Exact for InitialOrder {
    fn distribution(&self) -> Result<dice_core::Dist<Order>, dice_core::Error> {
        let r = &self.rankings;
        Ok(
            dice_core::fair_roll_off_orders(r.len(), |a, b| r[a].compare(&r[b]))?
                .map(|o| Order(o.clone())),
        )
    }
}

/// `dice robots-and-rapiers turn-order`.
fn turn_order(a: &TurnOrderArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    use dice_robots_and_rapiers::{ConflictKind, MAX_PARTICIPANTS};
    let cmd = "robots-and-rapiers turn-order";
    if a.robots.len() > MAX_PARTICIPANTS {
        return Err(CliError::bad_input(format_args!(
            "at most {MAX_PARTICIPANTS} robots take part in a conflict"
        )));
    }
    let kind = if a.social {
        ConflictKind::Social
    } else {
        ConflictKind::Combat
    };
    let names: Vec<String> = a
        .robots
        .iter()
        .enumerate()
        .map(|(i, (n, _))| n.clone().unwrap_or_else(|| format!("robot {}", i + 1)))
        .collect();
    let mechanic = InitialOrder {
        rankings: a.robots.iter().map(|(_, r)| *r).collect(),
        kind,
        rules: *rules,
    };
    let order_text = |o: &Order| {
        o.0.iter()
            .map(|&i| names[i].as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (first, second) = if a.social {
        ("Processor", "Perception")
    } else {
        ("Perception", "Locomotion")
    };
    let listed: Vec<String> = a
        .robots
        .iter()
        .zip(&names)
        .map(|((_, r), n)| format!("{n} {}:{}:{}", r.primary, r.secondary, r.inspiration))
        .collect();
    let title = format!(
        "{} turn order by {first}:{second}:Inspiration, ties on a d{}: {}",
        if a.social { "social" } else { "combat" },
        kind.tie_die_sides(rules),
        listed.join(", ")
    );
    let robots: Vec<Value> = a
        .robots
        .iter()
        .zip(&names)
        .map(|((_, r), n)| {
            json!({"name": n, "primary": r.primary, "secondary": r.secondary, "inspiration": r.inspiration})
        })
        .collect();
    if a.odds.wanted() {
        let law = a.odds.law(&mechanic, ctx)?;
        let dist = &law.dist;
        let mut o = law.decorate(OddsReport::new(cmd, title).named(dist, |o, p| {
            let text = order_text(o);
            Row::new(crate::report::Label::named(&snake(&text), text), p).with(
                "order",
                json!(o.0.iter().map(|&i| names[i].clone()).collect::<Vec<_>>()),
            )
        }));
        for (i, n) in names.iter().enumerate() {
            let p = dist.probability_where(|o| o.0.first() == Some(&i));
            if i == 0 {
                o = o.summary("p_first", format!("{n} takes the first turn"), p);
            } else if p > 0.0 {
                o = o.footnote(format!("P({n} takes the first turn) = {:.4}%", p * 100.0));
            }
        }
        return Ok(Report::Odds(
            o.field("robots", Value::Array(robots))
                .field("social", a.social),
        ));
    }
    let seed = ctx.seed();
    let order = dice_core::Roll::roll(&mechanic, &mut seed.rng());
    Ok(Report::Roll(
        RollReport::new(cmd, seed)
            .line(title)
            .line(format!("→ {}", order_text(&order)))
            .field(
                "order",
                json!(
                    order
                        .0
                        .iter()
                        .map(|&i| names[i].clone())
                        .collect::<Vec<_>>()
                ),
            )
            .field("robots", Value::Array(robots))
            .field("social", a.social),
    ))
}

/// A roll with no options of its own.
#[derive(Debug, clap::Args)]
pub struct PlainArgs {
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `durability`.
#[derive(Debug, clap::Args)]
pub struct DurabilityArgs {
    /// The save's TN: the Durability after attack successes, weapon Damage and armour.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub tn: i32,
    /// The robot's current Durability, when not the TN.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub durability: Option<i32>,
    /// Malfunction rolls per failed die (2 normally; fist, small club 1; great sword 3).
    #[arg(long, value_name = "N", default_value_t = 2, conflicts_with = "emp")]
    pub per_failed_die: u8,
    /// An EMP weapon (firearms, grenades, pikes): this Durability lost per failed die instead.
    #[arg(long, value_name = "N")]
    pub emp: Option<u8>,
    /// Spend 1 Power for +1 TN (Exertion).
    #[arg(long)]
    pub exert: bool,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `action-points`.
#[derive(Debug, clap::Args)]
pub struct ActionPointsArgs {
    /// Processor + Self Awareness (Processor alone if not Sparked).
    #[arg(long, value_name = "N")]
    pub dice: u32,
    /// The TN: 5 for even sides.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 5,
        allow_negative_numbers = true
    )]
    pub tn: i32,
    /// Action Points lost to surprise.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub surprise_loss: u32,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `inspiration`.
#[derive(Debug, clap::Args)]
pub struct InspirationArgs {
    /// The Self Awareness score (0: not Sparked, no Inspiration).
    #[arg(long, value_name = "N")]
    pub self_awareness: u8,
    /// Inspiration points spent.
    #[arg(long, value_name = "N")]
    pub points: u8,
    /// The program inspired (its rulebook name: Mechanics, Compose, …).
    #[arg(long, value_name = "PROGRAM", value_parser = program)]
    pub program: Program,
    #[command(flatten)]
    pub odds: OddsFlag,
}

fn program(s: &str) -> Result<Program, String> {
    s.parse::<Program>().map_err(|e| e.to_string())
}

/// `design-points`.
#[derive(Debug, clap::Args)]
pub struct DesignPointsArgs {
    /// Design dice (the robot's Size): how many dice are kept.
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "random",
        conflicts_with = "random"
    )]
    pub design_dice: Option<u32>,
    /// The Anthropoid Class: extra dice rolled (0–10).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub anthropoid_class: u32,
    /// The random method: the tables rolled first, then the Design Points.
    #[arg(long)]
    pub random: bool,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `test`.
#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// The pool: Program level + linked Core level, plus bonus dice.
    #[arg(long, value_name = "N")]
    pub dice: u32,
    /// The Target Number: the attribute tested (each die at or under it succeeds).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub tn: i32,
    /// The Difficulty: automatic opposing successes.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub difficulty: u32,
    /// The opposing roll's dice (needs --opposing-tn).
    #[arg(long, value_name = "N", requires = "opposing_tn")]
    pub opposing_dice: Option<u32>,
    /// The opposing roll's TN (needs --opposing-dice).
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        requires = "opposing_dice"
    )]
    pub opposing_tn: Option<i32>,
    /// The opposing roll's own Difficulty, e.g. its parrying weapon's: cancels its
    /// successes first (needs --opposing-dice).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        requires = "opposing_dice"
    )]
    pub opposing_difficulty: u32,
    /// Spend 1 Power for +1 TN (Exertion); nothing at a TN of 0 or below.
    #[arg(long)]
    pub exert: bool,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `save`.
#[derive(Debug, clap::Args)]
pub struct SaveArgs {
    /// The Target Number: the attribute saved against, before modifiers.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub tn: i32,
    /// A TN modifier (repeatable): successes spent against the save, armour, weapon Damage,
    /// the GM's adjustments.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub modifier: Vec<i32>,
    /// Spend 1 Power for +1 TN (Exertion); nothing at a TN of 0 or below.
    #[arg(long)]
    pub exert: bool,
    /// The current value of the attribute that loses the points: shows its value after the
    /// loss and whether the full effect applies.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub current: Option<i32>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// Runs a Robots & Rapiers roll.
pub fn run(args: Args, ctx: &Ctx) -> Result<Report, CliError> {
    let rules: Rules = args.rules.apply()?;
    match args.roll {
        RollKind::Test(a) => test(a, ctx),
        RollKind::Save(a) => save(a, &rules, ctx),
        RollKind::Durability(a) => durability(&a, &rules, ctx),
        RollKind::Malfunction(a) => super::named_mechanic(
            "robots-and-rapiers malfunction",
            "the Malfunction Table".to_owned(),
            &MalfunctionTable,
            &a.odds,
            ctx,
            Vec::new(),
            |o, _| o,
        ),
        RollKind::ActionPoints(a) => {
            let mut bap = BaseActionPoints::new(a.dice, a.tn, &rules)?;
            if a.surprise_loss > 0 {
                bap = bap.surprised(a.surprise_loss);
            }
            let title = format!(
                "Base Action Points: 1 + successes of {}d10 at TN {}{}",
                a.dice,
                a.tn,
                if a.surprise_loss > 0 {
                    format!(", −{} for surprise", a.surprise_loss)
                } else {
                    String::new()
                }
            );
            let fields = vec![
                ("dice", json!(a.dice)),
                ("tn", json!(a.tn)),
                ("surprise_loss", json!(a.surprise_loss)),
            ];
            super::numeric_mechanic(
                "robots-and-rapiers action-points",
                title,
                &bap,
                &a.odds,
                ctx,
                fields,
                |o, _| o,
            )
        }
        RollKind::Inspiration(a) => {
            let r = InspirationRoll::for_program(a.self_awareness, a.points, a.program)?;
            let title = format!(
                "Inspiration Roll for {}: {}d10 at TN {}: successes",
                a.program.name(),
                r.test().dice(),
                r.test().tn()
            );
            let fields = vec![
                ("self_awareness", json!(a.self_awareness)),
                ("points", json!(a.points)),
                ("program", json!(a.program.name())),
            ];
            super::numeric_mechanic(
                "robots-and-rapiers inspiration",
                title,
                &r,
                &a.odds,
                ctx,
                fields,
                |o, d| {
                    o.summary(
                        "p_success",
                        "at least one success",
                        d.probability_where(|&s| s > 0),
                    )
                },
            )
        }
        RollKind::DesignPoints(a) => {
            let cmd = "robots-and-rapiers design-points";
            match a.design_dice {
                Some(n) if !a.random => {
                    let r = DesignPointsRoll::new(n, a.anthropoid_class)
                        .map_err(|e| CliError::bad_input(e.to_string()))?;
                    let fields = vec![
                        ("design_dice", json!(n)),
                        ("anthropoid_class", json!(a.anthropoid_class)),
                    ];
                    super::numeric_mechanic(
                        cmd,
                        format!("Design Points: {r}"),
                        &r,
                        &a.odds,
                        ctx,
                        fields,
                        |o, _| o,
                    )
                }
                _ => super::numeric_mechanic(
                    cmd,
                    "Design Points by the random method (tables, then the roll)".to_owned(),
                    &RandomDesignPoints,
                    &a.odds,
                    ctx,
                    vec![("random", json!(true))],
                    |o, _| o,
                ),
            }
        }
        RollKind::Fight(a) => fight(&a, rules, ctx),
        RollKind::TurnOrder(a) => turn_order(&a, &rules, ctx),
    }
}

/// `fight`: a duel played, or its exact or estimated odds.
fn fight(a: &super::fight::FightArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let scene: Scene = super::fight::load_scene(&a.scene)?;
    let duel = Duel::from_scene(&scene, rules)?;
    let title = duel.title().to_owned();
    let names = duel.clone();
    let winners = duel.clone();
    super::fight::run(
        "robots-and-rapiers fight",
        &title,
        duel,
        a,
        ctx,
        |s| names.describe(s),
        |v: &Victory| {
            let f = &winners.fighters()[usize::from(v.0).min(1)];
            format!("{} wins", f.name)
        },
    )
}

/// Faces with the successes marked `*`: `[3*, 9, 1*]`.
fn faces_text(faces: &[u8], tn: i32) -> String {
    let v: Vec<String> = faces
        .iter()
        .map(|&f| {
            if is_success(f, tn) {
                format!("{f}*")
            } else {
                f.to_string()
            }
        })
        .collect();
    format!("[{}]", v.join(", "))
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "success" } else { "successes" }
}

fn result_key(r: TestResult) -> &'static str {
    match r {
        TestResult::Won(_) => "won",
        TestResult::Tie => "tie",
        TestResult::Lost(_) => "lost",
    }
}

fn test(a: TestArgs, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "robots-and-rapiers test";
    let mut t = Test::new(a.dice, a.tn)?.with_difficulty(a.difficulty)?;
    if let (Some(d), Some(tn)) = (a.opposing_dice, a.opposing_tn) {
        t = t.opposed_by(Opposition::new(d, tn)?.with_difficulty(a.opposing_difficulty)?);
    }
    if a.exert {
        t = t.exerted();
    }
    let title = t.to_string();
    let opposing = match (a.opposing_dice, a.opposing_tn) {
        (Some(d), Some(tn)) => {
            json!({ "dice": d, "tn": tn, "difficulty": a.opposing_difficulty })
        }
        _ => Value::Null,
    };
    let fill = |o: &mut serde_json::Map<String, Value>| {
        o.insert("dice".into(), json!(a.dice));
        o.insert("tn".into(), json!(t.tn()));
        o.insert("exerted".into(), json!(t.is_exerted()));
        o.insert("difficulty".into(), json!(a.difficulty));
        o.insert("opposing".into(), opposing.clone());
    };
    if a.odds.wanted() {
        let run = a.odds.law(&t, ctx)?;
        let law = &run.dist;
        let mut o = run
            .decorate(OddsReport::new(cmd, &title).numeric(law))
            .note(
                "outcome: net successes (yours − opposing left after its Difficulty − Difficulty)",
            )
            .summary(
                "p_accomplished",
                "accomplished, net 1 or more",
                law.probability_where(|&n| n >= 1),
            );
        if t.opposition().is_some() {
            o = o.summary("p_tie", "tie, net 0", law.probability(&0));
        }
        o = o.field("expected_successes", t.expected_successes());
        fill(&mut o.fields);
        return Ok(Report::Odds(o));
    }
    let seed = ctx.seed();
    let roll = t.roll_test(&mut seed.rng());
    let result = roll.result();
    let mut r = RollReport::new(cmd, seed).line(title).line(format!(
        "dice {} vs TN {}: {} {}",
        faces_text(&roll.faces, roll.tn),
        roll.tn,
        roll.successes,
        plural(roll.successes)
    ));
    if let Some(op) = &roll.opposing {
        r = r.line(format!(
            "opposing {} vs TN {}: {} {}",
            faces_text(&op.faces, op.tn),
            op.tn,
            op.successes,
            plural(op.successes)
        ));
    }
    let difficulty = if roll.difficulty > 0 {
        format!(" − Difficulty {}", roll.difficulty)
    } else {
        String::new()
    };
    let theirs = roll.opposing.as_ref().map_or(String::new(), |o| {
        if o.difficulty > 0 {
            format!(
                " − ({} − Difficulty {} = {})",
                o.successes,
                o.difficulty,
                o.left()
            )
        } else {
            format!(" − {}", o.successes)
        }
    });
    // Unopposed, a net of 0 or less is simply a failure (there is no one to tie with).
    let verdict = if roll.opposing.is_none() && !result.accomplished() {
        "not accomplished".to_owned()
    } else {
        result.to_string()
    };
    r = r.line(format!(
        "net {}{theirs}{difficulty} = {}: {verdict}",
        roll.successes, roll.net
    ));
    let mut r = r
        .field("faces", json!(roll.faces))
        .field("successes", roll.successes)
        .field(
            "opposing_roll",
            roll.opposing.as_ref().map_or(
                Value::Null,
                |o| json!({ "faces": o.faces, "tn": o.tn, "successes": o.successes, "difficulty": o.difficulty, "left": o.left() }),
            ),
        )
        .field("net", roll.net)
        .field("accomplished", result.accomplished())
        .field("outcome", result_key(result));
    fill(&mut r.fields);
    Ok(Report::Roll(r))
}

fn save(a: SaveArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "robots-and-rapiers save";
    let mut s = SavingThrow::against(a.tn, &a.modifier)?;
    if a.exert {
        s = s.exerted()?;
    }
    // Exertion does nothing at a TN of 0 or below: report what the save did.
    let exerted = s.is_exerted();
    let mut title = s.to_string();
    if !a.modifier.is_empty() || exerted {
        let mods: String = a
            .modifier
            .iter()
            .chain(exerted.then_some(&1))
            .map(|m| format!(" {m:+}"))
            .collect();
        title.push_str(&format!(" ({}{mods})", a.tn));
    }
    let fill = |o: &mut serde_json::Map<String, Value>| {
        o.insert("attribute".into(), json!(a.tn));
        o.insert("modifiers".into(), json!(a.modifier));
        o.insert("exerted".into(), json!(exerted));
        o.insert("tn".into(), json!(s.tn()));
        o.insert("current".into(), json!(a.current));
    };
    if a.odds.wanted() {
        let run = a.odds.law(&s, ctx)?;
        let law = &run.dist;
        let mut o = OddsReport::new(cmd, &title)
            .named(law, |o, p| {
                let mut row = Row::new(label_of(o), p)
                    .with("successes", o.successes())
                    .with("failed_dice", o.failed_dice())
                    .with("attribute_loss", o.attribute_loss(rules));
                if let Some(c) = a.current {
                    let l = AttributeLoss::apply(c, *o, rules);
                    row = row
                        .with("value_after", l.value)
                        .with("full_effect", l.full_effect);
                }
                row
            })
            .summary(
                "p_total_success",
                "Total Success",
                law.probability(&SaveOutcome::TotalSuccess),
            )
            .summary(
                "p_total_failure",
                "Total Failure",
                law.probability(&SaveOutcome::TotalFailure),
            );
        let expected = s.expected_loss(rules)?;
        o = run
            .decorate(o)
            .footnote(format!("expected attribute loss {expected:.4}"))
            .field("expected_loss", expected);
        if let Some(c) = a.current {
            let p_full =
                law.probability_where(|&out| AttributeLoss::apply(c, out, rules).full_effect);
            o = o.summary(
                "p_full_effect",
                format!("full effect, the attribute at {c}"),
                p_full,
            );
        }
        fill(&mut o.fields);
        return Ok(Report::Odds(o));
    }
    let seed = ctx.seed();
    let roll = s.roll_save(&mut seed.rng());
    let loss = roll.outcome.attribute_loss(rules);
    let mut r = RollReport::new(cmd, seed).line(title).line(format!(
        "dice {} vs TN {}: {}, attribute loss {loss}",
        faces_text(&roll.faces, roll.tn),
        roll.tn,
        roll.outcome
    ));
    let mut attribute = Value::Null;
    if let Some(c) = a.current {
        let l = AttributeLoss::apply(c, roll.outcome, rules);
        let usable = if l.usable() {
            ""
        } else {
            ", unusable until restored to 1"
        };
        r = r.line(format!("attribute {c} {l}{usable}"));
        attribute = json!({
            "before": c,
            "value": l.value,
            "full_effect": l.full_effect,
            "usable": l.usable(),
        });
    }
    let mut r = r
        .field("faces", json!(roll.faces))
        .field("successes", roll.outcome.successes())
        .field("failed_dice", roll.outcome.failed_dice())
        .field("outcome", snake(&roll.outcome.to_string()))
        .field("attribute_loss", loss)
        .field("attribute_after", attribute);
    fill(&mut r.fields);
    Ok(Report::Roll(r))
}

fn durability(a: &DurabilityArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let kind = match a.emp {
        Some(loss) => DamageKind::Emp {
            loss_per_failed_die: loss,
        },
        None => DamageKind::Malfunctions {
            per_failed_die: a.per_failed_die,
        },
    };
    let mut save = DurabilitySave::new(a.tn, kind, rules)?;
    if let Some(d) = a.durability {
        save = save.with_durability(d);
    }
    if a.exert {
        save = save.exerted()?;
    }
    let fields = vec![
        ("tn", json!(a.tn)),
        ("durability", json!(save.durability())),
        ("per_failed_die", json!(a.per_failed_die)),
        ("emp", json!(a.emp)),
        ("exert", json!(a.exert)),
    ];
    super::named_mechanic(
        "robots-and-rapiers durability",
        save.to_string(),
        &save,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_shutdown",
                "shut down",
                d.probability_where(|x| x.shutdown),
            )
        },
    )
}
