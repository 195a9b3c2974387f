//! Exact laws of the fraction path ([`crate::fraction`]): a `Dist<Rational>` for every node,
//! the whole parts' laws from the integer engine (`exact::node_law`), the rest pair by pair
//! through a hash map, every step charged to the same [`Budget`] as the integer engine's and
//! the whole work estimated before any is done, so a large case is refused at once.

use std::collections::HashMap;
use std::hash::Hash;

use dice_core::Dist;

use crate::compile::Plan;
use crate::error::NotationError;
use crate::exact::{Budget, Fail, check_listed, combination_bound, node_law};
use crate::fraction::{FGroup, FNode, FOp, FPlan, apply, holds, passes, round, versus};
use crate::outcome::Outcome;
use crate::rational::Rational;

/// Budget units (about a nanosecond of one core each) charged per pair of outcomes that
/// [`combine`] visits: the operation on two fractions (a multiplication or two in `i128`, a
/// binary gcd) and a hash-map entry. Measured as CPU time with `1d1000/7 + 1d999/11` (10⁶
/// pairs, 18,000 outcomes): 69 ms.
const FRACTION_PAIR_COST: f64 = 70.0;

/// Budget units charged per distinct outcome a combination lists (the hash map's growth, the
/// sort into a law). Measured with `1d1000/1d999` (10⁶ pairs, 607,983 outcomes): 280 ms of
/// CPU, of which the pairs take about 70.
const FRACTION_OUTCOME_COST: f64 = 350.0;

/// Budget units charged per item of each joint outcome of a group's items (the value of the
/// group: keep, select and count on a small vector). Measured with
/// `{1d100/3, 1d100/7, 1d10/9}k2` (10⁵ joint outcomes of 3 items): 15 ms.
const JOINT_ITEM_COST: f64 = 60.0;

/// The exact law of a fraction-path plan.
pub(crate) fn distribution(plan: &Plan, f: &FPlan) -> Result<Dist<Outcome>, NotationError> {
    let mut b = Budget { spent: 0.0 };
    for node in core::iter::once(&f.body).chain(&f.target) {
        let (_, work) = bound(node);
        b.afford(work).map_err(|e| e.at(&node.text, node.span))?;
    }
    let total = law(&f.body, plan, &mut b)?;
    let Some(target) = &f.target else {
        return Ok(total.map(|&r| Outcome::from_rational(r)));
    };
    let goal = law(target, plan, &mut b)?;
    let span = f.body.span.join(target.span);
    let text = format!("{} vs {}", f.body.text, target.text);
    let v = combine(&total, &goal, versus, &mut b).map_err(|e| e.at(&text, span))?;
    Ok(v.map(|&v| Outcome::Versus(v)))
}

/// The value range of a whole node, as a count of whole numbers.
fn range(node: &FNode) -> f64 {
    node.hi.to_f64() - node.lo.to_f64() + 1.0
}

/// An upper bound on the outcomes a node's law lists and on the work of its combinations,
/// before any law is computed (as `exact::combination_bound` for the integer engine).
fn bound(node: &FNode) -> (f64, f64) {
    let cap = |n: f64| if node.whole { n.min(range(node)) } else { n };
    // A combination visits every pair and lists at most one outcome per pair (at most the
    // range of a whole node).
    let pair = |(nx, wx): (f64, f64), (ny, wy): (f64, f64)| {
        let pairs = nx * ny;
        let listed = cap(pairs);
        let own = if nx <= 1.0 || ny <= 1.0 {
            0.0
        } else {
            pairs * FRACTION_PAIR_COST + listed * FRACTION_OUTCOME_COST
        };
        (listed, wx + wy + own)
    };
    match &node.op {
        FOp::Int(n) => combination_bound(n),
        FOp::Const(_) => (1.0, 0.0),
        FOp::Neg(x) => bound(x),
        FOp::Bin(_, x, y) | FOp::Compare(_, x, y) => pair(bound(x), bound(y)),
        FOp::Call(_, args) => {
            let mut acc: Option<(f64, f64)> = None;
            for a in args {
                let b = bound(a);
                acc = Some(match acc {
                    None => (cap(b.0), b.1),
                    Some(m) => pair(m, b),
                });
            }
            acc.unwrap_or((1.0, 0.0))
        }
        FOp::Group(g) => {
            let parts: Vec<(f64, f64)> = g.items.iter().map(bound).collect();
            let work: f64 = parts.iter().map(|p| p.1).sum();
            if item_by_item(g) {
                let mut acc = (1.0, work);
                for &(n, _) in &parts {
                    acc = pair(acc, (n, 0.0));
                }
                acc
            } else {
                let joint: f64 = parts.iter().map(|p| p.0.max(1.0)).product();
                let listed = cap(joint);
                let own = joint * (parts.len() as f64 + 1.0) * JOINT_ITEM_COST
                    + listed * FRACTION_OUTCOME_COST;
                (listed, work + own)
            }
        }
    }
}

