//! Combat (digest §4; rulebook L341–351, L2198–2463): the actions table, weapons and armour
//! as data, the damage procedure, knockdown, firearms' range and stray shots.

use std::fmt;

use dice_core::{Comparison, Die, Dist, Exact, Pool, Rng, Roll, SuccessPool};

use crate::attribute::{Attribute, Program};
use crate::damage::{DamageKind, DurabilitySave};
use crate::error::Error;
use crate::rules::Rules;
use crate::save::{SaveOutcome, SavingThrow};
use crate::test::check_dice;

/// Action Points an off-hand weapon costs (L347, L2240–2246): 1 on the robot's own turn (the
/// off-hand Test "does not count as his turn"), and a second point for a second defence roll
/// when opposing.
pub const OFF_HAND_AP: u32 = 1;

/// The basic combat actions and sample maneuvers (L341–351, L2212–2331): which Program
/// against which Attribute.
///
/// ```
/// use dice_robots_and_rapiers::{Attribute, CombatAction, Program};
/// assert_eq!(CombatAction::MeleeAttack.test(), (Program::Fencing, Attribute::Articulation));
/// assert_eq!(CombatAction::MeleeDefence.test(), (Program::Fencing, Attribute::Locomotion));
/// assert!(CombatAction::AimFirearm.fine_motor_sensitive());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CombatAction {
    /// Basic Melee Attack: Fencing vs Articulation (L345, L2220).
    MeleeAttack,
    /// Basic Melee Defence: Fencing vs Locomotion (L346, L2230).
    MeleeDefence,
    /// Off-hand weapon: Offhand Fighting (vs the same attributes), +1 AP (L347, L2240).
    OffHandAttack,
    /// Basic Shooting Attack: Firearms vs Perception (L348, L2280).
    Shoot,
    /// Basic Throwing Attack: Athletics vs Perception (L349, L2281).
    Throw,
    /// Aiming a firearm: Firearms vs Processor, Fine Motor Sensitive (L350, L2287).
    AimFirearm,
    /// Aiming a thrown weapon: Athletics vs Processor (L2288).
    AimThrown,
    /// Dodging firearms: Athletics vs Locomotion (L351, L2313).
    Dodge,
    /// A powerful swing: Fencing vs Force, successes to the Durability TN (L2256).
    PowerfulSwing,
    /// Mud in the Eye: Dirty Tricks vs Articulation → Perception Save (L2323).
    MudInTheEye,
    /// Cloak Tricks: Dirty Tricks (or Fencing) vs Articulation (L2325).
    CloakTricks,
    /// Leg Sweep: Wrestling (Brawling) vs Locomotion (L2327).
    LegSweep,
    /// Corp-a-Corp: Brawling vs Force, rolled over (L2329).
    CorpACorp,
    /// Ridicule: Oration vs Processor → Processor Save (L2331).
    Ridicule,
}

impl CombatAction {
    /// Every action in the table.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::CombatAction::ALL.len(), 14);
    /// ```
    pub const ALL: [CombatAction; 14] = [
        CombatAction::MeleeAttack,
        CombatAction::MeleeDefence,
        CombatAction::OffHandAttack,
        CombatAction::Shoot,
        CombatAction::Throw,
        CombatAction::AimFirearm,
        CombatAction::AimThrown,
        CombatAction::Dodge,
        CombatAction::PowerfulSwing,
        CombatAction::MudInTheEye,
        CombatAction::CloakTricks,
        CombatAction::LegSweep,
        CombatAction::CorpACorp,
        CombatAction::Ridicule,
    ];

    /// The usual Program vs Attribute.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attribute, CombatAction, Program};
    /// assert_eq!(CombatAction::Shoot.test(), (Program::Firearms, Attribute::Perception));
    /// ```
    pub const fn test(self) -> (Program, Attribute) {
        use Attribute as A;
        use Program as P;
        match self {
            CombatAction::MeleeAttack => (P::Fencing, A::Articulation),
            CombatAction::MeleeDefence => (P::Fencing, A::Locomotion),
            CombatAction::OffHandAttack => (P::OffhandFighting, A::Articulation),
            CombatAction::Shoot => (P::Firearms, A::Perception),
            CombatAction::Throw => (P::Athletics, A::Perception),
            CombatAction::AimFirearm => (P::Firearms, A::Processor),
            CombatAction::AimThrown => (P::Athletics, A::Processor),
            CombatAction::Dodge => (P::Athletics, A::Locomotion),
            CombatAction::PowerfulSwing => (P::Fencing, A::Force),
            CombatAction::MudInTheEye => (P::DirtyTricks, A::Articulation),
            CombatAction::CloakTricks => (P::DirtyTricks, A::Articulation),
            CombatAction::LegSweep => (P::Brawling, A::Locomotion),
            CombatAction::CorpACorp => (P::Brawling, A::Force),
            CombatAction::Ridicule => (P::Oration, A::Processor),
        }
    }

