//! The random tables of creation (L409-425, L487-583): Body Type, Vocalization, gender, Size,
//! and the 50/50 Core Social roll, each with a roll path, a pure "face in, entry out" lookup
//! and its exact law; and the Anthropoid Class and social class they lead to.

use core::fmt;

use dice_core::{Die, DieRoll, Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Source};

use super::error::CreationError;

/// A d10 face already rolled, checked to be 1..=10.
pub(crate) fn check_face(face: u32) -> Result<u8, CreationError> {
    if (1..=10).contains(&face) {
        Ok(face as u8)
    } else {
        Err(CreationError::Face { face })
    }
}

/// One d10 face.
#[inline]
pub(crate) fn d10<R: Rng + ?Sized>(rng: &mut R) -> u8 {
    Die::D10.roll_face(rng) as u8
}

/// The law of `entry(face)` for one fair d10.
pub(crate) fn d10_law<T: Ord + Clone>(mut entry: impl FnMut(u8) -> T) -> Dist<T> {
    Dist::from_pairs((1..=10u8).map(|f| (entry(f), 0.1)))
        .unwrap_or_else(|_| Dist::certain(entry(1)))
}

/// A record of one d10 whose total is the face.
pub(crate) fn record_d10<R: Rng + ?Sized>(rng: &mut R, record: &mut RollRecord) -> u8 {
    record.clear();
    let face = d10(rng);
    record
        .dice
        .push(DieRoll::new(Die::D10, u32::from(face), Source::Primary));
    record.total = i64::from(face);
    face
}

macro_rules! d10_table {
    ($roll:ty, $out:ty, |$s:ident, $f:ident| $entry:expr) => {
        impl Roll for $roll {
            type Outcome = $out;
            #[inline]
            fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> $out {
                let $s = self;
                let $f = d10(rng);
                $entry
            }
        }
        impl Exact for $roll {
            /// The ten faces of a d10 through the table.
            fn distribution(&self) -> Result<Dist<$out>, dice_core::Error> {
                let $s = self;
                Ok(d10_law(|$f| $entry))
            }
        }
        impl RollDetailed for $roll {
            /// The d10; `total` is its face.
            fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
                record_d10(rng, record);
            }
        }
        impl rand::distr::Distribution<$out> for $roll {
            #[inline]
            fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> $out {
                Roll::roll(self, rng)
            }
        }
    };
}

// -------------------------------------------------------------------------------- Body Type

/// How human the robot looks: the Body Style Table (L487-499).
///
/// ```
/// use dice_robots_and_rapiers::creation::BodyType;
/// assert_eq!(BodyType::from_face(7)?, BodyType::Type3);
/// assert_eq!(BodyType::Type1.durability_max(), 4);
/// assert_eq!(BodyType::Type0.appearance_dice(), -3);
/// assert_eq!(BodyType::Type4.to_string(), "Type 4");
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyType {
    /// No external case (roll 1): Durability at most 2, −3 Appearance dice.
    Type0,
    /// Basic casing (2-3): Durability at most 4, −2.
    Type1,
    /// Most components enclosed (4-5): Durability at most 6, −1.
    Type2,
    /// Fully enclosed, mostly human anatomy (6-8): Durability up to 8, ±0.
    Type3,
    /// Human anatomy in all particulars (9-10): Durability up to 8, +1.
    Type4,
    /// Syntheskin over Type 1 or 2 (never rolled, L499): Durability as the casing, +2.
    Type5,
}

impl BodyType {
    /// The six Types, 0 to 5.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::creation::BodyType::ALL.len(), 6);
    /// ```
    pub const ALL: [BodyType; 6] = [
        BodyType::Type0,
        BodyType::Type1,
        BodyType::Type2,
        BodyType::Type3,
        BodyType::Type4,
        BodyType::Type5,
    ];

