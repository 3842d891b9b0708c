//! Decoding SAN words while reading them changes nothing else: a visitor that asks for
//! decoded moves sees the same events (every move's text and offset, suffixes, comments,
//! variations, results, game ends) as one that does not, and a decoded word is what
//! [`DecodedSan::from_word`] makes of it.

use pgn_parse::{DecodedSan, GameEnd, GameResult, Reader, Skip, Suffix, Visitor};
use proptest::prelude::*;

/// Every event of every game, written out; with `decode`, each decoded move is also checked
/// against [`DecodedSan::from_word`] and counted.
struct Events {
    decode: bool,
    seen: Vec<String>,
    decoded: usize,
}

impl<'a> Visitor<'a> for Events {
    type Output = ();
    fn begin_game(&mut self, offset: usize) {
        self.seen.push(format!("game {offset}"));
    }
    fn end_tags(&mut self) -> Skip {
        self.seen.push("tags".into());
        Skip(false)
    }
    fn wants_decoded_san(&self) -> bool {
        self.decode
    }
    fn decoded_san(&mut self, san: DecodedSan, raw: &'a [u8], offset: usize) {
        assert_eq!(DecodedSan::from_word(raw), Some(san), "{raw:?}");
        self.decoded += 1;
        self.san(raw, offset);
    }
    fn san(&mut self, san: &'a [u8], offset: usize) {
        self.seen.push(format!("san {offset} {san:?}"));
    }
    fn null_move(&mut self, offset: usize) {
        self.seen.push(format!("null {offset}"));
    }
    fn comment(&mut self, text: &'a [u8], offset: usize) {
        self.seen.push(format!("comment {offset} {text:?}"));
    }
    fn nag(&mut self, nag: u16) {
        self.seen.push(format!("${nag}"));
    }
    fn suffix(&mut self, suffix: Suffix) {
        self.seen.push(suffix.as_str().into());
    }
    fn begin_variation(&mut self) -> Skip {
        self.seen.push("(".into());
        Skip(false)
    }
    fn end_variation(&mut self) {
        self.seen.push(")".into());
    }
    fn result(&mut self, result: GameResult) {
        self.seen.push(result.as_str().into());
    }
    fn end_game(&mut self, end: GameEnd) {
        self.seen.push(format!("end {end:?}"));
    }
}

/// The events of reading `input`, and how many moves were decoded.
fn events(input: &[u8], decode: bool) -> (Vec<String>, usize) {
    let mut visitor = Events {
        decode,
        seen: Vec::new(),
        decoded: 0,
    };
    let mut reader = Reader::new(input);
    while reader.read_game(&mut visitor).is_some() {}
    (visitor.seen, visitor.decoded)
}

#[test]
fn decoding_changes_no_event_of_any_fixture() {
    let mut decoded = 0;
    for dir in ["pgn", "fuzz-regressions", "check"] {
        for entry in std::fs::read_dir(test_support::fixture(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "pgn") {
                continue;
            }
            let input = std::fs::read(&path).unwrap();
            let (with, count) = events(&input, true);
            let (without, none) = events(&input, false);
            assert_eq!(with, without, "{}", path.display());
            assert_eq!(none, 0);
            decoded += count;
        }
    }
    assert!(decoded > 100, "{decoded} moves decoded");
}

#[test]
fn decoded_moves_and_what_is_not_decoded() {
    let decode = |w: &[u8]| DecodedSan::from_word(w);
    let e4 = decode(b"e4").unwrap();
    assert_eq!(
        e4.action,
        pgn_parse::SanAction::Move {
            piece: b'P',
            from_file: None,
            from_rank: None,
            capture: false,
            to: 28,
            promotion: None
        }
    );
    assert_eq!(decode(b"Qh4xe1#!?").unwrap().mark, Some(b'#'));
    assert_eq!(decode(b"e8=Q+#").unwrap().mark, Some(b'#'));
    for word in [
        &b""[..],
        b"e",
        b"Nx",
        b"exd",
        b"e8=",
        b"e8=K",
        b"Ne8=Q",
        b"0-0",
        b"O-O-",
        b"--",
        b"12.",
        b"e4!+",
        b"exd6e.p.",
        b"e4\xc2",
    ] {
        assert_eq!(decode(word), None, "{word:?}");
    }
}

/// Movetext made of SAN-like words (well formed or not) and everything around them.
fn san_soup() -> impl Strategy<Value = Vec<u8>> {
    let word = prop_oneof![
        3 => "[NBRQK]?[a-h]?[1-8]?[x:]?[a-h][1-8](=?[NBRQK])?[+#]{0,2}[!?]{0,3}",
        1 => "(O-O|O-O-O|0-0)[+#]?[!?]{0,2}",
        2 => "[NBRQKOo0a-hx:=+#!?.1-9*/ -]{1,9}",
        1 => prop::sample::select(vec!["{c}", "(", ")", "$1", ";x\n", "1.", "12...", "1-0", "*", "\u{bd}-\u{bd}", "\n[Event \"b\"]\n"]).prop_map(str::to_string),
    ];
    (
        prop::collection::vec(word, 0..30),
        prop::sample::select(vec![" ", "", "\n", "\t"]),
    )
        .prop_map(|(words, glue)| format!("[Event \"a\"]\n\n{}", words.join(glue)).into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn decoding_changes_no_event(input in san_soup()) {
        prop_assert_eq!(events(&input, true).0, events(&input, false).0);
    }
}
