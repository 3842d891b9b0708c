//! Annotations in PGN comments: the commands lichess and most GUIs write — the clock
//! `[%clk 1:02:03.4]`, the engine evaluation `[%eval 0.35]` / `[%eval #-3]`, the elapsed
//! move time `[%emt 0:00:05]` — and, in a comment without any `[%` command, the engine
//! comments of TCEC (`{d=35, mt=66761, tl=1738239, wv=0.65, …}`) and cutechess/fastchess
//! (`{+0.35/18 1.2s}`).
//!
//! ```
//! use chess960_core::Color;
//! use pgn960::annotations::{Annotations, Eval};
//!
//! let a = Annotations::parse(b" [%eval -1.25,21] [%clk 0:04:59.5] good move ");
//! assert_eq!(a.clock, Some(299.5));
//! assert_eq!(a.eval, Some(Eval::Pawns(-1.25)));
//! assert_eq!(Annotations::parse(b"[%eval #-3]").eval, Some(Eval::Mate(-3)));
//! let tcec = Annotations::parse(b"d=35, sd=60, mt=66761, tl=1738239, wv=-0.65,");
//! assert_eq!((tcec.depth, tcec.emt, tcec.clock), (Some(35), Some(66.761), Some(1738.239)));
//! assert_eq!(tcec.eval, Some(Eval::Pawns(-0.65)));
//! // cutechess scores are the mover's view: black's +0.35 is -0.35 for white.
//! let cute = Annotations::parse_move(b"+0.35/18 1.2s", Some(Color::Black));
//! assert_eq!((cute.eval, cute.depth, cute.emt), (Some(Eval::Pawns(-0.35)), Some(18), Some(1.2)));
//! ```

use chess960_core::Color;
pub(crate) use pgn_parse::lone_clock;
use std::fmt;

/// An engine evaluation from white's point of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Eval {
    /// Pawns (centipawns / 100); positive is good for white.
    Pawns(f64),
    /// Mate in this many moves: positive, white mates; negative, black mates.
    Mate(i32),
}

impl Eval {
    /// The evaluation in pawns, a mate counted as `cap` pawns for the side that mates (and
    /// any evaluation clamped to ±`cap`).
    pub fn capped_pawns(self, cap: f64) -> f64 {
        match self {
            Eval::Pawns(p) => p.clamp(-cap, cap),
            Eval::Mate(n) if n < 0 => -cap,
            Eval::Mate(_) => cap,
        }
    }

    /// The evaluation with the sides swapped.
    fn flipped(self) -> Eval {
        match self {
            Eval::Pawns(p) => Eval::Pawns(-p),
            Eval::Mate(n) => Eval::Mate(-n),
        }
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Pawns(p) => write!(f, "{p:.2}"),
            Eval::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// The annotations found in one comment (the last of each kind wins).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Annotations {
    /// Seconds left on the mover's clock after the move.
    pub clock: Option<f64>,
    /// The evaluation after the move.
    pub eval: Option<Eval>,
    /// Seconds the move took (elapsed move time).
    pub emt: Option<f64>,
    /// The depth of the engine search that chose the move.
    pub depth: Option<u16>,
}

impl Annotations {
    /// Reads a comment's annotations when the side that moved is not known: as
    /// [`Annotations::parse_move`] without it, so a cutechess/fastchess score (written from
    /// the mover's view) is left out; anything unreadable is ignored.
    pub fn parse(comment: &[u8]) -> Annotations {
        Annotations::parse_move(comment, None)
    }

    /// Reads the `[%clk]`, `[%eval]` and `[%emt]` commands of the comment after a move
    /// played by `mover`; a comment without any `[%` command is read as a TCEC or
    /// cutechess/fastchess engine comment when its first byte fits one. A cutechess score is
    /// turned to white's view with `mover` (left out when `mover` is `None`). Anything
    /// unreadable is ignored.
    pub fn parse_move(comment: &[u8], mover: Option<Color>) -> Annotations {
        let mut found = Annotations::default();
        found.read_move(comment, mover);
        found
    }

