//! Parser unit tests: one per construct of docs/notation.md (its tree and canonical form),
//! then errors and their spans.

use dice_core::Keep;
use dice_notation::{
    BinOp, Cmp, DiceTerm, DieKind, Explosion, Expr, ExprKind, Expression, Func, ParseErrorKind,
    Reroll, Span, StreakTerm,
};

fn d(count: u32, sides: u32) -> DiceTerm {
    DiceTerm::new(count, DieKind::Sides(sides))
}

fn dice(t: DiceTerm) -> Expr {
    Expr::dice(t)
}

/// Parses `input`, checks the tree and the canonical form, and that the canonical form
/// parses back to the same expression.
fn case(input: &str, tree: Expr, canonical: &str) {
    let e = Expression::parse(input).unwrap_or_else(|err| panic!("{input}: {err:#}"));
    assert_eq!(e.expr(), &tree, "{input}");
    assert_eq!(e.to_string(), canonical, "{input}");
    assert_eq!(Expression::parse(canonical).unwrap(), e, "{input}");
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}

fn n(v: u64) -> Expr {
    Expr::number(v)
}

#[test]
fn number() {
    case("3", n(3), "3");
}

#[test]
fn dice_terms() {
    case("2d6", dice(d(2, 6)), "2d6");
    case("d20", dice(d(1, 20)), "1d20");
    case("D20", dice(d(1, 20)), "1d20");
    case("d%", dice(d(1, 100)), "1d100");
    case("4dF", dice(DiceTerm::new(4, DieKind::Fudge)), "4dF");
    case("4df", dice(DiceTerm::new(4, DieKind::Fudge)), "4dF");
}

#[test]
fn arithmetic() {
    case(
        "1d20 + 5 - 1",
        bin(BinOp::Sub, bin(BinOp::Add, dice(d(1, 20)), n(5)), n(1)),
        "1d20+5-1",
    );
    case("3 * 1d6", bin(BinOp::Mul, n(3), dice(d(1, 6))), "3*1d6");
    case("3×1d6", bin(BinOp::Mul, n(3), dice(d(1, 6))), "3*1d6");
    case("1d20 / 2", bin(BinOp::Div, dice(d(1, 20)), n(2)), "1d20/2");
    case("1d20÷2", bin(BinOp::Div, dice(d(1, 20)), n(2)), "1d20/2");
    case("1d6−1", bin(BinOp::Sub, dice(d(1, 6)), n(1)), "1d6-1");
    case(
        "(1d6 + 1) * 2",
        bin(BinOp::Mul, bin(BinOp::Add, dice(d(1, 6)), n(1)), n(2)),
        "(1d6+1)*2",
    );
    case("-1d4", Expr::negative(dice(d(1, 4))), "-1d4");
    case("-7/2", bin(BinOp::Div, Expr::negative(n(7)), n(2)), "-7/2");
    // Left associative; parentheses kept only where the shape needs them.
    case(
        "10-(2-3)",
        bin(BinOp::Sub, n(10), bin(BinOp::Sub, n(2), n(3))),
        "10-(2-3)",
    );
    case(
        "((10-2))-3",
        bin(BinOp::Sub, bin(BinOp::Sub, n(10), n(2)), n(3)),
        "10-2-3",
    );
    case(
        "1+2*3",
        bin(BinOp::Add, n(1), bin(BinOp::Mul, n(2), n(3))),
        "1+2*3",
    );
    case(
        "-(1+2)",
        Expr::negative(bin(BinOp::Add, n(1), n(2))),
        "-(1+2)",
    );
    case("1--2", bin(BinOp::Sub, n(1), Expr::negative(n(2))), "1--2");
}

#[test]
fn functions() {
    case(
        "max(1d20, 1d20)",
        Expr::call(Func::Max, vec![dice(d(1, 20)), dice(d(1, 20))]),
        "max(1d20, 1d20)",
    );
    case(
        "min(1d6,3)",
        Expr::call(Func::Min, vec![dice(d(1, 6)), n(3)]),
        "min(1d6, 3)",
    );
    case(
        "max(1, 1d4-2)",
        Expr::call(Func::Max, vec![n(1), bin(BinOp::Sub, dice(d(1, 4)), n(2))]),
        "max(1, 1d4-2)",
    );
}

