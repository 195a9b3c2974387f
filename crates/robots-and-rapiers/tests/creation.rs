//! Character creation and advancement (digest §5): the worked examples of §7 that concern
//! them (E2, E3, E5, E39, E42-E44) and the numeric examples of §5 and the rulebook, one test
//! each quoting its line; every random table and Memory Save against enumeration and against
//! 100,000 seeded rolls; and proptest invariants of the validators and advancement.

use std::collections::BTreeMap;
use std::fmt::Debug;

use dice_core::{Exact, Roll, RollDetailed};
use dice_robots_and_rapiers::creation::*;
use proptest::prelude::*;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

fn law<M: Exact>(m: &M) -> BTreeMap<M::Outcome, f64> {
    m.distribution()
        .expect("exact law")
        .iter()
        .map(|(o, p)| (o.clone(), p))
        .collect()
}

fn assert_same<O: Ord + Debug>(a: &BTreeMap<O, f64>, b: &BTreeMap<O, f64>) {
    let keys: std::collections::BTreeSet<&O> = a.keys().chain(b.keys()).collect();
    for k in keys {
        let (x, y) = (
            a.get(k).copied().unwrap_or(0.0),
            b.get(k).copied().unwrap_or(0.0),
        );
        assert!((x - y).abs() < 1e-12, "{k:?}: {x} vs {y}");
    }
}

/// Seeded rolls against an exact law: every frequency within 5 standard errors,
/// `sqrt(p(1 − p)/N)`, and nothing seen that has probability 0.
fn check_rolls<M: Exact>(m: &M, seed: u64) {
    const N: u64 = 100_000;
    let exact = law(m);
    let total: f64 = exact.values().sum();
    assert!((total - 1.0).abs() < 1e-9, "law sums to {total}");
    let mut r = rng(seed);
    let mut seen: BTreeMap<M::Outcome, u64> = BTreeMap::new();
    for _ in 0..N {
        *seen.entry(m.roll(&mut r)).or_default() += 1;
    }
    for (o, &c) in &seen {
        assert!(
            exact.get(o).copied().unwrap_or(0.0) > 0.0,
            "{o:?} seen {c} times"
        );
    }
    let n = N as f64;
    for (o, &p) in &exact {
        let f = seen.get(o).copied().unwrap_or(0) as f64 / n;
        let se = (p * (1.0 - p) / n).sqrt();
        assert!((f - p).abs() <= 5.0 * se + 1e-12, "{o:?}: {f} vs {p}");
    }
}

/// All `n`-tuples of d10 faces.
fn faces(n: usize) -> impl Iterator<Item = Vec<u32>> {
    (0..10u64.pow(n as u32)).map(move |mut i| {
        (0..n)
            .map(|_| {
                let f = (i % 10) as u32 + 1;
                i /= 10;
                f
            })
            .collect()
    })
}

// =============================================================== worked examples (§7, §5)

#[test]
fn e2_fencing_specialties() {
    // E2, L801: "He then spends 3 free levels to buy his Fencing Program up to level 3 …
    // He purchases "Cutlass" and "Pole-arm" as additional specialties for 1 free level each
    // … This gives the robot the following specialties: Rapier 3, Cutlass 2, and Pole-arm 1;
    // which is recorded on the character sheet as "Fencing: 3 (Rapier, Cutlass, Pole-arm)"."
    let fencing = RoleProgram::new("Fencing", Core::Physical, 3)
        .with_specialties(["Rapier", "Cutlass", "Pole-arm"]);
    assert_eq!(fencing.specialty_level("Rapier"), Some(3));
    assert_eq!(fencing.specialty_level("Cutlass"), Some(2));
    assert_eq!(fencing.specialty_level("Pole-arm"), Some(1));
    assert_eq!(
        fencing.to_string(),
        "Fencing: 3 (Rapier, Cutlass, Pole-arm)"
    );
    // 3 free levels for the program, 1 each for the two additional specialties.
    assert_eq!(fencing.levels_spent(), 5);
    // "he could purchase up to 3 more specialties": a fourth additional one is refused.
    let mut list: Vec<RoleProgram> = (0..8)
        .map(|i| RoleProgram::new(format!("P{i}"), Core::Mental, 0))
        .collect();
    list.push(
        fencing
            .clone()
            .with_specialties(["Rapier", "Cutlass", "Pole-arm", "Dagger"]),
    );
    assert!(Programs::new(list.clone(), &CreationRules::default()).is_ok());
    list[8] = fencing.with_specialties(["Rapier", "Cutlass", "Pole-arm", "Dagger", "Mace"]);
    assert_eq!(
        Programs::new(list, &CreationRules::default()),
        Err(CreationError::TooManySpecialties {
            program: "Fencing".into(),
            level: 3,
            additional: 4
        })
    );
}

#[test]
fn e3_fencing_with_core_physical() {
    // E3, L1418: Fencing 3 plus Core Physical 5 gives "8 d10".
    let fencing = RoleProgram::new("Fencing", Core::Physical, 3);
    let core = CorePrograms::at_creation(3, 3, 4, 10).expect("3/3/4 of Role 10");
    assert_eq!(core.physical, 5);
    assert_eq!(fencing.dice(&core), 8);
}

#[test]
fn e5_inspiration_dice_at_self_awareness_2() {
    // E5, L1455: Self Awareness 2 gives 1 die; E6, L1457: "With a Self Awareness Score of
    // 6, the player picks up 3 dice".
    assert_eq!(
        RoleAwareness::from_self_awareness(2)
            .unwrap()
            .inspiration_dice(),
        1
    );
    assert_eq!(
        RoleAwareness::from_self_awareness(6)
            .unwrap()
            .inspiration_dice(),
        3
    );
}

