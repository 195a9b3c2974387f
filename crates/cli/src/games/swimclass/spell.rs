//! `dice swimclass spell`: casting a spell of one of the six schools of magic as the roll it
//! is. A spell is a skill roll of its school's magic (the caster's rank in d6) at the
//! spell's difficulty: a task roll for a spell no one opposes (Light, Heal, …), an opposed
//! roll, die against die, for one the target may resist (Blaze, Stun, …).

use dice_swimclass::magic::{HEAL_PER_CAST, blaze_hits, undead};
use dice_swimclass::{
    BlazeHits, Bonus, Health, NO_THRESHOLD, OpposedRoll, Rules, School, Skill, Spell, SpellInput,
    Stabilize, Task, TaskRoll,
};
use serde_json::{Value, json};

use super::{
    Effect, bonus, difficulty, implements_json, opposed_odds, opposed_rolled, skill_dice,
    task_odds, task_rolled,
};
use crate::Ctx;
use crate::error::CliError;
use crate::games::OddsFlag;
use crate::report::Report;

/// The spells, by the names the command takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SpellName {
    /// Fire: an attack at up to 3 squares, difficulty Range + 1; one hit.
    Blaze,
    /// Fire: difficulty 1; lights one square per success.
    Light,
    /// Wind: pushes a target up to 3 squares away 1 square; the table sets the difficulty.
    #[value(alias = "push")]
    WindPush,
    /// Wind: Flight, difficulty 3 + the target's size; the target hovers.
    #[value(alias = "wind-flight")]
    Flight,
    /// Earth: shakes an area up to 3 squares away; the table sets the difficulty.
    #[value(alias = "earth-quake")]
    Quake,
    /// Earth: shifts 1 square of natural earth, difficulty 2 (soft soil) or 6 (hard rock).
    #[value(alias = "earth-shift")]
    Shift,
    /// Water: a spray of water at up to 3 squares, difficulty 4.
    Spray,
    /// Water: touch, difficulty 3; one target breathes water per success this round.
    #[value(alias = "water-breathing")]
    Breathing,
    /// Life: heals one damage, difficulty Range + 3.
    Heal,
    /// Life: stabilizes a defeated character, against the damage beyond 0 HP.
    Stabilize,
    /// Death: damage as Basic Melee (no threshold) or Ranged (Range + 1).
    #[value(alias = "death-damage")]
    Damage,
    /// Death: stuns a target until the caster's next turn, difficulty Range.
    Stun,
    /// Death: raises a corpse to act for the caster, difficulty 4.
    RaiseUndead,
}

impl SpellName {
    /// The library's spell.
    fn spell(self) -> Spell {
        match self {
            SpellName::Blaze => Spell::Blaze,
            SpellName::Light => Spell::Light,
            SpellName::WindPush => Spell::WindPush,
            SpellName::Flight => Spell::WindFlight,
            SpellName::Quake => Spell::Quake,
            SpellName::Shift => Spell::Shift,
            SpellName::Spray => Spell::Spray,
            SpellName::Breathing => Spell::Breathing,
            SpellName::Heal => Spell::Heal,
            SpellName::Stabilize => Spell::Stabilize,
            SpellName::Damage => Spell::Damage,
            SpellName::Stun => Spell::Stun,
            SpellName::RaiseUndead => Spell::RaiseUndead,
        }
    }
}

/// The schools of magic, by the names the command takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchoolName {
    /// Fire magic.
    Fire,
    /// Wind (Air) magic.
    #[value(alias = "air")]
    Wind,
    /// Earth magic.
    Earth,
    /// Water magic.
    Water,
    /// Life magic.
    Life,
    /// Death magic.
    Death,
}

impl SchoolName {
    fn school(self) -> School {
        match self {
            SchoolName::Fire => School::Fire,
            SchoolName::Wind => School::Wind,
            SchoolName::Earth => School::Earth,
            SchoolName::Water => School::Water,
            SchoolName::Life => School::Life,
            SchoolName::Death => School::Death,
        }
    }
}

