//! Perft, SAN resolution and make-move, chess960-core next to shakmaty in the same run; the
//! ratios are printed at the end.
//!
//! Make-move is measured on positions without Zobrist key ([`Position::without_key`]), as
//! shakmaty's `Chess` keeps none, and once more with the key (what repetition detection pays).

use chess960_core::{CastlingStyle, Position};
use criterion::Criterion;
use pgn960_benches::{best_seconds, corpus, print_ratio};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Position as _};
use std::hint::black_box;

const MIDGAME: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

fn theirs(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Chess960).ok())
        .expect("valid FEN")
}

/// A position (ours and shakmaty's) and the SAN of the move played from it.
type Pair = (Position, Chess, Vec<u8>);

/// (position, SAN) pairs from the main lines of the corpus's first games.
fn san_pairs() -> Vec<Pair> {
    let (_, bytes) = corpus();
    let mut pairs = Vec::new();
    for game in pgn_parse::read_games(&bytes).take(300).flatten() {
        let fen = game.tag(b"FEN").map(|t| t.value_str().into_owned());
        let Ok(mut ours) = fen
            .as_deref()
            .map_or(Position::from_sp(518).map_err(|_| ()), |f| {
                Position::from_fen(f).map_err(|_| ())
            })
        else {
            continue;
        };
        for token in &game.movetext {
            if let pgn_parse::Token::San { text, .. } = token {
                let Ok(m) = ours.parse_san(text) else { break };
                pairs.push((
                    ours.clone(),
                    theirs(&ours.fen(CastlingStyle::Shredder).to_string()),
                    text.to_vec(),
                ));
                ours.play_unchecked(m);
            }
        }
    }
    pairs
}

/// How many SANs chess960-core resolves.
fn ours_san(pairs: &[Pair]) -> usize {
    pairs
        .iter()
        .filter(|(p, _, s)| p.parse_san(s).is_ok())
        .count()
}

/// How many SANs shakmaty resolves.
fn theirs_san(pairs: &[Pair]) -> usize {
    pairs
        .iter()
        .filter(|(_, p, s)| {
            San::from_ascii(s)
                .ok()
                .and_then(|san| san.to_move(p).ok())
                .is_some()
        })
        .count()
}

/// Every (position, move) pair resolved beforehand, for make-move alone: each row reads its
/// own vector of records, so the three rows read the same layout.
struct Playouts {
    unkeyed: Vec<(Position, chess960_core::Move)>,
    keyed: Vec<(Position, chess960_core::Move)>,
    theirs: Vec<(Chess, shakmaty::Move)>,
}

impl Playouts {
    fn new(pairs: &[Pair]) -> Playouts {
        let resolved: Vec<(Position, chess960_core::Move, Chess, shakmaty::Move)> = pairs
            .iter()
            .filter_map(|(ours, theirs, s)| {
                let m = ours.parse_san(s).ok()?;
                let t = San::from_ascii(s).ok()?.to_move(theirs).ok()?;
                Some((ours.clone(), m, theirs.clone(), t))
            })
            .collect();
        Playouts {
            unkeyed: resolved
                .iter()
                .map(|(p, m, _, _)| (p.clone().without_key(), *m))
                .collect(),
            keyed: resolved
                .iter()
                .map(|(p, m, _, _)| (p.clone().with_key(), *m))
                .collect(),
            theirs: resolved
                .iter()
                .map(|(_, _, p, m)| (p.clone(), *m))
                .collect(),
        }
    }

    /// Copy-make on positions without a key; the occupancies folded.
    fn ours(&self) -> u64 {
        self.unkeyed
            .iter()
            .map(|(p, m)| {
                let mut p = p.clone();
                p.play_unchecked(*m);
                p.board().occupied().0
            })
            .fold(0u64, |a, z| a ^ z)
    }

    /// Copy-make with the Zobrist key kept; the keys folded.
    fn ours_keyed(&self) -> u64 {
        self.keyed
            .iter()
            .map(|(p, m)| {
                let mut p = p.clone();
                p.play_unchecked(*m);
                p.zobrist()
            })
            .fold(0u64, |a, z| a ^ z)
    }

