//! Integration tests of `pgn960 tree`.

#[allow(unused_imports)]
use crate::util::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Runs `pgn960 tree INPUTS -o OUT ARGS`; returns the output's text.
fn tree(args: &[&str], inputs: &[&Path], out: &Path) -> String {
    let result = pgn960()
        .arg("tree")
        .args(inputs)
        .arg("-o")
        .arg(out)
        .args(args)
        .output()
        .unwrap();
    // 0: every game counted; 1: some were invalid (the sample holds invalid games on purpose).
    assert!(
        matches!(result.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

/// The corpus when it is there, else the sample fixture.
fn corpus() -> PathBuf {
    shared_data_dir()
        .map(|d| d.join("corpus/lichess-style-4000.pgn"))
        .filter(|p| p.exists())
        .unwrap_or_else(|| fixture("sample.pgn"))
}

/// A CSV table as maps of column name to value, keyed by (sp, path, uci).
type Table = BTreeMap<(String, String, String), BTreeMap<String, String>>;

fn parse(csv: &str) -> Table {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let mut table = Table::new();
    for record in reader.records() {
        let record = record.unwrap();
        let row: BTreeMap<String, String> = header
            .iter()
            .cloned()
            .zip(record.iter().map(String::from))
            .collect();
        let key = (row["sp"].clone(), row["path"].clone(), row["uci"].clone());
        assert!(table.insert(key, row).is_none(), "a node twice");
    }
    table
}

const ORACLE_COLUMNS: [&str; 9] = [
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "rated_games",
    "white_elo_sum",
    "black_elo_sum",
    "eval_games",
    "eval_centipawns",
];

/// Compares our tree of `inputs` at `depth` with python-chess's, node by node.
fn compare_with_python(test: &str, inputs: &[PathBuf], depth: u32) {
    let Some(python) = python_with(test, &["chess"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let ours = parse(&tree(
        &["--depth", &depth.to_string()],
        &refs,
        &dir.path().join("t.csv"),
    ));
    // python-chess reads the games as `clean` writes them: a start `clean` recovered from
    // the moves (`[FEN "?"]`, the sample's game 38) is then in a FEN tag it can read.
    let cleaned = dir.path().join("cleaned.pgn");
    pgn960()
        .args(["clean", "-o"])
        .arg(&cleaned)
        .arg("--rejects")
        .arg(dir.path().join("rejects.pgn"))
        .args(inputs)
        .output()
        .unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/python_chess_tree.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(depth.to_string())
        .arg(&cleaned)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = parse(&String::from_utf8(out.stdout).unwrap());
    assert!(theirs.len() > 1, "the oracle counted nothing");
    let keys = |t: &Table| t.keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&ours), keys(&theirs), "the nodes differ");
    for (key, row) in &theirs {
        for name in ORACLE_COLUMNS {
            assert_eq!(ours[key][name], row[name], "{key:?} {name}");
        }
    }
}

#[test]
fn counts_equal_python_chess_on_the_corpus() {
    compare_with_python(
        "tree::counts_equal_python_chess_on_the_corpus",
        &[corpus()],
        8,
    );
}

#[test]
fn counts_equal_python_chess_on_real_files() {
    const TEST: &str = "tree::counts_equal_python_chess_on_real_files";
    let Some(dir) = shared_data(TEST, "pgn") else {
        return;
    };
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 5);
    compare_with_python(TEST, &files, 10);
}

#[test]
fn merge_of_halves_equals_the_whole_and_threads_do_not_matter() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus();
    let bytes = std::fs::read(&input).unwrap();
    let chunks = pgn_parse::split_at_game_boundaries(&bytes, bytes.len() / 2);
    assert!(chunks.len() >= 2);
    let (a, b) = (dir.path().join("a.pgn"), dir.path().join("b.pgn"));
    std::fs::write(&a, &bytes[..chunks[1].range.start]).unwrap();
    std::fs::write(&b, &bytes[chunks[1].range.start..]).unwrap();
    let whole = tree(&["-j", "1"], &[&input], &dir.path().join("whole.csv"));
    let two = tree(&["-j", "2"], &[&input], &dir.path().join("two.csv"));
    assert_eq!(whole, two, "-j1 and -j2 differ");
    assert!(whole.lines().count() > 100);
    tree(&[], &[&a], &dir.path().join("a.csv"));
    tree(&[], &[&b], &dir.path().join("b.csv"));
    let merged = tree(
        &["--merge"],
        &[&dir.path().join("a.csv"), &dir.path().join("b.csv")],
        &dir.path().join("m.csv"),
    );
    assert_eq!(merged, whole);
}

/// Every row of `part` is the row of the same node in `whole` (`complete` apart).
fn rows_are_exact(part: &Table, whole: &Table) {
    for (key, row) in part {
        let full = whole
            .get(key)
            .unwrap_or_else(|| panic!("{key:?} is not a node"));
        for (name, value) in row {
            if name != "complete" {
                assert_eq!(value, &full[name], "{key:?} {name}");
            }
        }
    }
}

/// The key of the parent of a node's row (`None` for a start position's row).
fn parent(key: &(String, String, String)) -> Option<(String, String, String)> {
    let (sp, path, uci) = key;
    if uci.is_empty() {
        return None;
    }
    Some(match path.rsplit_once(' ') {
        Some((before, last)) => (sp.clone(), before.to_string(), last.to_string()),
        None if path.is_empty() => (sp.clone(), String::new(), String::new()),
        None => (sp.clone(), String::new(), path.clone()),
    })
}

#[test]
fn min_games_prunes_whole_branches_and_keeps_counts_exact() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus();
    let whole = parse(&tree(&[], &[&input], &dir.path().join("w.csv")));
    let pruned = parse(&tree(
        &["--min-games", "3"],
        &[&input],
        &dir.path().join("p.csv"),
    ));
    rows_are_exact(&pruned, &whole);
    for (key, row) in &whole {
        let kept = pruned.contains_key(key);
        let games: u64 = row["games"].parse().unwrap();
        // Start positions' rows always; moves with at least 3 games.
        assert_eq!(kept, key.2.is_empty() || games >= 3, "{key:?}");
        if !kept {
            if let Some(p) = parent(key).filter(|p| pruned.contains_key(p)) {
                assert_eq!(pruned[&p]["complete"], "false", "{p:?}");
            }
        }
    }
    assert!(pruned.len() < whole.len());
}

