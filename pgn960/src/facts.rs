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
    // Saturating: a huge time control (`57777777+0399...`) is classical, not an overflow.
    let seconds = base.saturating_add(increment.saturating_mul(40));
    Some(match seconds {
        0..=29 => Speed::UltraBullet,
        30..=179 => Speed::Bullet,
        180..=479 => Speed::Blitz,
        480..=1499 => Speed::Rapid,
        _ => Speed::Classical,
    })
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
        if !(1..=12).contains(&date.month) || !(1..=31).contains(&date.day) {
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
        let text = |name: &[u8]| tags.iter().find(|t| t.name == name).map(|t| t.value_str());
        let elo = |name: &[u8]| text(name).and_then(|v| v.trim().parse::<u32>().ok());
        GameFacts {
            ratings: elo(b"WhiteElo").zip(elo(b"BlackElo")),
            speed: text(b"TimeControl").and_then(|t| speed_of(&t)),
            date: text(b"UTCDate")
                .and_then(|d| d.parse().ok())
                .or_else(|| text(b"Date").and_then(|d| d.parse().ok())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
