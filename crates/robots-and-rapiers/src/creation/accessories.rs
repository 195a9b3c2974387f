//! Advanced Systems and Accessories (L910-1004): Slots, Design Points, limits and effects.

use core::fmt;

use super::error::CreationError;
use super::tables::Size;

/// One Accessory installed in the robot's Slots (L918-1004).
///
/// ```
/// use dice_robots_and_rapiers::creation::{Accessory, Size};
/// let size = Size::new(6)?;
/// assert_eq!(Accessory::Syntheskin.slots(), 3);
/// assert_eq!(Accessory::Syntheskin.design_points(size), 5);
/// assert_eq!(Accessory::Wings.design_points(size), 6); // "Design Points equal to Size"
/// assert_eq!(Accessory::MemoryChip { design_points: 2 }.to_string(), "Memory Chip (2 DP)");
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Accessory {
    /// Body Type becomes 5; only over Body Type 1 or 2 (L920-922). 3 Slots, 5 DP.
    Syntheskin,
    /// Vocalization +1, to at most 4 (L924). 1 Slot, 1 DP.
    ImprovedVocalization,
    /// Vocalization 4 → 5 (L926). 1 Slot, 4 DP.
    AdvancedVocalization,
    /// Force +1 (L930). 1 Slot, 2 DP.
    HeavyDutyHydraulics,
    /// Durability +1, not subject to the Body Type cap (L932). 1 Slot, 2 DP.
    HeavyDutyInsulation,
    /// Articulation +1 (L934). 1 Slot, 1 DP.
    ImprovedMotivators,
    /// Locomotion +1 (L936). 1 Slot, 1 DP.
    ImprovedGyroscope,
    /// Processor +1 (L938). 1 Slot, 1 DP.
    AuxiliaryCoProcessor,
    /// Memory +1 (L940). 1 Slot, 1 DP.
    ExpandedMemory,
    /// Visual Sensors +1, to at most 4; any number (L944). 1 Slot, 1 DP.
    ImprovedVisualSensors,
    /// Visual 4 → 5 (L946). 1 Slot, 2 DP.
    AdvancedVisualSensors,
    /// Audio Sensors +1, to at most 4; any number (L950). 1 Slot, 1 DP.
    ImprovedAuditorySensors,
    /// Audio 4 → 5 (L952). 1 Slot, 2 DP.
    AdvancedAuditorySensors,
    /// Tactile Sensors +1, to at most 4; any number (L954). 1 Slot, 1 DP.
    ImprovedTactileSensors,
    /// Tactile 4 → 5 (L956). 1 Slot, 2 DP.
    AdvancedTactileSensors,
    /// 3 dice of smell (L958). 1 Slot, 1 DP.
    BasicOlfactorySensors,
    /// Needs Basic Olfactory (L960). 1 Slot, 2 DP.
    AdvancedOlfactorySensors,
    /// 2 dice of taste (L962). 1 Slot, 1 DP.
    BasicTasteSensors,
    /// Needs Basic Taste and Basic Olfactory (L964). 1 Slot, 2 DP.
    AdvancedTasteSensors,
    /// (10 − Size)/2 Power, at least 1; any number (L970). 1 Slot, 1 DP.
    ReserveCapacitor,
    /// 2 Power a day for 30 days; any number (L972). 4 Slots, 4 DP.
    Generator,
    /// One Program at 2 levels per Design Point, 1-3 DP (L976). 1 Slot.
    MemoryChip {
        /// Design Points spent, 1-3.
        design_points: u8,
    },
    /// Three level-1 Programs (L978). 2 Slots, 2 DP.
    ProgramPack,
    /// Armor against physical damage; Anthropoid Class −2 (L982). 3 Slots, 6 DP.
    ArmorPlating,
    /// About 2 cubic feet; any number (L984). 1 Slot, 1 DP.
    InternalStorage,
    /// Radio, 5 miles (L986). 2 Slots, 2 DP.
    CommunicationsArray,
    /// Up to +5 dice to Navigation or Orienteering (L988-992). 1 Slot, 1 DP.
    GpsNavigation,
    /// Tools and an arc welder (L996). 1 Slot, 1 DP.
    RetractableToolModule,
    /// Cinematic: hover and leap (L1002). 2 Slots, DP equal to Size.
    AntiGravBoosters,
    /// Cinematic: glide; Anthropoid Class −2 (L1004). 2 Slots, DP equal to Size.
    Wings,
}

