//! Properties of the Merkle log against RFC 6962's own definition, on random trees:
//! every proof the log makes verifies, and any changed bit makes it fail.

use fairseed_tlog::{
    leaf_hash, node_hash, verify_consistency, verify_inclusion, Hash, MemoryLog, EMPTY_ROOT,
};
use proptest::prelude::*;

/// MTH(D[n]) written from RFC 6962 §2.1: split at the largest power of two below n.
fn reference_root(leaves: &[Hash]) -> Hash {
    match leaves.len() {
        0 => EMPTY_ROOT,
        1 => leaves[0],
        n => {
            let mut k = 1;
            while k * 2 < n {
                k *= 2;
            }
            node_hash(reference_root(&leaves[..k]), reference_root(&leaves[k..]))
        }
    }
}

/// A log of the entries, each prefixed with its index so that no two are equal
/// (equal leaves would make a proof for one verify for the other, rightly).
fn build(entries: &[Vec<u8>]) -> (MemoryLog, Vec<Hash>) {
    let mut log = MemoryLog::new();
    let mut leaves = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let unique = [&(i as u32).to_be_bytes()[..], entry].concat();
        assert_eq!(log.append(&unique), i as u64);
        leaves.push(leaf_hash(&unique));
    }
    (log, leaves)
}

fn flip(hash: Hash, bit: usize) -> Hash {
    let mut bytes = hash.0;
    bytes[bit / 8 % 32] ^= 1 << (bit % 8);
    Hash(bytes)
}

fn entries() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(any::<u8>(), 0..12), 1..70)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_prefix_root_is_rfc6962s(entries in entries()) {
        let (log, leaves) = build(&entries);
        for size in 0..=leaves.len() {
            prop_assert_eq!(log.root(size as u64), Ok(reference_root(&leaves[..size])));
        }
    }

    #[test]
    fn every_inclusion_proof_verifies_and_no_bit_flip_does(entries in entries(), bit in 0usize..256) {
        let (log, leaves) = build(&entries);
        let size = leaves.len() as u64;
        let root = log.root(size).expect("in range");
        for (index, leaf) in leaves.iter().enumerate() {
            let index = index as u64;
            let proof = log.inclusion_proof(index, size).expect("in range");
            prop_assert_eq!(verify_inclusion(&proof, size, root, index, *leaf), Ok(()));
            prop_assert!(verify_inclusion(&proof, size, root, index, flip(*leaf, bit)).is_err());
            prop_assert!(verify_inclusion(&proof, size, flip(root, bit), index, *leaf).is_err());
            for i in 0..proof.len() {
                let mut bad = proof.clone();
                bad[i] = flip(bad[i], bit);
                prop_assert!(verify_inclusion(&bad, size, root, index, *leaf).is_err());
            }
            if size > 1 {
                let other = (index + 1) % size;
                prop_assert!(verify_inclusion(&proof, size, root, other, *leaf).is_err());
            }
        }
    }

    #[test]
    fn every_consistency_proof_verifies_and_no_bit_flip_does(entries in entries(), bit in 0usize..256) {
        let (log, _) = build(&entries);
        let new_size = log.size();
        let new_root = log.root(new_size).expect("in range");
        for old_size in 1..=new_size {
            let old_root = log.root(old_size).expect("in range");
            let proof = log.consistency_proof(old_size, new_size).expect("in range");
            prop_assert_eq!(verify_consistency(&proof, old_size, old_root, new_size, new_root), Ok(()));
            prop_assert!(verify_consistency(&proof, old_size, flip(old_root, bit), new_size, new_root).is_err());
            prop_assert!(verify_consistency(&proof, old_size, old_root, new_size, flip(new_root, bit)).is_err());
            for i in 0..proof.len() {
                let mut bad = proof.clone();
                bad[i] = flip(bad[i], bit);
                prop_assert!(verify_consistency(&bad, old_size, old_root, new_size, new_root).is_err());
            }
        }
    }
}

#[test]
fn arguments_outside_the_tree_are_errors_not_panics() {
    let (log, leaves) = build(&[b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
    let root = log.root(3).expect("in range");
    assert!(log.root(4).is_err());
    assert!(log.inclusion_proof(3, 3).is_err());
    assert!(log.inclusion_proof(0, 4).is_err());
    assert!(log.consistency_proof(0, 3).is_err());
    assert!(log.consistency_proof(3, 2).is_err());
    assert!(verify_inclusion(&[], 3, root, 3, leaves[0]).is_err());
    assert!(verify_inclusion(&[root; 70], 3, root, 0, leaves[0]).is_err());
    assert!(verify_consistency(&[], 0, EMPTY_ROOT, 3, root).is_err());
    assert!(verify_consistency(&[root; 70], 1, leaves[0], 3, root).is_err());
    assert!(verify_consistency(&[], 4, root, 3, root).is_err());
    // Equal sizes: consistent exactly when the roots are equal and the proof is empty.
    assert_eq!(verify_consistency(&[], 3, root, 3, root), Ok(()));
    assert!(verify_consistency(&[], 3, leaves[0], 3, root).is_err());
}
