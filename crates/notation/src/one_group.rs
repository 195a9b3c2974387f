//! A group of one sum of dice with a keep, drop, selection or success test (`{4d6+3d8}k4`,
//! Roll20's `{3d20+5}>21`): its dice are kept or counted one by one, as one pool.
//!
//! Dice of one kind become one dice term (`{4d6+2d6}kh3` is `6d6kh3`). Dice of several
//! kinds become a group of single dice (`{4d6+3d8}k4` is `{1d6, 1d6, 1d6, 1d6, 1d8, 1d8,
//! 1d8}kh4`), which rolls the same faces in the same order and keeps them the same way; a
//! success count over them without keep/drop is the sum of each kind's count. Where the
//! dialect adds a constant of the sum to each die before the test (Roll20), the tests move
//! by the constant instead (`{3d20+5}>21` is `3d20>=16`).

use dice_core::Keep;

use crate::ast::{BinOp, Cmp, DiceTerm, Expr, ExprKind, GroupTerm};

/// What a one-item group reads as.
pub(crate) enum OneGroup {
    /// Dice terms, added up (one term for dice of one kind).
    Terms(Vec<DiceTerm>),
    /// A group of single dice.
    Singles(GroupTerm),
}

/// The dice and the constant of a sum of plain dice and constants (`3d20+5`, `4d6+3d8-1`),
/// or `None` when the item is something else (dice with modifiers, subtracted dice, a
/// product, a function).
fn dice_and_constant(e: &Expr) -> Option<(Vec<DiceTerm>, i64)> {
    fn walk(e: &Expr, sign: i64, dice: &mut Vec<DiceTerm>, constant: &mut i64) -> Option<()> {
        match &e.kind {
            ExprKind::Dice(t) if sign > 0 && DiceTerm::new(t.count, t.die) == *t => {
                dice.push(t.clone());
            }
            ExprKind::Number(n) => {
                let n = i64::try_from(*n).ok()?;
                *constant = constant.checked_add(sign.checked_mul(n)?)?;
            }
            ExprKind::Neg(x) if matches!(x.kind, ExprKind::Number(_)) => {
                walk(x, -sign, dice, constant)?;
            }
            ExprKind::Binary(BinOp::Add, a, b) => {
                walk(a, sign, dice, constant)?;
                walk(b, sign, dice, constant)?;
            }
            ExprKind::Binary(BinOp::Sub, a, b) => {
                walk(a, sign, dice, constant)?;
                walk(b, -sign, dice, constant)?;
            }
            _ => return None,
        }
        Some(())
    }
    let (mut dice, mut constant) = (Vec::new(), 0);
    walk(e, 1, &mut dice, &mut constant)?;
    (!dice.is_empty()).then_some((dice, constant))
}

/// A test on `die + by` as a test on the die.
fn shifted(c: &Cmp, by: i64) -> Cmp {
    let m = |n: &i64| n.saturating_sub(by);
    match c {
        Cmp::AtLeast(n) => Cmp::AtLeast(m(n)),
        Cmp::AtMost(n) => Cmp::AtMost(m(n)),
        Cmp::Above(n) => Cmp::Above(m(n)),
        Cmp::Below(n) => Cmp::Below(m(n)),
        Cmp::Exactly(n) => Cmp::Exactly(m(n)),
        Cmp::NotEqual(n) => Cmp::NotEqual(m(n)),
        Cmp::OneOf(set) => Cmp::OneOf(set.iter().map(m).collect()),
    }
}

/// Reads the group `g` of one item with its modifiers; `constant_per_die`: a constant of
/// the sum is added to each die before a success test (Roll20). The error is a message.
pub(crate) fn one_item_group(g: &GroupTerm, constant_per_die: bool) -> Result<OneGroup, String> {
    const WHAT: &str = "a group of one expression keeps or counts its dice one by one; this \
                        is supported for a sum of plain dice (`{4d6+3d8}kh3`)";
    let Some((dice, constant)) = g.items.first().and_then(dice_and_constant) else {
        return Err(format!(
            "{WHAT}, not for modifiers, subtracted dice or other arithmetic in it: write the \
             dice as one term, or the items with commas"
        ));
    };
    let counts = g.success.is_some() && g.keep == Keep::All && g.select.is_none();
    if constant != 0 && !(constant_per_die && counts) {
        return Err(format!(
            "{WHAT}, and a constant in it only where a success test alone follows (Roll20 adds \
             it to each die: `{{3d20+5}}>21`): write the constant outside the braces"
        ));
    }
    let success = g.success.as_ref().map(|c| shifted(c, constant));
    let failure = g.failure.as_ref().map(|c| shifted(c, constant));
    let first = dice[0].die;
    let with_tests = |mut t: DiceTerm| {
        t.success = success.clone();
        t.failure = failure.clone();
        t
    };
    if dice.iter().all(|t| t.die == first) {
        let count = dice.iter().map(|t| t.count).fold(0u32, u32::saturating_add);
        let mut t = with_tests(DiceTerm::new(count, first));
        t.keep = g.keep;
        t.select = g.select.clone();
        return Ok(OneGroup::Terms(vec![t]));
    }
    if counts {
        // A count over dice of several kinds: each kind's count, added up.
        return Ok(OneGroup::Terms(dice.into_iter().map(with_tests).collect()));
    }
    let singles = dice
        .iter()
        .flat_map(|t| (0..t.count).map(move |_| Expr::dice(DiceTerm::new(1, t.die))));
    Ok(OneGroup::Singles(GroupTerm {
        items: singles.collect(),
        keep: g.keep,
        select: g.select.clone(),
        success,
        failure,
        steps: g.steps.clone(),
        dice: false,
    }))
}
