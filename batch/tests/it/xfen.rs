//! Integration tests of `pgn960 xfen`.

#[allow(unused_imports)]
use crate::util::*;

use std::path::Path;

#[test]
fn fen_lists_equal_python_chess_both_ways() {
    const TEST: &str = "xfen::fen_lists_equal_python_chess_both_ways";
    let Some(data) = shared_data(TEST, "positions").and_then(|p| p.parent().map(Path::to_path_buf))
    else {
        return;
    };
    if python_with(TEST, &["chess"]).is_none() {
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/python_chess_fens.py");
    let dir = tempfile::tempdir().unwrap();
    for file in [
        "positions/FRC_openings.epd",
        "positions/DFRC_openings.sample.epd",
        "positions/DFRC_4852_v1.sample.epd",
        "perft/fischer.epd",
    ] {
        for mode in ["xfen", "shredder"] {
            let out = dir.path().join("out");
            pgn960()
                .args(["xfen", "--to", mode])
                .arg(data.join(file))
                .arg("-o")
                .arg(&out)
                .assert()
                .success();
            let theirs = std::process::Command::new("python3")
                .arg(&script)
                .arg(mode)
                .arg(data.join(file))
                .output()
                .unwrap();
            assert_eq!(std::fs::read(&out).unwrap(), theirs.stdout, "{file} {mode}");
        }
    }
}

#[test]
fn pgn_fen_tags_change_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("check/reasons.pgn");
    let out = dir.path().join("s.pgn");
    pgn960()
        .args(["xfen", "--to", "shredder"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1);
    let before = std::fs::read_to_string(&input).unwrap();
    let after = std::fs::read_to_string(&out).unwrap();
    assert_eq!(before.lines().count(), after.lines().count());
    let mut changed = 0;
    for (a, b) in before.lines().zip(after.lines()) {
        if a != b {
            assert!(
                a.starts_with("[FEN \"") && b.starts_with("[FEN \""),
                "{a} -> {b}"
            );
            changed += 1;
        }
    }
    assert!(changed >= 3);
    assert!(after.contains("[FEN \"nbqrnkbr/pppppppp/8/8/8/8/PPPPPPPP/NBQRNKBR w HDhd - 0 1\"]"));
}

#[test]
fn bad_fens_are_reported_and_passed_through_or_fail_with_strict() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("l.epd");
    std::fs::write(&list, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\nnot a fen\n\n8/8/8/8/8/8/8/8 w - -\n").unwrap();
    let out = pgn960().args(["xfen"]).arg(&list).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n\n8/8/8/8/8/8/8/8 w - -\n"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("l.epd:2: "), "{stderr}");
    assert!(stderr.contains("l.epd:4: white has 0 kings"), "{stderr}");
    let target = dir.path().join("strict.epd");
    pgn960()
        .args(["xfen", "--strict"])
        .arg(&list)
        .arg("-o")
        .arg(&target)
        .assert()
        .code(2);
    assert!(!target.exists());
}

#[test]
fn in_place_stdin_and_forced_input_kind() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("l.txt");
    std::fs::write(
        &list,
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1\r\n",
    )
    .unwrap();
    pgn960()
        .args(["xfen", "--to", "shredder", "--in-place"])
        .arg(&list)
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(&list).unwrap(),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1\r\n"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let out = pgn960()
        .args(["xfen", "--input", "fen", "-"])
        .write_stdin("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1\n")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1\n"
    );
    let out = pgn960()
        .args(["xfen", "--input", "pgn", "--to", "shredder", "-"])
        .write_stdin("[FEN \"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1\"]\n\n*\n")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "[FEN \"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1\"]\n\n*\n"
    );
    // Without --input, standard input is recognised by its content, both ways.
    for (text, expected) in [
        (
            "\n\n[FEN \"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1\"]\n\n*\n",
            "\n\n[FEN \"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1\"]\n\n*\n",
        ),
        (
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1\n",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1\n",
        ),
    ] {
        let out = pgn960()
            .args(["xfen", "--to", "shredder", "-"])
            .write_stdin(text)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    }
}

#[test]
fn thread_counts_give_identical_output() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("big.epd");
    let mut text = String::new();
    for _ in 0..3000 {
        text.push_str("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21\nrkqrbbnn/pppppppp/8/8/8/8/PPPPPPPP/RKQRBBNN w DAda - 0 1\n");
    }
    std::fs::write(&list, &text).unwrap();
    let mut outputs = Vec::new();
    for j in ["1", "2", "8"] {
        let out = pgn960()
            .args(["xfen", "-j", j])
            .arg(&list)
            .output()
            .unwrap();
        outputs.push(out.stdout);
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
    let converted = String::from_utf8(outputs[0].clone()).unwrap();
    assert_eq!(converted.matches(" w KQkq ").count(), 6000);
    assert_eq!(converted.len(), text.len());
}

#[test]
fn strict_writes_nothing_anywhere_when_a_fen_is_bad() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("a.epd");
    let bad = dir.path().join("b.epd");
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n";
    std::fs::write(&good, fen).unwrap();
    std::fs::write(&bad, format!("{fen}not a fen\n")).unwrap();
    // Standard output: not a line printed.
    let out = pgn960()
        .args(["xfen", "--strict"])
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // In place over several files: the good file before the bad one is left as it was.
    let out = pgn960()
        .args(["xfen", "--strict", "--in-place"])
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing written"));
    assert_eq!(std::fs::read_to_string(&good).unwrap(), fen);
    // Without --strict the same runs write (exit 1: a FEN could not be read).
    let out = pgn960()
        .args(["xfen"])
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("KQkq"));
}

#[test]
fn in_place_keeps_mode_and_follows_links() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("book.epd");
    std::fs::write(
        &real,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.epd");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    pgn960()
        .args(["xfen", "--in-place"])
        .arg(&link)
        .assert()
        .success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays"
    );
    assert!(std::fs::read_to_string(&real)
        .unwrap()
        .contains(" w KQkq - 0 1"));
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn json_report_and_an_epd_terminator_read_alike_in_lists_and_tags() {
    let dir = tempfile::tempdir().unwrap();
    // A FEN list line ending in "0 1;" (Stockfish's startpos_chess960.epd) and a PGN FEN
    // tag copied from such a line: both read.
    let list = dir.path().join("s.epd");
    std::fs::write(
        &list,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1;\n",
    )
    .unwrap();
    let out_path = dir.path().join("out.epd");
    let out = pgn960()
        .args(["xfen", "--json"])
        .arg(&list)
        .arg("-o")
        .arg(&out_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["fens"].as_u64(), report["unreadable"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(
        std::fs::read_to_string(&out_path).unwrap(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1;\n"
    );
    let pgn = dir.path().join("g.pgn");
    std::fs::write(
        &pgn,
        "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1;\"]\n\n1. g3 *\n",
    )
    .unwrap();
    let report: serde_json::Value = serde_json::from_slice(
        &pgn960()
            .args(["check", "--json"])
            .arg(&pgn)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(report["valid"], 1);
    assert_eq!(report["repairs"]["fen-semicolon-dropped"], 1);
    // --json needs the converted text somewhere else than standard output.
    let out = pgn960()
        .args(["xfen", "--json"])
        .arg(&list)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
