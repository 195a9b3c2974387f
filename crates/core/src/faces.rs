//! Sets of faces and comparisons of a die against a threshold.

use core::fmt;

use crate::error::Error;

/// The largest face a [`FaceSet`] can hold.
pub const MAX_SET_FACE: u32 = 128;

/// A set of die faces in `1..=128`, such as `{4, 5, 6}` for a Shapers and Bots fluke.
///
/// A `FaceSet` is a 128-bit mask: `Copy`, and a membership test is one shift.
///
/// ```
/// use dice_core::FaceSet;
/// let high = FaceSet::new([4, 5, 6])?;
/// assert!(high.contains(5));
/// assert!(!high.contains(3));
/// assert_eq!(high.len(), 3);
/// assert_eq!(high.to_string(), "{4,5,6}");
/// assert_eq!(FaceSet::range(4, 6)?, high);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FaceSet {
    /// Bit `f - 1` is set when face `f` is in the set.
    bits: u128,
}

impl FaceSet {
    /// The empty set.
    pub const EMPTY: FaceSet = FaceSet { bits: 0 };

    /// The set of the given faces.
    ///
    /// # Errors
    /// [`Error::Face`] for a face outside `1..=MAX_SET_FACE`.
    pub fn new<I: IntoIterator<Item = u32>>(faces: I) -> Result<Self, Error> {
        let mut bits = 0u128;
        for f in faces {
            if f == 0 || f > MAX_SET_FACE {
                return Err(Error::Face {
                    face: i64::from(f),
                    max: MAX_SET_FACE,
                });
            }
            bits |= 1u128 << (f - 1);
        }
        Ok(FaceSet { bits })
    }

    /// The faces `lo..=hi` (empty when `lo > hi`).
    ///
    /// # Errors
    /// [`Error::Face`] when a bound is outside `1..=MAX_SET_FACE`.
    ///
    /// ```
    /// let s = dice_core::FaceSet::range(5, 6)?;
    /// assert_eq!(s.iter().collect::<Vec<_>>(), vec![5, 6]);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn range(lo: u32, hi: u32) -> Result<Self, Error> {
        for f in [lo, hi] {
            if f == 0 || f > MAX_SET_FACE {
                return Err(Error::Face {
                    face: i64::from(f),
                    max: MAX_SET_FACE,
                });
            }
        }
        Ok(FaceSet::new(lo..=hi).unwrap_or(FaceSet::EMPTY))
    }

    /// Whether `face` is in the set (false for any face outside `1..=MAX_SET_FACE`).
    #[inline(always)]
    pub const fn contains(self, face: u32) -> bool {
        face >= 1 && face <= MAX_SET_FACE && (self.bits >> (face - 1)) & 1 == 1
    }

    /// How many faces the set holds.
    pub const fn len(self) -> u32 {
        self.bits.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// How many of the faces `1..=sides` are in the set.
    ///
    /// ```
    /// let s = dice_core::FaceSet::new([5, 6, 9])?;
    /// assert_eq!(s.count_within(6), 2);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub const fn count_within(self, sides: u32) -> u32 {
        if sides >= MAX_SET_FACE {
            self.len()
        } else {
            (self.bits & ((1u128 << sides) - 1)).count_ones()
        }
    }

    /// The faces in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u32> {
        (1..=MAX_SET_FACE).filter(move |&f| self.contains(f))
    }

    /// The raw mask: bit `f - 1` for face `f`.
    pub(crate) const fn bits(self) -> u128 {
        self.bits
    }
}

impl fmt::Debug for FaceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for FaceSet {
    /// Formats as `{4,5,6}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, face) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{face}")?;
        }
        f.write_str("}")
    }
}

