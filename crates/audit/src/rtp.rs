//! Returns to player, bet by bet (docs/decisions/0021-exact-cell-tests.md).
//!
//! A dice bet returns `m = floor(amount × 9900 / chance) / amount` times its
//! stake with probability `p = chance / 10000`, else nothing: the rules fix
//! each bet's mean `p·m` and variance `p(1−p)·m²`. The interval and the alarm
//! use these, not the sample's own spread, which a handful of rare wins makes
//! arbitrarily wrong:
//!
//! - the 99 % interval is the normal one, mean ± 2.576 × the rules' standard
//!   error, shown only once the sum's skewness (from the rules' third
//!   cumulants) is at most [`MAX_SKEW`]; below, the report says how many
//!   bets of the same mix it needs;
//! - the alarm's p-value is Bennett's inequality on each side, which holds at
//!   any number of bets: it may overstate the p-value, never understate it.

use serde::Serialize;

use crate::cells::ALARM_P;

/// z for a two-sided 99 % interval.
const Z_99: f64 = 2.575_829_303_548_901;

/// The largest skewness of the sum of returns at which the normal interval is
/// shown (its coverage measured in `tests/calibration.rs`).
pub const MAX_SKEW: f64 = 0.25;

/// Returns to player of settled bets: sums of what the rules fix per bet.
#[derive(Debug, Clone, Default)]
pub struct Rtp {
    n: u64,
    returned: f64,
    expected: f64,
    variance: f64,
    third: f64,
    /// The largest win above its mean, `m(1−p)`: Bennett's bound on the upside.
    up: f64,
    /// The largest mean, `p·m`: the most a bet can fall below its mean.
    down: f64,
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
    /// The mean per-bet return the rules promise for the same bets (≈ 0.99).
    pub theoretical: Option<f64>,
    /// Skewness of the sum of returns for these bets, by the rules.
    pub skew: Option<f64>,
    /// Its 99 % interval; `None` while the skewness is above [`MAX_SKEW`].
    pub ci99: Option<(f64, f64)>,
    /// Whether `theoretical` lies inside `ci99`.
    pub consistent: Option<bool>,
    /// While there is no interval: about how many bets of the same mix it needs.
    pub bets_needed: Option<u64>,
    /// The two-sided p-value of the mean against `theoretical` (Bennett's bound).
    pub p: Option<f64>,
    /// How far the mean may stray from `theoretical` before `p` falls below
    /// [`ALARM_P`], at these bets.
    pub alarm_gap: Option<f64>,
}

