//! Pools of dice, mixed sources and explosions.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use rand::Rng;

use crate::die::{Batch, FaceStream};
use crate::error::Error;
use crate::faces::{Comparison, FaceTest};
use crate::record::{DieRoll, Source};
use crate::{Die, Roll};

/// The most dice a pool may hold before explosions.
pub const MAX_DICE: u32 = 10_000;
/// The least number of extra dice (or streak steps) a roll without an explicit cap may take
/// before it stops: a d6 exploding on a 6 reaches it with probability 6⁻¹⁰⁰. Where the chance
/// of going on is higher, the roll goes further: see [`uncapped_roll_cap`].
pub const DEFAULT_EXPLOSION_CAP: u32 = 100;

/// The most that a roll without an explicit cap may cut from the law, per original die: a
/// roll stops only where the chance of going on is below this. Over [`MAX_DICE`] dice the
/// cut mass is at most `1e-15`, [`DEFAULT_TAIL_TOLERANCE`], so the rolls of an uncapped
/// explosion or streak draw the untruncated law that its exact distribution lists.
pub const UNCAPPED_CUT_MASS: f64 = 1e-19;

/// Where a roll without an explicit cap stops: after `k` extra dice (or streak steps), the
/// least `k ≥ DEFAULT_EXPLOSION_CAP` with `going_on^k ≤ UNCAPPED_CUT_MASS`, where `going_on`
/// is the chance that a face explodes (or continues the streak).
///
/// A chance of 0, of 1 or more (an explosion on every face needs an explicit cap) or not a
/// number gives [`DEFAULT_EXPLOSION_CAP`]. For every die up to [`crate::MAX_SIDES`] sides the
/// answer is at most 43,728 (a d1000 exploding on 2 or more).
///
/// ```
/// use dice_core::{DEFAULT_EXPLOSION_CAP, UNCAPPED_CUT_MASS, uncapped_roll_cap};
/// assert_eq!(uncapped_roll_cap(1.0 / 6.0), DEFAULT_EXPLOSION_CAP); // (1/6)^100 is far below
/// let p = 19.0 / 20.0; // a d20 exploding on 2..=20
/// let k = uncapped_roll_cap(p);
/// assert!(p.powi(k as i32) <= UNCAPPED_CUT_MASS);
/// assert!(p.powi(k as i32 - 1) > UNCAPPED_CUT_MASS);
/// ```
pub fn uncapped_roll_cap(going_on: f64) -> u32 {
    let p = going_on;
    if !(p > 0.0 && p < 1.0) {
        return DEFAULT_EXPLOSION_CAP;
    }
    let mut k = DEFAULT_EXPLOSION_CAP;
    let mut pk = powu(p, u64::from(k));
    // For p ≤ 999/1000 (any die of at most MAX_SIDES sides) this ends by k ≈ 43,700; the
    // bound on k only guards against a chance within rounding of 1.
    while pk > UNCAPPED_CUT_MASS && k < 10_000_000 {
        pk *= p;
        k += 1;
    }
    k
}
/// The largest explosion or streak cap a caller may set.
pub const MAX_EXPLOSION_CAP: u32 = 10_000;
/// The most dice one roll of a pool may produce, explosions included, in the worst case
/// (`dice × (cap + 1)`). Keeps a record roll's memory bounded.
pub const MAX_ROLLED_DICE: u64 = 1_000_000;
/// The largest magnitude of a flat modifier, target or difficulty.
pub const MAX_MODIFIER: i64 = 1_000_000_000;

/// Checks `|value| <= MAX_MODIFIER`.
pub(crate) fn check_modifier(what: &'static str, value: i64) -> Result<i64, Error> {
    if value.abs() > MAX_MODIFIER {
        return Err(Error::OutOfRange {
            what,
            value,
            min: -MAX_MODIFIER,
            max: MAX_MODIFIER,
        });
    }
    Ok(value)
}

/// What an exploding face does.
///
/// ```
/// use dice_core::ExplodeMode;
/// assert!(ExplodeMode::Penetrate.adds_dice());
/// assert!(ExplodeMode::PenetrateCompound.is_penetrating());
/// assert!(!ExplodeMode::Compound.adds_dice());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum ExplodeMode {
    /// Roll an additional die, which is its own die in the pool (and may explode in turn).
    Additional,
    /// Roll again and add the face to the same die (the die's value grows; it stays one die).
    Compound,
    /// Penetrating dice (Hackmaster, rpg-dice-roller's `!p`): as [`ExplodeMode::Additional`],
    /// but every added die counts one less than its face. Whether a die explodes is decided
    /// on its natural face, before the one is taken off.
    Penetrate,
    /// Compounding penetrating dice (rpg-dice-roller's `!!p`): as [`ExplodeMode::Compound`],
    /// but every face rolled after the first adds one less than it shows.
    PenetrateCompound,
}

impl ExplodeMode {
    /// Whether an explosion adds a die of its own to the pool ([`ExplodeMode::Additional`],
    /// [`ExplodeMode::Penetrate`]) rather than growing the same die.
    pub const fn adds_dice(self) -> bool {
        matches!(self, ExplodeMode::Additional | ExplodeMode::Penetrate)
    }

