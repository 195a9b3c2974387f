//! A run's memory is bounded whatever the mechanic: a histogram holds at most
//! `MAX_DISTINCT` outcomes (issue 15: `1d1000*1d1000*1d1000` over 2·10⁷ trials took 2.3 GB).

use dice_core::{Rng, Roll};
use dice_sim::{Histogram, MAX_DISTINCT, Simulation};

/// A mechanic with about 2⁶⁰ equally likely outcomes, so every trial is a new one.
struct Wide;

impl Roll for Wide {
    type Outcome = u64;
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        rng.next_u64() >> 4
    }
}

#[test]
fn a_histogram_saturates_instead_of_growing_past_its_bound() {
    let mut h = Histogram::new();
    for v in 0..MAX_DISTINCT as u64 {
        h.add(v);
    }
    assert!(!h.is_saturated());
    assert_eq!(h.len(), MAX_DISTINCT);
    h.add(u64::MAX);
    assert!(h.is_saturated());
    assert_eq!(h.len(), 0);
    assert_eq!(h.count(&0), 0);
    h.add(7);
    assert_eq!(h.trials(), MAX_DISTINCT as u64 + 2);
    // Merging a saturated histogram saturates the other one, in either order.
    let mut small = Histogram::new();
    small.add(3u64);
    small.merge(&h);
    assert!(small.is_saturated());
    assert_eq!(small.trials(), h.trials() + 1);
}

#[test]
fn runs_with_too_many_outcomes_saturate_alike_on_any_number_of_threads() {
    // One chunk more than the bound holds: every trial is a new outcome, so the run passes
    // the bound in its last chunk, on one thread or two.
    let trials = MAX_DISTINCT as u64 + (1 << 18);
    let sim = Simulation::new(5, trials)
        .unwrap()
        .chunk_size(1 << 18)
        .unwrap();
    let one = sim.clone().threads(1).unwrap().run(&Wide);
    let two = sim.threads(2).unwrap().run(&Wide);
    for e in [&one, &two] {
        assert!(e.histogram().is_saturated());
        assert_eq!(e.trials(), trials);
        assert!(e.estimates().is_empty());
    }
    assert_eq!(one.histogram(), two.histogram());
}
