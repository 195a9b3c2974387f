//! [`Expression`]: a parsed, checked and compiled dice expression.

use std::fmt;
use std::str::FromStr;

use dice_core::{Dist, Exact, Roll};
use rand::Rng;

use crate::ast::{DieKind, Expr, ExprKind, bare_left};
use crate::compile::{Plan, compile};
use crate::dialect::Dialect;
use crate::error::{NotationError, ParseError, ParseErrorKind};
use crate::rational::Rational;
use crate::roll::{
    ListFaces, ListProblem, ListRoller, Outcome, RngRoller, RollResult, Roller, roll_outcome,
    roll_plan,
};
use crate::{MAX_DEPTH, MAX_INPUT_LEN};

/// A dice expression, ready to roll and to ask for its exact odds.
///
/// Built by [`Expression::parse`] (or [`str::parse`], or [`Expression::from_expr`] for a tree
/// built by hand), which checks every limit, so rolling never fails. `Display` gives the
/// canonical form, which parses back to an equal expression. Two expressions are equal when
/// their trees are (spans aside).
///
/// ```
/// use dice_core::{Exact, Roll};
/// use dice_notation::{Expression, Outcome};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let stat: Expression = "4d6kh3".parse()?;
/// assert_eq!(stat.to_string(), "4d6kh3");
///
/// // Roll it, with every die…
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
/// let result = stat.roll(&mut rng);
/// println!("{result}"); // e.g. "4d6kh3 [5, 2, (1), 6] = 13 → 13"
///
/// // …or as dice-sim does, just the outcome…
/// let outcome: Outcome = Roll::roll(&stat, &mut rng);
/// assert!((3..=18).contains(&outcome.as_number().unwrap()));
///
/// // …or ask for the exact odds.
/// let odds = stat.distribution()?;
/// assert!((odds.probability(&Outcome::Number(18)) - 21.0 / 1296.0).abs() < 1e-15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Expression {
    expr: Expr,
    pub(crate) plan: Plan,
}

impl PartialEq for Expression {
    fn eq(&self, other: &Self) -> bool {
        self.expr == other.expr
    }
}

impl Eq for Expression {}

impl Expression {
    /// Parses and checks `input`.
    ///
    /// # Errors
    /// A [`ParseError`] with the span of the offending input and what was expected there,
    /// for bad syntax and for anything beyond the limits ([`crate::MAX_INPUT_LEN`],
    /// [`crate::MAX_DEPTH`], [`crate::MAX_DICE`], [`crate::MAX_SIDES`],
    /// [`crate::MAX_EXPLOSION_CAP`], [`crate::MAX_ROLLED`], [`crate::MAX_CONSTANT`],
    /// [`crate::MAX_VALUE`]), a divisor that can be 0, or an explosion, reroll or streak that
    /// would never stop.
    ///
    /// ```
    /// use dice_notation::Expression;
    /// assert!(Expression::parse("10d10!>=9cap5>=8f1").is_ok());
    /// let err = Expression::parse("2d6 / (1d3-2)").unwrap_err();
    /// assert!(err.to_string().starts_with("the divisor `1d3-2` can be 0"));
    /// ```
    pub fn parse(input: &str) -> Result<Expression, ParseError> {
        Expression::parse_with(input, Dialect::Default)
    }

    /// Parses and checks `input` written in `dialect`: each dialect's constructs with the
    /// meaning its roller's documentation gives (Roll20's `>4` includes 4, Foundry's `r`
    /// rerolls once, Avrae d20's `k3` keeps the dice showing 3 …), onto the same tree, so
    /// the expression rolls and has exact odds like any other. Its canonical form
    /// ([`Display`](fmt::Display)) is in this crate's grammar.
    ///
    /// # Errors
    /// As [`Expression::parse`]. When the text parses in another dialect, the error says so
    /// ([`ParseError::hint`]).
    ///
    /// ```
    /// use dice_notation::{Dialect, Expression};
    /// // Foundry: `r` rerolls once, `rr` until; Roll20: `>` includes its number.
    /// assert_eq!(Expression::parse_with("1d20r1", Dialect::Foundry)?.to_string(), "1d20ro1");
    /// assert_eq!(Expression::parse_with("1d20rr1", Dialect::Foundry)?.to_string(), "1d20r1");
    /// assert_eq!(Expression::parse_with("3d6!>4", Dialect::Roll20)?.to_string(), "3d6!>=4");
    /// let err = Expression::parse("1d20rr1").unwrap_err();
    /// assert!(err.hint().unwrap().contains("--dialect foundry"));
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn parse_with(input: &str, dialect: Dialect) -> Result<Expression, ParseError> {
        Expression::parse_plain(input, dialect)
            .map_err(|err| crate::error::with_hint(err, input, dialect))
    }

