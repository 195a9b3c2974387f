//! The dice of one Swimclass roll: a skill's rank in d6, aid and artifact dice, and
//! implements applied to them (L17, L47–L67; SW-R1, SW-R3, SW-R18 to SW-R21).

use std::fmt;

use dice_core::{Die, DieRoll, Rng, Source};

use crate::error::Error;
use crate::implement::{Bonus, Implement};
use crate::rules::{BonusAssignment, ConstantDice, Rules};

/// The most dice (rolled and constant) one Swimclass roll may hold: a library limit, far
/// above any rank the sheet's ten pips allow, that keeps every roll on the stack.
pub const MAX_POOL: u32 = 64;

/// The largest modifier or constant magnitude this library accepts (a library limit).
pub const MAX_BONUS: i32 = 100;

/// The most distinct placements of (N+M) bonuses the [`BonusAssignment::Best`] search tries
/// for one roll (a library limit, far above the rulebook's implements: a (3+2) on 8 dice has
/// at most 93). Beyond it the greedy [`BonusAssignment::Optimal`] placement is used.
pub const MAX_PLACEMENTS: usize = 4096;

/// Where a die of a roll comes from (SW-R1: each colour is a source).
pub(crate) const SKILL: u8 = 0;
pub(crate) const AID: u8 = 1;
pub(crate) const ARTIFACT: u8 = 2;
pub(crate) const CONSTANT: u8 = 3;

/// The colour of a die: where it came from (SW-R1).
///
/// ```
/// use dice_swimclass::DieColour;
/// assert_eq!(DieColour::Artifact.source(), dice_core::Source::Artifact);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DieColour {
    /// The skill's own dice (the rank; the dice of combined skills).
    Skill,
    /// Dice lent by another character or held in reserve (aid another, L79; reserve, L43).
    Aid,
    /// An artifact's bonus dice, "of a different color" (L67).
    Artifact,
    /// (N*M) dice counted as rolling M (L53): not rolled.
    Constant,
}

impl DieColour {
    /// The dice-core source a record tags the die with.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::DieColour::Constant.source(), dice_core::Source::Bonus);
    /// ```
    pub const fn source(self) -> Source {
        match self {
            DieColour::Skill => Source::Primary,
            DieColour::Aid => Source::Aid,
            DieColour::Artifact => Source::Artifact,
            DieColour::Constant => Source::Bonus,
        }
    }

    pub(crate) const fn from_code(c: u8) -> DieColour {
        match c {
            SKILL => DieColour::Skill,
            AID => DieColour::Aid,
            ARTIFACT => DieColour::Artifact,
            _ => DieColour::Constant,
        }
    }
}

/// The dice one roll uses: the skill's rank, aid and reserve dice, an artifact's dice, and
/// implement bonuses (L17, L51–L54). Built once, then rolled (through a
/// [`crate::TaskRoll`] or [`crate::OpposedRoll`]) or resolved with dice already rolled.
///
/// The dice are in pool order: the skill's dice, then aid dice, then artifact dice; the
/// pure forms take the rolled faces in that order. (N*M) constant dice come last and are
/// not rolled.
///
/// ```
/// use dice_swimclass::{Bonus, Rules, SkillDice};
/// // Aerolis: Ranged 3 with a Common Bow, (1+4) (L290).
/// let aerolis = SkillDice::new(3).with_bonus(Bonus::Plus { dice: 1, modifier: 4 })?;
/// let dice = aerolis.apply(&[5, 4, 4], &Rules::default())?;
/// let values: Vec<i64> = dice.iter().map(|d| d.value).collect();
/// assert_eq!(values, [9, 4, 4]); // "netting (9,4,4)"
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SkillDice {
    rank: u32,
    aid: u32,
    artifact: u32,
    /// (N+M) bonuses, largest M first (stable).
    plus: Vec<(u32, i32)>,
    cancel: u32,
    constants: Vec<(u32, i32)>,
    per_die: i32,
}

impl SkillDice {
    /// `rank` dice of a skill, with nothing else.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::SkillDice::new(3).rank(), 3);
    /// ```
    pub fn new(rank: u32) -> SkillDice {
        SkillDice {
            rank,
            aid: 0,
            artifact: 0,
            plus: Vec::new(),
            cancel: 0,
            constants: Vec::new(),
            per_die: 0,
        }
    }

