//! The syntax tree of a dice expression, and its canonical text (`Display`).
//!
//! Every node carries the [`Span`] of the input it was parsed from. Spans take no part in
//! equality or hashing, so an expression parsed from `4d6kh3 + 2` equals the one parsed from
//! its canonical form `4d6kh3+2`, and a tree built by hand (with empty spans) equals the
//! parsed one.

use std::collections::BTreeSet;
use std::fmt;
use std::hash::{Hash, Hasher};

use dice_core::Keep;

/// A byte range `start..end` of the input text.
///
/// ```
/// use dice_notation::Span;
/// let s = Span::new(3, 6);
/// assert_eq!(s.len(), 3);
/// assert_eq!(s.to_string(), "3..6");
/// assert_eq!(s.join(Span::new(8, 9)), Span::new(3, 9));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The bytes `start..end`.
    ///
    /// ```
    /// assert_eq!(dice_notation::Span::new(2, 5).start, 2);
    /// ```
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The number of bytes covered.
    ///
    /// ```
    /// assert_eq!(dice_notation::Span::new(2, 5).len(), 3);
    /// ```
    pub const fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no byte (a position, such as the end of the input).
    ///
    /// ```
    /// assert!(dice_notation::Span::new(4, 4).is_empty());
    /// ```
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The smallest span covering both.
    ///
    /// ```
    /// use dice_notation::Span;
    /// assert_eq!(Span::new(5, 6).join(Span::new(0, 2)), Span::new(0, 6));
    /// ```
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A node of the syntax tree: what it is, and where it was found.
///
/// Equality and hashing look at [`Expr::kind`] only, never at the spans.
///
/// ```
/// use dice_notation::{BinOp, DiceTerm, DieKind, Expr};
/// // 2d6+3, built by hand; it prints in canonical form and equals the parsed expression.
/// let e = Expr::binary(BinOp::Add, Expr::dice(DiceTerm::new(2, DieKind::Sides(6))), Expr::number(3));
/// assert_eq!(e.to_string(), "2d6+3");
/// assert_eq!(Expr::parse("2d6 + 3")?, e);
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// Where it was found in the input (empty for a node built by hand).
    pub span: Span,
}

impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
    }
}

impl Eq for Expr {}

impl Hash for Expr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
    }
}

