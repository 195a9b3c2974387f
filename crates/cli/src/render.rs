//! Printing reports: text tables with a bar chart for people, one JSON object for programs.

use std::fmt::Write as _;

use crate::report::{Label, Method, OddsReport, Report, RollReport, Row};

/// How to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Tables and sentences.
    Text,
    /// One JSON object.
    Json,
}

/// Width of the longest bar, in terminal columns.
pub const BAR_WIDTH: usize = 40;

/// Rows with less than this probability at either end of a long table are left out of the
/// text (they would print as 0.0000%); `--json` lists every outcome.
const NEGLIGIBLE: f64 = 5e-7;

/// A text table longer than this is shown in bins of consecutive outcomes.
const MAX_TEXT_ROWS: usize = 120;

/// The report as text or JSON, ending with a newline.
pub fn render(report: &Report, output: Output) -> String {
    match output {
        Output::Json => {
            let value = match report {
                Report::Roll(r) => r.to_json(),
                Report::Odds(o) => o.to_json(),
            };
            // Serializing a `Value` cannot fail (its keys are strings); fall back to the
            // compact form all the same rather than panic.
            let mut s = serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string());
            s.push('\n');
            s
        }
        Output::Text => match report {
            Report::Roll(r) => roll_text(r),
            Report::Odds(o) => odds_text(o),
        },
    }
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
    interval: Option<(f64, f64)>,
}

fn odds_text(o: &OddsReport) -> String {
    let mut s = String::new();
    let how = match o.method {
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
    let _ = writeln!(s, "{}: {how}", o.title);
    for n in &o.notes {
        let _ = writeln!(s, "{n}");
    }
    let simulated = matches!(o.method, Method::MonteCarlo { .. });
    let decimals = if simulated { 3 } else { 4 };

    let (lines, skipped) = table_lines(o);
    let label_w = lines
        .iter()
        .map(|l| l.label.chars().count())
        .chain(["outcome".len()])
        .max()
        .unwrap_or(7);
    let pct_w = lines
        .iter()
        .map(|l| percent(l.probability, decimals).len())
        .chain(["chance".len()])
        .max()
        .unwrap_or(6);
    let at_w = lines
        .iter()
        .map(|l| percent(l.at_least, decimals).len())
        .chain(["at least".len()])
        .max()
        .unwrap_or(8);
    let max_p = lines.iter().map(|l| l.probability).fold(0.0, f64::max);
    let interval_text = |l: &Line| {
        l.interval.map_or(String::new(), |(lo, hi)| {
            format!("[{}, {}]", percent(lo, decimals), percent(hi, decimals))
        })
    };
    let iv_w = lines
        .iter()
        .map(|l| interval_text(l).len())
        .chain([if simulated { "interval".len() } else { 0 }])
        .max()
        .unwrap_or(0);

    let mut header = if o.numeric {
        format!("{:>label_w$}", "outcome")
    } else {
        format!("{:<label_w$}", "outcome")
    };
    header.push_str(&format!("  {:>pct_w$}", "chance"));
    if o.numeric {
        header.push_str(&format!("  {:>at_w$}", "at least"));
    }
    if simulated {
        header.push_str(&format!("  {:<iv_w$}", "interval"));
    }
    let _ = writeln!(s, "{}", header.trim_end());
    for l in &lines {
        let mut row = if o.numeric {
            format!("{:>label_w$}", l.label)
        } else {
            format!("{:<label_w$}", l.label)
        };
        row.push_str(&format!("  {:>pct_w$}", percent(l.probability, decimals)));
        if o.numeric {
            row.push_str(&format!("  {:>at_w$}", percent(l.at_least, decimals)));
        }
        if simulated {
            row.push_str(&format!("  {:<iv_w$}", interval_text(l)));
        }
        let fraction = if max_p > 0.0 {
            l.probability / max_p
        } else {
            0.0
        };
        row.push_str("  ");
        row.push_str(&bar(fraction, BAR_WIDTH));
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
    for sm in &o.summary {
        let _ = writeln!(s, "P({}) = {}", sm.text, percent(sm.value, decimals));
    }
    for f in &o.footer {
        let _ = writeln!(s, "{f}");
    }
    s
}

/// The lines of the table: negligible rows at the ends of a long numeric table dropped, and
/// consecutive rows binned when it is still too long. Returns the lines and how many rows
/// were dropped.
fn table_lines(o: &OddsReport) -> (Vec<Line>, usize) {
    let rows: &[Row] = &o.rows;
    let total: f64 = rows.iter().map(|r| r.probability).sum::<f64>() + o.tail;
    let mut at_least = Vec::with_capacity(rows.len());
    let mut acc = total;
    for r in rows {
        at_least.push(acc.clamp(0.0, 1.0));
        acc -= r.probability;
    }
    let (mut start, mut end) = (0, rows.len());
    if o.numeric {
        while start < end && rows[start].probability < NEGLIGIBLE {
            start += 1;
        }
        while end > start && rows[end - 1].probability < NEGLIGIBLE {
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
        let probability = group.iter().map(|r| r.probability).sum();
        let interval = if group.len() == 1 {
            group[0].interval.map(|iv| (iv.low, iv.high))
        } else {
            None
        };
        lines.push(Line {
            label,
            probability,
            at_least: at_least[i],
            interval,
        });
        i = j;
    }
    (lines, skipped)
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
