//! # dice-robots-and-rapiers
//!
//! Robots & Rapiers, built on dice-core. (Work in progress.)
