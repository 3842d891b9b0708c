//! Hand-written fixtures in `fixtures/pgn`, one per grammar rule and leniency case.

use pgn_parse::{read_games, ErrorKind, GameResult, MovetextEnd, Suffix, Token};
use std::path::Path;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/pgn")
            .join(name),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn sans<'a>(tokens: &[Token<'a>]) -> Vec<&'a [u8]> {
    tokens
        .iter()
        .filter_map(|t| match t {
            Token::San { text, .. } => Some(*text),
            _ => None,
        })
        .collect()
}

#[test]
fn grammar() {
    let bytes = fixture("grammar.pgn");
    let games: Vec<_> = read_games(&bytes).map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 7);
    let g = &games[0];
    assert_eq!(
        g.tag(b"Event").unwrap().value().as_ref(),
        b"escapes \"quoted\" and \\ backslash"
    );
    assert_eq!(
        sans(&g.movetext),
        [
            &b"e4"[..],
            b"e5",
            b"Nf3",
            b"Nc6",
            b"Bb5",
            b"a6",
            b"Ba4",
            b"Nf6",
            b"O-O",
            b"Be7"
        ]
    );
    assert!(g.movetext.contains(&Token::Nag(1)));
    let g = &games[1];
    assert_eq!(
        sans(&g.movetext),
        [&b"e4"[..], b"e5", b"Nf3", b"Nc6", b"Bc4", b"Bc5"]
    );
    let suffixes: Vec<Suffix> = g
        .movetext
        .iter()
        .filter_map(|t| match t {
            Token::Suffix(s) => Some(*s),
            _ => None,
        })
        .collect();
    assert_eq!(
        suffixes,
        [
            Suffix::Good,
            Suffix::Dubious,
            Suffix::Brilliant,
            Suffix::Blunder,
            Suffix::Speculative,
            Suffix::Mistake
        ]
    );
    let comments: Vec<&[u8]> = g
        .movetext
        .iter()
        .filter_map(|t| match t {
            Token::Comment { text, .. } => Some(*text),
            _ => None,
        })
        .collect();
    assert_eq!(
        comments,
        [
            &b"a brace comment\nover two lines"[..],
            b" a rest-of-line comment"
        ]
    );
    assert!(g.movetext.contains(&Token::Nag(146)));
    let g = &games[2];
    let opens = g
        .movetext
        .iter()
        .filter(|t| **t == Token::BeginVariation)
        .count();
    let closes = g
        .movetext
        .iter()
        .filter(|t| **t == Token::EndVariation)
        .count();
    assert_eq!((opens, closes), (4, 4));
    assert_eq!(g.main_line_moves(), 3);
    let g = &games[3];
    assert_eq!(
        g.movetext
            .iter()
            .filter(|t| matches!(t, Token::NullMove { .. }))
            .count(),
        2
    );
    assert_eq!(
        games[4].movetext_end,
        MovetextEnd::Result(GameResult::WhiteWins)
    );
    assert_eq!(games[5].movetext_end, MovetextEnd::Result(GameResult::Draw));
    assert_eq!(
        games[6].movetext_end,
        MovetextEnd::Result(GameResult::BlackWins)
    );
    assert_eq!(sans(&games[6].movetext).last().copied(), Some(&b"Qh4#"[..]));
}

#[test]
fn line_ends_bom_and_latin1() {
    for (name, games) in [
        ("bom.pgn", 1),
        ("crlf.pgn", 2),
        ("lone-cr.pgn", 2),
        ("latin1.pgn", 1),
    ] {
        let bytes = fixture(name);
        let read: Vec<_> = read_games(&bytes)
            .map(|g| g.unwrap_or_else(|b| panic!("{name}: {}", b.error)))
            .collect();
        assert_eq!(read.len(), games, "{name}");
        assert!(
            read.iter().all(|g| g.movetext_end.is_terminated()),
            "{name}"
        );
    }
    let bytes = fixture("crlf.pgn");
    let second = read_games(&bytes).nth(1).unwrap().unwrap();
    assert_eq!(second.line, 7);
    let bytes = fixture("lone-cr.pgn");
    assert_eq!(read_games(&bytes).nth(1).unwrap().unwrap().line, 6);
    let bytes = fixture("latin1.pgn");
    let g = read_games(&bytes).next().unwrap().unwrap();
    assert_eq!(g.tag(b"White").unwrap().value_str(), "Müller, Jürgen");
    assert_eq!(g.tag(b"Event").unwrap().value_str(), "latin1");
}

