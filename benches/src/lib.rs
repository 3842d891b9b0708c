//! Shared pieces of the benchmarks: the corpus, and the peer implementation built on
//! pgn-reader + shakmaty (`CastlingMode::Chess960`) that does what `pgn960 check` does
//! (in `peer_impl.rs`, shared with `benches/peer-latest`).

mod peer_impl;
pub use peer_impl::{peer_check, peer_check_read, peer_parse, Counts};

use pgn_reader::{RawTag, Reader, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The benchmark corpus: `$PGN960_BENCH_CORPUS`, else the shared lichess-style corpus, else
/// the bundled sample repeated to about 4 MB (so benches run anywhere).
pub fn corpus() -> (String, Vec<u8>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates: Vec<PathBuf> = std::env::var_os("PGN960_BENCH_CORPUS")
        .map(PathBuf::from)
        .into_iter()
        .chain([root.join("../../shared/data/corpus/lichess-style-4000.pgn")])
        .collect();
    for path in candidates {
        if let Ok(bytes) = std::fs::read(&path) {
            return (path.display().to_string(), bytes);
        }
    }
    let sample = std::fs::read(root.join("../fixtures/sample.pgn")).unwrap_or_default();
    let mut bytes = Vec::new();
    while bytes.len() < 4 << 20 && !sample.is_empty() {
        bytes.extend_from_slice(&sample);
        bytes.push(b'\n');
    }
    ("fixtures/sample.pgn x N".into(), bytes)
}

/// Parses every game with pgn-parse's visitor API, seeing every SAN.
pub fn our_parse(bytes: &[u8]) -> Counts {
    struct V(Counts);
    impl<'a> pgn_parse::Visitor<'a> for V {
        type Output = ();
        fn san(&mut self, _: &'a [u8], _: usize) {
            self.0.moves += 1;
        }
        fn end_game(&mut self, _: pgn_parse::GameEnd) {
            self.0.games += 1;
        }
    }
    let mut reader = pgn_parse::Reader::new(bytes);
    let mut v = V(Counts::default());
    while reader.read_game(&mut v).is_some() {}
    v.0
}

/// Validates every game the way `pgn960 check -j1` does (one thread, no output): each game
/// validated while it is read.
pub fn our_check(bytes: &[u8]) -> Counts {
    use pgn960::validate::{ValidateOptions, Validator, Verdict};
    let mut counts = Counts::default();
    let mut reader = pgn_parse::Reader::new(bytes);
    let mut validator = Validator::new(ValidateOptions::default());
    while let Some((end, verdict)) = reader.read_game(&mut validator) {
        counts.games += 1;
        let ok = end.error.is_none()
            && matches!(end.movetext_end, pgn_parse::MovetextEnd::Result(_))
            && matches!(verdict, Verdict::Valid(_));
        if let Verdict::Valid(v) = &verdict {
            counts.moves += u64::from(v.plies);
        }
        if ok {
            counts.valid += 1;
        } else {
            counts.invalid += 1;
        }
    }
    counts
}

/// Reads every line as a FEN with shakmaty (Chess960 castling) and writes it back: the plain
/// parse-and-write loop `pgn960 xfen` is compared with. Returns the number of FENs read.
pub fn peer_xfen(bytes: &[u8], out: &mut impl std::io::Write) -> u64 {
    let mut n = 0;
    for line in bytes.split(|&b| b == b'\n') {
        let Ok(fen) = Fen::from_ascii(line.trim_ascii()) else {
            continue;
        };
        let Ok(pos) = fen.into_position::<Chess>(CastlingMode::Chess960) else {
            continue;
        };
        let _ = writeln!(
            out,
            "{}",
            Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
        );
        n += 1;
    }
    n
}

/// Best-of-`runs` seconds of `f`.
pub fn best_seconds(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Prints `label: ours X, peer Y, ratio` where X and Y are throughputs (bigger is better).
pub fn print_ratio(label: &str, unit: &str, ours: f64, peer: f64) {
    println!(
        "{label}: pgn960 {ours:.1} {unit}, peer {peer:.1} {unit}, ratio {:.2}x",
        ours / peer
    );
}

/// The main lines of a corpus, pre-parsed: each game's FEN tag (if any) and its SANs.
pub type MainLines<'a> = Vec<(Option<Vec<u8>>, Vec<&'a [u8]>)>;

/// Collects the FEN tag and main-line SANs of every game, for replay benchmarks that leave
/// parsing out.
pub fn main_lines(bytes: &[u8]) -> MainLines<'_> {
    pgn_parse::read_games(bytes)
        .filter_map(Result::ok)
        .map(|g| {
            let fen = g.tag(b"FEN").map(|t| t.value().into_owned());
            let mut depth = 0usize;
            let mut sans = Vec::new();
            for token in &g.movetext {
                match token {
                    pgn_parse::Token::BeginVariation => depth += 1,
                    pgn_parse::Token::EndVariation => depth = depth.saturating_sub(1),
                    pgn_parse::Token::San { text, .. } if depth == 0 => sans.push(*text),
                    _ => {}
                }
            }
            (fen, sans)
        })
        .collect()
}

