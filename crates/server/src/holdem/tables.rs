//! The hold'em tables this process drives: what [`crate::state::AppState`]
//! keeps of them.

use std::collections::HashSet;
use std::sync::Mutex;

use fairseed_holdem::live::driver::Timing;

/// The tables this process drives, and their pace.
#[derive(Debug)]
pub struct Tables {
    timing: Timing,
    driven: Mutex<HashSet<String>>,
}

impl Tables {
    /// No table driven yet.
    pub fn new(timing: Timing) -> Self {
        Self {
            timing,
            driven: Mutex::new(HashSet::new()),
        }
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

    /// Forgets `table`: its task ended.
    pub(super) fn stop(&self, table: &str) {
        if let Ok(mut d) = self.driven.lock() {
            d.remove(table);
        }
    }
}
