//! Opening books for engine testing (`pgn960 book`): the positions reached after a window of
//! plies of each valid game's main line — kept when the evaluation after that ply is in a
//! window and the material is balanced enough, once per position — or the Chess960 start
//! positions themselves; written as FEN lines (`.epd`) or as PGN games that play the moves
//! from the start, every castling right in one notation.
//!
//! ```
//! use pgn960::book::{book_chunk, sp_entries, BookFormat, BookOptions, Books};
//! use pgn_parse::Origin;
//!
//! let pgn = b"[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 e5 2. Nd3 Nd6 *\n";
//! let options = BookOptions { plies: 2..=3, ..BookOptions::default() };
//! let chunk = book_chunk(pgn, Origin::default(), &options);
//! let mut books = Books::default();
//! books.add(chunk);
//! let lines: Vec<&str> = books.entries.iter().map(|e| e.text.trim_end()).collect();
//! assert_eq!(lines, [
//!     "bbqnnrkr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/BBQNNRKR w KQkq - 0 2",
//!     "bbqnnrkr/pppp1ppp/8/4p3/4P3/3N4/PPPP1PPP/BBQN1RKR b KQkq - 1 2",
//! ]);
//! assert_eq!(books.counts.games_used, 1);
//! let sps = sp_entries(518..=518, &BookOptions { format: BookFormat::Epd, ..BookOptions::default() });
//! assert_eq!(sps[0].text, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
//! ```

use crate::pipeline::ChunkOutput;
use crate::validate::{
    start_fen, validate_chunk, GameKind, MissingVariant, ValidGame, ValidateOptions, Verdict,
};
use chess960_core::{CastlingStyle, Color, Position, Role};
use pgn_parse::{GameResult, Origin, PgnWriter};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::ops::RangeInclusive;

/// How a book is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BookFormat {
    /// One position a line, as a full FEN (the four EPD fields and the two move counters).
    #[default]
    Epd,
    /// One PGN game a position: its start (`FEN` tag) and the moves that reach it, `*`.
    Pgn,
}

/// What goes into a book from an archive.
#[derive(Debug, Clone)]
pub struct BookOptions {
    /// The plies after which positions are taken (1: after white's first move).
    pub plies: RangeInclusive<u32>,
    /// Keep a position only if the evaluation after its last move (white's view, in
    /// pawns; a mate is outside every window) is in this window; positions without an
    /// evaluation are then left out.
    pub eval_window: Option<(f64, f64)>,
    /// Keep a position only if the material of the two sides (pawn 1, knight and bishop
    /// 3, rook 5, queen 9) differs by at most this.
    pub max_imbalance: Option<u32>,
    /// The castling notation of every FEN written.
    pub fen_style: CastlingStyle,
    /// EPD lines or PGN games.
    pub format: BookFormat,
    /// What games without a Variant tag are.
    pub missing_variant: MissingVariant,
    /// Games of more bytes are rejected as `too-large` (0: no limit).
    pub max_game_bytes: usize,
    /// The start taken for a game whose start is ambiguous (`--assume-sp`).
    pub assume_sp: Option<chess960_core::SpPair>,
}

impl Default for BookOptions {
    fn default() -> BookOptions {
        BookOptions {
            plies: 8..=8,
            eval_window: None,
            max_imbalance: None,
            fen_style: CastlingStyle::Xfen,
            format: BookFormat::Epd,
            missing_variant: MissingVariant::Detect,
            max_game_bytes: crate::pipeline::DEFAULT_MAX_GAME_BYTES,
            assume_sp: None,
        }
    }
}

/// One position of a book.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookEntry {
    /// The position's identity: placement, side to move, castling rights and en-passant
    /// square (the move counters are not part of it).
    pub key: String,
    /// Its text as written: a FEN line, or a PGN game with its blank line.
    pub text: String,
}

/// Counts of a book's games and positions: every game read is used, left without a
/// position (with why), invalid or of another variant.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct BookCounts {
    /// Games read.
    pub games_read: u64,
    /// Valid games that gave at least one position.
    pub games_used: u64,
    /// Valid games shorter than the window's first ply.
    pub too_short: u64,
    /// Valid games long enough whose every position was filtered out.
    pub all_filtered: u64,
    /// Games not valid, by reason (and `unsupported-variant`).
    pub not_valid: BTreeMap<&'static str, u64>,
    /// Positions in the window of the games read.
    pub positions: u64,
    /// Left out by the evaluation window (no evaluation, or outside it).
    pub outside_eval_window: u64,
    /// Left out by the material balance.
    pub unbalanced: u64,
    /// Left out as a position already in the book.
    pub duplicates: u64,
    /// Written.
    pub written: u64,
}

impl BookCounts {
    /// Games not valid.
    pub fn not_valid_total(&self) -> u64 {
        self.not_valid.values().sum()
    }
}

