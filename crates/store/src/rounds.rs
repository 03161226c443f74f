//! Rounds: loading, versioned commits and the closure step, decided once for
//! every backend over the [`Tx`] primitives.

use std::collections::BTreeSet;

use crate::error::{Refusal, StoreError, StoreResult};
use crate::seal::{SecretSeed, SeedCipher};
use crate::translog::{append, entries, subject};
use crate::tx::{RoundRaw, RoundSet, Tx};
use crate::types::{
    fill_record_ids, folded_row, Commit, Idempotent, LoadedRound, LogFold, LogRow, NewRound,
    RecordIdAt, RecordOut, RecordRow, RoundChange, RoundRow, RoundUpdate, RoundWrite,
    FOLDED_PER_ROW,
};

/// A commit whose new secrets are sealed, ready for a transaction.
pub(crate) struct SealedCommit {
    creates: Vec<(NewRound, Vec<u8>, Option<Vec<u8>>)>,
    writes: Vec<RoundWrite>,
    idempotent: Option<Idempotent>,
    log: Vec<fairseed_tlog::LogEntry>,
}

/// Seals the secrets of a commit's new rounds (before the transaction, so
/// the writer does no cryptography it can avoid).
pub(crate) fn seal_commit(cipher: &SeedCipher, commit: Commit) -> StoreResult<SealedCommit> {
    let creates = commit
        .creates
        .into_iter()
        .map(|round| {
            let sealed = cipher.seal(&round.secret, &round.commitment)?;
            let key = round
                .key
                .as_ref()
                .map(|key| cipher.seal(key, &key_binding(&round.id)))
                .transpose()?;
            Ok((round, sealed, key))
        })
        .collect::<StoreResult<_>>()?;
    Ok(SealedCommit {
        creates,
        writes: commit.writes,
        idempotent: commit.idempotent,
        log: commit.log,
    })
}

/// The rounds `ids` in that order; `NotFound("round")` if one is missing.
async fn rows_in_order<T: Tx>(tx: &mut T, ids: &[String]) -> StoreResult<Vec<RoundRaw>> {
    let found = tx.rounds(ids).await?;
    ids.iter()
        .map(|id| {
            found
                .iter()
                .find(|raw| &raw.row.id == id)
                .cloned()
                .ok_or(StoreError::NotFound("round"))
        })
        .collect()
}

/// What a round's sealed key is bound to: its round's id, under a name no
/// commitment takes, so neither a key nor a seed opens in the other's place.
fn key_binding(id: &str) -> String {
    format!("round_key:{id}")
}

fn unseal_key(cipher: &SeedCipher, raw: &RoundRaw) -> StoreResult<Option<SecretSeed>> {
    raw.sealed_key
        .as_deref()
        .map(|sealed| cipher.open(sealed, &key_binding(&raw.row.id)))
        .transpose()
}

fn unseal(cipher: &SeedCipher, raw: &RoundRaw) -> StoreResult<Option<SecretSeed>> {
    raw.sealed
        .as_deref()
        .map(|sealed| cipher.open(sealed, &raw.row.commitment))
        .transpose()
}

/// One round, without its secret unless revealed.
pub(crate) async fn round<T: Tx>(tx: &mut T, id: &str) -> StoreResult<RoundRow> {
    let mut rows = rows_in_order(tx, &[id.to_owned()]).await?;
    rows.pop()
        .map(|raw| raw.row)
        .ok_or(StoreError::NotFound("round"))
}

/// The rounds with their unsealed secrets, for a step to decide on.
pub(crate) async fn load_rounds<T: Tx>(
    tx: &mut T,
    cipher: &SeedCipher,
    ids: &[String],
) -> StoreResult<Vec<LoadedRound>> {
    rows_in_order(tx, ids)
        .await?
        .into_iter()
        .map(|raw| {
            let secret = unseal(cipher, &raw)?;
            let key = unseal_key(cipher, &raw)?;
            Ok(LoadedRound {
                row: raw.row,
                secret,
                key,
            })
        })
        .collect()
}

fn new_row(round: &NewRound) -> RoundRow {
    RoundRow {
        id: round.id.clone(),
        kind: round.kind.clone(),
        commitment: round.commitment.clone(),
        revealed: None,
        state: round.state.clone(),
        status: round.status.clone(),
        log_len: 0,
        version: 0,
    }
}

/// Queues a commit's own log entries; the bytes queued.
async fn append_all<T: Tx>(
    tx: &mut T,
    subject: Option<&str>,
    entries: &[fairseed_tlog::LogEntry],
    now: i64,
) -> StoreResult<Vec<Vec<u8>>> {
    let mut appended = Vec::with_capacity(entries.len());
    for entry in entries {
        appended.extend(append(tx, subject, Some(entry.clone()), now).await?);
    }
    Ok(appended)
}

