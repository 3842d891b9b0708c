//! Recovering a start position the file does not give: for a game marked Chess960 whose
//! start is unknown (`[FEN "?"]`, no FEN tag), whose FEN is not a start position and whose
//! moves do not replay from it, or a game without a FEN whose castling is impossible in
//! classical chess, the start positions among the 960 under which the whole main line
//! replays legally ([`chess960_core::starts_fitting`]). One: the game is replayed from it
//! ([`Repair::StartRecovered`]); several: `start-ambiguous`, unless `--assume-sp` names one
//! of them ([`Repair::StartAssumed`]: an SP, or a pair written `W,B`,
//! [`parse_assumed_start`]); none: the verdict stands. Nothing here runs for a game whose
//! start is known.
//!
//! Double Chess960 (each side its own back rank, [`chess960_core::pairs_fitting`]): a game
//! whose `Variant` tag names it, or marked Chess960 in an archive declared Double Chess960
//! (`--variant double-chess960`), is searched among the 921,600 pairs (the 960 Chess960
//! starts among them); another game marked Chess960 only when none of the 960 fits its main
//! line, which says its sides do not have the same back rank (TCEC tags its Double
//! Chess960 games `fischerandom`). A game marked by neither, recovered for its castling alone, is searched
//! among the 960 only. One pair, several or none are answered as one SP is.

use super::reason::{RejectReason, Repair};
use super::start::{
    marked_chess960, marked_double_chess960, resolve_start, start_from_tags, RuleTags, StartOutcome,
};
use super::{Rejection, ValidateOptions, Verdict};
use chess960_core::{pairs_fitting, starts_fitting, Position, San, SpPair, StartKind};
use pgn_parse::{Tag, Token};

/// A start found for a game whose file does not give it, and the repair that says how.
#[derive(Debug, Clone)]
pub struct FoundStart {
    /// The start position.
    pub position: Position,
    /// [`Repair::StartRecovered`] or [`Repair::StartAssumed`].
    pub repair: Repair,
}

/// Which starts a game whose start is not in the file is searched among.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Search {
    /// The 960 start positions (a game not marked Chess960, with a castling move classical
    /// chess cannot have).
    StartPositions,
    /// The 960, then the Double Chess960 pairs when none of them fits (a game marked
    /// Chess960).
    StartPositionsThenPairs,
    /// The 921,600 Double Chess960 pairs (a game whose `Variant` tag names Double Chess960,
    /// or marked Chess960 under `--variant double-chess960`).
    Pairs,
}

/// The starts that fit a main line.
enum Fitting {
    /// Start positions (SP numbers, ascending).
    Sps(Vec<u16>),
    /// Double Chess960 pairs (white SP, black SP), ascending.
    Pairs(Vec<SpPair>),
}

/// Candidates named in a `start-ambiguous` message.
const NAMED_CANDIDATES: usize = 8;

/// Reads a start `--assume-sp` names: an SP (`518`), or a Double Chess960 pair as white's
/// SP and black's, `588,301` (also as a `start-ambiguous` message names it, `(588, 301)`).
/// An SP n is the pair `(n, n)`.
///
/// ```
/// use pgn960::validate::{assumed_start_text, parse_assumed_start};
/// assert_eq!(parse_assumed_start("518"), Ok((518, 518)));
/// assert_eq!(parse_assumed_start("(588, 301)"), Ok((588, 301)));
/// assert_eq!(assumed_start_text((588, 301)), "588,301");
/// assert!(parse_assumed_start("960").is_err());
/// assert!(parse_assumed_start("1,2,3").is_err());
/// ```
pub fn parse_assumed_start(text: &str) -> Result<SpPair, String> {
    let inner = text.trim();
    let inner = match inner.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(bracketed) => bracketed,
        None => inner,
    };
    let sp = |part: &str| {
        part.trim()
            .parse::<u16>()
            .ok()
            .filter(|&sp| sp < 960)
            .ok_or_else(|| {
                format!(
                    "{text:?} is not a start: an SP 0..959 (518), or a Double Chess960 pair \
                     of white's SP and black's (588,301)"
                )
            })
    };
    match inner.split_once(',') {
        Some((white, black)) => Ok((sp(white)?, sp(black)?)),
        None => sp(inner).map(|n| (n, n)),
    }
}

