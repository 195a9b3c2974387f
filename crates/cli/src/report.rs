//! What a command hands back to be printed: a roll or a table of odds, each with its text
//! form and its JSON form. Game modules build these; `render` prints them.

use dice_core::Dist;
use serde_json::{Map, Value, json};

use crate::seed::Seed;

/// What a command produced.
#[derive(Debug)]
pub enum Report {
    /// One roll, with every die.
    Roll(RollReport),
    /// A distribution, exact or simulated.
    Odds(OddsReport),
    /// Several distributions side by side (`dice odds 4d6kh3 3d6`, `--skill high,awesome`).
    Compare(CompareReport),
    /// One number over a grid of two options (`--rank 1..6 --difficulty 1..7`).
    Sweep(SweepReport),
}

/// One roll: the lines a person reads, and the fields of the JSON object.
///
/// The JSON object is `fields` plus `"command"`, `"seed"` and `"display"` (the lines
/// joined with newlines).
#[derive(Debug)]
pub struct RollReport {
    /// `roll`, `shapers-and-bots challenge`, …
    pub command: String,
    /// The seed the roll used.
    pub seed: Seed,
    /// The roll as text, one line each (the seed line is added when printing).
    pub lines: Vec<String>,
    /// Command-specific JSON fields.
    pub fields: Map<String, Value>,
}

impl RollReport {
    /// A roll report with no lines and no fields yet.
    pub fn new(command: impl Into<String>, seed: Seed) -> RollReport {
        RollReport {
            command: command.into(),
            seed,
            lines: Vec::new(),
            fields: Map::new(),
        }
    }

    /// Adds a text line.
    pub fn line(mut self, line: impl Into<String>) -> RollReport {
        self.lines.push(line.into());
        self
    }

    /// Adds a JSON field.
    pub fn field(mut self, key: &str, value: impl Into<Value>) -> RollReport {
        self.fields.insert(key.to_owned(), value.into());
        self
    }

    /// The JSON object.
    pub fn to_json(&self) -> Value {
        let mut o = self.fields.clone();
        o.insert("command".into(), json!(self.command));
        o.insert("seed".into(), json!(self.seed.value));
        o.insert("display".into(), json!(self.lines.join("\n")));
        Value::Object(o)
    }
}

/// An outcome as a row label: a number, or a named outcome with its JSON key (snake_case)
/// and the words a person reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Label {
    /// A numeric outcome.
    Number(i64),
    /// A named outcome.
    Name {
        /// The JSON name, in snake_case (`success_with_consequences`).
        key: String,
        /// The text (`success with consequences`, `hit, +2 damage`).
        text: String,
    },
}

impl Label {
    /// A named outcome whose text is its key with `_` read as spaces.
    pub fn key(key: &str) -> Label {
        Label::Name {
            key: key.to_owned(),
            text: key.replace('_', " "),
        }
    }

    /// A named outcome with its own text.
    pub fn named(key: &str, text: impl Into<String>) -> Label {
        Label::Name {
            key: key.to_owned(),
            text: text.into(),
        }
    }

    /// The JSON form: a number or the key.
    pub fn to_json(&self) -> Value {
        match self {
            Label::Number(n) => json!(n),
            Label::Name { key, .. } => json!(key),
        }
    }

    /// The text form.
    pub fn text(&self) -> String {
        match self {
            Label::Number(n) => n.to_string(),
            Label::Name { text, .. } => text.clone(),
        }
    }
}

/// A Monte Carlo estimate's count and confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// How often the outcome came up.
    pub count: u64,
    /// Lower end of the Wilson interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// One outcome of a distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The outcome.
    pub label: Label,
    /// Extra JSON fields of the outcome (`"bonus"`, `"damage"`).
    pub extra: Map<String, Value>,
    /// Its probability (exact, or the observed frequency).
    pub probability: f64,
    /// For a simulation: the count and interval.
    pub interval: Option<Interval>,
}

impl Row {
    /// An exact row.
    pub fn new(label: Label, probability: f64) -> Row {
        Row {
            label,
            extra: Map::new(),
            probability,
            interval: None,
        }
    }