    /// Whether the action is Fine Motor Sensitive (aiming a firearm unbraced, L2287, L2294).
    ///
    /// ```
    /// assert!(!dice_robots_and_rapiers::CombatAction::Shoot.fine_motor_sensitive());
    /// ```
    pub const fn fine_motor_sensitive(self) -> bool {
        matches!(self, CombatAction::AimFirearm)
    }

    /// The save the action usually triggers, when it triggers one.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attribute, CombatAction};
    /// assert_eq!(CombatAction::MeleeAttack.save(), Some(Attribute::Durability));
    /// assert_eq!(CombatAction::CorpACorp.save(), None);
    /// ```
    pub const fn save(self) -> Option<Attribute> {
        match self {
            CombatAction::MeleeAttack
            | CombatAction::OffHandAttack
            | CombatAction::Shoot
            | CombatAction::Throw => Some(Attribute::Durability),
            CombatAction::MudInTheEye | CombatAction::CloakTricks => Some(Attribute::Perception),
            CombatAction::LegSweep => Some(Attribute::Locomotion),
            CombatAction::Ridicule => Some(Attribute::Processor),
            _ => None,
        }
    }
}

impl fmt::Display for CombatAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, a) = self.test();
        write!(f, "{p} vs {a}")
    }
}

/// The Melee Weapon Table (L2341–2360).
///
/// ```
/// use dice_robots_and_rapiers::{DamageKind, MeleeWeapon};
/// let w = MeleeWeapon::MonoGreatSword;
/// assert_eq!((w.reach(), w.difficulty(), w.damage()), (4, 3, 5));
/// assert_eq!(w.damage_kind(), DamageKind::Malfunctions { per_failed_die: 3 });
/// assert_eq!(MeleeWeapon::EnergyPike.damage_kind(), DamageKind::Emp { loss_per_failed_die: 2 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MeleeWeapon {
    /// Reach 0, damage −2, 1 malfunction per failed die.
    RobotFist,
    /// Reach 1, damage −2, 1 malfunction per failed die (also a pistol used as a club).
    SmallClub,
    /// Reach 2, Difficulty +1, damage 0 (also a musket used as a club).
    MediumClub,
    /// Reach 3, Difficulty +2, damage +2.
    LargeClub,
    /// Reach 1, damage −1.
    VibroDagger,
    /// Reach 3, damage 0: the baseline.
    SonicRapier,
    /// Reach 2, Difficulty +1, damage +2.
    VibroCutlass,
    /// Reach 3, Difficulty +2, damage +4.
    MonoSword,
    /// Reach 4, Difficulty +3, damage +5, 3 malfunctions per failed die.
    MonoGreatSword,
    /// Reach 4, damage 0, EMP (2 Durability per failed die).
    EnergyPike,
    /// Reach 3, damage −1, EMP.
    BoardingPike,
}

impl MeleeWeapon {
    /// The table's rows.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::MeleeWeapon::ALL.len(), 11);
    /// ```
    pub const ALL: [MeleeWeapon; 11] = [
        MeleeWeapon::RobotFist,
        MeleeWeapon::SmallClub,
        MeleeWeapon::MediumClub,
        MeleeWeapon::LargeClub,
        MeleeWeapon::VibroDagger,
        MeleeWeapon::SonicRapier,
        MeleeWeapon::VibroCutlass,
        MeleeWeapon::MonoSword,
        MeleeWeapon::MonoGreatSword,
        MeleeWeapon::EnergyPike,
        MeleeWeapon::BoardingPike,
    ];

