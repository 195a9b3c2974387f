//! Initiative (L23, L87; SC-R5, SC-R25, SC-A8): a d20 plus 10 × stalking, highest first,
//! ties broken by rolling off.

use core::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollOffError, RollRecord};

use crate::MAX_LEVEL;
use crate::ability::Ability;
use crate::character::Character;
use crate::error::Error;
use crate::roll::{D20, check_natural};

/// Initiative added per level of stalking (L87).
pub const STALKING_INITIATIVE: u32 = 10;

/// The pure rule of L87: the initiative die plus 10 × stalking.
///
/// # Errors
/// [`Error::Natural`] for a face outside 1..=20; [`Error::LevelLimit`] for stalking above
/// [`MAX_LEVEL`].
///
/// ```
/// use dice_scratch_rps::initiative::initiative;
/// assert_eq!(initiative(17, 3)?, 47); // L87
/// assert_eq!(initiative(4, 3)?, 34);  // Chokestar, L129
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
pub fn initiative(natural: u32, stalking: u32) -> Result<u32, Error> {
    check_natural(natural)?;
    check_stalking(stalking)?;
    Ok(natural + STALKING_INITIATIVE * stalking)
}

fn check_stalking(stalking: u32) -> Result<u32, Error> {
    if stalking > MAX_LEVEL {
        return Err(Error::LevelLimit {
            level: stalking,
            max: MAX_LEVEL,
        });
    }
    Ok(stalking)
}

/// One character's initiative roll (L23, L87): a d20 plus 10 × stalking.
///
/// ```
/// use dice_scratch_rps::{Character, Initiative};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let chokestar = Character::from_stat_block("2 piloting, 2 wrestling, 3 stalking, 3 toughness")?;
/// let init = Initiative::of(&chokestar);
/// assert_eq!(init.total(4)?, 34); // L129
/// let d = init.distribution()?;
/// assert_eq!(d.outcomes().first(), Some(&31));
/// assert_eq!(d.outcomes().last(), Some(&50));
/// let total = init.roll(&mut Xoshiro256PlusPlus::seed_from_u64(3));
/// assert!((31..=50).contains(&total));
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Initiative {
    stalking: u32,
}

impl Initiative {
    /// The initiative roll of a character with `stalking` levels.
    ///
    /// # Errors
    /// [`Error::LevelLimit`] above [`MAX_LEVEL`].
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::Initiative::new(0)?.total(17)?, 17);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn new(stalking: u32) -> Result<Initiative, Error> {
        Ok(Initiative {
            stalking: check_stalking(stalking)?,
        })
    }

    /// The initiative roll of `character` (its stalking level).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Initiative};
    /// let c = Character::from_stat_block("1 stalking, 2 toughness")?;
    /// assert_eq!(Initiative::of(&c).stalking(), 1);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn of(character: &Character) -> Initiative {
        Initiative {
            stalking: character.level(Ability::Stalking),
        }
    }

    /// The stalking level.
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::Initiative::new(3)?.stalking(), 3);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn stalking(&self) -> u32 {
        self.stalking
    }

    /// The pure form: the initiative for a die already rolled.
    ///
    /// # Errors
    /// [`Error::Natural`].
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::Initiative::new(3)?.total(17)?, 47); // L87
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn total(&self, natural: u32) -> Result<u32, Error> {
        initiative(natural, self.stalking)
    }

    fn bonus(&self) -> u32 {
        STALKING_INITIATIVE * self.stalking
    }
}

impl Roll for Initiative {
    /// The initiative total.
    type Outcome = u32;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        D20.roll_face(rng) + self.bonus()
    }
}

impl Exact for Initiative {
    /// Uniform on `1 + 10·stalking ..= 20 + 10·stalking`.
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        let bonus = self.bonus();
        Ok(D20.distribution()?.map(|&n| n + bonus))
    }
}

impl RollDetailed for Initiative {
    /// The die, with 10 × stalking as the modifier.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        D20.roll_record_into(rng, record);
        record.modifier = i64::from(self.bonus());
        record.total += record.modifier;
    }
}

impl fmt::Display for Initiative {
    /// `initiative 1d20+30`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stalking == 0 {
            f.write_str("initiative 1d20")
        } else {
            write!(f, "initiative 1d20+{}", self.bonus())
        }
    }
}

