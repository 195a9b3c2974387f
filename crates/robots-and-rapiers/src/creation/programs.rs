//! Core Programs (L451-455, L741-763) and Role Programs with their specialties (L457-464,
//! L765-803) as chosen at creation.

use core::fmt;

use super::error::CreationError;

pub use crate::attribute::Core;

/// The base level of each Core Program (L453, L747).
pub const CORE_BASE: u8 = 2;

/// The levels of the three Core Programs.
///
/// ```
/// use dice_robots_and_rapiers::creation::{Core, CorePrograms};
/// // 2 each, plus the Role Score's 10 levels divided 3/3/4.
/// let core = CorePrograms::at_creation(3, 3, 4, 10)?;
/// assert_eq!(core.get(Core::Social), 6);
/// assert_eq!(core.total(), 16);
/// assert_eq!(core.to_string(), "Physical 5, Mental 5, Social 6");
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CorePrograms {
    /// Core Physical.
    pub physical: u8,
    /// Core Mental.
    pub mental: u8,
    /// Core Social.
    pub social: u8,
}

impl CorePrograms {
    /// The Core Programs of a new robot: 2 each plus `physical`, `mental` and `social` levels
    /// of the Role Score `role`, at least 1 each (L451-455, L743-749).
    ///
    /// # Errors
    /// [`CreationError::CorePrograms`] when a share is 0 or the shares do not add up to
    /// `role`.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::CorePrograms;
    /// assert!(CorePrograms::at_creation(0, 5, 5, 10).is_err()); // at least 1 each
    /// assert!(CorePrograms::at_creation(3, 3, 3, 10).is_err()); // all 10 divided
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn at_creation(
        physical: u8,
        mental: u8,
        social: u8,
        role: u8,
    ) -> Result<CorePrograms, CreationError> {
        let core = CorePrograms {
            physical: physical.saturating_add(CORE_BASE),
            mental: mental.saturating_add(CORE_BASE),
            social: social.saturating_add(CORE_BASE),
        };
        core.check(role)?;
        Ok(core)
    }

    /// Checks levels already totalled: each at least 3 and together 6 + `role` (L451-455).
    ///
    /// # Errors
    /// [`CreationError::CorePrograms`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::CorePrograms;
    /// let core = CorePrograms { physical: 6, mental: 4, social: 6 };
    /// assert!(core.check(10).is_ok());
    /// assert!(core.check(9).is_err());
    /// ```
    pub fn check(&self, role: u8) -> Result<(), CreationError> {
        let levels = [self.physical, self.mental, self.social];
        let ok = levels.iter().all(|&l| l > CORE_BASE)
            && self.total() == u32::from(role) + 3 * u32::from(CORE_BASE);
        if ok {
            Ok(())
        } else {
            Err(CreationError::CorePrograms {
                physical: self.physical,
                mental: self.mental,
                social: self.social,
                role,
            })
        }
    }

    /// The level of one Core Program.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, CorePrograms};
    /// let core = CorePrograms { physical: 5, mental: 4, social: 7 };
    /// assert_eq!(core.get(Core::Mental), 4);
    /// ```
    pub const fn get(&self, core: Core) -> u8 {
        match core {
            Core::Physical => self.physical,
            Core::Mental => self.mental,
            Core::Social => self.social,
        }
    }

    /// Sets the level of one Core Program.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, CorePrograms};
    /// let mut core = CorePrograms { physical: 5, mental: 4, social: 7 };
    /// core.set(Core::Social, 6);
    /// assert_eq!(core.social, 6);
    /// ```
    pub fn set(&mut self, core: Core, level: u8) {
        match core {
            Core::Physical => self.physical = level,
            Core::Mental => self.mental = level,
            Core::Social => self.social = level,
        }
    }

    /// The sum of the three levels.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::CorePrograms;
    /// assert_eq!(CorePrograms { physical: 5, mental: 4, social: 7 }.total(), 16);
    /// ```
    pub const fn total(&self) -> u32 {
        self.physical as u32 + self.mental as u32 + self.social as u32
    }

    /// The highest level and the Core Programs at it (ties: the player picks, L1355).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, CorePrograms};
    /// let core = CorePrograms { physical: 6, mental: 4, social: 6 };
    /// let (level, tied) = core.highest();
    /// assert_eq!(level, 6);
    /// assert_eq!(tied, vec![Core::Physical, Core::Social]);
    /// ```
    pub fn highest(&self) -> (u8, Vec<Core>) {
        let top = self.physical.max(self.mental).max(self.social);
        let tied = Core::ALL
            .into_iter()
            .filter(|&c| self.get(c) == top)
            .collect();
        (top, tied)
    }
}

