//! The C2SP `tlog-tiles` layout (<https://c2sp.org/tlog-tiles>).
//!
//! A log is served as static files. A hash tile `tile/<L>/<N>` holds up to 256
//! consecutive hashes of level `8·L` of the tree, starting at hash `256·N`; the
//! entry bundle `tile/entries/<N>` holds the entries of leaves `256·N ..`. A
//! partial tile, at the right edge of the tree, has `.p/<W>` appended, `W` the
//! number of hashes or entries in it. `N` is written in groups of three digits,
//! all but the last prefixed with `x`: 1234067 is `x001/x234/067`.
//!
//! `tlog_tiles` supplies the tile geometry (Go's `sumdb/tlog` with tiles of
//! height 8); its paths carry the height (`tile/8/<L>/<N>`) as Go's do, so the
//! C2SP paths and the entry bundles are written here.

use std::cell::RefCell;

use tlog_tiles::{HashReader, Tile};

use crate::{error::TlogError, merkle::Hash};

/// Tiles are 2^8 = 256 hashes wide (C2SP tlog-tiles fixes the height at 8).
pub const TILE_HEIGHT: u8 = 8;
/// The number of hashes in a full tile, and of entries in a full bundle.
pub const TILE_WIDTH: u32 = 1 << TILE_HEIGHT;
/// A hash is 32 bytes in a tile.
pub const HASH_BYTES: usize = 32;

/// What a tile holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileKind {
    /// Hashes of tree level `8 · level` (`level` 0 holds the leaf hashes).
    Hashes {
        /// The tile level `L` (0..=63).
        level: u8,
    },
    /// An entry bundle: the entries of the leaves a level-0 tile hashes.
    Entries,
}

/// The coordinates of one tile: kind, index `N` within its level, width `W`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TilePath {
    /// Hashes of a level, or an entry bundle.
    pub kind: TileKind,
    /// `N`: the tile's position within its level.
    pub index: u64,
    /// `W`: hashes or entries in the tile, 1..=256; 256 is a full tile.
    pub width: u32,
}

impl TilePath {
    /// The path below the log's prefix: `tile/<L>/<N>[.p/<W>]` or `tile/entries/<N>[.p/<W>]`.
    pub fn path(&self) -> String {
        let level = match self.kind {
            TileKind::Hashes { level } => level.to_string(),
            TileKind::Entries => "entries".to_owned(),
        };
        let partial = if self.width == TILE_WIDTH {
            String::new()
        } else {
            format!(".p/{}", self.width)
        };
        format!("tile/{level}/{}{partial}", encode_index(self.index))
    }

    /// Parses a path written by [`TilePath::path`], rejecting every other spelling.
    ///
    /// # Errors
    /// [`TlogError::BadTilePath`] naming what is wrong.
    pub fn parse(path: &str) -> Result<Self, TlogError> {
        let bad = |reason| TlogError::BadTilePath {
            path: path.to_owned(),
            reason,
        };
        let rest = path
            .strip_prefix("tile/")
            .ok_or_else(|| bad("not under tile/"))?;
        let (level, rest) = rest.split_once('/').ok_or_else(|| bad("no tile index"))?;
        let kind = match level {
            "entries" => TileKind::Entries,
            _ => TileKind::Hashes {
                level: parse_digits(level)
                    .and_then(|l| u8::try_from(l).ok())
                    .filter(|l| *l <= 63)
                    .ok_or_else(|| bad("level is not 0..=63"))?,
            },
        };
        let (digits, width) = match rest.split_once(".p/") {
            Some((digits, w)) => {
                let width = parse_digits(w)
                    .and_then(|w| u32::try_from(w).ok())
                    .filter(|w| (1..TILE_WIDTH).contains(w))
                    .ok_or_else(|| bad("partial width is not 1..=255"))?;
                (digits, width)
            }
            None => (rest, TILE_WIDTH),
        };
        let index = decode_index(digits).ok_or_else(|| bad("index is not x###/.../### groups"))?;
        let tile = Self { kind, index, width };
        // One spelling per tile: "x000/001" and "0001" are not accepted for 1.
        if tile.path() != path {
            return Err(bad("not in canonical form"));
        }
        Ok(tile)
    }

    /// The hash tile as `tlog_tiles` sees it, or `None` for an entry bundle or
    /// coordinates out of range (`Tile::new` would panic on them).
    fn hash_tile(&self) -> Option<Tile> {
        match self.kind {
            TileKind::Hashes { level } if level < 64 && (1..=TILE_WIDTH).contains(&self.width) => {
                Some(Tile::new(TILE_HEIGHT, level, self.index, self.width, false))
            }
            _ => None,
        }
    }

