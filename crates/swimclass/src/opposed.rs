//! Opposed rolls and combat attacks (L25, L33–L39, L107–L111): an acting roll whose
//! successes the opposition blocks die against die (SW-R7, SW-R11, SW-R12).

use std::collections::BTreeMap;
use std::fmt;

use dice_core::{
    Blocking, Comparison, Die, Dist, Exact, Pool, Rng, Roll, RollDetailed, RollRecord, SuccessPool,
    block, count_blocked_sorted, unblocked_by_counts,
};

use crate::dice::{Compiled, Evaluated, MAX_POOL, SkillDice, roll_naturals};
use crate::error::Error;
use crate::exact::{
    FxMap, MAX_PAIRS, attack_groups, defense_values, enumerate, enumerate_naturals, facts,
    through_laws,
};
use crate::rules::Rules;
use crate::task::{advances, check_difficulty, core_error, effective_criticals, mark};
use crate::versus::{self, DefenseClass};

/// The difficulty of an attack with "No threshold to hit" (Basic Melee, L107): every die is
/// a potential hit, whatever its modifiers.
pub const NO_THRESHOLD: i32 = -crate::task::MAX_DIFFICULTY;

/// What an opposed roll or attack gives, to both sides: the opposing roll is a skill roll
/// too, so it has criticals (L21) and may advance its skill (L27); only recovery is exempt
/// from criticals (L41).
///
/// ```
/// let o = dice_swimclass::OpposedOutcome {
///     succeeded: true, hits: 1, criticals: 0, advances: false,
///     defense_criticals: 1, defense_advances: false,
/// };
/// assert_eq!(o.to_string(), "1 hit through; defense: 1 critical");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OpposedOutcome {
    /// Whether the acting roll succeeded: at least the successes it needs got through.
    pub succeeded: bool,
    /// Successes not blocked: in combat, hits, 1 damage each (L35).
    pub hits: u32,
    /// The actor's criticals that count (only when the roll did not succeed).
    pub criticals: u32,
    /// Whether the actor's skill advances: every die of the advancement pool a success ≥ 4,
    /// none of the roll's hits blocked (SW-E4).
    pub advances: bool,
    /// The opposing side's criticals that count: its natural 1s when its roll did not
    /// succeed (the acting roll succeeded), the first ignored, less those its implement
    /// cancels (L21, L52). Always 0 when unopposed.
    pub defense_criticals: u32,
    /// Whether the opposing side's skill advances (L27): its roll succeeded (the acting roll
    /// did not), it could have failed, and every die of its advancement pool shows 4 or more
    /// (an opposing die has no threshold of its own, L111, so each counts as a success, as
    /// Basic Melee's dice do, L107).
    pub defense_advances: bool,
}

impl fmt::Display for OpposedOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.hits == 1 { "" } else { "s" };
        write!(f, "{} hit{s} through", self.hits)?;
        if self.criticals > 0 {
            let c = if self.criticals == 1 { "" } else { "s" };
            write!(f, ", {} critical{c}", self.criticals)?;
        }
        if self.advances {
            f.write_str(", advances")?;
        }
        if self.defense_criticals > 0 || self.defense_advances {
            f.write_str("; defense:")?;
            if self.defense_criticals > 0 {
                let c = if self.defense_criticals == 1 { "" } else { "s" };
                write!(f, " {} critical{c}", self.defense_criticals)?;
            }
            if self.defense_advances {
                f.write_str(" advances")?;
            }
        }
        Ok(())
    }
}

/// The opposition's law kept for the acting side's choice of placement when rolling (not
/// part of the roll's identity: it follows from the other fields).
#[derive(Clone, Debug, Default)]
struct DefenseLaw(Option<std::sync::Arc<Vec<DefenseClass>>>);

impl PartialEq for DefenseLaw {
    fn eq(&self, _: &DefenseLaw) -> bool {
        true
    }
}

impl Eq for DefenseLaw {}

/// One play of an opposed roll: both sides' dice with the placements chosen.
struct Played {
    att: Evaluated,
    def: Evaluated,
    through: u32,
    def_pool_ok: bool,
    def_ones: u32,
}

/// An opposed roll (L25) or a combat attack (L33–L39): the actor's dice, each a success
/// when its value meets the difficulty, against the opposition's dice, each of which may
/// block one success of lesser or equal value ([`Rules::block_rule`]). Successes left
/// unblocked are hits.
///
/// ```
/// use dice_swimclass::{Bonus, OpposedRoll, Rules, SkillDice, NO_THRESHOLD};
/// use dice_core::Exact;
/// // The orc (Melee 2, +2) swings at Harro (Melee 3, +1 defense), L270–L278.
/// let orc = SkillDice::new(2).with_bonus(Bonus::Plus { dice: 1, modifier: 2 })?;
/// let harro = SkillDice::new(3).with_bonus(Bonus::Plus { dice: 1, modifier: 1 })?;
/// let swing = OpposedRoll::new(orc, NO_THRESHOLD, Some(harro), Rules::default())?;
/// let r = swing.resolve(&[5, 1], &[5, 4, 3])?;
/// assert_eq!(r.outcome.hits, 1); // "The club slips past the sword"
/// let law = swing.hits().distribution()?;
/// assert!((law.total() - 1.0).abs() < 1e-12);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpposedRoll {
    attack: SkillDice,
    difficulty: i32,
    defense: Option<SkillDice>,
    needed: u32,
    rules: Rules,
    att: Compiled,
    def: Option<Compiled>,
    adv_colour: u8,
    can_fail: bool,
    def_can_fail: bool,
    law_for_choice: DefenseLaw,
    /// Neither side places its bonuses against the other (no law for the acting side's
    /// choice, an opposition that does not choose): a roll is then resolved on the stack by
    /// [`OpposedRoll::roll_direct`] instead of [`OpposedRoll::play`] (follows from the other
    /// fields).
    direct: bool,
    /// The values both sides' dice can show, `(lowest, highest)`, when there are at most
    /// [`WINDOW`] of them: a direct roll then counts its dice by value instead of sorting
    /// them (follows from the other fields).
    window: Option<(i32, i32)>,
}

