//! Faults found by the audits of the crate against the rulebook (`seeds/swimclass.txt`):
//! each test quotes the line it checks and failed before its fix. Chances are derived here
//! by enumerating every roll (dice-testkit), never typed in.

use std::collections::BTreeMap;

use dice_core::{Exact, Roll};
use dice_swimclass::{
    Bonus, BonusAssignment, NO_THRESHOLD, OpposedRoll, Rules, Sheet, Skill, SkillDice, Task,
    TaskRoll,
};
use dice_testkit::{as_map, check_rolls, enumerate_faces, rng, same};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

// ------------------------------------------------------------------ specialized crafting

#[test]
fn specialized_craft_is_not_developed_below_general_craft_2() {
    // L161: "Specialized crafting has a prerequisite of general crafting 2."
    // L23: "Some advanced skills may not be used or developed until you develop a related
    // skill to a certain point."
    let rules = Rules::default();
    let mut novice = Sheet::default(); // general Craft 1
    let changes = novice.advance(Skill::SpecializedCraft, &rules);
    assert!(changes.is_empty(), "{changes:?}");
    assert_eq!(novice.rank(Skill::SpecializedCraft), 0);

    // With general Craft 2 it may be developed.
    let mut crafter = Sheet::with_ranks([(Skill::Craft, 2)]);
    let changes = crafter.advance(Skill::SpecializedCraft, &rules);
    assert_eq!(changes[0].to, 1);
    assert_eq!(crafter.rank(Skill::SpecializedCraft), 1);
}

#[test]
fn specialized_craft_is_not_used_below_general_craft_2() {
    // L161 and L23, as above: a sheet written with Specialized Craft 2 but general Craft 1
    // (a Game Master's pen, or Craft strained down) may not roll it.
    let sheet = Sheet::with_ranks([(Skill::SpecializedCraft, 2), (Skill::Craft, 1)]);
    assert!(!sheet.can_use(Skill::SpecializedCraft, false));
    assert!(sheet.dice(Skill::SpecializedCraft, &[]).is_err());
    let ok = Sheet::with_ranks([(Skill::SpecializedCraft, 2), (Skill::Craft, 2)]);
    assert!(ok.can_use(Skill::SpecializedCraft, false));
    assert_eq!(ok.dice(Skill::SpecializedCraft, &[]).unwrap().rank(), 2);
}

// ------------------------------------------------------------------ (N+M) placement

/// Every way to put one (1+m) bonus on one of `n` dice: the values.
fn one_bonus_placements(faces: &[u8], m: i32) -> Vec<Vec<i32>> {
    (0..faces.len())
        .map(|k| {
            faces
                .iter()
                .enumerate()
                .map(|(i, &f)| i32::from(f) + if i == k { m } else { 0 })
                .collect()
        })
        .collect()
}

#[test]
fn the_player_places_an_implement_bonus_for_the_most_successes() {
    // L51: "(N+M), granting a modifier of +M to up to N dice." The player chooses which.
    // Rank 2 with a (1+2), two successes needed at difficulty 5 in one roll.
    let dice = SkillDice::new(2)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 2,
        })
        .unwrap();
    let task = Task::all_or_nothing(5, 2).unwrap();
    let best = enumerate_faces(2, 6, |f| {
        one_bonus_placements(f, 2)
            .iter()
            .map(|v| v.iter().filter(|&&x| x >= 5).count())
            .max()
            .unwrap_or(0)
    });
    let p_best: f64 = best.iter().filter(|(s, _)| **s >= 2).map(|(_, p)| p).sum();
    let roll = TaskRoll::new(dice.clone(), task, Rules::default()).unwrap();
    assert!(close(roll.success_chance().unwrap(), p_best));
    // The successes' law too, and the rolls follow it.
    let law = roll.progress().distribution().unwrap();
    let want: BTreeMap<u32, f64> = best.iter().map(|(&s, &p)| (s as u32, p)).collect();
    same(&as_map(&law), &want, 1e-12);
    let progress = roll.progress();
    let mut r = rng(11);
    check_rolls("best placement rolls", &law, || progress.roll(&mut r));

    // The Sample Rounds' procedure (the highest die) stays available, and is worse.
    let highest = Rules {
        assignment: BonusAssignment::Highest,
        ..Rules::default()
    };
    let on_top = enumerate_faces(2, 6, |f| {
        let hi = usize::from(f[1] > f[0]);
        one_bonus_placements(f, 2)[hi]
            .iter()
            .filter(|&&x| x >= 5)
            .count()
    });
    let p_top: f64 = on_top
        .iter()
        .filter(|(s, _)| **s >= 2)
        .map(|(_, p)| p)
        .sum();
    let h = TaskRoll::new(dice, task, highest).unwrap();
    assert!(close(h.success_chance().unwrap(), p_top));
    assert!(p_top < p_best);
}

