//! Eight SHA-512 compressions at once: one lane of an AVX-512 register per message.
//!
//! The 4-lane AVX2 kernel (`sha512x4`) spends most of its instructions
//! emulating rotations (shift, shift, or) and three-way xors. AVX-512 has both
//! as single instructions (`vprorq`/`vprolq`; `vpternlogq`, which also computes
//! Ch and Maj in one), and its registers are twice as wide.

// Calling the `avx512f,avx512bw` kernel through its token, and the unaligned
// loads and stores inside it, need `unsafe`.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_ror_epi64, _mm512_set1_epi64,
    _mm512_set4_epi64, _mm512_shuffle_epi8, _mm512_shuffle_i64x2, _mm512_srli_epi64,
    _mm512_storeu_si512, _mm512_ternarylogic_epi64, _mm512_unpackhi_epi64, _mm512_unpacklo_epi64,
};

use crate::sha512x4::K;

cpu_token! {
    /// Proof that this CPU has AVX-512F (everything but the byte swap) and
    /// AVX-512BW (`vpshufb` on zmm).
    Avx512(avx512_cpuid: "avx512f", "avx512bw");
    /// SHA-512 compression of `blocks[i]` into `states[i]`, for the eight lanes at once.
    fn compress8(states: &mut [[u64; 8]; 8], blocks: &[[u8; 128]; 8]) => compress8_avx512;
}

// `vpternlogq` truth tables: bit `(a << 2) | (b << 1) | c` is the result for
// those input bits.

/// `a ^ b ^ c`.
const XOR3: i32 = 0x96;
/// Ch: `a ? b : c`.
const CHOOSE: i32 = 0xCA;
/// Maj: at least two of `a`, `b`, `c`.
const MAJORITY: i32 = 0xE8;

/// Transposes eight rows of eight 64-bit words into eight columns, in place:
/// pairs of words, then pairs of 128-bit chunks, then halves.
macro_rules! transpose8 {
    ($r:expr) => {{
        let r = &mut $r;
        // t[2k] = r[2k][0] r[2k+1][0] r[2k][2] r[2k+1][2] … (even columns),
        // t[2k+1] the same for the odd columns.
        let mut t = [_mm512_set1_epi64(0); 8];
        for k in 0..4 {
            t[2 * k] = _mm512_unpacklo_epi64(r[2 * k], r[2 * k + 1]);
            t[2 * k + 1] = _mm512_unpackhi_epi64(r[2 * k], r[2 * k + 1]);
        }
        // 0x88 keeps chunks 0 and 2 of each source, 0xDD chunks 1 and 3.
        // u[0] = r[0..4] columns 0 and 4, u[1] columns 2 and 6,
        // u[2] columns 1 and 5, u[3] columns 3 and 7; u[4..8] the same for r[4..8].
        let mut u = [_mm512_set1_epi64(0); 8];
        for half in 0..2 {
            let (t, u) = (&t[half * 4..], &mut u[half * 4..]);
            u[0] = _mm512_shuffle_i64x2::<0x88>(t[0], t[2]);
            u[1] = _mm512_shuffle_i64x2::<0xDD>(t[0], t[2]);
            u[2] = _mm512_shuffle_i64x2::<0x88>(t[1], t[3]);
            u[3] = _mm512_shuffle_i64x2::<0xDD>(t[1], t[3]);
        }
        r[0] = _mm512_shuffle_i64x2::<0x88>(u[0], u[4]);
        r[4] = _mm512_shuffle_i64x2::<0xDD>(u[0], u[4]);
        r[2] = _mm512_shuffle_i64x2::<0x88>(u[1], u[5]);
        r[6] = _mm512_shuffle_i64x2::<0xDD>(u[1], u[5]);
        r[1] = _mm512_shuffle_i64x2::<0x88>(u[2], u[6]);
        r[5] = _mm512_shuffle_i64x2::<0xDD>(u[2], u[6]);
        r[3] = _mm512_shuffle_i64x2::<0x88>(u[3], u[7]);
        r[7] = _mm512_shuffle_i64x2::<0xDD>(u[3], u[7]);
    }};
}

/// `x ^ y ^ z` in one instruction.
macro_rules! xor3 {
    ($x:expr, $y:expr, $z:expr) => {
        _mm512_ternarylogic_epi64::<XOR3>($x, $y, $z)
    };
}

