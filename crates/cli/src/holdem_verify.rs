//! Hold'em hand records in `fairseed verify`.
//!
//! Core cannot know the hold'em rules (`fairseed-holdem` depends on core), so
//! each batch goes through [`fairseed_holdem::verdict::verify_batch`], which
//! replays `holdem_hand_v1` records (plain `selfpoker` or `selfpoker_v2`
//! deals) and hands every other record to core, verdicts in input order. The
//! browser's verifier routes through the same function.

pub use fairseed_holdem::verdict::verify_batch;