    fn check(self) -> Result<SkillDice, Error> {
        let constants: u64 = self.constants.iter().map(|c| u64::from(c.0)).sum();
        let total = u64::from(self.rank) + u64::from(self.aid) + u64::from(self.artifact);
        let count = total + constants;
        if count > u64::from(MAX_POOL) {
            return Err(Error::TooManyDice {
                count,
                max: MAX_POOL,
            });
        }
        Ok(self)
    }

    /// Adds one implement bonus.
    ///
    /// # Errors
    /// [`Error::TooManyDice`] beyond [`MAX_POOL`] dice; [`Error::OutOfRange`] for a modifier
    /// or constant beyond ±[`MAX_BONUS`] (a constant must be at least 1).
    ///
    /// ```
    /// use dice_swimclass::{Bonus, SkillDice};
    /// let d = SkillDice::new(2).with_bonus(Bonus::Dice(1))?;
    /// assert_eq!(d.artifact_dice(), 1);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn with_bonus(mut self, bonus: Bonus) -> Result<SkillDice, Error> {
        let range = |what, v: i32, min: i32| {
            if v < min || v > MAX_BONUS {
                Err(Error::OutOfRange {
                    what,
                    value: i64::from(v),
                    min: i64::from(min),
                    max: i64::from(MAX_BONUS),
                })
            } else {
                Ok(())
            }
        };
        match bonus {
            Bonus::Plus { dice, modifier } => {
                range("modifier", modifier, -MAX_BONUS)?;
                if dice > MAX_POOL {
                    return Err(Error::TooManyDice {
                        count: u64::from(dice),
                        max: MAX_POOL,
                    });
                }
                if dice > 0 && modifier != 0 {
                    let at = self
                        .plus
                        .iter()
                        .position(|&(_, m)| m < modifier)
                        .unwrap_or(self.plus.len());
                    self.plus.insert(at, (dice, modifier));
                }
            }
            Bonus::CancelCriticals(n) => self.cancel = self.cancel.saturating_add(n),
            Bonus::Constant { dice, value } => {
                range("constant", value, 1)?;
                if dice > 0 {
                    let at = self
                        .constants
                        .iter()
                        .position(|&(_, v)| v < value)
                        .unwrap_or(self.constants.len());
                    self.constants.insert(at, (dice.min(MAX_POOL + 1), value));
                }
            }
            Bonus::Dice(n) => self.artifact = self.artifact.saturating_add(n.min(MAX_POOL + 1)),
        }
        self.check()
    }

    /// Adds every bonus of an implement.
    ///
    /// # Errors
    /// As [`SkillDice::with_bonus`].
    ///
    /// ```
    /// use dice_swimclass::{Applies, SkillDice, implement::catalogue};
    /// let sword = catalogue("Great Sword").unwrap().implement_for(Applies::Defense).unwrap();
    /// let harro = SkillDice::new(3).with_implement(&sword)?;
    /// assert_eq!(harro.plus_bonuses(), &[(3, 1)]);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn with_implement(self, implement: &Implement) -> Result<SkillDice, Error> {
        implement
            .bonuses
            .iter()
            .try_fold(self, |d, &b| d.with_bonus(b))
    }

    /// Adds dice lent by others or held in reserve (aid another, reserve: they never count
    /// for advancement).
    ///
    /// # Errors
    /// [`Error::TooManyDice`] beyond [`MAX_POOL`].
    ///
    /// ```
    /// assert_eq!(dice_swimclass::SkillDice::new(2).with_aid(2)?.rolled(&Default::default()), 4);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn with_aid(mut self, dice: u32) -> Result<SkillDice, Error> {
        self.aid = self.aid.saturating_add(dice.min(MAX_POOL + 1));
        self.check()
    }

    /// Adds a modifier to every die: a paired trait's bonus or penalty "applied to however
    /// many ranks you have" (L179–L181; SW-A22).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] beyond ±[`MAX_BONUS`].
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice};
    /// let walk_with_fins = SkillDice::new(2).with_modifier(-2)?;
    /// let d = walk_with_fins.apply(&[6, 2], &Rules::default())?;
    /// assert_eq!(d[1].value, 0);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn with_modifier(mut self, modifier: i32) -> Result<SkillDice, Error> {
        let m = i64::from(self.per_die) + i64::from(modifier);
        if m.abs() > i64::from(MAX_BONUS) {
            return Err(Error::OutOfRange {
                what: "per-die modifier",
                value: m,
                min: -i64::from(MAX_BONUS),
                max: i64::from(MAX_BONUS),
            });
        }
        self.per_die = m as i32;
        Ok(self)
    }

    /// The skill's rank (its own dice before any constant replaces them).
    ///
    /// ```
    /// assert_eq!(dice_swimclass::SkillDice::new(4).rank(), 4);
    /// ```
    pub fn rank(&self) -> u32 {
        self.rank
    }

    /// The artifact dice.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::SkillDice::new(4).artifact_dice(), 0);
    /// ```
    pub fn artifact_dice(&self) -> u32 {
        self.artifact
    }

    /// Aid and reserve dice.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::SkillDice::new(4).aid_dice(), 0);
    /// ```
    pub fn aid_dice(&self) -> u32 {
        self.aid
    }

    /// The (N+M) bonuses as `(N, M)`, largest M first: the order an explicit assignment
    /// ([`SkillDice::apply_chosen`]) refers to.
    ///
    /// ```
    /// use dice_swimclass::{Bonus, SkillDice};
    /// let d = SkillDice::new(3).with_bonus(Bonus::Plus { dice: 1, modifier: 1 })?
    ///     .with_bonus(Bonus::Plus { dice: 1, modifier: 3 })?;
    /// assert_eq!(d.plus_bonuses(), &[(1, 3), (1, 1)]);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn plus_bonuses(&self) -> &[(u32, i32)] {
        &self.plus
    }

    /// Criticals an (N-crit) implement cancels.
    ///
    /// ```
    /// use dice_swimclass::{Bonus, SkillDice};
    /// assert_eq!(SkillDice::new(3).with_bonus(Bonus::CancelCriticals(2))?.crit_cancel(), 2);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn crit_cancel(&self) -> u32 {
        self.cancel
    }

    /// The modifier on every die (paired traits).
    ///
    /// ```
    /// assert_eq!(dice_swimclass::SkillDice::new(3).per_die_modifier(), 0);
    /// ```
    pub fn per_die_modifier(&self) -> i32 {
        self.per_die
    }

    /// Whether the dice are plain: no modifier and no constant, so the values are the faces.
    ///
    /// ```
    /// assert!(dice_swimclass::SkillDice::new(3).is_plain());
    /// ```
    pub fn is_plain(&self) -> bool {
        self.plus.is_empty() && self.constants.is_empty() && self.per_die == 0
    }

    /// The constant dice under `rules` as `(count, value)`, largest value first: with
    /// [`ConstantDice::ReplacePoolDice`] at most the rank's dice are replaced.
    fn constant_dice(&self, rules: &Rules) -> Vec<(u32, i32)> {
        let mut left = match rules.constant_dice {
            ConstantDice::ReplacePoolDice => self.rank,
            ConstantDice::ExtraDice => u32::MAX,
        };
        let mut v = Vec::new();
        for &(n, m) in &self.constants {
            let take = n.min(left);
            left -= take;
            if take > 0 {
                v.push((take, m));
            }
        }
        v
    }

    /// The skill's dice actually rolled under `rules` (the rank less replaced dice).
    pub(crate) fn rolled_skill(&self, rules: &Rules) -> u32 {
        match rules.constant_dice {
            ConstantDice::ReplacePoolDice => {
                let c: u32 = self.constant_dice(rules).iter().map(|c| c.0).sum();
                self.rank - c
            }
            ConstantDice::ExtraDice => self.rank,
        }
    }

    /// The dice rolled under `rules`: skill (less any replaced by constants), aid and
    /// artifact dice. The pure forms take this many faces.
    ///
    /// ```
    /// use dice_swimclass::{Bonus, Rules, SkillDice};
    /// let d = SkillDice::new(3).with_bonus(Bonus::Constant { dice: 1, value: 5 })?;
    /// assert_eq!(d.rolled(&Rules::default()), 2); // one die counts as a 5 (SW-A7)
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn rolled(&self, rules: &Rules) -> u32 {
        self.rolled_skill(rules) + self.aid + self.artifact
    }

    /// The advancement pool's colour: the skill's dice, or the artifact's when the
    /// character lacks the skill (L67).
    pub(crate) fn advancement_colour(&self) -> u8 {
        if self.rank == 0 { ARTIFACT } else { SKILL }
    }

    /// The compiled form for rolling and enumerating.
    pub(crate) fn compile(&self, rules: &Rules, difficulty: i32) -> Compiled {
        Compiled {
            skill: self.rolled_skill(rules),
            aid: self.aid,
            artifact: self.artifact,
            plus: self.plus.clone(),
            constants: self.constant_dice(rules),
            per_die: self.per_die,
            assignment: rules.assignment,
            difficulty,
            adv_colour: self.advancement_colour(),
            uses_natural: rules.advancement_uses_natural,
        }
    }

    fn check_faces(&self, faces: &[u32], rules: &Rules) -> Result<(), Error> {
        let expected = self.rolled(rules) as usize;
        if faces.len() != expected {
            return Err(Error::DiceCount {
                what: "this roll",
                expected,
                given: faces.len(),
            });
        }
        if let Some(&face) = faces.iter().find(|&&f| !(1..=6).contains(&f)) {
            return Err(Error::Face { face });
        }
        Ok(())
    }

    /// The pure form: the dice rolled (faces in pool order), with the implements applied as
    /// [`Rules::assignment`] says, against no particular difficulty (the
    /// [`BonusAssignment::Optimal`] choice needs one: see [`SkillDice::apply_against`]).
    /// Constant dice follow the rolled ones.
    ///
    /// # Errors
    /// [`Error::DiceCount`] unless `faces` has [`SkillDice::rolled`] faces;
    /// [`Error::Face`] for a face outside 1..=6.
    ///
    /// ```
    /// use dice_swimclass::{Bonus, Rules, SkillDice};
    /// // The orc's club: "rolls 2d6 (5,1), adds 2 to the highest die to get (7,1)" (L270).
    /// let orc = SkillDice::new(2).with_bonus(Bonus::Plus { dice: 1, modifier: 2 })?;
    /// let d = orc.apply(&[5, 1], &Rules::default())?;
    /// assert_eq!((d[0].value, d[1].value), (7, 1));
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn apply(&self, faces: &[u32], rules: &Rules) -> Result<Vec<DieRoll>, Error> {
        self.apply_against(faces, 1, rules)
    }

    /// As [`SkillDice::apply`], for a task of this difficulty (which the
    /// [`BonusAssignment::Optimal`] assignment aims at).
    ///
    /// # Errors
    /// As [`SkillDice::apply`].
    ///
    /// ```
    /// use dice_swimclass::{BonusAssignment, Bonus, Rules, SkillDice};
    /// let rules = Rules { assignment: BonusAssignment::Optimal, ..Rules::default() };
    /// let d = SkillDice::new(2).with_bonus(Bonus::Plus { dice: 1, modifier: 2 })?;
    /// // Difficulty 5: the +2 lifts the 3, not the 6.
    /// let v: Vec<i64> = d.apply_against(&[6, 3], 5, &rules)?.iter().map(|d| d.value).collect();
    /// assert_eq!(v, [6, 5]);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn apply_against(
        &self,
        faces: &[u32],
        difficulty: i32,
        rules: &Rules,
    ) -> Result<Vec<DieRoll>, Error> {
        self.check_faces(faces, rules)?;
        let c = self.compile(rules, difficulty);
        let nat: Vec<u8> = faces.iter().map(|&f| f as u8).collect();
        let mut ev = Evaluated::new();
        c.evaluate(&nat, &mut ev);
        Ok(ev.to_records())
    }

    /// The pure form with the player's own choice of dice for each (N+M) bonus: `chosen[i]`
    /// lists the dice (indices into `faces`) that take the i-th bonus of
    /// [`SkillDice::plus_bonuses`]. Each die takes at most one bonus; a bonus at most N dice.
    ///
    /// # Errors
    /// As [`SkillDice::apply`]; [`Error::Assignment`] for a choice the implements do not
    /// allow.
    ///
    /// ```
    /// use dice_swimclass::{Bonus, Rules, SkillDice};
    /// let sword = SkillDice::new(3).with_bonus(Bonus::Plus { dice: 3, modifier: 2 })?;
    /// // Harro "(Melee 3 +2) rolls 3d6 (5,2,1) netting (7,2,1)" (L280): one die chosen.
    /// let d = sword.apply_chosen(&[5, 2, 1], &[vec![0]], &Rules::default())?;
    /// assert_eq!(d.iter().map(|d| d.value).collect::<Vec<_>>(), [7, 2, 1]);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn apply_chosen(
        &self,
        faces: &[u32],
        chosen: &[Vec<usize>],
        rules: &Rules,
    ) -> Result<Vec<DieRoll>, Error> {
        self.check_faces(faces, rules)?;
        if chosen.len() > self.plus.len() {
            return Err(Error::Assignment {
                what: "more bonus lists than (N+M) bonuses",
            });
        }
        let mut bonus = vec![0i32; faces.len()];
        let mut taken = vec![false; faces.len()];
        for (i, dice) in chosen.iter().enumerate() {
            if dice.len() > self.plus[i].0 as usize {
                return Err(Error::Assignment {
                    what: "a bonus given to more than its N dice",
                });
            }
            for &d in dice {
                if d >= faces.len() {
                    return Err(Error::Assignment {
                        what: "a die index beyond the dice rolled",
                    });
                }
                if taken[d] {
                    return Err(Error::Assignment {
                        what: "a die given two bonuses",
                    });
                }
                taken[d] = true;
                bonus[d] = self.plus[i].1;
            }
        }
        let c = self.compile(rules, 1);
        let nat: Vec<u8> = faces.iter().map(|&f| f as u8).collect();
        let mut ev = Evaluated::new();
        c.fill(&nat, &mut ev);
        for (i, b) in bonus.iter().enumerate() {
            ev.modifier[i] += b;
            ev.value[i] += b;
        }
        Ok(ev.to_records())
    }

    /// Rolls the faces (pool order) with the caller's RNG: the dice a pure form takes.
    ///
    /// ```
    /// use dice_swimclass::{Rules, SkillDice};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let faces = SkillDice::new(3).roll_faces(&mut Xoshiro256PlusPlus::seed_from_u64(1), &Rules::default());
    /// assert_eq!(faces.len(), 3);
    /// ```
    pub fn roll_faces<R: Rng + ?Sized>(&self, rng: &mut R, rules: &Rules) -> Vec<u32> {
        (0..self.rolled(rules))
            .map(|_| Die::D6.roll_face(rng))
            .collect()
    }

    /// Splits the skill's dice between targets before the roll (L35): `shares` are the skill
    /// dice for each target. Aid, artifact dice and implement bonuses go with the first
    /// target (library choice: the text does not say how an implement splits).
    ///
    /// # Errors
    /// [`Error::Combine`] when the shares add up to more than the rank or there are none.
    ///
    /// ```
    /// use dice_swimclass::SkillDice;
    /// let parts = SkillDice::new(5).split(&[3, 2])?;
    /// assert_eq!((parts[0].rank(), parts[1].rank()), (3, 2));
    /// assert!(SkillDice::new(2).split(&[2, 1]).is_err());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn split(&self, shares: &[u32]) -> Result<Vec<SkillDice>, Error> {
        let total: u64 = shares.iter().map(|&s| u64::from(s)).sum();
        if shares.is_empty() || total > u64::from(self.rank) {
            return Err(Error::Combine {
                what: "split the skill's dice into one or more shares adding up to at most its rank",
            });
        }
        Ok(shares
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                if i == 0 {
                    SkillDice {
                        rank: s,
                        ..self.clone()
                    }
                } else {
                    SkillDice {
                        per_die: self.per_die,
                        ..SkillDice::new(s)
                    }
                }
            })
            .collect())
    }
}

