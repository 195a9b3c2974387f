//! Combat beyond the attack roll (L33–L45, L109): HP, down, recovery, stabilization,
//! reserve, ranged difficulty (SW-R11 to SW-R16, SW-R30).

use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollRecord};

use crate::dice::SkillDice;
use crate::error::Error;
use crate::rules::{Rules, StabilizeRule};
use crate::task::{Progress, Task, TaskOutcome, TaskRoll};

/// HP before taking damage: the Defense skill's rank plus 1 (L41; SW-R13).
///
/// ```
/// assert_eq!(dice_swimclass::max_hp(3), 4); // the beast of SW-E6
/// ```
pub const fn max_hp(defense_rank: u32) -> u32 {
    defense_rank + 1
}

/// The difficulty of recovery rolls (L41).
pub const RECOVERY_DIFFICULTY: i32 = 6;

/// Basic Ranged's (and a thrown attack's, Blaze's) difficulty: Range + 1 (L109, L129,
/// L193; SW-R30).
///
/// ```
/// assert_eq!(dice_swimclass::ranged_difficulty(1), 2); // "need only roll 2s" (L292)
/// assert_eq!(dice_swimclass::ranged_difficulty(7), 8); // SW-E6
/// ```
pub const fn ranged_difficulty(range: u32) -> i32 {
    range as i32 + 1
}

/// The defense dice with a skill held in reserve added (L43; SW-A11): as in combining,
/// the reserve adds its rank − 1 ([`Rules::reserve_uses_combine_penalty`]), or its rank.
/// Reserve dice are not the defense skill's own (they do not advance it).
///
/// # Errors
/// [`Error::TooManyDice`] beyond [`crate::MAX_POOL`].
///
/// ```
/// use dice_swimclass::{Rules, SkillDice, with_reserve};
/// let d = with_reserve(SkillDice::new(3), 2, &Rules::default())?;
/// assert_eq!(d.rolled(&Rules::default()), 4);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn with_reserve(
    defense: SkillDice,
    reserve_rank: u32,
    rules: &Rules,
) -> Result<SkillDice, Error> {
    let add = if rules.reserve_uses_combine_penalty {
        reserve_rank.saturating_sub(1)
    } else {
        reserve_rank
    };
    defense.with_aid(add)
}

/// How a character stands (L41).
///
/// ```
/// assert_eq!(dice_swimclass::Condition::Down.to_string(), "down");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Condition {
    /// Above 0 HP.
    Up,
    /// At 0 HP ("A character reduced to 0 HP is down"), or below 0 and stabilized.
    Down,
    /// Below 0 HP and not stabilized: must roll to stabilize.
    Dying,
    /// Critical failures to stabilize exceeded Defense.
    Dead,
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Condition::Up => "up",
            Condition::Down => "down",
            Condition::Dying => "dying",
            Condition::Dead => "dead",
        })
    }
}

/// A character's HP (L41): at most Defense + 1, down at 0, dying below 0 until stabilized,
/// dead when critical failures to stabilize exceed the Defense rank (SW-A13).
///
/// ```
/// use dice_swimclass::{Condition, Health};
/// let mut beast = Health::new(3); // Defense 3: 4 HP
/// beast.take(3);                  // SW-E4
/// beast.take(1);                  // SW-E6: "enough to drop the beast"
/// assert_eq!(beast.hp, 0);
/// assert_eq!(beast.condition(), Condition::Down);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Health {
    /// The Defense rank the HP come from.
    pub defense_rank: u32,
    /// Current HP (may go below 0).
    pub hp: i64,
    /// Cumulative critical failures to stabilize.
    pub stabilize_criticals: u32,
    /// Whether the character was stabilized below 0.
    pub stable: bool,
}

impl Health {
    /// Full HP for this Defense rank.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Health::new(1).hp, 2);
    /// ```
    pub fn new(defense_rank: u32) -> Health {
        Health {
            defense_rank,
            hp: i64::from(max_hp(defense_rank)),
            stabilize_criticals: 0,
            stable: false,
        }
    }

    /// The maximum HP.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Health::new(3).max(), 4);
    /// ```
    pub fn max(&self) -> u32 {
        max_hp(self.defense_rank)
    }

    /// Damage beyond 0 HP (0 when at or above 0).
    ///
    /// ```
    /// let mut h = dice_swimclass::Health::new(1);
    /// h.take(4);
    /// assert_eq!(h.beyond_zero(), 2);
    /// ```
    pub fn beyond_zero(&self) -> u32 {
        (-self.hp).max(0) as u32
    }

    /// Takes damage (one per hit, L35). New damage below 0 undoes stabilization.
    ///
    /// ```
    /// let mut h = dice_swimclass::Health::new(2);
    /// h.take(1);
    /// assert_eq!(h.hp, 2);
    /// ```
    pub fn take(&mut self, damage: u32) {
        self.hp -= i64::from(damage);
        if damage > 0 && self.hp < 0 {
            self.stable = false;
        }
    }