/// `spell`.
#[derive(Debug, clap::Args)]
pub struct SpellArgs {
    /// The spell cast.
    #[arg(long, value_enum, value_name = "SPELL")]
    pub spell: SpellName,
    /// The caster's rank in the spell's school of magic: the d6 rolled.
    #[arg(long, value_name = "N")]
    pub rank: u32,
    /// The range in squares, for Blaze, Heal and Stun (their difficulty depends on it), a
    /// ranged Death damage (Range + 1; without it, melee) and the spells that reach only so
    /// far (Wind push, Earth quake and Spray 3 squares, Water breathing touch, 0).
    #[arg(long, value_name = "SQUARES", value_parser = clap::value_parser!(u32).range(0..=999))]
    pub range: Option<u32>,
    /// Flight: the target's size (difficulty 3 + size).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub size: Option<i32>,
    /// Earth shift: hard rock (difficulty 6) rather than soft soil (2).
    #[arg(long)]
    pub hard_rock: bool,
    /// Stabilize: the damage the defeated character has taken beyond 0 HP.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=999))]
    pub beyond_zero: Option<u32>,
    /// The difficulty of a spell the rulebook gives none (Wind push, Earth quake), set by
    /// the table: a number, or `easy` (1) or `madness` (6).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = difficulty)]
    pub difficulty: Option<i32>,
    /// The caster's implement bonus (repeatable): 1+2, 2-crit, 1*5, 1D (an artifact of the
    /// school, such as the Eternal Torch for Fire).
    #[arg(long, value_name = "BONUS", value_parser = bonus)]
    pub implement: Vec<Bonus>,
    /// The target's opposing rank, for a spell it may resist (Blaze, Wind push, Flight, Earth
    /// quake, Death damage, Stun): its Defense, the skill the spell is against, or magic of
    /// the same or the opposing school. Each of its dice blocks one success of lesser or
    /// equal value. Without it the target does not oppose.
    #[arg(long, value_name = "N")]
    pub defense: Option<u32>,
    /// The opposing roll's implement bonus (repeatable).
    #[arg(long, value_name = "BONUS", value_parser = bonus, requires = "defense")]
    pub defense_implement: Vec<Bonus>,
    /// The opposing roll is magic of this school (checked: magic opposes magic of the same
    /// or the opposing school, and Life may also oppose a Stun).
    #[arg(long, value_enum, value_name = "SCHOOL", requires = "defense")]
    pub defense_school: Option<SchoolName>,
    #[command(flatten)]
    pub odds: OddsFlag,
}

/// Which of the inputs a spell reads; any other given is refused rather than ignored.
fn check_inputs(a: &SpellArgs, spell: Spell) -> Result<(), CliError> {
    let unused = |option: &str| {
        Err(CliError::bad_input(format_args!(
            "{option} does not apply to {spell}"
        )))
    };
    let uses_range = matches!(
        spell,
        Spell::Blaze
            | Spell::WindPush
            | Spell::Quake
            | Spell::Spray
            | Spell::Breathing
            | Spell::Heal
            | Spell::Damage
            | Spell::Stun
    );
    if a.range.is_some() && !uses_range {
        return unused("--range");
    }
    if a.size.is_some() && spell != Spell::WindFlight {
        return unused("--size");
    }
    if a.hard_rock && spell != Spell::Shift {
        return unused("--hard-rock");
    }
    if a.beyond_zero.is_some() && spell != Spell::Stabilize {
        return unused("--beyond-zero");
    }
    if a.difficulty.is_some() && !matches!(spell, Spell::WindPush | Spell::Quake) {
        return Err(CliError::bad_input(format_args!(
            "--difficulty does not apply to {spell}: its difficulty comes from the rulebook \
             (only the Wind push and the Earth quake take one)"
        )));
    }
    if a.defense.is_some() && !spell.is_opposed() {
        return Err(CliError::bad_input(format_args!(
            "{spell} is not rolled against an opposing roll: --defense does not apply"
        )));
    }
    let missing = match spell {
        Spell::Blaze | Spell::Heal | Spell::Stun if a.range.is_none() => Some(format!(
            "{spell} needs --range SQUARES: its difficulty depends on the range"
        )),
        Spell::WindFlight if a.size.is_none() => {
            Some("Flight needs --size N, the target's size: its difficulty is 3 + size".to_owned())
        }
        Spell::WindPush | Spell::Quake if a.difficulty.is_none() => Some(format!(
            "{spell} needs --difficulty N: the rulebook gives it none, so the table sets it"
        )),
        Spell::Stabilize if a.beyond_zero.is_none() => Some(
            "Stabilize needs --beyond-zero N, the damage the defeated character has taken \
             beyond 0 HP"
                .to_owned(),
        ),
        _ => None,
    };
    if let Some(m) = missing {
        return Err(CliError::bad_input(m));
    }
    if let (Some(r), Some(max)) = (a.range, spell.max_range()) {
        if r > max {
            return Err(CliError::bad_input(if max == 0 {
                format!("{spell} is cast by touch (--range 0), not at {r} square(s)")
            } else {
                format!("{spell} reaches {max} squares at most, not {r}")
            }));
        }
    }
    Ok(())
}