    /// Whether every face rolled after a die's first counts one less.
    pub const fn is_penetrating(self) -> bool {
        matches!(
            self,
            ExplodeMode::Penetrate | ExplodeMode::PenetrateCompound
        )
    }
}

/// Exploding dice: when a die's natural face passes `on`, roll again, at most `cap` times per
/// original die.
///
/// ```
/// use dice_core::{Comparison, Explode, ExplodeMode};
/// let tens = Explode::new(Comparison::Exactly(10));
/// assert_eq!(tens.mode(), ExplodeMode::Additional);
/// assert_eq!(tens.cap(), dice_core::DEFAULT_EXPLOSION_CAP);
/// let compounding = Explode::compounding(Comparison::Exactly(6)).with_cap(3)?;
/// assert_eq!(compounding.cap(), 3);
/// # Ok::<(), dice_core::Error>(())
/// ```
///
/// With the `serde` feature an `Explode` is (de)serialised as its four fields (`on`, `mode`,
/// `cap`, `explicit_cap`); deserialising checks them as the constructors do (an explicit cap
/// within `1..=MAX_EXPLOSION_CAP`, otherwise [`DEFAULT_EXPLOSION_CAP`]), so a value read from
/// untrusted input cannot bypass the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ExplodeFields", into = "ExplodeFields")
)]
pub struct Explode {
    on: Comparison,
    mode: ExplodeMode,
    cap: u32,
    explicit_cap: bool,
}

/// The serialised form of [`Explode`]: its fields, checked by `TryFrom` on the way in.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
struct ExplodeFields {
    on: Comparison,
    mode: ExplodeMode,
    cap: u32,
    explicit_cap: bool,
}

#[cfg(feature = "serde")]
impl From<Explode> for ExplodeFields {
    fn from(e: Explode) -> Self {
        ExplodeFields {
            on: e.on,
            mode: e.mode,
            cap: e.cap,
            explicit_cap: e.explicit_cap,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<ExplodeFields> for Explode {
    type Error = Error;

    /// Rebuilds the value through its constructors: [`Error::Cap`] for an explicit cap
    /// outside `1..=MAX_EXPLOSION_CAP`, or an implicit one other than the default.
    fn try_from(f: ExplodeFields) -> Result<Self, Error> {
        let base = Explode {
            on: f.on,
            mode: f.mode,
            cap: DEFAULT_EXPLOSION_CAP,
            explicit_cap: false,
        };
        if f.explicit_cap {
            base.with_cap(f.cap)
        } else if f.cap == DEFAULT_EXPLOSION_CAP {
            Ok(base)
        } else {
            Err(Error::Cap {
                cap: f.cap,
                max: MAX_EXPLOSION_CAP,
            })
        }
    }
}

impl Explode {
    /// Classic exploding dice: a face passing `on` adds another die. Cap
    /// [`DEFAULT_EXPLOSION_CAP`].
    pub const fn new(on: Comparison) -> Self {
        Explode {
            on,
            mode: ExplodeMode::Additional,
            cap: DEFAULT_EXPLOSION_CAP,
            explicit_cap: false,
        }
    }

    /// Compounding dice: a face passing `on` rolls again and adds to the same die.
    pub const fn compounding(on: Comparison) -> Self {
        Explode {
            on,
            mode: ExplodeMode::Compound,
            cap: DEFAULT_EXPLOSION_CAP,
            explicit_cap: false,
        }
    }

    /// Penetrating dice (`!p`): a face passing `on` adds another die, which counts one less
    /// than its face (and may explode in turn, on its natural face).
    ///
    /// ```
    /// use dice_core::{Comparison, Explode, ExplodeMode};
    /// assert_eq!(Explode::penetrating(Comparison::Exactly(6)).mode(), ExplodeMode::Penetrate);
    /// ```
    pub const fn penetrating(on: Comparison) -> Self {
        Explode {
            on,
            mode: ExplodeMode::Penetrate,
            cap: DEFAULT_EXPLOSION_CAP,
            explicit_cap: false,
        }
    }

    /// Compounding penetrating dice (`!!p`): a face passing `on` rolls again and adds the new
    /// face less one to the same die.
    ///
    /// ```
    /// use dice_core::{Comparison, Explode, ExplodeMode};
    /// let e = Explode::penetrating_compound(Comparison::Exactly(6));
    /// assert_eq!(e.mode(), ExplodeMode::PenetrateCompound);
    /// ```
    pub const fn penetrating_compound(on: Comparison) -> Self {
        Explode {
            on,
            mode: ExplodeMode::PenetrateCompound,
            cap: DEFAULT_EXPLOSION_CAP,
            explicit_cap: false,
        }
    }

    /// Sets the cap: at most `cap` re-rolls per original die. An explicit cap also allows an
    /// explosion on every face (it then always reaches the cap).
    ///
    /// # Errors
    /// [`Error::Cap`] unless `1 <= cap <= MAX_EXPLOSION_CAP`.
    pub const fn with_cap(mut self, cap: u32) -> Result<Self, Error> {
        if cap == 0 || cap > MAX_EXPLOSION_CAP {
            return Err(Error::Cap {
                cap,
                max: MAX_EXPLOSION_CAP,
            });
        }
        self.cap = cap;
        self.explicit_cap = true;
        Ok(self)
    }

    /// The test on the natural face that makes a die explode.
    pub const fn on(&self) -> Comparison {
        self.on
    }

    /// Additional or compounding.
    pub const fn mode(&self) -> ExplodeMode {
        self.mode
    }

    /// The most re-rolls per original die.
    pub const fn cap(&self) -> u32 {
        self.cap
    }

    /// Whether the cap was set by the caller (the exact laws are then the capped ones; with
    /// the default cap they are the untruncated ones).
    pub const fn has_explicit_cap(&self) -> bool {
        self.explicit_cap
    }
}

/// A group of identical dice from one source within a [`Pool`].
#[derive(Clone, Debug)]
pub struct PoolPart {
    count: u32,
    die: Die,
    source: Source,
    batch: Batch,
    pub(crate) explode_test: FaceTest,
    /// The most extra dice one original die may add when rolled: the explicit cap, or
    /// [`uncapped_roll_cap`] for this die's explosion.
    roll_cap: u32,
}

impl PoolPart {
    /// How many dice.
    pub fn count(&self) -> u32 {
        self.count
    }
    /// Which die.
    pub fn die(&self) -> Die {
        self.die
    }
    /// Where the dice come from.
    pub fn source(&self) -> Source {
        self.source
    }
    pub(crate) fn batch(&self) -> &Batch {
        &self.batch
    }
}

impl PartialEq for PoolPart {
    fn eq(&self, other: &Self) -> bool {
        (self.count, self.die, self.source) == (other.count, other.die, other.source)
    }
}
impl Eq for PoolPart {}

/// One die as the pool reports it to a mechanic.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rolled {
    pub(crate) natural: u32,
    pub(crate) value: i64,
    pub(crate) exploded: bool,
    pub(crate) added: bool,
    pub(crate) capped: bool,
}

/// A pool of dice: one or more groups of identical dice, each tagged with its [`Source`],
/// optionally exploding. Built once, rolled many times.
///
/// ```
/// use dice_core::{Die, Pool, Source, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // Three skill dice and one artifact die, all d6.
/// let pool = Pool::new(3, Die::D6)?.with_dice(1, Die::D6, Source::Artifact)?;
/// assert_eq!(pool.count(), 4);
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
/// let dice = pool.roll(&mut rng);
/// assert_eq!(dice.len(), 4);
/// assert_eq!(dice[3].source, Source::Artifact);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    parts: Vec<PoolPart>,
    count: u32,
    explode: Option<Explode>,
}

impl Pool {
    /// A pool of `count` dice of one kind (source [`Source::Primary`]). Zero dice is a legal,
    /// empty pool.
    ///
    /// # Errors
    /// [`Error::TooManyDice`] when `count > MAX_DICE`.
    pub fn new(count: u32, die: Die) -> Result<Self, Error> {
        Pool::empty().with_dice(count, die, Source::Primary)
    }

