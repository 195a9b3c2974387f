//! The creation validators (SB-R9, SB-R11): unit tests of every error, and proptests that
//! every accepted build obeys the rules and every single-rule violation is rejected with that
//! rule's error.

use dice_shapers_and_bots::{
    Character, Characteristic as C, CharacteristicChanges, Characteristics, CreatedBy, Error,
    Level, Rating, Size, Skill, SkillName, SkillPackage, SkillRaise, Species,
    adjust_characteristics, raise_skills,
};
use proptest::prelude::*;

/// The seven characteristics every species has (L176).
const SPECIES_TRAITS: [C; 7] = [
    C::Size,
    C::Fitness,
    C::Dexterity,
    C::Intellect,
    C::Sight,
    C::Hearing,
    C::Smell,
];

fn level(c: &Characteristics, t: C) -> Level {
    c.get(t).and_then(Rating::level).expect("rated")
}

fn player(species: Species, changes: &CharacteristicChanges) -> Result<Characteristics, Error> {
    adjust_characteristics(&species.characteristics(), changes, CreatedBy::Player)
}

/// 512 cases; the violation tests discard the cases a violation does not fit (about half),
/// so the reject limits are raised to match.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        max_global_rejects: 1 << 20,
        max_local_rejects: 1 << 20,
        ..ProptestConfig::default()
    }
}

// ------------------------------------------------------------------------ characteristics

#[test]
fn each_characteristic_error_names_its_rule() {
    let ch = |r: &[C], l: &[C]| CharacteristicChanges {
        raise: r.to_vec(),
        lower: l.to_vec(),
    };
    // L198–200: one raise, or two raises and a lowering.
    let e = player(Species::Zebra, &ch(&[C::Size, C::Fitness], &[])).unwrap_err();
    assert_eq!(
        e,
        Error::CharacteristicPackage {
            raised: 2,
            lowered: 0
        }
    );
    assert_eq!(e.rule(), Some("SB-R9"));
    assert!(e.to_string().contains("L198–200"));
    assert!(player(Species::Zebra, &ch(&[C::Size], &[C::Fitness])).is_err());
    assert!(
        player(
            Species::Zebra,
            &ch(&[C::Size, C::Fitness, C::Sight], &[C::Hearing])
        )
        .is_err()
    );
    // L165–166: no Courage or Honesty for player characters.
    let e = player(Species::Zebra, &ch(&[C::Courage], &[])).unwrap_err();
    assert!(matches!(
        e,
        Error::CharacteristicNotAdjustable {
            characteristic: C::Courage,
            ..
        }
    ));
    // L138–141: Height is not listed for a species.
    assert!(matches!(
        player(Species::Zebra, &ch(&[C::Height], &[])).unwrap_err(),
        Error::CharacteristicNotAdjustable { .. }
    ));
    // L201: not the same characteristic twice.
    assert_eq!(
        player(
            Species::Zebra,
            &ch(&[C::Dexterity, C::Dexterity], &[C::Smell])
        )
        .unwrap_err(),
        Error::CharacteristicRaisedTwice {
            characteristic: C::Dexterity
        }
    );
    // SB-A12 strict: the lowered one is not a raised one.
    assert_eq!(
        player(Species::Zebra, &ch(&[C::Dexterity, C::Sight], &[C::Sight])).unwrap_err(),
        Error::RaisedCharacteristicLowered {
            characteristic: C::Sight
        }
    );
    // L202: not above Very High.
    let e = player(Species::Sloth, &ch(&[C::Intellect], &[])).unwrap_err();
    assert_eq!(
        e,
        Error::CharacteristicAboveVeryHigh {
            characteristic: C::Intellect
        }
    );
    assert!(
        e.to_string()
            .contains("cannot raise any characteristic above Very High")
    );
    // The ladder's bottom (SB-A12).
    assert_eq!(
        player(Species::Bison, &ch(&[C::Size, C::Fitness], &[C::Dexterity])).unwrap_err(),
        Error::CharacteristicBelowVeryLow {
            characteristic: C::Dexterity
        }
    );
}

