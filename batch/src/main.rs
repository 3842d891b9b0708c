//! `pgn960`: clean, check and analyse Chess960 PGN archives.

use clap::Parser;
use pgn960_cli::cli::{self, Cli};
use pgn960_cli::handlers;

/// mimalloc: the per-game and per-move allocations of `export` cost a third of glibc's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                cli::EXIT_ERROR
            } else {
                cli::EXIT_OK
            };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    handlers::install(cli::EXIT_INTERRUPTED);
    let code = match cli::run(cli) {
        Ok(code) => code,
        Err(e) => cli::report_error(&e),
    };
    std::process::exit(code);
}
