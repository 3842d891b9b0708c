//! The counts behind the page's own filters (month, rating band, speed, event): W/D/L per
//! (month, band, speed, event, SP) cell — and per (…, white SP, black SP) cell for Double
//! Chess960 pairs — summed over the games, never one row per game, so the page grows with
//! the cells present and is bounded by [`CELL_LIMIT`] (both kinds together).

use super::value_rank;
use pgn960::facts::Speed;
use pgn960::select::{date_span, GameFacts};
use pgn960::stats::by::{ByKey, KeyValue};
use pgn960::stats::table::Winner;
use pgn_parse::Tag;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;

/// The most cells the page holds. Past it the event is dropped from the cells (events
/// pooled: the event filter goes), past it again the rating band (the band filter goes);
/// past it still the page has no filters, and says so.
pub const CELL_LIMIT: usize = 100_000;

/// (month, rating band, speed, event, SP, black's SP for a Double Chess960 pair): the
/// values of [`KeyValue::Month`], [`KeyValue::Band`] and [`KeyValue::Speed`], which order
/// as those do.
type CellKey = (Month, Band, Option<Speed>, String, u16, Option<u16>);

/// (year, month) of a cell.
type Month = Option<(u16, u8)>;

/// (lowest rating, width) of a cell's rating band.
type Band = Option<(u32, u32)>;

/// A [`CellKey`] as counted: its event an index into [`CellTally`]'s event names, so that
/// a game's cell is found by hashing without making a string; plain values, not
/// [`KeyValue`]s (a key of 32 bytes, not 88: the cells' hash map stays in fewer cache
/// lines, and a key hashes and compares without matching variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct CountedKey {
    month: Month,
    band: Band,
    speed: Option<Speed>,
    event: u32,
    sp: u16,
    black: Option<u16>,
}

/// The cells counted so far.
#[derive(Debug, Clone)]
pub struct CellTally {
    cells: FxHashMap<CountedKey, [u64; 3]>,
    /// The event names the cells hold, by index.
    events: Vec<String>,
    /// The index of each of [`CellTally::events`].
    event_index: FxHashMap<String, u32>,
    /// Events were pooled to stay within [`CELL_LIMIT`].
    events_pooled: bool,
    /// Rating bands were pooled too.
    bands_pooled: bool,
    /// Even without events and bands there were more cells than [`CELL_LIMIT`]: no filters.
    over: bool,
    /// The most cells kept ([`CELL_LIMIT`]; smaller in tests).
    limit: usize,
}

impl Default for CellTally {
    fn default() -> CellTally {
        CellTally {
            cells: FxHashMap::default(),
            events: Vec::new(),
            event_index: FxHashMap::default(),
            events_pooled: false,
            bands_pooled: false,
            over: false,
            limit: CELL_LIMIT,
        }
    }
}

/// A chunk's counted games as cells, one per game in reading order, each event numbered
/// within the chunk: the worker hashes no cell, and the sink adds each game once to the
/// run's cells ([`CellTally::add_log`]) instead of a chunk's cells merged again.
#[derive(Debug, Default)]
pub struct CellLog {
    /// The games' cells (the event a number into `events`) and results.
    games: Vec<(CountedKey, Winner)>,
    /// The event names the games name, by number.
    events: Vec<Box<str>>,
    /// The number of each of `events`.
    event_index: FxHashMap<Box<str>, u32>,
}

