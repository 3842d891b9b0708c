//! The counts behind the page's own filters (month, rating band, speed, event): W/D/L per
//! (month, band, speed, event, SP) cell, summed over the games, never one row per game, so
//! the page grows with the cells present and is bounded by [`CELL_LIMIT`].

use super::value_rank;
use pgn960::select::{date_span, GameFacts};
use pgn960::stats::by::{ByKey, KeyValue};
use pgn960::stats::table::Winner;
use pgn_parse::Tag;
use serde::Serialize;
use std::collections::BTreeMap;

/// The most cells the page holds. Past it the event is dropped from the cells (events
/// pooled: the event filter goes); past it again the page has no filters, and says so.
pub const CELL_LIMIT: usize = 100_000;

/// (month, rating band, speed, event, SP).
type CellKey = (KeyValue, KeyValue, KeyValue, String, u16);

/// The cells counted so far.
#[derive(Debug, Clone, Default)]
pub struct CellTally {
    cells: BTreeMap<CellKey, [u64; 3]>,
    /// Events were pooled to stay within [`CELL_LIMIT`].
    events_pooled: bool,
    /// Even without events there were more cells than [`CELL_LIMIT`]: no filters.
    over: bool,
}

/// The month of a game for the filter: its date's span when that lies within one month
/// (a full date, or `2024.05.??`), else unknown — so a month filter selects exactly the
/// games `--since YYYY.MM.01 --until YYYY.MM.31` selects.
fn month_of(tags: &[Tag<'_>]) -> KeyValue {
    KeyValue::Month(
        date_span(tags).and_then(|(a, b)| {
            ((a.year, a.month) == (b.year, b.month)).then_some((a.year, a.month))
        }),
    )
}

impl CellTally {
    /// Counts one game of `sp`.
    pub fn add(
        &mut self,
        tags: &[Tag<'_>],
        facts: &GameFacts,
        band_width: u32,
        sp: u16,
        winner: Winner,
    ) {
        if self.over {
            return;
        }
        let event = if self.events_pooled {
            String::new()
        } else {
            KeyValue::of(ByKey::Event, tags, facts, band_width).label()
        };
        let key = (
            month_of(tags),
            KeyValue::of(ByKey::RatingBand, tags, facts, band_width),
            KeyValue::Speed(facts.speed),
            event,
            sp,
        );
        let cell = self.cells.entry(key).or_default();
        cell[match winner {
            Winner::White => 0,
            Winner::Draw => 1,
            Winner::Black => 2,
        }] += 1;
        self.bound();
    }

    /// Keeps within [`CELL_LIMIT`]: pools the events, then gives up.
    fn bound(&mut self) {
        if self.cells.len() <= CELL_LIMIT {
            return;
        }
        if !self.events_pooled {
            self.pool_events();
        }
        if self.cells.len() > CELL_LIMIT {
            self.over = true;
            self.cells.clear();
        }
    }

    fn pool_events(&mut self) {
        self.events_pooled = true;
        let cells = std::mem::take(&mut self.cells);
        for ((m, b, s, _, sp), c) in cells {
            let mine = self.cells.entry((m, b, s, String::new(), sp)).or_default();
            for (m, x) in mine.iter_mut().zip(c) {
                *m += x;
            }
        }
    }

    /// Adds the cells of a later chunk.
    pub fn merge(&mut self, other: CellTally) {
        if self.over || other.over {
            self.over = true;
            self.cells.clear();
            return;
        }
        if other.events_pooled && !self.events_pooled {
            self.pool_events();
        }
        for ((m, b, s, e, sp), c) in other.cells {
            let e = if self.events_pooled { String::new() } else { e };
            let mine = self.cells.entry((m, b, s, e, sp)).or_default();
            for (m, x) in mine.iter_mut().zip(c) {
                *m += x;
            }
        }
        self.bound();
    }

    /// The cells as the page holds them; `None` past the limit.
    pub fn finish(self) -> Option<FilterCells> {
        if self.over {
            return None;
        }
        let mut months = Labels::default();
        let mut bands = Labels::default();
        let mut speeds = Labels::default();
        let mut events = Labels::default();
        for (m, b, s, e, _) in self.cells.keys() {
            months.note(m);
            bands.note(b);
            speeds.note(s);
            events.0.insert((u64::from(!e.is_empty()), e.clone()), 0);
        }
        let (months, bands, speeds, events) = (
            months.index(),
            bands.index(),
            speeds.index(),
            events.index(),
        );
        let at = |l: &Labels, v: &KeyValue| l.0.get(&(value_rank(v), v.label())).copied();
        let cells = self
            .cells
            .iter()
            .filter_map(|((m, b, s, e, sp), c)| {
                let e = events
                    .0
                    .get(&(u64::from(!e.is_empty()), e.clone()))
                    .copied();
                Some([
                    at(&months, m)?,
                    at(&bands, b)?,
                    at(&speeds, s)?,
                    e?,
                    u64::from(*sp),
                    c[0],
                    c[1],
                    c[2],
                ])
            })
            .collect();
        Some(FilterCells {
            months: months.labels(),
            bands: bands.labels(),
            speeds: speeds.labels(),
            events: events.labels(),
            events_pooled: self.events_pooled,
            limit: CELL_LIMIT,
            cells,
        })
    }
}

/// The values of one dimension, in table order, with their index once numbered.
#[derive(Default)]
struct Labels(BTreeMap<(u64, String), u64>);

impl Labels {
    fn note(&mut self, v: &KeyValue) {
        self.0.insert((value_rank(v), v.label()), 0);
    }
    fn index(mut self) -> Labels {
        for (i, slot) in self.0.values_mut().enumerate() {
            *slot = i as u64;
        }
        self
    }
    fn labels(&self) -> Vec<String> {
        self.0.keys().map(|(_, l)| l.clone()).collect()
    }
}

/// The page's filter data: the values of each dimension (empty text: unknown) and the
/// cells as `[month, band, speed, event, sp, W, D, L]` (indices into the values).
#[derive(Debug, Clone, Default, Serialize)]
pub struct FilterCells {
    /// Months `YYYY-MM`, ascending (empty: no date within one month).
    pub months: Vec<String>,
    /// Rating bands of the mean rating, ascending (empty: unrated).
    pub bands: Vec<String>,
    /// Speeds, fastest first (empty: no readable TimeControl).
    pub speeds: Vec<String>,
    /// Events (one empty value when events were pooled).
    pub events: Vec<String>,
    /// Whether events were pooled to stay within the limit.
    pub events_pooled: bool,
    /// The limit of cells ([`CELL_LIMIT`]).
    pub limit: usize,
    /// The cells.
    pub cells: Vec<[u64; 8]>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag<'a>(name: &'a [u8], value: &'a [u8]) -> Tag<'a> {
        Tag {
            name,
            raw_value: value,
            offset: 0,
        }
    }

    #[test]
    fn cells_sum_the_games_and_stay_bounded() {
        let tags = [tag(b"Date", b"2024.03.09"), tag(b"Event", b"E")];
        let facts = GameFacts::from_tags(&tags);
        let mut t = CellTally::default();
        t.add(&tags, &facts, 200, 5, Winner::White);
        t.add(&tags, &facts, 200, 5, Winner::Draw);
        let mut other = CellTally::default();
        other.add(&tags, &facts, 200, 7, Winner::Black);
        t.merge(other);
        let f = t.clone().finish().unwrap();
        assert_eq!(f.months, ["2024-03"]);
        assert_eq!(f.events, ["E"]);
        assert_eq!(
            f.cells,
            [[0, 0, 0, 0, 5, 1, 1, 0], [0, 0, 0, 0, 7, 0, 0, 1]]
        );
        // Past the limit events are pooled, then the filters go.
        for sp in 0..960u16 {
            for day in 1..=28 {
                for event in 0..4 {
                    let date = format!("2024.{:02}.{day:02}", event + 1);
                    let name = format!("e{event}{day}");
                    let tags = [
                        tag(b"Date", date.as_bytes()),
                        tag(b"Event", name.as_bytes()),
                    ];
                    let facts = GameFacts::from_tags(&tags);
                    t.add(&tags, &facts, 200, sp, Winner::White);
                }
            }
        }
        let f = t.finish().unwrap();
        assert!(f.events_pooled);
        assert_eq!(f.events, [""]);
        let games: u64 = f.cells.iter().map(|c| c[5] + c[6] + c[7]).sum();
        assert_eq!(games, 3 + 960 * 28 * 4);
    }
}
