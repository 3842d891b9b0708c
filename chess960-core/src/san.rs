//! Standard Algebraic Notation: lenient reading, canonical writing.
//!
//! Reading accepts `O-O`/`0-0`, check and annotation suffixes, over-disambiguation
//! (`Ng1f3`), a missing `x`, `e8Q` for `e8=Q`, and a king "capturing" its own castling rook
//! (`Kxh1`) for castling. A SAN is resolved from attack tables, without generating every
//! legal move. Writing gives a [`San`] or [`SanPlus`] value (no allocation) that displays as
//! text.
//!
//! ```
//! use chess960_core::{Position, San, SanError};
//!
//! let pos = Position::startpos();
//! let m = pos.parse_san("Ng1f3").unwrap();
//! assert_eq!(pos.san(m).to_string(), "Nf3");
//! assert_eq!(pos.parse_san("e5"), Err(SanError::Illegal));
//! assert_eq!(pos.parse_san(b"Zz9"), Err(SanError::Malformed));
//! let san: San = "Nf3".parse().unwrap();
//! assert_eq!(san.to_move(&pos), Ok(m));
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{CastlingSide, Move};
use crate::position::Position;
use crate::types::{File, Rank, Role, Square};
use std::fmt;
use std::str::FromStr;

/// Why a SAN cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SanError {
    /// Not SAN syntax.
    #[error("not a SAN move")]
    Malformed,
    /// No legal move matches.
    #[error("illegal move")]
    Illegal,
    /// More than one legal move matches.
    #[error("ambiguous move")]
    Ambiguous,
}

/// A SAN without check suffix, not tied to a position: parsed from text, or the canonical
/// SAN of a move from [`Position::san`]. Displays as text (`Nbd2`, `exd5`, `e8=Q`, `O-O`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The moving role.
        role: Role,
        /// Origin file, if given.
        file: Option<File>,
        /// Origin rank, if given.
        rank: Option<Rank>,
        /// Whether `x` was written.
        capture: bool,
        /// Target square.
        to: Square,
        /// Promotion role, if given.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A null move (`--`, `Z0`, `0000`, `@@@@`).
    Null,
}

/// The check or mate mark after a SAN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SanSuffix {
    /// `+`: the move gives check.
    Check,
    /// `#`: the move gives checkmate.
    Checkmate,
}

impl SanSuffix {
    /// `'+'` or `'#'`.
    pub const fn char(self) -> char {
        match self {
            SanSuffix::Check => '+',
            SanSuffix::Checkmate => '#',
        }
    }
}

/// A SAN with its check or mate mark, as [`Position::san_plus`] gives it (`Qxf7#`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+`, `#` or nothing.
    pub suffix: Option<SanSuffix>,
}

/// Strips check, mate and annotation suffixes (`+`, `#`, `!`, `?`) and an `e.p.` marker.
fn strip_suffixes(mut text: &[u8]) -> &[u8] {
    while let [rest @ .., b'+' | b'#' | b'!' | b'?'] = text {
        text = rest;
    }
    if let Some(rest) = text.strip_suffix(b"e.p.") {
        text = rest.strip_suffix(b" ").unwrap_or(rest);
    }
    text
}

/// Whether a piece's SAN text names no origin: its letter, `x` or `:` or nothing, the
/// target square, then only check and annotation marks (`Nf3`, `Qxd7+`, `R:e1!`).
#[inline]
fn names_no_origin(text: &[u8]) -> bool {
    let body = match text {
        [b'N' | b'B' | b'R' | b'Q', b'x' | b':', rest @ ..]
        | [b'N' | b'B' | b'R' | b'Q', rest @ ..] => rest,
        _ => return false,
    };
    matches!(body, [b'a'..=b'h', b'1'..=b'8', marks @ ..] if marks.iter().all(|b| matches!(b, b'+' | b'#' | b'!' | b'?')))
}

/// ASCII written on the stack (a SAN is at most 9 bytes).
struct AsciiBuf {
    bytes: [u8; 16],
    len: usize,
}

