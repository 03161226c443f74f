//! The draw stream: 52-bit HMAC-SHA256 words, rejection sampling, dice (docs/spec.md §3).

use crate::hash::sha256x2::{compress1, IV, LANES};
use crate::hash::{
    hmac_pad_states, sha256, sha256_compress_lanes, sha256_width, DecimalCounter, SHA256_LANES,
};

/// 2^52: the size of the space a word is drawn from.
pub const SPAN: u64 = 1 << 52;

/// A source of 52-bit words, and the draws every scheme builds from them.
///
/// `match_seed_*` and `poker_hmac_v1` use an [`HmacStream`]; `chess_colour_v1`
/// XORs two of them. `int`, `die` and [`crate::shuffle()`] are defined once, here,
/// over any source.
pub trait DrawSource {
    /// The next word, `0 <= w < 2^52`; advances the counter by one.
    fn next_word(&mut self) -> u64;

    /// A whole number `0 <= x < n` by rejection: a word at or above
    /// `limit = SPAN - SPAN mod n` is discarded (its counter value is spent).
    ///
    /// # Panics
    /// `n == 0` or `n > 2^52` is a caller bug: no word could ever be accepted.
    fn int(&mut self, n: u64) -> u64 {
        assert!((1..=SPAN).contains(&n), "int(n) needs 1 <= n <= 2^52");
        loop {
            if let Some(x) = reduce(SPAN, n, self.next_word()) {
                return x;
            }
        }
    }

    /// A die face, `int(6) + 1`.
    fn die(&mut self) -> u8 {
        // int(6) < 6 fits in u8.
        self.int(6) as u8 + 1
    }
}

/// One rejection-sampling step over a word space of size `span`: the word `w`
/// gives `w mod n` when it lies below `limit = span - span mod n` (a multiple of
/// `n`, so every result has exactly `limit / n` words), and nothing otherwise.
///
/// `int` uses it with `span = 2^52`; tests enumerate small spans to show the
/// result is exactly uniform.
pub fn reduce(span: u64, n: u64, w: u64) -> Option<u64> {
    let limit = span - span % n;
    (w < limit).then_some(w % n)
}

/// `word(key, prefix + k)` for `k = 0, 1, …`: the first 13 hex characters of
/// HMAC-SHA256 as an integer.
///
/// The key pads *and* the prefix's whole 64-byte blocks are absorbed once, as
/// SHA-256 mid-states; each word then costs its final inner block(s) (prefix
/// tail, counter digits, padding) and one outer block. Words are counter-based,
/// so the stream computes several at a time through the multi-lane
/// compression and hands them out one by one: the counter still moves by
/// exactly one per word drawn. The first batch is a pair (a stream may be
/// asked for one or two words only, as a chess colour is); later ones are as
/// wide as the CPU's widest kernel ([`sha256_width`]: 16 with AVX-512).
#[derive(Clone)]
pub struct HmacStream {
    /// State after `key ^ ipad` and the prefix's whole blocks.
    inner: [u32; 8],
    /// State after `key ^ opad`.
    outer: [u32; 8],
    /// The first final inner block's start: the prefix bytes after its last
    /// whole block, then zeros.
    template: [u8; 64],
    tail_len: usize,
    /// Bytes hashed into `inner`: 64 (the pad) + the prefix's whole blocks.
    absorbed: u64,
    counter: u64,
    /// `buf[i]` is the word at counter `buf_start + i`, for `i < buf_len`.
    buf: [u64; SHA256_LANES],
    buf_start: u64,
    buf_len: usize,
    /// Words per refill: the SHA-NI pair at first, then [`sha256_width`].
    width: usize,
}

impl HmacStream {
    /// The stream `word(key, prefix + k)` starting at `k = 0`.
    pub fn new(key: &[u8], prefix: &[u8]) -> Self {
        let (mut inner, outer) = hmac_pad_states::<64, _, _>(key, sha256, IV, compress1);

        let blocks = prefix.chunks_exact(64);
        let rest = blocks.remainder();
        for block in blocks {
            // `chunks_exact(64)` yields 64-byte slices.
            compress1(
                &mut inner,
                block.try_into().unwrap_or_else(|_| unreachable!()),
            );
        }
        let mut template = [0u8; 64];
        template[..rest.len()].copy_from_slice(rest);
        Self {
            inner,
            outer,
            template,
            tail_len: rest.len(),
            absorbed: 64 + (prefix.len() - rest.len()) as u64,
            counter: 0,
            buf: [0; SHA256_LANES],
            buf_start: 0,
            buf_len: 0,
            width: LANES,
        }
    }

