//! # dice-shapers-percentile
//!
//! The combat chapter of *Shapers* (a d100 roll-under game; not *Shapers and Bots*), built on
//! [`dice_core`]: the d100 test against `TN = 50 + attribute + aptitude + modifiers` with its
//! signed margin, opposed tests, the optional passive defence, counter-attacks, initiative with
//! roll-offs, movement and free actions, the melee and ranged modifier tables as data,
//! outnumbering, damage, dreamscapes and hit locations — each with a pure form that takes dice
//! already rolled, a roll path that takes the caller's RNG, and, where it is a chance, its
//! exact law ([`dice_core::Exact`]).
//!
//! The rulebook is the combat chapter of *Shapers* (no edition, revision or publisher stated).
//! Line numbers (`L40`) are those of its text, and the ids PC-R…, PC-A…, PC-E… those of the
//! project's rule digest; the project keeps both as reference copies
//! (`seeds/shapers-percentile-combat.txt`, `rules/small-systems.md` section 3), not shipped in
//! this repository. The repository's `docs/shapers-percentile.md` names the rulebook in full.
//!
//! ```
//! use dice_core::{Exact, Roll};
//! use dice_shapers_percentile::{
//!     Attack, AttackKind, AttackOutcome, Damage, Defence, MeleeSituation, Outnumbering, Rules, Test,
//! };
//! use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
//!
//! let rules = Rules::default(); // the project's rulings
//! // Three against one, charging: +30 and +10 to the TN (L40, L66).
//! let situation = MeleeSituation {
//!     charging: true,
//!     outnumbering: Some(Outnumbering::new(3, 1)?),
//!     ..MeleeSituation::default()
//! };
//! let swing = Test::new(12, 6, situation.total(&rules)?, &rules)?; // PA 12 + Melee 6
//! let parry = Test::new(10, 8, 0, &rules)?;
//! let attack = Attack::new(swing, Defence::Opposed(parry), AttackKind::Melee, &rules)?;
//!
//! // Worked by hand: the attacker rolls 40 (TN 108: +68), the defender 30 (TN 68: +38).
//! assert_eq!(attack.resolve(&[40, 30])?.outcome, AttackOutcome::Hit { bonus: 3 });
//!
//! // Rolled.
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
//! println!("{}", attack.roll(&mut rng));
//!
//! // Exact odds.
//! let law = attack.distribution()?;
//! let p_hit = law.probability_where(|o| o.is_hit());
//! assert!(p_hit > 0.8);
//! let blade = Damage::new(AttackKind::Melee, 6, 14, 12)?
//!     .outnumbering(Outnumbering::new(3, 1)?.damage_bonus(&rules))?
//!     .against(2, 9)?;
//! let damage = attack.damage_distribution(&blade)?;
//! println!("mean damage per swing {:.2}", damage.mean());
//! # Ok::<(), dice_shapers_percentile::Error>(())
//! ```
//!
//! ## The rules and where they live
//!
//! Rule ids are those of the rule digest and line numbers `L…` those of the rulebook text
//! (see above).
//!
//! | rule | lines | item |
//! |---|---|---|
//! | PC-R1 round length | L2 | [`ROUND_SECONDS`], [`ROUNDS_PER_MINUTE`] |
//! | PC-R2 initiative d10 + PA + MA, roll-offs | L3–4 | [`Initiative`], [`TurnOrder`], [`Order`], [`Ranking`] |
//! | PC-R3 free actions | L5–9 | [`FreeAction`] |
//! | PC-R4 movement (walk, jog, run, charge, sprint) | L10–15 | [`Movement`], [`Attacks`], [`Test::sprint_trip`] |
//! | PC-R5 melee reach 2 m | L17 | [`within_melee_reach`], [`MELEE_REACH_METRES`] |
//! | PC-R6 attack test, TN 50 + PA + Aptitude + modifiers | L18, L34, L66 | [`Test`], [`AVERAGE_TN`] |
//! | PC-R7 signed margin | L26, L28, L71 | [`TestResult`] |
//! | PC-R8 defending, opposed rolls, Dodge only vs 10+ sizes larger | L19–22 | [`OpposedTest`], [`Defence`], [`defence_allowed`], [`DefenceAptitude`] |
//! | PC-R9 optional passive defence | L23–26 | [`Defence::Passive`], [`Attack`] |
//! | PC-R10 counter-attack (loses by 30+, +1 per 10) | L27–28 | [`AttackOutcome::CounterAttack`], [`COUNTER_ATTACK_LOSS`] |
//! | PC-R11 dreamscapes | L29–32 | [`dreamscape_attribute`], [`Attributes::in_dreamscape`], [`DreamEntry`] |
//! | PC-R12 melee modifiers | L35–48 | [`MELEE_MODIFIERS`], [`MeleeAction`], [`MeleeSituation`] |
//! | PC-R13 ranged modifiers, range bands | L49–64 | [`RANGED_MODIFIERS`], [`RangedAction`], [`RangedSituation`], [`RangeBand`], [`Cover`] |
//! | PC-R14 outnumbering (+10 TN, +1 damage per combatant) | L41, L65–68 | [`Outnumbering`] |
//! | PC-R15 damage | L69–73 | [`Damage`], [`damage_bonus`], [`AttackKind`] |
//! | PC-R16 optional lethal damage | L74–75 | [`Rules::lethal`] |
//! | PC-R17 hit location | L76–85 | [`HitLocation`], [`Location`], [`HIT_LOCATIONS`], [`Aim`] |
//! | whole fights (issue 16): Health, Turn Order, positions, walking up, running, charging, sprinting, reach, one attack a turn, aiming, range bands, cover, counter-attacks, armour by hit location | L3–28, L40, L51–85 | [`Fight`], [`Scene`], [`Combatant`], [`Speed`], [`FightState`], [`StandardTactics`] |
//!
//! ## Rulings (every one a field of [`Rules`]; `Rules::default()` is the ruling)
//!
//! | ambiguity | ruling (default) | knob |
//! |---|---|---|
//! | PC-A1 TN composition, roll direction | TN = 50 + attribute + aptitude + modifiers, roll under; no automatic 01/00 | [`Rules::mode`] ([`PctMode`]) |
//! | PC-A2 roll equal to the TN | succeeds, margin 0 | (part of [`PctMode::RollUnder50Base`]) |
//! | PC-A3 opposed comparison, ties | a failed attack never hits; a success beats a failed defence; two successes by margin, ties to the defender (the digest's "higher margin" reading is the knob's other value: it lets a failed attack hit, which L18 and L26 do not support) | [`Rules::opposed`] ([`OpposedResolution`]), [`Rules::opposed_tie`] ([`OpposedTie`]) |
//! | PC-A4 "loses by 30" | the margin difference; the attacker must lose | [`Rules::counter_attack`] ([`CounterAttackBasis`]) |
//! | PC-A5 margin for +1 per 10 when defended | the net margin | [`Rules::damage_margin`] ([`DamageMargin`]) |
//! | PC-A6 outnumbering count | every combatant on the outnumbering side | [`Rules::outnumber`] ([`OutnumberCount`]) |
//! | PC-A7 Large target vs Size modifier | exclusive, Size when known | [`Rules::size_vs_large_target`] ([`SizeVsLargeTarget`]) |
//! | PC-A8 beyond triple range; band bounds | no shot (`None`); first "up to" bound, inclusive | [`RangeBand::from_distance`] |
//! | PC-A9 "MA", Size units | Mental Agility; plain inputs | [`Initiative::new`], [`Sizes`] |
//! | PC-A10 damage below 0 | clamped at 0 | [`Rules::clamp_damage_at_zero`] |
//! | PC-A11 passive defence net 0; counter-attacks | net 0 succeeds; no counter-attack | [`Rules::passive_net_zero_succeeds`], [`Rules::passive_counter_attack`] |
//! | PC-A12 jogging in melee | the caller's penalty | [`MeleeSituation::jogging`] |
//! | PC-A13 sprint trip roll | PA + Athletics against TN 50 | [`Test::sprint_trip`] |
//! | PC-A14 untrained −20 outside ranged | applies to any attack | [`Rules::untrained_penalty_in_melee`] |
//! | PC-A15 called shot | the location is chosen, not rolled | [`Aim::Called`] |
//!
//! The two readings of PC-A3 differ only when both tests fail; the tests enumerate both d100s
//! for each reading and check which monotonicity each has (see [`OpposedResolution`]).
//!
//! ## Exact odds
//!
//! [`Test`] (P(success), [`Test::margin_distribution`]), [`OpposedTest`] (the joint law of
//! two independent tests), [`Attack`] (the damage bonus distribution, hit / miss /
//! counter-attack), [`Attack::damage_distribution`], [`HitLocation`], [`Aim`],
//! [`Initiative`] and [`TurnOrder`] (up to [`MAX_EXACT_COMBATANTS`]) implement
//! [`dice_core::Exact`]; every law is computed by enumerating the faces of dice-core's d100
//! and d10.
//!
//! ## Features
//!
//! - `serde`: `Serialize`/`Deserialize` for outcomes, rules and plain inputs.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

