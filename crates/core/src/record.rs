//! Roll records: every die of a roll, for people (`Display`) and programs (serde).

use alloc::vec::Vec;
use core::fmt;

/// Where a die in a pool came from. Games tell skill dice from bonus or artifact dice (a
/// Swimclass artifact's dice are a different colour and do not count for advancement).
///
/// ```
/// use dice_core::Source;
/// assert_eq!(Source::default(), Source::Primary);
/// assert_eq!(Source::Artifact.to_string(), "artifact");
/// assert_eq!(Source::Other(3).to_string(), "other#3");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Source {
    /// The pool's own dice (a skill's rank, a program's level).
    #[default]
    Primary,
    /// Bonus dice (extra time, roll-overs, traits).
    Bonus,
    /// Dice granted by an artifact or implement.
    Artifact,
    /// Dice lent by another character (aid another, convergence).
    Aid,
    /// Dice held in reserve.
    Reserve,
    /// A game-specific source, numbered by the game crate.
    Other(u8),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Primary => f.write_str("primary"),
            Source::Bonus => f.write_str("bonus"),
            Source::Artifact => f.write_str("artifact"),
            Source::Aid => f.write_str("aid"),
            Source::Reserve => f.write_str("reserve"),
            Source::Other(n) => write!(f, "other#{n}"),
        }
    }
}

/// What happened to one die.
///
/// ```
/// let flags = dice_core::DieFlags { success: true, ..Default::default() };
/// assert!(flags.kept);
/// assert!(!flags.exploded);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DieFlags {
    /// Counted in the result (false once keep/drop drops it).
    pub kept: bool,
    /// Passed the success test.
    pub success: bool,
    /// Passed the critical test (a natural 1 unless the mechanic says otherwise).
    pub critical: bool,
    /// Its face triggered an explosion (another die, or a compounded roll).
    pub exploded: bool,
    /// Added to the pool by another die's explosion.
    pub added: bool,
    /// Its explosion chain stopped at the cap while it would have gone on.
    pub capped: bool,
    /// Cancelled by an opposing die.
    pub blocked: bool,
}

impl Default for DieFlags {
    fn default() -> Self {
        DieFlags {
            kept: true,
            success: false,
            critical: false,
            exploded: false,
            added: false,
            capped: false,
            blocked: false,
        }
    }
}

/// One die of a roll: its natural face, any modifier applied to it, its final value, where it
/// came from and what happened to it.
///
/// ```
/// use dice_core::{Die, DieRoll, Source};
/// let mut d = DieRoll::new(Die::D6, 5, Source::Primary);
/// d.set_modifier(2);
/// assert_eq!((d.natural, d.value), (5, 7));
/// assert_eq!(d.to_string(), "5+2=7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DieRoll {
    /// The die that was rolled.
    pub die: crate::Die,
    /// The face that came up (for a compounding die: the first face).
    pub natural: u32,
    /// Added to the natural face (for a compounding die: the later faces).
    pub modifier: i64,
    /// `natural + modifier`: the value that counts.
    pub value: i64,
    /// Where the die came from.
    pub source: Source,
    /// What happened to it.
    pub flags: DieFlags,
}

impl DieRoll {
    /// A die showing `natural`, unmodified, kept, with no other flag.
    pub fn new(die: crate::Die, natural: u32, source: Source) -> Self {
        DieRoll {
            die,
            natural,
            modifier: 0,
            value: i64::from(natural),
            source,
            flags: DieFlags::default(),
        }
    }

    /// Sets the modifier and recomputes the value.
    pub fn set_modifier(&mut self, modifier: i64) {
        self.modifier = modifier;
        self.value = i64::from(self.natural) + modifier;
    }
}

