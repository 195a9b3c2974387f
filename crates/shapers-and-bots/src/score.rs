//! How a character scores: two dice plus a bonus (L71–72, L97, L353), or a fluke when they
//! have no rating (L113–119). Shared by challenges, contests and attacks.

use std::fmt;

use dice_core::{
    Die, Dist, Exact, FaceSet, Keep, Pool, Rng, Roll, RollDetailed, RollRecord, Streak, Sum,
};

use crate::combat::Armor;
use crate::error::Error;
use crate::level::{Level, Rating};

/// The die of every roll in the game (SB-A16: "two dice" and "a single die" are d6, as the
/// faces named at L116, L392 and L425 imply).
pub(crate) const D6: Die = Die::D6;

/// Checks a face of a d6 rolled by hand.
pub(crate) fn face(f: u8) -> Result<u32, Error> {
    if (1..=6).contains(&f) {
        Ok(u32::from(f))
    } else {
        Err(Error::Face { face: f })
    }
}

/// `2d6 + modifier`.
pub(crate) fn two_dice(modifier: i32) -> Result<Sum, Error> {
    Ok(Sum::new(Pool::new(2, D6)?, Keep::All, i64::from(modifier))?)
}

/// The fluke streak: a d6 scoring one point per successive 4, 5 or 6 (L115–119).
pub(crate) fn fluke_streak() -> Result<Streak, Error> {
    Ok(Streak::new(D6, FaceSet::range(4, 6)?, 0)?)
}

/// Scores a streak on faces rolled by hand: `(length, faces used)`, or
/// [`Error::StreakUnfinished`] when no face ends it. Checks every face it reads.
// TODO(dice-core): `Streak::score_faces` returns the score so far when the faces run out, so
// a caller cannot tell a finished streak from an unfinished one, and it does not check the
// faces against the die. A checked form (`Result<(score, used), Error>`, erroring on a face
// outside the die and on faces that run out mid-streak) would serve every game with streaks
// or explosions rolled by hand.
pub(crate) fn streak_faces(streak: &Streak, faces: &[u8]) -> Result<(u32, usize), Error> {
    let mut length = 0u32;
    for (i, &f) in faces.iter().enumerate() {
        let f = face(f)?;
        if length >= streak.cap() {
            return Ok((length, i));
        }
        if !streak.continue_on().contains(f) {
            return Ok((length, i + 1));
        }
        length += 1;
    }
    if length >= streak.cap() {
        return Ok((length, faces.len()));
    }
    Err(Error::StreakUnfinished { faces: faces.len() })
}

/// One side of a roll: a character's rating for it plus any modifiers (armor, surprise).
///
/// A rated side rolls two dice and adds its level's bonus and the modifiers (L71–72). A side
/// with no rating rolls a [fluke](crate::Fluke), which adds nothing (L115–119), so it takes
/// no modifier. Which skill a side uses is the caller's choice: the rulebook does not say
/// which skill attacks (SB-A20) or defends (SB-A8).
///
/// ```
/// use dice_shapers_and_bots::{Armor, Contestant, Level, Rating};
/// let archer = Contestant::rated(Level::VeryHigh).wearing(Armor::Accustomed)?;
/// assert_eq!(archer.bonus(), Some(3)); // +4, −1 for armor she is used to (L429–430)
/// let zitterbee = Contestant::new(Rating::NoRating, 0)?;
/// assert_eq!(zitterbee.bonus(), None);
/// assert!(zitterbee.with_modifier(1).is_err());
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contestant {
    rating: Rating,
    modifier: i32,
}

impl Contestant {
    /// A side with a level and no modifier.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contestant, Level};
    /// assert_eq!(Contestant::rated(Level::Low).bonus(), Some(-1));
    /// ```
    pub const fn rated(level: Level) -> Self {
        Contestant {
            rating: Rating::Rated(level),
            modifier: 0,
        }
    }

    /// A side with no rating: it rolls a fluke.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contestant, Rating};
    /// assert_eq!(Contestant::unrated().rating(), Rating::NoRating);
    /// ```
    pub const fn unrated() -> Self {
        Contestant {
            rating: Rating::NoRating,
            modifier: 0,
        }
    }

