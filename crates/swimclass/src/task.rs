//! The task roll (L17–L27): rank d6 against a difficulty, successes and progress, criticals,
//! and skill advancement (SW-R3 to SW-R9).

use std::collections::BTreeMap;
use std::fmt;

use dice_core::{
    Comparison, Die, Dist, Exact, Pool, Rng, Roll, RollDetailed, RollRecord, SuccessPool,
};

use crate::dice::{Compiled, Evaluated, MAX_POOL, SkillDice, roll_naturals};
use crate::error::Error;
use crate::exact::{enumerate, facts};
use crate::rules::Rules;

/// The largest difficulty magnitude this library accepts (a library limit).
pub const MAX_DIFFICULTY: i32 = 1_000;

/// The most progress a task may require (a library limit).
pub const MAX_PROGRESS: u32 = 1_000;

pub(crate) fn check_difficulty(difficulty: i32) -> Result<i32, Error> {
    if difficulty.abs() > MAX_DIFFICULTY {
        return Err(Error::OutOfRange {
            what: "difficulty",
            value: i64::from(difficulty),
            min: -i64::from(MAX_DIFFICULTY),
            max: i64::from(MAX_DIFFICULTY),
        });
    }
    Ok(difficulty)
}

/// Criticals that count: natural 1s on a roll that did not succeed, the first ignored, then
/// up to `cancel` cancelled by an (N-crit) implement (L21, L52; SW-R6).
///
/// ```
/// use dice_swimclass::effective_criticals;
/// assert_eq!(effective_criticals(1, false, 0), 0); // "First critical is ignored."
/// assert_eq!(effective_criticals(3, false, 0), 2);
/// assert_eq!(effective_criticals(3, false, 1), 1);
/// assert_eq!(effective_criticals(3, true, 0), 0);  // the task succeeded
/// ```
pub const fn effective_criticals(ones: u32, succeeded: bool, cancel: u32) -> u32 {
    if succeeded {
        0
    } else {
        ones.saturating_sub(1).saturating_sub(cancel)
    }
}

/// A task: the progress (dice) it needs, each at the difficulty (L19; SW-R4, SW-R5).
///
/// ```
/// use dice_swimclass::Task;
/// let wall = Task::over_rounds(4, 5)?;       // a climb that takes rounds
/// let chasm = Task::all_or_nothing(3, 2)?;   // two dice in one roll, or nothing
/// assert_eq!(wall.needed_this_roll(), 1);
/// assert_eq!(chasm.needed_this_roll(), 2);
/// assert_eq!(Task::single(6)?.progress, 1);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Task {
    /// Each die's value must be at least this ("N ≥ T", SW-A1).
    pub difficulty: i32,
    /// The progress required: successes, accumulated over rounds unless all-or-nothing.
    pub progress: u32,
    /// Whether the progress must come from one roll (jumping a chasm).
    pub all_or_nothing: bool,
}

impl Task {
    fn build(difficulty: i32, progress: u32, all_or_nothing: bool) -> Result<Task, Error> {
        check_difficulty(difficulty)?;
        if progress == 0 || progress > MAX_PROGRESS {
            return Err(Error::OutOfRange {
                what: "progress",
                value: i64::from(progress),
                min: 1,
                max: i64::from(MAX_PROGRESS),
            });
        }
        Ok(Task {
            difficulty,
            progress,
            all_or_nothing,
        })
    }

