//! `dice shapers-percentile fight`: the duel scene played, its exact odds, the Monte Carlo
//! estimate against them, and malformed scenes refused.

use crate::common;

use common::rows;
use common::{bad, json, ok};
use dice_sim::wilson_interval;

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

/// The estimate agrees with the exact odds, with the printed interval taken at its word.
///
/// Each row's printed `[low, high]` must be the Wilson interval of its own count at the
/// printed confidence (95 %), and hold the estimate. That interval misses the true value in
/// one run of twenty by design: with 20,000 trials the former scene's shapers' row missed
/// it at seed 3 (33.735 % against the exact 34.430 %, 2.07 standard errors), which is why
/// this test used to widen it to two half-widths. The exact value is held instead to the
/// Wilson interval of the same count at 99.99 % (3.89 standard errors), computed here:
/// a correct simulation fails that once in 10,000 seeds, so passing does not hang on a
/// lucky seed, and a bias of a little over a percentage point still fails it.
#[test]
fn monte_carlo_agrees_with_the_exact_odds() {
    let exact = rows(&json(&["shapers-percentile", "fight", SCENE, "--odds"]));
    let mc = json(&[
        "shapers-percentile",
        "fight",
        SCENE,
        "--monte-carlo",
        "--trials",
        "20000",
        "--seed",
        "3",
    ]);
    let trials = mc["trials"].as_u64().expect("trials");
    assert_eq!(trials, 20_000);
    let level = mc["confidence"].as_f64().expect("a confidence level");
    assert_eq!(level, 0.95);
    let est = mc["distribution"].as_array().expect("a distribution");
    assert_eq!(est.len(), exact.len());
    for (name, p, _) in &exact {
        let row = est
            .iter()
            .find(|r| r["outcome"] == name.as_str())
            .unwrap_or_else(|| panic!("{name} never seen"));
        let count = row["count"].as_u64().expect("a count");
        let q = row["probability"].as_f64().expect("an estimate");
        let (low, high) = (row["low"].as_f64().unwrap(), row["high"].as_f64().unwrap());
        assert_eq!(q, count as f64 / trials as f64);
        let (l95, h95) = wilson_interval(count, trials, level);
        assert!(
            (low - l95).abs() < 1e-12 && (high - h95).abs() < 1e-12,
            "{name}: printed [{low}, {high}], Wilson 95 % [{l95}, {h95}]"
        );
        assert!(low <= q && q <= high);
        let (l, h) = wilson_interval(count, trials, 0.9999);
        assert!(
            l <= *p && *p <= h,
            "{name}: exact {p}, {count} of {trials} ({q}), 99.99 % interval [{l}, {h}]"
        );
    }
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
