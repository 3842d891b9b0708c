//! Validating one game: its rules and start position, every move of the main line and of
//! the variations, and its result.

pub mod start;
pub mod variant;

use chess960_core::{Color, Move, Position, SanError, StartClassification, Termination};
use pgn_parse::{Game, GameEnd, GameResult, Skip, Tag, Token, Visitor};
use serde::Serialize;
use start::{resolve_start, GameKind, RuleTags, Start, StartOutcome};

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
    /// Compute [`ValidGame::dedupe_key`] (else it is 0).
    pub dedupe_key: bool,
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
    /// A key equal for games with the same start position and main-line moves (0 unless
    /// [`ValidateOptions::dedupe_key`]).
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
        _ => format!("{san:?} cannot be played: {err}"),
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
    let mut replay = match Replay::start(&game.tags, game.byte_range.start, opts) {
        Ok(replay) => replay,
        Err(verdict) => return verdict,
    };
    for token in &game.movetext {
        match token {
            Token::San { text, offset } => replay.san(text, *offset),
            Token::NullMove { offset } => replay.null_move(*offset),
            Token::BeginVariation => replay.begin_variation(),
            Token::EndVariation => replay.end_variation(),
            Token::Result(r) => replay.result(*r),
            Token::Comment { .. } | Token::Nag(_) | Token::Suffix(_) => replay.other_token(),
        }
        if replay.has_failed() {
            break;
        }
    }
    replay.finish(&game.tags)
}

/// The replay of one game's movetext, token by token: from a parsed [`Game`] ([`validate`])
/// or straight from the reader ([`Validator`]), with the same rules.
pub struct Replay {
    opts: ValidateOptions,
    start: Start,
    lines: Vec<Line>,
    canonical: Vec<String>,
    dropped_tokens: Vec<(usize, usize)>,
    repairs: Vec<Repair>,
    plies: u32,
    movetext_result: Option<GameResult>,
    key_a: u64,
    key_b: u64,
    /// Index of the next token.
    tokens: usize,
    /// Offset of the game's first byte.
    game_start: usize,
    failure: Option<Rejection>,
}