#[test]
fn the_director_is_lenient_but_keeps_the_ladder() {
    let elephant = Species::Elephant.characteristics();
    let twice = CharacteristicChanges {
        raise: vec![C::Size, C::Size],
        lower: vec![],
    };
    assert_eq!(
        adjust_characteristics(&elephant, &twice, CreatedBy::Director).unwrap_err(),
        Error::CharacteristicAboveAwesome {
            characteristic: C::Size
        }
    );
    let once = CharacteristicChanges::raise(C::Size);
    let big = adjust_characteristics(&elephant, &once, CreatedBy::Director).unwrap();
    assert_eq!(big.size, Size::Single(Level::Awesome));
    // Courage for an important extra who has it.
    let extra = Characteristics {
        courage: Some(Level::Average),
        ..Characteristics::default()
    };
    let brave = adjust_characteristics(
        &extra,
        &CharacteristicChanges::raise(C::Courage),
        CreatedBy::Director,
    )
    .unwrap();
    assert_eq!(brave.courage, Some(Level::High));
    // A bot's missing Smell cannot be adjusted by anyone.
    let bot = Characteristics::bot(
        Size::Single(Level::Low),
        Level::Average,
        Level::Average,
        Level::Average,
    );
    assert!(matches!(
        adjust_characteristics(
            &bot,
            &CharacteristicChanges::raise(C::Smell),
            CreatedBy::Director
        ),
        Err(Error::CharacteristicNotAdjustable { .. })
    ));
    // Height and Weight of a bot that lists them.
    let tall = Characteristics::bot(
        Size::HeightWeight {
            height: Level::High,
            weight: Level::Low,
        },
        Level::Average,
        Level::Average,
        Level::Average,
    );
    let taller = adjust_characteristics(
        &tall,
        &CharacteristicChanges::raise(C::Height),
        CreatedBy::Player,
    )
    .unwrap();
    assert_eq!(
        taller.size,
        Size::HeightWeight {
            height: Level::VeryHigh,
            weight: Level::Low
        }
    );
}

fn species() -> impl Strategy<Value = Species> {
    prop::sample::select(Species::ALL.to_vec())
}

fn any_characteristic() -> impl Strategy<Value = C> {
    prop::sample::select(C::ALL.to_vec())
}

/// A legal player adjustment: (species, changes).
fn legal_adjustment() -> impl Strategy<Value = (Species, CharacteristicChanges)> {
    (species(), 0..3usize, 0..7usize, 0..7usize, 0..7usize).prop_filter_map(
        "no legal choice with these picks",
        |(sp, kind, a, b, l)| {
            let base = sp.characteristics();
            let raisable: Vec<C> = SPECIES_TRAITS
                .into_iter()
                .filter(|&t| level(&base, t) < Level::VeryHigh)
                .collect();
            let pick = |v: &[C], i: usize| v.get(i % v.len().max(1)).copied();
            let changes = match kind {
                0 => CharacteristicChanges::none(),
                1 => CharacteristicChanges::raise(pick(&raisable, a)?),
                _ => {
                    let first = pick(&raisable, a)?;
                    let rest: Vec<C> = raisable.iter().copied().filter(|&t| t != first).collect();
                    let second = pick(&rest, b)?;
                    let lowerable: Vec<C> = SPECIES_TRAITS
                        .into_iter()
                        .filter(|&t| t != first && t != second && level(&base, t) > Level::VeryLow)
                        .collect();
                    CharacteristicChanges::raise_two_lower_one(first, second, pick(&lowerable, l)?)
                }
            };
            Some((sp, changes))
        },
    )
}

