//! Criterion benches of dice-scratch-rps: the d20 roll against a difficulty with the natural
//! 20, an attack roll with its damage, one action's attacks, initiative, the exact laws, a
//! combat turn, a whole simulated fight, and the exact laws of the two shipped scenes: the
//! rulebook's combat example and the Boss and his thugs.
//!
//! As in `roll.rs`, every bench rolls with a seeded [`Xoshiro256PlusPlus`] that lives across
//! iterations, only the mechanic is passed through [`black_box`], and [`Throughput::Elements`]
//! is the d20s rolled per iteration (1 for a roll or an attack, 2 for a fighting pair, 3 for
//! blasting; an initiative contest rolls 2 plus a roll-off after a tie; a simulated fight
//! counts as 1 element).
//!
//! Run with `cargo bench -p dice-benches --bench scratch_rps`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use dice_core::{EncounterLimits, Exact, Roll, RollDetailed, RollRecord, end_law};
use dice_scratch_rps::{
    Ability, Action, Attack, AttackKind, Attacks, Character, Combatant, D20Roll, Environment,
    Fight, FightSimulation, Initiative, InitiativeContest, Rules, Scene, Turn,
    initiative::order_rolled,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// The shipped scenes, as the `dice` command reads them.
const COMBAT_EXAMPLE: &str = include_str!("../../crates/scratch-rps/scenes/combat-example.toml");
const THE_BOSS: &str = include_str!("../../crates/scratch-rps/scenes/the-boss.toml");

fn shipped_scene(text: &str) -> Scene {
    toml::from_str(text).expect("the shipped scene is valid")
}

/// The seed every bench starts from.
const SEED: u64 = 0x5EED_D1CE;

fn rng() -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(SEED)
}

fn block(text: &str) -> Character {
    Character::from_stat_block(text).expect("valid")
}

/// Flipfire (2 shooting) shooting Breakhelm X-19 (defense 13), L133.
fn shot() -> Attack {
    Attack::new(
        AttackKind::Shooting,
        Some((Ability::Shooting, 2)),
        13,
        &Rules::default(),
    )
    .expect("valid")
}

/// Breakhelm X-19's two fighting attacks on Chokestar, L135.
fn fighting_pair() -> Attacks {
    let blow = Attack::new(
        AttackKind::BasicAttack,
        Some((Ability::Fighting, 4)),
        13,
        &Rules::default(),
    )
    .expect("valid");
    Attacks::new(vec![blow.clone(), blow]).expect("valid")
}

fn blast_three() -> Attacks {
    let blast = |d| {
        Attack::new(
            AttackKind::Blasting,
            Some((Ability::Blasting, 3)),
            d,
            &Rules::default(),
        )
        .expect("valid")
    };
    Attacks::new(vec![blast(11), blast(12), blast(13)]).expect("valid")
}

/// Single rolls: the roll paths.
fn rolls(c: &mut Criterion) {
    let mut g = c.benchmark_group("scratch_rps_roll");

    let craft = D20Roll::ability(3, 15).expect("valid");
    g.throughput(Throughput::Elements(1));
    let mut r = rng();
    g.bench_function("ability_roll_3_vs_15", |b| {
        b.iter(|| black_box(&craft).roll(&mut r));
    });
    let mut r = rng();
    let mut record = RollRecord::new();
    g.bench_function("ability_roll_3_vs_15_record", |b| {
        b.iter(|| {
            black_box(&craft).roll_record_into(&mut r, &mut record);
            black_box(&record);
        });
    });

    let shot = shot();
    let mut r = rng();
    g.bench_function("shooting_attack", |b| {
        b.iter(|| black_box(&shot).roll(&mut r));
    });

    let pair = fighting_pair();
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("fighting_two_attacks", |b| {
        b.iter(|| black_box(&pair).roll(&mut r));
    });

    let blast = blast_three();
    g.throughput(Throughput::Elements(3));
    let mut r = rng();
    g.bench_function("blasting_three_targets", |b| {
        b.iter(|| black_box(&blast).roll(&mut r));
    });

    let contest = InitiativeContest::new(
        Initiative::new(1).expect("valid"),
        Initiative::new(1).expect("valid"),
    );
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("initiative_contest_equal_stalking", |b| {
        b.iter(|| black_box(&contest).roll(&mut r));
    });

    let totals = [14u32, 34, 17, 14];
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("initiative_order_4_one_tie", |b| {
        b.iter(|| order_rolled(black_box(&totals), &mut r));
    });

    g.finish();
}

