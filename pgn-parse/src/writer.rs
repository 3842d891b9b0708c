//! Writing PGN in export format: the seven-tag roster first, escaped values, movetext
//! wrapped at 80 columns with regenerated move numbers, one blank line between games.
//!
//! ```
//! use pgn_parse::{read_games, PgnWriter};
//!
//! let input = b"[White \"A\"]\n[Event \"E\"]\n[Custom \"x\"]\n\n1.e4 { ok } e5 (1...c5 2.Nf3) 2.Nf3 1-0";
//! let game = read_games(input).next().unwrap().unwrap();
//! let mut out = Vec::new();
//! PgnWriter::new(&mut out).write_game(&game).unwrap();
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n\
//!      [Black \"?\"]\n[Result \"1-0\"]\n[Custom \"x\"]\n\n1. e4 { ok } 1... e5 ( 1... c5 2. Nf3 ) 2. Nf3 1-0\n"
//! );
//! ```

use crate::types::{Game, GameResult, Suffix, Token};
use std::io::{self, Write};

/// The seven-tag roster, in export order, with the values written when a tag is missing.
pub const SEVEN_TAG_ROSTER: [(&[u8], &[u8]); 7] = [
    (b"Event", b"?"),
    (b"Site", b"?"),
    (b"Date", b"????.??.??"),
    (b"Round", b"?"),
    (b"White", b"?"),
    (b"Black", b"?"),
    (b"Result", b"*"),
];

const WIDTH: usize = 80;

#[derive(Debug, Clone, Copy)]
struct Ply {
    fullmove: u32,
    white: bool,
}

impl Ply {
    fn next(self) -> Ply {
        if self.white {
            Ply {
                fullmove: self.fullmove,
                white: false,
            }
        } else {
            Ply {
                fullmove: self.fullmove.saturating_add(1),
                white: true,
            }
        }
    }
}

/// Writes games one after another to `out`.
pub struct PgnWriter<W: Write> {
    out: W,
    games: u64,
    column: usize,
    ply: Ply,
    before_last: Ply,
    stack: Vec<(Ply, Ply)>,
    number_black: bool,
    line: Vec<u8>,
    /// Whether the last token written was a move without a suffix.
    suffix_attachable: bool,
}

