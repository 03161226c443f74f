//! The log-level audit: the checkpoint's signature, the tiles against its root,
//! consistency with every checkpoint seen before, then every entry bundle
//! against its authenticated hash tile, streamed tile by tile into the
//! [`Checker`]. Tiles come from a caller's `fetch`, so the same code audits a
//! directory, a URL or bytes in memory.

use base64::Engine as _;
use fairseed_tlog::tiles::{TileKind, TilePath, HASH_BYTES, TILE_HEIGHT, TILE_WIDTH};
use fairseed_tlog::{check_bundle, open_checkpoint, verify_tiles, Checkpoint, Hash};
use serde::{Deserialize, Serialize};
use tlog_tiles::{HashReader, Tile};

use crate::checker::Checker;
use crate::finding::{Finding, FindingKind, Findings};
use crate::summary::Summary;

/// A checkpoint the monitor has verified before: what its state file keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// The log's origin line.
    pub origin: String,
    /// The tree size.
    pub size: u64,
    /// The root hash, base64 as in the checkpoint.
    pub root: String,
    /// The whole signed note, as evidence should a later one contradict it.
    pub note: String,
}

/// The monitor's memory between runs: every checkpoint it verified, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The log's verifier key, pinned by the first audit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The checkpoints seen.
    pub checkpoints: Vec<Seen>,
}

/// The result of one audit.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The audited checkpoint's origin, size and root, when its signature verified.
    pub checkpoint: Option<Seen>,
    /// Hash tiles authenticated.
    pub tiles: u64,
    /// The numbers; `None` when the checkpoint itself could not be trusted.
    pub summary: Option<Summary>,
    /// Everything found wrong.
    pub findings: Findings,
    /// The state to keep: the old one plus this checkpoint, unless it contradicted one seen before.
    #[serde(skip)]
    pub state: State,
}

impl Report {
    /// Whether the log passed: no findings.
    pub fn passed(&self) -> bool {
        self.findings.is_empty()
    }
}

/// Audits the log whose latest signed checkpoint is `note`, signed by `vkey`.
/// `fetch` returns a tile's bytes (or `None` if it cannot be had); `progress`
/// is told `(leaves checked, tree size)` after each tile of entries.
pub fn audit(
    note: &[u8],
    vkey: &str,
    state: &State,
    fetch: impl Fn(&TilePath) -> Option<Vec<u8>>,
    progress: impl FnMut(u64, u64),
) -> Report {
    audit_following(Checker::new(), note, vkey, state, fetch, progress)
}

/// The state a frozen log left for the log that follows it (docs/spec.md
/// §16.11): every entry of the log whose checkpoint is `note` (signed by
/// `vkey`) checked, for [`audit_following`]. That log's own findings are
/// its own audit's.
///
/// # Errors
/// The checkpoint does not verify, or a tile is missing or wrong.
pub fn carried(
    note: &[u8],
    vkey: &str,
    fetch: impl Fn(&TilePath) -> Option<Vec<u8>>,
) -> Result<Checker, String> {
    let fetch = |tile: &TilePath| fetch(tile).or_else(|| prefix_of_full(tile, &fetch));
    let head = open_checkpoint(note, vkey)
        .map_err(|e| format!("the previous log's checkpoint does not verify: {e}"))?;
    verify_tiles(head.size(), *head.hash(), fetch)
        .map_err(|e| format!("the previous log's tiles: {e}"))?;
    let mut checker = Checker::new();
    let mut findings = Findings::default();
    entries(
        head.size(),
        &fetch,
        &mut checker,
        &mut findings,
        &mut |_, _| {},
    );
    match findings.first.first() {
        Some(f) => Err(format!("the previous log's entries: {}", f.message)),
        None => Ok(checker.carried()),
    }
}

