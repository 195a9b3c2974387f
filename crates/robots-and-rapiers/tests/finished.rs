//! Rules the coverage table (docs/robots-and-rapiers.md) marked partial and that are now
//! carried out, each checked against the rulebook line it quotes
//! (`seeds/robots-and-rapiers.txt`). Laws are enumerated here, never taken from the code
//! under test.

use crate::common;

use common::{as_map, enumerate, same};
use dice_core::Exact;
use dice_robots_and_rapiers::{
    Burst, Firearm, Outnumbering, RelatedPrograms, Rules, Test, social_ap_tn, social_ap_tn_among,
};

const EPS: f64 = 1e-12;

/// L2292: "a series of aiming Tests can augment each other daisy-chain fashion (serial)
/// with the last test augmenting the shot. Each successive Aiming Test has a cumulative +1
/// Difficulty." L2294: the Difficulty "can be avoided if the weapon is braced". Two aiming
/// Tests of 1 die at TN 5 (the second at Difficulty 1) roll over into a 1-die shot at TN 6.
#[test]
fn aiming_chains_in_series_with_a_cumulative_difficulty() {
    let aim = Test::new(1, 5).unwrap();
    let shot = Test::new(1, 6).unwrap();
    let chain =
        RelatedPrograms::aiming(vec![aim.clone(), aim.clone()], shot.clone(), false).unwrap();
    let ok = |x: u8, tn: u8| i64::from(x <= tn);
    // Faces: first aim 1 die; second aim 1 + its bonus (≤ 2); the shot 1 + its bonus (≤ 2).
    let law = enumerate(5, |f| {
        let first = ok(f[0], 5); // Difficulty 0
        let second_dice = 1 + first as usize;
        let second = (f[1..1 + second_dice].iter().map(|&x| ok(x, 5)).sum::<i64>() - 1).max(0);
        let shot_dice = 1 + second as usize;
        f[3..3 + shot_dice].iter().map(|&x| ok(x, 6)).sum::<i64>()
    });
    same(&as_map(&chain.distribution().unwrap()), &law, EPS);
    // Braced: no added Difficulty; the same as plain related programs.
    let braced =
        RelatedPrograms::aiming(vec![aim.clone(), aim.clone()], shot.clone(), true).unwrap();
    let plain = RelatedPrograms::new(vec![aim.clone(), aim], shot).unwrap();
    same(
        &as_map(&braced.distribution().unwrap()),
        &as_map(&plain.distribution().unwrap()),
        EPS,
    );
    // A Difficulty the aiming Test already has is kept and added to.
    let hard = Test::new(2, 5).unwrap().with_difficulty(2).unwrap();
    let c = RelatedPrograms::aiming(
        vec![hard.clone(), hard.clone(), hard],
        Test::new(1, 5).unwrap(),
        false,
    )
    .unwrap();
    let d: Vec<u32> = c.steps().iter().map(Test::difficulty).collect();
    assert_eq!(d, [2, 3, 4]);
}

/// L369: "The Fixed Target Number is determined by a comparison of Anthropoid Class to the
/// mean"; L370–372: 5 if equal, 6 if greater, 7 if 2x greater, 4 if less, 3 if 2x less (A12:
/// "2x" inclusive by default, strict as a knob). Every list of up to 3 classes 0–10 and every
/// class 0–10, the mean taken exactly (a ball's fractional average is not rounded).
#[test]
fn social_tn_against_the_exact_mean() {
    for outnumbering in [Outnumbering::Inclusive, Outnumbering::Strict] {
        let rules = Rules {
            outnumbering,
            ..Rules::default()
        };
        let mut lists: Vec<Vec<u32>> = vec![];
        for a in 0..=10 {
            lists.push(vec![a]);
            for b in 0..=10 {
                lists.push(vec![a, b]);
                for c in 0..=10 {
                    lists.push(vec![a, b, c]);
                }
            }
        }
        for list in &lists {
            let mean = list.iter().sum::<u32>() as f64 / list.len() as f64;
            for class in 0..=10u32 {
                let c = f64::from(class);
                let (twice, half) = match outnumbering {
                    Outnumbering::Inclusive => (c >= 2.0 * mean, 2.0 * c <= mean),
                    Outnumbering::Strict => (c > 2.0 * mean, 2.0 * c < mean),
                };
                let expected = if c == mean {
                    5
                } else if c > mean {
                    if twice { 7 } else { 6 }
                } else if half {
                    3
                } else {
                    4
                };
                assert_eq!(
                    social_ap_tn_among(class, list, &rules).unwrap(),
                    expected,
                    "class {class} among {list:?}, {outnumbering:?}"
                );
                // A whole mean agrees with the GM-set form.
                if mean.fract() == 0.0 {
                    assert_eq!(expected, social_ap_tn(class, mean as u32, &rules));
                }
            }
        }
    }
    assert!(social_ap_tn_among(5, &[], &Rules::default()).is_err());
}

/// L2416: "The weapon does its full damage if within 1/2 of this radius. The weapon does
/// reduced damage (as indicated by the number in parenthesis in this column) beyond this out
/// to its maximum radius"; "Small, Medium, and Large equate roughly to 10' / 20' / and 30'
/// radius"; the table (L2401–2404): Light Cannon +2, Small (0); Medium Cannon +3, Medium
/// (+1); Heavy Cannon +4, Large (+2); Grenade 0, Small (−2).
#[test]
fn burst_damage_by_distance() {
    for (gun, full, radius, reduced) in [
        (Firearm::LightCannon, 2, 10, 0),
        (Firearm::MediumCannon, 3, 20, 1),
        (Firearm::HeavyCannon, 4, 30, 2),
        (Firearm::Grenade, 0, 10, -2),
    ] {
        for d in 0..=40u32 {
            let expected = if 2 * d <= radius {
                Some(full)
            } else if d <= radius {
                Some(reduced)
            } else {
                None
            };
            assert_eq!(gun.burst_damage_at(d), expected, "{gun:?} at {d}'");
        }
        assert!(matches!(gun.burst(), Some((b, _)) if b.radius_feet() == radius));
    }
    assert_eq!(Burst::Large.radius_feet(), 30);
    for gun in [Firearm::Pistol, Firearm::Musket, Firearm::HeavyMusket] {
        assert_eq!(gun.burst_damage_at(0), None);
    }
}
