//! The reader: bytes in, games out, through a [`Visitor`].

use crate::boundary::{
    at_line_start, follows_blank_line, invisible_before, invisible_prefix, is_boundary_line,
    is_tag_line, line_end, next_boundary_line, parse_tag_at, quoted_close, starts_invisible,
};
use crate::error::{excerpt, ErrorKind, ParseError};
use crate::lines::LineIndex;
use crate::types::{DecodedSan, GameResult, MovetextEnd, SanAction, Suffix, Tag};
use crate::visitor::{GameEnd, Visitor};

/// A byte set: `bytes`, plus every byte up to 0x20 (white space) if `with_space`.
const fn byte_set(bytes: &[u8], with_space: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while with_space && i <= 0x20 {
        table[i] = true;
        i += 1;
    }
    let mut j = 0;
    while j < bytes.len() {
        table[bytes[j] as usize] = true;
        j += 1;
    }
    table
}

/// Bytes that end a movetext word.
static DELIMITER: [bool; 256] = byte_set(b"{}();[]$", true);

/// What a byte that is not blank can start in movetext, for the movetext loop's common
/// elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lead {
    /// A digit: a move number, or a result.
    Digit,
    /// A file letter, a piece letter or `O`: a SAN word [`decode_window`] may decode.
    San,
    /// `{`: a comment, maybe a lone clock.
    Brace,
    /// Anything else, read by [`Reader::element`].
    Other,
}

/// The [`Lead`] of every byte.
static LEAD: [Lead; 256] = {
    let mut table = [Lead::Other; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        table[i] = match b {
            b'0'..=b'9' => Lead::Digit,
            b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'O' => Lead::San,
            b'{' => Lead::Brace,
            _ => Lead::Other,
        };
        i += 1;
    }
    table
};

#[inline]
fn is_space(b: u8) -> bool {
    b <= 0x20
}

/// Where a slice of a larger input sits in it, for readers of chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    /// Absolute byte offset of the slice's first byte.
    pub offset: usize,
    /// 1-based line of the slice's first byte.
    pub line: u32,
    /// Index of the first game in the slice.
    pub first_index: u64,
    /// Whether a game follows the slice (so a game cut at its end is truncated, not at the
    /// end of the input).
    pub followed_by_game: bool,
    /// Set when the slice is a piece of a stretch of a stream too large to hold (see
    /// [`crate::StreamReader::with_max_game_bytes`]): not whole games, not to be read as such.
    pub part: Option<crate::stream::Part>,
}

impl Default for Origin {
    fn default() -> Origin {
        Origin {
            offset: 0,
            line: 1,
            first_index: 0,
            followed_by_game: false,
            part: None,
        }
    }
}

/// Reads games from a byte slice, one per [`Reader::read_game`] call.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    origin: Origin,
    next_index: u64,
    lines: LineIndex,
    junk_bytes: u64,
    first_junk: Option<usize>,
    /// The tag names of the game being read (kept between games for its allocation).
    names: Vec<&'a [u8]>,
}

/// Where and how the movetext of one game stopped.
struct Stop {
    how: MovetextEnd,
    /// Local end of the game's bytes (exclusive).
    end: usize,
    /// What damaged the game: the kind, its local offset, what was expected.
    error: Option<(ErrorKind, usize, &'static str)>,
}

/// Where skipping movetext stopped.
enum Skipped {
    /// The skipped variation closed; the local end of its `)`.
    Closed(usize),
    /// The movetext stopped.
    Stopped(Stop),
}

impl<'a> Reader<'a> {
    /// A reader of a whole input (a UTF-8 byte order mark at its start is skipped).
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_origin(input, Origin::default())
    }

    /// A reader of a slice of a larger input (see [`crate::split_at_game_boundaries`]).
    pub fn with_origin(input: &'a [u8], origin: Origin) -> Reader<'a> {
        let pos = if origin.offset == 0 && input.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Reader {
            input,
            pos,
            origin,
            next_index: origin.first_index,
            lines: LineIndex::new(origin.line),
            junk_bytes: 0,
            first_junk: None,
            names: Vec::new(),
        }
    }

    /// The absolute offset the reader has reached.
    pub fn position(&self) -> usize {
        self.origin.offset + self.pos
    }

    /// How many games were read.
    pub fn games_read(&self) -> u64 {
        self.next_index - self.origin.first_index
    }

    /// How many bytes of junk (text that is no game) were skipped.
    pub fn junk_bytes(&self) -> u64 {
        self.junk_bytes
    }

    /// The absolute offset of the first junk skipped, if any.
    pub fn first_junk(&self) -> Option<usize> {
        self.first_junk
    }

    /// Bytes the line lookup has counted so far (see [`crate::lines::LineIndex::bytes_scanned`]).
    pub fn bytes_located(&self) -> u64 {
        self.lines.bytes_scanned()
    }

    /// The 1-based (line, column) of an absolute offset inside this reader's input.
    pub fn locate(&mut self, offset: usize) -> (u32, u32) {
        let local = offset.saturating_sub(self.origin.offset);
        self.lines.locate(self.input, local)
    }

    fn error(
        &mut self,
        kind: ErrorKind,
        local: usize,
        expected: &'static str,
        index: u64,
    ) -> ParseError {
        let (line, column) = self.lines.locate(self.input, local);
        ParseError {
            kind,
            game_index: index,
            offset: self.origin.offset + local,
            line,
            column,
            expected,
            found: excerpt(&self.input[local.min(self.input.len())..]),
        }
    }

    fn skip_space(&mut self) {
        while self.pos < self.input.len() && is_space(self.input[self.pos]) {
            self.pos += 1;
        }
    }

    fn skip_line(&mut self) {
        self.pos = line_end(self.input, self.pos);
    }

    /// Whether a tagless game starts at the current position (movetext-looking text).
    fn looks_like_movetext(&self) -> bool {
        let rest = &self.input[self.pos..];
        match rest.first() {
            Some(b'{' | b'(' | b'*' | b';') => true,
            Some(b'1'..=b'9') => {
                let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                matches!(rest.get(digits), Some(b'.')) || GameResult::parse(word(rest)).is_some()
            }
            Some(b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'O' | b'0') => {
                let w = word(rest);
                w.len() >= 2 && w.len() <= 10 && w.iter().any(u8::is_ascii_digit)
                    || w.starts_with(b"O-O")
            }
            _ => false,
        }
    }

    /// Reads the next game into `visitor`; `None` at the end of the input.
    pub fn read_game<V: Visitor<'a>>(&mut self, visitor: &mut V) -> Option<V::Output> {
        if !self.skip_to_game(visitor) {
            return None;
        }
        let start = self.pos;
        let index = self.next_index;
        self.next_index += 1;
        visitor.begin_game(self.origin.offset + start);
        let (mut stop, tags_end) = match self.read_tags(visitor, start) {
            Err(bad_tag) => (bad_tag, None),
            Ok(last_end) if visitor.end_tags().0 => (self.skip_movetext(last_end), Some(last_end)),
            Ok(last_end) => (self.read_movetext(visitor, last_end), Some(last_end)),
        };
        // Tags and nothing after them: not even a result.
        if stop.error.is_none()
            && !stop.how.is_terminated()
            && tags_end.is_some_and(|end| end > start && end == stop.end)
        {
            stop.how = MovetextEnd::NoMovetext;
        }
        let error = stop
            .error
            .map(|(kind, at, expected)| self.error(kind, at, expected, index));
        Some(visitor.end_game(GameEnd {
            byte_range: self.origin.offset + start..self.origin.offset + stop.end,
            index,
            movetext_end: stop.how,
            error,
        }))
    }