    /// A pool with no dice, to add parts to.
    pub fn empty() -> Self {
        Pool {
            parts: Vec::new(),
            count: 0,
            explode: None,
        }
    }

    /// Adds `count` dice of `die` from `source`.
    ///
    /// # Errors
    /// [`Error::TooManyDice`] when the pool would exceed [`MAX_DICE`];
    /// [`Error::TooManyRolled`] or [`Error::Endless`] if the pool explodes and the new dice
    /// break its limits.
    pub fn with_dice(mut self, count: u32, die: Die, source: Source) -> Result<Self, Error> {
        let total = u64::from(self.count) + u64::from(count);
        if total > u64::from(MAX_DICE) {
            return Err(Error::TooManyDice {
                count: total,
                max: MAX_DICE,
            });
        }
        if count > 0 {
            let explode_test = match self.explode {
                Some(e) => e.on.face_test(die.sides()),
                None => FaceTest::Range { lo: 0, width: 0 },
            };
            self.parts.push(PoolPart {
                count,
                die,
                source,
                batch: Batch::full(die.sides()),
                explode_test,
                roll_cap: DEFAULT_EXPLOSION_CAP,
            });
            self.count = total as u32;
        }
        self.check_explode()?;
        Ok(self)
    }

    /// Makes every die of the pool explode.
    ///
    /// # Errors
    /// [`Error::Endless`] when the explosion passes on every face of a die and no explicit cap
    /// was set; [`Error::TooManyRolled`] when `dice × (cap + 1)` exceeds [`MAX_ROLLED_DICE`].
    ///
    /// ```
    /// use dice_core::{Comparison, Die, Explode, Pool};
    /// let pool = Pool::new(10, Die::D10)?.exploding(Explode::new(Comparison::Exactly(10)))?;
    /// assert!(pool.explode().is_some());
    /// assert!(Pool::new(1, Die::D6)?.exploding(Explode::new(Comparison::AtLeast(1))).is_err());
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn exploding(mut self, explode: Explode) -> Result<Self, Error> {
        self.explode = Some(explode);
        for p in &mut self.parts {
            p.explode_test = explode.on.face_test(p.die.sides());
        }
        self.check_explode()?;
        Ok(self)
    }

