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

/// The heatmap of `--rank 1..6 --difficulty 1..7` showed rank 4 at 100 % but ranks 1, 3, 5
/// and 6 at ">99%" for difficulty 1: no rule, but rounding. At difficulty 1 every face
/// succeeds (L27: automatic), so each rank's chance is exactly 1; the exact law sums a few
/// hundred rounded multiset probabilities and lands within a few 10⁻¹⁵ of 1, on either
/// side. The chart reads a chance within 10⁻¹² of certain (the laws' accuracy) as 100 %.
#[test]
fn difficulty_one_is_certain_in_the_table_and_the_heatmap() {
    let path = std::env::temp_dir().join(format!("dice-swim-heat-{}.svg", std::process::id()));
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "1..6",
        "--difficulty",
        "1..2",
        "--odds",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    for (i, row) in v["cells"].as_array().unwrap().iter().enumerate() {
        let rank = i as i32 + 1;
        // Difficulty 1: certain. Difficulty 2: fails only when every die shows 1.
        assert!((f(&row[0]) - 1.0).abs() < 1e-12, "rank {rank}: {}", row[0]);
        let p2: f64 = all_rolls(rank as u32)
            .filter(|(faces, _)| faces.iter().any(|&x| x >= 2))
            .map(|(_, p)| p)
            .sum();
        assert!(close(f(&row[1]), p2), "rank {rank}: {} vs {p2}", row[1]);
        assert!(
            svg.contains(&format!("<title>rank {rank}, difficulty 1: 100%</title>")),
            "{svg}"
        );
        // A chance short of certain is still marked so: 1 − 6^−r rounds to 100 % from rank 3.
        let want = if p2 * 100.0 >= 99.5 {
            ">99%".to_owned()
        } else {
            format!("{:.0}%", p2 * 100.0)
        };
        assert!(
            svg.contains(&format!("<title>rank {rank}, difficulty 2: {want}</title>")),
            "{svg}"
        );
    }
}

/// Straining (L87–89) rolls double the rank once; pushing (L91–93) multiplies the
/// difficulty and each success's worth by N, for a difficulty of 3 or less.
#[test]
fn strain_and_push_change_the_task_roll() {
    // Rank 2 strained at difficulty 4: 4 dice, failing only when all are below 4.
    let p: f64 = all_rolls(4)
        .filter(|(faces, _)| faces.iter().any(|&x| x >= 4))
        .map(|(_, p)| p)
        .sum();
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "2",
        "--difficulty",
        "4",
        "--strain",
        "--odds",
    ]);
    assert!(close(f(&v["p_success"]), p), "{v}");
    assert_eq!(v["strain"]["dice"], 4);
    assert_eq!(v["strain"]["rank_after"], 1);
    // Rank 2 at difficulty 2 pushed ×2: difficulty 4, and progress 4 needs 2 successes; one
    // roll succeeds with one success (progress over rounds), completes the task with two.
    let v = json(&[
        "swimclass",
        "task",
        "--rank",
        "2",
        "--difficulty",
        "2",
        "--push",
        "2",
        "--progress",
        "4",
        "--rounds",
        "1",
        "--odds",
    ]);
    let one: f64 = all_rolls(2)
        .filter(|(faces, _)| faces.iter().any(|&x| x >= 4))
        .map(|(_, p)| p)
        .sum();
    let both: f64 = all_rolls(2)
        .filter(|(faces, _)| faces.iter().all(|&x| x >= 4))
        .map(|(_, p)| p)
        .sum();
    assert!(close(f(&v["p_success"]), one), "{v}");
    assert!(close(f(&v["p_complete"]), both), "{v}");
    assert_eq!(v["push"]["difficulty"], 4);
    assert_eq!(v["push"]["successes_needed"], 2);
    // Only a skill of rank 2 or more strains; only difficulty 3 or less is pushed.
    common::bad(&[
        "swimclass",
        "task",
        "--rank",
        "1",
        "--difficulty",
        "4",
        "--strain",
    ]);
    common::bad(&[
        "swimclass",
        "task",
        "--rank",
        "3",
        "--difficulty",
        "4",
        "--push",
        "2",
    ]);
    let _ = ok(&[
        "swimclass",
        "task",
        "--rank",
        "3",
        "--difficulty",
        "2",
        "--push",
        "3",
        "--seed",
        "1",
    ]);
}
