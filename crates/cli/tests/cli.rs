//! Runs the `dice` binary and checks its output and exit codes. Every expected probability
//! is derived here by enumeration or a formula written out in the test.

use crate::common;
use common::{bad, close, dice, dice_env, ints, json, ok};

use serde_json::Value;

/// The `distribution` array as (outcome, probability) pairs.
fn rows(v: &Value) -> Vec<(Value, f64)> {
    v["distribution"]
        .as_array()
        .expect("a distribution array")
        .iter()
        .map(|r| (r["outcome"].clone(), r["probability"].as_f64().expect("p")))
        .collect()
}

/// The law of the sum of `n` d`s`, by enumerating every roll.
fn sum_law(n: u32, s: i64) -> Vec<(i64, f64)> {
    let mut counts = std::collections::BTreeMap::new();
    let total = (s as u64).pow(n);
    for k in 0..total {
        let (mut x, mut sum) = (k, 0i64);
        for _ in 0..n {
            sum += (x % s as u64) as i64 + 1;
            x /= s as u64;
        }
        *counts.entry(sum).or_insert(0u64) += 1;
    }
    counts
        .into_iter()
        .map(|(v, c)| (v, c as f64 / total as f64))
        .collect()
}

// ------------------------------------------------------------------------ dice roll

#[test]
fn roll_with_a_seed_is_deterministic_and_shows_every_die() {
    let a = ok(&["roll", "4d6kh3", "--seed", "7"]);
    let b = ok(&["roll", "4d6kh3", "--seed", "7"]);
    assert_eq!(a, b);
    assert!(a.starts_with("4d6kh3 ["), "{a}");
    assert!(a.contains("result: "), "{a}");
    assert!(a.trim_end().ends_with("seed 7"), "{a}");
    // One die dropped, shown in parentheses.
    assert_eq!(a.lines().next().unwrap().matches('(').count(), 1, "{a}");

    let v = json(&["roll", "4d6kh3", "--seed", "7"]);
    assert_eq!(v["command"], "roll");
    assert_eq!(v["expression"], "4d6kh3");
    assert_eq!(v["seed"], 7);
    let dice = v["terms"][0]["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 4);
    let kept: Vec<i64> = dice
        .iter()
        .filter(|d| d["kept"] == true)
        .map(|d| d["value"].as_i64().unwrap())
        .collect();
    assert_eq!(kept.len(), 3);
    let dropped = dice.iter().find(|d| d["kept"] == false).unwrap()["value"]
        .as_i64()
        .unwrap();
    assert!(kept.iter().all(|&k| k >= dropped));
    assert_eq!(v["outcome"].as_i64().unwrap(), kept.iter().sum::<i64>());
    assert_eq!(
        v["display"].as_str().unwrap(),
        a.lines().take(3).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn roll_without_a_seed_reports_one_that_replays_it() {
    let first = json(&["roll", "3d6!", "+", "2"]);
    let seed = first["seed"].as_u64().expect("a seed");
    let again = json(&["roll", "3d6!", "+", "2", "--seed", &seed.to_string()]);
    assert_eq!(first["terms"], again["terms"]);
    assert_eq!(first["outcome"], again["outcome"]);
}

#[test]
fn roll_marks_successes_and_comparisons() {
    let out = ok(&["roll", "10d10>=8f1", "--seed", "1"]);
    assert!(out.contains('*'), "{out}");
    let v = json(&["roll", "1d20", "+", "5", "vs", "15", "--seed", "2"]);
    assert_eq!(v["expression"], "1d20+5 vs 15");
    assert_eq!(v["target"], 15);
    let total = v["total"].as_i64().unwrap();
    let want = match total.cmp(&15) {
        std::cmp::Ordering::Less => "below",
        std::cmp::Ordering::Equal => "equal",
        std::cmp::Ordering::Greater => "above",
    };
    assert_eq!(v["outcome"], want);
}

// ------------------------------------------------------------------------ dice odds

#[test]
fn exact_odds_of_2d6_match_enumeration() {
    let law = sum_law(2, 6);
    let v = json(&["odds", "2d6"]);
    assert_eq!(v["method"], "exact");
    assert_eq!(v["comparison"], false);
    let got = rows(&v);
    assert_eq!(got.len(), law.len());
    for ((o, p), (want_o, want_p)) in got.iter().zip(&law) {
        assert_eq!(o.as_i64(), Some(*want_o));
        assert!(close(*p, *want_p), "P({want_o}) = {p}, want {want_p}");
    }
    let mean: f64 = law.iter().map(|(v, p)| *v as f64 * p).sum();
    let var: f64 = law
        .iter()
        .map(|(v, p)| (*v as f64 - mean).powi(2) * p)
        .sum();
    assert!(close(v["mean"].as_f64().unwrap(), mean));
    assert!((v["std_dev"].as_f64().unwrap() - var.sqrt()).abs() < 1e-9);
    assert_eq!(v["tail"], 0.0);

    let text = ok(&["odds", "2d6"]);
    assert!(text.starts_with("2d6: exact odds"), "{text}");
    // 7: 6 of 36 = 16.6667%, at least 7: 21 of 36 = 58.3333%.
    let seven = text
        .lines()
        .find(|l| l.trim_start().starts_with("7 "))
        .unwrap();
    assert!(
        seven.contains("16.6667%") && seven.contains("58.3333%"),
        "{seven}"
    );
    assert!(seven.contains('█'), "{seven}");
    assert!(text.contains("mean 7.0000"), "{text}");
}

#[test]
fn exact_odds_of_a_comparison_are_named() {
    let v = json(&["odds", "1d20 vs 11"]);
    assert_eq!(v["comparison"], true);
    assert!(v.get("mean").is_none());
    let count = |pred: fn(i64) -> bool| (1..=20).filter(|&f| pred(f)).count() as f64 / 20.0;
    let want = [
        ("below", count(|f| f < 11)),
        ("equal", count(|f| f == 11)),
        ("above", count(|f| f > 11)),
    ];
    let got = rows(&v);
    assert_eq!(got.len(), 3);
    for ((o, p), (name, q)) in got.iter().zip(want) {
        assert_eq!(o, name);
        assert!(close(*p, q));
    }
}

#[test]
fn monte_carlo_estimates_agree_with_enumeration_and_replay() {
    let args = [
        "odds",
        "2d6",
        "--monte-carlo",
        "--trials",
        "20000",
        "--seed",
        "3",
    ];
    let v = json(&args);
    assert_eq!(v["method"], "monte_carlo");
    assert_eq!(v["trials"], 20000);
    assert_eq!(v["seed"], 3);
    assert_eq!(v["confidence"], 0.95);
    let law = sum_law(2, 6);
    let n = 20000.0;
    let mut counted = 0;
    for r in v["distribution"].as_array().unwrap() {
        let o = r["outcome"].as_i64().unwrap();
        let p = r["probability"].as_f64().unwrap();
        let (lo, hi) = (r["low"].as_f64().unwrap(), r["high"].as_f64().unwrap());
        assert!(lo <= p && p <= hi);
        counted += r["count"].as_u64().unwrap();
        let q = law.iter().find(|(v, _)| *v == o).unwrap().1;
        let se = (q * (1.0 - q) / n).sqrt();
        assert!((p - q).abs() < 5.0 * se, "P({o}) = {p}, exact {q}");
    }
    assert_eq!(counted, 20000);
    assert!(
        (v["mean"].as_f64().unwrap() - 7.0).abs() < 5.0 * v["standard_error"].as_f64().unwrap()
    );
    // Same seed, same estimates.
    assert_eq!(json(&args)["distribution"], v["distribution"]);
    let text = ok(&args);
    assert!(
        text.contains("Monte Carlo estimate, 20000 trials"),
        "{text}"
    );
}

#[test]
fn monte_carlo_draws_a_progress_bar_on_stderr_when_asked() {
    let out = dice_env(
        &["odds", "1d6", "--mc", "--trials", "5000", "--seed", "1"],
        &[("DICE_PROGRESS", "always")],
    );
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("5000/5000 trials"), "{err}");
    // Not on a terminal, and not asked: no bar.
    let quiet = dice(&["odds", "1d6", "--mc", "--trials", "5000", "--seed", "1"]);
    assert!(quiet.stderr.is_empty());
}

#[test]
fn monte_carlo_handles_what_exact_odds_refuse() {
    let err = bad(&["odds", "100d100*100d100"]);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("--monte-carlo"), "{err}");
    let v = json(&[
        "odds",
        "100d100*100d100",
        "--mc",
        "--trials",
        "2000",
        "--seed",
        "1",
    ]);
    assert_eq!(v["trials"], 2000);
}

// ------------------------------------------------------------------------ bad input

#[test]
fn a_bad_expression_points_at_the_fault_and_exits_2() {
    let err = bad(&["roll", "2d6 + kh"]);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("error: expected"), "{err}");
    assert!(lines[0].ends_with("at column 7"), "{err}");
    assert_eq!(lines[1], "  2d6 + kh");
    assert_eq!(lines[2], "        ^^");
    let err = bad(&["odds", "3d1"]);
    assert!(err.contains("^"), "{err}");
    bad(&["roll", ""]);
    bad(&["odds", "1d6", "--json", "+"]);
}

