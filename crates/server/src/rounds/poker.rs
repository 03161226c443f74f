//! `poker_hmac_v1`: tables with seed sessions. A session's server seed is
//! committed when it opens; players sit with a client seed given together
//! with that commitment; each hand publishes `hand_commitment` and
//! `deck_root` before any card; a player gets only their own hole cards and
//! the board street by street; leaving gives a `poker_hmac_v1_proof` record
//! per hand played; rotation publishes the seed and every hand as a
//! `poker_hmac_v1` record.
//!
//! A table is a round of its own (kind `poker_table`) holding the seats and
//! the current session number; its sealed secret is an unused random value
//! (rounds always carry one). A session is a round (kind `poker`,
//! id `poker:<table>:s<k>`). Steps that touch both lock both.

use std::collections::BTreeMap;

use fairseed_core::poker::{self, PokerDeck};
use fairseed_core::record::{PokerHand, PokerProofRecord, PokerRecord};
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use fairseed_store::{
    NewRecord, RecordOut, RoundChange, RoundRow, RoundsFn, SecretSeed, StoreError,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{core_bug, load, save};

/// Hands per session before it rotates.
pub const MAX_HANDS: usize = 500;
/// A session's lifetime before it rotates (24 h).
pub const MAX_AGE_MS: i64 = 24 * 60 * 60 * 1000;
/// A session open for play.
pub const OPEN: &str = "open";
/// A rotated (revealed) session.
pub const ROTATED: &str = "rotated";

/// A seated player.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Seat {
    /// The player.
    pub player: i64,
    /// Their client seed, and the session number it was given for.
    pub client_seed: Option<String>,
    /// The session the client seed belongs to (a rotation asks for a new one).
    pub session_no: u64,
}

/// A table's state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TableState {
    /// The table id.
    pub table: String,
    /// The current session number (`s<k>`).
    pub session_no: u64,
    /// Seats 0..9 (decimal keys).
    pub seats: BTreeMap<u8, Seat>,
}

/// One hand of a session.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HandState {
    /// Hand number in the session, from 1.
    pub n: u64,
    /// Seat → client seed, as dealt.
    pub seats: BTreeMap<u8, String>,
    /// Seat → player.
    pub players: BTreeMap<u8, i64>,
    /// `sha256(hand_value)`.
    pub hand_commitment: String,
    /// The Merkle root of the deck.
    pub deck_root: String,
    /// 0 preflop, 1 flop, 2 turn, 3 river.
    pub street: u8,
}

/// A session's state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SessionState {
    /// The table id.
    pub table: String,
    /// The session id (`s<k>`).
    pub session: String,
    /// When it opened (Unix ms).
    pub opened_ms: i64,
    /// Hands played.
    pub hands: Vec<HandState>,
}

/// The session round id of table `table`, number `k`.
pub fn session_id(table: &str, k: u64) -> String {
    format!("poker:{table}:s{k}")
}

/// The table round id.
pub fn table_id(table: &str) -> String {
    format!("poker_table:{table}")
}

fn seed_of(secret: Option<&SecretSeed>) -> Result<ServerSeed, StoreError> {
    let secret = secret
        .ok_or_else(|| StoreError::conflict("session_rotated", "the session was rotated; retry"))?;
    ServerSeed::parse(secret.expose())
        .map_err(|_| StoreError::other("a stored server seed does not parse"))
}

fn idents(s: &SessionState) -> Result<(Ident, Ident), StoreError> {
    Ok((
        Ident::parse(&s.table).map_err(core_bug)?,
        Ident::parse(&s.session).map_err(core_bug)?,
    ))
}

/// Deals hand `h` again from the seed (the deck is never stored).
fn deck(seed: &ServerSeed, s: &SessionState, h: &HandState) -> Result<PokerDeck, StoreError> {
    let (t, sess) = idents(s)?;
    let value = poker::hand_value(seed, &t, &sess, h.n);
    let seats = h
        .seats
        .iter()
        .map(|(k, v)| Ok((*k, ClientSeed::parse(v).map_err(core_bug)?)))
        .collect::<Result<BTreeMap<u8, ClientSeed>, StoreError>>()?;
    poker::deal(&value, &t, &sess, h.n, &seats).map_err(core_bug)
}

fn pair(
    rounds: &[(RoundRow, Option<SecretSeed>)],
) -> Result<(&RoundRow, Option<&SecretSeed>, &RoundRow), StoreError> {
    match rounds {
        [(session, secret), (table, _)] => Ok((session, secret.as_ref(), table)),
        _ => Err(StoreError::other(
            "a poker step takes the session and the table",
        )),
    }
}

