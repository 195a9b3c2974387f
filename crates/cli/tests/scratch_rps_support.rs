//! `dice scratch-rps vehicle` and `dice scratch-rps hurry`: the vehicle operator's ability roll
//! (`seeds/scratch-rps.txt` L109–L117) and the craftsman's roll in a hurry (L101). Every
//! expected chance is counted here over the twenty faces of the d20.

use crate::common;
use common::{bad, close, json, ok};

use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

/// P(d20 + `plus` ≥ `difficulty`, or a natural 20) (L17, L21).
fn chance(plus: i64, difficulty: i64) -> f64 {
    (1..=20)
        .filter(|&n| n == 20 || n + plus >= difficulty)
        .count() as f64
        / 20.0
}

#[test]
fn each_vehicle_is_operated_with_its_own_ability() {
    // L113 driving: ground; L115 navigation: water; L117 piloting: air or space.
    for (vehicle, ability) in [
        ("ground", "driving"),
        ("water", "navigation"),
        ("air-or-space", "piloting"),
    ] {
        for level in 1..=3 {
            let l = level.to_string();
            let v = json(&[
                "scratch-rps",
                "vehicle",
                "--vehicle",
                vehicle,
                "--level",
                &l,
                "--difficulty",
                "15",
                "--modifier",
                "-1",
                "--odds",
            ]);
            assert_eq!(v["vehicle"]["ability"], ability, "{v}");
            assert!(
                close(f(&v["p_success"]), chance(level - 1, 15)),
                "{vehicle} {level}: {v}"
            );
        }
    }
}

#[test]
fn a_character_without_the_ability_cannot_operate_the_vehicle() {
    let err = bad(&[
        "scratch-rps",
        "vehicle",
        "--vehicle",
        "water",
        "--level",
        "0",
        "--difficulty",
        "10",
    ]);
    assert!(err.contains("cannot operate"), "{err}");
    assert!(err.contains("navigation"), "{err}");
}

#[test]
fn a_vehicle_roll_replays_from_its_seed() {
    let args = [
        "scratch-rps",
        "vehicle",
        "--vehicle",
        "ground",
        "--level",
        "2",
        "--difficulty",
        "12",
        "--seed",
        "4",
    ];
    let text = ok(&args);
    assert_eq!(text, ok(&args));
    let v = json(&args);
    let natural = v["natural"].as_i64().expect("the die");
    assert_eq!(v["total"].as_i64(), Some(natural + 2));
    let succeeded = natural == 20 || natural + 2 >= 12;
    assert_eq!(v["outcome"] != "failure", succeeded, "{v}");
}

#[test]
fn the_hurry_roll_is_a_craftsmanship_roll_usually_at_ten() {
    // L101: "He must make a success roll to add a temporary bonus in a hurry (usually
    // difficulty 10.)" The craftsman's level is added, as to any ability roll (L17).
    let v = json(&["scratch-rps", "hurry", "--level", "2", "--odds"]);
    assert_eq!(v["hurry"]["difficulty"], 10);
    assert!(close(f(&v["p_success"]), chance(2, 10)), "{v}");
    let v = json(&[
        "scratch-rps",
        "hurry",
        "--level",
        "2",
        "--difficulty",
        "14",
        "--odds",
        "--rule",
        "hurry_roll=non_ability",
    ]);
    assert!(close(f(&v["p_success"]), chance(0, 14)), "{v}");
    let text = ok(&["scratch-rps", "hurry", "--level", "1", "--odds"]);
    assert!(text.contains("until the hurry is over"), "{text}");
    // Without craftsmanship there is no bonus to give.
    let err = bad(&["scratch-rps", "hurry", "--level", "0"]);
    assert!(err.contains("craftsmanship"), "{err}");
}

#[test]
fn a_failed_hurry_says_the_bonus_waits() {
    // Seeds until both a success and a failure have been seen (difficulty 15, level 1:
    // 7 faces in 20 succeed).
    let (mut added, mut failed) = (false, false);
    for seed in 1..200 {
        let s = seed.to_string();
        let args = [
            "scratch-rps",
            "hurry",
            "--level",
            "1",
            "--difficulty",
            "15",
            "--seed",
            &s,
        ];
        let v = json(&args);
        let display = v["display"].as_str().expect("the text").to_owned();
        if v["outcome"] == "failure" {
            assert!(display.contains("until the hurry is over"), "{display}");
            failed = true;
        } else {
            assert!(display.contains("+1 is added"), "{display}");
            added = true;
        }
        if added && failed {
            return;
        }
    }
    panic!("200 seeds gave no success or no failure");
}

#[test]
fn the_estimates_agree_with_the_exact_odds() {
    const TRIALS: u64 = 20_000;
    let trials = TRIALS.to_string();
    for (args, p) in [
        (
            vec![
                "scratch-rps",
                "vehicle",
                "--vehicle",
                "air",
                "--level",
                "1",
                "--difficulty",
                "15",
            ],
            chance(1, 15),
        ),
        (vec!["scratch-rps", "hurry", "--level", "3"], chance(3, 10)),
    ] {
        let mut mc = args.clone();
        mc.extend(["--monte-carlo", "--trials", &trials, "--seed", "9"]);
        let v = json(&mc);
        assert_eq!(v["method"], "monte_carlo");
        let count = (f(&v["p_success"]) * TRIALS as f64).round() as u64;
        let (l, h) = dice_sim::wilson_interval(count, TRIALS, common::CHECK_CONFIDENCE);
        assert!(l <= p && p <= h, "{args:?}: {p} outside [{l}, {h}]");
    }
}

#[test]
fn the_vehicle_roll_sweeps_and_prints_in_every_format() {
    let v = json(&[
        "scratch-rps",
        "vehicle",
        "--vehicle",
        "water",
        "--level",
        "1..3",
        "--difficulty",
        "10,15",
        "--odds",
    ]);
    let cells = v["cells"].as_array().expect("cells");
    for (i, row) in cells.iter().enumerate() {
        for (j, d) in [10, 15].into_iter().enumerate() {
            assert!(close(f(&row[j]), chance(i as i64 + 1, d)), "{v}");
        }
    }
    let base = ["scratch-rps", "hurry", "--level", "2", "--odds", "--format"];
    let with = |format: &'static str| {
        let mut a = base.to_vec();
        a.push(format);
        ok(&a)
    };
    let csv = with("csv");
    assert!(csv.contains("failure,"), "{csv}");
    let md = with("markdown");
    assert!(md.contains("P(the temporary bonus is added)"), "{md}");
}

#[test]
fn the_help_speaks_in_the_games_terms() {
    for cmd in ["vehicle", "hurry"] {
        let help = ok(&["scratch-rps", cmd, "--help"]);
        let cites_a_line = help.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            w.len() > 1 && w.starts_with('L') && w[1..].chars().all(|c| c.is_ascii_digit())
        });
        assert!(!cites_a_line, "{help}");
        assert!(!help.contains("SC-"), "{help}");
    }
}
