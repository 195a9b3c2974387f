//! `dice`: roll dice expressions and game mechanics, and ask their exact or simulated odds.
//!
//! `dice roll EXPR`, `dice odds EXPR [--monte-carlo]`, and one subcommand per game
//! (`dice shapers-and-bots challenge --skill high --task awesome [--odds]`, …). `--json`
//! prints one JSON object; `--seed N` replays a roll. Exit codes: 0 ok, 2 bad input, 1
//! anything else. Every command, its output and its JSON schema: `docs/cli.md`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod expr;
mod games;
mod progress;
mod render;
mod report;
mod seed;

use std::io::Write;

use clap::{Parser, Subcommand};

use crate::error::{CliError, EXIT_FAILURE, EXIT_OK};
use crate::render::{Output, render};
use crate::report::Report;
use crate::seed::Seed;

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "dice",
    version,
    about = "Roll dice and game mechanics, and ask their exact or simulated odds",
    long_about = "Roll dice expressions (4d6kh3, 10d10>=8f1, '1d20+5 vs 15') showing every die, \
and ask their odds: exact, with a bar chart, mean and standard deviation, or simulated with \
confidence intervals. Each game of the dicepool workspace has its own subcommand that speaks \
the game's terms and rolls its core mechanics, or gives their exact odds with --odds.\n\n\
Every roll reports its seed; --seed N replays it exactly. --json prints one JSON object \
instead of text (schemas in docs/cli.md).\n\n\
Exit codes: 0 success, 2 bad input (with a one-line message), 1 anything else.",
    after_help = "Examples:\n  dice roll 4d6kh3\n  dice odds 2d6+3\n  dice odds '1d20+5 vs 15' --json\n  dice shapers-and-bots challenge --skill high --task awesome --odds\n  dice swimclass task --rank 3 --difficulty 4 --odds\n  dice robots-and-rapiers save --tn 5\n\nRun `dice help <COMMAND>` for a command's own terms."
)]
struct Cli {
    /// Print one JSON object instead of text.
    #[arg(long, global = true, display_order = 100)]
    json: bool,
    /// Seed the dice, to replay a roll or a Monte Carlo run exactly (default: a fresh seed,
    /// which is printed).
    #[arg(long, global = true, value_name = "N", display_order = 101)]
    seed: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    Roll(expr::RollArgs),
    Odds(expr::OddsArgs),
    #[command(name = "shapers-and-bots")]
    ShapersAndBots(games::shapers_and_bots::Args),
    #[command(name = "shapers-percentile")]
    ShapersPercentile(games::shapers_percentile::Args),
    #[command(name = "scratch-rps")]
    ScratchRps(games::scratch_rps::Args),
    #[command(name = "swimclass")]
    Swimclass(games::swimclass::Args),
    #[command(name = "robots-and-rapiers")]
    RobotsAndRapiers(games::robots_and_rapiers::Args),
}

/// What every command may use: the seed asked for.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// `--seed`, if given.
    pub seed: Option<u64>,
}

impl Ctx {
    /// The seed to roll with: `--seed`, or a fresh one. Call once per roll and report it.
    pub fn seed(&self) -> Seed {
        Seed::resolve(self.seed)
    }
}

fn run(command: Command, ctx: &Ctx) -> Result<Report, CliError> {
    match command {
        Command::Roll(a) => expr::roll(a, ctx),
        Command::Odds(a) => expr::odds(a, ctx),
        Command::ShapersAndBots(a) => games::shapers_and_bots::run(a, ctx),
        Command::ShapersPercentile(a) => games::shapers_percentile::run(a, ctx),
        Command::ScratchRps(a) => games::scratch_rps::run(a, ctx),
        Command::Swimclass(a) => games::swimclass::run(a, ctx),
        Command::RobotsAndRapiers(a) => games::robots_and_rapiers::run(a, ctx),
    }
}

/// Writes `text` to stdout. A closed pipe (`dice odds 100d6 | head`) ends quietly.
fn print(text: &str) -> i32 {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: cannot write the output: {e}");
            EXIT_FAILURE
        }
    }
}

fn main() {
    // No panic is expected; should one happen, say so in one line and exit 1 rather than
    // print a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let _ = writeln!(
            std::io::stderr(),
            "error: internal error ({info}); please report it"
        );
        std::process::exit(EXIT_FAILURE);
    }));
    // Usage errors exit 2, --help and --version 0 (clap).
    let cli = Cli::parse();
    let output = if cli.json { Output::Json } else { Output::Text };
    let ctx = Ctx { seed: cli.seed };
    let code = match run(cli.command, &ctx) {
        Ok(report) => print(&render(&report, output)),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "{e}");
            e.exit_code()
        }
    };
    std::process::exit(code);
}
