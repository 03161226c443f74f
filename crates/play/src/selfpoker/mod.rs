//! A `selfpoker` hand (docs/spec.md §9): the player at seat 0 against bots. The
//! hand's 63-bit seed is drawn by the caller and committed before any card;
//! each `next` deals one stage; `hand_end` reveals the seed and every card.
//!
//! [`view`] is the only way out: the owner sees their two cards from
//! `preflop` on and the board stage by stage; bots' cards and the seed only
//! at `hand_end`. Anyone else sees the commitment until the hand ends.

#[cfg(test)]
mod tests;

use fairseed_core::record::SelfpokerRecord;
use fairseed_core::selfpoker::{self, SelfpokerDeal};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::{Code, Millis, PlayerId, RuleViolation, Viewer};

/// How far a hand is dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// Seed committed, no card.
    Committed,
    /// The owner's two cards.
    Preflop,
    /// Three board cards.
    Flop,
    /// Four.
    Turn,
    /// Five.
    River,
    /// The seed and every card revealed.
    HandEnd,
}

/// Every stage, in order.
pub const STAGES: [Stage; 6] = [
    Stage::Committed,
    Stage::Preflop,
    Stage::Flop,
    Stage::Turn,
    Stage::River,
    Stage::HandEnd,
];

impl Stage {
    /// The stage's name in messages and the stored status.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Committed => "committed",
            Self::Preflop => "preflop",
            Self::Flop => "flop",
            Self::Turn => "turn",
            Self::River => "river",
            Self::HandEnd => "hand_end",
        }
    }

    /// The stage named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        STAGES.into_iter().find(|s| s.as_str() == name)
    }

    fn next(self) -> Option<Self> {
        STAGES.get(self as usize + 1).copied()
    }

    /// Board cards public at this stage.
    pub fn board_len(self) -> usize {
        match self {
            Self::Committed | Self::Preflop => 0,
            Self::Flop => 3,
            Self::Turn => 4,
            Self::River | Self::HandEnd => 5,
        }
    }
}

/// A refused selfpoker command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelfpokerError {
    /// `hand_end` was reached.
    #[error("the hand is over; start a new one")]
    HandOver,
    /// A stored hand that contradicts itself.
    #[error("selfpoker state: {0}")]
    Corrupt(String),
}

impl RuleViolation for SelfpokerError {
    fn code(&self) -> Code {
        match self {
            Self::HandOver => Code::HandOver,
            Self::Corrupt(_) => Code::Internal,
        }
    }
}

/// What the store keeps of a hand besides its status, commitment and sealed seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// The player who owns the hand.
    pub owner: PlayerId,
    /// Players dealt in, 2..=10 (seat 0 is the owner).
    pub players: usize,
}

/// One hand, its seed unsealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    /// The hand's id (`sp…`).
    pub id: String,
    /// Owner and player count.
    pub stored: Stored,
    /// How far it is dealt.
    pub stage: Stage,
    commit: String,
    seed: u64,
}

impl Hand {
    /// A new hand under `seed` (below 2^63), committed, no card.
    ///
    /// # Errors
    /// `players` is not 2..=10, or the seed is out of range.
    pub fn new(id: String, stored: Stored, seed: u64) -> Result<Self, SelfpokerError> {
        selfpoker::deal(seed, stored.players).map_err(corrupt)?;
        Ok(Self {
            id,
            stored,
            stage: Stage::Committed,
            commit: selfpoker::commit(seed),
            seed,
        })
    }

    /// A stored hand; its commitment is checked against its seed.
    ///
    /// # Errors
    /// The seed does not match the commitment, or the player count is out of range.
    pub fn load(
        id: String,
        stored: Stored,
        stage: Stage,
        commit: &str,
        seed: u64,
    ) -> Result<Self, SelfpokerError> {
        let hand = Self::new(id, stored, seed)?;
        if !fairseed_core::ct_eq(hand.commit.as_bytes(), commit.as_bytes()) {
            return Err(SelfpokerError::Corrupt(
                "the unsealed seed does not match its commit".into(),
            ));
        }
        Ok(Self { stage, ..hand })
    }

    /// `sha256("selfpoker:" + seed)`, public from the start.
    pub fn commit(&self) -> &str {
        &self.commit
    }
}

fn corrupt(err: fairseed_core::Error) -> SelfpokerError {
    SelfpokerError::Corrupt(err.to_string())
}

/// What a hand takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Deal the next stage.
    Next,
}

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The hand reached a stage (`HandEnd`: the seed is public).
    Reached(Stage),
}

/// Runs `command` on `hand`.
///
/// # Errors
/// [`SelfpokerError::HandOver`] after `hand_end`.
pub fn apply(
    mut hand: Hand,
    command: Command,
    _now: Millis,
) -> Result<(Hand, Vec<Event>), SelfpokerError> {
    match command {
        Command::Next => {
            let next = hand.stage.next().ok_or(SelfpokerError::HandOver)?;
            hand.stage = next;
            Ok((hand, vec![Event::Reached(next)]))
        }
    }
}

/// A state message: what a viewer sees of the hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    /// `state`, or `hand_end` at the end.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The hand.
    pub hand_id: String,
    /// The stage's name.
    pub stage: &'static str,
    /// The commitment.
    pub commit: String,
    /// Players dealt in.
    pub players: usize,
    /// The owner's cards, from `preflop` on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hole: Option<[u8; 2]>,
    /// The board so far.
    pub board: Vec<u8>,
    /// The seed, at `hand_end`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Every seat's cards, at `hand_end`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holes: Option<Vec<[u8; 2]>>,
}

/// The hand as `viewer` sees it.
///
/// # Errors
/// The stored player count does not deal (a damaged row).
pub fn view(hand: &Hand, viewer: Viewer) -> Result<Message, SelfpokerError> {
    let deal = selfpoker::deal(hand.seed, hand.stored.players).map_err(corrupt)?;
    Ok(view_of(hand, viewer, &deal))
}

/// The view, reading cards from `deal` (the tests pass a changed one).
fn view_of(hand: &Hand, viewer: Viewer, deal: &SelfpokerDeal) -> Message {
    let end = hand.stage == Stage::HandEnd;
    let owner = viewer == Viewer::Player(hand.stored.owner);
    let sees_cards = end || owner;
    let hole = (sees_cards && hand.stage >= Stage::Preflop)
        .then(|| deal.holes.first().copied())
        .flatten();
    let board = if sees_cards {
        deal.board[..hand.stage.board_len()].to_vec()
    } else {
        Vec::new()
    };
    Message {
        kind: if end { "hand_end" } else { "state" },
        hand_id: hand.id.clone(),
        stage: hand.stage.as_str(),
        commit: hand.commit.clone(),
        players: hand.stored.players,
        hole,
        board,
        seed: end.then_some(hand.seed),
        holes: end.then(|| deal.holes.clone()),
    }
}

/// The `selfpoker` record of a finished hand (none before `hand_end`),
/// built from the public view of the ended hand.
///
/// # Errors
/// As [`view`].
pub fn record(hand: &Hand) -> Result<Option<SelfpokerRecord>, SelfpokerError> {
    let shown = view(hand, Viewer::Public)?;
    let Some(seed) = shown.seed else {
        return Ok(None);
    };
    let deck = selfpoker::deck(seed);
    Ok(Some(SelfpokerRecord {
        commit: shown.commit,
        seed: Some(seed),
        players: shown.players,
        outcome: json!({"deck": deck.to_vec(), "holes": shown.holes, "board": shown.board})
            .as_object()
            .cloned(),
    }))
}
