//! Records: the same games and verdicts read sequentially, in parallel, from a stream and
//! from memory; moves, annotations and locations as documented.

use pgn960::input::Input;
use pgn960::validate::{Repair, ValidateOptions};
use pgn960::{Archive, GameRecord, RecordOptions, Verdict};
use test_support::fixture;

/// A record as comparable text.
fn describe(r: &GameRecord) -> String {
    let verdict = match &r.verdict {
        Verdict::Valid(v) => format!(
            "valid sp={:?} plies={} result={} end={}",
            v.sp(),
            v.plies,
            v.result.as_str(),
            v.final_xfen()
        ),
        Verdict::Unsupported(name) => format!("unsupported {name}"),
        Verdict::Invalid(rej) => format!(
            "invalid {} at {:?}: {}",
            rej.reason, r.problem_at, rej.detail
        ),
    };
    format!(
        "#{} line {} offset {} {} tags={}: {verdict}",
        r.index,
        r.line,
        r.offset,
        r.source,
        r.tags.len()
    )
}

fn all(records: impl Iterator<Item = pgn960::Result<GameRecord>>) -> Vec<String> {
    records.map(|r| describe(&r.expect("readable"))).collect()
}

#[test]
fn sequential_parallel_streamed_and_in_memory_records_agree() {
    let path = fixture("sample.pgn");
    let bytes = std::fs::read(&path).unwrap();
    // Many small copies so that the input spans many chunks.
    let big: Vec<u8> = bytes.repeat(60);
    let dir = tempfile::tempdir().unwrap();
    let big_path = dir.path().join("big.pgn");
    std::fs::write(&big_path, &big).unwrap();
    let label = big_path.display().to_string();
    let sequential = all(Archive::open(&big_path).unwrap().records());
    assert_eq!(sequential.len(), 40 * 60);
    for threads in [1, 2, 7] {
        let parallel = all(Archive::open(&big_path)
            .unwrap()
            .par_records(threads)
            .unwrap());
        assert_eq!(parallel, sequential, "{threads} threads");
    }
    let streamed = all(
        Archive::from_reader(&label, std::io::Cursor::new(big.clone()))
            .unwrap()
            .records(),
    );
    assert_eq!(streamed, sequential);
    let compressed = zstd::encode_all(&big[..], 3).unwrap();
    let decoded = all(
        Archive::from_reader(&label, std::io::Cursor::new(compressed))
            .unwrap()
            .records(),
    );
    assert_eq!(decoded, sequential);
    let in_memory = all(Archive::from_bytes(&label, big).records());
    assert_eq!(in_memory, sequential);
}

#[test]
fn game_39_of_the_sample_takes_its_result_from_the_tag_for_the_library_too() {
    let records: Vec<GameRecord> = Archive::open(fixture("sample.pgn"))
        .unwrap()
        .records()
        .collect::<Result<_, _>>()
        .unwrap();
    // Its movetext stops after a comment, before the next game, without a result token;
    // its Result tag says 1-0.
    let game = &records[38];
    assert_eq!(game.tag("White"), Some("player58"));
    let Verdict::Valid(valid) = &game.verdict else {
        panic!("{:?}", game.verdict)
    };
    assert!(
        valid.repairs.contains(&Repair::ResultFromTag),
        "{:?}",
        valid.repairs
    );
    assert_eq!(valid.result, pgn_parse::GameResult::WhiteWins);
    let counts = records.iter().fold([0; 3], |mut c, r| {
        c[match r.verdict {
            Verdict::Valid(_) => 0,
            Verdict::Unsupported(_) => 1,
            Verdict::Invalid(_) => 2,
        }] += 1;
        c
    });
    // Game 38's `[FEN "?"]` start is recovered from its moves (SP 100, as its Annotator tag says).
    assert_eq!(counts, [38, 1, 1]);
}

