//! Every other scheme (`match_seed_v2`, `match_seed_v1`, `chess_colour_v1`, a
//! `selfpoker_v2` session named by one id, schemes added later): a commitment entry and the
//! reveal entry with the same scheme and ids pair up. For the §2.2 schemes
//! each revealed value must hash to the committed value at the same position
//! (a `-`, a bot's missing commitment, is skipped); other schemes are only
//! paired. These have no rotation policy the log can see.
//!
//! - commitment `[ids...]`: `[commitment...]`
//! - reveal `[ids...]`: `[server_seed...]`

use std::collections::hash_map::Entry as Slot;
use std::collections::HashMap;

use crate::entry::{Entry, Kind};
use fairseed_core::{Commitment, ServerSeed};

use super::name;
use crate::context::Context;
use crate::finding::FindingKind;

/// Schemes whose reveals are `sha256(server_seed)` commitments (§2.2; a
/// `selfpoker_v2` session secret, §17.1).
const SHA256_SCHEMES: [&str; 5] = [
    "match_seed_v2",
    "match_seed_v1",
    "chess_colour_v1",
    "selfpoker_v2",
    "selfpoker_v3",
];

#[derive(Debug, Clone)]
struct Open {
    leaf: u64,
    values: Vec<String>,
}

/// The checker of schemes without their own.
#[derive(Debug, Default)]
pub struct Generic {
    open: HashMap<(String, Vec<String>), Open>,
}

impl Generic {
    /// Commitments still open.
    pub fn open(&self) -> u64 {
        self.open.len() as u64
    }

    /// Pairs a commitment or a reveal.
    pub fn entry(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) {
        let key = (entry.scheme.clone(), entry.ids.clone());
        match entry.kind {
            Kind::Commitment => match self.open.entry(key) {
                Slot::Occupied(_) => ctx.find(
                    FindingKind::DuplicateCommitment,
                    leaf,
                    format!("{} committed twice", name(entry)),
                ),
                Slot::Vacant(slot) => {
                    slot.insert(Open {
                        leaf,
                        values: entry.values.clone(),
                    });
                }
            },
            // Outcomes are the dice's; nothing else logs one yet.
            Kind::Outcome => {}
            Kind::Reveal => match self.open.remove(&key) {
                None => ctx.find(
                    FindingKind::UnexpectedReveal,
                    leaf,
                    format!(
                        "{} revealed but not open (never committed, or revealed before)",
                        name(entry)
                    ),
                ),
                Some(open)
                    if entry.scheme.starts_with("selfpoker_v") && entry.values.len() == 2 =>
                {
                    session_end(ctx, leaf, entry, &open)
                }
                Some(open) if SHA256_SCHEMES.contains(&entry.scheme.as_str()) => {
                    check_sha256(ctx, leaf, entry, &open)
                }
                Some(_) => {}
            },
        }
    }

    /// Nothing is due: these schemes reveal when a match ends, which the log does not show.
    pub fn finish(&mut self, _ctx: &mut Context) {}
}

/// The reasons a `selfpoker_v2` session may end: its policy (docs/spec.md §17.4).
const SESSION_POLICY: [&str; 3] = ["table_empty", "table_idle", "table_unjoined"];

/// A `selfpoker_v2` session's end: its secret against the commitment, and
/// its reason, which must be one of the policy's; any other is the house
/// ending a session when it chose, and is reported.
fn session_end(ctx: &mut Context, leaf: u64, entry: &Entry, open: &Open) {
    let secret = Entry {
        values: entry.values[..1].to_vec(),
        ..entry.clone()
    };
    check_sha256(ctx, leaf, &secret, open);
    let reason = &entry.values[1];
    if !SESSION_POLICY.contains(&reason.as_str()) {
        ctx.find(
            FindingKind::EarlyEnd,
            leaf,
            format!(
                "{} ended before its policy: reason {reason:?}, expected one of {}",
                name(entry),
                SESSION_POLICY.join(", ")
            ),
        );
    }
}

fn check_sha256(ctx: &mut Context, leaf: u64, entry: &Entry, open: &Open) {
    if entry.values.len() != open.values.len() {
        ctx.find(
            FindingKind::BadEntry,
            leaf,
            format!(
                "{}: {} revealed values for {} commitments",
                name(entry),
                entry.values.len(),
                open.values.len()
            ),
        );
        return;
    }
    for (i, (seed, committed)) in entry.values.iter().zip(&open.values).enumerate() {
        if committed == "-" {
            continue;
        }
        let matches = match (
            ServerSeed::parse_field(seed, "seed"),
            Commitment::parse_field(committed, "commitment"),
        ) {
            (Ok(seed), Ok(c)) => c.matches(&seed),
            _ => false,
        };
        if !matches {
            ctx.find(
                FindingKind::RevealMismatch,
                leaf,
                format!(
                    "{}: revealed value {i} does not hash to the commitment of entry {}",
                    name(entry),
                    open.leaf
                ),
            );
        }
    }
}
