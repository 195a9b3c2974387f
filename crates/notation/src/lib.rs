//! # dice-notation
//!
//! Dice expressions, parsed onto dice-core. (Work in progress.)
