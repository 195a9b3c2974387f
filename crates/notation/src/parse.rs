//! The parser: text to [`Expr`], by recursive descent over the characters (no separate
//! lexer: `4d6kh3` has no spaces to split on). Every dice term is checked against the limits
//! as soon as it is read, so errors point at the modifier at fault.

use std::collections::BTreeSet;

use dice_core::Keep;

use crate::ast::{
    BinOp, Cmp, DiceTerm, DieKind, Explosion, Expr, ExprKind, Func, GroupTerm, Matches, Relation,
    Reroll, RollStep, Select, Sort, Span, StepKind, StreakTerm, Unique,
};
use crate::dialect::{Dialect, Division, ExplodeWords, KeepWords, RerollWord, Syntax};
use crate::error::{ParseError, ParseErrorKind};
use crate::select::{Pick, Step};
use crate::{
    MAX_CONSTANT, MAX_DEPTH, MAX_DICE, MAX_EXPLOSION_CAP, MAX_INPUT_LEN, MAX_ROLLED, MAX_SIDES,
};

/// What may start an operand.
const ATOM: &str = "a number, dice (`2d6`, `d20`, `dF`), `(`, `-`, `min(`, `max(` or `streak(`";
/// What may follow a complete operand.
const AFTER: &str = "an operator (`+`, `-`, `*`, `/`), `vs` or the end of the input";
/// What may start an operand, in another dialect.
const ATOM_DIALECT: &str = "a number, dice (`2d6`, `d20`), `(` or `-`";
/// What may follow a complete operand, in another dialect.
const AFTER_DIALECT: &str = "an operator or the end of the input";
/// The same, when a comparison stands where an operator should.
const AFTER_CMP: &str = "an operator (`+`, `-`, `*`, `/`), `vs` or the end of the input \
     (to compare a total with a target write `vs`, as in `2d6+1 vs 8`; to count dice write \
     the test right after them, as in `6d6>=5`)";

type PResult<T> = Result<T, ParseError>;

/// Parses a whole expression in this crate's grammar.
pub(crate) fn parse(input: &str) -> PResult<Expr> {
    parse_with(input, Dialect::Default)
}

/// Parses a whole expression written in `dialect`.
pub(crate) fn parse_with(input: &str, dialect: Dialect) -> PResult<Expr> {
    if input.len() > MAX_INPUT_LEN {
        return Err(ParseError::new(
            ParseErrorKind::TooLong {
                len: input.len(),
                max: MAX_INPUT_LEN,
            },
            Span::new(MAX_INPUT_LEN, input.len()),
            input,
        ));
    }
    let syn = dialect.syntax();
    let mut p = Parser {
        src: input,
        pos: 0,
        depth: 0,
        syn,
        rolled_sides: None,
        fudge_one: false,
        die_default: false,
        target_ok: false,
        rolled_target: None,
        exact: false,
        retry: false,
    };
    p.ws();
    let e = match p.top() {
        Ok(e) => e,
        // Avrae d20 retries a parse that failed right after a `*` without it, the rest a
        // comment (its `POSSIBLE_COMMENT_AMBIGUITIES`: `1d20 **bold**`).
        Err(err) if syn.any_comment => {
            let head = input.get(..err.span().start).unwrap_or("");
            match head.strip_suffix('*') {
                Some(head) if !head.trim().is_empty() => {
                    return parse_with(head, dialect).map_err(|_| err);
                }
                _ => return Err(err),
            }
        }
        Err(err) => return Err(err),
    };
    let before = p.pos;
    p.ws();
    if syn.any_comment
        && !p.at_end()
        && !p
            .rest()
            .starts_with(['+', '-', '/', '%', '<', '>', ',', ')'])
    {
        return Ok(e);
    }
    if !p.at_end() {
        // Roll20's "1d20+5 Roll for initiative", Avrae d20's comments: text after a space.
        let text = p
            .rest()
            .starts_with(|c: char| c.is_alphabetic() || c == '"' || c == '\'');
        if syn.trailing_text && p.pos > before && text {
            return Ok(e);
        }
        // Roll20's `\` ends the formula; what follows is text.
        if syn.roll_options && p.rest().starts_with('\\') {
            return Ok(e);
        }
        let cmp = p.rest().starts_with(['<', '>', '=']);
        if syn.versus {
            return Err(p.unexpected(if cmp { AFTER_CMP } else { AFTER }));
        }
        return Err(p.unexpected(AFTER_DIALECT));
    }
    Ok(e)
}

/// Where each part of a dice term was written, for error messages.
#[derive(Clone, Copy, Debug, Default)]
struct TermSpans {
    count: Span,
    die: Span,
    reroll: Span,
    unique: Span,
    reroll_add: Span,
    explode: Span,
    cap: Span,
    min: Span,
    max: Span,
    keep: Span,
    success: Span,
    failure: Span,
    select: Span,
    crit: Span,
    matches: Span,
}

impl TermSpans {
    /// Every part of a term at one place (a term built from another, whose errors all point
    /// at the one span).
    fn all(span: Span) -> TermSpans {
        TermSpans {
            count: span,
            die: span,
            reroll: span,
            unique: span,
            reroll_add: span,
            explode: span,
            cap: span,
            min: span,
            max: span,
            keep: span,
            success: span,
            failure: span,
            select: span,
            crit: span,
            matches: span,
        }
    }
}

/// A failed check: what, and where.
type Check = Result<(), (ParseErrorKind, Span)>;

/// The number a keep or drop names, within the `n` dice it chooses from: keep 1 to `n`,
/// drop 1 to `n − 1`.
fn keep_in_range(keep: Keep, n: u32, span: Span) -> Check {
    match keep {
        Keep::All => Ok(()),
        Keep::Highest(k) | Keep::Lowest(k) => {
            out_of_range("dice kept", k.into(), 1, n.into(), span)
        }
        Keep::DropHighest(k) | Keep::DropLowest(k) => out_of_range(
            "dice dropped",
            k.into(),
            1,
            n.saturating_sub(1).into(),
            span,
        ),
    }
}

fn out_of_range(what: &'static str, value: i128, min: i128, max: i128, span: Span) -> Check {
    if value < min || value > max {
        return Err((
            ParseErrorKind::OutOfRange {
                what,
                value,
                min,
                max,
            },
            span,
        ));
    }
    Ok(())
}

fn check_die(die: DieKind, span: Span) -> Check {
    if let DieKind::Sides(n) = die {
        out_of_range(
            "sides",
            n.into(),
            dice_core::MIN_SIDES.into(),
            MAX_SIDES.into(),
            span,
        )?;
    }
    Ok(())
}

fn check_cmp(cmp: &Cmp, span: Span) -> Check {
    if let Cmp::OneOf(set) = cmp {
        if set.is_empty() {
            return Err((
                ParseErrorKind::Invalid("a set of faces needs at least one value".into()),
                span,
            ));
        }
    }
    for n in cmp.numbers() {
        out_of_range(
            "number",
            n.into(),
            -i128::from(MAX_CONSTANT),
            MAX_CONSTANT.into(),
            span,
        )?;
    }
    Ok(())
}

fn check_cap(cap: Option<u32>, span: Span) -> Check {
    if let Some(c) = cap {
        out_of_range("explosion cap", c.into(), 1, MAX_EXPLOSION_CAP.into(), span)?;
    }
    Ok(())
}

/// Checks a dice term against the limits and the rules of combination.
fn check_dice(t: &DiceTerm, s: &TermSpans) -> Check {
    out_of_range(
        "number of dice",
        t.count.into(),
        1,
        MAX_DICE.into(),
        s.count,
    )?;
    check_die(t.die, s.die)?;
    let (lo, hi) = t.die.faces();
    let invalid = |msg: String, span: Span| Err((ParseErrorKind::Invalid(msg), span));
    // Faces that can stand after rerolls.
    let mut standing: Vec<i64> = (lo..=hi).collect();
    if let Some(r) = &t.reroll {
        check_cmp(&r.on, s.reroll)?;
        if !r.once {
            standing.retain(|&f| !r.on.test(f));
            if standing.is_empty() {
                return invalid(
                    format!(
                        "`{r}` rerolls every face of a {}, so it never stops: reroll fewer \
                         faces, or once with `ro`",
                        t.die
                    ),
                    s.reroll,
                );
            }
        }
    }
    if let Some(e) = &t.explode {
        check_cmp(&e.on, s.explode)?;
        check_cap(e.cap, s.cap)?;
        if e.cap.is_none() && standing.iter().all(|&f| e.on.test(f)) {
            return invalid(
                format!(
                    "every face of a {} explodes, so it never stops: give a cap, as in `{e}cap10`",
                    t.die
                ),
                s.explode,
            );
        }
    }
    check_sequence(t, s)?;
    for (m, span) in [(t.min, s.min), (t.max, s.max)] {
        if let Some(m) = m {
            out_of_range(
                "clamp",
                m.into(),
                -i128::from(MAX_CONSTANT),
                MAX_CONSTANT.into(),
                span,
            )?;
        }
    }
    if let (Some(a), Some(b)) = (t.min, t.max) {
        if a > b {
            return invalid(
                format!("`min{a}` is above `max{b}`: no value can satisfy both"),
                s.min.join(s.max),
            );
        }
    }
    if t.count == 1 && matches!(t.keep, Keep::DropHighest(_) | Keep::DropLowest(_)) {
        return invalid("a single die cannot drop dice".into(), s.keep);
    }
    keep_in_range(t.keep, t.count, s.keep)?;
    if let Some(c) = &t.success {
        check_cmp(c, s.success)?;
    }
    if let Some(c) = &t.select {
        check_cmp(&c.on, s.select)?;
        if t.keep != Keep::All {
            return invalid(
                "a selection (`k(>3)`, `d(=1)`) cannot go with another keep or drop on the same \
                 dice"
                    .into(),
                s.select,
            );
        }
    }
    if let Some(c) = &t.reroll_add {
        check_cmp(c, s.reroll_add)?;
    }
    for c in [&t.crit_success, &t.crit_failure].into_iter().flatten() {
        check_cmp(c, s.crit)?;
    }
    if let Some(u) = &t.unique {
        if let Some(on) = &u.on {
            check_cmp(on, s.unique)?;
        }
        let faces = standing.len() as u32;
        // With a compare point a face failing it always stands (`10d4u<=2`: a 3 or a 4
        // ends the rerolling), so only a test every standing face passes can run out.
        let all_rerolled =
            u.on.as_ref()
                .is_none_or(|on| standing.iter().all(|&f| on.test(f)));
        if !u.once && all_rerolled && t.count > faces {
            return invalid(
                format!(
                    "`u` rerolls until the {} dice show different faces, but a {} has only {} \
                     that can stand: roll fewer dice, or reroll once with `uo`",
                    t.count, t.die, faces
                ),
                s.unique,
            );
        }
        // The dice an explosion adds take faces too: with `u` they could leave a later die
        // no face to stand on, and it would be rerolled for ever (`2d2!u`).
        if !u.once && t.explode.as_ref().is_some_and(|e| !e.compound) {
            return invalid(
                "`u` rerolls until the dice show different faces, and the dice an explosion \
                 adds could take every face: compound the explosion (`!!`), or reroll once \
                 with `uo`"
                    .into(),
                s.unique,
            );
        }
    }
    if let Some(c) = &t.failure {
        check_cmp(c, s.failure)?;
    }
    if let Some(m) = &t.matches {
        if let Some(on) = &m.on {
            check_cmp(on, s.matches)?;
        }
        out_of_range(
            "dice in a set of matches",
            m.least.into(),
            1,
            MAX_DICE.into(),
            s.matches,
        )?;
        // The value is a count of sets: a keep, a test or added dice would need a ruling
        // the reference does not give.
        let other = t.explode.is_some()
            || t.keep != Keep::All
            || t.select.is_some()
            || !t.steps.is_empty()
            || t.success.is_some()
            || t.failure.is_some()
            || t.reroll_add.is_some()
            || t.unique.is_some();
        if other {
            return invalid(
                "`mt` (the number of sets of matching dice) goes only with rerolls, clamps, \
                 criticals and sorting, not with explosions, keep/drop, unique dice or success \
                 and failure tests"
                    .into(),
                s.matches,
            );
        }
    }
    Ok(())
}

/// Checks the rerolls and explosions of a term applied one after the other
/// ([`DiceTerm::sequence`]).
fn check_sequence(t: &DiceTerm, s: &TermSpans) -> Check {
    let (lo, hi) = t.die.faces();
    for step in &t.sequence {
        let span = match step.kind {
            StepKind::Explode => s.explode,
            StepKind::Reroll => s.reroll,
        };
        check_cmp(&step.on, span)?;
        if let Some(limit) = step.limit {
            out_of_range(
                "rerolls or explosions in the term",
                limit.into(),
                1,
                MAX_ROLLED.into(),
                span,
            )?;
        }
        if step.limit.is_none() && step.recursive && (lo..=hi).all(|f| step.on.test(f)) {
            return Err((
                ParseErrorKind::Invalid(format!(
                    "`{step}` acts on every face of a {}, so it never stops: give it a limit, \
                     as in `{step}limit10`",
                    t.die
                )),
                span,
            ));
        }
    }
    let other = t.reroll.is_some()
        || t.explode.is_some()
        || t.unique.is_some()
        || t.reroll_add.is_some()
        || t.matches.is_some();
    if !t.sequence.is_empty() && other {
        return Err((
            ParseErrorKind::Invalid(
                "rerolls and explosions applied one after the other (with a limit in the term, \
                 or several on one term) go only with clamps, keep/drop, success and failure \
                 tests, criticals and sorting"
                    .into(),
            ),
            s.explode.join(s.reroll),
        ));
    }
    Ok(())
}

