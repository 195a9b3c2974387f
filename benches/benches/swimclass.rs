//! Criterion benches of dice-swimclass: the 6d6 task roll, the 6d6-vs-6d6 attack (full
//! outcome and hits alone, plain and with implements), and the exact laws (a task, a
//! 6d6-vs-6d6 attack, the ranks 1–8 designer's table, the Sample Rounds fight to its end).
//!
//! As in `roll.rs`, every bench rolls with a seeded [`Xoshiro256PlusPlus`] that lives across
//! iterations, only the mechanic is passed through [`black_box`], and
//! [`Throughput::Elements`] is the d6s rolled per iteration (6 for a task, 12 for an attack;
//! an exact law counts as 1 element).
//!
//! Run with `cargo bench -p dice-benches --bench swimclass`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dice_core::{EncounterLimits, Exact, Roll, RollDetailed, RollRecord, end_law};
use dice_swimclass::{
    Bonus, Fight, HitTable, NO_THRESHOLD, OpposedRoll, Rules, Scene, SkillDice, Task, TaskRoll,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// The seed every bench starts from.
const SEED: u64 = 0x5EED_D1CE;

fn rng() -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(SEED)
}

fn sword(rank: u32) -> SkillDice {
    SkillDice::new(rank)
        .with_bonus(Bonus::Plus {
            dice: 3,
            modifier: 2,
        })
        .expect("valid")
}

fn shield(rank: u32) -> SkillDice {
    SkillDice::new(rank)
        .with_bonus(Bonus::Plus {
            dice: 2,
            modifier: 3,
        })
        .expect("valid")
}

fn task_6d6() -> TaskRoll {
    TaskRoll::new(
        SkillDice::new(6),
        Task::single(4).expect("valid"),
        Rules::default(),
    )
    .expect("valid")
}

fn attack_6v6() -> OpposedRoll {
    OpposedRoll::new(
        SkillDice::new(6),
        2,
        Some(SkillDice::new(6)),
        Rules::default(),
    )
    .expect("valid")
}

fn armed_6v6() -> OpposedRoll {
    OpposedRoll::new(sword(6), NO_THRESHOLD, Some(shield(6)), Rules::default()).expect("valid")
}

/// Single rolls: the roll paths.
fn rolls(c: &mut Criterion) {
    let mut g = c.benchmark_group("swimclass_roll");

    g.throughput(Throughput::Elements(6));
    let task = task_6d6();
    let mut r = rng();
    g.bench_function("task_6d6_vs_4", |b| {
        b.iter(|| black_box(&task).roll(&mut r))
    });
    let progress = task.progress();
    let mut r = rng();
    g.bench_function("progress_6d6_vs_4", |b| {
        b.iter(|| black_box(&progress).roll(&mut r))
    });
    let bow = TaskRoll::new(
        SkillDice::new(6)
            .with_bonus(Bonus::Plus {
                dice: 1,
                modifier: 4,
            })
            .expect("valid"),
        Task::single(6).expect("valid"),
        Rules::default(),
    )
    .expect("valid");
    let mut r = rng();
    g.bench_function("task_6d6_plus4_vs_6", |b| {
        b.iter(|| black_box(&bow).roll(&mut r))
    });

    g.throughput(Throughput::Elements(12));
    let attack = attack_6v6();
    let mut r = rng();
    g.bench_function("attack_6d6_vs_6d6", |b| {
        b.iter(|| black_box(&attack).roll(&mut r))
    });
    let hits = attack.hits();
    let mut r = rng();
    g.bench_function("attack_hits_6d6_vs_6d6", |b| {
        b.iter(|| black_box(&hits).roll(&mut r))
    });
    let armed = armed_6v6();
    let mut r = rng();
    g.bench_function("attack_sword_vs_shield_6d6", |b| {
        b.iter(|| black_box(&armed).roll(&mut r))
    });
    let mut r = rng();
    let mut record = RollRecord::new();
    g.bench_function("attack_6d6_vs_6d6_record", |b| {
        b.iter(|| {
            black_box(&attack).roll_record_into(&mut r, &mut record);
            record.successes
        })
    });
    g.finish();
}

/// Exact laws.
fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("swimclass_exact");
    g.throughput(Throughput::Elements(1));
    let task = task_6d6();
    g.bench_function("task_6d6_law", |b| {
        b.iter(|| black_box(&task).distribution().expect("exact"))
    });
    let attack = attack_6v6();
    g.bench_function("attack_6d6_vs_6d6_law", |b| {
        b.iter(|| black_box(&attack).distribution().expect("exact"))
    });
    let hits = attack.hits();
    g.bench_function("attack_hits_6d6_vs_6d6_law", |b| {
        b.iter(|| black_box(&hits).distribution().expect("exact"))
    });
    let armed = armed_6v6();
    g.bench_function("attack_sword_vs_shield_6d6_law", |b| {
        b.iter(|| black_box(&armed).distribution().expect("exact"))
    });
    g.sample_size(10);
    g.bench_function("hit_table_8x8_plain", |b| {
        b.iter(|| HitTable::new(8, 8, black_box(2), &[], &[], &Rules::default()).expect("exact"))
    });
    let bow = [Bonus::Plus {
        dice: 1,
        modifier: 4,
    }];
    g.bench_function("hit_table_8x8_bow", |b| {
        b.iter(|| HitTable::new(8, 8, black_box(4), &bow, &[], &Rules::default()).expect("exact"))
    });
    // The shipped scene (`crates/swimclass/scenes/sample-rounds.toml`, read as the `dice`
    // command reads it): building the fight (every matchup's attack law, memoised) and the
    // exact law of who wins.
    let scene: Scene = toml::from_str(include_str!(
        "../../crates/swimclass/scenes/sample-rounds.toml"
    ))
    .expect("the shipped scene is valid");
    g.bench_function("fight_sample_rounds_end_law", |b| {
        b.iter(|| {
            let fight = Fight::new(black_box(&scene), Rules::default()).expect("valid");
            end_law(&fight, EncounterLimits::default()).expect("exact")
        })
    });
    // The same with skills advancing mid-fight under a rank ceiling of 4 (689 states, each
    // new pair of ranks a new attack law).
    let advancing = Rules {
        advance_mid_fight: true,
        max_rank: Some(4),
        ..Rules::default()
    };
    g.bench_function("fight_sample_rounds_end_law_advancing_max_rank_4", |b| {
        b.iter(|| {
            let fight = Fight::new(black_box(&scene), advancing).expect("valid");
            end_law(&fight, EncounterLimits::default()).expect("exact")
        })
    });
    g.finish();
}

criterion_group!(benches, rolls, exact);
criterion_main!(benches);
