//! Command-line counterparts for whole-CLI benchmarks (`benches/compare.sh`), one thread:
//!
//! - `peer check FILE`: pgn-reader + shakmaty validate every game (what `pgn960 check -j1` does);
//! - `peer check-buffered FILE`: the same, the file read through pgn-reader's own buffered
//!   reader (a `std::fs::File`, ordinary reads) instead of a map;
//! - `peer parse FILE`: pgn-reader only parses (seeing every SAN);
//! - `peer cut FILE`: what pgn960's calling thread does for a file before the workers
//!   start on it: open (a compressed file decoded as a stream) and cut into chunks, nothing
//!   more (the serial part of a `.zst` or `.gz` input);
//! - `peer ours-check FILE`: pgn-parse games validated by `pgn960::validate` (no pipeline);
//! - `peer ours-fused FILE`: pgn-parse's visitor replaying each SAN as it is read (a lower bound);
//! - `peer ours-parse FILE`: pgn-parse only parses (the same work, our side);
//! - `peer replay FILE`: main lines pre-parsed, then replayed by chess960-core and by shakmaty
//!   (the replay cost alone, both sides);
//! - `peer xfen FILE`: shakmaty reads every FEN line (Chess960) and writes it back;
//! - `peer perft ours|shakmaty|both DEPTH FEN|SP`: one-thread perft of a FEN or a start
//!   position number, by chess960-core, by shakmaty (`CastlingMode::Chess960`), or both
//!   alternately, with Mnodes/s (a small driver for `valgrind --tool=callgrind` too).
//!
//! Each prints its counts.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("perft") {
        return perft(&args[2..]);
    }
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: peer {MODES} FILE");
        eprintln!("       peer perft ours|shakmaty|both DEPTH FEN|SP");
        return ExitCode::from(2);
    };
    if mode == "cut" {
        return cut(path);
    }
    if mode == "check-buffered" {
        return match std::fs::File::open(path) {
            Ok(file) => print_counts(&pgn960_benches::peer_check_read(file)),
            Err(e) => {
                eprintln!("peer: cannot read {path}: {e}");
                ExitCode::from(2)
            }
        };
    }
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
            eprintln!("usage: peer {MODES} FILE");
            return ExitCode::from(2);
        }
    };
    print_counts(&counts)
}

/// The modes that read a FILE.
const MODES: &str = "check|check-buffered|cut|parse|ours-check|ours-fused|ours-parse|replay|xfen";

/// `peer cut FILE`: the file opened as pgn960 opens it and cut into the pipeline's chunks
/// on this thread; prints the chunks and decoded bytes.
fn cut(path: &str) -> ExitCode {
    use pgn960::pipeline::{ChunkSource, PipelineOptions};
    let mut input = match pgn960::input::Input::open(path) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("peer: {e}");
            return ExitCode::from(2);
        }
    };
    let mut source = ChunkSource::new(&mut input, &PipelineOptions::default());
    let (mut chunks, mut bytes) = (0u64, 0u64);
    loop {
        match source.next_chunk() {
            Ok(Some(chunk)) => {
                chunks += 1;
                bytes += chunk.info.len as u64;
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("peer: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    println!("chunks {chunks} bytes {bytes}");
    ExitCode::SUCCESS
}

/// Prints a run's counts.
fn print_counts(counts: &pgn960_benches::Counts) -> ExitCode {
    println!(
        "games {} valid {} invalid {} moves {}",
        counts.games, counts.valid, counts.invalid, counts.moves
    );
    ExitCode::SUCCESS
}

/// `peer perft ours|shakmaty|both DEPTH FEN|SP`: nodes, seconds and Mnodes/s of each side.
fn perft(args: &[String]) -> ExitCode {
    use shakmaty::{CastlingMode, Chess};
    let usage = || {
        eprintln!("usage: peer perft ours|shakmaty|both DEPTH FEN|SP");
        ExitCode::from(2)
    };
    let (Some(who), Some(depth), Some(start)) = (args.first(), args.get(1), args.get(2)) else {
        return usage();
    };
    let Ok(depth) = depth.parse::<u32>() else {
        return usage();
    };
    if !matches!(who.as_str(), "ours" | "shakmaty" | "both") {
        return usage();
    }
    let ours = match start.parse::<u16>() {
        Ok(sp) => chess960_core::Position::from_sp(sp).map_err(|e| e.to_string()),
        Err(_) => chess960_core::Position::from_fen(start).map_err(|e| e.to_string()),
    };
    let ours = match ours {
        Ok(p) => p,
        Err(e) => {
            eprintln!("peer: {e}");
            return ExitCode::from(2);
        }
    };
    let fen = ours.fen(chess960_core::CastlingStyle::Shredder).to_string();
    let theirs: Chess = match fen
        .parse::<shakmaty::fen::Fen>()
        .map_err(|e| e.to_string())
        .and_then(|f| {
            f.into_position(CastlingMode::Chess960)
                .map_err(|e| e.to_string())
        }) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("peer: shakmaty cannot read {fen}: {e}");
            return ExitCode::from(2);
        }
    };
    let report = |name: &str, nodes: u64, secs: f64| {
        println!(
            "perft {name}: depth {depth} {nodes} nodes in {secs:.3} s ({:.1} Mnodes/s)",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    };
    let runs = if who == "both" { 3 } else { 1 };
    for _ in 0..runs {
        if who == "ours" || who == "both" {
            let t = std::time::Instant::now();
            let n = chess960_core::perft::perft(&ours, depth);
            report("chess960-core", n, t.elapsed().as_secs_f64());
        }
        if who == "shakmaty" || who == "both" {
            let t = std::time::Instant::now();
            let n = shakmaty::perft(&theirs, depth);
            report("shakmaty", n, t.elapsed().as_secs_f64());
        }
    }
    ExitCode::SUCCESS
}
