//! Tests: the core d10 pool against an attribute (digest §1; rulebook L180–228, L1369–1531).
//!
//! A [`Test`] is `dice` d10s against a TN: each die at or under the TN is a success (A1);
//! an opposing roll's successes and a Difficulty cancel them (L203–206), and the net is what
//! the roller spends ([`crate::Ledger`]). The pool comes from [`Dice`] (Program + linked Core,
//! the Core alone, or nothing) plus bonus dice ([`ExtraTime`], roll-overs) less penalty dice
//! ([`crate::Sensitivity`]), never below 0 (A53).

use std::fmt;

use dice_core::{
    Cancellation, Comparison, Die, Dist, Exact, Pool, Rng, Roll, RollDetailed, RollRecord,
    SuccessPool, cancel,
};

use crate::attribute::{InspirationCase, Program};
use crate::error::Error;
use crate::ledger::Ledger;
use crate::rules::Rules;

/// The most dice a Test pool may hold: far beyond any robot (a starting robot rolls at most
/// 5 + 8 + bonuses), small enough that every exact law is instant.
pub const MAX_POOL: u32 = 1000;

/// The sane range of a Target Number or a TN modifier: anything at or below 0 is impossible
/// and anything at or above 10 automatic (A7), so ±[`MAX_TN`] is plenty.
pub const MAX_TN: i32 = 100;

pub(crate) fn check_dice(dice: u32) -> Result<u32, Error> {
    if dice > MAX_POOL {
        return Err(Error::TooManyDice {
            dice,
            max: MAX_POOL,
        });
    }
    Ok(dice)
}

pub(crate) fn check_tn(what: &'static str, tn: i32) -> Result<i32, Error> {
    if !(-MAX_TN..=MAX_TN).contains(&tn) {
        return Err(Error::OutOfRange {
            what,
            value: i64::from(tn),
            min: i64::from(-MAX_TN),
            max: i64::from(MAX_TN),
        });
    }
    Ok(tn)
}

pub(crate) fn check_face(face: u8) -> Result<u8, Error> {
    if !(1..=10).contains(&face) {
        return Err(Error::Face { face });
    }
    Ok(face)
}

/// The chance one d10 succeeds against `tn`: `clamp(tn, 0, 10) / 10` (A1, A7).
///
/// ```
/// use dice_robots_and_rapiers::success_chance;
/// assert_eq!(success_chance(7), 0.7);
/// assert_eq!(success_chance(-2), 0.0);
/// assert_eq!(success_chance(12), 1.0);
/// ```
pub fn success_chance(tn: i32) -> f64 {
    f64::from(tn.clamp(0, 10)) / 10.0
}

/// Whether a d10 face is a success against `tn`: "equal to or less than the Target Number"
/// (L195; A1).
///
/// ```
/// use dice_robots_and_rapiers::is_success;
/// assert!(is_success(5, 5));
/// assert!(!is_success(6, 5));
/// assert!(!is_success(1, 0)); // TN 0: "impossible" (L253)
/// ```
pub fn is_success(face: u8, tn: i32) -> bool {
    i32::from(face) <= tn
}

/// A d10 success pool against a TN, as dice-core sees it.
pub(crate) fn pool(dice: u32, tn: i32) -> Result<SuccessPool, Error> {
    Ok(SuccessPool::new(
        Pool::new(dice, Die::D10)?,
        Comparison::AtMost(tn.clamp(0, 10)),
    ))
}

/// Where a Test's base dice come from (L187–189, L1434–1438; digest §1.1, §1.6).
///
/// ```
/// use dice_robots_and_rapiers::Dice;
/// // E3 (L1418): "Fencing (rapier) Program at Level 3 … Core Physical … at level 5 …
/// // rolling 8 d10".
/// assert_eq!(Dice::Program { program: 3, core: 5 }.base(), Some(8));
/// // L1440: Burgiss rolls "just … Core Social (genteel) dice".
/// assert_eq!(Dice::CoreDefault { core: 4 }.base(), Some(4));
/// // L1442: Alfredo "is stuck with no dice to roll".
/// assert_eq!(Dice::Unrelated.base(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Dice {
    /// The robot has the program: Program level + linked Core level (L769).
    Program {
        /// The Role Program's level (of the specialty used).
        program: u8,
        /// The linked Core Program's level.
        core: u8,
    },
    /// No program, but the action is "reasonably related to the robot's actual role": the
    /// Core the GM deems suitable, alone (L188, L1437).
    CoreDefault {
        /// That Core's level.
        core: u8,
    },
    /// No program and not related to the role: "The player gets no dice to roll" (L1438). A
    /// Sparked robot may make an [`InspirationRoll`] instead.
    Unrelated,
}

impl Dice {
    /// The base number of dice, or `None` when the robot cannot roll at all.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Dice::Program { program: 0, core: 3 }.base(), Some(3));
    /// ```
    pub fn base(self) -> Option<u32> {
        match self {
            Dice::Program { program, core } => Some(u32::from(program) + u32::from(core)),
            Dice::CoreDefault { core } => Some(u32::from(core)),
            Dice::Unrelated => None,
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dice::Program { program, core } => {
                write!(f, "Program {program} + Core {core} = {}d10", program + core)
            }
            Dice::CoreDefault { core } => write!(f, "Core {core} alone = {core}d10"),
            Dice::Unrelated => f.write_str("no dice (not related to the role)"),
        }
    }
}

/// The pool after bonus and penalty dice: `max(0, base + bonus + modifiers)` (A53: the
/// text never orders them or gives a floor; the ruling sums them and floors at 0).
/// `modifiers` are signed sensitivity and equipment dice.
///
/// ```
/// use dice_robots_and_rapiers::pool_size;
/// assert_eq!(pool_size(8, 2, &[-1, -3]), 6);
/// assert_eq!(pool_size(2, 0, &[-3]), 0);
/// ```
pub fn pool_size(base: u32, bonus: u32, modifiers: &[i32]) -> u32 {
    let m: i64 = modifiers.iter().map(|&d| i64::from(d)).sum();
    let total = i64::from(base) + i64::from(bonus) + m;
    total.clamp(0, i64::from(u32::MAX)) as u32
}

