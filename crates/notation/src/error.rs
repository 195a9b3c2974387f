//! Errors: a [`ParseError`] for text (or a tree) that is not a valid expression, a
//! [`NotationError`] for exact odds that cannot be computed.

use std::fmt;

use crate::ast::Span;

/// What is wrong with an expression.
///
/// ```
/// use dice_notation::{Expression, ParseErrorKind};
/// let err = Expression::parse("4d6kh5").unwrap_err();
/// assert!(matches!(err.kind(), ParseErrorKind::OutOfRange { what: "dice kept", .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Something else than what the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Unexpected {
        /// What the grammar allows at this point.
        expected: &'static str,
        /// What is there (`` `x` `` or "the end of the input").
        found: String,
    },
    /// The input is longer than [`crate::MAX_INPUT_LEN`].
    #[error("the expression is {len} bytes long; at most {max} are allowed")]
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// [`crate::MAX_INPUT_LEN`].
        max: usize,
    },
    /// The expression written out in full in this crate's grammar (its canonical form, the
    /// text [`Display`](std::fmt::Display) gives and [`crate::Expression::parse`] reads back)
    /// would be longer than [`crate::MAX_INPUT_LEN`]: `d6` is `1d6`, `d%` is `1d100`, and a
    /// dialect's shorthand for a set of faces (Foundry's `1d1000odd`) lists the faces.
    #[error(
        "written out in full (`1d6` for `d6`, each face of a set listed) the expression is more than {max} bytes long; at most {max} are allowed"
    )]
    CanonicalTooLong {
        /// [`crate::MAX_INPUT_LEN`].
        max: usize,
    },
    /// Parentheses, functions, signs and exponents nested deeper than [`crate::MAX_DEPTH`].
    #[error("parentheses, functions, signs and exponents nest more than {max} deep")]
    TooDeep {
        /// [`crate::MAX_DEPTH`].
        max: usize,
    },
    /// A number outside what its place allows.
    #[error("{what} {value} is out of range: expected {min}..={max}")]
    OutOfRange {
        /// What the number is (`"sides"`, `"dice kept"`, `"explosion cap"` …).
        what: &'static str,
        /// The number given (as written, or the total reached).
        value: i128,
        /// The least allowed.
        min: i128,
        /// The most allowed.
        max: i128,
    },
    /// A modifier given twice (or two of a kind that excludes each other, like `kh` and `dl`).
    #[error("{modifier} is given twice; each modifier may appear once per dice term")]
    Duplicate {
        /// The modifier (`` `kh`/`kl`/`dh`/`dl` ``).
        modifier: &'static str,
    },
    /// Modifiers or values that cannot go together, with what to write instead.
    #[error("{0}")]
    Invalid(String),
}

/// An expression that could not be read: what is wrong, and where.
///
/// `Display` gives one line (`expected … at column 4`); the alternate form `{:#}` adds the
/// input and a caret line under the offending span:
///
/// ```
/// use dice_notation::{Expression, Span};
/// let err = Expression::parse("2d6 + kh").unwrap_err();
/// assert_eq!(err.span(), Span::new(6, 8));
/// assert_eq!(
///     err.to_string(),
///     "expected a number, dice (`2d6`, `d20`, `dF`), `(`, `-`, `min(`, `max(` or `streak(`, found `kh` at column 7"
/// );
/// assert_eq!(
///     format!("{err:#}").lines().skip(1).collect::<Vec<_>>(),
///     ["  2d6 + kh", "        ^^"]
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError(Box<Inner>);

/// A parse error's contents, boxed so that `Result<_, ParseError>` stays small.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    kind: ParseErrorKind,
    span: Span,
    input: String,
    hint: Option<String>,
}

impl ParseError {
    pub(crate) fn new(kind: ParseErrorKind, span: Span, input: &str) -> ParseError {
        ParseError(Box::new(Inner {
            kind,
            span,
            input: input.to_owned(),
            hint: None,
        }))
    }

