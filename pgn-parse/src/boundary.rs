//! Where games start: tag lines, and the one rule shared by the reader, the splitter and
//! the streaming reader for where a damaged game must end.
//!
//! A **game boundary** is a line that starts with a tag pair (`[Name "value"]` ...),
//! preceded by a blank line (or the start of the input), whose previous non-blank line is
//! not made only of tag pairs. A `{` comment or `(` variation that runs into a game boundary is unterminated;
//! reading resumes there. Because the reader, [`crate::split_at_game_boundaries`] and
//! [`crate::StreamReader`] all cut at exactly these lines, reading in chunks gives the same
//! games as reading sequentially.
//!
//! ```
//! use pgn_parse::boundary::{is_game_boundary, next_game_boundary};
//!
//! let pgn = b"[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 *\n";
//! let second = next_game_boundary(pgn, 1).unwrap();
//! assert!(pgn[second..].starts_with(b"[Event \"b\"]"));
//! assert!(is_game_boundary(pgn, 0));
//! ```

use nom::bytes::complete::take_while1;
use nom::character::complete::{char, space0};
use nom::{IResult, Parser};

/// Whether `pos` is at the start of a line (or of the input).
#[inline]
pub(crate) fn at_line_start(input: &[u8], pos: usize) -> bool {
    pos == 0 || matches!(input.get(pos - 1), Some(b'\n' | b'\r'))
}

/// The end of the line containing `pos` (index of its line break, or the input length).
#[inline]
pub(crate) fn line_end(input: &[u8], pos: usize) -> usize {
    memchr::memchr2(b'\n', b'\r', &input[pos.min(input.len())..]).map_or(input.len(), |i| pos + i)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'+' || b == b'#' || b == b'='
}

/// `[` name: the opening of a tag pair, up to the opening quote of the value.
fn tag_open(input: &[u8]) -> IResult<&[u8], &[u8]> {
    let (rest, (_, _, name, _, _)) = (
        char('['),
        space0,
        take_while1(is_name_byte),
        space0,
        char('"'),
    )
        .parse(input)?;
    Ok((rest, name))
}