mod attack;
mod d100;
mod damage;
mod dreamscape;
mod encounter;
mod error;
mod initiative;
mod location;
mod modifiers;
mod movement;
mod opposed;
mod rules;

pub use attack::{Attack, AttackOutcome, COUNTER_ATTACK_LOSS, Defence, Exchange};
pub use d100::{AVERAGE_TN, Test, TestResult};
pub use damage::{AttackKind, Damage, damage_bonus};
pub use dreamscape::{Attributes, DreamEntry, Triad, dreamscape_attribute};
pub use encounter::{
    Action, Armour, Combatant, Fight, FightState, MAX_FIGHTERS, Scene, Skirmish, Speed,
    StandardTactics, Victory, Weapon,
};
pub use error::{Error, MAX_SCORE};
pub use initiative::{Initiative, MAX_EXACT_COMBATANTS, Order, Ranking, TurnOrder};
pub use location::{Aim, HIT_LOCATIONS, HitLocation, Location};
pub use modifiers::{
    Applied, Cover, MELEE_MODIFIERS, MeleeAction, MeleeSituation, ModifierSource, Outnumbering,
    RANGED_MODIFIERS, RangeBand, RangedAction, RangedSituation, Row, Sizes, TableModifier,
};
pub use movement::{
    Attacks, DODGE_ONLY_SIZE_GAP, DefenceAptitude, FreeAction, MELEE_REACH_METRES, Movement,
    ROUND_SECONDS, ROUNDS_PER_MINUTE, defence_allowed, within_melee_reach,
};
pub use opposed::{OpposedResult, OpposedTest, Side};
pub use rules::{
    CounterAttackBasis, DamageMargin, OpposedResolution, OpposedTie, OutnumberCount, PctMode,
    Rules, SizeVsLargeTarget,
};

/// The README's example, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