impl Replay {
    /// Works out the rules and start position from the tags: a replay ready for the first
    /// move, or the verdict when the tags alone decide it (another variant, a bad FEN).
    pub fn start(
        tags: &[Tag<'_>],
        game_start: usize,
        opts: ValidateOptions,
    ) -> Result<Replay, Verdict> {
        let mut repairs = Vec::new();
        let start = match resolve_start(&RuleTags::from_tags(tags), &mut repairs) {
            Ok(StartOutcome::Chess(start)) => start,
            Ok(StartOutcome::Unsupported(name)) => return Err(Verdict::Unsupported(name)),
            Err(mut rejection) => {
                rejection.offset = Some(game_start);
                return Err(Verdict::Invalid(rejection));
            }
        };
        let key_a = mix(start.position.zobrist());
        Ok(Replay {
            opts,
            lines: vec![Line {
                current: start.position.clone(),
                before_last: None,
                opened_at: 0,
                dropping: false,
            }],
            start,
            canonical: Vec::new(),
            dropped_tokens: Vec::new(),
            repairs,
            plies: 0,
            movetext_result: None,
            key_a,
            key_b: mix(key_a ^ 0x5555),
            tokens: 0,
            game_start,
            failure: None,
        })
    }

    /// Whether a move or variation has already made the game invalid (later tokens are
    /// ignored).
    pub fn has_failed(&self) -> bool {
        self.failure.is_some()
    }

    fn fail(&mut self, rejection: Rejection) {
        if self.failure.is_none() {
            self.failure = Some(rejection);
        }
    }

    /// A move in SAN at byte `offset`.
    pub fn san(&mut self, text: &[u8], offset: usize) {
        self.tokens += 1;
        if self.failure.is_some() {
            return;
        }
        let depth = self.lines.len();
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        if line.dropping {
            if self.opts.canonical_san {
                self.canonical.push(String::new());
            }
            return;
        }
        let m: Move = match line.current.parse_san(text) {
            Ok(m) => m,
            Err(err) => {
                let san_text = String::from_utf8_lossy(text);
                let why = san_failure(&line.current, &san_text, err);
                let label = move_label(&line.current);
                if depth > 1 {
                    if self.opts.drop_bad_variations {
                        line.dropping = true;
                        if self.opts.canonical_san {
                            self.canonical.push(String::new());
                        }
                        return;
                    }
                    let detail =
                        format!("bad move {san_text:?} in a variation ({label} {san_text}): {why}");
                    self.fail(Rejection {
                        reason: RejectReason::BadVariation,
                        detail,
                        offset: Some(offset),
                    });
                    return;
                }
                let (reason, kind) = match err {
                    SanError::Malformed => (RejectReason::MalformedMove, "malformed"),
                    SanError::Ambiguous => (RejectReason::AmbiguousMove, "ambiguous"),
                    SanError::Illegal => (RejectReason::IllegalMove, "illegal"),
                    _ => (RejectReason::IllegalMove, "illegal"),
                };
                let detail = format!(
                    "{kind} move {san_text:?} at ply {} ({label} {san_text}): {why}",
                    self.plies + 1
                );
                self.fail(Rejection {
                    reason,
                    detail,
                    offset: Some(offset),
                });
                return;
            }
        };
        if text.first() == Some(&b'0') && !self.repairs.contains(&Repair::ZeroCastlingNotation) {
            self.repairs.push(Repair::ZeroCastlingNotation);
        }
        if self.opts.canonical_san {
            self.canonical.push(line.current.san_plus(m).to_string());
        }
        let before = line.current.clone();
        line.current.play_unchecked(m);
        if depth == 1 {
            self.plies += 1;
            if self.opts.dedupe_key {
                let z = line.current.zobrist();
                self.key_a = mix(self.key_a ^ z);
                self.key_b = mix(self.key_b.rotate_left(17) ^ z);
            }
        }
        line.before_last = Some(before);
    }

    /// A null move (`--`) at byte `offset`: the game is invalid.
    pub fn null_move(&mut self, offset: usize) {
        self.tokens += 1;
        if self.failure.is_some() {
            return;
        }
        let label = self
            .lines
            .last()
            .map(|l| move_label(&l.current))
            .unwrap_or_default();
        let detail = format!("null move at ply {} ({label} --)", self.plies + 1);
        self.fail(Rejection {
            reason: RejectReason::NullMove,
            detail,
            offset: Some(offset),
        });
    }

    /// A `(`: the variation replaces the last move of the current line.
    pub fn begin_variation(&mut self) {
        let index = self.tokens;
        self.tokens += 1;
        if self.failure.is_some() {
            return;
        }
        let Some(parent) = self.lines.last() else {
            return;
        };
        let dropping = parent.dropping;
        let current = match (&parent.before_last, dropping) {
            (Some(base), _) => base.clone(),
            (None, true) => parent.current.clone(),
            (None, false) => {
                let offset = Some(self.game_start);
                self.fail(Rejection {
                    reason: RejectReason::BadVariation,
                    detail: "a variation before any move".into(),
                    offset,
                });
                return;
            }
        };
        self.lines.push(Line {
            current,
            before_last: None,
            opened_at: index,
            dropping,
        });
    }

    /// A `)`.
    pub fn end_variation(&mut self) {
        let index = self.tokens;
        self.tokens += 1;
        if self.failure.is_some() || self.lines.len() < 2 {
            return;
        }
        if let Some(line) = self.lines.pop() {
            let parent_dropping = self.lines.last().is_some_and(|l| l.dropping);
            if line.dropping && !parent_dropping {
                self.dropped_tokens.push((line.opened_at, index));
                if !self.repairs.contains(&Repair::BadVariationDropped) {
                    self.repairs.push(Repair::BadVariationDropped);
                }
            }
        }
    }

    /// The termination marker in the movetext.
    pub fn result(&mut self, result: GameResult) {
        self.tokens += 1;
        self.movetext_result = Some(result);
    }

    /// A comment, NAG or suffix (counted, for token indices).
    pub fn other_token(&mut self) {
        self.tokens += 1;
    }

    /// The verdict, once the movetext is over; `tags` gives the `Result` tag.
    pub fn finish(self, tags: &[Tag<'_>]) -> Verdict {
        if let Some(rejection) = self.failure {
            return Verdict::Invalid(rejection);
        }
        let mut repairs = self.repairs;
        let Some(main) = self.lines.into_iter().next() else {
            return Verdict::Invalid(Rejection::new(
                RejectReason::ParseError,
                "empty game".into(),
            ));
        };
        let end = main.current;
        let tag_result = tags
            .iter()
            .find(|t| t.name == b"Result")
            .map(|t| GameResult::from_bytes(&t.value()))
            .unwrap_or(GameResult::Unknown);
        let mut result = match self.movetext_result {
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
        let plies = self.plies;
        let start = self.start;
        Verdict::Valid(Box::new(ValidGame {
            kind: start.kind,
            class: start.class,
            had_fen: start.had_fen,
            start: start.position,
            end,
            plies,
            result,
            termination,
            canonical: self.canonical,
            dropped_tokens: self.dropped_tokens,
            repairs,
            dedupe_key: if self.opts.dedupe_key {
                ((self.key_a as u128) << 64) | self.key_b as u128 ^ plies as u128
            } else {
                0
            },
        }))
    }
}

/// A [`Visitor`] that validates each game while it is read: no token list is built, the
/// movetext of a game whose tags already decide it is skipped, and the tags stay available
/// through [`Validator::tags`] until the next game.
pub struct Validator<'a> {
    opts: ValidateOptions,
    tags: Vec<Tag<'a>>,
    game_start: usize,
    state: ValidatorState,
}

/// Where the validator is in the current game. Not boxed: there is one per validator, and a
/// box would cost an allocation per game.
#[allow(clippy::large_enum_variant)]
enum ValidatorState {
    Tags,
    Replaying(Replay),
    Decided(Verdict),
}

impl<'a> Validator<'a> {
    /// A validator with `opts` (canonical SAN is not available: there are no tokens to
    /// write).
    pub fn new(opts: ValidateOptions) -> Validator<'a> {
        Validator {
            opts: ValidateOptions {
                canonical_san: false,
                ..opts
            },
            tags: Vec::new(),
            game_start: 0,
            state: ValidatorState::Tags,
        }
    }

    /// The tags of the game read last.
    pub fn tags(&self) -> &[Tag<'a>] {
        &self.tags
    }

    fn replay(&mut self) -> Option<&mut Replay> {
        match &mut self.state {
            ValidatorState::Replaying(replay) if !replay.has_failed() => Some(replay),
            _ => None,
        }
    }
}

impl<'a> Visitor<'a> for Validator<'a> {
    type Output = (GameEnd, Verdict);

