//! What an observer sees of each main-line move ([`MainMove`]): the position before it
//! ([`MainMove::before`], made from the position after it with the move taken back, the
//! replay keeping no copy) is the start for the first move and the position after the move
//! before for the others, the move played there gives the position after it, and the last
//! is the game's end; keys as computed from scratch. With and without the key kept move by
//! move (the dedupe key and repetitions keep it), on every fixture, a game with variations
//! and the shared corpus when present.

use chess960_core::{CastlingStyle, Move, Position};
use pgn960::validate::{observe_chunk, GameObserver, Judged, MainMove, ReadMode, ValidateOptions};
use pgn_parse::{Origin, Skip, Tag};
use std::path::PathBuf;

/// A game whose variations start before moves of every kind (a capture, castling), nested.
const VARIATIONS: &[u8] = b"[Variant \"Chess960\"]\n\
[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 2. Nf3 Nc6 3. Bc4 (3. Bb5 a6 (3... Nf6 \
4. O-O) 4. Bxc6) 3... Bc5 4. O-O (4. c3 Nf6 (4... d6 5. d4)) 4... Nf6 5. d4 exd4 \
(5... Bxd4 6. Nxd4) 6. e5 *\n\n";

/// Every (before, move, after) of each game, checked against the judged game at its end.
#[derive(Default)]
struct Steps {
    steps: Vec<(Position, Move, Position)>,
    moves_seen: usize,
}

impl<'a> GameObserver<'a> for Steps {
    fn tags(&mut self, _tags: &[Tag<'a>]) -> Skip {
        self.steps.clear();
        Skip(false)
    }
    fn main_move(&mut self, step: MainMove<'_, 'a>) {
        assert_eq!(step.ply as usize, self.steps.len() + 1);
        self.steps
            .push((step.before(), step.chess_move, step.after.clone()));
    }
    fn end_game(&mut self, game: Judged<'_, 'a>) {
        let steps = std::mem::take(&mut self.steps);
        let Some(valid) = game.verdict.valid() else {
            return;
        };
        let mut expected = valid.start.clone();
        for (before, m, after) in &steps {
            assert_eq!(before, &expected, "{m:?}");
            assert_eq!(before.zobrist(), fresh_key(before), "{m:?}");
            assert_eq!(&before.played_unchecked(*m), after, "{m:?}");
            assert_eq!(after.zobrist(), fresh_key(after), "{m:?}");
            expected = after.clone();
        }
        assert_eq!(expected, valid.end);
        self.moves_seen += steps.len();
    }
}

/// The key of `pos` computed from its FEN.
fn fresh_key(pos: &Position) -> u64 {
    Position::from_fen(pos.fen(CastlingStyle::Shredder).to_string())
        .unwrap()
        .zobrist()
}

fn inputs() -> Vec<PathBuf> {
    let mut paths = vec![test_support::fixture("sample.pgn")];
    paths.extend(test_support::fixture_pgns(&["pgn", "check"]));
    let test = "main_moves::inputs";
    paths.extend(test_support::shared_data(
        test,
        "corpus/lichess-style-4000.pgn",
    ));
    paths
}

#[test]
fn before_each_main_move_is_the_position_the_move_was_played_from() {
    let keyed = ValidateOptions {
        dedupe_key: true,
        ..ValidateOptions::default()
    };
    let mut texts = vec![VARIATIONS.to_vec()];
    texts.extend(inputs().iter().map(|path| std::fs::read(path).unwrap()));
    for opts in [ValidateOptions::default(), keyed] {
        let mut steps = Steps::default();
        for text in &texts {
            observe_chunk(
                text,
                Origin::default(),
                &opts,
                ReadMode::Replay,
                false,
                &mut steps,
            );
        }
        assert!(steps.moves_seen > 100, "{}", steps.moves_seen);
    }
    let mut steps = Steps::default();
    let opts = ValidateOptions::default();
    observe_chunk(
        VARIATIONS,
        Origin::default(),
        &opts,
        ReadMode::Replay,
        false,
        &mut steps,
    );
    assert_eq!(steps.moves_seen, 11);
}

/// What an observer is told of a game, in order: each main move's ply and each main-line
/// comment's.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Told {
    Move(u32, Move),
    Comment(u32),
}

/// Every game's [`Told`] events, the moves only the first `wanted`
/// ([`GameObserver::moves_wanted`]).
struct Seen {
    wanted: u32,
    game: Vec<Told>,
    games: Vec<Vec<Told>>,
}

impl Seen {
    fn new(wanted: u32) -> Seen {
        Seen {
            wanted,
            game: Vec::new(),
            games: Vec::new(),
        }
    }
}

impl<'a> GameObserver<'a> for Seen {
    fn moves_wanted(&self) -> u32 {
        self.wanted
    }
    fn tags(&mut self, _tags: &[Tag<'a>]) -> Skip {
        self.game.clear();
        Skip(false)
    }
    fn main_move(&mut self, step: MainMove<'_, 'a>) {
        self.game.push(Told::Move(step.ply, step.chess_move));
    }
    fn main_comment(&mut self, _text: &'a [u8], ply: u32) {
        self.game.push(Told::Comment(ply));
    }
    fn end_game(&mut self, _game: Judged<'_, 'a>) {
        self.games.push(std::mem::take(&mut self.game));
    }
    fn skipped(&mut self, _byte_range: std::ops::Range<usize>) {
        self.games.push(std::mem::take(&mut self.game));
    }
}

/// The events of `text`'s games for an observer wanting `wanted` moves.
fn told(text: &[u8], opts: &ValidateOptions, wanted: u32) -> Vec<Vec<Told>> {
    let mut seen = Seen::new(wanted);
    observe_chunk(
        text,
        Origin::default(),
        opts,
        ReadMode::Replay,
        false,
        &mut seen,
    );
    seen.games
}

#[test]
fn an_observer_wanting_fewer_moves_is_told_the_first_and_the_same_plies() {
    // A limit of 600 bytes decides most games as too large part way through their moves.
    let limited = ValidateOptions {
        max_game_bytes: 600,
        ..ValidateOptions::default()
    };
    let mut texts = vec![VARIATIONS.to_vec()];
    texts.extend(inputs().iter().map(|path| std::fs::read(path).unwrap()));
    let (mut moves, mut comments) = (0, 0);
    for opts in [ValidateOptions::default(), limited] {
        for text in &texts {
            let all = told(text, &opts, u32::MAX);
            for game in &all {
                // Plies count the main moves told before, as the loop once counted them.
                let mut before = 0;
                for event in game {
                    match event {
                        Told::Move(ply, _) => {
                            before += 1;
                            assert_eq!(*ply, before);
                            moves += 1;
                        }
                        Told::Comment(ply) => {
                            assert_eq!(*ply, before);
                            comments += 1;
                        }
                    }
                }
            }
            for wanted in [0, 1, 2, 5] {
                let first: Vec<Vec<Told>> = all
                    .iter()
                    .map(|game| {
                        let mut left = wanted;
                        let keep = |e: &&Told| match e {
                            Told::Move(..) if left == 0 => false,
                            Told::Move(..) => {
                                left -= 1;
                                true
                            }
                            Told::Comment(_) => true,
                        };
                        game.iter().filter(keep).cloned().collect()
                    })
                    .collect();
                assert_eq!(told(text, &opts, wanted), first, "{wanted} moves wanted");
            }
        }
    }
    assert!(
        moves > 1000 && comments > 100,
        "{moves} moves, {comments} comments"
    );
}
