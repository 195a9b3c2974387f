//! Skills, their default ranks, the synergy table and the character sheet (L13–L31,
//! L105–L185; SW-R2, SW-R10, SW-R13).

use std::collections::BTreeMap;
use std::fmt;

use crate::error::Error;
use crate::rules::Rules;

/// A school of magic (L185–L235). "Wind" (L197) and "Air" (the sheet, L331) are the same
/// school (SW-A18).
///
/// ```
/// use dice_swimclass::School;
/// assert_eq!(School::Wind.to_string(), "Wind magic");
/// assert_eq!(School::ALL.len(), 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum School {
    /// Fire: Blaze, Light (L191–L195).
    Fire,
    /// Wind (Air): push, Flight (L197–L201).
    Wind,
    /// Earth: quake, shift (L203–L207).
    Earth,
    /// Water: spray, breathing (L209–L213).
    Water,
    /// Life: heal, stabilize (L215–L225).
    Life,
    /// Death: damage, Stun, Raise Undead (L227–L235).
    Death,
}

impl School {
    /// Every school, in the order of the rulebook's text.
    pub const ALL: [School; 6] = [
        School::Fire,
        School::Wind,
        School::Earth,
        School::Water,
        School::Life,
        School::Death,
    ];
}

impl fmt::Display for School {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            School::Fire => "Fire magic",
            School::Wind => "Wind magic",
            School::Earth => "Earth magic",
            School::Water => "Water magic",
            School::Life => "Life magic",
            School::Death => "Death magic",
        })
    }
}

/// Every skill and skill-like trait of the rulebook (L105–L185, the sheet L304–L333).
///
/// ```
/// use dice_swimclass::{School, Skill, SkillKind};
/// assert_eq!(Skill::PickLock.default_rank(), 0);
/// assert_eq!(Skill::Spot.default_rank(), 1);
/// assert_eq!(Skill::Magic(School::Fire).kind(), SkillKind::Exotic);
/// assert_eq!(Skill::DarkVision.kind(), SkillKind::Trait);
/// assert_eq!(Skill::WalkRun.to_string(), "Walk / Run");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Skill {
    /// Basic Defense (L111): each die ≥ a hit die deflects that hit.
    BasicDefense,
    /// Basic Melee (L107): no threshold to hit, opposed.
    BasicMelee,
    /// Basic Ranged (L109): difficulty Range + 1, opposed.
    BasicRanged,
    /// Throw (L127–L131).
    Throw,
    /// Brawn (L133–L137).
    Brawn,
    /// Walk / Run (L115).
    WalkRun,
    /// Swim (L117–L119).
    Swim,
    /// Climb (L121–L123).
    Climb,
    /// Jump (L125).
    Jump,
    /// General Craft (L157–L161).
    Craft,
    /// Crafting specialized in a material (L161): synergy 1 with Craft, needs Craft 2.
    SpecializedCraft,
    /// Finesse (L139).
    Finesse,
    /// Pick Lock (L141): default rank 0.
    PickLock,
    /// Spot (L143–L147).
    Spot,
    /// Stealth (L149–L151): opposed by Spot.
    Stealth,
    /// Tracking (L153–L155).
    Tracking,
    /// Dark Vision, a trait (L173).
    DarkVision,
    /// Far Vision, a trait (L175).
    FarVision,
    /// Flight, a trait (L177).
    Flight,
    /// A school of magic, an exotic skill (L23, L185).
    Magic(School),
}

/// What kind of skill (L23, L167–L171).
///
/// ```
/// use dice_swimclass::{Skill, SkillKind};
/// assert_eq!(Skill::Jump.kind(), SkillKind::Basic);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SkillKind {
    /// An ordinary skill: default rank 1 (Pick Lock 0).
    Basic,
    /// An exotic skill (magic): unavailable except as a starting skill, by synergy, or with
    /// an artifact (L23); default rank 0.
    Exotic,
    /// A skill-like trait of your kind: cannot be started by synergy, only advanced (L171);
    /// default rank 0.
    Trait,
}

impl Skill {
    /// Every skill, magic schools last.
    pub const ALL: [Skill; 25] = [
        Skill::BasicDefense,
        Skill::BasicMelee,
        Skill::BasicRanged,
        Skill::Throw,
        Skill::Brawn,
        Skill::WalkRun,
        Skill::Swim,
        Skill::Climb,
        Skill::Jump,
        Skill::Craft,
        Skill::SpecializedCraft,
        Skill::Finesse,
        Skill::PickLock,
        Skill::Spot,
        Skill::Stealth,
        Skill::Tracking,
        Skill::DarkVision,
        Skill::FarVision,
        Skill::Flight,
        Skill::Magic(School::Fire),
        Skill::Magic(School::Wind),
        Skill::Magic(School::Earth),
        Skill::Magic(School::Water),
        Skill::Magic(School::Life),
        Skill::Magic(School::Death),
    ];

