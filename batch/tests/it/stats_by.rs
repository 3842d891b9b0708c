//! `stats --by`, the significance columns and report, evaluations, results corrected by the
//! final position and `--pairs`, against independent computations: python-chess
//! (`scripts/python_chess_stats.py`: counts and evaluations per cell), scipy/statsmodels
//! (`scripts/significance_oracle.py`: p, q, homogeneity), Python pairing
//! (`scripts/pairs_oracle.py`: pentanomials and Elo).

use crate::util::*;

use pgn960::stats::table::back_rank;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(name)
}

/// Runs `pgn960 stats ARGS`, asserting success; returns standard error.
fn stats(args: &[&str]) -> String {
    let out = pgn960_process().arg("stats").args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    // 1 when games were invalid (docs/outputs.md).
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "stats {args:?}: {stderr}"
    );
    stderr
}

/// A CSV table: its header and rows.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn parse(text: &[u8]) -> Table {
        let mut reader = csv::Reader::from_reader(text);
        let header = reader.headers().unwrap().iter().map(String::from).collect();
        let rows = reader
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
        Table { header, rows }
    }
    fn read(path: &Path) -> Table {
        Table::parse(&std::fs::read(path).unwrap())
    }
    fn column(&self, name: &str) -> Vec<&str> {
        let i = self
            .header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.header));
        self.rows.iter().map(|r| r[i].as_str()).collect()
    }
}

/// A Chess960 game from `sp` with these extra tags.
fn game(sp: u16, tags: &str, moves: &str, result: &str) -> String {
    let rank = back_rank(sp);
    format!(
        "[Event \"g\"]\n[Variant \"Chess960\"]\n{tags}[Result \"{result}\"]\n[FEN \"{}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1\"]\n\n{moves} {result}\n\n",
        rank.to_lowercase()
    )
}

/// A small seeded generator (SplitMix64), so generated files are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

const RESULTS: [&str; 3] = ["1-0", "1/2-1/2", "0-1"];

