//! Chained opposition (L2129) and related programs (L1471–1485).

use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll};

use crate::error::Error;
use crate::test::{Opposition, Test, check_dice, count_faces};

/// The most robots in a chain of opposition.
pub const MAX_CHAIN: usize = 16;

/// A Test opposed by a chain of robots (L2129): "the opposer of the acting robot's test has
/// the successes from his roll canceled by his own opposer before using any remaining
/// successes to cancel those of the initially acting robot". The first opposer opposes the
/// actor, the second opposes the first, and so on; an opposer's successes never go below 0.
/// An opposer with a Difficulty of its own ([`Opposition::with_difficulty`], a parrying
/// weapon's, L2366) loses that many successes as well before it cancels the next one down.
/// The actor may not oppose its own opposer (L2129): the chain holds other robots.
///
/// An opposition already on the actor's [`Test`] ([`Test::opposed_by`]) is the first
/// opposer, and `chain` continues from it: "In any opposed roll, the Successes earned by
/// each side cancel out" (L203–204), so it is never dropped. With an empty `chain` the
/// law is the Test's own.
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{ChainedTest, Opposition, Test};
/// let t = ChainedTest::new(Test::new(5, 5)?, vec![Opposition::new(5, 5)?, Opposition::new(3, 6)?])?;
/// // Actor 3, first opposer 4, its opposer 2: 3 − (4 − 2) = 1.
/// assert_eq!(t.resolve(&[1, 2, 3, 9, 9], &[&[1, 2, 3, 4, 9], &[1, 2, 9]])?, 1);
/// assert!((t.distribution()?.total() - 1.0).abs() < 1e-12);
/// // The same chain, its first opposer given on the Test.
/// let u = ChainedTest::new(Test::new(5, 5)?.opposed_by(Opposition::new(5, 5)?), vec![Opposition::new(3, 6)?])?;
/// assert_eq!(u.opposers(), t.opposers());
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainedTest {
    actor: Test,
    chain: Vec<Opposition>,
}