#[test]
fn usage_errors_exit_2() {
    bad(&["odds", "2d6", "--trials", "10"]); // --trials needs --monte-carlo
    bad(&["odds", "2d6", "--mc", "--trials", "0"]);
    bad(&["roll"]);
    bad(&["flip"]);
    bad(&["roll", "2d6", "--seed", "-1"]);
    let err = bad(&[
        "shapers-and-bots",
        "challenge",
        "--skill",
        "superb",
        "--task",
        "low",
    ]);
    assert!(err.contains("unknown level"), "{err}");
    bad(&[
        "shapers-percentile",
        "attack",
        "--attribute",
        "1",
        "--aptitude",
        "1",
        "--defender-attribute",
        "3",
        "--passive",
        "4",
    ]);
    bad(&[
        "scratch-rps",
        "attack",
        "--kind",
        "throw-object",
        "--defense",
        "10",
        "--level",
        "2",
    ]);
}

#[test]
fn rule_violations_exit_2_with_the_rule() {
    let err = bad(&[
        "scratch-rps",
        "attack",
        "--kind",
        "hold",
        "--ability",
        "shooting",
        "--level",
        "2",
        "--defense",
        "13",
    ]);
    assert!(
        err.starts_with("error: hold cannot be rolled with shooting"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    let err = bad(&[
        "shapers-and-bots",
        "damage",
        "--weapon",
        "really-powerful",
        "--armored",
    ]);
    assert!(err.contains("leaves it to the table"), "{err}");
    let err = bad(&[
        "shapers-percentile",
        "test",
        "--attribute",
        "20000",
        "--aptitude",
        "1",
    ]);
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn help_exits_0_and_speaks_the_games_terms() {
    assert!(ok(&["--help"]).contains("shapers-and-bots"));
    assert!(ok(&["shapers-and-bots", "challenge", "--help"]).contains("--skill <LEVEL>"));
    assert!(ok(&["shapers-percentile", "attack", "--help"]).contains("--defender-aptitude"));
    assert!(ok(&["scratch-rps", "roll", "--help"]).contains("--difficulty"));
    assert!(ok(&["odds", "--help"]).contains("--monte-carlo"));
}

// ------------------------------------------------------------------------ shapers-and-bots

#[test]
fn rule_flags_switch_a_games_rulings() {
    // A fluke against Average (7): one point per successive 4–6 on a d6, so P(score = 7) =
    // (1/2)⁷ · (1/2) and P(score > 7) = (1/2)⁸. SB-A3's default reads exactly 7 as success
    // with consequences; with the knob off it is a plain success.
    let p = |v: &Value, outcome: &str| {
        rows(v)
            .into_iter()
            .find(|(o, _)| o == outcome)
            .map_or(0.0, |(_, p)| p)
    };
    let half8 = 0.5f64.powi(8);
    let default = json(&["shapers-and-bots", "fluke", "--task", "average", "--odds"]);
    assert!(close(p(&default, "success_with_consequences"), half8));
    assert!(close(p(&default, "success"), half8));
    for args in [
        // Before the roll's subcommand or after it.
        [
            "shapers-and-bots",
            "--rule",
            "fluke_equal_is_consequence=false",
            "fluke",
            "--task",
            "average",
            "--odds",
        ],
        [
            "shapers-and-bots",
            "fluke",
            "--task",
            "average",
            "--odds",
            "--rule",
            "fluke-equal-is-consequence=false",
        ],
    ] {
        let v = json(&args);
        assert_eq!(p(&v, "success_with_consequences"), 0.0, "{args:?}");
        assert!(close(p(&v, "success"), 2.0 * half8), "{args:?}");
    }
    // An unknown ruling lists every ruling of the game with its default; a value of the
    // wrong type and an item without `=` are refused too.
    let unknown = bad(&[
        "shapers-and-bots",
        "--rule",
        "nope=1",
        "fluke",
        "--task",
        "low",
    ]);
    assert!(unknown.contains("no ruling named `nope`"), "{unknown}");
    assert!(
        unknown.contains("fluke_equal_is_consequence (default true)"),
        "{unknown}"
    );
    assert!(
        unknown.contains("max_borrowed_actions (default 2)"),
        "{unknown}"
    );
    let wrong = bad(&[
        "shapers-and-bots",
        "--rule",
        "max_borrowed_actions=lots",
        "fluke",
        "--task",
        "low",
    ]);
    assert!(wrong.contains("does not fit"), "{wrong}");
    let no_equals = bad(&[
        "swimclass",
        "--rule",
        "broken",
        "task",
        "--rank",
        "3",
        "--difficulty",
        "4",
    ]);
    assert!(no_equals.contains("KEY=VALUE"), "{no_equals}");
    // Every game takes the flag (each game's first example, with an unknown ruling).
    for example in [
        "robots-and-rapiers test --dice 8 --tn 4 --difficulty 1",
        "scratch-rps roll --level 3 --difficulty 15",
        "shapers-and-bots challenge --skill high --task awesome",
        "shapers-percentile test --attribute 10 --aptitude 5",
        "swimclass task --rank 3 --difficulty 4",
    ] {
        let mut args: Vec<&str> = example.split(' ').collect();
        assert!(!ok(&args).is_empty(), "{example}");
        args.extend(["--rule", "no_such_ruling=1"]);
        let listing = bad(&args);
        assert!(listing.contains("(default "), "{example}: {listing}");
    }
}

#[test]
fn shapers_and_bots_challenge_rolls_and_odds() {
    let args = [
        "shapers-and-bots",
        "challenge",
        "--skill",
        "high",
        "--task",
        "awesome",
        "--seed",
        "1",
    ];
    assert_eq!(ok(&args), ok(&args));
    let v = json(&args);
    assert_eq!(v["command"], "shapers-and-bots challenge");
    assert_eq!(v["attempt"], "challenge");
    assert_eq!(
        (v["skill"].as_str(), v["task"].as_str()),
        (Some("high"), Some("awesome"))
    );
    let dice = ints(&v["dice"]);
    assert_eq!(dice.len(), 2);
    assert!(dice.iter().all(|d| (1..=6).contains(d)));
    // High: +2; Awesome: target 13 (L50–57).
    assert_eq!(v["total"].as_i64().unwrap(), dice.iter().sum::<i64>() + 2);
    assert_eq!(v["target"], 13);
    let total = v["total"].as_i64().unwrap();
    let want = if total > 13 {
        "success"
    } else if total == 13 {
        "success_with_consequences"
    } else {
        "failure"
    };
    assert_eq!(v["outcome"], want);

    // Odds, by enumerating the 36 rolls of 2d6 + 2 against 13.
    let o = json(&[
        "shapers-and-bots",
        "challenge",
        "--skill",
        "high",
        "--task",
        "awesome",
        "--odds",
    ]);
    let mut counts = [0.0; 3];
    for a in 1..=6 {
        for b in 1..=6 {
            let t = a + b + 2;
            counts[if t < 13 {
                0
            } else if t == 13 {
                1
            } else {
                2
            }] += 1.0 / 36.0;
        }
    }
    let got = rows(&o);
    let names = ["failure", "success_with_consequences", "success"];
    for (i, (name, p)) in got.iter().enumerate() {
        assert_eq!(name, names[i]);
        assert!(close(*p, counts[i]));
    }
    assert!(close(
        o["p_success"].as_f64().unwrap(),
        counts[1] + counts[2]
    ));
}

#[test]
fn shapers_and_bots_automatic_success_and_fluke() {
    let v = json(&[
        "shapers-and-bots",
        "challenge",
        "--skill",
        "average",
        "--task",
        "low",
        "--seed",
        "1",
    ]);
    assert_eq!(v["attempt"], "automatic_success");
    assert_eq!(v["outcome"], "success");
    let v = json(&[
        "shapers-and-bots",
        "challenge",
        "--skill",
        "average",
        "--task",
        "low",
        "--important",
        "--seed",
        "1",
    ]);
    assert_eq!(v["attempt"], "challenge");

    let v = json(&[
        "shapers-and-bots",
        "challenge",
        "--skill",
        "none",
        "--task",
        "low",
        "--seed",
        "5",
    ]);
    assert_eq!(v["attempt"], "fluke");
    let dice = ints(&v["dice"]);
    // Every face but the last continues the streak (4–6); the last misses.
    let (last, streak) = dice.split_last().unwrap();
    assert!(streak.iter().all(|&f| f >= 4) && *last <= 3);
    assert_eq!(v["score"].as_u64().unwrap(), streak.len() as u64);

    // P(score = k) = 2^-(k+1): exactly 7 is a success with consequences (SB-A3), more a success.
    let o = json(&["shapers-and-bots", "fluke", "--task", "average", "--odds"]);
    let p_eq = 0.5f64.powi(8);
    let p_above: f64 = (8..200).map(|k| 0.5f64.powi(k + 1)).sum();
    for (name, p) in rows(&o) {
        match name.as_str().unwrap() {
            "success_with_consequences" => assert!(close(p, p_eq)),
            "success" => assert!((p - p_above).abs() < 1e-12),
            "failure" => assert!((p - (1.0 - p_eq - p_above)).abs() < 1e-12),
            other => panic!("unexpected outcome {other}"),
        }
    }
}

#[test]
fn shapers_and_bots_damage() {
    let v = json(&[
        "shapers-and-bots",
        "damage",
        "--weapon",
        "large",
        "--seed",
        "2",
    ]);
    let dice = ints(&v["dice"]);
    // Large, unarmored: 1 + one per successive 3–6.
    let streak = dice.iter().take_while(|&&f| f >= 3).count() as u64;
    assert_eq!(v["points"].as_u64().unwrap(), 1 + streak);
    // Mean: 1 + p / (1 − p) with p = 4/6, the geometric streak's mean.
    let o = json(&["shapers-and-bots", "damage", "--weapon", "large", "--odds"]);
    let p = 4.0 / 6.0;
    assert!((o["mean"].as_f64().unwrap() - (1.0 + p / (1.0 - p))).abs() < 1e-9);
    let (first, p1) = &rows(&o)[0];
    assert_eq!(first.as_i64(), Some(1));
    assert!(close(*p1, 1.0 - p));
    let none = json(&[
        "shapers-and-bots",
        "damage",
        "--weapon",
        "punch",
        "--armored",
        "--seed",
        "1",
    ]);
    assert_eq!(none["points"], 0);
}

// ------------------------------------------------------------------------ shapers-percentile

#[test]
fn shapers_percentile_test_and_attack() {
    let v = json(&[
        "shapers-percentile",
        "test",
        "--attribute",
        "10",
        "--aptitude",
        "5",
        "--seed",
        "1",
    ]);
    assert_eq!(v["test"]["tn"], 65);
    let roll = v["roll"].as_i64().unwrap();
    assert!((1..=100).contains(&roll));
    assert_eq!(v["margin"].as_i64().unwrap(), 65 - roll);
    assert_eq!(v["outcome"], if roll <= 65 { "success" } else { "failure" });

    let o = json(&[
        "shapers-percentile",
        "test",
        "--attribute",
        "10",
        "--aptitude",
        "5",
        "--modifier",
        "-20",
        "--odds",
    ]);
    let want = (1..=100).filter(|&f| f <= 45).count() as f64 / 100.0;
    assert!(close(o["p_success"].as_f64().unwrap(), want));

    // Opposed, equal TNs of 65: a failed attack (roll above 65) never hits; a successful one
    // hits unless the defender also succeeds with a margin at least as high (a roll at least
    // as low).
    let o = json(&[
        "shapers-percentile",
        "attack",
        "--attribute",
        "10",
        "--aptitude",
        "5",
        "--defender-attribute",
        "10",
        "--defender-aptitude",
        "5",
        "--odds",
    ]);
    let mut hits = 0;
    for a in 1..=100 {
        for d in 1..=100 {
            if a <= 65 && (d > 65 || a < d) {
                hits += 1;
            }
        }
    }
    assert!(close(
        o["p_hit"].as_f64().unwrap(),
        f64::from(hits) / 10_000.0
    ));
    let total: f64 = rows(&o).iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!(
        o["distribution"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["outcome"] == "counter_attack" && r["bonus"].is_u64())
    );

    let v = json(&[
        "shapers-percentile",
        "attack",
        "--attribute",
        "10",
        "--aptitude",
        "5",
        "--passive",
        "20",
        "--seed",
        "3",
    ]);
    assert_eq!(v["defence"]["kind"], "passive");
    let margin = v["attacker_roll"]["margin"].as_i64().unwrap();
    assert_eq!(v["net"].as_i64().unwrap(), margin - 20);
}

// ------------------------------------------------------------------------ scratch-rps

#[test]
fn scratch_rps_roll_and_attack() {
    let v = json(&[
        "scratch-rps",
        "roll",
        "--level",
        "3",
        "--difficulty",
        "15",
        "--seed",
        "1",
    ]);
    let n = v["natural"].as_i64().unwrap();
    assert_eq!(v["total"].as_i64().unwrap(), n + 3);
    let want = if n == 20 {
        "automatic_success"
    } else if n + 3 >= 15 {
        "success"
    } else {
        "failure"
    };
    assert_eq!(v["outcome"], want);

    let o = json(&[
        "scratch-rps",
        "roll",
        "--level",
        "3",
        "--difficulty",
        "15",
        "--odds",
    ]);
    let count = |f: &dyn Fn(i64) -> bool| (1..=20).filter(|&n| f(n)).count() as f64 / 20.0;
    let want = [
        ("failure", count(&|n| n != 20 && n + 3 < 15)),
        ("success", count(&|n| n != 20 && n + 3 >= 15)),
        ("automatic_success", count(&|n| n == 20)),
    ];
    for ((o, p), (name, q)) in rows(&o).iter().zip(want) {
        assert_eq!(o, name);
        assert!(close(*p, q));
    }

    // Shooting with 2 against defense 13: 2 damage on 11–19, 5 on a natural 20 (SC-A1).
    let o = json(&[
        "scratch-rps",
        "attack",
        "--kind",
        "shooting",
        "--ability",
        "shooting",
        "--level",
        "2",
        "--defense",
        "13",
        "--odds",
    ]);
    let expected: f64 = (1..=20)
        .map(|n| {
            if n == 20 {
                5.0
            } else if n + 2 >= 13 {
                2.0
            } else {
                0.0
            }
        })
        .sum::<f64>()
        / 20.0;
    assert!(close(o["expected_damage"].as_f64().unwrap(), expected));
    let damages: Vec<u64> = o["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["damage"].as_u64().unwrap())
        .collect();
    assert_eq!(damages, [0, 2, 5]);

    let args = [
        "scratch-rps",
        "attack",
        "--kind",
        "basic-attack",
        "--defense",
        "12",
        "--modifier",
        "-2",
        "--seed",
        "4",
    ];
    assert_eq!(ok(&args), ok(&args));
    let v = json(&args);
    assert_eq!(
        v["total"].as_i64().unwrap(),
        v["natural"].as_i64().unwrap() - 2
    );
}

// ------------------------------------------------------------------------ the workbench

/// P(≥ x) and P(≤ x) of a law given as sorted (x, p) pairs, by summing.
fn cumulative(law: &[(i64, f64)]) -> Vec<(f64, f64)> {
    law.iter()
        .map(|(x, _)| {
            let ge: f64 = law.iter().filter(|(y, _)| y >= x).map(|(_, p)| p).sum();
            let le: f64 = law.iter().filter(|(y, _)| y <= x).map(|(_, p)| p).sum();
            (ge, le)
        })
        .collect()
}

/// The smallest x whose P(≤ x) reaches q.
fn quantile(law: &[(i64, f64)], q: f64) -> i64 {
    let mut acc = 0.0;
    for (x, p) in law {
        acc += p;
        if acc >= q - 1e-12 {
            return *x;
        }
    }
    law.last().unwrap().0
}

#[test]
fn every_format_gives_the_same_law_with_at_least_and_at_most() {
    let law = sum_law(2, 6);
    let cum = cumulative(&law);
    // CSV: a header, then outcome, P(=), P(≥), P(≤) at full precision.
    let text = ok(&["odds", "2d6", "--format", "csv"]);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("outcome,probability,at_least,at_most"));
    for (line, ((x, p), (ge, le))) in lines.zip(law.iter().zip(&cum)) {
        let f: Vec<f64> = line.split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(f[0] as i64, *x);
        assert!(close(f[1], *p) && (f[2] - ge).abs() < 1e-12 && (f[3] - le).abs() < 1e-12);
    }
    // JSON: the same columns, and the median and quantiles.
    let v = json(&["odds", "2d6"]);
    let by_format: Value = serde_json::from_str(&ok(&["odds", "2d6", "--format", "json"])).unwrap();
    assert_eq!(v, by_format);
    for (row, (ge, le)) in v["distribution"].as_array().unwrap().iter().zip(&cum) {
        assert!((row["at_least"].as_f64().unwrap() - ge).abs() < 1e-12);
        assert!((row["at_most"].as_f64().unwrap() - le).abs() < 1e-12);
    }
    assert_eq!(v["median"], quantile(&law, 0.5));
    assert_eq!(v["quantiles"]["p05"], quantile(&law, 0.05));
    assert_eq!(v["quantiles"]["p95"], quantile(&law, 0.95));
    // Markdown: a table row per outcome. 7: 6/36, at least 7: 21/36, at most 7: 21/36.
    let md = ok(&["odds", "2d6", "--format", "markdown"]);
    assert!(
        md.contains("| 7 | 16.6667% | 58.3333% | 58.3333% |"),
        "{md}"
    );
    // Text: the three columns, and the median line.
    let text = ok(&["odds", "2d6"]);
    let seven = text
        .lines()
        .find(|l| l.trim_start().starts_with("7 "))
        .unwrap();
    assert_eq!(seven.matches("58.3333%").count(), 2, "{seven}");
    let q = |x| quantile(&law, x);
    let want = format!(
        "median {} (quantiles: 5% {}, 25% {}, 75% {}, 95% {})",
        q(0.5),
        q(0.05),
        q(0.25),
        q(0.75),
        q(0.95)
    );
    assert!(text.contains(&want), "{text}");
    // --view at-least draws the bars of P(≥): the longest is the first row's.
    let ge = ok(&["odds", "2d6", "--view", "at-least"]);
    let first = ge.lines().nth(2).unwrap();
    assert!(first.ends_with(&"█".repeat(40)), "{ge}");
    // A roll in CSV: one header line, one line of values.
    let roll = ok(&["roll", "2d6", "--seed", "3", "--format", "csv"]);
    assert!(roll.starts_with("command,"), "{roll}");
    bad(&["odds", "2d6", "--json", "--format", "csv"]);
}

#[test]
fn several_expressions_are_compared_side_by_side() {
    let v = json(&["odds", "3d6", "2d6"]);
    assert_eq!(v["varies"], "expression");
    let compared = v["compared"].as_array().unwrap();
    assert_eq!(compared.len(), 2);
    for (item, n) in compared.iter().zip([3, 2]) {
        let got = rows(&item["odds"]);
        let want = sum_law(n, 6);
        assert_eq!(got.len(), want.len());
        for ((o, p), (x, q)) in got.iter().zip(&want) {
            assert_eq!(o.as_i64(), Some(*x));
            assert!(close(*p, *q));
        }
    }
    let text = ok(&["odds", "3d6", "2d6"]);
    assert!(text.starts_with("odds: 3d6 | 2d6: exact odds"), "{text}");
    assert!(text.contains("mean"), "{text}");
    // One expression written in words still reads as one.
    assert_eq!(json(&["odds", "1d20", "+", "5"])["expression"], "1d20+5");
    // Columns in CSV: one P(=), P(≥), P(≤) per expression.
    let csv = ok(&["odds", "1d4", "1d6", "--format", "csv"]);
    assert_eq!(csv.lines().next().unwrap().split(',').count(), 7, "{csv}");
    assert_eq!(csv.lines().count(), 1 + 6);
}

#[test]
fn game_option_lists_compare_and_ranges_sweep() {
    // P(success) of a Swimclass task (progress 1) = P(at least one of n d6 ≥ d).
    let p = |n: i32, d: i32| 1.0 - (f64::from(d - 1) / 6.0).powi(n);
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "1..3",
        "--difficulty",
        "4,5",
        "--odds",
    ]);
    assert_eq!(v["stat"], "p_success");
    assert_eq!(v["rows"], serde_json::json!(["1", "2", "3"]));
    assert_eq!(v["columns"], serde_json::json!(["4", "5"]));
    for (i, n) in (1..=3).enumerate() {
        for (j, d) in [4, 5].into_iter().enumerate() {
            let got = v["cells"][i][j].as_f64().unwrap();
            assert!(
                (got - p(n, d)).abs() < 1e-12,
                "rank {n} difficulty {d}: {got}"
            );
        }
    }
    let csv = ok(&[
        "swimclass",
        "task",
        "--rank",
        "1..2",
        "--difficulty",
        "4",
        "--odds",
        "--format",
        "csv",
    ]);
    // Comment lines say what the grid holds; the grid follows them unchanged.
    let grid: String = csv
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(grid.starts_with("rank,P(success)\n1,0.5\n"), "{csv}");
    assert!(
        csv.starts_with("# swimclass task: P(success) by rank"),
        "{csv}"
    );
    // --stat picks another number: P(2 or more successes) of 2d6 at 4 is 1/4.
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "2..3",
        "--difficulty",
        "4",
        "--odds",
        "--stat",
        ">=2",
    ]);
    assert!(
        (v["cells"][0][0].as_f64().unwrap() - 0.25).abs() < 1e-12,
        "{v}"
    );
    // A list of one option compares the laws.
    let v = json(&[
        "shapers-and-bots",
        "challenge",
        "--skill",
        "high,average",
        "--task",
        "high",
        "--odds",
    ]);
    let labels: Vec<&str> = v["compared"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["skill=high", "skill=average"]);
    // A list needs odds; more than two options may not vary.
    bad(&["swimclass", "task", "--rank", "1,2", "--difficulty", "4"]);
    bad(&[
        "swimclass",
        "task",
        "--rank",
        "1..2",
        "--difficulty",
        "4,5",
        "--aid",
        "0,1",
        "--odds",
    ]);
}

