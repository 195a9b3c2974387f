//! The spells of each school and their difficulties (L183–L235; SW-R37 to SW-R43).

use std::fmt;

use crate::error::Error;
use crate::opposed::NO_THRESHOLD;
use crate::rules::{BlazeHits, Rules};
use crate::skill::{School, Sheet, Skill};

/// Mid range, "(3 square)" (L193).
pub const MID_RANGE: u32 = 3;

/// Every spell the rulebook names (L191–L235).
///
/// ```
/// use dice_swimclass::{School, Spell, SpellInput};
/// assert_eq!(Spell::Blaze.school(), School::Fire);
/// assert_eq!(Spell::Blaze.difficulty(&SpellInput { range: Some(3), ..Default::default() })?, 4);
/// assert!(Spell::WindPush.difficulty(&SpellInput::default()).is_err()); // silent (SW-A17)
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Spell {
    /// Fire: an attack, mid range, ≥ Range + 1, "does 1 hit unless opposed" (L193).
    Blaze,
    /// Fire: ≥ 1, lights one square per success (L195).
    Light,
    /// Wind: mid range against the target's fitting skill, moves it 1 square (L199); no
    /// difficulty given.
    WindPush,
    /// Wind: Flight, difficulty 3 + target size, opposed by wind or generic defense (L201).
    WindFlight,
    /// Earth: 3-square range against walk/climb…, shakes an area (L205); no difficulty.
    Quake,
    /// Earth: difficulty 2 (soft soil) or 6 (hard rock), shifts 1 square of earth (L207).
    Shift,
    /// Water: 3-square range, ≥ 4, a spray of water (L211).
    Spray,
    /// Water: difficulty 3, touch, one target breathes water per success this round (L213).
    Breathing,
    /// Life: ≥ Range + 3, heals one damage; 1/round in combat, 1/hour out (L217–L221).
    Heal,
    /// Life: stabilizes a defeated character, vs. damage beyond 0 HP (L225).
    Stabilize,
    /// Death: damage as Basic Melee or Ranged (L229).
    Damage,
    /// Death: Stun, ≥ Range, opposed by Defense or Life (L231).
    Stun,
    /// Death: difficulty 4 to raise a corpse (L235).
    RaiseUndead,
}

/// What a spell's difficulty depends on; the caller gives what the text leaves open
/// (SW-A17).
///
/// ```
/// let i = dice_swimclass::SpellInput { range: Some(1), ..Default::default() };
/// assert_eq!(i.range, Some(1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SpellInput {
    /// Range in squares (`None` for a Death damage spell: melee).
    pub range: Option<u32>,
    /// Target size (Wind's Flight, on no scale the text gives).
    pub size: Option<i32>,
    /// Hard rock rather than soft soil (Earth's shift).
    pub hard_rock: bool,
    /// Damage beyond 0 HP (Life's stabilize).
    pub beyond_zero: Option<u32>,
    /// A difficulty the caller supplies for a spell the text gives none (push, quake).
    pub given: Option<i32>,
}

impl Spell {
    /// Every spell.
    pub const ALL: [Spell; 13] = [
        Spell::Blaze,
        Spell::Light,
        Spell::WindPush,
        Spell::WindFlight,
        Spell::Quake,
        Spell::Shift,
        Spell::Spray,
        Spell::Breathing,
        Spell::Heal,
        Spell::Stabilize,
        Spell::Damage,
        Spell::Stun,
        Spell::RaiseUndead,
    ];

    /// The school, whose rank the spell rolls.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Spell::Stun.school(), dice_swimclass::School::Death);
    /// ```
    pub const fn school(self) -> School {
        match self {
            Spell::Blaze | Spell::Light => School::Fire,
            Spell::WindPush | Spell::WindFlight => School::Wind,
            Spell::Quake | Spell::Shift => School::Earth,
            Spell::Spray | Spell::Breathing => School::Water,
            Spell::Heal | Spell::Stabilize => School::Life,
            Spell::Damage | Spell::Stun | Spell::RaiseUndead => School::Death,
        }
    }

