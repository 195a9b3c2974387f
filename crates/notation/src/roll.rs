//! Rolling: outcomes, the record of every die, and the evaluator shared by the RNG path and
//! the pure path (faces given in advance).

use std::fmt;

use dice_core::{Die, Keep, Roll, RollDetailed, RollRecord, Versus};
use rand::Rng;

use crate::ast::{BinOp, DieKind, Func, Span};
use crate::compile::{
    ComputedSpec, Fast, GroupSpec, Node, Op, Plan, PoolSpec, StreakSpec, Term, TermKind,
};

pub use crate::outcome::Outcome;

/// One die of a roll, as it went through the modifiers.
///
/// `Display` follows dice-core's conventions: a dropped die in parentheses `(2)`, a die added
/// by an explosion with a leading `+`, rerolled faces before the face that stood (`1r1r4`),
/// compounded faces as `6+4=10`, `!` for a die that exploded, `cap` for one stopped by the
/// cap, a clamped value after `→` (`1→2`), `*` for a success and `f` for a failure; a
/// critical success marked `**`, a critical failure `__`. A penetrating die added by an
/// explosion shows its face and what it counts (`6+5=5`… as `5-1=4`).
///
/// ```
/// use dice_notation::RolledDie;
/// let mut d = RolledDie::new(6);
/// d.exploded = true;
/// assert_eq!(d.to_string(), "6!");
/// let mut low = RolledDie::new(1);
/// low.rerolled = vec![1];
/// assert_eq!(low.to_string(), "1r1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RolledDie {
    /// The face that stood after rerolls (for a compounding die: its first face). A `dF`
    /// shows −1, 0 or +1.
    pub natural: i64,
    /// The die's value before clamps: the face, or a compounding die's sum of faces.
    pub raw: i64,
    /// The value that counts (`raw` after `min`/`max`).
    pub value: i64,
    /// Faces rolled and rerolled away before this one, in order.
    pub rerolled: Vec<i64>,
    /// Kept (false once keep/drop drops it).
    pub kept: bool,
    /// Its face exploded: another die follows it, or (compounding) another face was added.
    pub exploded: bool,
    /// Added by the explosion of the die before it.
    pub added: bool,
    /// Would have exploded (or continued a streak) but for the cap.
    pub capped: bool,
    /// Changed by `min`/`max`.
    pub clamped: bool,
    /// Passed the success test (a streak: continued it).
    pub success: bool,
    /// Passed the failure test.
    pub failure: bool,
    /// Marked a critical success (`cs`; no effect on the value).
    pub critical_success: bool,
    /// Marked a critical failure (`cf`; no effect on the value).
    pub critical_failure: bool,
}

impl RolledDie {
    /// A kept die showing `face`, with nothing else happening to it.
    ///
    /// ```
    /// let d = dice_notation::RolledDie::new(4);
    /// assert!(d.kept && !d.exploded);
    /// assert_eq!((d.natural, d.raw, d.value), (4, 4, 4));
    /// ```
    pub fn new(face: i64) -> RolledDie {
        RolledDie {
            natural: face,
            raw: face,
            value: face,
            rerolled: Vec::new(),
            kept: true,
            exploded: false,
            added: false,
            capped: false,
            clamped: false,
            success: false,
            failure: false,
            critical_success: false,
            critical_failure: false,
        }
    }
}

