//! The exact law of a group keeping the dice of its one expression (rpg-dice-roller's
//! `{4d10*(2+5d6)}k2`; see `crate::dice_group`).
//!
//! The dice kept are the top `K` of the ranking (by value, then a later die above an earlier
//! one; the bottom `K` for `kl` and `dh`, handled by ranking on the negated value with the
//! order of the dice reversed). Condition on the value `t` of the `K`-th die kept: every
//! die above `t` is kept, none below, and of the dice showing `t` the `K − A` latest are,
//! where `A` dice lie above `t`. Given, for each term, how many of its dice lie above `t`
//! (`aᵢ`) and how many show `t` (`bᵢ`) — a multinomial chance — the terms are independent:
//! term `i` keeps the sum of `aᵢ` dice drawn from its faces above `t` (a convolution power),
//! plus `t` times the dice showing `t` it keeps (the latest terms' first). The expression is
//! computed over those independent laws, once for each distinct (`t`, `aᵢ`, kept ties), and
//! the results mixed with their weights. The number of cases, and the expression's work for
//! each (its operands' laws bounded by the terms' value ranges), are charged before any law.

use std::collections::HashMap;
use std::ops::Range;

use dice_core::Dist;

use super::{Budget, Fail, Law, binary, combination_bound, min_max};
use crate::ast::Func;
use crate::compile::{GroupSpec, Node, Op, Plan, PoolSpec, TermKind};

/// Budget units per case (a count of dice above and at the cut for every term).
const CASE_COST: f64 = 20.0;

/// The cases and their chances: (the cut, for each term its dice above the cut and its dice
/// at the cut kept) → chance.
type Cases = HashMap<(i64, Vec<(u32, u32)>), f64>;

/// One term's dice: how many, and their faces.
struct Dice {
    count: u32,
    lo: i64,
    hi: i64,
}