fn keep(mut t: DiceTerm, k: Keep) -> Expr {
    t.keep = k;
    dice(t)
}

#[test]
fn keep_and_drop() {
    case("4d6kh3", keep(d(4, 6), Keep::Highest(3)), "4d6kh3");
    case("4d6k3", keep(d(4, 6), Keep::Highest(3)), "4d6kh3");
    case("2d20kl1", keep(d(2, 20), Keep::Lowest(1)), "2d20kl1");
    case("4d6dl1", keep(d(4, 6), Keep::DropLowest(1)), "4d6dl1");
    case("5d10dh2", keep(d(5, 10), Keep::DropHighest(2)), "5d10dh2");
    case("2d20kh", keep(d(2, 20), Keep::Highest(1)), "2d20kh1");
}

fn explode(mut t: DiceTerm, compound: bool, on: Cmp, cap: Option<u32>) -> Expr {
    t.explode = Some(Explosion {
        compound,
        penetrate: false,
        on,
        cap,
    });
    dice(t)
}

#[test]
fn explosions() {
    case(
        "3d6!",
        explode(d(3, 6), false, Cmp::Exactly(6), None),
        "3d6!",
    );
    case(
        "3d6!6",
        explode(d(3, 6), false, Cmp::Exactly(6), None),
        "3d6!",
    );
    case(
        "5d10!>=9",
        explode(d(5, 10), false, Cmp::AtLeast(9), None),
        "5d10!>=9",
    );
    case(
        "6d6!5",
        explode(d(6, 6), false, Cmp::Exactly(5), None),
        "6d6!5",
    );
    case(
        "6d6!=5",
        explode(d(6, 6), false, Cmp::Exactly(5), None),
        "6d6!5",
    );
    case(
        "4d6!{5,6}",
        explode(d(4, 6), false, Cmp::one_of([5, 6]), None),
        "4d6!{5,6}",
    );
    case(
        "3d6!!",
        explode(d(3, 6), true, Cmp::Exactly(6), None),
        "3d6!!",
    );
    case(
        "10d10!cap3",
        explode(d(10, 10), false, Cmp::Exactly(10), Some(3)),
        "10d10!cap3",
    );
    case(
        "2d6!!>=5cap2",
        explode(d(2, 6), true, Cmp::AtLeast(5), Some(2)),
        "2d6!!>=5cap2",
    );
    case(
        "4dF!",
        explode(
            DiceTerm::new(4, DieKind::Fudge),
            false,
            Cmp::Exactly(1),
            None,
        ),
        "4dF!",
    );
}

#[test]
fn a_test_after_an_explosion_belongs_to_it() {
    // Explode on 8+.
    case(
        "10d10!>=8",
        explode(d(10, 10), false, Cmp::AtLeast(8), None),
        "10d10!>=8",
    );
    // Explode on 10s, count 8+: the face is written out in the canonical form.
    let mut t = d(10, 10);
    t.explode = Some(Explosion::on_highest(t.die));
    t.success = Some(Cmp::AtLeast(8));
    case("10d10!10>=8", dice(t.clone()), "10d10!10>=8");
    case("10d10>=8!", dice(t), "10d10!10>=8");
}

fn reroll(mut t: DiceTerm, once: bool, on: Cmp) -> Expr {
    t.reroll = Some(Reroll { once, on });
    dice(t)
}

#[test]
fn rerolls() {
    case("4d6r1", reroll(d(4, 6), false, Cmp::Exactly(1)), "4d6r1");
    case("4d6r=1", reroll(d(4, 6), false, Cmp::Exactly(1)), "4d6r1");
    case("4d6r<=2", reroll(d(4, 6), false, Cmp::AtMost(2)), "4d6r<=2");
    case(
        "1d20ro1",
        reroll(d(1, 20), true, Cmp::Exactly(1)),
        "1d20ro1",
    );
    case(
        "4d6r{1,2}",
        reroll(d(4, 6), false, Cmp::one_of([2, 1])),
        "4d6r{1,2}",
    );
    case(
        "4dFr=-1",
        reroll(DiceTerm::new(4, DieKind::Fudge), false, Cmp::Exactly(-1)),
        "4dFr=-1",
    );
}

