//! Criterion benches for dice-robots-and-rapiers (placeholder until the crate lands).

fn main() {}
