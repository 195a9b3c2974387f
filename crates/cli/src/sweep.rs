//! Lists and ranges in a game roll's options: `--skill high,awesome` compares the laws side
//! by side, `--rank 1..6 --difficulty 1..7` tabulates one number (P(success) by default,
//! `--stat` says which) over the grid.
//!
//! The command line is expanded before clap reads it: each combination of the values is a
//! command line of its own, parsed and run as usual, so every numeric or named option of
//! every game takes a list or a range without the game's code knowing.

use crate::error::CliError;
use crate::report::{CompareReport, Method, OddsReport, Report, SweepCell, SweepReport};

/// The game subcommands whose options may be given lists and ranges.
const GAMES: [&str; 5] = [
    "shapers-and-bots",
    "shapers-percentile",
    "scratch-rps",
    "swimclass",
    "robots-and-rapiers",
];

/// Options whose values are never expanded (a `--rule` value may hold commas, a file name
/// dots).
const FIXED: [&str; 9] = [
    "rule", "seed", "format", "plot", "trials", "shard", "stat", "view", "json",
];

/// The most combinations one command may ask for.
pub const MAX_CASES: usize = 10_000;

/// An option given several values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Varying {
    /// The position of the value in the command line.
    pub at: usize,
    /// The option's name, without the dashes (`rank`).
    pub name: String,
    /// `--rank=` when the value was written in the same word, else empty.
    pub prefix: String,
    /// The values, in order.
    pub values: Vec<String>,
    /// Whether it was a range (`1..6`) rather than a list (`high,awesome`).
    pub range: bool,
}

/// The values of a range `A..B` (inclusive; `A..=B` too), with an optional step `A..B:S`.
///
/// ```text
/// "1..4" → 1, 2, 3, 4     "0..100:25" → 0, 25, 50, 75, 100     "-2..-1" → -2, -1
/// ```
pub fn range(text: &str) -> Option<Result<Vec<String>, CliError>> {
    let (a, rest) = text.split_once("..")?;
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    let (b, step) = match rest.split_once(':') {
        Some((b, s)) => (b, Some(s)),
        None => (rest, None),
    };
    let a: i64 = a.parse().ok()?;
    let b: i64 = b.parse().ok()?;
    let step: i64 = match step {
        Some(s) => s.parse().ok().filter(|&s| s > 0)?,
        None => 1,
    };
    if a > b {
        return Some(Err(CliError::bad_input(format_args!(
            "the range {text} is empty: its start is above its end"
        ))));
    }
    // In 128 bits: the span of two `i64`s may not fit in one.
    let count = (i128::from(b) - i128::from(a)) / i128::from(step) + 1;
    if count > MAX_CASES as i128 {
        return Some(Err(CliError::bad_input(format_args!(
            "the range {text} has {count} values; at most {MAX_CASES} combinations are allowed"
        ))));
    }
    let count = count as i64; // at most MAX_CASES
    Some(Ok((0..count).map(|k| (a + k * step).to_string()).collect()))
}

/// The options of a game roll given a list or a range, in the order written.
///
/// # Errors
/// [`CliError::BadInput`] for an empty or too long range, or too many combinations.
pub fn varying(argv: &[String]) -> Result<Vec<Varying>, CliError> {
    let Some(game) = argv.iter().position(|a| GAMES.contains(&a.as_str())) else {
        return Ok(Vec::new());
    };
    let mut out: Vec<Varying> = Vec::new();
    let mut i = game + 1;
    while i < argv.len() {
        let word = &argv[i];
        if word == "--" {
            break;
        }
        let Some(option) = word.strip_prefix("--") else {
            i += 1;
            continue;
        };
        let (name, value, at, prefix) = match option.split_once('=') {
            Some((n, v)) => (n, v.to_owned(), i, format!("--{n}=")),
            None => match argv.get(i + 1) {
                Some(v) => (option, v.clone(), i + 1, String::new()),
                None => break,
            },
        };
        i += 1;
        if FIXED.contains(&name) {
            continue;
        }
        let (values, is_range) = match range(&value) {
            Some(r) => (r?, true),
            None if value.contains(',') => {
                let parts: Vec<String> = value.split(',').map(|p| p.trim().to_owned()).collect();
                if parts.iter().any(String::is_empty) {
                    continue;
                }
                (parts, false)
            }
            None => continue,
        };
        out.push(Varying {
            at,
            name: name.to_owned(),
            prefix,
            values,
            range: is_range,
        });
    }
    let cases: usize = out
        .iter()
        .map(|v| v.values.len())
        .try_fold(1usize, |acc, n| acc.checked_mul(n))
        .unwrap_or(usize::MAX);
    if cases > MAX_CASES {
        return Err(CliError::bad_input(format_args!(
            "the lists and ranges make {cases} combinations; at most {MAX_CASES} are allowed"
        )));
    }
    if out.len() > 2 {
        return Err(CliError::bad_input(format_args!(
            "at most two options may take a list or a range (here --{}); fix the others to one value",
            out.iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(", --")
        )));
    }
    Ok(out)
}

