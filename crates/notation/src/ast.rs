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
#[derive(Debug)]
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// Where it was found in the input (empty for a node built by hand).
    pub span: Span,
}

/// The nodes down a chain of left operands from `root`, top first, as long as `left` gives
/// one, and the first node it gives none for. A chain of operators (`1+2-3+…`) is a
/// left-deep tree up to about 500 long within [`crate::MAX_INPUT_LEN`]: every walk over a
/// tree (the expression's, the compiled engines') loops over such a chain instead of
/// recursing into each left operand, so that the stack grows only with the nesting of right
/// operands, which the parser bounds ([`crate::MAX_DEPTH`]).
pub(crate) fn left_chain<'a, T>(
    root: &'a T,
    left: impl Fn(&'a T) -> Option<&'a T>,
) -> (Vec<&'a T>, &'a T) {
    let mut spine = Vec::new();
    let mut leaf = root;
    while let Some(next) = left(leaf) {
        spine.push(leaf);
        leaf = next;
    }
    (spine, leaf)
}

/// [`left_chain`] down binary operators, comparisons and `vs`.
fn left_spine(e: &Expr) -> (Vec<&Expr>, &Expr) {
    left_chain(e, |x| match &x.kind {
        ExprKind::Binary(_, a, _) | ExprKind::Compare(_, a, _) | ExprKind::Versus(a, _) => Some(a),
        _ => None,
    })
}

impl Clone for Expr {
    fn clone(&self) -> Self {
        let (spine, leaf) = left_spine(self);
        let mut acc = Expr {
            kind: match &leaf.kind {
                ExprKind::Number(n) => ExprKind::Number(*n),
                ExprKind::Dice(t) => ExprKind::Dice(t.clone()),
                ExprKind::Streak(t) => ExprKind::Streak(t.clone()),
                ExprKind::Neg(x) => ExprKind::Neg(x.clone()),
                ExprKind::Call(func, args) => ExprKind::Call(*func, args.clone()),
                ExprKind::Group(g) => ExprKind::Group(g.clone()),
                ExprKind::Computed(c) => ExprKind::Computed(c.clone()),
                ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, a.clone(), b.clone()),
                ExprKind::Compare(rel, a, b) => ExprKind::Compare(*rel, a.clone(), b.clone()),
                ExprKind::Versus(a, b) => ExprKind::Versus(a.clone(), b.clone()),
            },
            span: leaf.span,
        };
        for parent in spine.into_iter().rev() {
            let a = Box::new(acc);
            let kind = match &parent.kind {
                ExprKind::Binary(op, _, b) => ExprKind::Binary(*op, a, b.clone()),
                ExprKind::Compare(rel, _, b) => ExprKind::Compare(*rel, a, b.clone()),
                ExprKind::Versus(_, b) => ExprKind::Versus(a, b.clone()),
                // The spine holds only the three above.
                _ => parent.kind.clone(),
            };
            acc = Expr {
                kind,
                span: parent.span,
            };
        }
        acc
    }
}

impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        // Down both left spines together, then the right operands (shallow) one by one.
        let (mut x, mut y) = (self, other);
        let mut right = Vec::new();
        loop {
            match (&x.kind, &y.kind) {
                (ExprKind::Binary(o, a, b), ExprKind::Binary(p, c, d)) if o == p => {
                    right.push((&**b, &**d));
                    (x, y) = (a, c);
                }
                (ExprKind::Compare(o, a, b), ExprKind::Compare(p, c, d)) if o == p => {
                    right.push((&**b, &**d));
                    (x, y) = (a, c);
                }
                (ExprKind::Versus(a, b), ExprKind::Versus(c, d)) => {
                    right.push((&**b, &**d));
                    (x, y) = (a, c);
                }
                _ => break,
            }
        }
        x.kind == y.kind && right.into_iter().rev().all(|(b, d)| b == d)
    }
}

impl Eq for Expr {}

