//! Trees as tables: one CSV row per node (a root row per start position, then its moves
//! depth first), a nested JSON tree per start position, and CSV tables read back for
//! exact merging.

use super::{Node, NodeCounts, Tree};
use crate::input::{LineLimit, MAX_TABLE_LINE};
use crate::{Error, Result};
use chess960_core::{CastlingNotation, Color, Position};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::io::Write;

/// The CSV header: the columns of the issue in their order, then `complete` and the sums
/// that make merging exact.
pub const HEADER: [&str; 20] = [
    "sp",
    "path",
    "san",
    "uci",
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "white_score",
    "mean_white_elo",
    "mean_black_elo",
    "performance",
    "mean_eval",
    "complete",
    "rated_games",
    "white_elo_sum",
    "black_elo_sum",
    "rated_white_half_points",
    "eval_games",
    "eval_centipawns",
];

/// One node as a row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeRow {
    /// Start position number.
    pub sp: u16,
    /// UCI_Chess960 moves before this one, space-separated (empty for a first move and for
    /// the start position's own row).
    pub path: String,
    /// The move in SAN with `+`/`#` (empty in the start position's row).
    pub san: String,
    /// The move in UCI_Chess960, castling as the king onto its rook (empty in the start
    /// position's row).
    pub uci: String,
    /// Games through this node.
    pub games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// White's score per game.
    pub white_score: Option<f64>,
    /// Mean white rating over rated games.
    pub mean_white_elo: Option<f64>,
    /// Mean black rating over rated games.
    pub mean_black_elo: Option<f64>,
    /// Rating performance of the side that played the move over rated games: the mean
    /// opponent rating + 400 (wins - losses) / games.
    pub performance: Option<f64>,
    /// Mean evaluation after the move in pawns, white's view, each capped at ±10 (a mate
    /// counts as 10 for the side that mates).
    pub mean_eval: Option<f64>,
    /// Whether every child of this node is in the table (false at the depth limit, below
    /// `--min-games` and where the node budget closed the node).
    pub complete: bool,
    /// Games where both players have a rating.
    pub rated_games: u64,
    /// Sum of white ratings over rated games.
    pub white_elo_sum: u64,
    /// Sum of black ratings over rated games.
    pub black_elo_sum: u64,
    /// White's half points over rated games.
    pub rated_white_half_points: u64,
    /// Games with an evaluation after this move.
    pub eval_games: u64,
    /// Sum of those evaluations in centipawns (capped).
    pub eval_centipawns: i64,
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The rating performance over rated games of `mover`: the mean opponent rating plus
/// 400 (wins - losses) / games (the linear rule; 100% scores +400).
pub fn performance(c: &NodeCounts, mover: Color) -> Option<f64> {
    if c.rated_games == 0 {
        return None;
    }
    let n = c.rated_games as f64;
    // 2W + D - (W + D + L) = W - L, from white's side.
    let white_margin = c.rated_white_half_points as f64 - n;
    let (opponent_sum, margin) = match mover {
        Color::White => (c.black_elo_sum, white_margin),
        Color::Black => (c.white_elo_sum, -white_margin),
    };
    Some(round6(opponent_sum as f64 / n + 400.0 * margin / n))
}

impl NodeRow {
    /// The row of a node whose move (if any) was played by `mover`.
    pub fn new(
        sp: u16,
        path: String,
        san: String,
        uci: String,
        mover: Option<Color>,
        c: &NodeCounts,
        complete: bool,
    ) -> NodeRow {
        let per = |x: f64, n: u64| (n > 0).then(|| round6(x / n as f64));
        NodeRow {
            sp,
            path,
            san,
            uci,
            games: c.games,
            white_wins: c.white_wins,
            draws: c.draws,
            black_wins: c.black_wins,
            white_score: per(c.white_wins as f64 + c.draws as f64 / 2.0, c.games),
            mean_white_elo: per(c.white_elo_sum as f64, c.rated_games),
            mean_black_elo: per(c.black_elo_sum as f64, c.rated_games),
            performance: mover.and_then(|m| performance(c, m)),
            mean_eval: per(c.eval_centipawns as f64 / 100.0, c.eval_games),
            complete,
            rated_games: c.rated_games,
            white_elo_sum: c.white_elo_sum,
            black_elo_sum: c.black_elo_sum,
            rated_white_half_points: c.rated_white_half_points,
            eval_games: c.eval_games,
            eval_centipawns: c.eval_centipawns,
        }
    }

