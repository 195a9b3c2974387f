//! Printing reports: text tables with a bar chart for people; JSON, CSV and Markdown for
//! programs, spreadsheets and pages.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{Value, json};

use crate::report::{CompareReport, Label, Method, OddsReport, Report, RollReport, SweepReport};

/// How to print (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// Tables and sentences.
    #[default]
    Text,
    /// One JSON object.
    Json,
    /// Comma-separated values: the table only, one header line.
    Csv,
    /// A Markdown table, with the summary as a list.
    Markdown,
}

/// Which chance the bar chart (and `--plot`) shows for numeric outcomes (`--view`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum View {
    /// P(outcome = x).
    #[default]
    #[value(alias = "eq", alias = "normal")]
    Exactly,
    /// P(outcome ≥ x).
    #[value(alias = "ge")]
    AtLeast,
    /// P(outcome ≤ x).
    #[value(alias = "le")]
    AtMost,
}

impl View {
    /// The value of a row: its probability, at least or at most.
    pub fn pick(self, p: f64, at_least: f64, at_most: f64) -> f64 {
        match self {
            View::Exactly => p,
            View::AtLeast => at_least,
            View::AtMost => at_most,
        }
    }
}

/// Width of the longest bar, in terminal columns.
pub const BAR_WIDTH: usize = 40;

/// Rows with less than this probability at either end of a long table are left out of the
/// text (they would print as 0.0000%); `--json` lists every outcome.
const NEGLIGIBLE: f64 = 5e-7;

/// A text table longer than this is shown in bins of consecutive outcomes.
const MAX_TEXT_ROWS: usize = 120;

/// The report in `output`'s form, ending with a newline; `view` picks what the text's bars
/// show.
pub fn render(report: &Report, output: Output, view: View) -> String {
    match output {
        Output::Json => {
            let mut out = Vec::new();
            // Writing to a Vec cannot fail.
            let _ = write_json(report, &mut out);
            String::from_utf8_lossy(&out).into_owned()
        }
        Output::Text => match report {
            Report::Roll(r) => roll_text(r),
            Report::Odds(o) => odds_text(o, view),
            Report::Compare(c) => compare_text(c),
            Report::Sweep(s) => sweep_text(s),
        },
        Output::Csv => match report {
            Report::Roll(r) => roll_csv(r),
            Report::Odds(o) => {
                let mut out = Vec::new();
                // Writing to a Vec cannot fail.
                let _ = write_odds_csv(o, &mut out);
                String::from_utf8_lossy(&out).into_owned()
            }
            Report::Compare(c) => csv(&compare_table(c, false)),
            Report::Sweep(s) => s.csv_comments() + &csv(&sweep_table(s, false)),
        },
        Output::Markdown => match report {
            Report::Roll(r) => roll_markdown(r),
            Report::Odds(o) => {
                let mut out = Vec::new();
                // Writing to a Vec cannot fail.
                let _ = write_odds_markdown(o, &mut out);
                String::from_utf8_lossy(&out).into_owned()
            }
            Report::Compare(c) => compare_markdown(c),
            Report::Sweep(s) => sweep_markdown(s),
        },
    }
}

/// Writes the report in `output`'s form, the bytes [`render`] returns. The rows of an odds
/// report in JSON, CSV or Markdown are written one at a time as they are read, and its text
/// table is at most [`MAX_TEXT_ROWS`] lines summed in one pass, so printing a law of
/// millions of outcomes holds no more than the report itself (the other reports, tables of
/// a few hundred rows at most, are rendered whole first).
///
/// # Errors
/// The writer's.
pub fn write<W: Write>(report: &Report, output: Output, view: View, out: &mut W) -> io::Result<()> {
    match (output, report) {
        (Output::Json, _) => write_json(report, out),
        (Output::Csv, Report::Odds(o)) => write_odds_csv(o, out),
        (Output::Markdown, Report::Odds(o)) => write_odds_markdown(o, out),
        _ => out.write_all(render(report, output, view).as_bytes()),
    }
}

