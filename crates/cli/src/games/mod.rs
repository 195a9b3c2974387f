//! One module per game, each a clap `Args` struct and a `run` function:
//!
//! ```text
//! #[derive(clap::Args)] pub struct Args { … }          // the game's subcommands and terms
//! pub fn run(args: Args, ctx: &Ctx) -> Result<Report, CliError>
//! ```
//!
//! `run` rolls (with `ctx.seed().rng()`, reporting the seed) unless the roll's `--odds` or
//! `--monte-carlo` flag ([`OddsFlag`]) asks for the odds (`a.odds.law(&mechanic, ctx)`, then
//! `law.decorate(report)`); it returns a [`Report`] and the
//! shared machinery prints it as text or JSON. Errors from the game crate convert into
//! [`CliError::BadInput`] (exit code 2) through `From` impls in `crate::error`.
//!
//! Adding a game (`swimclass`, say) takes one new file and a few one-line edits:
//!
//! 1. `src/games/swimclass.rs`: `Args` (a subcommand enum, one variant per core roll, each
//!    with the game's terms as `--long` options and a flattened [`OddsFlag`]) and `run`.
//!    Roll: resolve the seed once (`let seed = ctx.seed();`), roll with `seed.rng()`, and
//!    build a `RollReport::new("swimclass task", seed)` with text `line`s (every die) and JSON
//!    `field`s. Odds: `OddsReport::new(cmd, title)` then `.numeric(&dist)` for a `Dist` of
//!    numbers or `.named(&dist, |o, p| Row::new(label_of(o), p))` for named outcomes, plus
//!    `.summary("p_success", "success", p)` and `.field(…)` for the inputs.
//! 2. `pub mod swimclass;` below.
//! 3. In `main.rs`: a `Command` variant `#[command(name = "swimclass")]
//!    Swimclass(games::swimclass::Args)` and its arm in `run`.
//! 4. In `error.rs`: `impl From<dice_swimclass::Error> for CliError` (bad input, exit 2).
//! 5. In `Cargo.toml`: `dice-swimclass = { workspace = true, features = ["serde"] }`.
//!
//! [`Report`]: crate::report::Report
//! [`CliError::BadInput`]: crate::error::CliError::BadInput

pub mod fight;
pub mod robots_and_rapiers;
pub mod scratch_rps;
pub mod shapers_and_bots;
pub mod shapers_percentile;
pub mod swimclass;

use dice_core::RollRecord;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::CliError;

/// `--rule KEY=VALUE`: switch one of the game's rulings (a field of its `Rules`) away from
/// the project's default. Flattened into every game's `Args`; repeatable.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct RuleFlags {
    /// Change a ruling: a field of the game's `Rules` and its value as JSON (`true`, `3`,
    /// `"Lower"`; a bare word is read as a string). Repeatable. An unknown KEY lists them all
    /// with their defaults.
    #[arg(long = "rule", value_name = "KEY=VALUE", global = true)]
    pub rules: Vec<String>,
}

impl RuleFlags {
    /// The game's rules: the default with every `--rule` applied, through the `Rules`
    /// type's serde form (so every knob the library has is reachable, checked by the same
    /// deserializer a program storing rules would use).
    ///
    /// # Errors
    /// [`CliError::BadInput`] for an item without `=`, an unknown key (the message lists the
    /// known ones with their defaults) or a value the field does not take.
    pub fn apply<R>(&self) -> Result<R, CliError>
    where
        R: Default + Serialize + DeserializeOwned,
    {
        if self.rules.is_empty() {
            return Ok(R::default());
        }
        let mut value = serde_json::to_value(R::default())
            .map_err(|e| CliError::Failure(format!("the default rules: {e}")))?;
        let Some(fields) = value.as_object_mut() else {
            return Err(CliError::Failure(
                "the rules are not a JSON object".to_owned(),
            ));
        };
        let known: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("  {k} (default {v})"))
            .collect();
        for item in &self.rules {
            let Some((key, raw)) = item.split_once('=') else {
                return Err(CliError::bad_input(format!(
                    "--rule takes KEY=VALUE, not `{item}`"
                )));
            };
            let key = key.trim().replace('-', "_");
            let Some(slot) = fields.get_mut(&key) else {
                return Err(CliError::BadInput {
                    message: format!(
                        "no ruling named `{key}`; the rules of this game and their defaults are:"
                    ),
                    detail: known,
                });
            };
            let raw = raw.trim();
            *slot = serde_json::from_str(raw)
                .unwrap_or_else(|_| serde_json::Value::String(raw.to_owned()));
        }
        serde_json::from_value(value).map_err(|e| CliError::BadInput {
            message: format!(
                "a --rule value does not fit: {e}; the rules of this game and their defaults are:"
            ),
            detail: known,
        })
    }
}

