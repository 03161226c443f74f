//! A spot to measure: what is known when the unseen cards are dealt, and
//! the seat's share of the pot in one complete deal.

use crate::card::Card;
use crate::eval::{evaluator, Hand, HandRank};

/// What is known when the unseen cards are dealt: the seat's cards with the
/// board so far, the board alone, how many board cards are to come, and how
/// many opponents hold two unseen cards each.
pub(super) struct Spot {
    pub(super) mine: Hand,
    pub(super) board: Hand,
    pub(super) to_come: usize,
    pub(super) opponents: usize,
}

/// The seat's share of the pot when its hand ranks `mine` and the
/// opponents' hands rank `theirs`: 1 ahead of all, 1/k in a k-way tie, else 0.
pub(super) fn share(mine: HandRank, theirs: impl Iterator<Item = HandRank>) -> f64 {
    let mut tied = 1;
    for r in theirs {
        if r > mine {
            return 0.0;
        }
        if r == mine {
            tied += 1;
        }
    }
    1.0 / f64::from(tied)
}

/// The share of one complete deal: `runout` completes the board, `holes` are
/// the opponents' cards, two each.
pub(super) fn deal_share(spot: &Spot, runout: &[Card], holes: &[Card]) -> f64 {
    let ev = evaluator();
    let board = runout.iter().fold(spot.board, |h, &c| h.add(c));
    let mine = runout.iter().fold(spot.mine, |h, &c| h.add(c));
    share(
        ev.rank(mine),
        holes
            .chunks_exact(2)
            .map(|p| ev.rank(board.add(p[0]).add(p[1]))),
    )
}
