//! Counting verdicts, and the exit status they add up to.

use std::collections::BTreeMap;
use std::process::ExitCode;

use fairseed_core::Verdict;

/// How many records verified, failed, or could not be read, and how often
/// each counted warning came up (a seat that withheld its per-hand value,
/// per table session: docs/spec.md §20.5).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub valid: u64,
    pub invalid: u64,
    pub unreadable: u64,
    pub warned: BTreeMap<String, u64>,
}

impl Tally {
    pub fn add(&mut self, other: Tally) {
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.unreadable += other.unreadable;
        for (what, n) in other.warned {
            *self.warned.entry(what).or_default() += n;
        }
    }

    /// Counts the warnings of `verdict` that are counted across records.
    pub fn warnings_of(&mut self, verdict: &Verdict) {
        for what in verdict.warnings.iter().filter_map(|w| w.count_as.as_ref()) {
            *self.warned.entry(what.clone()).or_default() += 1;
        }
    }

    /// One line per counted warning: "table t (session …): seat 2 withheld
    /// its per-hand value in 3 hands".
    pub fn warning_lines(&self) -> Vec<String> {
        self.warned
            .iter()
            .map(|(what, n)| {
                let hands = if *n == 1 { "hand" } else { "hands" };
                format!("warning: {what} in {n} {hands}")
            })
            .collect()
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
    fn a_counted_warning_is_summed_per_seat_across_records_and_chunks() {
        let mut verdict = Verdict::unreadable(None, String::new());
        verdict.warnings.push(fairseed_core::Warning {
            name: "withheld".into(),
            detail: "hand 3: seat 2 …".into(),
            count_as: Some("table t (session ab…): seat 2 withheld its per-hand value".into()),
        });
        let mut chunk = Tally::default();
        chunk.warnings_of(&verdict);
        let mut all = Tally::default();
        all.add(chunk.clone());
        all.add(chunk);
        assert_eq!(
            all.warning_lines(),
            ["warning: table t (session ab…): seat 2 withheld its per-hand value in 2 hands"]
        );
    }

    #[test]
    fn unreadable_outranks_invalid() {
        let t = Tally {
            valid: 5,
            invalid: 1,
            unreadable: 1,
            warned: BTreeMap::new(),
        };
        assert_eq!(t.exit_code(), ExitCode::from(2));
        let t = Tally {
            unreadable: 0,
            ..t.clone()
        };
        assert_eq!(t.exit_code(), ExitCode::from(1));
        assert_eq!(t.summary(), "6 records: 5 valid, 1 invalid, 0 unreadable");
    }
}
