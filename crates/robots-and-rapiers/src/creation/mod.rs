//! Character creation and advancement (rulebook L375-1004 and L1183-1367; digest §5).
//!
//! - The random tables, each a value with a roll path (the caller's RNG), a pure "face in,
//!   entry out" lookup and its exact law: [`BodyTypeRoll`], [`VocalizationRoll`],
//!   [`SocialRoll`] (both, and the [`AnthropoidClass`] law), [`GenderRoll`], [`SizeRoll`],
//!   [`RandomSize`], [`CoreSocialRoll`]; and the Design Points, keep-highest of d10s on
//!   dice-core's [`Sum`](dice_core::Sum): [`DesignPointsRoll`], [`RandomDesignPoints`].
//! - A robot's choices as a [`RobotDesign`], checked by [`RobotDesign::check`] into a
//!   [`Robot`]: Spaces, attribute limits, power, Core and Role Programs, Personality Traits,
//!   accessories and Design Points, each broken rule a [`CreationError`] naming it.
//! - Role and Self Awareness ([`RoleAwareness`]) and advancement with Inspiration: the costs
//!   ([`self_awareness_cost`], [`trait_level_cost`], [`DramaticControl`]), the Memory Saves
//!   of raising and learning Programs with their exact odds ([`ProgramIncrease`],
//!   [`LearnProgram`]), and a Sparked robot's state ([`Spark`]) that applies them with an
//!   error when a cost cannot be paid.
//! - The rulings' knobs: [`CreationRules`], whose `Default` is the digest's rulings.
//!
//! ```
//! use dice_robots_and_rapiers::creation::*;
//! use dice_core::{Exact, Roll};
//! use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
//!
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
//! // The random method: social attributes, gender and Size, then Design Points.
//! let social = SocialRoll.roll(&mut rng);
//! let size = SizeRoll::new(GenderRoll.roll(&mut rng)).roll(&mut rng);
//! let design = DesignPointsRoll::for_robot(size, social.anthropoid_class());
//! let points = design.roll(&mut rng);
//! println!("{social}, {size}: {design} = {points} Design Points");
//! // "What are my chances?" of at least 40 Design Points.
//! let p = design.distribution()?.probability_where(|&dp| dp >= 40);
//! assert!((0.0..=1.0).contains(&p));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod accessories;
mod advancement;
mod design;
mod error;
mod personality;
mod programs;
mod robot;
mod rules;
mod tables;

pub use accessories::Accessory;
pub use advancement::{
    AwarenessChoices, AwarenessRaised, AwarenessTrait, DramaticControl, DramaticEffect,
    IncreaseOutcome, LearnProgram, ProgramIncrease, RoleAwareness, Spark, afford, net_dice_change,
    self_awareness_cost, self_awareness_total, trait_decrease_cost, trait_level_cost,
};
pub use design::{DesignPointsRoll, MAX_DESIGN_DICE, RandomDesignPoints};
pub use error::CreationError;
pub use personality::{MAX_TRAIT_RATING, PersonalityTrait, TraitKind, check_traits};
pub use programs::{CORE_BASE, Core, CorePrograms, Programs, RoleProgram, STARTING_PROGRAMS};
pub use robot::{PrimaryAttributes, Robot, RobotDesign, Sensors};
pub use rules::{CreationRules, ProgramIncreaseCost, TraitCount};
pub use tables::{
    AnthropoidClass, BodyType, BodyTypeRoll, CoreSocial, CoreSocialRoll, Gender, GenderRoll,
    RandomSize, Size, SizeRoll, SocialAttributes, SocialClass, SocialRoll, Vocalization,
    VocalizationRoll,
};