#[test]
fn e39_dramatic_control_costs_are_1_3_5_erratum() {
    // E39, L2208-2210: the combat example calls a minor use "cost 2 Inspiration" and a
    // moderate one "cost 4". ERRATUM (A27b): the rules (L1238, L1244, L1252) say 1 / 3 / 5;
    // this test checks what the rules give, and that the example's figures are reachable
    // only through the knob.
    let rules = CreationRules::default();
    let cost = |e| DramaticControl::new(e).cost(&rules);
    assert_eq!(cost(DramaticEffect::Minor), 1);
    assert_eq!(cost(DramaticEffect::Moderate), 3);
    assert_eq!(cost(DramaticEffect::Major), 5);
    let example = CreationRules {
        dramatic_control: [2, 4, 5],
        ..rules
    };
    assert_eq!(
        DramaticControl::new(DramaticEffect::Minor).cost(&example),
        2
    );
    assert_eq!(
        DramaticControl::new(DramaticEffect::Moderate).cost(&example),
        4
    );
    // L1256, L1260: +1 for Stretching Credibility, −1 for Creating More Trouble.
    let both = DramaticControl {
        effect: DramaticEffect::Major,
        stretching_credibility: true,
        creates_more_trouble: true,
    };
    assert_eq!(both.cost(&rules), 5);
}

#[test]
fn e42_self_awareness_cost_table() {
    // E42, L1318-1332: "Anthropoid Class 4 robot … Anthropoid Class 8 robot", costs and
    // cumulative costs for Self Awareness 0-10.
    let ac4 = [
        (0, 0),
        (4, 4),
        (8, 12),
        (12, 24),
        (16, 40),
        (10, 50),
        (12, 62),
        (14, 76),
        (16, 92),
        (18, 110),
        (20, 130),
    ];
    let ac8 = [
        (0, 0),
        (4, 4),
        (8, 12),
        (12, 24),
        (16, 40),
        (20, 60),
        (24, 84),
        (28, 112),
        (32, 144),
        (18, 162),
        (20, 182),
    ];
    let rules = CreationRules::default();
    for (class, table) in [(4, ac4), (8, ac8)] {
        let ac = AnthropoidClass::new(class).unwrap();
        for (level, &(cost, cumulative)) in table.iter().enumerate() {
            let level = level as u8;
            if level > 0 {
                assert_eq!(
                    self_awareness_cost(level, ac, &rules).unwrap(),
                    cost,
                    "AC {class}, level {level}"
                );
            }
            assert_eq!(self_awareness_total(level, ac, &rules).unwrap(), cumulative);
        }
    }
    assert!(self_awareness_cost(0, AnthropoidClass::new(4).unwrap(), &rules).is_err());
    assert!(self_awareness_cost(11, AnthropoidClass::new(4).unwrap(), &rules).is_err());
}

#[test]
fn e43_rate_dial_totals() {
    // E43, L1336-1338: "With the standard cost it takes 182 Inspiration … about 1800 d10s …
    // If one assumes that the average Test roll consists of 8 dice, that comes to 225 Tests
    // … reduced to 1 per level … would only take 91 Inspiration … increased to 3 per level …
    // 273 Inspiration".
    let ac8 = AnthropoidClass::new(8).unwrap();
    let total = |base| {
        let rules = CreationRules {
            self_awareness_base_cost: base,
            ..CreationRules::default()
        };
        self_awareness_total(10, ac8, &rules).unwrap()
    };
    assert_eq!(total(2), 182);
    assert_eq!(total(1), 91);
    assert_eq!(total(3), 273);
    // A 1 comes up on a tenth of the d10s: 182 points need about 1,820 dice, "about 1800",
    // and 1,800 dice are 225 Tests of 8.
    assert_eq!(total(2) * 10, 1820);
    assert_eq!(1800 / 8, 225);
}

/// The robot of the table at L1076-1087: "9 Programs, 3 each Core Physical, Mental, and
/// Social; and evenly distributed Core Program level".
fn table_robot() -> (Spark, Vec<(Core, u32)>) {
    let spark = Spark {
        tapestry: RoleAwareness::STARTING,
        anthropoid_class: AnthropoidClass::new(5).unwrap(),
        core: CorePrograms::at_creation(3, 3, 4, 10).unwrap(),
        traits: ["A", "B", "C", "D"]
            .iter()
            .zip([3, 3, 2, 2])
            .map(|(d, r)| PersonalityTrait::role(*d, r).unwrap())
            .collect(),
        inspiration: 1_000,
    };
    let programs = Core::ALL.iter().flat_map(|&c| [(c, 0u32); 3]).collect();
    (spark, programs)
}

fn total_dice(spark: &Spark, programs: &[(Core, u32)]) -> i64 {
    programs
        .iter()
        .map(|&(c, l)| i64::from(l) + i64::from(spark.core.get(c)))
        .sum()
}

