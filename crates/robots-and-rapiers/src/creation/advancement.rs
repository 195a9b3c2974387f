//! Role and Self Awareness (L532-544, L1020-1040), and advancement with Inspiration
//! (L1183-1367): what each use costs, the Memory Saves that go with raising and learning
//! Programs (with their exact odds), and the effects of a Self Awareness increase.

use core::fmt;

use dice_core::{Die, DieRoll, Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Source};

use super::error::CreationError;
use super::personality::{MAX_TRAIT_RATING, PersonalityTrait, TraitKind};
use super::programs::{CORE_BASE, Core, CorePrograms};
use super::rules::{CreationRules, ProgramIncreaseCost, TraitCount};
use super::tables::{AnthropoidClass, check_face, d10};

/// Role and Self Awareness: each 0-10 and "Role + Self Awareness = 10 at all times" (L418,
/// L1026, A35).
///
/// ```
/// use dice_robots_and_rapiers::creation::RoleAwareness;
/// let start = RoleAwareness::STARTING;
/// assert_eq!((start.role(), start.self_awareness()), (10, 0));
/// let spark = RoleAwareness::from_self_awareness(6)?;
/// assert_eq!(spark.role(), 4);
/// assert_eq!(spark.inspiration_dice(), 3); // ½ Self Awareness, rounded down (L1203)
/// assert_eq!(spark.to_string(), "Role 4, Self Awareness 6");
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "RoleAwarenessData", into = "RoleAwarenessData")
)]
pub struct RoleAwareness {
    self_awareness: u8,
}

impl RoleAwareness {
    /// Every starting character: Role 10, Self Awareness 0 (L416-417).
    pub const STARTING: RoleAwareness = RoleAwareness { self_awareness: 0 };

    /// Role `role` and Self Awareness `self_awareness`, checked.
    ///
    /// # Errors
    /// [`CreationError::RoleAwareness`] unless both are 0-10 and add up to 10.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::RoleAwareness;
    /// assert!(RoleAwareness::new(7, 3).is_ok());
    /// assert!(RoleAwareness::new(7, 2).is_err());
    /// ```
    pub fn new(role: u8, self_awareness: u8) -> Result<Self, CreationError> {
        if role > 10 || self_awareness > 10 || role + self_awareness != 10 {
            return Err(CreationError::RoleAwareness {
                role,
                self_awareness,
            });
        }
        Ok(RoleAwareness { self_awareness })
    }

    /// The pair with Role `role` (an "experienced" robot starts below 10, A35).
    ///
    /// # Errors
    /// [`CreationError::RoleAwareness`] above 10.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::RoleAwareness;
    /// assert_eq!(RoleAwareness::from_role(8)?.self_awareness(), 2);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_role(role: u8) -> Result<Self, CreationError> {
        Self::new(role, 10u8.saturating_sub(role))
    }

    /// The pair with Self Awareness `self_awareness`.
    ///
    /// # Errors
    /// [`CreationError::RoleAwareness`] above 10.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::RoleAwareness;
    /// assert_eq!(RoleAwareness::from_self_awareness(10)?.role(), 0);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_self_awareness(self_awareness: u8) -> Result<Self, CreationError> {
        Self::new(10u8.saturating_sub(self_awareness), self_awareness)
    }

    /// The Role Score.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::RoleAwareness;
    /// assert_eq!(RoleAwareness::STARTING.role(), 10);
    /// ```
    pub const fn role(self) -> u8 {
        10u8.saturating_sub(self.self_awareness)
    }

    /// The Self Awareness Score.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::RoleAwareness;
    /// assert_eq!(RoleAwareness::STARTING.self_awareness(), 0);
    /// ```
    pub const fn self_awareness(self) -> u8 {
        self.self_awareness
    }

    /// Dice of an Inspiration Roll: ½ Self Awareness rounded down (L1203, L1062).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::RoleAwareness;
    /// // E5 (L1455): Self Awareness 2 gives 1 die.
    /// assert_eq!(RoleAwareness::from_self_awareness(2)?.inspiration_dice(), 1);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn inspiration_dice(self) -> u8 {
        self.self_awareness / 2
    }
}

/// The stored form of [`RoleAwareness`]: both scores, checked when read back.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct RoleAwarenessData {
    role: u8,
    self_awareness: u8,
}

#[cfg(feature = "serde")]
impl TryFrom<RoleAwarenessData> for RoleAwareness {
    type Error = CreationError;
    fn try_from(d: RoleAwarenessData) -> Result<Self, CreationError> {
        RoleAwareness::new(d.role, d.self_awareness)
    }
}

#[cfg(feature = "serde")]
impl From<RoleAwareness> for RoleAwarenessData {
    fn from(r: RoleAwareness) -> Self {
        RoleAwarenessData {
            role: r.role(),
            self_awareness: r.self_awareness,
        }
    }
}

impl Default for RoleAwareness {
    fn default() -> Self {
        Self::STARTING
    }
}

