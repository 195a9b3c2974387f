//! # dice-shapers-and-bots
//!
//! Shapers and Bots, built on dice-core. (Work in progress.)
