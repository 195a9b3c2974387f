//! Exact distributions: dice-core's laws for the terms that compiled onto dice-core, this
//! crate's own for the rest, and `Dist` operations for the arithmetic.
//!
//! Every computation estimates its work before doing it and gives up with
//! [`NotationError::TooComplex`] beyond [`MAX_EXACT_WORK`] steps or [`MAX_LISTED`] listed
//! outcomes, so asking for exact odds never hangs.

use std::collections::HashMap;

use dice_core::{
    CAPPED_LISTING_TOLERANCE, Dist, Exact, Keep, Sum, Versus, VersusTarget, WHOLE_LISTING_MAX,
};

use crate::ast::{BinOp, Func};
use crate::compile::{
    ComputedOp, ExplodeSpec, Fast, GroupSpec, Node, Op, Plan, PoolSpec, StreakSpec, Term, TermKind,
    fast_pool, pool_spec,
};
use crate::error::NotationError;
use crate::roll::{Outcome, apply};
use crate::{MAX_EXACT_WORK, MAX_LISTED};

mod dice_group;
mod sequence;

/// The unlisted mass an untruncated explosion or streak may leave (dice-core's default).
const TOLERANCE: f64 = dice_core::DEFAULT_TAIL_TOLERANCE;

/// Why a computation failed, before the term at fault is attached.
#[derive(Debug)]
pub(crate) enum Fail {
    /// Estimated work, and the limit it exceeds.
    TooComplex(u64, u64),
    Unsupported(&'static str),
    Core(dice_core::Error),
}

impl From<dice_core::Error> for Fail {
    fn from(e: dice_core::Error) -> Fail {
        match e {
            dice_core::Error::TooComplex { work, max, .. } => Fail::TooComplex(work, max),
            dice_core::Error::Unsupported { what } => Fail::Unsupported(what),
            other => Fail::Core(other),
        }
    }
}

impl Fail {
    pub(crate) fn at(self, text: &str, span: crate::Span) -> NotationError {
        let term = text.to_owned();
        match self {
            Fail::TooComplex(work, max) => NotationError::TooComplex {
                term,
                span,
                work,
                max,
            },
            Fail::Unsupported(what) => NotationError::Unsupported { term, span, what },
            Fail::Core(source) => NotationError::Core { term, span, source },
        }
    }
}

/// Work spent so far, against [`MAX_EXACT_WORK`].
pub(crate) struct Budget {
    pub(crate) spent: f64,
}

impl Budget {
    /// Fails if `work` more would exceed the limit, without spending it (for an estimate of
    /// work that is charged step by step later).
    pub(crate) fn afford(&self, work: f64) -> Result<(), Fail> {
        if self.spent + work > MAX_EXACT_WORK as f64 {
            return Err(Fail::TooComplex(
                (self.spent + work).min(u64::MAX as f64) as u64,
                MAX_EXACT_WORK,
            ));
        }
        Ok(())
    }

    /// The budget units left (at least 1).
    pub(crate) fn left(&self) -> u64 {
        (MAX_EXACT_WORK as f64 - self.spent).max(1.0) as u64
    }

    /// A dice-core error from work given [`Budget::left`]: a refusal for cost counts what
    /// this expression had spent before, against its whole budget.
    pub(crate) fn spent_with(&self, e: dice_core::Error) -> Fail {
        match e {
            dice_core::Error::TooComplex { work, .. } => Fail::TooComplex(
                (self.spent + work as f64).min(u64::MAX as f64) as u64,
                MAX_EXACT_WORK,
            ),
            other => Fail::from(other),
        }
    }

    pub(crate) fn charge(&mut self, work: f64) -> Result<(), Fail> {
        self.spent += work;
        if self.spent > MAX_EXACT_WORK as f64 {
            return Err(Fail::TooComplex(
                self.spent.min(u64::MAX as f64) as u64,
                MAX_EXACT_WORK,
            ));
        }
        Ok(())
    }
}

pub(crate) fn check_listed(n: f64) -> Result<(), Fail> {
    if n > MAX_LISTED as f64 {
        return Err(Fail::TooComplex(
            n.min(u64::MAX as f64) as u64,
            MAX_LISTED as u64,
        ));
    }
    Ok(())
}

/// An upper bound on the work of the combinations (`*`, `/`, `min`, `max`, and sums too
/// wide for a dense convolution) in `node`, and on how many outcomes its law lists, from the
/// value bounds the compiler proved: checked before any law is computed, so an expression
/// whose combinations would take too long is refused at once rather than after seconds of
/// work. A combination's pairs are bounded by the product of its operands' listed outcomes,
/// and a node's outcomes by its pairs and by its value range.
pub(crate) fn combination_bound(node: &Node) -> (f64, f64) {
    let range = (node.hi as f64) - (node.lo as f64) + 1.0;
    let pair_cost = if range < MAX_LISTED as f64 {
        DENSE_PAIR_COST
    } else {
        HASHED_PAIR_COST
    };
    match &node.op {
        Op::Const(_) => (1.0, 0.0),
        Op::Term(_) => (range, 0.0),
        // A mixture of pools: their cost is estimated when the count's and sides' laws are
        // known (`computed_law`).
        Op::Computed(c) => {
            let (_, wc) = combination_bound(&c.count);
            let ws = c.sides.as_ref().map_or(0.0, |s| combination_bound(s).1);
            let wt = c.target.as_ref().map_or(0.0, |t| combination_bound(t).1);
            (range, wc + ws + wt)
        }
        Op::Neg(x) => combination_bound(x),
        Op::Bin(op, x, y) => {
            let ((nx, wx), (ny, wy)) = (combination_bound(x), combination_bound(y));
            let pairs = nx * ny;
            let own = match op {
                // Dense convolution (charged as it goes) unless the span is too wide.
                BinOp::Add | BinOp::Sub if range <= MAX_LISTED as f64 => 0.0,
                _ if nx <= 1.0 || ny <= 1.0 => 0.0,
                _ => pairs * pair_cost,
            };
            (pairs.min(range), wx + wy + own)
        }
        Op::Compare(_, x, y) => {
            let ((nx, wx), (ny, wy)) = (combination_bound(x), combination_bound(y));
            let own = if range <= MAX_LISTED as f64 || nx <= 1.0 || ny <= 1.0 {
                0.0
            } else {
                nx * ny * pair_cost
            };
            (2.0, wx + wy + own)
        }
        Op::Group(g) => {
            let parts: Vec<(f64, f64)> = g.items.iter().map(combination_bound).collect();
            let work: f64 = parts.iter().map(|p| p.1).sum();
            let (listed, own) = group_bound(g, &parts);
            (listed.min(range), work + own.min(f64::MAX))
        }
        Op::Call(_, args) => {
            let mut acc: Option<(f64, f64)> = None;
            for a in args {
                let (n, w) = combination_bound(a);
                acc = Some(match acc {
                    None => (n, w),
                    // min/max from the two laws' cumulative sums: one pass over both.
                    Some((m, v)) => ((m + n).min(range), v + w + (m + n) * MIN_MAX_COST),
                });
            }
            acc.unwrap_or((1.0, 0.0))
        }
    }
}

/// How many outcomes a group's law lists, and an upper bound on the work of [`group_law`]
/// beyond its items' own, given each item's (listed outcomes, work) from
/// [`combination_bound`]: each of its paths charged for what it does. Only chained steps
/// visit every joint outcome of the items (the product of their outcome counts); a sum
/// adds the items' laws one at a time, keeping one of them takes the running minimum or
/// maximum, alike items take dice-core's order statistics over one law, and differing
/// items keep the sorted `k` best values so far (at most the multisets of `k` of the
/// values seen).
fn group_bound(g: &GroupSpec, parts: &[(f64, f64)]) -> (f64, f64) {
    let n = g.items.len() as u32;
    let listed: Vec<f64> = parts.iter().map(|p| p.0.max(1.0)).collect();
    let joint: f64 = listed.iter().product();
    if g.dice.is_some() || n <= 1 && g.steps.is_empty() {
        // One item (or its dice, whose cases `dice_group_law` charges before it lists them).
        return (joint, 0.0);
    }
    if !g.steps.is_empty() {
        let steps = g.steps.len() as f64 + 2.0;
        return (
            joint,
            joint * (f64::from(n) + 1.0) * steps * HASHED_PAIR_COST,
        );
    }
    let (_, k) = g.keep.as_top(n);
    let counts = g.success.is_some();
    if k == n {
        // The items' (scored) laws added up one at a time, as `add` does.
        let (mut acc_n, mut acc_span, mut own) = (1.0f64, 1.0f64, 0.0);
        for (a, &ni) in g.items.iter().zip(&listed) {
            let (ni, si) = if counts {
                (ni.min(3.0), 3.0)
            } else {
                let (lo, hi) = (a.lo.min(0) as f64, a.hi.max(0) as f64);
                (ni + 1.0, hi - lo + 1.0)
            };
            own += if acc_span + si <= MAX_LISTED as f64 {
                acc_span.max(si) * acc_n.min(ni)
            } else {
                acc_n * ni * HASHED_PAIR_COST
            };
            acc_span += si - 1.0;
            acc_n = (acc_n * ni).min(acc_span);
        }
        return (acc_n, own);
    }
    if g.select.is_some() || k == 0 {
        return (1.0, 0.0);
    }
    let scored = |m: f64| if counts { m.min(3.0) } else { m };
    if same_items(g) {
        // dice-core's order statistics over one law (which checks its own work too).
        let l = listed[0];
        return (scored(joint), f64::from(n) * f64::from(k) * l * 64.0);
    }
    if k == 1 {
        let (mut acc, mut own) = (listed[0], 0.0);
        for &m in &listed[1..] {
            own += (acc + m) * MIN_MAX_COST;
            acc += m;
        }
        return (scored(acc), own);
    }
    // The sorted `k` best values so far: at most the joint outcomes of the items seen, and
    // at most the multisets of `min(i, k)` of the values they list.
    let (mut seen, mut values, mut own) = (1.0f64, 0.0f64, 0.0);
    for (i, &m) in listed.iter().enumerate() {
        let states = seen.min(crate::select::multisets((i as u32).min(k), values as usize));
        own += states * m * (f64::from(k) + 1.0) * HASHED_PAIR_COST;
        seen *= m;
        values += m;
    }
    (scored(seen), own)
}

/// Whether a group's items are one expression written alike (independent rolls of one law).
fn same_items(g: &GroupSpec) -> bool {
    g.items.windows(2).all(|w| w[0].text == w[1].text)
}

/// The exact law of a plan.
pub(crate) fn distribution(plan: &Plan) -> Result<Dist<Outcome>, NotationError> {
    let mut b = Budget { spent: 0.0 };
    for node in core::iter::once(&plan.body).chain(&plan.target) {
        let (_, work) = combination_bound(node);
        b.afford(work).map_err(|f| f.at(&node.text, node.span))?;
    }
    let Some(target) = &plan.target else {
        return Ok(node_law(&plan.body, plan, &mut b)?.map(|&v| Outcome::Number(v)));
    };
    if let Some((v, term)) = versus_target(&plan.body, target, plan) {
        let at = |e: Fail| e.at(&plan.body.text, plan.body.span);
        b.charge(core_cost(term)).map_err(at)?;
        let d = v.distribution().map_err(|e| at(Fail::from(e)))?;
        return Ok(d.map(|&v| Outcome::Versus(v)));
    }
    let total = node_law(&plan.body, plan, &mut b)?;
    let goal = node_law(target, plan, &mut b)?;
    let versus = match certain(&goal) {
        Some(c) => total.map(|&t| Versus::of(t, c)),
        None => {
            let span = plan.body.span.join(target.span);
            let text = format!("{} vs {}", plan.body.text, target.text);
            add(&total, &goal, true, &mut b)
                .map_err(|f| f.at(&text, span))?
                .map(|&d| Versus::of(d, 0))
        }
    };
    Ok(versus.map(|&v| Outcome::Versus(v)))
}

/// `NdS… (± c) vs c'`: dice-core's [`VersusTarget`], when the total is one dice-core sum
/// plus or minus constants.
fn versus_target<'a>(
    body: &Node,
    target: &Node,
    plan: &'a Plan,
) -> Option<(VersusTarget, &'a Term)> {
    let Op::Const(goal) = target.op else {
        return None;
    };
    let (term, modifier) = sum_plus_constant(body, plan)?;
    let Fast::Sum(sum) = &term.fast else {
        return None;
    };
    let sum = Sum::new(sum.pool().clone(), sum.keep(), sum.modifier() + modifier).ok()?;
    Some((VersusTarget::new(sum, goal).ok()?, term))
}

