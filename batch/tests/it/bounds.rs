//! Resources bounded whatever the input: messages and TSV cells of a bounded length, the
//! work of locating rejected games linear in their number, huge games and junk read in
//! bounded memory.

use crate::util::*;
use std::io::Write;
use test_support::{gzip, program};

#[test]
fn a_one_megabyte_move_or_name_gives_short_messages_and_cells_and_whole_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let huge_move = "Nf3".repeat(350_000);
    let huge_name = "W".repeat(1 << 20);
    let pgn = format!(
        "[Event \"ok\"]\n\n1. e4 e5 *\n\n\
         [Event \"bad move\"]\n\n1. e4 {huge_move} *\n\n\
         [Event \"bad name\"]\n[White \"{huge_name}\"]\n\n1. e4 e4 *\n"
    );
    let input = dir.path().join("in.pgn");
    std::fs::write(&input, &pgn).unwrap();
    let out = pgn960().arg("check").arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let longest = stdout.lines().map(str::len).max().unwrap_or(0);
    assert!(
        longest < 400,
        "a message line of {longest} bytes:\n{stdout:.2000}"
    );
    assert!(
        stdout.contains(&format!("\"{}…\" (1,050,000 bytes)", &huge_move[..40])),
        "{stdout:.2000}"
    );
    assert!(stdout.contains("(1,048,576 bytes)"), "{stdout:.2000}");

    let rejects = dir.path().join("r.pgn");
    pgn960()
        .arg("clean")
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("out.pgn"))
        .arg("--rejects")
        .arg(&rejects)
        .assert()
        .code(1);
    let tsv = std::fs::read_to_string(dir.path().join("r.tsv")).unwrap();
    let longest = tsv.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 600, "a TSV row of {longest} bytes");
    assert_eq!(tsv.lines().count(), 3, "header and two rows");
    // The rejects file has both games whole.
    let rejected = std::fs::read_to_string(&rejects).unwrap();
    assert!(rejected.contains(&huge_move) && rejected.contains(&huge_name));
}

/// A game whose comment holds `bytes` bytes.
fn huge_game(bytes: usize) -> Vec<u8> {
    let mut game = b"[Event \"huge\"]\n[White \"w\"]\n\n1. e4 {".to_vec();
    game.resize(game.len() + bytes, b'x');
    game.extend_from_slice(b"} e5 *");
    game
}

const BEFORE: &[u8] = b"[Event \"a\"]\n\n1. e4 e5 *\n\n";
const AFTER: &[u8] = b"\n\n[Event \"b\"]\n\n1. d4 d5 *\n";

/// `pgn960 ARGS` under GNU time: (exit status, stdout, stderr, peak RSS in MB), or `None`
/// (a visible skip) without GNU time.
fn run_measured(
    test: &str,
    args: &[&std::ffi::OsStr],
    stdin: Option<Box<dyn FnOnce(std::process::ChildStdin) + Send>>,
) -> Option<(Option<i32>, String, String, u64)> {
    use std::process::Stdio;
    let time = program(test, &["time"], "apt-get install time")?;
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("time");
    let bin = assert_cmd::cargo::cargo_bin("pgn960");
    let mut child = std::process::Command::new(time)
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&report)
        .arg(bin)
        .arg("--no-progress")
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let writer = stdin.map(|feed| {
        let pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || feed(pipe))
    });
    let out = child.wait_with_output().unwrap();
    if let Some(w) = writer {
        w.join().unwrap();
    }
    let kb: u64 = std::fs::read_to_string(&report)
        .unwrap()
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap();
    Some((
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        kb / 1024,
    ))
}

/// Peak memory allowed for a run over a 300 MB game or junk with the default limit
/// (64 MiB): the limit, its buffer's growth and the chunks in flight. Holding the game
/// whole takes 2-4 times its size.
const PEAK_MB: u64 = 400;

