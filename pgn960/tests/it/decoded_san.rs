//! The one-pass SAN path against the text path: the reader decodes each SAN word while it
//! finds its end ([`pgn_parse::DecodedSan`]) and the validator resolves the decoded move;
//! reading every move from its text instead (`Validator::reading_san_as_text`) must give the
//! same move for every word and the same verdict, reason, location and repairs for every
//! game.

use chess960_core::{San, SanPlus, SanSuffix};
use pgn960::validate::{core_san, ValidateOptions, Validator};
use pgn_parse::{DecodedSan, GameEnd, Reader, Visitor};
use proptest::prelude::*;
use std::path::PathBuf;

/// Every input the tests read: the fixtures, the fuzz regressions, the shared corpus when
/// present.
fn inputs() -> Vec<PathBuf> {
    let mut paths = vec![test_support::fixture("sample.pgn")];
    paths.extend(test_support::fixture_pgns(&[
        "pgn",
        "check",
        "fuzz-regressions",
    ]));
    let test = "decoded_san::inputs";
    paths.extend(test_support::shared_data(
        test,
        "corpus/lichess-style-4000.pgn",
    ));
    paths
}

/// The options the validator is run with: the verdict alone, bad variations dropped,
/// every move kept (its text, clocks, repetitions) with a dedupe key and a minimum length.
fn option_sets() -> [ValidateOptions; 3] {
    [
        ValidateOptions::default(),
        ValidateOptions {
            drop_bad_variations: true,
            ..ValidateOptions::default()
        },
        ValidateOptions {
            moves: true,
            dedupe_key: true,
            min_plies: Some(3),
            ..ValidateOptions::default()
        },
    ]
}

/// Every game's end and verdict, written out (the verdict holds positions, which compare
/// through their FEN in the debug text), read by a validator that decodes or reads text.
fn verdicts(input: &[u8], opts: ValidateOptions, decode: bool) -> Vec<String> {
    let mut reader = Reader::new(input);
    let validator = Validator::new(opts);
    let mut validator = if decode {
        validator
    } else {
        validator.reading_san_as_text()
    };
    std::iter::from_fn(|| reader.read_game(&mut validator))
        .map(|(end, verdict)| format!("{end:?} {verdict:?}"))
        .collect()
}

/// Every SAN word of `input` the reader decodes, with its text; and how many it read as
/// text only.
fn decoded_words(input: &[u8]) -> (Vec<(DecodedSan, Vec<u8>)>, usize) {
    #[derive(Default)]
    struct Words {
        decoded: Vec<(DecodedSan, Vec<u8>)>,
        text_only: usize,
    }
    impl<'a> Visitor<'a> for Words {
        type Output = ();
        fn wants_decoded_san(&self) -> bool {
            true
        }
        fn decoded_san(&mut self, san: DecodedSan, raw: &'a [u8], _offset: usize) {
            self.decoded.push((san, raw.to_vec()));
        }
        fn san(&mut self, _san: &'a [u8], _offset: usize) {
            self.text_only += 1;
        }
        fn end_game(&mut self, _end: GameEnd) {}
    }
    let mut words = Words::default();
    let mut reader = Reader::new(input);
    while reader.read_game(&mut words).is_some() {}
    (words.decoded, words.text_only)
}

/// Whether a decoded word is the move, and has the mark, the SAN reader of `chess960-core`
/// reads from its text: `Err` with what differs.
fn agrees_with_text(decoded: DecodedSan, text: &[u8]) -> Result<(), String> {
    let from_text = San::from_ascii(text).ok();
    let mark = SanPlus::from_ascii(text).ok().and_then(|s| s.suffix);
    let decoded_mark = match decoded.mark {
        Some(b'#') => Some(SanSuffix::Checkmate),
        Some(b'+') => Some(SanSuffix::Check),
        _ => None,
    };
    if from_text.is_none() || core_san(decoded) != from_text || decoded_mark != mark {
        return Err(format!(
            "{:?}: decoded {decoded:?} ({:?}, mark {decoded_mark:?}), text {from_text:?} (mark {mark:?})",
            String::from_utf8_lossy(text),
            core_san(decoded)
        ));
    }
    Ok(())
}

