//! The transparency log's service side (docs/spec.md §16, docs/service.md):
//! the log key, receipts for what a response shows, the sequencer, and
//! reading tiles and proofs from the store, and witness cosigning.
//!
//! Entries are queued by the store in the transaction that shows them; this
//! module signs a receipt for each one a response carries, and the
//! sequencer ([`sequencer`]) turns the queue into leaves and checkpoints.

pub mod age;
pub mod key;
pub mod read;
pub mod receipt;
pub mod sequencer;
pub mod shown;
pub mod signer;
pub mod witness;

pub use key::LogKey;
pub use receipt::Receipt;
pub use signer::Signer;