/// An odds report as CSV, a row at a time: a header line (`outcome,probability`, then
/// `at_least,at_most` for numbers and `count,low,high` for a simulation), then one line a
/// row, numbers in full precision (`f64`'s `Display`).
fn write_odds_csv<W: Write>(o: &OddsReport, out: &mut W) -> io::Result<()> {
    let simulated = o.simulated();
    let mut header = vec!["outcome", "probability"];
    if o.numeric {
        header.extend(["at_least", "at_most"]);
    }
    if simulated {
        header.extend(["count", "low", "high"]);
    }
    writeln!(out, "{}", header.join(","))?;
    for (r, ge, le) in o.with_cumulative() {
        match &r.label {
            Label::Number(n) => write!(out, "{n}")?,
            Label::Name { key, .. } => out.write_all(csv_field(key).as_bytes())?,
        }
        write!(out, ",{}", r.probability)?;
        if o.numeric {
            write!(out, ",{ge},{le}")?;
        }
        if simulated {
            match r.interval {
                Some(iv) => write!(out, ",{},{},{}", iv.count, iv.low, iv.high)?,
                None => out.write_all(b",,,")?,
            }
        }
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Writes the report as one pretty-printed JSON object and a newline, as
/// `serde_json::to_string_pretty` of its `to_json()` prints it, byte for byte. An odds
/// report's rows are written one at a time as they are read, with no JSON tree or string of
/// the whole document in between, so a law of millions of outcomes costs no more memory
/// than the report already holds.
///
/// # Errors
/// The writer's.
pub fn write_json<W: Write>(report: &Report, out: &mut W) -> io::Result<()> {
    let value = match report {
        Report::Odds(o) => return write_odds_json(o, out),
        Report::Roll(r) => r.to_json(),
        Report::Compare(c) => c.to_json(),
        Report::Sweep(s) => s.to_json(),
    };
    serde_json::to_writer_pretty(&mut *out, &value).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// Writes `value` pretty-printed as it would appear nested `depth` levels deep.
fn write_nested<W: Write>(out: &mut W, value: &Value, depth: usize) -> io::Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
    let indent = "  ".repeat(depth);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
            out.write_all(indent.as_bytes())?;
        }
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// A number or string as serde_json writes it.
fn write_scalar<W: Write, T: serde::Serialize + ?Sized>(out: &mut W, v: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, v).map_err(io::Error::other)
}

/// An odds report as JSON, its rows streamed.
fn write_odds_json<W: Write>(o: &OddsReport, out: &mut W) -> io::Result<()> {
    let fields = o.json_fields(Value::Null);
    out.write_all(b"{")?;
    for (i, (key, value)) in fields.iter().enumerate() {
        out.write_all(if i == 0 { b"\n  " } else { b",\n  " })?;
        write_scalar(out, key)?;
        out.write_all(b": ")?;
        if key == "distribution" {
            write_rows(o, out)?;
        } else {
            write_nested(out, value, 1)?;
        }
    }
    out.write_all(if fields.is_empty() { b"}\n" } else { b"\n}\n" })
}

/// The `distribution` array: one object per row, keys in the order `Row::to_json` and
/// `OddsReport::to_json` give them.
fn write_rows<W: Write>(o: &OddsReport, out: &mut W) -> io::Result<()> {
    if o.rows.is_empty() {
        return out.write_all(b"[]");
    }
    out.write_all(b"[")?;
    // P(≥) and P(≤) as `OddsReport::cumulative` computes them, a row at a time.
    for (i, (r, ge, le)) in o.with_cumulative().enumerate() {
        out.write_all(if i == 0 { b"\n    " } else { b",\n    " })?;
        if r.extra.is_empty() {
            // The common row, written field by field, keys in sorted order as serde_json's
            // map (without its `preserve_order` feature) lists them; the tests compare
            // the two outputs byte for byte.
            // (No allocation per row: the fields are a fixed array, those absent skipped.)
            let interval = r.interval;
            let fields = [
                o.numeric.then_some(("at_least", Scalar::F(ge))),
                o.numeric.then_some(("at_most", Scalar::F(le))),
                interval.map(|iv| ("count", Scalar::U(iv.count))),
                interval.map(|iv| ("high", Scalar::F(iv.high))),
                interval.map(|iv| ("low", Scalar::F(iv.low))),
                Some(("outcome", Scalar::Label(&r.label))),
                Some(("probability", Scalar::F(r.probability))),
            ];
            out.write_all(b"{")?;
            for (j, (k, v)) in fields.iter().flatten().enumerate() {
                out.write_all(if j == 0 { b"\n      " } else { b",\n      " })?;
                write_scalar(out, *k)?;
                out.write_all(b": ")?;
                match v {
                    Scalar::F(x) => write_scalar(out, x)?,
                    Scalar::U(n) => write_scalar(out, n)?,
                    Scalar::Label(Label::Number(n)) => write_scalar(out, n)?,
                    Scalar::Label(Label::Name { key, .. }) => write_scalar(out, key)?,
                }
            }
            out.write_all(b"\n    }")?;
        } else {
            let mut v = r.to_json();
            if o.numeric {
                if let Value::Object(m) = &mut v {
                    m.insert("at_least".into(), json!(ge));
                    m.insert("at_most".into(), json!(le));
                }
            }
            write_nested(out, &v, 2)?;
        }
    }
    out.write_all(b"\n  ]")
}

/// A value of a row's field.
enum Scalar<'a> {
    F(f64),
    U(u64),
    Label(&'a Label),
}

fn roll_text(r: &RollReport) -> String {
    let mut s = String::new();
    for line in &r.lines {
        s.push_str(line);
        s.push('\n');
    }
    s.push_str(&r.seed.line());
    s.push('\n');
    s
}

/// A roll as CSV: one header line of the JSON's fields, one line of their values
/// (arrays and objects as JSON text).
fn roll_csv(r: &RollReport) -> String {
    let serde_json::Value::Object(fields) = r.to_json() else {
        return String::new();
    };
    let keys: Vec<String> = fields.keys().cloned().collect();
    let values: Vec<String> = fields
        .values()
        .map(|v| match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        })
        .collect();
    csv(&[keys, values])
}

/// A roll as Markdown: its lines as a list, then the seed.
fn roll_markdown(r: &RollReport) -> String {
    let mut s = String::new();
    for line in &r.lines {
        let _ = writeln!(s, "- {}", md_escape(line));
    }
    let _ = writeln!(s, "- {}", r.seed.line());
    s
}

/// One CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_owned()
    }
}