    /// A side with `rating` and a modifier added to its two dice.
    ///
    /// # Errors
    /// [`Error::NoBonusForFluke`] for a nonzero modifier with no rating.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contestant, Level, Rating};
    /// let c = Contestant::new(Rating::Rated(Level::High), 1)?;
    /// assert_eq!(c.bonus(), Some(3));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn new(rating: Rating, modifier: i32) -> Result<Self, Error> {
        Contestant {
            rating,
            modifier: 0,
        }
        .with_modifier(modifier)
    }

    /// The same side with `modifier` added (a surprise bonus, a Director's adjustment).
    ///
    /// # Errors
    /// [`Error::NoBonusForFluke`] for a nonzero modifier with no rating.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contestant, Level};
    /// assert_eq!(Contestant::rated(Level::Average).with_modifier(-2)?.bonus(), Some(-2));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn with_modifier(self, modifier: i32) -> Result<Self, Error> {
        if modifier == 0 {
            return Ok(self);
        }
        if self.rating == Rating::NoRating {
            return Err(Error::NoBonusForFluke { modifier });
        }
        Ok(Contestant {
            modifier: self.modifier.saturating_add(modifier),
            ..self
        })
    }

    /// The same side wearing `armor`: its attack or defense bonus drops by
    /// [`Armor::penalty`] (L428–430).
    ///
    /// # Errors
    /// [`Error::NoBonusForFluke`] when a side with no rating wears armor: a fluke has no
    /// bonus for the armor to reduce.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Armor, Contestant, Level};
    /// let c = Contestant::rated(Level::High).wearing(Armor::Unaccustomed)?;
    /// assert_eq!(c.bonus(), Some(-1));
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub fn wearing(self, armor: Armor) -> Result<Self, Error> {
        self.with_modifier(armor.penalty())
    }

    /// The rating.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contestant, Level, Rating};
    /// assert_eq!(Contestant::rated(Level::Low).rating(), Rating::Rated(Level::Low));
    /// ```
    pub const fn rating(&self) -> Rating {
        self.rating
    }

    /// The modifiers on top of the level's bonus.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contestant, Level};
    /// assert_eq!(Contestant::rated(Level::Low).with_modifier(2)?.modifier(), 2);
    /// # Ok::<(), dice_shapers_and_bots::Error>(())
    /// ```
    pub const fn modifier(&self) -> i32 {
        self.modifier
    }

    /// The level's bonus plus the modifiers, or `None` for a fluke.
    ///
    /// ```
    /// use dice_shapers_and_bots::{Contestant, Level};
    /// assert_eq!(Contestant::rated(Level::Awesome).bonus(), Some(6));
    /// ```
    pub fn bonus(&self) -> Option<i32> {
        self.rating
            .level()
            .map(|l| l.bonus().saturating_add(self.modifier))
    }
}

impl From<Level> for Contestant {
    fn from(level: Level) -> Self {
        Contestant::rated(level)
    }
}

impl From<Rating> for Contestant {
    fn from(rating: Rating) -> Self {
        Contestant {
            rating,
            modifier: 0,
        }
    }
}

impl fmt::Display for Contestant {
    /// `High (+2)`, `High (+2 -1)`, `no rating (fluke)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rating {
            Rating::NoRating => f.write_str("no rating (fluke)"),
            Rating::Rated(l) if self.modifier == 0 => write!(f, "{l} ({:+})", l.bonus()),
            Rating::Rated(l) => write!(f, "{l} ({:+} {:+})", l.bonus(), self.modifier),
        }
    }
}

/// What one side scored: two dice and their total, or a fluke's score.
///
/// ```
/// use dice_shapers_and_bots::{Challenge, Level, ScoreRoll};
/// let roll = Challenge::new(Level::High, Level::Awesome)?.resolve([5, 6])?;
/// assert_eq!(roll.score, ScoreRoll::Dice { dice: [5, 6], bonus: 2, modifier: 0, total: 13 });
/// assert_eq!(roll.score.total(), 13);
/// assert_eq!(roll.score.to_string(), "[5, 6] + 2 = 13");
/// # Ok::<(), dice_shapers_and_bots::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ScoreRoll {
    /// Two dice plus the bonus and modifiers.
    Dice {
        /// The two faces.
        dice: [u8; 2],
        /// The level's bonus.
        bonus: i32,
        /// Other modifiers (armor, surprise).
        modifier: i32,
        /// `dice + bonus + modifier`.
        total: i32,
    },
    /// A fluke: the number of successive 4s, 5s and 6s.
    Fluke {
        /// The score.
        score: u32,
        /// The streak stopped at dice-core's cap (100 dice) rather than on a miss.
        capped: bool,
    },
}

impl ScoreRoll {
    /// The score compared with a target or an opponent.
    ///
    /// ```
    /// use dice_shapers_and_bots::ScoreRoll;
    /// assert_eq!(ScoreRoll::Fluke { score: 5, capped: false }.total(), 5);
    /// ```
    pub fn total(&self) -> i32 {
        match *self {
            ScoreRoll::Dice { total, .. } => total,
            ScoreRoll::Fluke { score, .. } => i32::try_from(score).unwrap_or(i32::MAX),
        }
    }
}

impl fmt::Display for ScoreRoll {
    /// `[5, 6] + 2 = 13`, `[3, 1] - 3 - 1 = 0`, `fluke 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScoreRoll::Dice {
                dice,
                bonus,
                modifier,
                total,
            } => {
                write!(f, "[{}, {}]", dice[0], dice[1])?;
                for m in [bonus, modifier] {
                    if m != 0 {
                        let sign = if m < 0 { '-' } else { '+' };
                        write!(f, " {sign} {}", m.unsigned_abs())?;
                    }
                }
                write!(f, " = {total}")
            }
            ScoreRoll::Fluke { score, capped } => {
                write!(f, "fluke {score}")?;
                if capped {
                    f.write_str(" (cap reached)")?;
                }
                Ok(())
            }
        }
    }
}

