//! The [`LogTx`] primitives on SQLite: the SQLite text of each shared
//! statement in [`sql::log`], bound and run, and the few only SQLite runs,
//! below. In process, a step writes and probes a row at a time. One
//! writer commits in turn, so ids follow commit order and a step raises
//! the floors as it gives leaves ([`RAISE_FLOORS`]).

use rusqlite::{params, OptionalExtension};

use super::tx::SqliteTx;
use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::sql;
use crate::translog::bet_leaves::BetLeaves;
use crate::translog::order::{Queued, Waiting};
use crate::translog::tx::{
    checkpoint_row, hash_bytes, in_order, EntryAt, HashBytes, LeafRow, LogTx,
};
use crate::translog::{read, Appender, LogCheckpoint, LoggedEntry};

/// Gives a leaf its source: leaf index, queued entry's id or bet's id (one
/// of them NULL). The leaf index is the key, so a second step from the
/// same tree size fails here.
const INSERT_LEAF: &str =
    "INSERT INTO log_leaves (leaf_index, entry_id, bet_id) VALUES (?1, ?2, ?3)";

/// Raises the floors, ids following commit order (one writer): each to
/// the last id of its source a step took, the leaves given since to none.
const RAISE_FLOORS: &str = "UPDATE log_waiting_floors SET floor_leaf = ?3,
     floor = max(floor, CASE source WHEN 'queue' THEN ?1 ELSE ?2 END)";

/// The last run of hashes that starts at or before a stored index; the
/// caller slices the hash out and keeps the run for the next index, which
/// mostly falls in it.
const RUN_AT: &str = "SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= ?1
     ORDER BY first_index DESC LIMIT 1";

/// Stores one bucket of a completed chunk's sorted hashes.
const INSERT_BUCKET: &str =
    "INSERT INTO log_hash_buckets (chunk, bucket, leaves) VALUES (?1, ?2, ?3)";

/// One bucket of one complete chunk.
const BUCKET: &str = "SELECT leaves FROM log_hash_buckets WHERE chunk = ?1 AND bucket = ?2";

