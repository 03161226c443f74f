//! Live hold'em tables in the store: one round per table (kind
//! `holdem_table`, id `holdem_table:<T>`). Its sealed secret is the
//! `selfpoker_v2` session secret (64 hex), its commitment the secret's
//! `sha256`, revealed when the table closes; its state is the
//! [`LiveTable`] stripped of the hand's cards and seed (re-derived from the
//! secret on load); its log holds the public messages, `seq` N at index
//! N − 1. Status: `open`, `closed` (the last human left; secret revealed),
//! then `archived` (every hand stored as a record for its players).

use fairseed_core::selfpoker_v2;
use fairseed_holdem::evidence::SigningKey;
use fairseed_holdem::live::machine::{Output, Status};
use fairseed_holdem::live::{self, entries, sealed, LiveTable, TableView};
use fairseed_store::{LoadedRound, NewRound, RoundChange, RoundRow, RoundWrite, SecretSeed};
use fairseed_tlog::LogEntry;

use crate::error::ApiError;
use crate::log::shown;
use crate::rounds::save;

/// The round kind.
pub const KIND: &str = "holdem_table";
/// The id prefix of a table's round (also its lease's name).
pub const PREFIX: &str = entries::SESSION_PREFIX;
/// Being played.
pub const OPEN: &str = "open";
/// The last human left: no more hands; the secret is revealed.
pub const CLOSED: &str = "closed";
/// Closed, and every hand stored as a record.
pub const ARCHIVED: &str = "archived";

/// The round id of `table`.
pub fn round_id(table: &str) -> String {
    entries::session_id(table)
}

/// The prefix of the idempotency keys of `table`'s socket messages, which
/// its archive drops.
pub fn idempotency_prefix(table: &str) -> String {
    format!("holdem:{table}:")
}

/// The live-event topic of `table`.
pub fn topic(table: &str) -> String {
    format!("holdem:{table}")
}

/// A table as loaded: its full state (cards re-derived), its session
/// secret, and the row's version and log length.
pub struct Loaded {
    /// The table, secrets included.
    pub live: LiveTable,
    /// The session secret.
    pub secret: [u8; 32],
    /// The row's status.
    pub status: String,
    /// The session's evidence key (docs/spec.md §20.7): what the table
    /// signs a seat's turn notices and acknowledgements with. `None` for a
    /// table opened before tables signed evidence.
    pub evidence: Option<SigningKey>,
    version: u64,
}

/// The table as `row` stores it, without the cards its secret deals.
pub fn stored_table(row: &RoundRow) -> Result<LiveTable, ApiError> {
    serde_json::from_str(&row.state)
        .map_err(|e| ApiError::internal(format!("hold'em table state: {e}")))
}

/// Reads a table's round, its hand's cards dealt again from the secret.
pub fn load(round: &LoadedRound) -> Result<Loaded, ApiError> {
    let row = &round.row;
    let stripped = stored_table(row)?;
    let hex = round
        .secret
        .as_ref()
        .map(|s| s.expose().to_owned())
        .or_else(|| row.revealed.clone())
        .ok_or_else(|| ApiError::internal("a hold'em table without its session secret"))?;
    let secret = selfpoker_v2::parse_secret(&hex, "session_secret")
        .map_err(|_| ApiError::internal("a stored session secret does not parse"))?;
    let seed = live::running_seed(&stripped, &secret)?;
    let live = sealed::restore(&stripped, seed)
        .map_err(|_| ApiError::internal("a hold'em hand does not match its commitment"))?;
    let evidence = round
        .key
        .as_ref()
        .map(|key| {
            let bytes: [u8; 32] = hex::decode(key.expose())
                .ok()
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| ApiError::internal("a stored evidence key does not parse"))?;
            Ok::<_, ApiError>(SigningKey::from_bytes(&bytes))
        })
        .transpose()?;
    if live.seq != row.log_len {
        return Err(ApiError::internal(
            "a hold'em table's seq is not its log's length",
        ));
    }
    Ok(Loaded {
        live,
        secret,
        status: row.status.clone(),
        evidence,
        version: row.version,
    })
}

