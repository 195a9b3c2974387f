//! A simple seeded fight-to-incapacitation simulation with a round cap, played through
//! [`Fight`] so every rule applies.

use core::fmt;

use dice_core::{Rng, Roll};

use crate::ability::Ability;
use crate::attack::{AttackKind, BLASTING_TARGETS};
use crate::character::{Character, Health};
use crate::error::Error;
use crate::fight::{Action, Combatant, CombatantId, Fight, Turn, TurnReport, TurnStatus};
use crate::initiative::Side;
use crate::rules::{Environment, Rules};

/// How a simulated fight ended.
///
/// Ordered by winner (`None` first, then A, then B), then rounds.
///
/// ```
/// use dice_scratch_rps::{FightOutcome, Side};
/// let o = FightOutcome { winner: Some(Side::A), rounds: 4 };
/// assert_eq!(o.to_string(), "side A wins in round 4");
/// assert_eq!(FightOutcome { winner: None, rounds: 20 }.to_string(), "no winner after 20 rounds");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FightOutcome {
    /// The side left standing, or `None` when the round cap was reached (or nobody stands).
    pub winner: Option<Side>,
    /// The round of the last turn taken (the cap when it was reached).
    pub rounds: u32,
}

impl fmt::Display for FightOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(s) => write!(f, "side {s} wins in round {}", self.rounds),
            None => write!(f, "no winner after {} rounds", self.rounds),
        }
    }
}

/// Two sides fight until one side is entirely incapacitated, or the round cap is reached.
///
/// Every combatant starts at full hit points. Initiative, attacks, natural 20s, delays and
/// every other rule are [`Fight`]'s. The tactics are simple and fixed: on its turn a
/// combatant attacks the standing opponent with the fewest hit points (the first in order on
/// a tie) with whichever attack action has the highest expected damage per turn, computed
/// exactly from [`Fight::attack_for`]: a basic attack (with fighting or wrestling if it has
/// them), fighting's two attacks or wrestling's attack and hold when healthy, shooting,
/// blasting (up to three opponents, fewest hit points first), knockout, or a thrown object
/// where there is one. Actions that delay the attacker count half (they cost a turn). No one
/// evades, escapes, catches, heals, engages or takes cover.
///
/// Side A is team 0 and side B team 1 of the underlying fight.
///
/// ```
/// use dice_scratch_rps::{Character, Environment, FightSimulation, Rules};
/// use dice_core::Roll;
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let breakhelm = Character::from_stat_block("1 piloting, 4 shooting, 4 fighting, 6 toughness")?;
/// let chokestar = Character::from_stat_block("2 piloting, 2 wrestling, 3 stalking, 3 toughness")?;
/// let flipfire = Character::from_stat_block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness")?;
/// let sim = FightSimulation::new(vec![chokestar, flipfire], vec![breakhelm],
///     Environment::default(), Rules::default(), 50)?;
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(2011);
/// let outcome = sim.roll(&mut rng);
/// println!("{outcome}");
/// assert!(outcome.rounds <= 50);
/// # Ok::<(), dice_scratch_rps::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FightSimulation {
    side_a: Vec<Character>,
    side_b: Vec<Character>,
    environment: Environment,
    rules: Rules,
    round_cap: u32,
}

impl FightSimulation {
    /// A fight between `side_a` and `side_b` in `environment` under `rules`, stopped after
    /// `round_cap` rounds.
    ///
    /// # Errors
    /// [`Error::Simulation`] for an empty side or a round cap of 0.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Environment, FightSimulation, Rules};
    /// assert!(FightSimulation::new(vec![], vec![Character::new()], Environment::default(), Rules::default(), 10).is_err());
    /// ```
    pub fn new(
        side_a: Vec<Character>,
        side_b: Vec<Character>,
        environment: Environment,
        rules: Rules,
        round_cap: u32,
    ) -> Result<FightSimulation, Error> {
        if side_a.is_empty() || side_b.is_empty() {
            return Err(Error::Simulation("each side needs at least one character"));
        }
        if round_cap == 0 {
            return Err(Error::Simulation("the round cap must be at least 1"));
        }
        Ok(FightSimulation {
            side_a,
            side_b,
            environment,
            rules,
            round_cap,
        })
    }

    /// The round cap.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Environment, FightSimulation, Rules};
    /// let c = Character::from_stat_block("2 toughness")?;
    /// let s = FightSimulation::new(vec![c], vec![c], Environment::default(), Rules::default(), 7)?;
    /// assert_eq!(s.round_cap(), 7);
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn round_cap(&self) -> u32 {
        self.round_cap
    }

    /// Runs one fight and returns every turn as well as the outcome.
    ///
    /// ```
    /// use dice_scratch_rps::{Character, Environment, FightSimulation, Rules};
    /// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
    /// let c = Character::from_stat_block("2 fighting, 4 toughness")?;
    /// let s = FightSimulation::new(vec![c], vec![c], Environment::default(), Rules::default(), 30)?;
    /// let (outcome, log) = s.run(&mut Xoshiro256PlusPlus::seed_from_u64(4));
    /// assert!(!log.is_empty());
    /// for turn in &log { println!("{turn}"); }
    /// println!("{outcome}");
    /// # Ok::<(), dice_scratch_rps::Error>(())
    /// ```
    pub fn run<R: Rng + ?Sized>(&self, rng: &mut R) -> (FightOutcome, Vec<TurnReport>) {
        let mut log = Vec::new();
        let outcome = self.play(rng, |r| log.push(r));
        (outcome, log)
    }

