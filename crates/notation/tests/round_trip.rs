//! Property tests: the canonical form of any tree reads back to the same tree; any text
//! either fails to parse or round-trips; rolling agrees with the record and stays within
//! bounds.

use dice_core::{Keep, Roll};
use dice_notation::{
    BinOp, Cmp, DiceTerm, DieKind, Explosion, Expr, Expression, Func, Outcome, ParseErrorKind,
    Reroll, StreakTerm,
};
use proptest::prelude::*;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn cmp() -> impl Strategy<Value = Cmp> {
    prop_oneof![
        (-3i64..25).prop_map(Cmp::AtLeast),
        (-3i64..25).prop_map(Cmp::AtMost),
        (-3i64..25).prop_map(Cmp::Above),
        (-3i64..25).prop_map(Cmp::Below),
        (-3i64..25).prop_map(Cmp::Exactly),
        proptest::collection::btree_set(-2i64..25, 1..4).prop_map(Cmp::OneOf),
    ]
}

fn die() -> impl Strategy<Value = DieKind> {
    prop_oneof![
        4 => (2u32..=20).prop_map(DieKind::Sides),
        1 => Just(DieKind::Sides(100)),
        1 => Just(DieKind::Fudge),
    ]
}

fn keep(count: u32) -> impl Strategy<Value = Keep> {
    (0u8..5, 1u32..=6).prop_map(move |(kind, k)| {
        let kept = k.min(count);
        let dropped = k.min(count.saturating_sub(1));
        match kind {
            1 => Keep::Highest(kept),
            2 => Keep::Lowest(kept),
            3 if dropped > 0 => Keep::DropHighest(dropped),
            4 if dropped > 0 => Keep::DropLowest(dropped),
            _ => Keep::All,
        }
    })
}

fn dice_term() -> impl Strategy<Value = DiceTerm> {
    (1u32..=6, die())
        .prop_flat_map(|(count, die)| {
            (
                Just(count),
                Just(die),
                proptest::option::weighted(0.3, (any::<bool>(), cmp())),
                proptest::option::weighted(
                    0.4,
                    (
                        any::<bool>(),
                        proptest::option::of(cmp()),
                        proptest::option::of(1u32..=5),
                    ),
                ),
                proptest::option::weighted(0.2, -2i64..8),
                proptest::option::weighted(0.2, -2i64..8),
                keep(count),
                proptest::option::weighted(0.4, cmp()),
                proptest::option::weighted(0.3, cmp()),
            )
        })
        .prop_map(
            |(count, die, reroll, explode, min, max, keep, success, failure)| {
                let mut t = DiceTerm::new(count, die);
                t.reroll = reroll.map(|(once, on)| Reroll { once, on });
                t.explode = explode.map(|(compound, on, cap)| Explosion {
                    compound,
                    penetrate: false,
                    on: on.unwrap_or(Cmp::Exactly(die.faces().1)),
                    cap,
                });
                let (min, max) = match (min, max) {
                    (Some(a), Some(b)) => (Some(a.min(b)), Some(a.max(b))),
                    other => other,
                };
                t.min = min;
                t.max = max;
                t.keep = keep;
                t.failure = success.as_ref().and(failure);
                t.success = success;
                t
            },
        )
}

fn streak_term() -> impl Strategy<Value = StreakTerm> {
    (die(), cmp(), proptest::option::of(1u32..=20)).prop_map(|(die, on, cap)| StreakTerm {
        die,
        on,
        cap,
    })
}

fn op() -> impl Strategy<Value = BinOp> {
    prop_oneof![
        Just(BinOp::Add),
        Just(BinOp::Sub),
        Just(BinOp::Mul),
        Just(BinOp::Div)
    ]
}

fn arithmetic() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        2 => (0u64..1000).prop_map(Expr::number),
        3 => dice_term().prop_map(Expr::dice),
        1 => streak_term().prop_map(Expr::streak),
    ];
    leaf.prop_recursive(4, 16, 3, |inner| {
        prop_oneof![
            1 => inner.clone().prop_map(Expr::negative),
            4 => (op(), inner.clone(), inner.clone()).prop_map(|(op, a, b)| Expr::binary(op, a, b)),
            // Divisions mostly by a positive number, so that many trees are valid.
            2 => (inner.clone(), 1u64..10).prop_map(|(a, n)| Expr::binary(BinOp::Div, a, Expr::number(n))),
            1 => (prop_oneof![Just(Func::Min), Just(Func::Max)], proptest::collection::vec(inner, 2..4))
                .prop_map(|(f, args)| Expr::call(f, args)),
        ]
    })
}

fn tree() -> impl Strategy<Value = Expr> {
    (arithmetic(), proptest::option::weighted(0.2, arithmetic())).prop_map(|(e, target)| {
        match target {
            Some(t) => Expr::versus(e, t),
            None => e,
        }
    })
}