    /// When the text fails in the dialect asked for but parses in another: which, and what
    /// to write here instead where that is known.
    ///
    /// ```
    /// use dice_notation::Expression;
    /// let err = Expression::parse("4d6rr1").unwrap_err();
    /// assert_eq!(
    ///     err.hint(),
    ///     Some("reroll until is `r` here; with --dialect foundry, `rr`")
    /// );
    /// assert_eq!(Expression::parse("4d6kh7").unwrap_err().hint(), None);
    /// ```
    pub fn hint(&self) -> Option<&str> {
        self.0.hint.as_deref()
    }

    /// What is wrong.
    ///
    /// ```
    /// use dice_notation::{Expression, ParseErrorKind};
    /// let err = Expression::parse("(1").unwrap_err();
    /// assert!(matches!(err.kind(), ParseErrorKind::Unexpected { expected: "`)`", .. }));
    /// ```
    pub fn kind(&self) -> &ParseErrorKind {
        &self.0.kind
    }

    /// The bytes of the input at fault (empty at the end of the input).
    ///
    /// ```
    /// use dice_notation::{Expression, Span};
    /// assert_eq!(Expression::parse("(1").unwrap_err().span(), Span::new(2, 2));
    /// ```
    pub fn span(&self) -> Span {
        self.0.span
    }

    /// The text that was parsed (for an expression built from a tree: its canonical form).
    ///
    /// ```
    /// assert_eq!(dice_notation::Expression::parse("(1").unwrap_err().input(), "(1");
    /// ```
    pub fn input(&self) -> &str {
        &self.0.input
    }

    /// The 1-based column (in characters) where the span starts.
    ///
    /// ```
    /// let err = dice_notation::Expression::parse("1d6 ++").unwrap_err();
    /// assert_eq!(err.column(), 6);
    /// ```
    pub fn column(&self) -> usize {
        let start = self.0.span.start.min(self.0.input.len());
        self.0
            .input
            .get(..start)
            .map_or(start, |prefix| prefix.chars().count())
            + 1
    }

    /// The input and a caret line under the span, two lines indented by two spaces.
    ///
    /// ```
    /// let err = dice_notation::Expression::parse("3d1").unwrap_err();
    /// assert_eq!(err.caret_lines(), "  3d1\n    ^");
    /// ```
    pub fn caret_lines(&self) -> String {
        let chars = |end: usize| {
            let end = end.min(self.0.input.len());
            self.0.input.get(..end).map_or(end, |p| p.chars().count())
        };
        let start = chars(self.0.span.start);
        let width = chars(self.0.span.end).saturating_sub(start).max(1);
        format!(
            "  {}\n  {}{}",
            self.0.input,
            " ".repeat(start),
            "^".repeat(width)
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at column {}", self.0.kind, self.column())?;
        if f.alternate() && !self.0.input.is_empty() {
            write!(f, "\n{}", self.caret_lines())?;
        }
        Ok(())
    }
}

/// Exact odds that cannot be computed: the term at fault, where it is, and why. Rolling
/// (and so Monte Carlo) works for every valid expression; only exact odds can fail.
///
/// ```
/// use dice_notation::{Expression, NotationError};
/// let e = Expression::parse("5d6ro1!kh3")?;
/// let err = e.distribution().unwrap_err();
/// assert!(matches!(err, NotationError::Unsupported { .. }));
/// assert_eq!(err.term(), "5d6ro1!kh3");
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NotationError {
    /// The computation would take more than [`crate::MAX_EXACT_WORK`] steps, list more than
    /// [`crate::MAX_LISTED`] outcomes, or exceed dice-core's own limit.
    #[error(
        "the exact odds of `{term}` need about {work} steps (or outcomes), more than {max}; \
         estimate them by rolling many times instead"
    )]
    TooComplex {
        /// The part of the expression at fault, in canonical form.
        term: String,
        /// Where it is in the input.
        span: Span,
        /// Estimated steps or outcomes.
        work: u64,
        /// The limit exceeded.
        max: u64,
    },
    /// Exact odds this crate does not compute.
    #[error(
        "exact odds of `{term}` are not supported: {what}; estimate them by rolling many times instead"
    )]
    Unsupported {
        /// The part of the expression at fault, in canonical form.
        term: String,
        /// Where it is in the input.
        span: Span,
        /// What is not supported.
        what: &'static str,
    },
    /// dice-core refused the computation.
    #[error("exact odds of `{term}`: {source}")]
    Core {
        /// The part of the expression at fault, in canonical form.
        term: String,
        /// Where it is in the input.
        span: Span,
        /// dice-core's error.
        source: dice_core::Error,
    },
}

