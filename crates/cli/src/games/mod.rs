//! One module per game, each a clap `Args` struct and a `run` function:
//!
//! ```text
//! #[derive(clap::Args)] pub struct Args { … }          // the game's subcommands and terms
//! pub fn run(args: Args, ctx: &Ctx) -> Result<Report, CliError>
//! ```
//!
//! `run` rolls (with `ctx.seed().rng()`, reporting the seed) unless the roll's `--odds`
//! flag ([`OddsFlag`]) asks for the exact distribution; it returns a [`Report`] and the
//! shared machinery prints it as text or JSON. Errors from the game crate convert into
//! [`CliError::BadInput`] (exit code 2) through `From` impls in `crate::error`.
//!
//! Adding a game (`swimclass`, say) takes one new file and a few one-line edits:
//!
//! 1. `src/games/swimclass.rs`: `Args` (a subcommand enum, one variant per core roll, each
//!    with the game's terms as `--long` options and a flattened [`OddsFlag`]) and `run`.
//!    Roll: resolve the seed once (`let seed = ctx.seed();`), roll with `seed.rng()`, and
//!    build a `RollReport::new("swimclass task", seed)` with text `line`s (every die) and JSON
//!    `field`s. Odds: `OddsReport::new(cmd, title)` then `.numeric(&dist)` for a `Dist` of
//!    numbers or `.named(&dist, |o, p| Row::new(label_of(o), p))` for named outcomes, plus
//!    `.summary("p_success", "success", p)` and `.field(…)` for the inputs.
//! 2. `pub mod swimclass;` below.
//! 3. In `main.rs`: a `Command` variant `#[command(name = "swimclass")]
//!    Swimclass(games::swimclass::Args)` and its arm in `run`.
//! 4. In `error.rs`: `impl From<dice_swimclass::Error> for CliError` (bad input, exit 2).
//! 5. In `Cargo.toml`: `dice-swimclass = { workspace = true, features = ["serde"] }`.
//!
//! [`Report`]: crate::report::Report
//! [`CliError::BadInput`]: crate::error::CliError::BadInput

pub mod robots_and_rapiers;
pub mod scratch_rps;
pub mod shapers_and_bots;
pub mod shapers_percentile;
pub mod swimclass;

use dice_core::RollRecord;

/// `--odds`: the exact distribution instead of a roll. Flattened into every game roll.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct OddsFlag {
    /// Show the exact odds of every outcome instead of rolling.
    #[arg(long)]
    pub odds: bool,
}

/// The faces of a record, as `u8` for the games' pure forms (d6 and d100 faces fit).
pub fn faces_u8(record: &RollRecord) -> Vec<u8> {
    record
        .dice
        .iter()
        .map(|d| u8::try_from(d.natural).unwrap_or(u8::MAX))
        .collect()
}

/// The faces of a streak, those that continued it marked `*`: `[5*, 6*, 1]`.
pub fn streak_text(record: &RollRecord) -> String {
    let faces: Vec<String> = record
        .dice
        .iter()
        .map(|d| {
            if d.flags.success {
                format!("{}*", d.natural)
            } else {
                d.natural.to_string()
            }
        })
        .collect();
    format!("[{}]", faces.join(", "))
}