impl Hash for Expr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // What the derived hash of `kind` feeds, in its order, with the left operands of a
        // chain taken in a loop.
        let (spine, leaf) = left_spine(self);
        for e in &spine {
            std::mem::discriminant(&e.kind).hash(state);
            match &e.kind {
                ExprKind::Binary(op, ..) => op.hash(state),
                ExprKind::Compare(rel, ..) => rel.hash(state),
                _ => {}
            }
        }
        leaf.kind.hash(state);
        for e in spine.iter().rev() {
            if let ExprKind::Binary(_, _, b) | ExprKind::Compare(_, _, b) | ExprKind::Versus(_, b) =
                &e.kind
            {
                b.hash(state);
            }
        }
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
// A dice term holds every modifier of every dialect; trees are small and built once, so the
// size of a node does not matter, and boxing it would cost every user a `Box::new`.
#[allow(clippy::large_enum_variant)]
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
    /// A comparison as a value: 1 when it holds, else 0 (`(1d20 >= 10)`; Avrae d20's
    /// `1d20 > 10`).
    Compare(Relation, Box<Expr>, Box<Expr>),
    /// A group of expressions (`{4d6kh3, 4d6kh3}kh1`, d20's set `(1d4+1, 3)kh1`): each is
    /// rolled once, then kept or dropped by value, then added up or counted.
    Group(GroupTerm),
    /// Dice whose count or number of sides is rolled (`(1d4)d8`, `2d(1d4+2)`): the count
    /// and sides are rolled first, then the dice.
    Computed(ComputedDice),
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
            ExprKind::Binary(op, ..) => op.precedence(),
            ExprKind::Neg(_) => 3,
            _ => 5,
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
    /// `ceil(x/y)`: division rounding toward positive infinity.
    DivCeil,
    /// `round(x/y)`: division rounding to the nearest, halves up (JavaScript's
    /// `Math.round`).
    DivRound,
    /// `trunc(x/y)`: division rounding toward zero (Avrae d20's total of a `/`).
    DivTrunc,
    /// `exact(x/y)`: exact division, whose value may be a fraction (the `/` of Roll20,
    /// Foundry VTT, Avrae d20 and rpg-dice-roller, and their decimals: `1.5` is
    /// `exact(3/2)`); this crate's own `/` rounds toward −∞.
    DivExact,
    /// `%`: the remainder of the division rounding toward negative infinity (Python's `%`;
    /// the sign of the divisor).
    Mod,
    /// `rem(x, y)`: the remainder of the division rounding toward zero (the sign of the
    /// dividend: JavaScript's `%`, as Roll20, Foundry VTT and rpg-dice-roller compute it,
    /// so `(1d6-7)%4` can be −2).
    Rem,
    /// `**` (rpg-dice-roller also `^`): a power, with an exponent that cannot be negative.
    Pow,
}

impl BinOp {
    /// The binding strength: `+ -` bind less tightly than `* / %`, which bind less tightly
    /// than a sign, which binds less tightly than `**`; the divisions with a rounding print
    /// as functions.
    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div | BinOp::Mod => 2,
            BinOp::Pow => 4,
            BinOp::DivCeil | BinOp::DivRound | BinOp::DivTrunc | BinOp::DivExact | BinOp::Rem => 5,
        }
    }

    /// The function that writes a rounded division (`ceil` for [`BinOp::DivCeil`]).
    pub(crate) fn rounding_name(self) -> Option<&'static str> {
        match self {
            BinOp::DivCeil => Some("ceil"),
            BinOp::DivRound => Some("round"),
            BinOp::DivTrunc => Some("trunc"),
            BinOp::DivExact => Some("exact"),
            _ => None,
        }
    }
}

impl fmt::Display for BinOp {
    /// The operator; a rounded division shows as its function name (`ceil`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::DivCeil => "ceil",
            BinOp::DivRound => "round",
            BinOp::DivTrunc => "trunc",
            BinOp::DivExact => "exact",
            BinOp::Mod => "%",
            BinOp::Rem => "rem",
            BinOp::Pow => "**",
        })
    }
}

/// A comparison of two values, as a value (1 or 0).
///
/// ```
/// assert_eq!(dice_notation::Relation::NotEqual.to_string(), "!=");
/// assert!(dice_notation::Relation::AtLeast.holds(3, 3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// `==` (also `=`)
    Equal,
    /// `!=` (also `<>`)
    NotEqual,
    /// `<`
    Below,
    /// `<=`
    AtMost,
    /// `>`
    Above,
    /// `>=`
    AtLeast,
}

impl Relation {
    /// Whether `x` stands in this relation to `y`.
    ///
    /// ```
    /// assert!(!dice_notation::Relation::Below.holds(2, 2));
    /// ```
    pub fn holds(self, x: i64, y: i64) -> bool {
        match self {
            Relation::Equal => x == y,
            Relation::NotEqual => x != y,
            Relation::Below => x < y,
            Relation::AtMost => x <= y,
            Relation::Above => x > y,
            Relation::AtLeast => x >= y,
        }
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Equal => "==",
            Relation::NotEqual => "!=",
            Relation::Below => "<",
            Relation::AtMost => "<=",
            Relation::Above => ">",
            Relation::AtLeast => ">=",
        })
    }
}