#[test]
fn moves_carry_san_uci_clocks_and_evals() {
    let pgn = "[Event \"e\"]\n[Variant \"Chess960\"]\n\
               [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
               1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:02:59.5] } 2. Ng1f3 \
               { [%eval #-4] } 2... Nc6 ( 2... d5 { [%clk 0:00:01] } ) 3. Bc4 Bc5 4. O-O 1-0\n";
    let options = RecordOptions {
        validate: ValidateOptions {
            moves: true,
            ..ValidateOptions::default()
        },
        text: true,
        ..RecordOptions::default()
    };
    let record = Archive::from_bytes("moves", pgn)
        .with_options(options)
        .records()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(record.text.as_deref(), Some(pgn.trim_end().as_bytes()));
    let game = record.valid().expect("valid");
    let san: Vec<String> = game.moves.iter().map(|m| m.san.to_string()).collect();
    let uci: Vec<String> = game.moves.iter().map(|m| m.uci().to_string()).collect();
    assert_eq!(san, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]);
    // Castling is the king onto its own rook: e1 takes h1.
    assert_eq!(
        uci,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1h1"]
    );
    let clocks: Vec<Option<f64>> = game.moves.iter().map(|m| m.annotations.clock).collect();
    assert_eq!(
        clocks,
        [Some(180.0), Some(179.5), None, None, None, None, None]
    );
    let evals: Vec<String> = game
        .moves
        .iter()
        .map(|m| {
            m.annotations
                .eval
                .map(|e| e.to_string())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(evals, ["0.20", "", "#-4", "", "", "", ""]);
    assert_eq!(game.sp(), Some(518));
    assert_eq!(game.black_sp(), None);
}

#[test]
fn a_stream_that_fails_midway_is_an_error_after_the_games_before() {
    struct Failing(std::io::Cursor<Vec<u8>>);
    impl std::io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            match self.0.read(buf)? {
                0 => Err(std::io::Error::other("disk gone")),
                n => Ok(n),
            }
        }
    }
    let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n".repeat(10);
    let input =
        Input::from_reader("failing", Failing(std::io::Cursor::new(pgn.into_bytes()))).unwrap();
    let results: Vec<_> = Archive::from_input(input).records().collect();
    let last = results.last().expect("something");
    assert!(last.is_err(), "the error is reported");
    assert!(format!("{}", last.as_ref().unwrap_err()).contains("disk gone"));
}

/// The first error of a Parquet input's records, as (input name, message).
fn first_parquet_error(
    mut records: impl Iterator<Item = pgn960::Result<GameRecord>>,
) -> (String, String) {
    match records.find_map(Result::err) {
        Some(pgn960::Error::Parquet { name, message }) => (name, message),
        other => panic!("expected a Parquet error, got {other:?}"),
    }
}

/// A page the parquet crate asserts on instead of returning an error (an RLE bit width of
/// 33 in a dictionary-encoded movetext page; such inputs were found by the `parquet_rows`
/// fuzz target) is an error naming the file and row group, read sequentially or in
/// parallel: not a panic, nor an internal error about bytes of a file that has no PGN text.
#[test]
fn a_parquet_page_the_decoder_panics_on_is_an_error_naming_the_row_group() {
    let path = fixture("fuzz-regressions/parquet-rows-dictionary-bit-width-over-32.parquet");
    let sequential = first_parquet_error(Archive::open(&path).unwrap().records());
    let parallel = first_parquet_error(Archive::open(&path).unwrap().par_records(2).unwrap());
    assert_eq!(sequential, parallel);
    let (name, message) = sequential;
    assert!(name.ends_with("bit-width-over-32.parquet"), "{name}");
    assert!(
        message.starts_with("row group 0: malformed data"),
        "{message}"
    );
    assert!(message.contains("num_bits"), "{message}");
}

/// A 395-byte file whose footer gives a schema element 5 billion children (found by the
/// `parquet_rows` fuzz target): the parquet crate reserved room for them and aborted the
/// process on the failed allocation; the footer is now checked first, and opening it is an
/// error naming the element.
#[test]
fn a_footer_claiming_more_than_it_holds_is_an_error_not_an_abort() {
    let path = fixture("fuzz-regressions/parquet-rows-schema-claims-children.parquet");
    let Err(pgn960::Error::Parquet { name, message }) = Archive::open(&path) else {
        panic!("opened");
    };
    assert!(name.ends_with("schema-claims-children.parquet"), "{name}");
    assert!(
        message.starts_with("its schema element 0 claims 5100273663 children"),
        "{message}"
    );
}