    /// Passes over what lies between games (white space, escape lines, junk, each junk run
    /// reported to `visitor`) up to the start of the next game; `false` at the end of the
    /// input.
    fn skip_to_game<V: Visitor<'a>>(&mut self, visitor: &mut V) -> bool {
        let input = self.input;
        loop {
            self.skip_space();
            let Some(&b) = input.get(self.pos) else {
                return false;
            };
            if b == b'%' && at_line_start(input, self.pos) {
                self.skip_line();
                continue;
            }
            // A line starting like a tag pair starts a game even if the tag is malformed
            // (it is then reported as a bad tag, not skipped as junk).
            let tag_like = b == b'['
                && at_line_start(input, self.pos)
                && input.get(self.pos + 1).is_some_and(u8::is_ascii_alphabetic);
            // A tag line behind invisible characters (a byte order mark where two exports
            // were concatenated): a tag line, read without them.
            let hidden_tag = starts_invisible(b)
                && at_line_start(input, self.pos)
                && invisible_prefix(input, self.pos) > 0;
            if tag_like
                || hidden_tag
                || (b == b'[' && is_tag_line(input, self.pos))
                || (b != b'[' && self.looks_like_movetext())
            {
                return true;
            }
            // Junk: skip to the next line that starts with a tag pair.
            let start = self.pos;
            let mut next = None;
            let mut i = self.pos + 1;
            while let Some(j) = memchr::memchr(b'[', &input[i.min(input.len())..]) {
                let q = i + j;
                if at_line_start(input, q) && is_tag_line(input, q) {
                    next = Some(q);
                    break;
                }
                let hidden = invisible_before(input, q);
                if hidden > 0 && q - hidden > start {
                    next = Some(q - hidden);
                    break;
                }
                i = q + 1;
            }
            self.pos = next.unwrap_or(input.len());
            let end = trim_end(input, start, self.pos);
            self.junk_bytes += (end - start) as u64;
            if end > start && self.first_junk.is_none() {
                self.first_junk = Some(self.origin.offset + start);
            }
            visitor.junk(self.origin.offset + start..self.origin.offset + end);
        }
    }

    /// Reads the tag section of the game starting at `start` (tag lines, possibly several on
    /// a line, blank lines allowed between): the end of the last tag, or, for a malformed
    /// tag, the stop of the whole game (it resumes at the next game boundary).
    ///
    /// A tag line after a blank line that repeats a tag of the game (its first tag) starts
    /// the next game instead: header-only archives are read game by game.
    fn read_tags<V: Visitor<'a>>(&mut self, visitor: &mut V, start: usize) -> Result<usize, Stop> {
        let input = self.input;
        let mut last_end = start;
        self.names.clear();
        loop {
            let line_start = at_line_start(input, self.pos).then_some(self.pos);
            if line_start.is_some() && input.get(self.pos).is_some_and(|&b| starts_invisible(b)) {
                self.pos += invisible_prefix(input, self.pos);
            }
            if input.get(self.pos) != Some(&b'[') {
                self.pos = line_start.unwrap_or(self.pos);
                break;
            }
            let Some((name, raw_value, used)) = parse_tag_at(input, self.pos) else {
                let at = self.pos;
                let resume = next_boundary_line(input, at + 1).unwrap_or(input.len());
                self.pos = resume;
                return Err(Stop {
                    how: self.end_at(resume),
                    end: trim_end(input, start, resume),
                    error: Some((ErrorKind::BadTag, at, "a tag pair [Name \"value\"]")),
                });
            };
            if let Some(line) = line_start.filter(|&l| l > start) {
                let blank_before = blank_line_between(input, last_end, line);
                debug_assert_eq!(blank_before, follows_blank_line(input, line));
                if blank_before && self.names.contains(&name) {
                    self.pos = line;
                    break;
                }
            }
            self.names.push(name);
            visitor.tag(Tag {
                name,
                raw_value,
                offset: self.origin.offset + self.pos,
            });
            self.pos += used;
            last_end = self.pos;
            while matches!(input.get(self.pos), Some(b' ' | b'\t')) {
                self.pos += 1;
            }
            if input.get(self.pos) != Some(&b'[') {
                self.skip_space();
            }
        }
        Ok(last_end)
    }

    /// How the movetext ended when the input (slice) ends without a marker.
    fn end_of_input(&self) -> MovetextEnd {
        if self.origin.followed_by_game {
            MovetextEnd::NextGame
        } else {
            MovetextEnd::EndOfInput
        }
    }

    /// How a damaged game ended when reading resumes at `resume` (a game boundary or the
    /// end of the input).
    fn end_at(&self, resume: usize) -> MovetextEnd {
        if resume < self.input.len() {
            MovetextEnd::NextGame
        } else {
            self.end_of_input()
        }
    }

    // The three stops below happen at most once per game: `#[cold]` keeps them out of the
    // movetext loops (measured: about 1-2% fewer instructions per token).

    /// The movetext ran to the end of the input at variation depth `depth`.
    #[cold]
    fn stop_at_end(&self, depth: usize, last_end: usize) -> Stop {
        let error = (depth > 0).then_some((ErrorKind::UnterminatedVariation, self.pos, "')'"));
        Stop {
            how: self.end_of_input(),
            end: last_end,
            error,
        }
    }

    /// The next game's tags start at `pos`, at variation depth `depth`.
    #[cold]
    fn stop_at_next_game(depth: usize, pos: usize, last_end: usize) -> Stop {
        let error = (depth > 0).then_some((
            ErrorKind::UnterminatedVariation,
            pos,
            "')' before the next game",
        ));
        Stop {
            how: MovetextEnd::NextGame,
            end: last_end,
            error,
        }
    }

    /// The comment opened at `open` is not closed before a game boundary or the end of the
    /// input, where reading goes on; or it quotes a game with braces of its own, and the
    /// whole game is rejected up to the next game boundary after the comment's likely end
    /// (rather than reading the quoted game as a game).
    #[cold]
    fn comment_not_closed(&mut self, open: usize, unclosed: Unclosed) -> Stop {
        let (resume, error) = match unclosed {
            Unclosed::Runs(resume) => (resume, (ErrorKind::UnterminatedComment, open, "'}'")),
            Unclosed::Ambiguous(close) => (
                next_boundary_line(self.input, close + 1).unwrap_or(self.input.len()),
                (
                    ErrorKind::AmbiguousComment,
                    open,
                    "a comment that quotes a game without braces inside",
                ),
            ),
        };
        self.pos = resume;
        Stop {
            how: self.end_at(resume),
            end: trim_end(self.input, open, resume),
            error: Some(error),
        }
    }

    /// Whether a tag line behind invisible characters starts at `pos` (at a line start).
    #[cold]
    fn hidden_tag_line(&self, pos: usize) -> bool {
        at_line_start(self.input, pos) && invisible_prefix(self.input, pos) > 0
    }

    /// Reads a NAG (`$` at `pos`): its value, `None` for a `$` without digits.
    #[inline]
    fn nag(&mut self, pos: usize) -> Option<u16> {
        let digits = self.input[pos + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let mut nag: u32 = 0;
        for &d in &self.input[pos + 1..pos + 1 + digits.min(6)] {
            nag = nag * 10 + u32::from(d - b'0');
        }
        self.pos = pos + 1 + digits;
        (digits > 0).then(|| nag.min(u32::from(u16::MAX)) as u16)
    }

    /// Reads the comment at `pos` (`{…}`, or `;` to the end of the line) and reports it to
    /// `v`: where it ends, or the `Stop` of a brace comment not closed.
    #[inline(always)]
    fn comment<V: Visitor<'a>>(&mut self, v: &mut V, pos: usize) -> Result<usize, Stop> {
        let input = self.input;
        if input[pos] == b';' {
            let stop = line_end(input, pos);
            v.comment(&input[pos + 1..stop], self.origin.offset + pos);
            self.pos = stop;
            return Ok(stop);
        }
        if let Some(close) = clock_comment_close(input, pos) {
            v.clock_comment(&input[pos + 1..close], self.origin.offset + pos);
            self.pos = close + 1;
            return Ok(self.pos);
        }
        match scan_other_comment(input, pos) {
            Ok(close) => {
                v.comment(&input[pos + 1..close], self.origin.offset + pos);
                self.pos = close + 1;
                Ok(self.pos)
            }
            Err(unclosed) => Err(self.comment_not_closed(pos, unclosed)),
        }
    }

    /// Reads the `(` at `self.pos`, one level deeper than `depth`; a variation `v` skips
    /// is passed over to its `)`. Where the last element read ends, or the `Stop` when the
    /// movetext ends inside the skipped variation.
    fn open_variation<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        depth: &mut usize,
    ) -> Result<usize, Stop> {
        *depth += 1;
        self.pos += 1;
        if !v.begin_variation().0 {
            return Ok(self.pos);
        }
        match self.skip(*depth, self.pos) {
            Skipped::Closed(end) => {
                *depth -= 1;
                Ok(end)
            }
            Skipped::Stopped(stop) => Err(stop),
        }
    }

    /// Reads the movetext, reporting every element to `v` (but the variations `v` skips).
    ///
    /// The common elements (blanks, move numbers alone, SAN words — in a common form when
    /// `v` wants them decoded — and what follows a move one blank on, lone clock comments)
    /// are read here by the kind of their first byte ([`LEAD`]); [`Reader::element`] reads
    /// every other element (and any of these the fast reading does not take) by the
    /// general rules.
    fn read_movetext<V: Visitor<'a>>(&mut self, v: &mut V, mut last_end: usize) -> Stop {
        let input = self.input;
        let decode = v.wants_decoded_san();
        let mut depth = 0usize;
        let mut pos = self.pos;
        loop {
            let Some(&b) = input.get(pos) else {
                self.pos = pos;
                return self.stop_at_end(depth, last_end);
            };
            // Blanks by a compare of their own: through the table they took its jump.
            if is_space(b) {
                pos += 1;
                continue;
            }
            let lead = LEAD[usize::from(b)];
            if lead == Lead::Digit {
                // A move number alone: no event, whether or not moves are decoded.
                if let Some(end) = number_at(input, pos) {
                    pos = end;
                    last_end = pos;
                    continue;
                }
            } else if lead == Lead::San {
                if let Some(end) = self.move_word(v, pos, decode) {
                    // What follows the move one blank on (` { [%clk …] } 12.`, lichess) read
                    // here, without the loop's blanks and jumps.
                    match self.after_move(v, end) {
                        Ok(end) => {
                            pos = end;
                            last_end = end;
                        }
                        Err(stop) => return stop,
                    }
                    continue;
                }
            } else if lead == Lead::Brace {
                if let Some(close) = clock_comment_close(input, pos) {
                    v.clock_comment(&input[pos + 1..close], self.origin.offset + pos);
                    pos = close + 1;
                    last_end = pos;
                    continue;
                }
            }
            self.pos = pos;
            if let Some(stop) = self.element(v, b, decode, &mut depth, &mut last_end) {
                return stop;
            }
            pos = self.pos;
        }
    }

    /// Reads the word at `pos`, whose first byte is a [`Lead::San`]: decoded if `decode` (the
    /// one-pass path: a SAN word in a common form is decoded in the pass that finds its
    /// end), else reported as text, as the general rules' [`Reader::other_word`] reports a
    /// word starting with a letter (neither a move number nor a result). Where the word
    /// ends; `None`, with nothing reported, for a word the decoder does not take.
    #[inline(always)]
    fn move_word<V: Visitor<'a>>(&mut self, v: &mut V, pos: usize, decode: bool) -> Option<usize> {
        let input = self.input;
        if !decode {
            let w = word(&input[pos..]);
            self.emit_word(v, w, pos);
            return Some(pos + w.len());
        }
        // The common words from eight bytes loaded straight from the input (through the
        // window, a copy on the stack, each load waited for the copy).
        let common = match input[pos..].first_chunk::<8>() {
            Some(head) => decode_common(u64::from_le_bytes(*head)),
            None => None,
        };
        let decoded = match common {
            Some(decoded) => decoded,
            None => decode_forms(&window(&input[pos..]))?,
        };
        let end = pos + decoded.word_len;
        let raw = &input[pos..pos + decoded.san_len];
        v.decoded_san(decoded.san, raw, self.origin.offset + pos);
        emit_suffix(v, &input[pos + decoded.san_len..end]);
        Some(end)
    }

    /// What follows a move ending at `pos`, one blank on, read at once: a comment (a lone
    /// clock by its shape, any other by its scan), then a move number alone one blank on.
    /// Where reading goes on (`pos` when neither follows; else the end of the last element
    /// read), or the `Stop` of a comment not closed: what the general rules read there.
    #[inline(always)]
    fn after_move<V: Visitor<'a>>(&mut self, v: &mut V, pos: usize) -> Result<usize, Stop> {
        let input = self.input;
        if input.get(pos) != Some(&b' ') {
            return Ok(pos);
        }
        let open = pos + 1;
        let end = if let Some(close) = clock_comment_close(input, open) {
            v.clock_comment(&input[open + 1..close], self.origin.offset + open);
            close + 1
        } else if input.get(open) == Some(&b'{') {
            match scan_other_comment(input, open) {
                Ok(close) => {
                    v.comment(&input[open + 1..close], self.origin.offset + open);
                    close + 1
                }
                Err(unclosed) => return Err(self.comment_not_closed(open, unclosed)),
            }
        } else {
            return Ok(pos);
        };
        Ok(number_after_blank(input, end).unwrap_or(end))
    }

    /// [`Reader::read_movetext`] by the general rules alone: every element read by
    /// [`Reader::element`] (for tests comparing the two).
    #[cfg(test)]
    fn read_movetext_general<V: Visitor<'a>>(&mut self, v: &mut V, mut last_end: usize) -> Stop {
        let decode = v.wants_decoded_san();
        let mut depth = 0usize;
        loop {
            self.skip_space();
            let Some(&b) = self.input.get(self.pos) else {
                return self.stop_at_end(depth, last_end);
            };
            if let Some(stop) = self.element(v, b, decode, &mut depth, &mut last_end) {
                return stop;
            }
        }
    }

    /// Reads the movetext element at `self.pos` (first byte `b`, not blank) by the general
    /// rules (SAN words decoded if `decode`), at variation depth `depth`, `last_end` the end
    /// of the last element read: the `Stop` when the movetext stops there, else `None`
    /// (reading goes on at `self.pos`).
    fn element<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        b: u8,
        decode: bool,
        depth: &mut usize,
        last_end: &mut usize,
    ) -> Option<Stop> {
        let input = self.input;
        let pos = self.pos;
        match b {
            b'[' if at_line_start(input, pos) && is_tag_line(input, pos) => {
                return Some(Self::stop_at_next_game(*depth, pos, *last_end));
            }
            c if starts_invisible(c) && self.hidden_tag_line(pos) => {
                return Some(Self::stop_at_next_game(*depth, pos, *last_end));
            }
            b'{' | b';' => match self.comment(v, pos) {
                Ok(end) => *last_end = end,
                Err(stop) => return Some(stop),
            },
            b'%' if at_line_start(input, pos) => self.skip_line(),
            b'(' => match self.open_variation(v, depth) {
                Ok(end) => *last_end = end,
                Err(stop) => return Some(stop),
            },
            b')' => {
                self.pos += 1;
                *last_end = self.pos;
                if *depth > 0 {
                    v.end_variation();
                    *depth -= 1;
                }
            }
            b'$' => {
                let nag = self.nag(pos);
                *last_end = self.pos;
                if let Some(nag) = nag {
                    v.nag(nag);
                }
            }
            // A stray closing bracket: skipped.
            b'}' | b']' => self.pos += 1,
            _ => {
                // A move number alone, or a SAN word in a common form decoded in the pass
                // that finds its end (what the caller's fast reading takes first).
                let w = window(&input[pos..]);
                if w[0].is_ascii_digit() {
                    if let Some(len) = move_number(&w) {
                        self.pos = pos + len;
                        *last_end = self.pos;
                        return None;
                    }
                } else if let Some(decoded) = decode.then(|| decode_window(&w)).flatten() {
                    self.pos = pos + decoded.word_len;
                    *last_end = self.pos;
                    let raw = &input[pos..pos + decoded.san_len];
                    v.decoded_san(decoded.san, raw, self.origin.offset + pos);
                    emit_suffix(v, &input[pos + decoded.san_len..self.pos]);
                    return None;
                }
                let ended = self.other_word(v, pos, *depth);
                *last_end = self.pos;
                if let Some(result) = ended {
                    return Some(Stop {
                        how: MovetextEnd::Result(result),
                        end: self.pos,
                        error: None,
                    });
                }
            }
        }
        None
    }

    /// Reads the word at `pos` that is not a SAN in a common form or a move number alone
    /// (those [`Reader::read_movetext`] reads): a result, or anything else, reported to `v`. Returns
    /// the result when it ends the movetext (at `depth` 0); reading goes on at `self.pos`.
    fn other_word<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        pos: usize,
        depth: usize,
    ) -> Option<GameResult> {
        let w = word(&self.input[pos..]);
        self.pos = pos + w.len().max(1);
        let core = after_move_number(w);
        match as_result(core) {
            Some(result) if depth == 0 => {
                v.result(result);
                Some(result)
            }
            // A result inside a variation is ignored.
            Some(_) => None,
            None => {
                self.emit_word(v, core, pos + (w.len() - core.len()));
                None
            }
        }
    }

    /// Passes over the whole movetext without reporting it (the result is still found).
    fn skip_movetext(&mut self, mut last_end: usize) -> Stop {
        loop {
            match self.skip(0, last_end) {
                Skipped::Stopped(stop) => return stop,
                // Only a variation opened at depth > 0 closes: not reached from depth 0.
                Skipped::Closed(end) => last_end = end,
            }
        }
    }

    /// Passes over movetext without reporting it, from inside `floor` variations: until the
    /// variation open at depth `floor` (> 0) closes, or the movetext stops (at a result only
    /// at depth 0, so never inside a skipped variation).
    fn skip(&mut self, floor: usize, mut last_end: usize) -> Skipped {
        let input = self.input;
        let mut depth = floor;
        loop {
            self.skip_space();
            let pos = self.pos;
            let Some(&b) = input.get(pos) else {
                return Skipped::Stopped(self.stop_at_end(depth, last_end));
            };
            match b {
                b'[' if at_line_start(input, pos) && is_tag_line(input, pos) => {
                    return Skipped::Stopped(Self::stop_at_next_game(depth, pos, last_end));
                }
                c if starts_invisible(c) && self.hidden_tag_line(pos) => {
                    return Skipped::Stopped(Self::stop_at_next_game(depth, pos, last_end));
                }
                b'{' => match scan_comment(input, pos) {
                    Ok(close) => {
                        self.pos = close + 1;
                        last_end = self.pos;
                    }
                    Err(unclosed) => {
                        return Skipped::Stopped(self.comment_not_closed(pos, unclosed))
                    }
                },
                b';' => {
                    self.pos = line_end(input, pos);
                    last_end = self.pos;
                }
                b'%' if at_line_start(input, pos) => self.skip_line(),
                b'(' => {
                    depth += 1;
                    self.pos += 1;
                    last_end = self.pos;
                }
                b')' => {
                    self.pos += 1;
                    last_end = self.pos;
                    if depth > 0 {
                        if depth == floor {
                            return Skipped::Closed(last_end);
                        }
                        depth -= 1;
                    }
                }
                b'$' => {
                    self.nag(pos);
                    last_end = self.pos;
                }
                b'}' | b']' => self.pos += 1,
                _ => {
                    // Pass over every word that cannot be a result at once.
                    let run = plain_words(input, pos);
                    if let Some(end) = run.last_word_end {
                        last_end = end;
                    }
                    let start = match run.result_candidate {
                        Some(start) => start,
                        None if run.resume > pos => {
                            self.pos = run.resume;
                            continue;
                        }
                        None => pos,
                    };
                    let w = word(&input[start..]);
                    self.pos = start + w.len().max(1);
                    last_end = self.pos;
                    if let (Some(result), 0) = (as_result(after_move_number(w)), depth) {
                        return Skipped::Stopped(Stop {
                            how: MovetextEnd::Result(result),
                            end: self.pos,
                            error: None,
                        });
                    }
                }
            }
        }
    }

    /// Emits a movetext word without its move number (`w`, at `at`): move, null move or
    /// suffix.
    fn emit_word<V: Visitor<'a>>(&self, v: &mut V, w: &'a [u8], at: usize) {
        if w.is_empty() {
            return;
        }
        let suffix_len = w
            .iter()
            .rev()
            .take_while(|&&c| c == b'!' || c == b'?')
            .count();
        let (san, suffix) = w.split_at(w.len() - suffix_len);
        if !san.is_empty() {
            match san {
                b"--" | b"Z0" | b"0000" | b"@@@@" => v.null_move(self.origin.offset + at),
                _ => v.san(san, self.origin.offset + at),
            }
        }
        emit_suffix(v, suffix);
    }
}

