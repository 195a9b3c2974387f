//! `--plot FILE`: the report as a chart, SVG or PNG. Bars for one law (with the Monte Carlo
//! intervals as error bars), grouped bars or lines for several, a heatmap for a sweep over
//! two options (a line over one), and the distribution of rounds of a fight (exact, or
//! estimated with intervals).
//!
//! The SVG is written by hand rather than with a plotting crate: the four charts take a few
//! hundred lines, need no dependency (plotters' SVG backend, without a font library, only
//! guesses text widths too, and its PNG backend needs a font file), and the output is the
//! same byte for byte on every machine, so the pictures in docs/images can be checked by
//! the documented-commands test like any other output. Text is left to the viewer's
//! sans-serif font.
//!
//! A PNG is that same SVG drawn into pixels by resvg (pure Rust, feature `png`, off by
//! default), at twice its size, with the DejaVu Sans fonts built into the binary
//! (`fonts/`, with their licence): no system font is looked up, so a PNG too is the same
//! picture everywhere.

use std::fmt::Write as _;

use serde_json::Value;

use crate::error::CliError;
use crate::render::View;
use crate::report::{CompareReport, Label, Method, OddsReport, Report, SweepReport};

/// Width and height of a chart, in pixels.
const WIDTH: f64 = 820.0;
const HEIGHT: f64 = 480.0;
/// Room for the axes' labels and the title.
const LEFT: f64 = 80.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 70.0;
const RIGHT: f64 = 30.0;
/// Room on the right for a legend or a colour bar.
const LEGEND: f64 = 170.0;

/// Colours of the series (Tableau 10).
const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// The picture formats `--plot` writes, by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.svg`: the chart as an SVG document.
    Svg,
    /// `.png`: the same chart drawn into pixels (needs the `png` feature).
    Png,
}

impl Format {
    /// The format a file name asks for, by its extension (any case).
    ///
    /// # Errors
    /// [`CliError::BadInput`] for any other extension.
    ///
    /// ```text
    /// Format::of("chart.PNG") → Ok(Format::Png)      Format::of("chart.pdf") → Err(…)
    /// ```
    pub fn of(path: &std::path::Path) -> Result<Format, CliError> {
        let ext = path
            .extension()
            .and_then(|x| x.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(CliError::bad_input(format_args!(
                "--plot writes SVG or PNG: name the file something.svg or something.png, not {}",
                path.display()
            ))),
        }
    }
}

/// Writes the chart of `report` to `path`, SVG or PNG by its extension.
///
/// # Errors
/// [`CliError::BadInput`] for a file name that does not end in `.svg` or `.png`, a PNG
/// from a build without the `png` feature, or a roll (nothing to chart);
/// [`CliError::Failure`] when the file cannot be written.
pub fn write(path: &std::path::Path, report: &Report, view: View) -> Result<(), CliError> {
    let format = Format::of(path)?;
    let svg = svg(report, view)?;
    let bytes = match format {
        Format::Svg => svg.into_bytes(),
        Format::Png => png(&svg)?,
    };
    std::fs::write(path, bytes)
        .map_err(|e| CliError::Failure(format!("cannot write the plot {}: {e}", path.display())))
}

/// DejaVu Sans and DejaVu Sans Bold (Bitstream Vera licence, `fonts/LICENSE-DejaVu`).
#[cfg(feature = "png")]
const FONTS: [&[u8]; 2] = [
    include_bytes!("../fonts/DejaVuSans.ttf"),
    include_bytes!("../fonts/DejaVuSans-Bold.ttf"),
];

/// How many PNG pixels per SVG pixel: twice, for a sharp picture on a dense screen.
#[cfg(feature = "png")]
const PNG_SCALE: f32 = 2.0;

/// An SVG chart drawn into a PNG, its text in the built-in DejaVu Sans.
///
/// # Errors
/// [`CliError::Failure`] when the SVG cannot be read or the picture not made (neither is
/// expected for the charts of this module).
#[cfg(feature = "png")]
pub fn png(svg: &str) -> Result<Vec<u8>, CliError> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options {
        font_family: "DejaVu Sans".to_owned(),
        ..usvg::Options::default()
    };
    let fonts = options.fontdb_mut();
    for font in FONTS {
        fonts.load_font_data(font.to_vec());
    }
    fonts.set_sans_serif_family("DejaVu Sans");
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| CliError::Failure(format!("cannot read the chart's SVG: {e}")))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * PNG_SCALE).ceil() as u32,
        (size.height() * PNG_SCALE).ceil() as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| CliError::Failure(format!("cannot make a {w}×{h} picture")))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| CliError::Failure(format!("cannot encode the PNG: {e}")))
}

