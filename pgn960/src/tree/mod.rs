//! Opening trees: the counts of every main-line move sequence of each start position up to
//! a depth, built per chunk and merged in input order under a node budget that keeps every
//! kept node exact ([`Tree::merge`], [`Tree::evict`]).

//!
//! [`compute`] counts the games of some inputs into [`TreeCounts`]; [`write_tree`] writes
//! the tree as the rows (CSV) or the nested tree (JSON) `pgn960 tree` writes;
//! [`table::read_csv`] reads such a table back for an exact merge.
//!
//! ```
//! use pgn960::stats::TextFormat;
//! use pgn960::tree::{compute, write_tree, TreeOptions, WriteOptions};
//!
//! let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
//! let options = TreeOptions { depth: 2, ..TreeOptions::default() };
//! let counts = compute(&[fixtures.join("sample.pgn")], &options)?;
//! assert!(counts.counted > 0);
//! let mut csv = Vec::new();
//! let write = WriteOptions { depth: 2, min_games: 1 };
//! write_tree(&mut csv, &counts.tree, TextFormat::Csv, write)?;
//! assert!(String::from_utf8_lossy(&csv).starts_with("sp,path,san,uci,games,"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod game;
pub mod positions;
pub mod table;

pub use game::{
    count_chunk, merge_within, parse_sp_list, FirstMoves, SpSet, TreeCounts, TreeExcluded,
    TreeOptions, DEFAULT_MAX_NODES,
};
pub use table::WriteOptions;

use crate::fold::{fold_inputs, FoldOptions};
use crate::stats::TextFormat;
use chess960_core::Move;
use std::io::{self, Write};
use std::path::PathBuf;

/// Counts the games of `inputs` (paths; directories walked) in parallel into one tree (or
/// table of positions), within [`TreeOptions::max_nodes`].
pub fn compute(inputs: &[PathBuf], options: &TreeOptions) -> crate::Result<TreeCounts> {
    let mut counts = TreeCounts::default();
    let mut overflow = None;
    let fold = FoldOptions {
        threads: options.threads,
        max_game_bytes: options.max_game_bytes,
        stop: options.stop,
        range: None,
    };
    fold_inputs(
        inputs,
        &fold,
        |bytes, origin| count_chunk(bytes, origin, options),
        |chunk| {
            if overflow.is_none() {
                overflow = counts.merge(chunk, options).err();
            }
        },
    )?;
    match overflow {
        Some(_) => Err(crate::Error::Content {
            name: "the tree".to_string(),
            message: "its counts overflow".to_string(),
        }),
        None => Ok(counts),
    }
}

/// Writes a tree: CSV, one row per node written, depth first ([`table::walk`]), or the
/// nested JSON tree ([`table::write_json`]).
pub fn write_tree(
    out: &mut impl Write,
    tree: &Tree,
    format: TextFormat,
    options: WriteOptions,
) -> io::Result<()> {
    match format {
        TextFormat::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(out);
            w.write_record(table::HEADER)?;
            table::walk(
                tree,
                options,
                &mut |visit: table::Visit| Ok(w.serialize(visit.row)?),
                &mut || Ok(()),
            )?;
            w.flush()
        }
        TextFormat::Json => table::write_json(tree, options, out),
    }
}

/// No node (the end of a sibling list, no children).
const NONE: u32 = u32::MAX;

/// Number of start positions (roots).
const SPS: usize = 960;

/// The counts of one node; everything a table shows is derived from these, so trees from
/// separate runs add up exactly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeCounts {
    /// Games through this node.
    pub games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Games where both players have a rating.
    pub rated_games: u64,
    /// Sum of white ratings over rated games.
    pub white_elo_sum: u64,
    /// Sum of black ratings over rated games.
    pub black_elo_sum: u64,
    /// White's points over rated games, in half points (a draw is 1).
    pub rated_white_half_points: u64,
    /// Games with an `[%eval]` after this move.
    pub eval_games: u64,
    /// Sum of those evaluations in centipawns, white's view, capped at ±[`EVAL_CAP_CP`].
    pub eval_centipawns: i64,
}