    /// The Body Type for a d10 already rolled (1..=10; a 0 on the die is 10), L494-498.
    ///
    /// # Errors
    /// [`CreationError::Face`] unless `1 <= face <= 10`.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::BodyType;
    /// assert_eq!(BodyType::from_face(1)?, BodyType::Type0);
    /// assert_eq!(BodyType::from_face(10)?, BodyType::Type4);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_face(face: u32) -> Result<BodyType, CreationError> {
        Ok(Self::of(check_face(face)?))
    }

    pub(crate) const fn of(face: u8) -> BodyType {
        match face {
            1 => BodyType::Type0,
            2 | 3 => BodyType::Type1,
            4 | 5 => BodyType::Type2,
            6..=8 => BodyType::Type3,
            _ => BodyType::Type4,
        }
    }

    /// The Type as a number, 0-5.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::creation::BodyType::Type3.value(), 3);
    /// ```
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The Type numbered `value` (0-5).
    ///
    /// # Errors
    /// [`CreationError::Type`] above 5.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::BodyType;
    /// assert_eq!(BodyType::new(2)?, BodyType::Type2);
    /// assert!(BodyType::new(6).is_err());
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn new(value: u8) -> Result<BodyType, CreationError> {
        BodyType::ALL
            .get(usize::from(value))
            .copied()
            .ok_or(CreationError::Type {
                what: "Body",
                value,
            })
    }

    /// The highest Durability the casing allows (L615-618). Type 5 has no cap of its own
    /// (it is Syntheskin over a Type 1 or 2 casing, whose cap applies, L499, L922); this
    /// returns 8 for it, and a built robot is checked against its casing.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::BodyType;
    /// assert_eq!(BodyType::Type0.durability_max(), 2);
    /// assert_eq!(BodyType::Type2.durability_max(), 6);
    /// assert_eq!(BodyType::Type3.durability_max(), 8);
    /// ```
    pub const fn durability_max(self) -> u8 {
        match self {
            BodyType::Type0 => 2,
            BodyType::Type1 => 4,
            BodyType::Type2 => 6,
            _ => 8,
        }
    }

    /// Dice added to (or, negative, taken from) Appearance Sensitive rolls (L494-499).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::BodyType;
    /// let dice: Vec<i8> = BodyType::ALL.iter().map(|b| b.appearance_dice()).collect();
    /// assert_eq!(dice, [-3, -2, -1, 0, 1, 2]);
    /// ```
    pub const fn appearance_dice(self) -> i8 {
        self as i8 - 3
    }

    /// The lowest and highest d10 face of this Type (`None` for Type 5, never rolled).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::BodyType;
    /// assert_eq!(BodyType::Type3.faces(), Some((6, 8)));
    /// assert_eq!(BodyType::Type5.faces(), None);
    /// ```
    pub const fn faces(self) -> Option<(u8, u8)> {
        match self {
            BodyType::Type0 => Some((1, 1)),
            BodyType::Type1 => Some((2, 3)),
            BodyType::Type2 => Some((4, 5)),
            BodyType::Type3 => Some((6, 8)),
            BodyType::Type4 => Some((9, 10)),
            BodyType::Type5 => None,
        }
    }
}

impl fmt::Display for BodyType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("Type {}", self.value()))
    }
}

/// "Roll 1d10 or choose Body Type, from Type 0 to Type 4" (L413): the random roll.
///
/// ```
/// use dice_robots_and_rapiers::creation::{BodyType, BodyTypeRoll};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let law = BodyTypeRoll.distribution()?;
/// assert!((law.probability(&BodyType::Type3) - 0.3).abs() < 1e-12);
/// assert_eq!(law.probability(&BodyType::Type5), 0.0);
/// let body = BodyTypeRoll.roll(&mut Xoshiro256PlusPlus::seed_from_u64(1));
/// assert!(body <= BodyType::Type4);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyTypeRoll;

d10_table!(BodyTypeRoll, BodyType, |_s, f| BodyType::of(f));

impl fmt::Display for BodyTypeRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("d10 Body Type")
    }
}

// ----------------------------------------------------------------------------- Vocalization

/// How human the robot sounds (L501-512).
///
/// ```
/// use dice_robots_and_rapiers::creation::{BodyType, Vocalization};
/// assert_eq!(Vocalization::from_face(BodyType::Type2, 9)?, Vocalization::Type3);
/// assert_eq!(Vocalization::Type1.voice_dice(2), Some(-2));
/// assert_eq!(Vocalization::Type0.voice_dice(2), None); // mute
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Vocalization {
    /// Mute: Voice Sensitive Programs impossible.
    Type0,
    /// Mechanical mono or duo tone: −2 dice.
    Type1,
    /// Full range but flat: −1 die.
    Type2,
    /// Fully human: ±0.
    Type3,
    /// Operatic range: +1 die.
    Type4,
    /// Advanced Vocalization over Type 4 (never rolled, L512): +2 dice by the ruling A22.
    Type5,
}

