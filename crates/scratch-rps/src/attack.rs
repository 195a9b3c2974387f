//! Attacks (L27–L57, L73–L83): the basic attacks and the attack abilities, their damage,
//! the natural-20 extra damage, and the exact chance to hit and damage law.

use core::fmt;

use dice_core::{Dist, Exact, Rng, Roll, RollDetailed, RollRecord};

use crate::ability::Ability;
use crate::character::Health;
use crate::error::Error;
use crate::roll::{D20, D20Roll, Outcome, check_natural};
use crate::rules::{Rules, ShootingCrit};

/// Damage of a basic attack (L43).
pub const BASIC_ATTACK_DAMAGE: u32 = 1;
/// Damage of a thrown object (L47).
pub const THROW_OBJECT_DAMAGE: u32 = 1;
/// Damage of a successful shot (L75).
pub const SHOOTING_DAMAGE: u32 = 2;
/// Damage of an automatically successful shot under the ruling (L75, SC-A1).
pub const SHOOTING_AUTOMATIC_DAMAGE: u32 = 5;
/// Damage of each successful blasting attack (L77).
pub const BLASTING_DAMAGE: u32 = 1;
/// How many separate targets blasting attacks in one turn (L77).
pub const BLASTING_TARGETS: usize = 3;
/// Knockout damage by a healthy attacker (L79).
pub const KNOCKOUT_DAMAGE_HEALTHY: u32 = 4;
/// Knockout damage by an injured attacker (L79).
pub const KNOCKOUT_DAMAGE_INJURED: u32 = 2;
/// Extra damage of an automatically successful damaging attack (L37).
pub const AUTOMATIC_EXTRA_DAMAGE: u32 = 1;
/// The most attacks one action makes (blasting's three, L77).
pub const MAX_ATTACKS_PER_ACTION: usize = BLASTING_TARGETS;

/// Close or long range (L43–L57): engage helps close-range attacks (L55), take cover goes
/// with long-range ones (L57), swimming adds to close-range attacks in water (L95).
///
/// ```
/// use dice_scratch_rps::{AttackKind, Range};
/// assert_eq!(AttackKind::Knockout.range(), Range::Close);
/// assert_eq!(AttackKind::ThrowObject.range(), Range::Long);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Range {
    /// Close range.
    Close,
    /// Long range.
    Long,
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Range::Close => "close range",
            Range::Long => "long range",
        })
    }
}

/// Every kind of attack roll in the rulebook.
///
/// ```
/// use dice_scratch_rps::{Ability, AttackKind, Health};
/// assert!(AttackKind::BasicAttack.allows(None));
/// assert!(AttackKind::BasicAttack.allows(Some(Ability::Fighting)));
/// assert!(!AttackKind::Hold.allows(Some(Ability::Fighting)));
/// assert_eq!(AttackKind::Knockout.damage(Health::Injured), 2);
/// assert!(AttackKind::Hold.delays_target());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AttackKind {
    /// Close range, 1 damage; non-ability, fighting or wrestling roll (L43).
    BasicAttack,
    /// Close range, no damage, delays the target until the end of its next turn;
    /// non-ability or wrestling roll (L45).
    Hold,
    /// Long range, 1 damage, needs a throwable object; non-ability roll (L47).
    ThrowObject,
    /// Close range against an evading character, difficulty 10 + the evader's movement
    /// ability; the catcher may add a movement ability (L51).
    Catch,
    /// Long range, 2 damage (L75).
    Shooting,
    /// Long range, 1 damage, up to three separate targets (L77).
    Blasting,
    /// Close range, 4 damage (2 if the attacker is injured); delays the attacker (L79).
    Knockout,
}

impl AttackKind {
    /// Every kind.
    pub const ALL: [AttackKind; 7] = [
        AttackKind::BasicAttack,
        AttackKind::Hold,
        AttackKind::ThrowObject,
        AttackKind::Catch,
        AttackKind::Shooting,
        AttackKind::Blasting,
        AttackKind::Knockout,
    ];

