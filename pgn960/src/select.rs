//! Selecting games: the filters of `stats` ([`Filters`]: ratings, length, speed, dates) and
//! the selection of `filter` and `split` ([`Selection`], which adds start positions,
//! variant, players, tags, results and the replayed game). Checks come in three stages,
//! cheapest first, so that a game the tags reject is never replayed: [`Selection::check_tags`]
//! (tags only), [`Selection::check_start`] (the start position the tags give) and
//! [`Selection::check_game`] (what the replay found).

pub use crate::facts::{Date, GameFacts, Speed};
use crate::validate::{GameKind, ValidGame};
use chess960_core::{Position, Setup, StartKind, Termination};
use pgn_parse::Tag;
use std::borrow::Cow;

/// The game selection every subcommand that selects games takes (flattened into its
/// arguments): a game is selected when it passes every filter given.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[cfg_attr(
    feature = "clap",
    command(next_help_heading = "Selection (a game must pass every filter given)")
)]
pub struct Filters {
    /// Both players rated at least N.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub min_elo: Option<u32>,
    /// Rating difference at most N.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_elo_diff: Option<u32>,
    /// At least N plies (with stats --headers-only: from the PlyCount tag, when there is one).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub min_plies: Option<u32>,
    /// Only these speeds, from the TimeControl tag (lichess boundaries).
    #[cfg_attr(feature = "clap", arg(
        long = "time-control",
        value_parser = speed_parser(),
        value_delimiter = ',',
        value_name = "SPEED"
    ))]
    pub speeds: Vec<Speed>,
    /// Games on or after this date (YYYY.MM.DD; UTCDate tag, else Date; a partial date such
    /// as 2024.??.?? passes only when every day it may be is on or after DATE).
    #[cfg_attr(feature = "clap", arg(long, value_name = "DATE"))]
    pub since: Option<Date>,
    /// Games on or before this date (a partial date: every day it may be).
    #[cfg_attr(feature = "clap", arg(long, value_name = "DATE"))]
    pub until: Option<Date>,
}

/// The one wording of a start position number out of range.
pub fn sp_out_of_range(text: impl std::fmt::Display) -> String {
    format!("SP {text} is out of range (0 to 959)")
}

/// The parser of a `--time-control` speed: one of [`Speed::ALL`]'s names.
#[cfg(feature = "clap")]
pub fn speed_parser() -> impl clap::builder::TypedValueParser<Value = Speed> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(Speed::ALL.map(|s| PossibleValue::new(s.name())))
        .map(|s| s.parse().unwrap_or(Speed::Classical))
}

/// Why a game was not selected.
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
    /// `--max-elo` (or a rating missing).
    MaxElo,
    /// `--max-plies`.
    MaxPlies,
    /// `--sp`, `--black-sp`, `--dfrc`, `--no-dfrc` (or no start position).
    StartPosition,
    /// `--game-variant`.
    Variant,
    /// `--player`, `--white`, `--black`.
    Player,
    /// `--event`, `--site`.
    EventSite,
    /// `--result`.
    Result,
    /// `--termination`.
    Termination,
    /// `--tag`.
    Tag,
    /// `--outcome`.
    Outcome,
    /// `--reaches`.
    Reaches,
    /// `--invert`: the game passed every filter.
    Inverted,
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
            FilteredBy::MaxElo => "filtered-max-elo",
            FilteredBy::MaxPlies => "filtered-max-plies",
            FilteredBy::StartPosition => "filtered-sp",
            FilteredBy::Variant => "filtered-variant",
            FilteredBy::Player => "filtered-player",
            FilteredBy::EventSite => "filtered-event-site",
            FilteredBy::Result => "filtered-result",
            FilteredBy::Termination => "filtered-termination",
            FilteredBy::Tag => "filtered-tag",
            FilteredBy::Outcome => "filtered-outcome",
            FilteredBy::Reaches => "filtered-reaches",
            FilteredBy::Inverted => "filtered-inverted",
        }
    }
}

