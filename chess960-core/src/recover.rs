//! Finding the start positions a game's moves fit, when the start is not known: the 960
//! Chess960 starts are replayed side by side, ply by ply, and a start is dropped at the first
//! move that is not legal (or not unambiguous) in it. Most starts die within a few plies.
//!
//! The 921,600 Double Chess960 starts ([`pairs_fitting`]) are searched side by side too,
//! each side's 960 arrangements alone while the moves cannot tell the other side's back
//! rank (see [`blind_to_other_rank`] for how far that holds), then the pairs of the
//! survivors one by one.

use crate::attacks::{king_attacks, knight_attacks, queen_attacks};
use crate::{Bitboard, Color, File, Piece, Position, Role, San, Square, SP_COUNT};
use std::sync::OnceLock;

/// The 960 start positions, in SP order, built once.
fn start_positions() -> &'static [Position] {
    static STARTS: OnceLock<Vec<Position>> = OnceLock::new();
    STARTS.get_or_init(|| {
        (0..SP_COUNT)
            .filter_map(|sp| Position::from_sp(sp).ok())
            .collect()
    })
}

/// The start positions (SP numbers, ascending) from which every move of `moves` is legal
/// and unambiguous, played in order from the start (white first).
///
/// ```
/// use chess960_core::{starts_fitting, San};
///
/// // 1. Nb3: only the starts with a knight on a1 or c1.
/// let moves = [San::from_ascii(b"Nb3").unwrap()];
/// let fitting = starts_fitting(&moves);
/// assert!(fitting.len() > 1 && fitting.len() < 960);
/// assert!(!fitting.contains(&518));
/// ```
pub fn starts_fitting(moves: &[San]) -> Vec<u16> {
    let mut live: Vec<(u16, Position)> = Vec::new();
    let starts = start_positions();
    let Some((first, rest)) = moves.split_first() else {
        return (0..SP_COUNT).collect();
    };
    // The first ply straight from the shared table: only the starts it fits are cloned.
    for (sp, start) in (0..SP_COUNT).zip(starts) {
        if let Ok(m) = first.to_move(start) {
            live.push((sp, start.played_unchecked(m)));
        }
    }
    for san in rest {
        if live.is_empty() {
            break;
        }
        live.retain_mut(|(_, position)| match san.to_move(position) {
            Ok(m) => {
                position.play_unchecked(m);
                true
            }
            Err(_) => false,
        });
    }
    live.into_iter().map(|(sp, _)| sp).collect()
}

/// A Double Chess960 start: white's SP and black's SP (the number of black's arrangement,
/// as [`crate::StartKind::DoubleChess960`] gives it). `(n, n)` is the Chess960 start `n`.
pub type SpPair = (u16, u16);

/// Each side's candidate arrangements while the moves cannot tell the other side's, each
/// with the position reached under it and the other side's anchor.
struct Sides {
    /// Per colour (white first): the arrangements still fitting, each with the position
    /// after the plies so far from the start (it, the other colour's anchor).
    live: [Vec<(u16, Position)>; 2],
    /// Per colour: the arrangement the other colour's positions are played under.
    anchor: [u16; 2],
}

/// The Double Chess960 starts (pairs, ascending) from which every move of `moves` is legal
/// and unambiguous, played in order from the start (white first). The Chess960 starts are
/// among them as `(n, n)`.
///
/// Each side's 960 arrangements are first filtered alone, as long as every ply is
/// [`blind_to_other_rank`] (the first two always are: ply 1 depends on White's back rank
/// only, ply 2 on Black's), then every pair of the survivors is replayed from its start.
///
/// ```
/// use chess960_core::{pairs_fitting, San};
///
/// let line: Vec<San> = ["Nb3", "Ng6"].iter().map(|s| s.parse().unwrap()).collect();
/// let pairs = pairs_fitting(&line);
/// // White has a knight on a1 or c1, Black one on f8 or h8: not the same SPs.
/// assert!(pairs.iter().all(|&(w, b)| w != 518 && b != 518));
/// assert!(pairs.iter().any(|&(w, b)| w != b));
/// ```
pub fn pairs_fitting(moves: &[San]) -> Vec<SpPair> {
    let ([white, black], all_blind) = filter_sides_alone(moves);
    let mut fitting = Vec::new();
    for &w in &white {
        for &b in &black {
            if all_blind || replayed(w, b, moves).is_some() {
                fitting.push((w, b));
            }
        }
    }
    fitting
}

