//! The d100 test: `TN = 50 + attribute + aptitude + modifiers`, roll under, signed margin
//! (PC-R6, PC-R7, L18, L26, L34, L66; rulings PC-A1, PC-A2).

use core::fmt;

use dice_core::{Die, DieRoll, Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Source};

use crate::error::{Error, check_d100, check_score};
use crate::rules::{PctMode, Rules};

/// The base TN of any attack, in melee or at range: "the base difficulty of any attack in
/// melee or at range is Average (TN 50)" (L18).
///
/// ```
/// assert_eq!(dice_shapers_percentile::AVERAGE_TN, 50);
/// ```
pub const AVERAGE_TN: i32 = 50;

/// One d100 test: Attribute + Aptitude + modifiers against the Average TN 50 (PC-R6).
///
/// Under the ruling ([`PctMode::RollUnder50Base`], PC-A1 (a)) the TN is
/// `50 + attribute + aptitude + modifier`; the test succeeds when the d100 (01–00, 00 read as
/// 100) is at or under the TN (PC-A2), and the signed margin is `TN − roll` (PC-R7: "succeeded
/// by 15", "failed by −15", L26). A TN above 100 always succeeds and one below 1 always fails:
/// automatic 01/00 results are silent in the text (PC-A1), so there are none.
///
/// ```
/// use dice_shapers_percentile::{Rules, Test};
/// // Physical Agility 10 + Melee (Armed) 5, charging (+10, L40).
/// let attack = Test::new(10, 5, 10, &Rules::default())?;
/// assert_eq!(attack.tn(), 75);
/// let result = attack.resolve(60)?;
/// assert!(result.is_success());
/// assert_eq!(result.margin, 15);
/// assert!((attack.success_probability() - 0.75).abs() < 1e-15);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Test {
    attribute: i32,
    aptitude: i32,
    modifier: i32,
    mode: PctMode,
}

