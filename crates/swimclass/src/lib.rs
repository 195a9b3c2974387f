//! # dice-swimclass
//!
//! Project Swimclass, built on dice-core. (Work in progress.)
