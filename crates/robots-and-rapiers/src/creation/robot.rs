//! A robot as designed (steps 1-10 of L409-475) and its validation: spaces, attribute limits,
//! power, programs, traits and accessories, each broken rule a [`CreationError`] that names
//! it.

use core::fmt;

use super::accessories::Accessory;
use super::advancement::RoleAwareness;
use super::error::CreationError;
use super::personality::{PersonalityTrait, check_traits};
use super::programs::{CorePrograms, Programs, RoleProgram};
use super::rules::CreationRules;
use super::tables::{AnthropoidClass, BodyType, Size, SocialAttributes, Vocalization};

/// The six primary attributes, each 1-8 at 1 Design Point a point (L427-432, L599-650).
///
/// ```
/// use dice_robots_and_rapiers::creation::PrimaryAttributes;
/// let a = PrimaryAttributes { force: 4, durability: 5, articulation: 6, locomotion: 5,
///     processor: 6, memory: 4 };
/// assert_eq!(a.design_points(), 30);
/// assert_eq!(a.spaces(), 2 * 9 + 11); // Mass 2 a point, Mobility 1, Mental 0
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PrimaryAttributes {
    /// Force (Mass: 2 Spaces a point).
    pub force: u8,
    /// Durability (Mass), capped by Body Type.
    pub durability: u8,
    /// Articulation (Mobility: 1 Space a point).
    pub articulation: u8,
    /// Locomotion (Mobility).
    pub locomotion: u8,
    /// Processor (Mental: no Spaces).
    pub processor: u8,
    /// Memory (Mental); free program levels are twice it.
    pub memory: u8,
}

impl PrimaryAttributes {
    fn named(&self) -> [(&'static str, u8); 6] {
        [
            ("Force", self.force),
            ("Durability", self.durability),
            ("Articulation", self.articulation),
            ("Locomotion", self.locomotion),
            ("Processor", self.processor),
            ("Memory", self.memory),
        ]
    }

    /// Design Points: one a point (L429).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::PrimaryAttributes;
    /// let ones = PrimaryAttributes { force: 1, durability: 1, articulation: 1, locomotion: 1, processor: 1, memory: 1 };
    /// assert_eq!(ones.design_points(), 6);
    /// ```
    pub fn design_points(&self) -> u32 {
        self.named().iter().map(|&(_, v)| u32::from(v)).sum()
    }

    /// Spaces: 2 per Mass point, 1 per Mobility point (L430-432, L567-571).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::PrimaryAttributes;
    /// let a = PrimaryAttributes { force: 1, durability: 2, articulation: 3, locomotion: 4, processor: 8, memory: 8 };
    /// assert_eq!(a.spaces(), 6 + 7);
    /// ```
    pub fn spaces(&self) -> u32 {
        2 * (u32::from(self.force) + u32::from(self.durability))
            + u32::from(self.articulation)
            + u32::from(self.locomotion)
    }
}

impl fmt::Display for PrimaryAttributes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Force {}, Durability {}, Articulation {}, Locomotion {}, Processor {}, Memory {}",
            self.force,
            self.durability,
            self.articulation,
            self.locomotion,
            self.processor,
            self.memory
        )
    }
}

/// The three perception sensors, bought at 0-4 (A6) for 1 Design Point a level and no Spaces
/// (L434-438, L652-699); level 5 only by an Advanced accessory.
///
/// ```
/// use dice_robots_and_rapiers::creation::Sensors;
/// let s = Sensors { visual: 3, audio: 3, tactile: 2 };
/// assert_eq!(s.design_points(), 8);
/// assert_eq!(s.perception(), 6); // Visual + Audio (L658)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sensors {
    /// Visual Sensors.
    pub visual: u8,
    /// Audio Sensors.
    pub audio: u8,
    /// Tactile Sensors.
    pub tactile: u8,
}

impl Sensors {
    /// Design Points: one a level.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Sensors;
    /// assert_eq!(Sensors { visual: 4, audio: 4, tactile: 4 }.design_points(), 12);
    /// ```
    pub fn design_points(&self) -> u32 {
        u32::from(self.visual) + u32::from(self.audio) + u32::from(self.tactile)
    }

