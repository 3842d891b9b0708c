//! `stats --pairs`: engine-match game pairs (one start position played twice with colours
//! reversed) found in file order, counted as pentanomials per start position and in total.
//!
//! The pairing rule: a counted game pairs with the earliest unpaired game among the
//! [`WINDOW`] games counted before it that has the same start position (the same SP, or the
//! same Double Chess960 pair) and the same two players with colours swapped. A game that
//! finds no partner within the window is unpaired. cutechess and fastchess write a pair's
//! games one after the other, or, when several games run at once, a few games apart; the
//! Round tag is not used (cutechess numbers games, fastchess pairs, differently).
//!
//! Player A (whose view the pentanomial takes) is the White of the first game of the first
//! pair found, B its opponent; pairs between other players are counted apart.

use super::pentanomial::{EloEstimate, PairOutcome, Pentanomial};
use super::table::Winner;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// How many counted games back a game looks for its partner.
pub const WINDOW: u64 = 1024;

/// A start position: an SP, or (white SP, black SP) for Double Chess960.
pub type StartKey = (u16, Option<u16>);

/// What pairing needs of one counted game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairGame {
    /// Its start position.
    pub start: StartKey,
    /// The White tag.
    pub white: String,
    /// The Black tag.
    pub black: String,
    /// The result.
    pub winner: Winner,
}

/// The pairs found so far.
#[derive(Debug, Default)]
pub struct Pairer {
    seen: u64,
    pending: VecDeque<(u64, PairGame)>,
    /// Player A and player B, once a pair was found.
    pub players: Option<(String, String)>,
    /// A's pentanomial per start position.
    pub by_start: BTreeMap<StartKey, Pentanomial>,
    /// Games that found no partner.
    pub unpaired_games: u64,
    /// Pairs between players other than A and B (not in the pentanomials).
    pub other_pairs: u64,
}

/// A's result in a game with these players.
fn outcome_for(player: &str, game: &PairGame) -> PairOutcome {
    let white = game.white == player;
    match (game.winner, white) {
        (Winner::Draw, _) => PairOutcome::Draw,
        (Winner::White, true) | (Winner::Black, false) => PairOutcome::Win,
        _ => PairOutcome::Loss,
    }
}

impl Pairer {
    /// Takes the next counted game, in file order.
    pub fn push(&mut self, game: PairGame) {
        while let Some((at, _)) = self.pending.front() {
            if at + WINDOW >= self.seen {
                break;
            }
            self.pending.pop_front();
            self.unpaired_games += 1;
        }
        let partner = self.pending.iter().position(|(_, p)| {
            p.start == game.start && p.white == game.black && p.black == game.white
        });
        match partner.and_then(|i| self.pending.remove(i)) {
            Some((_, first)) => self.pair(first, game),
            None => self.pending.push_back((self.seen, game)),
        }
        self.seen += 1;
    }

    fn pair(&mut self, first: PairGame, second: PairGame) {
        let (a, b) = self
            .players
            .get_or_insert_with(|| (first.white.clone(), first.black.clone()));
        let same =
            (first.white == *a && first.black == *b) || (first.white == *b && first.black == *a);
        if !same {
            self.other_pairs += 1;
            return;
        }
        let a = a.clone();
        self.by_start
            .entry(first.start)
            .or_default()
            .add(outcome_for(&a, &first), outcome_for(&a, &second));
    }

    /// Ends the input: the games still waiting are unpaired.
    pub fn finish(&mut self) {
        self.unpaired_games += self.pending.len() as u64;
        self.pending.clear();
    }

    /// The pentanomial over all start positions.
    pub fn total(&self) -> Pentanomial {
        let mut total = Pentanomial::default();
        for p in self.by_start.values() {
            for (t, c) in total.counts.iter_mut().zip(p.counts) {
                *t = t.saturating_add(c);
            }
        }
        total
    }

    /// The rows of the `--pairs` table: one per start position with pairs, then the total.
    pub fn rows(&self) -> Vec<PairRow> {
        let mut rows: Vec<PairRow> = self
            .by_start
            .iter()
            .map(|(&(sp, black), p)| PairRow::new(sp.to_string(), black, p))
            .collect();
        rows.push(PairRow::new("total".into(), None, &self.total()));
        rows
    }
}

/// One row of the `--pairs` table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairRow {
    /// The SP (white's, for Double Chess960), or `total`.
    pub sp: String,
    /// Black's SP for Double Chess960 pairs.
    pub black_sp: Option<u16>,
    /// Game pairs.
    pub pairs: u64,
    /// Pairs A lost both games of.
    pub ll: u64,
    /// A lost one and drew one.
    pub ld: u64,
    /// Two draws, or a win and a loss.
    pub dd_wl: u64,
    /// A won one and drew one.
    pub wd: u64,
    /// A won both.
    pub ww: u64,
    /// A's score per game.
    pub score: Option<f64>,
    /// Elo of A over B from the score.
    pub elo: Option<f64>,
    /// Lower end of the 95% Elo interval from the pentanomial.
    pub elo_lo: Option<f64>,
    /// Upper end.
    pub elo_hi: Option<f64>,
}

/// Two decimals, and no negative zero.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0 + 0.0
}

impl PairRow {
    fn new(sp: String, black_sp: Option<u16>, p: &Pentanomial) -> PairRow {
        let e: Option<EloEstimate> = p.elo_estimate(0.95);
        let [ll, ld, dd_wl, wd, ww] = p.counts;
        PairRow {
            sp,
            black_sp,
            pairs: p.pairs(),
            ll,
            ld,
            dd_wl,
            wd,
            ww,
            score: e.map(|e| (e.score * 1e6).round() / 1e6),
            elo: e.map(|e| round2(e.elo)),
            elo_lo: e.map(|e| round2(e.elo_lo)),
            elo_hi: e.map(|e| round2(e.elo_hi)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(sp: u16, white: &str, black: &str, winner: Winner) -> PairGame {
        PairGame {
            start: (sp, None),
            white: white.into(),
            black: black.into(),
            winner,
        }
    }

    #[test]
    fn pairs_out_of_order_and_unpaired() {
        let mut p = Pairer::default();
        p.push(game(1, "A", "B", Winner::White)); // A wins
        p.push(game(2, "A", "B", Winner::Draw));
        p.push(game(1, "B", "A", Winner::Draw)); // pairs with the first: WD
        p.push(game(3, "B", "A", Winner::White)); // no partner
        p.push(game(2, "B", "A", Winner::White)); // pairs: D + L = LD
        p.finish();
        assert_eq!(p.players, Some(("A".into(), "B".into())));
        assert_eq!(p.by_start[&(1, None)].counts, [0, 0, 0, 1, 0]);
        assert_eq!(p.by_start[&(2, None)].counts, [0, 1, 0, 0, 0]);
        assert_eq!(p.unpaired_games, 1);
        assert_eq!(p.total().counts, [0, 1, 0, 1, 0]);
    }
}