    fn from_hash_tile(tile: &Tile) -> Self {
        Self {
            kind: TileKind::Hashes {
                level: tile.level(),
            },
            index: tile.level_index(),
            width: tile.width(),
        }
    }
}

impl std::fmt::Display for TilePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path())
    }
}

/// `N` in groups of three digits, all but the last prefixed with `x`.
fn encode_index(mut n: u64) -> String {
    let mut out = format!("{:03}", n % 1000);
    while n >= 1000 {
        n /= 1000;
        out = format!("x{:03}/{out}", n % 1000);
    }
    out
}

fn decode_index(text: &str) -> Option<u64> {
    let groups: Vec<&str> = text.split('/').collect();
    let (last, leading) = groups.split_last()?;
    let mut n: u64 = 0;
    for group in leading {
        let digits = group.strip_prefix('x').filter(|d| d.len() == 3)?;
        n = n.checked_mul(1000)?.checked_add(parse_digits(digits)?)?;
    }
    if last.len() != 3 {
        return None;
    }
    n.checked_mul(1000)?.checked_add(parse_digits(last)?)
}

/// ASCII digits only (`u64::from_str` would also take a leading `+`).
fn parse_digits(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The hash tiles to publish when the log grows from `old_size` to `new_size` leaves.
pub fn new_hash_tiles(old_size: u64, new_size: u64) -> Vec<TilePath> {
    Tile::new_tiles(TILE_HEIGHT, old_size, new_size)
        .iter()
        .map(TilePath::from_hash_tile)
        .collect()
}

/// The entry bundles to publish when the log grows from `old_size` to `new_size` leaves:
/// one per level-0 hash tile, with the same index and width.
pub fn new_entry_bundles(old_size: u64, new_size: u64) -> Vec<TilePath> {
    new_hash_tiles(old_size, new_size)
        .into_iter()
        .filter(|t| t.kind == TileKind::Hashes { level: 0 })
        .map(|t| TilePath {
            kind: TileKind::Entries,
            ..t
        })
        .collect()
}

/// The contents of a hash tile: its `width` hashes, 32 bytes each, read from `hashes`
/// (a [`crate::MemoryLog`], or a store's stored hashes).
///
/// # Errors
/// [`TlogError::BadTile`] for an entry bundle, or if `hashes` lacks a hash.
pub fn hash_tile_data(hashes: &impl HashReader, tile: &TilePath) -> Result<Vec<u8>, TlogError> {
    let bad = |reason: String| TlogError::BadTile {
        path: tile.path(),
        reason,
    };
    let inner = tile
        .hash_tile()
        .ok_or_else(|| bad("not a hash tile of level 0..=63 and width 1..=256".into()))?;
    inner.read_data(hashes).map_err(|e| bad(e.to_string()))
}

/// The hash tiles a reader needs to recompute the head of a tree of `size` leaves:
/// the tiles holding the roots of its complete subtrees (RFC 6962's split of `size`
/// into powers of two), each as wide as the tree allows.
pub fn tiles_for_root(size: u64) -> Vec<TilePath> {
    let mut tiles: Vec<TilePath> = Vec::new();
    for index in subtree_indexes(size) {
        if let Some(tile) = widest_tile(index, size) {
            if !tiles.contains(&tile) {
                tiles.push(tile);
            }
        }
    }
    tiles
}

/// Recomputes the tree head of `size` leaves from tiles alone, as a monitor does.
/// `fetch` returns a tile's contents, or `None` if it has none.
///
/// The result is only as good as the tiles: compare it with a signed checkpoint.
///
/// # Errors
/// [`TlogError::BadTile`] if a tile is missing or has the wrong length.
pub fn root_from_tiles(
    size: u64,
    fetch: impl Fn(&TilePath) -> Option<Vec<u8>>,
) -> Result<Hash, TlogError> {
    read_with_tiles(size, fetch, |reader| tlog_tiles::tree_hash(size, reader))
}

/// Authenticates every hash tile of the tree of `size` leaves against its signed
/// `root`, as a monitor does before trusting any entry: the tiles at the right
/// edge (all partial ones) must hash up to `root`, and every full tile must hash
/// to its hash in its parent tile. Returns the number of tiles checked.
///
/// Unlike `TileHashReader` in `tlog_tiles` 0.2 (and Go's `sumdb/tlog` it ports),
/// which in some tree shapes returns hashes from tiles below the root's without
/// comparing them with their parents, this checks every tile.
///
/// # Errors
/// [`TlogError::BadTile`] naming the first tile that is missing, has the wrong
/// length, or does not match.
pub fn verify_tiles(
    size: u64,
    root: Hash,
    fetch: impl Fn(&TilePath) -> Option<Vec<u8>>,
) -> Result<u64, TlogError> {
    if root_from_tiles(size, &fetch)? != root {
        return Err(TlogError::BadTile {
            path: tiles_for_root(size)
                .iter()
                .map(TilePath::path)
                .collect::<Vec<_>>()
                .join(", "),
            reason: format!("do not hash to the root of tree size {size}"),
        });
    }
    let reader = FetchedTiles {
        size,
        fetch,
        failure: RefCell::new(None),
    };
    let tiles = new_hash_tiles(0, size);
    let mut full: Vec<&TilePath> = tiles.iter().filter(|t| t.width == TILE_WIDTH).collect();
    // Parents before children, so a bad tile is blamed, not the good child below it.
    full.sort_by_key(|t| std::cmp::Reverse(t.kind));
    for tile in full {
        reader.check_against_parent(tile)?;
    }
    Ok(tiles.len() as u64)
}

/// Runs `f` over the hashes of the tiles of the tree of `size` leaves that `fetch` returns.
///
/// # Errors
/// [`TlogError::BadTile`] naming the first tile that is missing or has the wrong length.
pub(crate) fn read_with_tiles<R, F: Fn(&TilePath) -> Option<Vec<u8>>>(
    size: u64,
    fetch: F,
    f: impl FnOnce(&FetchedTiles<F>) -> Result<R, tlog_tiles::Error>,
) -> Result<R, TlogError> {
    let reader = FetchedTiles {
        size,
        fetch,
        failure: RefCell::new(None),
    };
    let out = f(&reader);
    match (out, reader.failure.into_inner()) {
        (Ok(out), None) => Ok(out),
        (_, Some(failure)) => Err(failure),
        (Err(e), None) => Err(TlogError::BadTile {
            path: format!("for tree size {size}"),
            reason: e.to_string(),
        }),
    }
}

/// Stored-hash indexes of the complete subtrees whose hashes make the root of `size` leaves.
fn subtree_indexes(size: u64) -> Vec<u64> {
    if size == 0 {
        return Vec::new();
    }
    tlog_tiles::sub_tree_index(0, size, Vec::new())
}

/// The tile of a tree of `size` leaves that holds the stored hash `index`.
pub(crate) fn widest_tile(index: u64, size: u64) -> Option<TilePath> {
    Tile::from_index(TILE_HEIGHT, index)
        .parent(0, size)
        .map(|t| TilePath::from_hash_tile(&t))
}

/// Hashes served from tiles a caller fetches, each read from the tile that the
/// tree of `size` leaves publishes for it. The first failure is kept with its
/// tile's path, since `tlog_tiles`' error type has no room for one.
pub(crate) struct FetchedTiles<F> {
    size: u64,
    fetch: F,
    failure: RefCell<Option<TlogError>>,
}

impl<F: Fn(&TilePath) -> Option<Vec<u8>>> FetchedTiles<F> {
    fn hash(&self, index: u64) -> Result<Hash, TlogError> {
        let tile = widest_tile(index, self.size).ok_or_else(|| {
            TlogError::OutOfRange(format!(
                "hash {index} is not in a tree of {} leaves",
                self.size
            ))
        })?;
        let bad = |reason: String| TlogError::BadTile {
            path: tile.path(),
            reason,
        };
        let data = (self.fetch)(&tile).ok_or_else(|| bad("missing".into()))?;
        let want = tile.width as usize * HASH_BYTES;
        if data.len() != want {
            return Err(bad(format!("{} bytes, expected {want}", data.len())));
        }
        let inner = tile
            .hash_tile()
            .ok_or_else(|| bad("not a hash tile".into()))?;
        inner
            .hash_at_index(&data, index)
            .map_err(|e| bad(e.to_string()))
    }
}

impl<F: Fn(&TilePath) -> Option<Vec<u8>>> FetchedTiles<F> {
    /// A full tile must hash to the hash its parent tile holds for it.
    fn check_against_parent(&self, tile: &TilePath) -> Result<(), TlogError> {
        let bad = |reason: String| TlogError::BadTile {
            path: tile.path(),
            reason,
        };
        let data = (self.fetch)(tile).ok_or_else(|| bad("missing".into()))?;
        if data.len() != TILE_WIDTH as usize * HASH_BYTES {
            return Err(bad(format!("{} bytes, expected 8192", data.len())));
        }
        let TileKind::Hashes { level } = tile.kind else {
            return Err(bad("not a hash tile".into()));
        };
        let index = tlog_tiles::stored_hash_index((level + 1) * TILE_HEIGHT, tile.index);
        if self.hash(index)? != Tile::subtree_hash(&data) {
            return Err(bad("does not hash to its hash in the parent tile".into()));
        }
        Ok(())
    }
}

impl<F: Fn(&TilePath) -> Option<Vec<u8>>> HashReader for FetchedTiles<F> {
    fn read_hashes(&self, indexes: &[u64]) -> Result<Vec<Hash>, tlog_tiles::Error> {
        indexes
            .iter()
            .map(|&index| {
                self.hash(index).map_err(|failure| {
                    self.failure.borrow_mut().get_or_insert(failure);
                    tlog_tiles::Error::InvalidTile
                })
            })
            .collect()
    }
}

/// Encodes an entry bundle: each entry as a big-endian `u16` length and its bytes.
///
/// # Errors
/// [`TlogError::BadBundle`] if an entry is longer than 65535 bytes or there are more than 256.
pub fn encode_bundle<E: AsRef<[u8]>>(entries: &[E]) -> Result<Vec<u8>, TlogError> {
    if entries.len() > TILE_WIDTH as usize {
        return Err(TlogError::BadBundle(format!(
            "{} entries, at most {TILE_WIDTH} fit in a bundle",
            entries.len()
        )));
    }
    let mut out = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let entry = entry.as_ref();
        let len = u16::try_from(entry.len()).map_err(|_| {
            TlogError::BadBundle(format!(
                "entry {i} is {} bytes, at most 65535 fit",
                entry.len()
            ))
        })?;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(entry);
    }
    Ok(out)
}

