//! The end of a hand: uncalled chips, side pots, showdown order, split pots.

use super::event::Event;
use super::in_hand::InHand;
use crate::card::Card;
use crate::eval::{evaluator, Hand, HandRank};

/// A pot and the players (indices) who can win it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pot {
    pub amount: u64,
    pub eligible: Vec<usize>,
}

/// Gives the largest contributor back what nobody else matched.
pub(crate) fn return_uncalled(players: &mut [InHand]) -> Option<(usize, u64)> {
    let (top, _) = players
        .iter()
        .enumerate()
        .max_by_key(|(i, p)| (p.total, core::cmp::Reverse(*i)))?;
    let second = players
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != top)
        .map(|(_, p)| p.total)
        .max()
        .unwrap_or(0);
    let excess = players[top].total.saturating_sub(second);
    if excess == 0 {
        return None;
    }
    players[top].total -= excess;
    players[top].stack += excess;
    Some((top, excess))
}

/// The main pot and side pots: one layer per distinct total of the players
/// still in; chips of folded players count in the layers they reached.
pub(crate) fn layers(players: &[InHand]) -> Vec<Pot> {
    let mut levels: Vec<u64> = players
        .iter()
        .filter(|p| !p.folded && p.total > 0)
        .map(|p| p.total)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut pots: Vec<Pot> = Vec::new();
    let mut below = 0;
    for &level in &levels {
        let amount = players
            .iter()
            .map(|p| p.total.min(level) - p.total.min(below))
            .sum();
        let eligible = (0..players.len())
            .filter(|&i| !players[i].folded && players[i].total >= level)
            .collect();
        pots.push(Pot { amount, eligible });
        below = level;
    }
    // Folded chips above every live total (not possible after the uncalled
    // return, kept so no chip can vanish).
    let above: u64 = players.iter().map(|p| p.total.saturating_sub(below)).sum();
    if let Some(last) = pots.last_mut() {
        last.amount += above;
    }
    pots
}

/// Players in clockwise order starting at `first`.
fn clockwise(n: usize, first: usize) -> impl Iterator<Item = usize> {
    (0..n).map(move |k| (first + k) % n)
}

/// Awards every pot; at a showdown (`showdown` is `Some(last river aggressor)`),
/// shows or mucks each hand in order first.
pub(crate) fn award(
    players: &mut [InHand],
    board: &[Card; 5],
    button: usize,
    showdown: Option<Option<usize>>,
    events: &mut Vec<Event>,
) {
    let n = players.len();
    let pots = layers(players);
    let ranks: Vec<HandRank> = players
        .iter()
        .map(|p| {
            let hand = board
                .iter()
                .chain(&p.hole)
                .fold(Hand::EMPTY, |h, &c| h.add(c));
            evaluator().rank(hand)
        })
        .collect();
    if let Some(aggressor) = showdown {
        show_or_muck(
            players,
            &pots,
            &ranks,
            aggressor.unwrap_or((button + 1) % n),
            events,
        );
    }
    for p in players.iter_mut() {
        p.total = 0;
    }
    for (index, pot) in pots.into_iter().enumerate() {
        let best = pot.eligible.iter().map(|&i| ranks[i]).max();
        let winners: Vec<usize> = clockwise(n, (button + 1) % n)
            .filter(|i| pot.eligible.contains(i) && Some(ranks[*i]) == best)
            .collect();
        let k = winners.len() as u64;
        let (share, odd) = (pot.amount / k.max(1), pot.amount % k.max(1));
        let mut paid: Vec<(usize, u64)> = winners
            .iter()
            .enumerate()
            .map(|(order, &i)| (i, share + u64::from((order as u64) < odd)))
            .collect();
        for &(i, amount) in &paid {
            players[i].stack += amount;
        }
        paid.sort_unstable();
        events.push(Event::Awarded {
            pot: index,
            amount: pot.amount,
            eligible: pot.eligible.iter().map(|&i| players[i].seat).collect(),
            winners: paid.iter().map(|&(i, a)| (players[i].seat, a)).collect(),
        });
    }
}

/// Shows hands from `first` clockwise; a hand that can no longer win or tie
/// any pot it is in, against the hands shown before it, is mucked.
fn show_or_muck(
    players: &[InHand],
    pots: &[Pot],
    ranks: &[HandRank],
    first: usize,
    events: &mut Vec<Event>,
) {
    let mut shown: Vec<usize> = Vec::new();
    for i in clockwise(players.len(), first).filter(|&i| !players[i].folded) {
        let can_win = pots
            .iter()
            .filter(|pot| pot.eligible.contains(&i))
            .any(|pot| {
                shown
                    .iter()
                    .filter(|j| pot.eligible.contains(j))
                    .all(|&j| ranks[i] >= ranks[j])
            });
        if can_win {
            shown.push(i);
            events.push(Event::Showed {
                seat: players[i].seat,
                cards: players[i].hole,
                category: ranks[i].category(),
            });
        } else {
            events.push(Event::Mucked {
                seat: players[i].seat,
            });
        }
    }
}
