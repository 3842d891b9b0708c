//! Selecting games by what their tags and replay say: the filters of `stats` (ratings,
//! length, speed, dates).

pub use pgn960::facts::{Date, GameFacts, Speed};

/// The game selection every subcommand that selects games takes (flattened into its
/// arguments): a game is selected when it passes every filter given.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Selection (a game must pass every filter given)")]
pub struct Filters {
    /// Both players rated at least N.
    #[arg(long, value_name = "N")]
    pub min_elo: Option<u32>,
    /// Rating difference at most N.
    #[arg(long, value_name = "N")]
    pub max_elo_diff: Option<u32>,
    /// At least N plies (with stats --headers-only: from the PlyCount tag, when there is one).
    #[arg(long, value_name = "N")]
    pub min_plies: Option<u32>,
    /// Only these speeds, from the TimeControl tag (lichess boundaries).
    #[arg(
        long = "time-control",
        value_parser = crate::cli::speed(),
        value_delimiter = ',',
        value_name = "SPEED"
    )]
    pub speeds: Vec<Speed>,
    /// Games on or after this date (YYYY.MM.DD; UTCDate tag, else Date).
    #[arg(long, value_name = "DATE")]
    pub since: Option<Date>,
    /// Games on or before this date.
    #[arg(long, value_name = "DATE")]
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

impl Filters {
    /// The first filter that rejects the game, if any; `plies` when the moves were
    /// replayed (or counted).
    pub fn check(&self, facts: &GameFacts, plies: Option<u32>) -> Option<FilteredBy> {
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
            if plies.is_some_and(|p| p < min) {
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
        assert_eq!(f.check(&facts, None), Some(FilteredBy::MinElo));
        facts.ratings = Some((2100, 2000));
        assert_eq!(f.check(&facts, None), None);
        facts.date = "2024.01.31".parse().ok();
        assert_eq!(f.check(&facts, None), Some(FilteredBy::Date));
        assert!("2024.13.01".parse::<Date>().is_err());
    }
}
