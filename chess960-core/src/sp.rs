//! Chess960 start positions and their numbers 0..959 (Scharnagl's scheme, SP 518 = RNBQKBNR).
//!
//! ```
//! use chess960_core::{BackRank, Position, StartKind};
//!
//! assert_eq!(BackRank::from_sp(518).unwrap().to_string(), "RNBQKBNR");
//! assert_eq!("BBQNNRKR".parse::<BackRank>().unwrap().sp(), Ok(0));
//! let pos = Position::from_sp(959).unwrap();
//! assert_eq!(pos.to_string(), "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1");
//! assert_eq!(pos.classify_start().kind, StartKind::Chess960(959));
//! assert_eq!(Position::startpos(), Position::from_sp(518).unwrap());
//! ```

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::CastlingRights;
use crate::position::Position;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use std::fmt;
use std::str::FromStr;

/// The number of Chess960 start positions (SP numbers are 0..SP_COUNT).
pub const SP_COUNT: u16 = 960;

/// The eight pieces of a back rank, file a to h.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BackRank(pub [Role; 8]);

impl fmt::Display for BackRank {
    /// Eight upper-case letters, file a first (`RNBQKBNR`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for role in self.0 {
            write!(f, "{}", role.upper_char())?;
        }
        Ok(())
    }
}

/// Why a back rank or SP number is not a Chess960 start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpError {
    /// The number is not in 0..=959.
    #[error("SP {0} is out of range (0 to 959)")]
    OutOfRange(u32),
    /// The text is not eight piece letters.
    #[error("a back rank is 8 letters of K, Q, R, B, N; found {0:?}")]
    Malformed(String),
    /// The pieces are not K, Q, 2 R, 2 B, 2 N.
    #[error("a back rank has one king, one queen and two each of rooks, bishops and knights")]
    WrongPieces,
    /// Both bishops stand on squares of one colour.
    #[error("both bishops stand on squares of the same colour")]
    BishopsSameColor,
    /// The king does not stand between the rooks.
    #[error("the king does not stand between the rooks")]
    KingNotBetweenRooks,
}

/// Knight placements on the five squares left after bishops and queen, indexed by N5N code.
const KNIGHT_PAIRS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

impl BackRank {
    /// The classical arrangement, SP 518.
    pub const STANDARD: BackRank = BackRank([
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Queen,
        Role::King,
        Role::Bishop,
        Role::Knight,
        Role::Rook,
    ]);

    /// The back rank of start position `sp`.
    pub fn from_sp(sp: u16) -> Result<BackRank, SpError> {
        if sp >= SP_COUNT {
            return Err(SpError::OutOfRange(sp.into()));
        }
        let mut rank: [Option<Role>; 8] = [None; 8];
        let mut n = sp as usize;
        rank[2 * (n % 4) + 1] = Some(Role::Bishop);
        n /= 4;
        rank[2 * (n % 4)] = Some(Role::Bishop);
        n /= 4;
        let place_on_free = |rank: &mut [Option<Role>; 8], index: usize, role: Role| {
            if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(index) {
                *slot = Some(role);
            }
        };
        place_on_free(&mut rank, n % 6, Role::Queen);
        n /= 6;
        let (k1, k2) = KNIGHT_PAIRS[n];
        // Place the second knight first so the first one's index is not shifted.
        place_on_free(&mut rank, k2, Role::Knight);
        place_on_free(&mut rank, k1, Role::Knight);
        for role in [Role::Rook, Role::King, Role::Rook] {
            place_on_free(&mut rank, 0, role);
        }
        let mut out = [Role::Pawn; 8];
        for (slot, role) in out.iter_mut().zip(rank) {
            *slot = role.unwrap_or(Role::Pawn);
        }
        Ok(BackRank(out))
    }

