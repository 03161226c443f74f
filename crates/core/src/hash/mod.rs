//! SHA-256 and HMAC helpers over the RustCrypto `sha2`/`hmac` crates.
//!
//! Every scheme hashes *strings* (UTF-8 bytes) and publishes lowercase hex, as the
//! seeds' Node code does. Cold paths use the `hmac` crate. The two hot paths
//! (the draw stream's words, the dice rolls) keep HMAC *midstates* — the
//! compression states after the key pads (and the stream's constant prefix) —
//! build each message's final blocks by hand, and compress several independent
//! messages in one pass: [`sha256x2`] (two SHA-NI streams interleaved) and
//! `sha512x4` (four AVX2 lanes), and on CPUs with AVX-512F/BW `sha256x16`
//! (sixteen lanes) and `sha512x8` (eight lanes). Each kernel falls back to
//! RustCrypto's `compress256`/`compress512` per message where the CPU lacks the
//! instructions (and on wasm32), and is property-tested against it.

#[cfg(target_arch = "x86_64")]
pub(crate) mod sha256x16;
pub(crate) mod sha256x2;
#[cfg(target_arch = "x86_64")]
mod sha512x4;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sha512x8;

use hmac::{Hmac, Mac};
use sha2::digest::generic_array::GenericArray;
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

/// The SHA-512 initial hash value (FIPS 180-4 §5.3.5).
pub(crate) const SHA512_IV: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// SHA-512 compression of one 128-byte block into `state` (RustCrypto's kernel).
pub(crate) fn sha512_compress(state: &mut [u64; 8], block: &[u8; 128]) {
    sha2::compress512(
        state,
        core::slice::from_ref(GenericArray::from_slice(block)),
    );
}

/// The most lanes [`sha512_compress_lanes`] takes.
pub(crate) const SHA512_LANES: usize = 8;

/// How many lanes one pass of the fastest SHA-512 kernel on this CPU hashes:
/// 8 (AVX-512), 4 (AVX2), or 1 (RustCrypto, one message at a time). A batch
/// of that many, or a partly filled one when it is above 1, costs one pass.
pub(crate) fn sha512_width() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if sha512x8::available() {
            return 8;
        }
        if sha512x4::simd() {
            return 4;
        }
    }
    1
}

/// SHA-512 compression of `blocks[i]` into `states[i]` for the lanes
/// `i < n` (`n <= 8`), in passes of the fastest kernel here. Lanes at or
/// above `n` may be hashed too (padding a pass) and hold garbage afterwards.
pub(crate) fn sha512_compress_lanes(
    states: &mut [[u64; 8]; SHA512_LANES],
    blocks: &[[u8; 128]; SHA512_LANES],
    n: usize,
) {
    sha512_lanes_on(sha512_width(), states, blocks, n);
}

/// [`sha512_compress_lanes`] on the kernel of the given width (tests run
/// every width; a kernel the CPU lacks falls back lane by lane inside).
fn sha512_lanes_on(
    width: usize,
    states: &mut [[u64; 8]; SHA512_LANES],
    blocks: &[[u8; 128]; SHA512_LANES],
    n: usize,
) {
    #[cfg(target_arch = "x86_64")]
    match width {
        8 => return sha512x8::compress8(states, blocks),
        4 => {
            for (s, b) in states
                .chunks_exact_mut(4)
                .zip(blocks.chunks_exact(4))
                .take(n.div_ceil(4))
            {
                // `chunks_exact(4)` gives fours.
                sha512x4::compress4(
                    s.try_into().unwrap_or_else(|_| unreachable!()),
                    b.try_into().unwrap_or_else(|_| unreachable!()),
                );
            }
            return;
        }
        _ => {}
    }
    let _ = width;
    for (state, block) in states.iter_mut().zip(blocks).take(n) {
        sha512_compress(state, block);
    }
}

/// The most lanes [`sha256_compress_lanes`] takes.
pub(crate) const SHA256_LANES: usize = 16;

/// How many lanes one pass of the fastest SHA-256 kernel on this CPU hashes:
/// 16 (AVX-512), else the [`sha256x2`] pair (SHA-NI, or RustCrypto lane by lane).
pub(crate) fn sha256_width() -> usize {
    #[cfg(target_arch = "x86_64")]
    if sha256x16::available() {
        return 16;
    }
    sha256x2::LANES
}

/// SHA-256 compression of `blocks[i]` into `states[i]` for the lanes `i < n`
/// (`n <= 16`), in passes of the fastest kernel here: two lanes or fewer go
/// through the [`sha256x2`] pair (a stream's first two words, or a chess
/// colour's one, would waste fourteen lanes of a wide pass). Lanes at or
/// above `n` may be hashed too and hold garbage afterwards.
pub(crate) fn sha256_compress_lanes(
    states: &mut [[u32; 8]; SHA256_LANES],
    blocks: &[[u8; 64]; SHA256_LANES],
    n: usize,
) {
    let width = if n > sha256x2::LANES {
        sha256_width()
    } else {
        sha256x2::LANES
    };
    sha256_lanes_on(width, states, blocks, n);
}

