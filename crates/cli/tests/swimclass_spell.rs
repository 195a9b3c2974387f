//! `dice swimclass spell`: a spell cast as the roll it is (the rulebook's Magic section,
//! `seeds/swimclass.txt` L183–L235). Every expected chance is derived here, by enumerating
//! every roll of the dice or by a formula written out, never copied from the command.

use crate::common;
use common::{bad, close, json, ok};

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

/// The hits through of plain dice: the attack dice at or above `difficulty`, each defense
/// die blocking one of them of lesser or equal value, as many as the defense can (each
/// success, from the lowest, taken by the lowest defense die that can block it).
fn through(attack: &[u32], defense: &[u32], difficulty: u32) -> u32 {
    let mut hits: Vec<u32> = attack
        .iter()
        .copied()
        .filter(|&x| x >= difficulty)
        .collect();
    hits.sort_unstable();
    let mut def = defense.to_vec();
    def.sort_unstable();
    let (mut j, mut blocked) = (0, 0);
    for &h in &hits {
        while j < def.len() && def[j] < h {
            j += 1;
        }
        if j < def.len() {
            blocked += 1;
            j += 1;
        }
    }
    (hits.len() - blocked) as u32
}

/// The law of the hits through of `a` attack d6 against `d` defense d6 at `difficulty`.
fn hits_law(a: u32, d: u32, difficulty: u32) -> Vec<f64> {
    let mut law = vec![0.0; a as usize + 1];
    for (faces, p) in all_rolls(a + d) {
        let (att, def) = faces.split_at(a as usize);
        law[through(att, def, difficulty) as usize] += p;
    }
    law
}

/// The JSON `distribution` as (outcome, probability).
fn table(v: &Value) -> Vec<(i64, f64)> {
    v["distribution"]
        .as_array()
        .expect("a distribution")
        .iter()
        .map(|r| {
            (
                r["outcome"].as_i64().expect("a number"),
                f(&r["probability"]),
            )
        })
        .collect()
}

/// P(at least one of `rank` d6 shows `difficulty` or more).
fn any_at_least(rank: i32, difficulty: i32) -> f64 {
    let miss = f64::from((difficulty - 1).clamp(0, 6)) / 6.0;
    1.0 - miss.powi(rank)
}

#[test]
fn blaze_does_one_hit_when_any_die_gets_through() {
    // L193: "Blaze As an attack Mid range (3 square) (≥ range+1) does 1 hit unless
    // opposed": at range 2 each die needs 3; one hit however many dice succeed.
    let v = json(&[
        "swimclass",
        "spell",
        "--spell",
        "blaze",
        "--rank",
        "3",
        "--range",
        "2",
        "--odds",
    ]);
    assert_eq!(v["difficulty"], 3);
    assert_eq!(v["school"], "fire");
    let any = any_at_least(3, 3);
    assert_eq!(table(&v).len(), 2, "{v}");
    assert!(close(table(&v)[1].1, any), "{v}");
    assert!(close(f(&v["p_success"]), any));
    // L27: the skill advances when every die succeeds showing 4 or more.
    let advance: f64 = all_rolls(3)
        .filter(|(x, _)| x.iter().all(|&d| d >= 4))
        .map(|(_, p)| p)
        .sum();
    assert!(close(f(&v["p_advance"]), advance));
    // Read as an ordinary attack, a hit per die through: the mean is the successes'.
    let per_die = json(&[
        "swimclass",
        "spell",
        "--spell",
        "blaze",
        "--rank",
        "3",
        "--range",
        "2",
        "--odds",
        "--rule",
        "blaze=per_die",
    ]);
    assert!(close(f(&per_die["mean"]), 3.0 * 4.0 / 6.0), "{per_die}");
}

#[test]
fn blaze_against_an_opposing_caster_is_blocked_die_against_die() {
    // L187: "Any attack by magic may be opposed by magic of the same or opposing type."
    let args = [
        "swimclass",
        "spell",
        "--spell",
        "blaze",
        "--rank",
        "2",
        "--range",
        "1",
        "--defense",
        "2",
        "--defense-school",
        "fire",
        "--odds",
    ];
    let v = json(&args);
    let law = hits_law(2, 2, 2);
    let p_hit: f64 = law[1..].iter().sum();
    assert!(close(f(&v["p_success"]), p_hit), "{v}");
    assert!(close(table(&v)[0].1, law[0]));
    assert_eq!(v["defense_school"], "fire");
    // Without the wheel (not in the text) Water does not oppose Fire; a wheel that puts
    // them opposite each other lets it, with the same dice.
    let mut water = args.to_vec();
    water[11] = "water";
    let err = bad(&water);
    assert!(err.contains("may not oppose"), "{err}");
    water.extend([
        "--rule",
        r#"wheel={"order":["fire","wind","life","water","earth","death"]}"#,
    ]);
    assert!(close(f(&json(&water)["p_success"]), p_hit));
}