/// Taking Extra Time: "a quick and dirty way" to add dice (L1487–1501).
///
/// ```
/// use dice_robots_and_rapiers::ExtraTime;
/// assert_eq!(ExtraTime::Plus100.bonus_dice(), 3);
/// assert_eq!(ExtraTime::from_percent(400), Some(ExtraTime::Plus400));
/// assert_eq!(ExtraTime::from_percent(30), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ExtraTime {
    /// +25% time: +1 die.
    Plus25,
    /// +50% time: +2 dice.
    Plus50,
    /// +100% time: +3 dice.
    Plus100,
    /// +200% time: +4 dice.
    Plus200,
    /// +400% time: +5 dice.
    Plus400,
}

impl ExtraTime {
    /// The table's rows in order.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::ExtraTime::ALL.len(), 5);
    /// ```
    pub const ALL: [ExtraTime; 5] = [
        ExtraTime::Plus25,
        ExtraTime::Plus50,
        ExtraTime::Plus100,
        ExtraTime::Plus200,
        ExtraTime::Plus400,
    ];

    /// The time increase in percent.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::ExtraTime::Plus200.percent(), 200);
    /// ```
    pub const fn percent(self) -> u32 {
        match self {
            ExtraTime::Plus25 => 25,
            ExtraTime::Plus50 => 50,
            ExtraTime::Plus100 => 100,
            ExtraTime::Plus200 => 200,
            ExtraTime::Plus400 => 400,
        }
    }

    /// The bonus dice.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::ExtraTime::Plus25.bonus_dice(), 1);
    /// ```
    pub const fn bonus_dice(self) -> u32 {
        match self {
            ExtraTime::Plus25 => 1,
            ExtraTime::Plus50 => 2,
            ExtraTime::Plus100 => 3,
            ExtraTime::Plus200 => 4,
            ExtraTime::Plus400 => 5,
        }
    }

    /// The row for an exact percentage; the table has no intermediate rows.
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::ExtraTime::from_percent(50).is_some());
    /// ```
    pub fn from_percent(percent: u32) -> Option<ExtraTime> {
        ExtraTime::ALL.into_iter().find(|e| e.percent() == percent)
    }
}

impl fmt::Display for ExtraTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{}% time (+{} dice)", self.percent(), self.bonus_dice())
    }
}

/// An opposing roll: another robot's (or the environment's) dice against its own TN
/// (L203–204, L2483), with the Difficulty of its own roll, if any: a parry with a heavy
/// weapon carries the weapon's Difficulty, "additional fixed Difficulty to all rolls made
/// with the weapon that involve the weapon being employed aggressively or defensively"
/// (L2366). That Difficulty cancels the opposing roll's own successes first (automatic
/// opposed successes, L205; as an opposer's opposer does, L2129), never below 0; what is
/// left cancels the actor's.
///
/// ```
/// use dice_robots_and_rapiers::{MeleeWeapon, Opposition};
/// let o = Opposition::new(6, 5)?;
/// assert_eq!((o.dice(), o.tn(), o.difficulty()), (6, 5, 0));
/// assert_eq!(o.to_string(), "6d10 vs TN 5");
/// // Parrying with a Mono Great Sword: Difficulty 3 on the parry (L2354, L2366).
/// let parry = o.with_difficulty(MeleeWeapon::MonoGreatSword.difficulty())?;
/// assert_eq!(parry.to_string(), "6d10 vs TN 5 (Difficulty 3)");
/// assert_eq!((parry.successes_left(5), parry.successes_left(2)), (2, 0));
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Opposition {
    dice: u32,
    tn: i32,
    #[cfg_attr(feature = "serde", serde(default))]
    difficulty: u32,
}

impl Opposition {
    /// `dice` d10s against `tn`.
    ///
    /// # Errors
    /// [`Error::TooManyDice`] above [`MAX_POOL`]; [`Error::OutOfRange`] for a TN beyond
    /// ±[`MAX_TN`].
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::Opposition::new(2000, 5).is_err());
    /// ```
    pub fn new(dice: u32, tn: i32) -> Result<Self, Error> {
        Ok(Opposition {
            dice: check_dice(dice)?,
            tn: check_tn("an opposing TN", tn)?,
            difficulty: 0,
        })
    }
    /// The same opposing roll with a Difficulty of its own (L2366: the parrying weapon's;
    /// L205: automatic successes against it). Replaces any Difficulty set before.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] above [`MAX_POOL`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::Opposition;
    /// assert_eq!(Opposition::new(3, 4)?.with_difficulty(2)?.difficulty(), 2);
    /// assert!(Opposition::new(3, 4)?.with_difficulty(5000).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn with_difficulty(self, difficulty: u32) -> Result<Self, Error> {
        if difficulty > MAX_POOL {
            return Err(Error::OutOfRange {
                what: "an opposing roll's Difficulty",
                value: i64::from(difficulty),
                min: 0,
                max: i64::from(MAX_POOL),
            });
        }
        Ok(Opposition { difficulty, ..self })
    }
    /// The opposing roll's own Difficulty (0 unless set by
    /// [`Opposition::with_difficulty`]).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Opposition::new(3, 4)?.difficulty(), 0);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn difficulty(&self) -> u32 {
        self.difficulty
    }
    /// The opposing successes left to cancel the actor's once the roll's own Difficulty has
    /// cancelled its share: `successes − Difficulty`, at least 0.
    ///
    /// ```
    /// let o = dice_robots_and_rapiers::Opposition::new(3, 4)?.with_difficulty(1)?;
    /// assert_eq!((o.successes_left(3), o.successes_left(0)), (2, 0));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn successes_left(&self, successes: u32) -> u32 {
        successes.saturating_sub(self.difficulty)
    }
    /// The opposing dice.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Opposition::new(3, 4)?.dice(), 3);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn dice(&self) -> u32 {
        self.dice
    }
    /// The opposing TN.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Opposition::new(3, 4)?.tn(), 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn tn(&self) -> i32 {
        self.tn
    }
    /// The law of the opposing successes (binomial), before the roll's own Difficulty
    /// ([`Opposition::successes_left`]).
    ///
    /// ```
    /// let d = dice_robots_and_rapiers::Opposition::new(2, 5)?.successes_distribution()?;
    /// assert!((d.probability(&1) - 0.5).abs() < 1e-15);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    ///
    /// # Errors
    /// None in practice (the pool was checked when built).
    pub fn successes_distribution(&self) -> Result<Dist<u32>, Error> {
        Ok(pool(self.dice, self.tn)?.distribution()?)
    }
    pub(crate) fn pool(&self) -> SuccessPool {
        // Checked in `new`.
        pool(self.dice, self.tn).unwrap_or_else(|_| {
            SuccessPool::new(Pool::empty(), Comparison::AtMost(self.tn.clamp(0, 10)))
        })
    }
}

