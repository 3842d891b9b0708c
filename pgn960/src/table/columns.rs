//! The columns of an exported table: their names, types and values, one definition for
//! every format.

use crate::annotations::Eval;
use crate::facts::speed_of;
use crate::validate::{MoveRecord, RejectReason, ValidGame, Verdict};
use pgn_parse::Tag;
use std::borrow::Cow;

/// How castling is written in the UCI columns (`export --uci-castling`).
///
/// ```
/// use chess960_core::Position;
/// use pgn960::table::columns::UciCastling;
///
/// let pos = Position::from_fen("rk5r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
/// let short = pos.parse_uci("e1h1").unwrap();
/// assert_eq!(UciCastling::KingTakesRook.uci(short).to_string(), "e1h1");
/// assert_eq!(UciCastling::KingTwoSquares.uci(short).to_string(), "e1g1");
/// // King on b1: no standard-chess squares, so king onto rook in both styles.
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/1K5R w K - 0 1").unwrap();
/// let short = pos.parse_uci("b1h1").unwrap();
/// assert_eq!(UciCastling::KingTwoSquares.uci(short).to_string(), "b1h1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UciCastling {
    /// The king onto its own rook (`e1h1`): UCI_Chess960, every castling.
    #[default]
    KingTakesRook,
    /// The standard-chess squares where they exist: a king castling from e1 (e8) with the
    /// rook on h1 or a1 (h8, a8) is written `e1g1`/`e1c1` (`e8g8`/`e8c8`), as an engine
    /// not in Chess960 mode reads it; every other castling, which has no standard-chess
    /// spelling, stays king onto rook. This is python-chess's
    /// `Board.uci(move, chess960=False)`.
    KingTwoSquares,
}

impl UciCastling {
    /// The move in UCI with castling written in this style.
    pub fn uci(self, m: chess960_core::Move) -> chess960_core::UciMove {
        use chess960_core::{CastlingNotation, Move, Square};
        let standard = |king, rook| match king {
            Square::E1 => rook == Square::A1 || rook == Square::H1,
            Square::E8 => rook == Square::A8 || rook == Square::H8,
            _ => false,
        };
        match (self, m) {
            (UciCastling::KingTwoSquares, Move::Castle { king, rook }) if standard(king, rook) => {
                m.to_uci(CastlingNotation::KingTwoSquares)
            }
            _ => m.to_uci(CastlingNotation::KingTakesRook),
        }
    }

    /// The style of an `--uci-castling` value: `king-takes-rook` or `king-two-squares`.
    pub fn from_name(name: &str) -> Option<UciCastling> {
        match name {
            "king-takes-rook" => Some(UciCastling::KingTakesRook),
            "king-two-squares" => Some(UciCastling::KingTwoSquares),
            _ => None,
        }
    }
}

/// The tag columns of a game table, in order, as the lichess dataset names them.
pub const TAG_COLUMNS: [&str; 16] = [
    "Event",
    "Site",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "UTCDate",
    "UTCTime",
    "Termination",
    "TimeControl",
    "FEN",
];

/// Tag columns written as integers (null when absent, `?` or not a number).
const INT_TAGS: [&str; 4] = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"];

/// The type of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// UTF-8 text.
    Text,
    /// 32-bit integer.
    Int32,
    /// 64-bit integer.
    Int64,
    /// 64-bit float.
    Float,
    /// true / false.
    Bool,
    /// A list of texts.
    TextList,
    /// A list of floats (elements may be null).
    FloatList,
    /// A list of 32-bit integers (elements may be null).
    Int32List,
}

impl Kind {
    /// The type as `docs/export.md` names it (Parquet / Arrow logical types).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Text => "string",
            Kind::Int32 => "int32",
            Kind::Int64 => "int64",
            Kind::Float => "double",
            Kind::Bool => "bool",
            Kind::TextList => "list<string>",
            Kind::FloatList => "list<double>",
            Kind::Int32List => "list<int32>",
        }
    }
}

