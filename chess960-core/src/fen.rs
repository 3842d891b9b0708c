//! FEN, X-FEN and Shredder-FEN: reading (one lenient parser for all three) and writing.
//!
//! The castling field may be `-`, `KQkq` (the outermost rook on that side), file letters
//! (`HAha`, Shredder-FEN), or a mix (`KQbf`); X-FEN writes a file letter only when another
//! rook of that colour stands further out on the same side of the back rank.
//!
//! Writing goes through [`Position::fen`], which takes the [`CastlingStyle`] and gives a
//! [`Fen`] value: it displays as text, appends to a `String` without allocating (whole, or
//! only the fields after the placement), and gives the castling field alone.
//!
//! ```
//! use chess960_core::{CastlingStyle, Position};
//!
//! let pos: Position = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9".parse().unwrap();
//! assert_eq!(pos.to_string(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
//! let shredder = pos.fen(CastlingStyle::Shredder);
//! assert_eq!(shredder.to_string(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
//! assert_eq!(shredder.castling().as_str(), "HFhf");
//! let mut line = String::from("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR");
//! pos.fen(CastlingStyle::Xfen).append_tail_to(&mut line);
//! assert_eq!(line, pos.to_string());
//! assert!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
//! ```

use crate::bitboard::Bitboard;
use crate::board::{Board, PlacementError};
use crate::castling::CastlingRights;
use crate::moves::CastlingSide;
use crate::position::Position;
use crate::types::{Color, File, NotationError, Rank, Role, Square};
use std::fmt;
use std::str::FromStr;

/// One letter of a FEN castling field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingToken {
    /// `K`/`k`: the outermost rook on the king (h) side.
    KingSide(Color),
    /// `Q`/`q`: the outermost rook on the queen (a) side.
    QueenSide(Color),
    /// `A`-`H`/`a`-`h`: the rook on that file of the back rank.
    File(Color, File),
}

impl CastlingToken {
    /// The colour the token belongs to.
    pub fn color(self) -> Color {
        match self {
            CastlingToken::KingSide(c)
            | CastlingToken::QueenSide(c)
            | CastlingToken::File(c, _) => c,
        }
    }

    /// The FEN letter of the token.
    pub fn char(self) -> char {
        let c = match self {
            CastlingToken::KingSide(_) => 'k',
            CastlingToken::QueenSide(_) => 'q',
            CastlingToken::File(_, f) => f.lower_char(),
        };
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }
}

/// The castling letters of a FEN, in the order written (at most 16; no allocation).
pub type CastlingTokens = arrayvec::ArrayVec<CastlingToken, 16>;

/// The first seven white-space-separated fields of a FEN or EPD line, as byte ranges,
/// without allocating (a seventh field after a FEN is trailing text).
///
/// ```
/// use chess960_core::FenFieldSpans;
///
/// let fields = FenFieldSpans::of("  8/8/8/8/8/8/8/8 w - -  bm e4;");
/// assert_eq!(fields.len(), 6);
/// assert_eq!(fields.span(1), Some(18..19));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FenFieldSpans {
    spans: [(usize, usize); 7],
    len: usize,
}

impl FenFieldSpans {
    /// Splits `text` (`&str` or bytes) at ASCII white space (in a `&str`, field edges are
    /// therefore char boundaries).
    pub fn of<T: AsRef<[u8]> + ?Sized>(text: &T) -> FenFieldSpans {
        let bytes = text.as_ref();
        let mut out = FenFieldSpans {
            spans: [(0, 0); 7],
            len: 0,
        };
        let mut i = 0;
        while i < bytes.len() && out.len < out.spans.len() {
            if bytes[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            out.spans[out.len] = (start, i);
            out.len += 1;
        }
        out
    }

    /// How many fields were found (at most seven).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the text holds no field.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The byte range of field `i` (0-based).
    pub fn span(&self, i: usize) -> Option<std::ops::Range<usize>> {
        (i < self.len).then(|| self.spans[i].0..self.spans[i].1)
    }
}

/// The fields of a FEN as written, before the position is checked for legality.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// The castling letters in the order written (at most 16).
    pub castling: CastlingTokens,
    /// The en-passant square as written.
    pub ep_square: Option<Square>,
    /// Half-move clock (0 when absent).
    pub halfmoves: u32,
    /// Full-move number (1 when absent).
    pub fullmoves: u32,
}

impl From<PlacementError> for FenError {
    fn from(e: PlacementError) -> FenError {
        FenError::Placement(e)
    }
}