impl fmt::Display for Opposition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d10 vs TN {}", self.dice, self.tn)?;
        if self.difficulty > 0 {
            write!(f, " (Difficulty {})", self.difficulty)?;
        }
        Ok(())
    }
}

/// Who won an opposed or Difficulty-ridden Test (L203–207, L1505–1507).
///
/// ```
/// use dice_robots_and_rapiers::TestResult;
/// assert_eq!(TestResult::from_net(2), TestResult::Won(2));
/// assert_eq!(TestResult::from_net(0), TestResult::Tie);
/// assert_eq!(TestResult::from_net(-1), TestResult::Lost(1));
/// assert!(!TestResult::Tie.accomplished());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TestResult {
    /// The opposition has this many net successes left (it "wins" when it rolled).
    Lost(u32),
    /// Net zero: "neither side has technically won. However, in many situations where one
    /// party is merely trying to prevent the other from succeeding, a tie is sufficient"
    /// (L1507). Unopposed with Difficulty, net 0 is simply a failure.
    Tie,
    /// The actor's net successes, at least 1: the action is accomplished (L196).
    Won(u32),
}

impl TestResult {
    /// From net successes (actor − opposition − Difficulty).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::TestResult::from_net(5).net(), 5);
    /// ```
    pub fn from_net(net: i64) -> TestResult {
        match net {
            n if n > 0 => TestResult::Won(n.min(i64::from(u32::MAX)) as u32),
            0 => TestResult::Tie,
            n => TestResult::Lost(n.unsigned_abs().min(u64::from(u32::MAX)) as u32),
        }
    }
    /// The signed net.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::TestResult::Lost(2).net(), -2);
    /// ```
    pub fn net(self) -> i64 {
        match self {
            TestResult::Won(n) => i64::from(n),
            TestResult::Tie => 0,
            TestResult::Lost(n) => -i64::from(n),
        }
    }
    /// Whether the actor accomplished the action (at least 1 net success, L196).
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::TestResult::Won(1).accomplished());
    /// ```
    pub fn accomplished(self) -> bool {
        matches!(self, TestResult::Won(_))
    }
}

impl fmt::Display for TestResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TestResult::Won(n) => write!(f, "won by {n}"),
            TestResult::Tie => f.write_str("tie"),
            TestResult::Lost(n) => write!(f, "lost by {n}"),
        }
    }
}

/// A Test (L1379, L1393–1416): `dice` d10s against a TN, with an optional opposing roll
/// and a Difficulty ("automatic opposed Successes", L205); +1 TN for 1 Power (Exertion,
/// L1465–1467). Built on dice-core's [`Cancellation`]; its [`Roll`] outcome is the net
/// successes and [`Exact`] gives their law.
///
/// A TN at or below 0 makes every die fail (L253, "impossible"); at 10 or more every die
/// succeeds (A7).
///
/// ```
/// use dice_core::{Exact, Roll};
/// use dice_robots_and_rapiers::{Opposition, Test};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // Juliard's 8 dice (E3) vs Articulation 6, parried by 7 dice vs Locomotion 5.
/// let attack = Test::new(8, 6)?.opposed_by(Opposition::new(7, 5)?);
/// let law = attack.distribution()?;
/// assert!((law.total() - 1.0).abs() < 1e-12);
/// let net = attack.roll(&mut Xoshiro256PlusPlus::seed_from_u64(1));
/// assert!((-7..=8).contains(&net));
/// println!("{}", attack.roll_test(&mut Xoshiro256PlusPlus::seed_from_u64(1)));
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    dice: u32,
    tn: i32,
    exerted: bool,
    difficulty: u32,
    opposition: Option<Opposition>,
    mechanic: Cancellation,
}