impl CellLog {
    /// Logs one game of `sp` (white's SP; `black`, black's SP in a Double Chess960
    /// game), `event` its Event as [`CellTally::add_event`] takes it.
    pub fn push(
        &mut self,
        event: &str,
        tags: &[Tag<'_>],
        facts: &GameFacts,
        band_width: u32,
        (sp, black): (u16, Option<u16>),
        winner: Winner,
    ) {
        let event = match self.event_index.get(event) {
            Some(&i) => i,
            None => {
                let i = u32::try_from(self.events.len()).unwrap_or(u32::MAX);
                self.events.push(event.into());
                self.event_index.insert(event.into(), i);
                i
            }
        };
        let key = CountedKey {
            month: month_of(tags),
            band: band_of(tags, facts, band_width),
            speed: facts.speed,
            event,
            sp,
            black,
        };
        self.games.push((key, winner));
    }

    /// Forgets every game and event, keeping the memory.
    pub fn clear(&mut self) {
        self.games.clear();
        self.events.clear();
        self.event_index.clear();
    }
}

/// The month of a game for the filter: its date's span when that lies within one month
/// (a full date, or `2024.05.??`), else unknown — so a month filter selects exactly the
/// games `--since YYYY.MM.01 --until YYYY.MM.31` selects.
fn month_of(tags: &[Tag<'_>]) -> Month {
    date_span(tags)
        .and_then(|(a, b)| ((a.year, a.month) == (b.year, b.month)).then_some((a.year, a.month)))
}

/// The rating band of a game ([`KeyValue::of`]'s, by [`ByKey::RatingBand`]).
fn band_of(tags: &[Tag<'_>], facts: &GameFacts, band_width: u32) -> Band {
    match KeyValue::of(ByKey::RatingBand, tags, facts, band_width) {
        KeyValue::Band(band) => band,
        _ => None,
    }
}

impl CellTally {
    /// Counts one game of `sp` (white's SP), `black` being black's SP in a Double
    /// Chess960 game: the path of a chunk's own tally, merged later ([`CellTally::merge`]),
    /// which the tests hold the log's against.
    #[cfg(test)]
    pub fn add(
        &mut self,
        tags: &[Tag<'_>],
        facts: &GameFacts,
        band_width: u32,
        at: (u16, Option<u16>),
        winner: Winner,
    ) {
        let event = pgn960::stats::by::tag_text(tags, b"Event");
        let event = event.as_deref().unwrap_or("");
        self.add_event(event, tags, facts, band_width, at, winner);
    }

    /// [`CellTally::add`] with the game's event already read ([`tag_text`] of its Event
    /// tag, empty when none).
    #[cfg(test)]
    pub fn add_event(
        &mut self,
        event: &str,
        tags: &[Tag<'_>],
        facts: &GameFacts,
        band_width: u32,
        (sp, black): (u16, Option<u16>),
        winner: Winner,
    ) {
        if self.over {
            return;
        }
        let event = if self.events_pooled {
            self.event("")
        } else {
            self.event(event)
        };
        let band = if self.bands_pooled {
            None
        } else {
            band_of(tags, facts, band_width)
        };
        let key = CountedKey {
            month: month_of(tags),
            band,
            speed: facts.speed,
            event,
            sp,
            black,
        };
        self.count(key, winner);
        self.bound();
    }

    /// Adds a chunk's games, each to its cell, pooled as the run pools when it is added.
    /// The same page as a chunk's own tally merged: whether events (then bands) are pooled,
    /// or the filters given up, depends only on how many cells all the games make without
    /// them, which only grows game by game, and pooling maps each cell to one, so neither
    /// the order of adding nor the limit checked per game, not per chunk, changes the cells.
    pub fn add_log(&mut self, log: &CellLog) {
        let mut ids = self.event_ids(log);
        for &(mut key, winner) in &log.games {
            if self.over {
                return;
            }
            let pooled = (self.events_pooled, self.bands_pooled);
            key.event = ids.get(key.event as usize).copied().unwrap_or_default();
            if self.bands_pooled {
                key.band = None;
            }
            self.count(key, winner);
            self.bound();
            if (self.events_pooled, self.bands_pooled) != pooled {
                // Pooling numbered the events again.
                ids = self.event_ids(log);
            }
        }
    }

    /// The run's number of each event of `log` (of the empty one when events are pooled).
    fn event_ids(&mut self, log: &CellLog) -> Vec<u32> {
        let pooled = self.events_pooled;
        log.events
            .iter()
            .map(|name| self.event(if pooled { "" } else { name }))
            .collect()
    }

    /// Adds one game to the cell of `key`.
    fn count(&mut self, key: CountedKey, winner: Winner) {
        let cell = self.cells.entry(key).or_default();
        cell[match winner {
            Winner::White => 0,
            Winner::Draw => 1,
            Winner::Black => 2,
        }] += 1;
    }

    /// The index of the event `name` (empty: unknown, or pooled), given one if new.
    fn event(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.event_index.get(name) {
            return i;
        }
        let i = u32::try_from(self.events.len()).unwrap_or(u32::MAX);
        self.events.push(name.to_string());
        self.event_index.insert(name.to_string(), i);
        i
    }

    /// Keeps within [`CELL_LIMIT`]: pools the events, then the bands, then gives up.
    fn bound(&mut self) {
        if self.cells.len() <= self.limit {
            return;
        }
        if !self.events_pooled {
            self.events_pooled = true;
            self.repool();
        }
        if self.cells.len() > self.limit && !self.bands_pooled {
            self.bands_pooled = true;
            self.repool();
        }
        if self.cells.len() > self.limit {
            self.over = true;
            self.cells.clear();
        }
    }

    /// Adds `c` to the cell of `key`, its event and band pooled as this tally pools them.
    fn put(&mut self, (month, band, speed, e, sp, black): CellKey, c: [u64; 3]) {
        let event = if self.events_pooled {
            self.event("")
        } else {
            self.event(&e)
        };
        let band = if self.bands_pooled { None } else { band };
        let key = CountedKey {
            month,
            band,
            speed,
            event,
            sp,
            black,
        };
        let mine = self.cells.entry(key).or_default();
        for (m, x) in mine.iter_mut().zip(c) {
            *m += x;
        }
    }

    /// The cells with their events named, in table order.
    fn named(&mut self) -> BTreeMap<CellKey, [u64; 3]> {
        let events = std::mem::take(&mut self.events);
        self.event_index.clear();
        std::mem::take(&mut self.cells)
            .into_iter()
            .map(|(k, c)| {
                let event = events.get(k.event as usize).cloned().unwrap_or_default();
                ((k.month, k.band, k.speed, event, k.sp, k.black), c)
            })
            .collect()
    }

    /// Keys the cells again after a change of what is pooled.
    fn repool(&mut self) {
        for (key, c) in self.named() {
            self.put(key, c);
        }
    }

    /// Adds the cells of a later chunk, leaving `other` empty (as a new tally, but its
    /// hash maps keep their memory for the next chunk).
    #[cfg(test)]
    pub fn merge(&mut self, other: &mut CellTally) {
        if self.over || other.over {
            self.over = true;
            self.cells.clear();
            other.clear();
            return;
        }
        if (other.events_pooled && !self.events_pooled)
            || (other.bands_pooled && !self.bands_pooled)
        {
            self.events_pooled |= other.events_pooled;
            self.bands_pooled |= other.bands_pooled;
            self.repool();
        }
        let events: Vec<u32> = other
            .events
            .iter()
            .map(|name| self.event(if self.events_pooled { "" } else { name }))
            .collect();
        for (mut key, c) in other.cells.drain() {
            if self.bands_pooled {
                key.band = None;
            }
            key.event = events.get(key.event as usize).copied().unwrap_or_default();
            let mine = self.cells.entry(key).or_default();
            for (m, x) in mine.iter_mut().zip(c) {
                *m += x;
            }
        }
        other.clear();
        self.bound();
    }

    /// Empties the tally (as [`CellTally::default`]), keeping its memory and limit.
    #[cfg(test)]
    fn clear(&mut self) {
        self.cells.clear();
        self.events.clear();
        self.event_index.clear();
        self.events_pooled = false;
        self.bands_pooled = false;
        self.over = false;
    }

    /// The cells as the page holds them; `None` past the limit.
    pub fn finish(mut self) -> Option<FilterCells> {
        if self.over {
            return None;
        }
        let named = self.named();
        let mut months = Labels::default();
        let mut bands = Labels::default();
        let mut speeds = Labels::default();
        let mut events = Labels::default();
        for (m, b, s, e, _, _) in named.keys() {
            months.note(&KeyValue::Month(*m));
            bands.note(&KeyValue::Band(*b));
            speeds.note(&KeyValue::Speed(*s));
            events.0.insert((u64::from(!e.is_empty()), e.clone()), 0);
        }
        let (months, bands, speeds, events) = (
            months.index(),
            bands.index(),
            speeds.index(),
            events.index(),
        );
        let at = |l: &Labels, v: &KeyValue| l.0.get(&(value_rank(v), v.label())).copied();
        let (mut cells, mut pairs) = (Vec::new(), Vec::new());
        for ((m, b, s, e, sp, black), c) in &named {
            let e = events
                .0
                .get(&(u64::from(!e.is_empty()), e.clone()))
                .copied();
            let (m, b, s) = (
                at(&months, &KeyValue::Month(*m)),
                at(&bands, &KeyValue::Band(*b)),
                at(&speeds, &KeyValue::Speed(*s)),
            );
            let (Some(m), Some(b), Some(s), Some(e)) = (m, b, s, e) else {
                continue;
            };
            let sp = u64::from(*sp);
            match black {
                None => cells.push([m, b, s, e, sp, c[0], c[1], c[2]]),
                Some(black) => pairs.push([m, b, s, e, sp, u64::from(*black), c[0], c[1], c[2]]),
            }
        }
        Some(FilterCells {
            months: months.labels(),
            bands: bands.labels(),
            speeds: speeds.labels(),
            events: events.labels(),
            events_pooled: self.events_pooled,
            bands_pooled: self.bands_pooled,
            limit: CELL_LIMIT,
            strata: None,
            cells,
            pairs,
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
    /// Whether rating bands were pooled too (one empty value).
    pub bands_pooled: bool,
    /// The limit of cells ([`CELL_LIMIT`]).
    pub limit: usize,
    /// What the page tests within under a filter, as `stats --strata` names it in its
    /// verdict (`event`, `time control`); `None`: one table (`--strata none`).
    pub strata: Option<String>,
    /// The cells of the SP table.
    pub cells: Vec<[u64; 8]>,
    /// The cells of Double Chess960 pairs: `[month, band, speed, event, white SP, black
    /// SP, W, D, L]`.
    pub pairs: Vec<[u64; 9]>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgn960::stats::by::tag_text;

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
        t.add(&tags, &facts, 200, (5, None), Winner::White);
        t.add(&tags, &facts, 200, (5, None), Winner::Draw);
        let mut other = CellTally::default();
        other.add(&tags, &facts, 200, (7, None), Winner::Black);
        other.add(&tags, &facts, 200, (7, Some(9)), Winner::Draw);
        t.merge(&mut other);
        let f = t.clone().finish().unwrap();
        assert_eq!(f.months, ["2024-03"]);
        assert_eq!(f.events, ["E"]);
        assert_eq!(
            f.cells,
            [[0, 0, 0, 0, 5, 1, 1, 0], [0, 0, 0, 0, 7, 0, 0, 1]]
        );
        assert_eq!(f.pairs, [[0, 0, 0, 0, 7, 9, 0, 1, 0]]);
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
                    t.add(&tags, &facts, 200, (sp, None), Winner::White);
                }
            }
        }
        let f = t.finish().unwrap();
        assert!(f.events_pooled);
        assert_eq!(f.events, [""]);
        let games: u64 = f.cells.iter().map(|c| c[5] + c[6] + c[7]).sum();
        assert_eq!(games, 3 + 960 * 28 * 4);
        assert_eq!(f.pairs.len(), 1, "the pair's cell stays, its event pooled");
        assert!(!f.bands_pooled);
    }

    /// A game's tags as random texts: dates whole, partial or none, ratings or none, time
    /// controls of every speed or unreadable, a few events (one empty, one absent).
    fn random_tags(next: &mut impl FnMut(u64) -> u64) -> Vec<(&'static [u8], String)> {
        let mut tags: Vec<(&'static [u8], String)> = Vec::new();
        let day = ["01", "15", "??"][next(3) as usize];
        let date = format!("{}.{:02}.{day}", 2020 + next(3), 1 + next(12));
        match next(4) {
            0 => tags.push((b"Date", date)),
            1 => tags.push((b"UTCDate", date)),
            2 => tags.push((b"Date", format!("{}.??.??", 2020 + next(3)))),
            _ => {}
        }
        if next(5) > 0 {
            tags.push((b"WhiteElo", (800 + next(2000)).to_string()));
            tags.push((b"BlackElo", (800 + next(2000)).to_string()));
        }
        let control = ["15+0", "60+1", "180+2", "600+5", "1800+0", "-", "?", "x"];
        if next(6) > 0 {
            tags.push((b"TimeControl", control[next(8) as usize].to_string()));
        }
        let events = ["A", "B", " C ", "", "Open 2024"];
        if next(6) > 0 {
            tags.push((b"Event", events[next(5) as usize].to_string()));
        }
        tags
    }

    #[test]
    fn cells_counted_with_plain_keys_are_the_cells_of_key_values() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = |n: u64| rng.below(n);
        for round in 0..20 {
            // The cells as the page names them, counted the plain way: by KeyValue.
            let mut want: BTreeMap<CellKeyValues, [u64; 3]> = BTreeMap::new();
            let (mut all, mut part) = (CellTally::default(), CellTally::default());
            let width = [1, 100, 200][round % 3];
            for game in 0..(50 + round * 40) {
                let owned = random_tags(&mut next);
                let tags: Vec<Tag<'_>> = owned.iter().map(|(n, v)| tag(n, v.as_bytes())).collect();
                let facts = GameFacts::from_tags(&tags);
                let sp = next(960) as u16;
                let black = (next(4) == 0).then(|| next(960) as u16);
                let winner = [Winner::White, Winner::Draw, Winner::Black][next(3) as usize];
                part.add(&tags, &facts, width, (sp, black), winner);
                if game % 17 == 16 {
                    all.merge(&mut part);
                }
                let event = tag_text(&tags, b"Event").map(|e| e.into_owned());
                let key = (
                    KeyValue::Month(month_of(&tags)),
                    KeyValue::of(ByKey::RatingBand, &tags, &facts, width),
                    KeyValue::Speed(facts.speed),
                    event.unwrap_or_default(),
                    sp,
                    black,
                );
                want.entry(key).or_default()[winner as usize] += 1;
            }
            all.merge(&mut part);
            let f = all.finish().unwrap();
            let label = |labels: &[String], i: u64| labels[i as usize].clone();
            let mut got = Vec::new();
            for c in &f.cells {
                let key = (
                    label(&f.months, c[0]),
                    label(&f.bands, c[1]),
                    label(&f.speeds, c[2]),
                );
                got.push((
                    key,
                    label(&f.events, c[3]),
                    c[4] as u16,
                    None,
                    [c[5], c[6], c[7]],
                ));
            }
            for c in &f.pairs {
                let key = (
                    label(&f.months, c[0]),
                    label(&f.bands, c[1]),
                    label(&f.speeds, c[2]),
                );
                let black = Some(c[5] as u16);
                got.push((
                    key,
                    label(&f.events, c[3]),
                    c[4] as u16,
                    black,
                    [c[6], c[7], c[8]],
                ));
            }
            // In KeyValue order, singles before pairs, as the page lists them.
            let (singles, pairs): (Vec<_>, Vec<_>) = want.iter().partition(|(k, _)| k.5.is_none());
            let want: Vec<_> = singles
                .into_iter()
                .chain(pairs)
                .map(|((m, b, s, e, sp, black), c)| {
                    let key = (m.label(), b.label(), s.label());
                    (key, e.clone(), *sp, *black, *c)
                })
                .collect();
            assert_eq!(got, want, "round {round}");
        }
    }

    #[test]
    fn cells_added_from_logs_are_the_cells_of_merged_chunk_tallies() {
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u64| rng.below(n);
        // Limits past which a run pools nothing, its events, its bands too, or gives up;
        // chunks from one game to past the limit on their own.
        let mut seen = std::collections::BTreeSet::new();
        for round in 0..48 {
            let limit = [20, 60, 150, 400, 2_000, CELL_LIMIT][round % 6];
            let width = [1, 100, 200][round % 3];
            let sps = [3, 40, 960][round / 6 % 3];
            let chunk_max = [1, 30, 500, 3_000][round / 12 % 4];
            let with_limit = || CellTally {
                limit,
                ..CellTally::default()
            };
            let (mut by_logs, mut by_tallies) = (with_limit(), with_limit());
            let (mut log, mut chunk) = (CellLog::default(), with_limit());
            let mut left = 1 + next(chunk_max);
            for _ in 0..(200 + round * 60) {
                let owned = random_tags(&mut next);
                let tags: Vec<Tag<'_>> = owned.iter().map(|(n, v)| tag(n, v.as_bytes())).collect();
                let facts = GameFacts::from_tags(&tags);
                let event = tag_text(&tags, b"Event");
                let event = event.as_deref().unwrap_or("");
                let sp = next(sps) as u16;
                let black = (next(4) == 0).then(|| next(sps) as u16);
                let winner = [Winner::White, Winner::Draw, Winner::Black][next(3) as usize];
                log.push(event, &tags, &facts, width, (sp, black), winner);
                chunk.add_event(event, &tags, &facts, width, (sp, black), winner);
                left -= 1;
                if left == 0 {
                    by_logs.add_log(&log);
                    by_tallies.merge(&mut chunk);
                    log.clear();
                    left = 1 + next(chunk_max);
                }
            }
            by_logs.add_log(&log);
            by_tallies.merge(&mut chunk);
            // Past giving up the pooling no longer matters (a chunk's going over ends its
            // merge before the run pools): the page has no filters.
            let flags = |t: &CellTally| {
                (
                    t.events_pooled && !t.over,
                    t.bands_pooled && !t.over,
                    t.over,
                )
            };
            assert_eq!(flags(&by_logs), flags(&by_tallies), "round {round}");
            seen.insert(flags(&by_logs));
            let page = |t: CellTally| serde_json::to_string(&t.finish()).ok();
            assert_eq!(page(by_logs), page(by_tallies), "round {round}");
        }
        let all = [
            (false, false, false),
            (true, false, false),
            (true, true, false),
        ];
        assert!(all.iter().all(|f| seen.contains(f)), "{seen:?}");
        assert!(seen.iter().any(|f| f.2), "{seen:?}");
    }

    /// The key of a cell in [`KeyValue`]s, as the cells were keyed before plain keys.
    type CellKeyValues = (KeyValue, KeyValue, KeyValue, String, u16, Option<u16>);

    #[test]
    fn past_the_events_the_bands_are_pooled() {
        let mut t = CellTally::default();
        // 4 months x 960 SPs x 30 bands: 115,200 cells without events; 3,840 without bands.
        for sp in 0..960u16 {
            for month in 1..=4 {
                for band in 0..30u32 {
                    let date = format!("2024.{month:02}.01");
                    let elo = (1000 + 100 * band).to_string();
                    let tags = [
                        tag(b"Date", date.as_bytes()),
                        tag(b"WhiteElo", elo.as_bytes()),
                        tag(b"BlackElo", elo.as_bytes()),
                    ];
                    let facts = GameFacts::from_tags(&tags);
                    t.add(&tags, &facts, 100, (sp, None), Winner::Draw);
                }
            }
        }
        let f = t.finish().unwrap();
        assert!(f.events_pooled && f.bands_pooled);
        assert_eq!(f.bands, [""]);
        assert_eq!(f.cells.len(), 960 * 4);
        let games: u64 = f.cells.iter().map(|c| c[6]).sum();
        assert_eq!(games, 960 * 4 * 30);
    }
}