/// The command line of one combination: `picks[k]` is the index of the value of
/// `varying[k]`.
pub fn case(argv: &[String], varying: &[Varying], picks: &[usize]) -> Vec<String> {
    let mut line = argv.to_vec();
    for (v, &k) in varying.iter().zip(picks) {
        line[v.at] = format!("{}{}", v.prefix, v.values[k]);
    }
    line
}

/// A number picked out of one law for a sweep: its JSON key, its text and its value (with
/// a Monte Carlo interval).
#[derive(Clone, Debug, PartialEq)]
pub struct Stat {
    /// `p_success`, `mean`, `p_ge_3`, …
    pub key: String,
    /// `P(success)`, `mean`, `P(≥ 3)`, …
    pub text: String,
    /// The value.
    pub cell: SweepCell,
}

/// Picks `stat` out of `o`: a headline probability's key (`p_success`, `p_hit`, …; the
/// default is the command's first), `mean`, `std_dev`, `median`, a numeric event (`>=3`,
/// `<=3`, `=3`, `>3`, `<3`) or an outcome's name (`success`).
///
/// # Errors
/// [`CliError::BadInput`] when the law has no such number.
pub fn pick(o: &OddsReport, stat: Option<&str>) -> Result<Stat, CliError> {
    let interval = |p: f64| match o.method {
        Method::MonteCarlo {
            trials, confidence, ..
        } => {
            let iv = crate::mc::interval_of(p, trials, confidence);
            Some((iv.low, iv.high))
        }
        Method::Exact => None,
    };
    let probability = |key: String, text: String, p: f64| Stat {
        key,
        text,
        cell: SweepCell {
            value: p,
            interval: interval(p),
        },
    };
    let plain = |key: &str, v: Option<f64>| {
        v.map(|value| Stat {
            key: key.to_owned(),
            text: key.replace('_', " "),
            cell: SweepCell {
                value,
                interval: None,
            },
        })
    };
    let known = || {
        let mut keys: Vec<String> = o.summary.iter().map(|s| s.key.clone()).collect();
        if o.numeric {
            keys.extend(["mean", "std_dev", "median", ">=N", "<=N", "=N"].map(str::to_owned));
        }
        keys.extend(o.rows.iter().filter_map(|r| match &r.label {
            crate::report::Label::Name { key, .. } => Some(key.clone()),
            crate::report::Label::Number(_) => None,
        }));
        keys.join(", ")
    };
    let Some(stat) = stat else {
        if let Some(s) = o.summary.first() {
            return Ok(probability(
                s.key.clone(),
                format!("P({})", s.text),
                s.value,
            ));
        }
        if o.numeric {
            if let Some(s) = plain("mean", o.mean) {
                return Ok(s);
            }
        }
        return Err(CliError::bad_input(format_args!(
            "this roll has no headline probability to tabulate; choose one with --stat: {}",
            known()
        )));
    };
    // A headline probability by its key (`p_total_failure`), or by the name of its
    // outcome (`total_failure`): present in every cell, also where it is 0.
    let prefixed = format!("p_{stat}");
    if let Some(s) = o
        .summary
        .iter()
        .find(|s| s.key == stat)
        .or_else(|| o.summary.iter().find(|s| s.key == prefixed))
    {
        return Ok(probability(
            s.key.clone(),
            format!("P({})", s.text),
            s.value,
        ));
    }
    let found = match stat {
        "mean" => plain("mean", o.mean),
        "std_dev" | "sd" => plain("std_dev", o.std_dev),
        "median" => plain("median", o.quantile(0.5).map(|m| m as f64)),
        _ => None,
    };
    if let Some(s) = found {
        return Ok(s);
    }
    for (op, key, text) in [
        (">=", "ge", "≥"),
        ("<=", "le", "≤"),
        (">", "gt", ">"),
        ("<", "lt", "<"),
        ("=", "eq", "="),
    ] {
        if let Some(n) = stat
            .strip_prefix(op)
            .and_then(|n| n.trim().parse::<i64>().ok())
        {
            if !o.numeric {
                break;
            }
            let p: f64 = o
                .rows
                .iter()
                .filter(|r| match r.label {
                    crate::report::Label::Number(x) => match key {
                        "ge" => x >= n,
                        "le" => x <= n,
                        "gt" => x > n,
                        "lt" => x < n,
                        _ => x == n,
                    },
                    crate::report::Label::Name { .. } => false,
                })
                .map(|r| r.probability)
                .sum::<f64>()
                + if matches!(key, "ge" | "gt") {
                    o.tail
                } else {
                    0.0
                };
            let name = if n < 0 {
                format!("m{}", n.unsigned_abs())
            } else {
                n.to_string()
            };
            return Ok(probability(
                format!("p_{key}_{name}"),
                format!("P({text} {n})"),
                p,
            ));
        }
    }
    if let Some(r) = o.rows.iter().find(|r| match &r.label {
        crate::report::Label::Name { key, .. } => key == stat,
        crate::report::Label::Number(_) => false,
    }) {
        return Ok(probability(
            format!("p_{stat}"),
            format!("P({})", r.label.text()),
            r.probability,
        ));
    }
    Err(CliError::bad_input(format_args!(
        "no number `{stat}` in these odds; --stat takes one of: {}",
        known()
    )))
}

