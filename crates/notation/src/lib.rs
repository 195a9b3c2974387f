//! # dice-notation
//!
//! Dice expressions as people type them into virtual tabletops — `4d6kh3`, `10d10!10>=8f1`,
//! `2d20kh1+5 vs 15` — parsed, checked against limits, and compiled onto dice-core, so that
//! every expression can be rolled (showing every die) and asked for its exact distribution.
//!
//! ```
//! use dice_notation::{Expression, Outcome};
//! use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
//!
//! let attack = Expression::parse("1d20 + 5 vs 15")?;
//! assert_eq!(attack.to_string(), "1d20+5 vs 15"); // canonical form
//!
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
//! let roll = attack.roll(&mut rng); // every die, the total, the target, the outcome
//! println!("{roll}"); // e.g. "1d20 [12] = 12 → 17 vs 15: above"
//!
//! let odds = attack.distribution()?; // exact
//! let hit = odds.probability_where(|o| o >= &Outcome::Versus(dice_core::Versus::Equal));
//! assert!((hit - 0.55).abs() < 1e-15);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Expression`] implements [`dice_core::Roll`], [`dice_core::Exact`] and
//! [`rand::distr::Distribution`], so dice-sim's Monte Carlo runs and the `dice` command-line
//! tool take it like any other mechanic. The full grammar, with one example per construct,
//! the order of modifiers and the limits, is in `docs/notation.md`.
//!
//! ## What implements what
//!
//! | construct | syntax | item | rolled by / exact law from |
//! |---|---|---|---|
//! | dice | `NdS`, `dS`, `d%` (= `d100`) | [`DiceTerm`], [`DieKind::Sides`] | `dice_core::Sum` |
//! | Fudge dice | `NdF` (faces −1, 0, +1) | [`DieKind::Fudge`] | `Sum` of d3 − 2 per die |
//! | arithmetic | `+ - * /` (`− × ÷`), `( )`, constants | [`BinOp`], [`ExprKind::Binary`] | `Dist::add`, `difference`, `map`, joint laws |
//! | division | `/` rounds toward −∞ (`-7/2 = -4`) | [`BinOp::Div`] | — |
//! | functions | `min(a, b, …)`, `max(a, b, …)` | [`Func`] | joint laws |
//! | keep/drop | `khN`, `klN`, `dhN`, `dlN`, `kN` | [`DiceTerm::keep`] (`dice_core::Keep`) | `Sum` (order statistics) |
//! | explode | `!`, `!N`, `!>=N`, `!{…}` | [`Explosion`] | `dice_core::Explode::new` |
//! | compound | `!!`, `!!>=N` | [`Explosion::compound`] | `Explode::compounding` |
//! | explosion cap | `!capN`, `!>=9cap3` | [`Explosion::cap`] | `Explode::with_cap` |
//! | reroll | `rN`, `r<=N` (until), `roN` (once) | [`Reroll`] | this crate: per-die law |
//! | success count | `>=N`, `<=N`, `>N`, `<N`, `=N`, `={…}` | [`DiceTerm::success`], [`Cmp`] | `dice_core::SuccessPool` |
//! | failures | `>=8f1`, `>=8f<=2` | [`DiceTerm::failure`] | this crate: per-die law |
//! | clamps | `minN`, `maxN` (each die) | [`DiceTerm::min`], [`DiceTerm::max`] | this crate: per-die law |
//! | streak | `streak(d6>=4)`, `streak(d6={5,6}cap10)` | [`StreakTerm`] | `dice_core::Streak` |
//! | three-way comparison | `… vs …` | [`ExprKind::Versus`], [`Outcome::Versus`] | `dice_core::VersusTarget` |
//! | comparison as a value | `(1d20 >= 1d20)` | [`ExprKind::Compare`], [`Relation`] | `Dist` operations |
//! | remainder, power, rounded division | `%`, `**`, `ceil(x/y)`, `round(x/y)`, `trunc(x/y)` | [`BinOp`] | joint laws |
//! | absolute value, sign | `abs(…)`, `sign(…)` | [`Func::Abs`], [`Func::Sign`] | `Dist::map` |
//! | groups | `{4d6kh3, 4d6kh3}kh1`, `{2d6, 1d12}>=8` | [`ExprKind::Group`], [`GroupTerm`] | order statistics, or item by item |
//! | penetrate | `!p`, `!!p` | [`Explosion::penetrate`] | this crate; keep/drop: `dice_core::Pool::kept_score` |
//! | reroll and add, selections | `ra1`, `k(>3)`, `d(<2)` | [`DiceTerm::reroll_add`], [`Select`] | this crate: per-die law |
//! | unique | `u`, `uo`, `u(=5)` | [`Unique`] | `dice_core::Unique` |
//! | sets of matching dice | `6d6mt`, `5d6mt3(>=4)` | [`Matches`] | this crate: a multinomial over the faces |
//! | computed dice | `(1d4)d8`, `2d(1d4+2)` | [`ComputedDice`], [`ExprKind::Computed`] | a mixture over the count's and sides' laws |
//! | failures' values, criticals, sort | `sf<3`, `cs>=19`, `sd` | [`DiceTerm`] | per-die law; display only |
//! | limits in the term, steps in order | `6d10!10limit5`, `5d10!<8cap1!10>=8` | [`RollStep`], [`DiceTerm::sequence`] | this crate: binomial sums over the walk's ends; per-die recursion |
//! | rolled success target | `3d6>=(1d4)` (Roll20's `3d6>[[1d4]]`) | [`ComputedDice::target`] | a mixture over the target's law |
//! | group of one value, keeping its item's dice | `{4d6,}>10`, `{4d10*(2+5d6)}kh2` | [`GroupTerm`], [`GroupTerm::dice`] | the item's law; cases of the last die kept |
//! | exact division, decimals (the dialects) | `exact(1d6/2)` (Roll20's `1d6/2`), `exact(3/2)` (`1.5`) | [`BinOp::DivExact`], [`Rational`], [`Outcome::Fraction`] | the fraction path: exact fractions over the integer engine's laws |
//! | rounding a fraction | `floor(…)`, `round(…)`, `round_away(…)`, `trunc(…)` of a fraction | [`Func::Floor`] … [`Func::RoundAway`] | the fraction path |
//!
//! ## Dialects
//!
//! [`Expression::parse_with`] reads the notation of Roll20, Foundry VTT, Avrae's d20 and
//! rpg-dice-roller ([`Dialect`]) with each one's meaning where they disagree (Roll20's `>4`
//! includes 4, Foundry's `r` rerolls once, d20's `k3` keeps the dice showing 3), onto the
//! same tree; the canonical form is in this crate's grammar.
//!
//! ```
//! use dice_notation::{Dialect, Expression};
//! let e = Expression::parse_with("10d6cs>4df<2", Dialect::Foundry)?;
//! assert_eq!(e.to_string(), "10d6>4f<2");
//! # Ok::<(), dice_notation::ParseError>(())
//! ```
//!
//! Their `/` divides exactly and their numbers may have decimals: such values are exact
//! fractions ([`Rational`]), a value that is not whole an [`Outcome::Fraction`], with exact
//! laws; an expression that cannot leave a fraction keeps the integer engine.
//!
//! ```
//! use dice_notation::{Dialect, Expression, Outcome, Rational};
//! let e = Expression::parse_with("4d6/7 + 2d10dl1", Dialect::RpgDiceRoller)?;
//! assert_eq!(e.to_string(), "exact(4d6/7)+2d10dl1");
//! let r = e.roll_faces([1, 2, 3, 4, 5, 6])?;
//! assert_eq!(r.outcome, Outcome::Fraction(Rational::new(52, 7)?));
//! assert_eq!(r.outcome.to_string(), "52/7 (≈7.43)");
//! // Avrae d20's total is the integer part of its value.
//! let d20 = Expression::parse_with("1.5", Dialect::D20)?;
//! assert_eq!(d20.roll_faces([])?.outcome, Outcome::Number(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Within a dice term the modifiers apply in one fixed order, whatever order they are
//! written in: **reroll, explode, clamp, keep/drop, count** (see [`DiceTerm`]).
//!
//! ## Limits
//!
//! Checked when parsing, so rolling never fails and nothing hangs: [`MAX_INPUT_LEN`] bytes of
//! input, [`MAX_DEPTH`] levels of parentheses, functions, signs and exponents, [`MAX_DICE`] dice per
//! expression, [`MAX_SIDES`] sides, explosion and streak caps up to [`MAX_EXPLOSION_CAP`],
//! at most [`MAX_ROLLED`] dice rolled by one roll in the worst case, numbers up to
//! [`MAX_CONSTANT`], every intermediate value within ±[`MAX_VALUE`], and no divisor that can
//! be 0. Exact odds give up with an error beyond [`MAX_EXACT_WORK`] steps or [`MAX_LISTED`]
//! outcomes.
//!
//! ## Features
//!
//! - `serde`: `Serialize`/`Deserialize` for [`RollResult`] (with its terms and dice),
//!   [`Outcome`] (a number, a fraction's text `"52/7"`, or `"below"`/`"equal"`/`"above"`),
//!   [`Rational`] (its text), [`Span`], and [`Expression`] (as its canonical text).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod ast;
mod compile;
mod dialect;
mod dice_group;
mod error;
mod exact;
mod expression;
mod fraction;
mod fraction_law;
mod one_group;
mod outcome;
mod parse;
mod rational;
mod roll;
mod select;
mod sequence;

