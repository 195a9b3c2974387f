//! Attributes, Core Programs, Role Programs and sensitivities (digest §1.1, §1.2, §1.10,
//! §1.12; rulebook L110–140, L809–872).

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::rules::Rules;

/// An attribute a Test or Saving Throw can use as its Target Number (L193–194, L1401,
/// L1810–1814).
///
/// The six Primary Attributes are rated 1–8 (L112, L601); Perception combines sensors (2–8,
/// L136–140); Role Score is the TN of a Role Save (L1132).
///
/// ```
/// use dice_robots_and_rapiers::Attribute;
/// assert!(Attribute::Force.is_primary());
/// assert!(!Attribute::Perception.is_primary());
/// assert_eq!("Anthropoid Class".parse::<Attribute>()?, Attribute::AnthropoidClass);
/// assert_eq!(Attribute::Locomotion.to_string(), "Locomotion");
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Attribute {
    /// Mass: strength (L603–609).
    Force,
    /// Mass: toughness; the attribute of every damage save (L258, L611–618).
    Durability,
    /// Mobility: fine motor control; the default attack TN (L620–630, L1420).
    Articulation,
    /// Mobility: balance and movement; the default defence TN (L632–638, L1420).
    Locomotion,
    /// Mental: reasoning speed (L642–646).
    Processor,
    /// Mental: storage (L648–650).
    Memory,
    /// Visual + Audio sensors, or another combination (L136–140, L656–665).
    Perception,
    /// A single sensor: Visual (L667–676).
    VisualSensors,
    /// A single sensor: Audio (L678–687).
    AudioSensors,
    /// A single sensor: Tactile (L689–699).
    TactileSensors,
    /// Body Type + Vocalization Type (L94, L514–530).
    AnthropoidClass,
    /// Size (L106–108, L548–583).
    Size,
    /// Role Score: the TN of a Role Save (L1132).
    RoleScore,
    /// Self Awareness: the TN of a Self Awareness Save (L1144).
    SelfAwareness,
}

impl Attribute {
    /// The six Primary Attributes in the rulebook's order (L112).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Attribute::PRIMARY.len(), 6);
    /// ```
    pub const PRIMARY: [Attribute; 6] = [
        Attribute::Force,
        Attribute::Durability,
        Attribute::Articulation,
        Attribute::Locomotion,
        Attribute::Processor,
        Attribute::Memory,
    ];

    /// Every attribute.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Attribute::ALL.len(), 14);
    /// ```
    pub const ALL: [Attribute; 14] = [
        Attribute::Force,
        Attribute::Durability,
        Attribute::Articulation,
        Attribute::Locomotion,
        Attribute::Processor,
        Attribute::Memory,
        Attribute::Perception,
        Attribute::VisualSensors,
        Attribute::AudioSensors,
        Attribute::TactileSensors,
        Attribute::AnthropoidClass,
        Attribute::Size,
        Attribute::RoleScore,
        Attribute::SelfAwareness,
    ];

    /// Whether this is one of the six Primary Attributes (L112).
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::Attribute::Memory.is_primary());
    /// ```
    pub const fn is_primary(self) -> bool {
        matches!(
            self,
            Attribute::Force
                | Attribute::Durability
                | Attribute::Articulation
                | Attribute::Locomotion
                | Attribute::Processor
                | Attribute::Memory
        )
    }

    /// The rulebook's name.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Attribute::RoleScore.name(), "Role Score");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Attribute::Force => "Force",
            Attribute::Durability => "Durability",
            Attribute::Articulation => "Articulation",
            Attribute::Locomotion => "Locomotion",
            Attribute::Processor => "Processor",
            Attribute::Memory => "Memory",
            Attribute::Perception => "Perception",
            Attribute::VisualSensors => "Visual Sensors",
            Attribute::AudioSensors => "Audio Sensors",
            Attribute::TactileSensors => "Tactile Sensors",
            Attribute::AnthropoidClass => "Anthropoid Class",
            Attribute::Size => "Size",
            Attribute::RoleScore => "Role Score",
            Attribute::SelfAwareness => "Self Awareness",
        }
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