impl Filters {
    /// The game's [`date_span`] when a date filter (`since`, `until`) reads it, else `None`
    /// without reading the tags ([`Filters::check`] looks at the date only for those).
    pub fn date_for(&self, tags: &[Tag<'_>]) -> Option<(Date, Date)> {
        if self.since.is_some() || self.until.is_some() {
            date_span(tags)
        } else {
            None
        }
    }

    /// The first filter that rejects the game, if any: `date` is the span of days its date
    /// may be ([`date_span`]), `plies` known when the moves were replayed (or counted).
    pub fn check(
        &self,
        facts: &GameFacts,
        date: Option<(Date, Date)>,
        plies: Option<u32>,
    ) -> Option<FilteredBy> {
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
            let Some((first, last)) = date else {
                return Some(FilteredBy::Date);
            };
            if self.since.is_some_and(|s| first < s) || self.until.is_some_and(|u| last > u) {
                return Some(FilteredBy::Date);
            }
        }
        None
    }
}

/// The span of days a game's date may be: `UTCDate`, else `Date`. A full date is one day;
/// `2024.05.??` is May 2024, `2024.??.??` the year 2024; no year (`????.??.??`), no tag or
/// an unreadable date is `None`.
pub fn date_span(tags: &[Tag<'_>]) -> Option<(Date, Date)> {
    tag_text(tags, b"UTCDate")
        .and_then(|d| parse_date_span(&d))
        .or_else(|| tag_text(tags, b"Date").and_then(|d| parse_date_span(&d)))
}

/// The span of days of a date that may be partial (`2024.??.??`, `2024.05.??`).
pub fn parse_date_span(text: &str) -> Option<(Date, Date)> {
    // The common full date, read without splitting.
    if let Some(date) = crate::facts::full_date(text.as_bytes()) {
        return date.in_range().then_some((date, date));
    }
    date_span_general(text)
}

/// [`parse_date_span`] for any text: split at the separators, each part read.
pub(crate) fn date_span_general(text: &str) -> Option<(Date, Date)> {
    let mut parts = text.trim().split(['.', '-', '/']);
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let year: u16 = y.parse().ok()?;
    let unknown = |s: &str| !s.is_empty() && s.bytes().all(|b| b == b'?');
    let number = |s: &str, most: u8| s.parse::<u8>().ok().filter(|n| (1..=most).contains(n));
    let (first_month, last_month) = if unknown(m) {
        (1, 12)
    } else {
        let n = number(m, 12)?;
        (n, n)
    };
    let (first_day, last_day) = if unknown(d) || unknown(m) {
        (1, 31)
    } else {
        let n = number(d, 31)?;
        (n, n)
    };
    let day = |month, day| Date { year, month, day };
    Some((day(first_month, first_day), day(last_month, last_day)))
}

/// A list of start-position numbers: `518,0-10,100-399`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpList(Vec<(u16, u16)>);

impl SpList {
    /// Whether `sp` is in the list.
    pub fn contains(&self, sp: u16) -> bool {
        self.0.iter().any(|&(a, b)| (a..=b).contains(&sp))
    }
}

impl std::str::FromStr for SpList {
    type Err = String;

    fn from_str(text: &str) -> Result<SpList, String> {
        let number = |s: &str| -> Result<u16, String> {
            let s = s.trim();
            match s.parse::<u16>() {
                Ok(n) if n < 960 => Ok(n),
                Ok(_) => Err(sp_out_of_range(s)),
                Err(_) => Err(format!(
                    "{s:?} is not an SP number (expected a list like 518,0-10,100-399)"
                )),
            }
        };
        let mut ranges = Vec::new();
        for item in text.split(',') {
            let range = match item.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(format!("range {} is empty ({a} > {b})", item.trim()));
                    }
                    (a, b)
                }
                None => {
                    let n = number(item)?;
                    (n, n)
                }
            };
            ranges.push(range);
        }
        Ok(SpList(ranges))
    }
}

/// A `--tag` condition: `NAME=VALUE` (exact) or `NAME~TEXT` (substring).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagMatch {
    /// The tag name.
    pub name: String,
    /// The value or text.
    pub value: String,
    /// Substring (`~`) rather than exact (`=`).
    pub substring: bool,
}

impl std::str::FromStr for TagMatch {
    type Err = String;

    fn from_str(text: &str) -> Result<TagMatch, String> {
        let Some(at) = text.find(['=', '~']) else {
            return Err(format!(
                "expected NAME=VALUE or NAME~TEXT, found {text:?} (no '=' or '~')"
            ));
        };
        let name = &text[..at];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!("{name:?} is not a tag name (letters, digits, _)"));
        }
        Ok(TagMatch {
            name: name.to_string(),
            value: text[at + 1..].to_string(),
            substring: text.as_bytes()[at] == b'~',
        })
    }
}

