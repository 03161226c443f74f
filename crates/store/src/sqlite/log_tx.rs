//! The [`LogTx`] primitives in SQLite's dialect.
//!
//! Entries queue in `log_queue`, which has no index a bet would update at a
//! random place; the sequencer appends leaves to `log_leaves`. One writer
//! commits in turn, so queue ids follow commit order and the entries still
//! waiting are exactly those past the last leaf's entry
//! (`migrations/sqlite/0009_log_leaves.sql`). A leaf is found by its hash
//! through sorted chunks of [`HASH_CHUNK`] leaves, written when complete.

use rusqlite::{params, OptionalExtension};

use super::tx::SqliteTx;
use crate::convert;
use crate::error::StoreResult;
use crate::translog::tx::{checkpoint_row, entry_row, hash_bytes, HashBytes, LogTx};
use crate::translog::{completed_chunks, LogCheckpoint, LoggedEntry, HASH_CHUNK};

/// The queue id of the last sequenced entry (0 before the first): every
/// entry past it waits.
macro_rules! last_sequenced {
    () => {
        "(SELECT ifnull((SELECT entry_id FROM log_leaves ORDER BY leaf_index DESC LIMIT 1), 0))"
    };
}

impl LogTx for SqliteTx<'_> {
    async fn insert_log_entry(
        &mut self,
        entry: &[u8],
        leaf_hash: &HashBytes,
        subject: Option<&str>,
        name: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        self.0
            .prepare_cached(
                "INSERT INTO log_queue (entry, leaf_hash, subject, name, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![entry, &leaf_hash[..], subject, name, now])?;
        Ok(())
    }

    async fn log_entries_named(&mut self, names: &[String]) -> StoreResult<Vec<Vec<u8>>> {
        let mut stmt = self.0.prepare_cached(
            "SELECT entry FROM log_queue
             WHERE name IN (SELECT value FROM json_each(?1)) ORDER BY id",
        )?;
        let names = serde_json::to_string(names).map_err(crate::error::StoreError::other)?;
        let rows = stmt.query_map([names], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn log_entries_of(&mut self, subject: &str) -> StoreResult<Vec<Vec<u8>>> {
        let mut stmt = self
            .0
            .prepare_cached("SELECT entry FROM log_queue WHERE subject = ?1 ORDER BY id")?;
        let rows = stmt.query_map([subject], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn pending_log_entries(&mut self, limit: u32) -> StoreResult<Vec<(i64, HashBytes)>> {
        let mut stmt = self.0.prepare_cached(concat!(
            "SELECT id, leaf_hash FROM log_queue WHERE id > ",
            last_sequenced!(),
            " ORDER BY id LIMIT ?1"
        ))?;
        let rows = stmt.query_map([limit], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
        })?;
        rows.map(|row| {
            let (id, hash) = row?;
            Ok((id, hash_bytes(hash)?))
        })
        .collect()
    }

    async fn set_leaf_indexes(&mut self, assigned: &[(i64, u64, HashBytes)]) -> StoreResult<u64> {
        let mut stmt = self.0.prepare_cached(
            "INSERT OR IGNORE INTO log_leaves (leaf_index, entry_id, leaf_hash) VALUES (?1, ?2, ?3)",
        )?;
        let mut done = 0;
        for (id, index, hash) in assigned {
            let index = convert::to_i64(*index, "leaf index")?;
            done += stmt.execute(params![index, id, &hash[..]])? as u64;
        }
        if let (Some(first), Some(last)) = (assigned.first(), assigned.last()) {
            self.seal_hash_chunks(first.1, last.1 + 1)?;
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
            "SELECT q.entry FROM log_leaves l JOIN log_queue q ON q.id = l.entry_id
             WHERE l.leaf_index >= ?1 AND l.leaf_index < ?1 + ?2 ORDER BY l.leaf_index",
        )?;
        let rows = stmt.query_map(params![from, count], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A sequenced entry through the sorted chunks, then the incomplete
    /// chunk; one still queued by reading the queue's tail.
    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>> {
        let size: i64 = self
            .0
            .prepare_cached("SELECT ifnull(max(leaf_index) + 1, 0) FROM log_leaves")?
            .query_row([], |r| r.get(0))?;
        let sealed = convert::to_u64(size, "tree size")? / HASH_CHUNK;
        let mut probe = self.0.prepare_cached(
            "SELECT leaf_index FROM log_hash_chunks WHERE chunk = ?1 AND leaf_hash = ?2
             ORDER BY leaf_index LIMIT 1",
        )?;
        let mut found: Option<i64> = None;
        for chunk in 0..sealed {
            let chunk = convert::to_i64(chunk, "chunk")?;
            found = probe
                .query_row(params![chunk, &leaf_hash[..]], |r| r.get(0))
                .optional()?;
            if found.is_some() {
                break;
            }
        }
        drop(probe);
        let row: Option<(Vec<u8>, Option<i64>)> = match found {
            Some(index) => self
                .0
                .prepare_cached(
                    "SELECT q.entry, l.leaf_index FROM log_leaves l JOIN log_queue q ON q.id = l.entry_id
                     WHERE l.leaf_index = ?1",
                )?
                .query_row([index], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?,
            None => self
                .0
                .prepare_cached(
                    "SELECT q.entry, l.leaf_index FROM log_leaves l JOIN log_queue q ON q.id = l.entry_id
                     WHERE l.leaf_index >= ?1 AND l.leaf_hash = ?2 ORDER BY l.leaf_index LIMIT 1",
                )?
                .query_row(
                    params![convert::to_i64(sealed * HASH_CHUNK, "leaf index")?, &leaf_hash[..]],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?,
        };
        if row.is_some() {
            return entry_row(row);
        }
        let queued: Option<(Vec<u8>, Option<i64>)> = self
            .0
            .prepare_cached(concat!(
                "SELECT entry, NULL FROM log_queue WHERE id > ",
                last_sequenced!(),
                " AND leaf_hash = ?1 ORDER BY id LIMIT 1"
            ))?
            .query_row([&leaf_hash[..]], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        entry_row(queued)
    }
}

impl SqliteTx<'_> {
    /// Writes the sorted hashes of every chunk completed by the leaves
    /// `from .. to` just appended.
    fn seal_hash_chunks(&mut self, from: u64, to: u64) -> StoreResult<()> {
        let mut stmt = self.0.prepare_cached(
            "INSERT INTO log_hash_chunks (chunk, leaf_hash, leaf_index)
             SELECT ?1, leaf_hash, leaf_index FROM log_leaves
             WHERE leaf_index >= ?1 * ?2 AND leaf_index < (?1 + 1) * ?2
             ORDER BY leaf_hash, leaf_index",
        )?;
        for chunk in completed_chunks(from, to) {
            let chunk = convert::to_i64(chunk, "chunk")?;
            stmt.execute(params![chunk, HASH_CHUNK as i64])?;
        }
        Ok(())
    }
}