impl FromStr for Attribute {
    type Err = Error;
    /// The rulebook's names, case and spacing ignored; also `Visual`, `Audio`, `Tactile`,
    /// `Anthropoid`, `AC`, `Role`, `SA`.
    fn from_str(s: &str) -> Result<Self, Error> {
        let n = normalize(s);
        let found = Attribute::ALL
            .into_iter()
            .find(|a| normalize(a.name()) == n)
            .or(match n.as_str() {
                "visual" => Some(Attribute::VisualSensors),
                "audio" | "auditory" => Some(Attribute::AudioSensors),
                "tactile" => Some(Attribute::TactileSensors),
                "anthropoid" | "ac" => Some(Attribute::AnthropoidClass),
                "role" => Some(Attribute::RoleScore),
                "sa" => Some(Attribute::SelfAwareness),
                _ => None,
            });
        found.ok_or_else(|| Error::UnknownName {
            kind: "attribute",
            text: s.to_string(),
        })
    }
}

/// The three Core Programs (L741–763); each Role Program is linked to one (L160, L769).
///
/// ```
/// use dice_robots_and_rapiers::{Core, Program};
/// assert_eq!(Program::Fencing.core(), Core::Physical);
/// assert_eq!(Core::Social.to_string(), "Core Social");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Core {
    /// Core Physical (L751–753).
    Physical,
    /// Core Mental (L755–759).
    Mental,
    /// Core Social, common or genteel (L761–763).
    Social,
}

impl Core {
    /// The three cores.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Core::ALL.len(), 3);
    /// ```
    pub const ALL: [Core; 3] = [Core::Physical, Core::Mental, Core::Social];
}

impl fmt::Display for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Core::Physical => "Core Physical",
            Core::Mental => "Core Mental",
            Core::Social => "Core Social",
        })
    }
}

/// A sensitivity: penalty (or bonus) dice "applied regardless of which Attribute is used for
/// the roll" (L809–816).
///
/// ```
/// use dice_robots_and_rapiers::{Rules, Sensitivity};
/// let rules = Rules::default();
/// // Balance Sensitive, Locomotion 2: −2 dice (L636–638).
/// assert_eq!(Sensitivity::Balance.dice(2, &rules), Some(-2));
/// // Appearance Sensitive, Body Type 4: +1 die (L494–499).
/// assert_eq!(Sensitivity::Appearance.dice(4, &rules), Some(1));
/// // Voice Sensitive, mute (Vocalization 0): impossible (L507).
/// assert_eq!(Sensitivity::Voice.dice(0, &rules), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Sensitivity {
    /// Balance Sensitive: driven by Locomotion (L634–638, L813).
    Balance,
    /// Fine Motor Sensitive: driven by Articulation (L626–630, L814).
    FineMotor,
    /// Appearance Sensitive: driven by Body Type (L494–499, L815).
    Appearance,
    /// Reverse Appearance Sensitive: "Apply the usual Appearance Sensitive penalty as a
    /// bonus" (Carousing L827, Labor L851); A21: the whole modifier is negated.
    ReverseAppearance,
    /// Voice Sensitive: driven by Vocalization Type (L507–512, L816).
    Voice,
}

impl Sensitivity {
    /// The dice modifier for the driving value: Locomotion (Balance), Articulation (Fine
    /// Motor), Body Type (Appearance) or Vocalization Type (Voice). `None` when the roll is
    /// impossible (Voice Sensitive with Vocalization 0, L507).
    ///
    /// A21: attribute values of 1 or less take −3 (values ≤ 0 after losses included); Reverse
    /// Appearance negates the whole Appearance modifier (Type 4 → −1, Type 5 → −2). A22: the
    /// Vocalization Type 5 bonus is [`Rules::vocalization_type5_dice`]. Body and Vocalization
    /// types above 5 count as 5, below 0 as 0.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Rules, Sensitivity};
    /// let r = Rules::default();
    /// assert_eq!(Sensitivity::FineMotor.dice(4, &r), Some(0));
    /// assert_eq!(Sensitivity::FineMotor.dice(-1, &r), Some(-3));
    /// assert_eq!(Sensitivity::ReverseAppearance.dice(0, &r), Some(3));
    /// assert_eq!(Sensitivity::Voice.dice(5, &r), Some(2));
    /// ```
    pub fn dice(self, value: i32, rules: &Rules) -> Option<i32> {
        match self {
            Sensitivity::Balance | Sensitivity::FineMotor => Some(match value {
                i32::MIN..=1 => -3,
                2 => -2,
                3 => -1,
                _ => 0,
            }),
            Sensitivity::Appearance => Some(appearance(value)),
            Sensitivity::ReverseAppearance => Some(-appearance(value)),
            Sensitivity::Voice => match value {
                i32::MIN..=0 => None,
                1 => Some(-2),
                2 => Some(-1),
                3 => Some(0),
                4 => Some(1),
                _ => Some(i32::from(rules.vocalization_type5_dice)),
            },
        }
    }
}