fn sum_plus_constant<'a>(node: &Node, plan: &'a Plan) -> Option<(&'a Term, i64)> {
    match &node.op {
        Op::Term(i) => match &plan.terms[*i].fast {
            Fast::Sum(_) => Some((&plan.terms[*i], 0)),
            _ => None,
        },
        Op::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            if let Op::Const(c) = b.op {
                let (s, m) = sum_plus_constant(a, plan)?;
                return Some((s, m + sign * c));
            }
            if let (Op::Const(c), BinOp::Add) = (&a.op, op) {
                let (s, m) = sum_plus_constant(b, plan)?;
                return Some((s, m + c));
            }
            None
        }
        _ => None,
    }
}

fn certain(d: &Dist<i64>) -> Option<i64> {
    (d.len() == 1 && d.tail() == 0.0).then(|| d.outcomes()[0])
}

/// The law of a node. A chain of operators (`1d6+1d6-…`, a left-deep tree up to about 500
/// long) is walked down its left operands in a loop and combined back up, left operand
/// first as in recursion, so that the stack grows only with the nesting of right operands.
pub(crate) fn node_law(
    node: &Node,
    plan: &Plan,
    b: &mut Budget,
) -> Result<Dist<i64>, NotationError> {
    let (mut spine, leaf) = crate::ast::left_chain(node, Node::chained_left);
    let mut d = one_law(leaf, plan, b)?;
    while let Some(parent) = spine.pop() {
        d = chain_law_of(parent, d, plan, b)?;
    }
    Ok(d)
}

/// The law of a binary operator or comparison whose left operand has the law `dx`.
#[inline(never)]
fn chain_law_of(
    node: &Node,
    dx: Dist<i64>,
    plan: &Plan,
    b: &mut Budget,
) -> Result<Dist<i64>, NotationError> {
    let at = |f: Fail| f.at(&node.text, node.span);
    match &node.op {
        Op::Bin(op, _, y) => {
            let dy = node_law(y, plan, b)?;
            binary(*op, &dx, &dy, (node.lo, node.hi), b).map_err(at)
        }
        Op::Compare(rel, _, y) => {
            let dy = node_law(y, plan, b)?;
            let rel = *rel;
            if let Some(c) = certain(&dy) {
                return Ok(dx.map(|&v| i64::from(rel.holds(v, c))));
            }
            let diff = add(&dx, &dy, true, b).map_err(at)?;
            Ok(diff.map(|&d| i64::from(rel.holds(d, 0))))
        }
        // Only the two above are chained.
        _ => one_law(node, plan, b),
    }
}

/// The law of a node that is not chained (see [`node_law`]).
#[inline(never)]
fn one_law(node: &Node, plan: &Plan, b: &mut Budget) -> Result<Dist<i64>, NotationError> {
    let at = |f: Fail| f.at(&node.text, node.span);
    match &node.op {
        Op::Const(c) => Ok(Dist::certain(*c)),
        Op::Term(i) => term_law(&plan.terms[*i], b).map_err(at),
        Op::Neg(x) => Ok(node_law(x, plan, b)?.map(|&v| -v)),
        Op::Bin(..) | Op::Compare(..) => node_law(node, plan, b),
        Op::Group(g) => group_law(g, node, plan, b),
        Op::Computed(c) => computed_law(c, node, plan, b),
        Op::Call(func, args) if func.is_unary() => {
            let d = match args.first() {
                Some(a) => node_law(a, plan, b)?,
                None => Dist::certain(0),
            };
            Ok(match func {
                Func::Abs => d.map(|&v| v.saturating_abs()),
                _ => d.map(|&v| v.signum()),
            })
        }
        Op::Call(func, args) => {
            let mut acc: Option<Dist<i64>> = None;
            for a in args {
                let d = node_law(a, plan, b)?;
                acc = Some(match acc {
                    None => d,
                    Some(m) => min_max(&m, &d, *func == Func::Max, b).map_err(at)?,
                });
            }
            Ok(acc.unwrap_or_else(|| Dist::certain(0)))
        }
    }
}

/// The law of `x op y`; `bounds` are the node's, as the compiler proved them.
fn binary(
    op: BinOp,
    x: &Dist<i64>,
    y: &Dist<i64>,
    bounds: (i64, i64),
    b: &mut Budget,
) -> Result<Dist<i64>, Fail> {
    if let Some(c) = certain(y) {
        return Ok(x.map(|&v| apply(op, v, c)));
    }
    if let Some(c) = certain(x) {
        return Ok(y.map(|&v| apply(op, c, v)));
    }
    match op {
        BinOp::Add => add(x, y, false, b),
        BinOp::Sub => add(x, y, true, b),
        // The product written out (apply's arm for it), so that the pair loop inlines it.
        BinOp::Mul => {
            let f = |v: i64, w: i64| v.saturating_mul(w);
            let range = corner_range(x, y, &f);
            combine(x, y, f, range, b)
        }
        BinOp::Div | BinOp::DivCeil | BinOp::DivRound | BinOp::DivTrunc | BinOp::DivExact => {
            let f = |v, w| apply(op, v, w);
            let range = corner_range(x, y, &f);
            combine(x, y, f, range, b)
        }
        // Not monotone: the compiler's bounds.
        BinOp::Mod | BinOp::Rem | BinOp::Pow => {
            combine(x, y, |v, w| apply(op, v, w), Some(bounds), b)
        }
    }
}

