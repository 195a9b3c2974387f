//! Extended conflicts (digest §3; rulebook L287–339, L1980–2196, L2538–2553): turn order,
//! Action Points, ambush and surprise, Perception Saves to react, social conflicts.

use std::cmp::Ordering;
use std::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollOffError, SuccessPool};

use crate::attribute::Attribute;
use crate::error::Error;
use crate::ledger::{Breadth, Ledger};
use crate::rules::{Outnumbering, Rules};
use crate::save::{SaveOutcome, SavingThrow};
use crate::test::{check_dice, count_faces, pool};

/// The most participants a conflict tracks.
pub const MAX_PARTICIPANTS: usize = 1000;

/// A combat or a social extended conflict (L287–339 vs L364–373, L2538–2553): what differs
/// between the two, the rulings A16 and A17 of [`Rules`] included.
///
/// ```
/// use dice_robots_and_rapiers::{Attribute, ConflictKind, Rules};
/// let r = Rules::default();
/// assert_eq!(ConflictKind::Combat.tie_die_sides(&r), 10);             // L296
/// assert_eq!(ConflictKind::Social.tie_die_sides(&Rules { social_tie_die_sides: 6, ..r }), 6);
/// assert_eq!(ConflictKind::Social.surprise_save_attribute(&r), Attribute::AnthropoidClass);
/// assert_eq!(ConflictKind::Social.base_ap_tn(8, 4, &r), 7);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ConflictKind {
    /// A fight (L287–339, L1980–2196).
    #[default]
    Combat,
    /// A social conflict: a ball, a court, a garden party (L364–373, L2538–2553).
    Social,
}

impl ConflictKind {
    /// The attribute that sets the initial turn order: Perception in combat (L295),
    /// Processor in a social conflict (L366, L2546).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attribute, ConflictKind};
    /// assert_eq!(ConflictKind::Social.order_attribute(), Attribute::Processor);
    /// ```
    pub const fn order_attribute(self) -> Attribute {
        match self {
            ConflictKind::Combat => Attribute::Perception,
            ConflictKind::Social => Attribute::Processor,
        }
    }

    /// Sides of the die that settles turn-order ties after every other tie-break: the d10
    /// of combat (L296), or [`Rules::social_tie_die_sides`] in a social conflict (A16: the
    /// text's "d6", L366, L2546; the ruling's default a d10).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ConflictKind, Rules};
    /// assert_eq!(ConflictKind::Social.tie_die_sides(&Rules::default()), 10);
    /// ```
    pub fn tie_die_sides(self, rules: &Rules) -> u32 {
        match self {
            ConflictKind::Combat => 10,
            ConflictKind::Social => rules.social_tie_die_sides,
        }
    }

    /// The attribute of the save a surprised robot makes after an ambush: a Perception Save
    /// in combat (L325–327), the "Etiquette Save" of a social conflict (L367, L2547), whose
    /// attribute is [`Rules::etiquette_save_attribute`] (A17: Anthropoid Class).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attribute, ConflictKind, Rules};
    /// assert_eq!(ConflictKind::Combat.surprise_save_attribute(&Rules::default()), Attribute::Perception);
    /// ```
    pub fn surprise_save_attribute(self, rules: &Rules) -> Attribute {
        match self {
            ConflictKind::Combat => Attribute::Perception,
            ConflictKind::Social => rules.etiquette_save_attribute,
        }
    }

    /// A target's save after a successful ambush (L325, L2047, L2071): against
    /// [`ConflictKind::surprise_save_attribute`], whose current value `value_of` gives,
    /// less the ambusher's extra successes (×½ for several targets, [`ambush_save_tn`]).
    ///
    /// # Errors
    /// As [`SavingThrow::new`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attribute, ConflictKind, Rules};
    /// let r = Rules::default();
    /// // A social ambush on a robot of Anthropoid Class 6 and Perception 7, 2 extra successes.
    /// let value = |a| if a == Attribute::AnthropoidClass { 6 } else { 7 };
    /// assert_eq!(ConflictKind::Social.surprise_save(&r, value, 2, 1)?.tn(), 4);
    /// assert_eq!(ConflictKind::Combat.surprise_save(&r, value, 2, 1)?.tn(), 5);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn surprise_save(
        self,
        rules: &Rules,
        value_of: impl FnOnce(Attribute) -> i32,
        extra_successes: u32,
        targets: u32,
    ) -> Result<SavingThrow, Error> {
        let value = value_of(self.surprise_save_attribute(rules));
        SavingThrow::new(ambush_save_tn(value, extra_successes, targets))
    }

    /// The Base Action Point TN: [`combat_ap_tn`] from the side sizes, or [`social_ap_tn`]
    /// from Anthropoid Class against the mean.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ConflictKind, Rules};
    /// assert_eq!(ConflictKind::Combat.base_ap_tn(4, 6, &Rules::default()), 6);
    /// ```
    pub fn base_ap_tn(self, mine: u32, theirs: u32, rules: &Rules) -> i32 {
        match self {
            ConflictKind::Combat => combat_ap_tn(mine, theirs, rules),
            ConflictKind::Social => social_ap_tn(mine, theirs, rules),
        }
    }
}

impl fmt::Display for ConflictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ConflictKind::Combat => "combat",
            ConflictKind::Social => "social conflict",
        })
    }
}

/// Light and noise for the turn-order Perception (L297, L2006).
///
/// ```
/// use dice_robots_and_rapiers::Lighting;
/// assert_eq!(Lighting::Dark.to_string(), "dark");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Lighting {
    /// Visual + Audio.
    #[default]
    Normal,
    /// "½ of Visual Sensors (round up) plus Audio" (A5: rounding from [`Rules`]).
    Dark,
    /// "in total darkness, Audio alone".
    TotalDarkness,
    /// Heavy noise: "½ of Audio (round up)" + Visual.
    Noisy,
    /// Noise so heavy the GM uses "Visual Sensors alone".
    Deafening,
}

impl fmt::Display for Lighting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Lighting::Normal => "normal",
            Lighting::Dark => "dark",
            Lighting::TotalDarkness => "total darkness",
            Lighting::Noisy => "noisy",
            Lighting::Deafening => "deafening",
        })
    }
}

/// A robot's senses for the turn-order Perception (L297, L2006–2008).
///
/// ```
/// use dice_robots_and_rapiers::{Lighting, Rules, Senses};
/// let r = Rules::default();
/// // E30 (L2025–2031): Alfredo, Visual 4 and Audio 4, on a moonlit bridge: 2 + 4 = 6.
/// assert_eq!(Senses::new(4, 4).perception(Lighting::Dark, &r), 6);
/// // Devon's Advanced Visual ignores darkness: 8.
/// assert_eq!(Senses { advanced_visual: true, ..Senses::new(5, 3) }.perception(Lighting::Dark, &r), 8);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Senses {
    /// Visual Sensors level.
    pub visual: i32,
    /// Audio Sensors level.
    pub audio: i32,
    /// Advanced Visual: "ignore darkness penalties".
    pub advanced_visual: bool,
    /// Advanced Audio: "ignore noise penalties".
    pub advanced_audio: bool,
    /// +1 to basic Perception each from Advanced Tactile and Advanced Olfactory (L2008).
    pub perception_bonus: i32,
}

