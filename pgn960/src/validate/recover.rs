//! Recovering a start position the file does not give: for a game marked Chess960 whose
//! start is unknown (`[FEN "?"]`, no FEN tag), whose FEN is not a start position and whose
//! moves do not replay from it, or a game without a FEN whose castling is impossible in
//! classical chess, the start positions among the 960 under which the whole main line
//! replays legally ([`chess960_core::starts_fitting`]). One: the game is replayed from it
//! ([`Repair::StartRecovered`]); several: `start-ambiguous`, unless `--assume-sp` names one
//! of them ([`Repair::StartAssumed`]); none: the verdict stands. Nothing here runs for a
//! game whose start is known.

use super::reason::{RejectReason, Repair};
use super::start::{marked_chess960, resolve_start, start_from_tags, RuleTags, StartOutcome};
use super::{Rejection, ValidateOptions, Verdict};
use chess960_core::{starts_fitting, Position, San, StartKind};
use pgn_parse::{Tag, Token};

/// A start found for a game whose file does not give it, and the repair that says how.
#[derive(Debug, Clone)]
pub struct FoundStart {
    /// The start position.
    pub position: Position,
    /// [`Repair::StartRecovered`] or [`Repair::StartAssumed`].
    pub repair: Repair,
}

/// Candidates named in a `start-ambiguous` message.
const NAMED_CANDIDATES: usize = 8;

/// Whether `text` (a move token and what follows) is a castling move.
pub(super) fn is_castling(text: &[u8]) -> bool {
    [&b"O-O"[..], b"0-0", b"o-o"]
        .iter()
        .any(|c| text.starts_with(c))
}