/// What a column holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// A tag's value as written.
    Tag(String),
    /// A tag's value as an integer.
    IntTag(String),
    /// The SP number (white's, for Double Chess960); null when not a Chess960 start.
    Sp,
    /// Black's SP number (Double Chess960 only).
    BlackSp,
    /// `chess960`, `standard`, or the other variant's name.
    Variant,
    /// The start position in X-FEN.
    StartXfen,
    /// Main-line plies.
    Plies,
    /// Main-line moves in SAN.
    MovesSan,
    /// Main-line moves in UCI, castling written as asked.
    MovesUci(UciCastling),
    /// The final position in X-FEN.
    FinalXfen,
    /// How the final position ends the game.
    Outcome,
    /// Speed class from TimeControl.
    Speed,
    /// Seconds left after each ply.
    Clocks,
    /// Evaluations in pawns after each ply.
    Evals,
    /// Mate distances after each ply.
    EvalsMate,
    /// Seconds each ply took (elapsed move time).
    Emts,
    /// The engine's search depth for each ply.
    Depths,
    /// Whether the game is valid.
    Valid,
    /// Why not.
    Reason,
    /// Where the problem is.
    Location,
    /// The input.
    Source,
    /// Byte offset of the game (row number for Parquet inputs).
    Offset,
    /// The movetext as written.
    Movetext,
    /// Ply number (per-ply tables).
    Ply,
    /// X-FEN before the move.
    Xfen,
    /// The move in SAN.
    San,
    /// The move in UCI, castling written as asked.
    Uci(UciCastling),
    /// Clock after the move.
    Clock,
    /// Evaluation after the move, pawns.
    Eval,
    /// Mate distance after the move.
    EvalMate,
    /// Seconds the move took.
    Emt,
    /// The engine's search depth for the move.
    Depth,
    /// The game's result (corrected).
    GameResult,
}

impl Field {
    /// The column's type.
    pub fn kind(&self) -> Kind {
        match self {
            Field::IntTag(_) | Field::Offset => Kind::Int64,
            Field::Sp
            | Field::BlackSp
            | Field::Plies
            | Field::Ply
            | Field::EvalMate
            | Field::Depth => Kind::Int32,
            Field::MovesSan | Field::MovesUci(_) => Kind::TextList,
            Field::Clocks | Field::Evals | Field::Emts => Kind::FloatList,
            Field::EvalsMate | Field::Depths => Kind::Int32List,
            Field::Clock | Field::Eval | Field::Emt => Kind::Float,
            Field::Valid => Kind::Bool,
            _ => Kind::Text,
        }
    }
}

/// A column: its name and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The name in the table.
    pub name: String,
    /// What it holds.
    pub field: Field,
}

fn column(name: &str, field: Field) -> Column {
    Column {
        name: name.to_string(),
        field,
    }
}

fn tag_column(name: &str) -> Column {
    if INT_TAGS.contains(&name) {
        column(name, Field::IntTag(name.to_string()))
    } else {
        column(name, Field::Tag(name.to_string()))
    }
}

/// Every column of a game table, in order: the tag columns, `extra_tags`, the computed
/// columns, and `movetext` when asked. An extra tag that is a tag column already is left
/// out; one whose name another column has, whatever the case, is named `NAME_tag`.
pub fn game_columns(extra_tags: &[String], movetext: bool) -> Vec<Column> {
    let mut computed = vec![
        column("sp", Field::Sp),
        column("black_sp", Field::BlackSp),
        column("variant", Field::Variant),
        column("start_xfen", Field::StartXfen),
        column("plies", Field::Plies),
        column("moves_san", Field::MovesSan),
        column("moves_uci", Field::MovesUci(UciCastling::default())),
        column("final_xfen", Field::FinalXfen),
        column("outcome", Field::Outcome),
        column("speed", Field::Speed),
        column("clocks", Field::Clocks),
        column("evals", Field::Evals),
        column("evals_mate", Field::EvalsMate),
        column("emts", Field::Emts),
        column("depths", Field::Depths),
        column("valid", Field::Valid),
        column("reason", Field::Reason),
        column("location", Field::Location),
        column("source", Field::Source),
        column("offset", Field::Offset),
    ];
    if movetext {
        computed.push(column("movetext", Field::Movetext));
    }
    let mut columns: Vec<Column> = TAG_COLUMNS.iter().map(|t| tag_column(t)).collect();
    push_tag_columns(&mut columns, extra_tags, &computed);
    columns.extend(computed);
    columns
}