/// Replays main lines with chess960-core (SAN resolution and make-move); returns moves played.
pub fn our_replay(games: &MainLines<'_>) -> u64 {
    let mut moves = 0;
    for (fen, sans) in games {
        let start = match fen {
            Some(f) => std::str::from_utf8(f)
                .ok()
                .and_then(|f| chess960_core::Position::from_fen(f).ok()),
            None => chess960_core::Position::from_sp(518).ok(),
        };
        let Some(mut pos) = start else { continue };
        for san in sans {
            match pos.parse_san(san) {
                Ok(m) => pos.play_unchecked(m),
                Err(_) => break,
            }
            moves += 1;
        }
    }
    moves
}

/// Replays main lines with shakmaty (Chess960 castling); returns moves played.
pub fn peer_replay(games: &MainLines<'_>) -> u64 {
    let mut moves = 0;
    for (fen, sans) in games {
        let start: Option<Chess> = match fen {
            Some(f) => Fen::from_ascii(f)
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok()),
            None => Some(Chess::default()),
        };
        let Some(mut pos) = start else { continue };
        for san in sans {
            let Ok(san) = shakmaty::san::San::from_ascii(san) else {
                break;
            };
            match san.to_move(&pos) {
                Ok(m) => pos.play_unchecked(m),
                Err(_) => break,
            }
            moves += 1;
        }
    }
    moves
}

/// The lower bound of our check: pgn-parse's visitor replaying every main-line SAN with
/// chess960-core as it is read (what the peer does, with our crates).
pub fn our_fused(bytes: &[u8]) -> Counts {
    struct V {
        counts: Counts,
        pos: Option<chess960_core::Position>,
        ok: bool,
    }
    impl<'a> pgn_parse::Visitor<'a> for V {
        type Output = ();
        fn begin_game(&mut self, _: usize) {
            self.pos = chess960_core::Position::from_sp(518).ok();
            self.ok = true;
        }
        fn tag(&mut self, tag: pgn_parse::Tag<'a>) {
            if tag.name == b"FEN" {
                self.pos = std::str::from_utf8(&tag.value())
                    .ok()
                    .and_then(|f| chess960_core::Position::from_fen(f).ok());
            }
        }
        fn begin_variation(&mut self) -> pgn_parse::Skip {
            pgn_parse::Skip(true)
        }
        fn san(&mut self, san: &'a [u8], _: usize) {
            self.counts.moves += 1;
            if let Some(pos) = self.pos.as_mut() {
                match pos.parse_san(san) {
                    Ok(m) => pos.play_unchecked(m),
                    Err(_) => {
                        self.ok = false;
                        self.pos = None;
                    }
                }
            }
        }
        fn end_game(&mut self, _: pgn_parse::GameEnd) {
            self.counts.games += 1;
            if self.ok {
                self.counts.valid += 1;
            } else {
                self.counts.invalid += 1;
            }
        }
    }
    let mut reader = pgn_parse::Reader::new(bytes);
    let mut v = V {
        counts: Counts::default(),
        pos: None,
        ok: true,
    };
    while reader.read_game(&mut v).is_some() {}
    v.counts
}

/// Reads only the tags of every game with pgn-parse (movetext skipped); returns games and
/// tags seen.
pub fn our_tag_scan(bytes: &[u8]) -> Counts {
    struct V(Counts);
    impl<'a> pgn_parse::Visitor<'a> for V {
        type Output = ();
        fn tag(&mut self, _: pgn_parse::Tag<'a>) {
            self.0.moves += 1;
        }
        fn end_tags(&mut self) -> pgn_parse::Skip {
            pgn_parse::Skip(true)
        }
        fn end_game(&mut self, _: pgn_parse::GameEnd) {
            self.0.games += 1;
        }
    }
    let mut reader = pgn_parse::Reader::new(bytes);
    let mut v = V(Counts::default());
    while reader.read_game(&mut v).is_some() {}
    v.0
}

/// Reads only the tags of every game with pgn-reader (the movetext skipped by breaking out
/// of the game); returns games and tags seen (tags counted in `moves`).
pub fn peer_tag_scan(bytes: &[u8]) -> Counts {
    struct V(Counts);
    impl Visitor for V {
        type Tags = ();
        type Movetext = ();
        type Output = ();
        fn begin_tags(&mut self) -> ControlFlow<(), ()> {
            ControlFlow::Continue(())
        }
        fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<()> {
            self.0.moves += 1;
            ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
            self.0.games += 1;
            ControlFlow::Break(())
        }
        fn end_game(&mut self, _: ()) {}
    }
    let mut reader = Reader::new(bytes);
    let mut v = V(Counts::default());
    while let Ok(Some(())) = reader.read_game(&mut v) {}
    v.0
}

/// A comment-heavy PGN: `games` games of 200 plies, each move followed by a comment of
/// about 60 bytes, for the comment-skipping benchmark.
pub fn comment_heavy(games: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for g in 0..games {
        out.extend_from_slice(format!("[Event \"comments {g}\"]\n[Result \"*\"]\n\n").as_bytes());
        for ply in 0..200 {
            if ply % 2 == 0 {
                out.extend_from_slice(format!("{}. ", ply / 2 + 1).as_bytes());
            }
            out.extend_from_slice(moves[ply % 4].as_bytes());
            out.extend_from_slice(b" { [%eval 0.17] [%clk 0:03:00] a remark about this move } ");
        }
        out.extend_from_slice(b"*\n\n");
    }
    out
}
