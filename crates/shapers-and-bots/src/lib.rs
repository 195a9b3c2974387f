//! # dice-shapers-and-bots
//!
//! *Shapers and Bots* on [`dice_core`]: the level ladder, challenge rolls with their three
//! outcomes, contests, flukes, characteristics, species and bots, character creation with its
//! checks, combat, hit points and damage streaks, and whole fights ([`FightEncounter`]) — each
//! with a pure form that takes dice already rolled, a roll path that takes the caller's RNG,
//! and, where it is a chance, its exact distribution through [`dice_core::Exact`].
//!
//! The rulebook is *Shapers and Bots*, a web page (no edition or revision stated). Line numbers
//! (`L83–92`) are those of its text, and the ids SB-R…, SB-A…, SB-E… those of the project's
//! rule digest; the project keeps both as reference copies (`seeds/shapers-and-bots.txt`,
//! `rules/small-systems.md` section 1), not shipped in this repository. The repository's
//! `docs/shapers-and-bots.md` names the rulebook in full.
//!
//! ```
//! use dice_core::{Exact, Roll};
//! use dice_shapers_and_bots::{Challenge, ChallengeOutcome, Damage, Level, Rules, WeaponClass};
//! use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
//!
//! let rules = Rules::default();
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
//!
//! // Alouard's High climbing against an Awesome wall (L83–92).
//! let climb = Challenge::new(Level::High, Level::Awesome)?;
//! assert_eq!(climb.resolve([5, 6])?.outcome, ChallengeOutcome::SuccessWithConsequences);
//! let roll = climb.roll_challenge(&mut rng);
//! println!("{roll}");
//! let odds = climb.distribution()?;
//! assert!((odds.probability(&ChallengeOutcome::Failure) - 11.0 / 12.0).abs() < 1e-15);
//!
//! // A sword against an unarmored target: 1 + a streak of 3–6s (L398–399).
//! let sword = Damage::new(WeaponClass::Large, false, &rules)?;
//! let points: u32 = sword.roll(&mut rng);
//! assert!(points >= 1);
//! assert!((sword.distribution()?.mean() - 3.0).abs() < 1e-9);
//! # Ok::<(), dice_shapers_and_bots::Error>(())
//! ```
//!
//! ## Rules and where they live
//!
//! | digest | lines | rule | item |
//! |---|---|---|---|
//! | SB-R1 | L45–57, L113, L240, L529 | level ladder, bonus, target; no rating | [`Level`], [`Rating`] (parses the names, Awful/Poor/Good/Great, `--`, None) |
//! | SB-R2, SB-A16 | L71, L115, L392 | the dice are d6 | every mechanic rolls [`dice_core::Die::D6`] |
//! | SB-R3 | L59–68 | automatic success | [`auto_success_eligible`], [`Attempt`], [`Stakes`] |
//! | SB-R4 | L70–80 | challenge roll: success, success with consequences, failure | [`Challenge`] (a [`dice_core::VersusTarget`]), [`ChallengeOutcome`] |
//! | SB-R5 | L95–109 | contest, ties to the Director | [`Contest`], [`ContestOutcome`] |
//! | SB-R6 | L111–129 | fluke | [`Fluke`] (a [`dice_core::Streak`]), [`fluke_outcome`] |
//! | SB-R7 | L131–166 | characteristics, Height and Weight, Courage and Honesty | [`Characteristics`], [`Characteristic`], [`Size`] |
//! | SB-R8 | L168–196 | species table | [`Species`] |
//! | SB-R9 | L198–230 | characteristic adjustment at creation | [`adjust_characteristics`], [`CharacteristicChanges`] |
//! | SB-R10 | L232–286, L308–312 | skills, starts, categories | [`Skill`], [`SkillStart`], [`SkillName`] |
//! | SB-R11 | L288–306 | skill packages; None → Low first | [`raise_skills`], [`SkillPackage`], [`SkillRaise`], [`Skills`], [`Character`] |
//! | SB-R12 | L314–316 | leveling up: "FIXME" | nothing to implement; [`Skills::set`] for the Director |
//! | SB-R13 | L322–328 | initiative by Fitness, tie roll kept for the fight; only the fighter whose turn it is acts | [`Initiative`], [`TurnOrder`], [`Fight`] |
//! | SB-R14 | L330–346 | two actions a turn; reloading | [`Action`], [`TurnActions`] |
//! | SB-R15 | L348–358 | undefended and defended attacks | [`Attack`], [`AttackOutcome`] |
//! | SB-R16 | L362–366 | borrowing an action to defend | [`TurnActions::take`] |
//! | SB-R17 | L367–370 | sneak attack, surprise bonus | [`Attack::sneak`], [`Surprise`] |
//! | SB-R18 | L374–387 | hit points | [`hit_points`], [`Characteristics::hit_points`], [`Health`] |
//! | SB-R19 | L389–426 | damage streaks | [`WeaponClass`], [`DamageRule`], [`DamageTable`], [`Damage`] |
//! | SB-R20 | L428–430 | armor penalty | [`Armor`], [`Contestant::wearing`] |
//! | SB-R21 | L432–433 | unconscious at zero | [`Health::take`], [`Condition`], [`Fight::set_condition`] |
//! | SB-R22 | L435–459 | shaping (no numbers) | [`Shaping`], [`ShapingKind`] |
//! | SB-R23 | L461–481 | bots | [`Characteristics::bot`] |
//! | SB-R13–R21 | L318–433 | a whole fight played turn by turn, with the exact odds of who is left standing | [`FightEncounter`] (a [`dice_core::Encounter`]), [`FightState`], [`RulebookTactics`], [`Scene`] |
//!
//! ## Rulings
//!
//! Table-wide rulings are fields of [`Rules`], whose `Default` is the digest's ruling:
//!
//! | digest | ruling (default) | knob |
//! |---|---|---|
//! | SB-A1 | an undefended attack is a challenge against the Size target | [`Rules::undefended_hit`] ([`UndefendedHit`]) |
//! | SB-A3 | a fluke exactly on the target succeeds with consequences | [`Rules::fluke_equal_is_consequence`] |
//! | SB-A4 | a punch is one d6, 1 point on a 6 (the prose) | [`Rules::punch_damage`] ([`PunchDamage`]) |
//! | SB-A6 | the armored "really powerful" damage is not in the text: required from the caller | [`Rules::armored_really_powerful`] (`None`) |
//! | SB-A7 | hit points of a Height/Weight character use the lower | [`Rules::hp_size_source`] ([`HpSizeSource`]) |
//! | SB-A17 | hit points stop at zero; unconscious at zero or below | [`Rules::clamp_hp_at_zero`] |
//! | SB-A19 | a defender may borrow down to no actions next turn, no further | [`Rules::max_borrowed_actions`] (2) |
//! | SB-A21 | flukes only for challenge-type tasks (undefended attacks included) | [`Rules::fluke_in_contests`] |
//!
//! Rulings that are per-roll inputs: SB-A2 (an important task is rolled even by a
//! higher-level character: [`Stakes`]), SB-A8 and SB-A20 (the defender's and attacker's skill:
//! [`Contestant`]; [`WeaponClass::usual_skill`] helps), SB-A9 (contest ties to the Director,
//! defended-attack ties to the attacker: [`Contest`] vs [`Attack::defended`]), SB-A10 (dropping
//! is free: [`Action::Drop`]), SB-A11 (the initiative tie dice are the caller's; higher goes
//! first; re-roll until strictly ordered: [`Initiative`]), SB-A12 and SB-A13 (strict checks for
//! players, lenient for the Director: [`CreatedBy`]; no skill cap below Awesome), SB-A14 and
//! SB-A22 (shaping, Courage, Honesty and the species' specials are plain data), SB-A15 (IQ and
//! INT both parse), SB-A18 (the surprise bonus: [`Surprise`]). SB-A5 (the arrow example) is
//! an erratum: the rule and table stand, see the tests.
//!
//! ## Exact odds
//!
//! [`Challenge`], [`Fluke`], [`Attempt`], [`Contest`], [`Attack`], [`Damage`] and
//! [`Initiative`] implement [`dice_core::Roll`] and [`dice_core::Exact`] (and
//! `rand::distr::Distribution`); the laws come from dice-core's `Sum`, `VersusTarget` and
//! `Streak` distributions and [`dice_core::Dist::difference`], mapped onto the game's outcome
//! types. A fluke's or damage streak's law is geometric and unbounded: it is listed until the
//! unlisted mass is below 1e-15, which is folded into the outcome every longer streak gives.
//!
//! ## Features
//!
//! - `serde`: `Serialize`/`Deserialize` for outcomes, records, characters and [`Rules`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod challenge;
mod character;
mod combat;
mod contest;
mod creation;
mod encounter;
mod error;
mod fluke;
mod injury;
mod level;
mod rules;
mod score;
mod skills;

