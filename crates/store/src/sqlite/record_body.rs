//! Record bodies in SQLite's `records.body`: a large one stored deflated
//! (zlib: deflate with a checksum) as a BLOB, a small one as TEXT, in the
//! same column; either reads back as the very text written.
//!
//! Why only SQLite: it stores a value as it is, while PostgreSQL compresses
//! a value over 2 KB itself (TOAST). A hand's record is mostly JSON that
//! repeats its keys and cards, and deflates to about a quarter. The column
//! keeps TEXT affinity, which stores a BLOB as a BLOB, so rows written
//! before (all TEXT) read as they are, with no migration.

use std::io::{Read, Write};

use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, Value, ValueRef};

use crate::error::{StoreError, StoreResult};

/// Bodies longer than this many bytes are stored deflated. A hand's record
/// is over it (1.3 to 2 KB with two seats, 3.4 KB with six); a dice
/// record, about 300 bytes, is under it, where deflating would save little
/// and cost a step on every read.
pub(crate) const DEFLATE_ABOVE: usize = 1024;

/// A body as written to the column: the text, or the text deflated when
/// that is large and deflating makes it smaller.
pub(crate) fn stored(body: &str) -> StoreResult<ToSqlOutput<'_>> {
    if body.len() <= DEFLATE_ABOVE {
        return Ok(ToSqlOutput::from(body));
    }
    let deflated = deflate(body).map_err(|e| StoreError::context("deflating a record body", e))?;
    Ok(if deflated.len() < body.len() {
        ToSqlOutput::Owned(Value::Blob(deflated))
    } else {
        ToSqlOutput::from(body)
    })
}

fn deflate(body: &str) -> std::io::Result<Vec<u8>> {
    let mut encoder = ZlibEncoder::new(Vec::with_capacity(body.len() / 2), Compression::default());
    encoder.write_all(body.as_bytes())?;
    encoder.finish()
}

/// A body as read from the column, before it is inflated: reading the row
/// cannot fail on a bad BLOB, so the error can name the record.
#[derive(Debug)]
pub(crate) enum StoredBody {
    /// Stored as it is.
    Text(String),
    /// Stored deflated.
    Deflated(Vec<u8>),
}

impl FromSql for StoredBody {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Text(_) => String::column_result(value).map(Self::Text),
            ValueRef::Blob(bytes) => Ok(Self::Deflated(bytes.to_vec())),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl StoredBody {
    /// The text written, for the record `id` (named in the error when a
    /// stored BLOB does not inflate to UTF-8 text).
    pub(crate) fn into_text(self, id: i64) -> StoreResult<String> {
        match self {
            Self::Text(text) => Ok(text),
            Self::Deflated(bytes) => inflate(&bytes)
                .map_err(|e| StoreError::context(format!("record {id}'s stored body"), e)),
        }
    }
}

fn inflate(bytes: &[u8]) -> std::io::Result<String> {
    let mut text = String::with_capacity(bytes.len() * 3);
    ZlibDecoder::new(bytes).read_to_string(&mut text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(body: &str) -> (bool, String) {
        let out = stored(body).expect("store");
        let value = match &out {
            ToSqlOutput::Borrowed(v) => *v,
            ToSqlOutput::Owned(v) => ValueRef::from(v),
            _ => unreachable!("stored() borrows or owns"),
        };
        let read = StoredBody::column_result(value).expect("read");
        let deflated = matches!(read, StoredBody::Deflated(_));
        (deflated, read.into_text(1).expect("inflate"))
    }

    #[test]
    fn a_large_body_is_deflated_and_reads_back_whole() {
        let body = format!("{{\"cards\":[{}]}}", ["\"Ah\""; 400].join(","));
        assert_eq!(round_trip(&body), (true, body));
    }

    #[test]
    fn a_small_body_stays_text() {
        assert_eq!(round_trip("{\"n\":1}"), (false, "{\"n\":1}".to_owned()));
        let at_threshold = "x".repeat(DEFLATE_ABOVE);
        assert_eq!(round_trip(&at_threshold), (false, at_threshold.clone()));
    }

    #[test]
    fn a_blob_that_does_not_inflate_is_an_error_naming_the_record() {
        let err = StoredBody::Deflated(b"not deflated".to_vec())
            .into_text(7)
            .expect_err("garbage");
        assert!(err.to_string().contains("record 7's stored body"), "{err}");
        let not_utf8 = deflate_bytes(&[0xff, 0xfe]);
        let err = StoredBody::Deflated(not_utf8)
            .into_text(8)
            .expect_err("utf-8");
        assert!(err.to_string().contains("record 8"), "{err}");
    }

    fn deflate_bytes(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(bytes).expect("write");
        encoder.finish().expect("finish")
    }
}