/// Evaluations are capped at ±10 pawns; a mate counts as the cap for the side that mates.
pub const EVAL_CAP_CP: i64 = 1000;

/// What one game adds to every node on its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameOutcome {
    /// White's points in half points: 2 a win, 1 a draw, 0 a loss.
    pub white_half_points: u8,
    /// (white, black) ratings when both are known.
    pub ratings: Option<(u32, u32)>,
}

impl NodeCounts {
    /// Adds one game (and its evaluation after this node's move, in centipawns).
    pub fn add(&mut self, game: GameOutcome, eval_cp: Option<i64>) {
        self.games += 1;
        match game.white_half_points {
            2 => self.white_wins += 1,
            1 => self.draws += 1,
            _ => self.black_wins += 1,
        }
        if let Some((w, b)) = game.ratings {
            self.rated_games += 1;
            self.white_elo_sum += u64::from(w);
            self.black_elo_sum += u64::from(b);
            self.rated_white_half_points += u64::from(game.white_half_points);
        }
        if let Some(cp) = eval_cp {
            self.eval_games += 1;
            self.eval_centipawns += cp;
        }
    }

    /// Adds another node's counts, or fails (changing nothing) if a sum would overflow.
    pub fn checked_merge(&mut self, o: &NodeCounts) -> Option<()> {
        *self = NodeCounts {
            games: self.games.checked_add(o.games)?,
            white_wins: self.white_wins.checked_add(o.white_wins)?,
            draws: self.draws.checked_add(o.draws)?,
            black_wins: self.black_wins.checked_add(o.black_wins)?,
            rated_games: self.rated_games.checked_add(o.rated_games)?,
            white_elo_sum: self.white_elo_sum.checked_add(o.white_elo_sum)?,
            black_elo_sum: self.black_elo_sum.checked_add(o.black_elo_sum)?,
            rated_white_half_points: self
                .rated_white_half_points
                .checked_add(o.rated_white_half_points)?,
            eval_games: self.eval_games.checked_add(o.eval_games)?,
            eval_centipawns: self.eval_centipawns.checked_add(o.eval_centipawns)?,
        };
        Some(())
    }

    /// Whether the counts could come from games (for counts read from a table).
    pub fn check(&self) -> Result<(), String> {
        let decided = self
            .white_wins
            .checked_add(self.draws)
            .and_then(|s| s.checked_add(self.black_wins));
        if decided != Some(self.games) {
            return Err(format!(
                "white_wins + draws + black_wins ({} + {} + {}) is not games ({})",
                self.white_wins, self.draws, self.black_wins, self.games
            ));
        }
        if self.rated_games > self.games || self.eval_games > self.games {
            return Err("more rated or evaluated games than games".into());
        }
        let elo_most = self
            .rated_games
            .saturating_mul(crate::stats::table::MAX_ELO);
        if self.white_elo_sum > elo_most || self.black_elo_sum > elo_most {
            return Err(format!(
                "white_elo_sum ({}) or black_elo_sum ({}) is more than {} a rated game \
                 ({} rated games)",
                self.white_elo_sum,
                self.black_elo_sum,
                crate::stats::table::MAX_ELO,
                self.rated_games
            ));
        }
        if self.rated_white_half_points > self.rated_games.saturating_mul(2) {
            return Err("more points than rated games can score".into());
        }
        let cap = i128::from(EVAL_CAP_CP) * i128::from(self.eval_games);
        if i128::from(self.eval_centipawns).abs() > cap {
            return Err("evaluations beyond the cap of ±10 pawns".into());
        }
        Ok(())
    }
}

/// One node: a move after its parent's path (none for a start position's root).
#[derive(Debug, Clone)]
pub struct Node {
    /// The move (`None` at a root).
    pub mv: Option<Move>,
    first_child: u32,
    next_sibling: u32,
    /// Some children were not kept (pruned to stay in budget, or left out of a table):
    /// the children present are exact, but absent ones are not known to have 0 games.
    pub closed: bool,
    /// The counts.
    pub counts: NodeCounts,
}

impl Node {
    fn new(mv: Option<Move>) -> Node {
        Node {
            mv,
            first_child: NONE,
            next_sibling: NONE,
            closed: false,
            counts: NodeCounts::default(),
        }
    }
}

