//! The statistics an auditor asks for: the alarm level, the exact tests of
//! equally likely cells (`crate::cells`), the return to player with its
//! interval (`crate::rtp`), and the series behind the plots. Accumulators of
//! fixed size, fed one observation at a time.

use serde::Serialize;

pub use crate::cells::{CellTest, Uniformity, ALARM_P, POWER};
pub use crate::rtp::{Rtp, RtpSummary, MAX_SKEW};

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
    fn series_stays_bounded() {
        let mut s = Series::default();
        for i in 0..100_000u64 {
            s.offer(i, i as f64);
        }
        assert!(s.points.len() <= Series::MAX);
        assert_eq!(s.points[0].0, 0);
    }
}