impl Test {
    /// A test of `attribute + aptitude` with the sum of the situation's `modifier`s, read as
    /// `rules.mode` says.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when a number's magnitude exceeds [`crate::MAX_SCORE`].
    ///
    /// ```
    /// use dice_shapers_percentile::{Rules, Test};
    /// let dodge = Test::new(12, 8, -20, &Rules::default())?;
    /// assert_eq!(dodge.tn(), 50);
    /// assert!(Test::new(20_000, 0, 0, &Rules::default()).is_err());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn new(attribute: i32, aptitude: i32, modifier: i32, rules: &Rules) -> Result<Self, Error> {
        Ok(Test {
            attribute: check_score("attribute", attribute)?,
            aptitude: check_score("aptitude", aptitude)?,
            modifier: check_score("modifier", modifier)?,
            mode: rules.mode,
        })
    }

    /// The roll the GM may ask of a sprinting character "to avoid tripping over" (L15):
    /// Physical Agility + Athletics against the standard TN 50 (PC-A13, the ruling; the
    /// text gives no TN and no effect). The modifier is the GM's.
    ///
    /// # Errors
    /// As [`Test::new`].
    ///
    /// ```
    /// use dice_shapers_percentile::{Rules, Test};
    /// let trip = Test::sprint_trip(10, 5, 0, &Rules::default())?;
    /// assert_eq!(trip.tn(), 65);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn sprint_trip(
        physical_agility: i32,
        athletics: i32,
        modifier: i32,
        rules: &Rules,
    ) -> Result<Self, Error> {
        Test::new(physical_agility, athletics, modifier, rules)
    }

    /// The attribute.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Rules, Test};
    /// assert_eq!(Test::new(12, 3, 0, &Rules::default())?.attribute(), 12);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn attribute(&self) -> i32 {
        self.attribute
    }

    /// The aptitude.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Rules, Test};
    /// assert_eq!(Test::new(12, 3, 0, &Rules::default())?.aptitude(), 3);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn aptitude(&self) -> i32 {
        self.aptitude
    }

    /// The sum of the modifiers.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Rules, Test};
    /// assert_eq!(Test::new(12, 3, -20, &Rules::default())?.modifier(), -20);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn modifier(&self) -> i32 {
        self.modifier
    }

    /// How the test is read.
    ///
    /// ```
    /// # use dice_shapers_percentile::{PctMode, Rules, Test};
    /// assert_eq!(Test::new(1, 1, 0, &Rules::default())?.mode(), PctMode::RollUnder50Base);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn mode(&self) -> PctMode {
        self.mode
    }

    /// `attribute + aptitude + modifier`: what the character brings to the Average TN.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Rules, Test};
    /// assert_eq!(Test::new(12, 3, -20, &Rules::default())?.bonus(), -5);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn bonus(&self) -> i32 {
        self.attribute + self.aptitude + self.modifier
    }

    /// `TN = 50 + attribute + aptitude + modifier` (PC-R6). Under [`PctMode::RollUnder50Base`]
    /// the test succeeds when the roll is at most the TN; under [`PctMode::RollOver50`] it
    /// succeeds when `roll + bonus ≥ 50`, that is when the roll is at least `100 − TN`.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Rules, Test};
    /// assert_eq!(Test::new(12, 3, -20, &Rules::default())?.tn(), 45);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn tn(&self) -> i32 {
        AVERAGE_TN + self.bonus()
    }

    /// The signed margin of a d100 face already checked to be in `1..=100`.
    #[inline]
    pub(crate) fn margin_of(&self, roll: u8) -> i32 {
        let roll = i32::from(roll);
        match self.mode {
            PctMode::RollUnder50Base => self.tn() - roll,
            PctMode::RollOver50 => roll + self.bonus() - AVERAGE_TN,
        }
    }

    /// The result of a face already checked to be in `1..=100`.
    #[inline]
    pub(crate) fn result_of(&self, roll: u8) -> TestResult {
        TestResult {
            margin: self.margin_of(roll),
            roll,
        }
    }

    /// The pure form: the result of a d100 already rolled (`1..=100`; read 00 as 100).
    ///
    /// # Errors
    /// [`Error::Face`] unless `1 <= roll <= 100`.
    ///
    /// ```
    /// use dice_shapers_percentile::{PctMode, Rules, Test};
    /// let t = Test::new(10, 5, 0, &Rules::default())?; // TN 65
    /// assert_eq!(t.resolve(65)?.margin, 0); // PC-A2: equal to the TN succeeds
    /// assert!(t.resolve(65)?.is_success());
    /// assert_eq!(t.resolve(80)?.margin, -15);
    /// let over = Test::new(10, 5, 0, &Rules { mode: PctMode::RollOver50, ..Rules::default() })?;
    /// assert_eq!(over.resolve(35)?.margin, 0); // 35 + 15 = 50
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn resolve(&self, roll: u8) -> Result<TestResult, Error> {
        Ok(self.result_of(check_d100(roll)?))
    }

    /// The exact probability of success: the number of the 100 faces that succeed, over 100.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Rules, Test};
    /// let t = Test::new(10, 5, 0, &Rules::default())?;
    /// assert!((t.success_probability() - 0.65).abs() < 1e-15);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn success_probability(&self) -> f64 {
        let faces = (1..=100u8).filter(|&f| self.margin_of(f) >= 0).count();
        faces as f64 / 100.0
    }

    /// The exact law of the signed margin (each of the 100 faces gives one margin).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Rules, Test};
    /// let t = Test::new(10, 5, 0, &Rules::default())?; // TN 65: margins 64 down to −35
    /// let m = t.margin_distribution();
    /// assert_eq!(m.len(), 100);
    /// assert!((m.probability_where(|&x| x >= 10) - 0.55).abs() < 1e-12);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn margin_distribution(&self) -> Dist<i32> {
        d100_law().map(|&f| self.margin_of(f))
    }
}

/// The uniform law of a d100 face, from dice-core's d100.
pub(crate) fn d100_law() -> Dist<u8> {
    // A d100's faces 1..=100 all fit in a u8.
    face_law(Die::D100)
}

