//! From the syntax tree to a plan: each dice term compiled onto the dice-core mechanic that
//! rolls it (`Sum`, `SuccessPool`, `Streak`) where one fits, with this crate's own pool for
//! the rest (rerolls, clamps, keep-then-count, failures, exploding `dF`); arithmetic checked
//! by interval bounds so that no value can overflow and no divisor can be 0.

use dice_core::{Die, Explode, FaceSet, Keep, Pool, Streak, SuccessPool, Sum};

use crate::ast::{
    BinOp, Cmp, ComputedDice, DiceTerm, DieKind, Expr, ExprKind, Func, GroupTerm, Matches,
    Relation, Select, Sort, Span, StreakTerm, Unique, left_chain,
};
use crate::error::{ParseError, ParseErrorKind};
use crate::{MAX_CONSTANT, MAX_DICE, MAX_ROLLED, MAX_VALUE};

/// The cap of an explosion or streak given without one (dice-core's).
pub(crate) const DEFAULT_CAP: u32 = dice_core::DEFAULT_EXPLOSION_CAP;

/// A compiled expression.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// The total (the whole expression unless it is a comparison).
    pub(crate) body: Node,
    /// The target of a `vs` comparison.
    pub(crate) target: Option<Node>,
    /// The dice terms, in the order they are rolled (left to right).
    pub(crate) terms: Vec<Term>,
    /// The most common shape, `term ± constants [vs constant]`, for value-only rolls that
    /// skip the walk of the tree.
    pub(crate) shortcut: Option<Shortcut>,
    /// The fraction path, for an expression holding an exact division or a decimal: it
    /// rolls and has its law in place of `body` and `target` (then a placeholder holding
    /// the bounds of the total, rounded outward).
    pub(crate) fraction: Option<Box<crate::fraction::FPlan>>,
}

/// `terms[term] + constant`, against a constant target or none: what `1d20+5`, `4d6kh3`
/// and `2d6+3 vs 9` compile to. Rolled, it draws exactly what the tree walk would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shortcut {
    pub(crate) term: usize,
    pub(crate) constant: i64,
    pub(crate) target: Option<i64>,
}

impl Shortcut {
    /// The shortcut of a body and target, if they have its shape.
    fn of(body: &Node, target: Option<&Node>) -> Option<Shortcut> {
        let (term, added) = term_plus_constant(body)?;
        let target = match target {
            None => None,
            Some(t) => Some(constant(t)?),
        };
        Some(Shortcut {
            term,
            constant: added,
            target,
        })
    }
}

/// The value of a node made of constants only (`-12`, `(3*2)`), which rolls nothing.
///
/// A chain of operators is walked down its left operands in a loop (see
/// [`Compiler::node`]).
pub(crate) fn constant(node: &Node) -> Option<i64> {
    let (mut spine, leaf) = left_chain(node, |n| match &n.op {
        Op::Bin(_, a, _) => Some(a),
        _ => None,
    });
    let mut v = match &leaf.op {
        Op::Const(c) => *c,
        Op::Neg(x) => constant(x)?.checked_neg()?,
        _ => return None,
    };
    while let Some(parent) = spine.pop() {
        if let Op::Bin(op, _, b) = &parent.op {
            v = crate::roll::apply(*op, v, constant(b)?);
        }
    }
    Some(v)
}

/// `(i, c)` when `node` is `terms[i] + c` written as a term with constants added or
/// subtracted on either side (`1d20`, `1d20+5`, `3+2d6-1`).
fn term_plus_constant(node: &Node) -> Option<(usize, i64)> {
    // The constants met on the way down to the term, added up (the bounds keep every
    // constant within ±MAX_VALUE and there are at most a few hundred, so no partial sum
    // overflows, whatever the order).
    let mut node = node;
    let mut added: i64 = 0;
    loop {
        match &node.op {
            Op::Term(i) => return Some((*i, added)),
            Op::Bin(BinOp::Add, a, b) => match (constant(a), constant(b)) {
                (None, Some(c)) => {
                    added = added.checked_add(c)?;
                    node = a;
                }
                (Some(c), None) => {
                    added = added.checked_add(c)?;
                    node = b;
                }
                _ => return None,
            },
            Op::Bin(BinOp::Sub, a, b) => {
                added = added.checked_sub(constant(b)?)?;
                node = a;
            }
            _ => return None,
        }
    }
}

/// A node of the compiled expression, with the bounds of its value.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) op: Op,
    /// Canonical text, for error messages.
    pub(crate) text: String,
    pub(crate) span: Span,
    pub(crate) lo: i64,
    pub(crate) hi: i64,
}

impl Clone for Node {
    /// A chain of operators is copied in a loop down its left operands (see
    /// [`Compiler::node`]).
    fn clone(&self) -> Self {
        let (mut spine, leaf) = left_chain(self, Node::chained_left);
        let copy = |n: &Node, op: Op| Node {
            op,
            text: n.text.clone(),
            span: n.span,
            lo: n.lo,
            hi: n.hi,
        };
        let mut acc = copy(leaf, leaf.op.clone());
        while let Some(parent) = spine.pop() {
            let op = match &parent.op {
                Op::Bin(op, _, b) => Op::Bin(*op, Box::new(acc), b.clone()),
                Op::Compare(rel, _, b) => Op::Compare(*rel, Box::new(acc), b.clone()),
                // Only the two above are chained.
                other => other.clone(),
            };
            acc = copy(parent, op);
        }
        acc
    }
}