/// The Vocalization table's columns (L505-510): for Body Types 0-5, the highest face giving
/// each Vocalization Type 0-4, or 0 when the column has no such entry.
const VOICE_TOP: [[u8; 5]; 6] = [
    [2, 7, 9, 10, 0], // Body Type 0: 1-2, 3-7, 8-9, 0
    [1, 5, 9, 10, 0], // Body Type 1: 1, 2-5, 6-9, 0
    [0, 3, 8, 10, 0], // Body Type 2: 1-3, 4-8, 9-0
    [0, 2, 5, 9, 10], // Body Type 3: 1-2, 3-5, 6-9, 0
    [0, 1, 3, 8, 10], // Body Type 4: 1, 2-3, 4-8, 9-0
    [0, 0, 1, 7, 10], // Body Type 5: 1, 2-7, 8-0
];

impl Vocalization {
    /// The six Types, 0 to 5.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::creation::Vocalization::ALL.len(), 6);
    /// ```
    pub const ALL: [Vocalization; 6] = [
        Vocalization::Type0,
        Vocalization::Type1,
        Vocalization::Type2,
        Vocalization::Type3,
        Vocalization::Type4,
        Vocalization::Type5,
    ];

    /// The Vocalization for a d10 already rolled in `body`'s column (L505-510).
    ///
    /// # Errors
    /// [`CreationError::Face`] unless `1 <= face <= 10`.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{BodyType, Vocalization};
    /// assert_eq!(Vocalization::from_face(BodyType::Type0, 1)?, Vocalization::Type0);
    /// assert_eq!(Vocalization::from_face(BodyType::Type4, 10)?, Vocalization::Type4);
    /// assert_eq!(Vocalization::from_face(BodyType::Type5, 1)?, Vocalization::Type2);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_face(body: BodyType, face: u32) -> Result<Vocalization, CreationError> {
        Ok(Self::of(body, check_face(face)?))
    }

    pub(crate) fn of(body: BodyType, face: u8) -> Vocalization {
        let col = &VOICE_TOP[usize::from(body.value())];
        let i = col.iter().position(|&top| face <= top).unwrap_or(4);
        Vocalization::ALL[i]
    }

    /// The lowest and highest Type `body`'s column can give (L503: a choice should stay in
    /// this range).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{BodyType, Vocalization};
    /// assert_eq!(Vocalization::range(BodyType::Type0), (Vocalization::Type0, Vocalization::Type3));
    /// assert_eq!(Vocalization::range(BodyType::Type3), (Vocalization::Type1, Vocalization::Type4));
    /// ```
    pub fn range(body: BodyType) -> (Vocalization, Vocalization) {
        (Self::of(body, 1), Self::of(body, 10))
    }

    /// The Type as a number, 0-5.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::creation::Vocalization::Type2.value(), 2);
    /// ```
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The Type numbered `value` (0-5).
    ///
    /// # Errors
    /// [`CreationError::Type`] above 5.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::Vocalization;
    /// assert_eq!(Vocalization::new(4)?, Vocalization::Type4);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn new(value: u8) -> Result<Vocalization, CreationError> {
        Vocalization::ALL
            .get(usize::from(value))
            .copied()
            .ok_or(CreationError::Type {
                what: "Vocalization",
                value,
            })
    }

    /// Dice on Voice Sensitive rolls, or `None` when they are impossible (Type 0, mute).
    /// `type_five` is the Type 5 bonus: +2 by the ruling A22
    /// ([`Rules::vocalization_type5_dice`](crate::Rules::vocalization_type5_dice), the one
    /// knob for it), +1 by L512.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, creation::Vocalization};
    /// let five = Rules::default().vocalization_type5_dice;
    /// assert_eq!(Vocalization::Type5.voice_dice(five), Some(2));
    /// assert_eq!(Vocalization::Type3.voice_dice(five), Some(0));
    /// ```
    pub const fn voice_dice(self, type_five: i8) -> Option<i8> {
        match self {
            Vocalization::Type0 => None,
            Vocalization::Type1 => Some(-2),
            Vocalization::Type2 => Some(-1),
            Vocalization::Type3 => Some(0),
            Vocalization::Type4 => Some(1),
            Vocalization::Type5 => Some(type_five),
        }
    }
}

impl fmt::Display for Vocalization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("Type {}", self.value()))
    }
}

/// "Roll 1d10 or choose Vocalization based on Body Type" (L414): the roll in the Body Type's
/// column.
///
/// ```
/// use dice_robots_and_rapiers::creation::{BodyType, Vocalization, VocalizationRoll};
/// use dice_core::Exact;
/// let law = VocalizationRoll::new(BodyType::Type3).distribution()?;
/// assert!((law.probability(&Vocalization::Type3) - 0.4).abs() < 1e-12); // 6-9
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VocalizationRoll {
    /// The column: the robot's Body Type.
    pub body: BodyType,
}