    /// General Perception: Visual + Audio (L658).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Sensors;
    /// assert_eq!(Sensors { visual: 4, audio: 3, tactile: 1 }.perception(), 7);
    /// ```
    pub fn perception(&self) -> u8 {
        self.visual + self.audio
    }
}

impl fmt::Display for Sensors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Visual {}, Audio {}, Tactile {}",
            self.visual, self.audio, self.tactile
        )
    }
}

/// Every choice of a new robot (the character creation summary, L409-475), to be checked by
/// [`RobotDesign::check`].
///
/// ```
/// use dice_robots_and_rapiers::creation::*;
/// let design = RobotDesign {
///     social: SocialAttributes::new(BodyType::Type3, Vocalization::Type3),
///     size: Size::new(6)?,
///     design_points: 45,
///     attributes: PrimaryAttributes { force: 4, durability: 5, articulation: 6,
///         locomotion: 5, processor: 5, memory: 4 },
///     sensors: Sensors { visual: 3, audio: 3, tactile: 2 },
///     capacitor: 3,
///     slots: 2,
///     tapestry: RoleAwareness::STARTING,
///     core: CorePrograms::at_creation(4, 3, 3, 10)?,
///     programs: (0..9).map(|i| RoleProgram::new(format!("P{i}"), Core::ALL[i % 3], 1))
///         .collect(),
///     traits: vec![PersonalityTrait::role("Loyal to the King", 3)?,
///                  PersonalityTrait::role("Short Temper", 3)?,
///                  PersonalityTrait::role("Afraid of heights", 2)?,
///                  PersonalityTrait::role("Love Margaret", 2)?],
///     accessories: vec![Accessory::HeavyDutyHydraulics],
/// };
/// let robot = design.check(&CreationRules::default())?;
/// assert_eq!(robot.attributes.force, 5);
/// assert_eq!(robot.power, 6); // 3 levels × (10 − 6)/2
/// assert_eq!(robot.spaces_used, 2 * 9 + 11 + 3 + 2);
/// assert_eq!(robot.design_points_spent, 29 + 8 + 3 + 1 + 2); // 9 levels, 8 free
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RobotDesign {
    /// Body Type and Vocalization as rolled or chosen, before any accessory (Types 0-4).
    pub social: SocialAttributes,
    /// Size.
    pub size: Size,
    /// Design Points available (rolled by [`DesignPointsRoll`](super::DesignPointsRoll), or
    /// given).
    pub design_points: u32,
    /// The six primary attributes as bought (before accessories).
    pub attributes: PrimaryAttributes,
    /// The sensors as bought (before accessories).
    pub sensors: Sensors,
    /// Capacitor levels: 1 DP and 1 Space each (L440-444).
    pub capacitor: u32,
    /// Slots: 1 Space each, no DP (L446-449).
    pub slots: u32,
    /// Role and Self Awareness (Role 10 for a new robot; less for an "experienced" one, A35).
    pub tapestry: RoleAwareness,
    /// Core Programs, as totals (2 + the share of the Role Score).
    pub core: CorePrograms,
    /// Role Programs.
    pub programs: Vec<RoleProgram>,
    /// Personality Traits (Role-related at creation).
    pub traits: Vec<PersonalityTrait>,
    /// Accessories, applied in this order (a prerequisite comes before what needs it).
    pub accessories: Vec<Accessory>,
}

