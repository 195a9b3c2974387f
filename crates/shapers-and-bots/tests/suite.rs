//! dice-shapers-and-bots's integration tests, in one test binary: one link and one compilation of
//! the crate's generic code for all of them, where one binary per file cost minutes of a
//! fresh clone's `cargo test`. Each file below is a module; run one with
//! `cargo test -p dice-shapers-and-bots --test suite <file>::`.

mod api;
mod common;
mod creation;
mod encounter;
mod exact;
mod statistical;
mod worked_examples;
