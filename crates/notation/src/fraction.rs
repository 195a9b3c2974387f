//! The fraction path: expressions whose values can be fractions, in the dialects that divide
//! exactly (Roll20, Foundry VTT, Avrae d20, rpg-dice-roller: `4d6/7`, `2d10/d20`) or have
//! decimals (`1d20*0.20`, `1.5`).
//!
//! Whether an expression takes this path is decided on its tree ([`holds_fraction`]): it
//! holds an exact division ([`BinOp::DivExact`], which is also what a decimal is) or a
//! rounding of a fraction ([`Func::Floor`] …). Every other expression keeps the integer
//! engine (`Node`, `Dist<i64>`) untouched. Here the tree compiles to [`FNode`]s whose whole
//! parts without a fraction are integer-engine nodes ([`FOp::Int`]), rolled and given their
//! laws by that engine; the rest computes with exact [`Rational`]s.
//!
//! Every node's bounds are exact fractions and its denominators are bounded when compiling,
//! so that no value can overflow: a value's magnitude is at most [`MAX_VALUE`], and its
//! numerator in lowest terms at most [`MAX_NUMERATOR`]. An expression beyond that is refused
//! with an error naming the part at fault.

use std::cmp::Ordering;

use dice_core::{Keep, Versus};

use crate::MAX_VALUE;
use crate::ast::{BinOp, Cmp, Expr, ExprKind, Func, GroupTerm, Relation, Select, Span};
use crate::compile::{Compiler, Node, Op, Plan, Term};
use crate::error::ParseError;
use crate::outcome::Outcome;
use crate::rational::{Rational, RationalError};
use crate::roll::{Roller, TermRoll};

/// The largest numerator (in lowest terms) a value on the fraction path may need, as its
/// bounds and denominators tell: below `i64::MAX`, so that every value fits a [`Rational`]
/// and every operation on two of them fits `i128` before it is reduced.
pub(crate) const MAX_NUMERATOR: u128 = 1_000_000_000_000_000_000;

/// The most decimal places a decimal number may have (its denominator is then at most
/// [`crate::MAX_CONSTANT`]).
const MAX_DECIMALS: usize = 9;

/// Whether the tree holds an exact division or a rounding of a fraction: then it takes the
/// fraction path. (Walked with a list of the nodes still to see, not by recursion: a chain
/// of operators is a tree hundreds of levels deep.)
pub(crate) fn holds_fraction(e: &Expr) -> bool {
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        match &e.kind {
            ExprKind::Number(_) | ExprKind::Dice(_) | ExprKind::Streak(_) => {}
            ExprKind::Neg(x) => todo.push(x),
            ExprKind::Binary(op, a, b) => {
                if *op == BinOp::DivExact {
                    return true;
                }
                todo.push(b);
                todo.push(a);
            }
            ExprKind::Call(func, args) => {
                if func.is_rounding() {
                    return true;
                }
                todo.extend(args.iter().rev());
            }
            ExprKind::Versus(a, b) | ExprKind::Compare(_, a, b) => {
                todo.push(b);
                todo.push(a);
            }
            ExprKind::Group(g) => todo.extend(g.items.iter().rev()),
            ExprKind::Computed(c) => {
                todo.extend(c.sides.as_deref());
                todo.push(&c.count);
            }
        }
    }
    false
}

/// Whether the value of `e` can be a fraction (not a whole number), as far as its shape
/// tells: an exact division can, a rounding, a comparison or a count cannot, and arithmetic
/// on values that cannot, cannot either.
pub(crate) fn can_be_fraction(e: &Expr) -> bool {
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        match &e.kind {
            ExprKind::Number(_)
            | ExprKind::Dice(_)
            | ExprKind::Streak(_)
            | ExprKind::Compare(..)
            | ExprKind::Computed(_)
            | ExprKind::Versus(..) => {}
            ExprKind::Neg(x) => todo.push(x),
            ExprKind::Binary(op, a, b) => match op {
                BinOp::DivExact => return true,
                BinOp::Div | BinOp::DivCeil | BinOp::DivRound | BinOp::DivTrunc => {}
                _ => {
                    todo.push(b);
                    todo.push(a);
                }
            },
            ExprKind::Call(func, args) => match func {
                Func::Min | Func::Max | Func::Abs => todo.extend(args.iter().rev()),
                _ => {}
            },
            ExprKind::Group(g) => {
                if g.success.is_none() {
                    todo.extend(g.items.iter().rev());
                }
            }
        }
    }
    false
}

