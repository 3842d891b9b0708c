//! Where games start and end, through `check` and `clean` (issue 18): a comment quoting a
//! game, invisible characters before a tag line, header-only archives, tag-less games cut
//! into chunks.

use crate::util::*;
use std::path::Path;

fn report(args: &[&str], input: &Path) -> serde_json::Value {
    let out = pgn960()
        .args(args)
        .arg("--json")
        .arg(input)
        .output()
        .unwrap();
    let mut value: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    if let Some(o) = value.as_object_mut() {
        o.remove("seconds");
    }
    value
}

/// `clean` of `input` into `dir`: the kept games and the rejects.
fn clean(input: &Path, dir: &Path, threads: &str) -> (String, String) {
    let out = dir.join(format!("out{threads}.pgn"));
    pgn960()
        .args(["-j", threads, "clean"])
        .arg(input)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(predicates::ord::lt(2));
    let kept = std::fs::read_to_string(&out).unwrap();
    let rejects =
        std::fs::read_to_string(dir.join(format!("out{threads}.rejects.pgn"))).unwrap_or_default();
    (kept, rejects)
}

/// python-chess's reading of `input`: each game's `Event` and main-line moves in UCI.
fn python_chess_games(test: &str, input: &Path) -> Option<Vec<String>> {
    let python = python_with(test, &["chess"])?;
    let script = "import sys, chess.pgn\n\
        f = open(sys.argv[1], encoding='utf-8-sig')\n\
        while (g := chess.pgn.read_game(f)) is not None:\n\
        \x20   print(g.headers.get('Event', '?'), ' '.join(m.uci() for m in g.mainline_moves()))\n";
    let out = std::process::Command::new(python)
        .args(["-c", script])
        .arg(input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

#[test]
fn a_game_quoted_in_a_comment_is_not_made_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("quote.pgn");
    std::fs::write(
        &input,
        "[Event \"real\"]\n[Result \"1-0\"]\n\n1. e4 {I played this before:\n\n\
         [Event \"quoted\"]\n[Site \"?\"]\n[Result \"1-0\"]\n\n1. d4 d5 2. c4 1-0\n\
         } e5 2. Nf3 Nc6 1-0\n\n[Event \"next\"]\n[Result \"*\"]\n\n1. c4 *\n",
    )
    .unwrap();
    let check = report(&["check"], &input);
    assert_eq!(check["games_read"], 2, "{check}");
    assert_eq!(check["valid"], 2, "{check}");
    let (kept, rejects) = clean(&input, dir.path(), "1");
    assert!(rejects.is_empty(), "{rejects}");
    assert!(kept.starts_with("[Event \"real\"]"), "{kept}");
    // The cleaned archive reads back as the same two games.
    let again = report(&["check"], &dir.path().join("out1.pgn"));
    assert_eq!(
        (&again["games_read"], &again["valid"]),
        (&2.into(), &2.into())
    );
    assert!(
        kept.contains("1. d4 d5 2. c4 1-0"),
        "the quote stays a comment: {kept}"
    );
    // python-chess reads the same two games with the same moves.
    if let Some(oracle) = python_chess_games("a_game_quoted_in_a_comment", &input) {
        assert_eq!(oracle, ["real e2e4 e7e5 g1f3 b8c6", "next c2c4"]);
    }

    // A quoted game with braces of its own: rejected whole, nothing made up.
    let input = dir.path().join("ambiguous.pgn");
    std::fs::write(
        &input,
        "[Event \"real\"]\n\n1. e4 {before:\n\n[Event \"quoted\"]\n\n1. d4 {inner} d5 1-0\n\
         } e5 2. Nf3 1-0\n\n[Event \"next\"]\n\n1. c4 *\n",
    )
    .unwrap();
    let check = report(&["check"], &input);
    assert_eq!(check["games_read"], 2, "{check}");
    assert_eq!(
        check["rejected_by_reason"]["ambiguous-comment"], 1,
        "{check}"
    );
    let (kept, rejects) = clean(&input, dir.path(), "1");
    assert!(!kept.contains("quoted"), "{kept}");
    assert!(
        rejects.contains("{inner} d5 1-0\n} e5 2. Nf3 1-0"),
        "{rejects}"
    );
}

#[test]
fn a_tag_line_behind_a_byte_order_mark_is_read_and_counted_as_a_repair() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cat.pgn");
    // Two exports concatenated with `cat`: the second starts with a byte order mark, the
    // third with a no-break space in Latin-1 (and a zero-width space inside its tags).
    let mut bytes = b"\xEF\xBB\xBF[Event \"one\"]\n[Result \"*\"]\n\n1. e4 *\n".to_vec();
    bytes.extend_from_slice(b"\xEF\xBB\xBF[Event \"two\"]\n[Site \"s\"]\n\n1. d4 *\n\n");
    bytes.extend_from_slice(b"\xA0[Event \"three\"]\n\xE2\x80\x8B[White \"w\"]\n\n1. c4 *\n");
    std::fs::write(&input, &bytes).unwrap();
    let check = report(&["check"], &input);
    assert_eq!(check["games_read"], 3, "{check}");
    assert_eq!(check["valid"], 3, "{check}");
    // The byte order mark that starts the file is no repair.
    assert_eq!(
        check["repairs"]["invisible-before-tag-dropped"], 2,
        "{check}"
    );
    assert_eq!(check["junk_bytes"].as_u64().unwrap_or(0), 0, "{check}");
    let (kept, _) = clean(&input, dir.path(), "1");
    for tag in [
        "[Event \"one\"]",
        "[Event \"two\"]",
        "[Site \"s\"]",
        "[Event \"three\"]",
        "[White \"w\"]",
    ] {
        assert!(kept.contains(tag), "{tag} lost: {kept}");
    }
}