impl Node {
    /// The left operand of a binary operator or comparison, the links of a chain that the
    /// walks over compiled nodes take in a loop ([`crate::ast::left_chain`]).
    pub(crate) fn chained_left(&self) -> Option<&Node> {
        match &self.op {
            Op::Bin(_, a, _) | Op::Compare(_, a, _) => Some(a),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Op {
    Const(i64),
    /// Index into [`Plan::terms`].
    Term(usize),
    Neg(Box<Node>),
    Bin(BinOp, Box<Node>, Box<Node>),
    Call(Func, Vec<Node>),
    /// 1 when the relation holds, else 0.
    Compare(Relation, Box<Node>, Box<Node>),
    Group(Box<GroupSpec>),
    /// Dice with a rolled count or number of sides: the count, the sides (when rolled),
    /// and the index of the [`TermKind::Computed`] term in [`Plan::terms`].
    Computed(Box<ComputedOp>),
}

/// The parts of a computed dice term that are rolled before its dice.
#[derive(Clone, Debug)]
pub(crate) struct ComputedOp {
    pub(crate) count: Node,
    pub(crate) sides: Option<Node>,
    /// The number of the success test, when it is rolled (Roll20's `3d6>[[1d4]]`).
    pub(crate) target: Option<Node>,
    pub(crate) term: usize,
}

/// A computed dice term: one pool for each number of sides it can have, whose count is
/// set when rolled; and the tree term, for the exact law's pools of each count and size.
#[derive(Clone, Debug)]
pub(crate) struct ComputedSpec {
    pub(crate) template: DiceTerm,
    /// The fewest sides (the first variant's); the die's when not rolled.
    pub(crate) sides_lo: i64,
    /// Whether the sides are rolled.
    pub(crate) rolled_sides: bool,
    /// The pool of each number of sides, from `sides_lo` up (one, for a fixed die).
    pub(crate) variants: Vec<PoolSpec>,
}

impl ComputedSpec {
    /// The dice term of `n` dice of `s` sides, with keep/drop settled for `n` dice (all
    /// kept becomes no keep): `None` when no die is kept or rolled, so the value is 0.
    pub(crate) fn variant(&self, n: i64, s: i64, target: Option<i64>) -> Option<DiceTerm> {
        let n = u32::try_from(n).ok().filter(|&n| n > 0)?;
        let mut t = self.template.clone();
        t.count = n;
        if let Some(v) = target {
            t.success = t.success.map(|c| c.with_number(v));
        }
        if self.rolled_sides {
            t.die = DieKind::Sides(u32::try_from(s).ok()?);
        }
        let kept = t.keep.kept_of(n);
        if kept == 0 {
            return None;
        }
        if kept == n {
            t.keep = dice_core::Keep::All;
        }
        Some(t)
    }
}

/// A group of values, kept or dropped, then added up or counted.
#[derive(Clone, Debug)]
pub(crate) struct GroupSpec {
    pub(crate) items: Vec<Node>,
    pub(crate) keep: Keep,
    pub(crate) select: Option<Select>,
    pub(crate) success: Option<Cmp>,
    pub(crate) failure: Option<Cmp>,
    /// Chained keep/drop steps (Avrae d20's `kh1kl1`), after `keep` and `select`.
    pub(crate) steps: Vec<crate::select::Step>,
    /// For a group keeping the dice of its one item (rpg-dice-roller's `{4d10*5d6}k2`):
    /// the indices in [`Plan::terms`] of the item's dice terms, in the order they roll.
    pub(crate) dice: Option<std::ops::Range<usize>>,
}

/// A dice term or streak, with the dice-core mechanic that rolls it when one fits.
#[derive(Clone, Debug)]
pub(crate) struct Term {
    pub(crate) text: String,
    pub(crate) span: Span,
    pub(crate) kind: TermKind,
    pub(crate) fast: Fast,
}

#[derive(Clone, Debug)]
// Built once per term when an expression is compiled; its size does not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum TermKind {
    Pool(PoolSpec),
    Streak(StreakSpec),
    Computed(ComputedSpec),
}

/// The dice-core mechanic a term compiles to.
#[derive(Clone, Debug)]
pub(crate) enum Fast {
    /// None fits: this crate rolls it and computes its law.
    None,
    /// A total (`NdS`, keep/drop, explosions; `dF` as d3 with −2 per kept die).
    Sum(Box<Sum>),
    /// A success count.
    Count(Box<SuccessPool>),
    /// A streak.
    Streak(Box<Streak>),
}

/// A pool with every modifier resolved.
#[derive(Clone, Debug)]
pub(crate) struct PoolSpec {
    pub(crate) count: u32,
    pub(crate) die: Die,
    /// Added to the dice-core face (−2 for `dF`).
    pub(crate) offset: i64,
    pub(crate) lo: i64,
    pub(crate) hi: i64,
    pub(crate) reroll: Option<(bool, Cmp)>,
    pub(crate) explode: Option<ExplodeSpec>,
    pub(crate) min: Option<i64>,
    pub(crate) max: Option<i64>,
    pub(crate) keep: Keep,
    pub(crate) success: Option<Cmp>,
    pub(crate) failure: Option<Cmp>,
    pub(crate) failure_value: bool,
    pub(crate) select: Option<Select>,
    pub(crate) reroll_add: Option<Cmp>,
    pub(crate) unique: Option<Unique>,
    pub(crate) matches: Option<Matches>,
    pub(crate) crit_success: Option<Cmp>,
    pub(crate) crit_failure: Option<Cmp>,
    pub(crate) sort: Option<Sort>,
    /// Chained keep/drop steps (Avrae d20's `8d6kh5kl2`), after `keep` and `select`.
    pub(crate) steps: Vec<crate::select::Step>,
    /// Foundry's rerolls and explosions over the whole term, in order (in place of
    /// `reroll` and `explode`).
    pub(crate) sequence: Vec<crate::sequence::SeqSpec>,
}

#[derive(Clone, Debug)]
pub(crate) struct ExplodeSpec {
    pub(crate) compound: bool,
    pub(crate) penetrate: bool,
    pub(crate) on: Cmp,
    pub(crate) cap: u32,
    pub(crate) explicit: bool,
}

/// A streak with its cap resolved.
#[derive(Clone, Debug)]
pub(crate) struct StreakSpec {
    pub(crate) die: Die,
    pub(crate) offset: i64,
    pub(crate) lo: i64,
    pub(crate) hi: i64,
    pub(crate) on: Cmp,
    pub(crate) cap: u32,
    pub(crate) explicit: bool,
}

impl GroupSpec {
    /// What a kept item of value `v` adds: its count (success minus failure) or its value.
    pub(crate) fn score(&self, v: i64) -> i64 {
        match &self.success {
            Some(s) => {
                i64::from(s.test(v)) - i64::from(self.failure.as_ref().is_some_and(|f| f.test(v)))
            }
            None => v,
        }
    }
}

impl PoolSpec {
    /// What a kept die of (clamped) value `v` adds: with a success test, 1 for a success
    /// less 1 (or, for `sf`, its value) for a failure; without one, its value, or for a
    /// failure its value negated (Foundry's `sf` alone) or −1 (Foundry's `df` alone).
    pub(crate) fn score(&self, v: i64) -> i64 {
        let failed = self.failure.as_ref().is_some_and(|f| f.test(v));
        let lost = if self.failure_value { v } else { 1 };
        match &self.success {
            Some(s) => i64::from(s.test(v)) - i64::from(failed) * lost,
            None if failed => -lost,
            None => v,
        }
    }

    /// A die's value after clamps.
    #[inline]
    pub(crate) fn clamp(&self, v: i64) -> i64 {
        let v = self.min.map_or(v, |m| v.max(m));
        self.max.map_or(v, |m| v.min(m))
    }

    /// Expected faces drawn per face kept (rerolls).
    fn reroll_factor(&self) -> u64 {
        match &self.reroll {
            None => 1,
            Some((true, _)) => 2,
            Some((false, on)) => {
                let sides = (self.hi - self.lo + 1) as u64;
                let standing = sides - on.count_in(self.lo, self.hi);
                sides.div_ceil(standing.max(1))
            }
        }
    }

    /// The most faces one roll draws (rerolls until counted at their expectation; a
    /// unique die at most once per face it could repeat).
    fn roll_budget(&self) -> u64 {
        if !self.sequence.is_empty() {
            return crate::sequence::roll_budget(self).0;
        }
        let chain = self.explode.as_ref().map_or(1, |e| u64::from(e.cap) + 1);
        let unique = match &self.unique {
            None => 1,
            Some(u) if u.once => 2,
            Some(_) => (self.hi - self.lo + 1) as u64,
        };
        let added = u64::from(self.reroll_add.is_some());
        (u64::from(self.count) * chain + added) * self.reroll_factor() * unique
    }

    /// Whether the pool's value depends on which of its faces' dice-core cannot follow
    /// (modifiers this crate rolls itself).
    pub(crate) fn own_modifiers(&self) -> bool {
        self.reroll.is_some()
            || self.min.is_some()
            || self.max.is_some()
            || self.failure.is_some()
            || self.select.is_some()
            || !self.steps.is_empty()
            || self.reroll_add.is_some()
            || self.unique.is_some()
            || self.matches.is_some()
            || self.explode.as_ref().is_some_and(|e| e.penetrate)
            || !self.sequence.is_empty()
    }

    /// The least and greatest value of the term.
    fn bounds(&self) -> (i128, i128) {
        if let Some(m) = &self.matches {
            // At most one set per value that can make one, and `least` dice per set.
            let values = (self.lo..=self.hi)
                .filter(|&v| m.passes(self.clamp(v)))
                .count();
            let sets = (self.count / m.least.max(1)).min(values as u32);
            return (0, sets.into());
        }
        let (flo, fhi) = (i128::from(self.lo), i128::from(self.hi));
        let chain = self.explode.as_ref().map_or(1, |e| i128::from(e.cap) + 1);
        let compound = self.explode.as_ref().is_some_and(|e| e.compound);
        let pen = i128::from(self.explode.as_ref().is_some_and(|e| e.penetrate));
        let (vlo, vhi) = if compound {
            (
                flo.min(flo + (chain - 1) * (flo - pen)),
                fhi.max(chain * fhi),
            )
        } else {
            (flo.min(flo - pen), fhi)
        };
        let clamp = |v: i128| {
            let v = self.min.map_or(v, |m| v.max(m.into()));
            self.max.map_or(v, |m| v.min(m.into()))
        };
        let (vlo, vhi) = (clamp(vlo), clamp(vhi));
        let (vlo, vhi) = if self.select.is_some() || !self.steps.is_empty() {
            (vlo.min(0), vhi.max(0))
        } else {
            (vlo, vhi)
        };
        let n = i128::from(self.count);
        let (nmin, nmax) = if !self.sequence.is_empty() {
            // Rerolls keep the number of dice; explosions add at most what the budget says.
            (n, i128::from(crate::sequence::roll_budget(self).1))
        } else if self.explode.is_some() && !compound {
            (n, n * chain)
        } else {
            (n, n)
        };
        let nmax = nmax + i128::from(self.reroll_add.is_some());
        let (kmin, kmax) = match self.keep {
            Keep::All => (nmin, nmax),
            Keep::Highest(k) | Keep::Lowest(k) => (k.into(), k.into()),
            Keep::DropHighest(k) | Keep::DropLowest(k) => {
                (nmin - i128::from(k), nmax - i128::from(k))
            }
        };
        if self.failure_value {
            let m = vlo.abs().max(vhi.abs()).max(1);
            return (-kmax * m, kmax * m);
        }
        if self.success.is_some() {
            let lo = if self.failure.is_some() { -kmax } else { 0 };
            return (lo, kmax);
        }
        // Foundry's `df` alone: a failure counts −1.
        let vlo = if self.failure.is_some() {
            vlo.min(-1)
        } else {
            vlo
        };
        ((kmin * vlo).min(kmax * vlo), (kmin * vhi).max(kmax * vhi))
    }
}

/// Compiles a tree parsed from `input` (the parser checked each term already).
pub(crate) fn compile(expr: &Expr, input: &str) -> Result<Plan, ParseError> {
    let mut c = Compiler {
        input,
        terms: Vec::new(),
        dice: 0,
        rolled: 0,
        dice_kept: false,
    };
    if crate::fraction::holds_fraction(expr) {
        return crate::fraction::compile(&mut c, expr);
    }
    let (body, target) = match &expr.kind {
        ExprKind::Versus(lhs, rhs) => (c.node(lhs)?, Some(c.node(rhs)?)),
        _ => (c.node(expr)?, None),
    };
    let shortcut = Shortcut::of(&body, target.as_ref());
    Ok(Plan {
        body,
        target,
        terms: c.terms,
        shortcut,
        fraction: None,
    })
}

/// Compiles one expression: its terms in order, and the dice they may roll.
pub(crate) struct Compiler<'a> {
    input: &'a str,
    pub(crate) terms: Vec<Term>,
    dice: u64,
    rolled: u64,
    /// Compiling the item of a group keeping its dice: a term's kept dice may be any of
    /// them, or none (its bounds include 0).
    dice_kept: bool,
}

impl Compiler<'_> {
    pub(crate) fn error(&self, kind: ParseErrorKind, span: Span) -> ParseError {
        ParseError::new(kind, span, self.input)
    }