/// Appends a column for each of `tags` that is not a tag column of `columns` already. A
/// tag whose name a column of `columns` or `computed` has, whatever the case (DuckDB and
/// polars match column names without case), is named `NAME_tag` (`NAME_tag2`, ...): no
/// two columns of a table share a name.
fn push_tag_columns(columns: &mut Vec<Column>, tags: &[String], computed: &[Column]) {
    for tag in tags {
        let is_tag = |c: &Column| matches!(&c.field, Field::Tag(t) | Field::IntTag(t) if t == tag);
        if columns.iter().any(is_tag) || computed.iter().any(is_tag) {
            continue;
        }
        let taken = |name: &str| {
            columns
                .iter()
                .chain(computed)
                .any(|c| c.name.eq_ignore_ascii_case(name))
        };
        let mut column = tag_column(tag);
        if taken(&column.name) {
            let mut n = 1;
            column.name = format!("{tag}_tag");
            while taken(&column.name) {
                n += 1;
                column.name = format!("{tag}_tag{n}");
            }
        }
        columns.push(column);
    }
}

/// Every column of a per-ply table: the game key (`source`, `offset`), the ply, the
/// position before the move, the move, the clock and evaluation after it, the game's
/// result and SP, then `extra_tags` and `movetext` when asked.
pub fn ply_columns(extra_tags: &[String], movetext: bool) -> Vec<Column> {
    let mut columns = vec![
        column("source", Field::Source),
        column("offset", Field::Offset),
        column("ply", Field::Ply),
        column("xfen", Field::Xfen),
        column("san", Field::San),
        column("uci", Field::Uci(UciCastling::default())),
        column("clock", Field::Clock),
        column("eval", Field::Eval),
        column("eval_mate", Field::EvalMate),
        column("emt", Field::Emt),
        column("depth", Field::Depth),
        column("result", Field::GameResult),
        column("sp", Field::Sp),
    ];
    let text = [column("movetext", Field::Movetext)];
    push_tag_columns(&mut columns, extra_tags, if movetext { &text } else { &[] });
    if movetext {
        columns.extend(text);
    }
    columns
}

/// Picks `names` out of `all`, in the order given; an unknown name is an error that lists
/// the known ones.
pub fn select(all: Vec<Column>, names: &[String]) -> Result<Vec<Column>, String> {
    if names.is_empty() {
        return Ok(all);
    }
    names
        .iter()
        .map(|name| {
            all.iter()
                .find(|c| &c.name == name)
                .cloned()
                .ok_or_else(|| {
                    let known: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
                    format!("unknown column {name:?} (columns: {})", known.join(", "))
                })
        })
        .collect()
}

/// A list value: which list of a game's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveList {
    /// SAN.
    San,
    /// UCI, castling written as asked.
    Uci(UciCastling),
    /// Clocks.
    Clocks,
    /// Evaluations in pawns (mates null).
    Evals,
    /// Mate distances (other evaluations null).
    EvalsMate,
    /// Elapsed move times.
    Emts,
    /// Search depths.
    Depths,
}

