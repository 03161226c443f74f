//! Rows and requests that cross the `Store` trait.
//!
//! Everything here is plain data: strings of hex, integers, JSON text. The
//! fairness computations happen in `fairseed-core`, called by the server.

pub use fairseed_core::dice::Condition;

use crate::error::{StoreError, StoreResult};
use crate::seal::SecretSeed;

/// A player account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The player's id.
    pub id: i64,
    /// Chips now (play chips only). Up to `u128` since payouts can exceed 2^64.
    pub balance: u128,
}

/// A new seed pair: a freshly drawn server seed and its commitment.
#[derive(Debug, Clone)]
pub struct NewSeedPair {
    /// The server seed in the clear; the store seals it before writing.
    pub server_seed: SecretSeed,
    /// `sha256(server_seed)`, hex.
    pub commitment: String,
    /// The starting client seed (random unless the player changes it).
    pub client_seed: String,
}

/// A player's current (unrevealed) seed pair, as the player may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedPair {
    /// The pair's id.
    pub id: i64,
    /// The owner.
    pub player_id: i64,
    /// `sha256(server_seed)`, hex.
    pub commitment: String,
    /// The client seed mixed into every roll of this pair.
    pub client_seed: String,
    /// The nonce the next bet will use.
    pub next_nonce: u64,
    /// The log entry the call that created the pair queued (its commitment);
    /// empty when the pair is read back.
    pub appended: Vec<Vec<u8>>,
}

/// A rotated pair with its server seed revealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevealedPair {
    /// The pair's id.
    pub id: i64,
    /// The owner.
    pub player_id: i64,
    /// `sha256(server_seed)`, hex.
    pub commitment: String,
    /// The revealed server seed, hex.
    pub server_seed: String,
    /// The client seed used by every bet of the pair.
    pub client_seed: String,
    /// How many bets the pair carried (nonces `0..bets`).
    pub bets: u64,
}

/// What a bet's settlement is computed from, inside the bet's transaction.
pub struct BetDraw<'a> {
    /// The pair's server seed, unsealed.
    pub server_seed: &'a SecretSeed,
    /// The pair's client seed.
    pub client_seed: &'a str,
    /// The nonce this bet takes.
    pub nonce: u64,
    /// The player's balance before the bet.
    pub balance: u128,
}

/// What one bet came to, decided by the caller (the play crate's dice
/// rules) and stored as given.
pub use fairseed_play::dice::Settled;

/// Settles a bet from its draw, or refuses it.
///
/// The store stores the settlement of exactly one draw, together with the
/// nonce that draw took, so the roll always matches the nonce stored with
/// it. It may call the function more than once: PostgreSQL draws a bet
/// from a read and stores it only if nothing it was drawn from changed
/// since, drawing again otherwise. An error (e.g. a balance too small)
/// aborts the bet; nothing is written.
pub type SettleFn = Box<dyn Fn(BetDraw<'_>) -> crate::error::StoreResult<Settled> + Send + Sync>;

/// A dice bet to place.
pub struct BetRequest {
    /// The bettor.
    pub player_id: i64,
    /// Unique per player; a retry with the same key returns the first bet.
    pub idempotency_key: String,
    /// Stake, whole chips (already checked by the core: 1..2^53-1).
    pub amount: u64,
    /// Win below or above the target.
    pub condition: Condition,
    /// 0..9999.
    pub target: u16,
    /// The core's roll and settlement for this bet.
    pub settle: SettleFn,
}

impl std::fmt::Debug for BetRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BetRequest")
            .field("player_id", &self.player_id)
            .field("amount", &self.amount)
            .field("condition", &self.condition)
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

/// A stored bet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetRow {
    /// The bet's id.
    pub id: i64,
    /// The bettor.
    pub player_id: i64,
    /// The seed pair it was rolled with.
    pub pair_id: i64,
    /// Its nonce within the pair.
    pub nonce: u64,
    /// Stake.
    pub amount: u64,
    /// Win below or above the target.
    pub condition: Condition,
    /// 0..9999.
    pub target: u16,
    /// The roll.
    pub roll: u16,
    /// Whether it won.
    pub win: bool,
    /// Chips paid back, stake included.
    pub payout: u128,
    /// The player's balance right after this bet.
    pub balance_after: u128,
    /// The client's idempotency key.
    pub idempotency_key: String,
}

/// The answer to a bet: the stored row, and whether it was a replay (the
/// key had been used: the row is that first bet, whatever this request asked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetReceipt {
    /// The bet as stored.
    pub bet: BetRow,
    /// True when the idempotency key had been seen: nothing new happened.
    pub replayed: bool,
    /// The log entry the bet queued (its outcome); for a replay, the entry
    /// the first answer queued, read back so both answers carry one receipt.
    pub appended: Vec<Vec<u8>>,
}

