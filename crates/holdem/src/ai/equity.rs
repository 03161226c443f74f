//! Monte Carlo equity from a seat's own cards only, and a preflop hand score.

use super::rng::Rng;
use crate::card::{Card, CardSet};
use crate::eval::{evaluator, Category, Hand};

/// The Chen score of two hole cards (about -1 for 7-2 offsuit to 20 for aces).
pub fn chen(hole: [Card; 2]) -> f64 {
    let (hi, lo) = if hole[0].rank() >= hole[1].rank() {
        (hole[0], hole[1])
    } else {
        (hole[1], hole[0])
    };
    let points = |r: u8| match r {
        12 => 10.0,
        11 => 8.0,
        10 => 7.0,
        9 => 6.0,
        r => f64::from(r + 2) / 2.0,
    };
    if hi.rank() == lo.rank() {
        return (points(hi.rank()) * 2.0).max(5.0);
    }
    let mut score = points(hi.rank());
    if hi.suit() == lo.suit() {
        score += 2.0;
    }
    let gap = hi.rank() - lo.rank() - 1;
    score -= match gap {
        0 => 0.0,
        1 => 1.0,
        2 => 2.0,
        3 => 4.0,
        _ => 5.0,
    };
    if gap <= 1 && hi.rank() < 10 {
        score += 1.0;
    }
    score
}

/// Swaps a random card of `deck[*next..]` to `*next` and takes it.
fn draw(rng: &mut Rng, deck: &mut [Card], next: &mut usize) -> Card {
    let j = *next + rng.below(deck.len() - *next);
    deck.swap(*next, j);
    *next += 1;
    deck[*next - 1]
}

/// The hands an opponent is thought to hold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// The smallest Chen score of its two cards.
    pub min_chen: f64,
    /// Whether its cards make at least a pair with the board dealt so far.
    pub paired: bool,
}

impl Range {
    /// Any two cards.
    pub const ANY: Range = Range {
        min_chen: f64::MIN,
        paired: false,
    };

    fn holds(&self, pair: [Card; 2], board: Hand) -> bool {
        chen(pair) >= self.min_chen
            && (!self.paired
                || evaluator().rank(board.add(pair[0]).add(pair[1])).category()
                    >= Category::OnePair)
    }
}

/// The share of the pot `hole` wins against `opponents` hands, each drawn
/// from the unseen cards within `range` (redrawn up to 8 times), over
/// `samples` random run-outs of the board.
pub fn equity(
    hole: [Card; 2],
    board: &[Card],
    opponents: usize,
    range: Range,
    samples: usize,
    rng: &mut Rng,
) -> f64 {
    let known = CardSet::of(board).with(hole[0]).with(hole[1]);
    let unseen = known.complement();
    let ev = evaluator();
    let base = Hand::of(board);
    let mine_base = base.add(hole[0]).add(hole[1]);
    let mut won = 0.0;
    let mut deck = unseen.clone();
    for _ in 0..samples {
        // A partial Fisher-Yates over the unseen cards: opponents' cards, then the board.
        let mut next = 0;
        let mut theirs: Vec<[Card; 2]> = Vec::with_capacity(opponents);
        for _ in 0..opponents {
            let mut pair = [
                draw(rng, &mut deck, &mut next),
                draw(rng, &mut deck, &mut next),
            ];
            // Redraw (a few times) a hand outside the range.
            for _ in 0..8 {
                if range.holds(pair, base) {
                    break;
                }
                next -= 2;
                pair = [
                    draw(rng, &mut deck, &mut next),
                    draw(rng, &mut deck, &mut next),
                ];
            }
            theirs.push(pair);
        }
        let mut runout = base;
        let mut mine = mine_base;
        for _ in board.len()..5 {
            let c = draw(rng, &mut deck, &mut next);
            runout = runout.add(c);
            mine = mine.add(c);
        }
        let my_rank = ev.rank(mine);
        let rank_of = |pair: &[Card; 2]| ev.rank(runout.add(pair[0]).add(pair[1]));
        let best_other = theirs.iter().map(rank_of).max();
        match best_other {
            Some(b) if b > my_rank => {}
            Some(b) if b == my_rank => {
                let tied = theirs.iter().filter(|p| rank_of(p) == my_rank).count();
                won += 1.0 / (tied + 1) as f64;
            }
            _ => won += 1.0,
        }
    }
    won / samples.max(1) as f64
}