impl Test {
    /// `dice` d10s against `tn`, unopposed, Difficulty 0.
    ///
    /// # Errors
    /// [`Error::TooManyDice`] above [`MAX_POOL`]; [`Error::OutOfRange`] for a TN beyond
    /// ±[`MAX_TN`].
    ///
    /// ```
    /// let t = dice_robots_and_rapiers::Test::new(8, 7)?;
    /// assert_eq!((t.dice(), t.tn()), (8, 7));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(dice: u32, tn: i32) -> Result<Self, Error> {
        let dice = check_dice(dice)?;
        let tn = check_tn("a Test's TN", tn)?;
        Self::build(dice, tn, false, 0, None)
    }

    /// A Test whose pool comes from [`Dice`], `bonus` dice and signed `modifiers`
    /// ([`pool_size`]).
    ///
    /// # Errors
    /// [`Error::NoDice`] when the robot has no dice for the action ([`Dice::Unrelated`]);
    /// otherwise as [`Test::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, ExtraTime, Test};
    /// let t = Test::from_dice(Dice::Program { program: 3, core: 5 }, ExtraTime::Plus50.bonus_dice(), &[-1], 6)?;
    /// assert_eq!(t.dice(), 9);
    /// assert!(Test::from_dice(Dice::Unrelated, 0, &[], 6).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn from_dice(dice: Dice, bonus: u32, modifiers: &[i32], tn: i32) -> Result<Self, Error> {
        let base = dice.base().ok_or(Error::NoDice)?;
        Self::new(pool_size(base, bonus, modifiers), tn)
    }

    fn build(
        dice: u32,
        tn: i32,
        exerted: bool,
        difficulty: u32,
        opposition: Option<Opposition>,
    ) -> Result<Self, Error> {
        let effective = tn + i32::from(exerted);
        let mechanic = Cancellation::new(
            pool(dice, effective)?,
            opposition.map(|o| o.pool()),
            difficulty,
        )?;
        Ok(Test {
            dice,
            tn,
            exerted,
            difficulty,
            opposition,
            mechanic,
        })
    }

    /// The same Test with a Difficulty: automatic opposing successes (L205, L1509–1517).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] above [`MAX_POOL`].
    ///
    /// ```
    /// // E9 (L1519): Navigation 6 dice vs Processor 5 with Difficulty 3.
    /// let t = dice_robots_and_rapiers::Test::new(6, 5)?.with_difficulty(3)?;
    /// assert_eq!(t.successes_needed(), 4); // "will need at least 4 successes"
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn with_difficulty(self, difficulty: u32) -> Result<Self, Error> {
        if difficulty > MAX_POOL {
            return Err(Error::OutOfRange {
                what: "a Difficulty",
                value: i64::from(difficulty),
                min: 0,
                max: i64::from(MAX_POOL),
            });
        }
        Self::build(
            self.dice,
            self.tn,
            self.exerted,
            difficulty,
            self.opposition,
        )
    }

    /// The same Test opposed by another roll (L203–204, L1505).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Opposition, Test};
    /// let t = Test::new(5, 5)?.opposed_by(Opposition::new(4, 6)?);
    /// assert_eq!(t.opposition().unwrap().dice(), 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn opposed_by(self, opposition: Opposition) -> Self {
        // Both parts were checked; rebuilding cannot fail.
        let mechanic = Cancellation::new(
            self.mechanic.actor().clone(),
            Some(opposition.pool()),
            self.difficulty,
        )
        .unwrap_or_else(|_| self.mechanic.clone());
        Test {
            opposition: Some(opposition),
            mechanic,
            ..self
        }
    }

    /// The same Test with Exertion: +1 TN for 1 Power, "(and only 1)" (L1465–1467): calling
    /// it twice still adds 1. The Power is the caller's to deduct ([`Test::is_exerted`] says
    /// whether it is owed).
    ///
    /// At a TN of 0 or less Exertion does nothing: the attribute has lost its use, "Tests
    /// rolled against it have a Target Number of 0 and are thus impossible" (L253) "until it
    /// is restored to at least an effective score of 1" (L1786) — Exertion raises a TN, it
    /// does not restore the attribute. The Test stays impossible and unexerted.
    ///
    /// ```
    /// // E7 (L1469): "he decides to spend a point of Power to boost the TN to 8".
    /// let t = dice_robots_and_rapiers::Test::new(8, 7)?.exerted().exerted();
    /// assert_eq!(t.tn(), 8);
    /// let dead = dice_robots_and_rapiers::Test::new(8, 0)?.exerted();
    /// assert_eq!((dead.tn(), dead.is_exerted()), (0, false));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn exerted(self) -> Self {
        if self.exerted || self.tn <= 0 {
            return self;
        }
        Self::build(self.dice, self.tn, true, self.difficulty, self.opposition).unwrap_or(self)
    }

    /// The same Test without its opposing roll (Difficulty and Exertion kept).
    pub(crate) fn unopposed(&self) -> Test {
        Self::build(self.dice, self.tn, self.exerted, self.difficulty, None)
            .unwrap_or_else(|_| self.clone())
    }

    /// The number of dice.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Test::new(3, 4)?.dice(), 3);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn dice(&self) -> u32 {
        self.dice
    }
    /// The effective TN (with Exertion).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Test::new(3, 4)?.tn(), 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn tn(&self) -> i32 {
        self.tn + i32::from(self.exerted)
    }
    /// Whether Power was spent for +1 TN.
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::Test::new(3, 4)?.exerted().is_exerted());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn is_exerted(&self) -> bool {
        self.exerted
    }
    /// The Difficulty.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Test::new(3, 4)?.difficulty(), 0);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn difficulty(&self) -> u32 {
        self.difficulty
    }
    /// The opposing roll, if any.
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::Test::new(3, 4)?.opposition().is_none());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn opposition(&self) -> Option<&Opposition> {
        self.opposition.as_ref()
    }
    /// The dice-core mechanic underneath.
    ///
    /// ```
    /// let t = dice_robots_and_rapiers::Test::new(8, 6)?.with_difficulty(1)?;
    /// assert_eq!(t.cancellation().to_string(), "8d10 count <=6, difficulty 1");
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn cancellation(&self) -> &Cancellation {
        &self.mechanic
    }

    /// Gross successes needed to accomplish the action against the Difficulty alone:
    /// Difficulty + 1 (L1515).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Test::new(6, 5)?.successes_needed(), 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn successes_needed(&self) -> u32 {
        self.difficulty + 1
    }

    /// Expected successes of the actor's own dice: `dice × TN / 10` (L2489).
    ///
    /// ```
    /// // E7 (L1469): 8 dice vs TN 7, "right around 5".
    /// assert!((dice_robots_and_rapiers::Test::new(8, 7)?.expected_successes() - 5.6).abs() < 1e-12);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn expected_successes(&self) -> f64 {
        expected_successes(self.dice, self.tn())
    }

    /// The pure form of an unopposed Test: the actor's faces.
    ///
    /// # Errors
    /// [`Error::Face`] for a face outside 1–10; [`Error::DiceCount`] when the number of
    /// faces is not the pool's, or when the Test is opposed (use
    /// [`Test::resolve_opposed`]).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Test, TestResult};
    /// // E9 (L1519): 6 dice vs Processor 5, Difficulty 3: 4 successes just do it.
    /// let t = Test::new(6, 5)?.with_difficulty(3)?;
    /// assert_eq!(t.resolve(&[1, 2, 3, 5, 6, 9])?.result(), TestResult::Won(1));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[u8]) -> Result<TestRoll, Error> {
        if let Some(o) = &self.opposition {
            return Err(Error::DiceCount {
                what: "the opposing roll",
                expected: o.dice as usize,
                got: 0,
            });
        }
        let successes = count_faces("a Test", faces, self.dice, self.tn())?;
        Ok(self.finish(faces.to_vec(), successes, None))
    }

    /// The pure form of an opposed Test: the actor's faces and the opposing faces.
    ///
    /// # Errors
    /// As [`Test::resolve`]; [`Error::DiceCount`] when the Test is not opposed.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Opposition, Test, TestResult};
    /// let t = Test::new(4, 5)?.opposed_by(Opposition::new(3, 4)?);
    /// let r = t.resolve_opposed(&[1, 5, 6, 10], &[2, 9, 4])?;
    /// assert_eq!((r.successes, r.opposing.as_ref().unwrap().successes), (2, 2));
    /// assert_eq!(r.result(), TestResult::Tie);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve_opposed(&self, faces: &[u8], opposing: &[u8]) -> Result<TestRoll, Error> {
        let Some(o) = &self.opposition else {
            return Err(Error::DiceCount {
                what: "an unopposed Test's opposing roll",
                expected: 0,
                got: opposing.len(),
            });
        };
        let successes = count_faces("a Test", faces, self.dice, self.tn())?;
        let opposing = OpposingRoll {
            successes: count_faces("the opposing roll", opposing, o.dice, o.tn)?,
            faces: opposing.to_vec(),
            tn: o.tn,
            difficulty: o.difficulty,
        };
        Ok(self.finish(faces.to_vec(), successes, Some(opposing)))
    }

    fn finish(&self, faces: Vec<u8>, successes: u32, opposing: Option<OpposingRoll>) -> TestRoll {
        let theirs = opposing.as_ref().map_or(0, OpposingRoll::left);
        TestRoll {
            faces,
            tn: self.tn(),
            successes,
            opposing,
            difficulty: self.difficulty,
            net: cancel(successes, theirs, self.difficulty),
            inspiration: 0,
        }
    }

    /// Rolls with the caller's RNG and reports every die. Uses the same draws as
    /// [`Roll::roll`].
    ///
    /// ```
    /// use dice_core::Roll;
    /// use dice_robots_and_rapiers::Test;
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let t = Test::new(8, 6)?;
    /// let detailed = t.roll_test(&mut Xoshiro256PlusPlus::seed_from_u64(3));
    /// assert_eq!(detailed.net, t.roll(&mut Xoshiro256PlusPlus::seed_from_u64(3)));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn roll_test<R: Rng + ?Sized>(&self, rng: &mut R) -> TestRoll {
        let mut record = RollRecord::new();
        self.mechanic.actor().roll_record_into(rng, &mut record);
        let faces = faces_of(&record);
        let successes = record.successes;
        let opposing = self.opposition.map(|o| {
            self.mechanic
                .opposition()
                .map(|p| p.roll_record_into(rng, &mut record))
                .unwrap_or_default();
            OpposingRoll {
                faces: faces_of(&record),
                tn: o.tn,
                successes: record.successes,
                difficulty: o.difficulty,
            }
        });
        self.finish(faces, successes, opposing)
    }

    /// The joint law of the actor's successes and its dice eligible as Inspiration (faces at
    /// or under both [`Rules::inspiration_faces`] and the TN): the chances behind
    /// [`TestRoll::take_inspiration`]. Unopposed gross counts.
    ///
    /// # Errors
    /// None in practice.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, Test};
    /// let d = Test::new(1, 6)?.inspiration_distribution(&Rules::default())?;
    /// assert!((d.probability(&(1, 1)) - 0.1).abs() < 1e-15); // a 1
    /// assert!((d.probability(&(1, 0)) - 0.5).abs() < 1e-15); // 2–6
    /// assert!((d.probability(&(0, 0)) - 0.4).abs() < 1e-15);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn inspiration_distribution(&self, rules: &Rules) -> Result<Dist<(u32, u32)>, Error> {
        let tn = self.tn().clamp(0, 10);
        let eligible = i32::from(rules.inspiration_faces).min(tn);
        let p_one = f64::from(eligible) / 10.0;
        let p_other = f64::from(tn - eligible) / 10.0;
        let p_fail = 1.0 - p_one - p_other;
        let n = self.dice as usize;
        // table[s][e]: probability of s successes of which e eligible.
        let mut table = vec![vec![0.0f64; n + 1]; n + 1];
        table[0][0] = 1.0;
        for k in 0..n {
            let mut next = vec![vec![0.0f64; n + 1]; n + 1];
            for s in 0..=k {
                for e in 0..=s {
                    let p = table[s][e];
                    if p == 0.0 {
                        continue;
                    }
                    next[s][e] += p * p_fail;
                    next[s + 1][e] += p * p_other;
                    next[s + 1][e + 1] += p * p_one;
                }
            }
            table = next;
        }
        let mut pairs = Vec::new();
        for (s, row) in table.iter().enumerate() {
            for (e, &p) in row.iter().enumerate() {
                if p > 0.0 {
                    pairs.push(((s as u32, e as u32), p));
                }
            }
        }
        Ok(Dist::from_pairs(pairs)?)
    }
}

