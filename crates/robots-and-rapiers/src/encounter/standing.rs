//! What a duel keeps of each robot from turn to turn ([`Standing`]), how much of the rulebook
//! a duel plays ([`DuelRules`]), and how malfunctions change a standing (one result at a
//! time through [`Chassis::suffer`], with the follow-ups of L1858–1862 and the Memory Save of
//! L1924).

use std::collections::BTreeMap;
use std::fmt;

use dice_core::{Dist, Exact, Roll};
use rand::{Rng, RngExt};

use crate::attribute::{Attribute, tactile_dice};
use crate::damage::{
    Chassis, Malfunction, MalfunctionTable, ProgramLoss, SlotState, roll_malfunction_chain,
};
use crate::error::Error;
use crate::save::SavingThrow;
use crate::test::Dice;

use super::Fighter;

/// How much of the rulebook a duel plays.
///
/// The default ([`DuelRules::DEFAULT`]) keeps each robot's Durability (the malfunctions
/// that cost Durability, EMP losses), its Action Points, its Locomotion after knockdowns and
/// whose turn it is: its exact law is quick (the shipped scene in well under a second; in a
/// rapier duel knockdown adds no state at all, since a thrust strong enough to knock a robot
/// down also takes its Durability Save to TN 0, a shutdown). [`DuelRules::FULL`] turns
/// everything on: the duel is then played as the rulebook runs it, but each robot carries a
/// dozen numbers that change, and the exact law of a full-size duel is refused before the
/// work (`TooComplex`: estimate it by playing many duels) — see
/// [`crate::Duel::state_bound`].
///
/// ```
/// use dice_robots_and_rapiers::DuelRules;
/// assert_eq!(DuelRules::default(), DuelRules::DEFAULT);
/// assert!(DuelRules::DEFAULT.knockdown && !DuelRules::DEFAULT.exertion);
/// assert_eq!(DuelRules::FULL.to_string(), "every malfunction, knockdown, Shut Down Override, Exertion");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct DuelRules {
    /// Every result of the Malfunction Table changes the duel (L1848–1862): Articulation
    /// (the attack's TN), Locomotion (the parry's), Processor (the Action Point maximum,
    /// L2160), Memory (its Memory Save may cost Fencing or Core Physical levels, L1924),
    /// Tactile Sensors (dice off the attack and the parry, L694–699), current Power and the
    /// capacitor (with its extra malfunction, L1862), External Slots (a damaged slot hit
    /// again re-rolls 2, L1860). Off (the default): only the Durability a malfunction costs
    /// is kept.
    pub all_malfunctions: bool,
    /// A hit whose damage reaches the target's Size (a thrust) or half its Size (a bash or
    /// cut) calls for a Locomotion Save (L552–557, L1884–1888); its failed dice cost 2
    /// Locomotion each, 6 on a Total Failure (L251, L1794). On by default.
    pub knockdown: bool,
    /// A Sparked robot shut down may spend 1 Power on a Self Awareness Save to override the
    /// shutdown (L714, L1842). Off by default.
    pub shutdown_override: bool,
    /// A robot may spend 1 Power for +1 TN on a roll (L148, L709, L715, L1465–1467), when its
    /// policy says so. Off by default.
    pub exertion: bool,
}

impl Default for DuelRules {
    fn default() -> Self {
        DuelRules::DEFAULT
    }
}

impl DuelRules {
    /// The default: knockdown, and only the Durability malfunctions cost.
    pub const DEFAULT: DuelRules = DuelRules {
        all_malfunctions: false,
        knockdown: true,
        shutdown_override: false,
        exertion: false,
    };
    /// Nothing beyond Durability and Action Points (the duel before knockdown was played).
    pub const DURABILITY_ONLY: DuelRules = DuelRules {
        all_malfunctions: false,
        knockdown: false,
        shutdown_override: false,
        exertion: false,
    };
    /// The whole combat as the rulebook runs it.
    pub const FULL: DuelRules = DuelRules {
        all_malfunctions: true,
        knockdown: true,
        shutdown_override: true,
        exertion: true,
    };

    /// Whether a robot's Power is ever read.
    pub(crate) fn tracks_power(&self) -> bool {
        self.all_malfunctions || self.shutdown_override || self.exertion
    }
}