/// Whether magic of `by` may oppose `spell` under `rules`: magic of the same or the
/// opposing school on the wheel, and Life against a Stun.
fn may_oppose(spell: Spell, by: School, rules: &Rules) -> bool {
    rules.wheel.opposes(spell.school(), by) || (spell == Spell::Stun && by == School::Life)
}

/// The headline probability of every spell, one text for all, so that spells compared or
/// swept side by side share it.
const TAKES_EFFECT: &str = "the spell takes effect";

/// What a spell does, in the reports: the note on the outcome of its odds, and the line a
/// roll that took effect ends with.
fn effect_of(spell: Spell, rules: &Rules) -> (&'static str, &'static str) {
    match spell {
        Spell::Blaze => match rules.blaze {
            BlazeHits::One => (
                "outcome: Blaze's hits (one when any die gets through, 1 damage)",
                "Blaze hits",
            ),
            BlazeHits::PerDie => ("outcome: hits through (1 damage each)", "Blaze hits"),
        },
        Spell::Light => ("outcome: successes (one square lit each)", "squares lit"),
        Spell::WindPush => (
            "outcome: hits through (any moves the target 1 square)",
            "the target is pushed 1 square",
        ),
        Spell::WindFlight => (
            "outcome: hits through (the first makes the target hover, each further one a square of controlled movement; else it falls)",
            "the target hovers",
        ),
        Spell::Quake => (
            "outcome: hits through (any shakes the area: knocks the target down, rough terrain)",
            "the area shakes: the target is knocked down, the ground made rough",
        ),
        Spell::Shift => (
            "outcome: successes (any shifts 1 square of natural earth)",
            "1 square of natural earth shifts",
        ),
        Spell::Spray => (
            "outcome: successes (any sprays the target with water)",
            "the target is sprayed with water",
        ),
        Spell::Breathing => (
            "outcome: successes (one target breathes water this round per success)",
            "targets breathe water this round",
        ),
        Spell::Heal => (
            "outcome: successes (a successful cast heals 1 damage)",
            "1 damage healed",
        ),
        Spell::Stabilize => (
            "outcome: successes (a successful roll stabilizes the defeated character)",
            "the defeated character is stabilized",
        ),
        Spell::Damage => ("outcome: hits through (1 damage each)", "1 damage a hit"),
        Spell::Stun => (
            "outcome: hits through (any stuns the target until the caster's next turn)",
            "the target is stunned until the caster's next turn",
        ),
        Spell::RaiseUndead => (
            "outcome: successes (a successful cast raises a corpse to act for the caster)",
            "a corpse rises",
        ),
    }
}

