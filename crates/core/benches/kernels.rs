//! Time per compressed block of each hash kernel, one core: a wider kernel's
//! gain over the one-lane RustCrypto path is measured, not guessed.
//!
//! Every kernel compresses chained blocks (each output is the next input), so
//! the numbers include the dependency a real message has. Each benchmark
//! reports elements per second with one element = one block.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fairseed_core::bench;

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
                bench::bench_sha256_compress1(&mut state, black_box(&blocks[0]));
            }
            black_box(state)
        });
    });

    group.throughput(Throughput::Elements(BATCH * 2));
    group.bench_function("shani_2lane", |b| {
        let mut states = [[0x6a09_e667u32; 8]; 2];
        b.iter(|| {
            for _ in 0..BATCH {
                bench::bench_sha256_compress2(&mut states, black_box([&blocks[0], &blocks[1]]));
            }
            black_box(states)
        });
    });

    #[cfg(target_arch = "x86_64")]
    {
        group.throughput(Throughput::Elements(BATCH * 16));
        group.bench_function("avx512_16lane", |b| {
            let mut states = [[0x6a09_e667u32; 8]; 16];
            b.iter(|| {
                for _ in 0..BATCH {
                    bench::bench_sha256_compress16(&mut states, black_box(&blocks));
                }
                black_box(states)
            });
        });
    }
    group.finish();
}

/// A block of arbitrary-looking bytes, different for each `seed`.
fn block(seed: u8) -> [u8; 128] {
    core::array::from_fn(|i| {
        (i as u8)
            .wrapping_mul(31)
            .wrapping_add(seed.wrapping_mul(97))
    })
}

/// SHA-512: RustCrypto's one lane, the AVX2 four lanes, the AVX-512 eight lanes.
fn sha512(c: &mut Criterion) {
    use sha2::digest::generic_array::GenericArray;

    const IV: [u64; 8] = [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
    let mut group = c.benchmark_group("sha512");

    let one = [GenericArray::clone_from_slice(&block(0))];
    let mut state = IV;
    group.throughput(Throughput::Elements(1));
    group.bench_function("compress512_x1", |b| {
        b.iter(|| sha2::compress512(&mut state, black_box(&one)))
    });

    let blocks4: [[u8; 128]; 4] = core::array::from_fn(|i| block(i as u8));
    let mut states4 = [IV; 4];
    group.throughput(Throughput::Elements(4));
    group.bench_function("compress4_avx2", |b| {
        b.iter(|| bench::bench_sha512_compress4(&mut states4, black_box(&blocks4)))
    });

    #[cfg(target_arch = "x86_64")]
    {
        let blocks8: [[u8; 128]; 8] = core::array::from_fn(|i| block(i as u8));
        let mut states8 = [IV; 8];
        group.throughput(Throughput::Elements(8));
        group.bench_function("compress8_avx512", |b| {
            b.iter(|| bench::bench_sha512_compress8(&mut states8, black_box(&blocks8)))
        });
    }
    group.finish();
}

criterion_group!(benches, sha256, sha512);
criterion_main!(benches);
