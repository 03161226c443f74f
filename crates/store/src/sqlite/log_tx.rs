//! The [`LogTx`] primitives in SQLite's dialect.
//!
//! Commitments and reveals queue in `log_queue`, which has no index a bet
//! would update at a random place; a dice bet queues nothing, its row is
//! its own outcome entry. The sequencer appends leaves to `log_leaves`. One
//! writer commits in turn, so queue ids and bet ids each follow commit
//! order, and a queued entry's `bets_before` places it among the bets
//! (`migrations/sqlite/0001_baseline.sql`); the entries still waiting
//! are those past `log_sequenced`. A leaf is found by its hash through
//! sorted chunks of [`HASH_CHUNK`] leaves, written when complete as
//! buckets ([`hash_buckets`]).

use rusqlite::{params, OptionalExtension};

use super::tx::SqliteTx;
use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::translog::hash_buckets;
use crate::translog::order::{Queued, Waiting};
use crate::translog::tx::{checkpoint_row, hash_bytes, EntryAt, HashBytes, LogTx};
use crate::translog::{completed_chunks, LogCheckpoint, LoggedEntry, HASH_CHUNK};

/// A logged bet: its id and its outcome entry's leaf hash.
type BetLeaf = (i64, HashBytes);

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
                "INSERT INTO log_queue (entry, leaf_hash, subject, name, created_at, bets_before)
                 VALUES (?1, ?2, ?3, ?4, ?5, (SELECT ifnull(max(id), 0) FROM bets))",
            )?
            .execute(params![entry, &leaf_hash[..], subject, name, now])?;
        Ok(())
    }

    async fn log_entries_named(&mut self, names: &[String]) -> StoreResult<Vec<Vec<u8>>> {
        let mut stmt = self.0.prepare_cached(
            "SELECT entry FROM log_queue
             WHERE name IN (SELECT value FROM json_each(?1)) ORDER BY id",
        )?;
        let names = serde_json::to_string(names).map_err(StoreError::other)?;
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

    /// Reads the queue and the bets in one snapshot: a commit between two
    /// reads could otherwise add bets that belong after a queued entry not
    /// read.
    async fn waiting_log_entries(&mut self, limit: u32) -> StoreResult<Waiting> {
        self.in_snapshot(|tx| tx.pending_in_snapshot(limit))
    }

    async fn set_leaf_indexes(
        &mut self,
        assigned: &[(EntryAt, u64, HashBytes)],
    ) -> StoreResult<u64> {
        let mut stmt = self.0.prepare_cached(
            "INSERT OR IGNORE INTO log_leaves (leaf_index, entry_id, bet_id, leaf_hash)
             VALUES (?1, ?2, ?3, ?4)",
        )?;
        let (mut queue_to, mut bets_to) = (0, 0);
        let mut done = 0;
        for (at, index, hash) in assigned {
            let index = convert::to_i64(*index, "leaf index")?;
            let (entry_id, bet_id) = match *at {
                EntryAt::Queue(id) => (Some(id), None),
                EntryAt::Bet(id) => (None, Some(id)),
            };
            queue_to = queue_to.max(entry_id.unwrap_or(0));
            bets_to = bets_to.max(bet_id.unwrap_or(0));
            done += stmt.execute(params![index, entry_id, bet_id, &hash[..]])? as u64;
        }
        drop(stmt);
        self.0
            .prepare_cached(
                "UPDATE log_sequenced SET entry_id = max(entry_id, ?1), bet_id = max(bet_id, ?2)",
            )?
            .execute([queue_to, bets_to])?;
        self.1.forget_through(bets_to);
        if let (Some(first), Some(last)) = (assigned.first(), assigned.last()) {
            self.seal_hash_chunks(first.1, last.1 + 1)?;
        }
        Ok(done)
    }

    /// A step's node hashes are one run (`log_hash_runs`): one row.
    /// Each leaf's hash is kept with its leaf (`log_leaves`): only the
    /// nodes' are stored here.
    async fn insert_log_hashes(&mut self, hashes: &[(u64, HashBytes)]) -> StoreResult<()> {
        let nodes: Vec<(u64, HashBytes)> = hashes
            .iter()
            .filter(|(i, _)| fairseed_tlog::stored_leaf(*i).is_none())
            .copied()
            .collect();
        let Some((first_leaf, run)) = hash_run(&nodes)? else {
            return Ok(());
        };
        self.0
            .prepare_cached("INSERT INTO log_hash_runs (first_leaf, hashes) VALUES (?1, ?2)")?
            .execute(params![convert::to_i64(first_leaf, "leaf index")?, run])?;
        Ok(())
    }

    async fn leaf_hashes(&mut self, leaves: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        self.hashes_at(
            "SELECT leaf_hash FROM log_leaves WHERE leaf_index = ?1",
            leaves,
            "leaf index",
        )
    }

    /// From the steps' runs.
    async fn log_hashes(&mut self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        self.run_hashes(indexes)
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
        self.leaves(from, count)
    }

    /// A sequenced entry through the sorted chunks, then the incomplete
    /// chunk; one still waiting by reading the queue's tail, then the bets'.
    /// In one snapshot: a step committing between the reads would otherwise
    /// move the entry from the waiting ones to the leaves unseen.
    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>> {
        self.in_snapshot(|tx| tx.entry_by_hash(leaf_hash))
    }
}

