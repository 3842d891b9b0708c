//! Integration tests of `pgn960 sp` and `pgn960 perft`.

#[allow(unused_imports)]
use crate::util::*;

use assert_cmd::cargo::CommandCargoExt;
use assert_cmd::Command;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::cargo_bin("pgn960")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn sp_queries_all_and_random() {
    let (code, out) = run(&["sp", "518"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "518\tRNBQKBNR\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n");
    assert!(run(&["sp", "bbqnnrkr"]).1.starts_with("0\tBBQNNRKR\t"));
    assert!(run(&[
        "sp",
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"
    ])
    .1
    .starts_with("959\t"));
    assert!(run(&[
        "sp",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    ])
    .1
    .starts_with("double chess960: white 518 (RNBQKBNR), black 0 (BBQNNRKR)"));
    assert_eq!(run(&["sp", "960"]).0, Some(2));
    assert_eq!(run(&["sp", "RBNBKQNR"]).0, Some(2));
    let (_, all) = run(&["sp", "--all"]);
    assert_eq!(all.lines().count(), 961);
    assert!(all.lines().nth(960).unwrap().starts_with("959\tRKRNNQBB\t"));
    let (_, a) = run(&["sp", "--random", "--seed", "7"]);
    let (_, b) = run(&["sp", "--random", "--seed", "7"]);
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), 1);
}

#[test]
fn perft_positions_divide_and_suites() {
    assert_eq!(run(&["perft", "--sp", "518", "4"]).1, "197281\n");
    let (_, out) = run(&[
        "perft",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "3",
    ]);
    assert_eq!(out, "12189\n");
    let (_, out) = run(&["perft", "4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "1", "--divide"]);
    assert!(
        out.contains("f1g1: 1\n"),
        "castling is written king-takes-rook: {out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.perft");
    std::fs::write(&good, "id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\nperft 2 400\n\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 25\n").unwrap();
    let (code, out) = run(&["perft", "--suite", good.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("2 positions, 4 counts checked, 0 mismatches"));
    let bad = dir.path().join("bad.epd");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 26\n").unwrap();
    let (code, out) = run(&["perft", "--suite", bad.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(code, Some(1));
    assert!(out.contains(":1: 1 depth 2: expected 26, got 25"), "{out}");
    let (code, out) = run(&["perft", "--suite", bad.to_str().unwrap(), "--depth", "1"]);
    assert_eq!((code, out.contains("0 mismatches")), (Some(0), true));
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::cargo_bin("pgn960")
        .unwrap()
        .args(["sp", "--all"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout is closed here; pgn960 meets a broken pipe on its next write.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn perft_stops_at_the_first_ctrl_c_and_counts_alike_on_any_thread_count() {
    use std::process::Stdio;
    let mut child = pgn960_process()
        .args(["perft", "--sp", "518", "9"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = std::time::Instant::now();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "stopped promptly"
    );
    let counts: Vec<String> = ["1", "2", "3"]
        .iter()
        .map(|j| {
            let out = pgn960()
                .args(["-j", j, "perft", "--sp", "0", "5", "--divide", "--json"])
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap()
        })
        .collect();
    let nodes =
        |json: &str| serde_json::from_str::<serde_json::Value>(json).unwrap()["nodes"].clone();
    assert_eq!(
        nodes(&counts[0]),
        // SP 0 to depth 5: 4,975,808 (the shared SP table).
        serde_json::Value::from(4_975_808u64)
    );
    for c in &counts[1..] {
        assert_eq!(nodes(c), nodes(&counts[0]));
        let a: serde_json::Value = serde_json::from_str(c).unwrap();
        let b: serde_json::Value = serde_json::from_str(&counts[0]).unwrap();
        assert_eq!(a["divide"], b["divide"]);
    }
}

#[test]
fn a_bad_fen_is_reported_once() {
    let out = pgn960().args(["perft", "xx", "2"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.matches("expected 8 ranks").count(), 1, "{stderr}");
}

#[test]
fn sp_answers_in_json_too() {
    let out = pgn960()
        .args(["sp", "RNBQKBNR", "--json"])
        .output()
        .unwrap();
    let one: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(one["sp"], 518);
    assert_eq!(
        one["shredder_fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    let out = pgn960().args(["sp", "--all", "--json"]).output().unwrap();
    let all: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 960);
    assert_eq!(all[959]["start"], "RKRNNQBB");
}
