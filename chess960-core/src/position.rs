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

use crate::attacks::{self, between, line};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::CastlingRights;
use crate::fen::{CastlingStyle, FenError};
use crate::moves::{CastlingSide, Move, MoveList};
use crate::types::{Color, Piece, Rank, Role, Square};
use crate::zobrist;
use arrayvec::ArrayVec;

/// A legal chess position: placement, side to move, castling rights, en passant, clocks.
///
/// Every `Position` was validated when it was built (one king per side, no pawns on the back
/// ranks, the side not to move not in check, castling rights backed by king and rook), and
/// moves from [`Position::legal_moves`] keep it so. Unless [`Position::without_key`] turned
/// it off, it also keeps its Zobrist key. What legality needs (checkers, pinned pieces) is
/// computed where it is used, so that making a move does only the move.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    /// Set only when an en-passant capture is legal.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    /// The Zobrist key, kept up to date only when `keyed`.
    pub(crate) hash: u64,
    pub(crate) keyed: bool,
}

// Positions are shared across threads (parallel perft, the validation pipeline): no cache
// with interior mutability may make them lose `Send + Sync`.
const _: () = {
    const fn shared_across_threads<T: Send + Sync>() {}
    shared_across_threads::<Position>();
};

/// The king safety of the side to move's non-king moves to one target square (not en
/// passant), for each origin: from [`Position::king_shield`].
#[derive(Clone, Copy)]
pub(crate) struct KingShield {
    /// Our king.
    king: Square,
    /// Whether an enemy knight or pawn not on the target gives check (no move there helps).
    leaper_check: bool,
    /// Enemy rooks, bishops and queens on the king's lines, not on the target.
    sliders: Bitboard,
    /// The occupied squares with the target filled.
    occupied: Bitboard,
}

impl KingShield {
    /// Whether moving our piece on `from` to the target keeps the king safe: no enemy
    /// knight or pawn gives check, and a piece stands between each enemy slider and the
    /// king once `from` is vacated.
    #[inline(always)]
    pub(crate) fn allows(&self, from: Square) -> bool {
        let occupied = self.occupied.without(from);
        let mut sliders = self.sliders;
        !self.leaper_check && sliders.all(|slider| (between(self.king, slider) & occupied).any())
    }
}

/// What legal move generation needs to know about the side to move's king.
#[derive(Clone, Copy)]
struct Legality {
    /// Enemy pieces giving check.
    checkers: Bitboard,
    /// Our pieces that alone shield the king from an enemy slider.
    pinned: Bitboard,
}

