//! Make-move (copy + play) by chess960-core or by shakmaty over the same (position, move)
//! pairs, taken from seeded random playouts of Chess960 start positions: a small driver for
//! instruction counts under `valgrind --tool=callgrind`.
//!
//! `cargo build --release -p chess960-core --example makemove`, then
//! `target/release/examples/makemove ours|ours-keyed|shakmaty|san-ours|san-shakmaty|none ROUNDS`
//! (`none` builds the pairs and plays nothing). Count only the loop with
//! `--toggle-collect='makemove::play_*'` (or `'makemove::san_*'`).

use chess960_core::{CastlingNotation, CastlingStyle, Move, Position};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};
use std::hint::black_box;
use std::process::ExitCode;

/// One record per pair, both sides, as the criterion bench reads them.
struct Pair {
    ours: Position,
    ours_move: Move,
    theirs: Chess,
    theirs_move: shakmaty::Move,
    /// The move in SAN (for the SAN resolution modes).
    san: String,
}

/// A xorshift generator: the same playouts on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn shakmaty_of(pos: &Position) -> Option<Chess> {
    let fen = pos.fen(CastlingStyle::Shredder).to_string();
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Chess960)
        .ok()
}

/// Every ply of 200 random games of at most 120 plies.
fn pairs() -> Vec<Pair> {
    let mut rng = Rng(0x0960_5eed_1234_abcd);
    let mut pairs = Vec::new();
    for _ in 0..200 {
        let Ok(mut pos) = Position::from_sp(rng.below(960) as u16) else {
            continue;
        };
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let Some(theirs) = shakmaty_of(&pos) else {
                break;
            };
            let uci = m.to_uci(CastlingNotation::KingTakesRook).to_string();
            let Some(t) = uci
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&theirs).ok())
            else {
                break;
            };
            pairs.push(Pair {
                ours: pos.clone(),
                ours_move: m,
                theirs,
                theirs_move: t,
                san: pos.san(m).to_string(),
            });
            pos.play_unchecked(m);
        }
    }
    pairs
}

/// Copy + play on our side (positions without key), as the criterion bench.
#[inline(never)]
fn play_ours(pairs: &[Pair]) -> u64 {
    pairs
        .iter()
        .map(|p| {
            let mut pos = p.ours.clone();
            pos.play_unchecked(p.ours_move);
            pos.board().occupied().0
        })
        .fold(0, |a, z| a ^ z)
}

/// Copy + play keeping the Zobrist key.
#[inline(never)]
fn play_ours_keyed(pairs: &[Pair]) -> u64 {
    pairs
        .iter()
        .map(|p| {
            let mut pos = p.ours.clone();
            pos.play_unchecked(p.ours_move);
            pos.zobrist()
        })
        .fold(0, |a, z| a ^ z)
}

/// Copy + play by shakmaty.
#[inline(never)]
fn play_shakmaty(pairs: &[Pair]) -> u64 {
    pairs
        .iter()
        .map(|p| {
            let mut pos = p.theirs.clone();
            pos.play_unchecked(p.theirs_move);
            pos.board().occupied().0
        })
        .fold(0, |a, z| a ^ z)
}

/// SAN resolution on our side.
#[inline(never)]
fn san_ours(pairs: &[Pair]) -> u64 {
    pairs
        .iter()
        .filter(|p| p.ours.parse_san(&p.san).is_ok())
        .count() as u64
}

/// SAN resolution by shakmaty.
#[inline(never)]
fn san_shakmaty(pairs: &[Pair]) -> u64 {
    pairs
        .iter()
        .filter(|p| {
            shakmaty::san::San::from_ascii(p.san.as_bytes())
                .ok()
                .and_then(|san| san.to_move(&p.theirs).ok())
                .is_some()
        })
        .count() as u64
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(who), Some(Ok(rounds))) = (args.first(), args.get(1).map(|r| r.parse::<u32>()))
    else {
        eprintln!("usage: makemove ours|ours-keyed|shakmaty|san-ours|san-shakmaty|none ROUNDS");
        return ExitCode::from(2);
    };
    eprintln!(
        "size_of: Position {} bytes, Move {}; shakmaty Chess {}, Move {}",
        std::mem::size_of::<Position>(),
        std::mem::size_of::<Move>(),
        std::mem::size_of::<Chess>(),
        std::mem::size_of::<shakmaty::Move>()
    );
    let mut pairs = pairs();
    if who == "ours" {
        for p in &mut pairs {
            p.ours = p.ours.clone().without_key();
        }
    }
    let play: fn(&[Pair]) -> u64 = match who.as_str() {
        "ours" => play_ours,
        "ours-keyed" => play_ours_keyed,
        "shakmaty" => play_shakmaty,
        "san-ours" => san_ours,
        "san-shakmaty" => san_shakmaty,
        "none" => |_| 0,
        _ => {
            eprintln!("usage: makemove ours|ours-keyed|shakmaty|san-ours|san-shakmaty|none ROUNDS");
            return ExitCode::from(2);
        }
    };
    let t = std::time::Instant::now();
    let mut acc = 0u64;
    for _ in 0..rounds {
        acc = acc.wrapping_add(play(black_box(&pairs)));
    }
    let secs = t.elapsed().as_secs_f64();
    let n = pairs.len() as f64 * f64::from(rounds);
    println!(
        "{who}: {} pairs x {rounds} rounds in {secs:.3} s ({:.1} Mmoves/s) [{acc:x}]",
        pairs.len(),
        n / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