/// Whether `verdict` is one a start found from the moves could overturn; `castling_at`
/// says whether the move at an offset is a castling move.
pub(super) fn worth_recovering(
    verdict: &Verdict,
    tags: &[Tag<'_>],
    opts: &ValidateOptions,
    castling_at: impl Fn(usize) -> bool,
) -> bool {
    let Verdict::Invalid(rejection) = verdict else {
        return false;
    };
    let rule_tags = RuleTags::from_tags(tags);
    let marked = marked_chess960(&rule_tags, opts.missing_variant);
    match rejection.reason {
        RejectReason::UnknownStartPosition => marked,
        RejectReason::IllegalMove | RejectReason::AmbiguousMove if rule_tags.fens.is_empty() => {
            // Played from the classical start: a castling move it cannot have.
            start_from_tags(&rule_tags).is_none() && castling_at(rejection.offset)
        }
        RejectReason::IllegalMove | RejectReason::AmbiguousMove => {
            marked && fen_is_not_a_start(&rule_tags, opts)
        }
        _ => false,
    }
}

/// Whether the game's FEN names a position that is not a start position.
fn fen_is_not_a_start(tags: &RuleTags<'_>, opts: &ValidateOptions) -> bool {
    match resolve_start(tags, opts.missing_variant, &mut Vec::new()) {
        Ok(StartOutcome::Chess(start)) => start.class.kind == StartKind::NotAStart,
        _ => false,
    }
}

/// The main line's moves, or `None` when one of them is not SAN (a null move, junk): then
/// no start can be found from them.
fn main_line(movetext: &[Token<'_>]) -> Option<Vec<San>> {
    let mut depth = 0usize;
    let mut moves = Vec::new();
    for token in movetext {
        match token {
            Token::BeginVariation => depth += 1,
            Token::EndVariation => depth = depth.saturating_sub(1),
            Token::San { text, .. } if depth == 0 => moves.push(San::from_ascii(text).ok()?),
            Token::NullMove { .. } if depth == 0 => return None,
            _ => {}
        }
    }
    Some(moves)
}

/// Settles `verdict` (one [`worth_recovering`] accepted) from the game's `movetext`:
/// `replay` replays the game from a found start (`None` if it could not read it again, and
/// the verdict then stands); `game_start` is the game's first byte.
pub(super) fn settle(
    verdict: Verdict,
    movetext: &[Token<'_>],
    opts: &ValidateOptions,
    game_start: usize,
    replay: impl FnOnce(FoundStart) -> Option<Verdict>,
) -> Verdict {
    let Some(moves) = main_line(movetext) else {
        return verdict;
    };
    let fitting = starts_fitting(&moves);
    let found = match fitting[..] {
        [] => return none_fit(verdict),
        [sp] => (sp, Repair::StartRecovered { sp }),
        _ => match opts.assume_sp.filter(|sp| fitting.contains(sp)) {
            Some(sp) => (sp, Repair::StartAssumed { sp }),
            None => return ambiguous(&fitting, opts.assume_sp, game_start),
        },
    };
    let Ok(position) = Position::from_sp(found.0) else {
        return verdict;
    };
    let repair = found.1;
    replay(FoundStart { position, repair }).unwrap_or(verdict)
}

/// The verdict when no start position fits: as it was, saying so when the start was unknown.
fn none_fit(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Invalid(mut r) if r.reason == RejectReason::UnknownStartPosition => {
            r.detail
                .push_str("; none of the 960 start positions replays the main line");
            Verdict::Invalid(r)
        }
        other => other,
    }
}

/// The `start-ambiguous` rejection: how many starts fit, the first of them, and whether
/// `--assume-sp` was one.
fn ambiguous(fitting: &[u16], assumed: Option<u16>, game_start: usize) -> Verdict {
    let named: Vec<String> = fitting
        .iter()
        .take(NAMED_CANDIDATES)
        .map(u16::to_string)
        .collect();
    let more = if fitting.len() > NAMED_CANDIDATES {
        ", …"
    } else {
        ""
    };
    let assumed = match assumed {
        Some(sp) => format!("; --assume-sp {sp} is not one of them"),
        None => "; --assume-sp N picks one".to_string(),
    };
    let detail = format!(
        "the start is not in the file and {} start positions replay the whole main line: SP {}{more}{assumed}",
        fitting.len(),
        named.join(", ")
    );
    Verdict::Invalid(Rejection::new(
        RejectReason::StartAmbiguous,
        detail,
        game_start,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate_chunk;
    use chess960_core::StartKind;
    use pgn_parse::Origin;

    /// The verdict of each game of `fixtures/check/start-recovery.pgn` against what its Event
    /// tag says (written by `make_start_recovery.py` with python-chess counting the starts).
    fn check_fixture(opts: ValidateOptions) -> usize {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/check/start-recovery.pgn"
        );
        let bytes = std::fs::read(path).unwrap();
        let mut games = 0;
        validate_chunk(&bytes, Origin::default(), &opts, false, |judged| {
            games += 1;
            let event = judged.tags.iter().find(|t| t.name == b"Event").unwrap();
            let event = event.value_str().to_string();
            let words: Vec<&str> = event.split([' ', ':']).collect();
            let number = |i: usize| words[i].parse::<u16>().unwrap();
            match (words[0], &judged.verdict) {
                ("recovered" | "from-tag", Verdict::Valid(game)) => {
                    let sp = number(2);
                    assert_eq!(game.class.kind, StartKind::Chess960(sp), "{event}");
                    let repair = match words[0] {
                        "recovered" => Repair::StartRecovered { sp },
                        _ => game.repairs[0].clone(),
                    };
                    assert!(
                        game.repairs.contains(&repair),
                        "{event}: {:?}",
                        game.repairs
                    );
                    assert!(
                        matches!(
                            game.repairs[0],
                            Repair::StartRecovered { .. } | Repair::StartFromTag { .. }
                        ),
                        "{event}"
                    );
                }
                ("ambiguous", Verdict::Invalid(r)) => {
                    assert_eq!(r.reason, RejectReason::StartAmbiguous, "{event}");
                    let count = format!("and {} start positions", number(1));
                    assert!(r.detail.contains(&count), "{event}: {}", r.detail);
                }
                ("unknown", Verdict::Invalid(r)) => {
                    assert_eq!(r.reason, RejectReason::UnknownStartPosition, "{event}")
                }
                (_, verdict) => panic!("{event}: {verdict:?}"),
            }
        });
        games
    }

    #[test]
    fn starts_not_in_the_file_are_recovered_read_from_tags_or_named_ambiguous() {
        for canonical_san in [false, true] {
            let opts = ValidateOptions {
                canonical_san,
                ..ValidateOptions::default()
            };
            assert_eq!(check_fixture(opts), 11);
        }
    }

    #[test]
    fn assume_sp_settles_an_ambiguous_start_only_when_it_fits() {
        let bytes = b"[Variant \"Chess960\"]\n[FEN \"?\"]\n\n1. Nb3 Nb6 *\n";
        for (assumed, expected) in [
            (Some(1), Ok(1)),
            (Some(0), Err("not one of them")),
            (None, Err("picks one")),
        ] {
            let opts = ValidateOptions {
                assume_sp: assumed,
                ..ValidateOptions::default()
            };
            validate_chunk(bytes, Origin::default(), &opts, false, |judged| {
                match (&judged.verdict, expected) {
                    (Verdict::Valid(game), Ok(sp)) => {
                        assert_eq!(game.repairs, vec![Repair::StartAssumed { sp }]);
                        assert_eq!(game.class.kind, StartKind::Chess960(sp));
                    }
                    (Verdict::Invalid(r), Err(why)) => {
                        assert_eq!(r.reason, RejectReason::StartAmbiguous);
                        assert!(r.detail.contains(why), "{}", r.detail);
                    }
                    (verdict, _) => panic!("{assumed:?}: {verdict:?}"),
                }
            });
        }
    }
}
