//! Command-line counterparts for whole-CLI benchmarks (`benches/compare.sh`), one thread:
//!
//! - `peer check FILE`: pgn-reader + shakmaty validate every game (what `pgn960 check -j1` does);
//! - `peer parse FILE`: pgn-reader only parses (seeing every SAN);
//! - `peer ours-parse FILE`: pgn-parse only parses (the same work, our side);
//! - `peer xfen FILE`: shakmaty reads every FEN line (Chess960) and writes it back.
//!
//! Each prints its counts.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: peer check|parse|ours-parse|xfen FILE");
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
        "ours-parse" => pgn960_benches::our_parse(&bytes),
        "xfen" => {
            let mut out = std::io::BufWriter::new(std::io::sink());
            let n = pgn960_benches::peer_xfen(&bytes, &mut out);
            let _ = out.flush();
            println!("fens {n}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("usage: peer check|parse|ours-parse|xfen FILE");
            return ExitCode::from(2);
        }
    };
    println!(
        "games {} valid {} invalid {} moves {}",
        counts.games, counts.valid, counts.invalid, counts.moves
    );
    ExitCode::SUCCESS
}
