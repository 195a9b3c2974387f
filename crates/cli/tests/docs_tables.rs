//! The odds tables of the game pages in `docs/`, regenerated from the crates' exact laws.
//!
//! Every game page (`docs/<game>.md`) holds one or more tables between the markers
//! `<!-- odds:NAME -->` and `<!-- /odds:NAME -->`. The tests below rebuild each table from
//! the crate's `Exact` laws and fail when the committed page differs. To refresh the pages
//! after a change to a crate (or to fill a new page's empty marker blocks):
//!
//! ```text
//! DICEPOOL_BLESS=1 cargo test -p dice-cli --test suite docs_tables::
//! ```
//!
//! Adding a page for a new game: write one `fn <game>_<name>() -> String` per table (build
//! it with [`Grid`] and [`percent`]), put the empty markers in the page, and add one
//! `#[test]` that calls [`check_page`] with the file name and the `(NAME, function)` pairs.
//!
//! Probabilities are printed as percentages with two decimals, rounded through integers
//! (see [`percent`]), so the text is the same on every platform.

use std::fmt::Write as _;
use std::path::PathBuf;

use dice_core::{Dist, Exact};

// ---------------------------------------------------------------------------------------
// The machinery: markers, comparison, blessing.
// ---------------------------------------------------------------------------------------

/// A table generator: the Markdown of one marked block, without the markers.
type Table = fn() -> String;

/// The environment variable that makes the tests write the pages instead of checking them.
const BLESS: &str = "DICEPOOL_BLESS";

fn docs_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/"))
}

fn open_marker(name: &str) -> String {
    format!("<!-- odds:{name} -->")
}

fn close_marker(name: &str) -> String {
    format!("<!-- /odds:{name} -->")
}

/// The names of every `<!-- odds:NAME -->` block in `text`, in order.
fn marked_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("<!-- odds:") {
        rest = &rest[i + "<!-- odds:".len()..];
        if let Some(j) = rest.find(" -->") {
            names.push(rest[..j].to_string());
            rest = &rest[j..];
        }
    }
    names
}

/// Replaces the block between the markers of `name` with `table`; returns the new text and
/// the old block, or an error naming what is wrong with the markers.
fn replace_block(text: &str, name: &str, table: &str) -> Result<(String, String), String> {
    let (open, close) = (open_marker(name), close_marker(name));
    let start = text
        .find(&open)
        .ok_or_else(|| format!("the marker `{open}` is missing"))?
        + open.len();
    if text[start..].contains(&open) {
        return Err(format!("the marker `{open}` appears twice"));
    }
    let end = start
        + text[start..]
            .find(&close)
            .ok_or_else(|| format!("the closing marker `{close}` is missing after `{open}`"))?;
    let block = format!("\n{}\n", table.trim_end());
    let mut new = String::with_capacity(text.len() + block.len());
    new.push_str(&text[..start]);
    new.push_str(&block);
    new.push_str(&text[end..]);
    Ok((new, text[start..end].to_string()))
}

