//! How a game ends: checkmate, stalemate, dead positions, the 50/75-move rules and
//! three/fivefold repetition.
//!
//! ```
//! use chess960_core::{GameHistory, Outcome, Position, Termination};
//!
//! let mut game = GameHistory::new(Position::startpos());
//! for san in ["f3", "e5", "g4", "Qh4"] {
//!     let m = game.position().parse_san(san).unwrap();
//!     game.play_unchecked(m);
//! }
//! assert_eq!(game.termination(), Some(Termination::Checkmate));
//! assert_eq!(game.outcome().map(|o| o.to_string()), Some("0-1".to_string()));
//! ```

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::{IllegalMoveError, Position};
use crate::types::{Color, Role};
use std::fmt;

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The winner.
        winner: Color,
    },
    /// A draw.
    Draw,
}

impl Outcome {
    /// The PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_pgn(self) -> &'static str {
        match self {
            Outcome::Decisive {
                winner: Color::White,
            } => "1-0",
            Outcome::Decisive {
                winner: Color::Black,
            } => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// Why a game is over (or may be claimed over).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can ever mate (FIDE dead position, for the material cases).
    InsufficientMaterial,
    /// 75 moves (150 plies) without capture or pawn move: drawn automatically.
    SeventyFiveMoves,
    /// The same position for the fifth time: drawn automatically.
    FivefoldRepetition,
    /// 50 moves without capture or pawn move: a draw may be claimed.
    FiftyMoves,
    /// The same position for the third time: a draw may be claimed.
    ThreefoldRepetition,
}

impl Termination {
    /// Whether the game ends by itself (as opposed to a draw a player may claim).
    pub const fn is_automatic(self) -> bool {
        !matches!(
            self,
            Termination::FiftyMoves | Termination::ThreefoldRepetition
        )
    }
}

impl fmt::Display for Termination {
    /// A lower-case description (`checkmate`, `threefold repetition`, ...).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::SeventyFiveMoves => "75-move rule",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::FiftyMoves => "50-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
        })
    }
}

impl Position {
    /// Whether neither side has mating material: K v K, K+minor v K, or only bishops all on
    /// squares of one colour besides the kings.
    pub fn is_insufficient_material(&self) -> bool {
        let board = self.board();
        let heavy = board.by_role(Role::Pawn) | board.rooks_and_queens();
        if heavy.any() {
            return false;
        }
        let minors = board.by_role(Role::Knight) | board.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = board.by_role(Role::Bishop);
        board.by_role(Role::Knight).is_empty()
            && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty())
    }

    /// The termination that holds now without history: checkmate, stalemate, insufficient
    /// material, 75-move rule (in that order).
    pub fn termination(&self) -> Option<Termination> {
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                Termination::Checkmate
            } else {
                Termination::Stalemate
            });
        }
        if self.is_insufficient_material() {
            return Some(Termination::InsufficientMaterial);
        }
        if self.halfmoves() >= 150 {
            return Some(Termination::SeventyFiveMoves);
        }
        None
    }
}

/// A game in progress, for the rules that need its past (repetitions): the current position
/// and the Zobrist keys since the last zeroing move.
#[derive(Debug, Clone)]
pub struct GameHistory {
    position: Position,
    history: Vec<u64>,
}

impl GameHistory {
    /// A game starting from `position`.
    pub fn new(position: Position) -> GameHistory {
        let history = vec![position.zobrist()];
        GameHistory { position, history }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plays `m` if it is legal; otherwise changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if !self.position.is_legal(m) {
            return Err(IllegalMoveError(m));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move without checking it (the precondition of [`Position::play_unchecked`]).
    pub fn play_unchecked(&mut self, m: Move) {
        if m.is_zeroing() {
            self.history.clear();
        }
        self.position.play_unchecked(m);
        self.history.push(self.position.zobrist());
    }

    /// How often the current position has occurred (counting now).
    pub fn repetitions(&self) -> usize {
        let key = self.position.zobrist();
        self.history.iter().filter(|&&k| k == key).count()
    }

    /// The strongest termination that holds now: automatic ones first, then claimable draws.
    pub fn termination(&self) -> Option<Termination> {
        if let Some(t) = self.position.termination() {
            return Some(t);
        }
        let reps = self.repetitions();
        if reps >= 5 {
            Some(Termination::FivefoldRepetition)
        } else if self.position.halfmoves() >= 100 {
            Some(Termination::FiftyMoves)
        } else if reps >= 3 {
            Some(Termination::ThreefoldRepetition)
        } else {
            None
        }
    }

    /// The outcome a termination implies: the side to move loses to checkmate, all else draws.
    pub fn outcome(&self) -> Option<Outcome> {
        self.termination().map(|t| match t {
            Termination::Checkmate => Outcome::Decisive {
                winner: self.position.turn().other(),
            },
            _ => Outcome::Draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_positions() {
        for (fen, dead) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
            ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false),
        ] {
            assert_eq!(
                Position::from_fen(fen).unwrap().is_insufficient_material(),
                dead,
                "{fen}"
            );
        }
    }

    #[test]
    fn repetition_and_move_rules() {
        let mut game = GameHistory::new(Position::from_sp(518).unwrap());
        for _ in 0..2 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                let m = game.position().parse_san(san.as_bytes()).unwrap();
                game.play(m).unwrap();
            }
        }
        assert_eq!(game.repetitions(), 3);
        assert_eq!(game.termination(), Some(Termination::ThreefoldRepetition));
        assert_eq!(game.outcome(), Some(Outcome::Draw));
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 150 100").unwrap();
        assert_eq!(pos.termination(), Some(Termination::SeventyFiveMoves));
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 100").unwrap();
        assert_eq!(
            GameHistory::new(pos).termination(),
            Some(Termination::FiftyMoves)
        );
    }
}