/// The kinds of node.
///
/// ```
/// use dice_notation::{Expr, ExprKind};
/// let e = Expr::parse("-3")?;
/// assert!(matches!(e.kind, ExprKind::Neg(_)));
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExprKind {
    /// A non-negative whole number (`3`); negative numbers are [`ExprKind::Neg`].
    Number(u64),
    /// A pool of dice with its modifiers (`4d6kh3`).
    Dice(DiceTerm),
    /// A streak (`streak(d6>=4)`).
    Streak(StreakTerm),
    /// Unary minus (`-x`).
    Neg(Box<Expr>),
    /// Arithmetic (`x + y`, `x - y`, `x * y`, `x / y`).
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A function of two or more arguments (`max(1d20, 1d20)`).
    Call(Func, Vec<Expr>),
    /// A three-way comparison of a total with a target (`2d6+2 vs 9`): below, equal or
    /// above. Only the whole expression can be one.
    Versus(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Parses `input` into a tree, checking each dice term (sides, counts, caps, keep/drop,
    /// rerolls and explosions that never stop) but not the whole-expression limits
    /// ([`crate::Expression::parse`] does both).
    ///
    /// # Errors
    /// A [`crate::ParseError`] with the span of the offending input.
    ///
    /// ```
    /// use dice_notation::{Expr, ExprKind, Span};
    /// let e = Expr::parse("2d6 + 3")?;
    /// assert_eq!(e.span, Span::new(0, 7));
    /// assert!(matches!(e.kind, ExprKind::Binary(..)));
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn parse(input: &str) -> Result<Expr, crate::ParseError> {
        crate::parse::parse(input)
    }

    /// A node with an empty span.
    ///
    /// ```
    /// use dice_notation::{Expr, ExprKind};
    /// assert_eq!(Expr::new(ExprKind::Number(4)), Expr::number(4));
    /// ```
    pub fn new(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }

    /// A number.
    ///
    /// ```
    /// assert_eq!(dice_notation::Expr::number(7).to_string(), "7");
    /// ```
    pub fn number(n: u64) -> Expr {
        Expr::new(ExprKind::Number(n))
    }

    /// A dice term.
    ///
    /// ```
    /// use dice_notation::{DiceTerm, DieKind, Expr};
    /// assert_eq!(Expr::dice(DiceTerm::new(3, DieKind::Fudge)).to_string(), "3dF");
    /// ```
    pub fn dice(term: DiceTerm) -> Expr {
        Expr::new(ExprKind::Dice(term))
    }

    /// A streak.
    ///
    /// ```
    /// use dice_notation::{Cmp, DieKind, Expr, StreakTerm};
    /// let s = StreakTerm { die: DieKind::Sides(6), on: Cmp::AtLeast(4), cap: None };
    /// assert_eq!(Expr::streak(s).to_string(), "streak(d6>=4)");
    /// ```
    pub fn streak(term: StreakTerm) -> Expr {
        Expr::new(ExprKind::Streak(term))
    }

    /// Unary minus.
    ///
    /// ```
    /// use dice_notation::Expr;
    /// assert_eq!(Expr::negative(Expr::number(2)).to_string(), "-2");
    /// ```
    pub fn negative(inner: Expr) -> Expr {
        Expr::new(ExprKind::Neg(Box::new(inner)))
    }

    /// Arithmetic on two expressions.
    ///
    /// ```
    /// use dice_notation::{BinOp, Expr};
    /// let e = Expr::binary(BinOp::Mul, Expr::binary(BinOp::Add, Expr::number(1), Expr::number(2)), Expr::number(3));
    /// assert_eq!(e.to_string(), "(1+2)*3");
    /// ```
    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)))
    }

    /// A function call.
    ///
    /// ```
    /// use dice_notation::{Expr, Func};
    /// let e = Expr::call(Func::Max, vec![Expr::number(1), Expr::number(2)]);
    /// assert_eq!(e.to_string(), "max(1, 2)");
    /// ```
    pub fn call(func: Func, args: Vec<Expr>) -> Expr {
        Expr::new(ExprKind::Call(func, args))
    }

    /// A three-way comparison of `total` with `target`.
    ///
    /// ```
    /// use dice_notation::Expr;
    /// assert_eq!(Expr::versus(Expr::number(9), Expr::number(8)).to_string(), "9 vs 8");
    /// ```
    pub fn versus(total: Expr, target: Expr) -> Expr {
        Expr::new(ExprKind::Versus(Box::new(total), Box::new(target)))
    }

    /// The same node with another span.
    ///
    /// ```
    /// use dice_notation::{Expr, Span};
    /// assert_eq!(Expr::number(1).with_span(Span::new(0, 1)).span, Span::new(0, 1));
    /// ```
    pub fn with_span(mut self, span: Span) -> Expr {
        self.span = span;
        self
    }

    /// Binding strength, for printing the fewest parentheses.
    fn precedence(&self) -> u8 {
        match &self.kind {
            ExprKind::Versus(..) => 0,
            ExprKind::Binary(BinOp::Add | BinOp::Sub, ..) => 1,
            ExprKind::Binary(BinOp::Mul | BinOp::Div, ..) => 2,
            ExprKind::Neg(_) => 3,
            _ => 4,
        }
    }
}

/// An arithmetic operator.
///
/// ```
/// assert_eq!(dice_notation::BinOp::Div.to_string(), "/");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-` (also `−`)
    Sub,
    /// `*` (also `×`)
    Mul,
    /// `/` (also `÷`): integer division rounding toward negative infinity.
    Div,
}

