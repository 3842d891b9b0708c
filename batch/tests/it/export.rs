//! `pgn960 export` and Parquet inputs, checked with the real consumers of the tables
//! (DuckDB, pyarrow, polars: Python packages; the tests that need them say so and skip
//! when they are missing outside CI).

use crate::util::{fixture, pgn960, python, python_with, shared_data, shared_data_dir};
use std::path::{Path, PathBuf};

/// The lichess dataset's columns, as `export --columns` writes them.
const LICHESS: &str = "Event,Site,White,Black,Result,WhiteTitle,BlackTitle,WhiteElo,BlackElo,WhiteRatingDiff,BlackRatingDiff,UTCDate,UTCTime,Termination,TimeControl,FEN,movetext";

fn export(input: &Path, out: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    pgn960()
        .arg("export")
        .arg(input)
        .arg("-o")
        .arg(out)
        .args(extra)
        .assert()
}

/// The lichess-style corpus when present, else the sample (saying so).
fn corpus(test: &str) -> PathBuf {
    let found = shared_data_dir()
        .map(|dir| dir.join("corpus/lichess-style-4000.pgn"))
        .filter(|p| p.exists());
    found.unwrap_or_else(|| {
        test_support::skip(
            test,
            "the corpus run (needs ../shared/data/corpus/lichess-style-4000.pgn); ran on fixtures/sample.pgn instead",
        );
        fixture("sample.pgn")
    })
}

/// An input of several chunks (about 2 MiB each), with invalid games in it.
fn multi_chunk(dir: &Path) -> PathBuf {
    let sample = std::fs::read(fixture("sample.pgn")).unwrap();
    let path = dir.join("many.pgn");
    let mut bytes = Vec::new();
    while bytes.len() < 3 << 20 {
        bytes.extend_from_slice(&sample);
        bytes.extend_from_slice(b"\n\n");
    }
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn every_game_is_exported_or_counted_and_invalid_ones_carry_reason_and_location() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.jsonl");
    let assert = export(&fixture("sample.pgn"), &out, &[]).code(1);
    // The summary goes to standard error (docs/outputs.md).
    let stdout = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stdout.contains("games read 40 = exported 38 + skipped 2"),
        "{stdout}"
    );
    assert!(stdout.contains("unsupported-variant"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 38);

    export(&fixture("sample.pgn"), &out, &["--include-invalid"]).code(1);
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 40);
    let invalid: Vec<(String, String)> = rows
        .iter()
        .filter(|r| r["valid"] == false)
        .map(|r| {
            assert!(r["moves_san"].is_null() && r["final_xfen"].is_null());
            (
                r["reason"].as_str().unwrap().to_string(),
                r["location"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    // The same places `check` names (fixtures/sample.pgn:591:57, ...).
    assert_eq!(
        invalid,
        [
            ("illegal-move".into(), "591:57".into()),
            ("unsupported-variant".into(), String::new()),
        ]
    );
    let first = &rows[0];
    assert_eq!(first["sp"], 397);
    assert_eq!(first["variant"], "chess960");
    assert_eq!(first["speed"], "classical");
    assert_eq!(first["WhiteElo"], 1291);
    assert_eq!(first["moves_san"][0], "c3");
    assert_eq!(first["moves_uci"][0], "c2c3");
    assert_eq!(first["clocks"][0], 309.0);
    assert!(first["evals"].is_null());
    assert_eq!(first["offset"], 0);
}

#[test]
fn thread_counts_give_byte_identical_tables() {
    let dir = tempfile::tempdir().unwrap();
    let input = multi_chunk(dir.path());
    for (ext, extra) in [
        ("parquet", &[][..]),
        ("csv", &["--include-invalid"][..]),
        ("jsonl", &["--per", "ply"][..]),
    ] {
        let mut tables = Vec::new();
        for threads in ["1", "2", "8"] {
            let out = dir.path().join(format!("t{threads}.{ext}"));
            pgn960()
                .args(["-j", threads, "export"])
                .arg(&input)
                .arg("-o")
                .arg(&out)
                .args(["--row-group-mb", "1"])
                .args(extra)
                .assert()
                .code(1);
            tables.push(std::fs::read(&out).unwrap());
        }
        assert!(tables[0].len() > 10_000, "{ext}");
        assert!(
            tables.iter().all(|t| t == &tables[0]),
            "{ext}: -j1, -j2, -j8 differ"
        );
    }
}

#[test]
fn columns_tags_movetext_and_per_ply() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    export(
        &fixture("sample.pgn"),
        &out,
        &[
            "--tags",
            "Date,Round",
            "--movetext",
            "--columns",
            "Site,Date,sp,plies,movetext",
        ],
    )
    .code(1);
    let mut reader = csv::Reader::from_path(&out).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        vec!["Site", "Date", "sp", "plies", "movetext"]
    );
    let first = reader.records().next().unwrap().unwrap();
    assert_eq!(&first[1], "2024.01.10");
    assert!(
        first[4].starts_with("1. c3 { [%clk 0:05:09] } 1... e5"),
        "{}",
        &first[4]
    );
    assert!(first[4].ends_with("1/2-1/2"));

    let plies = dir.path().join("p.csv");
    export(&fixture("sample.pgn"), &plies, &["--per", "ply"]).code(1);
    let games = dir.path().join("g.jsonl");
    export(&fixture("sample.pgn"), &games, &[]).code(1);
    let total: u64 = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["plies"]
                .as_u64()
                .unwrap()
        })
        .sum();
    let mut reader = csv::Reader::from_path(&plies).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "source",
            "offset",
            "ply",
            "xfen",
            "san",
            "uci",
            "clock",
            "eval",
            "eval_mate",
            "emt",
            "depth",
            "result",
            "sp"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len() as u64, total);
    assert_eq!(
        &rows[0][3],
        "qrnbnkbr/pppppppp/8/8/8/8/PPPPPPPP/QRNBNKBR w KQkq - 0 1"
    );
    assert_eq!(&rows[1][4], "e5");

    for bad in [
        &["--columns", "nope"][..],
        &["--per", "ply", "--include-invalid"][..],
    ] {
        export(&fixture("sample.pgn"), &out, bad).code(2);
    }
    export(&fixture("sample.pgn"), &dir.path().join("t.txt"), &[]).code(2);
}