/// The most distinct values a direct roll counts its dice over (beyond, it sorts them).
const WINDOW: usize = 32;

impl OpposedRoll {
    /// `attack` at `difficulty` (per die; [`NO_THRESHOLD`] for Basic Melee) against
    /// `defense`, or unopposed when `None` ("A target may choose not to oppose", L25). One
    /// hit through is a success; see [`OpposedRoll::needing`].
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a difficulty beyond ±[`crate::MAX_DIFFICULTY`].
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
    /// let shot = OpposedRoll::new(SkillDice::new(3), 2, Some(SkillDice::new(3)), Rules::default())?;
    /// assert!(shot.has_chance_of_failure());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn new(
        attack: SkillDice,
        difficulty: i32,
        defense: Option<SkillDice>,
        rules: Rules,
    ) -> Result<OpposedRoll, Error> {
        check_difficulty(difficulty)?;
        let att = attack.compile(&rules, difficulty);
        let def = defense.as_ref().map(|d| d.compile(&rules, 1));
        let adv_colour = attack.advancement_colour();
        // The acting side's choice of placement needs the opposition's law when rolling;
        // too large a law to enumerate leaves the task placement (and no exact law).
        let law_for_choice = match &def {
            Some(d) if versus::chooses(&att) => {
                DefenseLaw(versus::defense_classes(d).ok().map(std::sync::Arc::new))
            }
            _ => DefenseLaw(None),
        };
        let direct = law_for_choice.0.is_none() && !def.as_ref().is_some_and(versus::chooses);
        let window = match (
            att.value_bounds(),
            def.as_ref().and_then(Compiled::value_bounds),
        ) {
            (Some((a, b)), Some((c, d))) => {
                let (lo, hi) = (a.min(c), b.max(d));
                (i64::from(hi) - i64::from(lo) < WINDOW as i64).then_some((lo, hi))
            }
            _ => None,
        };
        let mut o = OpposedRoll {
            attack,
            difficulty,
            defense,
            needed: 1,
            rules,
            att,
            def,
            adv_colour,
            can_fail: true,
            def_can_fail: false,
            law_for_choice,
            direct,
            window,
        };
        o.compute_can_fail();
        Ok(o)
    }

    /// The same roll needing `needed` hits through to succeed (an opposed task's progress).
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
    /// let stealth = OpposedRoll::new(SkillDice::new(3), 3, Some(SkillDice::new(2)), Rules::default())?.needing(2);
    /// assert_eq!(stealth.needed(), 2);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn needing(mut self, needed: u32) -> OpposedRoll {
        self.needed = needed.max(1);
        self.compute_can_fail();
        self
    }

    /// Hits through the roll needs to succeed.
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
    /// assert_eq!(OpposedRoll::new(SkillDice::new(1), 1, None, Rules::default())?.needed(), 1);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn needed(&self) -> u32 {
        self.needed
    }

    /// The per-die difficulty.
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
    /// assert_eq!(OpposedRoll::new(SkillDice::new(1), 8, None, Rules::default())?.difficulty(), 8);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn difficulty(&self) -> i32 {
        self.difficulty
    }

    /// Whether the roll can fail: with the actor's dice all 1s and the opposition's all 6s
    /// (L27).
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice, NO_THRESHOLD};
    /// let unopposed = OpposedRoll::new(SkillDice::new(2), NO_THRESHOLD, None, Rules::default())?;
    /// assert!(!unopposed.has_chance_of_failure());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn has_chance_of_failure(&self) -> bool {
        self.can_fail
    }

    /// Whether the opposing roll can fail (the acting roll can succeed): with the actor's
    /// dice all 6s and the opposition's all 1s (L27).
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
    /// let shot = OpposedRoll::new(SkillDice::new(1), 2, Some(SkillDice::new(1)), Rules::default())?;
    /// assert!(shot.defense_has_chance_of_failure());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn defense_has_chance_of_failure(&self) -> bool {
        self.def_can_fail
    }

    /// Both chances of failure: the worst roll for each side against the best for the other
    /// (placements do not matter on dice all alike).
    fn compute_can_fail(&mut self) {
        let n = self.att.rolled();
        let m = self.def.as_ref().map_or(0, Compiled::rolled);
        let worst = self.play(&vec![1u8; n], &vec![6u8; m], false);
        self.can_fail = worst.through < self.needed;
        self.def_can_fail = self.def.is_some() && {
            let best = self.play(&vec![6u8; n], &vec![1u8; m], false);
            best.through >= self.needed
        };
    }

    /// One play: the actor places its bonuses (against the opposition's law when it chooses
    /// and `choose`), then the opposition answers knowing the actor's dice.
    fn play(&self, att_nat: &[u8], def_nat: &[u8], choose: bool) -> Played {
        let choose = choose && self.law_for_choice.0.is_some();
        let cands = versus::candidates(&self.att, att_nat, choose);
        let k = match &self.law_for_choice.0 {
            Some(classes) if choose => versus::choose(
                &cands,
                |c| versus::through_by_class(&c.hits, classes, self.rules.block_rule),
                classes,
                self.needed,
                self.can_fail,
            ),
            _ => 0,
        };
        let cand = &cands[k.min(cands.len() - 1)];
        let mut att = Evaluated::new();
        self.att.fill(att_nat, &mut att);
        Compiled::add(&mut att, &cand.add);
        let mut def = Evaluated::new();
        let (through, def_pool_ok) = match &self.def {
            Some(d) => {
                let opts = versus::options(d, def_nat, versus::chooses(d));
                let (t, ok, j) = versus::respond(
                    &cand.hits,
                    opts.iter().map(|o| (o.values.as_slice(), o.pool_ok)),
                    self.rules.block_rule,
                );
                d.fill(def_nat, &mut def);
                if let Some(o) = opts.get(j) {
                    Compiled::add(&mut def, &o.add);
                }
                (t, ok)
            }
            None => (cand.hits.len() as u32, false),
        };
        Played {
            att,
            def,
            through,
            def_pool_ok,
            def_ones: versus::ones(def_nat),
        }
    }

    #[inline]
    fn outcome_of(
        &self,
        a: &Evaluated,
        through: u32,
        def_ones: u32,
        def_pool_ok: bool,
    ) -> OpposedOutcome {
        let f = facts(
            a,
            self.difficulty,
            self.adv_colour,
            self.rules.advancement_uses_natural,
        );
        let succeeded = through >= self.needed;
        let def_cancel = self.defense.as_ref().map_or(0, SkillDice::crit_cancel);
        let opposed = self.def.is_some();
        OpposedOutcome {
            succeeded,
            hits: through,
            criticals: effective_criticals(f.ones, succeeded, self.attack.crit_cancel()),
            advances: advances(
                succeeded,
                self.can_fail,
                f.pool_ok && through == f.successes,
            ),
            defense_criticals: if opposed {
                effective_criticals(def_ones, !succeeded, def_cancel)
            } else {
                0
            },
            defense_advances: opposed && advances(!succeeded, self.def_can_fail, def_pool_ok),
        }
    }

    /// The pure form: the actor's faces and the opposition's (pool order each; empty when
    /// unopposed), matched with [`dice_core::block`].
    ///
    /// # Errors
    /// [`Error::DiceCount`], [`Error::Face`] for bad faces.
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
    /// // SW-E3: the wind spirit's (5,4,1) against Cephas' (5,5,2,2).
    /// let gust = OpposedRoll::new(SkillDice::new(3), 1, Some(SkillDice::new(4)), Rules::default())?;
    /// let r = gust.resolve(&[5, 4, 1], &[5, 5, 2, 2])?;
    /// assert_eq!(r.outcome.hits, 0);
    /// assert_eq!(r.blocked.len(), 3);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn resolve(&self, attack: &[u32], defense: &[u32]) -> Result<OpposedResult, Error> {
        // Checks the faces (count and range) on both sides.
        self.attack.apply(attack, &self.rules)?;
        match &self.defense {
            Some(d) => {
                d.apply(defense, &self.rules)?;
            }
            None if defense.is_empty() => {}
            None => {
                return Err(Error::DiceCount {
                    what: "an unopposed roll's opposition",
                    expected: 0,
                    given: defense.len(),
                });
            }
        }
        let an: Vec<u8> = attack.iter().map(|&f| f as u8).collect();
        let dn: Vec<u8> = defense.iter().map(|&f| f as u8).collect();
        let played = self.play(&an, &dn, true);
        let outcome = self.outcome_of(
            &played.att,
            played.through,
            played.def_ones,
            played.def_pool_ok,
        );
        let mut att = played.att.to_records();
        let mut def = if self.def.is_some() {
            played.def.to_records()
        } else {
            Vec::new()
        };
        let hit_idx: Vec<usize> = (0..att.len())
            .filter(|&i| att[i].value >= i64::from(self.difficulty))
            .collect();
        let hit_values: Vec<i64> = hit_idx.iter().map(|&i| att[i].value).collect();
        let def_values: Vec<i64> = def.iter().map(|d| d.value).collect();
        let b = block(&hit_values, &def_values, self.rules.block_rule);
        mark(&mut att, self.difficulty, !outcome.succeeded);
        let blocked: Vec<(usize, usize)> = b.pairs.iter().map(|&(h, d)| (hit_idx[h], d)).collect();
        for &(a, _) in &blocked {
            att[a].flags.blocked = true;
            att[a].flags.success = false;
        }
        let blockers: Vec<usize> = blocked.iter().map(|&(_, d)| d).collect();
        for (j, d) in def.iter_mut().enumerate() {
            // A defense die's success is a block; its 1s are criticals when the defense
            // failed (the acting roll succeeded).
            d.flags.success = blockers.contains(&j);
            d.flags.critical = outcome.succeeded
                && d.natural == 1
                && d.source != crate::DieColour::Constant.source();
            d.source = dice_core::Source::Other(1);
        }
        Ok(OpposedResult {
            attack: att,
            defense: def,
            blocked,
            outcome,
        })
    }

    /// The hits through as a mechanic of its own ([`Hits`]): dice-core's [`Blocking`] when
    /// both sides are plain dice.
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
    /// use dice_core::Exact;
    /// let fight = OpposedRoll::new(SkillDice::new(6), 2, Some(SkillDice::new(6)), Rules::default())?;
    /// let d = fight.hits().distribution()?;
    /// assert_eq!(d.outcomes().last(), Some(&6));
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn hits(&self) -> Hits {
        let plain = self.attack.is_plain()
            && self.defense.as_ref().is_none_or(SkillDice::is_plain)
            && self.att.rolled() > 0;
        let blocking = plain.then(|| {
            let a = Pool::new(self.att.rolled() as u32, Die::D6).expect("at most MAX_POOL");
            let d = Pool::new(self.def.as_ref().map_or(0, |d| d.rolled() as u32), Die::D6)
                .expect("at most MAX_POOL");
            Blocking::new(
                SuccessPool::new(a, Comparison::AtLeast(self.difficulty)),
                d,
                self.rules.block_rule,
            )
        });
        Hits {
            blocking,
            roll: self.clone(),
        }
    }

    /// The exact chance the roll succeeds.
    ///
    /// # Errors
    /// [`Error::Core`] with `TooComplex` beyond the enumeration limits.
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice, NO_THRESHOLD};
    /// // 1d6 against 1d6, blocking on ≥: through only when higher, 15/36.
    /// let duel = OpposedRoll::new(SkillDice::new(1), NO_THRESHOLD, Some(SkillDice::new(1)), Rules::default())?;
    /// assert!((duel.success_chance()? - 15.0 / 36.0).abs() < 1e-15);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn success_chance(&self) -> Result<f64, Error> {
        Ok(self.law()?.probability_where(|o| o.succeeded))
    }

    /// The exact chance the actor's skill advances.
    ///
    /// # Errors
    /// As [`OpposedRoll::success_chance`].
    ///
    /// ```
    /// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
    /// let shot = OpposedRoll::new(SkillDice::new(1), 2, Some(SkillDice::new(1)), Rules::default())?;
    /// // A 4, 5 or 6 that the defender's die does not reach.
    /// let p = (3.0 + 4.0 + 5.0) / 36.0;
    /// assert!((shot.advance_chance()? - p).abs() < 1e-15);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn advance_chance(&self) -> Result<f64, Error> {
        Ok(self.law()?.probability_where(|o| o.advances))
    }

    fn law(&self) -> Result<Dist<OpposedOutcome>, Error> {
        let Some(def) = &self.def else {
            // Unopposed: every success is a hit.
            let mut map: BTreeMap<OpposedOutcome, f64> = BTreeMap::new();
            enumerate(&self.att, |ev, p| {
                let t = (0..ev.len)
                    .filter(|&i| ev.value[i] >= self.difficulty)
                    .count() as u32;
                *map.entry(self.outcome_of(ev, t, 0, false)).or_insert(0.0) += p;
            })?;
            return Ok(Dist::from_pairs(map)?);
        };
        let classes = versus::defense_classes(def)?;
        let choose = versus::chooses(&self.att);
        let rule = self.rules.block_rule;
        let mut cache: FxMap<Vec<i32>, Vec<(u32, bool)>> = FxMap::default();
        let mut map: BTreeMap<OpposedOutcome, f64> = BTreeMap::new();
        let mut too_many = false;
        let def_cancel = self.defense.as_ref().map_or(0, SkillDice::crit_cancel);
        enumerate_naturals(&self.att, |nat, p| {
            if too_many {
                return;
            }
            let cands = versus::candidates(&self.att, nat, choose);
            for c in &cands {
                if !cache.contains_key(&c.hits) {
                    let pairs = (cache.len() as u64 + 1).saturating_mul(classes.len() as u64);
                    if pairs > MAX_PAIRS {
                        too_many = true;
                        return;
                    }
                    cache.insert(
                        c.hits.clone(),
                        versus::through_by_class(&c.hits, &classes, rule),
                    );
                }
            }
            let k = versus::choose(
                &cands,
                |c| cache.get(&c.hits).cloned().unwrap_or_default(),
                &classes,
                self.needed,
                self.can_fail,
            );
            let cand = &cands[k.min(cands.len() - 1)];
            let Some(through) = cache.get(&cand.hits) else {
                return;
            };
            let all = cand.hits.len() as u32;
            let ones = versus::ones(&nat[..self.att.rolled()]);
            for (&(t, def_ok), cl) in through.iter().zip(&classes) {
                let succeeded = t >= self.needed;
                let o = OpposedOutcome {
                    succeeded,
                    hits: t,
                    criticals: effective_criticals(ones, succeeded, self.attack.crit_cancel()),
                    advances: advances(succeeded, self.can_fail, cand.pool_ok && t == all),
                    defense_criticals: effective_criticals(cl.ones, !succeeded, def_cancel),
                    defense_advances: advances(!succeeded, self.def_can_fail, def_ok),
                };
                *map.entry(o).or_insert(0.0) += p * cl.p;
            }
        })?;
        if too_many {
            return Err(dice_core::Error::TooComplex {
                what: "a Swimclass attack",
                work: MAX_PAIRS.saturating_add(1),
                max: MAX_PAIRS,
            }
            .into());
        }
        Ok(Dist::from_pairs(map)?)
    }

    fn hits_law(&self) -> Result<Dist<u32>, Error> {
        let chooses = versus::chooses(&self.att) || self.def.as_ref().is_some_and(versus::chooses);
        if chooses && self.def.is_some() {
            return Ok(self.law()?.map(|o| o.hits));
        }
        let groups = attack_groups(&self.att, self.adv_colour, true)?;
        let defense = match &self.def {
            Some(d) => Some(defense_values(d)?),
            None => None,
        };
        let laws = through_laws(&groups, defense.as_deref(), self.rules.block_rule)?;
        let mut law = vec![
            0.0;
            self.att.rolled()
                + self
                    .att
                    .constants
                    .iter()
                    .map(|c| c.0 as usize)
                    .sum::<usize>()
                + 1
        ];
        for (g, l) in groups.iter().zip(&laws) {
            for (t, &q) in l.iter().enumerate() {
                law[t] += g.p * q;
            }
        }
        Ok(Dist::from_pairs(
            law.into_iter().enumerate().map(|(k, p)| (k as u32, p)),
        )?)
    }

    /// One roll played in full ([`OpposedRoll::play`], with every placement a side may
    /// choose): the path of the rolls in which a side places its (N+M) bonuses against the
    /// other's law or dice.
    #[inline]
    fn roll_played<R: Rng + ?Sized>(&self, rng: &mut R) -> Played {
        let mut an = [0u8; MAX_POOL as usize];
        let mut dn = [0u8; MAX_POOL as usize];
        let n = self.att.rolled();
        roll_naturals(rng, n, &mut an);
        let m = self.def.as_ref().map_or(0, Compiled::rolled);
        roll_naturals(rng, m, &mut dn);
        self.play(&an[..n], &dn[..m], true)
    }

    /// One roll when neither side chooses a placement against the other
    /// ([`OpposedRoll::direct`]): the same dice drawn in the same order as
    /// [`OpposedRoll::roll_played`] and the same result, on the stack and without sorting
    /// when the values fit a [`WINDOW`]. Fills the acting side's evaluated dice and returns
    /// the hits through, the opposition's natural 1s and whether its advancement pool passed.
    #[inline]
    fn roll_direct<R: Rng + ?Sized>(&self, rng: &mut R, att: &mut Evaluated) -> (u32, u32, bool) {
        let mut nat = [0u8; MAX_POOL as usize];
        let n = self.att.rolled();
        roll_naturals(rng, n, &mut nat);
        self.att.evaluate(&nat[..n], att);
        let Some(d) = &self.def else {
            let hits = att.value[..att.len]
                .iter()
                .filter(|&&v| v >= self.att.difficulty)
                .count();
            return (hits as u32, 0, false);
        };
        let m = d.rolled();
        roll_naturals(rng, m, &mut nat);
        let mut def = Evaluated::new();
        d.evaluate(&nat[..m], &mut def);
        // The pool test reads the dice in pool order: before any sorting.
        let pool_ok = versus::def_pool_ok(d, &def);
        let through = self
            .window
            .and_then(|w| self.through_by_counts(att, &def, w))
            .unwrap_or_else(|| self.through_by_sorting(att, &mut def));
        (through, versus::ones(&nat[..m]), pool_ok)
    }

    /// The hits through by counting both sides' dice per value in the window `(lo, hi)`:
    /// with `Hₜ` the hits showing `t` or more and `Dₜ` the opposing dice able to block them,
    /// the greedy matching of [`count_blocked_sorted`] leaves `max(0, maxₜ(Hₜ − Dₜ))` hits
    /// through (as dice-core's [`Blocking`] computes it). `None` if a value falls outside the
    /// window (the caller then sorts).
    #[inline]
    fn through_by_counts(
        &self,
        att: &Evaluated,
        def: &Evaluated,
        (lo, hi): (i32, i32),
    ) -> Option<u32> {
        // One slot more than the window, for the strict rule's "above the highest value".
        let mut hits = [0u8; WINDOW + 1];
        let mut blockers = [0u8; WINDOW + 1];
        let top = (hi - lo) as usize;
        let slot = |v: i32| usize::try_from(v - lo).ok().filter(|&k| k <= top);
        for &v in &att.value[..att.len] {
            hits[slot(v)?] += u8::from(v >= self.att.difficulty);
        }
        for &v in &def.value[..def.len] {
            blockers[slot(v)?] += 1;
        }
        Some(unblocked_by_counts(
            &hits[..=top],
            &blockers,
            self.rules.block_rule,
        ))
    }

    /// The hits through by sorting both sides' values and matching them greedily; sorts
    /// `def`'s values in place (so the caller reads what it needs from them first).
    fn through_by_sorting(&self, att: &Evaluated, def: &mut Evaluated) -> u32 {
        let mut hits = [0i32; MAX_POOL as usize];
        let mut h = 0;
        for &v in &att.value[..att.len] {
            if v >= self.att.difficulty {
                hits[h] = v;
                h += 1;
            }
        }
        let hits = &mut hits[..h];
        hits.sort_unstable();
        let values = &mut def.value[..def.len];
        values.sort_unstable();
        h as u32 - count_blocked_sorted(hits, values, self.rules.block_rule)
    }
}

