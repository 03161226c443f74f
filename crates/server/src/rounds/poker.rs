//! `poker_hmac_v1` tables in the store. A table is a round of its own (kind
//! `poker_table`, id `poker_table:<T>`) holding the seats and the current
//! session number; its sealed secret is an unused random value (rounds
//! always carry one). Each seed session is a round (kind `poker`, id
//! `poker:<T>:s<k>`) whose secret is the session's server seed.
//!
//! This module only translates: rows into a [`fairseed_play::poker::State`],
//! and the state and events a command produced into one [`Commit`] — the
//! rules and what each viewer sees are `fairseed_play::poker`'s.

use std::collections::BTreeSet;

use fairseed_core::{Commitment, ServerSeed};
use fairseed_play::log_entries;
use fairseed_play::poker::{
    public_event, session_record, Event, PokerError, Session, SessionSeed, State, Table,
};
use fairseed_store::{
    Commit, LoadedRound, NewRecord, NewRound, RecordOut, RoundChange, RoundRow, RoundWrite,
    SecretSeed,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ApiError;

use super::save;

/// A session open for play.
pub const OPEN: &str = "open";
/// A rotated (revealed) session.
pub const ROTATED: &str = "rotated";
/// The round kind of a seed session.
pub const SESSION_KIND: &str = "poker";
/// The round kind of a table.
pub const TABLE_KIND: &str = "poker_table";

/// The session round id of table `table`, number `k`.
pub fn session_id(table: &str, k: u64) -> String {
    format!("poker:{table}:s{k}")
}

/// The table round id (also the name of the table's lease).
pub fn table_id(table: &str) -> String {
    format!("{TABLE_KIND}:{table}")
}

/// A table and its current session as loaded, with the rows' versions.
pub struct Loaded {
    /// The state the rules run on.
    pub state: State,
    table_version: u64,
    session_version: u64,
}

fn parse<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> Result<T, ApiError> {
    serde_json::from_str(text).map_err(|e| ApiError::internal(format!("poker {what} state: {e}")))
}

/// Reads the table's round alone.
pub fn table(round: &LoadedRound) -> Result<Table, ApiError> {
    parse(&round.row.state, "table")
}

/// Builds the state from `[session, table]` as loaded. A session that is
/// no longer open was rotated by a concurrent step: `409 session_rotated`
/// (the caller fetches the table again).
pub fn load(rounds: &[LoadedRound]) -> Result<Loaded, ApiError> {
    let [session, table_round] = rounds else {
        return Err(ApiError::internal(
            "a poker step loads the session and the table",
        ));
    };
    let rotated = || {
        ApiError::conflict(
            crate::error::ErrorCode::SESSION_ROTATED,
            "the table's session changed; fetch the table again",
        )
    };
    if session.row.status != OPEN {
        return Err(rotated());
    }
    let secret = session.secret.as_ref().ok_or_else(rotated)?;
    let seed = super::unseal(secret)?;
    let commitment = Commitment::parse(&session.row.commitment)
        .map_err(|_| ApiError::internal("a stored commitment does not parse"))?;
    let state = State::load(
        table(table_round)?,
        parse::<Session>(&session.row.state, "session")?,
        SessionSeed::unsealed(commitment, seed)?,
    )
    .map_err(|e| match e {
        // The table moved on to its next session since the ids were chosen.
        PokerError::Corrupt(_) => rotated(),
        other => other.into(),
    })?;
    Ok(Loaded {
        state,
        table_version: table_round.row.version,
        session_version: session.row.version,
    })
}

/// The round of a new session `state.session` under `seed`.
pub fn new_session(state: &State, seed: &ServerSeed) -> Result<NewRound, ApiError> {
    Ok(NewRound {
        id: session_id(state.table.table.as_str(), state.table.session_no),
        kind: SESSION_KIND.into(),
        commitment: state.seed.commitment().to_hex(),
        secret: SecretSeed::new(seed.reveal().to_owned()),
        key: None,
        state: save(&state.session)?,
        status: OPEN.into(),
    })
}

/// The round of a new table (its secret is unused).
pub fn new_table(state: &State, unused: String) -> Result<NewRound, ApiError> {
    Ok(NewRound {
        id: table_id(state.table.table.as_str()),
        kind: TABLE_KIND.into(),
        commitment: "-".into(),
        secret: SecretSeed::new(unused),
        key: None,
        state: save(&state.table)?,
        status: OPEN.into(),
    })
}

/// What a step wrote, for the handler's answer and the live events.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Published {
    /// The public entries appended to the session's log, in order.
    pub public: Vec<Value>,
    /// Whether the session rotated.
    pub rotated: bool,
}

