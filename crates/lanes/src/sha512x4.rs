//! Four SHA-512 compressions at once: one lane of an AVX2 register per message.
//!
//! A single SHA-512 stream is a chain of dependent 64-bit operations and cannot
//! go much faster than RustCrypto's kernel; independent messages (the bets of a
//! bulk verification) can share the instructions instead.

// Calling the `avx2` kernel through its token, and the unaligned loads and
// stores inside it, need `unsafe`.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    _mm256_add_epi64, _mm256_and_si256, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_shuffle_epi8,
    _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi64, _mm256_xor_si256,
};

cpu_token! {
    /// Proof that this CPU has AVX2.
    Avx2(avx2_cpuid: "avx2");
    /// SHA-512 compression of `blocks[i]` into `states[i]`, for the four lanes at once.
    fn compress4(states: &mut [[u64; 8]; 4], blocks: &[[u8; 128]; 4]) => compress4_avx2;
}

/// The SHA-512 round constants (FIPS 180-4 §4.2.3), shared with `sha512x8`.
pub(crate) const K: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// `x` rotated right by `n` bits in each 64-bit lane.
macro_rules! rotr {
    ($x:expr, $n:literal) => {
        _mm256_or_si256(
            _mm256_srli_epi64::<$n>($x),
            _mm256_slli_epi64::<{ 64 - $n }>($x),
        )
    };
}

/// Transposes four rows of four 64-bit words into four columns, in place.
macro_rules! transpose4 {
    ($r0:expr, $r1:expr, $r2:expr, $r3:expr) => {{
        let t0 = _mm256_unpacklo_epi64($r0, $r1);
        let t1 = _mm256_unpackhi_epi64($r0, $r1);
        let t2 = _mm256_unpacklo_epi64($r2, $r3);
        let t3 = _mm256_unpackhi_epi64($r2, $r3);
        $r0 = _mm256_permute2x128_si256::<0x20>(t0, t2);
        $r1 = _mm256_permute2x128_si256::<0x20>(t1, t3);
        $r2 = _mm256_permute2x128_si256::<0x31>(t0, t2);
        $r3 = _mm256_permute2x128_si256::<0x31>(t1, t3);
    }};
}