pub use crate::mc::OddsFlag;

/// The faces of a record, as `u8` for the games' pure forms (d6 and d100 faces fit).
pub fn faces_u8(record: &RollRecord) -> Vec<u8> {
    record
        .dice
        .iter()
        .map(|d| u8::try_from(d.natural).unwrap_or(u8::MAX))
        .collect()
}

/// The faces of a streak, those that continued it marked `*`: `[5*, 6*, 1]`.
pub fn streak_text(record: &RollRecord) -> String {
    let faces: Vec<String> = record
        .dice
        .iter()
        .map(|d| {
            if d.flags.success {
                format!("{}*", d.natural)
            } else {
                d.natural.to_string()
            }
        })
        .collect();
    format!("[{}]", faces.join(", "))
}

/// The report of a mechanic with numeric outcomes: rolled (`title`, then `→ outcome`),
/// or its exact or simulated law with `--odds`/`--monte-carlo`. `fields` are the inputs,
/// added to the JSON either way; `extra` adds headline probabilities to the odds.
///
/// ```text
/// numeric_mechanic("robots-and-rapiers action-points", title, &bap, &a.odds, ctx, fields, |o, _| o)
/// ```
///
/// # Errors
/// [`CliError::BadInput`] when the exact law is refused, or for a bad Monte Carlo run.
pub fn numeric_mechanic<M>(
    cmd: &str,
    title: String,
    mechanic: &M,
    odds: &OddsFlag,
    ctx: &crate::Ctx,
    fields: Vec<(&str, serde_json::Value)>,
    extra: impl FnOnce(
        crate::report::OddsReport,
        &dice_core::Dist<M::Outcome>,
    ) -> crate::report::OddsReport,
) -> Result<crate::report::Report, CliError>
where
    M: dice_core::Exact + Sync,
    M::Outcome: dice_core::Numeric
        + Send
        + std::hash::Hash
        + Ord
        + Clone
        + Serialize
        + DeserializeOwned
        + 'static,
{
    mechanic_report(cmd, title, mechanic, odds, ctx, fields, |o, d| {
        extra(o.numeric(d), d)
    })
}

/// The report of a mechanic with named outcomes (each row labelled by the outcome's
/// `Display`), as [`numeric_mechanic`].
///
/// ```text
/// named_mechanic("swimclass stabilize", title, &stabilize, &a.odds, ctx, fields, |o, _| o)
/// ```
///
/// # Errors
/// As [`numeric_mechanic`].
pub fn named_mechanic<M>(
    cmd: &str,
    title: String,
    mechanic: &M,
    odds: &OddsFlag,
    ctx: &crate::Ctx,
    fields: Vec<(&str, serde_json::Value)>,
    extra: impl FnOnce(
        crate::report::OddsReport,
        &dice_core::Dist<M::Outcome>,
    ) -> crate::report::OddsReport,
) -> Result<crate::report::Report, CliError>
where
    M: dice_core::Exact + Sync,
    M::Outcome: Send + std::hash::Hash + Ord + Clone + Serialize + DeserializeOwned + 'static,
{
    mechanic_report(cmd, title, mechanic, odds, ctx, fields, |o, d| {
        extra(
            o.named(d, |x, p| {
                crate::report::Row::new(crate::render::label_of(x), p)
            }),
            d,
        )
    })
}

fn mechanic_report<M>(
    cmd: &str,
    title: String,
    mechanic: &M,
    odds: &OddsFlag,
    ctx: &crate::Ctx,
    fields: Vec<(&str, serde_json::Value)>,
    rows: impl FnOnce(
        crate::report::OddsReport,
        &dice_core::Dist<M::Outcome>,
    ) -> crate::report::OddsReport,
) -> Result<crate::report::Report, CliError>
where
    M: dice_core::Exact + Sync,
    M::Outcome: Send + std::hash::Hash + Ord + Clone + Serialize + DeserializeOwned + 'static,
{
    use crate::report::{OddsReport, Report, RollReport};
    if odds.wanted() {
        let law = odds.law(mechanic, ctx)?;
        let mut o = law.decorate(rows(OddsReport::new(cmd, title), &law.dist));
        for (k, v) in fields {
            o = o.field(k, v);
        }
        return Ok(Report::Odds(o));
    }
    let seed = ctx.seed();
    let outcome = dice_core::Roll::roll(mechanic, &mut seed.rng());
    let value = serde_json::to_value(&outcome)
        .map_err(|e| CliError::Failure(format!("cannot write the outcome: {e}")))?;
    let mut r = RollReport::new(cmd, seed)
        .line(title)
        .line(format!("→ {outcome}"))
        .field("outcome", value);
    for (k, v) in fields {
        r = r.field(k, v);
    }
    Ok(Report::Roll(r))
}