#[test]
fn by_cells_and_evals_equal_python_chess_on_the_corpus() {
    const TEST: &str = "stats_by::by_cells_and_evals_equal_python_chess_on_the_corpus";
    let Some(corpus) = shared_data(TEST, "corpus/lichess-style-4000.pgn") else {
        return;
    };
    let Some(python) = python_with(TEST, &["chess"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    for (by, width) in [
        ("time-control,rating-band", "200"),
        ("event,year,month,rating-band", "150"),
    ] {
        let mut args = vec![corpus.to_str().unwrap(), "-o", out.to_str().unwrap()];
        let mut py_args = vec![script("python_chess_stats.py")
            .to_str()
            .unwrap()
            .to_string()];
        if !by.is_empty() {
            args.extend(["--by", by, "--band-width", width]);
            py_args.extend([
                "--by".into(),
                by.into(),
                "--band-width".into(),
                width.into(),
            ]);
        }
        stats(&args);
        let ours = Table::read(&out);
        py_args.push(corpus.to_str().unwrap().into());
        let theirs = Command::new(&python).args(&py_args).output().unwrap();
        assert!(
            theirs.status.success(),
            "{}",
            String::from_utf8_lossy(&theirs.stderr)
        );
        let mut theirs = Table::parse(&theirs.stdout);
        assert!(ours
            .header
            .starts_with(&theirs.header[..theirs.header.iter().position(|h| h == "sp").unwrap()]));
        // The oracle writes 960 rows a cell; a table cut --by is long format: the SPs with
        // games only.
        assert_eq!(theirs.rows.len() % 960, 0);
        let games = theirs.header.iter().position(|h| h == "games").unwrap();
        theirs.rows.retain(|r| r[games] != "0");
        assert_eq!(ours.rows.len(), theirs.rows.len(), "--by {by}: rows");
        for name in &theirs.header {
            assert_eq!(
                ours.column(name),
                theirs.column(name),
                "--by {by}: column {name}"
            );
        }
        {
            // The corpus has evaluations (in 391 games).
            let evals: u64 = ours
                .column("eval_games")
                .iter()
                .map(|v| v.parse::<u64>().unwrap())
                .sum();
            assert!(evals > 300, "{evals}");
        }
    }
}

/// Runs the scipy/statsmodels oracle on tables of W/D/L rows.
fn significance_oracle(python: &str, tables: &[(String, Vec<[u64; 3]>)]) -> Value {
    let input = serde_json::json!({
        "tables": tables
            .iter()
            .map(|(name, rows)| serde_json::json!({"name": name, "rows": rows}))
            .collect::<Vec<_>>(),
    });
    let mut child = Command::new(python)
        .arg(script("significance_oracle.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn agree(what: &str, ours: Option<f64>, theirs: Option<f64>) {
    let ok = match (ours, theirs) {
        (None, None) => true,
        (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * b.abs().max(1e-300) || a == b,
        _ => false,
    };
    assert!(ok, "{what}: pgn960 {ours:?}, oracle {theirs:?}");
}

/// Two speeds: blitz with SP 0 far above the rest, bullet where nothing differs.
fn outlier_pgn() -> String {
    let mut text = String::new();
    for (tc, outlier) in [("60+0", false), ("180+2", true)] {
        let tags = format!("[TimeControl \"{tc}\"]\n");
        for sp in 1..=150u16 {
            for k in 0..3u16 {
                let r = RESULTS[usize::from((sp + k) % 3)];
                text.push_str(&game(sp, &tags, "1. a3 a6", r));
            }
        }
        let wins = if outlier { 40 } else { 2 };
        for _ in 0..wins {
            text.push_str(&game(0, &tags, "1. a3 a6", "1-0"));
        }
    }
    text
}

#[test]
fn p_q_and_homogeneity_agree_with_scipy_per_cell() {
    const TEST: &str = "stats_by::p_q_and_homogeneity_agree_with_scipy_per_cell";
    let Some(python) = python_with(TEST, &["scipy", "statsmodels"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, outlier_pgn()).unwrap();
    let mut inputs = vec![pgn.clone()];
    if let Some(dir) = shared_data_dir() {
        let corpus = dir.join("corpus/lichess-style-4000.pgn");
        if corpus.exists() {
            inputs.push(corpus);
        }
    }
    for input in &inputs {
        let (out, report) = (dir.path().join("s.csv"), dir.path().join("r.json"));
        stats(&[
            input.to_str().unwrap(),
            "--by",
            "time-control",
            "-o",
            out.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ]);
        let table = Table::read(&out);
        let report: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        let mut cells: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        // Cells in row order: the order of first appearance.
        let mut order: Vec<String> = Vec::new();
        for (i, key) in table.column("time_control").iter().enumerate() {
            if !cells.contains_key(*key) {
                order.push(key.to_string());
            }
            cells.entry(key.to_string()).or_default().push(i);
        }
        let wdl = |name: &str, i: usize| table.column(name)[i].parse::<u64>().unwrap();
        let tables: Vec<(String, Vec<[u64; 3]>)> = order
            .iter()
            .map(|key| {
                let rows = cells[key]
                    .iter()
                    .map(|&i| [wdl("white_wins", i), wdl("draws", i), wdl("black_wins", i)])
                    .collect();
                (key.clone(), rows)
            })
            .collect();
        let oracle = significance_oracle(&python, &tables);
        let cell_reports = report["significance"].as_array().unwrap();
        assert_eq!(cell_reports.len(), order.len());
        for (k, key) in order.iter().enumerate() {
            let o = &oracle["tables"][k];
            for (j, &i) in cells[key].iter().enumerate() {
                let ours = |name: &str| table.column(name)[i].parse::<f64>().ok();
                agree(
                    &format!("{key} row {j} p"),
                    ours("p_value"),
                    num(&o["p"][j]),
                );
                agree(
                    &format!("{key} row {j} q"),
                    ours("q_value"),
                    num(&o["q"][j]),
                );
            }
            let r = &cell_reports[k];
            assert_eq!(r["key"]["time_control"], key.as_str());
            let (h, oh) = (&r["homogeneity"], &o["homogeneity"]);
            assert_eq!(h["df"], oh["df"], "{key}");
            agree(&format!("{key} chi2"), num(&h["chi2"]), num(&oh["chi2"]));
            assert_eq!(h["method"], oh["method"], "{key}");
            match (num(&h["monte_carlo_se"]), num(&oh["p_se"])) {
                (Some(se), Some(their_se)) => {
                    let (ours, theirs) = (num(&h["p"]).unwrap(), num(&oh["p"]).unwrap());
                    let tolerance = 4.5 * (se * se + their_se * their_se).sqrt() + 1e-3;
                    assert!(
                        (ours - theirs).abs() <= tolerance,
                        "{key}: {ours} vs {theirs}"
                    );
                }
                _ => agree(&format!("{key} homogeneity p"), num(&h["p"]), num(&oh["p"])),
            }
            let verdict = r["verdict"].as_str().unwrap();
            let differs = o["differs"].as_bool().unwrap();
            if o["differs_undecided"] != Value::Bool(true) {
                assert_eq!(verdict.starts_with("Yes"), differs, "{key}: {verdict}");
            }
        }
        if *input == pgn {
            assert_eq!(order, ["bullet", "blitz"]);
            assert_eq!(cell_reports[1]["significant_sps"], serde_json::json!([0]));
            assert_eq!(cell_reports[0]["significant_sps"], serde_json::json!([]));
        }
    }
}

#[test]
fn chart_names_only_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, outlier_pgn()).unwrap();
    let (out, chart) = (dir.path().join("s.csv"), dir.path().join("c.svg"));
    let args = |input: &Path| {
        stats(&[
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--chart",
            chart.to_str().unwrap(),
        ]);
        std::fs::read_to_string(&chart).unwrap()
    };
    let svg = args(&pgn);
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("SP 0 BBQNNRKR"), "the outlier is named");
    assert!(svg.contains("95% funnel"));
    assert!(!svg.contains("No SP stands out"));
    // Nothing differs in the sample: nothing is named.
    let svg = args(&fixture("sample.pgn"));
    assert!(svg.contains("No SP stands out"));
    assert!(!svg.contains("best") && !svg.contains("worst"));
}

#[test]
fn merge_of_by_tables_is_exact_and_keys_must_match() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = shared_data_dir()
        .map(|d| d.join("corpus/lichess-style-4000.pgn"))
        .filter(|p| p.exists())
        .unwrap_or_else(|| fixture("sample.pgn"));
    let bytes = std::fs::read(&input).unwrap();
    let chunks = pgn_parse::split_at_game_boundaries(&bytes, bytes.len() / 2);
    let (a, b) = (d.join("a.pgn"), d.join("b.pgn"));
    std::fs::write(&a, &bytes[..chunks[1].range.start]).unwrap();
    std::fs::write(&b, &bytes[chunks[1].range.start..]).unwrap();
    let p = |name: &str| d.join(name).to_str().unwrap().to_string();
    let by = "time-control,rating-band";
    for (input, out) in [(&input, "whole.csv"), (&a, "a.csv"), (&b, "b.csv")] {
        stats(&[input.to_str().unwrap(), "--by", by, "-o", &p(out)]);
    }
    stats(&["--merge", &p("a.csv"), &p("b.csv"), "-o", &p("m.csv")]);
    assert_eq!(
        std::fs::read(p("m.csv")).unwrap(),
        std::fs::read(p("whole.csv")).unwrap()
    );
    stats(&[
        "--merge",
        "--by",
        by,
        &p("a.csv"),
        &p("b.csv"),
        "-o",
        &p("m2.csv"),
    ]);
    assert_eq!(
        std::fs::read(p("m2.csv")).unwrap(),
        std::fs::read(p("whole.csv")).unwrap()
    );
    // Other keys are refused: a plain table, or other --by keys.
    stats(&[input.to_str().unwrap(), "-o", &p("plain.csv")]);
    for args in [
        vec!["--merge", &p("a.csv"), &p("plain.csv")],
        vec!["--merge", "--by", "month", &p("a.csv")],
    ] {
        let out = pgn960_process()
            .arg("stats")
            .args(&args)
            .args(["-o", &p("x.csv")])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(stderr.contains("same keys"), "{stderr}");
    }
}

#[test]
fn dfrc_by_json_and_results_corrected() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let dfrc = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut text = String::new();
    for (tc, r) in [("60+0", "1-0"), ("180+0", "0-1"), ("180+0", "1-0")] {
        text.push_str(&format!(
            "[Variant \"Chess960\"]\n[TimeControl \"{tc}\"]\n[Result \"{r}\"]\n[FEN \"{dfrc}\"]\n\n1. e4 e5 {r}\n\n"
        ));
    }
    // Fool's mate tagged as a white win: the position says black won.
    text.push_str(&game(
        518,
        "[TimeControl \"180+0\"]\n",
        "1. f3 e5 2. g4 Qh4#",
        "1-0",
    ));
    let pgn = d.join("g.pgn");
    std::fs::write(&pgn, text).unwrap();
    let p = |name: &str| d.join(name).to_str().unwrap().to_string();
    let stderr = stats(&[
        pgn.to_str().unwrap(),
        "--by",
        "time-control",
        "-o",
        &p("s.csv"),
        "--dfrc-table",
        &p("d.csv"),
        "--report",
        &p("r.json"),
    ]);
    assert!(
        stderr.contains("results corrected by the final position: 1"),
        "{stderr}"
    );
    let pairs = std::fs::read_to_string(p("d.csv")).unwrap();
    let lines: Vec<&str> = pairs.lines().collect();
    assert!(
        lines[0].starts_with("time_control,sp,black_sp,start,games,"),
        "{pairs}"
    );
    assert!(
        lines[1].starts_with("bullet,518,0,RNBQKBNR,1,1,0,0,"),
        "{pairs}"
    );
    assert!(
        lines[2].starts_with("blitz,518,0,RNBQKBNR,2,1,0,1,"),
        "{pairs}"
    );
    assert_eq!(lines.len(), 3);
    // Long format: the SPs with games of each cell only (here SP 518 in blitz).
    let sp = Table::read(&d.join("s.csv"));
    assert_eq!(sp.rows.len(), 1);
    assert_eq!(sp.column("sp")[0], "518");
    assert_eq!(sp.column("time_control")[0], "blitz");
    assert_eq!(sp.column("black_wins")[0], "1");
    let report: Value = serde_json::from_slice(&std::fs::read(p("r.json")).unwrap()).unwrap();
    assert_eq!(report["results_corrected"], 1);
    assert_eq!(report["by"], serde_json::json!(["time_control"]));
    // The Double Chess960 cells get their verdicts too: one pair in each, nothing to test.
    let dfrc_cells = report["dfrc_significance"].as_array().unwrap();
    assert_eq!(dfrc_cells.len(), 2, "{dfrc_cells:?}");
    for cell in dfrc_cells {
        let verdict = cell["verdict"].as_str().unwrap();
        assert!(verdict.starts_with("No test possible"), "{verdict}");
    }
    // --headers-only trusts the tag.
    stats(&[
        pgn.to_str().unwrap(),
        "--headers-only",
        "-o",
        &p("h.csv"),
        "--report",
        &p("h.json"),
    ]);
    assert_eq!(Table::read(&d.join("h.csv")).column("white_wins")[518], "1");
    let report: Value = serde_json::from_slice(&std::fs::read(p("h.json")).unwrap()).unwrap();
    assert_eq!(report["results_corrected"], 0);
    // JSON rows carry the key first.
    stats(&[
        pgn.to_str().unwrap(),
        "--by",
        "time-control",
        "--format",
        "json",
        "-o",
        &p("s.json"),
    ]);
    let json = std::fs::read_to_string(p("s.json")).unwrap();
    let rows: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 1);
    assert_eq!(rows[0]["time_control"], "blitz");
    assert!(
        json.starts_with("[\n  {\n    \"time_control\": \"blitz\",\n    \"sp\": 518,"),
        "{}",
        &json[..80]
    );
}

