//! `dice shapers-percentile fight`: the duel scene played, its exact odds, the Monte Carlo
//! estimate against them, and malformed scenes refused.

use crate::common;

use common::rows;
use common::{bad, estimate_agrees_with_exact_odds, json, ok};

const SCENE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shapers-percentile/scenes/duel.toml"
);

#[test]
fn the_duel_plays_with_a_seed() {
    let args = ["shapers-percentile", "fight", SCENE, "--seed", "1"];
    let text = ok(&args);
    assert!(
        text.contains(
            "start: Ada 30 at 25 m, Bram 24 at 0 m, the ogre 50 at 35 m; Initiative not rolled"
        ),
        "{text}"
    );
    assert!(text.contains("round 1:"), "{text}");
    assert!(text.contains("; order "), "{text}");
    assert!(text.contains(" after "), "{text}");
    // The same seed plays the same fight.
    assert_eq!(text, ok(&args));
    let v = json(&args);
    let end = v["end"].as_str().expect("an end");
    assert!(end == "the shapers win" || end == "the ogre wins", "{end}");
    assert_eq!(
        v["states"].as_array().expect("states").len() as u64,
        v["rounds"].as_u64().expect("rounds") + 1
    );
}

#[test]
fn the_exact_odds_sum_to_one() {
    let v = json(&["shapers-percentile", "fight", SCENE, "--odds"]);
    let r = rows(&v);
    assert_eq!(r.len(), 2);
    let total: f64 = r.iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert!(r.iter().any(|x| x.0 == "the shapers win"));
    assert!(r.iter().any(|x| x.0 == "the ogre wins"));
    assert!(v["expected_rounds"].as_f64().expect("expected rounds") >= 1.0);
    assert!(v["states"].as_u64().expect("states") > 2);
    let text = ok(&["shapers-percentile", "fight", SCENE, "--odds"]);
    assert!(text.contains("exact odds"), "{text}");
    // A ruling changes the odds: Lethal Damage ignores Fortitude.
    let lethal = rows(&json(&[
        "shapers-percentile",
        "fight",
        SCENE,
        "--odds",
        "--rule",
        "lethal=true",
    ]));
    assert_ne!(lethal, r);
}

/// The Monte Carlo estimate agrees with the exact odds: the printed 95 % intervals are the
/// Wilson intervals of their own counts, and each exact chance lies within the 99.99 %
/// Wilson interval of its count (`common::estimate_agrees_with_exact_odds`).
#[test]
fn monte_carlo_agrees_with_the_exact_odds() {
    estimate_agrees_with_exact_odds(&["shapers-percentile", "fight", SCENE], "3");
}

#[test]
fn a_malformed_scene_is_refused() {
    let dir = std::env::temp_dir().join(format!("shapers-percentile-fight-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let scene = std::fs::read_to_string(SCENE).expect("the scene");
    // An unknown field.
    let typo = dir.join("typo.toml");
    std::fs::write(&typo, scene.replace("dodge = 5", "dodgy = 5")).expect("written");
    let err = bad(&["shapers-percentile", "fight", typo.to_str().expect("UTF-8")]);
    assert!(err.contains("dodgy"), "{err}");
    // A weapon of no kind the chapter knows.
    let sling = dir.join("sling.toml");
    std::fs::write(
        &sling,
        scene.replace("kind = \"ranged\"", "kind = \"sling\""),
    )
    .expect("written");
    let err = bad(&[
        "shapers-percentile",
        "fight",
        sling.to_str().expect("UTF-8"),
    ]);
    assert!(err.contains("sling"), "{err}");
    // One side only: read, but not a fight.
    let lonely = dir.join("lonely.toml");
    std::fs::write(
        &lonely,
        scene.replace("side = \"the ogre\"", "side = \"the shapers\""),
    )
    .expect("written");
    let err = bad(&[
        "shapers-percentile",
        "fight",
        lonely.to_str().expect("UTF-8"),
        "--odds",
    ]);
    assert!(err.contains("two sides"), "{err}");
    // A combatant already out of the fight.
    let fallen = dir.join("fallen.json");
    std::fs::write(
        &fallen,
        r#"{"combatants": [
            {"name": "Ada", "side": "a", "health": 0, "physical_agility": 12,
             "mental_agility": 9, "physical_strength": 13, "physical_fortitude": 9,
             "weapon": {"name": "axe", "kind": "melee", "aptitude": 8, "damage": 7}},
            {"name": "Orc", "side": "b", "health": 10, "physical_agility": 5,
             "mental_agility": 5, "physical_strength": 5, "physical_fortitude": 5,
             "weapon": {"name": "club", "kind": "melee", "aptitude": 5, "damage": 4}}
        ]}"#,
    )
    .expect("written");
    let err = bad(&[
        "shapers-percentile",
        "fight",
        fallen.to_str().expect("UTF-8"),
    ]);
    assert!(err.contains("Health"), "{err}");
    // No such file.
    let err = bad(&["shapers-percentile", "fight", "no/such/scene.toml"]);
    assert!(err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each round played is told, and the exact odds give each combatant's Health at the end.
#[test]
fn rounds_are_told_and_health_at_the_end_is_reported() {
    common::fight_tells_rounds_and_reports_health(
        &["shapers-percentile", "fight", SCENE],
        &["Ada", "Bram", "the ogre"],
    );
}
