//! A group of one expression keeping or dropping among every die in it, then computing the
//! expression with the dice kept (rpg-dice-roller's single sub-roll: `{4d10*(2+5d6)}k2`
//! keeps the two highest of the nine dice; a dropped die counts 0 in its term).
//!
//! The dice are ranked by value, then by the order they were rolled (a later die ranks
//! higher), as the library sorts them: `kh`/`dl` keep the top of that order, `kl`/`dh` the
//! bottom. The expression may hold plain dice, numbers, arithmetic and `min`, `max`,
//! `abs`, `sign`.

use std::ops::Range;

use crate::ast::{BinOp, DiceTerm, DieKind, Expr, ExprKind};
use crate::compile::{GroupSpec, Term};
use crate::roll::{RolledDie, Roller, TermRoll, eval};

/// The number of dice in the item of a group keeping its dice, or why it cannot be one.
pub(crate) fn dice_in(e: &Expr) -> Result<u32, String> {
    fn walk(e: &Expr, n: &mut u32) -> Result<(), String> {
        match &e.kind {
            ExprKind::Number(_) => Ok(()),
            ExprKind::Dice(t)
                if DiceTerm::new(t.count, t.die) == *t
                    && matches!(t.die, DieKind::Sides(_) | DieKind::Fudge) =>
            {
                *n = n.saturating_add(t.count);
                Ok(())
            }
            ExprKind::Neg(x) => walk(x, n),
            ExprKind::Binary(op, a, b) if whole(*op) => {
                walk(a, n)?;
                walk(b, n)
            }
            ExprKind::Call(_, args) => args.iter().try_for_each(|a| walk(a, n)),
            _ => Err(format!(
                "a group of one expression keeps or drops the dice in it; this is supported for \
                 plain dice, numbers, arithmetic and `min`, `max`, `abs`, `sign`, not for `{e}`"
            )),
        }
    }
    /// Operators on whole numbers (no exact division).
    fn whole(op: BinOp) -> bool {
        matches!(
            op,
            BinOp::Add
                | BinOp::Sub
                | BinOp::Mul
                | BinOp::Div
                | BinOp::DivCeil
                | BinOp::DivRound
                | BinOp::DivTrunc
                | BinOp::Mod
                | BinOp::Rem
                | BinOp::Pow
        )
    }
    let mut n = 0;
    walk(e, &mut n)?;
    if n == 0 {
        return Err(
            "a group of one expression keeps or drops its dice, and this one has none".into(),
        );
    }
    Ok(n)
}

/// Marks which of the dice (values in the order rolled) a keep of the top (`top`) or the
/// bottom `k` of the ranking keeps: by value, then by position, a later die ranking higher.
pub(crate) fn kept(values: &[i64], top: bool, k: usize) -> Vec<bool> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by_key(|&i| (values[i], i));
    let mut out = vec![false; values.len()];
    let chosen: Vec<usize> = if top {
        order.iter().rev().take(k).copied().collect()
    } else {
        order.iter().take(k).copied().collect()
    };
    for i in chosen {
        out[i] = true;
    }
    out
}

/// A roller that gives each term the value already decided for it.
struct Decided<'a> {
    terms: &'a [Term],
    values: &'a [(usize, i64)],
}

impl Roller for Decided<'_> {
    fn term(&mut self, term: &Term, _: Option<&mut Vec<TermRoll>>) -> i64 {
        self.values
            .iter()
            .find(|(i, _)| self.terms.get(*i).is_some_and(|t| std::ptr::eq(t, term)))
            .map_or(0, |&(_, v)| v)
    }

    fn computed(
        &mut self,
        _: &Term,
        _: i64,
        _: i64,
        _: Option<i64>,
        _: Option<&mut Vec<TermRoll>>,
    ) -> i64 {
        0
    }

    fn dice(&mut self, _: &Term) -> Vec<RolledDie> {
        Vec::new()
    }
}

/// Rolls the group: every die of the item's terms (`range` of `terms`), in order; the keep
/// over all of them; then the item computed with each term's kept dice.
pub(crate) fn roll<R: Roller>(
    g: &GroupSpec,
    range: Range<usize>,
    terms: &[Term],
    roller: &mut R,
    record: &mut Option<Vec<TermRoll>>,
) -> i64 {
    let mut rolled: Vec<(usize, Vec<RolledDie>)> = range
        .filter_map(|i| terms.get(i).map(|t| (i, roller.dice(t))))
        .collect();
    let values: Vec<i64> = rolled
        .iter()
        .flat_map(|(_, dice)| dice.iter().map(|d| d.value))
        .collect();
    let (top, k) = g.keep.as_top(values.len() as u32);
    let mut flags = kept(&values, top, k as usize).into_iter();
    let mut sums = Vec::with_capacity(rolled.len());
    for (i, dice) in &mut rolled {
        let mut sum = 0i64;
        for d in dice.iter_mut() {
            d.kept = flags.next().unwrap_or(false);
            if d.kept {
                sum = sum.saturating_add(d.value);
            }
        }
        sums.push((*i, sum));
    }
    if let Some(out) = record.as_mut() {
        for ((i, dice), &(_, value)) in rolled.into_iter().zip(&sums) {
            if let Some(t) = terms.get(i) {
                out.push(TermRoll {
                    term: t.text.clone(),
                    span: t.span,
                    dice,
                    value,
                });
            }
        }
    }
    let Some(item) = g.items.first() else {
        return 0;
    };
    let mut decided = Decided {
        terms,
        values: &sums,
    };
    eval(item, terms, &mut decided, &mut None)
}
