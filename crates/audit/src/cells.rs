//! The test of equally likely cells (docs/decisions/0021-exact-cell-tests.md):
//! each cell's count is exactly Binomial(n, p) for a fair source, so the most
//! and the least filled cells are judged by exact binomial tails, both tails
//! of every cell counted (Bonferroni). Its false-alarm rate is at most the
//! level asked for at every n, and at small levels it is that level up to the
//! discreteness of the counts, which [`CellTest::size`] gives exactly.
//!
//! Dice rolls are 100 cells (ranges of 1 %, p = 1/100); card position × card
//! over deals is 52 × 52 cells, each of probability 1/52 per deal.

use serde::Serialize;

use crate::binomial::{lower, upper};

/// A p-value below this makes a statistic a finding: a fair service trips it
/// at most once in a million audits (docs/decisions/0021-exact-cell-tests.md).
pub const ALARM_P: f64 = 1e-6;

/// Power asked of [`CellTest::power`]: the bias is caught this often.
pub const POWER: f64 = 0.9;

/// Cells of equal probability `p`, `cells` of them, counted over `n` observations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellTest {
    /// How many cells.
    pub cells: u64,
    /// Each cell's probability per observation.
    pub p: f64,
}

/// The result of a [`CellTest`], as the summary reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Uniformity {
    /// Observations: rolls, or deals.
    pub n: u64,
    /// Cells counted.
    pub cells: u64,
    /// The fullest cell's count.
    pub most: u64,
    /// The emptiest cell's count.
    pub least: u64,
    /// Each cell's expected count, `n × p`.
    pub expected: f64,
    /// P-value of the fullest or emptiest cell, both tails of every cell
    /// counted; `None` below `min_n`.
    pub p: Option<f64>,
    /// The fewest observations at which any outcome can reach [`ALARM_P`]:
    /// below it the test cannot say anything, and the report says so.
    pub min_n: u64,
    /// The smallest factor by which one cell more likely than each other
    /// is caught at [`ALARM_P`] with probability [`POWER`]; `None` below `min_n`.
    pub power_factor: Option<f64>,
}

impl Uniformity {
    /// Whether there are too few observations to judge.
    pub fn too_few(&self) -> bool {
        self.p.is_none()
    }

    /// Whether the p-value is below [`ALARM_P`].
    pub fn alarming(&self) -> bool {
        self.p.is_some_and(|p| p < ALARM_P)
    }
}

impl CellTest {
    /// 100 ranges of 1 % of the 10 000 dice values.
    pub const ROLLS: Self = Self {
        cells: 100,
        p: 0.01,
    };
    /// 52 positions × 52 cards, each card at each position with probability 1/52 per deal.
    pub const CARDS: Self = Self {
        cells: 52 * 52,
        p: 1.0 / 52.0,
    };

    /// The p-value of counts whose fullest cell holds `most` and emptiest `least` of `n`.
    pub fn p_value(&self, n: u64, most: u64, least: u64) -> f64 {
        let tails = 2.0 * self.cells as f64;
        let extreme = upper(n, self.p, most).min(lower(n, self.p, least));
        (tails * extreme).min(1.0)
    }

    /// The test of `counts` (one per cell) over `n` observations.
    pub fn judge(&self, n: u64, counts: &[u64]) -> Uniformity {
        let most = counts.iter().copied().max().unwrap_or(0);
        let least = counts.iter().copied().min().unwrap_or(0);
        let min_n = self.min_n(ALARM_P);
        let judged = n >= min_n;
        Uniformity {
            n,
            cells: self.cells,
            most,
            least,
            expected: n as f64 * self.p,
            p: judged.then(|| self.p_value(n, most, least)),
            min_n,
            power_factor: judged.then(|| self.power_factor(n, ALARM_P)),
        }
    }

    /// The fewest observations at which the most extreme outcome (all in one
    /// cell) has a p-value below `alpha`.
    pub fn min_n(&self, alpha: f64) -> u64 {
        let mut n = 1;
        while self.p_value(n, n, 0) >= alpha {
            n += 1;
        }
        n
    }

