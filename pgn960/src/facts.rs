//! Facts about a game read from its tags, the same way for every subcommand: the speed class
//! from `TimeControl`, the date from `UTCDate` or `Date`, the ratings.

use std::str::FromStr;

/// A lichess speed class, from the `TimeControl` tag's estimated duration
/// (base + 40 × increment seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Speed {
    /// Under 30 seconds.
    UltraBullet,
    /// 30 seconds to under 3 minutes.
    Bullet,
    /// 3 to under 8 minutes.
    Blitz,
    /// 8 to under 25 minutes.
    Rapid,
    /// 25 minutes or more, and correspondence (`-`).
    Classical,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 5] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
    ];

    /// The name used on the command line and in tables (`ultra-bullet`, `blitz`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultra-bullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        }
    }
}

impl std::fmt::Display for Speed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Speed {
    type Err = String;

    fn from_str(text: &str) -> Result<Speed, String> {
        Speed::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = Speed::ALL.iter().map(|s| s.name()).collect();
                format!("unknown speed {text:?} (one of {})", names.join(", "))
            })
    }
}

/// The speed class of a `TimeControl` tag value (`"180+2"`, `"600"`, `"-"`), lichess
/// boundaries; `None` for `?` or unreadable values.
pub fn speed_of(time_control: &str) -> Option<Speed> {
    let tc = time_control.trim();
    if tc == "-" {
        return Some(Speed::Classical);
    }
    let (base, increment) = match tc.split_once('+') {
        Some((b, i)) => (b.parse::<u64>().ok()?, i.parse::<u64>().ok()?),
        None => (tc.parse::<u64>().ok()?, 0),
    };
    Some(speed_of_seconds(base, increment))
}

/// The speed of a TimeControl value written as plain digits, `BASE` or `BASE+INCREMENT`
/// (each one to nine digits), read from its bytes: what [`speed_of`] reads for it, without
/// decoding, trimming and parsing the text. `None` for any other value (read as text then).
fn plain_speed(raw: &[u8]) -> Option<Speed> {
    let (base, increment) = match memchr::memchr(b'+', raw) {
        Some(plus) => (raw.get(..plus)?, Some(raw.get(plus + 1..)?)),
        None => (raw, None),
    };
    let increment = match increment {
        Some(digits) => plain_number(digits)?,
        None => 0,
    };
    Some(speed_of_seconds(
        u64::from(plain_number(base)?),
        u64::from(increment),
    ))
}

/// The speed of a game of `base` seconds and `increment` a move, by lichess's estimate of
/// its length: base + 40 × increment.
fn speed_of_seconds(base: u64, increment: u64) -> Speed {
    // Saturating: a huge time control (`57777777+0399...`) is classical, not an overflow.
    let seconds = base.saturating_add(increment.saturating_mul(40));
    match seconds {
        0..=29 => Speed::UltraBullet,
        30..=179 => Speed::Bullet,
        180..=479 => Speed::Blitz,
        480..=1499 => Speed::Rapid,
        _ => Speed::Classical,
    }
}

/// A calendar date `YYYY.MM.DD` (`-` and `/` separators accepted too), comparable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    /// Year.
    pub year: u16,
    /// Month 1-12.
    pub month: u8,
    /// Day 1-31.
    pub day: u8,
}

impl FromStr for Date {
    type Err = String;

    fn from_str(text: &str) -> Result<Date, String> {
        match full_date(text.as_bytes()) {
            Some(date) if date.in_range() => Ok(date),
            _ => Date::parse_general(text),
        }
    }
}

/// The common form of a date, exactly `YYYY.MM.DD` in ASCII digits (with any of the
/// separators `.`, `-`, `/`), read without splitting the text; `None` for any other text.
/// The month and day are as written, not checked against 1-12 and 1-31.
pub(crate) fn full_date(text: &[u8]) -> Option<Date> {
    let w: &[u8; 10] = text.try_into().ok()?;
    let separator = |b: u8| matches!(b, b'.' | b'-' | b'/');
    let digits = |r: &[u8]| r.iter().all(u8::is_ascii_digit);
    let (year, month, day) = (&w[..4], &w[5..7], &w[8..]);
    if !(separator(w[4]) && separator(w[7]) && digits(year) && digits(month) && digits(day)) {
        return None;
    }
    let number = |r: &[u8]| r.iter().fold(0u16, |n, &b| n * 10 + u16::from(b - b'0'));
    Some(Date {
        year: number(year),
        month: number(month) as u8,
        day: number(day) as u8,
    })
}

