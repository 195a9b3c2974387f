//! The engine of an opposed roll when a side places its (N+M) bonuses itself
//! ([`BonusAssignment::Best`], L51): the acting side after its own roll and before the
//! opposition's (the order of the Sample Rounds, L270–L272), against the opposition's law;
//! the opposing side knowing the acting dice. Also the opposing side's own facts (its natural
//! 1s and its advancement pool), which criticals and advancement need (L21, L27).

use dice_core::{BlockRule, count_blocked_sorted};

use crate::dice::{Compiled, Evaluated};
use crate::error::Error;
use crate::exact::enumerate_naturals;
use crate::rules::BonusAssignment;

/// Two chances closer than this are a tie (far below any difference the dice can make at
/// the pool sizes the enumeration allows).
const EPS: f64 = 1e-12;

/// One placement of the acting side: the modifier each rolled die takes, the hits (values
/// meeting the difficulty, ascending) and whether the advancement pool passed.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub add: Vec<i32>,
    pub hits: Vec<i32>,
    pub pool_ok: bool,
}

/// One placement of the opposing side: its modifiers, its values (ascending) and whether its
/// advancement pool passed (every die of it showing 4 or more: a defense die has no
/// threshold of its own, L111).
#[derive(Clone, Debug)]
pub(crate) struct DefOption {
    pub add: Vec<i32>,
    pub values: Vec<i32>,
    pub pool_ok: bool,
}

/// A class of opposition rolls with the same options and facts.
#[derive(Clone, Debug)]
pub(crate) struct DefenseClass {
    pub options: Vec<(Vec<i32>, bool)>,
    pub ones: u32,
    pub p: f64,
}

/// Natural 1s among the rolled dice (constants are never criticals).
#[inline]
pub(crate) fn ones(nat: &[u8]) -> u32 {
    nat.iter().filter(|&&f| f == 1).count() as u32
}

/// Whether a side places its bonuses itself.
pub(crate) fn chooses(c: &Compiled) -> bool {
    c.assignment == BonusAssignment::Best && !c.plus.is_empty() && c.rolled() > 0
}

fn hits_of(c: &Compiled, ev: &Evaluated) -> Vec<i32> {
    // Room for every die at once: growing a vector is a `realloc`, which under glibc locks
    // the arena owning the block even for the smallest blocks (a small `malloc` or `free`
    // mostly does not), and a block freed on one thread and reused on another makes two
    // threads of a Monte Carlo run wait on the same lock.
    let mut h = Vec::with_capacity(ev.len);
    h.extend(
        ev.value[..ev.len]
            .iter()
            .copied()
            .filter(|&v| v >= c.difficulty),
    );
    h.sort_unstable();
    h
}

/// The acting side's placements for these faces: every distinct one when it chooses (the
/// highest-dice one first), else the rules' one.
pub(crate) fn candidates(c: &Compiled, nat: &[u8], choose: bool) -> Vec<Candidate> {
    let n = nat.len();
    let mut base = Evaluated::new();
    c.fill(nat, &mut base);
    let one = |ev: &Evaluated, add: Vec<i32>| Candidate {
        hits: hits_of(c, ev),
        pool_ok: crate::exact::facts(ev, c.difficulty, c.adv_colour, c.uses_natural).pool_ok,
        add,
    };
    if let Some(all) = choose.then(|| c.placements(nat)).flatten() {
        let mut out: Vec<Candidate> = Vec::new();
        for add in all.chunks_exact(n.max(1)) {
            let mut ev = base.clone();
            Compiled::add(&mut ev, add);
            let cand = one(&ev, add.to_vec());
            if !out
                .iter()
                .any(|o| o.hits == cand.hits && o.pool_ok == cand.pool_ok)
            {
                out.push(cand);
            }
        }
        return out;
    }
    let mut ev = Evaluated::new();
    c.evaluate(nat, &mut ev);
    let add = (0..n).map(|i| ev.modifier[i] - base.modifier[i]).collect();
    vec![one(&ev, add)]
}

/// The opposing side's advancement pool on evaluated dice.
pub(crate) fn def_pool_ok(c: &Compiled, ev: &Evaluated) -> bool {
    let mut pool = 0;
    let mut ok = true;
    for i in 0..ev.len {
        if ev.colour[i] == c.adv_colour {
            pool += 1;
            let face = if c.uses_natural {
                i32::from(ev.natural[i])
            } else {
                ev.value[i]
            };
            ok &= face >= 4;
        }
    }
    ok && pool > 0
}

/// The opposing side's placements for these faces: every distinct one when it chooses, else
/// the rules' one.
pub(crate) fn options(c: &Compiled, nat: &[u8], choose: bool) -> Vec<DefOption> {
    let n = nat.len();
    let mut base = Evaluated::new();
    c.fill(nat, &mut base);
    let one = |ev: &Evaluated, add: Vec<i32>| {
        let mut values = ev.value[..ev.len].to_vec();
        values.sort_unstable();
        DefOption {
            add,
            values,
            pool_ok: def_pool_ok(c, ev),
        }
    };
    if let Some(all) = choose.then(|| c.placements(nat)).flatten() {
        return all
            .chunks_exact(n.max(1))
            .map(|add| {
                let mut ev = base.clone();
                Compiled::add(&mut ev, add);
                one(&ev, add.to_vec())
            })
            .collect();
    }
    let mut ev = Evaluated::new();
    c.evaluate(nat, &mut ev);
    let add = (0..n).map(|i| ev.modifier[i] - base.modifier[i]).collect();
    vec![one(&ev, add)]
}

