//! Squares, files, ranks, colours, roles and pieces.
//!
//! ```
//! use chess960_core::{Color, File, Piece, Rank, Role, Square};
//!
//! let sq = Square::from_coords(File::E, Rank::Fourth);
//! assert_eq!(sq.to_string(), "e4");
//! assert_eq!("e4".parse::<Square>(), Ok(sq));
//! assert_eq!(Piece { color: Color::Black, role: Role::Knight }.to_string(), "n");
//! assert_eq!("black".parse::<Color>(), Ok(Color::Black));
//! ```

use std::fmt;
use std::str::FromStr;

/// Text that does not name a value of the type being read (a square, a piece, a colour, ...):
/// the error of the `FromStr` implementations of the small vocabulary types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("not a valid {expected}")]
pub struct NotationError {
    expected: &'static str,
}

impl NotationError {
    pub(crate) const fn new(expected: &'static str) -> NotationError {
        NotationError { expected }
    }

    /// What the text should have named (`"square"`, `"piece"`, ...).
    pub const fn expected(&self) -> &'static str {
        self.expected
    }
}

/// The single char of `text`, if it is exactly one.
fn single_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// The side of a piece or the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White, moving first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Index 0 for white, 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The back rank of this colour (rank 1 for white, rank 8 for black).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// Picks `white` or `black` by colour.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// The lower-case name, `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    /// `white` or `black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = NotationError;

    /// Reads `white`/`black` or the FEN letters `w`/`b`.
    fn from_str(text: &str) -> Result<Color, NotationError> {
        match text {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(NotationError::new("colour")),
        }
    }
}

/// A kind of piece, without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Index 0 (pawn) to 5 (king).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case SAN letter (`P` for pawns).
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The lower-case letter, as in UCI promotions.
    pub const fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// The role named by a letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }
}

impl fmt::Display for Role {
    /// The upper-case SAN letter (`P` for pawns).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.upper_char())
    }
}

impl FromStr for Role {
    type Err = NotationError;

    /// Reads one piece letter of either case.
    fn from_str(text: &str) -> Result<Role, NotationError> {
        single_char(text)
            .and_then(Role::from_char)
            .ok_or(NotationError::new("role"))
    }
}

/// A coloured piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its colour.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for white, lower case for black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.lower_char(),
        }
    }

    /// The piece named by a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    /// The FEN letter: upper case for white, lower case for black.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.char())
    }
}

impl FromStr for Piece {
    type Err = NotationError;

    /// Reads one FEN letter (upper case for white).
    fn from_str(text: &str) -> Result<Piece, NotationError> {
        single_char(text)
            .and_then(Piece::from_char)
            .ok_or(NotationError::new("piece"))
    }
}

/// A file (column), `a` to `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// File a.
    pub const A: File = File(0);
    /// File b.
    pub const B: File = File(1);
    /// File c.
    pub const C: File = File(2);
    /// File d.
    pub const D: File = File(3);
    /// File e.
    pub const E: File = File(4);
    /// File f.
    pub const F: File = File(5);
    /// File g.
    pub const G: File = File(6);
    /// File h.
    pub const H: File = File(7);

    /// All files, a first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index 0 (a) to 7 (h).
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File(index))
        } else {
            None
        }
    }

    /// Index 0 (a) to 7 (h).
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file named by a letter of either case.
    #[inline]
    pub const fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        if c >= 'a' && c <= 'h' {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }

    /// The lower-case letter.
    #[inline]
    pub const fn lower_char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The upper-case letter.
    #[inline]
    pub const fn upper_char(self) -> char {
        (b'A' + self.0) as char
    }
}

impl fmt::Display for File {
    /// The lower-case letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.lower_char())
    }
}

impl FromStr for File {
    type Err = NotationError;

    /// Reads one file letter of either case.
    fn from_str(text: &str) -> Result<File, NotationError> {
        single_char(text)
            .and_then(File::from_char)
            .ok_or(NotationError::new("file"))
    }
}

/// A rank (row), 1 to 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    /// Rank 1.
    First = 0,
    /// Rank 2.
    Second = 1,
    /// Rank 3.
    Third = 2,
    /// Rank 4.
    Fourth = 3,
    /// Rank 5.
    Fifth = 4,
    /// Rank 6.
    Sixth = 5,
    /// Rank 7.
    Seventh = 6,
    /// Rank 8.
    Eighth = 7,
}