impl fmt::Display for RolledDie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.kept {
            f.write_str("(")?;
        }
        if self.added {
            f.write_str("+")?;
        }
        for r in &self.rerolled {
            write!(f, "{r}r")?;
        }
        write!(f, "{}", self.natural)?;
        if self.raw != self.natural {
            write!(f, "{:+}={}", self.raw - self.natural, self.raw)?;
        }
        if self.exploded {
            f.write_str("!")?;
        }
        if self.capped {
            f.write_str("cap")?;
        }
        if self.clamped {
            write!(f, "→{}", self.value)?;
        }
        if self.success {
            f.write_str("*")?;
        }
        if self.failure {
            f.write_str("f")?;
        }
        if self.critical_success {
            f.write_str("**")?;
        }
        if self.critical_failure {
            f.write_str("__")?;
        }
        if !self.kept {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// One dice term (or streak) of a roll: its canonical text, where it is in the input, every
/// die, and its value.
///
/// ```
/// use dice_notation::Expression;
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let e = Expression::parse("4d6kh3 + 1d4")?;
/// let r = e.roll(&mut Xoshiro256PlusPlus::seed_from_u64(1));
/// assert_eq!(r.terms.len(), 2);
/// assert_eq!(r.terms[0].term, "4d6kh3");
/// assert_eq!(r.terms[0].dice.len(), 4);
/// assert_eq!(r.terms[0].dice.iter().filter(|d| d.kept).count(), 3);
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TermRoll {
    /// The term in canonical form (`4d6kh3`).
    pub term: String,
    /// Where the term is in the input.
    pub span: Span,
    /// Every die rolled, in order (an exploded die is followed by the dice it added).
    pub dice: Vec<RolledDie>,
    /// The term's value: the kept total, the success count (minus failures), or the streak.
    pub value: i64,
}

impl fmt::Display for TermRoll {
    /// `4d6kh3 [6, 3, (1), 4] = 13`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [", self.term)?;
        for (i, d) in self.dice.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        write!(f, "] = {}", self.value)
    }
}

/// One roll of an expression, with every die.
///
/// `Display` lists the terms, then the result:
/// `4d6kh3 [6, 3, (1), 4] = 13; 1d4 [2] = 2 → 15`, or for a comparison
/// `1d20 [14] = 14 → 16 vs 15: above`.
///
/// ```
/// use dice_notation::{Expression, Outcome};
/// let e = Expression::parse("2d6 + 1")?;
/// let r = e.roll_faces([3, 5]).unwrap();
/// assert_eq!(r.outcome, Outcome::Number(9));
/// assert_eq!(r.to_string(), "2d6 [3, 5] = 8 → 9");
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RollResult {
    /// The result: what [`dice_core::Roll::roll`] returns for the same RNG state.
    pub outcome: Outcome,
    /// The value of the expression (of its left side, for a comparison), rounded toward −∞
    /// when it is a fraction ([`RollResult::total_exact`] then holds it).
    pub total: i64,
    /// The target of a comparison, rounded toward −∞ when it is a fraction.
    pub target: Option<i64>,
    /// The exact total, when it is not a whole number (the dialects' exact division and
    /// decimals: `4d6/7`); `None` when [`RollResult::total`] is exact.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub total_exact: Option<crate::rational::Rational>,
    /// The exact target, when it is not a whole number.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub target_exact: Option<crate::rational::Rational>,
    /// Every dice term, left to right.
    pub terms: Vec<TermRoll>,
}

impl fmt::Display for RollResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{t}")?;
        }
        if !self.terms.is_empty() {
            f.write_str(" → ")?;
        }
        match self.target {
            Some(target) => {
                let shown = |exact: Option<crate::rational::Rational>, whole: i64| {
                    exact.map_or_else(|| whole.to_string(), |r| r.to_string())
                };
                let total = shown(self.total_exact, self.total);
                let target = shown(self.target_exact, target);
                write!(f, "{total} vs {target}: {}", self.outcome)
            }
            None => write!(f, "{}", self.outcome),
        }
    }
}

// ------------------------------------------------------------------ face sources

/// Where faces come from: an RNG, or a list given in advance.
pub(crate) trait Faces {
    /// The next face of `die`, plus `offset` (−2 for a `dF`).
    fn face(&mut self, die: Die, offset: i64) -> i64;
    /// Whether a list ran out (loops that could go on stop).
    fn exhausted(&self) -> bool;
}

pub(crate) struct RngFaces<'a, R: Rng + ?Sized>(pub(crate) &'a mut R);

impl<R: Rng + ?Sized> Faces for RngFaces<'_, R> {
    #[inline]
    fn face(&mut self, die: Die, offset: i64) -> i64 {
        i64::from(die.roll_face(self.0)) + offset
    }
    #[inline]
    fn exhausted(&self) -> bool {
        false
    }
}