    /// (Reach, Difficulty, Damage).
    const fn stats(self) -> (u32, u32, i32) {
        match self {
            MeleeWeapon::RobotFist => (0, 0, -2),
            MeleeWeapon::SmallClub => (1, 0, -2),
            MeleeWeapon::MediumClub => (2, 1, 0),
            MeleeWeapon::LargeClub => (3, 2, 2),
            MeleeWeapon::VibroDagger => (1, 0, -1),
            MeleeWeapon::SonicRapier => (3, 0, 0),
            MeleeWeapon::VibroCutlass => (2, 1, 2),
            MeleeWeapon::MonoSword => (3, 2, 4),
            MeleeWeapon::MonoGreatSword => (4, 3, 5),
            MeleeWeapon::EnergyPike => (4, 0, 0),
            MeleeWeapon::BoardingPike => (3, 0, -1),
        }
    }
    /// Reach (L2362–2364).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::MeleeWeapon::SonicRapier.reach(), 3);
    /// ```
    pub const fn reach(self) -> u32 {
        self.stats().0
    }
    /// The fixed Difficulty on aggressive and defensive rolls with it (L2366–2368).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::MeleeWeapon::MonoSword.difficulty(), 2);
    /// ```
    pub const fn difficulty(self) -> u32 {
        self.stats().1
    }
    /// The Damage rating: lowers the Durability Save TN (raises it when negative,
    /// L2370–2372).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::MeleeWeapon::RobotFist.damage(), -2);
    /// ```
    pub const fn damage(self) -> i32 {
        self.stats().2
    }
    /// What a failed Durability die does.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, MeleeWeapon};
    /// assert_eq!(MeleeWeapon::SonicRapier.damage_kind(), DamageKind::default());
    /// ```
    pub const fn damage_kind(self) -> DamageKind {
        match self {
            MeleeWeapon::RobotFist | MeleeWeapon::SmallClub => {
                DamageKind::Malfunctions { per_failed_die: 1 }
            }
            MeleeWeapon::MonoGreatSword => DamageKind::Malfunctions { per_failed_die: 3 },
            MeleeWeapon::EnergyPike | MeleeWeapon::BoardingPike => DamageKind::Emp {
                loss_per_failed_die: 2,
            },
            _ => DamageKind::Malfunctions { per_failed_die: 2 },
        }
    }
    /// How its blows land, for knockdown (L555–556, L1886–1887). The table does not say
    /// (A24); this reads the weapon descriptions (L2376–2388): the sonic rapier's point
    /// will "drill through" the casing and the pikes end in "a wide spear tip" (thrusts);
    /// fists and clubs rely "on physical impact", the vibro blades saw with a serrated edge
    /// and the mono swords "rely on the physical impact of the swing" (bashing, cutting or
    /// swinging; the Mono Sword may also thrust — a scene says so with `attack = "thrust"`).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{AttackType, MeleeWeapon};
    /// assert_eq!(MeleeWeapon::SonicRapier.attack_type(), AttackType::Thrust);
    /// assert_eq!(MeleeWeapon::VibroCutlass.attack_type(), AttackType::Bash);
    /// ```
    pub const fn attack_type(self) -> AttackType {
        match self {
            MeleeWeapon::SonicRapier | MeleeWeapon::EnergyPike | MeleeWeapon::BoardingPike => {
                AttackType::Thrust
            }
            _ => AttackType::Bash,
        }
    }
    /// The rulebook's name.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::MeleeWeapon::VibroCutlass.name(), "Vibro Cutlass");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            MeleeWeapon::RobotFist => "Robot Fist",
            MeleeWeapon::SmallClub => "Small Club",
            MeleeWeapon::MediumClub => "Medium Club",
            MeleeWeapon::LargeClub => "Large Club",
            MeleeWeapon::VibroDagger => "Vibro Dagger",
            MeleeWeapon::SonicRapier => "Sonic Rapier",
            MeleeWeapon::VibroCutlass => "Vibro Cutlass",
            MeleeWeapon::MonoSword => "Mono Sword",
            MeleeWeapon::MonoGreatSword => "Mono Great Sword",
            MeleeWeapon::EnergyPike => "Energy Pike",
            MeleeWeapon::BoardingPike => "Boarding Pike",
        }
    }
}

impl fmt::Display for MeleeWeapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The Reach Difficulty on an attack that strikes (L2362–2364): the shorter weapon takes
/// the difference until the range closes; then the longer weapon does, until it opens.
///
/// ```
/// use dice_robots_and_rapiers::reach_difficulty;
/// assert_eq!(reach_difficulty(1, 3, false), 2); // dagger against rapier, at range
/// assert_eq!(reach_difficulty(3, 1, false), 0);
/// assert_eq!(reach_difficulty(3, 1, true), 2);  // closed: the rapier suffers
/// ```
pub fn reach_difficulty(attacker_reach: u32, defender_reach: u32, closed: bool) -> u32 {
    let shorter = attacker_reach < defender_reach;
    let longer = attacker_reach > defender_reach;
    if (shorter && !closed) || (longer && closed) {
        attacker_reach.abs_diff(defender_reach)
    } else {
        0
    }
}

/// A burst's size (L2416): radius 10', 20' or 30'.
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::Burst::Medium.radius_feet(), 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Burst {
    /// 10 feet.
    Small,
    /// 20 feet.
    Medium,
    /// 30 feet.
    Large,
}

impl Burst {
    /// The radius in feet.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Burst::Small.radius_feet(), 10);
    /// ```
    pub const fn radius_feet(self) -> u32 {
        match self {
            Burst::Small => 10,
            Burst::Medium => 20,
            Burst::Large => 30,
        }
    }
}