impl fmt::Display for DieRoll {
    /// `5`, `5+2=7`; a dropped die in parentheses `(2)`, a success with `*`, an exploded die
    /// with `!`, a capped one with `!cap`, a die added by an explosion with a leading `+`, a
    /// blocked one with a leading `x`, a critical with a trailing `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fl = self.flags;
        if !fl.kept {
            f.write_str("(")?;
        }
        if fl.added {
            f.write_str("+")?;
        }
        if fl.blocked {
            f.write_str("x")?;
        }
        if self.modifier == 0 {
            write!(f, "{}", self.natural)?;
        } else {
            write!(f, "{}{:+}={}", self.natural, self.modifier, self.value)?;
        }
        if fl.exploded {
            f.write_str("!")?;
        }
        if fl.capped {
            f.write_str("cap")?;
        }
        if fl.success {
            f.write_str("*")?;
        }
        if fl.critical {
            f.write_str("?")?;
        }
        if !fl.kept {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// The whole story of one roll: every die, the modifier, the total and the counts.
///
/// Mechanics fill the fields they compute and leave the others at zero. A record is meant to
/// be reused: `roll_record_into` methods clear it and refill its buffer, so a loop of record
/// rolls allocates only while the buffer grows.
///
/// ```
/// use dice_core::{Die, Keep, Pool, RollDetailed, Sum};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let four_d6_keep_3 = Sum::new(Pool::new(4, Die::D6)?, Keep::Highest(3), 0)?;
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
/// let record = four_d6_keep_3.roll_record(&mut rng);
/// assert_eq!(record.dice.len(), 4);
/// assert_eq!(record.dice.iter().filter(|d| d.flags.kept).count(), 3);
/// println!("{record}"); // e.g. "[6, 3, (1), 4] = 13"
/// # Ok::<(), dice_core::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RollRecord {
    /// Every die rolled, in the order rolled (an exploded die is followed by the die it added).
    pub dice: Vec<DieRoll>,
    /// A flat modifier added to the total.
    pub modifier: i64,
    /// The numeric result: for a sum, the kept dice's values plus the modifier; for a streak,
    /// its score (base + length); for a success pool, the sum of the kept values.
    pub total: i64,
    /// Dice that passed the success test (kept and not blocked).
    pub successes: u32,
    /// Dice that passed the critical test.
    pub criticals: u32,
    /// Whether any explosion or streak stopped at its cap.
    pub capped: bool,
}

impl RollRecord {
    /// An empty record.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empties the record, keeping its buffer.
    pub fn clear(&mut self) {
        self.dice.clear();
        self.modifier = 0;
        self.total = 0;
        self.successes = 0;
        self.criticals = 0;
        self.capped = false;
    }

    /// The values of the kept dice, in roll order.
    ///
    /// ```
    /// let r = dice_core::RollRecord::new();
    /// assert_eq!(r.kept_values().count(), 0);
    /// ```
    pub fn kept_values(&self) -> impl Iterator<Item = i64> + '_ {
        self.dice.iter().filter(|d| d.flags.kept).map(|d| d.value)
    }

    /// How many kept dice pass `test` on their value.
    ///
    /// ```
    /// use dice_core::{Comparison, Die, DieRoll, RollRecord, Source};
    /// let mut r = RollRecord::new();
    /// for f in [1, 4, 6] { r.dice.push(DieRoll::new(Die::D6, f, Source::Primary)); }
    /// assert_eq!(r.count(Comparison::AtLeast(4)), 2);
    /// ```
    pub fn count(&self, test: crate::Comparison) -> u32 {
        self.kept_values().filter(|&v| test.test(v)).count() as u32
    }
}

impl fmt::Display for RollRecord {
    /// `[6, 3, (1), 4] + 2 = 15`, and `; 2 successes, 1 critical` when counted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.dice.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")?;
        if self.modifier != 0 {
            write!(
                f,
                " {} {}",
                if self.modifier < 0 { '-' } else { '+' },
                self.modifier.unsigned_abs()
            )?;
        }
        write!(f, " = {}", self.total)?;
        if self.successes > 0 || self.criticals > 0 || self.dice.iter().any(|d| d.flags.success) {
            let s = if self.successes == 1 { "" } else { "es" };
            write!(f, "; {} success{s}", self.successes)?;
        }
        if self.criticals > 0 {
            let s = if self.criticals == 1 { "" } else { "s" };
            write!(f, ", {} critical{s}", self.criticals)?;
        }
        if self.capped {
            f.write_str(" (explosion cap reached)")?;
        }
        Ok(())
    }
}