/// What keeping the tree within its budget cost, for the summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Pruning {
    /// Times the tree was cut back to half its budget.
    pub evictions: u64,
    /// The last threshold: nodes with fewer games were evicted (0: never).
    pub threshold: u64,
    /// Nodes evicted or never created because their parent was closed or the budget full.
    pub nodes_dropped: u64,
    /// Game tails not counted: for each node dropped whose parent was kept, its games
    /// (each game at most once per place its path was cut).
    pub game_tails_dropped: u64,
}

/// The opening tree of every start position: one root per SP, nodes in an arena.
#[derive(Debug, Clone)]
pub struct Tree {
    nodes: Vec<Node>,
    roots: Vec<u32>,
    /// Nodes unlinked by a merge, still in the arena until the next eviction.
    garbage: usize,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new()
    }
}

/// A sum past the counters' range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the counts overflow")
    }
}

impl std::error::Error for Overflow {}

impl Tree {
    /// An empty tree.
    pub fn new() -> Tree {
        Tree {
            nodes: Vec::new(),
            roots: vec![NONE; SPS],
            garbage: 0,
        }
    }

    /// Makes room for `nodes` more nodes at once (a chunk's tree would otherwise grow its
    /// arena, copied at each doubling).
    pub fn reserve(&mut self, nodes: usize) {
        self.nodes.reserve(nodes);
    }