    pub(crate) fn invalid(&self, msg: String, span: Span) -> ParseError {
        self.error(ParseErrorKind::Invalid(msg), span)
    }

    /// A node of the integer engine, with its bounds checked.
    ///
    /// A chain of binary operators or comparisons (`1+2-3+…`, up to about 500 long within
    /// [`crate::MAX_INPUT_LEN`]) is a left-deep tree: it is walked down its left operands
    /// in a loop and compiled back up, so that the stack grows only with the nesting of
    /// right operands, which the parser bounds ([`crate::MAX_DEPTH`]). The order is the
    /// recursive one: left operand, right operand, node.
    pub(crate) fn node(&mut self, e: &Expr) -> Result<Node, ParseError> {
        let (mut spine, leaf) = left_chain(e, |x| match &x.kind {
            ExprKind::Binary(_, a, _) | ExprKind::Compare(_, a, _) => Some(a),
            _ => None,
        });
        let mut acc = self.one_node(leaf)?;
        while let Some(parent) = spine.pop() {
            acc = self.chain_node(parent, acc)?;
        }
        Ok(acc)
    }

    /// A binary operator or comparison `e` whose left operand compiled to `a`.
    #[inline(never)]
    fn chain_node(&mut self, e: &Expr, a: Node) -> Result<Node, ParseError> {
        let (op, lo, hi) = match &e.kind {
            ExprKind::Binary(op, _, b) => {
                let b = self.node(b)?;
                self.binary_bounds(*op, a, b)?
            }
            ExprKind::Compare(rel, _, b) => {
                let b = self.node(b)?;
                (Op::Compare(*rel, Box::new(a), Box::new(b)), 0, 1)
            }
            // Only binary operators and comparisons are chained.
            _ => return self.one_node(e),
        };
        self.checked(e, op, lo, hi)
    }