pub(crate) fn faces_of(record: &RollRecord) -> Vec<u8> {
    record.dice.iter().map(|d| d.natural as u8).collect()
}

pub(crate) fn count_faces(
    what: &'static str,
    faces: &[u8],
    dice: u32,
    tn: i32,
) -> Result<u32, Error> {
    if faces.len() != dice as usize {
        return Err(Error::DiceCount {
            what,
            expected: dice as usize,
            got: faces.len(),
        });
    }
    let mut n = 0;
    for &f in faces {
        n += u32::from(is_success(check_face(f)?, tn));
    }
    Ok(n)
}

impl Test {
    /// The opposition when it has a Difficulty of its own, which dice-core's
    /// [`Cancellation`] does not know: then the net is taken here.
    fn opposition_with_difficulty(&self) -> Option<Opposition> {
        self.opposition.filter(|o| o.difficulty > 0)
    }
}

impl Roll for Test {
    /// Net successes: actor − opposition (after its own Difficulty) − Difficulty (negative:
    /// the opposition won).
    type Outcome = i64;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        match self.opposition_with_difficulty() {
            None => self.mechanic.roll(rng),
            // The same draws as the Cancellation's: the actor's dice, then the opposition's.
            Some(o) => {
                let mine = self.mechanic.actor().count(rng);
                let theirs = self.mechanic.opposition().map_or(0, |p| p.count(rng));
                cancel(mine, o.successes_left(theirs), self.difficulty)
            }
        }
    }
}

