//! `progress` without the `progress` feature: no bar, the same calls.
//!
//! The lean verifier build leaves out the progress bar's crates; stderr gets
//! error lines only, as it does when stderr is not a terminal.

/// Nothing to draw.
pub struct Progress;

impl Progress {
    /// No bar, whatever the input size.
    pub fn new(_total_bytes: Option<u64>) -> Self {
        Self
    }

    /// No bar, whatever is counted.
    #[cfg_attr(not(feature = "audit"), allow(dead_code))]
    pub fn new_count(_unit: &str) -> Self {
        Self
    }

    /// Nothing to set.
    #[cfg_attr(not(feature = "audit"), allow(dead_code))]
    pub fn set(&self, _done: u64, _total: u64) {}

    /// Nothing to advance.
    pub fn advance(&self, _bytes: u64, _records: u64) {}

    /// Prints a line on stderr.
    pub fn eprintln(&self, line: &str) {
        eprintln!("{line}");
    }

    /// Nothing to remove.
    pub fn finish(&self) {}
}
