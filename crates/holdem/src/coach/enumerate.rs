//! Exact equity: every run-out of the board and every holding of every
//! opponent, each counted once.

use super::spot::{share, Spot};
use crate::card::Card;
use crate::eval::{evaluator, Hand, HandRank};

/// n choose k, `None` on overflow.
fn choose(n: usize, k: usize) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    (0..k).try_fold(1u64, |acc, i| {
        acc.checked_mul((n - i) as u64).map(|x| x / (i as u64 + 1))
    })
}

/// How many (run-out, holdings) cases enumeration visits with `unseen`
/// cards, `to_come` board cards and `opponents` two-card holdings (the
/// opponents are distinct seats, so their holdings are ordered).
pub(super) fn cases(unseen: usize, to_come: usize, opponents: usize) -> Option<u64> {
    let mut left = unseen.checked_sub(to_come)?;
    let mut n = choose(unseen, to_come)?;
    for _ in 0..opponents {
        n = n.checked_mul(choose(left, 2)?)?;
        left = left.checked_sub(2)?;
    }
    Some(n)
}

/// The summed share over every case, and the number of cases.
pub(super) fn exact(spot: &Spot, unseen: &[Card]) -> (f64, u64) {
    let mut walk = Walk {
        spot,
        unseen,
        used: vec![false; unseen.len()],
        runout: Vec::with_capacity(spot.to_come),
        holes: Vec::with_capacity(2 * spot.opponents),
        board: spot.board,
        // Replaced at each run-out; already right when no card is to come.
        mine: evaluator().rank(spot.mine),
        total: 0.0,
        cases: 0,
    };
    walk.runouts(0);
    (walk.total, walk.cases)
}

/// The enumeration's state: cards taken so far for the board and the holdings.
struct Walk<'a> {
    spot: &'a Spot,
    unseen: &'a [Card],
    used: Vec<bool>,
    runout: Vec<Card>,
    holes: Vec<Card>,
    /// The whole board of the current run-out, and the seat's rank on it
    /// (computed once per run-out, not once per holding).
    board: Hand,
    mine: HandRank,
    total: f64,
    cases: u64,
}

impl Walk<'_> {
    /// Every set of board cards to come, in increasing index from `from`.
    fn runouts(&mut self, from: usize) {
        if self.runout.len() == self.spot.to_come {
            let add = |h: Hand| self.runout.iter().fold(h, |h, &c| h.add(c));
            self.board = add(self.spot.board);
            self.mine = evaluator().rank(add(self.spot.mine));
            self.holdings();
            return;
        }
        for i in from..self.unseen.len() {
            self.used[i] = true;
            self.runout.push(self.unseen[i]);
            self.runouts(i + 1);
            self.runout.pop();
            self.used[i] = false;
        }
    }

    /// Every two-card holding of the next opponent among the cards left.
    fn holdings(&mut self) {
        if self.holes.len() == 2 * self.spot.opponents {
            let ev = evaluator();
            let board = self.board;
            let theirs = self
                .holes
                .chunks_exact(2)
                .map(|p| ev.rank(board.add(p[0]).add(p[1])));
            self.total += share(self.mine, theirs);
            self.cases += 1;
            return;
        }
        let n = self.unseen.len();
        for i in 0..n {
            if self.used[i] {
                continue;
            }
            for j in i + 1..n {
                if self.used[j] {
                    continue;
                }
                self.used[i] = true;
                self.used[j] = true;
                self.holes.extend([self.unseen[i], self.unseen[j]]);
                self.holdings();
                self.holes.truncate(self.holes.len() - 2);
                self.used[i] = false;
                self.used[j] = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_counts() {
        // River vs one: C(45, 2); turn vs one: 46 × C(45, 2); preflop vs none: C(50, 5).
        assert_eq!(cases(45, 0, 1), Some(990));
        assert_eq!(cases(46, 1, 1), Some(45_540));
        assert_eq!(cases(50, 5, 0), Some(2_118_760));
        assert_eq!(cases(45, 0, 2), Some(990 * 903));
        assert_eq!(cases(3, 4, 0), None);
    }
}
