//! `pgn960 report`: one self-contained HTML page to explore an archive's 960 start
//! positions (summary, sortable table, funnel of chance, a panel per SP), from one pass
//! over the games or from tables written by `stats` and `tree`.

use crate::driver::{Driver, Globals};
use crate::output::OutputPlan;
use crate::report::filter::{CellLog, CellTally};
use crate::report::rows::{GameLog, Logged, RunRows, NO_VALUE, SLOTS, STRATUM};
use crate::report::{
    html, tables, value_rank, GameLine, GameList, NameLog, NameTally, Page, PageSummary, Tally,
    GAMES_LISTED,
};
use anyhow::{bail, Context, Result};
use chess960_core::{Move, StartKind};
use pgn960::pipeline::ChunkOutput;
use pgn960::select::{Date, Filters, GameFacts};
use pgn960::stats::by::{key_text, ByKey, KeyValue};
use pgn960::stats::table::{expected_micropoints, strata_noun, GameEvals, SpCounts, Winner};
use pgn960::stats::{
    black_moves_first, note_eval, why_nothing_counted, LeftOut, NO_RESULT_IN_TAGS, TRY_HEADERS_ONLY,
};
use pgn960::tree::{add_log_within, FirstMoves, DEFAULT_MAX_NODES};
use pgn960::tree::{GameOutcome, Pruning, Tree, TreeLog};
use pgn960::validate::{
    observe_chunk, GameKind, GameObserver, Judged, MainMove, MissingVariant, ReadMode, ValidGame,
    ValidateOptions, Verdict,
};
use pgn_parse::{GameResult, Origin, Skip, Tag};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Arguments of `pgn960 report`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("The page opens from disk in any current browser and fetches nothing (inline style, script and SVG under a strict Content-Security-Policy). Open a start position with #sp=226 after the file name; sort with #sort=score (or #sort=-score for descending); the drawish first with #sort=-draw_lo; group the positions with #group=king-file (bishops, queen-file, knights, mirror); filter the games with #from=2024-03&to=2024-05&band=1800-1999&speed=blitz&event=NAME (the table, its tests and the verdict recomputed in the page as pgn960 stats computes them).\n\nExamples:\n  pgn960 report lichess_db_chess960_2024-*.pgn.zst -o report.html\n  pgn960 report games.pgn --min-elo 2000 --time-control blitz,rapid -o blitz.html\n  pgn960 report --from-stats stats.csv --from-stats by-speed.csv --from-tree tree.json -o report.html\n\nThe summary goes to standard error (-q: none).\n{}", crate::args::common_help())
)]
pub struct ReportArgs {
    /// The inputs.
    #[arg(required_unless_present = "from_stats", conflicts_with = "from_stats", help = crate::args::inputs_help(" (none with --from-stats)"))]
    pub inputs: Vec<PathBuf>,
    /// Where the page goes.
    #[arg(short, long, value_name = "FILE.html")]
    pub output: PathBuf,
    /// Build the page from CSV tables of `pgn960 stats` instead of games (repeatable: an
    /// SP table, tables cut with --by, a --dfrc-table table; all of the same games).
    #[arg(long, value_name = "FILE.csv")]
    pub from_stats: Vec<PathBuf>,
    /// With --from-stats: the opening tree, as the JSON of `pgn960 tree`.
    #[arg(long, value_name = "FILE.json", requires = "from_stats")]
    pub from_tree: Option<PathBuf>,
    /// Plies of the opening tree shown per SP (0: no tree).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=16))]
    pub depth: u32,
    /// Leave out of the page's tree the moves with fewer games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub tree_min_games: u64,
    /// Width of the rating bands of the cut by rating (mean of both ratings).
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    pub band_width: u32,
    /// Count classical games (not marked Chess960, standard start) as SP 518.
    #[arg(long, conflicts_with = "from_stats")]
    pub include_classical: bool,
    /// Do not replay moves: trust the FEN and Result tags, as `stats --headers-only` does
    /// (much faster; no opening tree, no evaluations).
    #[arg(long, conflicts_with = "from_stats")]
    pub headers_only: bool,
    /// The page's title (default: "Chess960 start positions: " and the inputs' names).
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// Test the SPs within strata, as `stats --strata` does: the overall verdict compares
    /// an SP with the other SPs of the same event (or speed) only, with a caveat on the
    /// banner when the table taken as one would say "Yes" but no stratum does. `none`: one
    /// table. Pages built --from-stats are tested as one table. The page's filters test the
    /// filtered games within the same strata.
    #[arg(long, value_enum, value_name = "KEY", default_value = "event")]
    pub strata: crate::commands::stats::StrataKey,
    /// Which games are counted.
    #[command(flatten)]
    pub filters: Filters,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// The cut keys counted from games, in page order (as `stats --by` counts them).
const CUTS: [ByKey; 2] = [ByKey::TimeControl, ByKey::RatingBand];
// A game's log entry holds the number of its value under each cut, then its stratum's.
const _: () = assert!(CUTS.len() + 1 == SLOTS);

/// What one chunk adds to the page.
struct ChunkReport {
    /// The run's rows per SP (a chunk's are empty: its games are in `log`), its Double
    /// Chess960 pairs; the cuts and strata are labelled in once, when the run ends
    /// ([`ChunkReport::label_cuts`]): no game and no chunk makes a label.
    tally: Tally,
    /// A chunk's counted Chess960 games, which the sink adds to `rows` and `tally.overall`.
    log: GameLog,
    /// The run's rows of the cuts and strata ([`RunRows`]; a chunk's are empty).
    rows: RunRows,
    archive: crate::archive::ArchiveSummary,
    counted: u64,
    counted_pairs: u64,
    excluded: BTreeMap<&'static str, u64>,
    dates: Option<(Date, Date)>,
    speeds: BTreeMap<String, u64>,
    /// The run's tallies of events and players (a chunk's are empty: its names are in
    /// its logs, which the sink tallies).
    events: NameTally,
    players: NameTally,
    /// A chunk's events, one per counted game.
    event_log: NameLog,
    /// A chunk's players, two per counted game.
    player_log: NameLog,
    /// The run's opening tree (a chunk's is empty: its games are in `tree_log`).
    tree: Tree,
    /// A chunk's counted Chess960 games' first moves, which the sink adds to `tree`.
    tree_log: TreeLog,
    games: BTreeMap<u16, GameList>,
    /// The run's filter cells (a chunk's are empty: its games are in `cell_log`).
    cells: CellTally,
    /// A chunk's counted games as filter cells, which the sink adds to `cells`.
    cell_log: CellLog,
}

impl ChunkOutput for ChunkReport {
    fn games(&self) -> u64 {
        self.archive.games_read
    }
    /// The sink reads no line numbers.
    fn needs_lines(&self) -> bool {
        false
    }
}

/// The containers of a merged chunk's report, emptied, for a worker to count a later
/// chunk into: the logs of games, first moves, names and cells keep their memory,
/// so that a chunk touches no fresh pages for them (with transparent huge pages each fresh
/// 2 MiB is a page fault that zeroes it), nor do their hash maps grow again from empty.
struct Spare {
    tree_log: TreeLog,
    log: GameLog,
    cell_log: CellLog,
    event_log: NameLog,
    player_log: NameLog,
}

impl Spare {
    /// New containers, for a chunk when no spare is left.
    fn new() -> Spare {
        Spare {
            tree_log: TreeLog::default(),
            log: GameLog::default(),
            cell_log: CellLog::default(),
            event_log: NameLog::default(),
            player_log: NameLog::default(),
        }
    }
}

/// The spares the sink hands back ([`Spare`]). There are never more than the chunks that
/// were in flight at once: a worker makes new containers only when none is spare.
#[derive(Default)]
struct Spares(Mutex<Vec<Spare>>);

impl Spares {
    /// A spare, if any.
    fn take(&self) -> Option<Spare> {
        self.0.lock().ok()?.pop()
    }

