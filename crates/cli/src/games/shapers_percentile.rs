//! `dice shapers-percentile`: the d100 test and the attack of the *Shapers* combat chapter
//! (crate dice-shapers-percentile), under the project's rulings (`Rules::default()`) unless `--rule` changes one.

use dice_core::Roll;
use dice_shapers_percentile::{
    Attack, AttackKind, AttackOutcome, Defence, Fight, Rules, Scene, Skirmish, Test, TestResult,
};
use serde_json::{Value, json};

use super::OddsFlag;
use crate::Ctx;
use crate::error::CliError;
use crate::report::{Label, OddsReport, Report, RollReport, Row};

/// `dice shapers-percentile`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Shapers (percentile combat): d100 tests and attacks, roll under TN = 50 + attribute + aptitude",
    long_about = "Shapers, the percentile combat chapter: a d100 test succeeds when the roll is at \
or under TN = 50 + attribute + aptitude + modifiers; the margin is TN − roll (\"succeeded by 15\", \
\"failed by −15\"), and a hit does +1 damage per 10 points of success. An attack may be \
unopposed, opposed by the defender's own test (a failed attack never hits; a successful one \
hits unless the defender also succeeds with a margin at least as high; losing a melee exchange \
by 30 or more exposes the attacker to a counter-attack), or met by the optional passive \
defence. --rule opposed=higher_margin plays the other reading: the higher margin wins, even \
between two failures.\n\n\
Rolls by default; --odds gives the exact odds. Rulings are the project's \
(dice-shapers-percentile Rules::default()); --rule KEY=VALUE changes one (an unknown KEY lists them all).",
    after_help = "Examples:\n  dice shapers-percentile test --attribute 10 --aptitude 5\n  dice shapers-percentile attack --attribute 10 --aptitude 5 --defender-attribute 10 --defender-aptitude 5 --odds\n  dice shapers-percentile attack --attribute 12 --aptitude 4 --modifier -20 --kind ranged"
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
    /// A d100 test: roll at or under TN = 50 + attribute + aptitude + modifier.
    Test(TestArgs),
    /// An attack: the attacker's test, unopposed, opposed or against a passive defence.
    #[command(
        long_about = "An attack: the attacker's d100 test against no defence (the \
default), an opposed test (--defender-attribute and --defender-aptitude: a failed attack \
never hits, and a successful one hits unless the defender succeeds with a margin at least as \
high; in melee, losing by 30 or more gives the defender a counter-attack \
at +1 damage per 10 of the loss), or the optional passive defence (--passive N, deducted from \
the attacker's margin). A hit does +1 damage per 10 points of the (net) margin.\n\n\
With --weapon N, the damage a hit deals: weapon + Physical Strength (--strength; \
Physical Agility, --agility, for ranged attacks other than throwing) + the margin's bonus + \
the outnumbering bonus (--outnumbering) − the victim's armour (--armour) and Fortitude \
(--fortitude; skipped under --rule lethal=true), at least 0 (negative damage allowed \
with --rule clamp_damage_at_zero=false). --odds then adds the \
damage of each hit and the expected damage.",
        after_help = "Examples:\n  dice shapers-percentile attack --attribute 12 --aptitude 30 --odds\n  dice shapers-percentile attack --attribute 12 --aptitude 30 --weapon 6 --strength 12 --armour 2 --fortitude 5 --odds"
    )]
    Attack(AttackArgs),
    /// A whole fight: a scene of combatants played to the end, or the exact odds of who wins.
    #[command(
        long_about = "A whole fight: the scene file (TOML, or JSON by extension) lists the \
combatants in the chapter's terms: name, side, Health, Physical Agility, Mental Agility, \
Physical Strength, Physical Fortitude, Dodge, Size, armour by hit location, one weapon \
(melee, thrown or ranged, with its Aptitude, damage, standing modifier, and a listed range or \
a reach), where they stand (metres along one line), how far they walk, run and sprint in a \
round, and the cover where they start; passive_defence = true plays the optional passive \
defence.\n\n\
In the first round everyone rolls Initiative (d10 + Physical Agility + Mental Agility, \
highest first, ties rolled off); the Turn Order then holds. On their turn each combatant still \
standing attacks (a melee fighter first walking up to a foe within walking distance + 2 m), \
charges (at most running speed, ending within 2 m, one attack at +10; only when in melee with \
nobody), walks, runs or sprints toward a foe, spends the round aiming (+10 to the next shot), \
or holds. An attack is Physical Agility + Aptitude against TN 50 with the modifiers \
(outnumbering among those within reach, difference in Size in melee; for a shot the range \
band of the distance, the target's cover while they stay where they started), met by the \
defender's roll (the better of Dodge and the Melee Aptitude where allowed; no roll against a \
shot they cannot see coming). A hit rolls its location and does weapon damage + Strength (or \
Agility for shots) + 1 per 10 points of success, less the armour there and Physical Fortitude; \
losing a melee exchange by 30 or more lets the defender counter-attack. At Health 0 a \
combatant is out of the fight; the fight ends when one side alone has anyone standing.\n\n\
By default each combatant strikes the foe with the least Health among those they can attack \
this turn (charging rather than walking up), and otherwise runs at the nearest foe, and never \
falls back. --tactics skirmish adds falling back: a shooter with a foe within --keep-away \
metres walks back from the nearest foe and shoots from where they stop, and a combatant at \
--fall-back-at Health or less, in melee, with an ally still standing, runs away from the \
nearest foe and leaves the fight to the ally, until the end of the field corners them. \
Falling back needs room: the scene's field (by default the span of the starting positions).\n\n\
Plays with --seed; --odds gives the exact chance of each side winning; --monte-carlo estimates \
it by playing many fights. --rule changes a ruling (--rule lethal=true plays Lethal Damage).",
        after_help = "Examples:\n  dice shapers-percentile fight crates/shapers-percentile/scenes/duel.toml --seed 1\n  dice shapers-percentile fight crates/shapers-percentile/scenes/duel.toml --odds\n  dice shapers-percentile fight crates/shapers-percentile/scenes/duel.toml --monte-carlo --trials 20000\n  dice shapers-percentile fight crates/shapers-percentile/scenes/duel-with-room.toml --tactics skirmish --keep-away 14 --seed 1"
    )]
    Fight(PercentileFightArgs),
    /// Initiative: d10 + Physical Agility + Mental Agility.
    #[command(
        long_about = "Initiative: a d10 plus the character's Physical Agility and Mental \
Agility; the highest acts first.",
        after_help = "Examples:\n  dice shapers-percentile initiative --pa 12 --ma 9 --odds\n  dice shapers-percentile initiative --pa 12 --ma 9"
    )]
    Initiative(PercentileInitiativeArgs),
    /// The hit location of a blow: a d100 on the location table.
    #[command(
        long_about = "The hit location of a blow that lands: a d100 on the location table \
(head, torso, arms, legs). A called shot (−20 to the attack's TN) hits the location called \
and needs no roll.",
        after_help = "Examples:\n  dice shapers-percentile hit-location --odds\n  dice shapers-percentile hit-location --seed 5"
    )]
    HitLocation(HitLocationArgs),
}

