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
//! Each pairing of two players is a match of its own, with its own pentanomials (a league
//! or gauntlet file gives one match per pairing). Whose view a match takes: with
//! [`Pairer::engine`], that engine's (pairs without it are counted apart); else the White
//! of the first game of the match's first pair.

use super::pentanomial::{EloEstimate, PairOutcome, Pentanomial};
use super::table::Winner;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, VecDeque};

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

/// The pairs of one pairing of two players, from player A's view.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairMatch {
    /// Player A, whose points the pentanomials count.
    pub player_a: String,
    /// Player B.
    pub player_b: String,
    /// A's pentanomial per start position.
    pub by_start: BTreeMap<StartKey, Pentanomial>,
}

impl PairMatch {
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
}

/// The pairs found so far.
#[derive(Debug, Default)]
pub struct Pairer {
    seen: u64,
    pending: VecDeque<(u64, PairGame)>,
    /// The view every match takes (`--engine`): pairs without this player are counted in
    /// [`Pairer::other_pairs`]. `None`: each match takes its first pair's White's view.
    pub engine: Option<String>,
    /// The matches, in the order of their first pair.
    pub matches: Vec<PairMatch>,
    /// The match of each pairing (the two names in byte order).
    index: HashMap<(String, String), usize>,
    /// Games that found no partner.
    pub unpaired_games: u64,
    /// With [`Pairer::engine`], pairs between other players (in no pentanomial).
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
    /// No pairs yet; every match from `engine`'s view when given.
    pub fn new(engine: Option<String>) -> Pairer {
        Pairer {
            engine,
            ..Pairer::default()
        }
    }

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
        let (a, b) = match &self.engine {
            Some(e) if *e == first.white => (first.white.clone(), first.black.clone()),
            Some(e) if *e == first.black => (first.black.clone(), first.white.clone()),
            Some(_) => {
                self.other_pairs += 1;
                return;
            }
            None => (first.white.clone(), first.black.clone()),
        };
        let key = if a <= b {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        };
        let at = *self.index.entry(key).or_insert_with(|| {
            self.matches.push(PairMatch {
                player_a: a,
                player_b: b,
                by_start: BTreeMap::new(),
            });
            self.matches.len() - 1
        });
        let Some(m) = self.matches.get_mut(at) else {
            return;
        };
        let a = m.player_a.clone();
        m.by_start
            .entry(first.start)
            .or_default()
            .add(outcome_for(&a, &first), outcome_for(&a, &second));
    }

    /// Ends the input: the games still waiting are unpaired.
    pub fn finish(&mut self) {
        self.unpaired_games += self.pending.len() as u64;
        self.pending.clear();
    }

    /// Pairs in all matches (saturating).
    pub fn pairs(&self) -> u64 {
        self.matches
            .iter()
            .fold(0u64, |n, m| n.saturating_add(m.total().pairs()))
    }

    /// The rows of the `--pairs` table: per match, in order, one row per start position
    /// with pairs and then the match's total; without a match, one empty total row.
    pub fn rows(&self) -> Vec<PairRow> {
        let mut rows = Vec::new();
        for m in &self.matches {
            let row = |sp: String, black: Option<u16>, p: &Pentanomial| {
                PairRow::new(&m.player_a, &m.player_b, sp, black, p)
            };
            rows.extend(
                m.by_start
                    .iter()
                    .map(|(&(sp, black), p)| row(sp.to_string(), black, p)),
            );
            rows.push(row("total".into(), None, &m.total()));
        }
        if rows.is_empty() {
            rows.push(PairRow::new(
                "",
                "",
                "total".into(),
                None,
                &Pentanomial::default(),
            ));
        }
        rows
    }
}

/// One row of the `--pairs` table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairRow {
    /// Player A of the row's match, whose view the row takes.
    pub player_a: String,
    /// Player B.
    pub player_b: String,
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
    fn new(a: &str, b: &str, sp: String, black_sp: Option<u16>, p: &Pentanomial) -> PairRow {
        let e: Option<EloEstimate> = p.elo_estimate(0.95);
        let [ll, ld, dd_wl, wd, ww] = p.counts;
        PairRow {
            player_a: a.to_string(),
            player_b: b.to_string(),
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
        assert_eq!(p.matches.len(), 1);
        let m = &p.matches[0];
        assert_eq!((m.player_a.as_str(), m.player_b.as_str()), ("A", "B"));
        assert_eq!(m.by_start[&(1, None)].counts, [0, 0, 0, 1, 0]);
        assert_eq!(m.by_start[&(2, None)].counts, [0, 1, 0, 0, 0]);
        assert_eq!(p.unpaired_games, 1);
        assert_eq!(m.total().counts, [0, 1, 0, 1, 0]);
    }

    /// A league: three engines, each pairing a match of its own; or one engine's view.
    fn league(p: &mut Pairer) {
        for (sp, w, b, first, second) in [
            (1, "A", "B", Winner::White, Winner::Draw),
            (2, "C", "A", Winner::White, Winner::White),
            (3, "B", "C", Winner::Draw, Winner::Black),
            (4, "B", "A", Winner::Black, Winner::Draw),
        ] {
            p.push(game(sp, w, b, first));
            p.push(game(sp, b, w, second));
        }
        p.finish();
    }

    #[test]
    fn each_pairing_is_a_match_of_its_own() {
        let mut p = Pairer::default();
        league(&mut p);
        assert_eq!((p.pairs(), p.other_pairs, p.unpaired_games), (3 + 1, 0, 0));
        let names: Vec<_> = p
            .matches
            .iter()
            .map(|m| (m.player_a.as_str(), m.player_b.as_str()))
            .collect();
        // A vs B (SPs 1 and 4, A's view: WD and WD), C vs A, B vs C.
        assert_eq!(names, [("A", "B"), ("C", "A"), ("B", "C")]);
        assert_eq!(p.matches[0].total().counts, [0, 0, 0, 2, 0]);
        assert_eq!(p.matches[1].total().counts, [0, 0, 1, 0, 0]);
        assert_eq!(p.matches[2].total().counts, [0, 0, 0, 1, 0]);
        let rows = p.rows();
        let labels: Vec<_> = rows
            .iter()
            .map(|r| format!("{}-{}:{}", r.player_a, r.player_b, r.sp))
            .collect();
        assert_eq!(
            labels,
            [
                "A-B:1",
                "A-B:4",
                "A-B:total",
                "C-A:2",
                "C-A:total",
                "B-C:3",
                "B-C:total"
            ]
        );
    }

    #[test]
    fn an_engine_takes_the_view_of_its_matches() {
        let mut p = Pairer::new(Some("A".into()));
        league(&mut p);
        assert_eq!((p.pairs(), p.other_pairs), (3, 1));
        let names: Vec<_> = p
            .matches
            .iter()
            .map(|m| (m.player_a.as_str(), m.player_b.as_str()))
            .collect();
        assert_eq!(names, [("A", "B"), ("A", "C")]);
        // From A's view, C's win and loss with white: one pair DD + WL.
        assert_eq!(p.matches[1].total().counts, [0, 0, 1, 0, 0]);
        let mut none = Pairer::new(Some("Z".into()));
        league(&mut none);
        assert_eq!((none.pairs(), none.other_pairs), (0, 4));
        assert_eq!(none.rows().len(), 1);
    }
}