    /// A task one success finishes.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a difficulty beyond ±[`MAX_DIFFICULTY`].
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Task::single(2)?.difficulty, 2);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn single(difficulty: i32) -> Result<Task, Error> {
        Task::build(difficulty, 1, true)
    }

    /// A task whose progress adds up over rounds (L19).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a difficulty beyond ±[`MAX_DIFFICULTY`] or progress outside
    /// 1..=[`MAX_PROGRESS`].
    ///
    /// ```
    /// assert!(!dice_swimclass::Task::over_rounds(4, 3)?.all_or_nothing);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn over_rounds(difficulty: i32, progress: u32) -> Result<Task, Error> {
        Task::build(difficulty, progress, false)
    }

    /// A task that must reach its progress in one roll (L19).
    ///
    /// # Errors
    /// As [`Task::over_rounds`].
    ///
    /// ```
    /// assert!(dice_swimclass::Task::all_or_nothing(4, 3)?.all_or_nothing);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn all_or_nothing(difficulty: i32, progress: u32) -> Result<Task, Error> {
        Task::build(difficulty, progress, true)
    }

    /// The successes one roll needs to count as succeeding (for criticals and
    /// advancement; SW-A5): the whole progress when all-or-nothing, else one.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Task::over_rounds(3, 4)?.needed_this_roll(), 1);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn needed_this_roll(&self) -> u32 {
        if self.all_or_nothing {
            self.progress
        } else {
            1
        }
    }
}

impl fmt::Display for Task {
    /// `difficulty 4, progress 3 over rounds`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "difficulty {}, progress {}{}",
            self.difficulty,
            self.progress,
            if self.all_or_nothing {
                ""
            } else {
                " over rounds"
            }
        )
    }
}

/// What one task roll gives (L19–L27).
///
/// ```
/// let o = dice_swimclass::TaskOutcome { succeeded: true, successes: 3, criticals: 0, advances: true };
/// assert_eq!(o.to_string(), "success, 3 successes, advances");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TaskOutcome {
    /// Whether this roll succeeded ([`Task::needed_this_roll`] successes).
    pub succeeded: bool,
    /// Successes: dice whose value met the difficulty (the progress this roll adds).
    pub successes: u32,
    /// Criticals that count (natural 1s of a failed roll, the first ignored, less those an
    /// implement cancels).
    pub criticals: u32,
    /// Whether the skill advances (L27).
    pub advances: bool,
}

impl fmt::Display for TaskOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.successes == 1 { "" } else { "es" };
        write!(
            f,
            "{}, {} success{s}",
            if self.succeeded { "success" } else { "failure" },
            self.successes
        )?;
        if self.criticals > 0 {
            let c = if self.criticals == 1 { "" } else { "s" };
            write!(f, ", {} critical{c}", self.criticals)?;
        }
        if self.advances {
            f.write_str(", advances")?;
        }
        Ok(())
    }
}

/// Whether a roll advances the skill (L27, L67; SW-R8): the roll succeeded, it had a chance
/// of failure, and every die of the advancement pool (the skill's dice; the artifact's when
/// the character lacks the skill) was an unblocked success showing 4 or more.
///
/// ```
/// use dice_swimclass::advances;
/// assert!(advances(true, true, true));
/// assert!(!advances(true, false, true)); // difficulty 1: no chance of failure
/// ```
pub const fn advances(succeeded: bool, chance_of_failure: bool, pool_all_success_4: bool) -> bool {
    succeeded && chance_of_failure && pool_all_success_4
}

/// One roll of a skill at a task: the task roll of L17–L27.
///
/// Rolling gives a [`TaskOutcome`]; [`Exact::distribution`] gives its exact law by
/// enumerating the multisets of faces; [`TaskRoll::resolve`] is the pure form.
///
/// ```
/// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // Walk 2 pushed ×3: difficulty 3 (L296).
/// let run = TaskRoll::new(SkillDice::new(2), Task::single(3)?, Rules::default())?;
/// let o = run.resolve(&[6, 5])?.outcome;
/// assert!(o.succeeded && o.successes == 2 && o.advances);
/// // P(at least one of 2d6 ≥ 3) = 1 − (2/6)².
/// assert!((run.success_chance()? - (1.0 - 4.0 / 36.0)).abs() < 1e-12);
/// let rolled = run.roll(&mut Xoshiro256PlusPlus::seed_from_u64(3));
/// println!("{rolled}");
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskRoll {
    dice: SkillDice,
    task: Task,
    rules: Rules,
    compiled: Compiled,
    adv_colour: u8,
    can_fail: bool,
}

