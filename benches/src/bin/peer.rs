//! The peer for whole-CLI benchmarks: `peer check FILE` validates every game with
//! pgn-reader + shakmaty (one thread), `peer parse FILE` only parses. Prints counts.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: peer check|parse FILE");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("peer: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let counts = match mode.as_str() {
        "check" => pgn960_benches::peer_check(&bytes),
        "parse" => pgn960_benches::peer_parse(&bytes),
        _ => {
            eprintln!("usage: peer check|parse FILE");
            return ExitCode::from(2);
        }
    };
    println!(
        "games {} valid {} invalid {} moves {}",
        counts.games, counts.valid, counts.invalid, counts.moves
    );
    ExitCode::SUCCESS
}