/// Emits the `!`/`?` suffix annotations written after a move (`suffix`: only those bytes,
/// possibly none).
#[inline]
fn emit_suffix<'a, V: Visitor<'a>>(v: &mut V, suffix: &[u8]) {
    if suffix.is_empty() {
        return;
    }
    match Suffix::parse(suffix) {
        Some(s) => v.suffix(s),
        None => {
            for c in suffix.chunks(2) {
                if let Some(s) = Suffix::parse(c) {
                    v.suffix(s);
                }
            }
        }
    }
}

/// A SAN word decoded by [`decode_san`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DecodedWord {
    /// The move.
    pub(crate) san: DecodedSan,
    /// The length of the SAN with its check marks (what [`Visitor::san`] would be given).
    pub(crate) san_len: usize,
    /// The length of the whole word (with the `!`/`?` after it).
    pub(crate) word_len: usize,
}

/// The index of a file letter `a`-`h`.
#[inline(always)]
fn file_index(b: u8) -> Option<u8> {
    let i = b.wrapping_sub(b'a');
    (i < 8).then_some(i)
}

/// The index of a rank digit `1`-`8`.
#[inline(always)]
fn rank_index(b: u8) -> Option<u8> {
    let i = b.wrapping_sub(b'1');
    (i < 8).then_some(i)
}