impl Senses {
    /// Plain sensors, no accessories.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Senses::new(3, 3).visual, 3);
    /// ```
    pub fn new(visual: i32, audio: i32) -> Senses {
        Senses {
            visual,
            audio,
            ..Senses::default()
        }
    }

    /// Perception for turn order under `lighting`.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Lighting, Rounding, Rules, Senses};
    /// let down = Rules { darkness_rounding: Rounding::Down, ..Rules::default() };
    /// // E30 as printed: "Charles has Level 3 Visual Sensors which are halved to 1".
    /// assert_eq!(Senses::new(3, 3).perception(Lighting::Dark, &down), 4);
    /// assert_eq!(Senses::new(3, 3).perception(Lighting::Dark, &Rules::default()), 5);
    /// ```
    pub fn perception(&self, lighting: Lighting, rules: &Rules) -> i32 {
        let half = |x| rules.darkness_rounding.halve(x);
        let (v, a) = match lighting {
            Lighting::Normal => (self.visual, self.audio),
            Lighting::Dark if self.advanced_visual => (self.visual, self.audio),
            Lighting::Dark => (half(self.visual), self.audio),
            Lighting::TotalDarkness if self.advanced_visual => (self.visual, self.audio),
            Lighting::TotalDarkness => (0, self.audio),
            Lighting::Noisy | Lighting::Deafening if self.advanced_audio => {
                (self.visual, self.audio)
            }
            Lighting::Noisy => (self.visual, half(self.audio)),
            Lighting::Deafening => (self.visual, 0),
        };
        v + a + self.perception_bonus
    }
}

/// What ranks a robot in the initial turn order (L295–296, L2000–2002): Perception, then
/// (after surprise) the degree of success on the Perception Save, then Locomotion, then
/// current Inspiration; a d10 roll-off settles the rest. Social conflicts rank by Processor,
/// then Perception, then Inspiration ([`Ranking::social`]).
///
/// ```
/// use dice_robots_and_rapiers::Ranking;
/// let alfredo = Ranking::new(8, 7, 5);
/// let devon = Ranking::new(8, 5, 7);
/// assert!(alfredo.beats(&devon)); // E29: "Alfredo wins the tie by having superior Locomotion"
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ranking {
    /// Perception (social: Processor).
    pub primary: i32,
    /// Successes on the surprise Perception Save, when there was one.
    pub save_successes: Option<u8>,
    /// Locomotion (social: Perception).
    pub secondary: i32,
    /// Current Inspiration.
    pub inspiration: u32,
}

impl Ranking {
    /// A combat ranking: Perception, Locomotion, Inspiration.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Ranking::new(6, 4, 3).primary, 6);
    /// ```
    pub fn new(perception: i32, locomotion: i32, inspiration: u32) -> Ranking {
        Ranking {
            primary: perception,
            save_successes: None,
            secondary: locomotion,
            inspiration,
        }
    }
    /// A social ranking (L366, L2546): Processor, Perception, Inspiration.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Ranking::social(5, 6, 1).secondary, 6);
    /// ```
    pub fn social(processor: i32, perception: i32, inspiration: u32) -> Ranking {
        Ranking::new(processor, perception, inspiration)
    }
    /// The comparison before any roll-off (`Greater` = ranks higher).
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use dice_robots_and_rapiers::Ranking;
    /// assert_eq!(Ranking::new(5, 4, 1).compare(&Ranking::new(5, 4, 1)), Ordering::Equal);
    /// ```
    pub fn compare(&self, other: &Ranking) -> Ordering {
        self.primary
            .cmp(&other.primary)
            .then_with(|| match (self.save_successes, other.save_successes) {
                (Some(a), Some(b)) => a.cmp(&b),
                _ => Ordering::Equal,
            })
            .then(self.secondary.cmp(&other.secondary))
            .then(self.inspiration.cmp(&other.inspiration))
    }
    /// Whether this ranking beats the other without a roll-off.
    ///
    /// ```
    /// use dice_robots_and_rapiers::Ranking;
    /// assert!(!Ranking::new(5, 4, 1).beats(&Ranking::new(5, 4, 3)));
    /// ```
    pub fn beats(&self, other: &Ranking) -> bool {
        self.compare(other) == Ordering::Greater
    }
}

/// Sorts rankings into an initial turn order (indices, top first). Ties that survive every
/// tie-break are settled by roll-offs (dice-core's
/// [`rank_with_roll_offs`](dice_core::rank_with_roll_offs)): `roll_off(i)` is robot `i`'s
/// face, and robots still tied roll again (A16), at most `max_rounds` times; `unsettled`
/// is the error when they are still tied after that.
fn order_by<F: FnMut(usize) -> Result<u8, Error>>(
    rankings: &[Ranking],
    max_rounds: u32,
    roll_off: F,
    unsettled: &'static str,
) -> Result<Vec<usize>, Error> {
    dice_core::rank_with_roll_offs(
        rankings.len(),
        |a, b| rankings[a].compare(&rankings[b]),
        max_rounds,
        roll_off,
    )
    .map_err(|e| match e {
        RollOffError::Roll(e) => e,
        RollOffError::Unresolved { .. } => Error::NotAllowed(unsettled),
    })
}

/// Rounds of rolled roll-offs before [`TurnOrder::roll_initial`] gives up (a tie that
/// survives 65 rounds of d10s has probability below 10⁻⁶⁰).
const MAX_ROLL_OFF_ROUNDS: u32 = 65;

/// The turn order: a list whose top robot takes the next turn, then moves to the bottom
/// (L291–299, L1992–2041). Entries are the caller's participant indices.
///
/// ```
/// use dice_robots_and_rapiers::{Ranking, TurnOrder};
/// // E29 (L2014–2023): "Alfredo, Devon, Charles, Burgiss".
/// let r = [Ranking::new(8, 7, 5), Ranking::new(6, 4, 3), Ranking::new(6, 6, 3), Ranking::new(8, 5, 7)];
/// let order = TurnOrder::initial(&r, &[])?;
/// assert_eq!(order.as_slice(), &[0, 3, 2, 1]);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TurnOrder {
    order: Vec<usize>,
}

impl TurnOrder {
    /// An order as given (top first).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::TurnOrder::from_list(vec![2, 0, 1]).top(), Some(2));
    /// ```
    pub fn from_list(order: Vec<usize>) -> TurnOrder {
        TurnOrder { order }
    }

