//! dice-shapers-percentile's integration tests, in one test binary: one link and one compilation of
//! the crate's generic code for all of them, where one binary per file cost minutes of a
//! fresh clone's `cargo test`. Each file below is a module; run one with
//! `cargo test -p dice-shapers-percentile --test suite <file>::`.

mod common;
mod encounter;
mod exact;
mod opposed_readings;
mod properties;
mod rulings;
#[path = "serde.rs"]
mod serde_tests;
mod worked_examples;
