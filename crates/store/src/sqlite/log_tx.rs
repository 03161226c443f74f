//! The [`LogTx`] primitives in SQLite's dialect.

use rusqlite::{params, OptionalExtension};

use super::tx::SqliteTx;
use crate::convert;
use crate::error::StoreResult;
use crate::translog::tx::{checkpoint_row, entry_row, hash_bytes, HashBytes, LogTx};
use crate::translog::{LogCheckpoint, LoggedEntry};

impl LogTx for SqliteTx<'_> {
    async fn insert_log_entry(
        &mut self,
        entry: &[u8],
        leaf_hash: &HashBytes,
        subject: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        self.0
            .prepare_cached(
                "INSERT INTO log_entries (entry, leaf_hash, subject, created_at)
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![entry, &leaf_hash[..], subject, now])?;
        Ok(())
    }

    async fn log_entries_of(&mut self, subject: &str) -> StoreResult<Vec<Vec<u8>>> {
        let mut stmt = self
            .0
            .prepare_cached("SELECT entry FROM log_entries WHERE subject = ?1 ORDER BY id")?;
        let rows = stmt.query_map([subject], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn pending_log_entries(&mut self, limit: u32) -> StoreResult<Vec<(i64, HashBytes)>> {
        let mut stmt = self.0.prepare_cached(
            "SELECT id, leaf_hash FROM log_entries WHERE leaf_index IS NULL ORDER BY id LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
        })?;
        rows.map(|row| {
            let (id, hash) = row?;
            Ok((id, hash_bytes(hash)?))
        })
        .collect()
    }

    async fn set_leaf_indexes(&mut self, assigned: &[(i64, u64)]) -> StoreResult<u64> {
        let mut stmt = self.0.prepare_cached(
            "UPDATE log_entries SET leaf_index = ?2 WHERE id = ?1 AND leaf_index IS NULL",
        )?;
        let mut done = 0;
        for (id, index) in assigned {
            done += stmt.execute(params![id, convert::to_i64(*index, "leaf index")?])? as u64;
        }
        Ok(done)
    }

    async fn insert_log_hashes(&mut self, hashes: &[(u64, HashBytes)]) -> StoreResult<()> {
        let mut stmt = self
            .0
            .prepare_cached("INSERT INTO log_hashes (idx, hash) VALUES (?1, ?2)")?;
        for (index, hash) in hashes {
            stmt.execute(params![convert::to_i64(*index, "hash index")?, &hash[..]])?;
        }
        Ok(())
    }

    async fn log_hashes(&mut self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        let mut stmt = self
            .0
            .prepare_cached("SELECT hash FROM log_hashes WHERE idx = ?1")?;
        let mut out = Vec::with_capacity(indexes.len());
        for &index in indexes {
            let found: Option<Vec<u8>> = stmt
                .query_row([convert::to_i64(index, "hash index")?], |r| r.get(0))
                .optional()?;
            if let Some(hash) = found {
                out.push((index, hash_bytes(hash)?));
            }
        }
        Ok(out)
    }

    async fn insert_log_checkpoint(&mut self, size: u64, note: &str, now: i64) -> StoreResult<()> {
        self.0
            .prepare_cached(
                "INSERT INTO log_checkpoints (size, note, created_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![convert::to_i64(size, "tree size")?, note, now])?;
        Ok(())
    }

    async fn latest_log_checkpoint(&mut self) -> StoreResult<Option<LogCheckpoint>> {
        let row: Option<(i64, String)> = self
            .0
            .prepare_cached("SELECT size, note FROM log_checkpoints ORDER BY size DESC LIMIT 1")?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        checkpoint_row(row)
    }

    async fn log_checkpoint_at(&mut self, size: u64) -> StoreResult<Option<LogCheckpoint>> {
        let row: Option<(i64, String)> = self
            .0
            .prepare_cached("SELECT size, note FROM log_checkpoints WHERE size = ?1")?
            .query_row([convert::to_i64(size, "tree size")?], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        checkpoint_row(row)
    }

    async fn insert_log_cosignature(
        &mut self,
        size: u64,
        witness: &str,
        line: &str,
        now: i64,
    ) -> StoreResult<()> {
        self.0
            .prepare_cached(
                "INSERT INTO log_cosignatures (size, witness, line, created_at)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT (size, witness) DO NOTHING",
            )?
            .execute(params![
                convert::to_i64(size, "tree size")?,
                witness,
                line,
                now
            ])?;
        Ok(())
    }

    async fn log_cosignature_lines(&mut self, size: u64) -> StoreResult<Vec<String>> {
        let mut stmt = self
            .0
            .prepare_cached("SELECT line FROM log_cosignatures WHERE size = ?1 ORDER BY witness")?;
        let rows = stmt.query_map([convert::to_i64(size, "tree size")?], |r| {
            r.get::<_, String>(0)
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn log_cosigned_size(&mut self, witness: &str) -> StoreResult<Option<u64>> {
        let size: Option<i64> = self
            .0
            .prepare_cached("SELECT MAX(size) FROM log_cosignatures WHERE witness = ?1")?
            .query_row([witness], |r| r.get(0))?;
        size.map(|s| convert::to_u64(s, "tree size")).transpose()
    }

    async fn latest_cosigned_size(&mut self, min: u32) -> StoreResult<Option<u64>> {
        let size: Option<i64> = self
            .0
            .prepare_cached(
                "SELECT size FROM log_cosignatures GROUP BY size HAVING COUNT(*) >= ?1
                 ORDER BY size DESC LIMIT 1",
            )?
            .query_row([min], |r| r.get(0))
            .optional()?;
        size.map(|s| convert::to_u64(s, "tree size")).transpose()
    }

    async fn log_leaves(&mut self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>> {
        let from = convert::to_i64(from, "leaf index")?;
        let mut stmt = self.0.prepare_cached(
            "SELECT entry FROM log_entries WHERE leaf_index >= ?1 AND leaf_index < ?1 + ?2
             ORDER BY leaf_index",
        )?;
        let rows = stmt.query_map(params![from, count], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>> {
        let row: Option<(Vec<u8>, Option<i64>)> = self
            .0
            .prepare_cached(
                "SELECT entry, leaf_index FROM log_entries WHERE leaf_hash = ?1 ORDER BY id LIMIT 1",
            )?
            .query_row([&leaf_hash[..]], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        entry_row(row)
    }
}