/// Rows of fields as CSV.
fn csv(rows: &[Vec<String>]) -> String {
    let mut s = String::new();
    for r in rows {
        let line: Vec<String> = r.iter().map(|f| csv_field(f)).collect();
        s.push_str(&line.join(","));
        s.push('\n');
    }
    s
}

/// Text safe in a Markdown table cell.
fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

/// Rows of fields as a Markdown table (the first row is the header; the first column is
/// left-aligned, the others right-aligned).
fn markdown_table(rows: &[Vec<String>]) -> String {
    let mut s = String::new();
    for (i, r) in rows.iter().enumerate() {
        let cells: Vec<String> = r.iter().map(|c| md_escape(c)).collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
        if i == 0 {
            let rule: Vec<&str> = (0..r.len())
                .map(|k| if k == 0 { "---" } else { "---:" })
                .collect();
            let _ = writeln!(s, "|{}|", rule.join("|"));
        }
    }
    s
}

/// Rows of fields aligned in columns (the first left-aligned unless `numeric_first`, the
/// others right-aligned), two spaces apart, trailing spaces trimmed.
fn aligned(rows: &[Vec<String>], numeric_first: bool) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|k| {
            rows.iter()
                .filter_map(|r| r.get(k))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for r in rows {
        let mut line = String::new();
        for (k, c) in r.iter().enumerate() {
            if k > 0 {
                line.push_str("  ");
            }
            let w = widths[k];
            if k == 0 && !numeric_first {
                let _ = write!(line, "{c:<w$}");
            } else {
                let _ = write!(line, "{c:>w$}");
            }
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
    s
}

/// `12.3456%`, with `decimals` decimals.
pub fn percent(p: f64, decimals: usize) -> String {
    format!("{:.*}%", decimals, p * 100.0)
}

/// A horizontal bar `fraction` (0..=1) of `width` columns long, in eighths of a column.
pub fn bar(fraction: f64, width: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let eighths = (fraction.clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    if eighths % 8 > 0 {
        s.push(PARTS[eighths % 8]);
    }
    if s.is_empty() && fraction > 0.0 {
        s.push('▏');
    }
    s
}

/// One line of the text table, after trimming and binning.
struct Line {
    label: String,
    probability: f64,
    at_least: f64,
    at_most: f64,
    interval: Option<(f64, f64)>,
}

/// The first line of an odds report: its title and how the odds were had.
fn method_text(title: &str, method: &Method) -> String {
    let how = match *method {
        Method::Exact => "exact odds".to_owned(),
        Method::MonteCarlo {
            seed,
            trials,
            confidence,
            ..
        } => format!(
            "Monte Carlo estimate, {}, {:.0}% confidence intervals, seed {}",
            crate::progress::trials_text(trials),
            confidence * 100.0,
            seed.value
        ),
    };
    format!("{title}: {how}")
}

/// The Wilson interval of an estimated probability `p` over `trials`.
fn summary_interval(p: f64, trials: u64, confidence: f64) -> (f64, f64) {
    let iv = crate::mc::interval_of(p, trials, confidence);
    (iv.low, iv.high)
}

/// `median 13 (quantiles: 5% 8, 25% 10, 75% 15, 95% 17)`, or `None` for named outcomes.
fn quantile_line(o: &OddsReport) -> Option<String> {
    let median = o.quantile(0.5)?;
    let rest: Vec<String> = o
        .quantiles()
        .into_iter()
        .filter(|&(q, _)| q != 0.5)
        .map(|(q, x)| format!("{:.0}% {x}", q * 100.0))
        .collect();
    Some(format!("median {median} (quantiles: {})", rest.join(", ")))
}

fn odds_text(o: &OddsReport, view: View) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", method_text(&o.title, &o.method));
    for n in &o.notes {
        let _ = writeln!(s, "{n}");
    }
    let simulated = o.simulated();
    let decimals = if simulated { 3 } else { 4 };

    let (lines, skipped) = table_lines(o);
    let view = if o.numeric { view } else { View::Exactly };
    let shown = |l: &Line| view.pick(l.probability, l.at_least, l.at_most);
    let max_p = lines.iter().map(shown).fold(0.0, f64::max);
    let interval_text = |l: &Line| {
        l.interval.map_or(String::new(), |(lo, hi)| {
            format!("[{}, {}]", percent(lo, decimals), percent(hi, decimals))
        })
    };
    let mut table: Vec<Vec<String>> = Vec::with_capacity(lines.len() + 1);
    let mut header = vec!["outcome".to_owned()];
    if o.numeric {
        header.extend(["P(=)", "P(≥)", "P(≤)"].map(str::to_owned));
    } else {
        header.push("chance".to_owned());
    }
    table.push(header);
    for l in &lines {
        let mut row = vec![l.label.clone(), percent(l.probability, decimals)];
        if o.numeric {
            row.push(percent(l.at_least, decimals));
            row.push(percent(l.at_most, decimals));
        }
        table.push(row);
    }
    let body = aligned(&table, o.numeric);
    // The interval and the bar follow the aligned columns.
    let iv_w = lines
        .iter()
        .map(|l| interval_text(l).len())
        .chain([if simulated { "interval".len() } else { 0 }])
        .max()
        .unwrap_or(0);
    let width = body.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    for (i, text) in body.lines().enumerate() {
        let mut row = format!("{text:<width$}");
        if simulated {
            let iv = if i == 0 {
                "interval".to_owned()
            } else {
                interval_text(&lines[i - 1])
            };
            let _ = write!(row, "  {iv:<iv_w$}");
        }
        if i > 0 {
            let value = shown(&lines[i - 1]);
            let fraction = if max_p > 0.0 { value / max_p } else { 0.0 };
            row.push_str("  ");
            row.push_str(&bar(fraction, BAR_WIDTH));
        }
        let _ = writeln!(s, "{}", row.trim_end());
    }
    if skipped > 0 {
        let _ = writeln!(
            s,
            "({skipped} outcomes at the ends, each under {}, are not shown; --json lists them all)",
            percent(NEGLIGIBLE, 5)
        );
    }
    // Below 1e-12 the tail is rounding in the sum of an f64 law, or an exploding law's
    // unlisted mass (at most dice-core's DEFAULT_TAIL_TOLERANCE): invisible at the table's
    // precision, and still given by --json.
    if o.tail >= 1e-12 {
        let _ = writeln!(
            s,
            "(a probability of {:.1e} lies beyond the last outcome listed)",
            o.tail
        );
    }
    if let (Some(mean), Some(sd)) = (o.mean, o.std_dev) {
        match o.method {
            Method::MonteCarlo {
                standard_error: Some(se),
                ..
            } => {
                let _ = writeln!(
                    s,
                    "mean {mean:.4} (standard error {se:.4}), standard deviation {sd:.4}"
                );
            }
            _ => {
                let _ = writeln!(s, "mean {mean:.4}, standard deviation {sd:.4}");
            }
        }
    }
    if let Some(q) = quantile_line(o) {
        let _ = writeln!(s, "{q}");
    }
    for sm in &o.summary {
        let _ = write!(s, "P({}) = {}", sm.text, percent(sm.value, decimals));
        if let Method::MonteCarlo {
            trials, confidence, ..
        } = o.method
        {
            let (lo, hi) = summary_interval(sm.value, trials, confidence);
            let _ = write!(s, " [{}, {}]", percent(lo, decimals), percent(hi, decimals));
        }
        s.push('\n');
    }
    for f in &o.footer {
        let _ = writeln!(s, "{f}");
    }
    s
}

/// The lines of the table: negligible rows at the ends of a long numeric table dropped, and
/// consecutive rows binned when it is still too long. Returns the lines and how many rows
/// were dropped. The rows are read once, in order, each bin summed as it goes.
fn table_lines(o: &OddsReport) -> (Vec<Line>, usize) {
    let rows = &o.rows;
    let negligible = |i: usize| rows.probability(i).is_some_and(|p| p < NEGLIGIBLE);
    let (mut start, mut end) = (0, rows.len());
    if o.numeric {
        while start < end && negligible(start) {
            start += 1;
        }
        while end > start && negligible(end - 1) {
            end -= 1;
        }
    }
    let skipped = rows.len() - (end - start);
    let kept = end - start;
    let bin = if o.numeric && kept > MAX_TEXT_ROWS {
        kept.div_ceil(MAX_TEXT_ROWS / 2)
    } else {
        1
    };
    let mut lines = Vec::new();
    // The bin being summed: its line so far, its first outcome's text, its rows so far.
    let mut open: Option<(Line, String, usize)> = None;
    for (i, (r, ge, le)) in o.with_cumulative().enumerate().take(end).skip(start) {
        let (line, _, count) = open.get_or_insert_with(|| {
            let line = Line {
                label: String::new(),
                probability: 0.0,
                at_least: ge,
                at_most: le,
                interval: r.interval.map(|iv| (iv.low, iv.high)),
            };
            (line, r.label.text(), 0)
        });
        line.probability += r.probability;
        line.at_most = le;
        *count += 1;
        if i + 1 == end || (i + 1 - start) % bin == 0 {
            if let Some((mut line, first, count)) = open.take() {
                if count > 1 {
                    line.label = format!("{first}..{}", r.label.text());
                    line.interval = None;
                } else {
                    line.label = first;
                }
                lines.push(line);
            }
        }
    }
    (lines, skipped)
}

/// An odds report as rows of fields: a header, then one row per outcome (full precision
/// for CSV, percentages for Markdown). The tables as first made, before the rows were
/// streamed: the tests' reference for [`write_odds_csv`] and [`write_odds_markdown`].
#[cfg(test)]
fn odds_table(o: &OddsReport, pretty: bool) -> Vec<Vec<String>> {
    let num = |p: f64| {
        if pretty {
            percent(p, if o.simulated() { 3 } else { 4 })
        } else {
            p.to_string()
        }
    };
    let mut header = vec!["outcome".to_owned()];
    if pretty {
        header.push(if o.numeric { "P(=)" } else { "chance" }.to_owned());
    } else {
        header.push("probability".to_owned());
    }
    if o.numeric {
        header.push(if pretty { "P(≥)" } else { "at_least" }.to_owned());
        header.push(if pretty { "P(≤)" } else { "at_most" }.to_owned());
    }
    if o.simulated() {
        header.extend(["count", "low", "high"].map(str::to_owned));
    }
    let mut rows = vec![header];
    for (r, (ge, le)) in o.rows.iter().zip(o.cumulative()) {
        let mut row = vec![
            if pretty {
                r.label.text()
            } else {
                match &r.label {
                    Label::Number(n) => n.to_string(),
                    Label::Name { key, .. } => key.clone(),
                }
            },
            num(r.probability),
        ];
        if o.numeric {
            row.push(num(ge));
            row.push(num(le));
        }
        if o.simulated() {
            match r.interval {
                Some(iv) => row.extend([iv.count.to_string(), num(iv.low), num(iv.high)]),
                None => row.extend([String::new(), String::new(), String::new()]),
            }
        }
        rows.push(row);
    }
    rows
}

/// The summary of an odds report as `(name, value)` lines: mean, deviation, quantiles and
/// the headline probabilities.
fn summary_lines(o: &OddsReport) -> Vec<(String, String)> {
    let decimals = if o.simulated() { 3 } else { 4 };
    let mut v = Vec::new();
    if let Some(m) = o.mean {
        v.push(("mean".to_owned(), format!("{m:.4}")));
    }
    if let Some(sd) = o.std_dev {
        v.push(("standard deviation".to_owned(), format!("{sd:.4}")));
    }
    if let Some(m) = o.quantile(0.5) {
        v.push(("median".to_owned(), m.to_string()));
    }
    for (q, x) in o.quantiles() {
        if q != 0.5 {
            v.push((format!("{:.0}% quantile", q * 100.0), x.to_string()));
        }
    }
    for sm in &o.summary {
        v.push((format!("P({})", sm.text), percent(sm.value, decimals)));
    }
    v
}

/// An odds report as Markdown: the title line, the notes, the table (a row written as it
/// is read, laid out as [`markdown_table`] lays out rows of fields), then the summary as a
/// list.
fn write_odds_markdown<W: Write>(o: &OddsReport, out: &mut W) -> io::Result<()> {
    writeln!(
        out,
        "**{}**\n",
        md_escape(&method_text(&o.title, &o.method))
    )?;
    for n in &o.notes {
        writeln!(out, "{}\n", md_escape(n))?;
    }
    let simulated = o.simulated();
    let decimals = if simulated { 3 } else { 4 };
    let mut header = vec!["outcome", if o.numeric { "P(=)" } else { "chance" }];
    if o.numeric {
        header.extend(["P(≥)", "P(≤)"]);
    }
    if simulated {
        header.extend(["count", "low", "high"]);
    }
    writeln!(out, "| {} |", header.join(" | "))?;
    let rule: Vec<&str> = (0..header.len())
        .map(|k| if k == 0 { "---" } else { "---:" })
        .collect();
    writeln!(out, "|{}|", rule.join("|"))?;
    for (r, ge, le) in o.with_cumulative() {
        write!(out, "| {}", md_escape(&r.label.text()))?;
        write!(out, " | {}", percent(r.probability, decimals))?;
        if o.numeric {
            write!(
                out,
                " | {} | {}",
                percent(ge, decimals),
                percent(le, decimals)
            )?;
        }
        if simulated {
            match r.interval {
                Some(iv) => write!(
                    out,
                    " | {} | {} | {}",
                    iv.count,
                    percent(iv.low, decimals),
                    percent(iv.high, decimals)
                )?,
                None => out.write_all(" |  |  | ".as_bytes())?,
            }
        }
        out.write_all(b" |\n")?;
    }
    let summary = summary_lines(o);
    if !summary.is_empty() || !o.footer.is_empty() {
        out.write_all(b"\n")?;
    }
    for (k, v) in summary {
        writeln!(out, "- {}: {v}", md_escape(&k))?;
    }
    for f in &o.footer {
        writeln!(out, "- {}", md_escape(f))?;
    }
    Ok(())
}

/// Each compared law's (P(=), P(≥), P(≤)) at each outcome of the union, `None` where the
/// law does not have the outcome.
fn compare_cells(c: &CompareReport, outcomes: &[Label]) -> Vec<Vec<Option<(f64, f64, f64)>>> {
    outcomes
        .iter()
        .map(|label| {
            c.items
                .iter()
                .map(|(_, o)| {
                    let cumulative = o.cumulative();
                    let found = o.rows.iter().enumerate().find(|(_, r)| &r.label == label);
                    if let Some((i, r)) = found {
                        let (ge, le) = cumulative[i];
                        return Some((r.probability, ge, le));
                    }
                    // A number the law never takes: P(=) 0, and the cumulative chances of
                    // the rows around it.
                    let Label::Number(n) = label else {
                        return Some((0.0, 0.0, 0.0));
                    };
                    let below = o.rows.iter().rposition(|r| match r.label {
                        Label::Number(m) => m < *n,
                        Label::Name { .. } => false,
                    });
                    let le = below.map_or(0.0, |b| cumulative[b].1);
                    Some((0.0, (1.0 - le).max(0.0), le))
                })
                .collect()
        })
        .collect()
}

/// A compare report as rows of fields (numbers as percentages when `pretty`).
fn compare_table(c: &CompareReport, pretty: bool) -> Vec<Vec<String>> {
    let numeric = c.numeric();
    let outcomes = c.outcomes();
    let cells = compare_cells(c, &outcomes);
    let simulated = c.items.iter().any(|(_, o)| o.simulated());
    let num = |p: f64| {
        if pretty {
            percent(p, if simulated { 3 } else { 2 })
        } else {
            p.to_string()
        }
    };
    let mut header = vec!["outcome".to_owned()];
    for (h, _) in &c.items {
        if numeric {
            for col in ["P(=)", "P(≥)", "P(≤)"] {
                header.push(format!("{h} {col}"));
            }
        } else {
            header.push(h.clone());
        }
    }
    let mut rows = vec![header];
    for (label, line) in outcomes.iter().zip(&cells) {
        let mut row = vec![if pretty {
            label.text()
        } else {
            label.to_json().to_string().trim_matches('"').to_owned()
        }];
        for cell in line {
            match cell {
                Some((eq, ge, le)) => {
                    row.push(num(*eq));
                    if numeric {
                        row.push(num(*ge));
                        row.push(num(*le));
                    }
                }
                None => {
                    row.push(if pretty {
                        "-".to_owned()
                    } else {
                        String::new()
                    });
                    if numeric {
                        row.extend([String::new(), String::new()]);
                    }
                }
            }
        }
        rows.push(row);
    }
    rows
}

/// The summary rows of a comparison: one row per statistic, one value per compared law.
fn compare_summary(c: &CompareReport) -> Vec<(String, Vec<String>)> {
    let mut names: Vec<String> = Vec::new();
    let per: Vec<Vec<(String, String)>> = c.items.iter().map(|(_, o)| summary_lines(o)).collect();
    for lines in &per {
        for (k, _) in lines {
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
    }
    names
        .into_iter()
        .map(|k| {
            let values = per
                .iter()
                .map(|lines| {
                    lines
                        .iter()
                        .find(|(name, _)| *name == k)
                        .map_or_else(|| "-".to_owned(), |(_, v)| v.clone())
                })
                .collect();
            (k, values)
        })
        .collect()
}

fn compare_text(c: &CompareReport) -> String {
    let mut s = String::new();
    let first = c
        .items
        .first()
        .map(|(_, o)| o.method)
        .unwrap_or(Method::Exact);
    let _ = writeln!(s, "{}", method_text(&c.title(), &first));
    // A comparison Ctrl-C stopped part way says so (crate::sweep::stop_comparing).
    for (h, o) in &c.items {
        for n in o.notes.iter().filter(|n| n.starts_with("stopped by")) {
            let _ = writeln!(s, "{h}: {n}");
        }
    }
    let numeric = c.numeric();
    let mut table = compare_table(c, true);
    let group = if numeric { 3 } else { 1 };
    // The header: the group's name over its first column, the column names under it.
    if let Some(header) = table.first_mut() {
        for cell in header.iter_mut().skip(1) {
            if numeric {
                *cell = cell.rsplit(' ').next().unwrap_or("").to_owned();
            }
        }
    }
    let mut names = vec![String::new()];
    for (h, _) in &c.items {
        names.push(h.clone());
        names.extend(std::iter::repeat_n(String::new(), group - 1));
    }
    // Summary rows: each value under its group's first column.
    let summary = compare_summary(c);
    let body_rows = table.len();
    for (k, values) in &summary {
        let mut row = vec![k.clone()];
        for v in values {
            row.push(v.clone());
            row.extend(std::iter::repeat_n(String::new(), group - 1));
        }
        table.push(row);
    }
    // Align the body with the group names as an extra first row whose cells may be wider
    // than a column: lay them out by hand over the aligned table.
    if numeric {
        // Outcomes right-aligned among themselves, the summary's names left-aligned.
        let w = table[1..body_rows]
            .iter()
            .map(|r| r[0].chars().count())
            .chain(["outcome".len()])
            .max()
            .unwrap_or(0);
        for row in &mut table[..body_rows] {
            row[0] = format!("{:>w$}", row[0]);
        }
    }
    let text = aligned(&table, false);
    let lines: Vec<&str> = text.lines().collect();
    // Column starts, from the header line's layout: recompute widths.
    let cols = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|k| {
            table
                .iter()
                .filter_map(|r| r.get(k))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut name_line = String::new();
    let mut at = 0;
    for (k, w) in widths.iter().enumerate() {
        if k > 0 {
            at += 2;
        }
        let name = &names[k];
        if !name.is_empty() {
            while name_line.chars().count() < at {
                name_line.push(' ');
            }
            name_line.push_str(name);
        }
        at += w;
    }
    if numeric {
        let _ = writeln!(s, "{}", name_line.trim_end());
    }
    for (i, l) in lines.iter().enumerate() {
        if i == body_rows {
            s.push('\n');
        }
        let _ = writeln!(s, "{l}");
    }
    s
}

fn compare_markdown(c: &CompareReport) -> String {
    let mut s = String::new();
    let first = c
        .items
        .first()
        .map(|(_, o)| o.method)
        .unwrap_or(Method::Exact);
    let _ = writeln!(s, "**{}**\n", md_escape(&method_text(&c.title(), &first)));
    s.push_str(&markdown_table(&compare_table(c, true)));
    let summary = compare_summary(c);
    if !summary.is_empty() {
        s.push('\n');
        let mut rows = vec![
            std::iter::once("statistic".to_owned())
                .chain(c.items.iter().map(|(h, _)| h.clone()))
                .collect::<Vec<_>>(),
        ];
        for (k, values) in summary {
            rows.push(std::iter::once(k).chain(values).collect());
        }
        s.push_str(&markdown_table(&rows));
    }
    s
}

/// A sweep as rows of fields (percentages when `pretty`, full precision otherwise).
fn sweep_table(w: &SweepReport, pretty: bool) -> Vec<Vec<String>> {
    let simulated = matches!(w.method, Method::MonteCarlo { .. });
    let corner = match &w.column_label {
        Some(c) => format!("{}\\{c}", w.row_label),
        None => w.row_label.clone(),
    };
    let mut rows = vec![
        std::iter::once(corner)
            .chain(w.columns.iter().cloned())
            .collect(),
    ];
    for (r, line) in w.rows.iter().zip(&w.cells) {
        let mut row = vec![r.clone()];
        for cell in line {
            row.push(match cell {
                None if pretty => "-".to_owned(),
                None => String::new(),
                Some(c) if pretty && w.stat_key.starts_with("p_") => {
                    percent(c.value, if simulated { 1 } else { 2 })
                }
                Some(c) if pretty => format!("{:.3}", c.value),
                Some(c) => c.value.to_string(),
            });
        }
        rows.push(row);
    }
    rows
}

fn sweep_text(w: &SweepReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", method_text(&w.title(), &w.method));
    s.push_str(&aligned(&sweep_table(w, true), false));
    for n in &w.notes {
        let _ = writeln!(s, "{n}");
    }
    s
}

fn sweep_markdown(w: &SweepReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "**{}**\n",
        md_escape(&method_text(&w.title(), &w.method))
    );
    s.push_str(&markdown_table(&sweep_table(w, true)));
    for n in &w.notes {
        let _ = writeln!(s, "\n{}", md_escape(n));
    }
    s
}

/// The snake_case JSON key of an outcome name (`Very High` → `very_high`).
pub fn snake(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.is_empty() && !s.ends_with('_') {
            s.push('_');
        }
    }
    while s.ends_with('_') {
        s.pop();
    }
    s
}

/// A label from an outcome's `Display` text (key: its snake_case form).
pub fn label_of(outcome: &impl std::fmt::Display) -> Label {
    let text = outcome.to_string();
    Label::Name {
        key: snake(&text),
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The old way: the whole document as a `Value`, then one string.
    fn tree_json(report: &Report) -> String {
        let value = match report {
            Report::Roll(r) => r.to_json(),
            Report::Odds(o) => o.to_json(),
            Report::Compare(c) => c.to_json(),
            Report::Sweep(s) => s.to_json(),
        };
        format!("{}\n", serde_json::to_string_pretty(&value).unwrap())
    }

    fn streamed(report: &Report) -> String {
        let mut out = Vec::new();
        write_json(report, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn streamed_json_is_the_tree_json_byte_for_byte() {
        use crate::report::{Interval, Row};
        use crate::seed::Seed;
        use dice_core::{Die, Exact, Keep, Pool, Sum};

        let law = Sum::new(Pool::new(3, Die::D6).unwrap(), Keep::Highest(2), 0)
            .unwrap()
            .distribution()
            .unwrap();
        let exact = OddsReport::new("odds", "3d6kh2")
            .numeric(&law)
            .field("expression", "3d6kh2")
            .field("comparison", false)
            .summary("p_twelve", "twelve", 1.0 / 36.0);
        // Named rows, one with extra fields, a tail, a Monte Carlo run with intervals.
        let mut named = OddsReport::new("swimclass task", "rank 3 vs 4")
            .named(&law, |o, p| {
                let row = Row::new(Label::named(&format!("k_{o}"), format!("k {o}")), p);
                if *o == 7 { row.with("bonus", 2) } else { row }
            })
            .note("a note")
            .footnote("a footnote");
        named.tail = 1e-9;
        for r in &mut named.rows {
            r.interval = Some(Interval {
                count: 17,
                low: r.probability / 2.0,
                high: r.probability * 1.5,
            });
        }
        named.method = Method::MonteCarlo {
            seed: Seed {
                value: 42,
                given: true,
            },
            trials: 1_000,
            confidence: 0.95,
            standard_error: Some(0.25),
        };
        let mut simulated =
            OddsReport::new("odds", "1d6").numeric(&Die::D6.distribution().unwrap());
        simulated.method = named.method;
        if let Some(r) = simulated.rows.iter_mut().nth(2) {
            r.interval = Some(Interval {
                count: 3,
                low: 0.1,
                high: 0.3,
            });
        }
        let empty = OddsReport::new("odds", "nothing");
        let roll = Report::Roll(
            RollReport::new(
                "roll",
                Seed {
                    value: 7,
                    given: true,
                },
            )
            .line("1d6 [4] = 4"),
        );
        for report in [
            Report::Odds(exact),
            Report::Odds(named),
            Report::Odds(simulated),
            Report::Odds(empty),
            roll,
        ] {
            let streamed = streamed(&report);
            assert_eq!(streamed, tree_json(&report));
            assert_eq!(render(&report, Output::Json, View::Exactly), streamed);
            let _: Value = serde_json::from_str(&streamed).expect("valid JSON");
        }
    }

    /// Odds reports of every kind: long and trimmed, binned, named (one key needing CSV
    /// quotes), simulated with intervals on some rows, empty.
    fn odds_reports() -> Vec<OddsReport> {
        use crate::report::{Interval, Row};
        use crate::seed::Seed;
        use dice_core::{Die, Dist, Exact};

        // 1,000 outcomes, the first and last 40 under `NEGLIGIBLE`.
        let weight = |i: usize| {
            if !(40..960).contains(&i) {
                1e-9
            } else {
                (i % 5 + 1) as f64
            }
        };
        let total: f64 = (0..1_000).map(weight).sum();
        let long = Dist::from_consecutive(-3, (0..1_000).map(|i| weight(i) / total).collect(), 0.0)
            .unwrap();
        let d6 = Die::D6.distribution().unwrap();
        let mut simulated = OddsReport::new("odds", "1d6").numeric(&d6);
        for r in simulated.rows.iter_mut().skip(1) {
            r.interval = Some(Interval {
                count: 3,
                low: r.probability / 3.0,
                high: r.probability * 1.5,
            });
        }
        simulated.method = Method::MonteCarlo {
            seed: Seed {
                value: 9,
                given: true,
            },
            trials: 600,
            confidence: 0.95,
            standard_error: Some(0.1),
        };
        let named = OddsReport::new("game", "named").named(&d6, |o, p| {
            let key = if *o == 3 {
                "three, \"or so\"".to_owned()
            } else {
                format!("k{o}")
            };
            Row::new(Label::named(&key, key.replace('_', " ")), p)
        });
        let mut tailed = OddsReport::new("odds", "long, with a tail").numeric(&long);
        tailed.tail = 1e-6;
        vec![
            OddsReport::new("odds", "long").numeric(&long),
            OddsReport::new("odds", "d6").numeric(&d6),
            simulated,
            named,
            tailed,
            OddsReport::new("odds", "nothing"),
        ]
    }

    /// A text line's label, P(=), P(≥), P(≤) and interval.
    type LineFields = (String, f64, f64, f64, Option<(f64, f64)>);

    /// The table's lines as first written: from an array of the rows and an array of their
    /// cumulative chances.
    fn table_lines_from_arrays(o: &OddsReport) -> Vec<LineFields> {
        use crate::report::Row;
        let rows: Vec<Row> = o.rows.iter().map(std::borrow::Cow::into_owned).collect();
        let cumulative = o.cumulative();
        let (mut start, mut end) = (0, rows.len());
        if o.numeric {
            while start < end && rows[start].probability < NEGLIGIBLE {
                start += 1;
            }
            while end > start && rows[end - 1].probability < NEGLIGIBLE {
                end -= 1;
            }
        }
        let kept = end - start;
        let bin = if o.numeric && kept > MAX_TEXT_ROWS {
            kept.div_ceil(MAX_TEXT_ROWS / 2)
        } else {
            1
        };
        let mut lines = Vec::new();
        let mut i = start;
        while i < end {
            let j = (i + bin).min(end);
            let group = &rows[i..j];
            let label = if group.len() == 1 {
                group[0].label.text()
            } else {
                format!(
                    "{}..{}",
                    group[0].label.text(),
                    group[group.len() - 1].label.text()
                )
            };
            let interval = if group.len() == 1 {
                group[0].interval.map(|iv| (iv.low, iv.high))
            } else {
                None
            };
            let p: f64 = group.iter().map(|r| r.probability).sum();
            lines.push((label, p, cumulative[i].0, cumulative[j - 1].1, interval));
            i = j;
        }
        lines
    }

    #[test]
    fn streamed_csv_and_text_are_the_tables_as_first_made() {
        for o in odds_reports() {
            let mut out = Vec::new();
            write_odds_csv(&o, &mut out).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                csv(&odds_table(&o, false)),
                "{}",
                o.title
            );
            let mut out = Vec::new();
            write_odds_markdown(&o, &mut out).unwrap();
            let markdown = String::from_utf8(out).unwrap();
            assert!(
                markdown.contains(&markdown_table(&odds_table(&o, true))),
                "{}",
                o.title
            );
            let (lines, _) = table_lines(&o);
            let lines: Vec<_> = lines
                .into_iter()
                .map(|l| (l.label, l.probability, l.at_least, l.at_most, l.interval))
                .collect();
            assert_eq!(lines, table_lines_from_arrays(&o), "{}", o.title);
            let report = Report::Odds(o);
            for output in [Output::Json, Output::Csv, Output::Text, Output::Markdown] {
                let mut out = Vec::new();
                write(&report, output, View::AtLeast, &mut out).unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    render(&report, output, View::AtLeast)
                );
            }
        }
    }

    #[test]
    fn bars_scale_in_eighths() {
        assert_eq!(bar(1.0, 2), "██");
        assert_eq!(bar(0.5, 2), "█");
        assert_eq!(bar(1.0 / 16.0, 2), "▏");
        assert_eq!(bar(0.0, 2), "");
        assert_eq!(bar(1e-9, 2), "▏");
    }

    #[test]
    fn snake_case_keys() {
        assert_eq!(
            snake("success with consequences"),
            "success_with_consequences"
        );
        assert_eq!(snake("Very High"), "very_high");
        assert_eq!(snake("counter-attack"), "counter_attack");
    }
}
