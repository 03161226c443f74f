//! What an audit reports besides its findings: counts and the auditor's statistics.

use std::collections::BTreeMap;

use crate::entry::{Entry, Kind};
use serde::Serialize;

use crate::checker::Stats;
use crate::finding::{Finding, FindingKind, Findings};
use crate::stats::{CellTest, RtpSummary, Uniformity};

/// Entries by scheme and kind.
#[derive(Debug, Clone, Default, Serialize)]
pub struct EntryCounts {
    /// Entries in all.
    pub entries: u64,
    /// Entries that did not decode.
    pub invalid: u64,
    /// `scheme → [commitments, reveals, outcomes]`.
    pub by_scheme: BTreeMap<String, [u64; 3]>,
}

impl EntryCounts {
    /// Counts one decoded entry.
    pub fn count(&mut self, entry: &Entry) {
        self.entries += 1;
        let slot = match entry.kind {
            Kind::Commitment => 0,
            Kind::Reveal => 1,
            Kind::Outcome => 2,
        };
        if let Some(counts) = self.by_scheme.get_mut(&entry.scheme) {
            counts[slot] += 1;
        } else {
            let mut counts = [0; 3];
            counts[slot] = 1;
            self.by_scheme.insert(entry.scheme.clone(), counts);
        }
    }
}

/// The audit's numbers.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Entries by scheme and kind.
    pub counts: EntryCounts,
    /// Commitments not yet revealed and not yet due.
    pub open: u64,
    /// Dice rolls recomputed from revealed seeds, judged in 100 ranges of 1 %.
    pub rolls: Uniformity,
    /// Rolls per 1 % range (`0.00–0.99`, …): the test's cells and the histogram.
    pub roll_histogram: Vec<u64>,
    /// Card position × card over revealed deals (52 × 52 cells; `n` is deals).
    pub cards: Uniformity,
    /// Return to player of settled dice bets against the rules' 99 %.
    pub rtp: RtpSummary,
    /// `(bets settled, paid / staked so far)`.
    pub rtp_series: Vec<(u64, f64)>,
}

impl Summary {
    /// Builds the summary; a statistic past [`crate::ALARM_P`] is added to `findings`.
    pub fn new(counts: &EntryCounts, open: u64, stats: &Stats, findings: &mut Findings) -> Self {
        let roll_histogram: Vec<u64> = stats.rolls.chunks(100).map(|c| c.iter().sum()).collect();
        let rolls = CellTest::ROLLS.judge(roll_histogram.iter().sum(), &roll_histogram);
        let deals = stats.cards[..52].iter().sum();
        let cards = CellTest::CARDS.judge(deals, &stats.cards[..]);
        let rtp = stats.rtp.summary();
        if rolls.alarming() {
            findings.push(Finding::new(
                FindingKind::Statistics,
                format!(
                    "dice rolls are not uniform: over {} rolls one 1 % range holds {} and one {} (expected {:.1} each), p = {:.2e}",
                    rolls.n, rolls.most, rolls.least, rolls.expected, rolls.p.unwrap_or(0.0)
                ),
            ));
        }
        if cards.alarming() {
            findings.push(Finding::new(
                FindingKind::Statistics,
                format!(
                    "cards are not uniform over deck positions: over {} deals one card lands at one position {} times and one {} (expected {:.1}), p = {:.2e}",
                    cards.n, cards.most, cards.least, cards.expected, cards.p.unwrap_or(0.0)
                ),
            ));
        }
        if rtp.p.is_some_and(|p| p < crate::ALARM_P) {
            findings.push(Finding::new(
                FindingKind::Statistics,
                format!(
                    "return to player {:.5} over {} bets is not the rules' {:.5} (p = {:.2e})",
                    rtp.mean.unwrap_or(0.0),
                    rtp.bets,
                    rtp.theoretical.unwrap_or(0.0),
                    rtp.p.unwrap_or(0.0)
                ),
            ));
        }
        Self {
            counts: counts.clone(),
            open,
            rolls,
            roll_histogram,
            cards,
            rtp,
            rtp_series: stats.rtp_series.points.clone(),
        }
    }
}