#[test]
fn e44_net_dice_change_by_self_awareness() {
    // E44, L1076-1087: "Net change in Levels" 0, -2, -3, -3, -2, -0, +3, +7, +12, +18, +25.
    let table = [0, -2, -3, -3, -2, 0, 3, 7, 12, 18, 25];
    for (sa, &net) in table.iter().enumerate() {
        assert_eq!(net_dice_change(sa as u8), net);
    }
    // The same numbers by playing the advancement itself: each increase lowers the highest
    // Core ("Lose 3 levels worth from Core") and grants the new level in free program levels
    // ("gain N from SA"), placed on programs of that Core's neighbours.
    let (mut spark, mut programs) = table_robot();
    let start = total_dice(&spark, &programs);
    let rules = CreationRules::default();
    for (sa, &net) in table.iter().enumerate().skip(1) {
        let raised = spark
            .raise_self_awareness(
                &AwarenessChoices {
                    core: None,
                    role_trait: 0,
                    awareness_trait: AwarenessTrait::New(format!("trait {sa}")),
                },
                &rules,
            )
            .unwrap();
        assert_eq!(raised.free_program_levels as usize, sa);
        programs[0].1 += u32::from(raised.free_program_levels);
        assert_eq!(
            total_dice(&spark, &programs) - start,
            i64::from(net),
            "SA {sa}"
        );
        assert_eq!(spark.tapestry.role() as usize, 10 - sa);
    }
    // At Role 0 every Core is back at its base of 2 and the Role traits are gone.
    assert_eq!(
        spark.core,
        CorePrograms {
            physical: 2,
            mental: 2,
            social: 2
        }
    );
    assert!(
        spark
            .traits
            .iter()
            .all(|t| t.kind == TraitKind::SelfAwareness)
    );
    assert_eq!(
        spark.raise_self_awareness(
            &AwarenessChoices {
                core: None,
                role_trait: 0,
                awareness_trait: AwarenessTrait::Raise(0)
            },
            &rules
        ),
        Err(CreationError::FullySentient)
    );
}

#[test]
fn free_program_levels_at_sa_3_and_4() {
    // L1062: "3 Program Levels at SA Level 3, 4 more at SA Level 4".
    let (mut spark, _) = table_robot();
    let rules = CreationRules::default();
    let mut got = vec![];
    for i in 0..4 {
        let r = spark
            .raise_self_awareness(
                &AwarenessChoices {
                    core: None,
                    role_trait: 0,
                    awareness_trait: AwarenessTrait::New(format!("t{i}")),
                },
                &rules,
            )
            .unwrap();
        got.push(r.free_program_levels);
    }
    assert_eq!(got[2..], [3, 4]);
}

#[test]
fn design_points_example_11d10_keep_6() {
    // §5.7 (L591-596): "Size 6 (X = 6), AC 5 → roll 11d10 and keep the 6 highest".
    let roll = DesignPointsRoll::for_robot(Size::new(6).unwrap(), AnthropoidClass::new(5).unwrap());
    assert_eq!((roll.dice(), roll.design_dice()), (11, 6));
    assert_eq!(roll.to_string(), "11d10kh6");
    let faces = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10];
    assert_eq!(roll.from_faces(&faces).unwrap(), 10 + 10 + 9 + 8 + 7 + 6);
    let mut record = roll.roll_record(&mut rng(4));
    assert_eq!(record.dice.len(), 11);
    record.dice.sort_by_key(|d| std::cmp::Reverse(d.natural));
    let top: u32 = record.dice.iter().take(6).map(|d| d.natural).sum();
    assert_eq!(record.total, i64::from(top));
}

#[test]
fn capacitor_power_example() {
    // §5.10 (L442-444, L721-723): "Add together Power Points from all levels before rounding
    // down": Size 5, 3 levels → 7.5 → 7 (not 3 × 2 = 6).
    let size = Size::new(5).unwrap();
    assert_eq!(size.capacitor_power(3), 7);
    assert_eq!(size.capacitor_power(1), 2);
}

fn pierre_like() -> RobotDesign {
    RobotDesign {
        social: SocialAttributes::new(BodyType::Type3, Vocalization::Type3),
        size: Size::new(7).unwrap(),
        design_points: 60,
        attributes: PrimaryAttributes {
            force: 8,
            durability: 6,
            articulation: 5,
            locomotion: 5,
            processor: 4,
            memory: 4,
        },
        sensors: Sensors {
            visual: 4,
            audio: 3,
            tactile: 3,
        },
        capacitor: 2,
        slots: 2,
        tapestry: RoleAwareness::STARTING,
        core: CorePrograms::at_creation(5, 2, 3, 10).unwrap(),
        programs: (0..9)
            .map(|i| RoleProgram::new(format!("P{i}"), Core::ALL[i % 3], 1))
            .collect(),
        traits: vec![
            PersonalityTrait::role("Strong as an ox", 3).unwrap(),
            PersonalityTrait::role("Loyal", 3).unwrap(),
            PersonalityTrait::role("Slow to anger", 2).unwrap(),
            PersonalityTrait::role("Loves wine", 2).unwrap(),
        ],
        accessories: vec![
            Accessory::HeavyDutyHydraulics,
            Accessory::AdvancedVisualSensors,
        ],
    }
}

#[test]
fn pierre_force_8_plus_hydraulics_is_9() {
    // L1828 (digest §5.8): "Force 8 + Hydraulics = 9": accessories may push an attribute past 8.
    // E29 (L2014-2023): "Devon 4 + Advanced Visual = 5".
    let robot = pierre_like().check(&CreationRules::default()).unwrap();
    assert_eq!(robot.attributes.force, 9);
    assert_eq!(robot.sensors.visual, 5);
    // Spaces: 2·(8+6) + 5 + 5 + 2 + 2 = 42 of Size 7's 48.
    assert_eq!(robot.spaces_used, 42);
    // Design Points: 32 + 10 + 2 + (9 levels − 8 free) + 2 + 2.
    assert_eq!(robot.design_points_spent, 32 + 10 + 2 + 1 + 4);
    assert_eq!(robot.power, 3); // 2 × (10 − 7)/2
    assert_eq!(robot.anthropoid_class.value(), 6);
}