impl fmt::Display for SkillDice {
    /// `3d6 (1+4)`, `2d6 + 1d6 artifact`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d6", self.rank)?;
        if self.aid > 0 {
            write!(f, " + {}d6 aid", self.aid)?;
        }
        if self.artifact > 0 {
            write!(f, " + {}d6 artifact", self.artifact)?;
        }
        if self.per_die != 0 {
            write!(f, " {:+} each", self.per_die)?;
        }
        for &(n, m) in &self.plus {
            write!(f, " ({n}{m:+})")?;
        }
        for &(n, m) in &self.constants {
            write!(f, " ({n}*{m})")?;
        }
        if self.cancel > 0 {
            write!(f, " ({}-crit)", self.cancel)?;
        }
        Ok(())
    }
}

/// The dice of one roll after the implements, on the stack.
#[derive(Clone, Debug)]
pub(crate) struct Evaluated {
    pub len: usize,
    /// Natural faces (0 for constants).
    pub natural: [u8; MAX_POOL as usize],
    pub modifier: [i32; MAX_POOL as usize],
    pub value: [i32; MAX_POOL as usize],
    pub colour: [u8; MAX_POOL as usize],
}

impl Evaluated {
    pub fn new() -> Evaluated {
        Evaluated {
            len: 0,
            natural: [0; MAX_POOL as usize],
            modifier: [0; MAX_POOL as usize],
            value: [0; MAX_POOL as usize],
            colour: [0; MAX_POOL as usize],
        }
    }