    /// Heals, up to the maximum when `capped` (SW-A14).
    ///
    /// ```
    /// let mut h = dice_swimclass::Health::new(2);
    /// h.heal(5, true);
    /// assert_eq!(h.hp, 3);
    /// ```
    pub fn heal(&mut self, hp: u32, capped: bool) {
        self.hp += i64::from(hp);
        if capped {
            self.hp = self.hp.min(i64::from(self.max()));
        }
        if self.hp >= 0 {
            self.stable = false;
        }
    }

    /// How the character stands.
    ///
    /// ```
    /// use dice_swimclass::{Condition, Health};
    /// assert_eq!(Health::new(2).condition(), Condition::Up);
    /// ```
    pub fn condition(&self) -> Condition {
        if self.stabilize_criticals > self.defense_rank {
            Condition::Dead
        } else if self.hp > 0 {
            Condition::Up
        } else if self.hp == 0 || self.stable {
            Condition::Down
        } else {
            Condition::Dying
        }
    }

    /// Applies a stabilization roll's outcome: stabilized, or −1 HP per critical that counts
    /// and the criticals added to the death count (SW-A13).
    ///
    /// ```
    /// use dice_swimclass::{Condition, Health, StabilizeOutcome};
    /// let mut h = Health::new(1);
    /// h.take(3); // −1
    /// h.stabilize(StabilizeOutcome { stabilized: false, criticals: 2 });
    /// assert_eq!((h.hp, h.condition()), (-3, Condition::Dead)); // 2 > Defense 1
    /// ```
    pub fn stabilize(&mut self, outcome: StabilizeOutcome) {
        if outcome.stabilized {
            self.stable = true;
        } else {
            self.hp -= i64::from(outcome.criticals);
            self.stabilize_criticals += outcome.criticals;
        }
    }
}

impl fmt::Display for Health {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{} HP ({})", self.hp, self.max(), self.condition())
    }
}

/// An hour's recovery roll (L41): Defense at difficulty 6, 1 HP per success, criticals do
/// not count, capped at the maximum ([`Rules::recovery_capped`]); implements allowed
/// (SW-A14).
///
/// ```
/// use dice_swimclass::{Health, Recovery, Rules, SkillDice};
/// use dice_core::Exact;
/// let mut h = Health::new(3);
/// h.take(1);
/// let r = Recovery::new(SkillDice::new(3), &h, &Rules::default())?;
/// let d = r.distribution()?;
/// assert_eq!(d.outcomes(), &[0, 1]); // only 1 HP is missing
/// assert!((d.probability(&0) - (5.0f64 / 6.0).powi(3)).abs() < 1e-12);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovery {
    successes: Progress,
    roll: TaskRoll,
    cap: Option<u32>,
}

impl Recovery {
    /// The recovery roll of a character with these Defense dice and this health.
    ///
    /// # Errors
    /// None for valid dice (kept for future checks).
    ///
    /// ```
    /// use dice_swimclass::{Health, Recovery, Rules, SkillDice};
    /// assert!(Recovery::new(SkillDice::new(2), &Health::new(2), &Rules::default()).is_ok());
    /// ```
    pub fn new(defense: SkillDice, health: &Health, rules: &Rules) -> Result<Recovery, Error> {
        let roll = TaskRoll::new(defense, Task::single(RECOVERY_DIFFICULTY)?, *rules)?;
        let cap = rules
            .recovery_capped
            .then(|| (i64::from(health.max()) - health.hp).max(0) as u32);
        Ok(Recovery {
            successes: roll.progress(),
            roll,
            cap,
        })
    }

    /// The recovery roll as a task roll: L41 exempts it from criticals only, so it may
    /// advance the Defense skill like any roll (L27); its [`TaskOutcome::criticals`] are
    /// not to be counted.
    ///
    /// ```
    /// use dice_swimclass::{Health, Recovery, Rules, SkillDice};
    /// let r = Recovery::new(SkillDice::new(1), &Health::new(1), &Rules::default())?;
    /// // One die at difficulty 6 advances on the 6 that succeeds.
    /// assert!((r.task().advance_chance()? - 1.0 / 6.0).abs() < 1e-15);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn task(&self) -> &TaskRoll {
        &self.roll
    }

    /// The pure form: HP recovered for successes already counted.
    ///
    /// ```
    /// use dice_swimclass::{Health, Recovery, Rules, SkillDice};
    /// let r = Recovery::new(SkillDice::new(3), &Health::new(3), &Rules::default())?;
    /// assert_eq!(r.recovered(2), 0); // already at full HP
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn recovered(&self, successes: u32) -> u32 {
        self.cap.map_or(successes, |c| successes.min(c))
    }
}

impl Roll for Recovery {
    /// HP recovered.
    type Outcome = u32;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.recovered(self.successes.roll(rng))
    }
}

impl Exact for Recovery {
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        Ok(self.successes.distribution()?.map(|&s| self.recovered(s)))
    }
}