/// Checks a dice term built from another (a computed term's dice), every error at `span`.
pub(crate) fn check_term(t: &DiceTerm, span: Span) -> Check {
    let s = TermSpans::all(span);
    check_dice(t, &s)
}

/// Checks a streak against the limits.
fn check_streak(t: &StreakTerm, die_span: Span, on_span: Span, cap_span: Span) -> Check {
    check_die(t.die, die_span)?;
    check_cmp(&t.on, on_span)?;
    check_cap(t.cap, cap_span)?;
    let (lo, hi) = t.die.faces();
    if t.cap.is_none() && (lo..=hi).all(|f| t.on.test(f)) {
        return Err((
            ParseErrorKind::Invalid(format!(
                "every face of a {} continues the streak, so it never stops: give a cap, as \
                 in `{}`",
                t.die,
                StreakTerm {
                    cap: Some(10),
                    ..t.clone()
                }
            )),
            on_span,
        ));
    }
    Ok(())
}

/// A rounding applied to the one division a function (or d20's total) holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rounding {
    Floor,
    Ceil,
    Round,
    Trunc,
    /// No rounding: `exact(x/y)`, this crate's spelling of an exact division.
    Exact,
}

impl Rounding {
    fn op(self) -> BinOp {
        match self {
            Rounding::Floor => BinOp::Div,
            Rounding::Ceil => BinOp::DivCeil,
            Rounding::Round => BinOp::DivRound,
            Rounding::Trunc => BinOp::DivTrunc,
            Rounding::Exact => BinOp::DivExact,
        }
    }

    /// The rounding of `x` that gives `round(a − x) = a − x'` for a whole `a`, if any.
    fn negated(self) -> Option<Rounding> {
        match self {
            Rounding::Floor => Some(Rounding::Ceil),
            Rounding::Ceil => Some(Rounding::Floor),
            Rounding::Exact => Some(Rounding::Exact),
            Rounding::Round | Rounding::Trunc => None,
        }
    }

    /// The function rounding a whole argument that is a fraction.
    fn func(self) -> Option<Func> {
        match self {
            Rounding::Floor => Some(Func::Floor),
            Rounding::Ceil => Some(Func::Ceil),
            Rounding::Round => Some(Func::Round),
            Rounding::Trunc => Some(Func::Trunc),
            Rounding::Exact => None,
        }
    }
}

/// Whether the division of a sum may still be rounded by its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// No rounding function around.
    None,
    /// Rounds the next division at the end of a product.
    Open(Rounding),
    /// The function's division was read.
    Used,
}

/// The value of an expression made of numbers and arithmetic only. A chain of operators
/// (`1/2/3/…`, a left-deep tree up to about 500 long) is walked down its left operands in a
/// loop, so that the stack grows only with the nesting of right operands.
fn constant_value(e: &Expr) -> Option<i128> {
    let (mut spine, leaf) = crate::ast::left_chain(e, |x| match &x.kind {
        ExprKind::Binary(_, a, _) => Some(a),
        _ => None,
    });
    let mut x = match &leaf.kind {
        ExprKind::Number(n) => (*n).into(),
        ExprKind::Neg(x) => -constant_value(x)?,
        _ => return None,
    };
    while let Some(parent) = spine.pop() {
        if let ExprKind::Binary(op, _, b) = &parent.kind {
            x = constant_binary(*op, x, constant_value(b)?)?;
        }
    }
    Some(x)
}

