//! # dice-shapers-percentile
//!
//! Shapers (percentile combat), built on dice-core. (Work in progress.)
