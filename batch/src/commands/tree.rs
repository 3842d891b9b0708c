//! `pgn960 tree`: the opening tree of each start position over the main lines of the
//! valid games, with results, ratings, performance and evaluations per node; trees of
//! separate runs merged exactly; memory bounded by a node budget.

use crate::args::{TableFormat, TableOutput};
use crate::driver::{Driver, Globals};
use crate::output::{OutputPlan, Sink};
use crate::select::{FilteredBy, Filters, GameFacts};
use crate::tree::positions::{PositionTable, Reached};
use crate::tree::table::{self, WriteOptions};
use crate::tree::{Format, GameOutcome, Pruning, Tree, EVAL_CAP_CP};
use anyhow::{Context, Result};
use chess960_core::{Move, Position, StartKind};
use pgn960::annotations::Annotations;
use pgn960::pipeline::ChunkOutput;
use pgn960::validate::{
    observe_chunk, GameKind, GameObserver, Judged, MainMove, MissingVariant, ReadMode,
    ValidateOptions, Verdict,
};
use pgn_parse::{GameResult, Origin, Skip, Tag};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The default node budget: about 1.7 GB of nodes (104 bytes each).
pub const DEFAULT_MAX_NODES: u64 = 16_000_000;

/// Arguments of `pgn960 tree`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("CSV columns: sp, path, san, uci, games, white_wins, draws, black_wins, white_score, mean_white_elo, mean_black_elo, performance, mean_eval, then complete and the sums that make --merge exact (docs/tree.md). Each start position has a row of its own (empty path, san and uci) before its moves.\nWith --positions: sp, ply, zobrist, xfen, then the same columns from games on.\n\nExamples:\n  pgn960 tree games.pgn.zst --depth 8 -o tree.csv\n  pgn960 tree games.pgn --sp 518 --depth 4 --min-games 20 -o tree.json\n  pgn960 tree --merge jan.csv feb.csv -o q1.csv\n\n\
The summary goes to standard error (-q: none).\n{}", crate::args::common_help())
)]
pub struct TreeArgs {
    /// The inputs.
    #[arg(required = true, help = crate::args::inputs_help(" (with --merge: CSV tables written by `pgn960 tree`)"))]
    pub inputs: Vec<PathBuf>,
    /// The tree: csv or json.
    #[command(flatten)]
    pub table: TableOutput,
    /// Plies of each game's main line counted.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Leave out nodes with fewer games (and their subtrees) when writing; the counts of
    /// the nodes written stay exact.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_games: u64,
    /// Nodes held at most (about 100 bytes each; the start positions' roots apart). When the tree reaches it, nodes with
    /// fewer games than a threshold are evicted and nothing new grows below their parents,
    /// so every node kept stays exact (docs/tree.md); the summary says what was dropped.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES, value_parser = clap::value_parser!(u64).range(2..))]
    pub max_nodes: u64,
    /// Aggregate by position reached (Zobrist key and X-FEN) instead of by move sequence.
    #[arg(long)]
    pub positions: bool,
    /// Only these start positions (e.g. 518 or 0-9,518).
    #[arg(long, value_name = "LIST", value_parser = parse_sp_list)]
    pub sp: Option<SpSet>,
    /// Count classical games (not marked Chess960, standard start) as SP 518.
    #[arg(long)]
    pub include_classical: bool,
    /// Merge trees (CSV files from earlier runs) instead of reading games.
    #[arg(
        long,
        conflicts_with_all = [
            "include_classical", "positions", "sp", "min_elo", "max_elo_diff", "min_plies",
            "speeds", "since", "until",
        ]
    )]
    pub merge: bool,
    /// Write the summary (games counted and excluded, nodes, pruning) as JSON.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Which games are counted.
    #[command(flatten)]
    pub filters: Filters,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// A set of start positions given by `--sp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpSet(Vec<bool>);