/// The Firearms Table (L2390–2440). All firearms are EMP (L2270, L2408).
///
/// ```
/// use dice_robots_and_rapiers::{Burst, Firearm};
/// let m = Firearm::Musket;
/// assert_eq!((m.damage(), m.durability_loss(), m.delay(), m.range_increment()), (1, 2, Some(4), 15));
/// assert_eq!(m.shots_per_cell(), 6);
/// assert_eq!(Firearm::HeavyCannon.burst(), Some((Burst::Large, 2)));
/// assert_eq!(Firearm::HeavyMusket.fixed_difficulty(false), 2);
/// assert_eq!(Firearm::HeavyMusket.fixed_difficulty(true), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Firearm {
    /// Small Pistol.
    SmallPistol,
    /// Pistol.
    Pistol,
    /// Heavy Pistol.
    HeavyPistol,
    /// Carbine.
    Carbine,
    /// Musket.
    Musket,
    /// Heavy Musket (Difficulty 2 unless braced).
    HeavyMusket,
    /// Light Cannon.
    LightCannon,
    /// Medium Cannon.
    MediumCannon,
    /// Heavy Cannon.
    HeavyCannon,
    /// Grenade (thrown: Athletics).
    Grenade,
}

impl Firearm {
    /// The table's rows.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::ALL.len(), 10);
    /// ```
    pub const ALL: [Firearm; 10] = [
        Firearm::SmallPistol,
        Firearm::Pistol,
        Firearm::HeavyPistol,
        Firearm::Carbine,
        Firearm::Musket,
        Firearm::HeavyMusket,
        Firearm::LightCannon,
        Firearm::MediumCannon,
        Firearm::HeavyCannon,
        Firearm::Grenade,
    ];

