//! Resources bounded whatever the input: messages and TSV cells of a bounded length, the
//! work of locating rejected games linear in their number, huge games and junk read in
//! bounded memory.

use crate::util::*;

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
