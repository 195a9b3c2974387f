//! Errors and exit codes: bad input exits 2 with a one-line message (and, for a dice
//! expression, the input with a caret line under the fault); anything else exits 1.

use std::fmt;

/// Exit code for success.
pub const EXIT_OK: i32 = 0;
/// Exit code for a failure that is not the user's input (an I/O error, an internal error).
pub const EXIT_FAILURE: i32 = 1;
/// Exit code for bad input (clap's own usage errors also exit 2).
pub const EXIT_BAD_INPUT: i32 = 2;

/// What went wrong, and so which exit code to use.
#[derive(Debug)]
pub enum CliError {
    /// The input cannot be used: a bad expression, a value out of range, a combination the
    /// rules forbid, odds too complex to compute exactly.
    BadInput {
        /// The one-line message.
        message: String,
        /// Lines shown after the message (the input and a caret line), possibly none.
        detail: Vec<String>,
    },
    /// Anything else (writing the output failed, …).
    Failure(String),
}

impl CliError {
    /// Bad input with a one-line message.
    pub fn bad_input(message: impl fmt::Display) -> CliError {
        CliError::BadInput {
            message: message.to_string(),
            detail: Vec::new(),
        }
    }

    /// The exit code: 2 for bad input, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::BadInput { .. } => EXIT_BAD_INPUT,
            CliError::Failure(_) => EXIT_FAILURE,
        }
    }
}

impl fmt::Display for CliError {
    /// `error: <message>`, then the detail lines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::BadInput { message, detail } => {
                write!(f, "error: {message}")?;
                for line in detail {
                    write!(f, "\n{line}")?;
                }
                Ok(())
            }
            CliError::Failure(message) => write!(f, "error: {message}"),
        }
    }
}

impl From<dice_notation::ParseError> for CliError {
    /// The one-line message, then the input with a caret line under the offending span.
    fn from(e: dice_notation::ParseError) -> CliError {
        CliError::BadInput {
            message: e.to_string(),
            detail: if e.input().is_empty() {
                Vec::new()
            } else {
                e.caret_lines().lines().map(str::to_owned).collect()
            },
        }
    }
}

impl From<dice_sim::SimError> for CliError {
    fn from(e: dice_sim::SimError) -> CliError {
        CliError::bad_input(e)
    }
}

impl From<dice_core::Error> for CliError {
    fn from(e: dice_core::Error) -> CliError {
        CliError::bad_input(e)
    }
}

impl From<dice_shapers_and_bots::Error> for CliError {
    fn from(e: dice_shapers_and_bots::Error) -> CliError {
        CliError::bad_input(e)
    }
}

impl From<dice_shapers_percentile::Error> for CliError {
    fn from(e: dice_shapers_percentile::Error) -> CliError {
        CliError::bad_input(e)
    }
}

impl From<dice_scratch_rps::Error> for CliError {
    fn from(e: dice_scratch_rps::Error) -> CliError {
        CliError::bad_input(e)
    }
}

impl From<dice_swimclass::Error> for CliError {
    fn from(e: dice_swimclass::Error) -> CliError {
        CliError::bad_input(e)
    }
}

impl From<dice_robots_and_rapiers::Error> for CliError {
    fn from(e: dice_robots_and_rapiers::Error) -> CliError {
        CliError::bad_input(e)
    }
}