/// Orders characters by initiative, highest first (L23), with roll-offs taken from
/// `next_die`: tied characters each roll another die, in the order they were given, until
/// they are strictly ordered; three or more tied characters roll off together, and any of
/// them still tied roll off again among themselves (SC-A8). The roll-off die adds nothing
/// (no stalking).
///
/// Returns `None` when `next_die` runs out.
///
/// The procedure is dice-core's [`rank_with_roll_offs`](dice_core::rank_with_roll_offs).
fn order_with(
    totals: &[u32],
    mut next_die: impl FnMut() -> Option<u32>,
) -> Result<Option<Vec<usize>>, Error> {
    /// Why a roll-off die could not be had.
    enum NoDie {
        RanOut,
        Bad(Error),
    }
    let ranked = dice_core::rank_with_roll_offs(
        totals.len(),
        |a, b| totals[a].cmp(&totals[b]),
        // No cap: the dice given run out, and rolled d20s cannot tie for ever.
        u32::MAX,
        |_| match next_die() {
            None => Err(NoDie::RanOut),
            Some(die) => check_natural(die).map_err(NoDie::Bad),
        },
    );
    match ranked {
        Ok(order) => Ok(Some(order)),
        Err(RollOffError::Roll(NoDie::Bad(e))) => Err(e),
        Err(RollOffError::Roll(NoDie::RanOut) | RollOffError::Unresolved { .. }) => Ok(None),
    }
}

/// The pure form of the initiative order (L23, SC-A8): indices into `totals`, highest
/// first, breaking ties with the roll-off dice given, used in order (within a tie, one die
/// per tied character in the order they appear in `totals`; see [`order_rolled`]).
///
/// # Errors
/// [`Error::Natural`] for a roll-off face outside 1..=20; [`Error::RollOffShort`] when the
/// ties need more dice than given; [`Error::RollOffExtra`] when some are left over.
///
/// ```
/// use dice_scratch_rps::initiative::order;
/// // L129: Chokestar 34, Flipfire 17, Breakhelm X-19 14.
/// assert_eq!(order(&[34, 17, 14], &[])?, [0, 1, 2]);
/// // Two tied at 12: they roll off, 5 against 9, so the second goes first.
/// assert_eq!(order(&[12, 20, 12], &[5, 9])?, [1, 2, 0]);
/// // A roll-off tie rolls again: 7 and 7, then 3 and 11.
/// assert_eq!(order(&[12, 12], &[7, 7, 3, 11])?, [1, 0]);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
pub fn order(totals: &[u32], roll_offs: &[u32]) -> Result<Vec<usize>, Error> {
    let mut used = 0;
    let result = order_with(totals, || {
        let d = roll_offs.get(used).copied();
        used += usize::from(d.is_some());
        d
    })?;
    match result {
        None => Err(Error::RollOffShort {
            given: roll_offs.len(),
        }),
        Some(_) if used < roll_offs.len() => Err(Error::RollOffExtra {
            used,
            given: roll_offs.len(),
        }),
        Some(o) => Ok(o),
    }
}

/// The initiative order with roll-offs rolled with `rng` (L23, SC-A8). Also returns the
/// roll-off dice, in the order [`order`] reads them.
///
/// ```
/// use dice_scratch_rps::initiative::{order, order_rolled};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
/// let totals = [15, 15, 15, 3];
/// let (o, dice) = order_rolled(&totals, &mut rng);
/// assert_eq!(o[3], 3);
/// assert_eq!(order(&totals, &dice)?, o);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
pub fn order_rolled<R: Rng + ?Sized>(totals: &[u32], rng: &mut R) -> (Vec<usize>, Vec<u32>) {
    let mut dice = Vec::new();
    let result = order_with(totals, || {
        let d = D20.roll_face(rng);
        dice.push(d);
        Some(d)
    });
    // The dice always run on and are always 1..=20, so the order is always complete.
    let order = match result {
        Ok(Some(o)) => o,
        _ => (0..totals.len()).collect(),
    };
    (order, dice)
}

/// One of two sides: who goes first in an [`InitiativeContest`], or a team in
/// [`crate::FightSimulation`].
///
/// ```
/// use dice_scratch_rps::Side;
/// assert_eq!(Side::A.other(), Side::B);
/// assert_eq!(Side::B.to_string(), "B");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// The first side.
    A,
    /// The second side.
    B,
}

