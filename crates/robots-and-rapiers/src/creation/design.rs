//! Design Points: "Roll X + Anthropoid Class in d10s and sum X highest dice" (L425,
//! L587-597), on dice-core's keep-highest [`Sum`].

use core::fmt;
use std::collections::BTreeMap;

use dice_core::{Die, Dist, Exact, Keep, Pool, Rng, Roll, RollDetailed, RollRecord, Sum};

use super::error::CreationError;
use super::tables::{AnthropoidClass, RandomSize, Size, SocialRoll, check_face};

/// The largest Design Dice "X" accepted (the table's is 8; the choice methods may go beyond
/// it, L565).
pub const MAX_DESIGN_DICE: u32 = 20;

/// The Design Points roll: `X + AC` d10s, the `X` highest summed (L591-596).
///
/// ```
/// use dice_robots_and_rapiers::creation::{AnthropoidClass, DesignPointsRoll, Size};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// // §5.7: "Size 6 (X = 6), AC 5 → roll 11d10 and keep the 6 highest".
/// let roll = DesignPointsRoll::for_robot(Size::new(6)?, AnthropoidClass::new(5)?);
/// assert_eq!(roll.dice(), 11);
/// assert_eq!(roll.to_string(), "11d10kh6");
/// let dp = roll.roll(&mut Xoshiro256PlusPlus::seed_from_u64(3));
/// assert!((6..=60).contains(&dp));
/// let law = roll.distribution()?;
/// assert!(law.mean() > 40.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignPointsRoll {
    design_dice: u32,
    anthropoid_class: u32,
    sum: Sum,
}

impl DesignPointsRoll {
    /// `design_dice + anthropoid_class` d10s keeping the `design_dice` highest.
    ///
    /// # Errors
    /// [`CreationError::DesignRoll`] unless `1 <= design_dice <= MAX_DESIGN_DICE` and
    /// `anthropoid_class <= 10`.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::DesignPointsRoll;
    /// assert_eq!(DesignPointsRoll::new(5, 2)?.dice(), 7);
    /// assert!(DesignPointsRoll::new(0, 2).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn new(design_dice: u32, anthropoid_class: u32) -> Result<Self, CreationError> {
        if !(1..=MAX_DESIGN_DICE).contains(&design_dice) || anthropoid_class > 10 {
            return Err(CreationError::DesignRoll {
                design_dice,
                anthropoid_class,
                max_x: MAX_DESIGN_DICE,
            });
        }
        let pool = Pool::new(design_dice + anthropoid_class, Die::D10)?;
        let sum = Sum::new(pool, Keep::Highest(design_dice), 0)?;
        Ok(DesignPointsRoll {
            design_dice,
            anthropoid_class,
            sum,
        })
    }

    /// The roll for a robot of `size` and starting `class` ("before adding any accessories",
    /// L591). Cannot fail: every Size has 2-8 Design Dice.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{AnthropoidClass, DesignPointsRoll, Size};
    /// let r = DesignPointsRoll::for_robot(Size::new(8)?, AnthropoidClass::new(0)?);
    /// assert_eq!((r.design_dice(), r.dice()), (7, 7));
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn for_robot(size: Size, class: AnthropoidClass) -> Self {
        // X is 2..=8 and the class 0..=10, both within range.
        let x = size.design_dice();
        let ac = u32::from(class.value());
        let sum = Pool::new(x + ac, Die::D10)
            .and_then(|p| Sum::new(p, Keep::Highest(x), 0))
            .unwrap_or_else(|_| unreachable_sum());
        DesignPointsRoll {
            design_dice: x,
            anthropoid_class: ac,
            sum,
        }
    }

    /// "X", the dice kept.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::DesignPointsRoll;
    /// assert_eq!(DesignPointsRoll::new(6, 3)?.design_dice(), 6);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn design_dice(&self) -> u32 {
        self.design_dice
    }

    /// The extra dice, one per point of starting Anthropoid Class.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::DesignPointsRoll;
    /// assert_eq!(DesignPointsRoll::new(6, 3)?.anthropoid_class(), 3);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn anthropoid_class(&self) -> u32 {
        self.anthropoid_class
    }

    /// Dice rolled: X + Anthropoid Class.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::DesignPointsRoll;
    /// assert_eq!(DesignPointsRoll::new(6, 3)?.dice(), 9);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn dice(&self) -> u32 {
        self.design_dice + self.anthropoid_class
    }

    /// The dice-core mechanic underneath.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::DesignPointsRoll;
    /// use dice_core::Keep;
    /// assert_eq!(DesignPointsRoll::new(6, 3)?.sum().keep(), Keep::Highest(6));
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn sum(&self) -> &Sum {
        &self.sum
    }

    /// The Design Points of dice already rolled: the sum of the X highest faces.
    ///
    /// # Errors
    /// [`CreationError::DiceCount`] unless `faces.len()` is [`DesignPointsRoll::dice`];
    /// [`CreationError::Face`] for a face outside 1..=10.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::DesignPointsRoll;
    /// let r = DesignPointsRoll::new(2, 2)?;
    /// assert_eq!(r.from_faces(&[3, 10, 7, 1])?, 17);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_faces(&self, faces: &[u32]) -> Result<u32, CreationError> {
        if faces.len() != self.dice() as usize {
            return Err(CreationError::DiceCount {
                expected: self.dice() as usize,
                got: faces.len(),
            });
        }
        let mut f = faces
            .iter()
            .map(|&x| check_face(x).map(u32::from))
            .collect::<Result<Vec<u32>, _>>()?;
        f.sort_unstable_by(|a, b| b.cmp(a));
        Ok(f.iter().take(self.design_dice as usize).sum())
    }
}