impl RollDetailed for Test {
    /// dice-core's record of the [`Cancellation`]: the actor's dice, then the opposition's;
    /// `total` is the net, the opposition's own Difficulty applied.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.mechanic.roll_record_into(rng, record);
        if let Some(o) = self.opposition_with_difficulty() {
            // total = mine − theirs − Difficulty, so theirs is recovered from it.
            let mine = i64::from(record.successes);
            let theirs = mine - i64::from(self.difficulty) - record.total;
            let theirs = theirs.clamp(0, i64::from(u32::MAX)) as u32;
            record.total = cancel(record.successes, o.successes_left(theirs), self.difficulty);
        }
    }
}

impl Exact for Test {
    /// The law of the net successes: dice-core's [`Cancellation`] law (the actor's binomial
    /// minus the opposition's, shifted by the Difficulty); with an opposing Difficulty, the
    /// opposition's law is first mapped through [`Opposition::successes_left`].
    fn distribution(&self) -> Result<Dist<i64>, dice_core::Error> {
        match self.opposition_with_difficulty() {
            None => self.mechanic.distribution(),
            Some(o) => {
                let mine = self.mechanic.actor().distribution()?;
                let theirs = o.pool().distribution()?.map(|&s| o.successes_left(s));
                Ok(mine.difference(&theirs).shift(-i64::from(self.difficulty)))
            }
        }
    }
}

impl fmt::Display for Test {
    /// `8d10 vs TN 6, opposed by 7d10 vs TN 5, Difficulty 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d10 vs TN {}", self.dice, self.tn())?;
        if self.exerted {
            f.write_str(" (exerted)")?;
        }
        if let Some(o) = &self.opposition {
            write!(f, ", opposed by {o}")?;
        }
        if self.difficulty > 0 {
            write!(f, ", Difficulty {}", self.difficulty)?;
        }
        Ok(())
    }
}

/// The opposing side of a [`TestRoll`].
///
/// ```
/// use dice_robots_and_rapiers::{Opposition, Test};
/// let r = Test::new(1, 5)?.opposed_by(Opposition::new(2, 5)?).resolve_opposed(&[3], &[4, 6])?;
/// assert_eq!(r.opposing.unwrap().to_string(), "[4, 6] vs TN 5: 1 success(es)");
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OpposingRoll {
    /// The faces.
    pub faces: Vec<u8>,
    /// The opposing TN.
    pub tn: i32,
    /// Its successes (before its own Difficulty).
    pub successes: u32,
    /// Its own Difficulty ([`Opposition::difficulty`], L2366): cancels its successes first.
    #[cfg_attr(feature = "serde", serde(default))]
    pub difficulty: u32,
}

impl OpposingRoll {
    /// The successes left to cancel the actor's: [`OpposingRoll::successes`] less its own
    /// Difficulty, at least 0.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Opposition, Test};
    /// let parry = Opposition::new(3, 5)?.with_difficulty(1)?;
    /// let r = Test::new(2, 5)?.opposed_by(parry).resolve_opposed(&[1, 2], &[1, 2, 9])?;
    /// assert_eq!((r.opposing.as_ref().unwrap().left(), r.net), (1, 1));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn left(&self) -> u32 {
        self.successes.saturating_sub(self.difficulty)
    }
}

impl fmt::Display for OpposingRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} vs TN {}: {} success(es)",
            self.faces, self.tn, self.successes
        )?;
        if self.difficulty > 0 {
            write!(f, " (Difficulty {}: {} left)", self.difficulty, self.left())?;
        }
        Ok(())
    }
}

/// One Test roll: every die, the successes of each side, the Difficulty and the net.
///
/// ```
/// use dice_robots_and_rapiers::Test;
/// let r = Test::new(4, 6)?.with_difficulty(1)?.resolve(&[1, 6, 7, 3])?;
/// assert_eq!(r.to_string(), "[1, 6, 7, 3] vs TN 6: 3 success(es), Difficulty 1: net 2");
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TestRoll {
    /// The actor's faces (1–10).
    pub faces: Vec<u8>,
    /// The effective TN.
    pub tn: i32,
    /// The actor's successes (after any taken as Inspiration).
    pub successes: u32,
    /// The opposing roll, if any.
    pub opposing: Option<OpposingRoll>,
    /// The Difficulty.
    pub difficulty: u32,
    /// Net successes: `successes − opposing − difficulty`, the opposing successes taken
    /// after their own Difficulty ([`OpposingRoll::left`]).
    pub net: i64,
    /// Dice taken as Inspiration instead of successes (L195, L1403).
    pub inspiration: u32,
}

