//! Helpers shared by the integration tests.

use std::collections::BTreeMap;

/// The exact law of `f(faces)` when one die of each of `sides` is rolled: every combination
/// of faces is enumerated and counted once (all combinations are equally likely), then the
/// integer counts are divided by their number.
pub fn enumerate<O: Ord>(sides: &[u32], mut f: impl FnMut(&[u32]) -> O) -> BTreeMap<O, f64> {
    let mut counts: BTreeMap<O, u64> = BTreeMap::new();
    let mut faces = vec![1u32; sides.len()];
    let mut combinations = 0u64;
    loop {
        *counts.entry(f(&faces)).or_insert(0) += 1;
        combinations += 1;
        // Odometer step: the first die that can go up does, the ones before it wrap to 1.
        let mut i = 0;
        loop {
            if i == faces.len() {
                let total = combinations as f64;
                return counts
                    .into_iter()
                    .map(|(o, c)| (o, c as f64 / total))
                    .collect();
            }
            if faces[i] < sides[i] {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}