/// A decimal number with a fraction (`1.45`, `.5`: the digits before and after the point)
/// as an exact division in lowest terms, `exact(29/20)`.
pub(crate) fn decimal(whole: &str, decimals: &str, span: Span) -> Result<Expr, String> {
    let too_precise = || {
        format!(
            "the decimal `{whole}.{decimals}` is too precise for this crate's exact fractions: \
             at most {MAX_DECIMALS} decimal places, and at most {} in lowest terms",
            crate::MAX_CONSTANT
        )
    };
    if decimals.len() > MAX_DECIMALS {
        return Err(too_precise());
    }
    let digits = whole.bytes().chain(decimals.bytes());
    let num = digits.fold(0u128, |acc, b| {
        acc.saturating_mul(10).saturating_add(u128::from(b - b'0'))
    });
    let den = 10u128.pow(decimals.len() as u32);
    let value = i128::try_from(num)
        .ok()
        .and_then(|n| Rational::from_wide(n, den as i128))
        .ok_or_else(too_precise)?;
    let (n, d) = (value.numer(), value.denom());
    let most = crate::MAX_CONSTANT as i64;
    if n > most || d > most {
        return Err(too_precise());
    }
    let number = |v: i64| Expr::number(v as u64).with_span(span);
    Ok(Expr::binary(BinOp::DivExact, number(n), number(d)).with_span(span))
}

/// A compiled fraction-path expression: the total, and the target of a `vs` comparison.
#[derive(Clone, Debug)]
pub(crate) struct FPlan {
    pub(crate) body: FNode,
    pub(crate) target: Option<FNode>,
}

/// A node of the fraction path, with exact bounds of its value.
#[derive(Debug)]
pub(crate) struct FNode {
    pub(crate) op: FOp,
    /// Canonical text, for error messages.
    pub(crate) text: String,
    pub(crate) span: Span,
    pub(crate) lo: Rational,
    pub(crate) hi: Rational,
    /// Every value is a whole number.
    pub(crate) whole: bool,
    /// A bound on the denominators of the values, in lowest terms (1 for a whole node).
    pub(crate) den: u128,
}

#[derive(Clone, Debug)]
pub(crate) enum FOp {
    /// A part without a fraction: the integer engine's node.
    Int(Node),
    Const(Rational),
    Neg(Box<FNode>),
    Bin(BinOp, Box<FNode>, Box<FNode>),
    /// `min`, `max` (two or more), `abs`, `sign` and the roundings (one argument).
    Call(Func, Vec<FNode>),
    Compare(Relation, Box<FNode>, Box<FNode>),
    Group(Box<FGroup>),
}

/// A group whose items may be fractions.
#[derive(Clone, Debug)]
pub(crate) struct FGroup {
    pub(crate) items: Vec<FNode>,
    pub(crate) keep: Keep,
    pub(crate) select: Option<Select>,
    pub(crate) success: Option<Cmp>,
    pub(crate) failure: Option<Cmp>,
    pub(crate) steps: Vec<crate::select::Step>,
}

impl Clone for FNode {
    /// A chain of operators is copied in a loop down its left operands (see [`fnode`]).
    fn clone(&self) -> Self {
        let (mut spine, leaf) = crate::ast::left_chain(self, FNode::chained_left);
        let copy = |n: &FNode, op: FOp| FNode {
            op,
            text: n.text.clone(),
            span: n.span,
            lo: n.lo,
            hi: n.hi,
            whole: n.whole,
            den: n.den,
        };
        let mut acc = copy(leaf, leaf.op.clone());
        while let Some(parent) = spine.pop() {
            let op = match &parent.op {
                FOp::Bin(op, _, b) => FOp::Bin(*op, Box::new(acc), b.clone()),
                FOp::Compare(rel, _, b) => FOp::Compare(*rel, Box::new(acc), b.clone()),
                // Only the two above are chained.
                other => other.clone(),
            };
            acc = copy(parent, op);
        }
        acc
    }
}

impl FNode {
    /// The left operand of a binary operator or comparison, the links of a chain that the
    /// walks over fraction nodes take in a loop ([`crate::ast::left_chain`]).
    pub(crate) fn chained_left(&self) -> Option<&FNode> {
        match &self.op {
            FOp::Bin(_, a, _) | FOp::Compare(_, a, _) => Some(a),
            _ => None,
        }
    }

    /// The value, when the node rolls nothing.
    pub(crate) fn constant(&self) -> Option<Rational> {
        match &self.op {
            FOp::Const(r) => Some(*r),
            FOp::Int(n) => crate::compile::constant(n).map(Rational::from),
            _ => None,
        }
    }
}