/// Keeping or dropping by a test on the value, as Avrae d20's selectors `k3`, `k>3`, `p<2`
/// do: `keep` true keeps the dice (or items) passing, false drops them.
///
/// ```
/// use dice_notation::{Cmp, Select};
/// assert_eq!(Select { keep: true, on: Cmp::Above(3) }.to_string(), "k(>3)");
/// assert_eq!(Select { keep: false, on: Cmp::Exactly(1) }.to_string(), "d(=1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Select {
    /// Keep (rather than drop) what passes.
    pub keep: bool,
    /// The test.
    pub on: Cmp,
}

impl Select {
    /// Whether a value stays.
    ///
    /// ```
    /// use dice_notation::{Cmp, Select};
    /// assert!(!Select { keep: false, on: Cmp::Exactly(1) }.stays(1));
    /// ```
    pub fn stays(&self, v: i64) -> bool {
        self.on.test(v) == self.keep
    }
}

impl fmt::Display for Select {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", if self.keep { "k" } else { "d" }, self.on)
    }
}

/// A group of expressions, each rolled once: `{a, b, …}` with keep/drop, a selection and
/// a success test (with failures) applied to the items' values as to dice.
///
/// A group of one value is written with a comma after it (`{4d6,}>10`: 1 if the total of
/// 4d6 is above 10; rpg-dice-roller's `{4d6}>10`, Avrae d20's `(4d6,)`), since `{4d6}>10`
/// counts the dice of its one item (Roll20's reading). A group of one item keeping its
/// dice ([`GroupTerm::dice`]) keeps or drops among every die of the item and computes the
/// item with the dice it kept (rpg-dice-roller's `{4d10*(2+5d6)}k2`).
///
/// ```
/// use dice_notation::Expression;
/// let e = Expression::parse("{4d6kh3, 4d6kh3}kh1")?;
/// assert_eq!(e.to_string(), "{4d6kh3, 4d6kh3}kh1");
/// let total = Expression::parse("{4d6,}>10")?;
/// assert_eq!(total.roll_faces([4, 5, 1, 3])?.total, 1);
/// let dice = Expression::parse("{4d10*(2+5d6)}kh2")?;
/// assert_eq!(dice.roll_faces([8, 1, 4, 1, 1, 6, 1, 5, 3])?.total, 8 * (2 + 6));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroupTerm {
    /// The items (at least one).
    pub items: Vec<Expr>,
    /// Keep/drop by value among the items.
    pub keep: Keep,
    /// Keep or drop the items passing a test (Avrae d20's selectors).
    pub select: Option<Select>,
    /// Count the kept items passing this test instead of adding them up.
    pub success: Option<Cmp>,
    /// Kept items passing this test are subtracted from the successes.
    pub failure: Option<Cmp>,
    /// Keep/drop steps applied one after the other, after `keep` and `select` (Avrae d20's
    /// chained selectors, `(1, 2, 3)kh1kl1`); empty for the rest.
    pub steps: Vec<crate::select::Step>,
    /// The keep/drop chooses among the dice of the one item, which is then computed with
    /// the dice it kept (a dropped die counts 0 in its term): rpg-dice-roller's single
    /// sub-roll, `{4d10*(2+5d6)}k2`. The dice are ranked by value, then by the order they
    /// were rolled (a later die ranks higher: `kh` keeps it among equal values, `kl` keeps
    /// the earlier). Only plain dice, numbers, arithmetic and `min`/`max`/`abs`/`sign` may
    /// stand in the item, and no success test.
    pub dice: bool,
}

impl fmt::Display for GroupTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, a) in self.items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            fmt_operand(a, a.precedence() == 0, f)?;
        }
        // One value (not its dice): a comma after it.
        if self.items.len() == 1 && !self.dice {
            f.write_str(",")?;
        }
        f.write_str("}")?;
        write!(f, "{}", self.keep)?;
        if let Some(s) = &self.select {
            write!(f, "{s}")?;
        }
        for s in &self.steps {
            write!(f, "{s}")?;
        }
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
    /// The absolute value of its one argument (`abs(1d6-1d6)`).
    Abs,
    /// The sign of its one argument: −1, 0 or 1 (`sign(1d6-1d6)`).
    Sign,
    /// Its one argument rounded toward −∞, where that argument is a fraction
    /// (`floor(exact(1d6/2)+exact(1/2))`; a `floor` of one division is the division
    /// [`BinOp::Div`]).
    Floor,
    /// Its one argument (a fraction) rounded toward +∞.
    Ceil,
    /// Its one argument (a fraction) rounded to the nearest, halves up (JavaScript's
    /// `Math.round`, as Roll20 and Foundry VTT round).
    Round,
    /// Its one argument (a fraction) rounded to the nearest, halves away from zero
    /// (`round_away`: mathjs's `round`, as rpg-dice-roller rounds; `round(-1.5)` is −2).
    RoundAway,
    /// Its one argument (a fraction) rounded toward 0.
    Trunc,
}

