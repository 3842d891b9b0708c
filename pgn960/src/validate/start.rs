//! Working out a game's rules and start position from its tags, once all tags are read.

use super::reason::{RejectReason, Repair};
use super::variant::{classify_variant, VariantTag};
use super::GameKind;
use chess960_core::{
    BackRank, CastlingToken, FenRepair, Position, Setup, StartClassification, StartKind,
};
use pgn_parse::Tag;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::cell::RefCell;

/// The tags that decide a game's rules, as read from the file (values decoded; borrowed
/// from the input when they need no unescaping).
#[derive(Debug, Default, Clone)]
pub struct RuleTags<'t> {
    /// Every `FEN` tag, in file order.
    pub fens: Vec<Cow<'t, str>>,
    /// The `Variant` tag, if any (the first).
    pub variant: Option<Cow<'t, str>>,
    /// The `SetUp` tag, if any (the first).
    pub setup: Option<Cow<'t, str>>,
    /// Why a Parquet row holds no game (the [`ROW_ERROR_TAG`] tag the row's text carries).
    pub row_error: Option<Cow<'t, str>>,
    /// The value of each of the tags that may name the start when the FEN tag does not
    /// (the first of each name, in the order of [`START_TAGS`]).
    pub start_tags: [Option<Cow<'t, str>>; 4],
}

/// The tags other than `FEN` read for the start of a game without a usable FEN tag: an SP
/// number (`518`), a white back rank (`RNBQKBNR`) or a start position's X-FEN/Shredder-FEN;
/// `Opening` only as a back rank (CCRL, lc0 #786: `[Opening "NBRKQRBN"]`).
pub const START_TAGS: [&str; 4] = ["SP", "Chess960", "StartPosition", "Opening"];

/// The tag a Parquet row that holds no game is given in the text built from it (the game
/// is then rejected as [`RejectReason::BadRow`] with the tag's value as the detail).
pub const ROW_ERROR_TAG: &str = "Pgn960RowError";

/// How a [`ROW_ERROR_TAG`] value begins for a row larger than `--max-game-bytes`: the game
/// is then rejected as [`RejectReason::TooLarge`].
pub const ROW_TOO_LARGE: &str = "a row of more than";

/// How a [`ROW_ERROR_TAG`] value begins for a Parquet row in a data page too large to
/// decompress: also [`RejectReason::TooLarge`].
pub const ROW_IN_LARGE_PAGE: &str = "a row in a Parquet page of more than";

impl<'t> RuleTags<'t> {
    /// Picks the rule tags out of a game's tags.
    pub fn from_tags(game_tags: &'t [Tag<'_>]) -> RuleTags<'t> {
        let mut tags = RuleTags::default();
        for tag in game_tags {
            match tag.name {
                b"FEN" => tags.fens.push(tag.value_str()),
                b"Variant" if tags.variant.is_none() => tags.variant = Some(tag.value_str()),
                b"SetUp" if tags.setup.is_none() => tags.setup = Some(tag.value_str()),
                name if name == ROW_ERROR_TAG.as_bytes() => tags.row_error = Some(tag.value_str()),
                b"SP" => first_value(&mut tags.start_tags[0], tag),
                b"Chess960" => first_value(&mut tags.start_tags[1], tag),
                b"StartPosition" => first_value(&mut tags.start_tags[2], tag),
                b"Opening" => first_value(&mut tags.start_tags[3], tag),
                _ => {}
            }
        }
        tags
    }
}

/// A game's rules and start position.
#[derive(Debug, Clone)]
pub struct Start {
    /// Chess960 or standard.
    pub kind: GameKind,
    /// The position before the first move.
    pub position: Position,
    /// Whether the start is a (Double) Chess960 start position.
    pub class: StartClassification,
    /// Whether the game had a FEN tag.
    pub had_fen: bool,
}

/// What a game's tags say its start is (for [`crate::select::Selection::check_start`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaggedStart {
    /// A game of chess: its rules and start.
    Chess(GameKind, chess960_core::StartKind),
    /// Another variant.
    Other,
}

/// What a game without a `Variant` tag is played under (`--variant`); Double Chess960,
/// declared for a whole archive, also says what a game tagged Chess960 is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MissingVariant {
    /// Worked out from the FEN: Chess960 when it is a non-classical start position, its
    /// castling field uses file letters, or its rights cannot be written `KQkq`; else
    /// classical chess.
    #[default]
    Detect,
    /// Chess960, for archives that never write the tag (the lichess Chess960 dataset). A
    /// game without a FEN tag then starts from SP 518.
    Chess960,
    /// Double Chess960, for archives of it tagged Chess960 (TCEC's `fischerandom`) or not
    /// at all: such a game is Double Chess960, so a start not in the file is searched among
    /// the 921,600 (white SP, black SP) pairs, never among the 960 alone; a game with
    /// neither a Variant nor a FEN tag has an unknown start.
    DoubleChess960,
}