/// Two dice of `sum` (`2d6 + bonus + modifier`) rolled with their faces, with the same draws
/// as `sum.roll(rng)`.
// TODO(dice-core): the only public way to see a `Sum`'s faces is a `RollRecord` (a heap
// buffer, ~60 ns here against ~11 ns for the total); a stack form for small pools (faces into
// a caller's `&mut [u32]`) would make detailed rolls as cheap as plain ones.
pub(crate) fn roll_dice<R: Rng + ?Sized>(
    sum: &Sum,
    bonus: i32,
    modifier: i32,
    rng: &mut R,
) -> ScoreRoll {
    let mut record = RollRecord::new();
    sum.roll_record_into(rng, &mut record);
    let mut dice = [0u8; 2];
    for (d, r) in dice.iter_mut().zip(&record.dice) {
        *d = u8::try_from(r.natural).unwrap_or(u8::MAX);
    }
    ScoreRoll::Dice {
        dice,
        bonus,
        modifier,
        total: i32::try_from(record.total).unwrap_or(i32::MAX),
    }
}

/// Two dice rolled by hand plus `bonus + modifier`.
pub(crate) fn resolve_dice(bonus: i32, modifier: i32, faces: &[u8]) -> Result<ScoreRoll, Error> {
    let dice: [u8; 2] = faces
        .try_into()
        .map_err(|_| Error::DiceCount { got: faces.len() })?;
    let (a, b) = (face(dice[0])?, face(dice[1])?);
    let total = i64::from(a + b) + i64::from(bonus) + i64::from(modifier);
    Ok(ScoreRoll::Dice {
        dice,
        bonus,
        modifier,
        total: i32::try_from(total).unwrap_or(i32::MAX),
    })
}

/// The dice-core mechanic behind one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Scorer {
    Dice { sum: Sum, bonus: i32, modifier: i32 },
    Fluke(Box<Streak>),
}

impl Scorer {
    pub(crate) fn new(c: Contestant) -> Result<Self, Error> {
        Ok(match c.rating {
            Rating::Rated(l) => Scorer::Dice {
                sum: two_dice(l.bonus().saturating_add(c.modifier))?,
                bonus: l.bonus(),
                modifier: c.modifier,
            },
            Rating::NoRating => Scorer::Fluke(Box::new(fluke_streak()?)),
        })
    }

    pub(crate) fn is_fluke(&self) -> bool {
        matches!(self, Scorer::Fluke(_))
    }

    /// The total alone (the fast path).
    #[inline]
    pub(crate) fn roll_total<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        match self {
            Scorer::Dice { sum, .. } => sum.roll(rng),
            Scorer::Fluke(s) => s.roll(rng),
        }
    }

    /// The same draws as [`Scorer::roll_total`], with the faces.
    pub(crate) fn roll_score<R: Rng + ?Sized>(&self, rng: &mut R) -> ScoreRoll {
        match self {
            Scorer::Dice {
                sum,
                bonus,
                modifier,
            } => roll_dice(sum, *bonus, *modifier, rng),
            Scorer::Fluke(s) => {
                let r = s.roll_streak(rng);
                ScoreRoll::Fluke {
                    score: r.length,
                    capped: r.capped,
                }
            }
        }
    }

    /// The score of faces rolled by hand: exactly two for dice, a streak and the face that
    /// ends it for a fluke (faces after that one are not read).
    pub(crate) fn resolve(&self, faces: &[u8]) -> Result<ScoreRoll, Error> {
        match self {
            Scorer::Dice {
                bonus, modifier, ..
            } => resolve_dice(*bonus, *modifier, faces),
            Scorer::Fluke(s) => {
                let (score, _used) = streak_faces(s, faces)?;
                Ok(ScoreRoll::Fluke {
                    score,
                    capped: score >= s.cap(),
                })
            }
        }
    }

    /// The law of the total (a fluke's lists its scores up to a tail below 1e-15).
    pub(crate) fn distribution(&self) -> Result<Dist<i64>, dice_core::Error> {
        match self {
            Scorer::Dice { sum, .. } => sum.distribution(),
            Scorer::Fluke(s) => s.distribution(),
        }
    }
}

/// A law whose unlisted tail lies beyond every listed outcome, with the tail moved onto
/// `into` (the outcome every unlisted score gives), so the law sums to one.
// TODO(dice-core): `Dist::map` carries the tail over unmapped; a `map` that also names the
// outcome of the unlisted tail (as `VersusTarget::distribution` does internally for "above")
// is what every game mapping an exploding or streak law onto outcomes needs.
pub(crate) fn fold_tail<T: Ord + Clone>(d: Dist<T>, into: T) -> Result<Dist<T>, dice_core::Error> {
    if d.tail() == 0.0 {
        return Ok(d);
    }
    let tail = d.tail();
    let pairs = d
        .iter()
        .map(|(o, p)| (o.clone(), p))
        .chain(std::iter::once((into, tail)));
    Dist::from_pairs(pairs.collect::<Vec<_>>())
}
