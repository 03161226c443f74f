//! Sixteen SHA-256 compressions at once: one 32-bit lane of an AVX-512 register
//! per message.
//!
//! SHA-NI runs one message's rounds as a dependent chain; AVX-512 instead does
//! every round of sixteen independent messages with the same instructions:
//! `vprord` for the rotations, one `vpternlogd` per three-input Boolean function
//! (Σ's XOR of three rotations, Ch, Maj). The blocks and states go in and out
//! through 16×16 word transposes. [`compress16`] runs the kernel when the CPU
//! has AVX-512F and AVX-512BW ([`available`]), and `sha2::compress256` lane by
//! lane otherwise.

// Calling the `avx512f,avx512bw` kernel after runtime detection, and the
// unaligned loads and stores inside it, need `unsafe`.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_add_epi32, _mm512_castsi256_si512,
    _mm512_castsi512_si256, _mm512_loadu_si512, _mm512_ror_epi32, _mm512_set1_epi32,
    _mm512_set_epi8, _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_shuffle_i32x4,
    _mm512_srli_epi32, _mm512_ternarylogic_epi32, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi32, _mm512_unpacklo_epi64,
};

cpufeatures::new!(avx512_cpuid, "avx512f", "avx512bw");

/// The SHA-256 round constants (FIPS 180-4 §4.2.2).
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// Whether the 16-lane kernel runs on this CPU (AVX-512F for the arithmetic,
/// AVX-512BW for the byte swap; cached after the first call).
pub(crate) fn available() -> bool {
    avx512_cpuid::get()
}

/// SHA-256 compression of `blocks[i]` into `states[i]` for sixteen independent
/// lanes: one AVX-512 pass when [`available`], `sha2::compress256` lane by lane
/// otherwise.
pub(crate) fn compress16(states: &mut [[u32; 8]; 16], blocks: &[[u8; 64]; 16]) {
    if available() {
        // SAFETY: the CPU supports AVX-512F and AVX-512BW (checked just above),
        // the only requirements of `compress16_avx512`.
        unsafe { compress16_avx512(states, blocks) }
    } else {
        compress16_soft(states, blocks);
    }
}

/// The portable path: `sha2::compress256` lane by lane.
fn compress16_soft(states: &mut [[u32; 8]; 16], blocks: &[[u8; 64]; 16]) {
    for (state, block) in states.iter_mut().zip(blocks) {
        super::sha256x2::compress1(state, block);
    }
}

/// Transposes sixteen rows of sixteen 32-bit words in place: afterwards word
/// `j` of row `i` is what word `i` of row `j` was.
///
/// Four rounds of sixteen two-register shuffles: 32- and 64-bit interleaves
/// within each 128-bit lane, then two rounds of 128-bit lane shuffles.
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose16(r: &mut [__m512i; 16]) {
    let mut t = [_mm512_setzero_si512(); 16];
    for i in 0..8 {
        t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
    // Now lane L of `u[4i + c]` holds word `4L + c` of rows `4i .. 4i + 4`.
    let mut u = [_mm512_setzero_si512(); 16];
    for i in 0..4 {
        u[4 * i] = _mm512_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 1] = _mm512_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 2] = _mm512_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
        u[4 * i + 3] = _mm512_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
    }
    // Row `4L + c` gathers lane L of `u[c]`, `u[4 + c]`, `u[8 + c]`, `u[12 + c]`.
    for c in 0..4 {
        let v0 = _mm512_shuffle_i32x4::<0x44>(u[c], u[4 + c]);
        let v1 = _mm512_shuffle_i32x4::<0xEE>(u[c], u[4 + c]);
        let v2 = _mm512_shuffle_i32x4::<0x44>(u[8 + c], u[12 + c]);
        let v3 = _mm512_shuffle_i32x4::<0xEE>(u[8 + c], u[12 + c]);
        r[c] = _mm512_shuffle_i32x4::<0x88>(v0, v2);
        r[4 + c] = _mm512_shuffle_i32x4::<0xDD>(v0, v2);
        r[8 + c] = _mm512_shuffle_i32x4::<0x88>(v1, v3);
        r[12 + c] = _mm512_shuffle_i32x4::<0xDD>(v1, v3);
    }
}

