//! The hash kernels on their own: time per compressed block of each lane count,
//! so a wider kernel's gain over the one-lane RustCrypto path is measured, not
//! guessed. One core; each iteration compresses one block per lane into the
//! previous iteration's states.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

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
    use fairseed_core::bench::bench_sha512_compress4;
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
        b.iter(|| bench_sha512_compress4(&mut states4, black_box(&blocks4)))
    });

    #[cfg(target_arch = "x86_64")]
    {
        use fairseed_core::bench::bench_sha512_compress8;
        let blocks8: [[u8; 128]; 8] = core::array::from_fn(|i| block(i as u8));
        let mut states8 = [IV; 8];
        group.throughput(Throughput::Elements(8));
        group.bench_function("compress8_avx512", |b| {
            b.iter(|| bench_sha512_compress8(&mut states8, black_box(&blocks8)))
        });
    }
    group.finish();
}

criterion_group!(benches, sha512);
criterion_main!(benches);
