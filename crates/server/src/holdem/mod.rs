//! Live hold'em tables (`fairseed_holdem::live`): one versioned round per
//! table ([`rows`]), a task per table driving its AIs, its clock and its
//! deals ([`drive`]), and a WebSocket per viewer ([`ws`]).
//!
//! Every change is a step on the table's round (compare-and-swap, retried
//! on a lost race) whose public messages are appended to the round's log,
//! so a message's `seq` is its place in the log and a viewer resumes from
//! any `seq`. After each commit a `{"seq": N}` notice goes out on the
//! table's topic (`holdem:<T>`, across processes on PostgreSQL); each
//! viewer then reads the log and the table and sends its own view. No card
//! and no seed ever travels in a notice.
//!
//! The process that opened a table, or took it over through its lease
//! (`holdem_table:<T>`), drives it; any process serves its viewers.

pub mod caps;
mod drive;
pub mod hands;
pub mod rows;
pub mod ws;

pub use drive::{hand_records, load, row};

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use fairseed_holdem::live::driver::Timing;
use fairseed_store::LeaseGrant;

use crate::error::ApiError;
use crate::fleet::now_ms;
use crate::state::AppState;

/// The tables this process drives, and their pace.
#[derive(Debug)]
pub struct Tables {
    timing: Timing,
    driven: Mutex<HashSet<String>>,
    caps: caps::Caps,
    /// Table → the player who opened it through this process, until archived.
    opened: Mutex<HashMap<String, i64>>,
}

impl Tables {
    /// No table driven yet.
    pub fn new(timing: Timing) -> Self {
        Self {
            timing,
            driven: Mutex::new(HashSet::new()),
            caps: caps::Caps::default(),
            opened: Mutex::new(HashMap::new()),
        }
    }

    /// The same with `caps` on how many tables may be open.
    pub fn with_caps(self, caps: caps::Caps) -> Self {
        Self { caps, ..self }
    }

    /// The caps on open tables.
    pub fn caps(&self) -> caps::Caps {
        self.caps
    }

    /// Notes that `player` opened `table` through this process.
    pub fn opened(&self, table: &str, player: i64) {
        if let Ok(mut opened) = self.opened.lock() {
            opened.insert(table.to_owned(), player);
        }
    }

    /// Table → who opened it, for the tables opened through this process.
    pub fn opened_snapshot(&self) -> HashMap<String, i64> {
        self.opened.lock().map(|o| o.clone()).unwrap_or_default()
    }

    /// Tables `player` opened through this process, not yet archived.
    pub fn opened_by(&self, player: i64) -> usize {
        self.opened
            .lock()
            .map(|o| o.values().filter(|&&p| p == player).count())
            .unwrap_or(0)
    }

    /// The AI delay and the pause between hands.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Marks `table` driven here; `false` if it already was.
    fn start(&self, table: &str) -> bool {
        self.driven
            .lock()
            .map(|mut d| d.insert(table.to_owned()))
            .unwrap_or(false)
    }

    fn stop(&self, table: &str) {
        if let Ok(mut d) = self.driven.lock() {
            d.remove(table);
        }
        if let Ok(mut o) = self.opened.lock() {
            o.remove(table);
        }
    }
}

/// Takes `table`'s lease and drives it from this process, unless another
/// live process holds the lease or this one drives it already.
///
/// # Errors
/// The store failed.
pub async fn claim_and_drive(state: &AppState, table: &str) -> Result<(), ApiError> {
    let fleet = state.fleet();
    let grant = state
        .store()
        .acquire_lease(
            &rows::round_id(table),
            fleet.owner(),
            now_ms(),
            fleet.ttl_ms(),
        )
        .await?;
    match grant {
        LeaseGrant::HeldBy(owner) => {
            tracing::debug!(table, owner, "a hold'em table driven by another process");
        }
        LeaseGrant::Granted { took_over_from } => {
            if let Some(gone) = took_over_from {
                tracing::info!(
                    table,
                    gone,
                    "took over a hold'em table whose process is gone"
                );
            }
            if state.holdem().start(table) {
                drive::spawn(state.clone(), table.to_owned());
            }
        }
    }
    Ok(())
}

/// Drives every table still open (or closed but not yet archived) whose
/// lease is free, expired or this process's own: at start, then three
/// times per lease lifetime (the fleet heartbeat renews the leases).
pub fn spawn_sweep(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let third = u64::try_from(state.fleet().ttl_ms() / 3).unwrap_or(1);
        loop {
            if let Err(e) = sweep(&state).await {
                tracing::warn!(code = e.code(), "looking for hold'em tables to drive");
            }
            tokio::time::sleep(Duration::from_millis(third.max(1))).await;
        }
    })
}

async fn sweep(state: &AppState) -> Result<(), ApiError> {
    for status in [rows::OPEN, rows::CLOSED] {
        for id in state.store().rounds_with_status(rows::KIND, status).await? {
            if let Some(table) = id.strip_prefix(rows::PREFIX) {
                claim_and_drive(state, table).await?;
            }
        }
    }
    Ok(())
}
