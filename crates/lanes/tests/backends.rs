//! Every backend of both hashes, forced one by one, against RustCrypto's `sha2`
//! lane by lane and against the FIPS 180 example digests.
//!
//! Its own `main` (not libtest) so that a backend this CPU cannot run is
//! skipped visibly (`tests/support/skip.rs`), with the reason, and never
//! counted as passed. The summary table goes to stderr on every run.
//! `FAIRSEED_REQUIRE_BACKENDS=all` (or a list such as
//! `sha256/avx512,sha512/avx2`, which `.ci/run` makes from the CPU's flags)
//! turns those skips into failures, for machines known to have the
//! instructions.

use std::fmt::Debug;
use std::process::ExitCode;

#[path = "../../../tests/support/skip.rs"]
mod skip;

use fairseed_lanes::{sha256, sha512, Unsupported};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Random batches per backend (each checked at every lane count), unless
/// `PROPTEST_CASES` says otherwise (fewer under an emulator such as valgrind).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256)
}

/// SHA-256("") and SHA-256("abc") (FIPS 180-2, appendix B.1).
const SHA256_EMPTY: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const SHA256_ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
/// SHA-512("") and SHA-512("abc") (FIPS 180-2, appendix C.1).
const SHA512_EMPTY: &str = "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e";
const SHA512_ABC: &str = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f";

/// What one backend's run came to.
enum Outcome {
    Passed(String),
    Skipped(Unsupported),
    Failed(String),
}

fn main() -> ExitCode {
    let required = std::env::var("FAIRSEED_REQUIRE_BACKENDS").unwrap_or_default();
    let mut rows = Vec::new();
    for backend in sha256::Backend::ALL {
        let outcome = match backend.unsupported() {
            Some(why) => check_refused_sha256(backend, why),
            None => check_sha256(backend),
        };
        rows.push(("sha256", Some(backend.name()), backend.lanes(), outcome));
    }
    for backend in sha512::Backend::ALL {
        let outcome = match backend.unsupported() {
            Some(why) => check_refused_sha512(backend, why),
            None => check_sha512(backend),
        };
        rows.push(("sha512", Some(backend.name()), backend.lanes(), outcome));
    }
    rows.push(("sha256", None, sha256::MAX_LANES, check_dispatch_sha256()));
    rows.push(("sha512", None, sha512::MAX_LANES, check_dispatch_sha512()));

    let (mut passed, mut skipped, mut failed) = (0, 0, 0);
    eprintln!();
    for (hash, backend, lanes, outcome) in &rows {
        let (label, width) = match backend {
            Some(name) => (
                format!("{hash} backend {name}"),
                format!("{lanes} lane{}", if *lanes == 1 { "" } else { "s" }),
            ),
            None => (format!("{hash} dispatcher"), format!("up to {lanes} lanes")),
        };
        let must_run = required == "all"
            || backend.is_some_and(|name| {
                required
                    .split(',')
                    .any(|r| r.trim() == format!("{hash}/{name}"))
            });
        match outcome {
            Outcome::Passed(what) => {
                passed += 1;
                eprintln!("PASSED  {label} ({width}): {what}");
            }
            Outcome::Skipped(why) if must_run => {
                failed += 1;
                eprintln!(
                    "FAILED  {label}: required by FAIRSEED_REQUIRE_BACKENDS, but {}",
                    why.reason
                );
            }
            Outcome::Skipped(why) => {
                skipped += 1;
                skip::record(&format!("lanes backends: {label}"), why.reason);
            }
            Outcome::Failed(what) => {
                failed += 1;
                eprintln!("FAILED  {label} ({width}): {what}");
            }
        }
    }
    eprintln!("backends: {passed} passed, {skipped} skipped (not run), {failed} failed\n");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn check_sha256(backend: sha256::Backend) -> Outcome {
    let forced = |s: &mut [[u32; 8]; 16], b: &[[u8; 64]; 16], n: usize| {
        sha256::compress_with(backend, s, b, n).map_err(|e| e.to_string())
    };
    passed(
        differential(forced, sha256::compress1)
            .and_then(|()| known_answers_sha256(forced, sha256::MAX_LANES)),
    )
}

fn check_sha512(backend: sha512::Backend) -> Outcome {
    let forced = |s: &mut [[u64; 8]; 8], b: &[[u8; 128]; 8], n: usize| {
        sha512::compress_with(backend, s, b, n).map_err(|e| e.to_string())
    };
    passed(
        differential(forced, sha512::compress1)
            .and_then(|()| known_answers_sha512(forced, sha512::MAX_LANES)),
    )
}

/// The dispatcher (whatever it picks for each lane count) gives the same.
fn check_dispatch_sha256() -> Outcome {
    let dispatch = |s: &mut [[u32; 8]; 16], b: &[[u8; 64]; 16], n: usize| {
        sha256::compress(s, b, n);
        Ok(())
    };
    passed(
        differential(dispatch, sha256::compress1)
            .and_then(|()| known_answers_sha256(dispatch, sha256::MAX_LANES)),
    )
}

fn check_dispatch_sha512() -> Outcome {
    let dispatch = |s: &mut [[u64; 8]; 8], b: &[[u8; 128]; 8], n: usize| {
        sha512::compress(s, b, n);
        Ok(())
    };
    passed(
        differential(dispatch, sha512::compress1)
            .and_then(|()| known_answers_sha512(dispatch, sha512::MAX_LANES)),
    )
}

/// A backend this CPU lacks is refused when forced, with nothing hashed;
/// reported as skipped (its kernel did not run).
fn check_refused_sha256(backend: sha256::Backend, why: Unsupported) -> Outcome {
    let mut states = [sha256::IV; 16];
    let got = sha256::compress_with(backend, &mut states, &[[7; 64]; 16], 16);
    refused(got, states == [sha256::IV; 16], why)
}

fn check_refused_sha512(backend: sha512::Backend, why: Unsupported) -> Outcome {
    let mut states = [sha512::IV; 8];
    let got = sha512::compress_with(backend, &mut states, &[[7; 128]; 8], 8);
    refused(got, states == [sha512::IV; 8], why)
}

fn refused(got: Result<(), Unsupported>, untouched: bool, why: Unsupported) -> Outcome {
    match got {
        Err(e) if e == why && untouched => Outcome::Skipped(why),
        Err(_) => Outcome::Failed("refused, but changed the states".into()),
        Ok(()) => Outcome::Failed(format!("ran although {}", why.reason)),
    }
}

fn passed(result: Result<(), String>) -> Outcome {
    match result {
        Ok(()) => Outcome::Passed(format!(
            "{} random chained batches at every lane count, FIPS 180 digests",
            cases()
        )),
        Err(e) => Outcome::Failed(e),
    }
}

/// From random states, `compress` over 1 to 3 chained random batches equals
/// `one` lane by lane, on the lanes `i < n` for every `n` from 0 to `L`.
fn differential<const L: usize, const B: usize, W>(
    compress: impl Fn(&mut [[W; 8]; L], &[[u8; B]; L], usize) -> Result<(), String>,
    one: fn(&mut [W; 8], &[u8; B]),
) -> Result<(), String>
where
    W: Arbitrary + Copy + PartialEq + Debug,
{
    let states = prop::array::uniform::<_, L>(prop::array::uniform8(any::<W>()));
    let block = prop::array::uniform::<_, B>(any::<u8>());
    let chain = prop::collection::vec(prop::array::uniform::<_, L>(block), 1..4);
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(states, chain), |(states, chain)| {
            for n in 0..=L {
                let mut got = states;
                let mut want = states;
                for blocks in &chain {
                    compress(&mut got, blocks, n).map_err(TestCaseError::fail)?;
                    for (state, block) in want.iter_mut().zip(blocks).take(n) {
                        one(state, block);
                    }
                }
                prop_assert_eq!(&got[..n], &want[..n], "lanes below n = {}", n);
            }
            Ok(())
        })
        .map_err(|e| e.to_string())
}

