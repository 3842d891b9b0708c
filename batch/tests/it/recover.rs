//! Start-position recovery against python-chess (skips without python-chess or
//! `../shared/data`): games of the real files and of the lichess-style corpus, their FEN
//! tags replaced by `?`, are kept only with their original start, and each kept game's main
//! line replays identically from it in python-chess (`scripts/recover_oracle.py`).

#[allow(unused_imports)]
use crate::util::*;

use std::path::Path;

#[test]
fn recovered_starts_are_the_original_starts_and_replay_in_python_chess() {
    const TEST: &str =
        "recover::recovered_starts_are_the_original_starts_and_replay_in_python_chess";
    let Some(data) = shared_data(TEST, "corpus/lichess-style-4000.pgn") else {
        return;
    };
    let Some(python) = python_with(TEST, &["chess"]) else {
        return;
    };
    let pgn_dir = data.parent().unwrap().parent().unwrap().join("pgn");
    let mut inputs = vec![data.clone()];
    for sub in ["tcec", "lichess-broadcast", "chesscom"] {
        for entry in std::fs::read_dir(pgn_dir.join(sub)).unwrap() {
            inputs.push(entry.unwrap().path());
        }
    }
    inputs.push(pgn_dir.join("pychess-chess960rwch.pgn"));
    inputs.push(pgn_dir.join("fics-chess960.pgn"));
    inputs.sort();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/recover_oracle.py");
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_pgn960"))
        .arg(tmp.path())
        .args(&inputs)
        .args(["--limit", "150"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = |key: &str| summary[key].as_u64().unwrap();
    assert!(n("games") > 400, "{summary}");
    assert_eq!(n("wrong_start"), 0, "{summary}");
    assert_eq!(n("replay_mismatch"), 0, "{summary}");
    assert_eq!(n("missing"), 0, "{summary}");
    assert_eq!(n("unknown") + n("other_rejected"), 0, "{summary}");
    assert_eq!(n("kept") + n("ambiguous"), n("games"), "{summary}");
    // Most games are long enough for one start to fit (87% of the corpus).
    assert!(n("kept") * 4 > n("games") * 3, "{summary}");
}

#[test]
fn assume_sp_is_a_global_option_that_settles_an_ambiguous_start() {
    let fixture = fixture("check/start-recovery.pgn");
    let report = |extra: &[&str]| -> serde_json::Value {
        let out = pgn960()
            .args(extra)
            .arg("check")
            .arg(&fixture)
            .arg("--json")
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let plain = report(&[]);
    assert_eq!(plain["rejected_by_reason"]["start-ambiguous"], 2);
    assert_eq!(plain["repairs"]["start-recovered"], 4);
    assert_eq!(plain["repairs"]["start-from-tag"], 4);
    // SP 1 fits both ambiguous games (`1. e4 e5`, `1. Nb3 Nb6`).
    let assumed = report(&["--assume-sp", "1"]);
    assert_eq!(assumed["repairs"]["start-assumed"], 2, "{assumed}");
    assert!(assumed["rejected_by_reason"]
        .get("start-ambiguous")
        .is_none());
    let out = pgn960()
        .args(["--assume-sp", "960", "check"])
        .arg(&fixture)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