    fn check_explode(&mut self) -> Result<(), Error> {
        let Some(e) = self.explode else {
            return Ok(());
        };
        for p in &mut self.parts {
            p.roll_cap = if e.explicit_cap {
                e.cap
            } else {
                uncapped_roll_cap(f64::from(p.explode_test.count()) / f64::from(p.die.sides()))
            };
        }
        for p in &self.parts {
            if !e.explicit_cap && p.explode_test.count() == p.die.sides() {
                return Err(Error::Endless {
                    die: p.die,
                    max_cap: MAX_EXPLOSION_CAP,
                });
            }
        }
        let worst = self.max_rolled();
        if e.mode.adds_dice() && worst > MAX_ROLLED_DICE {
            return Err(Error::TooManyRolled {
                count: self.count,
                cap: self.parts.iter().map(|p| p.roll_cap).max().unwrap_or(e.cap),
                max: MAX_ROLLED_DICE,
            });
        }
        Ok(())
    }

    /// Dice in the pool before explosions.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The groups of the pool, in order.
    pub fn parts(&self) -> &[PoolPart] {
        &self.parts
    }

    /// The explosion rule, if the pool explodes.
    pub fn explode(&self) -> Option<Explode> {
        self.explode
    }

    /// The most dice one roll can produce (explosions of [`ExplodeMode::Additional`] included):
    /// each original die with at most its cap of extra dice (the explicit cap, or
    /// [`uncapped_roll_cap`] without one).
    pub fn max_rolled(&self) -> u64 {
        match self.explode {
            Some(e) if e.mode.adds_dice() => self
                .parts
                .iter()
                .map(|p| u64::from(p.count) * (u64::from(p.roll_cap) + 1))
                .sum(),
            _ => u64::from(self.count),
        }
    }

    /// Whether any part of the pool can explode.
    pub(crate) fn explodes(&self) -> bool {
        self.explode.is_some()
    }

    /// Whether some face of some part sets off the pool's explosion.
    pub(crate) fn can_explode(&self) -> bool {
        self.explode.is_some() && self.parts.iter().any(|p| p.explode_test.count() > 0)
    }

    /// Rolls every die into `out` (cleared first), in pool order; an exploded die is
    /// followed by the dice it added.
    ///
    /// ```
    /// use dice_core::{Die, Pool};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let pool = Pool::new(5, Die::D10)?;
    /// let mut buf = Vec::new();
    /// pool.roll_into(&mut Xoshiro256PlusPlus::seed_from_u64(0), &mut buf);
    /// assert_eq!(buf.len(), 5);
    /// # Ok::<(), dice_core::Error>(())
    /// ```
    pub fn roll_into<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut Vec<DieRoll>) {
        out.clear();
        self.visit(rng, |part, d| {
            let mut roll = DieRoll::new(part.die, d.natural, part.source);
            roll.set_modifier(d.value - i64::from(d.natural));
            roll.flags.exploded = d.exploded;
            roll.flags.added = d.added;
            roll.flags.capped = d.capped;
            out.push(roll);
        });
    }

    /// Calls `f` for every die rolled, in pool order.
    #[inline(always)]
    pub(crate) fn visit<R: Rng + ?Sized, F: FnMut(&PoolPart, Rolled)>(
        &self,
        rng: &mut R,
        mut f: F,
    ) {
        match self.explode {
            None => {
                for part in &self.parts {
                    let b = &part.batch;
                    let mut left = part.count as usize;
                    while left > 0 {
                        let take = left.min(b.len);
                        let x = b.draw(rng);
                        for i in 0..take {
                            let natural = b.digit(b.bits(x, i)) as u32 + 1;
                            f(
                                part,
                                Rolled {
                                    natural,
                                    value: i64::from(natural),
                                    exploded: false,
                                    added: false,
                                    capped: false,
                                },
                            );
                        }
                        left -= take;
                    }
                }
            }
            Some(e) => {
                for part in &self.parts {
                    let mut faces = FaceStream::new(&part.batch);
                    for _ in 0..part.count {
                        explode_one(rng, part, e, &mut faces, &mut f);
                    }
                }
            }
        }
    }
}