    fn play<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        mut record: impl FnMut(TurnReport),
    ) -> FightOutcome {
        let mut fight = Fight::new(self.environment, self.rules);
        for (team, side) in [(0, &self.side_a), (1, &self.side_b)] {
            for c in side {
                // Cannot fail: the fight has not started and no one is in water.
                let _ = fight.add(Combatant::new(*c, team));
            }
        }
        if fight.start_rolled(rng).is_err() {
            return FightOutcome {
                winner: None,
                rounds: 0,
            };
        }
        let mut rounds = 0;
        loop {
            if fight.is_over() {
                let winner = match fight.standing_teams()[..] {
                    [0] => Some(Side::A),
                    [1] => Some(Side::B),
                    _ => None,
                };
                return FightOutcome { winner, rounds };
            }
            if fight.round() > self.round_cap {
                return FightOutcome {
                    winner: None,
                    rounds: self.round_cap,
                };
            }
            rounds = fight.round();
            let report = match fight.current() {
                Some(a) if fight.combatants()[a].status() == TurnStatus::Ready => {
                    match choose(&fight, a) {
                        Some(turn) => fight.take_turn_rolled(turn, rng).or_else(|_| fight.pass()),
                        None => fight.pass(),
                    }
                }
                _ => fight.pass(),
            };
            match report {
                Ok(r) => record(r),
                Err(_) => {
                    return FightOutcome {
                        winner: None,
                        rounds,
                    };
                }
            }
        }
    }
}

/// The simple tactics of [`FightSimulation`]: the attack action with the highest expected
/// damage per turn on the weakest standing opponent.
fn choose(fight: &Fight, actor: CombatantId) -> Option<Turn> {
    let me = &fight.combatants()[actor];
    let mut foes: Vec<CombatantId> = fight
        .combatants()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.team() != me.team() && c.is_standing())
        .map(|(i, _)| i)
        .collect();
    foes.sort_by_key(|&i| (fight.combatants()[i].hit_points(), i));
    let &target = foes.first()?;
    let character = me.character();
    let healthy = me.health() == Health::Healthy;
    let expected = |kind: AttackKind, with: Option<Ability>, t: CombatantId| {
        fight
            .attack_for(actor, kind, with, t, None)
            .ok()
            .map(|a| (a.expected_damage(), a.delays_attacker()))
    };
    let per_turn = |(e, delays): (f64, bool)| if delays { e / 2.0 } else { e };

    let mut best: Option<(f64, Action)> = None;
    let mut consider = |score: Option<f64>, action: Action| {
        if let Some(s) = score {
            if best.as_ref().is_none_or(|(b, _)| s > *b + 1e-12) {
                best = Some((s, action));
            }
        }
    };

    if healthy && character.has(Ability::Fighting) {
        let e = expected(AttackKind::BasicAttack, Some(Ability::Fighting), target);
        consider(
            e.map(|x| 2.0 * per_turn(x)),
            Action::FightingAttacks {
                first: target,
                second: target,
            },
        );
    }
    if healthy && character.has(Ability::Wrestling) {
        // The hold's delay is worth a little more than a lone basic attack.
        let e = expected(AttackKind::BasicAttack, Some(Ability::Wrestling), target);
        let hold = expected(AttackKind::Hold, Some(Ability::Wrestling), target);
        consider(
            e.zip(hold).map(|(x, _)| per_turn(x) + 1e-6),
            Action::WrestlingAttacks {
                basic_attack: target,
                hold: target,
                hold_first: false,
            },
        );
    }
    if character.has(Ability::Shooting) {
        consider(
            expected(AttackKind::Shooting, Some(Ability::Shooting), target).map(per_turn),
            Action::Shoot { target },
        );
    }
    if character.has(Ability::Blasting) {
        let targets: Vec<CombatantId> = foes.iter().copied().take(BLASTING_TARGETS).collect();
        let mut total = Some(0.0);
        for &t in &targets {
            total = total
                .zip(expected(AttackKind::Blasting, Some(Ability::Blasting), t))
                .map(|(s, x)| s + per_turn(x));
        }
        consider(total, Action::Blast { targets });
    }
    if character.has(Ability::Knockout) {
        consider(
            expected(AttackKind::Knockout, Some(Ability::Knockout), target).map(per_turn),
            Action::Knockout { target },
        );
    }
    let best_basic = [Ability::Fighting, Ability::Wrestling]
        .into_iter()
        .filter(|&a| character.has(a))
        .max_by_key(|&a| character.level(a));
    consider(
        expected(AttackKind::BasicAttack, best_basic, target).map(per_turn),
        Action::BasicAttack {
            target,
            with: best_basic,
        },
    );
    consider(
        expected(AttackKind::ThrowObject, None, target).map(per_turn),
        Action::ThrowObject { target },
    );
    best.map(|(_, action)| Turn::new(action))
}

impl Roll for FightSimulation {
    /// Who won, and in which round.
    type Outcome = FightOutcome;

    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> FightOutcome {
        self.play(rng, |_| {})
    }
}

impl fmt::Display for FightSimulation {
    /// `2 against 1, at most 50 rounds`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} against {}, at most {} rounds",
            self.side_a.len(),
            self.side_b.len(),
            self.round_cap
        )
    }
}