impl fmt::Display for CorePrograms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Physical {}, Mental {}, Social {}",
            self.physical, self.mental, self.social
        )
    }
}

/// A Role Program: its name, linked Core, level 0-10 and specialties in purchase order (the
/// first at the full level, each next one a further −1, L797-801).
///
/// ```
/// use dice_robots_and_rapiers::creation::{Core, RoleProgram};
/// // E2 (L801): "Fencing: 3 (Rapier, Cutlass, Pole-arm)".
/// let fencing = RoleProgram::new("Fencing", Core::Physical, 3)
///     .with_specialties(["Rapier", "Cutlass", "Pole-arm"]);
/// assert_eq!(fencing.to_string(), "Fencing: 3 (Rapier, Cutlass, Pole-arm)");
/// assert_eq!(fencing.specialty_level("Pole-arm"), Some(1));
/// assert_eq!(fencing.levels_spent(), 5); // 3 levels + 2 additional specialties
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RoleProgram {
    /// The program's name (the Standard Program List, L818-872, or one invented, L807).
    pub name: String,
    /// The Core it is linked to (L789-793).
    pub core: Core,
    /// The level, 0-10.
    pub level: u8,
    /// Specialties, in purchase order.
    pub specialties: Vec<String>,
}

impl RoleProgram {
    /// A program with no specialty.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, RoleProgram};
    /// let p = RoleProgram::new("Athletics", Core::Physical, 2);
    /// assert_eq!(p.to_string(), "Athletics: 2");
    /// ```
    pub fn new(name: impl Into<String>, core: Core, level: u8) -> Self {
        RoleProgram {
            name: name.into(),
            core,
            level,
            specialties: Vec::new(),
        }
    }

    /// The same program with these specialties, in purchase order.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, RoleProgram};
    /// let p = RoleProgram::new("Craft", Core::Mental, 1).with_specialties(["tailor"]);
    /// assert_eq!(p.specialties, ["tailor"]);
    /// ```
    pub fn with_specialties<S: Into<String>>(
        mut self,
        specialties: impl IntoIterator<Item = S>,
    ) -> Self {
        self.specialties = specialties.into_iter().map(Into::into).collect();
        self
    }

    /// Specialties beyond the first, each bought for 1 level (L463, L799).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, RoleProgram};
    /// let p = RoleProgram::new("Fencing", Core::Physical, 3).with_specialties(["Rapier", "Dagger"]);
    /// assert_eq!(p.additional_specialties(), 1);
    /// ```
    pub fn additional_specialties(&self) -> usize {
        self.specialties.len().saturating_sub(1)
    }

    /// Creation levels this program takes: its level plus one per additional specialty
    /// (L799-801). The cost of the program itself (1 level beyond the first 9) is counted by
    /// [`Programs`].
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, RoleProgram};
    /// assert_eq!(RoleProgram::new("Sneak", Core::Physical, 4).levels_spent(), 4);
    /// ```
    pub fn levels_spent(&self) -> u32 {
        u32::from(self.level) + self.additional_specialties() as u32
    }

    /// The level of a specialty: the program's level less its place after the first
    /// (L799), never below 0; `None` if the program does not have it.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, RoleProgram};
    /// let f = RoleProgram::new("Fencing", Core::Physical, 3).with_specialties(["Rapier", "Cutlass"]);
    /// assert_eq!(f.specialty_level("Rapier"), Some(3));
    /// assert_eq!(f.specialty_level("Cutlass"), Some(2));
    /// assert_eq!(f.specialty_level("Dagger"), None);
    /// ```
    pub fn specialty_level(&self, specialty: &str) -> Option<u8> {
        let i = self.specialties.iter().position(|s| s == specialty)?;
        Some(
            self.level
                .saturating_sub(u8::try_from(i).unwrap_or(u8::MAX)),
        )
    }

    /// Dice for a Test with this program: its level plus the linked Core's (L795).
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, CorePrograms, RoleProgram};
    /// // E3 (L1418): Fencing 3 + Core Physical 5 = "8 d10".
    /// let fencing = RoleProgram::new("Fencing", Core::Physical, 3);
    /// let core = CorePrograms { physical: 5, mental: 5, social: 6 };
    /// assert_eq!(fencing.dice(&core), 8);
    /// ```
    pub fn dice(&self, core: &CorePrograms) -> u32 {
        u32::from(self.level) + u32::from(core.get(self.core))
    }
}

impl fmt::Display for RoleProgram {
    /// `Fencing: 3 (Rapier, Cutlass, Pole-arm)`, as the character sheet records it (L801).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.level)?;
        if !self.specialties.is_empty() {
            write!(f, " ({})", self.specialties.join(", "))?;
        }
        Ok(())
    }
}

