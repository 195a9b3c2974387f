//! `dice <game> fight SCENE`: what every game's fight shares. A game reads its scene file
//! into its own encounter (an [`Encounter`] of its crate) and hands it here with a way to
//! describe a state; this module plays it, gives its exact odds or estimates them.

use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use dice_core::{Encounter, EncounterLimits, Ending, Rng, Roll, end_law, play};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::Ctx;
use crate::error::CliError;
use crate::expr::{DEFAULT_TRIALS, MAX_TRIALS};
use crate::report::{Interval, Label, Method, OddsReport, Report, RollReport, Row};

/// The most rounds a played or simulated fight runs before it is called off.
pub const MAX_ROUNDS: u32 = 1_000;

/// The options of every game's `fight` subcommand.
#[derive(Debug, clap::Args)]
pub struct FightArgs {
    /// The scene: a TOML or JSON file describing the combatants in the game's terms (see
    /// docs/cli.md; the rulebook's own example ships in the game crate's `scenes/` folder).
    #[arg(value_name = "SCENE")]
    pub scene: PathBuf,
    /// Show the exact odds of the whole fight (who wins, the rounds it takes) instead of
    /// playing it.
    #[arg(long, conflicts_with = "monte_carlo")]
    pub odds: bool,
    /// Estimate the same odds by playing the fight many times.
    #[arg(long, visible_alias = "mc")]
    pub monte_carlo: bool,
    /// How many fights to play for --monte-carlo.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_TRIALS / 10,
        requires = "monte_carlo",
        value_parser = clap::value_parser!(u64).range(1..=MAX_TRIALS)
    )]
    pub trials: u64,
}

/// Reads a scene file: TOML unless its name ends in `.json`.
///
/// # Errors
/// [`CliError::BadInput`] when the file cannot be read or does not describe a scene.
pub fn load_scene<T: DeserializeOwned>(path: &Path) -> Result<T, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::bad_input(format_args!(
            "cannot read the scene {}: {e}",
            path.display()
        ))
    })?;
    let json = path
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("json"));
    if json {
        serde_json::from_str(&text).map_err(|e| {
            CliError::bad_input(format_args!(
                "the scene {} is not valid: {e}",
                path.display()
            ))
        })
    } else {
        toml::from_str(&text).map_err(|e| {
            CliError::bad_input(format_args!(
                "the scene {} is not valid: {e}",
                path.display()
            ))
        })
    }
}

/// Plays `encounter`, or with `--odds` / `--monte-carlo` gives the odds of its end.
/// `describe` is one line of text for a state (every combatant's health and status); `end`
/// names an end for a person and `end_key` for JSON.
///
/// # Errors
/// [`CliError::BadInput`] when the exact odds are refused for cost (with a hint to
/// estimate them), or for a bad `--trials`.
pub fn run<E>(
    command: &str,
    title: &str,
    encounter: E,
    args: &FightArgs,
    ctx: &Ctx,
    describe: impl Fn(&E::State) -> String,
    end: impl Fn(&E::End) -> String,
) -> Result<Report, CliError>
where
    E: Encounter + Sync,
    E::End: std::fmt::Debug
        + std::fmt::Display
        + std::hash::Hash
        + Send
        + serde::Serialize
        + serde::de::DeserializeOwned
        + 'static,
{
    if args.odds {
        return exact(command, title, &encounter, &end);
    }
    if args.monte_carlo {
        return monte_carlo(command, title, encounter, args.trials, ctx, &end);
    }
    let seed = ctx.seed();
    let played = play(&encounter, &mut seed.rng(), MAX_ROUNDS);
    let mut report = RollReport::new(command, seed).line(title.to_owned());
    let mut rounds = Vec::new();
    for (i, s) in played.states.iter().enumerate() {
        let text = describe(s);
        if i == 0 {
            report = report.line(format!("start: {text}"));
        } else {
            // What happened in the round, as the game tells it, then where it left the fight.
            report = report.line(format!("round {i}:"));
            for told in played.told.get(i - 1).into_iter().flatten() {
                report = report.line(format!("  {told}"));
            }
            report = report.line(format!("  => {text}"));
        }
        rounds.push(json!(text));
    }
    let told: Vec<Value> = played.told.iter().map(|lines| json!(lines)).collect();
    let outcome = match &played.end {
        Some(e) => format!("{} after {} rounds", end(e), played.rounds()),
        None => format!("still going after {} rounds: called off", played.rounds()),
    };
    Ok(Report::Roll(
        report
            .line(outcome)
            .field("states", Value::Array(rounds))
            .field("told", Value::Array(told))
            .field("rounds", played.rounds())
            .field(
                "end",
                played.end.as_ref().map_or(Value::Null, |e| json!(end(e))),
            ),
    ))
}

