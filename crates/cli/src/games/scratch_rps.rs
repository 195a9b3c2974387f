//! `dice scratch-rps`: the d20 roll and the attack of *Scratch RPS* (crate dice-scratch-rps),
//! under the project's rulings (`Rules::default()`) unless `--rule` changes one.

use dice_core::{Dist, Exact, Rng, Roll};
use dice_scratch_rps::attack::BLASTING_TARGETS;
use dice_scratch_rps::roll::D20;
use dice_scratch_rps::support::{HURRY_DIFFICULTY, vehicle_roll};
use dice_scratch_rps::{
    Ability, Attack, AttackKind, AttackResult, Attacks, Character, D20Roll, FightEnd, Health,
    HurryRoll, Outcome, Party, Rules, Scene, Vehicle,
};
use serde_json::{Value, json};

use super::OddsFlag;
use crate::Ctx;
use crate::error::CliError;
use crate::render::{label_of, snake};
use crate::report::{Label, OddsReport, Report, RollReport, Row};

/// `dice scratch-rps`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Scratch RPS: the d20 roll (d20 + ability level vs difficulty, natural 20 always succeeds) and attacks",
    long_about = "Scratch RPS: every roll is a d20 plus an ability level (none for a non-ability \
roll) against a difficulty; a total at least the difficulty succeeds, and a natural 20 is an \
automatic success whatever the total (+1 damage on a damaging attack; shooting's natural 20 \
does 5). An attack's difficulty is the target's defense.\n\n\
Rolls by default; --odds gives the exact odds. Rulings are the project's (dice-scratch-rps \
Rules::default()); --rule KEY=VALUE changes one (an unknown KEY lists them all).",
    after_help = "Examples:\n  dice scratch-rps roll --level 3 --difficulty 15\n  dice scratch-rps roll --difficulty 11 --odds\n  dice scratch-rps attack --kind shooting --ability shooting --level 2 --defense 13 --odds"
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
    /// The d20 roll: d20 + ability level (+ modifier) against a difficulty.
    #[command(
        long_about = "The d20 roll: d20 + the ability level + modifiers against the \
difficulty; at least the difficulty succeeds, a natural 20 always succeeds. Without --level it \
is a non-ability roll (the die alone). An ability roll with --level 0 is not rolled: without the \
ability the action fails."
    )]
    Roll(RollArgs),
    /// An attack: the d20 roll against the target's defense, and its damage.
    #[command(
        long_about = "An attack: the d20 roll with the ability the attack allows \
(basic attack: none, fighting or wrestling; hold: none or wrestling; throw object: none; \
catch: none or a movement ability; shooting, blasting, knockout: their own ability) against \
the target's defense. Damage on a hit: basic attack 1, throw object 1, shooting 2, blasting 1, \
knockout 4 (2 when the attacker is injured), hold and catch none; a natural 20 adds 1 (shooting: \
5 in all)."
    )]
    Attack(AttackArgs),
    /// An action of several attacks: fighting's two basic attacks, wrestling's basic attack
    /// and hold, blasting's separate targets.
    #[command(
        long_about = "An action that makes several attacks, each its own d20 roll: \
fighting (a healthy attacker makes two basic attacks, his fighting level added to each), \
wrestling (a healthy attacker makes a basic attack and a hold, his wrestling level added to \
both), blasting (one long-range attack at each of up to three separate targets, 1 damage \
each; an injured blaster delays himself). A natural 20 hits whatever the total and a \
damaging hit then does 1 more.\n\n\
--defense once sets every attack's difficulty; repeated, it sets them in order (fighting's \
first and second attack, wrestling's basic attack then hold, blasting's targets). Blasting \
attacks three targets unless --targets says fewer, or one per --defense given. \
Rolls by default; --odds gives the exact odds of every attack's result together, with the \
total damage; --monte-carlo estimates them; --total gives the law of the total damage \
alone, a number (mean, quantiles, P(at least N)).",
        after_help = "Examples:\n  dice scratch-rps action --kind fighting --level 4 --defense 13 --odds\n  dice scratch-rps action --kind wrestling --level 2 --defense 13 --seed 3\n  dice scratch-rps action --kind blasting --level 2 --defense 11 --defense 12 --defense 13 --odds"
    )]
    Action(ActionArgs),
    /// A whole fight from a scene file: play it, or its exact odds of who is left standing.
    #[command(
        long_about = "A whole fight from a scene file (TOML, or JSON by extension): the \
combatants' names, sides and stat blocks, and the environment. Initiative is rolled (d20 + 10 \
per level of stalking, ties roll off), then each round every combatant takes a turn in order, \
playing the default tactics: heal a fallen or injured ally, catch or hit an opponent about to \
escape, make the attack worth the most (engaging or taking cover when it pays), evade when \
that turns away more than an attack would deal, and, when injured, alone and outnumbered, \
evade and escape. The fight ends when one side is left standing.\n\n\
Plays the fight by default (--seed to repeat it); --odds gives the exact odds of each end; \
--monte-carlo estimates them by playing many fights. The rulebook's own combat example ships \
as crates/scratch-rps/scenes/combat-example.toml.",
        after_help = "Examples:\n  dice scratch-rps fight crates/scratch-rps/scenes/combat-example.toml --seed 1\n  dice scratch-rps fight crates/scratch-rps/scenes/combat-example.toml --odds\n  dice scratch-rps fight crates/scratch-rps/scenes/combat-example.toml --monte-carlo --trials 20000"
    )]
    Fight(super::fight::FightArgs),
    /// Initiative: d20 + the Stalking levels, or who of two acts first.
    #[command(
        long_about = "Initiative: a d20 plus 10 for each level of stalking; the highest acts \
first. With --against, the chance the first character (A) acts before the second (B), equal \
totals rolled off.",
        after_help = "Examples:\n  dice scratch-rps initiative --stalking 2 --odds\n  dice scratch-rps initiative --stalking 1 --against 0 --odds"
    )]
    Initiative(InitiativeArgs),
    /// Healing: a healing roll at difficulty 10 to revive or heal a character.
    #[command(
        long_about = "Healing: the healer rolls d20 + healing level against difficulty \
10. An incapacitated character (0 hit points) is revived to 1 hit point; an injured one \
(below half his toughness, rounded up) is healed to 1 more than half his toughness; a healthy \
character needs no healing. A healer without the healing ability cannot try.",
        after_help = "Examples:\n  dice scratch-rps heal --level 1 --hp 0 --toughness 4 --odds\n  dice scratch-rps heal --level 2 --hp 1 --toughness 6 --seed 3"
    )]
    Heal(HealArgs),
    /// Operating a vehicle: d20 + driving, navigation or piloting against a difficulty.
    #[command(
        long_about = "Operating a vehicle: driving operates a ground vehicle, navigation a \
water vehicle, piloting an air or space vehicle. The operator rolls d20 + his level in that \
ability (+ modifiers) against the difficulty the vehicle's situation sets; at least the \
difficulty succeeds, a natural 20 always succeeds. A character without the ability cannot \
operate the vehicle at all.",
        after_help = "Examples:\n  dice scratch-rps vehicle --vehicle air-or-space --level 1 --difficulty 15 --odds\n  dice scratch-rps vehicle --vehicle ground --level 2 --difficulty 12 --seed 4"
    )]
    Vehicle(VehicleArgs),
    /// A temporary bonus in a hurry: the craftsman's roll, usually at difficulty 10.
    #[command(
        long_about = "Craftsmanship in a hurry: for each level of craftsmanship a character may \
give a traveling companion a temporary +1 to an ability already at level 1 or more; to add \
one in a hurry he must make a success roll, usually at difficulty 10: d20 + his \
craftsmanship level (+ modifiers), a natural 20 always succeeding. If the roll fails he \
cannot use that temporary bonus until he is no longer in a hurry. No bonus is added or \
removed in combat. --rule hurry_roll=non_ability makes it a roll of the die alone.",
        after_help = "Examples:\n  dice scratch-rps hurry --level 2 --odds\n  dice scratch-rps hurry --level 1 --difficulty 12 --seed 3"
    )]
    Hurry(HurryArgs),
}