impl<W: Write> PgnWriter<W> {
    /// A writer to `out`.
    pub fn new(out: W) -> PgnWriter<W> {
        let start = Ply {
            fullmove: 1,
            white: true,
        };
        PgnWriter {
            out,
            games: 0,
            column: 0,
            ply: start,
            before_last: start,
            stack: Vec::new(),
            number_black: true,
            line: Vec::with_capacity(128),
            suffix_attachable: false,
        }
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Starts a game: the blank line after the previous one.
    pub fn begin_game(&mut self) -> io::Result<()> {
        if self.games > 0 {
            self.out.write_all(b"\n")?;
        }
        self.games += 1;
        Ok(())
    }

    /// Writes a tag pair, escaping `"` and `\` in the value.
    pub fn tag(&mut self, name: &[u8], value: &[u8]) -> io::Result<()> {
        self.out.write_all(b"[")?;
        self.out.write_all(name)?;
        self.out.write_all(b" \"")?;
        let mut rest = value;
        while let Some(i) = memchr::memchr2(b'"', b'\\', rest) {
            self.out.write_all(&rest[..i])?;
            self.out.write_all(&[b'\\', rest[i]])?;
            rest = &rest[i + 1..];
        }
        self.out.write_all(rest)?;
        self.out.write_all(b"\"]\n")
    }

    /// Ends the tags and starts the movetext, numbered from `fullmove` with `white_to_move`.
    pub fn begin_movetext(&mut self, fullmove: u32, white_to_move: bool) -> io::Result<()> {
        self.out.write_all(b"\n")?;
        self.ply = Ply {
            fullmove: fullmove.max(1),
            white: white_to_move,
        };
        self.before_last = self.ply;
        self.stack.clear();
        self.number_black = true;
        self.column = 0;
        self.line.clear();
        Ok(())
    }

    fn token(&mut self, text: &[u8]) -> io::Result<()> {
        self.suffix_attachable = false;
        if self.column > 0 {
            if self.column + 1 + text.len() > WIDTH {
                self.line.push(b'\n');
                self.out.write_all(&self.line)?;
                self.line.clear();
                self.column = 0;
            } else {
                self.line.push(b' ');
                self.column += 1;
            }
        }
        self.line.extend_from_slice(text);
        self.column += text.len();
        Ok(())
    }

    /// Writes a move (its number first when due).
    pub fn san(&mut self, san: &[u8]) -> io::Result<()> {
        let mut buf = [0u8; 48];
        let mut len = 0;
        let mut number = |ply: Ply, dots: &[u8]| {
            let mut digits = [0u8; 10];
            let mut n = ply.fullmove;
            let mut d = 0;
            loop {
                digits[d] = b'0' + (n % 10) as u8;
                n /= 10;
                d += 1;
                if n == 0 {
                    break;
                }
            }
            for i in (0..d).rev() {
                buf[len] = digits[i];
                len += 1;
            }
            for &c in dots {
                buf[len] = c;
                len += 1;
            }
        };
        if self.ply.white {
            number(self.ply, b".");
        } else if self.number_black {
            number(self.ply, b"...");
        }
        if len > 0 && len + 1 + san.len() <= buf.len() {
            // The number and its move stay on one line.
            buf[len] = b' ';
            buf[len + 1..len + 1 + san.len()].copy_from_slice(san);
            self.token(&buf[..len + 1 + san.len()])?;
        } else {
            if len > 0 {
                self.token(&buf[..len])?;
            }
            self.token(san)?;
        }
        self.before_last = self.ply;
        self.ply = self.ply.next();
        self.number_black = false;
        self.suffix_attachable = true;
        Ok(())
    }

    /// Appends a suffix annotation to the last move (as its own token when it does not
    /// directly follow a move, so that reading it back gives the same suffixes).
    pub fn suffix(&mut self, suffix: Suffix) -> io::Result<()> {
        let s = suffix.as_str().as_bytes();
        if self.suffix_attachable {
            self.line.extend_from_slice(s);
            self.column += s.len();
            self.suffix_attachable = false;
            Ok(())
        } else {
            self.token(s)
        }
    }

    /// Writes a NAG.
    pub fn nag(&mut self, nag: u16) -> io::Result<()> {
        self.token(format!("${nag}").as_bytes())
    }

    /// Writes a comment verbatim: `{text}`, or `;text` (to the end of the line) if the text
    /// contains `}`. Nothing is added or trimmed, so reading it back gives the same text and
    /// the same line structure; a comment spanning lines ends its last line.
    pub fn comment(&mut self, text: &[u8]) -> io::Result<()> {
        let braced = memchr::memchr(b'}', text).is_none();
        let mut t = Vec::with_capacity(text.len() + 2);
        if braced {
            t.push(b'{');
            t.extend_from_slice(text);
            t.push(b'}');
            self.token(&t)?;
            if memchr::memchr2(b'\n', b'\r', text).is_some() {
                // The comment spans lines: its last line ends with it, so that whether a line
                // inside it reads as a tag line (and so as a game boundary) does not depend
                // on what the writer puts after it.
                self.line.push(b'\n');
                self.out.write_all(&self.line)?;
                self.line.clear();
                self.column = 0;
            }
        } else {
            t.push(b';');
            t.extend(
                text.iter()
                    .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }),
            );
            self.token(&t)?;
            self.line.push(b'\n');
            self.out.write_all(&self.line)?;
            self.line.clear();
            self.column = 0;
        }
        self.number_black = true;
        Ok(())
    }

    /// Opens a variation (an alternative to the last move).
    pub fn begin_variation(&mut self) -> io::Result<()> {
        self.token(b"(")?;
        self.stack.push((self.ply, self.before_last));
        self.ply = self.before_last;
        self.number_black = true;
        Ok(())
    }

    /// Closes the current variation.
    pub fn end_variation(&mut self) -> io::Result<()> {
        self.token(b")")?;
        if let Some((ply, before_last)) = self.stack.pop() {
            self.ply = ply;
            self.before_last = before_last;
        }
        self.number_black = true;
        Ok(())
    }

    /// Writes the result and ends the movetext.
    pub fn end_game(&mut self, result: GameResult) -> io::Result<()> {
        self.token(result.as_str().as_bytes())?;
        self.line.push(b'\n');
        self.out.write_all(&self.line)?;
        self.line.clear();
        self.column = 0;
        Ok(())
    }

    /// Writes one movetext token.
    pub fn write_token(&mut self, token: &Token<'_>) -> io::Result<()> {
        match *token {
            Token::San { text, .. } => self.san(text),
            Token::NullMove { .. } => self.san(b"--"),
            Token::Comment { text, .. } => self.comment(text),
            Token::Nag(n) => self.nag(n),
            Token::Suffix(s) => self.suffix(s),
            Token::BeginVariation => self.begin_variation(),
            Token::EndVariation => self.end_variation(),
            Token::Result(_) => Ok(()),
        }
    }

    /// Writes the tags of `game` in export order: the seven-tag roster, then the others in
    /// their original order (a missing `Result` tag is written as `result`).
    pub fn write_tags(&mut self, game: &Game<'_>, result: GameResult) -> io::Result<()> {
        for (name, default) in SEVEN_TAG_ROSTER {
            if name == b"Result" && game.tag(name).is_none() {
                self.tag(name, result.as_str().as_bytes())?;
                continue;
            }
            match game.tag(name) {
                Some(t) => self.tag(name, &t.value())?,
                None => self.tag(name, default)?,
            }
        }
        // Every other tag in order, including second occurrences of roster tags.
        let mut roster_seen = [false; 7];
        for t in &game.tags {
            if let Some(i) = SEVEN_TAG_ROSTER.iter().position(|(n, _)| *n == t.name) {
                if !roster_seen[i] {
                    roster_seen[i] = true;
                    continue;
                }
            }
            self.tag(t.name, &t.value())?;
        }
        Ok(())
    }

    /// Writes a whole game as read (move numbers from 1, white to move, unless its FEN tag
    /// says otherwise).
    pub fn write_game(&mut self, game: &Game<'_>) -> io::Result<()> {
        let result = match game.movetext_end {
            crate::MovetextEnd::Result(r) => r,
            _ => game
                .tag(b"Result")
                .map_or(GameResult::Unknown, |t| GameResult::from_bytes(&t.value())),
        };
        self.begin_game()?;
        self.write_tags(game, result)?;
        let (fullmove, white) = game
            .tag(b"FEN")
            .map(|t| fen_move_number(&t.value()))
            .unwrap_or((1, true));
        self.begin_movetext(fullmove, white)?;
        for token in &game.movetext {
            self.write_token(token)?;
        }
        self.end_game(result)
    }
}

/// The full-move number and side to move of a FEN (defaults 1 and white).
pub fn fen_move_number(fen: &[u8]) -> (u32, bool) {
    let mut fields = fen
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty());
    let white = fields.nth(1).is_none_or(|t| t != b"b");
    let fullmove = fields
        .nth(3)
        .and_then(|f| std::str::from_utf8(f).ok()?.parse().ok())
        .unwrap_or(1);
    (fullmove, white)
}