impl TestRoll {
    /// Who won.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Test, TestResult};
    /// assert_eq!(Test::new(2, 5)?.resolve(&[5, 9])?.result(), TestResult::Won(1));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn result(&self) -> TestResult {
        TestResult::from_net(self.net)
    }

    /// Dice that may still be taken as Inspiration: successes showing a face at or under
    /// [`Rules::inspiration_faces`] (1, or 1–2 on the rapid dial, L1340). Taking one gives
    /// up its success ("*instead*", L1403), so only dice that succeeded are eligible.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, Test};
    /// let r = Test::new(4, 6)?.resolve(&[1, 1, 2, 9])?;
    /// assert_eq!(r.inspiration_eligible(&Rules::default()), 2);
    /// assert_eq!(r.inspiration_eligible(&Rules { inspiration_faces: 2, ..Rules::default() }), 3);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn inspiration_eligible(&self, rules: &Rules) -> u32 {
        let limit = i32::from(rules.inspiration_faces).min(self.tn);
        let eligible = self
            .faces
            .iter()
            .filter(|&&f| i32::from(f) <= limit)
            .count() as u32;
        eligible.saturating_sub(self.inspiration)
    }

    /// Takes `count` eligible dice as Inspiration instead of successes (Sparked robots only,
    /// L1052, L1403): the successes and the net drop by `count`.
    ///
    /// # Errors
    /// [`Error::NotSparked`] for a robot that is not Sparked; [`Error::Unaffordable`] for
    /// more dice than are eligible.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, Test};
    /// let mut r = Test::new(3, 5)?.resolve(&[1, 4, 8])?;
    /// r.take_inspiration(1, true, &Rules::default())?;
    /// assert_eq!((r.successes, r.net, r.inspiration), (1, 1, 1));
    /// assert!(r.take_inspiration(1, true, &Rules::default()).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn take_inspiration(
        &mut self,
        count: u32,
        sparked: bool,
        rules: &Rules,
    ) -> Result<(), Error> {
        if !sparked {
            return Err(Error::NotSparked {
                what: "take dice as Inspiration",
            });
        }
        let left = self.inspiration_eligible(rules);
        if count > left {
            return Err(Error::Unaffordable {
                on: "Inspiration",
                wanted: count,
                left,
            });
        }
        self.inspiration += count;
        self.successes -= count;
        self.net -= i64::from(count);
        Ok(())
    }

    /// The net successes as a [`Ledger`] to spend from.
    ///
    /// ```
    /// use dice_robots_and_rapiers::Test;
    /// let ledger = Test::new(3, 5)?.resolve(&[1, 4, 8])?.ledger();
    /// assert_eq!(ledger.left(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn ledger(&self) -> Ledger {
        Ledger::new(self.net.max(0).min(i64::from(u32::MAX)) as u32)
    }
}

impl fmt::Display for TestRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} vs TN {}: {} success(es)",
            self.faces, self.tn, self.successes
        )?;
        if self.inspiration > 0 {
            write!(f, " (+{} Inspiration)", self.inspiration)?;
        }
        if let Some(o) = &self.opposing {
            write!(f, "; opposed by {o}")?;
        }
        if self.difficulty > 0 {
            write!(f, ", Difficulty {}", self.difficulty)?;
        }
        write!(f, ": net {}", self.net)
    }
}

/// Expected successes of `dice` d10s against `tn`: `dice × TN / 10` (L2489), the TN clamped
/// to 0–10.
///
/// ```
/// // E40 (L2489): "rolling 8 dice vs. a TN of 6 gives just under 5 successes".
/// let e = dice_robots_and_rapiers::expected_successes(8, 6);
/// assert!((e - 4.8).abs() < 1e-12 && e < 5.0);
/// ```
pub fn expected_successes(dice: u32, tn: i32) -> f64 {
    f64::from(dice) * success_chance(tn)
}

/// The GM's guideline for a Difficulty instead of rolling `dice` against `tn` (L2489): the
/// expected successes, rounded to the nearest whole number (halves up), less `likely_net`
/// ("Setting it 1 below the expected value makes the most likely net result 1"), floored at
/// 0.
///
/// ```
/// use dice_robots_and_rapiers::guideline_difficulty;
/// // E1 (L206): "instead of rolling 6 dice against a Target Number of 5, the GM may decide
/// // to simply give a Difficulty of 3".
/// assert_eq!(guideline_difficulty(6, 5, 0), 3);
/// assert_eq!(guideline_difficulty(6, 5, 1), 2);
/// ```
pub fn guideline_difficulty(dice: u32, tn: i32, likely_net: u32) -> u32 {
    let tenths = u64::from(dice) * tn.clamp(0, 10) as u64;
    let rounded = (tenths + 5) / 10;
    (rounded as u32).saturating_sub(likely_net)
}

/// A Difficulty equivalent to needing `successes` gross successes: "Ruling that a robot
/// needs 4 successes … is identical to … an opposed roll that achieved 3 successes" (L1515);
/// a compound action of `successes` sub-actions "has essentially the same effect" (L2497–2499).
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::difficulty_for(4), 3);
/// assert_eq!(dice_robots_and_rapiers::difficulty_for(0), 0);
/// ```
pub fn difficulty_for(successes: u32) -> u32 {
    successes.saturating_sub(1)
}

