//! Every expression within the limits parses, compiles, prints, reads back, rolls and has
//! its exact odds on a small thread stack: the walks over the tree loop over chains of
//! operators (`1+1+…`, up to 500 long within `MAX_INPUT_LEN`) and recurse only through
//! nesting, which `MAX_DEPTH` bounds.
//!
//! [`STACK`] is below what the worst of these inputs needed before (measured at the test
//! profile's opt-level 1: 807 KiB for `1+1+…`, 2111 KiB for `1**1**…` 333 deep, 399 KiB
//! for 32 parentheses; at opt-level 0 up to 5 MiB) and above what they need now (at most
//! about 260 KiB at opt-level 1 and 560 KiB at opt-level 0, so the test also passes in an
//! unoptimised build), so a walk that recursed once per operator again would overflow
//! here. An overflow aborts the test binary, which fails the run.

use dice_core::Roll;
use dice_notation::{Dialect, Expression, MAX_DEPTH, MAX_INPUT_LEN};
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

/// The stack of the thread the inputs run on.
const STACK: usize = 704 * 1024;

/// Name, dialect and text of the deepest inputs the limits accept, of each kind.
fn cases() -> Vec<(&'static str, Dialect, String)> {
    let d = Dialect::Default;
    let deep = |open: &str, inner: &str, close: &str, n: usize| {
        format!("{}{}{}", open.repeat(n), inner, close.repeat(n))
    };
    let v = vec![
        ("sum", d, "1+".repeat(499) + "1"),
        ("sub", d, "1-".repeat(499) + "1"),
        ("mul", d, "1*".repeat(499) + "1"),
        ("div", d, "1/".repeat(499) + "1"),
        ("mod", d, "7%".repeat(499) + "1"),
        ("mix", d, "1+2*".repeat(249) + "1"),
        ("pow", d, "1**".repeat(32) + "1"),
        ("pow_chain", d, "1**1+".repeat(166) + "1"),
        ("dice", d, "1d6+".repeat(249) + "1d6"),
        ("dicemul", d, "1d2*1+".repeat(166) + "1"),
        ("parens", d, deep("(", "1", ")", 32)),
        ("parens_sum", d, deep("(", "1d6+1", ")+1", 32)),
        ("neg", d, "-".repeat(32) + "1"),
        ("negparen", d, deep("-(", "1", ")", 16)),
        ("max", d, deep("max(", "1d6", ",1d6)", 32)),
        ("floor", d, deep("floor(", "1d6/2", ")", 31)),
        ("group", d, deep("{", "1d6", "}", 32)),
        ("groupkh", d, deep("{", "1d6,1d6", ",1}kh1", 32)),
        ("computed", d, deep("(", "1d2", ")d2", 4)),
        (
            "deep_then_chain",
            d,
            deep("(", "1", ")", 32) + &"+1".repeat(467),
        ),
        (
            "chain_then_deep",
            d,
            "1+".repeat(467) + &deep("(", "1", ")", 32),
        ),
        (
            "nested_chains",
            d,
            deep("(", "1", "+1+1+1+1+1+1+1+1+1+1+1+1+1)", 32),
        ),
        (
            "vs",
            d,
            "1+".repeat(247) + "1 vs " + &"1+".repeat(247) + "1",
        ),
        ("cmp", d, deep("(", "1", ">=1)", 32)),
        (
            "roll20_inline",
            Dialect::Roll20,
            deep("[[", "1d6", "]]", 32),
        ),
        ("roll20_sum", Dialect::Roll20, "1+".repeat(499) + "1"),
        ("roll20_div", Dialect::Roll20, "1/".repeat(499) + "1"),
        (
            "roll20_frac",
            Dialect::Roll20,
            "1d6/7+1d6/5+".repeat(8) + "1",
        ),
        ("foundry_sum", Dialect::Foundry, "1+".repeat(499) + "1"),
        ("d20_cmp", Dialect::D20, "1<".repeat(140) + "1"),
        ("d20_sets", Dialect::D20, deep("(", "1d6", ",1)kh1", 32)),
        ("d20_sum", Dialect::D20, "1+".repeat(499) + "1"),
        ("rdr_sum", Dialect::RpgDiceRoller, "1+".repeat(499) + "1"),
        ("rdr_pow", Dialect::RpgDiceRoller, "1^".repeat(32) + "1"),
        ("rdr_div", Dialect::RpgDiceRoller, "1/".repeat(499) + "1"),
        (
            "rdr_frac",
            Dialect::RpgDiceRoller,
            "1d6/2+".repeat(40) + "1",
        ),
        (
            "rdr_frac_chain",
            Dialect::RpgDiceRoller,
            "1d6/2".to_owned() + &"+1".repeat(490),
        ),
        (
            "rdr_chain_frac",
            Dialect::RpgDiceRoller,
            "1+".repeat(490) + "1d6/2",
        ),
        (
            "d20_div",
            Dialect::D20,
            "1d6/2".to_owned() + &"+1".repeat(490),
        ),
    ];
    v
}

