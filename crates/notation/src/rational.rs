//! [`Rational`]: an exact fraction, the value of an expression that divides exactly or has
//! decimals (Roll20's `1d20/3`, rpg-dice-roller's `1d20*0.20`, Avrae d20's `1.5`).
//!
//! A numerator and a positive denominator of `i64`, always in lowest terms, so that equal
//! values are equal structs (and hash alike). Arithmetic is checked: it cross-multiplies in
//! `i128` and reduces, and gives `None` (or [`RationalError::Overflow`]) where the reduced
//! result would not fit, never a panic or a wrapped value. The expressions of this crate
//! never get there: their compiler bounds every value and denominator before rolling.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// What went wrong building or computing a [`Rational`].
///
/// ```
/// use dice_notation::{Rational, RationalError};
/// assert_eq!(Rational::new(1, 0), Err(RationalError::ZeroDenominator));
/// let two = Rational::from(2);
/// assert_eq!(two.pow(Rational::new(1, 2)?), Err(RationalError::Irrational));
/// # Ok::<(), RationalError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RationalError {
    /// A denominator (or divisor) of 0.
    #[error("a fraction cannot have a denominator of 0")]
    ZeroDenominator,
    /// The result's numerator or denominator does not fit in an `i64`.
    #[error("the fraction's numerator or denominator does not fit in 64 bits")]
    Overflow,
    /// A power whose value is irrational (`2 ** 0.5`), which no fraction is.
    #[error("the power is irrational, so no exact fraction holds it")]
    Irrational,
    /// A fractional power of a negative number (`(-8) ** (1/3)`), which is not a real
    /// number in the rollers' arithmetic (JavaScript's and Python's give NaN or a complex
    /// number).
    #[error("a fractional power of a negative number is not a real number")]
    NegativeRoot,
    /// Text that is not a fraction (`52/7`, `-3/2`, `4`) or a decimal (`9.45`, `.5`).
    #[error("`{0}` is not a fraction (as in `52/7`) or a decimal (as in `9.45`)")]
    Parse(String),
}

/// An exact fraction: `numer / denom` in lowest terms with `denom ≥ 1`.
///
/// Ordered by value, printed `52/7` (a whole number without its `/1`), parsed from that or
/// from a decimal (`"9.45"` is `189/20`); with the `serde` feature, written as that text.
///
/// ```
/// use dice_notation::Rational;
/// let r = Rational::new(104, -14)?;
/// assert_eq!((r.numer(), r.denom()), (-52, 7));
/// assert_eq!(r.to_string(), "-52/7");
/// assert_eq!("9.45".parse::<Rational>()?, Rational::new(189, 20)?);
/// assert!(Rational::new(1, 3)? < Rational::new(1, 2)?);
/// assert_eq!(Rational::new(7, 2)?.floor(), 3);
/// # Ok::<(), dice_notation::RationalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rational {
    num: i64,
    den: i64,
}

