//! `dice robots-and-rapiers fight`: the rulebook's duel (Juliard vs Del Trevaine) played, its
//! exact odds, the Monte Carlo estimate against them, the same duel under the whole combat
//! chapter (exact odds refused, estimated), and malformed scenes refused.

use crate::common;

use common::rows;

use common::{bad, estimate_agrees_with_exact_odds, json, ok};

const SCENE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../robots-and-rapiers/scenes/juliard-vs-del-trevaine.toml"
);

#[test]
fn the_duel_plays_with_a_seed() {
    let args = ["robots-and-rapiers", "fight", SCENE, "--seed", "1"];
    let text = ok(&args);
    assert!(
        text.contains("start: before the Turn Order; Juliard: Durability 6, 0 AP; Del Trevaine: Durability 5, 0 AP"),
        "{text}"
    );
    assert!(text.contains("round 1:"), "{text}");
    assert!(text.contains(" wins after "), "{text}");
    // The same seed plays the same duel.
    assert_eq!(text, ok(&args));
    let v = json(&args);
    let end = v["end"].as_str().expect("an end");
    assert!(end == "Juliard wins" || end == "Del Trevaine wins", "{end}");
    assert_eq!(
        v["states"].as_array().expect("states").len() as u64,
        v["rounds"].as_u64().expect("rounds") + 1
    );
}

#[test]
fn the_exact_odds_sum_to_one() {
    let v = json(&["robots-and-rapiers", "fight", SCENE, "--odds"]);
    let r = rows(&v);
    assert_eq!(r.len(), 2);
    let total: f64 = r.iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    assert!(r.iter().any(|x| x.0 == "Juliard wins"));
    assert!(r.iter().any(|x| x.0 == "Del Trevaine wins"));
    assert!(v["expected_rounds"].as_f64().expect("expected rounds") >= 1.0);
    assert!(v["states"].as_u64().expect("states") > 2);
    let text = ok(&["robots-and-rapiers", "fight", SCENE, "--odds"]);
    assert!(text.contains("exact odds"), "{text}");
}

/// The Monte Carlo estimate agrees with the exact odds: the printed 95 % intervals are the
/// Wilson intervals of their own counts, and each exact chance lies within the 99.99 %
/// Wilson interval of its count (`common::estimate_agrees_with_exact_odds`).
#[test]
fn monte_carlo_agrees_with_the_exact_odds() {
    estimate_agrees_with_exact_odds(&["robots-and-rapiers", "fight", SCENE], "3");
}

const FULL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../robots-and-rapiers/scenes/juliard-vs-del-trevaine-full.toml"
);

#[test]
fn the_whole_combat_chapter_is_refused_exactly_and_estimated() {
    // Too many states for the exact law: refused at once, with the hint.
    let err = bad(&["robots-and-rapiers", "fight", FULL, "--odds"]);
    assert!(err.contains("states, more than 200000"), "{err}");
    assert!(err.contains("--monte-carlo"), "{err}");
    // Played and estimated.
    let text = ok(&["robots-and-rapiers", "fight", FULL, "--seed", "2"]);
    assert!(text.contains(" wins after "), "{text}");
    let mc = rows(&json(&[
        "robots-and-rapiers",
        "fight",
        FULL,
        "--monte-carlo",
        "--trials",
        "2000",
        "--seed",
        "5",
    ]));
    assert_eq!(mc.len(), 2);
    let total: f64 = mc.iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    // The same scene without the [duel] table is the exact duel.
    let dir = std::env::temp_dir().join(format!("rnr-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let text = std::fs::read_to_string(FULL).expect("the scene");
    let start = text.find("[duel]").expect("a [duel] table");
    let end = text.find("[[robot]]").expect("robots");
    let plain = dir.join("plain.toml");
    std::fs::write(&plain, format!("{}{}", &text[..start], &text[end..])).expect("written");
    let exact = rows(&json(&[
        "robots-and-rapiers",
        "fight",
        plain.to_str().expect("UTF-8"),
        "--odds",
    ]));
    let shipped = rows(&json(&["robots-and-rapiers", "fight", SCENE, "--odds"]));
    assert_eq!(exact, shipped);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_scene_is_refused() {
    let dir = std::env::temp_dir().join(format!("rnr-fight-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let scene = std::fs::read_to_string(SCENE).expect("the scene");
    // An unknown field.
    let typo = dir.join("typo.toml");
    std::fs::write(&typo, scene.replace("inspiration = 3", "luck = 3")).expect("written");
    let err = bad(&["robots-and-rapiers", "fight", typo.to_str().expect("UTF-8")]);
    assert!(err.contains("luck"), "{err}");
    // An unknown rule in the [duel] table.
    let rule = dir.join("rule.toml");
    std::fs::write(&rule, format!("{scene}\n[duel]\ninspiration = true\n")).expect("written");
    let err = bad(&["robots-and-rapiers", "fight", rule.to_str().expect("UTF-8")]);
    assert!(err.contains("unknown field `inspiration`"), "{err}");
    // A weapon the Melee Weapon Table does not have.
    let vorpal = dir.join("vorpal.toml");
    std::fs::write(&vorpal, scene.replacen("sonic_rapier", "vorpal_blade", 1)).expect("written");
    let err = bad(&[
        "robots-and-rapiers",
        "fight",
        vorpal.to_str().expect("UTF-8"),
    ]);
    assert!(err.contains("vorpal_blade"), "{err}");
    // One robot only: read, but not a duel.
    let lonely = dir.join("lonely.toml");
    let first = scene
        .split("[[robot]]")
        .take(2)
        .collect::<Vec<_>>()
        .join("[[robot]]");
    std::fs::write(&lonely, first).expect("written");
    let err = bad(&[
        "robots-and-rapiers",
        "fight",
        lonely.to_str().expect("UTF-8"),
        "--odds",
    ]);
    assert!(err.contains("exactly two robots"), "{err}");
    // An attribute out of range.
    let broken = dir.join("broken.json");
    std::fs::write(
        &broken,
        r#"{"robot": [
            {"name": "A", "fencing": 3, "core_physical": 5, "force": 5, "durability": 0, "articulation": 6,
             "locomotion": 5, "processor": 5, "memory": 4, "weapon": "sonic_rapier"},
            {"name": "B", "fencing": 3, "core_physical": 5, "force": 5, "durability": 5, "articulation": 6,
             "locomotion": 5, "processor": 5, "memory": 4, "weapon": "sonic_rapier"}
        ]}"#,
    )
    .expect("written");
    let err = bad(&[
        "robots-and-rapiers",
        "fight",
        broken.to_str().expect("UTF-8"),
    ]);
    assert!(err.contains("Durability"), "{err}");
    // No such file.
    let err = bad(&["robots-and-rapiers", "fight", "no-such-scene.toml"]);
    assert!(err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each round played is told, and the exact odds give each robot's Durability at the end
/// (−1 once shut down; one at Durability 0 still runs): in a duel, a robot still running is
/// the winner.
#[test]
fn rounds_are_told_and_health_at_the_end_is_reported() {
    common::fight_tells_rounds_and_reports_health(
        &["robots-and-rapiers", "fight", SCENE],
        &["Juliard", "Del Trevaine"],
    );
    let v = json(&["robots-and-rapiers", "fight", SCENE, "--odds"]);
    let wins: Vec<f64> = rows(&v).iter().map(|r| r.1).collect();
    for (w, h) in wins.iter().zip(v["health"].as_array().unwrap()) {
        let s = h["standing"].as_f64().unwrap();
        assert!((w - s).abs() < 1e-12, "{w} vs {h}");
    }
}
