//! Ordering by a score with ties settled by roll-offs: initiative in every game of ours.
//!
//! The games say it in their own words ("each combatant that is tied rolls a d10, with the
//! highest going first; if they roll the same, just roll again until you have a winner";
//! "tied characters roll off, and any still tied roll off again") and agree on the shape:
//! sort by score, highest first; a group of contestants tied on score rolls, one roll each,
//! the highest roll going first; contestants who rolled the same roll off again among
//! themselves, before anyone ranked below them rolls. [`rank_with_roll_offs`] is that
//! procedure with the rolls supplied by the caller (an RNG, or faces given in advance), and
//! [`fair_roll_off_orders`] its exact law when the tied contestants roll alike.

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use crate::{Dist, Error};

/// Why [`rank_with_roll_offs`] could not settle an order.
///
/// ```
/// use dice_core::RollOffError;
/// let e: RollOffError<&str> = RollOffError::Unresolved { first: 2, second: 5 };
/// assert_eq!(e.to_string(), "contestants 2 and 5 are still tied after every roll-off allowed");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollOffError<E> {
    /// A roll could not be made (the caller's error: faces ran out, a face out of range).
    Roll(E),
    /// Contestants were still tied after the most rounds of roll-offs allowed (a roll that
    /// cannot tell them apart, or faces given in advance that tie again).
    Unresolved {
        /// The first of the contestants still tied.
        first: usize,
        /// Another of them.
        second: usize,
    },
}