/// The greatest common divisor; in 64 bits (binary, no division) where both fit, which is
/// every value of this crate's expressions.
fn gcd(mut a: u128, mut b: u128) -> u128 {
    if let (Ok(x), Ok(y)) = (u64::try_from(a), u64::try_from(b)) {
        return u128::from(gcd64(x, y));
    }
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Stein's binary greatest common divisor.
fn gcd64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Rational {
    /// Zero.
    ///
    /// ```
    /// assert_eq!(dice_notation::Rational::ZERO.to_string(), "0");
    /// ```
    pub const ZERO: Rational = Rational { num: 0, den: 1 };

    /// One.
    ///
    /// ```
    /// assert!(dice_notation::Rational::ONE.is_integer());
    /// ```
    pub const ONE: Rational = Rational { num: 1, den: 1 };

    /// `num / den`, reduced to lowest terms with a positive denominator.
    ///
    /// # Errors
    /// [`RationalError::ZeroDenominator`] for `den == 0`; [`RationalError::Overflow`] when
    /// the reduced fraction does not fit (`i64::MIN / -1`).
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(6, 4)?, Rational::new(3, 2)?);
    /// assert_eq!(Rational::new(6, -3)?, Rational::from(-2));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn new(num: i64, den: i64) -> Result<Rational, RationalError> {
        if den == 0 {
            return Err(RationalError::ZeroDenominator);
        }
        Rational::from_wide(num.into(), den.into()).ok_or(RationalError::Overflow)
    }

    /// `num / den` from wide integers, reduced; `None` for a zero denominator or a result
    /// that does not fit.
    pub(crate) fn from_wide(num: i128, den: i128) -> Option<Rational> {
        if den == 0 {
            return None;
        }
        let negative = (num < 0) != (den < 0);
        let (n, d) = (num.unsigned_abs(), den.unsigned_abs());
        let g = gcd(n, d).max(1);
        let (n, d) = (n / g, d / g);
        let d = i64::try_from(d).ok()?;
        let n = if negative {
            i64::try_from(n)
                .ok()
                .and_then(i64::checked_neg)
                .or_else(|| {
                    // −2⁶³ itself, whose magnitude is one past i64::MAX.
                    (n == 1u128 << 63).then_some(i64::MIN)
                })?
        } else {
            i64::try_from(n).ok()?
        };
        Some(Rational { num: n, den: d })
    }

    /// The numerator (carrying the sign).
    ///
    /// ```
    /// assert_eq!(dice_notation::Rational::new(-6, 4)?.numer(), -3);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub const fn numer(self) -> i64 {
        self.num
    }

    /// The denominator, at least 1.
    ///
    /// ```
    /// assert_eq!(dice_notation::Rational::new(-6, 4)?.denom(), 2);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub const fn denom(self) -> i64 {
        self.den
    }

    /// Whether the value is a whole number (its denominator is 1).
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert!(Rational::new(8, 4)?.is_integer());
    /// assert!(!Rational::new(8, 3)?.is_integer());
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub const fn is_integer(self) -> bool {
        self.den == 1
    }

    /// The whole number, if the value is one.
    ///
    /// ```
    /// assert_eq!(dice_notation::Rational::new(8, 4)?.to_integer(), Some(2));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub const fn to_integer(self) -> Option<i64> {
        if self.den == 1 { Some(self.num) } else { None }
    }

    /// The nearest `f64`.
    ///
    /// ```
    /// assert_eq!(dice_notation::Rational::new(1, 4)?.to_f64(), 0.25);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `self + other`, or `None` when the result does not fit.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// let sum = Rational::new(1, 6)?.checked_add(Rational::new(1, 3)?);
    /// assert_eq!(sum, Some(Rational::new(1, 2)?));
    /// assert_eq!(Rational::from(i64::MAX).checked_add(Rational::ONE), None);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_add(self, other: Rational) -> Option<Rational> {
        let (a, b) = (i128::from(self.num), i128::from(self.den));
        let (c, d) = (i128::from(other.num), i128::from(other.den));
        // Each product is below 2¹²⁶ in size; the sum below 2¹²⁷.
        Rational::from_wide(a * d + c * b, b * d)
    }

    /// `self − other`, or `None` when the result does not fit.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(1, 2)?.checked_sub(Rational::ONE), Some(Rational::new(-1, 2)?));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_sub(self, other: Rational) -> Option<Rational> {
        let (a, b) = (i128::from(self.num), i128::from(self.den));
        let (c, d) = (i128::from(other.num), i128::from(other.den));
        Rational::from_wide(a * d - c * b, b * d)
    }

    /// `self × other`, or `None` when the result does not fit.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(2, 3)?.checked_mul(Rational::new(9, 4)?), Some(Rational::new(3, 2)?));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_mul(self, other: Rational) -> Option<Rational> {
        let (a, b) = (i128::from(self.num), i128::from(self.den));
        let (c, d) = (i128::from(other.num), i128::from(other.den));
        Rational::from_wide(a * c, b * d)
    }

    /// `self ÷ other`, or `None` for a divisor of 0 or a result that does not fit.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::from(20).checked_div(Rational::new(301, 50)?), Some(Rational::new(1000, 301)?));
    /// assert_eq!(Rational::ONE.checked_div(Rational::ZERO), None);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_div(self, other: Rational) -> Option<Rational> {
        let (a, b) = (i128::from(self.num), i128::from(self.den));
        let (c, d) = (i128::from(other.num), i128::from(other.den));
        Rational::from_wide(a * d, b * c)
    }

    /// `−self`, or `None` for a numerator of `i64::MIN`.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(3, 2)?.checked_neg(), Some(Rational::new(-3, 2)?));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_neg(self) -> Option<Rational> {
        Some(Rational {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    /// `|self|`, or `None` for a numerator of `i64::MIN`.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(-3, 2)?.checked_abs(), Some(Rational::new(3, 2)?));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_abs(self) -> Option<Rational> {
        Some(Rational {
            num: self.num.checked_abs()?,
            den: self.den,
        })
    }

    /// −1, 0 or 1.
    ///
    /// ```
    /// assert_eq!(dice_notation::Rational::new(-1, 9)?.signum(), -1);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub const fn signum(self) -> i64 {
        self.num.signum()
    }

    /// The greatest whole number not above the value (`7/2` → 3, `−7/2` → −4).
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(-7, 2)?.floor(), -4);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub const fn floor(self) -> i64 {
        self.num.div_euclid(self.den)
    }

    /// The least whole number not below the value (`7/2` → 4, `−7/2` → −3).
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(-7, 2)?.ceil(), -3);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub const fn ceil(self) -> i64 {
        let f = self.floor();
        if self.den == 1 { f } else { f + 1 }
    }

    /// The whole part, rounding toward 0 (`−7/2` → −3): Python's `int()`, as Avrae d20's
    /// total.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(-7, 2)?.trunc(), -3);
    /// assert_eq!(Rational::new(3, 2)?.trunc(), 1);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub const fn trunc(self) -> i64 {
        if self.num < 0 {
            self.ceil()
        } else {
            self.floor()
        }
    }

    /// The nearest whole number, halves up (`5/2` → 3, `−5/2` → −2): JavaScript's
    /// `Math.round`, as Roll20 and Foundry VTT round.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(5, 2)?.round_half_up(), 3);
    /// assert_eq!(Rational::new(-5, 2)?.round_half_up(), -2);
    /// assert_eq!(Rational::new(-8, 5)?.round_half_up(), -2);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn round_half_up(self) -> i64 {
        // floor(n/d + 1/2) = floor((2n + d) / 2d), in i128.
        let (n, d) = (i128::from(self.num), i128::from(self.den));
        (2 * n + d).div_euclid(2 * d) as i64
    }

    /// The nearest whole number, halves away from zero (`5/2` → 3, `−5/2` → −3): mathjs's
    /// `round`, as rpg-dice-roller rounds.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(-3, 2)?.round_half_away(), -2);
    /// assert_eq!(Rational::new(-7, 5)?.round_half_away(), -1);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn round_half_away(self) -> i64 {
        let (n, d) = (i128::from(self.num), i128::from(self.den));
        let away = (2 * n.abs() + d).div_euclid(2 * d);
        (away * n.signum()) as i64
    }

    /// The remainder of the division rounding toward −∞, `self − other·⌊self/other⌋`: the
    /// divisor's sign (Python's `%`, Avrae d20's). `None` for a divisor of 0 or a result that
    /// does not fit.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// let r = Rational::new(-11, 2)?.checked_rem_floor(Rational::from(2));
    /// assert_eq!(r, Some(Rational::new(1, 2)?));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_rem_floor(self, other: Rational) -> Option<Rational> {
        let q = Rational::from(self.checked_div(other)?.floor());
        self.checked_sub(other.checked_mul(q)?)
    }

    /// The remainder of the division rounding toward 0, `self − other·trunc(self/other)`:
    /// the dividend's sign (JavaScript's `%`, as Roll20, Foundry VTT and rpg-dice-roller
    /// compute it). `None` for a divisor of 0 or a result that does not fit.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// let r = Rational::new(-11, 2)?.checked_rem_trunc(Rational::from(2));
    /// assert_eq!(r, Some(Rational::new(-3, 2)?));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_rem_trunc(self, other: Rational) -> Option<Rational> {
        let q = Rational::from(self.checked_div(other)?.trunc());
        self.checked_sub(other.checked_mul(q)?)
    }

    /// `self` to a whole, non-negative power, or `None` when the result does not fit.
    ///
    /// ```
    /// use dice_notation::Rational;
    /// assert_eq!(Rational::new(-3, 2)?.checked_powi(3), Some(Rational::new(-27, 8)?));
    /// assert_eq!(Rational::new(1, 2)?.checked_powi(0), Some(Rational::ONE));
    /// assert_eq!(Rational::from(10).checked_powi(19), None);
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn checked_powi(self, exp: u32) -> Option<Rational> {
        // In lowest terms, so are the powers: no reduction needed.
        Some(Rational {
            num: self.num.checked_pow(exp)?,
            den: self.den.checked_pow(exp)?,
        })
    }

    /// `self` to the power `exp`, exactly: a whole exponent as [`Rational::checked_powi`]
    /// (negative: of the reciprocal), a fractional one `p/q` only where the `q`-th root is
    /// rational (`9 ** 0.5` = 3, `(8/27) ** (2/3)` = 4/9).
    ///
    /// # Errors
    /// [`RationalError::Irrational`] where the root is not a fraction (`2 ** 0.5`),
    /// [`RationalError::NegativeRoot`] for a fractional power of a negative number,
    /// [`RationalError::ZeroDenominator`] for a negative power of 0, and
    /// [`RationalError::Overflow`] when the result does not fit.
    ///
    /// ```
    /// use dice_notation::{Rational, RationalError};
    /// let half = Rational::new(1, 2)?;
    /// assert_eq!(Rational::from(9).pow(half), Ok(Rational::from(3)));
    /// assert_eq!(Rational::from(2).pow(Rational::from(-2)), Ok(Rational::new(1, 4)?));
    /// assert_eq!(Rational::from(-9).pow(half), Err(RationalError::NegativeRoot));
    /// # Ok::<(), RationalError>(())
    /// ```
    pub fn pow(self, exp: Rational) -> Result<Rational, RationalError> {
        let base = if exp.num < 0 {
            if self.num == 0 {
                return Err(RationalError::ZeroDenominator);
            }
            Rational::ONE
                .checked_div(self)
                .ok_or(RationalError::Overflow)?
        } else {
            self
        };
        let p = u32::try_from(exp.num.unsigned_abs()).map_err(|_| RationalError::Overflow)?;
        let root = if exp.den == 1 {
            base
        } else {
            if base.num < 0 {
                return Err(RationalError::NegativeRoot);
            }
            let q = u32::try_from(exp.den).map_err(|_| RationalError::Overflow)?;
            let n = exact_root(base.num.unsigned_abs(), q).ok_or(RationalError::Irrational)?;
            let d = exact_root(base.den.unsigned_abs(), q).ok_or(RationalError::Irrational)?;
            // Roots of a fraction in lowest terms are in lowest terms.
            Rational {
                num: n as i64,
                den: d as i64,
            }
        };
        root.checked_powi(p).ok_or(RationalError::Overflow)
    }
}

