//! Running the `dice` binary in the integration tests: one place for the checks every run
//! gets (no panic, no backtrace hint, no internal error) and for the exit-code helpers.

#![allow(dead_code)]

use std::process::{Command, Output};

use serde_json::Value;

/// Runs `dice` with `args` (progress bars off).
pub fn dice(args: &[&str]) -> Output {
    dice_env(args, &[])
}

/// Runs `dice` with `args` and extra environment variables.
pub fn dice_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dice"));
    cmd.args(args).env_remove("DICE_PROGRESS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the dice binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "panic on {args:?}: {stderr}");
    assert!(!stderr.contains("internal error"), "{args:?}: {stderr}");
    assert!(
        !stderr.contains("RUST_BACKTRACE"),
        "backtrace hint on {args:?}"
    );
    out
}

/// Runs, expects exit code 0, returns stdout.
pub fn ok(args: &[&str]) -> String {
    let out = dice(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs with `--json`, expects exit code 0 and one JSON object.
pub fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let text = ok(&all);
    let v: Value = serde_json::from_str(&text).expect("one JSON object");
    assert!(v.is_object());
    v
}

/// Runs, expects exit code 2 (bad input) and nothing on stdout, returns stderr.
pub fn bad(args: &[&str]) -> String {
    let out = dice(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should be refused");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    String::from_utf8(out.stderr).expect("UTF-8 errors")
}

/// Two probabilities agree to 1e-12.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// A JSON array of integers.
pub fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_i64().expect("an integer"))
        .collect()
}

/// One row of a fight's odds table: the end, its probability, and the Monte Carlo interval.
pub type Row = (String, f64, Option<(f64, f64)>);

/// The rows of an odds report's JSON `distribution` with named outcomes (a fight's ends).
pub fn rows(v: &Value) -> Vec<Row> {
    v["distribution"]
        .as_array()
        .expect("a distribution")
        .iter()
        .map(|r| {
            let interval = r["low"]
                .as_f64()
                .map(|lo| (lo, r["high"].as_f64().expect("a high end")));
            (
                r["outcome"].as_str().expect("a named end").to_owned(),
                r["probability"].as_f64().expect("a probability"),
                interval,
            )
        })
        .collect()
}
