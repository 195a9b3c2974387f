//! `dice swimclass` and `dice robots-and-rapiers`: seeded rolls, exact odds checked against
//! laws derived here by enumerating every roll, the JSON fields, and bad input.

use crate::common;
use common::{close, ints, json, ok};

use serde_json::Value;

/// Runs, expects exit code 2 with an `error: ` message, returns stderr.
fn bad(args: &[&str]) -> String {
    let err = common::bad(args);
    assert!(err.starts_with("error: "), "{err}");
    err
}

fn f(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

/// Every roll of `n` dice with `sides` faces, each with its probability.
fn all_rolls(n: u32, sides: u32) -> impl Iterator<Item = (Vec<u32>, f64)> {
    let total = u64::from(sides).pow(n);
    (0..total).map(move |mut k| {
        let faces = (0..n)
            .map(|_| {
                let x = (k % u64::from(sides)) as u32 + 1;
                k /= u64::from(sides);
                x
            })
            .collect();
        (faces, 1.0 / total as f64)
    })
}

/// The numeric `distribution` as (outcome, probability).
fn numeric_rows(v: &Value) -> Vec<(i64, f64)> {
    v["distribution"]
        .as_array()
        .expect("a distribution")
        .iter()
        .map(|r| (r["outcome"].as_i64().unwrap(), f(&r["probability"])))
        .collect()
}

/// Checks a numeric distribution against `law` (index = outcome − `offset`), and its mean.
fn assert_law(v: &Value, law: &[f64], offset: i64) {
    let rows = numeric_rows(v);
    let mut total = 0.0;
    for (o, p) in &rows {
        let want = law[(o - offset) as usize];
        assert!(close(*p, want), "P({o}) = {p}, want {want}");
        total += p;
    }
    assert!((total - 1.0).abs() < 1e-12);
    // Outcomes the law gives a chance are listed.
    for (i, &q) in law.iter().enumerate() {
        if q > 0.0 {
            assert!(rows.iter().any(|(o, _)| *o == i as i64 + offset), "{i}");
        }
    }
    let mean: f64 = law
        .iter()
        .enumerate()
        .map(|(i, q)| (i as i64 + offset) as f64 * q)
        .sum();
    assert!((f(&v["mean"]) - mean).abs() < 1e-9);
}

// ------------------------------------------------------------------------ swimclass task

#[test]
fn swimclass_task_readme_example_matches_enumeration() {
    // The README's example, exactly as written.
    let text = ok(&[
        "swimclass",
        "task",
        "--rank",
        "3",
        "--difficulty",
        "4",
        "--odds",
    ]);
    assert!(
        text.starts_with("3d6 at difficulty 4, progress 1 over rounds: exact odds"),
        "{text}"
    );
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "3",
        "--difficulty",
        "4",
        "--odds",
    ]);
    assert_eq!(v["command"], "swimclass task");
    assert_eq!(v["method"], "exact");
    assert_eq!(
        (v["rank"].as_u64(), v["difficulty"].as_i64()),
        (Some(3), Some(4))
    );
    // Every roll of 3d6: a success per die ≥ 4 (SW-A1); the roll succeeds with one; a
    // failed roll has a critical per 1 after the first (L21); it advances when every die
    // succeeded showing 4 or more (L27), which at difficulty 4 is every die a success.
    let (mut law, mut p_success, mut p_advance, mut p_critical) = (vec![0.0; 4], 0.0, 0.0, 0.0);
    let mut crit = [0.0; 3];
    for (faces, p) in all_rolls(3, 6) {
        let s = faces.iter().filter(|&&x| x >= 4).count();
        law[s] += p;
        if s >= 1 {
            p_success += p;
        }
        if s == 3 {
            p_advance += p;
        }
        let ones = faces.iter().filter(|&&x| x == 1).count();
        let c = if s == 0 { ones.saturating_sub(1) } else { 0 };
        crit[c] += p;
        if c > 0 {
            p_critical += p;
        }
    }
    assert_law(&v, &law, 0);
    assert!(close(f(&v["p_success"]), p_success));
    assert!(close(f(&v["p_advance"]), p_advance));
    assert!(close(f(&v["p_critical"]), p_critical));
    for r in v["criticals"].as_array().unwrap() {
        let c = r["criticals"].as_u64().unwrap() as usize;
        assert!(close(f(&r["probability"]), crit[c]));
    }
    assert!(
        text.contains(&format!("P(success) = {:.4}%", p_success * 100.0)),
        "{text}"
    );
    assert_eq!(v["can_fail"], true);
}