/// Decodes an entry bundle into its entries.
///
/// # Errors
/// [`TlogError::BadBundle`] if a length runs past the end, or more than 256 entries.
pub fn decode_bundle(bundle: &[u8]) -> Result<Vec<&[u8]>, TlogError> {
    let mut entries = Vec::new();
    let mut rest = bundle;
    while !rest.is_empty() {
        let index = entries.len();
        if index == TILE_WIDTH as usize {
            return Err(TlogError::BadBundle(format!(
                "more than {TILE_WIDTH} entries"
            )));
        }
        let (len, body) = match rest {
            [hi, lo, body @ ..] => (usize::from(u16::from_be_bytes([*hi, *lo])), body),
            _ => {
                return Err(TlogError::BadBundle(format!(
                    "entry {index}: length cut short"
                )))
            }
        };
        if body.len() < len {
            return Err(TlogError::BadBundle(format!(
                "entry {index} claims {len} bytes, {} remain",
                body.len()
            )));
        }
        let (entry, tail) = body.split_at(len);
        entries.push(entry);
        rest = tail;
    }
    Ok(entries)
}

/// Decodes an entry bundle and checks it against the level-0 hash tile of the
/// same index: entry `i` must hash (RFC 6962 leaf hash) to hash `i` of the tile.
/// A monitor that has authenticated the tile thereby authenticates the entries.
///
/// # Errors
/// [`TlogError::BadBundle`] if the bundle does not decode, has another number
/// of entries than the tile has hashes, or an entry does not match its hash.
pub fn check_bundle<'a>(bundle: &'a [u8], leaf_tile: &[u8]) -> Result<Vec<&'a [u8]>, TlogError> {
    let entries = decode_bundle(bundle)?;
    if leaf_tile.len() != entries.len() * HASH_BYTES {
        return Err(TlogError::BadBundle(format!(
            "{} entries for a tile of {} bytes ({} hashes)",
            entries.len(),
            leaf_tile.len(),
            leaf_tile.len() / HASH_BYTES
        )));
    }
    for (i, (entry, want)) in entries
        .iter()
        .zip(leaf_tile.chunks_exact(HASH_BYTES))
        .enumerate()
    {
        if crate::merkle::leaf_hash(entry).0 != want {
            return Err(TlogError::BadBundle(format!(
                "entry {i} does not hash to the tile's hash {i}"
            )));
        }
    }
    Ok(entries)
}