fn appearance(body_type: i32) -> i32 {
    match body_type {
        i32::MIN..=0 => -3,
        1 => -2,
        2 => -1,
        3 => 0,
        4 => 1,
        _ => 2,
    }
}

impl fmt::Display for Sensitivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sensitivity::Balance => "Balance Sensitive",
            Sensitivity::FineMotor => "Fine Motor Sensitive",
            Sensitivity::Appearance => "Appearance Sensitive",
            Sensitivity::ReverseAppearance => "Reverse Appearance Sensitive",
            Sensitivity::Voice => "Voice Sensitive",
        })
    }
}

/// Tactile Sensor dice modifiers (L694–699; A23 for level 5).
///
/// `roll` is the attribute the roll is made against; `sensitive` says whether the action is
/// Fine Motor Sensitive (for Articulation) or Balance Sensitive (for Locomotion). Level 5
/// (Advanced Tactile) gives +1 die to Fine Motor Sensitive Articulation rolls and to
/// Perception rolls (A23: basic Perception Tests).
///
/// ```
/// use dice_robots_and_rapiers::{Attribute, tactile_dice};
/// assert_eq!(tactile_dice(0, Attribute::Locomotion, false), -2);
/// assert_eq!(tactile_dice(1, Attribute::Articulation, false), -1);
/// assert_eq!(tactile_dice(2, Attribute::Articulation, false), 0);
/// assert_eq!(tactile_dice(2, Attribute::Articulation, true), -1);
/// assert_eq!(tactile_dice(5, Attribute::Perception, false), 1);
/// ```
pub fn tactile_dice(level: u8, roll: Attribute, sensitive: bool) -> i32 {
    let motion = matches!(roll, Attribute::Articulation | Attribute::Locomotion);
    match level {
        0 if motion => -2,
        1 if motion => -1,
        2 if motion && sensitive => -1,
        5 if (roll == Attribute::Articulation && sensitive) || roll == Attribute::Perception => 1,
        _ => 0,
    }
}

/// The "Maximum Inspiration" column of the program list (L818–872): how many Inspiration
/// points an Inspiration Roll for the program may spend.
///
/// ```
/// use dice_robots_and_rapiers::{MaxInspiration, Program};
/// let m = Program::Carousing.max_inspiration().unwrap();
/// assert_eq!(m.usual, 4);
/// assert_eq!(m.restricted, Some((2, "Core Social (genteel)")));
/// assert_eq!(Program::Programming.max_inspiration(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaxInspiration {
    /// The usual maximum.
    pub usual: u8,
    /// A lower maximum and when it applies, for the programs whose column has two values.
    pub restricted: Option<(u8, &'static str)>,
}

/// Which value of a program's Maximum Inspiration column applies (L818–872): most programs
/// have one; Carousing, Craft, Dancing, Etiquette and Labor have a lower second value for
/// some uses (L827, L833, L834, L838, L851), which [`MaxInspiration::restricted`] names.
///
/// ```
/// use dice_robots_and_rapiers::{InspirationCase, Program};
/// let dancing = Program::Dancing.max_inspiration().unwrap();
/// assert_eq!(dancing.limit(InspirationCase::Usual), 4);      // "4: Free Style"
/// assert_eq!(dancing.limit(InspirationCase::Restricted), 2); // "2: Formal"
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum InspirationCase {
    /// The column's usual (first) value.
    #[default]
    Usual,
    /// The column's lower value, where the case it names holds: Core Social (genteel) for
    /// Carousing and Labor, advanced crafts, formal dances, an Etiquette specialty that does
    /// not match the robot's Core Social. The usual value for programs with one value.
    Restricted,
}

impl MaxInspiration {
    /// The most Inspiration points one roll may spend in `case`.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{InspirationCase, Program};
    /// let craft = Program::Craft.max_inspiration().unwrap();
    /// assert_eq!((craft.limit(InspirationCase::Usual), craft.limit(InspirationCase::Restricted)), (3, 2));
    /// let fencing = Program::Fencing.max_inspiration().unwrap();
    /// assert_eq!(fencing.limit(InspirationCase::Restricted), 3);
    /// ```
    pub const fn limit(self, case: InspirationCase) -> u8 {
        match (case, self.restricted) {
            (InspirationCase::Restricted, Some((lower, _))) => lower,
            _ => self.usual,
        }
    }
}

impl fmt::Display for MaxInspiration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.usual)?;
        if let Some((m, when)) = self.restricted {
            write!(f, " ({m} with {when})")?;
        }
        Ok(())
    }
}