fn keep(row: &RoundRow) -> RoundChange {
    RoundChange {
        state: row.state.clone(),
        status: row.status.clone(),
        ..RoundChange::default()
    }
}

fn current(session: &RoundRow, table: &TableState) -> Result<SessionState, StoreError> {
    let s: SessionState = load(&session.state)?;
    if session.status != OPEN || s.session != format!("s{}", table.session_no) {
        return Err(StoreError::conflict(
            "session_rotated",
            "the table's session changed; fetch the table again",
        ));
    }
    Ok(s)
}

/// Sits (or re-seeds) `player` at `seat` with a client seed chosen after
/// seeing the session's commitment.
pub fn sit(player: i64, seat: u8, client: ClientSeed, shown: Commitment) -> RoundsFn {
    Box::new(move |rounds| {
        let (session, _, table_row) = pair(rounds)?;
        let mut table: TableState = load(&table_row.state)?;
        current(session, &table)?;
        let committed = Commitment::parse(&session.commitment).map_err(core_bug)?;
        if !committed.ct_eq_commitment(&shown) {
            return Err(StoreError::conflict(
                "commitment_mismatch",
                "commitment: not the table's current session commitment",
            ));
        }
        if seat > 9 {
            return Err(StoreError::conflict(
                "invalid_seat",
                format!("seat: {seat} is not 0..9"),
            ));
        }
        if let Some((other, _)) = table
            .seats
            .iter()
            .find(|(s, v)| v.player == player && **s != seat)
        {
            return Err(StoreError::conflict(
                "already_seated",
                format!("you already sit at seat {other}"),
            ));
        }
        match table.seats.get(&seat) {
            Some(s) if s.player != player => {
                return Err(StoreError::conflict(
                    "seat_taken",
                    format!("seat: {seat} is taken"),
                ))
            }
            _ => {}
        }
        table.seats.insert(
            seat,
            Seat {
                player,
                client_seed: Some(client.as_str().to_owned()),
                session_no: table.session_no,
            },
        );
        let log = save(&json!({"event": "sit", "seat": seat, "client_seed": client.as_str()}))?;
        Ok(vec![
            RoundChange {
                log: vec![log],
                ..keep(session)
            },
            RoundChange {
                state: save(&table)?,
                ..keep(table_row)
            },
        ])
    })
}

/// Whether the session must rotate before another hand.
pub fn due(session: &RoundRow, now_ms: i64) -> Result<bool, StoreError> {
    let s: SessionState = load(&session.state)?;
    Ok(s.hands.len() >= MAX_HANDS || now_ms.saturating_sub(s.opened_ms) >= MAX_AGE_MS)
}

/// Starts the next hand with every seat that has a client seed for this
/// session: publishes `hand_commitment` and `deck_root`, no card.
pub fn start_hand() -> RoundsFn {
    Box::new(move |rounds| {
        let (session, secret, table_row) = pair(rounds)?;
        let table: TableState = load(&table_row.state)?;
        let mut s = current(session, &table)?;
        if s.hands.len() >= MAX_HANDS {
            return Err(StoreError::conflict(
                "session_full",
                "the session has 500 hands; it rotates first",
            ));
        }
        let ready: BTreeMap<u8, &Seat> = table
            .seats
            .iter()
            .filter(|(_, v)| v.session_no == table.session_no && v.client_seed.is_some())
            .map(|(k, v)| (*k, v))
            .collect();
        if ready.len() < 2 {
            return Err(StoreError::conflict(
                "not_enough_players",
                format!(
                    "{} seated player(s) with a client seed for this session, need 2",
                    ready.len()
                ),
            ));
        }
        let n = s.hands.len() as u64 + 1;
        let mut hand = HandState {
            n,
            seats: ready
                .iter()
                .map(|(k, v)| (*k, v.client_seed.clone().unwrap_or_default()))
                .collect(),
            players: ready.iter().map(|(k, v)| (*k, v.player)).collect(),
            hand_commitment: String::new(),
            deck_root: String::new(),
            street: 0,
        };
        let seed = seed_of(secret)?;
        let (t, sess) = idents(&s)?;
        hand.hand_commitment = poker::hand_value(&seed, &t, &sess, n).commitment().to_hex();
        hand.deck_root = deck(&seed, &s, &hand)?.root();
        let log = json!({"event": "hand", "n": n, "seats": hand.seats, "hand_commitment": hand.hand_commitment, "deck_root": hand.deck_root});
        s.hands.push(hand);
        Ok(vec![
            RoundChange {
                state: save(&s)?,
                log: vec![save(&log)?],
                ..keep(session)
            },
            keep(table_row),
        ])
    })
}

