//! Odds tables for designers: a statistic over a grid of parameters.

use std::fmt::{self, Display, Write as _};
use std::hash::Hash;

use dice_core::{Exact, Roll};

use crate::error::SimError;
use crate::run::Simulation;

/// One cell of an [`OddsTable`]: a value, exact or estimated with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cell {
    /// The probability (or other statistic).
    pub value: f64,
    /// The confidence interval, for a simulated value.
    pub interval: Option<(f64, f64)>,
}

impl Cell {
    /// An exact value.
    pub fn exact(value: f64) -> Cell {
        Cell {
            value,
            interval: None,
        }
    }

    /// Whether the value is exact.
    pub fn is_exact(&self) -> bool {
        self.interval.is_none()
    }
}

impl Display for Cell {
    /// `0.4167` exact, `~0.4170` simulated; the precision is the formatter's (default 4).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().unwrap_or(4);
        let mark = if self.is_exact() { "" } else { "~" };
        write!(f, "{mark}{:.digits$}", self.value)
    }
}

/// P(`event`) for a mechanic with an exact law.
///
/// # Errors
/// [`SimError::Exact`] when the law cannot be computed.
///
/// ```
/// use dice_core::{Comparison, Die, Pool, SuccessPool};
/// let p = SuccessPool::new(Pool::new(2, Die::D6)?, Comparison::AtLeast(4));
/// let cell = dice_sim::exact_probability(&p, |&s| s >= 1)?;
/// assert!((cell.value - 0.75).abs() < 1e-15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn exact_probability<M: Exact + ?Sized>(
    mechanic: &M,
    event: impl FnMut(&M::Outcome) -> bool,
) -> Result<Cell, SimError> {
    Ok(Cell::exact(
        mechanic.distribution()?.probability_where(event),
    ))
}

/// P(`event`) estimated by `sim`.
pub fn simulated_probability<M>(
    mechanic: &M,
    event: impl FnMut(&M::Outcome) -> bool,
    sim: &Simulation,
) -> Cell
where
    M: Roll + Sync + ?Sized,
    M::Outcome: Send + Eq + Hash + 'static,
{
    let e = sim.run(mechanic).probability_where((), event);
    Cell {
        value: e.probability,
        interval: Some((e.low, e.high)),
    }
}

/// P(`event`), exact when the mechanic's law can be computed, simulated by `sim` when it
/// cannot (too complex or not supported).
pub fn probability<M>(
    mechanic: &M,
    mut event: impl FnMut(&M::Outcome) -> bool,
    sim: &Simulation,
) -> Cell
where
    M: Exact + Sync + ?Sized,
    M::Outcome: Send + 'static,
{
    match mechanic.distribution() {
        Ok(d) => Cell::exact(d.probability_where(&mut event)),
        Err(_) => simulated_probability(mechanic, event, sim),
    }
}

/// A table of a statistic over a grid: rows × columns of [`Cell`]s, with Markdown and CSV
/// renderings (and serde).
///
/// ```
/// use dice_core::{Comparison, Die, Pool, SuccessPool};
/// use dice_sim::{OddsTable, exact_probability};
///
/// // P(at least one success) for 1–3 d6 against difficulties 4–6.
/// let table = OddsTable::build(
///     "P(at least one success)", "dice", 1..=3u32, "difficulty", 4..=6i32,
///     |&n, &t| {
///         let p = SuccessPool::new(Pool::new(n, Die::D6)?, Comparison::AtLeast(t));
///         exact_probability(&p, |&s| s >= 1)
///     },
/// )?;
/// assert!((table.cells[0][0].value - 0.5).abs() < 1e-15);
/// assert!(table.to_markdown().contains("| 1 | 0.5000 |"));
/// assert!(table.to_csv().starts_with("dice\\difficulty,4,5,6\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OddsTable {
    /// What the cells are.
    pub title: String,
    /// What the rows vary.
    pub row_label: String,
    /// What the columns vary.
    pub column_label: String,
    /// Row headings.
    pub rows: Vec<String>,
    /// Column headings.
    pub columns: Vec<String>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<Cell>>,
}

impl OddsTable {
    /// Fills a table by calling `cell(row, column)` for every pair.
    ///
    /// # Errors
    /// The first error `cell` returns.
    pub fn build<R, C, E>(
        title: impl Into<String>,
        row_label: impl Into<String>,
        rows: impl IntoIterator<Item = R>,
        column_label: impl Into<String>,
        columns: impl IntoIterator<Item = C>,
        mut cell: impl FnMut(&R, &C) -> Result<Cell, E>,
    ) -> Result<OddsTable, E>
    where
        R: Display,
        C: Display,
    {
        let rows: Vec<R> = rows.into_iter().collect();
        let columns: Vec<C> = columns.into_iter().collect();
        let mut cells = Vec::with_capacity(rows.len());
        for r in &rows {
            let mut line = Vec::with_capacity(columns.len());
            for c in &columns {
                line.push(cell(r, c)?);
            }
            cells.push(line);
        }
        Ok(OddsTable {
            title: title.into(),
            row_label: row_label.into(),
            column_label: column_label.into(),
            rows: rows.iter().map(ToString::to_string).collect(),
            columns: columns.iter().map(ToString::to_string).collect(),
            cells,
        })
    }

    /// A Markdown table (4 decimals; simulated cells marked `~`).
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "**{}**\n", self.title);
        let _ = write!(s, "| {} \\ {} |", self.row_label, self.column_label);
        for c in &self.columns {
            let _ = write!(s, " {c} |");
        }
        s.push_str("\n|---|");
        for _ in &self.columns {
            s.push_str("---:|");
        }
        s.push('\n');
        for (r, line) in self.rows.iter().zip(&self.cells) {
            let _ = write!(s, "| {r} |");
            for cell in line {
                let _ = write!(s, " {cell} |");
            }
            s.push('\n');
        }
        s
    }

    /// CSV: a header line `row\column,c1,c2,…`, then one line per row with full precision.
    pub fn to_csv(&self) -> String {
        let mut s = format!("{}\\{}", self.row_label, self.column_label);
        for c in &self.columns {
            let _ = write!(s, ",{c}");
        }
        s.push('\n');
        for (r, line) in self.rows.iter().zip(&self.cells) {
            s.push_str(r);
            for cell in line {
                let _ = write!(s, ",{}", cell.value);
            }
            s.push('\n');
        }
        s
    }
}

impl Display for OddsTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_markdown())
    }
}