/// Puts the reports of every combination together: one list → a comparison, otherwise a
/// sweep of `stat`. `run` parses and runs one command line. Ctrl-C
/// ([`crate::progress::interrupted`]) stops the command at the combination it is running:
/// the ones after it are not run, and a note says so.
///
/// # Errors
/// A case's error when comparing, or when every cell of a sweep failed; a roll without
/// `--odds` or `--monte-carlo`.
pub fn combine(
    argv: &[String],
    varying: &[Varying],
    stat: Option<&str>,
    run: impl FnMut(Vec<String>) -> Result<Report, CliError>,
) -> Result<Report, CliError> {
    combine_until(argv, varying, stat, run, crate::progress::interrupted)
}

/// The trials of a simulated law (`None` for exact odds).
fn trials_of(method: &Method) -> Option<u64> {
    match *method {
        Method::MonteCarlo { trials, .. } => Some(trials),
        Method::Exact => None,
    }
}

/// After the compared law `items.last()` was made: whether Ctrl-C (`stopped`) ends the
/// comparison there, `total` laws having been asked for. A law the interrupt cut short is
/// dropped unless it is the first (every law shown then has the same number of trials, the
/// one the title gives), and a note beginning `stopped by Ctrl-C` on the last law kept
/// says what was left out.
///
/// ```text
/// [3d6 (1000000 trials), 4d6kh3 (2048 of 1000000 trials)], stopped, 3 asked
///   → [3d6], with the note "stopped by Ctrl-C during 4d6kh3 (after 2048 trials): it and
///     the 1 after it were not compared"
/// ```
pub fn stop_comparing(items: &mut Vec<(String, OddsReport)>, stopped: bool, total: usize) -> bool {
    if !stopped || items.is_empty() {
        return false;
    }
    let done = items.len();
    let after = total.saturating_sub(done);
    let cut = done > 1 && trials_of(&items[done - 1].1.method) != trials_of(&items[0].1.method);
    let note = if cut {
        let Some((name, o)) = items.pop() else {
            return true;
        };
        let trials = trials_of(&o.method).unwrap_or(0);
        format!(
            "stopped by Ctrl-C during {name} (after {}): it and the {after} after it were not compared",
            crate::progress::trials_text(trials)
        )
    } else if after > 0 {
        format!(
            "stopped by Ctrl-C: the {after} after {} were not compared",
            items[done - 1].0
        )
    } else {
        return true;
    };
    if let Some((_, o)) = items.last_mut() {
        o.notes.push(note);
    }
    true
}