impl fmt::Display for DuelRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        parts.push(if self.all_malfunctions {
            "every malfunction"
        } else {
            "Durability malfunctions only"
        });
        if self.knockdown {
            parts.push("knockdown");
        }
        if self.shutdown_override {
            parts.push("Shut Down Override");
        }
        if self.exertion {
            parts.push("Exertion");
        }
        f.write_str(&parts.join(", "))
    }
}

/// The order of [`SlotState`]s in [`Standing::slots`].
const SLOT_STATES: [SlotState; 5] = [
    SlotState::Empty,
    SlotState::Accessory,
    SlotState::DamagedAccessory,
    SlotState::DestroyedAccessory,
    SlotState::Damaged,
];

/// How many of `slots` are in each state, in the order of [`SLOT_STATES`].
fn slot_counts(slots: &[SlotState]) -> [u8; 5] {
    let mut counts = [0u8; 5];
    for s in slots {
        let i = SLOT_STATES.iter().position(|x| x == s).unwrap_or(0);
        counts[i] = counts[i].saturating_add(1);
    }
    counts
}

fn byte(v: i64) -> u8 {
    v.clamp(0, 255) as u8
}

/// One robot's standing in a duel: what changes from turn to turn. Attributes are kept at 0
/// once they reach it (an attribute at 0 or below has lost its use: every Test and Save
/// against it fails, L253, L1786), so equal futures share one state.
///
/// Under the default [`DuelRules`] only `durability`, `action_points` and `shut_down` change;
/// the other fields keep the robot's starting values.
///
/// ```
/// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon, Standing};
/// let f = Fighter::new("J", Dice::Program { program: 3, core: 5 }, [5, 6, 6, 5, 5, 4], MeleeWeapon::SonicRapier)?;
/// let s = Standing::new(&f);
/// assert_eq!((s.durability, s.articulation, s.fencing_dice(), s.pool()), (6, 6, 8, 8));
/// assert_eq!(s.to_string(), "Durability 6, 0 AP");
/// # Ok::<(), dice_robots_and_rapiers::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Standing {
    /// Current Durability, at least 0 (at 0 every Durability Save is a Total Failure, L253,
    /// L2262).
    pub durability: u8,
    /// Action Points left.
    pub action_points: u8,
    /// Shut down (L1840): the duel is over, and every other field is 0.
    pub shut_down: bool,
    /// Articulation: the attack's TN (L345).
    pub articulation: u8,
    /// Locomotion: the parry's TN (L346) and the knockdown save's (L1888).
    pub locomotion: u8,
    /// Processor: the Action Point maximum is Processor + Self Awareness (L2160).
    pub processor: u8,
    /// Memory: the TN of the Memory Save a Memory malfunction calls for (L1924).
    pub memory: u8,
    /// Tactile Sensors: at 1 the attack and the parry lose a die, at 0 two (L694–699).
    pub tactile: u8,
    /// The Fencing Program's level.
    pub fencing: u8,
    /// Core Physical's level (Fencing's dice are Fencing + Core Physical, L187).
    pub core: u8,
    /// Current Power.
    pub power: u8,
    /// Maximum Power (the capacitor).
    pub max_power: u8,
    /// Dice still owed to a Shut Down Override's penalty: off every Test, bought back with
    /// the first successes (L1842).
    pub penalty: u8,
    /// How many External Slots are in each state: empty, accessory, damaged accessory,
    /// destroyed accessory, damaged slot (L1860).
    pub slots: [u8; 5],
}

impl Standing {
    /// A robot's standing before the duel: its chassis, Fencing dice, Action Points 0.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Dice, Fighter, MeleeWeapon, Standing};
    /// let f = Fighter::new("D", Dice::Program { program: 4, core: 4 }, [4, 5, 5, 6, 6, 5], MeleeWeapon::SonicRapier)?;
    /// assert_eq!(Standing::new(&f).locomotion, 6);
    /// # Ok::<(), dice_robots_and_rapiers::Error>(())
    /// ```
    pub fn new(f: &Fighter) -> Standing {
        let c = &f.chassis;
        let a = |i: usize| byte(i64::from(c.attributes[i]));
        let (fencing, core) = match f.dice {
            Dice::Program { program, core } => (program, core),
            Dice::CoreDefault { core } => (0, core),
            Dice::Unrelated => (0, 0),
        };
        Standing {
            durability: a(1),
            action_points: 0,
            shut_down: false,
            articulation: a(2),
            locomotion: a(3),
            processor: a(4),
            memory: a(5),
            tactile: byte(i64::from(c.subsystems[2])),
            fencing,
            core,
            power: byte(i64::from(c.power)),
            max_power: byte(i64::from(c.max_power)),
            penalty: 0,
            slots: slot_counts(&c.slots),
        }
    }

