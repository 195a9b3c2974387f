//! Hit location: a d100 on the chart of L78–85 (PC-R17), or a called shot (PC-A15).

use core::fmt;

use dice_core::{Die, DieRoll, Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Source};

use crate::d100::{d100_law, roll_d100};
use crate::error::{Error, check_d100};

/// Where a hit lands (L78–85).
///
/// ```
/// use dice_shapers_percentile::Location;
/// assert_eq!(Location::from_roll(55)?, Location::Body);
/// assert_eq!(Location::Body.rolls(), (41, 70));
/// assert_eq!(Location::LeftArm.to_string(), "Left Arm");
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Location {
    /// 01–10 (L80).
    Head,
    /// 11–25 (L81).
    LeftArm,
    /// 26–40 (L82).
    RightArm,
    /// 41–70 (L83).
    Body,
    /// 71–85 (L84).
    LeftLeg,
    /// 86–00 (L85; 00 is 100).
    RightLeg,
}

/// The chart of L78–85: each location with its lowest and highest roll (00 read as 100).
///
/// ```
/// use dice_shapers_percentile::{HIT_LOCATIONS, Location};
/// assert_eq!(HIT_LOCATIONS[5], (Location::RightLeg, 86, 100));
/// ```
pub const HIT_LOCATIONS: [(Location, u8, u8); 6] = [
    (Location::Head, 1, 10),
    (Location::LeftArm, 11, 25),
    (Location::RightArm, 26, 40),
    (Location::Body, 41, 70),
    (Location::LeftLeg, 71, 85),
    (Location::RightLeg, 86, 100),
];

/// The chart by face (index 0 unused), built from [`HIT_LOCATIONS`].
const BY_FACE: [Location; 101] = {
    let mut t = [Location::Head; 101];
    let mut i = 0;
    while i < HIT_LOCATIONS.len() {
        let (loc, lo, hi) = HIT_LOCATIONS[i];
        let mut f = lo as usize;
        while f <= hi as usize {
            t[f] = loc;
            f += 1;
        }
        i += 1;
    }
    t
};

impl Location {
    /// Every location, in the chart's order.
    ///
    /// ```
    /// # use dice_shapers_percentile::Location;
    /// assert_eq!(Location::ALL.len(), 6);
    /// ```
    pub const ALL: [Location; 6] = [
        Location::Head,
        Location::LeftArm,
        Location::RightArm,
        Location::Body,
        Location::LeftLeg,
        Location::RightLeg,
    ];

    /// The location for a d100 already rolled (`1..=100`; read 00 as 100).
    ///
    /// # Errors
    /// [`Error::Face`] unless `1 <= roll <= 100`.
    ///
    /// ```
    /// # use dice_shapers_percentile::Location;
    /// assert_eq!(Location::from_roll(100)?, Location::RightLeg);
    /// assert!(Location::from_roll(101).is_err());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn from_roll(roll: u8) -> Result<Location, Error> {
        Ok(Location::of(check_d100(roll)?))
    }

    /// The location of a face already checked (a table lookup: no branch to mispredict).
    #[inline]
    pub(crate) fn of(roll: u8) -> Location {
        BY_FACE[usize::from(roll.min(100))]
    }

    /// The lowest and highest roll of the location on the chart.
    ///
    /// ```
    /// # use dice_shapers_percentile::Location;
    /// assert_eq!(Location::Head.rolls(), (1, 10));
    /// ```
    pub fn rolls(self) -> (u8, u8) {
        let (_, lo, hi) = HIT_LOCATIONS[self as usize];
        (lo, hi)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Location::Head => "Head",
            Location::LeftArm => "Left Arm",
            Location::RightArm => "Right Arm",
            Location::Body => "Body",
            Location::LeftLeg => "Left Leg",
            Location::RightLeg => "Right Leg",
        })
    }
}

/// The hit-location roll: "roll a d100 and consult the chart" (L77).
///
/// ```
/// use dice_shapers_percentile::{HitLocation, Location};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let law = HitLocation.distribution()?;
/// assert!((law.probability(&Location::Body) - 0.30).abs() < 1e-12);
/// let where_hit = HitLocation.roll(&mut Xoshiro256PlusPlus::seed_from_u64(5));
/// println!("{where_hit}");
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HitLocation;

impl Roll for HitLocation {
    /// Where the hit lands.
    type Outcome = Location;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Location {
        Location::of(roll_d100(rng))
    }
}

impl Exact for HitLocation {
    /// The 100 faces of a d100 mapped through the chart.
    fn distribution(&self) -> Result<Dist<Location>, dice_core::Error> {
        Ok(d100_law().map(|&f| Location::of(f)))
    }
}

impl RollDetailed for HitLocation {
    /// The d100; `total` is its face.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let face = roll_d100(rng);
        record
            .dice
            .push(DieRoll::new(Die::D100, u32::from(face), Source::Primary));
        record.total = i64::from(face);
    }
}

impl rand::distr::Distribution<Location> for HitLocation {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Location {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for HitLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("d100 hit location")
    }
}

/// Where an attack is aimed: anywhere (the location is rolled on the chart), or at a specific
/// hit location (−20 in melee, L46, and at range, L61), which is then the location hit (the
/// ruling PC-A15: a called shot chooses the location rather than rolling it).
///
/// ```
/// use dice_shapers_percentile::{Aim, Location};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let called = Aim::Called(Location::Head);
/// assert_eq!(called.modifier(), -20);
/// assert_eq!(called.roll(&mut Xoshiro256PlusPlus::seed_from_u64(1)), Location::Head);
/// assert_eq!(Aim::Rolled.location(7)?, Location::Head);
/// assert_eq!(called.distribution()?.probability(&Location::Head), 1.0);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Aim {
    /// No called shot: roll the location.
    #[default]
    Rolled,
    /// A called shot at this location.
    Called(Location),
}

impl Aim {
    /// The modifier to the TN: −20 for a called shot (L46, L61), else 0.
    ///
    /// ```
    /// # use dice_shapers_percentile::Aim;
    /// assert_eq!(Aim::Rolled.modifier(), 0);
    /// ```
    pub fn modifier(self) -> i32 {
        match self {
            Aim::Rolled => 0,
            Aim::Called(_) => -20,
        }
    }

    /// The pure form: the location hit, given the hit-location d100 (ignored for a called
    /// shot, which may pass any face in `1..=100`).
    ///
    /// # Errors
    /// [`Error::Face`] unless `1 <= roll <= 100`.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Aim, Location};
    /// assert_eq!(Aim::Called(Location::LeftLeg).location(1)?, Location::LeftLeg);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn location(self, roll: u8) -> Result<Location, Error> {
        let rolled = Location::from_roll(roll)?;
        Ok(match self {
            Aim::Rolled => rolled,
            Aim::Called(l) => l,
        })
    }
}

impl Roll for Aim {
    /// The location hit.
    type Outcome = Location;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Location {
        match self {
            Aim::Rolled => HitLocation.roll(rng),
            Aim::Called(l) => *l,
        }
    }
}

impl Exact for Aim {
    /// The chart's law, or certain for a called shot.
    fn distribution(&self) -> Result<Dist<Location>, dice_core::Error> {
        match self {
            Aim::Rolled => HitLocation.distribution(),
            Aim::Called(l) => Ok(Dist::certain(*l)),
        }
    }
}

impl rand::distr::Distribution<Location> for Aim {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Location {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for Aim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Aim::Rolled => f.write_str("rolled location"),
            Aim::Called(l) => write!(f, "called shot at {l}"),
        }
    }
}