impl VocalizationRoll {
    /// The roll in `body`'s column.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{BodyType, VocalizationRoll};
    /// assert_eq!(VocalizationRoll::new(BodyType::Type1).body, BodyType::Type1);
    /// ```
    pub const fn new(body: BodyType) -> Self {
        VocalizationRoll { body }
    }
}

d10_table!(VocalizationRoll, Vocalization, |s, f| Vocalization::of(
    s.body, f
));

impl fmt::Display for VocalizationRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d10 Vocalization (Body {})", self.body)
    }
}

// ------------------------------------------------------------------ social attributes roll

/// Body Type and Vocalization together: the two social attributes (L411-416).
///
/// ```
/// use dice_robots_and_rapiers::creation::{BodyType, SocialAttributes, Vocalization};
/// let s = SocialAttributes::new(BodyType::Type3, Vocalization::Type2);
/// assert_eq!(s.anthropoid_class().value(), 5);
/// assert_eq!(s.to_string(), "Body Type 3, Vocalization Type 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SocialAttributes {
    /// How human the robot looks.
    pub body: BodyType,
    /// How human it sounds.
    pub vocalization: Vocalization,
}

impl SocialAttributes {
    /// The pair.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{BodyType, SocialAttributes, Vocalization};
    /// let s = SocialAttributes::new(BodyType::Type0, Vocalization::Type0);
    /// assert_eq!(s.anthropoid_class().value(), 0); // A34: the random minimum is 0
    /// ```
    pub const fn new(body: BodyType, vocalization: Vocalization) -> Self {
        SocialAttributes { body, vocalization }
    }

    /// Social attributes chosen rather than rolled (the choice methods, L377-399): Types 0-4
    /// only (A2), and, when [`CreationRules::vocalization_range`](super::CreationRules) is
    /// set, a Vocalization in the Body Type's column (L503).
    ///
    /// # Errors
    /// [`CreationError::TypeFiveByAccessoryOnly`], [`CreationError::VocalizationOutOfRange`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{BodyType, CreationRules, SocialAttributes,
    ///     Vocalization};
    /// let rules = CreationRules::default();
    /// assert!(SocialAttributes::choose(BodyType::Type5, Vocalization::Type3, &rules).is_err());
    /// // A mute Type 4 is out of the column's range: allowed unless the rules enforce it.
    /// assert!(SocialAttributes::choose(BodyType::Type4, Vocalization::Type0, &rules).is_ok());
    /// let strict = CreationRules { vocalization_range: true, ..rules };
    /// assert!(SocialAttributes::choose(BodyType::Type4, Vocalization::Type0, &strict).is_err());
    /// ```
    pub fn choose(
        body: BodyType,
        vocalization: Vocalization,
        rules: &super::CreationRules,
    ) -> Result<Self, CreationError> {
        if body == BodyType::Type5 {
            return Err(CreationError::TypeFiveByAccessoryOnly {
                what: "Body",
                accessory: "Syntheskin",
            });
        }
        if vocalization == Vocalization::Type5 {
            return Err(CreationError::TypeFiveByAccessoryOnly {
                what: "Vocalization",
                accessory: "Advanced Vocalization",
            });
        }
        let (low, high) = Vocalization::range(body);
        if rules.vocalization_range && !(low..=high).contains(&vocalization) {
            return Err(CreationError::VocalizationOutOfRange {
                body: body.value(),
                vocalization: vocalization.value(),
                low: low.value(),
                high: high.value(),
            });
        }
        Ok(SocialAttributes { body, vocalization })
    }

    /// The pair for two d10s already rolled: Body Type, then Vocalization in its column.
    ///
    /// # Errors
    /// [`CreationError::Face`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{BodyType, SocialAttributes, Vocalization};
    /// let s = SocialAttributes::from_faces(9, 5)?;
    /// assert_eq!(s, SocialAttributes::new(BodyType::Type4, Vocalization::Type3));
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_faces(body: u32, voice: u32) -> Result<Self, CreationError> {
        let body = BodyType::from_face(body)?;
        Ok(SocialAttributes {
            body,
            vocalization: Vocalization::from_face(body, voice)?,
        })
    }

    /// "Body Type plus Vocalization Type" (L516-520).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{BodyType, SocialAttributes, Vocalization};
    /// assert_eq!(SocialAttributes::new(BodyType::Type4, Vocalization::Type4).anthropoid_class().value(), 8);
    /// ```
    pub const fn anthropoid_class(self) -> AnthropoidClass {
        AnthropoidClass(self.body.value() + self.vocalization.value())
    }
}

impl fmt::Display for SocialAttributes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Body {}, Vocalization {}", self.body, self.vocalization)
    }
}

