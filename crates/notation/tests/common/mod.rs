//! Shared test helpers: brute-force enumeration of random processes, and a reference roller
//! written straight from the documented semantics (docs/notation.md), sharing no code with
//! the crate.
#![allow(dead_code)]

use std::collections::BTreeMap;

use dice_core::Keep;

/// The faces one run of a process reads: a fixed prefix, then nothing (the run is void and
/// the enumerator branches on the face it asked for).
pub struct Tape {
    prefix: Vec<u32>,
    pos: usize,
    /// The branches wanted after the prefix: a face standing for its class, and the chance
    /// of the class.
    wants: Option<Vec<(u32, f64)>>,
}

impl Tape {
    /// A face `1..=sides`.
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.roll_by(sides, u64::from)
    }

    /// A face `1..=sides`, where the caller promises that what it does next depends on the
    /// face only through `class(face)` (a face that is rerolled away, say, is forgotten):
    /// faces of one class are enumerated as one branch, weighing their number.
    pub fn roll_by(&mut self, sides: u32, class: impl Fn(u32) -> u64) -> u32 {
        if let Some(&f) = self.prefix.get(self.pos) {
            self.pos += 1;
            return f;
        }
        if self.wants.is_none() {
            let mut classes: Vec<(u64, u32, u32)> = Vec::new(); // class, first face, count
            for f in 1..=sides {
                let c = class(f);
                match classes.iter_mut().find(|(k, _, _)| *k == c) {
                    Some(entry) => entry.2 += 1,
                    None => classes.push((c, f, 1)),
                }
            }
            self.wants = Some(
                classes
                    .into_iter()
                    .map(|(_, f, n)| (f, f64::from(n) / f64::from(sides)))
                    .collect(),
            );
        }
        1
    }

    /// Whether the prefix ran out: a loop that could go on forever must stop.
    pub fn stopped(&self) -> bool {
        self.wants.is_some()
    }
}

/// Every outcome of `process` with its probability, over every sequence of at most
/// `max_draws` faces (each sequence of faces of sides `s₁, s₂, …` weighs `1/(s₁·s₂·…)`);
/// also returns the mass of the longer sequences, which were not enumerated.
pub fn enumerate<O: Ord>(
    max_draws: usize,
    process: impl Fn(&mut Tape) -> O,
) -> (BTreeMap<O, f64>, f64) {
    let mut law = BTreeMap::new();
    let mut missing = 0.0;
    let mut stack = vec![(Vec::new(), 1.0f64)];
    while let Some((prefix, w)) = stack.pop() {
        let mut tape = Tape {
            prefix,
            pos: 0,
            wants: None,
        };
        let out = process(&mut tape);
        match tape.wants {
            None => *law.entry(out).or_insert(0.0) += w,
            Some(_) if tape.prefix.len() >= max_draws => missing += w,
            Some(branches) => {
                for (f, chance) in branches {
                    let mut p = tape.prefix.clone();
                    p.push(f);
                    stack.push((p, w * chance));
                }
            }
        }
    }
    (law, missing)
}

/// A face test.
pub type Test = Box<dyn Fn(i64) -> bool>;

/// A pool as docs/notation.md describes it: faces `lo..=hi`; each face rerolled (once, or
/// until it no longer passes); explosions on the face left after rerolls (added dice rolled
/// the same way) up to `cap` extra faces per die; each value clamped; keep/drop by value;
/// then the kept dice counted (successes minus failures) or added up.
pub struct RefPool {
    pub count: u32,
    pub lo: i64,
    pub hi: i64,
    pub reroll: Option<(bool, Test)>,
    /// (compound, test, cap)
    pub explode: Option<(bool, Test, u32)>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub keep: Keep,
    pub success: Option<Test>,
    pub failure: Option<Test>,
}

impl RefPool {
    /// `count` dice with faces `lo..=hi`, no modifier.
    pub fn new(count: u32, lo: i64, hi: i64) -> RefPool {
        RefPool {
            count,
            lo,
            hi,
            reroll: None,
            explode: None,
            min: None,
            max: None,
            keep: Keep::All,
            success: None,
            failure: None,
        }
    }

    /// `count` dice of `sides` faces.
    pub fn d(count: u32, sides: i64) -> RefPool {
        RefPool::new(count, 1, sides)
    }

    /// A face; faces of one class (see [`RefPool::class`]) form one branch.
    fn face(&self, t: &mut Tape, rerolls: bool) -> i64 {
        let sides = (self.hi - self.lo + 1) as u32;
        let lo = self.lo;
        lo + i64::from(t.roll_by(sides, |f| self.class(lo + i64::from(f) - 1, rerolls))) - 1
    }