impl fmt::Display for RoleAwareness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Role {}, Self Awareness {}",
            self.role(),
            self.self_awareness
        )
    }
}

// ------------------------------------------------------------------------- Self Awareness

/// Inspiration to reach Self Awareness `level`: the base cost (2) per level, doubled when the
/// level is at or under the robot's Anthropoid Class (L1316; A38: its current class).
///
/// # Errors
/// [`CreationError::SelfAwarenessLevel`] unless `1 <= level <= 10`.
///
/// ```
/// use dice_robots_and_rapiers::creation::{AnthropoidClass, CreationRules, self_awareness_cost};
/// let rules = CreationRules::default();
/// let ac4 = AnthropoidClass::new(4)?;
/// assert_eq!(self_awareness_cost(4, ac4, &rules)?, 16); // doubled: 4 ≤ AC 4
/// assert_eq!(self_awareness_cost(5, ac4, &rules)?, 10);
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
pub fn self_awareness_cost(
    level: u8,
    class: AnthropoidClass,
    rules: &CreationRules,
) -> Result<u32, CreationError> {
    if !(1..=10).contains(&level) {
        return Err(CreationError::SelfAwarenessLevel { level });
    }
    let base = rules
        .self_awareness_base_cost
        .saturating_mul(u32::from(level));
    Ok(if level <= class.value() {
        base.saturating_mul(2)
    } else {
        base
    })
}

/// Inspiration to go from Self Awareness 0 to `level` (the cumulative column of L1318-1332).
///
/// # Errors
/// [`CreationError::SelfAwarenessLevel`] above 10.
///
/// ```
/// use dice_robots_and_rapiers::creation::{AnthropoidClass, CreationRules, self_awareness_total};
/// // E43 (L1336): "With the standard cost it takes 182 Inspiration" (AC 8).
/// let ac8 = AnthropoidClass::new(8)?;
/// assert_eq!(self_awareness_total(10, ac8, &CreationRules::default())?, 182);
/// assert_eq!(self_awareness_total(0, ac8, &CreationRules::default())?, 0);
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
pub fn self_awareness_total(
    level: u8,
    class: AnthropoidClass,
    rules: &CreationRules,
) -> Result<u32, CreationError> {
    if level > 10 {
        return Err(CreationError::SelfAwarenessLevel { level });
    }
    (1..=level).try_fold(0u32, |acc, l| {
        Ok(acc + self_awareness_cost(l, class, rules)?)
    })
}

/// The net change in total dice levels after reaching Self Awareness `sa`, under the
/// assumptions of the table at L1076-1087 (9 programs, 3 per Core, the highest Core always
/// carrying 3): each level loses 3 Core-linked dice and gains the new level in free program
/// levels, so `−3·SA + SA(SA+1)/2`.
///
/// ```
/// use dice_robots_and_rapiers::creation::net_dice_change;
/// let table: Vec<i32> = (0..=10).map(net_dice_change).collect();
/// assert_eq!(table, [0, -2, -3, -3, -2, 0, 3, 7, 12, 18, 25]); // E44
/// ```
pub const fn net_dice_change(sa: u8) -> i32 {
    let s = sa as i32;
    -3 * s + s * (s + 1) / 2
}

// ---------------------------------------------------------------------- Memory Saves

/// The number of 3d10 at or under `tn` (clamped to 0..=10, A7) as an exact law.
fn save_successes(tn: i32) -> Dist<u8> {
    let p = f64::from(tn.clamp(0, 10)) / 10.0;
    let q = 1.0 - p;
    let pairs = [
        (0u8, q * q * q),
        (1, 3.0 * p * q * q),
        (2, 3.0 * p * p * q),
        (3, p * p * p),
    ];
    Dist::from_pairs(pairs).unwrap_or_else(|_| Dist::certain(0))
}

fn record_save<R: Rng + ?Sized>(rng: &mut R, record: &mut RollRecord, tn: i32) -> u8 {
    record.clear();
    let mut successes = 0;
    for _ in 0..3 {
        let f = d10(rng);
        record
            .dice
            .push(DieRoll::new(Die::D10, u32::from(f), Source::Primary));
        if i32::from(f) <= tn {
            successes += 1;
        }
    }
    record.total = i64::from(successes);
    successes
}

fn count_faces(faces: [u32; 3], tn: i32) -> Result<u8, CreationError> {
    let mut successes = 0;
    for f in faces {
        if i32::from(check_face(f)?) <= tn {
            successes += 1;
        }
    }
    Ok(successes)
}

