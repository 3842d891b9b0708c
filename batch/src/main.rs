//! `pgn960`: clean, check and analyse Chess960 PGN archives.

use clap::Parser;
use pgn960::cli::{self, Cli};
use pgn960::output;
use pgn960::pipeline::{Interrupted, INTERRUPTED};
use std::sync::atomic::Ordering;

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
    output::exit_cleanly_on_sigbus();
    // The first Ctrl-C asks the pipeline to stop between chunks (temporary files are then
    // dropped normally); a second one, for a run blocked reading a terminal or a pipe,
    // removes the temporary files and exits at once.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            output::remove_temporary_files();
            eprintln!("pgn960: interrupted again; stopped at once, no output was written");
            std::process::exit(cli::EXIT_INTERRUPTED);
        }
    });
    let code = match cli::run(cli) {
        Ok(code) => code,
        // The reader of our output went away (`pgn960 sp --all | head`): stop quietly.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            cli::EXIT_OK
        }
        Err(e) if e.chain().any(|c| c.is::<Interrupted>()) => {
            eprintln!("pgn960: interrupted; no output was written");
            cli::EXIT_INTERRUPTED
        }
        Err(e) => {
            eprintln!("pgn960: error: {e:#}");
            cli::EXIT_ERROR
        }
    };
    std::process::exit(code);
}
