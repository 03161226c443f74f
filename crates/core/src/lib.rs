//! fairseed-core: the provably-fair schemes of fairseed, computed exactly.
//!
//! Pure and deterministic: no I/O, no clock, no OS randomness, no global state.
//! Every input is an argument (seeds, nonces, counters), so any draw replays
//! anywhere — on the server, in `fairseed verify`, and compiled to WebAssembly
//! in the player's browser. The server passes in CSPRNG bytes through
//! [`ServerSeed::from_bytes`]; the core never makes randomness of its own.
//!
//! The schemes are specified in `docs/spec.md`:
//! the draw stream ([`stream`], [`shuffle()`]), table games ([`games`]), chess
//! colours ([`chess`]), Merkle-committed poker decks ([`poker`], [`merkle`]),
//! dice ([`dice`]), the NumPy selfpoker deal ([`selfpoker`], [`numpy`]) and its
//! derived seeds ([`selfpoker_v2`], and [`selfpoker_v3`] with no last word).
//! Records and verdicts ([`record`], [`verify_value`], [`report`]) tie them together.

// The SIMD hash kernels, the only `unsafe` code, live in `fairseed-lanes`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cards;
pub mod chess;
pub mod dice;
mod error;
pub mod games;
mod hash;
pub mod merkle;
pub mod numpy;
pub mod poker;
mod seed;
pub mod selfpoker;
pub mod selfpoker_v2;
pub mod selfpoker_v3;
mod shuffle;
pub mod stream;

pub use error::Error;
pub use hash::{hmac256_hex, sha256_hex};
pub use seed::{ct_eq, ClientSeed, Commitment, Ident, ServerSeed, CLIENT_SEED_MAX_BYTES};
pub use shuffle::{shuffle, shuffled_ids};

/// The examples of `docs/core-api.md`, compiled and run as doc tests so the
/// document cannot drift from the API it describes.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/core-api.md")]
pub struct CoreApiDoc;

mod describe;
mod json_out;
pub mod record;
pub mod report;
mod verdict;
mod verify;

pub use verdict::{Check, Verdict, Warning};
pub use verify::{verify_str, verify_value, Verifier};