/// One value of a row.
#[derive(Debug, Clone)]
pub enum Value<'a> {
    /// Null.
    Null,
    /// Text.
    Text(Cow<'a, str>),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A list over a game's moves.
    Moves(&'a [MoveRecord], MoveList),
    /// One move's text (SAN or UCI, [`MoveList::text`]): written where it goes, no
    /// `String` per move.
    Move(&'a MoveRecord, MoveList),
}

/// A move's text on the stack: a SAN or UCI move is at most a few bytes.
pub struct MoveText {
    bytes: [u8; 16],
    len: usize,
}

impl MoveText {
    /// The text of `bytes` (a SAN or UCI move: ASCII, at most 16 bytes; longer is cut).
    fn of(bytes: &[u8]) -> MoveText {
        let mut text = MoveText {
            bytes: [0; 16],
            len: bytes.len().min(16),
        };
        text.bytes[..text.len].copy_from_slice(&bytes[..text.len]);
        text
    }
}

impl std::ops::Deref for MoveText {
    type Target = str;
    fn deref(&self) -> &str {
        // Only ASCII moves are copied in.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl MoveList {
    /// The text of a move (SAN, UCI lists).
    pub fn text(self, m: &MoveRecord) -> MoveText {
        match self {
            MoveList::Uci(castling) => {
                let (bytes, len) = castling.uci(m.chess_move).to_ascii();
                MoveText::of(&bytes[..len])
            }
            _ => MoveText::of(m.san.to_ascii().as_bytes()),
        }
    }

    /// Appends the text of a move (SAN, UCI lists) to `out`: the bytes straight from the
    /// stack, as [`MoveList::text`] without its copy.
    pub fn append_text(self, m: &MoveRecord, out: &mut Vec<u8>) {
        match self {
            MoveList::Uci(castling) => {
                let (bytes, len) = castling.uci(m.chess_move).to_ascii();
                append_padded(out, &bytes, len);
            }
            _ => {
                let text = m.san.to_ascii();
                let (bytes, len) = text.padded();
                append_padded(out, bytes, len);
            }
        }
    }

    /// A number that stands for the text of a move (SAN, UCI lists): two moves of one list
    /// have the same code exactly when [`MoveList::text`] gives them the same text. Made
    /// from the move's fields, no text written: a UCI code is below [`UCI_CODES`], a SAN
    /// code below 2^23.
    #[inline]
    pub fn code(self, m: &MoveRecord) -> u32 {
        match self {
            MoveList::Uci(castling) => uci_code(castling, m.chess_move),
            _ => san_code(m.san),
        }
    }

    /// The number of a move (clock, evaluation, move time lists).
    pub fn float(self, m: &MoveRecord) -> Option<f64> {
        match (self, m.annotations.eval) {
            (MoveList::Clocks, _) => m.annotations.clock,
            (MoveList::Evals, Some(Eval::Pawns(p))) => Some(p),
            (MoveList::Emts, _) => m.annotations.emt,
            _ => None,
        }
    }

    /// The integer of a move (mate distance, depth lists).
    pub fn int(self, m: &MoveRecord) -> Option<i32> {
        match (self, m.annotations.eval) {
            (MoveList::EvalsMate, Some(Eval::Mate(n))) => Some(n),
            (MoveList::Depths, _) => m.annotations.depth.map(i32::from),
            _ => None,
        }
    }
}

/// The UCI codes: from, to and promotion, 15 bits.
pub const UCI_CODES: usize = 1 << 15;

/// The code of a move's UCI text: its origin, target and promotion (the text's three
/// parts; castling through [`UciCastling::uci`], whose text is a king's move too).
#[inline]
fn uci_code(castling: UciCastling, m: chess960_core::Move) -> u32 {
    use chess960_core::{Move, Role, Square};
    let pack = |from: Square, to: Square, promotion: Option<Role>| {
        let promotion = promotion.map_or(0, |r| r.index() as u32 + 1);
        from.index() as u32 | (to.index() as u32) << 6 | promotion << 12
    };
    match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => pack(from, to, promotion),
        Move::EnPassant { from, to } => pack(from, to, None),
        Move::Castle { .. } => {
            let uci = castling.uci(m);
            pack(uci.from, uci.to, uci.promotion)
        }
    }
}

/// The code of a SAN's text: each part the text writes (role, file, rank, capture, target,
/// promotion; castling side; null) in a field of its own, and the suffix.
#[inline]
fn san_code(san: chess960_core::SanPlus) -> u32 {
    use chess960_core::{San, SanSuffix};
    let suffix = match san.suffix {
        None => 0,
        Some(SanSuffix::Check) => 1,
        Some(SanSuffix::Checkmate) => 2,
    };
    // Bits 0-2: the role (6: castling, 7: null); then file and rank (8: none), capture,
    // target (the castling side), promotion (0: none), suffix.
    let move_bits = match san.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            role.index() as u32
                | u32::from(file.map_or(8, |f| f.index())) << 3
                | u32::from(rank.map_or(8, |r| r.index())) << 7
                | u32::from(capture) << 11
                | (to.index() as u32) << 12
                | promotion.map_or(0, |r| r.index() as u32 + 1) << 18
        }
        San::Castle(side) => 6 | (side as u32) << 12,
        San::Null => 7,
    };
    move_bits | suffix << 21
}

/// Appends the first `len` bytes of `bytes` to `out`: the whole array is copied (a copy
/// of fixed size, made inline) and the rest cut off, where a copy of `len` bytes is a call
/// to `memcpy` for every move.
#[inline]
fn append_padded<const N: usize>(out: &mut Vec<u8>, bytes: &[u8; N], len: usize) {
    let end = out.len() + len.min(N);
    out.extend_from_slice(bytes);
    out.truncate(end);
}

/// Which of a game's per-move annotation lists (clocks, evaluations, move times, depths)
/// have a value at some move: a list without any is null. Found in one pass over the
/// moves ([`Annotated::of`]), where each list's column scanned them again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Annotated(u8);