    pub fn to_records(&self) -> Vec<DieRoll> {
        (0..self.len)
            .map(|i| {
                let colour = DieColour::from_code(self.colour[i]);
                let natural = if colour == DieColour::Constant {
                    (self.value[i] - self.modifier[i]).max(0) as u32
                } else {
                    u32::from(self.natural[i])
                };
                let mut d = DieRoll::new(Die::D6, natural, colour.source());
                d.set_modifier(i64::from(self.modifier[i]));
                d
            })
            .collect()
    }
}

/// A [`SkillDice`] compiled under the rules for one difficulty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Compiled {
    pub skill: u32,
    pub aid: u32,
    pub artifact: u32,
    pub plus: Vec<(u32, i32)>,
    pub constants: Vec<(u32, i32)>,
    pub per_die: i32,
    pub assignment: BonusAssignment,
    pub difficulty: i32,
    /// The advancement pool's colour and whether "≥ 4" reads natural faces (for the
    /// [`BonusAssignment::Best`] tie-break).
    pub adv_colour: u8,
    pub uses_natural: bool,
}

impl Compiled {
    pub fn rolled(&self) -> usize {
        (self.skill + self.aid + self.artifact) as usize
    }

    /// The lowest and highest value a die of this roll can show once evaluated (a rolled
    /// die takes at most one (N+M) bonus; constants take none), or `None` for a roll with no
    /// dice at all.
    pub fn value_bounds(&self) -> Option<(i32, i32)> {
        let rolled = (self.rolled() > 0).then(|| {
            let (lo, hi) = self
                .plus
                .iter()
                .fold((0, 0), |(lo, hi): (i32, i32), &(_, m)| {
                    (lo.min(m), hi.max(m))
                });
            (
                1 + self.per_die.saturating_add(lo),
                6 + self.per_die.saturating_add(hi),
            )
        });
        self.constants
            .iter()
            .map(|&(_, m)| (m + self.per_die, m + self.per_die))
            .chain(rolled)
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
    }