/// Compiles an expression holding a fraction: its parts without one through the integer
/// compiler `c` (their terms land in the plan in order), the rest here.
pub(crate) fn compile(c: &mut Compiler<'_>, expr: &Expr) -> Result<Plan, ParseError> {
    let (body, target) = match &expr.kind {
        ExprKind::Versus(lhs, rhs) => (fnode(c, lhs)?, Some(fnode(c, rhs)?)),
        _ => (fnode(c, expr)?, None),
    };
    let placeholder = Node {
        op: Op::Const(0),
        text: body.text.clone(),
        span: body.span,
        lo: body.lo.floor(),
        hi: body.hi.ceil(),
    };
    Ok(Plan {
        body: placeholder,
        target: None,
        terms: std::mem::take(&mut c.terms),
        shortcut: None,
        fraction: Some(Box::new(FPlan { body, target })),
    })
}

/// A bound of a node: its value range and a bound on the denominators of its values.
struct Bounds {
    lo: Rational,
    hi: Rational,
    den: u128,
}

impl Bounds {
    fn point(r: Rational) -> Bounds {
        Bounds {
            lo: r,
            hi: r,
            den: r.denom() as u128,
        }
    }

    fn whole(lo: i64, hi: i64) -> Bounds {
        Bounds {
            lo: Rational::from(lo),
            hi: Rational::from(hi),
            den: 1,
        }
    }

    /// The largest magnitude.
    fn magnitude(&self) -> Rational {
        let abs = |r: Rational| r.checked_abs().unwrap_or(Rational::from(i64::MAX));
        abs(self.lo).max(abs(self.hi))
    }

    /// A bound on the numerators in lowest terms.
    fn numerators(&self) -> u128 {
        (self.magnitude().ceil().max(1) as u128).saturating_mul(self.den)
    }
}

fn is_division(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Div
            | BinOp::DivCeil
            | BinOp::DivRound
            | BinOp::DivTrunc
            | BinOp::DivExact
            | BinOp::Mod
            | BinOp::Rem
    )
}

/// Compiles one node. A chain of operators holding a fraction (`exact(1d6/2)+1+1+…`) is
/// walked down its left operands in a loop and compiled back up (left operand, right
/// operand, node, as in recursion), so that the stack grows only with the nesting of right
/// operands.
fn fnode(c: &mut Compiler<'_>, e: &Expr) -> Result<FNode, ParseError> {
    let (mut spine, leaf) = crate::ast::left_chain(e, |x| match &x.kind {
        ExprKind::Binary(_, a, _) | ExprKind::Compare(_, a, _) if holds_fraction(x) => Some(a),
        _ => None,
    });
    let mut acc = one_fnode(c, leaf)?;
    while let Some(parent) = spine.pop() {
        acc = chain_fnode(c, parent, acc)?;
    }
    Ok(acc)
}

/// A binary operator or comparison `e` holding a fraction, whose left operand compiled to
/// `x`.
#[inline(never)]
fn chain_fnode(c: &mut Compiler<'_>, e: &Expr, x: FNode) -> Result<FNode, ParseError> {
    let text = e.to_string();
    let (op, b) = match &e.kind {
        ExprKind::Binary(op, _, b) => {
            let y = fnode(c, b)?;
            binary(c, *op, x, y, e, &text)?
        }
        ExprKind::Compare(rel, _, b) => {
            let y = fnode(c, b)?;
            (
                FOp::Compare(*rel, Box::new(x), Box::new(y)),
                Bounds::whole(0, 1),
            )
        }
        // Only the two above are chained.
        _ => return one_fnode(c, e),
    };
    checked(c, e, text, op, b)
}

/// Compiles a node that is not chained (see [`fnode`]).
#[inline(never)]
fn one_fnode(c: &mut Compiler<'_>, e: &Expr) -> Result<FNode, ParseError> {
    if !holds_fraction(e) {
        let n = c.node(e)?;
        return Ok(FNode {
            text: n.text.clone(),
            span: n.span,
            lo: Rational::from(n.lo),
            hi: Rational::from(n.hi),
            whole: true,
            den: 1,
            op: FOp::Int(n),
        });
    }
    let text = e.to_string();
    let too_large = |c: &Compiler<'_>| {
        c.invalid(
            format!(
                "`{text}` could reach beyond the ±{MAX_VALUE} that expressions may compute with"
            ),
            e.span,
        )
    };
    let (op, b) = match &e.kind {
        ExprKind::Neg(x) => {
            let x = fnode(c, x)?;
            let (lo, hi) = match (x.hi.checked_neg(), x.lo.checked_neg()) {
                (Some(lo), Some(hi)) => (lo, hi),
                _ => return Err(too_large(c)),
            };
            let den = den_of(&x);
            match x.constant() {
                Some(v) => {
                    let v = v.checked_neg().ok_or_else(|| too_large(c))?;
                    (FOp::Const(v), Bounds::point(v))
                }
                None => (FOp::Neg(Box::new(x)), Bounds { lo, hi, den }),
            }
        }
        ExprKind::Binary(..) | ExprKind::Compare(..) => return fnode(c, e),
        ExprKind::Call(func, args) => call(c, *func, args, e)?,
        ExprKind::Group(g) => group(c, g, e)?,
        ExprKind::Computed(_) => {
            return Err(c.invalid(
                format!(
                    "the number of dice and of sides must be whole numbers, and `{text}` \
                     computes one with a fraction: round it (`floor(…)`, `ceil(…)`, \
                     `round(…)`)"
                ),
                e.span,
            ));
        }
        ExprKind::Versus(..) => {
            return Err(c.invalid(
                "`vs` compares the whole expression with a target; it can only be the \
                 outermost operation"
                    .into(),
                e.span,
            ));
        }
        // Hold no fraction: handled above.
        ExprKind::Number(_) | ExprKind::Dice(_) | ExprKind::Streak(_) => {
            let n = c.node(e)?;
            (FOp::Int(n), Bounds::whole(0, 0))
        }
    };
    checked(c, e, text, op, b)
}

