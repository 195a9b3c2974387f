//! `dice shapers-and-bots fight SCENE`: the rulebook's fight (Dashwood and Slumpy) shipped
//! as a scene, played, with its exact odds, and estimated.

use crate::common;

use common::rows;
use common::{bad, json, ok};
use dice_sim::wilson_interval;

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

/// The estimate agrees with the exact odds, with the printed interval taken at its word.
///
/// Each row's printed `[low, high]` must be the Wilson interval of its own count at the
/// printed confidence (95 %), and hold the estimate. That interval misses the true value in
/// one run of twenty by design: at `--seed 3` and 20,000 trials the Dashwood row is such a
/// run (33.905 % against the exact 33.010 %, 2.69 standard errors), which is why this test
/// used to widen the interval to 5 standard errors. The exact value is held instead to the
/// Wilson interval of the same count at 99.99 % (3.89 standard errors), computed here: a
/// correct simulation fails that once in 10,000 seeds, so passing does not hang on a lucky
/// seed, and a bias of a little over a percentage point still fails it.
#[test]
fn monte_carlo_agrees_with_the_exact_odds() {
    let exact = rows(&json(&["shapers-and-bots", "fight", SCENE, "--odds"]));
    let mc = json(&[
        "shapers-and-bots",
        "fight",
        SCENE,
        "--monte-carlo",
        "--trials",
        "20000",
        "--seed",
        "3",
    ]);
    assert_eq!(mc["trials"], 20000);
    let trials = 20_000;
    let level = mc["confidence"].as_f64().expect("a confidence level");
    assert_eq!(level, 0.95);
    let est = mc["distribution"].as_array().expect("a distribution");
    assert_eq!(est.len(), exact.len());
    for ((name, p, _), row) in exact.iter().zip(est) {
        assert_eq!(row["outcome"], name.as_str());
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
