//! Time per compressed block of each hash kernel, one core: a wider kernel's
//! gain over the one-lane RustCrypto path is measured, not guessed.
//!
//! Every kernel compresses chained blocks (each output is the next input), so
//! the numbers include the dependency a real message has. Each benchmark
//! reports elements per second with one element = one block. A kernel the CPU
//! lacks runs its lane-by-lane fallback (and measures that).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fairseed_core::bench::{bench_sha256_lanes, bench_sha512_lanes};

/// Passes per timed iteration, so per-call timer overhead does not count.
const BATCH: u64 = 256;

/// Arbitrary-looking blocks, different in every lane.
fn blocks<const L: usize, const B: usize>() -> [[u8; B]; L] {
    core::array::from_fn(|l| core::array::from_fn(|i| (l * 97 + i * 31) as u8))
}

fn sha256(c: &mut Criterion) {
    let blocks = blocks::<16, 64>();
    let mut group = c.benchmark_group("sha256");
    for (name, width) in [("sha2_1lane", 1), ("shani_2lane", 2), ("avx512_16lane", 16)] {
        group.throughput(Throughput::Elements(BATCH * width as u64));
        group.bench_function(name, |b| {
            let mut states = [[0x6a09_e667u32; 8]; 16];
            b.iter(|| {
                for _ in 0..BATCH {
                    bench_sha256_lanes(width, &mut states, black_box(&blocks));
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
    for (name, width) in [
        ("compress512_x1", 1),
        ("compress4_avx2", 4),
        ("compress8_avx512", 8),
    ] {
        group.throughput(Throughput::Elements(BATCH * width as u64));
        group.bench_function(name, |b| {
            let mut states = [[0x6a09_e667_f3bc_c908u64; 8]; 8];
            b.iter(|| {
                for _ in 0..BATCH {
                    bench_sha512_lanes(width, &mut states, black_box(&blocks));
                }
                black_box(states[0])
            });
        });
    }
    group.finish();
}

criterion_group!(benches, sha256, sha512);
criterion_main!(benches);