impl SqliteTx<'_> {
    /// Runs `read` in one snapshot of the database. On a reader that is a
    /// read transaction, ended on every path (an error, a panic's
    /// unwinding: it wrote nothing, so it is rolled back when dropped), so
    /// the connection never goes back to the pool on an old snapshot. The
    /// writer is inside its own transaction already and nothing else
    /// writes: its reads are one snapshot as they are.
    fn in_snapshot<R>(&self, read: impl FnOnce(&Self) -> StoreResult<R>) -> StoreResult<R> {
        if !self.0.is_autocommit() {
            return read(self);
        }
        let snapshot = self.0.unchecked_transaction()?;
        let result = read(self);
        drop(snapshot);
        result
    }

    /// [`LogTx::log_entry_by_hash`], inside a snapshot.
    fn entry_by_hash(&self, leaf_hash: &HashBytes) -> StoreResult<Option<LoggedEntry>> {
        if let Some(index) = self.leaf_index_of(leaf_hash)? {
            let leaf_index = convert::to_u64(index, "leaf index")?;
            let found = self.leaves(leaf_index, 1)?.pop();
            return Ok(found.map(|entry| LoggedEntry {
                entry,
                leaf_index: Some(leaf_index),
            }));
        }
        let (queue_after, mut bets_after) = self.sequenced()?;
        let queued: Option<Vec<u8>> = self
            .0
            .prepare_cached(
                "SELECT entry FROM log_queue WHERE id > ?1 AND leaf_hash = ?2 ORDER BY id LIMIT 1",
            )?
            .query_row(params![queue_after, &leaf_hash[..]], |r| r.get(0))
            .optional()?;
        if let Some(entry) = queued {
            return Ok(Some(LoggedEntry {
                entry,
                leaf_index: None,
            }));
        }
        const PAGE: u32 = 1024;
        loop {
            let page = self.pending_bets(bets_after, PAGE)?;
            let Some(&(last, _)) = page.last() else {
                return Ok(None);
            };
            if let Some(&(bet, _)) = page.iter().find(|(_, hash)| hash == leaf_hash) {
                let rebuilt = self.bet_entries("id = ?1", [bet])?.pop();
                return Ok(rebuilt.map(|(_, entry)| LoggedEntry {
                    entry,
                    leaf_index: None,
                }));
            }
            bets_after = last;
        }
    }

    /// A bet's leaf is rebuilt from the bet: bets are sequenced in id
    /// order, so the logged bets between the first and the last of these
    /// leaves' bets are exactly theirs, read in one range.
    fn leaves(&self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>> {
        let from = convert::to_i64(from, "leaf index")?;
        let mut stmt = self.0.prepare_cached(
            "SELECT l.bet_id, q.entry FROM log_leaves l LEFT JOIN log_queue q ON q.id = l.entry_id
             WHERE l.leaf_index >= ?1 AND l.leaf_index < ?1 + ?2 ORDER BY l.leaf_index",
        )?;
        let rows = stmt.query_map(params![from, count], |r| {
            Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<Vec<u8>>>(1)?))
        })?;
        let leaves = rows.collect::<Result<Vec<_>, _>>()?;
        drop(stmt);
        let bet_ids: Vec<i64> = leaves.iter().filter_map(|(bet, _)| *bet).collect();
        let mut bets = self.logged_bet_entries(&bet_ids)?.into_iter();
        leaves
            .into_iter()
            .map(|leaf| match leaf {
                (_, Some(entry)) => Ok(entry),
                (Some(_), None) => bets
                    .next()
                    .ok_or_else(|| StoreError::other("a leaf's entry is missing")),
                (None, None) => Err(StoreError::other("a leaf's entry is missing")),
            })
            .collect()
    }

    /// The outcome entries of these logged bets (ascending ids), in order,
    /// read in one range: bets are sequenced in id order, so the logged bets
    /// between the first and the last are exactly these, or more.
    fn logged_bet_entries(&self, ids: &[i64]) -> StoreResult<Vec<Vec<u8>>> {
        let (Some(&first), Some(&last)) = (ids.first(), ids.last()) else {
            return Ok(Vec::new());
        };
        let mut range = self
            .bet_entries(
                "id >= ?1 AND id <= ?2 AND logged ORDER BY id",
                [first, last],
            )?
            .into_iter();
        ids.iter()
            .map(|&id| {
                range
                    .find(|(bet, _)| *bet == id)
                    .map(|(_, entry)| entry)
                    .ok_or_else(|| StoreError::other("a logged bet's row is missing"))
            })
            .collect()
    }

    /// The queued entries and the logged bets still waiting, up to `limit` each.
    fn pending_in_snapshot(&self, limit: u32) -> StoreResult<Waiting> {
        let (queue_after, bets_after) = self.sequenced()?;
        let mut stmt = self.0.prepare_cached(
            "SELECT id, leaf_hash, bets_before FROM log_queue
             WHERE id > ?1 ORDER BY id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![queue_after, limit], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?, r.get(2)?))
        })?;
        let queued = rows
            .map(|row| {
                let (id, hash, before) = row?;
                Ok((id, hash_bytes(hash)?, before))
            })
            .collect::<StoreResult<Vec<Queued>>>()?;
        Ok(Waiting {
            queue: queued,
            bets: self.pending_bets(bets_after, limit)?,
        })
    }

    /// The hash `select` finds for each of `keys` (`what` they are), one
    /// probe each; a key it finds none for is left out.
    fn hashes_at(
        &self,
        select: &str,
        keys: &[u64],
        what: &str,
    ) -> StoreResult<Vec<(u64, HashBytes)>> {
        let mut stmt = self.0.prepare_cached(select)?;
        let mut out = Vec::with_capacity(keys.len());
        for &key in keys {
            let found: Option<Vec<u8>> = stmt
                .query_row([convert::to_i64(key, what)?], |r| r.get(0))
                .optional()?;
            if let Some(hash) = found {
                out.push((key, hash_bytes(hash)?));
            }
        }
        Ok(out)
    }

    /// The node hashes among `indexes` that the steps' runs hold: each is in
    /// the run of the last step that began at or before the leaf that
    /// completed it. Consecutive indexes mostly share a run, read once.
    fn run_hashes(&self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        let mut stmt = self.0.prepare_cached(
            "SELECT first_leaf, hashes FROM log_hash_runs WHERE first_leaf <= ?1
             ORDER BY first_leaf DESC LIMIT 1",
        )?;
        let mut run: Option<(u64, Vec<u8>)> = None;
        let mut found = Vec::with_capacity(indexes.len());
        for &index in indexes {
            let Some(last) = fairseed_tlog::completing_leaf(index) else {
                continue;
            };
            let mut hash = run.as_ref().and_then(|r| in_run(r, index));
            if hash.is_none() {
                run = stmt
                    .query_row([convert::to_i64(last, "leaf index")?], |r| {
                        Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
                    })
                    .optional()?
                    .map(|(first, hashes)| {
                        StoreResult::Ok((convert::to_u64(first, "leaf index")?, hashes))
                    })
                    .transpose()?;
                hash = run.as_ref().and_then(|r| in_run(r, index));
            }
            found.extend(hash.map(|h| (index, h)));
        }
        Ok(found)
    }

    /// The last queued entry and the last bet given a leaf.
    fn sequenced(&self) -> StoreResult<(i64, i64)> {
        Ok(self
            .0
            .prepare_cached("SELECT entry_id, bet_id FROM log_sequenced")?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
    }

    /// Up to `limit` logged bets past `after`, with their leaf hashes: the
    /// remembered ones as they are, the others rebuilt from their rows
    /// (`translog/bet_leaves.rs`) in one range read.
    fn pending_bets(&self, after: i64, limit: u32) -> StoreResult<Vec<BetLeaf>> {
        let ids = self
            .0
            .prepare_cached("SELECT id FROM bets WHERE id > ?1 AND logged ORDER BY id LIMIT ?2")?
            .query_map(params![after, limit], |r| r.get::<_, i64>(0))?
            .collect::<Result<Vec<i64>, _>>()?;
        let remembered = self.1.get(&ids);
        let missed: Vec<i64> = ids
            .iter()
            .zip(&remembered)
            .filter_map(|(&id, hash)| hash.is_none().then_some(id))
            .collect();
        let mut rebuilt = self.logged_bet_entries(&missed)?.into_iter();
        ids.into_iter()
            .zip(remembered)
            .map(|(id, hash)| match hash {
                Some(hash) => Ok((id, hash)),
                None => rebuilt
                    .next()
                    .map(|entry| (id, fairseed_tlog::leaf_hash(&entry).0))
                    .ok_or_else(|| StoreError::other("a waiting bet's row is missing")),
            })
            .collect()
    }

    /// The leaf index of `leaf_hash` (the first, should two be equal):
    /// its bucket in each complete chunk, then a read of the incomplete one.
    fn leaf_index_of(&self, leaf_hash: &HashBytes) -> StoreResult<Option<i64>> {
        let size: i64 = self
            .0
            .prepare_cached("SELECT ifnull(max(leaf_index) + 1, 0) FROM log_leaves")?
            .query_row([], |r| r.get(0))?;
        let sealed = convert::to_u64(size, "tree size")? / HASH_CHUNK;
        let mut probe = self.0.prepare_cached(
            "SELECT leaves FROM log_hash_buckets WHERE chunk = ?1 AND bucket = ?2",
        )?;
        for chunk in 0..sealed {
            let bucket: Option<Vec<u8>> = probe
                .query_row(
                    params![convert::to_i64(chunk, "chunk")?, leaf_hash[0]],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(offset) = bucket.and_then(|b| hash_buckets::find(&b, leaf_hash)) {
                return Ok(Some(convert::to_i64(
                    chunk * HASH_CHUNK + offset,
                    "leaf index",
                )?));
            }
        }
        Ok(self
            .0
            .prepare_cached(
                "SELECT leaf_index FROM log_leaves WHERE leaf_index >= ?1 AND leaf_hash = ?2
                 ORDER BY leaf_index LIMIT 1",
            )?
            .query_row(
                params![
                    convert::to_i64(sealed * HASH_CHUNK, "leaf index")?,
                    &leaf_hash[..]
                ],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Writes the buckets of sorted hashes of every chunk completed by the
    /// leaves `from .. to` just appended.
    fn seal_hash_chunks(&mut self, from: u64, to: u64) -> StoreResult<()> {
        for chunk in completed_chunks(from, to) {
            let first = chunk * HASH_CHUNK;
            let leaves = self
                .0
                .prepare_cached(
                    "SELECT leaf_index, leaf_hash FROM log_leaves
                     WHERE leaf_index >= ?1 AND leaf_index < ?2",
                )?
                .query_map(
                    params![
                        convert::to_i64(first, "leaf index")?,
                        convert::to_i64(first + HASH_CHUNK, "leaf index")?
                    ],
                    |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)),
                )?
                .map(|row| {
                    let (index, hash) = row?;
                    Ok((convert::to_u64(index, "leaf index")?, hash_bytes(hash)?))
                })
                .collect::<StoreResult<Vec<(u64, HashBytes)>>>()?;
            let mut insert = self.0.prepare_cached(
                "INSERT INTO log_hash_buckets (chunk, bucket, leaves) VALUES (?1, ?2, ?3)",
            )?;
            let chunk = convert::to_i64(chunk, "chunk")?;
            for (bucket, bytes) in hash_buckets::encode(first, &leaves) {
                insert.execute(params![chunk, bucket, bytes])?;
            }
        }
        Ok(())
    }
}

/// The node hash stored at `index`, if the run (its first leaf, its
/// hashes) holds it.
fn in_run((first_leaf, hashes): &(u64, Vec<u8>), index: u64) -> Option<HashBytes> {
    let at = usize::try_from(fairseed_tlog::node_position(*first_leaf, index)?).ok()?;
    hashes.get(at.checked_mul(32)?..)?.first_chunk().copied()
}

/// A step's node hashes (`hashes`, in stored order) as one run: the leaf
/// to key it by and the hashes' bytes; `None` if there are none.
///
/// # Errors
/// The hashes are not one run from their first node on: never for a step's
/// hashes, and nothing is written if they are not.
fn hash_run(hashes: &[(u64, HashBytes)]) -> StoreResult<Option<(u64, Vec<u8>)>> {
    let Some(first_leaf) = hashes
        .first()
        .and_then(|(i, _)| fairseed_tlog::completing_leaf(*i))
    else {
        return Ok(None);
    };
    let mut bytes = Vec::with_capacity(hashes.len() * 32);
    for (position, (index, hash)) in (0u64..).zip(hashes) {
        if fairseed_tlog::node_position(first_leaf, *index) != Some(position) {
            return Err(StoreError::other(
                "a sequencing step's node hashes are not one run",
            ));
        }
        bytes.extend_from_slice(hash);
    }
    Ok(Some((first_leaf, bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let tx = SqliteTx(&reader, &leaves);
        let count = |tx: &SqliteTx<'_>| -> StoreResult<i64> {
            Ok(tx.0.query_row("SELECT count(*) FROM t", [], |r| r.get(0))?)
        };
        let seen = tx
            .in_snapshot(|tx| {
                let before = count(tx)?;
                writer.execute("INSERT INTO t VALUES (2)", [])?;
                Ok((before, count(tx)?))
            })
            .expect("read");
        assert_eq!(seen, (1, 1));
        assert!(reader.is_autocommit(), "the snapshot ended");
        assert_eq!(count(&tx).expect("read"), 2);
        let failed = tx.in_snapshot(|tx| {
            count(tx)?;
            Err::<(), _>(StoreError::other("a read failed"))
        });
        assert!(failed.is_err());
        assert!(reader.is_autocommit(), "ended after an error too");
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tx.in_snapshot(|tx| -> StoreResult<()> {
                count(tx)?;
                panic!("a read panicked")
            })
        }));
        assert!(panicked.is_err());
        assert!(reader.is_autocommit(), "and after a panic");
        writer
            .execute("INSERT INTO t VALUES (3)", [])
            .expect("write");
        assert_eq!(count(&tx).expect("read"), 3, "no old snapshot left behind");
    }
}