    /// Close or long range.
    ///
    /// ```
    /// use dice_scratch_rps::{AttackKind, Range};
    /// assert_eq!(AttackKind::Shooting.range(), Range::Long);
    /// ```
    pub const fn range(self) -> Range {
        match self {
            AttackKind::ThrowObject | AttackKind::Shooting | AttackKind::Blasting => Range::Long,
            _ => Range::Close,
        }
    }

    /// Whether the attack may be rolled with `ability` added (`None`: a non-ability roll).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, AttackKind};
    /// assert!(AttackKind::Catch.allows(Some(Ability::Quickness)));
    /// assert!(!AttackKind::Shooting.allows(None));
    /// ```
    pub const fn allows(self, ability: Option<Ability>) -> bool {
        match (self, ability) {
            (AttackKind::BasicAttack, None | Some(Ability::Fighting | Ability::Wrestling)) => true,
            (AttackKind::Hold, None | Some(Ability::Wrestling)) => true,
            (AttackKind::ThrowObject, None) => true,
            (AttackKind::Catch, None) => true,
            (AttackKind::Catch, Some(a)) => a.is_movement(),
            (AttackKind::Shooting, Some(Ability::Shooting)) => true,
            (AttackKind::Blasting, Some(Ability::Blasting)) => true,
            (AttackKind::Knockout, Some(Ability::Knockout)) => true,
            _ => false,
        }
    }

    /// The rolls allowed, in words (for messages).
    ///
    /// ```
    /// assert_eq!(dice_scratch_rps::AttackKind::Hold.allowed_rolls(), "a non-ability or wrestling roll");
    /// ```
    pub const fn allowed_rolls(self) -> &'static str {
        match self {
            AttackKind::BasicAttack => "a non-ability, fighting or wrestling roll",
            AttackKind::Hold => "a non-ability or wrestling roll",
            AttackKind::ThrowObject => "a non-ability roll",
            AttackKind::Catch => "a non-ability roll or one movement ability",
            AttackKind::Shooting => "a shooting roll",
            AttackKind::Blasting => "a blasting roll",
            AttackKind::Knockout => "a knockout roll",
        }
    }

    /// Damage on a success for an attacker in `attacker` health (L43–L47, L75–L79); 0 for
    /// holds and catches.
    ///
    /// ```
    /// use dice_scratch_rps::{AttackKind, Health};
    /// assert_eq!(AttackKind::Knockout.damage(Health::Healthy), 4);
    /// assert_eq!(AttackKind::Shooting.damage(Health::Injured), 2);
    /// ```
    pub const fn damage(self, attacker: Health) -> u32 {
        match self {
            AttackKind::BasicAttack => BASIC_ATTACK_DAMAGE,
            AttackKind::ThrowObject => THROW_OBJECT_DAMAGE,
            AttackKind::Shooting => SHOOTING_DAMAGE,
            AttackKind::Blasting => BLASTING_DAMAGE,
            AttackKind::Knockout => match attacker {
                Health::Healthy => KNOCKOUT_DAMAGE_HEALTHY,
                _ => KNOCKOUT_DAMAGE_INJURED,
            },
            AttackKind::Hold | AttackKind::Catch => 0,
        }
    }

    /// Whether a success delays the target until the end of its next turn (hold, L45).
    ///
    /// ```
    /// assert!(!dice_scratch_rps::AttackKind::BasicAttack.delays_target());
    /// ```
    pub const fn delays_target(self) -> bool {
        matches!(self, AttackKind::Hold)
    }

    /// Whether using it delays the attacker until the end of his next turn: knockout always
    /// (L79); shooting and blasting when the attacker is injured (L75, L77).
    ///
    /// ```
    /// use dice_scratch_rps::{AttackKind, Health};
    /// assert!(AttackKind::Knockout.delays_attacker(Health::Healthy));
    /// assert!(AttackKind::Shooting.delays_attacker(Health::Injured));
    /// assert!(!AttackKind::Shooting.delays_attacker(Health::Healthy));
    /// ```
    pub const fn delays_attacker(self, attacker: Health) -> bool {
        match self {
            AttackKind::Knockout => true,
            AttackKind::Shooting | AttackKind::Blasting => matches!(attacker, Health::Injured),
            _ => false,
        }
    }
}