#[test]
fn a_300_mb_game_in_a_zst_is_rejected_as_too_large_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.pgn.zst");
    {
        let file = std::fs::File::create(&path).unwrap();
        let mut z = zstd::stream::write::Encoder::new(file, 1).unwrap();
        z.write_all(BEFORE).unwrap();
        z.write_all(b"[Event \"huge\"]\n\n1. e4 {").unwrap();
        let block = vec![b'x'; 1 << 20];
        for _ in 0..300 {
            z.write_all(&block).unwrap();
        }
        z.write_all(b"} e5 *").unwrap();
        z.write_all(AFTER).unwrap();
        z.finish().unwrap();
    }
    let test = "a_300_mb_game_in_a_zst_is_rejected_as_too_large_in_bounded_memory";
    let args = [std::ffi::OsStr::new("check"), path.as_os_str()];
    let Some((code, stdout, stderr, peak)) = run_measured(test, &args, None) else {
        return;
    };
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stdout.contains("too-large") || stdout.contains("--max-game-bytes"),
        "{stdout}"
    );
    assert!(stdout.contains("huge.pgn.zst:5:1: game 2"), "{stdout}");
    let read = stdout
        .lines()
        .find(|l| l.starts_with("games read:"))
        .unwrap_or_default();
    assert_eq!(read.split_whitespace().nth(2), Some("3"), "{stdout}");
    assert!(peak < PEAK_MB, "peak RSS {peak} MB");
}

#[test]
fn a_game_over_the_limit_is_copied_whole_to_the_rejects_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let game = huge_game(5 << 20);
    let pgn = [BEFORE, &game, AFTER].concat();
    let input = dir.path().join("in.pgn.gz");
    std::fs::write(&input, gzip(&pgn)).unwrap();
    let plain = dir.path().join("in.pgn");
    std::fs::write(&plain, &pgn).unwrap();
    // A stream (cut in pieces) and a mapped file (judged by its byte range) alike.
    for (name, input) in [("stream", &input), ("mapped", &plain)] {
        let out = dir.path().join(format!("{name}.pgn"));
        let rejects = dir.path().join(format!("{name}.rejects.pgn"));
        let run = pgn960()
            .args(["--max-game-bytes", "1000000", "clean"])
            .arg(input)
            .arg("-o")
            .arg(&out)
            .arg("--rejects")
            .arg(&rejects)
            .arg("--report")
            .arg(dir.path().join(format!("{name}.json")))
            .output()
            .unwrap();
        assert_eq!(
            run.status.code(),
            Some(1),
            "{name}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let rejected = std::fs::read(&rejects).unwrap();
        assert_eq!(
            rejected.trim_ascii_end(),
            &game[..],
            "{name}: the game whole, once"
        );
        let kept = std::fs::read_to_string(&out).unwrap();
        assert_eq!(kept.matches("[Event ").count(), 2, "{name}");
        let tsv = std::fs::read_to_string(dir.path().join(format!("{name}.rejects.tsv"))).unwrap();
        assert!(tsv.contains("too-large"), "{name}: {tsv}");
        let report: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(report["games_read"], 3, "{name}");
        assert_eq!(report["written"], 2, "{name}");
        assert_eq!(report["rejected_by_reason"]["too-large"], 1, "{name}");
    }
    // 0: no limit; the game is read (and kept: its comment is fine).
    pgn960()
        .args(["--max-game-bytes", "0", "check"])
        .arg(&input)
        .assert()
        .code(0);
}

#[test]
fn hundreds_of_megabytes_of_junk_through_a_pipe_are_skipped_in_bounded_memory() {
    let test = "hundreds_of_megabytes_of_junk_through_a_pipe_are_skipped_in_bounded_memory";
    let feed = |mut pipe: std::process::ChildStdin| {
        let zeros = vec![0u8; 1 << 20];
        let _ = pipe.write_all(BEFORE);
        for _ in 0..300 {
            if pipe.write_all(&zeros).is_err() {
                return;
            }
        }
        let _ = pipe.write_all(AFTER);
    };
    let args = [std::ffi::OsStr::new("check"), std::ffi::OsStr::new("-")];
    let Some((code, stdout, stderr, peak)) = run_measured(test, &args, Some(Box::new(feed))) else {
        return;
    };
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("314572"), "the junk bytes counted: {all}");
    assert!(peak < PEAK_MB, "peak RSS {peak} MB");
}

