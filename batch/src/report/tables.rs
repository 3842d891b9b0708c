//! Filling the page from tables written earlier: `--from-stats` (CSV tables of
//! `pgn960 stats`, with or without `--by` key columns, SP or Double Chess960) and
//! `--from-tree` (the JSON tree of `pgn960 tree`).

use super::{value_rank, CutCells, PageSummary, Tally, TreeNode, TreeSection};
use anyhow::{bail, Context, Result};
use pgn960::input::{LineLimit, MAX_TABLE_LINE};
use pgn960::stats::by::{ByKey, KeyValue};
use pgn960::stats::table::SpCounts;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The columns of a stats row the page needs (the others are derived, or ignored).
#[derive(Debug, Deserialize)]
struct StatsRecord {
    sp: u16,
    #[serde(default)]
    black_sp: Option<u16>,
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    #[serde(default)]
    rated_games: u64,
    #[serde(default)]
    white_elo_sum: u64,
    #[serde(default)]
    black_elo_sum: u64,
    #[serde(default)]
    rated_white_half_points: u64,
    #[serde(default)]
    expected_micropoints: u64,
}

impl StatsRecord {
    fn counts(&self) -> SpCounts {
        SpCounts {
            games: self.games,
            white_wins: self.white_wins,
            draws: self.draws,
            black_wins: self.black_wins,
            rated_games: self.rated_games,
            white_elo_sum: self.white_elo_sum,
            black_elo_sum: self.black_elo_sum,
            rated_white_half_points: self.rated_white_half_points,
            expected_micropoints: self.expected_micropoints,
            ..SpCounts::default()
        }
    }
}

/// What one stats file holds, summed.
#[derive(Default)]
struct FileSums {
    sp: Option<Vec<SpCounts>>,
    pairs: Option<BTreeMap<(u16, u16), SpCounts>>,
    cuts: Vec<(String, CutCells)>,
}

fn add(target: &mut SpCounts, c: &SpCounts, at: &dyn Fn() -> String) -> Result<()> {
    target
        .checked_merge(c)
        .with_context(|| format!("{}: the sums overflow", at()))
}

impl FileSums {
    /// Adds one row of a table (`record`, read as `row` with `counts`) to the sums: its SP
    /// or pair, and the cell of each of its `by` keys.
    fn add_row(
        &mut self,
        record: &csv::StringRecord,
        row: &StatsRecord,
        counts: &SpCounts,
        by: &[Option<ByKey>],
        at: &dyn Fn() -> String,
    ) -> Result<()> {
        match (&mut self.sp, &mut self.pairs, row.black_sp) {
            (Some(by_sp), _, None) => add(&mut by_sp[usize::from(row.sp)], counts, at)?,
            (_, Some(pairs), Some(black)) => {
                add(pairs.entry((row.sp, black)).or_default(), counts, at)?
            }
            _ => bail!("{}: black_sp does not match the table's header", at()),
        }
        if self.sp.is_none() {
            return Ok(());
        }
        for (k, (_, values)) in self.cuts.iter_mut().enumerate() {
            let value = record.get(k).unwrap_or_default().to_string();
            let rank = match by[k] {
                Some(key) => value_rank(
                    &KeyValue::parse(key, &value)
                        .map_err(|why| anyhow::anyhow!("{}: {why}", at()))?,
                ),
                None => u64::from(!value.is_empty()),
            };
            let cell = values.entry((rank, value)).or_default();
            add(cell.entry(row.sp).or_default(), counts, at)?;
        }
        Ok(())
    }
}

