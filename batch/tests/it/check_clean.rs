//! Integration tests of `pgn960 check` and `pgn960 clean` on the fixtures.

#[allow(unused_imports)]
use crate::util::*;

use std::io::Write;
use std::path::Path;

fn json_of(args: &[&str]) -> serde_json::Value {
    let out = pgn960().args(args).arg("--json").output().expect("runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn reasons_path() -> String {
    fixture("check/reasons.pgn").display().to_string()
}

#[test]
fn check_reports_every_reason_with_location_and_exit_status() {
    let out = pgn960().args(["check", &reasons_path()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "reasons.pgn:41:34: game 5 (? - ?, fixtures): illegal move \"Bxe8\" at ply 7 (4. Bxe8)"
        ),
        "{stdout}"
    );
    let report = json_of(&["check", &reasons_path()]);
    assert_eq!(report["games_read"], 20);
    assert_eq!(report["valid"], 7);
    assert_eq!(report["unsupported_variant"], 2);
    assert_eq!(report["rejected"], 11);
    let reasons = &report["rejected_by_reason"];
    for (reason, n) in [
        ("ambiguous-move", 1),
        ("bad-fen", 1),
        ("bad-variation", 1),
        ("conflicting-fen", 1),
        ("illegal-move", 1),
        ("malformed-move", 1),
        ("null-move", 1),
        ("truncated", 1),
        // `[FEN "?"]` and no FEN with `1. e4 e5`: every start position fits those moves.
        ("start-ambiguous", 2),
        ("unterminated-comment", 1),
    ] {
        assert_eq!(reasons[reason], n, "{reason}");
    }
    let repairs = &report["repairs"];
    for repair in [
        "duplicate-fen-merged",
        "result-corrected",
        "start-castling-restored",
        "zero-castling-notation",
    ] {
        assert_eq!(repairs[repair], 1, "{repair}");
    }
}

#[test]
fn check_exit_status_zero_when_all_valid_and_two_on_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pgn");
    std::fs::write(&good, "[Event \"x\"]\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. g3 g6 2. Ng2 Ng7 1/2-1/2\n").unwrap();
    pgn960().args(["check"]).arg(&good).assert().code(0);
    pgn960()
        .args(["check", "/nonexistent/file.pgn"])
        .assert()
        .code(2);
    pgn960().args(["check"]).assert().code(2);
}

fn clean(input: &[&Path], extra: &[&str], dir: &Path, name: &str) -> (String, serde_json::Value) {
    let out = dir.join(name);
    let report = dir.join(format!("{name}.json"));
    let mut cmd = pgn960();
    cmd.arg("clean")
        .args(input)
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .args(extra);
    let status = cmd.output().unwrap();
    assert!(
        status.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let read = report["games_read"].as_u64().unwrap();
    let sum = report["written"].as_u64().unwrap()
        + report["rejected"].as_u64().unwrap()
        + report["deduplicated"].as_u64().unwrap();
    assert_eq!(read, sum, "games read = written + rejected + deduplicated");
    // Comments are written verbatim, so a Latin-1 input gives Latin-1 bytes in them.
    let text = String::from_utf8_lossy(&std::fs::read(out).unwrap()).into_owned();
    (text, report)
}

#[test]
fn clean_writes_normalised_games_and_quarantines_the_rest_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("check/reasons.pgn");
    let (text, report) = clean(&[&input], &[], dir.path(), "out.pgn");
    assert_eq!(report["written"], 9);
    // Normalised Chess960 tags, X-FEN, roster first.
    assert!(text.starts_with("[Event \"valid: chess 960 spelling, Shredder-FEN\"]\n[Site \"fixtures\"]\n[Date \"????.??.??\"]"));
    assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"nqrnbkrb/pppppppp/8/8/8/8/PPPPPPPP/NQRNBKRB w KQkq - 0 1\"]"));
    // 0-0 written as O-O; corrected result with the old one kept.
    assert!(text.contains("7. O-O Nf6 1/2-1/2") || text.contains("O-O"));
    assert!(text.contains("[Result \"0-1\"]\n[OriginalResult \"1/2-1/2\"]"));
    assert!(text.contains("2. g4 Qh4# 0-1"));
    // Unsupported variants pass through untouched.
    assert!(text.contains("4. N@g5 1-0"));
    // The game after the unterminated comment is kept.
    assert!(text.contains("the game after an unterminated comment is kept"));
    // Rejects: byte-for-byte originals, and a TSV row each.
    let rejects = std::fs::read_to_string(dir.path().join("out.rejects.pgn")).unwrap();
    let original = std::fs::read_to_string(&input).unwrap();
    for game in rejects.split("\n\n[").filter(|g| !g.trim().is_empty()) {
        let game = game.trim_start_matches('[');
        let body = game.split("\n\n").next().unwrap();
        assert!(original.contains(body), "reject not found verbatim: {body}");
    }
    let tsv = std::fs::read_to_string(dir.path().join("out.rejects.tsv")).unwrap();
    assert_eq!(tsv.lines().count(), 1 + 11);
    assert!(tsv.starts_with(
        "game\tfile\tline\tcolumn\tbyte_offset\tgame_line\treason\tdetail\twhite\tblack\tsite\n"
    ));
}