/// Per colour (white first), the 960 starts of its arrangements against the other colour's
/// SP 0, in SP order, built once.
fn anchored_starts() -> &'static [Vec<Position>; 2] {
    static STARTS: OnceLock<[Vec<Position>; 2]> = OnceLock::new();
    STARTS.get_or_init(|| {
        let side = |pair: fn(u16) -> (u16, u16)| -> Vec<Position> {
            (0..SP_COUNT)
                .filter_map(|sp| {
                    let (w, b) = pair(sp);
                    Position::from_sp_pair(w, b).ok()
                })
                .collect()
        };
        [side(|sp| (sp, 0)), side(|sp| (0, sp))]
    })
}

/// Each side's arrangements filtered alone over the longest prefix of `moves` whose plies
/// are all [`blind_to_other_rank`], and whether that prefix is the whole line (then every
/// pair of the survivors fits). Any pair that fits the whole line has both its
/// arrangements among the survivors.
fn filter_sides_alone(moves: &[San]) -> ([Vec<u16>; 2], bool) {
    let starts = |side: Color| -> Vec<(u16, Position)> {
        (0..SP_COUNT)
            .zip(anchored_starts()[side.index()].iter().cloned())
            .collect()
    };
    let mut sides = Sides {
        live: [starts(Color::White), starts(Color::Black)],
        anchor: [0, 0],
    };
    let mut all_blind = true;
    for (ply, san) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let blind = sides.live[mover.index()]
            .iter()
            .all(|(_, position)| blind_to_other_rank(position, san));
        if !blind {
            all_blind = false;
            break;
        }
        if !sides.play(mover, san, &moves[..=ply]) {
            // Never expected (the other side's positions always follow a blind move): every
            // pair is then replayed.
            let every: Vec<u16> = (0..SP_COUNT).collect();
            return ([every.clone(), every], false);
        }
        if sides.live[mover.index()].is_empty() {
            break;
        }
    }
    let ids = sides
        .live
        .map(|side| side.into_iter().map(|(sp, _)| sp).collect());
    (ids, all_blind)
}

impl Sides {
    /// Plays `san` (the last of `line`) for `mover`: its arrangements that it does not fit
    /// are dropped, the other colour's positions follow the move it is under the anchor
    /// (played again under a survivor when the anchor is dropped). False when the other
    /// colour's positions could not follow.
    fn play(&mut self, mover: Color, san: &San, line: &[San]) -> bool {
        let (me, other) = (mover.index(), mover.other().index());
        let mut anchor_move = None;
        let anchor = self.anchor[me];
        self.live[me].retain_mut(|(sp, position)| match san.to_move(position) {
            Ok(m) => {
                if *sp == anchor {
                    anchor_move = Some(m);
                }
                position.play_unchecked(m);
                true
            }
            Err(_) => false,
        });
        if let Some(m) = anchor_move {
            for (_, position) in &mut self.live[other] {
                position.play_unchecked(m);
            }
            return true;
        }
        let Some(&(new_anchor, _)) = self.live[me].first() else {
            return true;
        };
        self.anchor[me] = new_anchor;
        for (sp, position) in &mut self.live[other] {
            let (w, b) = match mover {
                Color::White => (new_anchor, *sp),
                Color::Black => (*sp, new_anchor),
            };
            match replayed(w, b, line) {
                Some(replayed) => *position = replayed,
                None => return false,
            }
        }
        true
    }
}

/// The position after `line` from the start `(white, black)`, if every move is legal and
/// unambiguous there.
fn replayed(white: u16, black: u16, line: &[San]) -> Option<Position> {
    let mut position = Position::from_sp_pair(white, black).ok()?;
    for san in line {
        position.play_unchecked(san.to_move(&position).ok()?);
    }
    Some(position)
}

/// Whether `san`, played by the side to move in `position`, is resolved to the same move
/// (or to none) whatever the other side's back rank, given everything else on the board.
///
/// Under the pairs still alive the other side's pieces off its home rank stand on the same
/// squares (each moved where its SAN says); only what is left on its home rank differs. A
/// move of ours reads that rank only (a) when it or one of our pieces is on it (a capture or
/// a promotion there), or (b) through our king's safety: a piece on that rank attacking the
/// square our king is on or steps to (castling, or a king move along our home rank: any
/// square of that rank) once the move is made. A piece on any square of that rank attacks
/// at most what a queen, a knight and a king there attack, through the squares that stay
/// occupied whichever matching move is made: the other side's pieces off its home rank
/// (less the one the move may capture, en passant included) and ours that cannot be the
/// moving piece. When neither (a) nor (b) can happen, the legal moves matching `san`, and
/// so its resolution, are the same for every back rank of the other side.
pub fn blind_to_other_rank(position: &Position, san: &San) -> bool {
    let us = position.turn();
    let board = position.board();
    let ours = board.by_color(us);
    let their_home = Bitboard::rank(us.other().back_rank());
    if (ours & their_home).any() {
        return false;
    }
    let Some(Reach {
        movers,
        captured,
        king_squares,
    }) = what_the_move_reaches(position, san)
    else {
        return false;
    };
    let theirs_off_home = board.by_color(us.other()) & !their_home & !captured;
    let blockers = theirs_off_home | (ours & !movers);
    let mut attacked = their_home;
    for square in their_home {
        attacked |= queen_attacks(square, blockers) | knight_attacks(square) | king_attacks(square);
    }
    (attacked & king_squares).is_empty()
}