    /// The naturals with the per-die modifier and the constants, no (N+M) yet.
    #[inline]
    pub fn fill(&self, nat: &[u8], ev: &mut Evaluated) {
        let n = nat.len();
        let (s, a) = (self.skill as usize, (self.skill + self.aid) as usize);
        for (i, &f) in nat.iter().enumerate() {
            ev.natural[i] = f;
            ev.modifier[i] = self.per_die;
            ev.value[i] = i32::from(f) + self.per_die;
            ev.colour[i] = if i < s {
                SKILL
            } else if i < a {
                AID
            } else {
                ARTIFACT
            };
        }
        let mut k = n;
        for &(c, m) in &self.constants {
            for _ in 0..c {
                ev.natural[k] = 0;
                ev.modifier[k] = self.per_die;
                ev.value[k] = m + self.per_die;
                ev.colour[k] = CONSTANT;
                k += 1;
            }
        }
        ev.len = k;
    }

    /// Applies everything to the rolled naturals (pool order). Under
    /// [`BonusAssignment::Best`] the placement is the best for a task at
    /// [`Compiled::difficulty`] (the most successes, then advancement).
    #[inline]
    pub fn evaluate(&self, nat: &[u8], ev: &mut Evaluated) {
        self.fill(nat, ev);
        if self.plus.is_empty() {
            return;
        }
        match self.assignment {
            BonusAssignment::Highest => self.place_highest(nat, ev),
            BonusAssignment::Optimal => self.place_greedy(nat, ev),
            BonusAssignment::Best => match self.placements(nat) {
                Some(all) => {
                    let n = nat.len();
                    let mut best: Option<((u32, bool), usize)> = None;
                    for (k, add) in all.chunks_exact(n.max(1)).enumerate() {
                        let score = self.task_score(ev, add);
                        if best.is_none_or(|(b, _)| score > b) {
                            best = Some((score, k));
                        }
                    }
                    if let Some((_, k)) = best {
                        if n > 0 {
                            Self::add(ev, &all[k * n..(k + 1) * n]);
                        }
                    }
                }
                None => self.place_greedy(nat, ev),
            },
        }
    }