    /// `a op b`, with its bounds.
    #[inline(never)]
    fn binary_bounds(&self, op: BinOp, a: Node, b: Node) -> Result<(Op, i128, i128), ParseError> {
        let op = &op;
        let (alo, ahi, blo, bhi) = (
            i128::from(a.lo),
            i128::from(a.hi),
            i128::from(b.lo),
            i128::from(b.hi),
        );
        let divides = matches!(
            op,
            BinOp::Div
                | BinOp::DivCeil
                | BinOp::DivRound
                | BinOp::DivTrunc
                | BinOp::DivExact
                | BinOp::Mod
                | BinOp::Rem
        );
        let (lo, hi) = match op {
            BinOp::Add => (alo + blo, ahi + bhi),
            BinOp::Sub => (alo - bhi, ahi - blo),
            _ if divides && blo <= 0 && bhi >= 0 => {
                return Err(self.invalid(
                    format!(
                        "the divisor `{}` can be 0 (its values lie within {}..={}); \
                         division needs a divisor that cannot be 0",
                        b.text, b.lo, b.hi
                    ),
                    b.span,
                ));
            }
            BinOp::Mod if blo > 0 => (0, bhi - 1),
            BinOp::Mod => (blo + 1, 0),
            BinOp::Rem => {
                // Below the divisor in size, with the dividend's sign.
                let m = blo.abs().max(bhi.abs()) - 1;
                (if alo < 0 { -m } else { 0 }, if ahi > 0 { m } else { 0 })
            }
            BinOp::Pow => {
                if blo < 0 {
                    return Err(self.invalid(
                        format!(
                            "the exponent `{}` can be negative (its values lie within \
                             {}..={}), which gives a fraction",
                            b.text, b.lo, b.hi
                        ),
                        b.span,
                    ));
                }
                let m = alo.abs().max(ahi.abs()).max(1);
                let bound = u32::try_from(bhi)
                    .ok()
                    .and_then(|e| m.checked_pow(e))
                    .unwrap_or(i128::MAX / 2);
                (if alo < 0 { -bound } else { 0 }, bound)
            }
            // Monotone in each operand where it keeps its sign, and the divisor's
            // range excludes 0: the extremes are at the corners. The operands are
            // i64 nodes, so a division in i64 is exact; a product is taken in i128.
            BinOp::Mul
            | BinOp::Div
            | BinOp::DivCeil
            | BinOp::DivRound
            | BinOp::DivTrunc
            | BinOp::DivExact => {
                let f = |x: i128, y: i128| {
                    if *op == BinOp::Mul {
                        x * y
                    } else {
                        i128::from(crate::roll::apply(*op, x as i64, y as i64))
                    }
                };
                let corners = [f(alo, blo), f(alo, bhi), f(ahi, blo), f(ahi, bhi)];
                (
                    *corners.iter().min().unwrap_or(&0),
                    *corners.iter().max().unwrap_or(&0),
                )
            }
        };
        Ok((Op::Bin(*op, Box::new(a), Box::new(b)), lo, hi))
    }