/// The AVX-512 kernel: lane `i` of every register belongs to `states[i]`/`blocks[i]`.
#[target_feature(enable = "avx512f,avx512bw")]
fn compress8_avx512(states: &mut [[u64; 8]; 8], blocks: &[[u8; 128]; 8]) {
    // Big-endian words: reverse the bytes of each 64-bit lane (`vpshufb`
    // indexes within each 128-bit chunk).
    let bswap = _mm512_set4_epi64(
        0x08090a0b0c0d0e0f,
        0x0001020304050607,
        0x08090a0b0c0d0e0f,
        0x0001020304050607,
    );

    // The message words: w[t] holds word t of the eight blocks.
    let mut w = [_mm512_set1_epi64(0); 16];
    for half in 0..2 {
        let at = half * 64;
        let mut r = [_mm512_set1_epi64(0); 8];
        for (row, block) in r.iter_mut().zip(blocks) {
            // SAFETY: `at + 64 <= 128`, so this reads 64 bytes inside a live
            // `[u8; 128]`; `loadu` has no alignment requirement.
            *row = unsafe { _mm512_loadu_si512(block[at..].as_ptr().cast()) };
        }
        transpose8!(r);
        for (word, row) in w[half * 8..half * 8 + 8].iter_mut().zip(r) {
            *word = _mm512_shuffle_epi8(row, bswap);
        }
    }

    // The working variables: s[j] holds state word j of the eight lanes.
    let mut s = [_mm512_set1_epi64(0); 8];
    for (row, state) in s.iter_mut().zip(states.iter()) {
        // SAFETY: reads the 64 bytes of a live `[u64; 8]`; `loadu` has no
        // alignment requirement.
        *row = unsafe { _mm512_loadu_si512(state.as_ptr().cast()) };
    }
    transpose8!(s);
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = s;

    // One round; the callers rotate the variable names instead of the values.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {{
            let t = $t;
            // T1 = h + K + W + Σ1(e) + Ch(e, f, g); the terms not waiting on
            // `e` are added first, so the new `e` is one add after Σ1 + Ch.
            let hk = _mm512_add_epi64(
                $h,
                _mm512_add_epi64(w[t % 16], _mm512_set1_epi64(K[t] as i64)),
            );
            let sigma1 = xor3!(
                _mm512_ror_epi64::<14>($e),
                _mm512_ror_epi64::<18>($e),
                _mm512_ror_epi64::<41>($e)
            );
            let ch = _mm512_ternarylogic_epi64::<CHOOSE>($e, $f, $g);
            let e_part = _mm512_add_epi64(sigma1, ch);
            let sigma0 = xor3!(
                _mm512_ror_epi64::<28>($a),
                _mm512_ror_epi64::<34>($a),
                _mm512_ror_epi64::<39>($a)
            );
            let maj = _mm512_ternarylogic_epi64::<MAJORITY>($a, $b, $c);
            $d = _mm512_add_epi64(_mm512_add_epi64($d, hk), e_part);
            $h = _mm512_add_epi64(_mm512_add_epi64(hk, _mm512_add_epi64(sigma0, maj)), e_part);
        }};
    }

    // Message word `t` (16 <= t < 80) over the one of 16 rounds ago.
    macro_rules! schedule {
        ($t:expr) => {{
            let t = $t;
            let w15 = w[(t + 1) % 16];
            let w2 = w[(t + 14) % 16];
            let s0 = xor3!(
                _mm512_ror_epi64::<1>(w15),
                _mm512_ror_epi64::<8>(w15),
                _mm512_srli_epi64::<7>(w15)
            );
            let s1 = xor3!(
                _mm512_ror_epi64::<19>(w2),
                _mm512_ror_epi64::<61>(w2),
                _mm512_srli_epi64::<6>(w2)
            );
            w[t % 16] = _mm512_add_epi64(
                _mm512_add_epi64(w[t % 16], w[(t + 9) % 16]),
                _mm512_add_epi64(s0, s1),
            );
        }};
    }

    sixteen_rounds!(0, false, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(16, true, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(32, true, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(48, true, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(64, true, [a, b, c, d, e, f, g, h]);

    let mut out: [__m512i; 8] = [a, b, c, d, e, f, g, h];
    for (word, start) in out.iter_mut().zip(s) {
        *word = _mm512_add_epi64(*word, start);
    }
    transpose8!(out);
    for (state, row) in states.iter_mut().zip(out) {
        // SAFETY: writes the 64 bytes of a live, exclusively borrowed
        // `[u64; 8]`; `storeu` has no alignment requirement.
        unsafe { _mm512_storeu_si512(state.as_mut_ptr().cast(), row) };
    }
}
