//! `dice shapers-and-bots fight SCENE`: the rulebook's fight (Dashwood and Slumpy) shipped
//! as a scene, played, with its exact odds, and estimated.

use crate::common;

use common::rows;
use common::{bad, estimate_agrees_with_exact_odds, json, ok};

const SCENE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shapers-and-bots/scenes/dashwood-and-slumpy.toml"
);

#[test]
fn the_shipped_scene_plays_with_a_seed() {
    let text = ok(&["shapers-and-bots", "fight", SCENE, "--seed", "1"]);
    assert!(text.starts_with("Dashwood and Slumpy\n"), "{text}");
    assert!(
        text.contains("start: Dashwood 5/5 HP; Slumpy 10/10 HP, not yet closed in"),
        "{text}"
    );
    assert!(
        text.contains("Dashwood wins after") || text.contains("Slumpy wins after"),
        "{text}"
    );
    // The same seed plays the same fight.
    assert_eq!(
        text,
        ok(&["shapers-and-bots", "fight", SCENE, "--seed", "1"])
    );
    let v = json(&["shapers-and-bots", "fight", SCENE, "--seed", "1"]);
    let states = v["states"].as_array().expect("states");
    assert_eq!(states.len() as u64, v["rounds"].as_u64().unwrap() + 1);
    assert!(v["end"].is_string());
}

#[test]
fn exact_odds_sum_to_one() {
    let v = json(&["shapers-and-bots", "fight", SCENE, "--odds"]);
    let r = rows(&v);
    let names: Vec<&str> = r.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(names, ["Dashwood wins", "Slumpy wins"]);
    let total: f64 = r.iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    assert!(v["states"].as_u64().unwrap() < 1_000);
    assert!(v["expected_rounds"].as_f64().unwrap() > 1.0);
}

/// The Monte Carlo estimate agrees with the exact odds: the printed 95 % intervals are the
/// Wilson intervals of their own counts, and each exact chance lies within the 99.99 %
/// Wilson interval of its count (`common::estimate_agrees_with_exact_odds`).
#[test]
fn monte_carlo_agrees_with_the_exact_odds() {
    estimate_agrees_with_exact_odds(&["shapers-and-bots", "fight", SCENE], "3");
}

#[test]
fn a_malformed_scene_is_refused() {
    let dir = std::env::temp_dir().join(format!("dice-sab-fight-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("unknown.toml", "title = \"x\"\nhorses = 3\n", "horses"),
        (
            "weapon.toml",
            "[[fighters]]\nname = \"A\"\nweapon = \"spoon\"\n[[fighters]]\nname = \"B\"\nweapon = \"small\"\n",
            "unknown weapon",
        ),
        (
            "one-side.toml",
            "[[fighters]]\nname = \"A\"\nweapon = \"small\"\nside = \"s\"\n[[fighters]]\nname = \"B\"\nweapon = \"small\"\nside = \"s\"\n",
            "two sides",
        ),
        ("broken.json", "{\"fighters\": [", "not valid"),
    ];
    for (file, text, says) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let err = bad(&["shapers-and-bots", "fight", path.to_str().unwrap()]);
        assert!(err.contains(says), "{file}: {err}");
    }
    let err = bad(&["shapers-and-bots", "fight", "/no/such/scene.toml"]);
    assert!(err.contains("cannot read the scene"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Each round played is told (the attacks, their dice, the damage), and the exact odds give
/// each fighter's hit points at the end; in a duel, a fighter still standing is the winner.
#[test]
fn rounds_are_told_and_health_at_the_end_is_reported() {
    common::fight_tells_rounds_and_reports_health(
        &["shapers-and-bots", "fight", SCENE],
        &["Dashwood", "Slumpy"],
    );
    let v = json(&["shapers-and-bots", "fight", SCENE, "--odds"]);
    let wins: Vec<f64> = rows(&v).iter().map(|r| r.1).collect();
    let standing: Vec<f64> = v["health"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["standing"].as_f64().unwrap())
        .collect();
    for (w, s) in wins.iter().zip(&standing) {
        assert!((w - s).abs() < 1e-12, "{wins:?} vs {standing:?}");
    }
}
