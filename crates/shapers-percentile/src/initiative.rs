//! Initiative and turn order: d10 + PA + MA, highest first, ties rolled off on a d10 until
//! there is a winner (PC-R2, L3–4; PC-A9).

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use dice_core::{Die, DieRoll, Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Source};

use crate::d100::face_law;
use crate::error::{Error, check_d10, check_score};

/// One combatant's Initiative: "Roll a d10 for each combatant and add their PA and MA"
/// (L4). PA is Physical Agility; MA is not defined in the chapter and is read as Mental
/// Agility (PC-A9); both are plain inputs.
///
/// ```
/// use dice_shapers_percentile::Initiative;
/// use dice_core::Exact;
/// let init = Initiative::new(12, 9)?;
/// assert_eq!(init.score(7)?, 28);
/// let law = init.distribution()?;
/// assert!((law.probability(&31) - 0.1).abs() < 1e-15);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Initiative {
    physical_agility: i32,
    mental_agility: i32,
}

impl Initiative {
    /// A combatant with this PA and MA.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when a magnitude exceeds [`crate::MAX_SCORE`].
    ///
    /// ```
    /// # use dice_shapers_percentile::Initiative;
    /// assert_eq!(Initiative::new(12, 9)?.bonus(), 21);
    /// assert!(Initiative::new(12, 99_999).is_err());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn new(physical_agility: i32, mental_agility: i32) -> Result<Self, Error> {
        Ok(Initiative {
            physical_agility: check_score("physical agility", physical_agility)?,
            mental_agility: check_score("mental agility", mental_agility)?,
        })
    }

    /// PA + MA.
    ///
    /// ```
    /// # use dice_shapers_percentile::Initiative;
    /// assert_eq!(Initiative::new(3, 4)?.bonus(), 7);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn bonus(&self) -> i32 {
        self.physical_agility + self.mental_agility
    }

    /// The pure form: the Initiative score for a d10 already rolled (`1..=10`).
    ///
    /// # Errors
    /// [`Error::Face`] unless `1 <= d10 <= 10`.
    ///
    /// ```
    /// # use dice_shapers_percentile::Initiative;
    /// assert_eq!(Initiative::new(3, 4)?.score(10)?, 17);
    /// assert!(Initiative::new(3, 4)?.score(0).is_err());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn score(&self, d10: u8) -> Result<i32, Error> {
        Ok(i32::from(check_d10(d10)?) + self.bonus())
    }
}

/// Rolls a d10 as a `u8`.
#[inline]
fn roll_d10<R: Rng + ?Sized>(rng: &mut R) -> u8 {
    // Faces are 1..=10.
    Die::D10.roll_face(rng) as u8
}

impl Roll for Initiative {
    /// The Initiative score.
    type Outcome = i32;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i32 {
        i32::from(roll_d10(rng)) + self.bonus()
    }
}

impl Exact for Initiative {
    /// Uniform on `PA + MA + 1 ..= PA + MA + 10`.
    fn distribution(&self) -> Result<Dist<i32>, dice_core::Error> {
        let b = self.bonus();
        Ok(face_law(Die::D10).map(|&f| i32::from(f) + b))
    }
}

impl RollDetailed for Initiative {
    /// The d10 with PA + MA as its modifier; `total` is the score.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let mut d = DieRoll::new(Die::D10, u32::from(roll_d10(rng)), Source::Primary);
        d.set_modifier(i64::from(self.bonus()));
        record.total = d.value;
        record.dice.push(d);
    }
}

impl rand::distr::Distribution<i32> for Initiative {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i32 {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for Initiative {
    /// `d10+21`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d10{:+}", self.bonus())
    }
}

/// A turn order: the combatants' indices, the first to act first.
///
/// ```
/// use dice_shapers_percentile::Order;
/// let o = Order(vec![2, 0, 1]);
/// assert_eq!(o.first(), Some(2));
/// assert_eq!(o.position(1), Some(2));
/// assert_eq!(o.to_string(), "2, 0, 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Order(pub Vec<usize>);

impl Order {
    /// Who acts first.
    ///
    /// ```
    /// # use dice_shapers_percentile::Order;
    /// assert_eq!(Order(vec![]).first(), None);
    /// ```
    pub fn first(&self) -> Option<usize> {
        self.0.first().copied()
    }