/// What was wrong with a list of faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListProblem {
    RanOut {
        used: usize,
    },
    BadFace {
        index: usize,
        face: i64,
        die: DieKind,
    },
}

pub(crate) struct ListFaces {
    pub(crate) faces: Vec<i64>,
    pub(crate) next: usize,
    pub(crate) problem: Option<ListProblem>,
}

impl Faces for ListFaces {
    fn face(&mut self, die: Die, offset: i64) -> i64 {
        let lo = 1 + offset;
        let Some(&face) = self.faces.get(self.next) else {
            self.problem
                .get_or_insert(ListProblem::RanOut { used: self.next });
            return lo;
        };
        let index = self.next;
        self.next += 1;
        let hi = i64::from(die.sides()) + offset;
        if !(lo..=hi).contains(&face) {
            let kind = if offset == 0 {
                DieKind::Sides(die.sides())
            } else {
                DieKind::Fudge
            };
            self.problem.get_or_insert(ListProblem::BadFace {
                index,
                face,
                die: kind,
            });
            return lo;
        }
        face
    }

    fn exhausted(&self) -> bool {
        self.problem.is_some()
    }
}

// ------------------------------------------------------------------ this crate's pools

/// One face, rerolled as the pool says; faces rerolled away go to `rerolled`.
#[inline]
fn draw<F: Faces>(p: &PoolSpec, src: &mut F, rerolled: &mut Vec<i64>) -> i64 {
    let mut face = src.face(p.die, p.offset);
    if let Some((once, on)) = &p.reroll {
        if *once {
            if on.test(face) {
                rerolled.push(face);
                face = src.face(p.die, p.offset);
            }
        } else {
            while on.test(face) && !src.exhausted() {
                rerolled.push(face);
                face = src.face(p.die, p.offset);
            }
        }
    }
    face
}

/// Rolls a pool through every modifier, in order: reroll, explode, clamp, keep, count.
pub(crate) fn roll_pool<F: Faces>(p: &PoolSpec, src: &mut F) -> (i64, Vec<RolledDie>) {
    roll_pool_of(p, p.count, src)
}

/// Rolls a computed dice term, whose count `n` and sides `s` were rolled: no die for a
/// count of 0, a 1 on every die of one side, else the pool of that size with `n` dice.
pub(crate) fn roll_computed<F: Faces>(
    c: &ComputedSpec,
    n: i64,
    s: i64,
    t: Option<i64>,
    src: &mut F,
) -> (i64, Vec<RolledDie>) {
    let Ok(n) = u32::try_from(n) else {
        return (0, Vec::new());
    };
    if c.rolled_sides && s == 1 {
        return (i64::from(n), (0..n).map(|_| RolledDie::new(1)).collect());
    }
    let index = if c.rolled_sides { s - c.sides_lo } else { 0 };
    match usize::try_from(index).ok().and_then(|i| c.variants.get(i)) {
        Some(p) if n > 0 => match t {
            // A rolled success target: the pool with that number in its test.
            Some(t) => {
                let mut p = p.clone();
                p.success = p.success.map(|c| c.with_number(t));
                roll_pool_of(&p, n, src)
            }
            None => roll_pool_of(p, n, src),
        },
        _ => (0, Vec::new()),
    }
}

