//! The rows of `report`'s cuts and strata counted once, on the sink's thread: a chunk logs
//! each counted game (its SP, result, ratings, evaluations and the numbers of its cut and
//! stratum values, [`GameLog`]) and the sink adds the log to the run's rows ([`RunRows`]).
//!
//! A chunk of 2 MiB holds about 640 games over 960 SPs and a few values per cut, so a
//! table per chunk aggregated next to nothing: each game was added to a row of the chunk's
//! tables and that row again to the run's. Now each game is added once, to the run's rows,
//! found by (value number, SP) in a hash map; the ordered maps of the page are made once,
//! at the end ([`RunRows::finish`]), so no hash map's order reaches an output.

use pgn960::stats::by::KeyValue;
use pgn960::stats::significance::Wdl;
use pgn960::stats::table::{GameEvals, SpCounts, Winner};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// The cuts a game is counted under, and the strata (the last slot).
pub const SLOTS: usize = 3;
/// The slot of the strata in [`Logged::values`].
pub const STRATUM: usize = SLOTS - 1;
/// A game counted under no stratum (`--strata none`).
pub const NO_VALUE: u32 = u32::MAX;

/// Values (of a cut, or of the strata) numbered in the order first seen.
#[derive(Debug, Default)]
pub struct ValueIds {
    values: Vec<KeyValue>,
    ids: FxHashMap<KeyValue, u32>,
    /// The numbers of text values (events) by their text: found without a `String`.
    texts: FxHashMap<Box<str>, u32>,
}

impl ValueIds {
    /// The number of `value` (a new one if it is new).
    pub fn id(&mut self, value: &KeyValue) -> u32 {
        if let Some(&id) = self.ids.get(value) {
            return id;
        }
        let id = u32::try_from(self.values.len()).unwrap_or(NO_VALUE - 1);
        self.values.push(value.clone());
        self.ids.insert(value.clone(), id);
        id
    }

    /// The number of `KeyValue::Text(text)`, making no `String` for a text seen before.
    pub fn text_id(&mut self, text: Option<&str>) -> u32 {
        let Some(text) = text else {
            return self.id(&KeyValue::Text(None));
        };
        if let Some(&id) = self.texts.get(text) {
            return id;
        }
        let id = self.id(&KeyValue::Text(Some(text.to_string())));
        self.texts.insert(text.into(), id);
        id
    }

    /// The values, by number.
    pub fn values(&self) -> &[KeyValue] {
        &self.values
    }

    /// Forgets every value, keeping the memory.
    pub fn clear(&mut self) {
        self.values.clear();
        self.ids.clear();
        self.texts.clear();
    }
}

/// One counted Chess960 game, as the sink adds it.
#[derive(Debug, Clone, Copy)]
pub struct Logged {
    /// Its SP (< 960).
    pub sp: u16,
    /// Its result.
    pub winner: Winner,
    /// Both ratings and white's expectation, when both ratings are known (as
    /// [`SpCounts::add_rated`] takes them: computed once, added to three rows).
    pub rated: Option<(u32, u32, u64)>,
    /// Its evaluations (the SP's overall row keeps them).
    pub evals: GameEvals,
    /// Per cut, then the strata: the number of its value in the chunk's [`GameLog::values`]
    /// ([`NO_VALUE`]: not counted there).
    pub values: [u32; SLOTS],
}

/// A chunk's counted Chess960 games, in reading order, and its values.
#[derive(Debug, Default)]
pub struct GameLog {
    /// Per cut, then the strata: the values the games name.
    pub values: [ValueIds; SLOTS],
    /// The games.
    pub games: Vec<Logged>,
}

impl GameLog {
    /// Forgets every game and value, keeping the memory.
    pub fn clear(&mut self) {
        self.values.iter_mut().for_each(ValueIds::clear);
        self.games.clear();
    }
}

/// The run's rows: per cut, per (value, SP) its counts; per (stratum, SP) its W/D/L.
#[derive(Debug, Default)]
pub struct RunRows {
    values: [ValueIds; SLOTS],
    cuts: [FxHashMap<(u32, u16), SpCounts>; SLOTS - 1],
    strata: FxHashMap<(u32, u16), Wdl>,
}

/// The cells of one cut: per value, per SP.
pub type ValueCells = BTreeMap<KeyValue, BTreeMap<u16, SpCounts>>;

impl RunRows {
    /// Adds a chunk's games: each to its SP's row of `overall` (with its evaluations) and
    /// to its rows of the cuts and the strata.
    pub fn add(&mut self, log: &GameLog, overall: &mut [SpCounts]) {
        let ids: Vec<Vec<u32>> = self
            .values
            .iter_mut()
            .zip(&log.values)
            .map(|(run, chunk)| chunk.values().iter().map(|v| run.id(v)).collect())
            .collect();
        let run_id = |slot: usize, id: u32| {
            let index = usize::try_from(id).ok()?;
            ids.get(slot)?.get(index).copied()
        };
        for g in &log.games {
            if let Some(row) = overall.get_mut(usize::from(g.sp)) {
                row.add_rated(g.winner, g.rated);
                row.add_evals(&g.evals);
            }
            for (slot, rows) in self.cuts.iter_mut().enumerate() {
                if let Some(id) = run_id(slot, g.values[slot]) {
                    rows.entry((id, g.sp))
                        .or_default()
                        .add_rated(g.winner, g.rated);
                }
            }
            if let Some(id) = run_id(STRATUM, g.values[STRATUM]) {
                let row = self.strata.entry((id, g.sp)).or_default();
                match g.winner {
                    Winner::White => row.white_wins += 1,
                    Winner::Draw => row.draws += 1,
                    Winner::Black => row.black_wins += 1,
                }
            }
        }
    }

