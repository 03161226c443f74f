//! Sixteen SHA-256 compressions at once: one 32-bit lane of an AVX-512 register
//! per message.
//!
//! SHA-NI runs one message's rounds as a dependent chain; AVX-512 instead does
//! every round of sixteen independent messages with the same instructions:
//! `vprord` for the rotations, one `vpternlogd` per three-input Boolean function
//! (Σ's XOR of three rotations, Ch, Maj). The blocks and states go in and out
//! through 16×16 word transposes.

// Calling the `avx512f,avx512bw` kernel through its token, and the unaligned
// loads and stores inside it, need `unsafe`.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_add_epi32, _mm512_castsi256_si512,
    _mm512_castsi512_si256, _mm512_loadu_si512, _mm512_ror_epi32, _mm512_set1_epi32,
    _mm512_set_epi8, _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_shuffle_i32x4,
    _mm512_srli_epi32, _mm512_ternarylogic_epi32, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi32, _mm512_unpacklo_epi64,
};

use crate::sha256x2::K;

cpu_token! {
    /// Proof that this CPU has AVX-512F (the arithmetic) and AVX-512BW (the
    /// byte swap).
    Avx512(avx512_cpuid: "avx512f", "avx512bw");
    /// SHA-256 compression of `blocks[i]` into `states[i]` for sixteen
    /// independent lanes, in one AVX-512 pass.
    fn compress16(states: &mut [[u32; 8]; 16], blocks: &[[u8; 64]; 16]) => compress16_avx512;
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
#[target_feature(enable = "avx512f,avx512bw")]
fn compress16_avx512(states: &mut [[u32; 8]; 16], blocks: &[[u8; 64]; 16]) {
    // Big-endian message words into little-endian lanes.
    let bswap = _mm512_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5,
        6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8,
        9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
    );

    // The message words: w[t] holds word t of the sixteen blocks.
    let mut w: [__m512i; 16] = core::array::from_fn(|l| {
        // SAFETY: reads the 64 bytes of a live `[u8; 64]`; `loadu` has no
        // alignment requirement.
        unsafe { _mm512_loadu_si512(blocks[l].as_ptr().cast()) }
    });
    transpose16(&mut w);
    for wt in &mut w {
        *wt = _mm512_shuffle_epi8(*wt, bswap);
    }

    // The working variables: s[j] holds state word j of the sixteen lanes.
    // Rows 8..16 of the transpose stay zero (and their shuffles are dead code).
    let mut rows: [__m512i; 16] = core::array::from_fn(|l| {
        // SAFETY: reads the 32 bytes of a live `[u32; 8]`; `loadu` has no
        // alignment requirement.
        let row = unsafe { _mm256_loadu_si256(states[l].as_ptr().cast()) };
        _mm512_castsi256_si512(row)
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

    sixteen_rounds!(0, false, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(16, true, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(32, true, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(48, true, [a, b, c, d, e, f, g, h]);

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