    /// The standing of a robot shut down: nothing of it matters any more.
    ///
    /// ```
    /// let s = dice_robots_and_rapiers::Standing::down();
    /// assert!(s.shut_down && s.durability == 0);
    /// assert_eq!(s.to_string(), "shut down");
    /// ```
    pub fn down() -> Standing {
        Standing {
            durability: 0,
            action_points: 0,
            shut_down: true,
            articulation: 0,
            locomotion: 0,
            processor: 0,
            memory: 0,
            tactile: 0,
            fencing: 0,
            core: 0,
            power: 0,
            max_power: 0,
            penalty: 0,
            slots: [0; 5],
        }
    }

    /// Fencing + Core Physical.
    ///
    /// ```
    /// let mut s = dice_robots_and_rapiers::Standing::down();
    /// (s.fencing, s.core) = (3, 5);
    /// assert_eq!(s.fencing_dice(), 8);
    /// ```
    pub fn fencing_dice(&self) -> u32 {
        u32::from(self.fencing) + u32::from(self.core)
    }

    /// The dice Tactile Sensors take off a Fencing roll against Articulation or Locomotion
    /// (L694–699: "All Articulation and Locomotion rolls are at -2 dice" at 0, −1 at 1; at 2
    /// only Fine Motor or Balance Sensitive actions lose one, and Fencing is neither,
    /// L818–872).
    ///
    /// ```
    /// let mut s = dice_robots_and_rapiers::Standing::down();
    /// assert_eq!(s.tactile_penalty(), 2);
    /// s.tactile = 2;
    /// assert_eq!(s.tactile_penalty(), 0);
    /// ```
    pub fn tactile_penalty(&self) -> u32 {
        tactile_dice(self.tactile.min(4), Attribute::Articulation, false).unsigned_abs()
    }

    /// The dice of its attack or parry: Fencing + Core Physical, less Tactile's dice and the
    /// Shut Down Override's penalty (A53: not below 0).
    ///
    /// ```
    /// let mut s = dice_robots_and_rapiers::Standing::down();
    /// (s.fencing, s.core, s.tactile, s.penalty) = (3, 5, 1, 4);
    /// assert_eq!(s.pool(), 3);
    /// ```
    pub fn pool(&self) -> u32 {
        self.fencing_dice()
            .saturating_sub(self.tactile_penalty())
            .saturating_sub(u32::from(self.penalty))
    }

    /// Keeps equal futures in one state: a penalty above the dice it can take away is the
    /// same as one that takes them all (the robot rolls no dice and can never buy it back);
    /// a shut-down robot keeps nothing.
    pub(crate) fn normalize(&mut self) {
        if self.shut_down {
            *self = Standing::down();
            return;
        }
        let most = self.fencing_dice().saturating_sub(self.tactile_penalty());
        self.penalty = self.penalty.min(byte(i64::from(most)));
    }

    /// The chassis this standing stands for (Force and the other sub-systems are not kept:
    /// nothing in the duel reads them).
    fn chassis(&self) -> Chassis {
        let mut slots = Vec::new();
        for (state, &n) in SLOT_STATES.iter().zip(&self.slots) {
            slots.extend(std::iter::repeat_n(*state, usize::from(n)));
        }
        let mut c = Chassis::new(
            [
                5,
                i32::from(self.durability),
                i32::from(self.articulation),
                i32::from(self.locomotion),
                i32::from(self.processor),
                i32::from(self.memory),
            ],
            [3, 3, i32::from(self.tactile), 3],
            i32::from(self.power),
            slots,
        );
        c.max_power = i32::from(self.max_power);
        c
    }