#[test]
fn cleaning_is_a_fixpoint_and_its_output_checks_valid() {
    let dir = tempfile::tempdir().unwrap();
    let (first, _) = clean(&[&fixture("sample.pgn")], &[], dir.path(), "a.pgn");
    let (second, report) = clean(&[&dir.path().join("a.pgn")], &[], dir.path(), "b.pgn");
    assert_eq!(first, second);
    assert_eq!(report["rejected"], 0);
}

#[test]
fn thread_counts_give_byte_identical_output() {
    let dir = tempfile::tempdir().unwrap();
    // Big enough for many chunks.
    let mut big = Vec::new();
    let sample = std::fs::read(fixture("sample.pgn")).unwrap();
    let reasons = std::fs::read(fixture("check/reasons.pgn")).unwrap();
    // Every fixture (damaged ones included) between copies, so that chunks start and end
    // in every kind of game.
    let mut others = Vec::new();
    for dir in ["pgn", "fuzz-regressions"] {
        for entry in std::fs::read_dir(fixture(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pgn") {
                others.push(std::fs::read(path).unwrap());
            }
        }
    }
    others.sort();
    for i in 0..60 {
        big.extend_from_slice(&sample);
        big.extend_from_slice(b"\n");
        big.extend_from_slice(&reasons);
        big.extend_from_slice(b"\n");
        big.extend_from_slice(&others[i % others.len()]);
        big.extend_from_slice(b"\n\n");
    }
    let input = dir.path().join("big.pgn");
    std::fs::write(&input, &big).unwrap();
    let mut outputs = Vec::new();
    for j in ["1", "2", "8"] {
        let (_, report) = clean(&[&input], &["-j", j], dir.path(), &format!("out{j}.pgn"));
        let text = std::fs::read(dir.path().join(format!("out{j}.pgn"))).unwrap();
        let rejects = std::fs::read(dir.path().join(format!("out{j}.rejects.pgn"))).unwrap();
        let tsv = std::fs::read(dir.path().join(format!("out{j}.rejects.tsv"))).unwrap();
        outputs.push((text, rejects, tsv, report["rejected"].clone()));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
    // `check` (which validates while reading) counts the same at every thread count.
    let reports: Vec<_> = ["1", "2", "8"]
        .iter()
        .map(|j| {
            let out = pgn960()
                .args(["-j", j, "check", "--json"])
                .arg(&input)
                .output()
                .unwrap();
            let mut value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            value.as_object_mut().unwrap().remove("seconds");
            value
        })
        .collect();
    assert_eq!(reports[0], reports[1]);
    assert_eq!(reports[0], reports[2]);
    assert_eq!(reports[0]["rejected"], outputs[0].3);
}

#[test]
fn dedupe_and_min_plies() {
    let dir = tempfile::tempdir().unwrap();
    let sample = fixture("sample.pgn");
    let (_, once) = clean(&[&sample], &[], dir.path(), "once.pgn");
    let (_, twice) = clean(&[&sample, &sample], &["--dedupe"], dir.path(), "twice.pgn");
    assert_eq!(twice["deduplicated"], once["valid"]);
    assert_eq!(twice["written"], once["written"].as_u64().unwrap() + 1); // the crazyhouse game twice
    let (_, short) = clean(&[&sample], &["--min-plies", "60"], dir.path(), "short.pgn");
    assert!(short["rejected_by_reason"]["too-short"].as_u64().unwrap() > 0);
}

#[test]
fn variation_and_comment_options() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("v.pgn");
    std::fs::write(
        &input,
        "[Event \"v\"]\n\n1. e4 { good } e5 (1... Ke7 2. d4) (1... c5 $1) 2. Nf3 1-0\n",
    )
    .unwrap();
    let (_, rejected) = clean(&[&input], &[], dir.path(), "a.pgn");
    assert_eq!(rejected["rejected_by_reason"]["bad-variation"], 1);
    let (text, kept) = clean(&[&input], &["--drop-bad-variations"], dir.path(), "b.pgn");
    assert_eq!(kept["repairs"]["bad-variation-dropped"], 1);
    assert!(
        text.contains("1. e4 { good } 1... e5 ( 1... c5 $1 ) 2. Nf3 1-0"),
        "{text}"
    );
    let (text, _) = clean(
        &[&input],
        &[
            "--drop-bad-variations",
            "--strip-comments",
            "--strip-variations",
        ],
        dir.path(),
        "c.pgn",
    );
    assert!(text.contains("1. e4 e5 2. Nf3 1-0"), "{text}");
}

