//! What each viewer may see of a table: the only door out of [`State`].
//!
//! | viewer | sees |
//! |---|---|
//! | anyone ([`Viewer::Public`], [`Viewer::Operator`], a player not in the hand) | seats, the session commitment, each hand's client seeds, `hand_commitment`, `deck_root` and the board dealt so far |
//! | a player dealt into a hand | also their own two hole cards |
//! | a player who left | also, per hand they left, proofs of their holes and of the board dealt **when they left** |
//! | anyone, once a session rotated | its seed and every deck, in the session record |

use std::collections::BTreeMap;

use fairseed_core::record::{PokerHand, PokerRecord};
use fairseed_core::{ClientSeed, Commitment, Ident};
use serde::Serialize;
use serde_json::{json, Value};

use super::error::PokerError;
use super::hand_view::{view_hand, viewer_seat};
use super::rules::Event;
use super::state::{RotatedSession, State, Street};
use crate::{codec, PlayerId, Viewer};

/// A seat as anyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// Who sits there.
    pub player_id: PlayerId,
    /// Whether they gave a client seed for the current session.
    pub ready: bool,
}

/// A hand as listed with its table: what was published before its first card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HandSummary {
    /// The hand's number.
    pub n: u64,
    /// The viewer's seat in it, if they were dealt in.
    pub seat: Option<u8>,
    /// `sha256(hand_value)`.
    #[serde(with = "codec::commitment")]
    pub hand_commitment: Commitment,
    /// The deck's Merkle root.
    #[serde(with = "codec::commitment")]
    pub deck_root: Commitment,
    /// How far it is dealt.
    pub street: Street,
}

/// A table with its current session, as a viewer sees it. No card, no seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableView {
    /// The table id.
    #[serde(with = "codec::ident")]
    pub table_id: Ident,
    /// The current session.
    #[serde(with = "codec::ident")]
    pub session: Ident,
    /// Its seed's commitment.
    #[serde(with = "codec::commitment")]
    pub commitment: Commitment,
    /// Who sits where.
    pub seats: BTreeMap<u8, SeatView>,
    /// The session's hands.
    pub hands: Vec<HandSummary>,
}

/// The table and its current session as `viewer` sees them.
pub fn view(state: &State, viewer: Viewer) -> TableView {
    TableView {
        table_id: state.table.table.clone(),
        session: state.session.session.clone(),
        commitment: state.seed.commitment(),
        seats: state
            .table
            .seats
            .iter()
            .map(|(seat, s)| {
                let view = SeatView {
                    player_id: s.player,
                    ready: s.ready(),
                };
                (*seat, view)
            })
            .collect(),
        hands: state
            .session
            .hands
            .iter()
            .map(|h| HandSummary {
                n: h.n,
                seat: viewer_seat(h, viewer),
                hand_commitment: h.hand_commitment,
                deck_root: h.deck_root,
                street: h.street,
            })
            .collect(),
    }
}

/// What everyone at the table learns of `event` (the session log's entry
/// and the live event): built from public views of `state`, the state the
/// event led to.
///
/// # Errors
/// The event names a hand the state does not hold (a caller bug).
pub fn public_event(state: &State, event: &Event) -> Result<Value, PokerError> {
    Ok(match event {
        Event::Sat { seat, player } => {
            let client_seed = state
                .table
                .seats
                .get(seat)
                .and_then(|s| s.client_seed.as_ref())
                .map(ClientSeed::as_str);
            json!({"event": "sit", "seat": seat, "player_id": player, "client_seed": client_seed})
        }
        Event::HandStarted { n } => {
            let v = view_hand(state, *n, Viewer::Public)?;
            json!({"event": "hand", "n": v.n, "seats": seats_json(&v.seats),
                   "hand_commitment": v.hand_commitment.to_hex(), "deck_root": v.deck_root.to_hex()})
        }
        Event::StreetDealt { n, street } => {
            let v = view_hand(state, *n, Viewer::Public)?;
            json!({"event": "street", "n": v.n, "street": u8::from(*street), "board": v.board})
        }
        Event::Left { seat, player, .. } => {
            json!({"event": "leave", "seat": seat, "player_id": player})
        }
        Event::Rotated(rotated) => json!({
            "event": "rotated",
            "why": rotated.why.as_str(),
            "session": rotated.session.session.as_str(),
            "server_seed": rotated.server_seed().reveal(),
            "next_session": state.session.session.as_str(),
            "commitment": state.seed.commitment().to_hex(),
        }),
    })
}

fn seats_json(seats: &BTreeMap<u8, ClientSeed>) -> BTreeMap<u8, &str> {
    seats.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// The `poker_hmac_v1` record of a rotated session, public to all, with
/// the outcome the core recomputes from the record itself.
///
/// # Errors
/// The record does not verify (a damaged state).
pub fn session_record(rotated: &RotatedSession) -> Result<Value, PokerError> {
    let hands = rotated
        .session
        .hands
        .iter()
        .map(|h| PokerHand {
            n: h.n,
            seats: h.seats.clone(),
            hand_commitment: h.hand_commitment,
            deck_root: h.deck_root,
        })
        .collect();
    let mut record = PokerRecord {
        table: rotated.session.table.clone(),
        session: rotated.session.session.clone(),
        commitment: rotated.commitment(),
        server_seed: Some(rotated.server_seed().clone()),
        hands,
        outcome: None,
    }
    .to_value();
    let verdict = fairseed_core::verify_value(&record);
    if !verdict.valid {
        return Err(PokerError::Corrupt(format!(
            "the session record does not verify: {:?}",
            verdict.error
        )));
    }
    if let (Value::Object(m), Some(outcome)) = (&mut record, verdict.outcome) {
        m.insert("outcome".into(), outcome);
    }
    Ok(record)
}