/// The law of a group: its items' laws (independent), kept or dropped by value, then added
/// up or counted. Items with one law (`{4d6kh3, 4d6kh3}kh1`) use dice-core's order
/// statistics over that law; otherwise keeping all or one (highest or lowest), and
/// selections, are computed item by item.
fn group_law(
    g: &GroupSpec,
    node: &Node,
    plan: &Plan,
    b: &mut Budget,
) -> Result<Dist<i64>, NotationError> {
    let at = |f: Fail| f.at(&node.text, node.span);
    if let Some(dice) = &g.dice {
        return dice_group::dice_group_law(g, dice.clone(), plan, b).map_err(at);
    }
    let laws = g
        .items
        .iter()
        .map(|a| node_law(a, plan, b))
        .collect::<Result<Vec<_>, _>>()?;
    let n = laws.len() as u32;
    let score = |v: i64| g.score(v);
    if !g.steps.is_empty() {
        return chained_group_law(g, &laws, b).map_err(at);
    }
    let (top, k) = g.keep.as_top(n);
    let sum_of = |mapped: Vec<Dist<i64>>, b: &mut Budget| -> Result<Dist<i64>, Fail> {
        let mut acc = Dist::certain(0);
        for d in &mapped {
            acc = add(&acc, d, false, b)?;
        }
        Ok(acc)
    };
    if k == n {
        // Every item kept (a selection drops by its own test, item by item).
        let mapped = laws
            .iter()
            .map(|d| {
                d.map(|&v| match &g.select {
                    Some(sel) if !sel.stays(v) => 0,
                    _ => score(v),
                })
            })
            .collect();
        return sum_of(mapped, b).map_err(at);
    }
    if g.select.is_some() {
        return Err(at(Fail::Unsupported(
            "a selection together with keep/drop in a group",
        )));
    }
    if k == 0 {
        return Ok(Dist::certain(0));
    }
    if same_items(g) {
        b.afford(f64::from(n) * f64::from(k) * laws[0].len() as f64 * 64.0)
            .map_err(at)?;
        return laws[0]
            .kept_score(n, g.keep, score)
            .map_err(|e| at(Fail::from(e)));
    }
    if k == 1 {
        let mut acc = laws[0].clone();
        for d in &laws[1..] {
            acc = min_max(&acc, d, top, b).map_err(at)?;
        }
        return Ok(acc.map(|&v| score(v)));
    }
    // Items that differ: the law of the k best values so far, item by item (a state is the
    // sorted list of the values kept so far).
    let mut states: HashMap<Vec<i64>, f64> = HashMap::new();
    states.insert(Vec::new(), 1.0);
    for d in &laws {
        let work = states.len() as f64 * d.len() as f64 * (f64::from(k) + 1.0);
        b.charge(work * HASHED_PAIR_COST).map_err(at)?;
        check_listed(states.len() as f64 * d.len() as f64).map_err(at)?;
        let mut next: HashMap<Vec<i64>, f64> = HashMap::new();
        for (state, p) in &states {
            for (&v, q) in d.iter() {
                let mut kept = state.clone();
                let i = kept.partition_point(|&w| w < v);
                kept.insert(i, v);
                if kept.len() > k as usize {
                    if top {
                        kept.remove(0);
                    } else {
                        kept.pop();
                    }
                }
                *next.entry(kept).or_insert(0.0) += p * q;
            }
        }
        states = next;
    }
    let mut values: HashMap<i64, f64> = HashMap::new();
    for (kept, p) in states {
        let v = kept
            .iter()
            .map(|&v| score(v))
            .fold(0i64, i64::saturating_add);
        *values.entry(v).or_insert(0.0) += p;
    }
    let listed: f64 = values.values().sum();
    let tail = if laws.iter().all(|d| d.tail() == 0.0) {
        0.0
    } else {
        (1.0 - listed).max(0.0)
    };
    Dist::from_pairs_and_tail(values.into_iter().map(|(v, p)| (v, p.min(1.0))), tail)
        .map_err(|e| at(Fail::from(e)))
}

/// A group with chained keep/drop steps (Avrae d20's `(1, 2, 3)kh1kl1`): every joint
/// outcome of its items, charged before any is listed, each kept as the steps keep it.
fn chained_group_law(g: &GroupSpec, laws: &[Dist<i64>], b: &mut Budget) -> Result<Dist<i64>, Fail> {
    let steps = crate::select::as_steps(g.keep, g.select.as_ref(), &g.steps);
    let joint: f64 = laws.iter().map(|d| d.len() as f64).product();
    b.charge(
        joint * (laws.len() as f64 + 1.0) * f64::from(steps.len() as u32 + 1) * HASHED_PAIR_COST,
    )?;
    let mut out: HashMap<i64, f64> = HashMap::new();
    let mut at = vec![0usize; laws.len()];
    let mut values = vec![0i64; laws.len()];
    let mut kept = vec![true; laws.len()];
    'outer: loop {
        let mut p = 1.0;
        for (i, d) in laws.iter().enumerate() {
            values[i] = d.outcomes()[at[i]];
            p *= d.probabilities()[at[i]];
        }
        kept.iter_mut().for_each(|k| *k = true);
        crate::select::apply(&values, &mut kept, &steps);
        let v = values
            .iter()
            .zip(&kept)
            .filter(|(_, k)| **k)
            .map(|(&v, _)| g.score(v))
            .fold(0i64, i64::saturating_add);
        *out.entry(v).or_insert(0.0) += p;
        for i in (0..laws.len()).rev() {
            at[i] += 1;
            if at[i] < laws[i].len() {
                continue 'outer;
            }
            at[i] = 0;
        }
        break;
    }
    let listed: f64 = out.values().sum();
    let tail = if laws.iter().all(|d| d.tail() == 0.0) {
        0.0
    } else {
        (1.0 - listed).max(0.0)
    };
    Ok(Dist::from_pairs_and_tail(
        out.into_iter().map(|(v, p)| (v, p.min(1.0))),
        tail,
    )?)
}

/// Budget units charged per sorted outcome and die of a pool with chained keep/drop steps.
const STEP_COST: f64 = 4.0;

/// A pool with chained keep/drop steps (Avrae d20's `8d6kh5kl2`, `(10d6kh5)kl2`): the law of
/// one die's value (rerolls, clamps, compounding), then every sorted outcome of the pool
/// with its multinomial chance (charged first: `C(n + m − 1, n)` outcomes of `n` dice over
/// `m` values), each kept as the steps keep it.
fn chained_pool_law(p: &PoolSpec, b: &mut Budget) -> Result<Law, Fail> {
    if p.reroll_add.is_some() || p.explode.as_ref().is_some_and(|e| !e.compound) {
        return Err(Fail::Unsupported(
            "chained keep/drop over dice that explosions or `ra` add to",
        ));
    }
    let face = face_law(p);
    let tol = TOLERANCE / f64::from(p.count.max(1));
    let value = match &p.explode {
        Some(e) => exploding_law(&face, e, |v| v, tol, b)?.map(|v| p.clamp(v))?,
        None => face.map(|v| p.clamp(v))?,
    };
    let per_die: Vec<(i64, f64)> = value.iter().filter(|&(_, q)| q > 0.0).collect();
    let outcomes = crate::select::multisets(p.count, per_die.len());
    b.charge(outcomes * f64::from(p.count) * STEP_COST)?;
    check_listed(outcomes.min(MAX_LISTED as f64))?;
    let steps = crate::select::as_steps(p.keep, p.select.as_ref(), &p.steps);
    // The values an untruncated explosion leaves unlisted stay out of every weight, so
    // their mass is what the listed totals lack (the tail).
    let pairs = crate::select::law(&per_die, p.count, &steps, &|v| p.score(v));
    let (Some(&(lo, _)), Some(&(hi, _))) = (pairs.first(), pairs.last()) else {
        return Ok(Law::point(0));
    };
    check_listed(hi as f64 - lo as f64 + 1.0)?;
    let mut law = Law {
        offset: lo,
        p: vec![0.0; (hi - lo + 1) as usize],
    };
    for (v, q) in pairs {
        law.p[(v - lo) as usize] += q.min(1.0);
    }
    Ok(law)
}

/// Budget units charged per pair of a count and a number of sides of a computed term,
/// before its pools' own work (building the pool and mixing its law in).
const VARIANT_COST: f64 = 200.0;