/// The node of `e`, once its bounds are checked.
#[inline(never)]
fn checked(
    c: &mut Compiler<'_>,
    e: &Expr,
    text: String,
    op: FOp,
    b: Bounds,
) -> Result<FNode, ParseError> {
    if b.magnitude() > Rational::from(MAX_VALUE) {
        return Err(c.invalid(
            format!(
                "`{text}` could reach {}, beyond the ±{MAX_VALUE} that expressions may compute \
                 with",
                b.magnitude()
            ),
            e.span,
        ));
    }
    if b.numerators() > MAX_NUMERATOR {
        return Err(c.invalid(
            format!(
                "`{text}` could need fractions with denominators up to about {}, which with \
                 values up to {} is beyond the exact fractions this crate computes with \
                 (numerators up to {MAX_NUMERATOR})",
                b.den,
                b.magnitude().ceil()
            ),
            e.span,
        ));
    }
    Ok(FNode {
        op,
        text,
        span: e.span,
        lo: b.lo,
        hi: b.hi,
        whole: b.den == 1,
        den: b.den,
    })
}

/// A bound on the denominators of a node's values (1 for a whole node).
fn den_of(x: &FNode) -> u128 {
    x.den
}

/// The least and greatest of `v ** q` over the whole values `v` within `x`'s bounds (at
/// most [`ROOT_VALUES`] of them), if every one has an exact, whole value (a fractional
/// exponent `q ≥ 0` of a whole base whose values all have exact roots); else `None`.
fn exact_roots(x: &FNode, q: Rational) -> Option<(Rational, Rational)> {
    if !x.whole || q < Rational::ZERO {
        return None;
    }
    let (lo, hi) = (x.lo.ceil(), x.hi.floor());
    if hi.checked_sub(lo)? >= ROOT_VALUES {
        return None;
    }
    let mut out: Option<(Rational, Rational)> = None;
    for v in lo..=hi {
        let r = Rational::from(v).pow(q).ok()?;
        if r.floor() != r.ceil() {
            return None;
        }
        out = Some(match out {
            None => (r, r),
            Some((a, b)) => (a.min(r), b.max(r)),
        });
    }
    out
}

/// How many whole values of a rolled base [`exact_roots`] checks at most.
const ROOT_VALUES: i64 = 100_000;

/// A bound on the denominators of `x op y`'s values.
fn bin_den(op: BinOp, x: &FNode, y: &FNode) -> u128 {
    let (dx, dy) = (x.den, y.den);
    match op {
        BinOp::Div | BinOp::DivCeil | BinOp::DivRound | BinOp::DivTrunc => 1,
        // x / (n/d) = x·d/n: the divisor's numerators multiply the denominator.
        BinOp::DivExact => {
            let ny = (magnitude(y).ceil().max(1) as u128).saturating_mul(dy);
            dx.saturating_mul(ny)
        }
        BinOp::Pow => {
            let e = u32::try_from(y.hi.floor().max(0)).unwrap_or(u32::MAX);
            dx.checked_pow(e).unwrap_or(u128::MAX)
        }
        _ => dx.saturating_mul(dy),
    }
}

fn magnitude(x: &FNode) -> Rational {
    Bounds {
        lo: x.lo,
        hi: x.hi,
        den: 1,
    }
    .magnitude()
}