impl LogTx for SqliteTx<'_> {
    fn bet_leaves(&self) -> &BetLeaves {
        self.1
    }

    fn appender(&self) -> Option<Appender> {
        self.2
    }

    async fn insert_log_entry(
        &mut self,
        entry: &[u8],
        leaf_hash: &HashBytes,
        subject: Option<&str>,
        name: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        self.0
            .prepare_cached(sql::log::INSERT_ENTRY.sqlite())?
            .execute(params![entry, &leaf_hash[..], subject, name, now])?;
        Ok(())
    }

    async fn log_entries_named(&mut self, names: &[String]) -> StoreResult<Vec<Vec<u8>>> {
        let mut stmt = self.0.prepare_cached(sql::log::ENTRIES_NAMED.sqlite())?;
        let names = serde_json::to_string(names).map_err(StoreError::other)?;
        let rows = stmt.query_map([names], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn log_entries_of(&mut self, subject: &str) -> StoreResult<Vec<Vec<u8>>> {
        let mut stmt = self
            .0
            .prepare_cached(sql::log::ENTRIES_OF_SUBJECT.sqlite())?;
        let rows = stmt.query_map([subject], |r| r.get::<_, Vec<u8>>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Reads the queue and the bets in one snapshot: a commit between two
    /// reads could otherwise add bets that belong after a queued entry not
    /// read.
    async fn waiting_log_entries(&mut self, limit: u32) -> StoreResult<Waiting> {
        self.in_snapshot(async move |tx| read::waiting(tx, limit).await)
            .await
    }

    async fn waiting_queued(&mut self, limit: u32) -> StoreResult<Vec<Queued>> {
        let mut stmt = self.0.prepare_cached(sql::log::WAITING_ENTRIES.sqlite())?;
        let rows = stmt.query_map([limit], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?, r.get(2)?))
        })?;
        rows.map(|row| {
            let (id, hash, before) = row?;
            Ok((id, hash_bytes(hash)?, before))
        })
        .collect()
    }

    async fn waiting_bet_ids(&mut self, limit: u32) -> StoreResult<Vec<i64>> {
        Ok(self
            .0
            .prepare_cached(sql::log::WAITING_BETS.sqlite())?
            .query_map([limit], |r| r.get::<_, i64>(0))?
            .collect::<Result<Vec<i64>, _>>()?)
    }

    async fn waiting_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<Vec<u8>>> {
        Ok(self
            .0
            .prepare_cached(sql::log::WAITING_ENTRY_BY_HASH.sqlite())?
            .query_row([&leaf_hash[..]], |r| r.get(0))
            .optional()?)
    }

    async fn logged_bet_entries(&mut self, ids: &[i64]) -> StoreResult<Vec<Vec<u8>>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        in_order(ids, self.bet_entries(ids)?)
    }

    /// A row per leaf, then each floor raised to the last id of its source
    /// taken: on SQLite nothing below it can commit later.
    async fn insert_leaves(&mut self, assigned: &[(EntryAt, u64)], size: u64) -> StoreResult<()> {
        let mut stmt = self.0.prepare_cached(INSERT_LEAF)?;
        let (mut queue_to, mut bets_to) = (0, 0);
        for &(at, index) in assigned {
            let (entry_id, bet_id) = match at {
                EntryAt::Queue(id) => (Some(id), None),
                EntryAt::Bet(id) => (None, Some(id)),
            };
            queue_to = entry_id.map_or(queue_to, |id| id.max(queue_to));
            bets_to = bet_id.map_or(bets_to, |id| id.max(bets_to));
            stmt.execute(params![
                convert::to_i64(index, "leaf index")?,
                entry_id,
                bet_id
            ])?;
        }
        self.0.prepare_cached(RAISE_FLOORS)?.execute(params![
            queue_to,
            bets_to,
            convert::to_i64(size, "tree size")?
        ])?;
        Ok(())
    }

    async fn leaf_rows(&mut self, from: u64, to: u64) -> StoreResult<Vec<LeafRow>> {
        let mut stmt = self.0.prepare_cached(sql::log::LEAVES.sqlite())?;
        let rows = stmt.query_map(
            params![
                convert::to_i64(from, "leaf index")?,
                convert::to_i64(to, "leaf index")?
            ],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn insert_hash_run(&mut self, first_index: u64, hashes: &[u8]) -> StoreResult<()> {
        self.0
            .prepare_cached(sql::log::INSERT_HASH_RUN.sqlite())?
            .execute(params![convert::to_i64(first_index, "hash index")?, hashes])?;
        Ok(())
    }

    /// A probe per index, but consecutive indexes mostly share a run,
    /// read once.
    async fn log_hashes(&mut self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        let mut stmt = self.0.prepare_cached(RUN_AT)?;
        let mut run: Option<(u64, Vec<u8>)> = None;
        let mut found = Vec::with_capacity(indexes.len());
        for &index in indexes {
            let mut hash = run.as_ref().and_then(|r| in_run(r, index));
            if hash.is_none() {
                run = stmt
                    .query_row([convert::to_i64(index, "hash index")?], |r| {
                        Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
                    })
                    .optional()?
                    .map(|(first, hashes)| {
                        StoreResult::Ok((convert::to_u64(first, "hash index")?, hashes))
                    })
                    .transpose()?;
                hash = run.as_ref().and_then(|r| in_run(r, index));
            }
            found.extend(hash.map(|h| (index, h)));
        }
        Ok(found)
    }

    async fn hash_runs_over(&mut self, first: u64, last: u64) -> StoreResult<Vec<(u64, Vec<u8>)>> {
        let mut stmt = self.0.prepare_cached(sql::log::RUNS_OVER.sqlite())?;
        let rows = stmt.query_map(
            params![
                convert::to_i64(first, "hash index")?,
                convert::to_i64(last, "hash index")?
            ],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)),
        )?;
        rows.map(|row| {
            let (first, hashes) = row?;
            Ok((convert::to_u64(first, "hash index")?, hashes))
        })
        .collect()
    }

    async fn insert_hash_buckets(
        &mut self,
        chunk: u64,
        buckets: Vec<(i16, Vec<u8>)>,
    ) -> StoreResult<()> {
        let mut insert = self.0.prepare_cached(INSERT_BUCKET)?;
        let chunk = convert::to_i64(chunk, "chunk")?;
        for (bucket, bytes) in buckets {
            insert.execute(params![chunk, bucket, bytes])?;
        }
        Ok(())
    }

    /// A probe per chunk.
    async fn hash_buckets_for(
        &mut self,
        leaf_hash: &HashBytes,
        sealed: u64,
    ) -> StoreResult<Vec<(u64, Vec<u8>)>> {
        let mut probe = self.0.prepare_cached(BUCKET)?;
        let mut found = Vec::new();
        for chunk in 0..sealed {
            let bucket: Option<Vec<u8>> = probe
                .query_row(
                    params![convert::to_i64(chunk, "chunk")?, leaf_hash[0]],
                    |r| r.get(0),
                )
                .optional()?;
            found.extend(bucket.map(|b| (chunk, b)));
        }
        Ok(found)
    }

    async fn start_new_log(&mut self) -> StoreResult<()> {
        self.0.execute(sql::log::NEW_LOG_FLOORS.sqlite(), [])?;
        for statement in &sql::log::NEW_LOG_EMPTIED {
            self.0.execute(statement.sqlite(), [])?;
        }
        Ok(())
    }

    async fn insert_log_checkpoint(&mut self, size: u64, note: &str, now: i64) -> StoreResult<()> {
        self.0
            .prepare_cached(sql::log::INSERT_CHECKPOINT.sqlite())?
            .execute(params![convert::to_i64(size, "tree size")?, note, now])?;
        Ok(())
    }

    async fn latest_log_checkpoint(&mut self) -> StoreResult<Option<LogCheckpoint>> {
        let row: Option<(i64, String, i64)> = self
            .0
            .prepare_cached(sql::log::LATEST_CHECKPOINT.sqlite())?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        checkpoint_row(row)
    }

    async fn log_checkpoint_at(&mut self, size: u64) -> StoreResult<Option<LogCheckpoint>> {
        let row: Option<(i64, String, i64)> = self
            .0
            .prepare_cached(sql::log::CHECKPOINT_AT.sqlite())?
            .query_row([convert::to_i64(size, "tree size")?], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
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
            .prepare_cached(sql::log::INSERT_COSIGNATURE.sqlite())?
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
            .prepare_cached(sql::log::COSIGNATURE_LINES.sqlite())?;
        let rows = stmt.query_map([convert::to_i64(size, "tree size")?], |r| {
            r.get::<_, String>(0)
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    async fn log_cosigned_size(&mut self, witness: &str) -> StoreResult<Option<u64>> {
        let size: Option<i64> = self
            .0
            .prepare_cached(sql::log::COSIGNED_SIZE.sqlite())?
            .query_row([witness], |r| r.get(0))?;
        size.map(|s| convert::to_u64(s, "tree size")).transpose()
    }

    async fn latest_cosigned_size(&mut self, min: u32) -> StoreResult<Option<u64>> {
        let size: Option<i64> = self
            .0
            .prepare_cached(sql::log::LATEST_COSIGNED.sqlite())?
            .query_row([min], |r| r.get(0))
            .optional()?;
        size.map(|s| convert::to_u64(s, "tree size")).transpose()
    }

    async fn log_leaves(&mut self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>> {
        self.in_snapshot(async move |tx| read::leaves(tx, from, count).await)
            .await
    }

    /// In one snapshot: a step committing between the reads would otherwise
    /// move the entry from the waiting ones to the leaves unseen.
    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>> {
        self.in_snapshot(async move |tx| read::entry_by_hash(tx, leaf_hash).await)
            .await
    }
}

impl SqliteTx<'_> {
    /// Runs `read` in one snapshot of the database. On a reader that is a
    /// read transaction, ended on every path (an error, a panic's
    /// unwinding: it wrote nothing, so it is rolled back when dropped), so
    /// the connection never goes back to the pool on an old snapshot. The
    /// writer is inside its own transaction already and nothing else
    /// writes: its reads are one snapshot as they are.
    async fn in_snapshot<R>(
        &mut self,
        read: impl AsyncFnOnce(&mut Self) -> StoreResult<R>,
    ) -> StoreResult<R> {
        if !self.0.is_autocommit() {
            return read(self).await;
        }
        let snapshot = self.0.unchecked_transaction()?;
        let result = read(self).await;
        drop(snapshot);
        result
    }
}

/// The hash stored at `index`, if the run (its first index, its hashes)
/// holds it.
fn in_run((first_index, hashes): &(u64, Vec<u8>), index: u64) -> Option<HashBytes> {
    let at = usize::try_from(index.checked_sub(*first_index)?).ok()?;
    hashes.get(at.checked_mul(32)?..)?.first_chunk().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tx::run_ready;

    /// What `in_snapshot` reads misses a commit made between its reads,
    /// which a read outside it then sees.
    #[test]
    fn reads_in_a_snapshot_miss_a_commit_between_them() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("db.sqlite");
        let writer = rusqlite::Connection::open(&path).expect("open");
        writer
            .execute_batch(
                "PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);",
            )
            .expect("schema");
        let reader = rusqlite::Connection::open(&path).expect("open");
        let leaves = crate::translog::bet_leaves::BetLeaves::default();
        let mut tx = SqliteTx(&reader, &leaves, None);
        let count = |tx: &SqliteTx<'_>| -> StoreResult<i64> {
            Ok(tx.0.query_row("SELECT count(*) FROM t", [], |r| r.get(0))?)
        };
        let seen = run_ready(tx.in_snapshot(async |tx| {
            let before = count(tx)?;
            writer.execute("INSERT INTO t VALUES (2)", [])?;
            Ok((before, count(tx)?))
        }))
        .expect("ready")
        .expect("read");
        assert_eq!(seen, (1, 1));
        assert!(reader.is_autocommit(), "the snapshot ended");
        assert_eq!(count(&tx).expect("read"), 2);
        let failed = run_ready(tx.in_snapshot(async |tx| {
            count(tx)?;
            Err::<(), _>(StoreError::other("a read failed"))
        }))
        .expect("ready");
        assert!(failed.is_err());
        assert!(reader.is_autocommit(), "ended after an error too");
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_ready(tx.in_snapshot(async |tx| -> StoreResult<()> {
                count(tx)?;
                panic!("a read panicked")
            }))
        }));
        assert!(panicked.is_err());
        assert!(reader.is_autocommit(), "and after a panic");
        writer
            .execute("INSERT INTO t VALUES (3)", [])
            .expect("write");
        assert_eq!(count(&tx).expect("read"), 3, "no old snapshot left behind");
    }
}