impl TaskRoll {
    /// The dice at a task under the rules.
    ///
    /// # Errors
    /// [`Error::TooManyDice`] when the dice (skill, aid and artifact) are more than
    /// [`crate::MAX_POOL`]; none otherwise (whether the character may roll the skill at all
    /// is [`crate::Sheet::dice`]).
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// let t = TaskRoll::new(SkillDice::new(3), Task::single(1)?, Rules::default())?;
    /// assert!(!t.has_chance_of_failure()); // difficulty 1 is automatic (L27)
    /// // More dice than a roll holds are refused, not rolled.
    /// assert!(TaskRoll::new(SkillDice::new(65), Task::single(1)?, Rules::default()).is_err());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn new(dice: SkillDice, task: Task, rules: Rules) -> Result<TaskRoll, Error> {
        let compiled = dice.compile(&rules, task.difficulty);
        if compiled.rolled() > crate::MAX_POOL as usize {
            return Err(Error::TooManyDice {
                count: compiled.rolled() as u64,
                max: crate::MAX_POOL,
            });
        }
        let adv_colour = dice.advancement_colour();
        // The worst roll: every die a 1 (successes are monotone in the faces).
        let ones = vec![1u8; compiled.rolled()];
        let mut ev = Evaluated::new();
        compiled.evaluate(&ones, &mut ev);
        let worst = facts(&ev, task.difficulty, adv_colour, true).successes;
        let can_fail = worst < task.needed_this_roll();
        Ok(TaskRoll {
            dice,
            task,
            rules,
            compiled,
            adv_colour,
            can_fail,
        })
    }

    /// The dice.
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// let t = TaskRoll::new(SkillDice::new(3), Task::single(4)?, Rules::default())?;
    /// assert_eq!(t.dice().rank(), 3);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn dice(&self) -> &SkillDice {
        &self.dice
    }

    /// The task.
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// let t = TaskRoll::new(SkillDice::new(3), Task::single(4)?, Rules::default())?;
    /// assert_eq!(t.task().difficulty, 4);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn task(&self) -> &Task {
        &self.task
    }

    /// Whether the roll can fail at all: "A Task roll must have a chance of failure to
    /// merit skill advancement" (L27; SW-A26).
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// let t = TaskRoll::new(SkillDice::new(3), Task::single(2)?, Rules::default())?;
    /// assert!(t.has_chance_of_failure());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn has_chance_of_failure(&self) -> bool {
        self.can_fail
    }

    #[inline]
    fn outcome_of(&self, ev: &Evaluated) -> TaskOutcome {
        let f = facts(
            ev,
            self.task.difficulty,
            self.adv_colour,
            self.rules.advancement_uses_natural,
        );
        let succeeded = f.successes >= self.task.needed_this_roll();
        TaskOutcome {
            succeeded,
            successes: f.successes,
            criticals: effective_criticals(f.ones, succeeded, self.dice.crit_cancel()),
            advances: advances(succeeded, self.can_fail, f.pool_ok),
        }
    }

    /// The pure form: the outcome for faces already rolled (pool order, see
    /// [`SkillDice::rolled`]), with every die as a record.
    ///
    /// # Errors
    /// [`Error::DiceCount`], [`Error::Face`] for bad faces.
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// let t = TaskRoll::new(SkillDice::new(3), Task::single(5)?, Rules::default())?;
    /// let r = t.resolve(&[1, 1, 2])?;
    /// assert_eq!(r.outcome.criticals, 1); // two 1s, the first ignored
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[u32]) -> Result<TaskResult, Error> {
        let mut dice = self
            .dice
            .apply_against(faces, self.task.difficulty, &self.rules)?;
        let nat: Vec<u8> = faces.iter().map(|&f| f as u8).collect();
        let mut ev = Evaluated::new();
        self.compiled.evaluate(&nat, &mut ev);
        let outcome = self.outcome_of(&ev);
        mark(&mut dice, self.task.difficulty, !outcome.succeeded);
        Ok(TaskResult { dice, outcome })
    }

    /// The exact chance this roll succeeds.
    ///
    /// # Errors
    /// [`Error::Core`] with `TooComplex` for a pool beyond the enumeration limit.
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// let t = TaskRoll::new(SkillDice::new(1), Task::single(6)?, Rules::default())?;
    /// assert!((t.success_chance()? - 1.0 / 6.0).abs() < 1e-15);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn success_chance(&self) -> Result<f64, Error> {
        Ok(self.law()?.probability_where(|o| o.succeeded))
    }

    /// The exact chance this roll advances the skill.
    ///
    /// # Errors
    /// As [`TaskRoll::success_chance`].
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// // One die at difficulty 2 advances on 4, 5 or 6.
    /// let t = TaskRoll::new(SkillDice::new(1), Task::single(2)?, Rules::default())?;
    /// assert!((t.advance_chance()? - 0.5).abs() < 1e-15);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn advance_chance(&self) -> Result<f64, Error> {
        Ok(self.law()?.probability_where(|o| o.advances))
    }

    /// The successes (progress) one roll adds, as a mechanic of its own ([`Progress`]).
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// use dice_core::Exact;
    /// let t = TaskRoll::new(SkillDice::new(4), Task::over_rounds(4, 6)?, Rules::default())?;
    /// let d = t.progress().distribution()?;
    /// assert!((d.mean() - 2.0).abs() < 1e-12); // 4 dice × 1/2
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn progress(&self) -> Progress {
        let plain = self.dice.is_plain().then(|| {
            let pool =
                Pool::new(self.compiled.rolled() as u32, Die::D6).expect("at most MAX_POOL dice");
            SuccessPool::new(pool, Comparison::AtLeast(self.task.difficulty))
        });
        Progress {
            plain,
            compiled: self.compiled.clone(),
            roll: Box::new(self.clone()),
        }
    }

    /// The law of the progress accumulated after `rounds` rounds, capped at the task's
    /// required progress (the task stops when it is reached): the chance the task is done
    /// within `rounds` is the probability of the cap.
    ///
    /// # Errors
    /// As [`TaskRoll::success_chance`].
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// let t = TaskRoll::new(SkillDice::new(1), Task::over_rounds(6, 1)?, Rules::default())?;
    /// let d = t.progress_after(2)?;
    /// assert!((d.probability(&1) - (1.0 - 25.0 / 36.0)).abs() < 1e-12);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn progress_after(&self, rounds: u32) -> Result<Dist<u32>, Error> {
        let per = self.progress().distribution()?;
        let cap = self.task.progress as usize;
        let mut law = vec![0.0; cap + 1];
        law[0] = 1.0;
        for _ in 0..rounds.min(MAX_PROGRESS) {
            let mut next = vec![0.0; cap + 1];
            next[cap] = law[cap];
            for (acc, &p) in law.iter().enumerate().take(cap) {
                if p == 0.0 {
                    continue;
                }
                for (s, q) in per.iter() {
                    next[(acc + *s as usize).min(cap)] += p * q;
                }
            }
            law = next;
        }
        Ok(Dist::from_pairs(
            law.into_iter().enumerate().map(|(k, p)| (k as u32, p)),
        )?)
    }

    /// The chance the task is complete within `rounds` rounds (the progress reached; an
    /// all-or-nothing task has one round, whatever `rounds` is).
    ///
    /// # Errors
    /// As [`TaskRoll::success_chance`].
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
    /// let t = TaskRoll::new(SkillDice::new(2), Task::over_rounds(6, 1)?, Rules::default())?;
    /// let p = t.completion_chance(3)?;
    /// assert!((p - (1.0 - (5.0f64 / 6.0).powi(6))).abs() < 1e-12);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn completion_chance(&self, rounds: u32) -> Result<f64, Error> {
        let rounds = if self.task.all_or_nothing {
            rounds.min(1)
        } else {
            rounds
        };
        Ok(self
            .progress_after(rounds)?
            .probability(&self.task.progress))
    }

    fn law(&self) -> Result<Dist<TaskOutcome>, Error> {
        let mut map: BTreeMap<TaskOutcome, f64> = BTreeMap::new();
        enumerate(&self.compiled, |ev, p| {
            *map.entry(self.outcome_of(ev)).or_insert(0.0) += p;
        })?;
        Ok(Dist::from_pairs(map)?)
    }
}