    /// Adds a placement (one modifier per rolled die) to filled dice.
    #[inline]
    pub fn add(ev: &mut Evaluated, add: &[i32]) {
        for (i, &m) in add.iter().enumerate() {
            ev.modifier[i] += m;
            ev.value[i] += m;
        }
    }

    /// A task's view of a placement on filled dice: (successes, the advancement pool all
    /// successes showing 4 or more).
    #[inline]
    pub fn task_score(&self, ev: &Evaluated, add: &[i32]) -> (u32, bool) {
        let mut successes = 0;
        let mut pool = 0;
        let mut pool_ok = true;
        for i in 0..ev.len {
            let v = ev.value[i] + add.get(i).copied().unwrap_or(0);
            let hit = v >= self.difficulty;
            successes += u32::from(hit);
            if ev.colour[i] == self.adv_colour {
                pool += 1;
                let face = if self.uses_natural {
                    i32::from(ev.natural[i])
                } else {
                    v
                };
                pool_ok &= hit && face >= 4;
            }
        }
        (successes, pool_ok && pool > 0)
    }

    /// The (N+M) bonuses as slots over `n` rolled dice: equal modifiers merged, each taking
    /// as many dice as it may (largest +M first) while dice are left.
    fn slots(&self, n: usize) -> Vec<(usize, i32)> {
        let mut slots: Vec<(usize, i32)> = Vec::new();
        let mut left = n;
        for &(count, m) in &self.plus {
            let take = (count as usize).min(left);
            left -= take;
            if take == 0 {
                continue;
            }
            match slots.last_mut() {
                Some(last) if last.1 == m => last.0 += take,
                _ => slots.push((take, m)),
            }
        }
        slots
    }

