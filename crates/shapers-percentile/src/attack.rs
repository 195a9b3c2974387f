//! Attacks: an attack test against no defence, an opposed defence roll or the optional passive
//! defence, with the counter-attack and the damage bonus (PC-R6, PC-R8–R10, PC-R15; L16–28,
//! L71; rulings PC-A3–A5, PC-A11).

use core::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollRecord, Source};

use crate::d100::{Test, TestResult, d100_record, roll_d100};
use crate::damage::{AttackKind, Damage, damage_bonus};
use crate::error::{Error, check_score};
use crate::opposed::{Side, compare};
use crate::rules::{CounterAttackBasis, DamageMargin, OpposedTie, Rules};

/// "If the attacker loses by 30 points or more, then they have left themselves exposed to a
/// counter-attack" (L28).
///
/// ```
/// assert_eq!(dice_shapers_percentile::COUNTER_ATTACK_LOSS, 30);
/// ```
pub const COUNTER_ATTACK_LOSS: u32 = 30;

/// How the target of an attack defends.
///
/// ```
/// use dice_shapers_percentile::{Defence, Rules, Test};
/// let dodge = Test::new(12, 6, 0, &Rules::default())?;
/// let opposed = Defence::Opposed(dodge);
/// let passive = Defence::Passive(18); // the GM's Attribute + Aptitude, L25
/// assert_ne!(opposed, passive);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Defence {
    /// No defence roll: the attack is a plain test against its TN (for instance a ranged
    /// attack the defender cannot see coming, L21).
    Unopposed,
    /// An opposed roll (L20–22): the defender's own d100 test. See
    /// [`crate::defence_allowed`] for which Aptitudes may be used.
    Opposed(Test),
    /// The optional passive defence (PC-R9, L23–26): the defender's Attribute + Aptitude,
    /// deducted from the attacker's margin; no defender roll.
    Passive(i32),
}

/// What an attack came to, for the attacker: a hit with its damage bonus, a miss, or a
/// counter-attack against the attacker with the defender's damage bonus.
///
/// ```
/// use dice_shapers_percentile::AttackOutcome;
/// assert_eq!(AttackOutcome::Hit { bonus: 2 }.to_string(), "hit, +2 damage");
/// assert_eq!(AttackOutcome::CounterAttack { bonus: 3 }.to_string(), "counter-attack, +3 damage");
/// assert!(AttackOutcome::Hit { bonus: 0 }.is_hit());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AttackOutcome {
    /// The attacker lost an opposed melee test by 30 or more: "the defender automatically
    /// hits, using the attacker's roll to calculate damage" (L28), with `bonus` = the loss
    /// divided by 10, rounded down.
    CounterAttack {
        /// The defender's damage bonus.
        bonus: u32,
    },
    /// The attack failed (or lost), without a counter-attack.
    Miss,
    /// The attack hit, with "+1 per 10 points of success" (L71).
    Hit {
        /// The attacker's damage bonus.
        bonus: u32,
    },
}

impl AttackOutcome {
    /// Whether the attacker hit.
    ///
    /// ```
    /// # use dice_shapers_percentile::AttackOutcome;
    /// assert!(!AttackOutcome::Miss.is_hit());
    /// ```
    pub fn is_hit(&self) -> bool {
        matches!(self, AttackOutcome::Hit { .. })
    }