/// The vehicles, by the names the command takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VehicleKind {
    /// A ground vehicle: driving.
    Ground,
    /// A water vehicle: navigation.
    Water,
    /// An air or space vehicle: piloting.
    #[value(alias = "air", alias = "space")]
    AirOrSpace,
}

impl From<VehicleKind> for Vehicle {
    fn from(v: VehicleKind) -> Vehicle {
        match v {
            VehicleKind::Ground => Vehicle::Ground,
            VehicleKind::Water => Vehicle::Water,
            VehicleKind::AirOrSpace => Vehicle::AirOrSpace,
        }
    }
}

/// `vehicle`.
#[derive(Debug, clap::Args)]
pub struct VehicleArgs {
    /// The vehicle operated: ground (driving), water (navigation), air-or-space (piloting).
    #[arg(long, value_enum, value_name = "VEHICLE")]
    pub vehicle: VehicleKind,
    /// The operator's level in the vehicle's ability.
    #[arg(long, value_name = "N")]
    pub level: u32,
    /// The difficulty: the total needed.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub difficulty: i64,
    /// Situational modifiers added to the die.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub modifier: i64,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `hurry`.
#[derive(Debug, clap::Args)]
pub struct HurryArgs {
    /// The craftsman's level of craftsmanship.
    #[arg(long, value_name = "N")]
    pub level: u32,
    /// The difficulty: the total needed (usually 10).
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = HURRY_DIFFICULTY)]
    pub difficulty: i64,
    /// Situational modifiers added to the die.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub modifier: i64,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `heal`.