    /// Applies one malfunction result through [`Chassis::suffer`] and returns the further
    /// malfunctions it owes (a capacitor cut below the current Power: 1; a damaged slot: 2).
    /// `slot` is the state of the slot a slot result hit (a robot without slots is not
    /// touched). The Memory Save of a Memory result is [`Standing::lose_program`]'s.
    ///
    /// ```
    /// use dice_robots_and_rapiers::{Attribute, Malfunction, SlotState, Standing, SubSystem};
    /// let mut s = Standing::down();
    /// (s.shut_down, s.articulation, s.power, s.max_power, s.slots) = (false, 4, 3, 3, [0, 0, 0, 0, 1]);
    /// assert_eq!(s.suffer(Malfunction::Attribute(Attribute::Articulation), None), 0);
    /// assert_eq!(s.articulation, 3);
    /// assert_eq!(s.suffer(Malfunction::SubSystem(SubSystem::PowerCapacitor), None), 1);
    /// assert_eq!((s.power, s.max_power), (2, 2));
    /// assert_eq!(s.suffer(Malfunction::Slot, Some(SlotState::Damaged)), 2);
    /// ```
    pub fn suffer(&mut self, m: Malfunction, slot: Option<SlotState>) -> u32 {
        let mut c = self.chassis();
        let index = slot.and_then(|s| c.slots.iter().position(|&x| x == s));
        let extra = c.suffer(m, index);
        let a = |i: usize| byte(i64::from(c.attributes[i]));
        self.durability = a(1);
        self.articulation = a(2);
        self.locomotion = a(3);
        self.processor = a(4);
        self.memory = a(5);
        self.tactile = byte(i64::from(c.subsystems[2]));
        self.power = byte(i64::from(c.power));
        self.max_power = byte(i64::from(c.max_power));
        self.slots = slot_counts(&c.slots);
        self.normalize();
        extra
    }

    /// After a Memory malfunction's Memory Save (L1924): the program the random pick landed
    /// on loses its levels (`Fencing` or `Core Physical`; any other program is not in the
    /// duel).
    ///
    /// ```
    /// use dice_robots_and_rapiers::{ProgramLoss, ProgramPick, Standing};
    /// let mut s = Standing::down();
    /// (s.shut_down, s.fencing, s.core) = (false, 3, 5);
    /// s.lose_program(ProgramPick::Fencing, ProgramLoss::Levels(2));
    /// s.lose_program(ProgramPick::CorePhysical, ProgramLoss::Whole);
    /// assert_eq!((s.fencing, s.core), (1, 0));
    /// ```
    pub fn lose_program(&mut self, pick: ProgramPick, loss: ProgramLoss) {
        match pick {
            ProgramPick::Fencing => self.fencing -= loss.levels_lost(self.fencing),
            ProgramPick::CorePhysical => self.core -= loss.levels_lost(self.core),
            ProgramPick::Other => {}
        }
        self.normalize();
    }
}

impl fmt::Display for Standing {
    /// Durability and Action Points, and a Shut Down Override's penalty while it lasts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.shut_down {
            return f.write_str("shut down");
        }
        write!(
            f,
            "Durability {}, {} AP",
            self.durability, self.action_points
        )?;
        if self.penalty > 0 {
            write!(f, ", −{} dice until bought off", self.penalty)?;
        }
        Ok(())
    }
}

/// Which program a Memory malfunction's random pick lands on (L1924: "from a list of all
/// programs, including Core Programs").
///
/// ```
/// assert_eq!(dice_robots_and_rapiers::ProgramPick::Fencing.to_string(), "Fencing");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProgramPick {
    /// The Fencing Program.
    Fencing,
    /// Core Physical.
    CorePhysical,
    /// Any program the duel does not use.
    Other,
}

impl fmt::Display for ProgramPick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProgramPick::Fencing => "Fencing",
            ProgramPick::CorePhysical => "Core Physical",
            ProgramPick::Other => "another program",
        })
    }
}

/// What a robot's malfunctions need besides its standing: how many programs the Memory
/// malfunction's pick draws from, and whether Fencing is one of them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Memory {
    /// Programs in the pick, Core Programs included (at least 1).
    pub programs: u32,
    /// Whether the robot has the Fencing Program (not a Core default).
    pub has_fencing: bool,
}

impl Memory {
    pub(crate) fn of(f: &Fighter) -> Memory {
        Memory {
            programs: f.programs.max(1),
            has_fencing: matches!(f.dice, Dice::Program { .. }),
        }
    }

    /// The law of the pick.
    fn picks(&self) -> Vec<(ProgramPick, f64)> {
        let n = f64::from(self.programs);
        let mut v = vec![(ProgramPick::CorePhysical, 1.0 / n)];
        let mut others = self.programs - 1;
        if self.has_fencing && self.programs >= 2 {
            v.push((ProgramPick::Fencing, 1.0 / n));
            others -= 1;
        }
        if others > 0 {
            v.push((ProgramPick::Other, f64::from(others) / n));
        }
        v
    }

