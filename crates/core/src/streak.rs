//! Streaks: roll a die; while its face is in a set, score one and roll again.

use core::fmt;

use rand::Rng;

use crate::die::{Batch, FaceStream};
use crate::error::Error;
use crate::faces::FaceSet;
use crate::pool::{MAX_EXPLOSION_CAP, check_modifier, uncapped_roll_cap};
use crate::record::{DieRoll, RollRecord, Source};
use crate::{Die, Roll, RollDetailed};

/// A streak: "roll a die; while its face is in the set, score 1 and roll again", plus a base.
///
/// This is the Shapers and Bots fluke (base 0, continue on {4, 5, 6}) and its damage streaks
/// (a small weapon against an unarmored target: base 1, continue on {5, 6}). The score is
/// `base + length`, where the length is the number of consecutive faces in the set before the
/// first face outside it. Every streak has a cap (without an explicit one, the
/// [`uncapped_roll_cap`] of its set, where the chance of going on is below
/// [`crate::UNCAPPED_CUT_MASS`]), so nothing loops forever; a roll that reaches the cap says
/// so in [`StreakRoll::capped`].
///
/// ```
/// use dice_core::{Die, FaceSet, Roll, Streak};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let fluke = Streak::new(Die::D6, FaceSet::range(4, 6)?, 0)?;
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
/// let roll = fluke.roll_streak(&mut rng);
/// assert_eq!(roll.score, i64::from(roll.length));
/// assert!(!roll.capped);
/// // The same dice as a pure function: 5, 5, 6, 4, 6, 3 scores 5 (SB-E5).
/// assert_eq!(fluke.score_faces([5, 5, 6, 4, 6, 3]), (5, 6));
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Streak {
    die: Die,
    continue_on: FaceSet,
    base: i64,
    cap: u32,
    explicit_cap: bool,
    batch: Batch,
}

impl PartialEq for Streak {
    fn eq(&self, o: &Self) -> bool {
        (self.die, self.continue_on, self.base, self.cap) == (o.die, o.continue_on, o.base, o.cap)
    }
}
impl Eq for Streak {}

/// One streak roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StreakRoll {
    /// `base + length`.
    pub score: i64,
    /// Consecutive faces in the set.
    pub length: u32,
    /// The streak stopped at its cap, not at a face outside the set.
    pub capped: bool,
}

impl fmt::Display for StreakRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.score)?;
        if self.capped {
            f.write_str(" (cap reached)")?;
        }
        Ok(())
    }
}

impl Streak {
    /// A streak on `die` that continues while the face is in `continue_on`, scoring
    /// `base + length`. Its law is the untruncated geometric one; a roll stops at the
    /// [`uncapped_roll_cap`] of the set (at least [`crate::DEFAULT_EXPLOSION_CAP`]).
    ///
    /// # Errors
    /// [`Error::Endless`] when `continue_on` holds every face of the die (use
    /// [`Streak::capped`]); [`Error::OutOfRange`] when `|base| > MAX_MODIFIER`.
    pub fn new(die: Die, continue_on: FaceSet, base: i64) -> Result<Self, Error> {
        if continue_on.count_within(die.sides()) == die.sides() {
            return Err(Error::Endless {
                die,
                max_cap: MAX_EXPLOSION_CAP,
            });
        }
        let cap = uncapped_roll_cap(
            f64::from(continue_on.count_within(die.sides())) / f64::from(die.sides()),
        );
        Self::build(die, continue_on, base, cap, false)
    }

    /// As [`Streak::new`] with an explicit cap on the length, which also allows a set holding
    /// every face (the streak then always reaches the cap).
    ///
    /// # Errors
    /// [`Error::Cap`] unless `1 <= cap <= MAX_EXPLOSION_CAP`; [`Error::OutOfRange`] for the base.
    ///
    /// ```
    /// use dice_core::{Die, FaceSet, Streak};
    /// let s = Streak::capped(Die::D6, FaceSet::range(1, 6)?, 0, 5)?;
    /// assert_eq!(s.cap(), 5);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn capped(die: Die, continue_on: FaceSet, base: i64, cap: u32) -> Result<Self, Error> {
        if cap == 0 || cap > MAX_EXPLOSION_CAP {
            return Err(Error::Cap {
                cap,
                max: MAX_EXPLOSION_CAP,
            });
        }
        Self::build(die, continue_on, base, cap, true)
    }

    fn build(
        die: Die,
        continue_on: FaceSet,
        base: i64,
        cap: u32,
        explicit_cap: bool,
    ) -> Result<Self, Error> {
        check_modifier("base", base)?;
        Ok(Streak {
            die,
            continue_on,
            base,
            cap,
            explicit_cap,
            batch: Batch::full(die.sides()),
        })
    }

    /// The die.
    pub fn die(&self) -> Die {
        self.die
    }
    /// The faces that continue the streak.
    pub fn continue_on(&self) -> FaceSet {
        self.continue_on
    }
    /// The base added to the length.
    pub fn base(&self) -> i64 {
        self.base
    }
    /// The most faces a streak may count.
    pub fn cap(&self) -> u32 {
        self.cap
    }

    /// Rolls one streak.
    #[inline]
    pub fn roll_streak<R: Rng + ?Sized>(&self, rng: &mut R) -> StreakRoll {
        let mut faces = FaceStream::new(&self.batch);
        let mut length = 0;
        while length < self.cap {
            if !self.continue_on.contains(faces.face(rng)) {
                return self.result(length, false);
            }
            length += 1;
        }
        self.result(length, true)
    }

    fn result(&self, length: u32, capped: bool) -> StreakRoll {
        StreakRoll {
            score: self.base + i64::from(length),
            length,
            capped,
        }
    }

    /// Scores faces already rolled: returns `(score, faces used)`. Faces after the one that
    /// ends the streak are not read. If the faces run out while the streak goes on, the score
    /// so far is returned with every face used.
    pub fn score_faces<I: IntoIterator<Item = u32>>(&self, faces: I) -> (i64, usize) {
        let mut length = 0u32;
        let mut used = 0;
        for f in faces {
            used += 1;
            if length >= self.cap || !self.continue_on.contains(f) {
                break;
            }
            length += 1;
        }
        (self.base + i64::from(length), used)
    }
}

