//! [`Outcome`]: what one roll of an expression yields.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use dice_core::Versus;

use crate::rational::Rational;

/// What one roll of an expression yields: a number, a fraction (in the dialects that divide
/// exactly or have decimals: `4d6/7`, `1d20*0.2`), or for a `vs` comparison where the total
/// fell against the target.
///
/// A whole value is always [`Outcome::Number`], so an expression without exact division
/// never yields a fraction; [`Outcome::from_rational`] makes that choice.
///
/// Ordered by value across numbers and fractions (`Number(2) < Fraction(5/2) <
/// Number(3)`), with the comparisons after every value (`Below < Equal < Above`); equal and
/// hashed by value as well, so `Fraction(4/2)` (built by hand) equals `Number(2)`.
/// Printable: a fraction as `52/7 (≈7.43)` (the decimal rounded to two places, `≈` when
/// that is not exact: `189/20 (9.45)`). With serde (feature `serde`) a plain JSON number,
/// a fraction's text (`"52/7"`), or `"below"` / `"equal"` / `"above"`. As a
/// [`dice_core::Numeric`], a fraction is its value (rounded toward −∞ by `to_i64`) and a
/// comparison counts −1, 0, +1, so the mean of its distribution is P(above) − P(below).
///
/// ```
/// use dice_notation::{Outcome, Rational};
/// use dice_core::Versus;
/// assert_eq!(Outcome::Number(7).to_string(), "7");
/// assert_eq!(Outcome::Versus(Versus::Above).to_string(), "above");
/// let f = Outcome::from_rational(Rational::new(52, 7)?);
/// assert_eq!(f.to_string(), "52/7 (≈7.43)");
/// assert!(Outcome::Number(7) < f && f < Outcome::Number(8));
/// assert_eq!(Outcome::from_rational(Rational::new(6, 3)?), Outcome::Number(2));
/// assert_eq!(Outcome::Number(-2).as_number(), Some(-2));
/// assert_eq!(f.as_number(), None);
/// assert_eq!(Outcome::Versus(Versus::Equal).as_number(), None);
/// # Ok::<(), dice_notation::RationalError>(())
/// ```
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum Outcome {
    /// The value of an arithmetic expression, when it is a whole number.
    Number(i64),
    /// Where the total of a `vs` comparison fell against its target.
    Versus(Versus),
    /// The value of an arithmetic expression, when it is not a whole number.
    Fraction(Rational),
}

/// What equality, order and hashing look at: the value, or the comparison.
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Key {
    Value(Rational),
    Versus(Versus),
}

impl Outcome {
    /// A value as an outcome: [`Outcome::Number`] when it is whole, else
    /// [`Outcome::Fraction`].
    ///
    /// ```
    /// use dice_notation::{Outcome, Rational};
    /// assert_eq!(Outcome::from_rational(Rational::from(3)), Outcome::Number(3));
    /// assert!(matches!(Outcome::from_rational(Rational::new(1, 2)?), Outcome::Fraction(_)));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn from_rational(value: Rational) -> Outcome {
        match value.to_integer() {
            Some(n) => Outcome::Number(n),
            None => Outcome::Fraction(value),
        }
    }

    /// The number, unless the outcome is a comparison or a fraction that is not whole.
    ///
    /// ```
    /// assert_eq!(dice_notation::Outcome::Number(5).as_number(), Some(5));
    /// ```
    pub fn as_number(self) -> Option<i64> {
        match self {
            Outcome::Number(n) => Some(n),
            Outcome::Fraction(r) => r.to_integer(),
            Outcome::Versus(_) => None,
        }
    }

    /// The value, whole or not, unless the outcome is a comparison.
    ///
    /// ```
    /// use dice_notation::{Outcome, Rational};
    /// assert_eq!(Outcome::Number(5).as_rational(), Some(Rational::from(5)));
    /// # Ok::<(), dice_notation::RationalError>(())
    /// ```
    pub fn as_rational(self) -> Option<Rational> {
        match self {
            Outcome::Number(n) => Some(Rational::from(n)),
            Outcome::Fraction(r) => Some(r),
            Outcome::Versus(_) => None,
        }
    }

    /// The comparison, unless the outcome is a value.
    ///
    /// ```
    /// use dice_notation::Outcome;
    /// assert_eq!(Outcome::Number(3).as_versus(), None);
    /// ```
    pub fn as_versus(self) -> Option<Versus> {
        match self {
            Outcome::Versus(v) => Some(v),
            Outcome::Number(_) | Outcome::Fraction(_) => None,
        }
    }

    fn key(&self) -> Key {
        match *self {
            Outcome::Number(n) => Key::Value(Rational::from(n)),
            Outcome::Fraction(r) => Key::Value(r),
            Outcome::Versus(v) => Key::Versus(v),
        }
    }
}