/// Stores an idempotency entry, the records' `ids` put where it says;
/// `idempotency_key_used` if the key is taken.
async fn insert_idempotent<T: Tx>(
    tx: &mut T,
    entry: &Idempotent,
    ids: &[i64],
    now: i64,
) -> StoreResult<()> {
    let entry = Idempotent {
        response: with_record_ids(&entry.response, &entry.record_ids_at, ids)?,
        ..entry.clone()
    };
    if tx.insert_idempotent(&entry, now).await? {
        Ok(())
    } else {
        Err(StoreError::conflict(
            Refusal::IdempotencyKeyUsed,
            format!("Idempotency-Key '{}' was already used", entry.key),
        ))
    }
}

/// The stored answer `response` with the records' `ids` where its pointers
/// `at` say; unparsed when it names none.
fn with_record_ids(response: &str, at: &[RecordIdAt], ids: &[i64]) -> StoreResult<String> {
    if at.is_empty() {
        return Ok(response.to_owned());
    }
    let mut body = serde_json::from_str(response).map_err(StoreError::other)?;
    fill_record_ids(&mut body, at, ids)?;
    Ok(body.to_string())
}

/// Stores one record alone (an import) with an optional idempotency entry.
pub(crate) async fn import_record<T: Tx>(
    tx: &mut T,
    record: &RecordOut,
    idempotent: Option<&Idempotent>,
    now: i64,
) -> StoreResult<RecordRow> {
    let row = insert_record(tx, record, now).await?;
    if let Some(entry) = idempotent {
        insert_idempotent(tx, entry, &[row.id], now).await?;
    }
    Ok(row)
}

/// All of a commit or none of it (the caller rolls back on error): the new
/// rounds, each write if its version holds, then the idempotency entry
/// (the ids just stored put where its response says).
/// One update per create, then one per write, in the order given. With a
/// log, each round's commitment and reveal entries are queued with it, and
/// the commit's own entries with the first update.
pub(crate) async fn commit<T: Tx>(
    tx: &mut T,
    cipher: &SeedCipher,
    commit: SealedCommit,
    now: i64,
) -> StoreResult<Vec<RoundUpdate>> {
    let mut updates = Vec::with_capacity(commit.creates.len() + commit.writes.len());
    let subject = commit
        .idempotent
        .as_ref()
        .map(|entry| subject(&entry.scope, &entry.key));
    let subject = subject.as_deref();
    for (round, sealed, key) in &commit.creates {
        if !tx.insert_round(round, sealed, key.as_deref(), now).await? {
            return Err(StoreError::conflict(
                Refusal::RoundExists,
                format!("round '{}' already exists", round.id),
            ));
        }
        let appended = append(tx, subject, entries::round_commitment(round), now).await?;
        updates.push(RoundUpdate {
            row: new_row(round),
            log: Vec::new(),
            records: Vec::new(),
            appended,
        });
    }
    let ids: Vec<String> = commit.writes.iter().map(|w| w.id.clone()).collect();
    distinct(&ids)?;
    let rows = rows_in_order(tx, &ids).await?;
    // Rows are written in id order so two commits over the same rounds
    // cannot deadlock on PostgreSQL's row locks.
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by(|&a, &b| ids[a].cmp(&ids[b]));
    let mut written: Vec<Option<RoundUpdate>> = vec![None; ids.len()];
    for i in order {
        let write = &commit.writes[i];
        let raw = &rows[i];
        if raw.row.version != write.expected_version {
            return Err(version_conflict(&write.id, write.expected_version));
        }
        let secret = unseal(cipher, raw)?;
        let update = apply(
            tx,
            raw.row.clone(),
            secret.as_ref(),
            &write.change,
            subject,
            now,
        )
        .await?;
        written[i] = Some(update);
    }
    updates.extend(written.into_iter().flatten());
    let own = append_all(tx, subject, &commit.log, now).await?;
    match updates.first_mut() {
        Some(first) => first.appended.extend(own),
        None if own.is_empty() => {}
        None => {
            return Err(StoreError::other(
                "log entries in a commit that changes no round",
            ))
        }
    }
    if let Some(entry) = &commit.idempotent {
        let ids: Vec<i64> = updates
            .iter()
            .flat_map(|u| &u.records)
            .map(|r| r.id)
            .collect();
        insert_idempotent(tx, entry, &ids, now).await?;
    }
    Ok(updates)
}

