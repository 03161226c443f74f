//! How many live tables may be open: per player who opened them
//! (`--holdem-max-tables-per-player`, `429 too_many_tables`) and in all
//! (`--holdem-max-tables`, `409 tables_full`), checked before a table opens.
//! The operator lists and closes tables (`/v1/operator/holdem/tables`).
//!
//! The count in all is the store's (every process's open tables); the count
//! per player is this process's, of the tables opened through it and not yet
//! archived, as the rate limits are per process.

use axum::http::StatusCode;

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;

use super::rows;

/// Whether `player` may open one more table.
///
/// # Errors
/// `429 too_many_tables` over the player's cap, `409 tables_full` over the
/// cap in all, or the store failed.
pub async fn check_open(state: &AppState, player: i64) -> Result<(), ApiError> {
    let caps = state.holdem().caps();
    if caps.per_player > 0 && state.holdem().opened_by(player) >= caps.per_player {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooManyTables,
            format!(
                "you have {} hold'em tables open, the most one player may; leave or let one close first",
                caps.per_player
            ),
        ));
    }
    if caps.in_all > 0 {
        let open = state
            .store()
            .rounds_with_status(rows::KIND, rows::OPEN)
            .await?
            .len();
        if open >= caps.in_all {
            return Err(ApiError::conflict(
                ErrorCode::TablesFull,
                format!("{open} hold'em tables are open, the most this service runs; try later"),
            ));
        }
    }
    Ok(())
}

/// One table as the operator's list shows it.
#[derive(Debug, serde::Serialize)]
pub struct Listed {
    /// The table's id.
    pub table_id: String,
    /// `open`, or `closed` (its session ended; archived soon).
    pub status: String,
    /// Messages in its log (its `seq`).
    pub seq: u64,
    /// The player who opened it, when it was opened through this process.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opened_by: Option<i64>,
}

/// Every table not yet archived.
///
/// # Errors
/// The store failed.
pub async fn list(state: &AppState) -> Result<Vec<Listed>, ApiError> {
    let opened = state.holdem().opened_snapshot();
    let mut out = Vec::new();
    for status in [rows::OPEN, rows::CLOSED] {
        for id in state.store().rounds_with_status(rows::KIND, status).await? {
            let Some(table) = id.strip_prefix(rows::PREFIX) else {
                continue;
            };
            let row = match super::row(state, table).await {
                Ok(row) => row,
                // Archived meanwhile.
                Err(e) if e.is(ErrorCode::NOT_FOUND) => continue,
                Err(e) => return Err(e),
            };
            out.push(Listed {
                table_id: table.to_owned(),
                status: row.status,
                seq: row.log_len,
                opened_by: opened.get(table).copied(),
            });
        }
    }
    Ok(out)
}

/// Closes `table` now, as its idle limit would: the people seated leave,
/// the session secret is revealed and the hands are archived.
///
/// # Errors
/// `404` for no such table, `409 hand_running` while a hand is played and
/// `409 round_open` while the next hand's round is open (close again once
/// it ended: a close is never a veto on a hand), `409 table_closed` once
/// closed.
pub async fn close(state: &AppState, table: &str) -> Result<u64, ApiError> {
    super::drive::handle(
        state,
        table,
        None,
        fairseed_holdem::live::machine::Input::Close,
    )
    .await
}