impl Func {
    /// Whether the function takes one argument (else two or more).
    ///
    /// ```
    /// assert!(dice_notation::Func::Abs.is_unary());
    /// ```
    pub fn is_unary(self) -> bool {
        matches!(
            self,
            Func::Abs
                | Func::Sign
                | Func::Floor
                | Func::Ceil
                | Func::Round
                | Func::RoundAway
                | Func::Trunc
        )
    }

    /// Whether the function rounds its argument to a whole number.
    ///
    /// ```
    /// assert!(dice_notation::Func::RoundAway.is_rounding());
    /// assert!(!dice_notation::Func::Abs.is_rounding());
    /// ```
    pub fn is_rounding(self) -> bool {
        matches!(
            self,
            Func::Floor | Func::Ceil | Func::Round | Func::RoundAway | Func::Trunc
        )
    }
}

impl fmt::Display for Func {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::Abs => "abs",
            Func::Sign => "sign",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
            Func::RoundAway => "round_away",
            Func::Trunc => "trunc",
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
    /// A coin (Foundry's `dc`): faces 0 (tails) and 1 (heads).
    Coin,
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
            DieKind::Coin => (0, 1),
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
            DieKind::Coin => 2,
        }
    }

    /// The dice-core die rolled for it, and what is added to its face: a `dF` is a d3 minus 2.
    pub(crate) fn core_die(self) -> Option<(dice_core::Die, i64)> {
        match self {
            DieKind::Sides(n) => dice_core::Die::new(n).ok().map(|d| (d, 0)),
            DieKind::Fudge => dice_core::Die::new(3).ok().map(|d| (d, -2)),
            DieKind::Coin => dice_core::Die::new(2).ok().map(|d| (d, -1)),
        }
    }
}

impl fmt::Display for DieKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DieKind::Sides(n) => write!(f, "d{n}"),
            DieKind::Fudge => f.write_str("dF"),
            DieKind::Coin => f.write_str("dC"),
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
    /// Value ≠ n (rpg-dice-roller's `!=` and `<>`; written `<>`).
    NotEqual(i64),
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

    /// The operator of the test (`>=`, `<>`, `=` for a set).
    ///
    /// ```
    /// assert_eq!(dice_notation::Cmp::AtLeast(4).operator(), ">=");
    /// ```
    pub fn operator(&self) -> &'static str {
        match self {
            Cmp::AtLeast(_) => ">=",
            Cmp::AtMost(_) => "<=",
            Cmp::Above(_) => ">",
            Cmp::Below(_) => "<",
            Cmp::Exactly(_) | Cmp::OneOf(_) => "=",
            Cmp::NotEqual(_) => "<>",
        }
    }

    /// The same comparison with another number (a set is left as it is).
    ///
    /// ```
    /// use dice_notation::Cmp;
    /// assert_eq!(Cmp::AtLeast(0).with_number(4), Cmp::AtLeast(4));
    /// ```
    pub fn with_number(&self, n: i64) -> Cmp {
        match self {
            Cmp::AtLeast(_) => Cmp::AtLeast(n),
            Cmp::AtMost(_) => Cmp::AtMost(n),
            Cmp::Above(_) => Cmp::Above(n),
            Cmp::Below(_) => Cmp::Below(n),
            Cmp::Exactly(_) => Cmp::Exactly(n),
            Cmp::NotEqual(_) => Cmp::NotEqual(n),
            Cmp::OneOf(set) => Cmp::OneOf(set.clone()),
        }
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
            Cmp::NotEqual(n) => value != *n,
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
            Cmp::AtLeast(n)
            | Cmp::AtMost(n)
            | Cmp::Above(n)
            | Cmp::Below(n)
            | Cmp::Exactly(n)
            | Cmp::NotEqual(n) => vec![*n],
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
            Cmp::NotEqual(_) => return None,
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
    pub(crate) fn fmt_after_keyword(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
            Cmp::NotEqual(n) => write!(f, "<>{n}"),
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
/// let e = Explosion { compound: true, penetrate: false, on: Cmp::AtLeast(5), cap: Some(3) };
/// assert_eq!(e.to_string(), "!!>=5cap3");
/// assert_eq!(Explosion::on_highest(dice_notation::DieKind::Sides(6)).to_string(), "!6");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Explosion {
    /// `!!`: compounding.
    pub compound: bool,
    /// `!p` / `!!p`: penetrating (Hackmaster): every die an explosion adds counts one less
    /// than its face (the explosion still reads the face).
    pub penetrate: bool,
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
            penetrate: false,
            on: Cmp::Exactly(die.faces().1),
            cap: None,
        }
    }

    /// Writes the explosion, leaving the test out when it is the highest face (`bare`).
    fn fmt_with(&self, bare: bool, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.compound { "!!" } else { "!" })?;
        if self.penetrate {
            f.write_str("p")?;
        }
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
    /// `sf…` rather than `f…`: a failure subtracts its value rather than 1 (Foundry's
    /// `sf`). Without a success test the other dice add their values, and a failure
    /// subtracts its value (`sf`) or 1 (Foundry's `df` alone, written `df…`).
    pub failure_value: bool,
    /// Avrae d20's selectors on dice: keep (`k(>3)`) or drop (`d(=1)`) the dice passing a
    /// test, at the keep/drop step.
    pub select: Option<Select>,
    /// `ra…`: Avrae d20's reroll-and-add: the first die passing the test (after rerolls and
    /// explosions) adds one more die, rolled once.
    pub reroll_add: Option<Cmp>,
    /// `u` / `uo`: rpg-dice-roller's unique: a die showing the face of an earlier die is
    /// rerolled (until it does not, or once).
    pub unique: Option<Unique>,
    /// `mt…`: Roll20's matches: the term's value is the number of sets of matching dice.
    pub matches: Option<Matches>,
    /// `cs…`: faces marked as critical successes (shown on the dice, no effect on the value).
    pub crit_success: Option<Cmp>,
    /// `cf…`: faces marked as critical failures (shown on the dice, no effect on the value).
    pub crit_failure: Option<Cmp>,
    /// `s`, `sa`, `sd`: the dice are shown sorted (no effect on the value).
    pub sort: Option<Sort>,
    /// Keep/drop steps applied one after the other at the keep/drop step, after `keep` and
    /// `select` (Avrae d20's chained selectors, `8d6kh5kl2`: `8d6k(h5,l2)`); empty for
    /// the rest.
    pub steps: Vec<crate::select::Step>,
    /// Rerolls and explosions applied one after the other over the whole term, in the order
    /// written, in place of `reroll` and `explode` (which are then `None`): Foundry VTT's
    /// term-wide limits (`6d10x5=10`, at most five explosions in the term) and several
    /// rerolls or explosions on one term (`5d10xo<8x10`). Empty for the rest.
    pub sequence: Vec<RollStep>,
}

