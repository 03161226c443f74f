//! SHA-256 and HMAC helpers over the RustCrypto `sha2`/`hmac` crates.
//!
//! Every scheme hashes *strings* (UTF-8 bytes) and publishes lowercase hex, as the
//! seeds' Node code does. Cold paths use the `hmac` crate. The two hot paths
//! (the draw stream's words, the dice rolls) keep HMAC *midstates* — the
//! compression states after the key pads (and the stream's constant prefix) —
//! build each message's final blocks by hand, and compress several independent
//! messages in one pass with `fairseed-lanes` (one message per SIMD lane:
//! AVX-512, SHA-NI or AVX2 where the CPU has them, RustCrypto's
//! `compress256`/`compress512` per message elsewhere and on wasm32). That
//! crate holds every `unsafe` line; this one forbids it.

/// The SHA-256 compression and its pair width, under the names the draw
/// stream imports.
pub(crate) mod sha256x2 {
    pub(crate) use fairseed_lanes::sha256::{compress1, IV, PAIR as LANES};
}

pub(crate) use fairseed_lanes::sha256::{
    batch_width as sha256_width, compress as sha256_compress_lanes, MAX_LANES as SHA256_LANES,
};
pub(crate) use fairseed_lanes::sha512::{
    batch_width as sha512_width, compress as sha512_compress_lanes, compress1 as sha512_compress,
    IV as SHA512_IV, MAX_LANES as SHA512_LANES,
};

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256, Sha512};

/// HMAC-SHA256.
pub(crate) type HmacSha256 = Hmac<Sha256>;
/// HMAC-SHA512.
pub(crate) type HmacSha512 = Hmac<Sha512>;

/// SHA-256 of `data`.
pub(crate) fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// SHA-256 of `data` as lowercase hex.
pub fn sha256_hex(data: &[u8]) -> String {
    hex::encode(sha256(data))
}

/// An HMAC-SHA256 state keyed with `key`.
pub(crate) fn hmac256_keyed(key: &[u8]) -> HmacSha256 {
    // HMAC takes keys of any length; the error case cannot happen.
    <HmacSha256 as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!())
}

/// An HMAC-SHA512 state keyed with `key`.
pub(crate) fn hmac512_keyed(key: &[u8]) -> HmacSha512 {
    <HmacSha512 as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!())
}

/// HMAC-SHA256 of `msg` under a prepared key state.
pub(crate) fn hmac256_with(keyed: &HmacSha256, msg: &[u8]) -> [u8; 32] {
    let mut mac = keyed.clone();
    mac.update(msg);
    mac.finalize().into_bytes().into()
}

/// Lowercase hex of HMAC-SHA256(`key`, `msg`).
pub fn hmac256_hex(key: &[u8], msg: &[u8]) -> String {
    hex::encode(hmac256_with(&hmac256_keyed(key), msg))
}

/// The HMAC key pads as compression states (RFC 2104): the key — hashed
/// first when longer than a block — zero-padded to `B` bytes, XORed with 0x36
/// and with 0x5c, each compressed once from `iv`. Both hot paths (the draw
/// stream over SHA-256, the dice over SHA-512) start every message from these.
pub(crate) fn hmac_pad_states<const B: usize, S: Copy, H: AsRef<[u8]>>(
    key: &[u8],
    hash: impl FnOnce(&[u8]) -> H,
    iv: S,
    compress: impl Fn(&mut S, &[u8; B]),
) -> (S, S) {
    let mut padded = [0u8; B];
    if key.len() > B {
        let digest = hash(key);
        let digest = digest.as_ref();
        padded[..digest.len()].copy_from_slice(digest);
    } else {
        padded[..key.len()].copy_from_slice(key);
    }
    let state = |pad: u8| {
        let mut state = iv;
        compress(&mut state, &padded.map(|b| b ^ pad));
        state
    };
    (state(0x36), state(0x5c))
}

