//! The names of the entries a view shows (docs/spec.md §16.5): a view that
//! shows a commitment, or the secret behind one, carries the receipts of
//! the entries the store queued under these names when it first showed it.

use fairseed_store::{log_entry_name, RoundRow};
use fairseed_tlog::EntryKind;

/// The name of the commitment entry named by `ids`.
pub fn commitment(ids: &[&str]) -> Vec<String> {
    named(EntryKind::Commitment, ids)
}

/// The name of the reveal entry named by `ids`.
pub fn reveal(ids: &[&str]) -> Vec<String> {
    named(EntryKind::Reveal, ids)
}

fn named(kind: EntryKind, ids: &[&str]) -> Vec<String> {
    log_entry_name(kind, ids).into_iter().collect()
}

/// A round's commitment and, once revealed, its reveal (each named by the
/// round id, as `fairseed_store` queues them).
pub fn round<'a>(rows: impl IntoIterator<Item = &'a RoundRow>) -> Vec<String> {
    rows.into_iter()
        .flat_map(|row| {
            let mut names = commitment(&[&row.id]);
            if row.revealed.is_some() {
                names.extend(reveal(&[&row.id]));
            }
            names
        })
        .collect()
}