/// What one step of a [`DiceTerm::sequence`] does to a die passing its test.
///
/// ```
/// use dice_notation::StepKind;
/// assert_ne!(StepKind::Reroll, StepKind::Explode);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// The die is set aside and a new die rolled in its place.
    Reroll,
    /// The die stays and a new die is added to the term.
    Explode,
}

/// One reroll or explosion of a [`DiceTerm::sequence`], applied over the whole term as
/// Foundry VTT does: the dice are checked in the order they were rolled (the term's dice,
/// then those added or rolled in place, at the end), each die passing the test is rerolled
/// or explodes while the term-wide `limit` lasts; a `recursive` step checks the dice it adds
/// too (Foundry's `rr` and `x`), otherwise only the dice there when it began (`r`, `xo`).
///
/// Written `r…` / `ro…` (reroll, recursive or once) and `!…` / `!…cap1` (explode,
/// recursive or once), with `limitN` for the term-wide limit.
///
/// ```
/// use dice_notation::{Cmp, RollStep, StepKind};
/// let x = RollStep { kind: StepKind::Explode, recursive: true, on: Cmp::Exactly(10), limit: Some(5) };
/// assert_eq!(x.to_string(), "!10limit5");
/// let r = RollStep { kind: StepKind::Reroll, recursive: false, on: Cmp::Exactly(1), limit: Some(1) };
/// assert_eq!(r.to_string(), "ro1limit1");
/// assert!(x.acts_on(10) && !x.acts_on(9));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RollStep {
    /// Reroll or explode.
    pub kind: StepKind,
    /// Whether the dice this step adds are checked by it too.
    pub recursive: bool,
    /// The faces the step acts on.
    pub on: Cmp,
    /// The most rerolls or explosions of this step in the whole term (`None`: no limit).
    pub limit: Option<u32>,
}

impl RollStep {
    /// Whether a die showing `face` passes the step's test.
    ///
    /// ```
    /// use dice_notation::{Cmp, RollStep, StepKind};
    /// let s = RollStep { kind: StepKind::Reroll, recursive: true, on: Cmp::Below(3), limit: None };
    /// assert!(s.acts_on(2));
    /// ```
    pub fn acts_on(&self, face: i64) -> bool {
        self.on.test(face)
    }
}