    /// Empties the tree (as [`Tree::new`]), keeping its arena's memory for the next
    /// chunk's tree.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.roots.clear();
        self.roots.resize(SPS, NONE);
        self.garbage = 0;
    }

    /// Nodes held (roots included).
    pub fn len(&self) -> usize {
        self.nodes.len() - self.garbage
    }

    /// Whether no game was added.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The root of start position `sp`, if it has games.
    pub fn root(&self, sp: u16) -> Option<u32> {
        self.roots
            .get(usize::from(sp))
            .copied()
            .filter(|&r| r != NONE)
    }

    /// The node `id`.
    pub fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    /// The node `id`, to change.
    pub fn node_mut(&mut self, id: u32) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// The children of node `id`, in the order they were created.
    pub fn children(&self, id: u32) -> impl Iterator<Item = u32> + '_ {
        let mut next = self.nodes[id as usize].first_child;
        std::iter::from_fn(move || {
            (next != NONE).then(|| {
                let id = next;
                next = self.nodes[id as usize].next_sibling;
                id
            })
        })
    }

    /// The root of `sp`, created if needed (`None` for an SP out of range).
    pub fn root_mut(&mut self, sp: u16) -> Option<u32> {
        let slot = *self.roots.get(usize::from(sp))?;
        if slot != NONE {
            return Some(slot);
        }
        let id = self.push(Node::new(None));
        self.roots[usize::from(sp)] = id;
        Some(id)
    }

    fn push(&mut self, node: Node) -> u32 {
        let id = u32::try_from(self.nodes.len()).unwrap_or(NONE);
        self.nodes.push(node);
        id
    }

    fn find_child(&self, parent: u32, mv: Move) -> Option<u32> {
        self.children(parent)
            .find(|&c| self.nodes[c as usize].mv == Some(mv))
    }

    /// A new last child of `parent`.
    pub fn add_child(&mut self, parent: u32, mv: Move) -> u32 {
        let last = self.children(parent).last().unwrap_or(NONE);
        self.append_child(parent, last, mv)
    }

    /// A new child of `parent` after `last`, its last child (`NONE`: it has none).
    fn append_child(&mut self, parent: u32, last: u32, mv: Move) -> u32 {
        let id = self.push(Node::new(Some(mv)));
        match last {
            NONE => self.nodes[parent as usize].first_child = id,
            last => self.nodes[last as usize].next_sibling = id,
        }
        id
    }

    /// The child of `parent` playing `mv`, made its new last child when it has none (one
    /// walk of the sibling list for both).
    fn child_or_new(&mut self, parent: u32, mv: Move) -> u32 {
        let (mut last, mut next) = (NONE, self.nodes[parent as usize].first_child);
        while next != NONE {
            let node = &self.nodes[next as usize];
            if node.mv == Some(mv) {
                return next;
            }
            (last, next) = (next, node.next_sibling);
        }
        self.append_child(parent, last, mv)
    }

    /// Adds a game of start position `sp` that began with `moves` (its evaluation after
    /// each, in centipawns): the root and one node per move, created as needed.
    pub fn add_game(&mut self, sp: u16, moves: &[(Move, Option<i64>)], game: GameOutcome) {
        let Some(mut at) = self.root_mut(sp) else {
            return;
        };
        self.nodes[at as usize].counts.add(game, None);
        for &(mv, eval) in moves {
            at = self.child_or_new(at, mv);
            self.nodes[at as usize].counts.add(game, eval);
        }
    }

    /// Adds `other` node by node, keeping every node exact: a node present in one tree
    /// only is kept when the other's parent is not closed (so it had no game there), and
    /// new nodes are created while fewer than `budget` are held (else the parent is
    /// closed). Callers merging trees in a fixed order get the same tree at any thread
    /// count.
    pub fn merge(
        &mut self,
        other: &Tree,
        budget: usize,
        pruning: &mut Pruning,
    ) -> Result<(), Overflow> {
        for sp in 0..SPS {
            let o = other.roots[sp];
            if o == NONE {
                continue;
            }
            match self.roots[sp] {
                NONE => {
                    // A root costs nothing against the budget: there are 960 at most.
                    let id = self.push(Node::new(None));
                    self.roots[sp] = id;
                    self.merge_node(id, other, o, budget, pruning)?;
                }
                s => self.merge_node(s, other, o, budget, pruning)?,
            }
        }
        Ok(())
    }

    fn merge_node(
        &mut self,
        s: u32,
        other: &Tree,
        o: u32,
        budget: usize,
        pruning: &mut Pruning,
    ) -> Result<(), Overflow> {
        let theirs = other.nodes[o as usize].clone();
        self.nodes[s as usize]
            .counts
            .checked_merge(&theirs.counts)
            .ok_or(Overflow)?;
        let was_closed = self.nodes[s as usize].closed;
        if theirs.closed {
            // Our children they do not have are not exact any more.
            let ours: Vec<u32> = self.children(s).collect();
            for c in ours {
                let mv = self.nodes[c as usize].mv;
                if other
                    .children(o)
                    .all(|oc| other.nodes[oc as usize].mv != mv)
                {
                    self.unlink(s, c);
                    pruning.nodes_dropped += 1;
                    pruning.game_tails_dropped += self.nodes[c as usize].counts.games;
                }
            }
            self.nodes[s as usize].closed = true;
        }
        for oc in other.children(o) {
            let Some(mv) = other.nodes[oc as usize].mv else {
                continue;
            };
            let target = match self.find_child(s, mv) {
                Some(c) => Some(c),
                None if !was_closed && self.len() < budget => Some(self.add_child(s, mv)),
                None => None,
            };
            match target {
                Some(c) => self.merge_node(c, other, oc, budget, pruning)?,
                None => {
                    self.nodes[s as usize].closed = true;
                    pruning.nodes_dropped += 1;
                    pruning.game_tails_dropped += other.nodes[oc as usize].counts.games;
                }
            }
        }
        Ok(())
    }

    /// Unlinks child `c` (and so its subtree) from `parent`.
    fn unlink(&mut self, parent: u32, c: u32) {
        let next = self.nodes[c as usize].next_sibling;
        let before = self
            .children(parent)
            .find(|&x| self.nodes[x as usize].next_sibling == c);
        if self.nodes[parent as usize].first_child == c {
            self.nodes[parent as usize].first_child = next;
        } else if let Some(before) = before {
            self.nodes[before as usize].next_sibling = next;
        }
        self.garbage += self.subtree_size(c);
    }

    fn subtree_size(&self, id: u32) -> usize {
        1 + self
            .children(id)
            .map(|c| self.subtree_size(c))
            .sum::<usize>()
    }

    /// Cuts the tree back to at most `target` nodes (as far as its roots allow):
    /// every node with fewer games than the smallest power of two that fits is evicted,
    /// with its subtree, and its parent closed, so no game below it is counted again and
    /// every node kept stays exact.
    pub fn evict(&mut self, target: usize, pruning: &mut Pruning) {
        // Nodes by the bit length of their games: count(games >= 2^k) = sum of hist[k+1..].
        let mut hist = [0usize; 65];
        for sp in 0..SPS {
            if self.roots[sp] != NONE {
                self.walk(self.roots[sp], &mut |n: &Node| {
                    if n.mv.is_some() {
                        hist[(64 - n.counts.games.leading_zeros()) as usize] += 1;
                    }
                });
            }
        }
        let roots = self.roots.iter().filter(|&&r| r != NONE).count();
        let mut threshold = 1u64;
        for k in 0..64 {
            let kept: usize = hist[k + 1..].iter().sum();
            threshold = 1u64 << k;
            if kept + roots <= target {
                break;
            }
        }
        let mut kept = Tree::new();
        for sp in 0..SPS {
            if self.roots[sp] != NONE {
                let id = kept.push(self.nodes[self.roots[sp] as usize].clone_bare());
                kept.roots[sp] = id;
                self.copy_kept(self.roots[sp], &mut kept, id, threshold, pruning);
            }
        }
        pruning.evictions += 1;
        pruning.threshold = threshold;
        *self = kept;
    }

    fn walk(&self, id: u32, f: &mut impl FnMut(&Node)) {
        f(&self.nodes[id as usize]);
        for c in self.children(id) {
            self.walk(c, f);
        }
    }

    fn copy_kept(&self, from: u32, kept: &mut Tree, to: u32, threshold: u64, p: &mut Pruning) {
        for c in self.children(from) {
            let node = &self.nodes[c as usize];
            if node.counts.games >= threshold {
                let id = kept.push(node.clone_bare());
                let last = kept.children(to).last();
                match last {
                    Some(last) => kept.nodes[last as usize].next_sibling = id,
                    None => kept.nodes[to as usize].first_child = id,
                }
                self.copy_kept(c, kept, id, threshold, p);
            } else {
                kept.nodes[to as usize].closed = true;
                p.nodes_dropped += self.subtree_size(c) as u64;
                p.game_tails_dropped += node.counts.games;
            }
        }
    }
}