pub use ast::{
    BinOp, Cmp, ComputedDice, DiceTerm, DieKind, Explosion, Expr, ExprKind, Func, GroupTerm,
    Matches, Relation, Reroll, RollStep, Select, Sort, Span, StepKind, StreakTerm, Unique,
};
pub use dialect::{Dialect, UnknownDialect};
pub use error::{NotationError, ParseError, ParseErrorKind};
pub use expression::{Expression, FaceError};
pub use rational::{Rational, RationalError};
pub use roll::{Outcome, RollResult, RolledDie, TermRoll};
pub use select::{Pick, Step};

/// The longest input, in bytes, both as typed and as written out in full (its canonical form,
/// which must read back: `d6+d6` is `1d6+1d6`, and a dialect's `odd` lists the odd faces).
///
/// ```
/// use dice_notation::{Expression, MAX_INPUT_LEN};
/// assert!(Expression::parse(&"1".repeat(MAX_INPUT_LEN + 1)).is_err());
/// ```
pub const MAX_INPUT_LEN: usize = 1000;

/// The deepest nesting of parentheses, function calls, signs (`-(-(…))`) and exponents
/// (`2**2**…`, which nests to the right). Every walk over an expression (parsing,
/// compiling, rolling, exact odds, printing) recurses only through such nesting and loops
/// over chains of operators (`1+2-3+…`), so that any expression within the limits fits a
/// 2 MiB thread's stack, unoptimised builds included.
///
/// ```
/// use dice_notation::{Expression, MAX_DEPTH};
/// let deep = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
/// assert!(Expression::parse(&deep(MAX_DEPTH)).is_ok());
/// assert!(Expression::parse(&deep(MAX_DEPTH + 1)).is_err());
/// let powers = |n: usize| "1**".repeat(n) + "1";
/// assert!(Expression::parse(&powers(MAX_DEPTH)).is_ok());
/// assert!(Expression::parse(&powers(MAX_DEPTH + 1)).is_err());
/// ```
pub const MAX_DEPTH: usize = 32;