/// An opposed roll resolved: both sides' dice, which hit was blocked by which die, and the
/// outcome.
///
/// ```
/// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
/// let r = OpposedRoll::new(SkillDice::new(2), 3, Some(SkillDice::new(1)), Rules::default())?
///     .resolve(&[4, 2], &[5])?;
/// // The 5 blocks the 4 (a success of the defense, and with every defense die at 4 or more
/// // the defense's skill advances, L27).
/// assert_eq!(r.to_string(), "[x4, 2] vs [5*]: 0 hits through; defense: advances");
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OpposedResult {
    /// The actor's dice (blocked hits flagged `blocked`).
    pub attack: Vec<dice_core::DieRoll>,
    /// The opposition's dice (source [`dice_core::Source::Other`]`(1)`).
    pub defense: Vec<dice_core::DieRoll>,
    /// `(actor die, opposing die)` for every block.
    pub blocked: Vec<(usize, usize)>,
    /// The outcome.
    pub outcome: OpposedOutcome,
}

impl fmt::Display for OpposedResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, d: &[dice_core::DieRoll]| {
            f.write_str("[")?;
            for (i, x) in d.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{x}")?;
            }
            f.write_str("]")
        };
        list(f, &self.attack)?;
        f.write_str(" vs ")?;
        list(f, &self.defense)?;
        write!(f, ": {}", self.outcome)
    }
}

