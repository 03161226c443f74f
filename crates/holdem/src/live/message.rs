//! The public messages a live table adds to its log: each event, and at
//! each hand's end the revealed seed with the hand's record.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use fairseed_core::{selfpoker_v2, selfpoker_v3};

use super::hand_round::RoundNotice;
use super::session::Scheme;
use super::table::LiveTable;
use crate::ai::ENGINE_V1;
use crate::deal::DealV2;
use crate::record::{record_of, HandRecord};
use crate::rules::{Event, HoldemError};

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
        /// The hand's record, as `fairseed verify` reads it (with its
        /// `selfpoker_v2` deal, the secret absent until the session ends).
        record: Box<HandRecord>,
    },
    /// A step of the round before a `selfpoker_v3` hand (docs/spec.md §20.2).
    Round {
        /// The table's counter.
        seq: u64,
        /// What happened.
        notice: RoundNotice,
    },
}

impl Message {
    /// The message's `seq`.
    pub fn seq(&self) -> u64 {
        match self {
            Message::Event { seq, .. }
            | Message::HandEnd { seq, .. }
            | Message::Round { seq, .. } => *seq,
        }
    }

    /// The same message numbered `seq`.
    pub(crate) fn at(mut self, at: u64) -> Message {
        match &mut self {
            Message::Event { seq, .. }
            | Message::HandEnd { seq, .. }
            | Message::Round { seq, .. } => *seq = at,
        }
        self
    }
}

/// A logged message as far as [`logged_record`] reads it: its `type` and,
/// in a `hand_end`, the hand's record; every other field is skipped.
#[derive(Deserialize)]
struct Logged {
    #[serde(rename = "type")]
    kind: String,
    record: Option<HandRecord>,
}

/// The hand record that `text`, a [`Message`] as the service stores it
/// (its JSON), carries: a `hand_end`'s, `None` for any other message.
///
/// # Errors
/// `text` is not a message, or a `hand_end` without a hand record.
pub fn logged_record(text: &str) -> Result<Option<HandRecord>, serde_json::Error> {
    let logged: Logged = serde_json::from_str(text)?;
    if logged.kind != "hand_end" {
        return Ok(None);
    }
    logged
        .record
        .map(Some)
        .ok_or_else(|| serde::de::Error::missing_field("record"))
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
    /// v2: seat → client seed, the seated humans' the seed derives from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_seeds: Option<BTreeMap<usize, String>>,
    /// v2: the session secret, once the session ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_secret: Option<String>,
}

/// The `hand_end` message of hand `number` (its seq set by the caller),
/// from the table while the hand was played (`before`) and after it
/// (`next`, whose `hand_events` end with `hand_ended`).
pub(crate) fn hand_end(
    before: &LiveTable,
    next: &LiveTable,
    number: u64,
    seed: u64,
) -> Result<Message, HoldemError> {
    let events = &next.hand_events;
    let mut record = record_of(&before.table, seed, events).ok_or(HoldemError::NoHand)?;
    record.deal = deal(next);
    record.policy = Some(next.policy.clone());
    record.evidence_key.clone_from(&next.evidence_key);
    for s in &mut record.seats {
        let since = next.since_last_hand(s.seat);
        s.topped_up = Some(since.topped_up);
        s.sat_down = since.sat_down;
        s.came = before.arrival(s.seat);
    }
    if record.deal.is_some() {
        // The driver seeds every AI decision from the session secret.
        record = record.with_ai_engine(ENGINE_V1);
    }
    let deal = record.deal.as_ref();
    let fairplay = Fairplay {
        scheme: next.session.scheme.as_str(),
        commit: record.commit.clone(),
        seed: seed.to_string(),
        session_commit: deal.map(|d| d.session_commit.clone()),
        table_id: deal.map(|d| d.table_id.clone()),
        client_seeds: deal.map(|d| d.client_seeds.clone()),
        session_secret: deal.and_then(|d| d.session_secret.clone()),
    };
    Ok(Message::HandEnd {
        seq: 0,
        number,
        fairplay,
        record: Box::new(record),
    })
}

/// The `deal` (docs/spec.md §17.5, §20.5) of the hand `live` is playing or
/// just ended, `None` under plain `selfpoker`; the secret only once revealed.
pub fn deal(live: &LiveTable) -> Option<DealV2> {
    let scheme = match live.session.scheme {
        Scheme::Selfpoker => return None,
        Scheme::SelfpokerV2 => selfpoker_v2::SCHEME,
        Scheme::SelfpokerV3 => selfpoker_v3::SCHEME,
    };
    let round = live
        .round
        .as_ref()
        .filter(|_| live.session.scheme == Scheme::SelfpokerV3);
    Some(DealV2 {
        scheme: scheme.to_owned(),
        session_commit: live.session.commit.clone().unwrap_or_default(),
        table_id: live.table_id.clone(),
        client_seeds: live
            .hand_client_seeds
            .iter()
            .map(|c| (c.seat, c.seed.clone()))
            .collect(),
        hand_commits: round.map(|r| r.commits.clone()).unwrap_or_default(),
        hand_values: round.map(|r| r.values.clone()).unwrap_or_default(),
        withheld: round.map(|r| r.withheld()).unwrap_or_default(),
        session_secret: live.session.revealed.clone(),
    })
}