/// [`audit`] of a log that follows another: `before` holds what that one
/// left open ([`carried`]).
pub fn audit_following(
    before: Checker,
    note: &[u8],
    vkey: &str,
    state: &State,
    fetch: impl Fn(&TilePath) -> Option<Vec<u8>>,
    mut progress: impl FnMut(u64, u64),
) -> Report {
    let fetch = |tile: &TilePath| fetch(tile).or_else(|| prefix_of_full(tile, &fetch));
    let mut findings = Findings::default();
    let mut report = Report {
        checkpoint: None,
        tiles: 0,
        summary: None,
        findings: Findings::default(),
        state: state.clone(),
    };
    if let Some(pinned) = state.key.as_deref().filter(|k| *k != vkey) {
        findings.push(Finding::new(
            FindingKind::BadCheckpoint,
            format!("the log's key {vkey} is not the key {pinned} pinned by the checkpoints seen before"),
        ));
    }
    let head = match open_checkpoint(note, vkey) {
        Ok(head) => head,
        Err(e) => {
            findings.push(Finding::new(
                FindingKind::BadCheckpoint,
                format!("the checkpoint does not verify against the log's key: {e}"),
            ));
            report.findings = findings;
            return report;
        }
    };
    let seen = Seen {
        origin: head.origin().to_owned(),
        size: head.size(),
        root: base64::engine::general_purpose::STANDARD.encode(head.hash().0),
        note: String::from_utf8_lossy(note).into_owned(),
    };
    if let Some(name) = vkey.split('+').next().filter(|name| *name != head.origin()) {
        findings.push(Finding::new(
            FindingKind::BadCheckpoint,
            format!(
                "the checkpoint's origin {:?} is not the key's name {name:?}",
                head.origin()
            ),
        ));
    }
    match verify_tiles(head.size(), *head.hash(), fetch) {
        Ok(tiles) => report.tiles = tiles,
        Err(e) => findings.push(Finding::new(FindingKind::BadTile, e.to_string())),
    }
    let consistent = check_consistency(&head, state, &fetch, &mut findings);
    let mut checker = before;
    entries(
        head.size(),
        &fetch,
        &mut checker,
        &mut findings,
        &mut progress,
    );
    let (summary, entry_findings) = checker.finish();
    findings.merge(entry_findings);
    report.state.key.get_or_insert_with(|| vkey.to_owned());
    if consistent && !state.checkpoints.contains(&seen) {
        report.state.checkpoints.push(seen.clone());
    }
    report.checkpoint = Some(seen);
    report.summary = Some(summary);
    report.findings = findings;
    report
}

/// A partial tile read from the full tile that replaced it as the log grew
/// (C2SP tlog-tiles lets a server drop partial tiles): its first `W` hashes or entries.
fn prefix_of_full(
    tile: &TilePath,
    fetch: &impl Fn(&TilePath) -> Option<Vec<u8>>,
) -> Option<Vec<u8>> {
    if tile.width >= TILE_WIDTH {
        return None;
    }
    let full = fetch(&TilePath {
        width: TILE_WIDTH,
        ..*tile
    })?;
    let width = tile.width as usize;
    match tile.kind {
        TileKind::Hashes { .. } => full.get(..width * HASH_BYTES).map(<[u8]>::to_vec),
        TileKind::Entries => {
            let mut end = 0;
            for _ in 0..width {
                let len = full.get(end..end + 2)?;
                end += 2 + usize::from(u16::from_be_bytes([len[0], len[1]]));
            }
            full.get(..end).map(<[u8]>::to_vec)
        }
    }
}