    /// [`Annotations::parse_move`] into these annotations: what the comment gives replaces
    /// what they hold (as [`Annotations::merge`] of its result, without the copy).
    #[inline]
    pub fn read_move(&mut self, comment: &[u8], mover: Option<Color>) {
        // A lichess clock comment alone, ` [%clk H:MM:SS] `, recognised by its shape (in
        // the caller: a few instructions): the general loop would find the one command and
        // read its argument the same way.
        if let Some(args) = lone_clock(comment) {
            self.clock = shaped_clock(args).or(self.clock);
            return;
        }
        self.read_other(comment, mover);
    }

    /// Reads a comment the reader found to be a lone lichess clock, ` [%clk H:MM:SS] `
    /// ([`lone_clock`] holds: the caller says so), as [`Annotations::read_move`] reads it,
    /// without testing its shape again.
    #[inline(always)]
    pub fn read_lone_clock(&mut self, comment: &[u8]) {
        match comment
            .get(7..14)
            .and_then(|c| <&[u8; 7]>::try_from(c).ok())
        {
            Some(clock) if comment.len() == 16 => self.clock = shaped_clock(clock).or(self.clock),
            _ => self.read_move(comment, None),
        }
    }

    /// [`Annotations::read_move`] for a comment other than a lone clock.
    #[inline(never)]
    fn read_other(&mut self, comment: &[u8], mover: Option<Color>) {
        // Lichess's analysed games, ` [%eval 0.17] [%clk H:MM:SS] `, the same way.
        if let Some((eval, clock)) = eval_and_clock(comment) {
            if let Some(pawns) = decimal(eval) {
                self.eval = Some(Eval::Pawns(pawns));
                self.clock = shaped_clock(clock).or(self.clock);
                return;
            }
        }
        let mut rest = comment;
        let mut has_command = false;
        while let Some(start) = memchr_percent(rest) {
            has_command = true;
            let after = &rest[start + 2..];
            let Some(end) = after.iter().position(|&b| b == b']') else {
                break;
            };
            let command = &after[..end];
            rest = &after[end + 1..];
            let (name, args) = match command.iter().position(u8::is_ascii_whitespace) {
                Some(space) => (&command[..space], command[space..].trim_ascii()),
                None => (command, &b""[..]),
            };
            match name {
                b"clk" => self.clock = parse_clock(args).or(self.clock),
                b"eval" => self.eval = parse_eval(args).or(self.eval),
                b"emt" => self.emt = parse_clock(args).or(self.emt),
                _ => {}
            }
        }
        if !has_command {
            read_engine_comment(comment, mover, self);
        }
    }

    /// Whether a comment may be a TCEC or cutechess/fastchess engine comment (a look at its
    /// first byte, as [`Annotations::parse_move`] takes): a quick test before parsing, for
    /// callers that skip most comments.
    pub fn may_be_engine_comment(comment: &[u8]) -> bool {
        let text = comment.trim_ascii_start();
        matches!(text.first(), Some(b'+' | b'-' | b'0'..=b'9' | b'M')) || text.starts_with(b"d=")
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.clock.is_none() && self.eval.is_none() && self.emt.is_none() && self.depth.is_none()
    }

