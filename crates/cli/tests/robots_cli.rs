//! `dice robots-and-rapiers`: what the command reports against the rulebook
//! (`seeds/robots-and-rapiers.txt`) and the crate's API after the audit's fixes.

use crate::common;
use common::{json, ok};

/// L253: at 0 an attribute "loses the use of that Attribute (Tests rolled against it have a
/// Target Number of 0 and are thus impossible)"; L268: "If reduced to 0, Total Failure is
/// guaranteed"; L1465: Exertion raises the TN "by 1 (and only 1)". At a TN of 0 or below
/// Exertion does nothing, so no Power is spent and no "+1" is shown
/// (`SavingThrow::is_exerted`).
#[test]
fn save_at_tn_zero_is_not_exerted() {
    for args in [
        vec!["--tn", "0"],
        vec!["--tn", "-2"],
        vec!["--tn", "3", "--modifier", "-3"],
    ] {
        for odds in [false, true] {
            let mut all = vec!["robots-and-rapiers", "save"];
            all.extend(&args);
            all.push("--exert");
            if odds {
                all.push("--odds");
            }
            let v = json(&all);
            assert_eq!(v["exerted"], false, "{all:?}: {v}");
            assert!(v["tn"].as_i64().unwrap() <= 0, "{all:?}: {v}");
            // A roll's title is the first line of its display; the odds carry a title.
            let title = match v["title"].as_str() {
                Some(t) => t.to_owned(),
                None => v["display"]
                    .as_str()
                    .unwrap()
                    .lines()
                    .next()
                    .unwrap()
                    .to_owned(),
            };
            assert!(!title.contains("+1"), "{all:?}: {title}");
        }
    }
    // Above 0 Exertion still works: +1 TN, shown and reported.
    let v = json(&["robots-and-rapiers", "save", "--tn", "5", "--exert"]);
    assert_eq!(
        (v["exerted"].as_bool(), v["tn"].as_i64()),
        (Some(true), Some(6))
    );
    assert!(
        v["display"]
            .as_str()
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .contains("(5 +1)")
    );
}

/// The same for a Test: L253, L1786 ("unable to make any Test rolls using that attribute
/// until it is restored to at least an effective score of 1"); `Test::is_exerted`.
#[test]
fn test_at_tn_zero_is_not_exerted() {
    for odds in [false, true] {
        let mut all = vec![
            "robots-and-rapiers",
            "test",
            "--dice",
            "3",
            "--tn",
            "0",
            "--exert",
        ];
        if odds {
            all.push("--odds");
        }
        let v = json(&all);
        assert_eq!(v["exerted"], false, "{v}");
        assert_eq!(v["tn"], 0, "{v}");
    }
    let v = json(&[
        "robots-and-rapiers",
        "test",
        "--dice",
        "3",
        "--tn",
        "4",
        "--exert",
    ]);
    assert_eq!(
        (v["exerted"].as_bool(), v["tn"].as_i64()),
        (Some(true), Some(5))
    );
}

/// The help texts say what the crate does now: Exertion is once and not at TN 0 or below
/// (L253, L1465–1467).
#[test]
fn help_texts_tell_the_exertion_limits() {
    for sub in ["test", "save"] {
        let help = ok(&["robots-and-rapiers", sub, "--help"]);
        assert!(help.contains("TN of 0 or below"), "{sub}: {help}");
    }
}

