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
    fn play_round_told<R: Rng + ?Sized>(
        &self,
        s: &(u8, u8),
        rng: &mut R,
        told: &mut Vec<String>,
    ) -> (u8, u8) {
        let next = self.play_round(s, rng);
        told.push(format!("{s:?} -> {next:?}"));
        next
    }
    fn state_bound(&self) -> Option<u64> {
        // Each side's hit points from 0 to its start (healing restores B's).
        Some((u64::from(self.hp.0) + 1) * (u64::from(self.hp.1) + 1))
    }
    fn health_names(&self) -> Vec<String> {
        vec!["A".to_owned(), "B".to_owned()]
    }
    fn health(&self, &(a, b): &(u8, u8)) -> Vec<i64> {
        vec![i64::from(a), i64::from(b)]
    }
}

/// Brute force: the mass that ends in each final state, pushed forward `rounds` rounds.
fn forward_finals(d: &Duel, rounds: u32) -> BTreeMap<(u8, u8), f64> {
    let mut mass: BTreeMap<(u8, u8), f64> = BTreeMap::from([(d.hp, 1.0)]);
    let mut finals = BTreeMap::new();
    for _ in 1..=rounds {
        let mut next = BTreeMap::new();
        for (&s, &m) in &mass {
            for (t, p) in d.branches(s) {
                if d.end(&t).is_some() {
                    *finals.entry(t).or_insert(0.0) += m * p;
                } else {
                    *next.entry(t).or_insert(0.0) += m * p;
                }
            }
        }
        mass = next;
    }
    finals
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
    // The duel's own bound (31 · 31 states) is over 100: refused before any state is listed.
    assert!(matches!(
        end_law(&d, tight),
        Err(Error::TooManyStates {
            states: 961,
            max: 100
        })
    ));
    // Without a bound, the limit is met while the states are listed.
    assert!(matches!(
        end_law(&Unbounded(d), tight),
        Err(Error::TooManyStates {
            states: 101,
            max: 100
        })
    ));
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

/// One round of a standoff between two 1-hit-point fighters: A wins with `x`, B with `y`,
/// with `z` both dig in for good (a loop with no way out), else nothing happens.
#[derive(Clone, Copy)]
struct Standoff {
    x: f64,
    y: f64,
    z: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stand {
    Open,
    DugIn,
    AWon,
    BWon,
}

impl Encounter for Standoff {
    type State = Stand;
    type End = Who;
    fn start(&self) -> Stand {
        Stand::Open
    }
    fn end(&self, s: &Stand) -> Option<Who> {
        match s {
            Stand::AWon => Some(Who::A),
            Stand::BWon => Some(Who::B),
            _ => None,
        }
    }
    fn round_law(&self, s: &Stand) -> Result<Dist<Stand>, Error> {
        match s {
            Stand::DugIn => Ok(Dist::certain(Stand::DugIn)),
            _ => Dist::from_pairs([
                (Stand::AWon, self.x),
                (Stand::BWon, self.y),
                (Stand::DugIn, self.z),
                (Stand::Open, 1.0 - self.x - self.y - self.z),
            ]),
        }
    }
    fn play_round<R: Rng + ?Sized>(&self, s: &Stand, rng: &mut R) -> Stand {
        if *s == Stand::DugIn {
            return Stand::DugIn;
        }
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if u < self.x {
            Stand::AWon
        } else if u < self.x + self.y {
            Stand::BWon
        } else if u < self.x + self.y + self.z {
            Stand::DugIn
        } else {
            Stand::Open
        }
    }
}

#[test]
fn the_chance_of_never_ending_is_solved_for_and_the_stall_found() {
    let s = Standoff {
        x: 0.3,
        y: 0.2,
        z: 0.001,
    };
    let law = end_law(&s, EncounterLimits::default()).unwrap();
    // Each round ends it (for A, for B) or stalls it with x, y, z, so each is its share.
    let all = s.x + s.y + s.z;
    assert!((law.ends.probability(&Who::A) - s.x / all).abs() < 1e-15);
    assert!((law.ends.probability(&Who::B) - s.y / all).abs() < 1e-15);
    assert!((law.ends.tail() - s.z / all).abs() < 1e-15);
    assert_eq!(law.expected_rounds, None);
    assert_eq!(
        dice_core::never_ending_states(&s, EncounterLimits::default()).unwrap(),
        [Stand::DugIn]
    );
    // P(ended after exactly r rounds) = (1 − x − y − z)^(r−1) (x + y), listed until what
    // is still open is below 1e-12; the stalled mass is set aside at once, so the listing
    // stops there (about 40 rounds), not at the 10,000-round cap.
    let open = 1.0 - all;
    for (&r, p) in law.rounds.iter() {
        let q = open.powi(r as i32 - 1) * (s.x + s.y);
        assert!((p - q).abs() < 1e-15, "round {r}: {p} vs {q}");
    }
    let listed = law.rounds.len() as i32;
    assert!(open.powi(listed) < 1e-12 && open.powi(listed - 1) >= 1e-12);
    // The tail: what stalled in the listed rounds, and what is still open after them.
    let rest = open.powi(listed);
    assert!((law.rounds.tail() - (s.z / all * (1.0 - rest) + rest)).abs() < 1e-15);
    // With no way to stall, nothing is left over, exactly.
    let fair = Standoff { z: 0.0, ..s };
    let law = end_law(&fair, EncounterLimits::default()).unwrap();
    assert_eq!(law.ends.tail(), 0.0);
    assert!(
        dice_core::never_ending_states(&fair, EncounterLimits::default())
            .unwrap()
            .is_empty()
    );
    assert!((law.expected_rounds.unwrap() - 1.0 / (s.x + s.y)).abs() < 1e-12);
}

/// A walk on 0..=n: up with `p`, down with `q`, else it stays; it ends at 0 or n. Every
/// inner state is in one loop, solved in one elimination.
#[derive(Clone, Copy)]
struct Walk {
    n: u32,
    start: u32,
    p: f64,
    q: f64,
}

impl Encounter for Walk {
    type State = u32;
    type End = Who;
    fn start(&self) -> u32 {
        self.start
    }
    fn end(&self, &s: &u32) -> Option<Who> {
        match s {
            0 => Some(Who::B),
            s if s == self.n => Some(Who::A),
            _ => None,
        }
    }
    fn round_law(&self, &s: &u32) -> Result<Dist<u32>, Error> {
        Dist::from_pairs([(s + 1, self.p), (s - 1, self.q), (s, 1.0 - self.p - self.q)])
    }
    fn play_round<R: Rng + ?Sized>(&self, &s: &u32, rng: &mut R) -> u32 {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if u < self.p {
            s + 1
        } else if u < self.p + self.q {
            s - 1
        } else {
            s
        }
    }
}

#[test]
fn a_long_loop_is_solved_to_rounding() {
    // Gambler's ruin: P(reach n before 0 from i) = (1 − r^i) / (1 − r^n), r = q / p; the
    // mean number of rounds is i / (q − p) − (n / (q − p)) · P(reach n) for p ≠ q (the
    // drift per round is p − q, staying put included).
    for (n, start, p, q) in [
        (300, 150, 0.30, 0.31),
        (399, 7, 0.45, 0.40),
        (60, 59, 0.2, 0.5),
    ] {
        let w = Walk { n, start, p, q };
        let law = end_law(&w, EncounterLimits::default()).unwrap();
        assert_eq!(law.states, n as usize + 1);
        let r: f64 = q / p;
        let win = (1.0 - r.powi(start as i32)) / (1.0 - r.powi(n as i32));
        let got = law.ends.probability(&Who::A);
        assert!((got - win).abs() < 1e-15, "{got} vs {win}");
        // Gaussian elimination with partial pivoting was 1.6e-12 short on the first walk.
        assert!((law.ends.total() - 1.0).abs() < 1e-15);
        assert_eq!(law.ends.tail(), 0.0);
        let mean = f64::from(start) / (q - p) - f64::from(n) / (q - p) * win;
        let got = law.expected_rounds.unwrap();
        assert!((got - mean).abs() < 1e-13 * mean, "{got} vs {mean}");
    }
}

/// The duel without its state bound (the engine then counts the states as it lists them).
struct Unbounded(Duel);

impl Encounter for Unbounded {
    type State = (u8, u8);
    type End = Who;
    fn start(&self) -> (u8, u8) {
        self.0.start()
    }
    fn end(&self, s: &(u8, u8)) -> Option<Who> {
        self.0.end(s)
    }
    fn round_law(&self, s: &(u8, u8)) -> Result<Dist<(u8, u8)>, Error> {
        self.0.round_law(s)
    }
    fn play_round<R: Rng + ?Sized>(&self, s: &(u8, u8), rng: &mut R) -> (u8, u8) {
        self.0.play_round(s, rng)
    }
}

/// An encounter whose bound is over the limit: no round law may be asked for.
struct Huge;

impl Encounter for Huge {
    type State = u32;
    type End = ();
    fn start(&self) -> u32 {
        0
    }
    fn end(&self, _: &u32) -> Option<()> {
        None
    }
    fn round_law(&self, _: &u32) -> Result<Dist<u32>, Error> {
        panic!("the bound should have refused before any round law")
    }
    fn play_round<R: Rng + ?Sized>(&self, s: &u32, _: &mut R) -> u32 {
        *s
    }
    fn state_bound(&self) -> Option<u64> {
        Some(1 << 40)
    }
}

#[test]
fn a_bound_over_the_limit_is_refused_before_any_work() {
    let err = end_law(&Huge, EncounterLimits::default()).unwrap_err();
    assert_eq!(
        err,
        Error::TooManyStates {
            states: 1 << 40,
            max: 200_000
        }
    );
    // The message names the states and says how to estimate instead.
    let text = err.to_string();
    assert!(text.contains("1099511627776 states"), "{text}");
    assert!(text.contains("playing it many times"), "{text}");
}

#[test]
fn health_at_the_end_matches_the_forward_iteration() {
    for d in duels() {
        let law = end_law(&d, EncounterLimits::default()).unwrap();
        let finals = forward_finals(&d, 3_000);
        assert_eq!(law.health.len(), 2);
        for (who, (name, dist)) in law.health.iter().enumerate() {
            assert_eq!(name, ["A", "B"][who]);
            let mut want: BTreeMap<i64, f64> = BTreeMap::new();
            for (&(a, b), &m) in &finals {
                *want.entry(i64::from([a, b][who])).or_insert(0.0) += m;
            }
            assert_eq!(dist.len(), want.len(), "{name}: {dist:?} vs {want:?}");
            for (h, p) in &want {
                let got = dist.probability(h);
                assert!((got - p).abs() < 1e-12, "{name} at {h}: {got} vs {p}");
            }
            assert!((dist.total() - 1.0).abs() < 1e-12);
        }
        // A survivor's health and the winner agree: A ends above 0 exactly when A wins.
        let a_up: f64 = law.health[0]
            .1
            .iter()
            .filter(|&(&h, _)| h > 0)
            .map(|(_, p)| p)
            .sum();
        assert!((a_up - law.ends.probability(&Who::A)).abs() < 1e-12);
    }
}

#[test]
fn a_played_encounter_tells_each_round() {
    let d = duels()[2];
    let played = play(&d, &mut rng(5), 1_000);
    assert_eq!(played.told.len(), played.states.len() - 1);
    for (i, lines) in played.told.iter().enumerate() {
        assert_eq!(
            lines,
            &[format!(
                "{:?} -> {:?}",
                played.states[i],
                played.states[i + 1]
            )]
        );
    }
    // Telling draws as playing does: the same seed plays the same states through PlayOut's
    // untold rounds.
    let mut r = rng(5);
    let mut s = d.start();
    for want in &played.states[1..] {
        s = d.play_round(&s, &mut r);
        assert_eq!(&s, want);
    }
    let shown = dice_core::Played {
        states: played.states.iter().map(|s| format!("{s:?}")).collect(),
        told: played.told.clone(),
        end: played.end,
    };
    let text = shown.to_string();
    assert!(text.contains(&format!("  {}", played.told[0][0])), "{text}");
}
