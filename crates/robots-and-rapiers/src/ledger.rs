//! What successes buy (digest §1.11; rulebook L208–228, L1533–1745): a [`Ledger`] the
//! roller spends net successes from, refusing spends it cannot afford.

use std::fmt;

use crate::error::Error;

/// "Accomplish Action Faster" (L1580–1591): the guideline table of extra successes.
///
/// ```
/// use dice_robots_and_rapiers::Faster;
/// assert_eq!(Faster::Quarter.cost(), 4);
/// assert_eq!(Faster::Quarter.time_fraction(), (1, 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Faster {
    /// ¾ of the time: 1 extra success.
    ThreeQuarters,
    /// ½ the time: 2 extra successes.
    Half,
    /// ¼ the time: 4 extra successes.
    Quarter,
    /// ⅛ the time: 8 extra successes.
    Eighth,
}

impl Faster {
    /// The table's rows, slowest first.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Faster::ALL.len(), 4);
    /// ```
    pub const ALL: [Faster; 4] = [
        Faster::ThreeQuarters,
        Faster::Half,
        Faster::Quarter,
        Faster::Eighth,
    ];

    /// Extra successes needed.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Faster::Eighth.cost(), 8);
    /// ```
    pub const fn cost(self) -> u32 {
        match self {
            Faster::ThreeQuarters => 1,
            Faster::Half => 2,
            Faster::Quarter => 4,
            Faster::Eighth => 8,
        }
    }

    /// The fraction of the time the action then takes, as (numerator, denominator).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Faster::ThreeQuarters.time_fraction(), (3, 4));
    /// ```
    pub const fn time_fraction(self) -> (u32, u32) {
        match self {
            Faster::ThreeQuarters => (3, 4),
            Faster::Half => (1, 2),
            Faster::Quarter => (1, 4),
            Faster::Eighth => (1, 8),
        }
    }

    /// The fastest row `extra` successes can buy ("intermediate values" are silent, so
    /// this rounds down to a row).
    ///
    /// ```
    /// use dice_robots_and_rapiers::Faster;
    /// assert_eq!(Faster::best_for(5), Some(Faster::Quarter));
    /// assert_eq!(Faster::best_for(0), None);
    /// ```
    pub fn best_for(extra: u32) -> Option<Faster> {
        Faster::ALL.into_iter().rev().find(|f| f.cost() <= extra)
    }
}

impl fmt::Display for Faster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, d) = self.time_fraction();
        write!(f, "{n}/{d} the time")
    }
}

/// How widely a roll-over bonus (or a Saving Throw TN change) applies (L218, L1617–1625).
///
/// ```
/// use dice_robots_and_rapiers::Breadth;
/// assert_eq!(Breadth::Persistent.bonus(5), 2); // 5 × ½, rounded down
/// assert_eq!(Breadth::MultiplePersistent.bonus(8), 2);
/// assert_eq!(Breadth::Single.bonus(3), 3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Breadth {
    /// A single later roll by a single robot: 1 die per success.
    #[default]
    Single,
    /// Persistent: one robot, repeated rolls; successes × ½.
    Persistent,
    /// Multiple: several robots, one roll each; successes × ½.
    Multiple,
    /// Multiple Persistent: several robots, repeated rolls; successes × ¼.
    MultiplePersistent,
}

impl Breadth {
    /// The divisor: 1, 2, 2 or 4.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Breadth::Multiple.divisor(), 2);
    /// ```
    pub const fn divisor(self) -> u32 {
        match self {
            Breadth::Single => 1,
            Breadth::Persistent | Breadth::Multiple => 2,
            Breadth::MultiplePersistent => 4,
        }
    }

    /// The bonus `successes` buy: "Generally these modifiers are rounded down" (L1625).
    ///
    /// ```
    /// // E17 (L1668): "the remaining 8 successes allow for +4 in persistent bonuses".
    /// assert_eq!(dice_robots_and_rapiers::Breadth::Persistent.bonus(8), 4);
    /// ```
    pub const fn bonus(self, successes: u32) -> u32 {
        successes / self.divisor()
    }

    /// The successes needed for a bonus of `bonus`.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Breadth::MultiplePersistent.cost(1), 4);
    /// ```
    pub const fn cost(self, bonus: u32) -> u32 {
        bonus.saturating_mul(self.divisor())
    }
}

impl fmt::Display for Breadth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Breadth::Single => "roll-over",
            Breadth::Persistent => "persistent",
            Breadth::Multiple => "multiple",
            Breadth::MultiplePersistent => "multiple persistent",
        })
    }
}