/// The most dice in one expression, over all its terms, before explosions and rerolls.
///
/// ```
/// use dice_notation::{Expression, MAX_DICE};
/// assert!(Expression::parse(&format!("{MAX_DICE}d6")).is_ok());
/// assert!(Expression::parse(&format!("{MAX_DICE}d6+1d6")).is_err());
/// ```
pub const MAX_DICE: u32 = 10_000;

/// The most sides a die may have (dice-core's [`dice_core::MAX_SIDES`]); the fewest is 2.
///
/// ```
/// use dice_notation::Expression;
/// assert!(Expression::parse("1d1000").is_ok());
/// assert!(Expression::parse("1d1001").is_err());
/// assert!(Expression::parse("1d1").is_err());
/// ```
pub const MAX_SIDES: u32 = dice_core::MAX_SIDES;

/// The largest explosion or streak cap that may be written (`!cap1000`). Without one, an
/// explosion or streak has the untruncated law, and a roll of it stops only where going on is
/// less likely than [`dice_core::UNCAPPED_CUT_MASS`] ([`dice_core::uncapped_roll_cap`]).
///
/// ```
/// use dice_notation::Expression;
/// assert!(Expression::parse("1d6!cap1000").is_ok());
/// assert!(Expression::parse("1d6!cap1001").is_err());
/// ```
pub const MAX_EXPLOSION_CAP: u32 = 1000;

/// The most dice one roll of an expression may roll in the worst case: every die exploding
/// to its cap, a reroll-until counted at its expected number of rolls (a `ro` as 2).
///
/// ```
/// use dice_notation::Expression;
/// assert!(Expression::parse("1000d2!>=1cap999").is_ok()); // exactly a million dice
/// assert!(Expression::parse("1000d2!>=1cap1000").is_err());
/// ```
pub const MAX_ROLLED: u64 = 1_000_000;

/// The largest number that may be written (dice-core's [`dice_core::MAX_MODIFIER`]).
///
/// ```
/// use dice_notation::Expression;
/// assert!(Expression::parse("1000000000").is_ok());
/// assert!(Expression::parse("1000000001").is_err());
/// ```
pub const MAX_CONSTANT: u64 = 1_000_000_000;

/// The largest magnitude any part of an expression may reach, as interval arithmetic
/// bounds it (so that no value overflows).
///
/// ```
/// use dice_notation::Expression;
/// assert!(Expression::parse("1000000000*1000000").is_ok());
/// assert!(Expression::parse("1000000000*1000001").is_err());
/// ```
pub const MAX_VALUE: i64 = 1_000_000_000_000_000;

/// The most work an exact distribution of a whole expression may take, in dice-core's budget
/// units (about a nanosecond of one core each): about a second. Each of dice-core's laws is
/// also held to dice-core's own limit, [`dice_core::MAX_EXACT_WORK`] (about ten seconds).
///
/// ```
/// use dice_notation::{Expression, NotationError};
/// let e = Expression::parse("500d1000r1")?;
/// assert!(matches!(e.distribution(), Err(NotationError::TooComplex { .. })));
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
pub const MAX_EXACT_WORK: u64 = 1_000_000_000;

/// The most outcomes an exact distribution (or a step of it) may list.
///
/// ```
/// use dice_notation::Expression;
/// // A billion outcomes: too many to list, or to compute.
/// assert!(Expression::parse("1d1000*1000000+1d1000*1000+1d1000")?.distribution().is_err());
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
pub const MAX_LISTED: usize = 1 << 22;