/// What a SAN move may touch, whichever legal move it turns out to be.
struct Reach {
    /// Our pieces that may move (the king and rooks when castling).
    movers: Bitboard,
    /// The squares of a piece it may capture (the target; en passant, the pawn passed).
    captured: Bitboard,
    /// The squares our king must not be attacked on once it is made.
    king_squares: Bitboard,
}

/// The [`Reach`] of `san` played in `position`; `None` for a null move or a move onto the
/// other side's home rank.
fn what_the_move_reaches(position: &Position, san: &San) -> Option<Reach> {
    let us = position.turn();
    let board = position.board();
    let ours = board.by_color(us);
    let our_home = Bitboard::rank(us.back_rank());
    let king = board.by_piece(Piece {
        color: us,
        role: Role::King,
    });
    let rooks = board.by_piece(Piece {
        color: us,
        role: Role::Rook,
    });
    match *san {
        San::Null => None,
        San::Castle(_) => Some(Reach {
            movers: king | rooks,
            captured: Bitboard::EMPTY,
            king_squares: our_home,
        }),
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            ..
        } => {
            if to.rank() == us.other().back_rank() {
                return None;
            }
            let mut from = Bitboard::FULL;
            if let Some(rank) = rank {
                from &= Bitboard::rank(rank);
            }
            let mut captured = Bitboard::from_square(to);
            match (role, file) {
                (Role::Pawn, Some(file)) if file != to.file() => {
                    from &= Bitboard::file(file);
                    captured |= behind(to, us);
                }
                (Role::Pawn, _) if capture => {
                    from &= pawn_files(to.file());
                    captured |= behind(to, us);
                }
                (Role::Pawn, _) => from &= Bitboard::file(to.file()),
                (_, Some(file)) => from &= Bitboard::file(file),
                (_, None) => {}
            }
            let (movers, king_squares) = match role {
                // A king step along our home rank may be castling (`Kxh1`, the king onto a rook).
                Role::King if our_home.contains(to) => (king | rooks, our_home),
                Role::King => (king, Bitboard::from_square(to)),
                _ => (board.by_role(role) & ours & from, king),
            };
            Some(Reach {
                movers,
                captured,
                king_squares,
            })
        }
    }
}

/// The square behind `to` seen from `us` (where a pawn taken en passant on `to` stands).
fn behind(to: Square, us: Color) -> Bitboard {
    to.offset(us.fold(-8, 8))
        .map_or(Bitboard::EMPTY, Bitboard::from_square)
}

