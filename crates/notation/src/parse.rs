//! The parser: text to [`Expr`], by recursive descent over the characters (no separate
//! lexer: `4d6kh3` has no spaces to split on). Every dice term is checked against the limits
//! as soon as it is read, so errors point at the modifier at fault.

use std::collections::BTreeSet;

use dice_core::Keep;

use crate::ast::{
    BinOp, Cmp, DiceTerm, DieKind, Explosion, Expr, ExprKind, Func, Reroll, Span, StreakTerm,
};
use crate::error::{ParseError, ParseErrorKind};
use crate::{MAX_CONSTANT, MAX_DEPTH, MAX_DICE, MAX_EXPLOSION_CAP, MAX_INPUT_LEN, MAX_SIDES};

/// What may start an operand.
const ATOM: &str = "a number, dice (`2d6`, `d20`, `dF`), `(`, `-`, `min(`, `max(` or `streak(`";
/// What may follow a complete operand.
const AFTER: &str = "an operator (`+`, `-`, `*`, `/`), `vs` or the end of the input";
/// The same, when a comparison stands where an operator should.
const AFTER_CMP: &str = "an operator (`+`, `-`, `*`, `/`), `vs` or the end of the input \
     (to compare a total with a target write `vs`, as in `2d6+1 vs 8`; to count dice write \
     the test right after them, as in `6d6>=5`)";

type PResult<T> = Result<T, ParseError>;

/// Parses a whole expression.
pub(crate) fn parse(input: &str) -> PResult<Expr> {
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
    let mut p = Parser {
        src: input,
        pos: 0,
        depth: 0,
    };
    p.ws();
    let e = p.top()?;
    p.ws();
    if !p.at_end() {
        let cmp = p.rest().starts_with(['<', '>', '=']);
        return Err(p.unexpected(if cmp { AFTER_CMP } else { AFTER }));
    }
    Ok(e)
}

/// Where each part of a dice term was written, for error messages.
#[derive(Clone, Copy, Debug, Default)]
struct TermSpans {
    count: Span,
    die: Span,
    reroll: Span,
    explode: Span,
    cap: Span,
    min: Span,
    max: Span,
    keep: Span,
    success: Span,
    failure: Span,
}

