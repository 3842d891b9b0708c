//! Piece placement: which piece stands on which square.
//!
//! ```
//! use chess960_core::{Board, Color, Square};
//!
//! let board = Board::parse_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").unwrap();
//! assert_eq!(board.king_of(Color::White), Some(Square::E1));
//! assert_eq!(board.occupied().count(), 32);
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Role, Square};
use std::fmt;

/// The pieces on the board, as one bitboard per role and per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
}

/// Why a FEN piece-placement field cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlacementError {
    /// Not exactly 8 ranks separated by `/`.
    #[error("expected 8 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank describes more or fewer than 8 squares.
    #[error("rank {rank} describes {squares} squares, expected 8")]
    RankLength {
        /// The rank, 1 to 8.
        rank: u8,
        /// How many squares it describes.
        squares: u32,
    },
    /// A character that is neither a piece letter nor a digit 1-8.
    #[error("unexpected character {found:?} in piece placement at column {column}")]
    UnexpectedChar {
        /// The character.
        found: char,
        /// Its 1-based column in the placement field.
        column: usize,
    },
}

impl Board {
    /// An empty board.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
        }
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Rooks and queens of both colours.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// Bishops and queens of both colours.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// The king of `color` (the lowest one if there are several).
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).first()
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|role| self.by_role[role.index()].contains(sq))
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].add(sq);
        self.by_color[piece.color.index()].add(sq);
        self.occupied.add(sq);
    }

    /// Removes `piece` from `sq` (which must hold it).
    #[inline]
    pub fn take(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].discard(sq);
        self.by_color[piece.color.index()].discard(sq);
        self.occupied.discard(sq);
    }

    /// Moves `piece` from `from` to `to`, where it arrives as `arriving` (itself, or a
    /// promotion) and takes the enemy `captured` standing there, if any.
    #[inline(always)]
    pub(crate) fn move_piece(
        &mut self,
        piece: Piece,
        from: Square,
        to: Square,
        arriving: Role,
        captured: Option<Role>,
    ) {
        let from_bb = Bitboard::from(from);
        let to_bb = Bitboard::from(to);
        if let Some(captured) = captured {
            self.by_role[captured.index()] ^= to_bb;
            self.by_color[piece.color.other().index()] ^= to_bb;
            self.occupied ^= to_bb;
        }
        self.by_role[piece.role.index()] ^= from_bb;
        self.by_role[arriving.index()] ^= to_bb;
        self.by_color[piece.color.index()] ^= from_bb | to_bb;
        self.occupied ^= from_bb | to_bb;
    }

    /// Removes whatever stands on `sq` and returns it.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take(sq, piece);
        Some(piece)
    }

    /// Pieces of `attacker` that attack `sq`, as if `occupied` were the occupied squares.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(attacker);
        let mut attackers = ((attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn)))
            & theirs;
        // Sliders on a ray of `sq` attack it when nothing stands between: a few lookups in
        // the small `between` table instead of one in the large magic tables.
        let sliders = ((self.rooks_and_queens() & attacks::rook_rays(sq))
            | (self.bishops_and_queens() & attacks::bishop_rays(sq)))
            & theirs;
        for slider in sliders {
            if (attacks::between(sq, slider) & occupied).is_empty() {
                attackers |= slider;
            }
        }
        attackers
    }

    /// Whether any piece of `attacker` attacks `sq`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        self.attackers_to(sq, attacker, occupied).any()
    }

    /// Reads the piece-placement field of a FEN (`rnbqkbnr/pppppppp/8/...`).
    pub fn parse_placement(text: &str) -> Result<Board, PlacementError> {
        Board::parse_placement_ascii(text.as_bytes())
    }

    /// Reads a piece-placement field given as bytes.
    pub(crate) fn parse_placement_ascii(bytes: &[u8]) -> Result<Board, PlacementError> {
        match Board::parse_placement_fast(bytes) {
            Some(board) => Ok(board),
            None => Board::parse_placement_exact(bytes),
        }
    }

    /// The common case without branches per byte: `None` for any error (the exact reader
    /// then says which).
    fn parse_placement_fast(bytes: &[u8]) -> Option<Board> {
        // A valid placement has at most 71 bytes; anything longer is left to the exact reader.
        if bytes.len() > 71 {
            return None;
        }
        // Bit planes of the role index, colour and occupancy, kept in registers. `read` counts
        // squares in reading order (a8 = 0 ... h1 = 63), so the square is `read ^ 56`; every
        // `/` must come after exactly 8 more squares.
        let (mut plane0, mut plane1, mut plane2, mut black, mut occupied) = (0u64, 0, 0, 0, 0);
        let (mut read, mut slashes, mut bad) = (0u32, 0u32, 0u32);
        for &b in bytes {
            let code = u32::from(FAST_CODE[b as usize]);
            if code == 0 {
                return None;
            }
            let slash = (code >> SLASH_SHIFT) & 1;
            slashes += slash;
            bad |= slash & u32::from(read != 8 * slashes);
            let on_board = u64::from((code >> PIECE_SHIFT) & u32::from(read < 64));
            let bit = on_board << ((read ^ 56) & 63);
            plane0 |= bit * u64::from(code >> ROLE_SHIFT & 1);
            plane1 |= bit * u64::from(code >> (ROLE_SHIFT + 1) & 1);
            plane2 |= bit * u64::from(code >> (ROLE_SHIFT + 2) & 1);
            black |= bit * u64::from(code >> BLACK_SHIFT & 1);
            occupied |= bit;
            read += code & 0x0f;
        }
        if bad != 0 || slashes != 7 || read != 64 {
            return None;
        }
        let (n0, n1, n2) = (!plane0, !plane1, !plane2);
        let by_role = [
            occupied & n0 & n1 & n2,
            plane0 & n1 & n2,
            n0 & plane1 & n2,
            plane0 & plane1 & n2,
            n0 & n1 & plane2,
            plane0 & n1 & plane2,
        ];
        Some(Board {
            by_role: by_role.map(Bitboard),
            by_color: [Bitboard(occupied & !black), Bitboard(black)],
            occupied: Bitboard(occupied),
        })
    }

    /// Reads a piece placement byte by byte, naming the first error exactly.
    fn parse_placement_exact(bytes: &[u8]) -> Result<Board, PlacementError> {
        let ranks = bytes.iter().filter(|&&b| b == b'/').count() + 1;
        if ranks != 8 {
            return Err(PlacementError::RankCount(ranks));
        }
        let mut by_role = [0u64; 6];
        let mut by_color = [0u64; 2];
        let mut rank = 7u32;
        let mut file = 0u32;
        for (i, &b) in bytes.iter().enumerate() {
            let code = FAST_CODE[b as usize];
            if b == b'/' {
                if file != 8 {
                    return Err(rank_length(rank, file));
                }
                rank -= 1;
                file = 0;
            } else if file > 8 {
                // After an overfull rank the rest of it is not read (the error names it).
            } else if code >> PIECE_SHIFT & 1 == 1 {
                if file < 8 {
                    let bit = 1u64 << (rank * 8 + file);
                    by_role[usize::from(code >> ROLE_SHIFT & 0x07)] |= bit;
                    by_color[usize::from(code >> BLACK_SHIFT & 1)] |= bit;
                }
                file += 1;
            } else if code != 0 {
                // A digit 1-8: the squares it covers.
                file += u32::from(code & 0x0f);
            } else {
                // Every earlier byte was ASCII, so the column is the byte position + 1.
                let char_bytes = &bytes[i..bytes.len().min(i + 4)];
                let found = String::from_utf8_lossy(char_bytes)
                    .chars()
                    .next()
                    .unwrap_or('?');
                return Err(PlacementError::UnexpectedChar {
                    found,
                    column: i + 1,
                });
            }
        }
        if file != 8 {
            return Err(rank_length(rank, file));
        }
        Ok(Board {
            by_role: by_role.map(Bitboard),
            by_color: by_color.map(Bitboard),
            occupied: Bitboard(by_color[0] | by_color[1]),
        })
    }

    /// Writes the piece-placement field of a FEN.
    pub fn write_placement(&self, out: &mut String) {
        let mut buf = [0u8; 72];
        let len = self.write_placement_bytes(&mut buf);
        if let Ok(text) = std::str::from_utf8(&buf[..len]) {
            out.push_str(text);
        }
    }

    /// Writes the piece-placement field into `buf` (71 bytes at most); returns its length.
    pub(crate) fn write_placement_bytes(&self, buf: &mut [u8; 72]) -> usize {
        // One pass per piece kind into a mailbox, then one pass over the squares.
        let mut mailbox = [0u8; 64];
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                for sq in self.by_piece(piece) {
                    mailbox[sq.index()] = piece.char() as u8;
                }
            }
        }
        let mut len = 0;
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for &c in &mailbox[rank * 8..rank * 8 + 8] {
                if c == 0 {
                    empty += 1;
                } else {
                    if empty > 0 {
                        buf[len] = b'0' + empty;
                        len += 1;
                        empty = 0;
                    }
                    buf[len] = c;
                    len += 1;
                }
            }
            if empty > 0 {
                buf[len] = b'0' + empty;
                len += 1;
            }
            if rank != 0 {
                buf[len] = b'/';
                len += 1;
            }
        }
        len
    }
}

