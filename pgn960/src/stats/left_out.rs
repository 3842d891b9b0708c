//! Why a run counted no game, in one line: the reason most games were left out for, and
//! what to do about it (`stats`, `tree` and `report` print it when nothing was counted).

use std::collections::BTreeMap;

/// What a run read and left out, by the names its summary uses.
#[derive(Debug, Clone, Copy)]
pub struct LeftOut<'a> {
    /// Games read.
    pub games_read: u64,
    /// Games not counted, by reason (`invalid`, `classical`, `filtered-min-elo`, ...).
    pub excluded: &'a BTreeMap<&'a str, u64>,
    /// The invalid games among them, by rejection reason (`no-moves`, `illegal-move`, ...).
    pub invalid: &'a BTreeMap<&'a str, u64>,
    /// What the command offers for games of tags only (`no-moves`): [`TRY_HEADERS_ONLY`]
    /// where a `--headers-only` run would count them, [`TREE_NEEDS_MOVES`] for a tree,
    /// [`NO_RESULT_IN_TAGS`] for a `--headers-only` run.
    pub no_moves_hint: &'a str,
}

/// The hint of [`LeftOut::no_moves_hint`] for `stats` and `report` read move by move.
pub const TRY_HEADERS_ONLY: &str =
    "try --headers-only, which counts a game from its FEN and Result tags";

/// The hint of [`LeftOut::no_moves_hint`] for `tree`.
pub const TREE_NEEDS_MOVES: &str =
    "a tree is made of moves; `pgn960 stats --headers-only` counts such games from their tags";

/// The hint of [`LeftOut::no_moves_hint`] for a `--headers-only` run, which counts a game
/// of tags only unless its tags give no result.
pub const NO_RESULT_IN_TAGS: &str = "their Result tags give no result to count either";

/// The line saying why nothing was counted, e.g. "nothing was counted: of 4444 games read,
/// 4444 have no moves (tags only): try --headers-only, which counts a game from its FEN and
/// Result tags". Names the reason most games were left out for (for invalid games, the
/// rejection most of them had), ties going to the first name in order.
pub fn why_nothing_counted<'a>(left: &LeftOut<'a>) -> String {
    let most = |map: &BTreeMap<&'a str, u64>| {
        map.iter()
            .filter(|(_, &n)| n > 0)
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(&why, &n)| (why, n))
    };
    let Some((why, n)) = most(left.excluded) else {
        return "nothing was counted: no game was read".to_string();
    };
    let of = format!("of {} games read, {n}", left.games_read);
    let because = match (why, most(left.invalid)) {
        ("invalid", Some(("no-moves", m))) if m == n => {
            format!("have no moves (tags only): {}", left.no_moves_hint)
        }
        ("invalid", Some(("no-moves", m))) => format!(
            "are invalid, {m} of them with no moves (tags only): {}",
            left.no_moves_hint
        ),
        ("invalid", Some((reason, m))) => format!(
            "are invalid, {m} of them as {reason} (`pgn960 check` lists each with its line)"
        ),
        ("classical", _) => {
            "are classical games (--include-classical counts them as SP 518)".to_string()
        }
        ("unsupported-variant", _) => "are of another variant".to_string(),
        ("unfinished", _) => "have no result (`*`)".to_string(),
        ("mid-game-fen", _) => "start from a FEN that is not a start position".to_string(),
        ("double-chess960", _) => {
            "are Double Chess960 (a tree is per SP; `pgn960 stats --dfrc-table` counts them)"
                .to_string()
        }
        (other, _) => format!("were left out as {other}"),
    };
    format!("nothing was counted: {of} {because}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(excluded: &[(&'static str, u64)], invalid: &[(&'static str, u64)]) -> String {
        let excluded: BTreeMap<_, _> = excluded.iter().copied().collect();
        let invalid: BTreeMap<_, _> = invalid.iter().copied().collect();
        why_nothing_counted(&LeftOut {
            games_read: excluded.values().sum(),
            excluded: &excluded,
            invalid: &invalid,
            no_moves_hint: TRY_HEADERS_ONLY,
        })
    }

    #[test]
    fn names_the_main_reason_and_what_to_do() {
        let tags_only = line(&[("invalid", 4444)], &[("no-moves", 4444)]);
        assert_eq!(
            tags_only,
            format!(
                "nothing was counted: of 4444 games read, 4444 have no moves (tags only): {TRY_HEADERS_ONLY}"
            )
        );
        let mixed = line(&[("invalid", 5)], &[("illegal-move", 2), ("no-moves", 3)]);
        assert!(
            mixed.contains("5 are invalid, 3 of them with no moves"),
            "{mixed}"
        );
        let illegal = line(&[("classical", 1), ("invalid", 3)], &[("illegal-move", 3)]);
        assert!(
            illegal.contains("3 are invalid, 3 of them as illegal-move"),
            "{illegal}"
        );
        let classical = line(&[("classical", 3), ("invalid", 1)], &[("no-moves", 1)]);
        assert!(
            classical.contains("3 are classical games (--include-classical"),
            "{classical}"
        );
        let filtered = line(&[("filtered-min-elo", 2)], &[]);
        assert!(
            filtered.ends_with("2 were left out as filtered-min-elo"),
            "{filtered}"
        );
        assert_eq!(line(&[], &[]), "nothing was counted: no game was read");
        // A tie goes to the first name.
        let tie = line(&[("classical", 2), ("unfinished", 2)], &[]);
        assert!(tie.contains("classical"), "{tie}");
    }
}