    fn roll_pick<R: Rng + ?Sized>(&self, rng: &mut R) -> ProgramPick {
        let k = rng.random_range(0..self.programs);
        match k {
            0 => ProgramPick::CorePhysical,
            1 if self.has_fencing => ProgramPick::Fencing,
            _ => ProgramPick::Other,
        }
    }
}

/// The Memory Save of a Memory malfunction, at the Memory the malfunction left (A36).
fn memory_save(s: &Standing) -> Result<SavingThrow, Error> {
    SavingThrow::new(i32::from(s.memory))
}

/// Every result of the table with its chance, computed once.
pub(crate) fn table() -> Result<Vec<(Malfunction, f64)>, Error> {
    Ok(MalfunctionTable
        .distribution()?
        .iter()
        .map(|(m, p)| (*m, p))
        .collect())
}

/// The exact law of a standing after `owed` malfunctions, every result applied with its
/// follow-ups (the capacitor's extra malfunction; a slot hit on a state counted by the
/// slots in it; a Memory result's save and pick).
///
/// # Errors
/// [`Error::Core`] (`Unsupported`) for a robot with External Slots: a damaged slot hit again
/// re-rolls 2 malfunctions (L1860), which may chain without end, so the law has no finite
/// support (rolled duels resolve the chain as it comes).
pub(crate) fn malfunction_law(
    start: &Standing,
    owed: u32,
    memory: Memory,
    table: &[(Malfunction, f64)],
) -> Result<Dist<Standing>, Error> {
    if owed == 0 {
        return Ok(Dist::certain(*start));
    }
    if start.slots.iter().any(|&n| n > 0) {
        return Err(Error::Core(dice_core::Error::Unsupported {
            what: "the exact law of malfunctions on a robot with External Slots (a damaged \
                   slot hit again re-rolls 2 malfunctions without end; play the duel instead)",
        }));
    }
    // Without slots every result either pays one owed malfunction, or (a capacitor cut)
    // lowers the maximum Power: the key (owed, maximum Power) falls at every step, so taking
    // the largest first sees each key once with all its mass.
    let mut todo: BTreeMap<(u32, u8, Standing), f64> = BTreeMap::new();
    todo.insert((owed, start.max_power, *start), 1.0);
    let mut done: Vec<(Standing, f64)> = Vec::new();
    while let Some(((n, _, s), p)) = todo.pop_last() {
        if n == 0 {
            done.push((s, p));
            continue;
        }
        let mut put = |t: Standing, left: u32, q: f64| {
            *todo.entry((left, t.max_power, t)).or_insert(0.0) += p * q;
        };
        for &(m, q) in table {
            let mut t = s;
            let extra = t.suffer(m, None);
            let left = n - 1 + extra;
            if m.memory_save_required() {
                let save = memory_save(&t)?.distribution()?;
                for (o, r) in save.iter() {
                    let loss = ProgramLoss::from_save(*o);
                    for (pick, w) in memory.picks() {
                        let mut u = t;
                        u.lose_program(pick, loss);
                        put(u, left, q * r * w);
                    }
                }
            } else {
                put(t, left, q);
            }
        }
    }
    Ok(Dist::from_pairs(done)?)
}

/// Rolls and applies `owed` malfunctions with their follow-ups (at most
/// [`MAX_MALFUNCTIONS`](crate::MAX_MALFUNCTIONS)), through the loop [`Chassis::roll_malfunctions`] uses: a slot result
/// hits the `k`-th slot in the order of [`SLOT_STATES`], and a Memory result rolls its Memory
/// Save and the program it lands on.
pub(crate) fn roll_malfunctions<R: Rng + ?Sized>(
    s: &mut Standing,
    owed: u32,
    memory: Memory,
    rng: &mut R,
) {
    let slots = |s: &Standing| s.slots.iter().map(|&n| u32::from(n)).sum();
    roll_malfunction_chain(s, owed, rng, slots, |s, m, slot, rng| {
        let slot = slot.map(|k| {
            let mut k = k;
            let mut hit = SlotState::Empty;
            for (state, &n) in SLOT_STATES.iter().zip(&s.slots) {
                if k < u32::from(n) {
                    hit = *state;
                    break;
                }
                k -= u32::from(n);
            }
            hit
        });
        let extra = s.suffer(m, slot);
        if m.memory_save_required() {
            if let Ok(save) = memory_save(s) {
                let loss = ProgramLoss::from_save(save.roll(rng));
                let pick = memory.roll_pick(rng);
                s.lose_program(pick, loss);
            }
        }
        extra
    });
}
