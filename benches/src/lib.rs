//! Criterion benches for dicepool: see `benches/roll.rs`.