/// A record to store (JSON text of one record, docs/spec.md §10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRecord {
    /// The record's `scheme`.
    pub scheme: String,
    /// The record, serialized.
    pub body: String,
}

/// A record to store once, with the players allowed to read it (the
/// operator reads every record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordOut {
    /// The record.
    pub record: NewRecord,
    /// The players who may read it; empty for an operator-only record.
    pub readers: Vec<i64>,
}

impl RecordOut {
    /// A record only the operator reads.
    pub fn operator(record: NewRecord) -> Self {
        Self {
            record,
            readers: Vec::new(),
        }
    }

    /// A record `player` (and the operator) reads.
    pub fn for_player(player: i64, record: NewRecord) -> Self {
        Self {
            record,
            readers: vec![player],
        }
    }
}

/// A stored, revealed record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordRow {
    /// The record's id.
    pub id: i64,
    /// The players who may read it, ascending (the operator reads all).
    pub readers: Vec<i64>,
    /// The record's `scheme`.
    pub scheme: String,
    /// The record, serialized JSON.
    pub body: String,
}

/// Bets a rotation reads at once, and records a [`Rotation`] carries back.
pub const ROTATION_PAGE: u32 = 1_000;

/// Builds the records of a revealed pair from the pair and a page of its bets.
///
/// Called for each page of at most [`ROTATION_PAGE`] bets in nonce order,
/// each page's records stored before the next page is read, so a rotation's
/// memory does not grow with the pair's bets; called once with no bet for a
/// pair without bets, and never with an empty page otherwise. The records
/// of a page must therefore depend only on the pair and that page's bets.
/// An error aborts the whole rotation: a pair is never revealed without its records.
pub type RecordsFn =
    Box<dyn FnMut(&RevealedPair, &[BetRow]) -> crate::error::StoreResult<Vec<NewRecord>> + Send>;

/// The result of rotating a seed pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rotation {
    /// The old pair, now revealed.
    pub revealed: RevealedPair,
    /// The first [`ROTATION_PAGE`] records written for it, in the order
    /// written (all of them for a pair of that many bets or fewer); the
    /// others are read back from the store like any record.
    pub first_records: Vec<RecordRow>,
    /// How many records were written for it.
    pub record_count: u64,
    /// The new current pair (its `appended` holds its commitment entry).
    pub current: SeedPair,
    /// The log entry of the old pair's reveal.
    pub appended: Vec<Vec<u8>>,
}

/// One page request: items with id below `before`, newest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Only ids strictly below this one.
    pub before: Option<i64>,
    /// At most this many items.
    pub limit: u32,
}

/// A new round: anything that commits a secret before play and reveals it
/// at the end (a table-game match, a chess seed, a poker seed session, a
/// selfpoker hand). Its game state is JSON the store does not interpret.
#[derive(Debug, Clone)]
pub struct NewRound {
    /// Unique id, e.g. `match:<match_id>`.
    pub id: String,
    /// What kind of round (`match`, `chess`, `poker`, `selfpoker`).
    pub kind: String,
    /// The public commitment to the secret.
    pub commitment: String,
    /// The secret; sealed before it is written.
    pub secret: SecretSeed,
    /// A second secret that is never revealed (a live table's evidence
    /// key, docs/spec.md §20.7); sealed before it is written, kept apart
    /// from the round's row.
    pub key: Option<SecretSeed>,
    /// Initial state (JSON).
    pub state: String,
    /// Initial status word (`open`, …).
    pub status: String,
}

/// A stored round, without its secret unless revealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRow {
    /// The round's id.
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// The public commitment.
    pub commitment: String,
    /// The secret, once revealed.
    pub revealed: Option<String>,
    /// The state (JSON).
    pub state: String,
    /// The status word.
    pub status: String,
    /// Entries in its log so far.
    pub log_len: u64,
    /// 0 when created, one more on every write: a write names the version it
    /// was computed from and is refused if the round moved since.
    pub version: u64,
}

/// A round as loaded for a step: the row, and its unsealed secret while
/// unrevealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedRound {
    /// The stored row.
    pub row: RoundRow,
    /// The secret, `None` once revealed.
    pub secret: Option<SecretSeed>,
    /// The round's key, if it was created with one: never revealed, so
    /// present for as long as the round is stored.
    pub key: Option<SecretSeed>,
}

