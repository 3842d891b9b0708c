//! The one rule for exit statuses (docs/outputs.md), checked across every command in one
//! table: 0 every game counted or valid, 1 some invalid, 2 could not run (a missing input,
//! a bad option, a table whose extension and --format disagree).

use crate::util::*;
use std::path::Path;

/// A valid Chess960 game (SP 0), with `moves` for its movetext.
fn game(white: &str, moves: &str) -> String {
    format!(
        "[Event \"t\"]\n[White \"{white}\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"Chess960\"]\n\
         [SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n{moves} 1-0\n\n"
    )
}

/// The scenarios a command is run over.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Case {
    Valid,
    Invalid,
    MissingInput,
    BadOption,
    FormatMismatch,
}

/// One row of the table: a command's arguments (`{IN}` for the input, `{OUT}` for an output
/// name made unique per run, `{EXT}` its extension), the extension of a table it writes
/// and the one `--format` that disagrees with it (for the mismatch case).
struct Row {
    args: &'static [&'static str],
    input: &'static str,
    mismatch: Option<(&'static str, &'static str)>,
}

const ROWS: &[Row] = &[
    Row {
        args: &["check", "{IN}"],
        input: "pgn",
        mismatch: None,
    },
    Row {
        args: &["check", "{IN}", "--json"],
        input: "pgn",
        mismatch: None,
    },
    Row {
        args: &["clean", "{IN}", "-o", "{OUT}.pgn"],
        input: "pgn",
        mismatch: None,
    },
    Row {
        args: &["filter", "{IN}", "-o", "{OUT}.pgn"],
        input: "pgn",
        mismatch: None,
    },
    Row {
        args: &["split", "{IN}", "--by", "sp", "-o", "{OUT}"],
        input: "pgn",
        mismatch: None,
    },
    Row {
        args: &["export", "{IN}", "-o", "{OUT}.{EXT}"],
        input: "pgn",
        mismatch: Some(("csv", "jsonl")),
    },
    Row {
        args: &["stats", "{IN}", "-o", "{OUT}.{EXT}"],
        input: "pgn",
        mismatch: Some(("json", "csv")),
    },
    Row {
        args: &["tree", "{IN}", "-o", "{OUT}.{EXT}"],
        input: "pgn",
        mismatch: Some(("json", "csv")),
    },
    Row {
        args: &["report", "{IN}", "-o", "{OUT}.html"],
        input: "pgn",
        mismatch: None,
    },
    Row {
        args: &["xfen", "{IN}", "-o", "{OUT}.fen"],
        input: "fen",
        mismatch: None,
    },
    Row {
        args: &["sp", "518"],
        input: "",
        mismatch: None,
    },
    Row {
        args: &["perft", "--sp", "518", "2"],
        input: "",
        mismatch: None,
    },
    Row {
        args: &["perft", "--suite", "{IN}"],
        input: "suite",
        mismatch: None,
    },
];

/// The input of `kind` for `case`, written in `dir`.
fn input(dir: &Path, kind: &str, case: Case) -> String {
    let invalid = case == Case::Invalid;
    let (name, text) = match kind {
        "pgn" => {
            let mut text = game("a", "1. e4 e5");
            if invalid {
                text.push_str(&game("c", "1. e5 e4"));
            }
            ("in.pgn", text)
        }
        "fen" => {
            let mut text = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n".to_string();
            if invalid {
                text.push_str("not a fen at all\n");
            }
            ("in.fen", text)
        }
        _ => {
            let count = if invalid { 26 } else { 25 };
            (
                "in.epd",
                format!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 {count}\n"),
            )
        }
    };
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    if case == Case::MissingInput {
        return dir.join("missing").join(name).display().to_string();
    }
    path.display().to_string()
}

/// The status the rule says `row` must exit with in `case` (`None`: not applicable).
fn expected(row: &Row, case: Case) -> Option<i32> {
    match case {
        Case::Valid => Some(0),
        Case::Invalid if row.input.is_empty() => None,
        Case::Invalid => Some(1),
        Case::MissingInput if row.input.is_empty() => None,
        Case::MissingInput | Case::BadOption => Some(2),
        Case::FormatMismatch => row.mismatch.map(|_| 2),
    }
}

#[test]
fn every_command_exits_by_the_one_rule() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        Case::Valid,
        Case::Invalid,
        Case::MissingInput,
        Case::BadOption,
        Case::FormatMismatch,
    ];
    let mut failures = Vec::new();
    for (r, row) in ROWS.iter().enumerate() {
        for (c, &case) in cases.iter().enumerate() {
            let Some(want) = expected(row, case) else {
                continue;
            };
            let run_dir = dir.path().join(format!("{r}-{c}"));
            std::fs::create_dir(&run_dir).unwrap();
            let input = input(&run_dir, row.input, case);
            let (ext, format) = row.mismatch.unwrap_or(("csv", "csv"));
            let out = run_dir.join("out").display().to_string();
            let mut args: Vec<String> = row
                .args
                .iter()
                .map(|a| {
                    // Placeholders in braces: a temporary directory's random name may
                    // hold "IN", "OUT" or "EXT".
                    a.replace("{EXT}", ext)
                        .replace("{OUT}", &out)
                        .replace("{IN}", &input)
                })
                .collect();
            match case {
                Case::BadOption => args.push("--no-such-option".into()),
                Case::FormatMismatch => args.extend(["--format".into(), format.into()]),
                _ => {}
            }
            let result = pgn960().args(&args).output().unwrap();
            if result.status.code() != Some(want) {
                failures.push(format!(
                    "{case:?}: pgn960 {}: exit {:?}, not {want}\n{}",
                    args.join(" "),
                    result.status.code(),
                    String::from_utf8_lossy(&result.stderr)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