/// A design that passed [`RobotDesign::check`], with what follows from it.
///
/// ```
/// # use dice_robots_and_rapiers::creation::Robot;
/// fn describe(robot: &Robot) -> String { robot.to_string() }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Robot {
    /// The design as given.
    pub design: RobotDesign,
    /// Body Type after accessories (Syntheskin makes it 5).
    pub body: BodyType,
    /// Vocalization after accessories.
    pub vocalization: Vocalization,
    /// Anthropoid Class after accessories (A34: clamped at 0).
    pub anthropoid_class: AnthropoidClass,
    /// Primary attributes after accessories.
    pub attributes: PrimaryAttributes,
    /// Sensors after accessories.
    pub sensors: Sensors,
    /// Power Points: Capacitor levels and Reserve Capacitors (L442-444, L970).
    pub power: u32,
    /// Generators installed (2 Power a day each, L972).
    pub generators: u32,
    /// Spaces used.
    pub spaces_used: u32,
    /// Slots taken by accessories.
    pub slots_used: u32,
    /// Design Points spent.
    pub design_points_spent: u32,
    /// The Role Programs, checked.
    pub programs: Programs,
}

impl Robot {
    /// Design Points left unspent (the rules do not require spending all of them).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::Robot;
    /// fn spare(robot: &Robot) -> u32 { robot.unspent_design_points() }
    /// ```
    pub fn unspent_design_points(&self) -> u32 {
        self.design
            .design_points
            .saturating_sub(self.design_points_spent)
    }
}

impl fmt::Display for Robot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Body {}, Vocalization {}, {}, {}",
            self.body, self.vocalization, self.anthropoid_class, self.design.size
        )?;
        writeln!(f, "{}", self.attributes)?;
        writeln!(f, "{}", self.sensors)?;
        writeln!(
            f,
            "Power {}, Spaces {}/{}, Slots {}/{}, Design Points {}/{}",
            self.power,
            self.spaces_used,
            self.design.size.max_spaces(),
            self.slots_used,
            self.design.slots,
            self.design_points_spent,
            self.design.design_points
        )?;
        writeln!(f, "{}, {}", self.design.tapestry, self.design.core)?;
        write!(f, "{}", self.programs)
    }
}

impl RobotDesign {
    /// Spaces the design uses: Mass 2 a point, Mobility 1, Capacitor 1 a level, Slot 1
    /// (L567-571).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::*;
    /// fn spaces(d: &RobotDesign) -> u32 { d.spaces_used() }
    /// ```
    pub fn spaces_used(&self) -> u32 {
        self.attributes.spaces() + self.capacitor + self.slots
    }