    /// Adds an extra JSON field.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Row {
        self.extra.insert(key.to_owned(), value.into());
        self
    }

    /// The JSON object: `outcome`, `probability`, the extra fields, and for a simulation
    /// `count`, `low`, `high`.
    pub fn to_json(&self) -> Value {
        let mut o = self.extra.clone();
        o.insert("outcome".into(), self.label.to_json());
        o.insert("probability".into(), json!(self.probability));
        if let Some(i) = self.interval {
            o.insert("count".into(), json!(i.count));
            o.insert("low".into(), json!(i.low));
            o.insert("high".into(), json!(i.high));
        }
        Value::Object(o)
    }
}

/// How the odds were had.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Computed exactly.
    Exact,
    /// Simulated.
    MonteCarlo {
        /// The run's seed.
        seed: Seed,
        /// Trials run.
        trials: u64,
        /// Confidence level of the intervals.
        confidence: f64,
        /// Standard error of the mean, for numeric outcomes.
        standard_error: Option<f64>,
    },
}

/// A headline probability (`P(success)`), shown under the table and as a JSON field.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The JSON key (`p_success`).
    pub key: String,
    /// The text (`success (with or without consequences)`).
    pub text: String,
    /// The probability.
    pub value: f64,
}

/// The quantiles shown: 5%, 25%, 50%, 75%, 95%.
pub const QUANTILES: [f64; 5] = [0.05, 0.25, 0.5, 0.75, 0.95];

/// A distribution to print: its rows, and for numeric outcomes its mean and standard
/// deviation.
#[derive(Debug)]
pub struct OddsReport {
    /// `odds`, `shapers-and-bots challenge`, …
    pub command: String,
    /// What the odds are of, in a line (`4d6kh3`, `High vs Awesome: 2d6+2 vs 13`).
    pub title: String,
    /// Lines shown under the title.
    pub notes: Vec<String>,
    /// Lines shown at the end.
    pub footer: Vec<String>,
    /// Command-specific JSON fields (the expression, the game's inputs).
    pub fields: Map<String, Value>,
    /// The outcomes, in increasing order.
    pub rows: Vec<Row>,
    /// Whether outcomes are numbers (then the table has an "at least" column, and the
    /// report a mean and standard deviation).
    pub numeric: bool,
    /// Mean of a numeric outcome.
    pub mean: Option<f64>,
    /// Standard deviation of a numeric outcome.
    pub std_dev: Option<f64>,
    /// Probability mass not listed (exploding dice, streaks), beyond the last outcome.
    pub tail: f64,
    /// Headline probabilities.
    pub summary: Vec<Summary>,
    /// Exact or simulated.
    pub method: Method,
}

impl OddsReport {
    /// An exact report with no rows yet.
    pub fn new(command: impl Into<String>, title: impl Into<String>) -> OddsReport {
        OddsReport {
            command: command.into(),
            title: title.into(),
            notes: Vec::new(),
            footer: Vec::new(),
            fields: Map::new(),
            rows: Vec::new(),
            numeric: false,
            mean: None,
            std_dev: None,
            tail: 0.0,
            summary: Vec::new(),
            method: Method::Exact,
        }
    }

    /// The rows, tail, mean and standard deviation of a numeric law.
    pub fn numeric<T: dice_core::Numeric>(mut self, dist: &Dist<T>) -> OddsReport {
        self.rows = dist
            .iter()
            .map(|(o, p)| Row::new(Label::Number(o.to_i64()), p))
            .collect();
        self.numeric = true;
        self.mean = Some(dist.mean());
        self.std_dev = Some(dist.std_dev());
        self.tail = dist.tail();
        self
    }

    /// The rows and tail of a law over named outcomes; `row` makes each outcome's row.
    pub fn named<T: Ord + Clone>(mut self, dist: &Dist<T>, row: impl Fn(&T, f64) -> Row) -> Self {
        self.rows = dist.iter().map(|(o, p)| row(o, p)).collect();
        self.numeric = false;
        self.tail = dist.tail();
        self
    }

    /// Adds a note line.
    pub fn note(mut self, line: impl Into<String>) -> OddsReport {
        self.notes.push(line.into());
        self
    }

