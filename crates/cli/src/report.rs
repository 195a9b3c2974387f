//! What a command hands back to be printed: a roll or a table of odds, each with its text
//! form and its JSON form. Game modules build these; `render` prints them.

use std::borrow::Cow;

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

/// The rows of an odds report, in increasing order of outcome.
///
/// A law with numeric outcomes and no per-row extras (every exact numeric law, whatever
/// its size) is kept as two arrays, its outcomes and their probabilities: 16 bytes a row,
/// the size of the `Dist<i64>` it came from. Every other table (named outcomes, Monte Carlo
/// intervals, extra JSON fields) is a list of [`Row`]s. Either way the rows are read one
/// at a time ([`Rows::iter`]), a numeric row made on the spot, so a report of millions of
/// outcomes is printed without ever holding a `Row` per outcome.
///
/// ```text
/// Rows::numbers([(2, 0.25), (3, 0.75)]).iter() → Row 2 at 0.25, Row 3 at 0.75
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rows(Repr);

/// How [`Rows`] are held.
#[derive(Clone, Debug, PartialEq)]
enum Repr {
    /// Any rows.
    Listed(Vec<Row>),
    /// Plain numeric rows: `outcomes[i]` at `probs[i]`, the two of the same length.
    Numbers { outcomes: Vec<i64>, probs: Vec<f64> },
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Listed(Vec::new())
    }
}

impl Rows {
    /// Plain numeric rows (no extra fields, no interval) from `(outcome, probability)`
    /// pairs in increasing order of outcome, kept as two arrays.
    ///
    /// ```text
    /// Rows::numbers([(1, 0.5), (2, 0.5)]).len() == 2
    /// ```
    pub fn numbers(pairs: impl IntoIterator<Item = (i64, f64)>) -> Rows {
        let pairs = pairs.into_iter();
        let (least, _) = pairs.size_hint();
        let mut outcomes = Vec::with_capacity(least);
        let mut probs = Vec::with_capacity(least);
        for (o, p) in pairs {
            outcomes.push(o);
            probs.push(p);
        }
        outcomes.shrink_to_fit();
        probs.shrink_to_fit();
        Rows(Repr::Numbers { outcomes, probs })
    }

    /// How many rows.
    ///
    /// ```text
    /// Rows::default().len() == 0
    /// ```
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Listed(rows) => rows.len(),
            Repr::Numbers { probs, .. } => probs.len(),
        }
    }

    /// Whether there is no row.
    ///
    /// ```text
    /// Rows::default().is_empty()
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th row, or `None` past the end (a numeric row is made on the spot).
    ///
    /// ```text
    /// Rows::numbers([(4, 1.0)]).get(0).map(|r| r.probability) == Some(1.0)
    /// ```
    pub fn get(&self, i: usize) -> Option<Cow<'_, Row>> {
        match &self.0 {
            Repr::Listed(rows) => rows.get(i).map(Cow::Borrowed),
            Repr::Numbers { outcomes, probs } => {
                Some(Cow::Owned(number_row(*outcomes.get(i)?, *probs.get(i)?)))
            }
        }
    }

    /// The `i`-th row's probability, or `None` past the end.
    ///
    /// ```text
    /// Rows::numbers([(4, 1.0)]).probability(0) == Some(1.0)
    /// ```
    pub fn probability(&self, i: usize) -> Option<f64> {
        match &self.0 {
            Repr::Listed(rows) => rows.get(i).map(|r| r.probability),
            Repr::Numbers { probs, .. } => probs.get(i).copied(),
        }
    }

    /// The rows' probabilities in order, without making the rows.
    ///
    /// ```text
    /// Rows::numbers([(1, 0.25), (2, 0.75)]).probabilities().sum::<f64>() == 1.0
    /// ```
    pub fn probabilities(&self) -> Probabilities<'_> {
        Probabilities(match &self.0 {
            Repr::Listed(rows) => Either::Listed(rows.iter()),
            Repr::Numbers { probs, .. } => Either::Numbers(probs.iter()),
        })
    }

    /// The rows in order, each borrowed or (numeric) made on the spot.
    ///
    /// ```text
    /// for r in report.rows.iter() { println!("{} {}", r.label.text(), r.probability) }
    /// ```
    pub fn iter(&self) -> Iter<'_> {
        Iter(match &self.0 {
            Repr::Listed(rows) => Either::Listed(rows.iter()),
            Repr::Numbers { outcomes, probs } => Either::Numbers(outcomes.iter().zip(probs.iter())),
        })
    }

    /// The rows, to change in place: numeric rows held as arrays are listed first (one
    /// [`Row`] each), so this is for small tables (a Monte Carlo run's intervals added).
    ///
    /// ```text
    /// for r in report.rows.iter_mut() { r.interval = Some(iv) }
    /// ```
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Row> {
        if let Repr::Numbers { outcomes, probs } = &mut self.0 {
            let listed = outcomes
                .iter()
                .zip(probs.iter())
                .map(|(&o, &p)| number_row(o, p))
                .collect();
            self.0 = Repr::Listed(listed);
        }
        match &mut self.0 {
            Repr::Listed(rows) => rows.iter_mut(),
            Repr::Numbers { .. } => [].iter_mut(),
        }
    }

    /// The heap bytes the rows hold themselves (a [`Row`]'s own strings and maps not
    /// counted): what the memory tests compare with the law's.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        match &self.0 {
            Repr::Listed(rows) => rows.capacity() * std::mem::size_of::<Row>(),
            Repr::Numbers { outcomes, probs } => {
                outcomes.capacity() * std::mem::size_of::<i64>()
                    + probs.capacity() * std::mem::size_of::<f64>()
            }
        }
    }
}