    /// Keeps a spare for a later chunk.
    fn put(&self, spare: Spare) {
        if let Ok(mut spares) = self.0.lock() {
            spares.push(spare);
        }
    }
}

impl ChunkReport {
    /// The report of a run, which chunks are merged into (its 960 rows per SP).
    fn new() -> ChunkReport {
        let mut run = ChunkReport::with(Spare::new());
        run.tally.overall = vec![SpCounts::default(); 960];
        run
    }

    /// An empty report of a chunk counting into `spare`'s containers (emptied).
    fn with(spare: Spare) -> ChunkReport {
        ChunkReport {
            tally: Tally {
                overall: Vec::new(),
                pairs: BTreeMap::new(),
                cuts: CUTS
                    .iter()
                    .map(|k| (k.column().to_string(), BTreeMap::new()))
                    .collect(),
                strata: None,
                by_stratum: BTreeMap::new(),
            },
            log: spare.log,
            rows: RunRows::default(),
            archive: Default::default(),
            counted: 0,
            counted_pairs: 0,
            excluded: BTreeMap::new(),
            dates: None,
            speeds: BTreeMap::new(),
            events: NameTally::default(),
            players: NameTally::default(),
            event_log: spare.event_log,
            player_log: spare.player_log,
            tree: Tree::new(),
            tree_log: spare.tree_log,
            games: BTreeMap::new(),
            cells: CellTally::default(),
            cell_log: spare.cell_log,
        }
    }

    /// Moves the cut cells into the tally, each value with its label and sort key
    /// ([`value_rank`]), as `stats --by` writes them.
    fn label_cuts(&mut self) {
        let (by_cut, by_stratum) = self.rows.finish();
        self.tally.by_stratum = by_stratum;
        for ((_, cells), by_value) in self.tally.cuts.iter_mut().zip(by_cut) {
            for (value, by_sp) in by_value {
                let cell = cells
                    .entry((value_rank(&value), value.label()))
                    .or_default();
                for (sp, counts) in by_sp {
                    cell.entry(sp).or_default().merge(&counts);
                }
            }
        }
    }

    /// [`ChunkReport::merge`], then notes the SPs whose lists of games it filled.
    fn merge_noting(&mut self, other: ChunkReport, listed: &ListedFull) -> Spare {
        let sps: Vec<u16> = other.games.keys().copied().collect();
        let spare = self.merge(other);
        listed.note(&sps, &self.games);
        spare
    }