    /// The SP number of this back rank, checking the Chess960 rules.
    pub fn sp(&self) -> Result<u16, SpError> {
        let roles = self.0;
        let count = |r: Role| roles.iter().filter(|&&x| x == r).count();
        if count(Role::King) != 1
            || count(Role::Queen) != 1
            || count(Role::Rook) != 2
            || count(Role::Bishop) != 2
            || count(Role::Knight) != 2
        {
            return Err(SpError::WrongPieces);
        }
        // Files of the two bishops and the two rooks, and the king's (no allocation: this
        // runs twice for every game whose start is classified).
        let (mut bishops, mut rooks, mut king) = ([0usize; 2], [0usize; 2], 0);
        let (mut nb, mut nr) = (0, 0);
        for (file, &role) in roles.iter().enumerate() {
            match role {
                Role::Bishop => {
                    bishops[nb] = file;
                    nb += 1;
                }
                Role::Rook => {
                    rooks[nr] = file;
                    nr += 1;
                }
                Role::King => king = file,
                _ => {}
            }
        }
        let (Some(&b_dark), Some(&b_light)) = (
            bishops.iter().find(|&&f| f % 2 == 0),
            bishops.iter().find(|&&f| f % 2 == 1),
        ) else {
            return Err(SpError::BishopsSameColor);
        };
        if !(rooks[0] < king && king < rooks[1]) {
            return Err(SpError::KingNotBetweenRooks);
        }
        // The queen's index among the six pieces that are not bishops, and the knights'
        // among the five left without the queen.
        let (mut queen, mut knights, mut nk, mut seen, mut rest) = (0, [0usize; 2], 0, 0, 0);
        for &role in roles.iter().filter(|&&r| r != Role::Bishop) {
            if role == Role::Queen {
                queen = seen;
            } else {
                if role == Role::Knight {
                    knights[nk] = rest;
                    nk += 1;
                }
                rest += 1;
            }
            seen += 1;
        }
        let knight_code = KNIGHT_PAIRS
            .iter()
            .position(|&(a, b)| a == knights[0] && b == knights[1])
            .unwrap_or(0);
        Ok((((knight_code * 6 + queen) * 4 + b_dark / 2) * 4 + b_light / 2) as u16)
    }
}

impl FromStr for BackRank {
    type Err = SpError;

    /// Reads a back rank written as 8 piece letters of either case (`RNBQKBNR`); whether it is
    /// a Chess960 arrangement is for [`BackRank::sp`] to say.
    fn from_str(text: &str) -> Result<BackRank, SpError> {
        let malformed = || SpError::Malformed(text.chars().take(16).collect());
        if text.chars().count() != 8 {
            return Err(malformed());
        }
        let mut roles = [Role::Pawn; 8];
        for (slot, c) in roles.iter_mut().zip(text.chars()) {
            *slot = Role::from_char(c)
                .filter(|r| *r != Role::Pawn)
                .ok_or_else(malformed)?;
        }
        Ok(BackRank(roles))
    }
}

/// A board with `white` and `black` back ranks, pawns in front.
fn start_board(white: &BackRank, black: &BackRank) -> Board {
    let mut board = Board::empty();
    for file in File::ALL {
        let i = file.index() as usize;
        for (color, rank, pawn_rank, role) in [
            (Color::White, Rank::First, Rank::Second, white.0[i]),
            (Color::Black, Rank::Eighth, Rank::Seventh, black.0[i]),
        ] {
            board.put(Square::from_coords(file, rank), Piece { color, role });
            board.put(
                Square::from_coords(file, pawn_rank),
                Piece {
                    color,
                    role: Role::Pawn,
                },
            );
        }
    }
    board
}

impl Position {
    /// The classical start position, SP 518 (also [`Position::default`]).
    pub fn startpos() -> Position {
        Position::from_back_ranks(&BackRank::STANDARD, &BackRank::STANDARD)
    }

    /// The Chess960 start position `sp` (0..=959), with full castling rights.
    pub fn from_sp(sp: u16) -> Result<Position, SpError> {
        Position::from_sp_pair(sp, sp)
    }

    /// The Double Chess960 start with white's arrangement `white` and black's `black`
    /// (both 0..=959), with full castling rights.
    pub fn from_sp_pair(white: u16, black: u16) -> Result<Position, SpError> {
        Ok(Position::from_back_ranks(
            &BackRank::from_sp(white)?,
            &BackRank::from_sp(black)?,
        ))
    }

    /// The start with these back ranks, pawns in front, full castling rights.
    fn from_back_ranks(white: &BackRank, black: &BackRank) -> Position {
        let board = start_board(white, black);
        let mut pos = Position {
            board,
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
            keyed: true,
        }
        .with_outermost_castling_rights();
        pos.finish();
        pos
    }