#[test]
fn header_only_sections_are_games_rejected_as_no_moves() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("headers.pgn");
    let mut text = String::new();
    for i in 0..500 {
        text.push_str(&format!(
            "[Event \"e{i}\"]\n[Site \"s\"]\n[White \"w{i}\"]\n[Result \"1-0\"]\n{}",
            if i % 2 == 0 { "\n" } else { "\n\n" }
        ));
    }
    text.push_str("[Event \"played\"]\n\n1. e4 *\n");
    std::fs::write(&input, &text).unwrap();
    let check = report(&["check"], &input);
    assert_eq!(check["games_read"], 501, "{check}");
    assert_eq!(check["valid"], 1, "{check}");
    assert_eq!(check["rejected_by_reason"]["no-moves"], 500, "{check}");
    let (_, rejects) = clean(&input, dir.path(), "1");
    for i in [0, 1, 250, 499] {
        assert!(rejects.contains(&format!("[Event \"e{i}\"]\n[Site \"s\"]\n[White \"w{i}\"]")));
    }
}

#[test]
fn tagless_games_are_cut_into_chunks_and_read_alike_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    // Import format without tags: 9 MB, so more than four chunks of 2 MiB.
    let games = [
        "1. e4 e5 2. Nf3 Nc6 {a 1-0 in a comment} 3. Bb5 a6 1-0\n\n",
        "1. d4 d5 (1... Nf6 2. c4 0-1) 2. c4 e6 3. Nc3 Nf6 *\n\n",
        "1. e4 e5 2. Ke2 Ke7 3. Kxe5 1/2-1/2\n\n",
    ];
    let mut text = String::new();
    while text.len() < 9 << 20 {
        for g in games {
            text.push_str(g);
        }
    }
    let input = dir.path().join("tagless.pgn");
    std::fs::write(&input, &text).unwrap();
    let n = text.matches("\n\n").count() as u64;
    let reports: Vec<_> = ["1", "2"]
        .iter()
        .map(|j| report(&["-j", j, "check"], &input))
        .collect();
    assert_eq!(reports[0], reports[1]);
    assert_eq!(reports[0]["games_read"], n, "{}", reports[0]);
    assert_eq!(reports[0]["rejected"], n / 3, "{}", reports[0]);
    let one = clean(&input, dir.path(), "1");
    let two = clean(&input, dir.path(), "2");
    assert!(one == two, "-j1 and -j2 differ");
    // The same from standard input (a stream cut into blocks).
    let out = pgn960()
        .args(["-j", "2", "check", "--json", "-"])
        .pipe_stdin(&input)
        .unwrap()
        .output()
        .unwrap();
    let mut streamed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    streamed.as_object_mut().unwrap().remove("seconds");
    assert_eq!(streamed["games_read"], reports[0]["games_read"]);
    assert_eq!(
        streamed["rejected_by_reason"],
        reports[0]["rejected_by_reason"]
    );
    // The chunks: many, none much larger than the target.
    let mut source = pgn960::input::Input::from_bytes("tagless", text.into_bytes());
    let options = pgn960::pipeline::PipelineOptions::default();
    let mut chunks = pgn960::pipeline::ChunkSource::new(&mut source, &options);
    let mut sizes = Vec::new();
    while let Some(chunk) = chunks.next_chunk().unwrap() {
        sizes.push(chunk.info.len);
    }
    assert!(sizes.len() >= 4, "{sizes:?}");
    assert!(
        sizes.iter().all(|&s| s <= 2 * options.chunk_bytes),
        "{sizes:?}"
    );
}