fn board_len(street: u8) -> usize {
    match street {
        0 => 0,
        1 => 3,
        2 => 4,
        _ => 5,
    }
}

/// Deals the next street of hand `n` (flop, turn, river): the board so far.
pub fn street(n: u64) -> RoundsFn {
    Box::new(move |rounds| {
        let (session, secret, table_row) = pair(rounds)?;
        let table: TableState = load(&table_row.state)?;
        let mut s = current(session, &table)?;
        let seed = seed_of(secret)?;
        let idx = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|i| *i < s.hands.len());
        let idx = idx.ok_or(StoreError::NotFound("hand"))?;
        if idx + 1 != s.hands.len() {
            return Err(StoreError::conflict(
                "hand_over",
                "only the latest hand deals streets",
            ));
        }
        if s.hands[idx].street >= 3 {
            return Err(StoreError::conflict(
                "hand_over",
                "the river is already dealt",
            ));
        }
        s.hands[idx].street += 1;
        let board = deck(&seed, &s, &s.hands[idx])?.board();
        let shown = &board[..board_len(s.hands[idx].street)];
        let log = json!({"event": "street", "n": n, "street": s.hands[idx].street, "board": shown});
        Ok(vec![
            RoundChange {
                state: save(&s)?,
                log: vec![save(&log)?],
                ..keep(session)
            },
            keep(table_row),
        ])
    })
}

/// What `player` may see of hand `n`: their hole cards and the board so far.
pub fn view(player: i64, n: u64, out: std::sync::Arc<std::sync::Mutex<Option<Value>>>) -> RoundsFn {
    Box::new(move |rounds| {
        let (session, secret, table_row) = pair(rounds)?;
        let s: SessionState = load(&session.state)?;
        let idx = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|i| *i < s.hands.len());
        let h = &s.hands[idx.ok_or(StoreError::NotFound("hand"))?];
        let seat = h
            .players
            .iter()
            .find(|(_, p)| **p == player)
            .map(|(k, _)| *k);
        let seat = seat.ok_or(StoreError::NotFound("hand"))?;
        let d = deck(&seed_of(secret)?, &s, h)?;
        let hole = d.holes().get(&seat).copied();
        let board = d.board();
        let v = json!({
            "table": s.table, "session": s.session, "n": n, "seat": seat,
            "hand_commitment": h.hand_commitment, "deck_root": h.deck_root,
            "hole": hole, "street": h.street, "board": &board[..board_len(h.street)],
        });
        if let Ok(mut slot) = out.lock() {
            *slot = Some(v);
        }
        Ok(vec![keep(session), keep(table_row)])
    })
}