    /// Adds what `other` found (its values win).
    pub fn merge(&mut self, other: Annotations) {
        self.clock = other.clock.or(self.clock);
        self.eval = other.eval.or(self.eval);
        self.emt = other.emt.or(self.emt);
        self.depth = other.depth.or(self.depth);
    }
}

/// The `[%name ...]` commands of a comment whose name is in `names` (every command when
/// `names` is empty), separated by a space: what is left of a comment when its text is
/// stripped and its annotations kept.
///
/// ```
/// use pgn960::annotations::commands;
/// assert_eq!(commands(b"good move [%eval 0.3] [%clk 0:01:00] [%csl Ga4]", &["clk", "eval"]), b"[%eval 0.3] [%clk 0:01:00]");
/// assert_eq!(commands(b"just text", &[]), b"");
/// ```
pub fn commands(comment: &[u8], names: &[&str]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = comment;
    while let Some(start) = memchr_percent(rest) {
        let after = &rest[start + 2..];
        let Some(end) = after.iter().position(|&b| b == b']') else {
            break;
        };
        let command = &after[..end];
        let name_len = command
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(command.len());
        let name = &command[..name_len];
        if names.is_empty() || names.iter().any(|n| n.as_bytes() == name) {
            if !out.is_empty() {
                out.push(b' ');
            }
            out.extend_from_slice(&rest[start..start + 2 + end + 1]);
        }
        rest = &after[end + 1..];
    }
    out
}

/// The index of the next `[%`.
fn memchr_percent(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'%', &bytes[from..]) {
        let at = from + i;
        if at > 0 && bytes[at - 1] == b'[' {
            return Some(at - 1);
        }
        from = at + 1;
    }
    None
}

/// The evaluation's text and the clock's argument of a comment that is exactly
/// ` [%eval E] [%clk H:MM:SS] ` (the clock as [`lone_clock`] takes it), else `None`.
#[inline]
fn eval_and_clock(comment: &[u8]) -> Option<(&[u8], &[u8; 7])> {
    let rest = comment.strip_prefix(b" [%eval ")?;
    let close = memchr::memchr(b']', rest)?;
    Some((&rest[..close], lone_clock(&rest[close + 1..])?))
}

/// Exact powers of ten as `f64` (every one up to 10^22 is).
const POWERS_OF_TEN: [f64; 7] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6];

/// A decimal `-?D{1,6}(.D{1,6})?` as `str::parse::<f64>` reads it, else `None` (the caller
/// takes the general parser then). The digits make an integer below 2^53 and the divisor
/// an exact power of ten, so the one correctly rounded division gives the correctly
/// rounded value that `parse` gives (Clinger's fast path).
fn decimal(text: &[u8]) -> Option<f64> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let (whole, fraction) = match memchr::memchr(b'.', digits) {
        Some(dot) => (&digits[..dot], &digits[dot + 1..]),
        None => (digits, &b""[..]),
    };
    let has_dot = whole.len() < digits.len();
    if !(1..=6).contains(&whole.len()) || fraction.len() > 6 || (has_dot && fraction.is_empty()) {
        return None;
    }
    let mut mantissa = 0u64;
    for &b in whole.iter().chain(fraction) {
        if !b.is_ascii_digit() {
            return None;
        }
        mantissa = mantissa * 10 + u64::from(b - b'0');
    }
    let value = mantissa as f64 / POWERS_OF_TEN[fraction.len()];
    Some(if negative { -value } else { value })
}

/// The seconds of a clock `H:MM:SS` whose shape [`lone_clock`] checked (a digit at each
/// place but the colons): [`parse_clock`]'s value, read at fixed places; `None` for
/// minutes or seconds of 60 or more, as there.
#[inline]
fn shaped_clock(text: &[u8; 7]) -> Option<f64> {
    let digit = |i: usize| u32::from(text[i].wrapping_sub(b'0'));
    let minutes = digit(2) * 10 + digit(3);
    let seconds = digit(5) * 10 + digit(6);
    (minutes < 60 && seconds < 60).then(|| f64::from(digit(0) * 3600 + minutes * 60 + seconds))
}