    /// (damage, loss, delay, charge/shot, cell charge, range increment).
    const fn stats(self) -> (i32, u8, Option<u32>, u32, u32, u32) {
        match self {
            Firearm::SmallPistol => (-1, 1, Some(1), 1, 2, 2),
            Firearm::Pistol => (0, 1, Some(2), 1, 8, 5),
            Firearm::HeavyPistol => (0, 2, Some(4), 2, 8, 5),
            Firearm::Carbine => (0, 2, Some(3), 2, 12, 10),
            Firearm::Musket => (1, 2, Some(4), 2, 12, 15),
            Firearm::HeavyMusket => (1, 3, Some(6), 3, 12, 15),
            Firearm::LightCannon => (2, 3, Some(6), 6, 18, 25),
            Firearm::MediumCannon => (3, 3, Some(8), 9, 18, 50),
            Firearm::HeavyCannon => (4, 4, Some(12), 18, 18, 100),
            Firearm::Grenade => (0, 2, None, 2, 2, 5),
        }
    }
    /// Damage rating.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::SmallPistol.damage(), -1);
    /// ```
    pub const fn damage(self) -> i32 {
        self.stats().0
    }
    /// Durability lost per failed die.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::HeavyCannon.durability_loss(), 4);
    /// ```
    pub const fn durability_loss(self) -> u8 {
        self.stats().1
    }
    /// The EMP damage kind.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageKind, Firearm};
    /// assert_eq!(Firearm::Pistol.damage_kind(), DamageKind::Emp { loss_per_failed_die: 1 });
    /// ```
    pub const fn damage_kind(self) -> DamageKind {
        DamageKind::Emp {
            loss_per_failed_die: self.durability_loss(),
        }
    }
    /// Delay in robot actions between shots (`None` for the grenade, "n/a").
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::Grenade.delay(), None);
    /// ```
    pub const fn delay(self) -> Option<u32> {
        self.stats().2
    }
    /// Charge points per shot.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::MediumCannon.charge_per_shot(), 9);
    /// ```
    pub const fn charge_per_shot(self) -> u32 {
        self.stats().3
    }
    /// The cell's total charge (the 4 cell sizes 2, 8, 12, 18, L2414).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::Carbine.cell_charge(), 12);
    /// ```
    pub const fn cell_charge(self) -> u32 {
        self.stats().4
    }
    /// Shots per cell = cell charge / charge per shot.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::HeavyPistol.shots_per_cell(), 4);
    /// ```
    pub const fn shots_per_cell(self) -> u32 {
        self.cell_charge() / self.charge_per_shot()
    }
    /// Range increment in yards.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::Pistol.range_increment(), 5);
    /// ```
    pub const fn range_increment(self) -> u32 {
        self.stats().5
    }
    /// The burst and the reduced damage beyond half its radius (A48: it replaces the
    /// Damage rating there).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Burst, Firearm};
    /// assert_eq!(Firearm::Grenade.burst(), Some((Burst::Small, -2)));
    /// assert_eq!(Firearm::Pistol.burst(), None);
    /// ```
    pub const fn burst(self) -> Option<(Burst, i32)> {
        match self {
            Firearm::LightCannon => Some((Burst::Small, 0)),
            Firearm::MediumCannon => Some((Burst::Medium, 1)),
            Firearm::HeavyCannon => Some((Burst::Large, 2)),
            Firearm::Grenade => Some((Burst::Small, -2)),
            _ => None,
        }
    }
    /// The Damage rating a burst does to a robot `distance_feet` from where it lands
    /// (L2416): "full damage if within 1/2 of this radius" (the weapon's Damage), "reduced
    /// damage (as indicated by the number in parenthesis …) beyond this out to its maximum
    /// radius" (A48: it replaces the Damage rating), nothing beyond the radius (`None`).
    /// `None` too for a weapon without a burst. The radii are the rulebook's "roughly" 10',
    /// 20' and 30'; the boundaries count as inside.
    ///
    /// ```
    /// use dice_robots_and_rapiers::Firearm;
    /// // A Medium Cannon (+3, burst Medium (+1), 20').
    /// let c = Firearm::MediumCannon;
    /// assert_eq!((c.burst_damage_at(10), c.burst_damage_at(11), c.burst_damage_at(20)), (Some(3), Some(1), Some(1)));
    /// assert_eq!(c.burst_damage_at(21), None);
    /// assert_eq!(Firearm::Pistol.burst_damage_at(0), None);
    /// ```
    pub const fn burst_damage_at(self, distance_feet: u32) -> Option<i32> {
        match self.burst() {
            Some((burst, reduced)) => {
                let radius = burst.radius_feet();
                if 2 * distance_feet as u64 <= radius as u64 {
                    Some(self.damage())
                } else if distance_feet <= radius {
                    Some(reduced)
                } else {
                    None
                }
            }
            None => None,
        }
    }
    /// The fixed Difficulty: 2 for an unbraced Heavy Musket (L2432).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::Musket.fixed_difficulty(false), 0);
    /// ```
    pub const fn fixed_difficulty(self, braced: bool) -> u32 {
        match self {
            Firearm::HeavyMusket if !braced => 2,
            _ => 0,
        }
    }
    /// Charge points one Power point gives a robot of this Size: Size × 10 (L2276).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::charge_per_power(6), 60);
    /// ```
    pub const fn charge_per_power(size: u32) -> u32 {
        size * 10
    }
    /// The rulebook's name.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Firearm::HeavyMusket.name(), "Heavy Musket");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Firearm::SmallPistol => "Small Pistol",
            Firearm::Pistol => "Pistol",
            Firearm::HeavyPistol => "Heavy Pistol",
            Firearm::Carbine => "Carbine",
            Firearm::Musket => "Musket",
            Firearm::HeavyMusket => "Heavy Musket",
            Firearm::LightCannon => "Light Cannon",
            Firearm::MediumCannon => "Medium Cannon",
            Firearm::HeavyCannon => "Heavy Cannon",
            Firearm::Grenade => "Grenade",
        }
    }
}

impl fmt::Display for Firearm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A target's size relative to a standard robot, for range Difficulty (L2283, L2418).
///
/// ```
/// use dice_robots_and_rapiers::TargetSize;
/// assert_eq!(TargetSize::Standard.to_string(), "standard robot size");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TargetSize {
    /// A standard robot.
    #[default]
    Standard,
    /// "less than 1/2 robot size": +50%.
    Small,
    /// "more than double robot size": −25%.
    Large,
    /// "more than 10x robot size": −50%.
    Huge,
}

impl fmt::Display for TargetSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TargetSize::Standard => "standard robot size",
            TargetSize::Small => "less than half robot size",
            TargetSize::Large => "more than double robot size",
            TargetSize::Huge => "more than 10x robot size",
        })
    }
}

/// Range Difficulty (L2283, L2418; A47): ⌊range / increment⌋, then the single most specific
/// size adjustment, rounded down.
///
/// ```
/// use dice_robots_and_rapiers::{TargetSize, range_difficulty};
/// assert_eq!(range_difficulty(32, 15, TargetSize::Standard), 2);
/// assert_eq!(range_difficulty(32, 15, TargetSize::Small), 3);
/// assert_eq!(range_difficulty(45, 5, TargetSize::Large), 6);
/// assert_eq!(range_difficulty(45, 5, TargetSize::Huge), 4);
/// ```
pub fn range_difficulty(range_yards: u32, increment: u32, target: TargetSize) -> u32 {
    let base = range_yards.checked_div(increment).unwrap_or(0);
    match target {
        TargetSize::Standard => base,
        TargetSize::Small => base + base / 2,
        TargetSize::Large => base - base.div_ceil(4),
        TargetSize::Huge => base - base.div_ceil(2),
    }
}

