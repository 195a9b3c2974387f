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

    /// The JSON object: the fields, `command`, `title`, `method`, `distribution`, `tail`,
    /// `mean` and `std_dev` (numeric only), the summaries, and for a simulation `seed`,
    /// `trials`, `confidence` and `standard_error`.
    pub fn to_json(&self) -> Value {
        let mut o = self.fields.clone();
        o.insert("command".into(), json!(self.command));
        o.insert("title".into(), json!(self.title));
        o.insert(
            "distribution".into(),
            Value::Array(self.rows.iter().map(Row::to_json).collect()),
        );
        o.insert("tail".into(), json!(self.tail));
        if let Some(m) = self.mean {
            o.insert("mean".into(), json!(m));
        }
        if let Some(s) = self.std_dev {
            o.insert("std_dev".into(), json!(s));
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
        Value::Object(o)
    }
}