#[derive(Debug, clap::Args)]
pub struct HealArgs {
    /// The healer's level in healing.
    #[arg(long, value_name = "N")]
    pub level: u32,
    /// The patient's hit points now (0: incapacitated).
    #[arg(long, value_name = "N")]
    pub hp: u32,
    /// The patient's toughness: his maximum hit points.
    #[arg(long, value_name = "N")]
    pub toughness: u32,
    /// Situational modifiers added to the die.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub modifier: i64,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `initiative`.
#[derive(Debug, clap::Args)]
pub struct InitiativeArgs {
    /// The character's levels of stalking (+10 initiative each).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub stalking: u32,
    /// The other character's levels of stalking: who acts first.
    #[arg(long, value_name = "N")]
    pub against: Option<u32>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `roll`.
#[derive(Debug, clap::Args)]
pub struct RollArgs {
    /// The ability level added to the die; leave out for a non-ability roll.
    #[arg(long, value_name = "N")]
    pub level: Option<u32>,
    /// The difficulty: the total needed.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub difficulty: i64,
    /// Situational modifiers added to the die (engage +2, take cover −2 …).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub modifier: i64,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// The kinds of attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Close range, 1 damage.
    BasicAttack,
    /// Close range, no damage, delays the target.
    Hold,
    /// Long range, 1 damage.
    ThrowObject,
    /// Close range against an evading character.
    Catch,
    /// Long range, 2 damage.
    Shooting,
    /// Long range, 1 damage.
    Blasting,
    /// Close range, 4 damage (2 when injured); delays the attacker.
    Knockout,
}

impl From<Kind> for AttackKind {
    fn from(k: Kind) -> AttackKind {
        match k {
            Kind::BasicAttack => AttackKind::BasicAttack,
            Kind::Hold => AttackKind::Hold,
            Kind::ThrowObject => AttackKind::ThrowObject,
            Kind::Catch => AttackKind::Catch,
            Kind::Shooting => AttackKind::Shooting,
            Kind::Blasting => AttackKind::Blasting,
            Kind::Knockout => AttackKind::Knockout,
        }
    }
}

/// The actions that make several attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ActionKind {
    /// Two basic attacks with fighting, by a healthy attacker.
    Fighting,
    /// A basic attack and a hold with wrestling, by a healthy attacker.
    Wrestling,
    /// One blasting attack at each of up to three separate targets.
    Blasting,
}

impl ActionKind {
    /// The ability rolled with.
    fn ability(self) -> Ability {
        match self {
            ActionKind::Fighting => Ability::Fighting,
            ActionKind::Wrestling => Ability::Wrestling,
            ActionKind::Blasting => Ability::Blasting,
        }
    }
}

/// `action`.
#[derive(Debug, clap::Args)]
pub struct ActionArgs {
    /// The action: fighting, wrestling or blasting.
    #[arg(long, value_enum)]
    pub kind: ActionKind,
    /// The attacker's level in that ability (1 or more).
    #[arg(long, value_name = "N")]
    pub level: u32,
    /// The defense of the target: once for every attack, or repeated, one per attack in
    /// order.
    #[arg(long, value_name = "N", allow_negative_numbers = true, required = true)]
    pub defense: Vec<i64>,
    /// Blasting: how many separate targets, 1 to 3 (default: 3 with one --defense, else one
    /// per --defense).
    #[arg(long, value_name = "N")]
    pub targets: Option<usize>,
    /// Situational modifiers added to every attack roll (engage +2, take cover −2 …).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub modifier: i64,
    /// The attacker is injured: blasting delays him; fighting and wrestling then allow only
    /// one attack (use `attack`).
    #[arg(long)]
    pub injured: bool,
    /// With --odds or --monte-carlo: the law of the total damage alone (a number: mean,
    /// quantiles, P(≥ N)) instead of every attack's result.
    #[arg(long)]
    pub total: bool,
    #[command(flatten)]
    pub odds: OddsFlag,
}

fn ability(s: &str) -> Result<Ability, String> {
    s.parse::<Ability>().map_err(|e| e.to_string())
}

/// `attack`.
#[derive(Debug, clap::Args)]
pub struct AttackArgs {
    /// The kind of attack.
    #[arg(long, value_enum)]
    pub kind: Kind,
    /// The ability rolled with (fighting, wrestling, shooting, blasting, knockout, or a
    /// movement ability for a catch); leave out for a non-ability roll.
    #[arg(long, value_name = "ABILITY", value_parser = ability, requires = "level")]
    pub ability: Option<Ability>,
    /// The attacker's level in that ability.
    #[arg(long, value_name = "N", requires = "ability")]
    pub level: Option<u32>,
    /// The target's defense: the difficulty of the roll.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub defense: i64,
    /// Situational modifiers added to the die (engage +2, take cover −2 …).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub modifier: i64,
    /// The attacker is injured (knockout does 2; shooting and blasting delay him).
    #[arg(long)]
    pub injured: bool,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// Runs a Scratch RPS roll.
pub fn run(args: Args, ctx: &Ctx) -> Result<Report, CliError> {
    let rules: Rules = args.rules.apply()?;
    match args.roll {
        RollKind::Roll(a) => d20_roll(a, &rules, ctx),
        RollKind::Attack(a) => attack(a, &rules, ctx),
        RollKind::Action(a) => action(&a, &rules, ctx),
        RollKind::Fight(a) => fight(&a, rules, ctx),
        RollKind::Heal(a) => heal(&a, &rules, ctx),
        RollKind::Vehicle(a) => vehicle(&a, &rules, ctx),
        RollKind::Hurry(a) => hurry(&a, rules, ctx),
        RollKind::Initiative(a) => {
            let cmd = "scratch-rps initiative";
            let mine = dice_scratch_rps::Initiative::new(a.stalking)?;
            match a.against {
                Some(other) => {
                    let c = dice_scratch_rps::InitiativeContest::new(
                        mine,
                        dice_scratch_rps::Initiative::new(other)?,
                    );
                    let title = format!(
                        "initiative: d20 + 10 × {} (A) against d20 + 10 × {other} (B): who acts first",
                        a.stalking
                    );
                    let fields = vec![("stalking", json!(a.stalking)), ("against", json!(other))];
                    super::named_mechanic(cmd, title, &c, &a.odds, ctx, fields, |o, d| {
                        o.summary(
                            "p_first",
                            "the first character acts first",
                            d.probability(&dice_scratch_rps::Side::A),
                        )
                    })
                }
                None => super::numeric_mechanic(
                    cmd,
                    format!("initiative: d20 + 10 × stalking {}", a.stalking),
                    &mine,
                    &a.odds,
                    ctx,
                    vec![("stalking", json!(a.stalking))],
                    |o, _| o,
                ),
            }
        }
    }
}

/// `dice scratch-rps fight SCENE`: the scene's fight under the rulings (`--rule`).
fn fight(args: &super::fight::FightArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let scene: Scene = super::fight::load_scene(&args.scene)?;
    let encounter = scene.encounter_with(rules).map_err(|e| {
        CliError::bad_input(format_args!(
            "the scene {} is not valid: {e}",
            args.scene.display()
        ))
    })?;
    let names: Vec<String> = scene.combatants.iter().map(|c| c.name.clone()).collect();
    let title = format!("Scratch RPS fight: {}", names.join(", "));
    let describe_with = encounter.clone();
    super::fight::run(
        "scratch-rps fight",
        &title,
        encounter,
        args,
        ctx,
        move |s| describe_with.describe(s),
        |e: &FightEnd| e.to_string(),
    )
}

fn outcome_key(o: Outcome) -> String {
    snake(&o.to_string())
}

fn d20_roll(a: RollArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let roll = match a.level {
        Some(level) => D20Roll::ability(level, a.difficulty)?,
        None => D20Roll::non_ability(a.difficulty)?,
    }
    .with_modifier(a.modifier)?
    .with_rules(rules);
    let inputs = json!({
        "level": a.level,
        "difficulty": a.difficulty,
        "modifier": a.modifier,
    });
    d20_report(
        "scratch-rps roll",
        roll.to_string(),
        &roll,
        ("roll", inputs),
        "success, automatic or not",
        &a.odds,
        ctx,
    )
}

/// The report of one d20 roll: rolled (the die, the total, the outcome), or its exact or
/// simulated odds with P(success) (`success` says what succeeding does). `inputs` is the
/// JSON field of the command's inputs.
fn d20_report(
    cmd: &str,
    title: String,
    roll: &D20Roll,
    inputs: (&str, Value),
    success: &str,
    odds: &OddsFlag,
    ctx: &Ctx,
) -> Result<Report, CliError> {
    let (key, inputs) = inputs;
    if odds.wanted() {
        let law = odds.law(roll, ctx)?;
        let dist = &law.dist;
        let mut o = law
            .decorate(OddsReport::new(cmd, title).named(dist, |o, p| Row::new(label_of(o), p)))
            .summary(
                "p_success",
                success,
                if law.run.is_some() {
                    dist.probability_where(|o| o.is_success())
                } else {
                    roll.success_chance()
                },
            )
            .field(key, inputs);
        if !roll.is_rolled() {
            o = o.note(NO_ABILITY);
        }
        return Ok(Report::Odds(o));
    }
    let seed = ctx.seed();
    let mut report = RollReport::new(cmd, seed).line(title);
    if roll.is_rolled() {
        let natural = D20.roll_face(&mut seed.rng());
        let outcome = roll.resolve(natural)?;
        let total = roll.total(natural)?;
        report = report
            .line(format!(
                "d20 {natural}{} = {total} vs {}: {outcome}",
                signed(roll.total_modifier()),
                roll.difficulty()
            ))
            .field("natural", natural)
            .field("total", total)
            .field("outcome", outcome_key(outcome));
    } else {
        report = report
            .line(NO_ABILITY)
            .field("natural", Value::Null)
            .field("total", Value::Null)
            .field("outcome", outcome_key(Outcome::Failure));
    }
    Ok(Report::Roll(report.field(key, inputs)))
}

/// `dice scratch-rps vehicle`: an operator's roll with the vehicle's ability.
fn vehicle(a: &VehicleArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let vehicle = Vehicle::from(a.vehicle);
    let ability = vehicle.ability();
    let operator = Character::from_levels([(ability, a.level)])?;
    if !operator.can_operate(vehicle) {
        return Err(CliError::bad_input(format_args!(
            "a character without {ability} cannot operate {} {vehicle}: --level must be 1 or more",
            if vehicle == Vehicle::AirOrSpace {
                "an"
            } else {
                "a"
            }
        )));
    }
    let roll = vehicle_roll(&operator, vehicle, a.difficulty)?
        .with_modifier(a.modifier)?
        .with_rules(rules);
    let inputs = json!({
        "vehicle": snake(&vehicle.to_string()),
        "ability": snake(&ability.to_string()),
        "level": a.level,
        "difficulty": a.difficulty,
        "modifier": a.modifier,
    });
    d20_report(
        "scratch-rps vehicle",
        format!(
            "operating {} {vehicle} with {ability} {}: {roll}",
            if vehicle == Vehicle::AirOrSpace {
                "an"
            } else {
                "a"
            },
            a.level
        ),
        &roll,
        ("vehicle", inputs),
        "success, automatic or not",
        &a.odds,
        ctx,
    )
}

/// What a failed roll in a hurry costs (L101).
const HURRY_FAILED: &str = "on a failure that bonus cannot be used until the hurry is over";

/// `dice scratch-rps hurry`: the craftsman's roll to add a temporary bonus in a hurry.
fn hurry(a: &HurryArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    if a.level == 0 {
        return Err(CliError::bad_input(
            "a character without craftsmanship gives no temporary bonus (one per level): \
             --level must be 1 or more",
        ));
    }
    let craftsman = Character::from_levels([(Ability::Craftsmanship, a.level)])?;
    let party = Party::new(vec![craftsman], rules);
    let roll = party
        .hurry_roll(0, a.difficulty)?
        .with_modifier(a.modifier)?
        .with_rules(&rules);
    let inputs = json!({
        "level": a.level,
        "difficulty": a.difficulty,
        "modifier": a.modifier,
        "roll": match rules.hurry_roll {
            HurryRoll::Craftsmanship => "craftsmanship",
            HurryRoll::NonAbility => "non_ability",
        },
    });
    let title = format!(
        "a temporary bonus in a hurry, craftsmanship {}: {roll}",
        a.level
    );
    let report = d20_report(
        "scratch-rps hurry",
        title,
        &roll,
        ("hurry", inputs),
        "the temporary bonus is added",
        &a.odds,
        ctx,
    )?;
    Ok(match report {
        Report::Odds(o) => Report::Odds(o.footnote(HURRY_FAILED)),
        Report::Roll(mut r) => {
            let added = r.fields.get("outcome").and_then(Value::as_str) != Some("failure");
            r.lines.push(
                if added {
                    "the temporary +1 is added"
                } else {
                    "failed: that bonus cannot be used until the hurry is over"
                }
                .to_owned(),
            );
            Report::Roll(r)
        }
        other => other,
    })
}

/// `dice scratch-rps heal`: the healer's roll (L99) and what it does to the patient.
fn heal(a: &HealArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    use dice_scratch_rps::support::{Treatment, healing_roll};
    let treatment = Treatment::needed(a.hp, a.toughness)?;
    let healer = dice_scratch_rps::Character::from_levels([(Ability::Healing, a.level)])?;
    let roll = healing_roll(&healer)?
        .with_modifier(a.modifier)?
        .with_rules(rules);
    let after = treatment.hit_points_after(a.toughness);
    let state = |hp: u32| snake(&Health::of(hp, a.toughness).to_string());
    let title = format!(
        "healing: {roll}, to {treatment} a character at {}/{} HP ({}) to {after} HP ({})",
        a.hp,
        a.toughness,
        state(a.hp),
        state(after)
    );
    let fields = vec![
        ("level", json!(a.level)),
        ("hp", json!(a.hp)),
        ("toughness", json!(a.toughness)),
        ("modifier", json!(a.modifier)),
        ("treatment", json!(treatment.to_string())),
        ("hp_after_success", json!(after)),
    ];
    super::named_mechanic(
        "scratch-rps heal",
        title,
        &roll,
        &a.odds,
        ctx,
        fields,
        |o, d| {
            o.summary(
                "p_healed",
                format!("the character is brought to {after} HP"),
                d.probability_where(|x| x.is_success()),
            )
        },
    )
}

const NO_ABILITY: &str = "no roll: without the ability (level 0) the action fails";

/// ` + 3`, ` - 2`, or nothing for 0.
fn signed(m: i64) -> String {
    match m {
        0 => String::new(),
        m if m < 0 => format!(" - {}", m.unsigned_abs()),
        m => format!(" + {m}"),
    }
}

fn attack(a: AttackArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "scratch-rps attack";
    let with = match (a.ability, a.level) {
        (Some(ab), Some(level)) => Some((ab, level)),
        _ => None,
    };
    let mut attack =
        Attack::new(a.kind.into(), with, a.defense, rules)?.with_modifier(a.modifier)?;
    if a.injured {
        attack = attack.with_attacker(Health::Injured)?;
    }
    let title = attack.to_string();
    let inputs = json!({
        "kind": snake(&AttackKind::from(a.kind).to_string()),
        "ability": a.ability.map(|ab| snake(&ab.to_string())),
        "level": a.level,
        "defense": a.defense,
        "modifier": a.modifier,
        "injured": a.injured,
    });
    if a.odds.wanted() {
        let law = a.odds.law(&attack, ctx)?;
        let dist = &law.dist;
        let (expected, p_hit) = if law.run.is_some() {
            (
                dist.iter()
                    .map(|(r, p)| f64::from(r.damage) * p)
                    .sum::<f64>(),
                dist.probability_where(|r| r.outcome.is_success()),
            )
        } else {
            (attack.expected_damage(), attack.hit_chance())
        };
        let o = law
            .decorate(OddsReport::new(cmd, title).named(dist, |r, p| {
                Row::new(Label::named(&outcome_key(r.outcome), r.to_string()), p)
                    .with("damage", r.damage)
            }))
            .summary("p_hit", "hit, automatic or not", p_hit)
            .footnote(format!("expected damage {expected:.4}"))
            .field("expected_damage", expected)
            .field("attack", inputs);
        return Ok(Report::Odds(o));
    }
    let seed = ctx.seed();
    let natural = D20.roll_face(&mut seed.rng());
    let result = attack.resolve(natural)?;
    let d20 = attack.d20();
    let line = if d20.is_rolled() {
        format!(
            "d20 {natural}{} = {} vs {}: {result}",
            signed(d20.total_modifier()),
            d20.total(natural)?,
            d20.difficulty()
        )
    } else {
        NO_ABILITY.to_owned()
    };
    Ok(Report::Roll(
        RollReport::new(cmd, seed)
            .line(title)
            .line(line)
            .field("attack", inputs)
            .field("natural", natural)
            .field("total", d20.total(natural)?)
            .field("outcome", outcome_key(result.outcome))
            .field("damage", result.damage),
    ))
}

/// Every attack's result of one action, in the order the attacks are rolled.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct ActionResult(pub Vec<AttackResult>);

impl std::fmt::Display for ActionResult {
    /// The attacks' results separated by `; `: `hit, 1 damage; miss`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, r) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

/// The attacks of one action rolled together, each with its own d20: the outcome is every
/// attack's result, the exact law the joint of the attacks' own laws (they are independent
/// rolls), so that each target's result stays visible where [`Attacks`] sums the damage.
#[derive(Clone, Debug)]
struct ActionRolls<'a>(&'a [Attack]);

impl Roll for ActionRolls<'_> {
    type Outcome = ActionResult;

    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> ActionResult {
        ActionResult(self.0.iter().map(|a| Roll::roll(a, rng)).collect())
    }
}

impl Exact for ActionRolls<'_> {
    fn distribution(&self) -> Result<Dist<ActionResult>, dice_core::Error> {
        let mut law = Dist::certain(Vec::<AttackResult>::new());
        for a in self.0 {
            law = law.joint(&a.distribution()?).map(|(so_far, r)| {
                let mut next = so_far.clone();
                next.push(*r);
                next
            });
        }
        Ok(law.map(|v| ActionResult(v.clone())))
    }
}