/// The exact value of `x op y`, or why there is none.
pub(crate) fn apply_exact(op: BinOp, x: Rational, y: Rational) -> Result<Rational, RationalError> {
    let some = |v: Option<Rational>| v.ok_or(RationalError::Overflow);
    let q = || {
        if y == Rational::ZERO {
            Err(RationalError::ZeroDenominator)
        } else {
            some(x.checked_div(y))
        }
    };
    Ok(match op {
        BinOp::Add => some(x.checked_add(y))?,
        BinOp::Sub => some(x.checked_sub(y))?,
        BinOp::Mul => some(x.checked_mul(y))?,
        BinOp::DivExact => q()?,
        BinOp::Div => Rational::from(q()?.floor()),
        BinOp::DivCeil => Rational::from(q()?.ceil()),
        BinOp::DivRound => Rational::from(q()?.round_half_up()),
        BinOp::DivTrunc => Rational::from(q()?.trunc()),
        BinOp::Mod => {
            q()?;
            some(x.checked_rem_floor(y))?
        }
        BinOp::Rem => {
            q()?;
            some(x.checked_rem_trunc(y))?
        }
        BinOp::Pow => x.pow(y)?,
    })
}

/// `x op y` for a roll: the compiler's bounds make every operation exact and in range, so
/// the fallback (0) is never taken.
#[inline]
pub(crate) fn apply(op: BinOp, x: Rational, y: Rational) -> Rational {
    apply_exact(op, x, y).unwrap_or(Rational::ZERO)
}

/// A rounding function's value.
pub(crate) fn round(func: Func, x: Rational) -> Rational {
    Rational::from(match func {
        Func::Floor => x.floor(),
        Func::Ceil => x.ceil(),
        Func::Round => x.round_half_up(),
        Func::RoundAway => x.round_half_away(),
        Func::Trunc => x.trunc(),
        Func::Sign => x.signum(),
        // Not roundings: `abs`, or `min`/`max` of one value.
        Func::Abs => return x.checked_abs().unwrap_or(x),
        Func::Min | Func::Max => return x,
    })
}

/// Whether a fraction passes a test on whole numbers.
pub(crate) fn passes(c: &Cmp, v: Rational) -> bool {
    let n = |k: &i64| Rational::from(*k);
    match c {
        Cmp::AtLeast(k) => v >= n(k),
        Cmp::AtMost(k) => v <= n(k),
        Cmp::Above(k) => v > n(k),
        Cmp::Below(k) => v < n(k),
        Cmp::Exactly(k) => v == n(k),
        Cmp::NotEqual(k) => v != n(k),
        Cmp::OneOf(set) => v.to_integer().is_some_and(|i| set.contains(&i)),
    }
}

/// Whether `x rel y`.
pub(crate) fn holds(rel: Relation, x: Rational, y: Rational) -> bool {
    let o = x.cmp(&y);
    match rel {
        Relation::Equal => o == Ordering::Equal,
        Relation::NotEqual => o != Ordering::Equal,
        Relation::Below => o == Ordering::Less,
        Relation::AtMost => o != Ordering::Greater,
        Relation::Above => o == Ordering::Greater,
        Relation::AtLeast => o != Ordering::Less,
    }
}

/// Where `total` falls against `target`.
pub(crate) fn versus(total: Rational, target: Rational) -> Versus {
    match total.cmp(&target) {
        Ordering::Less => Versus::Below,
        Ordering::Equal => Versus::Equal,
        Ordering::Greater => Versus::Above,
    }
}

/// The corners of `f` over two intervals (both monotone where it matters).
fn corners(
    x: &FNode,
    y: &FNode,
    f: impl Fn(Rational, Rational) -> Option<Rational>,
) -> Option<(Rational, Rational)> {
    let values = [
        f(x.lo, y.lo)?,
        f(x.lo, y.hi)?,
        f(x.hi, y.lo)?,
        f(x.hi, y.hi)?,
    ];
    Some((*values.iter().min()?, *values.iter().max()?))
}

type Compiled = (FOp, Bounds);