/// Why the tags alone make a game invalid: the reason and a sentence for the user.
pub type TagProblem = (RejectReason, String);

/// Either the game's rules, or why it is not a game of chess we check.
#[derive(Debug)]
pub enum StartOutcome {
    /// A Chess960 or standard game.
    Chess(Start),
    /// Another variant: passed through untouched.
    Unsupported(String),
}

fn castling_uses_file_letters(setup: &Setup) -> bool {
    setup
        .castling
        .iter()
        .any(|t| matches!(t, CastlingToken::File(..)))
}

/// A FEN tag's reading, kept for the next game with the same text: the position, whether
/// its castling field used file letters, and the repairs reading it made.
struct ReadFen {
    position: Position,
    uses_files: bool,
    /// The position's start classification (what a game from it is: 2,000 instructions).
    class: StartClassification,
    repairs: Vec<Repair>,
}

/// The FEN texts kept per thread at most (a lichess Chess960 archive has 960 start FENs);
/// the cache is emptied when full.
const FEN_CACHE_ENTRIES: usize = 2048;

/// The longest FEN text kept (a FEN of a legal position has fewer than 100 bytes).
const FEN_CACHE_TEXT: usize = 128;

thread_local! {
    /// The FEN texts this thread read without error, with their reading.
    static FEN_CACHE: RefCell<FxHashMap<Box<str>, ReadFen>> = RefCell::new(FxHashMap::default());
}

/// Reads one FEN tag value into a position, collecting repairs: as [`read_fen`], from the
/// thread's cache when the same text was read before (the start FEN of a Chess960 game is
/// the same text for the same start position; reading it was about 4,000 instructions).
fn position_from_fen(
    text: &str,
    repairs: &mut Vec<Repair>,
) -> Result<(Position, bool, StartClassification), TagProblem> {
    let cached = FEN_CACHE.with_borrow(|cache| {
        cache.get(text).map(|read| {
            repairs.extend(read.repairs.iter().cloned());
            (read.position.clone(), read.uses_files, read.class)
        })
    });
    if let Some(found) = cached {
        return Ok(found);
    }
    let mut made = Vec::new();
    let (position, uses_files) = read_fen(text, &mut made)?;
    let class = position.classify_start();
    if text.len() <= FEN_CACHE_TEXT {
        FEN_CACHE.with_borrow_mut(|cache| {
            if cache.len() >= FEN_CACHE_ENTRIES {
                cache.clear();
            }
            let read = ReadFen {
                position: position.clone(),
                uses_files,
                class,
                repairs: made.clone(),
            };
            cache.insert(text.into(), read);
        });
    }
    repairs.append(&mut made);
    Ok((position, uses_files, class))
}

/// Reads one FEN tag value into a position, collecting repairs.
fn read_fen(text: &str, repairs: &mut Vec<Repair>) -> Result<(Position, bool), TagProblem> {
    let trimmed = text.trim();
    if unknown_fen(trimmed) {
        return Err((
            RejectReason::UnknownStartPosition,
            format!(
                "FEN tag {} does not name a position",
                super::quoted(trimmed)
            ),
        ));
    }
    // An EPD line's terminator copied along with the FEN (`... 0 1;`, as in Stockfish's
    // `startpos_chess960.epd`) is read past, as `pgn960 xfen` reads such lines.
    let fen = match trimmed.strip_suffix(';') {
        Some(fen) => {
            repairs.push(Repair::FenSemicolonDropped);
            fen.trim_end()
        }
        None => trimmed,
    };
    let setup = Setup::from_ascii(fen.as_bytes()).map_err(|e| {
        (
            RejectReason::BadFen,
            format!("{e} in FEN {}", super::quoted(trimmed)),
        )
    })?;
    let uses_files = castling_uses_file_letters(&setup);
    let (mut position, fen_repairs) = Position::from_setup_lenient(&setup).map_err(|e| {
        (
            RejectReason::BadFen,
            format!("{e} in FEN {}", super::quoted(trimmed)),
        )
    })?;
    let mut dropped_castling = false;
    for repair in fen_repairs {
        match repair {
            FenRepair::DroppedCastling(_) => dropped_castling = true,
            FenRepair::DroppedEnPassant(sq) => {
                repairs.push(Repair::ImpossibleEnPassantDropped(sq.to_string()))
            }
        }
    }
    if dropped_castling {
        let class = position.classify_start();
        if class.kind != StartKind::NotAStart {
            // Real dumps (lichess 2023-11) carry start positions whose castling letters name
            // files without rooks: a start position has full rights.
            position = position.with_outermost_castling_rights();
            repairs.push(Repair::StartCastlingRestored);
        } else {
            repairs.push(Repair::ImpossibleCastlingDropped);
        }
    }
    Ok((position, uses_files))
}