impl ChainedTest {
    /// The actor's Test, with its Difficulty (and its opposition, if any, as the first
    /// opposer), against a chain of opposers.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a chain longer than [`MAX_CHAIN`] (counting the Test's own
    /// opposition).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ChainedTest, Test};
    /// assert!(ChainedTest::new(Test::new(3, 5)?, vec![]).is_ok());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(actor: Test, chain: Vec<Opposition>) -> Result<Self, Error> {
        let own = actor.opposition().copied();
        let len = chain.len() + usize::from(own.is_some());
        if len > MAX_CHAIN {
            return Err(Error::OutOfRange {
                what: "a chain of opposition",
                value: len as i64,
                min: 0,
                max: MAX_CHAIN as i64,
            });
        }
        let chain = own.into_iter().chain(chain).collect();
        Ok(ChainedTest {
            actor: actor.unopposed(),
            chain,
        })
    }

    /// The opposers in order: the actor's opposer first, then its opposer, and so on.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ChainedTest, Opposition, Test};
    /// let t = ChainedTest::new(Test::new(3, 5)?.opposed_by(Opposition::new(2, 4)?), vec![])?;
    /// assert_eq!(t.opposers(), &[Opposition::new(2, 4)?]);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn opposers(&self) -> &[Opposition] {
        &self.chain
    }

    /// The successes left to the first opposer after the rest of the chain cancels them.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::ChainedTest::remaining(&[4, 2, 3]), 4);
    /// assert_eq!(dice_robots_and_rapiers::ChainedTest::remaining(&[4, 5]), 0);
    /// ```
    pub fn remaining(successes: &[u32]) -> u32 {
        successes
            .iter()
            .rev()
            .fold(0u32, |later, &s| s.saturating_sub(later))
    }

    /// The pure form: the actor's faces and each opposer's faces (in the order of
    /// [`ChainedTest::opposers`]); returns the net.
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::DiceCount`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ChainedTest, Opposition, Test};
    /// let t = ChainedTest::new(Test::new(1, 5)?, vec![Opposition::new(1, 5)?])?;
    /// assert_eq!(t.resolve(&[3], &[&[4]])?, 0);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve(&self, actor: &[u8], chain: &[&[u8]]) -> Result<i64, Error> {
        let mine = count_faces("the acting Test", actor, self.actor.dice(), self.actor.tn())?;
        if chain.len() != self.chain.len() {
            return Err(Error::DiceCount {
                what: "a chain of opposition (rolls)",
                expected: self.chain.len(),
                got: chain.len(),
            });
        }
        let mut counts = Vec::with_capacity(chain.len());
        for (o, f) in self.chain.iter().zip(chain) {
            counts.push(count_faces("an opposing roll", f, o.dice(), o.tn())?);
        }
        Ok(dice_core::cancel(
            mine,
            self.remaining_after_difficulties(&counts),
            self.actor.difficulty(),
        ))
    }

    /// [`ChainedTest::remaining`] with each opposer's own Difficulty taken from its
    /// successes first.
    fn remaining_after_difficulties(&self, successes: &[u32]) -> u32 {
        successes
            .iter()
            .zip(&self.chain)
            .rev()
            .fold(0u32, |later, (&s, o)| {
                o.successes_left(s).saturating_sub(later)
            })
    }
}

impl Roll for ChainedTest {
    /// Net successes of the actor.
    type Outcome = i64;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let mine = self.actor.cancellation().actor().count(rng);
        let mut counts = [0u32; MAX_CHAIN];
        for (c, o) in counts.iter_mut().zip(&self.chain) {
            *c = o.pool().count(rng);
        }
        dice_core::cancel(
            mine,
            self.remaining_after_difficulties(&counts[..self.chain.len()]),
            self.actor.difficulty(),
        )
    }
}

impl Exact for ChainedTest {
    /// Folds the chain from its far end with [`Dist::difference`], flooring each opposer at
    /// 0 (its own Difficulty taken first), then subtracts the remainder (and the Difficulty)
    /// from the actor's law.
    fn distribution(&self) -> Result<Dist<i64>, dice_core::Error> {
        let mut remaining: Dist<i64> = Dist::certain(0);
        for o in self.chain.iter().rev() {
            let law = o.pool().distribution()?.map(|&s| o.successes_left(s));
            remaining = law.difference(&remaining).map(|&x| x.max(0));
        }
        let mine = self.actor.cancellation().actor().distribution()?;
        Ok(mine
            .difference(&remaining)
            .shift(-i64::from(self.actor.difficulty())))
    }
}

impl fmt::Display for ChainedTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.actor)?;
        for o in &self.chain {
            write!(f, " ← opposed by {o}")?;
        }
        Ok(())
    }
}

/// Related programs (L1471–1479, L1485): each roll "accomplishes nothing by itself, it
/// just augments" the next — all its net successes (A4: an augmenting roll) become bonus
/// dice of the next roll in the series, down to the main roll (which may have 0 own dice).
/// Any roll of the series may be opposed ([`Test::opposed_by`]) or have a Difficulty; its
/// successes are "canceled before effects are applied" (L1405), so only its net rolls
/// over. [`RelatedPrograms::resolve_opposed`], [`Roll::roll`] and [`Exact::distribution`]
/// all follow this.
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{RelatedPrograms, Test};
/// // E8 (L1481–1483): Juliard's Fencing 8d10 vs Memory 4 with Difficulty 1, rolled into a
/// // haggle with no dice of its own (Core Social withheld) vs Processor 5.
/// let haggle = RelatedPrograms::new(vec![Test::new(8, 4)?.with_difficulty(1)?], Test::new(0, 5)?)?;
/// assert_eq!(haggle.resolve(&[&[1, 2, 3, 4, 7, 8, 9, 10], &[2, 6, 5]])?, 2);
/// let law = haggle.distribution()?;
/// assert!((law.total() - 1.0).abs() < 1e-12);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelatedPrograms {
    steps: Vec<Test>,
    main: Test,
}

impl RelatedPrograms {
    /// A series of augmenting rolls ending in the main roll.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for more than [`MAX_CHAIN`] steps; [`Error::TooManyDice`] if
    /// the bonuses could push a pool past [`crate::MAX_POOL`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{RelatedPrograms, Test};
    /// assert!(RelatedPrograms::new(vec![], Test::new(3, 5)?).is_ok());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(steps: Vec<Test>, main: Test) -> Result<Self, Error> {
        if steps.len() > MAX_CHAIN {
            return Err(Error::OutOfRange {
                what: "a series of related programs",
                value: steps.len() as i64,
                min: 0,
                max: MAX_CHAIN as i64,
            });
        }
        let mut most = 0u32;
        for s in steps.iter().chain(std::iter::once(&main)) {
            most = check_dice(most.saturating_add(s.dice()))?;
        }
        Ok(RelatedPrograms { steps, main })
    }

    /// A series of aiming Tests rolled over into a shot (L2290–2294): "a series of aiming
    /// Tests can augment each other daisy-chain fashion (serial) with the last test
    /// augmenting the shot. Each successive Aiming Test has a cumulative +1 Difficulty" —
    /// read as +0 on the first aiming Test, +1 on the second, +2 on the third, … added to
    /// each Test's own Difficulty — and "the … Difficulty Penalty for successive Aiming
    /// Tests can be avoided if the weapon is braced" (`braced`: no added Difficulty; the
    /// Fine Motor Sensitive penalty dice, L2294, are the caller's pool). Aiming Tests in
    /// parallel on one shot are not allowed (L2292), so there is no parallel form.
    ///
    /// # Errors
    /// As [`RelatedPrograms::new`]; [`Error::OutOfRange`] if a Difficulty would pass
    /// [`crate::MAX_POOL`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{RelatedPrograms, Test};
    /// let aim = Test::new(4, 5)?; // Firearms vs Processor (L2287)
    /// let shot = Test::new(4, 6)?; // the shot vs Perception
    /// let chain = RelatedPrograms::aiming(vec![aim.clone(), aim.clone(), aim.clone()], shot.clone(), false)?;
    /// let d: Vec<u32> = chain.steps().iter().map(Test::difficulty).collect();
    /// assert_eq!(d, [0, 1, 2]);
    /// let braced = RelatedPrograms::aiming(vec![aim.clone(), aim], shot, true)?;
    /// assert!(braced.steps().iter().all(|t| t.difficulty() == 0));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn aiming(aims: Vec<Test>, shot: Test, braced: bool) -> Result<Self, Error> {
        let mut steps = Vec::with_capacity(aims.len());
        for (i, aim) in aims.into_iter().enumerate() {
            if braced || i == 0 {
                steps.push(aim);
            } else {
                let added = u32::try_from(i).unwrap_or(u32::MAX);
                let d = aim.difficulty().saturating_add(added);
                steps.push(aim.with_difficulty(d)?);
            }
        }
        Self::new(steps, shot)
    }

    /// The augmenting rolls, in order (without their bonus dice).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{RelatedPrograms, Test};
    /// assert_eq!(RelatedPrograms::new(vec![Test::new(2, 5)?], Test::new(1, 5)?)?.steps().len(), 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn steps(&self) -> &[Test] {
        &self.steps
    }

    /// The main roll (without its bonus dice).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{RelatedPrograms, Test};
    /// assert_eq!(RelatedPrograms::new(vec![], Test::new(1, 5)?)?.main().dice(), 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn main(&self) -> &Test {
        &self.main
    }

    fn with_bonus(t: &Test, bonus: u32) -> Test {
        let mut b = Test::new(t.dice() + bonus, t.tn() - i32::from(t.is_exerted()))
            .and_then(|x| x.with_difficulty(t.difficulty()))
            .unwrap_or_else(|_| t.clone());
        if t.is_exerted() {
            b = b.exerted();
        }
        match t.opposition() {
            Some(o) => b.opposed_by(*o),
            None => b,
        }
    }

    /// The pure form of a series with no opposed roll: the faces of every step and then the
    /// main roll (each including its bonus dice). Returns the main roll's net.
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::DiceCount`] when a roll has the wrong number of faces
    /// (its own dice plus the previous roll's net successes), or when a roll is opposed:
    /// its successes are "canceled before effects are applied" (L1405), so use
    /// [`RelatedPrograms::resolve_opposed`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Opposition, RelatedPrograms, Test};
    /// let r = RelatedPrograms::new(vec![Test::new(2, 5)?], Test::new(1, 5)?)?;
    /// assert!(r.resolve(&[&[1, 9], &[1]]).is_err()); // 1 bonus die: the main roll has 2
    /// let opposed = RelatedPrograms::new(vec![], Test::new(1, 5)?.opposed_by(Opposition::new(1, 5)?))?;
    /// assert!(opposed.resolve(&[&[3]]).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[&[u8]]) -> Result<i64, Error> {
        self.resolve_opposed(faces, &vec![None; faces.len()])
    }

    /// The pure form: the faces of every step and then the main roll (each including its
    /// bonus dice), and for each of these rolls the opposing faces (`Some` exactly for the
    /// rolls whose [`Test`] is opposed). Each roll's net — after its opposition and
    /// Difficulty, "canceled before effects are applied" (L1405) — is what rolls over
    /// (floored at 0); the main roll's net is returned. This is the law of
    /// [`Exact::distribution`] and [`Roll::roll`].
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::DiceCount`] when a roll has the wrong number of faces, when
    /// `opposing` does not have one entry per roll, or when an entry is missing for an
    /// opposed roll (or given for an unopposed one).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Opposition, RelatedPrograms, Test};
    /// // Intimidate rolled into Command (bandits), which the bandit chief opposes (L1473).
    /// let r = RelatedPrograms::new(
    ///     vec![Test::new(4, 6)?],
    ///     Test::new(0, 5)?.opposed_by(Opposition::new(2, 5)?),
    /// )?;
    /// // 3 successes roll over; the main roll's 3 dice make 2 and the chief 1: net 1.
    /// assert_eq!(r.resolve_opposed(&[&[1, 4, 6, 9], &[2, 5, 8]], &[None, Some(&[3, 7])])?, 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve_opposed(
        &self,
        faces: &[&[u8]],
        opposing: &[Option<&[u8]>],
    ) -> Result<i64, Error> {
        let rolls = self.steps.len() + 1;
        if faces.len() != rolls {
            return Err(Error::DiceCount {
                what: "related programs (rolls)",
                expected: rolls,
                got: faces.len(),
            });
        }
        if opposing.len() != rolls {
            return Err(Error::DiceCount {
                what: "related programs (opposing entries, one per roll)",
                expected: rolls,
                got: opposing.len(),
            });
        }
        let mut bonus = 0u32;
        let mut net = 0i64;
        for (i, t) in self
            .steps
            .iter()
            .chain(std::iter::once(&self.main))
            .enumerate()
        {
            let t = Self::with_bonus(t, bonus);
            let roll = match opposing[i] {
                Some(o) => t.resolve_opposed(faces[i], o)?,
                None => t.resolve(faces[i])?,
            };
            net = roll.net;
            bonus = net.clamp(0, i64::from(u32::MAX)) as u32;
        }
        Ok(net)
    }
}

impl Roll for RelatedPrograms {
    /// The main roll's net successes.
    type Outcome = i64;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let mut bonus = 0u32;
        for t in &self.steps {
            bonus = Self::with_bonus(t, bonus).roll(rng).max(0) as u32;
        }
        Self::with_bonus(&self.main, bonus).roll(rng)
    }
}

impl Exact for RelatedPrograms {
    /// The law of the bonus carried forward, step by step: a mixture of the next roll's
    /// laws over the bonus dice.
    fn distribution(&self) -> Result<Dist<i64>, dice_core::Error> {
        let mut bonus: Dist<u32> = Dist::certain(0);
        for t in &self.steps {
            bonus = bonus.and_then(|&k| {
                Ok(Self::with_bonus(t, k)
                    .distribution()?
                    .map(|&n| n.max(0) as u32))
            })?;
        }
        bonus.and_then(|&k| Self::with_bonus(&self.main, k).distribution())
    }
}

impl fmt::Display for RelatedPrograms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.steps {
            write!(f, "{s} → ")?;
        }
        write!(f, "{}", self.main)
    }
}