    /// Adds a line at the end.
    pub fn footnote(mut self, line: impl Into<String>) -> OddsReport {
        self.footer.push(line.into());
        self
    }

    /// Adds a JSON field.
    pub fn field(mut self, key: &str, value: impl Into<Value>) -> OddsReport {
        self.fields.insert(key.to_owned(), value.into());
        self
    }

    /// Adds a headline probability.
    pub fn summary(mut self, key: &str, text: impl Into<String>, value: f64) -> OddsReport {
        self.summary.push(Summary {
            key: key.to_owned(),
            text: text.into(),
            value,
        });
        self
    }

    /// Each row's P(outcome ≥ it) and P(outcome ≤ it), the tail counted above the last
    /// row (AnyDice's "at least" and "at most").
    ///
    /// ```text
    /// rows 1, 2, 3 at 0.2, 0.3, 0.5 → (1.0, 0.2), (0.8, 0.5), (0.5, 1.0)
    /// ```
    pub fn cumulative(&self) -> Vec<(f64, f64)> {
        let total: f64 = self.rows.iter().map(|r| r.probability).sum::<f64>() + self.tail;
        let mut out = Vec::with_capacity(self.rows.len());
        let mut above = total;
        let mut below = 0.0;
        for r in &self.rows {
            below += r.probability;
            out.push((above.clamp(0.0, 1.0), below.clamp(0.0, 1.0)));
            above -= r.probability;
        }
        out
    }

    /// The smallest numeric outcome whose P(≤) reaches `q`, or `None` for named outcomes
    /// or when `q` falls in the unlisted tail.
    pub fn quantile(&self, q: f64) -> Option<i64> {
        if !self.numeric {
            return None;
        }
        let mut acc = 0.0;
        for r in &self.rows {
            acc += r.probability;
            if acc >= q - 1e-12 {
                if let Label::Number(n) = r.label {
                    return Some(n);
                }
            }
        }
        None
    }

    /// The quantiles the text and JSON show: 5%, 25%, 50% (the median), 75%, 95%.
    pub fn quantiles(&self) -> Vec<(f64, i64)> {
        QUANTILES
            .iter()
            .filter_map(|&q| self.quantile(q).map(|x| (q, x)))
            .collect()
    }

    /// Whether the odds were simulated.
    pub fn simulated(&self) -> bool {
        matches!(self.method, Method::MonteCarlo { .. })
    }

    /// A Monte Carlo run's trials, for the intervals of its headline probabilities.
    pub fn trials(&self) -> Option<u64> {
        match self.method {
            Method::MonteCarlo { trials, .. } => Some(trials),
            Method::Exact => None,
        }
    }

    /// The JSON object: the fields, `command`, `title`, `method`, `distribution` (numeric
    /// rows with `at_least` and `at_most`), `tail`, `mean`, `std_dev`, `median` and
    /// `quantiles` (numeric only), the summaries, and for a simulation `seed`, `trials`,
    /// `confidence` and `standard_error`.
    pub fn to_json(&self) -> Value {
        let cumulative = self.cumulative();
        let distribution = Value::Array(
            self.rows
                .iter()
                .zip(&cumulative)
                .map(|(r, &(ge, le))| {
                    let mut v = r.to_json();
                    if self.numeric {
                        if let Value::Object(m) = &mut v {
                            m.insert("at_least".into(), json!(ge));
                            m.insert("at_most".into(), json!(le));
                        }
                    }
                    v
                })
                .collect(),
        );
        Value::Object(self.json_fields(distribution))
    }

