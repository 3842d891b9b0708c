//! Counting games into stats tables: the observer of the library's game loop that reads
//! each game's evaluations and counts its judged result, and the counts of a chunk.

use super::by::{ByKey, Key, KeyValue};
use super::pairs::PairGame;
use super::table::{GameEvals, SpTables, Winner, EVAL_CAP_CENTIPAWNS};
use crate::annotations::{lone_clock, Annotations};
use crate::facts::GameFacts;
use crate::pipeline::ChunkOutput;
use crate::select::{tag_text, FilteredBy, Filters};
use crate::validate::{
    observe_chunk, GameKind, GameObserver, Judged, MissingVariant, ReadMode, RejectReason, Repair,
    ValidateOptions, Verdict,
};
use chess960_core::{Color, StartKind};
use pgn_parse::{GameResult, Origin, Skip, Tag};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

/// What `stats` counts and how it reads: the options of [`super::compute`].
#[derive(Debug, Clone)]
pub struct StatsOptions {
    /// Which games are counted (ratings, length, speed, dates).
    pub filters: Filters,
    /// Count classical games (not marked Chess960, standard start) as SP 518.
    pub include_classical: bool,
    /// Do not replay moves: trust the FEN and Result tags (no evaluations; plies from the
    /// PlyCount tag).
    pub headers_only: bool,
    /// The `--by` keys cutting the tables, in order.
    pub by: Vec<ByKey>,
    /// The width of a rating band (`--by rating-band`).
    pub band_width: u32,
    /// The key the significance tests are stratified by (`--strata`; default the event):
    /// an SP is compared with the other SPs of the same event only. `None`: one table.
    pub strata: Option<ByKey>,
    /// Keep the counted games in order for the engine-match pairs.
    pub pairs: bool,
    /// What games without a Variant tag are.
    pub missing_variant: MissingVariant,
    /// Games of more bytes are rejected as `too-large` (0: no limit).
    pub max_game_bytes: usize,
    /// The start taken for a game whose start is ambiguous (`--assume-sp`).
    pub assume_sp: Option<chess960_core::SpPair>,
    /// Worker threads of [`super::compute`] (0: one per core).
    pub threads: usize,
    /// Checked between chunks by [`super::compute`]: when set, it stops.
    pub stop: Option<&'static AtomicBool>,
    /// Only the games of this byte range of the one input ([`crate::fold::FoldOptions::range`]):
    /// the tables of an archive's partitions, merged, are the table of the whole.
    pub range: Option<crate::range::ByteRange>,
}

impl Default for StatsOptions {
    fn default() -> StatsOptions {
        StatsOptions {
            filters: Filters::default(),
            include_classical: false,
            headers_only: false,
            by: Vec::new(),
            band_width: 200,
            strata: Some(ByKey::Event),
            pairs: false,
            missing_variant: MissingVariant::default(),
            max_game_bytes: ValidateOptions::default().max_game_bytes,
            assume_sp: None,
            threads: 0,
            stop: None,
            range: None,
        }
    }
}

/// Why a game was not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Excluded {
    /// Invalid under Chess960 rules.
    Invalid,
    /// Another variant.
    Unsupported,
    /// No result (`*`).
    Unfinished,
    /// A FEN that is not a start position.
    NotAStart,
    /// Classical chess, without `include_classical`.
    Classical,
    /// A filter left it out.
    Filtered(FilteredBy),
}

impl Excluded {
    /// The name used in summaries and reports.
    pub fn name(self) -> &'static str {
        match self {
            Excluded::Invalid => "invalid",
            Excluded::Unsupported => "unsupported-variant",
            Excluded::Unfinished => "unfinished",
            Excluded::NotAStart => "mid-game-fen",
            Excluded::Classical => "classical",
            Excluded::Filtered(f) => f.name(),
        }
    }
}

