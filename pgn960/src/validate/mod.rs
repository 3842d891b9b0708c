//! Validating games: the rules and start position from the tags ([`start`]), every move of
//! the main line and of the variations ([`replay`]), the result, and the structure the
//! reader saw (a parse error, a game cut short). Every reason a game is rejected is decided
//! here, whichever way the game was read:
//!
//! - [`Validator`], a [`pgn_parse::Visitor`], validates while the reader reads (no token
//!   lists; the movetext of a game whose tags decide it is skipped);
//! - [`validate`] validates a game read whole ([`pgn_parse::Game`], for writing it again);
//! - [`validate_chunk`] reads a whole buffer either way and hands each game over with its
//!   verdict and where its problem is.

mod chunk;
mod observe;
pub mod reason;
mod recover;
mod replay;
pub mod start;
pub mod variant;
mod visitor;

pub use chunk::{validate_chunk, ChunkCounts, Judged};
pub use observe::{observe_chunk, GameObserver, MainMove, ReadMode};
pub use reason::{RejectReason, Repair};
pub use recover::{assumed_start_text, parse_assumed_start, FoundStart};
pub use replay::Replay;
pub use start::MissingVariant;
pub use visitor::{core_san, structural_rejection, Validator};

use crate::annotations::Annotations;
use chess960_core::{
    CastlingNotation, CastlingStyle, Move, Position, SanPlus, StartClassification, Termination,
    UciMove,
};
use pgn_parse::{ErrorKind, Game, GameResult, ParseError, Token};
use std::ops::Range;

/// The rules a game is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Chess960 (tagged so, or recognisable from its FEN).
    Chess960,
    /// Classical chess (the Chess960 rules from SP 518).
    Standard,
}

impl GameKind {
    /// `chess960` or `standard`.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Chess960 => "chess960",
            GameKind::Standard => "standard",
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
    /// Absolute byte offset of the problem (the game's first byte when nothing better).
    pub offset: usize,
}

impl Rejection {
    /// A rejection at `offset`.
    pub fn new(reason: RejectReason, detail: String, offset: usize) -> Rejection {
        Rejection {
            reason,
            detail,
            offset,
        }
    }
}

/// What to work out beyond the verdict. The default is the verdict alone, the fastest.
#[derive(Debug, Clone, Copy, Default)]
pub struct ValidateOptions {
    /// Canonical SAN for every SAN token (for writing a cleaned game from its tokens).
    pub canonical_san: bool,
    /// Drop variations with bad moves instead of rejecting the game.
    pub drop_bad_variations: bool,
    /// Compute [`ValidGame::dedupe_key`] (else it is 0).
    pub dedupe_key: bool,
    /// Reject games with fewer main-line plies ([`RejectReason::TooShort`]).
    pub min_plies: Option<u32>,
    /// The game will be written normalised with this FEN style: list the repairs to its
    /// tags that makes (`Variant`, `SetUp`, `FEN`).
    pub normalise: Option<CastlingStyle>,
    /// Keep every main-line move ([`ValidGame::moves`]) with its `[%clk]`/`[%eval]`, and
    /// detect repetitions and the fifty-move rule at the end.
    pub moves: bool,
    /// What a game without a `Variant` tag is (`--variant chess960`).
    pub missing_variant: start::MissingVariant,
    /// Reject games of more bytes as [`RejectReason::TooLarge`] (0: no limit). A streamed
    /// input's games over the limit never reach the reader (see [`pgn_parse::Part`]).
    pub max_game_bytes: usize,
    /// The start taken when the start is not in the file and several starts replay the
    /// main line, this one among them (`--assume-sp`): (white SP, black SP), `(n, n)` for
    /// the Chess960 start position n.
    pub assume_sp: Option<chess960_core::SpPair>,
    /// When normalising: how the written `Variant` tag of a Chess960 game is spelled (a
    /// game spelled otherwise gets [`Repair::VariantNormalised`]).
    pub variant_tag: variant::VariantSpelling,
}

/// One main-line move of a valid game (kept when [`ValidateOptions::moves`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MoveRecord {
    /// The move.
    pub chess_move: Move,
    /// Canonical SAN, with `+`/`#`.
    pub san: SanPlus,
    /// The clock and evaluation of the comments after the move.
    pub annotations: Annotations,
}

