//! A table's finished hands, read a page at a time
//! (`GET /v1/holdem/tables/{id}/hands?after=&limit=`): at most
//! [`MAX_HANDS_PER_PAGE`] hands, found by reading at most [`MAX_SCAN`] log
//! messages from the cursor on, so one read costs the same on a table of
//! ten hands or ten thousand.

use fairseed_holdem::HandRecord;
use fairseed_store::{folded_record, RecordReader, RoundRow};
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
/// A hand whose end an archived table folded into its record
/// (`drive::archive`) is read from that record, which holds what the end
/// held and the session secret, as the page shows it; the log's other
/// folded messages held no hand, so the page and its cursor are the same.
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
    let mut hands = Vec::new();
    let mut numbers = Vec::new();
    'read: while at < stop {
        let want = u32::try_from((stop - at).min(CHUNK)).unwrap_or(1);
        let log = state.store().round_log(&row.id, at, want).await?;
        if log.is_empty() {
            at = stop;
            break;
        }
        for message in log {
            if message.seq >= stop {
                at = stop;
                break 'read;
            }
            // The log's index N holds `seq` N + 1.
            at = message.seq + 1;
            for record in hands_of(state, &message.body, revealed).await? {
                numbers.push(record.hand);
                hands.push(record_json(&record)?);
            }
            if hands.len() >= limit {
                break 'read;
            }
        }
    }
    Ok(Page {
        hands,
        numbers,
        next_after: (at < end).then_some(at),
    })
}

/// The hand a log message ends, if any: from the message, or from the
/// record it was folded into.
async fn hands_of(
    state: &AppState,
    body: &str,
    revealed: Option<&str>,
) -> Result<Vec<HandRecord>, ApiError> {
    let Some(id) = folded_record(body) else {
        let ended = hand_records(std::slice::from_ref(&body.to_owned()), revealed)?;
        return Ok(ended.into_iter().map(|(record, _)| record).collect());
    };
    let stored = state.store().record(RecordReader::Operator, id).await?;
    let record = serde_json::from_str(&stored.body)
        .map_err(|e| ApiError::internal(format!("a hold'em hand record: {e}")))?;
    Ok(vec![record])
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