impl Annotated {
    /// The lists of `moves` that have a value.
    pub fn of(moves: &[MoveRecord]) -> Annotated {
        Annotated(moves.iter().fold(0, |bits, m| {
            let a = &m.annotations;
            bits | u8::from(a.clock.is_some())
                | u8::from(a.eval.is_some()) << 1
                | u8::from(a.emt.is_some()) << 2
                | u8::from(a.depth.is_some()) << 3
        }))
    }

    /// Whether list `which` has a value (always, for the SAN and UCI lists).
    fn has(self, which: MoveList) -> bool {
        let bit = match which {
            MoveList::Clocks => 1,
            MoveList::Evals | MoveList::EvalsMate => 2,
            MoveList::Emts => 4,
            MoveList::Depths => 8,
            MoveList::San | MoveList::Uci(_) => return true,
        };
        self.0 & bit != 0
    }
}

/// A game as the columns see it.
pub struct GameView<'a> {
    /// Its tags.
    pub tags: &'a [Tag<'a>],
    /// Its verdict.
    pub verdict: &'a Verdict,
    /// The input's name.
    pub source: &'a str,
    /// Byte offset (PGN) or row (Parquet).
    pub offset: u64,
    /// Where the problem is, for a rejected game.
    pub location: Option<String>,
    /// The game's bytes.
    pub text: &'a [u8],
    /// The absolute offset of the game's first byte (tag offsets are absolute).
    pub start: usize,
    /// Which annotation lists of a valid game's moves have a value (read by the list
    /// columns: none when the table has none of them).
    pub annotated: Annotated,
}

/// One ply of a game, for per-ply tables.
pub struct PlyView<'a> {
    /// 1-based ply number.
    pub ply: u32,
    /// The position before the move, X-FEN.
    pub xfen: &'a str,
    /// The move.
    pub record: &'a MoveRecord,
}

/// The outcome name of a termination (`checkmate`, `fifty-moves`, ...).
pub fn outcome_name(t: chess960_core::Termination) -> &'static str {
    use chess960_core::Termination as T;
    match t {
        T::Checkmate => "checkmate",
        T::Stalemate => "stalemate",
        T::InsufficientMaterial => "insufficient-material",
        T::SeventyFiveMoves => "seventy-five-moves",
        T::FivefoldRepetition => "fivefold-repetition",
        T::FiftyMoves => "fifty-moves",
        T::ThreefoldRepetition => "threefold-repetition",
    }
}

fn tag<'a>(tags: &'a [Tag<'a>], name: &str) -> Option<Cow<'a, str>> {
    find_tag(tags, name).map(|t| t.value_str())
}

/// The tag named `name` among a game's tags (the first, as every column reads it).
#[inline]
pub(crate) fn find_tag<'a, 'b>(tags: &'b [Tag<'a>], name: &str) -> Option<&'b Tag<'a>> {
    tags.iter().find(|t| t.name == name.as_bytes())
}

/// The tag's value as it is when that is its text ([`Tag::value_str`]): ASCII without a
/// backslash (no escape, no decoding), tested in one pass without early exits; `None`
/// for any other value.
#[inline]
pub(crate) fn plain_tag<'a>(tag: &Tag<'a>) -> Option<&'a [u8]> {
    let raw = tag.raw_value;
    let odd = raw
        .iter()
        .fold(false, |odd, &b| odd | (b >= 0x80) | (b == b'\\'));
    (!odd).then_some(raw)
}

/// An integer tag's value: its text trimmed and read as an `i64` (`+5` is 5), `None`
/// when that is not a number. A plain value ([`plain_tag`]) is read from its bytes.
pub(crate) fn int_tag(tag: &Tag<'_>) -> Option<i64> {
    match plain_tag(tag) {
        Some(raw) => ascii_int(trim_ascii(raw)),
        None => tag.value_str().trim().parse::<i64>().ok(),
    }
}

/// `raw` without the leading and trailing bytes `str::trim` removes from ASCII text.
fn trim_ascii(raw: &[u8]) -> &[u8] {
    let space = |b: &u8| matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ');
    let start = raw.iter().position(|b| !space(b)).unwrap_or(raw.len());
    let end = raw.iter().rposition(|b| !space(b)).map_or(start, |e| e + 1);
    &raw[start..end.max(start)]
}

