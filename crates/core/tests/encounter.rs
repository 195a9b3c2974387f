//! The encounter engine against a brute-force forward iteration (every path's mass pushed
//! round by round for thousands of rounds), against seeded play, and at its limits.

use std::collections::BTreeMap;

use dice_core::{
    Dist, Encounter, EncounterLimits, Ending, Error, Exact, PlayOut, Rng, end_law, play,
};
use dice_testkit::{check_rolls, rng};

/// Two fighters with hit points; each round both attack at once: A hits with `pa` for 1,
/// B with `pb` for 1; when `heal` > 0, B (if hurt and still up) instead heals back to full
/// with that chance in place of attacking, making loops through several states.
#[derive(Clone, Copy)]
struct Duel {
    hp: (u8, u8),
    pa: f64,
    pb: f64,
    heal: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Who {
    A,
    B,
    Draw,
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl Duel {
    /// Every (next state, probability) of one round, as a list (repeats allowed).
    fn branches(&self, (a, b): (u8, u8)) -> Vec<((u8, u8), f64)> {
        let mut v = Vec::new();
        let heals = if b < self.hp.1 { self.heal } else { 0.0 };
        for (a_hits, pa) in [(true, self.pa), (false, 1.0 - self.pa)] {
            // B heals (no attack), attacks and hits, or attacks and misses.
            for (b_act, pb) in [
                (2u8, heals),
                (1, (1.0 - heals) * self.pb),
                (0, (1.0 - heals) * (1.0 - self.pb)),
            ] {
                let p = pa * pb;
                if p == 0.0 {
                    continue;
                }
                let nb0 = if b_act == 2 { self.hp.1 } else { b };
                let nb = if a_hits { nb0.saturating_sub(1) } else { nb0 };
                let na = if b_act == 1 { a.saturating_sub(1) } else { a };
                v.push(((na, nb), p));
            }
        }
        v
    }
}

impl Encounter for Duel {
    type State = (u8, u8);
    type End = Who;
    fn start(&self) -> (u8, u8) {
        self.hp
    }
    fn end(&self, &(a, b): &(u8, u8)) -> Option<Who> {
        match (a, b) {
            (0, 0) => Some(Who::Draw),
            (0, _) => Some(Who::B),
            (_, 0) => Some(Who::A),
            _ => None,
        }
    }
    fn round_law(&self, s: &(u8, u8)) -> Result<Dist<(u8, u8)>, Error> {
        Dist::from_pairs(self.branches(*s))
    }
    fn play_round<R: Rng + ?Sized>(&self, s: &(u8, u8), rng: &mut R) -> (u8, u8) {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut acc = 0.0;
        let branches = self.branches(*s);
        for &(t, p) in &branches {
            acc += p;
            if u < acc {
                return t;
            }
        }
        branches[branches.len() - 1].0
    }
}

/// Brute force: push every path's mass forward `rounds` rounds; returns P(end) and P(ended
/// after exactly r rounds).
fn forward(d: &Duel, rounds: u32) -> (BTreeMap<Who, f64>, BTreeMap<u32, f64>) {
    let mut mass: BTreeMap<(u8, u8), f64> = BTreeMap::from([(d.hp, 1.0)]);
    let mut ends = BTreeMap::new();
    let mut when = BTreeMap::new();
    for r in 1..=rounds {
        let mut next = BTreeMap::new();
        for (&s, &m) in &mass {
            for (t, p) in d.branches(s) {
                match d.end(&t) {
                    Some(e) => {
                        *ends.entry(e).or_insert(0.0) += m * p;
                        *when.entry(r).or_insert(0.0) += m * p;
                    }
                    None => *next.entry(t).or_insert(0.0) += m * p,
                }
            }
        }
        mass = next;
    }
    (ends, when)
}

fn duels() -> Vec<Duel> {
    vec![
        Duel {
            hp: (3, 2),
            pa: 0.4,
            pb: 0.5,
            heal: 0.0,
        },
        Duel {
            hp: (1, 1),
            pa: 0.05,
            pb: 0.05,
            heal: 0.0,
        },
        Duel {
            hp: (4, 3),
            pa: 0.3,
            pb: 0.35,
            heal: 0.2,
        },
        Duel {
            hp: (2, 5),
            pa: 0.6,
            pb: 0.1,
            heal: 0.45,
        },
    ]
}

#[test]
fn end_laws_match_the_forward_iteration() {
    for d in duels() {
        let law = end_law(&d, EncounterLimits::default()).unwrap();
        let (ends, when) = forward(&d, 3_000);
        for (who, p) in &ends {
            let got = law.ends.probability(who);
            assert!((got - p).abs() < 1e-12, "{who:?}: {got} vs {p}");
        }
        assert_eq!(law.ends.tail(), 0.0);
        assert!((law.ends.total() - 1.0).abs() < 1e-12);
        for (r, p) in law.rounds.iter() {
            let q = when.get(r).copied().unwrap_or(0.0);
            assert!((p - q).abs() < 1e-12, "round {r}: {p} vs {q}");
        }
        // The expected rounds, solved exactly, against Σ r·P(r) over the listed rounds.
        let mean: f64 = when.iter().map(|(&r, &p)| f64::from(r) * p).sum();
        let expected = law.expected_rounds.unwrap();
        assert!(
            (expected - mean).abs() < 1e-6 * mean,
            "{expected} vs {mean}"
        );
    }
}

#[test]
fn a_fight_no_one_can_win_never_ends() {
    let d = Duel {
        hp: (2, 2),
        pa: 0.0,
        pb: 0.0,
        heal: 0.0,
    };
    let law = end_law(&d, EncounterLimits::default()).unwrap();
    assert!(law.ends.is_empty());
    assert_eq!(law.ends.tail(), 1.0);
    assert_eq!(law.expected_rounds, None);
    // Only one side can ever be hit: that side loses for certain.
    let d = Duel {
        hp: (2, 2),
        pa: 0.5,
        pb: 0.0,
        heal: 0.0,
    };
    let law = end_law(&d, EncounterLimits::default()).unwrap();
    assert_eq!(law.ends.probability(&Who::A), 1.0);
    // Two hits at one half each: a negative binomial mean of 4 rounds.
    assert!((law.expected_rounds.unwrap() - 4.0).abs() < 1e-12);
}

#[test]
fn limits_are_checked_before_the_work_runs_away() {
    let d = Duel {
        hp: (30, 30),
        pa: 0.3,
        pb: 0.3,
        heal: 0.2,
    };
    let tight = EncounterLimits {
        max_states: 100,
        ..EncounterLimits::default()
    };
    assert!(matches!(end_law(&d, tight), Err(Error::TooComplex { .. })));
    // B's healing ties every state with B hurt into one loop per value of A's hit points.
    let small_loops = EncounterLimits {
        max_component: 10,
        ..EncounterLimits::default()
    };
    assert!(matches!(
        end_law(&d, small_loops),
        Err(Error::TooComplex { .. })
    ));
}

#[test]
fn played_encounters_follow_the_exact_law() {
    for (i, d) in duels().into_iter().enumerate() {
        let run = PlayOut::new(d, 10_000).unwrap();
        let law = run.distribution().unwrap();
        let exact = end_law(&d, EncounterLimits::default()).unwrap();
        for (who, p) in exact.ends.iter() {
            assert!((law.probability(&Ending::Ended(*who)) - p).abs() < 1e-12);
        }
        let mut r = rng(40 + i as u64);
        check_rolls("an encounter played out", &law, || {
            dice_core::Roll::roll(&run, &mut r)
        });
    }
    // A played record starts at the start and ends where `end` says.
    let d = duels()[0];
    let played = play(&d, &mut rng(7), 1_000);
    assert_eq!(played.states[0], d.hp);
    let last = played.states[played.states.len() - 1];
    assert_eq!(played.end, d.end(&last));
    assert_eq!(played.rounds() as usize, played.states.len() - 1);
    // A round cap that is too short leaves it capped.
    let capped = PlayOut::new(
        Duel {
            hp: (50, 50),
            pa: 0.01,
            pb: 0.01,
            heal: 0.0,
        },
        1,
    )
    .unwrap();
    assert_eq!(dice_core::Roll::roll(&capped, &mut rng(1)), Ending::Capped);
}