    /// Where combatant `i` acts (0 = first).
    ///
    /// ```
    /// # use dice_shapers_percentile::Order;
    /// assert_eq!(Order(vec![1, 0]).position(0), Some(1));
    /// ```
    pub fn position(&self, i: usize) -> Option<usize> {
        self.0.iter().position(|&c| c == i)
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, c) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// A resolved turn order with the Initiative scores and how many d10s it used.
///
/// ```
/// use dice_shapers_percentile::{Initiative, TurnOrder};
/// let fight = TurnOrder::new(vec![Initiative::new(5, 5)?, Initiative::new(6, 4)?])?;
/// // Both score 17; the roll-off is 3 against 8.
/// let r = fight.resolve(&[7, 7, 3, 8])?;
/// assert_eq!(r.scores, vec![17, 17]);
/// assert_eq!(r.order.0, vec![1, 0]);
/// assert_eq!(r.dice_used, 4);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ranking {
    /// Each combatant's Initiative score, by index.
    pub scores: Vec<i32>,
    /// The turn order.
    pub order: Order,
    /// d10s used: one per combatant, then the roll-offs.
    pub dice_used: usize,
}

/// The most combatants a [`TurnOrder`] holds.
const MAX_COMBATANTS: usize = 10_000;

/// The most combatants whose turn-order law [`Exact::distribution`] enumerates (10⁶
/// combinations of d10s).
pub const MAX_EXACT_COMBATANTS: usize = 6;

/// Orders combatants by score, highest first, rolling off ties (L4): "each combatant that is
/// tied rolls a d10, with the highest going first. If they roll the same, just roll again
/// until you have a winner."
///
/// Tied groups are resolved from the top of the order down; within a group the members roll
/// in index order; members who roll the same face roll again among themselves, before any
/// lower group rolls. `next` gives the roll-off d10s.
///
/// The procedure is dice-core's [`rank_with_roll_offs`](dice_core::rank_with_roll_offs).
pub(crate) fn rank_with_roll_offs<F>(scores: &[i32], mut next: F) -> Result<Vec<usize>, Error>
where
    F: FnMut() -> Result<u8, Error>,
{
    dice_core::rank_with_roll_offs(
        scores.len(),
        |a, b| scores[a].cmp(&scores[b]),
        // No cap: faces given run out, and rolled d10s cannot tie for ever.
        u32::MAX,
        |_| next(),
    )
    .map_err(|e| match e {
        dice_core::RollOffError::Roll(e) => e,
        // Only after 2³² rounds of ties: more faces than memory holds, or never with
        // rolled d10s. Read as "the ties needed more dice".
        dice_core::RollOffError::Unresolved { .. } => Error::NotEnoughDice {
            what: "turn order",
            given: 0,
        },
    })
}

/// The turn order of a fight: every combatant rolls Initiative, the highest goes first, ties
/// are rolled off on a d10 (PC-R2, L4).
///
/// The exact law (up to [`MAX_EXACT_COMBATANTS`] combatants) enumerates every combination of
/// Initiative d10s; a roll-off leaves every order of the tied combatants equally likely (they
/// roll alike and re-roll ties), so each tied group of `k` contributes each of its `k!`
/// orders with probability `1/k!`.
///
/// ```
/// use dice_shapers_percentile::{Initiative, TurnOrder};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let fight = TurnOrder::new(vec![Initiative::new(10, 8)?, Initiative::new(9, 8)?])?;
/// let order = fight.roll(&mut Xoshiro256PlusPlus::seed_from_u64(3));
/// assert_eq!(order.0.len(), 2);
/// // Combatant 0 is one point ahead: P(first) = P(d10 ≥ other d10) + P(d10 + 1 = other)/2.
/// let p = fight.distribution()?.probability_where(|o| o.first() == Some(0));
/// assert!((p - (0.55 + 0.045)).abs() < 1e-12);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnOrder {
    combatants: Vec<Initiative>,
}