/// [`roll_pool`] with `count` dice (keep/drop keeps or drops all when it names more).
fn roll_pool_of<F: Faces>(p: &PoolSpec, count: u32, src: &mut F) -> (i64, Vec<RolledDie>) {
    let mut dice: Vec<RolledDie> = Vec::with_capacity(count as usize);
    let pen = i64::from(p.explode.as_ref().is_some_and(|e| e.penetrate));
    // Foundry's term-wide rerolls and explosions roll every die at once.
    let one_by_one = if p.sequence.is_empty() {
        count
    } else {
        crate::sequence::roll(p, count, src, &mut dice);
        0
    };
    for _ in 0..one_by_one {
        let mut rerolled = Vec::new();
        let mut first = draw(p, src, &mut rerolled);
        if let Some(u) = &p.unique {
            // Rerolled while an earlier die of the pool shows the same face and the compare
            // point (if any) passes it: once for `uo`, else at most rpg-dice-roller's 1,000
            // times (as dice-core's law).
            let most = if u.once {
                1
            } else {
                dice_core::UNIQUE_MAX_REROLLS
            };
            let mut tries = 0;
            while tries < most
                && u.rerolls(first)
                && dice.iter().any(|d| d.natural == first)
                && !src.exhausted()
            {
                rerolled.push(first);
                first = draw(p, src, &mut rerolled);
                tries += 1;
            }
        }
        match &p.explode {
            None => {
                let mut d = RolledDie::new(first);
                d.rerolled = rerolled;
                dice.push(d);
            }
            Some(e) if e.compound => {
                let mut raw = first;
                let mut boom = e.on.test(first);
                let mut n = 0;
                while boom && n < e.cap {
                    let face = draw(p, src, &mut rerolled);
                    raw += face - pen;
                    boom = e.on.test(face);
                    n += 1;
                }
                let mut d = RolledDie::new(first);
                d.raw = raw;
                d.value = raw;
                d.rerolled = rerolled;
                d.exploded = n > 0;
                d.capped = boom;
                dice.push(d);
            }
            Some(e) => {
                let mut face = first;
                let mut n = 0;
                loop {
                    let boom = e.on.test(face);
                    let go_on = boom && n < e.cap;
                    let mut d = RolledDie::new(face);
                    if n > 0 {
                        d.raw = face - pen;
                    }
                    d.rerolled = std::mem::take(&mut rerolled);
                    d.added = n > 0;
                    d.exploded = go_on;
                    d.capped = boom && !go_on;
                    dice.push(d);
                    if !go_on {
                        break;
                    }
                    face = draw(p, src, &mut rerolled);
                    n += 1;
                }
            }
        }
    }
    if let Some(on) = &p.reroll_add {
        // Avrae d20's `ra`: the first die passing adds one die, rolled once.
        if dice.iter().any(|d| on.test(d.natural)) {
            let mut rerolled = Vec::new();
            let face = draw(p, src, &mut rerolled);
            let mut d = RolledDie::new(face);
            d.rerolled = rerolled;
            d.added = true;
            dice.push(d);
        }
    }
    for d in &mut dice {
        d.value = p.clamp(d.raw);
        d.clamped = d.value != d.raw;
    }
    mark_kept(&mut dice, p.keep);
    if let Some(sel) = &p.select {
        for d in &mut dice {
            d.kept = sel.stays(d.value);
        }
    }
    chain(&mut dice, &p.steps);
    // Roll20's `mt`: the number of sets of matching kept dice; a success count, or
    // Foundry's `sf` without `cs` (failures count against the total).
    let value = if let Some(m) = &p.matches {
        let kept: Vec<i64> = dice.iter().filter(|d| d.kept).map(|d| d.value).collect();
        m.sets(&kept)
    } else if p.success.is_some() || p.failure.is_some() {
        let mut net = 0;
        for d in dice.iter_mut().filter(|d| d.kept) {
            d.success = p.success.as_ref().is_some_and(|x| x.test(d.value));
            d.failure = p.failure.as_ref().is_some_and(|x| x.test(d.value));
            net += p.score(d.value);
        }
        net
    } else {
        dice.iter().filter(|d| d.kept).map(|d| d.value).sum()
    };
    decorate(p, &mut dice);
    (value, dice)
}

/// Chained keep/drop steps (Avrae d20's `8d6kh5kl2`), each among the dice still kept.
fn chain(dice: &mut [RolledDie], steps: &[crate::select::Step]) {
    if steps.is_empty() {
        return;
    }
    let values: Vec<i64> = dice.iter().map(|d| d.value).collect();
    let mut kept: Vec<bool> = dice.iter().map(|d| d.kept).collect();
    crate::select::apply(&values, &mut kept, steps);
    for (d, k) in dice.iter_mut().zip(kept) {
        d.kept = k;
    }
}