/// The opposing side's answer to known hits: the option letting the fewest through, then
/// the one whose pool passes; the first such. Returns (hits through, pool passed, option).
pub(crate) fn respond<'a>(
    hits: &[i32],
    options: impl Iterator<Item = (&'a [i32], bool)>,
    rule: BlockRule,
) -> (u32, bool, usize) {
    let mut best: Option<(u32, bool, usize)> = None;
    for (k, (values, pool_ok)) in options.enumerate() {
        let through = hits.len() as u32 - count_blocked_sorted(hits, values, rule);
        let better = match best {
            None => true,
            Some((t, ok, _)) => through < t || (through == t && pool_ok && !ok),
        };
        if better {
            best = Some((through, pool_ok, k));
        }
    }
    best.unwrap_or((hits.len() as u32, false, 0))
}

/// Keeps the options no other option beats on every sorted value and on the pool (a higher
/// die never blocks less), then merges equal ones.
fn prune(mut opts: Vec<(Vec<i32>, bool)>) -> Vec<(Vec<i32>, bool)> {
    opts.sort();
    opts.dedup();
    let dominated = |a: &(Vec<i32>, bool), b: &(Vec<i32>, bool)| {
        a != b && b.1 >= a.1 && a.0.iter().zip(&b.0).all(|(x, y)| y >= x)
    };
    let keep: Vec<bool> = opts
        .iter()
        .map(|a| !opts.iter().any(|b| dominated(a, b)))
        .collect();
    opts.into_iter()
        .zip(keep)
        .filter_map(|(o, k)| k.then_some(o))
        .collect()
}

/// A class of opposition rolls: its options (values, pool passed) and its natural 1s.
type ClassKey = (Vec<(Vec<i32>, bool)>, u32);

/// The opposition's law: every roll of its dice grouped by its options and its 1s.
pub(crate) fn defense_classes(c: &Compiled) -> Result<Vec<DefenseClass>, Error> {
    let choose = chooses(c);
    let mut map: crate::exact::FxMap<ClassKey, f64> = crate::exact::FxMap::default();
    enumerate_naturals(c, |nat, p| {
        let opts = prune(
            options(c, nat, choose)
                .into_iter()
                .map(|o| (o.values, o.pool_ok))
                .collect(),
        );
        *map.entry((opts, ones(nat))).or_insert(0.0) += p;
    })?;
    let mut v: Vec<DefenseClass> = map
        .into_iter()
        .map(|((options, ones), p)| DefenseClass { options, ones, p })
        .collect();
    v.sort_unstable_by(|a, b| (&a.options, a.ones).cmp(&(&b.options, b.ones)));
    Ok(v)
}

/// For known hits, the opposition's answer in each class: (hits through, its pool passed).
pub(crate) fn through_by_class(
    hits: &[i32],
    classes: &[DefenseClass],
    rule: BlockRule,
) -> Vec<(u32, bool)> {
    classes
        .iter()
        .map(|cl| {
            let (t, ok, _) = respond(
                hits,
                cl.options.iter().map(|(v, ok)| (v.as_slice(), *ok)),
                rule,
            );
            (t, ok)
        })
        .collect()
}

/// What a placement is worth to the acting side against the opposition's law: (chance the
/// hits through reach `needed`, mean hits through, chance to advance).
fn worth(
    cand: &Candidate,
    through: &[(u32, bool)],
    classes: &[DefenseClass],
    needed: u32,
    can_fail: bool,
) -> (f64, f64, f64) {
    let all = cand.hits.len() as u32;
    let (mut s, mut e, mut a) = (0.0, 0.0, 0.0);
    for (&(t, _), cl) in through.iter().zip(classes) {
        if t >= needed {
            s += cl.p;
            if cand.pool_ok && can_fail && t == all {
                a += cl.p;
            }
        }
        e += cl.p * f64::from(t);
    }
    (s, e, a)
}

/// The acting side's choice among its candidates: the first with the best worth
/// (lexicographic, ties within [`EPS`]). `through` gives each candidate's answers.
pub(crate) fn choose(
    cands: &[Candidate],
    mut through: impl FnMut(&Candidate) -> Vec<(u32, bool)>,
    classes: &[DefenseClass],
    needed: u32,
    can_fail: bool,
) -> usize {
    if cands.len() < 2 {
        return 0;
    }
    let mut best: Option<((f64, f64, f64), usize)> = None;
    for (k, c) in cands.iter().enumerate() {
        let w = worth(c, &through(c), classes, needed, can_fail);
        let better = match best {
            None => true,
            Some((b, _)) => {
                w.0 > b.0 + EPS
                    || ((w.0 - b.0).abs() <= EPS
                        && (w.1 > b.1 + EPS || ((w.1 - b.1).abs() <= EPS && w.2 > b.2 + EPS)))
            }
        };
        if better {
            best = Some((w, k));
        }
    }
    best.map_or(0, |(_, k)| k)
}