pub use challenge::{
    Attempt, AttemptRoll, Challenge, ChallengeOutcome, ChallengeRoll, Stakes, auto_success_eligible,
};
pub use character::{
    Characteristic, Characteristics, Shaping, ShapingKind, Size, Species, hit_points,
};
pub use combat::{
    Action, ActionTaken, Armor, Attack, AttackKind, AttackOutcome, AttackRoll, Fight, Initiative,
    InitiativeRoll, Surprise, TurnActions, TurnOrder,
};
pub use contest::{Contest, ContestOutcome, ContestRoll};
pub use creation::{
    Character, CharacteristicChanges, CreatedBy, SkillPackage, SkillRaise, Skills,
    adjust_characteristics, raise_skills,
};
pub use encounter::{
    Choice, Combatant, FightEncounter, FightState, FighterState, MAX_FIGHTERS, Moment, Reach,
    RulebookTactics, Scene, SceneFighter, Victory,
};
pub use error::Error;
pub use fluke::{Fluke, FlukeRoll, fluke_outcome};
pub use injury::{Condition, Damage, DamageRoll, DamageRule, DamageTable, Health, WeaponClass};
pub use level::{Level, Rating};
pub use rules::{HpSizeSource, PunchDamage, Rules, UndefendedHit};
pub use score::{Contestant, ScoreRoll};
pub use skills::{Skill, SkillName, SkillStart};

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
    Challenge, Fluke, Attempt, Contest, Attack, Damage, Initiative
);