/// The two rolls of step 1 (L413-414): Body Type, then Vocalization in its column.
///
/// ```
/// use dice_robots_and_rapiers::creation::{AnthropoidClass, SocialRoll};
/// use dice_core::Exact;
/// let ac = SocialRoll.anthropoid_class_distribution();
/// assert!((ac.total() - 1.0).abs() < 1e-12);
/// assert_eq!(ac.outcomes().first(), Some(&AnthropoidClass::new(0)?));
/// assert_eq!(ac.outcomes().last(), Some(&AnthropoidClass::new(8)?));
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SocialRoll;

impl SocialRoll {
    /// The exact law of the starting Anthropoid Class (0-8 by random roll, A34).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{AnthropoidClass, SocialRoll};
    /// let ac = SocialRoll.anthropoid_class_distribution();
    /// // Body 0 (face 1) then Vocalization 0 (faces 1-2): 1/10 × 2/10.
    /// assert!((ac.probability(&AnthropoidClass::new(0)?) - 0.02).abs() < 1e-12);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn anthropoid_class_distribution(&self) -> Dist<AnthropoidClass> {
        self.law().map(|s| s.anthropoid_class())
    }

    fn law(&self) -> Dist<SocialAttributes> {
        let pairs = (1..=10u8).flat_map(|b| {
            (1..=10u8).map(move |v| {
                let body = BodyType::of(b);
                (SocialAttributes::new(body, Vocalization::of(body, v)), 0.01)
            })
        });
        Dist::from_pairs(pairs).unwrap_or_else(|_| {
            Dist::certain(SocialAttributes::new(BodyType::Type0, Vocalization::Type0))
        })
    }
}

impl Roll for SocialRoll {
    type Outcome = SocialAttributes;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> SocialAttributes {
        let body = BodyType::of(d10(rng));
        SocialAttributes::new(body, Vocalization::of(body, d10(rng)))
    }
}

impl Exact for SocialRoll {
    /// The hundred face pairs through both tables.
    fn distribution(&self) -> Result<Dist<SocialAttributes>, dice_core::Error> {
        Ok(self.law())
    }
}

impl RollDetailed for SocialRoll {
    /// The Body Type die then the Vocalization die; `total` is the Anthropoid Class.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let b = d10(rng);
        let v = d10(rng);
        for f in [b, v] {
            record
                .dice
                .push(DieRoll::new(Die::D10, u32::from(f), Source::Primary));
        }
        let body = BodyType::of(b);
        record.total = i64::from(
            SocialAttributes::new(body, Vocalization::of(body, v))
                .anthropoid_class()
                .value(),
        );
    }
}

impl rand::distr::Distribution<SocialAttributes> for SocialRoll {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> SocialAttributes {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for SocialRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("d10 Body Type, d10 Vocalization")
    }
}

// ---------------------------------------------------------------------- Anthropoid Class

/// "Body Type plus Vocalization Type" as an attribute, 0-10 (L514-520, A34), less 2 for each
/// of Armor Plating and Wings (L982, L1004), never below 0.
///
/// ```
/// use dice_robots_and_rapiers::creation::{AnthropoidClass, CoreSocial, SocialClass};
/// let ac = AnthropoidClass::new(6)?;
/// assert_eq!(ac.social_class(), SocialClass::Middle);
/// assert_eq!(ac.core_social(), None); // either, by choice or a 50/50 roll
/// assert_eq!(AnthropoidClass::new(3)?.core_social(), Some(CoreSocial::Common));
/// assert_eq!(ac.reduced(2).value(), 4);
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct AnthropoidClass(u8);

impl TryFrom<u8> for AnthropoidClass {
    type Error = CreationError;
    fn try_from(value: u8) -> Result<Self, CreationError> {
        AnthropoidClass::new(value)
    }
}

impl From<AnthropoidClass> for u8 {
    fn from(c: AnthropoidClass) -> u8 {
        c.0
    }
}

impl AnthropoidClass {
    /// The class `value` (0-10).
    ///
    /// # Errors
    /// [`CreationError::Type`] above 10.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::AnthropoidClass;
    /// assert!(AnthropoidClass::new(11).is_err());
    /// ```
    pub fn new(value: u8) -> Result<Self, CreationError> {
        if value > 10 {
            return Err(CreationError::Type {
                what: "Anthropoid Class",
                value,
            });
        }
        Ok(AnthropoidClass(value))
    }