impl fmt::Display for AttackKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AttackKind::BasicAttack => "basic attack",
            AttackKind::Hold => "hold",
            AttackKind::ThrowObject => "throw object",
            AttackKind::Catch => "catch",
            AttackKind::Shooting => "shooting",
            AttackKind::Blasting => "blasting",
            AttackKind::Knockout => "knockout",
        })
    }
}

/// Damage of an automatically successful attack that normally does `damage` (L37): one
/// more, and still none for an attack that does no damage.
///
/// ```
/// use dice_scratch_rps::attack::automatic_damage;
/// assert_eq!(automatic_damage(3), 4); // L37
/// assert_eq!(automatic_damage(0), 0);
/// ```
pub const fn automatic_damage(damage: u32) -> u32 {
    if damage == 0 {
        0
    } else {
        damage + AUTOMATIC_EXTRA_DAMAGE
    }
}

/// What one attack roll did: its outcome and the damage dealt.
///
/// ```
/// use dice_scratch_rps::{AttackResult, Outcome};
/// let r = AttackResult { outcome: Outcome::Success, damage: 2 };
/// assert!(r.hit());
/// assert_eq!(r.to_string(), "hit, 2 damage");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AttackResult {
    /// The roll's outcome.
    pub outcome: Outcome,
    /// Damage dealt (0 on a failure, and for holds and catches).
    pub damage: u32,
}

impl AttackResult {
    /// Whether the attack succeeded.
    ///
    /// ```
    /// use dice_scratch_rps::{AttackResult, Outcome};
    /// assert!(!AttackResult { outcome: Outcome::Failure, damage: 0 }.hit());
    /// ```
    pub const fn hit(&self) -> bool {
        self.outcome.is_success()
    }
}

impl fmt::Display for AttackResult {
    /// `miss`, `hit, 2 damage`, `automatic success, 5 damage`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome {
            Outcome::Failure => f.write_str("miss"),
            Outcome::Success => write!(f, "hit, {} damage", self.damage),
            Outcome::AutomaticSuccess => write!(f, "automatic success, {} damage", self.damage),
        }
    }
}

/// One attack roll (L27–L57, L73–L83): the d20 roll, with the ability the rule allows,
/// against the difficulty (usually the target's defense, L29), and the damage it does.
///
/// Rolling it gives an [`AttackResult`]; the exact law enumerates the 20 faces, so it
/// includes the natural 20's automatic success and extra damage (L15, L37), and shooting's
/// own figure (L75, [`Rules::shooting_crit`]).
///
/// ```
/// use dice_scratch_rps::{Ability, Attack, AttackKind, Rules};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// // Flipfire (2 shooting) shoots Breakhelm X-19 (defense 13), L133.
/// let shot = Attack::new(AttackKind::Shooting, Some((Ability::Shooting, 2)), 13, &Rules::default())?;
/// assert_eq!(shot.hit_chance(), 0.5);              // faces 11..=20
/// let damage = shot.damage_distribution()?;
/// assert!((damage.probability(&2) - 9.0 / 20.0).abs() < 1e-12); // faces 11..=19
/// assert!((damage.probability(&5) - 1.0 / 20.0).abs() < 1e-12); // a natural 20 (SC-A1)
/// assert_eq!(shot.resolve(17)?.damage, 2);         // L145: a total of 19
/// let result = shot.roll(&mut Xoshiro256PlusPlus::seed_from_u64(7));
/// println!("{shot}: {result}");
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    kind: AttackKind,
    ability: Option<Ability>,
    attacker: Health,
    shooting_crit: ShootingCrit,
    roll: D20Roll,
    /// Damage on a success and on an automatic success, worked out once.
    on_success: u32,
    on_automatic: u32,
}