/// The uniform law of a die's faces as `u8` (for a d10 or a d100).
pub(crate) fn face_law(die: Die) -> Dist<u8> {
    match die.distribution() {
        Ok(d) => d.map(|&f| u8::try_from(f).unwrap_or(u8::MAX)),
        // A single die's law cannot fail; keep the library panic-free regardless.
        Err(_) => Dist::certain(1),
    }
}

/// Rolls a d100 as a `u8` in `1..=100`.
#[inline]
pub(crate) fn roll_d100<R: Rng + ?Sized>(rng: &mut R) -> u8 {
    // Faces are 1..=100.
    Die::D100.roll_face(rng) as u8
}

impl Roll for Test {
    /// The signed margin and the face rolled.
    type Outcome = TestResult;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> TestResult {
        self.result_of(roll_d100(rng))
    }
}

impl Exact for Test {
    /// Each of the 100 faces with probability 1/100.
    fn distribution(&self) -> Result<Dist<TestResult>, dice_core::Error> {
        Ok(d100_law().map(|&f| self.result_of(f)))
    }
}

impl RollDetailed for Test {
    /// One d100, flagged a success when the test succeeds; `total` is the signed margin and
    /// `successes` is 1 on a success.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let result = self.roll(rng);
        record.dice.push(d100_record(result, Source::Primary));
        record.total = i64::from(result.margin);
        record.successes = u32::from(result.is_success());
    }
}

/// A record entry for one d100 of a test.
pub(crate) fn d100_record(result: TestResult, source: Source) -> DieRoll {
    let mut d = DieRoll::new(Die::D100, u32::from(result.roll), source);
    d.flags.success = result.is_success();
    d
}

impl rand::distr::Distribution<TestResult> for Test {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> TestResult {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for Test {
    /// `d100 <= 65 (50 + 10 + 5 + 0)`, or `d100 + 15 >= 50` when rolling over.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mode {
            PctMode::RollUnder50Base => write!(
                f,
                "d100 <= {} ({AVERAGE_TN} {:+} {:+} {:+})",
                self.tn(),
                self.attribute,
                self.aptitude,
                self.modifier
            ),
            PctMode::RollOver50 => write!(f, "d100 {:+} >= {AVERAGE_TN}", self.bonus()),
        }
    }
}

/// The result of one d100 test: the signed margin and the face rolled (PC-R7).
///
/// Ordered by margin first, so a histogram of results reads from the worst failure to the
/// best success.
///
/// ```
/// use dice_shapers_percentile::TestResult;
/// let r = TestResult { margin: -15, roll: 80 };
/// assert!(!r.is_success());
/// assert_eq!(r.damage_bonus(), 0);
/// assert_eq!(r.to_string(), "80: failed by -15");
/// let s = TestResult { margin: 27, roll: 38 };
/// assert_eq!(s.damage_bonus(), 2);
/// assert_eq!(s.to_string(), "38: succeeded by 27");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TestResult {
    /// `TN − roll` under the ruling: positive or zero is a success by that much, negative a
    /// failure by that much.
    pub margin: i32,
    /// The d100 face, `1..=100` (00 is 100).
    pub roll: u8,
}

impl TestResult {
    /// Whether the test succeeded (margin at least 0, PC-A2).
    ///
    /// ```
    /// # use dice_shapers_percentile::TestResult;
    /// assert!(TestResult { margin: 0, roll: 65 }.is_success());
    /// ```
    pub fn is_success(&self) -> bool {
        self.margin >= 0
    }

    /// "+1 damage for every 10 points of success" (L71) on this test's own margin: 0 on a
    /// failure.
    ///
    /// ```
    /// # use dice_shapers_percentile::TestResult;
    /// assert_eq!(TestResult { margin: 39, roll: 1 }.damage_bonus(), 3);
    /// ```
    pub fn damage_bonus(&self) -> u32 {
        crate::damage::damage_bonus(self.margin)
    }
}

impl fmt::Display for TestResult {
    /// `38: succeeded by 27`, `80: failed by -15` (the wording of L26).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_success() {
            write!(f, "{}: succeeded by {}", self.roll, self.margin)
        } else {
            write!(f, "{}: failed by {}", self.roll, self.margin)
        }
    }
}
