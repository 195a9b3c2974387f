//! Chained keep/drop steps, as Avrae d20 applies them: `8d6kh5kl2` keeps the highest 5
//! together with the lowest 2 (consecutive operations of one kind join their selectors), and
//! `(10d6kh5)kl2` keeps the lowest 2 of the 5 kept (one operation after the other, each
//! choosing among the dice the earlier ones kept).
//!
//! In this crate's grammar a step is written `k(h5,l2)` or `d(=1,>4)`, one after the other:
//! `10d6k(h5)k(l2)`. A chain of one step with one selector is the plain keep/drop or
//! selection (`kh5`, `k(>3)`), so the chain holds only what those cannot say.
//!
//! The law is taken over the sorted outcomes: which dice a step keeps depends only on the
//! values and their ranks, so each multiset of values, weighted by its multinomial chance,
//! gives one total.

use std::collections::BTreeSet;
use std::fmt;

use dice_core::Keep;

use crate::ast::{Cmp, Select};

/// What one selector of a step picks among the dice (or items) still kept.
///
/// ```
/// use dice_notation::{Cmp, Pick};
/// assert_eq!(Pick::Highest(5).to_string(), "h5");
/// assert_eq!(Pick::Test(Cmp::Above(3)).to_string(), ">3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// The `n` highest (among equal values the earlier first).
    Highest(u32),
    /// The `n` lowest (among equal values the earlier first).
    Lowest(u32),
    /// Those whose value passes the test.
    Test(Cmp),
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pick::Highest(n) => write!(f, "h{n}"),
            Pick::Lowest(n) => write!(f, "l{n}"),
            Pick::Test(c) => write!(f, "{c}"),
        }
    }
}

/// One keep or drop step of a chain: keep (or drop) what any of its selectors picks, among
/// the dice the earlier steps kept.
///
/// ```
/// use dice_notation::{Expression, Dialect, Pick, Step};
/// let step = Step { keep: true, picks: vec![Pick::Highest(5), Pick::Lowest(2)] };
/// assert_eq!(step.to_string(), "k(h5,l2)");
/// // Avrae d20's `8d6kh5kl2` is that one step.
/// let e = Expression::parse_with("8d6kh5kl2", Dialect::D20)?;
/// assert_eq!(e.to_string(), "8d6k(h5,l2)");
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Keep (rather than drop) what the selectors pick.
    pub keep: bool,
    /// The selectors, whose picks are joined.
    pub picks: Vec<Pick>,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.keep { "k(" } else { "d(" })?;
        for (i, p) in self.picks.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{p}")?;
        }
        f.write_str(")")
    }
}

/// A plain keep/drop as a step (`None` for keeping all).
pub(crate) fn from_keep(keep: Keep) -> Option<Step> {
    let (keep, pick) = match keep {
        Keep::All => return None,
        Keep::Highest(k) => (true, Pick::Highest(k)),
        Keep::Lowest(k) => (true, Pick::Lowest(k)),
        Keep::DropHighest(k) => (false, Pick::Highest(k)),
        Keep::DropLowest(k) => (false, Pick::Lowest(k)),
    };
    Some(Step {
        keep,
        picks: vec![pick],
    })
}

/// rpg-dice-roller's keep and drops on one term (`3d10k1dh1`, `4d10dh1dl2`) as a chain:
/// the library ranks every die once, keeps the dice its keep names and then drops those its
/// drops name, each over all the dice (a drop can name a die the keep dropped). The dice
/// left are a run of ranks, which steps among the dice still kept reach whatever the number
/// of dice: a drop at the keep's end comes after the keep, one at the other end before it
/// (`kh3dl1dh1` is `d(l1)`, `k(h3)`, `d(h1)`). `None` for a keep of both ends (`kh` with
/// `kl`), whose run depends on the number of dice; at most one modifier of each kind.
///
/// ```
/// use dice_notation::{Dialect, Expression};
/// let e = Expression::parse_with("3d10k1dh1", Dialect::RpgDiceRoller)?;
/// assert_eq!(e.to_string(), "3d10k(h1)d(h1)");
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
pub(crate) fn keep_then_drop(keeps: &[Keep]) -> Option<Vec<Step>> {
    let mut keep = None;
    let (mut low, mut high) = (None, None);
    for k in keeps {
        match k {
            Keep::Highest(_) | Keep::Lowest(_) => {
                if keep.is_some() {
                    return None;
                }
                keep = Some(*k);
            }
            Keep::DropLowest(_) => low = Some(*k),
            Keep::DropHighest(_) => high = Some(*k),
            Keep::All => {}
        }
    }
    let (before, after) = match keep {
        Some(Keep::Lowest(_)) => (high, low),
        _ => (low, high),
    };
    Some(
        [before, keep, after]
            .into_iter()
            .flatten()
            .filter_map(from_keep)
            .collect(),
    )
}