/// The round of a new table whose session secret is `secret_hex`, and
/// whose evidence key's secret half is `key_hex` (stored sealed and never
/// revealed, unlike the session secret).
pub fn new_round(
    live: &LiveTable,
    secret_hex: String,
    key_hex: Option<String>,
) -> Result<NewRound, ApiError> {
    Ok(NewRound {
        id: round_id(&live.table_id),
        kind: KIND.into(),
        commitment: live.session.commit.clone().unwrap_or_default(),
        secret: SecretSeed::new(secret_hex),
        key: key_hex.map(SecretSeed::new),
        state: save(&sealed::strip(live).0)?,
        status: OPEN.into(),
    })
}

/// The write taking `loaded` to the machine's `out`: its state (no card,
/// no seed), its status, its messages appended to the log, and the secret
/// revealed when the change ends the session.
pub fn write(loaded: &Loaded, out: &Output) -> Result<RoundWrite, ApiError> {
    Ok(RoundWrite {
        id: round_id(&out.next.table_id),
        expected_version: loaded.version,
        change: RoundChange {
            state: save(&sealed::strip(&out.next).0)?,
            status: match out.status {
                Status::Open => OPEN,
                Status::Closed(_) => CLOSED,
            }
            .into(),
            log: out.messages.iter().map(save).collect::<Result<_, _>>()?,
            reveal: out.reveal.is_some(),
            records: Vec::new(),
            fold: None,
        },
    })
}

/// The names of the log entries a view of `view` shows (docs/spec.md
/// §16.5): the session's commitment (and its end once revealed), the hand
/// in play's commit, and between hands the last hand's commit and seed,
/// named as the machine's entries and the store queue them.
pub fn shown(view: &TableView) -> Vec<String> {
    let mut names = session_names(&view.table_id, view.session.secret.is_some());
    if let Some(hand) = &view.hand {
        names.extend(shown::commitment(&[
            &view.table_id,
            &hand.number.to_string(),
        ]));
    }
    if let Some(last) = &view.last_hand {
        names.extend(ended_hand_names(&view.table_id, last.number));
    }
    names
}

/// The names of the log entries the finished hands `numbers` of table
/// `table_id` show (`GET /v1/holdem/tables/{id}/hands`): the session's
/// commitment (and its end once `revealed`), each hand's commit and seed.
pub fn shown_hands(table_id: &str, numbers: &[u64], revealed: bool) -> Vec<String> {
    let mut names = session_names(table_id, revealed);
    for &number in numbers {
        names.extend(ended_hand_names(table_id, number));
    }
    names
}

/// The session's commitment and its policy's and, once `revealed`, their
/// ends (a table opened before tables logged a policy has no policy entry).
fn session_names(table_id: &str, revealed: bool) -> Vec<String> {
    let session = round_id(table_id);
    let mut names = shown::commitment(&[&session]);
    names.extend(shown::commitment(&[&session, entries::POLICY]));
    names.extend(shown::commitment(&[&session, entries::EVIDENCE_KEY]));
    if revealed {
        names.extend(shown::reveal(&[&session]));
        names.extend(shown::reveal(&[&session, entries::POLICY]));
        names.extend(shown::reveal(&[&session, entries::EVIDENCE_KEY]));
    }
    names
}

/// An ended hand's commit and seed.
fn ended_hand_names(table_id: &str, number: u64) -> Vec<String> {
    let number = number.to_string();
    let mut names = shown::commitment(&[table_id, &number]);
    names.extend(shown::reveal(&[table_id, &number]));
    names
}

/// The entries that open `live`'s table: its session's commitment, its
/// policy's and its evidence key's ([`entries::session_commitment`],
/// [`entries::policy_commitment`], [`entries::evidence_key_commitment`]).
pub fn opening_entries(live: &LiveTable) -> Result<Vec<LogEntry>, ApiError> {
    let session = entries::session_commitment(live)
        .ok_or_else(|| ApiError::internal("a live table's session has no commitment"))?;
    let policy = entries::policy_commitment(live).map_err(ApiError::internal)?;
    let mut opening = vec![session, policy];
    opening.extend(entries::evidence_key_commitment(live));
    Ok(opening)
}
