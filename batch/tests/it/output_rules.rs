//! Issue 28's findings about outputs and the command line, one test each: the output plan
//! (every output checked before any is committed), split's directory, summaries on
//! standard error, formats from the extension, escaped names, one wording.

use crate::util::*;
use std::path::Path;

/// A Chess960 game (SP 0) of `white` with `moves`.
fn game(white: &str, event: &str, moves: &str) -> String {
    format!(
        "[Event \"{event}\"]\n[White \"{white}\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"Chess960\"]\n\
         [SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n{moves} 1-0\n\n"
    )
}

/// Two valid games of two events and one invalid game, in `dir`.
fn games(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("in.pgn");
    let text = game("a", "Open", "1. e4 e5")
        + &game("c", "Blitz", "1. d4 d5")
        + &game("x", "Open", "1. e5");
    std::fs::write(&path, text).unwrap();
    path
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn split_refuses_an_output_inside_its_directory() {
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    let split = dir.path().join("split");
    for (option, name) in [
        ("--rejects", "event-Open.pgn"),
        ("--report", "event-Open.pgn"),
    ] {
        let out = pgn960()
            .arg("split")
            .arg(&input)
            .args(["--by", "event", "-o"])
            .arg(&split)
            .arg(option)
            .arg(split.join(name))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{option}: {stderr}");
        assert!(stderr.contains("inside"), "{stderr}");
    }
    assert!(!split.join("event-Open.pgn").exists());
}

#[test]
fn split_refuses_a_directory_with_files_unless_told_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    let split = dir.path().join("split");
    let run = |extra: &[&str]| {
        pgn960()
            .arg("split")
            .arg(&input)
            .args(["--by", "event", "-o"])
            .arg(&split)
            .args(extra)
            .output()
            .unwrap()
    };
    assert_eq!(run(&[]).status.code(), Some(1));
    let first = names_in(&split);
    assert_eq!(first, ["event-Blitz.pgn", "event-Open.pgn"]);
    let again = run(&[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    // --append: the games are added to the files of the same name.
    assert_eq!(run(&["--append"]).status.code(), Some(1));
    let open = std::fs::read_to_string(split.join("event-Open.pgn")).unwrap();
    assert_eq!(open.matches("[Event \"Open\"]").count(), 2, "{open}");
    // --force: an earlier file the new run does not write is removed.
    std::fs::write(split.join("event-Old.pgn"), game("o", "Old", "1. e4")).unwrap();
    // (The tags drop the invalid game before it is replayed: nothing invalid is met.)
    let forced = run(&["--force", "--white", "a"]);
    assert_eq!(
        forced.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    assert_eq!(names_in(&split), ["event-Open.pgn"]);
    let open = std::fs::read_to_string(split.join("event-Open.pgn")).unwrap();
    assert_eq!(open.matches("[Event \"Open\"]").count(), 1, "{open}");
}

#[test]
fn no_output_is_committed_when_another_cannot_be() {
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    let out = pgn960()
        .current_dir(dir.path())
        .arg("filter")
        .arg(&input)
        .args(["-o", "nodir/", "--rejects", "r.pgn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = pgn960()
        .current_dir(dir.path())
        .arg("clean")
        .arg(&input)
        .args(["-o", "nodir/"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(names_in(dir.path()), ["in.pgn"]);
}

#[test]
fn summaries_go_to_standard_error_and_quiet_silences_them() {
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    let runs: [&[&str]; 5] = [
        &["export", "{IN}", "-o", "{D}/e.csv"],
        &["clean", "{IN}", "-o", "{D}/c.pgn"],
        &["filter", "{IN}", "-o", "{D}/f.pgn"],
        &["stats", "{IN}", "-o", "{D}/s.csv"],
        &["tree", "{IN}", "-o", "{D}/t.csv"],
    ];
    for (i, args) in runs.iter().enumerate() {
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                a.replace("{IN}", &input.display().to_string())
                    .replace("{D}/", &format!("{}/{i}", dir.path().display()))
            })
            .collect();
        let loud = pgn960().args(&args).output().unwrap();
        assert!(
            loud.stdout.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&loud.stdout)
        );
        assert!(!loud.stderr.is_empty(), "{args:?}");
        let quiet = pgn960().arg("-q").args(&args).output().unwrap();
        assert!(
            quiet.stdout.is_empty() && quiet.stderr.is_empty(),
            "{args:?} -q"
        );
    }
}

#[test]
fn a_table_takes_its_format_from_its_extension() {
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    let json = dir.path().join("x.json");
    pgn960()
        .arg("stats")
        .arg(&input)
        .arg("-o")
        .arg(&json)
        .assert()
        .code(1);
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(
        serde_json::from_str::<serde_json::Value>(&text).is_ok(),
        "{text}"
    );
    let out = pgn960()
        .arg("stats")
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("y.json"))
        .args(["--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("json") && stderr.contains("csv"),
        "{stderr}"
    );
}

#[test]
fn stats_names_its_double_chess960_table_apart_from_filters_selection() {
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    let new = dir.path().join("new.csv");
    let out = pgn960()
        .arg("stats")
        .arg(&input)
        .args(["-o", "-", "--dfrc-table"])
        .arg(&new)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(new.exists());
    let old = dir.path().join("old.csv");
    let out = pgn960()
        .arg("stats")
        .arg(&input)
        .args(["-o", "-", "--dfrc"])
        .arg(&old)
        .output()
        .unwrap();
    assert!(old.exists());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--dfrc-table"));
}

#[test]
fn check_escapes_control_characters_of_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("esc.pgn");
    std::fs::write(
        &path,
        game("evil\u{1b}]0;pwned\u{7}\u{1b}[2J", "e", "1. e5"),
    )
    .unwrap();
    let out = pgn960().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    for stream in [&out.stdout, &out.stderr] {
        assert!(!stream.contains(&0x1b) && !stream.contains(&0x07));
    }
    assert!(String::from_utf8_lossy(&out.stdout).contains("\\u{1b}"));
}

#[test]
fn check_json_has_no_counts_it_never_fills() {
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    let out = pgn960()
        .arg("check")
        .arg(&input)
        .arg("--json")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report.get("written").is_none() && report.get("deduplicated").is_none());
    assert_eq!(report["games_read"], 3);
}

#[test]
fn sp_ranges_are_worded_one_way() {
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    let runs: [Vec<&str>; 3] = [
        vec!["sp", "960"],
        vec!["tree", "IN", "--sp", "960"],
        vec!["filter", "IN", "--count", "--sp", "960"],
    ];
    for args in runs {
        let input = input.display().to_string();
        let args: Vec<&str> = args
            .iter()
            .map(|a| if *a == "IN" { &input } else { *a })
            .collect();
        let out = pgn960().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("SP 960 is out of range (0 to 959)"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn xfen_into_a_closed_pipe_exits_with_the_bad_fen_status() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.fen");
    let mut text = String::from("not a fen\n");
    for _ in 0..60_000 {
        text.push_str("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n");
    }
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let mut child = pgn960_process()
        .arg("xfen")
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1));
}

#[test]
fn stats_tree_and_report_say_why_nothing_was_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.pgn");
    std::fs::write(&path, game("x", "e", "1. e5")).unwrap();
    for command in ["stats", "tree", "report"] {
        let out = pgn960()
            .arg(command)
            .arg(&path)
            .arg("-o")
            .arg(dir.path().join(format!("{command}.out.html")))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {stderr}");
        assert!(
            stderr.contains("nothing was counted"),
            "{command}: {stderr}"
        );
    }
}

/// Sends `signal` to a child process.
fn signal(child: &std::process::Child, signal: &str) {
    let sent = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

#[test]
fn sigterm_while_a_table_is_written_stops_it_and_commits_nothing() {
    use std::fmt::Write;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("names.pgn");
    let mut text = String::new();
    // Tables cut --by are long format (a row per SP with games): many names, so that the
    // table's cells take a while to analyse and write.
    for i in 0..20000 {
        text.write_str(&game(&format!("player{i}"), "e", "1. e4 e5"))
            .unwrap();
    }
    std::fs::write(&input, text).unwrap();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let child = pgn960_process()
        .arg("stats")
        .arg(&input)
        .args(["--by", "white", "-o"])
        .arg(out_dir.join("t.csv"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The table's temporary file is created once the games are read: wait until it grows.
    let started = std::time::Instant::now();
    let writing = loop {
        let growing = std::fs::read_dir(&out_dir).unwrap().flatten().any(|e| {
            e.file_name().to_string_lossy().ends_with(".tmp")
                && e.metadata().is_ok_and(|m| m.len() > 0)
        });
        if growing || started.elapsed() > std::time::Duration::from_secs(60) {
            break growing;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    signal(&child, "-TERM");
    let out = child.wait_with_output().unwrap();
    if !writing || out.status.code() == Some(0) && !out_dir.join("t.csv").exists() {
        eprintln!("skipping: the table was not seen being written");
        return;
    }
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out_dir.join("t.csv").exists(), "the table was committed");
}

#[test]
fn an_interrupted_run_says_what_went_to_standard_output() {
    use std::io::{Read, Write};
    let mut text = String::new();
    while text.len() < 48 << 20 {
        text.push_str(&game("a", "e", "1. e4 e5 2. Nc3 Nc6"));
    }
    let mut child = pgn960_process()
        .args(["-j1", "filter", "-", "-o", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The input is written by a thread of its own (the run stops reading it once stopped).
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    // Once some games reached standard output (past the 1 MiB buffer), the run is stopped.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).unwrap();
    let reader = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    let _ = (reader.join(), writer.join());
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(0) {
        eprintln!("skipping: the run finished before the signal arrived");
        return;
    }
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(!stderr.contains("no output was written"), "{stderr}");
    assert!(stderr.contains("standard output is incomplete"), "{stderr}");
}

#[test]
fn sp_and_perft_offer_only_the_options_they_use() {
    let help = |command: &str| {
        let out = pgn960().args([command, "--help"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let sp = help("sp");
    for option in [
        "--threads",
        "--quiet",
        "--no-progress",
        "--variant",
        "--max-game-bytes",
    ] {
        assert!(!sp.contains(option), "sp --help offers {option}");
    }
    let perft = help("perft");
    assert!(perft.contains("--threads") && perft.contains("--quiet"));
    for option in ["--no-progress", "--variant", "--max-game-bytes"] {
        assert!(!perft.contains(option), "perft --help offers {option}");
    }
    let check = help("check");
    assert!(check.contains("--max-game-bytes") && check.contains("Exit status"));
    // Before or after the command's name, the reading options still work.
    let dir = tempfile::tempdir().unwrap();
    let input = games(dir.path());
    for args in [["-j1", "check"], ["check", "-j1"]] {
        pgn960().args(args).arg(&input).arg("-q").assert().code(1);
    }
}

/// The policy on formula injection (docs/outputs.md): the rejects TSV, opened in
/// spreadsheets, has a cell beginning with `=`, `+`, `-` or `@` quoted with `'`; the
/// `export` table is data for DuckDB and polars and keeps every value exact.
#[test]
fn rejects_tsv_cells_are_spreadsheet_safe_and_export_stays_exact() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = "=cmd|' /C calc'!A0";
    let input = dir.path().join("in.pgn");
    std::fs::write(
        &input,
        game(hostile, "@SUM(1+1)", "1. e4 e5 2. Ke3").replace("[Black \"b\"]", "[Black \"+1\"]"),
    )
    .unwrap();
    let (out, tsv) = (dir.path().join("out.pgn"), dir.path().join("r.tsv"));
    pgn960()
        .arg("clean")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--rejects")
        .arg(dir.path().join("r.pgn"))
        .assert()
        .code(1);
    let text = std::fs::read_to_string(&tsv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split('\t').collect();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split('\t').collect();
    let cell = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(cell("white"), format!("'{hostile}"), "{text}");
    assert_eq!(cell("black"), "'+1", "{text}");
    assert!(
        !row.iter().any(|c| c.starts_with(['=', '+', '-', '@'])),
        "{text}"
    );

    let csv = dir.path().join("t.csv");
    pgn960()
        .args(["export", "--include-invalid", "-o"])
        .arg(&csv)
        .arg(&input)
        .assert()
        .code(1);
    let table = std::fs::read_to_string(&csv).unwrap();
    assert!(table.contains(hostile), "{table}");
    assert!(!table.contains(&format!("'{hostile}")), "{table}");
}

/// A full disk (`/dev/full`) is named as the output that could not be written, once, not
/// as an error "while reading" the input, whatever the command and format.
#[test]
fn a_full_disk_names_the_output_once() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Enough games that the outputs' buffers fill while the input is being read.
    let input = games(dir.path());
    let text = std::fs::read_to_string(&input).unwrap().repeat(3_000);
    std::fs::write(&input, text).unwrap();
    for args in [
        &["clean", "-o", "/dev/full"][..],
        &["filter", "-o", "/dev/full"],
        &[
            "export",
            "--per",
            "ply",
            "--format",
            "csv",
            "-o",
            "/dev/full",
        ],
        &["export", "--format", "parquet", "-o", "/dev/full"],
    ] {
        let out = pgn960().args(args).arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("cannot write /dev/full: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("while reading"), "{args:?}: {stderr}");
        assert_eq!(
            stderr.matches("No space left").count(),
            1,
            "{args:?}: {stderr}"
        );
    }
}