#[test]
fn the_first_ctrl_c_stops_a_run_reading_one_endless_streamed_game() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = pgn960_process()
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // One game whose comment never ends, written until the run stops reading.
    let writer = std::thread::spawn(move || {
        let block = vec![b'x'; 1 << 16];
        let _ = pipe.write_all(b"[Event \"endless\"]\n\n1. e4 {");
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            if pipe.write_all(&block).is_err() {
                return;
            }
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let took = sent.elapsed();
    writer.join().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(took < Duration::from_secs(20), "stopped after {took:?}");
}

#[test]
fn one_rule_for_empty_and_damaged_compressed_files_whatever_the_format() {
    // The rule (docs/reliability.md): a file of no bytes named for a compression is not a
    // valid compressed file; a valid one holding nothing holds no game; bytes after the
    // last complete frame or member are damage. Each is an error (exit 2), in every format.
    let dir = tempfile::tempdir().unwrap();
    let game = b"[Event \"a\"]\n\n1. e4 e5 *\n";
    for format in pgn960::compression::COMPRESSIONS {
        let compress = |text: &[u8], name: &str| {
            let path = dir.path().join(format!("{name}.pgn.{}", format.extension));
            let file = std::fs::File::create(&path).unwrap();
            let mut w = (format.encoder)(Box::new(file)).unwrap();
            w.write_all(text).unwrap();
            w.finish().unwrap();
            path
        };
        let ext = format.extension;
        let zero = dir.path().join(format!("zero.pgn.{ext}"));
        std::fs::write(&zero, b"").unwrap();
        let empty = compress(b"", "empty");
        let good = compress(game, "good");
        let trailing = dir.path().join(format!("trailing.pgn.{ext}"));
        let mut bytes = std::fs::read(&good).unwrap();
        bytes.extend_from_slice(b"garbage\n");
        std::fs::write(&trailing, bytes).unwrap();
        pgn960().arg("check").arg(&good).assert().code(0);
        for (path, says) in [
            (&zero, "cannot read"),
            (&empty, "no game found: it is empty"),
            (&trailing, "cannot read"),
        ] {
            let out = pgn960().arg("check").arg(path).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{}: {stderr}", path.display());
            assert!(stderr.contains(says), "{}: {stderr}", path.display());
        }
    }
}

#[test]
fn filter_and_report_count_a_game_over_the_limit_once_as_too_large() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = [BEFORE, &huge_game(3 << 20), AFTER].concat();
    let input = dir.path().join("in.pgn.gz");
    std::fs::write(&input, gzip(&pgn)).unwrap();
    let run = |args: &[&str]| {
        let out = pgn960()
            .args(["--max-game-bytes", "1000000"])
            .args(args)
            .arg(&input)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (_, filter) = run(&["filter", "--count"]);
    assert!(filter.contains("rejected, too-large: 1"), "{filter}");
    // (`tree`: see `tree_counts_a_game_over_the_limit_once_as_invalid_not_its_pieces`.)
    let page = dir.path().join("r.html");
    // An invalid game (too-large) makes the status 1 (docs/outputs.md).
    let (code, report) = run(&["report", "-o", page.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{report}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("too-large"), "the page names the reason");
}

/// `pgn960 --max-game-bytes 1000000 ARGS`: (exit status, stdout and stderr).
fn run_limited(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = pgn960()
        .args(["--max-game-bytes", "1000000"])
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

#[test]
fn filter_and_split_copy_a_game_over_the_limit_whole_to_their_rejects() {
    let dir = tempfile::tempdir().unwrap();
    // Over 8 MiB: from a mapped file, the sink copies it from the map, not the worker.
    let game = huge_game(9 << 20);
    let pgn = [BEFORE, &game, AFTER].concat();
    let stream = dir.path().join("in.pgn.gz");
    std::fs::write(&stream, gzip(&pgn)).unwrap();
    let mapped = dir.path().join("in.pgn");
    std::fs::write(&mapped, &pgn).unwrap();
    let os = |s: &str| std::ffi::OsString::from(s);
    for (name, input) in [("stream", &stream), ("mapped", &mapped)] {
        let runs: [(&str, Vec<std::ffi::OsString>); 4] = [
            ("filter", vec![os("filter"), os("-o"), os("kept.pgn")]),
            (
                "filter-normalise",
                vec![os("filter"), os("--normalise"), os("-o"), os("kept.pgn")],
            ),
            (
                "filter-by-tag",
                vec![
                    os("filter"),
                    os("--event"),
                    os("nothing"),
                    os("-o"),
                    os("kept.pgn"),
                ],
            ),
            (
                "split",
                vec![os("split"), os("--by"), os("sp"), os("-o"), os("parts")],
            ),
        ];
        for (what, args) in runs {
            let run_dir = dir.path().join(format!("{name}-{what}"));
            std::fs::create_dir(&run_dir).unwrap();
            let rejects = run_dir.join("rejects.pgn");
            let mut all: Vec<std::ffi::OsString> = args
                .into_iter()
                .map(|a| match a.to_str() {
                    Some("kept.pgn" | "parts") => run_dir.join(&a).into_os_string(),
                    _ => a,
                })
                .collect();
            all.extend([
                input.as_os_str().into(),
                os("--rejects"),
                rejects.clone().into(),
            ]);
            let all: Vec<&std::ffi::OsStr> = all.iter().map(|a| a.as_os_str()).collect();
            let (code, text) = run_limited(&all);
            assert_eq!(code, Some(1), "{name} {what}: {text}");
            assert!(
                text.contains("rejected, too-large: 1"),
                "{name} {what}: {text}"
            );
            assert!(text.contains("games read 3 ="), "{name} {what}: {text}");
            let rejected = std::fs::read(&rejects).unwrap();
            assert!(
                rejected.trim_ascii_end() == &game[..],
                "{name} {what}: the game whole, once ({} bytes written)",
                rejected.len()
            );
            let tsv = std::fs::read_to_string(run_dir.join("rejects.tsv")).unwrap();
            assert!(
                tsv.contains("\t5\t1\t"),
                "{name} {what}: located at 5:1: {tsv}"
            );
        }
    }
}

/// Peak memory allowed over a run of a 150 MB game with `--max-game-bytes 1000000`,
/// through a pipe: the chunks in flight (export's are row groups of 8 MiB), not
/// the game. From a mapped file, the game's pages count too: this much over its size.
const PEAK_OVER_LIMIT_MB: u64 = 120;

#[test]
fn every_command_rejects_a_150_mb_game_once_as_too_large_in_memory_bounded_by_the_limit() {
    let test =
        "every_command_rejects_a_150_mb_game_once_as_too_large_in_memory_bounded_by_the_limit";
    let dir = tempfile::tempdir().unwrap();
    // A tag value of 150 MB: what a table row or a copied game would hold whole.
    let mut game = b"[Event \"huge\"]\n[White \"".to_vec();
    game.resize(game.len() + (150 << 20), b'w');
    game.extend_from_slice(b"\"]\n\n1. e4 e5 *");
    let pgn = std::sync::Arc::new([BEFORE, &game, AFTER].concat());
    drop(game);
    let mapped = dir.path().join("in.pgn");
    std::fs::write(&mapped, &pgn[..]).unwrap();
    let out = |name: &str| dir.path().join(name).into_os_string();
    let os = std::ffi::OsString::from;
    // Each command, and what it prints for one game rejected as too large.
    let commands: Vec<(Vec<std::ffi::OsString>, &str)> = vec![
        (vec![os("check")], "too-large                     1"),
        (vec![os("stats")], "invalid: 1,"),
        (
            vec![os("export"), os("-o"), out("t.parquet")],
            "too-large                     1",
        ),
        (
            vec![os("export"), os("-o"), out("t.csv")],
            "too-large                     1",
        ),
        (vec![os("tree"), os("-o"), out("t.csv")], "invalid: 1,"),
        (vec![os("report"), os("-o"), out("r.html")], ""),
        (
            vec![os("filter"), os("-o"), out("f.pgn")],
            "rejected, too-large: 1",
        ),
    ];
    for stream in [false, true] {
        for (args, says) in &commands {
            let mut all: Vec<&std::ffi::OsStr> =
                vec!["--max-game-bytes".as_ref(), "1000000".as_ref()];
            all.extend(args.iter().map(|a| a.as_os_str()));
            all.push(if stream {
                "-".as_ref()
            } else {
                mapped.as_os_str()
            });
            let feed = stream.then(|| {
                let pgn = std::sync::Arc::clone(&pgn);
                Box::new(move |mut pipe: std::process::ChildStdin| {
                    let _ = pipe.write_all(&pgn);
                }) as Box<dyn FnOnce(std::process::ChildStdin) + Send>
            });
            let Some((code, stdout, stderr, peak)) = run_measured(test, &all, feed) else {
                return;
            };
            let what = format!("{args:?} (stream: {stream})");
            assert!(matches!(code, Some(0 | 1)), "{what}: {stderr}");
            let text = format!("{stdout}{stderr}");
            assert!(text.contains(says), "{what}: {text:.3000}");
            if args[0] == "report" {
                let html = std::fs::read_to_string(dir.path().join("r.html")).unwrap();
                assert!(
                    html.contains("\"too-large\":1"),
                    "{what}: the page counts it"
                );
            }
            let over = if stream { 0 } else { pgn.len() as u64 >> 20 };
            assert!(
                peak < over + PEAK_OVER_LIMIT_MB,
                "{what}: peak RSS {peak} MB, {over} MB of it the mapped input"
            );
        }
    }
}

#[test]
fn tree_counts_a_game_over_the_limit_once_as_invalid_not_its_pieces() {
    // A comment of results: its pieces, read as games, would be a million games of no move.
    let dir = tempfile::tempdir().unwrap();
    let mut game = b"[Event \"huge\"]\n\n1. e4 {".to_vec();
    while game.len() < 3 << 20 {
        game.extend_from_slice(b"* ");
    }
    game.extend_from_slice(b"} e5 *");
    let pgn = [BEFORE, &game, AFTER].concat();
    let stream = dir.path().join("in.pgn.gz");
    std::fs::write(&stream, gzip(&pgn)).unwrap();
    let mapped = dir.path().join("in.pgn");
    std::fs::write(&mapped, &pgn).unwrap();
    for input in [&stream, &mapped] {
        let table = dir.path().join("t.csv");
        let (code, text) = run_limited(&[
            "tree".as_ref(),
            "-o".as_ref(),
            table.as_os_str(),
            input.as_os_str(),
        ]);
        assert_eq!(code, Some(1), "{text}");
        assert!(
            text.contains("games read: 3, counted: 0, nodes: 0, invalid: 1, unfinished: 2"),
            "{}: {text}",
            input.display()
        );
    }
}

#[test]
fn a_game_larger_than_memory_without_a_limit_is_an_error_not_an_abort() {
    use std::process::{Command, Stdio};
    // Under a limit of 500 MB of address space (`ulimit -v`), with no game size limit, a
    // streamed game of 600 MB cannot be held: the buffer that would hold it is refused.
    let run = |feed: Box<dyn FnOnce(std::process::ChildStdin) + Send>| {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 500000 && exec \"$0\" \"$@\"")
            .arg(assert_cmd::cargo::cargo_bin("pgn960"))
            .args([
                "--no-progress",
                "--max-game-bytes",
                "0",
                "-j1",
                "check",
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pipe = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || feed(pipe));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // The limit leaves room for an ordinary run.
    let (code, stderr) = run(Box::new(|mut pipe| {
        let _ = pipe.write_all(BEFORE);
    }));
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stderr) = run(Box::new(|mut pipe| {
        let _ = pipe.write_all(BEFORE);
        let _ = pipe.write_all(b"[Event \"huge\"]\n\n1. e4 {");
        let block = vec![b'x'; 1 << 20];
        for _ in 0..600 {
            if pipe.write_all(&block).is_err() {
                return;
            }
        }
        let _ = pipe.write_all(b"} e5 *\n");
    }));
    assert_eq!(code, Some(2), "an error, not an abort: {stderr}");
    assert!(
        stderr.contains("not enough memory to hold")
            && stderr.contains("from line 5")
            && stderr.contains("use --max-game-bytes"),
        "{stderr}"
    );
}

/// A file in `dir` holding a game of 30 MB of legal moves (7.5 million plies) between two
/// small games: the file and the long game's length.
fn long_game_between_two(dir: &std::path::Path) -> (std::path::PathBuf, usize) {
    let mut game = b"[Event \"long\"]\n\n".to_vec();
    while game.len() < 30 << 20 {
        game.extend_from_slice(b"Nf3 Nf6 Ng1 Ng8 ");
    }
    game.extend_from_slice(b"*");
    let input = dir.join("in.pgn");
    std::fs::write(&input, [BEFORE, &game, AFTER].concat()).unwrap();
    (input, game.len())
}

#[test]
fn report_memory_does_not_grow_with_the_length_of_a_game() {
    let test = "report_memory_does_not_grow_with_the_length_of_a_game";
    // 30 MB of legal moves (7.5 million plies), under the default limit: a record per
    // ply took 25 bytes per byte of the game.
    let dir = tempfile::tempdir().unwrap();
    let (input, game_bytes) = long_game_between_two(dir.path());
    let page = dir.path().join("r.html");
    let args = [
        "report".as_ref(),
        "-o".as_ref(),
        page.as_os_str(),
        input.as_os_str(),
    ];
    let Some((code, stdout, stderr, peak)) = run_measured(test, &args, None) else {
        return;
    };
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"games_read\":3"), "the three games read");
    let over = (game_bytes >> 20) as u64;
    assert!(peak < over + PEAK_OVER_LIMIT_MB, "peak RSS {peak} MB");
}

#[test]
fn export_of_a_mapped_game_over_the_limit_records_no_moves_past_it() {
    let test = "export_of_a_mapped_game_over_the_limit_records_no_moves_past_it";
    // 30 MB of legal moves in a mapped file, over a 1 MB limit: the game is read whole
    // from the map, but its moves past the limit are neither replayed nor recorded (a
    // record per move took 2.9 GB for 100 MB of moves).
    let dir = tempfile::tempdir().unwrap();
    let (input, game_bytes) = long_game_between_two(dir.path());
    let table = dir.path().join("t.csv");
    let args = [
        "--max-game-bytes".as_ref(),
        "1000000".as_ref(),
        "export".as_ref(),
        "--columns".as_ref(),
        "moves_uci,reason".as_ref(),
        "--include-invalid".as_ref(),
        "-o".as_ref(),
        table.as_os_str(),
        input.as_os_str(),
    ];
    let Some((code, stdout, stderr, peak)) = run_measured(test, &args, None) else {
        return;
    };
    // Exit 1: the archive held an invalid game.
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let csv = std::fs::read_to_string(&table).unwrap();
    assert_eq!(csv.matches("too-large").count(), 1, "{csv}");
    let over = (game_bytes >> 20) as u64;
    assert!(peak < over + PEAK_OVER_LIMIT_MB, "peak RSS {peak} MB");
}

/// A Parquet row group of 300,000 rows is read as chunks of at most 16,384 rows: the games
/// of one group go to every worker, in order, and all are counted.
#[test]
fn a_parquet_row_group_of_many_rows_is_read_in_slices_in_order() {
    let test = "a_parquet_row_group_of_many_rows_is_read_in_slices_in_order";
    let Some(py) = python_with(test, &["pyarrow"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("rows.parquet");
    // Row r is won by white when r % 3 == 0 and names its row in the White tag.
    let script = r#"
import sys, pyarrow as pa, pyarrow.parquet as pq
n = 100_000
pq.write_table(pa.table({
    "White": pa.array([str(r) for r in range(n)]),
    "Result": pa.array(["1-0" if r % 3 == 0 else "0-1" for r in range(n)]),
    "movetext": pa.array(["1. e4 e5 1-0" if r % 3 == 0 else "1. d4 d5 0-1" for r in range(n)]),
}), sys.argv[1], row_group_size=n)
"#;
    let status = std::process::Command::new(&py)
        .arg("-c")
        .arg(script)
        .arg(&table)
        .status()
        .unwrap();
    assert!(status.success());
    let mut tables = Vec::new();
    for threads in ["1", "2"] {
        let csv = dir.path().join(format!("t{threads}.csv"));
        pgn960()
            .args(["-j", threads, "export", "--tags", "White", "-o"])
            .arg(&csv)
            .arg(&table)
            .assert()
            .success();
        tables.push(std::fs::read_to_string(&csv).unwrap());
    }
    assert_eq!(tables[0], tables[1], "-j1 and -j2 give the same table");
    let header: Vec<&str> = tables[0].lines().next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (offset, white, result) = (column("offset"), column("White"), column("Result"));
    let rows: Vec<Vec<&str>> = tables[0]
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 100_000);
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row[offset], r.to_string(), "row {r}");
        assert_eq!(row[white], r.to_string(), "row {r}");
        assert_eq!(
            row[result],
            if r % 3 == 0 { "1-0" } else { "0-1" },
            "row {r}"
        );
    }
}