#[test]
fn leniency() {
    let bytes = fixture("leniency.pgn");
    let mut games = read_games(&bytes);
    let all: Vec<_> = games.by_ref().map(|g| g.unwrap()).collect();
    assert!(
        games.reader().junk_bytes() > 0,
        "junk before the first game is reported"
    );
    let events: Vec<String> = all
        .iter()
        .map(|g| {
            g.tag(b"Event")
                .map(|t| t.value_str().into_owned())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        events,
        [
            "no blank line between tags and moves",
            "no blank line between games",
            "",
            "tags only",
            "a bracket inside a comment",
            "missing result at the end of a game",
            "two FEN tags, Variant after FEN",
            "missing result at the end of the file",
        ]
    );
    assert_eq!(sans(&all[2].movetext), [&b"c4"[..], b"c5"]);
    assert!(
        all[3].movetext.len() == 1
            && all[3].movetext_end == MovetextEnd::Result(GameResult::Unknown)
    );
    assert_eq!(sans(&all[4].movetext), [&b"e4"[..], b"e5"]);
    assert_eq!(all[5].movetext_end, MovetextEnd::NextGame);
    assert_eq!(all[6].tags_named(b"FEN").count(), 2);
    let position = |name: &[u8]| all[6].tags.iter().position(|t| t.name == name).unwrap();
    assert!(position(b"Variant") > position(b"FEN"));
    assert_eq!(all[7].movetext_end, MovetextEnd::EndOfInput);
}

#[test]
fn damaged_games_do_not_swallow_the_next() {
    let bytes = fixture("unterminated.pgn");
    let all: Vec<_> = read_games(&bytes).collect();
    assert_eq!(all.len(), 6);
    let kinds: Vec<Option<ErrorKind>> = all
        .iter()
        .map(|g| g.as_ref().err().map(|b| b.error.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            Some(ErrorKind::UnterminatedComment),
            None,
            Some(ErrorKind::UnterminatedVariation),
            None,
            Some(ErrorKind::BadTag),
            None
        ]
    );
    let bad = all[0].as_ref().unwrap_err();
    assert_eq!((bad.error.line, bad.error.column), (4, 7));
    assert_eq!(&bytes[bad.byte_range.clone()], &b"[Event \"unterminated comment\"]\n[Result \"1-0\"]\n\n1. e4 {this comment never closes 1-0"[..]);
    assert_eq!(
        all[1]
            .as_ref()
            .unwrap()
            .tag(b"Event")
            .unwrap()
            .value()
            .as_ref(),
        b"kept: the game after the damage"
    );
}

#[test]
fn hundred_thousand_nested_variations_and_huge_comments() {
    let mut text = b"[Event \"deep\"]\n\n1. e4 ".to_vec();
    text.extend(std::iter::repeat_n(b"( e4 ".as_slice(), 100_000).flatten());
    text.extend(std::iter::repeat_n(b") ".as_slice(), 100_000).flatten());
    text.extend_from_slice(b"*\n\n[Event \"after\"]\n\n1. d4 {");
    text.extend(std::iter::repeat_n(b'x', 5 << 20));
    text.extend_from_slice(b"} *\n");
    let games: Vec<_> = read_games(&text).map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0]
            .movetext
            .iter()
            .filter(|t| **t == Token::BeginVariation)
            .count(),
        100_000
    );
    assert!(matches!(games[1].movetext[1], Token::Comment { text, .. } if text.len() == 5 << 20));
    // Unclosed: 100,000 open variations at the end of the input.
    let mut open = b"1. e4 ".to_vec();
    open.extend(std::iter::repeat_n(b"( e4 ".as_slice(), 100_000).flatten());
    let bad = read_games(&open).next().unwrap().unwrap_err();
    assert_eq!(bad.error.kind, ErrorKind::UnterminatedVariation);
}