/// Exact laws.
fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("scratch_rps_exact");

    let craft = D20Roll::ability(3, 15).expect("valid");
    g.bench_function("ability_roll_distribution", |b| {
        b.iter(|| black_box(&craft).distribution());
    });
    let shot = shot();
    g.bench_function("shooting_damage_distribution", |b| {
        b.iter(|| black_box(&shot).damage_distribution());
    });
    g.bench_function("shooting_hit_chance", |b| {
        b.iter(|| black_box(&shot).hit_chance());
    });
    let blast = blast_three();
    g.bench_function("blasting_three_damage_distribution", |b| {
        b.iter(|| black_box(&blast).distribution());
    });
    let contest = InitiativeContest::new(
        Initiative::new(2).expect("valid"),
        Initiative::new(1).expect("valid"),
    );
    g.bench_function("initiative_contest_distribution", |b| {
        b.iter(|| black_box(&contest).distribution());
    });

    g.finish();
}

/// Combat: one turn through the fight engine, and a whole simulated fight.
fn combat(c: &mut Criterion) {
    let mut g = c.benchmark_group("scratch_rps_fight");

    let breakhelm = block("1 piloting, 4 shooting, 4 fighting, 6 toughness");
    let chokestar = block("2 piloting, 2 wrestling, 3 stalking, 3 toughness");
    let flipfire = block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness");

    let mut fight = Fight::new(Environment::default(), Rules::default());
    fight.add(Combatant::new(breakhelm, 1)).expect("valid");
    fight.add(Combatant::new(chokestar, 0)).expect("valid");
    fight.add(Combatant::new(flipfire, 0)).expect("valid");
    fight.start(&[14, 4, 17], &[]).expect("valid");
    let turn = Turn::new(Action::WrestlingAttacks {
        basic_attack: 0,
        hold: 0,
        hold_first: true,
    });
    g.throughput(Throughput::Elements(2));
    let mut r = rng();
    g.bench_function("wrestling_turn_rolled", |b| {
        b.iter_batched(
            || fight.clone(),
            |mut f| f.take_turn_rolled(black_box(turn.clone()), &mut r),
            BatchSize::SmallInput,
        );
    });

    let sim = FightSimulation::new(
        vec![chokestar, flipfire],
        vec![breakhelm],
        Environment::default(),
        Rules::default(),
        50,
    )
    .expect("valid");
    g.throughput(Throughput::Elements(1));
    let mut r = rng();
    g.bench_function("simulated_fight_2_vs_1", |b| {
        b.iter(|| black_box(&sim).roll(&mut r));
    });

    // The exact law of the shipped scene, read from its file
    // (crates/scratch-rps/scenes/combat-example.toml): a fresh encounter each time, so the
    // tactics' remembered choices and turns do not carry over.
    let scene = shipped_scene(COMBAT_EXAMPLE);
    g.throughput(Throughput::Elements(1));
    g.bench_function("combat_example_exact_law", |b| {
        b.iter_batched(
            || scene.encounter().expect("valid"),
            |e| end_law(black_box(&e), EncounterLimits::default()).expect("exact"),
            BatchSize::SmallInput,
        );
    });

    g.finish();
}

/// The larger shipped scene, read from its file (crates/scratch-rps/scenes/the-boss.toml):
/// the bounty hunters against the Boss and his two thugs in a street with cover and things
/// to throw; five combatants, 12,754 states.
fn larger_fight(c: &mut Criterion) {
    let mut g = c.benchmark_group("scratch_rps_fight_larger");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    let scene = shipped_scene(THE_BOSS);
    g.throughput(Throughput::Elements(1));
    g.bench_function("the_boss_exact_law", |b| {
        b.iter_batched(
            || scene.encounter().expect("valid"),
            |e| end_law(black_box(&e), EncounterLimits::default()).expect("exact"),
            BatchSize::SmallInput,
        );
    });
    g.finish();
}

criterion_group!(benches, rolls, exact, combat, larger_fight);
criterion_main!(benches);