/// The field of a FEN an error is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenField {
    /// Piece placement.
    Placement,
    /// Side to move.
    Turn,
    /// Castling rights.
    Castling,
    /// En-passant square.
    EnPassant,
    /// Half-move clock.
    Halfmoves,
    /// Full-move number.
    Fullmoves,
}

impl std::fmt::Display for FenField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en-passant",
            FenField::Halfmoves => "half-move clock",
            FenField::Fullmoves => "full-move number",
        })
    }
}

/// Why a FEN is rejected: syntax (with the 1-based column) or an illegal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    /// The text is empty.
    #[error("empty FEN")]
    Empty,
    /// The piece placement cannot be read (the message includes why, so the cause is not
    /// also given as the error's source: it would be printed twice).
    #[error("bad piece placement: {0}")]
    Placement(PlacementError),
    /// A field that is not the expected kind of text.
    #[error("bad {field} field {found:?} at column {column}")]
    BadField {
        /// Which field.
        field: FenField,
        /// What was found.
        found: String,
        /// 1-based column of the field in the FEN.
        column: usize,
    },
    /// More than six fields.
    #[error("unexpected text {found:?} after the FEN at column {column}")]
    TrailingText {
        /// The first extra field.
        found: String,
        /// 1-based column.
        column: usize,
    },
    /// Not exactly one king of a colour.
    #[error("{color} has {count} kings, expected exactly one")]
    KingCount {
        /// The colour.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A pawn on the first or eighth rank.
    #[error("pawn on the back rank at {square}")]
    PawnOnBackRank {
        /// The square.
        square: Square,
    },
    /// More than 16 pieces or more than 8 pawns of a colour.
    #[error("{color} has too many pieces ({pieces} pieces, {pawns} pawns)")]
    TooManyPieces {
        /// The colour.
        color: Color,
        /// Its pieces, pawns included.
        pieces: u32,
        /// Its pawns.
        pawns: u32,
    },
    /// The side that just moved is in check.
    #[error("the side not to move ({color}) is in check")]
    OppositeCheck {
        /// The colour in check.
        color: Color,
    },
    /// A castling letter names a file with no rook of that colour on its back rank.
    #[error(
        "castling letter {letter:?}: no {color} rook to castle with on that side of the back rank"
    )]
    CastlingWithoutRook {
        /// The letter.
        letter: char,
        /// The colour.
        color: Color,
    },
    /// A castling letter of a colour whose king is not on its back rank.
    #[error("castling letter {letter:?}: the {color} king is not on its back rank")]
    CastlingWithoutKing {
        /// The letter.
        letter: char,
        /// The colour.
        color: Color,
    },
    /// Two different rooks named for the same side.
    #[error("castling letter {letter:?}: {color} already has a castling rook on that side")]
    CastlingSideTwice {
        /// The letter.
        letter: char,
        /// The colour.
        color: Color,
    },
    /// An en-passant square no double pawn push can have produced.
    #[error("impossible en-passant square {square}")]
    ImpossibleEnPassant {
        /// The square.
        square: Square,
    },
}

/// A repair made by [`Position::from_setup_lenient`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenRepair {
    /// A castling letter without king or rook was dropped (the error says why).
    DroppedCastling(FenError),
    /// An impossible en-passant square was dropped.
    DroppedEnPassant(Square),
}

/// How castling rights are spelled when writing a FEN: X-FEN or Shredder-FEN.
///
/// Text form `xfen` / `shredder`. Not to be confused with
/// [`CastlingNotation`](crate::CastlingNotation), which spells a castling *move* in UCI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingStyle {
    /// X-FEN: `KQkq`, a file letter only for an inner rook.
    Xfen,
    /// Shredder-FEN: file letters (`HAha`).
    Shredder,
}

impl CastlingStyle {
    /// Both styles, X-FEN first.
    pub const ALL: [CastlingStyle; 2] = [CastlingStyle::Xfen, CastlingStyle::Shredder];

    /// `"xfen"` or `"shredder"`.
    pub const fn name(self) -> &'static str {
        match self {
            CastlingStyle::Xfen => "xfen",
            CastlingStyle::Shredder => "shredder",
        }
    }
}

impl fmt::Display for CastlingStyle {
    /// `xfen` or `shredder`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CastlingStyle {
    type Err = NotationError;