    /// Every distinct placement of the (N+M) bonuses on the rolled dice `nat`, flat with
    /// stride `nat.len()` (the modifier each die takes), the
    /// [`BonusAssignment::Highest`] placement first; dice of the same face and colour are
    /// interchangeable. `None` beyond [`MAX_PLACEMENTS`].
    pub fn placements(&self, nat: &[u8]) -> Option<Vec<i32>> {
        let n = nat.len();
        let slots = self.slots(n);
        if slots.is_empty() || n == 0 {
            return Some(vec![0; n]);
        }
        // Classes of interchangeable dice, highest face first, then pool order.
        let (s, a) = (self.skill as usize, (self.skill + self.aid) as usize);
        let colour = |i: usize| {
            if i < s {
                SKILL
            } else if i < a {
                AID
            } else {
                ARTIFACT
            }
        };
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (core::cmp::Reverse(nat[i]), colour(i), i));
        let mut classes: Vec<Vec<usize>> = Vec::new();
        for &i in &order {
            match classes.last_mut() {
                Some(c) if nat[c[0]] == nat[i] && colour(c[0]) == colour(i) => c.push(i),
                _ => classes.push(vec![i]),
            }
        }
        let mut suffix = vec![0usize; classes.len() + 1];
        for c in (0..classes.len()).rev() {
            suffix[c] = suffix[c + 1] + classes[c].len();
        }
        let mut search = Search {
            rem: slots.iter().map(|s| s.0).collect(),
            slots,
            classes,
            suffix,
            add: vec![0; n],
            out: Vec::new(),
            count: 0,
        };
        search.class(0).then_some(search.out)
    }

    /// The Sample Rounds' placement: the highest natural dice, largest +M first.
    fn place_highest(&self, nat: &[u8], ev: &mut Evaluated) {
        let n = nat.len();
        let mut order = [0u8; MAX_POOL as usize];
        for (i, o) in order.iter_mut().enumerate().take(n) {
            *o = i as u8;
        }
        let order = &mut order[..n];
        order.sort_by_key(|&i| (core::cmp::Reverse(nat[i as usize]), i));
        let mut next = 0;
        for &(count, m) in &self.plus {
            for _ in 0..count {
                if next == n {
                    return;
                }
                let i = order[next] as usize;
                next += 1;
                ev.modifier[i] += m;
                ev.value[i] += m;
            }
        }
    }

    /// The greedy placement aiming at the difficulty ([`BonusAssignment::Optimal`]).
    fn place_greedy(&self, nat: &[u8], ev: &mut Evaluated) {
        let n = nat.len();
        let mut order = [0u8; MAX_POOL as usize];
        for (i, o) in order.iter_mut().enumerate().take(n) {
            *o = i as u8;
        }
        let order = &mut order[..n];
        order.sort_by_key(|&i| (core::cmp::Reverse(nat[i as usize]), i));
        let mut boosted = [false; MAX_POOL as usize];
        let t = self.difficulty;
        for &(count, m) in &self.plus {
            for _ in 0..count {
                // The lowest die this +M lifts to the difficulty...
                let mut pick: Option<usize> = None;
                for &i in order.iter().rev() {
                    let i = i as usize;
                    let v = ev.value[i];
                    if !boosted[i] && v < t && v + m >= t {
                        pick = Some(i);
                        break;
                    }
                }
                // ...else the highest die still free.
                if pick.is_none() {
                    pick = order.iter().map(|&i| i as usize).find(|&i| !boosted[i]);
                }
                let Some(i) = pick else { return };
                boosted[i] = true;
                ev.modifier[i] += m;
                ev.value[i] += m;
            }
        }
    }
}