#[test]
fn trait_decrease_costs_9_6_3() {
    // L1310: "Decreasing a Trait level costs 3 Inspiration per current level of the Trait
    // (9, 6, or 3)".
    let rules = CreationRules::default();
    for (rating, cost) in [(3, 9), (2, 6), (1, 3)] {
        let t = PersonalityTrait::new("Vain", rating, TraitKind::SelfAwareness).unwrap();
        assert_eq!(trait_decrease_cost(&t, &rules).unwrap(), cost);
    }
}

// ============================================================== tables against enumeration

#[test]
fn body_type_table_by_face() {
    // L494-498: 1 → 0, 2-3 → 1, 4-5 → 2, 6-8 → 3, 9-0 → 4.
    let expect = [0, 1, 1, 2, 2, 3, 3, 3, 4, 4];
    for (i, &t) in expect.iter().enumerate() {
        assert_eq!(BodyType::from_face(i as u32 + 1).unwrap().value(), t);
    }
    assert_eq!(BodyType::from_face(0), Err(CreationError::Face { face: 0 }));
    let mut counted = BTreeMap::new();
    for f in 1..=10 {
        *counted
            .entry(BodyType::from_face(f).unwrap())
            .or_insert(0.0) += 0.1;
    }
    assert_same(&law(&BodyTypeRoll), &counted);
}

#[test]
fn vocalization_table_by_column() {
    // L505-510, one string per Body Type column: the Type each face 1..=10 gives.
    let columns = [
        [0, 0, 1, 1, 1, 1, 1, 2, 2, 3], // 1-2, 3-7, 8-9, 0
        [0, 1, 1, 1, 1, 2, 2, 2, 2, 3], // 1, 2-5, 6-9, 0
        [1, 1, 1, 2, 2, 2, 2, 2, 3, 3], // 1-3, 4-8, 9-0
        [1, 1, 2, 2, 2, 3, 3, 3, 3, 4], // 1-2, 3-5, 6-9, 0
        [1, 2, 2, 3, 3, 3, 3, 3, 4, 4], // 1, 2-3, 4-8, 9-0
        [2, 3, 3, 3, 3, 3, 3, 4, 4, 4], // 1, 2-7, 8-0
    ];
    for (b, column) in columns.iter().enumerate() {
        let body = BodyType::new(b as u8).unwrap();
        let mut counted = BTreeMap::new();
        for (i, &v) in column.iter().enumerate() {
            let got = Vocalization::from_face(body, i as u32 + 1).unwrap();
            assert_eq!(got.value(), v, "Body {b}, face {}", i + 1);
            *counted.entry(got).or_insert(0.0) += 0.1;
        }
        assert_same(&law(&VocalizationRoll::new(body)), &counted);
    }
}

#[test]
fn gender_and_size_tables_by_face() {
    // L573-583: female 1-2 → 3, 3-4 → 4, 5-7 → 5, 8-9 → 6, 0 → 7;
    // male 1 → 3, 2 → 4, 3-4 → 5, 5-7 → 6, 8-9 → 7, 0 → 8.
    let female = [3, 3, 4, 4, 5, 5, 5, 6, 6, 7];
    let male = [3, 4, 5, 5, 6, 6, 6, 7, 7, 8];
    for f in 1..=10u32 {
        let i = f as usize - 1;
        assert_eq!(
            Gender::from_face(f).unwrap(),
            if f <= 5 { Gender::Female } else { Gender::Male }
        );
        assert_eq!(
            Size::from_face(Gender::Female, f).unwrap().value(),
            female[i]
        );
        assert_eq!(Size::from_face(Gender::Male, f).unwrap().value(), male[i]);
    }
    let mut counted = BTreeMap::new();
    for g in 1..=10 {
        for s in 1..=10 {
            let size = Size::from_face(Gender::from_face(g).unwrap(), s).unwrap();
            *counted.entry(size).or_insert(0.0) += 0.01;
        }
    }
    assert_same(&law(&RandomSize), &counted);
    // Spaces and Design Dice, L574-583.
    let dice = [2, 3, 4, 5, 6, 6, 6, 6, 7, 8];
    for s in 0..=9u8 {
        let size = Size::new(s).unwrap();
        assert_eq!(size.design_dice(), dice[usize::from(s)]);
        assert_eq!(size.max_spaces(), 6 + 6 * u32::from(s));
    }
}

#[test]
fn anthropoid_class_law_against_enumeration() {
    let mut counted = BTreeMap::new();
    let mut pairs = BTreeMap::new();
    for b in 1..=10 {
        for v in 1..=10 {
            let s = SocialAttributes::from_faces(b, v).unwrap();
            *counted.entry(s.anthropoid_class()).or_insert(0.0) += 0.01;
            *pairs.entry(s).or_insert(0.0) += 0.01;
        }
    }
    let ac: BTreeMap<_, _> = SocialRoll
        .anthropoid_class_distribution()
        .iter()
        .map(|(o, p)| (*o, p))
        .collect();
    assert_same(&ac, &counted);
    assert_same(&law(&SocialRoll), &pairs);
}