/// The bytes a SAN word is decoded from: the first [`WINDOW`] bytes of the input left,
/// padded with spaces (delimiters) past its end.
const WINDOW: usize = 16;

/// The byte at `i` of the window; `i` is below [`WINDOW`] wherever it is called (no bounds
/// check: the mask keeps it in the window).
#[inline(always)]
fn byte_at(window: &[u8; WINDOW], i: usize) -> u8 {
    window[i & (WINDOW - 1)]
}

/// The first [`WINDOW`] bytes of `rest`, padded with spaces past its end.
#[inline(always)]
fn window(rest: &[u8]) -> [u8; WINDOW] {
    match rest.first_chunk::<WINDOW>() {
        Some(window) => *window,
        None => {
            let mut window = [b' '; WINDOW];
            window[..rest.len()].copy_from_slice(rest);
            window
        }
    }
}

/// Decodes the movetext word at the start of `rest` in the pass that finds its end, when it
/// is a SAN move in a common form: `[NBRQK]?[a-h]?[1-8]?[x:]?[a-h][1-8]`, a pawn's
/// `=?[NBRQ]`, or `O-O`/`O-O-O`; then `[+#]*[!?]*` and a delimiter. `None` for any other word
/// (move numbers, results, null moves, the rarer forms, junk), which is read as text. A
/// decoded word is one the text path reads as the same move (a property test in `pgn960`
/// checks this against the SAN reader of `chess960-core`).
#[inline]
pub(crate) fn decode_san(rest: &[u8]) -> Option<DecodedWord> {
    decode_window(&window(rest))
}

/// The end of a move number alone one blank after `pos` (` 12.`, ` 12...`), if one is there.
#[inline(always)]
fn number_after_blank(input: &[u8], pos: usize) -> Option<usize> {
    if input.get(pos) != Some(&b' ') || !input.get(pos + 1)?.is_ascii_digit() {
        return None;
    }
    number_at(input, pos + 1)
}