/// `initiative`.
#[derive(Debug, clap::Args)]
pub struct PercentileInitiativeArgs {
    /// Physical Agility.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub pa: i32,
    /// Mental Agility.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub ma: i32,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// `hit-location`.
#[derive(Debug, clap::Args)]
pub struct HitLocationArgs {
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// A test's terms.
#[derive(Debug, clap::Args)]
pub struct TestTerms {
    /// The attribute (Physical Agility for an attack).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub attribute: i32,
    /// The aptitude (Melee, Ranged, Dodge …).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub aptitude: i32,
    /// The sum of the situational modifiers to the TN (charging +10, long range −20 …).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub modifier: i32,
}

/// `test`.
#[derive(Debug, clap::Args)]
pub struct TestArgs {
    #[command(flatten)]
    pub terms: TestTerms,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// The kind of attack, which decides counter-attacks (melee only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// A Melee Aptitude (Unarmed or Armed).
    Melee,
    /// The Ranged (Throwing) Aptitude.
    Thrown,
    /// Any other Ranged Aptitude.
    Ranged,
}

impl From<Kind> for AttackKind {
    fn from(k: Kind) -> AttackKind {
        match k {
            Kind::Melee => AttackKind::Melee,
            Kind::Thrown => AttackKind::Thrown,
            Kind::Ranged => AttackKind::Ranged,
        }
    }
}

/// `attack`.
#[derive(Debug, clap::Args)]
pub struct AttackArgs {
    #[command(flatten)]
    pub terms: TestTerms,
    /// The kind of attack (counter-attacks only follow melee).
    #[arg(long, value_enum, default_value_t = Kind::Melee)]
    pub kind: Kind,
    /// The defender's attribute, for an opposed defence roll.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        requires = "defender_aptitude",
        conflicts_with = "passive"
    )]
    pub defender_attribute: Option<i32>,
    /// The defender's aptitude (Dodge, Melee …), for an opposed defence roll.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        requires = "defender_attribute"
    )]
    pub defender_aptitude: Option<i32>,
    /// The defender's modifiers to their TN.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        requires = "defender_attribute"
    )]
    pub defender_modifier: Option<i32>,
    /// The optional passive defence: the defender's attribute + aptitude, deducted from the
    /// attacker's margin (no defender roll).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub passive: Option<i32>,
    /// The weapon's damage: with it, the damage each hit deals.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub weapon: Option<i32>,
    /// The attacker's Physical Strength, added to melee and thrown damage.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true,
        requires = "weapon"
    )]
    pub strength: i32,
    /// The attacker's Physical Agility, added to other ranged damage.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true,
        requires = "weapon"
    )]
    pub agility: i32,
    /// The outnumbering damage bonus (outnumbering by reach in melee).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "weapon")]
    pub outnumbering: u32,
    /// The victim's armour against the blow.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true,
        requires = "weapon"
    )]
    pub armour: i32,
    /// The victim's Fortitude for the type of attack (Physical, Social or Mental).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true,
        requires = "weapon"
    )]
    pub fortitude: i32,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// Runs a Shapers (percentile) roll.