#[test]
fn design_points_keep_highest_against_enumeration() {
    // Every face tuple of X + AC d10s, sorted, the X highest summed.
    for (x, ac) in [(2, 0), (2, 2), (3, 1), (5, 1), (2, 4)] {
        let roll = DesignPointsRoll::new(x, ac).unwrap();
        let n = (x + ac) as usize;
        let mut counted = BTreeMap::new();
        let each = 0.1f64.powi(n as i32);
        for mut f in faces(n) {
            f.sort_unstable_by(|a, b| b.cmp(a));
            let dp: u32 = f.iter().take(x as usize).sum();
            *counted.entry(dp).or_insert(0.0) += each;
            if n <= 4 {
                assert_eq!(roll.from_faces(&f).unwrap(), dp);
            }
        }
        assert_same(&law(&roll), &counted);
    }
}

#[test]
fn random_design_points_is_the_mixture() {
    // The mixture written out: P(AC) × P(X) × P(DP | X, AC), with P(AC) and P(Size) counted
    // from the face pairs above and the conditional laws from the (enumeration-checked)
    // keep-highest.
    let mut ac = BTreeMap::new();
    let mut x = BTreeMap::new();
    for a in 1..=10 {
        for b in 1..=10 {
            let s = SocialAttributes::from_faces(a, b).unwrap();
            *ac.entry(u32::from(s.anthropoid_class().value()))
                .or_insert(0.0) += 0.01;
            let size = Size::from_face(Gender::from_face(a).unwrap(), b).unwrap();
            *x.entry(size.design_dice()).or_insert(0.0) += 0.01;
        }
    }
    let mut mix = BTreeMap::new();
    for (&a, &pa) in &ac {
        for (&d, &pd) in &x {
            for (dp, p) in law(&DesignPointsRoll::new(d, a).unwrap()) {
                *mix.entry(dp).or_insert(0.0) += pa * pd * p;
            }
        }
    }
    assert_same(&law(&RandomDesignPoints), &mix);
}

#[test]
fn memory_saves_against_enumeration() {
    for memory in 0..=10u8 {
        for level in 1..=6u8 {
            let raise = ProgramIncrease::new(memory, level, 0).unwrap();
            let learn = LearnProgram::new(memory, level % 3);
            let (mut r, mut l) = (BTreeMap::new(), BTreeMap::new());
            for f in faces(3) {
                let f = [f[0], f[1], f[2]];
                *r.entry(raise.from_faces(f).unwrap()).or_insert(0.0) += 0.001;
                *l.entry(learn.from_faces(f).unwrap()).or_insert(0.0) += 0.001;
            }
            assert_same(&law(&raise), &r);
            assert_same(&law(&learn), &l);
        }
    }
}

#[test]
fn program_increase_costs() {
    // L1282-1287: "Spend 2 Inspiration … Each failed die on the Memory Save requires an extra
    // 2 points of Inspiration".
    let rules = CreationRules::default();
    let raise = ProgramIncrease::new(8, 3, 0).unwrap(); // TN 5
    let o = raise.from_faces([5, 6, 10]).unwrap();
    assert_eq!(o, IncreaseOutcome::Qualified { failed: 2 });
    assert_eq!(o.cost(3, &rules), 6);
    assert_eq!(o.settle(3, 6, &rules).unwrap(), (6, true));
    assert_eq!(o.settle(3, 5, &rules).unwrap(), (2, false));
    // A29: a Total Failure does not qualify; the 2 are lost.
    let none = raise.from_faces([6, 7, 8]).unwrap();
    assert_eq!(none.settle(3, 50, &rules).unwrap(), (2, false));
    // L1278's reading behind the knob: the desired level, no save.
    let level = CreationRules {
        program_increase_cost: ProgramIncreaseCost::DesiredLevel,
        ..rules
    };
    assert_eq!(none.settle(3, 50, &level).unwrap(), (3, true));
    // The slow dial doubles other costs (L1340).
    let slow = CreationRules {
        double_other_costs: true,
        ..rules
    };
    assert_eq!(o.cost(3, &slow), 12);
    assert_eq!(LearnProgram::cost(true, 8, &slow).unwrap(), 8);
    // Learning: "Spend 4 Inspiration" (A28) and an Inspired Roll first (A30).
    assert_eq!(LearnProgram::cost(true, 4, &rules).unwrap(), 4);
    let six = CreationRules {
        learn_program_cost: 6,
        ..rules
    };
    assert_eq!(
        LearnProgram::cost(true, 5, &six),
        Err(CreationError::Unaffordable {
            what: "learning a Program",
            cost: 6,
            available: 5
        })
    );
    let waived = CreationRules {
        learning_needs_inspired_roll: false,
        ..rules
    };
    assert_eq!(LearnProgram::cost(false, 4, &waived).unwrap(), 4);
}

// ==================================================================== seeded statistical

#[test]
fn seeded_rolls_match_the_exact_laws() {
    check_rolls(&BodyTypeRoll, 1);
    check_rolls(&VocalizationRoll::new(BodyType::Type2), 2);
    check_rolls(&SocialRoll, 3);
    check_rolls(&GenderRoll, 4);
    check_rolls(&SizeRoll::new(Gender::Male), 5);
    check_rolls(&RandomSize, 6);
    check_rolls(&CoreSocialRoll, 7);
    check_rolls(
        &DesignPointsRoll::for_robot(Size::new(6).unwrap(), AnthropoidClass::new(5).unwrap()),
        8,
    );
    check_rolls(&DesignPointsRoll::new(7, 0).unwrap(), 9);
    check_rolls(&RandomDesignPoints, 10);
    check_rolls(&ProgramIncrease::new(6, 3, 1).unwrap(), 11);
    check_rolls(&LearnProgram::new(6, 1), 12);
}