impl Accessory {
    /// The accessory's name as the rulebook prints it.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::Accessory;
    /// assert_eq!(Accessory::AuxiliaryCoProcessor.name(), "Auxiliary Co-processor");
    /// ```
    pub const fn name(self) -> &'static str {
        use Accessory::*;
        match self {
            Syntheskin => "Syntheskin",
            ImprovedVocalization => "Improved Vocalization",
            AdvancedVocalization => "Advanced Vocalization",
            HeavyDutyHydraulics => "Heavy Duty Hydraulics",
            HeavyDutyInsulation => "Heavy Duty Insulation",
            ImprovedMotivators => "Improved Motivators",
            ImprovedGyroscope => "Improved Gyroscope",
            AuxiliaryCoProcessor => "Auxiliary Co-processor",
            ExpandedMemory => "Expanded Memory",
            ImprovedVisualSensors => "Improved Visual Sensors",
            AdvancedVisualSensors => "Advanced Visual Sensors",
            ImprovedAuditorySensors => "Improved Auditory Sensors",
            AdvancedAuditorySensors => "Advanced Auditory Sensors",
            ImprovedTactileSensors => "Improved Tactile Sensors",
            AdvancedTactileSensors => "Advanced Tactile Sensors",
            BasicOlfactorySensors => "Basic Olfactory Sensors",
            AdvancedOlfactorySensors => "Advanced Olfactory Sensors",
            BasicTasteSensors => "Basic Taste Sensors",
            AdvancedTasteSensors => "Advanced Taste Sensors",
            ReserveCapacitor => "Reserve Capacitor",
            Generator => "Generator",
            MemoryChip { .. } => "Memory Chip",
            ProgramPack => "Program Pack",
            ArmorPlating => "Armor Plating",
            InternalStorage => "Internal Storage",
            CommunicationsArray => "Communications Array",
            GpsNavigation => "GPS Navigation",
            RetractableToolModule => "Retractable Tool Module",
            AntiGravBoosters => "AntiGrav Boosters",
            Wings => "Wings",
        }
    }

    /// Slots the accessory takes.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::Accessory;
    /// assert_eq!(Accessory::Generator.slots(), 4);
    /// assert_eq!(Accessory::ExpandedMemory.slots(), 1);
    /// ```
    pub const fn slots(self) -> u32 {
        use Accessory::*;
        match self {
            Syntheskin | ArmorPlating => 3,
            Generator => 4,
            ProgramPack | CommunicationsArray | AntiGravBoosters | Wings => 2,
            _ => 1,
        }
    }

    /// Design Points at creation (and the Difficulty to install it in play, L916) for a
    /// robot of `size` (AntiGrav Boosters and Wings cost its Size).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Accessory, Size};
    /// let s = Size::new(5)?;
    /// assert_eq!(Accessory::ArmorPlating.design_points(s), 6);
    /// assert_eq!(Accessory::AntiGravBoosters.design_points(s), 5);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub const fn design_points(self, size: Size) -> u32 {
        use Accessory::*;
        match self {
            Syntheskin => 5,
            AdvancedVocalization | Generator => 4,
            HeavyDutyHydraulics
            | HeavyDutyInsulation
            | AdvancedVisualSensors
            | AdvancedAuditorySensors
            | AdvancedTactileSensors
            | AdvancedOlfactorySensors
            | AdvancedTasteSensors
            | ProgramPack
            | CommunicationsArray => 2,
            ArmorPlating => 6,
            MemoryChip { design_points } => design_points as u32,
            AntiGravBoosters | Wings => size.value() as u32,
            _ => 1,
        }
    }

    /// Whether it "Can be taken multiple times" (L944-984). Memory Chips are not limited.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::Accessory;
    /// assert!(Accessory::ReserveCapacitor.repeatable());
    /// assert!(!Accessory::Syntheskin.repeatable());
    /// ```
    pub const fn repeatable(self) -> bool {
        use Accessory::*;
        matches!(
            self,
            ImprovedVisualSensors
                | ImprovedAuditorySensors
                | ImprovedTactileSensors
                | ReserveCapacitor
                | Generator
                | MemoryChip { .. }
                | ProgramPack
                | InternalStorage
        )
    }

    /// Anthropoid Class lost (Armor Plating and Wings, −2 each, L982, L1004).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::Accessory;
    /// assert_eq!(Accessory::Wings.anthropoid_penalty(), 2);
    /// assert_eq!(Accessory::GpsNavigation.anthropoid_penalty(), 0);
    /// ```
    pub const fn anthropoid_penalty(self) -> u8 {
        match self {
            Accessory::ArmorPlating | Accessory::Wings => 2,
            _ => 0,
        }
    }

    /// Checks the accessory's own value (a Memory Chip of 1-3 DP).
    ///
    /// # Errors
    /// [`CreationError::MemoryChip`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::Accessory;
    /// assert!(Accessory::MemoryChip { design_points: 4 }.check().is_err());
    /// ```
    pub fn check(self) -> Result<(), CreationError> {
        match self {
            Accessory::MemoryChip { design_points } if !(1..=3).contains(&design_points) => {
                Err(CreationError::MemoryChip { design_points })
            }
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Accessory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Accessory::MemoryChip { design_points } => {
                write!(f, "Memory Chip ({design_points} DP)")
            }
            a => f.pad(a.name()),
        }
    }
}
