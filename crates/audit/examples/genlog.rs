//! Writes an honest sample log of N entries to a directory, for timing
//! `fairseed audit` (docs/performance.md, "Transparency log — audit"):
//!
//! ```text
//! cargo run --release -p fairseed-audit --example genlog -- DIR 10000000
//! ```
//!
//! The directory gets `checkpoint`, `key` and `tile/...` as the service serves
//! them under `/log/`. The key is a fixed test key: this log proves nothing.

use std::path::Path;

use fairseed_audit::sample::{Sample, Shape};
use fairseed_audit::writer::TileWriter;
use fairseed_tlog::NoteKey;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(dir), Some(n)) = (args.next(), args.next()) else {
        return Err("usage: genlog DIR ENTRIES".into());
    };
    let n: u64 = n.parse()?;
    let dir = Path::new(&dir);
    let key = NoteKey::from_private_bytes("bench.fairseed.test/log", &[5; 32])?;
    let mut writer = TileWriter::new();
    for (i, entry) in Sample::new("bench", Shape::default()).enumerate() {
        if i as u64 == n {
            break;
        }
        writer.append(entry.encode()?);
        if (i + 1) % (256 * 1024) == 0 {
            write(dir, &mut writer)?;
        }
    }
    write(dir, &mut writer)?;
    std::fs::write(dir.join("checkpoint"), writer.checkpoint(&key)?)?;
    std::fs::write(dir.join("key"), key.vkey())?;
    Ok(())
}

fn write(dir: &Path, writer: &mut TileWriter) -> Result<(), Box<dyn std::error::Error>> {
    for (path, bytes) in writer.new_files()? {
        let file = dir.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(file, bytes)?;
    }
    Ok(())
}
