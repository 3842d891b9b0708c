//! Counting games into opening trees: the observer of the library's game loop that keeps
//! each game's first moves (and positions) and counts the judged game into a chunk's tree.

use super::positions::{PositionTable, Reached};
use super::{GameOutcome, Overflow, Pruning, Tree, EVAL_CAP_CP};
use crate::annotations::Annotations;
use crate::facts::GameFacts;
use crate::pipeline::ChunkOutput;
use crate::select::{sp_out_of_range, FilteredBy, Filters};
use crate::validate::{
    observe_chunk, GameKind, GameObserver, Judged, MainMove, MissingVariant, ReadMode,
    RejectReason, ValidateOptions, Verdict,
};
use chess960_core::{Move, Position, StartKind};
use pgn_parse::{GameResult, Origin, Skip, Tag};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

/// The default node budget: about 1.7 GB of nodes (104 bytes each).
pub const DEFAULT_MAX_NODES: u64 = 16_000_000;

/// A set of start positions (`tree --sp`).
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
            Ok(_) => Err(sp_out_of_range(s.trim())),
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

/// What `tree` counts and how it reads: the options of [`super::compute`].
#[derive(Debug, Clone)]
pub struct TreeOptions {
    /// Plies of each game's main line counted.
    pub depth: usize,
    /// Count positions reached (Zobrist key and X-FEN) instead of move sequences.
    pub positions: bool,
    /// Which games are counted (ratings, length, speed, dates).
    pub filters: Filters,
    /// Only these start positions.
    pub sps: Option<SpSet>,
    /// Count classical games (not marked Chess960, standard start) as SP 518.
    pub include_classical: bool,
    /// Nodes (or positions) held at most; see [`Tree::evict`].
    pub max_nodes: usize,
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
}

impl Default for TreeOptions {
    fn default() -> TreeOptions {
        TreeOptions {
            depth: 8,
            positions: false,
            filters: Filters::default(),
            sps: None,
            include_classical: false,
            max_nodes: DEFAULT_MAX_NODES as usize,
            missing_variant: MissingVariant::default(),
            max_game_bytes: ValidateOptions::default().max_game_bytes,
            assume_sp: None,
            threads: 0,
            stop: None,
        }
    }
}

/// Why a game was not counted in a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TreeExcluded {
    /// Invalid under Chess960 rules.
    Invalid,
    /// Another variant.
    Unsupported,
    /// No result (`*`).
    Unfinished,
    /// A FEN that is not a start position.
    NotAStart,
    /// Double Chess960 (a tree is per SP).
    DoubleChess960,
    /// Classical chess, without `include_classical`.
    Classical,
    /// Not one of [`TreeOptions::sps`].
    Sp,
    /// A filter left it out.
    Filtered(FilteredBy),
}

impl TreeExcluded {
    /// The name used in summaries and reports.
    pub fn name(self) -> &'static str {
        match self {
            TreeExcluded::Invalid => "invalid",
            TreeExcluded::Unsupported => "unsupported-variant",
            TreeExcluded::Unfinished => "unfinished",
            TreeExcluded::NotAStart => "mid-game-fen",
            TreeExcluded::DoubleChess960 => "double-chess960",
            TreeExcluded::Classical => "classical",
            TreeExcluded::Sp => "filtered-sp",
            TreeExcluded::Filtered(f) => f.name(),
        }
    }
}

/// What `tree` and `report` keep of a game's main line while the library reads it: its
/// first `max_plies` moves, the evaluation after each and (when asked) the position after
/// each. Memory stays bounded by `max_plies`, not by the game.
pub struct FirstMoves {
    max_plies: usize,
    keep_positions: bool,
    /// The first moves, with the evaluation after each.
    pub moves: Vec<(Move, Option<i64>)>,
    /// The position after each of them (when kept).
    pub positions: Vec<Position>,
}

impl FirstMoves {
    /// Keeps the first `max_plies` moves, and the positions after them if `keep_positions`.
    pub fn new(max_plies: usize, keep_positions: bool) -> FirstMoves {
        FirstMoves {
            max_plies,
            keep_positions,
            moves: Vec::new(),
            positions: Vec::new(),
        }
    }

    /// How many first moves are kept (for [`crate::validate::GameObserver::moves_wanted`]).
    pub fn plies_kept(&self) -> u32 {
        u32::try_from(self.max_plies).unwrap_or(u32::MAX)
    }

    /// A new game's tags were read.
    pub fn clear(&mut self) {
        self.moves.clear();
        self.positions.clear();
    }

    /// A main-line move was played.
    pub fn push(&mut self, step: &MainMove<'_, '_>) {
        if self.moves.len() < self.max_plies {
            self.moves.push((step.chess_move, None));
            if self.keep_positions {
                self.positions.push(step.after.clone());
            }
        }
    }