    /// The JSON object's fields, with `distribution` given: the whole array for
    /// [`OddsReport::to_json`], a placeholder where the JSON writer streams the rows itself.
    pub(crate) fn json_fields(&self, distribution: Value) -> Map<String, Value> {
        let mut o = self.fields.clone();
        o.insert("command".into(), json!(self.command));
        o.insert("title".into(), json!(self.title));
        o.insert("distribution".into(), distribution);
        o.insert("tail".into(), json!(self.tail));
        if let Some(m) = self.mean {
            o.insert("mean".into(), json!(m));
        }
        if let Some(s) = self.std_dev {
            o.insert("std_dev".into(), json!(s));
        }
        let quantiles = self.quantiles();
        if !quantiles.is_empty() {
            if let Some(m) = self.quantile(0.5) {
                o.insert("median".into(), json!(m));
            }
            let q: Map<String, Value> = quantiles
                .iter()
                .map(|&(q, x)| (format!("p{:02.0}", q * 100.0), json!(x)))
                .collect();
            o.insert("quantiles".into(), Value::Object(q));
        }
        for s in &self.summary {
            o.insert(s.key.clone(), json!(s.value));
        }
        match self.method {
            Method::Exact => {
                o.insert("method".into(), json!("exact"));
            }
            Method::MonteCarlo {
                seed,
                trials,
                confidence,
                standard_error,
            } => {
                o.insert("method".into(), json!("monte_carlo"));
                o.insert("seed".into(), json!(seed.value));
                o.insert("trials".into(), json!(trials));
                o.insert("confidence".into(), json!(confidence));
                if let Some(se) = standard_error {
                    o.insert("standard_error".into(), json!(se));
                }
            }
        }
        o
    }
}

/// Several distributions side by side: `dice odds 4d6kh3 3d6`, or a game roll with one
/// option given a list (`--skill high,awesome`).
#[derive(Debug)]
pub struct CompareReport {
    /// `odds`, `shapers-and-bots challenge`, …
    pub command: String,
    /// What varies from one column group to the next (`expression`, `skill`).
    pub varies: String,
    /// Each column group's heading and its odds.
    pub items: Vec<(String, OddsReport)>,
}

impl CompareReport {
    /// Whether every compared law has numeric outcomes (then each group has the P(=),
    /// P(≥) and P(≤) columns, and the summary has means and quantiles).
    pub fn numeric(&self) -> bool {
        self.items.iter().all(|(_, o)| o.numeric)
    }

    /// The title line: the headings joined with ` | `.
    pub fn title(&self) -> String {
        let names: Vec<&str> = self.items.iter().map(|(h, _)| h.as_str()).collect();
        format!("{}: {}", self.command, names.join(" | "))
    }

    /// Every outcome of any compared law, in order: numbers sorted, names in the order
    /// they first appear.
    pub fn outcomes(&self) -> Vec<Label> {
        let mut out: Vec<Label> = Vec::new();
        for (_, o) in &self.items {
            for r in &o.rows {
                if !out.contains(&r.label) {
                    out.push(r.label.clone());
                }
            }
        }
        if self.numeric() {
            out.sort_by_key(|l| match l {
                Label::Number(n) => *n,
                Label::Name { .. } => i64::MAX,
            });
        }
        out
    }

    /// The JSON object: `command`, `title`, `varies`, and `compared`, one entry per column
    /// group: `label` and that law's odds object.
    pub fn to_json(&self) -> Value {
        let compared: Vec<Value> = self
            .items
            .iter()
            .map(|(h, o)| json!({ "label": h, "odds": o.to_json() }))
            .collect();
        json!({
            "command": self.command,
            "title": self.title(),
            "varies": self.varies,
            "compared": compared,
        })
    }
}

/// One cell of a sweep: a probability, with its interval when simulated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepCell {
    /// The value.
    pub value: f64,
    /// The Monte Carlo confidence interval.
    pub interval: Option<(f64, f64)>,
}

/// One number (P(success) by default) over a grid of one or two options given ranges.
#[derive(Debug)]
pub struct SweepReport {
    /// `swimclass task`, …
    pub command: String,
    /// What the cells are, as text (`P(success)`, `mean`).
    pub stat: String,
    /// The same as a JSON key (`p_success`, `mean`).
    pub stat_key: String,
    /// The option the rows vary (`rank`).
    pub row_label: String,
    /// The option the columns vary (`difficulty`), `None` for a sweep of one option.
    pub column_label: Option<String>,
    /// Row headings (the option's values).
    pub rows: Vec<String>,
    /// Column headings (one, the stat, for a sweep of one option).
    pub columns: Vec<String>,
    /// `cells[row][column]`; `None` where the roll is not allowed.
    pub cells: Vec<Vec<Option<SweepCell>>>,
    /// Lines under the table (why a cell is empty).
    pub notes: Vec<String>,
    /// Exact, or the Monte Carlo run of the first cell (all share the seed and trials).
    pub method: Method,
    /// The command line that made the sweep, as a shell would take it
    /// (`dice swimclass task --rank 1..6 --difficulty 1..7 --odds`).
    pub command_line: String,
}

