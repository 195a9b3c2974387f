//! Opposed tests: both sides roll a d100 test and the margins are compared (PC-R8, L20–22;
//! rulings PC-A3).

use core::cmp::Ordering;
use core::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Source};

use crate::d100::{Test, TestResult, d100_record, roll_d100};
use crate::error::Error;
use crate::rules::{OpposedResolution, OpposedTie, Rules};

/// A side of an opposed test.
///
/// ```
/// use dice_shapers_percentile::Side;
/// assert_eq!(Side::Attacker.to_string(), "attacker");
/// assert_eq!(Side::Attacker.other(), Side::Defender);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Side {
    /// The one who acts (attacks).
    Attacker,
    /// The one who opposes (defends).
    Defender,
}

impl Side {
    /// The opposite side.
    ///
    /// ```
    /// # use dice_shapers_percentile::Side;
    /// assert_eq!(Side::Defender.other(), Side::Attacker);
    /// ```
    pub fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        })
    }
}

/// The outcome of an opposed test: the net margin (attacker's margin minus defender's) and
/// the winner. Under [`OpposedResolution::SuccessFirst`] the defender wins when both tests
/// fail, even with a positive net.
///
/// Ordered by net first.
///
/// ```
/// use dice_shapers_percentile::{OpposedResult, Side};
/// let r = OpposedResult { net: -30, winner: Side::Defender };
/// assert_eq!(r.loss(), 30);
/// assert_eq!(r.to_string(), "defender wins, net -30");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OpposedResult {
    /// The attacker's margin minus the defender's margin.
    pub net: i32,
    /// Who won.
    pub winner: Side,
}

impl OpposedResult {
    /// How much the attacker lost by (`−net` when the defender won, else 0): the "loses by"
    /// of L28 under the ruling PC-A4 (a).
    ///
    /// ```
    /// # use dice_shapers_percentile::{OpposedResult, Side};
    /// assert_eq!(OpposedResult { net: 12, winner: Side::Attacker }.loss(), 0);
    /// ```
    pub fn loss(&self) -> u32 {
        match self.winner {
            Side::Defender => self.net.min(0).unsigned_abs(),
            Side::Attacker => 0,
        }
    }
}

impl fmt::Display for OpposedResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} wins, net {}", self.winner, self.net)
    }
}

/// Who wins an opposed test with these two results (PC-A3), and by what net margin.
pub(crate) fn compare(attacker: TestResult, defender: TestResult, rules: &Rules) -> OpposedResult {
    let net = attacker.margin - defender.margin;
    let by_margin = match net.cmp(&0) {
        Ordering::Greater => Side::Attacker,
        Ordering::Less => Side::Defender,
        Ordering::Equal => match rules.opposed_tie {
            OpposedTie::Defender => Side::Defender,
            OpposedTie::Attacker => Side::Attacker,
        },
    };
    let winner = match rules.opposed {
        OpposedResolution::HigherMargin => by_margin,
        // A failed attack never wins (whatever the defender rolled); a successful one beats
        // a failed defence and is compared by margin with a successful one.
        OpposedResolution::SuccessFirst => {
            if !attacker.is_success() {
                Side::Defender
            } else if !defender.is_success() {
                Side::Attacker
            } else {
                by_margin
            }
        }
    };
    OpposedResult { net, winner }
}

/// An opposed test: "decide which Attribute + Aptitude is relevant for the defender and make
/// a roll for them" (L20). Both roll a d100 test. Under the default
/// [`OpposedResolution::SuccessFirst`] the attacker wins only with a successful test that
/// either meets a failed defence or beats a successful one on margin; ties between two
/// successes go to the defender (PC-A3; knobs [`Rules::opposed`] and [`Rules::opposed_tie`],
/// see [`OpposedResolution`] for the other reading and why it is not the default).
///
/// The exact law is the joint law of the two independent tests, mapped through the
/// comparison.
///
/// ```
/// use dice_shapers_percentile::{OpposedTest, Rules, Side, Test};
/// use dice_core::Exact;
/// let rules = Rules::default();
/// let attacker = Test::new(10, 5, 0, &rules)?;  // TN 65
/// let defender = Test::new(10, 5, 0, &rules)?;  // TN 65
/// let opposed = OpposedTest::new(attacker, defender, &rules);
/// let r = opposed.resolve(20, 50)?;              // margins 45 and 15
/// assert_eq!((r.net, r.winner), (30, Side::Attacker));
/// // Equal tests of TN 65: the attacker must roll at most 65, and then either the defender
/// // rolls over 65 or the attacker rolls lower: (65·35 + 65·64/2) / 100² = 0.4355.
/// let p = opposed.distribution()?.probability_where(|r| r.winner == Side::Attacker);
/// assert!((p - (65.0 * 35.0 + 65.0 * 64.0 / 2.0) / 1e4).abs() < 1e-12);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpposedTest {
    attacker: Test,
    defender: Test,
    rules: Rules,
}