    /// The pure form of the initial order of a combat: ties broken by the rankings and then
    /// by `tie_rolls`, one d10 face per participant (used only where needed). The same as
    /// [`TurnOrder::initial_for`] with [`ConflictKind::Combat`].
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::NotAllowed`] when robots are still tied (equal tie rolls or
    /// none given); [`Error::OutOfRange`] beyond [`MAX_PARTICIPANTS`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Ranking, TurnOrder};
    /// let r = [Ranking::new(5, 4, 1), Ranking::new(5, 4, 1)];
    /// assert_eq!(TurnOrder::initial(&r, &[3, 8])?.as_slice(), &[1, 0]);
    /// assert!(TurnOrder::initial(&r, &[]).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn initial(rankings: &[Ranking], tie_rolls: &[u8]) -> Result<TurnOrder, Error> {
        Self::initial_for(ConflictKind::Combat, &Rules::default(), rankings, tie_rolls)
    }

    /// The pure form of the initial order of a combat or a social conflict: ties broken by
    /// the rankings and then by `tie_rolls`, one face per participant of the kind's tie die
    /// ([`ConflictKind::tie_die_sides`]: a d10 in combat, L296; the rules' die in a social
    /// conflict, L366, A16).
    ///
    /// # Errors
    /// [`Error::Face`] for a face the tie die cannot show; otherwise as
    /// [`TurnOrder::initial`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ConflictKind, Ranking, Rules, TurnOrder};
    /// let as_written = Rules { social_tie_die_sides: 6, ..Rules::default() };
    /// let r = [Ranking::social(5, 6, 1), Ranking::social(5, 6, 1)];
    /// let o = TurnOrder::initial_for(ConflictKind::Social, &as_written, &r, &[2, 5])?;
    /// assert_eq!(o.as_slice(), &[1, 0]);
    /// assert!(TurnOrder::initial_for(ConflictKind::Social, &as_written, &r, &[2, 9]).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn initial_for(
        kind: ConflictKind,
        rules: &Rules,
        rankings: &[Ranking],
        tie_rolls: &[u8],
    ) -> Result<TurnOrder, Error> {
        check_participants(rankings.len())?;
        let sides = kind.tie_die_sides(rules);
        let check = |face: u8| {
            if face == 0 || u32::from(face) > sides {
                Err(Error::Face { face })
            } else {
                Ok(face)
            }
        };
        // One face per robot: a second round of roll-offs would need faces not given.
        let order = order_by(
            rankings,
            1,
            |i| {
                tie_rolls
                    .get(i)
                    .copied()
                    .ok_or(Error::NotAllowed(
                        "robots are tied: give a tie roll for each (L296, L366)",
                    ))
                    .and_then(check)
            },
            "robots remain tied after the tie rolls given (L296: re-roll)",
        )?;
        Ok(TurnOrder { order })
    }

    /// The initial order, rolling the kind's tie die ([`ConflictKind::tie_die_sides`]: a
    /// d10 in combat, the rules' die in a social conflict) for ties with the caller's RNG,
    /// re-rolling robots still tied.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] beyond [`MAX_PARTICIPANTS`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ConflictKind, Ranking, Rules, TurnOrder};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let r = [Ranking::new(5, 4, 1); 3];
    /// let rules = Rules::default();
    /// let o = TurnOrder::roll_initial(&r, ConflictKind::Combat, &rules, &mut Xoshiro256PlusPlus::seed_from_u64(1))?;
    /// assert_eq!(o.len(), 3);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn roll_initial<R: Rng + ?Sized>(
        rankings: &[Ranking],
        kind: ConflictKind,
        rules: &Rules,
        rng: &mut R,
    ) -> Result<TurnOrder, Error> {
        check_participants(rankings.len())?;
        let die = dice_core::Die::new(kind.tie_die_sides(rules).clamp(2, 255))?;
        let order = order_by(
            rankings,
            MAX_ROLL_OFF_ROUNDS,
            |_| Ok(die.roll_face(rng).min(255) as u8),
            "turn-order ties could not be settled",
        )?;
        Ok(TurnOrder { order })
    }

    /// The list, top first.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::TurnOrder::from_list(vec![1, 0]).as_slice(), &[1, 0]);
    /// ```
    pub fn as_slice(&self) -> &[usize] {
        &self.order
    }
    /// Number of robots.
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::TurnOrder::from_list(vec![]).is_empty());
    /// ```
    pub fn len(&self) -> usize {
        self.order.len()
    }
    /// Whether empty.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::TurnOrder::from_list(vec![4]).len(), 1);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
    /// The robot that takes the next turn.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::TurnOrder::from_list(vec![]).top(), None);
    /// ```
    pub fn top(&self) -> Option<usize> {
        self.order.first().copied()
    }
    /// The position of a robot (0 = top).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::TurnOrder::from_list(vec![3, 1]).position(1), Some(1));
    /// ```
    pub fn position(&self, who: usize) -> Option<usize> {
        self.order.iter().position(|&w| w == who)
    }
    /// After a turn: the top robot moves to the bottom (L293).
    ///
    /// ```
    /// let mut o = dice_robots_and_rapiers::TurnOrder::from_list(vec![0, 1, 2]);
    /// o.end_turn();
    /// assert_eq!(o.as_slice(), &[1, 2, 0]);
    /// ```
    pub fn end_turn(&mut self) {
        if !self.order.is_empty() {
            self.order.rotate_left(1);
        }
    }
    /// Moves a robot to the top (paying for a turn).
    ///
    /// ```
    /// let mut o = dice_robots_and_rapiers::TurnOrder::from_list(vec![0, 1, 2]);
    /// o.move_to_top(2);
    /// assert_eq!(o.as_slice(), &[2, 0, 1]);
    /// ```
    pub fn move_to_top(&mut self, who: usize) {
        if let Some(p) = self.position(who) {
            let w = self.order.remove(p);
            self.order.insert(0, w);
        }
    }
    /// Narrative Turn Order (L2010): cycles the top robots to the bottom until the
    /// initiator is on top.
    ///
    /// ```
    /// let mut o = dice_robots_and_rapiers::TurnOrder::from_list(vec![0, 1, 2]);
    /// o.cycle_to(2);
    /// assert_eq!(o.as_slice(), &[2, 0, 1]);
    /// ```
    pub fn cycle_to(&mut self, who: usize) {
        if let Some(p) = self.position(who) {
            self.order.rotate_left(p);
        }
    }
    /// Adds a newcomer (L299, L2035): compared from the top, inserted "immediately in front
    /// of the first existing participant he beats", the tie-breaks applied; `tie_roll`
    /// settles a full tie against a robot (`Greater`: the newcomer wins the roll-off).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Ranking, TurnOrder};
    /// // E31 (L2037–2041), by the printed Perceptions: Burgiss 5/4/3, Alfredo 6, Charles 4,
    /// // Devon 8; Edward 5, Locomotion 4, Inspiration 1 → third.
    /// let r = [Ranking::new(5, 4, 3), Ranking::new(6, 7, 5), Ranking::new(4, 6, 3), Ranking::new(8, 5, 7)];
    /// let mut o = TurnOrder::from_list(vec![0, 1, 2, 3]);
    /// o.insert(4, &Ranking::new(5, 4, 1), &r, |_| std::cmp::Ordering::Less);
    /// assert_eq!(o.as_slice(), &[0, 1, 4, 2, 3]);
    /// ```
    pub fn insert(
        &mut self,
        newcomer: usize,
        ranking: &Ranking,
        rankings: &[Ranking],
        mut tie_roll: impl FnMut(usize) -> Ordering,
    ) {
        let pos = self.order.iter().position(|&w| {
            rankings.get(w).is_some_and(|r| match ranking.compare(r) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => tie_roll(w) == Ordering::Greater,
            })
        });
        match pos {
            Some(p) => self.order.insert(p, newcomer),
            None => self.order.push(newcomer),
        }
    }
}

