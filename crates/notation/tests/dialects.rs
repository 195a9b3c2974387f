//! The dialect corpora (`tests/dialects/<dialect>.txt`): expressions collected from each
//! roller's own documentation and test suite, each with faces given in advance and the value
//! that roller's rules give them. Every expression must parse in its dialect (or be refused
//! with an error where the file says `error`), give that value with those faces, and have
//! exact odds or a refusal for cost or support, which come with no roll.

use dice_notation::{Dialect, Expression, NotationError, Outcome, Rational};

/// One line of a corpus file.
struct Entry {
    line: usize,
    text: String,
    faces: Vec<i64>,
    /// `None`: the crate refuses the expression. A whole number (`7`), or where the
    /// roller divides exactly a fraction (`52/7`) or an exact decimal (`9.45`).
    value: Option<Rational>,
    note: String,
}

fn corpus(dialect: Dialect) -> Vec<Entry> {
    let path = format!(
        "{}/tests/dialects/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        dialect.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 4, "{path}:{}: four fields", i + 1);
        let faces = fields[1]
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(|f| {
                f.parse()
                    .unwrap_or_else(|e| panic!("{path}:{}: {f}: {e}", i + 1))
            })
            .collect();
        let value = match fields[2].trim() {
            "error" => None,
            v => Some(
                v.parse()
                    .unwrap_or_else(|e| panic!("{path}:{}: {v}: {e}", i + 1)),
            ),
        };
        out.push(Entry {
            line: i + 1,
            text: fields[0].to_owned(),
            faces,
            value,
            note: fields[3].to_owned(),
        });
    }
    out
}