/// The law of a computed dice term (`(1d4)d8`, `2d(1d4+2)`): the mixture, over the joint
/// law of its count and sides (independent), of the law of that many dice of that size.
/// The pairs are charged first ([`VARIANT_COST`] each), then every pool's estimated
/// dice-core work before any is computed, then each pool's own work as it goes; the
/// unlisted mass of the count, the sides and the pools (untruncated explosions) is the tail.
fn computed_law(
    c: &ComputedOp,
    node: &Node,
    plan: &Plan,
    b: &mut Budget,
) -> Result<Dist<i64>, NotationError> {
    let at = |f: Fail| f.at(&node.text, node.span);
    let TermKind::Computed(spec) = &plan.terms[c.term].kind else {
        return Err(at(Fail::Unsupported("a computed term without its pools")));
    };
    let counts = node_law(&c.count, plan, b)?;
    let sides = match &c.sides {
        Some(s) => node_law(s, plan, b)?,
        None => Dist::certain(0),
    };
    // A rolled success target (Roll20's `3d6>[[1d4]]`): one more law to mix over.
    let target_law = match &c.target {
        Some(t) => Some(node_law(t, plan, b)?),
        None => None,
    };
    let targets: Vec<(Option<i64>, f64)> = match &target_law {
        Some(d) => d.iter().map(|(&v, q)| (Some(v), q)).collect(),
        None => vec![(None, 1.0)],
    };
    b.charge(counts.len() as f64 * sides.len() as f64 * targets.len() as f64 * VARIANT_COST)
        .map_err(at)?;
    // Every pool, and the estimate of dice-core's work for all, before any law.
    let mut pools: Vec<(f64, Option<Term>, i64)> = Vec::new();
    let mut estimate = 0.0;
    for (&n, pn) in counts.iter() {
        for ((&s, ps), &(target, pt)) in sides
            .iter()
            .flat_map(|side| targets.iter().map(move |t| (side, t)))
        {
            let w = pn * ps * pt;
            if spec.rolled_sides && s == 1 {
                pools.push((w, None, n));
                continue;
            }
            let Some(t) = spec.variant(n, s, target) else {
                pools.push((w, None, 0));
                continue;
            };
            let p = pool_spec(&t);
            let fast = fast_pool(&p);
            let term = Term {
                text: t.to_string(),
                span: node.span,
                kind: TermKind::Pool(p),
                fast,
            };
            estimate += core_cost(&term);
            pools.push((w, Some(term), 0));
        }
    }
    b.afford(estimate).map_err(at)?;
    let mut acc = Law::empty();
    let mut tailed = counts.tail() > 0.0
        || sides.tail() > 0.0
        || target_law.as_ref().is_some_and(|d| d.tail() > 0.0);
    for (w, term, value) in pools {
        let law = match term {
            None => Law::point(value),
            Some(term) => {
                let d = term_law(&term, b).map_err(|f| f.at(&term.text, node.span))?;
                tailed |= d.tail() > 0.0;
                Law::listed(&d)
            }
        };
        check_listed((acc.p.len() + law.p.len()) as f64).map_err(at)?;
        b.charge((law.p.len() + acc.p.len()) as f64).map_err(at)?;
        let scaled = Law {
            offset: law.offset,
            p: law.p.iter().map(|q| q * w).collect(),
        };
        acc = acc.mix(&scaled);
    }
    acc.into_dist(tailed).map_err(at)
}

fn span_of(d: &Dist<i64>) -> f64 {
    match (d.outcomes().first(), d.outcomes().last()) {
        (Some(lo), Some(hi)) => (*hi as f64) - (*lo as f64) + 1.0,
        _ => 0.0,
    }
}

/// `x + y` (or `x − y`) of independent laws: dice-core's dense convolution when the ranges
/// are small enough, else pair by pair.
fn add(x: &Dist<i64>, y: &Dist<i64>, minus: bool, b: &mut Budget) -> Result<Dist<i64>, Fail> {
    let (sx, sy) = (span_of(x), span_of(y));
    if sx + sy <= MAX_LISTED as f64 {
        b.charge(sx.max(sy) * (x.len().min(y.len()) as f64))?;
        return Ok(if minus { x.difference(y) } else { x.add(y) });
    }
    if minus {
        combine(x, y, |v, w| v - w, None, b)
    } else {
        combine(x, y, |v, w| v + w, None, b)
    }
}

/// Budget units (about a nanosecond each) charged per pair of outcomes that [`combine`]
/// visits when the results land in a dense array (and per entry of that array, which is
/// listed afterwards), measured with `1d1000*1d1000`; [`HASHED_PAIR_COST`] when they go
/// through a hash map.
const DENSE_PAIR_COST: f64 = 10.0;
/// See [`DENSE_PAIR_COST`].
const HASHED_PAIR_COST: f64 = 50.0;

/// The law of `f(x, y)` for independent `x`, `y`, pair by pair (the joint law mapped,
/// without listing the pairs). `lo..=hi` bounds every `f(x, y)`, when known: the results
/// then land in a dense array (if it is at most [`MAX_LISTED`] long), else in a hash map
/// whose size the pair count bounds. The whole work is charged before any is done, so a
/// refusal comes at once. The tail is that of either input's unlisted mass.
fn combine(
    x: &Dist<i64>,
    y: &Dist<i64>,
    f: impl Fn(i64, i64) -> i64,
    range: Option<(i64, i64)>,
    b: &mut Budget,
) -> Result<Dist<i64>, Fail> {
    let pairs = x.len() as f64 * y.len() as f64;
    let tail = if x.tail() == 0.0 && y.tail() == 0.0 {
        0.0
    } else {
        x.tail() + y.tail() - x.tail() * y.tail()
    };
    let dense = range.filter(|&(lo, hi)| (hi as f64) - (lo as f64) < MAX_LISTED as f64);
    if let Some((lo, hi)) = dense {
        b.charge((pairs + (hi - lo) as f64) * DENSE_PAIR_COST)?;
        let mut acc = vec![0.0; (hi - lo + 1) as usize];
        // Tiles of TILE × TILE pairs: neighbouring outcomes give nearby results for the
        // arithmetic operators, so each tile's additions stay within a few cache lines' reach
        // of each other rather than striding over the whole array (the same non-negative terms
        // as pair by pair, added in another order: equal to rounding).
        const TILE: usize = 32;
        let (xo, xp) = (x.outcomes(), x.probabilities());
        let (yo, yp) = (y.outcomes(), y.probabilities());
        for (xo, xp) in xo.chunks(TILE).zip(xp.chunks(TILE)) {
            for (yo, yp) in yo.chunks(TILE).zip(yp.chunks(TILE)) {
                for (&v, &p) in xo.iter().zip(xp) {
                    for (&w, &q) in yo.iter().zip(yp) {
                        let r = f(v, w);
                        if !(lo..=hi).contains(&r) {
                            // A wrong bound would be a wrong answer: refuse rather than guess.
                            return Err(Fail::Unsupported(
                                "a combination outside its computed bounds",
                            ));
                        }
                        acc[(r - lo) as usize] += p * q;
                    }
                }
            }
        }
        for q in &mut acc {
            *q = q.min(1.0);
        }
        return Ok(Dist::from_consecutive(lo, acc, tail)?);
    }
    // The results may be as many as the pairs: refuse before the work if that is too many.
    check_listed(pairs)?;
    b.charge(pairs * HASHED_PAIR_COST)?;
    let mut acc: HashMap<i64, f64> = HashMap::new();
    for (&v, p) in x.iter() {
        for (&w, q) in y.iter() {
            *acc.entry(f(v, w)).or_insert(0.0) += p * q;
        }
    }
    Ok(Dist::from_pairs_and_tail(
        acc.into_iter().map(|(v, q)| (v, q.min(1.0))),
        tail,
    )?)
}

/// Budget units per outcome of each operand of [`min_max`] (calibrated with the
/// `notation/exact_large` bench of `min(1d1000*1d1000,4d1000)`).
const MIN_MAX_COST: f64 = 8.0;

/// The law of `min(x, y)` (or `max(x, y)` when `max`) for independent `x`, `y`, from their
/// cumulative sums in one pass over the outcomes of both, rather than pair by pair:
/// `P(min = v) = P(x = v)·P(y ≥ v) + P(x > v)·P(y = v)` and
/// `P(max = v) = P(x = v)·P(y ≤ v) + P(x < v)·P(y = v)`, over the listed outcomes (as the pairs
/// would give: the result lists P(both listed and min = v)), every term non-negative. The tail
/// is that of either input's unlisted mass.
fn min_max(x: &Dist<i64>, y: &Dist<i64>, max: bool, b: &mut Budget) -> Result<Dist<i64>, Fail> {
    b.charge((x.len() + y.len()) as f64 * MIN_MAX_COST)?;
    let tail = if x.tail() == 0.0 && y.tail() == 0.0 {
        0.0
    } else {
        x.tail() + y.tail() - x.tail() * y.tail()
    };
    // Walk the outcomes of both, merged, in the order the cumulative sums run (decreasing
    // for min, whose sums are of the outcomes above; increasing for max), with
    // beyond_x, beyond_y the listed mass of x, y strictly beyond v in the walk's direction.
    // Outcomes of one law beyond every outcome of the other (past `stop`) give no result:
    // their mass is only added up, in the same order.
    let (xo, yo) = (x.outcomes(), y.outcomes());
    let (xp, yp) = (x.probabilities(), y.probabilities());
    let (Some(&xl), Some(&yl)) = (xo.last(), yo.last()) else {
        return Ok(Dist::from_pairs_and_tail([], tail)?);
    };
    let (xf, yf) = (xo[0], yo[0]);
    // Positions in walk order: for min, index from the end.
    let (nx, ny) = (xo.len(), yo.len());
    let at = |o: &[i64], n: usize, i: usize| if max { o[i] } else { o[n - 1 - i] };
    let pr = |p: &[f64], n: usize, i: usize| if max { p[i] } else { p[n - 1 - i] };
    // `before(a, b)`: a comes first in the walk.
    let before = |a: i64, b: i64| if max { a < b } else { a > b };
    let stop = if max { xf.max(yf) } else { xl.min(yl) };
    let (mut beyond_x, mut beyond_y) = (0.0, 0.0);
    let (mut i, mut j) = (0, 0);
    while i < nx && before(at(xo, nx, i), stop) {
        beyond_x += pr(xp, nx, i);
        i += 1;
    }
    while j < ny && before(at(yo, ny, j), stop) {
        beyond_y += pr(yp, ny, j);
        j += 1;
    }
    let mut pairs = Vec::new();
    while i < nx || j < ny {
        let v = match (i < nx, j < ny) {
            (true, true) => {
                let (a, c) = (at(xo, nx, i), at(yo, ny, j));
                if before(a, c) { a } else { c }
            }
            (true, false) => at(xo, nx, i),
            _ => at(yo, ny, j),
        };
        let px = if i < nx && at(xo, nx, i) == v {
            i += 1;
            pr(xp, nx, i - 1)
        } else {
            0.0
        };
        let py = if j < ny && at(yo, ny, j) == v {
            j += 1;
            pr(yp, ny, j - 1)
        } else {
            0.0
        };
        // For min, walking down: P(y ≥ v) = beyond_y + py; for max, walking up: P(y ≤ v).
        let q = px * (beyond_y + py) + beyond_x * py;
        if q > 0.0 {
            pairs.push((v, q.min(1.0)));
        }
        beyond_x += px;
        beyond_y += py;
    }
    if !max {
        pairs.reverse();
    }
    Ok(Dist::from_pairs_and_tail(pairs, tail)?)
}

