//! `fairseed backup` and `fairseed restore` (docs/operating.md, "Backup and
//! restore").
//!
//! A backup is a new directory: the SQLite database copied consistently
//! while the service runs (`VACUUM INTO`, one read snapshot), the key files
//! (`seed.key` unseals the seeds not yet revealed, `log.key` signs the log,
//! `operator.key`), and `backup.toml` saying what it holds. On PostgreSQL
//! the database is backed up with `pg_dump` or a base backup; the keys
//! still come from here.
//!
//! A restore writes the files into a data directory that has no database
//! and marks it (`restored.toml`): the next `fairseed serve` signs nothing
//! before it found the log not behind its published record and its
//! witnesses (`fairseed_server::fork_guard`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

/// The key files of a data directory, in the order they are copied.
const KEYS: [&str; 3] = ["seed.key", "log.key", "operator.key"];
const DATABASE: &str = "fairseed.sqlite";
use fairseed_server::fork_guard::BACKUP_MANIFEST as MANIFEST;

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The service's data directory (its keys, and the SQLite database).
    #[arg(long, default_value = "./.fairseed")]
    pub data_dir: PathBuf,

    /// A new directory to write the backup into (created mode 0700).
    #[arg(long)]
    pub out: PathBuf,

    /// The service runs on PostgreSQL: copy the keys only (back the
    /// database up with pg_dump or a base backup).
    #[arg(long)]
    pub keys_only: bool,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// A directory written by `fairseed backup`.
    #[arg(long)]
    pub from: PathBuf,

    /// The data directory to restore into: it must hold no database, and
    /// any key file it holds must equal the backup's.
    #[arg(long, default_value = "./.fairseed")]
    pub data_dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct NewLogArgs {
    /// The service's data directory (its keys; the SQLite database unless
    /// --database is given). The old log is frozen in its `frozen/`.
    #[arg(long, default_value = "./.fairseed")]
    pub data_dir: PathBuf,

    /// The PostgreSQL database, as `fairseed serve --database` names it.
    #[arg(long)]
    pub database: Option<String>,

    /// The new log's origin (set `log_origin` to it before the next start).
    #[arg(long)]
    pub origin: String,
}

/// `fairseed new-log`.
pub fn new_log(args: &NewLogArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let done = runtime.block_on(fairseed_server::new_log::new_log(
        &args.data_dir,
        args.database.as_deref(),
        &args.origin,
    ))?;
    println!(
        "log {} frozen at size {} ({} tiles) in {}{}",
        done.old_origin,
        done.size,
        done.tiles,
        done.dir.display(),
        done.published.map_or_else(String::new, |p| format!(
            "; its newest published checkpoint (size {p}) kept beside it"
        ))
    );
    println!(
        "new log {} key {}: set log_origin to {:?} and start the service; announce both",
        args.origin, done.vkey, args.origin
    );
    Ok(ExitCode::SUCCESS)
}

/// `fairseed backup`.
pub fn backup(args: &BackupArgs) -> anyhow::Result<ExitCode> {
    if args.out.exists() {
        let empty = std::fs::read_dir(&args.out)
            .with_context(|| format!("reading {}", args.out.display()))?
            .next()
            .is_none();
        anyhow::ensure!(
            empty,
            "--out: {} exists and is not empty",
            args.out.display()
        );
    }
    fairseed_store::create_private_dir(&args.out)?;
    let mut manifest = String::new();
    if args.keys_only {
        manifest.push_str("database = \"not included (PostgreSQL: pg_dump or a base backup)\"\n");
    } else {
        let source = args.data_dir.join(DATABASE);
        anyhow::ensure!(
            source.exists(),
            "--data-dir: no {DATABASE} in {} (on PostgreSQL use --keys-only and pg_dump)",
            args.data_dir.display()
        );
        let summary = fairseed_store::backup::sqlite_backup(&source, &args.out.join(DATABASE))
            .with_context(|| format!("copying {}", source.display()))?;
        manifest.push_str(&format!(
            "database = \"{DATABASE}\"\nlog_size = {}\nbets = {}\n",
            summary.log_size, summary.bets
        ));
        println!(
            "database copied: log size {}, {} bets",
            summary.log_size, summary.bets
        );
    }
    let mut keys = Vec::new();
    for key in KEYS {
        let from = args.data_dir.join(key);
        if from.exists() {
            let bytes =
                std::fs::read(&from).with_context(|| format!("reading {}", from.display()))?;
            fairseed_store::write_private(&args.out.join(key), &bytes)
                .with_context(|| format!("writing {key}"))?;
            keys.push(format!("\"{key}\""));
        }
    }
    manifest.push_str(&format!("keys = [{}]\n", keys.join(", ")));
    fairseed_store::write_private(&args.out.join(MANIFEST), manifest.as_bytes())?;
    println!(
        "backup written to {} (keys: {}); keep it as secret as the data directory",
        args.out.display(),
        keys.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}

/// `fairseed restore`.
pub fn restore(args: &RestoreArgs) -> anyhow::Result<ExitCode> {
    let manifest = args.from.join(MANIFEST);
    anyhow::ensure!(
        manifest.exists(),
        "--from: {} is not a fairseed backup (no {MANIFEST})",
        args.from.display()
    );
    fairseed_store::create_private_dir(&args.data_dir)?;
    for file in [DATABASE, "fairseed.sqlite-wal", "fairseed.sqlite-shm"] {
        let there = args.data_dir.join(file);
        anyhow::ensure!(
            !there.exists(),
            "--data-dir: {} already holds a database ({file}); move it away first, a restore \
             never overwrites one",
            args.data_dir.display()
        );
    }
    for key in KEYS {
        let from = args.from.join(key);
        let to = args.data_dir.join(key);
        if !from.exists() {
            continue;
        }
        let bytes = std::fs::read(&from).with_context(|| format!("reading {}", from.display()))?;
        if to.exists() {
            let here = std::fs::read(&to).with_context(|| format!("reading {}", to.display()))?;
            anyhow::ensure!(
                here == bytes,
                "--data-dir: its {key} differs from the backup's; a restore never replaces a key \
                 (docs/operating.md, \"Keys\")"
            );
        } else {
            fairseed_store::write_private(&to, &bytes).with_context(|| format!("writing {key}"))?;
        }
    }
    let database = args.from.join(DATABASE);
    let mut size = None;
    if database.exists() {
        let summary = fairseed_store::backup::sqlite_summary(&database)
            .with_context(|| format!("reading {}", database.display()))?;
        let bytes = std::fs::read(&database)?;
        let restored = args.data_dir.join(DATABASE);
        fairseed_store::write_private(&restored, &bytes)?;
        fairseed_store::backup::unmark_restored(&restored)
            .with_context(|| format!("writing {}", restored.display()))?;
        size = Some(summary.log_size);
        println!(
            "database restored: log size {}, {} bets",
            summary.log_size, summary.bets
        );
    }
    let marker = format!(
        "# Written by fairseed restore: the next start signs nothing before the log\n\
         # is found not behind its published record and its witnesses.\nfrom = {:?}\nlog_size = {}\n",
        args.from.display().to_string(),
        size.map_or_else(|| "\"unknown\"".to_owned(), |s| s.to_string())
    );
    let marker_path = args
        .data_dir
        .join(fairseed_server::fork_guard::RESTORED_FILE);
    let _ = std::fs::remove_file(&marker_path);
    fairseed_store::write_private(&marker_path, marker.as_bytes())?;
    println!(
        "restored into {}; `fairseed serve` checks the log against what was published before it signs",
        args.data_dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
