//! Where games start: tag lines, and the one rule shared by the reader, the splitter and
//! the streaming reader for where a damaged game must end.
//!
//! A **game boundary** is a line that starts with a tag pair (`[Name "value"]` ...),
//! preceded by a blank line (or the start of the input), whose previous non-blank line is
//! not made only of tag pairs — or is, but its run of tag lines already has the tag that
//! starts this line (header-only archives: a tag section after a blank line that repeats a
//! tag starts a new game) — and which is not quoted in a comment: looking ahead at most
//! [`QUOTE_WINDOW`] bytes, no `}` comes before a `{` opens (see [`quoted_close`]).
//!
//! A `{` comment or `(` variation that runs into a game boundary is unterminated; reading
//! resumes there. A comment that runs over a tag line that would be a boundary but closes
//! within the window is a comment quoting a game: it goes on to its `}`. Because the reader,
//! [`crate::split_at_game_boundaries`] and [`crate::StreamReader`] all cut at exactly these
//! lines, reading in chunks gives the same games as reading sequentially.
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

use crate::reader::{splat, zero_bytes};

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

/// Whether `b` may be in a tag name: an ASCII letter or digit, `_`, `-`, `+`, `#` or `=`.
const fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'+' || b == b'#' || b == b'='
}

/// [`name_byte`] for every byte: one load per byte of a name instead of six tests.
static NAME_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = name_byte(i as u8);
        i += 1;
    }
    table
};

#[inline]
fn is_name_byte(b: u8) -> bool {
    NAME_BYTE[usize::from(b)]
}