impl Rank {
    /// All ranks, first to eighth.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index 0 (first) to 7 (eighth).
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// Index 0 (first) to 7 (eighth).
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The rank named by a digit `1` to `8`.
    #[inline]
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Rank::new(c as u8 - b'1')
        } else {
            None
        }
    }

    /// The digit `1` to `8`.
    #[inline]
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The same rank seen from the other side of the board (rank 1 ⇄ rank 8).
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }

    /// This rank seen from `color`'s side: `Rank::First.relative_to(Black)` is rank 8.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }
}

impl fmt::Display for Rank {
    /// The digit `1` to `8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.char())
    }
}

impl FromStr for Rank {
    type Err = NotationError;

    /// Reads one digit `1` to `8`.
    fn from_str(text: &str) -> Result<Rank, NotationError> {
        single_char(text)
            .and_then(Rank::from_char)
            .ok_or(NotationError::new("rank"))
    }
}

/// A square of the board, a1 = 0, b1 = 1, …, h8 = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// a1.
    pub const A1: Square = Square(0);
    /// e1.
    pub const E1: Square = Square(4);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// e8.
    pub const E8: Square = Square(60);
    /// h8.
    pub const H8: Square = Square(63);

    /// The square with index 0 (a1) to 63 (h8).
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index & 63`.
    #[inline]
    pub(crate) const fn new_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file.0)
    }

    /// Index 0 (a1) to 63 (h8).
    #[inline]
    pub const fn index(self) -> usize {
        // Always below 64: the mask says so to the compiler, so that tables indexed by
        // square need no bounds check.
        (self.0 & 63) as usize
    }

    /// Its file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// Its rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[((self.0 >> 3) & 7) as usize]
    }

    /// The square mirrored across the middle of the board (a1 ⇄ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away, if it is on the board (no wrap check across files).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Whether the square is a light square (h1 is light).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }

    /// Reads a square such as `e4` (exactly two bytes; the file letter in either case).
    pub fn from_ascii(text: &[u8]) -> Result<Square, NotationError> {
        match text {
            [f, r] => Square::from_pair(*f, *r),
            _ => None,
        }
        .ok_or(NotationError::new("square"))
    }

    /// The square named by a file letter and a rank digit.
    #[inline]
    pub(crate) fn from_pair(file: u8, rank: u8) -> Option<Square> {
        Some(Square::from_coords(
            File::from_char(file as char)?,
            Rank::from_char(rank as char)?,
        ))
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().lower_char(), self.rank().char())
    }
}

impl FromStr for Square {
    type Err = NotationError;

    /// Reads a square such as `e4`.
    fn from_str(text: &str) -> Result<Square, NotationError> {
        Square::from_ascii(text.as_bytes())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(Square::from_ascii(sq.to_string().as_bytes()), Ok(sq));
        }
        assert!(Square::from_ascii(b"i1").is_err());
        assert!(Square::from_ascii(b"a9").is_err());
        assert!(Square::from_ascii(b"a").is_err());
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
    }

    #[test]
    fn piece_letters_round_trip() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_char(c).map(Piece::char), Some(c));
        }
        assert_eq!(Piece::from_char('x'), None);
    }

    #[test]
    fn vocabulary_text_round_trips() {
        for color in Color::ALL {
            assert_eq!(color.to_string().parse(), Ok(color));
        }
        for role in Role::ALL {
            assert_eq!(role.to_string().parse(), Ok(role));
            for color in Color::ALL {
                let piece = Piece { color, role };
                assert_eq!(piece.to_string().parse(), Ok(piece));
            }
        }
        for file in File::ALL {
            assert_eq!(file.to_string().parse(), Ok(file));
        }
        for rank in Rank::ALL {
            assert_eq!(rank.to_string().parse(), Ok(rank));
        }
        assert_eq!("w".parse(), Ok(Color::White));
        assert!("x".parse::<Piece>().is_err());
        assert!("Nf".parse::<Role>().is_err());
        assert!("".parse::<File>().is_err());
        assert!("9".parse::<Rank>().is_err());
        assert_eq!(
            "e9".parse::<Square>().map_err(|e| e.expected()),
            Err("square")
        );
    }
}
