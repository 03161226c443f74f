//! fairseed-lanes: multi-message SHA-256/SHA-512 compression, one message per SIMD lane.
//!
//! The draw stream and the dice of `fairseed-core` hash many short, independent
//! messages; this crate compresses a batch of them at once. Each hash has a
//! few [backends](sha256::Backend): hand-written x86_64 kernels (AVX-512 with
//! 16 SHA-256 or 8 SHA-512 lanes, an interleaved SHA-NI pair, an AVX2 quad of
//! SHA-512) and the portable one, RustCrypto's `sha2` lane by lane, which is
//! also what runs on `wasm32` and every other target.
//!
//! [`sha256::compress`] and [`sha512::compress`] pick the fastest backend the
//! CPU has (detected at run time, once); [`sha256::compress_with`] and
//! [`sha512::compress_with`] force one, so every kernel can be tested against
//! `sha2` whatever the dispatcher would choose.
//!
//! This is the workspace's only crate that allows `unsafe`: calling a
//! `#[target_feature]` kernel (only through a token proving the CPU has the
//! features) and its unaligned loads and stores. The kernel files opt in one
//! by one; each block states its `// SAFETY:` argument.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

#[cfg(target_arch = "x86_64")]
#[macro_use]
mod rounds;
#[cfg(target_arch = "x86_64")]
#[macro_use]
mod token;

mod passes;
pub mod sha256;
pub mod sha512;
mod unsupported;

#[cfg(target_arch = "x86_64")]
mod sha256x16;
#[cfg(target_arch = "x86_64")]
mod sha256x2;
#[cfg(target_arch = "x86_64")]
mod sha512x4;
#[cfg(target_arch = "x86_64")]
mod sha512x8;

pub use unsupported::Unsupported;