    /// The counts this row was made from.
    pub fn counts(&self) -> NodeCounts {
        NodeCounts {
            games: self.games,
            white_wins: self.white_wins,
            draws: self.draws,
            black_wins: self.black_wins,
            rated_games: self.rated_games,
            white_elo_sum: self.white_elo_sum,
            black_elo_sum: self.black_elo_sum,
            rated_white_half_points: self.rated_white_half_points,
            eval_games: self.eval_games,
            eval_centipawns: self.eval_centipawns,
        }
    }
}

/// What is written: nodes down to `depth` plies with at least `min_games` games (the
/// start positions' rows always, when they have games).
#[derive(Debug, Clone, Copy)]
pub struct WriteOptions {
    /// The depth the tree was built to (nodes there are not complete).
    pub depth: u32,
    /// Nodes with fewer games are left out, with their subtrees.
    pub min_games: u64,
}

/// A node on its way out: its row and how deep it is (0: a start position).
pub struct Visit {
    /// The row.
    pub row: NodeRow,
    /// Plies from the start.
    pub ply: u32,
}

/// Calls `enter` for each node written, depth first (start positions in order, children
/// by games, most first, then UCI), and `leave` after its subtree.
pub fn walk(
    tree: &Tree,
    opts: WriteOptions,
    enter: &mut dyn FnMut(Visit) -> io::Result<()>,
    leave: &mut dyn FnMut() -> io::Result<()>,
) -> io::Result<()> {
    for sp in 0..960u16 {
        let (Some(root), Ok(pos)) = (tree.root(sp), Position::from_sp(sp)) else {
            continue;
        };
        let mut path = Vec::new();
        walk_node(tree, sp, root, &pos, None, &mut path, opts, enter, leave)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn walk_node(
    tree: &Tree,
    sp: u16,
    id: u32,
    before: &Position,
    mv: Option<chess960_core::Move>,
    path: &mut Vec<String>,
    opts: WriteOptions,
    enter: &mut dyn FnMut(Visit) -> io::Result<()>,
    leave: &mut dyn FnMut() -> io::Result<()>,
) -> io::Result<()> {
    let node: &Node = tree.node(id);
    let ply = path.len() as u32 + u32::from(mv.is_some());
    let mut children: Vec<(u64, String, u32)> = tree
        .children(id)
        .filter_map(|c| {
            let n = tree.node(c);
            let uci = n.mv?.to_uci(CastlingNotation::KingTakesRook).to_string();
            Some((n.counts.games, uci, c))
        })
        .collect();
    children.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let kept = children
        .iter()
        .take_while(|c| c.0 >= opts.min_games)
        .count();
    let complete = !node.closed && ply < opts.depth && kept == children.len();
    let (pos, row) = match mv {
        None => (
            before.clone(),
            NodeRow::new(
                sp,
                String::new(),
                String::new(),
                String::new(),
                None,
                &node.counts,
                complete,
            ),
        ),
        Some(m) => {
            let san = before.san_plus(m).to_string();
            let uci = m.to_uci(CastlingNotation::KingTakesRook).to_string();
            let row = NodeRow::new(
                sp,
                path.join(" "),
                san,
                uci,
                Some(before.turn()),
                &node.counts,
                complete,
            );
            (before.played_unchecked(m), row)
        }
    };
    enter(Visit { row, ply })?;
    let pushed = mv.map(|m| m.to_uci(CastlingNotation::KingTakesRook).to_string());
    if let Some(uci) = pushed.clone() {
        path.push(uci);
    }
    for (_, _, c) in children.into_iter().take(kept) {
        let child_move = tree.node(c).mv;
        walk_node(tree, sp, c, &pos, child_move, path, opts, enter, leave)?;
    }
    if pushed.is_some() {
        path.pop();
    }
    leave()
}

/// Writes the nested JSON tree, streamed: an array with one object per start position with
/// games, each node's row with `moves`, the array of its children written (one node a line,
/// indented by depth).
pub fn write_json(tree: &Tree, opts: WriteOptions, out: &mut dyn Write) -> io::Result<()> {
    let out = RefCell::new(out);
    // Whether the next node is the first of its array, per open array.
    let firsts = RefCell::new(vec![true]);
    // One node's line, its buffer kept from node to node.
    let line = RefCell::new(Vec::new());
    out.borrow_mut().write_all(b"[")?;
    walk(
        tree,
        opts,
        &mut |v: Visit| {
            let mut firsts = firsts.borrow_mut();
            let mut out = out.borrow_mut();
            if let Some(first) = firsts.last_mut() {
                if !*first {
                    out.write_all(b",")?;
                }
                *first = false;
            }
            let mut line = line.borrow_mut();
            line.clear();
            line.push(b'\n');
            line.resize(1 + 2 * (v.ply as usize + 1), b' ');
            json_fields(&v.row, &mut line)?;
            line.extend_from_slice(b",\"moves\":[");
            out.write_all(&line)?;
            firsts.push(true);
            Ok(())
        },
        &mut || {
            firsts.borrow_mut().pop();
            out.borrow_mut().write_all(b"]}")?;
            Ok(())
        },
    )?;
    out.borrow_mut().write_all(b"\n]\n")?;
    Ok(())
}

/// `row` as `serde_json::to_vec` writes it, without its closing `}`: the names (plain
/// ASCII) written as they are, each value by serde_json (`tree`'s JSON has a row a node,
/// and serde's names cost more than its values).
fn json_fields(row: &NodeRow, out: &mut Vec<u8>) -> serde_json::Result<()> {
    fn field<T: Serialize + ?Sized>(
        out: &mut Vec<u8>,
        name: &str,
        value: &T,
    ) -> serde_json::Result<()> {
        out.push(if name == "sp" { b'{' } else { b',' });
        out.push(b'"');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"\":");
        serde_json::to_writer(&mut *out, value)
    }
    field(out, "sp", &row.sp)?;
    field(out, "path", &row.path)?;
    field(out, "san", &row.san)?;
    field(out, "uci", &row.uci)?;
    field(out, "games", &row.games)?;
    field(out, "white_wins", &row.white_wins)?;
    field(out, "draws", &row.draws)?;
    field(out, "black_wins", &row.black_wins)?;
    field(out, "white_score", &row.white_score)?;
    field(out, "mean_white_elo", &row.mean_white_elo)?;
    field(out, "mean_black_elo", &row.mean_black_elo)?;
    field(out, "performance", &row.performance)?;
    field(out, "mean_eval", &row.mean_eval)?;
    field(out, "complete", &row.complete)?;
    field(out, "rated_games", &row.rated_games)?;
    field(out, "white_elo_sum", &row.white_elo_sum)?;
    field(out, "black_elo_sum", &row.black_elo_sum)?;
    field(out, "rated_white_half_points", &row.rated_white_half_points)?;
    field(out, "eval_games", &row.eval_games)?;
    field(out, "eval_centipawns", &row.eval_centipawns)
}

/// Reads a CSV table written by `pgn960 tree` (`name` names it in messages) into a tree,
/// each node closed when its row says it is not complete. A table whose header is not ours,
/// a row that cannot be (counts that do not add up, an illegal move, a parent missing or
/// with fewer games, a node twice) is an [`Error::Content`] naming the table and row.
pub fn read_csv(name: &str, bytes: impl io::Read) -> Result<Tree> {
    let fail = |message: String| Error::Content {
        name: name.to_string(),
        message,
    };
    let mut reader = csv::Reader::from_reader(LineLimit::new(bytes, MAX_TABLE_LINE));
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| fail(format!("cannot read: {e}")))?
        .iter()
        .map(str::to_string)
        .collect();
    if header != HEADER {
        return Err(fail(format!(
            "not a table written by pgn960 tree (its header is {:?}; --positions tables cannot be merged)",
            header.join(",")
        )));
    }
    let mut tree = Tree::new();
    // (sp, moves so far including this node's) -> node.
    let mut ids: HashMap<(u16, String), u32> = HashMap::new();
    for (i, row) in reader.deserialize::<NodeRow>().enumerate() {
        let at = |why: String| fail(format!("row {}: {why}", i + 2));
        let row = row.map_err(|e| at(format!("not a pgn960 tree row: {e}")))?;
        add_row(&mut tree, &mut ids, &row).map_err(at)?;
    }
    Ok(tree)
}

