//! The C2SP tlog-tiles layout: paths, bundles, and tree heads recomputed from tiles.

use std::collections::BTreeMap;

use fairseed_tlog::{
    check_bundle, decode_bundle, encode_bundle, hash_tile_data, new_entry_bundles, new_hash_tiles,
    root_from_tiles, tiles_for_root, MemoryLog, TileKind, TilePath, TlogError,
};
use proptest::prelude::*;

fn hashes(level: u8, index: u64, width: u32) -> TilePath {
    TilePath {
        kind: TileKind::Hashes { level },
        index,
        width,
    }
}

fn entries(index: u64, width: u32) -> TilePath {
    TilePath {
        kind: TileKind::Entries,
        index,
        width,
    }
}

#[test]
fn paths_are_the_c2sp_examples() {
    // The spec's own example of the index encoding: 1234067 is x001/x234/067.
    assert_eq!(hashes(0, 1_234_067, 256).path(), "tile/0/x001/x234/067");
    assert_eq!(
        entries(1_234_067, 8).path(),
        "tile/entries/x001/x234/067.p/8"
    );
    assert_eq!(hashes(2, 0, 1).path(), "tile/2/000.p/1");
    assert_eq!(hashes(1, 999, 256).path(), "tile/1/999");
    assert_eq!(hashes(1, 1000, 256).path(), "tile/1/x001/000");
    assert_eq!(
        hashes(0, u64::MAX, 256).path(),
        "tile/0/x018/x446/x744/x073/x709/x551/615"
    );
}

#[test]
fn paths_parse_back_and_other_spellings_are_refused() {
    for tile in [
        hashes(0, 1_234_067, 256),
        hashes(63, 5, 255),
        entries(0, 1),
        entries(u64::MAX, 256),
    ] {
        assert_eq!(TilePath::parse(&tile.path()), Ok(tile));
    }
    for bad in [
        "tile/0/1",
        "tile/0/x000/001",
        "tile/0/0001",
        "tile/64/000",
        "tile/-1/000",
        "tile/0/000.p/256",
        "tile/0/000.p/0",
        "tile/0/000.p/01",
        "tile/0/+01",
        "tile/8/0/000",
        "tile/data/000",
        "tile/entries",
        "tiles/0/000",
        "tile/0/x018/x446/x744/x073/x709/x551/616",
        "",
    ] {
        assert!(
            matches!(TilePath::parse(bad), Err(TlogError::BadTilePath { .. })),
            "{bad:?} parsed"
        );
    }
}

proptest! {
    #[test]
    fn any_tile_path_round_trips(level in 0u8..64, index: u64, width in 1u32..=256, bundle: bool) {
        let tile = TilePath {
            kind: if bundle { TileKind::Entries } else { TileKind::Hashes { level } },
            index,
            width,
        };
        prop_assert_eq!(TilePath::parse(&tile.path()), Ok(tile));
    }

    #[test]
    fn bundles_round_trip(items in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..300), 0..=256)) {
        let bundle = encode_bundle(&items).expect("fits");
        let expected_len: usize = items.iter().map(|e| 2 + e.len()).sum();
        prop_assert_eq!(bundle.len(), expected_len);
        let decoded = decode_bundle(&bundle).expect("decodes");
        prop_assert_eq!(decoded, items.iter().map(Vec::as_slice).collect::<Vec<_>>());
    }
}

#[test]
fn a_bundle_is_big_endian_lengths_and_bytes() {
    let bundle = encode_bundle(&[&b"ab"[..], &[], &[7u8; 258][..]]).expect("fits");
    assert_eq!(&bundle[..6], &[0, 2, b'a', b'b', 0, 0]);
    assert_eq!(&bundle[6..8], &[1, 2]);
    assert_eq!(bundle.len(), 8 + 258);
}

#[test]
fn bad_bundles_are_errors() {
    assert!(encode_bundle(&[vec![0u8; 65_536]]).is_err());
    assert!(encode_bundle(&vec![vec![1u8]; 257]).is_err());
    assert!(decode_bundle(&[0]).is_err());
    assert!(decode_bundle(&[0, 3, 1, 2]).is_err());
    assert!(decode_bundle(&[0, 0].repeat(257)).is_err());
}

/// Every tile and bundle a log publishes as it grows through `sizes`, by path.
fn publish(sizes: &[u64]) -> (MemoryLog, BTreeMap<TilePath, Vec<u8>>) {
    let mut log = MemoryLog::new();
    let mut all = Vec::new();
    let mut files = BTreeMap::new();
    let mut old = 0;
    for &size in sizes {
        while log.size() < size {
            let entry = format!("entry {}", log.size()).into_bytes();
            log.append(&entry);
            all.push(entry);
        }
        for tile in new_hash_tiles(old, size) {
            files.insert(tile, hash_tile_data(&log, &tile).expect("log has it"));
        }
        for bundle in new_entry_bundles(old, size) {
            let start = (bundle.index * 256) as usize;
            let end = start + bundle.width as usize;
            files.insert(bundle, encode_bundle(&all[start..end]).expect("fits"));
        }
        old = size;
    }
    (log, files)
}

