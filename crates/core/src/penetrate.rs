//! Penetrating dice (Hackmaster, rpg-dice-roller's `!p` and `!!p`): every face rolled after a
//! die's first counts one less. Whether a face explodes is decided on the natural face (the
//! face before the one is taken off), as rpg-dice-roller's `ExplodeModifier` does.
//!
//! This module holds the exact laws that differ from plain explosions: one die's whole value
//! (for totals, and for compounding penetrating dice, which are one die each) and the success
//! count of a pool whose penetrating explosions add dice. Keep/drop over penetrating dice that
//! add dice is in `keep_exploding`.

use alloc::vec;
use alloc::vec::Vec;

use crate::dist::{Dense, Tailed};
use crate::error::Error;
use crate::faces::Comparison;
use crate::pool::{CAPPED_LISTING_TOLERANCE, Explode, PoolPart, ValueLaw, check_work, powu};
use crate::success::{ChainDice, chain_count_law, face_chances};

/// The law of one penetrating die's whole value: its first face plus, for each face rolled
/// after it, that face less one (the same for a compounding die and for the chain of dice an
/// additional die starts: their totals agree).
///
/// With `Y` the total of the chain an explosion starts (its first added die and what follows),
/// `P(Y = y) = (1/s)·(#{non-exploding f : f − 1 = y} + Σ_{exploding f} P(Y = y − (f − 1)))`,
/// and the value is `V = first face` or `first face + Y` when the first face explodes. A face
/// of 1 that explodes adds 0 and goes on: its term `P(Y = y)/s` is moved to the left-hand side.
/// Survival functions follow the same recursions, so both are sums of non-negative terms.
pub(crate) fn value_law(
    part: &PoolPart,
    e: Explode,
    tol: f64,
    min_value: usize,
) -> Result<ValueLaw, Error> {
    let s = part.die().sides() as usize;
    let explodes: Vec<bool> = (0..s).map(|d| part.explode_test.digit(d as u64)).collect();
    let ne = explodes.iter().filter(|&&b| b).count();
    if ne == 0 {
        return Ok(ValueLaw::uniform(s));
    }
    let inv = 1.0 / s as f64;
    let p = ne as f64 * inv;
    if e.has_explicit_cap() && (ne == s || powu(p, u64::from(e.cap())) > CAPPED_LISTING_TOLERANCE) {
        return capped_value_law(&explodes, e.cap());
    }
    let tol = if e.has_explicit_cap() {
        CAPPED_LISTING_TOLERANCE
    } else {
        tol
    };
    // Chain length L with p^L ≤ tol / 2, for the work estimate.
    let mut levels = 0.0;
    let mut pl = 1.0;
    while pl > tol * 0.5 && levels < 1e7 {
        pl *= p;
        levels += 1.0;
    }
    check_work(
        "a penetrating die",
        ((levels + 1.0) * s as f64).max(min_value as f64) * (ne as f64 + 1.0) * 2.0,
    )?;
    // 1 − P(face 1 explodes and adds nothing): the self-term of the recursions.
    let self_term = if explodes[0] { 1.0 - inv } else { 1.0 };
    // g[y] = P(Y = y), big_g[y] = P(Y > y).
    let mut g: Vec<f64> = Vec::new();
    let mut big_g: Vec<f64> = Vec::new();
    // f[x] = P(V = x), big_f[x] = P(V > x).
    let mut f: Vec<f64> = Vec::new();
    let mut big_f: Vec<f64> = Vec::new();
    let mut x = 0usize;
    loop {
        // Y up to x (V's recursion needs Y up to x − 1).
        let y = x;
        let mut gy = 0.0;
        let mut gs = 0.0;
        for face in 1..=s {
            let add = face - 1;
            if explodes[face - 1] {
                if add == 0 {
                    continue; // the self-term
                }
                if add <= y {
                    gy += g[y - add] * inv;
                    gs += big_g[y - add] * inv;
                } else {
                    gs += inv;
                }
            } else {
                if add == y {
                    gy += inv;
                }
                if add > y {
                    gs += inv;
                }
            }
        }
        g.push(gy / self_term);
        big_g.push(gs / self_term);
        let mut fx = 0.0;
        let mut fs = 0.0;
        for face in 1..=s {
            if explodes[face - 1] {
                if face <= x {
                    fx += g[x - face] * inv;
                    fs += big_g[x - face] * inv;
                } else {
                    fs += inv;
                }
            } else {
                if face == x {
                    fx += inv;
                }
                if face > x {
                    fs += inv;
                }
            }
        }
        f.push(fx);
        big_f.push(fs);
        if (fs <= tol && x >= min_value && x >= s) || x > (1 << 24) {
            break;
        }
        x += 1;
    }
    let tail = if e.has_explicit_cap() { 0.0 } else { big_f[x] };
    Ok(ValueLaw {
        law: Dense {
            offset: 0,
            p: f.clone(),
        }
        .trim(),
        tail,
        tailed: Tailed { f, s: big_f },
    })
}

/// The capped law: at most `cap` faces after the first.
fn capped_value_law(explodes: &[bool], cap: u32) -> Result<ValueLaw, Error> {
    let s = explodes.len();
    let ne = explodes.iter().filter(|&&b| b).count();
    check_work(
        "a capped penetrating die",
        f64::from(cap) * f64::from(cap) * (s * ne) as f64,
    )?;
    let inv = 1.0 / s as f64;
    // h: the law of a chain of added dice with `d` more allowed, from d = 1 (one die, which
    // cannot explode any more) up to `cap`.
    let mut h = vec![inv; s];
    for _ in 1..cap {
        let mut next = vec![0.0; h.len() + s - 1];
        for face in 1..=s {
            if explodes[face - 1] {
                for (y, &q) in h.iter().enumerate() {
                    next[y + face - 1] += q * inv;
                }
            } else {
                next[face - 1] += inv;
            }
        }
        h = next;
    }
    let mut law = vec![0.0; h.len() + s + 1];
    for face in 1..=s {
        if explodes[face - 1] {
            for (y, &q) in h.iter().enumerate() {
                law[y + face] += q * inv;
            }
        } else {
            law[face] += inv;
        }
    }
    Ok(ValueLaw::finite(law))
}

/// The success-count law of a pool whose penetrating explosions add dice: the first die of a
/// chain is tested on its face, every added die on its face less one (whether a die explodes
/// is decided on its natural face). The law is
/// [`chain_count_law`](crate::success::chain_count_law)'s, the helper of plain additional
/// explosions, with the added dice's chances taken on the face less one.
pub(crate) fn count_law(
    parts: &[PoolPart],
    e: Explode,
    success: Comparison,
    tol: f64,
) -> Result<(Dense, f64), Error> {
    let chains: Vec<ChainDice> = parts
        .iter()
        .map(|part| {
            let sides = part.die().sides();
            ChainDice {
                count: part.count(),
                first: face_chances(sides, e.on(), |f| success.test(f)),
                added: face_chances(sides, e.on(), |f| success.test(f - 1)),
            }
        })
        .collect();
    chain_count_law(&chains, e.has_explicit_cap().then(|| e.cap()), tol)
}