/// Issue 28: a Parquet file of a few KB whose rows hold 128 MB cells (4 rows) made `check`
/// abort under a 4 GB address-space limit (2.1 GB peak, then an allocation of 1 GB
/// failed). `--max-game-bytes` holds for Parquet rows as for PGN games: such a row is
/// rejected as `too-large` without its text being made, batches of large rows are decoded
/// a few rows at a time, and an allocation that fails is an error, not an abort.
#[test]
fn parquet_rows_over_the_game_limit_are_too_large_in_bounded_memory() {
    let test = "parquet_rows_over_the_game_limit_are_too_large_in_bounded_memory";
    let Some(python) = python_with(test, &["pyarrow"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("huge.parquet");
    let script = "import sys, pyarrow as pa, pyarrow.parquet as pq\n\
        big = '1. e4 { ' + 'a' * (128 << 20) + ' } 1-0'\n\
        rows = [big] * 4 + ['1. e4 e5 1-0']\n\
        pq.write_table(pa.table({'Event': ['x'] * 5, 'movetext': rows}), sys.argv[1], compression='zstd')\n";
    let made = std::process::Command::new(&python)
        .args(["-c", script])
        .arg(&table)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(std::fs::metadata(&table).unwrap().len() < 100_000);
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("pgn960"))
        .args(["--no-progress", "-j1", "check", "--json"])
        .arg(&table)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["rejected_by_reason"]["too-large"], 4, "{report}");
    assert_eq!(report["valid"], 1, "{report}");
}

