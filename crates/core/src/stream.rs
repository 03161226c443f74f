//! The draw stream: 52-bit HMAC-SHA256 words, rejection sampling, dice (SPEC §1).

use hmac::Mac;

use crate::hash::{decimal, hmac256_keyed, HmacSha256};

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
/// The key pads *and* the constant prefix are absorbed once; each word then
/// costs the counter's digits and the two final compressions.
#[derive(Clone)]
pub struct HmacStream {
    prefixed: HmacSha256,
    counter: u64,
}

impl HmacStream {
    /// The stream `word(key, prefix + k)` starting at `k = 0`.
    pub fn new(key: &[u8], prefix: &[u8]) -> Self {
        let mut prefixed = hmac256_keyed(key);
        prefixed.update(prefix);
        Self {
            prefixed,
            counter: 0,
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
        let mut mac = self.prefixed.clone();
        let mut buf = [0u8; 20];
        mac.update(decimal(k, &mut buf));
        let digest = mac.finalize().into_bytes();
        word_of_digest(&digest)
    }
}

impl DrawSource for HmacStream {
    fn next_word(&mut self) -> u64 {
        let w = self.word_at(self.counter);
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

/// The first 52 bits (13 hex characters) of a digest.
fn word_of_digest(digest: &[u8]) -> u64 {
    let mut head = [0u8; 8];
    head.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(head) >> 12
}

/// `word(key, msg)` on its own, as the seeds' `word` function.
pub fn word(key: &[u8], msg: &[u8]) -> u64 {
    HmacStream::new(key, msg).word_without_counter()
}

impl HmacStream {
    /// The word of the prefix alone (no counter appended).
    fn word_without_counter(&self) -> u64 {
        let digest = self.prefixed.clone().finalize().into_bytes();
        word_of_digest(&digest)
    }
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
    use super::*;
    use crate::hash::hmac256_hex;

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