#[test]
fn stun_is_opposed_by_defense_or_life() {
    // L231: "Stun (≥ range) opposed by Defense or Life. Success stuns target until
    // attacker's next turn."
    let mut args = vec![
        "swimclass",
        "spell",
        "--spell",
        "stun",
        "--rank",
        "2",
        "--range",
        "3",
        "--defense",
        "2",
        "--odds",
    ];
    let v = json(&args);
    assert_eq!(v["difficulty"], 3);
    let law = hits_law(2, 2, 3);
    for (outcome, p) in table(&v) {
        assert!(close(p, law[outcome as usize]), "{outcome}: {v}");
    }
    assert!(close(f(&v["p_success"]), 1.0 - law[0]));
    args.extend(["--defense-school", "life"]);
    assert!(close(f(&json(&args)["p_success"]), 1.0 - law[0]));
    let n = args.len();
    args[n - 1] = "fire";
    bad(&args);
}

#[test]
fn death_damage_is_melee_or_ranged() {
    // L229: "Damage As basic melee or ranged": no threshold in melee, Range + 1 at range.
    for (range, threshold) in [(None, 1), (Some("2"), 3)] {
        let mut args = vec![
            "swimclass",
            "spell",
            "--spell",
            "damage",
            "--rank",
            "2",
            "--defense",
            "1",
            "--odds",
        ];
        if let Some(r) = range {
            args.extend(["--range", r]);
        }
        let v = json(&args);
        let law = hits_law(2, 1, threshold);
        let mean: f64 = law.iter().enumerate().map(|(h, p)| h as f64 * p).sum();
        assert!(close(f(&v["mean"]), mean), "{args:?}: {v}");
    }
}

#[test]
fn every_unopposed_spell_rolls_at_its_difficulty() {
    // L195 Light ≥ 1, L207 shift 2 or 6, L211 Spray ≥ 4, L213 breathing 3, L217 Heal
    // ≥ Range + 3, L225 stabilize against the damage beyond 0 HP, L235 Raise Undead 4,
    // L201 Flight 3 + size; one success of one roll does it.
    let cases: [(&[&str], i32); 9] = [
        (&["--spell", "light"], 1),
        (&["--spell", "shift"], 2),
        (&["--spell", "shift", "--hard-rock"], 6),
        (&["--spell", "spray", "--range", "3"], 4),
        (&["--spell", "breathing"], 3),
        (&["--spell", "heal", "--range", "1"], 4),
        (&["--spell", "stabilize", "--beyond-zero", "5"], 5),
        (&["--spell", "raise-undead"], 4),
        (&["--spell", "flight", "--size", "2"], 5),
    ];
    for (spell, difficulty) in cases {
        let mut args = vec!["swimclass", "spell", "--rank", "2", "--odds"];
        args.extend_from_slice(spell);
        let v = json(&args);
        assert_eq!(v["difficulty"], difficulty, "{args:?}");
        assert!(
            close(f(&v["p_success"]), any_at_least(2, difficulty)),
            "{args:?}: {v}"
        );
    }
}