    /// The damage the attacker deals with this outcome: [`Damage::dealt`] with the bonus on a
    /// hit, 0 otherwise.
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, AttackOutcome, Damage, Rules};
    /// let d = Damage::new(AttackKind::Melee, 5, 10, 10)?;
    /// assert_eq!(AttackOutcome::Hit { bonus: 2 }.dealt_by_attacker(&d, &Rules::default()), 17);
    /// assert_eq!(AttackOutcome::Miss.dealt_by_attacker(&d, &Rules::default()), 0);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn dealt_by_attacker(&self, damage: &Damage, rules: &Rules) -> i32 {
        match self {
            AttackOutcome::Hit { bonus } => damage.dealt(*bonus, rules),
            _ => 0,
        }
    }

    /// The damage the defender deals to the attacker: [`Damage::dealt`] with the bonus on a
    /// counter-attack, 0 otherwise.
    ///
    /// ```
    /// # use dice_shapers_percentile::{AttackKind, AttackOutcome, Damage, Rules};
    /// let d = Damage::new(AttackKind::Melee, 5, 10, 10)?;
    /// let counter = AttackOutcome::CounterAttack { bonus: 4 };
    /// assert_eq!(counter.dealt_by_defender(&d, &Rules::default()), 19);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn dealt_by_defender(&self, damage: &Damage, rules: &Rules) -> i32 {
        match self {
            AttackOutcome::CounterAttack { bonus } => damage.dealt(*bonus, rules),
            _ => 0,
        }
    }
}

impl fmt::Display for AttackOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttackOutcome::CounterAttack { bonus } => write!(f, "counter-attack, +{bonus} damage"),
            AttackOutcome::Miss => f.write_str("miss"),
            AttackOutcome::Hit { bonus } => write!(f, "hit, +{bonus} damage"),
        }
    }
}

/// Everything about one resolved attack: both tests, the net margin and the outcome.
///
/// ```
/// use dice_shapers_percentile::{Attack, AttackKind, AttackOutcome, Defence, Rules, Test};
/// let rules = Rules::default();
/// let attack = Attack::new(Test::new(10, 5, 0, &rules)?, Defence::Passive(20), AttackKind::Melee, &rules)?;
/// let e = attack.resolve(&[50])?; // margin +15, net −5 (L26)
/// assert_eq!(e.net, -5);
/// assert_eq!(e.outcome, AttackOutcome::Miss);
/// println!("{e}");
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Exchange {
    /// The outcome.
    pub outcome: AttackOutcome,
    /// The net margin: the attacker's own margin when unopposed, minus the defender's margin
    /// when opposed, minus the passive defence.
    pub net: i32,
    /// The attacker's test.
    pub attacker: TestResult,
    /// The defender's test, when opposed.
    pub defender: Option<TestResult>,
}

impl fmt::Display for Exchange {
    /// `attacker 50: succeeded by 15; passive defence: net -5 -> miss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "attacker {}", self.attacker)?;
        if let Some(d) = self.defender {
            write!(f, "; defender {d}")?;
        }
        write!(f, "; net {} -> {}", self.net, self.outcome)
    }
}

/// An attack (L16–28): the attacker's d100 test (Physical Agility + the attack Aptitude +
/// modifiers, L18) against one of the three kinds of [`Defence`].
///
/// - Unopposed: a success hits with the bonus of the attacker's own margin (L71).
/// - Opposed (PC-R8, ruling PC-A3, [`crate::OpposedResolution`]): the attack hits only when
///   its own test succeeds and either the defence fails or the attack's margin is higher
///   (ties to the defender); a failed attack never hits. The hit's bonus uses the net margin
///   (PC-A5). In melee, losing by [`COUNTER_ATTACK_LOSS`] or more exposes the attacker to a
///   counter-attack whose bonus is the loss divided by 10 (PC-R10, L28, ruling PC-A4 (a):
///   the loss is the margin difference). Whatever the measure, the defender must have
///   outscored the attacker (a lower attacker margin, or a tie that goes to the defender).
/// - Passive (PC-R9, L25–26): `net = margin − defence`; a net of 0 succeeds and passive
///   defence opens no counter-attack (PC-A11); the bonus uses the net (PC-A5).
///
/// Every reading is a knob of [`Rules`]. The exact law enumerates the 100 faces of the
/// attacker's d100 (and the joint law with the defender's test when opposed): it is the
/// damage bonus distribution.
///
/// ```
/// use dice_shapers_percentile::{Attack, AttackKind, AttackOutcome, Defence, Rules, Test};
/// use dice_core::Exact;
/// let rules = Rules::default();
/// let swing = Test::new(10, 5, 0, &rules)?;   // TN 65
/// let parry = Test::new(10, 5, 0, &rules)?;   // TN 65
/// let attack = Attack::new(swing, Defence::Opposed(parry), AttackKind::Melee, &rules)?;
/// // The attacker rolls 90 (−25), the defender 20 (+45): loses by 70, counter-attack +7.
/// assert_eq!(attack.resolve(&[90, 20])?.outcome, AttackOutcome::CounterAttack { bonus: 7 });
/// let law = attack.distribution()?;
/// let p_hit = law.probability_where(|o| o.is_hit());
/// // Hit: attacker at most 65 and (defender over 65, or attacker lower): (65·35 + 65·64/2) / 100².
/// assert!((p_hit - (65.0 * 35.0 + 65.0 * 64.0 / 2.0) / 1e4).abs() < 1e-12);
/// # Ok::<(), dice_shapers_percentile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attack {
    attacker: Test,
    defence: Defence,
    kind: AttackKind,
    rules: Rules,
}