/// A selection as a step.
pub(crate) fn from_select(s: &Select) -> Step {
    Step {
        keep: s.keep,
        picks: vec![Pick::Test(s.on.clone())],
    }
}

/// Appends `step`; with `merge`, joins it to the last step when both keep or both drop
/// (Avrae d20's `k1k2`).
pub(crate) fn push(steps: &mut Vec<Step>, step: Step, merge: bool) {
    match steps.last_mut() {
        Some(last) if merge && last.keep == step.keep => last.picks.extend(step.picks),
        _ => steps.push(step),
    }
}

/// The chain as this crate stores it: one step of one selector is a plain keep/drop or a
/// selection (several faces `k1k2` one selection of a set); anything else stays a chain.
pub(crate) fn lower(steps: Vec<Step>) -> (Keep, Option<Select>, Vec<Step>) {
    if let [step] = steps.as_slice() {
        if let [pick] = step.picks.as_slice() {
            return match (step.keep, pick) {
                (true, Pick::Highest(k)) => (Keep::Highest(*k), None, Vec::new()),
                (true, Pick::Lowest(k)) => (Keep::Lowest(*k), None, Vec::new()),
                (false, Pick::Highest(k)) => (Keep::DropHighest(*k), None, Vec::new()),
                (false, Pick::Lowest(k)) => (Keep::DropLowest(*k), None, Vec::new()),
                (keep, Pick::Test(on)) => (
                    Keep::All,
                    Some(Select {
                        keep,
                        on: on.clone(),
                    }),
                    Vec::new(),
                ),
            };
        }
        // Faces only (`k1k2`): one selection of the set of them.
        let mut faces = BTreeSet::new();
        let all_faces = step.picks.iter().all(|p| match p {
            Pick::Test(Cmp::Exactly(v)) => {
                faces.insert(*v);
                true
            }
            Pick::Test(Cmp::OneOf(s)) => {
                faces.extend(s.iter().copied());
                true
            }
            _ => false,
        });
        if all_faces {
            return (
                Keep::All,
                Some(Select {
                    keep: step.keep,
                    on: Cmp::OneOf(faces),
                }),
                Vec::new(),
            );
        }
    }
    (Keep::All, None, steps)
}

/// Marks which values stay after the steps, each choosing among those still kept (`kept`
/// on entry: the values kept so far).
pub(crate) fn apply(values: &[i64], kept: &mut [bool], steps: &[Step]) {
    apply_by(values, kept, steps, |c, v| c.test(*v));
}

/// [`apply`] over any ordered values, with `test` for a selector's test (the fraction
/// path's values are fractions).
pub(crate) fn apply_by<T: Ord>(
    values: &[T],
    kept: &mut [bool],
    steps: &[Step],
    test: impl Fn(&Cmp, &T) -> bool,
) {
    let mut order: Vec<usize> = Vec::with_capacity(values.len());
    let mut picked = vec![false; values.len()];
    for step in steps {
        picked.iter_mut().for_each(|p| *p = false);
        for pick in &step.picks {
            order.clear();
            order.extend((0..values.len()).filter(|&i| kept[i]));
            match pick {
                Pick::Highest(k) | Pick::Lowest(k) => {
                    // A stable sort: among equal values the earlier first.
                    if matches!(pick, Pick::Highest(_)) {
                        order.sort_by(|&i, &j| values[j].cmp(&values[i]));
                    } else {
                        order.sort_by(|&i, &j| values[i].cmp(&values[j]));
                    }
                    for &i in order.iter().take(*k as usize) {
                        picked[i] = true;
                    }
                }
                Pick::Test(c) => {
                    for &i in &order {
                        if test(c, &values[i]) {
                            picked[i] = true;
                        }
                    }
                }
            }
        }
        for (k, &p) in kept.iter_mut().zip(&picked) {
            if *k && p != step.keep {
                *k = false;
            }
        }
    }
}