/// Σ/σ: the XOR of three rotations (or two and a shift) of `x`, in one
/// `vpternlogd` (0x96 = a ^ b ^ c).
macro_rules! xor3 {
    ($x:expr, $y:expr, $z:expr) => {
        _mm512_ternarylogic_epi32::<0x96>($x, $y, $z)
    };
}

/// The AVX-512 kernel: lane `i` of every register belongs to `states[i]`/`blocks[i]`.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512BW.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn compress16_avx512(states: &mut [[u32; 8]; 16], blocks: &[[u8; 64]; 16]) {
    // Big-endian message words into little-endian lanes.
    let bswap = _mm512_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5,
        6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8,
        9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
    );

    // The message words: w[t] holds word t of the sixteen blocks.
    // SAFETY (every load): each reads the 64 bytes of a live `[u8; 64]`;
    // `loadu` has no alignment requirement.
    let mut w: [__m512i; 16] =
        core::array::from_fn(|l| unsafe { _mm512_loadu_si512(blocks[l].as_ptr().cast()) });
    transpose16(&mut w);
    for wt in &mut w {
        *wt = _mm512_shuffle_epi8(*wt, bswap);
    }

    // The working variables: s[j] holds state word j of the sixteen lanes.
    // Rows 8..16 of the transpose stay zero (and their shuffles are dead code).
    // SAFETY (every load): each reads the 32 bytes of a live `[u32; 8]`;
    // `loadu` has no alignment requirement.
    let mut rows: [__m512i; 16] = core::array::from_fn(|l| {
        _mm512_castsi256_si512(unsafe { _mm256_loadu_si256(states[l].as_ptr().cast()) })
    });
    transpose16(&mut rows);
    let s: [__m512i; 8] = core::array::from_fn(|j| rows[j]);
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = s;

    // One round; the callers rotate the variable names instead of the values.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {{
            let t = $t;
            let wk = _mm512_add_epi32(w[t % 16], _mm512_set1_epi32(K[t] as i32));
            let sigma1 = xor3!(
                _mm512_ror_epi32::<6>($e),
                _mm512_ror_epi32::<11>($e),
                _mm512_ror_epi32::<25>($e)
            );
            // Ch(e, f, g) = (e & f) | (!e & g).
            let ch = _mm512_ternarylogic_epi32::<0xCA>($e, $f, $g);
            // T1 = h + K + W + Σ1(e) + Ch(e, f, g); the terms not waiting on
            // `e` are added first.
            let t1 = _mm512_add_epi32(_mm512_add_epi32($h, wk), _mm512_add_epi32(sigma1, ch));
            let sigma0 = xor3!(
                _mm512_ror_epi32::<2>($a),
                _mm512_ror_epi32::<13>($a),
                _mm512_ror_epi32::<22>($a)
            );
            // Maj(a, b, c): the majority of the three bits.
            let maj = _mm512_ternarylogic_epi32::<0xE8>($a, $b, $c);
            $d = _mm512_add_epi32($d, t1);
            $h = _mm512_add_epi32(t1, _mm512_add_epi32(sigma0, maj));
        }};
    }

    // Message word `t` (16 <= t < 64) over the one of 16 rounds ago.
    macro_rules! schedule {
        ($t:expr) => {{
            let t = $t;
            let w15 = w[(t + 1) % 16];
            let w2 = w[(t + 14) % 16];
            let s0 = xor3!(
                _mm512_ror_epi32::<7>(w15),
                _mm512_ror_epi32::<18>(w15),
                _mm512_srli_epi32::<3>(w15)
            );
            let s1 = xor3!(
                _mm512_ror_epi32::<17>(w2),
                _mm512_ror_epi32::<19>(w2),
                _mm512_srli_epi32::<10>(w2)
            );
            w[t % 16] = _mm512_add_epi32(
                _mm512_add_epi32(w[t % 16], w[(t + 9) % 16]),
                _mm512_add_epi32(s0, s1),
            );
        }};
    }

    macro_rules! sixteen {
        ($base:expr, $sched:expr) => {{
            let base = $base;
            macro_rules! step {
                ($i:literal, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
                    if $sched {
                        schedule!(base + $i);
                    }
                    round!($a, $b, $c, $d, $e, $f, $g, $h, base + $i);
                };
            }
            step!(0, a, b, c, d, e, f, g, h);
            step!(1, h, a, b, c, d, e, f, g);
            step!(2, g, h, a, b, c, d, e, f);
            step!(3, f, g, h, a, b, c, d, e);
            step!(4, e, f, g, h, a, b, c, d);
            step!(5, d, e, f, g, h, a, b, c);
            step!(6, c, d, e, f, g, h, a, b);
            step!(7, b, c, d, e, f, g, h, a);
            step!(8, a, b, c, d, e, f, g, h);
            step!(9, h, a, b, c, d, e, f, g);
            step!(10, g, h, a, b, c, d, e, f);
            step!(11, f, g, h, a, b, c, d, e);
            step!(12, e, f, g, h, a, b, c, d);
            step!(13, d, e, f, g, h, a, b, c);
            step!(14, c, d, e, f, g, h, a, b);
            step!(15, b, c, d, e, f, g, h, a);
        }};
    }

    sixteen!(0, false);
    sixteen!(16, true);
    sixteen!(32, true);
    sixteen!(48, true);

    let out = [a, b, c, d, e, f, g, h];
    let mut rows = [_mm512_setzero_si512(); 16];
    for j in 0..8 {
        rows[j] = _mm512_add_epi32(s[j], out[j]);
    }
    transpose16(&mut rows);
    for (state, row) in states.iter_mut().zip(rows) {
        // SAFETY: writes the 32 bytes of a live, exclusively borrowed
        // `[u32; 8]`; `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(state.as_mut_ptr().cast(), _mm512_castsi512_si256(row)) };
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::reference::{lanes, sha256};
    use super::*;

    proptest! {
        /// The dispatcher (AVX-512 on this machine if it has it) and the
        /// portable path both equal `sha2::compress256` lane by lane.
        #[test]
        fn compress16_matches_sha2((states, blocks) in lanes::<16, 64, u32>()) {
            let want = sha256(&states, &blocks);
            let mut got = states;
            compress16(&mut got, &blocks);
            prop_assert_eq!(got, want);
            let mut soft = states;
            compress16_soft(&mut soft, &blocks);
            prop_assert_eq!(soft, want);
        }

        /// Chained compressions (multi-block messages) stay equal too.
        #[test]
        fn compress16_chains((states, blocks) in lanes::<16, 64, u32>(),
                             more in prop::collection::vec(lanes::<16, 64, u32>(), 1..3)) {
            let mut want = sha256(&states, &blocks);
            let mut got = states;
            compress16(&mut got, &blocks);
            for (_, next) in &more {
                want = sha256(&want, next);
                compress16(&mut got, next);
            }
            prop_assert_eq!(got, want);
        }
    }

    /// The padded empty message from the IV gives SHA-256("") in every lane.
    #[test]
    fn empty_message_digest() {
        let mut block = [0u8; 64];
        block[0] = 0x80;
        let mut states = [super::super::sha256x2::IV; 16];
        compress16(&mut states, &[block; 16]);
        let want: [u8; 32] = super::super::sha256(b"");
        for s in states {
            let got: Vec<u8> = s.iter().flat_map(|x| x.to_be_bytes()).collect();
            assert_eq!(got, want);
        }
    }
}