fn check_participants(n: usize) -> Result<(), Error> {
    if n > MAX_PARTICIPANTS {
        return Err(Error::OutOfRange {
            what: "participants in a conflict",
            value: n as i64,
            min: 0,
            max: MAX_PARTICIPANTS as i64,
        });
    }
    Ok(())
}

impl fmt::Display for TurnOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<String> = self.order.iter().map(|w| w.to_string()).collect();
        f.write_str(&v.join(", "))
    }
}

/// The Base Action Point TN in combat from the side sizes (L305–310, L2096–2098; A12):
/// equal 5, larger 4, ≥2× 3; smaller 6, ≤½ 7 (the outnumbered side's advantage).
///
/// ```
/// use dice_robots_and_rapiers::{Rules, combat_ap_tn};
/// let r = Rules::default();
/// // E34 (L2103): 6 thugs vs 4 comrades.
/// assert_eq!(combat_ap_tn(4, 6, &r), 6);
/// assert_eq!(combat_ap_tn(6, 4, &r), 4);
/// assert_eq!(combat_ap_tn(2, 1, &r), 3);
/// assert_eq!(combat_ap_tn(3, 3, &r), 5);
/// ```
pub fn combat_ap_tn(my_side: u32, their_side: u32, rules: &Rules) -> i32 {
    outnumbering_tn(u64::from(my_side), u64::from(their_side), rules)
}

/// [`combat_ap_tn`] on any two magnitudes (the comparisons are unchanged when both are
/// multiplied by the same number).
fn outnumbering_tn(m: u64, t: u64, rules: &Rules) -> i32 {
    let (m, t) = (u128::from(m), u128::from(t));
    let (double, half) = match rules.outnumbering {
        Outnumbering::Inclusive => (m >= 2 * t, 2 * m <= t),
        Outnumbering::Strict => (m > 2 * t, 2 * m < t),
    };
    match m.cmp(&t) {
        Ordering::Equal => 5,
        Ordering::Greater if double => 3,
        Ordering::Greater => 4,
        Ordering::Less if half => 7,
        Ordering::Less => 6,
    }
}

/// The social Base Action Point TN (L369–372, L2549–2552): Anthropoid Class against the
/// mean: equal 5, greater 6, 2× greater 7, less 4, 2× less 3 (the same outnumbering
/// comparison as combat, A12).
///
/// ```
/// use dice_robots_and_rapiers::{Rules, social_ap_tn};
/// let r = Rules::default();
/// assert_eq!(social_ap_tn(8, 4, &r), 7);
/// assert_eq!(social_ap_tn(5, 4, &r), 6);
/// assert_eq!(social_ap_tn(2, 4, &r), 3);
/// ```
pub fn social_ap_tn(class: u32, mean: u32, rules: &Rules) -> i32 {
    10 - combat_ap_tn(class, mean, rules)
}

/// The social Base Action Point TN against the exact mean of the Anthropoid Classes present
/// (L369–372, L2549–2552): [`social_ap_tn`] without rounding the mean, which "may be set by
/// the GM if the actual numbers in question are unknown" (then use [`social_ap_tn`]). The
/// robot's own class is among `classes` if it counts towards the mean.
///
/// # Errors
/// [`Error::NotAllowed`] for an empty list (no mean).
///
/// ```
/// use dice_robots_and_rapiers::{Rules, social_ap_tn_among};
/// let r = Rules::default();
/// // A salon of classes 5 and 6 (mean 5.5): a class-5 robot is below the mean (TN 4) —
/// // rounding the mean to 5 would have made it equal (TN 5).
/// assert_eq!(social_ap_tn_among(5, &[5, 6], &r)?, 4);
/// // Classes 2 and 3 (mean 2.5): class 5 is "2x greater" (TN 7).
/// assert_eq!(social_ap_tn_among(5, &[2, 3], &r)?, 7);
/// assert!(social_ap_tn_among(5, &[], &r).is_err());
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
pub fn social_ap_tn_among(class: u32, classes: &[u32], rules: &Rules) -> Result<i32, Error> {
    if classes.is_empty() {
        return Err(Error::NotAllowed(
            "the mean Anthropoid Class of no robots (L369): give the classes present",
        ));
    }
    let n = classes.len() as u64;
    let sum: u64 = classes.iter().map(|&c| u64::from(c)).sum();
    // class against sum / n, compared as class × n against sum.
    Ok(10 - outnumbering_tn(u64::from(class) * n, sum, rules))
}

/// A Base Action Point roll (L305–310, L2087–2105): (Processor + Self Awareness) d10s —
/// (Anthropoid Class + Self Awareness) in a social conflict — against the side-size TN;
/// Base AP = 1 + successes (A11) − surprise losses, at least 0; uncapped by default (A13).
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::{BaseActionPoints, Rules};
/// let r = Rules::default();
/// let ap = BaseActionPoints::new(5, 5, &r)?;
/// assert_eq!(ap.resolve(&[1, 5, 6, 9, 3])?, 4);
/// let d = ap.distribution()?;
/// assert!((d.probability(&1) - 0.5f64.powi(5)).abs() < 1e-15);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseActionPoints {
    dice: u32,
    tn: i32,
    plus_one: bool,
    surprise_loss: u32,
    cap: Option<u32>,
    pool: SuccessPool,
}