impl Roll for OpposedRoll {
    type Outcome = OpposedOutcome;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> OpposedOutcome {
        if self.direct {
            let mut att = Evaluated::new();
            let (through, def_ones, def_pool_ok) = self.roll_direct(rng, &mut att);
            return self.outcome_of(&att, through, def_ones, def_pool_ok);
        }
        let p = self.roll_played(rng);
        self.outcome_of(&p.att, p.through, p.def_ones, p.def_pool_ok)
    }
}

impl Exact for OpposedRoll {
    /// The law of the outcome: the actor's rolls grouped by their hits, the opposition's by
    /// how many dice block at each hit value, and `max(0, maxⱼ(Hⱼ − Dⱼ))` for each pair.
    fn distribution(&self) -> Result<Dist<OpposedOutcome>, dice_core::Error> {
        self.law().map_err(core_error)
    }
}

impl RollDetailed for OpposedRoll {
    /// The actor's dice, then the opposition's as [`dice_core::Source::Other`]`(1)`;
    /// `successes` and `total` are the hits through.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        record.clear();
        let a = self.attack.roll_faces(rng, &self.rules);
        let d = self
            .defense
            .as_ref()
            .map_or_else(Vec::new, |d| d.roll_faces(rng, &self.rules));
        if let Ok(r) = self.resolve(&a, &d) {
            record.dice = r.attack;
            record.dice.extend(r.defense);
            record.successes = r.outcome.hits;
            record.criticals = r.outcome.criticals;
            record.total = i64::from(r.outcome.hits);
        }
    }
}