fn read_stats_file(path: &Path) -> Result<FileSums> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = csv::Reader::from_reader(LineLimit::new(file, MAX_TABLE_LINE));
    let headers = reader
        .headers()
        .with_context(|| format!("cannot read {}", path.display()))?
        .clone();
    let Some(sp_col) = headers.iter().position(|h| h == "sp") else {
        bail!(
            "{}: not a table written by pgn960 stats (no sp column; its header is {:?})",
            path.display(),
            headers.iter().collect::<Vec<_>>().join(",")
        );
    };
    // The key columns of `stats --by` come before `sp`.
    let keys: Vec<String> = headers.iter().take(sp_col).map(str::to_string).collect();
    let pairs = headers.iter().any(|h| h == "black_sp");
    let mut sums = FileSums {
        sp: (!pairs).then(|| vec![SpCounts::default(); 960]),
        pairs: pairs.then(BTreeMap::new),
        cuts: keys.iter().map(|k| (k.clone(), BTreeMap::new())).collect(),
    };
    let by: Vec<Option<ByKey>> = keys.iter().map(|k| ByKey::from_column(k)).collect();
    let mut seen: BTreeMap<(Vec<String>, u16, Option<u16>), usize> = BTreeMap::new();
    let mut rows = 0usize;
    for (i, record) in reader.records().enumerate() {
        let at = || format!("{}: line {}", path.display(), i + 2);
        let record = record.with_context(|| format!("{}: not a CSV row", at()))?;
        let row: StatsRecord = record
            .deserialize(Some(&headers))
            .with_context(|| format!("{}: not a pgn960 stats row", at()))?;
        let labels = record.iter().take(sp_col).map(str::to_string).collect();
        if let Some(first) = seen.insert((labels, row.sp, row.black_sp), i + 2) {
            bail!(
                "{}: the row of SP {} is there twice (first on line {first}): a table of \
                 pgn960 stats has one row per cell and SP",
                at(),
                row.sp
            );
        }
        rows += 1;
        let counts = row.counts();
        counts
            .check()
            .map_err(|why| anyhow::anyhow!("{}: {why}", at()))?;
        if row.sp >= 960 || row.black_sp.is_some_and(|b| b >= 960) {
            bail!("{}: SP {} is out of range", at(), row.sp);
        }
        sums.add_row(&record, &row, &counts, &by, &at)?;
    }
    if keys.is_empty() && !pairs && rows != 960 {
        bail!(
            "{}: line {}: the table ends after {rows} rows; an SP table of pgn960 stats \
             without --by has 960, one per SP",
            path.display(),
            rows + 1
        );
    }
    Ok(sums)
}

/// Reads the tables given with `--from-stats` into the page's counts, and the summary
/// they allow. Every SP table must describe the same games (the same 960 sums, whatever
/// its `--by` keys), as must every Double Chess960 table: a mismatch is an error naming
/// the file.
pub fn from_stats(paths: &[PathBuf]) -> Result<(Tally, PageSummary)> {
    let mut tally = Tally::default();
    let (mut have_sp, mut have_pairs) = (false, false);
    for path in paths {
        let sums = read_stats_file(path)?;
        if let Some(by_sp) = sums.sp {
            if !have_sp {
                tally.overall = by_sp;
                have_sp = true;
            } else if tally.overall != by_sp {
                bail!(
                    "{}: its counts per SP differ from those of the first table: the tables of \
                     one page must come from the same games",
                    path.display()
                );
            }
            for (key, values) in sums.cuts {
                if !tally.cuts.iter().any(|(k, _)| *k == key) {
                    tally.cuts.push((key, values));
                }
            }
        }
        if let Some(pairs) = sums.pairs {
            if !have_pairs {
                tally.pairs = pairs;
                have_pairs = true;
            } else if tally.pairs != pairs {
                bail!(
                    "{}: its Double Chess960 counts differ from those of the first such table",
                    path.display()
                );
            }
        }
    }
    if !have_sp {
        bail!("--from-stats needs an SP table of pgn960 stats (only Double Chess960 tables were given)");
    }
    let mut summary = PageSummary {
        inputs: paths.iter().map(|p| p.display().to_string()).collect(),
        from_tables: true,
        counted: tally.overall.iter().map(|c| c.games).sum(),
        counted_double_chess960: tally.pairs.values().map(|c| c.games).sum(),
        ..PageSummary::default()
    };
    if let Some((_, values)) = tally.cuts.iter().find(|(k, _)| k == "time_control") {
        for ((_, value), by_sp) in values {
            summary
                .speeds
                .insert(value.clone(), by_sp.values().map(|c| c.games).sum());
        }
    }
    Ok((tally, summary))
}

/// A node of the JSON tree of `pgn960 tree` (its other fields are ignored).
#[derive(Debug, Deserialize)]
struct JsonTreeNode {
    sp: u16,
    #[serde(default)]
    san: String,
    #[serde(default)]
    uci: String,
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    #[serde(default)]
    moves: Vec<JsonTreeNode>,
}

/// The moves of `nodes` down to `depth` plies, those with at least `min_games` games, most
/// played first.
fn convert(
    nodes: Vec<JsonTreeNode>,
    depth: u32,
    min_games: u64,
    path: &str,
) -> Result<Vec<TreeNode>> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for n in nodes {
        let sum = n
            .white_wins
            .checked_add(n.draws)
            .and_then(|s| s.checked_add(n.black_wins));
        if sum != Some(n.games) {
            bail!(
                "SP {} after {path:?}, move {}: white_wins + draws + black_wins is not games",
                n.sp,
                n.uci
            );
        }
        if n.games < min_games.max(1) {
            continue;
        }
        let here = if path.is_empty() {
            n.uci.clone()
        } else {
            format!("{path} {}", n.uci)
        };
        let kids = convert(n.moves, depth - 1, min_games, &here)?;
        out.push(TreeNode(
            n.san,
            n.uci,
            n.games,
            n.white_wins,
            n.draws,
            n.black_wins,
            kids,
        ));
    }
    out.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    Ok(out)
}