/// Worn armour (L2442–2463): a bonus to the Durability Save TN.
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::Armor::Brigandine.bonus(), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Armor {
    /// Standard Tunic & Jerkin: +1.
    TunicAndJerkin,
    /// Heavy Jerkin: +2.
    HeavyJerkin,
    /// Brigandine: +3.
    Brigandine,
    /// Cuirass: +4.
    Cuirass,
    /// Corslett: +5.
    Corslett,
}

impl Armor {
    /// The table's rows.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Armor::ALL.len(), 5);
    /// ```
    pub const ALL: [Armor; 5] = [
        Armor::TunicAndJerkin,
        Armor::HeavyJerkin,
        Armor::Brigandine,
        Armor::Cuirass,
        Armor::Corslett,
    ];
    /// The Durability Save TN bonus.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::Armor::Corslett.bonus(), 5);
    /// ```
    pub const fn bonus(self) -> i32 {
        match self {
            Armor::TunicAndJerkin => 1,
            Armor::HeavyJerkin => 2,
            Armor::Brigandine => 3,
            Armor::Cuirass => 4,
            Armor::Corslett => 5,
        }
    }
}

impl fmt::Display for Armor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Armor::TunicAndJerkin => "Standard Tunic & Jerkin",
            Armor::HeavyJerkin => "Heavy Jerkin",
            Armor::Brigandine => "Brigandine",
            Armor::Cuirass => "Cuirass",
            Armor::Corslett => "Corslett",
        })
    }
}

/// The kind of blow, for knockdown (L555–556, L1886–1887; A24: the caller says which).
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::AttackType::Bash.to_string(), "bashing, cutting or swinging");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AttackType {
    /// Piercing or thrusting: knockdown at damage ≥ Size.
    Thrust,
    /// Bashing, cutting or swinging: knockdown at damage ≥ ⌊Size/2⌋.
    Bash,
}

impl fmt::Display for AttackType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AttackType::Thrust => "piercing or thrusting",
            AttackType::Bash => "bashing, cutting or swinging",
        })
    }
}

/// The damage procedure of an attack (L2248–2262): the Durability Save TN is the target's
/// Durability − the attack's extra successes − successes from other rolls − the weapon's
/// Damage + worn armour; Armor Plating ignores the successes up to the target's Size unless
/// they exceed it (A26).
///
/// ```
/// use dice_robots_and_rapiers::{AttackType, DamageProcedure, MeleeWeapon, Rules};
/// let r = Rules::default();
/// // E25 (L1890): a bench (bashing), 5 successes → 1 hit + 4 damage on Del, Size 6:
/// // "a Locomotion Save at -1 to the Target Number".
/// let blow = DamageProcedure::new(5, 4);
/// assert_eq!(blow.knockdown(6, AttackType::Bash, &r), Some(-1));
/// // E24 (L1884): a single-success hit is 0 damage.
/// assert_eq!(DamageProcedure::new(5, 0).damage(&r), 0);
/// let rapier = DamageProcedure { weapon_damage: MeleeWeapon::MonoSword.damage(), ..DamageProcedure::new(6, 2) };
/// assert_eq!(rapier.tn(&r), 0); // 6 − 2 − 4
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DamageProcedure {
    /// The target's current Durability.
    pub durability: i32,
    /// Extra successes of the attack roll spent on damage.
    pub attack_successes: u32,
    /// Successes from other rolls committed to damage (a powerful swing, an attack to
    /// cover).
    pub other_successes: u32,
    /// The weapon's Damage rating.
    pub weapon_damage: i32,
    /// Worn armour's bonus.
    pub armor_bonus: i32,
    /// The target's Size, when it has the Armor Plating accessory.
    pub plating_size: Option<u32>,
    /// Whether the weapon is EMP (worn armour then counts only if
    /// [`Rules::armor_vs_emp`]).
    pub emp: bool,
}

impl DamageProcedure {
    /// A hit on a target of `durability` with `attack_successes` extra successes, nothing
    /// else.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::DamageProcedure::new(6, 3).attack_successes, 3);
    /// ```
    pub fn new(durability: i32, attack_successes: u32) -> Self {
        DamageProcedure {
            durability,
            attack_successes,
            ..DamageProcedure::default()
        }
    }

    fn successes(&self) -> i64 {
        i64::from(self.attack_successes) + i64::from(self.other_successes)
    }