/// Raising a known Program to `level` (L1276-1288): spend 2 Inspiration, then a Memory Save on
/// 3d10 at TN Memory − the desired level (+ training successes); one success qualifies and each
/// failed die costs 2 more.
///
/// ```
/// use dice_robots_and_rapiers::creation::{CreationRules, IncreaseOutcome, ProgramIncrease};
/// use dice_core::Exact;
/// let raise = ProgramIncrease::new(7, 4, 0)?; // Memory 7, to level 4: TN 3
/// assert_eq!(raise.target(), 3);
/// let o = raise.from_faces([2, 9, 5])?;
/// assert_eq!(o, IncreaseOutcome::Qualified { failed: 2 });
/// assert_eq!(o.cost(4, &CreationRules::default()), 6);
/// let law = raise.distribution()?;
/// assert!((law.probability(&IncreaseOutcome::NotQualified) - 0.343).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProgramIncrease {
    memory: u8,
    level: u8,
    training: u8,
}

impl ProgramIncrease {
    /// Raising a Program to `level` with Memory `memory` and `training` successes from
    /// training Tests or a Sparked teacher (raising the TN, L1284).
    ///
    /// # Errors
    /// [`CreationError::ProgramIncreaseLevel`] unless `1 <= level <= 10`.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::ProgramIncrease;
    /// assert!(ProgramIncrease::new(5, 11, 0).is_err());
    /// ```
    pub fn new(memory: u8, level: u8, training: u8) -> Result<Self, CreationError> {
        if !(1..=10).contains(&level) {
            return Err(CreationError::ProgramIncreaseLevel { level });
        }
        Ok(ProgramIncrease {
            memory,
            level,
            training,
        })
    }

    /// The Memory Save's TN: Memory − level + training (not clamped; a TN of 0 or less cannot
    /// succeed and 10 or more always does).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::ProgramIncrease;
    /// assert_eq!(ProgramIncrease::new(4, 6, 1)?.target(), -1);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn target(&self) -> i32 {
        i32::from(self.memory) - i32::from(self.level) + i32::from(self.training)
    }

    /// The outcome of three d10s already rolled.
    ///
    /// # Errors
    /// [`CreationError::Face`].
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::{IncreaseOutcome, ProgramIncrease};
    /// let r = ProgramIncrease::new(5, 3, 0)?;
    /// assert_eq!(r.from_faces([3, 4, 10])?, IncreaseOutcome::NotQualified);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_faces(&self, faces: [u32; 3]) -> Result<IncreaseOutcome, CreationError> {
        Ok(IncreaseOutcome::of(count_faces(faces, self.target())?))
    }
}

/// How a Program increase's Memory Save came out.
///
/// ```
/// use dice_robots_and_rapiers::creation::IncreaseOutcome;
/// assert_eq!(IncreaseOutcome::Qualified { failed: 1 }.to_string(), "qualified, 1 failed die");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum IncreaseOutcome {
    /// No success: the level is not gained and the initial 2 are lost (A29).
    NotQualified,
    /// At least one success: the level is gained if 2 more per failed die are paid.
    Qualified {
        /// Failed dice, 0-2.
        failed: u8,
    },
}

impl IncreaseOutcome {
    fn of(successes: u8) -> Self {
        if successes == 0 {
            IncreaseOutcome::NotQualified
        } else {
            IncreaseOutcome::Qualified {
                failed: 3 - successes,
            }
        }
    }

    /// The full Inspiration cost of gaining `level` this way: 2 + 2 per failed die (the
    /// ruling A29; [`ProgramIncreaseCost::DesiredLevel`] gives `level`, L1278), doubled by
    /// [`CreationRules::double_other_costs`]. `NotQualified` costs the initial 2.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{CreationRules, IncreaseOutcome, ProgramIncreaseCost};
    /// let rules = CreationRules::default();
    /// assert_eq!(IncreaseOutcome::Qualified { failed: 0 }.cost(5, &rules), 2);
    /// assert_eq!(IncreaseOutcome::NotQualified.cost(5, &rules), 2);
    /// let by_level = CreationRules { program_increase_cost: ProgramIncreaseCost::DesiredLevel, ..rules };
    /// assert_eq!(IncreaseOutcome::Qualified { failed: 2 }.cost(5, &by_level), 5);
    /// ```
    pub fn cost(self, level: u8, rules: &CreationRules) -> u32 {
        let c = match (rules.program_increase_cost, self) {
            (ProgramIncreaseCost::DesiredLevel, _) => u32::from(level),
            (_, IncreaseOutcome::NotQualified) => 2,
            (_, IncreaseOutcome::Qualified { failed }) => 2 + 2 * u32::from(failed),
        };
        rules.inspiration(c)
    }