/// One padded block per lane, "abc" in even lanes and "" in odd ones, from
/// the IV: each lane's state is that message's FIPS 180 digest.
fn known_answers_sha256(
    compress: impl Fn(&mut [[u32; 8]; 16], &[[u8; 64]; 16], usize) -> Result<(), String>,
    lanes: usize,
) -> Result<(), String> {
    let blocks: [[u8; 64]; 16] = core::array::from_fn(|l| padded(message(l)));
    let mut states = [sha256::IV; 16];
    compress(&mut states, &blocks, lanes)?;
    for (l, state) in states.iter().enumerate() {
        let got: String = state.iter().map(|w| format!("{w:08x}")).collect();
        let want = [SHA256_ABC, SHA256_EMPTY][l % 2];
        if got != want {
            return Err(format!("lane {l}: SHA-256 digest {got}, expected {want}"));
        }
    }
    Ok(())
}

fn known_answers_sha512(
    compress: impl Fn(&mut [[u64; 8]; 8], &[[u8; 128]; 8], usize) -> Result<(), String>,
    lanes: usize,
) -> Result<(), String> {
    let blocks: [[u8; 128]; 8] = core::array::from_fn(|l| padded(message(l)));
    let mut states = [sha512::IV; 8];
    compress(&mut states, &blocks, lanes)?;
    for (l, state) in states.iter().enumerate() {
        let got: String = state.iter().map(|w| format!("{w:016x}")).collect();
        let want = [SHA512_ABC, SHA512_EMPTY][l % 2];
        if got != want {
            return Err(format!("lane {l}: SHA-512 digest {got}, expected {want}"));
        }
    }
    Ok(())
}

fn message(lane: usize) -> &'static [u8] {
    [&b"abc"[..], b""][lane % 2]
}

/// `msg` as one padded block: the bytes, 0x80, zeros, and the bit length
/// big-endian in the last 8 bytes (the high bits of SHA-512's 16-byte length are zero).
fn padded<const B: usize>(msg: &[u8]) -> [u8; B] {
    let mut block = [0u8; B];
    block[..msg.len()].copy_from_slice(msg);
    block[msg.len()] = 0x80;
    block[B - 8..].copy_from_slice(&(msg.len() as u64 * 8).to_be_bytes());
    block
}