#[test]
fn every_decoded_word_of_the_fixtures_is_the_move_its_text_reads_as() {
    let mut decoded_total = 0;
    for path in inputs() {
        let input = std::fs::read(&path).unwrap();
        let (decoded, _text_only) = decoded_words(&input);
        for (san, text) in &decoded {
            if let Err(why) = agrees_with_text(*san, text) {
                panic!("{}: {why}", path.display());
            }
        }
        decoded_total += decoded.len();
    }
    assert!(decoded_total > 1000, "{decoded_total} words decoded");
}

#[test]
fn both_paths_give_every_fixture_game_the_same_verdict() {
    let mut games = 0;
    for path in inputs() {
        let input = std::fs::read(&path).unwrap();
        for opts in option_sets() {
            let decoded = verdicts(&input, opts, true);
            let text = verdicts(&input, opts, false);
            assert_eq!(decoded.len(), text.len(), "{}", path.display());
            for (d, t) in decoded.iter().zip(&text) {
                assert_eq!(d, t, "{}", path.display());
            }
            games += decoded.len();
        }
    }
    assert!(games > 100, "{games} games compared");
}

#[test]
fn the_rare_forms_are_left_to_the_text_path() {
    let input = b"1. e4 e5 2. Ng1f3 0-0 3. exd6e.p. NE5 4. o-o Pe4 e8=q O-O-O-O 1-0\n";
    let (decoded, text_only) = decoded_words(input);
    let texts: Vec<&[u8]> = decoded.iter().map(|(_, t)| &t[..]).collect();
    assert_eq!(texts, [&b"e4"[..], b"e5", b"Ng1f3"]);
    assert_eq!(text_only, 7);
}

/// A SAN word: mostly well formed (with or without marks and annotations), else a mix of
/// the bytes that matter to SAN, malformed words included.
fn san_word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[NBRQK]?[a-h]?[1-8]?[x:]?[a-h][1-8](=?[NBRQKP])?[+#]{0,2}[!?]{0,2}",
        1 => "(O-O|O-O-O|0-0|0-0-0|o-o)[+#]{0,2}[!?]{0,2}",
        3 => "[NBRQKPOo0a-hx:=+#!?.E1-9-]{1,9}",
    ]
}

/// A game of generated words from the standard start (or a Chess960 start), with a result.
fn game_of_words() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(san_word(), 0..12),
        prop_oneof![
            Just(""),
            Just("[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n"),
        ],
        prop_oneof![Just(" "), Just("\n"), Just(" 2. "), Just(" {c} "), Just(" ("), Just(") ")],
    )
        .prop_map(|(words, tags, glue)| {
            format!("[Event \"?\"]\n{tags}\n{} *\n", words.join(glue))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_decoded_word_is_the_move_its_text_reads_as(word in san_word()) {
        if let Some(decoded) = DecodedSan::from_word(word.as_bytes()) {
            let san_part = word.trim_end_matches(['!', '?']);
            prop_assert_eq!(agrees_with_text(decoded, san_part.as_bytes()), Ok(()));
            let (read, _) = decoded_words(format!("[Event \"?\"]\n\n{word} *").as_bytes());
            prop_assert_eq!(read, vec![(decoded, san_part.as_bytes().to_vec())]);
        }
    }

    #[test]
    fn both_paths_give_generated_games_the_same_verdict(game in game_of_words()) {
        for opts in option_sets() {
            prop_assert_eq!(
                verdicts(game.as_bytes(), opts, true),
                verdicts(game.as_bytes(), opts, false)
            );
        }
    }
}