/// `n` in plain decimal, written into `buf` without allocating: the counters
/// and nonces inside HMAC messages.
pub(crate) fn decimal(n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let start = buf.len() - decimal_len(n);
    write_decimal(&mut buf[start..], n);
    &buf[start..]
}

/// How many decimal digits `n` has.
pub(crate) fn decimal_len(n: u64) -> usize {
    n.checked_ilog10().unwrap_or(0) as usize + 1
}

/// "00", "01", …, "99": two digits per division when writing a counter.
const DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        // i < 100, so both digits fit in u8.
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// Writes `k` in decimal into `out`, which is exactly its number of digits long.
///
/// A stream's counter is written once per word, 51 times a deal: two digits
/// at a time halves the divisions of a one-digit loop.
pub(crate) fn write_decimal(out: &mut [u8], mut k: u64) {
    let mut end = out.len();
    while k >= 100 {
        // k % 100 < 100 indexes the table.
        let pair = (k % 100) as usize * 2;
        k /= 100;
        out[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        end -= 2;
    }
    if k >= 10 {
        // 10 <= k < 100 here.
        let pair = k as usize * 2;
        out[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        // k < 10 fits in u8.
        out[end - 1] = b'0' + k as u8;
    }
}

/// A counter in decimal, advanced in place: a refill writes the digits of
/// sixteen consecutive counters, and carrying one digit is cheaper than
/// dividing all of them out again.
#[derive(Clone, Copy)]
pub(crate) struct DecimalCounter {
    /// The digits, right-aligned: `buf[start..]`.
    buf: [u8; 20],
    start: usize,
}

impl DecimalCounter {
    /// The counter `k`.
    pub(crate) fn new(k: u64) -> Self {
        let mut buf = [0u8; 20];
        let start = buf.len() - decimal(k, &mut buf).len();
        Self { buf, start }
    }

    /// Its digits.
    pub(crate) fn digits(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// Adds one. The caller keeps the counter below `u64::MAX`, so there is
    /// always room for a new leading digit (`u64::MAX` has 20 digits, and
    /// 10^19 - 1 only 19).
    pub(crate) fn increment(&mut self) {
        for i in (self.start..self.buf.len()).rev() {
            if self.buf[i] != b'9' {
                self.buf[i] += 1;
                return;
            }
            self.buf[i] = b'0';
        }
        // Every digit was a 9: one more digit, a leading 1.
        self.start -= 1;
        self.buf[self.start] = b'1';
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_decimal_is_to_string() {
        let mut cases: Vec<u64> = (0..1000).collect();
        for d in 1..20 {
            let p = 10u64.pow(d);
            cases.extend([p - 1, p, p + 1, p + 99]);
        }
        cases.extend([u64::MAX - 1, u64::MAX, (1 << 53) - 1]);
        for k in cases {
            let text = k.to_string();
            let mut out = vec![0u8; text.len()];
            write_decimal(&mut out, k);
            assert_eq!(out, text.as_bytes(), "{k}");
        }
    }

    #[test]
    fn decimal_counter_counts_as_to_string() {
        let mut starts: Vec<u64> = vec![0, 1, 95];
        for d in 1..20 {
            starts.push(10u64.pow(d).saturating_sub(20));
        }
        starts.push(u64::MAX - 40);
        for start in starts {
            let mut c = DecimalCounter::new(start);
            for k in start..start + 40 {
                assert_eq!(c.digits(), k.to_string().as_bytes(), "{k}");
                c.increment();
            }
        }
    }

    #[test]
    fn decimal_matches_format() {
        for n in [0, 1, 9, 10, 12345, (1 << 53) - 1, u64::MAX] {
            let mut buf = [0u8; 20];
            assert_eq!(decimal(n, &mut buf), n.to_string().as_bytes());
        }
    }

    /// RFC 4231 test case 2 (key "Jefe").
    #[test]
    fn rfc4231_case_2() {
        assert_eq!(
            hmac256_hex(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        let mut mac = hmac512_keyed(b"Jefe");
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(mac.finalize().into_bytes()),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        );
    }

    #[test]
    fn sha256_empty() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