impl AsciiBuf {
    fn new() -> AsciiBuf {
        AsciiBuf {
            bytes: [0; 16],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, c: char) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = c as u8;
            self.len += 1;
        }
    }

    fn push_str(&mut self, s: &str) {
        s.chars().for_each(|c| self.push(c));
    }

    fn write_to(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.bytes[..self.len]).map_err(|_| fmt::Error)?)
    }
}

impl San {
    /// Reads a SAN (lenient; check and annotation suffixes are ignored).
    pub fn from_ascii(text: &[u8]) -> Result<San, SanError> {
        let text = strip_suffixes(text);
        match text {
            b"O-O" | b"0-0" | b"o-o" => return Ok(San::Castle(CastlingSide::KingSide)),
            b"O-O-O" | b"0-0-0" | b"o-o-o" => return Ok(San::Castle(CastlingSide::QueenSide)),
            b"--" | b"Z0" | b"0000" | b"@@@@" => return Ok(San::Null),
            _ => {}
        }
        let (role, mut body) = match text {
            [c @ (b'N' | b'B' | b'R' | b'Q' | b'K'), rest @ ..] => (
                Role::from_char(*c as char).ok_or(SanError::Malformed)?,
                rest,
            ),
            [b'a'..=b'h', ..] => (Role::Pawn, text),
            _ => return Err(SanError::Malformed),
        };
        let mut promotion = None;
        if role == Role::Pawn {
            if let [rest @ .., p] = body {
                if let Some(r) = Role::from_char(*p as char).filter(|_| p.is_ascii_uppercase()) {
                    if matches!(r, Role::Knight | Role::Bishop | Role::Rook | Role::Queen) {
                        promotion = Some(r);
                        body = rest.strip_suffix(b"=").unwrap_or(rest);
                    } else {
                        return Err(SanError::Malformed);
                    }
                }
            }
        }
        let [prefix @ .., f, r] = body else {
            return Err(SanError::Malformed);
        };
        let to = Square::from_pair(*f, *r).ok_or(SanError::Malformed)?;
        let (prefix, capture) = match prefix {
            [rest @ .., b'x' | b':'] => (rest, true),
            _ => (prefix, false),
        };
        let (file, rank) = match prefix {
            [] => (None, None),
            [c] => match (File::from_char(*c as char), Rank::from_char(*c as char)) {
                (Some(file), _) if c.is_ascii_lowercase() => (Some(file), None),
                (_, Some(rank)) => (None, Some(rank)),
                _ => return Err(SanError::Malformed),
            },
            [a, b] if a.is_ascii_lowercase() => (
                Some(File::from_char(*a as char).ok_or(SanError::Malformed)?),
                Some(Rank::from_char(*b as char).ok_or(SanError::Malformed)?),
            ),
            _ => return Err(SanError::Malformed),
        };
        if role == Role::Pawn && rank.is_some() && file.is_none() {
            return Err(SanError::Malformed);
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }

    /// A piece or pawn move from the parts a PGN reader decoded, as indices and letters: the
    /// role's upper-case letter (`b'P'` for a pawn), the origin file and rank written (0 = a,
    /// 0 = the first rank), whether `x` was written, the target square (a1 = 0, h8 = 63), the
    /// promotion letter. `None` when a part is out of range or the parts are no SAN that
    /// [`San::from_ascii`] reads (a promotion to a king or of a piece, a pawn with an origin
    /// rank but no file).
    ///
    /// ```
    /// use chess960_core::San;
    /// assert_eq!(San::from_parts(b'N', Some(1), None, true, 51, None), "Nbxd7".parse().ok());
    /// assert_eq!(San::from_parts(b'P', Some(4), None, true, 59, Some(b'Q')), "exd8=Q".parse().ok());
    /// assert_eq!(San::from_parts(b'P', None, None, false, 64, None), None);
    /// ```
    #[inline]
    pub fn from_parts(
        role: u8,
        file: Option<u8>,
        rank: Option<u8>,
        capture: bool,
        to: u8,
        promotion: Option<u8>,
    ) -> Option<San> {
        let role = role_of_letter(role)?;
        let file = match file {
            Some(index) => Some(File::new(index)?),
            None => None,
        };
        let rank = match rank {
            Some(index) => Some(Rank::new(index)?),
            None => None,
        };
        let promotion =
            match promotion {
                Some(letter) => Some(role_of_letter(letter).filter(|r| {
                    matches!(r, Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
                })?),
                None => None,
            };
        let pawn = role == Role::Pawn;
        if (promotion.is_some() && !pawn) || (pawn && rank.is_some() && file.is_none()) {
            return None;
        }
        Some(San::Normal {
            role,
            file,
            rank,
            capture,
            to: Square::new(to)?,
            promotion,
        })
    }

    /// Finds the legal move this SAN denotes in `pos`.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        match *self {
            San::Castle(side) => pos.castling_move(side).ok_or(SanError::Illegal),
            San::Null => Err(SanError::Illegal),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => resolve_normal(pos, role, file, rank, capture, to, promotion),
        }
    }