#[test]
fn swimclass_task_with_an_implement_matches_enumeration() {
    // Two dice, (1+2) on the highest (the Sample Rounds' placement, SW-A3), difficulty 5.
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "2",
        "--difficulty",
        "5",
        "--implement",
        "(1+2)",
        "--rule",
        "assignment=highest",
        "--odds",
    ]);
    assert_eq!(v["implements"], serde_json::json!(["(1+2)"]));
    let (mut law, mut p_success, mut p_advance) = (vec![0.0; 3], 0.0, 0.0);
    for (faces, p) in all_rolls(2, 6) {
        let hi = if faces[0] >= faces[1] { 0 } else { 1 };
        let values: Vec<u32> = (0..2)
            .map(|i| faces[i] + if i == hi { 2 } else { 0 })
            .collect();
        let s = values.iter().filter(|&&x| x >= 5).count();
        law[s] += p;
        if s >= 1 {
            p_success += p;
        }
        // Advancement: every skill die a success with a natural 4 or more.
        if s == 2 && faces.iter().all(|&x| x >= 4) {
            p_advance += p;
        }
    }
    assert_law(&v, &law, 0);
    assert!(close(f(&v["p_success"]), p_success));
    assert!(close(f(&v["p_advance"]), p_advance));
}

#[test]
fn swimclass_task_completion_over_rounds() {
    // Rank 2 at difficulty 6 needing 2 progress: complete within 2 rounds when the two
    // rounds' successes add up to 2 or more (4 dice).
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "2",
        "--difficulty",
        "6",
        "--progress",
        "2",
        "--rounds",
        "2",
        "--odds",
    ]);
    let want: f64 = all_rolls(4, 6)
        .filter(|(faces, _)| faces.iter().filter(|&&x| x == 6).count() >= 2)
        .map(|(_, p)| p)
        .sum();
    assert!(close(f(&v["p_complete"]), want));
    assert_eq!(v["rounds"], 2);
    assert_eq!(v["progress"], 2);
}