impl PartialEq for Position {
    /// Equal placement, side to move, rights, en passant and clocks (whether the key is
    /// kept does not matter).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.turn.hash(state);
        self.castling.hash(state);
        self.ep_square.hash(state);
        self.halfmoves.hash(state);
        self.fullmoves.hash(state);
    }
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
    ///
    /// Kept up to date by make-move, or computed here from scratch after
    /// [`Position::without_key`].
    #[inline]
    pub fn zobrist(&self) -> u64 {
        if self.keyed {
            self.hash
        } else {
            self.compute_hash()
        }
    }

    /// The same position with make-move no longer updating the Zobrist key, for callers
    /// that never compare positions (perft, a replay without repetition detection):
    /// [`Position::zobrist`] then computes the key from scratch each time it is asked.
    ///
    /// ```
    /// use chess960_core::Position;
    /// let mut keyed = Position::startpos();
    /// let mut plain = Position::startpos().without_key();
    /// for san in ["Nf3", "d5", "g3"] {
    ///     keyed.play_unchecked(keyed.parse_san(san).unwrap());
    ///     plain.play_unchecked(plain.parse_san(san).unwrap());
    /// }
    /// assert!(!plain.keeps_key());
    /// assert_eq!(keyed, plain);
    /// assert_eq!(keyed.zobrist(), plain.zobrist());
    /// assert_eq!(plain.with_key().zobrist(), keyed.zobrist());
    /// ```
    pub fn without_key(mut self) -> Position {
        self.keyed = false;
        self
    }

    /// The same position with make-move keeping the Zobrist key up to date (the default).
    pub fn with_key(mut self) -> Position {
        if !self.keyed {
            self.hash = self.compute_hash();
            self.keyed = true;
        }
        self
    }

    /// Whether make-move keeps the Zobrist key up to date (see [`Position::without_key`]).
    #[inline]
    pub fn keeps_key(&self) -> bool {
        self.keyed
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
        let us = self.turn;
        self.board
            .attackers_to(self.king_of(us), us.other(), self.board.occupied())
    }

    /// Pieces of the side to move pinned to their king: each is the only piece between the
    /// king and an enemy rook, bishop or queen on its line.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.legality().pinned
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Computes the key (kept from now on): every constructor ends here.
    pub(crate) fn finish(&mut self) {
        self.keyed = true;
        self.hash = self.compute_hash();
    }

    /// The checkers and pinned pieces: one pass over the enemy sliders on the king's lines
    /// (small tables, no magic lookup) finds both.
    #[inline(always)]
    fn legality(&self) -> Legality {
        let us = self.turn;
        let king = self.king_of(us);
        let board = &self.board;
        let theirs = board.by_color(us.other());
        let occupied = board.occupied();
        let snipers = ((attacks::rook_rays(king) & board.rooks_and_queens())
            | (attacks::bishop_rays(king) & board.bishops_and_queens()))
            & theirs;
        let mut checkers = ((attacks::knight_attacks(king) & board.by_role(Role::Knight))
            | (attacks::pawn_attacks(us, king) & board.by_role(Role::Pawn)))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers |= sniper;
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        Legality {
            checkers,
            pinned: pinned & board.by_color(us),
        }
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move has at least one legal move: a quick test of the unpinned
    /// pieces first, then the king's steps, then every move (the king's steps worked out
    /// once).
    pub fn has_legal_moves(&self) -> bool {
        if self.has_unpinned_piece_move() {
            return true;
        }
        let steps = self.safe_king_steps(self.king_of(self.turn));
        if steps.any() {
            return true;
        }
        let mut count = MoveCount(0);
        self.generate_with_king_steps(&mut count, steps);
        count.0 > 0
    }

    /// A test that is enough, not necessary, for [`Position::has_legal_moves`], from small
    /// tables alone (the king steps' magic lookups missed the cache at the end of each game):
    /// not in check, and an unpinned pawn with the square ahead empty, or an unpinned knight,
    /// bishop, rook or queen with a square next to it in one of its directions not ours.
    /// Such a move cannot expose the king.
    #[inline]
    fn has_unpinned_piece_move(&self) -> bool {
        let Legality { checkers, pinned } = self.legality();
        if checkers.any() {
            return false;
        }
        let board = &self.board;
        let ours = board.by_color(self.turn);
        let free = ours & !pinned;
        let pawns = board.by_role(Role::Pawn) & free;
        if (pawns.shift_up_for(self.turn) & !board.occupied()).any() {
            return true;
        }
        let mut pieces = free & !board.by_role(Role::Pawn) & !board.by_role(Role::King);
        Iterator::any(&mut pieces, |from| {
            let reach = match board.role_at(from) {
                Some(Role::Knight) => attacks::knight_attacks(from),
                Some(Role::Bishop) => attacks::king_attacks(from) & attacks::bishop_rays(from),
                Some(Role::Rook) => attacks::king_attacks(from) & attacks::rook_rays(from),
                Some(Role::Queen) => attacks::king_attacks(from),
                _ => Bitboard::EMPTY,
            };
            (reach & !ours).any()
        })
    }

    /// The number of legal moves, counted without listing them (perft's last ply).
    ///
    /// ```
    /// use chess960_core::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.count_legal_moves(), 20);
    /// ```
    pub fn count_legal_moves(&self) -> usize {
        let mut count = MoveCount(0);
        self.generate(&mut count);
        count.0
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

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_legal(&mut moves);
        moves
    }

    /// Appends all legal moves to `moves`.
    pub fn generate_legal(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    /// The one legal move generator, listing into a [`MoveList`] or counting.
    #[inline(always)]
    fn generate<S: MoveSink>(&self, sink: &mut S) {
        self.generate_with_king_steps(sink, self.safe_king_steps(self.king_of(self.turn)));
    }

    /// [`Position::generate`] with the king's safe steps (`steps`) already worked out.
    #[inline(always)]
    fn generate_with_king_steps<S: MoveSink>(&self, sink: &mut S, steps: Bitboard) {
        let us = self.turn;
        let king = self.king_of(us);
        let Legality { checkers, pinned } = self.legality();
        let theirs = self.board.by_color(us.other());
        sink.piece_moves(&self.board, Role::King, king, steps, theirs);
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.single_square() {
            Some(checker) => between(king, checker) | checker,
            None => {
                if self.castling.has_color(us) {
                    self.gen_castling(king, sink);
                }
                !self.board.by_color(us)
            }
        };
        self.gen_pieces(king, pinned, target, sink);
        self.gen_pawns(king, pinned, target, sink);
        if let Some(ep) = self.ep_square {
            self.gen_en_passant(ep, sink);
        }
    }

    /// The squares the king of the side to move can step to safely.
    #[inline]
    fn safe_king_steps(&self, king: Square) -> Bitboard {
        let board = &self.board;
        let us = self.turn;
        let theirs = board.by_color(us.other());
        let occupied = board.occupied().without(king);
        let rooks = board.rooks_and_queens() & theirs;
        let bishops = board.bishops_and_queens() & theirs;
        let knights = board.by_role(Role::Knight) & theirs;
        let pawns = board.by_role(Role::Pawn) & theirs;
        let their_king = board.by_role(Role::King) & theirs;
        let mut safe = Bitboard::EMPTY;
        for to in attacks::king_attacks(king) & !board.by_color(us) {
            let attacked = (attacks::knight_attacks(to) & knights)
                | (attacks::pawn_attacks(us, to) & pawns)
                | (attacks::king_attacks(to) & their_king)
                | (attacks::rook_attacks(to, occupied) & rooks)
                | (attacks::bishop_attacks(to, occupied) & bishops);
            if attacked.is_empty() {
                safe |= to;
            }
        }
        safe
    }

    /// Knight, bishop, rook and queen moves onto `target` (pinned pieces along their line).
    #[inline(always)]
    fn gen_pieces<S: MoveSink>(
        &self,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) {
        let board = &self.board;
        let us = self.turn;
        let ours = board.by_color(us);
        let theirs = board.by_color(us.other());
        let occupied = board.occupied();
        // A pinned knight can never move.
        for from in board.by_role(Role::Knight) & ours & !pinned {
            let to = attacks::knight_attacks(from) & target;
            sink.piece_moves(board, Role::Knight, from, to, theirs);
        }
        for (role, lookup) in [
            (
                Role::Bishop,
                attacks::bishop_attacks as fn(Square, Bitboard) -> Bitboard,
            ),
            (Role::Rook, attacks::rook_attacks),
            (Role::Queen, attacks::queen_attacks),
        ] {
            for from in board.by_role(role) & ours {
                let mut to = lookup(from, occupied) & target;
                if pinned.contains(from) {
                    to &= line(king, from);
                }
                sink.piece_moves(board, role, from, to, theirs);
            }
        }
    }

    /// Pawn pushes and captures onto `target`: every unpinned pawn at once by shifting
    /// bitboards, pinned pawns one by one along their line.
    #[inline(always)]
    fn gen_pawns<S: MoveSink>(
        &self,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) {
        let board = &self.board;
        let us = self.turn;
        let pawns = board.by_role(Role::Pawn) & board.by_color(us);
        let theirs = board.by_color(us.other());
        let empty = !board.occupied();
        let last = Bitboard::rank(Rank::Eighth.relative_to(us));
        for from in pawns & pinned {
            let allowed = target & line(king, from);
            for to in attacks::pawn_attacks(us, from) & theirs & allowed {
                Self::push_pawn_move(sink, from, to, board.role_at(to));
            }
            let Some(one) = from.offset(us.fold(8, -8)) else {
                continue;
            };
            if !empty.contains(one) {
                continue;
            }
            if allowed.contains(one) {
                Self::push_pawn_move(sink, from, one, None);
            }
            let two = (Bitboard::from(one) & Bitboard::rank(Rank::Third.relative_to(us)))
                .shift_up_for(us)
                & empty
                & allowed;
            if let Some(two) = two.first() {
                Self::push_pawn_move(sink, from, two, None);
            }
        }
        let free = pawns & !pinned;
        let not_a = !Bitboard::file(crate::types::File::A);
        let not_h = !Bitboard::file(crate::types::File::H);
        let third = Bitboard::rank(Rank::Third.relative_to(us));
        let one = free.shift_up_for(us) & empty;
        let two = (one & third).shift_up_for(us) & empty & target;
        let (west, east, forward) = match us {
            Color::White => (
                Bitboard((free & not_a).0 << 7),
                Bitboard((free & not_h).0 << 9),
                8,
            ),
            Color::Black => (
                Bitboard((free & not_a).0 >> 9),
                Bitboard((free & not_h).0 >> 7),
                -8,
            ),
        };
        let (west_delta, east_delta) = us.fold((7, 9), (-9, -7));
        sink.pawn_moves(board, west & theirs & target, west_delta, true, last);
        sink.pawn_moves(board, east & theirs & target, east_delta, true, last);
        sink.pawn_moves(board, one & target, forward, false, last);
        sink.pawn_moves(board, two, 2 * forward, false, Bitboard::EMPTY);
    }

    /// One pawn move (four if it promotes).
    fn push_pawn_move<S: MoveSink>(sink: &mut S, from: Square, to: Square, capture: Option<Role>) {
        let promotes = matches!(to.rank(), Rank::First | Rank::Eighth);
        push_pawn(sink, from, to, capture, promotes);
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

    #[cold]
    #[inline(never)]
    fn gen_en_passant<S: MoveSink>(&self, ep: Square, moves: &mut S) {
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

    #[cold]
    #[inline(never)]
    fn gen_castling<S: MoveSink>(&self, king: Square, moves: &mut S) {
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

    /// Whether the pseudo-legal move `from`→`to` of a non-king piece keeps our king safe
    /// (not en passant: see [`Position::en_passant_is_legal`]).
    ///
    /// `from` must hold a piece of the side to move that is not the king. The king is safe
    /// when no enemy piece but one captured on `to` attacks it once `from` is vacated and `to`
    /// filled: small tables only, no magic lookup.
    #[inline]
    pub(crate) fn non_king_move_is_safe(&self, from: Square, to: Square) -> bool {
        self.king_shield(to).allows(from)
    }

    /// What decides whether our non-king moves to `to` keep the king safe, worked out once
    /// for every piece that may make the move (see [`Position::non_king_move_is_safe`]).
    #[inline(always)]
    pub(crate) fn king_shield(&self, to: Square) -> KingShield {
        let us = self.turn;
        let king = self.king_of(us);
        let board = &self.board;
        let them = board.by_color(us.other()).without(to);
        let leapers = (attacks::knight_attacks(king) & board.by_role(Role::Knight))
            | (attacks::pawn_attacks(us, king) & board.by_role(Role::Pawn));
        let sliders = ((attacks::rook_rays(king) & board.rooks_and_queens())
            | (attacks::bishop_rays(king) & board.bishops_and_queens()))
            & them;
        KingShield {
            king,
            leaper_check: (leapers & them).any(),
            sliders,
            occupied: board.occupied() | to,
        }
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
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        if self.keyed {
            self.play_move::<true>(m);
        } else {
            self.play_move::<false>(m);
        }
    }

    /// Make-move: pieces, rights, en passant, clocks, turn, and the key when `KEY`.
    #[inline(always)]
    fn play_move<const KEY: bool>(&mut self, m: Move) {
        let us = self.turn;
        if let Some(ep) = self.ep_square.take() {
            self.xor_key::<KEY>(|| zobrist::en_passant_key(ep));
        }
        self.xor_key::<KEY>(|| zobrist::turn_key(Color::Black));
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => self.play_normal::<KEY>(role, from, capture, to, promotion),
            Move::EnPassant { from, to } => self.play_en_passant::<KEY>(from, to),
            Move::Castle { king, rook } => self.play_castle::<KEY>(king, rook),
        }
        self.fullmoves = self.fullmoves.saturating_add(us.fold(0, 1));
        self.turn = us.other();
        // After the turn changes: the en-passant square (set only by a double push that an
        // enemy pawn could capture) belongs to the new side to move.
        if let Some(ep) = self.ep_square {
            self.keep_ep_if_legal::<KEY>(ep);
        }
    }

    /// XORs `key()` into the position's key when `KEY`; otherwise does not even compute it
    /// (its table lookups would stay for their bounds checks).
    #[inline(always)]
    fn xor_key<const KEY: bool>(&mut self, key: impl FnOnce() -> u64) {
        if KEY {
            self.hash ^= key();
        }
    }

    /// What a move changes besides the pieces, to take it back with [`Position::unplay`]
    /// (a few words instead of a copy of the position).
    #[inline(always)]
    pub fn undo_record(&self) -> Undo {
        Undo {
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            hash: self.hash,
        }
    }

    /// Takes back `m`, the move played last, with the [`Undo`] taken just before it
    /// ([`Position::undo_record`]): the position is again the one before the move.
    ///
    /// ```
    /// use chess960_core::Position;
    /// let mut pos = Position::startpos();
    /// let before = pos.clone();
    /// let m = pos.parse_san("e4").unwrap();
    /// let undo = pos.undo_record();
    /// pos.play_unchecked(m);
    /// pos.unplay(m, undo);
    /// assert_eq!((&pos, pos.zobrist()), (&before, before.zobrist()));
    /// ```
    pub fn unplay(&mut self, m: Move, undo: Undo) {
        let us = self.turn.other();
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                // Moving the piece is a set of XORs: doing it again takes it back.
                let moving = Piece { color: us, role };
                let arriving = promotion.unwrap_or(role);
                self.board.move_piece(moving, from, to, arriving, capture);
            }
            Move::EnPassant { from, to } => {
                let pawn = Piece {
                    color: us,
                    role: Role::Pawn,
                };
                self.board.take(to, pawn);
                self.board.put(from, pawn);
                let captured = Square::from_coords(to.file(), from.rank());
                self.board.put(
                    captured,
                    Piece {
                        color: us.other(),
                        role: Role::Pawn,
                    },
                );
            }
            Move::Castle { king, rook } => self.unplay_castle(us, king, rook),
        }
        self.turn = us;
        self.castling = undo.castling;
        self.ep_square = undo.ep_square;
        self.halfmoves = undo.halfmoves;
        self.fullmoves = undo.fullmoves;
        self.hash = undo.hash;
    }

    /// The pieces of `us`'s castling, king on `king` and rook on `rook`, back in place.
    fn unplay_castle(&mut self, us: Color, king: Square, rook: Square) {
        let side = CastlingSide::of_rook(king.file(), rook.file());
        let rank = us.back_rank();
        let (k, r) = (
            Piece {
                color: us,
                role: Role::King,
            },
            Piece {
                color: us,
                role: Role::Rook,
            },
        );
        self.board.take(side.king_to(rank), k);
        self.board.take(side.rook_to(rank), r);
        self.board.put(king, k);
        self.board.put(rook, r);
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
    fn play_normal<const KEY: bool>(
        &mut self,
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    ) {
        let us = self.turn;
        let moving = Piece { color: us, role };
        let arriving = Piece {
            color: us,
            role: promotion.unwrap_or(role),
        };
        self.board
            .move_piece(moving, from, to, arriving.role, capture);
        // The key's update written out, not through `xor_key`: the closure was left out of
        // line, a call per move.
        if KEY {
            let mut key = zobrist::piece_key(moving, from) ^ zobrist::piece_key(arriving, to);
            if let Some(captured) = capture {
                let captured = Piece {
                    color: us.other(),
                    role: captured,
                };
                key ^= zobrist::piece_key(captured, to);
            }
            self.hash ^= key;
        }
        self.halfmoves = if role == Role::Pawn || capture.is_some() {
            0
        } else {
            self.halfmoves + 1
        };
        // From the second rank to the fourth (or the seventh to the fifth) and no other pawn
        // move: the square indices differ in the bit of 16 alone.
        if role == Role::Pawn && from.index() ^ to.index() == 16 {
            self.double_push(from, to);
        }
        // Castling rooks stand on the back ranks: most moves touch neither.
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if ((Bitboard::from(from) | to) & back_ranks).any() && self.castling != CastlingRights::NONE
        {
            self.update_rights::<KEY>(role, from, to);
        }
    }

    /// Records the square a double push passed as en passant, if an enemy pawn attacks it
    /// (rare: kept off the hot path).
    #[cold]
    #[inline(never)]
    fn double_push(&mut self, from: Square, to: Square) {
        let passed = Square::new_masked(((from.index() + to.index()) / 2) as u32);
        self.set_ep_if_capturable(passed);
    }

    /// Keeps `ep` (and its key) only if the side to move can capture onto it legally (rare:
    /// off the hot path).
    #[cold]
    #[inline(never)]
    fn keep_ep_if_legal<const KEY: bool>(&mut self, ep: Square) {
        if self.any_legal_en_passant(ep) {
            self.xor_key::<KEY>(|| zobrist::en_passant_key(ep));
        } else {
            self.ep_square = None;
        }
    }

    /// The pieces of an en-passant capture (rare: kept off the hot path).
    #[cold]
    #[inline(never)]
    fn play_en_passant<const KEY: bool>(&mut self, from: Square, to: Square) {
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
        self.xor_key::<KEY>(|| {
            zobrist::piece_key(victim, captured)
                ^ zobrist::piece_key(pawn, from)
                ^ zobrist::piece_key(pawn, to)
        });
        self.halfmoves = 0;
    }

    /// The pieces and rights of castling (rare: kept off the hot path).
    #[cold]
    #[inline(never)]
    fn play_castle<const KEY: bool>(&mut self, king: Square, rook: Square) {
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
        self.xor_key::<KEY>(|| {
            zobrist::piece_key(k, king)
                ^ zobrist::piece_key(r, rook)
                ^ zobrist::piece_key(k, king_to)
                ^ zobrist::piece_key(r, rook_to)
        });
        let before = self.castling;
        self.castling.clear_color(us);
        let after = self.castling;
        self.xor_key::<KEY>(|| rights_key(before) ^ rights_key(after));
        self.halfmoves += 1;
    }

    /// The castling rights (and their part of the key) left after a normal move of `role`
    /// from `from` to `to`.
    #[inline(never)]
    fn update_rights<const KEY: bool>(&mut self, role: Role, from: Square, to: Square) {
        let before = self.castling;
        if role == Role::King {
            self.castling.clear_color(self.turn);
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling.rook(color, side) {
                    if rook == from || rook == to {
                        self.castling.clear(color, side);
                    }
                }
            }
        }
        if KEY && before != self.castling {
            self.hash ^= rights_key(before) ^ rights_key(self.castling);
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

/// The XOR of the keys of every castling right in `rights` (off the hot path).
#[cold]
#[inline(never)]
fn rights_key(rights: CastlingRights) -> u64 {
    rights
        .iter()
        .fold(0, |key, (_, _, rook)| key ^ zobrist::castling_key(rook))
}

/// What [`Position::unplay`] restores besides the pieces: castling rights, en passant,
/// clocks and key, from [`Position::undo_record`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo {
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    hash: u64,
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

/// One pawn move from `from` to `to`, or its four promotions when it `promotes`.
#[inline(always)]
fn push_pawn<S: MoveSink + ?Sized>(
    sink: &mut S,
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotes: bool,
) {
    if promotes {
        for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            sink.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: Some(promotion),
            });
        }
    } else {
        sink.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion: None,
        });
    }
}