    /// Knockdown "damage" (L1884; A25): successes spent on the TN, plus the weapon's Damage
    /// when [`Rules::weapon_damage_counts_for_knockdown`]; Armor Plating's ignored
    /// successes do not count.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageProcedure, Rules};
    /// let d = DamageProcedure { other_successes: 2, ..DamageProcedure::new(6, 3) };
    /// assert_eq!(d.damage(&Rules::default()), 5);
    /// ```
    pub fn damage(&self, rules: &Rules) -> i64 {
        let mut s = self.effective_successes(rules);
        if rules.weapon_damage_counts_for_knockdown {
            s += i64::from(self.weapon_damage);
        }
        s
    }

    fn effective_successes(&self, rules: &Rules) -> i64 {
        let s = self.successes();
        match self.plating_size {
            Some(size) => {
                let counted = if rules.plating_counts_weapon_damage {
                    s + i64::from(self.weapon_damage.max(0))
                } else {
                    s
                };
                if counted > i64::from(size) { s } else { 0 }
            }
            None => s,
        }
    }

    /// The Durability Save TN.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageProcedure, Rules};
    /// let r = Rules::default();
    /// // Armor Plating on a Size 6 robot ignores 4 successes, but not 7.
    /// let plated = DamageProcedure { plating_size: Some(6), ..DamageProcedure::new(6, 4) };
    /// assert_eq!(plated.tn(&r), 6);
    /// let through = DamageProcedure { plating_size: Some(6), ..DamageProcedure::new(6, 7) };
    /// assert_eq!(through.tn(&r), -1);
    /// ```
    pub fn tn(&self, rules: &Rules) -> i32 {
        let armor = if self.emp && !rules.armor_vs_emp {
            0
        } else {
            i64::from(self.armor_bonus)
        };
        let tn = i64::from(self.durability)
            - self.effective_successes(rules)
            - i64::from(self.weapon_damage)
            + armor;
        tn.clamp(
            -i64::from(crate::test::MAX_TN),
            i64::from(crate::test::MAX_TN),
        ) as i32
    }

    /// The Durability Save for a weapon's damage kind, by a robot of this
    /// [`DamageProcedure::durability`] (so an EMP loss to 0 shuts it down, L253, L2388).
    ///
    /// # Errors
    /// None in practice (the TN is clamped).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{DamageProcedure, MeleeWeapon, Rules};
    /// let r = Rules::default();
    /// let s = DamageProcedure::new(6, 2).durability_save(MeleeWeapon::SonicRapier.damage_kind(), &r)?;
    /// assert_eq!(s.save().tn(), 4);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn durability_save(
        &self,
        kind: DamageKind,
        rules: &Rules,
    ) -> Result<DurabilitySave, Error> {
        Ok(DurabilitySave::new(self.tn(rules), kind, rules)?.with_durability(self.durability))
    }

    /// Knockdown (L552–557, L1884–1890; A18, A24): `Some(TN modifier)` for the Locomotion
    /// Save when the damage reaches the threshold (Size for a thrust, ⌊Size/2⌋ for a bash),
    /// the modifier being minus the excess; `None` otherwise.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{AttackType, DamageProcedure, Rules};
    /// let r = Rules::default();
    /// assert_eq!(DamageProcedure::new(6, 5).knockdown(6, AttackType::Thrust, &r), None);
    /// assert_eq!(DamageProcedure::new(6, 6).knockdown(6, AttackType::Thrust, &r), Some(0));
    /// ```
    pub fn knockdown(&self, size: u32, attack: AttackType, rules: &Rules) -> Option<i32> {
        let threshold = i64::from(match attack {
            AttackType::Thrust => size,
            AttackType::Bash => size / 2,
        });
        let damage = self.damage(rules);
        if rules.knockdown_needs_damage && damage < 1 {
            return None;
        }
        let hit = if rules.knockdown_inclusive {
            damage >= threshold
        } else {
            damage > threshold
        };
        hit.then(|| -((damage - threshold).clamp(0, i64::from(crate::test::MAX_TN)) as i32))
    }
}

impl fmt::Display for DamageProcedure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Durability {} − {} attack − {} other − weapon {:+} + armour {}",
            self.durability,
            self.attack_successes,
            self.other_successes,
            self.weapon_damage,
            self.armor_bonus
        )
    }
}

/// What a missed shot does to bystanders (L2296–2302): 1d10 + 1d10 per point of the shot's
/// Difficulty; any 10 hits a random bystander, each further 10 lowers that bystander's
/// Durability Save TN by 1. The outcome is the number of 10s.
///
/// ```
/// use dice_core::Exact;
/// use dice_robots_and_rapiers::StrayShot;
/// let s = StrayShot::new(2)?;
/// let d = s.distribution()?;
/// assert!((d.probability(&0) - 0.9f64.powi(3)).abs() < 1e-15);
/// assert_eq!(StrayShot::bystander_tn_change(3), Some(-2));
/// assert_eq!(StrayShot::bystander_tn_change(0), None);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrayShot {
    difficulty: u32,
    tens: SuccessPool,
}