/// Rolls one original die of `part` with its explosions.
#[inline(always)]
fn explode_one<R: Rng + ?Sized, F: FnMut(&PoolPart, Rolled)>(
    rng: &mut R,
    part: &PoolPart,
    e: Explode,
    faces: &mut FaceStream<'_>,
    f: &mut F,
) {
    let test = part.explode_test;
    let first = faces.face(rng);
    let mut boom = test.digit(u64::from(first - 1));
    // Penetrating dice: every face after the first counts one less.
    let less = i64::from(e.mode.is_penetrating());
    match e.mode {
        ExplodeMode::Compound | ExplodeMode::PenetrateCompound => {
            let mut value = i64::from(first);
            let mut n = 0;
            while boom && n < part.roll_cap {
                let face = faces.face(rng);
                value += i64::from(face) - less;
                boom = test.digit(u64::from(face - 1));
                n += 1;
            }
            f(
                part,
                Rolled {
                    natural: first,
                    value,
                    exploded: n > 0,
                    added: false,
                    capped: boom,
                },
            );
        }
        ExplodeMode::Additional | ExplodeMode::Penetrate => {
            let mut face = first;
            let mut n = 0;
            let mut added = false;
            loop {
                let go_on = boom && n < part.roll_cap;
                f(
                    part,
                    Rolled {
                        natural: face,
                        value: i64::from(face) - if added { less } else { 0 },
                        exploded: go_on,
                        added,
                        capped: boom && !go_on,
                    },
                );
                if !go_on {
                    break;
                }
                face = faces.face(rng);
                boom = test.digit(u64::from(face - 1));
                added = true;
                n += 1;
            }
        }
    }
}

impl fmt::Display for Pool {
    /// `3d6`, `3d6+1d6(artifact)`, `10d10!=10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.parts.is_empty() {
            return f.write_str("0d");
        }
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{}{}", p.count, p.die)?;
            if p.source != Source::Primary {
                write!(f, "({})", p.source)?;
            }
        }
        if let Some(e) = self.explode {
            let bang = match e.mode {
                ExplodeMode::Compound => "!!",
                ExplodeMode::Penetrate => "!p",
                ExplodeMode::PenetrateCompound => "!!p",
                ExplodeMode::Additional => "!",
            };
            write!(f, "{bang}{}", e.on)?;
        }
        Ok(())
    }
}

impl Roll for Pool {
    /// Every die of the roll (a small vector; use [`Pool::roll_into`] to reuse a buffer).
    type Outcome = DiceRolled;

    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> DiceRolled {
        let mut v = Vec::with_capacity(self.count as usize);
        self.roll_into(rng, &mut v);
        DiceRolled(v)
    }
}

/// The dice of one roll of a [`Pool`], in pool order.
///
/// ```
/// use dice_core::{Die, Pool, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let dice = Pool::new(2, Die::D6)?.roll(&mut Xoshiro256PlusPlus::seed_from_u64(5));
/// assert_eq!(dice.len(), 2);
/// println!("{dice}"); // e.g. "[3, 6]"
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DiceRolled(pub Vec<DieRoll>);

impl core::ops::Deref for DiceRolled {
    type Target = [DieRoll];
    fn deref(&self) -> &[DieRoll] {
        &self.0
    }
}

impl fmt::Display for DiceRolled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}

/// The tail mass the exact distributions leave unlisted unless the caller asks for another:
/// every listed probability is exact, and what is beyond the listed range weighs at most this.
pub const DEFAULT_TAIL_TOLERANCE: f64 = 1e-15;

/// How far a capped explosion whose cap lies beyond f64's range is listed: its survival
/// `P(value > x)` is then below every probability a `Dist` can tell from zero next to 1.
/// (A sum of such dice is listed whole instead when that is at most [`WHOLE_LISTING_MAX`]
/// entries.) Cost estimates of such laws (dice-notation's) start from it.
///
/// ```
/// use dice_core::{CAPPED_LISTING_TOLERANCE, Comparison, Die, Exact, Explode, Keep, Pool, Sum};
/// // 2d50, each exploding on 50 at most 700 times: 70,100 values in all, more than
/// // WHOLE_LISTING_MAX, and 50⁻⁷⁰⁰ is far below f64's range, so the sum is listed only
/// // until what is left weighs below the tolerance.
/// let explode = Explode::new(Comparison::Exactly(50)).with_cap(700)?;
/// let pool = Pool::new(2, Die::new(50)?)?.exploding(explode)?;
/// let law = Sum::new(pool, Keep::All, 0)?.distribution()?;
/// assert!(law.len() < 70_100 && law.tail() <= CAPPED_LISTING_TOLERANCE);
/// # Ok::<(), dice_core::Error>(())
/// ```
pub const CAPPED_LISTING_TOLERANCE: f64 = 1e-300;

/// The longest sum of capped explosions listed whole (every value up to every die's cap)
/// rather than up to [`CAPPED_LISTING_TOLERANCE`].
///
/// ```
/// use dice_core::{Comparison, Die, Exact, Explode, Keep, Pool, Sum, WHOLE_LISTING_MAX};
/// // 3d6 exploding at most twice each: at most 3 · 6 · 3 = 54, far below the bound, so
/// // listed whole, every value up to 54 and nothing left over.
/// assert!(54 <= WHOLE_LISTING_MAX);
/// let explode = Explode::new(Comparison::Exactly(6)).with_cap(2)?;
/// let law = Sum::new(Pool::new(3, Die::D6)?.exploding(explode)?, Keep::All, 0)?.distribution()?;
/// assert_eq!(law.tail(), 0.0);
/// assert!(law.probability(&54) > 0.0);
/// # Ok::<(), dice_core::Error>(())
/// ```
pub const WHOLE_LISTING_MAX: usize = 1 << 16;

