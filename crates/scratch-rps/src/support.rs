//! Support and vehicle abilities outside the turn order: healing's rule (L99), craftsmanship
//! among traveling companions (L101), and operating vehicles (L109–L117). Command's minions
//! are checked by [`crate::creation::check_minions`].

use core::fmt;

use dice_core::Rng;

use crate::ability::{Ability, Vehicle};
use crate::character::{Character, Health, tgh_half};
use crate::error::Error;
use crate::roll::{D20, D20Roll, Outcome};
use crate::rules::{HurryRoll, Rules};

/// The difficulty of reviving an incapacitated character and of healing an injured one (L99).
pub const HEALING_DIFFICULTY: i64 = 10;

/// The usual difficulty of adding a temporary bonus in a hurry (L101: "usually difficulty
/// 10").
pub const HURRY_DIFFICULTY: i64 = 10;

/// What healing does for a character (L99, SC-R30).
///
/// ```
/// use dice_scratch_rps::Treatment;
/// // L139: Chokestar (3 toughness) is injured at 1 hit point; healed, he has 2.
/// let t = Treatment::needed(1, 3)?;
/// assert_eq!(t, Treatment::Heal);
/// assert_eq!(t.hit_points_after(3), 2);
/// assert_eq!(Treatment::needed(0, 3)?.hit_points_after(3), 1);
/// assert!(Treatment::needed(2, 3).is_err()); // healthy (SC-A13)
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Treatment {
    /// Revive an incapacitated character: difficulty 10, then 1 hit point (L99).
    Revive,
    /// Heal an injured character: difficulty 10, then 1 more than tgh/2 (L99).
    Heal,
}

impl Treatment {
    /// The treatment a character at `hp` with `toughness` needs.
    ///
    /// # Errors
    /// [`Error::NothingToHeal`] for a healthy character (SC-A13);
    /// [`Error::WithoutToughness`] for a character without toughness: his maximum hit
    /// points are 0 (L33), so there is no hit point to revive him to, and he may not act in
    /// combat anyway (L71).
    ///
    /// ```
    /// use dice_scratch_rps::{Error, Treatment};
    /// assert_eq!(Treatment::needed(0, 1)?, Treatment::Revive);
    /// assert_eq!(Treatment::needed(0, 0), Err(Error::WithoutToughness)); // L71
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub const fn needed(hp: u32, toughness: u32) -> Result<Treatment, Error> {
        if toughness == 0 {
            return Err(Error::WithoutToughness);
        }
        match Health::of(hp, toughness) {
            Health::Incapacitated => Ok(Treatment::Revive),
            Health::Injured => Ok(Treatment::Heal),
            Health::Healthy => Err(Error::NothingToHeal),
        }
    }

    /// Hit points after a successful treatment (L99), never more than the maximum, the
    /// toughness (L33): a character without toughness stays at 0 (see
    /// [`Treatment::needed`]). The state is then computed from them (SC-A5): a revived
    /// character with toughness 1 is healthy at 1 hit point.
    ///
    /// ```
    /// use dice_scratch_rps::Treatment;
    /// assert_eq!(Treatment::Heal.hit_points_after(7), 4); // barely healthy
    /// assert_eq!(Treatment::Revive.hit_points_after(0), 0); // no maximum to restore (L33)
    /// ```
    pub const fn hit_points_after(self, toughness: u32) -> u32 {
        let hp = match self {
            Treatment::Revive => 1,
            Treatment::Heal => tgh_half(toughness) + 1,
        };
        if hp > toughness { toughness } else { hp }
    }
}

impl fmt::Display for Treatment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Treatment::Revive => "revive",
            Treatment::Heal => "heal",
        })
    }
}

/// A healer's roll (L99): a healing ability roll against difficulty 10.
///
/// # Errors
/// [`Error::MissingAbility`] without healing (L11).
///
/// ```
/// use dice_scratch_rps::{Character, Outcome, support::healing_roll};
/// let flipfire = Character::from_stat_block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness")?;
/// let r = healing_roll(&flipfire)?;
/// assert_eq!(r.resolve(13)?, Outcome::Success); // L139: a total of 14
/// assert_eq!(r.success_chance(), 0.6);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
pub fn healing_roll(healer: &Character) -> Result<D20Roll, Error> {
    if !healer.has(Ability::Healing) {
        return Err(Error::MissingAbility {
            ability: Ability::Healing,
        });
    }
    D20Roll::ability(healer.level(Ability::Healing), HEALING_DIFFICULTY)
}

