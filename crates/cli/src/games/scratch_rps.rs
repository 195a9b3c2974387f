//! `dice scratch-rps`: the d20 roll and the attack of *Scratch RPS* (crate dice-scratch-rps),
//! under the project's rulings (`Rules::default()`) unless `--rule` changes one.

use dice_scratch_rps::roll::D20;
use dice_scratch_rps::support::{HURRY_DIFFICULTY, vehicle_roll};
use dice_scratch_rps::{
    Ability, Attack, AttackKind, Character, D20Roll, FightEnd, Health, HurryRoll, Outcome, Party,
    Rules, Scene, Vehicle,
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