/// A write to one existing round, applied only if its version is still
/// `expected_version`.
#[derive(Debug, Clone)]
pub struct RoundWrite {
    /// The round.
    pub id: String,
    /// The version the change was computed from.
    pub expected_version: u64,
    /// What changes.
    pub change: RoundChange,
}

/// An operator or player call made idempotent: the first response is stored
/// with the change and replayed for a retry with the same key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Idempotent {
    /// Whose keys these are: `operator` or `player:<id>`.
    pub scope: String,
    /// The `Idempotency-Key` header.
    pub key: String,
    /// SHA-256 hex of the method, path and body: a retry must match it.
    pub request_hash: String,
    /// The JSON body to replay (the status is always the success one).
    pub response: String,
    /// Where the body holds the ids of records the commit stores. The body
    /// holds `null` there until the store fills it in
    /// ([`fill_record_ids`]); nothing else in the body is touched, whatever
    /// text a client put in it.
    pub record_ids_at: Vec<RecordIdAt>,
}

/// Where an answer holds the id of one record its commit stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordIdAt {
    /// The record, by its place among the records the commit stores, in the
    /// order of the commit's updates (0 is the first).
    pub record: usize,
    /// The JSON pointer (RFC 6901) of the value the id replaces.
    pub pointer: String,
}

impl RecordIdAt {
    /// The id of the commit's `record`-th stored record at `pointer`.
    pub fn new(record: usize, pointer: impl Into<String>) -> Self {
        Self {
            record,
            pointer: pointer.into(),
        }
    }
}

/// Puts the id of each named stored record (`ids`, in the commit's order)
/// where `at` says in `body`. A pointer that names no value in the body, or
/// a record the commit did not store, is the caller's mistake, refused
/// before anything is stored; `body` is then left as it was.
pub fn fill_record_ids(
    body: &mut serde_json::Value,
    at: &[RecordIdAt],
    ids: &[i64],
) -> StoreResult<()> {
    for slot in at {
        if slot.record >= ids.len() {
            return Err(StoreError::other(format!(
                "an answer names record {} but the commit stored {}",
                slot.record,
                ids.len()
            )));
        }
        if body.pointer(&slot.pointer).is_none() {
            return Err(StoreError::other(format!(
                "an answer has no value at its record id pointer {}",
                slot.pointer
            )));
        }
    }
    for slot in at {
        if let Some(value) = body.pointer_mut(&slot.pointer) {
            *value = ids[slot.record].into();
        }
    }
    Ok(())
}

/// One atomic commit: new rounds, writes to existing ones, and the
/// idempotency entry. All of it is stored, or none.
#[derive(Debug, Clone, Default)]
pub struct Commit {
    /// Rounds to create (each at version 0).
    pub creates: Vec<NewRound>,
    /// Writes to existing rounds.
    pub writes: Vec<RoundWrite>,
    /// The response to replay for a retry of this call.
    pub idempotent: Option<Idempotent>,
    /// Log entries to queue beyond the ones the store writes itself (a new
    /// round's commitment, a reveal): e.g. a poker hand's commitment. Their
    /// time is set when they are queued.
    pub log: Vec<fairseed_tlog::LogEntry>,
}

/// The answer to a lease request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaseGrant {
    /// The caller holds the lease now; `took_over_from` names the previous
    /// owner whose lease had expired (`None`: it was free or already ours).
    Granted {
        /// The owner whose expired lease was taken over.
        took_over_from: Option<String>,
    },
    /// A live lease of another owner.
    HeldBy(String),
}

/// One entry of a round's log (a draw, a deal, a state message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogRow {
    /// Position in the round's log, from 0.
    pub seq: u64,
    /// The entry (JSON).
    pub body: String,
}

/// What one step changes in a round, computed from its row and secret.
#[derive(Debug, Clone, Default)]
pub struct RoundChange {
    /// The new state (JSON).
    pub state: String,
    /// The new status word.
    pub status: String,
    /// Entries appended to the log.
    pub log: Vec<String>,
    /// Reveal the secret (the round is over).
    pub reveal: bool,
    /// Records to store with this step, each once with its readers.
    pub records: Vec<RecordOut>,
    /// The log folded into those records, in the same step.
    pub fold: Option<LogFold>,
}

/// What a step keeps of its round's log once the records it stores stand
/// for it: the rows from [`LogFold::before`] on as they are; before it, the
/// rows its records stand for become [`folded_row`]s naming `(seq, record)`
/// pairs, at most [`FOLDED_PER_ROW`] each, each at the `seq` of its last
/// pair; the other rows before it go. The idempotency entries of
/// [`LogFold::keys`] go with them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogFold {
    /// The first `seq` kept whole.
    pub before: u64,
    /// For each record the step stores, in order, the `seq` of the row it
    /// stands for (ascending).
    pub records_at: Vec<u64>,
    /// Idempotency entries of the steps folded away: per scope, the keys
    /// starting with a prefix.
    pub keys: Vec<KeyPrefix>,
}