impl Attack {
    /// The attacker's test against `defence`, for an attack of `kind` (counter-attacks only
    /// follow melee attacks), resolved as `rules` say.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when a passive defence's magnitude exceeds [`crate::MAX_SCORE`].
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Defence, Rules, Test};
    /// let rules = Rules::default();
    /// let shot = Test::new(12, 4, -20, &rules)?;
    /// let attack = Attack::new(shot, Defence::Unopposed, AttackKind::Ranged, &rules)?;
    /// assert_eq!(attack.kind(), AttackKind::Ranged);
    /// assert!(Attack::new(shot, Defence::Passive(99_999), AttackKind::Melee, &rules).is_err());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn new(
        attacker: Test,
        defence: Defence,
        kind: AttackKind,
        rules: &Rules,
    ) -> Result<Self, Error> {
        if let Defence::Passive(d) = defence {
            check_score("passive defence", d)?;
        }
        Ok(Attack {
            attacker,
            defence,
            kind,
            rules: *rules,
        })
    }

    /// The attacker's test.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Defence, Rules, Test};
    /// # let rules = Rules::default();
    /// let a = Attack::new(Test::new(9, 9, 0, &rules)?, Defence::Unopposed, AttackKind::Melee, &rules)?;
    /// assert_eq!(a.attacker().tn(), 68);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn attacker(&self) -> &Test {
        &self.attacker
    }

    /// The defence.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Defence, Rules, Test};
    /// # let rules = Rules::default();
    /// let a = Attack::new(Test::new(9, 9, 0, &rules)?, Defence::Passive(7), AttackKind::Melee, &rules)?;
    /// assert_eq!(a.defence(), &Defence::Passive(7));
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn defence(&self) -> &Defence {
        &self.defence
    }

    /// The kind of attack.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Defence, Rules, Test};
    /// # let rules = Rules::default();
    /// let a = Attack::new(Test::new(9, 9, 0, &rules)?, Defence::Unopposed, AttackKind::Thrown, &rules)?;
    /// assert!(!a.kind().is_melee());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn kind(&self) -> AttackKind {
        self.kind
    }

    /// The rules the attack is resolved with.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Defence, Rules, Test};
    /// # let rules = Rules::default();
    /// let a = Attack::new(Test::new(9, 9, 0, &rules)?, Defence::Unopposed, AttackKind::Melee, &rules)?;
    /// assert_eq!(a.rules(), &rules);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How many d100s the attack rolls: 2 when opposed, else 1.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Defence, Rules, Test};
    /// # let rules = Rules::default();
    /// let a = Attack::new(Test::new(9, 9, 0, &rules)?, Defence::Passive(3), AttackKind::Melee, &rules)?;
    /// assert_eq!(a.dice(), 1);
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn dice(&self) -> usize {
        match self.defence {
            Defence::Opposed(_) => 2,
            _ => 1,
        }
    }

    /// The pure form: the d100s already rolled, the attacker's first and then, when opposed,
    /// the defender's.
    ///
    /// # Errors
    /// [`Error::DiceCount`] unless exactly [`Attack::dice`] faces are given;
    /// [`Error::Face`] for a face outside `1..=100`.
    ///
    /// ```
    /// use dice_shapers_percentile::{Attack, AttackKind, AttackOutcome, Defence, Rules, Test};
    /// let rules = Rules::default();
    /// let a = Attack::new(Test::new(10, 5, 0, &rules)?, Defence::Unopposed, AttackKind::Melee, &rules)?;
    /// assert_eq!(a.resolve(&[30])?.outcome, AttackOutcome::Hit { bonus: 3 }); // margin 35
    /// assert!(a.resolve(&[30, 40]).is_err());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn resolve(&self, rolls: &[u8]) -> Result<Exchange, Error> {
        if rolls.len() != self.dice() {
            return Err(Error::DiceCount {
                what: "attack",
                given: rolls.len(),
                expected: self.dice(),
            });
        }
        let a = self.attacker.resolve(rolls[0])?;
        let d = match self.defence {
            Defence::Opposed(t) => Some(t.resolve(rolls[1])?),
            _ => None,
        };
        Ok(self.exchange(a, d))
    }

    /// The exchange for results already checked.
    #[inline]
    fn exchange(&self, a: TestResult, d: Option<TestResult>) -> Exchange {
        // `exposed`: whether a loss here can open a counter-attack at all. L28 needs an
        // opposed melee test the attacker "loses by" some points: the defender must have
        // outscored the attacker (net below 0, or a tie that goes to the defender), which a
        // defender who failed worse than a failed attacker has not (PC-A3 success-first,
        // PC-A4 own-failure). Passive defence only under its knob (PC-A11).
        let (net, won, exposed) = match (self.defence, d) {
            (Defence::Opposed(_), Some(d)) => {
                let r = compare(a, d, &self.rules);
                let outscored =
                    r.net < 0 || (r.net == 0 && self.rules.opposed_tie == OpposedTie::Defender);
                (r.net, r.winner == Side::Attacker, outscored)
            }
            (Defence::Passive(def), _) => {
                let net = a.margin - def;
                let won = net > 0 || (net == 0 && self.rules.passive_net_zero_succeeds);
                (net, won, self.rules.passive_counter_attack)
            }
            _ => (a.margin, a.is_success(), false),
        };
        let defended = !matches!(self.defence, Defence::Unopposed);
        let outcome = if won {
            let margin = match (defended, self.rules.damage_margin) {
                (true, DamageMargin::Net) => net,
                _ => a.margin,
            };
            AttackOutcome::Hit {
                bonus: damage_bonus(margin),
            }
        } else {
            let may_counter = self.kind.is_melee() && exposed;
            let loss = match self.rules.counter_attack {
                CounterAttackBasis::MarginDifference => net.min(0).unsigned_abs(),
                CounterAttackBasis::OwnFailure => a.margin.min(0).unsigned_abs(),
            };
            if may_counter && loss >= COUNTER_ATTACK_LOSS {
                AttackOutcome::CounterAttack {
                    bonus: damage_bonus(i32::try_from(loss).unwrap_or(i32::MAX)),
                }
            } else {
                AttackOutcome::Miss
            }
        };
        Exchange {
            outcome,
            net,
            attacker: a,
            defender: d,
        }
    }

    /// Rolls the whole exchange.
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Defence, Rules, Test};
    /// # use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// # let rules = Rules::default();
    /// let a = Attack::new(Test::new(9, 9, 0, &rules)?, Defence::Opposed(Test::new(5, 5, 0, &rules)?), AttackKind::Melee, &rules)?;
    /// let e = a.roll_exchange(&mut Xoshiro256PlusPlus::seed_from_u64(1));
    /// assert!(e.defender.is_some());
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn roll_exchange<R: Rng + ?Sized>(&self, rng: &mut R) -> Exchange {
        let a = self.attacker.result_of(roll_d100(rng));
        let d = match self.defence {
            Defence::Opposed(t) => Some(t.result_of(roll_d100(rng))),
            _ => None,
        };
        self.exchange(a, d)
    }

    /// The exact law of the damage the attacker deals (0 on a miss or a counter-attack).
    ///
    /// # Errors
    /// As [`Exact::distribution`].
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Damage, Defence, Rules, Test};
    /// # let rules = Rules::default();
    /// let a = Attack::new(Test::new(0, 0, 0, &rules)?, Defence::Unopposed, AttackKind::Melee, &rules)?;
    /// let d = Damage::new(AttackKind::Melee, 5, 10, 10)?;
    /// let law = a.damage_distribution(&d)?;
    /// assert!((law.probability(&0) - 0.5).abs() < 1e-12);  // TN 50: half the rolls miss
    /// assert!((law.probability(&19) - 0.1).abs() < 1e-12); // margins 40..=49: +4
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn damage_distribution(&self, damage: &Damage) -> Result<Dist<i32>, Error> {
        Ok(self
            .distribution()?
            .map(|o| o.dealt_by_attacker(damage, &self.rules)))
    }

    /// The exact law of the damage the defender deals to the attacker by counter-attack (0
    /// when there is none).
    ///
    /// # Errors
    /// As [`Exact::distribution`].
    ///
    /// ```
    /// # use dice_shapers_percentile::{Attack, AttackKind, Damage, Defence, Rules, Test};
    /// # let rules = Rules::default();
    /// let a = Attack::new(Test::new(0, 0, 0, &rules)?, Defence::Unopposed, AttackKind::Melee, &rules)?;
    /// let d = Damage::new(AttackKind::Melee, 5, 10, 10)?;
    /// assert!((a.counter_damage_distribution(&d)?.probability(&0) - 1.0).abs() < 1e-12); // no defence roll
    /// # Ok::<(), dice_shapers_percentile::Error>(())
    /// ```
    pub fn counter_damage_distribution(&self, damage: &Damage) -> Result<Dist<i32>, Error> {
        Ok(self
            .distribution()?
            .map(|o| o.dealt_by_defender(damage, &self.rules)))
    }
}