impl fmt::Display for OpposedRoll {
    /// `3d6 (1+4) at 2 vs 3d6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.attack)?;
        if self.difficulty > NO_THRESHOLD {
            write!(f, " at {}", self.difficulty)?;
        }
        match &self.defense {
            Some(d) => write!(f, " vs {d}"),
            None => f.write_str(" unopposed"),
        }
    }
}

/// The hits an opposed roll gets through, alone: the designer's number. Rolls and computes
/// with dice-core's [`Blocking`] when both sides are plain dice.
///
/// ```
/// use dice_swimclass::{OpposedRoll, Rules, SkillDice};
/// use dice_core::{Exact, Roll};
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
/// let h = OpposedRoll::new(SkillDice::new(3), 2, Some(SkillDice::new(3)), Rules::default())?.hits();
/// assert!(h.roll(&mut Xoshiro256PlusPlus::seed_from_u64(1)) <= 3);
/// assert!(h.distribution()?.mean() < 1.5);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hits {
    blocking: Option<Blocking>,
    roll: OpposedRoll,
}

impl Roll for Hits {
    /// Hits through.
    type Outcome = u32;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        match &self.blocking {
            Some(b) => b.roll(rng),
            None if self.roll.direct => self.roll.roll_direct(rng, &mut Evaluated::new()).0,
            None => self.roll.roll_played(rng).through,
        }
    }
}

