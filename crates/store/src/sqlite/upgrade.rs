//! The steps of a SQLite migration that SQL cannot take alone.

use rusqlite::Connection;

use crate::error::{StoreError, StoreResult};
use crate::translog::HASH_CHUNK;

/// Migration 0002's second half: `log_hash_runs` filled with every stored
/// hash (leaves' and nodes'), computed from the leaves' hashes in leaf
/// order, one run per chunk of [`HASH_CHUNK`] leaves. The nodes computed
/// must be the ones the old layout kept in `log_node_runs`, or the upgrade
/// stops before anything changed; then the old table and column go.
///
/// The whole tree is held in memory once (64 bytes a leaf): no release has
/// shipped, so only test and staging logs take this path.
pub(super) fn one_log_layout(conn: &Connection) -> StoreResult<()> {
    let mut log = fairseed_tlog::MemoryLog::new();
    let mut leaves = conn.prepare("SELECT leaf_hash FROM log_leaves ORDER BY leaf_index")?;
    for hash in leaves.query_map([], |r| r.get::<_, Vec<u8>>(0))? {
        let hash: [u8; 32] = hash?
            .try_into()
            .map_err(|_| StoreError::other("a leaf hash is not 32 bytes"))?;
        log.append_leaf_hash(fairseed_tlog::Hash(hash));
    }
    let stored = log.stored_hashes();
    let mut kept = Vec::new();
    let mut runs = conn.prepare("SELECT hashes FROM log_node_runs ORDER BY first_leaf")?;
    for run in runs.query_map([], |r| r.get::<_, Vec<u8>>(0))? {
        kept.extend(run?);
    }
    let computed: Vec<u8> = (0..stored.len() as u64)
        .filter(|&i| fairseed_tlog::stored_leaf(i).is_none())
        .flat_map(|i| stored[i as usize].0)
        .collect();
    if computed != kept {
        return Err(StoreError::other(
            "the log's node hashes are not the ones its leaves make; nothing was changed",
        ));
    }
    let mut insert =
        conn.prepare("INSERT INTO log_hash_runs (first_index, hashes) VALUES (?1, ?2)")?;
    let size = log.size();
    for first_leaf in (0..size).step_by(HASH_CHUNK as usize) {
        let first = fairseed_tlog::leaf_stored_index(first_leaf);
        let end = fairseed_tlog::leaf_stored_index((first_leaf + HASH_CHUNK).min(size));
        let hashes: Vec<u8> = stored[first as usize..end as usize]
            .iter()
            .flat_map(|h| h.0)
            .collect();
        insert.execute(rusqlite::params![first as i64, hashes])?;
    }
    conn.execute_batch("DROP TABLE log_node_runs; ALTER TABLE log_leaves DROP COLUMN leaf_hash;")?;
    Ok(())
}