/// `x op y` for [`constant_value`]: `None` where it is no whole constant.
fn constant_binary(op: BinOp, x: i128, y: i128) -> Option<i128> {
    if x.abs() > i128::from(i64::MAX) || y.abs() > i128::from(i64::MAX) {
        return None;
    }
    let (x, y) = (x as i64, y as i64);
    let zero_div = matches!(
        op,
        BinOp::Div | BinOp::DivCeil | BinOp::DivRound | BinOp::DivTrunc | BinOp::Mod | BinOp::Rem
    ) && y == 0;
    if zero_div || (op == BinOp::Pow && !(0..=62).contains(&y)) {
        return None;
    }
    // A fraction is no whole constant.
    if op == BinOp::DivExact && (y == 0 || x % y != 0) {
        return None;
    }
    Some(crate::roll::apply(op, x, y).into())
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
    syn: &'static Syntax,
    /// The rolled sides of the dice term being read (`2d(1d4+2)`).
    rolled_sides: Option<Expr>,
    /// `dF.1` was read: a d6 whose 1 counts −1 and 6 counts +1 (rpg-dice-roller).
    fudge_one: bool,
    /// Whether a modifier of the dice term being read took a default from the die's faces
    /// (a plain `!` explodes on the highest face), which rolled sides do not have.
    die_default: bool,
    /// Whether the number being read is a dice term's success target, which may be rolled
    /// (Roll20's `3d6>[[1d4]]`, this crate's `3d6>=(1d4)`).
    target_ok: bool,
    /// The rolled success target just read.
    rolled_target: Option<Expr>,
    /// Reading exactly: every `/` not exact by its numbers is an exact division, and a
    /// rounding function rounds its whole argument (the second reading of a rounding
    /// function's argument, or of Avrae d20's whole expression, whose one division could not
    /// carry the rounding: `floor(1d6/2 + 0.5)`).
    exact: bool,
    /// An error was raised that reading exactly avoids (see `exact`).
    retry: bool,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// Whitespace, and in dialects with them, `[labels]` and comments.
    fn ws(&mut self) {
        loop {
            let Some(c) = self.peek() else { return };
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else if c == '[' && self.syn.labels && !self.at_inline_roll() {
                match self.rest().find(']') {
                    Some(end) => self.pos += end + 1,
                    None => return,
                }
            } else if self.syn.roll_options && self.looking_at("&{tracker") {
                // Roll20's turn-tracker option (`&{tracker}`, `&{tracker:-}`): no effect on
                // the roll.
                match self.rest().find('}') {
                    Some(end) => self.pos += end + 1,
                    None => return,
                }
            } else if self.syn.line_comments && self.rest().starts_with("/*") {
                match self.rest()[2..].find("*/") {
                    Some(end) => self.pos += end + 4,
                    None => return,
                }
            } else if self.syn.line_comments && (c == '#' || self.rest().starts_with("//")) {
                let end = self.rest().find(['\n', '\r']).unwrap_or(self.rest().len());
                self.pos += end;
            } else {
                return;
            }
        }
    }

    /// Whether the input continues with `s` (ASCII letters in any case).
    fn looking_at(&self, s: &str) -> bool {
        self.rest()
            .get(..s.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(s))
    }

    /// Consumes `s` if the input continues with it (ASCII letters in any case).
    fn eat(&mut self, s: &str) -> bool {
        match self.rest().get(..s.len()) {
            Some(head) if head.eq_ignore_ascii_case(s) => {
                self.pos += s.len();
                true
            }
            _ => false,
        }
    }

    fn error(&self, kind: ParseErrorKind, span: Span) -> ParseError {
        ParseError::new(kind, span, self.src)
    }

    fn invalid(&self, msg: String, span: Span) -> ParseError {
        self.error(ParseErrorKind::Invalid(msg), span)
    }

    fn checked(&self, check: Check) -> PResult<()> {
        check.map_err(|(kind, span)| self.error(kind, span))
    }

    /// "expected …, found …" at the current position.
    /// Refuses a die too large to list its faces one by one (the union of Roll20's repeated
    /// rerolls or markers, the faces failing a test): its size is checked only after its
    /// modifiers, and listing a huge die's faces first would take seconds and gigabytes
    /// (found by fuzzing: `d777777416rr2d20`).
    fn listable(&self, (lo, hi): (i64, i64), expected: &'static str) -> PResult<()> {
        if hi.saturating_sub(lo) >= i64::from(MAX_SIDES) {
            Err(self.unexpected(expected))
        } else {
            Ok(())
        }
    }

    fn unexpected(&self, expected: &'static str) -> ParseError {
        let rest = self.rest();
        let (found, len) = match rest.chars().next() {
            None => ("the end of the input".to_owned(), 0),
            Some(c) if c.is_alphanumeric() => {
                let len = rest
                    .find(|ch: char| !ch.is_alphanumeric())
                    .unwrap_or(rest.len());
                (format!("`{}`", &rest[..len]), len)
            }
            Some(c) => (format!("`{c}`"), c.len_utf8()),
        };
        self.error(
            ParseErrorKind::Unexpected { expected, found },
            Span::new(self.pos, self.pos + len),
        )
    }

    /// One level deeper (parenthesis, function, sign).
    fn enter(&mut self, start: usize) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(
                ParseErrorKind::TooDeep { max: MAX_DEPTH },
                Span::new(start, self.pos.max(start + 1)),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// The whole expression. Avrae d20's total is the integer part of its value: a division
    /// that is the whole expression rounds toward 0 (`trunc(15/2)`), any other fraction is
    /// truncated as a whole (`trunc(exact(3/2))`), read exactly where the one division
    /// could not carry the truncation (`3d6/2 + 1`).
    fn top(&mut self) -> PResult<Expr> {
        if !self.syn.truncate_total {
            return self.top_once();
        }
        let start = self.pos;
        self.retry = false;
        let e = match self.top_once() {
            Err(_) if self.retry => {
                self.retry = false;
                self.pos = start;
                self.exact = true;
                let e = self.top_once();
                self.exact = false;
                e?
            }
            e => e?,
        };
        if crate::fraction::can_be_fraction(&e) {
            let span = e.span;
            return Ok(Expr::call(Func::Trunc, vec![e]).with_span(span));
        }
        Ok(e)
    }

    /// `sum ("vs" sum)?`, or in Avrae d20 `sum (relation sum)*`.
    fn top_once(&mut self) -> PResult<Expr> {
        let mut ctx = if self.syn.truncate_total && !self.exact {
            Ctx::Open(Rounding::Trunc)
        } else {
            Ctx::None
        };
        let lhs = self.sum(&mut ctx)?;
        let save = self.pos;
        self.ws();
        if self.syn.versus && self.eat("vs") {
            self.ws();
            let rhs = self.sum(&mut Ctx::None)?;
            let span = lhs.span.join(rhs.span);
            return Ok(Expr {
                kind: ExprKind::Versus(Box::new(lhs), Box::new(rhs)),
                span,
            });
        }
        self.pos = save;
        if self.syn.comparisons {
            return self.comparisons(lhs, ctx);
        }
        Ok(lhs)
    }

    /// Avrae d20's comparisons as values, after their first operand: `(relation sum)*`.
    fn comparisons(&mut self, first: Expr, ctx: Ctx) -> PResult<Expr> {
        let mut lhs = first;
        loop {
            let save = self.pos;
            self.ws();
            let Some(rel) = self.relation() else {
                self.pos = save;
                return Ok(lhs);
            };
            if ctx == Ctx::Used {
                self.retry = true;
                return Err(self.fraction_error(lhs.span));
            }
            self.ws();
            let rhs = self.sum(&mut Ctx::None)?;
            let span = lhs.span.join(rhs.span);
            lhs = Expr {
                kind: ExprKind::Compare(rel, Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
    }

    /// `==`, `!=`, `<>`, `>=`, `<=`, `>`, `<`, `=` as a relation between values.
    fn relation(&mut self) -> Option<Relation> {
        Some(if self.eat("==") {
            Relation::Equal
        } else if self.eat("!=") || self.eat("<>") {
            Relation::NotEqual
        } else if self.eat(">=") {
            Relation::AtLeast
        } else if self.eat("<=") {
            Relation::AtMost
        } else if self.eat(">") {
            Relation::Above
        } else if self.eat("<") {
            Relation::Below
        } else if self.eat("=") {
            Relation::Equal
        } else {
            return None;
        })
    }

    fn fraction_error(&self, span: Span) -> ParseError {
        self.invalid(
            format!(
                "{} divides exactly, so this division can leave a fraction, which this crate \
                 does not represent: round it with floor(…), ceil(…) or round(…){}",
                self.syn.title,
                if self.syn.truncate_total {
                    " (d20 truncates only the whole expression's total, so the division must be \
                     the whole expression, or exact: `//` rounds down)"
                } else {
                    ""
                }
            ),
            span,
        )
    }

    /// `product (("+" | "-") product)*`; `ctx` is the rounding of the function around.
    fn sum(&mut self, ctx: &mut Ctx) -> PResult<Expr> {
        Ok(*self.sum_boxed(ctx)?)
    }

    /// [`Parser::sum`], boxed. The functions that recurse for each level of parentheses
    /// (`sum`, `product`, `unary`, `power`, `atom`, `parenthesized`) pass their trees boxed
    /// and leave the rest to functions outside that cycle, so that their stack frames stay
    /// small even without optimisation: [`MAX_DEPTH`] levels must fit a 2 MiB thread.
    fn sum_boxed(&mut self, ctx: &mut Ctx) -> PResult<Box<Expr>> {
        let open = *ctx;
        let mut lhs = self.product(ctx)?;
        let first_used = open != Ctx::None && *ctx == Ctx::Used;
        loop {
            let save = self.pos;
            self.ws();
            let op = if self.eat("+") {
                BinOp::Add
            } else if self.eat("-") || self.eat("−") {
                BinOp::Sub
            } else {
                self.pos = save;
                return Ok(lhs);
            };
            if first_used && open == Ctx::Open(Rounding::Trunc) {
                self.retry = true;
                return Err(self.fraction_error(lhs.span));
            }
            self.ws();
            // A whole number added to x leaves floor/ceil/round of x + n as that of x, plus n;
            // subtracted, floor becomes ceil and ceil floor.
            let mut sub = match (*ctx, op) {
                (Ctx::Open(Rounding::Trunc), _) => Ctx::None,
                (Ctx::Open(r), BinOp::Sub) => r.negated().map_or(Ctx::None, Ctx::Open),
                (c, _) => c,
            };
            let rhs = self.product(&mut sub)?;
            if sub == Ctx::Used {
                *ctx = Ctx::Used;
            }
            lhs = binary_boxed(op, lhs, rhs);
        }
    }

    /// `unary (("*" | "/" | "//" | "%") unary)*`
    fn product(&mut self, ctx: &mut Ctx) -> PResult<Box<Expr>> {
        let mut lhs = self.unary()?;
        loop {
            let save = self.pos;
            self.ws();
            // The operator, and whether it is a `/` whose rounding is still to be decided.
            let (op, open) = if !self.looking_at("**") && (self.eat("*") || self.eat("×")) {
                (BinOp::Mul, false)
            } else if self.syn.floor_division && self.eat("//") {
                (BinOp::Div, false)
            } else if !self.looking_at("//") && (self.eat("/") || self.eat("÷")) {
                (BinOp::Div, true)
            } else if self.syn.modulo && self.eat("%") {
                let js = self.syn.remainder_truncates;
                (if js { BinOp::Rem } else { BinOp::Mod }, false)
            } else {
                self.pos = save;
                return Ok(lhs);
            };
            let op_span = Span::new(save, self.pos);
            self.ws();
            let rhs = self.unary()?;
            let op = if open {
                self.division(ctx, &lhs, &rhs, op_span)?
            } else {
                op
            };
            lhs = binary_boxed(op, lhs, rhs);
        }
    }

    /// The rounding of a `/` just read: the function's around it when the division ends
    /// the product, else the dialect's own (this crate's: toward −∞; the others' exact
    /// division only where exact by its numbers).
    fn division(&mut self, ctx: &mut Ctx, lhs: &Expr, rhs: &Expr, at: Span) -> PResult<BinOp> {
        let save = self.pos;
        self.ws();
        let last = !(self.looking_at("*") || self.looking_at("/") || self.looking_at("%"));
        self.pos = save;
        match *ctx {
            Ctx::Open(r) if last => {
                *ctx = Ctx::Used;
                return Ok(r.op());
            }
            Ctx::Used => {
                // Where divisions are exact, the function may round the whole sum instead.
                self.retry = self.syn.division == Division::Exact;
                return Err(self.invalid(
                    "a rounding function rounds one division: round each division on its own"
                        .into(),
                    at,
                ));
            }
            _ => {}
        }
        if self.syn.division == Division::Floor && !self.exact {
            return Ok(BinOp::Div);
        }
        // Exact by its numbers: a divisor of ±1, or two constants that divide.
        let exact = match (constant_value(lhs), constant_value(rhs)) {
            (_, Some(1 | -1)) => true,
            (Some(x), Some(y)) => y != 0 && x % y == 0,
            _ => false,
        };
        if exact {
            return Ok(BinOp::Div);
        }
        Ok(BinOp::DivExact)
    }

    /// `"-" unary | "+" unary | power`
    fn unary(&mut self) -> PResult<Box<Expr>> {
        let start = self.pos;
        if self.eat("-") || self.eat("−") {
            self.enter(start)?;
            self.ws();
            let inner = self.unary()?;
            self.leave();
            let span = Span::new(start, inner.span.end);
            return Ok(Box::new(Expr {
                kind: ExprKind::Neg(inner),
                span,
            }));
        }
        if self.syn.unary_plus && self.eat("+") {
            self.enter(start)?;
            self.ws();
            let inner = self.unary()?;
            self.leave();
            return Ok(inner);
        }
        self.power()
    }

    /// `atom ("**" unary)?`: right-associative, binding tighter than a sign on its left. An
    /// exponent is one level deeper, like a sign (`2**2**…` nests to the right).
    fn power(&mut self) -> PResult<Box<Expr>> {
        let base = self.atom()?;
        if !self.syn.power {
            return Ok(base);
        }
        let save = self.pos;
        self.ws();
        let start = self.pos;
        if self.eat("**") || (self.syn.caret_power && self.eat("^")) {
            self.enter(start)?;
            self.ws();
            let exponent = self.unary()?;
            self.leave();
            return Ok(binary_boxed(BinOp::Pow, base, exponent));
        }
        self.pos = save;
        Ok(base)
    }

    fn atom(&mut self) -> PResult<Box<Expr>> {
        let start = self.pos;
        match self.peek() {
            Some('(') => self.parenthesized(start),
            _ => self.atom_other(start).map(Box::new),
        }
    }

    /// An atom not in parentheses.
    #[inline(never)]
    fn atom_other(&mut self, start: usize) -> PResult<Expr> {
        match self.peek() {
            Some('[') if self.at_inline_roll() => self.atom_inline_roll(start),
            Some('{') if self.syn.braces => self.atom_group(start),
            Some(c) if c.is_ascii_digit() || (c == '.' && self.syn.decimals) => {
                self.atom_number(start)
            }
            Some('d' | 'D') => self.dice(None, start),
            _ => self.atom_named(start),
        }
    }

    /// Roll20's inline roll: a number, or the count of dice (`[[2d6]]d5`).
    #[inline(never)]
    fn atom_inline_roll(&mut self, start: usize) -> PResult<Expr> {
        let inner = self.inline_roll(start)?;
        let span = inner.span;
        if matches!(self.peek(), Some('d' | 'D')) {
            if constant_value(&inner).is_none() {
                return self.dice_with(Some((1, span)), Some(inner), start);
            }
            let count = self.constant_count(&inner, span, "number of dice")?;
            return self.dice(Some((count, span)), start);
        }
        Ok(inner)
    }

    /// A group `{…}`.
    #[inline(never)]
    fn atom_group(&mut self, start: usize) -> PResult<Expr> {
        self.enter(start)?;
        self.pos += 1;
        let items = self.items('}')?;
        self.leave();
        self.group(items, start)
    }

    /// A number, or dice with a number of dice.
    #[inline(never)]
    fn atom_number(&mut self, start: usize) -> PResult<Expr> {
        if self.syn.decimals {
            if let Some(e) = self.decimal()? {
                return Ok(e);
            }
        }
        let (n, span) = self.number()?;
        if matches!(self.peek(), Some('d' | 'D')) {
            self.dice(Some((n, span)), start)
        } else {
            Ok(Expr {
                kind: ExprKind::Number(n),
                span,
            })
        }
    }

    /// A function, or a streak.
    #[inline(never)]
    fn atom_named(&mut self, start: usize) -> PResult<Expr> {
        for &name in self.syn.functions {
            if self.looking_at(name) && self.rest()[name.len()..].starts_with('(') {
                self.pos += name.len() + 1;
                return self.function(name, start);
            }
        }
        for &name in self.syn.refused_functions {
            if self.looking_at(name) && self.rest()[name.len()..].starts_with('(') {
                self.pos += name.len() + 1;
                return self.math_function(name, start);
            }
        }
        if self.syn.streak && self.eat("streak(") {
            return self.streak(start);
        }
        Err(self.unexpected(if self.syn.versus { ATOM } else { ATOM_DIALECT }))
    }

    /// `sqrt`, `exp`, `log`, `sin`, `cos`, `tan` (rpg-dice-roller's and Foundry's math
    /// functions, read after the `(`): their exact value where it is rational, else a
    /// refusal naming it irrational. `sqrt(x)` is `x ** exact(1/2)` (exact for the squares
    /// of fractions, `sqrt(9/4)` is 3/2, and for a rolled value whose every value is a
    /// square); the others are rational at one point only (`exp(0)` = 1, `log(1)` = 0,
    /// `sin(0)` = `tan(0)` = 0, `cos(0)` = 1: at any other rational point their values are
    /// irrational, by the Lindemann–Weierstrass theorem).
    fn math_function(&mut self, name: &str, start: usize) -> PResult<Expr> {
        self.enter(start)?;
        self.ws();
        let inner = self.exact_sum()?;
        self.close_group("`)`")?;
        self.leave();
        let span = Span::new(start, self.pos);
        if name == "sqrt" {
            let half =
                crate::fraction::decimal("0", "5", span).map_err(|msg| self.invalid(msg, span))?;
            return Ok(binary(BinOp::Pow, inner, half).with_span(span));
        }
        let (at, value) = match name {
            "exp" => (0, 1),
            "log" => (1, 0),
            "cos" => (0, 1),
            _ => (0, 0),
        };
        let text = self.src.get(inner.span.start..inner.span.end).unwrap_or("");
        match constant_value(&inner) {
            Some(v) if v == at => Ok(Expr::number(value).with_span(span)),
            Some(v) if name == "log" && v <= 0 => Err(self.invalid(
                format!("`log({text})` has no value: a logarithm needs a positive number"),
                span,
            )),
            Some(_) => Err(self.invalid(
                format!(
                    "`{name}({text})` is irrational: `{name}` is rational only at {at} \
                     (`{name}({at})` is {value}), and this crate computes with exact fractions"
                ),
                span,
            )),
            None => Err(self.invalid(
                format!(
                    "`{name}` of `{text}` gives irrational values: `{name}` is rational only at \
                     {at} (`{name}({at})` is {value}), and this crate computes with exact \
                     fractions"
                ),
                span,
            )),
        }
    }

    /// A sum read exactly (see [`Parser::exact`]).
    fn exact_sum(&mut self) -> PResult<Expr> {
        let was = self.exact;
        self.exact = true;
        let e = self.sum(&mut Ctx::None);
        self.exact = was;
        e
    }

    /// A rounding function of `inner`, read from `start` to here: the function where
    /// `inner` can be a fraction, else `inner` itself.
    fn rounded(&self, func: Func, inner: Expr, start: usize) -> Expr {
        let span = Span::new(start, self.pos);
        if crate::fraction::can_be_fraction(&inner) {
            Expr::call(func, vec![inner]).with_span(span)
        } else {
            inner.with_span(span)
        }
    }

    /// A decimal number with a fraction (`1.5`, `.25`), in dialects with decimals: an exact
    /// division (`exact(3/2)`). `None` (nothing read) for a whole number (`2`, `2.0`).
    fn decimal(&mut self) -> PResult<Option<Expr>> {
        let start = self.pos;
        let rest = self.rest();
        let whole = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let Some(after) = rest[whole..].strip_prefix('.') else {
            return Ok(None);
        };
        let places = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let digits = &after[..places];
        if digits.bytes().all(|b| b == b'0') {
            return Ok(None);
        }
        let span = Span::new(start, start + whole + 1 + places);
        let e = crate::fraction::decimal(&rest[..whole], digits, span)
            .map_err(|msg| self.invalid(msg, span))?;
        self.pos = span.end;
        if matches!(self.peek(), Some('d' | 'D')) {
            return Err(self.invalid("a number of dice must be a whole number".into(), span));
        }
        Ok(Some(e))
    }

    /// A number; in dialects with decimals, `2.0` is 2 and a fraction is refused.
    fn number(&mut self) -> PResult<(u64, Span)> {
        let start = self.pos;
        let (n, mut span) = if self.peek() == Some('.') {
            (0, Span::new(start, start))
        } else {
            self.uint("a number")?
        };
        if self.syn.decimals && self.peek() == Some('.') {
            self.pos += 1;
            let digits = self
                .rest()
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(self.rest().len());
            let whole = self.rest()[..digits].bytes().all(|b| b == b'0');
            self.pos += digits;
            span = Span::new(start, self.pos);
            if !whole {
                return Err(self.invalid(
                    "a number with a fraction is not supported: this crate computes with whole \
                     numbers"
                        .into(),
                    span,
                ));
            }
        }
        Ok((n, span))
    }

    /// `(` at the input: a parenthesized sum, this crate's `(a >= b)`, Avrae d20's set
    /// `(a, b)`, or a computed count `(1+1)d6`.
    fn parenthesized(&mut self, start: usize) -> PResult<Box<Expr>> {
        self.enter(start)?;
        self.pos += 1;
        if self.syn.sets {
            return self.parenthesized_set(start).map(Box::new);
        }
        self.ws();
        let inner = self.sum_boxed(&mut Ctx::None)?;
        self.ws();
        if self.syn.paren_comparisons {
            if let Some(rel) = self.relation() {
                self.ws();
                let rhs = self.sum_boxed(&mut Ctx::None)?;
                self.close_group("`)`")?;
                self.leave();
                return Ok(Box::new(Expr {
                    kind: ExprKind::Compare(rel, inner, rhs),
                    span: Span::new(start, self.pos),
                }));
            }
        }
        self.close_group("`)`")?;
        self.leave();
        let span = Span::new(start, self.pos);
        if self.syn.computed_dice && matches!(self.peek(), Some('d' | 'D')) {
            return self.parenthesized_dice(*inner, span, start).map(Box::new);
        }
        let mut inner = inner;
        inner.span = span;
        Ok(inner)
    }

    /// Avrae d20's set `(a, b)` after its `(`.
    #[inline(never)]
    fn parenthesized_set(&mut self, start: usize) -> PResult<Expr> {
        self.ws();
        let items = self.items(')')?;
        self.leave();
        let bare = items.1.is_empty() && items.0.len() == 1;
        if bare && !self.looking_at("k") && !self.looking_at("p") {
            let inner = items
                .0
                .into_iter()
                .next()
                .unwrap_or_else(|| Expr::number(0));
            return Ok(inner.with_span(Span::new(start, self.pos)));
        }
        self.group(items, start)
    }

    /// A computed count `(1+1)d6`, `(1d4)d8`: the parenthesized `inner` read over `span`,
    /// before the `d`.
    #[inline(never)]
    fn parenthesized_dice(&mut self, inner: Expr, span: Span, start: usize) -> PResult<Expr> {
        if self.syn.computed_rolls && constant_value(&inner).is_none() {
            let rolled = inner.with_span(span);
            return self.dice_with(Some((1, span)), Some(rolled), start);
        }
        let count = self.constant_count(&inner, span, "number of dice")?;
        self.dice(Some((count, span)), start)
    }

    /// A computed count or number of sides: a constant expression.
    fn constant_count(&self, e: &Expr, span: Span, what: &'static str) -> PResult<u64> {
        if constant_value(e).is_none() && crate::fraction::holds_fraction(e) {
            return Err(self.invalid(
                format!("a {what} must be a whole number: round the fraction (`floor(…)`)"),
                span,
            ));
        }
        let Some(v) = constant_value(e) else {
            return Err(self.invalid(
                format!(
                    "a {what} computed by rolling dice is not supported: only numbers and \
                     arithmetic may stand in the parentheses"
                ),
                span,
            ));
        };
        if !(0..=i128::from(MAX_CONSTANT)).contains(&v) {
            return Err(self.error(
                ParseErrorKind::OutOfRange {
                    what,
                    value: v,
                    min: 0,
                    max: MAX_CONSTANT.into(),
                },
                span,
            ));
        }
        Ok(v as u64)
    }

    /// The items of a group up to `close`, and the spans of the commas (a set `(a,)` has
    /// one item and one comma).
    fn items(&mut self, close: char) -> PResult<(Vec<Expr>, Vec<Span>)> {
        let mut items = Vec::new();
        let mut commas = Vec::new();
        loop {
            self.ws();
            if self.peek() == Some(close) && (self.syn.sets || !items.is_empty()) {
                self.pos += 1;
                return Ok((items, commas));
            }
            let item = self.sum(&mut Ctx::None)?;
            let item = if self.syn.comparisons {
                self.comparisons(item, Ctx::None)?
            } else {
                item
            };
            items.push(item);
            self.ws();
            if self.peek() == Some(close) {
                self.pos += 1;
                return Ok((items, commas));
            }
            if !self.eat(",") {
                return Err(self.unexpected(if close == '}' {
                    "`,` or `}`"
                } else {
                    "`,` or `)`"
                }));
            }
            commas.push(Span::new(self.pos - 1, self.pos));
        }
    }

    /// The modifiers after a group's closing bracket.
    fn group(&mut self, (items, commas): (Vec<Expr>, Vec<Span>), start: usize) -> PResult<Expr> {
        // `{4d6,}`, Avrae d20's `(4d6,)`: a group of one value, not of its dice. Foundry's
        // pool holds rolls and keeps or counts their totals, so its `{3d6}cs>10` is one
        // too (whether the total of 3d6 is above 10).
        let one_value = items.len() == 1 && (commas.len() == 1 || self.syn.name == "foundry");
        let mut g = GroupTerm {
            items,
            keep: Keep::All,
            select: None,
            success: None,
            failure: None,
            steps: Vec::new(),
            dice: false,
        };
        let mut keep_span = Span::default();
        loop {
            let m = self.pos;
            if let Some(keep) = self.keep_words()? {
                let kept = g.keep != Keep::All || g.select.is_some() || !g.steps.is_empty();
                if kept && !self.chains(&keep) {
                    return Err(self.duplicate("a keep or drop", m));
                }
                keep_span = keep_span.join(Span::new(m, self.pos));
                let merge = self.syn.keep == KeepWords::Selectors;
                let (k, sel, steps) = (&mut g.keep, &mut g.select, &mut g.steps);
                crate::select::add_step(k, sel, steps, keep.into_step(), merge);
            } else if let Some(c) = self.success_test()? {
                if g.success.is_some() {
                    return Err(self.duplicate("a success test", m));
                }
                g.success = Some(c);
            } else if self.syn.bare_success && self.eat("f") {
                let Some(on) = self.keyword_cmp()? else {
                    return Err(self.unexpected("which items are failures (as in `f1`)"));
                };
                g.failure = Some(on);
            } else if self.syn.name == "rpg-dice-roller"
                && (self.eat("sa") || self.eat("sd") || self.eat("s"))
            {
                // Sorting a group's results: no effect on its value.
            } else {
                break;
            }
        }
        let span = Span::new(start, self.pos);
        let n = g.items.len() as u32;
        // Roll20 refuses a bare number beside rolls (`{1d6, 5}kh1`; `{1d6, 5 + 0d0}kh1` and
        // `{1d6, {5}}kh1` are accepted): every item must be a roll or a group.
        if self.syn.name == "roll20" && n > 1 {
            // An inline roll is a number by then: `{[[1d6]], 5}kh1` has no rolls in it.
            let outside = |item: &Expr| {
                let text = self.src.get(item.span.start..item.span.end).unwrap_or("");
                without_inline_rolls(text)
            };
            let rolls = g
                .items
                .iter()
                .any(|item| outside(item).contains(['d', 'D']));
            for item in g.items.iter().filter(|_| rolls) {
                let text = outside(item);
                if !text.starts_with('{') && !text.contains(['d', 'D']) {
                    return Err(self.invalid(
                        "Roll20 refuses a number standing alone among the rolls of a group: \
                         write it as a roll, `5 + 0d0`, or a group, `{5}`"
                            .into(),
                        item.span,
                    ));
                }
            }
        }
        if g.items.is_empty() {
            return Ok(Expr {
                kind: ExprKind::Number(0),
                span,
            });
        }
        if g.failure.is_some() && g.success.is_none() {
            return Err(self.invalid(
                "failures (`f…`) are subtracted from a success count: write the success test \
                 first"
                    .into(),
                span,
            ));
        }
        let modified =
            g.keep != Keep::All || g.success.is_some() || g.select.is_some() || !g.steps.is_empty();
        // rpg-dice-roller compares the total of a group's one sub-roll (`{4d6}>10`), after
        // keeping or dropping its dice (`{4d10*5d6}k2>50`): a group of one value, around
        // the group keeping the dice if there is a keep.
        let totals = n == 1 && self.syn.name == "rpg-dice-roller" && g.success.is_some();
        let values = n == 1 && modified && (one_value || totals);
        if values {
            let kept = g.keep != Keep::All || g.select.is_some() || !g.steps.is_empty();
            if totals && !one_value && kept {
                let (success, failure) = (g.success.take(), g.failure.take());
                let inner = self.single_group(g, span, keep_span)?;
                g = GroupTerm {
                    items: vec![inner],
                    keep: Keep::All,
                    select: None,
                    success,
                    failure,
                    steps: Vec::new(),
                    dice: false,
                };
            }
        }
        // One item: its dice are kept or counted one by one (Roll20, rpg-dice-roller), which
        // for a sum of dice of one kind is one pool of them.
        if n == 1 && modified && !values {
            return self.single_group(g, span, keep_span);
        }
        if n == 1 && !values {
            let item = g.items.pop().unwrap_or_else(|| Expr::number(0));
            return Ok(item.with_span(span));
        }
        match g.keep {
            Keep::All => {}
            Keep::Highest(k) | Keep::Lowest(k) => {
                self.checked(out_of_range("items kept", k.into(), 0, n.into(), keep_span))?;
            }
            Keep::DropHighest(k) | Keep::DropLowest(k) => {
                self.checked(out_of_range(
                    "items dropped",
                    k.into(),
                    0,
                    n.into(),
                    keep_span,
                ))?;
            }
        }
        Ok(Expr {
            kind: ExprKind::Group(g),
            span,
        })
    }

    /// `{4d6+2d6}kh3`: the dice of one kind in a one-item group, kept and counted as one
    /// pool.
    fn single_group(&mut self, g: GroupTerm, span: Span, keep_span: Span) -> PResult<Expr> {
        let item = &g.items[0];
        // One term (`{5d6!!}>8`): the group's keep and test go on it, where it has none.
        if let ExprKind::Dice(one) = &item.kind {
            // Avrae d20's `(10d6kh5)kl2`: the set's operations choose among the dice its one
            // item kept, one after the other (not joined to the item's own).
            let chained = self.syn.keep == KeepWords::Selectors
                && g.success.is_none()
                && g.failure.is_none()
                && (g.keep != Keep::All || g.select.is_some() || !g.steps.is_empty())
                && (one.keep != Keep::All || one.select.is_some() || !one.steps.is_empty());
            if chained {
                let mut t = one.clone();
                let mut chain = crate::select::as_steps(one.keep, one.select.as_ref(), &one.steps);
                chain.extend(crate::select::as_steps(g.keep, g.select.as_ref(), &g.steps));
                (t.keep, t.select, t.steps) = crate::select::lower(chain);
                return Ok(Expr {
                    kind: ExprKind::Dice(t),
                    span,
                });
            }
            let free = (g.keep == Keep::All && g.select.is_none() && g.steps.is_empty()
                || one.keep == Keep::All && one.select.is_none() && one.steps.is_empty())
                && (g.success.is_none() || one.success.is_none())
                && (g.failure.is_none() || one.failure.is_none());
            if free {
                let mut t = one.clone();
                if g.keep != Keep::All {
                    t.keep = g.keep;
                }
                if g.select.is_some() {
                    t.select = g.select;
                }
                if !g.steps.is_empty() {
                    t.steps = g.steps;
                }
                if g.success.is_some() {
                    t.success = g.success;
                }
                if g.failure.is_some() {
                    t.failure = g.failure;
                }
                let s = TermSpans {
                    keep: keep_span,
                    select: keep_span,
                    ..TermSpans::all(span)
                };
                self.checked(check_dice(&t, &s))?;
                return Ok(Expr {
                    kind: ExprKind::Dice(t),
                    span,
                });
            }
        }
        let read = match crate::one_group::one_item_group(&g, self.syn.group_constant_per_die) {
            Ok(read) => read,
            // rpg-dice-roller keeps or drops the dice of any one sub-roll, and computes it
            // with the dice kept (`{4d10*(2+5d6)}k2`); so does this crate's grammar.
            Err(_)
                if (self.syn.name == "rpg-dice-roller" || self.syn.canonical_extras)
                    && g.success.is_none()
                    && g.failure.is_none() =>
            {
                return self.dice_group(g, span, keep_span);
            }
            Err(msg) => return Err(self.invalid(msg, span)),
        };
        let s = TermSpans {
            count: span,
            die: span,
            keep: keep_span,
            select: keep_span,
            success: span,
            failure: span,
            ..TermSpans::default()
        };
        match read {
            crate::one_group::OneGroup::Singles(group) => {
                let n = group.items.len() as u32;
                self.checked(keep_in_range(group.keep, n, keep_span))?;
                Ok(Expr {
                    kind: ExprKind::Group(group),
                    span,
                })
            }
            crate::one_group::OneGroup::Terms(terms) => {
                let mut sum: Option<Expr> = None;
                for t in terms {
                    self.checked(check_dice(&t, &s))?;
                    let e = Expr {
                        kind: ExprKind::Dice(t),
                        span,
                    };
                    sum = Some(match sum {
                        None => e,
                        Some(acc) => binary(BinOp::Add, acc, e),
                    });
                }
                Ok(sum.unwrap_or_else(|| Expr::number(0)).with_span(span))
            }
        }
    }

    /// A group of one item keeping or dropping among the item's dice
    /// ([`GroupTerm::dice`]).
    fn dice_group(&mut self, mut g: GroupTerm, span: Span, keep_span: Span) -> PResult<Expr> {
        if g.select.is_some() || !g.steps.is_empty() {
            return Err(self.invalid(
                "a group of one expression keeps or drops its dice with one `kh`, `kl`, `dh` or \
                 `dl`: selections and chains are not supported there"
                    .into(),
                keep_span,
            ));
        }
        let n = crate::dice_group::dice_in(&g.items[0]).map_err(|msg| self.invalid(msg, span))?;
        self.checked(keep_in_range(g.keep, n, keep_span))?;
        g.dice = true;
        Ok(Expr {
            kind: ExprKind::Group(g),
            span,
        })
    }

    /// After the contents of `( … )` or a function: whitespace, then `)`; a `vs` here is
    /// explained.
    fn close_group(&mut self, expected: &'static str) -> PResult<()> {
        self.ws();
        if self.syn.versus && self.looking_at("vs") {
            return Err(self.error(
                ParseErrorKind::Invalid(
                    "`vs` compares the whole expression with a target; it cannot stand inside \
                     parentheses or a function"
                        .into(),
                ),
                Span::new(self.pos, self.pos + 2),
            ));
        }
        if !self.eat(")") {
            return Err(self.unexpected(expected));
        }
        Ok(())
    }

    /// A function whose name and `(` were read.
    fn function(&mut self, name: &str, start: usize) -> PResult<Expr> {
        let rounding = match name {
            "floor" => Some(Rounding::Floor),
            "ceil" => Some(Rounding::Ceil),
            "round" if !self.syn.round_half_away => Some(Rounding::Round),
            "trunc" => Some(Rounding::Trunc),
            "exact" => Some(Rounding::Exact),
            _ => None,
        };
        if name == "round_away" || (name == "round" && self.syn.round_half_away) {
            return self.round_away(start);
        }
        if let Some(r) = rounding {
            return self.rounding(r, start);
        }
        let func = match name {
            "min" => Func::Min,
            "max" => Func::Max,
            "abs" => Func::Abs,
            "sign" => Func::Sign,
            // pow(a, b); this crate's rem(a, b), the remainder with the dividend's sign.
            "rem" => return self.two_arguments(BinOp::Rem, start),
            _ => return self.two_arguments(BinOp::Pow, start),
        };
        self.call(func, start)
    }

    /// rpg-dice-roller's `round`, this crate's `round_away`, after the `(`.
    #[inline(never)]
    fn round_away(&mut self, start: usize) -> PResult<Expr> {
        // rpg-dice-roller's `round` (mathjs's) rounds halves away from zero, as no
        // division of the integer engine does: its argument is read exactly, then
        // rounded.
        self.enter(start)?;
        self.ws();
        let inner = self.exact_sum()?;
        self.close_group("`)`")?;
        self.leave();
        Ok(self.rounded(Func::RoundAway, inner, start))
    }

    /// `floor(`, `ceil(`, `round(`, `trunc(`, `exact(` read: the argument and `)`.
    #[inline(never)]
    fn rounding(&mut self, r: Rounding, start: usize) -> PResult<Expr> {
        self.enter(start)?;
        self.ws();
        let body = self.pos;
        let inner = if self.exact && r != Rounding::Exact {
            self.sum(&mut Ctx::None)?
        } else {
            let mut ctx = Ctx::Open(r);
            self.retry = false;
            match self.sum(&mut ctx) {
                // `floor(a + x/y)` is `a + floor(x/y)` only for a whole `a`.
                Ok(inner)
                    if !(ctx == Ctx::Used
                        && r != Rounding::Exact
                        && crate::fraction::can_be_fraction(&inner)) =>
                {
                    inner
                }
                Err(err) if !self.retry => return Err(err),
                // The one division cannot carry the rounding: read the argument exactly
                // and round it as a whole.
                _ => {
                    self.retry = false;
                    self.pos = body;
                    self.exact_sum()?
                }
            }
        };
        self.close_group("`)`")?;
        self.leave();
        // Without a division the argument is whole already; a fraction left is rounded
        // as a whole.
        Ok(match r.func() {
            Some(f) => self.rounded(f, inner, start),
            None => inner.with_span(Span::new(start, self.pos)),
        })
    }

    /// `rem(` or `pow(` read: two arguments and `)`.
    #[inline(never)]
    fn two_arguments(&mut self, op: BinOp, start: usize) -> PResult<Expr> {
        self.enter(start)?;
        self.ws();
        let a = self.sum(&mut Ctx::None)?;
        self.ws();
        if !self.eat(",") {
            return Err(self.unexpected("`,` and the second argument"));
        }
        self.ws();
        let b = self.sum(&mut Ctx::None)?;
        self.close_group("`)`")?;
        self.leave();
        Ok(binary(op, a, b).with_span(Span::new(start, self.pos)))
    }

    /// `min(` / `max(` / `abs(` / `sign(` already read: the arguments and `)`.
    fn call(&mut self, func: Func, start: usize) -> PResult<Expr> {
        self.enter(start)?;
        let mut args = Vec::new();
        loop {
            self.ws();
            args.push(self.sum(&mut Ctx::None)?);
            self.ws();
            if !self.eat(",") {
                break;
            }
        }
        if func.is_unary() && args.len() != 1 {
            return Err(self.invalid(
                format!("`{func}` takes one argument"),
                Span::new(start, self.pos),
            ));
        }
        if !func.is_unary() && args.len() < 2 {
            return Err(self.unexpected("`,` and a second argument"));
        }
        self.close_group("`,` or `)`")?;
        self.leave();
        Ok(Expr {
            kind: ExprKind::Call(func, args),
            span: Span::new(start, self.pos),
        })
    }

    /// Digits, as a number up to [`MAX_CONSTANT`].
    fn uint(&mut self, expected: &'static str) -> PResult<(u64, Span)> {
        let start = self.pos;
        let len = self
            .rest()
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(self.rest().len());
        if len == 0 {
            return Err(self.unexpected(expected));
        }
        let value = self.rest()[..len].bytes().fold(0u128, |acc, b| {
            acc.saturating_mul(10).saturating_add(u128::from(b - b'0'))
        });
        self.pos += len;
        let span = Span::new(start, self.pos);
        let value = i128::try_from(value).unwrap_or(i128::MAX);
        self.checked(out_of_range("number", value, 0, MAX_CONSTANT.into(), span))?;
        Ok((value as u64, span))
    }

    /// An optionally negative number.
    fn int(&mut self, expected: &'static str) -> PResult<i64> {
        if let Some(n) = self.inline_number()? {
            return Ok(n);
        }
        let neg = self.eat("-") || self.eat("−");
        let (n, _) = self.uint(expected)?;
        let n = n as i64;
        Ok(if neg { -n } else { n })
    }

    /// `{a, b, …}`
    fn set(&mut self) -> PResult<Cmp> {
        // A rolled number stands only as a test's one number (`>=(1d4)`), not in a set: it
        // would stand for the whole test and drop the set's other numbers (found by fuzzing:
        // `0d5={0,(1df/2),06}`).
        let target_ok = std::mem::replace(&mut self.target_ok, false);
        let values = self.set_values();
        self.target_ok = target_ok;
        values
    }

    fn set_values(&mut self) -> PResult<Cmp> {
        let mut values = BTreeSet::new();
        loop {
            self.ws();
            values.insert(self.int("a number")?);
            self.ws();
            if self.eat("}") {
                return Ok(Cmp::OneOf(values));
            }
            if !self.eat(",") {
                return Err(self.unexpected("`,` or `}`"));
            }
        }
    }
    /// Foundry's count before the test of a reroll or explosion (`x5=10`, `r1=1`): the most
    /// rerolls or explosions in the whole term. A number is a count only when a comparison
    /// follows it (`x10` explodes on 10).
    fn foundry_limit(&mut self) -> PResult<Option<u32>> {
        if self.syn.name != "foundry" {
            return Ok(None);
        }
        let rest = self.rest();
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 || !rest[digits..].starts_with(['<', '>', '=']) {
            return Ok(None);
        }
        let (n, _) = self.uint("the most rerolls or explosions in the term")?;
        Ok(Some(n.min(u64::from(u32::MAX)) as u32))
    }

    /// This crate's `limitN` after a reroll or explosion: the most of them in the whole term.
    fn canonical_limit(&mut self) -> PResult<Option<u32>> {
        if !self.syn.canonical_extras || !self.eat("limit") {
            return Ok(None);
        }
        let (n, _) = self.uint("the most rerolls or explosions in the term (as in `limit5`)")?;
        Ok(Some(n.min(u64::from(u32::MAX)) as u32))
    }

    /// Whether an inline roll starts here (Roll20's `[[…]]`).
    fn at_inline_roll(&self) -> bool {
        self.syn.name == "roll20" && self.rest().starts_with("[[")
    }

    /// Roll20's inline roll `[[…]]` at the input: the expression inside, rolled once and
    /// used as a number where it stands.
    fn inline_roll(&mut self, start: usize) -> PResult<Expr> {
        self.enter(start)?;
        self.pos += 2;
        self.ws();
        let inner = self.sum(&mut Ctx::None)?;
        self.ws();
        if !self.eat("]]") {
            return Err(self.unexpected("`]]` (the end of the inline roll)"));
        }
        self.leave();
        Ok(inner.with_span(Span::new(start, self.pos)))
    }

    /// A number written as an inline roll (Roll20's `[[1+3]]`), or in this crate's grammar
    /// in parentheses where a success test's number may be rolled (`>=(1d4)`): a constant is
    /// its value; a rolled one is the success target of the dice term being read (kept in
    /// `rolled_target`, 0 standing for it).
    fn inline_number(&mut self) -> PResult<Option<i64>> {
        let start = self.pos;
        let inline = self.at_inline_roll();
        let paren = self.syn.canonical_extras && self.target_ok && self.peek() == Some('(');
        if !inline && !paren {
            return Ok(None);
        }
        // Dice terms inside have success targets of their own.
        let target_ok = std::mem::replace(&mut self.target_ok, false);
        let outer = self.rolled_target.take();
        let inner = if inline {
            self.inline_roll(start)?
        } else {
            self.enter(start)?;
            self.pos += 1;
            self.ws();
            let inner = self.sum(&mut Ctx::None)?;
            self.close_group("`)`")?;
            self.leave();
            inner.with_span(Span::new(start, self.pos))
        };
        self.target_ok = target_ok;
        self.rolled_target = outer;
        let span = Span::new(start, self.pos);
        if let Some(v) = constant_value(&inner) {
            self.checked(out_of_range(
                "number",
                v,
                -i128::from(MAX_CONSTANT),
                MAX_CONSTANT.into(),
                span,
            ))?;
            return Ok(Some(v as i64));
        }
        if !target_ok {
            return Err(self.invalid(
                "a rolled number may stand as a count, as sides or as the number of a success \
                 test (`3d6>[[1d4]]`), not here"
                    .into(),
                span,
            ));
        }
        if crate::fraction::can_be_fraction(&inner) {
            return Err(self.invalid(
                "a success target that can be a fraction is not supported: round it with \
                 floor(…), ceil(…) or round(…)"
                    .into(),
                span,
            ));
        }
        self.rolled_target = Some(inner);
        Ok(Some(0))
    }

    /// An optional compare point after a modifier (`u`, `mt`): written bare in the
    /// dialects (`u=5`), in parentheses in this crate's grammar (`u(=5)`), where a bare test
    /// would read as a success count. `expected` names the spelling in an error.
    fn optional_test(
        &mut self,
        parenthesised: bool,
        expected: &'static str,
    ) -> PResult<Option<Cmp>> {
        if !parenthesised {
            return self.cmp();
        }
        if !self.eat("(") {
            return Ok(None);
        }
        let Some(on) = self.cmp()? else {
            return Err(self.unexpected(expected));
        };
        if !self.eat(")") {
            return Err(self.unexpected("`)`"));
        }
        Ok(Some(on))
    }

    /// A test with its operator: `>=5`, `<=5`, `>5`, `<5`, `=5`, `={1,2}`; `<>5` and `!=5`
    /// where the dialect has them; in Roll20, `>5` and `<5` include the 5.
    fn cmp(&mut self) -> PResult<Option<Cmp>> {
        const NUMBER: &str = "a number (as in `>=5`)";
        let inclusive = self.syn.inclusive_gt_lt;
        let not_equal = self.syn.not_equal || self.syn.canonical_extras;
        let c = if self.eat(">=") {
            Cmp::AtLeast(self.int(NUMBER)?)
        } else if self.eat("<=") {
            Cmp::AtMost(self.int(NUMBER)?)
        } else if not_equal && self.eat("<>") || self.syn.not_equal && self.eat("!=") {
            Cmp::NotEqual(self.int(NUMBER)?)
        } else if self.eat(">") {
            let n = self.int(NUMBER)?;
            if inclusive {
                Cmp::AtLeast(n)
            } else {
                Cmp::Above(n)
            }
        } else if self.eat("<") {
            let n = self.int(NUMBER)?;
            if inclusive {
                Cmp::AtMost(n)
            } else {
                Cmp::Below(n)
            }
        } else if self.eat("=") {
            if self.eat("{") {
                self.set()?
            } else {
                Cmp::Exactly(self.int("a number or a set (as in `=6` or `={5,6}`)")?)
            }
        } else {
            return Ok(None);
        };
        Ok(Some(c))
    }

    /// A test after a keyword: a comparison, or a bare face (`1`) or set (`{1,2}`).
    fn keyword_cmp(&mut self) -> PResult<Option<Cmp>> {
        if let Some(c) = self.cmp()? {
            return Ok(Some(c));
        }
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let (n, _) = self.uint("a number")?;
            return Ok(Some(Cmp::Exactly(n as i64)));
        }
        if self.eat("{") {
            return Ok(Some(self.set()?));
        }
        Ok(None)
    }

    /// A success test after dice or a group: a bare comparison, or Foundry's `cs…`.
    fn success_test(&mut self) -> PResult<Option<Cmp>> {
        if self.syn.bare_success {
            return self.cmp();
        }
        if self.syn.foundry_counting && self.eat("cs") {
            return match self.keyword_cmp()? {
                Some(c) => Ok(Some(c)),
                None => Err(self.unexpected("what counts as a success (as in `cs>=5`)")),
            };
        }
        Ok(None)
    }

    /// Avrae d20's selector after `k`, `p` and its dice operators: `hN`, `lN`, `>N`, `<N`
    /// or a face `N`.
    fn selector(&mut self) -> PResult<Selector> {
        const WHAT: &str = "a selector: `h3` (highest 3), `l1` (lowest 1), `>4`, `<2` or a face";
        if self.eat("h") {
            return Ok(Selector::Highest(self.uint(WHAT)?.0 as u32));
        }
        if self.eat("l") {
            return Ok(Selector::Lowest(self.uint(WHAT)?.0 as u32));
        }
        if self.eat(">") {
            return Ok(Selector::Test(Cmp::Above(self.int(WHAT)?)));
        }
        if self.eat("<") {
            return Ok(Selector::Test(Cmp::Below(self.int(WHAT)?)));
        }
        if self.peek().is_some_and(|c| c.is_ascii_digit() || c == '-') {
            return Ok(Selector::Test(Cmp::Exactly(self.int(WHAT)?)));
        }
        Err(self.unexpected(WHAT))
    }

    /// Whether a keep or drop may follow another on the same term: Avrae d20 chains them
    /// (`k1k2`, `kh1pl1`); this crate's grammar, as steps written `k(h5)k(l2)`.
    fn chains(&self, next: &Kept) -> bool {
        self.syn.keep == KeepWords::Selectors
            || self.syn.canonical_extras && matches!(next, Kept::Step(_))
    }

    /// A keep or drop written in the dialect's words, if one is next.
    fn keep_words(&mut self) -> PResult<Option<Kept>> {
        match self.syn.keep {
            KeepWords::Selectors => {
                let keep = if self.eat("k") {
                    true
                } else if self.eat("p") {
                    false
                } else {
                    return Ok(None);
                };
                Ok(Some(match self.selector()? {
                    Selector::Highest(k) if keep => Kept::Keep(Keep::Highest(k)),
                    Selector::Lowest(k) if keep => Kept::Keep(Keep::Lowest(k)),
                    Selector::Highest(k) => Kept::Keep(Keep::DropHighest(k)),
                    Selector::Lowest(k) => Kept::Keep(Keep::DropLowest(k)),
                    Selector::Test(on) => Kept::Select(Select { keep, on }),
                }))
            }
            KeepWords::Standard { bare_d } => {
                let m = self.pos;
                let extras = self.syn.canonical_extras;
                if extras && (self.looking_at("k(") || self.looking_at("d(")) {
                    let keep = self.eat("k") || !self.eat("d");
                    self.pos += 1;
                    // `k(>3)`, or a step of a chain: `k(h5,l2)`, `d(=1,>4)`.
                    let mut picks = Vec::new();
                    loop {
                        let what = "a test (as in `k(>3)`) or `h`/`l` and a number (`k(h5,l2)`)";
                        if self.eat("h") {
                            picks.push(Pick::Highest(self.uint(what)?.0 as u32));
                        } else if self.eat("l") {
                            picks.push(Pick::Lowest(self.uint(what)?.0 as u32));
                        } else if let Some(on) = self.cmp()? {
                            picks.push(Pick::Test(on));
                        } else {
                            return Err(self.unexpected(what));
                        }
                        if !self.eat(",") {
                            break;
                        }
                    }
                    if !self.eat(")") {
                        return Err(self.unexpected("`)`"));
                    }
                    return Ok(Some(Kept::Step(Step { keep, picks })));
                }
                let word = if self.eat("kh") || self.eat("kl") || self.eat("dh") || self.eat("dl") {
                    self.src[m..self.pos].to_ascii_lowercase()
                } else if self.eat("k") {
                    "kh".to_owned()
                } else if bare_d
                    && self.looking_at("d")
                    && (self.rest()[1..].starts_with(|c: char| c.is_ascii_digit())
                        || self.syn.bare_d_alone
                            && !self.rest()[1..]
                                .starts_with(|c: char| c.is_alphanumeric() || "(%.".contains(c)))
                {
                    self.pos += 1;
                    "dl".to_owned()
                } else {
                    return Ok(None);
                };
                let k = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.uint("how many dice")?.0 as u32
                } else {
                    1
                };
                Ok(Some(Kept::Keep(match word.as_str() {
                    "kl" => Keep::Lowest(k),
                    "dh" => Keep::DropHighest(k),
                    "dl" => Keep::DropLowest(k),
                    _ => Keep::Highest(k),
                })))
            }
        }
    }

    fn duplicate(&self, modifier: &'static str, at: usize) -> ParseError {
        self.error(
            ParseErrorKind::Duplicate { modifier },
            Span::new(at, self.pos),
        )
    }

    /// The die after `d`: sides, `F` or `%`, a coin `c`, or `(…)` sides.
    fn die(&mut self) -> PResult<(DieKind, Span)> {
        let start = self.pos;
        let die = if self.eat("f") {
            if self.syn.fudge_variants && self.eat(".") {
                if self.eat("2") {
                } else if self.eat("1") {
                    // rpg-dice-roller rolls a d6: 1 is −1, 6 is +1, the rest 0.
                    self.fudge_one = true;
                    return Ok((DieKind::Sides(6), Span::new(start, self.pos)));
                } else {
                    return Err(self.unexpected("`1` or `2` (as in `dF.2`)"));
                }
            }
            DieKind::Fudge
        } else if self.eat("%") {
            DieKind::Sides(100)
        } else if (self.syn.coin || self.syn.canonical_extras)
            && self.looking_at("c")
            && !(self.syn.foundry_counting && self.looking_at("cc"))
        {
            // A coin, its modifiers may follow at once (`dCr0`, the canonical form of
            // `dc` rerolled; `dCcs1`, found by fuzzing); Foundry's `dcc1` is its call, below.
            self.pos += 1;
            DieKind::Coin
        } else if self.syn.coin && self.syn.foundry_counting && self.looking_at("cc") {
            // Foundry's call, `dcc1`: the coin, then `c` and the face called.
            self.pos += 1;
            DieKind::Coin
        } else if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let (n, _) = self.uint("the number of sides")?;
            DieKind::Sides(n as u32)
        } else if self.syn.computed_dice && (self.peek() == Some('(') || self.at_inline_roll()) {
            let open = self.pos;
            let inner = if self.at_inline_roll() {
                // Roll20's inline roll as the sides (`d[[1d4+2]]`).
                self.inline_roll(open)?
            } else {
                self.enter(open)?;
                self.pos += 1;
                self.ws();
                let inner = self.sum(&mut Ctx::None)?;
                self.close_group("`)`")?;
                self.leave();
                inner
            };
            let span = Span::new(open, self.pos);
            if self.syn.computed_rolls && constant_value(&inner).is_none() {
                // Rolled sides: the die stands for any size while the modifiers are read.
                self.rolled_sides = Some(inner.with_span(span));
                DieKind::Sides(MAX_SIDES)
            } else {
                let n = self.constant_count(&inner, span, "sides")?;
                DieKind::Sides(n.min(u64::from(u32::MAX)) as u32)
            }
        } else {
            return Err(self.unexpected("the number of sides (`d6`), `F` (`dF`) or `%` (`d%`)"));
        };
        Ok((die, Span::new(start, self.pos)))
    }

    /// The faces an explosion or reroll targets when none is written.
    fn default_explode(die: DieKind) -> Cmp {
        Cmp::Exactly(die.faces().1)
    }

    /// A dice term: the count (if any) is read; the input is at `d`.
    fn dice(&mut self, count: Option<(u64, Span)>, start: usize) -> PResult<Expr> {
        self.dice_with(count, None, start)
    }

    /// A dice term whose count may be rolled (`rolled`, as in `(1d4)d8`).
    fn dice_with(
        &mut self,
        count: Option<(u64, Span)>,
        rolled: Option<Expr>,
        start: usize,
    ) -> PResult<Expr> {
        let d_at = self.pos;
        self.pos += 1; // `d`
        let percent = self.looking_at("%");
        let outer_sides = self.rolled_sides.take();
        let (die, die_span) = self.die()?;
        let rolled_sides = self.rolled_sides.take();
        self.rolled_sides = outer_sides;
        self.die_default = false;
        let fudge_one = std::mem::take(&mut self.fudge_one);
        let (count, count_span) = count.unwrap_or((1, Span::new(start, start + 1)));
        let mut t = DiceTerm::new(count.min(u64::from(u32::MAX)) as u32, die);
        let mut s = TermSpans {
            count: count_span,
            die: die_span,
            ..TermSpans::default()
        };
        let syn = self.syn;
        let mut library_keeps: Vec<Keep> = Vec::new();
        // Every reroll and explosion in the order written, in case the term needs them
        // applied one after the other (a limit in the term, or two of a kind).
        let sequences = syn.name == "foundry" || syn.canonical_extras;
        let mut target: Option<Expr> = None;
        let mut seq: Vec<RollStep> = Vec::new();
        let (mut seq_needed, mut seq_ok) = (false, true);
        loop {
            let m = self.pos;
            // Explosions.
            let explosion = match syn.explode {
                ExplodeWords::Bang { penetrate } => {
                    if self.eat("!!") || self.eat("!") {
                        let compound = self.pos - m == 2;
                        let pen = penetrate && self.eat("p");
                        let on = match self.keyword_cmp()? {
                            Some(on) => on,
                            None => {
                                self.die_default = true;
                                Self::default_explode(die)
                            }
                        };
                        Some((compound, pen, on, None, None))
                    } else {
                        None
                    }
                }
                ExplodeWords::X => {
                    if self.eat("xo") || self.eat("x") {
                        let once = self.pos - m == 2;
                        let limit = self.foundry_limit()?;
                        let on = match self.keyword_cmp()? {
                            Some(on) => on,
                            None => {
                                self.die_default = true;
                                Self::default_explode(die)
                            }
                        };
                        Some((false, false, on, once.then_some(1), limit))
                    } else {
                        None
                    }
                }
                ExplodeWords::E => {
                    if self.eat("e") {
                        let on = self.selector_on_dice(&t, "`e`")?;
                        Some((false, false, on, None, None))
                    } else {
                        None
                    }
                }
            };
            if let Some((compound, penetrate, on, cap, limit)) = explosion {
                s.explode = Span::new(m, self.pos);
                let cap_start = self.pos;
                let cap = if syn.explosion_cap && self.eat("cap") {
                    Some(self.uint("the most extra rolls per die (as in `!cap5`)")?.0 as u32)
                } else {
                    cap
                };
                s.cap = Span::new(cap_start, self.pos);
                let limit = match limit {
                    Some(l) => Some(l),
                    None => self.canonical_limit()?,
                };
                s.explode = Span::new(m, self.pos);
                seq.push(RollStep {
                    kind: StepKind::Explode,
                    recursive: cap != Some(1),
                    on: on.clone(),
                    limit,
                });
                let plain = !compound && !penetrate && matches!(cap, None | Some(1));
                seq_ok &= plain;
                seq_needed |= limit.is_some();
                if t.explode.is_some() {
                    // A second explosion makes a sequence of plain ones only.
                    if !sequences || !seq_ok {
                        return Err(self.duplicate("an explosion", m));
                    }
                    seq_needed = true;
                    continue;
                }
                t.explode = Some(Explosion {
                    compound,
                    penetrate,
                    on,
                    cap,
                });
                continue;
            }
            // Rerolls.
            if let Some(&(word, kind)) = syn.rerolls.iter().find(|(w, _)| self.looking_at(w)) {
                // `ra` in this crate's canonical form; a word must not swallow `max`, `min`.
                self.pos += word.len();
                let foundry_limit = self.foundry_limit()?;
                let on = if syn.keep == KeepWords::Selectors {
                    self.selector_on_dice(&t, word)?
                } else {
                    match self.keyword_cmp()? {
                        Some(c) => c,
                        None if syn.reroll_default_lowest => {
                            self.die_default = true;
                            Cmp::Exactly(die.faces().0)
                        }
                        None if syn.canonical_extras && word == "r" && self.eat("a") => {
                            let Some(on) = self.keyword_cmp()? else {
                                return Err(self.unexpected("what to reroll and add (`ra1`)"));
                            };
                            if t.reroll_add.is_some() {
                                return Err(self.duplicate("a reroll-and-add (`ra`)", m));
                            }
                            s.reroll_add = Span::new(m, self.pos);
                            t.reroll_add = Some(on);
                            continue;
                        }
                        None => {
                            return Err(self.unexpected(
                                "what to reroll: a face (`r1`), a set (`r{1,2}`) or a \
                                 comparison (`r<=2`)",
                            ));
                        }
                    }
                };
                match kind {
                    RerollWord::Add => {
                        if t.reroll_add.is_some() {
                            return Err(self.duplicate("a reroll-and-add (`ra`)", m));
                        }
                        s.reroll_add = Span::new(m, self.pos);
                        t.reroll_add = Some(on);
                    }
                    RerollWord::Once | RerollWord::Until => {
                        let once = kind == RerollWord::Once;
                        let limit = match foundry_limit {
                            Some(l) => Some(l),
                            None => self.canonical_limit()?,
                        };
                        seq.push(RollStep {
                            kind: StepKind::Reroll,
                            recursive: !once,
                            on: on.clone(),
                            limit,
                        });
                        seq_needed |= limit.is_some();
                        match &mut t.reroll {
                            // Roll20's `r1r3`: more faces rerolled the same way.
                            Some(r) if r.once == once && syn.name == "roll20" => {
                                self.listable(die.faces(), "a smaller die before a second reroll")?;
                                r.on = union_on_faces(&r.on, &on, die);
                            }
                            Some(_) if sequences => seq_needed = true,
                            Some(_) => return Err(self.duplicate("a reroll", m)),
                            None => t.reroll = Some(Reroll { once, on }),
                        }
                        s.reroll = Span::new(m, self.pos);
                    }
                }
                continue;
            }
            if syn.unique && (self.eat("uo") || self.eat("u")) {
                let once = self.pos - m == 2;
                if t.unique.is_some() {
                    return Err(self.duplicate("a unique (`u`, `uo`)", m));
                }
                // rpg-dice-roller's compare point: only duplicates passing it are rerolled
                // (`u=5`; `u(=5)` in this crate's grammar, where `u=5` counts fives).
                let on = self.optional_test(syn.canonical_extras, "a test (as in `u(=5)`)")?;
                t.unique = Some(Unique { once, on });
                s.unique = Span::new(m, self.pos);
                continue;
            }
            // Foundry's counting words.
            if syn.foundry_counting {
                match self.foundry_modifier(&mut t, &mut s, m)? {
                    Foundry::None => {}
                    Foundry::Done => continue,
                    Foundry::Negated => {
                        // `cf…df`: each counted failure deducts one.
                        let span = Span::new(start, self.pos);
                        self.checked(check_dice(&t, &s))?;
                        let dice = Expr {
                            kind: ExprKind::Dice(t),
                            span,
                        };
                        return Ok(Expr {
                            kind: ExprKind::Neg(Box::new(dice)),
                            span,
                        });
                    }
                    Foundry::Margin(target, above) => {
                        // `ms`: the margin of the total over (or under) a target.
                        let span = Span::new(start, self.pos);
                        self.checked(check_dice(&t, &s))?;
                        let dice = Expr {
                            kind: ExprKind::Dice(t),
                            span,
                        };
                        let target = signed(target, span);
                        let (a, b) = if above {
                            (dice, target)
                        } else {
                            (target, dice)
                        };
                        return Ok(binary(BinOp::Sub, a, b).with_span(span));
                    }
                }
            }
            if (syn.crit_markers) && (self.looking_at("cs") || self.looking_at("cf")) {
                let success = self.looking_at("cs");
                self.pos += 2;
                let (lo, hi) = die.faces();
                let on = match self.keyword_cmp()? {
                    Some(on) => on,
                    None => {
                        self.die_default = true;
                        Cmp::Exactly(if success { hi } else { lo })
                    }
                };
                let slot = if success {
                    &mut t.crit_success
                } else {
                    &mut t.crit_failure
                };
                match slot {
                    // Roll20's `cs20cs10`: more faces marked the same way.
                    Some(prev) if syn.name == "roll20" => {
                        self.listable(die.faces(), "a smaller die before a second marker")?;
                        *prev = union_on_faces(prev, &on, die);
                    }
                    Some(_) => return Err(self.duplicate("a critical marker (`cs`, `cf`)", m)),
                    None => *slot = Some(on),
                }
                s.crit = Span::new(m, self.pos);
                continue;
            }
            if syn.canonical_extras && (self.eat("sf") || self.eat("df")) {
                let Some(on) = self.keyword_cmp()? else {
                    return Err(self.unexpected("which dice are failures (as in `sf1`)"));
                };
                if t.failure.is_some() {
                    return Err(self.duplicate("a failure test (`f`, `sf`, `df`)", m));
                }
                t.failure = Some(on);
                t.failure_value = self.src[m..m + 2].eq_ignore_ascii_case("sf");
                s.failure = Span::new(m, self.pos);
                continue;
            }
            if syn.sort && (self.eat("sa") || self.eat("sd") || self.eat("s")) {
                let desc = self.src[m..self.pos].eq_ignore_ascii_case("sd");
                t.sort = Some(if desc {
                    Sort::Descending
                } else {
                    Sort::Ascending
                });
                continue;
            }
            // `mt`, `mt3`, Roll20's `mt3>4`; `mt3(>=4)` in this crate's grammar.
            if (syn.matches || syn.canonical_extras) && self.eat("mt") {
                let least = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    let (n, span) = self.uint("the least dice in a set")?;
                    self.checked(out_of_range(
                        "dice in a set of matches",
                        n.into(),
                        1,
                        MAX_DICE.into(),
                        span,
                    ))?;
                    n as u32
                } else {
                    2
                };
                let on = self.optional_test(syn.canonical_extras, "a test (as in `mt(>=4)`)")?;
                if t.matches.is_some() {
                    return Err(self.duplicate("a count of matches (`mt`)", m));
                }
                t.matches = Some(Matches { least, on });
                s.matches = Span::new(m, self.pos);
                continue;
            }
            if syn.matches && self.eat("m") {
                // `m`, `m3`: highlights matching dice, no effect on the value.
                if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.uint("the least matching dice")?;
                }
                // A comparison after `m` could limit the values highlighted (as `mt3>4`
                // limits the sets counted) or count successes: the reference shows it only
                // with `mt`, so it is refused rather than guessed.
                if self.rest().starts_with(['<', '>', '=']) {
                    return Err(self.invalid(
                        "a comparison after Roll20's `m` (highlight matches) is not supported: \
                         the Dice Reference gives comparisons for `mt` only (`5d6mt3>4` counts \
                         sets of 4 or more); to count successes, write the test without `m` \
                         (`5d6>4`)"
                            .into(),
                        Span::new(m, self.pos + 1),
                    ));
                }
                continue;
            }
            if let Some(keep) = self.keep_words()? {
                // rpg-dice-roller: the keep and the drops are gathered, then ordered below.
                if let (true, Kept::Keep(k)) = (syn.keep_then_drop, &keep) {
                    let same = |a: &Keep| std::mem::discriminant(a) == std::mem::discriminant(k);
                    if library_keeps.iter().any(same) {
                        return Err(self.duplicate("a keep or drop (`kh`, `kl`, `dh`, `dl`)", m));
                    }
                    library_keeps.push(*k);
                    s.keep = if library_keeps.len() > 1 {
                        s.keep.join(Span::new(m, self.pos))
                    } else {
                        Span::new(m, self.pos)
                    };
                    s.select = s.keep;
                    continue;
                }
                let kept = t.keep != Keep::All || t.select.is_some() || !t.steps.is_empty();
                if kept && !self.chains(&keep) {
                    return Err(self.duplicate("a keep or drop (`kh`, `kl`, `dh`, `dl`)", m));
                }
                s.keep = if kept {
                    s.keep.join(Span::new(m, self.pos))
                } else {
                    Span::new(m, self.pos)
                };
                s.select = s.keep;
                let merge = syn.keep == KeepWords::Selectors;
                let (k, sel, steps) = (&mut t.keep, &mut t.select, &mut t.steps);
                crate::select::add_step(k, sel, steps, keep.into_step(), merge);
                continue;
            }
            let clamp = if syn.min_max && (self.eat("min") || self.eat("max")) {
                Some(self.src[m..self.pos].eq_ignore_ascii_case("min"))
            } else if syn.mi_ma && (self.eat("mi") || self.eat("ma")) {
                Some(self.src[m..self.pos].eq_ignore_ascii_case("mi"))
            } else {
                None
            };
            if let Some(is_min) = clamp {
                let v = if syn.mi_ma {
                    match self.selector()? {
                        Selector::Test(Cmp::Exactly(v)) => v,
                        _ => {
                            return Err(self.invalid(
                                "`mi` and `ma` take a number (as in `mi2`)".into(),
                                Span::new(m, self.pos),
                            ));
                        }
                    }
                } else {
                    self.int("a number (as in `min2`)")?
                };
                let span = Span::new(m, self.pos);
                let slot = if is_min { &mut t.min } else { &mut t.max };
                if slot.is_some() {
                    return Err(self.duplicate(if is_min { "`min`" } else { "`max`" }, m));
                }
                *slot = Some(v);
                if is_min {
                    s.min = span;
                } else {
                    s.max = span;
                }
                continue;
            }
            if syn.bare_success {
                self.target_ok = true;
                let test = self.cmp();
                self.target_ok = false;
                if let Some(c) = test? {
                    if t.success.is_some() {
                        return Err(self.duplicate("a success test (`>=N`)", m));
                    }
                    s.success = Span::new(m, self.pos);
                    t.success = Some(c);
                    target = self.rolled_target.take();
                    continue;
                }
                if self.eat("f") {
                    let Some(on) = self.keyword_cmp()? else {
                        return Err(self.unexpected(
                            "which dice are failures: a face (`f1`), a set (`f{1,2}`) or a \
                             comparison (`f<=2`)",
                        ));
                    };
                    if t.failure.is_some() {
                        return Err(self.duplicate("a failure test (`f`)", m));
                    }
                    s.failure = Span::new(m, self.pos);
                    t.failure = Some(on);
                    continue;
                }
            }
            if self.looking_at("cap") && syn.explosion_cap {
                return Err(self.invalid(
                    "`cap` goes right after an explosion, as in `!cap5`".into(),
                    Span::new(m, m + 3),
                ));
            }
            if matches!(self.peek(), Some('d' | 'D')) && syn.versus {
                return Err(self.unexpected("`dh` or `dl` (drop the highest or lowest dice)"));
            }
            break;
        }
        if seq_needed {
            if !seq_ok {
                return Err(self.invalid(
                    "rerolls and explosions applied one after the other (with a limit in the \
                     term, or several on one term) must be plain: no compounding, penetrating \
                     or cap other than `cap1` (explode once)"
                        .into(),
                    s.explode,
                ));
            }
            t.sequence = seq;
            t.reroll = None;
            t.explode = None;
        }
        if !library_keeps.is_empty() {
            // Both ends kept (`kh` with `kl`): the run of ranks left depends on the number of
            // dice, known here unless rolled or added to.
            let fixed = rolled.is_none()
                && t.explode.is_none()
                && t.sequence.is_empty()
                && t.reroll_add.is_none();
            let steps = match crate::select::keep_then_drop(&library_keeps) {
                Some(steps) => steps,
                None if fixed => both_ends(&library_keeps, t.count, die.faces().0),
                None => {
                    return Err(self.invalid(
                        "keeping both the highest and the lowest dice (`kh` with `kl`) on one \
                         term is supported only for a number of dice known before the roll (no \
                         explosions, no rolled count)"
                            .into(),
                        s.keep,
                    ));
                }
            };
            (t.keep, t.select, t.steps) = crate::select::lower(steps);
        }
        let span = Span::new(start, self.pos);
        let plain_f = self
            .src
            .get(s.failure.start..s.failure.end)
            .is_some_and(|w| w.starts_with(['f', 'F']));
        if plain_f && t.success.is_none() {
            return Err(self.invalid(
                "failures (`f…`) are subtracted from a success count: write the success test \
                 first, as in `10d10>=8f1`"
                    .into(),
                s.failure,
            ));
        }
        if fudge_one {
            // `NdF.1`: the d6 showing 6 less those showing 1, `Nd6=6f1`. Critical markers
            // and sorting are display only: they are dropped, as they would mark d6 faces.
            t.crit_success = None;
            t.crit_failure = None;
            t.sort = None;
            if DiceTerm::new(t.count, t.die) != t {
                return Err(self.invalid(
                    "`dF.1` with modifiers is not supported (it is read as `d6=6f1`: the 6s \
                     less the 1s of d6)"
                        .into(),
                    span,
                ));
            }
            t.success = Some(Cmp::Exactly(6));
            t.failure = Some(Cmp::Exactly(1));
        }
        if rolled.is_some() || rolled_sides.is_some() || target.is_some() {
            if rolled_sides.is_some() && self.die_default {
                return Err(self.invalid(
                    "with rolled sides a modifier cannot take its faces from the die (a plain \
                     `!` explodes on the highest face, which is not known before the roll): \
                     write the faces, as in `!>=6`"
                        .into(),
                    Span::new(die_span.end, self.pos),
                ));
            }
            // Sides written as a number are checked now, as for any die (found by fuzzing:
            // `3d1>(d71+2)`, a d1 with a rolled target, rolled 1s and 2s).
            if rolled_sides.is_none() {
                self.checked(check_die(t.die, die_span))?;
            }
            let count = match rolled {
                Some(c) => c,
                None => Expr::number(count).with_span(count_span),
            };
            return Ok(Expr {
                kind: ExprKind::Computed(crate::ast::ComputedDice {
                    count: Box::new(count),
                    sides: rolled_sides.map(Box::new),
                    term: t,
                    target: target.map(Box::new),
                }),
                span,
            });
        }
        // Dialects' degenerate dice: none (0), a d1, Avrae d20's tens die.
        if syn.degenerate_dice && (count == 0 || die == DieKind::Sides(1)) {
            let plain = DiceTerm::new(t.count, t.die) == t;
            if count == 0 {
                return Ok(Expr {
                    kind: ExprKind::Number(0),
                    span,
                });
            }
            if plain {
                return Ok(Expr {
                    kind: ExprKind::Number(count),
                    span,
                });
            }
            return Err(self.invalid(
                "a d1 with modifiers is not supported; without them it is its count".into(),
                span,
            ));
        }
        if syn.tens_percentile && percent {
            if DiceTerm::new(t.count, t.die) != t {
                return Err(self.invalid(
                    "Avrae d20's `d%` is a tens die (0, 10, …, 90); modifiers on it are not \
                     supported"
                        .into(),
                    Span::new(d_at, self.pos),
                ));
            }
            self.checked(check_dice(&t, &s))?;
            // N tens dice: 10 × (Nd10 − N).
            let n = u64::from(t.count);
            let dice = Expr {
                kind: ExprKind::Dice(DiceTerm::new(t.count, DieKind::Sides(10))),
                span,
            };
            let minus = binary(BinOp::Sub, dice, Expr::number(n).with_span(span));
            return Ok(binary(BinOp::Mul, minus, Expr::number(10).with_span(span)).with_span(span));
        }
        self.checked(check_dice(&t, &s))?;
        Ok(Expr {
            kind: ExprKind::Dice(t),
            span,
        })
    }

    /// Avrae d20's selector after a dice operator (`rr`, `ro`, `ra`, `e`): a test on the
    /// faces; `hN`/`lN` only on one die, where they select it whatever it shows.
    fn selector_on_dice(&mut self, t: &DiceTerm, word: &str) -> PResult<Cmp> {
        let m = self.pos;
        match self.selector()? {
            Selector::Test(c) => Ok(c),
            Selector::Highest(k) | Selector::Lowest(k) if t.count == 1 && k >= 1 => {
                let (lo, hi) = t.die.faces();
                Ok(Cmp::AtLeast(lo.min(hi)))
            }
            _ => Err(self.invalid(
                format!(
                    "`{word}` with a highest/lowest selector on several dice is not supported: \
                     select faces (`{word}1`, `{word}<3`, `{word}>5`)"
                ),
                Span::new(m, self.pos),
            )),
        }
    }

    /// Foundry's `cs`, `cf`, `df`, `sf`, `ms`, `even`, `odd`, if one is next.
    fn foundry_modifier(
        &mut self,
        t: &mut DiceTerm,
        s: &mut TermSpans,
        m: usize,
    ) -> PResult<Foundry> {
        let (lo, hi) = t.die.faces();
        if t.die == DieKind::Coin
            && self.looking_at("c")
            && self.rest()[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            // Foundry's coin call, `c1` (heads) or `c0` (tails): the coins showing it count.
            self.pos += 1;
            let (face, _) = self.uint("the face called, 1 (heads) or 0 (tails)")?;
            if t.success.is_some() {
                return Err(self.duplicate("a count (`c`, `cs`, `cf`, `even`, `odd`)", m));
            }
            t.success = Some(Cmp::Exactly(face as i64));
            s.success = Span::new(m, self.pos);
            return Ok(Foundry::Done);
        }
        let word = ["cs", "cf", "df", "sf", "ms", "even", "odd"]
            .into_iter()
            .find(|w| self.looking_at(w));
        let Some(word) = word else {
            return Ok(Foundry::None);
        };
        self.pos += word.len();
        let default = match word {
            "cs" => Some(hi),
            "cf" | "df" | "sf" => Some(lo),
            _ => None,
        };
        let c = if matches!(word, "even" | "odd") {
            self.die_default = true;
            // The die's size is checked later; listing the faces of a huge one first would
            // exhaust memory (found by fuzzing: `2d656555227odd`).
            if hi.saturating_sub(lo) >= i64::from(MAX_SIDES) {
                return Err(self.unexpected("a smaller die before `even`/`odd`"));
            }
            let odd = word == "odd";
            Cmp::OneOf(
                (lo..=hi)
                    .filter(|f| (f.rem_euclid(2) == 1) == odd)
                    .collect(),
            )
        } else {
            match (self.keyword_cmp()?, default) {
                (Some(c), _) => c,
                // A bare `df` after a count: the dice that are no success (after `cs`), or
                // the counted failures each deduct one (after `cf`: the count negated).
                (None, _) if word == "df" && t.success.is_some() => {
                    let counted_failures = self
                        .src
                        .get(s.success.start..s.success.start + 2)
                        .is_some_and(|w| w.eq_ignore_ascii_case("cf"));
                    if counted_failures {
                        return Ok(Foundry::Negated);
                    }
                    self.listable((lo, hi), "a smaller die before `df`")?;
                    self.die_default = true;
                    complement(t.success.as_ref().unwrap_or(&Cmp::Exactly(lo)), lo, hi)
                }
                (None, Some(v)) => {
                    self.die_default = true;
                    Cmp::Exactly(v)
                }
                (None, None) => return Err(self.unexpected("a target (as in `ms>=10`)")),
            }
        };
        match word {
            "cs" | "cf" | "even" | "odd" => {
                if t.success.is_some() {
                    return Err(self.duplicate("a count (`cs`, `cf`, `even`, `odd`)", m));
                }
                if c == Cmp::OneOf(BTreeSet::new()) {
                    return Err(self.invalid(
                        format!("no face of a {} passes `{word}`", t.die),
                        Span::new(m, self.pos),
                    ));
                }
                t.success = Some(c);
                s.success = Span::new(m, self.pos);
                Ok(Foundry::Done)
            }
            "df" | "sf" => {
                if t.failure.is_some() {
                    return Err(self.duplicate("a failure test (`df`, `sf`)", m));
                }
                // `df` without `cs`: the other dice add their values, each failure deducts one.
                t.failure = Some(c);
                t.failure_value = word == "sf";
                s.failure = Span::new(m, self.pos);
                Ok(Foundry::Done)
            }
            _ => match c {
                Cmp::AtLeast(n) | Cmp::Above(n) | Cmp::Exactly(n) => Ok(Foundry::Margin(n, true)),
                Cmp::AtMost(n) | Cmp::Below(n) => Ok(Foundry::Margin(n, false)),
                _ => Err(self.invalid(
                    "`ms` takes a target, as in `ms>=10`".into(),
                    Span::new(m, self.pos),
                )),
            },
        }
    }

    /// `streak(` already read: `1? d SIDES cmp (cap N)? )`.
    fn streak(&mut self, start: usize) -> PResult<Expr> {
        self.enter(start)?;
        self.ws();
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let (n, span) = self.uint("a die")?;
            if n != 1 {
                return Err(self.error(
                    ParseErrorKind::Invalid(
                        "a streak rolls one die at a time: write `streak(d6>=4)`".into(),
                    ),
                    span,
                ));
            }
        }
        if !self.eat("d") {
            return Err(self.unexpected("the die of the streak (as in `streak(d6>=4)`)"));
        }
        let (die, die_span) = self.die()?;
        let on_start = self.pos;
        let Some(on) = self.cmp()? else {
            return Err(
                self.unexpected("which faces continue the streak (as in `>=4` or `={5,6}`)")
            );
        };
        let on_span = Span::new(on_start, self.pos);
        self.ws();
        let cap_start = self.pos;
        let cap = if self.eat("cap") {
            Some(self.uint("the longest streak (as in `cap10`)")?.0 as u32)
        } else {
            None
        };
        let cap_span = Span::new(cap_start, self.pos);
        self.close_group("`cap` or `)`")?;
        self.leave();
        let t = StreakTerm { die, on, cap };
        self.checked(check_streak(&t, die_span, on_span, cap_span))?;
        Ok(Expr {
            kind: ExprKind::Streak(t),
            span: Span::new(start, self.pos),
        })
    }
}

