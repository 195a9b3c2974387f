//! Dialects: the dice notations of other rollers (Roll20, Foundry VTT, Avrae's d20,
//! rpg-dice-roller), each read with the meaning its own documentation gives, into this
//! crate's syntax tree, so that rolling and exact odds are the same machinery for all.
//!
//! One parser reads every dialect; each dialect module gives the [`Syntax`] it follows:
//! which words mean what, whether `>` includes its number, how `/` rounds, what may follow
//! an expression.

use std::fmt;
use std::str::FromStr;

mod d20;
mod default;
mod foundry;
mod roll20;
mod rpg_dice_roller;

/// Whose dice notation an expression is written in.
///
/// [`Dialect::Default`] is this crate's own grammar (docs/notation.md); the others read
/// an expression as the roller of that name does, where the rollers disagree: Roll20's
/// `3d6>4` counts the dice showing 4 or more, Foundry's `r1` rerolls a 1 once (`rr1` until
/// it is no 1), Avrae d20's `4d6k3` keeps the dice showing 3 and `1d20 > 10` is 1 or 0,
/// rpg-dice-roller's `4d6!p` penetrates.
///
/// ```
/// use dice_notation::{Dialect, Expression};
/// let e = Expression::parse_with("10d6<4", Dialect::Roll20)?;
/// assert_eq!(e.to_string(), "10d6<=4"); // Roll20's `<` includes the 4
/// assert_eq!("foundry".parse::<Dialect>()?, Dialect::Foundry);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// This crate's grammar.
    #[default]
    Default,
    /// Roll20's dice reference.
    Roll20,
    /// Foundry VTT's dice and dice-modifier articles.
    Foundry,
    /// Avrae's `d20` Python library.
    D20,
    /// The `@dice-roller/rpg-dice-roller` JavaScript library.
    RpgDiceRoller,
}

impl Dialect {
    /// Every dialect, this crate's first.
    ///
    /// ```
    /// assert_eq!(dice_notation::Dialect::ALL.len(), 5);
    /// ```
    pub const ALL: [Dialect; 5] = [
        Dialect::Default,
        Dialect::Roll20,
        Dialect::Foundry,
        Dialect::D20,
        Dialect::RpgDiceRoller,
    ];

    /// The name used on the command line (`--dialect foundry`).
    ///
    /// ```
    /// assert_eq!(dice_notation::Dialect::RpgDiceRoller.name(), "rpg-dice-roller");
    /// ```
    pub fn name(self) -> &'static str {
        self.syntax().name
    }

    /// The rules the parser follows for this dialect.
    pub(crate) fn syntax(self) -> &'static Syntax {
        match self {
            Dialect::Default => &default::SYNTAX,
            Dialect::Roll20 => &roll20::SYNTAX,
            Dialect::Foundry => &foundry::SYNTAX,
            Dialect::D20 => &d20::SYNTAX,
            Dialect::RpgDiceRoller => &rpg_dice_roller::SYNTAX,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A dialect name that is none of [`Dialect::ALL`]'s.
///
/// ```
/// let err = "fantasy".parse::<dice_notation::Dialect>().unwrap_err();
/// assert!(err.to_string().contains("roll20"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown dice notation dialect `{0}`: expected default, roll20, foundry, d20 or rpg-dice-roller"
)]
pub struct UnknownDialect(pub String);

impl FromStr for Dialect {
    type Err = UnknownDialect;
    fn from_str(s: &str) -> Result<Dialect, UnknownDialect> {
        let lower = s.trim().to_ascii_lowercase();
        Ok(match lower.as_str() {
            "default" | "dicepool" => Dialect::Default,
            "roll20" => Dialect::Roll20,
            "foundry" | "foundryvtt" | "foundry-vtt" => Dialect::Foundry,
            "d20" | "avrae" => Dialect::D20,
            "rpg-dice-roller" | "rpg_dice_roller" | "rpgdiceroller" | "dice-roller" => {
                Dialect::RpgDiceRoller
            }
            _ => return Err(UnknownDialect(s.to_owned())),
        })
    }
}