    /// Parses without looking for a hint in other dialects.
    pub(crate) fn parse_plain(input: &str, dialect: Dialect) -> Result<Expression, ParseError> {
        let expr = crate::parse::parse_with(input, dialect)?;
        check_canonical_len(&expr, input)?;
        let plan = compile(&expr, input)?;
        Ok(Expression { expr, plan })
    }

    /// Checks and compiles a tree built by hand, by parsing its canonical form (so errors
    /// point into that text, and the expression's spans are those of the text).
    ///
    /// # Errors
    /// As [`Expression::parse`]; [`ParseErrorKind::TooDeep`](crate::ParseErrorKind::TooDeep)
    /// for a tree nested deeper than any text the parser takes can be, found before the tree
    /// is printed: more than [`crate::MAX_DEPTH`] signs one inside another, or more than
    /// `MAX_INPUT_LEN / 2 + MAX_DEPTH` levels that print one inside another (each level but
    /// a sign adds at least two characters around the one inside it). So printing, which
    /// recurses once per such level, stays as shallow as for parsed text.
    ///
    /// ```
    /// use dice_notation::{DiceTerm, DieKind, Expr, Expression};
    /// let e = Expression::from_expr(Expr::dice(DiceTerm::new(3, DieKind::Fudge)))?;
    /// assert_eq!(e, Expression::parse("3dF")?);
    /// assert!(Expression::from_expr(Expr::dice(DiceTerm::new(3, DieKind::Sides(1)))).is_err());
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn from_expr(expr: Expr) -> Result<Expression, ParseError> {
        // Printing recurses once per level of nesting (the left operands of a chain print
        // in a loop): refuse a tree nested deeper than any accepted text can be before
        // printing it. Each level but a sign adds at least two characters around the one
        // inside it (an operand and an operator, parentheses, a call's name and brackets),
        // and the parser takes at most MAX_DEPTH signs one inside another.
        let max_levels = MAX_INPUT_LEN / 2 + MAX_DEPTH;
        let too_deep = |e: &Expr, max: usize| {
            Err(ParseError::new(ParseErrorKind::TooDeep { max }, e.span, ""))
        };
        // (node, levels it prints inside, signs it prints inside)
        let mut stack = vec![(&expr, 0usize, 0usize)];
        while let Some((e, levels, signs)) = stack.pop() {
            if signs > MAX_DEPTH {
                return too_deep(e, MAX_DEPTH);
            }
            if levels > max_levels {
                return too_deep(e, max_levels);
            }
            let inner = levels + 1;
            match &e.kind {
                ExprKind::Neg(x) => stack.push((x, inner, signs + 1)),
                ExprKind::Binary(_, a, b) | ExprKind::Versus(a, b) | ExprKind::Compare(_, a, b) => {
                    // A chain's left operand prints at the chain's own level.
                    let left = if bare_left(e).is_some() {
                        levels
                    } else {
                        inner
                    };
                    stack.push((a, left, signs));
                    stack.push((b, inner, signs));
                }
                ExprKind::Call(_, args) => stack.extend(args.iter().map(|a| (a, inner, signs))),
                ExprKind::Group(g) => stack.extend(g.items.iter().map(|a| (a, inner, signs))),
                ExprKind::Computed(c) => {
                    stack.push((&c.count, inner, signs));
                    stack.extend(c.sides.iter().map(|s| (&**s, inner, signs)));
                    stack.extend(c.target.iter().map(|s| (&**s, inner, signs)));
                }
                ExprKind::Number(_) | ExprKind::Dice(_) | ExprKind::Streak(_) => {}
            }
        }
        Expression::parse(&expr.to_string())
    }

    /// The syntax tree.
    ///
    /// ```
    /// use dice_notation::{Expression, ExprKind};
    /// let e = Expression::parse("1d20+5")?;
    /// assert!(matches!(e.expr().kind, ExprKind::Binary(..)));
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// Whether the expression is a three-way comparison (`… vs …`): its outcomes are then
    /// [`Outcome::Versus`], not numbers.
    ///
    /// ```
    /// use dice_notation::Expression;
    /// assert!(Expression::parse("1d20+5 vs 15")?.is_comparison());
    /// assert!(!Expression::parse("1d20+5")?.is_comparison());
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn is_comparison(&self) -> bool {
        matches!(self.expr.kind, ExprKind::Versus(..))
    }

    /// The least and greatest value the expression (its left side, for a comparison) can
    /// take, as far as interval arithmetic tells (the true range may be narrower).
    ///
    /// ```
    /// use dice_notation::Expression;
    /// assert_eq!(Expression::parse("2d6+1")?.bounds(), (3, 13));
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn bounds(&self) -> (i64, i64) {
        (self.plan.body.lo, self.plan.body.hi)
    }