    /// Settles the increase against the Inspiration available, returning the Inspiration
    /// spent and whether the level is gained. "If this additional cost is not paid, the level
    /// is not gained but the initial two points are lost" (L1282).
    ///
    /// # Errors
    /// [`CreationError::Unaffordable`] when even the initial 2 cannot be paid.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{CreationRules, IncreaseOutcome};
    /// let rules = CreationRules::default();
    /// let o = IncreaseOutcome::Qualified { failed: 2 };
    /// assert_eq!(o.settle(5, 10, &rules)?, (6, true));
    /// assert_eq!(o.settle(5, 4, &rules)?, (2, false)); // cannot pay the extra 4
    /// assert!(o.settle(5, 1, &rules).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn settle(
        self,
        level: u8,
        available: u32,
        rules: &CreationRules,
    ) -> Result<(u32, bool), CreationError> {
        let initial = match rules.program_increase_cost {
            ProgramIncreaseCost::DesiredLevel => self.cost(level, rules),
            ProgramIncreaseCost::MemorySave => rules.inspiration(2),
        };
        if available < initial {
            return Err(CreationError::Unaffordable {
                what: "raising a Program",
                cost: initial,
                available,
            });
        }
        let full = self.cost(level, rules);
        match self {
            IncreaseOutcome::Qualified { .. } if full <= available => Ok((full, true)),
            _ if rules.program_increase_cost == ProgramIncreaseCost::DesiredLevel => {
                Ok((full, true))
            }
            _ => Ok((initial, false)),
        }
    }
}

impl fmt::Display for IncreaseOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IncreaseOutcome::NotQualified => f.write_str("not qualified"),
            IncreaseOutcome::Qualified { failed: 1 } => f.write_str("qualified, 1 failed die"),
            IncreaseOutcome::Qualified { failed } => write!(f, "qualified, {failed} failed dice"),
        }
    }
}

impl Roll for ProgramIncrease {
    type Outcome = IncreaseOutcome;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> IncreaseOutcome {
        let tn = self.target();
        let s = (0..3).filter(|_| i32::from(d10(rng)) <= tn).count() as u8;
        IncreaseOutcome::of(s)
    }
}

impl Exact for ProgramIncrease {
    /// Binomial(3, TN/10) successes, mapped to the outcome.
    fn distribution(&self) -> Result<Dist<IncreaseOutcome>, dice_core::Error> {
        Ok(save_successes(self.target()).map(|&s| IncreaseOutcome::of(s)))
    }
}

impl RollDetailed for ProgramIncrease {
    /// The three dice; `total` is the successes.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record_save(rng, record, self.target());
    }
}

impl fmt::Display for ProgramIncrease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "raise a Program to level {}: Memory Save 3d10 at TN {}",
            self.level,
            self.target()
        )
    }
}

/// Learning a new Program at level 0 (L1290-1299): spend the learning cost (4, A28), then a
/// Memory Save on 3d10 at TN Memory (+ training) that must be a Total Success.
///
/// ```
/// use dice_robots_and_rapiers::creation::LearnProgram;
/// use dice_core::Exact;
/// let learn = LearnProgram::new(6, 1); // Memory 6, 1 training success: TN 7
/// assert_eq!(learn.from_faces([7, 1, 3])?, true);
/// assert_eq!(learn.from_faces([7, 8, 3])?, false);
/// let p = learn.distribution()?.probability(&true);
/// assert!((p - 0.7f64.powi(3)).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LearnProgram {
    memory: u8,
    training: u8,
}

impl LearnProgram {
    /// Learning with Memory `memory` and `training` successes.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::LearnProgram;
    /// assert_eq!(LearnProgram::new(5, 0).target(), 5);
    /// ```
    pub const fn new(memory: u8, training: u8) -> Self {
        LearnProgram { memory, training }
    }

    /// The TN: Memory − 0 + training.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::LearnProgram;
    /// assert_eq!(LearnProgram::new(5, 2).target(), 7);
    /// ```
    pub const fn target(&self) -> i32 {
        self.memory as i32 + self.training as i32
    }

    /// Whether three d10s already rolled learn the Program (all three at or under the TN).
    ///
    /// # Errors
    /// [`CreationError::Face`].
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::LearnProgram;
    /// assert!(LearnProgram::new(10, 0).from_faces([10, 10, 10])?);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_faces(&self, faces: [u32; 3]) -> Result<bool, CreationError> {
        Ok(count_faces(faces, self.target())? == 3)
    }

    /// The Inspiration to spend before the save: the learning cost (4, A28), doubled by the
    /// slow dial; refused without an Inspired Roll when the rules require one (A30), or when
    /// it cannot be paid.
    ///
    /// # Errors
    /// [`CreationError::NoInspiredRoll`], [`CreationError::Unaffordable`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{CreationError, CreationRules, LearnProgram};
    /// let rules = CreationRules::default();
    /// assert_eq!(LearnProgram::cost(true, 10, &rules)?, 4);
    /// assert_eq!(LearnProgram::cost(false, 10, &rules), Err(CreationError::NoInspiredRoll));
    /// assert!(LearnProgram::cost(true, 3, &rules).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn cost(
        inspired_roll: bool,
        available: u32,
        rules: &CreationRules,
    ) -> Result<u32, CreationError> {
        if rules.learning_needs_inspired_roll && !inspired_roll {
            return Err(CreationError::NoInspiredRoll);
        }
        afford(
            "learning a Program",
            rules.inspiration(rules.learn_program_cost),
            available,
        )
    }
}

