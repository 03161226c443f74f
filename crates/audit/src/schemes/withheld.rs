//! Withheld reveals at `selfpoker_v3` tables (docs/spec.md §20.6): a seat
//! that committed to a per-hand value and did not reveal it was dealt out of
//! that hand, and the house may thereby have chosen between two decks. The
//! policy allows it (a browser can fail), so it is not an error of the log,
//! but a player who distrusts the house wants every one shown and, per
//! seat, how often: each withheld reveal is a finding, and at the end each
//! seat that withheld gets one saying in how many of its table's hands.
//!
//! What became of the round says what a withheld reveal cost: the hand was
//! dealt without the seat (the hand's commitment follows), or the round
//! ended without a hand and ran again (`no_hand` follows); the finding is
//! worded once the log says which.
//!
//! - outcome `[table, hand]`: `["withheld", seat]`
//! - outcome `[table, hand]`: `["not_committed", seat]`, `["no_hand", why]`
//!   (the round's other ends, §20.6: checked for form, not findings)
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

/// The first value of a round's seat that did not commit in time.
pub const NOT_COMMITTED: &str = "not_committed";
/// The first value of a round that ended without its hand.
pub const NO_HAND: &str = "no_hand";
/// The first value of a round as it opens (the table clock's checker reads it).
pub const ROUND_OPENED: &str = "round_opened";
/// Why a round ended without its hand, as the table logs it.
const NO_HAND_WHYS: [&str; 2] = ["nobody_committed", "too_few_ready"];

/// Whether `entry` is one of a round's ends: a seat that withheld its
/// per-hand value or did not commit, or a round without its hand.
pub fn is_round_end(entry: &Entry) -> bool {
    entry.scheme == SCHEME
        && entry.kind == Kind::Outcome
        && matches!(
            entry.values.first().map(String::as_str),
            Some(WITHHELD | NOT_COMMITTED | NO_HAND | ROUND_OPENED)
        )
}

/// A withheld reveal whose round's end the log has not said yet.
#[derive(Debug)]
struct Pending {
    leaf: u64,
    seat: String,
}

/// The withheld-reveal counter.
#[derive(Debug, Default)]
pub struct Withheld {
    /// The hands committed at each table.
    hands: BTreeMap<String, BTreeSet<String>>,
    /// How many hands each `(table, seat)` withheld in.
    withheld: BTreeMap<(String, String), u64>,
    /// `(table, hand)` → its withheld reveals not yet reported.
    pending: BTreeMap<(String, String), Vec<Pending>>,
}

impl Withheld {
    /// Counts a `selfpoker_v3` hand's commitment: its withheld seats were
    /// dealt out of it.
    pub fn hand(&mut self, ctx: &mut Context, entry: &Entry) {
        if let (Kind::Commitment, [table, hand]) = (entry.kind, entry.ids.as_slice()) {
            self.hands
                .entry(table.clone())
                .or_default()
                .insert(hand.clone());
            self.report(ctx, table, hand, "the hand was dealt without it");
        }
    }

    /// One of a round's ends ([`is_round_end`]).
    pub fn entry(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) {
        if entry.values.first().map(String::as_str) == Some(ROUND_OPENED) {
            return;
        }
        let ([table, hand], [what, detail]) = (entry.ids.as_slice(), entry.values.as_slice())
        else {
            ctx.find(
                FindingKind::BadEntry,
                leaf,
                format!(
                    "{}: a round's end names [table, hand] and [\"withheld\" or \"not_committed\", seat] or [\"no_hand\", why]",
                    name(entry)
                ),
            );
            return;
        };
        match what.as_str() {
            WITHHELD => {
                *self
                    .withheld
                    .entry((table.clone(), detail.clone()))
                    .or_default() += 1;
                let pending = Pending {
                    leaf,
                    seat: detail.clone(),
                };
                self.pending
                    .entry((table.clone(), hand.clone()))
                    .or_default()
                    .push(pending);
                if self.hands.get(table).is_some_and(|h| h.contains(hand)) {
                    self.report(ctx, table, hand, "the hand was dealt without it");
                }
            }
            NO_HAND if NO_HAND_WHYS.contains(&detail.as_str()) => {
                let words = format!(
                    "no hand was dealt in that round ({}), and the round ran again",
                    detail.replace('_', " ")
                );
                self.report(ctx, table, hand, &words);
            }
            NO_HAND => ctx.find(
                FindingKind::BadEntry,
                leaf,
                format!(
                    "{}: a round without its hand says why: one of {}",
                    name(entry),
                    NO_HAND_WHYS.join(", ")
                ),
            ),
            _ => {}
        }
    }

    /// Reports the withheld reveals of `table`'s hand `hand`, ending with
    /// what became of the round (`then`).
    fn report(&mut self, ctx: &mut Context, table: &str, hand: &str, then: &str) {
        let key = (table.to_owned(), hand.to_owned());
        for p in self.pending.remove(&key).unwrap_or_default() {
            ctx.find(
                FindingKind::WithheldReveal,
                p.leaf,
                format!(
                    "table {table}, hand {hand}: seat {} committed to a per-hand value and withheld it; {then}",
                    p.seat
                ),
            );
        }
    }

    /// Each withheld reveal not yet reported, then one finding per seat
    /// that withheld: how often, of its table's hands.
    pub fn finish(&mut self, ctx: &mut Context) {
        let keys: Vec<(String, String)> = self.pending.keys().cloned().collect();
        for (table, hand) in keys {
            let then = "the log shows neither the hand nor the round's end";
            self.report(ctx, &table, &hand, then);
        }
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
    fn a_round_without_its_hand_says_so_and_its_other_ends_are_no_findings() {
        let mut checker = Checker::new();
        let ids = ["t1", "5"];
        let entries = [
            entry(Kind::Outcome, &ids, &["not_committed", "0"]),
            entry(Kind::Outcome, &ids, &["withheld", "2"]),
            entry(Kind::Outcome, &ids, &["no_hand", "too_few_ready"]),
            entry(Kind::Outcome, &ids, &["no_hand", "nobody_committed"]),
        ];
        for (leaf, e) in entries.iter().enumerate() {
            checker.entry(leaf as u64, e);
        }
        let (_, findings) = checker.finish();
        let found: Vec<String> = findings.first.iter().map(ToString::to_string).collect();
        assert_eq!(
            found,
            [
                "entry 1: table t1, hand 5: seat 2 committed to a per-hand value and withheld it; no hand was dealt in that round (too few ready), and the round ran again",
                "table t1: seat 2 withheld its per-hand value 1 time (0 hands logged at the table)",
            ]
        );
        let mut checker = Checker::new();
        checker.entry(0, &entry(Kind::Outcome, &ids, &["no_hand", "closed"]));
        assert_eq!(checker.finish().1.first[0].kind, FindingKind::BadEntry);
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
