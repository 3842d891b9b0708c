//! Finding the start positions a game's moves fit, when the start is not known: the 960
//! Chess960 starts are replayed side by side, ply by ply, and a start is dropped at the first
//! move that is not legal (or not unambiguous) in it. Most starts die within a few plies.

use crate::{Position, San, SP_COUNT};
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
}