/// Flags the records: successes, and natural 1s of a failed roll as criticals.
pub(crate) fn mark(dice: &mut [dice_core::DieRoll], difficulty: i32, failed: bool) {
    for d in dice.iter_mut() {
        d.flags.success = d.value >= i64::from(difficulty);
        d.flags.critical =
            failed && d.natural == 1 && d.source != crate::DieColour::Constant.source();
    }
}

/// A task roll resolved: every die (natural face, modifier, value, colour, flags) and the
/// outcome.
///
/// ```
/// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
/// let t = TaskRoll::new(SkillDice::new(2), Task::single(4)?, Rules::default())?;
/// let r = t.resolve(&[4, 2])?;
/// assert_eq!(r.to_string(), "[4*, 2]: success, 1 success");
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TaskResult {
    /// Every die.
    pub dice: Vec<dice_core::DieRoll>,
    /// The outcome.
    pub outcome: TaskOutcome,
}

impl fmt::Display for TaskResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.dice.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        write!(f, "]: {}", self.outcome)
    }
}

impl Roll for TaskRoll {
    type Outcome = TaskOutcome;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> TaskOutcome {
        let n = self.compiled.rolled();
        let mut nat = [0u8; MAX_POOL as usize];
        roll_naturals(rng, n, &mut nat);
        let mut ev = Evaluated::new();
        self.compiled.evaluate(&nat[..n], &mut ev);
        self.outcome_of(&ev)
    }
}

