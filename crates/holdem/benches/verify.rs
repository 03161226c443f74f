//! Verifying six-handed hold'em hands with every AI decision replayed
//! (docs/spec.md §18), beside simulating them (`fairseed table simulate`'s
//! work): hands per second on one core, 100 hands of a `selfpoker_v2`
//! session, a human stand-in at seat 0 and five AIs (levels 1, 2, 3, 3, 2).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use fairseed_core::selfpoker_v2::ClientSeedEntry;
use fairseed_holdem::ai::Level;
use fairseed_holdem::verdict::verdict;
use fairseed_holdem::{simulate_session, SessionV2};

const HANDS: u64 = 100;
const SEATS: [Level; 6] = [
    Level::Two,
    Level::One,
    Level::Two,
    Level::Three,
    Level::Three,
    Level::Two,
];

fn session() -> SessionV2 {
    SessionV2 {
        table_id: "bench".into(),
        client_seeds: vec![ClientSeedEntry::new(0, "browser").unwrap_or_else(|_| unreachable!())],
        scheme: fairseed_holdem::live::Scheme::SelfpokerV2,
    }
}

fn bench(c: &mut Criterion) {
    let s = session();
    let records =
        simulate_session(&SEATS, HANDS, 1, Some(&s)).unwrap_or_else(|e| panic!("simulate: {e}"));
    let mut group = c.benchmark_group("holdem_six_handed");
    group.throughput(Throughput::Elements(HANDS));
    group.bench_function("verify_with_ai_replay", |b| {
        b.iter(|| {
            for r in &records {
                let v = verdict(black_box(r));
                assert!(v.valid, "{v:?}");
            }
        });
    });
    group.bench_function("simulate", |b| {
        b.iter(|| simulate_session(&SEATS, HANDS, black_box(1), Some(&s)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