/// What a reroll keyword does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RerollWord {
    /// Reroll until the face no longer passes.
    Until,
    /// Reroll once; the new face stands.
    Once,
    /// Avrae d20's `ra`: the first die passing adds one more die.
    Add,
}

/// How explosions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExplodeWords {
    /// `!`, `!!` (compound), with `p` (penetrate) where `penetrate` is set.
    Bang { penetrate: bool },
    /// Foundry's `x` and `xo` (once).
    X,
    /// Avrae d20's `e` with a selector.
    E,
}

/// How keep and drop are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeepWords {
    /// `kh`, `kl`, `dh`, `dl`, `k` (= `kh`); with `bare_d`, `d` is `dl`.
    Standard { bare_d: bool },
    /// Avrae d20's `k` (keep) and `p` (drop) with a selector (`h3`, `l1`, `>2`, `<2`, `3`).
    Selectors,
}

/// How a division that can leave a fraction is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Division {
    /// Rounding toward −∞ (this crate's `/`).
    Floor,
    /// Exact, as the roller computes in floating point: a division not exact by its
    /// numbers is [`crate::BinOp::DivExact`], whose value is a fraction (this crate computes
    /// it exactly, as a [`crate::Rational`]); one division rounded by its function is that
    /// rounded division (`floor(1d6/2)` is `1d6/2` in this crate's grammar).
    Exact,
}