#[test]
fn rolls_are_deterministic_with_a_seed() {
    let a: Vec<u32> = {
        let mut r = rng(99);
        (0..50).map(|_| RandomDesignPoints.roll(&mut r)).collect()
    };
    let b: Vec<u32> = {
        let mut r = rng(99);
        (0..50).map(|_| RandomDesignPoints.roll(&mut r)).collect()
    };
    assert_eq!(a, b);
    // The record of a table roll carries its face, which the pure lookup maps back.
    let rec = VocalizationRoll::new(BodyType::Type4).roll_record(&mut rng(5));
    let face = rec.dice[0].natural;
    assert_eq!(rec.total, i64::from(face));
}

// ======================================================================= validators

#[test]
fn each_design_error_names_its_rule() {
    let rules = CreationRules::default();
    let ok = pierre_like();
    assert!(ok.check(&rules).is_ok());
    let err = |f: &dyn Fn(&mut RobotDesign)| {
        let mut d = ok.clone();
        f(&mut d);
        d.check(&rules).unwrap_err()
    };
    assert!(matches!(
        err(&|d| d.social.body = BodyType::Type5),
        CreationError::TypeFiveByAccessoryOnly { .. }
    ));
    assert_eq!(
        err(&|d| d.attributes.processor = 0),
        CreationError::PrimaryAttribute {
            attribute: "Processor",
            value: 0
        }
    );
    assert_eq!(
        err(&|d| d.attributes.memory = 9),
        CreationError::PrimaryAttribute {
            attribute: "Memory",
            value: 9
        }
    );
    assert_eq!(
        err(&|d| {
            d.social.body = BodyType::Type2;
            d.attributes.durability = 7
        }),
        CreationError::DurabilityCap {
            durability: 7,
            body: 2,
            max: 6
        }
    );
    assert_eq!(
        err(&|d| d.sensors.audio = 5),
        CreationError::Sensor {
            sensor: "Audio",
            value: 5,
            min: 0
        }
    );
    assert_eq!(
        err(&|d| d.slots = 9),
        CreationError::TooManySpaces {
            used: 49,
            size: 7,
            max: 48
        }
    );
    assert!(matches!(
        err(&|d| d.core.social += 1),
        CreationError::CorePrograms { .. }
    ));
    assert_eq!(
        err(&|d| {
            d.programs.pop();
        }),
        CreationError::TooFewPrograms { count: 8 }
    );
    assert!(matches!(
        err(&|d| d.programs[0].level = 6),
        CreationError::ProgramAboveStartingMax {
            level: 6,
            max: 5,
            ..
        }
    ));
    assert!(matches!(
        err(&|d| d.programs[1].name = "P0".into()),
        CreationError::ProgramListedTwice { .. }
    ));
    assert_eq!(
        err(&|d| {
            d.traits.pop();
        }),
        CreationError::TraitTotal { total: 8, role: 10 }
    );
    assert!(matches!(
        err(&|d| d.traits[0].rating = 4),
        CreationError::TraitRating { rating: 4, .. }
    ));
    assert_eq!(
        err(&|d| d.accessories.push(Accessory::HeavyDutyHydraulics)),
        CreationError::AccessoryTwice {
            accessory: "Heavy Duty Hydraulics"
        }
    );
    assert!(matches!(
        err(&|d| d.accessories.push(Accessory::Syntheskin)),
        CreationError::AccessoryRequirement {
            accessory: "Syntheskin",
            ..
        }
    ));
    assert!(matches!(
        err(&|d| d.accessories.push(Accessory::AdvancedVocalization)),
        CreationError::AccessoryRequirement { .. }
    ));
    assert_eq!(
        err(&|d| d.accessories.push(Accessory::GpsNavigation)),
        CreationError::TooFewSlots {
            needed: 3,
            slots: 2
        }
    );
    assert_eq!(
        err(&|d| d.design_points = 40),
        CreationError::TooManyDesignPoints {
            spent: 49,
            available: 40
        }
    );
    assert!(matches!(
        err(&|d| d.accessories = vec![Accessory::MemoryChip { design_points: 0 }]),
        CreationError::MemoryChip { .. }
    ));
    // Every message names its lines.
    let e = err(&|d| d.slots = 9);
    assert!(e.to_string().contains("L567"), "{e}");
    // A32: the band's minimum only when asked for.
    let mut small = ok.clone();
    small.attributes.durability = 1;
    small.attributes.force = 1;
    assert!(small.check(&rules).is_ok());
    let band = CreationRules {
        spaces_band_minimum: true,
        ..rules
    };
    assert!(matches!(
        small.check(&band),
        Err(CreationError::TooFewSpaces { min: 43, .. })
    ));
    // A6: sensors at 0 allowed by the ruling, refused with L128's minimum of 1.
    let mut blind = ok;
    blind.sensors.tactile = 0;
    assert!(blind.check(&rules).is_ok());
    let one = CreationRules {
        sensor_minimum: 1,
        ..rules
    };
    assert!(matches!(
        blind.check(&one),
        Err(CreationError::Sensor {
            sensor: "Tactile",
            ..
        })
    ));
}