/// The candidate positions of one chunk of games, in order, before deduplication.
#[derive(Debug, Default)]
pub struct BookChunk {
    /// The positions that passed the filters.
    pub entries: Vec<BookEntry>,
    /// The chunk's counts (`duplicates` and `written` are the book's to count).
    pub counts: BookCounts,
}

impl ChunkOutput for BookChunk {
    fn games(&self) -> u64 {
        self.counts.games_read
    }
    /// The sink reads no line numbers.
    fn needs_lines(&self) -> bool {
        false
    }
}

/// A book being made: its entries in order, each position once.
#[derive(Debug, Default)]
pub struct Books {
    /// The entries kept.
    pub entries: Vec<BookEntry>,
    /// The counts so far.
    pub counts: BookCounts,
    seen: HashSet<String>,
}

impl Books {
    /// Adds a chunk's positions (in order; a position already in the book is counted as a
    /// duplicate) and counts.
    pub fn add(&mut self, chunk: BookChunk) {
        let c = chunk.counts;
        let total = &mut self.counts;
        total.games_read += c.games_read;
        total.games_used += c.games_used;
        total.too_short += c.too_short;
        total.all_filtered += c.all_filtered;
        for (k, v) in c.not_valid {
            *total.not_valid.entry(k).or_default() += v;
        }
        total.positions += c.positions;
        total.outside_eval_window += c.outside_eval_window;
        total.unbalanced += c.unbalanced;
        for entry in chunk.entries {
            if self.seen.insert(entry.key.clone()) {
                total.written += 1;
                self.entries.push(entry);
            } else {
                total.duplicates += 1;
            }
        }
    }
}

/// Validates the games of a chunk and takes the positions of the valid ones (see
/// [`BookOptions`]).
pub fn book_chunk(bytes: &[u8], origin: Origin, options: &BookOptions) -> BookChunk {
    let validate = ValidateOptions {
        moves: true,
        missing_variant: options.missing_variant,
        max_game_bytes: options.max_game_bytes,
        assume_sp: options.assume_sp,
        ..ValidateOptions::default()
    };
    let mut chunk = BookChunk::default();
    validate_chunk(bytes, origin, &validate, false, |judged| {
        chunk.counts.games_read += 1;
        match &judged.verdict {
            Verdict::Valid(valid) => game_positions(valid, options, &mut chunk),
            Verdict::Unsupported(_) => {
                *chunk
                    .counts
                    .not_valid
                    .entry("unsupported-variant")
                    .or_default() += 1
            }
            Verdict::Invalid(r) => *chunk.counts.not_valid.entry(r.reason.name()).or_default() += 1,
        }
    });
    chunk
}

/// The positions of one valid game's window that pass the filters, into `chunk`.
fn game_positions(valid: &ValidGame, options: &BookOptions, chunk: &mut BookChunk) {
    let counts = &mut chunk.counts;
    if valid.plies < *options.plies.start() {
        counts.too_short += 1;
        return;
    }
    let mut position = valid.start.clone();
    let mut used = false;
    for (i, record) in valid.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        if ply > *options.plies.end() {
            break;
        }
        position.play_unchecked(record.chess_move);
        if ply < *options.plies.start() {
            continue;
        }
        counts.positions += 1;
        if let Some((low, high)) = options.eval_window {
            let eval = record
                .annotations
                .eval
                .map(|e| e.capped_pawns(f64::INFINITY));
            if !eval.is_some_and(|e| low <= e && e <= high) {
                counts.outside_eval_window += 1;
                continue;
            }
        }
        if options
            .max_imbalance
            .is_some_and(|max| imbalance(&position) > max)
        {
            counts.unbalanced += 1;
            continue;
        }
        used = true;
        let text = match options.format {
            BookFormat::Epd => fen_line(&position, options.fen_style),
            BookFormat::Pgn => pgn_game(valid, ply as usize, options.fen_style),
        };
        chunk.entries.push(BookEntry {
            key: position_key(&position),
            text,
        });
    }
    if used {
        counts.games_used += 1;
    } else {
        counts.all_filtered += 1;
    }
}

/// The difference of the two sides' material (pawn 1, minor 3, rook 5, queen 9).
pub fn imbalance(position: &Position) -> u32 {
    let board = position.board();
    let material = |color: Color| -> i64 {
        [
            (Role::Pawn, 1),
            (Role::Knight, 3),
            (Role::Bishop, 3),
            (Role::Rook, 5),
            (Role::Queen, 9),
        ]
        .iter()
        .map(|&(role, value)| {
            let pieces = board.by_role(role) & board.by_color(color);
            i64::from(pieces.count()) * value
        })
        .sum()
    };
    (material(Color::White) - material(Color::Black)).unsigned_abs() as u32
}