/// The first moves of a chunk's games in reading order (what [`Tree::add_game`] takes),
/// for the run's tree to add once ([`add_log_within`]) rather than a chunk's tree built
/// and merged node by node: a chunk of a few hundred games over 960 SPs aggregates little.
#[derive(Debug, Clone, Default)]
pub struct TreeLog {
    /// Per game: its SP, its outcome and the end of its moves in `moves`.
    games: Vec<(u16, GameOutcome, usize)>,
    moves: Vec<(Move, Option<i64>)>,
}

impl TreeLog {
    /// Logs a game of `sp` that began with `moves`, as [`Tree::add_game`] would add it.
    pub fn push(&mut self, sp: u16, moves: &[(Move, Option<i64>)], game: GameOutcome) {
        self.moves.extend_from_slice(moves);
        self.games.push((sp, game, self.moves.len()));
    }

    /// Empties the log, keeping its memory.
    pub fn clear(&mut self) {
        self.games.clear();
        self.moves.clear();
    }

    /// Reserves room for about `games` games of `depth` moves.
    pub fn reserve(&mut self, games: usize, depth: usize) {
        self.games.reserve(games);
        self.moves.reserve(games.saturating_mul(depth));
    }

    /// Adds the games to `tree` in the order they were logged.
    pub fn add_to(&self, tree: &mut Tree) {
        let mut start = 0;
        for &(sp, game, end) in &self.games {
            tree.add_game(sp, &self.moves[start..end], game);
            start = end;
        }
    }

    /// The most nodes a tree of these games holds: a root and a node per move each.
    fn nodes_at_most(&self) -> usize {
        self.games.len() + self.moves.len()
    }
}

