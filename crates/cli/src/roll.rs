//! `fairseed roll`: one `dice_v1` bet from its seeds and nonce (docs/spec.md §8), so a
//! player can recompute a roll without writing a record by hand.
//!
//! Core rolls and settles; with `--json` the bet comes out as a `dice_v1` record
//! whose outcome is core's own recomputation, ready for `fairseed verify -`.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use fairseed_core::dice::{Bet, Condition, DiceKey};
use fairseed_core::record::{DiceRecord, Record};
use fairseed_core::{ClientSeed, ServerSeed, Verifier};
use serde_json::Value;

use crate::args::RollArgs;

/// Runs `fairseed roll`.
pub fn run(args: &RollArgs) -> anyhow::Result<ExitCode> {
    let seed = ServerSeed::parse_field(&args.server_seed, "--server-seed")
        .context("invalid --server-seed")?;
    let client = ClientSeed::parse_field(&args.client_seed, "--client-seed")
        .context("invalid --client-seed")?;
    let bet = match (args.amount, args.under, args.over) {
        (Some(amount), Some(target), None) => Some(Bet::new(amount, Condition::Under, target)),
        (Some(amount), None, Some(target)) => Some(Bet::new(amount, Condition::Over, target)),
        _ => None,
    }
    .transpose()
    .context("invalid bet")?;

    let roll = DiceKey::new(&seed).roll(client.as_str(), args.nonce);
    let mut out = io::stdout().lock();
    if args.json {
        let mut record = DiceRecord {
            commitment: seed.commitment(),
            server_seed: Some(seed),
            client_seed: client,
            nonce: args.nonce,
            bet,
            outcome: None,
        };
        // The outcome is core's recomputation, exactly what a verifier compares.
        let verdict = Verifier::new().verify_record(&Record::Dice(record.clone()));
        if let Some(Value::Object(outcome)) = verdict.outcome {
            record.outcome = Some(outcome);
        }
        writeln!(out, "{}", record.to_value())?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "roll {roll} ({}.{:02})", roll / 100, roll % 100)?;
    writeln!(out, "commitment {}", seed.commitment())?;
    if let Some(bet) = bet {
        let settled = bet.settle(roll);
        let chance = bet.chance();
        writeln!(
            out,
            "bet {} {} {} (chance {}.{:02} %): {}, payout {}",
            bet.amount(),
            bet.condition().as_str(),
            bet.target(),
            chance / 100,
            chance % 100,
            if settled.win { "won" } else { "lost" },
            settled.payout
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