/// Never reached: [`DesignPointsRoll::for_robot`]'s inputs are always in range. A plain
/// 1d10 keeps the function total without a panic.
fn unreachable_sum() -> Sum {
    Pool::new(1, Die::D10)
        .and_then(|p| Sum::new(p, Keep::All, 0))
        .unwrap_or_else(|_| unreachable!("1d10 is a valid sum"))
}

impl Roll for DesignPointsRoll {
    /// The Design Points.
    type Outcome = u32;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.sum.roll(rng) as u32
    }
}

impl Exact for DesignPointsRoll {
    /// dice-core's keep-highest order-statistics law.
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        Ok(self.sum.distribution()?.map(|&t| t as u32))
    }
}

impl RollDetailed for DesignPointsRoll {
    /// Every die, the dropped ones flagged; `total` is the Design Points.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.sum.roll_record_into(rng, record);
    }
}

impl rand::distr::Distribution<u32> for DesignPointsRoll {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for DesignPointsRoll {
    /// `11d10kh6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d10kh{}", self.dice(), self.design_dice)
    }
}

/// The random method's Design Points from scratch: Body Type, Vocalization, gender and Size
/// rolled (L413-423), then the Design Points roll for that Size and Anthropoid Class. Its law
/// is the mixture of the keep-highest laws over the 10⁴ table outcomes.
///
/// ```
/// use dice_robots_and_rapiers::creation::RandomDesignPoints;
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let law = RandomDesignPoints.distribution()?;
/// assert!((law.total() - 1.0).abs() < 1e-9);
/// let dp = RandomDesignPoints.roll(&mut Xoshiro256PlusPlus::seed_from_u64(9));
/// assert!((5..=70).contains(&dp));
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RandomDesignPoints;

impl Roll for RandomDesignPoints {
    type Outcome = u32;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let social = SocialRoll.roll(rng);
        let size = RandomSize.roll(rng);
        DesignPointsRoll::for_robot(size, social.anthropoid_class()).roll(rng)
    }
}

impl Exact for RandomDesignPoints {
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        let classes = SocialRoll.anthropoid_class_distribution();
        let sizes = RandomSize.distribution()?;
        // The laws depend on (X, AC) only; sizes 4-7 share X = 6.
        let mut by_x: BTreeMap<u32, f64> = BTreeMap::new();
        for (s, p) in sizes.iter() {
            *by_x.entry(s.design_dice()).or_default() += p;
        }
        let x_law = Dist::from_pairs(by_x)?;
        classes.and_then(|ac| {
            x_law.and_then(|&x| {
                DesignPointsRoll::new(x, u32::from(ac.value()))
                    .map_err(|_| dice_core::Error::Probability { value: f64::NAN })?
                    .distribution()
            })
        })
    }
}

impl rand::distr::Distribution<u32> for RandomDesignPoints {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for RandomDesignPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("random Design Points (Body, Vocalization, gender, Size, then X+AC d10 kh X)")
    }
}
