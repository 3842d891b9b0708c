//! Commands embedded in PGN comments, as lichess and most GUIs write them: the clock
//! `[%clk 1:02:03.4]` and the engine evaluation `[%eval 0.35]` / `[%eval #-3]`.
//!
//! ```
//! use pgn960::annotations::{Annotations, Eval};
//!
//! let a = Annotations::parse(b" [%eval -1.25,21] [%clk 0:04:59.5] good move ");
//! assert_eq!(a.clock, Some(299.5));
//! assert_eq!(a.eval, Some(Eval::Pawns(-1.25)));
//! assert_eq!(Annotations::parse(b"[%eval #-3]").eval, Some(Eval::Mate(-3)));
//! ```

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
}

impl Annotations {
    /// Reads the `[%clk]` and `[%eval]` commands of a comment's text; anything unreadable is
    /// ignored.
    pub fn parse(comment: &[u8]) -> Annotations {
        // A lichess clock comment alone, ` [%clk H:MM:SS] `, recognised by its shape: the
        // loop below would find the one command and read its argument the same way.
        if let Some(args) = lone_clock(comment) {
            return Annotations {
                clock: parse_clock(args),
                eval: None,
            };
        }
        let mut found = Annotations::default();
        let mut rest = comment;
        while let Some(start) = memchr_percent(rest) {
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
                b"clk" => found.clock = parse_clock(args).or(found.clock),
                b"eval" => found.eval = parse_eval(args).or(found.eval),
                _ => {}
            }
        }
        found
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.clock.is_none() && self.eval.is_none()
    }

    /// Adds what `other` found (its values win).
    pub fn merge(&mut self, other: Annotations) {
        self.clock = other.clock.or(self.clock);
        self.eval = other.eval.or(self.eval);
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

/// `h:mm:ss`, `mm:ss` or `ss`, seconds possibly with a fraction.
/// The argument of a comment that is exactly ` [%clk H:MM:SS] ` (digits and colons where
/// they stand here), else `None`.
#[inline]
fn lone_clock(comment: &[u8]) -> Option<&[u8]> {
    let w: &[u8; 16] = comment.try_into().ok()?;
    let shape = w.starts_with(b" [%clk ")
        && w[8] == b':'
        && w[11] == b':'
        && [7, 9, 10, 12, 13].iter().all(|&i| w[i].is_ascii_digit())
        && w.ends_with(b"] ");
    shape.then(|| &comment[7..14])
}

fn parse_clock(text: &[u8]) -> Option<f64> {
    clock_digits(text).or_else(|| parse_clock_text(text))
}

/// The common form of a clock, digits and colons with an optional decimal fraction, read
/// without going through `str` parsing; `None` for anything else (then read by
/// [`parse_clock_text`]).
fn clock_digits(text: &[u8]) -> Option<f64> {
    let (mut whole, mut field, mut digits, mut fields) = (0u64, 0u64, 0, 1);
    let mut fraction = None;
    for (i, &b) in text.iter().enumerate() {
        match b {
            b'0'..=b'9' if digits < 9 => {
                field = field * 10 + u64::from(b - b'0');
                digits += 1;
            }
            b':' if digits > 0 && fields < 3 => {
                whole = whole * 60 + field;
                (field, digits) = (0, 0);
                fields += 1;
            }
            b'.' if digits > 0 => {
                fraction = Some(i);
                break;
            }
            _ => return None,
        }
    }
    if digits == 0 {
        return None;
    }
    let mut seconds = (whole * 60 + field) as f64;
    if let Some(dot) = fraction {
        let rest = &text[dot + 1..];
        if rest.is_empty() || rest.len() > 9 || !rest.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = rest.iter().fold(0u64, |n, &b| n * 10 + u64::from(b - b'0'));
        seconds += n as f64 / 10f64.powi(rest.len() as i32);
    }
    Some(seconds)
}

/// [`parse_clock`] for any form `str` parsing accepts.
fn parse_clock_text(text: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(text).ok()?;
    let mut seconds = 0.0;
    let (whole, last) = match text.rsplit_once(':') {
        Some((whole, last)) => (Some(whole), last),
        None => (None, text),
    };
    let mut parts = 0;
    for part in whole.into_iter().flat_map(|w| w.split(':')) {
        parts += 1;
        seconds = seconds * 60.0 + f64::from(part.parse::<u32>().ok()?);
    }
    if parts > 2 {
        return None;
    }
    let value: f64 = last
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
    Some(seconds * 60.0 + value)
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
        ] {
            assert_eq!(Annotations::parse(text), general(text), "{text:?}");
        }
        assert!(lone_clock(b" [%clk 0:03:00] ").is_some());
        assert!(lone_clock(b" [%clk 0:0a:00] ").is_none());
        assert_eq!(Annotations::parse(b" [%clk 1:02:03] ").clock, Some(3723.0));
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
        assert_eq!(Annotations::parse(b"[%csl Ga4][%clk 5]").clock, Some(5.0));
    }

    #[test]
    fn clocks_read_fast_as_the_general_reader_reads_them() {
        for text in [
            "0:03:00",
            "1:02:03",
            "2:03",
            "59",
            "0:00:01.5",
            "1:00:00.25",
            "12.125",
            "0",
            "0:00.5",
            "1:2:3:4",
            "",
            ":",
            "1:",
            ":5",
            "1.",
            "a",
            "1e3",
            "+5",
            "0:01:30.1",
            "10:00:00",
            "99999999999",
        ] {
            let slow = parse_clock_text(text.as_bytes());
            let fast = parse_clock(text.as_bytes());
            match (slow, fast) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9, "{text}: {a} {b}"),
                (a, b) => assert_eq!(a, b, "{text}"),
            }
        }
    }

    #[test]
    fn capped_pawns() {
        assert_eq!(Eval::Mate(-2).capped_pawns(10.0), -10.0);
        assert_eq!(Eval::Pawns(25.0).capped_pawns(10.0), 10.0);
        assert_eq!(Eval::Pawns(-0.5).capped_pawns(10.0), -0.5);
    }
}