/// The end of a move number alone at `at` (see [`move_number`]), if one is there: from eight
/// bytes loaded straight from the input where they are there and hold it (through the
/// window, a copy on the stack, each load waited for the copy), else from the window.
#[inline(always)]
fn number_at(input: &[u8], at: usize) -> Option<usize> {
    let rest = input.get(at..)?;
    let len = match rest.first_chunk::<8>() {
        Some(head) => match number_in_word(u64::from_le_bytes(*head)) {
            Some(len) => len,
            None => move_number_bytewise(&window(rest)),
        },
        None => move_number(&window(rest)),
    };
    len.map(|len| at + len)
}

/// The length of a move number alone at the start of the window (digits, then dots, then a
/// delimiter): a word the movetext reader would pass over without an event. The first eight
/// bytes are classified at once; a number or dots running past them take the byte loop.
#[inline(always)]
fn move_number(w: &[u8; WINDOW]) -> Option<usize> {
    number_in_word(head_word(w)).unwrap_or_else(|| move_number_bytewise(w))
}

/// [`move_number`] on eight bytes `x` (little-endian): `None` when the digits or the dots
/// run to the eighth byte (the delimiter is not in `x`), else whether a move number is
/// there and its length. The delimiter after it is most often a blank, tested on `x`
/// without the table.
#[inline(always)]
fn number_in_word(x: u64) -> Option<Option<usize>> {
    let digits = (non_digit_bytes(x).trailing_zeros() / 8) as usize;
    // Dots from `digits` on: the first byte after them that is not a dot.
    let after = non_zero_bytes(x ^ splat(b'.')) & (u64::MAX << (digits * 8 % 64));
    let end = (after.trailing_zeros() / 8) as usize;
    if digits == 8 || end == 8 {
        return None;
    }
    let delimiter = (x >> (8 * (end % 8))) as u8;
    let ends = delimiter <= 0x20 || DELIMITER[usize::from(delimiter)];
    Some((end > digits && ends).then_some(end))
}

/// [`move_number`] one byte at a time, over the whole window.
#[cold]
fn move_number_bytewise(w: &[u8; WINDOW]) -> Option<usize> {
    let mut i = 0;
    while i < WINDOW - 1 && byte_at(w, i).is_ascii_digit() {
        i += 1;
    }
    let digits = i;
    while i < WINDOW - 1 && byte_at(w, i) == b'.' {
        i += 1;
    }
    (i > digits && DELIMITER[byte_at(w, i) as usize]).then_some(i)
}

/// The high bit of each byte of `x` that is not zero (exact for every byte).
#[inline(always)]
const fn non_zero_bytes(x: u64) -> u64 {
    (((x & splat(0x7F)).wrapping_add(splat(0x7F))) | x) & splat(0x80)
}

/// The high bit of each byte of `x` that is not an ASCII digit (exact for every byte).
#[inline(always)]
const fn non_digit_bytes(x: u64) -> u64 {
    // A digit XOR `0` is below 10: adding 0x76 to its low seven bits leaves the high bit
    // clear; any other byte sets it, here or in the byte itself.
    let t = x ^ splat(b'0');
    (((t & splat(0x7F)).wrapping_add(splat(0x76))) | t) & splat(0x80)
}

/// [`decode_san`] on the window of the word. Always inlined: out of line its result (a
/// decoded word) went through memory on every move.
#[inline(always)]
fn decode_window(w: &[u8; WINDOW]) -> Option<DecodedWord> {
    match decode_common(head_word(w)) {
        Some(decoded) => Some(decoded),
        None => decode_forms(w),
    }
}

/// The high bit of each byte of `x` from `lo` to `hi` (both below 0x80; exact for every
/// byte).
#[inline(always)]
const fn bytes_in(x: u64, lo: u8, hi: u8) -> u64 {
    let low = x & splat(0x7F);
    let at_least_lo = low + splat(0x80 - lo);
    let above_hi = low + splat(0x7F - hi);
    at_least_lo & !above_hi & !x & splat(0x80)
}

/// The high bit of each byte of `x` that is `b` (exact for every byte).
#[inline(always)]
const fn bytes_eq(x: u64, b: u8) -> u64 {
    non_zero_bytes(x ^ splat(b)) ^ splat(0x80)
}

/// The SAN words most moves are, decoded from their first eight bytes `x` (little-endian)
/// at once: a pawn's `e4`, `exd5` or `ed5`, a piece's `Nf3` or `Nxe5`, each with at most one
/// `+` or `#`, then a blank (a byte up to 0x20). Each byte's class (file, rank, `x`, mark,
/// blank) is found for all eight at once, the word's end by its first blank, and the shape
/// by one compare of the classes against the one the end calls for; the positions are
/// bits of that blank, not shifts by a length. `None` for any other word, which
/// [`decode_forms`] reads; a word decoded here is decoded the same there.
#[inline(always)]
fn decode_common(x: u64) -> Option<DecodedWord> {
    let files = bytes_in(x, b'a', b'h');
    let blanks = !((x & splat(0x7F)) + splat(0x7F - 0x20)) & !x & splat(0x80);
    let sharps = bytes_eq(x, b'#');
    let marks = bytes_eq(x, b'+') | sharps;
    // Class bits, one a byte: file 0x80, rank 0x40, `x` 0x20, blank 0x10, mark 0x08.
    let code = files | bytes_in(x, b'1', b'8') >> 1 | bytes_eq(x, b'x') >> 2 | blanks >> 3;
    let code = code | marks >> 4;
    // The high bit of the first blank (none: not a common word), then of the byte after
    // the move: the blank, or a mark right before it.
    let blank = blanks & blanks.wrapping_neg();
    let marked = marks & (blank >> 8);
    let after = if marked != 0 { marked } else { blank };
    // The move ends 2 to 4 bytes in for a pawn (`e4`, `ed5`, `exd5`), 3 or 4 for a piece.
    let pawn = files & 0x80 != 0;
    let ends = if pawn { 0x80_8080_0000 } else { 0x80_8000_0000 };
    if after & ends == 0 || !(pawn || matches!(x as u8, b'N' | b'B' | b'R' | b'Q' | b'K')) {
        return None;
    }
    // Its classes after the first byte: `x`, file, rank, ending before `after`.
    let shape = (0x40_8020u64.wrapping_mul(after >> 7) >> 24) & !0xFF;
    let in_word = (blank | blank.wrapping_sub(1)) & !0xFF;
    if code & in_word != shape | marked >> 4 | blank >> 3 {
        return None;
    }
    // The move's length: the target's file and rank are its last two bytes.
    let n = (after.trailing_zeros() / 8) as usize;
    let target = x >> (8 * (n.wrapping_sub(2) & 7));
    let first = x as u8;
    let action = SanAction::Move {
        piece: if pawn { b'P' } else { first },
        from_file: (pawn && n > 2).then(|| first.wrapping_sub(b'a')),
        from_rank: None,
        capture: n == 4,
        to: ((target >> 8) as u8).wrapping_sub(b'1') * 8 + (target as u8).wrapping_sub(b'a'),
        promotion: None,
    };
    let mark = if sharps & marked != 0 { b'#' } else { b'+' };
    let len = n + usize::from(marked != 0);
    Some(DecodedWord {
        san: DecodedSan {
            action,
            mark: (marked != 0).then_some(mark),
        },
        san_len: len,
        word_len: len,
    })
}

/// [`decode_window`] by the forms one at a time: the general decoder.
#[inline(always)]
fn decode_forms(w: &[u8; WINDOW]) -> Option<DecodedWord> {
    // At most 9 bytes up to the end of a promotion: the window holds them.
    let (action, mut i) = match w[0] {
        b'a'..=b'h' => decode_move(w, b'P', 0)?,
        piece @ (b'N' | b'B' | b'R' | b'Q' | b'K') => decode_move(w, piece, 1)?,
        b'O' => decode_castling(w)?,
        _ => return None,
    };
    let mut mark = None;
    while i < WINDOW - 1 {
        match byte_at(w, i) {
            b'+' => mark = mark.or(Some(b'+')),
            b'#' => mark = Some(b'#'),
            _ => break,
        }
        i += 1;
    }
    let san_len = i;
    while i < WINDOW - 1 && matches!(byte_at(w, i), b'!' | b'?') {
        i += 1;
    }
    // A word that fills the window is left to the text path.
    DELIMITER[byte_at(w, i) as usize].then_some(DecodedWord {
        san: DecodedSan { action, mark },
        san_len,
        word_len: i,
    })
}