    /// The rulebook line.
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Spell::RaiseUndead.line(), 235);
    /// ```
    pub const fn line(self) -> u32 {
        match self {
            Spell::Blaze => 193,
            Spell::Light => 195,
            Spell::WindPush => 199,
            Spell::WindFlight => 201,
            Spell::Quake => 205,
            Spell::Shift => 207,
            Spell::Spray => 211,
            Spell::Breathing => 213,
            Spell::Heal => 217,
            Spell::Stabilize => 225,
            Spell::Damage => 229,
            Spell::Stun => 231,
            Spell::RaiseUndead => 235,
        }
    }

    /// The longest range the text gives, in squares ("mid range", "3 square", "touch").
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Spell::Blaze.max_range(), Some(3));
    /// assert_eq!(dice_swimclass::Spell::Breathing.max_range(), Some(0));
    /// ```
    pub const fn max_range(self) -> Option<u32> {
        match self {
            Spell::Blaze | Spell::WindPush | Spell::Quake | Spell::Spray => Some(MID_RANGE),
            Spell::Breathing => Some(0),
            _ => None,
        }
    }

    /// Whether the spell is rolled as a combat roll the target may oppose.
    ///
    /// ```
    /// assert!(dice_swimclass::Spell::Stun.is_opposed());
    /// assert!(!dice_swimclass::Spell::Light.is_opposed());
    /// ```
    pub const fn is_opposed(self) -> bool {
        matches!(
            self,
            Spell::Blaze
                | Spell::WindPush
                | Spell::WindFlight
                | Spell::Quake
                | Spell::Damage
                | Spell::Stun
        )
    }

    /// The per-die difficulty.
    ///
    /// # Errors
    /// [`Error::Missing`] when the spell needs an input the caller did not give (range,
    /// size, damage beyond 0) or the text gives no difficulty and none was given (push,
    /// quake: SW-A17); [`Error::OutOfRange`] for a range beyond the spell's.
    ///
    /// ```
    /// use dice_swimclass::{Spell, SpellInput, NO_THRESHOLD};
    /// let i = SpellInput::default();
    /// assert_eq!(Spell::Light.difficulty(&i)?, 1);
    /// assert_eq!(Spell::Spray.difficulty(&i)?, 4);
    /// assert_eq!(Spell::Damage.difficulty(&i)?, NO_THRESHOLD); // as Basic Melee
    /// assert_eq!(Spell::Heal.difficulty(&SpellInput { range: Some(0), ..i })?, 3);
    /// assert_eq!(Spell::Shift.difficulty(&SpellInput { hard_rock: true, ..i })?, 6);
    /// assert_eq!(Spell::WindFlight.difficulty(&SpellInput { size: Some(1), ..i })?, 4);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn difficulty(self, input: &SpellInput) -> Result<i32, Error> {
        let range = |what| input.range.ok_or(Error::Missing { what });
        if let (Some(r), Some(max)) = (input.range, self.max_range()) {
            if r > max {
                return Err(Error::OutOfRange {
                    what: "range",
                    value: i64::from(r),
                    min: 0,
                    max: i64::from(max),
                });
            }
        }
        let r = |x: u32| x.min(crate::task::MAX_DIFFICULTY as u32) as i32;
        Ok(match self {
            Spell::Blaze => r(range("Blaze's range")?) + 1,
            Spell::Light => 1,
            Spell::WindPush => input.given.ok_or(Error::Missing {
                what: "the Wind push's difficulty",
            })?,
            Spell::WindFlight => {
                3 + input.size.ok_or(Error::Missing {
                    what: "the target's size",
                })?
            }
            Spell::Quake => input.given.ok_or(Error::Missing {
                what: "the Earth quake's difficulty",
            })?,
            Spell::Shift => {
                if input.hard_rock {
                    6
                } else {
                    2
                }
            }
            Spell::Spray => 4,
            Spell::Breathing => 3,
            Spell::Heal => r(range("Heal's range")?) + 3,
            Spell::Stabilize => r(input.beyond_zero.ok_or(Error::Missing {
                what: "the damage beyond 0 HP",
            })?),
            Spell::Damage => input.range.map_or(NO_THRESHOLD, |x| r(x) + 1),
            Spell::Stun => r(range("Stun's range")?),
            Spell::RaiseUndead => 4,
        })
    }
}

impl fmt::Display for Spell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Spell::Blaze => "Blaze",
            Spell::Light => "Light",
            Spell::WindPush => "Wind push",
            Spell::WindFlight => "Flight",
            Spell::Quake => "Earth quake",
            Spell::Shift => "Earth shift",
            Spell::Spray => "Spray",
            Spell::Breathing => "Water breathing",
            Spell::Heal => "Heal",
            Spell::Stabilize => "Stabilize",
            Spell::Damage => "Death damage",
            Spell::Stun => "Stun",
            Spell::RaiseUndead => "Raise Undead",
        })
    }
}

/// Blaze's hits from the dice that got through (L193; [`Rules::blaze`], SW-A15).
///
/// ```
/// use dice_swimclass::{Rules, magic::blaze_hits};
/// assert_eq!(blaze_hits(3, &Rules::default()), 1);
/// assert_eq!(blaze_hits(0, &Rules::default()), 0);
/// ```
pub fn blaze_hits(through: u32, rules: &Rules) -> u32 {
    match rules.blaze {
        BlazeHits::One => through.min(1),
        BlazeHits::PerDie => through,
    }
}

/// Damage one Heal cast restores (L217; SW-A16).
pub const HEAL_PER_CAST: u32 = 1;

/// The sheet of an undead raised by a caster with this Death rank (L235): rank 1 in every
/// basic skill (Basic Defense included, so 2 HP) and Death magic at the caster's rank − 1.
///
/// ```
/// use dice_swimclass::{School, Skill, magic::undead};
/// let u = undead(3);
/// assert_eq!(u.rank(Skill::Magic(School::Death)), 2);
/// assert_eq!(u.rank(Skill::BasicDefense), 1);
/// assert_eq!(u.max_hp(), 2);
/// ```
pub fn undead(caster_death_rank: u32) -> Sheet {
    Sheet::with_ranks([(
        Skill::Magic(School::Death),
        caster_death_rank.saturating_sub(1),
    )])
}