/// The number of Role Programs a robot starts with (L459, L779).
pub const STARTING_PROGRAMS: usize = 9;

/// The Role Programs chosen at creation, checked and costed (L457-464, L779-787).
///
/// ```
/// use dice_robots_and_rapiers::creation::{Core, CreationRules, Programs, RoleProgram};
/// let mut list: Vec<RoleProgram> = (1..=9)
///     .map(|i| RoleProgram::new(format!("Program {i}"), Core::Mental, 0))
///     .collect();
/// list[0].level = 5;
/// list[1].level = 3;
/// let programs = Programs::new(list, &CreationRules::default())?;
/// assert_eq!(programs.levels_spent(), 8);
/// // Memory 3 gives 6 free levels (L461); the other 2 cost 1 Design Point each (L462).
/// assert_eq!(programs.design_points(3), 2);
/// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Programs {
    programs: Vec<RoleProgram>,
}

impl Programs {
    /// Checks the programs, in this order, returning the first broken rule:
    /// 1. at least 9 programs (L459) — [`CreationError::TooFewPrograms`];
    /// 2. every program named once — [`CreationError::UnnamedProgram`],
    ///    [`CreationError::ProgramListedTwice`];
    /// 3. no level above the starting maximum (5, L461) —
    ///    [`CreationError::ProgramAboveStartingMax`];
    /// 4. additional specialties at most the program's level (L799) —
    ///    [`CreationError::TooManySpecialties`].
    ///
    /// # Errors
    /// As listed.
    ///
    /// ```
    /// use dice_robots_and_rapiers::creation::{Core, CreationError, CreationRules,
    ///     Programs, RoleProgram};
    /// let eight: Vec<RoleProgram> = (0..8)
    ///     .map(|i| RoleProgram::new(format!("P{i}"), Core::Social, 1))
    ///     .collect();
    /// assert_eq!(Programs::new(eight, &CreationRules::default()),
    ///            Err(CreationError::TooFewPrograms { count: 8 }));
    /// ```
    pub fn new(
        programs: Vec<RoleProgram>,
        rules: &super::CreationRules,
    ) -> Result<Programs, CreationError> {
        if programs.len() < STARTING_PROGRAMS {
            return Err(CreationError::TooFewPrograms {
                count: programs.len(),
            });
        }
        for (i, p) in programs.iter().enumerate() {
            if p.name.trim().is_empty() {
                return Err(CreationError::UnnamedProgram);
            }
            if programs[..i].iter().any(|o| o.name == p.name) {
                return Err(CreationError::ProgramListedTwice {
                    program: p.name.clone(),
                });
            }
        }
        for p in &programs {
            if p.level > rules.starting_program_max {
                return Err(CreationError::ProgramAboveStartingMax {
                    program: p.name.clone(),
                    level: p.level,
                    max: rules.starting_program_max,
                });
            }
            if p.additional_specialties() > usize::from(p.level) {
                return Err(CreationError::TooManySpecialties {
                    program: p.name.clone(),
                    level: p.level,
                    additional: p.additional_specialties(),
                });
            }
        }
        Ok(Programs { programs })
    }