/// rpg-dice-roller's keep and drops on `n` dice when both ends are kept (`3d10kh2kl2`): each
/// modifier marks the dice it drops over all the dice (ranked once), so the dice left are
/// the ranks `lo..hi` every modifier keeps: as steps, drop the `lo` lowest, then keep the
/// `hi − lo` lowest left; none at all (every die showing `lowest` or more dropped) when the
/// runs do not meet.
fn both_ends(keeps: &[Keep], n: u32, lowest: i64) -> Vec<Step> {
    let (mut lo, mut hi) = (0u32, n);
    for k in keeps {
        match *k {
            Keep::Highest(k) => lo = lo.max(n.saturating_sub(k)),
            Keep::Lowest(k) => hi = hi.min(k),
            Keep::DropHighest(k) => hi = hi.min(n.saturating_sub(k)),
            Keep::DropLowest(k) => lo = lo.max(k),
            Keep::All => {}
        }
    }
    if hi <= lo {
        return vec![Step {
            keep: false,
            picks: vec![Pick::Test(Cmp::AtLeast(lowest))],
        }];
    }
    let mut steps = Vec::new();
    if lo > 0 {
        steps.push(Step {
            keep: false,
            picks: vec![Pick::Lowest(lo)],
        });
    }
    if hi - lo < n - lo {
        steps.push(Step {
            keep: true,
            picks: vec![Pick::Lowest(hi - lo)],
        });
    }
    steps
}

