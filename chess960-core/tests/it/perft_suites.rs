//! Perft suites from `../shared/data/perft/` (needs the shared data; skips when absent).
//!
//! Depth is limited by `PGN960_PERFT_DEPTH` (default 4) and entries above
//! `PGN960_PERFT_MAX_NODES` nodes (default 20 million) are left out of the normal run. The
//! full check to depth 6 is
//! `PGN960_PERFT_DEPTH=6 PGN960_PERFT_MAX_NODES=100000000000 cargo test --release -p chess960-core --test perft_suites`.

use chess960_core::perft::{parse_suite, perft};
use chess960_core::Position;

/// Entries our FEN validation rejects on purpose: more than 16 pieces of one colour cannot
/// arise in a game (python-chess and shakmaty count their moves all the same).
const REJECTED: &[&str] = &["max-legals-too-much-material"];

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs every entry of a suite up to the configured depth; returns how many counts matched.
fn check_suite(relative: &str, expected_entries: usize) {
    let Some(text) = test_support::read_shared(module_path!(), relative) else {
        return;
    };
    let max_depth = env_or("PGN960_PERFT_DEPTH", 4) as u32;
    let max_nodes = env_or("PGN960_PERFT_MAX_NODES", 20_000_000);
    let suite = parse_suite(&text).unwrap_or_else(|e| panic!("{relative}: {e}"));
    assert_eq!(suite.len(), expected_entries, "{relative}: entry count");
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in &suite {
        let pos = match Position::from_fen(&entry.fen) {
            Ok(_) if REJECTED.contains(&entry.id.as_str()) => {
                failures.push(format!("{}: expected a rejection", entry.id));
                continue;
            }
            Err(_) if REJECTED.contains(&entry.id.as_str()) => continue,
            Ok(pos) => pos,
            Err(e) => {
                failures.push(format!("{} {}: {e}", entry.id, entry.fen));
                continue;
            }
        };
        for &(depth, nodes) in &entry.counts {
            if depth > max_depth || nodes > max_nodes {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != nodes {
                failures.push(format!(
                    "{} {} depth {depth}: expected {nodes}, got {got}",
                    entry.id, entry.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{relative}: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 0, "{relative}: nothing checked");
    eprintln!("{relative}: {checked} counts match (depth <= {max_depth})");
}

#[test]
fn chess960_mid_game_positions() {
    check_suite("perft/chess960.perft", 960);
}

#[test]
fn chess960_start_positions() {
    check_suite("perft/chess960_startpos.epd", 960);
}

#[test]
fn fischer_epd() {
    check_suite("perft/fischer.epd", 960);
}

#[test]
fn tricky_positions() {
    check_suite("perft/tricky.perft", 26);
}

#[test]
fn tricky_python_chess_positions() {
    check_suite("perft/tricky-python-chess.perft", 19);
}

#[test]
fn standard_positions() {
    check_suite("perft/standard.epd", 128);
}

#[test]
fn random_positions() {
    check_suite("perft/random.perft", 6838);
}

#[test]
fn stockfish_positions() {
    check_suite("perft/stockfish-perft.tsv", 20);
}
