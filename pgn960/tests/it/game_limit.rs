//! `--max-game-bytes` while reading: the validator decides a game too large exactly when an
//! event it replays (a move or a comment) lies more than the limit past the game's first
//! byte.

use pgn960::validate::{RejectReason, ValidateOptions, Validator};
use pgn_parse::{GameEnd, Reader, Visitor};

/// Each game's first byte and the offset of its last move or comment.
#[derive(Default)]
struct Offsets {
    start: usize,
    last: usize,
}

impl<'a> Visitor<'a> for Offsets {
    type Output = (usize, usize);
    fn begin_game(&mut self, offset: usize) {
        (self.start, self.last) = (offset, offset);
    }
    fn san(&mut self, _san: &'a [u8], offset: usize) {
        self.last = offset;
    }
    fn comment(&mut self, _text: &'a [u8], offset: usize) {
        self.last = offset;
    }
    fn end_game(&mut self, _end: GameEnd) -> (usize, usize) {
        (self.start, self.last)
    }
}

#[test]
fn a_game_is_too_large_exactly_when_a_move_or_comment_lies_past_the_limit() {
    let games: &[u8] = b"[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. d4 { [%clk 0:03:00] } 1... d5 {x} 2. Nf3 1-0\n\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 e5 { [%clk 0:02:00] } 2. Nf3 *\n";
    let mut reader = Reader::new(games);
    let mut offsets = Offsets::default();
    let mut spans = Vec::new();
    while let Some(span) = reader.read_game(&mut offsets) {
        spans.push(span);
    }
    assert_eq!(spans.len(), 2);
    for limit in 0..games.len() + 2 {
        let opts = ValidateOptions {
            max_game_bytes: limit,
            ..ValidateOptions::default()
        };
        let mut reader = Reader::new(games);
        let mut validator = Validator::new(opts);
        for &(start, last) in &spans {
            let Some((_, verdict)) = reader.read_game(&mut validator) else {
                panic!("two games");
            };
            let too_large = verdict
                .rejection()
                .is_some_and(|r| r.reason == RejectReason::TooLarge);
            assert_eq!(
                too_large,
                limit > 0 && last - start > limit,
                "{limit} {start}"
            );
        }
    }
}
