//! The public messages a live table adds to its log: each event, and at
//! each hand's end the revealed seed with the hand's record.

use serde::Serialize;

use super::{ClientSeed, LiveTable, Scheme};
use crate::record::{record_of, HandRecord};
use crate::rules::{Event, HoldemError};
use crate::simulate::action_log;

/// A public message, numbered by the table's `seq`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message {
    /// One public event, in order.
    Event {
        /// The table's counter.
        seq: u64,
        /// The event.
        event: Event,
    },
    /// A hand ended: its seed and everything needed to check it.
    HandEnd {
        /// The table's counter.
        seq: u64,
        /// The hand's number.
        number: u64,
        /// The seed, its commitment and how it was made.
        fairplay: Fairplay,
        /// The hand's record, as `fairseed verify` reads it.
        record: Box<HandRecord>,
    },
}

impl Message {
    /// The message's `seq`.
    pub fn seq(&self) -> u64 {
        match self {
            Message::Event { seq, .. } | Message::HandEnd { seq, .. } => *seq,
        }
    }

    /// The same message numbered `seq`.
    pub(crate) fn at(mut self, at: u64) -> Message {
        match &mut self {
            Message::Event { seq, .. } | Message::HandEnd { seq, .. } => *seq = at,
        }
        self
    }
}

/// How a hand's seed was made, revealed at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fairplay {
    /// `selfpoker` or `selfpoker_v2`.
    pub scheme: &'static str,
    /// `sha256("selfpoker:" + seed)`, shown since the hand started.
    pub commit: String,
    /// The seed, decimal (a string: JSON numbers lose digits past 2^53 in browsers).
    pub seed: String,
    /// v2: `sha256` of the session secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_commit: Option<String>,
    /// v2: the table the derivation names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_id: Option<String>,
    /// v2: the seated humans' client seeds the seed derives from, seat order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_seeds: Option<Vec<ClientSeed>>,
}

/// The `hand_end` message of hand `number` (its seq set by the caller),
/// from the table after the hand (`next`, whose `hand_events` end with
/// `hand_ended`).
pub(crate) fn hand_end(
    before: &LiveTable,
    next: &LiveTable,
    number: u64,
    seed: u64,
) -> Result<Message, HoldemError> {
    let events = &next.hand_events;
    let record =
        record_of(&before.table, seed, events, action_log(events)).ok_or(HoldemError::NoHand)?;
    let v2 = next.session.scheme == Scheme::SelfpokerV2;
    let fairplay = Fairplay {
        scheme: next.session.scheme.as_str(),
        commit: record.commit.clone(),
        seed: seed.to_string(),
        session_commit: next.session.commit.clone().filter(|_| v2),
        table_id: v2.then(|| next.table_id.clone()),
        client_seeds: v2.then(|| next.hand_client_seeds.clone()),
    };
    Ok(Message::HandEnd {
        seq: 0,
        number,
        fairplay,
        record: Box::new(record),
    })
}