/// The number of sorted outcomes (multisets) of `n` values out of `m`: `C(n + m − 1, n)`,
/// as a float (an estimate of the work of [`law`]).
pub(crate) fn multisets(n: u32, m: usize) -> f64 {
    let mut c = 1.0f64;
    for i in 1..=f64::from(n) as u64 {
        c = c * (m as f64 - 1.0 + i as f64) / i as f64;
    }
    c
}

/// The law of `Σ score(v)` over the values kept by `steps`, for `n` independent values of
/// law `per_die` (value, chance; values in increasing order), by enumerating the sorted
/// outcomes with their multinomial chances. The caller checks [`multisets`] first.
pub(crate) fn law(
    per_die: &[(i64, f64)],
    n: u32,
    steps: &[Step],
    score: &impl Fn(i64) -> i64,
) -> Vec<(i64, f64)> {
    let mut out: std::collections::BTreeMap<i64, f64> = std::collections::BTreeMap::new();
    let mut values: Vec<i64> = Vec::with_capacity(n as usize);
    let mut kept = vec![true; n as usize];
    // Counts chosen value by value: the chance of `c` of the `r` dice left showing value
    // `i` is C(r, c) p_i^c, so the weights multiply along the way.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        i: usize,
        left: u32,
        weight: f64,
        per_die: &[(i64, f64)],
        values: &mut Vec<i64>,
        kept: &mut [bool],
        steps: &[Step],
        score: &impl Fn(i64) -> i64,
        out: &mut std::collections::BTreeMap<i64, f64>,
    ) {
        if left == 0 {
            kept.iter_mut().for_each(|k| *k = true);
            apply(values, kept, steps);
            let total = values
                .iter()
                .zip(kept.iter())
                .filter(|(_, k)| **k)
                .map(|(v, _)| score(*v))
                .sum();
            *out.entry(total).or_insert(0.0) += weight;
            return;
        }
        if i == per_die.len() {
            return;
        }
        let (v, p) = per_die[i];
        let last = i + 1 == per_die.len();
        let mut w = weight;
        let mut binom = 1.0;
        let base = values.len();
        for c in 0..=left {
            if c > 0 {
                binom = binom * f64::from(left - c + 1) / f64::from(c);
                w *= p;
                values.push(v);
            }
            if last && c < left {
                continue;
            }
            if w * binom > 0.0 || c == 0 {
                walk(
                    i + 1,
                    left - c,
                    w * binom,
                    per_die,
                    values,
                    kept,
                    steps,
                    score,
                    out,
                );
            }
        }
        values.truncate(base);
    }
    walk(
        0,
        n,
        1.0,
        per_die,
        &mut values,
        &mut kept,
        steps,
        score,
        &mut out,
    );
    out.into_iter().filter(|&(_, q)| q > 0.0).collect()
}

/// The whole keep/drop of a term as steps: its plain keep/drop, then its selection, then
/// its chain.
pub(crate) fn as_steps(keep: Keep, select: Option<&Select>, steps: &[Step]) -> Vec<Step> {
    let mut out: Vec<Step> = from_keep(keep).into_iter().collect();
    out.extend(select.map(from_select));
    out.extend(steps.iter().cloned());
    out
}

/// Adds `step` after a term's keep/drop (joined to the last step with `merge`), and stores
/// the result back as [`lower`] does.
pub(crate) fn add_step(
    keep: &mut Keep,
    select: &mut Option<Select>,
    steps: &mut Vec<Step>,
    step: Step,
    merge: bool,
) {
    let mut chain = as_steps(*keep, select.as_ref(), steps);
    push(&mut chain, step, merge);
    (*keep, *select, *steps) = lower(chain);
}
