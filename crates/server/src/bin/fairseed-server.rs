//! `fairseed-server`: the service alone, with the same options as
//! `fairseed serve` (used by the crash and scale-out tests, and handy where
//! the full CLI is not built).

use clap::Parser;

/// The same allocator as `fairseed serve`, so the two binaries measure alike.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Run the fairseed service.
#[derive(Debug, Parser)]
#[command(name = "fairseed-server", version)]
struct Cli {
    #[command(flatten)]
    serve: fairseed_server::ServeArgs,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let mut cli = Cli::parse();
    if let Some(config) = cli.serve.config.clone() {
        cli = match fairseed_server::config::reparse(&config, 0) {
            Ok(cli) => cli,
            Err(err) => {
                eprintln!("fairseed-server: {err:#}");
                return std::process::ExitCode::from(2);
            }
        };
    }
    match fairseed_server::serve(cli.serve).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("fairseed-server: {err:#}");
            std::process::ExitCode::from(2)
        }
    }
}