    /// The programs, in the order given.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::{Core, CreationRules, Programs, RoleProgram};
    /// let list: Vec<RoleProgram> = (0..9).map(|i| RoleProgram::new(format!("P{i}"), Core::Social, 0)).collect();
    /// assert_eq!(Programs::new(list, &CreationRules::default())?.as_slice().len(), 9);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn as_slice(&self) -> &[RoleProgram] {
        &self.programs
    }

    /// The program named `name`.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::{Core, CreationRules, Programs, RoleProgram};
    /// let list: Vec<RoleProgram> = (0..9).map(|i| RoleProgram::new(format!("P{i}"), Core::Social, 0)).collect();
    /// assert!(Programs::new(list, &CreationRules::default())?.get("P3").is_some());
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn get(&self, name: &str) -> Option<&RoleProgram> {
        self.programs.iter().find(|p| p.name == name)
    }

    /// Creation levels spent: every program's levels and additional specialties, and 1 per
    /// program beyond the first 9 (L464, L781).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::{Core, CreationRules, Programs, RoleProgram};
    /// let list: Vec<RoleProgram> = (0..10).map(|i| RoleProgram::new(format!("P{i}"), Core::Social, 1)).collect();
    /// assert_eq!(Programs::new(list, &CreationRules::default())?.levels_spent(), 11);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn levels_spent(&self) -> u32 {
        let extra = self.programs.len().saturating_sub(STARTING_PROGRAMS) as u32;
        self.programs
            .iter()
            .map(RoleProgram::levels_spent)
            .sum::<u32>()
            + extra
    }

    /// Free levels: "2x his Memory Attribute" (L461, L781).
    ///
    /// ```
    /// assert_eq!(dice_robots_and_rapiers::creation::Programs::free_levels(4), 8);
    /// ```
    pub const fn free_levels(memory: u8) -> u32 {
        2 * memory as u32
    }

    /// Design Points the levels beyond the free ones cost, 1 each (L462, L781).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::{Core, CreationRules, Programs, RoleProgram};
    /// let list: Vec<RoleProgram> = (0..9).map(|i| RoleProgram::new(format!("P{i}"), Core::Social, 2)).collect();
    /// let p = Programs::new(list, &CreationRules::default())?;
    /// assert_eq!(p.design_points(8), 2); // 18 levels, 16 free
    /// assert_eq!(p.design_points(9), 0);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn design_points(&self, memory: u8) -> u32 {
        self.levels_spent()
            .saturating_sub(Self::free_levels(memory))
    }

    /// The random method's package rule: "no Program may be of a higher level than the
    /// Program above it in the order given by the package list. New Programs are added
    /// last" (L787).
    ///
    /// # Errors
    /// [`CreationError::PackageOrder`] naming the first program above its predecessor.
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::{Core, CreationRules, Programs, RoleProgram};
    /// let mut list: Vec<RoleProgram> = (0..9).map(|i| RoleProgram::new(format!("P{i}"), Core::Social, 0)).collect();
    /// list[0].level = 3;
    /// list[1].level = 2;
    /// assert!(Programs::new(list.clone(), &CreationRules::default())?.check_package_order().is_ok());
    /// list[2].level = 3;
    /// assert!(Programs::new(list, &CreationRules::default())?.check_package_order().is_err());
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn check_package_order(&self) -> Result<(), CreationError> {
        for w in self.programs.windows(2) {
            if w[1].level > w[0].level {
                return Err(CreationError::PackageOrder {
                    program: w[1].name.clone(),
                    level: w[1].level,
                    above: w[0].name.clone(),
                    above_level: w[0].level,
                });
            }
        }
        Ok(())
    }

    /// The total dice of every program with its Core (the "total dice levels" of the table at
    /// L1076-1087).
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::{Core, CorePrograms, CreationRules, Programs, RoleProgram};
    /// let list: Vec<RoleProgram> = (0..9).map(|i| RoleProgram::new(format!("P{i}"), Core::ALL[i % 3], 1)).collect();
    /// let core = CorePrograms { physical: 5, mental: 5, social: 6 };
    /// assert_eq!(Programs::new(list, &CreationRules::default())?.total_dice(&core), 9 + 3 * 16);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn total_dice(&self, core: &CorePrograms) -> u32 {
        self.programs.iter().map(|p| p.dice(core)).sum()
    }

    /// Raises (or adds) programs after creation without the starting maximum: the free
    /// levels of a Self Awareness increase (L1361) or a program increase. Levels stay 0-10.
    ///
    /// # Errors
    /// [`CreationError::ProgramAboveTen`].
    ///
    /// ```
    /// # use dice_robots_and_rapiers::creation::{Core, CreationRules, Programs, RoleProgram};
    /// let list: Vec<RoleProgram> = (0..9).map(|i| RoleProgram::new(format!("P{i}"), Core::Social, 5)).collect();
    /// let mut p = Programs::new(list, &CreationRules::default())?;
    /// p.raise("P0", Core::Social, 2)?;
    /// assert_eq!(p.get("P0").map(|p| p.level), Some(7));
    /// p.raise("Dancing", Core::Physical, 0)?; // a new program at level 0
    /// assert_eq!(p.as_slice().len(), 10);
    /// # Ok::<(), dice_robots_and_rapiers::creation::CreationError>(())
    /// ```
    pub fn raise(&mut self, name: &str, core: Core, by: u8) -> Result<(), CreationError> {
        match self.programs.iter_mut().find(|p| p.name == name) {
            Some(p) => {
                let level = p.level.saturating_add(by);
                if level > 10 {
                    return Err(CreationError::ProgramAboveTen {
                        program: p.name.clone(),
                        level,
                    });
                }
                p.level = level;
            }
            None => {
                if by > 10 {
                    return Err(CreationError::ProgramAboveTen {
                        program: name.to_owned(),
                        level: by,
                    });
                }
                self.programs.push(RoleProgram::new(name, core, by));
            }
        }
        Ok(())
    }
}

impl fmt::Display for Programs {
    /// One program per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.programs.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}
