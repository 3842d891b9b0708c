//! `peer-latest check|check-buffered|parse FILE`: the modes of the `peer` bench binary that
//! measure the peer alone, built on pgn-reader 0.29.1 + shakmaty 0.30.1 (the `peer` binary
//! of `pgn960-benches` is the same code on the workspace's pgn-reader 0.29.0). The peer
//! implementation is `benches/src/peer_impl.rs`, included here by path.

use std::process::ExitCode;

#[allow(dead_code)]
#[path = "../../src/peer_impl.rs"]
mod peer_impl;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: peer-latest check|check-buffered|parse FILE");
        return ExitCode::from(2);
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("peer-latest: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    if mode == "check-buffered" {
        return print_counts(&peer_impl::peer_check_read(file));
    }
    // Mapped, as pgn960 and the `peer` binary map a plain file.
    // SAFETY: read-only map of a file nobody changes during the benchmark.
    let map = match unsafe { memmap2::Mmap::map(&file) } {
        Ok(m) => m,
        Err(e) => {
            eprintln!("peer-latest: cannot map {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let counts = match mode.as_str() {
        "check" => peer_impl::peer_check(&map),
        "parse" => peer_impl::peer_parse(&map),
        _ => {
            eprintln!("usage: peer-latest check|check-buffered|parse FILE");
            return ExitCode::from(2);
        }
    };
    print_counts(&counts)
}

/// Prints a run's counts as the `peer` binary does.
fn print_counts(counts: &peer_impl::Counts) -> ExitCode {
    println!(
        "games {} valid {} invalid {} moves {}",
        counts.games, counts.valid, counts.invalid, counts.moves
    );
    ExitCode::SUCCESS
}