    /// Reads `xfen` or `shredder`.
    fn from_str(text: &str) -> Result<CastlingStyle, NotationError> {
        CastlingStyle::ALL
            .into_iter()
            .find(|style| style.name() == text)
            .ok_or(NotationError::new("castling style (xfen or shredder)"))
    }
}

/// Gives the decimal digits of `n` to `push`.
fn push_number(push: &mut impl FnMut(u8), n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits[i..].iter().for_each(|&d| push(d));
}

/// The first 32 chars of a field, for an error message.
fn excerpt(found: &[u8]) -> String {
    String::from_utf8_lossy(found).chars().take(32).collect()
}

fn field_error(field: FenField, found: &[u8], column: usize) -> FenError {
    FenError::BadField {
        field,
        found: excerpt(found),
        column,
    }
}

/// A decimal field as `str::parse` reads it.
fn parse_number(text: &[u8]) -> Option<u32> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

impl Setup {
    /// Reads the fields of a FEN, X-FEN or Shredder-FEN (lenient: missing trailing fields
    /// default to `w - - 0 1`, castling letters of any style).
    pub fn from_ascii(text: &[u8]) -> Result<Setup, FenError> {
        // Up to seven fields (the seventh is an error) with their 1-based columns.
        let spans = FenFieldSpans::of(text);
        let field = |i: usize| spans.span(i).map(|r| (&text[r.start..r.end], r.start + 1));
        let Some((placement, _)) = field(0) else {
            return Err(FenError::Empty);
        };
        let board = Board::parse_placement_ascii(placement)?;
        let mut setup = Setup {
            board,
            turn: Color::White,
            castling: CastlingTokens::new(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        if let Some((turn, column)) = field(1) {
            setup.turn = match turn {
                b"w" | b"W" => Color::White,
                b"b" | b"B" => Color::Black,
                _ => return Err(field_error(FenField::Turn, turn, column)),
            };
        }
        if let Some((castling, column)) = field(2) {
            if castling != b"-" {
                for (i, &c) in castling.iter().enumerate() {
                    // Every earlier byte was an ASCII letter, so `i` is also the char index.
                    let c = c as char;
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let token = match c.to_ascii_lowercase() {
                        'k' => CastlingToken::KingSide(color),
                        'q' => CastlingToken::QueenSide(color),
                        l => match File::from_char(l) {
                            Some(file) => CastlingToken::File(color, file),
                            None => {
                                return Err(field_error(FenField::Castling, castling, column + i))
                            }
                        },
                    };
                    if setup.castling.try_push(token).is_err() {
                        return Err(field_error(FenField::Castling, castling, column));
                    }
                }
            }
        }
        if let Some((ep, column)) = field(3) {
            if ep != b"-" {
                setup.ep_square = Some(
                    Square::from_ascii(ep)
                        .map_err(|_| field_error(FenField::EnPassant, ep, column))?,
                );
            }
        }
        if let Some((half, column)) = field(4) {
            setup.halfmoves =
                parse_number(half).ok_or_else(|| field_error(FenField::Halfmoves, half, column))?;
        }
        if let Some((full, column)) = field(5) {
            let n =
                parse_number(full).ok_or_else(|| field_error(FenField::Fullmoves, full, column))?;
            // python-chess and shakmaty read a full-move number of 0 as 1.
            setup.fullmoves = n.max(1);
        }
        if let Some((extra, column)) = field(6) {
            return Err(FenError::TrailingText {
                found: excerpt(extra),
                column,
            });
        }
        Ok(setup)
    }
}

impl FromStr for Setup {
    type Err = FenError;

    /// Reads the fields of a FEN (as [`Setup::from_ascii`]).
    fn from_str(text: &str) -> Result<Setup, FenError> {
        Setup::from_ascii(text.as_bytes())
    }
}

/// Resolves castling tokens against the board; `Err` for the first token that has no
/// king/rook behind it (strict) or a list of dropped ones (lenient).
fn resolve_castling(
    board: &Board,
    tokens: &[CastlingToken],
    strict: bool,
    repairs: &mut Vec<FenRepair>,
) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    for &token in tokens {
        let color = token.color();
        let letter = token.char();
        let rank = color.back_rank();
        let back_rank = Bitboard::rank(rank);
        let rooks = board.by_piece(crate::Piece {
            color,
            role: Role::Rook,
        }) & back_rank;
        let resolved = match board.king_of(color).filter(|k| back_rank.contains(*k)) {
            None => Err(FenError::CastlingWithoutKing { letter, color }),
            Some(king) => {
                let king_file = king.file();
                let rook = match token {
                    CastlingToken::KingSide(_) => rooks.rev().find(|r| r.file() > king_file),
                    CastlingToken::QueenSide(_) => {
                        let mut rooks = rooks;
                        rooks.find(|r| r.file() < king_file)
                    }
                    CastlingToken::File(_, file) => Some(Square::from_coords(file, rank))
                        .filter(|sq| rooks.contains(*sq) && file != king_file),
                };
                match rook {
                    None => Err(FenError::CastlingWithoutRook { letter, color }),
                    Some(rook) => {
                        let side = CastlingSide::of_rook(king_file, rook.file());
                        match rights.rook(color, side) {
                            Some(existing) if existing != rook => {
                                Err(FenError::CastlingSideTwice { letter, color })
                            }
                            _ => {
                                rights.set(color, side, rook);
                                Ok(())
                            }
                        }
                    }
                }
            }
        };
        if let Err(e) = resolved {
            if strict {
                return Err(e);
            }
            repairs.push(FenRepair::DroppedCastling(e));
        }
    }
    Ok(rights)
}

impl Position {
    /// Reads a FEN, X-FEN or Shredder-FEN (`&str` or bytes; lenient syntax as
    /// [`Setup::from_ascii`], strict legality: every castling letter and the en-passant square
    /// must make sense).
    pub fn from_fen(text: impl AsRef<[u8]>) -> Result<Position, FenError> {
        Position::from_setup(&Setup::from_ascii(text.as_ref())?)
    }

