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
    let argv = first["argv"].clone();
    let count = first["shard"]["count"].as_u64().unwrap_or(0);
    // The shards' indices seen so far: a set, so that a forged count costs no memory.
    let mut seen = std::collections::BTreeSet::new();
    let runs_n = first["runs"].as_array().map_or(0, Vec::len);
    // runs[k]: outcome (as JSON text) → (outcome, count).
    let mut runs: Vec<BTreeMap<String, (Value, u64)>> = vec![BTreeMap::new(); runs_n];
    for (name, s) in shards {
        if s["argv"] != argv || s["shard"]["count"].as_u64() != Some(count) {
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
    let argv: Vec<String> = argv
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w.as_str().map(str::to_owned))
        .collect();
    if argv.is_empty() {
        return Err(CliError::bad_input("the shards carry no command line"));
    }
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
                json!({"dice_shard": 1, "argv": ["dice", "odds"], "shard": {"index": i, "count": 2},
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
        let s = json!({"dice_shard": 1, "argv": ["dice", "odds"],
                       "shard": {"index": 1, "count": u64::MAX},
                       "runs": [{"seed": 1, "trials": 10, "chunk_size": 5, "counts": [[1, 10]]}]});
        let e = add_up(&[("s".to_owned(), s)]).unwrap_err();
        assert!(e.to_string().contains("shard 2/"), "{e}");
    }
}