/// Spreads a Multiple bonus over `recipients` robots so that it "averages out" to the exact
/// fraction (L1625; A41): the total `recipients × successes / divisor`, rounded down, shared
/// as evenly as possible, larger shares first.
///
/// ```
/// use dice_robots_and_rapiers::{Breadth, spread_multiple};
/// // E15 (L1625): "the bonus is 3 successes × ½ … assign 2 robots a +1 and 2 robots a +2".
/// assert_eq!(spread_multiple(3, Breadth::Multiple, 4), vec![2, 2, 1, 1]);
/// assert_eq!(spread_multiple(4, Breadth::Multiple, 3), vec![2, 2, 2]);
/// ```
pub fn spread_multiple(successes: u32, breadth: Breadth, recipients: u32) -> Vec<u32> {
    if recipients == 0 {
        return Vec::new();
    }
    let total = u64::from(recipients) * u64::from(successes) / u64::from(breadth.divisor());
    let base = total / u64::from(recipients);
    let extra = total % u64::from(recipients);
    (0..u64::from(recipients))
        .map(|i| (base + u64::from(i < extra)) as u32)
        .collect()
}

/// Parallel roll-overs with a Persistent/Multiple modifier (L1672): rolls "made in quick
/// succession" are added before the modifier; rolls "separated by time or space" each take
/// the modifier before being added.
///
/// ```
/// use dice_robots_and_rapiers::{Breadth, parallel_bonus};
/// assert_eq!(parallel_bonus(&[1, 1, 3], Breadth::Persistent, true), 2);  // 5 × ½
/// assert_eq!(parallel_bonus(&[1, 1, 3], Breadth::Persistent, false), 1); // 0 + 0 + 1
/// // E19 (L1674): 1 + 2 + 3 successes and the forge's persistent 2 = "8 extra dice"
/// // (gross counts, no Accomplish success taken from each: A4, an augmenting series).
/// assert_eq!(parallel_bonus(&[1, 2, 3], Breadth::Single, true) + 2, 8);
/// ```
pub fn parallel_bonus(successes: &[u32], breadth: Breadth, quick_succession: bool) -> u32 {
    if quick_succession {
        breadth.bonus(successes.iter().sum())
    } else {
        successes.iter().map(|&s| breadth.bonus(s)).sum()
    }
}

/// One purchase recorded in a [`Ledger`].
///
/// ```
/// use dice_robots_and_rapiers::{Breadth, Spend};
/// let s = Spend::RollOver { successes: 2, breadth: Breadth::Persistent, bonus: 1 };
/// assert_eq!(s.cost(), 2);
/// assert_eq!(s.to_string(), "2 → +1 persistent");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Spend {
    /// Accomplish Action, one success per sub-action of a compound action (L212, L1564).
    Accomplish {
        /// Sub-actions accomplished.
        sub_actions: u32,
    },
    /// Accomplish Action Faster (L1580–1591).
    Faster(Faster),
    /// Roll-over bonus dice, possibly Persistent/Multiple (L216–218, L1593–1641).
    RollOver {
        /// Successes spent.
        successes: u32,
        /// How widely it applies.
        breadth: Breadth,
        /// The bonus dice.
        bonus: u32,
    },
    /// Change a Saving Throw's TN (L224–226, L1729–1738): negative lowers a target's TN
    /// ("damage"), positive raises one's own.
    SaveTn {
        /// Successes spent.
        successes: u32,
        /// How widely it applies.
        breadth: Breadth,
        /// The TN change.
        change: i32,
    },
    /// Restore temporarily lost attribute points, 1 per success (L254, L1703).
    Restore {
        /// Points restored.
        points: u32,
    },
    /// Regain Action Points, 1 per success (L228, L1721–1727).
    ActionPoints {
        /// Points regained.
        points: u32,
    },
    /// A crafted special effect priced in dice (L1676–1693).
    SpecialEffect {
        /// Its cost.
        cost: u32,
    },
}

impl Spend {
    /// Successes this purchase took.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Faster, Spend};
    /// assert_eq!(Spend::Faster(Faster::Half).cost(), 2);
    /// ```
    pub fn cost(&self) -> u32 {
        match *self {
            Spend::Accomplish { sub_actions } => sub_actions,
            Spend::Faster(f) => f.cost(),
            Spend::RollOver { successes, .. } | Spend::SaveTn { successes, .. } => successes,
            Spend::Restore { points } | Spend::ActionPoints { points } => points,
            Spend::SpecialEffect { cost } => cost,
        }
    }
}

