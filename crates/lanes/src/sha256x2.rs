//! Two SHA-256 compressions at once on SHA-NI, their rounds interleaved.
//!
//! One SHA-NI compression is a chain of 32 dependent `sha256rnds2`; each
//! waits for the previous one's result, so a single message leaves the unit
//! mostly idle. Interleaving the rounds of two independent blocks fills those
//! gaps. Measured per block on chained compressions: one lane ~75–80 ns, two
//! lanes ~38–45, three ~38–45, four ~47–52 (sixteen xmm registers no longer
//! hold four lanes' state and schedule); two lanes already keep the unit busy.

// Calling the `sha` kernel through its token, and the unaligned loads and
// stores inside it, need `unsafe`.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_blend_epi16, _mm_loadu_si128, _mm_set_epi64x,
    _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi32,
    _mm_shuffle_epi8, _mm_storeu_si128,
};

/// The lanes this kernel interleaves (`sha256::PAIR`, which the dispatch
/// batches for it).
pub(crate) const PAIR: usize = 2;

cpu_token! {
    /// Proof that this CPU has SHA-NI and the SSE the kernel needs.
    ShaNi(sha_ni_cpuid: "sha", "sse2", "ssse3", "sse4.1");
    /// Compresses `blocks[i]` into `states[i]` for both lanes.
    fn compress2(states: &mut [[u32; 8]; PAIR], blocks: &[[u8; 64]; PAIR]) => compress_ni;
}

/// The SHA-256 round constants (FIPS 180-4 §4.2.2), loaded four per vector
/// here; shared with `sha256x16`.
pub(crate) static K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// `PAIR` SHA-256 compressions, the rounds of both lanes interleaved.
///
/// The layout follows Intel's SHA-NI reference (and `sha2`'s x86 backend):
/// the state lives as `ABEF`/`CDGH` vectors, each `sha256rnds2` does two rounds.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_ni(states: &mut [[u32; 8]; PAIR], blocks: &[[u8; 64]; PAIR]) {
    // Byte order: big-endian message words into little-endian lanes.
    let mask = _mm_set_epi64x(0x0C0D_0E0F_0809_0A0B, 0x0405_0607_0001_0203);

    let mut abef = [_mm_set_epi64x(0, 0); PAIR];
    let mut cdgh = [_mm_set_epi64x(0, 0); PAIR];
    let mut w = [[_mm_set_epi64x(0, 0); PAIR]; 4];
    for l in 0..PAIR {
        // SAFETY: `states[l]` is 32 readable bytes; the loads are unaligned.
        let (dcba, efgh) = unsafe {
            let p = states[l].as_ptr().cast::<__m128i>();
            (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)))
        };
        let cdab = _mm_shuffle_epi32(dcba, 0xB1);
        let efgh = _mm_shuffle_epi32(efgh, 0x1B);
        abef[l] = _mm_alignr_epi8(cdab, efgh, 8);
        cdgh[l] = _mm_blend_epi16(efgh, cdab, 0xF0);
        for (j, wj) in w.iter_mut().enumerate() {
            // SAFETY: `blocks[l]` is 64 readable bytes, `j < 4`; unaligned load.
            let m = unsafe { _mm_loadu_si128(blocks[l].as_ptr().cast::<__m128i>().add(j)) };
            wj[l] = _mm_shuffle_epi8(m, mask);
        }
    }
    let abef_save = abef;
    let cdgh_save = cdgh;
    let [mut w0, mut w1, mut w2, mut w3] = w;

    // Four rounds of every lane: message words `$w0` (computed from the
    // previous sixteen first when `$schedule`), plus round constants `4 * $i ..`.
    // Fully unrolled so the message schedule stays in registers.
    macro_rules! rounds4 {
        ($i:expr, $schedule:expr, $w0:ident, $w1:ident, $w2:ident, $w3:ident) => {
            // SAFETY: `$i < 16`, so `K[4i..4i+4]` is in bounds; unaligned load.
            let k = unsafe { _mm_loadu_si128(K.as_ptr().add(4 * $i).cast::<__m128i>()) };
            for l in 0..PAIR {
                if $schedule {
                    let t1 = _mm_sha256msg1_epu32($w0[l], $w1[l]);
                    let t2 = _mm_alignr_epi8($w3[l], $w2[l], 4);
                    $w0[l] = _mm_sha256msg2_epu32(_mm_add_epi32(t1, t2), $w3[l]);
                }
                let t = _mm_add_epi32($w0[l], k);
                cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], t);
                abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], _mm_shuffle_epi32(t, 0x0E));
            }
        };
    }
    rounds4!(0, false, w0, w1, w2, w3);
    rounds4!(1, false, w1, w2, w3, w0);
    rounds4!(2, false, w2, w3, w0, w1);
    rounds4!(3, false, w3, w0, w1, w2);
    rounds4!(4, true, w0, w1, w2, w3);
    rounds4!(5, true, w1, w2, w3, w0);
    rounds4!(6, true, w2, w3, w0, w1);
    rounds4!(7, true, w3, w0, w1, w2);
    rounds4!(8, true, w0, w1, w2, w3);
    rounds4!(9, true, w1, w2, w3, w0);
    rounds4!(10, true, w2, w3, w0, w1);
    rounds4!(11, true, w3, w0, w1, w2);
    rounds4!(12, true, w0, w1, w2, w3);
    rounds4!(13, true, w1, w2, w3, w0);
    rounds4!(14, true, w2, w3, w0, w1);
    rounds4!(15, true, w3, w0, w1, w2);

    for l in 0..PAIR {
        let abef = _mm_add_epi32(abef[l], abef_save[l]);
        let cdgh = _mm_add_epi32(cdgh[l], cdgh_save[l]);
        let feba = _mm_shuffle_epi32(abef, 0x1B);
        let dchg = _mm_shuffle_epi32(cdgh, 0xB1);
        let dcba = _mm_blend_epi16(feba, dchg, 0xF0);
        let hgef = _mm_alignr_epi8(dchg, feba, 8);
        // SAFETY: `states[l]` is 32 writable bytes; the stores are unaligned.
        unsafe {
            let p = states[l].as_mut_ptr().cast::<__m128i>();
            _mm_storeu_si128(p, dcba);
            _mm_storeu_si128(p.add(1), hgef);
        }
    }
}