/// Without the `png` feature: PNG is refused, with what to do instead.
///
/// # Errors
/// Always [`CliError::BadInput`].
#[cfg(not(feature = "png"))]
pub fn png(_svg: &str) -> Result<Vec<u8>, CliError> {
    Err(CliError::bad_input(
        "this dice was built without PNG charts: name the file something.svg, or build dice with the cargo feature `png` (from a clone of the repository: cargo install --path crates/cli --features png)",
    ))
}

/// The chart of `report` as an SVG document.
///
/// # Errors
/// [`CliError::BadInput`] for a roll: it has no odds to chart.
pub fn svg(report: &Report, view: View) -> Result<String, CliError> {
    match report {
        Report::Roll(_) => Err(CliError::bad_input(
            "--plot charts odds: add --odds (or --monte-carlo) to the roll",
        )),
        Report::Odds(o) => Ok(match fight_rounds(o) {
            Some(rounds) => rounds_chart(o, &rounds),
            None => odds_chart(o, view),
        }),
        Report::Compare(c) => Ok(compare_chart(c, view)),
        Report::Sweep(s) => Ok(if s.column_label.is_some() {
            heatmap(s)
        } else {
            sweep_line(s)
        }),
    }
}

/// Text safe in SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The font size of a title: 17 px, smaller for a title too long to fit the chart's width
/// at that size (a bold sans-serif letter is about 0.62 em wide), never below 10 px.
fn title_size(title: &str) -> f64 {
    let room = WIDTH - 20.0;
    let letters = title.chars().count().max(1) as f64;
    (room / (0.62 * letters)).clamp(10.0, 17.0).floor()
}

/// A round tick step for an axis reaching `max`: 1, 2, 2.5 or 5 times a power of ten,
/// about five ticks.
fn tick_step(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let raw = max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let unit = raw / magnitude;
    let unit = unit - 1e-9;
    let nice = if unit <= 1.0 {
        1.0
    } else if unit <= 2.0 {
        2.0
    } else if unit <= 2.5 {
        2.5
    } else if unit <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// `12.5%` for a tick of a probability axis with step `step`.
fn percent_tick(v: f64, step: f64) -> String {
    let decimals = if step * 100.0 >= 1.0 {
        if (step * 100.0).fract().abs() > 1e-9 {
            1
        } else {
            0
        }
    } else {
        (-(step * 100.0).log10().floor()) as usize + 1
    };
    format!("{:.*}%", decimals, v * 100.0)
}

/// An SVG document being drawn: the frame, the axes and the title.
struct Chart {
    svg: String,
    /// The plot area: left, top, width, height.
    x0: f64,
    y0: f64,
    w: f64,
    h: f64,
    /// The value at the top of the y axis.
    y_max: f64,
}

impl Chart {
    /// A chart with its title, an x-axis label and a y axis from 0 to `y_max` (rounded up
    /// to a tick); `legend` leaves room on the right.
    fn new(
        title: &str,
        x_label: &str,
        y_label: &str,
        y_max: f64,
        percent: bool,
        legend: bool,
    ) -> Chart {
        let step = tick_step(y_max);
        let y_max = ((y_max / step).ceil() * step).max(step);
        let right = if legend { LEGEND } else { RIGHT };
        let mut c = Chart {
            svg: String::new(),
            x0: LEFT,
            y0: TOP,
            w: WIDTH - LEFT - right,
            h: HEIGHT - TOP - BOTTOM,
            y_max,
        };
        let _ = writeln!(
            c.svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
        );
        let _ = writeln!(c.svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            c.svg,
            r#"<text x="{}" y="28" font-size="{}" text-anchor="middle" font-weight="bold">{}</text>"#,
            WIDTH / 2.0,
            title_size(title),
            esc(title)
        );
        // Grid lines and y ticks.
        let mut v = 0.0;
        while v <= y_max + step * 1e-9 {
            let y = c.y(v);
            let _ = writeln!(
                c.svg,
                r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#dddddd"/>"##,
                c.x0,
                c.x0 + c.w
            );
            let label = if percent {
                percent_tick(v, step)
            } else {
                format!("{}", (v * 1e6).round() / 1e6)
            };
            let _ = writeln!(
                c.svg,
                r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{label}</text>"#,
                c.x0 - 6.0,
                y + 4.0
            );
            v += step;
        }
        // Axes and their labels.
        let _ = writeln!(
            c.svg,
            r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="black"/>"#,
            c.y0,
            c.y0 + c.h,
            x = c.x0
        );
        let _ = writeln!(
            c.svg,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="black"/>"#,
            c.x0,
            c.x0 + c.w,
            y = c.y0 + c.h
        );
        let _ = writeln!(
            c.svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle">{}</text>"#,
            c.x0 + c.w / 2.0,
            HEIGHT - 18.0,
            esc(x_label)
        );
        let _ = writeln!(
            c.svg,
            r#"<text transform="translate(22 {:.1}) rotate(-90)" font-size="14" text-anchor="middle">{}</text>"#,
            c.y0 + c.h / 2.0,
            esc(y_label)
        );
        c
    }

    /// The y coordinate of a value.
    fn y(&self, v: f64) -> f64 {
        self.y0 + self.h - (v / self.y_max).clamp(0.0, 1.0) * self.h
    }

    /// Numeric outcomes' labels under `n` slots (every k-th when there are many; named
    /// outcomes are drawn as [`category_chart`]s, every label shown).
    fn x_labels(&mut self, labels: &[String]) {
        let n = labels.len().max(1);
        let slot = self.w / n as f64;
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1) as f64;
        let every = ((longest * 7.5 + 6.0) / slot).ceil().max(1.0) as usize;
        for (i, l) in labels.iter().enumerate() {
            if i % every != 0 {
                continue;
            }
            let x = self.x0 + slot * (i as f64 + 0.5);
            let _ = writeln!(
                self.svg,
                r#"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
                self.y0 + self.h + 18.0,
                esc(l)
            );
        }
    }

    /// A legend of coloured names on the right.
    fn legend(&mut self, names: &[String]) {
        let x = self.x0 + self.w + 16.0;
        for (i, name) in names.iter().enumerate() {
            let y = self.y0 + 10.0 + 22.0 * i as f64;
            let _ = writeln!(
                self.svg,
                r#"<rect x="{x:.1}" y="{:.1}" width="14" height="14" fill="{}"/>"#,
                y - 11.0,
                PALETTE[i % PALETTE.len()]
            );
            let _ = writeln!(
                self.svg,
                r#"<text x="{:.1}" y="{y:.1}" font-size="13">{}</text>"#,
                x + 20.0,
                esc(name)
            );
        }
    }

    fn end(mut self) -> String {
        self.svg.push_str("</svg>\n");
        self.svg
    }
}

