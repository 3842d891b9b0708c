//! Property tests: chunked reading equals sequential reading for any chunk size (damaged
//! games included), and writing then reading a game gives the same game.

use pgn_parse::{
    read_games, read_games_at, split_at_game_boundaries, Game, GameEnd, GameResult, MovetextEnd,
    PgnWriter, Reader, Skip, StreamReader, Token, Visitor,
};
use proptest::prelude::*;

/// One generated movetext element.
fn element() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-h][1-8]|[NBRQK][a-h][1-8]|O-O|O-O-O|[a-h]x[a-h][1-8]".prop_map(|s| s),
        2 => "[a-z \\[\\]%\\n]{0,20}".prop_map(|c| format!("{{{c}}}")),
        1 => (1u16..300).prop_map(|n| format!("${n}")),
        1 => prop_oneof![Just("!"), Just("?"), Just("!?"), Just("??")].prop_map(str::to_string),
        1 => Just("( e4 e5 )".to_string()),
        1 => Just("(".to_string()),
        1 => Just(")".to_string()),
        1 => Just("--".to_string()),
        1 => Just("; rest of line\n".to_string()),
        1 => "[0-9]{1,3}\\.{1,3}".prop_map(|s| s),
        1 => prop_oneof![Just("( e4 1-0 )"), Just("2.*"), Just("e4-e5"), Just("\n%escape\n")]
            .prop_map(str::to_string),
        1 => "[-*0-9a-z./]{1,6}".prop_map(|s| s),
    ]
}

/// A game: roster tags, movetext, maybe a result, sometimes an unterminated comment.
fn game() -> impl Strategy<Value = String> {
    (
        "[A-Za-z0-9 \"\\\\]{0,12}",
        prop::collection::vec(element(), 0..20),
        prop_oneof![Just("1-0"), Just("0-1"), Just("1/2-1/2"), Just("*"), Just(""), Just("{ never closed")],
        prop_oneof![Just("\n"), Just("\r\n")],
    )
        .prop_map(|(event, moves, result, nl)| {
            let escaped = event.replace('\\', "\\\\").replace('"', "\\\"");
            let tag_result = if result.starts_with('{') || result.is_empty() { "*" } else { result };
            let mut s = format!("[Event \"{escaped}\"]{nl}[Site \"?\"]{nl}[Date \"????.??.??\"]{nl}[Round \"?\"]{nl}[White \"?\"]{nl}[Black \"?\"]{nl}[Result \"{tag_result}\"]{nl}{nl}");
            s.push_str(&moves.join(" "));
            s.push(' ');
            s.push_str(result);
            s.push_str(nl);
            s
        })
}

fn file() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(game(), 1..12),
        prop_oneof![Just("\n"), Just(""), Just("\n\n")],
    )
        .prop_map(|(games, sep)| games.join(sep).into_bytes())
}

/// What two reads must agree on: byte ranges, errors, tags and tokens.
fn summary(input: &[u8], origin_chunks: Option<usize>) -> Vec<String> {
    let describe = |g: Result<Game<'_>, pgn_parse::BadGame<'_>>| match g {
        Ok(g) => format!(
            "ok {:?} {:?} {:?} {:?}",
            g.byte_range, g.movetext_end, g.tags, g.movetext
        ),
        Err(b) => format!(
            "bad {:?} {:?} {}",
            b.byte_range, b.error.kind, b.error.offset
        ),
    };
    match origin_chunks {
        None => read_games(input).map(describe).collect(),
        Some(target) => split_at_game_boundaries(input, target)
            .iter()
            .flat_map(|c| {
                read_games_at(&input[c.range.clone()], c.origin())
                    .map(describe)
                    .collect::<Vec<_>>()
            })
            .collect(),
    }
}

/// [`summary`] of a chunk read at `origin`.
fn summary_at(input: &[u8], origin: pgn_parse::Origin) -> Vec<String> {
    read_games_at(input, origin)
        .map(|g| match g {
            Ok(g) => format!(
                "ok {:?} {:?} {:?} {:?}",
                g.byte_range, g.movetext_end, g.tags, g.movetext
            ),
            Err(b) => format!(
                "bad {:?} {:?} {}",
                b.byte_range, b.error.kind, b.error.offset
            ),
        })
        .collect()
}

