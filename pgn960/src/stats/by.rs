//! The cuts of `stats --by`: which key a game falls under (speed, month, year, rating band,
//! event, player), how a key is written as a table column and read back for `--merge`.

use crate::facts::{GameFacts, Speed};
use pgn_parse::Tag;
use std::borrow::Cow;

/// A key of `stats --by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ByKey {
    /// The speed from the TimeControl tag (column `time_control`).
    TimeControl,
    /// `YYYY-MM` from UTCDate, else Date (column `month`).
    Month,
    /// `YYYY` from UTCDate, else Date (column `year`).
    Year,
    /// The band of the mean of both ratings, `--band-width` wide (column `rating_band`).
    RatingBand,
    /// The Event tag (column `event`).
    Event,
    /// The White tag (column `white`).
    White,
    /// The Black tag (column `black`).
    Black,
}

impl ByKey {
    /// Every key, in the order the help lists them.
    pub const ALL: [ByKey; 7] = [
        ByKey::TimeControl,
        ByKey::Month,
        ByKey::Year,
        ByKey::RatingBand,
        ByKey::Event,
        ByKey::White,
        ByKey::Black,
    ];

    /// The column name in tables.
    pub const fn column(self) -> &'static str {
        match self {
            ByKey::TimeControl => "time_control",
            ByKey::Month => "month",
            ByKey::Year => "year",
            ByKey::RatingBand => "rating_band",
            ByKey::Event => "event",
            ByKey::White => "white",
            ByKey::Black => "black",
        }
    }

    /// The key whose column is `name`.
    pub fn from_column(name: &str) -> Option<ByKey> {
        ByKey::ALL.into_iter().find(|k| k.column() == name)
    }
}

/// What the significance tests are stratified by (`--strata`, Python's `strata=`): one
/// vocabulary, parsed by [`std::str::FromStr`] and written by [`std::fmt::Display`] as
/// `event`, `time-control`, `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum StrataKey {
    /// The Event tag.
    #[default]
    Event,
    /// The speed (bullet, blitz, rapid, classical, from the TimeControl tag).
    TimeControl,
    /// No strata: one table.
    None,
}

impl StrataKey {
    /// Every strata key, in the order the help lists them.
    pub const ALL: [StrataKey; 3] = [StrataKey::Event, StrataKey::TimeControl, StrataKey::None];

    /// The `--by` key of the strata (`None`: one table).
    pub fn by_key(self) -> Option<ByKey> {
        match self {
            StrataKey::Event => Some(ByKey::Event),
            StrataKey::TimeControl => Some(ByKey::TimeControl),
            StrataKey::None => None,
        }
    }

    /// The word naming it: `event`, `time-control`, `none`.
    pub const fn name(self) -> &'static str {
        match self {
            StrataKey::Event => "event",
            StrataKey::TimeControl => "time-control",
            StrataKey::None => "none",
        }
    }
}

impl std::fmt::Display for StrataKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for StrataKey {
    type Err = String;

    /// Reads `event`, `time-control` (or its column name `time_control`) or `none`.
    fn from_str(text: &str) -> Result<StrataKey, String> {
        let text = if text == "time_control" {
            "time-control"
        } else {
            text
        };
        StrataKey::ALL
            .into_iter()
            .find(|k| k.name() == text)
            .ok_or_else(|| format!("strata {text:?} is not one of event, time-control, none"))
    }
}

/// The value of one key for one game; `None` when the game's tags do not say (written as an
/// empty cell). Ordered as the rows are: unknown first, speeds fastest first, dates and bands
/// ascending, names in byte order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KeyValue {
    /// A speed.
    Speed(Option<Speed>),
    /// (year, month).
    Month(Option<(u16, u8)>),
    /// A year.
    Year(Option<u16>),
    /// (lowest rating, width) of a rating band.
    Band(Option<(u32, u32)>),
    /// A tag's text.
    Text(Option<String>),
}

/// The values of the `--by` keys of one cell, in `--by` order (empty without `--by`).
pub type Key = Vec<KeyValue>;

/// The longest key value (Event, White, Black) kept, in bytes: a longer one is cut at a
/// character boundary and ends with [`TRUNCATED_MARK`] (a 60 MB player name made a table of
/// 57.6 GB). Names that agree on their first bytes then share a cell.
pub const MAX_KEY_BYTES: usize = 200;