#[test]
fn fen_style_shredder() {
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = clean(
        &[&fixture("check/reasons.pgn")],
        &["--fen-style", "shredder"],
        dir.path(),
        "s.pgn",
    );
    assert!(text.contains("[FEN \"nqrnbkrb/pppppppp/8/8/8/8/PPPPPPPP/NQRNBKRB w GCgc - 0 1\"]"));
}

#[test]
fn output_that_is_an_input_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pgn");
    std::fs::copy(fixture("sample.pgn"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    pgn960()
        .args(["clean"])
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .assert()
        .code(2);
    assert_eq!(std::fs::read(&input).unwrap(), before);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

fn summary_counts(report: &serde_json::Value) -> (u64, u64, u64, u64) {
    (
        report["games_read"].as_u64().unwrap(),
        report["valid"].as_u64().unwrap(),
        report["rejected"].as_u64().unwrap(),
        report["unsupported_variant"].as_u64().unwrap(),
    )
}

#[test]
fn crlf_bom_lone_cr_and_latin1_inputs_read_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read_to_string(fixture("check/reasons.pgn")).unwrap();
    let expected = summary_counts(&json_of(&["check", &reasons_path()]));
    let variants = [
        ("crlf.pgn", original.replace('\n', "\r\n").into_bytes()),
        ("cr.pgn", original.replace('\n', "\r").into_bytes()),
        (
            "bom.pgn",
            [b"\xEF\xBB\xBF".as_slice(), original.as_bytes()].concat(),
        ),
    ];
    for (name, bytes) in variants {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let got = summary_counts(&json_of(&["check", path.to_str().unwrap()]));
        assert_eq!(got, expected, "{name}");
    }
    let latin1 = dir.path().join("latin1.pgn");
    std::fs::write(
        &latin1,
        b"[Event \"x\"]\n[White \"M\xfcller\"]\n\n1. e4 e5 1-0\n",
    )
    .unwrap();
    let (text, report) = clean(&[&latin1], &[], dir.path(), "l.pgn");
    assert_eq!(report["valid"], 1);
    assert!(text.contains("[White \"M\u{fc}ller\"]"));
}

#[test]
fn compressed_and_stdin_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let plain = std::fs::read(fixture("sample.pgn")).unwrap();
    let expected = summary_counts(&json_of(&[
        "check",
        fixture("sample.pgn").to_str().unwrap(),
    ]));
    let zst = dir.path().join("s.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(plain.as_slice(), 3).unwrap()).unwrap();
    let gz = dir.path().join("s.pgn.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&plain).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let bz = dir.path().join("s.pgn.bz2");
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    enc.write_all(&plain).unwrap();
    std::fs::write(&bz, enc.finish().unwrap()).unwrap();
    for path in [&zst, &gz, &bz] {
        assert_eq!(
            summary_counts(&json_of(&["check", path.to_str().unwrap()])),
            expected,
            "{}",
            path.display()
        );
    }
    let out = pgn960()
        .args(["check", "-", "--json"])
        .write_stdin(plain)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary_counts(&report), expected);
    // A directory: every PGN file below it.
    let (read, ..) = summary_counts(&json_of(&["check", dir.path().to_str().unwrap()]));
    assert_eq!(read, 3 * expected.0);
}

#[test]
fn variant_spellings_and_detection_without_a_variant_tag() {
    let dir = tempfile::tempdir().unwrap();
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    let mut text = String::new();
    for variant in [
        "Chess960",
        "chess 960",
        "chess-960",
        "Fischerandom",
        "fischerandom",
        "Fischer Random",
        "FRC",
        "960",
        "",
    ] {
        let tag = if variant.is_empty() {
            String::new()
        } else {
            format!("[Variant \"{variant}\"]\n")
        };
        text.push_str(&format!(
            "[Event \"{variant}\"]\n{tag}[FEN \"{fen}\"]\n\n1. g3 g6 2. Ng2 Ng7 1/2-1/2\n\n"
        ));
    }
    let input = dir.path().join("v.pgn");
    std::fs::write(&input, text).unwrap();
    let (out, report) = clean(&[&input], &[], dir.path(), "o.pgn");
    assert_eq!(report["valid"], 9);
    assert_eq!(out.matches("[Variant \"Chess960\"]").count(), 9);
}

#[test]
fn max_errors_limits_the_problems_printed() {
    let out = pgn960()
        .args(["check", "--max-errors", "2"])
        .arg(fixture("check/reasons.pgn"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.contains("reasons.pgn:"))
            .count(),
        2
    );
    assert!(
        stdout.contains("(9 more problems not shown; raise --max-errors)"),
        "{stdout}"
    );
}

/// Every rejection reason of the one table (`pgn960::validate::RejectReason::ALL`) and every
/// repair a summary can print is explained in `docs/check-clean.md` (five repairs and a
/// reason were missing: issue 28).
#[test]
fn every_reason_and_repair_is_in_the_docs() {
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/check-clean.md"),
    )
    .unwrap();
    for reason in pgn960::validate::RejectReason::ALL {
        assert!(
            docs.contains(&format!("`{}`", reason.name())),
            "docs/check-clean.md does not explain the reason {}",
            reason.name()
        );
    }
    // The repairs' names as `check --json` counts them on the fixtures and their sources.
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../pgn960/src/validate/reason.rs"),
    )
    .unwrap();
    let names: Vec<&str> = source
        .lines()
        .filter(|l| l.trim_start().starts_with("Repair::"))
        .filter_map(|l| l.split("=> \"").nth(1)?.split('"').next())
        .collect();
    assert!(names.len() >= 15, "{names:?}");
    for name in names {
        assert!(
            docs.contains(&format!("`{name}`")),
            "docs/check-clean.md does not explain the repair {name}"
        );
    }
}

