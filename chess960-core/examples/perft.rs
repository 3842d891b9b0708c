//! One-thread perft of a FEN or start-position number, by chess960-core or by shakmaty
//! (`CastlingMode::Chess960`): a small driver for instruction counts under
//! `valgrind --tool=callgrind`.
//!
//! `cargo build --release -p chess960-core --example perft`, then
//! `target/release/examples/perft ours|shakmaty DEPTH FEN|SP`.

use shakmaty::{CastlingMode, Chess};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(who), Some(Ok(depth)), Some(start)) = (
        args.first(),
        args.get(1).map(|d| d.parse::<u32>()),
        args.get(2),
    ) else {
        eprintln!("usage: perft ours|shakmaty DEPTH FEN|SP");
        return ExitCode::from(2);
    };
    let ours = match start.parse::<u16>() {
        Ok(sp) => chess960_core::Position::from_sp(sp).map_err(|e| e.to_string()),
        Err(_) => chess960_core::Position::from_fen(start).map_err(|e| e.to_string()),
    };
    let ours = match ours {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::from(2);
        }
    };
    let t = std::time::Instant::now();
    let nodes = match who.as_str() {
        "ours" => chess960_core::perft::perft(&ours, depth),
        "shakmaty" => {
            let fen = ours.fen(chess960_core::CastlingStyle::Shredder).to_string();
            let theirs: Option<Chess> = fen
                .parse::<shakmaty::fen::Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            let Some(theirs) = theirs else {
                eprintln!("perft: shakmaty rejects {fen}");
                return ExitCode::from(2);
            };
            shakmaty::perft(&theirs, depth)
        }
        _ => {
            eprintln!("usage: perft ours|shakmaty DEPTH FEN|SP");
            return ExitCode::from(2);
        }
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{who}: depth {depth} {nodes} nodes in {secs:.3} s ({:.1} Mnodes/s)",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
