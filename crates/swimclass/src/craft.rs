//! Crafting (L157–L161; SW-R35, SW-A8).

use crate::error::Error;
use crate::rules::Rules;
use crate::task::Task;

/// The difficulty of general crafting (L157).
pub const CRAFT_DIFFICULTY: i32 = 4;

/// General Craft rank that specialized crafting requires (L161).
pub const SPECIALIZED_PREREQUISITE: u32 = 2;

/// A limited-use item's chance of falling apart after each use (L161).
pub const FALL_APART: f64 = 1.0 / 6.0;

/// A limited-use item's share of the cost (L161).
pub const LIMITED_USE_COST: f64 = 1.0 / 5.0;

/// What crafting an implement takes (L157).
///
/// ```
/// let r = dice_swimclass::craft::requirements(8, &Default::default());
/// assert_eq!((r.materials, r.successes), (4.0, 2)); // SW-A8's oracle
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Requirements {
    /// Materials cost, `rank^(2/3)` (unit unstated).
    pub materials: f64,
    /// Successes required at difficulty 4, `rank^(2/6)` rounded by
    /// [`Rules::craft_rounding`].
    pub successes: u32,
}

/// The integer cube root when `r` is a perfect cube.
fn exact_cbrt(r: u32) -> Option<u32> {
    let c = f64::from(r).cbrt().round() as u32;
    (c.checked_mul(c).and_then(|x| x.checked_mul(c)) == Some(r)).then_some(c)
}

/// The requirements for an implement of rank `implement_rank` (its value, SW-R22; SW-A8):
/// `cbrt(r)²` materials and `cbrt(r)` successes, computed from the cube root so that perfect
/// cubes are exact (`8^(2/3)` is 4, not 3.9999999999999996).
///
/// ```
/// use dice_swimclass::craft::requirements;
/// let r = requirements(27, &Default::default());
/// assert_eq!((r.materials, r.successes), (9.0, 3));
/// assert_eq!(requirements(1, &Default::default()).successes, 1);
/// assert_eq!(requirements(9, &Default::default()).successes, 3); // cbrt 9 ≈ 2.08, up
/// ```
pub fn requirements(implement_rank: u32, rules: &Rules) -> Requirements {
    match exact_cbrt(implement_rank) {
        Some(c) => Requirements {
            materials: f64::from(c * c),
            successes: c,
        },
        None => {
            let c = f64::from(implement_rank).cbrt();
            Requirements {
                materials: c * c,
                successes: rules.craft_rounding.round(c),
            }
        }
    }
}

/// The crafting difficulty: 4, one less when specialized in the material, one less for a
/// limited-use item (L157, L161). Whether the two reductions stack is silent: they do here
/// (library choice).
///
/// # Errors
/// [`Error::SpecializedCraft`] for specialized crafting below general Craft 2 (L161).
///
/// ```
/// use dice_swimclass::craft::difficulty;
/// assert_eq!(difficulty(false, false, 1)?, 4);
/// assert_eq!(difficulty(true, true, 2)?, 2);
/// assert!(difficulty(true, false, 1).is_err());
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn difficulty(specialized: bool, limited_use: bool, general_rank: u32) -> Result<i32, Error> {
    if specialized && general_rank < SPECIALIZED_PREREQUISITE {
        return Err(Error::SpecializedCraft { rank: general_rank });
    }
    Ok(CRAFT_DIFFICULTY - i32::from(specialized) - i32::from(limited_use))
}

/// The crafting task: the required successes as progress over rounds at the crafting
/// difficulty (L157; SW-R5).
///
/// # Errors
/// As [`difficulty`]; [`Error::OutOfRange`] for an implement too large.
///
/// ```
/// let t = dice_swimclass::craft::task(8, false, false, 1, &Default::default())?;
/// assert_eq!((t.difficulty, t.progress), (4, 2));
/// # Ok::<(), dice_swimclass::Error>(())
/// ```
pub fn task(
    implement_rank: u32,
    specialized: bool,
    limited_use: bool,
    general_rank: u32,
    rules: &Rules,
) -> Result<Task, Error> {
    let d = difficulty(specialized, limited_use, general_rank)?;
    Task::over_rounds(d, requirements(implement_rank, rules).successes.max(1))
}

/// The chance a limited-use item survives `uses` uses (1/6 to fall apart after each, L161).
///
/// ```
/// let p = dice_swimclass::craft::survives(2);
/// assert!((p - 25.0 / 36.0).abs() < 1e-15);
/// ```
pub fn survives(uses: u32) -> f64 {
    (1.0 - FALL_APART).powi(uses.min(i32::MAX as u32) as i32)
}