impl StrayShot {
    /// A miss from a shot with this Difficulty.
    ///
    /// # Errors
    /// [`Error::TooManyDice`].
    ///
    /// ```
    /// assert!(dice_robots_and_rapiers::StrayShot::new(0).is_ok());
    /// ```
    pub fn new(difficulty: u32) -> Result<Self, Error> {
        let dice = check_dice(difficulty.saturating_add(1))?;
        Ok(StrayShot {
            difficulty,
            tens: SuccessPool::new(Pool::new(dice, Die::D10)?, Comparison::AtLeast(10)),
        })
    }
    /// The bystander's Durability TN change for a number of 10s, `None` if no one is hit.
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::StrayShot::bystander_tn_change(1), Some(0));
    /// ```
    pub fn bystander_tn_change(tens: u32) -> Option<i32> {
        (tens > 0).then(|| -((tens - 1).min(i32::MAX as u32) as i32))
    }
    /// A burst's deviation on a miss (L2304–2309): the same dice summed, in feet, and a
    /// d10 direction (10 is "too far"; the others clockwise with 5 directly short). The
    /// pure form takes the faces.
    ///
    /// # Errors
    /// [`Error::Face`]; [`Error::DiceCount`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::StrayShot;
    /// assert_eq!(StrayShot::new(1)?.deviation(&[4, 7], 10)?, (11, 10));
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn deviation(&self, faces: &[u8], direction: u8) -> Result<(u32, u8), Error> {
        if faces.len() != self.difficulty as usize + 1 {
            return Err(Error::DiceCount {
                what: "burst deviation",
                expected: self.difficulty as usize + 1,
                got: faces.len(),
            });
        }
        let mut sum = 0;
        for &f in faces {
            sum += u32::from(crate::test::check_face(f)?);
        }
        Ok((sum, crate::test::check_face(direction)?))
    }
}

impl Roll for StrayShot {
    /// The number of 10s.
    type Outcome = u32;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.tens.count(rng)
    }
}

impl Exact for StrayShot {
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        self.tens.distribution()
    }
}

impl fmt::Display for StrayShot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stray shot: {}d10, count 10s", self.difficulty + 1)
    }
}

/// Poor footing (L1880–1882): a Locomotion Save with the ×½ persistent rule — 1 point of
/// Locomotion per failed die until the footing improves; on a Total Failure, −3 persistent
/// to all Locomotion *and* Articulation rolls. Returns (Locomotion loss, Articulation
/// loss).
///
/// ```
/// use dice_robots_and_rapiers::{SaveOutcome, poor_footing};
/// assert_eq!(poor_footing(SaveOutcome::PartialFailure { successes: 1 }), (2, 0));
/// assert_eq!(poor_footing(SaveOutcome::TotalFailure), (3, 3));
/// ```
pub fn poor_footing(outcome: SaveOutcome) -> (u32, u32) {
    match outcome {
        SaveOutcome::TotalFailure => (3, 3),
        o => (u32::from(o.failed_dice()), 0),
    }
}

/// Ridicule's Processor Save (L2331; A54): Total Failure gives −3 dice to all rolls while
/// confused; Total Success +3 dice to all rolls this scene against the source; a Partial
/// Failure the usual Processor loss (see [`SaveOutcome::attribute_loss`]). Returns the dice
/// modifier.
///
/// ```
/// use dice_robots_and_rapiers::{SaveOutcome, ridicule_dice};
/// assert_eq!(ridicule_dice(SaveOutcome::TotalFailure), -3);
/// assert_eq!(ridicule_dice(SaveOutcome::TotalSuccess), 3);
/// assert_eq!(ridicule_dice(SaveOutcome::PartialFailure { successes: 2 }), 0);
/// ```
pub fn ridicule_dice(outcome: SaveOutcome) -> i32 {
    match outcome {
        SaveOutcome::TotalFailure => -3,
        SaveOutcome::TotalSuccess => 3,
        _ => 0,
    }
}

/// A knockdown Locomotion Save (L1888): Locomotion plus the (negative) modifier from
/// [`DamageProcedure::knockdown`].
///
/// # Errors
/// As [`SavingThrow::new`].
///
/// ```
/// use dice_robots_and_rapiers::knockdown_save;
/// assert_eq!(knockdown_save(5, -1)?.tn(), 4);
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
pub fn knockdown_save(locomotion: i32, modifier: i32) -> Result<SavingThrow, Error> {
    SavingThrow::against(locomotion, &[modifier])
}