/// The law of the group's value.
pub(super) fn dice_group_law(
    g: &GroupSpec,
    range: Range<usize>,
    plan: &Plan,
    b: &mut Budget,
) -> Result<Dist<i64>, Fail> {
    let Some(item) = g.items.first() else {
        return Ok(Dist::certain(0));
    };
    let mut terms: Vec<(usize, Dice)> = Vec::new();
    for i in range {
        let Some(TermKind::Pool(p)) = plan.terms.get(i).map(|t| &t.kind) else {
            return Err(Fail::Unsupported(
                "a group keeping the dice of other than plain dice",
            ));
        };
        if !plain(p) {
            return Err(Fail::Unsupported(
                "a group keeping the dice of dice with modifiers",
            ));
        }
        terms.push((
            i,
            Dice {
                count: p.count,
                lo: p.lo,
                hi: p.hi,
            },
        ));
    }
    let total: u32 = terms.iter().map(|(_, d)| d.count).sum();
    let (top, k) = g.keep.as_top(total);
    // Rank on `key = ±value`; the dice of a term at the cut are kept latest term first (top)
    // or earliest first (bottom).
    let sign = if top { 1 } else { -1 };
    let priority: Vec<usize> = if top {
        (0..terms.len()).rev().collect()
    } else {
        (0..terms.len()).collect()
    };
    let (key_lo, key_hi) = terms.iter().fold((i64::MAX, i64::MIN), |(lo, hi), (_, d)| {
        let (a, b) = (sign * d.lo, sign * d.hi);
        (lo.min(a.min(b)), hi.max(a.max(b)))
    });
    // The cases, charged before they are listed.
    let per_cut: f64 = terms
        .iter()
        .map(|(_, d)| {
            let n = f64::from(d.count);
            (n + 1.0) * (n + 2.0) / 2.0
        })
        .product();
    let cuts = (key_hi - key_lo + 1) as f64;
    b.charge(per_cut * cuts * terms.len() as f64 * CASE_COST)?;
    let mut cases: Cases = HashMap::new();
    let ln_fact = ln_factorials(terms.iter().map(|(_, d)| d.count).max().unwrap_or(0) as usize);
    for cut in key_lo..=key_hi {
        // For each term: ln of the chances above, at and below the cut.
        let chances: Vec<(f64, f64, f64)> = terms
            .iter()
            .map(|(_, d)| {
                let sides = (d.hi - d.lo + 1) as f64;
                let keys = (d.lo..=d.hi).map(|f| sign * f);
                let above = keys.clone().filter(|&x| x > cut).count() as f64;
                let at = keys.filter(|&x| x == cut).count() as f64;
                let below = sides - above - at;
                (
                    (above / sides).ln(),
                    (at / sides).ln(),
                    (below / sides).ln(),
                )
            })
            .collect();
        let mut choice = vec![(0u32, 0u32); terms.len()];
        let mut walk = Walk {
            terms: &terms,
            chances: &chances,
            ln_fact: &ln_fact,
            k,
            priority: &priority,
            cut,
            cases: &mut cases,
        };
        walk.go(0, &mut choice, 0.0);
    }
    // Each distinct case: the expression over the terms' laws, mixed in. Its work first.
    let (_, item_work) = combination_bound(item);
    let spans: f64 = terms
        .iter()
        .map(|(_, d)| f64::from(d.count) * (d.hi - d.lo + 1) as f64)
        .sum();
    b.afford(cases.len() as f64 * (item_work + spans * spans))?;
    let mut powers: HashMap<(usize, i64), Vec<Law>> = HashMap::new();
    let mut acc = Law::empty();
    let mut sorted: Vec<_> = cases.into_iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    for ((cut, choice), weight) in sorted {
        let mut laws: Vec<(usize, Dist<i64>)> = Vec::with_capacity(terms.len());
        for (slot, ((index, d), &(above, ties))) in terms.iter().zip(&choice).enumerate() {
            let table = match powers.get(&(slot, cut)) {
                Some(t) => t,
                None => {
                    let better = faces_above(d, sign, cut);
                    let mut table = vec![Law::point(0)];
                    for n in 1..=d.count as usize {
                        let next = table[n - 1].convolve(&better, b)?;
                        table.push(next);
                    }
                    powers.entry((slot, cut)).or_insert(table)
                }
            };
            let mut law = table
                .get(above as usize)
                .cloned()
                .unwrap_or_else(Law::empty);
            law.offset += sign * cut * i64::from(ties);
            laws.push((*index, law.into_dist(false)?));
        }
        let value = item_law(item, &laws, b)?;
        let scaled = Law::listed(&value);
        acc = acc.mix(&Law {
            offset: scaled.offset,
            p: scaled.p.iter().map(|q| q * weight).collect(),
        });
    }
    acc.trim().into_dist(false)
}

/// Whether a pool has no modifier (the group's ranking reads faces only).
fn plain(p: &PoolSpec) -> bool {
    p.reroll.is_none()
        && p.explode.is_none()
        && p.min.is_none()
        && p.max.is_none()
        && p.keep == dice_core::Keep::All
        && p.success.is_none()
        && p.failure.is_none()
        && p.select.is_none()
        && p.reroll_add.is_none()
        && p.unique.is_none()
        && p.matches.is_none()
        && p.steps.is_empty()
        && p.sequence.is_empty()
}

/// The law of one die of `d` given that it ranks above the cut (uniform over those faces).
fn faces_above(d: &Dice, sign: i64, cut: i64) -> Law {
    let faces: Vec<i64> = (d.lo..=d.hi).filter(|&f| sign * f > cut).collect();
    let (Some(&lo), Some(&hi)) = (faces.first(), faces.last()) else {
        return Law::empty();
    };
    let q = 1.0 / faces.len() as f64;
    let mut p = vec![0.0; (hi - lo + 1) as usize];
    for f in faces {
        p[(f - lo) as usize] = q;
    }
    Law { offset: lo, p }
}