#[test]
fn accessories_change_social_attributes_and_class() {
    let rules = CreationRules::default();
    let mut d = pierre_like();
    d.social = SocialAttributes::new(BodyType::Type2, Vocalization::Type3);
    d.attributes.durability = 6;
    d.slots = 8;
    d.design_points = 80;
    d.accessories = vec![
        Accessory::Syntheskin,
        Accessory::ImprovedVocalization,
        Accessory::AdvancedVocalization,
        Accessory::HeavyDutyInsulation, // past Body Type 2's cap of 6 (L932)
        Accessory::ArmorPlating,
    ];
    d.slots = 9;
    d.attributes.force = 6;
    let r = d.check(&rules).unwrap();
    assert_eq!(
        (r.body, r.vocalization),
        (BodyType::Type5, Vocalization::Type5)
    );
    assert_eq!(r.attributes.durability, 7);
    assert_eq!(r.anthropoid_class.value(), 8); // 5 + 5, −2 for Armor Plating
    assert_eq!(
        Vocalization::Type5
            .voice_dice(dice_robots_and_rapiers::Rules::default().vocalization_type5_dice),
        Some(2)
    ); // A22
    // Reserve Capacitors: (10 − Size)/2 rounded down, at least 1 (L970).
    let mut p = pierre_like();
    p.accessories = vec![Accessory::ReserveCapacitor, Accessory::ReserveCapacitor];
    assert_eq!(p.check(&rules).unwrap().power, 3 + 2);
}

#[test]
fn social_class_and_core_social() {
    // L526-530 and L763.
    let classes: Vec<SocialClass> = (0..=10)
        .map(|c| AnthropoidClass::new(c).unwrap().social_class())
        .collect();
    use SocialClass::*;
    assert_eq!(
        classes,
        [
            Lowest, Lowest, Lowest, Lower, Lower, Middle, Middle, Upper, Upper, Royalty, Royalty
        ]
    );
    for c in 0..=10 {
        let expect = match c {
            0..=4 => Some(CoreSocial::Common),
            5 | 6 => None,
            _ => Some(CoreSocial::Genteel),
        };
        assert_eq!(AnthropoidClass::new(c).unwrap().core_social(), expect);
    }
}

#[test]
fn spark_refuses_what_it_cannot_pay_and_changes_nothing() {
    let (mut spark, _) = table_robot();
    spark.inspiration = 3;
    let before = spark.clone();
    let choices = AwarenessChoices {
        core: None,
        role_trait: 0,
        awareness_trait: AwarenessTrait::New("x".into()),
    };
    assert!(matches!(
        spark.raise_self_awareness(&choices, &CreationRules::default()),
        Err(CreationError::Unaffordable {
            cost: 4,
            available: 3,
            ..
        })
    ));
    assert_eq!(spark, before);
    // A Role trait cannot be bought (L1303).
    assert_eq!(
        spark.buy_trait_level(&AwarenessTrait::Raise(0), &CreationRules::default()),
        Err(CreationError::RoleTraitNotForSale)
    );
    assert_eq!(spark, before);
}

// ========================================================================= proptests

