//! A table's finished hands, read a page at a time
//! (`GET /v1/holdem/tables/{id}/hands?after=&limit=`): at most
//! [`MAX_HANDS_PER_PAGE`] hands, found by reading at most [`MAX_SCAN`] log
//! messages from the cursor on, so one read costs the same on a table of
//! ten hands or ten thousand.

use std::collections::HashMap;

use fairseed_holdem::HandRecord;
use fairseed_store::{folded_records, LogRow, RecordReader, RoundRow};
use serde_json::Value;

use crate::error::ApiError;
use crate::state::AppState;

use super::{hand_records, record_json};

/// Hands a page holds at most.
pub const MAX_HANDS_PER_PAGE: usize = 100;

/// Hands a page holds unless `limit` says otherwise.
pub const DEFAULT_HANDS_PER_PAGE: usize = 20;

/// Log messages one page reads at most (a hand takes about twenty).
pub const MAX_SCAN: u64 = 4096;

/// Pages read at once in this process; more wait their turn, so a crowd
/// of history readers holds at most this many pages in memory and leaves
/// the runtime's workers to everything else. Fewer than SQLite's four
/// reader connections: pages read one after another through them, and
/// with all four taken every other read (`/healthz`, a bet's lookups)
/// would queue behind a page.
pub const MAX_PAGES_AT_ONCE: usize = 2;

/// The permits of [`MAX_PAGES_AT_ONCE`].
static PAGES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(MAX_PAGES_AT_ONCE);

/// Waits for one of the [`MAX_PAGES_AT_ONCE`] turns; held while a page is
/// read and answered.
///
/// # Errors
/// Never in practice (the semaphore is never closed).
pub async fn turn() -> Result<tokio::sync::SemaphorePermit<'static>, ApiError> {
    PAGES
        .acquire()
        .await
        .map_err(|_| ApiError::internal("the history readers' semaphore closed"))
}

/// Log messages read per store call.
const CHUNK: u64 = 256;

/// One page: the hands' records and numbers, and where the next page
/// starts (`None`: the log's end was reached).
pub struct Page {
    /// The records, oldest first.
    pub hands: Vec<Value>,
    /// Their hand numbers.
    pub numbers: Vec<u64>,
    /// The `after` of the next page.
    pub next_after: Option<u64>,
}

/// The finished hands of `row`'s table after `seq` `after`, at most `limit`.
/// An archived table's earlier hands are read from their records, which
/// hold what each hand's end held and the session secret, as the page shows
/// it: its log names each record at its hand's end (`drive::archive`), and
/// its other folded messages held no hand, so the page and its cursor are
/// the same.
///
/// # Errors
/// The store failed, or a stored message does not parse.
pub async fn page(
    state: &AppState,
    row: &RoundRow,
    after: u64,
    limit: usize,
) -> Result<Page, ApiError> {
    let end = row.log_len;
    let stop = end.min(after.saturating_add(MAX_SCAN));
    let revealed = row.revealed.as_deref();
    let mut at = after.min(end);
    let mut found = Vec::new();
    'read: while at < stop {
        let want = u32::try_from((stop - at).min(CHUNK)).unwrap_or(1);
        let log = state.store().round_log(&row.id, at, want).await?;
        if log.is_empty() {
            at = stop;
            break;
        }
        for message in log {
            for (seq, hand) in ends(message, at, revealed)? {
                if seq >= stop {
                    at = stop;
                    break 'read;
                }
                // The log's index N holds `seq` N + 1.
                at = seq + 1;
                found.extend(hand);
                if found.len() >= limit {
                    break 'read;
                }
            }
        }
    }
    let records = with_stored(state, found).await?;
    Ok(Page {
        numbers: records.iter().map(|record| record.hand).collect(),
        hands: records.iter().map(record_json).collect::<Result<_, _>>()?,
        next_after: (at < end).then_some(at),
    })
}

/// A hand a page holds: read from its log message, or still to be read
/// from its stored record (an archived table's folded hand).
enum Found {
    Read(Box<HandRecord>),
    Stored(i64),
}

/// The places `message` stands for from index `at` on, with their indexes
/// and the hand each ends, if any (with the session secret once
/// `revealed`): the message itself, or the hands' ends a folded row names.
fn ends(
    message: LogRow,
    at: u64,
    revealed: Option<&str>,
) -> Result<Vec<(u64, Option<Found>)>, ApiError> {
    match folded_records(&message.body) {
        Some(folded) => Ok(folded
            .into_iter()
            .filter(|&(seq, _)| seq >= at)
            .map(|(seq, id)| (seq, Some(Found::Stored(id))))
            .collect()),
        None => {
            let hand = hand_records(&[message.body], revealed)?
                .pop()
                .map(|(record, _)| Found::Read(Box::new(record)));
            Ok(vec![(message.seq, hand)])
        }
    }
}

/// The page's hands in order, the stored ones read in one call.
async fn with_stored(state: &AppState, found: Vec<Found>) -> Result<Vec<HandRecord>, ApiError> {
    let ids: Vec<i64> = found
        .iter()
        .filter_map(|hand| match hand {
            Found::Stored(id) => Some(*id),
            Found::Read(_) => None,
        })
        .collect();
    let mut stored: HashMap<i64, String> = if ids.is_empty() {
        HashMap::new()
    } else {
        let rows = state
            .store()
            .records_with_ids(RecordReader::Operator, ids)
            .await?;
        rows.into_iter().map(|row| (row.id, row.body)).collect()
    };
    found
        .into_iter()
        .map(|hand| match hand {
            Found::Read(record) => Ok(*record),
            Found::Stored(id) => {
                let body = stored.remove(&id).ok_or_else(|| {
                    ApiError::internal(format!("the hold'em hand record {id} is missing"))
                })?;
                serde_json::from_str(&body)
                    .map_err(|e| ApiError::internal(format!("a hold'em hand record: {e}")))
            }
        })
        .collect()
}

/// `limit` as asked, or the default; `invalid_field` outside 1 to the maximum.
///
/// # Errors
/// Out of range.
pub fn limit(asked: Option<usize>) -> Result<usize, ApiError> {
    match asked {
        None => Ok(DEFAULT_HANDS_PER_PAGE),
        Some(n) if (1..=MAX_HANDS_PER_PAGE).contains(&n) => Ok(n),
        Some(n) => Err(ApiError::invalid(
            "limit",
            format!("{n} hands, expected 1 to {MAX_HANDS_PER_PAGE}"),
        )),
    }
}
