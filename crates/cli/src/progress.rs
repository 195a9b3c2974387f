//! A progress bar on stderr for Monte Carlo runs that take more than a second.
//!
//! Drawn only when stderr is a terminal, so that logs and pipes stay clean. The environment
//! variable `DICE_PROGRESS` overrides this: `never` turns it off, `always` draws it from the
//! first update whatever stderr is (for tests and for watching a run through a pipe).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::render::bar;

/// How long a run goes before the bar appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// Width of the bar, in columns.
const WIDTH: usize = 30;

/// When to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum When {
    Never,
    /// After [`DELAY`], on a terminal.
    Auto,
    /// From the first update.
    Always,
}

/// A progress bar on stderr.
#[derive(Debug)]
pub struct ProgressBar {
    when: When,
    start: Instant,
    drawn: bool,
}

impl ProgressBar {
    /// A bar that has not been drawn yet; the clock starts now.
    pub fn new() -> ProgressBar {
        let when = match std::env::var("DICE_PROGRESS").as_deref() {
            Ok("never") => When::Never,
            Ok("always") => When::Always,
            _ if std::io::stderr().is_terminal() => When::Auto,
            _ => When::Never,
        };
        ProgressBar {
            when,
            start: Instant::now(),
            drawn: false,
        }
    }

    /// Shows `done` of `total` trials (when it is time to).
    pub fn update(&mut self, done: u64, total: u64) {
        let due = match self.when {
            When::Never => false,
            When::Auto => self.start.elapsed() >= DELAY,
            When::Always => true,
        };
        if !due {
            return;
        }
        let fraction = if total == 0 {
            1.0
        } else {
            done as f64 / total as f64
        };
        let drawn = bar(fraction, WIDTH);
        let pad = WIDTH.saturating_sub(drawn.chars().count());
        let mut err = std::io::stderr().lock();
        // A failed write to stderr is not worth failing the run for.
        let _ = write!(
            err,
            "\r[{drawn}{}] {:>3.0}%  {done}/{total} trials  {:.1} s",
            " ".repeat(pad),
            fraction * 100.0,
            self.start.elapsed().as_secs_f64()
        );
        let _ = err.flush();
        self.drawn = true;
    }

    /// Ends the bar's line, if it was drawn.
    pub fn finish(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err);
            let _ = err.flush();
            self.drawn = false;
        }
    }
}
