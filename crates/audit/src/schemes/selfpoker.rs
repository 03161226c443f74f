//! `selfpoker` and the hands of `selfpoker_v2` (docs/spec.md §9, §16.7): each
//! hand's commit is logged before the hand and its seed revealed at the hand's
//! end, so a table's next hand must find the last one revealed.
//!
//! - commitment `[table?, hand]`: `[commit]`
//! - reveal `[table?, hand]`: `[seed]` (decimal, below 2^63)
//!
//! Without the table id a hand is only checked against its commitment: the
//! log then cannot show which hand came next at its table.

use std::collections::HashMap;

use crate::entry::{Entry, Kind};
use fairseed_core::selfpoker::{commit, deck, MAX_SEED};

use super::dice::parse_digits;
use super::name;
use crate::context::{Context, GRACE_MS};
use crate::finding::FindingKind;
use crate::time::rfc3339;

#[derive(Debug, Clone)]
struct Hand {
    leaf: u64,
    time_ms: u64,
    commit: String,
    /// The entry of the table's next hand.
    next: Option<(u64, u64, String)>,
}

/// `(scheme, table or "", hand)`.
fn key(entry: &Entry) -> (String, String, String) {
    let (table, hand) = match entry.ids.as_slice() {
        [table, hand] => (table.clone(), hand.clone()),
        [hand] => (String::new(), hand.clone()),
        _ => (String::new(), String::new()),
    };
    (entry.scheme.clone(), table, hand)
}

/// The `selfpoker` checker.
#[derive(Debug, Default)]
pub struct Selfpoker {
    /// Open hands by `(scheme, table, hand)`.
    hands: HashMap<(String, String, String), Hand>,
    /// Each table's newest hand.
    current: HashMap<(String, String), String>,
}

impl Selfpoker {
    /// Hands still open.
    pub fn open(&self) -> u64 {
        self.hands.len() as u64
    }

    /// Checks one entry of a selfpoker hand.
    pub fn entry(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) {
        let checked = match (entry.kind, entry.ids.len()) {
            (_, 1 | 2) if entry.values.len() != 1 => Err(format!(
                "{}: {} values, expected 1",
                name(entry),
                entry.values.len()
            )),
            (Kind::Commitment, 1 | 2) => self.commit(ctx, leaf, entry),
            (Kind::Reveal, 1 | 2) => self.reveal(ctx, leaf, entry),
            (Kind::Outcome, _) => Err(format!("{}: selfpoker logs no outcomes", name(entry))),
            _ => Err(format!(
                "{}: {} ids, expected [table?, hand]",
                name(entry),
                entry.ids.len()
            )),
        };
        if let Err(message) = checked {
            ctx.find(FindingKind::BadEntry, leaf, message);
        }
    }

    fn commit(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) -> Result<(), String> {
        let key = key(entry);
        if self.hands.contains_key(&key) {
            ctx.find(
                FindingKind::DuplicateCommitment,
                leaf,
                format!("{} committed twice", name(entry)),
            );
            return Ok(());
        }
        let table = (key.0.clone(), key.1.clone());
        let known_table = entry.ids.len() == 2;
        if let Some(previous) = known_table
            .then(|| self.current.insert(table.clone(), key.2.clone()))
            .flatten()
        {
            if let Some(old) = self.hands.get_mut(&(table.0, table.1, previous)) {
                old.next = Some((leaf, entry.time_ms, key.2.clone()));
            }
        }
        self.hands.insert(
            key,
            Hand {
                leaf,
                time_ms: entry.time_ms,
                commit: entry.values[0].clone(),
                next: None,
            },
        );
        Ok(())
    }

    fn reveal(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) -> Result<(), String> {
        let key = key(entry);
        let Some(hand) = self.hands.remove(&key) else {
            ctx.find(
                FindingKind::UnexpectedReveal,
                leaf,
                format!(
                    "{} revealed but not open (never committed, or revealed before)",
                    name(entry)
                ),
            );
            return Ok(());
        };
        let table = (key.0, key.1);
        if self.current.get(&table) == Some(&key.2) {
            self.current.remove(&table);
        }
        let seed: u64 = parse_digits(&entry.values[0])
            .filter(|s| *s <= MAX_SEED)
            .ok_or_else(|| {
                format!(
                    "{}: the seed is not a decimal integer below 2^63",
                    name(entry)
                )
            })?;
        if !fairseed_core::ct_eq(commit(seed).as_bytes(), hand.commit.as_bytes()) {
            ctx.find(
                FindingKind::RevealMismatch,
                leaf,
                format!(
                    "{}: sha256(\"selfpoker:\" + seed) is not the commit of entry {}",
                    name(entry),
                    hand.leaf
                ),
            );
            return Ok(());
        }
        ctx.stats.deal(&deck(seed));
        Ok(())
    }

    /// A hand still open when its table's next hand was committed is overdue.
    pub fn finish(&mut self, ctx: &mut Context) {
        let now = ctx.now_ms;
        let mut overdue: Vec<_> = self
            .hands
            .iter()
            .filter(|(_, h)| h.next.as_ref().is_some_and(|n| now > n.1 + GRACE_MS))
            .collect();
        overdue.sort_by_key(|(_, h)| h.leaf);
        let found: Vec<_> = overdue
            .into_iter()
            .filter_map(|((scheme, table, id), h)| {
                let (next_leaf, _, next) = h.next.as_ref()?;
                Some((h.leaf, format!(
                    "{scheme} hand {id} of table {table} committed at {} never revealed, though the table's next hand {next} started at entry {next_leaf}",
                    rfc3339(h.time_ms)
                )))
            })
            .collect();
        for (leaf, message) in found {
            ctx.find(FindingKind::Overdue, leaf, message);
        }
    }
}