impl BinOp {
    /// The binding strength: `+ -` bind less tightly than `* /`.
    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
        }
    }
}

impl fmt::Display for BinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        })
    }
}

/// A function of whole expressions.
///
/// ```
/// assert_eq!(dice_notation::Func::Min.to_string(), "min");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Func {
    /// The least of the arguments (`min(1d6, 3)`: a die clamped to at most 3).
    Min,
    /// The greatest of the arguments (`max(1d20, 1d20)`: advantage; `max(1, 1d4-1)`: at least
    /// one).
    Max,
}

impl fmt::Display for Func {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Func::Min => "min",
            Func::Max => "max",
        })
    }
}

/// The kind of die.
///
/// ```
/// use dice_notation::DieKind;
/// assert_eq!(DieKind::Sides(20).to_string(), "d20");
/// assert_eq!(DieKind::Fudge.to_string(), "dF");
/// assert_eq!(DieKind::Fudge.faces(), (-1, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DieKind {
    /// Faces `1..=n` (`d6`; `d%` is read as `d100`).
    Sides(u32),
    /// A Fudge/Fate die: faces −1, 0, +1 (`dF`).
    Fudge,
}

impl DieKind {
    /// The lowest and highest face.
    ///
    /// ```
    /// assert_eq!(dice_notation::DieKind::Sides(8).faces(), (1, 8));
    /// ```
    pub fn faces(self) -> (i64, i64) {
        match self {
            DieKind::Sides(n) => (1, i64::from(n)),
            DieKind::Fudge => (-1, 1),
        }
    }

    /// The number of faces.
    ///
    /// ```
    /// assert_eq!(dice_notation::DieKind::Fudge.sides(), 3);
    /// ```
    pub fn sides(self) -> u32 {
        match self {
            DieKind::Sides(n) => n,
            DieKind::Fudge => 3,
        }
    }

    /// The dice-core die rolled for it, and what is added to its face: a `dF` is a d3 minus 2.
    pub(crate) fn core_die(self) -> Option<(dice_core::Die, i64)> {
        match self {
            DieKind::Sides(n) => dice_core::Die::new(n).ok().map(|d| (d, 0)),
            DieKind::Fudge => dice_core::Die::new(3).ok().map(|d| (d, -2)),
        }
    }
}

impl fmt::Display for DieKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DieKind::Sides(n) => write!(f, "d{n}"),
            DieKind::Fudge => f.write_str("dF"),
        }
    }
}

/// A test on one die's value: `>=5`, `<=2`, `>5`, `<2`, `=6`, or membership in a set `={1,6}`.
///
/// After a keyword (`!`, `r`, `ro`, `f`) the `=` may be left out (`r1`, `!{5,6}`), and the
/// canonical form leaves it out for a non-negative number or a set.
///
/// ```
/// use dice_notation::Cmp;
/// assert!(Cmp::AtLeast(5).test(6));
/// assert!(!Cmp::Below(2).test(2));
/// assert!(Cmp::one_of([1, 6]).test(6));
/// assert_eq!(Cmp::one_of([6, 1]).to_string(), "={1,6}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cmp {
    /// Value ≥ n.
    AtLeast(i64),
    /// Value ≤ n.
    AtMost(i64),
    /// Value > n.
    Above(i64),
    /// Value < n.
    Below(i64),
    /// Value = n.
    Exactly(i64),
    /// Value is one of these (non-empty).
    OneOf(BTreeSet<i64>),
}

impl Cmp {
    /// The set of the given values.
    ///
    /// ```
    /// use dice_notation::Cmp;
    /// assert_eq!(Cmp::one_of([2, 1, 2]).to_string(), "={1,2}");
    /// ```
    pub fn one_of<I: IntoIterator<Item = i64>>(values: I) -> Cmp {
        Cmp::OneOf(values.into_iter().collect())
    }