#[test]
fn the_head_recomputed_from_tiles_is_the_logs() {
    let (log, files) = publish(&[1, 255, 256, 300, 65_535, 65_536, 66_000]);
    for size in [1, 255, 256, 300, 65_535, 65_536, 66_000] {
        let root = root_from_tiles(size, |t| files.get(t).cloned()).expect("all published");
        assert_eq!(Ok(root), log.root(size), "size {size}");
        for tile in tiles_for_root(size) {
            assert!(
                files.contains_key(&tile),
                "{tile} needed but never published"
            );
        }
    }
    // A tree this size needs tiles of three levels.
    let levels: Vec<_> = tiles_for_root(66_000).iter().map(|t| t.kind).collect();
    assert!(
        levels.contains(&TileKind::Hashes { level: 2 }),
        "{levels:?}"
    );
}

#[test]
fn every_bundle_matches_its_leaf_tile() {
    let (_, files) = publish(&[5, 600]);
    let mut checked = 0;
    for (path, data) in &files {
        if path.kind == TileKind::Entries {
            let leaf_tile = &files[&TilePath {
                kind: TileKind::Hashes { level: 0 },
                ..*path
            }];
            let decoded = check_bundle(data, leaf_tile).expect("matches");
            assert_eq!(decoded.len(), path.width as usize);
            checked += 1;
        }
    }
    assert_eq!(checked, 4, "bundles 000.p/5, 000, 001, 002.p/88");
    let tile = &files[&hashes(0, 0, 256)];
    let mut edited = files[&entries(0, 256)].clone();
    edited[2] ^= 1;
    assert!(matches!(
        check_bundle(&edited, tile),
        Err(TlogError::BadBundle(_))
    ));
}

#[test]
fn an_edited_or_missing_tile_is_caught() {
    let (log, mut files) = publish(&[700]);
    let root = log.root(700).expect("in range");
    let needed = tiles_for_root(700);
    for tile in &needed {
        let mut edited = files.clone();
        edited.get_mut(tile).expect("published")[31] ^= 0x80;
        let recomputed = root_from_tiles(700, |t| edited.get(t).cloned());
        assert_ne!(recomputed, Ok(root), "edit of {tile} unnoticed");
    }
    let gone = needed[0];
    files.remove(&gone);
    assert_eq!(
        root_from_tiles(700, |t| files.get(t).cloned()),
        Err(TlogError::BadTile {
            path: gone.path(),
            reason: "missing".into()
        })
    );
    let short = |t: &TilePath| Some(vec![0u8; t.width as usize * 32 - 1]);
    assert!(matches!(
        root_from_tiles(700, short),
        Err(TlogError::BadTile { .. })
    ));
}

#[test]
fn every_tile_is_authenticated_against_the_root() {
    let size = 66_000;
    let (log, files) = publish(&[300, size]);
    let root = log.root(size).expect("in range");
    let published = new_hash_tiles(0, size);
    assert_eq!(
        fairseed_tlog::verify_tiles(size, root, |t| files.get(t).cloned()),
        Ok(published.len() as u64)
    );
    // A flipped bit in a tile, full or partial, at any level, is found and named.
    let edits = [
        hashes(0, 0, 256),
        hashes(0, 3, 256),
        hashes(0, 256, 256),
        hashes(0, 257, 208),
        hashes(1, 0, 256),
        hashes(1, 1, 1),
        hashes(2, 0, 1),
    ];
    for tile in &edits {
        let mut edited = files.clone();
        edited.get_mut(tile).expect("published")[20] ^= 4;
        match fairseed_tlog::verify_tiles(size, root, |t| edited.get(t).cloned()) {
            Err(TlogError::BadTile { path, .. }) => {
                assert!(path.contains(&tile.path()), "{tile} edited, {path} blamed")
            }
            other => panic!("edit of {tile} gave {other:?}"),
        }
    }
    let other_root = log.root(size - 1).expect("in range");
    assert!(fairseed_tlog::verify_tiles(size, other_root, |t| files.get(t).cloned()).is_err());
}

#[test]
fn tiles_out_of_range_are_errors_not_panics() {
    let (log, _) = publish(&[10]);
    for tile in [
        hashes(64, 0, 256),
        hashes(0, 0, 0),
        hashes(0, 0, 257),
        entries(0, 10),
    ] {
        assert!(
            matches!(hash_tile_data(&log, &tile), Err(TlogError::BadTile { .. })),
            "{tile:?}"
        );
    }
    // Hashes the log does not have yet.
    assert!(hash_tile_data(&log, &hashes(0, 0, 11)).is_err());
    // Proof checks on absurd sizes just fail.
    let leaf = fairseed_tlog::leaf_hash(b"x");
    assert!(
        fairseed_tlog::verify_inclusion(&[leaf; 3], u64::MAX, leaf, u64::MAX - 1, leaf).is_err()
    );
    assert!(
        fairseed_tlog::verify_consistency(&[leaf; 3], u64::MAX - 1, leaf, u64::MAX, leaf).is_err()
    );
}