    /// Whether this is a Chess960 start, a Double Chess960 start, or neither (clocks are
    /// ignored; white must be to move with no en-passant square), and whether the castling
    /// rights are a start's.
    pub fn classify_start(&self) -> StartClassification {
        let not_a_start = StartClassification {
            kind: StartKind::NotAStart,
            castling_is_full: false,
        };
        if self.turn() != Color::White || self.ep_square().is_some() {
            return not_a_start;
        }
        let (Some(white), Some(black)) = (
            arrangement(self.board(), Color::White),
            arrangement(self.board(), Color::Black),
        ) else {
            return not_a_start;
        };
        let kind = if white == black {
            StartKind::Chess960(white)
        } else {
            StartKind::DoubleChess960 { white, black }
        };
        let full: CastlingRights = self.with_outermost_castling_rights().castling_rights();
        StartClassification {
            kind,
            castling_is_full: full == self.castling_rights(),
        }
    }
}

/// What kind of start a position is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StartKind {
    /// A Chess960 start: both sides have the same arrangement, SP number given.
    Chess960(u16),
    /// A Double Chess960 start: both arrangements legal, but different.
    DoubleChess960 {
        /// White's SP.
        white: u16,
        /// Black's SP (of the mirrored arrangement).
        black: u16,
    },
    /// Not a start position.
    NotAStart,
}

/// The result of [`Position::classify_start`]: the kind of start and whether the castling rights are those
/// a start has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartClassification {
    /// Which start, if any.
    pub kind: StartKind,
    /// Whether the castling rights equal the full rights of that start (always `false` for
    /// [`StartKind::NotAStart`]).
    pub castling_is_full: bool,
}

/// The arrangement of `color`'s back rank, if it is a legal Chess960 arrangement with all
/// eight pawns in front of it.
fn arrangement(board: &Board, color: Color) -> Option<u16> {
    let rank = color.back_rank();
    let pawn_rank = Rank::Second.relative_to(color);
    let ours = board.by_color(color);
    let pawns = board.by_role(Role::Pawn) & ours;
    if pawns != Bitboard::rank(pawn_rank) || ours.count() != 16 {
        return None;
    }
    let mut roles = [Role::Pawn; 8];
    for file in File::ALL {
        let piece = board.piece_at(Square::from_coords(file, rank))?;
        if piece.color != color {
            return None;
        }
        roles[file.index() as usize] = piece.role;
    }
    BackRank(roles).sp().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SP number of a back rank written as 8 letters.
    fn sp_from_back_rank(text: &str) -> Result<u16, SpError> {
        text.parse::<BackRank>()?.sp()
    }

    #[test]
    fn every_sp_round_trips_through_its_back_rank() {
        for sp in 0..SP_COUNT {
            let rank = BackRank::from_sp(sp).unwrap();
            assert_eq!(rank.sp(), Ok(sp), "{rank}");
            assert_eq!(sp_from_back_rank(&rank.to_string()), Ok(sp));
        }
        assert_eq!(BackRank::from_sp(0).unwrap().to_string(), "BBQNNRKR");
        assert_eq!(BackRank::from_sp(518).unwrap().to_string(), "RNBQKBNR");
        assert_eq!(BackRank::from_sp(959).unwrap().to_string(), "RKRNNQBB");
        assert_eq!(BackRank::from_sp(960), Err(SpError::OutOfRange(960)));
        assert_eq!(BackRank::from_sp(518), Ok(BackRank::STANDARD));
        assert_eq!(Position::startpos(), Position::from_sp(518).unwrap());
        assert_eq!(Position::default(), Position::startpos());
    }

    #[test]
    fn illegal_back_ranks_are_rejected_with_the_rule_broken() {
        assert_eq!(
            sp_from_back_rank("RNBQKBNRX"),
            Err(SpError::Malformed("RNBQKBNRX".into()))
        );
        assert_eq!(sp_from_back_rank("RNBKQBNR").map(|_| ()), Ok(()));
        assert_eq!(
            sp_from_back_rank("RBNBKQNR"),
            Err(SpError::BishopsSameColor)
        );
        assert_eq!(
            sp_from_back_rank("KRNBBQNR"),
            Err(SpError::KingNotBetweenRooks)
        );
        assert_eq!(sp_from_back_rank("RNNQKBNR"), Err(SpError::WrongPieces));
    }

    #[test]
    fn classify_distinguishes_double_chess960_and_castling() {
        let pos =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert_eq!(pos.classify_start().kind, StartKind::Chess960(518));
        assert!(pos.classify_start().castling_is_full);
        let pos =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1").unwrap();
        assert!(!pos.classify_start().castling_is_full);
        let pos =
            Position::from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert_eq!(
            pos.classify_start().kind,
            StartKind::DoubleChess960 {
                white: 518,
                black: 0
            }
        );
        let pos =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(pos.classify_start().kind, StartKind::NotAStart);
    }
}