#[test]
fn a_bonus_goes_to_the_die_that_lets_the_skill_advance() {
    // L27: "A Skill Advances when you succeed in a task with all Skill dice, and all dice
    // roll ≥ 4"; L67: the artifact's dice do not count. A (1+1) on rank 1 with an artifact
    // die, difficulty 5, faces (4, 5): the +1 on the skill's 4 makes both dice successes and
    // advances the skill; on the highest die (the artifact's 5) it does neither.
    let dice = SkillDice::new(1)
        .with_bonus(Bonus::Dice(1))
        .unwrap()
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 1,
        })
        .unwrap();
    let roll = TaskRoll::new(dice, Task::single(5).unwrap(), Rules::default()).unwrap();
    let o = roll.resolve(&[4, 5]).unwrap().outcome;
    assert_eq!(o.successes, 2);
    assert!(o.advances);
}

/// The hits through when `defense` (sorted or not) blocks `hits` die against die, a defense
/// die blocking one hit of lesser or equal value (L25), by trying every matching.
fn through(hits: &[i32], defense: &[i32]) -> u32 {
    fn most(hits: &[i32], defense: &[i32], used: &mut Vec<bool>) -> u32 {
        let Some((&h, rest)) = hits.split_first() else {
            return 0;
        };
        let mut best = most(rest, defense, used);
        for j in 0..defense.len() {
            if !used[j] && defense[j] >= h {
                used[j] = true;
                best = best.max(1 + most(rest, defense, used));
                used[j] = false;
            }
        }
        best
    }
    hits.len() as u32 - most(hits, defense, &mut vec![false; defense.len()])
}

#[test]
fn an_attacker_places_its_bonus_against_the_defense() {
    // L51 (the player's choice) with L25: "Each opposition die may oppose a single die of
    // lesser or equal value." Basic Melee (no threshold, L107), 2 dice with a (1+2) against
    // a plain Defense 2. The attacker places the +2 after its roll, before the defense's
    // (L270–L272): the placement with the best chance of a hit through, then the most hits.
    let att = SkillDice::new(2)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 2,
        })
        .unwrap();
    let roll =
        OpposedRoll::new(att, NO_THRESHOLD, Some(SkillDice::new(2)), Rules::default()).unwrap();
    let defense_rolls: Vec<Vec<u8>> = dice_testkit::all_faces(2, 6).collect();
    let mut law: BTreeMap<u32, f64> = BTreeMap::new();
    for a in dice_testkit::all_faces(2, 6) {
        let mut best: Option<((f64, f64), Vec<i32>)> = None;
        for v in one_bonus_placements(&a, 2) {
            let (mut s, mut e) = (0.0, 0.0);
            for d in &defense_rolls {
                let d: Vec<i32> = d.iter().map(|&x| i32::from(x)).collect();
                let t = through(&v, &d);
                s += f64::from(u32::from(t >= 1)) / 36.0;
                e += f64::from(t) / 36.0;
            }
            if best.as_ref().is_none_or(|(b, _)| {
                s > b.0 + 1e-12 || ((s - b.0).abs() <= 1e-12 && e > b.1 + 1e-12)
            }) {
                best = Some(((s, e), v));
            }
        }
        let v = best.unwrap().1;
        for d in &defense_rolls {
            let d: Vec<i32> = d.iter().map(|&x| i32::from(x)).collect();
            *law.entry(through(&v, &d)).or_insert(0.0) += 1.0 / 36.0 / 36.0;
        }
    }
    let hits = roll.hits().distribution().unwrap();
    same(&as_map(&hits), &law, 1e-12);
    let h = roll.hits();
    let mut r = rng(12);
    check_rolls("attacker's best placement rolls", &hits, || h.roll(&mut r));
    // Better than the highest die every time.
    let top = OpposedRoll::new(
        SkillDice::new(2)
            .with_bonus(Bonus::Plus {
                dice: 1,
                modifier: 2,
            })
            .unwrap(),
        NO_THRESHOLD,
        Some(SkillDice::new(2)),
        Rules {
            assignment: BonusAssignment::Highest,
            ..Rules::default()
        },
    )
    .unwrap();
    let p_top = top.hits().distribution().unwrap().survival(&1);
    assert!(
        hits.survival(&1) > p_top + 1e-9,
        "{} vs {p_top}",
        hits.survival(&1)
    );
}