fn binary(
    c: &Compiler<'_>,
    op: BinOp,
    x: FNode,
    y: FNode,
    e: &Expr,
    text: &str,
) -> Result<Compiled, ParseError> {
    let too_large = || {
        c.invalid(
            format!(
                "`{text}` could reach beyond the ±{MAX_VALUE} that expressions may compute with"
            ),
            e.span,
        )
    };
    if is_division(op) && y.lo <= Rational::ZERO && y.hi >= Rational::ZERO {
        return Err(c.invalid(
            format!(
                "the divisor `{}` can be 0 (its values lie within {}..={}); division needs a \
                 divisor that cannot be 0",
                y.text, y.lo, y.hi
            ),
            y.span,
        ));
    }
    if op == BinOp::Pow && !y.whole && y.constant().is_none() {
        return Err(c.invalid(
            format!(
                "the exponent `{}` can be a fraction, whose powers of rolled values are \
                 irrational: only a constant power of a constant may have a fractional \
                 exponent (`9**0.5`)",
                y.text
            ),
            y.span,
        ));
    }
    // Constants: the value, or why there is none.
    if let (Some(p), Some(q)) = (x.constant(), y.constant()) {
        let v = apply_exact(op, p, q).map_err(|err| match err {
            RationalError::Irrational | RationalError::NegativeRoot => c.invalid(
                format!(
                    "`{text}` has no exact value ({err}); this crate computes with exact \
                     fractions only"
                ),
                e.span,
            ),
            _ => too_large(),
        })?;
        return Ok((FOp::Const(v), Bounds::point(v)));
    }
    if op == BinOp::Pow && !y.whole {
        // A rolled whole base whose every possible value has an exact root (`sqrt(1d2-1)`:
        // 0 and 1) has exact powers; any other is refused here, before a roll.
        if let Some((lo, hi)) = y.constant().and_then(|q| exact_roots(&x, q)) {
            return Ok((
                FOp::Bin(op, Box::new(x), Box::new(y)),
                Bounds { lo, hi, den: 1 },
            ));
        }
        return Err(c.invalid(
            format!(
                "the fractional exponent `{}` of the rolled value `{}` gives irrational values \
                 (a value within {}..={} has no exact root): only a constant, or a rolled value \
                 whose every value has an exact root, may have one (`9**0.5`)",
                y.text, x.text, x.lo, x.hi
            ),
            e.span,
        ));
    }
    let den = bin_den(op, &x, &y);
    let (lo, hi) = match op {
        BinOp::Add => (
            x.lo.checked_add(y.lo).ok_or_else(too_large)?,
            x.hi.checked_add(y.hi).ok_or_else(too_large)?,
        ),
        BinOp::Sub => (
            x.lo.checked_sub(y.hi).ok_or_else(too_large)?,
            x.hi.checked_sub(y.lo).ok_or_else(too_large)?,
        ),
        BinOp::Mul => corners(&x, &y, Rational::checked_mul).ok_or_else(too_large)?,
        // Monotone in each operand where the divisor keeps its sign (checked above), and
        // the roundings are monotone.
        BinOp::DivExact | BinOp::Div | BinOp::DivCeil | BinOp::DivRound | BinOp::DivTrunc => {
            corners(&x, &y, |a, b| apply_exact(op, a, b).ok()).ok_or_else(too_large)?
        }
        BinOp::Mod if y.lo > Rational::ZERO => (Rational::ZERO, y.hi),
        BinOp::Mod => (y.lo, Rational::ZERO),
        BinOp::Rem => {
            let m = magnitude(&y);
            let lo = if x.lo < Rational::ZERO {
                m.checked_neg().ok_or_else(too_large)?
            } else {
                Rational::ZERO
            };
            let hi = if x.hi > Rational::ZERO {
                m
            } else {
                Rational::ZERO
            };
            (lo, hi)
        }
        BinOp::Pow => {
            if y.lo < Rational::ZERO {
                return Err(c.invalid(
                    format!(
                        "the exponent `{}` can be negative (its values lie within {}..={}), \
                         which this crate does not compute",
                        y.text, y.lo, y.hi
                    ),
                    y.span,
                ));
            }
            let e = u32::try_from(y.hi.floor()).map_err(|_| too_large())?;
            let m = magnitude(&x).max(Rational::ONE);
            let bound = m.checked_powi(e).ok_or_else(too_large)?;
            let lo = if x.lo < Rational::ZERO {
                bound.checked_neg().ok_or_else(too_large)?
            } else {
                Rational::ZERO
            };
            (lo, bound)
        }
    };
    Ok((
        FOp::Bin(op, Box::new(x), Box::new(y)),
        Bounds { lo, hi, den },
    ))
}