/// The values of `--game-variant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum VariantChoice {
    /// Chess960 games (tagged so, or recognised from their FEN).
    Chess960,
    /// Classical chess.
    Classical,
    /// Other variants (passed through unchecked, as `check` counts them).
    Other,
}

/// The values of `--outcome`: how the final position, as replayed, ends the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum OutcomeChoice {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has mating material.
    InsufficientMaterial,
    /// 150 plies without capture or pawn move.
    SeventyFiveMoves,
    /// The final position occurred five times.
    FivefoldRepetition,
    /// 100 plies without capture or pawn move (claimable).
    FiftyMoves,
    /// The final position occurred three times (claimable).
    ThreefoldRepetition,
    /// None of these: the game stopped in a position that does not end it.
    None,
}

impl OutcomeChoice {
    fn of(termination: Option<Termination>) -> OutcomeChoice {
        match termination {
            Some(Termination::Checkmate) => OutcomeChoice::Checkmate,
            Some(Termination::Stalemate) => OutcomeChoice::Stalemate,
            Some(Termination::InsufficientMaterial) => OutcomeChoice::InsufficientMaterial,
            Some(Termination::SeventyFiveMoves) => OutcomeChoice::SeventyFiveMoves,
            Some(Termination::FivefoldRepetition) => OutcomeChoice::FivefoldRepetition,
            Some(Termination::FiftyMoves) => OutcomeChoice::FiftyMoves,
            Some(Termination::ThreefoldRepetition) => OutcomeChoice::ThreefoldRepetition,
            None => OutcomeChoice::None,
        }
    }
}

/// A position of `--reaches`: placement, side to move and castling rights (clocks and en
/// passant square ignored).
#[derive(Debug, Clone)]
pub struct Reaches {
    position: Position,
}

impl Reaches {
    /// Whether `p` is this position.
    pub fn matches(&self, p: &Position) -> bool {
        p.board() == self.position.board()
            && p.turn() == self.position.turn()
            && p.castling_rights() == self.position.castling_rights()
    }
}

impl std::str::FromStr for Reaches {
    type Err = String;

    fn from_str(text: &str) -> Result<Reaches, String> {
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        // Placement, side and castling are what count: missing clocks and en passant
        // square are supplied.
        if fields.len() < 3 {
            return Err(format!(
                "expected a FEN with placement, side to move and castling, found {text:?}"
            ));
        }
        fields.truncate(3);
        let fen = format!("{} - 0 1", fields.join(" "));
        let setup = Setup::from_ascii(fen.as_bytes()).map_err(|e| format!("{e} in {text:?}"))?;
        let position = Position::from_setup(&setup).map_err(|e| format!("{e} in {text:?}"))?;
        Ok(Reaches { position })
    }
}

pub use crate::validate::start::TaggedStart;