#[test]
fn clean_and_normalising_filter_keep_no_tokens_of_a_mapped_game_past_the_limit() {
    let test = "clean_and_normalising_filter_keep_no_tokens_of_a_mapped_game_past_the_limit";
    // 30 MB of legal moves in a mapped file, over a 1 MB limit. `clean` and `filter
    // --normalise` read each game whole (its tokens kept, to write it again): they kept
    // every token of the game before judging it too large, 600 MB for 67 MB of moves.
    let dir = tempfile::tempdir().unwrap();
    let (input, game_bytes) = long_game_between_two(dir.path());
    let kept = dir.path().join("kept.pgn");
    for command in [&["clean"][..], &["filter", "--normalise"][..]] {
        let mut args: Vec<&std::ffi::OsStr> = vec!["--max-game-bytes".as_ref(), "1000000".as_ref()];
        args.extend(command.iter().map(std::ffi::OsStr::new));
        args.extend(["-o".as_ref(), kept.as_os_str(), input.as_os_str()]);
        let Some((code, stdout, stderr, peak)) = run_measured(test, &args, None) else {
            return;
        };
        let text = format!("{stdout}{stderr}");
        assert_eq!(code, Some(1), "{command:?}: {text}");
        assert!(text.contains("too-large"), "{command:?}: {text}");
        let rejects = std::fs::read_to_string(dir.path().join("kept.rejects.tsv")).unwrap();
        assert_eq!(rejects.matches("too-large").count(), 1, "{rejects}");
        let over = (game_bytes >> 20) as u64;
        assert!(
            peak < over + PEAK_OVER_LIMIT_MB,
            "{command:?}: peak RSS {peak} MB"
        );
    }
}

