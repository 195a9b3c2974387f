//! # dice-swimclass
//!
//! *Project Swimclass* on [`dice_core`]: skills with ranks, defaults and synergy; the task roll
//! of rank d6 against a difficulty with progress over rounds and criticals; opposed rolls and
//! combat with die-against-die blocking; HP, recovery and stabilization; implements and
//! artifacts with their value and the rulebook's catalogue; skill advancement; combining, aid,
//! windup, straining, pushing and initiative; crafting, traits and magic. Every chance has a
//! pure form that takes dice already rolled, a roll path that takes the caller's RNG, and its
//! exact distribution through [`dice_core::Exact`].
//!
//! The rulebook is *Project Swimclass* (no edition, revision or publisher stated). Line numbers
//! (`L290–L294`) are those of its text, and the ids SW-R…, SW-A…, SW-E… those of the project's
//! rule digest; the project keeps both as reference copies (`seeds/swimclass.txt`,
//! `rules/small-systems.md` section 2), not shipped in this repository. The repository's
//! `docs/swimclass.md` names the rulebook in full.
//!
//! ```
//! use dice_core::{Exact, Roll};
//! use dice_swimclass::{Bonus, OpposedRoll, Rules, SkillDice, ranged_difficulty};
//! use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
//!
//! // Aerolis (Ranged 3, Common Bow +4) shoots the beast (Defense 3) at one square (L290–L294).
//! let aerolis = SkillDice::new(3).with_bonus(Bonus::Plus { dice: 1, modifier: 4 })?;
//! let shot = OpposedRoll::new(aerolis, ranged_difficulty(1), Some(SkillDice::new(3)), Rules::default())?;
//! let r = shot.resolve(&[5, 4, 4], &[2, 2, 2])?;
//! assert_eq!(r.outcome.hits, 3);   // "hit for 3 damage"
//! assert!(r.outcome.advances);      // "he gains a rank in his skill"
//! let odds = shot.distribution()?;  // the exact law of hits, criticals and advancement
//! assert!((odds.total() - 1.0).abs() < 1e-12);
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
//! println!("{}", shot.roll(&mut rng));
//! # Ok::<(), dice_swimclass::Error>(())
//! ```
//!
//! ## Rules and where they live
//!
//! | digest | lines | rule | item |
//! |---|---|---|---|
//! | SW-R1 | L9, L67 | dice colours | [`DieColour`], [`SkillDice`] |
//! | SW-R2, SW-A27 | L13, L23, L141, L161 | creation, default ranks, prerequisites | [`Sheet::new`], [`Skill::default_rank`], [`SkillKind`], [`PICK_RANK`], [`STARTING_GP`], [`Sheet::may_develop`] |
//! | SW-R3, SW-R4 | L17–L19 | rank d6, a success is value ≥ difficulty | [`SkillDice`], [`Task`], [`TaskRoll`] |
//! | SW-R5 | L19 | progress over rounds, all-or-nothing | [`Task`], [`TaskProgress`], [`Progress`], [`TaskRoll::progress_after`] |
//! | SW-R6 | L21 | criticals | [`effective_criticals`], [`TaskOutcome::criticals`] |
//! | SW-R7, SW-R11, SW-R12 | L25, L33–L39, L107–L113 | opposed rolls, attack, defense, blocking | [`OpposedRoll`], [`Hits`], [`HitTable`], [`SkillDice::split`], [`NO_THRESHOLD`] |
//! | SW-R8 | L27, L67 | skill advancement | [`advances`], [`TaskOutcome::advances`], [`TaskRoll::advance_chance`], [`Sheet::advance`] |
//! | SW-R9 | L27, L99–L103 | difficulty scale | [`tables::EASY`], [`tables::MADNESS`], [`TaskRoll::has_chance_of_failure`] |
//! | SW-R10 | L31, L171 | synergy, both ways, to a fixed point | [`SYNERGIES`], [`Sheet::apply_synergy`] |
//! | SW-R13 | L41 | HP = Defense + 1, down at 0 | [`max_hp`], [`Health`], [`Condition`] |
//! | SW-R14 | L41 | recovery | [`Recovery`] |
//! | SW-R15 | L41, L225 | stabilization | [`Stabilize`], [`Health::stabilize`] |
//! | SW-R16 | L43 | reserve | [`with_reserve`] |
//! | SW-R17 | L45 | initiative | [`InitiativeScore`], [`initiative_order`], [`Initiative`], [`InitiativeContest`] |
//! | SW-R18 to SW-R21 | L51–L54, L65–L67 | (N+M), (N-crit), (N*M), (ND) | [`Bonus`], [`Implement`], [`SkillDice::apply`], [`SkillDice::apply_chosen`], [`best_assignment_against`] |
//! | SW-R22 | L56–L63 | implement value | [`Implement::value`], [`ValuationRule`], [`RARE_VALUE`] |
//! | SW-R23 to SW-R26 | L69–L85 | combining, two in a round, aid, windup | [`combine`], [`two_skills_in_round`], [`aid_another`], [`windup`] |
//! | SW-R27 | L87–L89 | straining | [`strain`] |
//! | SW-R28 | L91–L93 | pushing | [`push`], [`Push`] |
//! | SW-R29 to SW-R34 | L105–L155 | the basic skills | [`BASIC_TASKS`], [`ranged_difficulty`], [`tables::squares_moved`], [`tables::is_encumbered`] |
//! | SW-R35 | L157–L161 | crafting | [`craft`] |
//! | SW-R36 | L167–L181 | traits | [`tables::vision_bonus`], [`tables::flight`], [`tables::PairedTrait`] |
//! | SW-R37 to SW-R43 | L183–L235 | magic | [`Spell`], [`SpellInput`], [`MagicWheel`], [`magic::blaze_hits`], [`magic::undead`] |
//! | SW-R44 | L237–L260 | the catalogue | [`CATALOGUE`], [`CatalogueEntry`] |
//! | SW-R45 | L262–L266 | range in squares | [`ranged_difficulty`] |
//! | issue 16 | L27, L33–L45, L217–L231, L268–L298 | whole fights: initiative order, turns, reserve, stun, heal and stabilization by Life, Health, stabilization, advancement mid-fight (an option), the Sample Rounds scene | [`encounter`], [`Fight`], [`Scene`], [`Rulebook`] |
//!
//! ## Rulings
//!
//! [`Rules`] holds the knobs; its `Default` is the project's rulings (SW-A2, A3, A4, A6–A9,
//! A11, A13–A15, A18, A20, A23, A24). The rest are followed as listed on [`Rules`].
//!
//! Library choices where the text and the digest are silent:
//! - (N+M) placement ([`BonusAssignment`], SW-A3): by default the player's best for the
//!   roll's purpose (L51 "+M to up to N dice", the player's choice); the acting side of an
//!   opposed roll places after its own roll and before the opposition's (the order of the
//!   Sample Rounds, L270–L272), the opposing side knowing the acting dice; the Sample
//!   Rounds' "highest die" procedure is [`BonusAssignment::Highest`]. Each die takes at most
//!   one (N+M) bonus; bonuses go to rolled dice, not (N*M) constants; ties keep the highest
//!   dice, in pool order (skill, aid, artifact);
//! - under [`ConstantDice::ReplacePoolDice`] at most the skill's own dice are replaced;
//! - natural 1s of aid and artifact dice are criticals too; constants never are;
//! - in an opposed roll the skill advances only when none of the roll's hits is blocked;
//!   the opposing roll is a skill roll too (L21, L27): it fails when the acting roll
//!   succeeds (then its natural 1s after the first are criticals), and it advances when it
//!   succeeds, could have failed and every die of its pool shows 4 or more (an opposing die
//!   has no threshold of its own, L111);
//! - a skill with a prerequisite (Specialized Craft: general Craft 2, L161) is neither
//!   developed nor used below it ([`Sheet::may_develop`]), except with an artifact (L54);
//! - splitting dice between targets keeps implements and extra dice with the first target;
//! - a rank-0 skill with no artifact rolls no dice; exotic skills and traits default to 0;
//! - the specialized and limited-use crafting reductions stack.
//!
//! ## Exact odds
//!
//! Every chance enumerates the multisets of faces of each colour of dice (462 for 6d6), so
//! implements, criticals and advancement are exact; blocking groups both sides and takes
//! Hall's `max(0, maxⱼ(Hⱼ − Dⱼ))` per pair with a fixed-width vector loop. Plain dice use
//! dice-core: [`Progress`] is a [`dice_core::SuccessPool`] and [`Hits`] a
//! [`dice_core::Blocking`].
//!
//! ## Features
//!
//! - `serde`: `Serialize`/`Deserialize` for outcomes, dice, rules and sheets (the catalogue
//!   serializes only).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod actions;
pub mod combat;
pub mod craft;
pub mod dice;
pub mod encounter;
mod error;
mod exact;
pub mod implement;
pub mod magic;
pub mod opposed;
pub mod rules;
pub mod skill;
pub mod tables;
pub mod task;
mod versus;