/// The attacks an action makes, with the ruling on each argument.
fn action_attacks(a: &ActionArgs, rules: &Rules) -> Result<Vec<Attack>, CliError> {
    let (kinds, name): (Vec<AttackKind>, &str) = match a.kind {
        ActionKind::Fighting => (
            vec![AttackKind::BasicAttack, AttackKind::BasicAttack],
            "fighting's two basic attacks",
        ),
        ActionKind::Wrestling => (
            vec![AttackKind::BasicAttack, AttackKind::Hold],
            "wrestling's basic attack and hold",
        ),
        ActionKind::Blasting => {
            let n = match (a.targets, a.defense.len()) {
                (Some(n), _) => n,
                (None, 1) => BLASTING_TARGETS,
                (None, given) => given,
            };
            if n == 0 || n > BLASTING_TARGETS {
                return Err(CliError::bad_input(format_args!(
                    "blasting attacks 1 to {BLASTING_TARGETS} separate targets, each once, not {n}"
                )));
            }
            (vec![AttackKind::Blasting; n], "blasting")
        }
    };
    if a.kind != ActionKind::Blasting {
        if a.targets.is_some() {
            return Err(CliError::bad_input(format_args!(
                "--targets is for blasting; {name} take one --defense for both or one each"
            )));
        }
        if a.injured {
            return Err(CliError::bad_input(format_args!(
                "{name} as one action need a healthy attacker; an injured one makes a single \
                 attack: dice scratch-rps attack --kind basic-attack --ability {} --level {} \
                 --injured{}",
                a.kind.ability().name(),
                a.level,
                if a.kind == ActionKind::Wrestling {
                    " (or --kind hold)"
                } else {
                    ""
                }
            )));
        }
    }
    let defenses: Vec<i64> = match a.defense.as_slice() {
        [one] => vec![*one; kinds.len()],
        many if many.len() == kinds.len() => many.to_vec(),
        many => {
            return Err(CliError::bad_input(format_args!(
                "{name}: {} attacks, {} --defense given: give one for every attack or one per \
                 attack",
                kinds.len(),
                many.len()
            )));
        }
    };
    let health = if a.injured {
        Health::Injured
    } else {
        Health::Healthy
    };
    kinds
        .into_iter()
        .zip(defenses)
        .map(|(kind, defense)| {
            Ok(
                Attack::new(kind, Some((a.kind.ability(), a.level)), defense, rules)?
                    .with_modifier(a.modifier)?
                    .with_attacker(health)?,
            )
        })
        .collect()
}

