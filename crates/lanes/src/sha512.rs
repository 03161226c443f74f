//! SHA-512 compression of up to [`MAX_LANES`] independent messages at once.

use core::fmt;

use sha2::digest::generic_array::GenericArray;

use crate::passes::in_passes;
use crate::Unsupported;
#[cfg(target_arch = "x86_64")]
use crate::{sha512x4::Avx2, sha512x8::Avx512};

/// The most lanes one call takes.
pub const MAX_LANES: usize = 8;

/// The SHA-512 initial hash value (FIPS 180-4 §5.3.5).
pub const IV: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// One way to compress a batch of SHA-512 blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Eight lanes, one per 64-bit lane of an AVX-512 register (x86_64 with AVX-512F and AVX-512BW).
    Avx512,
    /// Four lanes, one per 64-bit lane of an AVX2 register (x86_64 with AVX2).
    Avx2,
    /// RustCrypto's `sha2::compress512`, one lane at a time; runs everywhere.
    Portable,
}

impl Backend {
    /// Every backend, widest first.
    pub const ALL: [Backend; 3] = [Backend::Avx512, Backend::Avx2, Backend::Portable];

    /// How many lanes one pass hashes.
    pub const fn lanes(self) -> usize {
        match self {
            Backend::Avx512 => 8,
            Backend::Avx2 => 4,
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
            Backend::Avx2 if Avx2::detect().is_some() => return None,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => "CPU lacks avx512f+avx512bw",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => "CPU lacks avx2",
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Avx512 | Backend::Avx2 => "not an x86_64 CPU",
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
        {
            if Avx512::detect().is_some() {
                return Backend::Avx512;
            }
            if Avx2::detect().is_some() {
                return Backend::Avx2;
            }
        }
        Backend::Portable
    }

    /// Its short name: `avx512`, `avx2` or `portable`.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Avx512 => "avx512",
            Backend::Avx2 => "avx2",
            Backend::Portable => "portable",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many lanes one pass of the fastest backend here hashes: 8 (AVX-512),
/// 4 (AVX2) or 1. A batch of that many, or a partly filled one when it is
/// above 1, costs one pass.
#[inline]
pub fn batch_width() -> usize {
    Backend::fastest().lanes()
}

/// One SHA-512 compression of `block` into `state` (RustCrypto's kernel).
#[inline]
pub fn compress1(state: &mut [u64; 8], block: &[u8; 128]) {
    sha2::compress512(
        state,
        core::slice::from_ref(GenericArray::from_slice(block)),
    );
}

/// Compresses `blocks[i]` into `states[i]` for the lanes `i < n` (`n` is
/// capped at [`MAX_LANES`]) on the fastest backend the CPU has. Lanes at or
/// above `n` may be hashed too (padding a pass) and hold garbage afterwards.
#[inline]
pub fn compress(states: &mut [[u64; 8]; MAX_LANES], blocks: &[[u8; 128]; MAX_LANES], n: usize) {
    run(Backend::fastest(), states, blocks, n);
}

/// [`compress`] on the given backend, whatever the dispatcher would pick:
/// `Err` (and nothing hashed) when this CPU cannot run it.
#[inline]
pub fn compress_with(
    backend: Backend,
    states: &mut [[u64; 8]; MAX_LANES],
    blocks: &[[u8; 128]; MAX_LANES],
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
    states: &mut [[u64; 8]; MAX_LANES],
    blocks: &[[u8; 128]; MAX_LANES],
    n: usize,
) {
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(avx512) = Avx512::detect() {
                return avx512.compress8(states, blocks);
            }
        }
        Backend::Avx2 => {
            if let Some(avx2) = Avx2::detect() {
                return in_passes(states, blocks, n, |s, b| avx2.compress4(s, b));
            }
        }
        Backend::Portable => {}
    }
    let _ = backend;
    in_passes(states, blocks, n, |[s], [b]| compress1(s, b));
}