fn version_conflict(id: &str, expected: u64) -> StoreError {
    StoreError::conflict(
        Refusal::VersionConflict,
        format!("round '{id}' changed since version {expected}; load it again"),
    )
}

/// Writes one change to a round whose version is `row.version`.
async fn apply<T: Tx>(
    tx: &mut T,
    row: RoundRow,
    secret: Option<&SecretSeed>,
    change: &RoundChange,
    subject: Option<&str>,
    now: i64,
) -> StoreResult<RoundUpdate> {
    let reveal = secret.filter(|_| change.reveal).map(SecretSeed::expose);
    let added = u64::try_from(change.log.len()).map_err(StoreError::other)?;
    let set = RoundSet {
        id: &row.id,
        expected_version: row.version,
        state: &change.state,
        status: &change.status,
        log_len: row.log_len + added,
        reveal,
        now,
    };
    if !tx.update_round(&set).await? {
        return Err(version_conflict(&row.id, row.version));
    }
    let mut log = Vec::with_capacity(change.log.len());
    for (seq, body) in (row.log_len..).zip(&change.log) {
        tx.insert_log(&row.id, seq, body, now).await?;
        log.push(LogRow {
            seq,
            body: body.clone(),
        });
    }
    let mut records = Vec::with_capacity(change.records.len());
    for out in &change.records {
        records.push(insert_record(tx, out, now).await?);
    }
    if let Some(fold) = &change.fold {
        fold_log(tx, &row.id, fold, &records, row.log_len + added, now).await?;
    }
    let reveal_entry = reveal.and_then(|secret| entries::round_reveal(&row, secret));
    let appended = append(tx, subject, reveal_entry, now).await?;
    Ok(RoundUpdate {
        row: RoundRow {
            revealed: reveal.map(str::to_owned).or(row.revealed),
            state: change.state.clone(),
            status: change.status.clone(),
            log_len: row.log_len + added,
            version: row.version + 1,
            ..row
        },
        log,
        records,
        appended,
    })
}

/// Folds a round's log of `log_len` rows into the `records` just stored
/// ([`LogFold`]).
async fn fold_log<T: Tx>(
    tx: &mut T,
    id: &str,
    fold: &LogFold,
    records: &[RecordRow],
    log_len: u64,
    now: i64,
) -> StoreResult<()> {
    let ascending = fold.records_at.windows(2).all(|w| w[0] < w[1]);
    if fold.records_at.len() != records.len() || fold.before > log_len || !ascending {
        return Err(StoreError::other(format!(
            "a fold of {} log rows before {} at {:?}, with {} records stored",
            log_len,
            fold.before,
            fold.records_at,
            records.len()
        )));
    }
    let folded: Vec<(u64, i64)> = fold
        .records_at
        .iter()
        .zip(records)
        .filter(|(&seq, _)| seq < fold.before)
        .map(|(&seq, record)| (seq, record.id))
        .collect();
    tx.delete_log_before(id, fold.before).await?;
    for pairs in folded.chunks(FOLDED_PER_ROW) {
        if let Some(&(last, _)) = pairs.last() {
            tx.insert_log(id, last, &folded_row(pairs), now).await?;
        }
    }
    for keys in &fold.keys {
        tx.delete_idempotent_prefix(&keys.scope, &keys.prefix)
            .await?;
    }
    Ok(())
}

/// Stores a record once and lets each of its readers read it.
pub(crate) async fn insert_record<T: Tx>(
    tx: &mut T,
    out: &RecordOut,
    now: i64,
) -> StoreResult<RecordRow> {
    let id = tx.insert_record(&out.record, now).await?;
    let readers: BTreeSet<i64> = out.readers.iter().copied().collect();
    for &player in &readers {
        tx.insert_reader(id, player).await?;
    }
    Ok(RecordRow {
        id,
        readers: readers.into_iter().collect(),
        scheme: out.record.scheme.clone(),
        body: out.record.body.clone(),
    })
}

/// Refuses a step naming a round twice.
fn distinct(ids: &[String]) -> StoreResult<()> {
    let set: BTreeSet<&String> = ids.iter().collect();
    if set.len() == ids.len() {
        Ok(())
    } else {
        Err(StoreError::conflict(
            Refusal::DuplicateRound,
            "a step names the same round twice",
        ))
    }
}

/// The records a viewer may read, and the one asked for.
pub(crate) async fn record<T: Tx>(
    tx: &mut T,
    viewer: crate::types::RecordReader,
    id: i64,
) -> StoreResult<RecordRow> {
    tx.records_with_ids(viewer, &[id])
        .await?
        .pop()
        .ok_or(StoreError::NotFound("record"))
}