#[test]
fn a_defender_places_its_bonus_to_block_the_most() {
    // L51 with L37: "The Defender rolls dice for Defense ... Dice greater than an attack die
    // dodge or deflect a hit." A plain Melee 2 against Defense 2 with a (1+2) shield: the
    // defender sees the attack (it rolls after, L272) and puts the +2 where it blocks most.
    let def = SkillDice::new(2)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 2,
        })
        .unwrap();
    let roll =
        OpposedRoll::new(SkillDice::new(2), NO_THRESHOLD, Some(def), Rules::default()).unwrap();
    let law = enumerate_faces(4, 6, |f| {
        let a: Vec<i32> = f[..2].iter().map(|&x| i32::from(x)).collect();
        one_bonus_placements(&f[2..], 2)
            .iter()
            .map(|d| through(&a, d))
            .min()
            .unwrap_or(0)
    });
    let law: BTreeMap<u32, f64> = law.into_iter().collect();
    let hits = roll.hits().distribution().unwrap();
    same(&as_map(&hits), &law, 1e-12);
    // The pure form agrees: attack (4, 3) against (5, 2): the +2 on the 2 blocks both.
    assert_eq!(roll.resolve(&[4, 3], &[5, 2]).unwrap().outcome.hits, 0);
    let h = roll.hits();
    let mut r = rng(13);
    check_rolls("defender's best placement rolls", &hits, || h.roll(&mut r));
}

// ------------------------------------------------------------------ further audit faults

#[test]
fn tracking_has_no_invented_difficulty() {
    // L153–L155: "Tracking" / "Synergy 2 to Spot." The text gives Tracking no difficulty,
    // so the table of basic tasks must not carry one (rulings: take what the text leaves
    // silent as a caller input, invent no number).
    assert!(
        dice_swimclass::tables::tasks_for(Skill::Tracking)
            .next()
            .is_none()
    );
    // Every line of the table is a line of the rulebook that prints "≥ N" (L115–L145).
    for t in dice_swimclass::BASIC_TASKS.iter() {
        assert!(
            [115, 117, 119, 121, 123, 125, 127, 133, 135, 143, 145].contains(&t.line),
            "{t}"
        );
    }
}

#[test]
fn basic_tasks_match_the_rulebook_lines() {
    // L115 "Walk / Run ≥ 1 , 2 squares/round", L117 "Swim ≥ 1 , 1 square/round", L119 "≥ 6 ,
    // 1 square in a heavy storm", L121 "Climb ≥ 1 , 1 square/round", L123 "≥ 6 , 1 square on
    // a natural vertical cliff", L125 "Jump ≥ 1", L127 "Throw ≥ 1", L133 "Brawn ≥ 1 Carry",
    // L135 "≥ 1 Lift", L143 "Spot ≥ 1", L145 "≥ 6 spot a well hidden item".
    let want = [
        (115, Skill::WalkRun, 1, Some(2)),
        (117, Skill::Swim, 1, Some(1)),
        (119, Skill::Swim, 6, Some(1)),
        (121, Skill::Climb, 1, Some(1)),
        (123, Skill::Climb, 6, Some(1)),
        (125, Skill::Jump, 1, None),
        (127, Skill::Throw, 1, None),
        (133, Skill::Brawn, 1, None),
        (135, Skill::Brawn, 1, None),
        (143, Skill::Spot, 1, None),
        (145, Skill::Spot, 6, None),
    ];
    let got: Vec<_> = dice_swimclass::BASIC_TASKS
        .iter()
        .map(|t| (t.line, t.skill, t.difficulty, t.squares))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn a_recovery_roll_may_advance_defense() {
    // L41: "Health is recovered rolling, once per hour of rest, defense Skill difficulty = 6
    // recovering one HP per success. Don't count critical failures for this." Only the
    // criticals are exempt; L27 ("A Skill Advances when you succeed in a task with all Skill
    // dice, and all dice roll ≥ 4") still applies. Defense 2: both dice must show 6.
    let mut h = dice_swimclass::Health::new(2);
    h.take(2);
    let r = dice_swimclass::Recovery::new(SkillDice::new(2), &h, &Rules::default()).unwrap();
    let want = enumerate_faces(2, 6, |f| f.iter().all(|&x| x == 6));
    let p: f64 = want.get(&true).copied().unwrap_or(0.0);
    assert!(close(r.task().advance_chance().unwrap(), p));
}