/// A plain numeric row.
fn number_row(outcome: i64, probability: f64) -> Row {
    Row::new(Label::Number(outcome), probability)
}

impl From<Vec<Row>> for Rows {
    fn from(rows: Vec<Row>) -> Rows {
        Rows(Repr::Listed(rows))
    }
}

impl FromIterator<Row> for Rows {
    fn from_iter<I: IntoIterator<Item = Row>>(rows: I) -> Rows {
        Rows(Repr::Listed(rows.into_iter().collect()))
    }
}

impl<'a> IntoIterator for &'a Rows {
    type Item = Cow<'a, Row>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Rows {
    type Item = &'a mut Row;
    type IntoIter = std::slice::IterMut<'a, Row>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// One of the two ways of walking [`Rows`].
#[derive(Clone, Debug)]
enum Either<L, N> {
    Listed(L),
    Numbers(N),
}

#[cfg(test)]
thread_local! {
    /// Rows made or borrowed by [`Iter`] on this thread: the streaming tests check that the
    /// writers read no further ahead than they write.
    static ROWS_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The rows of [`Rows::iter`], in order.
#[derive(Clone, Debug)]
pub struct Iter<'a>(
    Either<
        std::slice::Iter<'a, Row>,
        std::iter::Zip<std::slice::Iter<'a, i64>, std::slice::Iter<'a, f64>>,
    >,
);

impl<'a> Iter<'a> {
    fn made(row: Option<Cow<'a, Row>>) -> Option<Cow<'a, Row>> {
        #[cfg(test)]
        if row.is_some() {
            ROWS_READ.with(|n| n.set(n.get() + 1));
        }
        row
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = Cow<'a, Row>;

    fn next(&mut self) -> Option<Cow<'a, Row>> {
        Iter::made(match &mut self.0 {
            Either::Listed(it) => it.next().map(Cow::Borrowed),
            Either::Numbers(it) => it.next().map(|(&o, &p)| Cow::Owned(number_row(o, p))),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            Either::Listed(it) => it.size_hint(),
            Either::Numbers(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        Iter::made(match &mut self.0 {
            Either::Listed(it) => it.next_back().map(Cow::Borrowed),
            Either::Numbers(it) => it.next_back().map(|(&o, &p)| Cow::Owned(number_row(o, p))),
        })
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The probabilities of [`Rows::probabilities`], in order.
#[derive(Clone, Debug)]
pub struct Probabilities<'a>(Either<std::slice::Iter<'a, Row>, std::slice::Iter<'a, f64>>);

impl Iterator for Probabilities<'_> {
    type Item = f64;

    fn next(&mut self) -> Option<f64> {
        match &mut self.0 {
            Either::Listed(it) => it.next().map(|r| r.probability),
            Either::Numbers(it) => it.next().copied(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            Either::Listed(it) => it.size_hint(),
            Either::Numbers(it) => it.size_hint(),
        }
    }
}

impl ExactSizeIterator for Probabilities<'_> {}

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
    pub rows: Rows,
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
            rows: Rows::default(),
            numeric: false,
            mean: None,
            std_dev: None,
            tail: 0.0,
            summary: Vec::new(),
            method: Method::Exact,
        }
    }

    /// The rows, tail, mean and standard deviation of a numeric law. The rows take the
    /// law's own memory (see [`Rows`]).
    ///
    /// ```text
    /// OddsReport::new("odds", "2d6").numeric(&law)   // 11 rows, mean 7
    /// ```
    pub fn numeric<T: dice_core::Numeric>(mut self, dist: &Dist<T>) -> OddsReport {
        self.rows = Rows::numbers(dist.iter().map(|(o, p)| (o.to_i64(), p)));
        self.numeric = true;
        self.mean = Some(dist.mean());
        self.std_dev = Some(dist.std_dev());
        self.tail = dist.tail();
        self
    }

    /// The rows, tail, mean and standard deviation of a numeric law given as
    /// `(outcome, probability)` pairs in increasing order of outcome: what
    /// [`OddsReport::numeric`] makes of a `Dist<T: Numeric>`, for a law whose outcome type
    /// is not one (`dice odds` without `vs`: a `Dist<Outcome>` of numbers), with no copy of
    /// the law in between. The mean and deviation are summed as `Dist::mean` and
    /// `Dist::std_dev` sum them, so they come out bit for bit the same.
    ///
    /// ```text
    /// OddsReport::new("odds", "1d4").numbers((1..=4).map(|o| (o, 0.25)), 0.0)
    /// ```
    pub fn numbers(mut self, pairs: impl IntoIterator<Item = (i64, f64)>, tail: f64) -> Self {
        self.rows = Rows::numbers(pairs);
        self.numeric = true;
        let (mean, std_dev) = match &self.rows.0 {
            Repr::Numbers { outcomes, probs } => moments(outcomes, probs),
            Repr::Listed(_) => (0.0, 0.0),
        };
        self.mean = Some(mean);
        self.std_dev = Some(std_dev);
        self.tail = tail;
        self
    }

    /// The rows and tail of a law over named outcomes; `row` makes each outcome's row.
    ///
    /// ```text
    /// OddsReport::new("swimclass task", title).named(&law, |o, p| Row::new(label_of(o), p))
    /// ```
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
        let mut out = Vec::with_capacity(self.rows.len());
        let mut running = self.running();
        out.extend(self.rows.probabilities().map(|p| running.next(p)));
        out
    }

    /// Each row with its P(≥) and P(≤) as [`OddsReport::cumulative`] gives them, a row at
    /// a time: what the writers of long tables read (no array of the whole law).
    ///
    /// ```text
    /// for (row, at_least, at_most) in report.with_cumulative() { … }
    /// ```
    pub fn with_cumulative(&self) -> impl Iterator<Item = (Cow<'_, Row>, f64, f64)> + '_ {
        let mut running = self.running();
        self.rows.iter().map(move |r| {
            let (ge, le) = running.next(r.probability);
            (r, ge, le)
        })
    }

    /// The running sums behind [`OddsReport::cumulative`]: the total (rows and tail) first.
    fn running(&self) -> Running {
        Running {
            above: self.rows.probabilities().sum::<f64>() + self.tail,
            below: 0.0,
        }
    }

    /// The smallest numeric outcome whose P(≤) reaches `q`, or `None` for named outcomes
    /// or when `q` falls in the unlisted tail.
    ///
    /// ```text
    /// rows 1, 2, 3 at 0.2, 0.3, 0.5: quantile(0.5) == Some(2)
    /// ```
    pub fn quantile(&self, q: f64) -> Option<i64> {
        if !self.numeric {
            return None;
        }
        let mut acc = 0.0;
        for (i, p) in self.rows.probabilities().enumerate() {
            acc += p;
            if acc >= q - 1e-12 {
                if let Some(Label::Number(n)) = self.rows.get(i).map(|r| r.label.clone()) {
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
        let distribution = Value::Array(
            self.with_cumulative()
                .map(|(r, ge, le)| {
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

/// P(≥) and P(≤) summed row by row: `above` starts at the total and loses each row after
/// it is read, `below` gains each row as it is read.
struct Running {
    above: f64,
    below: f64,
}

impl Running {
    /// The next row's (P(≥), P(≤)), each clamped to 0..=1.
    fn next(&mut self, p: f64) -> (f64, f64) {
        self.below += p;
        let out = (self.above.clamp(0.0, 1.0), self.below.clamp(0.0, 1.0));
        self.above -= p;
        out
    }
}

/// The mean and standard deviation of a numeric law, summed as `Dist::mean` and
/// `Dist::variance` sum them (the same terms in the same order, so the same bits).
fn moments(outcomes: &[i64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = outcomes
        .iter()
        .zip(probs)
        .map(|(&o, &p)| o as f64 * p)
        .sum();
    let variance: f64 = outcomes
        .iter()
        .zip(probs)
        .map(|(&o, &p)| {
            let d = o as f64 - mean;
            d * d * p
        })
        .sum();
    (mean, variance.sqrt())
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

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::io;
    use std::mem::size_of;

    use dice_core::{Die, Exact, Keep, Pool, Sum};

    use super::*;
    use crate::render::{Output, View, render, write};
    use crate::seed::Seed;

    /// A law of `n` consecutive outcomes from −7 with unequal probabilities (1 to 7 parts in
    /// turn), and `tail` beyond the last.
    fn long_law(n: usize, tail: f64) -> Dist<i64> {
        let weight = |i: usize| (i % 7 + 1) as f64;
        let total: f64 = (0..n).map(weight).sum::<f64>() / (1.0 - tail);
        let probs = (0..n).map(|i| weight(i) / total).collect();
        Dist::from_consecutive(-7, probs, tail).expect("a valid law")
    }

    /// The bytes of a law's own arrays: an `i64` and an `f64` per outcome.
    fn own_bytes(law: &Dist<i64>) -> usize {
        law.len() * (size_of::<i64>() + size_of::<f64>())
    }

    #[test]
    fn numeric_rows_take_no_more_memory_than_the_law() {
        let law = long_law(10_000, 0.0);
        let report = OddsReport::new("odds", "long").numeric(&law);
        assert_eq!(report.rows.len(), law.len());
        assert!(
            report.rows.heap_bytes() <= own_bytes(&law),
            "{} bytes of rows for a law of {} bytes",
            report.rows.heap_bytes(),
            own_bytes(&law)
        );
        let expression =
            OddsReport::new("odds", "long").numbers(law.iter().map(|(&o, p)| (o, p)), 0.0);
        assert!(expression.rows.heap_bytes() <= own_bytes(&law));
        // The same rows held one `Row` each (as before) are told apart by the bound.
        let listed: Rows = report.rows.iter().map(Cow::into_owned).collect();
        assert!(listed.iter().eq(report.rows.iter()));
        assert!(listed.heap_bytes() > 2 * own_bytes(&law));
    }

    #[test]
    fn numbers_give_what_numeric_gives_bit_for_bit() {
        let kept = Sum::new(Pool::new(3, Die::D6).unwrap(), Keep::Highest(2), 0)
            .unwrap()
            .distribution()
            .unwrap();
        let d20 = Die::D20.distribution().unwrap().shift(-10);
        for law in [
            kept.shift(0),
            d20,
            long_law(5_000, 0.0),
            long_law(999, 1e-3),
        ] {
            let a = OddsReport::new("odds", "x").numeric(&law);
            let b =
                OddsReport::new("odds", "x").numbers(law.iter().map(|(&o, p)| (o, p)), law.tail());
            assert_eq!(a.mean.map(f64::to_bits), b.mean.map(f64::to_bits));
            assert_eq!(a.std_dev.map(f64::to_bits), b.std_dev.map(f64::to_bits));
            assert_eq!(a.tail.to_bits(), b.tail.to_bits());
            assert!(a.rows.iter().eq(b.rows.iter()));
            assert_eq!(a.to_json(), b.to_json());
        }
    }

    #[test]
    fn cumulative_chances_are_the_sums_above_and_below() {
        let law = long_law(50, 0.01);
        let report = OddsReport::new("odds", "x").numeric(&law);
        let p = law.probabilities();
        let streamed: Vec<(f64, f64)> = report
            .with_cumulative()
            .map(|(_, ge, le)| (ge, le))
            .collect();
        assert_eq!(streamed, report.cumulative());
        for (i, &(ge, le)) in streamed.iter().enumerate() {
            let above: f64 = p[i..].iter().sum::<f64>() + 0.01;
            let below: f64 = p[..=i].iter().sum();
            assert!(
                (ge - above.min(1.0)).abs() < 1e-12,
                "row {i}: {ge} against {above}"
            );
            assert!(
                (le - below.min(1.0)).abs() < 1e-12,
                "row {i}: {le} against {below}"
            );
        }
        // The rows' own probabilities, read without making the rows.
        assert!(report.rows.probabilities().eq(p.iter().copied()));
        assert_eq!(report.rows.probability(3), Some(p[3]));
        assert_eq!(report.rows.probability(50), None);
        assert_eq!(
            report.rows.get(2).map(|r| r.label.clone()),
            Some(Label::Number(-5))
        );
    }

    /// A writer that notes, at each write, how far the rows read (on this thread) run ahead
    /// of the rows it has been sent in full (a row ends with the byte `end`).
    struct Watch {
        end: u8,
        ended: usize,
        read_before: usize,
        most_ahead: usize,
    }

    impl Watch {
        fn new(end: u8) -> Watch {
            Watch {
                end,
                ended: 0,
                read_before: ROWS_READ.with(Cell::get),
                most_ahead: 0,
            }
        }

        fn read(&self) -> usize {
            ROWS_READ.with(Cell::get) - self.read_before
        }
    }

    impl io::Write for Watch {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.most_ahead = self.most_ahead.max(self.read().saturating_sub(self.ended));
            self.ended += buf.iter().filter(|&&b| b == self.end).count();
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The JSON and CSV writers are fed a row at a time: when any byte is written, at most
    /// the row being written has been read beyond those already written, and every row is
    /// read once. A writer that made the whole output (or any per-row array) first would
    /// have read every row before its first byte.
    #[test]
    fn json_and_csv_are_written_as_the_rows_are_read() {
        let n = 3_000;
        let law = long_law(n, 1e-9);
        let exact = OddsReport::new("odds", "long")
            .numbers(law.iter().map(|(&o, p)| (o, p)), law.tail())
            .field("expression", "long");
        let mut simulated = OddsReport::new("odds", "long").numeric(&law);
        for r in &mut simulated.rows {
            r.interval = Some(Interval {
                count: 5,
                low: r.probability / 2.0,
                high: r.probability * 2.0,
            });
        }
        simulated.method = Method::MonteCarlo {
            seed: Seed {
                value: 1,
                given: true,
            },
            trials: 1_000,
            confidence: 0.95,
            standard_error: Some(0.5),
        };
        let named = OddsReport::new("game", "named").named(&law, |o, p| {
            Row::new(Label::named(&format!("k{o}"), format!("k {o}")), p)
        });
        for report in [exact, simulated, named] {
            let report = Report::Odds(report);
            // A JSON row is an object ending with `}` (plain rows nest none); a CSV row a line.
            for (output, end) in [(Output::Json, b'}'), (Output::Csv, b'\n')] {
                let mut watch = Watch::new(end);
                write(&report, output, View::Exactly, &mut watch).expect("a watch takes all");
                assert!(
                    watch.most_ahead <= 1,
                    "{output:?}: {} rows read ahead of the output",
                    watch.most_ahead
                );
                assert_eq!(watch.read(), n, "{output:?}: each row read once");
                // The check sees a writer that prints the whole output at the end.
                let mut whole = Watch::new(end);
                let text = render(&report, output, View::Exactly);
                io::Write::write_all(&mut whole, text.as_bytes()).expect("a watch takes all");
                assert!(whole.most_ahead >= n - 1, "{output:?}");
            }
        }
    }
}