/// [`sha256_compress_lanes`] on the kernel of the given width (tests run
/// every width; a kernel the CPU lacks falls back lane by lane inside).
fn sha256_lanes_on(
    width: usize,
    states: &mut [[u32; 8]; SHA256_LANES],
    blocks: &[[u8; 64]; SHA256_LANES],
    n: usize,
) {
    #[cfg(target_arch = "x86_64")]
    if width == 16 {
        return sha256x16::compress16(states, blocks);
    }
    let _ = width;
    for (states, blocks) in states
        .chunks_exact_mut(2)
        .zip(blocks.chunks_exact(2))
        .take(n.div_ceil(2))
    {
        // `chunks_exact(2)` gives pairs.
        let states: &mut [[u32; 8]; 2] = states.try_into().unwrap_or_else(|_| unreachable!());
        sha256x2::compress(states, [&blocks[0], &blocks[1]]);
    }
}

/// For `benches/kernels.rs` only (not part of the API): one pass of the
/// SHA-256 kernel of `width` lanes over the first `width` lanes — 1 is
/// RustCrypto's one-lane compression, 2 the SHA-NI pair, 16 AVX-512.
#[doc(hidden)]
pub fn bench_sha256_lanes(
    width: usize,
    states: &mut [[u32; 8]; SHA256_LANES],
    blocks: &[[u8; 64]; SHA256_LANES],
) {
    match width {
        1 => sha256x2::compress1(&mut states[0], &blocks[0]),
        _ => sha256_lanes_on(width, states, blocks, width),
    }
}

/// For `benches/kernels.rs` only (not part of the API): one pass of the
/// SHA-512 kernel of `width` lanes — 1 is RustCrypto's, 4 AVX2, 8 AVX-512.
#[doc(hidden)]
pub fn bench_sha512_lanes(
    width: usize,
    states: &mut [[u64; 8]; SHA512_LANES],
    blocks: &[[u8; 128]; SHA512_LANES],
) {
    sha512_lanes_on(width, states, blocks, width);
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

/// Random lanes for the kernels' property tests, and the `sha2` results
/// every kernel is held to, lane by lane.
#[cfg(test)]
pub(crate) mod reference {
    use proptest::prelude::*;

    /// `L` random 8-word states and `L` random `B`-byte blocks.
    pub(crate) fn lanes<const L: usize, const B: usize, W: Arbitrary + Copy>(
    ) -> impl Strategy<Value = ([[W; 8]; L], [[u8; B]; L])> {
        (
            prop::array::uniform::<_, L>(prop::array::uniform8(any::<W>())),
            prop::array::uniform::<_, L>(prop::array::uniform::<_, B>(any::<u8>())),
        )
    }

    /// `sha2::compress256` of `blocks[i]` into `states[i]`, one lane at a time.
    pub(crate) fn sha256<const L: usize>(
        states: &[[u32; 8]; L],
        blocks: &[[u8; 64]; L],
    ) -> [[u32; 8]; L] {
        let mut want = *states;
        for (state, block) in want.iter_mut().zip(blocks) {
            super::sha256x2::compress1(state, block);
        }
        want
    }

    /// `sha2::compress512` of `blocks[i]` into `states[i]`, one lane at a time.
    pub(crate) fn sha512<const L: usize>(
        states: &[[u64; 8]; L],
        blocks: &[[u8; 128]; L],
    ) -> [[u64; 8]; L] {
        let mut want = *states;
        for (state, block) in want.iter_mut().zip(blocks) {
            super::sha512_compress(state, block);
        }
        want
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

    /// Arbitrary-looking states and blocks, different in every lane.
    fn lanes<const L: usize, const B: usize, T: Copy>(
        word: impl Fn(usize) -> T,
    ) -> ([[T; 8]; L], [[u8; B]; L]) {
        let states = core::array::from_fn(|l| core::array::from_fn(|i| word(l * 8 + i)));
        let blocks = core::array::from_fn(|l| core::array::from_fn(|i| (l * 131 + i * 7) as u8));
        (states, blocks)
    }

    /// Every kernel width, for every lane count, gives `sha2` lane by lane on
    /// the lanes asked for (whichever kernels this CPU actually has).
    #[test]
    fn every_width_compresses_its_lanes() {
        let mix = |i: usize| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for width in [1, 4, 8] {
            for n in 0..=SHA512_LANES {
                let (states, blocks) = lanes::<SHA512_LANES, 128, u64>(mix);
                let mut got = states;
                sha512_lanes_on(width, &mut got, &blocks, n);
                for l in 0..n {
                    let mut want = states[l];
                    sha512_compress(&mut want, &blocks[l]);
                    assert_eq!(got[l], want, "sha512 width {width} n {n} lane {l}");
                }
            }
        }
        for width in [2, 16] {
            for n in 0..=SHA256_LANES {
                let (states, blocks) = lanes::<SHA256_LANES, 64, u32>(|i| mix(i) as u32);
                let mut got = states;
                sha256_lanes_on(width, &mut got, &blocks, n);
                for l in 0..n {
                    let mut want = states[l];
                    sha256x2::compress1(&mut want, &blocks[l]);
                    assert_eq!(got[l], want, "sha256 width {width} n {n} lane {l}");
                }
            }
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
