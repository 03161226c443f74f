//! The statistics an auditor asks for: chi-square tests of uniformity and the
//! return to player with its confidence interval. Accumulators of fixed size,
//! fed one observation at a time.

use serde::Serialize;

/// A p-value below this makes a statistic a finding: a fair service trips it
/// once in a million audits, a biased one with enough data almost always.
pub const ALARM_P: f64 = 1e-6;

/// z for a two-sided 99 % confidence interval.
const Z_99: f64 = 2.575_829_303_548_901;

/// Pearson's chi-square test of counts against equal expected counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChiSquare {
    /// Observations in all.
    pub n: u64,
    /// The statistic, Σ (observed − expected)² / expected.
    pub chi2: f64,
    /// Cells − 1 (or as given for a table).
    pub df: u64,
    /// P(χ² ≥ chi2) for a fair source; `None` with no observations.
    pub p: Option<f64>,
}

impl ChiSquare {
    /// The test of `counts`, each cell expected to hold `n / cells`, on `df` degrees of freedom.
    pub fn uniform(counts: &[u64], df: u64) -> Self {
        let n: u64 = counts.iter().sum();
        if n == 0 || counts.is_empty() || df == 0 {
            return Self {
                n,
                chi2: 0.0,
                df,
                p: None,
            };
        }
        let expected = n as f64 / counts.len() as f64;
        let chi2 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum::<f64>();
        Self {
            n,
            chi2,
            df,
            p: Some(upper_tail(chi2, df)),
        }
    }

    /// Whether the p-value is below [`ALARM_P`].
    pub fn alarming(&self) -> bool {
        self.p.is_some_and(|p| p < ALARM_P)
    }
}

/// Degrees of freedom from which [`upper_tail`] uses the Wilson–Hilferty approximation.
const LARGE_DF: u64 = 100;

/// P(χ²_df ≥ x): the regularized upper incomplete gamma Q(df/2, x/2) up to
/// 100 degrees of freedom; above, Wilson–Hilferty's normal approximation of
/// (χ²/df)^(1/3), whose error in p is below 10^-4 there — and `puruspe`'s
/// `gammq` (0.4) returns NaN below the mean for such large shapes.
pub fn upper_tail(x: f64, df: u64) -> f64 {
    if !(x.is_finite() && x >= 0.0) || df == 0 {
        return 0.0;
    }
    if df <= LARGE_DF {
        return puruspe::gammq(df as f64 / 2.0, x / 2.0);
    }
    let k = df as f64;
    let v = 2.0 / (9.0 * k);
    let z = ((x / k).cbrt() - (1.0 - v)) / v.sqrt();
    0.5 * puruspe::erfc(z / std::f64::consts::SQRT_2)
}

/// Returns to player, bet by bet: the mean of `payout / amount`, with Welford's
/// running variance for its confidence interval, and the mean the rules promise
/// for the same bets (exactly: each bet's `floor(amount × 9900 / chance) ×
/// chance / 10000 / amount`, a little under 99 % where the floor rounds down).
#[derive(Debug, Clone, Default)]
pub struct Rtp {
    n: u64,
    mean: f64,
    m2: f64,
    expected_sum: f64,
    expected_paid: f64,
    staked: u128,
    paid: u128,
}

/// The RTP in the summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RtpSummary {
    /// Bets counted (those whose pair was revealed).
    pub bets: u64,
    /// Chips staked and paid back (stake included), as decimal text (they may exceed 2^64).
    pub staked: String,
    /// Chips paid back.
    pub paid: String,
    /// `paid / staked`.
    pub by_chips: Option<f64>,
    /// What the rules give by chips: Σ stake × promised return / Σ stake.
    pub theoretical_by_chips: Option<f64>,
    /// The mean per-bet return.
    pub mean: Option<f64>,
    /// Its 99 % confidence interval.
    pub ci99: Option<(f64, f64)>,
    /// The mean per-bet return the rules promise for the same bets (≈ 0.99).
    pub theoretical: Option<f64>,
    /// Whether `theoretical` lies inside `ci99`.
    pub consistent: Option<bool>,
    /// P-value of the two-sided z-test of `mean` against `theoretical`.
    pub p: Option<f64>,
}

impl Rtp {
    /// Counts one settled bet: its stake, its payout, and its promised mean return.
    pub fn add(&mut self, amount: u64, payout: u128, expected_return: f64) {
        let r = payout as f64 / amount as f64;
        self.n += 1;
        let delta = r - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (r - self.mean);
        self.expected_sum += expected_return;
        self.expected_paid += amount as f64 * expected_return;
        self.staked += u128::from(amount);
        self.paid += payout;
    }

    /// Bets counted so far.
    pub fn bets(&self) -> u64 {
        self.n
    }