    fn write_ascii(&self, out: &mut AsciiBuf) {
        match *self {
            San::Castle(side) => out.push_str(side.san()),
            San::Null => out.push_str("--"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push(role.upper_char());
                }
                if let Some(file) = file {
                    out.push(file.lower_char());
                }
                if let Some(rank) = rank {
                    out.push(rank.char());
                }
                if capture {
                    out.push('x');
                }
                out.push(to.file().lower_char());
                out.push(to.rank().char());
                if let Some(p) = promotion {
                    out.push('=');
                    out.push(p.upper_char());
                }
            }
        }
    }
}

/// The role of each upper-case SAN letter (`P` for a pawn), by byte.
static ROLE_OF_LETTER: [Option<Role>; 128] = {
    let mut table = [None; 128];
    table[b'P' as usize] = Some(Role::Pawn);
    table[b'N' as usize] = Some(Role::Knight);
    table[b'B' as usize] = Some(Role::Bishop);
    table[b'R' as usize] = Some(Role::Rook);
    table[b'Q' as usize] = Some(Role::Queen);
    table[b'K' as usize] = Some(Role::King);
    table
};

/// The role of an upper-case SAN letter (`P` for a pawn).
#[inline(always)]
fn role_of_letter(letter: u8) -> Option<Role> {
    ROLE_OF_LETTER.get(usize::from(letter)).copied().flatten()
}

impl FromStr for San {
    type Err = SanError;

    /// Reads a SAN (as [`San::from_ascii`]).
    fn from_str(text: &str) -> Result<San, SanError> {
        San::from_ascii(text.as_bytes())
    }
}

impl fmt::Display for San {
    /// The SAN as written: piece letter, disambiguation given, `x`, target, promotion.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = AsciiBuf::new();
        self.write_ascii(&mut buf);
        buf.write_to(f)
    }
}

impl SanPlus {
    /// Reads a SAN and its mark: `#` anywhere in the trailing `+#!?` gives checkmate, else
    /// `+` gives check.
    pub fn from_ascii(text: &[u8]) -> Result<SanPlus, SanError> {
        let san = San::from_ascii(text)?;
        let mut suffix = None;
        for &b in text.iter().rev() {
            match b {
                b'#' => suffix = Some(SanSuffix::Checkmate),
                b'+' if suffix.is_none() => suffix = Some(SanSuffix::Check),
                b'+' | b'!' | b'?' => {}
                _ => break,
            }
        }
        Ok(SanPlus { san, suffix })
    }
}

impl FromStr for SanPlus {
    type Err = SanError;

    /// Reads a SAN and its mark (as [`SanPlus::from_ascii`]).
    fn from_str(text: &str) -> Result<SanPlus, SanError> {
        SanPlus::from_ascii(text.as_bytes())
    }
}

impl SanPlus {
    /// The text of the SAN and its mark, on the stack (no allocation).
    ///
    /// ```
    /// use chess960_core::Position;
    /// let pos = Position::startpos();
    /// let m = pos.parse_san("Ng1f3").unwrap();
    /// assert_eq!(pos.san_plus(m).to_ascii().as_bytes(), b"Nf3");
    /// ```
    pub fn to_ascii(&self) -> SanText {
        let mut buf = AsciiBuf::new();
        self.san.write_ascii(&mut buf);
        if let Some(suffix) = self.suffix {
            buf.push(suffix.char());
        }
        SanText(buf)
    }
}

