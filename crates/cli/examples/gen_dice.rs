//! Writes N `dice_v1` records as JSON Lines, every value computed by core, for
//! benchmarking `fairseed verify` (`benches/compare.sh`).
//!
//! Usage: `cargo run --release -p fairseed-cli --example gen_dice -- N [FILE]`
//!
//! Seed pairs rotate every 1000 bets, as a busy player's would; each server seed is
//! `sha256("bench-seed-" + pair)` so the file is the same on every machine.

use std::fs::File;
use std::io::{self, BufWriter, Write};

use anyhow::Context;
use fairseed_core::dice::{Bet, Condition, DiceKey};
use fairseed_core::{sha256_hex, ServerSeed};
use serde_json::json;

const BETS_PER_PAIR: u64 = 1000;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .context("usage: gen_dice N [FILE]")?
        .parse()
        .context("N must be a whole number")?;
    let out: Box<dyn Write> = match args.next() {
        Some(path) => {
            Box::new(File::create(&path).with_context(|| format!("cannot create {path}"))?)
        }
        None => Box::new(io::stdout().lock()),
    };
    let mut out = BufWriter::with_capacity(1 << 20, out);

    // Test-data variety only (amounts, targets); the fairness values all come from core.
    let mut mix = 0x9e37_79b9_7f4a_7c15u64;
    let mut current = seed_pair(0)?;
    for i in 0..n {
        if i > 0 && i % BETS_PER_PAIR == 0 {
            current = seed_pair(i / BETS_PER_PAIR)?;
        }
        let (seed, key, client) = &current;
        let nonce = i % BETS_PER_PAIR;
        mix ^= mix << 13;
        mix ^= mix >> 7;
        mix ^= mix << 17;
        let condition = if mix & 1 == 0 {
            Condition::Under
        } else {
            Condition::Over
        };
        // Targets 200..=9799 keep the chance within 1..=9800 for both conditions.
        let target = 200 + u16::try_from((mix >> 8) % 9600).context("below 9600")?;
        let amount = 1 + (mix >> 32) % 1_000_000;
        let bet = Bet::new(amount, condition, target).context("bench bets are in range")?;
        let roll = key.roll(client, nonce);
        let settled = bet.settle(roll);
        let record = json!({
            "scheme": "dice_v1",
            "commitment": seed.commitment().to_string(),
            "server_seed": seed.reveal(),
            "client_seed": client,
            "nonce": nonce,
            "bet": {"amount": amount, "condition": condition.as_str(), "target": target},
            "outcome": {"roll": roll, "win": settled.win, "payout": settled.payout},
        });
        serde_json::to_writer(&mut out, &record)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Seed pair `p`: its server seed, the seed's HMAC key state, its client seed.
fn seed_pair(p: u64) -> anyhow::Result<(ServerSeed, DiceKey, String)> {
    let seed = ServerSeed::parse(&sha256_hex(format!("bench-seed-{p}").as_bytes()))
        .context("a sha256 hex digest is a valid server seed")?;
    let key = DiceKey::new(&seed);
    Ok((seed, key, format!("bench-client-{p}")))
}