fn count(mut t: DiceTerm, success: Cmp, failure: Option<Cmp>) -> Expr {
    t.success = Some(success);
    t.failure = failure;
    dice(t)
}

#[test]
fn success_counts() {
    case("6d6>=5", count(d(6, 6), Cmp::AtLeast(5), None), "6d6>=5");
    case(
        "10d10<=5",
        count(d(10, 10), Cmp::AtMost(5), None),
        "10d10<=5",
    );
    case("8d6=6", count(d(8, 6), Cmp::Exactly(6), None), "8d6=6");
    case(
        "8d6={5,6}",
        count(d(8, 6), Cmp::one_of([5, 6]), None),
        "8d6={5,6}",
    );
    case("3d6>4", count(d(3, 6), Cmp::Above(4), None), "3d6>4");
    case("3d6<3", count(d(3, 6), Cmp::Below(3), None), "3d6<3");
    case(
        "4dF>=-1",
        count(DiceTerm::new(4, DieKind::Fudge), Cmp::AtLeast(-1), None),
        "4dF>=-1",
    );
}

#[test]
fn failures() {
    case(
        "10d10>=8f1",
        count(d(10, 10), Cmp::AtLeast(8), Some(Cmp::Exactly(1))),
        "10d10>=8f1",
    );
    case(
        "10d10>=8f<=2",
        count(d(10, 10), Cmp::AtLeast(8), Some(Cmp::AtMost(2))),
        "10d10>=8f<=2",
    );
}

#[test]
fn clamps() {
    let mut t = d(4, 6);
    t.min = Some(2);
    case("4d6min2", dice(t), "4d6min2");
    let mut t = d(3, 8);
    t.max = Some(6);
    case("3d8max6", dice(t), "3d8max6");
}

fn streak(die: DieKind, on: Cmp, cap: Option<u32>) -> Expr {
    Expr::streak(StreakTerm { die, on, cap })
}

#[test]
fn streaks() {
    case(
        "streak(d6>=4)",
        streak(DieKind::Sides(6), Cmp::AtLeast(4), None),
        "streak(d6>=4)",
    );
    case(
        "streak(1d6>=4)",
        streak(DieKind::Sides(6), Cmp::AtLeast(4), None),
        "streak(d6>=4)",
    );
    case(
        "1+streak(d6={5,6})",
        bin(
            BinOp::Add,
            n(1),
            streak(DieKind::Sides(6), Cmp::one_of([5, 6]), None),
        ),
        "1+streak(d6={5,6})",
    );
    case(
        "streak(d6>=4 cap10)",
        streak(DieKind::Sides(6), Cmp::AtLeast(4), Some(10)),
        "streak(d6>=4cap10)",
    );
}

#[test]
fn three_way_comparisons() {
    case(
        "2d6+2 vs 9",
        Expr::versus(bin(BinOp::Add, dice(d(2, 6)), n(2)), n(9)),
        "2d6+2 vs 9",
    );
    case(
        "1d20+5 VS 1d20+3",
        Expr::versus(
            bin(BinOp::Add, dice(d(1, 20)), n(5)),
            bin(BinOp::Add, dice(d(1, 20)), n(3)),
        ),
        "1d20+5 vs 1d20+3",
    );
}

#[test]
fn modifiers_in_any_order_print_in_the_order_they_apply() {
    let a = Expression::parse("4d6kh3!r1min2").unwrap();
    let b = Expression::parse("4d6r1!min2kh3").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_string(), "4d6r1!min2kh3");
    let c = Expression::parse("10d10f1>=8!>=9cap4max9").unwrap();
    assert_eq!(c.to_string(), "10d10!>=9cap4max9>=8f1");
}

#[test]
fn spans_cover_the_input() {
    let e = Expr::parse("  4d6kh3 + 1d8").unwrap();
    assert_eq!(e.span, Span::new(2, 14));
    let ExprKind::Binary(_, lhs, rhs) = &e.kind else {
        panic!("{e:?}");
    };
    assert_eq!(lhs.span, Span::new(2, 8));
    assert_eq!(rhs.span, Span::new(11, 14));
    let p = Expr::parse("(1d6)").unwrap();
    assert_eq!(p.span, Span::new(0, 5));
}

