//! The order of modifiers (reroll, explode, clamp, keep, count), pinned down with faces given
//! in advance (the pure form `Expression::roll_faces`): the table of docs/notation.md, and
//! the value of every construct's example.

use dice_core::Versus;
use dice_notation::{Expression, FaceError, Outcome, RollResult};

fn roll(expr: &str, faces: &[i64]) -> RollResult {
    Expression::parse(expr)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .roll_faces(faces.iter().copied())
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// The one term's dice as printed, and the outcome.
fn dice_and_value(expr: &str, faces: &[i64]) -> (String, i64) {
    let r = roll(expr, faces);
    let dice: Vec<String> = r.terms[0].dice.iter().map(ToString::to_string).collect();
    (dice.join(", "), r.outcome.as_number().unwrap())
}

#[test]
fn keep_comes_after_explode() {
    // The added 4 competes with the other dice; keeping first would give 6 + 5, then the
    // explosion's 4 on top: 15.
    assert_eq!(
        dice_and_value("3d6!kh2", &[6, 4, 2, 5]),
        ("6!, (+4), (2), 5".into(), 11)
    );
}

#[test]
fn count_comes_after_keep() {
    // Counting first would find three dice of 5 or more.
    assert_eq!(
        dice_and_value("4d6kh2>=5", &[5, 5, 6, 1]),
        ("5*, (5), 6*, (1)".into(), 2)
    );
    // Dropped 1s are not failures.
    assert_eq!(
        dice_and_value("4d10kh2>=8f1", &[1, 1, 9, 2]),
        ("(1), (1), 9*, 2".into(), 1)
    );
}

#[test]
fn count_comes_after_explode() {
    assert_eq!(
        dice_and_value("2d6!6>=5", &[6, 5, 1]),
        ("6!*, +5*, 1".into(), 2)
    );
}

#[test]
fn reroll_comes_before_explode_and_applies_to_added_dice() {
    assert_eq!(dice_and_value("1d6r1!", &[1, 6, 3]), ("1r6!, +3".into(), 9));
    assert_eq!(
        dice_and_value("1d6r1!", &[6, 1, 4]),
        ("6!, +1r4".into(), 10)
    );
    // Until: as often as it takes; once: the second face stands.
    assert_eq!(
        dice_and_value("1d6r1", &[1, 1, 1, 2]),
        ("1r1r1r2".into(), 2)
    );
    assert_eq!(dice_and_value("1d6ro1", &[1, 1]), ("1r1".into(), 1));
    // Rerolled faces of a compounding die are kept with it.
    assert_eq!(
        dice_and_value("1d6r1!!", &[6, 1, 5]),
        ("1r6+5=11!".into(), 11)
    );
}

#[test]
fn explode_reads_the_face_before_the_clamp() {
    assert_eq!(dice_and_value("1d6max3!", &[6, 2]), ("6!→3, +2".into(), 5));
    // A compounding die is clamped as a whole.
    assert_eq!(
        dice_and_value("1d6!!max8", &[6, 6, 1]),
        ("6+7=13!→8".into(), 8)
    );
}

#[test]
fn count_reads_the_clamped_value() {
    assert_eq!(
        dice_and_value("2d6min5>=5", &[1, 2]),
        ("1→5*, 2→5*".into(), 2)
    );
}

#[test]
fn keep_reads_the_clamped_value_and_ties_keep_the_earlier_die() {
    // 6 and 5 both count as 4; the earlier of the tied dice is kept.
    assert_eq!(
        dice_and_value("3d6max4kh1", &[6, 5, 1]),
        ("6→4, (5→4), (1)".into(), 4)
    );
}

#[test]
fn caps_stop_explosions_and_streaks() {
    assert_eq!(
        dice_and_value("1d6!cap2", &[6, 6, 6]),
        ("6!, +6!, +6cap".into(), 18)
    );
    assert_eq!(
        dice_and_value("1d6!!cap1", &[6, 6]),
        ("6+6=12!cap".into(), 12)
    );
    assert_eq!(
        dice_and_value("streak(d6>=4cap2)", &[5, 6]),
        ("5!*, +6cap*".into(), 2)
    );
    assert_eq!(
        dice_and_value("streak(d6>=4)", &[5, 6, 2]),
        ("5!*, +6!*, +2".into(), 2)
    );
}

#[test]
fn successes_and_failures() {
    assert_eq!(
        dice_and_value("5d10>=8f1", &[10, 1, 8, 3, 1]),
        ("10*, 1f, 8*, 3, 1f".into(), 0)
    );
    // A die both a success and a failure counts 0.
    assert_eq!(dice_and_value("2d6>=1f1", &[1, 4]), ("1*f, 4*".into(), 1));
    assert_eq!(dice_and_value("8d6={5,6}", &[1, 2, 3, 4, 5, 6, 6, 5]).1, 4);
}

#[test]
fn every_construct_has_its_value() {
    for (expr, faces, value) in [
        ("3", &[][..], 3),
        ("2d6", &[3, 4], 7),
        ("d20", &[17], 17),
        ("d%", &[100], 100),
        ("4dF", &[-1, 0, 1, 1], 1),
        ("1d20 + 5 - 1", &[10], 14),
        ("3 * 1d6", &[4], 12),
        ("1d20 / 2", &[15], 7),
        ("(1d6 + 1) * 2", &[4], 10),
        ("-1d4", &[3], -3),
        ("-7/2", &[], -4),
        ("7/-2", &[], -4),
        ("-7/-2", &[], 3),
        ("10-2-3", &[], 5),
        ("12/2/3", &[], 2),
        ("1+2*3", &[], 7),
        ("max(1d20, 1d20)", &[4, 15], 15),
        ("min(1d6, 3)", &[5], 3),
        ("max(1, 1d4-2)", &[2], 1),
        ("4d6kh3", &[6, 3, 1, 4], 13),
        ("2d20kl1", &[15, 8], 8),
        ("4d6dl1", &[6, 3, 1, 4], 13),
        ("5d10dh2", &[10, 9, 1, 2, 3], 6),
        ("2d20kh", &[15, 8], 15),
        ("3d6!", &[6, 2, 3, 4], 15),
        ("5d10!>=9", &[9, 1, 2, 3, 4, 5], 24),
        ("6d6!5", &[5, 1, 2, 3, 4, 6, 6], 27),
        ("4d6!{5,6}", &[5, 1, 6, 2, 3, 4], 21),
        ("3d6!!", &[6, 6, 1, 2, 3], 18),
        (
            "10d10!cap3",
            &[10, 10, 10, 10, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            49,
        ),
        ("4d6r1", &[1, 2, 3, 4, 5], 14),
        ("4d6r<=2", &[1, 2, 3, 4, 5, 6], 18),
        ("1d20ro1", &[1, 1], 1),
        ("6d6>=5", &[1, 5, 6, 2, 3, 6], 3),
        ("10d10<=5", &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5),
        ("8d6=6", &[6, 6, 1, 1, 1, 1, 1, 6], 3),
        ("3d6>4", &[4, 5, 6], 2),
        ("3d6<3", &[1, 2, 3], 2),
        ("10d10>=8f1", &[1, 1, 8, 9, 10, 2, 3, 4, 5, 6], 1),
        ("10d10>=8f<=2", &[1, 2, 8, 9, 10, 2, 3, 4, 5, 6], 0),
        ("4d6min2", &[1, 1, 3, 4], 11),
        ("3d8max6", &[8, 7, 2], 14),
        ("streak(d6>=4)", &[4, 4, 6, 1], 3),
        ("1+streak(d6={5,6})", &[5, 4], 2),
        ("streak(d6>=4 cap10)", &[3], 0),
    ] {
        let r = roll(expr, faces);
        assert_eq!(r.outcome, Outcome::Number(value), "{expr}: {r}");
    }
}

#[test]
fn three_way_comparisons_compare_total_and_target() {
    let r = roll("2d6+2 vs 9", &[3, 4]);
    assert_eq!(r.outcome, Outcome::Versus(Versus::Equal));
    assert_eq!((r.total, r.target), (9, Some(9)));
    let r = roll("1d20+5 vs 1d20+3", &[10, 13]);
    assert_eq!(r.outcome, Outcome::Versus(Versus::Below));
    assert_eq!(
        r.to_string(),
        "1d20 [10] = 10; 1d20 [13] = 13 → 15 vs 16: below"
    );
    let r = roll("1d20+5 vs 15", &[11]);
    assert_eq!(r.outcome, Outcome::Versus(Versus::Above));
}

#[test]
fn the_record_prints_every_term() {
    let r = roll("4d6kh3 + 1d4 - 2", &[6, 3, 1, 4, 2]);
    assert_eq!(
        r.to_string(),
        "4d6kh3 [6, 3, (1), 4] = 13; 1d4 [2] = 2 → 13"
    );
    assert_eq!(r.terms[1].span.start, 9);
    assert_eq!(roll("3+4", &[]).to_string(), "7");
}

#[test]
fn faces_must_fit_the_dice() {
    let e = Expression::parse("1d6r1 + 1dF").unwrap();
    assert_eq!(
        e.roll_faces([1, 1]).unwrap_err(),
        FaceError::RanOut { used: 2 }
    );
    assert_eq!(
        e.roll_faces([2, 2]).unwrap_err(),
        FaceError::NotAFace {
            index: 1,
            face: 2,
            die: dice_notation::DieKind::Fudge
        }
    );
    assert_eq!(
        e.roll_faces([2, 0, 0]).unwrap_err(),
        FaceError::LeftOver { used: 2, given: 3 }
    );
    assert_eq!(e.roll_faces([2, 0]).unwrap().outcome, Outcome::Number(2));
    // A reroll-until that runs out of faces stops.
    assert!(e.roll_faces(std::iter::repeat_n(1, 50)).is_err());
}