/// Display-only modifiers: critical markers on the natural faces, and the order shown.
pub(crate) fn decorate(p: &PoolSpec, dice: &mut [RolledDie]) {
    for d in dice.iter_mut() {
        d.critical_success = p.crit_success.as_ref().is_some_and(|c| c.test(d.natural));
        d.critical_failure = p.crit_failure.as_ref().is_some_and(|c| c.test(d.natural));
    }
    match p.sort {
        None => {}
        Some(crate::ast::Sort::Ascending) => dice.sort_by_key(|d| d.value),
        Some(crate::ast::Sort::Descending) => dice.sort_by_key(|d| std::cmp::Reverse(d.value)),
    }
}

/// Drops dice by value; among equal values the earlier die is kept (as dice-core does).
fn mark_kept(dice: &mut [RolledDie], keep: Keep) {
    let n = dice.len() as u32;
    let (top, k) = keep.as_top(n);
    if k == n {
        return;
    }
    let mut order: Vec<usize> = (0..dice.len()).collect();
    order.sort_by(|&a, &b| {
        let (va, vb) = (dice[a].value, dice[b].value);
        let by_value = if top { vb.cmp(&va) } else { va.cmp(&vb) };
        by_value.then(a.cmp(&b))
    });
    for &i in &order[k as usize..] {
        dice[i].kept = false;
    }
}

/// Rolls a streak: faces while they continue it, up to the cap.
pub(crate) fn roll_streak<F: Faces>(s: &StreakSpec, src: &mut F) -> (i64, Vec<RolledDie>) {
    let mut dice: Vec<RolledDie> = Vec::new();
    let mut length = 0u32;
    loop {
        if length == s.cap {
            if let Some(last) = dice.last_mut() {
                last.capped = true;
                last.exploded = false;
            }
            break;
        }
        let face = src.face(s.die, s.offset);
        let go_on = s.on.test(face);
        let mut d = RolledDie::new(face);
        d.added = length > 0;
        d.success = go_on;
        d.exploded = go_on;
        dice.push(d);
        if !go_on {
            break;
        }
        length += 1;
    }
    (i64::from(length), dice)
}

/// A dice-core record as this crate's dice.
fn from_record(record: &RollRecord, offset: i64) -> Vec<RolledDie> {
    record
        .dice
        .iter()
        .map(|d| {
            let natural = i64::from(d.natural) + offset;
            let raw = d.value + offset;
            RolledDie {
                natural,
                raw,
                value: raw,
                rerolled: Vec::new(),
                kept: d.flags.kept,
                exploded: d.flags.exploded,
                added: d.flags.added,
                capped: d.flags.capped,
                clamped: false,
                success: d.flags.success,
                failure: false,
                critical_success: false,
                critical_failure: false,
            }
        })
        .collect()
}

// ------------------------------------------------------------------ the evaluator

/// Rolls one term: its value, and its record when asked.
pub(crate) trait Roller {
    fn term(&mut self, term: &Term, record: Option<&mut Vec<TermRoll>>) -> i64;
    /// A computed dice term, whose count `n`, sides `s` and success target `t` (when
    /// rolled) were rolled.
    fn computed(
        &mut self,
        term: &Term,
        n: i64,
        s: i64,
        t: Option<i64>,
        record: Option<&mut Vec<TermRoll>>,
    ) -> i64;
    /// Every die of a term (its value aside), for a group keeping dice across terms.
    fn dice(&mut self, term: &Term) -> Vec<RolledDie>;
}

/// Rolls a computed term from `src`, recording it when asked.
fn computed_term<F: Faces>(
    term: &Term,
    n: i64,
    s: i64,
    t: Option<i64>,
    src: &mut F,
    record: Option<&mut Vec<TermRoll>>,
) -> i64 {
    let TermKind::Computed(c) = &term.kind else {
        return 0;
    };
    let (value, dice) = roll_computed(c, n, s, t, src);
    if let Some(out) = record {
        out.push(TermRoll {
            term: term.text.clone(),
            span: term.span,
            dice,
            value,
        });
    }
    value
}

