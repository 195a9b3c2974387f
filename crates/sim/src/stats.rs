//! The statistics behind the estimates: normal quantiles, Wilson intervals, chi-square tails.

/// The standard normal quantile: the `z` with `Φ(z) = p`, for `0 < p < 1`.
///
/// Acklam's rational approximation (relative error below 1.2e-9) followed by one Halley step
/// on the complementary error function, which brings it to about machine precision.
///
/// ```
/// let z = dice_sim::normal_quantile(0.975);
/// assert!((z - 1.959963984540054).abs() < 1e-12);
/// ```
#[allow(clippy::excessive_precision)] // Acklam's published coefficients, kept as printed.
pub fn normal_quantile(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.383577518672690e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let low = 0.02425;
    let x = if p < low {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - low {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    // One Halley step: e = Φ(x) − p.
    let e = 0.5 * erfc(-x / std::f64::consts::SQRT_2) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

/// The complementary error function, to about 1e-15 relative (continued fraction in the
/// tails, series near zero).
pub(crate) fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.0 {
        // erf by its Maclaurin series: 2/√π Σ (−1)ⁿ x^(2n+1) / (n! (2n+1)).
        let mut sum = 0.0;
        let mut term = x;
        for i in 0..200 {
            let n = f64::from(i);
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() <= 1e-17 * sum.abs() {
                break;
            }
            term *= -x * x / (n + 1.0);
        }
        1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum
    } else {
        // Lentz's continued fraction for erfc.
        let tiny = 1e-300;
        let mut f = x;
        let mut c = x;
        let mut d = 0.0;
        for i in 1..300 {
            let a = f64::from(i) / 2.0;
            d = x + a * d;
            d = if d.abs() < tiny { tiny } else { d };
            c = x + a / c;
            c = if c.abs() < tiny { tiny } else { c };
            d = 1.0 / d;
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (-x * x).exp() / f / std::f64::consts::PI.sqrt()
    }
}

/// The Wilson score interval for a proportion: `successes` out of `n` trials at confidence
/// `level` (for example 0.95). Returns `(low, high)`; `(0, 1)` when `n` is zero.
///
/// ```
/// let (lo, hi) = dice_sim::wilson_interval(50, 100, 0.95);
/// assert!(lo < 0.5 && 0.5 < hi);
/// assert!((hi - lo - 0.19).abs() < 0.01);
/// ```
pub fn wilson_interval(successes: u64, n: u64, level: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = normal_quantile(0.5 + level / 2.0);
    let n = n as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms: about 1e-15 relative).
pub(crate) fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, &g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The upper regularized incomplete gamma function `Q(a, x) = Γ(a, x) / Γ(a)`.
fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_pre = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        // Series for P(a, x).
        let mut sum = 1.0 / a;
        let mut term = sum;
        let mut ap = a;
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        1.0 - sum * ln_pre.exp()
    } else {
        // Continued fraction for Q(a, x) (Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -f64::from(i) * (f64::from(i) - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        ln_pre.exp() * h
    }
}

/// P(χ² with `dof` degrees of freedom ≥ `statistic`): the p-value of a chi-square test.
///
/// ```
/// // The 95th percentile of χ²(1) is 3.841…
/// let p = dice_sim::chi_square_p_value(3.841458820694124, 1);
/// assert!((p - 0.05).abs() < 1e-9);
/// ```
pub fn chi_square_p_value(statistic: f64, dof: u32) -> f64 {
    if dof == 0 {
        return 1.0;
    }
    gamma_q(f64::from(dof) / 2.0, statistic / 2.0).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantile_inverts_erfc() {
        for &p in &[
            1e-12, 1e-6, 0.001, 0.025, 0.1, 0.3, 0.5, 0.7, 0.9, 0.975, 0.999, 0.999999,
        ] {
            let z = normal_quantile(p);
            let back = 0.5 * erfc(-z / std::f64::consts::SQRT_2);
            assert!((back - p).abs() <= 1e-13 * p.max(1e-3), "{p} {z} {back}");
        }
        assert!((normal_quantile(0.5)).abs() < 1e-15);
    }

    #[test]
    fn ln_gamma_matches_factorials() {
        let mut fact = 1.0f64;
        for n in 1..30u32 {
            fact *= f64::from(n);
            let want = fact.ln();
            assert!((ln_gamma(f64::from(n) + 1.0) - want).abs() <= 1e-13 * want.max(1.0));
        }
        // Γ(1/2) = √π.
        let half = ln_gamma(0.5);
        assert!((half - std::f64::consts::PI.sqrt().ln()).abs() < 1e-14);
    }

    #[test]
    fn chi_square_with_two_dof_is_exponential() {
        // χ²(2) has survival exp(−x/2).
        for &x in &[0.1, 1.0, 3.0, 10.0, 40.0] {
            let want = (-x / 2.0f64).exp();
            assert!((chi_square_p_value(x, 2) - want).abs() <= 1e-12 * want.max(1e-10));
        }
    }
}