/// The rules one dialect's text follows.
#[derive(Debug)]
pub(crate) struct Syntax {
    /// The command-line name.
    pub(crate) name: &'static str,
    /// A longer name for messages.
    pub(crate) title: &'static str,
    /// `>N` means `>=N` and `<N` means `<=N` (Roll20).
    pub(crate) inclusive_gt_lt: bool,
    /// `!=` and `<>` as "not equal" tests.
    pub(crate) not_equal: bool,
    /// Reroll keywords, longest first.
    pub(crate) rerolls: &'static [(&'static str, RerollWord)],
    /// A reroll keyword with no test rerolls the lowest face.
    pub(crate) reroll_default_lowest: bool,
    pub(crate) explode: ExplodeWords,
    /// `cap N` after an explosion.
    pub(crate) explosion_cap: bool,
    pub(crate) keep: KeepWords,
    /// One keep and drops on one term, each over all the dice, keeps first
    /// (rpg-dice-roller's `3d10k1dh1`, `4d10dh1dl2`).
    pub(crate) keep_then_drop: bool,
    /// `minN`/`maxN` clamps.
    pub(crate) min_max: bool,
    /// `miN`/`maN` clamps (Avrae d20).
    pub(crate) mi_ma: bool,
    /// A comparison right after the dice counts successes, `f…` failures.
    pub(crate) bare_success: bool,
    /// Foundry's `cs`, `cf`, `df`, `sf`, `ms`, `even`, `odd`.
    pub(crate) foundry_counting: bool,
    /// `cs…`/`cf…` mark critical faces (display only).
    pub(crate) crit_markers: bool,
    /// `s`, `sa`, `sd` sort the dice shown.
    pub(crate) sort: bool,
    /// `u`, `uo` (rpg-dice-roller).
    pub(crate) unique: bool,
    /// Roll20's `m` (highlight matches; display only) and `mt` (count matches).
    pub(crate) matches: bool,
    /// This crate's canonical spellings of the constructs other dialects add (`k(>3)`,
    /// `ra`, `u`, `sf`, `cs`, `sa`, `!p`, `dC`, `<>`).
    pub(crate) canonical_extras: bool,
    /// Groups in braces, `{a, b}kh1`.
    pub(crate) braces: bool,
    /// Avrae d20's sets in parentheses, `(a, b)kh1`, `(a,)`.
    pub(crate) sets: bool,
    /// Comparisons as values at the top level (`1d20 > 10`, Avrae d20).
    pub(crate) comparisons: bool,
    /// `(a >= b)` as a 0/1 value, inside parentheses (this crate).
    pub(crate) paren_comparisons: bool,
    /// `… vs …`.
    pub(crate) versus: bool,
    /// `streak(…)`.
    pub(crate) streak: bool,
    /// `floor`, `ceil`, `round`, `abs` (and `trunc`, `sign` where listed in `functions`).
    pub(crate) functions: &'static [&'static str],
    /// Math functions whose values are mostly irrational (`sqrt`, `exp`, `log`, `sin`,
    /// `cos`, `tan`): exact where the value is rational (`sqrt(16)`, `cos(0)`), else refused
    /// with a message naming it irrational.
    pub(crate) refused_functions: &'static [&'static str],
    pub(crate) division: Division,
    /// `//`: division rounding toward −∞ (Avrae d20).
    pub(crate) floor_division: bool,
    /// `%`: remainder (of the division rounding toward −∞).
    pub(crate) modulo: bool,
    /// `**` (and `^` when `caret_power`).
    pub(crate) power: bool,
    pub(crate) caret_power: bool,
    /// A leading `+` (`+1d4`).
    pub(crate) unary_plus: bool,
    /// The whole expression's value is truncated toward 0 (Avrae d20 prints
    /// `int(total)`), so a division that is the whole expression rounds toward 0.
    pub(crate) truncate_total: bool,
    /// `[label]` annotations after terms (ignored).
    pub(crate) labels: bool,
    /// `# …` and `// …` end the expression; `/* … */` is skipped.
    pub(crate) line_comments: bool,
    /// Any text after a complete expression is a comment (Roll20's "Roll for
    /// initiative", Avrae d20 with comments).
    pub(crate) trailing_text: bool,
    /// Avrae d20's comments (`allow_comments`): any text after a complete expression is a
    /// comment, with or without a space before it (`1d20+5 # attack`, `1d20+5#x`), unless
    /// it begins with what d20 reads as an operator or a closing bracket (`+`, `-`, `/`,
    /// `%`, `<`, `>`, `,`, `)`); an expression whose parse fails right after a `*` is read
    /// without that `*`, the rest a comment (`1d20 **bold**`).
    pub(crate) any_comment: bool,
    /// Counts and sides written as a parenthesized constant expression, `(1+1)d6`.
    pub(crate) computed_dice: bool,
    /// Counts and sides rolled in parentheses, `(1d4)d8`, `2d(1d4+2)` (with
    /// `computed_dice`).
    pub(crate) computed_rolls: bool,
    /// `0d6` (no dice: 0) and `1d1`.
    pub(crate) degenerate_dice: bool,
    /// `d%` is a tens die 0, 10, …, 90 (Avrae d20), not a d100.
    pub(crate) tens_percentile: bool,
    /// `dF.1` / `dF.2` (rpg-dice-roller).
    pub(crate) fudge_variants: bool,
    /// A `d` alone at the end of a term drops the lowest die (Foundry's `3d6d`); with
    /// `bare_d` only, it needs a number (`8d100d3`).
    pub(crate) bare_d_alone: bool,
    /// Roll20's roll options: `&{tracker}` is skipped (it sends the result to the turn
    /// tracker, the roll is the same), and `\` ends the formula (text may follow).
    pub(crate) roll_options: bool,
    /// `%` keeps the sign of the dividend, as JavaScript's does (`(1d6-7)%4` is −2); else
    /// the divisor's (this crate's and Python's).
    pub(crate) remainder_truncates: bool,
    /// In a group of one sum of dice with a success test, a constant added to the sum is
    /// added to each die before the test (Roll20's `{3d20+5}>21`).
    pub(crate) group_constant_per_die: bool,
    /// `dc` (Foundry's coin).
    pub(crate) coin: bool,
    /// Decimal numbers (`0.5`, `.5`) in the input, as exact fractions.
    pub(crate) decimals: bool,
    /// `round` rounds halves away from zero (mathjs's, rpg-dice-roller's) rather than up
    /// (JavaScript's `Math.round`).
    pub(crate) round_half_away: bool,
}