impl Exact for TaskRoll {
    /// The law of the outcome, by enumerating the multisets of faces of each colour.
    fn distribution(&self) -> Result<Dist<TaskOutcome>, dice_core::Error> {
        self.law().map_err(core_error)
    }
}

impl RollDetailed for TaskRoll {
    /// Every die (skill, aid and artifact dice as their sources, constants as
    /// [`dice_core::Source::Bonus`]); `successes` and `total` are the successes, `criticals`
    /// the criticals that count.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let faces = self.dice.roll_faces(rng, &self.rules);
        if let Ok(r) = self.resolve(&faces) {
            record.dice = r.dice;
            record.successes = r.outcome.successes;
            record.criticals = r.outcome.criticals;
            record.total = i64::from(r.outcome.successes);
        }
    }
}

impl fmt::Display for TaskRoll {
    /// `3d6 (1+4) at difficulty 2, progress 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.dice, self.task)
    }
}

/// Maps this crate's error back to dice-core's for the [`Exact`] trait.
pub(crate) fn core_error(e: Error) -> dice_core::Error {
    match e {
        Error::Core(c) => c,
        _ => dice_core::Error::Unsupported {
            what: "this Swimclass roll",
        },
    }
}

/// The successes one task roll adds to its progress (L19): a [`SuccessPool`] when the dice
/// are plain, else the enumeration of the dice with their implements.
///
/// ```
/// use dice_swimclass::{Rules, SkillDice, Task, TaskRoll};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let p = TaskRoll::new(SkillDice::new(6), Task::over_rounds(4, 10)?, Rules::default())?.progress();
/// assert!(p.roll(&mut Xoshiro256PlusPlus::seed_from_u64(2)) <= 6);
/// assert!((p.distribution()?.total() - 1.0).abs() < 1e-12);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    plain: Option<SuccessPool>,
    compiled: Compiled,
    roll: Box<TaskRoll>,
}

impl RollDetailed for Progress {
    /// The task roll's record: every die, `successes` and `total` the progress.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.roll.roll_record_into(rng, record);
    }
}

impl Roll for Progress {
    /// Successes.
    type Outcome = u32;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        if let Some(p) = &self.plain {
            return p.count(rng);
        }
        let n = self.compiled.rolled();
        let mut nat = [0u8; MAX_POOL as usize];
        roll_naturals(rng, n, &mut nat);
        let mut ev = Evaluated::new();
        self.compiled.evaluate(&nat[..n], &mut ev);
        (0..ev.len)
            .filter(|&i| ev.value[i] >= self.compiled.difficulty)
            .count() as u32
    }
}