    fn begin_game(&mut self, offset: usize) {
        self.tags.clear();
        self.game_start = offset;
        self.state = ValidatorState::Tags;
    }
    fn tag(&mut self, tag: Tag<'a>) {
        self.tags.push(tag);
    }
    fn end_tags(&mut self) -> Skip {
        match Replay::start(&self.tags, self.game_start, self.opts) {
            Ok(replay) => {
                self.state = ValidatorState::Replaying(replay);
                Skip(false)
            }
            Err(verdict) => {
                self.state = ValidatorState::Decided(verdict);
                Skip(true)
            }
        }
    }
    fn san(&mut self, san: &'a [u8], offset: usize) {
        if let Some(replay) = self.replay() {
            replay.san(san, offset);
        }
    }
    fn null_move(&mut self, offset: usize) {
        if let Some(replay) = self.replay() {
            replay.null_move(offset);
        }
    }
    fn begin_variation(&mut self) -> Skip {
        match self.replay() {
            Some(replay) => {
                replay.begin_variation();
                Skip(false)
            }
            None => Skip(true),
        }
    }
    fn end_variation(&mut self) {
        if let Some(replay) = self.replay() {
            replay.end_variation();
        }
    }
    fn result(&mut self, result: GameResult) {
        if let ValidatorState::Replaying(replay) = &mut self.state {
            replay.result(result);
        }
    }
    fn end_game(&mut self, end: GameEnd) -> Self::Output {
        let verdict = match std::mem::replace(&mut self.state, ValidatorState::Tags) {
            ValidatorState::Replaying(replay) => replay.finish(&self.tags),
            ValidatorState::Decided(verdict) => verdict,
            // A game that ended inside its tags (damaged): the caller sees `end.error`.
            ValidatorState::Tags => Verdict::Invalid(Rejection {
                reason: RejectReason::ParseError,
                detail: "the game ends inside its tags".into(),
                offset: Some(self.game_start),
            }),
        };
        (end, verdict)
    }
}