/// Everything a caller can do with `input`: parse, print, read back, compare, clone, roll
/// (with every die, and the outcome only), the exact odds (an error beyond the budget is
/// fine), and drop.
fn run(name: &str, dialect: Dialect, input: &str) {
    let e = Expression::parse_with(input, dialect)
        .unwrap_or_else(|err| panic!("{name}: the limits should accept it: {err}"));
    let text = e.to_string();
    assert!(text.len() <= MAX_INPUT_LEN, "{name}");
    // Avrae d20's comparison chain prints with one parenthesis per comparison, deeper than
    // this crate's grammar reads back (a known gap); every other canonical form reads back.
    match Expression::parse(&text) {
        Ok(back) => assert_eq!(back, e, "{name}"),
        Err(err) => assert!(name == "d20_cmp", "{name}: {err}"),
    }
    // Built by hand, the same tree passes `from_expr`'s depth checks and reads back.
    match Expression::from_expr(e.expr().clone()) {
        Ok(back) => assert_eq!(back, e, "{name}"),
        Err(err) => assert!(name == "d20_cmp", "{name}: {err}"),
    }
    let copy = e.clone();
    assert_eq!(copy, e, "{name}");
    assert_eq!(copy.to_string(), text, "{name}");
    let _ = format!("{:?}", e.expr());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let detailed = e.roll(&mut rng);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(Roll::roll(&e, &mut rng), detailed.outcome, "{name}");
    let _ = detailed.to_string();
    if let Ok(d) = e.distribution() {
        assert!((d.total() - 1.0).abs() < 1e-9, "{name}");
    }
}

#[test]
fn the_deepest_inputs_fit_a_small_stack() {
    let cases = cases();
    for (name, _, input) in &cases {
        assert!(
            input.len() <= MAX_INPUT_LEN,
            "{name} is {} bytes",
            input.len()
        );
    }
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            for (name, dialect, input) in cases {
                run(name, dialect, &input);
            }
        })
        .expect("a thread")
        .join()
        .expect("every input ran");
}

#[test]
fn exponents_count_as_nesting() {
    let powers = |n: usize| "1**".repeat(n) + "1";
    assert!(Expression::parse(&powers(MAX_DEPTH)).is_ok());
    let err = Expression::parse(&powers(MAX_DEPTH + 1)).unwrap_err();
    assert!(matches!(
        err.kind(),
        dice_notation::ParseErrorKind::TooDeep { max } if *max == MAX_DEPTH
    ));
    // Shared with parentheses and signs.
    let mixed = "(".repeat(16) + &"-".repeat(8) + &"1**".repeat(8) + "1" + &")".repeat(16);
    assert!(Expression::parse(&mixed).is_ok());
    let mixed = "(".repeat(16) + &"-".repeat(8) + &"1**".repeat(9) + "1" + &")".repeat(16);
    assert!(Expression::parse(&mixed).is_err());
}

/// A tree built by hand can be deeper than any text the parser takes: `Expression::from_expr`
/// measures it without recursion and refuses it before printing it (which recurses once per
/// level), on the small stack, dropping the tree included. (Printing, cloning or comparing
/// such a tree yourself recurses once per level of nesting, as for any tree of boxes.)
#[test]
fn hand_built_trees_deeper_than_text_are_refused_on_a_small_stack() {
    use crate::common::{negations, right_sums};
    use dice_notation::ParseErrorKind;
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            // The deepest a tree can print before it is refused (then by the parser).
            let levels = MAX_INPUT_LEN / 2 + MAX_DEPTH;
            for (name, tree) in [
                ("negations", negations(MAX_INPUT_LEN - 1)),
                ("right sums", right_sums(MAX_INPUT_LEN - 1)),
                ("right sums, printed", right_sums(levels)),
            ] {
                let err = Expression::from_expr(tree).unwrap_err();
                assert!(
                    name.ends_with("printed")
                        || matches!(err.kind(), ParseErrorKind::TooDeep { .. }),
                    "{name}: {err}"
                );
            }
        })
        .expect("a thread")
        .join()
        .expect("every tree was refused");
}