    /// Builds a position from FEN fields, rejecting anything illegal.
    pub fn from_setup(setup: &Setup) -> Result<Position, FenError> {
        Position::build(setup, true, &mut Vec::new())
    }

    /// Builds a position from FEN fields, dropping castling letters without king or rook and
    /// impossible en-passant squares (reported as repairs) instead of rejecting them.
    pub fn from_setup_lenient(setup: &Setup) -> Result<(Position, Vec<FenRepair>), FenError> {
        let mut repairs = Vec::new();
        let pos = Position::build(setup, false, &mut repairs)?;
        Ok((pos, repairs))
    }

    fn build(
        setup: &Setup,
        strict: bool,
        repairs: &mut Vec<FenRepair>,
    ) -> Result<Position, FenError> {
        let board = setup.board;
        for color in Color::ALL {
            let ours = board.by_color(color);
            let kings = (board.by_role(Role::King) & ours).count();
            if kings != 1 {
                return Err(FenError::KingCount {
                    color,
                    count: kings,
                });
            }
            let pawns = (board.by_role(Role::Pawn) & ours).count();
            if ours.count() > 16 || pawns > 8 {
                return Err(FenError::TooManyPieces {
                    color,
                    pieces: ours.count(),
                    pawns,
                });
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if let Some(square) = (board.by_role(Role::Pawn) & back_ranks).first() {
            return Err(FenError::PawnOnBackRank { square });
        }
        let castling = resolve_castling(&board, &setup.castling, strict, repairs)?;
        let mut pos = Position {
            board,
            turn: setup.turn,
            castling,
            ep_square: None,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            hash: 0,
            keyed: true,
        };
        let them = setup.turn.other();
        let their_king = pos.king_of(them);
        if board.is_attacked(their_king, setup.turn, board.occupied()) {
            return Err(FenError::OppositeCheck { color: them });
        }
        if let Some(ep) = setup.ep_square {
            if pos.ep_square_is_plausible(ep) {
                if pos.any_legal_en_passant(ep) {
                    pos.ep_square = Some(ep);
                }
            } else if strict {
                return Err(FenError::ImpossibleEnPassant { square: ep });
            } else {
                repairs.push(FenRepair::DroppedEnPassant(ep));
            }
        }
        pos.finish();
        Ok(pos)
    }

    /// Whether a double push of the side not to move can have left `ep` behind.
    fn ep_square_is_plausible(&self, ep: Square) -> bool {
        let us = self.turn;
        if ep.rank() != Rank::Sixth.relative_to(us) {
            return false;
        }
        let forward: i32 = us.fold(8, -8);
        let (Some(pushed), Some(origin)) = (ep.offset(-forward), ep.offset(forward)) else {
            return false;
        };
        let occupied = self.board.occupied();
        self.board
            .by_piece(crate::Piece {
                color: us.other(),
                role: Role::Pawn,
            })
            .contains(pushed)
            && !occupied.contains(ep)
            && !occupied.contains(origin)
    }

    /// The FEN of this position with castling rights spelled in `style`.
    pub fn fen(&self, style: CastlingStyle) -> Fen<'_> {
        Fen { pos: self, style }
    }

    /// Whether classical FEN can express the castling rights: every castling king on e1/e8
    /// with its rooks on the a- and h-files (then the X-FEN is the classical FEN).
    pub fn castling_is_classical(&self) -> bool {
        self.castling.iter().all(|(color, side, rook)| {
            let rank = color.back_rank();
            let expected = match side {
                CastlingSide::KingSide => Square::from_coords(File::H, rank),
                CastlingSide::QueenSide => Square::from_coords(File::A, rank),
            };
            self.king_of(color) == Square::from_coords(File::E, rank) && rook == expected
        })
    }

    /// Gives the castling field's letters (`-` if none) to `push`.
    fn castling_letters(&self, style: CastlingStyle, push: &mut impl FnMut(u8)) {
        let mut any = false;
        for color in Color::ALL {
            let rooks = self.board.by_piece(crate::Piece {
                color,
                role: Role::Rook,
            }) & Bitboard::rank(color.back_rank());
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                let Some(rook) = self.castling.rook(color, side) else {
                    continue;
                };
                let c = match style {
                    CastlingStyle::Shredder => rook.file().lower_char(),
                    CastlingStyle::Xfen => {
                        let outer = match side {
                            CastlingSide::KingSide => rooks.highest(),
                            CastlingSide::QueenSide => rooks.first(),
                        };
                        match (outer == Some(rook), side) {
                            (false, _) => rook.file().lower_char(),
                            (true, CastlingSide::KingSide) => 'k',
                            (true, CastlingSide::QueenSide) => 'q',
                        }
                    }
                } as u8;
                push(color.fold(c.to_ascii_uppercase(), c));
                any = true;
            }
        }
        if !any {
            push(b'-');
        }
    }