/// `x` to the power `n` by squaring (no `std` needed).
pub(crate) fn powu(mut x: f64, mut n: u64) -> f64 {
    let mut r = 1.0;
    while n > 0 {
        if n & 1 == 1 {
            r *= x;
        }
        x *= x;
        n >>= 1;
    }
    r
}

/// The law of one die's value (a compounding die's whole value, or an exploding die's whole
/// chain summed — for totals the two are the same).
pub(crate) struct ValueLaw {
    /// P(value = x) for the listed values (exact), leading and trailing zeros trimmed.
    pub(crate) law: crate::dist::Dense,
    /// P(value beyond the listed range): zero for finite laws.
    pub(crate) tail: f64,
    /// The same law from 0 with its survival function `P(value > x)`, over the listed range.
    pub(crate) tailed: crate::dist::Tailed,
}

impl ValueLaw {
    /// A finite law given from value 0 (`f[x] = P(value = x)`).
    pub(crate) fn finite(f: Vec<f64>) -> ValueLaw {
        let mut s = vec![0.0; f.len()];
        let mut acc = 0.0;
        for x in (0..f.len()).rev() {
            s[x] = acc;
            acc += f[x];
        }
        ValueLaw {
            law: crate::dist::Dense {
                offset: 0,
                p: f.clone(),
            }
            .trim(),
            tail: 0.0,
            tailed: crate::dist::Tailed { f, s },
        }
    }

    /// The uniform law of a plain die.
    pub(crate) fn uniform(sides: usize) -> ValueLaw {
        let mut f = vec![1.0 / sides as f64; sides + 1];
        f[0] = 0.0;
        ValueLaw::finite(f)
    }
}

/// Work above which an exact computation gives up.
pub(crate) fn check_work(what: &'static str, work: f64) -> Result<(), Error> {
    check_work_within(what, work, crate::MAX_EXACT_WORK as f64)
}

/// [`check_work`] against a smaller `limit` (a caller's own budget).
pub(crate) fn check_work_within(what: &'static str, work: f64, limit: f64) -> Result<(), Error> {
    if work > limit {
        return Err(Error::TooComplex {
            what,
            work: work as u64,
            max: limit as u64,
        });
    }
    Ok(())
}

/// A listing length `len` beyond which a sum `X` of independent non-negative integer values
/// weighs at most `tol`, from the Chernoff bound: for every `θ > 0` where `X`'s generating
/// function converges, `P(X ≥ L) ≤ E[e^{θX}]·e^{−θL}`, so `L = (K(θ) − ln tol)/θ` will do,
/// with `K(θ) = ln E[e^{θX}]` (`log_gf`, infinite where it diverges). The least such `L` over
/// a geometric grid of `θ` below `theta_max` (where `K` diverges) is returned, plus one; `None`
/// when no `θ` gives a finite bound. Exploding listings start at this length rather than at a
/// guess, so that one pass usually lists enough: 1,000 exploding d10s need about 480 counts,
/// not the 4,000 a guess of 4 per die gave.
pub(crate) fn chernoff_len(log_gf: impl Fn(f64) -> f64, theta_max: f64, tol: f64) -> Option<usize> {
    if theta_max.is_nan() || theta_max <= 0.0 || tol.is_nan() || tol <= 0.0 {
        return None;
    }
    let ln_tol = ln(tol);
    let mut best = f64::INFINITY;
    // θ = θmax·2^(−i/8): from just below θmax down to a millionth of it.
    let mut theta = theta_max;
    for _ in 0..160 {
        theta *= 0.917_004_043_204_671_2; // 2^(−1/8)
        let k = log_gf(theta);
        if k.is_finite() {
            best = best.min((k - ln_tol) / theta);
        }
    }
    // `as` truncates: one more than the ceiling at most, past the bound either way.
    (best.is_finite() && best < (1u64 << 40) as f64).then(|| best.max(0.0) as usize + 2)
}

/// `ln x` without `std` where needed: `ln x = 2·atanh((x − 1)/(x + 1))` after scaling by a
/// power of two (the Chernoff listing bound needs only a few digits).
pub(crate) fn ln(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.ln()
    }
    #[cfg(not(feature = "std"))]
    {
        if x.is_nan() || x <= 0.0 || !x.is_finite() {
            return if x == f64::INFINITY { x } else { f64::NAN };
        }
        let bits = x.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64;
        if exp == 0 {
            // Subnormal: scale up first.
            return ln(x * (1u64 << 54) as f64) - 54.0 * core::f64::consts::LN_2;
        }
        let m = f64::from_bits((bits & !(0x7ff << 52)) | (1023 << 52)); // in [1, 2)
        let t = (m - 1.0) / (m + 1.0);
        let (t2, mut term, mut sum) = (t * t, t, 0.0);
        for k in 0..40 {
            sum += term / f64::from(2 * k + 1);
            term *= t2;
        }
        2.0 * sum + (exp - 1023) as f64 * core::f64::consts::LN_2
    }
}