/// Rolls with an RNG: through dice-core where the term compiled to a dice-core mechanic (its
/// count-only path without a record, its record path with one: both draw the same numbers).
pub(crate) struct RngRoller<'a, R: Rng + ?Sized>(pub(crate) &'a mut R);

impl<R: Rng + ?Sized> Roller for RngRoller<'_, R> {
    fn dice(&mut self, term: &Term) -> Vec<RolledDie> {
        general(term, &mut RngFaces(self.0)).1
    }

    fn term(&mut self, term: &Term, record: Option<&mut Vec<TermRoll>>) -> i64 {
        let offset = match &term.kind {
            TermKind::Pool(p) => p.offset,
            TermKind::Streak(s) => s.offset,
            TermKind::Computed(_) => 0,
        };
        let Some(out) = record else {
            return roll_value(term, self.0);
        };
        let (value, mut dice) = match &term.fast {
            Fast::Sum(s) => {
                let r = s.roll_record(self.0);
                (r.total, from_record(&r, offset))
            }
            Fast::Count(c) => {
                let r = c.roll_record(self.0);
                (i64::from(r.successes), from_record(&r, offset))
            }
            Fast::Streak(s) => {
                let r = s.roll_record(self.0);
                (r.total, from_record(&r, offset))
            }
            Fast::None => general(term, &mut RngFaces(self.0)),
        };
        if let TermKind::Pool(p) = &term.kind {
            decorate(p, &mut dice);
        }
        out.push(TermRoll {
            term: term.text.clone(),
            span: term.span,
            dice,
            value,
        });
        value
    }

    fn computed(
        &mut self,
        term: &Term,
        n: i64,
        s: i64,
        t: Option<i64>,
        record: Option<&mut Vec<TermRoll>>,
    ) -> i64 {
        computed_term(term, n, s, t, &mut RngFaces(self.0), record)
    }
}

/// One term's value, through dice-core's allocation-free paths where it compiled to one.
#[inline]
fn roll_value<R: Rng + ?Sized>(term: &Term, rng: &mut R) -> i64 {
    match &term.fast {
        Fast::Sum(s) => s.roll(rng),
        Fast::Count(c) => i64::from(c.roll(rng)),
        Fast::Streak(s) => s.roll(rng),
        Fast::None => general(term, &mut RngFaces(rng)).0,
    }
}

/// A value-only roll of a plan: by its [`Shortcut`] when it has one (the same draws and
/// the same outcome as the walk of the tree), else by [`roll_plan`].
#[inline]
pub(crate) fn roll_outcome<R: Rng + ?Sized>(plan: &Plan, rng: &mut R) -> Outcome {
    if let Some(s) = plan.shortcut {
        if let Some(term) = plan.terms.get(s.term) {
            let total = roll_value(term, rng).saturating_add(s.constant);
            return match s.target {
                Some(t) => Outcome::Versus(Versus::of(total, t)),
                None => Outcome::Number(total),
            };
        }
    }
    roll_plan(plan, &mut RngRoller(rng), false).0
}

/// Rolls with faces given in advance, always through this crate's own pools.
pub(crate) struct ListRoller(pub(crate) ListFaces);

impl Roller for ListRoller {
    fn dice(&mut self, term: &Term) -> Vec<RolledDie> {
        general(term, &mut self.0).1
    }

    fn term(&mut self, term: &Term, record: Option<&mut Vec<TermRoll>>) -> i64 {
        let (value, dice) = general(term, &mut self.0);
        if let Some(out) = record {
            out.push(TermRoll {
                term: term.text.clone(),
                span: term.span,
                dice,
                value,
            });
        }
        value
    }

