//! # dice-robots-and-rapiers
//!
//! *Robots & Rapiers* on [`dice_core`]: Tests (a pool of d10s against an attribute), opposition
//! and Difficulty, the ledger of what successes buy, Saving Throws with malfunctions and
//! shutdown, extended conflicts (turn order, Action Points, ambush) and combat — each with a
//! pure form that takes dice already rolled, a roll path that takes the caller's RNG, and,
//! where it is a chance, its exact distribution through [`dice_core::Exact`].
//!
//! The rulebook is *Robots & Rapiers*, a playtest draft (no edition, revision or publisher
//! stated). Line numbers (`L187–189`) are those of its text, and the ids A1…A54 (rulings) and
//! E… (worked examples) those of the project's rule digest; the project keeps both as reference
//! copies (`seeds/robots-and-rapiers.txt`, `rules/robots-and-rapiers.md`), not shipped in this
//! repository. The repository's `docs/robots-and-rapiers.md` names the rulebook in full.
//!
//! ```
//! use dice_core::{Exact, Roll};
//! use dice_robots_and_rapiers::{Opposition, Rules, SaveOutcome, SavingThrow, Test};
//! use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
//!
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
//!
//! // Juliard's Fencing 3 + Core Physical 5 = 8 dice vs Articulation 6, parried with 7 dice
//! // vs Locomotion 5.
//! let attack = Test::new(8, 6)?.opposed_by(Opposition::new(7, 5)?);
//! let odds = attack.distribution()?;
//! println!("P(hit) = {:.3}", odds.probability_where(|&n| n >= 1));
//! let roll = attack.roll_test(&mut rng);
//! println!("{roll}");
//!
//! // A Durability save at TN 4: its outcomes and expected loss.
//! let save = SavingThrow::new(4)?;
//! assert!((save.distribution()?.probability(&SaveOutcome::TotalSuccess) - 0.064).abs() < 1e-12);
//! let _ = save.expected_loss(&Rules::default())?;
//! # Ok::<(), dice_robots_and_rapiers::Error>(())
//! ```
//!
//! ## Rules and where they live
//!
//! | digest | lines | rule | item |
//! |---|---|---|---|
//! | §1.1, §1.6 | L187–189, L1434–1438 | pool: Program + Core, Core alone, no dice | [`Dice`], [`Test::from_dice`], [`pool_size`] |
//! | §1.2–§1.4 | L193–198, L1465–1467 | TN, success ≤ TN, ones as Inspiration, Exertion | [`Test`], [`TestRoll::take_inspiration`], [`Test::exerted`] |
//! | §1.5 | L1205–1214, L1444–1457, L827–851 | Inspiration Rolls, the lower maxima | [`InspirationRoll`], [`Program::max_inspiration`], [`InspirationCase`] |
//! | §1.7 | L1471–1485, L2290–2294 | related programs, aiming chains | [`RelatedPrograms`], [`RelatedPrograms::aiming`] |
//! | §1.8 | L203–206, L1503–1531, L2129, L2489 | opposition (with its own Difficulty, L2366), Difficulty, ties, chains, guideline | [`Opposition`], [`TestResult`], [`ChainedTest`], [`guideline_difficulty`] |
//! | §1.9, §1.10 | L809–816, L1487–1501 | extra time, sensitivities | [`ExtraTime`], [`Sensitivity`], [`tactile_dice`] |
//! | §1.11 | L208–228, L1533–1745 | what successes buy | [`Ledger`], [`Faster`], [`Breadth`], [`spread_multiple`], [`parallel_bonus`] |
//! | §1.12 | L818–872 | the program list | [`Program`], [`Core`] |
//! | §2.1–§2.3 | L230–254, L1746–1804 | Saving Throws, outcomes, loss, attribute at 0 | [`SavingThrow`], [`SaveOutcome`], [`AttributeLoss`] |
//! | §2.5–§2.7 | L256–262, L1832–1926 | Durability, EMP loss to 0 (L253, L2388), malfunctions, shutdown, reactivation, memory | [`DurabilitySave`], [`DurabilityRoll`], [`MalfunctionTable`], [`Chassis`], [`ShutdownOverride`], [`SelfReactivation`], [`assisted_reactivation_minutes`], [`MemoryLoss`], [`ProgramLoss`] |
//! | §2.9, §2.10 | L1124–1148, L1880–1882, L2331 | Role / Self Awareness Saves, poor footing, ridicule | [`RoleSave`], [`Compulsion`], [`poor_footing`], [`ridicule_dice`] |
//! | §3.1 | L291–299, L1992–2041 | turn order, tie-breaks, newcomers | [`Senses`], [`Lighting`], [`Ranking`], [`TurnOrder`] |
//! | §3.2–§3.5 | L301–321, L2083–2196 | Base AP, spending, Pay for Turn, regaining, breaks | [`BaseActionPoints`], [`combat_ap_tn`], [`Conflict`], [`TurnOutcome::from_roll`] |
//! | §3.6, §3.7 | L323–339, L2043–2081, L2145–2156 | ambush, surprise, reaction saves | [`ambush_save_tn`], [`Surprise`], [`Reaction`] |
//! | §3.9 | L364–373, L2538–2553 | social conflicts: order, tie die (A16), Etiquette Save (A17), AP TN | [`ConflictKind`], [`Ranking::social`], [`TurnOrder::initial_for`], [`social_ap_tn`], [`social_ap_tn_among`] |
//! | §4 | L341–351, L2198–2463 | combat actions, weapons, armour, damage, knockdown | [`CombatAction`], [`MeleeWeapon`], [`Firearm`], [`Armor`], [`DamageProcedure`], [`StrayShot`], [`range_difficulty`], [`reach_difficulty`] |
//!
//! ## Rulings
//!
//! Table-wide rulings are fields of [`Rules`] (A5, A8–A14, A16–A19, A22, A24–A27 and the
//! Inspiration dial of L1340). Per-roll rulings: A1 (≤ TN), A4 ([`Ledger::augmenting`]),
//! A7 (TN clamped for the odds), A15 (the action declares the save), A20 (the repairer's
//! Articulation; retries), A21 ([`Sensitivity::dice`]), A23 ([`tactile_dice`]), A36, A37
//! ([`ProgramLoss`], [`MemoryLoss`]), A41 ([`spread_multiple`]), A42 ([`TurnOutcome`]),
//! A43 (dice), A44 (program aliases), A47, A48 ([`range_difficulty`], [`Firearm::burst`],
//! [`Firearm::burst_damage_at`]),
//! A53 ([`pool_size`]), A54 ([`ridicule_dice`]).
//!
//! ## Exact odds
//!
//! [`Test`], [`InspirationRoll`], [`ChainedTest`], [`RelatedPrograms`], [`SavingThrow`],
//! [`RoleSave`], [`DurabilitySave`], [`ShutdownOverride`], [`SelfReactivation`],
//! [`MalfunctionTable`], [`BaseActionPoints`] and [`StrayShot`] implement
//! [`dice_core::Roll`] and [`dice_core::Exact`] (and `rand::distr::Distribution`); the laws
//! come from dice-core's [`dice_core::Cancellation`] and [`dice_core::SuccessPool`]
//! distributions and [`dice_core::Dist::difference`]. An 8d10 Test against an opposing 8d10
//! pool takes well under a microsecond.
//!
//! ## Features
//!
//! - `serde`: `Serialize`/`Deserialize` for outcomes, records and [`Rules`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod attribute;
mod combat;
mod conflict;
pub mod creation;
mod damage;
mod encounter;
mod error;
mod ledger;
mod opposed;
mod rules;
mod save;
mod test;

