//! SHA-256 compression of several independent messages at once.
//!
//! One SHA-NI compression is a chain of 32 dependent `sha256rnds2`; on Zen 3
//! each waits for the previous one's result, so a single message leaves the
//! unit mostly idle. Interleaving the rounds of `LANES` independent blocks
//! fills those gaps. Elsewhere (no SHA-NI, or not x86_64) each lane goes
//! through `sha2::compress256` in turn; the results are the same.

#![allow(unsafe_code)]

use sha2::digest::generic_array::GenericArray;

/// How many blocks [`compress`] takes at once.
///
/// Measured on the Zen 3 dev box (chained compressions, shared machine):
/// 1 lane ~75–80 ns per block, 2 lanes ~38–45, 3 lanes ~38–45, 4 lanes
/// ~47–52 (16 xmm registers no longer hold four lanes' state and schedule).
/// Two lanes already keep the SHA unit busy.
pub(crate) const LANES: usize = 2;

/// The SHA-256 initial hash value (FIPS 180-4 §5.3.3).
pub(crate) const IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// One SHA-256 compression of `block` into `state`.
pub(crate) fn compress1(state: &mut [u32; 8], block: &[u8; 64]) {
    sha2::compress256(state, &[GenericArray::clone_from_slice(block)]);
}

/// Compresses `*blocks[i]` into `states[i]` for every lane `i`.
pub(crate) fn compress(states: &mut [[u32; 8]; LANES], blocks: [&[u8; 64]; LANES]) {
    #[cfg(target_arch = "x86_64")]
    if x86::available() {
        x86::compress(states, blocks);
        return;
    }
    for (state, block) in states.iter_mut().zip(blocks) {
        compress1(state, block);
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_blend_epi16, _mm_loadu_si128, _mm_set_epi64x,
        _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi32,
        _mm_shuffle_epi8, _mm_storeu_si128,
    };

    use super::LANES;

    cpufeatures::new!(sha_ni, "sha", "sse2", "ssse3", "sse4.1");

    /// The round constants (FIPS 180-4 §4.2.2), four per vector.
    static K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];

    /// Whether this CPU has the instructions [`compress`] uses (cached after the first call).
    pub(super) fn available() -> bool {
        sha_ni::get()
    }

    /// The SHA-NI kernel behind a safe signature.
    pub(super) fn compress(states: &mut [[u32; 8]; LANES], blocks: [&[u8; 64]; LANES]) {
        debug_assert!(available());
        // SAFETY: only called after `available()` returned true, so the CPU has
        // every feature `compress_ni` is compiled with.
        unsafe { compress_ni(states, blocks) }
    }

    /// `LANES` SHA-256 compressions, the rounds of every lane interleaved.
    ///
    /// The layout follows Intel's SHA-NI reference (and `sha2`'s x86 backend):
    /// the state lives as `ABEF`/`CDGH` vectors, each `sha256rnds2` does two rounds.
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    unsafe fn compress_ni(states: &mut [[u32; 8]; LANES], blocks: [&[u8; 64]; LANES]) {
        // Byte order: big-endian message words into little-endian lanes.
        let mask = _mm_set_epi64x(0x0C0D_0E0F_0809_0A0B, 0x0405_0607_0001_0203);

        let mut abef = [_mm_set_epi64x(0, 0); LANES];
        let mut cdgh = [_mm_set_epi64x(0, 0); LANES];
        let mut w = [[_mm_set_epi64x(0, 0); LANES]; 4];
        for l in 0..LANES {
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
                for l in 0..LANES {
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

        for l in 0..LANES {
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
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::reference::{lanes, sha256};
    use super::*;

    proptest! {
        /// Every lane equals `sha2::compress256` on that lane alone, from random
        /// states and blocks (several blocks chained, so outputs feed back in).
        #[test]
        fn lanes_match_sha2((states, _) in lanes::<LANES, 64, u32>(),
                            chains in prop::collection::vec(lanes::<LANES, 64, u32>(), 1..4)) {
            let mut ours = states;
            let mut theirs = states;
            for (_, blocks) in &chains {
                compress(&mut ours, core::array::from_fn(|l| &blocks[l]));
                theirs = sha256(&theirs, blocks);
            }
            prop_assert_eq!(ours, theirs);
        }
    }

    /// The padded empty message from the IV gives SHA-256("").
    #[test]
    fn empty_message_digest() {
        let mut block = [0u8; 64];
        block[0] = 0x80;
        let mut states = [IV; LANES];
        compress(&mut states, [&block; LANES]);
        let want: [u8; 32] = super::super::sha256(b"");
        for s in states {
            let got: Vec<u8> = s.iter().flat_map(|x| x.to_be_bytes()).collect();
            assert_eq!(got, want);
        }
    }
}