    /// The same position with castling rights for every pair of king on its back rank and
    /// outermost rook on either side (what a start position has).
    pub fn with_outermost_castling_rights(&self) -> Position {
        let mut pos = self.clone();
        pos.castling = CastlingRights::NONE;
        for color in Color::ALL {
            let rank = color.back_rank();
            let king = pos.king_of(color);
            if king.rank() != rank {
                continue;
            }
            let rooks = pos.board.by_piece(crate::Piece {
                color,
                role: Role::Rook,
            }) & Bitboard::rank(rank);
            if let Some(r) = rooks.rev().find(|r| r.file() > king.file()) {
                pos.castling.set(color, CastlingSide::KingSide, r);
            }
            if let Some(r) = {
                let mut rooks = rooks;
                rooks.find(|r| r.file() < king.file())
            } {
                pos.castling.set(color, CastlingSide::QueenSide, r);
            }
        }
        if pos.keyed {
            pos.hash = pos.compute_hash();
        }
        pos
    }
}

/// A position's FEN with castling spelled in one [`CastlingStyle`], from [`Position::fen`]:
/// displays as text, appends to a `String` without allocating, gives the castling field.
#[derive(Debug, Clone, Copy)]
pub struct Fen<'a> {
    pos: &'a Position,
    style: CastlingStyle,
}

/// The fields after the placement: space, turn, castling (4), en passant (2), two numbers
/// (10 each) and the spaces between.
type TailBuf = ([u8; 40], usize);

impl Fen<'_> {
    /// Appends the whole FEN to `out`.
    pub fn append_to(&self, out: &mut String) {
        let mut placement = [0u8; 72];
        let len = self.pos.board.write_placement_bytes(&mut placement);
        push_ascii(out, &placement[..len]);
        self.append_tail_to(out);
    }

    /// Appends the fields after the piece placement (` w KQkq - 0 1`): after a placement
    /// already in canonical form, the whole FEN without writing the placement again.
    pub fn append_tail_to(&self, out: &mut String) {
        let (buf, len) = self.tail();
        push_ascii(out, &buf[..len]);
    }

    /// The castling field alone (`KQkq`, `HAha`, `-`).
    pub fn castling(&self) -> CastlingField {
        let mut field = CastlingField {
            bytes: [0; 4],
            len: 0,
        };
        self.pos.castling_letters(self.style, &mut |b| {
            if let Some(slot) = field.bytes.get_mut(usize::from(field.len)) {
                *slot = b;
                field.len += 1;
            }
        });
        field
    }

    fn tail(&self) -> TailBuf {
        let pos = self.pos;
        let mut buf = [0u8; 40];
        let mut at = 0;
        let mut push = |b: u8| {
            if at < buf.len() {
                buf[at] = b;
                at += 1;
            }
        };
        push(b' ');
        push(pos.turn.fold(b'w', b'b'));
        push(b' ');
        pos.castling_letters(self.style, &mut push);
        push(b' ');
        match pos.ep_square {
            Some(ep) => {
                push(ep.file().lower_char() as u8);
                push(ep.rank().char() as u8);
            }
            None => push(b'-'),
        }
        push(b' ');
        push_number(&mut push, pos.halfmoves);
        push(b' ');
        push_number(&mut push, pos.fullmoves);
        (buf, at)
    }
}

