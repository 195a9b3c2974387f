//! Implements and artifacts (L47–L67, L237–L260): their bonuses, their value, and the
//! rulebook's catalogue as data (SW-R18 to SW-R22, SW-R44).

use std::fmt;

use crate::rules::ValuationRule;
use crate::skill::{School, Skill};

/// One bonus an implement grants to a matching skill (L51–L54).
///
/// ```
/// use dice_swimclass::Bonus;
/// assert_eq!(Bonus::Plus { dice: 3, modifier: 2 }.to_string(), "(3+2)");
/// assert_eq!(Bonus::CancelCriticals(1).to_string(), "(1-crit)");
/// assert_eq!(Bonus::Constant { dice: 2, value: 5 }.to_string(), "(2*5)");
/// assert_eq!(Bonus::Dice(1).to_string(), "(1D)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Bonus {
    /// (N+M): +M to up to N dice (L51).
    Plus {
        /// N, the dice that may take the bonus.
        dice: u32,
        /// M, added to each.
        modifier: i32,
    },
    /// (N-crit): cancels up to N critical failures (L52).
    CancelCriticals(u32),
    /// (N*M): N dice counted as rolling M (L53; what that does to the pool is
    /// [`crate::Rules::constant_dice`]).
    Constant {
        /// N.
        dice: u32,
        /// M.
        value: i32,
    },
    /// (ND): N dice in addition to the normal pool, of a different colour; an implement
    /// with it is an artifact (L54, L65–L67).
    Dice(u32),
}

impl fmt::Display for Bonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Bonus::Plus { dice, modifier } => write!(f, "({dice}{modifier:+})"),
            Bonus::CancelCriticals(n) => write!(f, "({n}-crit)"),
            Bonus::Constant { dice, value } => write!(f, "({dice}*{value})"),
            Bonus::Dice(n) => write!(f, "({n}D)"),
        }
    }
}

impl ValuationRule {
    /// The value of one bonus (L56–L61): the modifier, criticals cancelled, 6 × the constant,
    /// 24 per die, summed over the dice affected under the ruling (SW-A6).
    ///
    /// ```
    /// use dice_swimclass::{Bonus, ValuationRule};
    /// let r = ValuationRule::SumOverDice;
    /// assert_eq!(r.value(Bonus::CancelCriticals(2)), 2);
    /// assert_eq!(r.value(Bonus::Constant { dice: 1, value: 4 }), 24);
    /// assert_eq!(r.value(Bonus::Dice(1)), 24);
    /// ```
    pub fn value(self, bonus: Bonus) -> i64 {
        let per = matches!(self, ValuationRule::PerDie);
        match bonus {
            Bonus::Plus { dice, modifier } => {
                i64::from(modifier) * if per { 1 } else { i64::from(dice) }
            }
            Bonus::CancelCriticals(n) => i64::from(n),
            Bonus::Constant { dice, value } => {
                6 * i64::from(value) * if per { 1 } else { i64::from(dice) }
            }
            Bonus::Dice(n) => 24 * i64::from(n),
        }
    }
}

/// An implement's value above which it "should be very expensive and rare" (L63).
pub const RARE_VALUE: i64 = 20;

/// An implement: any piece of equipment, with the bonuses it grants to one use (L49–L54).
///
/// ```
/// use dice_swimclass::{Bonus, Implement, ValuationRule};
/// let sword = Implement::new("Great Sword", [Bonus::Plus { dice: 3, modifier: 2 }]);
/// assert_eq!(sword.value(ValuationRule::SumOverDice), 6);
/// assert!(!sword.is_artifact());
/// assert_eq!(sword.to_string(), "Great Sword (3+2)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Implement {
    /// Its name.
    pub name: String,
    /// Its bonuses.
    pub bonuses: Vec<Bonus>,
}

impl Implement {
    /// An implement with these bonuses.
    ///
    /// ```
    /// let bow = dice_swimclass::Implement::new("Common Bow", [dice_swimclass::Bonus::Plus { dice: 1, modifier: 4 }]);
    /// assert_eq!(bow.bonuses.len(), 1);
    /// ```
    pub fn new<I: IntoIterator<Item = Bonus>>(name: &str, bonuses: I) -> Implement {
        Implement {
            name: name.to_owned(),
            bonuses: bonuses.into_iter().collect(),
        }
    }

    /// The implement's value (L56–L61): the sum of its bonuses' values.
    ///
    /// ```
    /// use dice_swimclass::{Bonus, Implement, ValuationRule};
    /// let torch = Implement::new("Eternal Torch", [Bonus::Dice(1)]);
    /// assert_eq!(torch.value(ValuationRule::default()), 24);
    /// ```
    pub fn value(&self, rule: ValuationRule) -> i64 {
        self.bonuses.iter().map(|&b| rule.value(b)).sum()
    }

