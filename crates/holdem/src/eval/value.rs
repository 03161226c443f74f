//! The best five cards of a rank multiset, as a packed comparable value.
//!
//! Used once, to fill the lookup tables; written for clarity, not speed.
//! A value is `category << 20` followed by up to five ranks (4 bits each),
//! most significant first, so comparing values compares hands.

use super::category::Category;

/// Packs a category and its deciding ranks (most significant first).
fn pack(category: Category, ranks: &[u8]) -> u32 {
    let mut value = (category as u32) << 20;
    for (i, &r) in ranks.iter().take(5).enumerate() {
        value |= u32::from(r) << (16 - 4 * i);
    }
    value
}

/// The top rank of the best straight in a 13-bit rank mask, if any (3 = five-high).
pub(crate) fn straight_top(ranks: u16) -> Option<u8> {
    // A-2-3-4-5: the ace also plays low.
    let with_low_ace = (ranks << 1 | ranks >> 12 & 1) & 0x3fff;
    (4..=13u8)
        .rev()
        .find(|&top| with_low_ace >> (top - 4) & 0b11111 == 0b11111)
        .map(|top| top - 1)
}

/// The best hand's value from rank counts (`counts[r]` cards of rank `r`), flushes ignored.
pub(crate) fn of_counts(counts: &[u8; 13]) -> u32 {
    let present = (0..13u8)
        .filter(|&r| counts[usize::from(r)] > 0)
        .fold(0u16, |m, r| m | 1 << r);
    let by = |n: u8| -> Vec<u8> {
        (0..13u8)
            .rev()
            .filter(|&r| counts[usize::from(r)] >= n)
            .collect()
    };
    let exactly = |n: u8| -> Vec<u8> {
        (0..13u8)
            .rev()
            .filter(|&r| counts[usize::from(r)] == n)
            .collect()
    };
    let kickers = |skip: &[u8], n: usize| -> Vec<u8> {
        (0..13u8)
            .rev()
            .filter(|&r| counts[usize::from(r)] > 0 && !skip.contains(&r))
            .take(n)
            .collect()
    };
    if let Some(&quad) = by(4).first() {
        let mut ranks = vec![quad];
        ranks.extend(kickers(&[quad], 1));
        return pack(Category::FourOfAKind, &ranks);
    }
    let trips = by(3);
    if let Some(&trip) = trips.first() {
        if let Some(&pair) = by(2).iter().find(|&&r| r != trip) {
            return pack(Category::FullHouse, &[trip, pair]);
        }
    }
    if let Some(top) = straight_top(present) {
        return pack(Category::Straight, &[top]);
    }
    if let Some(&trip) = trips.first() {
        let mut ranks = vec![trip];
        ranks.extend(kickers(&[trip], 2));
        return pack(Category::ThreeOfAKind, &ranks);
    }
    let pairs = exactly(2);
    if pairs.len() >= 2 {
        let (hi, lo) = (pairs[0], pairs[1]);
        let mut ranks = vec![hi, lo];
        ranks.extend(kickers(&[hi, lo], 1));
        return pack(Category::TwoPair, &ranks);
    }
    if let Some(&pair) = pairs.first() {
        let mut ranks = vec![pair];
        ranks.extend(kickers(&[pair], 3));
        return pack(Category::OnePair, &ranks);
    }
    pack(Category::HighCard, &kickers(&[], 5))
}

/// The best hand's value from the ranks of one suit holding five or more cards.
pub(crate) fn of_flush(ranks: u16) -> u32 {
    if let Some(top) = straight_top(ranks) {
        return pack(Category::StraightFlush, &[top]);
    }
    let top5: Vec<u8> = (0..13u8)
        .rev()
        .filter(|&r| ranks >> r & 1 == 1)
        .take(5)
        .collect();
    pack(Category::Flush, &top5)
}

/// The category a packed value carries.
pub(crate) fn category_of(value: u32) -> u16 {
    // Built by `pack` from a category below 9.
    (value >> 20) as u16
}