    /// A node that is not chained (see [`Compiler::node`]).
    #[inline(never)]
    fn one_node(&mut self, e: &Expr) -> Result<Node, ParseError> {
        let (op, lo, hi): (Op, i128, i128) = match &e.kind {
            ExprKind::Number(n) => {
                if *n > MAX_CONSTANT {
                    return Err(self.error(
                        ParseErrorKind::OutOfRange {
                            what: "number",
                            value: (*n).into(),
                            min: 0,
                            max: MAX_CONSTANT.into(),
                        },
                        e.span,
                    ));
                }
                let n = *n as i64;
                (Op::Const(n), n.into(), n.into())
            }
            ExprKind::Dice(t) => {
                let (i, lo, hi) = self.dice(t, e)?;
                (Op::Term(i), lo, hi)
            }
            ExprKind::Streak(t) => {
                let (i, lo, hi) = self.streak(t, e)?;
                (Op::Term(i), lo, hi)
            }
            ExprKind::Neg(x) => {
                let x = self.node(x)?;
                let (lo, hi) = (-i128::from(x.hi), -i128::from(x.lo));
                (Op::Neg(Box::new(x)), lo, hi)
            }
            ExprKind::Binary(..) | ExprKind::Compare(..) => {
                // Chained: walked by `node`.
                return self.node(e);
            }
            ExprKind::Call(func, args) if func.is_unary() => {
                let [arg] = args.as_slice() else {
                    return Err(self.invalid(format!("`{func}` takes one argument"), e.span));
                };
                let x = self.node(arg)?;
                if func.is_rounding() {
                    // A whole argument (a fraction takes the fraction path) is its own
                    // rounding.
                    return Ok(x);
                }
                let (lo, hi) = (i128::from(x.lo), i128::from(x.hi));
                let (lo, hi) = match func {
                    Func::Abs if lo >= 0 => (lo, hi),
                    Func::Abs if hi <= 0 => (-hi, -lo),
                    Func::Abs => (0, hi.max(-lo)),
                    _ => (lo.signum(), hi.signum()),
                };
                (Op::Call(*func, vec![x]), lo, hi)
            }
            ExprKind::Group(g) => self.group(g, e)?,
            ExprKind::Computed(c) => self.computed(c, e)?,
            ExprKind::Call(func, args) => {
                if args.len() < 2 {
                    return Err(
                        self.invalid(format!("`{func}` needs at least two arguments"), e.span)
                    );
                }
                let nodes = args
                    .iter()
                    .map(|a| self.node(a))
                    .collect::<Result<Vec<_>, _>>()?;
                let los = nodes.iter().map(|n| n.lo);
                let his = nodes.iter().map(|n| n.hi);
                let (lo, hi) = match func {
                    Func::Min => (los.min(), his.min()),
                    _ => (los.max(), his.max()),
                };
                let (lo, hi) = (lo.unwrap_or(0).into(), hi.unwrap_or(0).into());
                (Op::Call(*func, nodes), lo, hi)
            }
            ExprKind::Versus(..) => {
                return Err(self.invalid(
                    "`vs` compares the whole expression with a target; it can only be the \
                     outermost operation"
                        .into(),
                    e.span,
                ));
            }
        };
        self.checked(e, op, lo, hi)
    }