    /// The kind of skill.
    ///
    /// ```
    /// use dice_swimclass::{Skill, SkillKind};
    /// assert_eq!(Skill::Flight.kind(), SkillKind::Trait);
    /// ```
    pub const fn kind(self) -> SkillKind {
        match self {
            Skill::Magic(_) => SkillKind::Exotic,
            Skill::DarkVision | Skill::FarVision | Skill::Flight => SkillKind::Trait,
            _ => SkillKind::Basic,
        }
    }

    /// The rank before any pick or advancement: 1, except Pick Lock 0 (L23, L141); exotic
    /// skills and traits 0 (unavailable until started, L23, L171). Specialized crafting is 0
    /// too: it has a prerequisite (L161).
    ///
    /// ```
    /// use dice_swimclass::{School, Skill};
    /// assert_eq!(Skill::BasicMelee.default_rank(), 1);
    /// assert_eq!(Skill::Magic(School::Life).default_rank(), 0);
    /// ```
    pub const fn default_rank(self) -> u32 {
        match self {
            Skill::PickLock | Skill::SpecializedCraft => 0,
            _ => match self.kind() {
                SkillKind::Basic => 1,
                SkillKind::Exotic | SkillKind::Trait => 0,
            },
        }
    }
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Skill::BasicDefense => "Basic Defense",
            Skill::BasicMelee => "Basic Melee",
            Skill::BasicRanged => "Basic Ranged",
            Skill::Throw => "Throw",
            Skill::Brawn => "Brawn",
            Skill::WalkRun => "Walk / Run",
            Skill::Swim => "Swim",
            Skill::Climb => "Climb",
            Skill::Jump => "Jump",
            Skill::Craft => "Craft",
            Skill::SpecializedCraft => "Specialized Craft",
            Skill::Finesse => "Finesse",
            Skill::PickLock => "Pick Lock",
            Skill::Spot => "Spot",
            Skill::Stealth => "Stealth",
            Skill::Tracking => "Tracking",
            Skill::DarkVision => "Dark Vision",
            Skill::FarVision => "Far Vision",
            Skill::Flight => "Flight",
            Skill::Magic(s) => return s.fmt(f),
        };
        f.write_str(s)
    }
}

/// One line of the synergy table: two skills and the degree (L31, SW-R10).
///
/// ```
/// use dice_swimclass::{SYNERGIES, Skill};
/// let brawn_melee = SYNERGIES.iter().find(|s| s.a == Skill::Brawn && s.b == Skill::BasicMelee).unwrap();
/// assert_eq!(brawn_melee.degree, 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Synergy {
    /// One skill.
    pub a: Skill,
    /// The other ("synergy is always both ways", L31).
    pub b: Skill,
    /// The degree N: each is kept within N points of the other as it improves.
    pub degree: u32,
    /// The rulebook line.
    pub line: u32,
}

/// The synergies the rulebook lists (SW-R10). The magic wheel's synergies (degree 2 between
/// adjacent schools, L185) come from [`Rules::wheel`], since the wheel is not in the text.
pub const SYNERGIES: [Synergy; 7] = [
    Synergy {
        a: Skill::Throw,
        b: Skill::BasicRanged,
        degree: 2,
        line: 131,
    },
    Synergy {
        a: Skill::Brawn,
        b: Skill::Throw,
        degree: 2,
        line: 137,
    },
    Synergy {
        a: Skill::Brawn,
        b: Skill::BasicMelee,
        degree: 3,
        line: 137,
    },
    Synergy {
        a: Skill::Tracking,
        b: Skill::Spot,
        degree: 2,
        line: 155,
    },
    Synergy {
        a: Skill::SpecializedCraft,
        b: Skill::Craft,
        degree: 1,
        line: 161,
    },
    Synergy {
        a: Skill::DarkVision,
        b: Skill::Spot,
        degree: 2,
        line: 173,
    },
    Synergy {
        a: Skill::FarVision,
        b: Skill::Spot,
        degree: 2,
        line: 175,
    },
];

