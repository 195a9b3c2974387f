//! Exact laws of rerolls and explosions applied over a whole term, one step after the other
//! (Foundry VTT's `6d10x5=10`, `20d20r1=1`, `5d10xo<8x10`; see `crate::sequence`).
//!
//! **Steps without a limit.** Each die then evolves on its own: what a die and the dice it
//! brings about add up to depends only on its own face. With `W_j(f)` the law of what a die
//! showing `f` adds from step `j` on, and `M_j` that of a new die entering at step `j`:
//! past the last step `W(f)` is the die's score; an explosion step `j` gives
//! `W_j(f) = W_{j+1}(f) * M` for a face passing its test (the new die enters at step `j` if
//! the step is recursive, else at `j + 1`), a reroll step gives `W_j(f) = M`. A recursive
//! explosion solves `M_j = A + B * M_j` (`A`, `B` the faces failing and passing the test)
//! by iterating until the unlisted mass is below the tolerance (untruncated, as dice-core);
//! a recursive reroll is `A / (1 − P(test))`. The term is `M_1` to the power of its dice.
//!
//! **One step with a limit.** The dice are checked in order; each check passes (`E`, chance
//! `p`) or not (`N`). Which checks happened, and so the law, depends only on how many of
//! each were seen before the walk ended: when every die was checked, or the limit `L` was
//! spent (the dice left unchecked then show any face, `R`). Summing over those ends:
//!
//! | step | every die checked, `k < L` | limit spent |
//! |---|---|---|
//! | explode (`x`) | `C(n−1+k, k) pᵏ qⁿ · Eᵏ Nⁿ` | `C(j+L−1, j) pᴸ qʲ · Eᴸ Nʲ Rⁿ⁻ʲ`, `j < n` |
//! | explode once (`xo`) | `C(n, k) pᵏ qⁿ⁻ᵏ · (ER)ᵏ Nⁿ⁻ᵏ` | `C(b+L−1, b) pᴸ qᵇ · (ER)ᴸ Nᵇ Rⁿ⁻ᴸ⁻ᵇ` |
//! | reroll until (`rr`) | `C(n−1+k, k) pᵏ qⁿ · Nⁿ` | `C(j+L−1, j) pᴸ qʲ · Nʲ Rⁿ⁻ʲ`, `j < n` |
//! | reroll once (`r`) | `C(n, k) pᵏ qⁿ⁻ᵏ · Rᵏ Nⁿ⁻ᵏ` | `C(b+L−1, b) pᴸ qᵇ · Rᴸ Nᵇ Rⁿ⁻ᴸ⁻ᵇ` |
//!
//! where `E`, `N`, `R` are the laws of a die's score given it passes, fails, or either, and
//! powers are convolution powers. Each sum of products of powers is built in one pass
//! (`Y_t = Y_{t−1} * y + v_t·xᵗ`), the work estimated and charged before it starts.

use dice_core::Keep;

use super::{Budget, Fail, Law, TOLERANCE, face_law};
use crate::ast::StepKind;
use crate::compile::PoolSpec;
use crate::sequence::SeqSpec;

/// The law of a pool whose rerolls and explosions are a sequence of steps.
pub(super) fn sequence_law(p: &PoolSpec, b: &mut Budget) -> Result<Law, Fail> {
    if p.keep != Keep::All || p.select.is_some() || !p.steps.is_empty() {
        return Err(Fail::Unsupported(
            "keep/drop over dice rerolled or exploded one step after the other (a limit in \
             the term, or several rerolls or explosions)",
        ));
    }
    let score = |f: i64| p.score(p.clamp(f));
    match p.sequence.as_slice() {
        [one] if one.limit.is_some() => limited(p, one, &score, b),
        steps if steps.iter().all(|s| s.limit.is_none()) => unlimited(p, steps, &score, b),
        _ => Err(Fail::Unsupported(
            "a limit in the term together with other rerolls or explosions on the same term",
        )),
    }
}

/// Whether the law of the pool's sequence is untruncated (a recursive explosion without a
/// limit that some face passes), so that its unlisted mass is a tail.
pub(crate) fn untruncated(p: &PoolSpec) -> bool {
    p.sequence.iter().any(|s| {
        s.kind == StepKind::Explode
            && s.recursive
            && s.limit.is_none()
            && s.on.count_in(p.lo, p.hi) > 0
    })
}

/// `law` with every probability multiplied by `w`.
fn scaled(law: &Law, w: f64) -> Law {
    Law {
        offset: law.offset,
        p: law.p.iter().map(|q| q * w).collect(),
    }
}

/// `law` divided by its mass (a point at 0 for an empty law, whose weight is then 0).
fn normalized(law: &Law) -> Law {
    let mass = law.mass();
    if mass > 0.0 {
        scaled(law, 1.0 / mass)
    } else {
        Law::point(0)
    }
}