/// What the y axis shows for `view`.
fn view_label(view: View) -> &'static str {
    match view {
        View::Exactly => "probability",
        View::AtLeast => "probability of at least",
        View::AtMost => "probability of at most",
    }
}

/// The title of a chart: the report's, and how it was had.
fn title_of(title: &str, method: &Method) -> String {
    match method {
        Method::Exact => title.to_owned(),
        Method::MonteCarlo { trials, .. } => format!("{title} (Monte Carlo, {trials} trials)"),
    }
}

/// One series of a chart of named outcomes: its name, and per category its value and
/// Monte Carlo interval (a value `None` draws no bar).
struct Series {
    name: String,
    values: Vec<Option<f64>>,
    intervals: Vec<Option<(f64, f64)>>,
}

/// Widest a category's label may be, in characters; a longer one is cut with `…` (its
/// bar's tooltip keeps it whole).
const MAX_LABEL: usize = 48;

/// About how wide a character of the 12 px labels is, in pixels (DejaVu Sans averages a
/// little over half an em).
const LABEL_CHAR: f64 = 6.9;

/// A label cut to [`MAX_LABEL`] characters.
fn short_label(l: &str) -> String {
    if l.chars().count() <= MAX_LABEL {
        l.to_owned()
    } else {
        let mut s: String = l.chars().take(MAX_LABEL - 1).collect();
        s.push('…');
        s
    }
}