/// The first eight bytes of the window, little-endian.
#[inline(always)]
fn head_word(w: &[u8; WINDOW]) -> u64 {
    let mut head = [0; 8];
    head.copy_from_slice(&w[..8]);
    u64::from_le_bytes(head)
}

/// A piece or pawn move from `rest[start..]` (after the piece letter): the move and where
/// it ends.
#[inline(always)]
fn decode_move(w: &[u8; WINDOW], piece: u8, start: usize) -> Option<(SanAction, usize)> {
    let mut i = start;
    let first_file = file_index(byte_at(w, i));
    i += usize::from(first_file.is_some());
    let first_rank = rank_index(byte_at(w, i));
    i += usize::from(first_rank.is_some());
    let capture = matches!(byte_at(w, i), b'x' | b':');
    i += usize::from(capture);
    let second_file = file_index(byte_at(w, i));
    i += usize::from(second_file.is_some());
    let second_rank = rank_index(byte_at(w, i));
    i += usize::from(second_rank.is_some());
    // Two coordinates: the origin hints, then the target; one: the target alone.
    let (from_file, from_rank, to) = match (second_file, second_rank) {
        (Some(file), Some(rank)) => (first_file, first_rank, rank * 8 + file),
        (None, None) if !capture => (None, None, first_rank? * 8 + first_file?),
        _ => return None,
    };
    let mut promotion = None;
    if piece == b'P' {
        let equals = byte_at(w, i) == b'=';
        i += usize::from(equals);
        match byte_at(w, i) {
            p @ (b'N' | b'B' | b'R' | b'Q') => {
                promotion = Some(p);
                i += 1;
            }
            _ if equals => return None,
            _ => {}
        }
    }
    let action = SanAction::Move {
        piece,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
    };
    Some((action, i))
}

/// `O-O` or `O-O-O` at the start of `rest`, and where it ends.
#[inline]
fn decode_castling(w: &[u8; WINDOW]) -> Option<(SanAction, usize)> {
    if !w.starts_with(b"O-O") {
        return None;
    }
    let queen_side = w[3..].starts_with(b"-O");
    Some((
        SanAction::Castle { queen_side },
        if queen_side { 5 } else { 3 },
    ))
}

/// `w` without its leading move numbers (`12.`, `12...`, dots alone as in `1 ... e5`, or
/// several glued together as in `2.2.`); the same rule decides results and moves, so a word
/// is never both, and a move never starts with a move number (it reads back the same alone).
#[inline]
fn after_move_number(mut w: &[u8]) -> &[u8] {
    loop {
        let digits = w.iter().take_while(|c| c.is_ascii_digit()).count();
        let dots = w[digits..].iter().take_while(|&&c| c == b'.').count();
        if dots > 0 {
            w = &w[digits + dots..];
        } else if digits > 0 && digits == w.len() {
            return &w[digits..];
        } else {
            return w;
        }
    }
}

/// The result a word without its move number is, if it is one (a result may follow a move
/// number directly: `23.*`, `41...1-0`).
#[inline(always)]
fn as_result(core: &[u8]) -> Option<GameResult> {
    if matches!(core.first(), Some(b'0' | b'1' | b'*' | 0xc2)) {
        GameResult::parse(core)
    } else {
        None
    }
}

/// Bytes that stop [`plain_words`]: every delimiter but blanks, line breaks (a line may
/// start with `%` or a tag), and `-` and `*`, one of which every result contains.
static PLAIN_STOP: [bool; 256] = byte_set(b"{}();[]$\n\r-*", false);

/// What [`plain_words`] found.
struct PlainRun {
    /// Where reading goes on (the stop byte, or the start of `result_candidate`).
    resume: usize,
    /// The end of the last word passed over, if any.
    last_word_end: Option<usize>,
    /// The start of a word holding `-` or `*`, to be read as usual.
    result_candidate: Option<usize>,
}

/// In movetext that is skipped, words matter only if they are results: the words from `pos`
/// up to the first [`PLAIN_STOP`] byte have neither `-` nor `*`, so they are passed over
/// without looking at them one by one, and so are closed comments. Word boundaries are the
/// same as [`word`]'s, because every stop byte but `-` and `*` is a delimiter.
#[inline]
fn plain_words(input: &[u8], pos: usize) -> PlainRun {
    let mut from = pos;
    let mut last_word_end = None;
    loop {
        let stop = input[from..]
            .iter()
            .position(|&c| PLAIN_STOP[c as usize])
            .map_or(input.len(), |i| from + i);
        let result_candidate =
            (stop < input.len() && matches!(input[stop], b'-' | b'*')).then(|| {
                let mut start = stop;
                while start > from && !DELIMITER[input[start - 1] as usize] {
                    start -= 1;
                }
                start
            });
        let resume = result_candidate.unwrap_or(stop);
        let mut end = resume;
        while end > from && is_space(input[end - 1]) {
            end -= 1;
        }
        if end > from {
            last_word_end = Some(end);
        }
        if result_candidate.is_none() && stop < input.len() && input[stop] == b'{' {
            // A comment that closes is passed over too (one that does not is left to the
            // reader, which reports it).
            if let Ok(close) = scan_comment(input, stop) {
                from = close + 1;
                last_word_end = Some(from);
                continue;
            }
        }
        return PlainRun {
            resume,
            last_word_end,
            result_candidate,
        };
    }
}

/// The word starting at the beginning of `rest` (up to a delimiter).
#[inline]
fn word(rest: &[u8]) -> &[u8] {
    let len = rest
        .iter()
        .position(|&c| DELIMITER[c as usize])
        .unwrap_or(rest.len());
    &rest[..len]
}

/// The end of the game's text before `resume`, without trailing white space.
fn trim_end(input: &[u8], start: usize, resume: usize) -> usize {
    let mut end = resume.min(input.len());
    while end > start && is_space(input[end - 1]) {
        end -= 1;
    }
    end
}

/// Whether a blank line ends just before `line` (a line start), when only white space lies
/// between `from` (just after a tag, so not on a blank line) and `line`: two line breaks
/// between them (`\r\n` counted once), as [`follows_blank_line`] finds looking back.
#[inline]
fn blank_line_between(input: &[u8], from: usize, line: usize) -> bool {
    let gap = &input[from..line];
    let breaks = gap.iter().filter(|&&b| b == b'\n' || b == b'\r').count();
    let crlf = gap.windows(2).filter(|w| w == b"\r\n").count();
    breaks - crlf >= 2
}

/// `b` in every byte of a word.
#[inline(always)]
pub(crate) const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The high bit of each zero byte of `x` (exact for the lowest zero byte, which is all
/// [`scan_comment`] uses).
#[inline(always)]
pub(crate) const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(splat(1)) & !x & splat(0x80)
}

/// Why a comment has no `}` the reader can trust.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unclosed {
    /// It runs into a game boundary (or the end of the input), where reading resumes.
    Runs(usize),
    /// It runs over a quoted game that has braces of its own: the likely closing `}`.
    Ambiguous(usize),
}

/// The clock `H:MM:SS` of a comment whose text (between its braces) is exactly
/// ` [%clk H:MM:SS] `, a digit at each place but the colons: the lone lichess clock, most
/// comments of a lichess export; else `None`.
#[inline(always)]
pub fn lone_clock(text: &[u8]) -> Option<&[u8; 7]> {
    let w: &[u8; 16] = text.try_into().ok()?;
    let (head, rest) = w.split_first_chunk::<7>()?;
    let (clock, tail) = rest.split_first_chunk::<8>()?;
    if !(head == b" [%clk " && is_clock(clock) && tail == b" ") {
        return None;
    }
    clock.first_chunk()
}