/// A roll to operate `vehicle` (L109–L117): an ability roll with the vehicle's ability. The
/// vehicle rules are not in the text (SC-R33, SC-A11), so the difficulty is the caller's.
///
/// # Errors
/// [`Error::MissingAbility`] when the character cannot operate the vehicle;
/// [`Error::OutOfRange`] for the difficulty.
///
/// ```
/// use dice_scratch_rps::{Character, Vehicle, support::vehicle_roll};
/// let breakhelm = Character::from_stat_block("1 piloting, 4 shooting, 4 fighting, 6 toughness")?;
/// let r = vehicle_roll(&breakhelm, Vehicle::AirOrSpace, 15)?;
/// assert_eq!(r.success_chance(), 0.35);
/// assert!(vehicle_roll(&breakhelm, Vehicle::Water, 15).is_err());
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
pub fn vehicle_roll(
    character: &Character,
    vehicle: Vehicle,
    difficulty: i64,
) -> Result<D20Roll, Error> {
    if !character.can_operate(vehicle) {
        return Err(Error::MissingAbility {
            ability: vehicle.ability(),
        });
    }
    character.ability_roll(vehicle.ability(), difficulty)
}

/// A temporary +1 one companion gave another (L101).
///
/// ```
/// use dice_scratch_rps::{Ability, TemporaryBonus};
/// let b = TemporaryBonus { from: 0, to: 1, ability: Ability::Shooting };
/// assert_eq!(b.to_string(), "member 0 gives member 1 +1 shooting");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TemporaryBonus {
    /// The craftsman (a member index).
    pub from: usize,
    /// The companion (a member index).
    pub to: usize,
    /// The ability improved.
    pub ability: Ability,
}

impl fmt::Display for TemporaryBonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "member {} gives member {} +1 {}",
            self.from, self.to, self.ability
        )
    }
}

/// Traveling companions and the temporary bonuses craftsmen give them (L101, SC-R31).
///
/// For each level of craftsmanship a character may give a companion a temporary +1 to an
/// ability already at level 1 or more; an ability carries at most one temporary bonus, from
/// anyone; the bonus lasts until removed or until the two part ways. Bonuses are not given
/// to oneself (SC-A14). In a hurry a roll is needed (usually difficulty 10, see
/// [`Rules::hurry_roll`]); on a failure that bonus cannot be used until the hurry is over.
///
/// Bonuses cannot be added or removed in combat (L101): a [`crate::Fight`] takes copies of
/// the characters and offers no way to change them.
///
/// ```
/// use dice_scratch_rps::{Ability, Character, Outcome, Party, Rules};
/// let smith = Character::from_stat_block("2 craftsmanship, 2 toughness")?;
/// let archer = Character::from_stat_block("3 shooting, 3 toughness")?;
/// let mut party = Party::new(vec![smith, archer], Rules::default());
/// party.give_bonus(0, 1, Ability::Shooting)?;
/// assert_eq!(party.member(1)?.level(Ability::Shooting), 4);
/// // In a hurry: a craftsmanship roll, difficulty 10; the die shows 5, 5 + 2 < 10.
/// let hurried = party.give_bonus_in_hurry(0, 1, Ability::Toughness, 10, 5)?;
/// assert_eq!(hurried, Outcome::Failure);
/// assert!(party.give_bonus_in_hurry(0, 1, Ability::Toughness, 10, 20).is_err()); // blocked
/// party.end_hurry();
/// party.give_bonus(0, 1, Ability::Toughness)?;
/// assert_eq!(party.member(1)?.max_hit_points(), 4);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Party {
    members: Vec<Character>,
    given: Vec<TemporaryBonus>,
    blocked: Vec<TemporaryBonus>,
    rules: Rules,
}

impl Party {
    /// Companions traveling together, with no bonuses given yet (bonuses already on the
    /// characters are kept, with no giver on record).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Party, Rules};
    /// let p = Party::new(vec![Character::new()], Rules::default());
    /// assert_eq!(p.members().len(), 1);
    /// ```
    pub fn new(members: Vec<Character>, rules: Rules) -> Party {
        Party {
            members,
            given: Vec::new(),
            blocked: Vec::new(),
            rules,
        }
    }

    /// The members, with their temporary bonuses.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Party, Rules};
    /// assert!(Party::new(vec![], Rules::default()).members().is_empty());
    /// ```
    pub fn members(&self) -> &[Character] {
        &self.members
    }

