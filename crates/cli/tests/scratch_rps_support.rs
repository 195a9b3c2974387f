//! `dice scratch-rps vehicle`, `dice scratch-rps hurry` and `dice scratch-rps action`: the
//! vehicle operator's ability roll (`seeds/scratch-rps.txt` L109–L117), the craftsman's roll
//! in a hurry (L101), and the actions that make several attacks (fighting L81, wrestling L83,
//! blasting L77). Every expected chance is counted here over the twenty faces of each d20.

use crate::common;
use common::{bad, close, json, ok};

use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

/// P(d20 + `plus` ≥ `difficulty`, or a natural 20) (L17, L21).
fn chance(plus: i64, difficulty: i64) -> f64 {
    (1..=20)
        .filter(|&n| n == 20 || n + plus >= difficulty)
        .count() as f64
        / 20.0
}

#[test]
fn each_vehicle_is_operated_with_its_own_ability() {
    // L113 driving: ground; L115 navigation: water; L117 piloting: air or space.
    for (vehicle, ability) in [
        ("ground", "driving"),
        ("water", "navigation"),
        ("air-or-space", "piloting"),
    ] {
        for level in 1..=3 {
            let l = level.to_string();
            let v = json(&[
                "scratch-rps",
                "vehicle",
                "--vehicle",
                vehicle,
                "--level",
                &l,
                "--difficulty",
                "15",
                "--modifier",
                "-1",
                "--odds",
            ]);
            assert_eq!(v["vehicle"]["ability"], ability, "{v}");
            assert!(
                close(f(&v["p_success"]), chance(level - 1, 15)),
                "{vehicle} {level}: {v}"
            );
        }
    }
}

#[test]
fn a_character_without_the_ability_cannot_operate_the_vehicle() {
    let err = bad(&[
        "scratch-rps",
        "vehicle",
        "--vehicle",
        "water",
        "--level",
        "0",
        "--difficulty",
        "10",
    ]);
    assert!(err.contains("cannot operate"), "{err}");
    assert!(err.contains("navigation"), "{err}");
}

#[test]
fn a_vehicle_roll_replays_from_its_seed() {
    let args = [
        "scratch-rps",
        "vehicle",
        "--vehicle",
        "ground",
        "--level",
        "2",
        "--difficulty",
        "12",
        "--seed",
        "4",
    ];
    let text = ok(&args);
    assert_eq!(text, ok(&args));
    let v = json(&args);
    let natural = v["natural"].as_i64().expect("the die");
    assert_eq!(v["total"].as_i64(), Some(natural + 2));
    let succeeded = natural == 20 || natural + 2 >= 12;
    assert_eq!(v["outcome"] != "failure", succeeded, "{v}");
}

#[test]
fn the_hurry_roll_is_a_craftsmanship_roll_usually_at_ten() {
    // L101: "He must make a success roll to add a temporary bonus in a hurry (usually
    // difficulty 10.)" The craftsman's level is added, as to any ability roll (L17).
    let v = json(&["scratch-rps", "hurry", "--level", "2", "--odds"]);
    assert_eq!(v["hurry"]["difficulty"], 10);
    assert!(close(f(&v["p_success"]), chance(2, 10)), "{v}");
    let v = json(&[
        "scratch-rps",
        "hurry",
        "--level",
        "2",
        "--difficulty",
        "14",
        "--odds",
        "--rule",
        "hurry_roll=non_ability",
    ]);
    assert!(close(f(&v["p_success"]), chance(0, 14)), "{v}");
    let text = ok(&["scratch-rps", "hurry", "--level", "1", "--odds"]);
    assert!(text.contains("until the hurry is over"), "{text}");
    // Without craftsmanship there is no bonus to give.
    let err = bad(&["scratch-rps", "hurry", "--level", "0"]);
    assert!(err.contains("craftsmanship"), "{err}");
}