    /// The node of `e`, once its bounds are checked against [`MAX_VALUE`].
    #[inline(never)]
    fn checked(&self, e: &Expr, op: Op, lo: i128, hi: i128) -> Result<Node, ParseError> {
        let text = e.to_string();
        for v in [lo, hi] {
            if v.abs() > i128::from(MAX_VALUE) {
                return Err(self.invalid(
                    format!(
                        "`{text}` could reach {v}, beyond the ±{MAX_VALUE} that expressions may \
                         compute with"
                    ),
                    e.span,
                ));
            }
        }
        Ok(Node {
            op,
            text,
            span: e.span,
            lo: lo as i64,
            hi: hi as i64,
        })
    }

    /// Adds a term's dice to the expression's totals.
    fn count_dice(&mut self, dice: u64, rolled: u64, span: Span) -> Result<(), ParseError> {
        self.dice = self.dice.saturating_add(dice);
        self.rolled = self.rolled.saturating_add(rolled);
        if self.dice > u64::from(MAX_DICE) {
            return Err(self.error(
                ParseErrorKind::OutOfRange {
                    what: "dice in the expression",
                    value: self.dice.into(),
                    min: 1,
                    max: MAX_DICE.into(),
                },
                span,
            ));
        }
        if self.rolled > MAX_ROLLED {
            return Err(self.invalid(
                format!(
                    "one roll of this expression could roll about {} dice (explosions and \
                     rerolls included), more than {MAX_ROLLED}: give a smaller cap (`!cap10`) or \
                     fewer dice",
                    self.rolled
                ),
                span,
            ));
        }
        Ok(())
    }

    fn group(&mut self, g: &GroupTerm, e: &Expr) -> Result<(Op, i128, i128), ParseError> {
        let first = self.terms.len();
        let outer = std::mem::replace(&mut self.dice_kept, g.dice);
        let items = g
            .items
            .iter()
            .map(|a| self.node(a))
            .collect::<Result<Vec<_>, _>>();
        self.dice_kept = outer;
        let items = items?;
        let terms = first..self.terms.len();
        let n = items.len() as i128;
        let (lo, hi) = if g.success.is_some() {
            (if g.failure.is_some() { -n } else { 0 }, n)
        } else {
            let lo: i128 = items.iter().map(|i| i128::from(i.lo.min(0))).sum();
            let hi: i128 = items.iter().map(|i| i128::from(i.hi.max(0))).sum();
            (lo, hi)
        };
        if let Some(x) = &g.failure {
            if g.success.is_none() {
                return Err(self.invalid(
                    format!("failures (`f{x}`) are subtracted from a success count"),
                    e.span,
                ));
            }
        }
        if g.dice {
            // The item's value with the dice kept: its bounds, with every term's from 0.
            let (lo, hi) = items
                .first()
                .map_or((0, 0), |i| (i128::from(i.lo), i128::from(i.hi)));
            let spec = GroupSpec {
                items,
                keep: g.keep,
                select: None,
                success: None,
                failure: None,
                steps: Vec::new(),
                dice: Some(terms),
            };
            return Ok((Op::Group(Box::new(spec)), lo, hi));
        }
        let spec = GroupSpec {
            items,
            keep: g.keep,
            select: g.select.clone(),
            success: g.success.clone(),
            failure: g.failure.clone(),
            steps: g.steps.clone(),
            dice: None,
        };
        Ok((Op::Group(Box::new(spec)), lo, hi))
    }

    fn dice(&mut self, t: &DiceTerm, e: &Expr) -> Result<(usize, i128, i128), ParseError> {
        let spec = pool_spec(t);
        self.count_dice(t.count.into(), spec.roll_budget(), e.span)?;
        let (lo, hi) = spec.bounds();
        let (lo, hi) = if self.dice_kept {
            (lo.min(0), hi.max(0))
        } else {
            (lo, hi)
        };
        let fast = fast_pool(&spec);
        self.terms.push(Term {
            text: e.to_string(),
            span: e.span,
            kind: TermKind::Pool(spec),
            fast,
        });
        Ok((self.terms.len() - 1, lo, hi))
    }

