//! Criterion benches for dice-scratch-rps (placeholder until the crate lands).

fn main() {}