impl fmt::Display for RollStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.recursive) {
            (StepKind::Reroll, true) => f.write_str("r")?,
            (StepKind::Reroll, false) => f.write_str("ro")?,
            (StepKind::Explode, _) => f.write_str("!")?,
        }
        self.on.fmt_after_keyword(f)?;
        if self.kind == StepKind::Explode && !self.recursive {
            f.write_str("cap1")?;
        }
        if let Some(n) = self.limit {
            write!(f, "limit{n}")?;
        }
        Ok(())
    }
}

/// rpg-dice-roller's unique modifier: `u` rerolls a die while it shows a face an earlier
/// die of the pool shows, `uo` rerolls it once; with a compare point (`u=5`, `u>4`) only a
/// duplicate passing it is rerolled, and the rerolling stops at a face that fails it
/// (written `u(=5)` in this crate's grammar, where `u=5` would count fives).
///
/// ```
/// use dice_notation::{Cmp, Unique};
/// assert_eq!(Unique { once: true, on: None }.to_string(), "uo");
/// assert_eq!(Unique { once: false, on: Some(Cmp::Exactly(5)) }.to_string(), "u(=5)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unique {
    /// `uo`: once.
    pub once: bool,
    /// Only duplicates passing this test are rerolled (`u=5`).
    pub on: Option<Cmp>,
}

impl Unique {
    /// Whether a duplicate showing `value` is rerolled.
    ///
    /// ```
    /// use dice_notation::{Cmp, Unique};
    /// assert!(!Unique { once: false, on: Some(Cmp::Above(4)) }.rerolls(3));
    /// ```
    pub fn rerolls(&self, value: i64) -> bool {
        self.on.as_ref().is_none_or(|c| c.test(value))
    }
}

impl fmt::Display for Unique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.once { "uo" } else { "u" })?;
        // In parentheses: a test right after `u` would read as a success count here.
        if let Some(c) = &self.on {
            write!(f, "({c})")?;
        }
        Ok(())
    }
}

/// Roll20's dice matching with `mt`: the term's value is the number of sets of matching
/// dice, that is of distinct values shown by at least `least` dice (2 unless written, as in
/// `mt3`), counting only values passing `on` when given (Roll20's `mt3>4`). Written `mt`,
/// `mt3`, `mt(>=4)`, `mt3(>=4)` in this crate's grammar (the test in parentheses, as a test
/// right after the keyword would read as a success count).
///
/// ```
/// use dice_notation::{Cmp, Matches};
/// assert_eq!(Matches { least: 2, on: None }.to_string(), "mt");
/// let m = Matches { least: 3, on: Some(Cmp::AtLeast(4)) };
/// assert_eq!(m.to_string(), "mt3(>=4)");
/// assert_eq!(m.sets(&[5, 5, 5, 2, 2]), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Matches {
    /// How many dice showing one value make a set (at least 1; Roll20's default is 2).
    pub least: u32,
    /// Only values passing this test make sets.
    pub on: Option<Cmp>,
}

impl Matches {
    /// The number of sets among the values `dice`: distinct values shown at least
    /// [`least`](Matches::least) times that pass [`on`](Matches::on).
    ///
    /// ```
    /// use dice_notation::Matches;
    /// assert_eq!(Matches { least: 2, on: None }.sets(&[1, 1, 2, 2, 3, 4]), 2);
    /// ```
    pub fn sets(&self, dice: &[i64]) -> i64 {
        let mut counts: std::collections::BTreeMap<i64, u32> = std::collections::BTreeMap::new();
        for &v in dice {
            *counts.entry(v).or_insert(0) += 1;
        }
        counts
            .iter()
            .filter(|&(&v, &c)| c >= self.least && self.passes(v))
            .count() as i64
    }

    /// Whether a value may make a set (it passes the test, if any).
    ///
    /// ```
    /// use dice_notation::{Cmp, Matches};
    /// assert!(!Matches { least: 2, on: Some(Cmp::AtLeast(4)) }.passes(3));
    /// ```
    pub fn passes(&self, value: i64) -> bool {
        self.on.as_ref().is_none_or(|c| c.test(value))
    }
}

impl fmt::Display for Matches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("mt")?;
        if self.least != 2 {
            write!(f, "{}", self.least)?;
        }
        if let Some(c) = &self.on {
            write!(f, "({c})")?;
        }
        Ok(())
    }
}

/// The order in which the dice are shown (`sa` ascending, `sd` descending).
///
/// ```
/// assert_eq!(dice_notation::Sort::Descending.to_string(), "sd");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    /// `s`, `sa`: lowest first.
    Ascending,
    /// `sd`: highest first.
    Descending,
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sort::Ascending => "sa",
            Sort::Descending => "sd",
        })
    }
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
            failure_value: false,
            select: None,
            reroll_add: None,
            unique: None,
            matches: None,
            crit_success: None,
            crit_failure: None,
            sort: None,
            steps: Vec::new(),
            sequence: Vec::new(),
        }
    }
}