/// An Inspiration Roll (Sparked robots only; L189, L199, L1205–1214, L1444–1453): ½ Self
/// Awareness dice (rounded down) against TN = points × 2 (× 3 for Artistry and Compose),
/// at most the program's Maximum Inspiration points (or the GM's limit).
///
/// ```
/// use dice_robots_and_rapiers::{InspirationRoll, Program};
/// // E6 (L1457): "With a Self Awareness Score of 6, the player picks up 3 dice and spends 2
/// // Inspiration for a TN of 4" (Mechanics, maximum 2).
/// let r = InspirationRoll::for_program(6, 2, Program::Mechanics)?;
/// assert_eq!((r.test().dice(), r.test().tn()), (3, 4));
/// assert!(InspirationRoll::for_program(6, 3, Program::Mechanics).is_err());
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InspirationRoll {
    points: u8,
    test: Test,
}

impl InspirationRoll {
    /// An Inspiration Roll for (or augmenting) `program`: its usual Maximum Inspiration and
    /// its TN per point. Where the column gives a lower maximum for some uses (genteel
    /// Carousing, advanced Craft, formal Dancing, …) use [`InspirationRoll::for_program_in`];
    /// for a limit the GM sets, [`InspirationRoll::with_limit`].
    ///
    /// # Errors
    /// [`Error::NotSparked`] at Self Awareness 0 (A50); [`Error::InspirationLimit`] for
    /// Programming (L863), for 0 points or for more than the maximum.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{InspirationRoll, Program};
    /// // E5 (L1455): SA 2 → 1 die; Compose at 3 points × 3 → "set the TN to 9".
    /// let r = InspirationRoll::for_program(2, 3, Program::Compose)?;
    /// assert_eq!((r.test().dice(), r.test().tn()), (1, 9));
    /// assert!(InspirationRoll::for_program(4, 1, Program::Programming).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn for_program(self_awareness: u8, points: u8, program: Program) -> Result<Self, Error> {
        let max = program.max_inspiration().map_or(0, |m| m.usual);
        Self::build(
            self_awareness,
            points,
            max,
            program.inspiration_tn_per_point(),
            program.name(),
        )
    }

    /// An Inspiration Roll under a limit the GM (or a restricted column) sets, usually "2 to
    /// 4 (TN 4 to TN 8)" (L1452), at `tn_per_point` (2, or 3 for artistic endeavours).
    ///
    /// # Errors
    /// As [`InspirationRoll::for_program`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::InspirationRoll;
    /// let r = InspirationRoll::with_limit(5, 3, 4, 2)?;
    /// assert_eq!((r.test().dice(), r.test().tn()), (2, 6));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn with_limit(
        self_awareness: u8,
        points: u8,
        max: u8,
        tn_per_point: u8,
    ) -> Result<Self, Error> {
        Self::build(self_awareness, points, max, tn_per_point, "this roll")
    }

    /// An Inspiration Roll for `program` in a given case of its Maximum Inspiration column:
    /// [`InspirationCase::Restricted`] takes the lower maximum of the programs that have one
    /// (L827 Carousing and L851 Labor: 2 with Core Social (genteel); L833 Craft: 2 for
    /// advanced crafts; L834 Dancing: 2 for formal dances; L838 Etiquette: 2 when the
    /// specialty does not match the robot's Core Social), the usual one otherwise
    /// ([`crate::MaxInspiration::limit`]). [`InspirationCase::Usual`] is
    /// [`InspirationRoll::for_program`].
    ///
    /// # Errors
    /// As [`InspirationRoll::for_program`], against the case's maximum.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{InspirationCase, InspirationRoll, Program};
    /// // A genteel robot carousing: at most 2 points (L827).
    /// assert!(InspirationRoll::for_program_in(6, 3, Program::Carousing, InspirationCase::Restricted).is_err());
    /// let r = InspirationRoll::for_program_in(6, 2, Program::Carousing, InspirationCase::Restricted)?;
    /// assert_eq!(r.test().tn(), 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn for_program_in(
        self_awareness: u8,
        points: u8,
        program: Program,
        case: InspirationCase,
    ) -> Result<Self, Error> {
        let max = program.max_inspiration().map_or(0, |m| m.limit(case));
        Self::build(
            self_awareness,
            points,
            max,
            program.inspiration_tn_per_point(),
            program.name(),
        )
    }

    fn build(sa: u8, points: u8, max: u8, per: u8, what: &str) -> Result<Self, Error> {
        if sa == 0 {
            return Err(Error::NotSparked {
                what: "make an Inspiration Roll",
            });
        }
        if points == 0 || points > max {
            return Err(Error::InspirationLimit {
                program: what.to_string(),
                max,
                points,
            });
        }
        let test = Test::new(u32::from(sa / 2), i32::from(points) * i32::from(per))?;
        Ok(InspirationRoll { points, test })
    }

    /// The Inspiration points spent.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{InspirationRoll, Program};
    /// assert_eq!(InspirationRoll::for_program(4, 2, Program::Fencing)?.points(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn points(&self) -> u8 {
        self.points
    }

    /// The roll as a Test ("made exactly like any Test", L1448), to oppose, give a Difficulty
    /// or roll.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{InspirationRoll, Program};
    /// let t = InspirationRoll::for_program(6, 2, Program::Mechanics)?.into_test();
    /// assert_eq!(t.dice(), 3);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn test(&self) -> &Test {
        &self.test
    }

    /// The roll as an owned Test.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{InspirationRoll, Program};
    /// assert_eq!(InspirationRoll::for_program(2, 1, Program::Gaming)?.into_test().tn(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn into_test(self) -> Test {
        self.test
    }
}

impl Roll for InspirationRoll {
    /// Net successes, as the underlying [`Test`].
    type Outcome = i64;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        self.test.roll(rng)
    }
}

impl Exact for InspirationRoll {
    fn distribution(&self) -> Result<Dist<i64>, dice_core::Error> {
        self.test.distribution()
    }
}

impl fmt::Display for InspirationRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Inspiration Roll ({} point(s)): {}",
            self.points, self.test
        )
    }
}