/// The session's `poker_hmac_v1` record (with the core's own outcome).
fn session_record(
    seed: &ServerSeed,
    session: &RoundRow,
    s: &SessionState,
) -> Result<Value, StoreError> {
    let (table, sess) = idents(s)?;
    let hands = s
        .hands
        .iter()
        .map(|h| {
            Ok(PokerHand {
                n: h.n,
                seats: h
                    .seats
                    .iter()
                    .map(|(k, v)| Ok((*k, ClientSeed::parse(v).map_err(core_bug)?)))
                    .collect::<Result<_, StoreError>>()?,
                hand_commitment: Commitment::parse(&h.hand_commitment).map_err(core_bug)?,
                deck_root: Commitment::parse(&h.deck_root).map_err(core_bug)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let mut record = PokerRecord {
        table,
        session: sess,
        commitment: Commitment::parse(&session.commitment).map_err(core_bug)?,
        server_seed: Some(seed.clone()),
        hands,
        outcome: None,
    }
    .to_value();
    // The outcome is what the core recomputes from the record itself.
    let verdict = fairseed_core::verify_value(&record);
    if !verdict.valid {
        return Err(StoreError::other(format!(
            "a poker session record does not verify: {:?}",
            verdict.error
        )));
    }
    if let (Value::Object(m), Some(outcome)) = (&mut record, verdict.outcome) {
        m.insert("outcome".into(), outcome);
    }
    Ok(record)
}

/// Rotation's change to the session: reveal, and the record for the
/// operator and for every player who played a hand in it.
fn rotate_session(
    session: &RoundRow,
    secret: Option<&SecretSeed>,
    why: &str,
) -> Result<RoundChange, StoreError> {
    let s: SessionState = load(&session.state)?;
    let seed = seed_of(secret)?;
    let body = save(&session_record(&seed, session, &s)?)?;
    let players: std::collections::BTreeSet<i64> = s
        .hands
        .iter()
        .flat_map(|h| h.players.values().copied())
        .collect();
    Ok(RoundChange {
        state: session.state.clone(),
        status: ROTATED.into(),
        log: vec![save(
            &json!({"event": "rotated", "why": why, "server_seed": seed.reveal()}),
        )?],
        reveal: true,
        records: vec![RecordOut {
            record: NewRecord {
                scheme: "poker_hmac_v1".into(),
                body,
            },
            readers: players.into_iter().collect(),
        }],
    })
}

/// Rotates the table's current session (`why`: `hands`, `age`, `empty`,
/// `restart`); the next session is created by the caller.
pub fn rotate(why: &'static str) -> RoundsFn {
    Box::new(move |rounds| {
        let (session, secret, table_row) = pair(rounds)?;
        let mut table: TableState = load(&table_row.state)?;
        current(session, &table)?;
        let change = rotate_session(session, secret, why)?;
        table.session_no += 1;
        Ok(vec![
            change,
            RoundChange {
                state: save(&table)?,
                ..keep(table_row)
            },
        ])
    })
}

/// `player` leaves: a proof record for each hand they played in this
/// session; if the table empties, the session rotates.
pub fn leave(player: i64) -> RoundsFn {
    Box::new(move |rounds| {
        let (session, secret, table_row) = pair(rounds)?;
        let mut table: TableState = load(&table_row.state)?;
        let s = current(session, &table)?;
        let seat = table
            .seats
            .iter()
            .find(|(_, v)| v.player == player)
            .map(|(k, _)| *k);
        let seat = seat.ok_or_else(|| {
            StoreError::conflict("not_seated", "you are not seated at this table")
        })?;
        table.seats.remove(&seat);
        let seed = seed_of(secret)?;
        let mut records = Vec::new();
        for h in &s.hands {
            let Some(hand_seat) = h
                .players
                .iter()
                .find(|(_, p)| **p == player)
                .map(|(k, _)| *k)
            else {
                continue;
            };
            let d = deck(&seed, &s, h)?;
            let mut positions: Vec<usize> = d
                .hole_positions(hand_seat)
                .map(|p| p.to_vec())
                .unwrap_or_default();
            positions.extend(d.board_positions());
            let leaves: Vec<_> = positions.iter().map(|i| d.proof(*i)).collect();
            let cards: Vec<Value> = leaves
                .iter()
                .map(|l| json!({"i": l.i, "card": l.card}))
                .collect();
            let record = PokerProofRecord {
                deck_root: Commitment::parse(&h.deck_root).map_err(core_bug)?,
                leaves,
                outcome: json!({"cards": cards}).as_object().cloned(),
            };
            records.push(RecordOut::for_player(
                player,
                NewRecord {
                    scheme: "poker_hmac_v1_proof".into(),
                    body: save(&record.to_value())?,
                },
            ));
        }
        let mut session_change = RoundChange {
            log: vec![save(&json!({"event": "leave", "seat": seat}))?],
            records,
            ..keep(session)
        };
        if table.seats.is_empty() {
            let rotation = rotate_session(
                session,
                Some(&SecretSeed::new(seed.reveal().to_owned())),
                "empty",
            )?;
            session_change.log.extend(rotation.log);
            session_change.records.extend(rotation.records);
            session_change.status = rotation.status;
            session_change.reveal = true;
            table.session_no += 1;
        }
        Ok(vec![
            session_change,
            RoundChange {
                state: save(&table)?,
                ..keep(table_row)
            },
        ])
    })
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

/// The index round id of `player`.
pub fn player_index_id(player: i64) -> String {
    format!("poker_player:{player}")
}

/// Adds `table` to a player's index (moving it to the end if present).
pub fn remember_table(table: String) -> fairseed_store::RoundFn {
    Box::new(move |row, _| {
        let mut index: PlayerIndex = load(&row.state)?;
        index.tables.retain(|t| *t != table);
        index.tables.push(table);
        let excess = index.tables.len().saturating_sub(MAX_INDEXED_TABLES);
        index.tables.drain(..excess);
        Ok(RoundChange {
            state: save(&index)?,
            ..keep(row)
        })
    })
}

/// What a player may know of a hand they sit in before any reveal: the
/// commitments published before its first card (no card, no client seed).
pub fn hand_summary(s: &SessionState, session_commitment: &str, player: i64) -> Vec<Value> {
    s.hands
        .iter()
        .rev()
        .filter_map(|h| {
            let seat = h.players.iter().find(|(_, p)| **p == player)?.0;
            Some(json!({
                "table": s.table, "session": s.session, "session_commitment": session_commitment,
                "n": h.n, "seat": seat, "hand_commitment": h.hand_commitment,
                "deck_root": h.deck_root, "street": h.street,
            }))
        })
        .collect()
}