#[test]
fn dfrc_pairs_get_the_tests_of_an_sp_table() {
    // The same results laid on Double Chess960 pairs (white SP 518, black SP b) and on the
    // Chess960 SPs b: the pairs get the tests of an SP table over the pairs played (the same
    // p- and q-values and homogeneity test), and the summary gives their verdict, with or
    // without --dfrc-table.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut rng = Rng(24);
    let (mut sp_games, mut dfrc_games) = (String::new(), String::new());
    let blacks = [0u16, 7, 99, 300, 517, 700, 959];
    for i in 0..240 {
        let b = blacks[i % blacks.len()];
        // One SP leans to white, so that something is found.
        let r = if b == 99 && rng.below(3) > 0 {
            "1-0"
        } else {
            RESULTS[rng.below(3) as usize]
        };
        sp_games.push_str(&game(b, "", "1. a3 a6", r));
        dfrc_games.push_str(&format!(
            "[Event \"g\"]\n[Variant \"Chess960\"]\n[Result \"{r}\"]\n[FEN \"{}/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. a3 a6 {r}\n\n",
            back_rank(b).to_lowercase()
        ));
    }
    let (sp_pgn, dfrc_pgn) = (d.join("sp.pgn"), d.join("dfrc.pgn"));
    std::fs::write(&sp_pgn, sp_games).unwrap();
    std::fs::write(&dfrc_pgn, dfrc_games).unwrap();
    let p = |name: &str| d.join(name).to_str().unwrap().to_string();
    stats(&[
        sp_pgn.to_str().unwrap(),
        "-o",
        &p("s.csv"),
        "--report",
        &p("s.json"),
    ]);
    let stderr = stats(&[
        dfrc_pgn.to_str().unwrap(),
        "-o",
        &p("e.csv"),
        "--report",
        &p("d.json"),
    ]);
    let sp: Value = serde_json::from_slice(&std::fs::read(p("s.json")).unwrap()).unwrap();
    let dfrc: Value = serde_json::from_slice(&std::fs::read(p("d.json")).unwrap()).unwrap();
    let (ours, theirs) = (&dfrc["dfrc_significance"][0], &sp["significance"][0]);
    assert_eq!(
        ours["homogeneity"], theirs["homogeneity"],
        "{ours} {theirs}"
    );
    assert!(
        theirs["homogeneity"]["p"].as_f64().unwrap() < 0.05,
        "{theirs}"
    );
    let pairs: Vec<Value> = blacks
        .iter()
        .map(|&b| serde_json::json!([518, b]))
        .collect();
    let named: Vec<Value> = theirs["significant_sps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| serde_json::json!([518, b]))
        .collect();
    assert_eq!(ours["significant_pairs"].as_array().unwrap(), &named);
    let verdict = ours["verdict"].as_str().unwrap();
    assert!(verdict.starts_with("Yes"), "{verdict}");
    assert!(
        stderr.contains(&format!(
            "Double Chess960 (white SP, black SP) pairs: {verdict}"
        )),
        "{stderr}"
    );
    // The table's p- and q-values are the SP table's, row by row.
    stats(&[
        dfrc_pgn.to_str().unwrap(),
        "-o",
        &p("e.csv"),
        "--dfrc-table",
        &p("d.csv"),
    ]);
    let (sp, dfrc) = (Table::read(&d.join("s.csv")), Table::read(&d.join("d.csv")));
    assert_eq!(dfrc.rows.len(), pairs.len());
    for (i, &b) in blacks.iter().enumerate() {
        assert_eq!(dfrc.column("black_sp")[i], b.to_string());
        for c in ["games", "white_wins", "p_value", "q_value"] {
            assert_eq!(
                dfrc.column(c)[i],
                sp.column(c)[usize::from(b)],
                "{c} at {b}"
            );
        }
    }
}

#[test]
fn evaluations_main_line_only_capped() {
    let dir = tempfile::tempdir().unwrap();
    let moves = |ply10: &str, ply20: &str| {
        let mut m = String::new();
        for ply in 1..=20u32 {
            if ply % 2 == 1 {
                m.push_str(&format!("{}. ", ply.div_ceil(2)));
            }
            // Knights out and back: legal from SP 518 for as long as needed.
            let san = ["Nf3", "Nf6", "Ng1", "Ng8"][(ply as usize - 1) % 4];
            m.push_str(san);
            let eval = match ply {
                10 => format!(" {{ [%eval {ply10}] [%clk 0:01:00] }}"),
                20 => format!(" {{ [%eval {ply20}] }}"),
                9 => " ( 5. Nc3 { [%eval 9.99] } ) { [%eval 0.5] }".to_string(),
                _ => String::new(),
            };
            m.push_str(&eval);
            m.push(' ');
        }
        m
    };
    let mut text = String::new();
    text.push_str(&game(518, "", &moves("#-3", "15.25"), "1-0"));
    text.push_str(&game(518, "", &moves("0.31", "-0.5"), "1-0"));
    text.push_str(&game(518, "", "1. e4 { [%eval 0.2] } e5", "0-1"));
    text.push_str(&game(518, "", "1. e4 e5", "0-1"));
    let pgn = dir.path().join("e.pgn");
    std::fs::write(&pgn, text).unwrap();
    let out = dir.path().join("s.csv");
    stats(&[pgn.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let t = Table::read(&out);
    assert_eq!(t.column("games")[518], "4");
    assert_eq!(t.column("eval_games")[518], "3");
    assert_eq!(t.column("eval_ply10_games")[518], "2");
    // (-10 + 0.31) / 2 and (10 - 0.5) / 2: the mate and 15.25 capped at 10 pawns.
    assert_eq!(t.column("eval_ply10_centipawns")[518], "-969");
    assert_eq!(t.column("mean_eval_ply10")[518], "-4.845");
    assert_eq!(t.column("mean_eval_ply20")[518], "4.75");
    assert_eq!(t.column("mean_eval_ply10")[0], "");
}

/// Runs the pairing oracle (`engine`: its `--engine`).
fn pairs_oracle(python: &str, input: &Path, engine: Option<&str>) -> Value {
    let mut command = Command::new(python);
    command.arg(script("pairs_oracle.py"));
    if let Some(engine) = engine {
        command.args(["--engine", engine]);
    }
    let out = command.arg(input).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `stats --pairs` (with `--engine`) and checks every row against the oracle; returns
/// the report's pairs.
fn check_pairs(python: &str, input: &Path, dir: &Path, engine: Option<&str>) -> Value {
    let (out, pairs, report) = (dir.join("s.csv"), dir.join("p.csv"), dir.join("r.json"));
    let mut args = vec![
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--pairs",
        pairs.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    if let Some(engine) = engine {
        args.extend(["--engine", engine]);
    }
    stats(&args);
    let ours = Table::read(&pairs);
    let report: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let theirs = pairs_oracle(python, input, engine);
    let p = &report["pairs"];
    assert_eq!(p["unpaired_games"], theirs["unpaired_games"]);
    assert_eq!(p["other_pairs"], theirs["other_pairs"]);
    let rows = theirs["rows"].as_array().unwrap();
    // Ours always ends with a total row, empty when there are no pairs.
    assert_eq!(ours.rows.len(), rows.len().max(1));
    if rows.is_empty() {
        assert!(p["player_a"].is_null());
    }
    for (i, o) in rows.iter().enumerate() {
        let get = |name: &str| ours.column(name)[i];
        let at = format!(
            "{} vs {}, sp {}",
            get("player_a"),
            get("player_b"),
            get("sp")
        );
        assert_eq!(get("player_a"), o["players"][0].as_str().unwrap(), "{at}");
        assert_eq!(get("player_b"), o["players"][1].as_str().unwrap(), "{at}");
        assert_eq!(get("sp"), o["sp"].as_str().unwrap());
        let counts: Vec<u64> = ["ll", "ld", "dd_wl", "wd", "ww"]
            .iter()
            .map(|c| get(c).parse().unwrap())
            .collect();
        let expected: Vec<u64> = serde_json::from_value(o["counts"].clone()).unwrap();
        assert_eq!(counts, expected, "{at}");
        let score: f64 = get("score").parse().unwrap();
        assert!((score - num(&o["score"]).unwrap()).abs() < 1e-6);
        for c in ["elo", "elo_lo", "elo_hi"] {
            let (a, b): (f64, f64) = (get(c).parse().unwrap(), num(&o[c]).unwrap());
            assert!(
                a == b || (a - b).abs() <= 0.005 + 1e-9,
                "{at} {c}: {a} vs {b}"
            );
        }
    }
    report["pairs"].clone()
}

#[test]
fn pairs_agree_with_python_on_generated_and_real_matches() {
    const TEST: &str = "stats_by::pairs_agree_with_python_on_generated_and_real_matches";
    let Some(python) = python_with(TEST, &["chess", "scipy"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // 300 pairs of A and B over 40 SPs, some written a few games apart (as with
    // concurrency), three lone games, one pair of A and C.
    let mut rng = Rng(15);
    let mut games: Vec<String> = Vec::new();
    for i in 0..300u64 {
        let sp = (i % 40) as u16;
        let (first, second) = if i % 7 == 3 {
            ("Engine B", "Engine A")
        } else {
            ("Engine A", "Engine B")
        };
        for (w, b) in [(first, second), (second, first)] {
            let tags = format!("[White \"{w}\"]\n[Black \"{b}\"]\n");
            let r = RESULTS[rng.below(3) as usize];
            games.push(game(sp, &tags, "1. a3 a6 2. h3 h6", r));
        }
    }
    for i in (10..580).step_by(37) {
        games.swap(i, i + 3);
    }
    games.insert(
        100,
        game(
            900,
            "[White \"Engine A\"]\n[Black \"Engine B\"]\n",
            "1. a3 a6",
            "1-0",
        ),
    );
    games.insert(
        200,
        game(
            5,
            "[White \"Engine A\"]\n[Black \"Engine C\"]\n",
            "1. a3 a6",
            "1-0",
        ),
    );
    games.insert(
        203,
        game(
            5,
            "[White \"Engine C\"]\n[Black \"Engine A\"]\n",
            "1. a3 a6",
            "0-1",
        ),
    );
    games.push(game(
        7,
        "[White \"Engine B\"]\n[Black \"Engine A\"]\n",
        "1. a3 a6",
        "1/2-1/2",
    ));
    games.push(game(
        8,
        "[White \"Engine A\"]\n[Black \"Engine B\"]\n",
        "1. a3 a6",
        "*",
    ));
    let pgn = dir.path().join("match.pgn");
    std::fs::write(&pgn, games.concat()).unwrap();
    // A vs B and A vs C, each a match of its own.
    let p = check_pairs(&python, &pgn, dir.path(), None);
    assert_eq!(
        (p["pairs"].as_u64(), p["other_pairs"].as_u64()),
        (Some(301), Some(0))
    );
    assert_eq!(p["matches"].as_array().map(Vec::len), Some(2));
    assert_eq!(p["player_a"], "Engine A");
    assert!(p["unpaired_games"].as_u64().unwrap() >= 2);
    // From C's view: its one pair; A vs B is counted apart.
    let p = check_pairs(&python, &pgn, dir.path(), Some("Engine C"));
    assert_eq!(
        (p["pairs"].as_u64(), p["other_pairs"].as_u64()),
        (Some(1), Some(300))
    );
    assert_eq!(
        (p["player_a"].as_str(), p["player_b"].as_str()),
        (Some("Engine C"), Some("Engine A"))
    );
    // The engine-match files of ../shared: cutechess's four games are four SPs (no pair),
    // fastchess's records are unfinished (nothing counted), TCEC's FRC final is 25 pairs,
    // its Season 16 CPU league a match per pairing of engines.
    for (name, pairs, unpaired, engine) in [
        ("pgn/cutechess-fischerrandom.pgn", 0, 4, None),
        ("pgn/fastchess-dfrc.pgn", 0, 0, None),
        ("pgn/tcec/TCEC_Season_19_-_Frc2_Final.pgn", 25, 0, None),
        (
            "pgn/tcec/TCEC_Season_16_-_Frc_Cpu_League_1.pgn",
            45,
            0,
            None,
        ),
        (
            "pgn/tcec/TCEC_Season_16_-_Frc_Cpu_League_1.pgn",
            15,
            0,
            Some("Stockfish 191102"),
        ),
    ] {
        let Some(input) = shared_data(TEST, name) else {
            return;
        };
        let p = check_pairs(&python, &input, dir.path(), engine);
        assert_eq!(p["pairs"], pairs, "{name}");
        assert_eq!(p["unpaired_games"], unpaired, "{name}");
    }
}

#[test]
fn by_tables_are_long_format_and_names_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = "X".repeat(5000);
    let mut text = String::new();
    for (i, white) in ["Ann", "Bo", long.as_str(), "Ann"].iter().enumerate() {
        let tags = format!("[White \"{white}\"]\n[Black \"Cy\"]\n");
        text.push_str(&game(100 + i as u16, &tags, "1. a3", RESULTS[i % 3]));
    }
    let input = d.join("g.pgn");
    std::fs::write(&input, text).unwrap();
    let out = d.join("w.csv");
    let stderr = stats(&[
        input.to_str().unwrap(),
        "--by",
        "white",
        "-o",
        out.to_str().unwrap(),
    ]);
    // One row per SP with games in each cell, not 960 per name.
    let table = Table::read(&out);
    assert_eq!(table.rows.len(), 4, "{:?}", table.rows);
    assert!(table.column("games").iter().all(|g| *g == "1"));
    let names = table.column("white");
    let cut = names.iter().find(|n| n.ends_with("…[truncated]")).unwrap();
    assert!(cut.len() < 300, "{}", cut.len());
    assert!(
        stderr.contains("cut and marked \"…[truncated]\" in 1 games"),
        "{stderr}"
    );
    // The long table merges back exactly.
    let merged = d.join("m.csv");
    stats(&[
        "--merge",
        out.to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&out).unwrap()
    );
}

#[test]
fn merge_refuses_impossible_tables_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = d.join("good.csv");
    stats(&[
        fixture("sample.pgn").to_str().unwrap(),
        "-o",
        good.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&good).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    // The first SP with a rated game: its Elo sum set to 2^64 - 1.
    let rated = lines
        .iter()
        .skip(1)
        .position(|l| {
            l.split(',')
                .nth(column("rated_games"))
                .is_some_and(|n| n != "0")
        })
        .unwrap()
        + 1;
    let mut elo: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut fields: Vec<String> = elo[rated].split(',').map(String::from).collect();
    fields[column("white_elo_sum")] = u64::MAX.to_string();
    elo[rated] = fields.join(",");
    // A row twice (counts doubled), and a table of one row.
    let mut twice: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    twice[3] = twice[2].clone();
    let one: Vec<String> = lines[..2].iter().map(|l| l.to_string()).collect();
    let cases = [
        (
            "elo.csv",
            elo,
            format!("line {}", rated + 1),
            "white_elo_sum",
        ),
        (
            "twice.csv",
            twice,
            "line 4".to_string(),
            "twice (first on line 3)",
        ),
        ("one.csv", one, "line 2".to_string(), "after 1 rows"),
    ];
    for (name, rows, line, why) in cases {
        let path = d.join(name);
        std::fs::write(&path, rows.join("\n") + "\n").unwrap();
        let out = pgn960_process()
            .args(["stats", "--merge"])
            .arg(&path)
            .arg("-o")
            .arg(d.join("m.csv"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(name), "{name}: {stderr}");
        assert!(stderr.contains(&line), "{name}: {stderr}");
        assert!(stderr.contains(why), "{name}: {stderr}");
        assert!(!d.join("m.csv").exists(), "{name}");
        // report --from-stats refuses it the same way.
        let out = pgn960_process()
            .args(["report", "--from-stats"])
            .arg(&path)
            .arg("-o")
            .arg(d.join("p.html"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "report {name}: {stderr}");
        assert!(
            stderr.contains(name) && stderr.contains(&line),
            "report {name}: {stderr}"
        );
        assert!(stderr.contains(why), "report {name}: {stderr}");
    }
}
