//! Fresh randomness from the OS, and token hashing.

use fairseed_core::ServerSeed;
use fairseed_store::{NewSeedPair, SecretSeed};

use crate::error::ApiError;

/// 32 bytes from the OS CSPRNG.
pub fn random_bytes() -> Result<[u8; 32], ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).map_err(ApiError::internal)?;
    Ok(bytes)
}

/// A new bearer token: 64 hex characters.
pub fn new_token() -> Result<String, ApiError> {
    random_bytes().map(hex::encode)
}

/// The stored form of a token or key: `sha256(token)`, hex.
pub fn token_hash(token: &str) -> String {
    fairseed_core::sha256_hex(token.as_bytes())
}

/// A default client seed: 16 random bytes as 32 hex characters, which the
/// player may replace before the pair's first bet.
pub fn random_client_seed() -> Result<String, ApiError> {
    random_bytes().map(|b| hex::encode(&b[..16]))
}

/// A fresh server seed with its commitment, ready for the store.
pub fn new_seed_pair() -> Result<NewSeedPair, ApiError> {
    let seed = ServerSeed::from_bytes(random_bytes()?);
    Ok(NewSeedPair {
        commitment: seed.commitment().to_hex(),
        server_seed: SecretSeed::new(seed.reveal().to_owned()),
        client_seed: random_client_seed()?,
    })
}