impl fmt::Display for Recovery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "recovery: {}", self.successes)
    }
}

/// What a stabilization roll gives.
///
/// ```
/// let o = dice_swimclass::StabilizeOutcome { stabilized: true, criticals: 0 };
/// assert_eq!(o.to_string(), "stabilized");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StabilizeOutcome {
    /// Whether the character stabilized.
    pub stabilized: bool,
    /// Critical failures that count (further damage, and toward death).
    pub criticals: u32,
}

impl fmt::Display for StabilizeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stabilized {
            f.write_str("stabilized")
        } else {
            write!(f, "not stabilized, {} critical(s)", self.criticals)
        }
    }
}

/// A roll to stabilize below 0 HP (L41; SW-A13): under the ruling a Defense roll at
/// difficulty = damage beyond 0 that one success stabilizes; on failure each critical that
/// counts (the first ignored, implements cancel) is 1 more damage.
///
/// ```
/// use dice_swimclass::{Health, Rules, SkillDice, Stabilize};
/// use dice_core::Exact;
/// let mut h = Health::new(2);
/// h.take(5); // −2: difficulty 2
/// let s = Stabilize::new(SkillDice::new(2), &h, &Rules::default())?;
/// let p = s.distribution()?.probability_where(|o| o.stabilized);
/// assert!((p - (1.0 - 1.0 / 36.0)).abs() < 1e-12);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stabilize {
    roll: TaskRoll,
}

impl Stabilize {
    /// The stabilization roll of a character below 0 HP.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when the character is not below 0 HP (nothing to stabilize).
    ///
    /// ```
    /// use dice_swimclass::{Health, Rules, SkillDice, Stabilize};
    /// assert!(Stabilize::new(SkillDice::new(2), &Health::new(2), &Rules::default()).is_err());
    /// ```
    pub fn new(defense: SkillDice, health: &Health, rules: &Rules) -> Result<Stabilize, Error> {
        let beyond = health.beyond_zero();
        if beyond == 0 {
            return Err(Error::OutOfRange {
                what: "HP to stabilize from",
                value: health.hp,
                min: i64::MIN,
                max: -1,
            });
        }
        let task = match rules.stabilize {
            StabilizeRule::DifficultyIsDamage => Task::single(beyond as i32)?,
            StabilizeRule::SuccessesAreDamage { difficulty } => {
                Task::all_or_nothing(difficulty as i32, beyond)?
            }
        };
        Ok(Stabilize {
            roll: TaskRoll::new(defense, task, *rules)?,
        })
    }

    /// The stabilization roll as a task roll: a Defense roll (a Life roll when another
    /// character casts it, L225) with a chance of failure whenever the difficulty can be
    /// missed, so it may advance its skill like any roll (L27).
    ///
    /// ```
    /// use dice_swimclass::{Health, Rules, SkillDice, Stabilize};
    /// let mut h = Health::new(1);
    /// h.take(4); // −2: difficulty 2
    /// let s = Stabilize::new(SkillDice::new(1), &h, &Rules::default())?;
    /// // One die at difficulty 2 advances on a 4, 5 or 6.
    /// assert!((s.task().advance_chance()? - 0.5).abs() < 1e-15);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn task(&self) -> &TaskRoll {
        &self.roll
    }

    /// The pure form: the outcome for faces already rolled.
    ///
    /// # Errors
    /// [`Error::DiceCount`], [`Error::Face`] for bad faces.
    ///
    /// ```
    /// use dice_swimclass::{Health, Rules, SkillDice, Stabilize};
    /// let mut h = Health::new(2);
    /// h.take(8); // −5: difficulty 5
    /// let s = Stabilize::new(SkillDice::new(3), &h, &Rules::default())?;
    /// assert_eq!(s.resolve(&[1, 1, 1])?.criticals, 2);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[u32]) -> Result<StabilizeOutcome, Error> {
        Ok(Self::from_task(self.roll.resolve(faces)?.outcome))
    }

    fn from_task(o: TaskOutcome) -> StabilizeOutcome {
        StabilizeOutcome {
            stabilized: o.succeeded,
            criticals: o.criticals,
        }
    }
}

impl Roll for Stabilize {
    type Outcome = StabilizeOutcome;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> StabilizeOutcome {
        Self::from_task(self.roll.roll(rng))
    }
}

impl Exact for Stabilize {
    fn distribution(&self) -> Result<Dist<StabilizeOutcome>, dice_core::Error> {
        Ok(self.roll.distribution()?.map(|&o| Self::from_task(o)))
    }
}

impl RollDetailed for Stabilize {
    /// The Defense roll's record; `criticals` are those that count.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.roll.roll_record_into(rng, record);
    }
}

impl RollDetailed for Recovery {
    /// The Defense roll's record; `total` is the HP recovered.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.successes.roll_record_into(rng, record);
        record.total = i64::from(self.recovered(record.successes));
    }
}

impl fmt::Display for Stabilize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stabilize: {}", self.roll)
    }
}