    /// Adds a later chunk (but its first moves, which [`add_log_within`] adds to the tree
    /// within its budget);
    /// returns its containers, emptied.
    fn merge(&mut self, mut other: ChunkReport) -> Spare {
        self.tally.merge(&mut other.tally);
        self.rows.add(&other.log, &mut self.tally.overall);
        other.log.clear();
        let (a, b) = (&mut self.archive, other.archive);
        a.games_read += b.games_read;
        a.valid += b.valid;
        a.rejected += b.rejected;
        a.unsupported_variant += b.unsupported_variant;
        for (k, v) in b.rejected_by_reason {
            *a.rejected_by_reason.entry(k).or_default() += v;
        }
        for (k, v) in b.unsupported_by_variant {
            *a.unsupported_by_variant.entry(k).or_default() += v;
        }
        self.counted += other.counted;
        self.counted_pairs += other.counted_pairs;
        for (k, v) in other.excluded {
            *self.excluded.entry(k).or_default() += v;
        }
        self.dates = match (self.dates, other.dates) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (x, y) => x.or(y),
        };
        for (k, v) in other.speeds {
            *self.speeds.entry(k).or_default() += v;
        }
        self.events.add_log(&other.event_log);
        self.players.add_log(&other.player_log);
        other.event_log.clear();
        other.player_log.clear();
        for (sp, list) in other.games {
            self.games.entry(sp).or_default().merge(list);
        }
        self.cells.add_log(&other.cell_log);
        other.cell_log.clear();
        other.tree_log.clear();
        Spare {
            tree_log: other.tree_log,
            log: other.log,
            cell_log: other.cell_log,
            event_log: other.event_log,
            player_log: other.player_log,
        }
    }
}

struct Plan<'a> {
    filters: &'a Filters,
    depth: usize,
    include_classical: bool,
    headers_only: bool,
    missing_variant: MissingVariant,
    band_width: u32,
    max_game_bytes: usize,
    assume_sp: Option<chess960_core::SpPair>,
    strata: Option<ByKey>,
    /// Per SP: the sink's list already holds [`GAMES_LISTED`] games ([`ListedFull`]).
    listed: &'a ListedFull,
    /// Valid games held before they are counted ([`Pending`]; [`PENDING_GAMES`]).
    batch: usize,
    /// The containers of chunks merged, for the next chunks ([`Spare`]).
    spares: &'a Spares,
}

/// Per SP, whether the sink's list of its first games is full. The sink merges chunks in
/// input order and sets an SP's flag once its list is full, so a worker that reads it set
/// is counting a later chunk, whose games of that SP the list will never take: it counts
/// them without making their lines. A flag read late only makes lines the merge drops.
struct ListedFull(Vec<AtomicBool>);

impl ListedFull {
    fn new() -> ListedFull {
        ListedFull((0..960).map(|_| AtomicBool::new(false)).collect())
    }

    /// Whether the list of `sp` is full.
    fn is_full(&self, sp: u16) -> bool {
        self.0
            .get(usize::from(sp))
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Notes the lists of `sps` that `games` (the merged lists) now fill.
    fn note(&self, sps: &[u16], games: &BTreeMap<u16, GameList>) {
        for sp in sps {
            let full = games.get(sp).is_some_and(|l| l.first.len() >= GAMES_LISTED);
            if let (true, Some(flag)) = (full, self.0.get(usize::from(*sp))) {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }
}

fn tag<'t>(tags: &'t [Tag<'_>], name: &[u8]) -> Option<Cow<'t, str>> {
    tags.iter().find(|t| t.name == name).map(|t| t.value_str())
}

/// The texts of a counted game's tags that the page uses more than once, each read once
/// ([`Tag::value_str`]) and passed down.
struct GameTexts<'t> {
    /// The Event tag's text, as read.
    event: Option<Cow<'t, str>>,
    /// The Event as a key value ([`key_text`]: trimmed, bounded; `None` when empty).
    event_key: Option<Cow<'t, str>>,
    white: Option<Cow<'t, str>>,
    black: Option<Cow<'t, str>>,
}

impl<'t> GameTexts<'t> {
    fn of(tags: &'t [Tag<'_>]) -> GameTexts<'t> {
        let event = tag(tags, b"Event");
        GameTexts {
            event_key: event.clone().and_then(key_text),
            event,
            white: tag(tags, b"White"),
            black: tag(tags, b"Black"),
        }
    }
}

impl Plan<'_> {
    /// Counts one valid game, or says why it is not counted (the rules of `stats`).
    fn count(
        &self,
        out: &mut ChunkReport,
        tags: &[Tag<'_>],
        game: &GameSummary,
        first_moves: &[(Move, Option<i64>)],
        evals: &GameEvals,
    ) -> Result<(), &'static str> {
        let (winner, white_half_points, facts) = self.admit(tags, game)?;
        let texts = GameTexts::of(tags);
        match game.start {
            StartKind::Chess960(sp) if sp < 960 => {
                self.count_sp(out, tags, &texts, &facts, (sp, evals), winner);
                let list = out.games.entry(sp).or_default();
                if self.listed.is_full(sp) {
                    list.total += 1;
                } else {
                    let plies = self.plies(tags, game);
                    list.add(|| game_line(tags, &texts, game.result, plies));
                }
                if self.depth > 0 {
                    let ratings = facts.ratings;
                    let outcome = GameOutcome {
                        white_half_points,
                        ratings,
                    };
                    out.tree_log.push(sp, first_moves, outcome);
                }
            }
            StartKind::DoubleChess960 { white, black } => {
                let pair = out.tally.pairs.entry((white, black)).or_default();
                pair.add(winner, facts.ratings);
                pair.add_evals(evals);
                out.counted_pairs += 1;
                let at = (white, Some(black));
                let event = texts.event_key.as_deref().unwrap_or("");
                out.cell_log
                    .push(event, tags, &facts, self.band_width, at, winner);
            }
            _ => return Err("mid-game-fen"),
        }
        note_facts(out, &texts, &facts);
        Ok(())
    }