const SP_0: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";

/// A Chess960 game from SP 0 with the given Result tag and movetext.
fn sp0_game(event: &str, result: Option<&str>, movetext: &str) -> String {
    let result = result.map_or(String::new(), |r| format!("[Result \"{r}\"]\n"));
    format!(
        "[Event \"{event}\"]\n{result}[Variant \"Chess960\"]\n[FEN \"{SP_0}\"]\n\n{movetext}\n\n"
    )
}

/// Issue 29: a movetext that stops without its result token (a real lichess game at the end
/// of a file) is kept with the Result tag's result; `*`, no tag or moves that stop mid-token
/// stay rejected; `clean` writes the result token, and its output checks valid as it is.
#[test]
fn a_missing_final_result_token_is_taken_from_the_result_tag() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cut.pgn");
    let text = [
        sp0_game("before-next", Some("0-1"), "1. e4 e5 2. Nf3 { a comment }"),
        sp0_game("star", Some("*"), "1. e4 e5 2. Nf3"),
        sp0_game("no-tag", None, "1. e4 e5 2. Nf3"),
        sp0_game("mid-token", Some("1-0"), "1. e4 e5 2. N"),
        sp0_game("end-of-file", Some("1/2-1/2"), "1. e4 e5 2. Nf3 Nf6"),
    ]
    .concat();
    std::fs::write(&input, text.trim_end()).unwrap();
    let report = json_of(&["check", input.to_str().unwrap()]);
    assert_eq!(report["valid"], 2, "{report}");
    assert_eq!(report["repairs"]["result-from-tag"], 2, "{report}");
    assert_eq!(report["rejected_by_reason"]["truncated"], 2, "{report}");
    assert_eq!(report["rejected"], 3, "{report}");

    let (cleaned, clean_report) = clean(&[&input], &[], dir.path(), "out.pgn");
    assert_eq!(clean_report["written"], 2);
    let games: Vec<&str> = cleaned.split("\n\n[").collect();
    assert_eq!(games.len(), 2, "{cleaned}");
    assert!(games[0].contains("[Result \"0-1\"]") && games[0].trim_end().ends_with("0-1"));
    assert!(games[1].trim_end().ends_with("1/2-1/2"), "{cleaned}");
    let again = json_of(&["check", dir.path().join("out.pgn").to_str().unwrap()]);
    assert_eq!(again["valid"], 2, "{again}");
    assert!(again["repairs"].get("result-from-tag").is_none(), "{again}");
}