/// How every game of `input` ends (byte range, termination, error) when its movetext is
/// read (`skip` false) or skipped, plus the junk bytes counted.
fn game_ends(input: &[u8], skip: bool) -> (Vec<GameEnd>, u64) {
    struct Ends(bool);
    impl<'a> Visitor<'a> for Ends {
        type Output = GameEnd;
        fn end_tags(&mut self) -> Skip {
            Skip(self.0)
        }
        fn end_game(&mut self, end: GameEnd) -> GameEnd {
            end
        }
    }
    let mut reader = Reader::new(input);
    let mut visitor = Ends(skip);
    let mut ends = Vec::new();
    while let Some(end) = reader.read_game(&mut visitor) {
        ends.push(end);
    }
    (ends, reader.junk_bytes())
}

/// Every game's main line (moves, comments, result, each with its offset where it has one)
/// and end, with variations skipped by the visitor (`skip`) or read and left out by depth.
fn main_lines(input: &[u8], skip: bool) -> Vec<(Vec<String>, GameEnd)> {
    struct MainLine {
        skip: bool,
        depth: usize,
        seen: Vec<String>,
    }
    impl<'a> Visitor<'a> for MainLine {
        type Output = (Vec<String>, GameEnd);
        fn san(&mut self, san: &'a [u8], offset: usize) {
            if self.depth == 0 {
                self.seen.push(format!("{offset} {san:?}"));
            }
        }
        fn null_move(&mut self, offset: usize) {
            if self.depth == 0 {
                self.seen.push(format!("{offset} --"));
            }
        }
        fn comment(&mut self, text: &'a [u8], offset: usize) {
            if self.depth == 0 {
                self.seen.push(format!("{offset} {text:?}"));
            }
        }
        fn nag(&mut self, nag: u16) {
            if self.depth == 0 {
                self.seen.push(format!("${nag}"));
            }
        }
        fn begin_variation(&mut self) -> Skip {
            self.depth += usize::from(!self.skip);
            Skip(self.skip)
        }
        fn end_variation(&mut self) {
            assert!(!self.skip, "no end_variation after a skipped variation");
            self.depth -= 1;
        }
        fn result(&mut self, result: GameResult) {
            self.seen.push(result.as_str().to_string());
        }
        fn end_game(&mut self, end: GameEnd) -> (Vec<String>, GameEnd) {
            self.depth = 0;
            (std::mem::take(&mut self.seen), end)
        }
    }
    let mut reader = Reader::new(input);
    let mut visitor = MainLine {
        skip,
        depth: 0,
        seen: Vec::new(),
    };
    std::iter::from_fn(|| reader.read_game(&mut visitor)).collect()
}

/// A piece of an archive the reader must cut right (issue 18): a game, a tag-less game, a
/// header-only tag section, a game whose comment quotes a game, invisible characters
/// before a tag line.
fn piece() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec!["Event", "Site", "White", "Round"]);
    prop_oneof![
        3 => game(),
        2 => (prop::collection::vec(element(), 0..8), prop_oneof![Just("1-0"), Just("*"), Just("")])
            .prop_map(|(moves, result)| format!("1. {} {result}\n", moves.join(" "))),
        2 => prop::collection::vec((names, "[a-z]{0,3}"), 1..4).prop_map(|tags| {
            tags.iter().map(|(n, v)| format!("[{n} \"{v}\"]\n")).collect::<String>()
        }),
        1 => (game(), game()).prop_map(|(outer, quoted)| {
            // The outer game's movetext opens a comment that quotes a whole game.
            let cut = tags_end(&outer);
            format!("{}1. e4 {{quote:\n\n{quoted}}} {}", &outer[..cut], &outer[cut..])
        }),
        1 => prop_oneof![Just("\u{feff}"), Just("\u{a0}"), Just("\u{200b}")]
            .prop_map(str::to_string),
    ]
}

fn mixed_file() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        (
            piece(),
            prop_oneof![Just("\n"), Just(""), Just("\n\n"), Just("\n\n\n")],
        ),
        1..14,
    )
    .prop_map(|pieces| {
        pieces
            .into_iter()
            .map(|(p, sep)| p + sep)
            .collect::<String>()
            .into_bytes()
    })
}