/// The search over placements: classes of interchangeable dice, each taking some of every
/// slot, largest counts first (so the first placement found is the highest-dice one).
struct Search {
    slots: Vec<(usize, i32)>,
    rem: Vec<usize>,
    classes: Vec<Vec<usize>>,
    suffix: Vec<usize>,
    add: Vec<i32>,
    out: Vec<i32>,
    count: usize,
}

impl Search {
    /// False when over [`MAX_PLACEMENTS`].
    fn class(&mut self, ci: usize) -> bool {
        if ci == self.classes.len() {
            if self.rem.iter().all(|&r| r == 0) {
                if self.count == MAX_PLACEMENTS {
                    return false;
                }
                self.out.extend_from_slice(&self.add);
                self.count += 1;
            }
            return true;
        }
        if self.rem.iter().sum::<usize>() > self.suffix[ci] {
            return true;
        }
        self.label(ci, 0, 0)
    }

    fn label(&mut self, ci: usize, j: usize, used: usize) -> bool {
        if j == self.slots.len() {
            return self.class(ci + 1);
        }
        let size = self.classes[ci].len();
        let max = self.rem[j].min(size - used);
        let m = self.slots[j].1;
        for c in (0..=max).rev() {
            for t in used..used + c {
                let d = self.classes[ci][t];
                self.add[d] = m;
            }
            self.rem[j] -= c;
            let ok = self.label(ci, j + 1, used + c);
            self.rem[j] += c;
            for t in used..used + c {
                let d = self.classes[ci][t];
                self.add[d] = 0;
            }
            if !ok {
                return false;
            }
        }
        true
    }
}

/// The faces a d6 rolls for `n` dice, into a stack buffer.
#[inline]
pub(crate) fn roll_naturals<R: Rng + ?Sized>(rng: &mut R, n: usize, out: &mut [u8]) {
    for o in out.iter_mut().take(n) {
        *o = Die::D6.roll_face(rng) as u8;
    }
}
