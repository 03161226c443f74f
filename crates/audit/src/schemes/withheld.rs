//! Withheld reveals at `selfpoker_v3` tables (docs/spec.md §20.6): a seat
//! that committed to a per-hand value and did not reveal it was dealt out of
//! that hand, and the house may thereby have chosen between two decks. The
//! policy allows it (a browser can fail), so it is not an error of the log,
//! but a player who distrusts the house wants every one shown and, per
//! seat, how often: each withheld reveal is a finding, and at the end each
//! seat that withheld gets one saying in how many of its table's hands.
//!
//! - outcome `[table, hand]`: `["withheld", seat]`
//! - commitment `[table, hand]`: `[commit]` (counted: the table's hands)

use std::collections::{BTreeMap, BTreeSet};

use crate::checker::Context;
use crate::entry::{Entry, Kind};
use crate::finding::FindingKind;

use super::name;

/// The scheme whose tables run a round before each hand.
pub const SCHEME: &str = "selfpoker_v3";
/// The first value of a withheld entry.
pub const WITHHELD: &str = "withheld";

/// Whether `entry` names a seat that withheld its per-hand value.
pub fn is_withheld(entry: &Entry) -> bool {
    entry.scheme == SCHEME
        && entry.kind == Kind::Outcome
        && entry.values.first().map(String::as_str) == Some(WITHHELD)
}

/// The withheld-reveal counter.
#[derive(Debug, Default)]
pub struct Withheld {
    /// The hands committed at each table.
    hands: BTreeMap<String, BTreeSet<String>>,
    /// How many hands each `(table, seat)` withheld in.
    withheld: BTreeMap<(String, String), u64>,
}

impl Withheld {
    /// Counts a `selfpoker_v3` hand's commitment.
    pub fn hand(&mut self, entry: &Entry) {
        if let (Kind::Commitment, [table, hand]) = (entry.kind, entry.ids.as_slice()) {
            self.hands
                .entry(table.clone())
                .or_default()
                .insert(hand.clone());
        }
    }

    /// Reports one withheld reveal.
    pub fn entry(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) {
        let ([table, hand], [_, seat]) = (entry.ids.as_slice(), entry.values.as_slice()) else {
            ctx.find(
                FindingKind::BadEntry,
                leaf,
                format!(
                    "{}: a withheld entry names [table, hand] and [\"withheld\", seat]",
                    name(entry)
                ),
            );
            return;
        };
        *self
            .withheld
            .entry((table.clone(), seat.clone()))
            .or_default() += 1;
        ctx.find(
            FindingKind::WithheldReveal,
            leaf,
            format!(
                "table {table}, hand {hand}: seat {seat} committed to a per-hand value and withheld it; the hand was dealt without it"
            ),
        );
    }

    /// One finding per seat that withheld: how often, of its table's hands.
    pub fn finish(&mut self, ctx: &mut Context) {
        for ((table, seat), count) in &self.withheld {
            let hands = self.hands.get(table).map_or(0, BTreeSet::len);
            ctx.findings.push(crate::finding::Finding::new(
                FindingKind::WithheldReveal,
                format!(
                    "table {table}: seat {seat} withheld its per-hand value {count} time{} ({hands} hand{} logged at the table)",
                    if *count == 1 { "" } else { "s" },
                    if hands == 1 { "" } else { "s" },
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::checker::Checker;
    use crate::entry::{Entry, Kind};
    use crate::finding::FindingKind;

    fn entry(kind: Kind, ids: &[&str], values: &[&str]) -> Entry {
        Entry {
            kind,
            time_ms: 1_700_000_000_000,
            scheme: super::SCHEME.into(),
            ids: ids.iter().map(|s| (*s).to_owned()).collect(),
            values: values.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    /// A hand of table `t1`: its commit, its seed, and seat 2 withholding when `held`.
    fn hand(n: u64, held: bool) -> Vec<Entry> {
        let number = n.to_string();
        let ids = ["t1", number.as_str()];
        let commit = fairseed_core::selfpoker::commit(n);
        let mut out = vec![entry(Kind::Commitment, &ids, &[&commit])];
        if held {
            out.push(entry(Kind::Outcome, &ids, &["withheld", "2"]));
        }
        out.push(entry(Kind::Reveal, &ids, &[&number]));
        out
    }

    #[test]
    fn each_withheld_reveal_is_reported_and_counted_per_seat() {
        let mut checker = Checker::new();
        let entries: Vec<Entry> = (1..=4).flat_map(|n| hand(n, n % 2 == 0)).collect();
        for (leaf, e) in entries.iter().enumerate() {
            checker.entry(leaf as u64, e);
        }
        let (_, findings) = checker.finish();
        let found: Vec<String> = findings
            .first
            .iter()
            .map(|f| {
                assert_eq!(f.kind, FindingKind::WithheldReveal, "{f}");
                f.to_string()
            })
            .collect();
        assert_eq!(
            found,
            [
                "entry 3: table t1, hand 2: seat 2 committed to a per-hand value and withheld it; the hand was dealt without it",
                "entry 8: table t1, hand 4: seat 2 committed to a per-hand value and withheld it; the hand was dealt without it",
                "table t1: seat 2 withheld its per-hand value 2 times (4 hands logged at the table)",
            ]
        );
    }

    #[test]
    fn a_log_with_no_withheld_reveal_reports_none() {
        let mut checker = Checker::new();
        for (leaf, e) in (1..=3).flat_map(|n| hand(n, false)).enumerate() {
            checker.entry(leaf as u64, &e);
        }
        assert!(checker.finish().1.is_empty());
    }

    #[test]
    fn a_malformed_withheld_entry_is_a_bad_entry() {
        let mut checker = Checker::new();
        checker.entry(0, &entry(Kind::Outcome, &["t1"], &["withheld", "2"]));
        let (_, findings) = checker.finish();
        assert_eq!(findings.first[0].kind, FindingKind::BadEntry);
    }
}