/// Whether an error is about the grammar rather than the values (a canonical form must
/// never have one).
fn is_syntax(kind: &ParseErrorKind) -> bool {
    matches!(
        kind,
        ParseErrorKind::Unexpected { .. }
            | ParseErrorKind::TooDeep { .. }
            | ParseErrorKind::Duplicate { .. }
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// `Expr`'s canonical text reads back to the same tree, or fails only on a value.
    #[test]
    fn any_tree_reads_back(e in tree()) {
        let text = e.to_string();
        match Expr::parse(&text) {
            Ok(parsed) => {
                prop_assert_eq!(&parsed, &e, "{}", text);
                prop_assert_eq!(parsed.to_string(), text);
            }
            Err(err) => prop_assert!(!is_syntax(err.kind()), "{}: {:#}", text, err),
        }
    }

    /// A valid expression formats to a canonical string that parses to the same expression;
    /// building it from the tree gives the same.
    #[test]
    fn expressions_round_trip(e in tree()) {
        let text = e.to_string();
        let from_text = Expression::parse(&text);
        let from_tree = Expression::from_expr(e.clone());
        prop_assert_eq!(from_text.is_ok(), from_tree.is_ok(), "{}", text);
        if let (Ok(x), Ok(y)) = (from_text, from_tree) {
            prop_assert_eq!(x.expr(), &e);
            prop_assert_eq!(&x, &y);
            prop_assert_eq!(x.to_string(), text.clone());
            prop_assert_eq!(Expression::parse(&x.to_string()).unwrap(), x);
        }
    }

    /// The record path and the plain path draw the same numbers and agree on the outcome;
    /// numbers stay within the bounds; the record's terms match the tree.
    #[test]
    fn rolls_agree_and_stay_in_bounds(e in tree(), seed in any::<u64>()) {
        let Ok(x) = Expression::from_expr(e) else { return Ok(()) };
        let detailed = x.roll(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let plain = Roll::roll(&x, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
        prop_assert_eq!(detailed.outcome, plain, "{}", x);
        let (lo, hi) = x.bounds();
        prop_assert!((lo..=hi).contains(&detailed.total), "{}: {} not in {}..={}", x, detailed.total, lo, hi);
        match detailed.outcome {
            Outcome::Number(n) => prop_assert_eq!(n, detailed.total),
            Outcome::Versus(v) => prop_assert_eq!(Some(v), detailed.target.map(|t| dice_core::Versus::of(detailed.total, t))),
            Outcome::Fraction(r) => prop_assert_eq!(Some(r), detailed.total_exact),
        }
        for t in &detailed.terms {
            prop_assert!(Expression::parse(&t.term).is_ok(), "{}", t.term);
        }
    }

    /// Arbitrary text made of the notation's characters never panics; what parses
    /// round-trips and rolls.
    #[test]
    fn any_text_parses_or_fails_cleanly(text in "[0-9dDfF%!rokhlminaxcpstrea<>=,{}()+*/ v-]{0,24}", seed in any::<u64>()) {
        match Expression::parse(&text) {
            Ok(x) => {
                let again = Expression::parse(&x.to_string());
                prop_assert!(again.is_ok(), "{} → {}", text, x);
                prop_assert_eq!(again.unwrap(), x.clone());
                let r = x.roll(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
                prop_assert_eq!(r.outcome, Roll::roll(&x, &mut Xoshiro256PlusPlus::seed_from_u64(seed)));
            }
            Err(err) => {
                let s = err.span();
                prop_assert!(s.start <= s.end && s.end <= text.len(), "{}: {:?}", text, s);
                prop_assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
                let _ = format!("{err:#}");
            }
        }
    }
}

#[test]
fn nested_comparisons_are_refused_from_trees() {
    let inner = Expr::versus(Expr::number(1), Expr::number(2));
    let e = Expr::binary(BinOp::Add, inner, Expr::number(3));
    assert_eq!(e.to_string(), "(1 vs 2)+3");
    assert!(Expression::from_expr(e).is_err());
    assert!(matches!(
        Expr::parse("(1 vs 2)+3").unwrap_err().kind(),
        ParseErrorKind::Invalid(_)
    ));
}

#[test]
fn trees_deeper_than_any_input_are_refused() {
    use crate::common::{negations, right_sums};
    use dice_notation::{MAX_DEPTH, MAX_INPUT_LEN};
    // As many signs one inside another as the parser takes, and one more.
    assert!(Expression::from_expr(negations(MAX_DEPTH)).is_ok());
    for n in [MAX_DEPTH + 1, 2000] {
        let err = Expression::from_expr(negations(n)).unwrap_err();
        assert!(
            matches!(err.kind(), ParseErrorKind::TooDeep { max } if *max == MAX_DEPTH),
            "{n} signs: {err}"
        );
    }
    // Levels that print one inside another: refused before printing past the bound, by the
    // parser (too deep or too long) below it.
    let levels = MAX_INPUT_LEN / 2 + MAX_DEPTH;
    assert!(Expression::from_expr(right_sums(levels)).is_err());
    for n in [levels + 1, 5000] {
        let err = Expression::from_expr(right_sums(n)).unwrap_err();
        assert!(
            matches!(err.kind(), ParseErrorKind::TooDeep { max } if *max == levels),
            "{n} levels: {err}"
        );
    }
    // A chain's left operands print in a loop: a 600-long left chain is not refused for
    // depth (the parser then reads its canonical form, too long for an input).
    let chain = (0..600).fold(Expr::number(1), |e, _| {
        Expr::binary(BinOp::Add, e, Expr::number(1))
    });
    let err = Expression::from_expr(chain).unwrap_err();
    assert!(
        !matches!(err.kind(), ParseErrorKind::TooDeep { .. }),
        "{err}"
    );
}

/// A coin with modifiers prints them right after its `C` (`1dCr2!2>=1`): that form must read
/// back. The fuzzer found `1dc!2222222r22223222>=1` printing a form that did not.
#[test]
fn coins_with_modifiers_read_back() {
    for text in [
        "1dc!2222222r22223222>=1",
        "1dc!2r2>=1",
        "3dCr0",
        "2dCkh1",
        "4dCs",
        // A marker beginning with `c` right after the coin (fuzzing: `1dCcs1sa` did not read).
        "d6ssss+dcsssssssSSCSSS",
        "2dCcs1",
        "2dCcf0",
    ] {
        let e =
            dice_notation::Expression::parse(text).unwrap_or_else(|err| panic!("{text}: {err}"));
        let canonical = e.to_string();
        let again = dice_notation::Expression::parse(&canonical)
            .unwrap_or_else(|err| panic!("{text} → {canonical}: {err}"));
        assert_eq!(again, e, "{text} → {canonical}");
        assert_eq!(again.to_string(), canonical);
    }
}

/// A rolled number stands only as a success test's one number (`3d6>=(1d4)`), never in a set,
/// where it replaced the whole test (fuzzing: `0d5={0,(1df/2),06}dl` printed
/// `0d5dl1=(1dF/2)`, another expression).
#[test]
fn rolled_numbers_are_refused_in_sets() {
    for text in ["0d5={0,(1df/2),06}dl", "3d6={1,(1d4)}", "3d6>={(1d4),2}"] {
        assert!(
            dice_notation::Expression::parse(text).is_err(),
            "{text} should be refused"
        );
    }
    // As the one number of a test it still reads.
    let e = dice_notation::Expression::parse("3d6>=(1d4)").expect("a rolled target");
    let again = dice_notation::Expression::parse(&e.to_string()).expect("reads back");
    assert_eq!(again, e);
}

/// The canonical form of whatever parses reads back, so no accepted text may be longer than
/// the input limit once written out in full. Found by fuzzing: Foundry's `odd` on a 526-sided
/// die lists 263 faces, 1,053 bytes of canonical text.
#[test]
fn canonical_forms_longer_than_the_input_limit_are_refused() {
    use dice_notation::{Dialect, MAX_INPUT_LEN};
    let refused = |text: &str, dialect: Dialect| {
        let err = Expression::parse_with(text, dialect).unwrap_err();
        assert!(
            matches!(err.kind(), ParseErrorKind::CanonicalTooLong { max } if *max == MAX_INPUT_LEN),
            "{dialect} {text:?}: {err}"
        );
    };
    refused(
        "ceil(0%3-4533-----------6d526min555227odd-------2d27-152)",
        Dialect::Foundry,
    );
    refused("1d1000odd", Dialect::Foundry);
    // `d6` is written `1d6`: 300 of them fit typed, not written out.
    let typed = vec!["d6"; 300].join("+");
    assert!(typed.len() <= MAX_INPUT_LEN);
    refused(&typed, Dialect::Default);
    // Just under the limit both ways: accepted, and reads back.
    for (text, dialect) in [
        (vec!["d6"; 250].join("+"), Dialect::Default),
        ("1d100odd".to_owned(), Dialect::Foundry),
        ("1d300even".to_owned(), Dialect::Foundry),
    ] {
        let e = Expression::parse_with(&text, dialect).unwrap();
        let canonical = e.to_string();
        assert!(canonical.len() <= MAX_INPUT_LEN, "{text}");
        assert_eq!(Expression::parse(&canonical).unwrap(), e);
    }
}
