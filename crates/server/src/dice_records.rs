//! The `dice_v1` records of a revealed pair, built with the core's record
//! type so they are exactly what `fairseed verify` reads.

use fairseed_core::dice::{self, Bet};
use fairseed_core::record::DiceRecord;
use fairseed_core::{ClientSeed, Commitment, ServerSeed};
use fairseed_store::{BetRow, NewRecord, RevealedPair, StoreError, StoreResult};
use serde_json::{Map, Value};

fn core(err: fairseed_core::Error) -> StoreError {
    StoreError::context("building a dice record", err)
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

#[cfg(test)]
mod tests {
    use fairseed_store::Condition;

    use super::*;

    fn bet(nonce: u64) -> BetRow {
        BetRow {
            id: 100 + i64::try_from(nonce).expect("small"),
            player_id: 7,
            pair_id: 3,
            nonce,
            amount: 1 + nonce,
            condition: if nonce.is_multiple_of(2) {
                Condition::Under
            } else {
                Condition::Over
            },
            target: 5000,
            roll: u16::try_from(nonce * 37 % 10_000).expect("below 10000"),
            win: nonce.is_multiple_of(3),
            payout: if nonce.is_multiple_of(3) {
                u128::from(2 + 2 * nonce)
            } else {
                0
            },
            balance_after: 1_000,
            idempotency_key: format!("k{nonce}"),
        }
    }

    /// A rotation hands the bets over a page at a time: the records of the
    /// pages, one after the other, must be the records of all bets at once.
    #[test]
    fn records_of_pages_are_the_records_of_all_bets() {
        let seed = "ab".repeat(32);
        let pair = RevealedPair {
            id: 3,
            player_id: 7,
            commitment: fairseed_core::sha256_hex(seed.as_bytes()),
            server_seed: seed,
            client_seed: "client".into(),
            bets: 25,
        };
        let bets: Vec<BetRow> = (0..25).map(bet).collect();
        let whole = build(&pair, &bets).expect("whole");
        assert_eq!(whole.len(), 25);
        let paged: Vec<NewRecord> = bets
            .chunks(7)
            .map(|page| build(&pair, page).expect("page"))
            .collect::<Vec<_>>()
            .concat();
        assert_eq!(paged, whole);
    }
}
