//! The side-by-side benches against other dice libraries: see `benches/peers.rs`.
