//! Issue 29's dialects: the `emt`/`depth` columns of `export` against python-chess's reading
//! of the real files' comments, the written Variant tag, the UCI castling style, and the
//! opening books of `pgn960 book`.

use crate::util::{pgn960, python, python_with, shared_data};
use std::path::Path;

/// The JSON Lines rows of a file, parsed.
fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object"))
        .collect()
}

/// Every main-line move of every game of a file as python-chess reads it, with the move
/// time and depth its comment gives in the TCEC (`d=`, `mt=`) or cutechess
/// (`score/depth time`) form, parsed here independently of pgn960.
const COMMENT_ORACLE: &str = r#"
import json, re, sys
import chess.pgn

CUTE = re.compile(r"^[+-]?(?:M\d+|\d+\.\d+)/(\d+) (\d+(?:\.\d+)?)s(?:$|[,\s])")

def tcec_time(v):
    if v.isdigit():
        return int(v) / 1000
    parts = v.split(":")
    if len(parts) == 3 and all(len(p) == 2 and p.isdigit() for p in parts):
        h, m, s = map(int, parts)
        return h * 3600 + m * 60 + s
    return None

def read(comment):
    c = comment.strip()
    if "[%" in c:
        return None, None
    if c.startswith("d="):
        emt = depth = None
        for item in c.split(","):
            key, _, value = item.strip().partition("=")
            if key == "d" and value.strip().isdigit():
                depth = int(value)
            if key == "mt":
                emt = tcec_time(value.strip())
        return emt, depth
    m = CUTE.match(c)
    if m:
        return float(m.group(2)), int(m.group(1))
    return None, None

rows = []
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        for node in game.mainline():
            emt, depth = read(node.comment)
            rows.append([node.san(), emt, depth])
print(json.dumps(rows))
"#;