impl BaseActionPoints {
    /// `dice` (Processor + Self Awareness, or Processor alone for a non-Sparked robot) at
    /// `tn` ([`combat_ap_tn`], [`social_ap_tn`]).
    ///
    /// # Errors
    /// [`Error::TooManyDice`]; [`Error::OutOfRange`] for the TN.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{BaseActionPoints, Rules};
    /// assert_eq!(BaseActionPoints::new(6, 4, &Rules::default())?.dice(), 6);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(dice: u32, tn: i32, rules: &Rules) -> Result<Self, Error> {
        let dice = check_dice(dice)?;
        let tn = crate::test::check_tn("a Base Action Point TN", tn)?;
        Ok(BaseActionPoints {
            dice,
            tn,
            plus_one: rules.base_ap_plus_one,
            surprise_loss: 0,
            cap: rules.cap_base_action_points.then_some(dice),
            pool: pool(dice, tn)?,
        })
    }
    /// The same roll less the AP a surprised robot lost ([`Surprise::ap_loss`]): "Base
    /// Action Points equal 1 plus 1 for each success on this roll, reduced by surprise (to a
    /// minimum of 0)" (L2091). This is the one place the surprise's Action Point loss is
    /// taken ([`Conflict::surprise`] records only the Perception loss).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{BaseActionPoints, Rules};
    /// let ap = BaseActionPoints::new(4, 5, &Rules::default())?.surprised(3);
    /// assert_eq!(ap.resolve(&[1, 2, 9, 9])?, 0); // 1 + 2 − 3
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn surprised(self, ap_loss: u32) -> Self {
        BaseActionPoints {
            surprise_loss: ap_loss,
            ..self
        }
    }
    /// The dice.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{BaseActionPoints, Rules};
    /// assert_eq!(BaseActionPoints::new(3, 4, &Rules::default())?.tn(), 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn dice(&self) -> u32 {
        self.dice
    }
    /// The TN.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{BaseActionPoints, Rules};
    /// assert_eq!(BaseActionPoints::new(3, 4, &Rules::default())?.dice(), 3);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn tn(&self) -> i32 {
        self.tn
    }
    /// Base AP from a number of successes.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{BaseActionPoints, Rules};
    /// let strict = Rules { base_ap_plus_one: false, ..Rules::default() };
    /// // E34 (L2103) as printed: "1 Action Point per success rolled".
    /// assert_eq!(BaseActionPoints::new(5, 6, &strict)?.from_successes(3), 3);
    /// assert_eq!(BaseActionPoints::new(5, 6, &Rules::default())?.from_successes(3), 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn from_successes(&self, successes: u32) -> u32 {
        let gross = successes + u32::from(self.plus_one);
        let gross = self.cap.map_or(gross, |c| gross.min(c));
        gross.saturating_sub(self.surprise_loss)
    }
    /// The pure form.
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::DiceCount`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{BaseActionPoints, Rules};
    /// assert_eq!(BaseActionPoints::new(2, 5, &Rules::default())?.resolve(&[9, 9])?, 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn resolve(&self, faces: &[u8]) -> Result<u32, Error> {
        Ok(self.from_successes(count_faces(
            "Base Action Points",
            faces,
            self.dice,
            self.tn,
        )?))
    }
}

impl Roll for BaseActionPoints {
    /// Base Action Points.
    type Outcome = u32;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.from_successes(self.pool.count(rng))
    }
}

impl Exact for BaseActionPoints {
    /// The binomial success law, mapped.
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        Ok(self.pool.distribution()?.map(|&s| self.from_successes(s)))
    }
}

impl fmt::Display for BaseActionPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Base Action Points: {}d10 vs TN {}", self.dice, self.tn)?;
        if self.surprise_loss > 0 {
            write!(f, ", −{} surprise", self.surprise_loss)?;
        }
        Ok(())
    }
}

/// The TN of each target's Perception Save after a successful ambush (L325, L2047,
/// L2071): Perception less the extra successes spent, ×½ (Multiple) when there are several
/// targets.
///
/// ```
/// use dice_robots_and_rapiers::ambush_save_tn;
/// // E33 (L2071): 5 successes, 1 triggers the saves, 4 × ½ for 4 targets = −2.
/// assert_eq!(ambush_save_tn(6, 4, 4), 4);
/// assert_eq!(ambush_save_tn(6, 4, 1), 2);
/// ```
pub fn ambush_save_tn(perception: i32, extra_successes: u32, targets: u32) -> i32 {
    let breadth = if targets > 1 {
        Breadth::Multiple
    } else {
        Breadth::Single
    };
    perception - breadth.bonus(extra_successes).min(i32::MAX as u32) as i32
}

/// The effect of a surprise Perception Save (L327–330, L2052–2055; A14).
///
/// ```
/// use dice_robots_and_rapiers::{Rules, SaveOutcome, Surprise};
/// let r = Rules::default();
/// // E33: Burgiss, 1 success: "a score of 1 (Perception 5 −2 per failed die) … loses 2
/// // Action Points and cannot buy Initiative".
/// let s = Surprise::from_save(SaveOutcome::PartialFailure { successes: 1 }, &r);
/// assert_eq!((5 - s.perception_loss as i32, s.ap_loss, s.surprised()), (1, 2, true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Surprise {
    /// Perception lost for the initial turn order (and to buy off).
    pub perception_loss: u32,
    /// Action Points lost from the base total.
    pub ap_loss: u32,
    /// The save's successes (the first tie-break after Perception, L2002).
    pub save_successes: u8,
}

impl Surprise {
    /// From the save's outcome.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, SaveOutcome, Surprise};
    /// assert!(!Surprise::from_save(SaveOutcome::TotalSuccess, &Rules::default()).surprised());
    /// ```
    pub fn from_save(outcome: SaveOutcome, rules: &Rules) -> Surprise {
        let failed = u32::from(outcome.failed_dice());
        Surprise {
            perception_loss: failed * u32::from(rules.surprise_perception_per_failed_die),
            ap_loss: failed * u32::from(rules.surprise_ap_per_failed_die),
            save_successes: outcome.successes(),
        }
    }
    /// "Surprised" = failed at least 1 die (L329).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, SaveOutcome, Surprise};
    /// assert!(Surprise::from_save(SaveOutcome::TotalFailure, &Rules::default()).surprised());
    /// ```
    pub fn surprised(&self) -> bool {
        self.perception_loss > 0 || self.ap_loss > 0
    }
}

/// Whether a robot can react, from a Perception Save to react (L332–339, L2145–2156).
///
/// ```
/// use dice_robots_and_rapiers::{Reaction, SaveOutcome};
/// // E37 (L2154): two successes → "an additional 1 Action Point cost".
/// assert_eq!(Reaction::from_save(SaveOutcome::PartialFailure { successes: 2 }), Reaction::ExtraCost(1));
/// assert_eq!(Reaction::ExtraCost(1).opposing_cost(), Some(2));
/// assert_eq!(Reaction::from_save(SaveOutcome::TotalFailure).opposing_cost(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Reaction {
    /// Total Failure: oblivious; "No Action Point is spent".
    CannotReact,
    /// Partial Failure: may react by paying this many extra Action Points.
    ExtraCost(u32),
    /// Total Success: reacts without penalty.
    React,
}

impl Reaction {
    /// From the save.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Reaction, SaveOutcome};
    /// assert_eq!(Reaction::from_save(SaveOutcome::TotalSuccess), Reaction::React);
    /// ```
    pub fn from_save(outcome: SaveOutcome) -> Reaction {
        match outcome {
            SaveOutcome::TotalSuccess => Reaction::React,
            SaveOutcome::TotalFailure => Reaction::CannotReact,
            o => Reaction::ExtraCost(u32::from(o.failed_dice())),
        }
    }
    /// Total Action Points to make an opposing roll (1 + the penalty), or `None`.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Reaction::React.opposing_cost(), Some(1));
    /// ```
    pub fn opposing_cost(self) -> Option<u32> {
        match self {
            Reaction::CannotReact => None,
            Reaction::ExtraCost(n) => Some(1 + n),
            Reaction::React => Some(1),
        }
    }
}

