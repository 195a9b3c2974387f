//! `dice merge SHARD.json…`: the shards of a Monte Carlo run (`--shard I/N`), made on any
//! number of machines, added up into the result of the one run they are parts of.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::error::CliError;
use crate::report::Report;

/// `dice merge`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Add up the shards of a Monte Carlo run (--shard I/N) into the whole run's result",
    long_about = "Add up the JSON files that the shards of one Monte Carlo run printed \
(`dice … --monte-carlo --seed S --trials T --shard I/N`, for I from 1 to N, on any machines) \
and print the result of the whole run, as the command would have printed it: the same \
numbers, bit for bit, as running it once with the same seed and trials.\n\n\
Every shard 1..N must be there exactly once, all from the same command line. --format, \
--json and --plot apply to the merged result.",
    after_help = "Example:\n  for i in 1 2 3; do dice odds 3d6 --mc --trials 30000 --seed 5 --shard $i/3 > /tmp/shard-$i.json; done\n  dice merge /tmp/shard-1.json /tmp/shard-2.json /tmp/shard-3.json"
)]
pub struct MergeArgs {
    /// The shards' JSON files (or `-` for standard input, one shard per line).
    #[arg(value_name = "SHARD.json", required = true)]
    pub files: Vec<PathBuf>,
}

/// The command line without `--shard I/N` and the output options (`--json`, `--format`,
/// `--plot`), which belong to whoever merges.
pub fn without_shard(words: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
            continue;
        }
        match w.as_str() {
            "--shard" | "--format" | "--plot" => skip = true,
            "--json" => {}
            _ if w.starts_with("--shard=")
                || w.starts_with("--format=")
                || w.starts_with("--plot=") => {}
            _ => out.push(w.clone()),
        }
    }
    out
}

/// What defines the run a shard's command line makes: for each combination of its lists
/// and ranges (one for a plain command), the command line as clap parsed it, printed, with
/// the options that only shape the output (`--format`, `--json`, `--view`, `--plot`) and
/// `--shard` cleared. The program's path (`dice` on the `PATH` or `/opt/bin/dice`) is no
/// part of it, and neither is how the options were written: in any order, `--seed=1` or
/// `--seed 1`, `--mc` or `--monte-carlo`, a default given or left out.
///
/// ```text
/// ["dice", "odds", "3d6", "--mc", "--seed", "1"] and
/// ["/usr/bin/dice", "odds", "3d6", "--seed=1", "--monte-carlo"] → the same key
/// ```
///
/// # Errors
/// [`CliError::BadInput`] when the command line does not parse.
pub fn run_key(argv: &[String]) -> Result<Vec<String>, CliError> {
    use clap::Parser;
    let varying = crate::sweep::varying(argv)?;
    let cases: usize = varying.iter().map(|v| v.values.len()).product();
    let mut picks = vec![0; varying.len()];
    let mut key = Vec::with_capacity(cases);
    for _ in 0..cases {
        let line = crate::sweep::case(argv, &varying, &picks);
        let mut cli = crate::Cli::try_parse_from(&line).map_err(|e| {
            let text = e.to_string();
            CliError::bad_input(format_args!(
                "a shard's command line does not parse: {}",
                text.lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("error: ")
            ))
        })?;
        cli.format = None;
        cli.json = false;
        cli.view = None;
        cli.plot = None;
        cli.shard = None;
        key.push(format!("{:?}", cli));
        // The next combination, the last option varying fastest.
        for (k, v) in varying.iter().enumerate().rev() {
            picks[k] += 1;
            if picks[k] < v.values.len() {
                break;
            }
            picks[k] = 0;
        }
    }
    Ok(key)
}

/// The words of a shard's `argv`, or an error naming the shard.
fn words_of(name: &str, shard: &Value) -> Result<Vec<String>, CliError> {
    let words: Option<Vec<String>> = shard["argv"]
        .as_array()
        .map(|a| a.iter().map(|w| w.as_str().map(str::to_owned)).collect())
        .unwrap_or(None);
    match words {
        Some(w) if !w.is_empty() => Ok(w),
        _ => Err(CliError::bad_input(format_args!(
            "{name} carries no command line"
        ))),
    }
}

