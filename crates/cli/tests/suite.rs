//! dice-cli's integration tests, in one test binary: one link and one compilation of
//! the crate's generic code for all of them, where one binary per file cost minutes of a
//! fresh clone's `cargo test`. Each file below is a module; run one with
//! `cargo test -p dice-cli --test suite <file>::`.

mod cli;
mod common;
mod docs_tables;
mod documented_commands;
mod robots_and_rapiers_fight;
mod robots_cli;
mod scratch_rps_fight;
mod scratch_rps_support;
mod shapers_and_bots_fight;
mod shapers_percentile_fight;
mod shapers_percentile_skirmish;
mod swimclass_and_robots;
mod swimclass_cli;
mod swimclass_fight;
mod swimclass_spell;