/// Bounds of `f(x, y)` over the listed outcomes of `x` and `y`, for an `f` monotone in each
/// argument wherever that argument keeps its sign (sums, products, quotients by a divisor
/// that is never 0, min and max): the extremes over each law's least and greatest outcome
/// and its outcomes nearest 0 on either side.
fn corner_range(x: &Dist<i64>, y: &Dist<i64>, f: &impl Fn(i64, i64) -> i64) -> Option<(i64, i64)> {
    let corners = |d: &Dist<i64>| -> Option<Vec<i64>> {
        let o = d.outcomes();
        let (&lo, &hi) = (o.first()?, o.last()?);
        let mut c = vec![lo, hi];
        // The listed outcomes nearest 0: the last negative, the zero, the first positive.
        let first_non_negative = o.partition_point(|&v| v < 0);
        if first_non_negative > 0 {
            c.push(o[first_non_negative - 1]);
        }
        c.extend(o[first_non_negative..].iter().take(2));
        Some(c)
    };
    let (cx, cy) = (corners(x)?, corners(y)?);
    let mut lo = i64::MAX;
    let mut hi = i64::MIN;
    for &v in &cx {
        for &w in &cy {
            let r = f(v, w);
            lo = lo.min(r);
            hi = hi.max(r);
        }
    }
    Some((lo, hi))
}

// TODO(dice-core): a cost estimate next to each exact law (`Sum::exact_cost()`), so that
// callers can refuse before dice-core spends seconds; these constants were measured.
/// An estimate of the time dice-core takes for a term's law, in the units of
/// [`MAX_EXACT_WORK`] (about a nanosecond), from dice-core's algorithms and measured
/// constants. One unit is about a nanosecond of one core for every path (docs/performance.md,
/// "Cost model"): dice-core's own limit allows about ten seconds for one law; this crate
/// allows about one for the whole expression.
fn core_cost(term: &Term) -> f64 {
    let TermKind::Pool(p) = &term.kind else {
        return 0.0;
    };
    let n = f64::from(p.count);
    let sides = (p.hi - p.lo + 1) as f64;
    // A capped explosion whose cap matters at f64 precision: dice-core lists its finite law
    // further than `TOLERANCE` (see `capped_sum_len`).
    let mut capped_len = None;
    let (p_explode, levels, additional) = match &p.explode {
        None => (0.0, 0.0, false),
        Some(e) => {
            let pe = e.on.count_in(p.lo, p.hi) as f64 / sides;
            let untruncated = if pe == 0.0 {
                // A test no face passes: the plain dice.
                0.0
            } else if pe < 1.0 {
                (TOLERANCE / n).ln() / pe.ln()
            } else {
                f64::INFINITY
            };
            let levels = if e.explicit {
                untruncated.min(f64::from(e.cap))
            } else {
                untruncated
            };
            let cap = f64::from(e.cap);
            if e.explicit && pe > 0.0 && (pe >= 1.0 || pe.powf(cap) > CAPPED_LISTING_TOLERANCE) {
                capped_len = Some(capped_sum_len(n, sides, pe, cap));
            }
            (pe.min(0.99), levels, !e.compound)
        }
    };
    // dice-core raises a die's listing to the n-th power by squaring: `33 − leading zeros of
    // n` additions of listings (its `powering_steps`).
    let powering_steps = f64::from(33 - p.count.leading_zeros());
    // An exploding listing's length: the mean plus nine standard deviations (bounded
    // loosely: a die's whole value spread as `sides/(2(1 − p))`), plus one die's tail; dice-core
    // starts at a Chernoff bound, which these exceed a little.
    let listing = |mean: f64, spread: f64| n * mean + 9.0 * n.sqrt() * spread + sides * levels;
    match &term.fast {
        Fast::Sum(sum) if sum.keep() == Keep::All => {
            if p.explode.is_none() {
                dice_core_uniform_sum_cost(n, sides)
            } else {
                let face_mean = (p.lo + p.hi) as f64 / 2.0;
                let len = listing(
                    face_mean / (1.0 - p_explode),
                    sides / (2.0 * (1.0 - p_explode)),
                )
                .max(capped_len.unwrap_or(0.0));
                TAILED_COST * len * len * 2.0 * powering_steps
            }
        }
        Fast::Sum(sum) => {
            let (_, k) = sum.keep().as_top(p.count);
            let k = f64::from(k);
            if p.explode.is_none() {
                // dice-core's keep/drop over plain dice: window sums, about
                // Σ_v (sides − v)·k²/2 entries (three units each beyond 16 sides).
                let narrow = sides.min(16.0);
                let wide = (sides - 16.0).max(0.0);
                let entries = narrow * (narrow + 1.0) / 2.0 + 3.0 * wide * (sides + 16.0) / 2.0;
                return entries * k * k / 2.0 + sides * k * n * 2.0;
            }
            let range = sides * (1.0 + levels);
            KEEP_COST * (range * range * k * k * k / 6.0 + range * n * k)
        }
        Fast::Count(_) if additional => {
            let passes = p
                .success
                .as_ref()
                .map_or(1.0, |c| c.count_in(p.lo, p.hi) as f64 / sides);
            let len = listing(passes / (1.0 - p_explode), 1.0 / (1.0 - p_explode)) + 20.0;
            TAILED_COST * len * len * 2.0 * powering_steps
        }
        Fast::Count(_) => 10.0 * n + n * sides * levels,
        Fast::Streak(_) | Fast::None => 0.0,
    }
}

/// The length of dice-core's listing of a sum of `n` dice of `sides` faces that explode with
/// chance `pe`, at most `cap` times each, when the cap matters (a finite law): the whole law
/// when it is at most 2¹⁶ long, else up to where what is left weighs below
/// [`CAPPED_LISTING_TOLERANCE`]. A die of `1 + K` rolls is at most `sides·(1 + K)`, so the sum
/// is at most `sides·(n + M)` with `M` the explosions in all, and `P(M ≥ m) ≤ C(m + n − 1,
/// n − 1)·peᵐ` (the ways to spread `m` explosions over the `n` dice, each pattern's chance
/// at most `peᵐ`). Without this, `10d141!=140cap99` was estimated at 50 times less than
/// dice-core's work, and took 5.5 s.
fn capped_sum_len(n: f64, sides: f64, pe: f64, cap: f64) -> f64 {
    let whole = n * sides * (cap + 1.0);
    if whole <= WHOLE_LISTING_MAX as f64 || pe >= 1.0 {
        return whole;
    }
    let goal = CAPPED_LISTING_TOLERANCE.ln();
    let (mut m, mut log_ways) = (0.0f64, 0.0f64);
    while m < n * cap && log_ways + m * pe.ln() > goal {
        if m > 1e6 {
            return whole;
        }
        m += 1.0;
        // C(m + n − 1, n − 1) = C(m + n − 2, n − 1)·(m + n − 1)/m.
        log_ways += ((m + n - 1.0) / m).ln();
    }
    (sides * (n + m)).min(whole)
}

/// Budget units (about a nanosecond each) per listed entry and added die of dice-core's sums
/// of plain dice, for dice of up to 16 sides (window sums); [`UNIFORM_WIDE_COST`] beyond.
/// The constants of this crate's estimates were measured with the `exact_large` benches
/// (docs/performance.md).
const UNIFORM_COST: f64 = 1.0;
/// See [`UNIFORM_COST`]: dice of more than 16 sides (block sums).
const UNIFORM_WIDE_COST: f64 = 3.0;
/// Budget units per multiply-add of dice-core's squarings in a sum of more than 32 dice of up
/// to 16 sides (dice-core's `SQUARE_COST`).
const UNIFORM_SQUARE_COST: f64 = 0.3;
/// Budget units per term of dice-core's keep/drop program, as its size `R²k³/6` counts them.
const KEEP_COST: f64 = 0.25;
/// Budget units per `len²` of each of the `2·log₂ n` additions of dice-core's exploding
/// listings (laws with their survival functions).
const TAILED_COST: f64 = 1.2;

/// dice-core's work for `n` plain dice of `sides` faces: each added die passes once over the
/// listed width, at most the range `n(s − 1) + 1` and, past a few hundred dice, the ±40
/// standard deviations beyond which the law underflows to 0. More than 32 dice of up to 16
/// sides go by binary powering instead: each squaring of the law of `m` dice, about
/// `W(m)²/2` multiply-adds for its listed width `W(m)`, [`UNIFORM_SQUARE_COST`] units each.
fn dice_core_uniform_sum_cost(n: f64, sides: f64) -> f64 {
    let sd = ((sides * sides - 1.0) / 12.0).sqrt();
    let width_of = |m: f64| (m * (sides - 1.0) + 1.0).min(80.0 * sd * m.sqrt() + sides);
    if sides <= 16.0 && n > 32.0 {
        let mut work = 32.0 * width_of(32.0) * sides;
        let mut m = n / 2.0;
        while m > 16.0 {
            work += UNIFORM_SQUARE_COST * width_of(m) * width_of(m) / 2.0;
            m /= 2.0;
        }
        return work;
    }
    let width = width_of(n);
    let unit = if sides <= 16.0 {
        UNIFORM_COST
    } else {
        UNIFORM_WIDE_COST
    };
    unit * n * width
}

