//! `selfpoker`: a player's hand against bots. The hand's 63-bit seed comes
//! from the OS CSPRNG and is committed (`commit`) before any card; every
//! state message carries `commit`; `hand_end` reveals the seed and the hand
//! is archived as a `selfpoker` record owned by the player.
//!
//! The player sits at seat 0; bots' cards are sent only in `hand_end`.

use fairseed_core::record::SelfpokerRecord;
use fairseed_core::selfpoker::{self, SelfpokerDeal};
use fairseed_store::{NewRecord, RecordOut, RoundChange, RoundFn, SecretSeed, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{core_bug, load, save};

/// Stages in order; each `next` moves one forward.
pub const STAGES: [&str; 6] = ["committed", "preflop", "flop", "turn", "river", "hand_end"];

/// A selfpoker hand's state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HandState {
    /// The player who owns the hand.
    pub owner: i64,
    /// Players at the table, 2..10 (seat 0 is the owner).
    pub players: usize,
}

fn seed_of(secret: Option<&SecretSeed>) -> Result<u64, StoreError> {
    let secret = secret.ok_or_else(|| StoreError::conflict("hand_over", "the hand is over"))?;
    secret
        .expose()
        .parse()
        .map_err(|_| StoreError::other("a stored selfpoker seed does not parse"))
}

/// The state message of `stage`: what the owner may see at that point.
pub fn message(
    stage: &str,
    commit: &str,
    hand_id: &str,
    players: usize,
    deal: Option<&SelfpokerDeal>,
    seed: Option<u64>,
) -> Value {
    let mut m = json!({"type": "state", "hand_id": hand_id, "stage": stage, "commit": commit, "players": players});
    let board_cards = match stage {
        "flop" => 3,
        "turn" => 4,
        "river" | "hand_end" => 5,
        _ => 0,
    };
    if let (Some(deal), Value::Object(obj)) = (deal, &mut m) {
        if stage != "committed" {
            obj.insert("hole".into(), json!(deal.holes[0]));
        }
        obj.insert("board".into(), json!(deal.board[..board_cards]));
        if stage == "hand_end" {
            obj.insert("type".into(), "hand_end".into());
            obj.insert("seed".into(), json!(seed));
            obj.insert("holes".into(), json!(deal.holes));
        }
    }
    m
}

/// Moves the hand one stage forward; at `hand_end` reveals and archives.
pub fn next(hand_id: String) -> RoundFn {
    Box::new(move |row, secret| {
        let stage = STAGES
            .iter()
            .position(|s| *s == row.status)
            .ok_or_else(|| {
                StoreError::other(format!("unknown selfpoker stage '{}'", row.status))
            })?;
        let Some(next) = STAGES.get(stage + 1) else {
            return Err(StoreError::conflict(
                "hand_over",
                "the hand is over; start a new one",
            ));
        };
        let state: HandState = load(&row.state)?;
        let seed = seed_of(secret)?;
        let deal = selfpoker::deal(seed, state.players).map_err(core_bug)?;
        let end = *next == "hand_end";
        let msg = message(
            next,
            &row.commitment,
            &hand_id,
            state.players,
            Some(&deal),
            end.then_some(seed),
        );
        let mut records = Vec::new();
        if end {
            let outcome =
                json!({"deck": deal.deck.to_vec(), "holes": deal.holes, "board": deal.board});
            let record = SelfpokerRecord {
                commit: row.commitment.clone(),
                seed: Some(seed),
                players: state.players,
                outcome: outcome.as_object().cloned(),
            };
            records.push(RecordOut::for_player(
                state.owner,
                NewRecord {
                    scheme: "selfpoker".into(),
                    body: save(&record.to_value())?,
                },
            ));
        }
        Ok(RoundChange {
            state: row.state.clone(),
            status: (*next).to_owned(),
            log: vec![save(&msg)?],
            reveal: end,
            records,
        })
    })
}
