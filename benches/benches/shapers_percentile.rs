//! Criterion benches for dice-shapers-percentile (placeholder until the crate lands).

fn main() {}