    /// The next counter value to be used.
    pub fn counter(&self) -> u64 {
        self.counter
    }

    /// The same stream resumed at counter `k` (a server persists `k` between draws).
    #[must_use]
    pub fn at_counter(mut self, k: u64) -> Self {
        self.counter = k;
        self
    }

    /// The word at counter `k`, leaving the stream where it is.
    pub fn word_at(&self, k: u64) -> u64 {
        match self.buffered(k) {
            Some(w) => w,
            None => self.word_of(Some(k)),
        }
    }

    /// The word at counter `k` if the buffer holds it.
    fn buffered(&self, k: u64) -> Option<u64> {
        let i = k.wrapping_sub(self.buf_start);
        // i < buf_len <= SHA256_LANES, so the cast is lossless.
        (i < self.buf_len as u64).then(|| self.buf[i as usize])
    }

    /// Writes the final inner block(s) of `prefix + decimal(k)` (of the
    /// prefix alone for `None`): tail, digits, 0x80, zeros, the message's bit
    /// length. Returns whether it takes two blocks; `second` is written only
    /// then.
    ///
    /// The digits go straight into the blocks the kernel reads (built in a
    /// 128-byte scratch message and copied, their narrow stores stalled the
    /// wide loads of the copy).
    fn final_blocks(&self, first: &mut [u8; 64], second: &mut [u8; 64], digits: &[u8]) -> bool {
        *first = self.template;
        let tail = self.tail_len;
        // 0..=20 digits; tail_len <= 63, so the message ends by byte 83.
        let n = tail + digits.len();
        let bits = (self.absorbed + n as u64).wrapping_mul(8).to_be_bytes();
        if n + 9 <= 64 {
            first[tail..n].copy_from_slice(digits);
            first[n] = 0x80;
            first[56..].copy_from_slice(&bits);
            return false;
        }
        *second = [0; 64];
        // The digits may straddle the two blocks.
        let (head, rest) = digits.split_at(digits.len().min(64 - tail));
        first[tail..tail + head.len()].copy_from_slice(head);
        second[..rest.len()].copy_from_slice(rest);
        if n < 64 {
            first[n] = 0x80;
        } else {
            second[n - 64] = 0x80;
        }
        second[56..].copy_from_slice(&bits);
        true
    }

    /// The outer block over an inner digest: 32 digest bytes, 0x80, zeros,
    /// bit length (64 + 32) * 8.
    fn outer_block(inner: &[u32; 8]) -> [u8; 64] {
        let mut b = [0u8; 64];
        for (chunk, word) in b.chunks_exact_mut(4).zip(inner) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        b[32] = 0x80;
        b[56..].copy_from_slice(&(96u64 * 8).to_be_bytes());
        b
    }

    /// The word of `prefix + decimal(k)` (the prefix alone for `None`), one
    /// message at a time.
    fn word_of(&self, k: Option<u64>) -> u64 {
        let (mut first, mut second) = ([0u8; 64], [0u8; 64]);
        let counter = k.map(DecimalCounter::new);
        let digits = counter.as_ref().map_or(&[][..], DecimalCounter::digits);
        let two = self.final_blocks(&mut first, &mut second, digits);
        let mut state = self.inner;
        compress1(&mut state, &first);
        if two {
            compress1(&mut state, &second);
        }
        let mut out = self.outer;
        compress1(&mut out, &Self::outer_block(&state));
        word_of_state(&out)
    }