/// Whether eight bytes are `H:MM:SS]` with a digit at each place but the colons: one XOR
/// against the shape, then the digits tested eight bytes at a time.
#[inline(always)]
fn is_clock(clock: &[u8; 8]) -> bool {
    /// `H:MM:SS]` with `0` for each digit.
    const CLOCK: u64 = u64::from_le_bytes(*b"0:00:00]");
    /// Bits that must be clear in the clock XOR [`CLOCK`]: all of a fixed byte, the high
    /// nibble of a digit.
    const FIXED: u64 = u64::from_le_bytes([0xF0, 0xFF, 0xF0, 0xF0, 0xFF, 0xF0, 0xF0, 0xFF]);
    /// Six added to each digit's low nibble carries into bit 4 when the nibble is over 9.
    const SIX: u64 = u64::from_le_bytes([6, 0, 6, 6, 0, 6, 6, 0]);
    const OVER_NINE: u64 = u64::from_le_bytes([0x10, 0, 0x10, 0x10, 0, 0x10, 0x10, 0]);
    let shape = u64::from_le_bytes(*clock) ^ CLOCK;
    shape & FIXED == 0 && (shape + SIX) & OVER_NINE == 0
}

/// The `}` of a comment opened at `open` that is exactly a lone clock (`{ [%clk H:MM:SS] }`,
/// 18 bytes: [`lone_clock`] with its braces, the first eight bytes and the last two each
/// one compare). It holds no `}` or line break before its end, so [`scan_other_comment`]
/// would find the same `}`.
#[inline(always)]
fn clock_comment_close(input: &[u8], open: usize) -> Option<usize> {
    let w: &[u8; 18] = input.get(open..)?.first_chunk()?;
    let (head, rest) = w.split_first_chunk::<8>()?;
    let (clock, tail) = rest.split_first_chunk::<8>()?;
    (head == b"{ [%clk " && is_clock(clock) && tail == b" }").then_some(open + 17)
}

/// Finds the `}` closing the comment opened at `open`. A comment that runs over a tag line
/// that would start a game ([`is_boundary_line`]) is a comment quoting a game if it closes
/// within [`crate::boundary::QUOTE_WINDOW`] ([`quoted_close`]), else unterminated. The lone
/// clock is recognised inline, in the caller; other comments take a call.
#[inline(always)]
fn scan_comment(input: &[u8], open: usize) -> Result<usize, Unclosed> {
    match clock_comment_close(input, open) {
        Some(close) => Ok(close),
        None => scan_other_comment(input, open),
    }
}