impl Attack {
    /// An attack of `kind`, rolled with `ability` at its level (`None`: a non-ability roll),
    /// against `difficulty`, by a healthy attacker.
    ///
    /// # Errors
    /// [`Error::NotAllowed`] when the rule does not allow that roll;
    /// [`Error::MissingAbility`] for an ability at level 0 (L11); [`Error::LevelLimit`];
    /// [`Error::OutOfRange`] for the difficulty.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Rules};
    /// let rules = Rules::default();
    /// assert!(Attack::new(AttackKind::Hold, Some((Ability::Fighting, 4)), 13, &rules).is_err());
    /// assert!(Attack::new(AttackKind::Shooting, None, 13, &rules).is_err());
    /// let hold = Attack::new(AttackKind::Hold, Some((Ability::Wrestling, 2)), 13, &rules)?;
    /// assert_eq!(hold.hit_chance(), 0.5); // faces 11..=20
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn new(
        kind: AttackKind,
        with: Option<(Ability, u32)>,
        difficulty: i64,
        rules: &Rules,
    ) -> Result<Attack, Error> {
        let ability = with.map(|(a, _)| a);
        if !kind.allows(ability) {
            return Err(Error::NotAllowed {
                attack: kind,
                ability,
            });
        }
        let roll = match with {
            None => D20Roll::non_ability(difficulty)?,
            Some((ability, 0)) => return Err(Error::MissingAbility { ability }),
            Some((_, level)) => D20Roll::ability(level, difficulty)?,
        };
        Ok(Attack {
            kind,
            ability,
            attacker: Health::Healthy,
            shooting_crit: rules.shooting_crit,
            roll,
            on_success: 0,
            on_automatic: 0,
        }
        .with_damage())
    }

    fn with_damage(mut self) -> Attack {
        self.on_success = self.kind.damage(self.attacker);
        self.on_automatic = match self.kind {
            AttackKind::Shooting => self.shooting_crit.damage(),
            _ => automatic_damage(self.on_success),
        };
        self
    }