impl Rtp {
    /// Counts one settled bet: its stake, its payout, what a win pays, and its chance in 10 000.
    pub fn add(&mut self, amount: u64, payout: u128, win_payout: u128, chance: u16) {
        let stake = amount as f64;
        let m = win_payout as f64 / stake;
        let p = f64::from(chance) / 10_000.0;
        let mean = p * m;
        self.n += 1;
        self.returned += payout as f64 / stake;
        self.expected += mean;
        self.variance += p * (1.0 - p) * m * m;
        self.third += p * (1.0 - p) * (1.0 - 2.0 * p) * m * m * m;
        self.up = self.up.max(m * (1.0 - p));
        self.down = self.down.max(mean);
        self.expected_paid += stake * mean;
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

    /// The summary: the mean, its interval where it holds, the alarm's p-value.
    pub fn summary(&self) -> RtpSummary {
        let mut out = RtpSummary {
            bets: self.n,
            staked: self.staked.to_string(),
            paid: self.paid.to_string(),
            by_chips: self.by_chips(),
            theoretical_by_chips: (self.staked > 0)
                .then(|| self.expected_paid / self.staked as f64),
            mean: None,
            theoretical: None,
            skew: None,
            ci99: None,
            consistent: None,
            bets_needed: None,
            p: None,
            alarm_gap: None,
        };
        if self.n == 0 || self.variance <= 0.0 {
            return out;
        }
        let n = self.n as f64;
        let (mean, theoretical) = (self.returned / n, self.expected / n);
        let skew = self.third / self.variance.powf(1.5);
        out.mean = Some(mean);
        out.theoretical = Some(theoretical);
        out.skew = Some(skew);
        out.p = Some(self.p_value(self.returned - self.expected));
        out.alarm_gap = Some(self.alarm_gap() / n);
        if skew.abs() <= MAX_SKEW {
            let half = Z_99 * self.variance.sqrt() / n;
            out.ci99 = Some((mean - half, mean + half));
            out.consistent = Some((mean - theoretical).abs() <= half);
        } else {
            // Skewness falls as 1/√n for a mix of bets that stays the same.
            out.bets_needed = Some((n * (skew / MAX_SKEW).powi(2)).ceil() as u64);
        }
        out
    }

    /// Bennett's bound on P(|S − E S| ≥ |gap|), S the sum of returns.
    pub fn p_value(&self, gap: f64) -> f64 {
        let t = gap.abs();
        (bennett(self.variance, self.up, t) + bennett(self.variance, self.down, t)).min(1.0)
    }

    /// The smallest gap of the sum of returns whose p-value is below [`ALARM_P`].
    fn alarm_gap(&self) -> f64 {
        let (mut lo, mut hi) = (0.0, 1.0);
        while self.p_value(hi) >= ALARM_P && hi < f64::MAX / 4.0 {
            hi *= 2.0;
        }
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if self.p_value(mid) < ALARM_P {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }
}

/// Bennett: P(S − E S ≥ t) ≤ exp(−(v/b²)·h(b·t/v)), h(u) = (1+u)·ln(1+u) − u,
/// for independent terms each at most `b` above its mean, of total variance `v`.
fn bennett(v: f64, b: f64, t: f64) -> f64 {
    if t <= 0.0 {
        return 1.0;
    }
    if b <= 0.0 {
        return 0.0;
    }
    let u = b * t / v;
    let h = (1.0 + u) * u.ln_1p() - u;
    (-(v / (b * b)) * h).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bet of 100 chips at `chance`, won or lost, as the rules pay it.
    fn bet(rtp: &mut Rtp, chance: u16, won: bool) {
        let win = 100u128 * 9900 / u128::from(chance);
        rtp.add(100, if won { win } else { 0 }, win, chance);
    }

    #[test]
    fn even_bets_give_the_rules_mean_and_an_interval() {
        let mut rtp = Rtp::default();
        for won in [false, true, false, true] {
            bet(&mut rtp, 5000, won);
        }
        let s = rtp.summary();
        assert_eq!(s.by_chips, Some(0.99));
        assert_eq!(s.mean, Some(0.99));
        assert_eq!(s.theoretical, Some(0.99));
        assert_eq!(s.skew, Some(0.0));
        assert_eq!(s.consistent, Some(true));
        assert_eq!(s.p, Some(1.0));
    }

    #[test]
    fn rare_wins_give_no_interval_but_the_bets_needed() {
        let mut rtp = Rtp::default();
        for i in 0..20 {
            bet(&mut rtp, 300, i == 7);
        }
        let s = rtp.summary();
        // Skewness of 20 bets at 3 %: (1 − 2p)/√(n p (1 − p)) = 0.94/√0.582.
        let skew = 0.94 / (20.0f64 * 0.03 * 0.97).sqrt();
        assert!((s.skew.unwrap_or(0.0) - skew).abs() < 1e-9, "{s:?}");
        assert_eq!(s.ci99, None);
        assert_eq!(s.consistent, None);
        assert_eq!(
            s.bets_needed,
            Some((20.0 * (skew / MAX_SKEW).powi(2)).ceil() as u64)
        );
    }

    #[test]
    fn bennett_bounds_a_binomial_tail_from_above() {
        // 1000 even bets paying 1.98: S − E S = 1.98 × (wins − 500).
        let mut rtp = Rtp::default();
        for _ in 0..1000 {
            bet(&mut rtp, 5000, false);
        }
        for wins in [530u64, 560, 600] {
            let gap = 1.98 * (wins as f64 - 500.0);
            let exact = 2.0 * crate::binomial::upper(1000, 0.5, wins);
            let bound = rtp.p_value(gap);
            assert!(bound >= exact, "wins {wins}: {bound} < {exact}");
        }
        // Conservative, yet a 6.3-sigma excess still raises the alarm.
        assert!(rtp.p_value(1.98 * 100.0) < ALARM_P);
    }
}
