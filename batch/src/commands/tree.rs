//! `pgn960 tree`: the opening tree of each start position over the main lines of the
//! valid games, with results, ratings, performance and evaluations per node; trees of
//! separate runs merged exactly; memory bounded by a node budget.

use crate::args::{TableFormat, TableOutput};
use crate::driver::{Driver, Globals};
use crate::output::OutputPlan;
use anyhow::{Context, Result};
use pgn960::select::Filters;
use pgn960::stats::{why_nothing_counted, LeftOut, TREE_NEEDS_MOVES};
use pgn960::tree::positions::PositionTable;
use pgn960::tree::{
    count_chunk, merge_within, parse_sp_list, table, write_tree, Pruning, SpSet, Tree, TreeCounts,
    TreeOptions, WriteOptions, DEFAULT_MAX_NODES,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

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

/// The summary of a tree run.
#[derive(Debug, Default, Serialize)]
pub struct TreeSummary {
    /// Games read.
    pub games_read: u64,
    /// Games counted in the tree.
    pub counted: u64,
    /// Games not counted, by reason.
    pub excluded: BTreeMap<&'static str, u64>,
    /// The invalid games among them, by rejection reason (`no-moves`, `illegal-move`, ...).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub invalid_by_reason: BTreeMap<&'static str, u64>,
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

/// The format asked for, else the one the output's name says.
fn format_of(args: &TreeArgs) -> Result<TableFormat> {
    Ok(TableFormat::choose(
        "tree",
        &args.table.output,
        args.table.format,
        &[TableFormat::Csv, TableFormat::Json],
        Some(TableFormat::Csv),
    )?)
}

/// The library's options of a run over games.
fn tree_options(args: &TreeArgs, globals: Globals) -> TreeOptions {
    TreeOptions {
        depth: args.depth as usize,
        positions: args.positions,
        filters: args.filters.clone(),
        sps: args.sp.clone(),
        include_classical: args.include_classical,
        max_nodes: usize::try_from(args.max_nodes).unwrap_or(usize::MAX),
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
        threads: globals.threads,
        stop: None,
    }
}

/// Counts every game of the inputs into the tree (or the positions) and the summary.
fn count_games(args: &TreeArgs, globals: Globals, summary: &mut TreeSummary) -> Result<TreeCounts> {
    let options = tree_options(args, globals);
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut counts = TreeCounts::default();
    driver.run(
        |bytes, origin| count_chunk(bytes, origin, &options),
        |_, chunk, _| {
            counts
                .merge(chunk, &options)
                .context("the tree's counts overflow")
        },
    )?;
    driver.finish();
    let excluded_total: u64 = counts.excluded.values().sum();
    if counts.games_read != counts.counted + excluded_total {
        anyhow::bail!(
            "internal error: games read ({}) != counted ({}) + excluded ({excluded_total}); nothing written",
            counts.games_read,
            counts.counted
        );
    }
    summary.games_read = counts.games_read;
    summary.counted = counts.counted;
    summary.excluded = counts.excluded_by_name();
    summary.invalid_by_reason = counts.invalid_by_name();
    Ok(counts)
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
    let (tree, positions, pruning) = if args.merge {
        let mut tree = Tree::new();
        let mut pruning = Pruning::default();
        for path in &args.inputs {
            let file = std::fs::File::open(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let name = path.display().to_string();
            let other = table::read_csv(&name, std::io::BufReader::new(file))?;
            merge_within(&mut tree, &other, budget, &mut pruning)
                .context("the tree's counts overflow")
                .with_context(|| format!("while merging {}", path.display()))?;
        }
        (tree, PositionTable::default(), pruning)
    } else {
        let counts = count_games(args, globals, &mut summary)?;
        (counts.tree, counts.positions, counts.pruning)
    };
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
        positions.write(&mut sink, format.text(), args.min_games)?;
    } else {
        write_tree(&mut sink, &tree, format.text(), opts)?;
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
        let left = LeftOut {
            games_read: s.games_read,
            excluded: &s.excluded,
            invalid: &s.invalid_by_reason,
            no_moves_hint: TREE_NEEDS_MOVES,
        };
        text.push_str(&format!("\n{}", why_nothing_counted(&left)));
    }
    text
}
