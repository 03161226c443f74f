//! SHA-256 compression of up to [`MAX_LANES`] independent messages at once.

use core::fmt;

use sha2::digest::generic_array::GenericArray;

use crate::passes::in_passes;
use crate::Unsupported;
#[cfg(target_arch = "x86_64")]
use crate::{sha256x16::Avx512, sha256x2::ShaNi};

/// The most lanes one call takes.
pub const MAX_LANES: usize = 16;

/// The lanes of the SHA-NI pair: [`compress`] hashes a batch this small with
/// the pair (a stream's first two words, or a chess colour's one, would waste
/// fourteen lanes of a wide pass).
pub const PAIR: usize = 2;
#[cfg(target_arch = "x86_64")]
const _: () = assert!(PAIR == crate::sha256x2::PAIR);

/// The SHA-256 initial hash value (FIPS 180-4 §5.3.3).
pub const IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// One way to compress a batch of SHA-256 blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Sixteen lanes, one per 32-bit lane of an AVX-512 register (x86_64 with AVX-512F and AVX-512BW).
    Avx512,
    /// Two messages' SHA-NI rounds interleaved (x86_64 with SHA, SSE2, SSSE3, SSE4.1).
    ShaNi,
    /// RustCrypto's `sha2::compress256`, one lane at a time; runs everywhere.
    Portable,
}

impl Backend {
    /// Every backend, widest first.
    pub const ALL: [Backend; 3] = [Backend::Avx512, Backend::ShaNi, Backend::Portable];

    /// How many lanes one pass hashes.
    pub const fn lanes(self) -> usize {
        match self {
            Backend::Avx512 => 16,
            Backend::ShaNi => PAIR,
            Backend::Portable => 1,
        }
    }

    /// Whether this CPU runs the backend (detected once, then cached).
    #[inline]
    pub fn available(self) -> bool {
        self.unsupported().is_none()
    }

    /// Why this CPU cannot run the backend; `None` when it can.
    #[inline]
    pub fn unsupported(self) -> Option<Unsupported> {
        let reason = match self {
            Backend::Portable => return None,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 if Avx512::detect().is_some() => return None,
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi if ShaNi::detect().is_some() => return None,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => "CPU lacks avx512f+avx512bw",
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi => "CPU lacks sha+sse2+ssse3+sse4.1",
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Avx512 | Backend::ShaNi => "not an x86_64 CPU",
        };
        Some(Unsupported {
            backend: self.name(),
            reason,
        })
    }

    /// The widest backend this CPU runs.
    #[inline]
    pub fn fastest() -> Backend {
        #[cfg(target_arch = "x86_64")]
        if Avx512::detect().is_some() {
            return Backend::Avx512;
        }
        Backend::pair()
    }

    /// The backend of a batch of at most [`PAIR`] lanes: the SHA-NI pair if
    /// the CPU has it.
    #[inline]
    fn pair() -> Backend {
        #[cfg(target_arch = "x86_64")]
        if ShaNi::detect().is_some() {
            return Backend::ShaNi;
        }
        Backend::Portable
    }

    /// Its short name: `avx512`, `sha-ni` or `portable`.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Avx512 => "avx512",
            Backend::ShaNi => "sha-ni",
            Backend::Portable => "portable",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many messages a caller should gather per batch: 16 with AVX-512, else
/// the [`PAIR`] (two lanes cost no more than one on SHA-NI, and lane by lane
/// they cost what they would anyway).
#[inline]
pub fn batch_width() -> usize {
    Backend::fastest().lanes().max(PAIR)
}

/// One SHA-256 compression of `block` into `state` (RustCrypto's kernel).
#[inline]
pub fn compress1(state: &mut [u32; 8], block: &[u8; 64]) {
    sha2::compress256(
        state,
        core::slice::from_ref(GenericArray::from_slice(block)),
    );
}

/// Compresses `blocks[i]` into `states[i]` for the lanes `i < n` (`n` is
/// capped at [`MAX_LANES`]) on the fastest backend for the batch: the pair
/// for [`PAIR`] lanes or fewer, the widest the CPU has otherwise. Lanes at or
/// above `n` may be hashed too (padding a pass) and hold garbage afterwards.
#[inline]
pub fn compress(states: &mut [[u32; 8]; MAX_LANES], blocks: &[[u8; 64]; MAX_LANES], n: usize) {
    let backend = if n > PAIR {
        Backend::fastest()
    } else {
        Backend::pair()
    };
    run(backend, states, blocks, n);
}

/// [`compress`] on the given backend, whatever the dispatcher would pick:
/// `Err` (and nothing hashed) when this CPU cannot run it.
#[inline]
pub fn compress_with(
    backend: Backend,
    states: &mut [[u32; 8]; MAX_LANES],
    blocks: &[[u8; 64]; MAX_LANES],
    n: usize,
) -> Result<(), Unsupported> {
    if let Some(unsupported) = backend.unsupported() {
        return Err(unsupported);
    }
    run(backend, states, blocks, n);
    Ok(())
}

/// Runs `backend` in passes over the lanes `i < n`; a backend the CPU lacks
/// runs the portable path (each kernel checks its own token).
#[inline]
fn run(
    backend: Backend,
    states: &mut [[u32; 8]; MAX_LANES],
    blocks: &[[u8; 64]; MAX_LANES],
    n: usize,
) {
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(avx512) = Avx512::detect() {
                return avx512.compress16(states, blocks);
            }
        }
        Backend::ShaNi => {
            if let Some(sha_ni) = ShaNi::detect() {
                return in_passes(states, blocks, n, |s, b| sha_ni.compress2(s, b));
            }
        }
        Backend::Portable => {}
    }
    let _ = backend;
    in_passes(states, blocks, n, |[s], [b]| compress1(s, b));
}