/// `ln k!` for `k ≤ n`.
fn ln_factorials(n: usize) -> Vec<f64> {
    let mut out = vec![0.0f64; n + 1];
    for k in 1..=n {
        out[k] = out[k - 1] + (k as f64).ln();
    }
    out
}

/// `k · ln x`, with `0 · ln 0 = 0`.
fn times(k: u32, ln_x: f64) -> f64 {
    if k == 0 { 0.0 } else { f64::from(k) * ln_x }
}

/// The enumeration of the cases at one cut: for each term, its dice above and at the cut.
struct Walk<'a> {
    terms: &'a [(usize, Dice)],
    chances: &'a [(f64, f64, f64)],
    ln_fact: &'a [f64],
    k: u32,
    priority: &'a [usize],
    cut: i64,
    cases: &'a mut Cases,
}

impl Walk<'_> {
    fn go(&mut self, slot: usize, choice: &mut Vec<(u32, u32)>, ln_weight: f64) {
        if slot == self.terms.len() {
            let above: u32 = choice.iter().map(|c| c.0).sum();
            let at: u32 = choice.iter().map(|c| c.1).sum();
            // The K-th die kept shows the cut: fewer than K above it, K or more with it.
            if above >= self.k || above + at < self.k {
                return;
            }
            let mut left = self.k - above;
            let mut kept = vec![(0u32, 0u32); choice.len()];
            for &i in self.priority {
                let ties = choice[i].1.min(left);
                left -= ties;
                kept[i] = (choice[i].0, ties);
            }
            *self.cases.entry((self.cut, kept)).or_insert(0.0) += ln_weight.exp();
            return;
        }
        let n = self.terms[slot].1.count;
        let (ln_above, ln_at, ln_below) = self.chances[slot];
        for a in 0..=n {
            for t in 0..=n - a {
                let rest = n - a - t;
                let w = self.ln_fact[n as usize]
                    - self.ln_fact[a as usize]
                    - self.ln_fact[t as usize]
                    - self.ln_fact[rest as usize]
                    + times(a, ln_above)
                    + times(t, ln_at)
                    + times(rest, ln_below);
                if w == f64::NEG_INFINITY {
                    continue;
                }
                choice[slot] = (a, t);
                self.go(slot + 1, choice, ln_weight + w);
            }
        }
    }
}

/// The law of the group's expression, its terms' laws given (independent).
fn item_law(node: &Node, laws: &[(usize, Dist<i64>)], b: &mut Budget) -> Result<Dist<i64>, Fail> {
    Ok(match &node.op {
        Op::Const(c) => Dist::certain(*c),
        Op::Term(i) => laws
            .iter()
            .find(|(j, _)| j == i)
            .map(|(_, d)| d.clone())
            .ok_or(Fail::Unsupported("a term outside the group's dice"))?,
        Op::Neg(x) => item_law(x, laws, b)?.map(|&v| -v),
        Op::Bin(op, x, y) => {
            let (dx, dy) = (item_law(x, laws, b)?, item_law(y, laws, b)?);
            binary(*op, &dx, &dy, (node.lo, node.hi), b)?
        }
        Op::Call(func, args) if func.is_unary() => {
            let d = match args.first() {
                Some(a) => item_law(a, laws, b)?,
                None => Dist::certain(0),
            };
            match func {
                Func::Abs => d.map(|&v| v.saturating_abs()),
                _ => d.map(|&v| v.signum()),
            }
        }
        Op::Call(func, args) => {
            let mut acc: Option<Dist<i64>> = None;
            for a in args {
                let d = item_law(a, laws, b)?;
                acc = Some(match acc {
                    None => d,
                    Some(m) => min_max(&m, &d, *func == Func::Max, b)?,
                });
            }
            acc.unwrap_or_else(|| Dist::certain(0))
        }
        _ => {
            return Err(Fail::Unsupported(
                "a group keeping its dice around other than arithmetic",
            ));
        }
    })
}