    /// Whether it is an artifact: it grants bonus dice (L54).
    ///
    /// ```
    /// use dice_swimclass::{Bonus, Implement};
    /// assert!(Implement::new("Stave of Hermes", [Bonus::Dice(1)]).is_artifact());
    /// ```
    pub fn is_artifact(&self) -> bool {
        self.bonuses
            .iter()
            .any(|b| matches!(b, Bonus::Dice(n) if *n > 0))
    }

    /// Whether it is worth more than 20 points: "very expensive and rare" (L63).
    ///
    /// ```
    /// use dice_swimclass::{Bonus, Implement, ValuationRule};
    /// assert!(Implement::new("Amulet of Life", [Bonus::Dice(1)]).is_rare(ValuationRule::default()));
    /// ```
    pub fn is_rare(&self, rule: ValuationRule) -> bool {
        self.value(rule) > RARE_VALUE
    }
}

impl fmt::Display for Implement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for b in &self.bonuses {
            write!(f, " {b}")?;
        }
        Ok(())
    }
}

/// What a catalogue bonus applies to.
///
/// ```
/// use dice_swimclass::Applies;
/// assert_eq!(Applies::ToHit.to_string(), "to hit");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Applies {
    /// The attack roll of the weapon's attack skill.
    ToHit,
    /// The defense roll.
    Defense,
    /// A named skill.
    Skill(Skill),
    /// A task the text names ("inserting Piton, or other similar operation").
    Task(&'static str),
}

impl fmt::Display for Applies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Applies::ToHit => f.write_str("to hit"),
            Applies::Defense => f.write_str("defense"),
            Applies::Skill(s) => write!(f, "{s}"),
            Applies::Task(t) => f.write_str(t),
        }
    }
}

/// A currency unit; the text never converts GP and SP (SW-A21).
///
/// ```
/// assert_eq!(dice_swimclass::Currency::Gp.to_string(), "GP");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Currency {
    /// Gold pieces.
    Gp,
    /// Silver pieces.
    Sp,
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Currency::Gp => "GP",
            Currency::Sp => "SP",
        })
    }
}

/// One line of the rulebook's tables of common implements (L237–L249) and sample artifacts
/// (L251–L260), with the parses of SW-A19.
///
/// ```
/// use dice_swimclass::{Applies, CATALOGUE, ValuationRule};
/// let sword = CATALOGUE.iter().find(|e| e.name == "Great Sword").unwrap();
/// assert_eq!(sword.value(ValuationRule::SumOverDice), 9); // SW-R44
/// let attack = sword.implement_for(Applies::ToHit).unwrap();
/// assert_eq!(attack.to_string(), "Great Sword (3+2)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CatalogueEntry {
    /// The name as printed.
    pub name: &'static str,
    /// The bonus column as printed.
    pub text: &'static str,
    /// The rulebook line.
    pub line: u32,
    /// The parsed bonuses and what each applies to.
    pub bonuses: &'static [(Applies, Bonus)],
    /// The price.
    pub cost: u32,
    /// Its unit.
    pub currency: Currency,
    /// What the price is for, when not one item ("10ft" for rope).
    pub per: Option<&'static str>,
    /// Weight in pounds (per `per` when given).
    pub weight_lb: f64,
}

impl CatalogueEntry {
    /// The value of everything the entry grants (SW-R22, SW-R44).
    ///
    /// ```
    /// use dice_swimclass::{CATALOGUE, ValuationRule};
    /// let shield = CATALOGUE.iter().find(|e| e.name == "Medium Shield").unwrap();
    /// assert_eq!(shield.value(ValuationRule::SumOverDice), 6);
    /// assert_eq!(shield.value(ValuationRule::PerDie), 3);
    /// ```
    pub fn value(&self, rule: ValuationRule) -> i64 {
        self.bonuses.iter().map(|&(_, b)| rule.value(b)).sum()
    }

    /// The implement for one use (its bonuses that apply to it), or `None`.
    ///
    /// ```
    /// use dice_swimclass::{Applies, CATALOGUE};
    /// let staff = CATALOGUE.iter().find(|e| e.name == "Quarterstaff").unwrap();
    /// assert!(staff.implement_for(Applies::ToHit).is_none());
    /// assert!(staff.implement_for(Applies::Defense).is_some());
    /// ```
    pub fn implement_for(&self, applies: Applies) -> Option<Implement> {
        let b: Vec<Bonus> = self
            .bonuses
            .iter()
            .filter(|(a, _)| *a == applies)
            .map(|&(_, b)| b)
            .collect();
        (!b.is_empty()).then(|| Implement::new(self.name, b))
    }

    /// Whether it is an artifact (grants bonus dice).
    ///
    /// ```
    /// assert!(dice_swimclass::CATALOGUE.iter().filter(|e| e.is_artifact()).count() == 6);
    /// ```
    pub fn is_artifact(&self) -> bool {
        self.bonuses
            .iter()
            .any(|(_, b)| matches!(b, Bonus::Dice(_)))
    }
}