impl Date {
    /// Whether the month is 1-12 and the day 1-31 (the one range rule of every reader).
    pub(crate) fn in_range(self) -> bool {
        (1..=12).contains(&self.month) && (1..=31).contains(&self.day)
    }

    /// [`Date::from_str`] for any text: split at the separators, each part parsed.
    fn parse_general(text: &str) -> Result<Date, String> {
        let parts: Vec<&str> = text.trim().split(['.', '-', '/']).collect();
        let bad = || format!("expected a date like 2024.01.31, found {text:?}");
        let [y, m, d] = parts.as_slice() else {
            return Err(bad());
        };
        let date = Date {
            year: y.parse().map_err(|_| bad())?,
            month: m.parse().map_err(|_| bad())?,
            day: d.parse().map_err(|_| bad())?,
        };
        if !date.in_range() {
            return Err(bad());
        }
        Ok(date)
    }
}

/// The facts about a game its tags give, for selecting and counting games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameFacts {
    /// (white, black) ratings when both are known.
    pub ratings: Option<(u32, u32)>,
    /// Speed from the TimeControl tag.
    pub speed: Option<Speed>,
    /// Date from the UTCDate tag, else the Date tag.
    pub date: Option<Date>,
}

impl GameFacts {
    /// Reads the facts from a game's tags.
    pub fn from_tags(tags: &[pgn_parse::Tag<'_>]) -> GameFacts {
        // The first tag of each name, found in one pass over the tags.
        let mut found: [Option<&pgn_parse::Tag<'_>>; 5] = [None; 5];
        for tag in tags {
            let slot = match tag.name {
                b"WhiteElo" => 0,
                b"BlackElo" => 1,
                b"TimeControl" => 2,
                b"UTCDate" => 3,
                b"Date" => 4,
                _ => continue,
            };
            found[slot].get_or_insert(tag);
        }
        let text = |slot: usize| found[slot].map(|t| t.value_str());
        // A rating of plain digits and a full date are read from the bytes (what decoding,
        // `trim` and `parse` give for them); any other value as text.
        let elo = |slot: usize| {
            let raw = found[slot]?.raw_value;
            plain_number(raw).or_else(|| text(slot)?.trim().parse::<u32>().ok())
        };
        let date = |slot: usize| {
            let raw = found[slot]?.raw_value;
            match full_date(raw) {
                Some(d) if d.in_range() => Some(d),
                _ => text(slot)?.parse().ok(),
            }
        };
        GameFacts {
            ratings: elo(0).zip(elo(1)),
            speed: found[2]
                .and_then(|t| plain_speed(t.raw_value).or_else(|| speed_of(&t.value_str()))),
            date: date(3).or_else(|| date(4)),
        }
    }
}

/// The number written as one to nine ASCII digits (no sign, no space), else `None`.
fn plain_number(raw: &[u8]) -> Option<u32> {
    if raw.is_empty() || raw.len() > 9 || !raw.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(raw.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Dates near the common form: digits, separators, `?`, spaces, other bytes.
    fn date_texts() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "2024", "1999", "0000", "9999", "01", "12", "13", "00", "31", "32", "1", "??", ".",
            "-", "/", " ", "x", "+1", "\u{e9}",
        ]);
        proptest::collection::vec(piece, 0..7).prop_map(|p| p.concat())
    }