/// Adds one row of a tree table to `tree` (`ids`: the nodes of the rows so far).
fn add_row(
    tree: &mut Tree,
    ids: &mut HashMap<(u16, String), u32>,
    row: &NodeRow,
) -> Result<(), String> {
    let counts = row.counts();
    counts.check()?;
    let Ok(mut pos) = Position::from_sp(row.sp) else {
        return Err(format!("SP {} is out of range", row.sp));
    };
    let id = if row.uci.is_empty() {
        if !row.path.is_empty() || !row.san.is_empty() {
            return Err("a start position's row has no path and no move".to_string());
        }
        if tree.root(row.sp).is_some() {
            return Err(format!("SP {} has two rows", row.sp));
        }
        let Some(root) = tree.root_mut(row.sp) else {
            return Err(format!("SP {} is out of range", row.sp));
        };
        ids.insert((row.sp, String::new()), root);
        root
    } else {
        let Some(&parent) = ids.get(&(row.sp, row.path.clone())) else {
            return Err(format!(
                "its parent (SP {}, path {:?}) is not in an earlier row",
                row.sp, row.path
            ));
        };
        for uci in row.path.split_whitespace() {
            let m = pos
                .parse_uci(uci)
                .map_err(|e| format!("path move {uci:?}: {e}"))?;
            pos.play_unchecked(m);
        }
        let m = pos
            .parse_uci(&row.uci)
            .map_err(|e| format!("move {:?}: {e}", row.uci))?;
        if tree.node(parent).counts.games < row.games {
            return Err("more games than its parent row".to_string());
        }
        if tree.children(parent).any(|c| tree.node(c).mv == Some(m)) {
            return Err("the same move twice after one path".to_string());
        }
        let key = if row.path.is_empty() {
            row.uci.clone()
        } else {
            format!("{} {}", row.path, row.uci)
        };
        let id = tree.add_child(parent, m);
        ids.insert((row.sp, key), id);
        id
    };
    let node = tree.node_mut(id);
    node.counts = counts;
    node.closed = !row.complete;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn float() -> impl Strategy<Value = Option<f64>> {
        prop_oneof![
            Just(None),
            Just(Some(f64::NAN)),
            Just(Some(f64::INFINITY)),
            Just(Some(1601.0)),
            any::<f64>().prop_map(Some),
            (-2_000_000i64..2_000_000).prop_map(|n| Some(n as f64 / 1e3)),
        ]
    }

    proptest! {
        /// A node's JSON written field by field is serde's, but for the closing brace.
        #[test]
        fn json_fields_are_serdes(
            sp in any::<u16>(),
            texts in proptest::collection::vec("[a-h1-8 +#=QRBNKO\\-\"\\\\\u{e9}\n]{0,12}", 3),
            counts in proptest::collection::vec(any::<u64>(), 10),
            floats in proptest::collection::vec(float(), 5),
            complete in any::<bool>(),
            centipawns in any::<i64>(),
        ) {
            let row = NodeRow {
                sp,
                path: texts[0].clone(),
                san: texts[1].clone(),
                uci: texts[2].clone(),
                games: counts[0],
                white_wins: counts[1],
                draws: counts[2],
                black_wins: counts[3],
                white_score: floats[0],
                mean_white_elo: floats[1],
                mean_black_elo: floats[2],
                performance: floats[3],
                mean_eval: floats[4],
                complete,
                rated_games: counts[4],
                white_elo_sum: counts[5],
                black_elo_sum: counts[6],
                rated_white_half_points: counts[7],
                eval_games: counts[8],
                eval_centipawns: centipawns,
            };
            let mut ours = Vec::new();
            json_fields(&row, &mut ours).unwrap();
            ours.push(b'}');
            prop_assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&row).unwrap());
        }
    }

    #[test]
    fn performance_is_linear_in_the_margin() {
        let c = NodeCounts {
            games: 4,
            white_wins: 3,
            draws: 0,
            black_wins: 1,
            rated_games: 4,
            white_elo_sum: 4 * 1500,
            black_elo_sum: 4 * 1700,
            rated_white_half_points: 6,
            eval_games: 0,
            eval_centipawns: 0,
        };
        // White: 1700 + 400 * (3 - 1) / 4; black: 1500 - 200.
        assert_eq!(performance(&c, Color::White), Some(1900.0));
        assert_eq!(performance(&c, Color::Black), Some(1300.0));
    }
}
