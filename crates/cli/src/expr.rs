//! `dice roll` and `dice odds`: dice expressions (dice-notation), rolled with every die
//! shown, or asked for their exact or simulated distribution.

use std::collections::BTreeSet;

use dice_notation::{Dialect, Expression, Outcome, RollResult};
use serde_json::Value;

use crate::Ctx;
use crate::error::CliError;
use crate::report::{Interval, Label, Method, OddsReport, Report, RollReport, Row};

/// Trials of a Monte Carlo run unless `--trials` says otherwise.
pub const DEFAULT_TRIALS: u64 = 1_000_000;

/// The most trials `--trials` accepts.
pub const MAX_TRIALS: u64 = 1_000_000_000_000;

/// Confidence level of the Monte Carlo intervals.
pub const CONFIDENCE: f64 = 0.95;

const EXPRESSION_HELP: &str = "The dice expression, e.g. 4d6kh3, 2d6+3, 10d10>=8f1, '1d20+5 vs 15'. \
Words are joined with spaces, so `dice roll 1d20 + 5` works unquoted; \
put `--` before an expression that starts with `-`";

/// `dice roll`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Roll a dice expression and show every die",
    long_about = "Roll a dice expression once and show every die: dropped dice in parentheses \
(2), dice added by an explosion with a leading +, a die that exploded with !, rerolled faces \
before the one that stood (1r4), clamped values after →, successes marked * and failures f. \
Then the result: a number, or for a `vs` comparison below / equal / above.\n\n\
The grammar (NdS, dF, d%, keep/drop khN klN dhN dlN, explode ! !! !>=N capN, reroll rN roN, \
success counts >=N with failures fN, min/max clamps, streak(…), + - * /, min(), max(), vs) \
is in docs/notation.md.",
    after_help = "Examples:\n  dice roll 4d6kh3\n  dice roll '10d10>=8f1' --seed 7\n  dice roll 1d20 + 5 vs 15 --json\n\nQuote an expression that holds >, <, !, *, ( or ): the shell reads them itself."
)]
pub struct RollArgs {
    #[arg(value_name = "EXPR", required = true, num_args = 1.., help = EXPRESSION_HELP)]
    pub expression: Vec<String>,
    #[arg(long, value_name = "DIALECT", default_value = "default", value_parser = dialect_parser(), help = DIALECT_HELP)]
    pub dialect: Dialect,
}

/// `dice odds`.
#[derive(Debug, clap::Args)]
#[command(
    about = "The odds of a dice expression: exact, or simulated with --monte-carlo",
    long_about = "The distribution of a dice expression as a table: each outcome's chance, the \
chance of at least that much, and a bar chart; then the mean and standard deviation. A `vs` \
comparison gives the chances of below / equal / above.\n\n\
Exact odds are computed, not sampled. Expressions too costly to compute exactly (huge \
products, keep/drop on exploding dice that are also rerolled once (4d6ro1!kh3) or rerolled \
and penetrating (4d6r1!pkh3); 4d6r1!kh3 and 4d6!pkh3 are exact) are refused with a message: simulate them with \
--monte-carlo, which rolls --trials times from --seed and gives each outcome a 95% \
confidence interval (Wilson). Runs over a second show a progress bar on stderr.",
    after_help = "Examples:\n  dice odds 4d6kh3\n  dice odds '1d20+5 vs 15'\n  dice odds '5d6!kh3' --monte-carlo --trials 200000 --seed 1\n  dice odds 2d6 --json"
)]
pub struct OddsArgs {
    #[arg(value_name = "EXPR", required = true, num_args = 1.., help = EXPRESSION_HELP)]
    pub expression: Vec<String>,
    #[arg(long, value_name = "DIALECT", default_value = "default", value_parser = dialect_parser(), help = DIALECT_HELP)]
    pub dialect: Dialect,
    /// Estimate the odds by rolling many times instead of computing them exactly.
    #[arg(long, visible_alias = "mc")]
    pub monte_carlo: bool,
    /// How many times to roll for --monte-carlo.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_TRIALS,
        requires = "monte_carlo",
        value_parser = clap::value_parser!(u64).range(1..=MAX_TRIALS)
    )]
    pub trials: u64,
}

