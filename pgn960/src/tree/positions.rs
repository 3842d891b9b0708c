//! `tree --positions`: games counted by the positions their first plies reach (keyed by
//! start position and Zobrist key, shown as X-FEN), so transpositions meet. Each game
//! counts once per position even if it reaches it twice.

use super::table::{performance, NodeRow};
use super::{GameOutcome, NodeCounts, Overflow, Pruning};
use crate::stats::TextFormat;
use chess960_core::{Color, Position};
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;

/// The CSV header of a positions table.
pub const HEADER: [&str; 19] = [
    "sp",
    "ply",
    "zobrist",
    "xfen",
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "white_score",
    "mean_white_elo",
    "mean_black_elo",
    "performance",
    "mean_eval",
    "rated_games",
    "white_elo_sum",
    "black_elo_sum",
    "rated_white_half_points",
    "eval_games",
    "eval_centipawns",
];

/// A position one game reached.
pub struct Reached {
    key: u64,
    ply: u32,
    xfen: String,
    eval: Option<i64>,
}

impl Reached {
    /// `pos`, reached after `ply` plies, with the evaluation there.
    pub fn new(pos: &Position, ply: u32, eval: Option<i64>) -> Reached {
        // X-FEN without the move counters: the position, not the moves that led there.
        let fen = pos.to_string();
        let xfen = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        Reached {
            key: pos.zobrist(),
            ply,
            xfen,
            eval,
        }
    }
}

/// One position's counts.
#[derive(Debug, Clone)]
struct Entry {
    /// The fewest plies it was reached in.
    ply: u32,
    xfen: String,
    counts: NodeCounts,
}

/// Positions by (SP, Zobrist key).
#[derive(Debug, Default)]
pub struct PositionTable {
    entries: HashMap<(u16, u64), Entry>,
}

/// One position as a row.
#[derive(Debug, Serialize)]
struct PositionRow {
    sp: u16,
    ply: u32,
    zobrist: String,
    xfen: String,
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    white_score: Option<f64>,
    mean_white_elo: Option<f64>,
    mean_black_elo: Option<f64>,
    performance: Option<f64>,
    mean_eval: Option<f64>,
    rated_games: u64,
    white_elo_sum: u64,
    black_elo_sum: u64,
    rated_white_half_points: u64,
    eval_games: u64,
    eval_centipawns: i64,
}

impl PositionTable {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds a game of `sp` that reached `reached` (in order).
    pub fn add_game(&mut self, sp: u16, reached: &[Reached], game: GameOutcome) {
        for (i, r) in reached.iter().enumerate() {
            if reached[..i].iter().any(|e| e.key == r.key) {
                continue;
            }
            let entry = self.entries.entry((sp, r.key)).or_insert_with(|| Entry {
                ply: r.ply,
                xfen: r.xfen.clone(),
                counts: NodeCounts::default(),
            });
            entry.ply = entry.ply.min(r.ply);
            entry.counts.add(game, r.eval);
        }
    }

    /// Adds a chunk's table in key order: positions held are added to; new ones are
    /// created while fewer than `budget` are held, else dropped (a position left out once
    /// is never created later, so every position held is exact).
    pub fn merge(
        &mut self,
        other: PositionTable,
        budget: usize,
        p: &mut Pruning,
    ) -> Result<(), Overflow> {
        let mut theirs: Vec<_> = other.entries.into_iter().collect();
        theirs.sort_by_key(|(k, _)| *k);
        for (key, entry) in theirs {
            if let Some(ours) = self.entries.get_mut(&key) {
                ours.ply = ours.ply.min(entry.ply);
                if ours.counts.checked_merge(&entry.counts).is_none() {
                    return Err(Overflow);
                }
            } else if self.entries.len() < budget {
                self.entries.insert(key, entry);
            } else {
                p.nodes_dropped += 1;
                p.game_tails_dropped += entry.counts.games;
            }
        }
        Ok(())
    }

    /// Writes positions with at least `min_games` games: by SP, then ply, most games first.
    pub fn write(
        &self,
        out: &mut impl Write,
        format: TextFormat,
        min_games: u64,
    ) -> std::io::Result<()> {
        let mut rows: Vec<(&(u16, u64), &Entry)> = self
            .entries
            .iter()
            .filter(|(_, e)| e.counts.games >= min_games)
            .collect();
        rows.sort_by(|a, b| {
            (
                a.0 .0,
                a.1.ply,
                std::cmp::Reverse(a.1.counts.games),
                &a.1.xfen,
            )
                .cmp(&(
                    b.0 .0,
                    b.1.ply,
                    std::cmp::Reverse(b.1.counts.games),
                    &b.1.xfen,
                ))
        });
        let rows = rows
            .into_iter()
            .map(|(&(sp, key), e)| position_row(sp, key, e));
        match format {
            TextFormat::Csv => {
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(&mut *out);
                w.write_record(HEADER)?;
                for row in rows {
                    w.serialize(row)?;
                }
                w.flush()?;
            }
            TextFormat::Json => {
                let rows: Vec<PositionRow> = rows.collect();
                serde_json::to_writer_pretty(&mut *out, &rows)?;
                out.write_all(b"\n")?;
            }
        }
        Ok(())
    }
}

/// The row of a position reached from `sp` (`key`: its Zobrist key).
fn position_row(sp: u16, key: u64, e: &Entry) -> PositionRow {
    // The side that moved into the position is the one not to move in it.
    let mover = if e.xfen.split(' ').nth(1) == Some("w") {
        Color::Black
    } else {
        Color::White
    };
    let r = NodeRow::new(
        sp,
        String::new(),
        String::new(),
        String::new(),
        None,
        &e.counts,
        true,
    );
    PositionRow {
        sp,
        ply: e.ply,
        zobrist: format!("{key:016x}"),
        xfen: e.xfen.clone(),
        games: r.games,
        white_wins: r.white_wins,
        draws: r.draws,
        black_wins: r.black_wins,
        white_score: r.white_score,
        mean_white_elo: r.mean_white_elo,
        mean_black_elo: r.mean_black_elo,
        performance: performance(&e.counts, mover),
        mean_eval: r.mean_eval,
        rated_games: r.rated_games,
        white_elo_sum: r.white_elo_sum,
        black_elo_sum: r.black_elo_sum,
        rated_white_half_points: r.rated_white_half_points,
        eval_games: r.eval_games,
        eval_centipawns: r.eval_centipawns,
    }
}