macro_rules! programs {
    ($( $(#[$doc:meta])* $v:ident = $name:literal, $core:ident, $max:expr, $restricted:expr, [$($sens:ident),*] );* $(;)?) => {
        /// The Standard Program list (L818–872), with each program's linked Core, sensitivity
        /// tags and Maximum Inspiration (digest §1.12).
        ///
        /// Names the rulebook uses elsewhere parse to the listed program (A44): Stealth →
        /// Sneak, Wrestling → Brawling, Robot Repair → Mechanics, and so on.
        ///
        /// ```
        /// use dice_robots_and_rapiers::{Core, Program, Sensitivity};
        /// let p: Program = "Stealth".parse()?;
        /// assert_eq!(p, Program::Sneak);
        /// assert_eq!(Program::Mechanics.core(), Core::Mental);
        /// assert_eq!(Program::Athletics.sensitivities(), &[Sensitivity::Balance]);
        /// assert_eq!(Program::Compose.inspiration_tn_per_point(), 3);
        /// # Ok::<(), dice_robots_and_rapiers::Error>(())
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
        pub enum Program {
            $( $(#[$doc])* $v, )*
        }

        impl Program {
            /// Every Standard Program, in the list's order.
            ///
            /// ```
            /// assert_eq!(dice_robots_and_rapiers::Program::ALL.len(), 42);
            /// ```
            pub const ALL: [Program; 42] = [$(Program::$v),*];

            /// The rulebook's name.
            ///
            /// ```
            /// assert_eq!(dice_robots_and_rapiers::Program::SleightOfHand.name(), "Sleight of Hand");
            /// ```
            pub const fn name(self) -> &'static str {
                match self { $(Program::$v => $name,)* }
            }

            /// The linked Core Program (L769).
            ///
            /// ```
            /// use dice_robots_and_rapiers::{Core, Program};
            /// assert_eq!(Program::Craft.core(), Core::Mental);
            /// ```
            pub const fn core(self) -> Core {
                match self { $(Program::$v => Core::$core,)* }
            }

            /// The Maximum Inspiration column; `None` for Programming ("Inspiration Roll can
            /// not be used for this Program", L863).
            ///
            /// ```
            /// use dice_robots_and_rapiers::Program;
            /// assert_eq!(Program::Mechanics.max_inspiration().unwrap().usual, 2);
            /// ```
            pub const fn max_inspiration(self) -> Option<MaxInspiration> {
                match self { $(Program::$v => {
                    let usual: u8 = $max;
                    if usual == 0 { None } else { Some(MaxInspiration { usual, restricted: $restricted }) }
                })* }
            }

            /// The sensitivities the list always gives the program. Tags the list gives as
            /// "may be" (Artistry, Craft, Perform, Profession, …) are the caller's to add.
            ///
            /// ```
            /// use dice_robots_and_rapiers::{Program, Sensitivity};
            /// assert_eq!(Program::Carousing.sensitivities(), &[Sensitivity::ReverseAppearance]);
            /// assert!(Program::Academics.sensitivities().is_empty());
            /// ```
            pub const fn sensitivities(self) -> &'static [Sensitivity] {
                match self { $(Program::$v => &[$(Sensitivity::$sens),*],)* }
            }
        }
    };
}

programs! {
    /// Academics (specialty required).
    Academics = "Academics", Mental, 3, None, [];
    /// Administration.
    Administration = "Administration", Mental, 3, None, [];
    /// Athletics.
    Athletics = "Athletics", Physical, 4, None, [Balance];
    /// Artistry (+3 TN per Inspiration point, L824).
    Artistry = "Artistry", Mental, 3, None, [];
    /// Boating.
    Boating = "Boating", Physical, 3, None, [];
    /// Brawling (also "Wrestling").
    Brawling = "Brawling", Physical, 4, None, [];
    /// Carousing.
    Carousing = "Carousing", Social, 4, Some((2, "Core Social (genteel)")), [ReverseAppearance];
    /// Command.
    Command = "Command", Social, 3, None, [Voice];
    /// Compose (+3 TN per Inspiration point, L829).
    Compose = "Compose", Mental, 3, None, [];
    /// Conceal.
    Conceal = "Conceal", Mental, 4, None, [];
    /// Craft.
    Craft = "Craft", Mental, 3, Some((2, "advanced crafts")), [];
    /// Dancing.
    Dancing = "Dancing", Physical, 4, Some((2, "formal dances")), [Balance];
    /// Dirty Tricks.
    DirtyTricks = "Dirty Tricks", Mental, 4, None, [];
    /// Disguise (its own Appearance/Voice rule, L836).
    Disguise = "Disguise", Social, 3, None, [];
    /// Drive Carriage.
    DriveCarriage = "Drive Carriage", Physical, 3, None, [];
    /// Etiquette.
    Etiquette = "Etiquette", Social, 4, Some((2, "a Core Social variant that does not match")), [Appearance];
    /// Familiarity.
    Familiarity = "Familiarity", Mental, 3, None, [];
    /// Fashion.
    Fashion = "Fashion", Social, 3, None, [];
    /// Fencing (a specialty per weapon class).
    Fencing = "Fencing", Physical, 3, None, [];
    /// Firearms (Aiming is Fine Motor Sensitive, L350).
    Firearms = "Firearms", Physical, 4, None, [];
    /// Gaming.
    Gaming = "Gaming", Mental, 4, None, [];
    /// Host(ess).
    Host = "Host(ess)", Social, 3, None, [];
    /// Intimidate.
    Intimidate = "Intimidate", Social, 4, None, [];
    /// Intrigue.
    Intrigue = "Intrigue", Mental, 4, None, [];
    /// Labor.
    Labor = "Labor", Physical, 4, Some((2, "Core Social (genteel)")), [ReverseAppearance];
    /// Mechanics (specialties include robot repair).
    Mechanics = "Mechanics", Mental, 2, None, [FineMotor];
    /// Navigation.
    Navigation = "Navigation", Mental, 3, None, [];
    /// Observation.
    Observation = "Observation", Mental, 4, None, [];
    /// Offhand Fighting.
    OffhandFighting = "Offhand Fighting", Physical, 2, None, [];
    /// Oration.
    Oration = "Oration", Social, 4, None, [Voice];
    /// Orienteering.
    Orienteering = "Orienteering", Mental, 3, None, [];
    /// Perform.
    Perform = "Perform", Social, 3, None, [];
    /// Persuasion (usually Appearance; specialties Haggle, Seduce, Cajole, Trickery).
    Persuasion = "Persuasion", Social, 4, None, [Appearance];
    /// Profession.
    Profession = "Profession", Mental, 3, None, [];
    /// Programming (no Inspiration Roll).
    Programming = "Programming", Mental, 0, None, [];
    /// Riding.
    Riding = "Riding", Physical, 4, None, [Balance];
    /// Sailing.
    Sailing = "Sailing", Mental, 3, None, [];
    /// Sleight of Hand.
    SleightOfHand = "Sleight of Hand", Physical, 3, None, [FineMotor];
    /// Sneak (also "Stealth").
    Sneak = "Sneak", Physical, 3, None, [];
    /// Strategy.
    Strategy = "Strategy", Mental, 3, None, [];
    /// Tracking.
    Tracking = "Tracking", Mental, 3, None, [];
    /// Wilderness Lore.
    WildernessLore = "Wilderness Lore", Mental, 3, None, [];
}

impl Program {
    /// TN per Inspiration point spent on an Inspiration Roll: 3 for Artistry and Compose
    /// (L824, L829, L1455), otherwise 2 (L807, L1212).
    ///
    /// ```
    /// use dice_robots_and_rapiers::Program;
    /// assert_eq!(Program::Artistry.inspiration_tn_per_point(), 3);
    /// assert_eq!(Program::Fencing.inspiration_tn_per_point(), 2);
    /// ```
    pub const fn inspiration_tn_per_point(self) -> u8 {
        match self {
            Program::Artistry | Program::Compose => 3,
            _ => 2,
        }
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Program {
    type Err = Error;
    /// The list's names (case and spacing ignored) and the aliases of A44.
    fn from_str(s: &str) -> Result<Self, Error> {
        let n = normalize(s);
        if let Some(p) = Program::ALL.into_iter().find(|p| normalize(p.name()) == n) {
            return Ok(p);
        }
        Ok(match n.as_str() {
            "host" | "hostess" => Program::Host,
            "stealth" => Program::Sneak,
            "entertainment" => Program::Perform,
            "wrestling" => Program::Brawling,
            "fighting" => Program::Fencing,
            "oratory" => Program::Oration,
            "robotrepair" | "repairrobot" | "machinery" => Program::Mechanics,
            "offhandweapon" | "offhandweaponprogram" => Program::OffhandFighting,
            "intimidation" => Program::Intimidate,
            "persuade" | "cajole" | "seduction" | "seduce" | "haggle" | "trickery" => {
                Program::Persuasion
            }
            _ => {
                return Err(Error::UnknownName {
                    kind: "program",
                    text: s.to_string(),
                });
            }
        })
    }
}