impl SpSet {
    /// Whether `sp` is in the set.
    pub fn contains(&self, sp: u16) -> bool {
        self.0.get(usize::from(sp)).copied().unwrap_or(false)
    }
}

/// Parses `518`, `0-9,518`: numbers and inclusive ranges within 0..=959.
pub fn parse_sp_list(text: &str) -> Result<SpSet, String> {
    let mut set = vec![false; 960];
    for part in text.split(',').map(str::trim) {
        let number = |s: &str| match s.trim().parse::<u64>() {
            Ok(n) if n < 960 => Ok(n as u16),
            Ok(_) => Err(crate::args::sp_out_of_range(s.trim())),
            _ => Err(format!("{s:?} is not a start position number")),
        };
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(part)?, number(part)?),
        };
        if lo > hi {
            return Err(format!("{part:?}: the range is empty"));
        }
        for sp in lo..=hi {
            set[usize::from(sp)] = true;
        }
    }
    Ok(SpSet(set))
}

/// Why a game was not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Excluded {
    Invalid,
    Unsupported,
    Unfinished,
    NotAStart,
    DoubleChess960,
    Classical,
    Sp,
    Filtered(FilteredBy),
}

impl Excluded {
    fn name(self) -> &'static str {
        match self {
            Excluded::Invalid => "invalid",
            Excluded::Unsupported => "unsupported-variant",
            Excluded::Unfinished => "unfinished",
            Excluded::NotAStart => "mid-game-fen",
            Excluded::DoubleChess960 => "double-chess960",
            Excluded::Classical => "classical",
            Excluded::Sp => "filtered-sp",
            Excluded::Filtered(f) => f.name(),
        }
    }
}

/// The summary of a tree run.
#[derive(Debug, Default, Serialize)]
pub struct TreeSummary {
    /// Games read.
    pub games_read: u64,
    /// Games counted in the tree.
    pub counted: u64,
    /// Games not counted, by reason.
    pub excluded: BTreeMap<&'static str, u64>,
    /// Nodes held at the end (start positions' roots included).
    pub nodes: u64,
    /// The node budget.
    pub max_nodes: u64,
    /// Whether the budget made anything be dropped.
    pub pruned: bool,
    /// What keeping to the budget dropped.
    pub pruning: Pruning,
    /// Seconds.
    pub seconds: f64,
}

/// What `tree` and `report` keep of a game's main line while the library reads it: its
/// first `max_plies` moves, the evaluation after each and (when asked) the position after
/// each. Memory stays bounded by `max_plies`, not by the game.
pub(crate) struct FirstMoves {
    max_plies: usize,
    keep_positions: bool,
    /// The first moves, with the evaluation after each.
    pub(crate) moves: Vec<(Move, Option<i64>)>,
    /// The position after each of them (when kept).
    pub(crate) positions: Vec<Position>,
}

impl FirstMoves {
    /// Keeps the first `max_plies` moves, and the positions after them if `keep_positions`.
    pub(crate) fn new(max_plies: usize, keep_positions: bool) -> FirstMoves {
        FirstMoves {
            max_plies,
            keep_positions,
            moves: Vec::new(),
            positions: Vec::new(),
        }
    }

    /// A new game's tags were read.
    pub(crate) fn clear(&mut self) {
        self.moves.clear();
        self.positions.clear();
    }

    /// A main-line move was played.
    pub(crate) fn push(&mut self, step: &MainMove<'_, '_>) {
        if self.moves.len() < self.max_plies {
            self.moves.push((step.chess_move, None));
            if self.keep_positions {
                self.positions.push(step.after.clone());
            }
        }
    }

    /// A main-line comment after `plies` plies: its evaluation, for a kept move.
    pub(crate) fn comment(&mut self, text: &[u8], plies: u32) {
        let Some(index) = (plies as usize).checked_sub(1) else {
            return;
        };
        if let Some(slot) = self.moves.get_mut(index) {
            if let Some(eval) = Annotations::parse(text).eval {
                let cp = (eval.capped_pawns(EVAL_CAP_CP as f64 / 100.0) * 100.0).round() as i64;
                slot.1 = Some(cp);
            }
        }
    }
}