fn call(c: &mut Compiler<'_>, func: Func, args: &[Expr], e: &Expr) -> Result<Compiled, ParseError> {
    if func.is_unary() {
        let [arg] = args else {
            return Err(c.invalid(format!("`{func}` takes one argument"), e.span));
        };
        let x = fnode(c, arg)?;
        if let Some(v) = x.constant() {
            let v = round(func, v);
            return Ok((FOp::Const(v), Bounds::point(v)));
        }
        let b = match func {
            Func::Abs => {
                let abs = |r: Rational| r.checked_abs().unwrap_or(r);
                let (lo, hi) = if x.lo >= Rational::ZERO {
                    (x.lo, x.hi)
                } else if x.hi <= Rational::ZERO {
                    (abs(x.hi), abs(x.lo))
                } else {
                    (Rational::ZERO, abs(x.lo).max(x.hi))
                };
                Bounds {
                    lo,
                    hi,
                    den: den_of(&x),
                }
            }
            // Sign and the roundings are monotone.
            _ => Bounds {
                lo: round(func, x.lo),
                hi: round(func, x.hi),
                den: 1,
            },
        };
        return Ok((FOp::Call(func, vec![x]), b));
    }
    if args.len() < 2 {
        return Err(c.invalid(format!("`{func}` needs at least two arguments"), e.span));
    }
    let nodes = args
        .iter()
        .map(|a| fnode(c, a))
        .collect::<Result<Vec<_>, _>>()?;
    let pick = |v: &mut dyn Iterator<Item = Rational>| -> Rational {
        let first = v.next().unwrap_or(Rational::ZERO);
        v.fold(first, |m, r| {
            if func == Func::Min {
                m.min(r)
            } else {
                m.max(r)
            }
        })
    };
    let lo = pick(&mut nodes.iter().map(|n| n.lo));
    let hi = pick(&mut nodes.iter().map(|n| n.hi));
    let den = nodes.iter().map(den_of).max().unwrap_or(1);
    Ok((FOp::Call(func, nodes), Bounds { lo, hi, den }))
}

fn group(c: &mut Compiler<'_>, g: &GroupTerm, e: &Expr) -> Result<Compiled, ParseError> {
    if g.dice {
        return Err(c.invalid(
            "a group keeping the dice of its item is not supported together with fractions".into(),
            e.span,
        ));
    }
    let items = g
        .items
        .iter()
        .map(|a| fnode(c, a))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(x) = &g.failure {
        if g.success.is_none() {
            return Err(c.invalid(
                format!("failures (`f{x}`) are subtracted from a success count"),
                e.span,
            ));
        }
    }
    let n = items.len() as i64;
    let b = if g.success.is_some() {
        Bounds::whole(if g.failure.is_some() { -n } else { 0 }, n)
    } else {
        let mut lo = Rational::ZERO;
        let mut hi = Rational::ZERO;
        let mut den = 1u128;
        for i in &items {
            let over = || {
                c.invalid(
                    format!(
                        "`{e}` could reach beyond the ±{MAX_VALUE} that expressions may \
                         compute with"
                    ),
                    e.span,
                )
            };
            lo = lo.checked_add(i.lo.min(Rational::ZERO)).ok_or_else(over)?;
            hi = hi.checked_add(i.hi.max(Rational::ZERO)).ok_or_else(over)?;
            den = den.saturating_mul(den_of(i));
        }
        Bounds { lo, hi, den }
    };
    let spec = FGroup {
        items,
        keep: g.keep,
        select: g.select.clone(),
        success: g.success.clone(),
        failure: g.failure.clone(),
        steps: g.steps.clone(),
    };
    Ok((FOp::Group(Box::new(spec)), b))
}

impl FGroup {
    /// What a kept item of value `v` adds: its count (success minus failure) or its value.
    pub(crate) fn score(&self, v: Rational) -> Rational {
        match &self.success {
            Some(s) => {
                let failed = self.failure.as_ref().is_some_and(|f| passes(f, v));
                Rational::from(i64::from(passes(s, v)) - i64::from(failed))
            }
            None => v,
        }
    }

    /// The value of the group whose items rolled `values`: keep/drop by value (among equal
    /// values the earlier item is kept), select, the chained steps, then add up or count.
    pub(crate) fn value(&self, values: &[Rational]) -> Rational {
        let kept = self.kept(values);
        values
            .iter()
            .zip(&kept)
            .filter(|(_, k)| **k)
            .map(|(&v, _)| self.score(v))
            .fold(Rational::ZERO, |acc, v| acc.checked_add(v).unwrap_or(acc))
    }

    /// Which items stay.
    fn kept(&self, values: &[Rational]) -> Vec<bool> {
        let n = values.len();
        let mut kept = vec![true; n];
        let (top, k) = self.keep.as_top(n as u32);
        if (k as usize) < n {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| {
                let by_value = if top {
                    values[b].cmp(&values[a])
                } else {
                    values[a].cmp(&values[b])
                };
                by_value.then(a.cmp(&b))
            });
            for &i in &order[k as usize..] {
                kept[i] = false;
            }
        }
        if let Some(sel) = &self.select {
            for (k, &v) in kept.iter_mut().zip(values) {
                *k = *k && passes(&sel.on, v) == sel.keep;
            }
        }
        crate::select::apply_by(values, &mut kept, &self.steps, |c, v| passes(c, *v));
        kept
    }
}

// ------------------------------------------------------------------ rolling

