//! What an audit reports besides its findings: counts and the auditor's statistics.

use std::collections::BTreeMap;

use crate::entry::{Entry, Kind};
use serde::Serialize;

use crate::context::Stats;
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
                    "dice rolls are not uniform: of {} rolls the fullest 1 % range holds {} and the emptiest {} ({:.1} expected in each), p = {:.2e}",
                    rolls.n, rolls.most, rolls.least, rolls.expected, rolls.p.unwrap_or(0.0)
                ),
            ));
        }
        if cards.alarming() {
            findings.push(Finding::new(
                FindingKind::Statistics,
                format!(
                    "cards are not uniform over deck positions: in {} deals a card lands at a position up to {} times and as few as {} ({:.1} expected), p = {:.2e}",
                    cards.n, cards.most, cards.least, cards.expected, cards.p.unwrap_or(0.0)
                ),
            ));
        }
        if rtp.p.is_some_and(|p| p < crate::stats::ALARM_P) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn findings_of(stats: &Stats) -> Vec<String> {
        let mut findings = Findings::default();
        Summary::new(&EntryCounts::default(), 0, stats, &mut findings);
        findings.first.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_favoured_range_of_rolls_is_a_finding() {
        let mut stats = Stats::default();
        // 10 rolls in each range but the first (rolls 0.00–0.99), which holds
        // 40: p = 200 × P(Binomial(1030, 1/100) ≥ 40), 2.34e-10 by SciPy.
        for range in 1..100 {
            stats.rolls[range * 100 + 7] = 10;
        }
        stats.rolls[3] = 40;
        assert_eq!(
            findings_of(&stats),
            ["dice rolls are not uniform: of 1030 rolls the fullest 1 % range holds 40 and the emptiest 10 (10.3 expected in each), p = 2.34e-10"]
        );
        stats.rolls[3] = 20;
        assert!(findings_of(&stats).is_empty());
    }

    #[test]
    fn a_favoured_card_position_is_a_finding() {
        let mut stats = Stats::default();
        let mut deck = [0u8; 52];
        for deal in 0..200u32 {
            for (position, card) in deck.iter_mut().enumerate() {
                *card = ((position as u32 + deal) % 52) as u8;
            }
            // The ace of the first suit (card 0) dealt first in every fourth deal.
            if deal % 4 == 0 {
                let at = deck.iter().position(|&c| c == 0).unwrap_or(0);
                deck.swap(0, at);
            }
            stats.deal(&deck);
        }
        let found = findings_of(&stats);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("cards are not uniform over deck positions: in 200 deals a card lands at a position up to 50 times"),
            "{found:?}"
        );
    }

    #[test]
    fn a_return_far_from_the_rules_is_a_finding() {
        let mut stats = Stats::default();
        // 1000 even bets that all win.
        for _ in 0..1000 {
            stats.rtp.add(100, 198, 198, 5000);
        }
        let found = findings_of(&stats);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .starts_with("return to player 1.98000 over 1000 bets is not the rules' 0.99000"),
            "{found:?}"
        );
    }
}