/// Adds a chunk's logged games to `tree` as [`merge_within`] adds the chunk's tree built
/// from them (in `scratch`): directly while nothing was ever pruned and the tree stays
/// within `budget` whatever the chunk adds (then the merge only adds every node, siblings
/// in the order of their first game), else through `scratch` and the merge. Counts sum
/// without the merge's overflow check: a sum of ratings passes `u64` only past 2^32 games.
pub fn add_log_within(
    tree: &mut Tree,
    log: &TreeLog,
    scratch: &mut Tree,
    budget: usize,
    pruning: &mut Pruning,
) -> Result<(), Overflow> {
    if *pruning == Pruning::default() && tree.len().saturating_add(log.nodes_at_most()) <= budget {
        log.add_to(tree);
        return Ok(());
    }
    scratch.clear();
    log.add_to(scratch);
    merge_within(tree, scratch, budget, pruning)
}

impl Node {
    /// The node without its links.
    fn clone_bare(&self) -> Node {
        Node {
            first_child: NONE,
            next_sibling: NONE,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use chess960_core::Position;

    fn moves(sp: u16, ucis: &[&str]) -> Vec<(Move, Option<i64>)> {
        let mut pos = Position::from_sp(sp).unwrap();
        ucis.iter()
            .map(|u| {
                let m = pos.parse_uci(u).unwrap();
                pos.play_unchecked(m);
                (m, None)
            })
            .collect()
    }

    const WIN: GameOutcome = GameOutcome {
        white_half_points: 2,
        ratings: None,
    };

    /// A game adding `find_child` then `add_child` (two walks), as before `child_or_new`.
    fn add_game_in_two_walks(tree: &mut Tree, sp: u16, moves: &[(Move, Option<i64>)]) {
        let Some(mut at) = tree.root_mut(sp) else {
            return;
        };
        tree.nodes[at as usize].counts.add(WIN, None);
        for &(mv, eval) in moves {
            let found = tree
                .children(at)
                .find(|&c| tree.nodes[c as usize].mv == Some(mv));
            at = found.unwrap_or_else(|| tree.add_child(at, mv));
            tree.nodes[at as usize].counts.add(WIN, eval);
        }
    }

    /// A random walk of up to 5 plies from SP `sp` through the first few legal moves (so
    /// that the walks of several games share prefixes).
    fn random_line(rng: &mut Rng, sp: u16) -> Vec<(Move, Option<i64>)> {
        let mut pos = Position::from_sp(sp).unwrap();
        let mut line = Vec::new();
        for _ in 0..rng.below(6) {
            let legal = pos.legal_moves();
            let m = legal[rng.below(legal.len().min(4) as u64) as usize];
            pos.play_unchecked(m);
            line.push((m, None));
        }
        line
    }

    /// A random chunk's tree: `games` games of a few SPs, each a random walk of up to 5
    /// plies through the first few legal moves (so that paths share prefixes); it is the
    /// tree the same games make adding each move in two walks.
    fn random_tree(rng: &mut Rng, games: usize) -> Tree {
        let (mut tree, mut two_walks) = (Tree::new(), Tree::new());
        for _ in 0..games {
            let sp = [0, 518, 959][rng.below(3) as usize];
            let line = random_line(rng, sp);
            tree.add_game(sp, &line, WIN);
            add_game_in_two_walks(&mut two_walks, sp, &line);
        }
        assert_eq!(format!("{tree:?}"), format!("{two_walks:?}"));
        tree
    }

    #[test]
    fn games_added_in_one_walk_are_added_as_in_two() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let games = rng.below(80) as usize;
            let tree = random_tree(&mut rng, games);
            assert!(tree.len() <= 3 + 5 * games);
        }
    }

    /// A tree's rows and nested JSON as `pgn960 tree` writes them, closed nodes included.
    fn written(tree: &Tree) -> String {
        let options = WriteOptions {
            depth: 6,
            min_games: 1,
        };
        let (mut csv, mut json) = (Vec::new(), Vec::new());
        write_tree(&mut csv, tree, TextFormat::Csv, options).unwrap();
        write_tree(&mut json, tree, TextFormat::Json, options).unwrap();
        let closed = (0..SPS as u16)
            .filter_map(|sp| tree.root(sp))
            .map(|r| tree.node(r).closed)
            .collect::<Vec<_>>();
        format!(
            "{}{}{closed:?}",
            String::from_utf8_lossy(&csv),
            String::from_utf8_lossy(&json)
        )
    }