impl MoveRecord {
    /// The move in UCI_Chess960: castling is the king onto its own rook (`e1h1`).
    pub fn uci(&self) -> UciMove {
        self.chess_move.to_uci(CastlingNotation::KingTakesRook)
    }
}

/// A game that passed.
#[derive(Debug, Clone)]
pub struct ValidGame {
    /// Chess960 or standard.
    pub kind: GameKind,
    /// The start position.
    pub start: Position,
    /// Whether the start is a (Double) Chess960 start, and which.
    pub class: StartClassification,
    /// Whether the game had a FEN tag.
    pub had_fen: bool,
    /// The position after the last main-line move.
    pub end: Position,
    /// Main-line plies.
    pub plies: u32,
    /// The result, after correction.
    pub result: GameResult,
    /// How the final position ends the game, if it does (repetitions and the fifty-move
    /// rule only with [`ValidateOptions::moves`]).
    pub termination: Option<Termination>,
    /// Canonical SAN (with `+`/`#`) of every SAN token, in token order (with
    /// [`ValidateOptions::canonical_san`]; `None` for a move of a dropped variation).
    pub canonical: Vec<Option<SanPlus>>,
    /// Indices of tokens to leave out when writing (dropped variations).
    pub dropped_tokens: Vec<(usize, usize)>,
    /// Repairs made.
    pub repairs: Vec<Repair>,
    /// A key equal for games with the same start position and main-line moves (0 unless
    /// [`ValidateOptions::dedupe_key`]).
    pub dedupe_key: u128,
    /// Main-line moves (with [`ValidateOptions::moves`]).
    pub moves: Vec<MoveRecord>,
    /// Annotations in comments before the first move (with [`ValidateOptions::moves`]).
    pub start_annotations: Annotations,
}

/// The verdict on one game.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Legal, possibly repaired.
    Valid(Box<ValidGame>),
    /// Another variant (named as in its `Variant` tag), passed through.
    Unsupported(String),
    /// Not legal, or not readable.
    Invalid(Rejection),
}

impl Verdict {
    /// The valid game, if it is one.
    pub fn valid(&self) -> Option<&ValidGame> {
        match self {
            Verdict::Valid(game) => Some(game),
            _ => None,
        }
    }

    /// The rejection, if the game is invalid.
    pub fn rejection(&self) -> Option<&Rejection> {
        match self {
            Verdict::Invalid(rejection) => Some(rejection),
            _ => None,
        }
    }
}

/// The FEN of a start position as a normalised game writes it: Shredder-FEN for a
/// Chess960 game when asked, else X-FEN.
pub fn start_fen(kind: GameKind, start: &Position, style: CastlingStyle) -> String {
    match (style, kind) {
        (CastlingStyle::Shredder, GameKind::Chess960) => start.fen(style).to_string(),
        _ => start.to_string(),
    }
}

/// Bytes of input quoted whole in a message; longer text is cut (see [`quoted`]).
pub const QUOTE_LIMIT: usize = 40;

/// `text` cut to at most `limit` bytes (at a character boundary), with `…` when cut.
pub fn cut_text(text: &str, limit: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= limit {
        return text.into();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end]).into()
}

/// `text` quoted for a message: whole when short, else its first [`QUOTE_LIMIT`] bytes and
/// its length (`"Nf3Nf3…" (1,048,576 bytes)`), so that no message or TSV cell grows with
/// the input (the whole text is in the rejects file).
///
/// ```
/// use pgn960::validate::quoted;
/// assert_eq!(quoted("Nf3"), "\"Nf3\"");
/// assert_eq!(quoted(&"x".repeat(1_048_576)), format!("\"{}…\" (1,048,576 bytes)", "x".repeat(40)));
/// ```
pub fn quoted(text: &str) -> String {
    match cut_text(text, QUOTE_LIMIT) {
        std::borrow::Cow::Borrowed(whole) => format!("{whole:?}"),
        cut => format!("{cut:?} ({} bytes)", thousands(text.len() as u64)),
    }
}

/// `n` with a comma every three digits (`1,048,576`).
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The rejection of a game of more than `limit` bytes, starting at byte `offset`.
pub fn too_large(limit: usize, offset: usize) -> Rejection {
    let detail = format!(
        "a game of more than {} bytes (--max-game-bytes); copied to the rejects whole",
        thousands(limit as u64)
    );
    Rejection::new(RejectReason::TooLarge, detail, offset)
}

