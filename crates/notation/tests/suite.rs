//! dice-notation's integration tests, in one test binary: one link and one compilation of
//! the crate's generic code for all of them, where one binary per file cost minutes of a
//! fresh clone's `cargo test`. Each file below is a module; run one with
//! `cargo test -p dice-notation --test suite <file>::`.

mod api;
mod common;
mod dialects;
mod exact;
mod faults;
mod fractions;
mod order;
mod parse;
mod rolled_vs_exact;
mod round_trip;
mod stack;
mod statistical;