/// Reads the shards: each file holds one or more shard objects, one per line.
fn read(files: &[PathBuf]) -> Result<Vec<(String, Value)>, CliError> {
    let mut out = Vec::new();
    for f in files {
        let (name, text) = if f.as_os_str() == "-" {
            let text = std::io::read_to_string(std::io::stdin())
                .map_err(|e| CliError::bad_input(format_args!("cannot read stdin: {e}")))?;
            ("standard input".to_owned(), text)
        } else {
            let text = std::fs::read_to_string(f).map_err(|e| {
                CliError::bad_input(format_args!("cannot read {}: {e}", f.display()))
            })?;
            (f.display().to_string(), text)
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).map_err(|e| {
                CliError::bad_input(format_args!("{name} is not a shard's JSON: {e}"))
            })?;
            if v["dice_shard"] != json!(1) {
                return Err(CliError::bad_input(format_args!(
                    "{name} is not the output of a --shard run"
                )));
            }
            out.push((name.clone(), v));
        }
    }
    Ok(out)
}

/// Adds up shards into the runs of the whole command: for each run, the counts of every
/// outcome summed.
///
/// # Errors
/// [`CliError::BadInput`] for shards of different command lines, a missing or repeated
/// shard, or runs that do not line up.
pub fn add_up(shards: &[(String, Value)]) -> Result<(Vec<String>, Vec<Value>), CliError> {
    let Some((first_name, first)) = shards.first() else {
        return Err(CliError::bad_input("no shard to merge"));
    };
    let argv = words_of(first_name, first)?;
    // Shards made by one command line have the same words: parse each distinct one once.
    let mut keys: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    let key = run_key(&argv)?;
    keys.insert(argv.clone(), key.clone());
    let count = first["shard"]["count"].as_u64().unwrap_or(0);
    // The shards' indices seen so far: a set, so that a forged count costs no memory.
    let mut seen = std::collections::BTreeSet::new();
    let runs_n = first["runs"].as_array().map_or(0, Vec::len);
    // runs[k]: outcome (as JSON text) → (outcome, count).
    let mut runs: Vec<BTreeMap<String, (Value, u64)>> = vec![BTreeMap::new(); runs_n];
    for (name, s) in shards {
        let words = words_of(name, s)?;
        let same_run = match keys.get(&words) {
            Some(k) => *k == key,
            None => {
                let k = run_key(&words)?;
                let same = k == key;
                keys.insert(words, k);
                same
            }
        };
        if !same_run || s["shard"]["count"].as_u64() != Some(count) {
            return Err(CliError::bad_input(format_args!(
                "{name} is a shard of another run than {first_name} (another command line or number of shards)"
            )));
        }
        let index = s["shard"]["index"].as_u64().unwrap_or(0);
        if !(1..=count).contains(&index) {
            return Err(CliError::bad_input(format_args!(
                "{name}: no shard {index} of {count}"
            )));
        }
        if !seen.insert(index) {
            return Err(CliError::bad_input(format_args!(
                "shard {index}/{count} is given twice"
            )));
        }
        let these = s["runs"].as_array().cloned().unwrap_or_default();
        if these.len() != runs_n {
            return Err(CliError::bad_input(format_args!(
                "{name} made {} runs, {first_name} {runs_n}",
                these.len()
            )));
        }
        for (k, run) in these.iter().enumerate() {
            for pair in run["counts"].as_array().into_iter().flatten() {
                let (Some(outcome), Some(c)) = (pair.get(0), pair.get(1).and_then(Value::as_u64))
                else {
                    return Err(CliError::bad_input(format_args!("{name}: a bad count")));
                };
                let e = runs[k]
                    .entry(outcome.to_string())
                    .or_insert((outcome.clone(), 0));
                e.1 = e.1.checked_add(c).ok_or_else(|| {
                    CliError::bad_input(format_args!("{name}: counts too large to add up"))
                })?;
            }
        }
    }
    // At most `shards.len() + 1` steps: the indices seen are distinct.
    if let Some(missing) = (1..=count).find(|i| !seen.contains(i)) {
        return Err(CliError::bad_input(format_args!(
            "shard {missing}/{count} is missing: every shard from 1 to {count} is needed"
        )));
    }
    let template = first["runs"].as_array().cloned().unwrap_or_default();
    let merged = runs
        .into_iter()
        .zip(template)
        .map(|(counts, t)| {
            let pairs: Vec<Value> = counts.into_values().map(|(o, c)| json!([o, c])).collect();
            json!({
                "seed": t["seed"],
                "trials": t["trials"],
                "chunk_size": t["chunk_size"],
                "counts": pairs,
            })
        })
        .collect();
    Ok((argv, merged))
}