/// A file in the temporary folder, unique to this test process.
fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("dice-cli-test-{}-{name}", std::process::id()))
}

#[test]
fn plots_are_svg_charts() {
    let bars = temp("bars.svg");
    let path = bars.to_str().unwrap();
    ok(&["odds", "2d6", "--plot", path]);
    let svg = std::fs::read_to_string(&bars).unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    // One bar per outcome, each titled with its chance.
    assert_eq!(svg.matches("<title>").count(), 11);
    assert!(svg.contains("<title>7: 16.6667%</title>"), "{svg}");
    let heat = temp("heat.svg");
    ok(&[
        "swimclass",
        "task",
        "--rank",
        "1..3",
        "--difficulty",
        "3..5",
        "--odds",
        "--plot",
        heat.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&heat).unwrap();
    assert_eq!(svg.matches("<title>rank").count(), 9);
    assert!(svg.contains("linearGradient"));
    let _ = std::fs::remove_file(&bars);
    let _ = std::fs::remove_file(&heat);
    bad(&["roll", "2d6", "--plot", path]);
    bad(&["odds", "2d6", "--plot", "chart.pdf"]);
    #[cfg(not(feature = "png"))]
    bad(&["odds", "2d6", "--plot", "chart.png"]);
}

#[test]
fn every_game_roll_can_be_simulated() {
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "3",
        "--difficulty",
        "4",
        "--mc",
        "--trials",
        "4000",
        "--seed",
        "1",
    ]);
    assert_eq!(v["method"], "monte_carlo");
    let counted: u64 = v["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["count"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 4000);
    let exact = 1.0 - 0.5f64.powi(3);
    let se = (exact * (1.0 - exact) / 4000.0).sqrt();
    assert!((v["p_success"].as_f64().unwrap() - exact).abs() < 5.0 * se);
    for args in [
        &["shapers-and-bots", "fluke", "--task", "low"][..],
        &[
            "shapers-percentile",
            "test",
            "--attribute",
            "5",
            "--aptitude",
            "5",
        ],
        &["scratch-rps", "roll", "--difficulty", "11"],
        &["robots-and-rapiers", "save", "--tn", "5"],
    ] {
        let mut a = args.to_vec();
        a.extend(["--mc", "--trials", "500", "--seed", "2"]);
        assert_eq!(json(&a)["method"], "monte_carlo", "{a:?}");
    }
}