/// How `--assume-sp` writes a start: `518` for an SP, `588,301` for a Double Chess960 pair.
pub fn assumed_start_text((white, black): SpPair) -> String {
    if white == black {
        white.to_string()
    } else {
        format!("{white},{black}")
    }
}

/// Whether `text` (a move token and what follows) is a castling move.
pub(super) fn is_castling(text: &[u8]) -> bool {
    [&b"O-O"[..], b"0-0", b"o-o"]
        .iter()
        .any(|c| text.starts_with(c))
}

/// Which starts `verdict` is to be searched among, when it is one a start found from the
/// moves could overturn; `castling_at` says whether the move at an offset is a castling
/// move.
pub(super) fn worth_recovering(
    verdict: &Verdict,
    tags: &[Tag<'_>],
    opts: &ValidateOptions,
    castling_at: impl Fn(usize) -> bool,
) -> Option<Search> {
    let Verdict::Invalid(rejection) = verdict else {
        return None;
    };
    let rule_tags = RuleTags::from_tags(tags);
    let marked = marked_chess960(&rule_tags, opts.missing_variant);
    let search = if marked_double_chess960(&rule_tags, opts.missing_variant) {
        Search::Pairs
    } else {
        Search::StartPositionsThenPairs
    };
    let worth = match rejection.reason {
        RejectReason::UnknownStartPosition => marked,
        RejectReason::IllegalMove | RejectReason::AmbiguousMove if rule_tags.fens.is_empty() => {
            // Played from the classical start: a castling move it cannot have.
            let castling = start_from_tags(&rule_tags).is_none() && castling_at(rejection.offset);
            return castling.then_some(Search::StartPositions);
        }
        RejectReason::IllegalMove | RejectReason::AmbiguousMove => {
            marked && fen_is_not_a_start(&rule_tags, opts)
        }
        _ => false,
    };
    worth.then_some(search)
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

/// Settles `verdict` (one [`worth_recovering`] accepted, to be searched as `search` says)
/// from the game's `movetext`: `replay` replays the game from a found start (`None` if it
/// could not read it again, and the verdict then stands); `game_start` is the game's first
/// byte.
pub(super) fn settle(
    verdict: Verdict,
    search: Search,
    movetext: &[Token<'_>],
    opts: &ValidateOptions,
    game_start: usize,
    replay: impl FnOnce(FoundStart) -> Option<Verdict>,
) -> Verdict {
    let Some(moves) = main_line(movetext) else {
        return verdict;
    };
    let fitting = fitting_starts(search, &moves);
    if fitting.is_empty() {
        return none_fit(verdict, &fitting);
    }
    let Some((white, black, repair)) = chosen(&fitting, opts.assume_sp) else {
        return ambiguous(&fitting, opts.assume_sp, game_start);
    };
    let Ok(position) = Position::from_sp_pair(white, black) else {
        return verdict;
    };
    replay(FoundStart { position, repair }).unwrap_or(verdict)
}

/// The starts `moves` fit, searched as `search` says.
fn fitting_starts(search: Search, moves: &[San]) -> Fitting {
    if search != Search::Pairs {
        let sps = starts_fitting(moves);
        if !sps.is_empty() || search == Search::StartPositions {
            return Fitting::Sps(sps);
        }
    }
    Fitting::Pairs(pairs_fitting(moves))
}

impl Fitting {
    /// Whether no start fits.
    fn is_empty(&self) -> bool {
        match self {
            Fitting::Sps(sps) => sps.is_empty(),
            Fitting::Pairs(pairs) => pairs.is_empty(),
        }
    }

    /// How many starts fit.
    fn len(&self) -> usize {
        match self {
            Fitting::Sps(sps) => sps.len(),
            Fitting::Pairs(pairs) => pairs.len(),
        }
    }

    /// Whether the start (white SP, black SP) is among them (an SP n is `(n, n)`).
    fn contains(&self, (white, black): SpPair) -> bool {
        match self {
            Fitting::Sps(sps) => white == black && sps.contains(&white),
            Fitting::Pairs(pairs) => pairs.contains(&(white, black)),
        }
    }
}

/// The start taken (white's SP, black's SP, and the repair): the only one that fits, or
/// the start `--assume-sp` names when it is among several.
fn chosen(fitting: &Fitting, assume_sp: Option<SpPair>) -> Option<(u16, u16, Repair)> {
    let only = match fitting {
        Fitting::Sps(sps) => match sps[..] {
            [sp] => Some((sp, sp)),
            _ => None,
        },
        Fitting::Pairs(pairs) => match pairs[..] {
            [pair] => Some(pair),
            _ => None,
        },
    };
    let (white, black) = match only {
        Some(start) => start,
        None => assume_sp.filter(|&start| fitting.contains(start))?,
    };
    let black_sp = (white != black).then_some(black);
    let repair = match only {
        Some(_) => Repair::StartRecovered {
            sp: white,
            black_sp,
        },
        None => Repair::StartAssumed {
            sp: white,
            black_sp,
        },
    };
    Some((white, black, repair))
}

/// The verdict when no start fits: as it was, saying so when the start was unknown.
fn none_fit(verdict: Verdict, fitting: &Fitting) -> Verdict {
    let searched = match fitting {
        Fitting::Sps(_) => "none of the 960 start positions",
        Fitting::Pairs(_) => "none of the 921,600 Double Chess960 (white SP, black SP) pairs",
    };
    match verdict {
        Verdict::Invalid(mut r) if r.reason == RejectReason::UnknownStartPosition => {
            r.detail.push_str("; ");
            r.detail.push_str(searched);
            r.detail.push_str(" replays the main line");
            Verdict::Invalid(r)
        }
        other => other,
    }
}

/// The `start-ambiguous` rejection: how many starts fit, the first of them, and whether
/// `--assume-sp` was one.
fn ambiguous(fitting: &Fitting, assumed: Option<SpPair>, game_start: usize) -> Verdict {
    let (what, named): (&str, Vec<String>) = match fitting {
        Fitting::Sps(sps) => (
            "start positions replay the whole main line: SP",
            sps.iter()
                .take(NAMED_CANDIDATES)
                .map(u16::to_string)
                .collect(),
        ),
        Fitting::Pairs(pairs) => (
            "Double Chess960 (white SP, black SP) pairs replay the whole main line:",
            pairs
                .iter()
                .take(NAMED_CANDIDATES)
                .map(|(w, b)| format!("({w}, {b})"))
                .collect(),
        ),
    };
    let more = if fitting.len() > NAMED_CANDIDATES {
        ", …"
    } else {
        ""
    };
    let assumed = match (assumed, fitting) {
        (Some(start), _) => format!(
            "; --assume-sp {} is not one of them",
            assumed_start_text(start)
        ),
        (None, Fitting::Sps(_)) => "; --assume-sp N picks one".to_string(),
        (None, Fitting::Pairs(_)) => "; --assume-sp W,B picks one".to_string(),
    };
    let detail = format!(
        "the start is not in the file and {} {what} {}{more}{assumed}",
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
    use chess960_core::{pairs_fitting, starts_fitting};
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
                        "recovered" => Repair::StartRecovered { sp, black_sp: None },
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
                assume_sp: assumed.map(|sp| (sp, sp)),
                ..ValidateOptions::default()
            };
            validate_chunk(bytes, Origin::default(), &opts, false, |judged| {
                match (&judged.verdict, expected) {
                    (Verdict::Valid(game), Ok(sp)) => {
                        let assumed = Repair::StartAssumed { sp, black_sp: None };
                        assert_eq!(game.repairs, vec![assumed]);
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

    /// A game played from the Double Chess960 start (100, 700) (random moves, most of them
    /// of pieces still on their home rank, by python-chess) that no other pair fits.
    const PAIR_100_700: &str = "1. Nc3 Ng6 2. Nd5 Nd6 3. Rd1 Ke8 4. Re1 Kf8 5. Ng3 Qd8 6. Kf1 Qe8 7. Rd1 Qc8 8. Ke1 b5 9. Rf1 Qb7 10. Rg1 Qc8 11. Nf4 Qe8 12. e3 Qc8 13. Rh1 Qd8 14. Nxg6+ Ke8 15. Kf1 Qc8 16. Nh5 Qd8 17. Ke2 a6 18. Rhg1 Qc8 19. c3 Qd8 20. Rge1 Ra7 21. Be4 Qc8 22. Rf1 b4 23. d4 Qd8 24. Bd2 fxg6 25. Rde1 Qc8 26. Qc1 Bd5 27. a3 Rf8 28. Kd3 Rf5 29. Bxd5 Kf8 30. Rg1 Qe8";

    /// The verdict of one game read from `text`.
    fn verdict_of(text: &str, opts: &ValidateOptions) -> Verdict {
        let mut verdicts = Vec::new();
        validate_chunk(text.as_bytes(), Origin::default(), opts, false, |judged| {
            verdicts.push(judged.verdict.clone())
        });
        assert_eq!(verdicts.len(), 1, "{text}");
        verdicts.remove(0)
    }

    #[test]
    fn a_double_chess960_start_is_recovered_as_its_pair_whether_tagged_dfrc_or_chess960() {
        let (white, black) = (100, 700);
        let line = PAIR_100_700;
        for variant in ["Double Chess960", "DFRC", "fischerandom", "Chess960"] {
            let text = format!("[Variant \"{variant}\"]\n[FEN \"?\"]\n\n{line} *\n");
            for canonical_san in [false, true] {
                let opts = ValidateOptions {
                    canonical_san,
                    ..ValidateOptions::default()
                };
                let Verdict::Valid(game) = verdict_of(&text, &opts) else {
                    panic!("{variant}: {line}");
                };
                assert_eq!(game.class.kind, StartKind::DoubleChess960 { white, black });
                let recovered = Repair::StartRecovered {
                    sp: white,
                    black_sp: Some(black),
                };
                assert_eq!(game.repairs, vec![recovered], "{variant}");
            }
        }
    }

    #[test]
    fn pairs_are_searched_for_dfrc_games_and_for_chess960_games_no_sp_fits() {
        let opts = ValidateOptions::default();
        let game = |variant: &str, moves: &str| {
            verdict_of(
                &format!("[Variant \"{variant}\"]\n[FEN \"?\"]\n\n{moves} *\n"),
                &opts,
            )
        };
        let rejected = |verdict: Verdict| match verdict {
            Verdict::Invalid(r) => (r.reason, r.detail),
            other => panic!("{other:?}"),
        };
        let sans = |text: &str| -> Vec<San> {
            text.split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect()
        };
        // The same knights' moves: Chess960 answers with SPs, Double Chess960 with pairs;
        // castling on both wings at once fits no SP (the kings stand on f1 and d8), so a
        // Chess960 game is searched among the pairs.
        let cases = [
            (
                "Chess960",
                "Nb3 Nb6",
                starts_fitting(&sans("Nb3 Nb6")).len(),
                "start positions",
            ),
            (
                "DFRC",
                "Nb3 Nb6",
                pairs_fitting(&sans("Nb3 Nb6")).len(),
                "Double Chess960",
            ),
            (
                "Chess960",
                "O-O O-O-O",
                pairs_fitting(&sans("O-O O-O-O")).len(),
                "Double Chess960",
            ),
        ];
        assert!(starts_fitting(&sans("O-O O-O-O")).is_empty());
        for (variant, moves, count, kind) in cases {
            let (reason, detail) = rejected(game(variant, &format!("1. {moves}")));
            assert_eq!(reason, RejectReason::StartAmbiguous, "{variant} {moves}");
            assert!(count > 1, "{variant} {moves}");
            let expected = format!("and {count} {kind}");
            assert!(detail.contains(&expected), "{variant} {moves}: {detail}");
        }
        let (reason, detail) = rejected(game("DFRC", "1. e4 e5 2. Kd3"));
        assert_eq!(reason, RejectReason::UnknownStartPosition);
        assert!(detail.contains("921,600"), "{detail}");
    }

    #[test]
    fn an_archive_declared_double_chess960_searches_pairs_for_games_tagged_chess960_or_not() {
        let sans: Vec<San> = ["Nb3", "Nb6"].iter().map(|s| s.parse().unwrap()).collect();
        let (sps, pairs) = (starts_fitting(&sans).len(), pairs_fitting(&sans).len());
        let declared = ValidateOptions {
            missing_variant: crate::validate::MissingVariant::DoubleChess960,
            ..ValidateOptions::default()
        };
        let detect = ValidateOptions::default();
        let tagged = "[Variant \"Chess960\"]\n[FEN \"?\"]\n";
        let fischerandom = "[Variant \"fischerandom\"]\n";
        // (tags, options, the start-ambiguous message's count and kind)
        let cases = [
            (tagged, &declared, format!("and {pairs} Double Chess960")),
            (
                fischerandom,
                &declared,
                format!("and {pairs} Double Chess960"),
            ),
            ("", &declared, format!("and {pairs} Double Chess960")),
            (tagged, &detect, format!("and {sps} start positions")),
            (fischerandom, &detect, format!("and {sps} start positions")),
        ];
        for (tags, opts, expected) in cases {
            let text = format!("{tags}\n1. Nb3 Nb6 *\n");
            match verdict_of(&text, opts) {
                Verdict::Invalid(r) if r.reason == RejectReason::StartAmbiguous => {
                    assert!(r.detail.contains(&expected), "{tags}: {}", r.detail)
                }
                verdict => panic!("{tags}: {verdict:?}"),
            }
        }
        // Untagged and not declared: classical chess, where `1. Nb3` is illegal.
        let Verdict::Invalid(r) = verdict_of("\n1. Nb3 Nb6 *\n", &detect) else {
            panic!("1. Nb3 from the classical start");
        };
        assert_eq!(r.reason, RejectReason::IllegalMove);
        // A game tagged standard chess stays so.
        let standard = "[Variant \"Standard\"]\n\n1. e4 e5 *\n";
        let Verdict::Valid(game) = verdict_of(standard, &declared) else {
            panic!("{standard}");
        };
        assert_eq!(game.kind, crate::validate::GameKind::Standard);
        // An untagged game without a FEN tag is recovered as its pair.
        let Verdict::Valid(game) = verdict_of(&format!("{PAIR_100_700} *\n"), &declared) else {
            panic!("{PAIR_100_700}");
        };
        let recovered = Repair::StartRecovered {
            sp: 100,
            black_sp: Some(700),
        };
        assert_eq!(game.repairs, vec![recovered]);
    }

    #[test]
    fn assume_sp_picks_a_chess960_start_among_the_pairs_of_a_dfrc_game() {
        let text = "[Variant \"DFRC\"]\n[FEN \"?\"]\n\n1. Nb3 Nb6 *\n";
        let opts = ValidateOptions {
            assume_sp: Some((1, 1)),
            ..ValidateOptions::default()
        };
        let Verdict::Valid(game) = verdict_of(text, &opts) else {
            panic!("SP 1 fits 1. Nb3 Nb6");
        };
        let assumed = Repair::StartAssumed {
            sp: 1,
            black_sp: None,
        };
        assert_eq!(game.repairs, vec![assumed]);
        assert_eq!(game.class.kind, StartKind::Chess960(1));
    }

    #[test]
    fn assume_sp_names_a_double_chess960_pair_written_as_the_message_names_it() {
        let text = "[Variant \"DFRC\"]\n[FEN \"?\"]\n\n1. Nb3 Nb6 *\n";
        let sans: Vec<San> = ["Nb3", "Nb6"].iter().map(|s| s.parse().unwrap()).collect();
        let fitting = pairs_fitting(&sans);
        let (white, black) = *fitting.iter().find(|(w, b)| w != b).unwrap();
        let outside = (0..960).map(|b| (white, b)).find(|p| !fitting.contains(p));
        let cases = [
            (format!("{white},{black}"), true),
            (format!("({white}, {black})"), true),
            (assumed_start_text(outside.unwrap()), false),
        ];
        for (written, fits) in cases {
            let assume_sp = Some(parse_assumed_start(&written).unwrap());
            let opts = ValidateOptions {
                assume_sp,
                ..ValidateOptions::default()
            };
            match verdict_of(text, &opts) {
                Verdict::Valid(game) if fits => {
                    let assumed = Repair::StartAssumed {
                        sp: white,
                        black_sp: Some(black),
                    };
                    assert_eq!(game.repairs, vec![assumed]);
                    assert_eq!(game.class.kind, StartKind::DoubleChess960 { white, black });
                }
                Verdict::Invalid(r) if !fits => {
                    assert_eq!(r.reason, RejectReason::StartAmbiguous);
                    let expected = format!("--assume-sp {written} is not one of them");
                    assert!(r.detail.contains(&expected), "{}", r.detail);
                }
                verdict => panic!("{written}: {verdict:?}"),
            }
        }
        for bad in ["960", "1,960", "a", "1,2,3", "", "-1"] {
            assert!(parse_assumed_start(bad).is_err(), "{bad}");
        }
    }
}
