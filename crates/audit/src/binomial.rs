//! Exact binomial tails, P(X ≥ c) and P(X ≤ c) for X ~ Binomial(n, p).
//!
//! The audit's p-values are these tails, not an asymptotic approximation, so
//! they are right at any number of observations and down to 10^-6 and below.
//! A small tail is summed term by term from its first term outwards (each term
//! from the one before by the ratio of binomial coefficients), so it keeps its
//! relative precision; a tail that holds the mean is one minus the other,
//! small, tail. The first term is Loader's saddle-point form of the binomial
//! probability (as in R's `dbinom`), accurate to a few units in the last
//! place at any n, where `ln Γ` differences lose digits as n grows.

/// Terms smaller than this share of the sum so far end a tail's sum.
const NEGLIGIBLE: f64 = 1e-17;

/// P(X ≥ c).
pub fn upper(n: u64, p: f64, c: u64) -> f64 {
    if c == 0 {
        return 1.0;
    }
    if c > n {
        return 0.0;
    }
    if (c as f64) <= n as f64 * p {
        return (1.0 - lower(n, p, c - 1)).max(0.0);
    }
    let odds = p / (1.0 - p);
    let mut term = pmf(n, p, c);
    let mut sum = term;
    let mut j = c;
    while j < n && term > sum * NEGLIGIBLE {
        term *= (n - j) as f64 / (j + 1) as f64 * odds;
        sum += term;
        j += 1;
    }
    sum.min(1.0)
}

/// P(X ≤ c).
pub fn lower(n: u64, p: f64, c: u64) -> f64 {
    if c >= n {
        return 1.0;
    }
    if (c as f64) >= n as f64 * p {
        return (1.0 - upper(n, p, c + 1)).max(0.0);
    }
    let odds = (1.0 - p) / p;
    let mut term = pmf(n, p, c);
    let mut sum = term;
    let mut j = c;
    while j > 0 && term > sum * NEGLIGIBLE {
        term *= j as f64 / (n - j + 1) as f64 * odds;
        sum += term;
        j -= 1;
    }
    sum.min(1.0)
}

/// P(X = j), for 0 < p < 1 (Loader, "Fast and accurate computation of
/// binomial probabilities", 2000).
pub fn pmf(n: u64, p: f64, j: u64) -> f64 {
    if j > n {
        return 0.0;
    }
    let (nf, x) = (n as f64, j as f64);
    if j == 0 {
        return (nf * (-p).ln_1p()).exp();
    }
    if j == n {
        return (nf * p.ln()).exp();
    }
    let lc = stirlerr(nf)
        - stirlerr(x)
        - stirlerr(nf - x)
        - bd0(x, nf * p)
        - bd0(nf - x, nf * (1.0 - p));
    let lf = (2.0 * std::f64::consts::PI).ln() + x.ln() + (-x / nf).ln_1p();
    (lc - 0.5 * lf).exp()
}

/// ln(n!) − ((n + ½)·ln n − n + ½·ln 2π): the error of Stirling's formula.
fn stirlerr(n: f64) -> f64 {
    const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;
    if n <= 15.0 {
        let ln_factorial: f64 = (2..=n as u64).map(|k| (k as f64).ln()).sum();
        return ln_factorial - (n + 0.5) * n.ln() + n - HALF_LN_2PI;
    }
    let nn = n * n;
    const S: [f64; 5] = [
        1.0 / 12.0,
        1.0 / 360.0,
        1.0 / 1260.0,
        1.0 / 1680.0,
        1.0 / 1188.0,
    ];
    (S[0] - (S[1] - (S[2] - (S[3] - S[4] / nn) / nn) / nn) / nn) / n
}

/// x·ln(x/m) + m − x, without the cancellation when x is near m.
fn bd0(x: f64, m: f64) -> f64 {
    if (x - m).abs() >= 0.1 * (x + m) {
        return x * (x / m).ln() + m - x;
    }
    let v = (x - m) / (x + m);
    let v2 = v * v;
    let mut sum = (x - m) * v;
    let mut term = 2.0 * x * v;
    for j in 1..1000 {
        term *= v2;
        let next = sum + term / f64::from(2 * j + 1);
        if next == sum {
            break;
        }
        sum = next;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_tails_match_the_sums_of_their_terms() {
        // Bin(4, 1/2): 1, 4, 6, 4, 1 over 16.
        assert!((upper(4, 0.5, 3) - 5.0 / 16.0).abs() < 1e-13);
        assert!((lower(4, 0.5, 1) - 5.0 / 16.0).abs() < 1e-13);
        assert!((upper(4, 0.5, 2) - 11.0 / 16.0).abs() < 1e-13);
        assert!((lower(4, 0.5, 2) - 11.0 / 16.0).abs() < 1e-13);
        // All of n in one cell of probability 1/100: (1/100)^n exactly.
        assert!((upper(5, 0.01, 5) / 1e-10 - 1.0).abs() < 1e-12);
        assert_eq!(upper(5, 0.01, 0), 1.0);
        assert_eq!(upper(5, 0.01, 6), 0.0);
        assert_eq!(lower(5, 0.01, 5), 1.0);
        assert!((lower(10, 0.01, 0) - 0.99f64.powi(10)).abs() < 1e-13);
    }

    #[test]
    fn the_two_tails_and_the_point_add_up_to_one() {
        for (n, p) in [(20u64, 0.01), (1000, 1.0 / 52.0), (100_000, 0.01)] {
            for c in [0, n / 200, n / 100, n / 50, n / 10] {
                let total = upper(n, p, c + 1) + lower(n, p, c);
                assert!((total - 1.0).abs() < 1e-9, "n {n} c {c}: {total}");
            }
        }
    }
}
