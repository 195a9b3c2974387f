//! Criterion benches for dice-swimclass (placeholder until the crate lands).

fn main() {}