/// `e^x` without `std` where needed (for the Chernoff listing bound).
pub(crate) fn exp(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.exp()
    }
    #[cfg(not(feature = "std"))]
    {
        if x > 709.0 {
            return f64::INFINITY;
        }
        if x < -745.0 {
            return 0.0;
        }
        // e^x = 2^k · e^r with |r| ≤ ln2/2, e^r by its series.
        let k = (x / core::f64::consts::LN_2 + if x < 0.0 { -0.5 } else { 0.5 }) as i64;
        let r = x - k as f64 * core::f64::consts::LN_2;
        let (mut term, mut sum) = (1.0, 1.0);
        for i in 1..30 {
            term *= r / f64::from(i);
            sum += term;
        }
        let scale = if k >= 0 {
            powu(2.0, k as u64)
        } else {
            1.0 / powu(2.0, (-k) as u64)
        };
        sum * scale
    }
}

/// A listing length beyond which a success count of dice whose explosions add dice weighs at
/// most `tol` ([`chernoff_len`]). Per part, a chain's count has the generating function
/// `G(z) = (a·z + b) + (c·z + d)·H(z)` with `H(z) = h₀ + h₁·z/(1 − r·z)`, in the notation of
/// [`chain_count_law`](crate::success::chain_count_law) (`a`, `b`, `c`, `d` the first die's
/// chances, `r` and `hⱼ` from the added dice's), converging for `z < 1/r`.
pub(crate) fn exploding_count_len(chains: &[crate::success::ChainDice], tol: f64) -> Option<usize> {
    // (dice, first die's chances, h₀, h₁, r) per part.
    let dice: Vec<(f64, [f64; 4], f64, f64, f64)> = chains
        .iter()
        .map(|chain| {
            let [a2, b2, c2, _] = chain.added;
            let go_on = a2 + b2 + c2;
            let h0 = b2 / go_on;
            let h1 = (a2 + c2 * h0) / go_on;
            (f64::from(chain.count), chain.first, h0, h1, c2 / go_on)
        })
        .collect();
    let theta_max = dice
        .iter()
        .filter(|d| d.4 > 0.0)
        .map(|d| -ln(d.4))
        .fold(f64::INFINITY, f64::min);
    // Without an added die that succeeds and explodes, a chain counts at most two: any θ
    // bounds it.
    let theta_max = if theta_max.is_finite() {
        theta_max
    } else {
        4.0
    };
    chernoff_len(
        |theta| {
            let z = exp(theta);
            let mut k = 0.0;
            for &(n, [a, b, c, d], h0, h1, r) in &dice {
                if r * z >= 1.0 {
                    return f64::INFINITY;
                }
                let h = h0 + h1 * z / (1.0 - r * z);
                k += n * ln(a * z + b + (c * z + d) * h);
            }
            k
        },
        theta_max,
        tol,
    )
}

impl Pool {
    /// A listing length beyond which the total of this pool's untruncated exploding dice
    /// weighs at most `tol` ([`chernoff_len`]): one die's value `V` has the generating
    /// function `E[z^V] = A(z)/(1 − E(z))`, with `A(z) = Σ zᶠ/s` over the faces that stop and
    /// `E(z)` the same over those that explode (a chain is a stopping face after exploding
    /// ones), converging while `E(z) < 1`. Penetrating dice count less, so the bound holds
    /// for them too. `None` when a part explodes on every face.
    pub(crate) fn exploding_total_len(&self, tol: f64) -> Option<usize> {
        let mut parts = Vec::new();
        let mut theta_max = f64::INFINITY;
        for part in &self.parts {
            let s = part.die.sides() as usize;
            let explodes: Vec<bool> = (0..s).map(|d| part.explode_test.digit(d as u64)).collect();
            let gf = move |theta: f64| -> (f64, f64) {
                let (mut a, mut e) = (0.0, 0.0);
                for (i, &x) in explodes.iter().enumerate() {
                    let z = exp(theta * (i + 1) as f64) / s as f64;
                    if x { e += z } else { a += z }
                }
                (a, e)
            };
            let (a0, e0) = gf(0.0);
            if a0 == 0.0 {
                return None;
            }
            if e0 > 0.0 {
                // The θ where E reaches 1, by bisection: E(θ) ≥ e0·e^θ, so below ln(1/e0).
                let (mut lo, mut hi) = (0.0, ln(1.0 / e0));
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    if gf(mid).1 < 1.0 { lo = mid } else { hi = mid }
                }
                theta_max = theta_max.min(hi);
            }
            parts.push((f64::from(part.count()), gf));
        }
        if !theta_max.is_finite() {
            theta_max = 1.0;
        }
        chernoff_len(
            |theta| {
                let mut k = 0.0;
                for (count, gf) in &parts {
                    let (a, e) = gf(theta);
                    if e >= 1.0 {
                        return f64::INFINITY;
                    }
                    k += count * (ln(a) - ln(1.0 - e));
                }
                k
            },
            theta_max,
            tol,
        )
    }
}