/// The observer of `tree`: the first moves of each game, counted into a chunk's tree.
struct TreeObserver<'p, 'o> {
    plan: &'p Plan<'o>,
    first: FirstMoves,
    out: ChunkTree,
}

impl<'a> GameObserver<'a> for TreeObserver<'_, '_> {
    fn tags(&mut self, _tags: &[Tag<'a>]) -> Skip {
        self.first.clear();
        Skip(false)
    }
    fn main_move(&mut self, step: MainMove<'_, 'a>) {
        self.first.push(&step);
    }
    fn main_comment(&mut self, text: &'a [u8], plies: u32) {
        self.first.comment(text, plies);
    }
    fn end_game(&mut self, game: Judged<'_, 'a>) {
        let (out, plan) = (&mut self.out, self.plan);
        out.read += 1;
        let (sp, outcome) = match judge(&game.verdict, game.tags, plan) {
            Ok(counted) => counted,
            Err(why) => {
                *out.excluded.entry(why).or_default() += 1;
                return;
            }
        };
        let moves = &self.first.moves;
        if plan.positions {
            let reached: Vec<Reached> = (self.first.positions.iter().zip(moves))
                .enumerate()
                .map(|(i, (pos, (_, eval)))| Reached::new(pos, i as u32 + 1, *eval))
                .collect();
            out.positions.add_game(sp, &reached, outcome);
        } else {
            out.tree.add_game(sp, moves, outcome);
        }
        out.counted += 1;
    }
}

/// What a chunk adds.
#[derive(Default)]
struct ChunkTree {
    tree: Tree,
    positions: PositionTable,
    read: u64,
    counted: u64,
    excluded: BTreeMap<Excluded, u64>,
}

impl ChunkOutput for ChunkTree {
    fn games(&self) -> u64 {
        self.read
    }
}

/// What decides which games count and how.
struct Plan<'a> {
    depth: usize,
    positions: bool,
    filters: &'a Filters,
    sps: Option<&'a SpSet>,
    include_classical: bool,
    missing_variant: MissingVariant,
    max_game_bytes: usize,
}

/// Counts the games of one chunk, read by the library's loop.
fn process(bytes: &[u8], origin: Origin, plan: &Plan<'_>) -> ChunkTree {
    let options = ValidateOptions {
        missing_variant: plan.missing_variant,
        max_game_bytes: plan.max_game_bytes,
        ..ValidateOptions::default()
    };
    let mut observer = TreeObserver {
        plan,
        first: FirstMoves::new(plan.depth, plan.positions),
        out: ChunkTree::default(),
    };
    observe_chunk(
        bytes,
        origin,
        &options,
        ReadMode::Replay,
        false,
        &mut observer,
    );
    observer.out
}

