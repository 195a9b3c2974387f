//! Outcomes, rules and plain inputs round-trip through serde (with the `serde` feature).
#![cfg(feature = "serde")]

use dice_testkit::round_trip;

use dice_shapers_percentile::{
    AttackOutcome, Attributes, CounterAttackBasis, Exchange, Location, MeleeSituation,
    OpposedResult, Order, Outnumbering, RangeBand, RangedSituation, Rules, Side, TestResult,
};

#[test]
fn everything_round_trips() {
    let rules = Rules {
        lethal: true,
        counter_attack: CounterAttackBasis::OwnFailure,
        ..Rules::default()
    };
    round_trip(&rules);
    round_trip(&TestResult {
        margin: -15,
        roll: 80,
    });
    round_trip(&OpposedResult {
        net: 30,
        winner: Side::Attacker,
    });
    round_trip(&AttackOutcome::CounterAttack { bonus: 4 });
    round_trip(&Exchange {
        outcome: AttackOutcome::Hit { bonus: 1 },
        net: 12,
        attacker: TestResult {
            margin: 20,
            roll: 45,
        },
        defender: Some(TestResult {
            margin: 8,
            roll: 57,
        }),
    });
    round_trip(&Location::RightLeg);
    round_trip(&Order(vec![2, 0, 1]));
    round_trip(&Attributes::default());
    round_trip(&MeleeSituation {
        charging: true,
        outnumbering: Some(Outnumbering::new(3, 1).unwrap()),
        ..MeleeSituation::default()
    });
    round_trip(&RangedSituation::new(RangeBand::Long));
    // Rules written by hand may leave fields out: they take the rulings.
    let partial: Rules = serde_json::from_str(r#"{"lethal": true}"#).unwrap();
    assert_eq!(
        partial,
        Rules {
            lethal: true,
            ..Rules::default()
        }
    );
    // Deserialising validates.
    assert!(serde_json::from_str::<Outnumbering>(r#"{"side": 0, "opponents": 2}"#).is_err());
    assert_eq!(
        serde_json::to_string(&AttackOutcome::Miss).unwrap(),
        r#""miss""#
    );
}