/// A tag pair parsed from the start of `line` (a single line, no line break):
/// `(name, raw value, bytes consumed)`. Values with unescaped quotes (`"The "Big" Open"`)
/// are read up to the last quote before the closing bracket.
pub(crate) fn parse_tag(line: &[u8]) -> Option<(&[u8], &[u8], usize)> {
    let (after_quote, name) = tag_open(line).ok()?;
    let value_start = line.len() - after_quote.len();
    // Strict: the first unescaped quote, then `]`.
    let mut i = value_start;
    while let Some(j) = memchr::memchr2(b'"', b'\\', &line[i..]) {
        let q = i + j;
        if line[q] == b'\\' {
            i = q + 2;
            if i > line.len() {
                break;
            }
            continue;
        }
        let mut k = q + 1;
        while matches!(line.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        if line.get(k) == Some(&b']') {
            return Some((name, &line[value_start..q], k + 1));
        }
        break;
    }
    // Lenient: the first `"` followed by `]` (blanks between allowed). Only the text up to
    // that `]` decides, never what follows it on the line, so appending text to a line
    // cannot make it a tag line (a written game reads back as one game).
    let mut from = value_start;
    while let Some(j) = memchr::memchr(b']', &line[from..]) {
        let close = from + j;
        let mut q = close;
        while q > value_start && matches!(line[q - 1], b' ' | b'\t') {
            q -= 1;
        }
        if q > value_start && line[q - 1] == b'"' {
            return Some((name, &line[value_start..q - 1], close + 1));
        }
        from = close + 1;
    }
    None
}

/// Whether the line starting at `pos` begins with a tag pair.
pub(crate) fn is_tag_line(input: &[u8], pos: usize) -> bool {
    input.get(pos) == Some(&b'[') && parse_tag(&input[pos..line_end(input, pos)]).is_some()
}

/// Whether the line starting at `pos` holds nothing but tag pairs (and blanks), so that a
/// line of movetext that merely starts with a tag does not count.
pub(crate) fn is_tag_only_line(input: &[u8], pos: usize) -> bool {
    let line = &input[pos..line_end(input, pos)];
    let mut i = 0;
    loop {
        match parse_tag(&line[i..]) {
            Some((_, _, used)) => i += used,
            None => return false,
        }
        while line.get(i).is_some_and(|&b| b <= 0x20) {
            i += 1;
        }
        match line.get(i) {
            None => return true,
            Some(b'[') => continue,
            Some(_) => return false,
        }
    }
}

/// Whether the line from `start` to `end` holds only white space (the reader's notion:
/// every byte up to 0x20, control bytes included).
fn is_blank(input: &[u8], start: usize, end: usize) -> bool {
    input[start..end].iter().all(|&b| b <= 0x20)
}

/// The start of the line that ends at the line break just before `line_start`, and that
/// line break's first byte. `line_start` must be > 0 and at a line start.
fn previous_line(input: &[u8], line_start: usize) -> (usize, usize) {
    let mut brk = line_start - 1;
    if input[brk] == b'\n' && brk > 0 && input[brk - 1] == b'\r' {
        brk -= 1;
    }
    let start = memchr::memrchr2(b'\n', b'\r', &input[..brk]).map_or(0, |i| i + 1);
    (start, brk)
}

/// Whether `pos` is a game boundary (see the module docs).
pub fn is_game_boundary(input: &[u8], pos: usize) -> bool {
    if !at_line_start(input, pos) || !is_tag_line(input, pos) {
        return false;
    }
    if pos == 0 {
        return true;
    }
    let (mut start, mut end) = previous_line(input, pos);
    if !is_blank(input, start, end) {
        return false;
    }
    // Skip further blank lines to the previous non-blank line.
    loop {
        if start == 0 {
            return true;
        }
        let (s, e) = previous_line(input, start);
        (start, end) = (s, e);
        if !is_blank(input, start, end) {
            break;
        }
    }
    !is_tag_only_line(input, start)
}

/// The first game boundary at or after `from`, if any.
pub fn next_game_boundary(input: &[u8], from: usize) -> Option<usize> {
    if from == 0 && is_game_boundary(input, 0) {
        return Some(0);
    }
    let mut i = from.max(1);
    while i < input.len() {
        let j = memchr::memchr(b'[', &input[i..])? + i;
        if is_game_boundary(input, j) {
            return Some(j);
        }
        i = j + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_forms() {
        assert_eq!(
            parse_tag(b"[Event \"a\"]"),
            Some((&b"Event"[..], &b"a"[..], 11))
        );
        assert_eq!(
            parse_tag(b"[Event \"a \\\"b\\\"\"] [Site \"x\"]").map(|t| t.1),
            Some(&b"a \\\"b\\\""[..])
        );
        assert_eq!(
            parse_tag(b"[Event \"The \"Big\" Open\"]").map(|t| t.1),
            Some(&b"The \"Big\" Open"[..])
        );
        assert_eq!(parse_tag(b"[Event a]"), None);
        assert_eq!(parse_tag(b"[%clk 0:01:00]"), None);
    }

    #[test]
    fn boundaries() {
        let text = b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 {x\n\n[Event \"c\"]\n\n1. d4 *\n";
        assert!(is_game_boundary(text, 0));
        assert!(!is_game_boundary(text, 12));
        let c = text
            .windows(7)
            .position(|w| w == b"[Event ")
            .map(|_| 0)
            .unwrap();
        assert_eq!(c, 0);
        let second = 34;
        assert_eq!(&text[second..second + 6], b"[Event");
        assert!(is_game_boundary(text, second));
        assert_eq!(next_game_boundary(text, 1), Some(second));
        // A tag section with a blank line inside is one tag section.
        let text = b"[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *";
        assert_eq!(next_game_boundary(text, 1), None);
        // CRLF and lone CR line ends.
        let text = b"1. e4 *\r\n\r\n[Event \"x\"]\r\n";
        assert_eq!(next_game_boundary(text, 1), Some(11));
        let text = b"1. e4 *\r\r[Event \"x\"]\r";
        assert_eq!(next_game_boundary(text, 1), Some(9));
    }
}