pub use attribute::{
    Attribute, Core, InspirationCase, MaxInspiration, Program, Sensitivity, tactile_dice,
};
pub use combat::{
    Armor, AttackType, Burst, CombatAction, DamageProcedure, Firearm, MeleeWeapon, OFF_HAND_AP,
    StrayShot, TargetSize, knockdown_save, poor_footing, range_difficulty, reach_difficulty,
    ridicule_dice,
};
pub use conflict::{
    BaseActionPoints, Conflict, ConflictKind, Lighting, MAX_PARTICIPANTS, Participant, Ranking,
    Reaction, Senses, Surprise, TurnOrder, TurnOutcome, ambush_save_tn, combat_ap_tn, social_ap_tn,
    social_ap_tn_among,
};
pub use damage::{
    Chassis, DamageKind, DamageOutcome, DurabilityRoll, DurabilitySave, MAX_MALFUNCTIONS,
    Malfunction, MalfunctionReport, MalfunctionTable, MemoryLoss, OverrideOutcome, ProgramLoss,
    Reactivation, SelfReactivation, ShutdownOverride, SlotState, SubSystem,
    assisted_reactivation_minutes,
};
pub use encounter::{
    Attack, AttackOutcome, Choice, Duel, DuelPolicy, DuelRoll, DuelRules, DuelState,
    EXERTION_RESERVE, Fighter, Moment, ProgramPick, Rulebook, Scene, SceneRobot, Standing, Victory,
};
pub use error::Error;
pub use ledger::{Breadth, Faster, Ledger, Spend, parallel_bonus, spread_multiple};
pub use opposed::{ChainedTest, MAX_CHAIN, RelatedPrograms};
pub use rules::{Outnumbering, Rounding, Rules};
pub use save::{
    AttributeLoss, Compulsion, Debate, DebateResult, RoleSave, SAVE_DICE, SaveOutcome, SaveRoll,
    SavingThrow, SensorSave,
};
pub use test::{
    Dice, ExtraTime, InspirationRoll, MAX_POOL, MAX_TN, OpposingRoll, Opposition, Test, TestResult,
    TestRoll, difficulty_for, expected_successes, guideline_difficulty, is_success, pool_size,
    success_chance,
};

/// Implements `rand::distr::Distribution<Outcome>` by delegating to [`dice_core::Roll::roll`].
macro_rules! distribution_via_roll {
    ($($t:ty),* $(,)?) => {$(
        impl rand::distr::Distribution<<$t as dice_core::Roll>::Outcome> for $t {
            #[inline]
            fn sample<R: dice_core::Rng + ?Sized>(&self, rng: &mut R) -> <$t as dice_core::Roll>::Outcome {
                dice_core::Roll::roll(self, rng)
            }
        }
    )*};
}

distribution_via_roll!(
    Test,
    InspirationRoll,
    SavingThrow,
    RoleSave,
    DurabilitySave,
    MalfunctionTable,
    ShutdownOverride,
    SelfReactivation,
    ChainedTest,
    RelatedPrograms,
    BaseActionPoints,
    StrayShot,
);