/// A clock or duration in one of the documented forms `h:mm:ss`, `h:mm:ss.f` and `m:ss`
/// (minutes and seconds below 60); `None` for anything else (`0:13.19`, `59`, `1:2:3`),
/// never guessed.
fn parse_clock(text: &[u8]) -> Option<f64> {
    let (whole, fraction) = match memchr::memchr(b'.', text) {
        Some(dot) => (&text[..dot], Some(&text[dot + 1..])),
        None => (text, None),
    };
    let mut fields = whole.split(|&b| b == b':');
    let first = fields.next()?;
    let (second, third) = (fields.next()?, fields.next());
    if fields.next().is_some() || (third.is_none() && fraction.is_some()) {
        return None;
    }
    let lead = digits_value(first, 1..=9)?;
    let mut seconds = lead * 60 + sexagesimal(second)?;
    if let Some(third) = third {
        seconds = seconds * 60 + sexagesimal(third)?;
    }
    let mut seconds = seconds as f64;
    if let Some(fraction) = fraction {
        let n = digits_value(fraction, 1..=9)?;
        seconds += n as f64 / 10f64.powi(fraction.len() as i32);
    }
    Some(seconds)
}

/// Two digits below 60 (the `mm` and `ss` of a clock).
fn sexagesimal(text: &[u8]) -> Option<u64> {
    digits_value(text, 2..=2).filter(|&v| v < 60)
}

/// The value of a run of ASCII digits whose length is in `len`.
fn digits_value(text: &[u8], len: std::ops::RangeInclusive<usize>) -> Option<u64> {
    if !len.contains(&text.len()) || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(text.iter().fold(0u64, |n, &b| n * 10 + u64::from(b - b'0')))
}

/// A comment without `[%` commands: a TCEC comment (`d=` first) or a cutechess/fastchess
/// one (a signed decimal or mate score, then `/depth time`); others are left alone after a
/// look at their first byte.
fn read_engine_comment(comment: &[u8], mover: Option<Color>, found: &mut Annotations) {
    let text = comment.trim_ascii_start();
    match text.first() {
        Some(b'd') if text.starts_with(b"d=") => read_tcec(text, found),
        Some(b'+' | b'-' | b'0'..=b'9' | b'M') => read_cutechess(text, mover, found),
        _ => {}
    }
}

/// TCEC's `key=value, …` comment: `d=` depth, `mt=` move time and `tl=` time left (in
/// milliseconds, or `hh:mm:ss` in the early seasons), `wv=` white's view evaluation in
/// pawns or `M`*n* plies to mate.
fn read_tcec(text: &[u8], found: &mut Annotations) {
    for item in text.split(|&b| b == b',') {
        let item = item.trim_ascii();
        let Some(eq) = memchr::memchr(b'=', item) else {
            continue;
        };
        let (key, value) = (&item[..eq], item[eq + 1..].trim_ascii());
        match key {
            b"d" => found.depth = parse_depth(value).or(found.depth),
            b"mt" => found.emt = tcec_time(value).or(found.emt),
            b"tl" => found.clock = tcec_time(value).or(found.clock),
            b"wv" => found.eval = engine_score(value).or(found.eval),
            _ => {}
        }
    }
}

/// A TCEC time: whole milliseconds, or `hh:mm:ss`.
fn tcec_time(value: &[u8]) -> Option<f64> {
    match digits_value(value, 1..=12) {
        Some(ms) => Some(ms as f64 / 1000.0),
        None => parse_clock(value),
    }
}

/// A search depth: 1 to 5 digits that fit a `u16`.
fn parse_depth(value: &[u8]) -> Option<u16> {
    digits_value(value, 1..=5).and_then(|d| u16::try_from(d).ok())
}

/// An engine score as cutechess and TCEC write it, from the searching side's point of
/// view, for the position before its move: pawns with a decimal point (`+0.35`, `-1.20`,
/// `0.00`) or `M`*n* / `-M`*n* — mate in *n* plies counted from before the move, which is
/// mate in *n*/2 moves after it; `M1` (the move mates) is left out, the result tells it.
fn engine_score(value: &[u8]) -> Option<Eval> {
    let (negative, body) = match value.split_first() {
        Some((b'-', body)) => (true, body),
        Some((b'+', body)) => (false, body),
        _ => (false, value),
    };
    let eval = if let Some(plies) = body.strip_prefix(b"M") {
        let moves = i32::try_from(digits_value(plies, 1..=4)? / 2).ok()?;
        if moves == 0 {
            return None;
        }
        Eval::Mate(moves)
    } else {
        let dot = memchr::memchr(b'.', body)?;
        let whole = digits_value(&body[..dot], 1..=6)?;
        let fraction = &body[dot + 1..];
        let n = digits_value(fraction, 1..=4)?;
        Eval::Pawns(whole as f64 + n as f64 / 10f64.powi(fraction.len() as i32))
    };
    Some(if negative { eval.flipped() } else { eval })
}