    /// One member.
    ///
    /// # Errors
    /// [`Error::NoSuchMember`].
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Party, Rules};
    /// assert!(Party::new(vec![], Rules::default()).member(0).is_err());
    /// ```
    pub fn member(&self, index: usize) -> Result<&Character, Error> {
        self.members.get(index).ok_or(Error::NoSuchMember {
            index,
            count: self.members.len(),
        })
    }

    /// The bonuses given, in the order given.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Party, Rules};
    /// assert!(Party::new(vec![], Rules::default()).bonuses().is_empty());
    /// ```
    pub fn bonuses(&self) -> &[TemporaryBonus] {
        &self.given
    }

    fn check(&self, bonus: TemporaryBonus) -> Result<(), Error> {
        let giver = self.member(bonus.from)?;
        let receiver = self.member(bonus.to)?;
        if bonus.from == bonus.to {
            return Err(Error::BonusToSelf);
        }
        let level = giver.base_level(Ability::Craftsmanship);
        if level == 0 {
            return Err(Error::MissingAbility {
                ability: Ability::Craftsmanship,
            });
        }
        let outstanding = self.given.iter().filter(|b| b.from == bonus.from).count();
        if outstanding >= level as usize {
            return Err(Error::NoBonusesLeft { level });
        }
        // Also checks the ability is at level 1 and carries no bonus yet.
        receiver.with_temporary_bonus(bonus.ability)?;
        Ok(())
    }

    fn apply(&mut self, bonus: TemporaryBonus) -> Result<(), Error> {
        let receiver = self.member(bonus.to)?.with_temporary_bonus(bonus.ability)?;
        self.members[bonus.to] = receiver;
        self.given.push(bonus);
        Ok(())
    }

    /// `from` gives `to` a temporary +1 to `ability`, not in a hurry (no roll, L101). A bonus
    /// whose hurried roll failed stays blocked until [`Party::end_hurry`] (L101: "he cannot
    /// use that temporary bonus until he is no longer in a hurry").
    ///
    /// # Errors
    /// [`Error::NoSuchMember`], [`Error::BonusToSelf`], [`Error::MissingAbility`] (no
    /// craftsmanship), [`Error::NoBonusesLeft`], [`Error::BonusOnMissingAbility`],
    /// [`Error::BonusAlreadyGiven`], [`Error::BonusBlocked`].
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character, Party, Rules};
    /// let smith = Character::from_stat_block("1 craftsmanship, 2 toughness")?;
    /// let mut party = Party::new(vec![smith, smith], Rules::default());
    /// party.give_bonus(0, 1, Ability::Toughness)?;
    /// assert!(party.give_bonus(0, 1, Ability::Craftsmanship).is_err()); // 1 level, 1 bonus
    /// assert!(party.give_bonus(1, 0, Ability::Toughness).is_ok());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn give_bonus(&mut self, from: usize, to: usize, ability: Ability) -> Result<(), Error> {
        let bonus = TemporaryBonus { from, to, ability };
        self.check(bonus)?;
        if self.blocked.contains(&bonus) {
            return Err(Error::BonusBlocked);
        }
        self.apply(bonus)
    }

    /// The roll `from` makes to add a bonus in a hurry against `difficulty` (usually
    /// [`HURRY_DIFFICULTY`]), by [`Rules::hurry_roll`].
    ///
    /// # Errors
    /// [`Error::NoSuchMember`]; [`Error::OutOfRange`].
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Party, Rules};
    /// let smith = Character::from_stat_block("3 craftsmanship, 2 toughness")?;
    /// let party = Party::new(vec![smith], Rules::default());
    /// assert_eq!(party.hurry_roll(0, 10)?.success_chance(), 0.7);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn hurry_roll(&self, from: usize, difficulty: i64) -> Result<D20Roll, Error> {
        let giver = self.member(from)?;
        match self.rules.hurry_roll {
            HurryRoll::Craftsmanship => giver.ability_roll(Ability::Craftsmanship, difficulty),
            HurryRoll::NonAbility => D20Roll::non_ability(difficulty),
        }
    }

    /// The pure form of giving a bonus in a hurry: the roll's die is `natural`. On a success
    /// the bonus is given; on a failure it is blocked until [`Party::end_hurry`] (L101).
    ///
    /// # Errors
    /// As [`Party::give_bonus`], plus [`Error::BonusBlocked`] for a bonus whose roll failed
    /// in this hurry, [`Error::Natural`], [`Error::OutOfRange`].
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character, Outcome, Party, Rules};
    /// let smith = Character::from_stat_block("3 craftsmanship, 2 toughness")?;
    /// let mut party = Party::new(vec![smith, smith], Rules::default());
    /// assert_eq!(party.give_bonus_in_hurry(0, 1, Ability::Toughness, 10, 7)?, Outcome::Success);
    /// assert_eq!(party.member(1)?.toughness(), 3);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn give_bonus_in_hurry(
        &mut self,
        from: usize,
        to: usize,
        ability: Ability,
        difficulty: i64,
        natural: u32,
    ) -> Result<Outcome, Error> {
        let bonus = TemporaryBonus { from, to, ability };
        self.check(bonus)?;
        if self.blocked.contains(&bonus) {
            return Err(Error::BonusBlocked);
        }
        let outcome = self.hurry_roll(from, difficulty)?.resolve(natural)?;
        if outcome.is_success() {
            self.apply(bonus)?;
        } else {
            self.blocked.push(bonus);
        }
        Ok(outcome)
    }

    /// [`Party::give_bonus_in_hurry`] with the die rolled with `rng`.
    ///
    /// # Errors
    /// As [`Party::give_bonus_in_hurry`].
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character, Party, Rules};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let smith = Character::from_stat_block("3 craftsmanship, 2 toughness")?;
    /// let mut party = Party::new(vec![smith, smith], Rules::default());
    /// let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    /// let outcome = party.give_bonus_in_hurry_rolled(0, 1, Ability::Toughness, 10, &mut rng)?;
    /// println!("{outcome}");
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn give_bonus_in_hurry_rolled<R: Rng + ?Sized>(
        &mut self,
        from: usize,
        to: usize,
        ability: Ability,
        difficulty: i64,
        rng: &mut R,
    ) -> Result<Outcome, Error> {
        let bonus = TemporaryBonus { from, to, ability };
        self.check(bonus)?;
        if self.blocked.contains(&bonus) {
            return Err(Error::BonusBlocked);
        }
        self.hurry_roll(from, difficulty)?;
        let natural = D20.roll_face(rng);
        self.give_bonus_in_hurry(from, to, ability, difficulty, natural)
    }

    /// The hurry is over: failed bonuses may be tried again (L101).
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Party, Rules};
    /// let mut party = Party::new(vec![], Rules::default());
    /// party.end_hurry();
    /// ```
    pub fn end_hurry(&mut self) {
        self.blocked.clear();
    }

    /// `from` removes the bonus it gave `to` on `ability` (L101).
    ///
    /// # Errors
    /// [`Error::NoSuchBonus`].
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character, Party, Rules};
    /// let smith = Character::from_stat_block("1 craftsmanship, 2 toughness")?;
    /// let mut party = Party::new(vec![smith, smith], Rules::default());
    /// party.give_bonus(0, 1, Ability::Toughness)?;
    /// party.remove_bonus(0, 1, Ability::Toughness)?;
    /// assert_eq!(party.member(1)?.toughness(), 2);
    /// assert!(party.remove_bonus(0, 1, Ability::Toughness).is_err());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn remove_bonus(&mut self, from: usize, to: usize, ability: Ability) -> Result<(), Error> {
        let bonus = TemporaryBonus { from, to, ability };
        let Some(pos) = self.given.iter().position(|b| *b == bonus) else {
            return Err(Error::NoSuchBonus { from, to, ability });
        };
        self.given.remove(pos);
        self.members[to] = self.members[to].without_temporary_bonus(ability);
        Ok(())
    }

    /// `a` and `b` are no longer traveling companions: the bonuses between them end (L101).
    ///
    /// # Errors
    /// [`Error::NoSuchMember`].
    ///
    /// ```
    /// use dice_scratch_rps::{Ability, Character, Party, Rules};
    /// let smith = Character::from_stat_block("1 craftsmanship, 2 toughness")?;
    /// let mut party = Party::new(vec![smith, smith], Rules::default());
    /// party.give_bonus(0, 1, Ability::Toughness)?;
    /// party.part_ways(1, 0)?;
    /// assert!(party.bonuses().is_empty());
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn part_ways(&mut self, a: usize, b: usize) -> Result<(), Error> {
        self.member(a)?;
        self.member(b)?;
        let ending: Vec<TemporaryBonus> = self
            .given
            .iter()
            .copied()
            .filter(|x| (x.from == a && x.to == b) || (x.from == b && x.to == a))
            .collect();
        for x in ending {
            self.remove_bonus(x.from, x.to, x.ability)?;
        }
        Ok(())
    }
}
