//! Rerolls and explosions applied over a whole term, one step after the other, as Foundry
//! VTT applies its `r`, `rr`, `x` and `xo` modifiers: `6d10x5=10` (at most five explosions in
//! the term), `20d20r1=1` (at most one reroll), `5d10xo<8x10` (two explosions, in the order
//! written).
//!
//! Each step walks the term's dice in the order they were rolled: the term's own dice, then
//! every die added since, at the end. A die passing the step's test explodes (a new die is
//! added at the end) or is rerolled (it is set aside and a new die added at the end) while
//! the step's term-wide limit lasts; once it is spent the step stops. A recursive step (`x`,
//! `rr`) goes on over the dice it added; a non-recursive one (`xo`, `r`) stops after the
//! dice there when it began. Faces given in advance are read in that order.

use crate::ast::{Cmp, RollStep, StepKind};
use crate::compile::PoolSpec;
use crate::roll::{Faces, RolledDie};

/// A step of a sequence with the cap that stops a roll of an unlimited recursive explosion.
#[derive(Clone, Debug)]
pub(crate) struct SeqSpec {
    pub(crate) kind: StepKind,
    pub(crate) recursive: bool,
    pub(crate) on: Cmp,
    pub(crate) limit: Option<u32>,
    /// The longest chain of explosions from one die a roll follows (one for a
    /// non-recursive step; without a limit, where going on is less likely than dice-core's
    /// `UNCAPPED_CUT_MASS`, so that rolls draw the untruncated law the exact odds list).
    pub(crate) cap: u32,
}

/// The steps of a term, with their roll caps, for a pool whose faces are `p.lo..=p.hi`.
pub(crate) fn specs(steps: &[RollStep], p: &PoolSpec) -> Vec<SeqSpec> {
    let sides = (p.hi - p.lo + 1) as f64;
    steps
        .iter()
        .map(|s| {
            let chance = s.on.count_in(p.lo, p.hi) as f64 / sides;
            let cap = match (s.kind, s.recursive, s.limit) {
                (StepKind::Explode, false, _) => 1,
                // The limit stops it: a chain cannot be longer.
                (StepKind::Explode, true, Some(limit)) => limit,
                (StepKind::Explode, true, None) => dice_core::uncapped_roll_cap(chance),
                (StepKind::Reroll, ..) => u32::MAX,
            };
            SeqSpec {
                kind: s.kind,
                recursive: s.recursive,
                on: s.on.clone(),
                limit: s.limit,
                cap,
            }
        })
        .collect()
}

/// The most faces one roll of the pool draws (a recursive reroll counted at its expected
/// number of rolls), and the most dice it can end with.
pub(crate) fn roll_budget(p: &PoolSpec) -> (u64, u64) {
    let sides = (p.hi - p.lo + 1) as u64;
    let mut dice = u64::from(p.count);
    let mut drawn = dice;
    for s in &p.sequence {
        let limit = s.limit.map_or(u64::MAX, u64::from);
        match s.kind {
            StepKind::Explode => {
                let per_die = if s.recursive { u64::from(s.cap) } else { 1 };
                let added = dice.saturating_mul(per_die).min(limit);
                dice = dice.saturating_add(added);
                drawn = drawn.saturating_add(added);
            }
            StepKind::Reroll => {
                let rerolled = if s.recursive {
                    let standing = sides - s.on.count_in(p.lo, p.hi).min(sides);
                    // Until the face stands: its expected number of rolls, or the limit.
                    dice.saturating_mul(sides.div_ceil(standing.max(1)))
                        .min(limit)
                } else {
                    dice.min(limit)
                };
                drawn = drawn.saturating_add(rerolled);
            }
        }
    }
    (drawn, dice)
}

/// One die of the walk: its face, and how it came about.
struct Slot {
    face: i64,
    active: bool,
    /// Added by an explosion.
    added: bool,
    exploded: bool,
    capped: bool,
    /// The die it was rolled in place of.
    replaces: Option<usize>,
    /// The die rolled in its place.
    replaced_by: Option<usize>,
}

/// Rolls `count` dice of the pool through its sequence, appending them to `dice` in the order
/// they are shown: each die where it was first rolled (a rerolled die shows the faces it was
/// rerolled from), the dice explosions added after the term's own, in the order rolled.
pub(crate) fn roll<F: Faces>(p: &PoolSpec, count: u32, src: &mut F, dice: &mut Vec<RolledDie>) {
    let mut slots: Vec<Slot> = (0..count)
        .map(|_| Slot {
            face: src.face(p.die, p.offset),
            active: true,
            added: false,
            exploded: false,
            capped: false,
            replaces: None,
            replaced_by: None,
        })
        .collect();
    // The explosion chain's length up to each die, within the current step.
    let mut depth: Vec<u32> = Vec::new();
    for step in &p.sequence {
        let initial = slots.len();
        depth.clear();
        depth.resize(initial, 0);
        let mut left = step.limit;
        let mut checked = 0;
        while checked < slots.len() {
            let i = checked;
            checked += 1;
            if !slots[i].active {
                continue;
            }
            if left == Some(0) || src.exhausted() {
                break;
            }
            if step.on.test(slots[i].face) {
                if step.kind == StepKind::Explode && depth[i] >= step.cap {
                    slots[i].capped = true;
                } else {
                    let face = src.face(p.die, p.offset);
                    let new = slots.len();
                    let replaces = match step.kind {
                        StepKind::Reroll => {
                            slots[i].active = false;
                            slots[i].replaced_by = Some(new);
                            Some(i)
                        }
                        StepKind::Explode => {
                            slots[i].exploded = true;
                            None
                        }
                    };
                    slots.push(Slot {
                        face,
                        active: true,
                        added: step.kind == StepKind::Explode,
                        exploded: false,
                        capped: false,
                        replaces,
                        replaced_by: None,
                    });
                    depth.push(depth[i].saturating_add(1));
                    left = left.map(|n| n - 1);
                }
            }
            if !step.recursive && checked >= initial {
                break;
            }
        }
    }
    for (i, slot) in slots.iter().enumerate() {
        if slot.replaces.is_some() {
            continue; // shown where the die it replaced was rolled
        }
        let mut rerolled = Vec::new();
        let mut at = i;
        while let Some(next) = slots[at].replaced_by {
            rerolled.push(slots[at].face);
            at = next;
        }
        let last = &slots[at];
        let mut d = RolledDie::new(last.face);
        d.rerolled = rerolled;
        d.added = slot.added;
        d.exploded = last.exploded || slot.exploded;
        d.capped = last.capped;
        dice.push(d);
    }
}