fn term_law(term: &Term, b: &mut Budget) -> Result<Dist<i64>, Fail> {
    b.charge(core_cost(term))?;
    match &term.fast {
        Fast::Sum(s) => Ok(s.distribution()?),
        Fast::Count(c) => Ok(c.distribution()?.map(|&n| i64::from(n))),
        Fast::Streak(s) => Ok(s.distribution()?),
        Fast::None => match &term.kind {
            TermKind::Pool(p) => {
                let untruncated = p.explode.as_ref().is_some_and(|e| !e.explicit)
                    && explode_chance(p) > 0.0
                    || sequence::untruncated(p);
                pool_law(p, b)?.into_dist(untruncated)
            }
            TermKind::Streak(s) => {
                let (law, unlisted) = streak_law(s);
                let pairs: Vec<(i64, f64)> = law.iter().collect();
                Ok(Dist::from_pairs_and_tail(pairs, unlisted)?)
            }
            TermKind::Computed(_) => Err(Fail::Unsupported("a computed term outside its node")),
        },
    }
}

// ------------------------------------------------------------------ this crate's laws

/// A law over the integers `offset ..= offset + p.len() − 1`. The listed mass may be below
/// one (an untruncated explosion leaves the rest unlisted).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Law {
    pub(crate) offset: i64,
    pub(crate) p: Vec<f64>,
}

impl Law {
    fn empty() -> Law {
        Law {
            offset: 0,
            p: Vec::new(),
        }
    }

    fn point(v: i64) -> Law {
        Law {
            offset: v,
            p: vec![1.0],
        }
    }

    /// The listed part of a `Dist` (its tail, if any, stays unlisted).
    fn listed(d: &Dist<i64>) -> Law {
        let (Some(&lo), Some(&hi)) = (d.outcomes().first(), d.outcomes().last()) else {
            return Law::empty();
        };
        // A `Dist` this crate built, whose span was checked against MAX_LISTED first.
        let mut p = vec![0.0; hi.abs_diff(lo) as usize + 1];
        for (&v, q) in d.iter() {
            p[v.abs_diff(lo) as usize] = q;
        }
        Law { offset: lo, p }
    }

    fn mass(&self) -> f64 {
        self.p.iter().sum()
    }

    fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.p
            .iter()
            .enumerate()
            .filter(|(_, q)| **q > 0.0)
            .map(|(i, q)| (self.offset + i as i64, *q))
    }

    /// The law of `f(value)`.
    fn map(&self, f: impl Fn(i64) -> i64) -> Result<Law, Fail> {
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for (v, _) in self.iter() {
            let w = f(v);
            lo = lo.min(w);
            hi = hi.max(w);
        }
        if lo > hi {
            return Ok(Law::empty());
        }
        check_listed((hi as f64) - (lo as f64) + 1.0)?;
        let mut p = vec![0.0; (hi - lo + 1) as usize];
        for (v, q) in self.iter() {
            p[(f(v) - lo) as usize] += q;
        }
        Ok(Law { offset: lo, p })
    }

    /// The part of the law where `keep(value)`.
    fn filter(&self, keep: impl Fn(i64) -> bool) -> Law {
        let mut out = self.clone();
        for (i, q) in out.p.iter_mut().enumerate() {
            if !keep(self.offset + i as i64) {
                *q = 0.0;
            }
        }
        out.trim()
    }

    fn trim(mut self) -> Law {
        let Some(start) = self.p.iter().position(|&q| q > 0.0) else {
            return Law::empty();
        };
        let end = self
            .p
            .iter()
            .rposition(|&q| q > 0.0)
            .map_or(start, |e| e + 1);
        self.p.truncate(end);
        self.p.drain(..start);
        self.offset += start as i64;
        self
    }

    /// The law of the sum of independent draws (masses multiply).
    fn convolve(&self, other: &Law, b: &mut Budget) -> Result<Law, Fail> {
        if self.p.is_empty() || other.p.is_empty() {
            return Ok(Law::empty());
        }
        check_listed((self.p.len() + other.p.len()) as f64)?;
        let (long, short) = if self.p.len() >= other.p.len() {
            (self, other)
        } else {
            (other, self)
        };
        let nonzero = short.p.iter().filter(|&&q| q > 0.0).count();
        b.charge(nonzero as f64 * long.p.len() as f64)?;
        let mut out = vec![0.0; long.p.len() + short.p.len() - 1];
        for (j, &q) in short.p.iter().enumerate() {
            if q == 0.0 {
                continue;
            }
            for (o, &r) in out[j..j + long.p.len()].iter_mut().zip(&long.p) {
                *o += q * r;
            }
        }
        Ok(Law {
            offset: self.offset + other.offset,
            p: out,
        })
    }

    /// `self − other`, pointwise (the part of a law where an event holds, given the part
    /// where it does not); tiny negative roundings are dropped.
    fn minus(&self, other: &Law) -> Law {
        let negated = Law {
            offset: other.offset,
            p: other.p.iter().map(|q| -q).collect(),
        };
        let mut out = self.mix(&negated);
        for q in &mut out.p {
            if *q < 1e-300 {
                *q = 0.0;
            }
        }
        out.trim()
    }

    /// Adds the probabilities of `other` (a mixture's parts).
    fn mix(&self, other: &Law) -> Law {
        if self.p.is_empty() {
            return other.clone();
        }
        if other.p.is_empty() {
            return self.clone();
        }
        let lo = self.offset.min(other.offset);
        let hi = (self.offset + self.p.len() as i64).max(other.offset + other.p.len() as i64);
        let mut p = vec![0.0; (hi - lo) as usize];
        for law in [self, other] {
            let start = (law.offset - lo) as usize;
            for (slot, q) in p[start..start + law.p.len()].iter_mut().zip(&law.p) {
                *slot += q;
            }
        }
        Law { offset: lo, p }
    }

    /// The sum of `n` independent copies, by binary powering.
    fn power(&self, mut n: u32, b: &mut Budget) -> Result<Law, Fail> {
        let mut result = Law::point(0);
        let mut base = self.clone();
        while n > 0 {
            if n & 1 == 1 {
                result = result.convolve(&base, b)?;
            }
            n >>= 1;
            if n > 0 {
                base = base.convolve(&base, b)?;
            }
        }
        Ok(result)
    }

    /// As a `Dist`: the listed outcomes, and as its tail the unlisted mass of an untruncated
    /// law (`1 − Σp`); a finite law (`untruncated` false) has none, whatever the rounding.
    fn into_dist(self, untruncated: bool) -> Result<Dist<i64>, Fail> {
        let tail = if untruncated {
            (1.0 - self.mass()).max(0.0)
        } else {
            0.0
        };
        let pairs: Vec<(i64, f64)> = self.iter().map(|(v, q)| (v, q.min(1.0))).collect();
        Ok(Dist::from_pairs_and_tail(pairs, tail)?)
    }
}

// TODO(dice-core): rerolls (once / until) as a pool option, with this per-face law.
/// The law of one face: uniform, or as rerolls leave it.
fn face_law(p: &PoolSpec) -> Law {
    let sides = (p.hi - p.lo + 1) as usize;
    let uniform = 1.0 / sides as f64;
    let mut law = Law {
        offset: p.lo,
        p: vec![uniform; sides],
    };
    if let Some((once, on)) = &p.reroll {
        let rerolled = on.count_in(p.lo, p.hi) as usize;
        for (i, q) in law.p.iter_mut().enumerate() {
            let stays = !on.test(p.lo + i as i64);
            *q = if *once {
                // First face stays, or any face rerolled into this one.
                (if stays { uniform } else { 0.0 }) + rerolled as f64 * uniform * uniform
            } else if stays {
                // Rerolled until it stays: uniform over the faces that stay.
                1.0 / (sides - rerolled) as f64
            } else {
                0.0
            };
        }
    }
    law
}

