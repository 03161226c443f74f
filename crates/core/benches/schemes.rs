//! Throughput of every scheme's hot path, one core: dice rolls, 52-card deals,
//! selfpoker decks, poker decks with their Merkle roots.
//!
//! The inputs are the ones `benches/reference/*.js` and `selfpoker.py` use, so the
//! numbers sit side by side with the seeds' own code (see `benches/compare.sh`).
//! Each benchmark reports elements per second: one element = one roll, one deal,
//! one deck, one Merkle root.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fairseed_core::dice::{roll_many, DiceKey, RollJob};
use fairseed_core::games::{Game, MatchStream};
use fairseed_core::{poker, selfpoker, ClientSeed, Ident, ServerSeed};

const SERVER_SEED: &str = "5f2a8f0d0c6a4e2b9d7c1e3f5a7b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b";
const CLIENT_SEED: &str = "bench-client";
const MATCH_ID: &str = "bench-match";
const BRIDGE_SEEDS: [&str; 4] = ["north", "east", "south", "west"];
/// Work per timed iteration, so per-call timer overhead does not count.
const BATCH: u64 = 1000;

fn seed() -> ServerSeed {
    ServerSeed::parse(SERVER_SEED).expect("the bench seed is 64 lowercase hex")
}

fn dice(c: &mut Criterion) {
    let key = DiceKey::new(&seed());
    let mut group = c.benchmark_group("dice_v1");
    group.throughput(Throughput::Elements(BATCH));
    let mut nonce = 0u64;
    group.bench_function("roll", |b| {
        b.iter(|| {
            let mut sum = 0u32;
            for _ in 0..BATCH {
                sum += u32::from(key.roll(black_box(CLIENT_SEED), nonce));
                nonce += 1;
            }
            sum
        });
    });
    // Bulk verification's path: the same pair's bets, four per hash pass.
    let mut jobs: Vec<RollJob<'_>> = (0..BATCH)
        .map(|_| RollJob {
            key: &key,
            client_seed: CLIENT_SEED,
            nonce: 0,
        })
        .collect();
    let mut rolls = vec![0u16; jobs.len()];
    group.bench_function("roll_many", |b| {
        b.iter(|| {
            for job in &mut jobs {
                job.nonce = nonce;
                nonce += 1;
            }
            roll_many(black_box(&jobs), &mut rolls);
            rolls.iter().map(|&r| u32::from(r)).sum::<u32>()
        });
    });
    group.finish();
}

fn deal52(c: &mut Criterion) {
    let seeds: Vec<ClientSeed> = BRIDGE_SEEDS
        .iter()
        .map(|s| ClientSeed::parse(s).expect("bench client seeds are valid"))
        .collect();
    let id = Ident::parse(MATCH_ID).expect("the bench match id is valid");
    let mut stream =
        MatchStream::v2(&seed(), Game::Bridge, &id, &seeds).expect("bridge has four seeds");
    // As in a match (and in deal52.js): the seat order comes first.
    stream.seat_order();
    let mut group = c.benchmark_group("match_seed_v2");
    group.throughput(Throughput::Elements(1));
    group.bench_function("bridge_deal52", |b| b.iter(|| stream.deal52()));
    group.finish();
}

fn selfpoker_decks(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfpoker");
    group.throughput(Throughput::Elements(BATCH));
    let mut seed = 0u64;
    group.bench_function("deck", |b| {
        b.iter(|| {
            let mut first = 0u32;
            for _ in 0..BATCH {
                first += u32::from(selfpoker::deck(black_box(seed))[0]);
                seed += 1;
            }
            first
        });
    });
    group.bench_function("deck_and_commit", |b| {
        b.iter(|| {
            let mut first = 0u32;
            for _ in 0..BATCH {
                first += u32::from(selfpoker::deck(black_box(seed))[0]);
                black_box(selfpoker::commit(seed));
                seed += 1;
            }
            first
        });
    });
    group.finish();
}

fn poker_roots(c: &mut Criterion) {
    let server = seed();
    let table = Ident::parse("bench-table").expect("valid table id");
    let session = Ident::parse("bench-session").expect("valid session id");
    let seats: BTreeMap<u8, ClientSeed> = [(0u8, "alice"), (3, "bob"), (7, "carol")]
        .into_iter()
        .map(|(s, c)| (s, ClientSeed::parse(c).expect("valid client seed")))
        .collect();
    let mut group = c.benchmark_group("poker_hmac_v1");
    group.throughput(Throughput::Elements(1));
    let mut n = 1u64;
    group.bench_function("hand_value_deal_and_root", |b| {
        b.iter(|| {
            let value = poker::hand_value(&server, &table, &session, n);
            n += 1;
            poker::deal(&value, &table, &session, n, &seats)
                .expect("three players on seats 0..=9")
                .root()
        });
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
}

criterion_group! {
    name = schemes;
    config = config();
    targets = dice, deal52, selfpoker_decks, poker_roots
}
criterion_main!(schemes);