#[test]
fn emt_and_depth_columns_match_python_chess_on_tcec_and_cutechess_files() {
    let test = "emt_and_depth_columns_match_python_chess_on_tcec_and_cutechess_files";
    let Some(py) = python_with(test, &["chess"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for relative in [
        "pgn/cutechess-fischerrandom.pgn",
        "pgn/tcec/TCEC_Season_6_-_FRC.pgn",
        "pgn/tcec/TCEC_Season_26_-_Frc_No_Castling_Kibitzer_Bonus.pgn",
    ] {
        let Some(input) = shared_data(test, relative) else {
            return;
        };
        let plies = dir.path().join("plies.jsonl");
        let games = dir.path().join("games.jsonl");
        let args = ["--columns", "offset,san,emt,depth"];
        pgn960()
            .args(["export", "--per", "ply"])
            .arg(&input)
            .arg("-o")
            .arg(&plies)
            .args(args)
            .assert()
            .code(0);
        pgn960()
            .arg("export")
            .arg(&input)
            .arg("-o")
            .arg(&games)
            .args(["--columns", "offset,plies,emts,depths"])
            .assert()
            .code(0);
        let expected: Vec<(String, Option<f64>, Option<u64>)> =
            serde_json::from_str(&python(&py, COMMENT_ORACLE, &[&input])).unwrap();
        let rows = json_lines(&plies);
        assert_eq!(rows.len(), expected.len(), "{relative}");
        let (mut emts, mut depths) = (0, 0);
        for (row, (san, emt, depth)) in rows.iter().zip(&expected) {
            assert_eq!(row["san"].as_str(), Some(san.as_str()), "{relative}: {row}");
            match (row["emt"].as_f64(), emt) {
                (Some(got), Some(want)) => assert!((got - want).abs() < 1e-9, "{row} {want}"),
                (got, want) => assert_eq!(got, *want, "{relative}: {row}"),
            }
            assert_eq!(row["depth"].as_u64(), *depth, "{relative}: {row}");
            emts += usize::from(emt.is_some());
            depths += usize::from(depth.is_some());
        }
        assert!(emts > 100 && depths > 100, "{relative}: {emts} {depths}");
        // The game table's lists are the per-ply values, game by game.
        let mut per_ply = rows.iter();
        for game in json_lines(&games) {
            let plies = game["plies"].as_u64().unwrap() as usize;
            let of_game: Vec<_> = per_ply.by_ref().take(plies).collect();
            for (key, list) in [("emt", "emts"), ("depth", "depths")] {
                let want: Vec<&serde_json::Value> = of_game.iter().map(|r| &r[key]).collect();
                match game[list].as_array() {
                    Some(got) => assert_eq!(got.iter().collect::<Vec<_>>(), want),
                    None => assert!(want.iter().all(|v| v.is_null()), "{game}"),
                }
            }
        }
    }
}

/// The evaluation sums `stats` keeps, from python-chess's reading of the games: counted
/// games (a result), games with any evaluation, and after plies 10 and 20 the games with one
/// and their capped centipawns. Scores are read from the TCEC (`wv=`, white's view) and
/// cutechess (`score/depth time`, the mover's view) comments, parsed here.
const EVAL_ORACLE: &str = r#"
import json, re, sys
import chess.pgn

CUTE = re.compile(r"^([+-]?)(M\d+|\d+\.\d+)/\d+ ")

def score(sign, body):
    if body.startswith("M"):
        moves = int(body[1:]) // 2
        if moves == 0:
            return None
        value = 1000
    else:
        value = max(-1000, min(1000, round(float(body) * 100)))
    return -value if sign == "-" else value

def white_view(comment, mover_white):
    c = comment.strip()
    if c.startswith("d="):
        for item in c.split(","):
            key, _, value = item.strip().partition("=")
            if key == "wv":
                value = value.strip()
                sign = "-" if value.startswith("-") else ""
                return score(sign, value.lstrip("+-"))
        return None
    m = CUTE.match(c)
    if not m:
        return None
    s = score(m.group(1), m.group(2))
    return s if s is None or mover_white else -s

sums = {"games": 0, "eval_games": 0, "eval_ply10_games": 0, "eval_ply10_centipawns": 0,
        "eval_ply20_games": 0, "eval_ply20_centipawns": 0}
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        if game.headers.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
            continue
        sums["games"] += 1
        evals = [white_view(n.comment, n.turn() == chess.BLACK) for n in game.mainline()]
        sums["eval_games"] += any(e is not None for e in evals)
        for ply in (10, 20):
            if len(evals) >= ply and evals[ply - 1] is not None:
                sums[f"eval_ply{ply}_games"] += 1
                sums[f"eval_ply{ply}_centipawns"] += evals[ply - 1]
print(json.dumps(sums))
"#;

#[test]
fn stats_evaluations_come_from_tcec_and_cutechess_comments_as_python_chess_reads_them() {
    let test = "stats_evaluations_come_from_tcec_and_cutechess_comments_as_python_chess_reads_them";
    let Some(py) = python_with(test, &["chess"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for relative in [
        "pgn/cutechess-fischerrandom.pgn",
        "pgn/tcec/TCEC_Season_6_-_FRC.pgn",
        "pgn/tcec/TCEC_Season_29_-_Frc_Decisive_Rapid_Bonus.pgn",
    ] {
        let Some(input) = shared_data(test, relative) else {
            return;
        };
        let table = dir.path().join("stats.csv");
        pgn960()
            .arg("stats")
            .arg(&input)
            .arg("-o")
            .arg(&table)
            .assert()
            .success();
        let expected: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&python(&py, EVAL_ORACLE, &[&input])).unwrap();
        let mut reader = csv::Reader::from_path(&table).unwrap();
        let headers = reader.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        for (name, want) in &expected {
            let column = headers.iter().position(|h| h == name).unwrap();
            let got: i64 = rows.iter().map(|r| r[column].parse::<i64>().unwrap()).sum();
            assert_eq!(Some(got), want.as_i64(), "{relative}: {name}");
        }
        assert!(
            expected["eval_ply20_games"].as_i64() > Some(0),
            "{relative}"
        );
    }
}

/// Each row's move as python-chess writes it in UCI, from the position before it:
/// `[chess960=True, chess960=False]` (king onto rook, and the standard-chess squares).
const UCI_ORACLE: &str = r#"
import json, sys
import chess

out = []
with open(sys.argv[1]) as f:
    for line in f:
        row = json.loads(line)
        board = chess.Board(row["xfen"], chess960=True)
        move = board.parse_uci(row["uci"])
        out.append([board.uci(move, chess960=True), board.uci(move, chess960=False)])
print(json.dumps(out))
"#;

/// A game from SP 518 castling on both sides.
const SP518_GAME: &str = "\n[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O d6 5. d3 Be6 6. Nc3 Qd7 7. a3 O-O-O *\n";

#[test]
fn uci_castling_styles_are_python_chess_chess960_true_and_false() {
    let test = "uci_castling_styles_are_python_chess_chess960_true_and_false";
    let Some(py) = python_with(test, &["chess"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The corpus, else the sample with a game from SP 518 (castling from e1/e8 with rooks on
    // a/h, the standard-chess squares) after it.
    let input = shared_data(test, "corpus/lichess-style-4000.pgn").unwrap_or_else(|| {
        let mut text = std::fs::read_to_string(crate::util::fixture("sample.pgn")).unwrap();
        text.push_str(SP518_GAME);
        let path = dir.path().join("sample-and-518.pgn");
        std::fs::write(&path, text).unwrap();
        path
    });
    let table = |style: &str| {
        let out = dir.path().join(format!("{style}.jsonl"));
        let status = pgn960()
            .args(["export", "--per", "ply", "--columns", "xfen,san,uci"])
            .args(["--uci-castling", style])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .output()
            .expect("pgn960 runs");
        // 1: the sample has invalid games (skipped).
        assert!(matches!(status.status.code(), Some(0 | 1)), "{status:?}");
        out
    };
    let takes_rook = table("king-takes-rook");
    let two_squares = json_lines(&table("king-two-squares"));
    let expected: Vec<(String, String)> =
        serde_json::from_str(&python(&py, UCI_ORACLE, &[&takes_rook])).unwrap();
    let takes_rook = json_lines(&takes_rook);
    assert_eq!(takes_rook.len(), expected.len());
    assert_eq!(two_squares.len(), expected.len());
    let (mut castles, mut respelled) = (0, 0);
    for ((a, b), (chess960, standard)) in takes_rook.iter().zip(&two_squares).zip(&expected) {
        assert_eq!(a["uci"].as_str(), Some(chess960.as_str()), "{a}");
        assert_eq!(b["uci"].as_str(), Some(standard.as_str()), "{b}");
        let san = a["san"].as_str().unwrap_or_default();
        castles += usize::from(san.starts_with("O-O"));
        respelled += usize::from(chess960 != standard);
    }
    // Some castles have standard-chess squares (king on e1/e8, rook on a/h), not all.
    assert!(
        respelled > 0 && respelled < castles,
        "{respelled} of {castles}"
    );
}

/// Every game of a written file as python-chess reads it: the Variant tag, whether
/// python-chess takes it for Chess960, its errors, and the final position.
const READ_BACK: &str = r#"
import json, sys
import chess.pgn

out = []
with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        out.append([game.headers.get("Variant"), game.headers.is_chess960(),
                    [str(e) for e in game.errors], game.end().board().fen()])
print(json.dumps(out))
"#;

/// The repairs of a `clean --report`, by name.
fn repairs(report: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(report).expect("report written");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    json["repairs"].clone()
}

#[test]
fn the_variant_tag_is_written_as_asked_and_reads_back_in_pgn960_and_python_chess() {
    let test = "the_variant_tag_is_written_as_asked_and_reads_back_in_pgn960_and_python_chess";
    let py = python_with(test, &["chess"]);
    let dir = tempfile::tempdir().unwrap();
    // A real file of each spelling (cutechess: `fischerandom`, pychess: `chess 960`) or, without
    // the shared data, the sample.
    let inputs = [
        "pgn/cutechess-fischerrandom.pgn",
        "pgn/pychess-chess960rwch.pgn",
    ]
    .map(|r| shared_data(test, r).unwrap_or_else(|| crate::util::fixture("sample.pgn")));
    for input in &inputs {
        let mut finals = None;
        for (arg, value) in [
            ("chess960", "Chess960"),
            ("fischerandom", "fischerandom"),
            ("chess 960", "chess 960"),
        ] {
            let out = dir.path().join("out.pgn");
            let report = dir.path().join("report.json");
            pgn960()
                .arg("clean")
                .arg(input)
                .arg("-o")
                .arg(&out)
                .args(["--variant-tag", arg, "--report"])
                .arg(&report)
                .output()
                .expect("pgn960 runs");
            let text = std::fs::read_to_string(&out).unwrap();
            let spelled = |text: &str, v: &str| text.matches(&format!("[Variant \"{v}\"]")).count();
            let tags = spelled(&text, value);
            assert!(tags > 0);
            // Other variants (the sample's Crazyhouse game) are written as read; no Chess960
            // game keeps another spelling.
            for other in ["Chess960", "fischerandom", "chess 960", "Fischerandom"] {
                if other != value {
                    assert_eq!(spelled(&text, other), 0, "{other} in {value}");
                }
            }
            // A game already spelled so is not counted as respelled.
            let original = std::fs::read_to_string(input).unwrap();
            let respelled = repairs(&report)["variant-normalised"].as_u64().unwrap_or(0);
            let same = spelled(&original, value);
            assert_eq!(respelled, tags.saturating_sub(same) as u64, "{value}");
            pgn960().arg("check").arg(&out).assert().code(0);
            let Some(py) = &py else { continue };
            let games: Vec<(Option<String>, bool, Vec<String>, String)> =
                serde_json::from_str(&python(py, READ_BACK, &[&out])).unwrap();
            let games: Vec<_> = games
                .into_iter()
                .filter(|g| g.0.as_deref() == Some(value))
                .collect();
            assert_eq!(games.len(), tags);
            assert!(games
                .iter()
                .all(|(_, chess960, errors, _)| *chess960 && errors.is_empty()));
            let ends: Vec<String> = games.into_iter().map(|g| g.3).collect();
            assert_eq!(finals.get_or_insert_with(|| ends.clone()), &ends);
        }
    }
}

#[test]
fn filter_and_split_write_the_variant_tag_when_normalising() {
    let dir = tempfile::tempdir().unwrap();
    let input = crate::util::fixture("sample.pgn");
    let filtered = dir.path().join("f.pgn");
    pgn960()
        .arg("filter")
        .arg(&input)
        .arg("-o")
        .arg(&filtered)
        .args(["--normalise", "--variant-tag", "fischerandom"])
        .output()
        .expect("pgn960 runs");
    let text = std::fs::read_to_string(&filtered).unwrap();
    assert!(text.contains("[Variant \"fischerandom\"]"));
    assert!(!text.contains("[Variant \"Chess960\"]"));
    pgn960().arg("check").arg(&filtered).assert().code(0);
    let parts = dir.path().join("parts");
    pgn960()
        .arg("split")
        .arg(&input)
        .arg("-o")
        .arg(&parts)
        .args([
            "--by",
            "games:10",
            "--normalise",
            "--variant-tag",
            "chess 960",
        ])
        .output()
        .expect("pgn960 runs");
    let mut written = 0;
    for entry in std::fs::read_dir(&parts).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        written += text.matches("[Variant \"chess 960\"]").count();
        // Other variants are copied as read; no Chess960 game keeps the default spelling.
        assert!(!text.contains("[Variant \"Chess960\"]"), "{text}");
        pgn960().arg("check").arg(&path).assert().code(0);
    }
    assert!(written > 0);
    // Without --normalise the option is refused: games are copied as read.
    pgn960()
        .arg("filter")
        .arg(&input)
        .arg("-o")
        .arg(&filtered)
        .args(["--variant-tag", "fischerandom"])
        .assert()
        .code(2);
}

/// The book python-chess makes of a file: for every game, the positions after
/// plies A..=B of its main line (those whose TCEC `wv=` evaluation is in the window, when
/// one is given), each once, as `Board.fen()` or `Board.shredder_fen()`.
const BOOK_ORACLE: &str = r#"
import json, sys
import chess.pgn

path, first, last, style = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
window = (float(sys.argv[5]), float(sys.argv[6])) if len(sys.argv) > 6 else None

def wv(comment):
    for item in comment.split(","):
        key, _, value = item.strip().partition("=")
        if key == "wv" and "M" not in value:
            return float(value)
    return None

seen, lines = set(), []
with open(path, encoding="utf-8", errors="replace") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        for ply, node in enumerate(game.mainline(), start=1):
            if ply > last:
                break
            if ply < first:
                continue
            if window is not None:
                e = wv(node.comment)
                if e is None or not window[0] <= e <= window[1]:
                    continue
            board = node.board()
            if board.epd() in seen:
                continue
            seen.add(board.epd())
            lines.append(board.shredder_fen() if style == "shredder" else board.fen())
print(json.dumps(lines))
"#;

/// Each line of a book as python-chess reads it (`chess.Board(line, chess960=True)`), and
/// the final position of each game of a PGN book.
const BOOK_READ: &str = r#"
import json, sys
import chess, chess.pgn

path, style = sys.argv[1], sys.argv[2]
fen = (lambda b: b.shredder_fen()) if style == "shredder" else (lambda b: b.fen())
out = []
if path.endswith(".pgn"):
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            assert not game.errors, game.errors
            out.append(fen(game.end().board()))
else:
    for line in open(path):
        board = chess.Board(line.strip(), chess960=True)
        assert board.is_valid(), line
        out.append(fen(board))
print(json.dumps(out))
"#;

fn book(args: &[&str], out: &Path) -> assert_cmd::assert::Assert {
    pgn960().arg("book").args(args).arg("-o").arg(out).assert()
}

fn python_lines(py: &str, script: &str, args: &[&str]) -> Vec<String> {
    let args: Vec<&Path> = args.iter().map(Path::new).collect();
    serde_json::from_str(&python(py, script, &args)).unwrap()
}

#[test]
fn books_are_the_positions_python_chess_reaches_each_once() {
    let test = "books_are_the_positions_python_chess_reaches_each_once";
    let Some(py) = python_with(test, &["chess"]) else {
        return;
    };
    let Some(input) = shared_data(test, "pgn/tcec/TCEC_Season_19_-_Frc2_Final.pgn") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = input.to_str().unwrap();
    for (style, window) in [("xfen", None), ("shredder", Some(("-0.3", "0.3")))] {
        let spelled = window.map(|(low, high)| format!("{low}:{high}"));
        let mut args = vec![input, "--plies", "6-9", "--fen-style", style];
        let mut oracle = vec![input, "6", "9", style];
        if let (Some((low, high)), Some(spelled)) = (window, &spelled) {
            args.extend(["--eval-window", spelled.as_str()]);
            oracle.extend([low, high]);
        }
        let expected = python_lines(&py, BOOK_ORACLE, &oracle);
        assert!(expected.len() > 20, "{}", expected.len());
        for ext in ["epd", "pgn"] {
            let out = dir.path().join(format!("book.{ext}"));
            book(&args, &out).code(0);
            let read = python_lines(&py, BOOK_READ, &[out.to_str().unwrap(), style]);
            assert_eq!(read, expected, "{style} {ext}");
            if ext == "epd" {
                let text = std::fs::read_to_string(&out).unwrap();
                let lines: Vec<&str> = text.lines().collect();
                assert_eq!(
                    lines, expected,
                    "{style}: written as python-chess writes them"
                );
            } else {
                pgn960().arg("check").arg(&out).assert().code(0);
            }
        }
    }
}

#[test]
fn a_book_of_start_positions_is_python_chess_from_chess960_pos() {
    let test = "a_book_of_start_positions_is_python_chess_from_chess960_pos";
    let Some(py) = python_with(test, &["chess"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import json, sys, chess
style = sys.argv[1]
boards = [chess.Board.from_chess960_pos(n) for n in range(960)]
print(json.dumps([b.shredder_fen() if style == "shredder" else b.fen() for b in boards]))
"#;
    for style in ["xfen", "shredder"] {
        let out = dir.path().join("sp.epd");
        book(&["--sp", "0-959", "--fen-style", style], &out).code(0);
        let text = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines, python_lines(&py, script, &[style]));
    }
    let out = dir.path().join("sp.pgn");
    book(&["--sp", "100-109"], &out).code(0);
    let read = python_lines(&py, BOOK_READ, &[out.to_str().unwrap(), "xfen"]);
    assert_eq!(read.len(), 10);
    pgn960().arg("check").arg(&out).assert().code(0);
    book(&["--sp", "900-960"], &out).code(2);
}