#[test]
fn a_small_node_budget_writes_only_exact_nodes_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus();
    let whole = parse(&tree(&[], &[&input], &dir.path().join("w.csv")));
    let report = dir.path().join("r.json");
    let budget = (whole.len() / 4).max(2).to_string();
    let small = parse(&tree(
        &[
            "--max-nodes",
            &budget,
            "--report",
            report.to_str().unwrap(),
            "-j",
            "2",
        ],
        &[&input],
        &dir.path().join("s.csv"),
    ));
    rows_are_exact(&small, &whole);
    // The start positions' roots are not counted against the budget.
    let roots = whole.keys().filter(|k| k.2.is_empty()).count();
    assert!(
        small.len() <= whole.len() / 4 + roots,
        "{} rows",
        small.len()
    );
    assert!(small.len() < whole.len());
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(r["pruned"], true);
    assert!(r["pruning"]["game_tails_dropped"].as_u64().unwrap() > 0);
    // Every node absent below a written parent is declared: the parent is not complete.
    for key in whole.keys() {
        if let Some(p) = parent(key).filter(|p| small.contains_key(p) && !small.contains_key(key)) {
            assert_eq!(small[&p]["complete"], "false", "{p:?}");
        }
    }
}

#[test]
fn merging_pruned_tables_keeps_only_exact_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus();
    let bytes = std::fs::read(&input).unwrap();
    let chunks = pgn_parse::split_at_game_boundaries(&bytes, bytes.len() / 2);
    let (a, b) = (dir.path().join("a.pgn"), dir.path().join("b.pgn"));
    std::fs::write(&a, &bytes[..chunks[1].range.start]).unwrap();
    std::fs::write(&b, &bytes[chunks[1].range.start..]).unwrap();
    let whole = parse(&tree(&[], &[&input], &dir.path().join("w.csv")));
    tree(&["--min-games", "2"], &[&a], &dir.path().join("a.csv"));
    tree(&["--min-games", "2"], &[&b], &dir.path().join("b.csv"));
    let merged = parse(&tree(
        &["--merge"],
        &[&dir.path().join("a.csv"), &dir.path().join("b.csv")],
        &dir.path().join("m.csv"),
    ));
    rows_are_exact(&merged, &whole);
    assert!(merged.len() > 960.min(whole.len() / 100));
}