/// The position's identity: its X-FEN without the move counters.
fn position_key(position: &Position) -> String {
    let fen = position.fen(CastlingStyle::Xfen).to_string();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// The position as a FEN line.
fn fen_line(position: &Position, style: CastlingStyle) -> String {
    let mut line = String::new();
    position.fen(style).append_to(&mut line);
    line.push('\n');
    line
}

/// A PGN game from the start of `valid` through its first `plies` moves, result `*`.
fn pgn_game(valid: &ValidGame, plies: usize, style: CastlingStyle) -> String {
    let mut text = Vec::new();
    let mut w = PgnWriter::new(&mut text);
    // Writing into a Vec cannot fail.
    let _ = (|| -> std::io::Result<()> {
        start_tags(&mut w, valid.kind, &valid.start, valid.had_fen, style)?;
        w.begin_movetext(valid.start.fullmoves(), valid.start.turn() == Color::White)?;
        for record in valid.moves.iter().take(plies) {
            w.san(record.san.to_ascii().as_bytes())?;
        }
        w.end_game(GameResult::Unknown)
    })();
    text.push(b'\n');
    String::from_utf8_lossy(&text).into_owned()
}

/// The seven-tag roster (unknown values, result `*`) and the start's tags.
fn start_tags(
    w: &mut PgnWriter<&mut Vec<u8>>,
    kind: GameKind,
    start: &Position,
    had_fen: bool,
    style: CastlingStyle,
) -> std::io::Result<()> {
    w.begin_game()?;
    for (name, value) in pgn_parse::SEVEN_TAG_ROSTER {
        let value = if name == b"Result" { &b"*"[..] } else { value };
        w.tag(name, value)?;
    }
    if kind == GameKind::Chess960 {
        w.tag(b"Variant", b"Chess960")?;
    }
    if kind == GameKind::Chess960 || had_fen {
        w.tag(b"SetUp", b"1")?;
        w.tag(b"FEN", start_fen(kind, start, style).as_bytes())?;
    }
    Ok(())
}

/// The Chess960 start positions `sps` (numbers above 959 are left out) as book entries.
pub fn sp_entries(sps: RangeInclusive<u16>, options: &BookOptions) -> Vec<BookEntry> {
    sps.filter_map(|sp| Position::from_sp(sp).ok())
        .map(|position| {
            let text = match options.format {
                BookFormat::Epd => fen_line(&position, options.fen_style),
                BookFormat::Pgn => {
                    let mut text = Vec::new();
                    let mut w = PgnWriter::new(&mut text);
                    let _ = start_tags(
                        &mut w,
                        GameKind::Chess960,
                        &position,
                        true,
                        options.fen_style,
                    )
                    .and_then(|()| w.begin_movetext(1, true))
                    .and_then(|()| w.end_game(GameResult::Unknown));
                    text.push(b'\n');
                    String::from_utf8_lossy(&text).into_owned()
                }
            };
            BookEntry {
                key: position_key(&position),
                text,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_filters_and_duplicates_are_counted() {
        let game = "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 { [%eval 0.3] } d5 { [%eval 0.2] } 2. exd5 { [%eval 1.5] } *\n\n";
        let short = "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 *\n\n";
        let bad = "[Variant \"Chess960\"]\n\n1. Zz9 *\n\n";
        let pgn = format!("{game}{game}{short}{bad}");
        let options = BookOptions {
            plies: 2..=3,
            eval_window: Some((-1.0, 1.0)),
            max_imbalance: Some(0),
            ..BookOptions::default()
        };
        let mut books = Books::default();
        books.add(book_chunk(pgn.as_bytes(), Origin::default(), &options));
        let c = &books.counts;
        assert_eq!((c.games_read, c.games_used, c.too_short), (4, 2, 1));
        assert_eq!(c.not_valid_total(), 1);
        assert_eq!(
            c.games_used + c.too_short + c.all_filtered + c.not_valid_total(),
            4
        );
        // Ply 3 (exd5) is +1.5 and a pawn up: out of the window first.
        assert_eq!(
            (c.positions, c.outside_eval_window, c.unbalanced),
            (4, 2, 0)
        );
        assert_eq!((c.written, c.duplicates), (1, 1));
        let pgn_options = BookOptions {
            format: BookFormat::Pgn,
            fen_style: CastlingStyle::Shredder,
            ..options
        };
        let mut books = Books::default();
        books.add(book_chunk(game.as_bytes(), Origin::default(), &pgn_options));
        let text = &books.entries[0].text;
        assert!(
            text.contains("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]"),
            "{text}"
        );
        assert!(text.contains("1. e4 d5 *"), "{text}");
    }

    #[test]
    fn imbalance_counts_material() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/PPP5/R3K3 w Q - 0 1").unwrap();
        assert_eq!(imbalance(&pos), 8);
        assert_eq!(imbalance(&Position::from_sp(0).unwrap()), 0);
    }
}