    fn computed(
        &mut self,
        term: &Term,
        n: i64,
        s: i64,
        t: Option<i64>,
        record: Option<&mut Vec<TermRoll>>,
    ) -> i64 {
        computed_term(term, n, s, t, &mut self.0, record)
    }
}

fn general<F: Faces>(term: &Term, src: &mut F) -> (i64, Vec<RolledDie>) {
    match &term.kind {
        TermKind::Pool(p) => roll_pool(p, src),
        TermKind::Streak(s) => roll_streak(s, src),
        // Rolled through `Roller::computed`, which knows the count and sides.
        TermKind::Computed(_) => (0, Vec::new()),
    }
}

/// Integer division rounding toward negative infinity (`-7 / 2 = -4`).
///
/// The compiler makes sure no divisor can be 0; should one be, the result is 0 rather than
/// a panic.
pub(crate) fn floor_div(x: i64, y: i64) -> i64 {
    if y == 0 {
        return 0;
    }
    let q = x.wrapping_div(y);
    if x.wrapping_rem(y) != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

/// Applies an operator (the bounds checked at compile time keep every value far from
/// overflow; saturating arithmetic keeps it so regardless).
pub(crate) fn apply(op: BinOp, x: i64, y: i64) -> i64 {
    match op {
        BinOp::Add => x.saturating_add(y),
        BinOp::Sub => x.saturating_sub(y),
        BinOp::Mul => x.saturating_mul(y),
        BinOp::Div => floor_div(x, y),
        BinOp::DivCeil => floor_div(x.saturating_neg(), y).saturating_neg(),
        BinOp::DivRound => {
            // floor(x/y + 1/2), with the divisor made positive.
            let (x, y) = if y < 0 {
                (x.saturating_neg(), y.saturating_neg())
            } else {
                (x, y)
            };
            floor_div(x.saturating_mul(2).saturating_add(y), y.saturating_mul(2))
        }
        BinOp::DivTrunc => {
            if y == 0 {
                0
            } else {
                x.wrapping_div(y)
            }
        }
        // Exact division never reaches the integer engine (an expression holding one takes
        // the fraction path, `crate::fraction`): rounded toward −∞ should it ever.
        BinOp::DivExact => floor_div(x, y),
        BinOp::Mod => x.saturating_sub(y.saturating_mul(floor_div(x, y))),
        BinOp::Rem => {
            if y == 0 {
                0
            } else {
                x.wrapping_rem(y)
            }
        }
        BinOp::Pow => match u32::try_from(y) {
            Ok(e) => x.saturating_pow(e),
            Err(_) if y < 0 => 0,
            Err(_) => match x {
                0 => 0,
                1 => 1,
                -1 => 1 - 2 * (y & 1),
                _ if x > 0 => i64::MAX,
                _ => {
                    if y & 1 == 0 {
                        i64::MAX
                    } else {
                        i64::MIN
                    }
                }
            },
        },
    }
}

/// The value of a node of the integer engine (the fraction path's whole parts use it too).
pub(crate) fn eval<R: Roller>(
    node: &Node,
    terms: &[Term],
    roller: &mut R,
    record: &mut Option<Vec<TermRoll>>,
) -> i64 {
    match &node.op {
        Op::Const(c) => *c,
        Op::Term(i) => roller.term(&terms[*i], record.as_mut()),
        Op::Neg(x) => eval(x, terms, roller, record).saturating_neg(),
        Op::Bin(op, a, b) => {
            let x = eval(a, terms, roller, record);
            let y = eval(b, terms, roller, record);
            apply(*op, x, y)
        }
        Op::Call(func, args) => {
            let mut acc: Option<i64> = None;
            for a in args {
                let v = eval(a, terms, roller, record);
                acc = Some(match (acc, func) {
                    (None, Func::Abs) => v.saturating_abs(),
                    (None, Func::Sign) => v.signum(),
                    (None, _) => v,
                    (Some(m), Func::Min) => m.min(v),
                    (Some(m), _) => m.max(v),
                });
            }
            acc.unwrap_or(0)
        }
        Op::Compare(rel, a, b) => {
            let x = eval(a, terms, roller, record);
            let y = eval(b, terms, roller, record);
            i64::from(rel.holds(x, y))
        }
        Op::Computed(c) => {
            let n = eval(&c.count, terms, roller, record);
            let s = match &c.sides {
                Some(s) => eval(s, terms, roller, record),
                None => 0,
            };
            let t = c.target.as_ref().map(|t| eval(t, terms, roller, record));
            roller.computed(&terms[c.term], n, s, t, record.as_mut())
        }
        Op::Group(g) => {
            if let Some(dice) = &g.dice {
                return crate::dice_group::roll(g, dice.clone(), terms, roller, record);
            }
            let values: Vec<i64> = g
                .items
                .iter()
                .map(|a| eval(a, terms, roller, record))
                .collect();
            group_value(g, &values)
        }
    }
}

/// The value of a group whose items rolled `values`: keep/drop by value (among equal
/// values the earlier item is kept), select, then add up or count.
pub(crate) fn group_value(g: &GroupSpec, values: &[i64]) -> i64 {
    let mut kept: Vec<RolledDie> = values.iter().map(|&v| RolledDie::new(v)).collect();
    mark_kept(&mut kept, g.keep);
    if let Some(sel) = &g.select {
        for d in &mut kept {
            d.kept = d.kept && sel.stays(d.value);
        }
    }
    chain(&mut kept, &g.steps);
    let kept = kept.iter().filter(|d| d.kept).map(|d| d.value);
    match &g.success {
        Some(_) => kept.map(|v| g.score(v)).sum(),
        None => kept.fold(0i64, |a, v| a.saturating_add(v)),
    }
}

/// Rolls a plan: the outcome, the total and target, and (when `record`) every term.
pub(crate) fn roll_plan<R: Roller>(
    plan: &Plan,
    roller: &mut R,
    record: bool,
) -> (Outcome, i64, Option<i64>, Vec<TermRoll>) {
    let mut terms = record.then(|| Vec::with_capacity(plan.terms.len()));
    let total = eval(&plan.body, &plan.terms, roller, &mut terms);
    let (outcome, target) = match &plan.target {
        Some(t) => {
            let target = eval(t, &plan.terms, roller, &mut terms);
            (Outcome::Versus(Versus::of(total, target)), Some(target))
        }
        None => (Outcome::Number(total), None),
    };
    (outcome, total, target, terms.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    #[test]
    fn the_shortcut_draws_what_the_tree_walk_draws() {
        let shaped = [
            "1d20",
            "1d20+5",
            "3+2d6-1",
            "4d6kh3",
            "10d10!10>=8",
            "2d6+3 vs 9",
            "4d6ro1kh3-2",
            "3dF+1",
            "1+streak(d6>=4)",
            "1d20-30 vs -12",
        ];
        let not_shaped = [
            "1d20+1d4",
            "2*1d6",
            "9 - 1d6",
            "1d20 vs 1d20",
            "max(1d6, 2)",
        ];
        for text in shaped.iter().chain(&not_shaped) {
            let plan = crate::Expression::parse(text).unwrap().plan;
            assert_eq!(
                plan.shortcut.is_some(),
                shaped.contains(text),
                "{text}: {:?}",
                plan.shortcut
            );
            let mut a = Xoshiro256PlusPlus::seed_from_u64(11);
            let mut b = a.clone();
            for _ in 0..2_000 {
                let tree = roll_plan(&plan, &mut RngRoller(&mut a), false).0;
                assert_eq!(roll_outcome(&plan, &mut b), tree, "{text}");
            }
        }
    }

    #[test]
    fn floor_division_rounds_down() {
        assert_eq!(floor_div(7, 2), 3);
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(floor_div(7, -2), -4);
        assert_eq!(floor_div(-7, -2), 3);
        assert_eq!(floor_div(6, 3), 2);
        assert_eq!(floor_div(-6, 3), -2);
        assert_eq!(floor_div(1, 0), 0);
        assert_eq!(floor_div(i64::MIN, -1), i64::MIN);
    }
}