/// One cell of a sweep, as run.
enum Outcome {
    /// The number picked.
    Value(Stat),
    /// The roll was refused, or its law has no such number (then with how it was had).
    Refused(CliError, Option<Method>),
}

/// [`combine`], with `stopped` telling whether Ctrl-C was pressed.
fn combine_until(
    argv: &[String],
    varying: &[Varying],
    stat: Option<&str>,
    mut run: impl FnMut(Vec<String>) -> Result<Report, CliError>,
    stopped: impl Fn() -> bool,
) -> Result<Report, CliError> {
    let odds = |r: Report| match r {
        Report::Odds(o) => Ok(o),
        _ => Err(CliError::bad_input(
            "a list or a range of values (--skill high,awesome, --rank 1..6) needs --odds or \
             --monte-carlo: it compares or tabulates odds",
        )),
    };
    if let [v] = varying {
        if !v.range {
            let mut items = Vec::with_capacity(v.values.len());
            let mut command = String::new();
            for (k, value) in v.values.iter().enumerate() {
                let o = odds(run(case(argv, varying, &[k]))?)?;
                command.clone_from(&o.command);
                items.push((format!("{}={value}", v.name), o));
                if stop_comparing(&mut items, stopped(), v.values.len()) {
                    break;
                }
            }
            return Ok(Report::Compare(CompareReport {
                command,
                varies: v.name.clone(),
                items,
            }));
        }
    }
    let (rows_v, cols_v) = match varying {
        [r] => (r, None),
        [r, c] => (r, Some(c)),
        _ => return Err(CliError::bad_input("nothing varies")),
    };
    let at = |i: usize, j: usize| match cols_v {
        Some(c) => format!(
            "--{} {} --{} {}",
            rows_v.name, rows_v.values[i], c.name, c.values[j]
        ),
        None => format!("--{} {}", rows_v.name, rows_v.values[i]),
    };
    let columns = cols_v.map_or(1, |c| c.values.len());
    // The cells run, in order; those after a Ctrl-C are not.
    let mut done: Vec<(usize, usize, Outcome)> = Vec::new();
    let mut found: Option<(Stat, OddsReport)> = None;
    // Where Ctrl-C stopped the sweep, and that cell's trials.
    let mut interrupt: Option<(usize, usize, Option<u64>)> = None;
    'grid: for i in 0..rows_v.values.len() {
        for j in 0..columns {
            let picks: Vec<usize> = if cols_v.is_some() {
                vec![i, j]
            } else {
                vec![i]
            };
            let outcome = match run(case(argv, varying, &picks)).and_then(odds) {
                Ok(o) => match pick(&o, stat) {
                    Ok(s) => {
                        if found.is_none() {
                            found = Some((s.clone(), o));
                        } else if stopped() {
                            // Cut short by Ctrl-C: the cell had fewer trials than the others.
                            let first = found.as_ref().map(|(_, f)| trials_of(&f.method));
                            if first != Some(trials_of(&o.method)) {
                                interrupt = Some((i, j, trials_of(&o.method)));
                                break 'grid;
                            }
                        }
                        Outcome::Value(s)
                    }
                    Err(e) => Outcome::Refused(e, Some(o.method)),
                },
                Err(e) => Outcome::Refused(e, None),
            };
            done.push((i, j, outcome));
            if stopped() {
                interrupt = Some((i, j, None));
                break 'grid;
            }
        }
    }
    let Some((stat_found, o)) = found else {
        let first_error = done.into_iter().find_map(|(_, _, d)| match d {
            Outcome::Refused(e, _) => Some(e),
            Outcome::Value(_) => None,
        });
        return Err(first_error.unwrap_or_else(|| CliError::bad_input("no value to tabulate")));
    };
    // An outcome asked for by name that some cell's law has: a cell whose law lacks it
    // (it cannot happen there, or never came up in the trials) has it with probability 0.
    let named = stat.is_some_and(|name| {
        stat_found.key == format!("p_{name}")
            && o.rows.iter().any(|r| match &r.label {
                crate::report::Label::Name { key, .. } => key == name,
                crate::report::Label::Number(_) => false,
            })
    });
    let mut cells = vec![vec![None; columns]; rows_v.values.len()];
    let mut notes = Vec::new();
    let mut refused = false;
    for (i, j, outcome) in done {
        match outcome {
            Outcome::Value(s) => cells[i][j] = Some(s.cell),
            Outcome::Refused(_, Some(method)) if named => {
                cells[i][j] = Some(SweepCell {
                    value: 0.0,
                    interval: match method {
                        Method::MonteCarlo {
                            trials, confidence, ..
                        } => {
                            let iv = crate::mc::interval_of(0.0, trials, confidence);
                            Some((iv.low, iv.high))
                        }
                        Method::Exact => None,
                    },
                });
            }
            Outcome::Refused(e, _) => {
                refused = true;
                if notes.len() < 5 {
                    let message = e.to_string();
                    let message = message.strip_prefix("error: ").unwrap_or(&message);
                    let first = message.lines().next().unwrap_or("");
                    notes.push(format!("- at {}: {first}", at(i, j)));
                }
            }
        }
    }
    if let Some((i, j, cut)) = interrupt {
        let last = i + 1 == rows_v.values.len() && j + 1 == columns;
        let note = match cut {
            Some(trials) => Some(format!(
                "- at {} and after: not run, stopped by Ctrl-C after {} of this cell (the \
                 other cells have {})",
                at(i, j),
                crate::progress::trials_text(trials),
                trials_of(&o.method)
                    .map_or_else(|| "exact odds".to_owned(), crate::progress::trials_text),
            )),
            None if !last => Some(format!(
                "- after {}: not run, stopped by Ctrl-C{}",
                at(i, j),
                trials_of(&o.method).map_or_else(String::new, |t| format!(
                    " (each cell run has {})",
                    crate::progress::trials_text(t)
                )),
            )),
            None => None,
        };
        if let Some(n) = note {
            notes.push(n);
        }
    }
    if !notes.is_empty() {
        let legend = match (refused, interrupt.is_some()) {
            (true, true) => "-: not allowed, or not run",
            (false, true) => "-: not run",
            _ => "-: not allowed",
        };
        notes.insert(0, legend.to_owned());
    }
    Ok(Report::Sweep(SweepReport {
        command: o.command.clone(),
        row_label: rows_v.name.clone(),
        column_label: cols_v.map(|c| c.name.clone()),
        rows: rows_v.values.clone(),
        columns: match cols_v {
            Some(c) => c.values.clone(),
            None => vec![stat_found.text.clone()],
        },
        stat: stat_found.text,
        stat_key: stat_found.key,
        cells,
        notes,
        method: o.method,
        command_line: command_line(argv),
    }))
}