pub use actions::{
    Combined, Context, Initiative, InitiativeContest, InitiativeScore, Push, Side, Strain,
    aid_another, combine, initiative_order, push, strain, two_skills_in_round, windup,
};
pub use combat::{
    Condition, Health, RECOVERY_DIFFICULTY, Recovery, Stabilize, StabilizeOutcome, max_hp,
    ranged_difficulty, with_reserve,
};
pub use dice::{DieColour, MAX_BONUS, MAX_POOL, SkillDice};
pub use encounter::{Action, Fight, FightState, Rulebook, Scene, Victory};
pub use error::Error;
pub use exact::{MAX_ENUMERATION, MAX_PAIRS};
pub use implement::{Applies, Bonus, CATALOGUE, CatalogueEntry, Currency, Implement, RARE_VALUE};
pub use magic::{Spell, SpellInput};
pub use opposed::{
    HitTable, Hits, NO_THRESHOLD, OpposedOutcome, OpposedResult, OpposedRoll,
    best_assignment_against,
};
pub use rules::{
    Ammunition, BlazeHits, BlockRule, BonusAssignment, ConstantDice, CraftRounding, MagicWheel,
    Rules, StabilizeRule, StrainPenalty, ValuationRule,
};
pub use skill::{
    PICK_RANK, RankChange, STARTING_GP, SYNERGIES, School, Sheet, Skill, SkillKind, Synergy,
};
pub use tables::{BASIC_TASKS, BasicTask};
pub use task::{
    MAX_DIFFICULTY, MAX_PROGRESS, Progress, ProgressStatus, Task, TaskOutcome, TaskProgress,
    TaskResult, TaskRoll, advances, effective_criticals,
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
    TaskRoll,
    Progress,
    OpposedRoll,
    Hits,
    Recovery,
    Stabilize,
    Initiative,
    InitiativeContest,
);

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