#[test]
fn a_game_whose_tokens_memory_refuses_is_an_error_naming_its_line_not_an_abort() {
    use std::process::{Command, Stdio};
    // With no game size limit, `clean` keeps a game's tokens to write it again: 30 MB of
    // moves need about 250 MB of them. Under a limit of 200 MB of address space the
    // memory is refused: the run stops with an error naming the game's line (an abort,
    // exit 134, before), and writes no output.
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = long_game_between_two(dir.path());
    let small = dir.path().join("small.pgn");
    std::fs::write(&small, [BEFORE, AFTER].concat()).unwrap();
    let kept = dir.path().join("kept.pgn");
    let run = |input: &std::path::Path| {
        let out = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 200000 && exec \"$0\" \"$@\"")
            .arg(assert_cmd::cargo::cargo_bin("pgn960"))
            .args([
                "--no-progress",
                "--max-game-bytes",
                "0",
                "-j1",
                "clean",
                "-o",
            ])
            .arg(&kept)
            .arg(input)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // The limit leaves room for an ordinary run.
    let (code, stderr) = run(&small);
    assert_eq!(code, Some(0), "{stderr}");
    std::fs::remove_file(&kept).unwrap();
    let (code, stderr) = run(&input);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("not enough memory for the game at line 5"),
        "{stderr}"
    );
    assert!(!kept.exists(), "no output is written");
}