/// The law of `Σ contribution(face)` over the faces of one original die's explosion chain:
/// every face drawn from `face`, the chain going on while the face passes the explosion
/// test, at most `cap` extra faces.
///
/// With `a` the faces that stop and `e` those that explode (each placed at its
/// contribution), the law of a chain is `L = a + e * L'`, where `L'` is the law of the chain
/// after the first face. With an explicit cap the last possible face stops whatever it
/// shows, so `L₀ = a + e` and `L_{j+1} = a + e * L_j`, cap times. Without one the chain is
/// untruncated: starting from `L = a` (chains of one face), each step adds chains one face
/// longer, and after `D` steps the unlisted mass is exactly `P(e)^D`; the steps stop when
/// it is at most `tol`.
fn chain_law(
    face: &Law,
    e: &ExplodeSpec,
    contribution: impl Fn(i64) -> i64,
    tol: f64,
    b: &mut Budget,
) -> Result<Law, Fail> {
    let stops = face.filter(|f| !e.on.test(f)).map(&contribution)?;
    let explodes = face.filter(|f| e.on.test(f)).map(&contribution)?;
    let p_explode = explodes.mass();
    if p_explode == 0.0 {
        return Ok(stops);
    }
    if e.explicit {
        let mut law = face.map(&contribution)?;
        for _ in 0..e.cap {
            law = stops.mix(&explodes.convolve(&law, b)?);
        }
        return Ok(law.trim());
    }
    // Steps D with P(e)^D ≤ tol; estimate the work first (the law grows by the spread of
    // the exploding contributions each step).
    let steps = (tol.ln() / p_explode.ln()).ceil().max(1.0);
    let grow = explodes.p.len().max(1) as f64;
    let nonzero = explodes.iter().count() as f64;
    b.afford(steps * steps * grow * nonzero / 2.0)?;
    let mut law = stops.clone();
    let mut unlisted = p_explode;
    while unlisted > tol {
        law = stops.mix(&explodes.convolve(&law, b)?);
        unlisted *= p_explode;
    }
    Ok(law.trim())
}

/// The law of a whole explosion chain with each face placed at `contribution`: for a
/// penetrating explosion the faces after the first count one less (`contribution(f − 1)`),
/// while the test still reads the face.
fn exploding_law(
    face: &Law,
    e: &ExplodeSpec,
    contribution: impl Fn(i64) -> i64,
    tol: f64,
    b: &mut Budget,
) -> Result<Law, Fail> {
    if !e.penetrate {
        return chain_law(face, e, contribution, tol, b);
    }
    // L = a + e * L', where L' is an ordinary chain of the added dice (one cap fewer).
    let mut rest = e.clone();
    if e.explicit {
        rest.cap = e.cap.saturating_sub(1);
    }
    let tail = chain_law(face, &rest, |v| contribution(v - 1), tol, b)?;
    let stops = face.filter(|f| !e.on.test(f)).map(&contribution)?;
    let explodes = face.filter(|f| e.on.test(f)).map(&contribution)?;
    if explodes.p.is_empty() {
        return Ok(stops);
    }
    Ok(stops.mix(&explodes.convolve(&tail, b)?).trim())
}

/// The law of a pool of this crate's own (rerolls, clamps, keep-then-count, failures,
/// exploding `dF`, penetration, selections, reroll-and-add).
fn pool_law(p: &PoolSpec, b: &mut Budget) -> Result<Law, Fail> {
    if !p.sequence.is_empty() {
        return sequence::sequence_law(p, b);
    }
    if let Some(u) = &p.unique {
        return unique_law(p, u, b);
    }
    if let Some(m) = &p.matches {
        return matches_law(p, m, b);
    }
    if !p.steps.is_empty() {
        return chained_pool_law(p, b);
    }
    let face = face_law(p);
    let counted = |v: i64| p.score(v);
    let per_die = |v: i64| {
        let v = p.clamp(v);
        match &p.select {
            Some(sel) if !sel.stays(v) => 0,
            _ => counted(v),
        }
    };
    let tol = TOLERANCE / f64::from(p.count);
    if let Some(on) = &p.reroll_add {
        if p.explode.is_some() || p.keep != Keep::All {
            return Err(Fail::Unsupported(
                "reroll-and-add (`ra`) together with explosions or keep/drop",
            ));
        }
        // The dice, split by whether any face passes: those where one does add one die.
        let all = face.map(per_die)?.power(p.count, b)?;
        let none = face
            .filter(|f| !on.test(f))
            .map(per_die)?
            .power(p.count, b)?;
        let some = all.minus(&none);
        let extra = face.map(per_die)?;
        return Ok(none.mix(&some.convolve(&extra, b)?).trim());
    }
    if p.keep == Keep::All {
        let one = match &p.explode {
            None => face.map(per_die)?,
            Some(e) if e.compound => exploding_law(&face, e, |v| v, tol, b)?.map(per_die)?,
            Some(e) => exploding_law(&face, e, per_die, tol, b)?,
        };
        return one.power(p.count, b);
    }
    let value = match &p.explode {
        None => face.map(|v| p.clamp(v))?,
        Some(e) if e.compound => exploding_law(&face, e, |v| v, tol, b)?.map(|v| p.clamp(v))?,
        Some(e) => return keep_exploding_law(p, e, |v| p.score(v), b),
    };
    keep_law(&value, p.count, p.keep, counted, b)
}

/// The faces of the pool's dice-core die passing a test on this crate's values.
fn core_faces(p: &PoolSpec, on: &crate::ast::Cmp) -> Result<dice_core::Comparison, Fail> {
    let faces = (1..=p.die.sides()).filter(|&f| on.test(i64::from(f) + p.offset));
    let set = dice_core::FaceSet::new(faces)
        .map_err(|_| Fail::Unsupported("an explosion test dice-core cannot hold"))?;
    Ok(dice_core::Comparison::OneOf(set))
}

/// Keep/drop over a pool whose explosions add dice (`5d6!kh3`, penetrating `4d6!pdl1`):
/// dice-core's exact law over the multiset of every die rolled ([`dice_core::Pool`]'s
/// `kept_score`), untruncated without a cap (its tail below the tolerance). Rerolls and
/// the other modifiers this crate rolls itself are not part of it.
fn keep_exploding_law(
    p: &PoolSpec,
    e: &ExplodeSpec,
    score: impl Fn(i64) -> i64,
    b: &mut Budget,
) -> Result<Law, Fail> {
    if p.select.is_some() || p.reroll_add.is_some() {
        return Err(Fail::Unsupported(
            "keep/drop over exploding dice that are also selected or rerolled and added",
        ));
    }
    if let Some((once, rerolled)) = &p.reroll {
        if *once || e.penetrate {
            return Err(Fail::Unsupported(
                "keep/drop over exploding dice that are also rerolled once (`ro`), or rerolled \
                 and penetrating",
            ));
        }
        // Rerolled until it stands, a face is uniform over the faces that stand: the same
        // law as a die of that many faces, numbered in order (keep/drop and explosions
        // follow the faces' order), each scored as the face it stands for.
        let standing: Vec<i64> = (p.lo..=p.hi).filter(|&f| !rerolled.test(f)).collect();
        let sides = u32::try_from(standing.len()).unwrap_or(0);
        let faces = (1..=sides).filter(|&i| e.on.test(standing[(i - 1) as usize]));
        let set = dice_core::FaceSet::new(faces)
            .map_err(|_| Fail::Unsupported("an explosion test dice-core cannot hold"))?;
        let mut explode = dice_core::Explode::new(dice_core::Comparison::OneOf(set));
        if e.explicit {
            explode = explode.with_cap(e.cap)?;
        }
        let pool =
            dice_core::Pool::new(p.count, dice_core::Die::new(sides)?)?.exploding(explode)?;
        b.charge(f64::from(p.count) * f64::from(sides))?;
        let value = |i: u32| standing[(i as usize).clamp(1, standing.len()) - 1];
        let law = pool
            .kept_score_within(
                p.keep,
                |i| score(p.clamp(value(u32::try_from(i).unwrap_or(1)))),
                TOLERANCE,
                b.left(),
            )
            .map_err(|e| b.spent_with(e))?;
        let mut out = Law::listed(&law);
        out.p.iter_mut().for_each(|q| *q = q.max(0.0));
        return Ok(out);
    }
    let on = core_faces(p, &e.on)?;
    let mut explode = if e.penetrate {
        dice_core::Explode::penetrating(on)
    } else {
        dice_core::Explode::new(on)
    };
    if e.explicit {
        explode = explode.with_cap(e.cap)?;
    }
    let pool = dice_core::Pool::new(p.count, p.die)?.exploding(explode)?;
    // dice-core checks its own work against its limit; charge a share of ours for it.
    b.charge(f64::from(p.count) * f64::from(p.die.sides()))?;
    let offset = p.offset;
    // dice-core's program over the dice explosions add bounds its work only from below
    // before it starts: it gets what is left of this expression's budget, so that a query
    // over it stops there (`450d10!pk99` ran 12 s of dice-core's budget before it was
    // refused; found by fuzzing).
    let law = pool
        .kept_score_within(p.keep, |v| score(p.clamp(v + offset)), TOLERANCE, b.left())
        .map_err(|e| b.spent_with(e))?;
    let mut out = Law::listed(&law);
    // The tail stays unlisted: `into_dist` gives it back as `1 − Σp`.
    out.p.iter_mut().for_each(|q| *q = q.max(0.0));
    Ok(out)
}