/// Keeps a tag's value in `slot` unless an earlier tag of its name filled it.
fn first_value<'t>(slot: &mut Option<Cow<'t, str>>, tag: &'t Tag<'_>) {
    if slot.is_none() {
        *slot = Some(tag.value_str());
    }
}

/// The start a tag other than `FEN` names: the first of [`START_TAGS`] that names one, with
/// the tag's name.
pub(super) fn start_from_tags(tags: &RuleTags<'_>) -> Option<(&'static str, Position)> {
    START_TAGS
        .iter()
        .zip(&tags.start_tags)
        .find_map(|(name, value)| {
            let position = start_from_tag_value(name, value.as_deref()?.trim())?;
            Some((*name, position))
        })
}

/// The start one start tag's value names: an SP number, a back rank, or (not for `Opening`)
/// the FEN of a Chess960 or Double Chess960 start.
fn start_from_tag_value(name: &str, value: &str) -> Option<Position> {
    let opening = name == "Opening";
    if !opening && !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return value.parse().ok().and_then(|sp| Position::from_sp(sp).ok());
    }
    if value.len() == 8 {
        let sp = value.parse::<BackRank>().ok()?.sp().ok()?;
        return Position::from_sp(sp).ok();
    }
    if opening || !value.contains('/') {
        return None;
    }
    let (position, _, _) = position_from_fen(value, &mut Vec::new()).ok()?;
    (position.classify_start().kind != StartKind::NotAStart).then_some(position)
}

/// Whether a FEN tag value says the start is unknown (`?`, `-`, empty).
fn unknown_fen(text: &str) -> bool {
    matches!(text.trim(), "" | "?" | "-")
}

/// Whether two positions are the same for the purpose of duplicate FEN tags (clocks ignored).
fn same_position(a: &Position, b: &Position) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castling_rights() == b.castling_rights()
        && a.ep_square() == b.ep_square()
}

/// Decides the rules and start position of a game from its tags; `missing` says what a
/// game without a `Variant` tag is.
pub fn resolve_start(
    tags: &RuleTags<'_>,
    missing: MissingVariant,
    repairs: &mut Vec<Repair>,
) -> Result<StartOutcome, TagProblem> {
    let variant = tags
        .variant
        .as_deref()
        .map(classify_variant)
        .unwrap_or(VariantTag::Absent);
    if let Some(why) = &tags.row_error {
        return Err(row_problem(why));
    }
    if let VariantTag::Other(name) = variant {
        // Named in reports and counted by name: a long name is cut.
        return Ok(StartOutcome::Unsupported(
            super::cut_text(&name, 2 * super::QUOTE_LIMIT).into_owned(),
        ));
    }
    let assumed_chess960 = variant == VariantTag::Absent && missing != MissingVariant::Detect;
    let chess960 = variant == VariantTag::Chess960 || assumed_chess960;
    if tags.fens.first().is_none_or(|fen| unknown_fen(fen)) {
        if let Some((tag, position)) = start_from_tags(tags) {
            repairs.push(Repair::StartFromTag { tag });
            return Ok(StartOutcome::Chess(chess_start(
                chess960, position, false, false,
            )));
        }
    }
    let Some((first, others)) = tags.fens.split_first() else {
        return start_without_fen(tags, variant, missing);
    };
    let (position, uses_files, class) = position_from_fens(first, others, repairs)?;
    Ok(StartOutcome::Chess(classified_start(
        chess960, position, class, uses_files, true,
    )))
}

/// Why a Parquet row that holds no game is rejected (its [`ROW_ERROR_TAG`] value `why`).
fn row_problem(why: &str) -> TagProblem {
    let reason = if why.starts_with(ROW_TOO_LARGE) || why.starts_with(ROW_IN_LARGE_PAGE) {
        RejectReason::TooLarge
    } else {
        RejectReason::BadRow
    };
    (reason, why.to_string())
}

