//! Round trips of outcomes, records and rules through JSON under the `serde` feature.
#![cfg(feature = "serde")]

use dice_robots_and_rapiers::{
    ConflictKind, DurabilityRoll, DurabilitySave, Firearm, Ledger, Rules, SaveOutcome, SavingThrow,
    Test, TestRoll, TurnOrder,
};

#[test]
fn round_trips() {
    let rules = Rules::default();
    let json = serde_json::to_string(&rules).unwrap();
    assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);

    let r = Test::new(3, 5).unwrap().resolve(&[1, 6, 4]).unwrap();
    let back: TestRoll = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);

    let save = SavingThrow::new(4).unwrap().resolve([1, 9, 9]).unwrap();
    let json = serde_json::to_string(&save.outcome).unwrap();
    assert_eq!(
        serde_json::from_str::<SaveOutcome>(&json).unwrap(),
        save.outcome
    );

    let mut l = Ledger::new(3);
    l.accomplish(1).unwrap();
    l.roll_over(2).unwrap();
    let back: Ledger = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
    assert_eq!(back, l);

    let o = TurnOrder::from_list(vec![2, 0, 1]);
    let back: TurnOrder = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
    assert_eq!(back, o);

    let d = DurabilitySave::new(2, Firearm::Pistol.damage_kind(), &rules)
        .unwrap()
        .roll_save(&mut <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(3));
    let back: DurabilityRoll = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back, d);

    let k = ConflictKind::Social;
    let back: ConflictKind = serde_json::from_str(&serde_json::to_string(&k).unwrap()).unwrap();
    assert_eq!(back, k);
}