impl TurnOrder {
    /// The combatants of a fight, by index.
    ///
    /// # Errors
    /// [`Error::NoCombatants`] for an empty list; [`Error::OutOfRange`] beyond 10,000
    /// combatants.
    ///
    /// ```
    /// # use dice_shapers_percentile::TurnOrder;
    /// assert!(TurnOrder::new(vec![]).is_err());
    /// ```
    pub fn new(combatants: Vec<Initiative>) -> Result<Self, Error> {
        if combatants.is_empty() {
            return Err(Error::NoCombatants { what: "turn order" });
        }
        if combatants.len() > MAX_COMBATANTS {
            return Err(Error::OutOfRange {
                what: "combatants",
                value: combatants.len() as i64,
                min: 1,
                max: MAX_COMBATANTS as i64,
            });
        }
        Ok(TurnOrder { combatants })
    }

    /// The combatants.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Initiative, TurnOrder};
    /// let t = TurnOrder::new(vec![Initiative::new(1, 2)?])?;
    /// assert_eq!(t.combatants().len(), 1);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn combatants(&self) -> &[Initiative] {
        &self.combatants
    }

    /// The pure form: the d10s already rolled, first one Initiative d10 per combatant (in
    /// index order), then the roll-off d10s in the order they are needed (tied groups from
    /// the top of the order down, members in index order, re-rolls before lower groups).
    /// Extra dice are left unused.
    ///
    /// # Errors
    /// [`Error::Face`] for a face outside `1..=10`; [`Error::NotEnoughDice`] when the
    /// roll-offs need more dice than given.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Initiative, TurnOrder};
    /// let t = TurnOrder::new(vec![Initiative::new(0, 0)?, Initiative::new(0, 0)?, Initiative::new(0, 0)?])?;
    /// // All three roll 5; the roll-off: 6, 6, 2 (0 and 1 tie again); then 3 against 9.
    /// let r = t.resolve(&[5, 5, 5, 6, 6, 2, 3, 9])?;
    /// assert_eq!(r.order.0, vec![1, 0, 2]);
    /// assert!(t.resolve(&[5, 5, 5, 6, 6]).is_err());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn resolve(&self, d10s: &[u8]) -> Result<Ranking, Error> {
        let n = self.combatants.len();
        if d10s.len() < n {
            return Err(Error::NotEnoughDice {
                what: "turn order",
                given: d10s.len(),
            });
        }
        let scores = self
            .combatants
            .iter()
            .zip(d10s)
            .map(|(c, &f)| c.score(f))
            .collect::<Result<Vec<i32>, Error>>()?;
        let mut used = n;
        let order = rank_with_roll_offs(&scores, || {
            let f = d10s.get(used).copied().ok_or(Error::NotEnoughDice {
                what: "turn order",
                given: d10s.len(),
            })?;
            used += 1;
            check_d10(f)
        })?;
        Ok(Ranking {
            scores,
            order: Order(order),
            dice_used: used,
        })
    }

    /// Rolls the whole ranking (scores and order).
    ///
    /// ```
    /// # use dice_shapers_percentile::{Initiative, TurnOrder};
    /// # use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let t = TurnOrder::new(vec![Initiative::new(1, 2)?, Initiative::new(3, 4)?])?;
    /// let r = t.roll_ranking(&mut Xoshiro256PlusPlus::seed_from_u64(9));
    /// assert!(r.dice_used >= 2);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn roll_ranking<R: Rng + ?Sized>(&self, rng: &mut R) -> Ranking {
        self.rank(rng, None)
    }

    /// Rolls the ranking, writing every d10 into `record` when given (cleared first).
    fn rank<R: Rng + ?Sized>(&self, rng: &mut R, mut record: Option<&mut RollRecord>) -> Ranking {
        if let Some(rec) = record.as_deref_mut() {
            rec.clear();
        }
        let mut scores = Vec::with_capacity(self.combatants.len());
        for c in &self.combatants {
            let face = roll_d10(rng);
            // Scores are within ±(2·MAX_SCORE + 10).
            scores.push(i32::from(face) + c.bonus());
            if let Some(rec) = record.as_deref_mut() {
                let mut d = DieRoll::new(Die::D10, u32::from(face), Source::Primary);
                d.set_modifier(i64::from(c.bonus()));
                rec.dice.push(d);
            }
        }
        let mut used = scores.len();
        // The closure never fails, so the ranking is always there.
        let order = rank_with_roll_offs(&scores, || {
            let f = roll_d10(rng);
            used += 1;
            if let Some(rec) = record.as_deref_mut() {
                rec.dice
                    .push(DieRoll::new(Die::D10, u32::from(f), Source::Other(1)));
            }
            Ok(f)
        })
        .unwrap_or_default();
        if let Some(rec) = record {
            rec.total = scores.iter().copied().max().map_or(0, i64::from);
        }
        Ranking {
            dice_used: used,
            scores,
            order: Order(order),
        }
    }
}