    /// shakmaty's copy-make; the occupancies folded.
    fn theirs(&self) -> u64 {
        self.theirs
            .iter()
            .map(|(p, m)| {
                let mut p = p.clone();
                p.play_unchecked(*m);
                p.board().occupied().0
            })
            .fold(0u64, |a, z| a ^ z)
    }
}

fn bench_perft(c: &mut Criterion, ours_mid: &Position, theirs_mid: &Chess) {
    let ours_start = Position::from_sp(518).expect("SP 518");
    let theirs_start = Chess::default();
    let mut group = c.benchmark_group("perft");
    group.bench_function("sp518 d4/chess960-core", |b| {
        b.iter(|| ours_start.perft(black_box(4)))
    });
    group.bench_function("sp518 d4/shakmaty", |b| {
        b.iter(|| shakmaty::perft(&theirs_start, black_box(4)))
    });
    group.bench_function("chess960 midgame d4/chess960-core", |b| {
        b.iter(|| ours_mid.perft(black_box(4)))
    });
    group.bench_function("chess960 midgame d4/shakmaty", |b| {
        b.iter(|| shakmaty::perft(theirs_mid, black_box(4)))
    });
    group.finish();
}

fn bench_san_and_make_move(c: &mut Criterion, pairs: &[Pair], playouts: &Playouts) {
    let mut group = c.benchmark_group(format!("san resolution ({} moves)", pairs.len()));
    group.bench_function("chess960-core", |b| b.iter(|| ours_san(pairs)));
    group.bench_function("shakmaty", |b| b.iter(|| theirs_san(pairs)));
    group.finish();
    let moves = playouts.unkeyed.len();
    let mut group = c.benchmark_group(format!("make-move ({moves} moves)"));
    group.bench_function("chess960-core", |b| b.iter(|| black_box(playouts.ours())));
    group.bench_function("chess960-core keyed", |b| {
        b.iter(|| black_box(playouts.ours_keyed()))
    });
    group.bench_function("shakmaty", |b| b.iter(|| black_box(playouts.theirs())));
    group.finish();
}

/// The ratios, best of a few runs each, printed after criterion's report.
fn print_ratios(pairs: &[Pair], playouts: &Playouts, ours_mid: &Position, theirs_mid: &Chess) {
    let n = playouts.unkeyed.len() as f64;
    let p = best_seconds(5, || {
        black_box(playouts.theirs());
    });
    let o = best_seconds(5, || {
        black_box(playouts.ours());
    });
    print_ratio(
        "make-move (copy + play)",
        "Mmoves/s",
        n / o / 1e6,
        n / p / 1e6,
    );
    let k = best_seconds(5, || {
        black_box(playouts.ours_keyed());
    });
    print_ratio(
        "make-move, Zobrist key kept",
        "Mmoves/s",
        n / k / 1e6,
        n / p / 1e6,
    );
    for (depth, runs) in [(4, 5), (5, 3)] {
        let nodes = ours_mid.perft(depth) as f64;
        let o = best_seconds(runs, || {
            black_box(ours_mid.perft(depth));
        });
        let p = best_seconds(runs, || {
            black_box(shakmaty::perft(theirs_mid, depth));
        });
        print_ratio(
            &format!("perft (chess960 midgame d{depth})"),
            "Mnodes/s",
            nodes / o / 1e6,
            nodes / p / 1e6,
        );
    }
    let n = pairs.len() as f64;
    let o = best_seconds(5, || {
        black_box(ours_san(pairs));
    });
    let p = best_seconds(5, || {
        black_box(theirs_san(pairs));
    });
    print_ratio("SAN resolution", "Mmoves/s", n / o / 1e6, n / p / 1e6);
}

fn main() {
    let mut c = Criterion::default().sample_size(10).configure_from_args();
    let ours_mid = Position::from_fen(MIDGAME).expect("valid FEN");
    let theirs_mid = theirs(MIDGAME);
    bench_perft(&mut c, &ours_mid, &theirs_mid);
    let pairs = san_pairs();
    let playouts = Playouts::new(&pairs);
    bench_san_and_make_move(&mut c, &pairs, &playouts);
    c.final_summary();
    print_ratios(&pairs, &playouts, &ours_mid, &theirs_mid);
}
