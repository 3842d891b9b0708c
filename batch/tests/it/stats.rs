//! Integration tests of `pgn960 stats`.

#[allow(unused_imports)]
use crate::util::*;

use std::path::Path;

fn stats(args: &[&str], inputs: &[&Path], out: &Path) -> String {
    let result = pgn960()
        .arg("stats")
        .args(inputs)
        .arg("-o")
        .arg(out)
        .args(args)
        .output()
        .unwrap();
    // 1 when games were invalid (docs/outputs.md).
    assert!(
        matches!(result.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

fn column(csv: &str, name: &str) -> Vec<String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let i = header.iter().position(|h| *h == name).unwrap();
    lines
        .map(|l| l.split(',').nth(i).unwrap().to_string())
        .collect()
}

#[test]
fn table_has_960_rows_in_order_with_all_columns() {
    let dir = tempfile::tempdir().unwrap();
    let csv = stats(&[], &[&fixture("sample.pgn")], &dir.path().join("s.csv"));
    assert!(csv.starts_with("sp,start,games,white_wins,draws,black_wins,white_score,draw_rate,white_score_lo,white_score_hi,mean_white_elo,mean_black_elo,expected_white_score,white_excess,"));
    assert_eq!(csv.lines().count(), 961);
    assert_eq!(
        column(&csv, "sp"),
        (0..960).map(|i| i.to_string()).collect::<Vec<_>>()
    );
    assert_eq!(column(&csv, "start")[518], "RNBQKBNR");
    let games: u64 = column(&csv, "games")
        .iter()
        .map(|g| g.parse::<u64>().unwrap())
        .sum();
    // 38: game 38's unknown start is recovered from its moves, game 39's missing result
    // token is taken from its Result tag.
    assert_eq!(games, 38);
}

#[test]
fn merge_of_halves_equals_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    // The corpus when it is there, else the sample: either has games to split.
    let input = shared_data_dir()
        .map(|d| d.join("corpus/lichess-style-4000.pgn"))
        .filter(|p| p.exists())
        .unwrap_or_else(|| fixture("sample.pgn"));
    let bytes = std::fs::read(&input).unwrap();
    let chunks = pgn_parse::split_at_game_boundaries(&bytes, bytes.len() / 2);
    assert!(chunks.len() >= 2);
    let (a, b) = (dir.path().join("a.pgn"), dir.path().join("b.pgn"));
    std::fs::write(&a, &bytes[..chunks[1].range.start]).unwrap();
    std::fs::write(&b, &bytes[chunks[1].range.start..]).unwrap();
    let whole = stats(&[], &[&input], &dir.path().join("whole.csv"));
    stats(&[], &[&a], &dir.path().join("a.csv"));
    stats(&[], &[&b], &dir.path().join("b.csv"));
    let merged = stats(
        &["--merge"],
        &[&dir.path().join("a.csv"), &dir.path().join("b.csv")],
        &dir.path().join("m.csv"),
    );
    assert_eq!(merged, whole);
}

#[test]
fn counts_equal_python_chess_on_the_corpus() {
    const TEST: &str = "stats::counts_equal_python_chess_on_the_corpus";
    let Some(corpus) = shared_data(TEST, "corpus/lichess-style-4000.pgn") else {
        return;
    };
    if python_with(TEST, &["chess"]).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ours = stats(&[], &[&corpus], &dir.path().join("s.csv"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/python_chess_stats.py");
    let theirs = std::process::Command::new("python3")
        .arg(script)
        .arg(&corpus)
        .output()
        .unwrap();
    let theirs = String::from_utf8(theirs.stdout).unwrap();
    for name in ["games", "white_wins", "draws", "black_wins"] {
        let python: Vec<String> = {
            let mut lines = theirs.lines();
            let header: Vec<&str> = lines.next().unwrap().split(',').collect();
            let i = header.iter().position(|h| *h == name).unwrap();
            lines
                .map(|l| l.split(',').nth(i).unwrap().to_string())
                .collect()
        };
        assert_eq!(column(&ours, name), python, "{name}");
    }
}

#[test]
fn headers_only_equals_replay_on_valid_games_and_json_format() {
    let dir = tempfile::tempdir().unwrap();
    let Some(input) = shared_data(
        "stats::headers_only_equals_replay_on_valid_games_and_json_format",
        "corpus/lichess-style-4000.pgn",
    ) else {
        return;
    };
    let replay = stats(&[], &[&input], &dir.path().join("r.csv"));
    let headers = stats(&["--headers-only"], &[&input], &dir.path().join("h.csv"));
    // The same table but for the evaluations, which only a replay reads.
    let header: Vec<&str> = replay.lines().next().unwrap().split(',').collect();
    for name in header.iter().filter(|h| !h.contains("eval")) {
        assert_eq!(column(&replay, name), column(&headers, name), "{name}");
    }
    assert_ne!(
        column(&replay, "eval_games"),
        column(&headers, "eval_games")
    );
    let json = stats(&["--format", "json"], &[&input], &dir.path().join("j.json"));
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 960);
}

#[test]
fn dfrc_classical_and_filters() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let game = |tags: &str, fen: &str, moves: &str, result: &str| {
        format!(
            "[Event \"x\"]\n[Result \"{result}\"]\n{tags}[FEN \"{fen}\"]\n\n{moves} {result}\n\n"
        )
    };
    let dfrc = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let classical = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let sp0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    let mut text = String::new();
    text.push_str(&game("[Variant \"Chess960\"]\n", dfrc, "1. e4 e5", "1-0"));
    text.push_str(&game("", classical, "1. e4 e5", "0-1"));
    text.push_str(&game(
        "[Variant \"Chess960\"]\n",
        classical,
        "1. e4 e5",
        "1/2-1/2",
    ));
    text.push_str(&game("[WhiteElo \"2100\"]\n[BlackElo \"1900\"]\n[TimeControl \"180+2\"]\n[UTCDate \"2024.05.01\"]\n", sp0, "1. g3 g6", "1-0"));
    text.push_str(&game(
        "[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n[TimeControl \"60+0\"]\n",
        sp0,
        "1. g3 g6",
        "0-1",
    ));
    text.push_str(&game("", sp0, "1. g3 g6", "*"));
    std::fs::write(&pgn, text).unwrap();
    let pairs = dir.path().join("pairs.csv");
    let out = dir.path().join("s.csv");
    let report = dir.path().join("r.json");
    let csv = stats(
        &[
            "--dfrc-table",
            pairs.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ],
        &[&pgn],
        &out,
    );
    assert_eq!(column(&csv, "games")[518], "1"); // the Chess960-marked classical start
    assert_eq!(column(&csv, "games")[0], "2");
    let pairs = std::fs::read_to_string(&pairs).unwrap();
    assert!(
        pairs
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("518,0,RNBQKBNR,1,1,0,0,"),
        "{pairs}"
    );
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(r["excluded"]["classical"], 1);
    assert_eq!(r["excluded"]["unfinished"], 1);
    let csv = stats(&["--include-classical"], &[&pgn], &out);
    assert_eq!(column(&csv, "games")[518], "2");
    let csv = stats(&["--min-elo", "1800"], &[&pgn], &out);
    assert_eq!(column(&csv, "games")[0], "1");
    assert_eq!(column(&csv, "mean_white_elo")[0], "2100.0");
    let csv = stats(&["--time-control", "bullet"], &[&pgn], &out);
    assert_eq!(column(&csv, "black_wins")[0], "1");
    let csv = stats(
        &["--since", "2024.01.01", "--until", "2024.12.31"],
        &[&pgn],
        &out,
    );
    assert_eq!(column(&csv, "games")[0], "1");
    let csv = stats(&["--max-elo-diff", "100"], &[&pgn], &out);
    assert_eq!(column(&csv, "games")[0], "1");
    let csv = stats(&["--min-plies", "3"], &[&pgn], &out);
    assert_eq!(column(&csv, "games")[0], "0");
}

#[test]
fn merging_checks_what_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (sp, dfrc) = (d.join("a.csv"), d.join("a.dfrc.csv"));
    pgn960()
        .arg("stats")
        .arg(fixture("sample.pgn"))
        .arg("-o")
        .arg(&sp)
        .arg("--dfrc-table")
        .arg(&dfrc)
        .assert()
        .code(1);
    // An empty Double Chess960 table still has its header.
    let empty = std::fs::read_to_string(&dfrc).unwrap();
    assert!(empty.starts_with("sp,black_sp,start,games,"), "{empty}");
    assert_eq!(empty.lines().count(), 1);
    let fails = |args: &[&std::ffi::OsStr], needle: &str| {
        let out = pgn960().arg("stats").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    };
    let os = |p: &Path| p.as_os_str().to_owned();
    // A Double Chess960 table needs --dfrc-table for its merged table.
    fails(
        &["--merge".as_ref(), &os(&sp), &os(&dfrc)],
        "--dfrc-table FILE",
    );
    // A file that is not one of our tables.
    fails(
        &["--merge".as_ref(), &os(&fixture("sample.pgn"))],
        "not a table written by pgn960 stats",
    );
    // Filters do not apply to merging.
    fails(
        &[
            "--merge".as_ref(),
            &os(&sp),
            "--min-elo".as_ref(),
            "2000".as_ref(),
        ],
        "cannot be used with",
    );
    // A row whose counts cannot come from games.
    let text = std::fs::read_to_string(&sp).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut cells: Vec<String> = lines[1].split(',').map(str::to_string).collect();
    cells[2] = "1".into(); // games
    cells[3] = "5".into(); // white wins
    lines[1] = cells.join(",");
    let bad = d.join("bad.csv");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    fails(
        &["--merge".as_ref(), &os(&bad)],
        "line 2: white_wins + draws + black_wins",
    );
    // Sums past the counters' range.
    let mut cells: Vec<String> = text
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    cells[2] = u64::MAX.to_string(); // games
    cells[3] = u64::MAX.to_string(); // white wins
    lines[1] = cells.join(",");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    fails(&["--merge".as_ref(), &os(&bad), &os(&bad)], "overflow");
    // Both kinds merge into their own outputs.
    let (m, md) = (d.join("m.csv"), d.join("m.dfrc.csv"));
    pgn960()
        .args(["stats", "--merge"])
        .args([&sp, &dfrc, &sp])
        .arg("-o")
        .arg(&m)
        .arg("--dfrc-table")
        .arg(&md)
        .assert()
        .success();
    assert_eq!(
        column(&std::fs::read_to_string(&m).unwrap(), "games")
            .iter()
            .filter(|g| *g != "0")
            .count(),
        column(&text, "games").iter().filter(|g| *g != "0").count()
    );
    assert_eq!(std::fs::read_to_string(&md).unwrap(), empty);
}

