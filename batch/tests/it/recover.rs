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
        .args(["--limit", "150", "--starts", "chess960"])
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

#[test]
fn assume_sp_settles_ambiguous_starts_in_filter_split_and_stats_too() {
    let dir = tempfile::tempdir().unwrap();
    // Several starts fit `1. Nb3 Nb6`, SP 1 among them: start-ambiguous unless assumed.
    let input = dir.path().join("ambiguous.pgn");
    std::fs::write(
        &input,
        "[Variant \"Chess960\"]\n[FEN \"?\"]\n[Result \"1-0\"]\n\n1. Nb3 Nb6 1-0\n",
    )
    .unwrap();
    let filtered = dir.path().join("f.pgn");
    let filter = |extra: &[&str]| {
        pgn960()
            .args(extra)
            .arg("filter")
            .arg(&input)
            .arg("-o")
            .arg(&filtered)
            .arg("--normalise")
            .assert()
    };
    filter(&[]).code(1);
    assert_eq!(std::fs::read_to_string(&filtered).unwrap(), "");
    filter(&["--assume-sp", "1"]).code(0);
    let sp1 = "[FEN \"bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w KQkq - 0 1\"]";
    assert!(std::fs::read_to_string(&filtered).unwrap().contains(sp1));
    pgn960().arg("check").arg(&filtered).assert().code(0);
    let parts = dir.path().join("parts");
    pgn960()
        .args(["--assume-sp", "1", "split"])
        .arg(&input)
        .arg("-o")
        .arg(&parts)
        .args(["--by", "sp"])
        .assert()
        .code(0);
    assert!(parts.join("sp-0001.pgn").exists());
    let sp1_games = |extra: &[&str]| -> String {
        let out = pgn960()
            .args(extra)
            .arg("stats")
            .arg(&input)
            .output()
            .unwrap();
        let mut reader = csv::Reader::from_reader(&out.stdout[..]);
        let row = reader.records().nth(1).unwrap().unwrap();
        assert_eq!(&row[0], "1");
        row[2].to_string()
    };
    assert_eq!(sp1_games(&[]), "0");
    assert_eq!(sp1_games(&["--assume-sp", "1"]), "1");
}

#[test]
fn every_command_that_reads_games_takes_assume_sp() {
    let dir = tempfile::tempdir().unwrap();
    // Several starts fit `1. Nb3 Nb6`, SP 1 among them: start-ambiguous unless assumed.
    let input = dir.path().join("ambiguous.pgn");
    std::fs::write(
        &input,
        "[Variant \"Chess960\"]\n[FEN \"?\"]\n[Result \"1-0\"]\n\n1. Nb3 Nb6 1-0\n",
    )
    .unwrap();
    let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    // Each command, its arguments after the input, and what its output (standard output,
    // standard error and the file written, together) says when SP 1 is taken.
    let cases: Vec<(&str, Vec<String>, &str)> = vec![
        ("check", vec![], "start-assumed"),
        (
            "clean",
            vec!["-o".into(), out("clean.pgn")],
            "BQNBNRKR w KQkq",
        ),
        (
            "export",
            vec!["-o".into(), out("t.csv")],
            "exported:                     1",
        ),
        (
            "filter",
            vec!["-o".into(), out("f.pgn"), "--normalise".into()],
            "BQNBNRKR w KQkq",
        ),
        (
            "split",
            vec!["-o".into(), out("parts"), "--by".into(), "sp".into()],
            "sp-0001.pgn",
        ),
        ("stats", vec![], "1,BQNBNRKR,1,1"),
        ("tree", vec![], "1,,Nb3,c1b3,1"),
        (
            "report",
            vec!["-o".into(), out("page.html")],
            "1 games in the SP table",
        ),
        (
            "book",
            vec!["-o".into(), out("book.epd"), "--plies".into(), "1".into()],
            "written 1",
        ),
    ];
    for (command, args, assumed) in cases {
        let run = |extra: &[&str]| -> String {
            let output = pgn960()
                .args(extra)
                .arg(command)
                .arg(&input)
                .args(&args)
                .output()
                .unwrap();
            let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&output.stderr));
            if let Some(i) = args.iter().position(|a| a == "-o") {
                let path = Path::new(&args[i + 1]);
                if path.is_dir() {
                    for entry in std::fs::read_dir(path).unwrap() {
                        text.push_str(&entry.unwrap().file_name().to_string_lossy());
                    }
                } else {
                    text.push_str(&std::fs::read_to_string(path).unwrap_or_default());
                }
                let _ = std::fs::remove_dir_all(path);
                let _ = std::fs::remove_file(path);
            }
            text
        };
        let plain = run(&[]);
        assert!(
            !plain.contains(assumed),
            "{command} without --assume-sp: {plain}"
        );
        let with = run(&["--assume-sp", "1"]);
        assert!(with.contains(assumed), "{command} --assume-sp 1: {with}");
    }
}

