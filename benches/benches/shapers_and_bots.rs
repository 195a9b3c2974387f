//! Criterion benches for dice-shapers-and-bots (placeholder until the crate lands).

fn main() {}
