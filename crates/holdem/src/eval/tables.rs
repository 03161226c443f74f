//! The lookup tables behind [`super::Evaluator`], built from [`super::value`].
//!
//! Non-flush hands are looked up by the sum of their cards' rank bases, a
//! number below 2^24 that is distinct for every multiset of 5 to 7 ranks;
//! a single-displacement perfect hash folds those 73,775 sums into a dense
//! table. Flush hands are looked up by the 13-bit rank mask of the flush suit.

use std::collections::BTreeMap;

use super::offsets::{MIX_MULTIPLIER, OFFSETS};
use super::value;

/// Per-rank bases whose sums are distinct for every multiset of 5 to 7 cards
/// (at most four of a rank): the greedy bases of the `holdem-hand-evaluator`
/// design. `tests::rank_sums_are_distinct` checks the property.
pub(crate) const RANK_BASES: [u32; 13] = [
    1, 4, 16, 67, 295, 1334, 5734, 23800, 60883, 208450, 509982, 1304151, 2967844,
];

/// Low bits of a rank sum that select the column of the displacement table.
pub(crate) const ROW_SHIFT: u32 = 12;
const COLUMNS: usize = 1 << ROW_SHIFT;

/// The built tables.
pub(crate) struct Tables {
    /// By the flush suit's 13-bit rank mask (a fixed size, so a masked index needs no check).
    pub(crate) flush: Box<[u16; 1 << 13]>,
    /// By `mixed_key >> ROW_SHIFT`: where that row's columns start in `lookup`.
    pub(crate) offsets: &'static [u32; 4096],
    /// By `offsets[row] + (rank_sum & (COLUMNS - 1))`.
    pub(crate) lookup: Box<[u16]>,
}

/// Every rank-count vector with `min..=max` cards, at most four of a rank.
pub fn rank_multisets(min: u8, max: u8) -> Vec<[u8; 13]> {
    fn walk(
        rank: usize,
        left: u8,
        counts: &mut [u8; 13],
        min: u8,
        max: u8,
        out: &mut Vec<[u8; 13]>,
    ) {
        if rank == 13 {
            if max - left >= min {
                out.push(*counts);
            }
            return;
        }
        for n in 0..=left.min(4) {
            counts[rank] = n;
            walk(rank + 1, left - n, counts, min, max, out);
        }
        counts[rank] = 0;
    }
    let mut out = Vec::new();
    walk(0, max, &mut [0; 13], min, max, &mut out);
    out
}

/// The rank-base sum of a count vector.
pub fn rank_sum(counts: &[u8; 13]) -> u32 {
    counts
        .iter()
        .zip(RANK_BASES)
        .map(|(&n, base)| u32::from(n) * base)
        .sum()
}

/// Dense `u16` ranks for the 7,462 distinct five-card values: category in the
/// top four bits, order within the category below.
fn dense_ranks() -> BTreeMap<u32, u16> {
    let mut values: Vec<u32> = rank_multisets(5, 5).iter().map(value::of_counts).collect();
    values.extend(
        (0u16..1 << 13)
            .filter(|m| m.count_ones() == 5)
            .map(value::of_flush),
    );
    values.sort_unstable();
    values.dedup();
    let mut dense = BTreeMap::new();
    let mut index_in_category = 0u16;
    let mut previous_category = u16::MAX;
    for v in values {
        let category = value::category_of(v);
        if category != previous_category {
            index_in_category = 0;
            previous_category = category;
        }
        dense.insert(v, category << 12 | index_in_category);
        index_in_category += 1;
    }
    dense
}

impl Tables {
    /// Builds every table (a few milliseconds in a release build).
    pub(crate) fn build() -> Tables {
        let dense = dense_ranks();
        let rank_of = |v: u32| dense.get(&v).copied().unwrap_or(0);
        let mut flush = Box::new([0u16; 1 << 13]);
        for (m, slot) in (0u16..).zip(flush.iter_mut()) {
            if m.count_ones() >= 5 {
                *slot = rank_of(value::of_flush(m));
            }
        }
        let entries: Vec<(u32, u16)> = rank_multisets(5, 7)
            .iter()
            .map(|c| (mix(rank_sum(c)), rank_of(value::of_counts(c))))
            .collect();
        let lookup = fill(&entries, &OFFSETS);
        Tables {
            flush,
            offsets: &OFFSETS,
            lookup,
        }
    }
}