// ---------------------------------------------------------------------- errors

/// The error of `input`: its span (as the text it covers) and message.
fn error(input: &str) -> (String, String) {
    let err = Expression::parse(input).unwrap_err();
    let s = err.span();
    (input[s.start..s.end].to_owned(), err.to_string())
}

#[test]
fn syntax_errors_say_what_was_expected_where() {
    let (at, msg) = error("2d6 + kh");
    assert_eq!(at, "kh");
    assert!(msg.starts_with("expected a number, dice"), "{msg}");
    let (at, msg) = error("");
    assert_eq!(at, "");
    assert!(msg.contains("found the end of the input"), "{msg}");
    let (at, msg) = error("2d");
    assert!(msg.contains("the number of sides"), "{msg}");
    assert_eq!(at, "");
    let (at, msg) = error("(1d6");
    assert!(msg.starts_with("expected `)`"), "{msg}");
    assert_eq!(at, "");
    let (at, msg) = error("1d6 2d6");
    assert_eq!(at, "2d6");
    assert!(msg.starts_with("expected an operator"), "{msg}");
    let (at, msg) = error("4d6r");
    assert!(msg.contains("what to reroll"), "{msg}");
    assert_eq!(at, "");
    let (at, msg) = error("4d6>=");
    assert!(msg.contains("a number"), "{msg}");
    assert_eq!(at, "");
    let (at, _) = error("4d6r{1,");
    assert_eq!(at, "");
    let (at, msg) = error("4d6d1");
    assert_eq!(at, "d1");
    assert!(msg.contains("`dh` or `dl`"), "{msg}");
    let (at, msg) = error("max(1d6)");
    assert_eq!(at, ")");
    assert!(msg.contains("second argument"), "{msg}");
    let (at, msg) = error("4d6kh3cap2");
    assert_eq!(at, "cap");
    assert!(msg.contains("right after an explosion"), "{msg}");
}

#[test]
fn a_comparison_of_a_total_points_to_vs() {
    let (at, msg) = error("2d6 >= 9");
    assert_eq!(at, ">");
    assert!(msg.contains("write `vs`"), "{msg}");
    let (at, msg) = error("(2d6 vs 3)");
    assert_eq!(at, "vs");
    assert!(
        msg.contains("outermost") || msg.contains("cannot stand inside"),
        "{msg}"
    );
    let (at, _) = error("1 vs 2 vs 3");
    assert_eq!(at, "vs");
}

#[test]
fn bad_values_point_at_the_modifier() {
    for (input, at, what) in [
        ("3d1", "1", "sides"),
        ("3d1001", "1001", "sides"),
        ("0d6", "0", "number of dice"),
        ("10001d6", "10001", "number of dice"),
        ("4d6kh5", "kh5", "dice kept"),
        ("4d6kl0", "kl0", "dice kept"),
        ("4d6dl4", "dl4", "dice dropped"),
        ("1d6!cap0", "cap0", "explosion cap"),
        ("1d6!cap1001", "cap1001", "explosion cap"),
        ("1000000001", "1000000001", "number"),
        ("5000d6+5001d6", "5001d6", "dice in the expression"),
    ] {
        let err = Expression::parse(input).unwrap_err();
        let s = err.span();
        assert_eq!(&input[s.start..s.end], at, "{input}: {err}");
        match err.kind() {
            ParseErrorKind::OutOfRange { what: w, .. } => assert_eq!(*w, what, "{input}"),
            other => panic!("{input}: {other:?}"),
        }
    }
}