/// One attack's result in a word: `miss`, `hit`, `natural 20`.
fn result_word(r: &AttackResult) -> &'static str {
    match r.outcome {
        Outcome::Failure => "miss",
        Outcome::Success => "hit",
        Outcome::AutomaticSuccess => "natural 20",
    }
}

/// The row of one joint result: `attack hit, hold miss: 1 damage` (key
/// `attack_hit_and_hold_miss`), with each attack's result and the total damage in the JSON.
fn action_row(kinds: &[AttackKind], wrestling: bool, r: &ActionResult, p: f64) -> Row {
    let prefix = |k: AttackKind| match (wrestling, k) {
        (true, AttackKind::Hold) => "hold ",
        (true, _) => "attack ",
        _ => "",
    };
    let words: Vec<String> = kinds
        .iter()
        .zip(&r.0)
        .map(|(&k, x)| format!("{}{}", prefix(k), result_word(x)))
        .collect();
    let damage: u32 = r.0.iter().map(|x| x.damage).sum();
    let held = kinds
        .iter()
        .zip(&r.0)
        .any(|(&k, x)| k.delays_target() && x.hit());
    let text = format!(
        "{}: {damage} damage{}",
        words.join(", "),
        if held { ", target delayed" } else { "" }
    );
    let key = words
        .iter()
        .map(|w| snake(w))
        .collect::<Vec<_>>()
        .join("_and_");
    let attacks: Vec<Value> =
        r.0.iter()
            .map(|x| json!({ "outcome": outcome_key(x.outcome), "damage": x.damage }))
            .collect();
    Row::new(Label::named(&key, text), p)
        .with("damage", damage)
        .with("attacks", attacks)
}