impl fmt::Display for Spend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Spend::Accomplish { sub_actions } => write!(f, "{sub_actions} → accomplish"),
            Spend::Faster(x) => write!(f, "{} → {x}", x.cost()),
            Spend::RollOver {
                successes,
                breadth,
                bonus,
            } => write!(f, "{successes} → +{bonus} {breadth}"),
            Spend::SaveTn {
                successes,
                breadth,
                change,
            } => write!(f, "{successes} → Save TN {change:+} ({breadth})"),
            Spend::Restore { points } => write!(f, "{points} → restore {points} point(s)"),
            Spend::ActionPoints { points } => write!(f, "{points} → +{points} Action Point(s)"),
            Spend::SpecialEffect { cost } => write!(f, "{cost} → special effect"),
        }
    }
}

/// The net successes of a Test as a ledger the roller spends from (L1537: "All action in
/// Robots & Rapiers is driven by spending successes").
///
/// The first success must go to Accomplish Action and "cannot be used for any of the other
/// purposes" (L212); a compound action takes one per sub-action (L1564). A roll that only
/// augments another (a related-program roll, L1475, or a preparation in a parallel series)
/// may be opened with [`Ledger::augmenting`], which has no Accomplish success (A4).
///
/// ```
/// use dice_robots_and_rapiers::{Breadth, Ledger};
/// // E12 (L1607): Cajole, 4 successes: "The first success is used to Accomplish the
/// // Action … rolls 1 over as a bonus … the other two into a +1 Persistent Bonus".
/// let mut l = Ledger::new(4);
/// l.accomplish(1)?;
/// assert_eq!(l.roll_over(1)?, 1);
/// assert_eq!(l.bonus(2, Breadth::Persistent)?, 1);
/// assert_eq!(l.left(), 0);
/// println!("{l}");
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ledger {
    total: u32,
    left: u32,
    accomplished: u32,
    augmenting: bool,
    spends: Vec<Spend>,
}

impl Ledger {
    /// A ledger of `successes` net successes from a Test that accomplishes something.
    ///
    /// ```
    /// let l = dice_robots_and_rapiers::Ledger::new(3);
    /// assert_eq!((l.total(), l.left(), l.accomplished()), (3, 3, 0));
    /// ```
    pub fn new(successes: u32) -> Ledger {
        Ledger {
            total: successes,
            left: successes,
            accomplished: 0,
            augmenting: false,
            spends: Vec::new(),
        }
    }