#[test]
fn duckdb_pyarrow_and_polars_read_the_tables_and_agree_with_stats() {
    let test = "duckdb_pyarrow_and_polars_read_the_tables_and_agree_with_stats";
    let Some(py) = python_with(test, &["duckdb", "pyarrow", "polars"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = corpus(test);
    let (parquet, csv, stats) = (
        dir.path().join("g.parquet"),
        dir.path().join("g.csv"),
        dir.path().join("stats.csv"),
    );
    for out in [&parquet, &csv] {
        let assert = export(&input, out, &[]);
        assert!(matches!(assert.get_output().status.code(), Some(0 | 1)));
    }
    // Exit 1 where the input holds invalid games (the sample does on purpose).
    pgn960()
        .arg("stats")
        .arg(&input)
        .arg("-o")
        .arg(&stats)
        .assert()
        .code(predicates::ord::le(1));
    // The stats table's counts, from SQL over the exported Parquet and CSV.
    let script = r#"
import sys, duckdb, pyarrow.parquet as pq, polars as pl
parquet, csv, stats = sys.argv[1:4]
table = pq.read_table(parquet)
assert table.schema.field("moves_san").type.value_type == "string", table.schema
assert str(table.schema.field("WhiteElo").type) == "int64"
query = """select sp, count(*) games, count(*) filter (where Result = '1-0') w,
  count(*) filter (where Result = '1/2-1/2') d, count(*) filter (where Result = '0-1') b
  from {} where variant = 'chess960' and black_sp is null and sp is not null
  and Result in ('1-0', '0-1', '1/2-1/2') group by sp"""
got_parquet = dict((r[0], r[1:]) for r in duckdb.sql(query.format(f"'{parquet}'")).fetchall())
got_csv = dict((r[0], r[1:]) for r in duckdb.sql(query.format(f"read_csv_auto('{csv}')")).fetchall())
want = {}
for r in duckdb.sql(f"select sp, games, white_wins, draws, black_wins from read_csv_auto('{stats}') where games > 0").fetchall():
    want[r[0]] = r[1:]
assert got_parquet == want, (len(got_parquet), len(want))
assert got_csv == want
frame = pl.read_parquet(parquet)
assert frame.height == table.num_rows == duckdb.sql(f"select count(*) from read_csv_auto('{csv}')").fetchall()[0][0]
plies = duckdb.sql(f"select sum(len(moves_san)), sum(plies) from '{parquet}'").fetchall()[0]
assert plies[0] == plies[1]
print(table.num_rows, len(want))
"#;
    let printed = python(&py, script, &[&parquet, &csv, &stats]);
    assert!(!printed.trim().is_empty());
}

/// Writes `pgn` as a Parquet table in the lichess dataset schema (no Variant column unless
/// `variant`), the movetext of every other row without its result, with pyarrow. A game
/// cut short (`truncated`) is left out: a row's result comes from its Result column when its
/// movetext has none, so the schema cannot hold one.
fn lichess_parquet(py: &str, pgn: &Path, dir: &Path, variant: bool) -> PathBuf {
    let exported = dir.join("exported.parquet");
    // The Variant tag's column is `Variant_tag` (beside the computed `variant`); the
    // lichess-schema table names it `Variant` again.
    let columns = format!(
        "{LICHESS},reason{}",
        if variant { ",Variant_tag" } else { "" }
    );
    let assert = export(
        pgn,
        &exported,
        &[
            "--include-invalid",
            "--movetext",
            "--tags",
            "Variant",
            "--columns",
            &columns,
        ],
    );
    assert!(matches!(assert.get_output().status.code(), Some(0 | 1)));
    let out = dir.join("lichess.parquet");
    let script = r#"
import sys, re, pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet as pq
table = pq.read_table(sys.argv[1])
table = table.filter(pc.fill_null(pc.not_equal(table.column("reason"), "truncated"), True))
table = table.drop_columns(["reason"])
if "Variant_tag" in table.column_names:
    table = table.rename_columns(["Variant" if n == "Variant_tag" else n for n in table.column_names])
moves = [m if i % 2 == 0 or m is None else re.sub(r"\s*(1-0|0-1|1/2-1/2|\*)$", "", m)
         for i, m in enumerate(table.column("movetext").to_pylist())]
table = table.set_column(table.schema.get_field_index("movetext"), "movetext", pa.array(moves))
pq.write_table(table, sys.argv[2], row_group_size=700)
"#;
    python(py, script, &[&exported, &out]);
    out
}

#[test]
fn a_parquet_archive_gives_the_same_verdicts_and_stats_as_its_pgn() {
    let test = "a_parquet_archive_gives_the_same_verdicts_and_stats_as_its_pgn";
    let Some(py) = python_with(test, &["pyarrow"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The sample has another variant (so its table keeps the Variant column, carried as a
    // tag) and a truncated game (left out of its table).
    let corpus = shared_data(test, "corpus/lichess-style-4000.pgn");
    let inputs = std::iter::once((fixture("sample.pgn"), true)).chain(corpus.map(|c| (c, false)));
    for (pgn, variant) in inputs {
        let parquet = lichess_parquet(&py, &pgn, dir.path(), variant);
        let verdicts = |input: &Path| {
            let out = dir.path().join("verdicts.jsonl");
            let _ = pgn960()
                .args(["--variant", "chess960", "export", "--include-invalid"])
                .args([
                    "--columns",
                    "Site,valid,reason,sp,plies,final_xfen,moves_uci,outcome",
                ])
                .arg(input)
                .arg("-o")
                .arg(&out)
                .assert();
            let rows = std::fs::read_to_string(&out).unwrap();
            rows.lines()
                .filter(|l| !l.contains("\"truncated\""))
                .map(|l| format!("{l}\n"))
                .collect::<String>()
        };
        let pgn_rows = verdicts(&pgn);
        assert!(pgn_rows.lines().count() > 30);
        assert_eq!(pgn_rows, verdicts(&parquet), "{}", pgn.display());
        if variant {
            continue;
        }
        let report = |input: &Path| {
            let out = pgn960()
                .args(["check", "--json", "--variant", "chess960"])
                .arg(input)
                .output()
                .unwrap();
            let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            for key in ["inputs", "seconds", "bytes", "first_problems"] {
                json.as_object_mut().unwrap().remove(key);
            }
            (out.status.code(), json)
        };
        assert_eq!(report(&pgn), report(&parquet));
        let stats = |input: &Path, name: &str| {
            let out = dir.path().join(name);
            pgn960()
                .args(["stats", "--variant", "chess960"])
                .arg(input)
                .arg("-o")
                .arg(&out)
                .assert()
                .success();
            std::fs::read(out).unwrap()
        };
        assert_eq!(stats(&pgn, "a.csv"), stats(&parquet, "b.csv"));
    }
}

#[test]
fn parquet_rows_that_are_no_game_are_rejected_and_bad_files_are_errors() {
    let test = "parquet_rows_that_are_no_game_are_rejected_and_bad_files_are_errors";
    let Some(py) = python_with(test, &["pyarrow"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("rows.parquet");
    let script = r#"
import sys, pyarrow as pa, pyarrow.parquet as pq
fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
pq.write_table(pa.table({
    "White": ["a", "b", "c", "d", "e"],
    "Result": ["1-0", "0-1", "*", "1/2-1/2", "1-0"],
    "WhiteElo": pa.array([1500, None, 1600, 1700, 1800], pa.int64()),
    "UTCDate": pa.array([19723, 19723, None, 0, 1], pa.date32()),
    "FEN": [fen, "", None, fen, fen],
    "movetext": ["1. d4 d5 2. Nf3", None, "1. e4 e5", "1. d4 Qxh8 1/2-1/2", "1. d4\n; note\nd5 1-0"],
    "moves": [["x"], [], [], [], []],
}), sys.argv[1], row_group_size=2)
"#;
    python(&py, script, &[&table]);
    let out = pgn960()
        .args(["check", "--variant", "chess960"])
        .arg(&table)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("rows.parquet: row 1: game 2 (b - ?): movetext is null"),
        "{text}"
    );
    assert!(
        text.contains("rows.parquet: row 3: game 4 (d - ?): illegal move \"Qxh8\""),
        "{text}"
    );
    // No result in the movetext nor in the Result column: cut short, as in a PGN file.
    assert!(
        text.contains("rows.parquet: row 2: game 3 (c - ?): no result before the next game"),
        "{text}"
    );
    assert!(text.contains("bad-row"), "{text}");
    assert!(text.contains("games read:                   5"), "{text}");
    // No game limit (`--max-game-bytes 0`) is no limit for rows either.
    let unlimited = pgn960()
        .args(["--max-game-bytes", "0", "check", "--variant", "chess960"])
        .arg(&table)
        .output()
        .unwrap();
    let unlimited = String::from_utf8_lossy(&unlimited.stdout);
    assert!(!unlimited.contains("too-large"), "{unlimited}");
    assert!(
        unlimited.contains("valid:                        2"),
        "{unlimited}"
    );

    // Dates and numbers become tags; `clean` writes PGN.
    let clean = dir.path().join("clean.pgn");
    pgn960()
        .args(["--variant", "chess960", "clean"])
        .arg(&table)
        .arg("-o")
        .arg(&clean)
        .assert()
        .code(1);
    let pgn = std::fs::read_to_string(&clean).unwrap();
    assert!(pgn.contains("[UTCDate \"2024.01.01\"]"), "{pgn}");
    assert!(pgn.contains("[WhiteElo \"1500\"]"), "{pgn}");
    assert!(pgn.contains("1. d4 d5 2. Nf3 1-0"), "{pgn}");
    assert!(pgn.contains("1. d4 { note } 1... d5 1-0"), "{pgn}");
    assert_eq!(pgn.matches("[Event ").count(), 2);

    let not_parquet = dir.path().join("bad.parquet");
    std::fs::write(&not_parquet, b"PAR1 this is not a parquet file").unwrap();
    let no_movetext = dir.path().join("no-movetext.parquet");
    python(
        &py,
        "import sys, pyarrow as pa, pyarrow.parquet as pq\npq.write_table(pa.table({'White': ['a']}), sys.argv[1])",
        &[&no_movetext],
    );
    for (file, message) in [
        (&not_parquet, "as a Parquet table of games"),
        (&no_movetext, "no movetext column"),
    ] {
        pgn960()
            .arg("check")
            .arg(file)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(message));
    }
}

#[test]
fn shards_queried_by_duckdb_over_a_glob_and_merged_stats_equal_the_whole() {
    let test = "shards_queried_by_duckdb_over_a_glob_and_merged_stats_equal_the_whole";
    let Some(py) = python_with(test, &["duckdb"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = corpus(test);
    let text = std::fs::read_to_string(&input).unwrap();
    let games: Vec<&str> = text.split("\n\n[Event ").collect();
    let shards = 3;
    let per = games.len().div_ceil(shards);
    let shard_dir = dir.path().join("shards");
    std::fs::create_dir(&shard_dir).unwrap();
    let mut tables = Vec::new();
    for (i, part) in games.chunks(per).enumerate() {
        let mut pgn = part.join("\n\n[Event ");
        if i > 0 {
            pgn.insert_str(0, "[Event ");
        }
        let shard = dir.path().join(format!("shard-{i}.pgn"));
        std::fs::write(&shard, pgn + "\n").unwrap();
        let out = shard_dir.join(format!("shard-{i}.parquet"));
        let assert = export(&shard, &out, &[]);
        assert!(matches!(assert.get_output().status.code(), Some(0 | 1)));
        let table = dir.path().join(format!("stats-{i}.csv"));
        pgn960()
            .arg("stats")
            .arg(&shard)
            .arg("-o")
            .arg(&table)
            .assert()
            .code(predicates::ord::le(1));
        tables.push(table);
    }
    let (whole, merged) = (dir.path().join("whole.csv"), dir.path().join("merged.csv"));
    // Exit 1 where the input holds invalid games (the sample does on purpose).
    pgn960()
        .arg("stats")
        .arg(&input)
        .arg("-o")
        .arg(&whole)
        .assert()
        .code(predicates::ord::le(1));
    pgn960()
        .args(["stats", "--merge"])
        .args(&tables)
        .arg("-o")
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&merged).unwrap()
    );
    let script = r#"
import sys, duckdb
shards, whole = sys.argv[1:3]
got = duckdb.sql(f"""select sp, count(*), count(*) filter (where Result = '1-0')
  from '{shards}/*.parquet' where variant = 'chess960' and black_sp is null and sp is not null
  and Result in ('1-0', '0-1', '1/2-1/2') group by sp order by sp""").fetchall()
want = duckdb.sql(f"select sp, games, white_wins from read_csv_auto('{whole}') where games > 0 order by sp").fetchall()
assert got == want, (got[:3], want[:3])
files = duckdb.sql(f"select count(distinct filename) from read_parquet('{shards}/*.parquet', filename = true)").fetchall()[0][0]
assert files == 3, files
"#;
    python(&py, script, &[&shard_dir, &whole]);
}

#[test]
fn a_parquet_row_is_one_game_whatever_its_text() {
    let test = "a_parquet_row_is_one_game_whatever_its_text";
    let Some(py) = python_with(test, &["pyarrow"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("rows.parquet");
    // Row 0 leaves a comment open; row 1 must stay a game of its own. Row 2 holds two
    // games' text. Row 3 is a good game beside a column named like the row-error tag.
    let script = r#"
import sys, pyarrow as pa, pyarrow.parquet as pq
pq.write_table(pa.table({
    "White": ["a", "b", "c", "d"],
    "Result": ["1-0", "0-1", "1-0", "1/2-1/2"],
    "movetext": ["1. e4 { never closed", "1. d4 d5 0-1", "1. e4 e5 1-0 1. d4 d5 0-1", "1. e4 e5 1/2-1/2"],
    "Pgn960RowError": ["x", "y", "z", "a good row all the same"],
}), sys.argv[1])
"#;
    python(&py, script, &[&table]);
    let csv = dir.path().join("t.csv");
    pgn960()
        .args(["export", "--include-invalid", "--tags", "White", "-o"])
        .arg(&csv)
        .arg(&table)
        .assert()
        .code(1);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        rows.len(),
        4,
        "one row of the table per row of the file:\n{text}"
    );
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (offset, valid, reason) = (column("offset"), column("valid"), column("reason"));
    let cells: Vec<Vec<&str>> = rows.iter().map(|r| r.split(',').collect()).collect();
    let offsets: Vec<&str> = cells.iter().map(|c| c[offset]).collect();
    assert_eq!(offsets, ["0", "1", "2", "3"], "{text}");
    let verdicts: Vec<(&str, &str)> = cells.iter().map(|c| (c[valid], c[reason])).collect();
    assert_eq!(
        verdicts,
        [
            ("true", ""),
            ("true", ""),
            ("false", "bad-row"),
            ("true", "")
        ],
        "{text}"
    );
    let check = pgn960().arg("check").arg(&table).output().unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        said.contains("row 2: game 3 (c - ?): its movetext goes on after the game's result"),
        "{said}"
    );
}

#[test]
fn tags_named_like_computed_columns_are_renamed_so_every_reader_takes_the_table() {
    let test = "tags_named_like_computed_columns_are_renamed_so_every_reader_takes_the_table";
    let Some(py) = python_with(test, &["duckdb", "pyarrow", "polars"]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.parquet");
    pgn960()
        .args(["export", "--tags", "sp,offset,Variant,white", "-o"])
        .arg(&table)
        .arg(fixture("sample.pgn"))
        .assert()
        .code(1);
    let script = r#"
import sys, duckdb, pyarrow.parquet as pq, polars as pl
t = pq.read_table(sys.argv[1])
names = [n.lower() for n in t.column_names]
assert len(names) == len(set(names)), t.column_names
for n in ["sp_tag", "offset_tag", "Variant_tag", "white_tag"]:
    assert n in t.column_names, (n, t.column_names)
pl.read_parquet(sys.argv[1])
n = duckdb.sql(f"select count(*) from '{sys.argv[1]}' where variant = 'chess960'").fetchall()[0][0]
assert n > 0, n
print(n)
"#;
    let printed = python(&py, script, &[&table]);
    assert!(printed.trim().parse::<u64>().unwrap() > 0, "{printed}");
}

/// Issue 28: an `--include-invalid --movetext` table read back keeps its invalid games
/// invalid. A truncated game (no result anywhere) read back as a finished `*` game, and a
/// game of tags only (`no-moves`) as a valid game of no moves: now the first stays
/// `truncated` and the second has a null movetext (`bad-row`).
#[test]
fn an_exported_table_of_invalid_games_reads_back_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.pgn");
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let game = |event: &str, result: &str, moves: &str| {
        format!("[Event \"{event}\"]\n[Result \"{result}\"]\n[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\n{moves}")
    };
    let text = [
        game("cut", "*", "1. e4 e5 2. Nf3\n\n"),
        game("tags-only", "1-0", ""),
        game("whole", "1-0", "1. e4 e5 1-0\n"),
    ]
    .concat();
    std::fs::write(&input, text).unwrap();
    let table = dir.path().join("bad.parquet");
    export(&input, &table, &["--include-invalid", "--movetext", "-q"]).code(1);
    let out = pgn960()
        .args(["check", "--json"])
        .arg(&table)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games_read"], 3, "{report}");
    assert_eq!(report["valid"], 1, "{report}");
    assert_eq!(report["rejected_by_reason"]["truncated"], 1, "{report}");
    assert_eq!(report["rejected_by_reason"]["bad-row"], 1, "{report}");
}