    /// Fills the buffer with the words at `start .. start + n` (`n <=
    /// SHA256_LANES`), one multi-lane compression per step.
    ///
    /// Kept out of line: its buffers would otherwise make every
    /// `next_word` set up a 2 KiB frame, though 15 in 16 calls only read `buf`.
    #[inline(never)]
    fn refill(&mut self, start: u64, n: usize) {
        let mut first = [[0u8; 64]; SHA256_LANES];
        let mut second = [[0u8; 64]; SHA256_LANES];
        let mut two = [false; SHA256_LANES];
        let mut counter = DecimalCounter::new(start);
        for l in 0..n {
            two[l] = self.final_blocks(&mut first[l], &mut second[l], counter.digits());
            if l + 1 < n {
                // The caller checked that start + n - 1 does not overflow.
                counter.increment();
            }
        }
        let mut states = [self.inner; SHA256_LANES];
        sha256_compress_lanes(&mut states, &first, n);
        if two[..n].iter().any(|&t| t) {
            // Where the digit count changes inside the group, only some lanes
            // have a second block: hash all, keep theirs.
            let mut after = states;
            sha256_compress_lanes(&mut after, &second, n);
            for l in (0..n).filter(|&l| two[l]) {
                states[l] = after[l];
            }
        }
        let outer_blocks: [[u8; 64]; SHA256_LANES] =
            core::array::from_fn(|l| Self::outer_block(&states[l]));
        let mut out = [self.outer; SHA256_LANES];
        sha256_compress_lanes(&mut out, &outer_blocks, n);
        for (w, s) in self.buf.iter_mut().zip(&out).take(n) {
            *w = word_of_state(s);
        }
        self.buf_start = start;
        self.buf_len = n;
    }
}

impl DrawSource for HmacStream {
    fn next_word(&mut self) -> u64 {
        let k = self.counter;
        let n = self.width;
        let w = match self.buffered(k) {
            Some(w) => w,
            None if k.checked_add(n as u64 - 1).is_some() => {
                self.refill(k, n);
                // A stream drawing past its first pair is dealing: go wide.
                self.width = sha256_width();
                self.buf[0]
            }
            None => self.word_at(k),
        };
        self.counter += 1;
        w
    }
}

impl core::fmt::Debug for HmacStream {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HmacStream")
            .field("counter", &self.counter)
            .finish_non_exhaustive()
    }
}

/// The first 52 bits (13 hex characters) of a digest, from its SHA-256 state.
fn word_of_state(state: &[u32; 8]) -> u64 {
    ((u64::from(state[0]) << 32) | u64::from(state[1])) >> 12
}

/// `word(key, msg)` on its own, as the seeds' `word` function.
pub fn word(key: &[u8], msg: &[u8]) -> u64 {
    HmacStream::new(key, msg).word_of(None)
}

/// A simulated source over a small word space, for checking that rejection is exact.
#[cfg(test)]
pub(crate) struct Scripted(pub Vec<u64>, pub usize);

#[cfg(test)]
impl DrawSource for Scripted {
    fn next_word(&mut self) -> u64 {
        let w = self.0[self.1];
        self.1 += 1;
        w
    }
}

#[cfg(test)]
mod tests {

    use proptest::prelude::*;

    use super::*;
    use crate::hash::{hmac256_hex, hmac256_keyed, hmac256_with};

    /// The word of `prefix + k` through the `hmac` crate, independently of [`HmacStream`].
    fn reference(key: &[u8], prefix: &[u8], k: u64) -> u64 {
        let mut msg = prefix.to_vec();
        msg.extend_from_slice(k.to_string().as_bytes());
        let digest = hmac256_with(&hmac256_keyed(key), &msg);
        u64::from_be_bytes(digest[..8].try_into().unwrap_or_default()) >> 12
    }

    /// Counters just around each change in digit count, up to `u64::MAX`.
    fn boundary_counters() -> Vec<u64> {
        let mut ks = vec![0, 1, 2, (1 << 53) - 1, 1 << 53, (1 << 53) + 1];
        let mut p = 10u64;
        loop {
            ks.extend([p - 3, p - 2, p - 1, p, p + 1]);
            match p.checked_mul(10) {
                Some(q) => p = q,
                None => break,
            }
        }
        ks.extend((0..2 * SHA256_LANES as u64 + 1).map(|d| u64::MAX - d));
        ks
    }

    /// One step of a caller driving a stream.
    #[derive(Debug, Clone)]
    enum Op {
        Next,
        WordAt(u64),
        AtCounter(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        let k = prop_oneof![
            0u64..40,
            prop::sample::select(boundary_counters()),
            any::<u64>(),
        ];
        prop_oneof![
            6 => Just(Op::Next),
            1 => k.clone().prop_map(Op::WordAt),
            1 => k.prop_map(|k| Op::AtCounter(k.min(u64::MAX - 64))),
        ]
    }

