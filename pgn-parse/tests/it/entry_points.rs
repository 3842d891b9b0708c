//! The convenience entry points: the main-line iterator, reading games from any `impl Read`,
//! and the line cut of the stream reader.

use pgn_parse::{
    for_each_game, read_games, BadGame, Cut, GameEnd, MovetextEnd, StreamReader, Token, Visitor,
};
use std::io::Cursor;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Every PGN fixture, concatenated (damaged games included).
fn all_fixtures() -> Vec<u8> {
    let mut all = fixture("sample.pgn");
    let dir = format!("{}/../fixtures/pgn", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        all.extend_from_slice(b"\n\n");
        all.extend_from_slice(&std::fs::read(path).unwrap());
    }
    all
}

#[test]
fn main_line_skips_variations_and_keeps_the_comments_after_each_move() {
    let pgn = b"{game comment} 1. e4 {a} (1. d4 {b} (1. c4 {c}) d5) {after the variation} $1 e5! \
                2. Z0 {null} (2. Nf3) 2... Nc6 {last} 1-0";
    let game = read_games(pgn).next().unwrap().unwrap();
    let moves: Vec<_> = game
        .main_line()
        .map(|m| (m.san, m.is_null(), m.comments().collect::<Vec<_>>()))
        .collect();
    assert_eq!(
        moves,
        [
            (
                Some(&b"e4"[..]),
                false,
                vec![&b"a"[..], b"after the variation"]
            ),
            (Some(b"e5"), false, vec![]),
            (None, true, vec![b"null"]),
            (Some(b"Nc6"), false, vec![b"last"]),
        ]
    );
    let e4 = game.main_line().next().unwrap();
    assert_eq!(&pgn[e4.offset..e4.offset + 2], b"e4");
    assert!(e4.after.contains(&Token::Nag(1)));
    assert_eq!(
        e4.after
            .iter()
            .filter(|t| **t == Token::BeginVariation)
            .count(),
        2
    );
    // The result is not part of the last move's tokens.
    let last = game.main_line().last().unwrap();
    assert!(!last.after.iter().any(|t| matches!(t, Token::Result(_))));
    assert_eq!(game.main_line_moves(), 4);
}

#[test]
fn main_line_moves_counts_what_main_line_yields_on_every_fixture() {
    let all = all_fixtures();
    for game in read_games(&all).flatten() {
        let mut depth = 0usize;
        let mut expected = Vec::new();
        for token in &game.movetext {
            match token {
                Token::BeginVariation => depth += 1,
                Token::EndVariation => depth = depth.saturating_sub(1),
                Token::San { offset, .. } | Token::NullMove { offset } if depth == 0 => {
                    expected.push(*offset)
                }
                _ => {}
            }
        }
        let offsets: Vec<usize> = game.main_line().map(|m| m.offset).collect();
        assert_eq!(offsets, expected);
        // Every token after the first move belongs to exactly one move.
        let after: usize = game.main_line().map(|m| m.after.len() + 1).sum();
        let first = game
            .movetext
            .iter()
            .position(|t| matches!(t, Token::San { .. } | Token::NullMove { .. }));
        let results = usize::from(matches!(game.movetext.last(), Some(Token::Result(_))));
        let expected_len = first.map_or(0, |f| game.movetext.len() - f - results);
        assert_eq!(after, expected_len);
    }
}

/// A damaged game, without the error's excerpt: at the end of a block the reader cannot see
/// the next game's text, so `expected` and `found` may say "end of input" there.
fn bad(b: &BadGame<'_>) -> String {
    let e = &b.error;
    let at = (e.kind, e.offset, e.line, e.column, e.game_index);
    format!("bad {} {} {:?} {at:?}", b.index, b.line, b.byte_range)
}

#[test]
fn for_each_game_reads_what_read_games_reads() {
    let all = all_fixtures();
    let expected: Vec<String> = read_games(&all)
        .map(|g| match g {
            Ok(g) => format!(
                "ok {} {} {:?} {:?}",
                g.index, g.line, g.byte_range, g.movetext
            ),
            Err(b) => bad(&b),
        })
        .collect();
    let mut streamed = Vec::new();
    for_each_game(Cursor::new(&all), |g| {
        streamed.push(match g {
            Ok(g) => format!(
                "ok {} {} {:?} {:?}",
                g.index, g.line, g.byte_range, g.movetext
            ),
            Err(b) => bad(&b),
        })
    })
    .unwrap();
    assert_eq!(streamed, expected);
    // Small blocks: many per stream, the same games.
    for block in [64, 300, 4096] {
        let mut streamed = Vec::new();
        StreamReader::with_block_size(all.as_slice(), block)
            .for_each_game(|g| {
                streamed.push(match g {
                    Ok(g) => {
                        format!(
                            "ok {} {} {:?} {:?}",
                            g.index, g.line, g.byte_range, g.movetext
                        )
                    }
                    Err(b) => bad(&b),
                })
            })
            .unwrap();
        let first_difference = streamed.iter().zip(&expected).position(|(a, b)| a != b);
        if let Some(i) = first_difference {
            panic!("block {block}: {}\n{}", streamed[i], expected[i]);
        }
        assert_eq!(streamed.len(), expected.len(), "block {block}");
    }
}

