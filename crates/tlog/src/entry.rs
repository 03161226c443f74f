//! The log entry: what the service commits to and reveals, in a versioned binary form.
//!
//! Binary rather than JSON so that one entry has one encoding, and its leaf
//! hash is unambiguous (docs/spec.md §16.1):
//!
//! ```text
//! version (1 byte, 0x01) | kind (1 byte) | time_ms (u64 BE)
//! | field(scheme) | count (1 byte) field(id)* | count (1 byte) field(value)*
//! field = u16 BE length || bytes
//! ```

use crate::error::TlogError;

/// The only entry version so far.
pub const ENTRY_VERSION: u8 = 0x01;

/// The largest entry: its length must fit an entry bundle's `u16`.
pub const MAX_ENTRY_BYTES: usize = u16::MAX as usize;

/// Whether an entry publishes a commitment, its reveal, or an outcome under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// Commitments shown to players, before any draw.
    Commitment,
    /// The secrets behind an earlier commitment entry.
    Reveal,
    /// What one play settled to under a commitment still secret (a dice bet's
    /// roll and payout), acknowledged before the reveal can check it.
    Outcome,
}

impl EntryKind {
    fn byte(self) -> u8 {
        match self {
            Self::Commitment => 0x01,
            Self::Reveal => 0x02,
            Self::Outcome => 0x03,
        }
    }

    fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            0x01 => Some(Self::Commitment),
            0x02 => Some(Self::Reveal),
            0x03 => Some(Self::Outcome),
            _ => None,
        }
    }
}

/// One log entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    /// Commitment, reveal or outcome.
    pub kind: EntryKind,
    /// The service's time when it queued the entry, milliseconds since the Unix epoch.
    pub time_ms: u64,
    /// The scheme, as records name it (`dice_v1`, `poker_hmac_v1`, …).
    pub scheme: String,
    /// What the values belong to, outermost first (a seed pair; a table, session, hand).
    pub ids: Vec<String>,
    /// Commitments, or the revealed secrets in the same order, as their records write them.
    pub values: Vec<String>,
}

impl LogEntry {
    /// The entry's bytes, the input of its leaf hash.
    ///
    /// # Errors
    /// [`TlogError::BadEntry`] if a field is over 65535 bytes, there are over 255
    /// ids or values, or the whole is over [`MAX_ENTRY_BYTES`].
    pub fn encode(&self) -> Result<Vec<u8>, TlogError> {
        // Entries are written on the path of every bet: one allocation, of
        // the final size.
        let fields = std::iter::once(&self.scheme)
            .chain(&self.ids)
            .chain(&self.values);
        // Version, kind, time and the two counts, then each field's length and bytes.
        let len = 1 + 1 + 8 + 2 + fields.map(|f| 2 + f.len()).sum::<usize>();
        let mut out = Vec::with_capacity(len);
        out.extend_from_slice(&[ENTRY_VERSION, self.kind.byte()]);
        out.extend_from_slice(&self.time_ms.to_be_bytes());
        put_field(&mut out, || "scheme".into(), &self.scheme)?;
        put_list(&mut out, "ids", &self.ids)?;
        put_list(&mut out, "values", &self.values)?;
        if out.len() > MAX_ENTRY_BYTES {
            return Err(TlogError::BadEntry(format!(
                "{} bytes, at most {MAX_ENTRY_BYTES}",
                out.len()
            )));
        }
        Ok(out)
    }

    /// Parses an entry, refusing anything [`LogEntry::encode`] would not write.
    ///
    /// # Errors
    /// [`TlogError::BadEntry`] naming the field that is wrong.
    pub fn decode(bytes: &[u8]) -> Result<Self, TlogError> {
        let mut r = Reader { rest: bytes };
        let version = r.byte("version")?;
        if version != ENTRY_VERSION {
            return Err(TlogError::BadEntry(format!("unknown version {version}")));
        }
        let kind = r.byte("kind")?;
        let kind = EntryKind::from_byte(kind)
            .ok_or_else(|| TlogError::BadEntry(format!("unknown kind {kind}")))?;
        let time_ms = u64::from_be_bytes(
            r.take("time_ms", 8)?
                .try_into()
                .map_err(|_| TlogError::BadEntry("time_ms: cut short".into()))?,
        );
        let scheme = r.field("scheme")?;
        let ids = r.list("ids")?;
        let values = r.list("values")?;
        if !r.rest.is_empty() {
            return Err(TlogError::BadEntry(format!(
                "{} bytes after the last value",
                r.rest.len()
            )));
        }
        Ok(Self {
            kind,
            time_ms,
            scheme,
            ids,
            values,
        })
    }
}

/// `name` is a closure so the field's name is only written out for an error.
fn put_field(out: &mut Vec<u8>, name: impl Fn() -> String, text: &str) -> Result<(), TlogError> {
    let len = u16::try_from(text.len()).map_err(|_| {
        TlogError::BadEntry(format!("{}: {} bytes, at most 65535", name(), text.len()))
    })?;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(text.as_bytes());
    Ok(())
}

fn put_list(out: &mut Vec<u8>, name: &str, items: &[String]) -> Result<(), TlogError> {
    let count = u8::try_from(items.len())
        .map_err(|_| TlogError::BadEntry(format!("{name}: {} items, at most 255", items.len())))?;
    out.push(count);
    for (i, item) in items.iter().enumerate() {
        put_field(out, || format!("{name}[{i}]"), item)?;
    }
    Ok(())
}

struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, name: &str, len: usize) -> Result<&'a [u8], TlogError> {
        if self.rest.len() < len {
            return Err(TlogError::BadEntry(format!(
                "{name}: needs {len} bytes, {} remain",
                self.rest.len()
            )));
        }
        let (head, tail) = self.rest.split_at(len);
        self.rest = tail;
        Ok(head)
    }

    fn byte(&mut self, name: &str) -> Result<u8, TlogError> {
        Ok(self.take(name, 1)?[0])
    }

    fn field(&mut self, name: &str) -> Result<String, TlogError> {
        let len = self.take(name, 2)?;
        let len = usize::from(u16::from_be_bytes([len[0], len[1]]));
        let bytes = self.take(name, len)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| TlogError::BadEntry(format!("{name}: not UTF-8")))
    }

    fn list(&mut self, name: &str) -> Result<Vec<String>, TlogError> {
        let count = self.byte(name)?;
        (0..count)
            .map(|i| self.field(&format!("{name}[{i}]")))
            .collect()
    }
}
