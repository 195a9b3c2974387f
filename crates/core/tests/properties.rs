//! Property tests (proptest) for the invariants of every dice-core primitive.

use dice_core::{
    BlockRule, Blocking, Comparison, Die, Explode, FaceSet, Keep, Pool, Roll, RollDetailed, Streak,
    SuccessPool, Sum, block,
};
use proptest::prelude::*;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

fn comparison() -> impl Strategy<Value = Comparison> {
    prop_oneof![
        (-2i32..25).prop_map(Comparison::AtLeast),
        (-2i32..25).prop_map(Comparison::AtMost),
        (-2i32..25).prop_map(Comparison::Above),
        (-2i32..25).prop_map(Comparison::Below),
        (-2i32..25).prop_map(Comparison::Exactly),
        proptest::collection::vec(1u32..=24, 0..6)
            .prop_map(|v| Comparison::OneOf(FaceSet::new(v).unwrap())),
    ]
}

/// The largest number of attack dice some injective assignment of defenders can block,
/// by trying every assignment (exponential; small pools only).
fn brute_force_blocked(attack: &[i64], defense: &[i64], rule: BlockRule) -> u32 {
    fn go(i: usize, used: u32, attack: &[i64], defense: &[i64], rule: BlockRule) -> u32 {
        if i == attack.len() {
            return 0;
        }
        let mut best = go(i + 1, used, attack, defense, rule); // leave attack die i unblocked
        for (j, &d) in defense.iter().enumerate() {
            if used & (1 << j) == 0 && rule.blocks(d, attack[i]) {
                best = best.max(1 + go(i + 1, used | (1 << j), attack, defense, rule));
            }
        }
        best
    }
    go(0, 0, attack, defense, rule)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn counts_stay_within_the_pool(
        n in 0u32..200, sides in 2u32..=30, success in comparison(), critical in comparison(),
        seed in any::<u64>(),
    ) {
        let pool = Pool::new(n, Die::new(sides).unwrap()).unwrap();
        let p = SuccessPool::with_critical(pool, success, critical);
        let mut r = rng(seed);
        prop_assert!(p.count(&mut r) <= n);
        let t = p.tally(&mut r);
        prop_assert!(t.successes <= n && t.criticals <= n);
    }

    #[test]
    fn count_tally_and_record_agree_on_the_same_seed(
        n in 0u32..80, sides in 2u32..=30, success in comparison(), critical in comparison(),
        seed in any::<u64>(),
    ) {
        let pool = Pool::new(n, Die::new(sides).unwrap()).unwrap();
        let p = SuccessPool::with_critical(pool, success, critical);
        let count = p.count(&mut rng(seed));
        let tally = p.tally(&mut rng(seed));
        let rec = p.roll_record(&mut rng(seed));
        prop_assert_eq!(count, tally.successes);
        prop_assert_eq!(count, rec.successes);
        prop_assert_eq!(tally.criticals, rec.criticals);
        // And the record's flags are the comparisons applied to the faces.
        for d in &rec.dice {
            prop_assert_eq!(d.flags.success, success.test(d.value));
            prop_assert_eq!(d.flags.critical, critical.test(i64::from(d.natural)));
            prop_assert!((1..=sides).contains(&d.natural));
        }
    }

    #[test]
    fn exploding_counts_agree_with_the_record(
        n in 0u32..30, sides in 2u32..=12, on in 1i32..=12, compound in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let test = Comparison::AtLeast(on.max(2));
        let e = if compound { Explode::compounding(test) } else { Explode::new(test) };
        let pool = Pool::new(n, Die::new(sides).unwrap()).unwrap().exploding(e).unwrap();
        let p = SuccessPool::new(pool.clone(), Comparison::AtLeast(4));
        let rec = p.roll_record(&mut rng(seed));
        prop_assert_eq!(p.count(&mut rng(seed)), rec.successes);
        let sum = Sum::new(pool, Keep::All, 0).unwrap();
        prop_assert_eq!(sum.roll(&mut rng(seed)), rec.total);
        prop_assert!(rec.dice.len() as u64 <= p.pool().max_rolled());
    }

    #[test]
    fn keep_and_drop_keep_exactly_k(
        n in 0u32..40, sides in 2u32..=20, seed in any::<u64>(), which in 0u32..1000,
        modifier in -50i64..50,
    ) {
        let k = if n == 0 { 0 } else { which % (n + 1) };
        for keep in [Keep::Highest(k), Keep::Lowest(k), Keep::DropHighest(k), Keep::DropLowest(k), Keep::All] {
            let sum = Sum::new(Pool::new(n, Die::new(sides).unwrap()).unwrap(), keep, modifier).unwrap();
            let rec = sum.roll_record(&mut rng(seed));
            let kept = rec.dice.iter().filter(|d| d.flags.kept).count() as u32;
            prop_assert_eq!(kept, keep.kept_of(n));
            prop_assert_eq!(rec.total, rec.kept_values().sum::<i64>() + modifier);
            // Every kept die is at least as high (low) as every dropped one.
            let top = matches!(keep, Keep::Highest(_) | Keep::DropLowest(_) | Keep::All);
            for a in rec.dice.iter().filter(|d| d.flags.kept) {
                for b in rec.dice.iter().filter(|d| !d.flags.kept) {
                    let ordered = if top { a.value >= b.value } else { a.value <= b.value };
                    prop_assert!(ordered);
                }
            }
            // The fast path gives the same total as the record for the same seed.
            prop_assert_eq!(sum.roll(&mut rng(seed)), rec.total);
        }
    }

    #[test]
    fn keep_path_on_a_large_pool_matches_the_record(
        n in 65u32..200, k in 0u32..65, seed in any::<u64>(),
    ) {
        let sum = Sum::new(Pool::new(n, Die::D6).unwrap(), Keep::Highest(k), 0).unwrap();
        prop_assert_eq!(sum.roll(&mut rng(seed)), sum.roll_record(&mut rng(seed)).total);
    }

    #[test]
    fn blocking_is_a_maximum_matching(
        attack in proptest::collection::vec(1i64..=8, 0..7),
        defense in proptest::collection::vec(1i64..=8, 0..7),
        strict in any::<bool>(),
    ) {
        let rule = if strict { BlockRule::Strict } else { BlockRule::AtLeast };
        let b = block(&attack, &defense, rule);
        let blocked = b.pairs.len() as u32;
        prop_assert!(blocked as usize <= attack.len().min(defense.len()));
        prop_assert_eq!(b.unblocked, attack.len() as u32 - blocked);
        prop_assert_eq!(blocked, brute_force_blocked(&attack, &defense, rule));
        // Every pair is a legal block, and no die is used twice.
        let mut used_a = vec![false; attack.len()];
        let mut used_d = vec![false; defense.len()];
        for &(a, d) in &b.pairs {
            prop_assert!(rule.blocks(defense[d], attack[a]));
            prop_assert!(!used_a[a] && !used_d[d]);
            used_a[a] = true;
            used_d[d] = true;
        }
    }

    #[test]
    fn blocking_roll_never_exceeds_its_hits(
        a in 0u32..10, d in 0u32..10, t in 1i32..7, seed in any::<u64>(), strict in any::<bool>(),
    ) {
        let rule = if strict { BlockRule::Strict } else { BlockRule::AtLeast };
        let fight = Blocking::new(
            SuccessPool::new(Pool::new(a, Die::D6).unwrap(), Comparison::AtLeast(t)),
            Pool::new(d, Die::D6).unwrap(),
            rule,
        );
        let hits = fight.roll(&mut rng(seed));
        let rec = fight.roll_record(&mut rng(seed));
        prop_assert_eq!(hits, rec.successes);
        let raw_hits = rec.dice[..a as usize].iter().filter(|x| x.value >= i64::from(t)).count() as u32;
        prop_assert!(hits <= raw_hits);
        prop_assert!(raw_hits - hits <= d.min(raw_hits));
    }

    #[test]
    fn same_seed_same_record(n in 0u32..30, sides in 2u32..=100, seed in any::<u64>()) {
        let sum = Sum::new(Pool::new(n, Die::new(sides).unwrap()).unwrap(), Keep::All, 0).unwrap();
        prop_assert_eq!(sum.roll_record(&mut rng(seed)), sum.roll_record(&mut rng(seed)));
    }

    #[test]
    fn streak_scores_are_base_plus_a_capped_length(
        sides in 2u32..=12, faces in proptest::collection::vec(1u32..=12, 0..12),
        base in -3i64..3, cap in 1u32..20, seed in any::<u64>(),
    ) {
        let set = FaceSet::new(faces).unwrap();
        let s = Streak::capped(Die::new(sides).unwrap(), set, base, cap).unwrap();
        let roll = s.roll_streak(&mut rng(seed));
        prop_assert!(roll.length <= cap);
        prop_assert_eq!(roll.score, base + i64::from(roll.length));
        prop_assert_eq!(roll.capped, roll.length == cap);
        let rec = s.roll_record(&mut rng(seed));
        prop_assert_eq!(rec.total, roll.score);
        let natural: Vec<u32> = rec.dice.iter().map(|d| d.natural).collect();
        prop_assert_eq!(s.score_faces(natural).0, roll.score);
    }
}