/// The rejection of a game the reader could not read whole.
pub fn parse_rejection(error: &ParseError) -> Rejection {
    let (reason, detail) = match error.kind {
        ErrorKind::UnterminatedComment => (
            RejectReason::UnterminatedComment,
            "comment '{' not closed before the next game".to_string(),
        ),
        ErrorKind::AmbiguousComment => (
            RejectReason::AmbiguousComment,
            "comment '{' quotes a game that has braces of its own: where it ends is ambiguous"
                .to_string(),
        ),
        _ => (
            RejectReason::ParseError,
            format!(
                "{}: expected {}, found {}",
                error.kind.name(),
                error.expected,
                cut_text(&error.found, 2 * QUOTE_LIMIT)
            ),
        ),
    };
    Rejection::new(reason, detail, error.offset)
}

/// The rejection of a game whose movetext stopped without a result (`None` if it has one,
/// or if its Result tag gives one); `tags` are the game's (a game without movetext names
/// the Result tag it has).
pub fn truncation(
    ending: pgn_parse::MovetextEnd,
    byte_range: &Range<usize>,
    tags: &[pgn_parse::Tag<'_>],
) -> Option<Rejection> {
    let why = match ending {
        pgn_parse::MovetextEnd::Result(_) => return None,
        pgn_parse::MovetextEnd::NoMovetext => {
            let offset = byte_range.start;
            let why = match tags.iter().find(|t| t.name == b"Result") {
                Some(tag) => format!(
                    "tags without movetext: no moves (the Result tag says {}; --headers-only counts it)",
                    quoted(&tag.value_str())
                ),
                None => "tags without movetext: no moves and no result".to_string(),
            };
            return Some(Rejection::new(RejectReason::NoMoves, why, offset));
        }
        // A movetext without its final result token, whose Result tag gives one: the game
        // is kept with that result (`Repair::ResultFromTag`, added by the replay).
        _ if result_tag(tags) != GameResult::Unknown => return None,
        pgn_parse::MovetextEnd::EndOfInput => {
            "no result at the end of the file and none in the Result tag: the game was cut short"
        }
        _ => "no result before the next game and none in the Result tag: the game was cut short",
    };
    let offset = byte_range.end.saturating_sub(1).max(byte_range.start);
    Some(Rejection::new(RejectReason::Truncated, why.into(), offset))
}

/// How one of a game's tags stands among the tags of the same name (PGN names a tag once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagCopy {
    /// The first tag of its name: the one every reader of the game takes.
    First,
    /// A later tag whose value an earlier tag of its name already has: dropped when
    /// normalising ([`Repair::DuplicateTagDropped`]).
    Same,
    /// A later tag with a value of its own: written as `Duplicate<Name>` when normalising
    /// ([`Repair::DuplicateTagRenamed`]).
    Different,
}