const fn plus(dice: u32, modifier: i32) -> Bonus {
    Bonus::Plus { dice, modifier }
}

const fn entry(
    name: &'static str,
    text: &'static str,
    line: u32,
    bonuses: &'static [(Applies, Bonus)],
    cost: u32,
    currency: Currency,
    weight_lb: f64,
) -> CatalogueEntry {
    CatalogueEntry {
        name,
        text,
        line,
        bonuses,
        cost,
        currency,
        per: None,
        weight_lb,
    }
}

/// The rulebook's common implements (L240–L249) and sample artifacts (L255–L260), parsed as
/// SW-A19 reads them: a bonus with no N ("+4", "2 to hit") is (1+M) (SW-E4 confirms it for
/// the Common Bow); "+6 to 3 hits" is (3+6); Arrow and Rope grant no bonus the text
/// quantifies.
pub const CATALOGUE: [CatalogueEntry; 16] = [
    entry(
        "Great Sword",
        "3+2 to hit, 3+1 defense",
        240,
        &[(Applies::ToHit, plus(3, 2)), (Applies::Defense, plus(3, 1))],
        25,
        Currency::Gp,
        10.0,
    ),
    entry(
        "Common Bow",
        "+4 to hit, Ranged attack",
        241,
        &[(Applies::ToHit, plus(1, 4))],
        5,
        Currency::Gp,
        5.0,
    ),
    entry(
        "Masterpiece Bow",
        "+6 to 3 hits, Ranged attack",
        242,
        &[(Applies::ToHit, plus(3, 6))],
        45,
        Currency::Gp,
        7.0,
    ),
    entry("Arrow", "ammo", 243, &[], 1, Currency::Sp, 0.2),
    entry(
        "Knife",
        "2 to hit, melee or thrown",
        244,
        &[(Applies::ToHit, plus(1, 2))],
        5,
        Currency::Gp,
        1.0,
    ),
    entry(
        "Quarterstaff",
        "2 to defense",
        245,
        &[(Applies::Defense, plus(1, 2))],
        1,
        Currency::Gp,
        3.0,
    ),
    entry(
        "Medium Shield",
        "2+3 to defense",
        246,
        &[(Applies::Defense, plus(2, 3))],
        20,
        Currency::Gp,
        15.0,
    ),
    CatalogueEntry {
        name: "Rope",
        text: "Use to Craft for bonus to assorted skills",
        line: 247,
        bonuses: &[],
        cost: 1,
        currency: Currency::Sp,
        per: Some("10ft"),
        weight_lb: 0.2,
    },
    entry(
        "Piton",
        "+2 to climb or holding to a solid surface.",
        248,
        &[(Applies::Skill(Skill::Climb), plus(1, 2))],
        5,
        Currency::Gp,
        1.0,
    ),
    entry(
        "Hammer",
        "+3 to inserting Piton, or other similar operation",
        249,
        &[(Applies::Task("inserting a piton"), plus(1, 3))],
        20,
        Currency::Gp,
        2.0,
    ),
    entry(
        "Flawless crystal of the Ancients",
        "+1D to Earth magic",
        255,
        &[(Applies::Skill(Skill::Magic(School::Earth)), Bonus::Dice(1))],
        90,
        Currency::Gp,
        1.0,
    ),
    entry(
        "Bottomless Amphora",
        "+1D to Water magic, endless supply of clean water, 1cup/round.",
        256,
        &[(Applies::Skill(Skill::Magic(School::Water)), Bonus::Dice(1))],
        120,
        Currency::Gp,
        2.0,
    ),
    entry(
        "Amulet of Life",
        "+1D to Life magic, light for 1 square",
        257,
        &[(Applies::Skill(Skill::Magic(School::Life)), Bonus::Dice(1))],
        100,
        Currency::Gp,
        0.5,
    ),
    entry(
        "Stave of Hermes",
        "+1D to Wind",
        258,
        &[(Applies::Skill(Skill::Magic(School::Wind)), Bonus::Dice(1))],
        90,
        Currency::Gp,
        4.0,
    ),
    entry(
        "Eternal Torch",
        "+1D to Fire magic",
        259,
        &[(Applies::Skill(Skill::Magic(School::Fire)), Bonus::Dice(1))],
        90,
        Currency::Gp,
        2.0,
    ),
    entry(
        "Skull of a Litch",
        "+1D to Death magic",
        260,
        &[(Applies::Skill(Skill::Magic(School::Death)), Bonus::Dice(1))],
        90,
        Currency::Gp,
        1.0,
    ),
];

/// The catalogue entry with this name (case-insensitive), if any.
///
/// ```
/// let bow = dice_swimclass::implement::catalogue("common bow").unwrap();
/// assert_eq!(bow.line, 241);
/// ```
pub fn catalogue(name: &str) -> Option<&'static CatalogueEntry> {
    CATALOGUE.iter().find(|e| e.name.eq_ignore_ascii_case(name))
}