    /// A ledger for a roll that only augments another (A4): every success may be spent, no
    /// Accomplish success is required.
    ///
    /// ```
    /// let mut l = dice_robots_and_rapiers::Ledger::augmenting(3);
    /// assert_eq!(l.roll_over(3)?, 3);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn augmenting(successes: u32) -> Ledger {
        Ledger {
            augmenting: true,
            ..Ledger::new(successes)
        }
    }

    /// Net successes at the start.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Ledger::new(5).total(), 5);
    /// ```
    pub fn total(&self) -> u32 {
        self.total
    }
    /// Successes not yet spent.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Ledger::new(5).left(), 5);
    /// ```
    pub fn left(&self) -> u32 {
        self.left
    }
    /// Sub-actions accomplished so far.
    ///
    /// ```
    /// let mut l = dice_robots_and_rapiers::Ledger::new(5);
    /// l.accomplish(2)?;
    /// assert_eq!(l.accomplished(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn accomplished(&self) -> u32 {
        self.accomplished
    }
    /// Whether this ledger belongs to an augmenting roll.
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::Ledger::augmenting(1).is_augmenting());
    /// ```
    pub fn is_augmenting(&self) -> bool {
        self.augmenting
    }
    /// Every purchase so far, in order.
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::Ledger::new(1).spends().is_empty());
    /// ```
    pub fn spends(&self) -> &[Spend] {
        &self.spends
    }

    fn take(&mut self, on: &'static str, wanted: u32) -> Result<(), Error> {
        if wanted > self.left {
            return Err(Error::Unaffordable {
                on,
                wanted,
                left: self.left,
            });
        }
        self.left -= wanted;
        Ok(())
    }

    fn take_extra(&mut self, on: &'static str, wanted: u32) -> Result<(), Error> {
        if !self.augmenting && self.accomplished == 0 {
            return Err(Error::NotAccomplished);
        }
        self.take(on, wanted)
    }

    /// Spends one success per sub-action on Accomplish Action (L212; compound actions
    /// L1564, L2497–2499). May be called again for further sub-actions.
    ///
    /// # Errors
    /// [`Error::Unaffordable`] when fewer successes are left.
    ///
    /// ```
    /// use dice_robots_and_rapiers::Ledger;
    /// // E11 (L1566–1568): 4 successes, a compound action of 2, "the remaining 2 successes
    /// // … 2 extra dice in the subsequent Riding roll".
    /// let mut l = Ledger::new(4);
    /// l.accomplish(2)?;
    /// assert_eq!(l.roll_over(2)?, 2);
    /// // With only 1 success, the swing succeeds but the landing fails.
    /// let mut one = Ledger::new(1);
    /// assert!(one.accomplish(2).is_err());
    /// one.accomplish(1)?;
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn accomplish(&mut self, sub_actions: u32) -> Result<(), Error> {
        self.take("Accomplish Action", sub_actions)?;
        self.accomplished += sub_actions;
        self.spends.push(Spend::Accomplish { sub_actions });
        Ok(())
    }

    /// Spends successes to finish faster (L1580–1591).
    ///
    /// # Errors
    /// [`Error::NotAccomplished`] before the Accomplish success; [`Error::Unaffordable`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Faster, Ledger};
    /// // E7 (L1469): 1 hour → 15 minutes "will take 4 additional successes … Alfredo needs
    /// // 5 successes".
    /// let mut l = Ledger::new(5);
    /// l.accomplish(1)?;
    /// l.faster(Faster::Quarter)?;
    /// assert_eq!(l.left(), 0);
    /// assert!(Ledger::new(4).faster(Faster::Quarter).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn faster(&mut self, faster: Faster) -> Result<(), Error> {
        self.take_extra("Accomplish Action Faster", faster.cost())?;
        self.spends.push(Spend::Faster(faster));
        Ok(())
    }

    /// Rolls `successes` over into as many bonus dice for one later roll (L216, L1593).
    ///
    /// # Errors
    /// [`Error::NotAccomplished`]; [`Error::Unaffordable`].
    ///
    /// ```
    /// let mut l = dice_robots_and_rapiers::Ledger::new(3);
    /// l.accomplish(1)?;
    /// assert_eq!(l.roll_over(2)?, 2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn roll_over(&mut self, successes: u32) -> Result<u32, Error> {
        self.bonus(successes, Breadth::Single)
    }

    /// Rolls `successes` over into a bonus of the given breadth: ½ for Persistent or
    /// Multiple, ¼ for both, rounded down (L218, L1621–1625). Returns the bonus dice.
    ///
    /// # Errors
    /// [`Error::NotAccomplished`]; [`Error::Unaffordable`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Breadth, Ledger};
    /// // E14 (L1613): 6 successes, Difficulty 2 → net 4; "1 of those accomplishes the
    /// // action, leaving 3 … 2 of the 3 into a +1 Persistent bonus … The last one … 1 time +1".
    /// let mut l = Ledger::new(6 - 2);
    /// l.accomplish(1)?;
    /// assert_eq!(l.bonus(2, Breadth::Persistent)?, 1);
    /// assert_eq!(l.roll_over(1)?, 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn bonus(&mut self, successes: u32, breadth: Breadth) -> Result<u32, Error> {
        self.take_extra("a roll-over bonus", successes)?;
        let bonus = breadth.bonus(successes);
        self.spends.push(Spend::RollOver {
            successes,
            breadth,
            bonus,
        });
        Ok(bonus)
    }

    /// Spends `successes` to lower a target's Saving Throw TN ("damage", L224, L1735),
    /// with the breadth's ½ or ¼ for several targets or saves. Returns the (negative)
    /// TN change.
    ///
    /// # Errors
    /// [`Error::NotAccomplished`]; [`Error::Unaffordable`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Breadth, Ledger};
    /// // E27 (L1912): "Juliard wins this roll with 3 successes. The first … trigger a
    /// // Processor Save. The next two increase the difficulty of this save by 2."
    /// let mut l = Ledger::new(3);
    /// l.accomplish(1)?;
    /// assert_eq!(l.lower_save_tn(2, Breadth::Single)?, -2);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn lower_save_tn(&mut self, successes: u32, breadth: Breadth) -> Result<i32, Error> {
        self.save_tn(successes, breadth, -1)
    }

    /// Spends `successes` to raise one of the robot's own future Saving Throw TNs (L226,
    /// L1736). Returns the (positive) TN change.
    ///
    /// # Errors
    /// [`Error::NotAccomplished`]; [`Error::Unaffordable`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Breadth, Ledger};
    /// // E21 (L1744): 2 successes, "The second success is spent to increase his Durability
    /// // Target Number by 1" — for one shot only, since ×½ of 1 is 0.
    /// let mut l = Ledger::new(2);
    /// l.accomplish(1)?;
    /// assert_eq!(Breadth::Persistent.bonus(1), 0);
    /// assert_eq!(l.raise_save_tn(1, Breadth::Single)?, 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn raise_save_tn(&mut self, successes: u32, breadth: Breadth) -> Result<i32, Error> {
        self.save_tn(successes, breadth, 1)
    }

    fn save_tn(&mut self, successes: u32, breadth: Breadth, sign: i32) -> Result<i32, Error> {
        self.take_extra("a Saving Throw TN", successes)?;
        let change = sign * breadth.bonus(successes).min(i32::MAX as u32) as i32;
        self.spends.push(Spend::SaveTn {
            successes,
            breadth,
            change,
        });
        Ok(change)
    }

    /// Restores temporarily lost attribute points, 1 per success (L254, L1703), or
    /// malfunction losses on a Robot Repair vs. Articulation roll (L1719; 1:1, digest
    /// reading).
    ///
    /// Unlike the other purchases this needs no Accomplish success first: "Robots may spend
    /// the first couple successes of a Fencing roll to negate a Locomotion loss" (L1705),
    /// the GM may require losses "to be bought off as soon as possible" (L1707), and a
    /// surprise loss or the Shut Down Override penalty must be bought off with the first
    /// successes (L2053, L1842). Successes spent so are not there to accomplish the action.
    ///
    /// # Errors
    /// [`Error::Unaffordable`].
    ///
    /// ```
    /// let mut l = dice_robots_and_rapiers::Ledger::new(3);
    /// assert_eq!(l.restore(2)?, 2); // the first two successes buy off the loss
    /// l.accomplish(1)?;
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn restore(&mut self, points: u32) -> Result<u32, Error> {
        self.take("restoring attributes", points)?;
        self.spends.push(Spend::Restore { points });
        Ok(points)
    }

    /// Spends `points` successes on regaining Action Points, 1 per success (L228, L1723).
    /// Returns the points gained — like [`Ledger::restore`], it takes and returns a gain.
    ///
    /// This only spends the successes: the Action Points themselves, and their maximum of
    /// Processor + Self Awareness (L2160), belong to the [`crate::Conflict`], whose
    /// [`crate::Conflict::regain`] calls this after checking the maximum. Use that in a
    /// conflict, so the points are spent and gained exactly once.
    ///
    /// # Errors
    /// [`Error::NotAccomplished`]; [`Error::Unaffordable`].
    ///
    /// ```
    /// // E38 (L2166): "Charles wins the defense by 2 successes … replenishes his stock of
    /// // Action Points by 2 points" (a defence: its ledger is augmenting, nothing to
    /// // accomplish but the block).
    /// let mut l = dice_robots_and_rapiers::Ledger::augmenting(2);
    /// assert_eq!(l.regain_action_points(2)?, 2);
    /// assert!(l.regain_action_points(1).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn regain_action_points(&mut self, points: u32) -> Result<u32, Error> {
        self.take_extra("regaining Action Points", points)?;
        self.spends.push(Spend::ActionPoints { points });
        Ok(points)
    }

    /// Buys a crafted special effect costing `cost` dice (L1676–1693).
    ///
    /// # Errors
    /// [`Error::NotAccomplished`]; [`Error::Unaffordable`].
    ///
    /// ```
    /// let mut l = dice_robots_and_rapiers::Ledger::new(3);
    /// l.accomplish(1)?;
    /// l.special_effect(2)?; // a poison ring (L1684)
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn special_effect(&mut self, cost: u32) -> Result<(), Error> {
        self.take_extra("a special effect", cost)?;
        self.spends.push(Spend::SpecialEffect { cost });
        Ok(())
    }
}

impl fmt::Display for Ledger {
    /// `4 successes: 1 → accomplish, 1 → +1 roll-over, 2 → +1 persistent; 0 left`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} successes", self.total)?;
        if self.augmenting {
            f.write_str(" (augmenting)")?;
        }
        for (i, s) in self.spends.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { ", " })?;
            write!(f, "{s}")?;
        }
        write!(f, "; {} left", self.left)
    }
}