    /// Whether `value` passes.
    ///
    /// ```
    /// assert!(dice_notation::Cmp::AtMost(2).test(-1));
    /// ```
    #[inline]
    pub fn test(&self, value: i64) -> bool {
        match self {
            Cmp::AtLeast(n) => value >= *n,
            Cmp::AtMost(n) => value <= *n,
            Cmp::Above(n) => value > *n,
            Cmp::Below(n) => value < *n,
            Cmp::Exactly(n) => value == *n,
            Cmp::OneOf(set) => set.contains(&value),
        }
    }

    /// How many of the faces `lo..=hi` pass.
    pub(crate) fn count_in(&self, lo: i64, hi: i64) -> u64 {
        (lo..=hi).filter(|&v| self.test(v)).count() as u64
    }

    /// The numbers written in the test.
    pub(crate) fn numbers(&self) -> Vec<i64> {
        match self {
            Cmp::AtLeast(n) | Cmp::AtMost(n) | Cmp::Above(n) | Cmp::Below(n) | Cmp::Exactly(n) => {
                vec![*n]
            }
            Cmp::OneOf(set) => set.iter().copied().collect(),
        }
    }

    /// The same test as a dice-core comparison on the faces of a die whose value is its face
    /// plus `offset` (`None` when a set does not fit in a dice-core face set).
    pub(crate) fn to_core(&self, offset: i64) -> Option<dice_core::Comparison> {
        use dice_core::Comparison as C;
        let t = |n: &i64| i32::try_from(n - offset).ok();
        Some(match self {
            Cmp::AtLeast(n) => C::AtLeast(t(n)?),
            Cmp::AtMost(n) => C::AtMost(t(n)?),
            Cmp::Above(n) => C::Above(t(n)?),
            Cmp::Below(n) => C::Below(t(n)?),
            Cmp::Exactly(n) => C::Exactly(t(n)?),
            Cmp::OneOf(set) => {
                let faces: Vec<u32> = set
                    .iter()
                    .map(|v| v - offset)
                    .filter(|&f| f >= 1)
                    .map(|f| u32::try_from(f).ok())
                    .collect::<Option<_>>()?;
                C::OneOf(dice_core::FaceSet::new(faces).ok()?)
            }
        })
    }

    /// Writes the test after a keyword: `=` left out for a non-negative number or a set.
    fn fmt_after_keyword(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cmp::Exactly(n) if *n >= 0 => write!(f, "{n}"),
            Cmp::OneOf(set) => fmt_set(set, f),
            other => write!(f, "{other}"),
        }
    }
}

fn fmt_set(set: &BTreeSet<i64>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str("{")?;
    for (i, v) in set.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{v}")?;
    }
    f.write_str("}")
}

impl fmt::Display for Cmp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cmp::AtLeast(n) => write!(f, ">={n}"),
            Cmp::AtMost(n) => write!(f, "<={n}"),
            Cmp::Above(n) => write!(f, ">{n}"),
            Cmp::Below(n) => write!(f, "<{n}"),
            Cmp::Exactly(n) => write!(f, "={n}"),
            Cmp::OneOf(set) => {
                f.write_str("=")?;
                fmt_set(set, f)
            }
        }
    }
}

/// Rerolling: `r` rerolls until the face no longer passes the test, `ro` rerolls once (the
/// second face stands).
///
/// ```
/// use dice_notation::{Cmp, Reroll};
/// assert_eq!(Reroll { once: true, on: Cmp::Exactly(1) }.to_string(), "ro1");
/// assert_eq!(Reroll { once: false, on: Cmp::AtMost(2) }.to_string(), "r<=2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reroll {
    /// `ro` (once) rather than `r` (until the face passes no more).
    pub once: bool,
    /// The faces that are rerolled.
    pub on: Cmp,
}

