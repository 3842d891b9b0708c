//! Command-line counterparts for whole-CLI benchmarks (`benches/compare.sh`), one thread:
//!
//! - `peer check FILE`: pgn-reader + shakmaty validate every game (what `pgn960 check -j1` does);
//! - `peer parse FILE`: pgn-reader only parses (seeing every SAN);
//! - `peer ours-check FILE`: pgn-parse games validated by `pgn960::validate` (no pipeline);
//! - `peer ours-fused FILE`: pgn-parse's visitor replaying each SAN as it is read (a lower bound);
//! - `peer ours-parse FILE`: pgn-parse only parses (the same work, our side);
//! - `peer replay FILE`: main lines pre-parsed, then replayed by chess960-core and by shakmaty
//!   (the replay cost alone, both sides);
//! - `peer xfen FILE`: shakmaty reads every FEN line (Chess960) and writes it back.
//!
//! Each prints its counts.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: peer check|parse|ours-check|ours-fused|ours-parse|replay|xfen FILE");
        return ExitCode::from(2);
    };
    // Mapped, as pgn960 maps a plain file: the comparison is of the work, not of how the
    // bytes get into memory (reading 1 GB into a buffer costs the peer about a second of
    // kernel time on this machine).
    let map = match std::fs::File::open(path).and_then(|f| {
        // SAFETY: read-only map of a file nobody changes during the benchmark.
        unsafe { memmap2::Mmap::map(&f) }
    }) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("peer: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let bytes: &[u8] = &map;
    let counts = match mode.as_str() {
        "check" => pgn960_benches::peer_check(bytes),
        "parse" => pgn960_benches::peer_parse(bytes),
        "ours-check" => pgn960_benches::our_check(bytes),
        "ours-fused" => pgn960_benches::our_fused(bytes),
        "ours-parse" => pgn960_benches::our_parse(bytes),
        "replay" => {
            let games = pgn960_benches::main_lines(bytes);
            for _ in 0..3 {
                let t = std::time::Instant::now();
                let ours = pgn960_benches::our_replay(&games);
                let ours_s = t.elapsed().as_secs_f64();
                let t = std::time::Instant::now();
                let theirs = pgn960_benches::peer_replay(&games);
                let theirs_s = t.elapsed().as_secs_f64();
                println!(
                    "replay: chess960-core {ours} moves in {ours_s:.3} s, shakmaty {theirs} moves in {theirs_s:.3} s, ratio {:.2}x",
                    theirs_s / ours_s
                );
            }
            return ExitCode::SUCCESS;
        }
        "xfen" => {
            let mut out = std::io::BufWriter::new(std::io::sink());
            let n = pgn960_benches::peer_xfen(bytes, &mut out);
            let _ = out.flush();
            println!("fens {n}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("usage: peer check|parse|ours-check|ours-fused|ours-parse|replay|xfen FILE");
            return ExitCode::from(2);
        }
    };
    println!(
        "games {} valid {} invalid {} moves {}",
        counts.games, counts.valid, counts.invalid, counts.moves
    );
    ExitCode::SUCCESS
}