impl Roll for Attack {
    /// Hit (with bonus), miss, or counter-attack (with the defender's bonus).
    type Outcome = AttackOutcome;
    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> AttackOutcome {
        self.roll_exchange(rng).outcome
    }
}

impl Exact for Attack {
    /// The attacker's test law (100 faces), jointly with the defender's when opposed
    /// (10,000 pairs), mapped through the resolution.
    fn distribution(&self) -> Result<Dist<AttackOutcome>, dice_core::Error> {
        let attacker = self.attacker.distribution()?;
        Ok(match self.defence {
            Defence::Opposed(t) => attacker
                .joint(&t.distribution()?)
                .map(|&(a, d)| self.exchange(a, Some(d)).outcome),
            _ => attacker.map(|&a| self.exchange(a, None).outcome),
        })
    }
}

impl RollDetailed for Attack {
    /// The attacker's d100, then the defender's when opposed (source [`Source::Other`]`(1)`);
    /// `total` is the net margin, `successes` is 1 on a hit.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let e = self.roll_exchange(rng);
        record.dice.push(d100_record(e.attacker, Source::Primary));
        if let Some(d) = e.defender {
            record.dice.push(d100_record(d, Source::Other(1)));
        }
        if let Defence::Passive(def) = self.defence {
            record.modifier = -i64::from(def);
        }
        record.total = i64::from(e.net);
        record.successes = u32::from(e.outcome.is_hit());
    }
}

impl rand::distr::Distribution<AttackOutcome> for Attack {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> AttackOutcome {
        Roll::roll(self, rng)
    }
}

impl fmt::Display for Attack {
    /// `melee d100 <= 65 (50 +10 +5 +0) vs d100 <= 60 (...)`, `... vs passive 20`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.attacker)?;
        match self.defence {
            Defence::Unopposed => Ok(()),
            Defence::Opposed(t) => write!(f, " vs {t}"),
            Defence::Passive(d) => write!(f, " vs passive {d}"),
        }
    }
}