/// The end of a generated game's tag section (after its blank line).
fn tags_end(game: &str) -> usize {
    game.find("\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| game.find("\n\n").map(|i| i + 2))
        .unwrap_or(0)
}

/// Games (tags and a quote each) of which one quotes another in a comment that closes,
/// with the byte range of every quote.
fn quoting_file() -> impl Strategy<Value = (Vec<u8>, Vec<std::ops::Range<usize>>)> {
    prop::collection::vec((game(), prop::option::of(game())), 1..6).prop_map(|games| {
        let (mut text, mut quotes) = (String::new(), Vec::new());
        for (outer, quoted) in games {
            // A quote with an unclosed `{` of its own is the case the reader cannot tell
            // from an unterminated comment followed by a game (docs/reliability.md).
            let quoted = quoted.map(|q| q.replace("{ never closed", "*"));
            let cut = tags_end(&outer);
            text.push_str(&outer[..cut]);
            if let Some(quoted) = quoted {
                text.push_str("1. e4 {quote:\n\n");
                quotes.push(text.len()..text.len() + quoted.len());
                text.push_str(&quoted);
                text.push_str("} ");
            }
            text.push_str(&outer[cut..]);
            text.push('\n');
        }
        (text.into_bytes(), quotes)
    })
}

/// Bytes from the characters that matter to the movetext reader.
fn movetext_soup() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(b"[]{}()$;%*-01/2.5 \n\r\teONQx\"\xc2\xbd\xa0".to_vec()),
        0..400,
    )
    .prop_map(|body| {
        let mut s = b"[Event \"?\"]\n\n".to_vec();
        s.extend_from_slice(&body);
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn skipping_the_movetext_ends_every_game_where_reading_it_does(input in file()) {
        prop_assert_eq!(game_ends(&input, true), game_ends(&input, false));
    }

    #[test]
    fn skipping_the_movetext_of_any_soup_ends_games_where_reading_does(input in movetext_soup()) {
        prop_assert_eq!(game_ends(&input, true), game_ends(&input, false));
    }

    #[test]
    fn skipping_variations_leaves_the_main_line_and_the_game_ends_as_they_are(input in file()) {
        prop_assert_eq!(main_lines(&input, true), main_lines(&input, false));
    }

    #[test]
    fn skipping_variations_of_any_soup_leaves_the_main_line_as_it_is(input in movetext_soup()) {
        prop_assert_eq!(main_lines(&input, true), main_lines(&input, false));
    }

    #[test]
    fn chunked_reading_equals_sequential_reading(input in file(), target in 1usize..400) {
        prop_assert_eq!(summary(&input, Some(target)), summary(&input, None));
    }

    #[test]
    fn stream_reading_equals_sequential_reading(input in file(), block in 64usize..600) {
        let mut stream = StreamReader::with_block_size(input.as_slice(), block);
        let mut streamed = Vec::new();
        while let Some(b) = stream.next_block().unwrap() {
            for g in read_games_at(&b.data, b.origin()) {
                streamed.push(match g { Ok(g) => format!("ok {:?} {:?}", g.byte_range, g.movetext_end), Err(e) => format!("bad {:?}", e.byte_range) });
            }
        }
        let sequential: Vec<String> = read_games(&input)
            .map(|g| match g { Ok(g) => format!("ok {:?} {:?}", g.byte_range, g.movetext_end), Err(e) => format!("bad {:?}", e.byte_range) })
            .collect();
        prop_assert_eq!(streamed, sequential);
    }

    #[test]
    fn skipping_ends_games_where_reading_does_in_mixed_archives(input in mixed_file()) {
        prop_assert_eq!(game_ends(&input, true), game_ends(&input, false));
        prop_assert_eq!(main_lines(&input, true), main_lines(&input, false));
    }

    #[test]
    fn chunked_and_streamed_reading_equal_sequential_reading_in_mixed_archives(
        input in mixed_file(),
        target in 1usize..400,
        block in 64usize..600,
    ) {
        let sequential = summary(&input, None);
        prop_assert_eq!(summary(&input, Some(target)), sequential.clone());
        let mut stream = StreamReader::with_block_size(input.as_slice(), block);
        let mut streamed = Vec::new();
        while let Some(b) = stream.next_block().unwrap() {
            streamed.extend(summary_at(&b.data, b.origin()));
        }
        prop_assert_eq!(streamed, sequential);
    }

    #[test]
    fn no_game_read_is_text_quoted_in_a_comment((input, quotes) in quoting_file()) {
        for game in read_games(&input).flatten() {
            let inside = quotes
                .iter()
                .find(|q| q.start <= game.byte_range.start && game.byte_range.end <= q.end);
            prop_assert!(
                inside.is_none(),
                "game {:?} read from the quote {:?}",
                game.byte_range,
                inside
            );
        }
    }

    #[test]
    fn write_then_read_gives_the_same_game(input in file()) {
        for game in read_games(&input).flatten() {
            if !matches!(game.movetext_end, MovetextEnd::Result(_)) {
                continue;
            }
            let mut out = Vec::new();
            PgnWriter::new(&mut out).write_game(&game).unwrap();
            let again: Vec<_> = read_games(&out).collect();
            prop_assert_eq!(again.len(), 1, "{}", String::from_utf8_lossy(&out));
            let again = again.into_iter().next().unwrap().unwrap();
            let tags = |g: &Game<'_>| g.tags.iter().map(|t| (t.name.to_vec(), t.value().into_owned())).collect::<Vec<_>>();
            // A game without tags (text after a result) is written with the roster.
            if !game.tags.is_empty() {
                prop_assert_eq!(tags(&again), tags(&game));
            }
            prop_assert_eq!(strip(&again.movetext), strip(&game.movetext), "{}", String::from_utf8_lossy(&out));
        }
    }
}

/// Tokens without offsets, comments trimmed (the writer pads them with a space).
fn strip(tokens: &[Token<'_>]) -> Vec<String> {
    tokens
        .iter()
        .map(|t| match t {
            Token::San { text, .. } => format!("san {}", String::from_utf8_lossy(text)),
            Token::NullMove { .. } => "null".into(),
            Token::Comment { text, .. } => {
                format!("comment {}", String::from_utf8_lossy(text.trim_ascii()))
            }
            other => format!("{other:?}"),
        })
        .collect()
}

/// Movetext of moves and comments: lone lichess clocks, near misses and other comments.
fn clock_soup() -> impl Strategy<Value = Vec<u8>> {
    let element = prop_oneof![
        2 => "[a-h][1-8]".prop_map(|s| s),
        3 => "[0-9]:[0-9]{2}:[0-9]{2}".prop_map(|c| format!("{{ [%clk {c}] }}")),
        2 => "[ \\[%clk0-9:a\\]]{0,18}".prop_map(|c| format!("{{{c}}}")),
        1 => Just("{ [%clk 0:03:00]}".to_string()),
        1 => Just("{ [%clk 10:03:00] }".to_string()),
        1 => Just("{ [%clk 0:03:00.5] }".to_string()),
        1 => Just("( e4 { [%clk 0:01:00] } )".to_string()),
        1 => Just("; [%clk 0:01:00]\n".to_string()),
    ];
    proptest::collection::vec(element, 0..30)
        .prop_map(|e| format!("[Event \"x\"]\n\n{} *\n", e.join(" ")).into_bytes())
}

/// Every comment of `input` (offset, text), and whether it came as a lone clock; with
/// `clocks` false the visitor keeps the default `clock_comment`.
fn comments(input: &[u8], clocks: bool) -> Vec<(usize, Vec<u8>, bool)> {
    struct Comments {
        clocks: bool,
        seen: Vec<(usize, Vec<u8>, bool)>,
    }
    impl<'a> Visitor<'a> for Comments {
        type Output = ();
        fn comment(&mut self, text: &'a [u8], offset: usize) {
            self.seen.push((offset, text.to_vec(), false));
        }
        fn clock_comment(&mut self, text: &'a [u8], offset: usize) {
            if self.clocks {
                self.seen.push((offset, text.to_vec(), true));
            } else {
                self.comment(text, offset);
            }
        }
        fn end_game(&mut self, _end: GameEnd) {}
    }
    let mut reader = Reader::new(input);
    let mut visitor = Comments {
        clocks,
        seen: Vec::new(),
    };
    while reader.read_game(&mut visitor).is_some() {}
    visitor.seen
}

proptest! {
    /// The reader hands a brace comment to `clock_comment` exactly when its text is a lone
    /// clock (`lone_clock`), and the comments are the same with or without that hook.
    #[test]
    fn lone_clocks_come_as_clock_comments_and_only_they(input in clock_soup()) {
        let with = comments(&input, true);
        let without = comments(&input, false);
        let strip = |c: &[(usize, Vec<u8>, bool)]| -> Vec<(usize, Vec<u8>)> {
            c.iter().map(|(o, t, _)| (*o, t.clone())).collect()
        };
        prop_assert_eq!(strip(&with), strip(&without));
        for (offset, text, clock) in &with {
            let brace = input[*offset] == b'{';
            prop_assert_eq!(*clock, brace && pgn_parse::lone_clock(text).is_some());
        }
    }
}