#[test]
fn parquet_rows_in_a_page_too_large_to_decompress_are_too_large_unread() {
    let test = "parquet_rows_in_a_page_too_large_to_decompress_are_too_large_unread";
    let Some(python) = python_with(test, &["pyarrow"]) else {
        return;
    };
    // 100 rows of 0.9 MB (each under a 1 MB limit) that pyarrow writes as one data page of
    // 90 MB, then 5 small rows in a row group of their own. The parquet crate decompresses a
    // page whole: `check` took 332 MB and kept all 105. Over the page bound (4 x the
    // limit, at least 64 MiB) the page's rows are rejected as too large without it being
    // decompressed; the small rows are read.
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("pages.parquet");
    let script = "import sys, pyarrow as pa, pyarrow.parquet as pq\n\
        rows = ['1. e4 { %d ' % i + 'a' * 900_000 + ' } 1-0' for i in range(100)]\n\
        rows += ['1. e4 e5 1-0'] * 5\n\
        pq.write_table(pa.table({'Event': ['x'] * 105, 'movetext': rows}), sys.argv[1],\n\
            compression='zstd', use_dictionary=False, row_group_size=100)\n";
    let made = std::process::Command::new(&python)
        .args(["-c", script])
        .arg(&table)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let check = |limit: &str| {
        let args = [
            "--max-game-bytes".as_ref(),
            limit.as_ref(),
            "-j1".as_ref(),
            "check".as_ref(),
            "--json".as_ref(),
            table.as_os_str(),
        ];
        run_measured(test, &args, None)
    };
    let Some((code, stdout, stderr, peak)) = check("1000000") else {
        return;
    };
    assert_eq!(code, Some(1), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["rejected_by_reason"]["too-large"], 100, "{report}");
    assert_eq!(report["valid"], 5, "{report}");
    assert!(peak < 150, "peak RSS {peak} MB: the page was decompressed");
    // A limit whose page bound holds the page reads every row.
    let (code, stdout, stderr, _) = check("30000000").unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["valid"], 105, "{report}");
}