/// `dice merge FILES…`: the merged run's report.
///
/// # Errors
/// As [`add_up`], or the command's own error.
pub fn run(args: &MergeArgs) -> Result<Report, CliError> {
    let shards = read(&args.files)?;
    let (argv, runs) = add_up(&shards)?;
    crate::mc::inject(runs);
    crate::report_of(&argv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_shard_and_output_options_are_dropped() {
        assert_eq!(
            without_shard(&words(
                "dice odds 3d6 --mc --seed 1 --shard 2/4 --json --plot=a.svg"
            )),
            words("dice odds 3d6 --mc --seed 1")
        );
    }

    #[test]
    fn shards_add_up_and_must_all_be_there() {
        let shard = |i: u64, counts: Value| {
            (
                format!("s{i}"),
                json!({"dice_shard": 1, "argv": ["dice", "odds", "3d6", "--mc", "--seed", "1"], "shard": {"index": i, "count": 2},
                       "runs": [{"seed": 1, "trials": 10, "chunk_size": 5, "counts": counts}]}),
            )
        };
        let a = shard(1, json!([[1, 2], [2, 3]]));
        let b = shard(2, json!([[2, 4], [3, 1]]));
        let (_, runs) = add_up(&[a.clone(), b]).unwrap();
        assert_eq!(runs[0]["counts"], json!([[1, 2], [2, 7], [3, 1]]));
        assert!(add_up(std::slice::from_ref(&a)).is_err());
        assert!(add_up(&[a.clone(), a]).is_err());
    }

    #[test]
    fn a_forged_shard_count_is_an_error_not_an_allocation() {
        let s = json!({"dice_shard": 1, "argv": ["dice", "odds", "3d6", "--mc", "--seed", "1"],
                       "shard": {"index": 1, "count": u64::MAX},
                       "runs": [{"seed": 1, "trials": 10, "chunk_size": 5, "counts": [[1, 10]]}]});
        let e = add_up(&[("s".to_owned(), s)]).unwrap_err();
        assert!(e.to_string().contains("shard 2/"), "{e}");
    }

    #[test]
    fn the_run_is_what_the_options_say_not_how_they_were_written() {
        let key = |s: &str| run_key(&words(s)).unwrap();
        let base = key("dice odds 3d6 --mc --seed 1 --trials 3000");
        // Another path to the program, the options in another order or spelling, a
        // default written out, the output options: the same run.
        for same in [
            "/usr/local/bin/dice odds 3d6 --mc --seed 1 --trials 3000",
            "./target/release/dice odds 3d6 --trials 3000 --seed 1 --mc",
            "dice --seed=1 odds --monte-carlo 3d6 --trials=3000",
            "dice odds 3d6 --mc --seed 1 --trials 3000 --view at-least --format csv",
        ] {
            assert_eq!(key(same), base, "{same}");
        }
        // What changes the numbers does not.
        for other in [
            "dice odds 3d6 --mc --seed 2 --trials 3000",
            "dice odds 3d6 --mc --seed 1 --trials 3001",
            "dice odds 3d6+1 --mc --seed 1 --trials 3000",
            "dice odds 3d6 --mc --seed 1",
        ] {
            assert_ne!(key(other), base, "{other}");
        }
        // A sweep: one key per cell, whatever the order of the other options.
        let sweep = key("dice swimclass task --rank 1..2 --difficulty 4 --mc --seed 2");
        assert_eq!(sweep.len(), 2);
        assert_eq!(
            key("/bin/dice swimclass task --mc --difficulty=4 --seed 2 --rank 1..2"),
            sweep
        );
        assert_ne!(
            key("dice swimclass task --rank 1..3 --difficulty 4 --mc --seed 2"),
            sweep
        );
        assert!(run_key(&words("dice odds --no-such-option")).is_err());
    }

    #[test]
    fn shards_written_differently_merge_and_other_runs_do_not() {
        let shard = |i: u64, argv: &str| {
            (
                format!("s{i}"),
                json!({"dice_shard": 1, "argv": words(argv), "shard": {"index": i, "count": 2},
                       "runs": [{"seed": 1, "trials": 10, "chunk_size": 5, "counts": [[3, 5]]}]}),
            )
        };
        let a = shard(1, "dice odds 3d6 --mc --seed 1 --trials 10");
        let b = shard(2, "/opt/dice/bin/dice odds 3d6 --trials 10 --seed 1 --mc");
        let (argv, runs) = add_up(&[a.clone(), b]).unwrap();
        assert_eq!(argv, words("dice odds 3d6 --mc --seed 1 --trials 10"));
        assert_eq!(runs[0]["counts"], json!([[3, 10]]));
        let c = shard(2, "dice odds 3d6 --mc --seed 2 --trials 10");
        let e = add_up(&[a, c]).unwrap_err();
        assert!(e.to_string().contains("another run"), "{e}");
    }
}
