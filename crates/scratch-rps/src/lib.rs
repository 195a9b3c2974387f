//! # dice-scratch-rps
//!
//! Scratch RPS on dice-core: a d20 plus an ability level against a difficulty, a natural 20
//! always succeeds, defense, toughness and hit points, initiative, every basic action and
//! ability, and character creation by character points. Every chance has a roll path taking the
//! caller's RNG, a pure form taking the dice already rolled, and an exact law.
//!
//! The rulebook is *Scratch:Basic Rules*, a page of the RPGnet wiki (revision of 08:07, 7 April
//! 2011, by SerpLord). Line numbers (`L141`) are those of its text, and the ids SC-R…, SC-A…,
//! SC-E… those of the project's rule digest; the project keeps both as reference copies
//! (`seeds/scratch-rps.txt`, `rules/small-systems.md` section 4), not shipped in this
//! repository. The repository's `docs/scratch-rps.md` names the rulebook in full.
//!
//! ```
//! use dice_scratch_rps::{Ability, Attack, AttackKind, Character, Rules};
//! use dice_core::{Exact, Roll};
//! use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
//!
//! let breakhelm = Character::from_stat_block("1 piloting, 4 shooting, 4 fighting, 6 toughness, 3 tgh/2, 13 defense")?;
//! let flipfire = Character::from_stat_block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness")?;
//!
//! // Breakhelm X-19 shoots Flipfire (L141): 4 shooting against defense 12.
//! let shot = Attack::new(AttackKind::Shooting, Some((Ability::Shooting, breakhelm.level(Ability::Shooting))),
//!     flipfire.defense(), &Rules::default())?;
//! assert_eq!(shot.hit_chance(), 0.65);              // faces 8..=20
//! let damage = shot.damage_distribution()?;         // 0, 2, or 5 on a natural 20 (SC-A1)
//! assert_eq!(damage.outcomes(), &[0, 2, 5]);
//! assert_eq!(shot.resolve(7)?.damage, 0);           // L141: a total of 11 misses
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
//! println!("{}", shot.roll(&mut rng));
//! # Ok::<(), dice_scratch_rps::Error>(())
//! ```
//!
//! ## Rules and where they live
//!
//! Digest ids are those of the rule digest; `L…` are rulebook lines (see above).
//!
//! | rule | lines | item |
//! |---|---|---|
//! | SC-R1 abilities: fewer than 1 level, no ability | L11, L17 | [`Character::has`], [`Error::MissingAbility`] |
//! | SC-R2 the roll, natural 20 automatic | L15 | [`roll::resolve`], [`D20Roll`], [`Outcome`] |
//! | SC-R3 ability roll | L17 | [`D20Roll::ability`], [`Character::ability_roll`] |
//! | SC-R4 non-ability roll | L19 | [`D20Roll::non_ability`] |
//! | SC-R5 initiative, tie roll-offs | L23, L87 | [`Initiative`], [`initiative::order`], [`InitiativeContest`], [`Fight::start`] |
//! | SC-R6 regular and bonus actions | L25, L41 | [`Turn`], [`Action`], [`BonusAction`] |
//! | SC-R7 defense | L29 | [`character::defense`], [`Character::defense`], [`Combatant::defense`] |
//! | SC-R8 hit points, health | L33, L71, L127 | [`Health`], [`Combatant`] |
//! | SC-R9 damage, natural-20 extra damage | L37 | [`attack::automatic_damage`], [`Attack`], [`character::after_damage`] |
//! | SC-R10 basic attack | L43 | [`AttackKind::BasicAttack`], [`Action::BasicAttack`] |
//! | SC-R11 hold | L45 | [`AttackKind::Hold`], [`Action::Hold`] |
//! | SC-R12 throw object | L47 | [`AttackKind::ThrowObject`], [`Action::ThrowObject`] |
//! | SC-R13 evade | L49 | [`Action::Evade`], [`Evasion`] |
//! | SC-R14 catch | L51 | [`AttackKind::Catch`], [`Action::Catch`], [`CatchMatrix`] |
//! | SC-R15 escape | L53 | [`Action::Escape`] |
//! | SC-R16 engage | L55 | [`BonusAction::Engage`] |
//! | SC-R17 take cover | L57 | [`BonusAction::TakeCover`] |
//! | SC-R18 character creation | L61–L67 | [`CharacterPoints`], [`Build`] |
//! | SC-R19 toughness | L71 | [`Character::toughness`], [`Character::max_hit_points`] |
//! | SC-R20 shooting | L75 | [`AttackKind::Shooting`], [`Action::Shoot`], [`ShootingCrit`] |
//! | SC-R21 blasting | L77 | [`AttackKind::Blasting`], [`Action::Blast`] |
//! | SC-R22 knockout | L79 | [`AttackKind::Knockout`], [`Action::Knockout`] |
//! | SC-R23 fighting | L81 | [`Action::FightingAttacks`], [`Attacks`] |
//! | SC-R24 wrestling | L83 | [`Action::WrestlingAttacks`] |
//! | SC-R25 stalking | L87 | [`Initiative`] |
//! | SC-R26–R29 acrobatics, quickness, flying, swimming | L89–L95 | [`Movement`], [`Environment`], [`CatchMatrix`], [`Combatant::is_airborne`] |
//! | SC-R30 healing | L99, L107 | [`Treatment`], [`support::healing_roll`], [`Action::Heal`] |
//! | SC-R31 craftsmanship | L101 | [`Party`], [`TemporaryBonus`] |
//! | SC-R32 command and minions | L103–L107 | [`creation::check_minions`], [`Combatant::minion`] |
//! | SC-R33 vehicle abilities | L109–L117 | [`Vehicle`], [`support::vehicle_roll`] |
//! | beyond single rolls: a whole fight | — | [`Fight`], [`FightSimulation`] |
//! | whole fights with exact odds, default tactics, scenes (issue 16) | L23–L57, L75–L99, L119–L149 | [`encounter`], [`FightEncounter`], [`Tactics`], [`Scene`] |
//!
//! ## Rulings
//!
//! [`Rules`] holds the knobs; its `Default` is the project's rulings: SC-A1
//! ([`Rules::shooting_crit`], natural-20 shot does 5), SC-A9 ([`Rules::catch`], the
//! environment-to-catch matrix), SC-A6 ([`Rules::natural_20_without_ability`], no roll
//! without the ability) and L101's hurry roll ([`Rules::hurry_roll`]). The other rulings
//! (SC-A2–A5, A7, A8, A10–A18) are followed as listed on [`Rules`].
//!
//! Library choices where the text is silent or ambiguous and the digest has no entry:
//! - a "flying character" (L93) is one with flying where there is room to fly; after he
//!   evades (with any ability) or makes a long-range attack, close-range attacks on him are
//!   refused, except a catch made with a movement ability the [`CatchMatrix`] allows;
//! - swimming in water is added on top literally: to a catch rolled with swimming, and to
//!   defense while evading with swimming (SC-A15's additive reading);
//! - situational modifiers (engage, take cover, swimming in water) apply to non-ability
//!   attack rolls too (L19 only excludes ability levels);
//! - a "hit" that spoils an escape (L53) is any successful attack, holds included;
//! - craftsmanship counts bonuses against the craftsman's bought level;
//! - flying "can only be used where there is room to fly" (L93) covers defense: in a
//!   [`Fight`] without room to fly, flying is not a defensive ability
//!   ([`Character::defense_where`]); a stat block's [`Character::defense`] is the book's;
//! - catching with swimming needs the catcher in water, as evading with it does (L95);
//! - shallow water is a place swimmers "cannot get far from solid ground" (L91), so
//!   quickness catches them there ([`CatchCondition::NearGroundOrShallowWater`]);
//! - a character without toughness cannot be revived (L71 against L99,
//!   [`Error::WithoutToughness`]): his maximum hit points are 0 (L33);
//! - a bonus whose hurried roll failed stays blocked, with or without a roll, until the
//!   hurry ends ([`Party::end_hurry`], L101).
//!
//! ## Exact odds
//!
//! Every single roll implements [`dice_core::Exact`] by enumerating the d20's 20 faces
//! ([`D20Roll`], [`Attack`], [`Initiative`]), or by convolution ([`Attacks`]: the total
//! damage of one action's attacks) and symmetry ([`InitiativeContest`]: the roll-off is a
//! fair coin). [`Fight::attack_for`] gives the exact attack for any situation in a fight.
//! A whole fight's exact odds (who is left standing, how many rounds) come from
//! [`FightEncounter`], a dice-core [`Encounter`](dice_core::Encounter) whose every turn is
//! [`Fight::take_turn`] with one face of each outcome of each die, played with the default
//! [`Tactics`] or the caller's [`Policy`](dice_core::Policy); [`FightSimulation`] still
//! simulates fights with its simple greedy tactics.
//!
//! ## Features
//!
//! - `serde`: `Serialize`/`Deserialize` for outcomes, characters, rules and fight state.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ability;
pub mod attack;
pub mod character;
pub mod creation;
pub mod encounter;
mod error;
pub mod fight;
pub mod initiative;
pub mod roll;
pub mod rules;
pub mod sim;
pub mod support;