/// The index of the first `"` or `\` in `bytes`, eight bytes at a time (SWAR).
#[inline]
fn quote_or_backslash(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(chunk) = bytes[i..].first_chunk::<8>() {
        let word = u64::from_le_bytes(*chunk);
        // The lowest flagged byte of each mask is exact, so the lowest of both is.
        let hits = zero_bytes(word ^ splat(b'"')) | zero_bytes(word ^ splat(b'\\'));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = bytes[i..].iter().position(|&b| b == b'"' || b == b'\\')?;
    Some(i + rest)
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
    parse_common_tag(line).or_else(|| parse_any_tag(line))
}

/// [`parse_tag`] for a tag in the form nearly every file writes, `[Name "value"]` (one
/// space, no backslash in the value, `]` right after the closing quote), read without the
/// general parser; `None` for anything else, which [`parse_any_tag`] reads (it gives the
/// same answer for the common form).
#[inline]
fn parse_common_tag(line: &[u8]) -> Option<(&[u8], &[u8], usize)> {
    if line.first() != Some(&b'[') {
        return None;
    }
    let name_len = line[1..].iter().take_while(|&&b| is_name_byte(b)).count();
    let value_start = name_len + 3;
    if name_len == 0 || line.get(name_len + 1..value_start) != Some(b" \"") {
        return None;
    }
    let value_len = quote_or_backslash(&line[value_start..])?;
    let close = value_start + value_len;
    (line[close] == b'"' && line.get(close + 1) == Some(&b']'))
        .then(|| (&line[1..name_len + 1], &line[value_start..close], close + 2))
}

/// [`parse_tag`] of the line starting at `pos` (`[` there): the common form read straight
/// from `input` by [`common_tag_at`], without finding the line's end first; anything else
/// by [`parse_tag`] on the line.
#[inline]
pub(crate) fn parse_tag_at(input: &[u8], pos: usize) -> Option<(&[u8], &[u8], usize)> {
    match common_tag_at(input, pos) {
        Some(tag) => Some(tag),
        None => parse_tag(&input[pos..line_end(input, pos)]),
    }
}

/// The bytes [`common_tag_at`] reads at once: the `[`, a name of up to 15 bytes, ` "` and
/// 32 bytes of the value.
const TAG_WINDOW: usize = 64;

/// The high bit of each byte of `x` that is `"`, `\` or below 0x0E (line breaks among
/// them): exact for the lowest such byte, which is all [`common_tag_at`] uses.
#[inline(always)]
const fn value_stops(x: u64) -> u64 {
    zero_bytes(x ^ splat(b'"'))
        | zero_bytes(x ^ splat(b'\\'))
        | (x.wrapping_sub(splat(0x0E)) & !x & splat(0x80))
}

/// [`parse_common_tag`] of the line starting at `pos`, read from `input` without its line
/// end and with few data-dependent branches: the name is found by a mask of 16 table
/// loads, the value's closing quote by the stop bytes of its first 32 bytes at once (a
/// loop only past them). Stopping the value at a line break as well as at `"` or `\`, it
/// finds the common form exactly where [`parse_common_tag`] on the line does; `None`
/// (read by [`parse_tag`] instead) for any other form, a name over 15 bytes, a control
/// byte in the value, or the last [`TAG_WINDOW`] bytes of the input.
#[inline]
fn common_tag_at(input: &[u8], pos: usize) -> Option<(&[u8], &[u8], usize)> {
    let w: &[u8; TAG_WINDOW] = input.get(pos..)?.first_chunk()?;
    let mut names = 0u32;
    for i in 0..16 {
        names |= u32::from(NAME_BYTE[usize::from(w[1 + i])]) << i;
    }
    let name_len = (!names).trailing_zeros() as usize;
    if !(w[0] == b'[' && name_len > 0 && name_len < 16) {
        return None;
    }
    let value_start = name_len + 3;
    if w[name_len + 1..value_start] != *b" \"" {
        return None;
    }
    let value: &[u8; 32] = w[value_start..].first_chunk()?;
    let (words, _) = value.as_chunks::<8>();
    let stops = |i: usize| u128::from(value_stops(u64::from_le_bytes(words[i])));
    let near = stops(0) | stops(1) << 64;
    let far = stops(2) | stops(3) << 64;
    // The first stop byte of the 32 (32 for none): from `far` only when `near` has none.
    let mut len =
        (near.trailing_zeros() / 8 + u32::from(near == 0) * (far.trailing_zeros() / 8)) as usize;
    if len == 32 {
        len += value_stop(&input[pos + value_start + 32..])?;
    }
    let close = pos + value_start + len;
    (input[close] == b'"' && input.get(close + 1) == Some(&b']')).then(|| {
        (
            &input[pos + 1..pos + 1 + name_len],
            &input[pos + value_start..close],
            close + 2 - pos,
        )
    })
}

/// The index of the first byte of `bytes` that [`value_stops`] flags, eight bytes at a time.
fn value_stop(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(chunk) = bytes[i..].first_chunk::<8>() {
        let hits = value_stops(u64::from_le_bytes(*chunk));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = bytes[i..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x0E)?;
    Some(i + rest)
}

/// [`parse_tag`] for any form it accepts.
fn parse_any_tag(line: &[u8]) -> Option<(&[u8], &[u8], usize)> {
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
    input.get(pos) == Some(&b'[') && parse_tag_at(input, pos).is_some()
}

/// Whether the line starting at `pos` holds nothing but tag pairs (and blanks, and the
/// invisible characters the reader strips before a tag line), so that a line of movetext
/// that merely starts with a tag does not count.
pub(crate) fn is_tag_only_line(input: &[u8], pos: usize) -> bool {
    let pos = pos + invisible_prefix(input, pos);
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

/// Whether the line starting at `pos` (> 0, at a line start) follows a blank line.
pub(crate) fn follows_blank_line(input: &[u8], pos: usize) -> bool {
    let (start, end) = previous_line(input, pos);
    is_blank(input, start, end)
}

/// Whether the line starting at `line` holds a tag named `name`.
fn line_has_tag(input: &[u8], line: usize, name: &[u8]) -> bool {
    let line = line + invisible_prefix(input, line);
    let text = &input[line..line_end(input, line)];
    let mut i = 0;
    while let Some((n, _, used)) = parse_tag(&text[i..]) {
        if n == name {
            return true;
        }
        i += used;
        while text.get(i).is_some_and(|&b| b <= 0x20) {
            i += 1;
        }
    }
    false
}

/// Whether the run of tag-only lines that ends with the line starting at `last` (no blank
/// line between them) holds a tag named `name`.
fn run_has_tag(input: &[u8], mut last: usize, name: &[u8]) -> bool {
    loop {
        if line_has_tag(input, last, name) {
            return true;
        }
        if last == 0 {
            return false;
        }
        let (previous, _) = previous_line(input, last);
        if !is_tag_only_line(input, previous) {
            return false;
        }
        last = previous;
    }
}

/// Whether `pos` is a game boundary by the lines before it alone (the module docs without
/// the comment look-ahead).
pub(crate) fn is_boundary_line(input: &[u8], pos: usize) -> bool {
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
    if !is_tag_only_line(input, start) {
        return true;
    }
    // A tag section after a blank line that repeats a tag of the section just before.
    let line = &input[pos..line_end(input, pos)];
    parse_tag(line).is_some_and(|(name, _, _)| run_has_tag(input, start, name))
}

/// How far [`quoted_close`] looks ahead for the `}` of a comment that quotes a game.
pub const QUOTE_WINDOW: usize = 16 << 10;

/// The `}` that closes a comment quoting text from `from` on, if any: the first `}` not
/// matched by a `{` after `from`, within [`QUOTE_WINDOW`] bytes. The flag says whether a
/// `{` came before it (the quoted text has braces of its own, so where the comment ends is
/// ambiguous).
pub fn quoted_close(input: &[u8], from: usize) -> Option<(usize, bool)> {
    let end = from.saturating_add(QUOTE_WINDOW).min(input.len());
    let mut depth = 0usize;
    let mut nested = false;
    let mut p = from.min(end);
    while let Some(i) = memchr::memchr2(b'{', b'}', &input[p..end]) {
        let q = p + i;
        if input[q] == b'{' {
            depth += 1;
            nested = true;
        } else if depth == 0 {
            return Some((q, nested));
        } else {
            depth -= 1;
        }
        p = q + 1;
    }
    None
}

/// Whether `pos` is a game boundary (see the module docs).
pub fn is_game_boundary(input: &[u8], pos: usize) -> bool {
    is_boundary_line(input, pos) && quoted_close(input, pos).is_none()
}

/// The first game boundary at or after `from`, if any.
pub fn next_game_boundary(input: &[u8], from: usize) -> Option<usize> {
    next_game_boundary_before(input, from, input.len())
}

/// The first game boundary at or after `from` and before `limit`, if any.
pub(crate) fn next_game_boundary_before(input: &[u8], from: usize, limit: usize) -> Option<usize> {
    next_line_where(input, from, limit, is_game_boundary)
}

/// The first line at or after `from` that is a game boundary by the lines before it alone
/// ([`is_boundary_line`]): where reading resumes after a damaged tag, whatever follows.
pub(crate) fn next_boundary_line(input: &[u8], from: usize) -> Option<usize> {
    next_line_where(input, from, input.len(), is_boundary_line)
}

/// The first `[` at or after `from` and before `limit` where `is` holds.
fn next_line_where(
    input: &[u8],
    from: usize,
    limit: usize,
    is: fn(&[u8], usize) -> bool,
) -> Option<usize> {
    let limit = limit.min(input.len());
    if from == 0 && limit > 0 && is(input, 0) {
        return Some(0);
    }
    let mut i = from.max(1);
    while i < limit {
        let j = memchr::memchr(b'[', &input[i..limit])? + i;
        if is(input, j) {
            return Some(j);
        }
        i = j + 1;
    }
    None
}

/// Whether `c` is the first byte of an invisible character the reader strips before a tag
/// line (see [`invisible_prefix`]).
#[inline]
pub(crate) fn starts_invisible(c: u8) -> bool {
    matches!(c, 0xA0 | 0xC2 | 0xE2 | 0xEF)
}

/// The length of the invisible characters at `pos` if a tag pair follows them directly, else
/// 0: byte order marks (U+FEFF), zero-width spaces (U+200B), word joiners (U+2060) and
/// no-break spaces (U+00A0, in UTF-8 or Latin-1), as left by concatenated exports.
pub(crate) fn invisible_prefix(input: &[u8], pos: usize) -> usize {
    let mut p = pos;
    loop {
        let rest = &input[p.min(input.len())..];
        let len = if rest.starts_with(b"\xEF\xBB\xBF")
            || rest.starts_with(b"\xE2\x80\x8B")
            || rest.starts_with(b"\xE2\x81\xA0")
        {
            3
        } else if rest.starts_with(b"\xC2\xA0") {
            2
        } else if rest.first() == Some(&0xA0) {
            1
        } else {
            break;
        };
        p += len;
    }
    if p > pos && is_tag_line(input, p) {
        p - pos
    } else {
        0
    }
}

/// The length of the invisible characters (see [`invisible_prefix`]) between the start of
/// the line and the tag pair at `pos`, if the line holds nothing else before it; else 0.
pub fn invisible_before(input: &[u8], pos: usize) -> usize {
    // Every invisible character ends in one of these bytes: most tags are passed at once.
    if pos == 0 || !matches!(input.get(pos - 1), Some(0xBF | 0x8B | 0xA0)) {
        return 0;
    }
    let line = memchr::memrchr2(b'\n', b'\r', &input[..pos.min(input.len())]).map_or(0, |i| i + 1);
    if line < pos && invisible_prefix(input, line) == pos - line {
        pos - line
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn name_table_and_quote_search_agree_with_byte_tests() {
        for b in 0..=255u8 {
            assert_eq!(is_name_byte(b), name_byte(b), "{b}");
        }
        let alphabet = b"ab\"\\ 9\xff\x22";
        let mut rng = Rng(0x2545_f491_4f6c_dd1du64);
        for len in 0..40 {
            for _ in 0..500 {
                let mut bytes = Vec::new();
                for _ in 0..len {
                    let pick = rng.below(16);
                    bytes.push(if pick < alphabet.len() {
                        alphabet[pick]
                    } else {
                        b'x'
                    });
                }
                let expected = bytes.iter().position(|&b| b == b'"' || b == b'\\');
                assert_eq!(quote_or_backslash(&bytes), expected, "{bytes:?}");
            }
        }
    }

    #[test]
    fn the_common_tag_form_reads_as_the_general_parser_reads_it() {
        let alphabet = b"[]\" \\aZ_9 \t";
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15u64);
        let mut common = 0;
        for len in 0..24 {
            for _ in 0..3000 {
                let mut line = b"[Ab \"".to_vec();
                line.truncate(rng.0 as usize % 6);
                for _ in 0..len {
                    line.push(alphabet[rng.below(alphabet.len())]);
                }
                if let Some(found) = parse_common_tag(&line) {
                    common += 1;
                    assert_eq!(Some(found), parse_any_tag(&line), "{line:?}");
                }
            }
        }
        assert!(common > 100, "the common form was hit {common} times");
        assert_eq!(
            parse_tag(b"[Event \"a\"] x"),
            Some((&b"Event"[..], &b"a"[..], 11))
        );
    }

    /// [`parse_tag_at`] against [`parse_tag`] on the line at `pos` (the reader's old way),
    /// and [`common_tag_at`] finding nothing but the common form.
    fn assert_tag_at_reads_as_the_line(input: &[u8], pos: usize) {
        let line = &input[pos..line_end(input, pos)];
        assert_eq!(
            parse_tag_at(input, pos),
            parse_tag(line),
            "{input:?} at {pos}"
        );
        if let Some(found) = common_tag_at(input, pos) {
            assert_eq!(Some(found), parse_common_tag(line), "{input:?} at {pos}");
        }
    }

    #[test]
    fn tags_read_from_the_input_agree_with_the_line_for_every_byte() {
        let lines: [&[u8]; 5] = [
            b"[Event \"Rated Chess960 game\"]\n",
            b"[WhiteRatingDiff \"+1\"]\r\n",
            b"[FEN \"rnqbnkbr/pppppppp/8/8/8/8/PPPPPPPP/RNQBNKBR w KQkq - 0 1\"]\n",
            b"[Round \"-\"] [Site \"a value just over the thirty-two bytes\"]\n",
            b"[A \"\"]\n",
        ];
        for line in lines {
            // Followed by enough text for the whole window, by less, and by nothing.
            for tail in [
                &b"[Site \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *\n"[..],
                b"\n",
                b"",
            ] {
                let mut input = line.to_vec();
                input.extend_from_slice(tail);
                for at in 0..line.len() {
                    let original = input[at];
                    for b in 0..=255u8 {
                        input[at] = b;
                        assert_tag_at_reads_as_the_line(&input, 0);
                    }
                    input[at] = original;
                }
                for cut in 0..input.len() {
                    assert_tag_at_reads_as_the_line(&input[..cut + 1], 0);
                }
            }
        }
    }

    #[test]
    fn tags_read_from_the_input_agree_with_the_line_on_random_text() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1du64);
        let mut next = |n: u64| rng.below(n as usize);
        let names = b"aZ_9-+#=";
        let values = b"aZ 9/.:-+_\"\\\t\n\r\x0c\x0e\xc3\xa9\xff]";
        let mut common = 0;
        for _ in 0..200_000 {
            // A tag in the common form with a name and a value of random length and bytes,
            // then random text; a few bytes of it changed to anything.
            let mut input = b"[".to_vec();
            for _ in 0..next(19) {
                input.push(names[next(names.len() as u64)]);
            }
            input.extend_from_slice(b" \"");
            for _ in 0..next(70) {
                let pick = next(4 * values.len() as u64);
                input.push(values.get(pick).copied().unwrap_or(b'x'));
            }
            input.extend_from_slice(b"\"]");
            for _ in 0..next(80) {
                input.push(values[next(values.len() as u64)]);
            }
            for _ in 0..next(3) {
                let at = next(input.len() as u64);
                input[at] = next(256) as u8;
            }
            common += usize::from(common_tag_at(&input, 0).is_some());
            assert_tag_at_reads_as_the_line(&input, 0);
        }
        assert!(common > 10_000, "the common form was read {common} times");
    }

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
