//! A progress bar on stderr for Monte Carlo runs that take more than a second.
//!
//! Drawn only when stderr is a terminal, so that logs and pipes stay clean. The environment
//! variable `DICE_PROGRESS` overrides this: `never` turns it off, `always` draws it from the
//! first update whatever stderr is (for tests and for watching a run through a pipe).

use std::io::{IsTerminal, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// Set by Ctrl-C during a run (see [`interrupted`]).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler (once per process): the first Ctrl-C asks the running
/// simulation to stop at its next chunk, so the bar's line is ended and the trials done so far
/// are reported as a cancelled run; a second one exits at once (status 130).
fn catch_ctrl_c() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Without a handler (no signal support), Ctrl-C keeps its default: the process ends.
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                let _ = writeln!(std::io::stderr());
                std::process::exit(EXIT_INTERRUPTED);
            }
        });
    });
}

/// Whether Ctrl-C was pressed since the run began: the run's progress hook then breaks.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The exit status of a command that would exit with `code`: 130 when Ctrl-C stopped one
/// of its Monte Carlo runs and it otherwise succeeded (its output, the trials made so far,
/// is printed all the same), as a shell reports a command that Ctrl-C ended; `code`
/// otherwise. A script running `dice` can so tell a cut-short run from a whole one.
///
/// ```text
/// exit_code(0) → 0 without Ctrl-C, 130 after it;  exit_code(2) → 2
/// ```
pub fn exit_code(code: i32) -> i32 {
    exit_code_of(code, interrupted())
}

/// [`exit_code`] with whether Ctrl-C was pressed.
fn exit_code_of(code: i32, interrupted: bool) -> i32 {
    if interrupted && code == crate::error::EXIT_OK {
        EXIT_INTERRUPTED
    } else {
        code
    }
}

/// The exit status after Ctrl-C: 128 + SIGINT's number, as shells report it.
pub const EXIT_INTERRUPTED: i32 = 130;

/// "1 trial", "2 trials".
pub fn trials_text(n: u64) -> String {
    if n == 1 {
        "1 trial".to_owned()
    } else {
        format!("{n} trials")
    }
}

/// A progress bar on stderr.
#[derive(Debug)]
pub struct ProgressBar {
    when: When,
    start: Instant,
    drawn: bool,
}

impl ProgressBar {
    /// A bar that has not been drawn yet; the clock starts now, and Ctrl-C from now on stops
    /// the run cleanly ([`interrupted`]).
    pub fn new() -> ProgressBar {
        catch_ctrl_c();
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
        let elapsed = self.start.elapsed().as_secs_f64();
        // The time left, from the pace so far.
        let left = if fraction > 0.0 && fraction < 1.0 {
            format!(
                ", about {:.0} s left",
                elapsed * (1.0 - fraction) / fraction
            )
        } else {
            String::new()
        };
        let _ = write!(
            err,
            "\r[{drawn}{}] {:>3.0}%  {done}/{total} trials  {elapsed:.1} s{left}   ",
            " ".repeat(pad),
            fraction * 100.0,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_stopped_by_ctrl_c_exits_130_unless_it_failed() {
        assert_eq!(exit_code_of(0, false), 0);
        assert_eq!(exit_code_of(0, true), 130);
        assert_eq!(exit_code_of(2, true), 2);
        assert_eq!(exit_code_of(1, true), 1);
    }
}
