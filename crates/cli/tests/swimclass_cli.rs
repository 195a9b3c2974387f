//! `dice swimclass`: faults found by the audit of the command against the rulebook
//! (`seeds/swimclass.txt`). Every expected chance is derived here by enumerating every roll.

use crate::common;
use common::{close, json, ok};

use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

/// Every roll of `n` d6, each with its probability.
fn all_rolls(n: u32) -> impl Iterator<Item = (Vec<u32>, f64)> {
    let total = 6u64.pow(n);
    (0..total).map(move |mut k| {
        let faces = (0..n)
            .map(|_| {
                let x = (k % 6) as u32 + 1;
                k /= 6;
                x
            })
            .collect();
        (faces, 1.0 / total as f64)
    })
}

#[test]
fn task_help_gives_the_rulebooks_difficulty_scale() {
    // L99: "Difficulty 1 is a skill so easy or common that pretty much anyone with the skill
    // may do it". L101: "Difficulty 6 for a challenge that while not quite impossible is
    // madness for all but the most skilled."
    let help = ok(&["swimclass", "task", "--help"]);
    assert!(!help.contains("Easy 2"), "{help}");
    assert!(!help.contains("Madness 7"), "{help}");
    assert!(help.contains("from 1, easy"), "{help}");
    assert!(help.contains("to 6, madness"), "{help}");
}

#[test]
fn difficulty_takes_the_scales_names() {
    // L99, L101: easy is 1, madness is 6.
    for (name, n) in [("easy", "1"), ("Madness", "6"), ("MADNESS", "6")] {
        let by_name = json(&[
            "swimclass",
            "task",
            "--rank",
            "3",
            "--difficulty",
            name,
            "--odds",
        ]);
        let by_number = json(&[
            "swimclass",
            "task",
            "--rank",
            "3",
            "--difficulty",
            n,
            "--odds",
        ]);
        assert_eq!(by_name["difficulty"], by_number["difficulty"]);
        assert_eq!(by_name["distribution"], by_number["distribution"]);
    }
    let v = json(&[
        "swimclass",
        "attack",
        "--attack",
        "2",
        "--defense",
        "1",
        "--difficulty",
        "madness",
        "--odds",
    ]);
    assert_eq!(v["difficulty"], 6);
    let err = common::bad(&["swimclass", "task", "--rank", "3", "--difficulty", "hard"]);
    assert!(err.contains("easy"), "{err}");
}

#[test]
fn an_implement_bonus_goes_where_the_player_wants_it() {
    // L51: "(N+M), granting a modifier of +M to up to N dice": the player's choice. Rank 2
    // with a (1+2), two successes at difficulty 5 in one roll.
    let args = [
        "swimclass",
        "task",
        "--rank",
        "2",
        "--difficulty",
        "5",
        "--progress",
        "2",
        "--all-or-nothing",
        "--implement",
        "1+2",
        "--odds",
    ];
    let (mut best, mut highest) = (0.0, 0.0);
    for (faces, p) in all_rolls(2) {
        let successes = |k: usize| {
            (0..2)
                .filter(|&i| faces[i] + if i == k { 2 } else { 0 } >= 5)
                .count()
        };
        if successes(0).max(successes(1)) >= 2 {
            best += p;
        }
        let hi = usize::from(faces[1] > faces[0]);
        if successes(hi) >= 2 {
            highest += p;
        }
    }
    assert!(close(f(&json(&args)["p_success"]), best));
    let mut with_rule = args.to_vec();
    with_rule.extend(["--rule", "assignment=highest"]);
    assert!(close(f(&json(&with_rule)["p_success"]), highest));
    assert!(highest < best);
}

#[test]
fn an_attack_shows_the_defenses_criticals_and_advancement() {
    // L21: "A natural roll of 1 is a Critical if the task did not succeed." L27: "A Skill
    // Advances when you succeed in a task with all Skill dice, and all dice roll ≥ 4."
    // One die at range 1 (difficulty 2, L109) against Defense 2.
    let v = json(&[
        "swimclass",
        "attack",
        "--attack",
        "1",
        "--defense",
        "2",
        "--range",
        "1",
        "--odds",
    ]);
    let (mut adv, mut crit) = (0.0, 0.0);
    for (faces, p) in all_rolls(3) {
        let (a, d) = (faces[0], &faces[1..]);
        let hit = a >= 2 && !d.iter().any(|&x| x >= a);
        if !hit && d.iter().all(|&x| x >= 4) {
            adv += p;
        }
        if hit && d.iter().filter(|&&x| x == 1).count() >= 2 {
            crit += p;
        }
    }
    assert!(close(f(&v["p_defense_advance"]), adv));
    assert!(close(f(&v["p_defense_critical"]), crit));
    // A seeded roll reports both.
    let r = json(&[
        "swimclass",
        "attack",
        "--attack",
        "3",
        "--defense",
        "3",
        "--seed",
        "5",
    ]);
    assert!(r["defense_criticals"].is_u64(), "{r}");
    assert!(r["defense_advances"].is_boolean(), "{r}");
}
