//! What the scheme checkers share: where findings go, the statistics
//! gathered, the log's own clock and the commitments already shown.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use crate::finding::{Finding, FindingKind, Findings};
use crate::stats::{Rtp, Series};

/// Slack on every deadline: the log sequences in batches of about a second,
/// and a rotation's reveal and the next commitment may land in either order.
pub const GRACE_MS: u64 = 60_000;

/// Statistics gathered while checking.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Recomputed dice rolls, by value 0..=9999.
    pub rolls: Box<[u64; 10_000]>,
    /// Revealed deals: `cards[position * 52 + card]`.
    pub cards: Box<[u64; 52 * 52]>,
    /// Returns to player of settled dice bets.
    pub rtp: Rtp,
    /// `(bets settled, paid / staked so far)` for the plot.
    pub rtp_series: Series,
}

impl Default for Stats {
    fn default() -> Self {
        Self {
            rolls: Box::new([0; 10_000]),
            cards: Box::new([0; 52 * 52]),
            rtp: Rtp::default(),
            rtp_series: Series::default(),
        }
    }
}

impl Stats {
    /// Counts one deck of 52 card ids by position.
    pub fn deal(&mut self, deck: &[u8; 52]) {
        for (position, &card) in deck.iter().enumerate() {
            self.cards[position * 52 + usize::from(card % 52)] += 1;
        }
    }
}

/// What the scheme checkers share: where findings go, the statistics, the log's clock.
#[derive(Debug, Default)]
pub struct Context {
    /// Findings so far.
    pub findings: Findings,
    /// Statistics so far.
    pub stats: Stats,
    /// The latest entry time seen (the log's own clock, for deadlines).
    pub now_ms: u64,
    /// Commitment fingerprints: first 16 bytes of SHA-256 of the value, to its leaf.
    commitments: HashMap<[u8; 16], u64>,
}

impl Context {
    /// Records a finding at `leaf`.
    pub fn find(&mut self, kind: FindingKind, leaf: u64, message: impl Into<String>) {
        self.findings.push(Finding::at(kind, leaf, message));
    }

    /// Records a finding about an entry as a whole.
    pub fn find_log(&mut self, kind: FindingKind, message: impl Into<String>) {
        self.findings.push(Finding::new(kind, message));
    }

    /// Remembers a commitment value shown at `leaf`; a value shown before is a finding.
    /// `what` names it in the finding ("dice seed pair p1's commitment").
    pub fn commitment_seen(&mut self, leaf: u64, value: &str, what: &str) {
        let fingerprint = fingerprint(value.as_bytes());
        if let Some(&first) = self.commitments.get(&fingerprint) {
            self.find(
                FindingKind::DuplicateCommitment,
                leaf,
                format!("{what} {value} was already committed at entry {first}"),
            );
        } else {
            self.commitments.insert(fingerprint, leaf);
        }
    }
}

/// 128 bits of SHA-256: a false match among 10^9 values has probability below 10^-20.
fn fingerprint(bytes: &[u8]) -> [u8; 16] {
    let digest = Sha256::digest(bytes);
    let mut out = [0; 16];
    out.copy_from_slice(&digest[..16]);
    out
}