/// Horizontal bars for named outcomes: one row per category, its label written whole on
/// the left, where labels under upright bars would overlap. The chart grows taller with
/// the rows (at least 22 px each), so every label shows; several series are grouped in a
/// row, with a legend on the right.
fn category_chart(title: &str, categories: &[String], series: &[Series]) -> String {
    let legend = series.len() > 1;
    let max = series
        .iter()
        .flat_map(|s| {
            s.values
                .iter()
                .zip(&s.intervals)
                .map(|(v, iv)| iv.map_or(v.unwrap_or(0.0), |(_, high)| high))
        })
        .fold(0.0, f64::max);
    let step = tick_step(max);
    let x_max = ((max / step).ceil() * step).max(step);
    let labels: Vec<String> = categories.iter().map(|l| short_label(l)).collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1) as f64;
    let left = (longest * LABEL_CHAR + 16.0).max(LEFT);
    let right = if legend { LEGEND } else { RIGHT };
    let n = categories.len().max(1);
    let row = (12.0 * series.len() as f64 + 10.0).max(22.0);
    let height = (TOP + BOTTOM + row * n as f64).max(HEIGHT).ceil();
    let (x0, y0) = (left, TOP);
    let (w, h) = (WIDTH - left - right, height - TOP - BOTTOM);
    let row = h / n as f64;
    let x_of = |v: f64| x0 + (v / x_max).clamp(0.0, 1.0) * w;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="28" font-size="{}" text-anchor="middle" font-weight="bold">{}</text>"#,
        WIDTH / 2.0,
        title_size(title),
        esc(title)
    );
    // Grid lines and the probability ticks under the plot.
    let mut v = 0.0;
    while v <= x_max + step * 1e-9 {
        let x = x_of(v);
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.1}" y1="{y0:.1}" x2="{x:.1}" y2="{:.1}" stroke="#dddddd"/>"##,
            y0 + h
        );
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
            y0 + h + 18.0,
            percent_tick(v, step)
        );
        v += step;
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle">probability</text>"#,
        x0 + w / 2.0,
        height - 18.0
    );
    let group = row * 0.8;
    let bar = group / series.len().max(1) as f64;
    for (i, label) in labels.iter().enumerate() {
        let top = y0 + row * i as f64 + (row - group) / 2.0;
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{}</text>"#,
            x0 - 6.0,
            y0 + row * (i as f64 + 0.5) + 4.0,
            esc(label)
        );
        for (s, one) in series.iter().enumerate() {
            let Some(v) = one.values.get(i).copied().flatten() else {
                continue;
            };
            let y = top + bar * s as f64;
            let name = if legend {
                format!("{}, {}", one.name, categories[i])
            } else {
                categories[i].clone()
            };
            let _ = writeln!(
                svg,
                r#"<rect x="{x0:.1}" y="{y:.1}" width="{:.1}" height="{bar:.1}" fill="{}"><title>{}: {:.4}%</title></rect>"#,
                x_of(v) - x0,
                PALETTE[s % PALETTE.len()],
                esc(&name),
                v * 100.0
            );
            if let Some((low, high)) = one.intervals.get(i).copied().flatten() {
                let (lo, hi, cy) = (x_of(low), x_of(high), y + bar / 2.0);
                let _ = writeln!(
                    svg,
                    r#"<path d="M{lo:.1} {cy:.1}H{hi:.1}M{lo:.1} {:.1}v{:.1}M{hi:.1} {:.1}v{:.1}" stroke="black" fill="none"/>"#,
                    cy - bar / 4.0,
                    bar / 2.0,
                    cy - bar / 4.0,
                    bar / 2.0
                );
            }
        }
    }
    // The axes: the categories' on the left, the probabilities' at the bottom.
    let _ = writeln!(
        svg,
        r#"<line x1="{x0:.1}" y1="{y0:.1}" x2="{x0:.1}" y2="{:.1}" stroke="black"/>"#,
        y0 + h
    );
    let _ = writeln!(
        svg,
        r#"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="black"/>"#,
        x0 + w,
        y = y0 + h
    );
    if legend {
        let x = x0 + w + 16.0;
        for (i, one) in series.iter().enumerate() {
            let y = y0 + 10.0 + 22.0 * i as f64;
            let _ = writeln!(
                svg,
                r#"<rect x="{x:.1}" y="{:.1}" width="14" height="14" fill="{}"/>"#,
                y - 11.0,
                PALETTE[i % PALETTE.len()]
            );
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{y:.1}" font-size="13">{}</text>"#,
                x + 20.0,
                esc(&one.name)
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

fn odds_chart(o: &OddsReport, view: View) -> String {
    if !o.numeric {
        let categories: Vec<String> = o.rows.iter().map(|r| r.label.text()).collect();
        let one = Series {
            name: String::new(),
            values: o.rows.iter().map(|r| Some(r.probability)).collect(),
            intervals: o
                .rows
                .iter()
                .map(|r| r.interval.map(|iv| (iv.low, iv.high)))
                .collect(),
        };
        return category_chart(&title_of(&o.title, &o.method), &categories, &[one]);
    }
    let values: Vec<f64> = o
        .rows
        .iter()
        .zip(o.cumulative())
        .map(|(r, (ge, le))| view.pick(r.probability, ge, le))
        .collect();
    let highs: Vec<f64> = o
        .rows
        .iter()
        .zip(&values)
        .map(|(r, &v)| match (view, r.interval) {
            (View::Exactly, Some(iv)) => iv.high,
            _ => v,
        })
        .collect();
    let max = highs.iter().copied().fold(0.0, f64::max);
    let x_label = if o.numeric { "outcome" } else { "" };
    let mut c = Chart::new(
        &title_of(&o.title, &o.method),
        x_label,
        view_label(view),
        max,
        true,
        false,
    );
    let n = o.rows.len().max(1);
    let slot = c.w / n as f64;
    let bar = (slot * 0.8).max(1.0);
    for (i, (r, &v)) in o.rows.iter().zip(&values).enumerate() {
        let x = c.x0 + slot * i as f64 + (slot - bar) / 2.0;
        let y = c.y(v);
        let _ = writeln!(
            c.svg,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{bar:.1}" height="{:.1}" fill="{}"><title>{}: {:.4}%</title></rect>"#,
            c.y0 + c.h - y,
            PALETTE[0],
            esc(&r.label.text()),
            v * 100.0
        );
        if let (View::Exactly, Some(iv)) = (view, r.interval) {
            error_bar(&mut c, x + bar / 2.0, bar, iv.low, iv.high);
        }
    }
    let labels: Vec<String> = o.rows.iter().map(|r| r.label.text()).collect();
    c.x_labels(&labels);
    c.end()
}

/// One bar of a fight's rounds: the rounds, their probability, and for a Monte Carlo run
/// the interval.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RoundsBar {
    rounds: i64,
    p: f64,
    interval: Option<(f64, f64)>,
}

/// A fight's distribution of rounds, from its report's `rounds` field (exact, or estimated
/// with intervals by a Monte Carlo run).
fn fight_rounds(o: &OddsReport) -> Option<Vec<RoundsBar>> {
    if !o.command.ends_with("fight") {
        return None;
    }
    let Value::Array(rows) = o.fields.get("rounds")? else {
        return None;
    };
    let all: Option<Vec<RoundsBar>> = rows
        .iter()
        .map(|r| {
            Some(RoundsBar {
                rounds: r["rounds"].as_i64()?,
                p: r["probability"].as_f64()?,
                interval: r["low"].as_f64().zip(r["high"].as_f64()),
            })
        })
        .collect();
    // Up to 99.95% of the fights: the long tail beyond would only flatten the bars.
    let mut all = all?;
    let mut acc = 0.0;
    if let Some(cut) = all.iter().position(|b| {
        acc += b.p;
        acc >= 0.9995
    }) {
        all.truncate(cut + 1);
    }
    Some(all)
}

fn rounds_chart(o: &OddsReport, rounds: &[RoundsBar]) -> String {
    let max = rounds
        .iter()
        .map(|b| b.interval.map_or(b.p, |iv| iv.1))
        .fold(0.0, f64::max);
    let ends: Vec<String> = o
        .rows
        .iter()
        .map(|r| format!("{} {:.1}%", r.label.text(), r.probability * 100.0))
        .collect();
    let mut c = Chart::new(
        &title_of(
            &format!("{}: rounds until the fight ends", o.title),
            &o.method,
        ),
        "rounds",
        "probability",
        max,
        true,
        true,
    );
    let n = rounds.len().max(1);
    let slot = c.w / n as f64;
    let bar = (slot * 0.8).max(1.0);
    for (i, b) in rounds.iter().enumerate() {
        let x = c.x0 + slot * i as f64 + (slot - bar) / 2.0;
        let y = c.y(b.p);
        let _ = writeln!(
            c.svg,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{bar:.1}" height="{:.1}" fill="{}"><title>{} rounds: {:.4}%</title></rect>"#,
            c.y0 + c.h - y,
            PALETTE[0],
            b.rounds,
            b.p * 100.0
        );
        if let Some((low, high)) = b.interval {
            error_bar(&mut c, x + bar / 2.0, bar, low, high);
        }
    }
    let labels: Vec<String> = rounds.iter().map(|b| b.rounds.to_string()).collect();
    c.x_labels(&labels);
    // The ends as a legend without colours.
    let x = c.x0 + c.w + 16.0;
    let _ = writeln!(
        c.svg,
        r#"<text x="{x:.1}" y="{:.1}" font-size="13" font-weight="bold">who wins</text>"#,
        c.y0 + 6.0
    );
    for (i, e) in ends.iter().enumerate() {
        let _ = writeln!(
            c.svg,
            r#"<text x="{x:.1}" y="{:.1}" font-size="12">{}</text>"#,
            c.y0 + 26.0 + 18.0 * i as f64,
            esc(e)
        );
    }
    c.end()
}

/// An interval drawn as an error bar centred on `cx`, as wide as half a bar.
fn error_bar(c: &mut Chart, cx: f64, bar: f64, low: f64, high: f64) {
    let (lo, hi) = (c.y(low), c.y(high));
    let _ = writeln!(
        c.svg,
        r#"<path d="M{cx:.1} {lo:.1}V{hi:.1}M{:.1} {lo:.1}h{:.1}M{:.1} {hi:.1}h{:.1}" stroke="black" fill="none"/>"#,
        cx - bar / 4.0,
        bar / 2.0,
        cx - bar / 4.0,
        bar / 2.0
    );
}

fn compare_chart(cr: &CompareReport, view: View) -> String {
    let numeric = cr.numeric();
    let view = if numeric { view } else { View::Exactly };
    let outcomes = cr.outcomes();
    // values[series][outcome]
    let values: Vec<Vec<Option<f64>>> = cr
        .items
        .iter()
        .map(|(_, o)| {
            let cumulative = o.cumulative();
            outcomes
                .iter()
                .map(
                    |label| match o.rows.iter().enumerate().find(|(_, r)| &r.label == label) {
                        Some((i, r)) => {
                            Some(view.pick(r.probability, cumulative[i].0, cumulative[i].1))
                        }
                        None => match (view, label) {
                            (View::Exactly, _) => Some(0.0),
                            (_, Label::Name { .. }) => None,
                            (_, Label::Number(n)) => {
                                let le: f64 = o
                                    .rows
                                    .iter()
                                    .filter(|r| matches!(r.label, Label::Number(m) if m < *n))
                                    .map(|r| r.probability)
                                    .sum();
                                Some(if view == View::AtMost { le } else { 1.0 - le })
                            }
                        },
                    },
                )
                .collect()
        })
        .collect();
    let max = values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .fold(0.0, f64::max);
    let method = cr.items.first().map_or(Method::Exact, |(_, o)| o.method);
    if !numeric {
        let categories: Vec<String> = outcomes.iter().map(Label::text).collect();
        let series: Vec<Series> = cr
            .items
            .iter()
            .zip(values)
            .map(|((h, _), values)| Series {
                name: h.clone(),
                intervals: vec![None; values.len()],
                values,
            })
            .collect();
        return category_chart(&title_of(&cr.title(), &method), &categories, &series);
    }
    let mut c = Chart::new(
        &title_of(&cr.title(), &method),
        if numeric { "outcome" } else { "" },
        view_label(view),
        max,
        true,
        true,
    );
    let n = outcomes.len().max(1);
    let slot = c.w / n as f64;
    let series = cr.items.len().max(1);
    let bars = !numeric || n * series <= 60;
    if bars {
        let group = slot * 0.85;
        let bar = (group / series as f64).max(1.0);
        for (s, line) in values.iter().enumerate() {
            for (i, v) in line.iter().enumerate() {
                let Some(v) = *v else { continue };
                let x = c.x0 + slot * i as f64 + (slot - group) / 2.0 + bar * s as f64;
                let y = c.y(v);
                let _ = writeln!(
                    c.svg,
                    r#"<rect x="{x:.1}" y="{y:.1}" width="{bar:.1}" height="{:.1}" fill="{}"><title>{}, {}: {:.4}%</title></rect>"#,
                    c.y0 + c.h - y,
                    PALETTE[s % PALETTE.len()],
                    esc(&cr.items[s].0),
                    esc(&outcomes[i].text()),
                    v * 100.0
                );
            }
        }
    } else {
        for (s, line) in values.iter().enumerate() {
            let mut d = String::new();
            for (i, v) in line.iter().enumerate() {
                let Some(v) = *v else { continue };
                let x = c.x0 + slot * (i as f64 + 0.5);
                let _ = write!(
                    d,
                    "{}{x:.1} {:.1}",
                    if d.is_empty() { "M" } else { "L" },
                    c.y(v)
                );
            }
            let _ = writeln!(
                c.svg,
                r#"<path d="{d}" stroke="{}" stroke-width="2.5" fill="none"/>"#,
                PALETTE[s % PALETTE.len()]
            );
        }
    }
    let labels: Vec<String> = outcomes.iter().map(Label::text).collect();
    c.x_labels(&labels);
    let names: Vec<String> = cr.items.iter().map(|(h, _)| h.clone()).collect();
    c.legend(&names);
    c.end()
}

/// Viridis, by linear interpolation between five of its colours; `t` in 0..=1.
fn viridis(t: f64) -> (u8, u8, u8) {
    const STOPS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let t = t.clamp(0.0, 1.0) * 4.0;
    let i = (t.floor() as usize).min(3);
    let f = t - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The colour-bar range of a sweep: 0..1 for probabilities, the values' range otherwise.
fn sweep_range(s: &SweepReport) -> (f64, f64, bool) {
    let probability = s.stat_key.starts_with("p_");
    if probability {
        return (0.0, 1.0, true);
    }
    let values = s.cells.iter().flatten().flatten().map(|c| c.value);
    let lo = values.clone().fold(f64::INFINITY, f64::min);
    let hi = values.fold(f64::NEG_INFINITY, f64::max);
    if lo.is_finite() && hi > lo {
        (lo, hi, false)
    } else {
        (lo.min(0.0), lo.max(0.0) + 1.0, false)
    }
}

/// How close to 0 or 1 a chance must be to be shown as 0% or 100%: the exact laws'
/// documented accuracy (1e-12 relative).
const CERTAIN: f64 = 1e-12;

fn cell_text(v: f64, probability: bool) -> String {
    if probability {
        // Whole percents, but never a rounded 0% or 100% for a chance that is not.
        let pc = v * 100.0;
        // A chance within 10⁻¹² of 0 or 1 is 0 or 1 up to the exact laws' accuracy (a
        // sum of a few hundred rounded products misses 1 by a few 10⁻¹⁶): it is no "<1%".
        if (1.0 - v).abs() <= CERTAIN {
            "100%".to_owned()
        } else if v.abs() <= CERTAIN {
            "0%".to_owned()
        } else if pc > 99.5 && pc < 100.0 {
            ">99%".to_owned()
        } else if pc > 0.0 && pc < 0.5 {
            "<1%".to_owned()
        } else {
            format!("{pc:.0}%")
        }
    } else {
        format!("{v:.2}")
    }
}

fn heatmap(s: &SweepReport) -> String {
    let (lo, hi, probability) = sweep_range(s);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="28" font-size="{}" text-anchor="middle" font-weight="bold">{}</text>"#,
        WIDTH / 2.0,
        title_size(&title_of(&s.title(), &s.method)),
        esc(&title_of(&s.title(), &s.method))
    );
    let (x0, y0) = (LEFT, TOP);
    let (w, h) = (WIDTH - LEFT - LEGEND, HEIGHT - TOP - BOTTOM);
    let rows = s.rows.len().max(1);
    let cols = s.columns.len().max(1);
    let (cw, ch) = (w / cols as f64, h / rows as f64);
    let show_values = cw >= 34.0 && ch >= 16.0;
    for (i, line) in s.cells.iter().enumerate() {
        // The first row at the bottom, as on a chart.
        let y = y0 + h - ch * (i as f64 + 1.0);
        for (j, cell) in line.iter().enumerate() {
            let x = x0 + cw * j as f64;
            match cell {
                Some(cell) => {
                    let t = (cell.value - lo) / (hi - lo);
                    let (r, g, b) = viridis(t);
                    let _ = writeln!(
                        svg,
                        r#"<rect x="{x:.1}" y="{y:.1}" width="{cw:.1}" height="{ch:.1}" fill="rgb({r},{g},{b})" stroke="white"><title>{} {}, {} {}: {}</title></rect>"#,
                        esc(&s.row_label),
                        esc(&s.rows[i]),
                        esc(s.column_label.as_deref().unwrap_or("")),
                        esc(&s.columns[j]),
                        cell_text(cell.value, probability)
                    );
                    if show_values {
                        let ink = if t < 0.6 { "white" } else { "black" };
                        let _ = writeln!(
                            svg,
                            r#"<text x="{:.1}" y="{:.1}" font-size="{:.0}" text-anchor="middle" fill="{ink}">{}</text>"#,
                            x + cw / 2.0,
                            y + ch / 2.0 + 4.0,
                            (ch * 0.45).clamp(9.0, 13.0),
                            cell_text(cell.value, probability)
                        );
                    }
                }
                None => {
                    let _ = writeln!(
                        svg,
                        r##"<rect x="{x:.1}" y="{y:.1}" width="{cw:.1}" height="{ch:.1}" fill="#eeeeee" stroke="white"/>"##
                    );
                }
            }
        }
    }
    // Axis labels: row values on the left, column values below.
    for (i, r) in s.rows.iter().enumerate() {
        let y = y0 + h - ch * (i as f64 + 0.5) + 4.0;
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{y:.1}" font-size="12" text-anchor="end">{}</text>"#,
            x0 - 6.0,
            esc(r)
        );
    }
    for (j, c) in s.columns.iter().enumerate() {
        let x = x0 + cw * (j as f64 + 0.5);
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
            y0 + h + 18.0,
            esc(c)
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle">{}</text>"#,
        x0 + w / 2.0,
        HEIGHT - 18.0,
        esc(s.column_label.as_deref().unwrap_or(""))
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(22 {:.1}) rotate(-90)" font-size="14" text-anchor="middle">{}</text>"#,
        y0 + h / 2.0,
        esc(&s.row_label)
    );
    // The colour bar.
    let bx = x0 + w + 40.0;
    let _ = writeln!(
        svg,
        r#"<defs><linearGradient id="scale" x1="0" y1="1" x2="0" y2="0">"#
    );
    for k in 0..=8 {
        let t = f64::from(k) / 8.0;
        let (r, g, b) = viridis(t);
        let _ = writeln!(
            svg,
            r#"<stop offset="{t:.3}" stop-color="rgb({r},{g},{b})"/>"#
        );
    }
    let _ = writeln!(svg, "</linearGradient></defs>");
    let _ = writeln!(
        svg,
        r#"<rect x="{bx:.1}" y="{y0:.1}" width="22" height="{h:.1}" fill="url(#scale)"/>"#
    );
    for k in 0..=4 {
        let t = k as f64 / 4.0;
        let y = y0 + h - h * t;
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="12">{}</text>"#,
            bx + 28.0,
            y + 4.0,
            cell_text(lo + (hi - lo) * t, probability)
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{bx:.1}" y="{:.1}" font-size="13">{}</text>"#,
        y0 - 8.0,
        esc(&s.stat)
    );
    svg.push_str("</svg>\n");
    svg
}