#[test]
fn swimclass_task_seeded_roll_is_deterministic_and_consistent() {
    let args = [
        "swimclass",
        "task",
        "--rank",
        "3",
        "--difficulty",
        "4",
        "--seed",
        "1",
    ];
    let text = ok(&args);
    assert_eq!(text, ok(&args));
    assert!(text.trim_end().ends_with("seed 1"), "{text}");
    let v = json(&args);
    assert_eq!(v["seed"], 1);
    assert_eq!(
        v["display"].as_str().unwrap(),
        text.lines().take(2).collect::<Vec<_>>().join("\n")
    );
    let dice = v["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 3);
    let faces: Vec<u64> = dice.iter().map(|d| d["face"].as_u64().unwrap()).collect();
    assert!(faces.iter().all(|x| (1..=6).contains(x)));
    let s = faces.iter().filter(|&&x| x >= 4).count() as u64;
    assert_eq!(v["successes"].as_u64(), Some(s));
    for d in dice {
        assert_eq!(d["success"], d["face"].as_u64().unwrap() >= 4);
        assert_eq!(d["colour"], "skill");
    }
    assert_eq!(v["succeeded"], s >= 1);
    assert_eq!(v["outcome"], if s >= 1 { "success" } else { "failure" });
    let ones = faces.iter().filter(|&&x| x == 1).count() as u64;
    let crit = if s == 0 { ones.saturating_sub(1) } else { 0 };
    assert_eq!(v["criticals"].as_u64(), Some(crit));
    assert_eq!(v["advances"], s == 3);
    assert_eq!(v["status"], if s >= 1 { "complete" } else { "in_progress" });

    // A different seed replays as itself.
    let w = json(&[
        "swimclass",
        "task",
        "--rank",
        "3",
        "--difficulty",
        "4",
        "--seed",
        "2",
    ]);
    assert_eq!(
        w["dice"],
        json(&[
            "swimclass",
            "task",
            "--rank",
            "3",
            "--difficulty",
            "4",
            "--seed",
            "2"
        ])["dice"]
    );
}

// ------------------------------------------------------------------------ swimclass attack

/// Hits through: attack dice at or above `difficulty`, less the most that `defense` can block
/// (a defense die blocks one hit of lesser or equal value), by trying every assignment.
fn through(attack: &[u32], defense: &[u32], difficulty: u32) -> usize {
    let hits: Vec<u32> = attack
        .iter()
        .copied()
        .filter(|&a| a >= difficulty)
        .collect();
    fn most(hits: &[u32], defense: &[u32], used: &mut Vec<bool>) -> usize {
        let Some((&h, rest)) = hits.split_first() else {
            return 0;
        };
        let mut best = most(rest, defense, used); // h not blocked
        for j in 0..defense.len() {
            if !used[j] && defense[j] >= h {
                used[j] = true;
                best = best.max(1 + most(rest, defense, used));
                used[j] = false;
            }
        }
        best
    }
    hits.len() - most(&hits, defense, &mut vec![false; defense.len()])
}

#[test]
fn swimclass_attack_odds_match_enumeration() {
    // Basic Melee (no threshold): 2 dice against 2.
    let v = json(&[
        "swimclass",
        "attack",
        "--attack",
        "2",
        "--defense",
        "2",
        "--odds",
    ]);
    assert_eq!(v["difficulty"], Value::Null);
    let mut law = vec![0.0; 3];
    for (faces, p) in all_rolls(4, 6) {
        law[through(&faces[..2], &faces[2..], 0)] += p;
    }
    assert_law(&v, &law, 0);
    assert!(close(f(&v["p_hit"]), law[1] + law[2]));

    // Ranged at range 1: difficulty 2 (L109), 3 dice against 2.
    let v = json(&[
        "swimclass",
        "attack",
        "--attack",
        "3",
        "--defense",
        "2",
        "--range",
        "1",
        "--odds",
    ]);
    assert_eq!(v["difficulty"], 2);
    let mut law = vec![0.0; 4];
    for (faces, p) in all_rolls(5, 6) {
        law[through(&faces[..3], &faces[3..], 2)] += p;
    }
    assert_law(&v, &law, 0);

    // Unopposed: the successes alone, 1 − (3/6)² for at least one at difficulty 4.
    let v = json(&[
        "swimclass",
        "attack",
        "--attack",
        "2",
        "--defense",
        "0",
        "--difficulty",
        "4",
        "--odds",
    ]);
    assert!(close(f(&v["p_hit"]), 1.0 - 0.25));
}

#[test]
fn swimclass_attack_seeded_roll_shows_every_die_and_the_blocks() {
    let args = [
        "swimclass",
        "attack",
        "--attack",
        "6",
        "--defense",
        "6",
        "--seed",
        "1",
    ];
    let text = ok(&args);
    assert_eq!(text, ok(&args));
    assert!(text.starts_with("6d6 vs 6d6\nattack ["), "{text}");
    let v = json(&args);
    let att = v["attack_dice"].as_array().unwrap();
    let def = v["defense_dice"].as_array().unwrap();
    assert_eq!((att.len(), def.len()), (6, 6));
    let value = |d: &Value| d["value"].as_i64().unwrap();
    let blocked = v["blocked"].as_array().unwrap();
    let mut used = [false; 6];
    for b in blocked {
        let (x, y) = (
            b["attack_die"].as_u64().unwrap() as usize,
            b["defense_die"].as_u64().unwrap() as usize,
        );
        assert!(value(&def[y]) >= value(&att[x]), "a block needs ≥ (SW-A2)");
        assert_eq!(att[x]["blocked"], true);
        assert!(!used[y], "one block per defense die");
        used[y] = true;
    }
    let unblocked = att.iter().filter(|d| d["blocked"] == false).count();
    assert_eq!(v["hits"].as_u64(), Some(unblocked as u64));
    let faces = |d: &[Value]| -> Vec<u32> { d.iter().map(|x| value(x) as u32).collect() };
    assert_eq!(unblocked, through(&faces(att), &faces(def), 0));
    assert_eq!(v["outcome"], if unblocked > 0 { "hit" } else { "miss" });
}

// ------------------------------------------------------------------------ robots-and-rapiers

#[test]
fn robots_and_rapiers_test_odds_match_enumeration() {
    // 2 dice at TN 4, Difficulty 1, against 1 die at TN 5: 10³ rolls.
    let v = json(&[
        "robots-and-rapiers",
        "test",
        "--dice",
        "2",
        "--tn",
        "4",
        "--difficulty",
        "1",
        "--opposing-dice",
        "1",
        "--opposing-tn",
        "5",
        "--odds",
    ]);
    assert_eq!(v["command"], "robots-and-rapiers test");
    assert_eq!(v["opposing"]["dice"], 1);
    // Net from −2 to 2: index net + 2.
    let mut law = vec![0.0; 5];
    for (faces, p) in all_rolls(3, 10) {
        let mine = faces[..2].iter().filter(|&&x| x <= 4).count() as i64;
        let theirs = i64::from(faces[2] <= 5);
        law[(mine - theirs - 1 + 2) as usize] += p;
    }
    assert_law(&v, &law, -2);
    assert!(close(f(&v["p_accomplished"]), law[3] + law[4]));
    assert!(close(f(&v["p_tie"]), law[2]));

    // The brief's example: 8 dice at TN 4, Difficulty 1; mean 8 × 0.4 − 1.
    let v = json(&[
        "robots-and-rapiers",
        "test",
        "--dice",
        "8",
        "--tn",
        "4",
        "--difficulty",
        "1",
        "--odds",
    ]);
    assert!((f(&v["mean"]) - (8.0 * 0.4 - 1.0)).abs() < 1e-9);
    assert!(v.get("p_tie").is_none(), "unopposed: no tie");
}

#[test]
fn robots_and_rapiers_test_seeded_roll() {
    let args = [
        "robots-and-rapiers",
        "test",
        "--dice",
        "8",
        "--tn",
        "6",
        "--opposing-dice",
        "7",
        "--opposing-tn",
        "5",
        "--seed",
        "3",
    ];
    let text = ok(&args);
    assert_eq!(text, ok(&args));
    let v = json(&args);
    let faces = ints(&v["faces"]);
    assert_eq!(faces.len(), 8);
    assert!(faces.iter().all(|x| (1..=10).contains(x)));
    let mine = faces.iter().filter(|&&x| x <= 6).count() as i64;
    assert_eq!(v["successes"].as_i64(), Some(mine));
    let theirs_faces = v["opposing_roll"]["faces"].as_array().unwrap();
    assert_eq!(theirs_faces.len(), 7);
    let theirs = theirs_faces
        .iter()
        .filter(|x| x.as_u64().unwrap() <= 5)
        .count() as i64;
    assert_eq!(v["opposing_roll"]["successes"].as_i64(), Some(theirs));
    let net = mine - theirs;
    assert_eq!(v["net"].as_i64(), Some(net));
    assert_eq!(v["accomplished"], net >= 1);
    let want = match net {
        n if n > 0 => "won",
        0 => "tie",
        _ => "lost",
    };
    assert_eq!(v["outcome"], want);
    assert!(
        text.contains(&format!("net {mine} − {theirs} = {net}")),
        "{text}"
    );
}

#[test]
fn robots_and_rapiers_save_odds_match_enumeration() {
    for (args, tn) in [
        (vec!["--tn", "5"], 5),
        (vec!["--tn", "6", "--modifier", "-3"], 3),
        (vec!["--tn", "6", "--modifier", "-3", "--exert"], 4),
    ] {
        let mut all = vec!["robots-and-rapiers", "save"];
        all.extend(&args);
        all.extend(["--current", "5", "--odds"]);
        let v = json(&all);
        assert_eq!(v["tn"], tn);
        // All 1000 rolls of 3d10; loss 2 per failed die, 6 on a Total Failure (A8); the
        // full effect on a Total Failure or when the attribute (5) reaches 0 or less.
        let (mut by_successes, mut loss, mut full) = ([0.0; 4], 0.0, 0.0);
        for (faces, p) in all_rolls(3, 10) {
            let s = faces.iter().filter(|&&x| x as i32 <= tn).count();
            by_successes[s] += p;
            let l = if s == 0 { 6 } else { 2 * (3 - s) };
            loss += p * l as f64;
            if s == 0 || 5 - l as i32 <= 0 {
                full += p;
            }
        }
        let names = [
            "total_failure",
            "partial_failure_2_failed",
            "partial_failure_1_failed",
            "total_success",
        ];
        for r in v["distribution"].as_array().unwrap() {
            let s = r["successes"].as_u64().unwrap() as usize;
            assert_eq!(r["outcome"], names[s]);
            assert!(close(f(&r["probability"]), by_successes[s]));
            assert_eq!(r["failed_dice"].as_u64(), Some(3 - s as u64));
        }
        assert!(close(f(&v["p_total_success"]), by_successes[3]));
        assert!(close(f(&v["p_total_failure"]), by_successes[0]));
        assert!((f(&v["expected_loss"]) - loss).abs() < 1e-12);
        assert!(close(f(&v["p_full_effect"]), full));
    }
    let text = ok(&["robots-and-rapiers", "save", "--tn", "5", "--odds"]);
    assert!(text.contains("expected attribute loss 3.0000"), "{text}");
}

#[test]
fn robots_and_rapiers_save_seeded_roll() {
    let args = [
        "robots-and-rapiers",
        "save",
        "--tn",
        "5",
        "--current",
        "3",
        "--seed",
        "2",
    ];
    let text = ok(&args);
    assert_eq!(text, ok(&args));
    let v = json(&args);
    let faces = ints(&v["faces"]);
    assert_eq!(faces.len(), 3);
    let s = faces.iter().filter(|&&x| x <= 5).count() as u64;
    assert_eq!(v["successes"].as_u64(), Some(s));
    let (name, loss) = match s {
        0 => ("total_failure", 6),
        1 => ("partial_failure_2_failed", 4),
        2 => ("partial_failure_1_failed", 2),
        _ => ("total_success", 0),
    };
    assert_eq!(v["outcome"], name);
    assert_eq!(v["attribute_loss"].as_i64(), Some(loss));
    assert_eq!(v["attribute_after"]["value"].as_i64(), Some(3 - loss));
    assert_eq!(v["attribute_after"]["full_effect"], s == 0 || 3 - loss <= 0);
    assert!(text.contains(&format!("attribute loss {loss}")), "{text}");
}

// ------------------------------------------------------------------------ bad input

#[test]
fn bad_input_exits_2_without_a_panic() {
    // Each a command line, split on spaces.
    for line in [
        "swimclass task --rank 100 --difficulty 4",
        "swimclass task --rank 4294967295 --difficulty 4",
        "swimclass task --rank 3 --difficulty 4000",
        "swimclass task --rank 3 --difficulty 4 --progress 0",
        "swimclass task --rank 3 --difficulty 4 --implement sword",
        "swimclass task --rank 3 --difficulty 4 --implement 1+1000",
        "swimclass task --rank 64 --difficulty 4 --odds",
        "swimclass task --rank 3",
        "swimclass attack --attack 65 --defense 3",
        "swimclass attack --attack 3 --defense 3 --range 1 --difficulty 2",
        "swimclass attack --attack 3 --defense 3 --range -1",
        "robots-and-rapiers test --dice 2000 --tn 4",
        "robots-and-rapiers test --dice 8 --tn 400",
        "robots-and-rapiers test --dice 8 --tn 4 --difficulty 5000",
        "robots-and-rapiers test --dice 8 --tn 4 --opposing-dice 3",
        "robots-and-rapiers test --dice 8 --tn 4 --opposing-dice 3 --opposing-tn 500",
        "robots-and-rapiers save --tn 500",
        "robots-and-rapiers save --tn 100 --exert",
        "robots-and-rapiers save --tn 5 --modifier 2147483647 --modifier 2147483647",
        "robots-and-rapiers save",
    ] {
        let args: Vec<&str> = line.split(' ').collect();
        bad(&args);
    }
    let err = bad(&["swimclass", "task", "--rank", "100", "--difficulty", "4"]);
    assert_eq!(
        err.trim_end(),
        "error: a roll holds at most 64 dice, not 100"
    );
    let err = bad(&["robots-and-rapiers", "save", "--tn", "500"]);
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn edge_inputs_that_are_allowed() {
    // No dice at all: nothing to roll, no success, no panic.
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "0",
        "--difficulty",
        "4",
        "--seed",
        "1",
    ]);
    assert_eq!(v["successes"], 0);
    let v = json(&[
        "swimclass",
        "attack",
        "--attack",
        "0",
        "--defense",
        "0",
        "--odds",
    ]);
    assert!(close(f(&v["p_hit"]), 0.0));
    let v = json(&[
        "robots-and-rapiers",
        "test",
        "--dice",
        "0",
        "--tn",
        "4",
        "--seed",
        "1",
    ]);
    assert_eq!(v["net"], 0);
    // Difficulty 1 cannot fail: no advancement (L27).
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "2",
        "--difficulty",
        "1",
        "--odds",
    ]);
    assert_eq!(v["can_fail"], false);
    assert!(close(f(&v["p_advance"]), 0.0));
    // TN at or below 0: a certain Total Failure (A7).
    let v = json(&["robots-and-rapiers", "save", "--tn", "-2", "--odds"]);
    assert!(close(f(&v["p_total_failure"]), 1.0));
}

#[test]
fn help_speaks_the_games_terms() {
    assert!(ok(&["--help"]).contains("swimclass"));
    assert!(ok(&["--help"]).contains("robots-and-rapiers"));
    assert!(ok(&["swimclass", "task", "--help"]).contains("--implement <BONUS>"));
    assert!(ok(&["swimclass", "attack", "--help"]).contains("--defense <N>"));
    assert!(ok(&["robots-and-rapiers", "test", "--help"]).contains("--opposing-tn <N>"));
    assert!(ok(&["robots-and-rapiers", "save", "--help"]).contains("--modifier <N>"));
}