    /// What the rest of a roll needs to know of a face: nothing for a face rerolled away;
    /// for a pool that counts without keeping, whether it explodes, succeeds and fails;
    /// otherwise the face itself.
    fn class(&self, v: i64, rerolls: bool) -> u64 {
        if rerolls && self.reroll.as_ref().is_some_and(|(_, r)| r(v)) {
            return 0;
        }
        if let (Some(s), Keep::All) = (&self.success, self.keep) {
            let c = self.min.map_or(v, |m| v.max(m));
            let c = self.max.map_or(c, |m| c.min(m));
            let explodes = self.explode.as_ref().is_some_and(|(_, e, _)| e(v));
            let fails = self.failure.as_ref().is_some_and(|f| f(c));
            let compound = self.explode.as_ref().is_some_and(|(c, _, _)| *c);
            if !compound {
                return 1 + u64::from(explodes) + 2 * u64::from(s(c)) + 4 * u64::from(fails);
            }
        }
        1000 + (v - self.lo) as u64
    }

    fn draw(&self, t: &mut Tape) -> i64 {
        let rerolls = self.reroll.is_some();
        let mut f = self.face(t, rerolls);
        match &self.reroll {
            Some((true, r)) if r(f) => f = self.face(t, false),
            Some((false, r)) => {
                while r(f) && !t.stopped() {
                    f = self.face(t, true);
                }
            }
            _ => {}
        }
        f
    }

    /// One roll.
    pub fn roll(&self, t: &mut Tape) -> i64 {
        let mut values = Vec::new();
        for _ in 0..self.count {
            let first = self.draw(t);
            match &self.explode {
                None => values.push(first),
                Some((compound, e, cap)) => {
                    let mut last = first;
                    let mut chain = vec![first];
                    let mut n = 0;
                    while e(last) && n < *cap {
                        last = self.draw(t);
                        chain.push(last);
                        n += 1;
                    }
                    if *compound {
                        values.push(chain.iter().sum());
                    } else {
                        values.extend(chain);
                    }
                }
            }
        }
        for v in &mut values {
            if let Some(m) = self.min {
                *v = (*v).max(m);
            }
            if let Some(m) = self.max {
                *v = (*v).min(m);
            }
        }
        let n = values.len();
        let kept: Vec<i64> = match self.keep {
            Keep::All => values,
            Keep::Highest(k) => top(values, k as usize, true),
            Keep::Lowest(k) => top(values, k as usize, false),
            Keep::DropLowest(k) => top(values, n.saturating_sub(k as usize), true),
            Keep::DropHighest(k) => top(values, n.saturating_sub(k as usize), false),
        };
        match &self.success {
            Some(s) => kept
                .iter()
                .map(|&v| i64::from(s(v)) - i64::from(self.failure.as_ref().is_some_and(|f| f(v))))
                .sum(),
            None => kept.iter().sum(),
        }
    }
}

fn top(mut values: Vec<i64>, k: usize, highest: bool) -> Vec<i64> {
    values.sort_unstable();
    if highest {
        values.reverse();
    }
    values.truncate(k);
    values
}

/// A streak: faces `lo..=hi`, length of the run of faces passing `on`, at most `cap`.
pub fn ref_streak(t: &mut Tape, lo: i64, hi: i64, on: impl Fn(i64) -> bool, cap: u32) -> i64 {
    let mut len = 0;
    while len < cap {
        // Only whether a face continues the streak matters.
        let class = |f: u32| u64::from(on(lo + i64::from(f) - 1));
        let f = lo + i64::from(t.roll_by((hi - lo + 1) as u32, class)) - 1;
        if !on(f) {
            break;
        }
        len += 1;
    }
    i64::from(len)
}

/// Floor division, written out.
pub fn floor_div(x: i64, y: i64) -> i64 {
    let q = x / y;
    if (x % y != 0) && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

/// `n` signs one inside another around `1`: `-(-(…1))`, built by hand.
pub fn negations(n: usize) -> dice_notation::Expr {
    use dice_notation::Expr;
    (0..n).fold(Expr::number(1), |e, _| Expr::negative(e))
}

/// `n` sums nested to the right, `1+(1+(…1))`, built by hand: each prints inside the last.
pub fn right_sums(n: usize) -> dice_notation::Expr {
    use dice_notation::{BinOp, Expr};
    (0..n).fold(Expr::number(1), |e, _| {
        Expr::binary(BinOp::Add, Expr::number(1), e)
    })
}
