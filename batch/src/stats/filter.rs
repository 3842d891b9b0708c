//! Game filters for statistics: ratings, length, time control, dates.

use std::str::FromStr;

/// A lichess speed class, from the `TimeControl` tag's estimated duration
/// (base + 40 × increment seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
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
    let seconds = base + 40 * increment;
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

/// The filters of `pgn960 stats`.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// Both ratings at least this.
    pub min_elo: Option<u32>,
    /// Rating difference at most this.
    pub max_elo_diff: Option<u32>,
    /// At least this many plies.
    pub min_plies: Option<u32>,
    /// Only these speeds (empty = all).
    pub speeds: Vec<Speed>,
    /// Games on or after this date.
    pub since: Option<Date>,
    /// Games on or before this date.
    pub until: Option<Date>,
}

/// Why a game was filtered out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FilteredBy {
    /// `--min-elo` (or a rating missing).
    MinElo,
    /// `--max-elo-diff` (or a rating missing).
    MaxEloDiff,
    /// `--min-plies`.
    MinPlies,
    /// `--time-control` (or no readable TimeControl tag).
    TimeControl,
    /// `--since` / `--until` (or no readable date).
    Date,
}

impl FilteredBy {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            FilteredBy::MinElo => "filtered-min-elo",
            FilteredBy::MaxEloDiff => "filtered-max-elo-diff",
            FilteredBy::MinPlies => "filtered-min-plies",
            FilteredBy::TimeControl => "filtered-time-control",
            FilteredBy::Date => "filtered-date",
        }
    }
}

/// The facts about a game the filters look at.
#[derive(Debug, Clone, Copy, Default)]
pub struct GameFacts {
    /// (white, black) ratings when both are known.
    pub ratings: Option<(u32, u32)>,
    /// Main-line plies, when the moves were replayed (or counted).
    pub plies: Option<u32>,
    /// Speed from the TimeControl tag.
    pub speed: Option<Speed>,
    /// Date from the UTCDate or Date tag.
    pub date: Option<Date>,
}

impl Filters {
    /// The first filter that rejects the game, if any.
    pub fn check(&self, facts: &GameFacts) -> Option<FilteredBy> {
        if let Some(min) = self.min_elo {
            match facts.ratings {
                Some((w, b)) if w >= min && b >= min => {}
                _ => return Some(FilteredBy::MinElo),
            }
        }
        if let Some(max) = self.max_elo_diff {
            match facts.ratings {
                Some((w, b)) if w.abs_diff(b) <= max => {}
                _ => return Some(FilteredBy::MaxEloDiff),
            }
        }
        if let Some(min) = self.min_plies {
            if facts.plies.is_some_and(|p| p < min) {
                return Some(FilteredBy::MinPlies);
            }
        }
        if !self.speeds.is_empty() && !facts.speed.is_some_and(|s| self.speeds.contains(&s)) {
            return Some(FilteredBy::TimeControl);
        }
        if self.since.is_some() || self.until.is_some() {
            let Some(date) = facts.date else {
                return Some(FilteredBy::Date);
            };
            if self.since.is_some_and(|s| date < s) || self.until.is_some_and(|u| date > u) {
                return Some(FilteredBy::Date);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn filters() {
        let f = Filters {
            min_elo: Some(2000),
            since: "2024.02.01".parse().ok(),
            ..Filters::default()
        };
        let mut facts = GameFacts {
            ratings: Some((2100, 1900)),
            date: "2024.03.01".parse().ok(),
            ..GameFacts::default()
        };
        assert_eq!(f.check(&facts), Some(FilteredBy::MinElo));
        facts.ratings = Some((2100, 2000));
        assert_eq!(f.check(&facts), None);
        facts.date = "2024.01.31".parse().ok();
        assert_eq!(f.check(&facts), Some(FilteredBy::Date));
        assert!("2024.13.01".parse::<Date>().is_err());
    }
}