/// The counts of some games (a chunk, an input, a run): they merge exactly.
#[derive(Debug, Default)]
pub struct StatsCounts {
    /// The per-SP and Double Chess960 tables.
    pub tables: SpTables,
    /// Games read.
    pub games_read: u64,
    /// Games counted in the SP table.
    pub counted: u64,
    /// Games counted in the Double Chess960 table.
    pub counted_double_chess960: u64,
    /// Counted games whose Result the final position corrected.
    pub results_corrected: u64,
    /// Counted games with a `--by` key value (a name) cut at [`super::by::MAX_KEY_BYTES`].
    pub keys_truncated: u64,
    /// Games not counted, by reason.
    pub excluded: BTreeMap<Excluded, u64>,
    /// The invalid games among them, by rejection reason.
    pub invalid: BTreeMap<RejectReason, u64>,
    /// The counted games, in input order (with [`StatsOptions::pairs`]).
    pub pair_games: Vec<PairGame>,
}

impl ChunkOutput for StatsCounts {
    fn games(&self) -> u64 {
        self.games_read
    }
    /// The sink reads no line numbers.
    fn needs_lines(&self) -> bool {
        false
    }
}

impl StatsCounts {
    /// No games, tables cut by `keys`.
    pub fn new(keys: Vec<ByKey>) -> StatsCounts {
        StatsCounts {
            tables: SpTables::new(keys),
            ..StatsCounts::default()
        }
    }

    /// Adds the counts of the games after these (`other`'s pair games follow these).
    pub fn merge(&mut self, other: StatsCounts) {
        self.tables.merge(other.tables);
        self.games_read += other.games_read;
        self.counted += other.counted;
        self.counted_double_chess960 += other.counted_double_chess960;
        self.results_corrected += other.results_corrected;
        self.keys_truncated += other.keys_truncated;
        for (why, n) in other.excluded {
            *self.excluded.entry(why).or_default() += n;
        }
        for (why, n) in other.invalid {
            *self.invalid.entry(why).or_default() += n;
        }
        self.pair_games.extend(other.pair_games);
    }

    /// The games not counted, by the name of the reason.
    pub fn excluded_by_name(&self) -> BTreeMap<&'static str, u64> {
        self.excluded.iter().map(|(k, &v)| (k.name(), v)).collect()
    }

    /// The invalid games, by the name of their rejection reason.
    pub fn invalid_by_name(&self) -> BTreeMap<&'static str, u64> {
        self.invalid.iter().map(|(k, &v)| (k.name(), v)).collect()
    }
}

/// Counts the games of one chunk, read by the library's loop (tags only with
/// [`StatsOptions::headers_only`]).
pub fn count_chunk(bytes: &[u8], origin: Origin, options: &StatsOptions) -> StatsCounts {
    let mut observer = StatsObserver {
        options,
        evals: GameEvals::default(),
        fen: None,
        counts: StatsCounts::new(options.by.clone()),
    };
    observer.counts.tables.strata = options.strata;
    let validate = ValidateOptions {
        missing_variant: options.missing_variant,
        max_game_bytes: options.max_game_bytes,
        assume_sp: options.assume_sp,
        ..ValidateOptions::default()
    };
    let mode = if options.headers_only {
        ReadMode::TagsOnly
    } else {
        ReadMode::Replay
    };
    observe_chunk(bytes, origin, &validate, mode, false, &mut observer);
    observer.counts
}