/// cutechess/fastchess `score/depth time` (`+0.35/18 1.2s`, `-M4/4 0.001s, Black mates`):
/// the score is the mover's view, turned to white's with `mover` (left out without it).
fn read_cutechess(text: &[u8], mover: Option<Color>, found: &mut Annotations) {
    let Some(slash) = memchr::memchr(b'/', text) else {
        return;
    };
    let token = &text[..slash];
    let score = engine_score(token);
    // `+M1` (the move mates) has no score to keep but still a depth and time.
    let unsigned = token
        .strip_prefix(b"+")
        .or_else(|| token.strip_prefix(b"-"));
    if score.is_none() && unsigned.unwrap_or(token) != b"M1" {
        return;
    }
    let after = &text[slash + 1..];
    let depth_len = after
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(after.len());
    let Some(rest) = after[depth_len..].strip_prefix(b" ") else {
        return;
    };
    let time_len = rest
        .iter()
        .position(|&b| b == b',' || b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let Some(seconds) = rest[..time_len].strip_suffix(b"s").and_then(parse_seconds) else {
        return;
    };
    let Some(depth) = parse_depth(&after[..depth_len]) else {
        return;
    };
    found.depth = Some(depth);
    found.emt = Some(seconds);
    if let (Some(score), Some(mover)) = (score, mover) {
        found.eval = Some(match mover {
            Color::White => score,
            Color::Black => score.flipped(),
        });
    }
}

/// Seconds as cutechess writes a move time: digits with an optional decimal fraction.
fn parse_seconds(text: &[u8]) -> Option<f64> {
    match memchr::memchr(b'.', text) {
        None => digits_value(text, 1..=9).map(|s| s as f64),
        Some(dot) => {
            let whole = digits_value(&text[..dot], 1..=9)?;
            let fraction = &text[dot + 1..];
            let n = digits_value(fraction, 1..=9)?;
            Some(whole as f64 + n as f64 / 10f64.powi(fraction.len() as i32))
        }
    }
}

/// `0.35`, `-1.2`, `#3`, `#-2`, each possibly followed by `,depth`.
fn parse_eval(text: &[u8]) -> Option<Eval> {
    let text = std::str::from_utf8(text).ok()?;
    let value = text.split(',').next()?.trim();
    if let Some(mate) = value.strip_prefix('#') {
        return mate.parse().ok().map(Eval::Mate);
    }
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(Eval::Pawns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_clock_read_as_the_reader_recognised_it_is_read_as_any_comment() {
        // Every clock of the shape, minutes and seconds past 59 too, onto annotations with
        // and without a clock already.
        let before = [
            Annotations::default(),
            Annotations::parse(b"[%eval 0.5] [%clk 0:10:00] [%emt 0:00:03]"),
        ];
        let mut n = 0;
        for h in 0..10u32 {
            for m in (0..100u32).step_by(3).chain([59, 60, 99]) {
                for s in (0..100u32).step_by(7).chain([59, 60, 99]) {
                    let text = format!(" [%clk {h}:{m:02}:{s:02}] ");
                    assert!(lone_clock(text.as_bytes()).is_some(), "{text}");
                    for start in before {
                        let (mut general, mut lone) = (start, start);
                        general.read_move(text.as_bytes(), None);
                        lone.read_lone_clock(text.as_bytes());
                        assert_eq!(lone, general, "{text}");
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 10_000, "{n}");
    }

    #[test]
    fn a_lone_clock_comment_reads_as_the_general_loop_reads_it() {
        let general = |c: &[u8]| {
            // The same comment with a word after it takes the general loop.
            let mut longer = c.to_vec();
            longer.extend_from_slice(b"x ");
            Annotations::parse(&longer)
        };
        for text in [
            &b" [%clk 0:03:00] "[..],
            b" [%clk 9:59:59] ",
            b" [%clk 0:00:07] ",
            b" [%clk 0:0a:00] ",
            b" [%clk 0:03:00]  ",
            b" [%clk 0:63:00] ",
        ] {
            assert_eq!(Annotations::parse(text), general(text), "{text:?}");
        }
        // Every one-byte change of a lone clock comment reads as the general loop reads it.
        let valid = *b" [%clk 1:23:45] ";
        for place in 0..valid.len() {
            for byte in (0..=255u8).step_by(3).chain(*b"0123456789:/ []%") {
                let mut text = valid;
                text[place] = byte;
                assert_eq!(Annotations::parse(&text), general(&text), "{text:?}");
                let shaped = lone_clock(&text).is_some();
                let digit_places = [7, 9, 10, 12, 13];
                let expected = if digit_places.contains(&place) {
                    byte.is_ascii_digit()
                } else {
                    byte == valid[place]
                };
                assert_eq!(shaped, expected, "{text:?}");
            }
        }
        assert!(lone_clock(b" [%clk 0:03:00] ").is_some());
        assert!(lone_clock(b" [%clk 0:0a:00] ").is_none());
        assert_eq!(Annotations::parse(b" [%clk 1:02:03] ").clock, Some(3723.0));
        // Every clock of the shape reads as the general parser reads it.
        for seconds in (0..10 * 3600).step_by(7).chain([599, 3599, 35999]) {
            let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
            let text = format!("{h}:{m:02}:{s:02}");
            let shaped = text.as_bytes().try_into().ok().map(shaped_clock);
            assert_eq!(shaped, Some(parse_clock(text.as_bytes())), "{text}");
        }
        for text in ["0:60:00", "0:00:60", "0:99:99", "9:59:60"] {
            assert_eq!(
                shaped_clock(text.as_bytes().try_into().unwrap()),
                None,
                "{text}"
            );
            assert_eq!(parse_clock(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn an_eval_and_clock_comment_reads_as_the_general_loop_reads_it() {
        let general = |c: &[u8]| {
            let mut longer = c.to_vec();
            longer.extend_from_slice(b"x ");
            Annotations::parse(&longer)
        };
        for eval in [
            "0.17",
            "-0.17",
            "0",
            "-0.0",
            "12.5",
            "-123.45",
            "999999.999999",
            "0.1",
            "0.3",
            "1.",
            ".5",
            "+1.5",
            "#-3",
            "#4",
            "1e3",
            "inf",
            "NaN",
            "0.17 ",
            "1234567",
            "",
            "-",
            "1.2.3",
            "0x1",
        ] {
            let text = format!(" [%eval {eval}] [%clk 0:02:59] ");
            let parsed = Annotations::parse(text.as_bytes());
            assert_eq!(parsed, general(text.as_bytes()), "{text:?}");
            if let Some(Eval::Pawns(v)) = parsed.eval {
                // Bit for bit: -0.0 and 0.0 compare equal.
                let expected: f64 = eval.trim().parse().unwrap_or(f64::NAN);
                assert_eq!(v.to_bits(), expected.to_bits(), "{eval}");
            }
        }
        assert!(eval_and_clock(b" [%eval 0.17] [%clk 0:02:59] ").is_some());
        assert!(eval_and_clock(b" [%eval 0.17] [%clk 0:02:59] x ").is_none());
        assert!(eval_and_clock(b" [%eval 0.17]  [%clk 0:02:59] ").is_none());
        // Every decimal of up to 6 + 6 digits reads as `str::parse` reads it, bit for bit.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let whole = state % 1_000_000;
            let places = (state >> 20) as usize % 7;
            let fraction = (state >> 24) % 10u64.pow(places as u32);
            let sign = if state >> 63 == 1 { "-" } else { "" };
            let text = match places {
                0 => format!("{sign}{whole}"),
                _ => format!("{sign}{whole}.{fraction:0places$}"),
            };
            let expected: f64 = text.parse().expect("a decimal");
            assert_eq!(
                decimal(text.as_bytes()).map(f64::to_bits),
                Some(expected.to_bits()),
                "{text}"
            );
        }
    }

    #[test]
    fn reading_into_annotations_is_merging_what_the_comment_gives() {
        let before = Annotations {
            clock: Some(60.0),
            eval: Some(Eval::Mate(3)),
            emt: Some(2.0),
            depth: Some(20),
        };
        for comment in [
            &b" [%clk 0:03:00] "[..],
            b" [%clk 0:63:00] ",
            b" [%eval 0.17] [%clk 0:02:59] ",
            b" [%eval 0.17] [%clk 0:72:59] ",
            b" [%eval #-2] [%clk 0:02:59] ",
            b"[%emt 0:00:03] [%clk x]",
            b"+0.31/18 1.2s",
            b"d=24, mt=1500, tl=60000, wv=0.25",
            b"just words",
        ] {
            for mover in [None, Some(Color::White), Some(Color::Black)] {
                let mut merged = before;
                merged.merge(Annotations::parse_move(comment, mover));
                let mut read = before;
                read.read_move(comment, mover);
                assert_eq!(read, merged, "{comment:?} {mover:?}");
            }
        }
    }

    #[test]
    fn lichess_comments() {
        let a = Annotations::parse(b" [%eval 0.17] [%clk 0:03:00] ");
        assert_eq!(a.clock, Some(180.0));
        assert_eq!(a.eval, Some(Eval::Pawns(0.17)));
        assert_eq!(Annotations::parse(b"[%clk 1:00:00]").clock, Some(3600.0));
        assert_eq!(Annotations::parse(b"[%eval #7]").eval, Some(Eval::Mate(7)));
        assert!(Annotations::parse(b"no commands [%clk x] [%eval]").is_empty());
        assert!(Annotations::parse(b"[%clk 0:01").is_empty());
        assert_eq!(
            Annotations::parse(b"[%csl Ga4][%clk 0:05]").clock,
            Some(5.0)
        );
    }

    #[test]
    fn only_the_documented_clock_forms_are_read() {
        for (text, seconds) in [
            ("0:03:00", Some(180.0)),
            ("1:02:03", Some(3723.0)),
            ("12:00:00", Some(43200.0)),
            ("0:00:01.5", Some(1.5)),
            ("1:00:00.25", Some(3600.25)),
            ("2:03", Some(123.0)),
            ("0:20", Some(20.0)),
            // The 2014 archive's form (m:ss.ff or h:mm.ss?) is not documented: null.
            ("0:13.19", None),
            ("0:00.5", None),
            ("59", None),
            ("12.125", None),
            ("1:2:3", None),
            ("0:60:00", None),
            ("0:00:60", None),
            ("1:02:03:04", None),
            ("0:01:30.", None),
            ("", None),
            (":", None),
            ("1:", None),
            (":05", None),
            ("+0:05", None),
            ("0:01:30.1234567890", None),
        ] {
            assert_eq!(parse_clock(text.as_bytes()), seconds, "{text}");
        }
        assert_eq!(Annotations::parse(b"[%clk 0:13.19]").clock, None);
        assert_eq!(Annotations::parse(b"[%clk 0:20]").clock, Some(20.0));
    }

    #[test]
    fn elapsed_move_times() {
        let a = Annotations::parse(b"[%emt 0:00:05] [%clk 0:02:55]");
        assert_eq!((a.emt, a.clock), (Some(5.0), Some(175.0)));
        assert_eq!(Annotations::parse(b"[%emt 0:01:02.5]").emt, Some(62.5));
        // FICS writes bare seconds, an undocumented form: null.
        assert!(Annotations::parse(b"[%emt 2.25]").is_empty());
    }

    #[test]
    fn tcec_comments() {
        let modern = b"d=45, sd=65, mt=82942, tl=1722058, s=98216425, n=8146168534, \
                       pv=Ng3 Ng6 d4 e6, tb=12, h=68.8, ph=0.0, wv=-0.34, R50=49, Rd=-11, \
                       Rr=-1000, mb=+0+0+0+0+0,";
        let a = Annotations::parse(modern);
        assert_eq!(a.depth, Some(45));
        assert_eq!(a.emt, Some(82.942));
        assert_eq!(a.clock, Some(1722.058));
        assert_eq!(a.eval, Some(Eval::Pawns(-0.34)));
        let season6 = b" d=27, pd=Re8, mt=00:00:42, tl=00:13:19, s=6888 kN/s, wv=1.31, ";
        let a = Annotations::parse(season6);
        assert_eq!((a.emt, a.clock), (Some(42.0), Some(799.0)));
        assert_eq!((a.depth, a.eval), (Some(27), Some(Eval::Pawns(1.31))));
        // Mates count plies from before the move: M21 is mate in 10 moves after it.
        let mate = |wv: &str| Annotations::parse(format!("d=9, wv={wv},").as_bytes()).eval;
        assert_eq!(mate("M21"), Some(Eval::Mate(10)));
        assert_eq!(mate("M20"), Some(Eval::Mate(10)));
        assert_eq!(mate("-M2"), Some(Eval::Mate(-1)));
        assert_eq!(mate("M1"), None);
        assert_eq!(mate("x"), None);
        // Not TCEC: other text, or a comment with a `[%` command.
        assert!(Annotations::parse(b"WhiteEngineOptions: Protocol=UCI; d=3").is_empty());
        assert_eq!(
            Annotations::parse(b"d=3, wv=1.0 [%clk 0:01:00]").depth,
            None
        );
    }

    #[test]
    fn cutechess_comments() {
        let white = Annotations::parse_move(b"+0.13/12 0.29s", Some(Color::White));
        assert_eq!(white.eval, Some(Eval::Pawns(0.13)));
        assert_eq!((white.depth, white.emt), (Some(12), Some(0.29)));
        let black = Annotations::parse_move(b"-0.17/15 0.30s", Some(Color::Black));
        assert_eq!(black.eval, Some(Eval::Pawns(0.17)));
        let mated = Annotations::parse_move(b"-M4/4 0.001s", Some(Color::White));
        assert_eq!(mated.eval, Some(Eval::Mate(-2)));
        let mates = Annotations::parse_move(b"+M1/127 0.003s, Black mates", Some(Color::Black));
        assert_eq!((mates.eval, mates.depth), (None, Some(127)));
        let zero = Annotations::parse_move(b"0.00/30 0s", Some(Color::Black));
        assert_eq!((zero.eval, zero.emt), (Some(Eval::Pawns(-0.0)), Some(0.0)));
        // Without the mover the score is left out, the rest kept.
        let unknown = Annotations::parse(b"+0.35/18 1.2s");
        assert_eq!((unknown.eval, unknown.depth), (None, Some(18)));
        for text in [
            "1/2 is a draw",
            "+1/2 3s",
            "book",
            "+0.35/18",
            "+0.35/ 1s",
            "12 moves",
        ] {
            let a = Annotations::parse_move(text.as_bytes(), Some(Color::White));
            assert!(a.is_empty(), "{text}: {a:?}");
        }
    }

    #[test]
    fn capped_pawns() {
        assert_eq!(Eval::Mate(-2).capped_pawns(10.0), -10.0);
        assert_eq!(Eval::Pawns(25.0).capped_pawns(10.0), 10.0);
        assert_eq!(Eval::Pawns(-0.5).capped_pawns(10.0), -0.5);
    }
}