#[test]
fn things_that_never_stop_need_a_cap() {
    for (input, at) in [
        ("1d6!>=1", "!>=1"),
        ("1d6r<=5!", "!"),
        ("4d6r<=6", "r<=6"),
        ("streak(d6>=1)", ">=1"),
    ] {
        let err = Expression::parse(input).unwrap_err();
        let s = err.span();
        assert_eq!(&input[s.start..s.end], at, "{input}: {err}");
        assert!(err.to_string().contains("never stops"), "{input}: {err}");
    }
    assert!(Expression::parse("1d6!>=1cap5").is_ok());
    assert!(Expression::parse("4d6ro<=6").is_ok());
    assert!(Expression::parse("streak(d6>=1cap5)").is_ok());
}

#[test]
fn other_invalid_combinations() {
    for (input, at, part) in [
        ("1d6f1", "f1", "success"),
        ("4d6min5max2", "min5max2", "above"),
        ("4d6kh1dl1", "dl1", "twice"),
        ("4d6!!!", "!", "twice"),
        ("4d6>=5<=2", "<=2", "twice"),
        ("1d6dl1", "dl1", "single die"),
        ("streak(2d6>=4)", "2", "one die"),
        ("1d6/(1d3-2)", "(1d3-2)", "can be 0"),
        ("1d6/0", "0", "can be 0"),
        (
            "1000d1000*1000d1000*1001",
            "1000d1000*1000d1000*1001",
            "beyond",
        ),
    ] {
        let err = Expression::parse(input).unwrap_err();
        let s = err.span();
        assert_eq!(&input[s.start..s.end], at, "{input}: {err}");
        assert!(err.to_string().contains(part), "{input}: {err}");
    }
}

/// `u` rerolls until the dice show different faces: refused where the faces could run out,
/// so that a roll never rerolls for ever (`2d2!u` once did).
#[test]
fn unique_dice_that_could_run_out_of_faces_are_refused() {
    for (input, at) in [("7d6u", "u"), ("2d2!u", "u"), ("6d6u!", "u")] {
        let err = Expression::parse(input).unwrap_err();
        let s = err.span();
        assert_eq!(&input[s.start..s.end], at, "{input}: {err}");
        assert!(
            err.to_string().contains("different faces"),
            "{input}: {err}"
        );
    }
    for input in ["6d6u", "2d2u!!", "3d6uo!", "7d6uo"] {
        let e = Expression::parse(input).unwrap_or_else(|err| panic!("{input}: {err}"));
        let mut rng = dice_testkit::rng(7);
        for _ in 0..100 {
            e.roll(&mut rng);
        }
    }
}

#[test]
fn long_and_deep_inputs_are_refused() {
    let long = "1+".repeat(500) + "1";
    let err = Expression::parse(&long).unwrap_err();
    assert!(matches!(
        err.kind(),
        ParseErrorKind::TooLong {
            len: 1001,
            max: 1000
        }
    ));
    let fine = "1+".repeat(499) + "1";
    assert!(Expression::parse(&fine).is_ok());
    let deep = "(".repeat(33) + "1" + &")".repeat(33);
    let err = Expression::parse(&deep).unwrap_err();
    assert!(matches!(err.kind(), ParseErrorKind::TooDeep { max: 32 }));
    assert_eq!(err.span().start, 32);
    let ok = "(".repeat(32) + "1" + &")".repeat(32);
    assert!(Expression::parse(&ok).is_ok());
    let signs = "-".repeat(33) + "1";
    assert!(Expression::parse(&signs).is_err());
}

#[test]
fn the_caret_line_marks_the_span() {
    let err = Expression::parse("4d6kh5").unwrap_err();
    assert_eq!(
        format!("{err:#}"),
        "dice kept 5 is out of range: expected 1..=4 at column 4\n  4d6kh5\n     ^^^"
    );
    // Columns count characters, not bytes.
    let err = Expression::parse("2×× 3").unwrap_err();
    assert_eq!(err.column(), 3);
    assert_eq!(err.caret_lines(), "  2×× 3\n    ^");
}

#[test]
fn multibyte_characters_never_split() {
    for input in [
        "(1 v×",
        "(1 v",
        "4d6c×",
        "4d6ca",
        "2d6×",
        "÷",
        "1d6 −",
        "min(1, 2 v÷",
        "é",
        "4d6kh3é",
    ] {
        let err = Expression::parse(input).unwrap_err();
        let s = err.span();
        assert!(
            input.is_char_boundary(s.start) && input.is_char_boundary(s.end),
            "{input}"
        );
        let _ = format!("{err:#}");
    }
}