    proptest! {
        /// The full-date fast path of `Date::from_str` agrees with the general reader.
        #[test]
        fn dates_read_as_the_general_reader_reads_them(text in date_texts()) {
            prop_assert_eq!(text.parse::<Date>(), Date::parse_general(&text));
        }

        /// `GameFacts::from_tags`, one pass over the tags, agrees with one search a tag.
        #[test]
        fn facts_read_in_one_pass_as_by_searches(
            tags in proptest::collection::vec(
                (
                    prop::sample::select(vec!["WhiteElo", "BlackElo", "TimeControl", "UTCDate", "Date", "Event"]),
                    prop::sample::select(vec![
                        "1500", " 2000 ", "x", "180+2", "-", "2024.01.31", "2024.13.01",
                        "2023.05.??", "", "0", "0123", "999999999", "4294967295", "99999999999",
                        "+1500", "15\\00", "2024/02/30", "2024-1-5", "2024.00.10", "\u{e9}",
                        "600+5", "15+0", "1+", "+1", "5+5+5", "99999999999+1", "60+99999999999",
                        " 300+3", "300 +3", "1800+0",
                    ]),
                ),
                0..8,
            )
        ) {
            let tags: Vec<pgn_parse::Tag<'_>> = tags
                .iter()
                .map(|(n, v)| pgn_parse::Tag { name: n.as_bytes(), raw_value: v.as_bytes(), offset: 0 })
                .collect();
            let text = |name: &[u8]| tags.iter().find(|t| t.name == name).map(|t| t.value_str());
            let elo = |name: &[u8]| text(name).and_then(|v| v.trim().parse::<u32>().ok());
            let expected = GameFacts {
                ratings: elo(b"WhiteElo").zip(elo(b"BlackElo")),
                speed: text(b"TimeControl").and_then(|t| speed_of(&t)),
                date: text(b"UTCDate")
                    .and_then(|d| Date::parse_general(&d).ok())
                    .or_else(|| text(b"Date").and_then(|d| Date::parse_general(&d).ok())),
            };
            prop_assert_eq!(GameFacts::from_tags(&tags), expected);
        }

        /// A time control of plain digits read from its bytes is read as `speed_of` reads it.
        #[test]
        fn plain_time_controls_read_as_speed_of_reads_them(text in "[0-9+ -]{0,12}") {
            if let Some(speed) = plain_speed(text.as_bytes()) {
                prop_assert_eq!(Some(speed), speed_of(&text));
            }
            let digits = text.bytes().all(|b| b.is_ascii_digit() || b == b'+');
            let short = text.split('+').all(|p| !p.is_empty() && p.len() <= 9);
            if digits && short && text.matches('+').count() <= 1 {
                prop_assert!(plain_speed(text.as_bytes()).is_some(), "{:?}", text);
            }
        }

        /// The full-date fast path of `parse_date_span` agrees with the general reader.
        #[test]
        fn date_spans_read_as_the_general_reader_reads_them(text in date_texts()) {
            prop_assert_eq!(
                crate::select::parse_date_span(&text),
                crate::select::date_span_general(&text)
            );
        }
    }

    #[test]
    fn huge_time_controls_are_classical() {
        // Found by the `selection` fuzz target: `base + 40 * increment` overflowed.
        assert_eq!(
            speed_of("57777777+03990801482939571310"),
            Some(Speed::Classical)
        );
        assert_eq!(speed_of("1+461168601842738790"), Some(Speed::Classical));
        assert_eq!(speed_of("18446744073709551615+1"), Some(Speed::Classical));
    }

    #[test]
    fn lichess_speed_boundaries() {
        assert_eq!(speed_of("15+0"), Some(Speed::UltraBullet));
        assert_eq!(speed_of("60+0"), Some(Speed::Bullet));
        assert_eq!(speed_of("120+1"), Some(Speed::Bullet)); // 120 + 40 = 160 s
        assert_eq!(speed_of("180+0"), Some(Speed::Blitz));
        assert_eq!(speed_of("300+3"), Some(Speed::Blitz)); // 300 + 120 = 420 s
        assert_eq!(speed_of("480+0"), Some(Speed::Rapid));
        assert_eq!(speed_of("600+0"), Some(Speed::Rapid));
        assert_eq!(speed_of("1800+0"), Some(Speed::Classical));
        assert_eq!(speed_of("-"), Some(Speed::Classical));
        assert_eq!(speed_of("?"), None);
    }
}