/// A command line as one would type it: `dice` and the words after the program's path,
/// each quoted for a POSIX shell when it holds anything but letters, digits and
/// `-_.,:/=+@%`.
///
/// ```text
/// ["/usr/bin/dice", "odds", "1d20 + 5"] → dice odds '1d20 + 5'
/// ```
pub fn command_line(argv: &[String]) -> String {
    let quoted = argv.iter().skip(1).map(|w| {
        let plain = !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.,:/=+@%".contains(c));
        if plain {
            w.clone()
        } else {
            format!("'{}'", w.replace('\'', r"'\''"))
        }
    });
    std::iter::once("dice".to_owned())
        .chain(quoted)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn ranges_are_inclusive_with_an_optional_step() {
        let r = |s: &str| range(s).map(|r| r.ok());
        assert_eq!(r("1..4"), Some(Some(words("1 2 3 4"))));
        assert_eq!(r("1..=2"), Some(Some(words("1 2"))));
        assert_eq!(r("0..100:25"), Some(Some(words("0 25 50 75 100"))));
        assert_eq!(r("-2..-1"), Some(Some(words("-2 -1"))));
        assert_eq!(r("3..1"), Some(None));
        // A span wider than an i64 is too long, not an overflow.
        assert_eq!(r(&format!("{}..{}", i64::MIN, i64::MAX)), Some(None));
        assert_eq!(r("1+2"), None);
        assert_eq!(r("a..b"), None);
    }

    #[test]
    fn command_lines_are_quoted_for_a_shell() {
        let argv = |v: &[&str]| v.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            command_line(&argv(&[
                "/x/dice",
                "swimclass",
                "task",
                "--rank",
                "1..6",
                "--aid=0,1"
            ])),
            "dice swimclass task --rank 1..6 --aid=0,1"
        );
        assert_eq!(
            command_line(&argv(&["dice", "odds", "1d20 + 5", "it's", ""])),
            r"dice odds '1d20 + 5' 'it'\''s' ''"
        );
    }

    #[test]
    fn only_game_options_vary() {
        let argv = words("dice swimclass task --rank 1..3 --difficulty=easy,4 --rule a=1,2 --odds");
        let v = varying(&argv).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].name, "rank");
        assert!(v[0].range);
        assert_eq!(v[1].values, words("easy 4"));
        assert_eq!(
            case(&argv, &v, &[2, 1]),
            words("dice swimclass task --rank 3 --difficulty=4 --rule a=1,2 --odds")
        );
        assert!(varying(&words("dice odds 1..3")).unwrap().is_empty());
        assert!(
            varying(&words(
                "dice swimclass task --rank 1..2 --progress 1..2 --aid 0,1"
            ))
            .is_err()
        );
    }

    /// A simulated law over named outcomes: `(name, probability)` rows, `trials` trials.
    fn law(rows: &[(&str, f64)], trials: u64) -> Report {
        let mut o = OddsReport::new("game roll", "a roll");
        o.rows = rows
            .iter()
            .map(|&(n, p)| crate::report::Row::new(crate::report::Label::key(n), p))
            .collect();
        o.method = Method::MonteCarlo {
            seed: crate::seed::Seed {
                value: 1,
                given: true,
            },
            trials,
            confidence: 0.95,
            standard_error: None,
        };
        Report::Odds(o)
    }

    fn sweep(r: Report) -> SweepReport {
        match r {
            Report::Sweep(s) => s,
            other => panic!("not a sweep: {other:?}"),
        }
    }

    /// `--stat NAME` for an outcome a cell's law lacks: probability 0 there, with the
    /// interval of 0 in its trials, not an empty cell.
    #[test]
    fn an_outcome_a_cell_lacks_has_probability_zero_there() {
        let argv = words("dice robots-and-rapiers save --tn 1..3 --mc");
        let v = varying(&argv).unwrap();
        let r = combine_until(
            &argv,
            &v,
            Some("total_failure"),
            |line| {
                Ok(if line.contains(&"3".to_owned()) {
                    law(&[("total_success", 1.0)], 400)
                } else {
                    law(&[("total_success", 0.75), ("total_failure", 0.25)], 400)
                })
            },
            || false,
        );
        let s = sweep(r.unwrap());
        assert_eq!(s.stat_key, "p_total_failure");
        let third = s.cells[2][0].expect("a value, not an empty cell");
        assert_eq!(third.value, 0.0);
        let iv = crate::mc::interval_of(0.0, 400, 0.95);
        assert_eq!(third.interval, Some((iv.low, iv.high)));
        assert!(s.notes.is_empty(), "{:?}", s.notes);
        // A name no cell has is still refused.
        let e = combine_until(
            &argv,
            &v,
            Some("no_such_outcome"),
            |_| Ok(law(&[("total_success", 1.0)], 400)),
            || false,
        );
        assert!(e.is_err());
    }

    /// Ctrl-C during the second cell: that cell, cut short, is left out with the rest, and
    /// every cell shown has the trials the report gives.
    #[test]
    fn ctrl_c_stops_a_sweep_at_the_cell_it_is_running() {
        let argv = words("dice robots-and-rapiers save --tn 1..4 --mc");
        let v = varying(&argv).unwrap();
        let ran = std::cell::Cell::new(0);
        let stopped = std::cell::Cell::new(false);
        let r = combine_until(
            &argv,
            &v,
            None,
            |_| {
                ran.set(ran.get() + 1);
                // The second cell is where Ctrl-C comes: it stops after 300 trials.
                let trials = if ran.get() == 2 {
                    stopped.set(true);
                    300
                } else {
                    1_000
                };
                let mut r = law(&[("a", 0.5), ("b", 0.5)], trials);
                if let Report::Odds(o) = &mut r {
                    o.summary.push(crate::report::Summary {
                        key: "p_a".to_owned(),
                        text: "a".to_owned(),
                        value: 0.5,
                    });
                }
                Ok(r)
            },
            || stopped.get(),
        );
        let s = sweep(r.unwrap());
        assert_eq!(ran.get(), 2, "no cell runs after Ctrl-C");
        assert!(s.cells[0][0].is_some());
        assert!(s.cells[1..].iter().all(|r| r[0].is_none()));
        assert_eq!(trials_of(&s.method).unwrap_or(0), 1_000);
        let note = s.notes.iter().find(|n| n.contains("Ctrl-C")).unwrap();
        assert!(
            note.contains("--tn 2") && note.contains("300 trials"),
            "{note}"
        );
        assert_eq!(s.notes[0], "-: not run");

        // Ctrl-C during the first cell: it is kept, with its own trials.
        ran.set(0);
        stopped.set(false);
        let r = combine_until(
            &argv,
            &v,
            None,
            |_| {
                ran.set(ran.get() + 1);
                stopped.set(true);
                let mut r = law(&[("a", 1.0)], 300);
                if let Report::Odds(o) = &mut r {
                    o.summary.push(crate::report::Summary {
                        key: "p_a".to_owned(),
                        text: "a".to_owned(),
                        value: 1.0,
                    });
                }
                Ok(r)
            },
            || stopped.get(),
        );
        let s = sweep(r.unwrap());
        assert_eq!(ran.get(), 1);
        assert!(s.cells[0][0].is_some());
        assert_eq!(trials_of(&s.method).unwrap_or(0), 300);
        assert!(
            s.notes.iter().any(|n| n.contains("after --tn 1")),
            "{:?}",
            s.notes
        );
    }

    /// Ctrl-C in a comparison: the law cut short is dropped unless it is the first, and a
    /// note on the last law kept says what was not compared.
    #[test]
    fn ctrl_c_stops_a_comparison_at_the_law_it_is_making() {
        let odds = |trials: u64| match law(&[("a", 1.0)], trials) {
            Report::Odds(o) => o,
            _ => unreachable!(),
        };
        let mut items = vec![("x=1".to_owned(), odds(1_000))];
        assert!(!stop_comparing(&mut items, false, 3));
        items.push(("x=2".to_owned(), odds(200)));
        assert!(stop_comparing(&mut items, true, 3));
        assert_eq!(items.len(), 1);
        assert_eq!(
            items[0].1.notes,
            [
                "stopped by Ctrl-C during x=2 (after 200 trials): it and the 1 after it were not compared"
            ]
        );
        let mut items = vec![("x=1".to_owned(), odds(200))];
        assert!(stop_comparing(&mut items, true, 3));
        assert_eq!(items.len(), 1);
        assert_eq!(
            items[0].1.notes,
            ["stopped by Ctrl-C: the 2 after x=1 were not compared"]
        );
    }
}