    #[test]
    fn logged_games_add_up_to_the_tree_of_merged_chunk_trees() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut direct, mut past_budget) = (0, 0);
        for round in 0..120 {
            let budget = [usize::MAX, 400, 60, 12, 4][round % 5];
            let (mut merged, mut logged, mut scratch) = (Tree::new(), Tree::new(), Tree::new());
            let (mut p_merged, mut p_logged) = (Pruning::default(), Pruning::default());
            let mut log = TreeLog::default();
            for _ in 0..rng.below(12) {
                let mut chunk = Tree::new();
                log.clear();
                for _ in 0..rng.below(40) {
                    let sp = [0, 518, 959, 960][rng.below(4) as usize];
                    let line = random_line(&mut rng, sp.min(959));
                    let game = GameOutcome {
                        white_half_points: rng.below(3) as u8,
                        ratings: (rng.below(2) == 0)
                            .then(|| (1000 + rng.below(2000) as u32, rng.below(3000) as u32)),
                    };
                    chunk.add_game(sp, &line, game);
                    log.push(sp, &line, game);
                }
                let fast =
                    p_logged == Pruning::default() && logged.len() + log.nodes_at_most() <= budget;
                if fast {
                    direct += 1;
                } else {
                    past_budget += 1;
                }
                merge_within(&mut merged, &chunk, budget, &mut p_merged).unwrap();
                add_log_within(&mut logged, &log, &mut scratch, budget, &mut p_logged).unwrap();
                assert_eq!(p_logged, p_merged, "round {round}");
                assert_eq!(logged.len(), merged.len(), "round {round}");
                assert_eq!(written(&logged), written(&merged), "round {round}");
            }
        }
        assert!(direct > 200 && past_budget > 100, "{direct} {past_budget}");
    }

    #[test]
    fn a_node_is_about_100_bytes_as_docs_tree_md_says() {
        assert!(
            std::mem::size_of::<Node>() <= 104,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    #[test]
    fn merge_in_budget_keeps_counts_exact_and_closes_parents() {
        let mut a = Tree::new();
        a.add_game(518, &moves(518, &["e2e4", "e7e5"]), WIN);
        let mut b = Tree::new();
        b.add_game(518, &moves(518, &["e2e4", "c7c5"]), WIN);
        b.add_game(518, &moves(518, &["d2d4"]), WIN);
        let mut whole = Tree::new();
        let mut p = Pruning::default();
        whole.merge(&a, 100, &mut p).unwrap();
        whole.merge(&b, 100, &mut p).unwrap();
        assert_eq!(whole.len(), 5);
        assert_eq!(p, Pruning::default());
        let root = whole.root(518).unwrap();
        assert_eq!(whole.node(root).counts.games, 3);
        // A budget of 3 nodes: e4 (2 games, exact) and e5 kept; c5 and d4 refused.
        let mut small = Tree::new();
        let mut p = Pruning::default();
        small.merge(&a, 3, &mut p).unwrap();
        small.merge(&b, 3, &mut p).unwrap();
        assert_eq!(small.len(), 3);
        assert_eq!(p.nodes_dropped, 2);
        assert_eq!(p.game_tails_dropped, 2);
        let e4 = small.children(root).next().unwrap();
        assert_eq!(small.node(e4).counts.games, 2);
        assert!(small.node(root).closed && small.node(e4).closed);
        // Evicting nodes with one game: e5, c5 and d4 go, their parents are closed.
        whole.evict(2, &mut p);
        assert_eq!(whole.len(), 2);
        let root = whole.root(518).unwrap();
        assert!(whole.node(root).closed);
        // A later game below a closed parent is not counted there.
        let mut c = Tree::new();
        c.add_game(518, &moves(518, &["d2d4"]), WIN);
        let before = p.game_tails_dropped;
        whole.merge(&c, 100, &mut p).unwrap();
        assert_eq!(whole.len(), 2);
        assert_eq!(p.game_tails_dropped, before + 1);
        assert_eq!(whole.node(root).counts.games, 4);
    }
}