impl Roll for TurnOrder {
    /// The turn order.
    type Outcome = Order;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Order {
        self.roll_ranking(rng).order
    }
}

impl RollDetailed for TurnOrder {
    /// The Initiative d10s (PA + MA as modifier), then the roll-off d10s (source
    /// [`Source::Other`]`(1)`); `total` is the highest score.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.rank(rng, Some(record));
    }
}

impl Exact for TurnOrder {
    /// Every combination of Initiative d10s, each tied group's orders equally likely.
    ///
    /// # Errors
    /// [`dice_core::Error::TooComplex`] beyond [`MAX_EXACT_COMBATANTS`] combatants.
    fn distribution(&self) -> Result<Dist<Order>, dice_core::Error> {
        let n = self.combatants.len();
        if n > MAX_EXACT_COMBATANTS {
            return Err(dice_core::Error::TooComplex {
                what: "turn order",
                work: 10u64.saturating_pow(n.min(19) as u32),
                max: 10u64.pow(MAX_EXACT_COMBATANTS as u32),
            });
        }
        // Count the weak orders (groups of equal score, highest first) over all 10ⁿ
        // combinations of d10s.
        let mut weak: BTreeMap<Vec<Vec<usize>>, u64> = BTreeMap::new();
        let mut faces = vec![1i32; n];
        let mut scores = vec![0i32; n];
        loop {
            for (s, (c, f)) in scores.iter_mut().zip(self.combatants.iter().zip(&faces)) {
                *s = c.bonus() + f;
            }
            let mut idx: Vec<usize> = (0..n).collect();
            idx.sort_by(|&a, &b| scores[b].cmp(&scores[a]).then(a.cmp(&b)));
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for &c in &idx {
                match groups.last_mut() {
                    Some(g) if scores[g[0]] == scores[c] => g.push(c),
                    _ => groups.push(vec![c]),
                }
            }
            *weak.entry(groups).or_insert(0) += 1;
            // Odometer step.
            let mut i = 0;
            loop {
                if i == n {
                    break;
                }
                if faces[i] < 10 {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
                i += 1;
            }
            if i == n {
                break;
            }
        }
        let total = 10f64.powi(n as i32);
        let mut pairs: Vec<(Order, f64)> = Vec::new();
        for (groups, count) in weak {
            // Each tied group's orders equally likely: dice-core's law of fair roll-offs,
            // ranking by the group a combatant fell in (the first group ranks highest).
            let mut place = vec![0usize; n];
            for (k, g) in groups.iter().enumerate() {
                for &c in g {
                    place[c] = k;
                }
            }
            let ties = dice_core::fair_roll_off_orders(n, |a, b| place[b].cmp(&place[a]))?;
            let weight = count as f64 / total;
            pairs.extend(ties.iter().map(|(o, p)| (Order(o.clone()), weight * p)));
        }
        Dist::from_pairs(pairs)
    }
}

impl rand::distr::Distribution<Order> for TurnOrder {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Order {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for TurnOrder {
    /// `turn order of d10+21, d10+17`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("turn order of ")?;
        for (k, c) in self.combatants.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}