const DIALECT_HELP: &str = "Read the expression as another roller writes it: roll20 (`>4` \
includes 4, `r` rerolls until, `ro` once), foundry (`r` rerolls once, `rr` until, `x`, `cs`, \
`df`, `sf`, `ms`), d20 (Avrae: `k3` keeps the 3s, `kh3` the highest, `p` drops, `ra`, `e`, \
`mi`, `ma`, comparisons as 1/0) or rpg-dice-roller (`!p`, `u`, `!=`, `**`, `%`); see \
docs/notation.md";

/// `--dialect`: one of the dialects' names.
fn dialect_parser() -> impl clap::builder::TypedValueParser<Value = Dialect> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Dialect::ALL.map(Dialect::name))
        .map(|name| name.parse::<Dialect>().unwrap_or_default())
}

/// Parses the words of an expression written in `dialect`; an error that another dialect
/// would have read says which.
fn parse_in(words: &[String], dialect: Dialect) -> Result<Expression, CliError> {
    Expression::parse_with(&words.join(" "), dialect).map_err(|e| {
        let hint = e.hint().map(|h| format!("hint: {h}"));
        let mut err = CliError::from(e);
        if let (CliError::BadInput { detail, .. }, Some(hint)) = (&mut err, hint) {
            detail.push(hint);
        }
        err
    })
}

/// `dice roll EXPR`.
pub fn roll(args: RollArgs, ctx: &Ctx) -> Result<Report, CliError> {
    let e = parse_in(&args.expression, args.dialect)?;
    let seed = ctx.seed();
    let result = e.roll(&mut seed.rng());
    let mut report = RollReport::new("roll", seed)
        .line(result.to_string())
        .line(format!("result: {}", result.outcome));
    if let Some(key) = legend(&result) {
        report = report.line(key);
    }
    report = report.field("expression", e.to_string());
    let value = serde_json::to_value(&result)
        .map_err(|err| CliError::Failure(format!("cannot write the roll as JSON: {err}")))?;
    if let Value::Object(fields) = value {
        for (k, v) in fields {
            report = report.field(&k, v);
        }
    }
    Ok(Report::Roll(report))
}

/// `key: (n) dropped, …` for the marks that appear in the roll, or `None`.
fn legend(r: &RollResult) -> Option<String> {
    let mut marks = BTreeSet::new();
    for d in r.terms.iter().flat_map(|t| &t.dice) {
        if !d.kept {
            marks.insert((0, "(n) dropped"));
        }
        if d.added {
            marks.insert((1, "+n added by an explosion"));
        }
        if d.exploded {
            marks.insert((2, "n! exploded"));
        }
        if d.capped {
            marks.insert((3, "ncap stopped by the explosion cap"));
        }
        if !d.rerolled.is_empty() {
            marks.insert((4, "arb a rerolled into b"));
        }
        if d.raw != d.natural {
            marks.insert((5, "a+b=c compounded"));
        }
        if d.clamped {
            marks.insert((6, "a→b clamped"));
        }
        if d.success {
            marks.insert((7, "n* success"));
        }
        if d.failure {
            marks.insert((8, "nf failure"));
        }
    }
    if marks.is_empty() {
        return None;
    }
    let list: Vec<&str> = marks.into_iter().map(|(_, m)| m).collect();
    Some(format!("key: {}", list.join(", ")))
}

fn outcome_label(o: &Outcome) -> Label {
    match o {
        Outcome::Number(n) => Label::Number(*n),
        Outcome::Versus(v) => Label::key(&v.to_string()),
        Outcome::Fraction(r) => Label::named(&r.to_string(), o.to_string()),
    }
}