/// What ends a key value cut at [`MAX_KEY_BYTES`].
pub const TRUNCATED_MARK: &str = "…[truncated]";

/// `text`, cut to [`MAX_KEY_BYTES`] with [`TRUNCATED_MARK`] when longer.
fn bounded(text: &str) -> Cow<'_, str> {
    if text.len() <= MAX_KEY_BYTES {
        return Cow::Borrowed(text);
    }
    let mut end = MAX_KEY_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}{TRUNCATED_MARK}", &text[..end]))
}

/// The text a tag's key value holds (`Event`, `White`, `Black`): trimmed, cut at
/// [`MAX_KEY_BYTES`], `None` when absent or empty — [`KeyValue::Text`]'s text, borrowed
/// from the tags when nothing was cut or unescaped.
pub fn tag_text<'t>(tags: &'t [Tag<'_>], name: &[u8]) -> Option<Cow<'t, str>> {
    key_text(tags.iter().find(|t| t.name == name)?.value_str())
}

/// [`tag_text`] of a tag's value already read with [`Tag::value_str`]: trimmed, cut at
/// [`MAX_KEY_BYTES`], `None` when empty.
pub fn key_text(value: Cow<'_, str>) -> Option<Cow<'_, str>> {
    let text = match value {
        Cow::Borrowed(value) => bounded(value.trim()),
        Cow::Owned(value) => Cow::Owned(bounded(value.trim()).into_owned()),
    };
    (!text.is_empty()).then_some(text)
}

impl KeyValue {
    /// The value of `key` for a game with these tags and facts.
    pub fn of(key: ByKey, tags: &[Tag<'_>], facts: &GameFacts, band_width: u32) -> KeyValue {
        let text = |name: &[u8]| tag_text(tags, name).map(Cow::into_owned);
        match key {
            ByKey::TimeControl => KeyValue::Speed(facts.speed),
            ByKey::Month => KeyValue::Month(facts.date.map(|d| (d.year, d.month))),
            ByKey::Year => KeyValue::Year(facts.date.map(|d| d.year)),
            ByKey::RatingBand => {
                let width = band_width.max(1);
                KeyValue::Band(facts.ratings.map(|(w, b)| {
                    let mean = (u64::from(w) + u64::from(b)) / 2;
                    let mean = u32::try_from(mean).unwrap_or(u32::MAX);
                    (mean / width * width, width)
                }))
            }
            ByKey::Event => KeyValue::Text(text(b"Event")),
            ByKey::White => KeyValue::Text(text(b"White")),
            ByKey::Black => KeyValue::Text(text(b"Black")),
        }
    }

    /// Whether a name was cut at [`MAX_KEY_BYTES`].
    pub fn is_truncated(&self) -> bool {
        matches!(self, KeyValue::Text(Some(t)) if t.ends_with(TRUNCATED_MARK))
    }

    /// The value as written in its column (`blitz`, `2024-03`, `2024`, `1800-1999`, the
    /// tag's text; empty when unknown).
    pub fn label(&self) -> String {
        match self {
            KeyValue::Speed(s) => s.map(|s| s.name().to_string()).unwrap_or_default(),
            KeyValue::Month(m) => m.map(|(y, m)| format!("{y:04}-{m:02}")).unwrap_or_default(),
            KeyValue::Year(y) => y.map(|y| format!("{y:04}")).unwrap_or_default(),
            KeyValue::Band(b) => b
                .map(|(lo, w)| format!("{lo}-{}", u64::from(lo) + u64::from(w) - 1))
                .unwrap_or_default(),
            KeyValue::Text(t) => t.clone().unwrap_or_default(),
        }
    }

    /// Reads a value of `key` back from its column text (for `--merge`).
    pub fn parse(key: ByKey, text: &str) -> Result<KeyValue, String> {
        let bad = || format!("{text:?} is not a {} value", key.column());
        let empty = text.is_empty();
        Ok(match key {
            ByKey::TimeControl if empty => KeyValue::Speed(None),
            ByKey::TimeControl => KeyValue::Speed(Some(text.parse::<Speed>()?)),
            ByKey::Month if empty => KeyValue::Month(None),
            ByKey::Month => {
                let (y, m) = text.split_once('-').ok_or_else(bad)?;
                let (y, m) = (y.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
                if !(1..=12).contains(&m) {
                    return Err(bad());
                }
                KeyValue::Month(Some((y, m)))
            }
            ByKey::Year if empty => KeyValue::Year(None),
            ByKey::Year => KeyValue::Year(Some(text.parse().map_err(|_| bad())?)),
            ByKey::RatingBand if empty => KeyValue::Band(None),
            ByKey::RatingBand => {
                let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
                let (lo, hi): (u32, u32) = (
                    lo.parse().map_err(|_| bad())?,
                    hi.parse().map_err(|_| bad())?,
                );
                if hi < lo {
                    return Err(bad());
                }
                KeyValue::Band(Some((lo, hi - lo + 1)))
            }
            ByKey::Event | ByKey::White | ByKey::Black => {
                KeyValue::Text((!empty).then(|| text.to_string()))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strata_words_read_back() {
        for key in StrataKey::ALL {
            assert_eq!(key.to_string().parse::<StrataKey>(), Ok(key));
        }
        assert_eq!("time_control".parse(), Ok(StrataKey::TimeControl));
        assert_eq!(StrataKey::TimeControl.by_key(), Some(ByKey::TimeControl));
        assert_eq!(StrataKey::None.by_key(), None);
        let error = "month".parse::<StrataKey>().unwrap_err();
        assert!(error.contains("event, time-control, none"), "{error}");
    }

    #[test]
    fn long_names_are_cut_with_a_mark() {
        assert_eq!(bounded("Carlsen"), "Carlsen");
        let long = "é".repeat(150);
        let cut = bounded(&long);
        assert!(cut.ends_with(TRUNCATED_MARK));
        assert!(cut.len() <= MAX_KEY_BYTES + TRUNCATED_MARK.len());
        assert!(long.starts_with(cut.trim_end_matches(TRUNCATED_MARK)));
        assert!(KeyValue::Text(Some(cut.into_owned())).is_truncated());
        assert!(!KeyValue::Text(Some(long[..10].to_string())).is_truncated());
    }

    #[test]
    fn tag_text_trims_unescapes_decodes_and_cuts() {
        let text = |value: &[u8]| {
            let tags = [Tag {
                name: b"Event",
                raw_value: value,
                offset: 0,
            }];
            tag_text(&tags, b"Event").map(Cow::into_owned)
        };
        assert_eq!(text(b"  Open  ").as_deref(), Some("Open"));
        assert_eq!(text(b""), None);
        assert_eq!(text(b"  "), None);
        assert_eq!(text(b"a \\\" q").as_deref(), Some("a \" q"));
        assert_eq!(text(b"caf\xe9").as_deref(), Some("café"));
        let long = text("x".repeat(300).as_bytes()).unwrap();
        assert_eq!(
            long,
            format!("{}{TRUNCATED_MARK}", "x".repeat(MAX_KEY_BYTES))
        );
        let tags = [Tag {
            name: b"Event",
            raw_value: b"x",
            offset: 0,
        }];
        assert_eq!(tag_text(&tags, b"White"), None);
    }

    #[test]
    fn labels_read_back_and_order() {
        let facts = GameFacts {
            ratings: Some((1850, 2000)),
            speed: Some(Speed::Blitz),
            date: "2024.03.09".parse().ok(),
        };
        let cases = [
            (ByKey::TimeControl, "blitz"),
            (ByKey::Month, "2024-03"),
            (ByKey::Year, "2024"),
            (ByKey::RatingBand, "1800-1999"),
        ];
        for (key, label) in cases {
            let v = KeyValue::of(key, &[], &facts, 200);
            assert_eq!(v.label(), label);
            assert_eq!(KeyValue::parse(key, label), Ok(v.clone()));
            assert_eq!(
                KeyValue::parse(key, ""),
                Ok(KeyValue::of(key, &[], &GameFacts::default(), 200))
            );
        }
        assert!(KeyValue::Speed(None) < KeyValue::Speed(Some(Speed::UltraBullet)));
        assert!(KeyValue::Speed(Some(Speed::Bullet)) < KeyValue::Speed(Some(Speed::Rapid)));
        assert!(KeyValue::Band(Some((800, 200))) < KeyValue::Band(Some((1000, 200))));
        assert!(KeyValue::parse(ByKey::RatingBand, "2000-1999").is_err());
        assert!(KeyValue::parse(ByKey::TimeControl, "fast").is_err());
    }
}