impl fmt::Display for DiceTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.count, self.die)?;
        self.fmt_modifiers(None, f)
    }
}

impl DiceTerm {
    /// Writes the modifiers, in the order they apply; the number of the success test is
    /// `target` when it is rolled (`>=(1d4)`).
    fn fmt_modifiers(&self, target: Option<&Expr>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(r) = &self.reroll {
            write!(f, "{r}")?;
        }
        for step in &self.sequence {
            write!(f, "{step}")?;
        }
        if let Some(u) = &self.unique {
            write!(f, "{u}")?;
        }
        if let Some(e) = &self.explode {
            // A plain `!` for the highest face, unless a success test follows at once: then
            // `!>=8` would read as "explode on 8 or more", so the face is written (`!10>=8`).
            let highest = e.on == Cmp::Exactly(self.die.faces().1);
            let success_next = e.cap.is_none()
                && self.reroll_add.is_none()
                && self.min.is_none()
                && self.max.is_none()
                && self.keep == Keep::All
                && self.select.is_none()
                && self.steps.is_empty()
                && self.success.is_some();
            e.fmt_with(highest && !success_next, f)?;
        }
        if let Some(r) = &self.reroll_add {
            f.write_str("ra")?;
            r.fmt_after_keyword(f)?;
        }
        if let Some(m) = self.min {
            write!(f, "min{m}")?;
        }
        if let Some(m) = self.max {
            write!(f, "max{m}")?;
        }
        write!(f, "{}", self.keep)?;
        if let Some(s) = &self.select {
            write!(f, "{s}")?;
        }
        for s in &self.steps {
            write!(f, "{s}")?;
        }
        match (&self.success, target) {
            (Some(s), Some(t)) => write!(f, "{}({t})", s.operator())?,
            (Some(s), None) => write!(f, "{s}")?,
            (None, _) => {}
        }
        if let Some(x) = &self.failure {
            f.write_str(match (self.failure_value, &self.success) {
                (true, _) => "sf",
                (false, Some(_)) => "f",
                // Foundry's `df` without `cs`: the other dice add their values.
                (false, None) => "df",
            })?;
            x.fmt_after_keyword(f)?;
        }
        if let Some(m) = &self.matches {
            write!(f, "{m}")?;
        }
        if let Some(c) = &self.crit_success {
            f.write_str("cs")?;
            c.fmt_after_keyword(f)?;
        }
        if let Some(c) = &self.crit_failure {
            f.write_str("cf")?;
            c.fmt_after_keyword(f)?;
        }
        if let Some(s) = &self.sort {
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Dice whose count, or number of sides, is itself rolled: `(1d4)d8` rolls a d4, then that
/// many d8; `2d(1d4+2)` rolls the sides first (Foundry VTT's and Roll20's computed dice).
/// The count is rolled first, then the sides, then the dice, each with its faces in that
/// order. A count of 0 is 0; a die of one side shows 1 (without modifiers only).
///
/// With fewer dice than a keep or drop names, every die is kept (`kh`, `kl`) or dropped
/// (`dh`, `dl`).
///
/// ```
/// use dice_notation::{Dialect, Expression, ExprKind};
/// let e = Expression::parse_with("(1d4)d8", Dialect::Foundry)?;
/// assert!(matches!(e.expr().kind, ExprKind::Computed(_)));
/// assert_eq!(e.to_string(), "(1d4)d8");
/// // a 3 on the d4, then three d8
/// assert_eq!(e.roll_faces([3, 8, 1, 5])?.total, 14);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComputedDice {
    /// How many dice: any expression (a number when only the sides are rolled).
    pub count: Box<Expr>,
    /// The number of sides, when it is rolled (`None`: `term.die`).
    pub sides: Option<Box<Expr>>,
    /// The die and the modifiers (its `count` is not used; with rolled sides, its `die`
    /// stands for them).
    pub term: DiceTerm,
    /// The number of the success test, when it is rolled (Roll20's `3d6>[[1d4]]`, written
    /// `3d6>=(1d4)`): rolled after the count and sides, before the dice; the number in
    /// `term.success` is then not used.
    pub target: Option<Box<Expr>>,
}

impl fmt::Display for ComputedDice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.count.kind {
            ExprKind::Number(n) => write!(f, "{n}")?,
            _ => write!(f, "({})", self.count)?,
        }
        match &self.sides {
            Some(s) => write!(f, "d({s})")?,
            None => write!(f, "{}", self.term.die)?,
        }
        self.term.fmt_modifiers(self.target.as_deref(), f)
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
        // A chain whose left operands print bare (`1+2-3+…`, `((1 < 2) < 3)`) is printed in
        // a loop: the opening of each node from the top down, the first operand, then the
        // rest of each node from the bottom up.
        let (spine, leaf) = left_chain(self, bare_left);
        for e in &spine {
            if let ExprKind::Compare(..) = e.kind {
                f.write_str("(")?;
            }
        }
        leaf.fmt_node(f)?;
        for e in spine.iter().rev() {
            match &e.kind {
                ExprKind::Binary(op, _, rhs) => {
                    write!(f, "{op}")?;
                    fmt_operand(rhs, rhs.precedence() <= op.precedence(), f)?;
                }
                ExprKind::Compare(rel, _, rhs) => {
                    write!(f, " {rel} ")?;
                    fmt_operand(rhs, rhs.precedence() == 0, f)?;
                    f.write_str(")")?;
                }
                ExprKind::Versus(_, rhs) => {
                    f.write_str(" vs ")?;
                    fmt_operand(rhs, rhs.precedence() == 0, f)?;
                }
                // `bare_left` chains only the three above.
                _ => {}
            }
        }
        Ok(())
    }
}