impl Roll for Streak {
    /// The score, `base + length`.
    type Outcome = i64;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        self.roll_streak(rng).score
    }
}

impl RollDetailed for Streak {
    /// Every face rolled; the faces that continued the streak are successes and exploded.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let mut faces = FaceStream::new(&self.batch);
        let mut length = 0;
        loop {
            if length == self.cap {
                record.capped = true;
                if let Some(last) = record.dice.last_mut() {
                    last.flags.capped = true;
                    last.flags.exploded = false;
                }
                break;
            }
            let face = faces.face(rng);
            let mut d = DieRoll::new(self.die, face, Source::Primary);
            d.flags.added = length > 0;
            let go_on = self.continue_on.contains(face);
            d.flags.success = go_on;
            d.flags.exploded = go_on;
            record.dice.push(d);
            if !go_on {
                break;
            }
            length += 1;
        }
        record.successes = length;
        record.modifier = self.base;
        record.total = self.base + i64::from(length);
    }
}

impl fmt::Display for Streak {
    /// `1+streak(d6 in{5,6})`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.base != 0 {
            write!(f, "{}+", self.base)?;
        }
        write!(f, "streak({} in{})", self.die, self.continue_on)
    }
}

// ------------------------------------------------------------------ exact distribution

use crate::Exact;
use crate::dist::Dist;
use crate::pool::{DEFAULT_TAIL_TOLERANCE, powu};

impl Streak {
    /// The chance that one roll continues the streak: faces in the set over the sides.
    pub fn continue_probability(&self) -> f64 {
        f64::from(self.continue_on.count_within(self.die.sides())) / f64::from(self.die.sides())
    }

    /// P(length = `length`), from the geometric law `pᵏ(1 − p)` (with an explicit cap:
    /// `P(length = cap) = p^cap` and nothing beyond), without listing anything. Without an
    /// explicit cap the law is the untruncated one.
    ///
    /// ```
    /// use dice_core::{Die, FaceSet, Streak};
    /// let fluke = Streak::new(Die::D6, FaceSet::range(4, 6)?, 0)?;
    /// assert_eq!(fluke.length_probability(7), 1.0 / 256.0); // (1/2)^7 · 1/2
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn length_probability(&self, length: u32) -> f64 {
        let p = self.continue_probability();
        if length > self.cap && self.explicit_cap {
            0.0
        } else if length == self.cap && self.explicit_cap {
            powu(p, u64::from(length))
        } else {
            powu(p, u64::from(length)) * (1.0 - p)
        }
    }

    /// The law of the score, listing lengths until the unlisted mass `p^J` (exact) is at most
    /// `tail_tolerance`. With an explicit cap the law is the capped one, with no tail.
    ///
    /// ```
    /// use dice_core::{Die, FaceSet, Streak};
    /// let small = Streak::new(Die::D6, FaceSet::range(5, 6)?, 1)?;
    /// let d = small.distribution_within(1e-30)?;
    /// assert!((d.probability(&1) - 2.0 / 3.0).abs() < 1e-15);
    /// assert!(d.tail() <= 1e-30);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Never for a valid streak; the `Result` matches [`Exact`].
    pub fn distribution_within(&self, tail_tolerance: f64) -> Result<Dist<i64>, Error> {
        let tol = if tail_tolerance > 0.0 {
            tail_tolerance
        } else {
            DEFAULT_TAIL_TOLERANCE
        };
        let p = self.continue_probability();
        let q = 1.0 - p;
        let explicit = self.explicit_cap;
        let mut outcomes = alloc::vec::Vec::new();
        let mut probs = alloc::vec::Vec::new();
        let mut pk = 1.0; // p^k
        let mut k = 0u32;
        loop {
            if explicit && k == self.cap {
                outcomes.push(self.base + i64::from(k));
                probs.push(pk);
                return Ok(Dist::from_sorted(outcomes, probs, 0.0));
            }
            if !explicit && (pk <= tol || pk == 0.0) {
                return Ok(Dist::from_sorted(outcomes, probs, pk));
            }
            outcomes.push(self.base + i64::from(k));
            probs.push(pk * q);
            pk *= p;
            k += 1;
        }
    }
}

impl Exact for Streak {
    /// [`Streak::distribution_within`] with [`DEFAULT_TAIL_TOLERANCE`].
    fn distribution(&self) -> Result<Dist<i64>, Error> {
        self.distribution_within(DEFAULT_TAIL_TOLERANCE)
    }
}
