//! What a receipt costs the service: one signed batch (`sign_receipts`) of
//! 1, 4, 16 and 64 entries, against the Ed25519 signature alone. Divide a
//! batch's time by its size for the cost per entry. One core.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fairseed_tlog::{leaf_hash, sign_receipts, Hash, NoteKey};

fn leaves(n: usize) -> Vec<Hash> {
    (0..n)
        .map(|i| leaf_hash(format!("entry {i}").as_bytes()))
        .collect()
}

fn receipts(c: &mut Criterion) {
    let key = NoteKey::from_private_bytes("bench.example/log", &[7; 32]).expect("key");
    let mut group = c.benchmark_group("sign_receipts");
    group.bench_function("signature_alone", |b| {
        b.iter(|| {
            key.sign(black_box(
                "fairseed receipts v1\nbench.example/log\n1\nAAAA\n",
            ))
        })
    });
    for size in [1, 4, 16, 64] {
        let batch = leaves(size);
        group.throughput(Throughput::Elements(size as u64));
        group.bench_with_input(BenchmarkId::new("batch", size), &batch, |b, batch| {
            b.iter(|| sign_receipts(&key, black_box(batch)))
        });
    }
    group.finish();
}

criterion_group!(benches, receipts);
criterion_main!(benches);
