//! Serialize/deserialize round trips (the `serde` feature).
#![cfg(feature = "serde")]

use dice_testkit::round_trip;

use dice_scratch_rps::{
    Action, AttackResult, Character, Combatant, Environment, Fight, Outcome, Party, Rules,
    ShootingCrit, Turn, Water,
};

#[test]
fn values_round_trip() {
    let rules = Rules {
        shooting_crit: ShootingCrit::GeneralPlusOne,
        ..Rules::default()
    };
    round_trip(&rules);
    round_trip(&Environment {
        water: Water::Deep,
        ..Environment::default()
    });
    let c =
        Character::from_stat_block("2 shooting, 1 healing, 2 fighting, 1 acrobatics, 4 toughness")
            .unwrap();
    round_trip(&c);
    round_trip(&AttackResult {
        outcome: Outcome::AutomaticSuccess,
        damage: 5,
    });
    round_trip(&Party::new(vec![c], rules));
    let mut f = Fight::new(Environment::default(), rules);
    f.add(Combatant::new(c, 0)).unwrap();
    f.add(Combatant::new(c, 1)).unwrap();
    f.start(&[10, 5], &[]).unwrap();
    let report = f
        .take_turn(Turn::new(Action::Shoot { target: 1 }), &[12])
        .unwrap();
    round_trip(&f);
    round_trip(&report);
    assert_eq!(
        serde_json::to_string(&Outcome::AutomaticSuccess).unwrap(),
        "\"automatic_success\""
    );
}