/// L2366: a weapon's Difficulty applies to its rolls "aggressively or defensively"; L205: a
/// Difficulty is "automatic opposed Successes". `--opposing-difficulty` cancels the opposing
/// roll's own successes first, never below 0. The law is enumerated here: 1 die at TN 5
/// against 2 dice at TN 5 with Difficulty 1.
#[test]
fn opposing_difficulty_cancels_the_opposing_successes_first() {
    let v = json(&[
        "robots-and-rapiers",
        "test",
        "--dice",
        "1",
        "--tn",
        "5",
        "--opposing-dice",
        "2",
        "--opposing-tn",
        "5",
        "--opposing-difficulty",
        "1",
        "--odds",
    ]);
    assert_eq!(v["opposing"]["difficulty"], 1);
    let mut law = std::collections::BTreeMap::new();
    for a in 1..=10u8 {
        for b in 1..=10u8 {
            for c in 1..=10u8 {
                let mine = i64::from(a <= 5);
                let theirs = (i64::from(b <= 5) + i64::from(c <= 5) - 1).max(0);
                *law.entry(mine - theirs).or_insert(0.0) += 1e-3;
            }
        }
    }
    let p_acc: f64 = law.iter().filter(|(n, _)| **n >= 1).map(|(_, p)| p).sum();
    assert!(
        common::close(v["p_accomplished"].as_f64().unwrap(), p_acc),
        "{v}"
    );
    // A roll reports the opposing successes left.
    let r = json(&[
        "robots-and-rapiers",
        "test",
        "--dice",
        "3",
        "--tn",
        "5",
        "--opposing-dice",
        "3",
        "--opposing-tn",
        "5",
        "--opposing-difficulty",
        "2",
        "--seed",
        "7",
    ]);
    let o = &r["opposing_roll"];
    let left = (o["successes"].as_i64().unwrap() - 2).max(0);
    assert_eq!(o["left"].as_i64().unwrap(), left);
    assert_eq!(
        r["net"].as_i64().unwrap(),
        r["successes"].as_i64().unwrap() - left
    );
    // Without an opposing roll the flag is refused.
    common::bad(&[
        "robots-and-rapiers",
        "test",
        "--dice",
        "3",
        "--tn",
        "5",
        "--opposing-difficulty",
        "2",
    ]);
}

/// Turn order (L291–299): Perception, then Locomotion, then Inspiration; robots tied on all
/// three roll a d10, re-rolling while tied (A16). E29 (L2014–2023) has no tie left:
/// "Alfredo, Devon, Charles, Burgiss" in the rulebook's naming, here by ranking alone.
#[test]
fn turn_order_ranks_robots_and_rolls_off_ties() {
    let e29 = [
        "robots-and-rapiers",
        "turn-order",
        "--robot",
        "A=8:7:5",
        "--robot",
        "B=6:4:3",
        "--robot",
        "C=6:6:3",
        "--robot",
        "D=8:5:7",
    ];
    let mut odds = e29.to_vec();
    odds.push("--odds");
    let v = json(&odds);
    let rows = v["distribution"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["order"], serde_json::json!(["A", "D", "C", "B"]));
    assert_eq!(rows[0]["probability"].as_f64(), Some(1.0));
    let mut rolled = e29.to_vec();
    rolled.extend(["--seed", "4"]);
    assert_eq!(
        json(&rolled)["order"],
        serde_json::json!(["A", "D", "C", "B"])
    );
    // Three robots tied on everything: the roll-offs favour none, so each of the 3! orders
    // has 1/6 and each robot goes first with 1/3. A fourth ranked above keeps the top.
    let tied = [
        "robots-and-rapiers",
        "turn-order",
        "--robot",
        "5:4:1",
        "--robot",
        "5:4:1",
        "--robot",
        "5:4:1",
        "--robot",
        "Top=7:0:0",
    ];
    let mut odds = tied.to_vec();
    odds.push("--odds");
    let v = json(&odds);
    let rows = v["distribution"].as_array().unwrap();
    assert_eq!(rows.len(), 6, "{v}");
    for r in rows {
        assert!(
            (r["probability"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12,
            "{r}"
        );
        assert_eq!(r["order"][0], "Top");
    }
    assert_eq!(v["p_first"].as_f64(), Some(0.0));
    // The same by rolling: the first of the tied robots to act after Top.
    let trials = 6000u32;
    let t = trials.to_string();
    let mut mc = tied.to_vec();
    mc.extend(["--monte-carlo", "--trials", &t, "--seed", "9"]);
    let v = json(&mc);
    let second_is_robot_1: f64 = v["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["order"][1] == "robot 1")
        .map(|r| r["probability"].as_f64().unwrap())
        .sum();
    let p = 1.0 / 3.0;
    let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
    assert!(
        (second_is_robot_1 - p).abs() <= 5.0 * se,
        "{second_is_robot_1}"
    );
    // A social conflict names its own ranking; a malformed robot is refused.
    let v = json(&[
        "robots-and-rapiers",
        "turn-order",
        "--social",
        "--robot",
        "5:6:1",
        "--robot",
        "5:6:1",
        "--odds",
    ]);
    assert!(
        v["title"]
            .as_str()
            .unwrap()
            .starts_with("social turn order by Processor"),
        "{v}"
    );
    assert_eq!(v["distribution"].as_array().unwrap().len(), 2);
    common::bad(&["robots-and-rapiers", "turn-order", "--robot", "8:7"]);
    let _ = ok(&[
        "robots-and-rapiers",
        "turn-order",
        "--robot",
        "8:7:5",
        "--seed",
        "1",
    ]);
}
