//! The peer: pgn-reader + shakmaty (`CastlingMode::Chess960`) doing what `pgn960 check` does,
//! and pgn-reader parsing alone. Depends on nothing but those two crates, so that the same
//! file builds against two pgn-reader releases: the `peer` binary of this crate (the
//! workspace's pgn-reader 0.29.0) and `benches/peer-latest` (pgn-reader 0.29.1, a crate of
//! its own outside the workspace, built with `--ignore-rust-version`).

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::ops::ControlFlow;

/// Counts of a validation run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Games read.
    pub games: u64,
    /// Valid games.
    pub valid: u64,
    /// Invalid games.
    pub invalid: u64,
    /// Moves seen.
    pub moves: u64,
}

struct PeerGame {
    pos: Option<Chess>,
    ok: bool,
}

/// The peer validator: parse with pgn-reader, replay every main-line SAN with shakmaty
/// from the FEN tag (Chess960 castling).
struct PeerValidator {
    counts: Counts,
}

impl Visitor for PeerValidator {
    type Tags = Option<Chess>;
    type Movetext = PeerGame;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            *tags = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<(), PeerGame> {
        ControlFlow::Continue(PeerGame {
            pos: Some(tags.unwrap_or_default()),
            ok: true,
        })
    }

    fn san(&mut self, game: &mut PeerGame, san_plus: SanPlus) -> ControlFlow<()> {
        self.counts.moves += 1;
        if let Some(pos) = game.pos.as_mut() {
            match san_plus.san.to_move(pos) {
                Ok(m) => pos.play_unchecked(m),
                Err(_) => {
                    game.ok = false;
                    game.pos = None;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut PeerGame) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, game: PeerGame) {
        self.counts.games += 1;
        if game.ok {
            self.counts.valid += 1;
        } else {
            self.counts.invalid += 1;
        }
    }
}

/// Validates every game with pgn-reader + shakmaty.
pub fn peer_check(bytes: &[u8]) -> Counts {
    peer_check_read(bytes)
}

/// [`peer_check`] over any reader: a `std::fs::File` is read through pgn-reader's own
/// buffer (ordinary reads, no map).
pub fn peer_check_read(source: impl std::io::Read) -> Counts {
    let mut reader = Reader::new(source);
    let mut v = PeerValidator {
        counts: Counts::default(),
    };
    while let Ok(Some(())) = reader.read_game(&mut v) {}
    v.counts
}

struct PeerParser {
    counts: Counts,
}

impl Visitor for PeerParser {
    type Tags = ();
    type Movetext = ();
    type Output = ();
    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn san(&mut self, _: &mut (), _: SanPlus) -> ControlFlow<()> {
        self.counts.moves += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: ()) {
        self.counts.games += 1;
    }
}

/// Parses every game with pgn-reader, seeing every SAN, doing nothing with it.
pub fn peer_parse(bytes: &[u8]) -> Counts {
    let mut reader = Reader::new(bytes);
    let mut v = PeerParser {
        counts: Counts::default(),
    };
    while let Ok(Some(())) = reader.read_game(&mut v) {}
    v.counts
}