/// Reads the JSON tree of `pgn960 tree` (`--from-tree`), keeping `depth` plies and moves
/// with at least `min_games` games.
pub fn from_tree(path: &Path, depth: u32, min_games: u64) -> Result<TreeSection> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let roots: Vec<JsonTreeNode> = serde_json::from_reader(std::io::BufReader::new(file))
        .with_context(|| format!("{}: not a JSON tree written by pgn960 tree", path.display()))?;
    tree_section(roots, depth, min_games).with_context(|| format!("in {}", path.display()))
}

/// The section of `roots` (one per SP, or first moves carrying their SP).
fn tree_section(roots: Vec<JsonTreeNode>, depth: u32, min_games: u64) -> Result<TreeSection> {
    let mut section = TreeSection {
        depth,
        min_games,
        pruned_below: None,
        roots: BTreeMap::new(),
    };
    for root in roots {
        if root.sp >= 960 {
            bail!("SP {} is out of range", root.sp);
        }
        let sp = root.sp;
        let moves = if root.uci.is_empty() {
            convert(root.moves, depth, min_games, "")?
        } else {
            convert(vec![root], depth, min_games, "")?
        };
        let entry = section.roots.entry(sp).or_default();
        entry.extend(moves);
        entry.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    }
    section.roots.retain(|_, v| !v.is_empty());
    Ok(section)
}

/// The section of a tree given as JSON text (as `pgn960 tree` writes it).
pub fn tree_section_from_json(json: &str, depth: u32, min_games: u64) -> Result<TreeSection> {
    let roots: Vec<JsonTreeNode> = serde_json::from_str(json)?;
    tree_section(roots, depth, min_games)
}

/// The section of a tree counted in this run: the nodes `pgn960 tree` would write as JSON
/// (the same walk, [`pgn960::tree::table::walk`]), taken as they are walked rather than
/// written out and parsed back.
pub fn tree_section_from_tree(
    tree: &pgn960::tree::Tree,
    depth: u32,
    min_games: u64,
) -> Result<TreeSection> {
    let opts = pgn960::tree::table::WriteOptions { depth, min_games };
    let mut roots: Vec<JsonTreeNode> = Vec::new();
    let open = std::cell::RefCell::new(Vec::<JsonTreeNode>::new());
    pgn960::tree::table::walk(
        tree,
        opts,
        &mut |visit| {
            let r = visit.row;
            open.borrow_mut().push(JsonTreeNode {
                sp: r.sp,
                san: r.san,
                uci: r.uci,
                games: r.games,
                white_wins: r.white_wins,
                draws: r.draws,
                black_wins: r.black_wins,
                moves: Vec::new(),
            });
            Ok(())
        },
        &mut || {
            let mut open = open.borrow_mut();
            if let Some(node) = open.pop() {
                match open.last_mut() {
                    Some(parent) => parent.moves.push(node),
                    None => roots.push(node),
                }
            }
            Ok(())
        },
    )?;
    tree_section(roots, depth, min_games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_depth_and_pruning() {
        let json = r#"[{"sp":518,"path":"","san":"","uci":"","games":3,"white_wins":2,"draws":1,"black_wins":0,
          "moves":[{"sp":518,"san":"e4","uci":"e2e4","games":2,"white_wins":2,"draws":0,"black_wins":0,
                    "moves":[{"sp":518,"san":"e5","uci":"e7e5","games":2,"white_wins":2,"draws":0,"black_wins":0,"moves":[]}]},
                   {"sp":518,"san":"d4","uci":"d2d4","games":1,"white_wins":0,"draws":1,"black_wins":0,"moves":[]}]}]"#;
        let s = tree_section_from_json(json, 1, 1).unwrap();
        let first = &s.roots[&518];
        assert_eq!(first.len(), 2);
        assert_eq!((first[0].0.as_str(), first[0].2), ("e4", 2));
        assert!(first[0].6.is_empty(), "depth 1 keeps first moves only");
        let s = tree_section_from_json(json, 4, 2).unwrap();
        assert_eq!(s.roots[&518].len(), 1);
        assert_eq!(s.roots[&518][0].6[0].0, "e5");
        let bad = r#"[{"sp":518,"san":"e4","uci":"e2e4","games":2,"white_wins":0,"draws":0,"black_wins":0}]"#;
        assert!(tree_section_from_json(bad, 4, 1).is_err());
    }
}