impl Roll for LearnProgram {
    /// Whether the Program is learned.
    type Outcome = bool;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> bool {
        let tn = self.target();
        (0..3).filter(|_| i32::from(d10(rng)) <= tn).count() == 3
    }
}

impl Exact for LearnProgram {
    fn distribution(&self) -> Result<Dist<bool>, dice_core::Error> {
        Ok(save_successes(self.target()).map(|&s| s == 3))
    }
}

impl RollDetailed for LearnProgram {
    /// The three dice; `total` is the successes.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record_save(rng, record, self.target());
    }
}

impl fmt::Display for LearnProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "learn a Program: Memory Save 3d10 at TN {}, Total Success needed",
            self.target()
        )
    }
}

/// `cost` if `available` covers it.
///
/// # Errors
/// [`CreationError::Unaffordable`].
///
/// ```
/// use dice_robots_and_rapiers::creation::afford;
/// assert_eq!(afford("Dramatic Control", 3, 5)?, 3);
/// assert!(afford("Dramatic Control", 3, 2).is_err());
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
pub fn afford(what: &'static str, cost: u32, available: u32) -> Result<u32, CreationError> {
    if cost > available {
        Err(CreationError::Unaffordable {
            what,
            cost,
            available,
        })
    } else {
        Ok(cost)
    }
}

// ---------------------------------------------------------------------------- traits

/// Inspiration for one trait level, new or raised: "1 Inspiration per number of existing
/// Traits" (L1309), counted by [`CreationRules::trait_count`] and at least 1 (A31).
///
/// ```
/// use dice_robots_and_rapiers::creation::{CreationRules, PersonalityTrait, TraitKind,
///     trait_level_cost};
/// let traits = [
///     PersonalityTrait::role("Loyal to the King", 3)?,
///     PersonalityTrait::new("Hates the Cardinal", 1, TraitKind::SelfAwareness)?,
///     PersonalityTrait::new("Loves music", 2, TraitKind::SelfAwareness)?,
/// ];
/// let rules = CreationRules::default();
/// assert_eq!(trait_level_cost(&traits, &rules), 2);
/// assert_eq!(trait_level_cost(&[], &rules), 1);
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
pub fn trait_level_cost(traits: &[PersonalityTrait], rules: &CreationRules) -> u32 {
    let n = traits
        .iter()
        .filter(|t| rules.trait_count == TraitCount::All || t.kind == TraitKind::SelfAwareness)
        .count() as u32;
    rules.inspiration(n.max(1))
}

/// Inspiration to lower a trait one level: "3 Inspiration per current level of the Trait (9,
/// 6, or 3)" (L1310). Only Self Awareness-related traits (L1303).
///
/// # Errors
/// [`CreationError::RoleTraitNotForSale`] for a Role-related trait.
///
/// ```
/// use dice_robots_and_rapiers::creation::{CreationRules, PersonalityTrait, TraitKind,
///     trait_decrease_cost};
/// let rules = CreationRules::default();
/// let costs: Vec<u32> = (1..=3)
///     .map(|r| trait_decrease_cost(&PersonalityTrait::new("Vain", r, TraitKind::SelfAwareness)?, &rules))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(costs, [3, 6, 9]);
/// assert!(trait_decrease_cost(&PersonalityTrait::role("Vain", 2)?, &rules).is_err());
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
pub fn trait_decrease_cost(
    t: &PersonalityTrait,
    rules: &CreationRules,
) -> Result<u32, CreationError> {
    if t.kind == TraitKind::Role {
        return Err(CreationError::RoleTraitNotForSale);
    }
    Ok(rules.inspiration(3 * u32::from(t.rating)))
}

// ---------------------------------------------------------------------- Dramatic Control

/// How far-reaching a Dramatic Control is (L1236-1254).
///
/// ```
/// use dice_robots_and_rapiers::creation::DramaticEffect;
/// assert_eq!(DramaticEffect::Moderate.to_string(), "Moderate Effect");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DramaticEffect {
    /// Makes something possible (a roll, a prop, a fact).
    Minor,
    /// Accomplishes something without a roll.
    Moderate,
    /// Reaches beyond the scene.
    Major,
}

impl fmt::Display for DramaticEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            DramaticEffect::Minor => "Minor Effect",
            DramaticEffect::Moderate => "Moderate Effect",
            DramaticEffect::Major => "Major Effect",
        })
    }
}

/// A Dramatic Control as the GM prices it (L1236-1262): the effect, +1 for Stretching
/// Credibility, −1 when it Creates More Trouble.
///
/// ```
/// use dice_robots_and_rapiers::creation::{CreationRules, DramaticControl, DramaticEffect};
/// let rules = CreationRules::default();
/// let forged_letter = DramaticControl { effect: DramaticEffect::Major,
///     stretching_credibility: true, creates_more_trouble: false };
/// assert_eq!(forged_letter.cost(&rules), 6);
/// assert_eq!(DramaticControl::new(DramaticEffect::Minor).cost(&rules), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DramaticControl {
    /// The effect's reach.
    pub effect: DramaticEffect,
    /// "Stretching Credibility (+1 point)" (L1256).
    pub stretching_credibility: bool,
    /// "Creates More Trouble (-1 point)" (L1260).
    pub creates_more_trouble: bool,
}