/// [`scan_comment`] for a comment that is not a lone clock.
fn scan_other_comment(input: &[u8], open: usize) -> Result<usize, Unclosed> {
    let mut p = open + 1;
    // Most comments are short (`{ [%clk 0:01:00] }`): look at the first bytes directly
    // before paying for a vectorised search.
    let short_end = (p + 48).min(input.len());
    // Eight bytes at a time (SWAR): the lowest byte that is `}`, `\n` or `\r`.
    while p + 8 <= short_end {
        let word = u64::from_le_bytes(input[p..p + 8].try_into().unwrap_or([0; 8]));
        let hits = zero_bytes(word ^ splat(b'}'))
            | zero_bytes(word ^ splat(b'\n'))
            | zero_bytes(word ^ splat(b'\r'));
        if hits != 0 {
            p += (hits.trailing_zeros() / 8) as usize;
            break;
        }
        p += 8;
    }
    while p < short_end {
        match input[p] {
            b'}' => return Ok(p),
            b'\n' | b'\r' => break,
            _ => p += 1,
        }
    }
    loop {
        match memchr::memchr3(b'}', b'\n', b'\r', &input[p..]) {
            None => return Err(Unclosed::Runs(input.len())),
            Some(i) => {
                let q = p + i;
                if input[q] == b'}' {
                    return Ok(q);
                }
                p = q + 1;
                if input.get(p) == Some(&b'[') && is_boundary_line(input, p) {
                    return match quoted_close(input, p) {
                        None => Err(Unclosed::Runs(p)),
                        Some((close, false)) => Ok(close),
                        Some((close, true)) => Err(Unclosed::Ambiguous(close)),
                    };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use crate::visitor::Skip;

    /// `scan_comment` one byte at a time, for comparison.
    fn scan_comment_bytewise(input: &[u8], open: usize) -> Result<usize, Unclosed> {
        let mut p = open + 1;
        while p < input.len() {
            match input[p] {
                b'}' => return Ok(p),
                b'\n' | b'\r'
                    if input.get(p + 1) == Some(&b'[') && is_boundary_line(input, p + 1) =>
                {
                    return match quoted_close(input, p + 1) {
                        None => Err(Unclosed::Runs(p + 1)),
                        Some((close, false)) => Ok(close),
                        Some((close, true)) => Err(Unclosed::Ambiguous(close)),
                    };
                }
                _ => p += 1,
            }
        }
        Err(Unclosed::Runs(input.len()))
    }

    /// Every event of a movetext, as text.
    struct Record {
        decode: bool,
        events: Vec<String>,
    }

    impl<'a> Visitor<'a> for Record {
        type Output = ();
        fn san(&mut self, san: &'a [u8], offset: usize) {
            self.events.push(format!("san {san:?} {offset}"));
        }
        fn wants_decoded_san(&self) -> bool {
            self.decode
        }
        fn decoded_san(&mut self, san: DecodedSan, raw: &'a [u8], offset: usize) {
            self.events
                .push(format!("decoded {san:?} {raw:?} {offset}"));
        }
        fn null_move(&mut self, offset: usize) {
            self.events.push(format!("null {offset}"));
        }
        fn comment(&mut self, text: &'a [u8], offset: usize) {
            self.events.push(format!("comment {text:?} {offset}"));
        }
        fn clock_comment(&mut self, text: &'a [u8], offset: usize) {
            self.events.push(format!("clock {text:?} {offset}"));
        }
        fn nag(&mut self, nag: u16) {
            self.events.push(format!("nag {nag}"));
        }
        fn suffix(&mut self, suffix: Suffix) {
            self.events.push(format!("suffix {suffix:?}"));
        }
        fn begin_variation(&mut self) -> Skip {
            // Every third variation skipped, so that both ways are read.
            self.events.push("(".into());
            Skip(self.events.len().is_multiple_of(3))
        }
        fn end_variation(&mut self) {
            self.events.push(")".into());
        }
        fn result(&mut self, result: GameResult) {
            self.events.push(format!("result {result:?}"));
        }
        fn end_game(&mut self, _end: GameEnd) {}
    }

    /// The movetext at the start of `input` read by the fast loop and by the general rules
    /// alone: the same events, the same stop, the same position after it.
    fn assert_movetext_reads_as_general(input: &[u8]) {
        for decode in [true, false] {
            let read = |general: bool| {
                let mut reader = Reader::new(input);
                let mut record = Record {
                    decode,
                    events: Vec::new(),
                };
                let start = reader.pos;
                let stop = if general {
                    reader.read_movetext_general(&mut record, start)
                } else {
                    reader.read_movetext(&mut record, start)
                };
                (record.events, stop.how, stop.end, stop.error, reader.pos)
            };
            assert_eq!(
                read(false),
                read(true),
                "{decode} {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn movetext_fast_reading_agrees_with_the_general_rules_for_every_byte() {
        let game: &[u8] = b"1. e4 { [%clk 0:03:00] } 1... exd5!? { [%clk 0:02:59] } 2. Nbd7+ $1 \
            (2. d4 d5) 2... O-O-O# {x} ; c\n3. e8=Q 0-0 -- 12.Nf3 { [%eval -1.2] } 12... Kxd8 \
            \n%x\n 1-0\n\n[Event \"x\"]";
        assert_movetext_reads_as_general(game);
        for i in 0..game.len() {
            for b in 0..=255u8 {
                let mut input = game.to_vec();
                input[i] = b;
                assert_movetext_reads_as_general(&input);
            }
            assert_movetext_reads_as_general(&game[..i]);
        }
    }

    #[test]
    fn movetext_fast_reading_agrees_with_the_general_rules_on_random_text() {
        let pieces: [&[u8]; 32] = [
            b"1.",
            b"12...",
            b" ",
            b"\n",
            b"e4",
            b"Nf3",
            b"exd5",
            b"O-O",
            b"O-O-O",
            b"{ [%clk 0:01:00] }",
            b"{c}",
            b"(",
            b")",
            b"$5",
            b"!?",
            b"1-0",
            b"*",
            b"+",
            b"#",
            b"[Event \"x\"]\n",
            b"%x\n",
            b";c\n",
            b"}",
            b"{",
            b"\xEF\xBB\xBF",
            b"=Q",
            b"--",
            b"1/2-1/2",
            b"0-0",
            b"\r\n",
            b" { [%eval 0.1] } ",
            b"Bxb5+ ",
        ];
        let mut rng = Rng(0x853c_49e6_748f_ea9bu64);
        let mut next = |n: usize| rng.below(n);
        for _ in 0..20_000 {
            let mut input = Vec::new();
            for _ in 0..next(24) {
                if next(8) == 0 {
                    input.push(next(256) as u8);
                } else {
                    input.extend_from_slice(pieces[next(pieces.len())]);
                }
            }
            assert_movetext_reads_as_general(&input);
        }
    }

    #[test]
    fn clock_comments_and_near_misses_scan_as_bytewise() {
        let clock = b"{ [%clk 0:03:00] } 2. d4";
        assert_eq!(clock_comment_close(clock, 0), Some(17));
        // Every one-byte change of the clock comment (and a cut one) agrees with a bytewise
        // scan, whether or not the shape still holds.
        for i in 0..clock.len() {
            for b in [b'}', b'\n', b'x', b'5', b':', b' ', b']'] {
                let mut input = clock.to_vec();
                input[i] = b;
                assert_eq!(scan_comment(&input, 0), scan_comment_bytewise(&input, 0));
            }
            assert_eq!(
                scan_comment(&clock[..i + 1], 0),
                scan_comment_bytewise(&clock[..i + 1], 0)
            );
        }
        assert_eq!(clock_comment_close(b"{ [%clk 0:03:00.5] }", 0), None);
        assert_eq!(clock_comment_close(b"{ [%clk 10:03:00] }", 0), None);
    }

    /// The common-word decoder, where it decodes, against the decoder by forms.
    fn assert_common_decodes_as_forms(w: &[u8; WINDOW]) -> bool {
        let common = decode_common(head_word(w));
        if common.is_some() {
            assert_eq!(common, decode_forms(w), "{:?}", String::from_utf8_lossy(w));
        }
        common.is_some()
    }

    #[test]
    fn common_words_decode_as_the_forms_for_every_byte_and_cut() {
        let words: [&[u8]; 15] = [
            b"e4 ",
            b"exd5 ",
            b"Nf3 ",
            b"Nxe5 ",
            b"Qxe6+ ",
            b"Ng3# ",
            b"h8 ",
            b"axb1\n",
            b"Kd1+\t",
            b"gxf8 ",
            b"Bb5 {",
            b"e4+ 2.",
            b"Rxa1#\r\n",
            b"ed5 ",
            b"Nbd7 ",
        ];
        let mut decoded = 0;
        for word in words {
            let mut base = [b' '; WINDOW];
            base[..word.len()].copy_from_slice(word);
            decoded += usize::from(assert_common_decodes_as_forms(&base));
            for i in 0..WINDOW {
                for b in 0..=255u8 {
                    // Every byte changed, alone and with a second byte changed to each
                    // class the decoder tells apart.
                    for j in 0..WINDOW {
                        for c in [b' ', b'x', b'+', b'#', b'a', b'h', b'1', b'8', b'N', b'='] {
                            let mut w = base;
                            w[i] = b;
                            w[j] = c;
                            assert_common_decodes_as_forms(&w);
                        }
                    }
                }
                // Every cut, padded as the window is at the end of the input.
                assert_common_decodes_as_forms(&window(&word[..i.min(word.len())]));
            }
        }
        assert_eq!(decoded, 14);
    }

    #[test]
    fn common_words_decode_as_the_forms_on_random_windows() {
        let alphabet = b"abhx18+#NBRQKO=-: \n{!?9i";
        let mut rng = Rng(0x2545_f491_4f6c_dd1du64);
        let mut next = |n: usize| rng.below(n);
        let mut decoded = 0;
        for _ in 0..300_000 {
            let mut w = [b' '; WINDOW];
            for b in w.iter_mut().take(next(9)) {
                *b = if next(16) == 0 {
                    next(256) as u8
                } else {
                    alphabet[next(alphabet.len())]
                };
            }
            decoded += usize::from(assert_common_decodes_as_forms(&w));
        }
        assert!(decoded > 100, "{decoded}");
    }

    #[test]
    fn move_numbers_read_from_the_input_agree_with_the_window() {
        // Every input of up to 16 bytes from a small alphabet's random draws, every cut of
        // it (the eight-byte load there or not), at every start: `number_at` against the
        // bytewise reading of the window.
        let alphabet = b"0123456789....  .x}{(e\n";
        let mut rng = Rng(0x6a09_e667_f3bc_c908u64);
        for _ in 0..20_000 {
            let mut input = [b' '; WINDOW];
            for slot in input.iter_mut() {
                *slot = alphabet[rng.below(alphabet.len())];
            }
            for cut in 0..=WINDOW {
                let input = &input[..cut];
                for at in 0..cut {
                    let bytewise = move_number_bytewise(&window(&input[at..]));
                    assert_eq!(
                        number_at(input, at),
                        bytewise.map(|len| at + len),
                        "{input:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn move_numbers_agree_with_the_bytewise_reading() {
        let alphabet = b"0123456789....  .x}{(";
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..200_000 {
            let mut w = [b' '; WINDOW];
            let len = rng.below(17);
            for slot in w.iter_mut().take(len) {
                *slot = alphabet[rng.below(alphabet.len())];
            }
            w[0] = b'1' + (rng.0 % 9) as u8;
            assert_eq!(move_number(&w), move_number_bytewise(&w), "{w:?}");
        }
        for b in 0..=255u8 {
            for i in 1..10 {
                let mut w = *b"123...         x";
                w[i] = b;
                assert_eq!(move_number(&w), move_number_bytewise(&w), "{w:?}");
            }
        }
        assert_eq!(move_number(b"12.             "), Some(3));
        assert_eq!(move_number(b"12...e4         "), None);
        assert_eq!(move_number(b"1234567.        "), Some(8));
        assert_eq!(move_number(b"12345678.       "), Some(9));
        assert_eq!(move_number(b"1-0             "), None);
    }

    /// The lone clock's shape, byte by byte, for comparison.
    fn is_clock_comment_bytewise(w: &[u8]) -> bool {
        let digits = |range: std::ops::Range<usize>| w[range].iter().all(u8::is_ascii_digit);
        w.len() >= 18
            && w.starts_with(b"{ [%clk ")
            && digits(8..9)
            && w[9] == b':'
            && digits(10..12)
            && w[12] == b':'
            && digits(13..15)
            && w[15..18] == *b"] }"
    }

    #[test]
    fn clock_shape_agrees_with_a_bytewise_test_for_every_byte() {
        for clock in [&b"{ [%clk 0:03:00] }"[..], b"{ [%clk 9:59:59] }x"] {
            for i in 0..18 {
                for b in 0..=255u8 {
                    let mut input = clock.to_vec();
                    input[i] = b;
                    let expected = is_clock_comment_bytewise(&input).then_some(17);
                    assert_eq!(clock_comment_close(&input, 0), expected, "{i} {b}");
                    // The same shape further into an input.
                    input.insert(0, b' ');
                    assert_eq!(clock_comment_close(&input, 1), expected.map(|c| c + 1));
                }
            }
        }
    }

    #[test]
    fn comment_scan_agrees_with_a_bytewise_scan() {
        let alphabet = b"}}\n\r[ab %clk0:1{";
        let mut rng = Rng(0x2545_f491_4f6c_dd1du64);
        for len in 0..200 {
            for _ in 0..200 {
                let mut input = vec![b'{'];
                for _ in 0..len {
                    input.push(alphabet[rng.below(alphabet.len())]);
                }
                assert_eq!(
                    scan_comment(&input, 0),
                    scan_comment_bytewise(&input, 0),
                    "{:?}",
                    String::from_utf8_lossy(&input)
                );
            }
        }
    }
}