/// Whether the game's FEN tag gives black the first move.
pub fn black_moves_first(tags: &[Tag<'_>]) -> bool {
    tag_text(tags, b"FEN").is_some_and(|fen| fen.split_ascii_whitespace().nth(1) == Some("b"))
}

/// Notes the evaluation in a main-line comment after `plies` plies, as `stats` counts it
/// (`report` too): whether the game has any, and those after plies 10 and 20, capped at
/// ±10 pawns. Every producer's form [`Annotations`] reads counts; a score written from the
/// mover's side is turned to white's (`black_first`: see [`black_moves_first`], asked only
/// for a comment that may hold an evaluation).
#[inline]
pub fn note_eval(
    evals: &mut GameEvals,
    text: &[u8],
    plies: u32,
    black_first: impl FnOnce() -> bool,
) {
    // Most comments are clocks: only one that holds an evaluation and could change what is
    // kept (the first of the game, or after ply 10 or 20) is parsed. A lichess clock alone
    // (` [%clk H:MM:SS] `, known by its shape) holds none, and is not searched for `%eval`:
    // these tests run in the caller, the rest out of line.
    let wanted = !evals.any || plies == 10 || plies == 20;
    if wanted && lone_clock(text).is_none() {
        note_other_eval(evals, text, plies, black_first);
    }
}

/// [`note_eval`] for a comment that may change what is kept and is not a lone clock.
#[inline(never)]
fn note_other_eval(
    evals: &mut GameEvals,
    text: &[u8],
    plies: u32,
    black_first: impl FnOnce() -> bool,
) {
    if !(has_eval(text) || Annotations::may_be_engine_comment(text)) {
        return;
    }
    let mover = match (plies, (plies % 2 == 1) != black_first()) {
        (0, _) => None,
        (_, true) => Some(Color::White),
        (_, false) => Some(Color::Black),
    };
    if let Some(eval) = Annotations::parse_move(text, mover).eval {
        let cap = EVAL_CAP_CENTIPAWNS as f64 / 100.0;
        let cp = (eval.capped_pawns(cap) * 100.0).round() as i64;
        evals.any = true;
        match plies {
            10 => evals.ply10 = Some(cp),
            20 => evals.ply20 = Some(cp),
            _ => {}
        }
    }
}

/// The observer of `stats`: reads the evaluations of the main line (every producer's form
/// [`Annotations`] reads) and counts each judged game.
struct StatsObserver<'o, 'a> {
    options: &'o StatsOptions,
    evals: GameEvals,
    /// The game's FEN tag: whether it gives black the first move (the mover of each ply,
    /// for the scores engines write from the mover's side) is read when a score is.
    fen: Option<Tag<'a>>,
    counts: StatsCounts,
}

impl<'a> GameObserver<'a> for StatsObserver<'_, 'a> {
    fn tags(&mut self, tags: &[Tag<'a>]) -> Skip {
        self.evals = GameEvals::default();
        self.fen = tags.iter().find(|t| t.name == b"FEN").copied();
        Skip(false)
    }
    /// Evaluations and judged games only: no moves.
    fn moves_wanted(&self) -> u32 {
        0
    }
    fn main_comment(&mut self, text: &'a [u8], plies: u32) {
        let fen = &self.fen;
        note_eval(&mut self.evals, text, plies, || {
            black_moves_first(fen.as_slice())
        });
    }
    /// A lone clock holds no evaluation ([`note_eval`] passes over it).
    fn main_clock(&mut self, _text: &'a [u8], _plies: u32) {}
    fn end_game(&mut self, game: Judged<'_, 'a>) {
        let verdict = match game.verdict {
            Verdict::Valid(v) => Ok(CountedGame {
                kind: v.kind,
                start: v.class.kind,
                result: v.result,
                plies: if self.options.headers_only {
                    tag_text(game.tags, b"PlyCount").and_then(|p| p.trim().parse().ok())
                } else {
                    Some(v.plies)
                },
                evals: self.evals,
                corrected: v
                    .repairs
                    .iter()
                    .any(|r| matches!(r, Repair::ResultCorrected { .. })),
            }),
            Verdict::Unsupported(_) => Err(Excluded::Unsupported),
            Verdict::Invalid(r) => {
                *self.counts.invalid.entry(r.reason).or_default() += 1;
                Err(Excluded::Invalid)
            }
        };
        count_game(self.options, &mut self.counts, game.tags, verdict);
    }
}

/// Whether a comment has a `%eval` command (a quick look before parsing it). Eight bytes
/// at a time (SWAR: a word's bytes equal to `%` found by the zero-byte trick): most
/// comments are a clock of a dozen bytes, too short for memchr's vector search to repay
/// its setup, and a byte loop cost 7% of `stats` on lichess files.
fn has_eval(text: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let percent_at = |i: usize| text[i] == b'%' && text[i + 1..].starts_with(b"eval");
    let mut start = 0;
    while start + 8 <= text.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&text[start..start + 8]);
        let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'%'));
        if (x.wrapping_sub(ONES) & !x & HIGHS) != 0 && (start..start + 8).any(percent_at) {
            return true;
        }
        start += 8;
    }
    (start..text.len()).any(percent_at)
}

