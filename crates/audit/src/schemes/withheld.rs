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

use crate::context::Context;
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
