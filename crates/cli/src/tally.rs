//! Counting verdicts, and the exit status they add up to.

use std::process::ExitCode;

/// How many records verified, failed, or could not be read.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub valid: u64,
    pub invalid: u64,
    pub unreadable: u64,
}

impl Tally {
    pub fn add(&mut self, other: Tally) {
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.unreadable += other.unreadable;
    }

    pub fn records(&self) -> u64 {
        self.valid + self.invalid + self.unreadable
    }

    /// docs/spec.md §12.5: 2 if any record could not be read, else 1 if any failed a check, else 0.
    pub fn exit_code(&self) -> ExitCode {
        if self.unreadable > 0 {
            ExitCode::from(2)
        } else if self.invalid > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }

    /// One line for people: "3 records: 2 valid, 1 invalid, 0 unreadable".
    pub fn summary(&self) -> String {
        let n = self.records();
        let noun = if n == 1 { "record" } else { "records" };
        format!(
            "{n} {noun}: {} valid, {} invalid, {} unreadable",
            self.valid, self.invalid, self.unreadable
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_outranks_invalid() {
        let t = Tally {
            valid: 5,
            invalid: 1,
            unreadable: 1,
        };
        assert_eq!(t.exit_code(), ExitCode::from(2));
        let t = Tally { unreadable: 0, ..t };
        assert_eq!(t.exit_code(), ExitCode::from(1));
        assert_eq!(t.summary(), "6 records: 5 valid, 1 invalid, 0 unreadable");
    }
}