impl NotationError {
    /// The part of the expression at fault, in canonical form.
    ///
    /// ```
    /// let e = dice_notation::Expression::parse("1 + 3d6ro1!dl1")?;
    /// assert_eq!(e.distribution().unwrap_err().term(), "3d6ro1!dl1");
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn term(&self) -> &str {
        match self {
            NotationError::TooComplex { term, .. }
            | NotationError::Unsupported { term, .. }
            | NotationError::Core { term, .. } => term,
        }
    }

    /// Where it is in the input.
    ///
    /// ```
    /// let e = dice_notation::Expression::parse("1 + 3d6ro1!dl1")?;
    /// assert_eq!(e.distribution().unwrap_err().span(), dice_notation::Span::new(4, 14));
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn span(&self) -> Span {
        match self {
            NotationError::TooComplex { span, .. }
            | NotationError::Unsupported { span, .. }
            | NotationError::Core { span, .. } => *span,
        }
    }
}

impl From<NotationError> for dice_core::Error {
    /// For [`dice_core::Exact`]: the same failure in dice-core's terms (the term and span are
    /// lost).
    fn from(e: NotationError) -> dice_core::Error {
        match e {
            NotationError::TooComplex { work, max, .. } => dice_core::Error::TooComplex {
                what: "a dice expression",
                work,
                max,
            },
            NotationError::Unsupported { what, .. } => dice_core::Error::Unsupported { what },
            NotationError::Core { source, .. } => source,
        }
    }
}

/// Known constructs of other dialects, with what to write in this crate's grammar.
const KNOWN: &[(&str, crate::Dialect, &str)] = &[
    (
        "rr",
        crate::Dialect::Foundry,
        "reroll until is `r` here; with --dialect foundry, `rr`",
    ),
    (
        "xo",
        crate::Dialect::Foundry,
        "explode once is `!cap1` here; with --dialect foundry, `xo`",
    ),
    (
        "x",
        crate::Dialect::Foundry,
        "explode is `!` here; with --dialect foundry, `x`",
    ),
    (
        "cs",
        crate::Dialect::Foundry,
        "a success count is `>=N` here; with --dialect foundry, `cs>=N`",
    ),
    (
        "ms",
        crate::Dialect::Foundry,
        "a margin of success is a subtraction here (`1d20-10`); with --dialect foundry, `ms>=10`",
    ),
    (
        "ra",
        crate::Dialect::D20,
        "with --dialect d20, `ra` rerolls and adds",
    ),
    (
        "mi",
        crate::Dialect::D20,
        "a minimum is `min` here; with --dialect d20, `mi`",
    ),
    (
        "ma",
        crate::Dialect::D20,
        "a maximum is `max` here; with --dialect d20, `ma`",
    ),
    (
        "e",
        crate::Dialect::D20,
        "explode is `!` here; with --dialect d20, `e`",
    ),
    (
        "p",
        crate::Dialect::D20,
        "drop is `dh`/`dl` here; with --dialect d20, `p`",
    ),
];