/// The constructs of issue 17, with faces given in advance and the meaning their sources
/// document.
#[test]
fn computed_dice_fate_variants_and_unique_compare_points() {
    use dice_notation::Dialect::{Default, Foundry, Roll20, RpgDiceRoller};
    let value = |d: dice_notation::Dialect, text: &str, faces: &[i64]| {
        let e = Expression::parse_with(text, d).unwrap_or_else(|err| panic!("{text}: {err:#}"));
        // The canonical form reads back in this crate's grammar.
        assert_eq!(Expression::parse(&e.to_string()).as_ref(), Ok(&e), "{text}");
        e.roll_faces(faces.iter().copied())
            .unwrap_or_else(|err| panic!("{text}: {err}"))
            .total
    };
    // Foundry, "Roll between two and eight d8": `(2d4)d8`; the d4s first (3 + 1 = 4 d8).
    assert_eq!(value(Foundry, "(2d4)d8", &[3, 1, 8, 7, 1, 2]), 18);
    // Foundry, "a single die with a number of sides randomly determined by a d20 roll".
    assert_eq!(value(Foundry, "1d(1d20)", &[12, 9]), 9);
    assert_eq!(value(Foundry, "1d(1d20)", &[1]), 1); // a die of one side: no face read
    // Foundry, "(1d20*2)d(1d10)": the count, then the sides, then the dice.
    assert_eq!(value(Foundry, "(1d20*2)d(1d10)", &[1, 6, 5, 2]), 7);
    // Roll20's computed dice, `(N+Y)dX` and `Nd(X+Y)`, with a rolled part.
    assert_eq!(value(Roll20, "(1d3+1)d6", &[2, 6, 6, 1]), 13);
    assert_eq!(value(Roll20, "2d(1d4+2)", &[4, 6, 5]), 11);
    assert_eq!(value(Default, "(1d4)d6kh2", &[1, 5]), 5); // fewer dice than kept: all
    assert_eq!(value(Default, "(1d4)d6dl2", &[2, 5, 6]), 0); // as many dropped: none
    assert_eq!(value(Default, "(1d4-1)d6", &[1]), 0);
    assert_eq!(
        Expression::parse_with("(1d4)d8", Foundry)
            .unwrap()
            .to_string(),
        "(1d4)d8"
    );
    assert_eq!(
        Expression::parse_with("2d(1d4+2)!>=5", Roll20)
            .unwrap()
            .to_string(),
        "2d(1d4+2)!>=5"
    );
    // A modifier that takes its faces from a die of unknown size is refused.
    assert!(Expression::parse("2d(1d4+2)!").is_err());
    // rpg-dice-roller's FudgeDice: "on 1d6 a roll of 1 = -1, 6 = +1, others = 0" (dF.1);
    // dF.2 is the plain Fate die.
    assert_eq!(value(RpgDiceRoller, "4dF.1", &[1, 6, 6, 3]), 1);
    assert_eq!(value(RpgDiceRoller, "4dF.2", &[-1, 1, 1, 0]), 1);
    assert!(Expression::parse_with("4dF.1kh2", RpgDiceRoller).is_err());
    // UniqueModifier: a duplicate is rerolled only while it passes the compare point.
    // 3d6u=5: the second 5 is rerolled (to 2); a second 3 stands.
    assert_eq!(value(RpgDiceRoller, "3d6u=5", &[5, 5, 2, 4]), 11);
    assert_eq!(value(RpgDiceRoller, "3d6u=5", &[3, 3, 5]), 11);
    // 3d6u>4: the duplicate 6 is rerolled into a 5, which is new, so it stands.
    assert_eq!(value(RpgDiceRoller, "3d6u>4", &[6, 6, 5, 1]), 12);
    assert_eq!(
        Expression::parse_with("3d6u=5", RpgDiceRoller)
            .unwrap()
            .to_string(),
        "3d6u(=5)"
    );
    // In this crate's grammar `u>=5` after the dice counts fives and sixes of unique dice.
    assert_eq!(value(Default, "3d6u>=5", &[5, 5, 6, 1]), 2);
    // Keep/drop over exploding dice rerolled until they stand: 3d6r1!kh2.
    assert_eq!(value(Default, "3d6r1!kh2", &[1, 6, 4, 2, 5]), 11);
}

