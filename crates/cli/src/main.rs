//! The `dice` command (work in progress).

fn main() {}
