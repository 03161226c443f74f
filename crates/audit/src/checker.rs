//! The entry checker: fed every entry of the log in order, it pairs each reveal
//! with its commitment, applies the scheme's rule and policy, and gathers the
//! statistics. Memory grows with what is still open (unrevealed commitments and
//! their bets) and with the number of commitments (one 16-byte fingerprint
//! each, for duplicates), never with the number of bets already settled.

use crate::context::{Context, Stats};
use crate::entry::{Entry, Kind};
use crate::finding::{FindingKind, Findings};
use crate::schemes::table_clock::TableClock;
use crate::schemes::withheld::{self, Withheld};
use crate::schemes::{dice::Dice, generic::Generic, poker::Poker, selfpoker::Selfpoker};
use crate::summary::{EntryCounts, Summary};

/// The entry checker.
#[derive(Debug, Default)]
pub struct Checker {
    ctx: Context,
    dice: Dice,
    poker: Poker,
    selfpoker: Selfpoker,
    generic: Generic,
    table_clock: TableClock,
    withheld: Withheld,
    counts: EntryCounts,
}

impl Checker {
    /// A checker that has seen nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks the entry at `leaf`, given as its bytes.
    pub fn entry_bytes(&mut self, leaf: u64, bytes: &[u8]) {
        match Entry::decode(bytes) {
            Ok(entry) => self.entry(leaf, &entry),
            Err(e) => {
                self.counts.invalid += 1;
                self.ctx.find(FindingKind::BadEntry, leaf, e.to_string());
            }
        }
    }

    /// Checks one decoded entry at `leaf`.
    pub fn entry(&mut self, leaf: u64, entry: &Entry) {
        self.ctx.now_ms = self.ctx.now_ms.max(entry.time_ms);
        self.counts.count(entry);
        let ctx = &mut self.ctx;
        self.table_clock.entry(ctx, leaf, entry);
        match entry.scheme.as_str() {
            "dice_v1" => self.dice.entry(ctx, leaf, entry),
            "poker_hmac_v1" => self.poker.entry(ctx, leaf, entry),
            "selfpoker" => self.selfpoker.entry(ctx, leaf, entry),
            "selfpoker_v2" if entry.ids.len() == 2 => self.selfpoker.entry(ctx, leaf, entry),
            withheld::SCHEME if withheld::is_round_end(entry) => {
                self.withheld.entry(ctx, leaf, entry)
            }
            withheld::SCHEME if entry.ids.len() == 2 => {
                self.withheld.hand(ctx, entry);
                self.selfpoker.entry(ctx, leaf, entry);
            }
            _ => self.generic.entry(ctx, leaf, entry),
        }
        if entry.kind == Kind::Commitment {
            let what = format!("{} {} commitment", entry.scheme, entry.ids.join("/"));
            for value in &entry.values {
                if looks_like_commitment(value) {
                    self.ctx.commitment_seen(leaf, value, &what);
                }
            }
        }
    }

    /// Applies the end-of-log policies (what should have been revealed by the
    /// last entry's time) and returns the summary.
    pub fn finish(mut self) -> (Summary, Findings) {
        let ctx = &mut self.ctx;
        self.dice.finish(ctx);
        self.poker.finish(ctx);
        self.selfpoker.finish(ctx);
        self.generic.finish(ctx);
        self.table_clock.finish(ctx);
        self.withheld.finish(ctx);
        let mut open = self.dice.open() + self.poker.open() + self.selfpoker.open();
        open += self.generic.open();
        let summary = Summary::new(&self.counts, open, &self.ctx.stats, &mut self.ctx.findings);
        (summary, self.ctx.findings)
    }

    /// What a log that follows this one starts from (a new log after an
    /// unbridgeable loss, docs/spec.md §16.11): the seeds, sessions and
    /// hands left open and the commitments seen, without this log's
    /// findings, counts and statistics (its own audit reports those).
    #[must_use]
    pub fn carried(mut self) -> Self {
        self.ctx.findings = Findings::default();
        self.ctx.stats = Stats::default();
        self.counts = EntryCounts::default();
        self
    }

    /// The findings so far.
    pub fn findings(&self) -> &Findings {
        &self.ctx.findings
    }
}

/// A commitment is 64 lowercase hex characters; seats and other values are not.
fn looks_like_commitment(value: &str) -> bool {
    value.len() == 64
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}
