//! The audit's view of a log entry (docs/spec.md §16.1): the decoded fields
//! and what the entry does — a commitment (`0x01`), a reveal (`0x02`) or an
//! outcome settled under a commitment still secret (`0x03`, a dice bet).

use fairseed_tlog::{EntryKind, LogEntry, TlogError};

/// What an entry does, from its kind byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `0x01`: commitments shown to players.
    Commitment,
    /// `0x02`: the secrets behind an earlier commitment.
    Reveal,
    /// `0x03`: what one play settled to under a commitment still secret.
    Outcome,
}

impl Kind {
    fn byte(self) -> u8 {
        match self {
            Self::Commitment => 0x01,
            Self::Reveal => 0x02,
            Self::Outcome => 0x03,
        }
    }
}

/// One decoded entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Commitment, reveal or outcome.
    pub kind: Kind,
    /// The service's time, milliseconds since the Unix epoch.
    pub time_ms: u64,
    /// The scheme (`dice_v1`, …).
    pub scheme: String,
    /// What the values belong to, outermost first.
    pub ids: Vec<String>,
    /// Commitments, secrets or an outcome's fields.
    pub values: Vec<String>,
}

impl Entry {
    /// Decodes an entry. The three kinds share one layout, so an outcome is
    /// decoded by [`LogEntry::decode`] with its kind byte read here.
    ///
    /// # Errors
    /// [`TlogError::BadEntry`] naming the field that is wrong.
    pub fn decode(bytes: &[u8]) -> Result<Self, TlogError> {
        let kind = match bytes.get(1) {
            Some(0x02) => Kind::Reveal,
            Some(0x03) => Kind::Outcome,
            _ => Kind::Commitment,
        };
        let entry = if kind == Kind::Outcome {
            let mut shared = bytes.to_vec();
            shared[1] = Kind::Commitment.byte();
            LogEntry::decode(&shared)?
        } else {
            LogEntry::decode(bytes)?
        };
        Ok(Self {
            kind,
            time_ms: entry.time_ms,
            scheme: entry.scheme,
            ids: entry.ids,
            values: entry.values,
        })
    }

    /// The entry's bytes, as the service logs them.
    ///
    /// # Errors
    /// [`TlogError::BadEntry`] if a field or the whole is too long.
    pub fn encode(&self) -> Result<Vec<u8>, TlogError> {
        let kind = if self.kind == Kind::Reveal {
            EntryKind::Reveal
        } else {
            EntryKind::Commitment
        };
        let mut bytes = LogEntry {
            kind,
            time_ms: self.time_ms,
            scheme: self.scheme.clone(),
            ids: self.ids.clone(),
            values: self.values.clone(),
        }
        .encode()?;
        bytes[1] = self.kind.byte();
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outcome_round_trips_with_its_kind_byte() {
        let entry = Entry {
            kind: Kind::Outcome,
            time_ms: 5,
            scheme: "dice_v1".into(),
            ids: vec!["c".into(), "0".into()],
            values: vec!["seed".into()],
        };
        let bytes = entry.encode().expect("encodes");
        assert_eq!(&bytes[..2], &[0x01, 0x03]);
        assert_eq!(Entry::decode(&bytes).expect("decodes"), entry);
    }
}