/// The SP and outcome of a game that counts, or why it does not.
fn judge(
    verdict: &Verdict,
    tags: &[Tag<'_>],
    plan: &Plan<'_>,
) -> Result<(u16, GameOutcome), Excluded> {
    let valid = match verdict {
        Verdict::Valid(v) => v,
        Verdict::Unsupported(_) => return Err(Excluded::Unsupported),
        Verdict::Invalid(_) => return Err(Excluded::Invalid),
    };
    let white_half_points = match valid.result {
        GameResult::WhiteWins => 2,
        GameResult::Draw => 1,
        GameResult::BlackWins => 0,
        GameResult::Unknown => return Err(Excluded::Unfinished),
    };
    let sp = match valid.class.kind {
        StartKind::Chess960(sp) => sp,
        StartKind::DoubleChess960 { .. } => return Err(Excluded::DoubleChess960),
        StartKind::NotAStart => return Err(Excluded::NotAStart),
    };
    if valid.kind == GameKind::Standard && !plan.include_classical {
        return Err(Excluded::Classical);
    }
    if plan.sps.is_some_and(|set| !set.contains(sp)) {
        return Err(Excluded::Sp);
    }
    let facts = GameFacts::from_tags(tags);
    if let Some(f) = plan
        .filters
        .check(&facts, crate::select::date_span(tags), Some(valid.plies))
    {
        return Err(Excluded::Filtered(f));
    }
    Ok((
        sp,
        GameOutcome {
            white_half_points,
            ratings: facts.ratings,
        },
    ))
}

/// The format asked for, else the one the output's name says.
fn format_of(args: &TreeArgs) -> Result<Format> {
    TableFormat::choose(
        "tree",
        &args.table.output,
        args.table.format,
        &[TableFormat::Csv, TableFormat::Json],
        Some(TableFormat::Csv),
    )
}

/// Adds `other` to `tree` within `budget` nodes: when they would not fit, the tree is
/// first cut back to half the budget (also used by `report`).
pub fn merge_within(
    tree: &mut Tree,
    other: &Tree,
    budget: usize,
    pruning: &mut Pruning,
) -> Result<()> {
    if tree.len() + other.len() > budget {
        tree.evict(budget / 2, pruning);
    }
    tree.merge(other, budget, pruning)
        .context("the tree's counts overflow")
}

/// What a tree run grows: the tree (or the positions) within the node budget.
struct Grown<'t> {
    tree: &'t mut Tree,
    positions: &'t mut PositionTable,
    pruning: &'t mut Pruning,
    budget: usize,
}

/// Counts every game of the inputs into the tree (or the positions) and the summary.
fn count_games(
    args: &TreeArgs,
    globals: Globals,
    summary: &mut TreeSummary,
    grown: &mut Grown<'_>,
) -> Result<()> {
    let filters = args.filters.clone();
    let plan = Plan {
        depth: args.depth as usize,
        positions: args.positions,
        filters: &filters,
        sps: args.sp.as_ref(),
        include_classical: args.include_classical,
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
    };
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut excluded: BTreeMap<Excluded, u64> = BTreeMap::new();
    driver.run(
        |bytes, origin| process(bytes, origin, &plan),
        |_, chunk, _| {
            summary.games_read += chunk.read;
            summary.counted += chunk.counted;
            for (k, v) in chunk.excluded {
                *excluded.entry(k).or_default() += v;
            }
            if args.positions {
                grown
                    .positions
                    .merge(chunk.positions, grown.budget, grown.pruning)
            } else {
                merge_within(grown.tree, &chunk.tree, grown.budget, grown.pruning)
            }
        },
    )?;
    driver.finish();
    let excluded_total: u64 = excluded.values().sum();
    if summary.games_read != summary.counted + excluded_total {
        anyhow::bail!(
            "internal error: games read ({}) != counted ({}) + excluded ({excluded_total}); nothing written",
            summary.games_read,
            summary.counted
        );
    }
    summary.excluded = excluded.into_iter().map(|(k, v)| (k.name(), v)).collect();
    Ok(())
}