/// A SAN as ASCII text on the stack ([`SanPlus::to_ascii`]).
pub struct SanText(AsciiBuf);

impl SanText {
    /// The text's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0.bytes[..self.0.len]
    }

    /// The text in its 16-byte buffer (zeros after it) and its length: a writer appends
    /// the whole buffer, a copy of fixed size, and cuts it to the length.
    pub fn padded(&self) -> (&[u8; 16], usize) {
        (&self.0.bytes, self.0.len)
    }
}

impl fmt::Display for SanPlus {
    /// The SAN followed by `+` or `#`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_ascii().0.write_to(f)
    }
}

fn resolve_normal(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, SanError> {
    let mut from_mask = Bitboard::FULL;
    if let Some(f) = file {
        from_mask &= Bitboard::file(f);
    }
    if let Some(r) = rank {
        from_mask &= Bitboard::rank(r);
    }
    match role {
        Role::King => resolve_king(pos, from_mask, to, promotion),
        _ if pos.board().by_color(pos.turn()).contains(to) => Err(SanError::Illegal),
        Role::Pawn => resolve_pawn(pos, from_mask, file, capture, to, promotion),
        _ if promotion.is_some() => Err(SanError::Illegal),
        _ => resolve_piece(pos, role, from_mask, to),
    }
}

/// A king step, or castling written as the king "capturing" its own rook.
#[inline]
fn resolve_king(
    pos: &Position,
    from_mask: Bitboard,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, SanError> {
    let us = pos.turn();
    let king = pos.king_of(us);
    if !from_mask.contains(king) {
        return Err(SanError::Illegal);
    }
    if pos.board().by_color(us).contains(to) {
        let castle = CastlingSide::ALL
            .into_iter()
            .find(|&side| pos.castling_rights().rook(us, side) == Some(to))
            .ok_or(SanError::Illegal)?;
        return pos.castling_move(castle).ok_or(SanError::Illegal);
    }
    if promotion.is_some() || !pos.king_step_is_safe(to) {
        return Err(SanError::Illegal);
    }
    Ok(Move::Normal {
        role: Role::King,
        from: king,
        capture: pos.board().role_at(to),
        to,
        promotion: None,
    })
}

/// A pawn push or capture (en passant included); `to` holds none of our pieces.
#[inline]
fn resolve_pawn(
    pos: &Position,
    from_mask: Bitboard,
    file: Option<File>,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, SanError> {
    let us = pos.turn();
    let board = pos.board();
    let last_rank = Rank::Eighth.relative_to(us);
    if (to.rank() == last_rank) != promotion.is_some() {
        return Err(SanError::Illegal);
    }
    let target_role = board.role_at(to);
    let pawns = board.by_role(Role::Pawn) & board.by_color(us);
    let is_capture = capture || file.is_some_and(|f| f != to.file());
    if is_capture {
        let candidates = attacks::pawn_attacks(us.other(), to) & pawns & from_mask;
        let mut found = None;
        for from in candidates {
            let m = if target_role.is_some() {
                if !pos.non_king_move_is_safe(from, to) {
                    continue;
                }
                Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: target_role,
                    to,
                    promotion,
                }
            } else if pos.ep_square() == Some(to) && pos.en_passant_is_legal(from, to) {
                Move::EnPassant { from, to }
            } else {
                continue;
            };
            if found.replace(m).is_some() {
                return Err(SanError::Ambiguous);
            }
        }
        return found.ok_or(SanError::Illegal);
    }
    if target_role.is_some() {
        return Err(SanError::Illegal);
    }
    let backward: i32 = us.fold(-8, 8);
    let one = to.offset(backward).ok_or(SanError::Illegal)?;
    let from = if pawns.contains(one) {
        one
    } else if !board.occupied().contains(one)
        && to.rank() == Rank::Fourth.relative_to(us)
        && one.offset(backward).is_some_and(|two| pawns.contains(two))
    {
        one.offset(backward).ok_or(SanError::Illegal)?
    } else {
        return Err(SanError::Illegal);
    };
    if !from_mask.contains(from) || !pos.non_king_move_is_safe(from, to) {
        return Err(SanError::Illegal);
    }
    Ok(Move::Normal {
        role: Role::Pawn,
        from,
        capture: None,
        to,
        promotion,
    })
}

/// A knight, bishop, rook or queen move; `to` holds none of our pieces.
#[inline]
fn resolve_piece(
    pos: &Position,
    role: Role,
    from_mask: Bitboard,
    to: Square,
) -> Result<Move, SanError> {
    let board = pos.board();
    let occupied = board.occupied();
    // Pieces of the role that reach `to` on an empty board, then (sliders) those with a clear
    // path: small tables only, no magic lookup.
    let reach = match role {
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_rays(to),
        Role::Rook => attacks::rook_rays(to),
        _ => attacks::rook_rays(to) | attacks::bishop_rays(to),
    };
    let candidates = reach & board.by_role(role) & board.by_color(pos.turn()) & from_mask;
    // The king's side of the safety test once, each candidate's square after.
    let shield = pos.king_shield(to);
    let mut found = None;
    for from in candidates {
        let path_clear = role == Role::Knight || (attacks::between(from, to) & occupied).is_empty();
        if path_clear && shield.allows(from) && found.replace(from).is_some() {
            return Err(SanError::Ambiguous);
        }
    }
    let from = found.ok_or(SanError::Illegal)?;
    Ok(Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion: None,
    })
}

impl Position {
    /// Reads a SAN and finds its legal move here.
    #[inline]
    pub fn parse_san(&self, text: impl AsRef<[u8]>) -> Result<Move, SanError> {
        self.parse_san_ascii(text.as_ref())
    }

    fn parse_san_ascii(&self, text: &[u8]) -> Result<Move, SanError> {
        San::from_ascii(text)?.to_move(self)
    }

    /// Canonical SAN of a legal move, without check or mate mark.
    pub fn san(&self, m: Move) -> San {
        match m {
            Move::Castle { king, rook } => {
                San::Castle(CastlingSide::of_rook(king.file(), rook.file()))
            }
            Move::EnPassant { from, to } => San::Normal {
                role: Role::Pawn,
                file: Some(from.file()),
                rank: None,
                capture: true,
                to,
                promotion: None,
            },
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let (file, rank) = match role {
                    Role::Pawn => (capture.map(|_| from.file()), None),
                    Role::King => (None, None),
                    _ => self.disambiguation(role, from, to),
                };
                San::Normal {
                    role,
                    file,
                    rank,
                    capture: capture.is_some(),
                    to,
                    promotion,
                }
            }
        }
    }

    /// Canonical SAN of `m`, the legal move the SAN text `written` denotes here (it was
    /// read from `written`): as [`Position::san`], but a knight, bishop, rook or queen move
    /// written without an origin (`Nf3`, `Qxd7+`) takes none, with no search for other
    /// pieces (it resolved, so no other legal move of its role reaches its target). Any
    /// other move or text: [`Position::san`].
    ///
    /// ```
    /// use chess960_core::Position;
    /// let pos = Position::startpos();
    /// let m = pos.parse_san("Nf3").unwrap();
    /// assert_eq!(pos.san_written(m, b"Nf3"), pos.san(m));
    /// ```
    #[inline]
    pub fn san_written(&self, m: Move, written: &[u8]) -> San {
        let san = match m {
            Move::Normal {
                role: role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen),
                capture,
                to,
                promotion,
                ..
            } if names_no_origin(written) => San::Normal {
                role,
                file: None,
                rank: None,
                capture: capture.is_some(),
                to,
                promotion,
            },
            _ => return self.san(m),
        };
        debug_assert_eq!(san, self.san(m), "{m:?} written {written:?} in {self}");
        san
    }

    /// Canonical SAN of a legal move with its `+` or `#` mark.
    pub fn san_plus(&self, m: Move) -> SanPlus {
        let san = self.san(m);
        let after = self.played_unchecked(m);
        let suffix = if !after.is_check() {
            None
        } else if after.has_legal_moves() {
            Some(SanSuffix::Check)
        } else {
            Some(SanSuffix::Checkmate)
        };
        SanPlus { san, suffix }
    }

    /// The origin file and/or rank SAN needs to tell `from` from other pieces reaching `to`.
    fn disambiguation(&self, role: Role, from: Square, to: Square) -> (Option<File>, Option<Rank>) {
        let board = self.board();
        let occupied = board.occupied();
        let attackers = match role {
            Role::Knight => attacks::knight_attacks(to),
            Role::Bishop => attacks::bishop_attacks(to, occupied),
            Role::Rook => attacks::rook_attacks(to, occupied),
            _ => attacks::queen_attacks(to, occupied),
        };
        let others: Bitboard = (attackers & board.by_role(role) & board.by_color(self.turn()))
            .without(from)
            .filter(|&o| self.non_king_move_is_safe(o, to))
            .collect();
        if others.is_empty() {
            return (None, None);
        }
        let same_file = (others & Bitboard::file(from.file())).any();
        let same_rank = (others & Bitboard::rank(from.rank())).any();
        if !same_file {
            (Some(from.file()), None)
        } else if !same_rank {
            (None, Some(from.rank()))
        } else {
            (Some(from.file()), Some(from.rank()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn lenient_forms() {
        let start = Position::from_sp(518).unwrap();
        for (text, canonical) in [
            ("e4", "e4"),
            ("e2e4", "e4"),
            ("Nf3!?", "Nf3"),
            ("Ng1f3", "Nf3"),
            ("Ngf3", "Nf3"),
            ("N1f3", "Nf3"),
            ("Nh3+", "Nh3"),
        ] {
            let m = start
                .parse_san(text.as_bytes())
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(start.san(m).to_string(), canonical);
        }
        let p = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(p.san(p.parse_san(b"b8Q").unwrap()).to_string(), "b8=Q");
        assert_eq!(p.san(p.parse_san(b"b8=N+").unwrap()).to_string(), "b8=N");
        assert_eq!(p.parse_san(b"b8"), Err(SanError::Illegal));
        let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(p.san(p.parse_san(b"ed5").unwrap()).to_string(), "exd5");
    }

    #[test]
    fn castling_forms_including_king_takes_rook() {
        // Chess960: king f1, rook g1; O-O leaves the king on g1 and puts the rook on f1.
        let p = pos("4k3/8/8/8/8/8/8/5KR1 w K - 0 1");
        let castle = p.parse_san(b"O-O").unwrap();
        assert_eq!(
            castle,
            Move::Castle {
                king: Square::from_ascii(b"f1").unwrap(),
                rook: Square::from_ascii(b"g1").unwrap()
            }
        );
        assert_eq!(p.parse_san(b"0-0"), Ok(castle));
        assert_eq!(p.parse_san(b"Kxg1"), Ok(castle));
        assert_eq!(p.parse_san(b"Kg1"), Ok(castle));
        assert_eq!(p.san(castle).to_string(), "O-O");
        assert_eq!(
            p.played_unchecked(castle).to_string(),
            "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
        );
        assert_eq!(p.parse_san(b"O-O-O"), Err(SanError::Illegal));
    }

    #[test]
    fn ambiguity_and_disambiguation() {
        let p = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
        assert_eq!(p.parse_san(b"Rd1"), Err(SanError::Ambiguous));
        let m = p.parse_san(b"Rad1").unwrap();
        assert_eq!(p.san(m).to_string(), "Rad1");
        // The d2 knight is pinned by the b4 bishop, so Ne4 needs no disambiguation.
        let p = pos("4k3/8/8/8/1b6/8/3N1N2/4K3 w - - 0 1");
        let m = p.parse_san(b"Ne4").unwrap();
        assert_eq!(p.san(m).to_string(), "Ne4");
        assert_eq!(m.from(), Square::from_ascii(b"f2").unwrap());
        let p = pos("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
        let m = p.parse_san(b"Qa3b2").unwrap();
        assert_eq!(p.san(m).to_string(), "Qa3b2");
    }

    #[test]
    fn en_passant_and_check_suffixes() {
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let m = p.parse_san(b"exd6").unwrap();
        assert_eq!(
            m,
            Move::EnPassant {
                from: Square::from_ascii(b"e5").unwrap(),
                to: Square::from_ascii(b"d6").unwrap()
            }
        );
        let p = pos("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1");
        let m = p.parse_san(b"Ra8").unwrap();
        assert_eq!(p.san_plus(m).to_string(), "Ra8#");
    }
}