/// Odd, so multiplying by it permutes the 24-bit rank sums; chosen (by
/// `examples/eval_offsets.rs`) to spread the sums evenly over the rows.
pub(crate) const MIX: u32 = MIX_MULTIPLIER;

/// The mixed 24-bit key of a rank sum.
#[inline]
pub(crate) const fn mix(sum: u32) -> u32 {
    sum.wrapping_mul(MIX) & KEY_MASK
}

/// Rank sums and mixed keys are below 2^24.
pub const KEY_MASK: u32 = (1 << 24) - 1;
const ROWS: usize = 1 << (24 - ROW_SHIFT);

/// Single displacement: each row of keys (`key >> ROW_SHIFT`) gets the
/// smallest offset at which all its columns land on free slots; rows are
/// placed fullest first. Returns the offsets; `None` for rows without keys.
pub fn displace(keys: &[u32]) -> Vec<u32> {
    let mut by_row: Vec<Vec<usize>> = vec![Vec::new(); ROWS];
    for &key in keys {
        by_row[(key >> ROW_SHIFT) as usize].push((key as usize) & (COLUMNS - 1));
    }
    let mut order: Vec<usize> = (0..ROWS).filter(|&r| !by_row[r].is_empty()).collect();
    order.sort_by_key(|&r| core::cmp::Reverse(by_row[r].len()));
    let mut used: Vec<bool> = vec![false; keys.len() * 2 + COLUMNS];
    let mut offsets = vec![0u32; ROWS];
    for row in order {
        let cols = &by_row[row];
        let offset = (0..)
            .find(|&o| {
                cols.iter()
                    .all(|&c| !used.get(o + c).copied().unwrap_or(false))
            })
            .unwrap_or(0);
        let end = offset + COLUMNS;
        if used.len() < end {
            used.resize(end, false);
        }
        for &c in cols {
            used[offset + c] = true;
        }
        offsets[row] = offset as u32;
    }
    offsets
}

/// The lookup table for `entries` (mixed key, rank) under `offsets`, padded
/// by a row so any key reads inside it.
///
/// # Panics
/// If two keys share a slot: the committed offsets are wrong (a test checks they are not).
fn fill(entries: &[(u32, u16)], offsets: &[u32]) -> Box<[u16]> {
    let slot =
        |key: u32| offsets[(key >> ROW_SHIFT) as usize] as usize + (key as usize & (COLUMNS - 1));
    let len = entries.iter().map(|e| slot(e.0)).max().unwrap_or(0) + COLUMNS;
    let mut lookup = vec![0u16; len];
    let mut taken = vec![false; len];
    for &(key, rank) in entries {
        let at = slot(key);
        assert!(
            !taken[at],
            "the committed offsets place two rank sums in slot {at}"
        );
        taken[at] = true;
        lookup[at] = rank;
    }
    lookup.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn rank_sums_are_distinct() {
        let all = rank_multisets(5, 7);
        assert_eq!(all.len(), 73_775, "multisets of 5 to 7 ranks");
        let mut seen: HashMap<u32, [u8; 13]> = HashMap::new();
        for counts in all {
            if let Some(other) = seen.insert(rank_sum(&counts), counts) {
                panic!("{counts:?} and {other:?} share a rank sum");
            }
        }
        assert!(seen.keys().all(|&k| k < 1 << 24));
    }

    #[test]
    fn there_are_7462_distinct_five_card_strengths() {
        let dense = dense_ranks();
        assert_eq!(dense.len(), 7_462);
        let per_category = |c: u16| dense.values().filter(|&&r| r >> 12 == c).count();
        // Known class counts: 1277 high card … 10 straight flushes.
        let expected = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10];
        for (c, n) in expected.iter().enumerate() {
            assert_eq!(per_category(c as u16), *n, "category {c}");
        }
    }

    #[test]
    fn the_tables_stay_small() {
        let t = Tables::build();
        let bytes = t.flush.len() * 2 + t.offsets.len() * 4 + t.lookup.len() * 2;
        assert!(bytes < 300_000, "{bytes} bytes of tables");
    }
}