#[test]
fn shards_merged_equal_the_single_run_bit_for_bit() {
    for base in [
        &["odds", "3d6", "--mc", "--trials", "30000", "--seed", "5"][..],
        &[
            "swimclass",
            "task",
            "--rank",
            "1..2",
            "--difficulty",
            "4",
            "--mc",
            "--trials",
            "3000",
            "--seed",
            "2",
        ],
    ] {
        let single = ok(&[base, &["--json"]].concat());
        let mut files = Vec::new();
        for i in 1..=3 {
            let shard = format!("{i}/3");
            let out = ok(&[base, &["--shard", &shard]].concat());
            let f = temp(&format!("shard-{i}.json"));
            std::fs::write(&f, out).unwrap();
            files.push(f);
        }
        let names: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
        let merged = ok(&[&["merge"][..], &names, &["--json"]].concat());
        assert_eq!(merged, single, "{base:?}");
        // A shard missing, or given twice, is refused.
        bad(&["merge", names[0], names[1]]);
        bad(&["merge", names[0], names[0], names[2]]);
        for f in &files {
            let _ = std::fs::remove_file(f);
        }
    }
    // Shards need a seed, and a Monte Carlo run.
    bad(&["odds", "3d6", "--mc", "--shard", "1/2"]);
    bad(&["odds", "3d6", "--seed", "1", "--shard", "1/2"]);
}