#[test]
fn merge_refuses_other_tables() {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.csv");
    pgn960()
        .args(["stats", "-o"])
        .arg(&stats)
        .arg(fixture("sample.pgn"))
        .assert()
        .code(1);
    let out = pgn960()
        .args(["tree", "--merge"])
        .arg(&stats)
        .arg("-o")
        .arg(dir.path().join("m.csv"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a table written by pgn960 tree"), "{err}");
    assert!(!dir.path().join("m.csv").exists());
}

const SP518: &str =
    "[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n";

fn game(tags: &str, moves: &str, result: &str) -> String {
    format!("[Event \"x\"]\n[Result \"{result}\"]\n{tags}{SP518}\n{moves} {result}\n\n")
}

#[test]
fn json_positions_castling_evals_and_performance() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let rated = "[WhiteElo \"2000\"]\n[BlackElo \"1800\"]\n";
    let text = [
        game(
            rated,
            "1. Nf3 { [%eval 0.25] } Nf6 { [%eval #-2] } 2. g3 (2. e4) 2... g6 3. Bg2 Bg7 4. O-O",
            "1-0",
        ),
        game(rated, "1. g3 { [%eval 12.5] } Nf6 2. Nf3", "0-1"),
        game("", "1. g3 Nf6 2. Nf3 g6", "1/2-1/2"),
    ]
    .concat();
    std::fs::write(&pgn, text).unwrap();
    let csv = parse(&tree(&[], &[&pgn], &dir.path().join("t.csv")));
    let root = &csv[&("518".into(), String::new(), String::new())];
    assert_eq!(root["games"], "3");
    let nf3 = &csv[&("518".into(), String::new(), "g1f3".into())];
    assert_eq!(
        (nf3["san"].as_str(), nf3["mean_eval"].as_str()),
        ("Nf3", "0.25")
    );
    // White (2000) won against 1800: 1800 + 400.
    assert_eq!(nf3["performance"], "2200.0");
    let nf6 = &csv[&("518".into(), "g1f3".into(), "g8f6".into())];
    assert_eq!(nf6["mean_eval"], "-10.0");
    assert_eq!(nf6["performance"], "1600.0");
    let g3 = &csv[&("518".into(), String::new(), "g2g3".into())];
    assert_eq!(
        (g3["games"].as_str(), g3["mean_eval"].as_str()),
        ("2", "10.0")
    );
    assert_eq!(g3["mean_white_elo"], "2000.0");
    let castle = &csv[&(
        "518".into(),
        "g1f3 g8f6 g2g3 g7g6 f1g2 f8g7".into(),
        "e1h1".into(),
    )];
    assert_eq!(castle["san"], "O-O");
    // --depth 2 as JSON: one SP, its first moves nested.
    let json = tree(&["--depth", "2"], &[&pgn], &dir.path().join("t.json"));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sps = v.as_array().unwrap();
    assert_eq!(sps.len(), 1);
    assert_eq!(sps[0]["games"], 3);
    let firsts = sps[0]["moves"].as_array().unwrap();
    assert_eq!(firsts[0]["san"], "g3");
    assert_eq!(firsts[0]["moves"][0]["san"], "Nf6");
    assert_eq!(firsts[0]["moves"][0]["complete"], false);
    // Positions: after 1. Nf3 Nf6 2. g3 and 1. g3 Nf6 2. Nf3 the same position, 3 games.
    let pos = tree(&["--positions"], &[&pgn], &dir.path().join("p.csv"));
    let mut reader = csv::Reader::from_reader(pos.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let after3 = rows
        .iter()
        .find(|r| &r[3] == "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKB1R b KQkq -")
        .expect("the transposed position");
    assert_eq!((&after3[1], &after3[4]), ("3", "3"));
}

#[test]
fn sp_and_filters_select_games() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus();
    let report = dir.path().join("r.json");
    let csv = parse(&tree(
        &[
            "--sp",
            "0-479",
            "--min-elo",
            "1500",
            "--depth",
            "2",
            "--report",
            report.to_str().unwrap(),
        ],
        &[&input],
        &dir.path().join("t.csv"),
    ));
    assert!(csv.keys().all(|k| k.0.parse::<u16>().unwrap() < 480));
    assert!(csv
        .values()
        .all(|r| r["mean_white_elo"].is_empty()
            || r["mean_white_elo"].parse::<f64>().unwrap() >= 1500.0));
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let excluded: u64 = r["excluded"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(
        r["games_read"].as_u64().unwrap(),
        r["counted"].as_u64().unwrap() + excluded
    );
    let roots: u64 = csv
        .iter()
        .filter(|(k, _)| k.2.is_empty())
        .map(|(_, r)| r["games"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(roots, r["counted"].as_u64().unwrap());
}

#[test]
fn merge_refuses_impossible_rows() {
    let dir = tempfile::tempdir().unwrap();
    let table = tree(&[], &[&fixture("sample.pgn")], &dir.path().join("t.csv"));
    let lines: Vec<&str> = table.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (games, rated, elo) = (
        column("games"),
        column("rated_games"),
        column("white_elo_sum"),
    );
    // A start position's row with rated games (the first row whose path is empty).
    let root = lines
        .iter()
        .position(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            cells.len() == header.len()
                && cells[1].is_empty()
                && cells[rated] != "0"
                && cells[games] != "games"
        })
        .expect("a rated start position row");
    let with = |edit: &dyn Fn(&mut Vec<String>)| {
        let mut rows: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        edit(&mut rows);
        rows.join("\n") + "\n"
    };
    let huge_elo = with(&|rows| {
        let mut cells: Vec<String> = rows[root].split(',').map(str::to_string).collect();
        cells[elo] = u64::MAX.to_string();
        rows[root] = cells.join(",");
    });
    let twice = with(&|rows| {
        let row = rows[root].clone();
        rows.insert(root + 1, row);
    });
    for (name, text, says) in [
        ("elo.csv", huge_elo, "white_elo_sum"),
        ("twice.csv", twice, "has two rows"),
    ] {
        let input = dir.path().join(name);
        std::fs::write(&input, text).unwrap();
        let out = dir.path().join(format!("m-{name}"));
        let run = pgn960()
            .args(["tree", "--merge"])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(says) && err.contains(name), "{name}: {err}");
        assert!(!out.exists(), "{name}");
    }
}

#[test]
fn merge_refuses_a_line_longer_than_a_table_row_can_be() {
    // The CSV reader holds a row whole: a 2 MiB line is refused, not read into memory, by
    // both readers of tables.
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.csv");
    pgn960()
        .args(["stats", "--strata", "none", "-o"])
        .arg(&stats)
        .arg(fixture("sample.pgn"))
        .assert()
        .code(1);
    let tree_table = tree(&[], &[&fixture("sample.pgn")], &dir.path().join("t.csv"));
    let long = "x".repeat(2 << 20);
    for (command, table) in [
        ("stats", std::fs::read_to_string(&stats).unwrap()),
        ("tree", tree_table),
    ] {
        let input = dir.path().join(format!("{command}-long.csv"));
        std::fs::write(&input, format!("{table}{long}\n")).unwrap();
        // `report --from-stats` is the other reader of stats tables.
        let readers: &[&[&str]] = if command == "stats" {
            &[&["stats", "--merge"], &["report", "--from-stats"]]
        } else {
            &[&["tree", "--merge"]]
        };
        for args in readers {
            let extension = if args[0] == "report" { "html" } else { "csv" };
            let out = dir.path().join(format!("{}-out.{extension}", args[0]));
            let run = pgn960()
                .args(*args)
                .arg(&input)
                .arg("-o")
                .arg(&out)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&run.stderr);
            assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains("a line longer than 1048576 bytes"),
                "{args:?}: {err}"
            );
            assert!(!out.exists(), "{args:?}");
        }
    }
}