    /// A main-line comment after `plies` plies: its evaluation, for a kept move.
    pub fn comment(&mut self, text: &[u8], plies: u32) {
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

/// What some games add to a tree: the tree (or the positions), and the games counted and
/// left out.
#[derive(Debug, Default)]
pub struct TreeCounts {
    /// The tree of move sequences (empty with [`TreeOptions::positions`]).
    pub tree: Tree,
    /// The positions reached (with [`TreeOptions::positions`]).
    pub positions: PositionTable,
    /// Games read.
    pub games_read: u64,
    /// Games counted.
    pub counted: u64,
    /// Games not counted, by reason.
    pub excluded: BTreeMap<TreeExcluded, u64>,
    /// The invalid games among them, by rejection reason.
    pub invalid: BTreeMap<RejectReason, u64>,
    /// What keeping to the node budget dropped.
    pub pruning: Pruning,
}

impl ChunkOutput for TreeCounts {
    fn games(&self) -> u64 {
        self.games_read
    }
    /// The sink reads no line numbers.
    fn needs_lines(&self) -> bool {
        false
    }
}

impl TreeCounts {
    /// Adds the counts of the games after these: the positions, or the tree within
    /// [`TreeOptions::max_nodes`] nodes (cut back to half the budget first when both would
    /// not fit; see [`merge_within`]).
    pub fn merge(&mut self, other: TreeCounts, options: &TreeOptions) -> Result<(), Overflow> {
        self.games_read += other.games_read;
        self.counted += other.counted;
        for (why, n) in other.excluded {
            *self.excluded.entry(why).or_default() += n;
        }
        for (why, n) in other.invalid {
            *self.invalid.entry(why).or_default() += n;
        }
        let (budget, pruning) = (options.max_nodes, &mut self.pruning);
        if options.positions {
            self.positions.merge(other.positions, budget, pruning)
        } else {
            merge_within(&mut self.tree, &other.tree, budget, pruning)
        }
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

/// Adds `other` to `tree` within `budget` nodes: when they would not fit, the tree is
/// first cut back to half the budget.
pub fn merge_within(
    tree: &mut Tree,
    other: &Tree,
    budget: usize,
    pruning: &mut Pruning,
) -> Result<(), Overflow> {
    if tree.len() + other.len() > budget {
        tree.evict(budget / 2, pruning);
    }
    tree.merge(other, budget, pruning)
}

/// Counts the games of one chunk, read by the library's loop, into a tree of its own.
pub fn count_chunk(bytes: &[u8], origin: Origin, options: &TreeOptions) -> TreeCounts {
    let validate = ValidateOptions {
        missing_variant: options.missing_variant,
        max_game_bytes: options.max_game_bytes,
        assume_sp: options.assume_sp,
        ..ValidateOptions::default()
    };
    let mut observer = TreeObserver {
        options,
        first: FirstMoves::new(options.depth, options.positions),
        out: TreeCounts::default(),
    };
    observe_chunk(
        bytes,
        origin,
        &validate,
        ReadMode::Replay,
        false,
        &mut observer,
    );
    observer.out
}

/// The observer of `tree`: the first moves of each game, counted into a chunk's tree.
struct TreeObserver<'o> {
    options: &'o TreeOptions,
    first: FirstMoves,
    out: TreeCounts,
}

impl<'a> GameObserver<'a> for TreeObserver<'_> {
    fn tags(&mut self, _tags: &[Tag<'a>]) -> Skip {
        self.first.clear();
        Skip(false)
    }
    fn moves_wanted(&self) -> u32 {
        self.first.plies_kept()
    }
    fn main_move(&mut self, step: MainMove<'_, 'a>) {
        self.first.push(&step);
    }
    fn main_comment(&mut self, text: &'a [u8], plies: u32) {
        self.first.comment(text, plies);
    }
    /// A lone clock holds no evaluation ([`FirstMoves::comment`] finds none in it).
    fn main_clock(&mut self, _text: &'a [u8], _plies: u32) {}
    fn end_game(&mut self, game: Judged<'_, 'a>) {
        let out = &mut self.out;
        out.games_read += 1;
        let (sp, outcome) = match judge(&game.verdict, game.tags, self.options) {
            Ok(counted) => counted,
            Err(why) => {
                *out.excluded.entry(why).or_default() += 1;
                if let Some(r) = game.verdict.rejection() {
                    *out.invalid.entry(r.reason).or_default() += 1;
                }
                return;
            }
        };
        let moves = &self.first.moves;
        if self.options.positions {
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

/// The SP and outcome of a game that counts, or why it does not.
fn judge(
    verdict: &Verdict,
    tags: &[Tag<'_>],
    options: &TreeOptions,
) -> Result<(u16, GameOutcome), TreeExcluded> {
    let valid = match verdict {
        Verdict::Valid(v) => v,
        Verdict::Unsupported(_) => return Err(TreeExcluded::Unsupported),
        Verdict::Invalid(_) => return Err(TreeExcluded::Invalid),
    };
    let white_half_points = match valid.result {
        GameResult::WhiteWins => 2,
        GameResult::Draw => 1,
        GameResult::BlackWins => 0,
        GameResult::Unknown => return Err(TreeExcluded::Unfinished),
    };
    let sp = match valid.class.kind {
        StartKind::Chess960(sp) => sp,
        StartKind::DoubleChess960 { .. } => return Err(TreeExcluded::DoubleChess960),
        StartKind::NotAStart => return Err(TreeExcluded::NotAStart),
    };
    if valid.kind == GameKind::Standard && !options.include_classical {
        return Err(TreeExcluded::Classical);
    }
    if options.sps.as_ref().is_some_and(|set| !set.contains(sp)) {
        return Err(TreeExcluded::Sp);
    }
    let facts = GameFacts::from_tags(tags);
    let plies = Some(valid.plies);
    if let Some(f) = options
        .filters
        .check(&facts, options.filters.date_for(tags), plies)
    {
        return Err(TreeExcluded::Filtered(f));
    }
    Ok((
        sp,
        GameOutcome {
            white_half_points,
            ratings: facts.ratings,
        },
    ))
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