/// Regenerates every table of `docs/<file>`: with `DICEPOOL_BLESS=1` writes the page,
/// otherwise fails (naming the page, the tables and the command to refresh) if the committed
/// tables differ from the regenerated ones.
fn check_page(file: &str, tables: &[(&str, Table)]) {
    let path = docs_dir().join(file);
    let original = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read docs/{file} ({}): {e}", path.display()));
    let known: Vec<&str> = tables.iter().map(|(n, _)| *n).collect();
    let unknown: Vec<String> = marked_names(&original)
        .into_iter()
        .filter(|n| !known.contains(&n.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "docs/{file} has odds blocks no generator knows: {unknown:?}; \
         add them to its test in benches/tests/docs_tables.rs or remove them"
    );
    let mut text = original.clone();
    let mut stale = Vec::new();
    for (name, build) in tables {
        let table = build();
        let (new, old) = replace_block(&text, name, &table)
            .unwrap_or_else(|e| panic!("docs/{file}, table `{name}`: {e}"));
        if new != text {
            stale.push(*name);
            if std::env::var_os(BLESS).is_none() {
                let first = old
                    .trim()
                    .lines()
                    .zip(table.trim().lines())
                    .find(|(a, b)| a != b)
                    .map_or_else(
                        || "the number of lines differs".to_string(),
                        |(a, b)| {
                            format!("first difference:\n  committed:   {a}\n  regenerated: {b}")
                        },
                    );
                eprintln!("docs/{file}, table `{name}`: {first}");
                eprintln!(
                    "docs/{file}, table `{name}`:\n--- committed ---{old}--- regenerated ---\n{table}\n"
                );
            }
        }
        text = new;
    }
    if stale.is_empty() {
        return;
    }
    if std::env::var(BLESS).is_ok_and(|v| v == "1") {
        std::fs::write(&path, &text)
            .unwrap_or_else(|e| panic!("cannot write docs/{file} ({}): {e}", path.display()));
        eprintln!("blessed docs/{file}: {stale:?}");
        return;
    }
    panic!(
        "docs/{file}: the odds table(s) {stale:?} differ from what the code computes \
         (the regenerated tables are printed above). If the change is intended, refresh the \
         page with\n    DICEPOOL_BLESS=1 cargo test -p dice-cli --test suite docs_tables::\n\
         and review the diff."
    );
}

// ---------------------------------------------------------------------------------------
// Formatting helpers, shared by every page.
// ---------------------------------------------------------------------------------------

/// Rounds `x · 10^decimals` half away from zero, through an integer count of 1e-9 units
/// first, so that values a rounding error away from a tie (1/32 = 3.125 %) print the same
/// everywhere.
fn fixed(x: f64, decimals: u32) -> String {
    let nanos = (x * 1e9).round() as i128;
    let step = 10i128.pow(9 - decimals);
    let units = (nanos.abs() + step / 2) / step * nanos.signum();
    let scale = 10i128.pow(decimals);
    let sign = if units < 0 { "-" } else { "" };
    let (whole, frac) = (units.abs() / scale, units.abs() % scale);
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac:0width$}", width = decimals as usize)
    }
}

/// A probability as a percentage with two decimals: `0.41666… → "41.67%"`.
fn percent(p: f64) -> String {
    format!("{}%", fixed(p * 100.0, 2))
}

/// A plain number with `decimals` decimals (means, expected damage).
fn number(x: f64, decimals: u32) -> String {
    fixed(x, decimals)
}

/// A Markdown table built row by row.
struct Grid {
    out: String,
    columns: usize,
}

impl Grid {
    /// A table with these column headers; the first column is left-aligned, the others
    /// right-aligned (numbers).
    fn new<S: AsRef<str>>(headers: &[S]) -> Grid {
        let mut out = String::new();
        let cells: Vec<&str> = headers.iter().map(AsRef::as_ref).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
        let align: Vec<&str> = (0..cells.len())
            .map(|i| if i == 0 { ":---" } else { "---:" })
            .collect();
        let _ = writeln!(out, "|{}|", align.join("|"));
        Grid {
            out,
            columns: cells.len(),
        }
    }

    fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        assert_eq!(
            cells.len(),
            self.columns,
            "a row with the wrong number of cells"
        );
        let cells: Vec<&str> = cells.iter().map(AsRef::as_ref).collect();
        let _ = writeln!(self.out, "| {} |", cells.join(" | "));
    }

    fn finish(self) -> String {
        self.out
    }
}

/// Unwraps an exact law and checks that its unlisted tail (untruncated streaks) is negligible.
fn law<T: Ord + Clone>(d: Result<Dist<T>, impl std::fmt::Debug>) -> Dist<T> {
    let d = d.expect("an exact law of a documented mechanic");
    assert!(
        d.tail() < 1e-12,
        "a law with an unlisted tail of {}",
        d.tail()
    );
    d
}

// ---------------------------------------------------------------------------------------
// Shapers and Bots (docs/shapers-and-bots.md).
// ---------------------------------------------------------------------------------------