#[test]
fn a_failed_hurry_says_the_bonus_waits() {
    // Seeds until both a success and a failure have been seen (difficulty 15, level 1:
    // 7 faces in 20 succeed).
    let (mut added, mut failed) = (false, false);
    for seed in 1..200 {
        let s = seed.to_string();
        let args = [
            "scratch-rps",
            "hurry",
            "--level",
            "1",
            "--difficulty",
            "15",
            "--seed",
            &s,
        ];
        let v = json(&args);
        let display = v["display"].as_str().expect("the text").to_owned();
        if v["outcome"] == "failure" {
            assert!(display.contains("until the hurry is over"), "{display}");
            failed = true;
        } else {
            assert!(display.contains("+1 is added"), "{display}");
            added = true;
        }
        if added && failed {
            return;
        }
    }
    panic!("200 seeds gave no success or no failure");
}

#[test]
fn the_estimates_agree_with_the_exact_odds() {
    const TRIALS: u64 = 20_000;
    let trials = TRIALS.to_string();
    for (args, p) in [
        (
            vec![
                "scratch-rps",
                "vehicle",
                "--vehicle",
                "air",
                "--level",
                "1",
                "--difficulty",
                "15",
            ],
            chance(1, 15),
        ),
        (vec!["scratch-rps", "hurry", "--level", "3"], chance(3, 10)),
    ] {
        let mut mc = args.clone();
        mc.extend(["--monte-carlo", "--trials", &trials, "--seed", "9"]);
        let v = json(&mc);
        assert_eq!(v["method"], "monte_carlo");
        let count = (f(&v["p_success"]) * TRIALS as f64).round() as u64;
        let (l, h) = dice_sim::wilson_interval(count, TRIALS, common::CHECK_CONFIDENCE);
        assert!(l <= p && p <= h, "{args:?}: {p} outside [{l}, {h}]");
    }
}

#[test]
fn the_vehicle_roll_sweeps_and_prints_in_every_format() {
    let v = json(&[
        "scratch-rps",
        "vehicle",
        "--vehicle",
        "water",
        "--level",
        "1..3",
        "--difficulty",
        "10,15",
        "--odds",
    ]);
    let cells = v["cells"].as_array().expect("cells");
    for (i, row) in cells.iter().enumerate() {
        for (j, d) in [10, 15].into_iter().enumerate() {
            assert!(close(f(&row[j]), chance(i as i64 + 1, d)), "{v}");
        }
    }
    let base = ["scratch-rps", "hurry", "--level", "2", "--odds", "--format"];
    let with = |format: &'static str| {
        let mut a = base.to_vec();
        a.push(format);
        ok(&a)
    };
    let csv = with("csv");
    assert!(csv.contains("failure,"), "{csv}");
    let md = with("markdown");
    assert!(md.contains("P(the temporary bonus is added)"), "{md}");
}

#[test]
fn the_help_speaks_in_the_games_terms() {
    for cmd in ["vehicle", "hurry", "action"] {
        let help = ok(&["scratch-rps", cmd, "--help"]);
        let cites_a_line = help.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            w.len() > 1 && w.starts_with('L') && w[1..].chars().all(|c| c.is_ascii_digit())
        });
        assert!(!cites_a_line, "{help}");
        assert!(!help.contains("SC-"), "{help}");
    }
}

/// One attack's (outcome, damage) for a natural, as the rulebook reads: the die plus the
/// ability level and modifiers against the defense (L29), a natural 20 always hitting
/// (L15) with 1 more damage when the attack does damage (L37).
fn one_attack(natural: i64, plus: i64, defense: i64, damage: u64) -> (String, u64) {
    if natural == 20 {
        let extra = if damage == 0 { 0 } else { damage + 1 };
        ("automatic_success".to_owned(), extra)
    } else if natural + plus >= defense {
        ("success".to_owned(), damage)
    } else {
        ("failure".to_owned(), 0)
    }
}

/// Each attack's (outcome, damage), in order.
type Joint = Vec<(String, u64)>;