/// A failed check: what, and where.
type Check = Result<(), (ParseErrorKind, Span)>;

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
    match t.keep {
        Keep::All => {}
        Keep::Highest(k) | Keep::Lowest(k) => {
            out_of_range("dice kept", k.into(), 1, t.count.into(), s.keep)?;
        }
        Keep::DropHighest(k) | Keep::DropLowest(k) => {
            if t.count == 1 {
                return invalid("a single die cannot drop dice".into(), s.keep);
            }
            out_of_range("dice dropped", k.into(), 1, (t.count - 1).into(), s.keep)?;
        }
    }
    if let Some(c) = &t.success {
        check_cmp(c, s.success)?;
    }
    if let Some(c) = &t.failure {
        check_cmp(c, s.failure)?;
        if t.success.is_none() {
            return invalid(
                "failures (`f…`) are subtracted from a success count: write the success test \
                 first, as in `10d10>=8f1`"
                    .into(),
                s.failure,
            );
        }
    }
    Ok(())
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

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
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

    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
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

    fn checked(&self, check: Check) -> PResult<()> {
        check.map_err(|(kind, span)| self.error(kind, span))
    }

    /// "expected …, found …" at the current position.
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

    /// `sum ("vs" sum)?`
    fn top(&mut self) -> PResult<Expr> {
        let lhs = self.sum()?;
        let save = self.pos;
        self.ws();
        if self.eat("vs") {
            self.ws();
            let rhs = self.sum()?;
            let span = lhs.span.join(rhs.span);
            return Ok(Expr {
                kind: ExprKind::Versus(Box::new(lhs), Box::new(rhs)),
                span,
            });
        }
        self.pos = save;
        Ok(lhs)
    }

    /// `product (("+" | "-") product)*`
    fn sum(&mut self) -> PResult<Expr> {
        let mut lhs = self.product()?;
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
            self.ws();
            let rhs = self.product()?;
            lhs = binary(op, lhs, rhs);
        }
    }

    /// `unary (("*" | "/") unary)*`
    fn product(&mut self) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        loop {
            let save = self.pos;
            self.ws();
            let op = if self.eat("*") || self.eat("×") {
                BinOp::Mul
            } else if self.eat("/") || self.eat("÷") {
                BinOp::Div
            } else {
                self.pos = save;
                return Ok(lhs);
            };
            self.ws();
            let rhs = self.unary()?;
            lhs = binary(op, lhs, rhs);
        }
    }

    /// `"-" unary | atom`
    fn unary(&mut self) -> PResult<Expr> {
        let start = self.pos;
        if self.eat("-") || self.eat("−") {
            self.enter(start)?;
            self.ws();
            let inner = self.unary()?;
            self.leave();
            let span = Span::new(start, inner.span.end);
            return Ok(Expr {
                kind: ExprKind::Neg(Box::new(inner)),
                span,
            });
        }
        self.atom()
    }

    fn atom(&mut self) -> PResult<Expr> {
        let start = self.pos;
        match self.peek() {
            Some('(') => {
                self.enter(start)?;
                self.pos += 1;
                self.ws();
                let inner = self.sum()?;
                self.close_group("`)`")?;
                self.leave();
                Ok(inner.with_span(Span::new(start, self.pos)))
            }
            Some(c) if c.is_ascii_digit() => {
                let (n, span) = self.uint("a number")?;
                if matches!(self.peek(), Some('d' | 'D')) {
                    self.dice(Some((n, span)), start)
                } else {
                    Ok(Expr {
                        kind: ExprKind::Number(n),
                        span,
                    })
                }
            }
            Some('d' | 'D') => self.dice(None, start),
            _ => {
                if self.eat("min(") {
                    self.call(Func::Min, start)
                } else if self.eat("max(") {
                    self.call(Func::Max, start)
                } else if self.eat("streak(") {
                    self.streak(start)
                } else {
                    Err(self.unexpected(ATOM))
                }
            }
        }
    }

    /// After the contents of `( … )` or a function: whitespace, then `)`; a `vs` here is
    /// explained.
    fn close_group(&mut self, expected: &'static str) -> PResult<()> {
        self.ws();
        if self.looking_at("vs") {
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

    /// `min(` / `max(` already read: `sum ("," sum)+ ")"`.
    fn call(&mut self, func: Func, start: usize) -> PResult<Expr> {
        self.enter(start)?;
        let mut args = Vec::new();
        loop {
            self.ws();
            args.push(self.sum()?);
            self.ws();
            if !self.eat(",") {
                break;
            }
        }
        if args.len() < 2 {
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
        let neg = self.eat("-") || self.eat("−");
        let (n, _) = self.uint(expected)?;
        let n = n as i64;
        Ok(if neg { -n } else { n })
    }

    /// `{a, b, …}`
    fn set(&mut self) -> PResult<Cmp> {
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

    /// A test with its operator: `>=5`, `<=5`, `>5`, `<5`, `=5`, `={1,2}`.
    fn cmp(&mut self) -> PResult<Option<Cmp>> {
        const NUMBER: &str = "a number (as in `>=5`)";
        let c = if self.eat(">=") {
            Cmp::AtLeast(self.int(NUMBER)?)
        } else if self.eat("<=") {
            Cmp::AtMost(self.int(NUMBER)?)
        } else if self.eat(">") {
            Cmp::Above(self.int(NUMBER)?)
        } else if self.eat("<") {
            Cmp::Below(self.int(NUMBER)?)
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

    /// The die after `d`: sides, `F` or `%`.
    fn die(&mut self) -> PResult<(DieKind, Span)> {
        let start = self.pos;
        let die = if self.eat("f") {
            DieKind::Fudge
        } else if self.eat("%") {
            DieKind::Sides(100)
        } else if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let (n, _) = self.uint("the number of sides")?;
            DieKind::Sides(n as u32)
        } else {
            return Err(self.unexpected("the number of sides (`d6`), `F` (`dF`) or `%` (`d%`)"));
        };
        Ok((die, Span::new(start, self.pos)))
    }

    /// A dice term: the count (if any) is read; the input is at `d`.
    fn dice(&mut self, count: Option<(u64, Span)>, start: usize) -> PResult<Expr> {
        self.pos += 1; // `d`
        let (die, die_span) = self.die()?;
        let (count, count_span) = count.unwrap_or((1, Span::new(start, start + 1)));
        let mut t = DiceTerm::new(count as u32, die);
        let mut s = TermSpans {
            count: count_span,
            die: die_span,
            ..TermSpans::default()
        };
        let duplicate = |p: &Self, modifier: &'static str, at: usize| {
            Err(p.error(ParseErrorKind::Duplicate { modifier }, Span::new(at, p.pos)))
        };
        loop {
            let m = self.pos;
            if self.eat("!!") || self.eat("!") {
                let compound = self.pos - m == 2;
                let on = self.keyword_cmp()?.unwrap_or(Cmp::Exactly(die.faces().1));
                s.explode = Span::new(m, self.pos);
                let cap_start = self.pos;
                let cap = if self.eat("cap") {
                    Some(self.uint("the most extra rolls per die (as in `!cap5`)")?.0 as u32)
                } else {
                    None
                };
                s.cap = Span::new(cap_start, self.pos);
                if t.explode.is_some() {
                    return duplicate(self, "an explosion (`!`, `!!`)", m);
                }
                t.explode = Some(Explosion { compound, on, cap });
            } else if self.eat("ro") || self.eat("r") {
                let once = self.pos - m == 2;
                let Some(on) = self.keyword_cmp()? else {
                    return Err(self.unexpected(
                        "what to reroll: a face (`r1`), a set (`r{1,2}`) or a comparison (`r<=2`)",
                    ));
                };
                if t.reroll.is_some() {
                    return duplicate(self, "a reroll (`r`, `ro`)", m);
                }
                s.reroll = Span::new(m, self.pos);
                t.reroll = Some(Reroll { once, on });
            } else if self.eat("kh")
                || self.eat("kl")
                || self.eat("dh")
                || self.eat("dl")
                || self.eat("k")
            {
                let word = self.src[m..self.pos].to_ascii_lowercase();
                let k = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.uint("how many dice")?.0 as u32
                } else {
                    1
                };
                if t.keep != Keep::All {
                    return duplicate(self, "a keep or drop (`kh`, `kl`, `dh`, `dl`)", m);
                }
                s.keep = Span::new(m, self.pos);
                t.keep = match word.as_str() {
                    "kl" => Keep::Lowest(k),
                    "dh" => Keep::DropHighest(k),
                    "dl" => Keep::DropLowest(k),
                    _ => Keep::Highest(k),
                };
            } else if self.eat("min") || self.eat("max") {
                let is_min = self.src[m..self.pos].eq_ignore_ascii_case("min");
                let v = self.int("a number (as in `min2`)")?;
                let span = Span::new(m, self.pos);
                let slot = if is_min { &mut t.min } else { &mut t.max };
                if slot.is_some() {
                    return duplicate(self, if is_min { "`min`" } else { "`max`" }, m);
                }
                *slot = Some(v);
                if is_min {
                    s.min = span;
                } else {
                    s.max = span;
                }
            } else if let Some(c) = self.cmp()? {
                if t.success.is_some() {
                    return duplicate(self, "a success test (`>=N`)", m);
                }
                s.success = Span::new(m, self.pos);
                t.success = Some(c);
            } else if self.eat("f") {
                let Some(on) = self.keyword_cmp()? else {
                    return Err(self.unexpected(
                        "which dice are failures: a face (`f1`), a set (`f{1,2}`) or a \
                         comparison (`f<=2`)",
                    ));
                };
                if t.failure.is_some() {
                    return duplicate(self, "a failure test (`f`)", m);
                }
                s.failure = Span::new(m, self.pos);
                t.failure = Some(on);
            } else if self.looking_at("cap") {
                return Err(self.error(
                    ParseErrorKind::Invalid(
                        "`cap` goes right after an explosion, as in `!cap5`".into(),
                    ),
                    Span::new(m, m + 3),
                ));
            } else if matches!(self.peek(), Some('d' | 'D')) {
                return Err(self.unexpected("`dh` or `dl` (drop the highest or lowest dice)"));
            } else {
                break;
            }
        }
        let span = Span::new(start, self.pos);
        self.checked(check_dice(&t, &s))?;
        Ok(Expr {
            kind: ExprKind::Dice(t),
            span,
        })
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

fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.join(rhs.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
        span,
    }
}