/// `dice swimclass spell`.
///
/// # Errors
/// [`CliError::BadInput`] for a spell's missing or inapplicable input, a school that may not
/// oppose it, or a roll the game refuses.
pub fn run(a: &SpellArgs, rules: Rules, ctx: &Ctx) -> Result<Report, CliError> {
    let cmd = "swimclass spell";
    let spell = a.spell.spell();
    check_inputs(a, spell)?;
    if let Some(by) = a.defense_school {
        if !may_oppose(spell, by.school(), &rules) {
            return Err(CliError::bad_input(format_args!(
                "{} may not oppose {spell} ({}): magic opposes only magic of the same or the \
                 opposing school on the magic wheel (--rule wheel=… sets the wheel)",
                by.school(),
                spell.school()
            )));
        }
    }
    let input = SpellInput {
        range: a.range,
        size: a.size,
        hard_rock: a.hard_rock,
        beyond_zero: a.beyond_zero,
        given: a.difficulty,
    };
    let difficulty = spell.difficulty(&input)?;
    let dice = skill_dice(a.rank, &a.implement, 0)?;
    let school = spell.school();
    let (note, effect) = effect_of(spell, &rules);
    let difficulty_json = if difficulty == NO_THRESHOLD {
        Value::Null
    } else {
        json!(difficulty)
    };
    let undead_sheet = undead(a.rank);
    let undead_json = json!({
        "death_magic": undead_sheet.rank(Skill::Magic(School::Death)),
        "basic_skills": undead_sheet.rank(Skill::BasicDefense),
        "hp": undead_sheet.max_hp(),
    });
    let undead_text = format!(
        "the undead acts for the caster with rank {} in the basic skills ({} HP) and Death magic {}",
        undead_sheet.rank(Skill::BasicDefense),
        undead_sheet.max_hp(),
        undead_sheet.rank(Skill::Magic(School::Death))
    );
    let fill = |fields: &mut serde_json::Map<String, Value>| {
        fields.insert("spell".into(), json!(spell));
        fields.insert("school".into(), json!(school));
        fields.insert("rank".into(), json!(a.rank));
        fields.insert("difficulty".into(), difficulty_json.clone());
        fields.insert("range".into(), json!(a.range));
        fields.insert("implements".into(), implements_json(&a.implement));
        if spell.is_opposed() {
            fields.insert("defense".into(), json!(a.defense));
            fields.insert(
                "defense_implements".into(),
                implements_json(&a.defense_implement),
            );
            fields.insert(
                "defense_school".into(),
                json!(a.defense_school.map(SchoolName::school)),
            );
        }
        if spell == Spell::RaiseUndead {
            fields.insert("undead".into(), undead_json.clone());
        }
    };
    if spell.is_opposed() {
        let def = match a.defense {
            Some(d) => Some(skill_dice(d, &a.defense_implement, 0)?),
            None => None,
        };
        let roll = OpposedRoll::new(dice.clone(), difficulty, def.clone(), rules)?;
        let title = format!("{spell} ({school}): {roll}");
        let blaze = spell == Spell::Blaze;
        let hits = |h: u32| if blaze { blaze_hits(h, &rules) } else { h };
        if a.odds.wanted() {
            let mut o = opposed_odds(
                cmd,
                title,
                &roll,
                def.is_some(),
                Effect {
                    note,
                    key: "p_success",
                    success: TAKES_EFFECT,
                    skill: &school.to_string(),
                },
                hits,
                &a.odds,
                ctx,
            )?;
            fill(&mut o.fields);
            return Ok(Report::Odds(o));
        }
        let (mut report, r) = opposed_rolled(cmd, title, &roll, &dice, def.as_ref(), &rules, ctx)?;
        let done = hits(r.outcome.hits);
        if blaze {
            let s = if done == 1 { "" } else { "s" };
            report = report
                .line(format!("Blaze: {done} hit{s}"))
                .field("blaze_hits", done);
        } else if spell == Spell::WindFlight {
            report = report.line(match r.outcome.hits {
                0 => "the target falls".to_owned(),
                h => format!(
                    "the target hovers, {} square(s) of controlled movement",
                    h - 1
                ),
            });
        } else if spell == Spell::Damage {
            report = report
                .line(format!("{} damage", r.outcome.hits))
                .field("damage", r.outcome.hits);
        } else if r.outcome.hits > 0 {
            report = report.line(effect.to_owned());
        }
        report = report.field(
            "outcome",
            if r.outcome.succeeded {
                "success"
            } else {
                "failure"
            },
        );
        fill(&mut report.fields);
        return Ok(Report::Roll(report));
    }
    let roll = match spell {
        // The same test as the dying character's own roll, with the caster's Life dice.
        Spell::Stabilize => {
            let beyond = a.beyond_zero.unwrap_or(1);
            let dying = Health {
                defense_rank: 0,
                hp: -i64::from(beyond),
                stabilize_criticals: 0,
                stable: false,
            };
            Stabilize::new(dice.clone(), &dying, &rules)?.task().clone()
        }
        _ => TaskRoll::new(dice.clone(), Task::single(difficulty)?, rules)?,
    };
    let title = format!("{spell} ({school}): {roll}");
    if a.odds.wanted() {
        let mut o = task_odds(
            cmd,
            title,
            &roll,
            Effect {
                note,
                key: "p_success",
                success: TAKES_EFFECT,
                skill: &school.to_string(),
            },
            &a.odds,
            ctx,
        )?;
        match spell {
            Spell::RaiseUndead => o = o.footnote(undead_text.clone()),
            Spell::Heal => {
                o = o.field("heals", HEAL_PER_CAST);
            }
            _ => {}
        }
        fill(&mut o.fields);
        return Ok(Report::Odds(o));
    }
    let (mut report, r) = task_rolled(cmd, title, &roll, &rules, ctx)?;
    if r.outcome.succeeded {
        report = match spell {
            Spell::Light => report.line(format!("{} square(s) lit", r.outcome.successes)),
            Spell::Breathing => report.line(format!(
                "{} target(s) breathe water this round",
                r.outcome.successes
            )),
            Spell::Heal => report
                .line(format!("{HEAL_PER_CAST} damage healed"))
                .field("heals", HEAL_PER_CAST),
            Spell::RaiseUndead => report.line(format!("a corpse rises: {undead_text}")),
            _ => report.line(effect.to_owned()),
        };
    }
    fill(&mut report.fields);
    Ok(Report::Roll(report))
}