mod sb {
    use super::*;
    use dice_shapers_and_bots::{
        Attack, AttackOutcome, Challenge, ChallengeOutcome, Contestant, Damage, Fluke, Level,
        Rules, WeaponClass,
    };

    fn three_way(d: &Dist<ChallengeOutcome>) -> String {
        format!(
            "{} / {} / {}",
            percent(d.probability(&ChallengeOutcome::Success)),
            percent(d.probability(&ChallengeOutcome::SuccessWithConsequences)),
            percent(d.probability(&ChallengeOutcome::Failure)),
        )
    }

    /// Challenge (and fluke) outcomes: rating × task level.
    pub fn challenge() -> String {
        let rules = Rules::default();
        let mut headers = vec!["rating ↓ task →".to_string()];
        headers.extend(Level::ALL.iter().map(|t| format!("{t} ({})", t.target())));
        let mut g = Grid::new(&headers);
        for rating in Level::ALL {
            let mut row = vec![format!("{rating} ({:+})", rating.bonus())];
            for task in Level::ALL {
                let c = Challenge::new(rating, task).expect("a challenge");
                row.push(three_way(&law(c.distribution())));
            }
            g.row(&row);
        }
        let mut row = vec!["no rating (fluke)".to_string()];
        for task in Level::ALL {
            let f = Fluke::new(task, &rules).expect("a fluke");
            row.push(three_way(&law(f.distribution())));
        }
        g.row(&row);
        g.finish()
    }

    /// Defended attacks: attacker's level × defender's level, P(hit) (ties to the attacker).
    pub fn defended() -> String {
        let rules = Rules::default();
        let mut headers = vec!["attacker ↓ defender →".to_string()];
        headers.extend(Level::ALL.iter().map(|d| format!("{d} ({:+})", d.bonus())));
        let mut g = Grid::new(&headers);
        for a in Level::ALL {
            let mut row = vec![format!("{a} ({:+})", a.bonus())];
            for d in Level::ALL {
                let attack = Attack::defended(Contestant::rated(a), Contestant::rated(d), &rules)
                    .expect("a defended attack");
                let odds = law(attack.distribution());
                row.push(percent(
                    odds.probability_where(|o: &AttackOutcome| o.is_hit()),
                ));
            }
            g.row(&row);
        }
        g.finish()
    }

    /// Damage of one hit: the law of the points for every rulebook cell.
    pub fn damage() -> String {
        let rules = Rules::default();
        let mut g = Grid::new(&[
            "weapon", "target", "0", "1", "2", "3", "4", "5", "6+", "mean",
        ]);
        for class in WeaponClass::ALL {
            for armored in [false, true] {
                let Ok(damage) = Damage::new(class, armored, &rules) else {
                    // SB-A6: the armored really powerful weapon is the caller's to supply.
                    continue;
                };
                let d = law(damage.distribution());
                let mut row = vec![
                    class.to_string(),
                    if armored { "armored" } else { "unarmored" }.to_string(),
                ];
                for k in 0..=5u32 {
                    row.push(percent(d.probability(&k)));
                }
                row.push(percent(d.probability_where(|&k| k >= 6)));
                row.push(number(d.mean(), 3));
                g.row(&row);
            }
        }
        g.finish()
    }
}

