//! A slow, obviously-correct hand evaluator, independent of the crate's
//! tables: classify every 5-card subset directly and keep the best.

use fairseed_holdem::Card;

/// A comparable hand value: category 0 (high card) to 8 (straight flush),
/// then the deciding ranks, most significant first.
pub type Value = (u8, Vec<u8>);

/// The value of exactly five cards.
pub fn five(cards: &[Card; 5]) -> Value {
    let mut ranks: Vec<u8> = cards.iter().map(|c| c.rank()).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
    let distinct = {
        let mut d = ranks.clone();
        d.dedup();
        d.len() == 5
    };
    let straight_top = if distinct && ranks[0] - ranks[4] == 4 {
        Some(ranks[0])
    } else if ranks == [12, 3, 2, 1, 0] {
        Some(3)
    } else {
        None
    };
    // Groups of equal ranks, biggest group first, then higher rank first.
    let mut groups: Vec<(usize, u8)> = Vec::new();
    for &r in &ranks {
        match groups.iter_mut().find(|g| g.1 == r) {
            Some(g) => g.0 += 1,
            None => groups.push((1, r)),
        }
    }
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let order: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let shape: Vec<usize> = groups.iter().map(|g| g.0).collect();
    match (straight_top, flush, shape.as_slice()) {
        (Some(top), true, _) => (8, vec![top]),
        (_, _, [4, 1]) => (7, order),
        (_, _, [3, 2]) => (6, order),
        (_, true, _) => (5, ranks),
        (Some(top), false, _) => (4, vec![top]),
        (_, _, [3, 1, 1]) => (3, order),
        (_, _, [2, 2, 1]) => (2, order),
        (_, _, [2, 1, 1, 1]) => (1, order),
        _ => (0, ranks),
    }
}

/// The best value among every 5-card subset of `cards` (5 to 7 cards).
pub fn best(cards: &[Card]) -> Value {
    let n = cards.len();
    let mut best: Option<Value> = None;
    for skip_a in 0..n {
        for skip_b in skip_a..n {
            // Skip two cards (7 cards), one (6: skip_a == skip_b), or none (5: only once).
            let kept: Vec<Card> = (0..n)
                .filter(|&i| match n {
                    7 => i != skip_a && i != skip_b,
                    6 => i != skip_a,
                    _ => true,
                })
                .map(|i| cards[i])
                .collect();
            if kept.len() != 5 {
                continue;
            }
            let v = five(&[kept[0], kept[1], kept[2], kept[3], kept[4]]);
            if best.as_ref().is_none_or(|b| v > *b) {
                best = Some(v);
            }
        }
    }
    best.unwrap_or((0, Vec::new()))
}