    /// The value.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::AnthropoidClass;
    /// assert_eq!(AnthropoidClass::new(7)?.value(), 7);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn value(self) -> u8 {
        self.0
    }

    /// Lowered by `by`, clamped at 0 (A34).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::AnthropoidClass;
    /// assert_eq!(AnthropoidClass::new(1)?.reduced(2).value(), 0);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn reduced(self, by: u8) -> Self {
        AnthropoidClass(self.0.saturating_sub(by))
    }

    /// The social class guide of L526-530.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{AnthropoidClass, SocialClass};
    /// assert_eq!(AnthropoidClass::new(10)?.social_class(), SocialClass::Royalty);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn social_class(self) -> SocialClass {
        match self.0 {
            0..=2 => SocialClass::Lowest,
            3 | 4 => SocialClass::Lower,
            5 | 6 => SocialClass::Middle,
            7 | 8 => SocialClass::Upper,
            _ => SocialClass::Royalty,
        }
    }

    /// The Core Social variant the class dictates (L763): Common for 0-4, Genteel for 7-10,
    /// `None` for 5-6 (either, by choice or [`CoreSocialRoll`]).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{AnthropoidClass, CoreSocial};
    /// assert_eq!(AnthropoidClass::new(7)?.core_social(), Some(CoreSocial::Genteel));
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn core_social(self) -> Option<CoreSocial> {
        match self.0 {
            0..=4 => Some(CoreSocial::Common),
            5 | 6 => None,
            _ => Some(CoreSocial::Genteel),
        }
    }
}

impl fmt::Display for AnthropoidClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Anthropoid Class {}", self.0)
    }
}

/// The social class equivalents of L526-530.
///
/// ```
/// use dice_robots_and_rapiers::creation::SocialClass;
/// assert_eq!(SocialClass::Lower.to_string(), "Lower Class, General Guardsman");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SocialClass {
    /// Class 0-2: general labour.
    Lowest,
    /// Class 3-4: lower class, general guardsman.
    Lower,
    /// Class 5-6: middle class, guard officer.
    Middle,
    /// Class 7-8: upper class, aristocracy.
    Upper,
    /// Class 9-10: royalty.
    Royalty,
}

impl fmt::Display for SocialClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            SocialClass::Lowest => "Lowest rank robots",
            SocialClass::Lower => "Lower Class, General Guardsman",
            SocialClass::Middle => "Middle Class, Guard Officer",
            SocialClass::Upper => "Upper Class, Aristocracy",
            SocialClass::Royalty => "Most elite, equivalent to royalty",
        })
    }
}

/// The two variants of the Core Social program (L763).
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::creation::CoreSocial::Genteel.to_string(), "Genteel");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CoreSocial {
    /// Core Social (Common).
    Common,
    /// Core Social (Genteel).
    Genteel,
}

impl fmt::Display for CoreSocial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            CoreSocial::Common => "Common",
            CoreSocial::Genteel => "Genteel",
        })
    }
}

/// The "50/50 random roll" for a robot of Anthropoid Class 5-6 (L763), made on a d10 like the
/// gender roll: 1-5 Common, 6-10 Genteel.
///
/// ```
/// use dice_robots_and_rapiers::creation::{CoreSocial, CoreSocialRoll};
/// use dice_core::Exact;
/// assert_eq!(CoreSocialRoll::from_face(5)?, CoreSocial::Common);
/// assert!((CoreSocialRoll.distribution()?.probability(&CoreSocial::Genteel) - 0.5).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CoreSocialRoll;

impl CoreSocialRoll {
    /// The variant for a d10 already rolled.
    ///
    /// # Errors
    /// [`CreationError::Face`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{CoreSocial, CoreSocialRoll};
    /// assert_eq!(CoreSocialRoll::from_face(6)?, CoreSocial::Genteel);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_face(face: u32) -> Result<CoreSocial, CreationError> {
        Ok(Self::of(check_face(face)?))
    }

    const fn of(face: u8) -> CoreSocial {
        if face <= 5 {
            CoreSocial::Common
        } else {
            CoreSocial::Genteel
        }
    }
}

d10_table!(CoreSocialRoll, CoreSocial, |_s, f| CoreSocialRoll::of(f));

impl fmt::Display for CoreSocialRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("d10 Core Social (1-5 Common, 6-10 Genteel)")
    }
}

// ---------------------------------------------------------------------------- gender, Size

/// The robot's apparent gender: "1d10 Roll: 1-5 = Female … 6-10 = Male" (L573).
///
/// ```
/// use dice_robots_and_rapiers::creation::Gender;
/// assert_eq!(Gender::from_face(6)?, Gender::Male);
/// assert_eq!(Gender::Female.to_string(), "female");
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Gender {
    /// 1-5.
    Female,
    /// 6-10.
    Male,
}