#[test]
fn heal_sweeps_over_the_range() {
    let v = json(&[
        "swimclass",
        "spell",
        "--spell",
        "heal",
        "--rank",
        "2",
        "--range",
        "0..3",
        "--odds",
    ]);
    assert_eq!(v["stat"], "p_success");
    let cells = v["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 4);
    for (range, row) in cells.iter().enumerate() {
        assert!(close(f(&row[0]), any_at_least(2, range as i32 + 3)), "{v}");
    }
}

#[test]
fn a_raised_undead_has_the_casters_death_magic_less_one() {
    // L235: "with rank 1 of Basic Skills (including basic defense), and your rank – 1 of
    // Death magic"; HP = Defense rank + 1 (L41).
    let v = json(&[
        "swimclass",
        "spell",
        "--spell",
        "raise-undead",
        "--rank",
        "3",
        "--seed",
        "1",
    ]);
    assert_eq!(v["undead"]["death_magic"], 2);
    assert_eq!(v["undead"]["basic_skills"], 1);
    assert_eq!(v["undead"]["hp"], 2);
    let text = ok(&[
        "swimclass",
        "spell",
        "--spell",
        "raise-undead",
        "--rank",
        "3",
        "--odds",
    ]);
    assert!(text.contains("Death magic 2"), "{text}");
}

#[test]
fn a_cast_replays_from_its_seed_and_shows_every_die() {
    let args = [
        "swimclass",
        "spell",
        "--spell",
        "quake",
        "--rank",
        "4",
        "--difficulty",
        "3",
        "--defense",
        "2",
        "--seed",
        "5",
    ];
    let text = ok(&args);
    assert_eq!(text, ok(&args));
    assert!(
        text.starts_with("Earth quake (Earth magic): 4d6 at 3 vs 2d6"),
        "{text}"
    );
    let v = json(&args);
    let dice = v["attack_dice"].as_array().expect("attack dice");
    assert_eq!(dice.len(), 4);
    assert_eq!(v["defense_dice"].as_array().expect("defense dice").len(), 2);
    let hits = v["hits"].as_u64().expect("hits");
    assert_eq!(v["outcome"], if hits > 0 { "success" } else { "failure" });
}

#[test]
fn a_spell_refuses_what_it_does_not_take_and_asks_for_what_it_needs() {
    let spell = |rest: &[&str]| {
        let mut a = vec!["swimclass", "spell", "--rank", "2"];
        a.extend_from_slice(rest);
        bad(&a)
    };
    assert!(spell(&["--spell", "blaze"]).contains("--range"));
    assert!(spell(&["--spell", "wind-push"]).contains("--difficulty"));
    assert!(spell(&["--spell", "quake", "--defense", "1"]).contains("--difficulty"));
    assert!(spell(&["--spell", "flight"]).contains("--size"));
    assert!(spell(&["--spell", "stabilize"]).contains("--beyond-zero"));
    assert!(spell(&["--spell", "light", "--range", "2"]).contains("--range"));
    assert!(
        spell(&["--spell", "heal", "--range", "1", "--difficulty", "3"]).contains("--difficulty")
    );
    assert!(spell(&["--spell", "light", "--defense", "2"]).contains("--defense"));
    // Mid range is 3 squares (L193); breathing is by touch (L213).
    assert!(spell(&["--spell", "blaze", "--range", "4"]).contains("3 squares"));
    assert!(spell(&["--spell", "breathing", "--range", "1"]).contains("touch"));
}

#[test]
fn the_estimate_agrees_with_the_exact_odds() {
    const TRIALS: u64 = 20_000;
    let base = [
        "swimclass",
        "spell",
        "--spell",
        "stun",
        "--rank",
        "3",
        "--range",
        "2",
        "--defense",
        "2",
    ];
    let mut exact_args = base.to_vec();
    exact_args.push("--odds");
    let exact = json(&exact_args);
    let trials = TRIALS.to_string();
    let mut mc_args = base.to_vec();
    mc_args.extend(["--monte-carlo", "--trials", &trials, "--seed", "11"]);
    let mc = json(&mc_args);
    assert_eq!(mc["method"], "monte_carlo");
    let check = |what: &str, estimate: f64, p: f64| {
        let count = (estimate * TRIALS as f64).round() as u64;
        let (l, h) = dice_sim::wilson_interval(count, TRIALS, common::CHECK_CONFIDENCE);
        assert!(l <= p && p <= h, "{what}: exact {p}, estimate {estimate}");
    };
    check("p_success", f(&mc["p_success"]), f(&exact["p_success"]));
    check("p_advance", f(&mc["p_advance"]), f(&exact["p_advance"]));
    for (outcome, p) in table(&exact) {
        let q = table(&mc)
            .iter()
            .find(|r| r.0 == outcome)
            .map_or(0.0, |r| r.1);
        check(&format!("{outcome} hits"), q, p);
    }
}

#[test]
fn every_format_prints_a_spells_odds() {
    let base = [
        "swimclass",
        "spell",
        "--spell",
        "breathing",
        "--rank",
        "2",
        "--odds",
        "--format",
    ];
    let with = |format: &'static str| {
        let mut a = base.to_vec();
        a.push(format);
        ok(&a)
    };
    // Two dice at 3: no success with both below 3.
    let none = 4.0 / 36.0;
    let csv = with("csv");
    assert!(csv.starts_with("outcome,probability"), "{csv}");
    let zero: f64 = csv
        .lines()
        .find_map(|l| l.strip_prefix("0,"))
        .and_then(|l| l.split(',').next())
        .and_then(|x| x.parse().ok())
        .expect("a row for 0 successes");
    assert!(close(zero, none), "{csv}");
    let md = with("markdown");
    assert!(md.contains("| outcome |"), "{md}");
    assert!(md.contains("P(the spell takes effect)"), "{md}");
    assert!(md.contains("one target breathes water"), "{md}");
    let text = with("text");
    assert!(text.contains("Water breathing (Water magic)"), "{text}");
}

#[test]
fn the_help_speaks_in_the_games_terms() {
    let help = ok(&["swimclass", "spell", "--help"]);
    for name in ["blaze", "raise-undead", "--defense-school", "--beyond-zero"] {
        assert!(help.contains(name), "{name}: {help}");
    }
    // No rulebook line numbers or ruling ids.
    let cites_a_line = help
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.len() > 1 && w.starts_with('L') && w[1..].chars().all(|c| c.is_ascii_digit()));
    assert!(!cites_a_line, "{help}");
    assert!(!help.contains("SW-"), "{help}");
}