/// The left operand of `e` when `e` prints as that operand written bare, then the rest:
/// an infix operator (`+ - * / %`), a comparison (after its `(`) or `vs`.
pub(crate) fn bare_left(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Binary(
            op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod),
            lhs,
            _,
        ) if lhs.precedence() >= op.precedence() => Some(lhs),
        ExprKind::Compare(_, lhs, _) | ExprKind::Versus(lhs, _) if lhs.precedence() != 0 => {
            Some(lhs)
        }
        _ => None,
    }
}

impl Expr {
    /// One node in canonical form, its operands through [`fmt::Display`].
    fn fmt_node(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Number(n) => write!(f, "{n}"),
            ExprKind::Dice(t) => write!(f, "{t}"),
            ExprKind::Streak(s) => write!(f, "{s}"),
            ExprKind::Neg(inner) => {
                f.write_str("-")?;
                fmt_operand(inner, inner.precedence() < 3, f)
            }
            ExprKind::Binary(op, lhs, rhs) if op.rounding_name().is_some() => {
                write!(f, "{op}(")?;
                fmt_operand(lhs, lhs.precedence() < 2, f)?;
                f.write_str("/")?;
                fmt_operand(rhs, rhs.precedence() <= 2, f)?;
                f.write_str(")")
            }
            ExprKind::Binary(BinOp::Rem, lhs, rhs) => {
                f.write_str("rem(")?;
                fmt_operand(lhs, lhs.precedence() == 0, f)?;
                f.write_str(", ")?;
                fmt_operand(rhs, rhs.precedence() == 0, f)?;
                f.write_str(")")
            }
            ExprKind::Binary(BinOp::Pow, lhs, rhs) => {
                // Right-associative, and binding tighter than a sign on its left.
                fmt_operand(lhs, lhs.precedence() <= 4, f)?;
                f.write_str("**")?;
                fmt_operand(rhs, rhs.precedence() < 3, f)
            }
            ExprKind::Binary(op, lhs, rhs) => {
                let p = op.precedence();
                fmt_operand(lhs, lhs.precedence() < p, f)?;
                write!(f, "{op}")?;
                fmt_operand(rhs, rhs.precedence() <= p, f)
            }
            ExprKind::Compare(rel, lhs, rhs) => {
                f.write_str("(")?;
                fmt_operand(lhs, lhs.precedence() == 0, f)?;
                write!(f, " {rel} ")?;
                fmt_operand(rhs, rhs.precedence() == 0, f)?;
                f.write_str(")")
            }
            ExprKind::Group(g) => write!(f, "{g}"),
            ExprKind::Computed(c) => write!(f, "{c}"),
            ExprKind::Call(func, args) => {
                write!(f, "{func}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    // A rounding of a fraction whose argument shows a `/`: in parentheses,
                    // where `floor(x/y + …)` would read as the rounded division of `x/y`.
                    let taken = func.is_rounding() && bare_division(a);
                    fmt_operand(a, a.precedence() == 0 || taken, f)?;
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

/// Whether `e` prints a `/` outside any parentheses or function, which a rounding function
/// around it would read as its own rounded division.
fn bare_division(e: &Expr) -> bool {
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        match &e.kind {
            ExprKind::Binary(BinOp::Div, ..) => return true,
            ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Mod, a, b) => {
                todo.push(b);
                todo.push(a);
            }
            _ => {}
        }
    }
    false
}

fn fmt_operand(e: &Expr, parens: bool, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if parens {
        write!(f, "({e})")
    } else {
        write!(f, "{e}")
    }
}
