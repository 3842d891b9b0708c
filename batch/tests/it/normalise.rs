//! What `clean` writes: valid UTF-8 decoded with one rule per game, and every change it
//! makes to a game named and counted as a repair.

use crate::util::*;

fn clean_text(pgn: &[u8]) -> (String, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pgn");
    std::fs::write(&input, pgn).unwrap();
    let (out, report) = (dir.path().join("out.pgn"), dir.path().join("r.json"));
    pgn960()
        .arg("clean")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let bytes = std::fs::read(&out).unwrap();
    let text = String::from_utf8(bytes).expect("clean writes UTF-8");
    let report = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    (text, report)
}

#[test]
fn a_latin1_game_is_written_as_utf8_comments_included() {
    let pgn = b"[Event \"Bundesliga\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"P\xe4htz\"]\n[Black \"M\xfcller\"]\n[Result \"1-0\"]\n\n1. c4 {Zeit\xfcberschreitung} 1-0\n";
    let (text, report) = clean_text(pgn);
    assert!(text.contains("[White \"P\u{e4}htz\"]"), "{text}");
    assert!(text.contains("[Black \"M\u{fc}ller\"]"), "{text}");
    assert!(
        text.contains("{ Zeit\u{fc}berschreitung }") || text.contains("{Zeit\u{fc}berschreitung}"),
        "{text}"
    );
    assert_eq!(report["repairs"]["latin1-decoded"], 1);
    // A UTF-8 game is not touched by the rule.
    let (text, report) = clean_text("[Event \"e\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"Pähtz\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 { Zeitüberschreitung } *\n".as_bytes());
    assert!(
        text.contains("Pähtz") && text.contains("Zeitüberschreitung"),
        "{text}"
    );
    assert!(
        report["repairs"].get("latin1-decoded").is_none(),
        "{report}"
    );
}

#[test]
fn every_change_clean_makes_is_a_named_repair() {
    // Result "-", a missing roster tag, a move not in canonical SAN.
    let pgn =
        b"[Event \"e\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"-\"]\n\n1. e4 e5 2. Ng1f3 *\n";
    let (text, report) = clean_text(pgn);
    assert!(
        text.contains("[Result \"*\"]") && text.contains("2. Nf3 *"),
        "{text}"
    );
    // The Result the file had is kept (issue 28: `-` was lost).
    assert!(text.contains("[OriginalResult \"-\"]"), "{text}");
    let repairs = &report["repairs"];
    assert_eq!(repairs["result-normalised"], 1, "{report}");
    assert_eq!(repairs["roster-completed"], 1, "{report}");
    assert_eq!(repairs["san-normalised"], 1, "{report}");
    // A game already in normal form: no repair at all.
    let (normal, _) = clean_text(pgn);
    let (again, report) = clean_text(normal.as_bytes());
    assert_eq!(again, normal);
    assert_eq!(report["repairs"], serde_json::json!({}), "{report}");
}

#[test]
fn stripping_comments_can_keep_clocks_and_evals() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pgn");
    std::fs::write(
        &input,
        "[Event \"e\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n\n\
         1. e4 { a long engine line [%eval 0.3] [%clk 0:03:00] [%csl Ga4] } e5 { just words } *\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let out = dir.path().join("out.pgn");
        pgn960()
            .arg("clean")
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .args(extra)
            .assert()
            .success();
        std::fs::read_to_string(&out).unwrap()
    };
    let kept = run(&["--strip-comments", "--keep-annotations", "clk,eval"]);
    assert!(
        kept.contains("1. e4 {[%eval 0.3] [%clk 0:03:00]} 1... e5 *"),
        "{kept}"
    );
    let all = run(&["--strip-comments", "--keep-annotations", "all"]);
    assert!(
        all.contains("[%csl Ga4]") && !all.contains("engine line"),
        "{all}"
    );
    let none = run(&["--strip-comments"]);
    assert!(none.contains("1. e4 e5 *"), "{none}");
}