#[test]
fn visit_games_gives_absolute_indices_and_offsets() {
    /// Each game's end, the error's excerpt left out (see [`bad`]).
    struct Ends;
    impl<'a> Visitor<'a> for Ends {
        type Output = GameEnd;
        fn end_game(&mut self, mut end: GameEnd) -> GameEnd {
            if let Some(e) = &mut end.error {
                (e.expected, e.found) = ("", String::new());
            }
            end
        }
    }
    let all = all_fixtures();
    let mut reader = pgn_parse::Reader::new(&all);
    let mut expected = Vec::new();
    while let Some(end) = reader.read_game(&mut Ends) {
        expected.push(end);
    }
    let mut streamed = Vec::new();
    StreamReader::with_block_size(all.as_slice(), 512)
        .visit_games(&mut Ends, |end| streamed.push(end))
        .unwrap();
    assert_eq!(streamed, expected);
    assert!(streamed
        .iter()
        .any(|e| e.movetext_end == MovetextEnd::NextGame));
}

#[test]
fn line_cut_blocks_end_after_line_feeds_and_cover_the_input() {
    let mut text = Vec::new();
    for i in 0..2000 {
        text.extend_from_slice(format!("line {i} {}\r\n", "x".repeat(i % 37)).as_bytes());
    }
    text.extend_from_slice(b"no line feed at the end");
    let mut stream = StreamReader::with_block_size(text.as_slice(), 100).with_cut(Cut::Lines);
    let mut joined = Vec::new();
    let mut blocks = 0;
    while let Some(block) = stream.next_block().unwrap() {
        assert_eq!(block.offset, joined.len());
        assert!(block.data.len() <= 100);
        assert_eq!(block.followed_by_game, block.data.ends_with(b"\n"));
        joined.extend_from_slice(&block.data);
        blocks += 1;
    }
    assert_eq!(joined, text);
    assert!(blocks > 100);
    assert_eq!(stream.bytes_read(), text.len() as u64);
    // A line longer than a block grows the block; a stream without line feeds is one block.
    let long = [b"short\n".as_slice(), &[b'x'; 1000], &b"\nend".repeat(500)].concat();
    let mut stream = StreamReader::with_block_size(long.as_slice(), 64).with_cut(Cut::Lines);
    let blocks: Vec<Vec<u8>> = std::iter::from_fn(|| stream.next_block().unwrap())
        .map(|b| b.data)
        .collect();
    assert_eq!(blocks[0], b"short\n");
    assert!(blocks[1].len() > 1000 && blocks[1].ends_with(b"\n"));
    assert!(blocks[2..].iter().all(|b| b.len() <= 64));
    assert_eq!(blocks.concat(), long);
    let cr_only = b"a\rb\rc\r".repeat(100);
    let mut stream = StreamReader::with_block_size(cr_only.as_slice(), 64).with_cut(Cut::Lines);
    assert_eq!(stream.next_block().unwrap().unwrap().data, cr_only);
    assert_eq!(stream.next_block().unwrap(), None);
}

#[test]
fn read_games_keeps_no_tokens_of_a_game_past_its_limit() {
    let long: Vec<u8> = [
        &b"[Event \"long\"]\n\n"[..],
        &b"1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(100),
        b"1-0\n\n",
    ]
    .concat();
    let all = [
        &b"[Event \"a\"]\n\n1. e4 e5 *\n\n"[..],
        &long,
        b"[Event \"b\"]\n\n1. d4 {a comment} d5 *\n",
    ]
    .concat();
    let limit = 1000;
    let games: Vec<_> = pgn_parse::read_games(&all).max_game_bytes(limit).collect();
    assert_eq!(games.len(), 3);
    let bad = games[1].as_ref().unwrap_err();
    assert_eq!(bad.error.kind, pgn_parse::ErrorKind::TooLarge);
    assert!(
        bad.movetext.is_empty() && bad.tags.is_empty(),
        "nothing kept"
    );
    assert_eq!(
        bad.byte_range.len(),
        long.len() - 2,
        "the whole game is still its range"
    );
    assert!(bad.error.offset - bad.byte_range.start > limit);
    assert_eq!((bad.line, bad.error.line), (5, 7), "{}", bad.error);
    // The games either side are whole; without a limit the long one is too.
    assert_eq!(games[2].as_ref().unwrap().movetext.len(), 4);
    let unlimited = pgn_parse::read_games(&all).nth(1).unwrap().unwrap();
    assert_eq!(unlimited.movetext.len(), 100 * 4 + 1);
    let at_limit = pgn_parse::read_games(&all)
        .max_game_bytes(long.len())
        .nth(1)
        .unwrap();
    assert!(at_limit.is_ok(), "a game of exactly the limit is kept");
}
