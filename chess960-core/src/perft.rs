//! Perft: counting the leaves of the legal move tree, for testing move generation.
//!
//! ```
//! use chess960_core::{perft, Position};
//!
//! let pos = Position::startpos();
//! assert_eq!(perft::perft(&pos, 3), 8902);
//! let divided = perft::divide(&pos, 2);
//! assert_eq!(divided.len(), 20);
//! assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 400);
//! ```

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The number of leaf nodes `depth` plies deep (the last ply counted, not listed:
/// [`Position::count_legal_moves`]).
///
/// The tree is walked without Zobrist keys ([`Position::without_key`]): nothing compares
/// its positions.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if pos.keeps_key() {
        count(&pos.clone().without_key(), depth)
    } else {
        count(pos, depth)
    }
}

fn count(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.generate_legal(&mut moves);
            moves
                .iter()
                .map(|&m| count(&pos.played_unchecked(m), depth - 1))
                .sum()
        }
    }
}

/// Perft split by first move: each legal move with the leaf count below it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let root = pos.clone().without_key();
    root.legal_moves()
        .iter()
        .map(|&m| (m, count(&root.played_unchecked(m), depth - 1)))
        .collect()
}

/// One position of a perft suite with its expected node counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The `id` of the entry, or its 1-based line number.
    pub id: String,
    /// The FEN (4 or 6 fields).
    pub fen: String,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
    /// The 1-based line the FEN is on.
    pub line: usize,
}

/// Why a perft suite cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn parse_count(text: &str, line: usize) -> Result<u64, SuiteError> {
    text.trim().parse().map_err(|_| SuiteError {
        line,
        message: format!("expected a node count, found {:?}", text.trim()),
    })
}

fn parse_depth(text: &str, line: usize) -> Result<u32, SuiteError> {
    text.trim().parse().map_err(|_| SuiteError {
        line,
        message: format!("expected a depth, found {:?}", text.trim()),
    })
}

/// Reads a perft suite in any of the common formats: `id`/`epd`/`perft D N` blocks
/// (python-chess, shakmaty), EPD lines `FEN ;D1 n ;D2 n` (Ethereal), or tab-separated
/// `fen<TAB>depth<TAB>nodes` rows. `#` starts a comment line.
///
/// ```
/// let suite = chess960_core::perft::parse_suite(
///     "id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\n\n\
///      4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 25\n",
/// ).unwrap();
/// assert_eq!(suite.len(), 2);
/// assert_eq!(suite[1].counts, vec![(1, 5), (2, 25)]);
/// ```
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut pending_id: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(id) = trimmed.strip_prefix("id ") {
            pending_id = Some(id.trim().to_string());
        } else if let Some(fen) = trimmed.strip_prefix("epd ") {
            entries.push(SuiteEntry {
                id: pending_id.take().unwrap_or_else(|| line.to_string()),
                fen: fen.trim().to_string(),
                counts: Vec::new(),
                line,
            });
        } else if let Some(rest) = trimmed.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let (Some(depth), Some(nodes)) = (parts.next(), parts.next()) else {
                return Err(SuiteError {
                    line,
                    message: "expected `perft DEPTH NODES`".into(),
                });
            };
            let count = (parse_depth(depth, line)?, parse_count(nodes, line)?);
            match entries.last_mut() {
                Some(entry) => entry.counts.push(count),
                None => {
                    return Err(SuiteError {
                        line,
                        message: "`perft` line before any `epd` line".into(),
                    })
                }
            }
        } else if raw.contains('\t') {
            let cols: Vec<&str> = raw.split('\t').collect();
            if cols.len() < 3 || cols[1].trim() == "depth" {
                continue;
            }
            let count = (parse_depth(cols[1], line)?, parse_count(cols[2], line)?);
            entries.push(SuiteEntry {
                id: line.to_string(),
                fen: cols[0].trim().to_string(),
                counts: vec![count],
                line,
            });
        } else {
            let mut parts = trimmed.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_string();
            let mut counts = Vec::new();
            for op in parts {
                let op = op.trim();
                let Some(rest) = op.strip_prefix('D') else {
                    continue;
                };
                let mut kv = rest.split_whitespace();
                if let (Some(depth), Some(nodes)) = (kv.next(), kv.next()) {
                    counts.push((parse_depth(depth, line)?, parse_count(nodes, line)?));
                }
            }
            entries.push(SuiteEntry {
                id: line.to_string(),
                fen,
                counts,
                line,
            });
        }
    }
    Ok(entries)
}