fn sweep_line(s: &SweepReport) -> String {
    let (lo, hi, probability) = sweep_range(s);
    let values: Vec<Option<f64>> = s
        .cells
        .iter()
        .map(|r| r.first().copied().flatten().map(|c| c.value))
        .collect();
    let top = if probability { hi } else { hi.max(0.0) };
    let _ = lo;
    let mut c = Chart::new(
        &title_of(&s.title(), &s.method),
        &s.row_label,
        &s.stat,
        top,
        probability,
        false,
    );
    let n = values.len().max(1);
    let slot = c.w / n as f64;
    let mut d = String::new();
    for (i, v) in values.iter().enumerate() {
        let Some(v) = *v else { continue };
        let (x, y) = (c.x0 + slot * (i as f64 + 0.5), c.y(v));
        let _ = write!(d, "{}{x:.1} {y:.1}", if d.is_empty() { "M" } else { "L" });
        let _ = writeln!(
            c.svg,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="{}"><title>{}: {}</title></circle>"#,
            PALETTE[0],
            esc(&s.rows[i]),
            cell_text(v, probability)
        );
    }
    let _ = writeln!(
        c.svg,
        r#"<path d="{d}" stroke="{}" stroke-width="2.5" fill="none"/>"#,
        PALETTE[0]
    );
    c.x_labels(&s.rows);
    c.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        let near = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(near(tick_step(0.13), 0.05));
        assert!(near(tick_step(0.12), 0.025));
        assert!(near(tick_step(1.0), 0.2));
        assert!(near(tick_step(0.5), 0.1));
        assert_eq!(percent_tick(0.025, 0.025), "2.5%");
        assert_eq!(percent_tick(0.2, 0.2), "20%");
    }

    #[test]
    fn long_titles_shrink_to_fit() {
        assert_eq!(title_size("2d6"), 17.0);
        let long = "x".repeat(120);
        let size = title_size(&long);
        assert!(size < 17.0 && 120.0 * 0.62 * size <= WIDTH - 20.0, "{size}");
        assert_eq!(title_size(&"x".repeat(1000)), 10.0);
    }

    #[test]
    fn viridis_runs_dark_to_light() {
        assert_eq!(viridis(0.0), (68, 1, 84));
        assert_eq!(viridis(1.0), (253, 231, 37));
    }

    #[test]
    fn near_certain_cells_read_as_certain() {
        // A Swimclass task at difficulty 1 (every face succeeds) sums to 1 − 1.3e-15 over
        // its 252 multisets of 5 dice: rounding, not a chance of failure.
        assert_eq!(cell_text(0.999_999_999_999_998_7, true), "100%");
        assert_eq!(cell_text(1.000_000_000_000_001, true), "100%");
        assert_eq!(cell_text(1e-15, true), "0%");
        // A real chance just short of certain still says so.
        assert_eq!(cell_text(0.999_98, true), ">99%");
        assert_eq!(cell_text(0.000_02, true), "<1%");
        assert_eq!(cell_text(0.5, true), "50%");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    /// A law of `n` named outcomes with long labels, as the Malfunction Table's.
    fn named_law(n: usize) -> OddsReport {
        let mut o = OddsReport::new("robots-and-rapiers malfunction", "a table");
        o.rows = (0..n)
            .map(|i| {
                crate::report::Row::new(
                    Label::named(
                        &format!("k{i}"),
                        format!("Energy Capacity: Part {i}, 1 point"),
                    ),
                    1.0 / n as f64,
                )
            })
            .collect();
        o
    }

    /// Every named outcome's label is written whole, on its own row, however many there
    /// are; the chart grows to hold them.
    #[test]
    fn every_category_label_shows() {
        for n in [3, 13, 40] {
            let o = named_law(n);
            let svg = odds_chart(&o, View::Exactly);
            for r in &o.rows {
                let text = format!(">{}</text>", esc(&r.label.text()));
                assert_eq!(svg.matches(&text).count(), 1, "{n}: {text}");
            }
            // Rows at least 22 px apart: no two labels overlap.
            let ys: Vec<f64> = svg
                .lines()
                .filter(|l| l.contains("text-anchor=\"end\">Energy"))
                .map(|l| {
                    let at = l.find(" y=\"").unwrap() + 4;
                    l[at..].split('"').next().unwrap().parse().unwrap()
                })
                .collect();
            assert_eq!(ys.len(), n);
            assert!(ys.windows(2).all(|w| w[1] - w[0] >= 22.0), "{n}: {ys:?}");
            let height: f64 = svg
                .split("height=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(ys.iter().all(|&y| y < height - BOTTOM), "{n}");
        }
        // Compared laws of named outcomes too, with a legend.
        let c = CompareReport {
            command: "robots-and-rapiers malfunction".to_owned(),
            varies: "x".to_owned(),
            items: vec![
                ("x=1".to_owned(), named_law(13)),
                ("x=2".to_owned(), named_law(13)),
            ],
        };
        let svg = compare_chart(&c, View::Exactly);
        for r in &named_law(13).rows {
            let text = format!(">{}</text>", esc(&r.label.text()));
            assert_eq!(svg.matches(&text).count(), 1, "{text}");
        }
        assert!(svg.contains(">x=2</text>"));
        // A label too long for the left margin is cut, whole in its bar's tooltip.
        assert_eq!(short_label(&"y".repeat(100)).chars().count(), MAX_LABEL);
    }
}