#[test]
fn result_glued_to_a_move_number_ends_the_game() {
    // Found by the fuzzer: `2.*` was read as a move named `*`.
    let games: Vec<_> = read_games(b"1. e4 e5 2.* Nf3\n\n1. d4 41...1-0")
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(
        games[0].movetext_end,
        MovetextEnd::Result(GameResult::Unknown)
    );
    assert_eq!(sans(&games[0].movetext), [&b"e4"[..], b"e5"]);
    assert_eq!(
        games.last().unwrap().movetext_end,
        MovetextEnd::Result(GameResult::WhiteWins)
    );
    let bytes = fixture("../fuzz-regressions/pgn-reader-move-number-glued-to-result.pgn");
    for game in read_games(&bytes).flatten() {
        let mut out = Vec::new();
        pgn_parse::PgnWriter::new(&mut out)
            .write_game(&game)
            .unwrap();
        assert_eq!(read_games(&out).count(), 1);
    }
}

#[test]
fn move_numbers_glued_together_are_all_skipped() {
    let games: Vec<_> =
        read_games(b"1. e4 e5 2.2.Nf3 Nc6 3.3.*\n\n[Event \"b\"]\n\n1. d4 2.12 d5 *")
            .map(|g| g.unwrap())
            .collect();
    assert_eq!(
        sans(&games[0].movetext),
        [&b"e4"[..], b"e5", b"Nf3", b"Nc6"]
    );
    assert_eq!(
        games[0].movetext_end,
        MovetextEnd::Result(GameResult::Unknown)
    );
    assert_eq!(sans(&games.last().unwrap().movetext), [&b"d4"[..], b"d5"]);
}

#[test]
fn a_movetext_line_starting_with_a_tag_is_not_a_tag_line() {
    // Found by the fuzzer: `[Result "0-1"] 1. e4 {` made the blank-line-then-tag rule miss
    // the next game inside an unclosed comment.
    let text = b"[Result \"0-1\"] 1. e4 { never closed\n\n[Event \"next\"]\n\n1. d4 *\n";
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].as_ref().unwrap_err().error.kind,
        ErrorKind::UnterminatedComment
    );
    assert!(games[1].is_ok());
}

#[test]
fn fuzz_regressions_read_the_same_in_chunks() {
    // Found by the fuzzer: a NUL byte after a tag made the boundary rule and the reader
    // disagree about whitespace.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/fuzz-regressions");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let ranges = |g: Result<pgn_parse::Game<'_>, pgn_parse::BadGame<'_>>| match g {
            Ok(g) => g.byte_range,
            Err(b) => b.byte_range,
        };
        let sequential: Vec<_> = read_games(&data).map(ranges).collect();
        // Found by the fuzzer: `2.2.*` was a move named `2.*`, written as `2. e5 2.*` and
        // read back as a result: every game written must read back as one game.
        for game in read_games(&data).flatten() {
            let mut out = Vec::new();
            pgn_parse::PgnWriter::new(&mut out)
                .write_game(&game)
                .unwrap();
            assert_eq!(read_games(&out).count(), 1, "{}", path.display());
        }
        for target in [1, 7, 64, 365, 1000] {
            let chunked: Vec<_> = pgn_parse::split_at_game_boundaries(&data, target)
                .iter()
                .flat_map(|c| {
                    pgn_parse::read_games_at(&data[c.range.clone()], c.origin())
                        .map(ranges)
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(chunked, sequential, "{} at {target}", path.display());
        }
    }
}