/// Runs `pgn960 tree`.
pub fn run(args: &TreeArgs, globals: Globals) -> Result<TreeSummary> {
    let started = std::time::Instant::now();
    let format = format_of(args)?;
    let mut plan = OutputPlan::new(&args.inputs, globals.quiet);
    let tree_id = plan.add("-o", &args.table.output, format.name());
    let report_id = args
        .report
        .as_ref()
        .map(|r| plan.add("--report", r, "json"));
    plan.check()?;
    let budget = usize::try_from(args.max_nodes).unwrap_or(usize::MAX);
    let mut summary = TreeSummary {
        max_nodes: args.max_nodes,
        ..TreeSummary::default()
    };
    let mut tree = Tree::new();
    let mut positions = PositionTable::default();
    let mut pruning = Pruning::default();
    if args.merge {
        for path in &args.inputs {
            let other = table::read_table(path)?;
            merge_within(&mut tree, &other, budget, &mut pruning)
                .with_context(|| format!("while merging {}", path.display()))?;
        }
    } else {
        let mut grown = Grown {
            tree: &mut tree,
            positions: &mut positions,
            pruning: &mut pruning,
            budget,
        };
        count_games(args, globals, &mut summary, &mut grown)?;
    }
    summary.nodes = if args.positions {
        positions.len() as u64
    } else {
        tree.len() as u64
    };
    summary.pruned = pruning != Pruning::default();
    summary.pruning = pruning;
    summary.seconds = started.elapsed().as_secs_f64();
    let depth = if args.merge { u32::MAX } else { args.depth };
    let opts = WriteOptions {
        depth,
        min_games: args.min_games,
    };
    let mut sink = plan.create(tree_id)?;
    if args.positions {
        positions.write(&mut sink, format, args.min_games)?;
    } else {
        write_tree(&mut sink, &tree, format, opts)?;
    }
    plan.finish(sink)?;
    if let Some(id) = report_id {
        let mut sink = plan.create(id)?;
        crate::archive::write_json(&mut sink, &summary)?;
        plan.finish(sink)?;
    }
    plan.commit()?;
    plan.summary(&summary_text(&summary, args.merge));
    Ok(summary)
}

fn write_tree(sink: &mut Sink, tree: &Tree, format: Format, opts: WriteOptions) -> Result<()> {
    match format {
        Format::Csv | Format::Jsonl | Format::Parquet => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(&mut *sink);
            w.write_record(table::HEADER)?;
            table::walk(
                tree,
                opts,
                &mut |visit: table::Visit| Ok(w.serialize(visit.row)?),
                &mut || Ok(()),
            )?;
            w.flush()?;
        }
        Format::Json => table::write_json(tree, opts, sink)?,
    }
    Ok(())
}

impl TreeSummary {
    /// Games not counted because they are invalid.
    pub fn invalid(&self) -> u64 {
        self.excluded.get("invalid").copied().unwrap_or(0)
    }
}

/// The summary (a line, and one more when the tree was pruned or nothing was counted).
fn summary_text(s: &TreeSummary, merge: bool) -> String {
    let mut text = if merge {
        format!("tables merged: {} nodes", s.nodes)
    } else {
        format!(
            "games read: {}, counted: {}, nodes: {}",
            s.games_read, s.counted, s.nodes
        )
    };
    for (k, v) in &s.excluded {
        text.push_str(&format!(", {k}: {v}"));
    }
    if s.pruned {
        let p = &s.pruning;
        let why = if merge {
            "left out what the tables do not give exactly or what is past"
        } else {
            "pruned to stay within"
        };
        text.push_str(&format!(
            "\n{why} --max-nodes {}: {} nodes dropped ({} evictions, last below {} games), {} game tails not counted; every node written is exact",
            s.max_nodes, p.nodes_dropped, p.evictions, p.threshold, p.game_tails_dropped
        ));
    }
    if !merge && s.counted == 0 {
        match s.excluded.iter().max_by_key(|(_, &n)| n) {
            Some((why, n)) => text.push_str(&format!(
                "\nnothing was counted: of {} games read, {n} were left out as {why}",
                s.games_read
            )),
            None => text.push_str("\nnothing was counted: no game was read"),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sp_lists() {
        let set = parse_sp_list("0-2,518").unwrap();
        assert!(set.contains(0) && set.contains(2) && set.contains(518));
        assert!(!set.contains(3));
        assert!(parse_sp_list("960").is_err());
        assert!(parse_sp_list("5-3").is_err());
        assert!(parse_sp_list("x").is_err());
    }
}
