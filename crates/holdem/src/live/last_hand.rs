//! The last hand of a live table, kept until the next one starts: its
//! public result and every seat's cards, of which a view shows a viewer
//! only their own and the ones shown.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::record::{Outcome, PotResult};
use crate::rules::{Event, Player, Table};

/// A finished hand's hole cards, kept for its players' own view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastHole {
    /// The seat.
    pub seat: usize,
    /// Who held them.
    pub player: Player,
    /// The cards.
    pub hole: [Card; 2],
}

/// The last hand's result, public once it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastResult {
    /// Its number.
    pub number: u64,
    /// Its commitment.
    pub commit: String,
    /// Its seed, decimal.
    pub seed: String,
    /// The board dealt.
    pub board: Vec<Card>,
    /// Hands shown at showdown, in showing order.
    pub shown: Vec<(usize, [Card; 2])>,
    /// The pots and who won them.
    pub pots: Vec<PotResult>,
}

/// The last hand, kept until the next hand starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastHand {
    /// What everyone may see.
    pub result: LastResult,
    /// Every seat's cards (the seed is public now, but a view shows only
    /// the viewer's own and the shown ones).
    pub holes: Vec<LastHole>,
}

impl LastHand {
    /// The result of hand `number` from its events; `before` is the table
    /// while the hand was still being played (for the hole cards).
    pub(crate) fn of(before: &Table, events: &[Event], number: u64, seed: u64) -> LastHand {
        let outcome = Outcome::from_events(events);
        let holes = holes(before)
            .into_iter()
            .filter_map(|(seat, hole)| {
                let player = before.seats.get(seat)?.as_ref()?.player;
                Some(LastHole { seat, player, hole })
            })
            .collect();
        LastHand {
            result: LastResult {
                number,
                commit: fairseed_core::selfpoker::commit(seed),
                seed: seed.to_string(),
                board: outcome.board,
                shown: outcome.shown,
                pots: outcome.pots,
            },
            holes,
        }
    }
}

/// The two hole cards of every seat dealt into the hand `table` is playing.
pub(crate) fn holes(table: &Table) -> Vec<(usize, [Card; 2])> {
    table
        .hand
        .as_ref()
        .map(|h| h.players.iter().map(|p| (p.seat, p.hole)).collect())
        .unwrap_or_default()
}
