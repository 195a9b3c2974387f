//! # dice-scratch-rps
//!
//! Scratch RPS, built on dice-core. (Work in progress.)