impl fmt::Display for Reroll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.once { "ro" } else { "r" })?;
        self.on.fmt_after_keyword(f)
    }
}

/// Exploding dice: `!` adds a die for each face passing the test (written `!` alone for the
/// die's highest face), `!!` compounds (adds the new face to the same die); `cap N` allows at
/// most N extra rolls per die.
///
/// ```
/// use dice_notation::{Cmp, Explosion};
/// let e = Explosion { compound: true, on: Cmp::AtLeast(5), cap: Some(3) };
/// assert_eq!(e.to_string(), "!!>=5cap3");
/// assert_eq!(Explosion::on_highest(dice_notation::DieKind::Sides(6)).to_string(), "!6");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Explosion {
    /// `!!`: compounding.
    pub compound: bool,
    /// The faces that explode (a plain `!` is the die's highest face).
    pub on: Cmp,
    /// The most extra rolls per die; `None` is dice-core's default cap (100), and the exact
    /// odds are then the untruncated ones.
    pub cap: Option<u32>,
}

impl Explosion {
    /// A plain `!`: additional dice on the highest face of `die`, default cap.
    ///
    /// ```
    /// use dice_notation::{Cmp, DieKind, Explosion};
    /// assert_eq!(Explosion::on_highest(DieKind::Fudge).on, Cmp::Exactly(1));
    /// ```
    pub fn on_highest(die: DieKind) -> Explosion {
        Explosion {
            compound: false,
            on: Cmp::Exactly(die.faces().1),
            cap: None,
        }
    }

    /// Writes the explosion, leaving the test out when it is the highest face (`bare`).
    fn fmt_with(&self, bare: bool, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.compound { "!!" } else { "!" })?;
        if !bare {
            self.on.fmt_after_keyword(f)?;
        }
        if let Some(cap) = self.cap {
            write!(f, "cap{cap}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Explosion {
    /// The explosion with its test always written (`!6`); a [`DiceTerm`] writes a plain `!`
    /// for its highest face.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_with(false, f)
    }
}

/// A pool of dice and its modifiers, applied in this fixed order whatever order they were
/// written in (and printed in this order):
///
/// 1. reroll (`r`, `ro`) each face as it is rolled;
/// 2. explode (`!`, `!!`) on the face left after rerolls; added dice are rolled (and
///    rerolled) the same way;
/// 3. clamp (`min`, `max`) each die's value;
/// 4. keep/drop (`kh`, `kl`, `dh`, `dl`) by value;
/// 5. count the kept dice passing the success test (`>=N`), minus those passing the failure
///    test (`f…`); without a success test, add up the kept values.
///
/// ```
/// use dice_notation::{Cmp, DiceTerm, DieKind, Explosion, Reroll};
/// use dice_core::Keep;
/// let mut t = DiceTerm::new(4, DieKind::Sides(6));
/// t.keep = Keep::Highest(3);
/// t.explode = Some(Explosion::on_highest(t.die));
/// t.reroll = Some(Reroll { once: true, on: Cmp::Exactly(1) });
/// assert_eq!(t.to_string(), "4d6ro1!kh3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceTerm {
    /// How many dice (`4` in `4d6`; `d6` is one die).
    pub count: u32,
    /// Which die.
    pub die: DieKind,
    /// `r…` / `ro…`.
    pub reroll: Option<Reroll>,
    /// `!…` / `!!…`.
    pub explode: Option<Explosion>,
    /// `minN`: a die's value below N counts as N.
    pub min: Option<i64>,
    /// `maxN`: a die's value above N counts as N.
    pub max: Option<i64>,
    /// `khN`, `klN`, `dhN`, `dlN` (`kN` is `khN`; N defaults to 1).
    pub keep: Keep,
    /// The success test: the term's value is then a count of dice.
    pub success: Option<Cmp>,
    /// `f…`: dice passing this test are subtracted from the successes.
    pub failure: Option<Cmp>,
}