/// What counting needs of a valid game.
struct CountedGame {
    kind: GameKind,
    start: StartKind,
    result: GameResult,
    plies: Option<u32>,
    evals: GameEvals,
    corrected: bool,
}

/// The winner of a counted game and its facts, or why it is not counted.
fn admit(
    options: &StatsOptions,
    tags: &[Tag<'_>],
    game: CountedGame,
) -> Result<(Winner, GameFacts), Excluded> {
    let winner = match game.result {
        GameResult::WhiteWins => Winner::White,
        GameResult::BlackWins => Winner::Black,
        GameResult::Draw => Winner::Draw,
        GameResult::Unknown => return Err(Excluded::Unfinished),
    };
    if game.start == StartKind::NotAStart {
        return Err(Excluded::NotAStart);
    }
    if game.kind == GameKind::Standard && !options.include_classical {
        return Err(Excluded::Classical);
    }
    let facts = GameFacts::from_tags(tags);
    if let Some(f) = options
        .filters
        .check(&facts, options.filters.date_for(tags), game.plies)
    {
        return Err(Excluded::Filtered(f));
    }
    Ok((winner, facts))
}

/// Counts one game into `counts`.
fn count_game(
    options: &StatsOptions,
    counts: &mut StatsCounts,
    tags: &[Tag<'_>],
    verdict: Result<CountedGame, Excluded>,
) {
    counts.games_read += 1;
    let admitted = verdict.and_then(|game| {
        let (start, evals, corrected) = (game.start, game.evals, game.corrected);
        admit(options, tags, game).map(|(winner, facts)| (start, evals, corrected, winner, facts))
    });
    let (start, evals, corrected, winner, facts) = match admitted {
        Ok(counted) => counted,
        Err(why) => {
            *counts.excluded.entry(why).or_default() += 1;
            return;
        }
    };
    let key: Key = options
        .by
        .iter()
        .map(|&k| KeyValue::of(k, tags, &facts, options.band_width))
        .collect();
    counts.keys_truncated += u64::from(key.iter().any(KeyValue::is_truncated));
    let (row, pair_start) = match start {
        StartKind::Chess960(sp) if sp < 960 => {
            counts.counted += 1;
            if let Some(by) = options.strata {
                let value = KeyValue::of(by, tags, &facts, options.band_width);
                counts.tables.add_to_stratum(&key, value, sp, winner);
            }
            match counts.tables.sp_counts(&key, sp) {
                Some(row) => (row, (sp, None)),
                None => return,
            }
        }
        StartKind::DoubleChess960 { white, black } => {
            counts.counted_double_chess960 += 1;
            let row = counts
                .tables
                .by_pair
                .entry((key, white, black))
                .or_default();
            (row, (white, Some(black)))
        }
        _ => return,
    };
    row.add(winner, facts.ratings);
    row.add_evals(&evals);
    counts.results_corrected += u64::from(corrected);
    if options.pairs {
        let name = |n: &[u8]| {
            tag_text(tags, n)
                .map(|v| v.trim().to_string())
                .unwrap_or_default()
        };
        counts.pair_games.push(PairGame {
            start: pair_start,
            white: name(b"White"),
            black: name(b"Black"),
            winner,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::has_eval;

    #[test]
    fn eval_commands_are_seen() {
        assert!(has_eval(b" [%eval 0.68] [%clk 0:03:00] "));
        assert!(has_eval(b" [%clk 0:03:00] [%eval #-3] "));
        assert!(has_eval(b"%eval"));
        assert!(!has_eval(b" [%clk 0:03:00] "));
        assert!(!has_eval(b"eval 0.3 %"));
        assert!(!has_eval(b"% eval"));
        assert!(!has_eval(b""));
        // Every alignment of the word loop and its tail.
        for pad in 0..20 {
            let text = format!("{}[%eval 0.3]", " ".repeat(pad));
            assert!(has_eval(text.as_bytes()), "{text:?}");
            let text = format!("{}[%clk 0:01:00] %evl", " ".repeat(pad));
            assert!(!has_eval(text.as_bytes()), "{text:?}");
        }
    }
}