impl Exact for Progress {
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        if let Some(p) = &self.plain {
            return p.distribution();
        }
        let mut law = vec![0.0; MAX_POOL as usize + 1];
        enumerate(&self.compiled, |ev, p| {
            let s = (0..ev.len)
                .filter(|&i| ev.value[i] >= self.compiled.difficulty)
                .count();
            law[s] += p;
        })
        .map_err(core_error)?;
        Dist::from_pairs(law.into_iter().enumerate().map(|(k, p)| (k as u32, p)))
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "successes of {}d6 at {}",
            self.compiled.rolled(),
            self.compiled.difficulty
        )
    }
}

/// Where a task stands after some rounds (L19; SW-R5).
///
/// ```
/// use dice_swimclass::{ProgressStatus, Task, TaskProgress};
/// let mut wall = TaskProgress::new(Task::over_rounds(4, 3)?);
/// assert_eq!(wall.add(2), ProgressStatus::InProgress { accumulated: 2, required: 3 });
/// assert_eq!(wall.add(1), ProgressStatus::Complete);
/// let mut chasm = TaskProgress::new(Task::all_or_nothing(3, 2)?);
/// assert_eq!(chasm.add(1), ProgressStatus::Failed);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TaskProgress {
    /// The task.
    pub task: Task,
    /// Progress so far.
    pub accumulated: u32,
    /// Rounds rolled.
    pub rounds: u32,
    /// Whether the character was forced to discontinue.
    pub stopped: bool,
}

/// The state of a [`TaskProgress`].
///
/// ```
/// assert_eq!(dice_swimclass::ProgressStatus::Complete.to_string(), "complete");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ProgressStatus {
    /// Still going.
    InProgress {
        /// Progress so far.
        accumulated: u32,
        /// Progress required.
        required: u32,
    },
    /// The required progress was reached.
    Complete,
    /// An all-or-nothing task missed, or the character stopped.
    Failed,
}

impl fmt::Display for ProgressStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgressStatus::InProgress {
                accumulated,
                required,
            } => write!(f, "{accumulated} of {required}"),
            ProgressStatus::Complete => f.write_str("complete"),
            ProgressStatus::Failed => f.write_str("failed"),
        }
    }
}

impl TaskProgress {
    /// A task not yet started.
    ///
    /// ```
    /// let p = dice_swimclass::TaskProgress::new(dice_swimclass::Task::over_rounds(4, 3)?);
    /// assert_eq!(p.accumulated, 0);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn new(task: Task) -> TaskProgress {
        TaskProgress {
            task,
            accumulated: 0,
            rounds: 0,
            stopped: false,
        }
    }

    /// The status now.
    ///
    /// ```
    /// let p = dice_swimclass::TaskProgress::new(dice_swimclass::Task::over_rounds(4, 3)?);
    /// assert!(matches!(p.status(), dice_swimclass::ProgressStatus::InProgress { .. }));
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn status(&self) -> ProgressStatus {
        if self.accumulated >= self.task.progress {
            ProgressStatus::Complete
        } else if self.stopped || (self.task.all_or_nothing && self.rounds > 0) {
            ProgressStatus::Failed
        } else {
            ProgressStatus::InProgress {
                accumulated: self.accumulated,
                required: self.task.progress,
            }
        }
    }

    /// Adds one round's successes (ignored once the task is complete or failed).
    ///
    /// ```
    /// let mut p = dice_swimclass::TaskProgress::new(dice_swimclass::Task::over_rounds(4, 3)?);
    /// p.add(5);
    /// assert_eq!(p.accumulated, 5);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn add(&mut self, successes: u32) -> ProgressStatus {
        if matches!(self.status(), ProgressStatus::InProgress { .. }) {
            self.rounds += 1;
            self.accumulated = self.accumulated.saturating_add(successes);
        }
        self.status()
    }

    /// The character is forced to discontinue (L19).
    ///
    /// ```
    /// let mut p = dice_swimclass::TaskProgress::new(dice_swimclass::Task::over_rounds(4, 3)?);
    /// assert_eq!(p.stop(), dice_swimclass::ProgressStatus::Failed);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn stop(&mut self) -> ProgressStatus {
        if self.accumulated < self.task.progress {
            self.stopped = true;
        }
        self.status()
    }
}
