//! Validating one game: its rules and start position, every move of the main line and of
//! the variations, and its result.

pub mod start;
pub mod variant;

use chess960_core::outcome::Termination;
use chess960_core::sp::StartClassification;
use chess960_core::{Color, Move, Position, SanError};
use pgn_parse::{Game, GameResult, Token};
use serde::Serialize;
use start::{resolve_start, GameKind, RuleTags, StartOutcome};

/// Why a game is rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RejectReason {
    /// The PGN text could not be read.
    ParseError,
    /// A `{` comment with no `}` before the next game.
    UnterminatedComment,
    /// The movetext stops without a result before the next game or the end of the file.
    Truncated,
    /// No start position can be known (`[FEN "?"]`, Chess960 without FEN).
    UnknownStartPosition,
    /// The FEN tag is not a legal position.
    BadFen,
    /// Two FEN tags name different positions.
    ConflictingFen,
    /// A move that is not legal.
    IllegalMove,
    /// A move that more than one legal move matches.
    AmbiguousMove,
    /// A move token that is not SAN.
    MalformedMove,
    /// A null move (`--`, `Z0`).
    NullMove,
    /// An illegal, ambiguous or malformed move inside a variation.
    BadVariation,
    /// Fewer plies than `--min-plies`.
    TooShort,
}

impl RejectReason {
    /// The name used in reports (`illegal-move`, ...).
    pub fn name(self) -> &'static str {
        match self {
            RejectReason::ParseError => "parse-error",
            RejectReason::UnterminatedComment => "unterminated-comment",
            RejectReason::Truncated => "truncated",
            RejectReason::UnknownStartPosition => "unknown-start-position",
            RejectReason::BadFen => "bad-fen",
            RejectReason::ConflictingFen => "conflicting-fen",
            RejectReason::IllegalMove => "illegal-move",
            RejectReason::AmbiguousMove => "ambiguous-move",
            RejectReason::MalformedMove => "malformed-move",
            RejectReason::NullMove => "null-move",
            RejectReason::BadVariation => "bad-variation",
            RejectReason::TooShort => "too-short",
        }
    }
}

/// A repair that loses nothing, applied to a kept game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Repair {
    /// Two FEN tags naming the same position: one kept.
    DuplicateFenMerged,
    /// A start position's castling letters named files without rooks: full rights restored.
    StartCastlingRestored,
    /// Castling letters without king or rook behind them dropped.
    ImpossibleCastlingDropped,
    /// An en-passant square no double push can have left, dropped.
    ImpossibleEnPassantDropped(String),
    /// `SetUp "1"` added to a game with a FEN tag.
    SetUpAdded,
    /// `Variant "Chess960"` added or respelled.
    VariantNormalised,
    /// The FEN tag rewritten in the requested style (X-FEN or Shredder-FEN).
    FenRewritten,
    /// The Result contradicted the final checkmate or stalemate and was corrected.
    ResultCorrected {
        /// The result the file had.
        old: String,
    },
    /// `0-0` / `0-0-0` written as `O-O` / `O-O-O`.
    ZeroCastlingNotation,
    /// A variation with an illegal move dropped (`--drop-bad-variations`).
    BadVariationDropped,
}

impl Repair {
    /// The name used in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Repair::DuplicateFenMerged => "duplicate-fen-merged",
            Repair::StartCastlingRestored => "start-castling-restored",
            Repair::ImpossibleCastlingDropped => "impossible-castling-dropped",
            Repair::ImpossibleEnPassantDropped(_) => "impossible-en-passant-dropped",
            Repair::SetUpAdded => "setup-added",
            Repair::VariantNormalised => "variant-normalised",
            Repair::FenRewritten => "fen-rewritten",
            Repair::ResultCorrected { .. } => "result-corrected",
            Repair::ZeroCastlingNotation => "zero-castling-notation",
            Repair::BadVariationDropped => "bad-variation-dropped",
        }
    }
}

/// Why a game is rejected, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The reason class.
    pub reason: RejectReason,
    /// A sentence for the user.
    pub detail: String,
    /// Absolute byte offset of the problem, if known (else the game's start).
    pub offset: Option<usize>,
}

impl Rejection {
    /// A rejection without a position.
    pub fn new(reason: RejectReason, detail: String) -> Rejection {
        Rejection {
            reason,
            detail,
            offset: None,
        }
    }
}

/// What to do beyond checking.
#[derive(Debug, Clone, Copy, Default)]
pub struct ValidateOptions {
    /// Compute canonical SAN for every move (for writing a cleaned game).
    pub canonical_san: bool,
    /// Drop variations with bad moves instead of rejecting the game.
    pub drop_bad_variations: bool,
}

