//! Where `fairseed verify`'s time per record goes: JSON parsing, checking,
//! printing. One core; the records are the committed test vectors.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fairseed_core::{report, verify_str, Verifier};
use serde_json::Value;

const DICE: &str = include_str!("../../../tests/vectors/records/dice_v1.jsonl");
const MATCHES: &str = include_str!("../../../tests/vectors/records/match_seed_v2.jsonl");

/// The second dice vector: a bet with its outcome (roll, win, payout).
fn dice_bet() -> &'static str {
    DICE.lines()
        .find(|l| l.contains("\"bet\"") && l.contains("\"outcome\""))
        .expect("the dice vectors hold a settled bet")
}

fn bridge() -> &'static str {
    MATCHES
        .lines()
        .find(|l| l.contains("\"game\":\"bridge\""))
        .expect("the match vectors hold a bridge match")
}

fn dice_record(c: &mut Criterion) {
    let line = dice_bet();
    let mut group = c.benchmark_group("verify_dice_record");
    group.throughput(Throughput::Elements(1));
    group.bench_function("parse_value_only", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(line)))
    });
    group.bench_function("verify_str_fresh", |b| {
        b.iter(|| verify_str(black_box(line)))
    });
    // As `fairseed verify` runs: one Verifier per chunk, the seed pair's key state reused.
    let mut verifier = Verifier::new();
    group.bench_function("verify_str_cached_pair", |b| {
        b.iter(|| verifier.verify_str(black_box(line)))
    });
    let verdict = verify_str(line);
    group.bench_function("to_json", |b| b.iter(|| verdict.to_json(black_box(7))));
    group.bench_function("render", |b| {
        b.iter(|| report::render(black_box(7), &verdict))
    });
    group.finish();
}

fn bridge_record(c: &mut Criterion) {
    let line = bridge();
    let mut group = c.benchmark_group("verify_bridge_record");
    group.throughput(Throughput::Elements(1));
    group.bench_function("verify_str", |b| b.iter(|| verify_str(black_box(line))));
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
}

criterion_group! {
    name = verify;
    config = config();
    targets = dice_record, bridge_record
}
criterion_main!(verify);