pub fn run(args: Args, ctx: &Ctx) -> Result<Report, CliError> {
    let rules: Rules = args.rules.apply()?;
    match args.roll {
        RollKind::Test(a) => test(a, &rules, ctx),
        RollKind::Attack(a) => attack(a, &rules, ctx),
        RollKind::Fight(a) => fight(&a, &rules, ctx),
        RollKind::Initiative(a) => {
            let init = dice_shapers_percentile::Initiative::new(a.pa, a.ma)?;
            super::numeric_mechanic(
                "shapers-percentile initiative",
                format!("initiative: d10 + PA {} + MA {}", a.pa, a.ma),
                &init,
                &a.odds,
                ctx,
                vec![("pa", json!(a.pa)), ("ma", json!(a.ma))],
                |o, _| o,
            )
        }
        RollKind::HitLocation(a) => super::named_mechanic(
            "shapers-percentile hit-location",
            "hit location (d100 on the location table)".to_owned(),
            &dice_shapers_percentile::HitLocation,
            &a.odds,
            ctx,
            Vec::new(),
            |o, _| o,
        ),
    }
}

/// `fight`: a scene played, or its exact or estimated odds.
/// The tactics a fight is played with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TacticsName {
    /// Strike the foe with the least Health in reach, else run at the nearest; never fall
    /// back.
    #[default]
    Standard,
    /// The standard tactics with falling back (--keep-away, --fall-back-at).
    Skirmish,
}

/// `fight`: the options every game's fight has, and the tactics.
#[derive(Debug, clap::Args)]
pub struct PercentileFightArgs {
    #[command(flatten)]
    pub fight: super::fight::FightArgs,
    /// The tactics every combatant plays: standard, or skirmish (standard with falling
    /// back).
    #[arg(long, value_enum, value_name = "TACTICS")]
    pub tactics: Option<TacticsName>,
    /// Skirmish: a shooter with a foe this close (in metres) walks back from the nearest foe
    /// and shoots from where they stop (0: never).
    #[arg(long, value_name = "METRES", value_parser = clap::value_parser!(i32).range(0..=1000))]
    pub keep_away: Option<i32>,
    /// Skirmish: a combatant at this Health or less, in melee, with an ally standing, runs
    /// away from the nearest foe (0: never).
    #[arg(long, value_name = "HEALTH", value_parser = clap::value_parser!(i32).range(0..=1000))]
    pub fall_back_at: Option<i32>,
}