fn exact<E: Encounter>(
    command: &str,
    title: &str,
    encounter: &E,
    end: &impl Fn(&E::End) -> String,
) -> Result<Report, CliError> {
    let law = end_law(encounter, EncounterLimits::default()).map_err(|e| CliError::BadInput {
        message: format!("the exact odds of this fight: {e}"),
        detail: vec!["hint: estimate them with --monte-carlo".to_owned()],
    })?;
    let mut report = OddsReport::new(command, title.to_owned())
        .named(&law.ends, |o, p| Row::new(Label::named(&end(o), end(o)), p))
        .field("states", law.states as u64);
    // Each combatant's health at the end: the chance of still standing, the mean, and (in
    // JSON) the whole law.
    let mut health = Vec::new();
    let down_at = encounter.down_at();
    for (name, dist) in &law.health {
        let standing = dist.probability_where(|&h| h > down_at);
        let ended = dist.total();
        let mean = if ended > 0.0 {
            dist.iter().map(|(&h, p)| h as f64 * p).sum::<f64>() / ended
        } else {
            0.0
        };
        let (lo, hi) = (dist.outcomes().first(), dist.outcomes().last());
        if let (Some(lo), Some(hi)) = (lo, hi) {
            report = report.footnote(format!(
                "{name} at the end: standing {:.4}%, health {lo} to {hi}, mean {mean:.4}",
                100.0 * standing
            ));
        }
        let law: Vec<Value> = dist
            .iter()
            .map(|(h, p)| json!({"health": h, "probability": p}))
            .collect();
        health.push(json!({
            "name": name,
            "standing": standing,
            "down_at": down_at,
            "mean": mean,
            "distribution": law,
        }));
    }
    if !health.is_empty() {
        report = report.field("health", Value::Array(health));
    }
    if law.ends.tail() > 0.0 {
        report = report.note(format!(
            "{:.4}% of fights never end (no side can win from where they get stuck)",
            100.0 * law.ends.tail()
        ));
    }
    report = match law.expected_rounds {
        Some(r) => report
            .field("expected_rounds", r)
            .footnote(format!("expected rounds {r:.4}")),
        None => report.field("expected_rounds", Value::Null),
    };
    let rounds: Vec<Value> = law
        .rounds
        .iter()
        .map(|(r, p)| json!({"rounds": r, "probability": p}))
        .collect();
    let median = law.rounds.quantile(0.5);
    if let Some(m) = median {
        report = report.footnote(format!(
            "median rounds {m}; the fight lasts at most {} rounds with 99% chance, {} states",
            law.rounds.quantile(0.99).unwrap_or(m),
            law.states
        ));
    }
    Ok(Report::Odds(report.field("rounds", Value::Array(rounds))))
}

/// How one simulated fight went: how it ended and after how many rounds. A Monte Carlo
/// run counts these, so that it estimates the distribution of the rounds as well as the
/// chance of each end.
///
/// ```text
/// Fought { end: Ending::Ended(…Harro wins…), rounds: 3 }   // shown as "Harro wins after 3 rounds"
/// ```
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Fought<O> {
    /// How it ended (or that it was still going at the round cap).
    pub end: Ending<O>,
    /// The rounds played.
    pub rounds: u32,
}

impl<O: std::fmt::Display> std::fmt::Display for Fought<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} after {} rounds", self.end, self.rounds)
    }
}

/// An encounter played to its end (at most `max_rounds` rounds), its outcome the end and the
/// rounds it took: the same rounds as [`play`] counts and as the exact law's `rounds`.
struct Timed<E> {
    encounter: E,
    max_rounds: u32,
}