fn design_strategy() -> impl Strategy<Value = RobotDesign> {
    (
        (0u8..=4, 1u32..=10, 0u8..=9),
        prop::array::uniform6(1u8..=8),
        prop::array::uniform3(0u8..=4),
        (0u32..=6, 0u32..=6),
        (0u8..=10, 0u8..=8, 0u8..=8),
        prop::collection::vec(0u8..=5, 9..=12),
    )
        .prop_map(
            |((body, voice_face, size), a, s, (capacitor, slots), (role, p, m), levels)| {
                let body = BodyType::new(body).unwrap();
                let role_dist = (p.min(role), m.min(role.saturating_sub(p.min(role))));
                let core = CorePrograms {
                    physical: 2 + role_dist.0,
                    mental: 2 + role_dist.1,
                    social: 2 + role - role_dist.0 - role_dist.1,
                };
                let mut traits = vec![];
                let mut left = role;
                let mut i = 0;
                while left > 0 {
                    let r = left.min(3);
                    traits.push(PersonalityTrait::role(format!("trait {i}"), r).unwrap());
                    left -= r;
                    i += 1;
                }
                RobotDesign {
                    social: SocialAttributes::new(
                        body,
                        Vocalization::from_face(body, voice_face).unwrap(),
                    ),
                    size: Size::new(size).unwrap(),
                    design_points: 200,
                    attributes: PrimaryAttributes {
                        force: a[0],
                        durability: a[1].min(body.durability_max()),
                        articulation: a[2],
                        locomotion: a[3],
                        processor: a[4],
                        memory: a[5],
                    },
                    sensors: Sensors {
                        visual: s[0],
                        audio: s[1],
                        tactile: s[2],
                    },
                    capacitor,
                    slots,
                    tapestry: RoleAwareness::from_role(role).unwrap(),
                    core,
                    programs: levels
                        .iter()
                        .enumerate()
                        .map(|(i, &l)| RoleProgram::new(format!("P{i}"), Core::ALL[i % 3], l))
                        .collect(),
                    traits,
                    accessories: vec![],
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn accepted_designs_obey_the_rules(d in design_strategy()) {
        let rules = CreationRules::default();
        match d.check(&rules) {
            Ok(r) => {
                prop_assert!(r.spaces_used <= d.size.max_spaces());
                prop_assert!(r.design_points_spent <= d.design_points);
                prop_assert!(r.attributes.durability <= d.social.body.durability_max());
                prop_assert_eq!(r.power, u32::from(10 - d.size.value()) * d.capacitor / 2);
                prop_assert_eq!(d.core.total(), 6 + u32::from(d.tapestry.role()));
                prop_assert!(d.core.physical >= 3 && d.core.mental >= 3 && d.core.social >= 3);
            }
            Err(CreationError::TooManySpaces { used, max, .. }) => {
                prop_assert!(used > max);
                prop_assert_eq!(used, d.spaces_used());
            }
            Err(CreationError::CorePrograms { .. }) => {
                // Only when the Role Score cannot give each Core at least 1.
                prop_assert!(d.core.physical < 3 || d.core.mental < 3 || d.core.social < 3);
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    #[test]
    fn design_points_from_faces_keep_the_highest(x in 1u32..=8, ac in 0u32..=10, seed: u64) {
        let roll = DesignPointsRoll::new(x, ac).unwrap();
        let mut r = rng(seed);
        let f: Vec<u32> = (0..roll.dice()).map(|_| dice_core::Die::D10.roll(&mut r)).collect();
        let dp = roll.from_faces(&f).unwrap();
        prop_assert!(dp >= x && dp <= 10 * x);
        // Any X of the dice sum to at most the Design Points.
        let first: u32 = f.iter().take(x as usize).sum();
        prop_assert!(first <= dp);
        // More Anthropoid Class dice never lower the result of the same dice.
        if ac > 0 {
            let fewer = DesignPointsRoll::new(x, ac - 1).unwrap();
            prop_assert!(fewer.from_faces(&f[1..]).unwrap() <= dp);
        }
    }

    #[test]
    fn table_lookups_are_total_on_faces(face in 1u32..=10, body in 0u8..=5) {
        let b = BodyType::from_face(face).unwrap();
        prop_assert!(b <= BodyType::Type4);
        let v = Vocalization::from_face(BodyType::new(body).unwrap(), face).unwrap();
        let (lo, hi) = Vocalization::range(BodyType::new(body).unwrap());
        prop_assert!(lo <= v && v <= hi);
        let s = Size::from_face(Gender::from_face(face).unwrap(), face).unwrap();
        prop_assert!((3..=8).contains(&s.value()));
    }

    #[test]
    fn bad_faces_are_errors(face in 11u32..) {
        prop_assert_eq!(BodyType::from_face(face), Err(CreationError::Face { face }));
        prop_assert!(Gender::from_face(face).is_err());
    }

    #[test]
    fn self_awareness_cost_formula(level in 1u8..=10, ac in 0u8..=10, base in 1u32..=3) {
        let rules = CreationRules { self_awareness_base_cost: base, ..CreationRules::default() };
        let c = self_awareness_cost(level, AnthropoidClass::new(ac).unwrap(), &rules).unwrap();
        let expect = base * u32::from(level) * if level <= ac { 2 } else { 1 };
        prop_assert_eq!(c, expect);
    }

    #[test]
    fn advancement_keeps_the_invariants(
        steps in prop::collection::vec((0usize..4, any::<bool>()), 1..=10),
        ac in 0u8..=10,
    ) {
        let rules = CreationRules::default();
        let (mut spark, _) = table_robot();
        spark.anthropoid_class = AnthropoidClass::new(ac).unwrap();
        for (i, (pick, new_trait)) in steps.into_iter().enumerate() {
            let role_traits: Vec<usize> = spark.traits.iter().enumerate()
                .filter(|(_, t)| t.kind == TraitKind::Role).map(|(j, _)| j).collect();
            let sa_trait = spark.traits.iter().position(|t| t.kind == TraitKind::SelfAwareness && t.rating < 3);
            let awareness_trait = match (new_trait, sa_trait) {
                (false, Some(j)) => AwarenessTrait::Raise(j),
                _ => AwarenessTrait::New(format!("t{i}")),
            };
            let choices = AwarenessChoices {
                core: None,
                role_trait: role_traits.get(pick % role_traits.len().max(1)).copied().unwrap_or(0),
                awareness_trait,
            };
            let before = spark.inspiration;
            let r = spark.raise_self_awareness(&choices, &rules).unwrap();
            prop_assert_eq!(before - spark.inspiration, r.cost);
            let role = spark.tapestry.role();
            prop_assert_eq!(role + spark.tapestry.self_awareness(), 10);
            let role_total: u32 = spark.traits.iter().filter(|t| t.kind == TraitKind::Role)
                .map(|t| u32::from(t.rating)).sum();
            prop_assert_eq!(role_total, u32::from(role));
            prop_assert_eq!(spark.core.total(), 6 + u32::from(role));
            prop_assert!(spark.traits.iter().all(|t| (1..=3).contains(&t.rating)));
        }
    }

    #[test]
    fn dramatic_control_cost_bounds(e in 0usize..3, s: bool, t: bool) {
        let effect = [DramaticEffect::Minor, DramaticEffect::Moderate, DramaticEffect::Major][e];
        let c = DramaticControl { effect, stretching_credibility: s, creates_more_trouble: t }
            .cost(&CreationRules::default());
        prop_assert_eq!(c as i64, [1, 3, 5][e] + i64::from(s) - i64::from(t));
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trip_and_checked_values() {
    let d = pierre_like();
    let json = serde_json::to_string(&d).unwrap();
    let back: RobotDesign = serde_json::from_str(&json).unwrap();
    assert_eq!(back, d);
    let robot = d.check(&CreationRules::default()).unwrap();
    let back: Robot = serde_json::from_str(&serde_json::to_string(&robot).unwrap()).unwrap();
    assert_eq!(back, robot);
    let rules: CreationRules = serde_json::from_str("{}").unwrap();
    assert_eq!(rules, CreationRules::default());
    // Stored values are checked when read back.
    assert!(serde_json::from_str::<Size>("12").is_err());
    assert!(serde_json::from_str::<AnthropoidClass>("11").is_err());
    assert!(serde_json::from_str::<RoleAwareness>(r#"{"role":9,"self_awareness":9}"#).is_err());
    assert_eq!(
        serde_json::from_str::<RoleAwareness>(r#"{"role":7,"self_awareness":3}"#).unwrap(),
        RoleAwareness::new(7, 3).unwrap()
    );
}