impl DramaticControl {
    /// A plain effect, no adjustment.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{DramaticControl, DramaticEffect};
    /// assert!(!DramaticControl::new(DramaticEffect::Major).stretching_credibility);
    /// ```
    pub const fn new(effect: DramaticEffect) -> Self {
        DramaticControl {
            effect,
            stretching_credibility: false,
            creates_more_trouble: false,
        }
    }

    /// The Inspiration cost: [`CreationRules::dramatic_control`] for the effect (1 / 3 / 5,
    /// A27b), +1, −1 (never below 0), doubled by the slow dial.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{CreationRules, DramaticControl, DramaticEffect};
    /// let trouble = DramaticControl { effect: DramaticEffect::Moderate,
    ///     stretching_credibility: false, creates_more_trouble: true };
    /// assert_eq!(trouble.cost(&CreationRules::default()), 2);
    /// ```
    pub fn cost(&self, rules: &CreationRules) -> u32 {
        let base = rules.dramatic_control[self.effect as usize];
        let c = (base + u32::from(self.stretching_credibility))
            .saturating_sub(u32::from(self.creates_more_trouble));
        rules.inspiration(c)
    }
}

impl fmt::Display for DramaticControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.effect)?;
        if self.stretching_credibility {
            f.write_str(", stretching credibility")?;
        }
        if self.creates_more_trouble {
            f.write_str(", creates more trouble")?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------- the Spark

/// Which Self Awareness trait a Self Awareness increase raises (L1367).
///
/// ```
/// use dice_robots_and_rapiers::creation::AwarenessTrait;
/// let t = AwarenessTrait::New("Distrusts the Tapestry".into());
/// assert!(matches!(t, AwarenessTrait::New(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AwarenessTrait {
    /// Raise the Self Awareness trait at this index of the robot's traits by 1.
    Raise(usize),
    /// A new Self Awareness trait at rating 1.
    New(String),
}

/// The player's choices when Self Awareness goes up (L1342-1367).
///
/// ```
/// use dice_robots_and_rapiers::creation::{AwarenessChoices, AwarenessTrait, Core};
/// let c = AwarenessChoices { core: Some(Core::Social), role_trait: 0,
///     awareness_trait: AwarenessTrait::New("Curious".into()) };
/// assert_eq!(c.role_trait, 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AwarenessChoices {
    /// The Core Program to lower among those tied highest (`None`: the first tied, in the
    /// order Physical, Mental, Social).
    pub core: Option<Core>,
    /// Index (in the robot's traits) of the Role-related trait to lower by 1 (ignored when
    /// no Role-related trait is left).
    pub role_trait: usize,
    /// The Self Awareness trait to raise or add.
    pub awareness_trait: AwarenessTrait,
}

/// What a Self Awareness increase did.
///
/// ```
/// use dice_robots_and_rapiers::creation::AwarenessRaised;
/// let r = AwarenessRaised { level: 3, cost: 12, core_lowered: None, free_program_levels: 3 };
/// assert_eq!(r.to_string(), "Self Awareness 3 for 12 Inspiration: 3 free program levels");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AwarenessRaised {
    /// The new Self Awareness.
    pub level: u8,
    /// Inspiration spent.
    pub cost: u32,
    /// The Core Program that lost a level (`None` when all were at the minimum of 2).
    pub core_lowered: Option<Core>,
    /// Free program levels gained: the new level (L1347, L1361), for the caller to place
    /// (e.g. with [`Programs::raise`](super::Programs::raise)).
    pub free_program_levels: u8,
}

impl fmt::Display for AwarenessRaised {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Self Awareness {} for {} Inspiration: {} free program levels",
            self.level, self.cost, self.free_program_levels
        )?;
        if let Some(c) = self.core_lowered {
            write!(f, ", {c} −1")?;
        }
        Ok(())
    }
}

/// A Sparked robot's advancement state: Role and Self Awareness, Core Programs, traits and
/// Inspiration (only Sparked robots earn and spend it, L1052).
///
/// ```
/// use dice_robots_and_rapiers::creation::*;
/// let mut spark = Spark {
///     tapestry: RoleAwareness::STARTING,
///     anthropoid_class: AnthropoidClass::new(4)?,
///     core: CorePrograms { physical: 6, mental: 5, social: 5 },
///     traits: vec![PersonalityTrait::role("Loyal", 3)?, PersonalityTrait::role("Proud", 3)?,
///                  PersonalityTrait::role("Greedy", 2)?, PersonalityTrait::role("Brave", 2)?],
///     inspiration: 10,
/// };
/// let raised = spark.raise_self_awareness(&AwarenessChoices { core: None, role_trait: 0,
///     awareness_trait: AwarenessTrait::New("Questions the King".into()) },
///     &CreationRules::default())?;
/// assert_eq!(raised.cost, 4); // level 1 ≤ AC 4: doubled
/// assert_eq!(raised.core_lowered, Some(Core::Physical));
/// assert_eq!(spark.tapestry.role(), 9);
/// assert_eq!(spark.inspiration, 6);
/// assert_eq!(spark.traits[0].rating, 2);
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Spark {
    /// Role and Self Awareness.
    pub tapestry: RoleAwareness,
    /// The current Anthropoid Class (A38: the doubling of Self Awareness costs uses it).
    pub anthropoid_class: AnthropoidClass,
    /// Core Programs.
    pub core: CorePrograms,
    /// Personality Traits, Role- and Self Awareness-related.
    pub traits: Vec<PersonalityTrait>,
    /// Inspiration in hand.
    pub inspiration: u32,
}