impl Gender {
    /// The gender for a d10 already rolled.
    ///
    /// # Errors
    /// [`CreationError::Face`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::Gender;
    /// assert_eq!(Gender::from_face(5)?, Gender::Female);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_face(face: u32) -> Result<Gender, CreationError> {
        Ok(Self::of(check_face(face)?))
    }

    const fn of(face: u8) -> Gender {
        if face <= 5 {
            Gender::Female
        } else {
            Gender::Male
        }
    }

    const fn name(self) -> &'static str {
        match self {
            Gender::Female => "female",
            Gender::Male => "male",
        }
    }
}

impl fmt::Display for Gender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// "Roll 1d10 or choose robot's apparent gender" (L422).
///
/// ```
/// use dice_robots_and_rapiers::creation::{Gender, GenderRoll};
/// use dice_core::Exact;
/// assert!((GenderRoll.distribution()?.probability(&Gender::Male) - 0.5).abs() < 1e-12);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GenderRoll;

d10_table!(GenderRoll, Gender, |_s, f| Gender::of(f));

impl fmt::Display for GenderRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("d10 gender")
    }
}

/// The robot's Size, 0-9 (L573-583; A3: Sizes 0-2 and 9 only by choice), with its Spaces
/// and Design Dice.
///
/// ```
/// use dice_robots_and_rapiers::creation::{Gender, Size};
/// let six = Size::new(6)?;
/// assert_eq!(six.spaces(), (37, 42));
/// assert_eq!(six.max_spaces(), 42);
/// assert_eq!(six.design_dice(), 6);
/// assert_eq!(six.description(), "Average Adult Male");
/// assert_eq!(Size::from_face(Gender::Female, 10)?, Size::new(7)?);
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct Size(u8);

impl TryFrom<u8> for Size {
    type Error = CreationError;
    fn try_from(value: u8) -> Result<Self, CreationError> {
        Size::new(value)
    }
}

impl From<Size> for u8 {
    fn from(s: Size) -> u8 {
        s.0
    }
}

/// Design Dice "X" by Size 0-9 (L574-583).
const DESIGN_DICE: [u8; 10] = [2, 3, 4, 5, 6, 6, 6, 6, 7, 8];

/// The Size table's descriptions (L574-583).
const SIZE_DESCRIPTIONS: [&str; 10] = [
    "Infant",
    "Preschool",
    "Early Elementary",
    "Late Elementary, Slight Teen",
    "Average Teen, Slight Adult Female",
    "Average Adult Female, Slight Adult Male",
    "Average Adult Male",
    "Large Build Adult",
    "Very Large Build Adult",
    "Unnaturally Hulking Adult",
];

impl Size {
    /// The largest Size, 9.
    pub const MAX: u8 = 9;

    /// Size `value` (0-9).
    ///
    /// # Errors
    /// [`CreationError::Size`] above 9.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::Size;
    /// assert!(Size::new(0).is_ok());
    /// assert!(Size::new(10).is_err());
    /// ```
    pub fn new(value: u8) -> Result<Size, CreationError> {
        if value > Self::MAX {
            return Err(CreationError::Size { size: value });
        }
        Ok(Size(value))
    }