/// An estimate of the work of [`mix_powers`]: each of its `m` steps convolves the sum so far
/// (up to `m` times the wider law's span) with `y` and the power of `x` with `x`.
fn mix_cost(x: &Law, y: &Law, m: u32) -> f64 {
    let w = x.p.len().max(y.p.len()) as f64;
    let m = f64::from(m);
    m * (m + 1.0) / 2.0 * w * w * 2.0 + w
}

/// `Σ_{t=0..=m} v[t] · xᵗ * yᵐ⁻ᵗ` (convolution powers), as `Y_t = Y_{t−1} * y + v[t]·xᵗ`.
fn mix_powers(x: &Law, y: &Law, m: u32, v: &[f64], b: &mut Budget) -> Result<Law, Fail> {
    let mut acc = Law::empty();
    let mut power = Law::point(0);
    for t in 0..=m as usize {
        if t > 0 {
            acc = acc.convolve(y, b)?;
            power = power.convolve(x, b)?;
        }
        let w = v.get(t).copied().unwrap_or(0.0);
        if w > 0.0 {
            acc = acc.mix(&scaled(&power, w));
        }
    }
    Ok(acc)
}

/// `k · ln x`, with `0 · ln 0 = 0`.
fn times_ln(k: u64, ln_x: f64) -> f64 {
    if k == 0 { 0.0 } else { k as f64 * ln_x }
}

/// An estimate of the work of `law` to the power `n` by binary powering (the last squarings
/// dominate: about the square of the result's span).
fn power_cost(law: &Law, n: u32) -> f64 {
    let span = law.p.len() as f64 * f64::from(n);
    span * span * 1.5 + span
}

/// `C(j + l − 1, j)·pˡ·qʲ` for `j < count`: the chance that the `l`-th pass comes after
/// exactly `j` failures (logarithms, so that large counts neither overflow nor underflow).
fn spent_weights(count: u64, l: u64, ln_p: f64, ln_q: f64) -> Vec<f64> {
    let mut ln_c = 0.0;
    (0..count)
        .map(|j| {
            if j > 0 {
                ln_c += ((j + l - 1) as f64).ln() - (j as f64).ln();
            }
            (ln_c + times_ln(l, ln_p) + times_ln(j, ln_q)).exp()
        })
        .collect()
}

/// One reroll or explosion step with a limit in the term (see the module's table).
fn limited(
    p: &PoolSpec,
    step: &SeqSpec,
    score: &impl Fn(i64) -> i64,
    b: &mut Budget,
) -> Result<Law, Fail> {
    let n = p.count;
    let n64 = u64::from(n);
    let limit = step.limit.unwrap_or(u32::MAX);
    let lim = u64::from(limit);
    let face = face_law(p);
    let passing = face.filter(|f| step.on.test(f));
    let pass = passing.mass().clamp(0.0, 1.0);
    let fail = (1.0 - pass).max(0.0);
    let raw = face.map(score)?;
    let e = normalized(&passing.map(score)?);
    let nn = normalized(&face.filter(|f| !step.on.test(f)).map(score)?);
    let (ln_p, ln_q) = (pass.ln(), fail.ln());
    if step.recursive {
        // Every die checked: k < L passes before the n-th failure, C(n − 1 + k, k)·pᵏ·qⁿ.
        // Past the most likely k the weights only fall; they are dropped once they vanish.
        let mode = (n64 as f64 - 1.0) * pass / fail.max(f64::MIN_POSITIVE);
        let mut every_w = Vec::new();
        let mut ln_c = 0.0;
        // Without failing faces no walk checks every die.
        for k in (0..lim).take_while(|_| fail > 0.0) {
            if k > 0 {
                ln_c += ((n64 - 1 + k) as f64).ln() - (k as f64).ln();
            }
            let w = (ln_c + times_ln(k, ln_p) + times_ln(n64, ln_q)).exp();
            if k as f64 > mode && w < f64::MIN_POSITIVE {
                break;
            }
            every_w.push(w);
        }
        let kmax = u32::try_from(every_w.len().saturating_sub(1)).unwrap_or(u32::MAX);
        let spent_w = spent_weights(n64, lim, ln_p, ln_q);
        // Without passing faces (or past underflow) the limit is never spent.
        let spends = spent_w.iter().any(|&w| w > 0.0);
        return match step.kind {
            StepKind::Explode => {
                let zero = Law::point(0);
                let spent_cost = if spends {
                    mix_cost(&nn, &raw, n) + power_cost(&e, limit)
                } else {
                    0.0
                };
                b.afford(mix_cost(&e, &zero, kmax) + power_cost(&nn, n) + spent_cost)?;
                let every =
                    mix_powers(&e, &zero, kmax, &every_w, b)?.convolve(&nn.power(n, b)?, b)?;
                if !spends {
                    return Ok(every.trim());
                }
                let spent =
                    mix_powers(&nn, &raw, n, &spent_w, b)?.convolve(&e.power(limit, b)?, b)?;
                Ok(every.mix(&spent).trim())
            }
            StepKind::Reroll => {
                b.afford(power_cost(&nn, n) + mix_cost(&nn, &raw, n))?;
                let w: f64 = every_w.iter().sum();
                let every = scaled(&nn.power(n, b)?, w);
                let spent = mix_powers(&nn, &raw, n, &spent_w, b)?;
                Ok(every.mix(&spent).trim())
            }
        };
    }
    // Only the term's own dice are checked, in order: the first L passes act.
    let acted = match step.kind {
        StepKind::Explode => e.convolve(&raw, b)?,
        StepKind::Reroll => raw.clone(),
    };
    let mut every_w = Vec::new();
    let mut ln_c = 0.0;
    for k in 0..=n64 {
        if k > 0 {
            ln_c += ((n64 - k + 1) as f64).ln() - (k as f64).ln();
        }
        let w = if k < lim {
            (ln_c + times_ln(k, ln_p) + times_ln(n64 - k, ln_q)).exp()
        } else {
            0.0
        };
        every_w.push(w);
    }
    b.afford(mix_cost(&acted, &nn, n) + mix_cost(&nn, &raw, n) + power_cost(&acted, limit.min(n)))?;
    let every = mix_powers(&acted, &nn, n, &every_w, b)?;
    if lim > n64 {
        return Ok(every.trim());
    }
    // The L-th pass after b failures, the n − L − b dice after it unchecked.
    let rest = n - limit;
    let spent_w = spent_weights(u64::from(rest) + 1, lim, ln_p, ln_q);
    let spent = mix_powers(&nn, &raw, rest, &spent_w, b)?.convolve(&acted.power(limit, b)?, b)?;
    Ok(every.mix(&spent).trim())
}