#[test]
fn shapers_and_bots_page() {
    check_page(
        "shapers-and-bots.md",
        &[
            ("challenge", sb::challenge),
            ("defended", sb::defended),
            ("damage", sb::damage),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Shapers, percentile combat (docs/shapers-percentile.md).
// ---------------------------------------------------------------------------------------

mod pc {
    use super::*;
    use dice_shapers_percentile::{
        AVERAGE_TN, Attack, AttackKind, AttackOutcome, Defence, Rules, Test,
    };

    /// A test with this TN under the rulings (attribute = TN − 50).
    fn test_with_tn(tn: i32, rules: &Rules) -> Test {
        Test::new(tn - AVERAGE_TN, 0, 0, rules).expect("a d100 test")
    }

    fn bonus(o: &AttackOutcome) -> Option<u32> {
        match o {
            AttackOutcome::Hit { bonus } => Some(*bonus),
            _ => None,
        }
    }

    /// An unopposed attack: P(hit) and the damage bonus (+1 per 10 points of success) by TN.
    pub fn tn() -> String {
        let rules = Rules::default();
        let mut g = Grid::new(&[
            "TN",
            "hit",
            "+1 or more",
            "+2 or more",
            "+3 or more",
            "+5 or more",
            "mean bonus on a hit",
        ]);
        for tn in (10..=100).step_by(10) {
            let attack = Attack::new(
                test_with_tn(tn, &rules),
                Defence::Unopposed,
                AttackKind::Melee,
                &rules,
            )
            .expect("an attack");
            let d = law(attack.distribution());
            let hit = d.probability_where(AttackOutcome::is_hit);
            let at_least =
                |k: u32| percent(d.probability_where(|o| bonus(o).is_some_and(|b| b >= k)));
            let mean = d
                .iter()
                .filter_map(|(o, p)| bonus(o).map(|b| f64::from(b) * p))
                .sum::<f64>()
                / hit;
            g.row(&[
                tn.to_string(),
                percent(hit),
                at_least(1),
                at_least(2),
                at_least(3),
                at_least(5),
                number(mean, 2),
            ]);
        }
        g.finish()
    }

    /// An opposed melee attack: attacker's TN × defender's TN, P(hit) and P(counter-attack).
    pub fn opposed() -> String {
        let rules = Rules::default();
        let tns = [30, 40, 50, 60, 70, 80, 90];
        let mut headers = vec!["attacker TN ↓ defender TN →".to_string()];
        headers.extend(tns.iter().map(|t| t.to_string()));
        let mut g = Grid::new(&headers);
        for a in tns {
            let mut row = vec![a.to_string()];
            for d in tns {
                let attack = Attack::new(
                    test_with_tn(a, &rules),
                    Defence::Opposed(test_with_tn(d, &rules)),
                    AttackKind::Melee,
                    &rules,
                )
                .expect("an attack");
                let law = law(attack.distribution());
                let hit = law.probability_where(AttackOutcome::is_hit);
                let counter =
                    law.probability_where(|o| matches!(o, AttackOutcome::CounterAttack { .. }));
                row.push(format!("{} / {}", percent(hit), percent(counter)));
            }
            g.row(&row);
        }
        g.finish()
    }
}

#[test]
fn shapers_percentile_page() {
    check_page(
        "shapers-percentile.md",
        &[("tn", pc::tn), ("opposed", pc::opposed)],
    );
}

// ---------------------------------------------------------------------------------------
// Scratch RPS (docs/scratch-rps.md).
// ---------------------------------------------------------------------------------------

mod sc {
    use super::*;
    use dice_scratch_rps::{
        Ability, Attack, AttackKind, Attacks, D20Roll, Initiative, InitiativeContest, Outcome,
        Rules, Side,
    };

    /// P(success) of a d20 roll: ability level × difficulty (defense).
    pub fn hit() -> String {
        let difficulties = [10, 11, 12, 13, 14, 15, 16, 20, 25];
        let mut headers = vec!["level ↓ difficulty →".to_string()];
        headers.extend(difficulties.iter().map(|d| d.to_string()));
        let mut g = Grid::new(&headers);
        for level in 0..=8u32 {
            let mut row = vec![if level == 0 {
                "non-ability".to_string()
            } else {
                level.to_string()
            }];
            for difficulty in difficulties {
                let roll = if level == 0 {
                    D20Roll::non_ability(difficulty)
                } else {
                    D20Roll::ability(level, difficulty)
                }
                .expect("a d20 roll");
                let d = law(roll.distribution());
                row.push(percent(d.probability_where(|o: &Outcome| o.is_success())));
            }
            g.row(&row);
        }
        g.finish()
    }

    /// Expected damage of one regular action by a healthy attacker, by defense.
    pub fn damage() -> String {
        let rules = Rules::default();
        let defenses = [10i64, 11, 12, 13, 14, 15, 16];
        let mut headers = vec!["action (level 4 where an ability is used)".to_string()];
        headers.extend(defenses.iter().map(|d| format!("def {d}")));
        let mut g = Grid::new(&headers);
        type Build = fn(i64, &Rules) -> Vec<Attack>;
        let actions: [(&str, Build); 8] = [
            ("basic attack (non-ability)", |d, r| {
                vec![Attack::new(AttackKind::BasicAttack, None, d, r).expect("an attack")]
            }),
            ("throw object (non-ability)", |d, r| {
                vec![Attack::new(AttackKind::ThrowObject, None, d, r).expect("an attack")]
            }),
            ("fighting: two basic attacks", |d, r| {
                let a = Attack::new(AttackKind::BasicAttack, Some((Ability::Fighting, 4)), d, r)
                    .expect("an attack");
                vec![a.clone(), a]
            }),
            ("wrestling: basic attack + hold", |d, r| {
                vec![
                    Attack::new(AttackKind::BasicAttack, Some((Ability::Wrestling, 4)), d, r)
                        .expect("an attack"),
                    Attack::new(AttackKind::Hold, Some((Ability::Wrestling, 4)), d, r)
                        .expect("an attack"),
                ]
            }),
            ("shooting", |d, r| {
                vec![
                    Attack::new(AttackKind::Shooting, Some((Ability::Shooting, 4)), d, r)
                        .expect("an attack"),
                ]
            }),
            ("blasting (one target)", |d, r| {
                vec![
                    Attack::new(AttackKind::Blasting, Some((Ability::Blasting, 4)), d, r)
                        .expect("an attack"),
                ]
            }),
            ("blasting (three targets, total)", |d, r| {
                let a = Attack::new(AttackKind::Blasting, Some((Ability::Blasting, 4)), d, r)
                    .expect("an attack");
                vec![a.clone(), a.clone(), a]
            }),
            ("knockout", |d, r| {
                vec![
                    Attack::new(AttackKind::Knockout, Some((Ability::Knockout, 4)), d, r)
                        .expect("an attack"),
                ]
            }),
        ];
        for (label, build) in actions {
            let mut row = vec![label.to_string()];
            for def in defenses {
                let attacks = Attacks::new(build(def, &rules)).expect("one action's attacks");
                row.push(number(law(attacks.distribution()).mean(), 3));
            }
            g.row(&row);
        }
        g.finish()
    }

    /// Who acts first: P(A before B) by stalking levels (initiative d20 + 10 × stalking).
    pub fn initiative() -> String {
        let levels = 0..=3u32;
        let mut headers = vec!["A's stalking ↓ B's →".to_string()];
        headers.extend(levels.clone().map(|b| b.to_string()));
        let mut g = Grid::new(&headers);
        for a in levels.clone() {
            let mut row = vec![a.to_string()];
            for b in levels.clone() {
                let contest = InitiativeContest::new(
                    Initiative::new(a).expect("an initiative"),
                    Initiative::new(b).expect("an initiative"),
                );
                let d = law(contest.distribution());
                row.push(percent(d.probability(&Side::A)));
            }
            g.row(&row);
        }
        g.finish()
    }
}

#[test]
fn scratch_rps_page() {
    check_page(
        "scratch-rps.md",
        &[
            ("hit", sc::hit),
            ("damage", sc::damage),
            ("initiative", sc::initiative),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Project Swimclass (docs/swimclass.md).
// ---------------------------------------------------------------------------------------

mod sw {
    use super::*;
    use dice_swimclass::{HitTable, Rules, SkillDice, Task, TaskRoll, ranged_difficulty};

    /// Ranks down the side and difficulties 1–6 across.
    const RANKS: std::ops::RangeInclusive<u32> = 1..=8;
    const DIFFICULTIES: std::ops::RangeInclusive<i32> = 1..=6;

    /// A rank × difficulty table of one chance of a single-success task roll.
    fn task_grid(chance: fn(&TaskRoll) -> f64) -> String {
        let mut headers = vec!["rank ↓ difficulty →".to_string()];
        headers.extend(DIFFICULTIES.map(|d| d.to_string()));
        let mut g = Grid::new(&headers);
        for rank in RANKS {
            let mut row = vec![rank.to_string()];
            for difficulty in DIFFICULTIES {
                let roll = TaskRoll::new(
                    SkillDice::new(rank),
                    Task::single(difficulty).expect("a task"),
                    Rules::default(),
                )
                .expect("a task roll");
                row.push(percent(chance(&roll)));
            }
            g.row(&row);
        }
        g.finish()
    }

    /// P(a task needing one success succeeds): rank × difficulty.
    pub fn task() -> String {
        task_grid(|r| r.success_chance().expect("the exact success chance"))
    }

    /// P(the roll advances the skill): rank × difficulty.
    pub fn advance() -> String {
        task_grid(|r| r.advance_chance().expect("the exact advancement chance"))
    }

    /// Expected hits through: attack rank × defense rank at difficulty 2 (Basic Ranged at
    /// one square), plain dice on both sides (the crate's `HitTable`).
    pub fn hits() -> String {
        let table = HitTable::new(8, 8, ranged_difficulty(1), &[], &[], &Rules::default())
            .expect("the designer's hit table");
        let mut headers = vec!["attack ↓ defense →".to_string()];
        headers.extend((1..=table.defense_max).map(|d| d.to_string()));
        let mut g = Grid::new(&headers);
        for a in 1..=table.attack_max {
            let mut row = vec![a.to_string()];
            for d in 1..=table.defense_max {
                let law = table.distribution(a, d).expect("a cell of the table");
                assert!(law.tail() < 1e-12, "a hit law with an unlisted tail");
                row.push(number(law.mean(), 2));
            }
            g.row(&row);
        }
        g.finish()
    }
}

#[test]
fn swimclass_page() {
    check_page(
        "swimclass.md",
        &[
            ("task", sw::task),
            ("hits", sw::hits),
            ("advance", sw::advance),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// Robots & Rapiers (docs/robots-and-rapiers.md).
// ---------------------------------------------------------------------------------------

mod rr {
    use super::*;
    use dice_robots_and_rapiers::creation::DesignPointsRoll;
    use dice_robots_and_rapiers::{BaseActionPoints, Rules, SaveOutcome, SavingThrow, Test};

    /// P(at least one success) of an unopposed Test: dice × TN.
    pub fn test() -> String {
        let tns = 1..=9;
        let mut headers = vec!["dice ↓ TN →".to_string()];
        headers.extend(tns.clone().map(|t| t.to_string()));
        let mut g = Grid::new(&headers);
        for dice in 1..=12u32 {
            let mut row = vec![dice.to_string()];
            for tn in tns.clone() {
                let d = law(Test::new(dice, tn).expect("a Test").distribution());
                row.push(percent(d.probability_where(|&n| n >= 1)));
            }
            g.row(&row);
        }
        g.finish()
    }

    /// Saving Throw outcomes and the expected temporary attribute loss by TN.
    pub fn save() -> String {
        let rules = Rules::default();
        let mut g = Grid::new(&[
            "TN",
            "Total Success",
            "Partial (1 failed die)",
            "Partial (2 failed dice)",
            "Total Failure",
            "expected loss",
        ]);
        for tn in 1..=10 {
            let save = SavingThrow::new(tn).expect("a Saving Throw");
            let d = law(save.distribution());
            g.row(&[
                tn.to_string(),
                percent(d.probability(&SaveOutcome::TotalSuccess)),
                percent(d.probability(&SaveOutcome::PartialFailure { successes: 2 })),
                percent(d.probability(&SaveOutcome::PartialFailure { successes: 1 })),
                percent(d.probability(&SaveOutcome::TotalFailure)),
                number(save.expected_loss(&rules).expect("the expected loss"), 2),
            ]);
        }
        g.finish()
    }

    /// The combat Base Action Point TNs with the situation each stands for.
    const AP_TNS: [(i32, &str); 5] = [
        (3, "TN 3 (2× or more)"),
        (4, "TN 4 (larger)"),
        (5, "TN 5 (equal)"),
        (6, "TN 6 (smaller)"),
        (7, "TN 7 (½ or fewer)"),
    ];

    /// Mean Base Action Points: dice (Processor + Self Awareness) × TN.
    pub fn action_points() -> String {
        let rules = Rules::default();
        let mut headers = vec!["dice ↓ side sizes →".to_string()];
        headers.extend(AP_TNS.iter().map(|(_, label)| label.to_string()));
        let mut g = Grid::new(&headers);
        for dice in [1u32, 2, 3, 4, 5, 6, 7, 8, 10, 12] {
            let mut row = vec![dice.to_string()];
            for (tn, _) in AP_TNS {
                let ap = BaseActionPoints::new(dice, tn, &rules).expect("a Base AP roll");
                row.push(number(law(ap.distribution()).mean(), 2));
            }
            g.row(&row);
        }
        g.finish()
    }

    /// The law of Base Action Points for 6 dice, by TN.
    pub fn action_points_6() -> String {
        let rules = Rules::default();
        let mut g = Grid::new(&["TN", "1", "2", "3", "4", "5", "6", "7"]);
        for (tn, label) in AP_TNS {
            let ap = BaseActionPoints::new(6, tn, &rules).expect("a Base AP roll");
            let d = law(ap.distribution());
            let mut row = vec![label.to_string()];
            row.extend((1..=7u32).map(|k| percent(d.probability(&k))));
            g.row(&row);
        }
        g.finish()
    }

    /// Mean Design Points: X (from Size) × starting Anthropoid Class.
    pub fn design_points() -> String {
        let classes = [0u32, 2, 4, 5, 6, 8, 10];
        let mut headers = vec!["X ↓ Anthropoid Class →".to_string()];
        headers.extend(classes.iter().map(|c| c.to_string()));
        let mut g = Grid::new(&headers);
        for x in 2..=8u32 {
            let mut row = vec![x.to_string()];
            for ac in classes {
                let roll = DesignPointsRoll::new(x, ac).expect("a Design Points roll");
                row.push(number(law(roll.distribution()).mean(), 2));
            }
            g.row(&row);
        }
        g.finish()
    }
}

#[test]
fn robots_and_rapiers_page() {
    check_page(
        "robots-and-rapiers.md",
        &[
            ("test", rr::test),
            ("save", rr::save),
            ("action_points", rr::action_points),
            ("action_points_6", rr::action_points_6),
            ("design_points", rr::design_points),
        ],
    );
}

// ---------------------------------------------------------------------------------------
// The machinery's own checks.
// ---------------------------------------------------------------------------------------

#[test]
fn fixed_rounds_the_same_everywhere() {
    assert_eq!(percent(1.0 / 32.0), "3.13%");
    assert_eq!(percent(5.0 / 12.0), "41.67%");
    assert_eq!(percent(0.0), "0.00%");
    assert_eq!(percent(1.0), "100.00%");
    assert_eq!(number(0.2, 3), "0.200");
    assert_eq!(number(-1.5, 0), "-2");
}

#[test]
fn markers_are_replaced_in_place() {
    let text = "a\n<!-- odds:x -->\nold\n<!-- /odds:x -->\nb\n";
    let (new, old) = replace_block(text, "x", "| t |\n").expect("markers");
    assert_eq!(new, "a\n<!-- odds:x -->\n| t |\n<!-- /odds:x -->\nb\n");
    assert_eq!(old, "\nold\n");
    assert_eq!(marked_names(text), ["x"]);
    assert!(replace_block(text, "y", "").is_err());
    assert!(replace_block("<!-- odds:x -->", "x", "").is_err());
}
