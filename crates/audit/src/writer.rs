//! A log written out as static files in the C2SP tlog-tiles layout: what a
//! test or a benchmark audits. The service publishes its own tiles from its
//! store; this is the same arithmetic over a [`MemoryLog`].

use fairseed_tlog::tiles::{TilePath, TILE_WIDTH};
use fairseed_tlog::{
    checkpoint, encode_bundle, hash_tile_data, new_entry_bundles, new_hash_tiles, sign_checkpoint,
    MemoryLog, NoteKey, TlogError,
};

/// An append-only log that hands out its tiles as `(path, bytes)`.
#[derive(Debug, Default)]
pub struct TileWriter {
    log: MemoryLog,
    /// Entries from leaf `kept_from` on: those of bundles not yet full.
    entries: Vec<Vec<u8>>,
    kept_from: u64,
    published: u64,
}

impl TileWriter {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends an entry; returns its leaf index.
    pub fn append(&mut self, entry: Vec<u8>) -> u64 {
        self.entries.push(entry);
        self.log
            .append(self.entries.last().map_or(&[][..], Vec::as_slice))
    }

    /// Leaves so far.
    pub fn size(&self) -> u64 {
        self.log.size()
    }

    /// The tiles and bundles that are new since the last call (all of them the
    /// first time), paths relative to the log's prefix (`tile/0/000`, …).
    ///
    /// # Errors
    /// [`TlogError`] if a tile cannot be built (an entry over 65 535 bytes).
    pub fn new_files(&mut self) -> Result<Vec<(String, Vec<u8>)>, TlogError> {
        let (old, new) = (self.published, self.log.size());
        let mut files = Vec::new();
        for tile in new_hash_tiles(old, new) {
            files.push((tile.path(), hash_tile_data(&self.log, &tile)?));
        }
        for bundle in new_entry_bundles(old, new) {
            files.push((bundle.path(), self.bundle(&bundle)?));
        }
        self.published = new;
        let full = new / u64::from(TILE_WIDTH) * u64::from(TILE_WIDTH);
        let drop = usize::try_from(full - self.kept_from).unwrap_or(0);
        self.entries.drain(..drop.min(self.entries.len()));
        self.kept_from = full;
        Ok(files)
    }

    fn bundle(&self, tile: &TilePath) -> Result<Vec<u8>, TlogError> {
        let start = tile.index * u64::from(TILE_WIDTH) - self.kept_from;
        let start =
            usize::try_from(start).map_err(|_| TlogError::OutOfRange("bundle start".into()))?;
        let end = start + tile.width as usize;
        let entries = self
            .entries
            .get(start..end)
            .ok_or_else(|| TlogError::OutOfRange(format!("{} is no longer held", tile.path())))?;
        encode_bundle(entries)
    }

    /// The signed checkpoint of the whole log, `origin` naming it and the key.
    ///
    /// # Errors
    /// [`TlogError`] if the origin is not a valid key name or checkpoint origin.
    pub fn checkpoint(&self, key: &NoteKey) -> Result<String, TlogError> {
        let size = self.log.size();
        sign_checkpoint(
            key,
            &checkpoint(key.name(), size, self.log.root(size)?, &[])?,
        )
    }
}