#[test]
fn assume_sp_names_a_double_chess960_pair_as_the_message_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    // Many pairs fit `1. Nb3 Nb6` in Double Chess960: start-ambiguous unless one is assumed.
    let input = dir.path().join("dfrc.pgn");
    let game = "[Variant \"Double Chess960\"]\n[FEN \"?\"]\n[Result \"*\"]\n\n1. Nb3 Nb6 *\n";
    std::fs::write(&input, game).unwrap();
    let checked = pgn960().arg("check").arg(&input).output().unwrap();
    let message = String::from_utf8_lossy(&checked.stdout).into_owned();
    let named = message.split_once("main line: ").unwrap().1;
    let pair = |text: &str| -> (u16, u16) {
        let (w, b) = text.trim_start_matches('(').split_once(", ").unwrap();
        let b: String = b.chars().take_while(char::is_ascii_digit).collect();
        (w.parse().unwrap(), b.parse().unwrap())
    };
    let (white, black) = named.split("), ").map(pair).find(|(w, b)| w != b).unwrap();
    let cleaned = dir.path().join("clean.pgn");
    let table = dir.path().join("t.csv");
    for written in [format!("{white},{black}"), format!("({white}, {black})")] {
        pgn960()
            .args(["--assume-sp", &written, "clean"])
            .arg(&input)
            .arg("-o")
            .arg(&cleaned)
            .assert()
            .code(0);
        pgn960()
            .arg("export")
            .arg(&cleaned)
            .arg("-o")
            .arg(&table)
            .args(["--columns", "sp,black_sp"])
            .assert()
            .code(0);
        let csv = std::fs::read_to_string(&table).unwrap();
        assert_eq!(csv, format!("sp,black_sp\n{white},{black}\n"), "{written}");
    }
    for bad in ["1,960", "960", "1,2,3", "x"] {
        pgn960()
            .args(["--assume-sp", bad, "check"])
            .arg(&input)
            .assert()
            .code(2);
    }
}

#[test]
fn double_chess960_starts_are_recovered_as_their_pairs_in_python_chess() {
    const TEST: &str =
        "recover::double_chess960_starts_are_recovered_as_their_pairs_in_python_chess";
    let Some(tcec) = shared_data(TEST, "pgn/tcec") else {
        return;
    };
    let Some(python) = python_with(TEST, &["chess"]) else {
        return;
    };
    let inputs = [
        "TCEC_Season_24_-_Dfrc_2_Final.pgn",
        "TCEC_Season_29_-_Frd_5_Final.pgn",
    ];
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/recover_oracle.py");
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_pgn960"))
        .arg(tmp.path())
        .args(inputs.iter().map(|name| tcec.join(name)))
        .args(["--variant-tag", "Double Chess960"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = |key: &str| summary[key].as_u64().unwrap();
    assert_eq!(n("games"), 100, "{summary}");
    assert_eq!(n("double_chess960_starts"), 100, "{summary}");
    assert_eq!(n("wrong_start"), 0, "{summary}");
    assert_eq!(n("replay_mismatch"), 0, "{summary}");
    assert_eq!(
        n("unknown") + n("other_rejected") + n("missing"),
        0,
        "{summary}"
    );
    assert_eq!(n("kept") + n("ambiguous"), n("games"), "{summary}");
    assert!(n("kept_double_chess960") > 0, "{summary}");
}

#[test]
fn an_archive_declared_double_chess960_recovers_no_wrong_single_sp() {
    const TEST: &str = "recover::an_archive_declared_double_chess960_recovers_no_wrong_single_sp";
    let Some(tcec) = shared_data(TEST, "pgn/tcec") else {
        return;
    };
    let Some(python) = python_with(TEST, &["chess"]) else {
        return;
    };
    // Two games of this league, from (588, 301), fit SP 588 alone: tagged as TCEC tags
    // them, they are recovered from a start that is not theirs unless the archive is
    // declared Double Chess960.
    let input = tcec.join("TCEC_Season_24_-_Dfrc_2_League_1.pgn");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/recover_oracle.py");
    for (variant, wrong) in [(None, 2), (Some("double-chess960"), 0)] {
        let tmp = tempfile::tempdir().unwrap();
        let mut command = std::process::Command::new(&python);
        command
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_pgn960"))
            .arg(tmp.path())
            .arg(&input)
            .args(["--variant-tag", "fischerandom"]);
        if let Some(variant) = variant {
            command.args(["--variant", variant]);
        }
        let out = command.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let n = |key: &str| summary[key].as_u64().unwrap();
        assert_eq!(n("wrong_start"), wrong, "{variant:?}: {summary}");
        assert_eq!(n("replay_mismatch"), wrong, "{variant:?}: {summary}");
        assert_eq!(n("kept") + n("ambiguous"), n("games"), "{summary}");
    }
}