/// Issue 28: a tag given twice is not dropped silently: the same value is written once
/// (`duplicate-tag-dropped`), another value is kept as `Duplicate<Name>`
/// (`duplicate-tag-renamed`); the first is the game's, for `check` and `clean` alike.
#[test]
fn clean_keeps_every_value_of_a_tag_given_twice() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("dup.pgn");
    let game = format!(
        "[Event \"e\"]\n[White \"first\"]\n[White \"second\"]\n[Annotator \"x\"]\n[Annotator \"x\"]\n\
         [Black \"b\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"Chess960\"]\n[FEN \"{SP_0}\"]\n\n1. e4 e5 1-0\n"
    );
    std::fs::write(&input, game).unwrap();
    let (cleaned, report) = clean(&[&input], &[], dir.path(), "out.pgn");
    assert_eq!(report["repairs"]["duplicate-tag-renamed"], 1, "{report}");
    assert_eq!(report["repairs"]["duplicate-tag-dropped"], 1, "{report}");
    assert_eq!(cleaned.matches("[White \"first\"]").count(), 1, "{cleaned}");
    assert_eq!(
        cleaned.matches("[DuplicateWhite \"second\"]").count(),
        1,
        "{cleaned}"
    );
    assert_eq!(cleaned.matches("[Annotator \"x\"]").count(), 1, "{cleaned}");
    assert_eq!(cleaned.matches("[Black \"b\"]").count(), 1, "{cleaned}");
    // Cleaning again changes nothing: the renamed tag is a tag of its own.
    let out = dir.path().join("out.pgn");
    let (again, report) = clean(&[&out], &[], dir.path(), "again.pgn");
    assert_eq!(again, cleaned);
    assert!(
        report["repairs"].get("duplicate-tag-renamed").is_none(),
        "{report}"
    );
}