/// `dice odds EXPR`.
///
/// Several expressions that do not read as one (`dice odds 4d6kh3 3d6 2d6+6`) are compared
/// side by side, one column group each.
pub fn odds(args: OddsArgs, ctx: &Ctx) -> Result<Report, CliError> {
    let e = match parse_in(&args.expression, args.dialect) {
        Ok(e) => e,
        Err(err) if args.expression.len() > 1 => {
            // Each word an expression of its own: compare them.
            let Ok(each) = args
                .expression
                .iter()
                .map(|w| parse_in(std::slice::from_ref(w), args.dialect))
                .collect::<Result<Vec<_>, _>>()
            else {
                return Err(err);
            };
            let mut items = Vec::with_capacity(each.len());
            for e in &each {
                items.push((e.to_string(), one_odds(e, &args, ctx)?));
                let stopped = crate::progress::interrupted();
                if crate::sweep::stop_comparing(&mut items, stopped, each.len()) {
                    break;
                }
            }
            return Ok(Report::Compare(crate::report::CompareReport {
                command: "odds".to_owned(),
                varies: "expression".to_owned(),
                items,
            }));
        }
        Err(err) => return Err(err),
    };
    Ok(Report::Odds(one_odds(&e, &args, ctx)?))
}

/// The odds of one expression, exact or simulated as `args` asks.
fn one_odds(e: &Expression, args: &OddsArgs, ctx: &Ctx) -> Result<OddsReport, CliError> {
    let report = if args.monte_carlo {
        monte_carlo(e, args.trials, ctx)?
    } else {
        exact(e)?
    };
    Ok(report
        .field("expression", e.to_string())
        .field("comparison", e.is_comparison()))
}

fn exact(e: &Expression) -> Result<OddsReport, CliError> {
    let dist = e.distribution().map_err(|err| CliError::BadInput {
        message: err.to_string(),
        detail: vec!["hint: estimate the odds with --monte-carlo".to_owned()],
    })?;
    let title = e.to_string();
    Ok(if e.is_comparison() {
        OddsReport::new("odds", title).named(&dist, |o, p| Row::new(outcome_label(o), p))
    } else if dist.outcomes().iter().any(|o| o.as_number().is_none()) {
        // Fractions (the dialects' exact division): one row each, in order of value.
        let moments = format!(
            "mean {:.4}, standard deviation {:.4}",
            dist.mean(),
            dist.std_dev()
        );
        OddsReport::new("odds", title)
            .named(&dist, |o, p| Row::new(outcome_label(o), p))
            .footnote(moments)
    } else {
        // Every outcome of an expression without `vs` is a number, in increasing order: the
        // report keeps them and their probabilities as two arrays (no re-sorted copy of the
        // law), and the law is dropped when the report is made.
        let numbers = dist.iter().filter_map(|(o, p)| Some((o.as_number()?, p)));
        OddsReport::new("odds", title).numbers(numbers, dist.tail())
    })
}

/// Chunk size for a run of `trials`: small enough that the progress bar moves (rounds of
/// 64 chunks), large enough that the per-chunk cost does not matter.
pub(crate) fn chunk_size(trials: u64) -> u64 {
    (trials / 6_400).clamp(1_024, dice_sim::DEFAULT_CHUNK_SIZE)
}

fn monte_carlo(e: &Expression, trials: u64, ctx: &Ctx) -> Result<OddsReport, CliError> {
    let seed = ctx.seed();
    let est = crate::mc::simulate_expression(e, trials, seed, ctx)?;
    if est.histogram().is_saturated() {
        return Err(CliError::bad_input(format_args!(
            "`{e}` came up with more than {} distinct values in {} trials, too many to count \
             each (the count is capped to bound memory)",
            dice_sim::MAX_DISTINCT,
            est.trials()
        )));
    }
    let estimates = est.estimates();
    // Fractions (the dialects' exact division) are named rows: no numeric quantiles.
    let fractions = estimates
        .iter()
        .any(|x| matches!(x.outcome, Outcome::Fraction(_)));
    let rows = estimates
        .into_iter()
        .map(|x| Row {
            interval: Some(Interval {
                count: x.count,
                low: x.low,
                high: x.high,
            }),
            ..Row::new(outcome_label(&x.outcome), x.probability)
        })
        .collect();
    let numeric = !e.is_comparison() && !fractions;
    let mut report = OddsReport::new("odds", e.to_string());
    report.rows = rows;
    report.numeric = numeric;
    if !e.is_comparison() {
        report.mean = Some(est.mean());
        report.std_dev = Some(est.std_dev());
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
        standard_error: numeric.then(|| est.standard_error()),
    };
    Ok(report)
}