fn fight(a: &PercentileFightArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let scene: Scene = super::fight::load_scene(&a.fight.scene)?;
    let names: Vec<&str> = scene.combatants.iter().map(|c| c.name.as_str()).collect();
    let title = format!("fight: {}", names.join(", "));
    match a.tactics.unwrap_or_default() {
        TacticsName::Standard => {
            if a.keep_away.is_some() || a.fall_back_at.is_some() {
                return Err(CliError::bad_input(
                    "--keep-away and --fall-back-at are skirmish tactics: add --tactics skirmish",
                ));
            }
            play_fight(Fight::new(&scene, rules)?, &title, a, ctx)
        }
        TacticsName::Skirmish => {
            let keep_away = a.keep_away.unwrap_or(0);
            let fall_back_at = a.fall_back_at.unwrap_or(0);
            let tactics = Skirmish::new(&scene, keep_away, fall_back_at);
            let title = format!(
                "{title} (skirmish: shooters keep {keep_away} m away, give ground at Health {fall_back_at})"
            );
            play_fight(Fight::with_policy(&scene, rules, tactics)?, &title, a, ctx)
        }
    }
}

/// A fight played, or its exact or estimated odds, whatever its tactics.
fn play_fight<P>(
    encounter: Fight<P>,
    title: &str,
    a: &PercentileFightArgs,
    ctx: &Ctx,
) -> Result<Report, CliError>
where
    P: dice_core::Policy<dice_shapers_percentile::FightState, dice_shapers_percentile::Action>
        + Clone
        + Sync,
{
    let describe = encounter.clone();
    let end = encounter.clone();
    let mut report = super::fight::run(
        "shapers-percentile fight",
        title,
        encounter,
        &a.fight,
        ctx,
        |s| describe.describe(s),
        |v| end.end_name(v),
    )?;
    if let Some(t) = a.tactics {
        let tactics = match t {
            TacticsName::Standard => json!({ "name": "standard" }),
            TacticsName::Skirmish => json!({
                "name": "skirmish",
                "keep_away": a.keep_away.unwrap_or(0),
                "fall_back_at": a.fall_back_at.unwrap_or(0),
            }),
        };
        match &mut report {
            Report::Odds(o) => {
                o.fields.insert("tactics".into(), tactics);
            }
            Report::Roll(r) => {
                r.fields.insert("tactics".into(), tactics);
            }
            _ => {}
        }
    }
    Ok(report)
}

fn make_test(t: &TestTerms, rules: &Rules) -> Result<Test, CliError> {
    Ok(Test::new(t.attribute, t.aptitude, t.modifier, rules)?)
}

fn terms_json(t: &Test) -> Value {
    json!({
        "attribute": t.attribute(),
        "aptitude": t.aptitude(),
        "modifier": t.modifier(),
        "tn": t.tn(),
    })
}

fn result_json(r: &TestResult) -> Value {
    json!({ "roll": r.roll, "margin": r.margin, "success": r.is_success() })
}

fn test(a: TestArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "shapers-percentile test";
    let t = make_test(&a.terms, rules)?;
    let title = format!("test {t}");
    if a.odds.wanted() {
        let law = a.odds.law(&t, ctx)?.map(TestResult::is_success);
        let o = law
            .decorate(OddsReport::new(cmd, title).named(&law.dist, |&ok, p| {
                Row::new(Label::key(if ok { "success" } else { "failure" }), p)
            }))
            .summary(
                "p_success",
                "success",
                if law.run.is_some() {
                    law.dist.probability(&true)
                } else {
                    t.success_probability()
                },
            )
            .field("test", terms_json(&t));
        return Ok(Report::Odds(o));
    }
    let seed = ctx.seed();
    let r = t.roll(&mut seed.rng());
    let mut line = format!("d100 {r}");
    if r.is_success() {
        line.push_str(&format!(" (+{} damage on a hit)", r.damage_bonus()));
    }
    Ok(Report::Roll(
        RollReport::new(cmd, seed)
            .line(title)
            .line(line)
            .field("test", terms_json(&t))
            .field("roll", r.roll)
            .field("margin", r.margin)
            .field("damage_bonus", r.damage_bonus())
            .field(
                "outcome",
                if r.is_success() { "success" } else { "failure" },
            ),
    ))
}

fn outcome_label(o: &AttackOutcome) -> (Label, Option<u32>) {
    match *o {
        AttackOutcome::CounterAttack { bonus } => {
            (Label::named("counter_attack", o.to_string()), Some(bonus))
        }
        AttackOutcome::Miss => (Label::key("miss"), None),
        AttackOutcome::Hit { bonus } => (Label::named("hit", o.to_string()), Some(bonus)),
    }
}