/// Checks one dialect's corpus; returns (entries, parsed, agreeing, exact laws).
fn check(dialect: Dialect) -> (usize, usize, usize, usize) {
    let entries = corpus(dialect);
    let (mut parsed, mut agree, mut exact) = (0, 0, 0);
    let mut failures = Vec::new();
    for e in &entries {
        let where_ = format!(
            "{}.txt:{} `{}` ({})",
            dialect.name(),
            e.line,
            e.text,
            e.note
        );
        let result = Expression::parse_with(&e.text, dialect);
        let Some(want) = e.value else {
            match result {
                Ok(x) => failures.push(format!("{where_}: parses as `{x}`, expected a refusal")),
                Err(err) => assert!(!err.to_string().is_empty()),
            }
            continue;
        };
        let x = match result {
            Ok(x) => x,
            Err(err) => {
                failures.push(format!("{where_}: {err:#}"));
                continue;
            }
        };
        parsed += 1;
        // The canonical form reads back in this crate's grammar to the same expression.
        let again = Expression::parse(&x.to_string());
        if again.as_ref() != Ok(&x) {
            failures.push(format!("{where_}: canonical `{x}` reads back as {again:?}"));
        }
        let want = Outcome::from_rational(want);
        match x.roll_faces(e.faces.iter().copied()) {
            Ok(r) if r.outcome == want => agree += 1,
            Ok(r) => failures.push(format!("{where_}: gave {r}, expected {want}")),
            Err(err) => failures.push(format!("{where_}: faces: {err}")),
        }
        match x.distribution() {
            Ok(law) => {
                exact += 1;
                // The value the faces give is listed with a chance, unless it lies beyond
                // every listed outcome, in the unlisted tail of an untruncated explosion.
                let listed = law.probability(&want) > 0.0;
                let beyond = law.outcomes().last().is_some_and(|last| want > *last)
                    || law.outcomes().first().is_some_and(|first| want < *first);
                let in_tail = law.tail() > 0.0 && beyond;
                if !(listed || in_tail) {
                    failures.push(format!("{where_}: the exact law gives {want} no chance"));
                }
                if (law.total() - 1.0).abs() > 1e-9 || law.tail() > 1e-9 {
                    failures.push(format!(
                        "{where_}: the law sums to {} with a tail of {}",
                        law.total(),
                        law.tail()
                    ));
                }
            }
            Err(NotationError::TooComplex { .. } | NotationError::Unsupported { .. }) => {}
            Err(err) => failures.push(format!("{where_}: exact odds: {err}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (entries.len(), parsed, agree, exact)
}

/// Each corpus's counts: (expressions, parsed and agreeing, refused as the file says, with
/// exact odds). A line that stops parsing, or a law that becomes a refusal, changes them:
/// update them only with the corpus.
const COUNTS: [(Dialect, usize, usize, usize, usize); 4] = [
    (Dialect::Roll20, 130, 127, 3, 127),
    (Dialect::Foundry, 136, 135, 1, 135),
    (Dialect::D20, 167, 156, 11, 156),
    (Dialect::RpgDiceRoller, 311, 301, 10, 300),
];

#[test]
fn every_corpus_means_what_its_source_says() {
    let mut report = Vec::new();
    let mut counts = Vec::new();
    for dialect in Dialect::ALL.into_iter().skip(1) {
        let (n, parsed, agree, exact) = check(dialect);
        report.push(format!(
            "{}: {n} expressions, {parsed} parse, {agree} agree, {exact} with exact odds, {} \
             refused as the file says",
            dialect.name(),
            n - parsed
        ));
        counts.push((dialect, n, agree, n - parsed, exact));
    }
    // Shown with --nocapture; the counts go in the report of the dialects.
    println!("{}", report.join("\n"));
    assert_eq!(counts, COUNTS, "{}", report.join("\n"));
}

#[test]
fn dialects_disagree_where_their_documentation_does() {
    let value = |text: &str, d: Dialect, faces: &[i64]| {
        Expression::parse_with(text, d)
            .unwrap()
            .roll_faces(faces.iter().copied())
            .unwrap()
            .outcome
    };
    // `>4` includes the 4 in Roll20, not elsewhere.
    assert_eq!(
        value("3d6>4", Dialect::Roll20, &[4, 4, 5]),
        Outcome::Number(3)
    );
    assert_eq!(
        value("3d6>4", Dialect::Default, &[4, 4, 5]),
        Outcome::Number(1)
    );
    // Foundry's `r` rerolls once, ours until.
    assert_eq!(
        value("1d6r1", Dialect::Foundry, &[1, 1]),
        Outcome::Number(1)
    );
    assert_eq!(
        value("1d6r1", Dialect::Default, &[1, 1, 4]),
        Outcome::Number(4)
    );
    // Avrae d20's `k3` keeps the dice showing 3; ours keeps the highest 3.
    assert_eq!(
        value("4d6k3", Dialect::D20, &[3, 6, 3, 5]),
        Outcome::Number(6)
    );
    assert_eq!(
        value("4d6k3", Dialect::Default, &[3, 6, 3, 5]),
        Outcome::Number(14)
    );
}

#[test]
fn an_error_names_the_dialect_that_parses_it() {
    let err = Expression::parse("4d6rr1").unwrap_err();
    assert_eq!(
        err.hint(),
        Some("reroll until is `r` here; with --dialect foundry, `rr`")
    );
    let err = Expression::parse_with("1d20 > 10", Dialect::Roll20).unwrap_err();
    assert_eq!(
        err.hint(),
        Some("this parses as Avrae d20 notation: with --dialect d20")
    );
    assert_eq!(Expression::parse("4d6kh9").unwrap_err().hint(), None);
    // `ms` comes from Foundry (its margin of success), though Roll20 reads it too (match,
    // then sort).
    let err = Expression::parse("1d20ms>=10").unwrap_err();
    assert_eq!(
        err.hint(),
        Some(
            "a margin of success is a subtraction here (`1d20-10`); with --dialect foundry, \
             `ms>=10`"
        )
    );
    let err = Expression::parse_with("1d20ms>=10", Dialect::RpgDiceRoller).unwrap_err();
    assert_eq!(
        err.hint(),
        Some("this parses as Foundry VTT notation: with --dialect foundry")
    );
    // Foundry's `cs` and `cf` are counts; this crate's grammar, Roll20 and rpg-dice-roller
    // read them as critical markers and Avrae d20 as a comment: none of them is named.
    let err = Expression::parse_with("8d20cs>18cf<3", Dialect::Foundry).unwrap_err();
    assert_eq!(err.hint(), None, "{err}");
}

#[test]
fn the_laws_of_the_dialects_constructs_match_their_rolls() {
    use dice_core::Roll;
    // One or two expressions per construct this crate's exact odds gained with the dialects.
    let cases = [
        (Dialect::Roll20, "3d6!p"),                       // penetrating
        (Dialect::Roll20, "4d6!pkh2"),                    // keep over penetrating dice (dice-core)
        (Dialect::Default, "3d6!!pcap2"),                 // compounding, penetrating, capped
        (Dialect::Roll20, "5d6!kh3"),                     // keep over exploding dice (dice-core)
        (Dialect::Roll20, "3d10!>9kl2>8"),                // keep, then count, over exploding dice
        (Dialect::D20, "3d6ra1"),                         // reroll and add
        (Dialect::D20, "4d6p<3"),                         // selection
        (Dialect::Foundry, "5d6sf<3"),                    // subtract the failures' values
        (Dialect::Foundry, "6d6cs>4df<2"),                // deduct failures
        (Dialect::Foundry, "3d6ms>=10"),                  // margin
        (Dialect::RpgDiceRoller, "3d6u"),                 // unique (dice-core)
        (Dialect::RpgDiceRoller, "4d6uokh3"),             // unique once, keep
        (Dialect::RpgDiceRoller, "{2d6, 1d12, 1d8+2}k2"), // group of differing items
        (Dialect::Roll20, "{3d6, 3d6, 3d6}kh2"),          // group of alike items
        (Dialect::Roll20, "{1d20+2, 2d10}>12"),           // group success count
        (Dialect::D20, "1d20 >= 1d20"),                   // comparison as a value
        (Dialect::RpgDiceRoller, "2d6%4 + 1d6**2"),       // modulo, power
        (
            Dialect::Roll20,
            "ceil(3d6/4) + round(1d10/4) - floor(1d6/4)",
        ),
        (Dialect::D20, "3d6 / 2"),     // d20's truncated total
        (Dialect::D20, "(2d6-7) / 3"), // truncation toward 0 of negative values
        (Dialect::RpgDiceRoller, "abs(1d6-1d8) + sign(1d4-2)"),
        (Dialect::Foundry, "3dc + 2d6even"), // coins, even
    ];
    for (seed, (dialect, text)) in cases.into_iter().enumerate() {
        let e = Expression::parse_with(text, dialect).unwrap();
        let law = e
            .distribution()
            .unwrap_or_else(|err| panic!("{text}: {err}"));
        assert!((law.total() - 1.0).abs() < 1e-12, "{text}: {}", law.total());
        let mut rng = dice_testkit::rng(seed as u64);
        dice_testkit::check_rolls(text, &law, || Roll::roll(&e, &mut rng));
        let mut rng = dice_testkit::rng(seed as u64 + 100);
        dice_testkit::check_rolls(text, &law, || e.roll(&mut rng).outcome);
    }
}

#[test]
fn the_constructs_the_dialects_added_read_and_print_in_this_crates_grammar() {
    // docs/notation.md, "One example per construct": (input, canonical form).
    for (text, canonical) in [
        ("(1d20 >= 1d20)", "(1d20 >= 1d20)"),
        ("1d20 % 6", "1d20%6"),
        ("2d6 ** 2", "2d6**2"),
        ("-2**2", "-2**2"),
        ("(-2)**2", "(-2)**2"),
        ("2**3**2", "2**3**2"),
        ("ceil(1d20/3)", "ceil(1d20/3)"),
        ("round(1d20/3)", "round(1d20/3)"),
        ("trunc((2d6-7)/3)", "trunc((2d6-7)/3)"),
        ("floor(1d20/3)", "1d20/3"),
        ("ceil(1d6/2 + 1)", "ceil(1d6/2)+1"),
        ("floor(10 - 1d6/4)", "10-ceil(1d6/4)"),
        ("abs(1d6-1d6)", "abs(1d6-1d6)"),
        ("sign(1d6-1d6)", "sign(1d6-1d6)"),
        ("{4d6kh3, 4d6kh3}kh1", "{4d6kh3, 4d6kh3}kh1"),
        ("{2d6, 1d12}>=8", "{2d6, 1d12}>=8"),
        ("3d6!p", "3d6!p"),
        ("3d6!!p>=5cap3", "3d6!!p>=5cap3"),
        ("3d6ra1", "3d6ra1"),
        ("3d6u", "3d6u"),
        ("4d6uokh3", "4d6uokh3"),
        ("4d6d(<3)", "4d6d(<3)"),
        ("5d6k(>4)", "5d6k(>4)"),
        ("6d6sf<3", "6d6sf<3"),
        ("1d20cs>=19cf1", "1d20cs>=19cf1"),
        ("4d6sd", "4d6sd"),
        ("3dC", "3dC"),
        ("4d6!<>3", "4d6!<>3"),
        ("exact(1d6/2)", "exact(1d6/2)"),
        ("exact(3/2)", "exact(3/2)"),
        (
            "floor(exact(1d6/2)+exact(1/2))",
            "floor(exact(1d6/2)+exact(1/2))",
        ),
        (
            "round_away(exact((1d6-4)/2))",
            "round_away(exact((1d6-4)/2))",
        ),
        ("round_away(1d6)", "1d6"),
        ("6d10!10limit5", "6d10!10limit5"),
        ("20d20ro1limit1", "20d20ro1limit1"),
        ("5d10!<8cap1!10>=8", "5d10!<8cap1!10>=8"),
        ("4d6r1r2", "4d6r1r2"),
        ("3d6>=(1d4)", "3d6>=(1d4)"),
        ("3d6>=(1+3)", "3d6>=4"),
        ("{4d6,}>10", "{4d6,}>10"),
        ("{4d10*(2+5d6)}kh2", "{4d10*(2+5d6)}kh2"),
        ("{{4d10*5d6}kh2,}>50", "{{4d10*5d6}kh2,}>50"),
    ] {
        let e = Expression::parse(text).unwrap_or_else(|err| panic!("{text}: {err:#}"));
        assert_eq!(e.to_string(), canonical, "{text}");
        assert_eq!(Expression::parse(canonical).as_ref(), Ok(&e), "{canonical}");
    }
    // Values: -2**2 is -(2**2); floor(10 - x/4) is 10 - ceil(x/4).
    let value = |t: &str, faces: &[i64]| {
        Expression::parse(t)
            .unwrap()
            .roll_faces(faces.iter().copied())
            .unwrap()
            .total
    };
    assert_eq!(value("-2**2", &[]), -4);
    assert_eq!(value("2**3**2", &[]), 512);
    assert_eq!(value("floor(10 - 1d6/4)", &[5]), 8);
    // A limit in the term: the third 6 does not explode; a rolled target (a 3), then the
    // dice; a group of one value; a group keeping the dice of its item.
    assert_eq!(value("3d6!6limit2", &[6, 6, 6, 1, 1]), 20);
    assert_eq!(value("3d6>=(1d4)", &[3, 2, 3, 6]), 2);
    assert_eq!(value("{3d6,}>=10", &[3, 2, 6]), 1);
    assert_eq!(value("{2d6*1d6}kl2", &[3, 5, 3]), 3 * 3);
    assert_eq!(
        value("round(1d20/3) + trunc((2d6-7)/3)", &[10, 1, 1]),
        3 - 1
    );
    // A fraction that is not rounded stays one in the dialects that divide exactly (the
    // fraction path, `tests/fractions.rs`); a rounded one is this crate's rounded division.
    for d in [Dialect::Roll20, Dialect::Foundry, Dialect::RpgDiceRoller] {
        let half = Expression::parse_with("1d6/2", d).unwrap();
        assert_eq!(half.to_string(), "exact(1d6/2)");
        let r = half.roll_faces([3]).unwrap();
        assert_eq!(r.outcome, Outcome::Fraction(Rational::new(3, 2).unwrap()));
        let rounded = Expression::parse_with("floor(1d6/2) + 12/4", d).unwrap();
        assert_eq!(rounded.to_string(), "1d6/2+12/4");
    }
    // This crate's own `/` still rounds toward −∞, and its grammar has no decimals.
    assert_eq!(value("1d6/2", &[3]), 1);
    assert!(Expression::parse("1d6*0.5").is_err());
}