/// The files a pawn capturing onto a square of `file` can come from.
fn pawn_files(file: File) -> Bitboard {
    let index = i32::from(file.index());
    [index - 1, index + 1]
        .into_iter()
        .filter_map(|i| File::new(u8::try_from(i).ok()?))
        .fold(Bitboard::EMPTY, |bb, f| bb | Bitboard::file(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans(text: &str) -> Vec<San> {
        text.split_whitespace()
            .map(|w| San::from_ascii(w.as_bytes()).unwrap())
            .collect()
    }

    /// The starts a line fits, one start at a time (no pruning).
    fn fitting_one_by_one(line: &[San]) -> Vec<u16> {
        (0..SP_COUNT)
            .filter(|&sp| {
                let mut pos = Position::from_sp(sp).unwrap();
                line.iter().all(|san| match san.to_move(&pos) {
                    Ok(m) => pos.play(m).is_ok(),
                    Err(_) => false,
                })
            })
            .collect()
    }

    #[test]
    fn a_game_played_from_a_start_fits_that_start_and_the_same_starts_as_one_by_one() {
        let line = sans("e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 d3 O-O Bg5 h6");
        let fitting = starts_fitting(&line);
        assert!(fitting.contains(&518), "{fitting:?}");
        assert!(fitting.len() < 20, "{fitting:?}");
        for n in 0..line.len() {
            assert_eq!(starts_fitting(&line[..n]), fitting_one_by_one(&line[..n]));
        }
    }

    #[test]
    fn no_moves_fit_every_start_and_an_impossible_line_none() {
        assert_eq!(starts_fitting(&[]).len(), 960);
        assert!(starts_fitting(&sans("Ke2 Ke7 Ke1 Ke8 Kd8")).is_empty());
    }

    #[test]
    fn every_start_is_found_by_its_own_moves() {
        // For each SP, its first legal knight or bishop moves narrow the candidates to a set
        // that holds the SP.
        for sp in (0..SP_COUNT).step_by(37) {
            let mut pos = Position::from_sp(sp).unwrap();
            let mut line = Vec::new();
            for _ in 0..6 {
                let moves = pos.legal_moves();
                let Some(&m) = moves.iter().max_by_key(|m| m.to_string()) else {
                    break;
                };
                line.push(pos.san(m));
                pos.play_unchecked(m);
            }
            assert!(starts_fitting(&line).contains(&sp), "SP {sp}: {line:?}");
        }
    }

    /// The pairs a line fits, one pair at a time (no pruning).
    fn pairs_one_by_one(line: &[San]) -> Vec<SpPair> {
        let mut fitting = Vec::new();
        for w in 0..SP_COUNT {
            for b in 0..SP_COUNT {
                if replayed(w, b, line).is_some() {
                    fitting.push((w, b));
                }
            }
        }
        fitting
    }

    /// A line of up to `plies` legal moves from the pair `(w, b)`, chosen by `pick` among
    /// the legal moves (sorted by SAN).
    fn line_from(w: u16, b: u16, plies: usize, mut pick: impl FnMut(usize) -> usize) -> Vec<San> {
        let mut pos = Position::from_sp_pair(w, b).unwrap();
        let mut line = Vec::new();
        for _ in 0..plies {
            let mut moves: Vec<_> = pos.legal_moves().iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            moves.sort_by_key(|m| pos.san(*m).to_string());
            let m = moves[pick(moves.len())];
            line.push(pos.san(m));
            pos.play_unchecked(m);
        }
        line
    }

    #[test]
    fn the_pairs_found_side_by_side_are_the_pairs_found_one_by_one() {
        // Lines where the sides are told apart alone, where a capture or a king's exposure
        // ends that early (a bishop onto the other home rank, an open file, castling), and
        // where no move is blind after the first two.
        let lines = [
            "Nb3 Ng6 Nc5 Nf4",
            "e4 e5 Qh5 Nc6 Bc4 Nf6",
            "b3 g6 Bxh8",
            "d4 d5 c4 dxc4 e4 b5 a4",
            "e4 d5 exd5 Qxd5 Nc3 Qe5 Be2",
            "O-O O-O",
            "f4 e5 fxe5 d6 exd6 Bxd6",
            "g3 b6 Bxb7 Bxb2",
            // Lines whose pairs are lost (or gained) when a king's exposure to the other
            // home rank is not checked (found by random play with that check off).
            "f4 c5 O-O Na6 Kf2 b6 c4 Bc7 Kf3",
            "b4 f5 h3 Kf7 Nh2 Kf6",
            "g4 g6 c3 c5 Kg2 Bd6 Rg1 f5 Kh3 e5 Kh4",
            "Ne3 Ne6 d4 Ng5 Nf5 b5 Nxe7 Kb7 Nf5 Nb6 g3 Kc6",
        ];
        for text in lines {
            let line = sans(text);
            assert_eq!(pairs_fitting(&line), pairs_one_by_one(&line), "{text}");
        }
    }

    #[test]
    fn random_lines_from_random_pairs_fit_the_same_pairs_as_one_by_one() {
        // A small linear congruential generator: the same lines on every run.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) as usize) % n
        };
        for _ in 0..6 {
            let (w, b) = (next(960) as u16, next(960) as u16);
            let plies = 4 + next(6);
            let line = line_from(w, b, plies, &mut next);
            let fitting = pairs_fitting(&line);
            assert!(fitting.contains(&(w, b)), "{w}/{b}: {line:?}");
            assert_eq!(fitting, pairs_one_by_one(&line), "{w}/{b}: {line:?}");
        }
    }

    #[test]
    fn the_first_two_plies_are_always_blind_to_the_other_back_rank() {
        for (w, b) in [(0, 959), (518, 518), (100, 700), (959, 0)] {
            let start = Position::from_sp_pair(w, b).unwrap();
            for m in start.legal_moves() {
                assert!(blind_to_other_rank(&start, &start.san(m)), "{w}/{b} {m:?}");
                let after = start.played_unchecked(m);
                for reply in after.legal_moves() {
                    assert!(
                        blind_to_other_rank(&after, &after.san(reply)),
                        "{w}/{b} {m:?} {reply:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_chess960_game_fits_its_own_pair_and_the_chess960_starts_are_the_diagonal() {
        let line = sans("e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 d3 O-O Bg5 h6");
        let pairs = pairs_fitting(&line);
        let diagonal: Vec<u16> = pairs
            .iter()
            .filter(|(w, b)| w == b)
            .map(|&(w, _)| w)
            .collect();
        assert_eq!(diagonal, starts_fitting(&line));
        assert!(pairs.contains(&(518, 518)));
    }
}