/// Whether a group's law is the sum of its items' scores, one item at a time: every item
/// kept (a selection drops by its own test) and no chained steps.
fn item_by_item(g: &FGroup) -> bool {
    let n = g.items.len() as u32;
    g.keep.kept_of(n) == n && g.steps.is_empty()
}

/// The law of a node. A chain of operators is walked down its left operands in a loop and
/// combined back up, left operand first as in recursion, so that the stack grows only with
/// the nesting of right operands.
fn law(node: &FNode, plan: &Plan, b: &mut Budget) -> Result<Dist<Rational>, NotationError> {
    let (mut spine, leaf) = crate::ast::left_chain(node, FNode::chained_left);
    let mut d = one_law(leaf, plan, b)?;
    while let Some(parent) = spine.pop() {
        d = chain_law(parent, d, plan, b)?;
    }
    Ok(d)
}

/// The law of a binary operator or comparison whose left operand has the law `dx`.
#[inline(never)]
fn chain_law(
    node: &FNode,
    dx: Dist<Rational>,
    plan: &Plan,
    b: &mut Budget,
) -> Result<Dist<Rational>, NotationError> {
    let at = |f: Fail| f.at(&node.text, node.span);
    match &node.op {
        FOp::Bin(op, _, y) => {
            let dy = law(y, plan, b)?;
            combine(&dx, &dy, |v, w| apply(*op, v, w), b).map_err(at)
        }
        FOp::Compare(rel, _, y) => {
            let dy = law(y, plan, b)?;
            let rel = *rel;
            combine(
                &dx,
                &dy,
                |v, w| Rational::from(i64::from(holds(rel, v, w))),
                b,
            )
            .map_err(at)
        }
        // Only the two above are chained.
        _ => one_law(node, plan, b),
    }
}

/// The law of a node that is not chained (see [`law`]).
#[inline(never)]
fn one_law(node: &FNode, plan: &Plan, b: &mut Budget) -> Result<Dist<Rational>, NotationError> {
    let at = |f: Fail| f.at(&node.text, node.span);
    match &node.op {
        FOp::Int(n) => Ok(node_law(n, plan, b)?.map(|&v| Rational::from(v))),
        FOp::Const(r) => Ok(Dist::certain(*r)),
        FOp::Neg(x) => Ok(law(x, plan, b)?.map(|v| v.checked_neg().unwrap_or(*v))),
        FOp::Bin(..) | FOp::Compare(..) => law(node, plan, b),
        FOp::Call(func, args) => {
            let mut acc: Option<Dist<Rational>> = None;
            for a in args {
                let d = law(a, plan, b)?;
                acc = Some(match acc {
                    None => d.map(|&v| round(*func, v)),
                    Some(m) => {
                        let max = *func != crate::ast::Func::Min;
                        combine(&m, &d, |v, w| if max { v.max(w) } else { v.min(w) }, b)
                            .map_err(at)?
                    }
                });
            }
            Ok(acc.unwrap_or_else(|| Dist::certain(Rational::ZERO)))
        }
        FOp::Group(g) => group_law(g, node, plan, b),
    }
}