/// The start of a game from `position`, its rules by [`game_kind`].
fn chess_start(tagged: bool, position: Position, uses_files: bool, had_fen: bool) -> Start {
    let class = position.classify_start();
    classified_start(tagged, position, class, uses_files, had_fen)
}

/// As [`chess_start`], with the position's classification `class` given.
fn classified_start(
    tagged: bool,
    position: Position,
    class: StartClassification,
    uses_files: bool,
    had_fen: bool,
) -> Start {
    Start {
        kind: game_kind(tagged, &position, class, uses_files),
        position,
        class,
        had_fen,
    }
}

/// The start of a game with no FEN tag and no start-position tag: unknown for a game
/// tagged Chess960 or, untagged, declared Double Chess960; else the classical start
/// (Chess960 rules when `missing` says an untagged game is Chess960).
fn start_without_fen(
    tags: &RuleTags<'_>,
    variant: VariantTag,
    missing: MissingVariant,
) -> Result<StartOutcome, TagProblem> {
    let untagged = variant == VariantTag::Absent;
    let declared_double = untagged && missing == MissingVariant::DoubleChess960;
    if variant == VariantTag::Chess960 || declared_double {
        let why = if tags.setup.as_deref().map(str::trim) == Some("1") {
            "SetUp \"1\" without a FEN tag"
        } else if declared_double {
            "game without a Variant or FEN tag, read as Double Chess960 (--variant)"
        } else {
            "Chess960 game without a FEN tag"
        };
        return Err((RejectReason::UnknownStartPosition, why.into()));
    }
    let assumed_chess960 = untagged && missing == MissingVariant::Chess960;
    let position = Position::from_sp(518).map_err(|e| (RejectReason::BadFen, e.to_string()))?;
    let class = position.classify_start();
    Ok(StartOutcome::Chess(Start {
        kind: if assumed_chess960 {
            GameKind::Chess960
        } else {
            GameKind::Standard
        },
        position,
        class,
        had_fen: false,
    }))
}

/// The position of the `first` FEN tag and whether its castling field uses file letters;
/// the `others` must name the same position ([`Repair::DuplicateFenMerged`] each), else
/// the game is [`RejectReason::ConflictingFen`].
fn position_from_fens(
    first: &str,
    others: &[Cow<'_, str>],
    repairs: &mut Vec<Repair>,
) -> Result<(Position, bool, StartClassification), TagProblem> {
    let (position, uses_files, class) = position_from_fen(first, repairs)?;
    for other in others {
        let (other_position, _, _) = position_from_fen(other, &mut Vec::new())?;
        if !same_position(&position, &other_position) {
            return Err((
                RejectReason::ConflictingFen,
                format!(
                    "FEN tags disagree: {} and {}",
                    super::quoted(first.trim()),
                    super::quoted(other.trim())
                ),
            ));
        }
        repairs.push(Repair::DuplicateFenMerged);
    }
    Ok((position, uses_files, class))
}

/// The rules of a game that starts from `position`: Chess960 when `tagged` so, when the
/// start is a non-classical start position, its FEN's castling field used file letters, or
/// its rights cannot be written `KQkq`; else classical chess.
fn game_kind(
    tagged: bool,
    position: &Position,
    class: StartClassification,
    uses_files: bool,
) -> GameKind {
    let non_classical_start = match class.kind {
        StartKind::Chess960(n) => n != 518,
        StartKind::DoubleChess960 { .. } => true,
        StartKind::NotAStart => false,
    };
    if tagged || non_classical_start || uses_files || !position.castling_is_classical() {
        GameKind::Chess960
    } else {
        GameKind::Standard
    }
}

/// Whether a game is Double Chess960 (each side its own back rank): its `Variant` tag names
/// it, or `--variant double-chess960` (`missing`) declares the archive so and the game is
/// marked Chess960 (tagged so, or untagged).
pub fn marked_double_chess960(tags: &RuleTags<'_>, missing: MissingVariant) -> bool {
    let named = tags
        .variant
        .as_deref()
        .is_some_and(super::variant::names_double_chess960);
    named || (missing == MissingVariant::DoubleChess960 && marked_chess960(tags, missing))
}

/// Whether a game is marked Chess960: by its `Variant` tag, or, without one, by
/// `--variant chess960` or `double-chess960` (`missing`).
pub fn marked_chess960(tags: &RuleTags<'_>, missing: MissingVariant) -> bool {
    match tags.variant.as_deref().map(classify_variant) {
        Some(VariantTag::Chess960) => true,
        None | Some(VariantTag::Absent) => missing != MissingVariant::Detect,
        _ => false,
    }
}
