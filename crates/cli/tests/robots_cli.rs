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