    /// The same attack with a situational modifier on the roll (engage +2, take cover −2,
    /// swimming in water), replacing any previous one.
    ///
    /// # Errors
    /// [`Error::OutOfRange`].
    ///
    /// ```
    /// use dice_scratch_rps::{Attack, AttackKind, Rules};
    /// let engaged = Attack::new(AttackKind::BasicAttack, None, 13, &Rules::default())?.with_modifier(2)?;
    /// assert_eq!(engaged.hit_chance(), 0.5);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_modifier(mut self, modifier: i64) -> Result<Attack, Error> {
        self.roll = self.roll.with_modifier(modifier)?;
        Ok(self)
    }

    /// The same attack by an attacker in `health` (knockout does 2 damage when injured, L79).
    ///
    /// # Errors
    /// [`Error::Incapacitated`]: an incapacitated character cannot act (L33).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Health, Rules};
    /// let ko = Attack::new(AttackKind::Knockout, Some((Ability::Knockout, 3)), 12, &Rules::default())?
    ///     .with_attacker(Health::Injured)?;
    /// assert_eq!(ko.damage_on_success(), 2);
    /// assert_eq!(ko.damage_on_automatic_success(), 3);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn with_attacker(mut self, health: Health) -> Result<Attack, Error> {
        if !health.can_act() {
            return Err(Error::Incapacitated);
        }
        self.attacker = health;
        Ok(self.with_damage())
    }

    /// The kind of attack.
    ///
    /// ```
    /// use dice_scratch_rps::{Attack, AttackKind, Rules};
    /// let a = Attack::new(AttackKind::ThrowObject, None, 11, &Rules::default())?;
    /// assert_eq!(a.kind(), AttackKind::ThrowObject);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn kind(&self) -> AttackKind {
        self.kind
    }

    /// The ability added to the roll (`None`: a non-ability roll).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Rules};
    /// let a = Attack::new(AttackKind::BasicAttack, Some((Ability::Fighting, 4)), 13, &Rules::default())?;
    /// assert_eq!(a.ability(), Some(Ability::Fighting));
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn ability(&self) -> Option<Ability> {
        self.ability
    }

    /// The d20 roll.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Rules};
    /// let a = Attack::new(AttackKind::BasicAttack, Some((Ability::Fighting, 4)), 13, &Rules::default())?;
    /// assert_eq!(a.d20().difficulty(), 13);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn d20(&self) -> &D20Roll {
        &self.roll
    }

    /// Damage on an ordinary success.
    ///
    /// ```
    /// use dice_scratch_rps::{Attack, AttackKind, Rules};
    /// let a = Attack::new(AttackKind::BasicAttack, None, 13, &Rules::default())?;
    /// assert_eq!(a.damage_on_success(), 1);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn damage_on_success(&self) -> u32 {
        self.on_success
    }

    /// Damage on an automatic success: one more (L37), and shooting's own figure (L75,
    /// [`Rules::shooting_crit`]).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Rules, ShootingCrit};
    /// let house = Rules { shooting_crit: ShootingCrit::GeneralPlusOne, ..Rules::default() };
    /// let shot = Attack::new(AttackKind::Shooting, Some((Ability::Shooting, 4)), 12, &house)?;
    /// assert_eq!(shot.damage_on_automatic_success(), 3);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn damage_on_automatic_success(&self) -> u32 {
        self.on_automatic
    }

    /// Whether using this attack delays the attacker (L75–L79).
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Rules};
    /// let ko = Attack::new(AttackKind::Knockout, Some((Ability::Knockout, 1)), 12, &Rules::default())?;
    /// assert!(ko.delays_attacker());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn delays_attacker(&self) -> bool {
        self.kind.delays_attacker(self.attacker)
    }

    /// The pure form: what the attack does for a die already rolled.
    ///
    /// # Errors
    /// [`Error::Natural`] for a face outside 1..=20.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Outcome, Rules};
    /// // L131: Chokestar's wrestling basic attack totals 13 against defense 13.
    /// let a = Attack::new(AttackKind::BasicAttack, Some((Ability::Wrestling, 2)), 13, &Rules::default())?;
    /// let r = a.resolve(11)?;
    /// assert_eq!((r.outcome, r.damage), (Outcome::Success, 1));
    /// assert_eq!(a.resolve(20)?.damage, 2); // L37
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn resolve(&self, natural: u32) -> Result<AttackResult, Error> {
        check_natural(natural)?;
        Ok(self.result(natural))
    }

    #[inline]
    pub(crate) fn result(&self, natural: u32) -> AttackResult {
        let outcome = self.roll.outcome(natural);
        let damage = match outcome {
            Outcome::Failure => 0,
            Outcome::Success => self.on_success,
            Outcome::AutomaticSuccess => self.on_automatic,
        };
        AttackResult { outcome, damage }
    }

    /// The exact chance that the attack hits (succeeds).
    ///
    /// ```
    /// use dice_scratch_rps::{Attack, AttackKind, Rules};
    /// let a = Attack::new(AttackKind::BasicAttack, None, 25, &Rules::default())?;
    /// assert_eq!(a.hit_chance(), 0.05); // only a natural 20
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn hit_chance(&self) -> f64 {
        self.roll.success_chance()
    }

    /// The exact law of the damage dealt.
    ///
    /// # Errors
    /// None in practice (the law is 20 faces); the `Result` is dice-core's.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Rules};
    /// let ko = Attack::new(AttackKind::Knockout, Some((Ability::Knockout, 4)), 13, &Rules::default())?;
    /// let d = ko.damage_distribution()?;
    /// assert_eq!(d.outcomes(), &[0, 4, 5]);
    /// assert!((d.mean() - (11.0 * 4.0 + 5.0) / 20.0).abs() < 1e-12); // faces 9..=19, then 20
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn damage_distribution(&self) -> Result<Dist<u32>, Error> {
        Ok(self.distribution()?.map(|r| r.damage))
    }

    /// The expected damage (the mean of [`Attack::damage_distribution`]), computed from the
    /// 20 faces.
    ///
    /// ```
    /// use dice_scratch_rps::{Attack, AttackKind, Rules};
    /// let a = Attack::new(AttackKind::BasicAttack, None, 11, &Rules::default())?;
    /// assert!((a.expected_damage() - (9.0 * 1.0 + 2.0) / 20.0).abs() < 1e-12);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn expected_damage(&self) -> f64 {
        self.expected_damage_up_to(u32::MAX)
    }

    /// The expected hit points taken from a target who has `hit_points` left (damage beyond
    /// them takes nothing more: hit points never go below zero, L33), from the 20 faces.
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Attack, AttackKind, Rules};
    /// // Shooting (2 damage, 5 on a natural 20) at defense 13 with 4 shooting: faces 9..=20.
    /// let shot = Attack::new(AttackKind::Shooting, Some((Ability::Shooting, 4)), 13, &Rules::default())?;
    /// assert!((shot.expected_damage_up_to(1) - 12.0 / 20.0).abs() < 1e-12);
    /// assert!((shot.expected_damage_up_to(3) - (11.0 * 2.0 + 3.0) / 20.0).abs() < 1e-12);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn expected_damage_up_to(&self, hit_points: u32) -> f64 {
        // The faces counted by outcome: a sum of whole numbers, exact in f64.
        let (_, success, automatic) = self.roll.face_counts();
        let total = u64::from(success) * u64::from(self.on_success.min(hit_points))
            + u64::from(automatic) * u64::from(self.on_automatic.min(hit_points));
        total as f64 / 20.0
    }
}