/// The commit of `next` and `events`, computed from `loaded`. `next_seed`
/// is the seed the command was given for a next session (sealed only if
/// the session rotated).
pub fn commit(
    loaded: &Loaded,
    next: &State,
    events: &[Event],
    next_seed: Option<&ServerSeed>,
) -> Result<(Commit, Published), ApiError> {
    let mut published = Published::default();
    let mut session = RoundChange {
        state: save(&next.session)?,
        status: OPEN.into(),
        ..RoundChange::default()
    };
    let mut creates = Vec::new();
    let mut log = Vec::new();
    for event in events {
        let public = public_event(next, event)?;
        session.log.push(save(&public)?);
        published.public.push(public);
        match event {
            Event::Left { player, proofs, .. } => {
                for view in proofs {
                    if let Some(record) = view.proof_record() {
                        let body = save(&record.to_value())?;
                        session.records.push(RecordOut::for_player(
                            *player,
                            NewRecord {
                                scheme: "poker_hmac_v1_proof".into(),
                                body,
                            },
                        ));
                    }
                }
            }
            Event::Rotated(rotated) => {
                let players: BTreeSet<i64> = rotated
                    .session
                    .hands
                    .iter()
                    .flat_map(|h| h.players.values().copied())
                    .collect();
                session.state = save(&rotated.session)?;
                session.status = ROTATED.into();
                session.reveal = true;
                session.records.push(RecordOut {
                    record: NewRecord {
                        scheme: "poker_hmac_v1".into(),
                        body: save(&session_record(rotated)?)?,
                    },
                    readers: players.into_iter().collect(),
                });
                let seed = next_seed
                    .ok_or_else(|| ApiError::internal("a rotation without the next seed"))?;
                creates.push(new_session(next, seed)?);
                published.rotated = true;
            }
            Event::HandStarted { n } => {
                let session = session_id(next.table.table.as_str(), next.table.session_no);
                let hand = next.session.hand(*n)?;
                log.push(log_entries::poker_hand_commitment(&session, hand));
            }
            Event::Sat { .. } | Event::StreetDealt { .. } => {}
        }
    }
    let table = loaded.state.table.table.as_str();
    let writes = vec![
        RoundWrite {
            id: session_id(table, loaded.state.table.session_no),
            expected_version: loaded.session_version,
            change: session,
        },
        RoundWrite {
            id: table_id(table),
            expected_version: loaded.table_version,
            change: RoundChange {
                state: save(&next.table)?,
                status: OPEN.into(),
                ..RoundChange::default()
            },
        },
    ];
    let commit = Commit {
        creates,
        writes,
        idempotent: None,
        log,
    };
    Ok((commit, published))
}

/// Tables a player's index remembers (the most recent sits).
pub const MAX_INDEXED_TABLES: usize = 20;

/// A player's poker index: the tables they sat at, most recent last. It lets
/// `GET /v1/poker/hands` find the player's hands without scanning every
/// table; it holds no secret (its round's sealed value is unused, as a
/// table's is).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PlayerIndex {
    /// Table ids, most recent last, at most [`MAX_INDEXED_TABLES`].
    pub tables: Vec<String>,
}

impl PlayerIndex {
    /// Adds `table` (moving it to the end if present), keeping the newest.
    pub fn remember(&mut self, table: &str) {
        self.tables.retain(|t| t != table);
        self.tables.push(table.to_owned());
        let excess = self.tables.len().saturating_sub(MAX_INDEXED_TABLES);
        self.tables.drain(..excess);
    }
}

/// The index round id of `player`.
pub fn player_index_id(player: i64) -> String {
    format!("{INDEX_KIND}:{player}")
}

/// The kind of a player's index round.
pub const INDEX_KIND: &str = "poker_player";

/// The write that adds `table` to the index stored in `row`.
pub fn remember_table(row: &RoundRow, table: &str) -> Result<RoundWrite, ApiError> {
    let mut index: PlayerIndex = serde_json::from_str(&row.state).map_err(ApiError::internal)?;
    index.remember(table);
    Ok(RoundWrite {
        id: row.id.clone(),
        expected_version: row.version,
        change: RoundChange {
            state: serde_json::to_string(&index).map_err(ApiError::internal)?,
            status: row.status.clone(),
            ..Default::default()
        },
    })
}

/// The first index round of `player`, holding `table`; `unused` fills the
/// sealed value an index does not use.
pub fn new_index(player: i64, table: &str, unused: String) -> Result<NewRound, ApiError> {
    let mut index = PlayerIndex::default();
    index.remember(table);
    Ok(NewRound {
        id: player_index_id(player),
        kind: INDEX_KIND.into(),
        commitment: "-".into(),
        secret: SecretSeed::new(unused),
        key: None,
        state: serde_json::to_string(&index).map_err(ApiError::internal)?,
        status: OPEN.into(),
    })
}