    /// The winner, white's half points and the facts of a game that counts, or why it
    /// does not.
    fn admit(
        &self,
        tags: &[Tag<'_>],
        game: &GameSummary,
    ) -> Result<(Winner, u8, GameFacts), &'static str> {
        let (winner, white_half_points) = match game.result {
            GameResult::WhiteWins => (Winner::White, 2),
            GameResult::BlackWins => (Winner::Black, 0),
            GameResult::Draw => (Winner::Draw, 1),
            GameResult::Unknown => return Err("unfinished"),
        };
        if game.start == StartKind::NotAStart {
            return Err("mid-game-fen");
        }
        if game.kind == GameKind::Standard && !self.include_classical {
            return Err("classical");
        }
        let facts = GameFacts::from_tags(tags);
        let date = self.filters.date_for(tags);
        if let Some(f) = self.filters.check(&facts, date, self.plies(tags, game)) {
            return Err(f.name());
        }
        Ok((winner, white_half_points, facts))
    }

    /// The game's plies: replayed, or with `--headers-only` its PlyCount tag (as `stats`).
    fn plies(&self, tags: &[Tag<'_>], game: &GameSummary) -> Option<u32> {
        if self.headers_only {
            tag(tags, b"PlyCount").and_then(|p| p.trim().parse().ok())
        } else {
            Some(game.plies)
        }
    }

    /// Counts a Chess960 game of `sp` (with its evaluations) overall and under each cut:
    /// logs it with the numbers of its values, for the sink to add ([`RunRows::add`]).
    fn count_sp(
        &self,
        out: &mut ChunkReport,
        tags: &[Tag<'_>],
        texts: &GameTexts<'_>,
        facts: &GameFacts,
        (sp, evals): (u16, &GameEvals),
        winner: Winner,
    ) {
        let mut values = [NO_VALUE; SLOTS];
        for ((key, ids), id) in CUTS.iter().zip(&mut out.log.values).zip(&mut values) {
            *id = ids.id(&KeyValue::of(*key, tags, facts, self.band_width));
        }
        if let Some(by) = self.strata {
            let ids = &mut out.log.values[STRATUM];
            values[STRATUM] = match by {
                ByKey::Event => ids.text_id(texts.event_key.as_deref()),
                _ => ids.id(&KeyValue::of(by, tags, facts, self.band_width)),
            };
            out.tally.strata = Some(by);
        }
        out.log.games.push(Logged {
            sp,
            winner,
            rated: facts
                .ratings
                .map(|(w, b)| (w, b, expected_micropoints(w, b))),
            evals: *evals,
            values,
        });
        let event = texts.event_key.as_deref().unwrap_or("");
        let at = (sp, None);
        out.cell_log
            .push(event, tags, facts, self.band_width, at, winner);
        out.counted += 1;
    }
}

/// A game's line in its SP's list (the site only when it is an http(s) URL).
fn game_line(
    tags: &[Tag<'_>],
    texts: &GameTexts<'_>,
    result: GameResult,
    plies: Option<u32>,
) -> GameLine {
    let cut = |v: Option<&str>| v.map(|v| cut_chars(v.trim(), 200)).unwrap_or_default();
    let site = cut(tag(tags, b"Site").as_deref());
    let lower = site.to_ascii_lowercase();
    let web = lower.starts_with("https://") || lower.starts_with("http://");
    let date = tag(tags, b"UTCDate").or_else(|| tag(tags, b"Date"));
    GameLine(
        cut(texts.white.as_deref()),
        cut(texts.black.as_deref()),
        cut(texts.event.as_deref()),
        date.map(|d| d.trim().to_string()).unwrap_or_default(),
        result.as_str().to_string(),
        if web { site } else { String::new() },
        plies.unwrap_or(0),
    )
}

/// `text`'s first `max` characters (a name of at most `max` bytes, nearly every one,
/// copied whole without counting its characters).
fn cut_chars(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    text.chars().take(max).collect()
}

/// Notes a counted game's date, speed, event and players.
fn note_facts(out: &mut ChunkReport, texts: &GameTexts<'_>, facts: &GameFacts) {
    if let Some(d) = facts.date {
        out.dates = Some(out.dates.map_or((d, d), |(a, b)| (a.min(d), b.max(d))));
    }
    let speed = facts.speed.map_or("", |s| s.name());
    match out.speeds.get_mut(speed) {
        Some(games) => *games += 1,
        None => {
            out.speeds.insert(speed.to_string(), 1);
        }
    }
    out.event_log.push(texts.event.as_deref().unwrap_or("?"));
    for side in [&texts.white, &texts.black] {
        out.player_log.push(side.as_deref().unwrap_or("?"));
    }
}

/// What counting reads of a valid game (its [`ValidGame`]'s fields).
#[derive(Debug, Clone, Copy)]
struct GameSummary {
    kind: GameKind,
    start: StartKind,
    plies: u32,
    result: GameResult,
}

impl GameSummary {
    fn of(game: &ValidGame) -> GameSummary {
        GameSummary {
            kind: game.kind,
            start: game.class.kind,
            plies: game.plies,
            result: game.result,
        }
    }
}

/// A valid game waiting to be counted: its tags and first moves are ranges of
/// [`Pending`]'s buffers.
struct PendingGame {
    game: GameSummary,
    tags: std::ops::Range<usize>,
    moves: std::ops::Range<usize>,
    evals: GameEvals,
}

/// Valid games of a chunk held until a batch of them is counted ([`Pending::count`]): the
/// reader's code and the counting code each run in a loop of their own, not in turns per
/// game, where each pushed the other out of the instruction cache. The games are counted
/// in reading order, so the counts are those of counting each game as it ends.
#[derive(Default)]
struct Pending<'a> {
    games: Vec<PendingGame>,
    tags: Vec<Tag<'a>>,
    moves: Vec<(Move, Option<i64>)>,
}

/// Games held before they are counted, so that the batch stays in the caches.
const PENDING_GAMES: usize = 128;
/// Tags held at most before the games are counted (but a game's own): a chunk of games
/// with many tags each makes smaller batches.
const PENDING_TAGS: usize = 4096;

impl<'a> Pending<'a> {
    /// An empty batch with room for `batch` games of the usual size (their first `depth`
    /// moves), grown past that only by a game of many tags.
    fn with_capacity(batch: usize, depth: usize) -> Pending<'a> {
        Pending {
            games: Vec::with_capacity(batch),
            tags: Vec::with_capacity(PENDING_TAGS.min(batch.saturating_mul(32))),
            moves: Vec::with_capacity(batch.saturating_mul(depth).min(1 << 16)),
        }
    }

    /// Holds a valid game; whether the batch is full (`batch` games).
    fn push(
        &mut self,
        batch: usize,
        game: &ValidGame,
        tags: &[Tag<'a>],
        first: &FirstMoves,
        evals: GameEvals,
    ) -> bool {
        let (t, m) = (self.tags.len(), self.moves.len());
        self.tags.extend_from_slice(tags);
        self.moves.extend_from_slice(&first.moves);
        self.games.push(PendingGame {
            game: GameSummary::of(game),
            tags: t..self.tags.len(),
            moves: m..self.moves.len(),
            evals,
        });
        self.games.len() >= batch || self.tags.len() >= PENDING_TAGS
    }

    /// Counts the games held, in order, and empties the batch.
    fn count(&mut self, plan: &Plan<'_>, out: &mut ChunkReport) {
        for g in &self.games {
            let (Some(tags), Some(moves)) = (
                self.tags.get(g.tags.clone()),
                self.moves.get(g.moves.clone()),
            ) else {
                continue;
            };
            if let Err(why) = plan.count(out, tags, &g.game, moves, &g.evals) {
                *out.excluded.entry(why).or_default() += 1;
            }
        }
        self.games.clear();
        self.tags.clear();
        self.moves.clear();
    }
}

/// The observer of `report`: the archive's counts and, for the tree, the first moves.
struct ReportObserver<'p, 'o, 'a> {
    plan: &'p Plan<'o>,
    first: FirstMoves,
    evals: GameEvals,
    /// The game's FEN tag: whether it gives black the first move (for engines' mover-side
    /// scores) is read when a score is.
    fen: Option<Tag<'a>>,
    pending: Pending<'a>,
    out: ChunkReport,
}

impl<'a> GameObserver<'a> for ReportObserver<'_, '_, 'a> {
    fn tags(&mut self, tags: &[Tag<'a>]) -> Skip {
        self.first.clear();
        self.evals = GameEvals::default();
        self.fen = tags.iter().find(|t| t.name == b"FEN").copied();
        Skip(false)
    }
    fn moves_wanted(&self) -> u32 {
        self.first.plies_kept()
    }
    fn main_move(&mut self, step: MainMove<'_, 'a>) {
        self.first.push(&step);
    }
    fn main_comment(&mut self, text: &'a [u8], plies: u32) {
        let fen = &self.fen;
        note_eval(&mut self.evals, text, plies, || {
            black_moves_first(fen.as_slice())
        });
    }
    /// A lone clock holds no evaluation (`note_eval` passes over it).
    fn main_clock(&mut self, _text: &'a [u8], _plies: u32) {}
    fn end_game(&mut self, game: Judged<'_, 'a>) {
        let out = &mut self.out;
        out.archive.games_read += 1;
        match game.verdict {
            Verdict::Valid(v) => {
                out.archive.valid += 1;
                // The tree of `report` holds no evaluations: `FirstMoves::comment` is
                // never called, so every kept move's is `None`.
                if self
                    .pending
                    .push(self.plan.batch, &v, game.tags, &self.first, self.evals)
                {
                    self.pending.count(self.plan, out);
                }
            }
            Verdict::Unsupported(name) => {
                out.archive.unsupported_variant += 1;
                *out.archive.unsupported_by_variant.entry(name).or_default() += 1;
            }
            Verdict::Invalid(rejection) => {
                out.archive.rejected += 1;
                *out.archive
                    .rejected_by_reason
                    .entry(rejection.reason.name())
                    .or_default() += 1;
            }
        }
    }
}

/// Counts the games of one chunk, read by the library's loop.
fn process(bytes: &[u8], origin: Origin, plan: &Plan<'_>) -> ChunkReport {
    let options = ValidateOptions {
        missing_variant: plan.missing_variant,
        max_game_bytes: plan.max_game_bytes,
        assume_sp: plan.assume_sp,
        ..ValidateOptions::default()
    };
    let mut observer = ReportObserver {
        plan,
        first: FirstMoves::new(plan.depth, false),
        evals: GameEvals::default(),
        fen: None,
        pending: Pending::with_capacity(plan.batch, plan.depth),
        out: plan
            .spares
            .take()
            .map_or_else(ChunkReport::new, ChunkReport::with),
    };
    if plan.depth > 0 && !plan.headers_only {
        observer
            .out
            .tree_log
            .reserve(tree_games(bytes.len()), plan.depth);
    }
    let mode = if plan.headers_only {
        ReadMode::TagsOnly
    } else {
        ReadMode::Replay
    };
    observe_chunk(bytes, origin, &options, mode, false, &mut observer);
    observer.pending.count(plan, &mut observer.out);
    observer.out
}

/// The games a chunk of `bytes` likely logs for the tree: one per 2,048 bytes (lichess's
/// run about 3,300); at most 2^12, so that a chunk of one large game reserves little.
fn tree_games(bytes: usize) -> usize {
    (bytes / 2048).min(1 << 12)
}

/// How many names of events and players the summary lists.
const TOP_NAMES: usize = 10;

/// Runs `pgn960 report`; returns the page written.
pub fn run(args: &ReportArgs, globals: Globals) -> Result<Page> {
    let started = std::time::Instant::now();
    let mut given: Vec<PathBuf> = args.inputs.clone();
    given.extend(args.from_stats.iter().cloned());
    given.extend(args.from_tree.iter().cloned());
    let mut plan = OutputPlan::new(&given, globals.quiet);
    let page_id = plan.add("-o", &args.output, "html");
    plan.check()?;
    let f = &args.filters;
    let selecting = f.min_elo.is_some()
        || f.max_elo_diff.is_some()
        || f.min_plies.is_some()
        || !f.speeds.is_empty()
        || f.since.is_some()
        || f.until.is_some();
    if selecting && !args.from_stats.is_empty() {
        bail!("the selection flags choose games: with --from-stats, select them when making the tables");
    }
    if args.output.as_os_str() == "-" {
        bail!("-o names the HTML file to write (standard output is not supported)");
    }
    let mut page = if args.from_stats.is_empty() {
        from_games(args, globals, started)?
    } else {
        let (tally, summary) = tables::from_stats(&args.from_stats)?;
        let tree = match &args.from_tree {
            Some(path) if args.depth > 0 => {
                Some(tables::from_tree(path, args.depth, args.tree_min_games)?)
            }
            _ => None,
        };
        Page::build(&tally, summary, tree)
    };
    if let Some(title) = &args.title {
        page.title = title.clone();
    }
    let text = html::render(&page)?;
    let mut sink = plan.create(page_id)?;
    sink.write_all(text.as_bytes())?;
    plan.finish(sink)?;
    plan.commit()?;
    let mut summary = format!(
        "{}: {} games in the SP table, {} SPs with games, {} Double Chess960 games, {} bytes",
        args.output.display(),
        page.overview.games,
        page.sps.iter().filter(|r| r.games > 0).count(),
        page.summary.counted_double_chess960,
        text.len()
    );
    if page.overview.games + page.summary.counted_double_chess960 == 0 {
        summary.push_str(&nothing_counted(&page, args.headers_only));
    }
    plan.summary(&summary);
    Ok(page)
}

/// Why the page counts no game, in a line ([`why_nothing_counted`], as `stats` says it).
fn nothing_counted(page: &Page, headers_only: bool) -> String {
    let archive = page.summary.archive.as_ref();
    let mut excluded: BTreeMap<&str, u64> = page
        .summary
        .excluded
        .iter()
        .map(|(why, &n)| (why.as_str(), n))
        .collect();
    let rejected = archive.map_or(0, |a| a.rejected);
    if rejected > 0 {
        excluded.insert("invalid", rejected);
    }
    let no_invalid = BTreeMap::new();
    let left = LeftOut {
        games_read: archive.map_or(0, |a| a.games_read),
        excluded: &excluded,
        invalid: archive.map_or(&no_invalid, |a| &a.rejected_by_reason),
        no_moves_hint: if headers_only {
            NO_RESULT_IN_TAGS
        } else {
            TRY_HEADERS_ONLY
        },
    };
    format!("\n{}", why_nothing_counted(&left))
}

/// The page from one pass over the games.
fn from_games(args: &ReportArgs, globals: Globals, started: std::time::Instant) -> Result<Page> {
    let filters = args.filters.clone();
    let listed = ListedFull::new();
    let spares = Spares::default();
    let plan = Plan {
        filters: &filters,
        depth: args.depth as usize,
        include_classical: args.include_classical,
        headers_only: args.headers_only,
        missing_variant: globals.variant,
        band_width: args.band_width,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
        strata: args.strata.by_key(),
        listed: &listed,
        batch: PENDING_GAMES,
        spares: &spares,
    };
    let mut driver = Driver::new(&args.inputs, globals)?;
    let bytes = pgn960::input::total_size(driver.names()).unwrap_or(0);
    let mut all = ChunkReport::new();
    let mut pruning = Pruning::default();
    let budget = usize::try_from(DEFAULT_MAX_NODES).unwrap_or(usize::MAX);
    // A chunk's tree, built from its log only once the run's tree may pass its budget.
    let mut scratch = Tree::new();
    driver.run(
        |bytes, origin| process(bytes, origin, &plan),
        |_, chunk, _| {
            add_log_within(
                &mut all.tree,
                &chunk.tree_log,
                &mut scratch,
                budget,
                &mut pruning,
            )
            .context("the tree's counts overflow")?;
            spares.put(all.merge_noting(chunk, &listed));
            Ok(())
        },
    )?;
    driver.finish();
    all.label_cuts();
    let mut archive = all.archive;
    archive.inputs = args
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    archive.bytes = bytes;
    archive.seconds = started.elapsed().as_secs_f64();
    let summary = PageSummary {
        inputs: archive.inputs.clone(),
        from_tables: false,
        counted: all.counted,
        counted_double_chess960: all.counted_pairs,
        excluded: all
            .excluded
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        first_date: all.dates.map(|d| date_text(d.0)),
        last_date: all.dates.map(|d| date_text(d.1)),
        speeds: all.speeds,
        top_events: all.events.top(TOP_NAMES),
        top_players: all.players.top(TOP_NAMES),
        names_untallied: all.events.untallied + all.players.untallied,
        archive: Some(archive),
    };
    let tree = if args.depth > 0 && !args.headers_only {
        let mut section =
            tables::tree_section_from_tree(&all.tree, args.depth, args.tree_min_games)?;
        section.pruned_below = (pruning != Pruning::default()).then_some(pruning.threshold);
        Some(section)
    } else {
        None
    };
    let mut page = Page::build(&all.tally, summary, tree);
    page.games = all.games;
    page.filter = all.cells.finish().map(|mut cells| {
        cells.strata = args.strata.by_key().map(strata_noun);
        cells
    });
    page.selection = selection_args(args);
    Ok(page)
}

/// The selection flags of the run, as typed (for the command lines the page suggests).
fn selection_args(args: &ReportArgs) -> Vec<String> {
    let f = &args.filters;
    let mut out = Vec::new();
    let mut push = |flag: &str, value: Option<String>| {
        if let Some(v) = value {
            out.push(format!("{flag} {v}"));
        }
    };
    push("--min-elo", f.min_elo.map(|v| v.to_string()));
    push("--max-elo-diff", f.max_elo_diff.map(|v| v.to_string()));
    push("--min-plies", f.min_plies.map(|v| v.to_string()));
    push("--since", f.since.map(date_text));
    push("--until", f.until.map(date_text));
    if !f.speeds.is_empty() {
        let names: Vec<&str> = f.speeds.iter().map(|s| s.name()).collect();
        out.push(format!("--time-control {}", names.join(",")));
    }
    for (flag, on) in [
        ("--include-classical", args.include_classical),
        ("--headers-only", args.headers_only),
    ] {
        if on {
            out.push(flag.to_string());
        }
    }
    out
}

fn date_text(d: Date) -> String {
    format!("{:04}.{:02}.{:02}", d.year, d.month, d.day)
}

#[cfg(test)]
mod tests {
    use super::{cut_chars, process, tag, ChunkReport, GameTexts, ListedFull, Plan, Spares};
    use pgn960::select::Filters;
    use pgn960::stats::by::{tag_text, ByKey};
    use pgn960::tree::{add_log_within, Pruning, Tree};
    use pgn_parse::Tag;

    /// The games of `sample.pgn`, each `copies` times with its players renamed, so that
    /// SPs have more games than their lists hold.
    fn many_games(copies: usize) -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/sample.pgn");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut out = String::new();
        for i in 0..copies {
            let renamed = text.replace("[White \"player", &format!("[White \"c{i}-player"));
            out.push_str(&renamed);
            out.push_str("\n\n");
        }
        out
    }

    /// The report of `input` cut into chunks of about `chunk_bytes`, merged in order by
    /// [`ChunkReport::merge_noting`], the workers reading the flags it sets (`noting`) or
    /// flags never set; and the games counted without a line.
    fn report(input: &[u8], chunk_bytes: usize, noting: bool) -> (ChunkReport, u64) {
        report_in_batches(input, chunk_bytes, noting, super::PENDING_GAMES, true)
    }

    /// [`report`], valid games counted in batches of `batch`, each chunk into the
    /// containers of a chunk merged before (`reuse`, as the command does) or new ones.
    fn report_in_batches(
        input: &[u8],
        chunk_bytes: usize,
        noting: bool,
        batch: usize,
        reuse: bool,
    ) -> (ChunkReport, u64) {
        let filters = Filters::default();
        let listed = ListedFull::new();
        let never = ListedFull::new();
        let spares = Spares::default();
        let plan = Plan {
            filters: &filters,
            depth: 4,
            include_classical: false,
            headers_only: false,
            missing_variant: Default::default(),
            band_width: 200,
            max_game_bytes: 0,
            assume_sp: None,
            strata: Some(ByKey::Event),
            listed: if noting { &listed } else { &never },
            batch,
            spares: &spares,
        };
        let (mut all, mut unlisted) = (ChunkReport::new(), 0);
        let (mut scratch, mut pruning) = (Tree::new(), Pruning::default());
        for chunk in pgn_parse::split_at_game_boundaries(input, chunk_bytes) {
            let part = process(&input[chunk.range.clone()], chunk.origin(), &plan);
            let log = &part.tree_log;
            add_log_within(&mut all.tree, log, &mut scratch, 300, &mut pruning).unwrap();
            let lists = part.games.values();
            unlisted += lists.map(|l| l.total - l.first.len() as u64).sum::<u64>();
            let spare = all.merge_noting(part, &listed);
            if reuse {
                spares.put(spare);
            }
        }
        all.label_cuts();
        (all, unlisted)
    }

    /// Asserts that two reports of the same games count the same.
    fn assert_same_counts(a: &ChunkReport, b: &ChunkReport) {
        assert_eq!(a.archive.games_read, b.archive.games_read);
        assert_eq!(a.archive.valid, b.archive.valid);
        assert_eq!(a.counted, b.counted);
        assert_eq!(a.counted_pairs, b.counted_pairs);
        assert_eq!(a.excluded, b.excluded);
        assert_eq!(a.games, b.games);
        assert_eq!(a.tally.overall, b.tally.overall);
        assert_eq!(a.tally.pairs, b.tally.pairs);
        assert_eq!(a.tally.cuts, b.tally.cuts);
        assert_eq!(a.tally.by_stratum, b.tally.by_stratum);
        assert_eq!(a.events.counts, b.events.counts);
        assert_eq!(a.players.counts, b.players.counts);
        assert_eq!(a.speeds, b.speeds);
        assert_eq!(a.dates, b.dates);
        let tree = |r: &ChunkReport| format!("{:?}", r.tree);
        assert_eq!(tree(a), tree(b));
        let cells = |r: &ChunkReport| serde_json::to_string(&r.cells.clone().finish()).ok();
        assert_eq!(cells(a), cells(b));
    }

    #[test]
    fn games_counted_in_batches_count_as_counted_one_by_one() {
        let input = many_games(8);
        for chunk_bytes in [5_000, 1 << 20] {
            let (one, _) = report_in_batches(input.as_bytes(), chunk_bytes, true, 1, false);
            for batch in [2, 7, super::PENDING_GAMES] {
                let (many, _) =
                    report_in_batches(input.as_bytes(), chunk_bytes, true, batch, false);
                assert_same_counts(&many, &one);
            }
        }
    }

    #[test]
    fn chunks_counted_into_spare_containers_count_as_into_new_ones() {
        let input = many_games(8);
        for chunk_bytes in [1, 700, 5_000, 40_000, 1 << 20] {
            let (new, _) = report_in_batches(input.as_bytes(), chunk_bytes, true, 7, false);
            let (reused, _) = report_in_batches(input.as_bytes(), chunk_bytes, true, 7, true);
            assert!(new.counted > 100, "{}", new.counted);
            assert_same_counts(&reused, &new);
        }
    }

    #[test]
    fn games_listed_are_the_same_when_full_lists_make_no_lines() {
        let input = many_games(30);
        for chunk_bytes in [1, 5_000, 40_000, 1 << 20] {
            let (fast, unlisted) = report(input.as_bytes(), chunk_bytes, true);
            let (slow, _) = report(input.as_bytes(), chunk_bytes, false);
            assert!(fast.counted > 1000, "{}", fast.counted);
            if chunk_bytes < 1 << 20 {
                // Later chunks made no lines for the SPs whose lists were full.
                assert!(
                    unlisted > fast.counted / 2,
                    "{unlisted} of {}",
                    fast.counted
                );
            }
            assert_eq!(fast.counted, slow.counted);
            assert_eq!(fast.games, slow.games, "chunks of {chunk_bytes} bytes");
            assert!(fast.games.values().any(|l| l.total > 20));
        }
    }

    #[test]
    fn a_games_texts_read_once_are_the_tags_read_each_time() {
        let long = "é".repeat(150);
        let values: [&[u8]; 6] = [
            b"  Open  ",
            b"",
            b"  ",
            b"a \\\" q",
            b"caf\xe9",
            long.as_bytes(),
        ];
        for event in values {
            for white in values {
                let tags = [
                    Tag {
                        name: b"Event",
                        raw_value: event,
                        offset: 0,
                    },
                    Tag {
                        name: b"White",
                        raw_value: white,
                        offset: 0,
                    },
                ];
                let texts = GameTexts::of(&tags);
                assert_eq!(texts.event, tag(&tags, b"Event"));
                assert_eq!(texts.event_key, tag_text(&tags, b"Event"));
                assert_eq!(texts.white, tag(&tags, b"White"));
                assert_eq!(texts.black, None);
            }
        }
    }

    #[test]
    fn names_are_cut_at_a_number_of_characters_not_bytes() {
        assert_eq!(cut_chars("Carlsen", 200), "Carlsen");
        assert_eq!(cut_chars("abc", 3), "abc");
        assert_eq!(cut_chars("abcd", 3), "abc");
        // Six bytes, three characters: within a limit of 3 characters.
        assert_eq!(cut_chars("ééé", 3), "ééé");
        assert_eq!(cut_chars("éééé", 3), "ééé");
    }
}