/// Appends ASCII bytes (written by this module, so always valid UTF-8).
fn push_ascii(out: &mut String, bytes: &[u8]) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        out.push_str(text);
    }
}

impl fmt::Display for Fen<'_> {
    /// The whole FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut placement = [0u8; 72];
        let len = self.pos.board.write_placement_bytes(&mut placement);
        let (tail, tail_len) = self.tail();
        for part in [&placement[..len], &tail[..tail_len]] {
            f.write_str(std::str::from_utf8(part).map_err(|_| fmt::Error)?)?;
        }
        Ok(())
    }
}

/// The castling field of a FEN (`KQkq`, `HAha`, `-`), on the stack; from [`Fen::castling`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CastlingField {
    bytes: [u8; 4],
    len: u8,
}

impl CastlingField {
    /// The field as text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("-")
    }
}

impl fmt::Display for CastlingField {
    /// The field as text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for CastlingField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_for_missing_fields() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").unwrap();
        assert_eq!(
            pos.to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        );
    }

    #[test]
    fn errors_say_what_and_where() {
        let err = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
        assert!(matches!(
            err,
            Err(FenError::BadField {
                field: FenField::Turn,
                column: 45,
                ..
            })
        ));
        let err = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x");
        assert!(matches!(
            err,
            Err(FenError::TrailingText { column: 58, .. })
        ));
        assert!(matches!(
            Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1"),
            Err(FenError::CastlingWithoutRook { letter: 'K', .. })
        ));
        assert!(matches!(
            Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w Q - 0 1"),
            Err(FenError::CastlingWithoutKing { letter: 'Q', .. })
        ));
        assert!(matches!(
            Position::from_fen("4k3/8/8/8/8/8/8/4K2R b K e3 0 1"),
            Err(FenError::ImpossibleEnPassant { .. })
        ));
        assert_eq!(
            Position::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 0 1").map(|p| p.to_string()),
            Ok("4k3/8/8/8/8/8/8/4K2R b K - 0 1".to_string())
        );
        assert!(matches!(
            Position::from_fen("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
            Err(FenError::OppositeCheck {
                color: Color::Black
            })
        ));
        assert!(matches!(
            Position::from_fen("4k3/8/8/8/8/8/8/4K2P w - - 0 1"),
            Err(FenError::PawnOnBackRank { .. })
        ));
        assert!(matches!(
            Position::from_fen("4k3/8/8/8/8/8/8/4KK2 w - - 0 1"),
            Err(FenError::KingCount { count: 2, .. })
        ));
    }

    #[test]
    fn lenient_drops_bad_castling() {
        let setup = "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1".parse::<Setup>().unwrap();
        let (pos, repairs) = Position::from_setup_lenient(&setup).unwrap();
        assert_eq!(pos.fen(CastlingStyle::Xfen).castling().as_str(), "Q");
        assert_eq!(repairs.len(), 1);
    }

    #[test]
    fn xfen_uses_file_letter_for_inner_rook() {
        // White rooks on a1 and b1, king on c1: castling with the b1 rook is written "B".
        let pos = Position::from_fen("rrk5/8/8/8/8/8/8/RRK5 w Bb - 0 1").unwrap();
        assert_eq!(pos.fen(CastlingStyle::Xfen).castling().as_str(), "Bb");
        assert_eq!(pos.fen(CastlingStyle::Shredder).castling().as_str(), "Bb");
        let pos = Position::from_fen("rrk5/8/8/8/8/8/8/RRK5 w Qq - 0 1").unwrap();
        assert_eq!(pos.fen(CastlingStyle::Shredder).castling().as_str(), "Aa");
        assert!(!pos.castling_is_classical());
    }
}