/// The selection of `filter` and `split`: the filters of `stats` and more. A game is
/// selected when it passes every filter given (with `--invert`, when it fails one).
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[cfg_attr(
    feature = "clap",
    command(next_help_heading = "Selection (a game must pass every filter given)")
)]
pub struct Selection {
    /// Ratings, length, speed and dates, as `stats` reads them.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub filters: Filters,
    /// Both players rated at most N.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_elo: Option<u32>,
    /// At most N main-line plies.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_plies: Option<u32>,
    /// Start positions (white's for Double Chess960): numbers and ranges, e.g. 518,0-10,100-399.
    #[cfg_attr(feature = "clap", arg(long, value_name = "LIST"))]
    pub sp: Option<SpList>,
    /// Black's start positions (Double Chess960; for Chess960 games the same as --sp).
    #[cfg_attr(feature = "clap", arg(long, value_name = "LIST"))]
    pub black_sp: Option<SpList>,
    /// Only Double Chess960 games (different arrangements for white and black).
    #[cfg_attr(feature = "clap", arg(long, conflicts_with = "no_dfrc"))]
    pub dfrc: bool,
    /// No Double Chess960 games.
    #[cfg_attr(feature = "clap", arg(long))]
    pub no_dfrc: bool,
    /// Only games of these rules (other: variants pgn960 does not check, passed through).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_enum, value_delimiter = ',', value_name = "VARIANT")
    )]
    pub game_variant: Vec<VariantChoice>,
    /// Games NAME played, with either colour (exact name).
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub player: Option<String>,
    /// Games NAME played with white (exact name).
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub white: Option<String>,
    /// Games NAME played with black (exact name).
    #[cfg_attr(feature = "clap", arg(long, value_name = "NAME"))]
    pub black: Option<String>,
    /// Compare names, events, sites, terminations and --tag values ignoring case.
    #[cfg_attr(feature = "clap", arg(long))]
    pub ignore_case: bool,
    /// Event tag containing TEXT.
    #[cfg_attr(feature = "clap", arg(long, value_name = "TEXT"))]
    pub event: Option<String>,
    /// Site tag containing TEXT.
    #[cfg_attr(feature = "clap", arg(long, value_name = "TEXT"))]
    pub site: Option<String>,
    /// Result tag one of these: 1-0, 0-1, 1/2-1/2, *.
    #[cfg_attr(feature = "clap", arg(long, value_delimiter = ',', value_name = "RESULT", value_parser = ["1-0", "0-1", "1/2-1/2", "*"]))]
    pub result: Vec<String>,
    /// Termination tag equal to TEXT (lichess: Normal, Time forfeit, Abandoned, ...).
    #[cfg_attr(feature = "clap", arg(long, value_name = "TEXT"))]
    pub termination: Option<String>,
    /// How the final position, as replayed, ends the game (not what a tag says).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_enum, value_delimiter = ',', value_name = "OUTCOME")
    )]
    pub outcome: Vec<OutcomeChoice>,
    /// A tag condition, NAME=VALUE (exact) or NAME~TEXT (substring); repeatable, all must hold.
    #[cfg_attr(feature = "clap", arg(long = "tag", value_name = "NAME=VALUE"))]
    pub tags: Vec<TagMatch>,
    /// The main line reaches this position (FEN placement, side to move and castling; clocks
    /// and en passant ignored), the start included.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FEN"))]
    pub reaches: Option<Reaches>,
    /// Select the valid games the other flags drop (invalid games are never selected).
    #[cfg_attr(feature = "clap", arg(long))]
    pub invert: bool,
}

