//! Fisher–Yates from the top, over any draw source (docs/spec.md §3.5).

use crate::stream::DrawSource;

/// Shuffles `a` in place: for `i` from the last index down to 1, `j = int(i + 1)`,
/// swap `a[i]` and `a[j]`.
pub fn shuffle<T>(src: &mut impl DrawSource, a: &mut [T]) {
    for i in (1..a.len()).rev() {
        // j <= i < a.len(), so the cast back to usize is lossless.
        let j = src.int(i as u64 + 1) as usize;
        a.swap(i, j);
    }
}

/// `shuffle([0, 1, …, N-1])` as card or tile ids.
pub fn shuffled_ids<const N: usize>(src: &mut impl DrawSource) -> [u8; N] {
    let mut ids = [0u8; N];
    for (i, id) in ids.iter_mut().enumerate() {
        // Decks hold at most 52 ids.
        *id = i as u8;
    }
    shuffle(src, &mut ids);
    ids
}
