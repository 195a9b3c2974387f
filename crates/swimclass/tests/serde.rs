//! Serialize/deserialize round trips (the `serde` feature).
#![cfg(feature = "serde")]

use dice_testkit::round_trip;

use dice_swimclass::{
    Bonus, BonusAssignment, Health, MagicWheel, OpposedRoll, Rules, School, Sheet, Skill,
    SkillDice, StabilizeRule, Task, TaskRoll,
};

#[test]
fn values_round_trip() {
    round_trip(&Rules {
        assignment: BonusAssignment::Optimal,
        stabilize: StabilizeRule::SuccessesAreDamage { difficulty: 4 },
        wheel: MagicWheel::new(School::ALL),
        max_rank: Some(10),
        ..Rules::default()
    });
    round_trip(&Sheet::new([Skill::Magic(School::Earth), Skill::Spot]).unwrap());
    round_trip(&Health::new(3));
    round_trip(&Task::over_rounds(4, 3).unwrap());
    let dice = SkillDice::new(3)
        .with_bonus(Bonus::Plus {
            dice: 1,
            modifier: 4,
        })
        .unwrap();
    round_trip(&dice);
    let t = TaskRoll::new(dice.clone(), Task::single(2).unwrap(), Rules::default()).unwrap();
    round_trip(&t.resolve(&[5, 4, 4]).unwrap());
    let o = OpposedRoll::new(dice, 2, Some(SkillDice::new(3)), Rules::default()).unwrap();
    round_trip(&o.resolve(&[5, 4, 4], &[2, 2, 2]).unwrap());
    let json = serde_json::to_string(&dice_swimclass::CATALOGUE[0]).unwrap();
    assert!(json.contains("Great Sword"));
}