/// ASCII text read as `i64::from_str` reads it: a `+` or `-`, then one digit or more,
/// within range.
fn ascii_int(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i64 = 0;
    for &d in digits {
        let digit = i64::from(d.wrapping_sub(b'0'));
        if digit > 9 {
            return None;
        }
        n = n.checked_mul(10)?;
        n = if negative {
            n.checked_sub(digit)?
        } else {
            n.checked_add(digit)?
        };
    }
    Some(n)
}

/// The movetext of a game's bytes: what follows the line of its last tag, trimmed.
fn movetext<'a>(view: &GameView<'a>) -> Cow<'a, str> {
    let text = view.text;
    let start = match view.tags.last() {
        None => 0,
        Some(last) => {
            let from = last.offset.saturating_sub(view.start).min(text.len());
            text[from..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(text.len(), |i| from + i + 1)
        }
    };
    String::from_utf8_lossy(text[start..].trim_ascii())
}

/// The list `which` of a valid game's moves; null when no move has a value in it.
fn move_list<'a>(valid: Option<&'a ValidGame>, annotated: Annotated, which: MoveList) -> Value<'a> {
    match valid {
        Some(v) if annotated.has(which) => Value::Moves(&v.moves, which),
        _ => Value::Null,
    }
}

/// A position's X-FEN, as its `Display` writes it, in one string of the right size: no
/// formatter, no string grown on the way.
fn xfen(position: &chess960_core::Position) -> String {
    let mut text = String::with_capacity(112);
    position
        .fen(chess960_core::CastlingStyle::Xfen)
        .append_to(&mut text);
    text
}

/// The value of `field` for a game (and one of its plies, for per-ply tables).
pub fn value<'a>(field: &Field, game: &'a GameView<'a>, ply: Option<&PlyView<'a>>) -> Value<'a> {
    let valid: Option<&'a ValidGame> = game.verdict.valid();
    let int = |n: Option<u16>| n.map_or(Value::Null, |n| Value::Int(i64::from(n)));
    match field {
        Field::Tag(name) => tag(game.tags, name).map_or(Value::Null, Value::Text),
        Field::IntTag(name) => find_tag(game.tags, name)
            .and_then(int_tag)
            .map_or(Value::Null, Value::Int),
        Field::Sp => int(valid.and_then(ValidGame::sp)),
        Field::BlackSp => int(valid.and_then(ValidGame::black_sp)),
        Field::Variant => match game.verdict {
            Verdict::Valid(v) => Value::Text(Cow::Borrowed(v.kind.name())),
            Verdict::Unsupported(name) => Value::Text(Cow::Borrowed(name)),
            Verdict::Invalid(_) => Value::Null,
        },
        Field::StartXfen => valid.map_or(Value::Null, |v| Value::Text(xfen(&v.start).into())),
        Field::Plies => valid.map_or(Value::Null, |v| Value::Int(i64::from(v.plies))),
        Field::MovesSan => valid.map_or(Value::Null, |v| Value::Moves(&v.moves, MoveList::San)),
        Field::MovesUci(castling) => valid.map_or(Value::Null, |v| {
            Value::Moves(&v.moves, MoveList::Uci(*castling))
        }),
        Field::FinalXfen => valid.map_or(Value::Null, |v| Value::Text(xfen(&v.end).into())),
        Field::Outcome => valid
            .and_then(|v| v.termination)
            .map_or(Value::Null, |t| Value::Text(Cow::Borrowed(outcome_name(t)))),
        Field::Speed => tag(game.tags, "TimeControl")
            .and_then(|tc| speed_of(&tc))
            .map_or(Value::Null, |s| Value::Text(Cow::Borrowed(s.name()))),
        Field::Clocks => move_list(valid, game.annotated, MoveList::Clocks),
        Field::Evals => move_list(valid, game.annotated, MoveList::Evals),
        Field::EvalsMate => move_list(valid, game.annotated, MoveList::EvalsMate),
        Field::Emts => move_list(valid, game.annotated, MoveList::Emts),
        Field::Depths => move_list(valid, game.annotated, MoveList::Depths),
        Field::Valid => Value::Bool(valid.is_some()),
        Field::Reason => match game.verdict {
            Verdict::Valid(_) => Value::Null,
            Verdict::Unsupported(_) => Value::Text(Cow::Borrowed("unsupported-variant")),
            Verdict::Invalid(r) => Value::Text(Cow::Borrowed(r.reason.name())),
        },
        Field::Location => game
            .location
            .as_deref()
            .map_or(Value::Null, |l| Value::Text(Cow::Borrowed(l))),
        Field::Source => Value::Text(Cow::Borrowed(game.source)),
        Field::Offset => Value::Int(i64::try_from(game.offset).unwrap_or(i64::MAX)),
        // A game without movetext (`no-moves`) has none: null, which a reader of the table
        // keeps rejected (`bad-row`), where "" with a result would read as a game.
        Field::Movetext => match &game.verdict {
            Verdict::Invalid(r) if r.reason == RejectReason::NoMoves => Value::Null,
            _ => Value::Text(movetext(game)),
        },
        Field::GameResult => valid.map_or(Value::Null, |v| {
            Value::Text(Cow::Borrowed(v.result.as_str()))
        }),
        Field::Ply
        | Field::Xfen
        | Field::San
        | Field::Uci(_)
        | Field::Clock
        | Field::Eval
        | Field::EvalMate
        | Field::Emt
        | Field::Depth => ply.map_or(Value::Null, |p| ply_value(field, p)),
    }
}

