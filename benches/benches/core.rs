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

/// (position, SAN) pairs from the main lines of the corpus's first games.
fn san_pairs() -> Vec<(Position, Chess, Vec<u8>)> {
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

fn main() {
    let mut c = Criterion::default().sample_size(10).configure_from_args();
    let ours_start = Position::from_sp(518).expect("SP 518");
    let ours_mid = Position::from_fen(MIDGAME).expect("valid FEN");
    let theirs_start = Chess::default();
    let theirs_mid = theirs(MIDGAME);
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
        b.iter(|| shakmaty::perft(&theirs_mid, black_box(4)))
    });
    group.finish();

    let pairs = san_pairs();
    let mut group = c.benchmark_group(format!("san resolution ({} moves)", pairs.len()));
    group.bench_function("chess960-core", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|(p, _, s)| p.parse_san(s).is_ok())
                .count()
        })
    });
    group.bench_function("shakmaty", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|(_, p, s)| {
                    San::from_ascii(s)
                        .ok()
                        .and_then(|san| san.to_move(p).ok())
                        .is_some()
                })
                .count()
        })
    });
    group.finish();

    // Make-move alone: every (position, move) pair resolved beforehand, then played on a
    // copy of the position (copy-make, both sides). Each row reads its own vector of
    // (position, move) records, so the three rows read the same layout.
    let resolved: Vec<(Position, chess960_core::Move, Chess, shakmaty::Move)> = pairs
        .iter()
        .filter_map(|(ours, theirs, s)| {
            let m = ours.parse_san(s).ok()?;
            let t = San::from_ascii(s).ok()?.to_move(theirs).ok()?;
            Some((ours.clone(), m, theirs.clone(), t))
        })
        .collect();
    let unkeyed: Vec<(Position, chess960_core::Move)> = resolved
        .iter()
        .map(|(p, m, _, _)| (p.clone().without_key(), *m))
        .collect();
    let keyed: Vec<(Position, chess960_core::Move)> = resolved
        .iter()
        .map(|(p, m, _, _)| (p.clone().with_key(), *m))
        .collect();
    let theirs: Vec<(Chess, shakmaty::Move)> = resolved
        .iter()
        .map(|(_, _, p, m)| (p.clone(), *m))
        .collect();
    let moves = resolved.len();
    drop(resolved);
    let play_ours = || {
        unkeyed
            .iter()
            .map(|(p, m)| {
                let mut p = p.clone();
                p.play_unchecked(*m);
                p.board().occupied().0
            })
            .fold(0u64, |a, z| a ^ z)
    };
    let play_ours_keyed = || {
        keyed
            .iter()
            .map(|(p, m)| {
                let mut p = p.clone();
                p.play_unchecked(*m);
                p.zobrist()
            })
            .fold(0u64, |a, z| a ^ z)
    };
    let play_theirs = || {
        theirs
            .iter()
            .map(|(p, m)| {
                let mut p = p.clone();
                p.play_unchecked(*m);
                p.board().occupied().0
            })
            .fold(0u64, |a, z| a ^ z)
    };
    let mut group = c.benchmark_group(format!("make-move ({moves} moves)"));
    group.bench_function("chess960-core", |b| b.iter(|| black_box(play_ours())));
    group.bench_function("chess960-core keyed", |b| {
        b.iter(|| black_box(play_ours_keyed()))
    });
    group.bench_function("shakmaty", |b| b.iter(|| black_box(play_theirs())));
    group.finish();
    c.final_summary();

    let n = moves as f64;
    let o = best_seconds(5, || {
        black_box(play_ours());
    });
    let p = best_seconds(5, || {
        black_box(play_theirs());
    });
    print_ratio(
        "make-move (copy + play)",
        "Mmoves/s",
        n / o / 1e6,
        n / p / 1e6,
    );
    let k = best_seconds(5, || {
        black_box(play_ours_keyed());
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
            black_box(shakmaty::perft(&theirs_mid, depth));
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
        black_box(
            pairs
                .iter()
                .filter(|(p, _, s)| p.parse_san(s).is_ok())
                .count(),
        );
    });
    let p = best_seconds(5, || {
        black_box(
            pairs
                .iter()
                .filter(|(_, p, s)| {
                    San::from_ascii(s)
                        .ok()
                        .and_then(|san| san.to_move(p).ok())
                        .is_some()
                })
                .count(),
        );
    });
    print_ratio("SAN resolution", "Mmoves/s", n / o / 1e6, n / p / 1e6);
}
