//! The `dice_v1` records of a revealed pair, built with the core's record
//! type so they are exactly what `fairseed verify` reads.

use fairseed_core::dice::{self, Bet};
use fairseed_core::record::DiceRecord;
use fairseed_core::{ClientSeed, Commitment, ServerSeed};
use fairseed_store::{BetRow, NewRecord, RevealedPair, StoreError, StoreResult};
use serde_json::{Map, Value};

fn core(err: fairseed_core::Error) -> StoreError {
    StoreError::other(format!("building a dice record: {err}"))
}

/// One record per bet (nonce order); a pair without bets gets one bare
/// roll at nonce 0 so its revealed seed still checks against the commitment.
pub fn build(pair: &RevealedPair, bets: &[BetRow]) -> StoreResult<Vec<NewRecord>> {
    let seed = ServerSeed::parse_field(&pair.server_seed, "server_seed").map_err(core)?;
    let commitment = Commitment::parse_field(&pair.commitment, "commitment").map_err(core)?;
    let client = ClientSeed::parse_field(&pair.client_seed, "client_seed").map_err(core)?;
    let record =
        |nonce: u64, bet: Option<Bet>, outcome: Map<String, Value>| -> StoreResult<NewRecord> {
            let record = DiceRecord {
                commitment,
                server_seed: Some(seed.clone()),
                client_seed: client.clone(),
                nonce,
                bet,
                outcome: Some(outcome),
            };
            Ok(NewRecord {
                scheme: "dice_v1".into(),
                body: serde_json::to_string(&record.to_value()).map_err(StoreError::other)?,
            })
        };
    if bets.is_empty() {
        let mut outcome = Map::new();
        outcome.insert("roll".into(), dice::roll(&seed, &client, 0).into());
        return Ok(vec![record(0, None, outcome)?]);
    }
    bets.iter()
        .map(|b| {
            let bet = Bet::new(b.amount, b.condition, b.target).map_err(core)?;
            let mut outcome = Map::new();
            outcome.insert("roll".into(), b.roll.into());
            outcome.insert("win".into(), b.win.into());
            outcome.insert(
                "payout".into(),
                serde_json::to_value(b.payout).map_err(StoreError::other)?,
            );
            record(b.nonce, Some(bet), outcome)
        })
        .collect()
}
