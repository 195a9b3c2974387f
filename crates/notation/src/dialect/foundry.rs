//! Foundry VTT's dice and dice-modifier articles: `r` rerolls once and `rr` until, `x`
//! explodes and `xo` explodes once, `cs` counts successes, `cf` failures, `df` deducts one
//! per failure, `sf` subtracts the failures' values, `ms` gives the margin, `even`/`odd`
//! count, `min`/`max` clamp, `dc` is a coin, `{…}` pools, `(2)d6` computed counts,
//! `floor`/`ceil`/`round`/`abs`, `[flavor]` and `# comments`.

use super::{Division, ExplodeWords, KeepWords, RerollWord, Syntax};

pub(crate) const SYNTAX: Syntax = Syntax {
    name: "foundry",
    title: "Foundry VTT",
    inclusive_gt_lt: false,
    not_equal: false,
    rerolls: &[("rr", RerollWord::Until), ("r", RerollWord::Once)],
    reroll_default_lowest: true,
    explode: ExplodeWords::X,
    explosion_cap: false,
    keep: KeepWords::Standard { bare_d: true },
    min_max: true,
    mi_ma: false,
    bare_success: false,
    foundry_counting: true,
    crit_markers: false,
    sort: false,
    unique: false,
    matches: false,
    canonical_extras: false,
    braces: true,
    sets: false,
    comparisons: false,
    paren_comparisons: false,
    versus: false,
    streak: false,
    functions: &[
        "floor", "ceil", "round", "trunc", "abs", "sign", "min", "max",
    ],
    refused_functions: &["sqrt", "log", "exp", "sin", "cos", "tan"],
    division: Division::Exact,
    floor_division: false,
    modulo: true,
    power: true,
    caret_power: false,
    unary_plus: true,
    truncate_total: false,
    labels: true,
    line_comments: true,
    trailing_text: false,
    computed_dice: true,
    degenerate_dice: true,
    tens_percentile: false,
    fudge_variants: false,
    coin: true,
    decimals: false,
};