/// The law of an action's attacks, counted over every combination of their d20 faces:
/// `attacks` are (defense, damage on a hit), each rolled at d20 + `plus`.
fn enumerate(plus: i64, attacks: &[(i64, u64)]) -> std::collections::BTreeMap<Joint, f64> {
    let n = attacks.len() as u32;
    let combos = 20u64.pow(n);
    let mut law = std::collections::BTreeMap::new();
    for index in 0..combos {
        let mut rest = index;
        let joint: Joint = attacks
            .iter()
            .map(|&(defense, damage)| {
                let natural = (rest % 20) as i64 + 1;
                rest /= 20;
                one_attack(natural, plus, defense, damage)
            })
            .collect();
        *law.entry(joint).or_insert(0.0) += 1.0 / combos as f64;
    }
    law
}

/// A JSON row's attacks as (outcome, damage).
fn joint_of(row: &Value) -> Joint {
    row["attacks"]
        .as_array()
        .expect("the attacks")
        .iter()
        .map(|x| {
            (
                x["outcome"].as_str().expect("an outcome").to_owned(),
                x["damage"].as_u64().expect("damage"),
            )
        })
        .collect()
}

/// An action's command line with its defenses, then `extra`.
fn action_args<'a>(
    kind: &'a str,
    level: &'a str,
    defenses: &'a [String],
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec!["scratch-rps", "action", "--kind", kind, "--level", level];
    for d in defenses {
        args.extend(["--defense", d.as_str()]);
    }
    args.extend(extra);
    args
}