/// [`FAST_CODE`] layout: bits 0-3 how many squares the byte covers (a digit's value, 1 for a
/// piece), then these flags; role indices follow `Role::ALL` (pawn ... king).
const PIECE_SHIFT: u32 = 4;
const ROLE_SHIFT: u32 = 5;
const BLACK_SHIFT: u32 = 8;
const SLASH_SHIFT: u32 = 9;

/// What each byte means in a piece placement, for both readers (0: not allowed).
static FAST_CODE: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut d = 1;
    while d <= 8 {
        table[(b'0' + d) as usize] = d as u16;
        d += 1;
    }
    table[b'/' as usize] = 1 << SLASH_SHIFT;
    let letters = [b'p', b'n', b'b', b'r', b'q', b'k'];
    let mut r = 0;
    while r < 6 {
        let white = 1 | (1 << PIECE_SHIFT) | ((r as u16) << ROLE_SHIFT);
        table[letters[r].to_ascii_uppercase() as usize] = white;
        table[letters[r] as usize] = white | (1 << BLACK_SHIFT);
        r += 1;
    }
    table
};

fn rank_length(rank: u32, squares: u32) -> PlacementError {
    PlacementError::RankLength {
        rank: rank as u8 + 1,
        squares,
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_placement(&mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_and_exact_placement_readers_agree() {
        // Valid placements mutated at random (replace, delete, insert a byte): the fast
        // reader must give the exact reader's board, or decline exactly when it errs.
        let seeds = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR",
            "8/8/8/8/8/8/8/8",
            "4k3/8/8/8/8/8/8/4K3",
        ];
        let alphabet = b"pnbrqkPNBRQK012345678/9x ";
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for round in 0..200_000 {
            let mut text = seeds[round % seeds.len()].as_bytes().to_vec();
            for _ in 0..1 + next(3) {
                let at = next(text.len() + 1);
                let c = alphabet[next(alphabet.len())];
                match next(3) {
                    0 if at < text.len() => text[at] = c,
                    1 if at < text.len() => {
                        text.remove(at);
                    }
                    _ => text.insert(at, c),
                }
            }
            let text = String::from_utf8(text).unwrap();
            let exact = Board::parse_placement_exact(text.as_bytes());
            let fast = Board::parse_placement_fast(text.as_bytes());
            match (&exact, fast) {
                (Ok(board), Some(fast)) => assert_eq!(*board, fast, "{text}"),
                (Err(_), None) => {}
                _ => panic!("{text}: exact {exact:?}, fast {fast:?}"),
            }
        }
    }

    #[test]
    fn placement_round_trip_and_errors() {
        let text = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R";
        let board = Board::parse_placement(text).unwrap();
        let mut out = String::new();
        board.write_placement(&mut out);
        assert_eq!(out, text);
        assert_eq!(
            Board::parse_placement("8/8/8/8/8/8/8"),
            Err(PlacementError::RankCount(7))
        );
        assert_eq!(
            Board::parse_placement("9/8/8/8/8/8/8/8"),
            Err(PlacementError::UnexpectedChar {
                found: '9',
                column: 1
            })
        );
        assert_eq!(
            Board::parse_placement("7/8/8/8/8/8/8/8"),
            Err(PlacementError::RankLength {
                rank: 8,
                squares: 7
            })
        );
        assert_eq!(
            Board::parse_placement("8/8/8/8/8/8/8/ppppppppp"),
            Err(PlacementError::RankLength {
                rank: 1,
                squares: 9
            })
        );
    }
}
