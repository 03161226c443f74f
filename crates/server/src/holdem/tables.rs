//! The hold'em tables this process drives: what [`crate::state::AppState`]
//! keeps of them.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use fairseed_holdem::live::driver::Timing;

use crate::limits::TableCaps;

use super::viewers::Viewers;

/// The tables this process drives, and their pace.
#[derive(Debug)]
pub struct Tables {
    timing: Timing,
    driven: Mutex<HashSet<String>>,
    caps: TableCaps,
    /// Table → the player who opened it through this process, until archived.
    opened: Mutex<HashMap<String, i64>>,
    /// The sockets watching each table without a seat there.
    viewers: Viewers,
}

impl Tables {
    /// No table driven yet.
    pub fn new(timing: Timing) -> Self {
        Self {
            timing,
            driven: Mutex::new(HashSet::new()),
            caps: TableCaps::default(),
            opened: Mutex::new(HashMap::new()),
            viewers: Viewers::default(),
        }
    }

    /// The sockets watching tables without a seat, and their caps.
    pub fn viewers(&self) -> &Viewers {
        &self.viewers
    }

    /// The same with `caps` on how many tables may be open.
    pub fn with_caps(self, caps: TableCaps) -> Self {
        Self { caps, ..self }
    }

    /// The caps on open tables.
    pub fn caps(&self) -> TableCaps {
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
    pub(super) fn start(&self, table: &str) -> bool {
        self.driven
            .lock()
            .map(|mut d| d.insert(table.to_owned()))
            .unwrap_or(false)
    }

    /// Forgets `table`: its task ended, and it is no longer open here.
    pub(super) fn stop(&self, table: &str) {
        if let Ok(mut d) = self.driven.lock() {
            d.remove(table);
        }
        if let Ok(mut o) = self.opened.lock() {
            o.remove(table);
        }
    }
}