impl Exact for Hits {
    fn distribution(&self) -> Result<Dist<u32>, dice_core::Error> {
        match &self.blocking {
            Some(b) => b.distribution(),
            None => self.roll.hits_law().map_err(core_error),
        }
    }
}

impl RollDetailed for Hits {
    /// The opposed roll's record (the actor's dice, then the opposition's); `successes` and
    /// `total` are the hits through.
    fn roll_record_into<R: Rng + ?Sized>(&self, rng: &mut R, record: &mut RollRecord) {
        self.roll.roll_record_into(rng, record);
    }
}

impl fmt::Display for Hits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hits of {}", self.roll)
    }
}

/// A designer's table: the law of the hits through for attack ranks × defense ranks, at one
/// difficulty with the same implements on each side (the issue's "ranks 1–8 each side").
///
/// ```
/// use dice_swimclass::{HitTable, Rules};
/// let t = HitTable::new(8, 8, 2, &[], &[], &Rules::default())?;
/// let d = t.distribution(3, 3).unwrap();
/// assert!((d.total() - 1.0).abs() < 1e-12);
/// assert!(t.mean(8, 1).unwrap() > t.mean(1, 8).unwrap());
/// println!("{t}");
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct HitTable {
    /// Attack ranks 1..=`attack_max`.
    pub attack_max: u32,
    /// Defense ranks 1..=`defense_max`.
    pub defense_max: u32,
    /// The per-die difficulty.
    pub difficulty: i32,
    cells: Vec<Dist<u32>>,
}