/// `text` without its Roll20 inline rolls (`[[…]]`, nested ones included).
fn without_inline_rolls(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut rest = text;
    while !rest.is_empty() {
        if rest.starts_with("[[") {
            depth += 1;
            rest = &rest[2..];
        } else if depth > 0 && rest.starts_with("]]") {
            depth -= 1;
            rest = &rest[2..];
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            if depth == 0 {
                out.push(c);
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The faces of `die` passing either test, as a set (Roll20's repeated `r1r3`, `cs20cs10`).
fn union_on_faces(a: &Cmp, b: &Cmp, die: DieKind) -> Cmp {
    let (lo, hi) = die.faces();
    Cmp::OneOf((lo..=hi).filter(|&f| a.test(f) || b.test(f)).collect())
}

/// The faces of a die (`lo..=hi`) that fail `c`, as a test.
fn complement(c: &Cmp, lo: i64, hi: i64) -> Cmp {
    match c {
        Cmp::AtLeast(n) => Cmp::Below(*n),
        Cmp::AtMost(n) => Cmp::Above(*n),
        Cmp::Above(n) => Cmp::AtMost(*n),
        Cmp::Below(n) => Cmp::AtLeast(*n),
        Cmp::Exactly(n) => Cmp::NotEqual(*n),
        Cmp::NotEqual(n) => Cmp::Exactly(*n),
        Cmp::OneOf(set) => Cmp::OneOf((lo..=hi).filter(|f| !set.contains(f)).collect()),
    }
}

/// What Foundry's counting word did.
enum Foundry {
    None,
    Done,
    /// `cf…df`: the count of failures, each deducting one.
    Negated,
    /// `ms`: the target, and whether the margin is the total above it.
    Margin(i64, bool),
}

/// A whole number as a tree (`-3` as a sign over 3).
fn signed(n: i64, span: Span) -> Expr {
    let e = Expr::number(n.unsigned_abs()).with_span(span);
    if n < 0 {
        Expr {
            kind: ExprKind::Neg(Box::new(e)),
            span,
        }
    } else {
        e
    }
}

/// What a keep/drop word selected.
enum Kept {
    Keep(Keep),
    Select(Select),
    /// This crate's spelling of a step of a chain, `k(h5,l2)` (and `k(>3)`).
    Step(Step),
}

impl Kept {
    fn into_step(self) -> Step {
        match self {
            Kept::Keep(k) => crate::select::from_keep(k).unwrap_or(Step {
                keep: false,
                picks: Vec::new(),
            }),
            Kept::Select(s) => crate::select::from_select(&s),
            Kept::Step(s) => s,
        }
    }
}

/// Avrae d20's selectors.
enum Selector {
    Highest(u32),
    Lowest(u32),
    Test(Cmp),
}

/// [`binary`] of boxed operands, boxed.
fn binary_boxed(op: BinOp, lhs: Box<Expr>, rhs: Box<Expr>) -> Box<Expr> {
    let span = lhs.span.join(rhs.span);
    Box::new(Expr {
        kind: ExprKind::Binary(op, lhs, rhs),
        span,
    })
}

fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.join(rhs.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
        span,
    }
}