/// A game that passed.
#[derive(Debug, Clone)]
pub struct ValidGame {
    /// Chess960 or standard.
    pub kind: GameKind,
    /// The start position.
    pub start: Position,
    /// Whether the start is a (Double) Chess960 start.
    pub class: StartClassification,
    /// Whether the game had a FEN tag.
    pub had_fen: bool,
    /// The position after the last main-line move.
    pub end: Position,
    /// Main-line plies.
    pub plies: u32,
    /// The result, after correction.
    pub result: GameResult,
    /// How the final position ends the game, if it does.
    pub termination: Option<Termination>,
    /// Canonical SAN (with `+`/`#`) of every SAN token, in token order (when requested).
    pub canonical: Vec<String>,
    /// Indices of tokens to leave out when writing (dropped variations).
    pub dropped_tokens: Vec<(usize, usize)>,
    /// Repairs made.
    pub repairs: Vec<Repair>,
    /// A key equal for games with the same start position and main-line moves.
    pub dedupe_key: u128,
}

/// The verdict on one game.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Legal, possibly repaired.
    Valid(Box<ValidGame>),
    /// Another variant, passed through.
    Unsupported(String),
    /// Not legal.
    Invalid(Rejection),
}

/// The tags that matter for the rules, decoded.
pub fn rule_tags(game: &Game<'_>) -> RuleTags {
    let mut tags = RuleTags::default();
    for tag in &game.tags {
        match tag.name {
            b"FEN" => tags.fens.push(tag.value_lossy_str().into_owned()),
            b"Variant" if tags.variant.is_none() => {
                tags.variant = Some(tag.value_lossy_str().into_owned())
            }
            b"SetUp" if tags.setup.is_none() => {
                tags.setup = Some(tag.value_lossy_str().into_owned())
            }
            _ => {}
        }
    }
    tags
}