impl HitTable {
    /// Computes every cell exactly.
    ///
    /// # Errors
    /// [`Error::TooManyDice`] beyond [`MAX_POOL`]; the errors of [`SkillDice::with_bonus`];
    /// [`Error::Core`] beyond the enumeration limits.
    ///
    /// ```
    /// use dice_swimclass::{Bonus, HitTable, Rules};
    /// let bow = [Bonus::Plus { dice: 1, modifier: 4 }];
    /// let t = HitTable::new(3, 3, 2, &bow, &[], &Rules::default())?;
    /// assert!(t.chance_any(3, 3).unwrap() > 0.5);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn new(
        attack_max: u32,
        defense_max: u32,
        difficulty: i32,
        attack_bonuses: &[crate::Bonus],
        defense_bonuses: &[crate::Bonus],
        rules: &Rules,
    ) -> Result<HitTable, Error> {
        let side = |rank: u32, bonuses: &[crate::Bonus]| {
            bonuses
                .iter()
                .try_fold(SkillDice::new(rank), |d, &b| d.with_bonus(b))
        };
        let mut cells = Vec::new();
        for a in 1..=attack_max {
            for d in 1..=defense_max {
                let roll = OpposedRoll::new(
                    side(a, attack_bonuses)?,
                    difficulty,
                    Some(side(d, defense_bonuses)?),
                    *rules,
                )?;
                cells.push(roll.hits().distribution()?);
            }
        }
        Ok(HitTable {
            attack_max,
            defense_max,
            difficulty,
            cells,
        })
    }

    /// The law of the hits for attack rank `a` against defense rank `d` (1-based), or `None`
    /// outside the table.
    ///
    /// ```
    /// let t = dice_swimclass::HitTable::new(2, 2, 1, &[], &[], &Default::default())?;
    /// assert!(t.distribution(3, 1).is_none());
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn distribution(&self, a: u32, d: u32) -> Option<&Dist<u32>> {
        if a == 0 || d == 0 || a > self.attack_max || d > self.defense_max {
            return None;
        }
        self.cells
            .get(((a - 1) * self.defense_max + (d - 1)) as usize)
    }

    /// Expected hits.
    ///
    /// ```
    /// let t = dice_swimclass::HitTable::new(1, 1, 1, &[], &[], &Default::default())?;
    /// assert!((t.mean(1, 1).unwrap() - 15.0 / 36.0).abs() < 1e-15);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn mean(&self, a: u32, d: u32) -> Option<f64> {
        self.distribution(a, d).map(Dist::mean)
    }

    /// The chance of at least one hit.
    ///
    /// ```
    /// let t = dice_swimclass::HitTable::new(1, 1, 1, &[], &[], &Default::default())?;
    /// assert!((t.chance_any(1, 1).unwrap() - 15.0 / 36.0).abs() < 1e-15);
    /// # Ok::<(), dice_swimclass::Error>(())
    /// ```
    pub fn chance_any(&self, a: u32, d: u32) -> Option<f64> {
        self.distribution(a, d).map(|x| x.survival(&1))
    }
}

impl fmt::Display for HitTable {
    /// Expected hits, attack ranks down, defense ranks across.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "att\\def")?;
        for d in 1..=self.defense_max {
            write!(f, " {d:>5}")?;
        }
        for a in 1..=self.attack_max {
            write!(f, "\n{a:>7}")?;
            for d in 1..=self.defense_max {
                write!(f, " {:>5.2}", self.mean(a, d).unwrap_or(0.0))?;
            }
        }
        Ok(())
    }
}

/// The most assignments [`best_assignment_against`] tries.
const MAX_ASSIGNMENTS: u64 = 1_000_000;

