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
    if let Some(s) = o.summary.iter().find(|s| s.key == stat) {
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
/// sweep of `stat`. `run` parses and runs one command line.
///
/// # Errors
/// A case's error when comparing, or when every cell of a sweep failed; a roll without
/// `--odds` or `--monte-carlo`.
pub fn combine(
    argv: &[String],
    varying: &[Varying],
    stat: Option<&str>,
    mut run: impl FnMut(Vec<String>) -> Result<Report, CliError>,
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
    let columns = cols_v.map_or(1, |c| c.values.len());
    let mut cells = vec![vec![None; columns]; rows_v.values.len()];
    let mut notes = Vec::new();
    let mut first_error = None;
    let mut found: Option<(Stat, OddsReport)> = None;
    for (i, row) in cells.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            let picks: Vec<usize> = if cols_v.is_some() {
                vec![i, j]
            } else {
                vec![i]
            };
            let result = run(case(argv, varying, &picks))
                .and_then(odds)
                .and_then(|o| pick(&o, stat).map(|s| (s, o)));
            match result {
                Ok((s, o)) => {
                    *cell = Some(s.cell);
                    if found.is_none() {
                        found = Some((s, o));
                    }
                }
                Err(e) => {
                    let at = match cols_v {
                        Some(c) => format!(
                            "--{} {} --{} {}",
                            rows_v.name, rows_v.values[i], c.name, c.values[j]
                        ),
                        None => format!("--{} {}", rows_v.name, rows_v.values[i]),
                    };
                    if notes.len() < 5 {
                        let message = e.to_string();
                        let message = message.strip_prefix("error: ").unwrap_or(&message);
                        let first = message.lines().next().unwrap_or("");
                        notes.push(format!("- at {at}: {first}"));
                    }
                    if first_error.is_none() {
                        first_error = Some(e);
                    }
                }
            }
        }
    }
    let Some((stat, o)) = found else {
        return Err(first_error.unwrap_or_else(|| CliError::bad_input("no value to tabulate")));
    };
    if !notes.is_empty() {
        notes.insert(0, "-: not allowed".to_owned());
    }
    Ok(Report::Sweep(SweepReport {
        command: o.command.clone(),
        row_label: rows_v.name.clone(),
        column_label: cols_v.map(|c| c.name.clone()),
        rows: rows_v.values.clone(),
        columns: match cols_v {
            Some(c) => c.values.clone(),
            None => vec![stat.text.clone()],
        },
        stat: stat.text,
        stat_key: stat.key,
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
}