impl PartialEq for Outcome {
    fn eq(&self, other: &Outcome) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Outcome {}

impl Hash for Outcome {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Ord for Outcome {
    /// Values by value (numbers and fractions together), then the comparisons.
    fn cmp(&self, other: &Outcome) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Outcome {
    fn partial_cmp(&self, other: &Outcome) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Number(n) => write!(f, "{n}"),
            Outcome::Versus(v) => write!(f, "{v}"),
            Outcome::Fraction(r) if r.is_integer() => write!(f, "{r}"),
            Outcome::Fraction(r) => write!(f, "{r} ({})", approximately(*r)),
        }
    }
}

/// A fraction as a decimal to two places: exact where it has at most two (`9.45`, `1.6`),
/// else rounded (halves away from zero) after `≈` (`≈7.43`).
fn approximately(r: Rational) -> String {
    let (n, d) = (i128::from(r.numer()), i128::from(r.denom()));
    let hundredths = n * 100;
    let exact = hundredths % d == 0;
    let h = if exact {
        hundredths / d
    } else {
        // Halves away from zero, in whole hundredths.
        (2 * hundredths.abs() + d) / (2 * d) * hundredths.signum()
    };
    let sign = if h < 0 { "-" } else { "" };
    let (whole, cents) = (h.abs() / 100, h.abs() % 100);
    let mut text = if cents == 0 {
        format!("{sign}{whole}")
    } else if cents % 10 == 0 {
        format!("{sign}{whole}.{}", cents / 10)
    } else {
        format!("{sign}{whole}.{cents:02}")
    };
    if !exact {
        text.insert(0, '≈');
    }
    text
}

impl dice_core::Numeric for Outcome {
    /// The value (a fraction's nearest `f64`); a comparison as −1 (below), 0 (equal), +1
    /// (above).
    fn to_f64(self) -> f64 {
        match self {
            Outcome::Fraction(r) => r.to_f64(),
            _ => self.to_i64() as f64,
        }
    }

    /// The value, a fraction rounded toward −∞; a comparison as −1, 0, +1.
    fn to_i64(self) -> i64 {
        match self {
            Outcome::Number(n) => n,
            Outcome::Fraction(r) => r.floor(),
            Outcome::Versus(Versus::Below) => -1,
            Outcome::Versus(Versus::Equal) => 0,
            Outcome::Versus(Versus::Above) => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn frac(n: i64, d: i64) -> Outcome {
        Outcome::Fraction(Rational::new(n, d).unwrap())
    }

    #[test]
    fn order_is_numeric_across_numbers_and_fractions() {
        let mut v = vec![
            Outcome::Versus(Versus::Above),
            Outcome::Number(3),
            frac(5, 2),
            Outcome::Versus(Versus::Below),
            Outcome::Number(-1),
            frac(-3, 2),
            frac(7, 2),
            Outcome::Number(2),
        ];
        v.sort();
        assert_eq!(
            v,
            [
                frac(-3, 2),
                Outcome::Number(-1),
                Outcome::Number(2),
                frac(5, 2),
                Outcome::Number(3),
                frac(7, 2),
                Outcome::Versus(Versus::Below),
                Outcome::Versus(Versus::Above),
            ]
        );
        // Every pair: the order is the order of the values, and agrees with equality.
        for a in &v {
            for b in &v {
                if let (Some(x), Some(y)) = (a.as_rational(), b.as_rational()) {
                    assert_eq!(a.cmp(b), x.cmp(&y), "{a} {b}");
                }
                assert_eq!(a == b, a.cmp(b) == Ordering::Equal);
            }
        }
    }

    #[test]
    fn a_whole_fraction_equals_its_number_and_hashes_alike() {
        let two = frac(4, 2);
        assert_eq!(two, Outcome::Number(2));
        let set: HashSet<Outcome> = [two, Outcome::Number(2), frac(1, 2)].into_iter().collect();
        assert_eq!(set.len(), 2);
        assert_eq!(two.to_string(), "2");
        assert_eq!(two.as_number(), Some(2));
    }

    #[test]
    fn display_shows_the_fraction_and_a_decimal() {
        assert_eq!(frac(52, 7).to_string(), "52/7 (≈7.43)");
        assert_eq!(frac(189, 20).to_string(), "189/20 (9.45)");
        assert_eq!(frac(8, 5).to_string(), "8/5 (1.6)");
        assert_eq!(frac(-1, 3).to_string(), "-1/3 (≈-0.33)");
        assert_eq!(frac(1, 1000).to_string(), "1/1000 (≈0)");
        assert_eq!(frac(-5, 8).to_string(), "-5/8 (≈-0.63)");
        assert_eq!(frac(400, 301).to_string(), "400/301 (≈1.33)");
    }

    #[test]
    fn numeric_reads_the_value() {
        use dice_core::Numeric;
        assert_eq!(frac(-7, 2).to_i64(), -4);
        assert_eq!(frac(-7, 2).to_f64(), -3.5);
        assert_eq!(Outcome::Versus(Versus::Below).to_f64(), -1.0);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trips_every_kind() {
        for o in [
            Outcome::Number(-4),
            frac(52, 7),
            frac(-1, 2),
            Outcome::Versus(Versus::Equal),
        ] {
            let json = serde_json::to_string(&o).unwrap();
            let back: Outcome = serde_json::from_str(&json).unwrap();
            assert_eq!(back, o, "{json}");
            assert_eq!(std::mem::discriminant(&back), std::mem::discriminant(&o));
        }
        assert_eq!(serde_json::to_string(&frac(52, 7)).unwrap(), "\"52/7\"");
        assert_eq!(serde_json::to_string(&Outcome::Number(3)).unwrap(), "3");
    }
}
