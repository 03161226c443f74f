//! A seed pair for player `n` whose server seed and commitment agree, for
//! tests that need many players and no particular seeds.

use fairseed_store::{NewSeedPair, SecretSeed};
use sha2::{Digest, Sha256};

pub fn pair(n: usize) -> NewSeedPair {
    let server_seed = SecretSeed::new(hex::encode(Sha256::digest(n.to_le_bytes())));
    let commitment = hex::encode(Sha256::digest(server_seed.expose().as_bytes()));
    NewSeedPair {
        server_seed,
        commitment,
        client_seed: format!("client-{n}"),
    }
}