fn attack(a: AttackArgs, rules: &Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "shapers-percentile attack";
    let attacker = make_test(&a.terms, rules)?;
    let (defence, defence_json) = match (a.defender_attribute, a.defender_aptitude, a.passive) {
        (Some(attribute), Some(aptitude), _) => {
            let d = Test::new(attribute, aptitude, a.defender_modifier.unwrap_or(0), rules)?;
            (
                Defence::Opposed(d),
                json!({ "kind": "opposed", "test": terms_json(&d) }),
            )
        }
        (_, _, Some(p)) => (
            Defence::Passive(p),
            json!({ "kind": "passive", "passive": p }),
        ),
        _ => (Defence::Unopposed, json!({ "kind": "unopposed" })),
    };
    let attack = Attack::new(attacker, defence, a.kind.into(), rules)?;
    let title = format!("attack: {attack}");
    let kind = match a.kind {
        Kind::Melee => "melee",
        Kind::Thrown => "thrown",
        Kind::Ranged => "ranged",
    };
    let damage = match a.weapon {
        Some(w) => Some(
            dice_shapers_percentile::Damage::new(a.kind.into(), w, a.strength, a.agility)?
                .outnumbering(a.outnumbering)?
                .against(a.armour, a.fortitude)?,
        ),
        None => None,
    };
    let damage_json = damage.map_or(Value::Null, |_| {
        json!({
            "weapon": a.weapon,
            "strength": a.strength,
            "agility": a.agility,
            "outnumbering": a.outnumbering,
            "armour": a.armour,
            "fortitude": a.fortitude,
        })
    });
    // The damage the attacker's hit deals (a counter-attack's is the defender's weapon's).
    let dealt = |o: &AttackOutcome| match (o, damage) {
        (AttackOutcome::Hit { bonus }, Some(d)) => Some(d.dealt(*bonus, rules)),
        _ => None,
    };
    if a.odds.wanted() {
        let law = a.odds.law(&attack, ctx)?;
        let dist = &law.dist;
        let p_hit = dist.probability_where(AttackOutcome::is_hit);
        let p_counter =
            dist.probability_where(|o| matches!(o, AttackOutcome::CounterAttack { .. }));
        let mut o = law
            .decorate(OddsReport::new(cmd, title).named(dist, |o, p| {
                let (label, bonus) = outcome_label(o);
                let row = Row::new(label, p);
                let row = match bonus {
                    Some(b) => row.with("bonus", b),
                    None => row,
                };
                match dealt(o) {
                    Some(d) => row.with("damage", d),
                    None => row,
                }
            }))
            .summary("p_hit", "hit", p_hit);
        if p_counter > 0.0 {
            o = o.summary("p_counter_attack", "counter-attack", p_counter);
        }
        if damage.is_some() {
            let expected: f64 = dist
                .iter()
                .filter_map(|(x, p)| dealt(x).map(|d| f64::from(d) * p))
                .sum();
            let mut by_damage: std::collections::BTreeMap<i32, f64> = Default::default();
            for (x, p) in dist.iter() {
                if let Some(d) = dealt(x) {
                    *by_damage.entry(d).or_default() += p;
                }
            }
            let text: Vec<String> = by_damage
                .iter()
                .map(|(d, p)| format!("{d} ({:.4}%)", p * 100.0))
                .collect();
            o = o
                .footnote(format!("damage of a hit: {}", text.join(", ")))
                .footnote(format!("expected damage per attack {expected:.4}"))
                .field("expected_damage", expected);
        }
        if damage.is_some() {
            o = o.field("damage", damage_json);
        }
        return Ok(Report::Odds(
            o.field("attacker", terms_json(&attacker))
                .field("defence", defence_json)
                .field("kind", kind),
        ));
    }
    let seed = ctx.seed();
    let e = attack.roll_exchange(&mut seed.rng());
    let (label, bonus) = outcome_label(&e.outcome);
    let mut report = RollReport::new(cmd, seed).line(title).line(e.to_string());
    if let Some(d) = dealt(&e.outcome) {
        report = report.line(format!("damage {d}")).field("damage_dealt", d);
    }
    if damage.is_some() {
        report = report.field("damage", damage_json);
    }
    Ok(Report::Roll(
        report
            .field("attacker", terms_json(&attacker))
            .field("defence", defence_json)
            .field("kind", kind)
            .field("attacker_roll", result_json(&e.attacker))
            .field(
                "defender_roll",
                e.defender.as_ref().map_or(Value::Null, result_json),
            )
            .field("net", e.net)
            .field("outcome", label.to_json())
            .field("bonus", bonus.map_or(Value::Null, Value::from)),
    ))
}