#[test]
fn outputs_of_stats_are_checked_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let st = d.join("st.csv");
    for other in ["--dfrc-table", "--report", "--chart"] {
        let target = if other == "--chart" {
            d.join("st.svg")
        } else {
            st.clone()
        };
        let out = pgn960()
            .arg("stats")
            .arg(fixture("sample.pgn"))
            .arg("-o")
            .arg(&target)
            .arg(other)
            .arg(d.join(".").join(target.file_name().unwrap()))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{other}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("are the same file"),
            "{other}"
        );
    }
    let out = pgn960()
        .arg("stats")
        .arg(fixture("sample.pgn"))
        .arg("-o")
        .arg(&st)
        .arg("--chart")
        .arg(d.join("chart.png"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--chart writes SVG"));
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 0, "nothing written");
}

#[test]
fn tag_only_games_are_counted_by_headers_only() {
    // A header-only database (each game its tags, no movetext), written by python-chess from
    // the corpus: `stats --headers-only` counts it as it counts the games with their moves,
    // python-chess's results are the oracle for the totals, and `check` still rejects every
    // game as no-moves, naming the Result tag it saw.
    const TEST: &str = "stats::tag_only_games_are_counted_by_headers_only";
    let Some(input) = shared_data(TEST, "corpus/lichess-style-4000.pgn") else {
        return;
    };
    let Some(python) = python_with(TEST, &["chess"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tags_only = dir.path().join("tags-only.pgn");
    let script = "import sys, chess.pgn, collections\n\
        f = open(sys.argv[1], encoding='utf-8-sig')\n\
        out = open(sys.argv[2], 'w', encoding='utf-8')\n\
        c = collections.Counter()\n\
        while (g := chess.pgn.read_game(f)) is not None:\n\
        \x20   for k, v in g.headers.items():\n\
        \x20       out.write('[%s \"%s\"]\\n' % (k, v.replace('\\\\', '\\\\\\\\').replace('\"', '\\\\\"')))\n\
        \x20   out.write('\\n')\n\
        \x20   c[g.headers.get('Result', '*')] += 1\n\
        print(sum(c.values()), c['1-0'], c['1/2-1/2'], c['0-1'])\n";
    let oracle = std::process::Command::new(python)
        .args(["-c", script])
        .arg(&input)
        .arg(&tags_only)
        .output()
        .unwrap();
    assert!(
        oracle.status.success(),
        "{}",
        String::from_utf8_lossy(&oracle.stderr)
    );
    let totals: Vec<u64> = String::from_utf8_lossy(&oracle.stdout)
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let report = dir.path().join("r.json");
    let table = stats(
        &["--headers-only", "--report", report.to_str().unwrap()],
        &[&tags_only],
        &dir.path().join("t.csv"),
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(summary["games_read"], totals[0], "{summary}");
    let sum = |name: &str| -> u64 {
        column(&table, name)
            .iter()
            .map(|v| v.parse::<u64>().unwrap())
            .sum()
    };
    let counted = summary["counted"].as_u64().unwrap();
    assert!(counted > 3_000, "{summary}");
    assert_eq!(
        sum("white_wins") + sum("draws") + sum("black_wins"),
        counted
    );
    assert!(
        sum("white_wins") <= totals[1]
            && sum("draws") <= totals[2]
            && sum("black_wins") <= totals[3]
    );
    // The same table as the games with their moves give, read by their tags.
    let with_moves = stats(&["--headers-only"], &[&input], &dir.path().join("m.csv"));
    assert_eq!(table, with_moves);
    let check = pgn960()
        .arg("check")
        .arg("--json")
        .arg(&tags_only)
        .output()
        .unwrap();
    let check: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(
        check["rejected_by_reason"]["no-moves"], totals[0],
        "{check}"
    );
    let clean_rejects = dir.path().join("rejects.pgn");
    pgn960()
        .args(["clean", "-o"])
        .arg(dir.path().join("c.pgn"))
        .arg("--rejects")
        .arg(&clean_rejects)
        .arg(&tags_only)
        .output()
        .unwrap();
    let tsv = std::fs::read_to_string(dir.path().join("rejects.tsv")).unwrap_or_default();
    // (CSV quoting doubles the quotes around the tag's value.)
    let named = tsv
        .lines()
        .filter(|l| l.contains("no-moves") && l.contains("the Result tag says \"\""))
        .count();
    assert_eq!(named as u64, totals[0], "{}", &tsv[..tsv.len().min(500)]);
}

#[test]
fn tag_only_games_say_why_nothing_was_counted() {
    // Three games of tags only (FEN and Result, no movetext): replayed, `stats` and `tree`
    // count nothing, exit 1 and say why and what to do; `stats --headers-only` counts all
    // three and exits 0.
    let dir = tempfile::tempdir().unwrap();
    let fens = [
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "nrbkqrnb/pppppppp/8/8/8/8/PPPPPPPP/NRBKQRNB w FBfb - 0 1",
    ];
    let mut text = String::new();
    for (fen, result) in fens.iter().zip(["1-0", "1/2-1/2", "0-1"]) {
        text.push_str(&format!(
            "[Event \"Elite\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"{result}\"]\n\n"
        ));
    }
    let input = dir.path().join("tags-only.pgn");
    std::fs::write(&input, text).unwrap();
    let report = dir.path().join("r.json");
    let run = |args: &[&str]| {
        let out = pgn960().args(args).arg(&input).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let csv = dir.path().join("s.csv");
    let (code, stderr) = run(&[
        "stats",
        "-o",
        csv.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "nothing was counted: of 3 games read, 3 have no moves (tags only): try --headers-only"
        ),
        "{stderr}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(summary["invalid_by_reason"]["no-moves"], 3, "{summary}");
    let (code, stderr) = run(&["stats", "--headers-only", "-o", csv.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("counted: 3 in the SP table"), "{stderr}");
    assert!(!stderr.contains("nothing was counted"), "{stderr}");
    let tree = dir.path().join("t.csv");
    let (code, stderr) = run(&["tree", "-o", tree.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("3 have no moves (tags only): a tree is made of moves"),
        "{stderr}"
    );
}

/// The verdict sentence `stats` prints for `inputs` with `args`, and the --report JSON.
fn verdict_of(args: &[&str], input: &Path, dir: &Path) -> (String, serde_json::Value) {
    let report = dir.join("r.json");
    let result = pgn960()
        .arg("stats")
        .arg(input)
        .arg("-o")
        .arg(dir.join("s.csv"))
        .arg("--report")
        .arg(&report)
        .args(args)
        .output()
        .unwrap();
    assert!(result.status.success(), "{result:?}");
    let stderr = String::from_utf8_lossy(&result.stderr).into_owned();
    let verdict = stderr
        .lines()
        .find(|l| l.starts_with("Yes") || l.starts_with("No"))
        .unwrap_or_else(|| panic!("no verdict in {stderr}"))
        .to_string();
    let json = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    (verdict, json)
}

#[test]
fn tcec_files_concatenated_get_the_stratified_answer_with_its_caveat() {
    let Some(data) = shared_data_dir() else {
        eprintln!("skipped: no shared data");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(data.join("pgn/tcec"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for f in &files {
        all.extend(std::fs::read(f).unwrap());
        all.push(b'\n');
    }
    let input = dir.path().join("tcec.pgn");
    std::fs::write(&input, all).unwrap();
    // Taken as one table, mixing events says "Yes".
    let (one, _) = verdict_of(&["--strata", "none"], &input, dir.path());
    assert!(one.starts_with("Yes"), "{one}");
    assert!(!one.contains("strata"), "{one}");
    // The default tests within events: "No", said so, with the caveat, in the report too.
    let (within, report) = verdict_of(&[], &input, dir.path());
    assert!(within.starts_with("No"), "{within}");
    assert!(within.contains("strata by event"), "{within}");
    assert!(within.contains("Caveat: taken as one table"), "{within}");
    let cell = &report["significance"][0];
    assert_eq!(cell["verdict"].as_str(), Some(within.as_str()));
    assert!(cell["homogeneity"]["strata"]
        .as_u64()
        .is_some_and(|s| s > 1));
    // By speed: the strata are named so.
    let (speed, _) = verdict_of(&["--strata", "time-control"], &input, dir.path());
    assert!(speed.contains("strata by time control"), "{speed}");
    // The report's banner carries the caveat apart.
    let page = dir.path().join("p.html");
    pgn960()
        .arg("report")
        .arg(&input)
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"caveat\":\"Caveat: taken as one table"),
        "no caveat in the page data"
    );
}
