//! Nanoseconds per compressed block of each hash kernel, one core.
//!
//! Every kernel compresses chained blocks (each output is the next input), so
//! the numbers include the dependency a real message has. Each benchmark
//! reports elements per second with one element = one block: divide the time
//! of an iteration by `BATCH * lanes` for the time per block.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Compressions per timed iteration, so per-call timer overhead does not count.
const BATCH: u64 = 256;

/// Sixteen different blocks, so no lane is a copy of another.
fn blocks() -> [[u8; 64]; 16] {
    core::array::from_fn(|l| core::array::from_fn(|i| (l * 64 + i) as u8))
}

fn sha256(c: &mut Criterion) {
    let blocks = blocks();
    let mut group = c.benchmark_group("sha256");

    group.throughput(Throughput::Elements(BATCH));
    group.bench_function("sha2_1lane", |b| {
        let mut state = [0x6a09_e667u32; 8];
        b.iter(|| {
            for _ in 0..BATCH {
                fairseed_core::bench_sha256_compress1(&mut state, black_box(&blocks[0]));
            }
            black_box(state)
        });
    });

    group.throughput(Throughput::Elements(BATCH * 2));
    group.bench_function("shani_2lane", |b| {
        let mut states = [[0x6a09_e667u32; 8]; 2];
        b.iter(|| {
            for _ in 0..BATCH {
                fairseed_core::bench_sha256_compress2(
                    &mut states,
                    black_box([&blocks[0], &blocks[1]]),
                );
            }
            black_box(states)
        });
    });

    #[cfg(target_arch = "x86_64")]
    {
        eprintln!(
            "sha256/avx512_16lane: AVX-512 kernel available = {}",
            fairseed_core::bench_sha256_x16_available()
        );
        group.throughput(Throughput::Elements(BATCH * 16));
        group.bench_function("avx512_16lane", |b| {
            let mut states = [[0x6a09_e667u32; 8]; 16];
            b.iter(|| {
                for _ in 0..BATCH {
                    fairseed_core::bench_sha256_compress16(&mut states, black_box(&blocks));
                }
                black_box(states)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, sha256);
criterion_main!(benches);