/// Words of one dialect's documentation (the dialect they come from) that other dialects
/// read with another meaning: a hint for them names the dialect they come from, or, written
/// in that dialect, none whose meaning differs.
const ORIGINS: &[(&str, crate::Dialect, &[crate::Dialect])] = {
    use crate::Dialect::{D20, Default, Foundry, Roll20, RpgDiceRoller};
    &[
        // Foundry's margin of success; Roll20's `m` (highlight matches) then `s` (sort).
        ("ms", Foundry, &[Roll20]),
        // Foundry's counts; critical-face markers (display only) elsewhere.
        ("cs", Foundry, &[Default, Roll20, RpgDiceRoller]),
        ("cf", Foundry, &[Default, Roll20, RpgDiceRoller]),
        ("df", Foundry, &[]),
        ("sf", Foundry, &[]),
        ("xo", Foundry, &[]),
        ("even", Foundry, &[]),
        ("odd", Foundry, &[]),
        ("mt", Roll20, &[]),
        ("ra", D20, &[]),
        ("mi", D20, &[]),
        ("ma", D20, &[]),
        ("uo", RpgDiceRoller, &[]),
    ]
};

/// Adds to `err` (from `dialect`) a hint naming another dialect that parses `input`.
///
/// Where the error stands at a word of [`ORIGINS`], the dialect the word comes from is
/// named first (`1d20ms>=10` in this crate's grammar: Foundry's margin, not Roll20's match
/// and sort), and a dialect that reads the word with another meaning, or reads it as part
/// of a comment, is never named (Foundry's `8d20cs>18cf<3`: `cs` and `cf` are critical
/// markers in this crate's grammar, and Avrae d20 reads them as a comment).
pub(crate) fn with_hint(mut err: ParseError, input: &str, dialect: crate::Dialect) -> ParseError {
    let mut parsing: Vec<crate::Dialect> = crate::Dialect::ALL
        .into_iter()
        .filter(|d| *d != dialect && crate::Expression::parse_plain(input, *d).is_ok())
        .collect();
    if parsing.is_empty() {
        return err;
    }
    // A known word of the other dialect at (or just before) the error.
    let start = err.span().start;
    let lower = input.to_ascii_lowercase();
    let at = |word: &str| {
        (start.saturating_sub(word.len() - 1)..=start)
            .find(|&s| lower.get(s..).is_some_and(|rest| rest.starts_with(word)))
    };
    let near = |word: &str| at(word).is_some();
    // A word of one dialect's documentation: its own dialect first; none that means it
    // otherwise or skips it as a comment.
    let origin = ORIGINS
        .iter()
        .filter_map(|&(word, from, other)| at(word).map(|pos| (pos, from, other)))
        .next();
    if let Some((pos, from, other)) = origin {
        let head = input.get(..pos).unwrap_or("");
        parsing.retain(|d| {
            let comment = crate::Expression::parse_plain(input, *d)
                .ok()
                .zip(crate::Expression::parse_plain(head, *d).ok())
                .is_some_and(|(whole, before)| whole.to_string() == before.to_string());
            !other.contains(d) && !comment
        });
        if let Some(i) = parsing.iter().position(|d| *d == from) {
            parsing.swap(0, i);
        }
    }
    let Some(&first) = parsing.first() else {
        return err;
    };
    // A known word first (`4d6rr1` parses in Roll20 as `r` twice, but is Foundry's `rr`).
    let known = KNOWN.iter().find(|(word, d, _)| {
        parsing.contains(d) && dialect == crate::Dialect::Default && near(word)
    });
    err.0.hint = Some(match known {
        Some((_, _, text)) => (*text).to_owned(),
        None if first == crate::Dialect::Default => {
            "this parses in this crate's own notation: with --dialect default".to_owned()
        }
        None => format!(
            "this parses as {} notation: with --dialect {}",
            first.syntax().title,
            first.name()
        ),
    });
    err
}
