//! `dice`: roll dice expressions and game mechanics, and ask their exact or simulated odds.
//!
//! `dice roll EXPR`, `dice odds EXPR [--monte-carlo]`, and one subcommand per game
//! (`dice shapers-and-bots challenge --skill high --task awesome [--odds]`, …). `--json`
//! prints one JSON object; `--seed N` replays a roll. Exit codes: 0 ok, 2 bad input, 130
//! a Monte Carlo run stopped by Ctrl-C (what it had done still printed), 1 anything else. Every command, its output and its JSON schema: `docs/cli.md`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod expr;
mod games;
mod mc;
mod merge;
mod plot;
mod progress;
mod render;
mod report;
mod seed;
mod sweep;

use std::io::Write;

use clap::{CommandFactory, Parser, Subcommand};

use crate::error::{CliError, EXIT_FAILURE, EXIT_OK};
use crate::render::{Output, View};
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
Exit codes: 0 success, 2 bad input (with a one-line message), 130 a Monte Carlo run \
stopped by Ctrl-C (the trials done are still reported), 1 anything else.",
    after_help = "Examples:\n  dice roll 4d6kh3\n  dice odds 2d6+3\n  dice odds '1d20+5 vs 15' --json\n  dice shapers-and-bots challenge --skill high --task awesome --odds\n  dice swimclass task --rank 3 --difficulty 4 --odds\n  dice robots-and-rapiers save --tn 5\n\nRun `dice help <COMMAND>` for a command's own terms."
)]
struct Cli {
    /// How to print: text (tables and a bar chart), json (one object), csv (the table, for
    /// a spreadsheet) or markdown (a table for a page).
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "FORMAT",
        display_order = 99
    )]
    format: Option<Output>,
    /// The same as --format json.
    #[arg(long, global = true, display_order = 100, conflicts_with = "format")]
    json: bool,
    /// What the text's bars show for numeric outcomes: exactly (P(=), the default),
    /// at-least (P(≥)) or at-most (P(≤)), as AnyDice's views.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "VIEW",
        display_order = 102
    )]
    view: Option<View>,
    /// What a sweep (a game option given a range, --rank 1..6) tabulates: a headline
    /// probability's key (p_success, p_hit, …; default the command's first), mean,
    /// std_dev, median, an event >=N, <=N, =N, or an outcome's name.
    #[arg(long, global = true, value_name = "KEY", display_order = 103)]
    stat: Option<String>,
    /// Also write the odds as a chart to FILE, SVG or PNG by its extension (.svg, .png):
    /// bars for one law, grouped bars or lines for several, a heatmap for a sweep of two
    /// options, a fight's rounds.
    #[arg(long, global = true, value_name = "FILE", display_order = 104)]
    plot: Option<std::path::PathBuf>,
    /// Run only shard I of N of a Monte Carlo run (needs --seed) and print its counts as
    /// JSON, for `dice merge` to add up: the merged result is exactly one run's.
    #[arg(long, global = true, value_name = "I/N", value_parser = mc::parse_shard, display_order = 105)]
    shard: Option<mc::Shard>,
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
    Merge(merge::MergeArgs),
    /// Print a shell completion script for dice (bash, zsh, fish, elvish, powershell).
    #[command(
        long_about = "Print the completion script of a shell for the dice command, generated \
from its definition: every subcommand, option and value it knows. Install it where the shell \
looks: for bash `dice completions bash > ~/.local/share/bash-completion/completions/dice`, \
for zsh `dice completions zsh > ~/.zfunc/_dice` (with ~/.zfunc in fpath), for fish \
`dice completions fish > ~/.config/fish/completions/dice.fish`.",
        after_help = "Examples:\n  dice completions bash\n  dice completions zsh"
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page of dice (roff, for man), or write every page with --dir.
    #[command(
        long_about = "Print the manual page of dice in roff, generated from its definition: \
`dice manpage > dice.1 && man ./dice.1`. With --dir DIR, write into DIR the page of dice and \
one page per subcommand, which the top page refers to (dice.1, dice-odds.1, \
dice-swimclass-task.1, …), ready to install as man1/ or to read with `man -l DIR/dice-odds.1`.",
        after_help = "Examples:\n  dice manpage > dice.1\n  dice manpage --dir man1"
    )]
    Manpage {
        /// Write dice.1 and a page per subcommand (dice-odds.1, …) into this folder (made
        /// if missing) instead of printing the top page.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

/// What every command may use: the seed asked for, and the shard to run.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// `--seed`, if given.
    pub seed: Option<u64>,
    /// `--shard`, if given: Monte Carlo runs make only this shard's chunks.
    pub shard: Option<mc::Shard>,
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
        Command::Merge(a) => merge::run(&a),
        Command::Completions { .. } | Command::Manpage { .. } => Err(CliError::Failure(
            "completions and the manual page are printed before any report".to_owned(),
        )),
    }
}