/// The value of a per-ply field at one ply (null for a game field: never asked).
fn ply_value<'a>(field: &Field, p: &PlyView<'a>) -> Value<'a> {
    match field {
        Field::Ply => Value::Int(i64::from(p.ply)),
        Field::Xfen => Value::Text(Cow::Borrowed(p.xfen)),
        Field::San => Value::Move(p.record, MoveList::San),
        Field::Uci(castling) => Value::Move(p.record, MoveList::Uci(*castling)),
        Field::Clock => p.record.annotations.clock.map_or(Value::Null, Value::Float),
        Field::Eval => match p.record.annotations.eval {
            Some(Eval::Pawns(p)) => Value::Float(p),
            _ => Value::Null,
        },
        Field::EvalMate => match p.record.annotations.eval {
            Some(Eval::Mate(n)) => Value::Int(i64::from(n)),
            _ => Value::Null,
        },
        Field::Emt => p.record.annotations.emt.map_or(Value::Null, Value::Float),
        Field::Depth => p
            .record
            .annotations
            .depth
            .map_or(Value::Null, |d| Value::Int(i64::from(d))),
        _ => Value::Null,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::annotations::Annotations;
    use crate::test_rng::Rng;
    use chess960_core::Position;

    /// A random tag value's bytes: digits, signs, spaces of every kind `trim` knows,
    /// escapes, quotes, UTF-8 and Latin-1 bytes.
    pub(crate) fn random_raw(rng: &mut Rng) -> Vec<u8> {
        const BYTES: &[u8] = b"0123456789+- \t\n\x0b\x0c\r\\\"aZ?\xc3\xa9\xe9\x80\xff";
        const WHOLE: [&str; 8] = [
            "9223372036854775807",
            "-9223372036854775808",
            "9223372036854775808",
            "-9223372036854775809",
            "+0",
            "-0",
            "00017",
            "\u{3000}12",
        ];
        if rng.below(6) == 0 {
            return WHOLE[rng.index(WHOLE.len())].as_bytes().to_vec();
        }
        let len = rng.index(12);
        (0..len).map(|_| BYTES[rng.index(BYTES.len())]).collect()
    }

    #[test]
    fn int_and_plain_tags_read_as_the_general_rule_reads_them() {
        let mut rng = Rng(0x7a95_0960_1e7e_0003);
        let (mut plain, mut numbers) = (0, 0);
        for _ in 0..200_000 {
            let raw = random_raw(&mut rng);
            let tag = Tag {
                name: b"WhiteElo",
                raw_value: &raw,
                offset: 0,
            };
            let general = tag.value_str().trim().parse::<i64>().ok();
            assert_eq!(int_tag(&tag), general, "{raw:?}");
            if let Some(bytes) = plain_tag(&tag) {
                plain += 1;
                assert_eq!(bytes, tag.value_str().as_bytes(), "{raw:?}");
            }
            numbers += usize::from(general.is_some());
        }
        assert!(plain > 10_000 && numbers > 10_000, "{plain} {numbers}");
    }

    #[test]
    fn xfen_is_the_positions_display_along_random_games() {
        let mut rng = Rng(0x0960_fe11_0000_0001);
        let mut seen = 0;
        for _ in 0..200 {
            let mut pos = Position::from_sp(rng.index(960) as u16).unwrap();
            for _ in 0..rng.index(200) {
                assert_eq!(xfen(&pos), pos.to_string());
                seen += 1;
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.play(legal[rng.index(legal.len())]).unwrap();
            }
            assert_eq!(xfen(&pos), pos.to_string());
        }
        assert!(seen > 10_000, "{seen}");
    }

    #[test]
    fn annotated_lists_are_the_lists_with_a_value_at_some_move() {
        let pos = Position::from_sp(518).unwrap();
        let m = pos.legal_moves()[0];
        let record = MoveRecord {
            chess_move: m,
            san: pos.san_plus(m),
            annotations: Annotations::default(),
        };
        let lists = [
            MoveList::San,
            MoveList::Uci(UciCastling::KingTwoSquares),
            MoveList::Clocks,
            MoveList::Evals,
            MoveList::EvalsMate,
            MoveList::Emts,
            MoveList::Depths,
        ];
        // Each list's own test of a move, as each column made it before.
        let has = |m: &MoveRecord, which: MoveList| {
            let a = &m.annotations;
            match which {
                MoveList::Clocks => a.clock.is_some(),
                MoveList::Evals | MoveList::EvalsMate => a.eval.is_some(),
                MoveList::Emts => a.emt.is_some(),
                MoveList::Depths => a.depth.is_some(),
                _ => true,
            }
        };
        let mut rng = Rng(0x0960_a770_0000_0001);
        for _ in 0..2000 {
            let moves: Vec<MoveRecord> = (0..rng.index(12))
                .map(|_| {
                    let mut r = record.clone();
                    let a = &mut r.annotations;
                    // Each kind on about one move in eight.
                    a.clock = (rng.index(8) == 0).then_some(60.0);
                    a.eval = (rng.index(8) == 0).then_some(crate::annotations::Eval::Mate(3));
                    a.emt = (rng.index(8) == 0).then_some(1.5);
                    a.depth = (rng.index(8) == 0).then_some(20);
                    r
                })
                .collect();
            let annotated = Annotated::of(&moves);
            for which in lists {
                let expected = which == MoveList::San
                    || matches!(which, MoveList::Uci(_))
                    || moves.iter().any(|m| has(m, which));
                assert_eq!(annotated.has(which), expected, "{which:?}");
            }
        }
    }

    #[test]
    fn names_are_unique_and_selectable() {
        let all = game_columns(&["ECO".into(), "Event".into()], true);
        for (i, c) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|o| o.name != c.name), "{}", c.name);
        }
        assert_eq!(all.iter().filter(|c| c.name == "Event").count(), 1);
        let picked = select(all.clone(), &["sp".into(), "White".into()]).unwrap();
        assert_eq!(picked[0].field, Field::Sp);
        assert!(select(all, &["nope".into()])
            .unwrap_err()
            .contains("moves_san"));
        assert_eq!(Field::IntTag("WhiteElo".into()).kind(), Kind::Int64);
    }

    #[test]
    fn a_tag_named_like_another_column_whatever_the_case_is_renamed() {
        let tags: Vec<String> = ["sp", "offset", "Variant", "White", "white", "sp_tag"]
            .map(String::from)
            .into();
        for (all, variant) in [
            (game_columns(&tags, true), "Variant_tag"),
            (ply_columns(&tags, true), "Variant"),
        ] {
            for (i, c) in all.iter().enumerate() {
                assert!(
                    all[i + 1..]
                        .iter()
                        .all(|o| !o.name.eq_ignore_ascii_case(&c.name)),
                    "{} twice in {:?}",
                    c.name,
                    all.iter().map(|c| &c.name).collect::<Vec<_>>()
                );
            }
            let named = |tag: &str| {
                all.iter()
                    .find(|c| matches!(&c.field, Field::Tag(t) | Field::IntTag(t) if t == tag))
                    .map(|c| c.name.clone())
            };
            assert_eq!(named("sp").as_deref(), Some("sp_tag"));
            assert_eq!(named("sp_tag").as_deref(), Some("sp_tag_tag"));
            assert_eq!(named("offset").as_deref(), Some("offset_tag"));
            assert_eq!(named("Variant").as_deref(), Some(variant));
            assert_eq!(named("white").as_deref(), Some("white_tag"));
        }
        // A default tag column asked for again is not a second column.
        let game = game_columns(&tags, false);
        assert_eq!(game.iter().filter(|c| c.name == "White").count(), 1);
    }
}