impl<E: Encounter> Roll for Timed<E>
where
    E::End: std::fmt::Debug + std::fmt::Display + std::hash::Hash,
{
    type Outcome = Fought<E::End>;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Fought<E::End> {
        let mut state = self.encounter.start();
        for rounds in 0..self.max_rounds {
            if let Some(end) = self.encounter.end(&state) {
                return Fought {
                    end: Ending::Ended(end),
                    rounds,
                };
            }
            state = self.encounter.play_round(&state, rng);
        }
        Fought {
            end: self
                .encounter
                .end(&state)
                .map_or(Ending::Capped, Ending::Ended),
            rounds: self.max_rounds,
        }
    }
}

fn monte_carlo<E>(
    command: &str,
    title: &str,
    encounter: E,
    trials: u64,
    ctx: &Ctx,
    end: &impl Fn(&E::End) -> String,
) -> Result<Report, CliError>
where
    E: Encounter + Sync,
    E::End: std::fmt::Debug
        + std::fmt::Display
        + std::hash::Hash
        + Send
        + serde::Serialize
        + serde::de::DeserializeOwned
        + 'static,
{
    let seed = ctx.seed();
    let run = Timed {
        encounter,
        max_rounds: MAX_ROUNDS,
    };
    let est = crate::mc::simulate(&run, trials, seed, ctx)?;
    let mut report = OddsReport::new(command, title.to_owned());
    // The ends, each fight counted once whatever its length.
    let mut ends: Vec<Ending<E::End>> =
        est.estimates().into_iter().map(|x| x.outcome.end).collect();
    ends.dedup();
    report.rows = ends
        .iter()
        .map(|e| {
            let name = match e {
                Ending::Ended(e) => end(e),
                Ending::Capped => format!("still going after {MAX_ROUNDS} rounds"),
            };
            let x = est.probability_where((), |o| &o.end == e);
            Row {
                interval: Some(Interval {
                    count: x.count,
                    low: x.low,
                    high: x.high,
                }),
                ..Row::new(Label::named(&name, name.clone()), x.probability)
            }
        })
        .collect();
    // The rounds, whatever the end.
    let mut by_rounds: BTreeMap<u32, u64> = BTreeMap::new();
    for x in est.estimates() {
        *by_rounds.entry(x.outcome.rounds).or_default() += x.count;
    }
    let n = est.trials();
    let rounds: Vec<Value> = by_rounds
        .keys()
        .map(|&r| {
            let x = est.probability_where((), |o| o.rounds == r);
            json!({"rounds": r, "probability": x.probability, "count": x.count, "low": x.low, "high": x.high})
        })
        .collect();
    if n > 0 {
        let nf = n as f64;
        let mean = by_rounds
            .iter()
            .map(|(&r, &c)| f64::from(r) * c as f64)
            .sum::<f64>()
            / nf;
        let var = by_rounds
            .iter()
            .map(|(&r, &c)| (f64::from(r) - mean).powi(2) * c as f64)
            .sum::<f64>()
            / (nf - 1.0).max(1.0);
        let se = (var / nf).sqrt();
        let quantile = |q: f64| {
            let mut acc = 0u64;
            by_rounds.iter().find_map(|(&r, &c)| {
                acc += c;
                (acc as f64 >= q * nf).then_some(r)
            })
        };
        report = report
            .field("expected_rounds", mean)
            .field("expected_rounds_standard_error", se)
            .footnote(format!(
                "expected rounds {mean:.4} (standard error {se:.4})"
            ));
        if let (Some(m), Some(p99)) = (quantile(0.5), quantile(0.99)) {
            report = report.footnote(format!(
                "median rounds {m}; {p99} rounds or fewer in 99% of the fights played"
            ));
        }
    }
    if est.cancelled() {
        report.notes.push(format!(
            "stopped by Ctrl-C after {} of {trials}",
            crate::progress::trials_text(est.trials())
        ));
    }
    report.method = Method::MonteCarlo {
        seed,
        trials: est.trials(),
        confidence: est.confidence(),
        standard_error: None,
    };
    Ok(Report::Odds(report.field("rounds", Value::Array(rounds))))
}