    /// Checks every rule of creation, in the book's order, and returns the first broken one:
    ///
    /// 1. social attributes chosen or rolled, Types 0-4 (A2; L503 with
    ///    [`CreationRules::vocalization_range`]);
    /// 2. primary attributes 1-8 (L429) and Durability within the Body Type's cap (L615-618);
    /// 3. sensors from [`CreationRules::sensor_minimum`] to 4 (L436, A6);
    /// 4. Spaces at most 6 + 6·Size (L567), and within the band if
    ///    [`CreationRules::spaces_band_minimum`] (L561, A32);
    /// 5. Role + Self Awareness (L416-418) and Core Programs = 2 each + the Role Score, at
    ///    least 1 each (L451-455);
    /// 6. Role Programs ([`Programs::new`]);
    /// 7. Role-related traits rated 1-3 adding up to the Role Score (L466-470);
    /// 8. accessories: each at most once unless repeatable, prerequisites met, enough Slots
    ///    (L910-1004);
    /// 9. Design Points spent within those available (attributes, sensors, Capacitor,
    ///    program levels beyond 2 × Memory, accessories).
    ///
    /// Free program levels come from the Memory bought (step 3 of L409-475), not from an
    /// Expanded Memory chosen later in step 10.
    ///
    /// # Errors
    /// The first broken rule, as a [`CreationError`] naming it.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::*;
    /// # let design = RobotDesign {
    /// #     social: SocialAttributes::new(BodyType::Type1, Vocalization::Type2),
    /// #     size: Size::new(5)?, design_points: 40,
    /// #     attributes: PrimaryAttributes { force: 3, durability: 4, articulation: 4, locomotion: 4, processor: 4, memory: 4 },
    /// #     sensors: Sensors { visual: 2, audio: 2, tactile: 2 }, capacitor: 2, slots: 3,
    /// #     tapestry: RoleAwareness::STARTING, core: CorePrograms::at_creation(4, 3, 3, 10)?,
    /// #     programs: (0..9).map(|i| RoleProgram::new(format!("P{i}"), Core::Mental, 0)).collect(),
    /// #     traits: vec![PersonalityTrait::role("Timid", 3)?, PersonalityTrait::role("Greedy", 3)?,
    /// #                  PersonalityTrait::role("Gossip", 3)?, PersonalityTrait::role("Punctual", 1)?],
    /// #     accessories: vec![Accessory::Syntheskin],
    /// # };
    /// // A Body Type 1 robot with Durability 5: above its casing's cap of 4.
    /// let mut d = design.clone();
    /// d.attributes.durability = 5;
    /// assert_eq!(d.check(&CreationRules::default()).unwrap_err(),
    ///     CreationError::DurabilityCap { durability: 5, body: 1, max: 4 });
    /// // Syntheskin over Type 1 makes the body Type 5.
    /// assert_eq!(design.check(&CreationRules::default())?.body, BodyType::Type5);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn check(&self, rules: &CreationRules) -> Result<Robot, CreationError> {
        // 1. social attributes.
        let social = SocialAttributes::choose(self.social.body, self.social.vocalization, rules)?;
        // 2. primary attributes.
        for (attribute, value) in self.attributes.named() {
            if !(1..=8).contains(&value) {
                return Err(CreationError::PrimaryAttribute { attribute, value });
            }
        }
        let cap = social.body.durability_max();
        if self.attributes.durability > cap {
            return Err(CreationError::DurabilityCap {
                durability: self.attributes.durability,
                body: social.body.value(),
                max: cap,
            });
        }
        // 3. sensors.
        for (sensor, value) in [
            ("Visual", self.sensors.visual),
            ("Audio", self.sensors.audio),
            ("Tactile", self.sensors.tactile),
        ] {
            if !(rules.sensor_minimum..=4).contains(&value) {
                return Err(CreationError::Sensor {
                    sensor,
                    value,
                    min: rules.sensor_minimum,
                });
            }
        }
        // 4. spaces.
        let used = self.spaces_used();
        let (min, max) = self.size.spaces();
        if used > max {
            return Err(CreationError::TooManySpaces {
                used,
                size: self.size.value(),
                max,
            });
        }
        if rules.spaces_band_minimum && used < min {
            return Err(CreationError::TooFewSpaces {
                used,
                size: self.size.value(),
                min,
            });
        }
        // 5. Role and Core Programs.
        let role = self.tapestry.role();
        self.core.check(role)?;
        // 6. Role Programs.
        let programs = Programs::new(self.programs.clone(), rules)?;
        // 7. traits.
        check_traits(&self.traits, role)?;
        // 8. accessories.
        let applied = self.apply_accessories(social)?;
        if applied.slots > self.slots {
            return Err(CreationError::TooFewSlots {
                needed: applied.slots,
                slots: self.slots,
            });
        }
        // 9. Design Points.
        let spent = self.attributes.design_points()
            + self.sensors.design_points()
            + self.capacitor
            + programs.design_points(self.attributes.memory)
            + applied.design_points;
        if spent > self.design_points {
            return Err(CreationError::TooManyDesignPoints {
                spent,
                available: self.design_points,
            });
        }
        let class = applied.body.value() + applied.vocalization.value();
        let anthropoid_class = AnthropoidClass::new(class.min(10))?.reduced(applied.class_penalty);
        Ok(Robot {
            design: self.clone(),
            body: applied.body,
            vocalization: applied.vocalization,
            anthropoid_class,
            attributes: applied.attributes,
            sensors: applied.sensors,
            power: self.size.capacitor_power(self.capacitor) + applied.reserve_power,
            generators: applied.generators,
            spaces_used: used,
            slots_used: applied.slots,
            design_points_spent: spent,
            programs,
        })
    }

    fn apply_accessories(&self, social: SocialAttributes) -> Result<Applied, CreationError> {
        use Accessory::*;
        let mut a = Applied {
            body: social.body,
            vocalization: social.vocalization,
            attributes: self.attributes,
            sensors: self.sensors,
            reserve_power: 0,
            generators: 0,
            slots: 0,
            design_points: 0,
            class_penalty: 0,
        };
        let need = |accessory: Accessory, ok: bool, requirement: &'static str| {
            if ok {
                Ok(())
            } else {
                Err(CreationError::AccessoryRequirement {
                    accessory: accessory.name(),
                    requirement,
                })
            }
        };
        for (i, &acc) in self.accessories.iter().enumerate() {
            acc.check()?;
            let before = &self.accessories[..i];
            if !acc.repeatable() && before.contains(&acc) {
                return Err(CreationError::AccessoryTwice {
                    accessory: acc.name(),
                });
            }
            a.slots += acc.slots();
            a.design_points += acc.design_points(self.size);
            a.class_penalty = a.class_penalty.saturating_add(acc.anthropoid_penalty());
            let s = &mut a.sensors;
            let t = &mut a.attributes;
            match acc {
                Syntheskin => {
                    need(
                        acc,
                        matches!(a.body, BodyType::Type1 | BodyType::Type2),
                        "only over a Body Type 1 or 2 casing",
                    )?;
                    a.body = BodyType::Type5;
                }
                ImprovedVocalization => {
                    need(
                        acc,
                        a.vocalization < Vocalization::Type4,
                        "upgrades Vocalization to a maximum of 4",
                    )?;
                    a.vocalization = Vocalization::ALL[usize::from(a.vocalization.value()) + 1];
                }
                AdvancedVocalization => {
                    need(
                        acc,
                        a.vocalization == Vocalization::Type4,
                        "needs Type 4 Vocalization",
                    )?;
                    a.vocalization = Vocalization::Type5;
                }
                HeavyDutyHydraulics => t.force += 1,
                HeavyDutyInsulation => t.durability += 1,
                ImprovedMotivators => t.articulation += 1,
                ImprovedGyroscope => t.locomotion += 1,
                AuxiliaryCoProcessor => t.processor += 1,
                ExpandedMemory => t.memory += 1,
                ImprovedVisualSensors => {
                    need(
                        acc,
                        s.visual < 4,
                        "upgrades Visual Sensors to a maximum of 4",
                    )?;
                    s.visual += 1;
                }
                ImprovedAuditorySensors => {
                    need(acc, s.audio < 4, "upgrades Audio Sensors to a maximum of 4")?;
                    s.audio += 1;
                }
                ImprovedTactileSensors => {
                    need(
                        acc,
                        s.tactile < 4,
                        "upgrades Tactile Sensors to a maximum of 4",
                    )?;
                    s.tactile += 1;
                }
                AdvancedVisualSensors => {
                    need(acc, s.visual == 4, "needs Level 4 Visual Sensors")?;
                    s.visual = 5;
                }
                AdvancedAuditorySensors => {
                    need(acc, s.audio == 4, "needs Level 4 Audio Sensors")?;
                    s.audio = 5;
                }
                AdvancedTactileSensors => {
                    need(acc, s.tactile == 4, "needs Level 4 Tactile Sensors")?;
                    s.tactile = 5;
                }
                AdvancedOlfactorySensors => need(
                    acc,
                    before.contains(&BasicOlfactorySensors),
                    "needs Basic Olfactory Sensors",
                )?,
                AdvancedTasteSensors => need(
                    acc,
                    before.contains(&BasicTasteSensors) && before.contains(&BasicOlfactorySensors),
                    "needs Basic Taste Sensors and Basic Olfactory Sensors",
                )?,
                ReserveCapacitor => a.reserve_power += self.size.reserve_capacitor_power(),
                Generator => a.generators += 1,
                _ => {}
            }
        }
        Ok(a)
    }
}

struct Applied {
    body: BodyType,
    vocalization: Vocalization,
    attributes: PrimaryAttributes,
    sensors: Sensors,
    reserve_power: u32,
    generators: u32,
    slots: u32,
    design_points: u32,
    class_penalty: u8,
}