proptest! {
    #![proptest_config(config())]

    /// Every build the player validator accepts obeys L198–202 and the strict rulings, and
    /// every rejection names a rule the build really breaks.
    #[test]
    fn accepted_characteristic_builds_obey_the_rules(
        sp in species(),
        raise in prop::collection::vec(any_characteristic(), 0..4),
        lower in prop::collection::vec(any_characteristic(), 0..3),
    ) {
        let base = sp.characteristics();
        let changes = CharacteristicChanges { raise: raise.clone(), lower: lower.clone() };
        match adjust_characteristics(&base, &changes, CreatedBy::Player) {
            Ok(out) => {
                prop_assert!(matches!((raise.len(), lower.len()), (0, 0) | (1, 0) | (2, 1)));
                prop_assert!(raise.len() < 2 || raise[0] != raise[1]);
                for t in &lower {
                    prop_assert!(!raise.contains(t));
                }
                for t in C::ALL {
                    let before = base.get(t);
                    let after = out.get(t);
                    if raise.contains(&t) {
                        prop_assert!(SPECIES_TRAITS.contains(&t));
                        let (b, a) = (level(&base, t), level(&out, t));
                        prop_assert_eq!(b.raised(1), Some(a));
                        prop_assert!(a <= Level::VeryHigh);
                    } else if lower.contains(&t) {
                        prop_assert!(SPECIES_TRAITS.contains(&t));
                        prop_assert_eq!(level(&base, t).lowered(1), Some(level(&out, t)));
                    } else {
                        prop_assert_eq!(before, after);
                    }
                }
            }
            Err(Error::CharacteristicPackage { raised, lowered }) => {
                prop_assert!(!matches!((raised, lowered), (0, 0) | (1, 0) | (2, 1)));
            }
            Err(Error::CharacteristicNotAdjustable { characteristic, .. }) => {
                prop_assert!(!SPECIES_TRAITS.contains(&characteristic));
            }
            Err(Error::CharacteristicRaisedTwice { characteristic }) => {
                prop_assert_eq!(raise.iter().filter(|&&t| t == characteristic).count(), 2);
            }
            Err(Error::RaisedCharacteristicLowered { characteristic }) => {
                prop_assert!(raise.contains(&characteristic) && lower.contains(&characteristic));
            }
            Err(Error::CharacteristicAboveVeryHigh { characteristic }) => {
                prop_assert!(level(&base, characteristic) >= Level::VeryHigh);
            }
            Err(Error::CharacteristicBelowVeryLow { characteristic }) => {
                prop_assert_eq!(level(&base, characteristic), Level::VeryLow);
            }
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }

    /// Legal builds are accepted.
    #[test]
    fn legal_characteristic_builds_are_accepted((sp, changes) in legal_adjustment()) {
        prop_assert!(player(sp, &changes).is_ok(), "{} {}", sp, changes);
    }

    /// Each single-rule violation of a legal build is rejected with that rule's error.
    #[test]
    fn single_characteristic_violations_are_named(
        (sp, changes) in legal_adjustment(),
        which in 0..6usize,
        pick in 0..7usize,
    ) {
        let base = sp.characteristics();
        let mut bad = changes.clone();
        let raisable: Vec<C> = SPECIES_TRAITS
            .into_iter()
            .filter(|&t| level(&base, t) < Level::VeryHigh && !changes.raise.contains(&t) && !changes.lower.contains(&t))
            .collect();
        let expected = match which {
            // The package (L198–200): one raise too many, or a lowering with no two raises.
            0 => {
                match changes.raise.len() {
                    0 => bad.lower.push(SPECIES_TRAITS[pick]),
                    _ => {
                        prop_assume!(!raisable.is_empty());
                        bad.raise.push(raisable[pick % raisable.len()]);
                    }
                }
                Error::CharacteristicPackage { raised: bad.raise.len(), lowered: bad.lower.len() }
            }
            // Courage (L165–166), or Height (L138–141), in place of a raise.
            1 => {
                prop_assume!(!changes.raise.is_empty());
                let t = if pick % 2 == 0 { C::Courage } else { C::Height };
                bad.raise[0] = t;
                return match player(sp, &bad) {
                    Err(Error::CharacteristicNotAdjustable { characteristic, .. }) => {
                        prop_assert_eq!(characteristic, t);
                        Ok(())
                    }
                    other => Err(TestCaseError::fail(format!("{other:?}"))),
                };
            }
            // The same characteristic raised twice (L201).
            2 => {
                prop_assume!(changes.raise.len() == 2);
                bad.raise[1] = bad.raise[0];
                Error::CharacteristicRaisedTwice { characteristic: bad.raise[0] }
            }
            // Lowering a raised one (SB-A12, strict).
            3 => {
                prop_assume!(changes.raise.len() == 2);
                bad.lower[0] = bad.raise[pick % 2];
                Error::RaisedCharacteristicLowered { characteristic: bad.lower[0] }
            }
            // Raising a Very High characteristic (L202).
            4 => {
                let top: Vec<C> = SPECIES_TRAITS
                    .into_iter()
                    .filter(|&t| level(&base, t) == Level::VeryHigh && !changes.lower.contains(&t))
                    .collect();
                prop_assume!(!top.is_empty() && !changes.raise.is_empty());
                let t = top[pick % top.len()];
                prop_assume!(!changes.raise.contains(&t));
                bad.raise[0] = t;
                Error::CharacteristicAboveVeryHigh { characteristic: t }
            }
            // Lowering a Very Low characteristic (the ladder, SB-A12).
            _ => {
                let bottom: Vec<C> = SPECIES_TRAITS
                    .into_iter()
                    .filter(|&t| level(&base, t) == Level::VeryLow && !changes.raise.contains(&t))
                    .collect();
                prop_assume!(!bottom.is_empty() && changes.lower.len() == 1);
                bad.lower[0] = bottom[pick % bottom.len()];
                Error::CharacteristicBelowVeryLow { characteristic: bad.lower[0] }
            }
        };
        prop_assert_eq!(player(sp, &bad), Err(expected));
    }
}

// ------------------------------------------------------------------------ skills

fn all_names() -> Vec<SkillName> {
    let mut v: Vec<SkillName> = Skill::ALL
        .into_iter()
        .filter(|s| !s.is_category())
        .map(SkillName::Listed)
        .collect();
    for (cat, spec) in [
        (Skill::Weapon, "sword"),
        (Skill::Lore, "history"),
        (Skill::Craft, "sewing"),
        (Skill::FineArt, "music"),
    ] {
        v.push(SkillName::specialty(cat, spec).unwrap());
    }
    v.push(SkillName::custom(
        "deep-sea diving gear",
        Rating::Rated(Level::VeryLow),
    ));
    v.push(SkillName::custom("Squirting", Rating::NoRating));
    v
}

#[test]
fn each_skill_error_names_its_rule() {
    let c = Species::Parrot.characteristics();
    let s = |sk: Skill| SkillName::Listed(sk);
    let r = |sk: Skill, n: u8| SkillRaise::new(s(sk), n);
    let e = raise_skills(
        &c,
        &[r(Skill::Weapon, 2), r(Skill::Boating, 2)],
        CreatedBy::Player,
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::SpecialtyRequired {
            skill: Skill::Weapon
        }
    );
    let e = raise_skills(&c, &[r(Skill::Boating, 0)], CreatedBy::Player).unwrap_err();
    assert!(matches!(e, Error::SkillRaisedZeroLevels { .. }));
    let e = raise_skills(
        &c,
        &[r(Skill::Boating, 2), r(Skill::Boating, 2)],
        CreatedBy::Player,
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::SkillListedTwice {
            skill: "Boating".into()
        }
    );
    let e = raise_skills(&c, &[r(Skill::Boating, 4)], CreatedBy::Player).unwrap_err();
    assert_eq!(
        e,
        Error::SkillRaisedFourLevels {
            skill: "Boating".into(),
            levels: 4
        }
    );
    assert!(e.to_string().contains("L299"));
    let e = raise_skills(
        &c,
        &[r(Skill::Boating, 2), r(Skill::Farming, 1)],
        CreatedBy::Player,
    )
    .unwrap_err();
    assert_eq!(e, Error::SkillPackage { levels: vec![2, 1] });
    // A parrot's Climbing starts at its Very High Fitness: +2 passes Awesome.
    let e = raise_skills(
        &c,
        &[r(Skill::Climbing, 2), r(Skill::Boating, 2)],
        CreatedBy::Player,
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::SkillAboveAwesome {
            skill: "Climbing".into()
        }
    );
    // +1 reaches Awesome: no cap below the ladder's top (SB-A13).
    let ok = raise_skills(
        &c,
        &[r(Skill::Climbing, 1), r(Skill::Boating, 3)],
        CreatedBy::Player,
    )
    .unwrap();
    assert_eq!(
        ok.rating(&s(Skill::Climbing), &c),
        Rating::Rated(Level::Awesome)
    );
    // The Director may raise a skill by four (L299–300).
    let d = raise_skills(&c, &[r(Skill::Boating, 4)], CreatedBy::Director).unwrap();
    assert_eq!(
        d.rating(&s(Skill::Boating), &c),
        Rating::Rated(Level::VeryHigh)
    );
    // No raise at all is allowed ("may", L289).
    assert!(raise_skills(&c, &[], CreatedBy::Player).is_ok());
    // Tracking starts at the best sense (L274).
    assert_eq!(s(Skill::Tracking).start(&c), Rating::Rated(Level::Average));
    assert_eq!(
        SkillName::Listed(Skill::Tracking).start(&Species::Eagle.characteristics()),
        Rating::Rated(Level::VeryHigh)
    );
    // Character::create runs both checks, the characteristic first.
    assert!(matches!(
        Character::create(
            Species::Parrot,
            &CharacteristicChanges::raise(C::Fitness),
            &[]
        ),
        Err(Error::CharacteristicAboveVeryHigh { .. })
    ));
}

/// Found in this audit: a specialty written two ways ("sword", "Sword") was two skills, and a
/// Director's skill could carry a listed skill's name, so one skill could be raised twice
/// and by four levels in all. L280–281: "Specialties within each category must be mastered
/// separately" (one rating each); L299: "Characters cannot raise one skill by four levels";
/// L308: the Director's skills are ones "not in the master list". Before the fix both builds
/// below were accepted, with two ratings for the same skill.
#[test]
fn one_skill_under_two_names_is_one_skill() {
    let c = Species::Fox.characteristics();
    let sword = |s: &str| SkillName::specialty(Skill::Weapon, s).unwrap();
    let e = raise_skills(
        &c,
        &[
            SkillRaise::new(sword("sword"), 3),
            SkillRaise::new(sword(" Sword"), 1),
        ],
        CreatedBy::Player,
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::SkillListedTwice {
            skill: "Weapon:  Sword".into()
        }
    );
    assert_eq!(sword("deep-sea diving"), sword("Deep Sea Diving"));
    // Raised once, the specialty has one rating however it is written.
    let skills = raise_skills(
        &c,
        &[
            SkillRaise::new(sword("sword"), 3),
            SkillRaise::new(sword("bow"), 1),
        ],
        CreatedBy::Player,
    )
    .unwrap();
    assert_eq!(
        skills.rating(&sword("SWORD"), &c),
        Rating::Rated(Level::Awesome)
    );
    assert_eq!(skills.iter().count(), 2);
    // A Director's skill named as a listed one is refused (L308).
    let climbing = SkillName::custom("climbing", Rating::NoRating);
    let e = raise_skills(
        &c,
        &[
            SkillRaise::new(climbing, 3),
            SkillRaise::new(SkillName::listed(Skill::Climbing).unwrap(), 1),
        ],
        CreatedBy::Director,
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::CustomSkillListed {
            name: "climbing".into(),
            skill: Skill::Climbing
        }
    );
    assert_eq!(e.rule(), Some("SB-R10"));
    assert!(e.to_string().contains("L308"));
    // A Director's skill is one skill whatever start it is given.
    assert_eq!(
        SkillName::custom("Fishing", Rating::NoRating),
        SkillName::custom("fishing", Rating::Rated(Level::Low))
    );
    // A specialty needs a name (L283–286).
    assert_eq!(
        raise_skills(&c, &[SkillRaise::new(sword("  "), 1)], CreatedBy::Director),
        Err(Error::SpecialtyRequired {
            skill: Skill::Weapon
        })
    );
}

/// A legal player package: (species, raises).
fn legal_package() -> impl Strategy<Value = (Species, Vec<SkillRaise>)> {
    let names = all_names();
    (
        species(),
        prop::sample::select(SkillPackage::ALL.to_vec()),
        Just(names.clone()).prop_shuffle(),
    )
        .prop_filter_map("a raise would pass Awesome", |(sp, package, names)| {
            let c = sp.characteristics();
            let raises: Vec<SkillRaise> = package
                .levels()
                .iter()
                .zip(names)
                .map(|(&n, name)| SkillRaise::new(name, n))
                .collect();
            raises
                .iter()
                .all(|r| r.skill.start(&c).raised(r.levels).is_some())
                .then_some((sp, raises))
        })
}

proptest! {
    #![proptest_config(config())]

    /// Every set of raises the player validator accepts is a package of distinct skills, no
    /// skill raised by four, each rating its start raised (None → Low first), and every
    /// rejection names a rule the raises really break.
    #[test]
    fn accepted_skill_raises_obey_the_rules(
        sp in species(),
        picks in prop::collection::vec((0..all_names().len(), 0u8..6), 0..5),
    ) {
        let c = sp.characteristics();
        let names = all_names();
        let raises: Vec<SkillRaise> =
            picks.iter().map(|&(i, n)| SkillRaise::new(names[i].clone(), n)).collect();
        let levels: Vec<u8> = raises.iter().map(|r| r.levels).collect();
        match raise_skills(&c, &raises, CreatedBy::Player) {
            Ok(skills) => {
                prop_assert!(levels.is_empty() || SkillPackage::matching(&levels).is_some());
                for (i, r) in raises.iter().enumerate() {
                    prop_assert!(raises[..i].iter().all(|o| o.skill != r.skill));
                    prop_assert!((1..4).contains(&r.levels));
                    let start = r.skill.start(&c);
                    let got = skills.rating(&r.skill, &c);
                    let want = match start {
                        Rating::NoRating => Level::Low.raised(r.levels - 1),
                        Rating::Rated(l) => l.raised(r.levels),
                    };
                    prop_assert_eq!(Some(got), want.map(Rating::Rated));
                }
            }
            Err(Error::SkillRaisedZeroLevels { .. }) => prop_assert!(levels.contains(&0)),
            Err(Error::SkillListedTwice { skill }) => {
                prop_assert!(raises.iter().filter(|r| r.skill.to_string() == skill).count() >= 2);
            }
            Err(Error::SkillRaisedFourLevels { levels: n, .. }) => prop_assert!(n >= 4),
            Err(Error::SkillPackage { .. }) => {
                prop_assert!(SkillPackage::matching(&levels).is_none());
            }
            Err(Error::SkillAboveAwesome { skill }) => {
                let r = raises.iter().find(|r| r.skill.to_string() == skill).unwrap();
                prop_assert!(r.skill.start(&c).raised(r.levels).is_none());
            }
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }

    /// Legal packages are accepted.
    #[test]
    fn legal_skill_packages_are_accepted((sp, raises) in legal_package()) {
        prop_assert!(raise_skills(&sp.characteristics(), &raises, CreatedBy::Player).is_ok());
    }

    /// Each single-rule violation of a legal package is rejected with that rule's error.
    #[test]
    fn single_skill_violations_are_named(
        (sp, raises) in legal_package(),
        which in 0..6usize,
        pick in 0..8usize,
    ) {
        let c = sp.characteristics();
        let mut bad = raises.clone();
        let k = pick % bad.len();
        let expected = match which {
            // A category without a specialty (L280–286).
            0 => {
                bad[k].skill = SkillName::Listed(Skill::Lore);
                prop_assume!(bad.iter().filter(|r| r.skill == SkillName::Listed(Skill::Lore)).count() == 1);
                Error::SpecialtyRequired { skill: Skill::Lore }
            }
            // A raise of zero levels.
            1 => {
                let unused = all_names().into_iter().find(|n| raises.iter().all(|r| &r.skill != n)).unwrap();
                bad.push(SkillRaise::new(unused.clone(), 0));
                Error::SkillRaisedZeroLevels { skill: unused.to_string() }
            }
            // The same skill twice (L291–294: different skills).
            2 => {
                let j = (k + 1) % bad.len();
                bad[j].skill = bad[k].skill.clone();
                Error::SkillListedTwice { skill: bad[k.max(j)].skill.to_string() }
            }
            // Four levels on one skill (L299).
            3 => {
                prop_assume!(bad[k].skill.start(&c).raised(4).is_some());
                bad[k].levels = 4;
                Error::SkillRaisedFourLevels { skill: bad[k].skill.to_string(), levels: 4 }
            }
            // Not a package (L291–294): one raise dropped.
            4 => {
                bad.remove(k);
                let mut levels: Vec<u8> = bad.iter().map(|r| r.levels).collect();
                levels.sort_unstable_by(|a, b| b.cmp(a));
                Error::SkillPackage { levels }
            }
            // Beyond Awesome: the largest raise moved onto a skill that starts Very High.
            _ => {
                let (top, _) = SPECIES_TRAITS
                    .iter()
                    .map(|&t| (t, level(&c, t)))
                    .max_by_key(|&(_, l)| l)
                    .unwrap();
                let skill = match top {
                    C::Fitness => SkillName::Listed(Skill::Climbing),
                    C::Dexterity => SkillName::Listed(Skill::Escapology),
                    C::Intellect => SkillName::Listed(Skill::Charisma),
                    _ => SkillName::Listed(Skill::Tracking),
                };
                prop_assume!(skill.start(&c) == Rating::Rated(Level::VeryHigh));
                prop_assume!(raises.iter().all(|r| r.skill != skill));
                bad[0].skill = skill.clone();
                prop_assume!(bad[0].levels >= 2);
                Error::SkillAboveAwesome { skill: skill.to_string() }
            }
        };
        prop_assert_eq!(raise_skills(&c, &bad, CreatedBy::Player).map(|_| ()), Err(expected));
    }
}