/// Every earlier checkpoint of the same origin must be a prefix of this tree:
/// its size no larger, and its root the root of that many leaves as this
/// tree's (authenticated) tiles give it. Returns whether all were.
fn check_consistency(
    head: &Checkpoint,
    state: &State,
    fetch: &impl Fn(&TilePath) -> Option<Vec<u8>>,
    findings: &mut Findings,
) -> bool {
    let mut consistent = true;
    for old in state
        .checkpoints
        .iter()
        .filter(|c| c.origin == head.origin())
    {
        let problem = if old.size > head.size() {
            Some(format!(
                "it is smaller than checkpoint {} seen before (a rollback)",
                old.size
            ))
        } else {
            let reader = TileHashes {
                size: head.size(),
                fetch,
            };
            match tlog_tiles::tree_hash(old.size, &reader) {
                Ok(root) if base64::engine::general_purpose::STANDARD.encode(root.0) == old.root => None,
                Ok(root) => Some(format!(
                    "its tiles give root {} for size {}, where the checkpoint seen before signed {}",
                    base64::engine::general_purpose::STANDARD.encode(root.0),
                    old.size,
                    old.root
                )),
                Err(e) => Some(format!("the tiles for size {} cannot be read: {e}", old.size)),
            }
        };
        if let Some(problem) = problem {
            consistent = false;
            findings.push(Finding::new(
                FindingKind::Inconsistent,
                format!(
                    "checkpoint {} is not consistent with checkpoint {} seen before: {problem}",
                    head.size(),
                    old.size
                ),
            ));
        }
    }
    consistent
}

/// Streams every entry bundle, checked against its level-0 tile, into `checker`.
fn entries(
    size: u64,
    fetch: &impl Fn(&TilePath) -> Option<Vec<u8>>,
    checker: &mut Checker,
    findings: &mut Findings,
    progress: &mut impl FnMut(u64, u64),
) {
    let tiles = size.div_ceil(u64::from(TILE_WIDTH));
    for index in 0..tiles {
        let first = index * u64::from(TILE_WIDTH);
        let width = u32::try_from((size - first).min(u64::from(TILE_WIDTH))).unwrap_or(TILE_WIDTH);
        let hashes = TilePath {
            kind: TileKind::Hashes { level: 0 },
            index,
            width,
        };
        let bundle = TilePath {
            kind: TileKind::Entries,
            index,
            width,
        };
        let (Some(hash_tile), Some(bundle_bytes)) = (fetch(&hashes), fetch(&bundle)) else {
            // The log is cut short here; going on would only repeat this for every
            // tile of a size the operator may have made up.
            findings.push(Finding::new(
                FindingKind::BadTile,
                format!(
                    "{} or {} is missing: entries from {first} on are not checked",
                    hashes.path(),
                    bundle.path()
                ),
            ));
            break;
        };
        match check_bundle(&bundle_bytes, &hash_tile) {
            Ok(list) => {
                for (i, entry) in list.iter().enumerate() {
                    checker.entry_bytes(first + i as u64, entry);
                }
            }
            Err(e) => findings.push(Finding::new(
                FindingKind::BadBundle,
                format!(
                    "{} against {}: {}",
                    bundle.path(),
                    hashes.path(),
                    e.to_string().trim_start_matches("entry bundle: ")
                ),
            )),
        }
        progress(first + u64::from(width), size);
    }
}

/// Stored hashes read from the tiles a tree of `size` leaves publishes, for
/// the root of any smaller tree: each hash from the widest tile holding it.
struct TileHashes<'a, F> {
    size: u64,
    fetch: &'a F,
}

impl<F: Fn(&TilePath) -> Option<Vec<u8>>> HashReader for TileHashes<'_, F> {
    fn read_hashes(&self, indexes: &[u64]) -> Result<Vec<Hash>, tlog_tiles::Error> {
        indexes
            .iter()
            .map(|&index| {
                let tile = Tile::from_index(TILE_HEIGHT, index)
                    .parent(0, self.size)
                    .ok_or(tlog_tiles::Error::IndexesNotInTree)?;
                let path = TilePath {
                    kind: TileKind::Hashes {
                        level: tile.level(),
                    },
                    index: tile.level_index(),
                    width: tile.width(),
                };
                let data = (self.fetch)(&path).ok_or(tlog_tiles::Error::InvalidTile)?;
                if data.len() != tile.width() as usize * HASH_BYTES {
                    return Err(tlog_tiles::Error::InvalidTile);
                }
                tile.hash_at_index(&data, index)
            })
            .collect()
    }
}