    /// A computed dice term (`(1d4)d8`, `2d(1d4+2)`): the count and sides are checked by
    /// their bounds (a count within `0..=MAX_DICE`, sides within `1..=MAX_SIDES`, one side
    /// only without modifiers), and the term's dice as if the most were rolled.
    fn computed(&mut self, c: &ComputedDice, e: &Expr) -> Result<(Op, i128, i128), ParseError> {
        let count = self.node(&c.count)?;
        let sides = c.sides.as_ref().map(|s| self.node(s)).transpose()?;
        let target = c.target.as_ref().map(|t| self.node(t)).transpose()?;
        if let Some(t) = &target {
            let most = i64::try_from(MAX_CONSTANT).unwrap_or(i64::MAX);
            if t.lo < -most || t.hi > most {
                return Err(self.error(
                    ParseErrorKind::OutOfRange {
                        what: "success target (as rolled)",
                        value: if t.lo < -most { t.lo } else { t.hi }.into(),
                        min: -i128::from(most),
                        max: most.into(),
                    },
                    t.span,
                ));
            }
        }
        if count.lo < 0 || count.hi > i64::from(MAX_DICE) {
            return Err(self.error(
                ParseErrorKind::OutOfRange {
                    what: "number of dice (as rolled)",
                    value: if count.lo < 0 { count.lo } else { count.hi }.into(),
                    min: 0,
                    max: MAX_DICE.into(),
                },
                count.span,
            ));
        }
        let plain = DiceTerm::new(c.term.count, c.term.die) == c.term;
        let (sides_lo, sides_hi) = match &sides {
            Some(s) => {
                let least = if plain { 1 } else { dice_core::MIN_SIDES };
                if s.lo < i64::from(least) || s.hi > i64::from(crate::MAX_SIDES) {
                    return Err(self.error(
                        ParseErrorKind::OutOfRange {
                            what: if plain || s.lo >= 1 {
                                "sides (as rolled)"
                            } else {
                                "sides (as rolled; a die of one side takes no modifiers)"
                            },
                            value: if s.lo < i64::from(least) { s.lo } else { s.hi }.into(),
                            min: least.into(),
                            max: crate::MAX_SIDES.into(),
                        },
                        s.span,
                    ));
                }
                (s.lo, s.hi)
            }
            None => {
                let n = i64::from(c.term.die.sides());
                (n, n)
            }
        };
        // Every size of die with the most dice must be a valid term (unique dice with more
        // dice than faces, a keep of more dice than can be rolled …).
        let most = u32::try_from(count.hi).unwrap_or(MAX_DICE).max(1);
        let mut variants = Vec::new();
        let (mut lo, mut hi) = (i128::MAX, i128::MIN);
        let mut budget = 0;
        for s in sides_lo..=sides_hi {
            let t = c.template_with(most, s, sides.is_some());
            if s == 1 {
                // One side, no modifiers: n dice show n.
                variants.push(pool_spec(&DiceTerm::new(most, DieKind::Sides(2))));
                lo = lo.min(count.lo.into());
                hi = hi.max(count.hi.into());
                continue;
            }
            crate::parse::check_term(&t, e.span).map_err(|(k, span)| self.error(k, span))?;
            let spec = pool_spec(&t);
            budget = budget.max(spec.roll_budget());
            // The kept count is piecewise linear in the count (a bend at the k of keep):
            // the extremes are at the ends and the bend.
            let k = i64::from(keep_k(t.keep));
            for n in [count.lo, count.hi, k.clamp(count.lo, count.hi)] {
                let Ok(n) = u32::try_from(n) else { continue };
                let kept = t.keep.kept_of(n);
                let (a, b) = if n == 0 || kept == 0 {
                    (0, 0)
                } else {
                    let mut v = spec.clone();
                    v.count = n;
                    if kept == n {
                        v.keep = dice_core::Keep::All;
                    }
                    v.bounds()
                };
                lo = lo.min(a);
                hi = hi.max(b);
            }
            variants.push(spec);
        }
        self.count_dice(most.into(), budget, e.span)?;
        let template = c.term.clone();
        self.terms.push(Term {
            text: e.to_string(),
            span: e.span,
            kind: TermKind::Computed(ComputedSpec {
                template,
                sides_lo,
                rolled_sides: sides.is_some(),
                variants,
            }),
            fast: Fast::None,
        });
        let op = ComputedOp {
            count,
            sides,
            target,
            term: self.terms.len() - 1,
        };
        Ok((Op::Computed(Box::new(op)), lo, hi))
    }
}

impl ComputedDice {
    /// The dice term of `n` dice of `s` sides (the die's own when `rolled` is false).
    fn template_with(&self, n: u32, s: i64, rolled: bool) -> DiceTerm {
        let mut t = self.term.clone();
        t.count = n;
        if rolled {
            t.die = DieKind::Sides(u32::try_from(s).unwrap_or(2));
        }
        t
    }
}

/// The number of dice a keep or drop names (0 for none).
fn keep_k(keep: Keep) -> u32 {
    match keep {
        Keep::All => 0,
        Keep::Highest(k) | Keep::Lowest(k) | Keep::DropHighest(k) | Keep::DropLowest(k) => k,
    }
}