pub use ability::{Ability, Movement, Vehicle};
pub use attack::{Attack, AttackKind, AttackResult, Attacks, Range};
pub use character::{Character, Health};
pub use creation::{Build, CharacterPoints};
pub use encounter::{FightEncounter, FightEnd, FightState, Scene, SceneCombatant, Tactics};
pub use error::Error;
pub use fight::{
    Action, BonusAction, Combatant, CombatantId, Condition, Evasion, Fight, RollPurpose,
    RollReport, Turn, TurnReport, TurnStatus,
};
pub use initiative::{Initiative, InitiativeContest, Side};
pub use roll::{D20Roll, Outcome, RollKind};
pub use rules::{CatchCondition, CatchMatrix, Environment, HurryRoll, Rules, ShootingCrit, Water};
pub use sim::{FightOutcome, FightSimulation};
pub use support::{Party, TemporaryBonus, Treatment};

/// The highest ability level this library accepts (a library limit, not a rule: the text
/// sets maximum levels per setting, L63–L67). Keeps every total far from overflow.
pub const MAX_LEVEL: u32 = 1_000;

/// The largest difficulty or modifier magnitude this library accepts (a library limit).
pub const MAX_DIFFICULTY: i64 = 1_000_000;

/// Checks a difficulty or modifier against ±[`MAX_DIFFICULTY`].
pub(crate) fn check_range(what: &'static str, value: i64) -> Result<i64, Error> {
    if value.abs() > MAX_DIFFICULTY {
        return Err(Error::OutOfRange {
            what,
            value,
            max: MAX_DIFFICULTY,
        });
    }
    Ok(value)
}

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
    D20Roll,
    Attack,
    Attacks,
    Initiative,
    InitiativeContest,
    FightSimulation,
);

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