impl Spark {
    /// Spends `cost` Inspiration on `what`.
    ///
    /// # Errors
    /// [`CreationError::Unaffordable`], leaving the Inspiration untouched.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::*;
    /// # let mut spark = Spark { tapestry: RoleAwareness::STARTING, anthropoid_class: AnthropoidClass::new(4)?,
    /// #     core: CorePrograms { physical: 6, mental: 5, social: 5 }, traits: vec![], inspiration: 3 };
    /// let minor = DramaticControl::new(DramaticEffect::Minor).cost(&CreationRules::default());
    /// spark.spend("Dramatic Control", minor)?;
    /// assert_eq!(spark.inspiration, 2);
    /// assert!(spark.spend("Dramatic Control", 3).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn spend(&mut self, what: &'static str, cost: u32) -> Result<(), CreationError> {
        self.inspiration -= afford(what, cost, self.inspiration)?;
        Ok(())
    }

    /// Buys one Self Awareness trait level (a new trait at 1, or +1 to one, L1305-1309).
    ///
    /// # Errors
    /// [`CreationError::NoSuchTrait`], [`CreationError::RoleTraitNotForSale`],
    /// [`CreationError::TraitAtMaximum`], [`CreationError::UnnamedTrait`],
    /// [`CreationError::Unaffordable`].
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::*;
    /// # let mut spark = Spark { tapestry: RoleAwareness::from_self_awareness(2)?, anthropoid_class: AnthropoidClass::new(4)?,
    /// #     core: CorePrograms { physical: 5, mental: 5, social: 4 }, traits: vec![], inspiration: 5 };
    /// spark.buy_trait_level(&AwarenessTrait::New("Loves the sea".into()), &CreationRules::default())?;
    /// assert_eq!(spark.inspiration, 4); // no traits yet: 1 (A31)
    /// spark.buy_trait_level(&AwarenessTrait::Raise(0), &CreationRules::default())?;
    /// assert_eq!(spark.traits[0].rating, 2);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn buy_trait_level(
        &mut self,
        choice: &AwarenessTrait,
        rules: &CreationRules,
    ) -> Result<(), CreationError> {
        self.check_awareness_trait(choice)?;
        let cost = trait_level_cost(&self.traits, rules);
        self.spend("a Personality Trait level", cost)?;
        self.apply_awareness_trait(choice);
        Ok(())
    }

    /// Lowers the Self Awareness trait at `index` by 1 for 3 per current level (L1310); a trait
    /// at 0 is gone.
    ///
    /// # Errors
    /// [`CreationError::NoSuchTrait`], [`CreationError::RoleTraitNotForSale`],
    /// [`CreationError::Unaffordable`].
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::*;
    /// # let mut spark = Spark { tapestry: RoleAwareness::from_self_awareness(2)?, anthropoid_class: AnthropoidClass::new(4)?,
    /// #     core: CorePrograms { physical: 5, mental: 5, social: 4 }, inspiration: 9,
    /// #     traits: vec![PersonalityTrait::new("Vain", 2, TraitKind::SelfAwareness)?] };
    /// spark.lower_trait(0, &CreationRules::default())?;
    /// assert_eq!((spark.inspiration, spark.traits[0].rating), (3, 1));
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn lower_trait(
        &mut self,
        index: usize,
        rules: &CreationRules,
    ) -> Result<(), CreationError> {
        let t = self.traits.get(index).ok_or(CreationError::NoSuchTrait {
            kind: "Self Awareness-related",
            index,
        })?;
        let cost = trait_decrease_cost(t, rules)?;
        self.spend("lowering a Personality Trait", cost)?;
        self.traits[index].rating = self.traits[index].rating.saturating_sub(1);
        if self.traits[index].rating == 0 {
            self.traits.remove(index);
        }
        Ok(())
    }

    fn check_awareness_trait(&self, choice: &AwarenessTrait) -> Result<(), CreationError> {
        match choice {
            AwarenessTrait::New(d) if d.trim().is_empty() => Err(CreationError::UnnamedTrait),
            AwarenessTrait::New(_) => Ok(()),
            AwarenessTrait::Raise(i) => {
                let t = self.traits.get(*i).ok_or(CreationError::NoSuchTrait {
                    kind: "Self Awareness-related",
                    index: *i,
                })?;
                if t.kind != TraitKind::SelfAwareness {
                    return Err(CreationError::RoleTraitNotForSale);
                }
                if t.rating >= MAX_TRAIT_RATING {
                    return Err(CreationError::TraitAtMaximum {
                        description: t.description.clone(),
                    });
                }
                Ok(())
            }
        }
    }

    fn apply_awareness_trait(&mut self, choice: &AwarenessTrait) {
        match choice {
            AwarenessTrait::New(d) => self.traits.push(PersonalityTrait {
                description: d.clone(),
                rating: 1,
                kind: TraitKind::SelfAwareness,
            }),
            AwarenessTrait::Raise(i) => {
                if let Some(t) = self.traits.get_mut(*i) {
                    t.rating = t.rating.saturating_add(1);
                }
            }
        }
    }

    /// Raises Self Awareness by one level (L1312-1367), paying its cost
    /// ([`self_awareness_cost`]) and applying every effect:
    /// Self Awareness +1 and Role −1; the highest Core Program −1, not below 2 (ties: the
    /// player's choice); the chosen Role-related trait −1 (gone at 0); a Self Awareness trait
    /// +1 or a new one at 1; and the new level in free program levels, returned for the caller
    /// to place. Nothing changes unless everything is valid.
    ///
    /// # Errors
    /// [`CreationError::FullySentient`], [`CreationError::Unaffordable`],
    /// [`CreationError::NotHighestCore`], [`CreationError::NoSuchTrait`] (the Role trait),
    /// and the errors of the Self Awareness trait choice.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::*;
    /// # let mut spark = Spark { tapestry: RoleAwareness::STARTING, anthropoid_class: AnthropoidClass::new(4)?,
    /// #     core: CorePrograms { physical: 6, mental: 5, social: 5 }, inspiration: 3,
    /// #     traits: vec![PersonalityTrait::role("Loyal", 3)?, PersonalityTrait::role("Proud", 3)?,
    /// #                  PersonalityTrait::role("Greedy", 2)?, PersonalityTrait::role("Brave", 2)?] };
    /// let choices = AwarenessChoices { core: Some(Core::Mental), role_trait: 0,
    ///     awareness_trait: AwarenessTrait::New("Curious".into()) };
    /// // 3 Inspiration does not buy level 1 at AC 4 (4).
    /// assert!(matches!(spark.raise_self_awareness(&choices, &CreationRules::default()),
    ///     Err(CreationError::Unaffordable { cost: 4, .. })));
    /// spark.inspiration = 4;
    /// // Mental (5) is not the highest Core (Physical 6).
    /// assert!(matches!(spark.raise_self_awareness(&choices, &CreationRules::default()),
    ///     Err(CreationError::NotHighestCore { .. })));
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn raise_self_awareness(
        &mut self,
        choices: &AwarenessChoices,
        rules: &CreationRules,
    ) -> Result<AwarenessRaised, CreationError> {
        let sa = self.tapestry.self_awareness();
        if sa >= 10 {
            return Err(CreationError::FullySentient);
        }
        let level = sa + 1;
        let cost = self_awareness_cost(level, self.anthropoid_class, rules)?;
        afford("raising Self Awareness", cost, self.inspiration)?;
        // The Core Program to lower.
        let (highest, tied) = self.core.highest();
        let core_lowered = if highest <= CORE_BASE {
            None
        } else {
            match choices.core {
                Some(c) if tied.contains(&c) => Some(c),
                Some(c) => {
                    return Err(CreationError::NotHighestCore {
                        chosen: c,
                        level: self.core.get(c),
                        highest,
                    });
                }
                None => tied.first().copied(),
            }
        };
        // The Role trait to lower (if any remain).
        let has_role_traits = self.traits.iter().any(|t| t.kind == TraitKind::Role);
        if has_role_traits
            && self
                .traits
                .get(choices.role_trait)
                .is_none_or(|t| t.kind != TraitKind::Role)
        {
            return Err(CreationError::NoSuchTrait {
                kind: "Role-related",
                index: choices.role_trait,
            });
        }
        self.check_awareness_trait(&choices.awareness_trait)?;
        // Everything checked: apply.
        self.inspiration -= cost;
        self.tapestry = RoleAwareness {
            self_awareness: level,
        };
        if let Some(c) = core_lowered {
            self.core.set(c, self.core.get(c).saturating_sub(1));
        }
        self.apply_awareness_trait(&choices.awareness_trait);
        if has_role_traits {
            let i = choices.role_trait;
            self.traits[i].rating = self.traits[i].rating.saturating_sub(1);
            if self.traits[i].rating == 0 {
                self.traits.remove(i);
            }
        }
        Ok(AwarenessRaised {
            level,
            cost,
            core_lowered,
            free_program_levels: level,
        })
    }
}