impl Roll for Attack {
    type Outcome = AttackResult;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> AttackResult {
        if !self.roll.is_rolled() {
            return AttackResult {
                outcome: Outcome::Failure,
                damage: 0,
            };
        }
        self.result(D20.roll_face(rng))
    }
}

impl Exact for Attack {
    /// The law of the result, from the 20 equally likely faces.
    fn distribution(&self) -> Result<Dist<AttackResult>, dice_core::Error> {
        Ok(D20.distribution()?.map(|&n| self.result(n)))
    }
}

impl RollDetailed for Attack {
    /// The d20 (natural, modifier, total against the difficulty), flagged `success` on a
    /// hit and `critical` on a natural 20.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.roll.roll_record_into(rng, record);
    }
}

impl fmt::Display for Attack {
    /// `shooting: ability roll 1d20+2 vs 13`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.roll)
    }
}

/// The attacks one action makes (L77, L81, L83): fighting's two basic attacks, wrestling's
/// basic attack and hold, blasting's three targets. Each is an independent d20 roll.
///
/// Rolling gives the total damage; the exact law is the convolution of the attacks' laws.
///
/// ```
/// use dice_scratch_rps::{Ability, Attack, AttackKind, Attacks, Rules};
/// use dice_core::Exact;
/// // L135: Breakhelm X-19 (4 fighting, healthy) attacks Chokestar (defense 13) twice.
/// let blow = Attack::new(AttackKind::BasicAttack, Some((Ability::Fighting, 4)), 13, &Rules::default())?;
/// let pair = Attacks::new(vec![blow.clone(), blow])?;
/// assert_eq!(pair.resolve(&[14, 10])?, 2); // totals 18 and 14
/// let d = pair.distribution()?;
/// // 1 + 1, or a natural 20 (2 damage) and a miss, either way round.
/// let p = (11.0 / 20.0) * (11.0 / 20.0) + 2.0 * (1.0 / 20.0) * (8.0 / 20.0);
/// assert!((d.probability(&2) - p).abs() < 1e-12);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attacks {
    attacks: Vec<Attack>,
}

impl Attacks {
    /// The attacks of one action, in the order rolled.
    ///
    /// # Errors
    /// [`Error::AttackCount`] unless 1 to [`MAX_ATTACKS_PER_ACTION`] attacks.
    ///
    /// ```
    /// use dice_scratch_rps::Attacks;
    /// assert!(Attacks::new(vec![]).is_err());
    /// ```
    pub fn new(attacks: Vec<Attack>) -> Result<Attacks, Error> {
        if attacks.is_empty() || attacks.len() > MAX_ATTACKS_PER_ACTION {
            return Err(Error::AttackCount {
                count: attacks.len(),
                max: MAX_ATTACKS_PER_ACTION,
            });
        }
        Ok(Attacks { attacks })
    }