    /// Rolls once with the caller's RNG, recording every die.
    ///
    /// The outcome is the same as [`Roll::roll`]'s for the same RNG state: both draw the
    /// same numbers (this one also records them).
    ///
    /// ```
    /// use dice_core::Roll;
    /// use dice_notation::Expression;
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let e = Expression::parse("10d10!>=9>=8f1")?;
    /// let detailed = e.roll(&mut Xoshiro256PlusPlus::seed_from_u64(3));
    /// let plain = Roll::roll(&e, &mut Xoshiro256PlusPlus::seed_from_u64(3));
    /// assert_eq!(detailed.outcome, plain);
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> RollResult {
        self.roll_with(&mut RngRoller(rng))
    }

    /// A recorded roll, on the fraction path where the expression holds a fraction.
    fn roll_with<R: Roller>(&self, roller: &mut R) -> RollResult {
        if let Some(f) = &self.plan.fraction {
            let (outcome, total, target, terms) =
                crate::fraction::roll_plan(&self.plan, f, roller, true);
            let fraction = |r: Rational| (!r.is_integer()).then_some(r);
            return RollResult {
                outcome,
                total: total.floor(),
                target: target.map(Rational::floor),
                total_exact: fraction(total),
                target_exact: target.and_then(fraction),
                terms,
            };
        }
        let (outcome, total, target, terms) = roll_plan(&self.plan, roller, true);
        RollResult {
            outcome,
            total,
            target,
            total_exact: None,
            target_exact: None,
            terms,
        }
    }

    /// The pure form: evaluates the expression with faces given in advance, taken in order
    /// by every die rolled (rerolls and explosions included), left to right. A `dF` face is
    /// −1, 0 or +1. For worked examples and tests.
    ///
    /// # Errors
    /// [`FaceError`] when the faces run out, are left over, or one is not a face of its die.
    ///
    /// ```
    /// use dice_notation::{Expression, Outcome};
    /// // Reroll 1s once, explode 6s, keep the highest three: the first die's 1 is rerolled
    /// // into a 6, which explodes and adds a die (a 2); then 5, 3, 2. Five dice; the three
    /// // highest, 6 + 5 + 3, count.
    /// let e = Expression::parse("4d6ro1!kh3")?;
    /// let r = e.roll_faces([1, 6, 2, 5, 3, 2]).unwrap();
    /// assert_eq!(r.terms[0].to_string(), "4d6ro1!kh3 [1r6!, (+2), 5, 3, (2)] = 14");
    /// assert_eq!(r.outcome, Outcome::Number(14));
    /// # Ok::<(), dice_notation::ParseError>(())
    /// ```
    pub fn roll_faces<I: IntoIterator<Item = i64>>(
        &self,
        faces: I,
    ) -> Result<RollResult, FaceError> {
        let faces: Vec<i64> = faces.into_iter().collect();
        let given = faces.len();
        let mut roller = ListRoller(ListFaces {
            faces,
            next: 0,
            problem: None,
        });
        let result = self.roll_with(&mut roller);
        match roller.0.problem {
            Some(ListProblem::RanOut { used }) => Err(FaceError::RanOut { used }),
            Some(ListProblem::BadFace { index, face, die }) => {
                Err(FaceError::NotAFace { index, face, die })
            }
            None if roller.0.next < given => Err(FaceError::LeftOver {
                used: roller.0.next,
                given,
            }),
            None => Ok(result),
        }
    }

    /// The exact distribution of the outcome.
    ///
    /// Terms that compile onto dice-core use its laws (`Sum`, `SuccessPool`, `Streak`,
    /// `VersusTarget`); rerolls, clamps, keep-then-count and failures use this crate's own
    /// (the per-die law, then a convolution power or an order-statistics dynamic program);
    /// arithmetic composes them (`Dist::add`, `difference`, `map`, and the joint law of two
    /// random operands for `*`, `/`, `min`, `max`). An explosion or streak without an explicit
    /// cap has the untruncated law, listed until the unlisted mass ([`Dist::tail`]) is at most
    /// 10⁻¹⁵, as in dice-core.
    ///
    /// # Errors
    /// [`NotationError::TooComplex`] beyond [`crate::MAX_EXACT_WORK`] steps or
    /// [`crate::MAX_LISTED`] outcomes (a product of two large random terms, say);
    /// [`NotationError::Unsupported`] for the few combinations without an exact law here
    /// (keep/drop over exploding dice that are also rerolled, unique dice with other
    /// modifiers than keep/drop). Both name the term at fault. Rolling works for these;
    /// estimate by Monte Carlo.
    ///
    /// ```
    /// use dice_notation::{Expression, Outcome};
    /// use dice_core::Versus;
    /// let d = Expression::parse("1d20 vs 11")?.distribution()?;
    /// assert!((d.probability(&Outcome::Versus(Versus::Above)) - 0.45).abs() < 1e-15);
    /// assert!(Expression::parse("1000d1000 * 1000d1000")?.distribution().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn distribution(&self) -> Result<Dist<Outcome>, NotationError> {
        match &self.plan.fraction {
            None => crate::exact::distribution(&self.plan),
            Some(f) => crate::fraction_law::distribution(&self.plan, f),
        }
    }
}