impl OpposedTest {
    /// The attacker's test against the defender's, compared as `rules` say.
    ///
    /// ```
    /// # use dice_shapers_percentile::{OpposedTest, Rules, Test};
    /// let rules = Rules::default();
    /// let o = OpposedTest::new(Test::new(5, 5, 0, &rules)?, Test::new(8, 2, 0, &rules)?, &rules);
    /// assert_eq!(o.defender().tn(), 60);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn new(attacker: Test, defender: Test, rules: &Rules) -> Self {
        OpposedTest {
            attacker,
            defender,
            rules: *rules,
        }
    }

    /// The attacker's test.
    ///
    /// ```
    /// # use dice_shapers_percentile::{OpposedTest, Rules, Test};
    /// # let rules = Rules::default();
    /// let o = OpposedTest::new(Test::new(5, 5, 0, &rules)?, Test::new(8, 2, 0, &rules)?, &rules);
    /// assert_eq!(o.attacker().tn(), 60);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn attacker(&self) -> &Test {
        &self.attacker
    }

    /// The defender's test.
    ///
    /// ```
    /// # use dice_shapers_percentile::{OpposedTest, Rules, Test};
    /// # let rules = Rules::default();
    /// let o = OpposedTest::new(Test::new(5, 5, 0, &rules)?, Test::new(8, 2, 5, &rules)?, &rules);
    /// assert_eq!(o.defender().tn(), 65);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn defender(&self) -> &Test {
        &self.defender
    }

    /// The pure form: both d100s already rolled (`1..=100` each).
    ///
    /// # Errors
    /// [`Error::Face`] when a roll is outside `1..=100`.
    ///
    /// ```
    /// use dice_shapers_percentile::{OpposedTest, Rules, Side, Test};
    /// let rules = Rules::default();
    /// let o = OpposedTest::new(Test::new(10, 5, 0, &rules)?, Test::new(10, 5, 0, &rules)?, &rules);
    /// let tie = o.resolve(40, 40)?;
    /// assert_eq!((tie.net, tie.winner), (0, Side::Defender)); // PC-A3: ties to the defender
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn resolve(&self, attacker_roll: u8, defender_roll: u8) -> Result<OpposedResult, Error> {
        let a = self.attacker.resolve(attacker_roll)?;
        let d = self.defender.resolve(defender_roll)?;
        Ok(compare(a, d, &self.rules))
    }

    /// The exact law of the net margin alone: the difference of the two margin laws.
    ///
    /// ```
    /// # use dice_shapers_percentile::{OpposedTest, Rules, Test};
    /// # let rules = Rules::default();
    /// let o = OpposedTest::new(Test::new(10, 5, 0, &rules)?, Test::new(10, 5, 0, &rules)?, &rules);
    /// let net = o.net_distribution();
    /// assert!((net.probability(&0) - 0.01).abs() < 1e-15);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn net_distribution(&self) -> Dist<i64> {
        self.attacker
            .margin_distribution()
            .difference(&self.defender.margin_distribution())
    }
}

impl Roll for OpposedTest {
    /// Net margin and winner.
    type Outcome = OpposedResult;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> OpposedResult {
        let a = self.attacker.result_of(roll_d100(rng));
        let d = self.defender.result_of(roll_d100(rng));
        compare(a, d, &self.rules)
    }
}

impl Exact for OpposedTest {
    /// The joint law of the two tests (10,000 equally likely pairs) mapped through the
    /// comparison.
    fn distribution(&self) -> Result<Dist<OpposedResult>, dice_core::Error> {
        let joint = self
            .attacker
            .distribution()?
            .joint(&self.defender.distribution()?);
        Ok(joint.map(|&(a, d)| compare(a, d, &self.rules)))
    }
}

impl RollDetailed for OpposedTest {
    /// The attacker's d100, then the defender's (source [`Source::Other`]`(1)`), each flagged
    /// a success when its own test succeeds; `total` is the net margin and `successes` is 1
    /// when the attacker wins.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let a = self.attacker.result_of(roll_d100(rng));
        let d = self.defender.result_of(roll_d100(rng));
        let r = compare(a, d, &self.rules);
        record.dice.push(d100_record(a, Source::Primary));
        record.dice.push(d100_record(d, Source::Other(1)));
        record.total = i64::from(r.net);
        record.successes = u32::from(r.winner == Side::Attacker);
    }
}

impl rand::distr::Distribution<OpposedResult> for OpposedTest {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> OpposedResult {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for OpposedTest {
    /// `d100 <= 65 (50 +10 +5 +0) vs d100 <= 60 (50 +8 +2 +0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vs {}", self.attacker, self.defender)
    }
}
