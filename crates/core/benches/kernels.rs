//! Time per compressed block of each hash backend, one core: a wider kernel's
//! gain over the one-lane RustCrypto path is measured, not guessed.
//!
//! Every backend is forced (`fairseed_lanes::*::compress_with`) and compresses
//! chained blocks (each output is the next input), so the numbers include the
//! dependency a real message has. Each benchmark reports elements per second
//! with one element = one block. A backend the CPU lacks is not measured: the
//! bench prints `SKIPPED` with the reason instead.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fairseed_lanes::{sha256, sha512};

/// Passes per timed iteration, so per-call timer overhead does not count.
const BATCH: u64 = 256;

/// Arbitrary-looking blocks, different in every lane.
fn blocks<const L: usize, const B: usize>() -> [[u8; B]; L] {
    core::array::from_fn(|l| core::array::from_fn(|i| (l * 97 + i * 31) as u8))
}

fn sha256(c: &mut Criterion) {
    let blocks = blocks::<16, 64>();
    let mut group = c.benchmark_group("sha256");
    for (name, backend) in [
        ("sha2_1lane", sha256::Backend::Portable),
        ("shani_2lane", sha256::Backend::ShaNi),
        ("avx512_16lane", sha256::Backend::Avx512),
    ] {
        if let Some(why) = backend.unsupported() {
            eprintln!("SKIPPED sha256/{name}: {why}");
            continue;
        }
        let lanes = backend.lanes();
        group.throughput(Throughput::Elements(BATCH * lanes as u64));
        group.bench_function(name, |b| {
            let mut states = [[0x6a09_e667u32; 8]; 16];
            b.iter(|| {
                for _ in 0..BATCH {
                    // Checked available just above.
                    let _ = sha256::compress_with(backend, &mut states, black_box(&blocks), lanes);
                }
                black_box(states[0])
            });
        });
    }
    group.finish();
}

fn sha512(c: &mut Criterion) {
    let blocks = blocks::<8, 128>();
    let mut group = c.benchmark_group("sha512");
    for (name, backend) in [
        ("compress512_x1", sha512::Backend::Portable),
        ("compress4_avx2", sha512::Backend::Avx2),
        ("compress8_avx512", sha512::Backend::Avx512),
    ] {
        if let Some(why) = backend.unsupported() {
            eprintln!("SKIPPED sha512/{name}: {why}");
            continue;
        }
        let lanes = backend.lanes();
        group.throughput(Throughput::Elements(BATCH * lanes as u64));
        group.bench_function(name, |b| {
            let mut states = [[0x6a09_e667_f3bc_c908u64; 8]; 8];
            b.iter(|| {
                for _ in 0..BATCH {
                    // Checked available just above.
                    let _ = sha512::compress_with(backend, &mut states, black_box(&blocks), lanes);
                }
                black_box(states[0])
            });
        });
    }
    group.finish();
}

criterion_group!(benches, sha256, sha512);
criterion_main!(benches);