/// What is wrong with the faces given to [`Expression::roll_faces`].
///
/// ```
/// use dice_notation::{Expression, FaceError, DieKind};
/// let e = Expression::parse("2d6")?;
/// assert_eq!(e.roll_faces([3]).unwrap_err(), FaceError::RanOut { used: 1 });
/// assert_eq!(e.roll_faces([3, 4, 5]).unwrap_err(), FaceError::LeftOver { used: 2, given: 3 });
/// assert_eq!(
///     e.roll_faces([3, 7]).unwrap_err(),
///     FaceError::NotAFace { index: 1, face: 7, die: DieKind::Sides(6) }
/// );
/// # Ok::<(), dice_notation::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FaceError {
    /// More dice were rolled than faces given.
    #[error("the {used} faces given ran out before the roll was over")]
    RanOut {
        /// Faces used.
        used: usize,
    },
    /// Fewer dice were rolled than faces given.
    #[error("only {used} of the {given} faces given were rolled")]
    LeftOver {
        /// Faces used.
        used: usize,
        /// Faces given.
        given: usize,
    },
    /// A face its die does not have.
    #[error("face #{index} ({face}) is not a face of a {die}")]
    NotAFace {
        /// Its position in the list, from 0.
        index: usize,
        /// The face given.
        face: i64,
        /// The die it was given for.
        die: DieKind,
    },
}

impl fmt::Debug for Expression {
    /// `Expression("4d6kh3")`: the canonical form (the tree is [`Expression::expr`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Expression")
            .field(&self.to_string())
            .finish()
    }
}

impl fmt::Display for Expression {
    /// The canonical form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.expr)
    }
}

impl FromStr for Expression {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Expression, ParseError> {
        Expression::parse(s)
    }
}

impl TryFrom<&str> for Expression {
    type Error = ParseError;
    fn try_from(s: &str) -> Result<Expression, ParseError> {
        Expression::parse(s)
    }
}

impl TryFrom<String> for Expression {
    type Error = ParseError;
    fn try_from(s: String) -> Result<Expression, ParseError> {
        Expression::parse(&s)
    }
}

impl From<Expression> for String {
    fn from(e: Expression) -> String {
        e.to_string()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Expression {
    /// As its canonical text.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Expression {
    /// From text, parsed and checked.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Expression, D::Error> {
        let text = String::deserialize(d)?;
        Expression::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl Roll for Expression {
    /// A number, or where a `vs` comparison fell.
    type Outcome = Outcome;

    /// Rolls once: terms that compiled onto dice-core take its allocation-free paths.
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Outcome {
        match &self.plan.fraction {
            None => roll_outcome(&self.plan, rng),
            Some(f) => crate::fraction::roll_plan(&self.plan, f, &mut RngRoller(rng), false).0,
        }
    }
}

impl Exact for Expression {
    /// [`Expression::distribution`], with the error in dice-core's terms.
    fn distribution(&self) -> Result<Dist<Outcome>, dice_core::Error> {
        Expression::distribution(self).map_err(dice_core::Error::from)
    }
}

impl rand::distr::Distribution<Outcome> for Expression {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Outcome {
        Roll::roll(self, rng)
    }
}

/// Refuses a tree whose canonical form would not read back: longer than
/// [`MAX_INPUT_LEN`] (the text `d6+d6+…` is a quarter shorter than its canonical
/// `1d6+1d6+…`, and Foundry's `odd` lists the odd faces). Counts without allocating and stops
/// at the limit.
fn check_canonical_len(expr: &Expr, input: &str) -> Result<(), ParseError> {
    struct Count(usize);
    impl fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 += s.len();
            if self.0 > MAX_INPUT_LEN {
                Err(fmt::Error)
            } else {
                Ok(())
            }
        }
    }
    let mut count = Count(0);
    if fmt::write(&mut count, format_args!("{expr}")).is_err() || count.0 > MAX_INPUT_LEN {
        return Err(ParseError::new(
            ParseErrorKind::CanonicalTooLong { max: MAX_INPUT_LEN },
            crate::ast::Span::new(0, input.len()),
            input,
        ));
    }
    Ok(())
}