impl<E: fmt::Display> fmt::Display for RollOffError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollOffError::Roll(e) => write!(f, "a roll-off roll failed: {e}"),
            RollOffError::Unresolved { first, second } => write!(
                f,
                "contestants {first} and {second} are still tied after every roll-off allowed"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl<E: fmt::Debug + fmt::Display> std::error::Error for RollOffError<E> {}

/// Orders contestants `0..len` highest first, settling ties by roll-offs.
///
/// `compare(a, b)` ranks contestant `a` against `b` before any roll-off (`Greater`: `a` goes
/// first); contestants it calls `Equal` form tied groups, each listed in index order. Tied
/// groups are settled from the top of the order down: every member of the group rolls once,
/// in the group's order, by `roll(member)`; the highest roll goes first; members who rolled
/// the same roll off again among themselves, before any lower roll or lower group is
/// looked at. A group still tied after `max_rounds` roll-offs stops the ranking with
/// [`RollOffError::Unresolved`]; `roll`'s own errors stop it with [`RollOffError::Roll`].
/// The procedure keeps a stack of the groups still to settle (at most `len` contestants in
/// it), not a recursion, so `u32::MAX` rounds is a safe "no cap" when the rolls themselves
/// end (faces given in advance run out; a fair die cannot tie for ever).
///
/// ```
/// use dice_core::rank_with_roll_offs;
/// // Scores 12, 20, 12: the two 12s roll off with 5 and 9, so contestant 2 goes first.
/// let scores = [12, 20, 12];
/// let mut faces = [5, 9].into_iter();
/// let order = rank_with_roll_offs(
///     scores.len(),
///     |a, b| scores[a].cmp(&scores[b]),
///     10,
///     |_| faces.next().ok_or("out of faces"),
/// )?;
/// assert_eq!(order, [1, 2, 0]);
/// # Ok::<(), dice_core::RollOffError<&str>>(())
/// ```
pub fn rank_with_roll_offs<T, E>(
    len: usize,
    mut compare: impl FnMut(usize, usize) -> Ordering,
    max_rounds: u32,
    mut roll: impl FnMut(usize) -> Result<T, E>,
) -> Result<Vec<usize>, RollOffError<E>>
where
    T: Ord,
{
    let mut order = Vec::with_capacity(len);
    // Groups still to settle, with the roll-offs each has had; the top of the order on top
    // of the stack. Every contestant is in one group at a time, so the stack holds at most
    // `len` of them however many rounds are rolled.
    let mut pending: Vec<(Vec<usize>, u32)> = tied_groups(len, &mut compare)
        .into_iter()
        .rev()
        .map(|g| (g, 0))
        .collect();
    while let Some((group, round)) = pending.pop() {
        if group.len() <= 1 {
            order.extend(group);
            continue;
        }
        if round >= max_rounds {
            return Err(RollOffError::Unresolved {
                first: group[0],
                second: group[1],
            });
        }
        let mut rolled = Vec::with_capacity(group.len());
        for &i in &group {
            rolled.push((roll(i).map_err(RollOffError::Roll)?, i));
        }
        // Highest roll first; the stable sort keeps the group's order among equal rolls.
        rolled.sort_by(|a, b| b.0.cmp(&a.0));
        let mut subs: Vec<Vec<usize>> = Vec::new();
        for (k, &(_, i)) in rolled.iter().enumerate() {
            match subs.last_mut() {
                Some(sub) if rolled[k - 1].0 == rolled[k].0 => sub.push(i),
                _ => subs.push(alloc::vec![i]),
            }
        }
        pending.extend(subs.into_iter().rev().map(|sub| (sub, round + 1)));
    }
    Ok(order)
}

/// Indices `0..len` sorted highest first by `compare` (a stable sort, so index order
/// within ties), cut into groups of contestants tied with the first of their group.
fn tied_groups(len: usize, compare: &mut impl FnMut(usize, usize) -> Ordering) -> Vec<Vec<usize>> {
    let mut idx: Vec<usize> = (0..len).collect();
    idx.sort_by(|&a, &b| compare(b, a));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in idx {
        match groups.last_mut() {
            Some(g) if compare(g[0], i) == Ordering::Equal => g.push(i),
            _ => groups.push(alloc::vec![i]),
        }
    }
    groups
}

/// The most orders [`fair_roll_off_orders`] lists (8!).
pub const MAX_ROLL_OFF_ORDERS: u64 = 40_320;

/// The exact law of [`rank_with_roll_offs`]'s order when the members of a tied group roll
/// alike (independent rolls of the same law, re-rolled until settled): the process is then
/// symmetric in them, so each of the `k!` orders of a tied group of `k` is equally likely,
/// independently across groups.
///
/// # Errors
/// [`Error::TooComplex`] beyond [`MAX_ROLL_OFF_ORDERS`] orders.
///
/// ```
/// use dice_core::fair_roll_off_orders;
/// // Scores 3, 5, 3: contestant 1 goes first; 0 and 2 are as likely to go second.
/// let scores = [3, 5, 3];
/// let law = fair_roll_off_orders(scores.len(), |a, b| scores[a].cmp(&scores[b]))?;
/// assert_eq!(law.len(), 2);
/// assert_eq!(law.probability(&vec![1, 0, 2]), 0.5);
/// assert_eq!(law.probability(&vec![1, 2, 0]), 0.5);
/// # Ok::<(), dice_core::Error>(())
/// ```
pub fn fair_roll_off_orders(
    len: usize,
    mut compare: impl FnMut(usize, usize) -> Ordering,
) -> Result<Dist<Vec<usize>>, Error> {
    let groups = tied_groups(len, &mut compare);
    let mut count: u64 = 1;
    for g in &groups {
        for k in 1..=g.len() as u64 {
            count = count.saturating_mul(k);
        }
    }
    if count > MAX_ROLL_OFF_ORDERS {
        return Err(Error::TooComplex {
            what: "roll-off orders",
            work: count,
            max: MAX_ROLL_OFF_ORDERS,
        });
    }
    let mut orders: Vec<Vec<usize>> = alloc::vec![Vec::with_capacity(len)];
    for g in &groups {
        let perms = permutations(g);
        let mut next = Vec::with_capacity(orders.len() * perms.len());
        for o in &orders {
            for p in &perms {
                let mut v = o.clone();
                v.extend_from_slice(p);
                next.push(v);
            }
        }
        orders = next;
    }
    let p = 1.0 / count as f64;
    Dist::from_pairs(orders.into_iter().map(|o| (o, p)))
}

/// Every order of `items`.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return alloc::vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_ties_rolls_nothing() {
        let scores = [4, 9, 1];
        let order = rank_with_roll_offs(
            3,
            |a, b| scores[a].cmp(&scores[b]),
            5,
            |_| -> Result<u8, ()> { panic!("no roll-off needed") },
        );
        assert_eq!(order, Ok(alloc::vec![1, 0, 2]));
    }

    #[test]
    fn ties_roll_in_group_order_and_settle_depth_first() {
        // Contestants 0, 1, 2 tied on top, 3 and 4 tied below. Round one of the top group:
        // 0 → 4, 1 → 6, 2 → 4; 1 goes first, then 0 and 2 roll again (3, 5) before the
        // lower group rolls (2, 1).
        let scores = [7, 7, 7, 2, 2];
        let mut calls = Vec::new();
        let mut faces = [4, 6, 4, 3, 5, 2, 1].into_iter();
        let order = rank_with_roll_offs(
            5,
            |a, b| scores[a].cmp(&scores[b]),
            10,
            |i| {
                calls.push(i);
                faces.next().ok_or("out")
            },
        );
        assert_eq!(order, Ok(alloc::vec![1, 2, 0, 3, 4]));
        assert_eq!(calls, [0, 1, 2, 0, 2, 3, 4]);
    }

    #[test]
    fn a_roll_that_never_separates_is_unresolved_and_errors_pass_through() {
        let same = |_: usize, _: usize| Ordering::Equal;
        assert_eq!(
            rank_with_roll_offs(3, same, 4, |_| Ok::<u8, ()>(1)),
            Err(RollOffError::Unresolved {
                first: 0,
                second: 1
            })
        );
        assert_eq!(
            rank_with_roll_offs(2, same, 4, |_| Err::<u8, _>("boom")),
            Err(RollOffError::Roll("boom"))
        );
    }

    #[test]
    fn fair_orders_are_uniform_within_groups() {
        let scores = [1, 1, 1, 0, 0];
        let law = fair_roll_off_orders(5, |a, b| scores[a].cmp(&scores[b])).unwrap();
        assert_eq!(law.len(), 12); // 3! × 2!
        for (o, p) in law.iter() {
            assert!((p - 1.0 / 12.0).abs() < 1e-15);
            let mut top = o[..3].to_vec();
            top.sort_unstable();
            assert_eq!(top, [0, 1, 2]);
        }
        let nine = [0; 9];
        assert!(fair_roll_off_orders(9, |a, b| nine[a].cmp(&nine[b])).is_err());
    }
}