/// Where the move generator puts its moves: a [`MoveList`], or a count.
trait MoveSink {
    /// One move.
    fn push(&mut self, m: Move);
    /// A `role` piece on `from` moving to each of `targets` (a capture where `theirs`).
    fn piece_moves(
        &mut self,
        board: &Board,
        role: Role,
        from: Square,
        targets: Bitboard,
        theirs: Bitboard,
    );
    /// Pawns moving by `delta` squares onto each of `targets` (from `to - delta`), capturing
    /// when `capture`, promoting (four moves) on the squares of `last`.
    fn pawn_moves(
        &mut self,
        board: &Board,
        targets: Bitboard,
        delta: i32,
        capture: bool,
        last: Bitboard,
    );
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        ArrayVec::push(self, m);
    }

    #[inline(always)]
    fn piece_moves(
        &mut self,
        board: &Board,
        role: Role,
        from: Square,
        targets: Bitboard,
        theirs: Bitboard,
    ) {
        for to in targets & theirs {
            self.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
        for to in targets & !theirs {
            self.push(Move::Normal {
                role,
                from,
                capture: None,
                to,
                promotion: None,
            });
        }
    }

    #[inline(always)]
    fn pawn_moves(
        &mut self,
        board: &Board,
        targets: Bitboard,
        delta: i32,
        capture: bool,
        last: Bitboard,
    ) {
        for to in targets {
            let from = Square::new_masked((to.index() as i32 - delta) as u32);
            let capture = if capture { board.role_at(to) } else { None };
            push_pawn(self, from, to, capture, last.contains(to));
        }
    }
}

/// Counts moves instead of listing them.
struct MoveCount(usize);

impl MoveSink for MoveCount {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn piece_moves(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard, _: Bitboard) {
        self.0 += targets.count() as usize;
    }

    #[inline(always)]
    fn pawn_moves(&mut self, _: &Board, targets: Bitboard, _: i32, _: bool, last: Bitboard) {
        self.0 += targets.count() as usize + 3 * (targets & last).count() as usize;
    }
}