/// Shards made by the same run, written differently (another path to the program, the
/// options in another order or spelling), merge; a shard of another seed does not.
#[test]
fn shards_merge_whatever_the_program_path_and_option_order() {
    let single = ok(&[
        "odds", "3d6", "--mc", "--trials", "30000", "--seed", "5", "--json",
    ]);
    let lines = [
        ok(&[
            "odds", "3d6", "--mc", "--trials", "30000", "--seed", "5", "--shard", "1/3",
        ]),
        ok(&[
            "odds",
            "--seed=5",
            "--shard",
            "2/3",
            "3d6",
            "--trials=30000",
            "--monte-carlo",
        ]),
        ok(&[
            "--seed", "5", "odds", "3d6", "--mc", "--trials", "30000", "--shard", "3/3",
        ]),
    ];
    let mut files = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        // As if run as `dice` from the PATH on another machine.
        if i == 2 {
            v["argv"][0] = Value::from("dice");
        }
        if i > 0 {
            assert_ne!(
                v["argv"],
                lines_argv(&lines[0]),
                "shard {i} is written differently"
            );
        }
        let f = temp(&format!("argv-shard-{i}.json"));
        std::fs::write(&f, v.to_string()).unwrap();
        files.push(f);
    }
    let names: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
    assert_eq!(ok(&[&["merge"][..], &names, &["--json"]].concat()), single);
    // Another seed is another run.
    let other = ok(&[
        "odds", "3d6", "--mc", "--trials", "30000", "--seed", "6", "--shard", "3/3",
    ]);
    let f = temp("argv-shard-other.json");
    std::fs::write(&f, other).unwrap();
    let e = bad(&["merge", names[0], names[1], f.to_str().unwrap()]);
    assert!(e.contains("another run"), "{e}");
    for f in files.iter().chain([&f]) {
        let _ = std::fs::remove_file(f);
    }
}

/// The `argv` of a shard's JSON line.
fn lines_argv(line: &str) -> Value {
    serde_json::from_str::<Value>(line).unwrap()["argv"].clone()
}

/// `--stat NAME` for an outcome that cannot happen in some cells reads 0 there, as its
/// headline probability does: P(Total Failure) of a saving throw is every one of its 3d10
/// above the target number (TN + modifier, at least 0 and at most 10).
#[test]
fn a_sweep_of_an_outcome_by_name_has_no_empty_cells() {
    let by_name = json(&[
        "robots-and-rapiers",
        "save",
        "--tn",
        "1..10:3",
        "--modifier=-1,0,1",
        "--odds",
        "--stat",
        "total_failure",
    ]);
    let by_key = json(&[
        "robots-and-rapiers",
        "save",
        "--tn",
        "1..10:3",
        "--modifier=-1,0,1",
        "--odds",
        "--stat",
        "p_total_failure",
    ]);
    assert_eq!(by_name["cells"], by_key["cells"]);
    assert_eq!(by_name["stat"], "p_total_failure");
    assert_eq!(by_name["notes"], Value::Array(Vec::new()));
    for (i, tn) in [1i64, 4, 7, 10].iter().enumerate() {
        for (j, m) in [-1i64, 0, 1].iter().enumerate() {
            let target = (tn + m).clamp(0, 10);
            let miss = (10 - target) as f64 / 10.0;
            let cell = by_name["cells"][i][j]
                .as_f64()
                .expect("a number in every cell");
            assert!(close(cell, miss.powi(3)), "tn {tn} modifier {m}: {cell}");
        }
    }
}