/// Rerolls and explosions applied over the whole term one after the other (a limit in the
/// term, several on one term), a rolled success target, a group of one value and a group
/// keeping the dice of its item: their trees and canonical forms.
#[test]
fn term_wide_steps_rolled_targets_and_one_item_groups() {
    use dice_notation::{ComputedDice, GroupTerm, RollStep, StepKind};
    let step = |kind, recursive, on, limit| RollStep {
        kind,
        recursive,
        on,
        limit,
    };
    let mut t = d(6, 10);
    t.sequence = vec![step(StepKind::Explode, true, Cmp::Exactly(10), Some(5))];
    case("6d10!10limit5", dice(t), "6d10!10limit5");
    let mut t = d(5, 10);
    t.sequence = vec![
        step(StepKind::Explode, false, Cmp::Below(8), None),
        step(StepKind::Explode, true, Cmp::Exactly(10), None),
    ];
    t.success = Some(Cmp::AtLeast(8));
    case("5d10!<8cap1!10>=8", dice(t), "5d10!<8cap1!10>=8");
    let mut t = d(4, 6);
    t.sequence = vec![
        step(StepKind::Reroll, false, Cmp::Exactly(1), Some(1)),
        step(StepKind::Reroll, true, Cmp::Exactly(2), None),
    ];
    case("4d6ro1limit1r2", dice(t), "4d6ro1limit1r2");
    // A rolled success target: the dice term is computed, its number rolled first.
    let mut t = d(3, 6);
    t.success = Some(Cmp::AtLeast(0));
    let target = Expr::new(ExprKind::Computed(ComputedDice {
        count: Box::new(n(3)),
        sides: None,
        term: t,
        target: Some(Box::new(dice(d(1, 4)))),
    }));
    case("3d6>=(1d4)", target, "3d6>=(1d4)");
    // A group of one value (a comma after it), a group keeping the dice of its item.
    let group = |items: Vec<Expr>, keep, success, dice| GroupTerm {
        items,
        keep,
        select: None,
        success,
        failure: None,
        steps: Vec::new(),
        dice,
    };
    let total = Expr::new(ExprKind::Group(group(
        vec![dice(d(4, 6))],
        Keep::All,
        Some(Cmp::Above(10)),
        false,
    )));
    case("{4d6,}>10", total, "{4d6,}>10");
    let product = bin(BinOp::Mul, dice(d(4, 10)), dice(d(5, 6)));
    let kept = Expr::new(ExprKind::Group(group(
        vec![product],
        Keep::Highest(2),
        None,
        true,
    )));
    case("{4d10 * 5d6}kh2", kept, "{4d10*5d6}kh2");
    // Errors: a limit on a compounding explosion; a limit of 0; a rolled number where only
    // a success target may be rolled; a group keeping dice with modifiers.
    for bad in [
        "4d6!!6limit2",
        "4d6!6limit0",
        "4d6!>=(1d4)",
        "{4d6kh3*2}kh1",
        "{4d6+1d(1d4)}kh1",
    ] {
        assert!(Expression::parse(bad).is_err(), "{bad}");
    }
}

/// A die written with a number of sides is checked whatever else the term rolls: found by
/// fuzzing, `3d1>(d71+2)` (a rolled target) slipped past the check and its d1 rolled 1s and 2s.
#[test]
fn written_sides_are_checked_beside_rolled_parts() {
    for text in ["3d1>(d71+2)", "(1d4)d1", "2d0>(1d4)", "(1d3)d1001"] {
        let err = Expression::parse(text).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                dice_notation::ParseErrorKind::OutOfRange { what: "sides", .. }
            ),
            "{text}: {err}"
        );
    }
    // Still fine: a rolled target or count on a real die.
    for text in ["3d6>(1d4)", "(1d4)d6", "3d2>=(1d2)"] {
        assert!(Expression::parse(text).is_ok(), "{text}");
    }
}