#[test]
fn each_action_has_the_joint_law_of_its_attacks() {
    // L81: fighting, two basic attacks (1 damage); L83: wrestling, a basic attack and a hold
    // (no damage); L77: blasting, one attack per separate target (1 damage each).
    // (action, level, modifier, each attack's (defense, damage on a hit))
    type Case = (&'static str, i64, i64, Vec<(i64, u64)>);
    let cases: [Case; 5] = [
        ("fighting", 4, 0, vec![(13, 1), (13, 1)]),
        ("fighting", 2, 2, vec![(12, 1), (15, 1)]),
        ("wrestling", 2, 0, vec![(13, 1), (14, 0)]),
        ("blasting", 3, -2, vec![(11, 1), (12, 1), (16, 1)]),
        ("blasting", 1, 0, vec![(12, 1)]),
    ];
    for (kind, level, modifier, attacks) in cases {
        let defenses: Vec<String> = attacks.iter().map(|a| a.0.to_string()).collect();
        let (l, m) = (level.to_string(), modifier.to_string());
        let mut extra = vec!["--modifier", &m, "--odds"];
        if attacks.len() == 1 {
            // One --defense alone means blasting's three targets (L77).
            extra.extend(["--targets", "1"]);
        }
        let args = action_args(kind, &l, &defenses, &extra);
        let v = json(&args);
        let want = enumerate(level + modifier, &attacks);
        let rows = v["distribution"].as_array().expect("the rows");
        assert_eq!(rows.len(), want.len(), "{args:?}: {v}");
        for row in rows {
            let joint = joint_of(row);
            let p = want.get(&joint).copied().unwrap_or(-1.0);
            assert!(close(f(&row["probability"]), p), "{args:?}: {joint:?}");
            let sum: u64 = joint.iter().map(|x| x.1).sum();
            assert_eq!(row["damage"].as_u64(), Some(sum), "{row}");
        }
        // The headline numbers, from the same enumeration.
        let p_of = |pred: &dyn Fn(&Joint) -> bool| -> f64 {
            want.iter().filter(|(j, _)| pred(j)).map(|(_, p)| p).sum()
        };
        let damage = |j: &Joint| j.iter().map(|x| x.1).sum::<u64>();
        assert!(close(f(&v["p_damage"]), p_of(&|j| damage(j) > 0)), "{v}");
        assert!(
            close(
                f(&v["p_all_hit"]),
                p_of(&|j| j.iter().all(|x| x.0 != "failure"))
            ),
            "{v}"
        );
        for i in 0..attacks.len() {
            let key = format!("p_hit_{}", i + 1);
            assert!(
                close(f(&v[&key]), p_of(&|j| j[i].0 != "failure")),
                "{key}: {v}"
            );
        }
        let mean: f64 = want.iter().map(|(j, p)| damage(j) as f64 * p).sum();
        assert!((f(&v["expected_damage"]) - mean).abs() < 1e-12, "{v}");
        for entry in v["damage_distribution"].as_array().expect("the damage law") {
            let d = entry["damage"].as_u64().expect("damage");
            assert!(
                close(f(&entry["probability"]), p_of(&|j| damage(j) == d)),
                "{entry}"
            );
        }
        assert_eq!(
            v["action"]["defenses"].as_array().map(Vec::len),
            Some(attacks.len())
        );
    }
}

#[test]
fn the_total_damage_law_is_numeric() {
    let defenses = ["13".to_owned()];
    let args = action_args("blasting", "2", &defenses, &["--total", "--odds"]);
    let v = json(&args);
    // One --defense: blasting's three targets (L77), all at 13.
    let want = enumerate(2, &[(13, 1), (13, 1), (13, 1)]);
    let mut by_damage = [0.0f64; 7];
    for (j, p) in &want {
        by_damage[j.iter().map(|x| x.1).sum::<u64>() as usize] += p;
    }
    let rows = v["distribution"].as_array().expect("the rows");
    assert_eq!(rows.len(), by_damage.len(), "{v}");
    for row in rows {
        let d = row["outcome"].as_u64().expect("a number") as usize;
        assert!(close(f(&row["probability"]), by_damage[d]), "{row}");
    }
    let mean: f64 = by_damage
        .iter()
        .enumerate()
        .map(|(d, p)| d as f64 * p)
        .sum();
    assert!((f(&v["mean"]) - mean).abs() < 1e-12, "{v}");
    assert!(close(f(&v["p_damage"]), 1.0 - by_damage[0]), "{v}");
    let text = ok(&args[..args.len() - 1]
        .iter()
        .copied()
        .chain(["--odds", "--view", "at-least"])
        .collect::<Vec<_>>());
    assert!(text.contains("total damage"), "{text}");
}

#[test]
fn a_rolled_action_shows_every_die_and_replays_from_its_seed() {
    let defenses = ["13".to_owned(), "15".to_owned()];
    let args = action_args("wrestling", "2", &defenses, &["--seed", "3"]);
    let text = ok(&args);
    assert_eq!(text, ok(&args));
    assert!(text.contains("hold: d20"), "{text}");
    let v = json(&args);
    let attacks = v["attacks"].as_array().expect("the attacks");
    assert_eq!(attacks.len(), 2, "{v}");
    let mut total = 0;
    for (x, (kind, defense, damage)) in attacks
        .iter()
        .zip([("basic_attack", 13, 1), ("hold", 15, 0)])
    {
        assert_eq!(x["kind"], kind, "{v}");
        assert_eq!(x["defense"], defense, "{v}");
        let natural = x["natural"].as_i64().expect("the die");
        assert_eq!(x["total"].as_i64(), Some(natural + 2), "{v}");
        let (outcome, d) = one_attack(natural, 2, defense, damage);
        assert_eq!(x["outcome"], outcome.as_str(), "{v}");
        assert_eq!(x["damage"].as_u64(), Some(d), "{v}");
        total += d;
    }
    assert_eq!(v["damage"].as_u64(), Some(total), "{v}");
}

#[test]
fn the_action_estimate_agrees_with_the_enumeration() {
    const TRIALS: u64 = 20_000;
    let trials = TRIALS.to_string();
    let defenses = ["12".to_owned(), "14".to_owned()];
    let args = action_args(
        "fighting",
        "3",
        &defenses,
        &["--monte-carlo", "--trials", &trials, "--seed", "11"],
    );
    let v = json(&args);
    assert_eq!(v["method"], "monte_carlo");
    let want = enumerate(3, &[(12, 1), (14, 1)]);
    let mut seen = 0u64;
    for row in v["distribution"].as_array().expect("the rows") {
        let count = row["count"].as_u64().expect("a count");
        seen += count;
        let p = want
            .get(&joint_of(row))
            .copied()
            .expect("a possible result");
        let (l, h) = dice_sim::wilson_interval(count, TRIALS, common::CHECK_CONFIDENCE);
        assert!(l <= p && p <= h, "{row}: {p} outside [{l}, {h}]");
    }
    assert_eq!(seen, TRIALS);
    let p_damage: f64 = want
        .iter()
        .filter(|(j, _)| j.iter().any(|x| x.1 > 0))
        .map(|(_, p)| p)
        .sum();
    let count = (f(&v["p_damage"]) * TRIALS as f64).round() as u64;
    let (l, h) = dice_sim::wilson_interval(count, TRIALS, common::CHECK_CONFIDENCE);
    assert!(
        l <= p_damage && p_damage <= h,
        "{p_damage} outside [{l}, {h}]"
    );
}

#[test]
fn actions_the_rules_do_not_allow_are_refused() {
    let one = ["13".to_owned()];
    let two = ["13".to_owned(), "12".to_owned()];
    let four: Vec<String> = (10..14).map(|d| d.to_string()).collect();
    // L81, L83: the two attacks need a healthy attacker.
    let err = bad(&action_args("fighting", "2", &one, &["--injured"]));
    assert!(err.contains("healthy"), "{err}");
    let err = bad(&action_args("wrestling", "2", &one, &["--injured"]));
    assert!(err.contains("healthy"), "{err}");
    // L77: up to three separate targets, each once.
    let err = bad(&action_args("blasting", "2", &four, &[]));
    assert!(err.contains("1 to 3"), "{err}");
    let err = bad(&action_args("blasting", "2", &one, &["--targets", "0"]));
    assert!(err.contains("1 to 3"), "{err}");
    let err = bad(&action_args("blasting", "2", &two, &["--targets", "3"]));
    assert!(err.contains("--defense"), "{err}");
    let err = bad(&action_args("fighting", "2", &one, &["--targets", "2"]));
    assert!(err.contains("blasting"), "{err}");
    // L11: without the ability there is no such action.
    let err = bad(&action_args("fighting", "0", &one, &[]));
    assert!(err.contains("fighting"), "{err}");
    // An injured blaster may blast, and delays himself (L77).
    let text = ok(&action_args(
        "blasting",
        "1",
        &one,
        &["--injured", "--odds"],
    ));
    assert!(text.contains("delays himself"), "{text}");
}

#[test]
fn the_action_sweeps_compares_and_prints_in_every_format() {
    let defenses = ["11..13".to_owned()];
    let v = json(&action_args("fighting", "1..2", &defenses, &["--odds"]));
    let cells = v["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 2, "{v}");
    for (i, row) in cells.iter().enumerate() {
        for (j, d) in (11..=13).enumerate() {
            let want = enumerate(i as i64 + 1, &[(d, 1), (d, 1)]);
            let p: f64 = want
                .iter()
                .filter(|(j, _)| j.iter().any(|x| x.1 > 0))
                .map(|(_, p)| p)
                .sum();
            assert!(close(f(&row[j]), p), "{v}");
        }
    }
    let one = ["13".to_owned()];
    let v = json(&action_args(
        "fighting,blasting",
        "2",
        &one,
        &["--total", "--odds"],
    ));
    let compared = v["compared"].as_array().expect("the compared laws");
    for (item, (kind, attacks)) in compared.iter().zip([("fighting", 2), ("blasting", 3)]) {
        assert_eq!(item["odds"]["action"]["kind"], kind, "{v}");
        assert_eq!(item["odds"]["action"]["attacks"], attacks, "{v}");
        let want = enumerate(2, &vec![(13, 1); attacks]);
        let mean: f64 = want
            .iter()
            .map(|(j, p)| j.iter().map(|x| x.1).sum::<u64>() as f64 * p)
            .sum();
        assert!((f(&item["odds"]["mean"]) - mean).abs() < 1e-12, "{v}");
    }
    let with = |format: &'static str| {
        ok(&action_args(
            "wrestling",
            "2",
            &one,
            &["--odds", "--format", format],
        ))
    };
    let csv = with("csv");
    assert!(csv.contains("attack_hit_and_hold_miss,"), "{csv}");
    let md = with("markdown");
    assert!(
        md.contains("| attack hit, hold hit: 1 damage, target delayed |"),
        "{md}"
    );
    assert!(
        md.contains("P(the hold succeeds: the target is delayed)"),
        "{md}"
    );
    let text = with("text");
    assert!(text.contains("expected damage"), "{text}");
}