/// A test a single die's value passes or fails: `≥ t`, `≤ t`, `> t`, `< t`, `= t`, or
/// membership in a set of faces.
///
/// Thresholds are plain integers, so a test may be impossible (`≥ 7` on a d6) or certain
/// (`≤ 10` on a d10); both are legal and behave as written.
///
/// ```
/// use dice_core::Comparison;
/// assert!(Comparison::AtLeast(4).test(4));
/// assert!(!Comparison::Above(4).test(4));
/// assert!(Comparison::AtMost(5).test(1));
/// assert_eq!(Comparison::AtMost(5).to_string(), "<=5");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Comparison {
    /// Value ≥ t (Swimclass successes: a die meets the difficulty).
    AtLeast(i32),
    /// Value ≤ t (Robots & Rapiers successes: a die at or under the attribute).
    AtMost(i32),
    /// Value > t.
    Above(i32),
    /// Value < t.
    Below(i32),
    /// Value = t (natural ones, criticals).
    Exactly(i32),
    /// Value is one of the faces.
    OneOf(FaceSet),
}

impl Comparison {
    /// Whether `value` passes the test.
    #[inline]
    pub fn test(self, value: i64) -> bool {
        match self {
            Comparison::AtLeast(t) => value >= i64::from(t),
            Comparison::AtMost(t) => value <= i64::from(t),
            Comparison::Above(t) => value > i64::from(t),
            Comparison::Below(t) => value < i64::from(t),
            Comparison::Exactly(t) => value == i64::from(t),
            Comparison::OneOf(set) => u32::try_from(value).is_ok_and(|f| set.contains(f)),
        }
    }

    /// How many of the faces `1..=sides` pass.
    ///
    /// ```
    /// use dice_core::Comparison;
    /// assert_eq!(Comparison::AtLeast(5).faces_passing(6), 2);
    /// assert_eq!(Comparison::AtMost(0).faces_passing(10), 0);
    /// ```
    pub fn faces_passing(self, sides: u32) -> u32 {
        self.face_test(sides).count()
    }

    /// The test as seen on the 0-based digits of an `n`-sided die.
    pub(crate) fn face_test(self, sides: u32) -> FaceTest {
        let n = i64::from(sides);
        // Inclusive face range lo..=hi, clamped to 1..=n.
        let range = |lo: i64, hi: i64| {
            let lo = lo.max(1);
            let hi = hi.min(n);
            if lo > hi {
                FaceTest::Range { lo: 0, width: 0 }
            } else {
                FaceTest::Range {
                    lo: (lo - 1) as u64,
                    width: (hi - lo + 1) as u64,
                }
            }
        };
        match self {
            Comparison::AtLeast(t) => range(i64::from(t), n),
            Comparison::AtMost(t) => range(1, i64::from(t)),
            Comparison::Above(t) => range(i64::from(t) + 1, n),
            Comparison::Below(t) => range(1, i64::from(t) - 1),
            Comparison::Exactly(t) => range(i64::from(t), i64::from(t)),
            Comparison::OneOf(set) => {
                let mask = if sides >= MAX_SET_FACE {
                    set.bits()
                } else {
                    set.bits() & ((1u128 << sides) - 1)
                };
                FaceTest::Set(mask)
            }
        }
    }
}

impl fmt::Display for Comparison {
    /// Formats as `>=4`, `<=7`, `>3`, `<2`, `=1` or `in{4,5,6}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Comparison::AtLeast(t) => write!(f, ">={t}"),
            Comparison::AtMost(t) => write!(f, "<={t}"),
            Comparison::Above(t) => write!(f, ">{t}"),
            Comparison::Below(t) => write!(f, "<{t}"),
            Comparison::Exactly(t) => write!(f, "={t}"),
            Comparison::OneOf(s) => write!(f, "in{s}"),
        }
    }
}

/// A [`Comparison`] on the natural face, precomputed for one die size: either a contiguous run
/// of 0-based digits or a mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FaceTest {
    /// Digits `lo..lo + width`.
    Range { lo: u64, width: u64 },
    /// Bit `d` set for digit `d`.
    Set(u128),
}

impl FaceTest {
    /// Whether 0-based digit `d` passes.
    #[inline(always)]
    pub(crate) fn digit(self, d: u64) -> bool {
        match self {
            FaceTest::Range { lo, width } => d.wrapping_sub(lo) < width,
            FaceTest::Set(mask) => d < 128 && (mask >> d) & 1 == 1,
        }
    }

    /// Number of digits that pass.
    pub(crate) fn count(self) -> u32 {
        match self {
            FaceTest::Range { width, .. } => width as u32,
            FaceTest::Set(mask) => mask.count_ones(),
        }
    }
}