    /// `paid / staked` so far.
    pub fn by_chips(&self) -> Option<f64> {
        (self.staked > 0).then(|| self.paid as f64 / self.staked as f64)
    }

    /// The summary: the mean, its 99 % interval, and the promise.
    pub fn summary(&self) -> RtpSummary {
        let mut out = RtpSummary {
            bets: self.n,
            staked: self.staked.to_string(),
            paid: self.paid.to_string(),
            by_chips: self.by_chips(),
            theoretical_by_chips: (self.staked > 0)
                .then(|| self.expected_paid / self.staked as f64),
            mean: None,
            ci99: None,
            theoretical: None,
            consistent: None,
            p: None,
        };
        if self.n < 2 {
            return out;
        }
        let n = self.n as f64;
        let se = (self.m2 / (n - 1.0) / n).sqrt();
        let theoretical = self.expected_sum / n;
        out.mean = Some(self.mean);
        out.ci99 = Some((self.mean - Z_99 * se, self.mean + Z_99 * se));
        out.theoretical = Some(theoretical);
        out.consistent = Some((self.mean - theoretical).abs() <= Z_99 * se);
        out.p =
            (se > 0.0).then(|| puruspe::erfc((self.mean - theoretical).abs() / se / 2f64.sqrt()));
        out
    }
}

/// A series of at most [`Series::MAX`] points sampled at a stride that doubles
/// whenever the series fills, for plots over logs of any length.
#[derive(Debug, Clone, Serialize)]
pub struct Series {
    /// `(x, y)` points, x increasing.
    pub points: Vec<(u64, f64)>,
    #[serde(skip)]
    stride: u64,
    #[serde(skip)]
    seen: u64,
}

impl Default for Series {
    fn default() -> Self {
        Self {
            points: Vec::new(),
            stride: 1,
            seen: 0,
        }
    }
}

impl Series {
    /// The most points kept.
    pub const MAX: usize = 512;

    /// Offers one point; kept if it falls on the stride.
    pub fn offer(&mut self, x: u64, y: f64) {
        if self.seen.is_multiple_of(self.stride) {
            if self.points.len() == Self::MAX {
                let kept: Vec<_> = self.points.iter().copied().step_by(2).collect();
                self.points = kept;
                self.stride *= 2;
            }
            if self.seen.is_multiple_of(self.stride) {
                self.points.push((x, y));
            }
        }
        self.seen += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_tail_matches_tables() {
        // Critical values from standard chi-square tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4).
        assert!((upper_tail(3.841, 1) - 0.05).abs() < 1e-4);
        assert!((upper_tail(23.209, 10) - 0.01).abs() < 1e-4);
        assert!((upper_tail(124.342, 100) - 0.05).abs() < 1e-4);
        assert!((upper_tail(135.807, 100) - 0.01).abs() < 1e-4);
        assert!((upper_tail(70.065, 100) - 0.99).abs() < 1e-4);
    }

    #[test]
    fn the_large_df_approximation_agrees_with_the_exact_tail() {
        // At 100 degrees of freedom both are available: they must agree where the switch is.
        for x in [60.0, 80.0, 100.0, 120.0, 140.0] {
            let exact = puruspe::gammq(50.0, x / 2.0);
            assert!(
                (upper_tail(x, 101) - puruspe::gammq(50.5, x / 2.0)).abs() < 2e-3,
                "x {x}"
            );
            assert!(exact.is_finite());
        }
        // Far below and above the mean of a large table: finite, near 1 and near 0.
        assert!(upper_tail(9000.0, 9999) > 0.999_999);
        assert!(upper_tail(11_000.0, 9999) < 1e-9);
        assert!((upper_tail(9999.0 - 2.0 / 3.0, 9999) - 0.5).abs() < 1e-3);
    }

    #[test]
    fn even_counts_have_zero_statistic() {
        let test = ChiSquare::uniform(&[5, 5, 5, 5], 3);
        assert_eq!(test.chi2, 0.0);
        assert_eq!(test.p, Some(1.0));
    }

    #[test]
    fn rtp_interval_covers_a_constant_return() {
        let mut rtp = Rtp::default();
        for payout in [0u128, 198, 0, 198] {
            rtp.add(100, payout, 0.99);
        }
        let s = rtp.summary();
        assert_eq!(s.by_chips, Some(0.99));
        assert_eq!(s.mean, Some(0.99));
        assert_eq!(s.consistent, Some(true));
    }

    #[test]
    fn series_stays_bounded() {
        let mut s = Series::default();
        for i in 0..100_000u64 {
            s.offer(i, i as f64);
        }
        assert!(s.points.len() <= Series::MAX);
        assert_eq!(s.points[0].0, 0);
    }
}