impl Side {
    /// The other side.
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::Side::B.other(), dice_scratch_rps::Side::A);
    /// ```
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}

/// Which of two characters goes first (L23): each rolls initiative; on a tie both roll
/// another die until one rolls higher.
///
/// The exact law: `P(A first) = P(A's total > B's) + P(tie) / 2`, since the roll-off is a
/// symmetric contest of identical dice that ends with probability 1.
///
/// ```
/// use dice_scratch_rps::{Initiative, InitiativeContest, Side};
/// use dice_core::Exact;
/// let stalker = InitiativeContest::new(Initiative::new(1)?, Initiative::new(0)?);
/// let d = stalker.distribution()?;
/// // A wins unless B's die beats A's by more than 10, or by exactly 10 and B wins the roll-off.
/// assert!((d.probability(&Side::A) - (1.0 - 45.0 / 400.0 - 10.0 / 400.0 / 2.0)).abs() < 1e-12);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InitiativeContest {
    a: Initiative,
    b: Initiative,
}

impl InitiativeContest {
    /// `a` against `b`.
    ///
    /// ```
    /// use dice_scratch_rps::{Initiative, InitiativeContest};
    /// let c = InitiativeContest::new(Initiative::new(0)?, Initiative::new(0)?);
    /// assert_eq!(c.first_chance(), 0.5);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn new(a: Initiative, b: Initiative) -> InitiativeContest {
        InitiativeContest { a, b }
    }

    /// The pure form: who goes first for the two initiative dice and the roll-off dice
    /// (pairs, A's then B's, until one differs).
    ///
    /// # Errors
    /// [`Error::Natural`]; [`Error::RollOffShort`] / [`Error::RollOffExtra`].
    ///
    /// ```
    /// use dice_scratch_rps::{Initiative, InitiativeContest, Side};
    /// let c = InitiativeContest::new(Initiative::new(1)?, Initiative::new(0)?);
    /// assert_eq!(c.resolve(3, 13, &[4, 6])?, Side::B); // 13 = 13, then 4 < 6
    /// assert_eq!(c.resolve(3, 12, &[])?, Side::A);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn resolve(&self, a: u32, b: u32, roll_offs: &[u32]) -> Result<Side, Error> {
        let totals = [self.a.total(a)?, self.b.total(b)?];
        let o = order(&totals, roll_offs)?;
        Ok(if o[0] == 0 { Side::A } else { Side::B })
    }

    /// The exact chance that A goes first.
    ///
    /// ```
    /// use dice_scratch_rps::{Initiative, InitiativeContest};
    /// let c = InitiativeContest::new(Initiative::new(2)?, Initiative::new(0)?);
    /// assert_eq!(c.first_chance(), 1.0); // 21..=40 against 1..=20
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn first_chance(&self) -> f64 {
        let (sa, sb) = (self.a.bonus(), self.b.bonus());
        let mut wins = 0u32;
        let mut ties = 0u32;
        for x in 1..=20 {
            for y in 1..=20 {
                match (x + sa).cmp(&(y + sb)) {
                    core::cmp::Ordering::Greater => wins += 1,
                    core::cmp::Ordering::Equal => ties += 1,
                    core::cmp::Ordering::Less => {}
                }
            }
        }
        (f64::from(wins) + f64::from(ties) / 2.0) / 400.0
    }
}

impl Roll for InitiativeContest {
    /// Who goes first.
    type Outcome = Side;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Side {
        let a = self.a.roll(rng);
        let b = self.b.roll(rng);
        if a != b {
            return if a > b { Side::A } else { Side::B };
        }
        loop {
            let x = D20.roll_face(rng);
            let y = D20.roll_face(rng);
            if x != y {
                return if x > y { Side::A } else { Side::B };
            }
        }
    }
}

impl Exact for InitiativeContest {
    fn distribution(&self) -> Result<Dist<Side>, dice_core::Error> {
        let p = self.first_chance();
        Dist::from_pairs([(Side::A, p), (Side::B, 1.0 - p)])
    }
}

impl fmt::Display for InitiativeContest {
    /// `initiative 1d20+10 against initiative 1d20`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} against {}", self.a, self.b)
    }
}