/// Every synergy in force under `rules`: [`SYNERGIES`] plus the magic wheel's (degree 2
/// between adjacent schools, L185) when the wheel is given.
///
/// ```
/// use dice_swimclass::{MagicWheel, Rules, School, Skill, skill::synergies};
/// assert_eq!(synergies(&Rules::default()).len(), 7);
/// let wheel = MagicWheel::new([School::Fire, School::Wind, School::Water, School::Earth, School::Life, School::Death]);
/// let rules = Rules { wheel, ..Rules::default() };
/// assert_eq!(synergies(&rules).len(), 13);
/// ```
pub fn synergies(rules: &Rules) -> Vec<Synergy> {
    let mut v = SYNERGIES.to_vec();
    if let Some(order) = rules.wheel.order {
        for i in 0..6 {
            v.push(Synergy {
                a: Skill::Magic(order[i]),
                b: Skill::Magic(order[(i + 1) % 6]),
                degree: 2,
                line: 185,
            });
        }
    }
    v
}

/// A rank that changed, from what to what.
///
/// ```
/// use dice_swimclass::{RankChange, Skill};
/// let c = RankChange { skill: Skill::Throw, from: 1, to: 2 };
/// assert_eq!(c.to_string(), "Throw 1 → 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RankChange {
    /// The skill.
    pub skill: Skill,
    /// The rank before.
    pub from: u32,
    /// The rank after.
    pub to: u32,
}

impl fmt::Display for RankChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} → {}", self.skill, self.from, self.to)
    }
}

/// A character sheet: the rank of every skill (L13, L23, L302–L333). Skills not written on
/// it have their default rank.
///
/// ```
/// use dice_swimclass::{Rules, School, Sheet, Skill};
/// let mut cephas = Sheet::new([Skill::Magic(School::Earth), Skill::BasicDefense])?;
/// assert_eq!(cephas.rank(Skill::Magic(School::Earth)), 2); // "rather than the default" (L13)
/// assert_eq!(cephas.rank(Skill::PickLock), 0);
/// assert_eq!(cephas.max_hp(), 3); // Defense 2 + 1 (L41)
/// let changes = cephas.advance(Skill::Brawn, &Rules::default());
/// assert_eq!(changes[0].to, 2);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(from = "Vec<(Skill, u32)>", into = "Vec<(Skill, u32)>")
)]
pub struct Sheet {
    ranks: BTreeMap<Skill, u32>,
}

impl From<Vec<(Skill, u32)>> for Sheet {
    fn from(v: Vec<(Skill, u32)>) -> Sheet {
        Sheet::with_ranks(v)
    }
}

impl From<Sheet> for Vec<(Skill, u32)> {
    fn from(s: Sheet) -> Vec<(Skill, u32)> {
        s.ranks.into_iter().collect()
    }
}

/// The rank the two creation picks start at (L13).
pub const PICK_RANK: u32 = 2;

/// The gold a new character has to buy implements (L13).
pub const STARTING_GP: u32 = 100;