/// A dice term's pool with every modifier resolved (the parser checked the term).
pub(crate) fn pool_spec(t: &DiceTerm) -> PoolSpec {
    {
        let (die, offset) = core_die(t.die);
        let (lo, hi) = t.die.faces();
        let mut spec = PoolSpec {
            count: t.count,
            die,
            offset,
            lo,
            hi,
            reroll: t.reroll.as_ref().map(|r| (r.once, r.on.clone())),
            explode: t.explode.as_ref().map(|x| ExplodeSpec {
                compound: x.compound,
                penetrate: x.penetrate,
                on: x.on.clone(),
                cap: x.cap.unwrap_or(DEFAULT_CAP),
                explicit: x.cap.is_some(),
            }),
            min: t.min,
            max: t.max,
            keep: t.keep,
            success: t.success.clone(),
            failure: t.failure.clone(),
            failure_value: t.failure_value,
            select: t.select.clone(),
            reroll_add: t.reroll_add.clone(),
            unique: t.unique.clone(),
            matches: t.matches.clone(),
            crit_success: t.crit_success.clone(),
            crit_failure: t.crit_failure.clone(),
            sort: t.sort,
            steps: t.steps.clone(),
            sequence: Vec::new(),
        };
        spec.sequence = crate::sequence::specs(&t.sequence, &spec);
        // Without a cap, a roll stops only where going on is less likely than dice-core's
        // UNCAPPED_CUT_MASS, so rolls draw the untruncated law the exact odds list.
        let going_on = crate::exact::explode_chance(&spec);
        if let Some(x) = spec.explode.as_mut().filter(|x| !x.explicit) {
            x.cap = dice_core::uncapped_roll_cap(going_on);
        }
        spec
    }
}

impl Compiler<'_> {
    fn streak(&mut self, t: &StreakTerm, e: &Expr) -> Result<(usize, i128, i128), ParseError> {
        let (die, offset) = core_die(t.die);
        let (lo, hi) = t.die.faces();
        let mut spec = StreakSpec {
            die,
            offset,
            lo,
            hi,
            on: t.on.clone(),
            cap: t.cap.unwrap_or(DEFAULT_CAP),
            explicit: t.cap.is_some(),
        };
        if !spec.explicit {
            spec.cap = dice_core::uncapped_roll_cap(crate::exact::streak_chance(&spec));
        }
        self.count_dice(1, u64::from(spec.cap) + 1, e.span)?;
        let fast = fast_streak(&spec);
        let cap = spec.cap;
        self.terms.push(Term {
            text: e.to_string(),
            span: e.span,
            kind: TermKind::Streak(spec),
            fast,
        });
        Ok((self.terms.len() - 1, 0, cap.into()))
    }
}

/// The dice-core die of a checked die kind.
fn core_die(kind: DieKind) -> (Die, i64) {
    // Checked already: a die kind's sides are within dice-core's range.
    kind.core_die().unwrap_or((Die::D6, 0))
}

/// The dice-core mechanic that rolls the pool exactly as this crate's semantics say, if any.
pub(crate) fn fast_pool(p: &PoolSpec) -> Fast {
    if p.own_modifiers() {
        return Fast::None;
    }
    // A `dF` is a d3 minus 2; with explosions the number of dice (and so of −2s) varies.
    if p.offset != 0 && p.explode.is_some() {
        return Fast::None;
    }
    let Ok(mut pool) = Pool::new(p.count, p.die) else {
        return Fast::None;
    };
    if let Some(e) = &p.explode {
        let Some(on) = e.on.to_core(p.offset) else {
            return Fast::None;
        };
        let mut explode = if e.compound {
            Explode::compounding(on)
        } else {
            Explode::new(on)
        };
        if e.explicit {
            let Ok(capped) = explode.with_cap(e.cap) else {
                return Fast::None;
            };
            explode = capped;
        }
        let Ok(exploding) = pool.exploding(explode) else {
            return Fast::None;
        };
        pool = exploding;
    }
    match &p.success {
        None => {
            let kept = i64::from(p.keep.kept_of(p.count));
            Sum::new(pool, p.keep, p.offset * kept).map_or(Fast::None, |s| Fast::Sum(Box::new(s)))
        }
        Some(success) => {
            if p.keep != Keep::All {
                return Fast::None;
            }
            let Some(test) = success.to_core(p.offset) else {
                return Fast::None;
            };
            // A test every face passes lets dice-core count without rolling; the record
            // would roll, and the two paths must draw the same numbers.
            if p.explode.is_none() && test.faces_passing(p.die.sides()) == p.die.sides() {
                return Fast::None;
            }
            Fast::Count(Box::new(SuccessPool::new(pool, test)))
        }
    }
}

fn fast_streak(s: &StreakSpec) -> Fast {
    let faces: Vec<u32> = (1..=s.die.sides())
        .filter(|&f| s.on.test(i64::from(f) + s.offset))
        .collect();
    let Ok(set) = FaceSet::new(faces) else {
        return Fast::None;
    };
    let streak = if s.explicit {
        Streak::capped(s.die, set, 0, s.cap)
    } else {
        Streak::new(s.die, set, 0)
    };
    streak.map_or(Fast::None, |s| Fast::Streak(Box::new(s)))
}
