//! Helpers shared by the integration tests: dice-testkit's enumeration oracle.

pub use dice_testkit::enumerate;