/// Writes `text` to stdout. A closed pipe (`dice odds 100d6 | head`) ends quietly.
fn print(text: &str) -> i32 {
    let mut out = std::io::stdout().lock();
    print_result(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

/// The exit code of a write to stdout: a closed pipe is no error.
fn print_result(written: std::io::Result<()>) -> i32 {
    match written {
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
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let words: Option<Vec<String>> = argv.iter().map(|a| a.to_str().map(str::to_owned)).collect();
    let code = match words {
        Some(words) => execute(&words).unwrap_or_else(|e| fail(&e)),
        // A word that is not UTF-8 (a file name): no lists or ranges to expand.
        None => finish(Cli::parse_from(argv), |cli| {
            let ctx = Ctx::of(&cli);
            run(cli.command, &ctx)
        }),
    };
    std::process::exit(progress::exit_code(code));
}

impl Ctx {
    fn of(cli: &Cli) -> Ctx {
        Ctx {
            seed: cli.seed,
            shard: cli.shard,
        }
    }
}

/// Parses a command line; usage errors exit 2, --help and --version 0 (clap).
fn parse(words: &[String]) -> Cli {
    Cli::try_parse_from(words).unwrap_or_else(|e| e.exit())
}

/// Runs a command line, expanding the lists and ranges of a game roll's options; returns
/// the exit code.
///
/// # Errors
/// [`CliError`] for lists and ranges that cannot be expanded.
fn execute(words: &[String]) -> Result<i32, CliError> {
    let varying = sweep::varying(words)?;
    // The settings (format, view, plot, shard) of the first combination hold for all.
    let first = parse(&sweep::case(words, &varying, &vec![0; varying.len()]));
    Ok(finish(first, |_| report_of(words)))
}

/// Runs a command line to its report, without printing: each combination of its lists and
/// ranges parsed and run, and put together ([`sweep::combine`]).
///
/// # Errors
/// The command's error.
pub fn report_of(words: &[String]) -> Result<Report, CliError> {
    let varying = sweep::varying(words)?;
    if varying.is_empty() {
        let cli = parse(words);
        let ctx = Ctx::of(&cli);
        return run(cli.command, &ctx);
    }
    let first = parse(&sweep::case(words, &varying, &vec![0; varying.len()]));
    sweep::combine(words, &varying, first.stat.as_deref(), |line| {
        let cli = parse(&line);
        let ctx = Ctx::of(&cli);
        run(cli.command, &ctx)
    })
}

/// Prints an error; returns its exit code.
fn fail(e: &CliError) -> i32 {
    let _ = writeln!(std::io::stderr(), "{e}");
    e.exit_code()
}

/// Writes the manual pages of dice and of every subcommand, nested ones too
/// (`dice-swimclass-task.1`), into `dir`, making it if missing: every page the top page's
/// list of subcommands refers to.
///
/// # Errors
/// [`CliError::Failure`] when the folder or a page cannot be written.
fn write_manpages(dir: &std::path::Path) -> Result<(), CliError> {
    let failed = |e: std::io::Error| {
        CliError::Failure(format!(
            "cannot write the manual pages into {}: {e}",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir).map_err(failed)?;
    clap_mangen::generate_to(Cli::command(), dir).map_err(failed)
}

/// Runs `go` and prints its report in the form `cli` asks for.
fn finish(cli: Cli, go: impl FnOnce(Cli) -> Result<Report, CliError>) -> i32 {
    let output = if cli.json {
        Output::Json
    } else {
        cli.format.unwrap_or_default()
    };
    let view = cli.view.unwrap_or_default();
    match &cli.command {
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "dice", &mut out);
            return print(&String::from_utf8_lossy(&out));
        }
        Command::Manpage { dir: Some(dir) } => {
            return match write_manpages(dir) {
                Ok(()) => EXIT_OK,
                Err(e) => fail(&e),
            };
        }
        Command::Manpage { dir: None } => {
            let mut out = Vec::new();
            // As `--dir` writes it: no `help` subcommand, whose page would not exist.
            let man = clap_mangen::Man::new(Cli::command().disable_help_subcommand(true));
            if let Err(e) = man.render(&mut out) {
                return fail(&CliError::Failure(format!(
                    "cannot write the manual page: {e}"
                )));
            }
            return print(&String::from_utf8_lossy(&out));
        }
        _ => {}
    }
    let plot_to = cli.plot.clone();
    let shard = cli.shard;
    // Checked here rather than by clap's `requires`, which misses a global option given
    // on another level (`dice --seed 5 odds 3d6 --mc --shard 1/2`).
    if shard.is_some() && cli.seed.is_none() {
        return fail(&CliError::bad_input(
            "--shard needs --seed: every shard must roll the same run",
        ));
    }
    match (go(cli), shard) {
        (Ok(_), Some(shard)) => {
            let runs = mc::take_recorded();
            if runs.is_empty() {
                return fail(&CliError::bad_input(
                    "--shard splits a Monte Carlo run: add --monte-carlo",
                ));
            }
            let words: Vec<String> = std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            let argv = merge::without_shard(&words);
            let v = mc::shard_json(&argv, shard, runs);
            print(&format!(
                "{}\n",
                serde_json::to_string(&v).unwrap_or_else(|_| v.to_string())
            ))
        }
        (Ok(report), None) => {
            if let Some(path) = plot_to {
                if let Err(e) = plot::write(&path, &report, view) {
                    return fail(&e);
                }
            }
            // Streamed: a law of millions of outcomes is never held as one string.
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let written = render::write(&report, output, view, &mut out).and_then(|()| out.flush());
            print_result(written)
        }
        (Err(e), _) => fail(&e),
    }
}