/// Roll20's `mt`: the law of the number of sets of matching dice among `p.count`
/// independent dice (after rerolls and clamps). The values are taken one at a time; given
/// the dice the earlier values took, the number showing this value is binomial over the
/// dice left, with this value's chance among the values not yet taken. State: dice taken
/// so far and sets so far; the values failing the test are one value that never makes a
/// set. Work: values × (dice + 1)² × (sets + 1), checked before it starts.
fn matches_law(p: &PoolSpec, m: &crate::ast::Matches, b: &mut Budget) -> Result<Law, Fail> {
    let plain = p.explode.is_none()
        && p.keep == Keep::All
        && p.select.is_none()
        && p.steps.is_empty()
        && p.success.is_none()
        && p.failure.is_none()
        && p.reroll_add.is_none();
    if !plain {
        return Err(Fail::Unsupported(
            "sets of matches (`mt`) together with explosions, keep/drop or tests",
        ));
    }
    // The law of one die's value, after clamps; values that cannot make a set pooled.
    let mut values: HashMap<i64, f64> = HashMap::new();
    let mut never = 0.0;
    for (v, q) in face_law(p).iter() {
        let v = p.clamp(v);
        if m.passes(v) {
            *values.entry(v).or_insert(0.0) += q;
        } else {
            never += q;
        }
    }
    let mut probs: Vec<(f64, bool)> = values.into_values().map(|q| (q, true)).collect();
    probs.sort_by(|a, b| a.0.total_cmp(&b.0));
    if never > 0.0 {
        probs.push((never, false));
    }
    let n = p.count as usize;
    let least = m.least.max(1) as usize;
    let most_sets = (n / least).min(probs.len());
    let width = most_sets + 1;
    b.charge(probs.len() as f64 * (n as f64 + 1.0).powi(2) * width as f64)?;
    // ln k! for k ≤ n.
    let mut ln_fact = vec![0.0f64; n + 1];
    for k in 1..=n {
        ln_fact[k] = ln_fact[k - 1] + (k as f64).ln();
    }
    let binomial = |r: usize, c: usize, q: f64| -> f64 {
        if q >= 1.0 {
            return if c == r { 1.0 } else { 0.0 };
        }
        if q <= 0.0 {
            return if c == 0 { 1.0 } else { 0.0 };
        }
        let ln = ln_fact[r] - ln_fact[c] - ln_fact[r - c]
            + c as f64 * q.ln()
            + (r - c) as f64 * (-q).ln_1p();
        ln.exp()
    };
    // dp[taken * width + sets]
    let mut dp = vec![0.0f64; (n + 1) * width];
    dp[0] = 1.0;
    let mut left = probs.iter().map(|(q, _)| q).sum::<f64>();
    let last = probs.len().saturating_sub(1);
    for (i, &(q, counts)) in probs.iter().enumerate() {
        // The last value takes every die left.
        let share = if i == last || left <= 0.0 {
            1.0
        } else {
            (q / left).min(1.0)
        };
        left -= q;
        let mut next = vec![0.0f64; (n + 1) * width];
        for taken in 0..=n {
            let r = n - taken;
            let row = &dp[taken * width..(taken + 1) * width];
            if row.iter().all(|&x| x == 0.0) {
                continue;
            }
            for c in 0..=r {
                let w = binomial(r, c, share);
                if w == 0.0 {
                    continue;
                }
                let add = usize::from(counts && c >= least);
                let to = (taken + c) * width;
                for (sets, &x) in row.iter().enumerate() {
                    if x != 0.0 {
                        let s = (sets + add).min(most_sets);
                        next[to + s] += x * w;
                    }
                }
            }
        }
        dp = next;
    }
    Ok(Law {
        offset: 0,
        p: dp[n * width..].to_vec(),
    }
    .trim())
}

/// rpg-dice-roller's unique dice: dice-core's [`dice_core::Unique`], for plain dice with
/// keep/drop (the other modifiers are refused).
fn unique_law(p: &PoolSpec, u: &crate::ast::Unique, b: &mut Budget) -> Result<Law, Fail> {
    let plain = p.reroll.is_none()
        && p.explode.is_none()
        && p.min.is_none()
        && p.max.is_none()
        && p.select.is_none()
        && p.steps.is_empty()
        && p.reroll_add.is_none()
        && p.success.is_none()
        && p.failure.is_none();
    if !plain {
        return Err(Fail::Unsupported(
            "unique dice (`u`, `uo`) together with modifiers other than keep/drop",
        ));
    }
    let kept = i64::from(p.keep.kept_of(p.count));
    let mut m = dice_core::Unique::new(p.count, p.die)?
        .keeping(p.keep)?
        .with_modifier(p.offset * kept)?;
    if u.once {
        m = m.once();
    }
    if let Some(on) = &u.on {
        let faces = (1..=p.die.sides()).filter(|&f| on.test(i64::from(f) + p.offset));
        let set = dice_core::FaceSet::new(faces)
            .map_err(|_| Fail::Unsupported("a unique compare point dice-core cannot hold"))?;
        m = m.only(dice_core::Comparison::OneOf(set));
    }
    b.charge(f64::from(p.count) * f64::from(p.die.sides()))?;
    // Within what is left of this expression's budget (dice-core's own is ten times as
    // large: `17d20uokh4` works about 10 s under it).
    Ok(Law::listed(
        &m.distribution_within(b.left())
            .map_err(|e| b.spent_with(e))?,
    ))
}

/// The law of `Σ g(value)` over the dice kept of `n` independent dice with value law `w`:
/// dice-core's keep/drop over any per-die law ([`Dist::kept_score`]), after charging this
/// crate's work budget. Values not listed (an untruncated explosion's) are left out: the
/// result is the law jointly with "every die took a listed value".
fn keep_law(
    w: &Law,
    n: u32,
    keep: Keep,
    g: impl Fn(i64) -> i64,
    b: &mut Budget,
) -> Result<Law, Fail> {
    let (_, k) = keep.as_top(n);
    let scores: Vec<i64> = w.iter().map(|(v, _)| g(v)).collect();
    let (Some(&gmin), Some(&gmax)) = (scores.iter().min(), scores.iter().max()) else {
        return Ok(Law::point(0));
    };
    if k == 0 {
        return Ok(Law::point(0));
    }
    let spread = gmax as f64 - gmin as f64;
    let f = scores.len() as f64;
    let kf = f64::from(k);
    check_listed(kf * spread + 1.0)?;
    b.charge(KEEP_COST * (f * (spread + 1.0) * kf * kf * kf / 6.0 + f * kf * f64::from(n)))?;
    let per_die = Dist::from_pairs(w.iter().map(|(v, q)| (v, q.min(1.0))))?;
    Ok(Law::listed(&per_die.kept_score(n, keep, g)?))
}

/// The chance that one face continues a streak.
pub(crate) fn streak_chance(s: &StreakSpec) -> f64 {
    let sides = (s.hi - s.lo + 1) as f64;
    s.on.count_in(s.lo, s.hi) as f64 / sides
}

/// The chance that one natural face of the pool explodes (rerolls included); 0 without an
/// explosion.
pub(crate) fn explode_chance(p: &PoolSpec) -> f64 {
    let Some(e) = &p.explode else {
        return 0.0;
    };
    face_law(p).filter(|f| e.on.test(f)).mass()
}

/// The law of a streak whose face set dice-core cannot hold: geometric in the chance `p`
/// that a face continues it, capped, or untruncated (listed until the unlisted mass `p^k` is
/// at most the tolerance; a streak without a cap never continues on every face).
fn streak_law(s: &StreakSpec) -> (Law, f64) {
    let p = streak_chance(s);
    let mut probs = Vec::new();
    let mut pk = 1.0; // p^k
    let mut k = 0u32;
    loop {
        if s.explicit && k == s.cap {
            probs.push(pk);
            break;
        }
        if !s.explicit && (pk <= TOLERANCE || p >= 1.0) {
            let law = Law {
                offset: 0,
                p: probs,
            };
            // The unlisted mass is exactly p^k, the chance of k steps or more.
            return (law.trim(), pk);
        }
        probs.push(pk * (1.0 - p));
        pk *= p;
        k += 1;
    }
    let law = Law {
        offset: 0,
        p: probs,
    };
    (law.trim(), 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `capped_sum_len` takes dice-core's listing rule (its `WHOLE_LISTING_MAX` and
    /// `CAPPED_LISTING_TOLERANCE`): on both sides of the whole-listing switch its count is
    /// within a factor of two of the entries dice-core's law lists (a cost estimate: the
    /// listing itself starts from a Chernoff bound and may run a little past this one).
    #[test]
    fn capped_sum_len_covers_dice_cores_listing() {
        use dice_core::{Comparison, Die, Explode, Pool};
        for (n, sides, cap) in [(3u32, 6u32, 2u32), (5, 10, 50), (2, 50, 700), (3, 30, 800)] {
            let explode = Explode::new(Comparison::Exactly(sides as i32))
                .with_cap(cap)
                .unwrap();
            let pool = Pool::new(n, Die::new(sides).unwrap())
                .unwrap()
                .exploding(explode)
                .unwrap();
            let listed = Sum::new(pool, Keep::All, 0)
                .unwrap()
                .distribution()
                .unwrap()
                .len() as f64;
            let (nf, sf) = (f64::from(n), f64::from(sides));
            let estimate = capped_sum_len(nf, sf, 1.0 / sf, f64::from(cap));
            assert!(
                estimate >= listed / 2.0 && estimate <= 2.0 * listed + sf,
                "{n}d{sides}! cap {cap}: estimated {estimate}, dice-core lists {listed}"
            );
        }
    }

    #[test]
    fn keep_law_of_two_dice_is_the_max() {
        let d6 = Law {
            offset: 1,
            p: vec![1.0 / 6.0; 6],
        };
        let mut b = Budget { spent: 0.0 };
        let law = keep_law(&d6, 2, Keep::Highest(1), |v| v, &mut b).unwrap();
        for (i, q) in law.p.iter().enumerate() {
            let v = i as f64 + 1.0;
            let exact = (2.0 * v - 1.0) / 36.0;
            assert!((q - exact).abs() < 1e-15, "{v}");
        }
    }
}