/// For each of `tags`, how it stands among the tags of its name. `FEN` and `SetUp` are
/// always [`TagCopy::First`]: the start rules decide those (`duplicate-fen-merged`,
/// `conflicting-fen`).
pub fn tag_copies(tags: &[pgn_parse::Tag<'_>]) -> Vec<TagCopy> {
    // A game's few tags are compared with the earlier ones; only a game of very many tags
    // pays for a map (the comparisons grow with the square of their number).
    if tags.len() > TAGS_COMPARED_PAIRWISE {
        return tag_copies_by_map(tags);
    }
    let mut copies = Vec::with_capacity(tags.len());
    for (i, tag) in tags.iter().enumerate() {
        let unchecked = tag.name == b"FEN" || tag.name == b"SetUp";
        let mut earlier = tags[..i].iter().filter(|t| t.name == tag.name).peekable();
        let copy = if unchecked || earlier.peek().is_none() {
            TagCopy::First
        } else {
            let value = tag.value();
            if earlier.any(|t| t.value() == value) {
                TagCopy::Same
            } else {
                TagCopy::Different
            }
        };
        copies.push(copy);
    }
    copies
}

/// Up to this many tags, [`tag_copies`] compares each tag's name with the earlier ones.
const TAGS_COMPARED_PAIRWISE: usize = 64;

/// [`tag_copies`] through a map of each name's values (any number of tags).
fn tag_copies_by_map(tags: &[pgn_parse::Tag<'_>]) -> Vec<TagCopy> {
    let mut seen: std::collections::HashMap<&[u8], Vec<std::borrow::Cow<'_, [u8]>>> =
        std::collections::HashMap::new();
    tags.iter()
        .map(|tag| {
            if tag.name == b"FEN" || tag.name == b"SetUp" {
                return TagCopy::First;
            }
            let value = tag.value();
            let values = seen.entry(tag.name).or_default();
            let copy = if values.is_empty() {
                TagCopy::First
            } else if values.contains(&value) {
                TagCopy::Same
            } else {
                TagCopy::Different
            };
            if copy != TagCopy::Same {
                values.push(value);
            }
            copy
        })
        .collect()
}

/// The result a game's Result tag gives (`Unknown` for `*`, an unreadable value or no tag).
pub fn result_tag(tags: &[pgn_parse::Tag<'_>]) -> GameResult {
    tags.iter()
        .find(|t| t.name == b"Result")
        .map_or(GameResult::Unknown, |t| GameResult::from_bytes(&t.value()))
}

/// Validates one game read whole (its structure, tags and every move); a start the file
/// does not give is looked for among the 960 (see [`FoundStart`]).
pub fn validate(game: &Game<'_>, opts: ValidateOptions) -> Verdict {
    let verdict = validate_from(game, opts, None);
    let castling_at = |offset: usize| {
        game.movetext.iter().any(|token| {
            matches!(token, Token::San { text, offset: at } if *at == offset && recover::is_castling(text))
        })
    };
    let Some(search) = recover::worth_recovering(&verdict, &game.tags, &opts, castling_at) else {
        return verdict;
    };
    let start = game.byte_range.start;
    recover::settle(verdict, search, &game.movetext, &opts, start, |found| {
        Some(validate_from(game, opts, Some(found)))
    })
}

/// Validates one game read whole, from `found` when given, else from its tags.
fn validate_from(game: &Game<'_>, opts: ValidateOptions, found: Option<FoundStart>) -> Verdict {
    if let Some(rejection) = truncation(game.movetext_end, &game.byte_range, &game.tags) {
        return Verdict::Invalid(rejection);
    }
    let mut replay = match Replay::start_from(&game.tags, game.byte_range.start, opts, found) {
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
            Token::Comment { text, .. } => replay.comment(text),
            Token::Nag(_) | Token::Suffix(_) => replay.other_token(),
        }
        if replay.has_failed() {
            break;
        }
    }
    replay.finish(&game.tags)
}

#[cfg(test)]
mod tag_copy_tests {
    use super::*;
    use crate::test_rng::Rng;
    use pgn_parse::Tag;

    const NAMES: [&[u8]; 6] = [b"White", b"Event", b"FEN", b"SetUp", b"X", b"white"];
    const VALUES: [&[u8]; 5] = [b"a", b"b", br#"a\"b"#, br#"a"b"#, b""];

    fn random_tags(rng: &mut Rng, n: usize) -> Vec<Tag<'static>> {
        (0..n)
            .map(|i| Tag {
                name: NAMES[rng.index(NAMES.len())],
                raw_value: VALUES[rng.index(VALUES.len())],
                offset: i,
            })
            .collect()
    }

    #[test]
    fn tags_compared_pairwise_stand_as_the_map_says() {
        let mut rng = Rng(0x7a95_c0b1);
        let mut kinds = [0usize; 3];
        for _ in 0..20_000 {
            let n = rng.index(TAGS_COMPARED_PAIRWISE + 1);
            let tags = random_tags(&mut rng, n);
            let pairwise = tag_copies(&tags);
            assert_eq!(pairwise, tag_copies_by_map(&tags), "{tags:?}");
            for copy in pairwise {
                kinds[copy as usize] += 1;
            }
        }
        assert!(
            kinds.iter().all(|&k| k > 1000),
            "every kind drawn: {kinds:?}"
        );
        // Past the bound, the map.
        let tags = random_tags(&mut rng, 500);
        assert_eq!(tag_copies(&tags), tag_copies_by_map(&tags));
    }
}