impl Sheet {
    /// A new character who picked two skills: both start at rank 2 (L13), exotic and
    /// default-0 skills included (SW-A27); everything else has its default.
    ///
    /// # Errors
    /// [`Error::SamePick`] for the same skill twice; [`Error::TraitPick`] for a trait (it
    /// comes from your kind, L167).
    ///
    /// ```
    /// use dice_swimclass::{Sheet, Skill};
    /// let aerolis = Sheet::new([Skill::BasicRanged, Skill::Spot])?;
    /// assert_eq!(aerolis.rank(Skill::BasicRanged), 2);
    /// assert!(Sheet::new([Skill::Spot, Skill::Spot]).is_err());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn new(picks: [Skill; 2]) -> Result<Sheet, Error> {
        if picks[0] == picks[1] {
            return Err(Error::SamePick { skill: picks[0] });
        }
        let mut sheet = Sheet::default();
        for p in picks {
            if p.kind() == SkillKind::Trait {
                return Err(Error::TraitPick { skill: p });
            }
            sheet.ranks.insert(p, PICK_RANK);
        }
        Ok(sheet)
    }

    /// A sheet with the given ranks (an NPC's stat line, a trait from the character's kind);
    /// other skills at their defaults.
    ///
    /// ```
    /// use dice_swimclass::{Sheet, Skill};
    /// let orc = Sheet::with_ranks([(Skill::BasicMelee, 2), (Skill::BasicDefense, 3)]);
    /// assert_eq!(orc.max_hp(), 4);
    /// ```
    pub fn with_ranks<I: IntoIterator<Item = (Skill, u32)>>(ranks: I) -> Sheet {
        Sheet {
            ranks: ranks.into_iter().collect(),
        }
    }

    /// The rank of a skill (its default when not written on the sheet).
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Sheet::default().rank(dice_swimclass::Skill::Swim), 1);
    /// ```
    pub fn rank(&self, skill: Skill) -> u32 {
        self.ranks
            .get(&skill)
            .copied()
            .unwrap_or(skill.default_rank())
    }

    /// Sets a rank (the Game Master's pen).
    ///
    /// ```
    /// use dice_swimclass::{Sheet, Skill};
    /// let mut s = Sheet::default();
    /// s.set(Skill::DarkVision, 1); // a trait of your kind
    /// assert_eq!(s.rank(Skill::DarkVision), 1);
    /// ```
    pub fn set(&mut self, skill: Skill, rank: u32) {
        self.ranks.insert(skill, rank);
    }

    /// Every skill written on the sheet, with its rank.
    ///
    /// ```
    /// let s = dice_swimclass::Sheet::new([dice_swimclass::Skill::Jump, dice_swimclass::Skill::Swim])?;
    /// assert_eq!(s.written().count(), 2);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn written(&self) -> impl Iterator<Item = (Skill, u32)> + '_ {
        self.ranks.iter().map(|(&s, &r)| (s, r))
    }

    /// HP before taking damage: Basic Defense + 1 (L41, SW-R13).
    ///
    /// ```
    /// assert_eq!(dice_swimclass::Sheet::default().max_hp(), 2);
    /// ```
    pub fn max_hp(&self) -> u32 {
        crate::combat::max_hp(self.rank(Skill::BasicDefense))
    }

    /// Whether the skill may be rolled: rank ≥ 1 with its prerequisite met
    /// ([`Sheet::may_develop`]: Specialized Craft needs general Craft 2, L161, L23), or an
    /// artifact for it ("will allow you to use the skill even if you may not otherwise",
    /// L54). A rank-0 basic skill such as Pick Lock can still be attempted with no dice,
    /// which cannot succeed.
    ///
    /// ```
    /// use dice_swimclass::{School, Sheet, Skill};
    /// let s = Sheet::default();
    /// assert!(!s.can_use(Skill::Magic(School::Fire), false));
    /// assert!(s.can_use(Skill::Magic(School::Fire), true)); // the Eternal Torch
    /// ```
    pub fn can_use(&self, skill: Skill, has_artifact: bool) -> bool {
        has_artifact
            || (self.prerequisite_met(skill)
                && (self.rank(skill) > 0 || skill.kind() == SkillKind::Basic))
    }

    /// Whether a skill's prerequisite is met: "Some advanced skills may not be used or
    /// developed until you develop a related skill to a certain point" (L23); the one the
    /// rulebook names is general crafting 2 for specialized crafting (L161). Other skills
    /// have none.
    ///
    /// ```
    /// use dice_swimclass::{Sheet, Skill};
    /// assert!(!Sheet::default().may_develop(Skill::SpecializedCraft)); // Craft 1
    /// assert!(Sheet::with_ranks([(Skill::Craft, 2)]).may_develop(Skill::SpecializedCraft));
    /// assert!(Sheet::default().may_develop(Skill::Swim));
    /// ```
    pub fn may_develop(&self, skill: Skill) -> bool {
        self.prerequisite_met(skill)
    }

    fn prerequisite_met(&self, skill: Skill) -> bool {
        match skill {
            Skill::SpecializedCraft => {
                self.rank(Skill::Craft) >= crate::craft::SPECIALIZED_PREREQUISITE
            }
            _ => true,
        }
    }

    /// The dice this character rolls for a skill with these implements: the rank, plus the
    /// implements' bonuses (L17, L49–L54).
    ///
    /// # Errors
    /// [`Error::Unavailable`] for an exotic skill or trait at rank 0 without an artifact
    /// (L23, L54); [`Error::SpecializedCraft`] for Specialized Craft below general Craft 2
    /// without an artifact (L161); the errors of [`crate::SkillDice::with_implement`].
    ///
    /// ```
    /// use dice_swimclass::{Applies, School, Sheet, Skill, implement::catalogue};
    /// let torch = catalogue("Eternal Torch").unwrap()
    ///     .implement_for(Applies::Skill(Skill::Magic(School::Fire))).unwrap();
    /// let novice = Sheet::default();
    /// assert!(novice.dice(Skill::Magic(School::Fire), &[]).is_err());
    /// let d = novice.dice(Skill::Magic(School::Fire), &[&torch])?;
    /// assert_eq!((d.rank(), d.artifact_dice()), (0, 1));
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn dice(
        &self,
        skill: Skill,
        implements: &[&crate::Implement],
    ) -> Result<crate::SkillDice, Error> {
        let dice = implements
            .iter()
            .try_fold(crate::SkillDice::new(self.rank(skill)), |d, i| {
                d.with_implement(i)
            })?;
        if !self.can_use(skill, dice.artifact_dice() > 0) {
            if !self.prerequisite_met(skill) {
                return Err(Error::SpecializedCraft {
                    rank: self.rank(Skill::Craft),
                });
            }
            return Err(Error::Unavailable { skill });
        }
        Ok(dice)
    }

    /// A skill advances one rank (L27), then synergy raises its partners (L31), unless
    /// [`Rules::synergy_optional`] leaves that to [`Sheet::apply_synergy`]. A rank at
    /// [`Rules::max_rank`] does not advance, nor a trait the character's kind lacks (rank
    /// 0: it cannot be rolled, L167–L171), nor a skill whose prerequisite is not met
    /// (Specialized Craft below general Craft 2, L161, L23). Returns every change, the
    /// advanced skill first (none when nothing advanced).
    ///
    /// ```
    /// use dice_swimclass::{Rules, Sheet, Skill};
    /// let mut s = Sheet::with_ranks([(Skill::Brawn, 4), (Skill::Throw, 2), (Skill::BasicRanged, 1)]);
    /// let changes = s.advance(Skill::Brawn, &Rules::default());
    /// // Brawn 5 pulls Throw to 3 (degree 2) and Basic Melee to 2 (degree 3); Throw 3 would
    /// // pull Basic Ranged to 1, which it already has.
    /// assert_eq!(s.rank(Skill::Throw), 3);
    /// assert_eq!(s.rank(Skill::BasicMelee), 2);
    /// assert_eq!(changes.len(), 3);
    /// ```
    pub fn advance(&mut self, skill: Skill, rules: &Rules) -> Vec<RankChange> {
        let from = self.rank(skill);
        let lacking_trait = skill.kind() == SkillKind::Trait && from == 0;
        if lacking_trait
            || !self.prerequisite_met(skill)
            || rules.max_rank.is_some_and(|m| from >= m)
        {
            return Vec::new();
        }
        self.ranks.insert(skill, from + 1);
        let mut changes = vec![RankChange {
            skill,
            from,
            to: from + 1,
        }];
        if !rules.synergy_optional {
            changes.extend(self.apply_synergy(skill, rules));
        }
        changes
    }

    /// Synergy after `improved` changed: every partner is raised to within its degree,
    /// both ways, and the raises propagate to a fixed point (SW-R10, SW-A20). A trait at
    /// rank 0 is not started by synergy (L171); an exotic or default-0 skill may gain its
    /// first point (L31). Raises stop at [`Rules::max_rank`].
    ///
    /// ```
    /// use dice_swimclass::{Rules, Sheet, Skill};
    /// let mut s = Sheet::with_ranks([(Skill::Spot, 4)]);
    /// let changes = s.apply_synergy(Skill::Spot, &Rules::default());
    /// assert_eq!(s.rank(Skill::Tracking), 2);
    /// assert_eq!(s.rank(Skill::DarkVision), 0); // a trait is not started by synergy
    /// assert_eq!(changes.len(), 1);
    /// ```
    pub fn apply_synergy(&mut self, improved: Skill, rules: &Rules) -> Vec<RankChange> {
        let table = synergies(rules);
        let mut changes = Vec::new();
        let mut work = vec![improved];
        while let Some(s) = work.pop() {
            let r = self.rank(s);
            for syn in &table {
                let other = if syn.a == s {
                    syn.b
                } else if syn.b == s {
                    syn.a
                } else {
                    continue;
                };
                let mut want = r.saturating_sub(syn.degree);
                if let Some(m) = rules.max_rank {
                    want = want.min(m);
                }
                let have = self.rank(other);
                if want <= have
                    || (other.kind() == SkillKind::Trait && have == 0)
                    || !self.prerequisite_met(other)
                {
                    continue;
                }
                self.ranks.insert(other, want);
                changes.push(RankChange {
                    skill: other,
                    from: have,
                    to: want,
                });
                work.push(other);
            }
        }
        changes
    }
}

impl fmt::Display for Sheet {
    /// `Basic Ranged 3, Spot 2`: the skills written on the sheet.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (s, r)) in self.ranks.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{s} {r}")?;
        }
        Ok(())
    }
}