fn mix(h: u64) -> u64 {
    let mut z = h.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One level of the variation stack.
#[derive(Clone)]
struct Line {
    /// The position now.
    current: Position,
    /// The position before the last move of this line (where a variation starts).
    before_last: Option<Position>,
    /// Index of the `(` token that opened this line (0 for the main line).
    opened_at: usize,
    /// Whether this line is being dropped (a bad move was found in it).
    dropping: bool,
}

/// Describes why a SAN failed, for the user.
fn san_failure(pos: &Position, san: &str, err: SanError) -> String {
    let side = pos.turn().name();
    match err {
        SanError::Malformed => format!("{san:?} is not a move in SAN"),
        SanError::Ambiguous => format!("{san:?} matches more than one legal {side} move"),
        SanError::Illegal if pos.is_check() => {
            format!("{side} is in check and {san:?} does not answer it")
        }
        SanError::Illegal => format!("no legal {side} move matches {san:?}"),
    }
}

/// The move number text for a ply, e.g. `12.` or `12...`.
fn move_label(pos: &Position) -> String {
    match pos.turn() {
        Color::White => format!("{}.", pos.fullmoves()),
        Color::Black => format!("{}...", pos.fullmoves()),
    }
}

/// Validates one parsed game.
pub fn validate(game: &Game<'_>, opts: ValidateOptions) -> Verdict {
    let mut repairs = Vec::new();
    let start = match resolve_start(&rule_tags(game), &mut repairs) {
        Ok(StartOutcome::Chess(start)) => start,
        Ok(StartOutcome::Unsupported(name)) => return Verdict::Unsupported(name),
        Err(rejection) => {
            let mut rejection = rejection;
            rejection.offset = Some(game.byte_range.start);
            return Verdict::Invalid(rejection);
        }
    };
    let mut lines = vec![Line {
        current: start.position.clone(),
        before_last: None,
        opened_at: 0,
        dropping: false,
    }];
    let mut canonical = Vec::new();
    let mut dropped_tokens = Vec::new();
    let mut plies = 0u32;
    let mut movetext_result = None;
    let mut key_a = mix(start.position.zobrist());
    let mut key_b = mix(key_a ^ 0x5555);
    for (index, token) in game.movetext.iter().enumerate() {
        match token {
            Token::San { text, offset } => {
                let depth = lines.len();
                let Some(line) = lines.last_mut() else { break };
                if line.dropping {
                    if opts.canonical_san {
                        canonical.push(String::new());
                    }
                    continue;
                }
                let parsed = line.current.parse_san(text);
                let m: Move = match parsed {
                    Ok(m) => m,
                    Err(err) => {
                        let san_text = String::from_utf8_lossy(text);
                        let why = san_failure(&line.current, &san_text, err);
                        let label = move_label(&line.current);
                        if depth > 1 {
                            if opts.drop_bad_variations {
                                line.dropping = true;
                                if opts.canonical_san {
                                    canonical.push(String::new());
                                }
                                continue;
                            }
                            return Verdict::Invalid(Rejection {
                                reason: RejectReason::BadVariation,
                                detail: format!("bad move {san_text:?} in a variation ({label} {san_text}): {why}"),
                                offset: Some(*offset),
                            });
                        }
                        let reason = match err {
                            SanError::Malformed => RejectReason::MalformedMove,
                            SanError::Ambiguous => RejectReason::AmbiguousMove,
                            SanError::Illegal => RejectReason::IllegalMove,
                        };
                        let kind = match err {
                            SanError::Malformed => "malformed",
                            SanError::Ambiguous => "ambiguous",
                            SanError::Illegal => "illegal",
                        };
                        return Verdict::Invalid(Rejection {
                            reason,
                            detail: format!(
                                "{kind} move {san_text:?} at ply {} ({label} {san_text}): {why}",
                                plies + 1
                            ),
                            offset: Some(*offset),
                        });
                    }
                };
                if text.first() == Some(&b'0') && !repairs.contains(&Repair::ZeroCastlingNotation) {
                    repairs.push(Repair::ZeroCastlingNotation);
                }
                if opts.canonical_san {
                    canonical.push(line.current.san_plus(m));
                }
                let next = line.current.played(m);
                line.before_last = Some(std::mem::replace(&mut line.current, next));
                if depth == 1 {
                    plies += 1;
                    let z = line.current.zobrist();
                    key_a = mix(key_a ^ z);
                    key_b = mix(key_b.rotate_left(17) ^ z);
                }
            }
            Token::NullMove { offset } => {
                let label = lines
                    .last()
                    .map(|l| move_label(&l.current))
                    .unwrap_or_default();
                return Verdict::Invalid(Rejection {
                    reason: RejectReason::NullMove,
                    detail: format!("null move at ply {} ({label} --)", plies + 1),
                    offset: Some(*offset),
                });
            }
            Token::BeginVariation => {
                let Some(parent) = lines.last() else { break };
                let dropping = parent.dropping;
                let Some(base) = parent.before_last.clone() else {
                    if dropping {
                        lines.push(Line {
                            current: parent.current.clone(),
                            before_last: None,
                            opened_at: index,
                            dropping,
                        });
                        continue;
                    }
                    return Verdict::Invalid(Rejection {
                        reason: RejectReason::BadVariation,
                        detail: "a variation before any move".into(),
                        offset: Some(game.byte_range.start),
                    });
                };
                lines.push(Line {
                    current: base,
                    before_last: None,
                    opened_at: index,
                    dropping,
                });
            }
            Token::EndVariation if lines.len() > 1 => {
                if let Some(line) = lines.pop() {
                    let parent_dropping = lines.last().is_some_and(|l| l.dropping);
                    if line.dropping && !parent_dropping {
                        dropped_tokens.push((line.opened_at, index));
                        if !repairs.contains(&Repair::BadVariationDropped) {
                            repairs.push(Repair::BadVariationDropped);
                        }
                    }
                }
            }
            Token::Result(r) => movetext_result = Some(*r),
            _ => {}
        }
    }
    let Some(main) = lines.into_iter().next() else {
        return Verdict::Invalid(Rejection::new(
            RejectReason::ParseError,
            "empty game".into(),
        ));
    };
    let end = main.current;
    let tag_result = game
        .tag(b"Result")
        .map(|t| GameResult::from_bytes(&t.value()))
        .unwrap_or(GameResult::Unknown);
    let mut result = match movetext_result {
        Some(GameResult::Unknown) | None => tag_result,
        Some(r) => r,
    };
    let termination = end.termination();
    let implied = match termination {
        Some(Termination::Checkmate) => Some(match end.turn() {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        }),
        Some(Termination::Stalemate) => Some(GameResult::Draw),
        _ => None,
    };
    if let Some(implied) = implied {
        if result != implied {
            repairs.push(Repair::ResultCorrected {
                old: result.as_str().to_string(),
            });
            result = implied;
        }
    }
    Verdict::Valid(Box::new(ValidGame {
        kind: start.kind,
        class: start.class,
        had_fen: start.had_fen,
        start: start.position,
        end,
        plies,
        result,
        termination,
        canonical,
        dropped_tokens,
        repairs,
        dedupe_key: ((key_a as u128) << 64) | key_b as u128 ^ plies as u128,
    }))
}