/// The player's best choice of dice for each (N+M) bonus once the opposition's dice are
/// known (SW-A3's optimal choice): the choice, in the form [`SkillDice::apply_chosen`]
/// takes, that gets the most hits through `defense` (values after its own implements), and
/// those hits. Found by trying every assignment.
///
/// # Errors
/// As [`SkillDice::apply`]; [`Error::Core`] (`TooComplex`) beyond a million assignments.
///
/// ```
/// use dice_swimclass::{Bonus, Rules, SkillDice, best_assignment_against, NO_THRESHOLD};
/// // SW-E2 with the Great Sword's (3+2) on Harro's (5,2,1) against the orc's (6,2,1):
/// // the +2s on all three dice get 2 hits through; on one die (the text's), 1.
/// let harro = SkillDice::new(3).with_bonus(Bonus::Plus { dice: 3, modifier: 2 })?;
/// let (choice, hits) = best_assignment_against(&harro, &[5, 2, 1], NO_THRESHOLD, &[6, 2, 1], &Rules::default())?;
/// assert_eq!(hits, 2);
/// assert!(choice[0].len() >= 2);
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn best_assignment_against(
    dice: &SkillDice,
    faces: &[u32],
    difficulty: i32,
    defense: &[i64],
    rules: &Rules,
) -> Result<(Vec<Vec<usize>>, u32), Error> {
    let base = dice.apply_chosen(faces, &[], rules)?;
    let bonuses = dice.plus_bonuses();
    let n = faces.len();
    let k = bonuses.len() as u64;
    let tries = (k + 1).checked_pow(n as u32).unwrap_or(u64::MAX);
    if tries > MAX_ASSIGNMENTS {
        return Err(dice_core::Error::TooComplex {
            what: "the best bonus assignment",
            work: tries,
            max: MAX_ASSIGNMENTS,
        }
        .into());
    }
    let mut labels = vec![0usize; n];
    let mut best: Option<(u32, Vec<usize>)> = None;
    for _ in 0..tries {
        let mut used = vec![0u32; bonuses.len()];
        let ok = labels.iter().all(|&l| {
            if l == 0 {
                return true;
            }
            used[l - 1] += 1;
            used[l - 1] <= bonuses[l - 1].0
        });
        if ok {
            let hits: Vec<i64> = base
                .iter()
                .zip(&labels)
                .map(|(d, &l)| {
                    d.value
                        + if l == 0 {
                            0
                        } else {
                            i64::from(bonuses[l - 1].1)
                        }
                })
                .filter(|&v| v >= i64::from(difficulty))
                .collect();
            let through = block(&hits, defense, rules.block_rule).unblocked;
            if best.as_ref().is_none_or(|(b, _)| through > *b) {
                best = Some((through, labels.clone()));
            }
        }
        // Next labelling (base k + 1 counter).
        for l in labels.iter_mut() {
            *l += 1;
            if *l as u64 <= k {
                break;
            }
            *l = 0;
        }
    }
    let (hits, labels) = best.unwrap_or((0, vec![0; n]));
    let choice = (1..=bonuses.len())
        .map(|b| (0..n).filter(|&i| labels[i] == b).collect())
        .collect();
    Ok((choice, hits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bonus, BonusAssignment};
    use dice_core::BlockRule;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    /// The direct roll (on the stack, counting or sorting) draws the same dice and gives the
    /// same outcome as the full play it stands in for, on every kind of side and ruling.
    #[test]
    fn direct_rolls_agree_with_the_full_play() {
        let plus = |rank, dice, modifier| {
            SkillDice::new(rank)
                .with_bonus(Bonus::Plus { dice, modifier })
                .unwrap()
        };
        let sides = [
            SkillDice::new(1),
            SkillDice::new(6),
            plus(3, 1, 2),
            // A (1+30): the values no longer fit the counting window, so the roll sorts.
            plus(2, 1, 30),
            SkillDice::new(3)
                .with_bonus(Bonus::Constant { dice: 1, value: 5 })
                .unwrap(),
            SkillDice::new(2)
                .with_aid(1)
                .unwrap()
                .with_modifier(-1)
                .unwrap(),
        ];
        let mut sorted = 0;
        for block_rule in [BlockRule::AtLeast, BlockRule::Strict] {
            for assignment in [BonusAssignment::Highest, BonusAssignment::Optimal] {
                for advancement_uses_natural in [true, false] {
                    let rules = Rules {
                        block_rule,
                        assignment,
                        advancement_uses_natural,
                        ..Rules::default()
                    };
                    for a in &sides {
                        for d in std::iter::once(None).chain(sides.iter().cloned().map(Some)) {
                            for difficulty in [NO_THRESHOLD, 2, 5] {
                                let o = OpposedRoll::new(a.clone(), difficulty, d.clone(), rules)
                                    .unwrap();
                                assert!(o.direct, "{o}: neither side chooses against the other");
                                sorted += usize::from(o.window.is_none());
                                let mut r1 = Xoshiro256PlusPlus::seed_from_u64(difficulty as u64);
                                let mut r2 = r1.clone();
                                for _ in 0..200 {
                                    let p = o.roll_played(&mut r1);
                                    let full =
                                        o.outcome_of(&p.att, p.through, p.def_ones, p.def_pool_ok);
                                    assert_eq!(o.roll(&mut r2), full, "{o}");
                                }
                            }
                        }
                    }
                }
            }
        }
        // Some of the rolls above took the sorting path.
        assert!(sorted > 0);
    }
}