/// What the `i`th attack's hit means, for the headline probabilities.
fn attack_hits(kind: ActionKind, i: usize, count: usize) -> String {
    let nth = ["first", "second", "third"]
        .get(i)
        .copied()
        .unwrap_or("next");
    match kind {
        ActionKind::Fighting => format!("the {nth} basic attack hits"),
        ActionKind::Wrestling if i == 0 => "the basic attack hits".to_owned(),
        ActionKind::Wrestling => "the hold succeeds: the target is delayed".to_owned(),
        ActionKind::Blasting if count == 1 => "the target is hit".to_owned(),
        ActionKind::Blasting => format!("the {nth} target is hit"),
    }
}

/// `dice scratch-rps action`: fighting's two basic attacks, wrestling's basic attack and
/// hold, blasting's separate targets: rolled, or the law of every attack's result together.
fn action(a: &ActionArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "scratch-rps action";
    let list = action_attacks(a, rules)?;
    let attacks = Attacks::new(list.clone())?;
    let kinds: Vec<AttackKind> = list.iter().map(Attack::kind).collect();
    let wrestling = a.kind == ActionKind::Wrestling;
    let what = match a.kind {
        ActionKind::Fighting => "two basic attacks".to_owned(),
        ActionKind::Wrestling => "a basic attack and a hold".to_owned(),
        ActionKind::Blasting if list.len() == 1 => "one target".to_owned(),
        ActionKind::Blasting => format!(
            "{} separate targets",
            ["", "one", "two", "three"]
                .get(list.len())
                .copied()
                .unwrap_or("several")
        ),
    };
    let title = format!(
        "{} {}, {what} as one action: {attacks}",
        a.kind.ability().name(),
        a.level
    );
    let defenses: Vec<i64> = list.iter().map(|x| x.d20().difficulty()).collect();
    let inputs = json!({
        "kind": snake(a.kind.ability().name()),
        "level": a.level,
        "defenses": defenses,
        "attacks": list.len(),
        "modifier": a.modifier,
        "injured": a.injured,
    });
    let delays = list.iter().any(Attack::delays_attacker);
    const DELAYED: &str = "the injured blaster delays himself until the end of his next turn";
    if a.odds.wanted() && a.total {
        let report = super::numeric_mechanic(
            cmd,
            format!("{title}: total damage"),
            &attacks,
            &a.odds,
            ctx,
            vec![("action", inputs)],
            |o, d| {
                o.summary(
                    "p_damage",
                    "at least 1 damage",
                    d.probability_where(|&x| x > 0),
                )
            },
        )?;
        return Ok(match report {
            Report::Odds(o) if delays => Report::Odds(o.footnote(DELAYED)),
            other => other,
        });
    }
    if a.odds.wanted() {
        let mechanic = ActionRolls(&list);
        let law = a.odds.law(&mechanic, ctx)?;
        let dist = &law.dist;
        let damage_law: Dist<u32> = if law.run.is_some() {
            dist.map(|r| r.0.iter().map(|x| x.damage).sum())
        } else {
            attacks.distribution()?
        };
        let mut o = law.decorate(
            OddsReport::new(cmd, title).named(dist, |r, p| action_row(&kinds, wrestling, r, p)),
        );
        o = o.summary(
            "p_damage",
            "at least 1 damage",
            damage_law.probability_where(|&d| d > 0),
        );
        for (i, attack) in list.iter().enumerate() {
            let p = if law.run.is_some() {
                dist.probability_where(|r| r.0.get(i).is_some_and(AttackResult::hit))
            } else {
                attack.hit_chance()
            };
            o = o.summary(
                &format!("p_hit_{}", i + 1),
                attack_hits(a.kind, i, list.len()),
                p,
            );
        }
        o = o.summary(
            "p_all_hit",
            "every attack hits",
            dist.probability_where(|r| r.0.iter().all(AttackResult::hit)),
        );
        let expected = damage_law.mean();
        let by_damage: Vec<String> = damage_law
            .iter()
            .map(|(d, p)| format!("{d}: {:.4}%", p * 100.0))
            .collect();
        let damage_json: Vec<Value> = damage_law
            .iter()
            .map(|(d, p)| json!({ "damage": d, "probability": p }))
            .collect();
        o = o
            .footnote(format!("total damage {}", by_damage.join(", ")))
            .footnote(format!("expected damage {expected:.4}"))
            .field("expected_damage", expected)
            .field("damage_distribution", damage_json)
            .field("action", inputs);
        if delays {
            o = o.footnote(DELAYED);
        }
        return Ok(Report::Odds(o));
    }
    let seed = ctx.seed();
    let mut rng = seed.rng();
    let naturals: Vec<u32> = list.iter().map(|_| D20.roll_face(&mut rng)).collect();
    let results = attacks.results(&naturals)?;
    let damage = attacks.resolve(&naturals)?;
    let mut report = RollReport::new(cmd, seed).line(title);
    let mut rolled = Vec::with_capacity(list.len());
    for ((attack, &natural), r) in list.iter().zip(&naturals).zip(&results) {
        let d20 = attack.d20();
        let total = d20.total(natural)?;
        let said = if attack.damage_on_success() == 0 {
            result_word(r).to_owned()
        } else {
            r.to_string()
        };
        report = report.line(format!(
            "{}: d20 {natural}{} = {total} vs {}: {said}",
            attack.kind(),
            signed(d20.total_modifier()),
            d20.difficulty()
        ));
        rolled.push(json!({
            "kind": snake(&attack.kind().to_string()),
            "defense": d20.difficulty(),
            "natural": natural,
            "total": total,
            "outcome": outcome_key(r.outcome),
            "damage": r.damage,
        }));
    }
    report = report.line(format!("total damage {damage}"));
    if kinds
        .iter()
        .zip(&results)
        .any(|(k, r)| k.delays_target() && r.hit())
    {
        report = report.line("the hold delays the target until the end of its next turn");
    }
    if delays {
        report = report.line(DELAYED);
    }
    Ok(Report::Roll(
        report
            .field("action", inputs)
            .field("attacks", rolled)
            .field("damage", damage),
    ))
}