impl fmt::Display for Reaction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reaction::CannotReact => f.write_str("cannot react"),
            Reaction::ExtraCost(n) => write!(f, "may react for {n} extra Action Point(s)"),
            Reaction::React => f.write_str("reacts"),
        }
    }
}

/// One robot in an extended conflict.
///
/// ```
/// use dice_robots_and_rapiers::Participant;
/// let p = Participant::new("Alfredo", 5, 9);
/// assert_eq!((p.action_points, p.max_action_points), (5, 9));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Participant {
    /// A name for display.
    pub name: String,
    /// Current Action Points.
    pub action_points: u32,
    /// The regain maximum: Processor + Self Awareness (L2160).
    pub max_action_points: u32,
    /// Perception still lost to surprise; while above 0 the robot "cannot buy Initiative".
    pub surprise_loss: u32,
}

impl Participant {
    /// A participant with Base Action Points and the regain maximum.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Participant::new("x", 1, 2).surprise_loss, 0);
    /// ```
    pub fn new(name: impl Into<String>, action_points: u32, max_action_points: u32) -> Self {
        Participant {
            name: name.into(),
            action_points,
            max_action_points,
            surprise_loss: 0,
        }
    }
}

/// How the last turn's roll went, for the first right to Pay for Turn (L315, L2135–2137).
///
/// ```
/// use dice_robots_and_rapiers::TurnOutcome;
/// assert_eq!(TurnOutcome::from_net(2, Some(1)), TurnOutcome::ActorWon);
/// assert_eq!(TurnOutcome::from_net(-1, Some(1)), TurnOutcome::DefenderWon(1));
/// assert_eq!(TurnOutcome::from_net(0, Some(1)), TurnOutcome::NoRight);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TurnOutcome {
    /// The acting robot won its roll, or was unopposed with at least 1 success.
    ActorWon,
    /// The action was opposed and this defender won.
    DefenderWon(usize),
    /// A tie (A42) or a failure: no first right.
    NoRight,
}

impl TurnOutcome {
    /// From the acting Test's net successes and its defender: positive, the actor won; negative
    /// with a defender, the defender won. Exact only when neither side has a Difficulty (then
    /// a negative net means the defender out-rolled the actor); with a Difficulty use
    /// [`TurnOutcome::from_roll`], which does not give the defender a failure the Difficulty
    /// caused (L2136, L1509).
    ///
    /// ```
    /// use dice_robots_and_rapiers::TurnOutcome;
    /// assert_eq!(TurnOutcome::from_net(-2, None), TurnOutcome::NoRight);
    /// ```
    pub fn from_net(net: i64, defender: Option<usize>) -> TurnOutcome {
        match (net.cmp(&0), defender) {
            (Ordering::Greater, _) => TurnOutcome::ActorWon,
            (Ordering::Less, Some(d)) => TurnOutcome::DefenderWon(d),
            _ => TurnOutcome::NoRight,
        }
    }
    /// From the acting Test's roll and its defender: the actor won with at least 1 net
    /// success (L2135: "won the roll (or was unopposed and rolled at least 1 success)");
    /// the defender won when the successes his roll has left after its own Difficulty
    /// ([`crate::OpposingRoll::left`]) exceed the actor's successes (L2136; L1505: "The
    /// successes of the two rolls cancel and the winner is the robot who has successes
    /// remaining"). The actor's Difficulty is an "Unrolled Opposed Roll" (L1509), the
    /// GM's, not the defender's: an actor who out-rolls the defender but fails against the
    /// Difficulty gives no one the first right. A tie between the rolls gives none (A42).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Opposition, Test, TurnOutcome};
    /// let t = Test::new(3, 5)?.with_difficulty(2)?.opposed_by(Opposition::new(3, 5)?);
    /// // 3 successes against 2 and Difficulty 2: net −1, but the defender lost the roll.
    /// let r = t.resolve_opposed(&[1, 2, 3], &[1, 2, 9])?;
    /// assert_eq!((r.net, TurnOutcome::from_roll(&r, Some(4))), (-1, TurnOutcome::NoRight));
    /// let r = t.resolve_opposed(&[1, 2, 9], &[1, 2, 3])?;
    /// assert_eq!(TurnOutcome::from_roll(&r, Some(4)), TurnOutcome::DefenderWon(4));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn from_roll(roll: &crate::test::TestRoll, defender: Option<usize>) -> TurnOutcome {
        if roll.net > 0 {
            return TurnOutcome::ActorWon;
        }
        match (&roll.opposing, defender) {
            (Some(o), Some(d)) if o.left() > roll.successes => TurnOutcome::DefenderWon(d),
            _ => TurnOutcome::NoRight,
        }
    }
}

/// An extended conflict's state: participants, turn order and the Pay-for-Turn rules
/// (L312–321, L2107–2196).
///
/// ```
/// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder, TurnOutcome};
/// // E36 (L2141–2143): order Alfredo, Devon, Charles, Burgiss.
/// let (a, b, c, d) = (0, 1, 2, 3);
/// let ps = vec![Participant::new("Alfredo", 5, 9), Participant::new("Burgiss", 5, 9),
///               Participant::new("Charles", 5, 9), Participant::new("Devon", 5, 9)];
/// let mut conflict = Conflict::new(ps, TurnOrder::from_list(vec![a, d, c, b]))?;
/// conflict.oppose(c, 1)?;                                  // Charles defends (5 vs 4)
/// conflict.end_turn(TurnOutcome::ActorWon);
/// assert_eq!(conflict.pay_for_turn(&[a])?, Some(a));       // Alfredo pays, stays on top
/// conflict.oppose(c, 1)?;                                  // 2 vs 4: Charles wins
/// conflict.end_turn(TurnOutcome::DefenderWon(c));
/// assert_eq!(conflict.pay_for_turn(&[c])?, Some(c));
/// assert_eq!(conflict.participant(c)?.action_points, 2);   // "spent a total of 3"
/// conflict.end_turn(TurnOutcome::ActorWon);                // Charles wins, passes
/// assert_eq!(conflict.order().as_slice(), &[d, b, a, c]);
/// assert_eq!(conflict.pay_for_turn(&[b, a])?, Some(b));    // Burgiss is higher
/// assert_eq!(conflict.order().as_slice(), &[b, d, a, c]);  // "Burgiss, Devon, Alfredo, Charles"
/// assert_eq!(conflict.participant(a)?.action_points, 4);   // Alfredo keeps his point
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Conflict {
    participants: Vec<Participant>,
    order: TurnOrder,
    turns_taken: u32,
    first_right: Option<usize>,
    recovery_pending: bool,
}

