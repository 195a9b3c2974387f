//! `dice swimclass fight`: the Sample Rounds scene played, its exact odds, the Monte Carlo
//! estimate against them (and the same for a healer's fight whose skills advance), the
//! exact odds refused where ranks have no ceiling, and a malformed scene refused.

use crate::common;

use common::rows;

use common::{bad, estimate_agrees_with_exact_odds, json, ok};

const SCENE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../swimclass/scenes/sample-rounds.toml"
);

#[test]
fn the_sample_rounds_play_with_a_seed() {
    let text = ok(&["swimclass", "fight", SCENE, "--seed", "1"]);
    assert!(text.contains("start: Orc 4/4 HP, Harro 4/4 HP"), "{text}");
    assert!(text.contains("round 1:"), "{text}");
    assert!(text.contains(" wins after "), "{text}");
    // The same seed plays the same fight.
    assert_eq!(text, ok(&["swimclass", "fight", SCENE, "--seed", "1"]));
    let v = json(&["swimclass", "fight", SCENE, "--seed", "1"]);
    let end = v["end"].as_str().expect("an end");
    assert!(end == "Harro wins" || end == "Orc wins");
    assert_eq!(
        v["states"].as_array().expect("states").len() as u64,
        v["rounds"].as_u64().expect("rounds") + 1
    );
}

#[test]
fn the_exact_odds_sum_to_one() {
    let v = json(&["swimclass", "fight", SCENE, "--odds"]);
    let r = rows(&v);
    assert_eq!(r.len(), 2);
    let total: f64 = r.iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    assert!(r.iter().any(|x| x.0 == "Harro wins"));
    assert!(r.iter().any(|x| x.0 == "Orc wins"));
    assert!(v["expected_rounds"].as_f64().expect("expected rounds") >= 1.0);
    assert!(v["states"].as_u64().expect("states") > 2);
    let text = ok(&["swimclass", "fight", SCENE, "--odds"]);
    assert!(text.contains("exact odds"), "{text}");
}

/// The Monte Carlo estimate agrees with the exact odds: the printed 95 % intervals are the
/// Wilson intervals of their own counts, and each exact chance lies within the 99.99 %
/// Wilson interval of its count (`common::estimate_agrees_with_exact_odds`).
#[test]
fn monte_carlo_agrees_with_the_exact_odds() {
    estimate_agrees_with_exact_odds(&["swimclass", "fight", SCENE], "3");
}

const HEALERS: &str = r#"title = "A cleric and her squire against an ogre"

[[combatant]]
name = "Cleric"
side = "temple"
skills = [["basic_melee", 1], ["basic_defense", 1], [{ magic = "life" }, 1]]
heal_range = 0
stance = "heal"

[[combatant]]
name = "Squire"
side = "temple"
skills = [["basic_melee", 1], ["basic_defense", 1]]

[[combatant]]
name = "Ogre"
side = "ogre"
skills = [["basic_melee", 2], ["basic_defense", 2]]
"#;

#[test]
fn a_healers_fight_whose_skills_advance_agrees_with_its_estimate() {
    let dir = std::env::temp_dir().join(format!("swimclass-healers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let scene = dir.join("healers.toml");
    std::fs::write(&scene, HEALERS).expect("written");
    let scene = scene.to_str().expect("UTF-8");
    // At the ranks the fight began with, then advancing mid-fight under a ceiling of 2.
    estimate_agrees_with_exact_odds(&["swimclass", "fight", scene], "5");
    let advancing = [
        "swimclass",
        "fight",
        scene,
        "--rule",
        "advance_mid_fight=true",
        "--rule",
        "max_rank=2",
    ];
    estimate_agrees_with_exact_odds(&advancing, "5");
    // Advancing changes the odds.
    let fixed = rows(&json(&["swimclass", "fight", scene, "--odds"]));
    let mut args = advancing.to_vec();
    args.push("--odds");
    let moved = rows(&json(&args));
    assert!(
        (fixed[0].1 - moved[0].1).abs() > 1e-6,
        "{fixed:?} {moved:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ranks_with_no_ceiling_are_estimated_not_solved() {
    let args = [
        "swimclass",
        "fight",
        SCENE,
        "--rule",
        "advance_mid_fight=true",
    ];
    let mut odds = args.to_vec();
    odds.push("--odds");
    let err = bad(&odds);
    assert!(err.contains("max_rank"), "{err}");
    assert!(err.contains("--monte-carlo"), "{err}");
    // Played and estimated as usual.
    let text = ok(&args);
    assert!(text.contains(" wins after "), "{text}");
    let mut mc = args.to_vec();
    mc.extend(["--monte-carlo", "--trials", "2000"]);
    assert_eq!(rows(&json(&mc)).len(), 2);
}

#[test]
fn a_malformed_scene_is_refused() {
    let dir = std::env::temp_dir().join(format!("swimclass-fight-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    // An unknown field.
    let typo = dir.join("typo.toml");
    let text = std::fs::read_to_string(SCENE)
        .expect("the scene")
        .replace("side = \"Orc\"", "side = \"Orc\"\nhitpoints = 9");
    std::fs::write(&typo, text).expect("written");
    let err = bad(&["swimclass", "fight", typo.to_str().expect("UTF-8")]);
    assert!(err.contains("hitpoints"), "{err}");
    // One side only: read, but not a fight.
    let lonely = dir.join("lonely.toml");
    std::fs::write(
        &lonely,
        "[[combatant]]\nname = \"Harro\"\nside = \"Harro\"\nskills = [[\"basic_melee\", 3]]\n",
    )
    .expect("written");
    let err = bad(&[
        "swimclass",
        "fight",
        lonely.to_str().expect("UTF-8"),
        "--odds",
    ]);
    assert!(err.contains("two sides"), "{err}");
    // An implement the catalogue does not have.
    let vorpal = dir.join("vorpal.json");
    std::fs::write(
        &vorpal,
        r#"{"combatant": [
            {"name": "A", "side": "a", "skills": [["basic_melee", 2]], "attack_implements": ["Vorpal Blade"]},
            {"name": "B", "side": "b", "skills": [["basic_melee", 2]]}
        ]}"#,
    )
    .expect("written");
    let err = bad(&["swimclass", "fight", vorpal.to_str().expect("UTF-8")]);
    assert!(err.contains("Vorpal Blade"), "{err}");
    // No such file.
    let err = bad(&["swimclass", "fight", "no-such-scene.toml"]);
    assert!(err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each round played is told, and the exact odds give each combatant's HP at the end.
#[test]
fn rounds_are_told_and_health_at_the_end_is_reported() {
    common::fight_tells_rounds_and_reports_health(
        &["swimclass", "fight", SCENE],
        &["Orc", "Harro"],
    );
}