    proptest! {
        /// `word_at`, `next_word` and `word` equal HMAC-SHA256 by the `hmac`
        /// crate, for keys shorter and longer than a block and any prefix length.
        #[test]
        fn words_match_hmac_crate(key in prop::collection::vec(any::<u8>(), 0..=200),
                                  prefix in prop::collection::vec(any::<u8>(), 0..=200),
                                  k in prop::sample::select(boundary_counters())) {
            let s = HmacStream::new(&key, &prefix);
            prop_assert_eq!(s.word_at(k), reference(&key, &prefix, k));
            let mut s = s.at_counter(k.min(u64::MAX - 3));
            let k0 = s.counter();
            for i in 0..3 {
                prop_assert_eq!(s.next_word(), reference(&key, &prefix, k0 + i));
                prop_assert_eq!(s.counter(), k0 + i + 1);
            }
            let digest = hmac256_with(&hmac256_keyed(&key), &prefix);
            prop_assert_eq!(word(&key, &prefix),
                            u64::from_be_bytes(digest[..8].try_into().unwrap_or_default()) >> 12);
        }

        /// Any mix of `next_word`, `word_at` and `at_counter` (and clones) gives
        /// the words of the plain model, and the counter moves by exactly the
        /// words drawn, never by the words buffered.
        #[test]
        fn mixed_use_matches_model(key in prop::collection::vec(any::<u8>(), 0..=80),
                                   prefix in prop::collection::vec(any::<u8>(), 0..=130),
                                   ops in prop::collection::vec(op(), 1..40)) {
            let mut s = HmacStream::new(&key, &prefix);
            let mut counter = 0u64;
            for op in ops {
                match op {
                    Op::Next if counter < u64::MAX => {
                        prop_assert_eq!(s.next_word(), reference(&key, &prefix, counter));
                        counter += 1;
                    }
                    Op::Next => {}
                    Op::WordAt(k) => prop_assert_eq!(s.word_at(k), reference(&key, &prefix, k)),
                    Op::AtCounter(k) => {
                        s = s.at_counter(k);
                        counter = k;
                    }
                }
                prop_assert_eq!(s.counter(), counter);
                let mut c = s.clone();
                if counter < u64::MAX {
                    prop_assert_eq!(c.next_word(), reference(&key, &prefix, counter));
                }
            }
        }
    }

    /// Every prefix length 0..=200 (every tail length, one and two final
    /// blocks) against the `hmac` crate, streamed across digit-count changes:
    /// 40 words, so the first pair and two whole wide refills are all checked.
    #[test]
    fn every_prefix_length_matches_hmac_crate() {
        for len in 0..=200usize {
            // Byte values vary with the length so prefixes differ in content too.
            let prefix: Vec<u8> = (0..len).map(|i| (i * 31 + len) as u8).collect();
            let key: Vec<u8> = (0..(len % 70 + len / 3)).map(|i| (i * 7) as u8).collect();
            for start in [0u64, 95, 997, (1 << 53) - 2] {
                let mut s = HmacStream::new(&key, &prefix).at_counter(start);
                for k in start..start + 40 {
                    assert_eq!(
                        s.next_word(),
                        reference(&key, &prefix, k),
                        "len {len} k {k}"
                    );
                    assert_eq!(s.counter(), k + 1);
                }
            }
        }
    }

    #[test]
    fn word_is_first_13_hex_chars() {
        let hex = hmac256_hex(b"key", b"msg:0");
        let expected = u64::from_str_radix(&hex[..13], 16).unwrap_or_default();
        assert_eq!(HmacStream::new(b"key", b"msg:").word_at(0), expected);
        assert_eq!(word(b"key", b"msg:0"), expected);
    }

    #[test]
    fn rejected_words_spend_a_counter() {
        let n = 3 << 50; // limit = 2^52 - 2^50 (SPAN mod n = 2^50)
        let limit = SPAN - SPAN % n;
        let mut s = Scripted(vec![limit, limit + 5, 7], 0);
        assert_eq!(s.int(n), 7);
        assert_eq!(s.1, 3);
    }
}