/// The value of a node.
pub(crate) fn eval<R: Roller>(
    node: &FNode,
    terms: &[Term],
    roller: &mut R,
    record: &mut Option<Vec<TermRoll>>,
) -> Rational {
    match &node.op {
        FOp::Int(n) => Rational::from(crate::roll::eval(n, terms, roller, record)),
        FOp::Const(r) => *r,
        FOp::Neg(x) => {
            let v = eval(x, terms, roller, record);
            v.checked_neg().unwrap_or(v)
        }
        FOp::Bin(op, a, b) => {
            let x = eval(a, terms, roller, record);
            let y = eval(b, terms, roller, record);
            apply(*op, x, y)
        }
        FOp::Call(func, args) => {
            let mut acc: Option<Rational> = None;
            for a in args {
                let v = eval(a, terms, roller, record);
                acc = Some(match (acc, func) {
                    (None, _) => round(*func, v),
                    (Some(m), Func::Min) => m.min(v),
                    (Some(m), _) => m.max(v),
                });
            }
            acc.unwrap_or(Rational::ZERO)
        }
        FOp::Compare(rel, a, b) => {
            let x = eval(a, terms, roller, record);
            let y = eval(b, terms, roller, record);
            Rational::from(i64::from(holds(*rel, x, y)))
        }
        FOp::Group(g) => {
            let values: Vec<Rational> = g
                .items
                .iter()
                .map(|a| eval(a, terms, roller, record))
                .collect();
            g.value(&values)
        }
    }
}

/// One roll of a fraction-path plan: the outcome, the exact total and target, and (when
/// `record`) every term.
pub(crate) fn roll_plan<R: Roller>(
    plan: &Plan,
    f: &FPlan,
    roller: &mut R,
    record: bool,
) -> (Outcome, Rational, Option<Rational>, Vec<TermRoll>) {
    let mut terms = record.then(|| Vec::with_capacity(plan.terms.len()));
    let total = eval(&f.body, &plan.terms, roller, &mut terms);
    let (outcome, target) = match &f.target {
        Some(t) => {
            let target = eval(t, &plan.terms, roller, &mut terms);
            (Outcome::Versus(versus(total, target)), Some(target))
        }
        None => (Outcome::from_rational(total), None),
    };
    (outcome, total, target, terms.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dialect, Expression};

    #[test]
    fn decimals_are_exact_divisions_in_lowest_terms() {
        let s = Span::new(0, 4);
        assert_eq!(decimal("1", "45", s).unwrap().to_string(), "exact(29/20)");
        assert_eq!(decimal("", "5", s).unwrap().to_string(), "exact(1/2)");
        assert_eq!(decimal("0", "20", s).unwrap().to_string(), "exact(1/5)");
        assert!(decimal("1", "0000000001", s).is_err());
        assert!(decimal("99999999", "99", s).is_err());
    }

    #[test]
    fn the_shape_tells_which_path_and_whether_a_fraction_can_come() {
        let e = |t: &str| Expression::parse_with(t, Dialect::RpgDiceRoller).unwrap();
        for (text, holds, fraction) in [
            ("1d20/3", true, true),
            ("floor(1d20/3)", false, false),
            ("floor(1d20/3.5)", true, false),
            ("2*floor(4d10/3.4) + 1", true, false),
            ("{1d6/2, 3}>2", true, false),
            ("{1d6/2, 3}k1", true, true),
            ("abs(1d6/2 - 2)", true, true),
            ("sign(1d6/2 - 2)", true, false),
            ("6/3", false, false),
        ] {
            let x = e(text);
            assert_eq!(holds_fraction(x.expr()), holds, "{text}");
            assert_eq!(can_be_fraction(x.expr()), fraction, "{text}");
            assert_eq!(x.plan.fraction.is_some(), holds, "{text}");
        }
    }

    #[test]
    fn bounds_are_exact_and_contain_every_value() {
        let x = Expression::parse_with("(1d6-4)/2", Dialect::Roll20).unwrap();
        let f = x.plan.fraction.as_ref().unwrap();
        assert_eq!(f.body.lo, Rational::new(-3, 2).unwrap());
        assert_eq!(f.body.hi, Rational::ONE);
        assert_eq!(x.bounds(), (-2, 1));
    }

    #[test]
    fn denominators_that_could_overflow_are_refused_when_compiling() {
        let d = Dialect::RpgDiceRoller;
        assert!(Expression::parse_with("1d20/7/11/13", d).is_ok());
        let err = Expression::parse_with("1d1000/999999937/999999929/7", d);
        assert!(err.unwrap_err().to_string().contains("denominators"));
        assert!(Expression::parse_with("1d6/(1d3-2)", d).is_err());
    }
}