/// A tag's value as text.
pub fn tag_text<'t>(tags: &'t [Tag<'_>], name: &[u8]) -> Option<Cow<'t, str>> {
    tags.iter().find(|t| t.name == name).map(|t| t.value_str())
}

impl Selection {
    /// Whether any filter needs the start position (so a game's FEN must be read).
    pub fn needs_start(&self) -> bool {
        self.sp.is_some()
            || self.black_sp.is_some()
            || self.dfrc
            || self.no_dfrc
            || !self.game_variant.is_empty()
    }

    /// Whether any filter needs the moves replayed (beyond telling valid games from invalid).
    pub fn needs_moves(&self) -> bool {
        !self.outcome.is_empty() || self.reaches.is_some()
    }

    fn text_eq(&self, a: &str, b: &str) -> bool {
        if self.ignore_case {
            a.to_lowercase() == b.to_lowercase()
        } else {
            a == b
        }
    }

    fn text_contains(&self, haystack: &str, needle: &str) -> bool {
        if self.ignore_case {
            haystack.to_lowercase().contains(&needle.to_lowercase())
        } else {
            haystack.contains(needle)
        }
    }

    /// The first filter the tags alone reject the game by, if any.
    pub fn check_tags(&self, tags: &[Tag<'_>]) -> Option<FilteredBy> {
        let text = |name: &[u8]| tag_text(tags, name);
        let has = |name: &[u8], want: &Option<String>| match want {
            None => true,
            Some(want) => text(name).is_some_and(|v| self.text_eq(v.trim(), want)),
        };
        if !has(b"White", &self.white) || !has(b"Black", &self.black) {
            return Some(FilteredBy::Player);
        }
        if self.player.is_some() && !has(b"White", &self.player) && !has(b"Black", &self.player) {
            return Some(FilteredBy::Player);
        }
        let contains = |name: &[u8], want: &Option<String>| match want {
            None => true,
            Some(want) => text(name).is_some_and(|v| self.text_contains(&v, want)),
        };
        if !contains(b"Event", &self.event) || !contains(b"Site", &self.site) {
            return Some(FilteredBy::EventSite);
        }
        // The facts are read only for the filters that use them.
        let f = &self.filters;
        let facts = match f.min_elo.is_some()
            || f.max_elo_diff.is_some()
            || !f.speeds.is_empty()
            || self.max_elo.is_some()
        {
            true => GameFacts::from_tags(tags),
            false => GameFacts::default(),
        };
        // --min-plies is decided by the replay.
        if let Some(f) = self
            .filters
            .check(&facts, self.filters.date_for(tags), None)
        {
            return Some(f);
        }
        if let Some(max) = self.max_elo {
            match facts.ratings {
                Some((w, b)) if w <= max && b <= max => {}
                _ => return Some(FilteredBy::MaxElo),
            }
        }
        if !self.result.is_empty() {
            let result = text(b"Result");
            if !result.is_some_and(|r| self.result.iter().any(|want| want == r.trim())) {
                return Some(FilteredBy::Result);
            }
        }
        if !has(b"Termination", &self.termination) {
            return Some(FilteredBy::Termination);
        }
        for m in &self.tags {
            let value = text(m.name.as_bytes());
            let ok = value.is_some_and(|v| {
                if m.substring {
                    self.text_contains(&v, &m.value)
                } else {
                    self.text_eq(&v, &m.value)
                }
            });
            if !ok {
                return Some(FilteredBy::Tag);
            }
        }
        None
    }

    /// The first filter the start position rejects the game by, if any.
    pub fn check_start(&self, start: TaggedStart) -> Option<FilteredBy> {
        let variant = match start {
            TaggedStart::Chess(GameKind::Chess960, _) => VariantChoice::Chess960,
            TaggedStart::Chess(GameKind::Standard, _) => VariantChoice::Classical,
            TaggedStart::Other => VariantChoice::Other,
        };
        if !self.game_variant.is_empty() && !self.game_variant.contains(&variant) {
            return Some(FilteredBy::Variant);
        }
        let sps = match start {
            TaggedStart::Chess(_, StartKind::Chess960(n)) => Some((n, n)),
            TaggedStart::Chess(_, StartKind::DoubleChess960 { white, black }) => {
                Some((white, black))
            }
            _ => None,
        };
        let wants_start = self.sp.is_some() || self.black_sp.is_some() || self.dfrc || self.no_dfrc;
        if !wants_start {
            return None;
        }
        let Some((white, black)) = sps else {
            return Some(FilteredBy::StartPosition);
        };
        let double = white != black;
        if self.sp.as_ref().is_some_and(|l| !l.contains(white))
            || self.black_sp.as_ref().is_some_and(|l| !l.contains(black))
            || (self.dfrc && !double)
            || (self.no_dfrc && double)
        {
            return Some(FilteredBy::StartPosition);
        }
        None
    }

    /// The first filter what the replay found rejects a valid game by, if any.
    pub fn check_game(&self, game: &ValidGame) -> Option<FilteredBy> {
        if let Some(f) = self.check_start(TaggedStart::Chess(game.kind, game.class.kind)) {
            return Some(f);
        }
        if self.filters.min_plies.is_some_and(|min| game.plies < min) {
            return Some(FilteredBy::MinPlies);
        }
        if self.max_plies.is_some_and(|max| game.plies > max) {
            return Some(FilteredBy::MaxPlies);
        }
        if !self.outcome.is_empty() && !self.outcome.contains(&OutcomeChoice::of(game.termination))
        {
            return Some(FilteredBy::Outcome);
        }
        if let Some(target) = &self.reaches {
            if !reaches(game, target) {
                return Some(FilteredBy::Reaches);
            }
        }
        None
    }

    /// The first filter what the replay found rejects a game of another variant by: every
    /// filter of the replay or start position but --game-variant other.
    pub fn check_other_variant(&self) -> Option<FilteredBy> {
        if let Some(f) = self.check_start(TaggedStart::Other) {
            return Some(f);
        }
        if self.filters.min_plies.is_some() || self.max_plies.is_some() {
            return Some(FilteredBy::MinPlies);
        }
        if !self.outcome.is_empty() {
            return Some(FilteredBy::Outcome);
        }
        if self.reaches.is_some() {
            return Some(FilteredBy::Reaches);
        }
        None
    }
}

/// Whether the main line of `game` (its moves kept) passes through `target`.
fn reaches(game: &ValidGame, target: &Reaches) -> bool {
    let mut position = game.start.clone();
    if target.matches(&position) {
        return true;
    }
    game.moves.iter().any(|record| {
        position.play_unchecked(record.chess_move);
        target.matches(&position)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_date_is_read_for_date_filters_only() {
        let tags = [Tag {
            name: b"UTCDate",
            raw_value: b"2024.03.05",
            offset: 0,
        }];
        assert_eq!(Filters::default().date_for(&tags), None);
        for f in [
            Filters {
                since: "2024.01.01".parse().ok(),
                ..Filters::default()
            },
            Filters {
                until: "2024.01.01".parse().ok(),
                ..Filters::default()
            },
        ] {
            assert_eq!(f.date_for(&tags), date_span(&tags));
            assert!(f.date_for(&tags).is_some());
        }
    }

    #[test]
    fn the_tags_facts_are_read_for_every_filter_that_uses_them() {
        let tag = |name: &'static [u8], raw_value: &'static [u8]| Tag {
            name,
            raw_value,
            offset: 0,
        };
        let tags = [
            tag(b"WhiteElo", b"2100"),
            tag(b"BlackElo", b"1500"),
            tag(b"TimeControl", b"60+0"),
        ];
        let with = |filters: Filters, max_elo: Option<u32>| Selection {
            filters,
            max_elo,
            ..Selection::default()
        };
        let dropped = [
            (
                with(
                    Filters {
                        min_elo: Some(2000),
                        ..Filters::default()
                    },
                    None,
                ),
                FilteredBy::MinElo,
            ),
            (
                with(
                    Filters {
                        max_elo_diff: Some(100),
                        ..Filters::default()
                    },
                    None,
                ),
                FilteredBy::MaxEloDiff,
            ),
            (
                with(
                    Filters {
                        speeds: vec![Speed::Classical],
                        ..Filters::default()
                    },
                    None,
                ),
                FilteredBy::TimeControl,
            ),
            (with(Filters::default(), Some(2000)), FilteredBy::MaxElo),
        ];
        for (selection, by) in dropped {
            assert_eq!(selection.check_tags(&tags), Some(by));
        }
        let kept = with(
            Filters {
                min_elo: Some(1500),
                max_elo_diff: Some(600),
                speeds: vec![Speed::Bullet],
                ..Filters::default()
            },
            Some(2100),
        );
        assert_eq!(kept.check_tags(&tags), None);
        assert_eq!(Selection::default().check_tags(&tags), None);
    }

    #[test]
    fn filters() {
        let f = Filters {
            min_elo: Some(2000),
            since: "2024.02.01".parse().ok(),
            ..Filters::default()
        };
        let span = |d: &str| parse_date_span(d);
        let mut facts = GameFacts {
            ratings: Some((2100, 1900)),
            ..GameFacts::default()
        };
        assert_eq!(
            f.check(&facts, span("2024.03.01"), None),
            Some(FilteredBy::MinElo)
        );
        facts.ratings = Some((2100, 2000));
        assert_eq!(f.check(&facts, span("2024.03.01"), None), None);
        assert_eq!(
            f.check(&facts, span("2024.01.31"), None),
            Some(FilteredBy::Date)
        );
        assert!("2024.13.01".parse::<Date>().is_err());
    }

    #[test]
    fn partial_dates_are_spans() {
        let d = |s: &str| s.parse::<Date>().ok();
        assert_eq!(
            parse_date_span("2024.??.??"),
            d("2024.01.01").zip(d("2024.12.31"))
        );
        assert_eq!(
            parse_date_span("2024.05.??"),
            d("2024.05.01").zip(d("2024.05.31"))
        );
        assert_eq!(parse_date_span("????.??.??"), None);
        assert_eq!(parse_date_span("2024.13.01"), None);
        assert_eq!(parse_date_span("2024.1"), None);
    }

    #[test]
    fn sp_lists() {
        let l: SpList = "518,0-10,100-399".parse().unwrap_or(SpList(Vec::new()));
        assert!(l.contains(518) && l.contains(0) && l.contains(10) && l.contains(250));
        assert!(!l.contains(11) && !l.contains(400) && !l.contains(959));
        for (bad, says) in [
            ("960", "out of range"),
            ("5-2", "empty"),
            ("a", "not an SP number"),
            ("1,,2", "not an SP number"),
            ("", "not an SP number"),
        ] {
            let e = bad.parse::<SpList>().err().unwrap_or_default();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn tag_matches() {
        let m: Result<TagMatch, _> = "Opening~Sicilian".parse();
        assert_eq!(
            m,
            Ok(TagMatch {
                name: "Opening".into(),
                value: "Sicilian".into(),
                substring: true
            })
        );
        assert!("Event".parse::<TagMatch>().is_err());
        assert!("=x".parse::<TagMatch>().is_err());
    }
}