impl DiceTerm {
    /// `count` dice of `die`, no modifier.
    ///
    /// ```
    /// use dice_notation::{DiceTerm, DieKind};
    /// assert_eq!(DiceTerm::new(2, DieKind::Sides(6)).to_string(), "2d6");
    /// ```
    pub fn new(count: u32, die: DieKind) -> DiceTerm {
        DiceTerm {
            count,
            die,
            reroll: None,
            explode: None,
            min: None,
            max: None,
            keep: Keep::All,
            success: None,
            failure: None,
        }
    }
}

impl fmt::Display for DiceTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.count, self.die)?;
        if let Some(r) = &self.reroll {
            write!(f, "{r}")?;
        }
        if let Some(e) = &self.explode {
            // A plain `!` for the highest face, unless a success test follows at once: then
            // `!>=8` would read as "explode on 8 or more", so the face is written (`!10>=8`).
            let highest = e.on == Cmp::Exactly(self.die.faces().1);
            let success_next = e.cap.is_none()
                && self.min.is_none()
                && self.max.is_none()
                && self.keep == Keep::All
                && self.success.is_some();
            e.fmt_with(highest && !success_next, f)?;
        }
        if let Some(m) = self.min {
            write!(f, "min{m}")?;
        }
        if let Some(m) = self.max {
            write!(f, "max{m}")?;
        }
        write!(f, "{}", self.keep)?;
        if let Some(s) = &self.success {
            write!(f, "{s}")?;
        }
        if let Some(x) = &self.failure {
            f.write_str("f")?;
            x.fmt_after_keyword(f)?;
        }
        Ok(())
    }
}

/// A streak: roll the die; while its face passes the test, score one and roll again. The
/// value is the number of passing faces in a row (add a base with `+`: `1+streak(d6>=5)`).
///
/// ```
/// use dice_notation::{Cmp, DieKind, StreakTerm};
/// let s = StreakTerm { die: DieKind::Sides(6), on: Cmp::one_of([5, 6]), cap: Some(10) };
/// assert_eq!(s.to_string(), "streak(d6={5,6}cap10)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StreakTerm {
    /// The die rolled.
    pub die: DieKind,
    /// The faces that continue the streak.
    pub on: Cmp,
    /// The longest streak; `None` is dice-core's default cap (100), and the exact odds are
    /// then the untruncated ones.
    pub cap: Option<u32>,
}

impl fmt::Display for StreakTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "streak({}{}", self.die, self.on)?;
        if let Some(cap) = self.cap {
            write!(f, "cap{cap}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Expr {
    /// The canonical form: no spaces except around `vs` and after commas, modifiers in the
    /// order they apply, the fewest parentheses that keep the tree's shape.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Number(n) => write!(f, "{n}"),
            ExprKind::Dice(t) => write!(f, "{t}"),
            ExprKind::Streak(s) => write!(f, "{s}"),
            ExprKind::Neg(inner) => {
                f.write_str("-")?;
                fmt_operand(inner, inner.precedence() < 3, f)
            }
            ExprKind::Binary(op, lhs, rhs) => {
                let p = op.precedence();
                fmt_operand(lhs, lhs.precedence() < p, f)?;
                write!(f, "{op}")?;
                fmt_operand(rhs, rhs.precedence() <= p, f)
            }
            ExprKind::Call(func, args) => {
                write!(f, "{func}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    fmt_operand(a, a.precedence() == 0, f)?;
                }
                f.write_str(")")
            }
            ExprKind::Versus(lhs, rhs) => {
                fmt_operand(lhs, lhs.precedence() == 0, f)?;
                f.write_str(" vs ")?;
                fmt_operand(rhs, rhs.precedence() == 0, f)
            }
        }
    }
}

fn fmt_operand(e: &Expr, parens: bool, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if parens {
        write!(f, "({e})")
    } else {
        write!(f, "{e}")
    }
}