/// The law of a group: item by item where every item is kept, else over every joint
/// outcome of its items (charged before any is listed).
fn group_law(
    g: &FGroup,
    node: &FNode,
    plan: &Plan,
    b: &mut Budget,
) -> Result<Dist<Rational>, NotationError> {
    let at = |f: Fail| f.at(&node.text, node.span);
    let laws = g
        .items
        .iter()
        .map(|a| law(a, plan, b))
        .collect::<Result<Vec<_>, _>>()?;
    if item_by_item(g) {
        let mut acc = Dist::certain(Rational::ZERO);
        for d in &laws {
            let scored = d.map(|&v| match &g.select {
                Some(s) if passes(&s.on, v) != s.keep => Rational::ZERO,
                _ => g.score(v),
            });
            acc = combine(&acc, &scored, |x, y| x.checked_add(y).unwrap_or(x), b).map_err(at)?;
        }
        return Ok(acc);
    }
    let joint: f64 = laws.iter().map(|d| d.len() as f64).product();
    check_listed(joint).map_err(at)?;
    b.charge(joint * (laws.len() as f64 + 1.0) * JOINT_ITEM_COST)
        .map_err(at)?;
    let mut out: HashMap<Rational, f64> = HashMap::new();
    let mut index = vec![0usize; laws.len()];
    let mut values = vec![Rational::ZERO; laws.len()];
    if laws.iter().all(|d| !d.is_empty()) {
        'outer: loop {
            let mut p = 1.0;
            for (i, d) in laws.iter().enumerate() {
                values[i] = d.outcomes()[index[i]];
                p *= d.probabilities()[index[i]];
            }
            *out.entry(g.value(&values)).or_insert(0.0) += p;
            for i in (0..laws.len()).rev() {
                index[i] += 1;
                if index[i] < laws[i].len() {
                    continue 'outer;
                }
                index[i] = 0;
            }
            break;
        }
    }
    b.charge(out.len() as f64 * FRACTION_OUTCOME_COST)
        .map_err(at)?;
    let listed: f64 = out.values().sum();
    let tail = if laws.iter().all(|d| d.tail() == 0.0) {
        0.0
    } else {
        (1.0 - listed).max(0.0)
    };
    Dist::from_pairs_and_tail(out.into_iter().map(|(v, p)| (v, p.min(1.0))), tail)
        .map_err(|e| at(Fail::from(e)))
}

/// The law of `f(x, y)` for independent `x`, `y`: a map when either is certain, else pair
/// by pair through a hash map (the pairs charged first). The tail is that of either input's
/// unlisted mass.
fn combine<A, B, C>(
    x: &Dist<A>,
    y: &Dist<B>,
    f: impl Fn(A, B) -> C,
    b: &mut Budget,
) -> Result<Dist<C>, Fail>
where
    A: Ord + Clone + Copy,
    B: Ord + Clone + Copy,
    C: Ord + Clone + Hash,
{
    if y.len() == 1 && y.tail() == 0.0 {
        let w = y.outcomes()[0];
        return Ok(x.map(|&v| f(v, w)));
    }
    if x.len() == 1 && x.tail() == 0.0 {
        let v = x.outcomes()[0];
        return Ok(y.map(|&w| f(v, w)));
    }
    let pairs = x.len() as f64 * y.len() as f64;
    // The pairs now, the outcomes once counted (the estimate checked before any law was
    // computed bounds both).
    b.charge(pairs * FRACTION_PAIR_COST)?;
    let tail = if x.tail() == 0.0 && y.tail() == 0.0 {
        0.0
    } else {
        x.tail() + y.tail() - x.tail() * y.tail()
    };
    let mut acc: HashMap<C, f64> = HashMap::new();
    for (&v, p) in x.iter() {
        for (&w, q) in y.iter() {
            *acc.entry(f(v, w)).or_insert(0.0) += p * q;
        }
    }
    check_listed(acc.len() as f64)?;
    b.charge(acc.len() as f64 * FRACTION_OUTCOME_COST)?;
    Ok(Dist::from_pairs_and_tail(
        acc.into_iter().map(|(v, q)| (v, q.min(1.0))),
        tail,
    )?)
}
