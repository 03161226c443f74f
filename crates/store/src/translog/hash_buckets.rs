//! A complete chunk's sorted leaf hashes as both backends keep them
//! (`log_hash_buckets`): one byte
//! string per first byte of the hash, each leaf as its 32-byte hash and its
//! 2-byte big-endian offset in the chunk, sorted by hash then offset. A row
//! per leaf cost a row's and an index entry's overhead for 34 bytes of
//! content; a bucket holds about 64 leaves. Pure: the store writes and
//! reads the rows, this encodes and searches them.

use crate::translog::logged::HashBytes;

/// Leaves per chunk of sorted hashes (`log_hash_buckets`):
/// a leaf is found by its hash with one probe per complete chunk, then a
/// read of the incomplete chunk's leaves (at most this many) and of the
/// entries still waiting.
pub(crate) const HASH_CHUNK: u64 = 16_384;

/// The chunks completed by appending the leaves `from .. to`.
pub(crate) fn completed_chunks(from: u64, to: u64) -> std::ops::Range<u64> {
    from / HASH_CHUNK..to / HASH_CHUNK
}

/// Bytes a leaf takes in a bucket.
const LEAF: usize = 34;

// A leaf's offset in its chunk fits the two bytes it is given.
const _: () = assert!(HASH_CHUNK <= 1 << 16);

/// The buckets of the chunk that starts at leaf `first`, from its leaves
/// (any order): `(first byte, leaves)`, a bucket per first byte present.
pub(crate) fn encode(first: u64, leaves: &[(u64, HashBytes)]) -> Vec<(i16, Vec<u8>)> {
    let mut sorted: Vec<(HashBytes, u16)> = leaves
        .iter()
        .filter_map(|&(index, hash)| Some((hash, u16::try_from(index.checked_sub(first)?).ok()?)))
        .collect();
    sorted.sort_unstable();
    let mut buckets: Vec<(i16, Vec<u8>)> = Vec::new();
    for (hash, offset) in sorted {
        let bucket = i16::from(hash[0]);
        if buckets.last().is_none_or(|(b, _)| *b != bucket) {
            buckets.push((bucket, Vec::new()));
        }
        if let Some((_, bytes)) = buckets.last_mut() {
            bytes.extend_from_slice(&hash);
            bytes.extend_from_slice(&offset.to_be_bytes());
        }
    }
    buckets
}

/// The lowest offset in `bucket` (a bucket's bytes) of a leaf with `hash`.
/// A bucket whose length is not whole leaves is searched up to its last
/// whole leaf.
pub(crate) fn find(bucket: &[u8], hash: &HashBytes) -> Option<u64> {
    bucket
        .chunks_exact(LEAF)
        .filter(|leaf| leaf[..32] == hash[..])
        .map(|leaf| u64::from(u16::from_be_bytes([leaf[32], leaf[33]])))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(first: u8, last: u8) -> HashBytes {
        let mut h = [0; 32];
        h[0] = first;
        h[31] = last;
        h
    }

    /// Every leaf lands in the bucket of its first byte, sorted, and is
    /// found there at its offset; a hash twice is found at its first offset.
    #[test]
    fn leaves_are_found_in_their_bucket() {
        let first = 3 * HASH_CHUNK;
        let leaves = [
            (first + 5, hash(9, 2)),
            (first, hash(0, 0)),
            (first + 16_383, hash(9, 1)),
            (first + 7, hash(9, 2)),
        ];
        let buckets = encode(first, &leaves);
        assert_eq!(
            buckets
                .iter()
                .map(|(b, l)| (*b, l.len()))
                .collect::<Vec<_>>(),
            vec![(0, LEAF), (9, 3 * LEAF)]
        );
        let nine = &buckets[1].1;
        assert_eq!(&nine[..32], &hash(9, 1)[..], "sorted by hash");
        assert_eq!(&nine[32..34], &[0x3f, 0xff], "big-endian offset");
        assert_eq!(find(nine, &hash(9, 1)), Some(16_383));
        assert_eq!(find(nine, &hash(9, 2)), Some(5), "the first of two");
        assert_eq!(find(&buckets[0].1, &hash(0, 0)), Some(0));
        assert_eq!(find(nine, &hash(9, 3)), None);
    }

    /// The bytes of two leaves' boundary never match a hash: only whole,
    /// aligned leaves are compared.
    #[test]
    fn only_aligned_leaves_match() {
        let (a, b) = (hash(1, 0xaa), hash(1, 0xbb));
        let bucket = encode(0, &[(0, a), (1, b)]).remove(0).1;
        let mut straddling = [0u8; 32];
        straddling.copy_from_slice(&bucket[2..34]);
        assert_eq!(find(&bucket, &straddling), None);
        assert_eq!(
            find(&bucket[..LEAF + 3], &b),
            None,
            "a partial leaf is not read"
        );
    }
}