impl Conflict {
    /// A conflict with its initial turn order.
    ///
    /// # Errors
    /// [`Error::NoSuchParticipant`] when the order names someone not in the list, or does
    /// not list everyone once.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder};
    /// assert!(Conflict::new(vec![Participant::new("x", 1, 1)], TurnOrder::from_list(vec![1])).is_err());
    /// ```
    pub fn new(participants: Vec<Participant>, order: TurnOrder) -> Result<Self, Error> {
        check_participants(participants.len())?;
        let mut seen = vec![false; participants.len()];
        for &w in order.as_slice() {
            match seen.get_mut(w) {
                Some(s) if !*s => *s = true,
                _ => {
                    return Err(Error::NoSuchParticipant {
                        index: w,
                        count: participants.len(),
                    });
                }
            }
        }
        if let Some(missing) = seen.iter().position(|s| !s) {
            return Err(Error::NoSuchParticipant {
                index: missing,
                count: participants.len(),
            });
        }
        Ok(Conflict {
            participants,
            order,
            turns_taken: 0,
            first_right: None,
            recovery_pending: false,
        })
    }

    /// The turn order.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder};
    /// let c = Conflict::new(vec![Participant::new("x", 1, 1)], TurnOrder::from_list(vec![0]))?;
    /// assert_eq!(c.order().top(), Some(0));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn order(&self) -> &TurnOrder {
        &self.order
    }
    /// The participants.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder};
    /// let c = Conflict::new(vec![Participant::new("x", 1, 1)], TurnOrder::from_list(vec![0]))?;
    /// assert_eq!(c.participants().len(), 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn participants(&self) -> &[Participant] {
        &self.participants
    }
    /// One participant.
    ///
    /// # Errors
    /// [`Error::NoSuchParticipant`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder};
    /// let c = Conflict::new(vec![Participant::new("x", 1, 1)], TurnOrder::from_list(vec![0]))?;
    /// assert_eq!(c.participant(0)?.name, "x");
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn participant(&self, who: usize) -> Result<&Participant, Error> {
        self.participants.get(who).ok_or(Error::NoSuchParticipant {
            index: who,
            count: self.participants.len(),
        })
    }
    fn get_mut(&mut self, who: usize) -> Result<&mut Participant, Error> {
        let count = self.participants.len();
        self.participants
            .get_mut(who)
            .ok_or(Error::NoSuchParticipant { index: who, count })
    }

    /// Spends Action Points for an out-of-turn opposing roll: 1, or the
    /// [`Reaction::opposing_cost`] after a Perception Save (L313–314, L2111–2113, L2152).
    /// The turn order does not change.
    ///
    /// # Errors
    /// [`Error::CannotPay`] without enough Action Points ("the attacker's … Test is
    /// unopposed").
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder};
    /// let mut c = Conflict::new(vec![Participant::new("x", 1, 1), Participant::new("y", 0, 1)], TurnOrder::from_list(vec![0, 1]))?;
    /// assert!(c.oppose(1, 1).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn oppose(&mut self, who: usize, cost: u32) -> Result<(), Error> {
        let p = self.get_mut(who)?;
        if p.action_points < cost {
            return Err(Error::CannotPay {
                what: "an opposing roll",
                cost,
                have: p.action_points,
            });
        }
        p.action_points -= cost;
        Ok(())
    }

    /// Ends the top robot's turn: it moves to the bottom, and the roll's outcome sets the
    /// first right to Pay for Turn. A pending Special Surprise Recovery (L330, L2055) is
    /// applied at the end of this action.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder, TurnOutcome};
    /// let mut c = Conflict::new(vec![Participant::new("x", 1, 1), Participant::new("y", 1, 1)], TurnOrder::from_list(vec![0, 1]))?;
    /// c.end_turn(TurnOutcome::NoRight);
    /// assert_eq!(c.order().as_slice(), &[1, 0]);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn end_turn(&mut self, outcome: TurnOutcome) {
        let actor = self.order.top();
        self.order.end_turn();
        self.turns_taken += 1;
        self.first_right = match outcome {
            TurnOutcome::ActorWon => actor,
            TurnOutcome::DefenderWon(d) => Some(d),
            TurnOutcome::NoRight => None,
        };
        if self.recovery_pending {
            for p in &mut self.participants {
                p.surprise_loss = p.surprise_loss.saturating_sub(1);
            }
            self.recovery_pending = false;
        }
    }

    /// Pay for Turn (L315, L2131–2139): of the robots announcing it, the one with the
    /// first right (the winner of the last roll) goes; otherwise the one highest in the
    /// order. It pays 1 Action Point and moves to the top; the others "keep their Action
    /// Point". Returns who paid (`None` if no one asked).
    ///
    /// An announcer who may not pay is left out and the others still compete: a surprised
    /// robot that has not bought off its Perception loss ("they may not Pay for Turn until
    /// the Perception Loss is bought off", L329, L2054), even one holding the first right,
    /// and a robot without an Action Point to spend. Only when no announcer may pay is the
    /// announcement refused, with the first announcer's reason.
    ///
    /// # Errors
    /// [`Error::NoSuchParticipant`] for an announcer not in the conflict;
    /// [`Error::NotAllowed`] before the first turn of the engagement (L2139), or when every
    /// announcer is left out and the first is surprised; [`Error::CannotPay`] when every
    /// announcer is left out and the first has no Action Points. Nothing changes on an
    /// error.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder, TurnOutcome};
    /// let mut c = Conflict::new(vec![Participant::new("x", 1, 1)], TurnOrder::from_list(vec![0]))?;
    /// assert!(c.pay_for_turn(&[0]).is_err()); // "No one can buy initiative until after that turn"
    /// // A surprised robot is left out; the other announcer pays.
    /// let ps = vec![Participant { surprise_loss: 2, ..Participant::new("x", 3, 5) }, Participant::new("y", 3, 5)];
    /// let mut c = Conflict::new(ps, TurnOrder::from_list(vec![1, 0]))?;
    /// c.end_turn(TurnOutcome::NoRight);
    /// assert_eq!(c.pay_for_turn(&[0, 1])?, Some(1));
    /// assert!(c.pay_for_turn(&[0]).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn pay_for_turn(&mut self, wanting: &[usize]) -> Result<Option<usize>, Error> {
        if self.turns_taken == 0 {
            return Err(Error::NotAllowed(
                "no one can Pay for Turn before the first turn of an engagement (L2139)",
            ));
        }
        let mut eligible = Vec::with_capacity(wanting.len());
        let mut refused = None;
        for &w in wanting {
            let p = self.participant(w)?;
            let reason = if p.surprise_loss > 0 {
                Some(Error::NotAllowed(
                    "a surprised robot cannot Pay for Turn until it has bought off its \
                     Perception loss (L329, L2054)",
                ))
            } else if p.action_points == 0 {
                Some(Error::CannotPay {
                    what: "Pay for Turn",
                    cost: 1,
                    have: 0,
                })
            } else {
                None
            };
            match reason {
                Some(e) => {
                    refused.get_or_insert(e);
                }
                None => eligible.push(w),
            }
        }
        if eligible.is_empty() {
            return match refused {
                Some(e) => Err(e),
                None => Ok(None),
            };
        }
        let payer = match self.first_right.filter(|f| eligible.contains(f)) {
            Some(f) => Some(f),
            None => eligible
                .iter()
                .copied()
                .min_by_key(|&w| self.order.position(w).unwrap_or(usize::MAX)),
        };
        if let Some(p) = payer {
            self.get_mut(p)?.action_points -= 1;
            self.order.move_to_top(p);
            self.first_right = None;
            if self.participants.iter().any(|x| x.surprise_loss > 0) {
                self.recovery_pending = true;
            }
        }
        Ok(payer)
    }

    /// Records a surprise save's Perception loss on a participant: what it must buy off
    /// before it may Pay for Turn (L328–329, L2053–2054).
    ///
    /// The surprise's Action Point loss is *not* taken here: it belongs to the Base Action
    /// Point roll, "1 plus 1 for each success on this roll, reduced by surprise (to a
    /// minimum of 0)" (L2091), which [`BaseActionPoints::surprised`] computes before the
    /// participant joins the conflict. Taking it here too would count it twice.
    ///
    /// # Errors
    /// [`Error::NoSuchParticipant`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{BaseActionPoints, Conflict, Participant, Rules, SaveOutcome, Surprise, TurnOrder};
    /// let rules = Rules::default();
    /// let s = Surprise::from_save(SaveOutcome::TotalFailure, &rules);
    /// // 5 dice at TN 5, 2 successes: 1 + 2 − 3 = 0 Base Action Points.
    /// let ap = BaseActionPoints::new(5, 5, &rules)?.surprised(s.ap_loss).resolve(&[1, 2, 9, 9, 9])?;
    /// let mut c = Conflict::new(vec![Participant::new("x", ap, 5)], TurnOrder::from_list(vec![0]))?;
    /// c.surprise(0, &s)?;
    /// assert_eq!((c.participant(0)?.action_points, c.participant(0)?.surprise_loss), (0, 6));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn surprise(&mut self, who: usize, surprise: &Surprise) -> Result<(), Error> {
        let p = self.get_mut(who)?;
        p.surprise_loss = p.surprise_loss.saturating_add(surprise.perception_loss);
        Ok(())
    }

    /// Buys off surprise Perception loss with successes (L328, L2053). Returns the
    /// successes left over.
    ///
    /// # Errors
    /// [`Error::NoSuchParticipant`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder};
    /// let mut c = Conflict::new(vec![Participant { surprise_loss: 2, ..Participant::new("x", 3, 5) }], TurnOrder::from_list(vec![0]))?;
    /// assert_eq!(c.buy_off_surprise(0, 3)?, 1);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn buy_off_surprise(&mut self, who: usize, successes: u32) -> Result<u32, Error> {
        let p = self.get_mut(who)?;
        let used = successes.min(p.surprise_loss);
        p.surprise_loss -= used;
        Ok(successes - used)
    }

    /// Regains Action Points with successes from `ledger`, 1 per success, "to a maximum
    /// number of Processor + Self Awareness" (L228, L1723, L2160): "the only way to increase
    /// ones Action Point pool while engaged" (L2170). Takes the gain, as
    /// [`Ledger::regain_action_points`] does, spends it from the ledger and returns the new
    /// total. Nothing is spent or gained when it fails.
    ///
    /// # Errors
    /// [`Error::NoSuchParticipant`]; [`Error::OutOfRange`] past the maximum; the ledger's
    /// [`Error::NotAccomplished`] or [`Error::Unaffordable`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Ledger, Participant, TurnOrder};
    /// let mut c = Conflict::new(vec![Participant::new("x", 3, 5)], TurnOrder::from_list(vec![0]))?;
    /// let mut defence = Ledger::augmenting(3);
    /// assert_eq!(c.regain(0, &mut defence, 2)?, 5);
    /// assert!(c.regain(0, &mut defence, 1).is_err()); // at the maximum
    /// assert_eq!(defence.left(), 1);                  // … and nothing spent
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn regain(&mut self, who: usize, ledger: &mut Ledger, points: u32) -> Result<u32, Error> {
        let p = self.get_mut(who)?;
        let after = p.action_points.saturating_add(points);
        if after > p.max_action_points {
            return Err(Error::OutOfRange {
                what: "Action Points after regaining (max Processor + Self Awareness)",
                value: i64::from(after),
                min: 0,
                max: i64::from(p.max_action_points),
            });
        }
        ledger.regain_action_points(points)?;
        p.action_points = after;
        Ok(after)
    }

    /// An Action Point Save's loss: 1 per failed die, not below 0 (L285, L2194–2196).
    ///
    /// # Errors
    /// [`Error::NoSuchParticipant`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, SaveOutcome, TurnOrder};
    /// let mut c = Conflict::new(vec![Participant::new("x", 2, 5)], TurnOrder::from_list(vec![0]))?;
    /// assert_eq!(c.action_point_save(0, SaveOutcome::TotalFailure)?, 0);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn action_point_save(&mut self, who: usize, outcome: SaveOutcome) -> Result<u32, Error> {
        let p = self.get_mut(who)?;
        p.action_points = p.action_points.saturating_sub(outcome.action_point_loss());
        Ok(p.action_points)
    }

    /// A soft break (L2178–2183): a non-engaged robot re-rolls Base Action Points on its
    /// turn; its current points are replaced, its place is unchanged.
    ///
    /// # Errors
    /// [`Error::NoSuchParticipant`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder};
    /// let mut c = Conflict::new(vec![Participant::new("x", 0, 5)], TurnOrder::from_list(vec![0]))?;
    /// c.soft_break(0, 4)?;
    /// assert_eq!(c.participant(0)?.action_points, 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn soft_break(&mut self, who: usize, base_action_points: u32) -> Result<(), Error> {
        self.get_mut(who)?.action_points = base_action_points;
        Ok(())
    }

    /// A hard break (L2185–2190): everyone's points are replaced by new Base Action Points
    /// and a new initial order is set; the engagement starts afresh.
    ///
    /// # Errors
    /// As [`Conflict::new`]; [`Error::DiceCount`] when `base_action_points` does not list
    /// everyone.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Conflict, Participant, TurnOrder};
    /// let mut c = Conflict::new(vec![Participant::new("x", 0, 5), Participant::new("y", 0, 5)], TurnOrder::from_list(vec![0, 1]))?;
    /// c.hard_break(&[3, 2], TurnOrder::from_list(vec![1, 0]))?;
    /// assert_eq!(c.order().top(), Some(1));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn hard_break(
        &mut self,
        base_action_points: &[u32],
        order: TurnOrder,
    ) -> Result<(), Error> {
        if base_action_points.len() != self.participants.len() {
            return Err(Error::DiceCount {
                what: "a hard break's Base Action Points",
                expected: self.participants.len(),
                got: base_action_points.len(),
            });
        }
        let mut fresh = Conflict::new(self.participants.clone(), order)?;
        for (p, &ap) in fresh.participants.iter_mut().zip(base_action_points) {
            p.action_points = ap;
            p.surprise_loss = 0;
        }
        *self = fresh;
        Ok(())
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<String> = self
            .order
            .as_slice()
            .iter()
            .map(|&w| {
                let p = &self.participants[w];
                format!("{} ({} AP)", p.name, p.action_points)
            })
            .collect();
        f.write_str(&v.join(", "))
    }
}
