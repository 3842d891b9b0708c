//! A chess position under Chess960 rules, legal move generation and making moves.
//!
//! ```
//! use chess960_core::Position;
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! let e4 = pos.parse_san("e4").unwrap();
//! pos.play(e4).unwrap();
//! assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! // A move that is not legal here is refused and changes nothing.
//! assert!(pos.play(e4).is_err());
//! ```

use crate::attacks::{self, aligned, between, line};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::CastlingRights;
use crate::fen::{CastlingStyle, FenError};
use crate::moves::{CastlingSide, Move, MoveList};
use crate::types::{Color, Piece, Rank, Role, Square};
use crate::zobrist;

/// A legal chess position: placement, side to move, castling rights, en passant, clocks.
///
/// Every `Position` was validated when it was built (one king per side, no pawns on the back
/// ranks, the side not to move not in check, castling rights backed by king and rook), and
/// moves from [`Position::legal_moves`] keep it so.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    /// Set only when an en-passant capture is legal.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
}

impl Position {
    /// The piece placement.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant square, only if an en-passant capture is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number, starting at 1 and increased after each black move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist key of the position (pieces, side to move, castling rights, legal en passant).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The king of `color`.
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        // A validated position always has exactly one king of each colour.
        self.board.king_of(color).unwrap_or(Square::A1)
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let king = self.king_of(self.turn);
        self.board
            .attackers_to(king, self.turn.other(), self.board.occupied())
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move has at least one legal move (king steps are tried first,
    /// so this is usually much cheaper than generating every move).
    pub fn has_legal_moves(&self) -> bool {
        let mut moves = MoveList::new();
        self.gen_king_steps(self.king_of(self.turn), &mut moves);
        if !moves.is_empty() {
            return true;
        }
        self.generate_legal(&mut moves);
        !moves.is_empty()
    }

    /// Computes the Zobrist key from scratch.
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut hash = zobrist::turn_key(self.turn);
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                for sq in self.board.by_piece(piece) {
                    hash ^= zobrist::piece_key(piece, sq);
                }
            }
        }
        for (_, _, rook) in self.castling.iter() {
            hash ^= zobrist::castling_key(rook);
        }
        if let Some(ep) = self.ep_square {
            hash ^= zobrist::en_passant_key(ep);
        }
        hash
    }

    /// Our pieces that shield our king from an enemy slider (pinned pieces).
    #[inline]
    fn pinned(&self, us: Color, king: Square) -> Bitboard {
        let them = self.board.by_color(us.other());
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY)
            & self.board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & self.board.bishops_and_queens()))
            & them;
        let occupied = self.board.occupied();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.board.by_color(us)
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_legal(&mut moves);
        moves
    }

    /// Appends all legal moves to `moves`.
    pub fn generate_legal(&self, moves: &mut MoveList) {
        let us = self.turn;
        let king = self.king_of(us);
        let checkers = self.checkers();
        let ours = self.board.by_color(us);
        let pinned = self.pinned(us, king);

        self.gen_king_steps(king, moves);
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.single_square() {
            Some(checker) => between(king, checker) | checker,
            None => {
                self.gen_castling(king, moves);
                !ours
            }
        };
        self.gen_pieces(king, pinned, target, moves);
        self.gen_pawns(king, pinned, target, moves);
        if let Some(ep) = self.ep_square {
            self.gen_en_passant(ep, moves);
        }
    }

    fn gen_king_steps(&self, king: Square, moves: &mut MoveList) {
        let us = self.turn;
        let them = us.other();
        let occupied_without_king = self.board.occupied().without(king);
        for to in attacks::king_attacks(king) & !self.board.by_color(us) {
            if !self.board.is_attacked(to, them, occupied_without_king) {
                moves.push(Move::Normal {
                    role: Role::King,
                    from: king,
                    capture: self.board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }

    fn gen_pieces(&self, king: Square, pinned: Bitboard, target: Bitboard, moves: &mut MoveList) {
        let us = self.turn;
        let ours = self.board.by_color(us);
        let occupied = self.board.occupied();
        let theirs = self.board.by_color(us.other());
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in self.board.by_role(role) & ours {
                let mut to_squares = match role {
                    Role::Knight => attacks::knight_attacks(from),
                    Role::Bishop => attacks::bishop_attacks(from, occupied),
                    Role::Rook => attacks::rook_attacks(from, occupied),
                    _ => attacks::queen_attacks(from, occupied),
                } & target;
                if pinned.contains(from) {
                    to_squares &= line(king, from);
                }
                for to in to_squares {
                    let capture = if theirs.contains(to) {
                        self.board.role_at(to)
                    } else {
                        None
                    };
                    moves.push(Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion: None,
                    });
                }
            }
        }
    }

    fn push_pawn_move(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
        if matches!(to.rank(), Rank::First | Rank::Eighth) {
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(promotion),
                });
            }
        } else {
            moves.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: None,
            });
        }
    }

    fn gen_pawns(&self, king: Square, pinned: Bitboard, target: Bitboard, moves: &mut MoveList) {
        let us = self.turn;
        let pawns = self.board.by_role(Role::Pawn) & self.board.by_color(us);
        let theirs = self.board.by_color(us.other());
        let empty = !self.board.occupied();
        let forward: i32 = us.fold(8, -8);
        let double_rank = Bitboard::rank(Rank::Third.relative_to(us));
        for from in pawns {
            let allowed = if pinned.contains(from) {
                target & line(king, from)
            } else {
                target
            };
            for to in attacks::pawn_attacks(us, from) & theirs & allowed {
                Self::push_pawn_move(moves, from, to, self.board.role_at(to));
            }
            let Some(one) = from.offset(forward) else {
                continue;
            };
            if !empty.contains(one) {
                continue;
            }
            if allowed.contains(one) {
                Self::push_pawn_move(moves, from, one, None);
            }
            if double_rank.contains(one) {
                if let Some(two) = one.offset(forward) {
                    if empty.contains(two) && allowed.contains(two) {
                        moves.push(Move::Normal {
                            role: Role::Pawn,
                            from,
                            capture: None,
                            to: two,
                            promotion: None,
                        });
                    }
                }
            }
        }
    }

    /// Whether the pawn on `from` may legally capture en passant onto `ep`.
    pub(crate) fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.turn;
        let king = self.king_of(us);
        let captured = Square::from_coords(ep.file(), from.rank());
        let occupied = (self.board.occupied() ^ from ^ captured) | ep;
        let them = self.board.by_color(us.other()).without(captured);
        let sliders = (attacks::rook_attacks(king, occupied) & self.board.rooks_and_queens())
            | (attacks::bishop_attacks(king, occupied) & self.board.bishops_and_queens());
        let leapers = (attacks::knight_attacks(king) & self.board.by_role(Role::Knight))
            | (attacks::pawn_attacks(us, king) & self.board.by_role(Role::Pawn))
            | (attacks::king_attacks(king) & self.board.by_role(Role::King));
        ((sliders | leapers) & them).is_empty()
    }

    fn gen_en_passant(&self, ep: Square, moves: &mut MoveList) {
        let us = self.turn;
        let pawns = self.board.by_role(Role::Pawn) & self.board.by_color(us);
        for from in attacks::pawn_attacks(us.other(), ep) & pawns {
            if self.en_passant_is_legal(from, ep) {
                moves.push(Move::EnPassant { from, to: ep });
            }
        }
    }

    /// The castling move on `side`, if it is legal now.
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        let king = self.king_of(self.turn);
        if self.is_check() {
            return None;
        }
        self.castling_if_legal(king, side)
    }

    /// Castling on `side` assuming the side to move is not in check.
    fn castling_if_legal(&self, king: Square, side: CastlingSide) -> Option<Move> {
        let us = self.turn;
        let rook = self.castling.rook(us, side)?;
        let rank = us.back_rank();
        let king_to = side.king_to(rank);
        let rook_to = side.rook_to(rank);
        let king_path = between(king, king_to) | king_to;
        let rook_path = between(rook, rook_to) | rook_to;
        let occupied = self.board.occupied() ^ king ^ rook;
        if ((king_path | rook_path) & occupied).any() {
            return None;
        }
        let them = us.other();
        for sq in king_path {
            if self.board.is_attacked(sq, them, occupied) {
                return None;
            }
        }
        Some(Move::Castle { king, rook })
    }

    fn gen_castling(&self, king: Square, moves: &mut MoveList) {
        for side in CastlingSide::ALL {
            if let Some(m) = self.castling_if_legal(king, side) {
                moves.push(m);
            }
        }
    }

    /// Whether `m` is legal here (from any source: a move list of another position, user input).
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Whether the pseudo-legal move `from`→`to` of a non-king piece keeps our king safe.
    ///
    /// `from` must hold a piece of the side to move that is not the king.
    pub(crate) fn non_king_move_is_safe(
        &self,
        from: Square,
        to: Square,
        checkers: Bitboard,
    ) -> bool {
        let us = self.turn;
        let king = self.king_of(us);
        if let Some(checker) = checkers.single_square() {
            if !(between(king, checker) | checker).contains(to) {
                return false;
            }
        } else if checkers.any() {
            return false;
        }
        // Only an enemy slider on a ray of the king can pin anything (small tables first).
        let them = self.board.by_color(us.other()).without(to);
        let snipers = ((attacks::rook_rays(king) & self.board.rooks_and_queens())
            | (attacks::bishop_rays(king) & self.board.bishops_and_queens()))
            & them;
        if snipers.is_empty() {
            return true;
        }
        let ray = line(king, from);
        if ray.is_empty() || aligned(king, from, to) {
            return true;
        }
        // Only a slider of the line's kind, on the line, can pin `from`.
        let orthogonal = king.file() == from.file() || king.rank() == from.rank();
        let sliders = if orthogonal {
            self.board.rooks_and_queens()
        } else {
            self.board.bishops_and_queens()
        };
        let occupied = self.board.occupied().without(from) | to;
        // A sniper with nothing between it and the king once `from` has left.
        !Iterator::any(&mut (sliders & them & ray), |sniper| {
            (between(king, sniper) & occupied).is_empty()
        })
    }

    /// Whether the king of the side to move can step to `to` (not onto own pieces, not attacked).
    pub(crate) fn king_step_is_safe(&self, to: Square) -> bool {
        let us = self.turn;
        let king = self.king_of(us);
        !self.board.by_color(us).contains(to)
            && attacks::king_attacks(king).contains(to)
            && !self
                .board
                .is_attacked(to, us.other(), self.board.occupied().without(king))
    }

    /// Plays `m` if it is legal here; otherwise leaves the position as it was.
    ///
    /// Checking legality generates the legal moves: replaying moves that are known to be
    /// legal (from [`Position::legal_moves`], [`Position::parse_san`],
    /// [`Position::parse_uci`]) is faster with [`Position::play_unchecked`].
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if !self.is_legal(m) {
            return Err(IllegalMoveError(m));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// The position after `m`, if it is legal here.
    pub fn played(&self, m: Move) -> Result<Position, IllegalMoveError> {
        let mut next = self.clone();
        next.play(m)?;
        Ok(next)
    }

    /// Plays a move without checking it.
    ///
    /// Precondition: `m` is legal here, as every move returned by [`Position::legal_moves`],
    /// [`Position::parse_san`] and [`Position::parse_uci`] is. Playing any other move is
    /// memory-safe but leaves the position inconsistent (wrong pieces, rights or key).
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = us.other();
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant_key(ep);
        }
        self.halfmoves += 1;
        let old_rights = self.castling;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => self.play_normal(role, from, capture, to, promotion),
            Move::EnPassant { from, to } => self.play_en_passant(from, to),
            Move::Castle { king, rook } => self.play_castle(king, rook),
        }
        if old_rights != self.castling {
            for (_, _, sq) in old_rights.iter() {
                self.hash ^= zobrist::castling_key(sq);
            }
            for (_, _, sq) in self.castling.iter() {
                self.hash ^= zobrist::castling_key(sq);
            }
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        self.hash ^= zobrist::turn_key(Color::Black);
        // After the turn changes: the en-passant square belongs to the new side to move.
        if let Some(ep) = self.ep_square {
            if !self.any_legal_en_passant(ep) {
                self.ep_square = None;
            } else {
                self.hash ^= zobrist::en_passant_key(ep);
            }
        }
    }

    /// The position after `m`, without checking it (the precondition of
    /// [`Position::play_unchecked`]).
    pub fn played_unchecked(&self, m: Move) -> Position {
        let mut next = self.clone();
        next.play_unchecked(m);
        next
    }

    /// The pieces of a normal move (promotions included), the clock, the rights it removes
    /// and a double push's en-passant candidate.
    #[inline(always)]
    fn play_normal(
        &mut self,
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    ) {
        let us = self.turn;
        let mover = Piece { color: us, role };
        if let Some(captured) = capture {
            let victim = Piece {
                color: us.other(),
                role: captured,
            };
            self.board.take(to, victim);
            self.hash ^= zobrist::piece_key(victim, to);
            self.halfmoves = 0;
        }
        self.board.take(from, mover);
        self.hash ^= zobrist::piece_key(mover, from);
        let placed = Piece {
            color: us,
            role: promotion.unwrap_or(role),
        };
        self.board.put(to, placed);
        self.hash ^= zobrist::piece_key(placed, to);
        match role {
            Role::King => self.castling.clear_color(us),
            Role::Pawn => {
                self.halfmoves = 0;
                if from.index().abs_diff(to.index()) == 16 {
                    let passed = Square::new_masked(((from.index() + to.index()) / 2) as u32);
                    self.set_ep_if_capturable(passed);
                }
            }
            _ => {}
        }
        if self.castling != CastlingRights::NONE {
            self.clear_rights_on(from);
            self.clear_rights_on(to);
        }
    }

    /// The pieces of an en-passant capture (rare: kept off the hot path).
    #[cold]
    #[inline(never)]
    fn play_en_passant(&mut self, from: Square, to: Square) {
        let us = self.turn;
        let captured = Square::from_coords(to.file(), from.rank());
        let pawn = Piece {
            color: us,
            role: Role::Pawn,
        };
        let victim = Piece {
            color: us.other(),
            role: Role::Pawn,
        };
        self.board.take(captured, victim);
        self.board.take(from, pawn);
        self.board.put(to, pawn);
        self.hash ^= zobrist::piece_key(victim, captured)
            ^ zobrist::piece_key(pawn, from)
            ^ zobrist::piece_key(pawn, to);
        self.halfmoves = 0;
    }

    /// The pieces and rights of castling (rare: kept off the hot path).
    #[cold]
    #[inline(never)]
    fn play_castle(&mut self, king: Square, rook: Square) {
        let us = self.turn;
        let side = CastlingSide::of_rook(king.file(), rook.file());
        let rank = us.back_rank();
        let (king_to, rook_to) = (side.king_to(rank), side.rook_to(rank));
        let k = Piece {
            color: us,
            role: Role::King,
        };
        let r = Piece {
            color: us,
            role: Role::Rook,
        };
        self.board.take(king, k);
        self.board.take(rook, r);
        self.board.put(king_to, k);
        self.board.put(rook_to, r);
        self.hash ^= zobrist::piece_key(k, king)
            ^ zobrist::piece_key(r, rook)
            ^ zobrist::piece_key(k, king_to)
            ^ zobrist::piece_key(r, rook_to);
        self.castling.clear_color(us);
    }

    fn clear_rights_on(&mut self, sq: Square) {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.castling.rook(color, side) == Some(sq) {
                    self.castling.clear(color, side);
                }
            }
        }
    }

    /// Records `passed` as a candidate en-passant square if an enemy pawn attacks it.
    fn set_ep_if_capturable(&mut self, passed: Square) {
        let capturers = attacks::pawn_attacks(self.turn, passed)
            & self.board.by_role(Role::Pawn)
            & self.board.by_color(self.turn.other());
        if capturers.any() {
            self.ep_square = Some(passed);
        }
    }

    /// Whether the side to move has a legal en-passant capture onto `ep`.
    pub(crate) fn any_legal_en_passant(&self, ep: Square) -> bool {
        let us = self.turn;
        let pawns = self.board.by_role(Role::Pawn) & self.board.by_color(us);
        let mut candidates = attacks::pawn_attacks(us.other(), ep) & pawns;
        Iterator::any(&mut candidates, |from| self.en_passant_is_legal(from, ep))
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft(self, depth)
    }
}

/// The error of [`Position::play`]: the move is not legal in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("illegal move {0}")]
pub struct IllegalMoveError(pub Move);

impl Default for Position {
    /// The classical start position (SP 518), as [`Position::startpos`].
    fn default() -> Position {
        Position::startpos()
    }
}

impl std::fmt::Debug for Position {
    /// The Shredder-FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.fen(CastlingStyle::Shredder), f)
    }
}

impl std::fmt::Display for Position {
    /// The X-FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.fen(CastlingStyle::Xfen), f)
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;

    /// Reads a FEN, X-FEN or Shredder-FEN (as [`Position::from_fen`]).
    fn from_str(text: &str) -> Result<Position, FenError> {
        Position::from_fen(text)
    }
}