    /// The cells of each cut and the W/D/L of each stratum, ordered by value and SP.
    pub fn finish(&mut self) -> (Vec<ValueCells>, BTreeMap<KeyValue, BTreeMap<u16, Wdl>>) {
        let values = std::mem::take(&mut self.values);
        let value = |slot: usize, id: u32| {
            let index = usize::try_from(id).ok()?;
            values.get(slot)?.values().get(index).cloned()
        };
        let mut cuts = Vec::new();
        for (slot, rows) in std::mem::take(&mut self.cuts).into_iter().enumerate() {
            let mut cells = ValueCells::new();
            for ((id, sp), counts) in rows {
                if let Some(v) = value(slot, id) {
                    cells.entry(v).or_default().insert(sp, counts);
                }
            }
            cuts.push(cells);
        }
        let mut strata: BTreeMap<KeyValue, BTreeMap<u16, Wdl>> = BTreeMap::new();
        for ((id, sp), wdl) in std::mem::take(&mut self.strata) {
            if let Some(v) = value(STRATUM, id) {
                strata.entry(v).or_default().insert(sp, wdl);
            }
        }
        (cuts, strata)
    }
}

#[cfg(test)]
mod tests {
    use super::{GameLog, Logged, RunRows, ValueCells, NO_VALUE, SLOTS, STRATUM};
    use pgn960::select::Speed;
    use pgn960::stats::by::KeyValue;
    use pgn960::stats::significance::Wdl;
    use pgn960::stats::table::{expected_micropoints, GameEvals, SpCounts, Winner};
    use std::collections::BTreeMap;

    /// A random value of a cut or stratum: speeds, bands, texts (some the same text).
    fn random_value(next: &mut impl FnMut(u64) -> u64) -> KeyValue {
        match next(4) {
            0 => KeyValue::Speed(Speed::ALL.get(next(6) as usize).copied()),
            1 => KeyValue::Band((next(5) > 0).then(|| (next(30) as u32 * 100, 100))),
            2 => KeyValue::Text((next(5) > 0).then(|| format!("event {}", next(40)))),
            _ => KeyValue::Month(Some((2024, 1 + next(12) as u8))),
        }
    }

    /// The number of `value` in `ids`, text values by their text as the command finds them.
    fn number(ids: &mut super::ValueIds, value: &KeyValue) -> u32 {
        match value {
            KeyValue::Text(text) => ids.text_id(text.as_deref()),
            other => ids.id(other),
        }
    }

    #[test]
    fn rows_added_from_logs_are_the_rows_counted_game_by_game() {
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u64| rng.below(n);
        for round in 0..30 {
            // Counted the plain way, each game into ordered maps as it is read.
            let mut want_overall = vec![SpCounts::default(); 960];
            let mut want_cuts = vec![ValueCells::new(); SLOTS - 1];
            let mut want_strata: BTreeMap<KeyValue, BTreeMap<u16, Wdl>> = BTreeMap::new();
            let (mut run, mut overall) = (RunRows::default(), vec![SpCounts::default(); 960]);
            let mut log = GameLog::default();
            let sps = [3, 40, 960][round % 3];
            for game in 0..(20 + round * 60) {
                let sp = next(sps) as u16;
                let winner = [Winner::White, Winner::Draw, Winner::Black][next(3) as usize];
                let ratings =
                    (next(4) > 0).then(|| (800 + next(2000) as u32, 900 + next(9) as u32));
                let evals = GameEvals {
                    any: next(2) == 0,
                    ply10: (next(3) == 0).then(|| next(2001) as i64 - 1000),
                    ply20: (next(3) == 0).then(|| next(2001) as i64 - 1000),
                };
                want_overall[usize::from(sp)].add(winner, ratings);
                want_overall[usize::from(sp)].add_evals(&evals);
                let mut values = [NO_VALUE; SLOTS];
                for (slot, cells) in want_cuts.iter_mut().enumerate() {
                    let value = random_value(&mut next);
                    values[slot] = number(&mut log.values[slot], &value);
                    let row = cells.entry(value).or_default().entry(sp).or_default();
                    row.add(winner, ratings);
                }
                if round % 4 != 3 {
                    let value = random_value(&mut next);
                    values[STRATUM] = number(&mut log.values[STRATUM], &value);
                    let row = want_strata.entry(value).or_default().entry(sp).or_default();
                    *row = match winner {
                        Winner::White => Wdl::new(row.white_wins + 1, row.draws, row.black_wins),
                        Winner::Draw => Wdl::new(row.white_wins, row.draws + 1, row.black_wins),
                        Winner::Black => Wdl::new(row.white_wins, row.draws, row.black_wins + 1),
                    };
                }
                log.games.push(Logged {
                    sp,
                    winner,
                    rated: ratings.map(|(w, b)| (w, b, expected_micropoints(w, b))),
                    evals,
                    values,
                });
                // Chunks of random sizes, each log emptied for the next, as the spares are.
                if next(1 + round as u64) == 0 || game % 97 == 96 {
                    run.add(&log, &mut overall);
                    log.clear();
                }
            }
            run.add(&log, &mut overall);
            let (cuts, strata) = run.finish();
            assert_eq!(overall, want_overall, "round {round}");
            assert_eq!(cuts, want_cuts, "round {round}");
            assert_eq!(strata, want_strata, "round {round}");
        }
    }
}
