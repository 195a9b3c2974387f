//! proptest invariants: counts within bounds, laws summing to 1, the ledger never
//! overspending, turn orders being permutations.

use dice_core::{Exact, Roll};
use dice_robots_and_rapiers::{
    Breadth, ChainedTest, ConflictKind, DamageProcedure, Ledger, Opposition, Ranking, Rules,
    SaveOutcome, SavingThrow, Test, TurnOrder, spread_multiple,
};
use proptest::prelude::*;
use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};

proptest! {
    #[test]
    fn test_net_within_bounds(dice in 0u32..30, tn in -3i32..14, odice in 0u32..30, otn in -3i32..14,
                              difficulty in 0u32..5, seed: u64) {
        let t = Test::new(dice, tn).unwrap().with_difficulty(difficulty).unwrap()
            .opposed_by(Opposition::new(odice, otn).unwrap());
        let net = t.roll(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        prop_assert!(net <= i64::from(dice) - i64::from(difficulty));
        prop_assert!(net >= -i64::from(odice) - i64::from(difficulty));
        let d = t.distribution().unwrap();
        prop_assert!((d.total() - 1.0).abs() < 1e-9);
        let mean = f64::from(dice) * f64::from(tn.clamp(0, 10)) / 10.0
            - f64::from(odice) * f64::from(otn.clamp(0, 10)) / 10.0 - f64::from(difficulty);
        prop_assert!((d.mean() - mean).abs() < 1e-9);
    }

    #[test]
    fn higher_tn_never_hurts(dice in 1u32..12, tn in 0i32..10) {
        let lo = Test::new(dice, tn).unwrap().distribution().unwrap();
        let hi = Test::new(dice, tn + 1).unwrap().distribution().unwrap();
        for k in 0..=i64::from(dice) {
            prop_assert!(hi.survival(&k) + 1e-12 >= lo.survival(&k));
        }
    }

    #[test]
    fn save_laws_are_proper(tn in -20i32..20) {
        let s = SavingThrow::new(tn).unwrap();
        let d = s.distribution().unwrap();
        prop_assert!((d.total() - 1.0).abs() < 1e-12);
        if tn <= 0 { prop_assert_eq!(d.probability(&SaveOutcome::TotalFailure), 1.0); }
        if tn >= 10 { prop_assert_eq!(d.probability(&SaveOutcome::TotalSuccess), 1.0); }
        let loss = s.expected_loss(&Rules::default()).unwrap();
        prop_assert!((0.0..=6.0).contains(&loss));
    }

    #[test]
    fn ledger_never_overspends(total in 0u32..20, spends in proptest::collection::vec((0u8..6, 0u32..6), 0..10)) {
        let mut l = Ledger::new(total);
        let _ = l.accomplish(1);
        for (kind, n) in spends {
            let before = l.left();
            let r = match kind {
                0 => l.roll_over(n).map(|_| ()),
                1 => l.bonus(n, Breadth::Persistent).map(|_| ()),
                2 => l.lower_save_tn(n, Breadth::Multiple).map(|_| ()),
                3 => l.restore(n).map(|_| ()),
                4 => l.regain_action_points(n).map(|_| ()),
                _ => l.special_effect(n),
            };
            match r {
                Ok(()) => prop_assert_eq!(l.left() + n, before),
                Err(_) => prop_assert_eq!(l.left(), before),
            }
        }
        let spent: u32 = l.spends().iter().map(|s| s.cost()).sum();
        prop_assert_eq!(spent + l.left(), total);
    }

    #[test]
    fn multiple_spread_averages_out(successes in 0u32..40, recipients in 1u32..12) {
        let v = spread_multiple(successes, Breadth::Multiple, recipients);
        prop_assert_eq!(v.len() as u32, recipients);
        let max = *v.iter().max().unwrap();
        let min = *v.iter().min().unwrap();
        prop_assert!(max - min <= 1);
        prop_assert!(min >= Breadth::Multiple.bonus(successes));
    }

    #[test]
    fn turn_order_is_a_permutation(ranks in proptest::collection::vec((0i32..9, 0i32..9, 0u32..4), 0..12), seed: u64) {
        let r: Vec<Ranking> = ranks.iter().map(|&(p, l, i)| Ranking::new(p, l, i)).collect();
        let o = TurnOrder::roll_initial(&r, ConflictKind::Combat, &Rules::default(), &mut Xoshiro256PlusPlus::seed_from_u64(seed)).unwrap();
        let mut seen = o.as_slice().to_vec();
        seen.sort_unstable();
        prop_assert_eq!(seen, (0..r.len()).collect::<Vec<_>>());
        for w in o.as_slice().windows(2) {
            prop_assert!(!r[w[1]].beats(&r[w[0]]));
        }
    }

    #[test]
    fn chain_remaining_is_bounded(counts in proptest::collection::vec(0u32..10, 0..6)) {
        let rem = ChainedTest::remaining(&counts);
        prop_assert!(rem <= counts.first().copied().unwrap_or(0));
    }

    #[test]
    fn damage_tn_decreases_with_successes(d in 1i32..9, s in 0u32..10, armor in 0i32..6) {
        let rules = Rules::default();
        let a = DamageProcedure { armor_bonus: armor, ..DamageProcedure::new(d, s) };
        let b = DamageProcedure { armor_bonus: armor, ..DamageProcedure::new(d, s + 1) };
        prop_assert_eq!(a.tn(&rules) - 1, b.tn(&rules));
    }
}