    /// The smallest count of one cell whose p-value is below `alpha` (n + 1 if none is).
    pub fn critical_most(&self, n: u64, alpha: f64) -> u64 {
        let below = |c: u64| 2.0 * self.cells as f64 * upper(n, self.p, c) < alpha;
        let (mut lo, mut hi) = (0, n + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if below(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// The largest count of one cell whose p-value is below `alpha`, if any is.
    pub fn critical_least(&self, n: u64, alpha: f64) -> Option<u64> {
        let below = |c: u64| 2.0 * self.cells as f64 * lower(n, self.p, c) < alpha;
        if !below(0) {
            return None;
        }
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if below(mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Some(lo)
    }

    /// The test's false-alarm rate at level `alpha` over `n` observations:
    /// every cell's chance of reaching a critical count, summed. It bounds the
    /// rate from above and is the rate itself but for two cells reaching one
    /// together, a chance of the order of its square.
    pub fn size(&self, n: u64, alpha: f64) -> f64 {
        let high = upper(n, self.p, self.critical_most(n, alpha));
        let low = self
            .critical_least(n, alpha)
            .map_or(0.0, |c| lower(n, self.p, c));
        self.cells as f64 * (high + low)
    }

    /// Over `n` observations, the probability that the test at `alpha`
    /// catches one cell made `factor` times as likely as each other cell
    /// (counting that cell's excess only, so a lower bound).
    pub fn power(&self, n: u64, alpha: f64, factor: f64) -> f64 {
        let q = self.biased(factor);
        upper(n, q, self.critical_most(n, alpha))
    }

    /// The smallest factor caught with probability [`POWER`] at `alpha` over
    /// `n` observations (infinite when not even a cell holding every
    /// observation is caught).
    pub fn power_factor(&self, n: u64, alpha: f64) -> f64 {
        let critical = self.critical_most(n, alpha);
        if critical > n {
            return f64::INFINITY;
        }
        // Bisect on the cell's probability q, from fair (p) to certain (1).
        let (mut lo, mut hi) = (self.p, 1.0);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if upper(n, mid, critical) >= POWER {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        self.factor(hi)
    }

    /// The probability of a cell made `factor` times as likely as each other.
    fn biased(&self, factor: f64) -> f64 {
        factor * self.p / (1.0 + (factor - 1.0) * self.p)
    }

    /// The factor that gives a cell probability `q`.
    fn factor(&self, q: f64) -> f64 {
        if q >= 1.0 {
            return f64::INFINITY;
        }
        q * (1.0 - self.p) / (self.p * (1.0 - q))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_the_smallest_judged_size_no_outcome_is_alarming() {
        // All n rolls in one 1 % range: 200 × 0.01^n, below 10^-6 from n = 5.
        assert_eq!(CellTest::ROLLS.min_n(ALARM_P), 5);
        assert!(CellTest::ROLLS.p_value(4, 4, 0) >= ALARM_P);
        assert!(CellTest::ROLLS.p_value(5, 5, 0) < ALARM_P);
        // One card at one position in every deal: 5408 × 52^-n, from n = 6.
        assert_eq!(CellTest::CARDS.min_n(ALARM_P), 6);
        let few = CellTest::ROLLS.judge(4, &[1, 1, 1, 1]);
        assert!(few.too_few() && !few.alarming());
        assert_eq!(few.power_factor, None);
    }

    #[test]
    fn two_rolls_on_one_value_are_no_finding() {
        // 20 rolls, two of them in one range (as two on one value): the
        // chi-square on 10 000 values called this p = 8.7e-12.
        let mut counts = [0u64; 100];
        counts[..18].iter_mut().for_each(|c| *c = 1);
        counts[40] = 2;
        let u = CellTest::ROLLS.judge(20, &counts);
        assert_eq!(u.p, Some(1.0));
        assert!(!u.alarming());
    }

    #[test]
    fn the_size_is_at_most_the_level() {
        for n in [5, 10, 20, 50, 100, 1000, 100_000] {
            for alpha in [1e-2, 1e-6] {
                let size = CellTest::ROLLS.size(n, alpha);
                assert!(size <= alpha, "n {n} alpha {alpha}: size {size}");
            }
        }
    }

    #[test]
    fn power_grows_with_the_bias_and_meets_its_factor() {
        let test = CellTest::ROLLS;
        let factor = test.power_factor(10_000, ALARM_P);
        assert!(factor > 1.0 && factor.is_finite());
        let at = test.power(10_000, ALARM_P, factor);
        assert!((at - POWER).abs() < 1e-6, "{at}");
        assert!(test.power(10_000, ALARM_P, factor * 1.1) > POWER);
        assert!(test.power(10_000, ALARM_P, factor / 1.1) < POWER);
    }
}