/// The whole `q`-th root of `n`, if it has one.
fn exact_root(n: u64, q: u32) -> Option<u64> {
    if n <= 1 || q == 1 {
        return Some(n);
    }
    // The float estimate is within one of the root for any u64; check its neighbours.
    let guess = (n as f64).powf(1.0 / f64::from(q)).round() as u64;
    (guess.saturating_sub(1)..=guess.saturating_add(1)).find(|&r| r.checked_pow(q) == Some(n))
}

impl From<i64> for Rational {
    /// The whole number `n` (denominator 1).
    fn from(n: i64) -> Rational {
        Rational { num: n, den: 1 }
    }
}

impl Ord for Rational {
    /// By value (cross-multiplied in `i128`, which cannot overflow).
    fn cmp(&self, other: &Rational) -> Ordering {
        let left = i128::from(self.num) * i128::from(other.den);
        let right = i128::from(other.num) * i128::from(self.den);
        left.cmp(&right)
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Rational) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Rational {
    /// `52/7`, `-3/2`; a whole number without its denominator (`4`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl FromStr for Rational {
    type Err = RationalError;

    /// A fraction `n/d` (`52/7`, `-3/2`), a whole number (`4`), or a decimal (`9.45`,
    /// `-.5`), read exactly.
    fn from_str(s: &str) -> Result<Rational, RationalError> {
        let bad = || RationalError::Parse(s.to_owned());
        let t = s.trim();
        if let Some((n, d)) = t.split_once('/') {
            let n: i64 = n.trim().parse().map_err(|_| bad())?;
            let d: i64 = d.trim().parse().map_err(|_| bad())?;
            return Rational::new(n, d);
        }
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let is_digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && frac.is_empty()) || !is_digits(whole) || !is_digits(frac) {
            return Err(bad());
        }
        let mut num: i128 = 0;
        let mut den: i128 = 1;
        for b in whole.bytes().chain(frac.bytes()) {
            num = num
                .checked_mul(10)
                .and_then(|v| v.checked_add(i128::from(b - b'0')))
                .ok_or(RationalError::Overflow)?;
        }
        for _ in 0..frac.len() {
            den = den.checked_mul(10).ok_or(RationalError::Overflow)?;
        }
        if negative {
            num = -num;
        }
        Rational::from_wide(num, den).ok_or(RationalError::Overflow)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Rational {
    /// As its text, `"52/7"`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Rational {
    /// From its text (`"52/7"`, `"9.45"`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rational, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d).unwrap()
    }

    #[test]
    fn construction_reduces_and_keeps_the_denominator_positive() {
        assert_eq!(r(10, -4), Rational { num: -5, den: 2 });
        assert_eq!(r(0, -7), Rational::ZERO);
        assert_eq!(r(i64::MIN, 1).numer(), i64::MIN);
        assert_eq!(Rational::new(i64::MIN, -1), Err(RationalError::Overflow));
        assert_eq!(r(i64::MIN, i64::MIN), Rational::ONE);
        assert_eq!(Rational::new(3, 0), Err(RationalError::ZeroDenominator));
    }

    #[test]
    fn arithmetic_matches_a_brute_force_over_small_fractions() {
        // Every pair of fractions n/d with |n| ≤ 6, 1 ≤ d ≤ 6, against the textbook
        // formulas in i128 compared by cross-multiplication.
        let mut all = Vec::new();
        for n in -6..=6 {
            for d in 1..=6 {
                all.push((n, d));
            }
        }
        let same = |x: Rational, n: i128, d: i128| i128::from(x.num) * d == n * i128::from(x.den);
        for &(a, b) in &all {
            for &(c, d) in &all {
                let (x, y) = (r(a, b), r(c, d));
                let (a, b, c, d) = (a as i128, b as i128, c as i128, d as i128);
                assert!(same(x.checked_add(y).unwrap(), a * d + c * b, b * d));
                assert!(same(x.checked_sub(y).unwrap(), a * d - c * b, b * d));
                assert!(same(x.checked_mul(y).unwrap(), a * c, b * d));
                assert_eq!(x.cmp(&y), (a * d).cmp(&(c * b)));
                if c != 0 {
                    assert!(same(x.checked_div(y).unwrap(), a * d, b * c));
                    // floor(x/y) and the remainders, from their definitions.
                    let q = x.checked_div(y).unwrap();
                    let fl = q.floor();
                    assert!(Rational::from(fl) <= q && q < Rational::from(fl + 1));
                    let m = x.checked_rem_floor(y).unwrap();
                    assert!(same(m, (a * d) - (c * b) * i128::from(fl), b * d));
                    let t = x.checked_rem_trunc(y).unwrap();
                    assert!(t == Rational::ZERO || t.signum() == x.signum());
                    assert!(t.checked_abs().unwrap() < y.checked_abs().unwrap());
                } else {
                    assert_eq!(x.checked_div(y), None);
                }
            }
        }
    }

    #[test]
    fn roundings_follow_their_definitions() {
        for n in -40..=40 {
            for d in 1..=8 {
                let x = r(n, d);
                let v = n as f64 / d as f64;
                assert_eq!(x.floor() as f64, v.floor(), "{x}");
                assert_eq!(x.ceil() as f64, v.ceil(), "{x}");
                assert_eq!(x.trunc() as f64, v.trunc(), "{x}");
                // JavaScript's Math.round: floor(v + 1/2); f64 is exact for these.
                assert_eq!(x.round_half_up() as f64, (v + 0.5).floor(), "{x}");
                // Rust's f64::round rounds halves away from zero, as mathjs does.
                assert_eq!(x.round_half_away() as f64, v.round(), "{x}");
            }
        }
    }

    #[test]
    fn overflow_is_none_not_a_panic() {
        let big = Rational::from(i64::MAX);
        assert_eq!(big.checked_add(big), None);
        assert_eq!(big.checked_mul(big), None);
        assert_eq!(Rational::from(i64::MIN).checked_neg(), None);
        assert_eq!(Rational::from(i64::MIN).checked_abs(), None);
        let tiny = r(1, i64::MAX);
        assert_eq!(tiny.checked_mul(r(1, 2)), None);
        assert_eq!(tiny.checked_add(r(1, i64::MAX - 1)), None);
        assert_eq!(Rational::from(3).checked_powi(40), None);
        assert_eq!(
            Rational::from(3).pow(Rational::from(40)),
            Err(RationalError::Overflow)
        );
        // The extreme cross products stay within i128.
        assert_eq!(
            r(i64::MIN, i64::MAX).cmp(&r(i64::MAX, i64::MAX - 1)),
            Ordering::Less
        );
    }

    #[test]
    fn the_binary_gcd_is_euclid_s() {
        let euclid = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        for a in 0..60u64 {
            for b in 0..60u64 {
                assert_eq!(gcd64(a, b), euclid(a, b), "{a} {b}");
            }
        }
        let big = [
            u64::MAX,
            1 << 63,
            6_000_000_000_000_000_000,
            999_999_937 * 999_999_929,
        ];
        for &a in &big {
            for &b in &big {
                assert_eq!(gcd64(a, b), euclid(a, b), "{a} {b}");
            }
        }
    }

    #[test]
    fn powers_are_exact_or_refused() {
        assert_eq!(Rational::from(9).pow(r(1, 2)), Ok(Rational::from(3)));
        assert_eq!(r(8, 27).pow(r(2, 3)), Ok(r(4, 9)));
        assert_eq!(r(16, 81).pow(r(-3, 4)), Ok(r(27, 8)));
        assert_eq!(
            Rational::from(2).pow(r(1, 2)),
            Err(RationalError::Irrational)
        );
        assert_eq!(
            Rational::from(-8).pow(r(1, 3)),
            Err(RationalError::NegativeRoot)
        );
        assert_eq!(
            Rational::ZERO.pow(r(-1, 1)),
            Err(RationalError::ZeroDenominator)
        );
        assert_eq!(Rational::ZERO.pow(r(1, 2)), Ok(Rational::ZERO));
        // Perfect powers near the top of u64 (the float estimate is checked around).
        let p = 4_294_967_291u64; // the largest prime below 2³²
        assert_eq!(exact_root(p * p, 2), Some(p));
        assert_eq!(exact_root(p * p - 1, 2), None);
        assert_eq!(exact_root(u64::MAX, 3), None);
        assert_eq!(exact_root(2_097_151u64.pow(3), 3), Some(2_097_151));
    }

    #[test]
    fn text_round_trips() {
        for x in [
            r(52, 7),
            r(-3, 2),
            Rational::from(4),
            Rational::ZERO,
            r(1, i64::MAX),
        ] {
            assert_eq!(x.to_string().parse::<Rational>(), Ok(x));
        }
        assert_eq!("9.45".parse::<Rational>(), Ok(r(189, 20)));
        assert_eq!("-.5".parse::<Rational>(), Ok(r(-1, 2)));
        assert_eq!("3.".parse::<Rational>(), Ok(Rational::from(3)));
        assert_eq!(" 6 / -4 ".parse::<Rational>(), Ok(r(-3, 2)));
        for bad in ["", ".", "1/0", "a", "1.2.3", "--1", "1e3"] {
            assert!(bad.parse::<Rational>().is_err(), "{bad}");
        }
    }
}