    /// The Size for a d10 already rolled in `gender`'s column (L574-583).
    ///
    /// # Errors
    /// [`CreationError::Face`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Gender, Size};
    /// assert_eq!(Size::from_face(Gender::Male, 10)?.value(), 8);
    /// assert_eq!(Size::from_face(Gender::Female, 1)?.value(), 3);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn from_face(gender: Gender, face: u32) -> Result<Size, CreationError> {
        Ok(Self::of(gender, check_face(face)?))
    }

    const fn of(gender: Gender, face: u8) -> Size {
        Size(match (gender, face) {
            (Gender::Female, 1 | 2) | (Gender::Male, 1) => 3,
            (Gender::Female, 3 | 4) | (Gender::Male, 2) => 4,
            (Gender::Female, 5..=7) | (Gender::Male, 3 | 4) => 5,
            (Gender::Female, 8 | 9) | (Gender::Male, 5..=7) => 6,
            (Gender::Female, _) | (Gender::Male, 8 | 9) => 7,
            (Gender::Male, _) => 8,
        })
    }

    /// The lowest and highest d10 face giving this Size in `gender`'s column, if any.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Gender, Size};
    /// assert_eq!(Size::new(5)?.faces(Gender::Female), Some((5, 7)));
    /// assert_eq!(Size::new(8)?.faces(Gender::Female), None);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn faces(self, gender: Gender) -> Option<(u8, u8)> {
        let faces: Vec<u8> = (1..=10).filter(|&f| Self::of(gender, f) == self).collect();
        Some((*faces.first()?, *faces.last()?))
    }

    /// The value.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Size;
    /// assert_eq!(Size::new(4)?.value(), 4);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn value(self) -> u8 {
        self.0
    }

    /// The Size's band of Spaces: 6·Size + 1 to 6·Size + 6, and 0-6 for Size 0 (L574-583).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Size;
    /// assert_eq!(Size::new(0)?.spaces(), (0, 6));
    /// assert_eq!(Size::new(9)?.spaces(), (55, 60));
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn spaces(self) -> (u32, u32) {
        let s = self.0 as u32;
        (if s == 0 { 0 } else { 6 * s + 1 }, 6 * s + 6)
    }

    /// "a maximum number of Spaces equal to 6 plus 6 per Size" (L567).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Size;
    /// assert_eq!(Size::new(5)?.max_spaces(), 36);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn max_spaces(self) -> u32 {
        6 + 6 * self.0 as u32
    }

    /// Design Dice "X" (L574-583, L596).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Size;
    /// assert_eq!(Size::new(0)?.design_dice(), 2);
    /// assert_eq!(Size::new(9)?.design_dice(), 8);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn design_dice(self) -> u32 {
        DESIGN_DICE[self.0 as usize] as u32
    }

    /// The Size table's description.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Size;
    /// assert_eq!(Size::new(9)?.description(), "Unnaturally Hulking Adult");
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn description(self) -> &'static str {
        SIZE_DESCRIPTIONS[self.0 as usize]
    }

    /// Power Points from `levels` Capacitor levels: `levels · (10 − Size) / 2`, the halves
    /// added together before rounding down (L442-444, L721-723).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Size;
    /// // §5.10: "Size 5, 3 levels → 7.5 → 7".
    /// assert_eq!(Size::new(5)?.capacitor_power(3), 7);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn capacitor_power(self, levels: u32) -> u32 {
        levels * (10 - self.0 as u32) / 2
    }

    /// Power Points of one Reserve Capacitor: `(10 − Size) / 2` rounded down, at least 1
    /// (L970).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Size;
    /// assert_eq!(Size::new(5)?.reserve_capacitor_power(), 2);
    /// assert_eq!(Size::new(9)?.reserve_capacitor_power(), 1);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn reserve_capacitor_power(self) -> u32 {
        let p = (10 - self.0 as u32) / 2;
        if p == 0 { 1 } else { p }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("Size {}", self.0))
    }
}

/// "Roll 1d10 or choose robot's Size based on Gender" (L423): the roll in the gender's
/// column, giving Sizes 3-8.
///
/// ```
/// use dice_robots_and_rapiers::creation::{Gender, Size, SizeRoll};
/// use dice_core::Exact;
/// let male = SizeRoll::new(Gender::Male).distribution()?;
/// assert!((male.probability(&Size::new(6).unwrap()) - 0.3).abs() < 1e-12);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SizeRoll {
    /// The column.
    pub gender: Gender,
}

impl SizeRoll {
    /// The roll in `gender`'s column.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Gender, SizeRoll};
    /// assert_eq!(SizeRoll::new(Gender::Female).gender, Gender::Female);
    /// ```
    pub const fn new(gender: Gender) -> Self {
        SizeRoll { gender }
    }
}

d10_table!(SizeRoll, Size, |s, f| Size::of(s.gender, f));

impl fmt::Display for SizeRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d10 Size ({})", self.gender)
    }
}

/// Gender then Size (L422-423): the Size of a randomly generated robot.
///
/// ```
/// use dice_robots_and_rapiers::creation::{RandomSize, Size};
/// use dice_core::Exact;
/// let law = RandomSize.distribution()?;
/// // Size 8 only for a male robot rolling 10: ½ × 1/10.
/// assert!((law.probability(&Size::new(8).unwrap()) - 0.05).abs() < 1e-12);
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RandomSize;

impl Roll for RandomSize {
    type Outcome = Size;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Size {
        let gender = Gender::of(d10(rng));
        Size::of(gender, d10(rng))
    }
}

impl Exact for RandomSize {
    /// The hundred face pairs through both tables.
    fn distribution(&self) -> Result<Dist<Size>, dice_core::Error> {
        Dist::from_pairs(
            (1..=10u8).flat_map(|g| (1..=10u8).map(move |s| (Size::of(Gender::of(g), s), 0.01))),
        )
    }
}

impl rand::distr::Distribution<Size> for RandomSize {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Size {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for RandomSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("d10 gender, d10 Size")
    }
}