/// The AVX2 kernel: lane `i` of every register belongs to `states[i]`/`blocks[i]`.
#[target_feature(enable = "avx2")]
// The last round's `bc = ab` is never read.
#[allow(unused_assignments)]
fn compress4_avx2(states: &mut [[u64; 8]; 4], blocks: &[[u8; 128]; 4]) {
    // Byte order within each 64-bit lane: big-endian words, and rotate by 8.
    let bswap = _mm256_setr_epi8(
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13,
        12, 11, 10, 9, 8,
    );
    let rotr8 = _mm256_setr_epi8(
        1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11,
        12, 13, 14, 15, 8,
    );

    // The message words: w[t] holds word t of the four blocks.
    let mut w = [_mm256_set1_epi64x(0); 16];
    for chunk in 0..4 {
        let at = chunk * 32;
        // SAFETY: for all four loads, `at + 32 <= 128`, so each reads 32 bytes inside
        // a live `[u8; 128]`; `loadu` has no alignment requirement.
        let [mut r0, mut r1, mut r2, mut r3] = unsafe {
            [
                _mm256_loadu_si256(blocks[0][at..].as_ptr().cast()),
                _mm256_loadu_si256(blocks[1][at..].as_ptr().cast()),
                _mm256_loadu_si256(blocks[2][at..].as_ptr().cast()),
                _mm256_loadu_si256(blocks[3][at..].as_ptr().cast()),
            ]
        };
        transpose4!(r0, r1, r2, r3);
        w[chunk * 4] = _mm256_shuffle_epi8(r0, bswap);
        w[chunk * 4 + 1] = _mm256_shuffle_epi8(r1, bswap);
        w[chunk * 4 + 2] = _mm256_shuffle_epi8(r2, bswap);
        w[chunk * 4 + 3] = _mm256_shuffle_epi8(r3, bswap);
    }

    // The working variables: s[j] holds state word j of the four lanes.
    let mut s = [_mm256_set1_epi64x(0); 8];
    for half in 0..2 {
        let at = half * 4;
        // SAFETY: for all four loads, `at + 4 <= 8`, so each reads four `u64`s
        // (32 bytes) inside a live `[u64; 8]`; `loadu` has no alignment requirement.
        let [mut r0, mut r1, mut r2, mut r3] = unsafe {
            [
                _mm256_loadu_si256(states[0][at..].as_ptr().cast()),
                _mm256_loadu_si256(states[1][at..].as_ptr().cast()),
                _mm256_loadu_si256(states[2][at..].as_ptr().cast()),
                _mm256_loadu_si256(states[3][at..].as_ptr().cast()),
            ]
        };
        transpose4!(r0, r1, r2, r3);
        s[at] = r0;
        s[at + 1] = r1;
        s[at + 2] = r2;
        s[at + 3] = r3;
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = s;
    let mut bc = _mm256_xor_si256(b, c);

    // One round; the callers rotate the variable names instead of the values.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {{
            let t = $t;
            let wk = _mm256_add_epi64(w[t % 16], _mm256_set1_epi64x(K[t] as i64));
            let sigma1 = _mm256_xor_si256(
                _mm256_xor_si256(rotr!($e, 14), rotr!($e, 18)),
                rotr!($e, 41),
            );
            // Ch(e, f, g) = g ^ (e & (f ^ g)).
            let ch = _mm256_xor_si256($g, _mm256_and_si256($e, _mm256_xor_si256($f, $g)));
            // T1 = h + K + W + Σ1(e) + Ch(e, f, g); the terms not waiting on
            // `e` are added first, so the new `e` is one add after Σ1 + Ch.
            let hk = _mm256_add_epi64($h, wk);
            let e_part = _mm256_add_epi64(sigma1, ch);
            let sigma0 = _mm256_xor_si256(
                _mm256_xor_si256(rotr!($a, 28), rotr!($a, 34)),
                rotr!($a, 39),
            );
            // Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)); this round's b ^ c is the
            // last round's a ^ b.
            let ab = _mm256_xor_si256($a, $b);
            let maj = _mm256_xor_si256($b, _mm256_and_si256(ab, bc));
            bc = ab;
            $d = _mm256_add_epi64(_mm256_add_epi64($d, hk), e_part);
            $h = _mm256_add_epi64(_mm256_add_epi64(hk, _mm256_add_epi64(sigma0, maj)), e_part);
        }};
    }

    // Message word `t` (16 <= t < 80) over the one of 16 rounds ago.
    macro_rules! schedule {
        ($t:expr) => {{
            let t = $t;
            let w15 = w[(t + 1) % 16];
            let w2 = w[(t + 14) % 16];
            let s0 = _mm256_xor_si256(
                _mm256_xor_si256(rotr!(w15, 1), _mm256_shuffle_epi8(w15, rotr8)),
                _mm256_srli_epi64::<7>(w15),
            );
            let s1 = _mm256_xor_si256(
                _mm256_xor_si256(rotr!(w2, 19), rotr!(w2, 61)),
                _mm256_srli_epi64::<6>(w2),
            );
            w[t % 16] = _mm256_add_epi64(
                _mm256_add_epi64(w[t % 16], w[(t + 9) % 16]),
                _mm256_add_epi64(s0, s1),
            );
        }};
    }

    sixteen_rounds!(0, false, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(16, true, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(32, true, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(48, true, [a, b, c, d, e, f, g, h]);
    sixteen_rounds!(64, true, [a, b, c, d, e, f, g, h]);

    let out = [a, b, c, d, e, f, g, h];
    for half in 0..2 {
        let at = half * 4;
        let mut r0 = _mm256_add_epi64(s[at], out[at]);
        let mut r1 = _mm256_add_epi64(s[at + 1], out[at + 1]);
        let mut r2 = _mm256_add_epi64(s[at + 2], out[at + 2]);
        let mut r3 = _mm256_add_epi64(s[at + 3], out[at + 3]);
        transpose4!(r0, r1, r2, r3);
        // SAFETY: for all four stores, `at + 4 <= 8`, so each writes four `u64`s
        // (32 bytes) inside a live, exclusively borrowed `[u64; 8]`; `storeu` has
        // no alignment requirement.
        unsafe {
            _mm256_storeu_si256(states[0][at..].as_mut_ptr().cast(), r0);
            _mm256_storeu_si256(states[1][at..].as_mut_ptr().cast(), r1);
            _mm256_storeu_si256(states[2][at..].as_mut_ptr().cast(), r2);
            _mm256_storeu_si256(states[3][at..].as_mut_ptr().cast(), r3);
        }
    }
}
