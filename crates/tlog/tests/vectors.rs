//! Known-answer tests with values published by independent implementations:
//! the RFC 6962 vectors of Certificate Transparency (transparency-dev/merkle,
//! `testonly/constants.go`) and the `golang.org/x/mod/sumdb/note` examples.

use base64::prelude::*;
use fairseed_tlog::{
    leaf_hash, open_checkpoint, open_note, verify_consistency, verify_inclusion, Hash, MemoryLog,
    NoteKey, TlogError, EMPTY_ROOT,
};

/// The eight CT test leaves.
const LEAVES: [&str; 8] = [
    "",
    "00",
    "10",
    "2021",
    "3031",
    "40414243",
    "5051525354555657",
    "606162636465666768696a6b6c6d6e6f",
];

/// The tree heads for sizes 0..=8 of those leaves.
const ROOTS: [&str; 9] = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

/// (leaf index, tree size, audit path).
const INCLUSION: [(u64, u64, &[&str]); 2] = [
    (
        0,
        8,
        &[
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        5,
        8,
        &[
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
];

/// (old size, new size, consistency proof).
const CONSISTENCY: [(u64, u64, &[&str]); 3] = [
    (
        2,
        8,
        &[
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        &[
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        &[
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
];

/// The `sumdb/note` example key, text and signed note (`example_test.go`).
const GO_SKEY: &str =
    "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const GO_VKEY: &str = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const GO_TEXT: &str = "If you think cryptography is the answer to your problem,\n\
                       then you don't know what your problem is.\n";
const GO_NOTE: &str = "If you think cryptography is the answer to your problem,\n\
                       then you don't know what your problem is.\n\
                       \n\
                       — PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

fn hash(hex_text: &str) -> Hash {
    let bytes = hex::decode(hex_text).expect("vector is hex");
    Hash(bytes.try_into().expect("vector is 32 bytes"))
}

fn hashes(hex_texts: &[&str]) -> Vec<Hash> {
    hex_texts.iter().map(|h| hash(h)).collect()
}

fn ct_log() -> MemoryLog {
    let mut log = MemoryLog::new();
    for leaf in LEAVES {
        log.append(&hex::decode(leaf).expect("leaf is hex"));
    }
    log
}

/// The private key bytes inside the Go example's `PRIVATE+KEY+...` string.
fn go_example_key() -> NoteKey {
    // PRIVATE+KEY+<name>+<hash>+<base64>; the base64 itself may hold '+'.
    let encoded = GO_SKEY.splitn(5, '+').nth(4).expect("skey has five fields");
    let bytes = BASE64_STANDARD.decode(encoded).expect("skey is base64");
    assert_eq!(bytes[0], 0x01, "the example key is Ed25519");
    let private: [u8; 32] = bytes[1..].try_into().expect("32-byte Ed25519 seed");
    NoteKey::from_private_bytes("PeterNeumann", &private).expect("valid name")
}

#[test]
fn tree_heads_match_rfc6962_vectors() {
    let log = ct_log();
    assert_eq!(EMPTY_ROOT, hash(ROOTS[0]));
    assert_eq!(leaf_hash(&[]), hash(ROOTS[1]));
    for (size, root) in ROOTS.iter().enumerate() {
        assert_eq!(log.root(size as u64), Ok(hash(root)), "tree size {size}");
    }
}

#[test]
fn inclusion_proofs_match_rfc6962_vectors() {
    let log = ct_log();
    for (index, size, path) in INCLUSION {
        let want = hashes(path);
        assert_eq!(log.inclusion_proof(index, size), Ok(want.clone()));
        let leaf = leaf_hash(&hex::decode(LEAVES[index as usize]).expect("hex"));
        let root = hash(ROOTS[size as usize]);
        assert_eq!(verify_inclusion(&want, size, root, index, leaf), Ok(()));
    }
}

#[test]
fn consistency_proofs_match_rfc6962_vectors() {
    let log = ct_log();
    for (old, new, path) in CONSISTENCY {
        let want = hashes(path);
        assert_eq!(
            log.consistency_proof(old, new),
            Ok(want.clone()),
            "{old} -> {new}"
        );
        let (old_root, new_root) = (hash(ROOTS[old as usize]), hash(ROOTS[new as usize]));
        assert_eq!(
            verify_consistency(&want, old, old_root, new, new_root),
            Ok(())
        );
    }
}

#[test]
fn signing_reproduces_the_go_note_example() {
    let key = go_example_key();
    assert_eq!(key.vkey(), GO_VKEY);
    assert_eq!(key.sign(GO_TEXT).as_deref(), Ok(GO_NOTE));
}

#[test]
fn the_go_note_example_opens_with_its_vkey() {
    assert_eq!(
        open_note(GO_NOTE.as_bytes(), GO_VKEY).as_deref(),
        Ok(GO_TEXT)
    );
}

#[test]
fn a_changed_note_or_another_key_is_refused() {
    let edited = GO_NOTE.replace("cryptography", "Cryptography");
    assert!(matches!(
        open_note(edited.as_bytes(), GO_VKEY),
        Err(TlogError::BadNote(_))
    ));
    let other = NoteKey::from_private_bytes("PeterNeumann", &[7; 32]).expect("valid name");
    assert!(matches!(
        open_note(GO_NOTE.as_bytes(), &other.vkey()),
        Err(TlogError::BadNote(_))
    ));
    assert!(matches!(
        open_note(GO_NOTE.as_bytes(), "PeterNeumann+c74f20a3+notbase64!"),
        Err(TlogError::BadKey(_))
    ));
}

#[test]
fn key_hash_is_the_published_one() {
    let key = go_example_key();
    assert_eq!(
        fairseed_tlog::key_hash("PeterNeumann", &key.public_key()),
        0xc74f20a3
    );
}

#[test]
fn a_signed_checkpoint_opens_with_the_key_that_signed_it() {
    let key = go_example_key();
    let log = ct_log();
    let root = log.root(8).expect("size 8");
    let body = fairseed_tlog::checkpoint("example.com/log", 8, root, &["ext one"]).expect("valid");
    let signed = fairseed_tlog::sign_checkpoint(&key, &body).expect("signs");
    // The C2SP text: origin, size, base64 root, extension, blank line, signature.
    let want_start = format!(
        "example.com/log\n8\n{}\next one\n\n— PeterNeumann ",
        BASE64_STANDARD.encode(hash(ROOTS[8]).0)
    );
    assert!(signed.starts_with(&want_start), "{signed}");
    let opened = open_checkpoint(signed.as_bytes(), GO_VKEY).expect("verifies");
    assert_eq!(
        (opened.origin(), opened.size(), *opened.hash()),
        ("example.com/log", 8, root)
    );
    assert_eq!(opened.extension(), "ext one\n");
}