impl SweepReport {
    /// The lines that make a sweep's CSV self-describing, each starting with `# ` and
    /// ending with a newline, to print before the header: the title and how the odds were
    /// had, what the cells are (the stat's key and text, the options of the rows and the
    /// columns), the command line (every other option as given; those not given take their
    /// defaults), and why a cell is empty. Readers skip them with their comment option
    /// (pandas `comment="#"`, R `comment.char = "#"`, gnuplot and NumPy by default).
    ///
    /// ```text
    /// # swimclass task: P(success) by rank and difficulty: exact odds
    /// # cells: p_success, P(success); rows: rank (the first column); columns: difficulty (the header)
    /// # command: dice swimclass task --rank 1..6 --difficulty 1..7 --odds --format csv
    /// ```
    pub fn csv_comments(&self) -> String {
        let method = match self.method {
            Method::Exact => "exact odds".to_owned(),
            Method::MonteCarlo {
                seed,
                trials,
                confidence,
                ..
            } => format!(
                "Monte Carlo estimate, {trials} trials per cell, seed {}, {:.0}% confidence intervals in --format json",
                seed.value,
                confidence * 100.0
            ),
        };
        let mut lines = vec![
            format!("{}: {method}", self.title()),
            match &self.column_label {
                Some(c) => format!(
                    "cells: {}, {}; rows: {} (the first column); columns: {c} (the header)",
                    self.stat_key, self.stat, self.row_label
                ),
                None => format!(
                    "cells: {}, {}; rows: {} (the first column)",
                    self.stat_key, self.stat, self.row_label
                ),
            },
            format!("command: {}", self.command_line),
        ];
        if !self.notes.is_empty() {
            lines.push("empty cells, and why:".to_owned());
            lines.extend(
                self.notes
                    .iter()
                    .filter(|n| n.starts_with("- "))
                    .map(|n| n.trim_start_matches("- ").to_owned()),
            );
        }
        lines
            .iter()
            .map(|l| format!("# {}\n", l.replace(['\n', '\r'], " ")))
            .collect()
    }

    /// The title line.
    pub fn title(&self) -> String {
        match &self.column_label {
            Some(c) => format!(
                "{}: {} by {} and {}",
                self.command, self.stat, self.row_label, c
            ),
            None => format!("{}: {} by {}", self.command, self.stat, self.row_label),
        }
    }

    /// The JSON object: `command`, `title`, `stat`, `row_label`, `column_label`, `rows`,
    /// `columns`, `cells` (`null` where the roll is not allowed), `method`, and for a
    /// simulation `intervals` (`[low, high]` per cell), `seed` and `trials`.
    pub fn to_json(&self) -> Value {
        let cells: Vec<Value> = self
            .cells
            .iter()
            .map(|r| json!(r.iter().map(|c| c.map(|c| c.value)).collect::<Vec<_>>()))
            .collect();
        let mut o = json!({
            "command": self.command,
            "title": self.title(),
            "stat": self.stat_key,
            "row_label": self.row_label,
            "column_label": self.column_label,
            "rows": self.rows,
            "columns": self.columns,
            "cells": cells,
            "notes": self.notes,
        });
        match self.method {
            Method::Exact => o["method"] = json!("exact"),
            Method::MonteCarlo { seed, trials, .. } => {
                o["method"] = json!("monte_carlo");
                o["seed"] = json!(seed.value);
                o["trials"] = json!(trials);
                o["intervals"] = json!(
                    self.cells
                        .iter()
                        .map(|r| r
                            .iter()
                            .map(|c| c.and_then(|c| c.interval).map(|(l, h)| vec![l, h]))
                            .collect::<Vec<_>>())
                        .collect::<Vec<_>>()
                );
            }
        }
        o
    }
}