impl Pool {
    /// The exact law of the value of one die of `part` (explosions included), listing values
    /// until the unlisted mass is at most `tol` and at least up to `min_value`.
    pub(crate) fn value_law(
        &self,
        part: &PoolPart,
        tol: f64,
        min_value: usize,
    ) -> Result<ValueLaw, Error> {
        let s = part.die.sides() as usize;
        let Some(e) = self.explode else {
            return Ok(ValueLaw::uniform(s));
        };
        if e.mode.is_penetrating() {
            return crate::penetrate::value_law(part, e, tol, min_value);
        }
        let explodes: Vec<bool> = (0..s).map(|d| part.explode_test.digit(d as u64)).collect();
        let ne = explodes.iter().filter(|&&b| b).count();
        if ne == 0 {
            return Ok(ValueLaw::uniform(s));
        }
        let inv = 1.0 / s as f64;
        let p = ne as f64 * inv;
        // The capped law, when the cap can matter at f64 precision.
        if e.explicit_cap && (ne == s || powu(p, u64::from(e.cap)) > CAPPED_LISTING_TOLERANCE) {
            check_work(
                "a capped exploding die",
                f64::from(e.cap) * f64::from(e.cap) * (s * ne) as f64,
            )?;
            // law_0: the last roll, which does not explode.
            let mut law = vec![inv; s + 1];
            law[0] = 0.0;
            for _ in 0..e.cap {
                let mut next = vec![0.0; law.len() + s];
                for f in 1..=s {
                    if explodes[f - 1] {
                        for (x, &q) in law.iter().enumerate() {
                            next[x + f] += q * inv;
                        }
                    } else {
                        next[f] += inv;
                    }
                }
                law = next;
            }
            return Ok(ValueLaw::finite(law));
        }
        // Untruncated: f(x) = [x ≤ s, x does not explode]/s + Σ_{e explodes, e < x} f(x − e)/s,
        // and the tail T(x) = P(value > x) = Σ_{f > x, f stops}/s + Σ_{e explodes}
        // (e ≥ x ? 1 : T(x − e))/s, both sums of non-negative terms.
        // With an explicit cap that only matters beyond f64's range (p^cap ≤ 1e-300), the
        // capped law is the untruncated one listed until its survival underflows: a finite
        // law, so no tail is reported.
        let tol = if e.explicit_cap {
            CAPPED_LISTING_TOLERANCE
        } else {
            tol
        };
        let levels = if p >= 1.0 {
            f64::INFINITY
        } else {
            // Chain length L with p^L ≤ tol / 2.
            let mut l = 0.0;
            let mut pl = 1.0;
            while pl > tol * 0.5 && l < 1e7 {
                pl *= p;
                l += 1.0;
            }
            l
        };
        check_work(
            "an exploding die",
            ((levels + 1.0) * s as f64).max(min_value as f64) * ne as f64,
        )?;
        let mut f: Vec<f64> = vec![0.0];
        let mut t: Vec<f64> = vec![1.0];
        let mut x = 0usize;
        while t[x] > tol || x < min_value {
            x += 1;
            let mut fx = if x <= s && !explodes[x - 1] { inv } else { 0.0 };
            let mut tx = 0.0;
            for face in 1..=s {
                if explodes[face - 1] {
                    if face < x {
                        fx += f[x - face] * inv;
                        tx += t[x - face] * inv;
                    } else {
                        tx += inv;
                    }
                } else if face > x {
                    tx += inv;
                }
            }
            f.push(fx);
            t.push(tx);
        }
        let tail = if e.explicit_cap { 0.0 } else { t[x] };
        Ok(ValueLaw {
            law: crate::dist::Dense {
                offset: 0,
                p: f.clone(),
            }
            .trim(),
            tail,
            tailed: crate::dist::Tailed { f, s: t },
        })
    }
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use super::*;

    #[test]
    fn explode_round_trips_and_deserialising_checks_the_cap() {
        let on = Comparison::Exactly(6);
        for e in [
            Explode::new(on),
            Explode::compounding(on).with_cap(3).unwrap(),
            Explode::penetrating(on)
                .with_cap(MAX_EXPLOSION_CAP)
                .unwrap(),
        ] {
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(serde_json::from_str::<Explode>(&json).unwrap(), e, "{json}");
        }
        // The serialised form is the four fields: edit them past the constructors' limits.
        let good = serde_json::to_value(Explode::new(on).with_cap(5).unwrap()).unwrap();
        let with = |cap: u32, explicit: bool| {
            let mut v = good.clone();
            v["cap"] = cap.into();
            v["explicit_cap"] = explicit.into();
            serde_json::from_value::<Explode>(v)
        };
        assert_eq!(with(5, true).unwrap().cap(), 5);
        assert_eq!(
            with(DEFAULT_EXPLOSION_CAP, false).unwrap(),
            Explode::new(on)
        );
        for (cap, explicit) in [
            (0, true),
            (MAX_EXPLOSION_CAP + 1, true),
            (u32::MAX, true),
            (7, false),
            (u32::MAX, false),
        ] {
            let err = with(cap, explicit).unwrap_err().to_string();
            assert!(
                err.contains(&format!("cap {cap} is outside")),
                "{cap}: {err}"
            );
        }
    }
}