/// Steps without limits: the law of one die and what it brings about, to the power of the
/// term's dice (see the module's documentation).
fn unlimited(
    p: &PoolSpec,
    steps: &[SeqSpec],
    score: &impl Fn(i64) -> i64,
    b: &mut Budget,
) -> Result<Law, Fail> {
    let face = face_law(p);
    let faces: Vec<(i64, f64)> = face.iter().collect();
    let tol = TOLERANCE / f64::from(p.count.max(1));
    // What a die showing each face adds from the current step on.
    let mut w: Vec<Law> = faces.iter().map(|&(f, _)| Law::point(score(f))).collect();
    let mix = |w: &[Law], keep: &dyn Fn(i64) -> bool| -> Law {
        let mut acc = Law::empty();
        for (law, &(f, q)) in w.iter().zip(&faces) {
            if keep(f) {
                acc = acc.mix(&scaled(law, q));
            }
        }
        acc
    };
    let mut next = mix(&w, &|_| true);
    for step in steps.iter().rev() {
        let passes = |f: i64| step.on.test(f);
        let chance: f64 = faces
            .iter()
            .filter(|(f, _)| passes(*f))
            .map(|(_, q)| q)
            .sum();
        let entering = if !step.recursive {
            next.clone()
        } else {
            let fails = mix(&w, &|f| !passes(f));
            match step.kind {
                StepKind::Reroll => scaled(&fails, 1.0 / (1.0 - chance).max(f64::MIN_POSITIVE)),
                StepKind::Explode => {
                    let pass = mix(&w, &|f| passes(f));
                    // M = A + B * M, until the unlisted mass (chance^depth) is below the
                    // tolerance; the work first.
                    let depth = if chance <= 0.0 {
                        0.0
                    } else {
                        (tol.ln() / chance.ln()).ceil().max(1.0)
                    };
                    let grow = pass.p.len().max(1) as f64;
                    b.afford(depth * depth * grow * grow / 2.0 + depth * fails.p.len() as f64)?;
                    let mut m = fails.clone();
                    let mut unlisted = chance;
                    while unlisted > tol && chance > 0.0 {
                        m = fails.mix(&pass.convolve(&m, b)?);
                        unlisted *= chance;
                    }
                    m.trim()
                }
            }
        };
        for (law, &(f, _)) in w.iter_mut().zip(&faces) {
            if passes(f) {
                *law = match step.kind {
                    StepKind::Explode => law.convolve(&entering, b)?,
                    StepKind::Reroll => entering.clone(),
                };
            }
        }
        next = mix(&w, &|_| true);
    }
    b.afford(power_cost(&next, p.count))?;
    next.power(p.count, b)
}