    /// The attacks.
    ///
    /// ```
    /// use dice_scratch_rps::{Attack, AttackKind, Attacks, Rules};
    /// let a = Attack::new(AttackKind::BasicAttack, None, 12, &Rules::default())?;
    /// assert_eq!(Attacks::new(vec![a])?.attacks().len(), 1);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn attacks(&self) -> &[Attack] {
        &self.attacks
    }

    /// The pure form: each attack's result for dice already rolled, in order.
    ///
    /// # Errors
    /// [`Error::Dice`] unless one die per attack; [`Error::Natural`].
    ///
    /// ```
    /// use dice_scratch_rps::{Attack, AttackKind, Attacks, Rules};
    /// let a = Attack::new(AttackKind::BasicAttack, None, 12, &Rules::default())?;
    /// let two = Attacks::new(vec![a.clone(), a])?;
    /// let r = two.results(&[12, 20])?;
    /// assert_eq!((r[0].damage, r[1].damage), (1, 2));
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn results(&self, naturals: &[u32]) -> Result<Vec<AttackResult>, Error> {
        if naturals.len() != self.attacks.len() {
            return Err(Error::Dice {
                needed: self.attacks.len(),
                given: naturals.len(),
            });
        }
        self.attacks
            .iter()
            .zip(naturals)
            .map(|(a, &n)| a.resolve(n))
            .collect()
    }

    /// The pure form: the total damage for dice already rolled.
    ///
    /// # Errors
    /// As [`Attacks::results`].
    ///
    /// ```
    /// use dice_scratch_rps::{Attack, AttackKind, Attacks, Rules};
    /// let a = Attack::new(AttackKind::BasicAttack, None, 12, &Rules::default())?;
    /// assert_eq!(Attacks::new(vec![a.clone(), a])?.resolve(&[1, 12])?, 1);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn resolve(&self, naturals: &[u32]) -> Result<u32, Error> {
        Ok(self.results(naturals)?.iter().map(|r| r.damage).sum())
    }
}

impl Roll for Attacks {
    /// Total damage.
    type Outcome = u32;

    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.attacks.iter().map(|a| Roll::roll(a, rng).damage).sum()
    }
}

impl Exact for Attacks {
    /// The law of the total damage: the attacks' damage laws convolved.
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        let mut total = Dist::certain(0u32);
        for a in &self.attacks {
            let d = D20.distribution()?.map(|&n| a.result(n).damage);
            total = total.joint(&d).map(|&(x, y)| x + y);
        }
        Ok(total)
    }
}

impl fmt::Display for Attacks {
    /// The attacks, separated by `; `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.attacks.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{a}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expected damage counted face by face, as the definition reads.
    fn by_faces(a: &Attack, hit_points: u32) -> f64 {
        (1..=20)
            .map(|n| f64::from(a.result(n).damage.min(hit_points)))
            .sum::<f64>()
            / 20.0
    }

    #[test]
    fn expected_damage_equals_the_sum_over_the_faces() {
        for rules in [
            Rules::default(),
            Rules {
                natural_20_without_ability: true,
                ..Rules::default()
            },
        ] {
            for kind in AttackKind::ALL {
                for with in core::iter::once(None).chain(Ability::ALL.map(Some)) {
                    for level in [0, 1, 3] {
                        for difficulty in [-3, 5, 11, 14, 22, 30] {
                            let w = with.map(|a| (a, level));
                            let Ok(a) = Attack::new(kind, w, difficulty, &rules) else {
                                continue;
                            };
                            for health in [Health::Healthy, Health::Injured] {
                                let a = a
                                    .clone()
                                    .with_modifier(-2)
                                    .and_then(|a| a.with_attacker(health));
                                let Ok(a) = a else { continue };
                                for hp in [0, 1, 2, 4, u32::MAX] {
                                    assert_eq!(
                                        a.expected_damage_up_to(hp).to_bits(),
                                        by_faces(&a, hp).to_bits(),
                                        "{kind:?} {with:?} {level} {difficulty} {hp}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