/// The `(seq, record)` pairs a folded row names at most: few enough that a
/// reader's cost per row stays bounded, many enough that a folded row
/// costs a stored hand a few bytes.
pub const FOLDED_PER_ROW: usize = 64;

/// The idempotency keys of `scope` starting with `prefix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPrefix {
    /// Whose keys (`player:<id>`, …).
    pub scope: String,
    /// How they start.
    pub prefix: String,
}

/// The body of a log row folded into stored records: each `(seq, record)`
/// pair names the row a record stands for and the record's id,
/// `{"records":[[seq,id],…]}`.
pub fn folded_row(records: &[(u64, i64)]) -> String {
    serde_json::json!({ "records": records }).to_string()
}

/// The `(seq, record)` pairs a [`folded_row`] names; `None` for any other
/// body.
pub fn folded_records(body: &str) -> Option<Vec<(u64, i64)>> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Folded {
        records: Vec<(u64, i64)>,
    }
    if !body.starts_with(r#"{"records":"#) {
        return None;
    }
    serde_json::from_str::<Folded>(body)
        .ok()
        .map(|folded| folded.records)
}

/// The result of a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundUpdate {
    /// The round after the step.
    pub row: RoundRow,
    /// The log entries the step appended.
    pub log: Vec<LogRow>,
    /// The records the step stored.
    pub records: Vec<RecordRow>,
    /// The log entries queued with this round (its commitment, its reveal;
    /// the commit's own entries go with its first update).
    pub appended: Vec<Vec<u8>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folded_row_names_its_records_and_nothing_else_reads_as_one() {
        let pairs = [(2, 42), (5, 43)];
        assert_eq!(folded_row(&pairs), r#"{"records":[[2,42],[5,43]]}"#);
        assert_eq!(folded_records(&folded_row(&pairs)), Some(pairs.to_vec()));
        for other in [
            r#"{"type":"hand_end"}"#,
            r#"{"records":[[2,"42"]]}"#,
            r#"{"records":[],"type":"x"}"#,
            "",
            "42",
        ] {
            assert_eq!(folded_records(other), None, "{other}");
        }
    }

    #[test]
    fn record_ids_go_where_the_pointers_say_and_nowhere_else() {
        // A client's own text that looks like an id slot stays as it was.
        let mut body = serde_json::json!({
            "a": {"id": null, "client_seed": "$record_id:0"},
            "b": [null, "$record_id:1"],
        });
        let at = [RecordIdAt::new(0, "/a/id"), RecordIdAt::new(1, "/b/0")];
        fill_record_ids(&mut body, &at, &[41, 7]).expect("filled");
        assert_eq!(
            body,
            serde_json::json!({
                "a": {"id": 41, "client_seed": "$record_id:0"},
                "b": [7, "$record_id:1"],
            })
        );
    }

    #[test]
    fn a_pointer_without_a_record_or_a_value_is_refused() {
        let mut body = serde_json::json!({"id": null});
        assert!(fill_record_ids(&mut body, &[RecordIdAt::new(0, "/id")], &[]).is_err());
        let nowhere = [RecordIdAt::new(0, "/id"), RecordIdAt::new(0, "/nope/id")];
        assert!(fill_record_ids(&mut body, &nowhere, &[3]).is_err());
        assert_eq!(body, serde_json::json!({"id": null}), "left as it was");
    }

    #[test]
    fn a_slot_names_its_record_so_an_answer_may_leave_records_out() {
        let mut body = serde_json::json!({"records": [{"id": null}, {"id": null}]});
        let at = [
            RecordIdAt::new(2, "/records/0/id"),
            RecordIdAt::new(0, "/records/1/id"),
        ];
        fill_record_ids(&mut body, &at, &[5, 6, 7]).expect("filled");
        assert_eq!(body, serde_json::json!({"records": [{"id": 7}, {"id": 5}]}));
    }
}

/// Who is reading records: a player sees only their own, the operator all.
/// (Who looks at a game's state is `fairseed_play::Viewer`, another question.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordReader {
    /// A player, by id.
    Player(i64),
    /// The operator.
    Operator,
}

/// Live events from every process on the database, as broadcast.
pub type EventFeed = tokio::sync::mpsc::Receiver<String>;
