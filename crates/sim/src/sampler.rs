//! Sampling a known law with one draw: the alias method.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use dice_core::{Dist, Rng, Roll};

use crate::error::SimError;

/// Samples an exact distribution with one 64-bit draw per sample (Vose's alias method),
/// instead of rolling every die: for multi-step simulations whose steps have known laws.
///
/// The draw's high part picks a column (`⌊x·n / 2⁶⁴⌋`) and its low part, a uniform fraction,
/// decides between the column's outcome and its alias; the probabilities are reproduced to
/// within `n / 2⁶⁴` (about 10⁻¹⁷ for 100 outcomes).
///
/// ```
/// use dice_core::{Die, Exact, Keep, Pool, Roll, Sum};
/// use dice_sim::AliasSampler;
/// use rand::{SeedableRng, rngs::Xoshiro256PlusPlus};
///
/// let law = Sum::new(Pool::new(10, Die::D6)?, Keep::All, 0)?.distribution()?;
/// let fast = AliasSampler::new(&law)?;
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
/// let total = fast.roll(&mut rng);
/// assert!((10..=60).contains(&total));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct AliasSampler<O> {
    outcomes: Vec<O>,
    /// P(keep the column's own outcome), as a 64-bit threshold on the fraction.
    keep: Vec<u64>,
    alias: Vec<u32>,
}

/// The largest unlisted mass a law may have and still be sampled.
const MAX_UNLISTED: f64 = 1e-12;

impl<O: Clone + Ord> AliasSampler<O> {
    /// The sampler of `law`.
    ///
    /// # Errors
    /// [`SimError::Empty`] for a law with no outcome; [`SimError::Unlisted`] when the law
    /// leaves more than 10⁻¹² of its mass unlisted (ask for it with a smaller tolerance).
    pub fn new(law: &Dist<O>) -> Result<Self, SimError> {
        let n = law.len();
        if n == 0 {
            return Err(SimError::Empty);
        }
        if law.tail() > MAX_UNLISTED {
            return Err(SimError::Unlisted { tail: law.tail() });
        }
        let total: f64 = law.probabilities().iter().sum();
        let mut scaled: Vec<f64> = law
            .probabilities()
            .iter()
            .map(|p| p / total * n as f64)
            .collect();
        let mut keep = vec![u64::MAX; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| scaled[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            keep[s] = to_threshold(scaled[s]);
            alias[s] = l as u32;
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // Whatever is left is 1 up to rounding: keep it whole.
        for i in small.into_iter().chain(large) {
            keep[i] = u64::MAX;
        }
        Ok(AliasSampler {
            outcomes: law.outcomes().to_vec(),
            keep,
            alias,
        })
    }
}

/// `⌊p · 2⁶⁴⌋` for `0 ≤ p < 1`, the threshold a uniform 64-bit fraction is compared with.
fn to_threshold(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else {
        (p.max(0.0) * 18_446_744_073_709_551_616.0) as u64
    }
}

impl<O: Clone + Ord + Hash + Debug + Display> Roll for AliasSampler<O> {
    type Outcome = O;

    #[inline]
    fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> O {
        let m = u128::from(rng.next_u64()) * self.outcomes.len() as u128;
        let column = (m >> 64) as usize;
        let fraction = m as u64;
        let i = if fraction < self.keep[column] || self.keep[column] == u64::MAX {
            column
        } else {
            self.alias[column] as usize
        };
        self.outcomes[i].clone()
    }
}
