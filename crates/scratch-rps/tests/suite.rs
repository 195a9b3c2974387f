//! dice-scratch-rps's integration tests, in one test binary: one link and one compilation of
//! the crate's generic code for all of them, where one binary per file cost minutes of a
//! fresh clone's `cargo test`. Each file below is a module; run one with
//! `cargo test -p dice-scratch-rps --test suite <file>::`.

mod encounter;
mod exact;
mod fight;
mod properties;
#[path = "serde.rs"]
mod serde_tests;
mod statistical;
mod support;
mod worked_examples;