/// Runs `dice args` with the progress bar drawn, presses Ctrl-C (SIGINT) once the bar
/// shows the run has begun, and returns how it ended and its stdout.
#[cfg(unix)]
fn ctrl_c(args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_dice"))
        .args(args)
        .env("DICE_PROGRESS", "always")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the dice binary runs");
    let mut err = child.stderr.take().unwrap();
    // The bar's first drawing: the run is under way, the Ctrl-C handler installed.
    let mut byte = [0u8; 1];
    loop {
        let n = err.read(&mut byte).unwrap();
        assert!(n == 1, "{args:?} ended before drawing its progress bar");
        if byte[0] == b'[' {
            break;
        }
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let rest = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let out = child.wait_with_output().unwrap();
    let stderr = rest.join().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// Ctrl-C stops a Monte Carlo command where it is, prints what was made with a note, and
/// exits 130: a plain run, a sweep (the cells after the one running are not run) and a
/// comparison.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_whole_command_and_exits_130() {
    let many = "1000000000";
    let (code, out) = ctrl_c(&["odds", "3d6", "--mc", "--trials", many, "--seed", "1"]);
    assert_eq!(code, Some(130), "{out}");
    assert!(out.contains("stopped by Ctrl-C after"), "{out}");

    let (code, out) = ctrl_c(&[
        "robots-and-rapiers",
        "save",
        "--tn",
        "5..7",
        "--mc",
        "--trials",
        many,
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(code, Some(130), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let trials = v["trials"].as_u64().unwrap();
    assert!(trials > 0 && trials < 1_000_000_000, "{trials}");
    assert!(v["cells"][0][0].is_number(), "{v}");
    assert!(
        v["cells"][1][0].is_null() && v["cells"][2][0].is_null(),
        "{v}"
    );
    let notes = v["notes"].to_string();
    assert!(notes.contains("stopped by Ctrl-C"), "{notes}");

    let (code, out) = ctrl_c(&[
        "robots-and-rapiers",
        "save",
        "--tn",
        "5,6,7",
        "--mc",
        "--trials",
        many,
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(code, Some(130), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let compared = v["compared"].as_array().unwrap();
    assert_eq!(compared.len(), 1, "{v}");
    let trials = compared[0]["odds"]["trials"].as_u64().unwrap();
    assert!(trials > 0 && trials < 1_000_000_000, "{trials}");
}

#[test]
fn completions_and_the_manual_page_come_from_the_definition() {
    let bash = ok(&["completions", "bash"]);
    assert!(
        bash.contains("swimclass") && bash.contains("--monte-carlo"),
        "{bash}"
    );
    let man = ok(&["manpage"]);
    assert!(man.contains(".TH dice"), "{man}");
}

/// `dice manpage --dir DIR` writes the top page and one per subcommand, nested ones too,
/// and every page a page refers to (`dice-odds(1)`) is there; the printed page is dice.1.
#[test]
fn every_manual_page_referred_to_is_written() {
    let dir = temp("man1");
    let _ = std::fs::remove_dir_all(&dir);
    // The folder is made if missing.
    assert_eq!(ok(&["manpage", "--dir", dir.to_str().unwrap()]), "");
    let page = |name: &str| std::fs::read_to_string(dir.join(name));
    assert_eq!(page("dice.1").unwrap(), ok(&["manpage"]));
    assert!(
        page("dice-swimclass-task.1")
            .unwrap()
            .contains(".TH dice-swimclass-task")
    );
    let mut referred = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| l.ends_with("(1)")) {
            let name = line.trim_end_matches("(1)").replace("\\-", "-");
            assert!(
                page(&format!("{name}.1")).is_ok(),
                "{} refers to {name}(1), which was not written",
                path.display()
            );
            referred += 1;
        }
    }
    // The top page lists the 10 commands, each game page its own subcommands.
    assert!(referred > 40, "{referred}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------- every chance mechanic of every game

/// An outcome's JSON key as the command writes it: its text in snake_case.
fn key_of(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.is_empty() && !s.ends_with('_') {
            s.push('_');
        }
    }
    s.trim_end_matches('_').to_owned()
}

/// The law of a crate's mechanic as the command's JSON rows: named outcomes by key.
fn named_law<T: std::fmt::Display + Ord + Clone>(d: &dice_core::Dist<T>) -> Vec<(Value, f64)> {
    d.iter()
        .map(|(o, p)| (Value::from(key_of(&o.to_string())), p))
        .collect()
}

/// A numeric law as the command's JSON rows.
fn numeric_law<T: Into<i64> + Copy + Ord>(d: &dice_core::Dist<T>) -> Vec<(Value, f64)> {
    d.iter()
        .map(|(o, p)| (Value::from((*o).into()), p))
        .collect()
}

/// `args --odds` gives exactly `expected` (every outcome, in any order), and
/// `args --monte-carlo` agrees with it within five standard errors on every outcome.
fn exact_and_simulated(args: &[&str], expected: &[(Value, f64)]) {
    let mut odds = args.to_vec();
    odds.push("--odds");
    let v = json(&odds);
    assert_eq!(v["method"], "exact", "{args:?}");
    let got = rows(&v);
    assert_eq!(
        got.len(),
        expected.len(),
        "{args:?}: {got:?} vs {expected:?}"
    );
    for (o, p) in expected {
        let q = got
            .iter()
            .find(|(g, _)| g == o)
            .unwrap_or_else(|| panic!("{args:?}: no row {o}"))
            .1;
        assert!(close(*p, q), "{args:?} {o}: {q} vs {p}");
    }
    let trials = 4000u32;
    let mut mc = args.to_vec();
    let t = trials.to_string();
    mc.extend(["--monte-carlo", "--trials", &t, "--seed", "11"]);
    let v = json(&mc);
    assert_eq!(v["method"], "monte_carlo", "{args:?}");
    let sim = rows(&v);
    for (o, p) in expected {
        let q = sim.iter().find(|(g, _)| g == o).map_or(0.0, |r| r.1);
        let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
        assert!(
            (q - p).abs() <= 5.0 * se + 1e-9,
            "{args:?} {o}: simulated {q} vs exact {p}"
        );
    }
    for (o, _) in &sim {
        assert!(
            expected.iter().any(|(e, _)| e == o),
            "{args:?}: impossible outcome {o}"
        );
    }
}

#[test]
fn shapers_and_bots_contest_attack_and_initiative_follow_the_crate() {
    use dice_core::{Die, Exact, Keep, Pool, Sum};
    use dice_shapers_and_bots::{
        Attack, Contest, Contestant, Initiative, Level, Rules, Size, Surprise,
    };
    let rules = Rules::default();
    let c = Contest::new(
        Contestant::rated(Level::Average),
        Contestant::new(Level::Low.into(), 2).unwrap(),
        &rules,
    )
    .unwrap();
    exact_and_simulated(
        &[
            "shapers-and-bots",
            "contest",
            "--first",
            "average",
            "--second",
            "low",
            "--second-modifier",
            "2",
        ],
        &named_law(&c.distribution().unwrap()),
    );
    let a = Attack::defended(Level::Low.into(), Level::High.into(), &rules).unwrap();
    exact_and_simulated(
        &[
            "shapers-and-bots",
            "attack",
            "--attacker",
            "low",
            "--defender",
            "high",
        ],
        &named_law(&a.distribution().unwrap()),
    );
    let s = Attack::sneak(
        Level::Low.into(),
        &Size::Single(Level::High),
        Surprise::PlusTwo,
        &rules,
    )
    .unwrap();
    exact_and_simulated(
        &[
            "shapers-and-bots",
            "attack",
            "--attacker",
            "low",
            "--size",
            "high",
            "--sneak",
            "--surprise",
            "2",
        ],
        &named_law(&s.distribution().unwrap()),
    );
    let tie = Sum::new(Pool::new(2, Die::D6).unwrap(), Keep::All, 0).unwrap();
    let i = Initiative::new(vec![Level::High, Level::High, Level::Low], tie).unwrap();
    exact_and_simulated(
        &[
            "shapers-and-bots",
            "initiative",
            "--fitness",
            "high",
            "--fitness",
            "high",
            "--fitness",
            "low",
        ],
        &named_law(&i.distribution().unwrap()),
    );
    // A fluke in a contest is refused unless the ruling allows it.
    let e = bad(&[
        "shapers-and-bots",
        "contest",
        "--first",
        "none",
        "--second",
        "low",
        "--odds",
    ]);
    assert!(e.contains("error"), "{e}");
}

#[test]
fn shapers_and_bots_hit_points_left_after_hits() {
    use dice_core::Exact;
    use dice_shapers_and_bots::{Damage, Level, Rules, WeaponClass, hit_points};
    let rules = Rules::default();
    let hp = hit_points(Level::VeryHigh, Level::Low);
    assert_eq!(hp, 10);
    let one = Damage::new(WeaponClass::Large, false, &rules)
        .unwrap()
        .distribution()
        .unwrap();
    // Two hits: the sum of two independent damage rolls, hit points clamped at 0.
    let mut law: std::collections::BTreeMap<i64, f64> = Default::default();
    for (a, p) in one.iter() {
        for (b, q) in one.iter() {
            let left = (i64::from(hp) - i64::from(*a) - i64::from(*b)).max(0);
            *law.entry(left).or_insert(0.0) += p * q;
        }
    }
    let expected: Vec<(Value, f64)> = law.into_iter().map(|(k, p)| (Value::from(k), p)).collect();
    exact_and_simulated(
        &[
            "shapers-and-bots",
            "hit-points",
            "--size",
            "very-high",
            "--fitness",
            "low",
            "--weapon",
            "large",
            "--hits",
            "2",
        ],
        &expected,
    );
    let v = json(&[
        "shapers-and-bots",
        "hit-points",
        "--size",
        "very-high",
        "--fitness",
        "low",
    ]);
    assert_eq!(v["hit_points"], 10);
    bad(&[
        "shapers-and-bots",
        "hit-points",
        "--size",
        "high",
        "--fitness",
        "low",
        "--odds",
    ]);
}

#[test]
fn swimclass_initiative_recovery_and_stabilize_follow_the_crate() {
    use dice_core::Exact;
    use dice_swimclass::{
        Health, Initiative, InitiativeContest, Recovery, Rules, SkillDice, Stabilize,
    };
    let rules = Rules::default();
    let i = Initiative::new(SkillDice::new(2), &rules);
    exact_and_simulated(
        &["swimclass", "initiative", "--rank", "2"],
        &named_law(&i.distribution().unwrap()),
    );
    let c = InitiativeContest::new(SkillDice::new(3), SkillDice::new(2), &rules).unwrap();
    exact_and_simulated(
        &["swimclass", "initiative", "--rank", "3", "--against", "2"],
        &named_law(&c.distribution().unwrap()),
    );
    let mut h = Health::new(3);
    h.take(3); // 1 HP of 4
    let r = Recovery::new(SkillDice::new(3), &h, &rules).unwrap();
    exact_and_simulated(
        &["swimclass", "recovery", "--defense", "3", "--hp", "1"],
        &numeric_law(&r.distribution().unwrap()),
    );
    let mut h = Health::new(2);
    h.take(5); // −2
    let s = Stabilize::new(SkillDice::new(2), &h, &rules).unwrap();
    exact_and_simulated(
        &["swimclass", "stabilize", "--defense", "2", "--hp", "-2"],
        &named_law(&s.distribution().unwrap()),
    );
    bad(&[
        "swimclass",
        "stabilize",
        "--defense",
        "2",
        "--hp",
        "1",
        "--odds",
    ]);
    bad(&[
        "swimclass",
        "recovery",
        "--defense",
        "2",
        "--hp",
        "9",
        "--odds",
    ]);
}

#[test]
fn swimclass_advancement_over_rounds_and_crafting() {
    use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    let rules = Rules::default();
    // Rank 2 at difficulty 2 rolled 3 times, each advance adding a die at once: a chain
    // over ranks 2..=5 whose step chances are the crate's advance chances.
    let p = |rank: u32| {
        TaskRoll::new(SkillDice::new(rank), Task::single(2).unwrap(), rules)
            .unwrap()
            .advance_chance()
            .unwrap()
    };
    let mut law = [1.0, 0.0, 0.0, 0.0];
    for _ in 0..3 {
        let mut next = [0.0; 4];
        for i in 0..4 {
            let step = if i < 3 { p(2 + i as u32) } else { 0.0 };
            next[i] += law[i] * (1.0 - step);
            if i < 3 {
                next[i + 1] += law[i] * step;
            }
        }
        law = next;
    }
    let expected: Vec<(Value, f64)> = law
        .iter()
        .enumerate()
        .filter(|(_, p)| **p > 0.0)
        .map(|(i, p)| (Value::from(2 + i as i64), *p))
        .collect();
    exact_and_simulated(
        &[
            "swimclass",
            "advance",
            "--rank",
            "2",
            "--difficulty",
            "2",
            "--rounds",
            "3",
        ],
        &expected,
    );
    // Crafting value 8: 2 successes at difficulty 4, Craft 2, three rounds.
    let t = dice_swimclass::craft::task(8, false, false, 2, &rules).unwrap();
    assert_eq!((t.difficulty, t.progress), (4, 2));
    let roll = TaskRoll::new(SkillDice::new(2), t, rules).unwrap();
    exact_and_simulated(
        &[
            "swimclass",
            "craft",
            "--value",
            "8",
            "--craft",
            "2",
            "--rounds",
            "3",
        ],
        &numeric_law(&roll.progress_after(3).unwrap()),
    );
    let e = bad(&[
        "swimclass",
        "craft",
        "--value",
        "8",
        "--craft",
        "1",
        "--specialized",
        "--odds",
    ]);
    assert!(e.contains("error"), "{e}");
    // A starting rank beyond the largest pool is refused, not lowered to it (nor overflowed).
    let too_many = (dice_swimclass::MAX_POOL + 1).to_string();
    for rank in [too_many.as_str(), "4294967295"] {
        for how in ["--odds", "--seed"] {
            let mut args = vec![
                "swimclass",
                "advance",
                "--rank",
                rank,
                "--difficulty",
                "2",
                "--rounds",
                "2",
                how,
            ];
            if how == "--seed" {
                args.push("1");
            }
            let e = bad(&args);
            assert!(e.starts_with("error: "), "{e}");
            assert!(!e.contains("internal error"), "{e}");
        }
    }
}

#[test]
fn robots_durability_malfunctions_action_points_inspiration_design_points() {
    use dice_core::Exact;
    use dice_robots_and_rapiers::creation::DesignPointsRoll;
    use dice_robots_and_rapiers::{
        BaseActionPoints, DamageKind, DurabilitySave, InspirationRoll, MalfunctionTable, Program,
        Rules,
    };
    let rules = Rules::default();
    let save = DurabilitySave::new(5, DamageKind::default(), &rules).unwrap();
    exact_and_simulated(
        &["robots-and-rapiers", "durability", "--tn", "5"],
        &named_law(&save.distribution().unwrap()),
    );
    let emp = DurabilitySave::new(
        2,
        DamageKind::Emp {
            loss_per_failed_die: 1,
        },
        &rules,
    )
    .unwrap()
    .with_durability(6);
    exact_and_simulated(
        &[
            "robots-and-rapiers",
            "durability",
            "--tn",
            "2",
            "--durability",
            "6",
            "--emp",
            "1",
        ],
        &named_law(&emp.distribution().unwrap()),
    );
    exact_and_simulated(
        &["robots-and-rapiers", "malfunction"],
        &named_law(&MalfunctionTable.distribution().unwrap()),
    );
    let bap = BaseActionPoints::new(5, 5, &rules).unwrap();
    exact_and_simulated(
        &[
            "robots-and-rapiers",
            "action-points",
            "--dice",
            "5",
            "--tn",
            "5",
        ],
        &numeric_law(&bap.distribution().unwrap()),
    );
    let insp = InspirationRoll::for_program(6, 2, Program::Mechanics).unwrap();
    exact_and_simulated(
        &[
            "robots-and-rapiers",
            "inspiration",
            "--self-awareness",
            "6",
            "--points",
            "2",
            "--program",
            "Mechanics",
        ],
        &numeric_law(&insp.distribution().unwrap()),
    );
    let dp = DesignPointsRoll::new(3, 2).unwrap();
    exact_and_simulated(
        &[
            "robots-and-rapiers",
            "design-points",
            "--design-dice",
            "3",
            "--anthropoid-class",
            "2",
        ],
        &numeric_law(&dp.distribution().unwrap()),
    );
    bad(&[
        "robots-and-rapiers",
        "inspiration",
        "--self-awareness",
        "6",
        "--points",
        "3",
        "--program",
        "Mechanics",
        "--odds",
    ]);
    bad(&[
        "robots-and-rapiers",
        "design-points",
        "--design-dice",
        "0",
        "--odds",
    ]);
}

#[test]
fn scratch_and_percentile_initiative_and_hit_locations() {
    use dice_core::Exact;
    let i = dice_scratch_rps::Initiative::new(2).unwrap();
    exact_and_simulated(
        &["scratch-rps", "initiative", "--stalking", "2"],
        &numeric_law(&i.distribution().unwrap()),
    );
    let c = dice_scratch_rps::InitiativeContest::new(
        dice_scratch_rps::Initiative::new(1).unwrap(),
        dice_scratch_rps::Initiative::new(0).unwrap(),
    );
    exact_and_simulated(
        &[
            "scratch-rps",
            "initiative",
            "--stalking",
            "1",
            "--against",
            "0",
        ],
        &named_law(&c.distribution().unwrap()),
    );
    let p = dice_shapers_percentile::Initiative::new(12, 9).unwrap();
    exact_and_simulated(
        &[
            "shapers-percentile",
            "initiative",
            "--pa",
            "12",
            "--ma",
            "9",
        ],
        &numeric_law(&p.distribution().unwrap()),
    );
    exact_and_simulated(
        &["shapers-percentile", "hit-location"],
        &named_law(&dice_shapers_percentile::HitLocation.distribution().unwrap()),
    );
}

// ------------------------------------------------------------------ the workbench, continued

/// A PNG file's width and height, from its IHDR chunk (after the 8-byte signature, the
/// chunk's length and type).
#[cfg(feature = "png")]
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

#[cfg(feature = "png")]
#[test]
fn a_png_plot_is_the_svg_chart_in_pixels() {
    let png = temp("bars.png");
    ok(&["odds", "2d6", "--plot", png.to_str().unwrap()]);
    let bytes = std::fs::read(&png).unwrap();
    let _ = std::fs::remove_file(&png);
    // The SVG chart is 820 × 480; the PNG draws it at twice that.
    let svg = temp("size.svg");
    ok(&["odds", "2d6", "--plot", svg.to_str().unwrap()]);
    let text = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    let attr = |name: &str| -> u32 {
        let at = text.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        text[at..].split('"').next().unwrap().parse().unwrap()
    };
    assert_eq!(png_size(&bytes), (2 * attr("width"), 2 * attr("height")));
    // Not a blank picture: the bars and the text are drawn (the file of a blank picture of
    // that size compresses to a few kilobytes).
    assert!(bytes.len() > 20_000, "{} bytes", bytes.len());
    // The extension's case does not matter; a roll still has nothing to chart.
    let upper = temp("BARS.PNG");
    ok(&["odds", "1d6", "--plot", upper.to_str().unwrap()]);
    assert!(std::fs::read(&upper).unwrap().starts_with(b"\x89PNG"));
    let _ = std::fs::remove_file(&upper);
    bad(&["roll", "2d6", "--plot", "chart.png"]);
}

#[test]
fn a_simulated_fight_estimates_its_rounds_and_charts_them() {
    let scene = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../swimclass/scenes/sample-rounds.toml"
    );
    let exact = json(&["swimclass", "fight", scene, "--odds"]);
    let trials = 20_000u64;
    let t = trials.to_string();
    let mc = json(&[
        "swimclass",
        "fight",
        scene,
        "--monte-carlo",
        "--trials",
        &t,
        "--seed",
        "5",
    ]);
    // Every fight played is counted once in the rounds, as in the ends.
    let rounds = mc["rounds"]
        .as_array()
        .expect("the rounds of a simulated fight");
    let counted: u64 = rounds.iter().map(|r| r["count"].as_u64().unwrap()).sum();
    assert_eq!(counted, trials);
    let ends: u64 = mc["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["count"].as_u64().unwrap())
        .sum();
    assert_eq!(ends, trials);
    // The estimate of the mean against the exact law's mean, within 5 standard errors.
    let (mean, se) = (
        mc["expected_rounds"].as_f64().unwrap(),
        mc["expected_rounds_standard_error"].as_f64().unwrap(),
    );
    let exact_mean: f64 = exact["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rounds"].as_f64().unwrap() * r["probability"].as_f64().unwrap())
        .sum();
    assert!(close(
        exact_mean,
        exact["expected_rounds"].as_f64().unwrap()
    ));
    assert!(se > 0.0);
    assert!(
        (mean - exact_mean).abs() <= 5.0 * se,
        "{mean} ± {se} vs {exact_mean}"
    );
    // Each length's estimate against its exact chance, within 5 standard errors.
    for r in exact["rounds"].as_array().unwrap() {
        let (n, p) = (
            r["rounds"].as_u64().unwrap(),
            r["probability"].as_f64().unwrap(),
        );
        let q = rounds
            .iter()
            .find(|x| x["rounds"].as_u64() == Some(n))
            .map_or(0.0, |x| x["probability"].as_f64().unwrap());
        let sd = (p * (1.0 - p) / trials as f64).sqrt();
        assert!((q - p).abs() <= 5.0 * sd + 1e-9, "{n} rounds: {q} vs {p}");
    }
    // The chart: one bar per length with its interval, and who wins.
    let plot = temp("fight-mc.svg");
    ok(&[
        "swimclass",
        "fight",
        scene,
        "--mc",
        "--trials",
        "2000",
        "--seed",
        "5",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&plot).unwrap();
    let _ = std::fs::remove_file(&plot);
    assert!(
        svg.contains("rounds until the fight ends (Monte Carlo, 2000 trials)"),
        "{svg}"
    );
    let bars = svg.matches(" rounds: ").count();
    assert!(bars >= 2, "{svg}");
    assert_eq!(
        svg.matches("stroke=\"black\" fill=\"none\"").count(),
        bars,
        "{svg}"
    );
    assert!(svg.contains("who wins"));
}

#[test]
fn a_csv_sweep_says_what_it_holds_in_comment_lines() {
    let args = [
        "swimclass",
        "task",
        "--rank",
        "1..2",
        "--difficulty",
        "3..4",
        "--odds",
        "--format",
        "csv",
    ];
    let text = ok(&args);
    let (comments, table): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with('#'));
    // The comments come first, then the grid as before.
    assert!(text.starts_with("# "), "{text}");
    assert_eq!(comments.len(), 3, "{text}");
    assert!(
        comments[0].contains("P(success) by rank and difficulty: exact odds"),
        "{text}"
    );
    assert!(comments[1].contains("cells: p_success"), "{text}");
    assert_eq!(
        comments[2],
        "# command: dice swimclass task --rank 1..2 --difficulty 3..4 --odds --format csv"
    );
    assert_eq!(table[0], r"rank\difficulty,3,4");
    // A skill of rank r at difficulty d succeeds unless every die is below d.
    for (i, line) in table[1..].iter().enumerate() {
        let r = i as i32 + 1;
        let cells: Vec<f64> = line
            .split(',')
            .skip(1)
            .map(|c| c.parse().unwrap())
            .collect();
        for (j, d) in [3, 4].iter().enumerate() {
            let p = 1.0 - (f64::from(d - 1) / 6.0).powi(r);
            assert!(close(cells[j], p), "rank {r} difficulty {d}: {}", cells[j]);
        }
    }
    // A refused cell is explained in a comment; the grid keeps it empty.
    let text = ok(&[
        "swimclass",
        "task",
        "--rank",
        "1,2",
        "--difficulty",
        "1..2",
        "--strain",
        "--odds",
        "--format",
        "csv",
    ]);
    assert!(
        text.contains("# empty cells, and why:\n# at --rank 1 --difficulty 1: "),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("1,,")), "{text}");
}

#[test]
fn scratch_rps_healing_revives_or_heals() {
    // d20 + healing 1 against difficulty 10, a natural 20 always succeeding (L15, L99).
    let faces = (1..=20).filter(|f| f + 1 >= 10 || *f == 20).count();
    let p = faces as f64 / 20.0;
    let v = json(&[
        "scratch-rps",
        "heal",
        "--level",
        "1",
        "--hp",
        "0",
        "--toughness",
        "4",
        "--odds",
    ]);
    assert!(close(v["p_healed"].as_f64().unwrap(), p), "{v}");
    assert_eq!(v["treatment"], "revive");
    assert_eq!(v["hp_after_success"], 1);
    // An injured character with toughness 6 is healed to 1 more than half of it.
    let v = json(&[
        "scratch-rps",
        "heal",
        "--level",
        "2",
        "--hp",
        "1",
        "--toughness",
        "6",
        "--seed",
        "3",
    ]);
    assert_eq!(v["treatment"], "heal");
    assert_eq!(v["hp_after_success"], 6 / 2 + 1);
    assert!(v["outcome"].is_string(), "{v}");
    // Nothing to heal, or no healing ability: refused.
    bad(&[
        "scratch-rps",
        "heal",
        "--level",
        "1",
        "--hp",
        "4",
        "--toughness",
        "4",
    ]);
    bad(&[
        "scratch-rps",
        "heal",
        "--level",
        "0",
        "--hp",
        "0",
        "--toughness",
        "4",
    ]);
    // Simulated too.
    let v = json(&[
        "scratch-rps",
        "heal",
        "--level",
        "1",
        "--hp",
        "0",
        "--toughness",
        "4",
        "--mc",
        "--trials",
        "4000",
        "--seed",
        "2",
    ]);
    let q = v["p_healed"].as_f64().unwrap();
    assert!(
        (q - p).abs() <= 5.0 * (p * (1.0 - p) / 4000.0).sqrt(),
        "{q} vs {p}"
    );
}

#[test]
fn shapers_percentile_attack_gives_the_damage_of_a_hit() {
    let args = [
        "shapers-percentile",
        "attack",
        "--attribute",
        "12",
        "--aptitude",
        "30",
        "--weapon",
        "6",
        "--strength",
        "12",
        "--armour",
        "2",
        "--fortitude",
        "5",
        "--odds",
    ];
    let v = json(&args);
    // A hit deals weapon + Strength + the margin's bonus − armour − Fortitude (L69–73).
    let mut expected = 0.0;
    let mut hits = 0;
    for r in v["distribution"].as_array().unwrap() {
        let p = r["probability"].as_f64().unwrap();
        if r["outcome"].as_str().unwrap().starts_with("hit") {
            let bonus = r["bonus"].as_i64().unwrap();
            assert_eq!(
                r["damage"].as_i64().unwrap(),
                (6 + 12 + bonus - 2 - 5).max(0),
                "{r}"
            );
            expected += (6 + 12 + bonus - 2 - 5).max(0) as f64 * p;
            hits += 1;
        } else {
            assert!(r.get("damage").is_none(), "{r}");
        }
    }
    assert!(hits > 1, "{v}");
    assert!(
        close(v["expected_damage"].as_f64().unwrap(), expected),
        "{v}"
    );
    // Without a weapon the odds are as before.
    let plain = json(&[
        "shapers-percentile",
        "attack",
        "--attribute",
        "12",
        "--aptitude",
        "30",
        "--odds",
    ]);
    assert!(plain.get("expected_damage").is_none());
    // A roll says the damage of a hit.
    let mut rolled = args[..args.len() - 1].to_vec();
    rolled.extend(["--seed", "1"]);
    let v = json(&rolled);
    if v["outcome"].as_str().unwrap().starts_with("hit") {
        assert!(v["damage_dealt"].as_i64().unwrap() >= 0);
    } else {
        assert!(v.get("damage_dealt").is_none());
    }
}
