//! The replay of one game's movetext, token by token, and the verdict at its end. Both ways
//! of reading a game feed it: the visitor ([`super::Validator`]) straight from the reader,
//! and [`super::validate`] from a parsed token list, so one set of rules decides both.

use super::reason::{RejectReason, Repair};
use super::recover::FoundStart;
use super::start::{resolve_start, RuleTags, Start, StartOutcome};
use super::{GameKind, MoveRecord, Rejection, ValidGame, ValidateOptions, Verdict};
use crate::annotations::Annotations;
use chess960_core::{Color, Move, Position, San, SanError, SanPlus, SanSuffix, Termination, Undo};
use pgn_parse::{GameResult, Tag};

/// One level of the variation stack.
#[derive(Clone)]
struct Line {
    /// The position now.
    current: Position,
    /// The last move of this line and what takes it back (a variation starts before it).
    last: Option<(Move, Undo)>,
    /// Index of the `(` token that opened this line (0 for the main line).
    opened_at: usize,
    /// Whether this line is being dropped (a bad move was found in it).
    dropping: bool,
}

/// The replay of one game, fed token by token; [`Replay::finish`] gives the verdict.
pub struct Replay {
    opts: ValidateOptions,
    start: Start,
    lines: Vec<Line>,
    canonical: Vec<Option<SanPlus>>,
    dropped_tokens: Vec<(usize, usize)>,
    repairs: Vec<Repair>,
    plies: u32,
    movetext_result: Option<GameResult>,
    key_a: u64,
    key_b: u64,
    /// Main-line moves (when [`ValidateOptions::moves`]).
    moves: Vec<MoveRecord>,
    /// Annotations of comments before the first move.
    start_annotations: Annotations,
    /// Zobrist keys of the main line since its last capture or pawn move (with `moves`).
    history: Vec<u64>,
    /// Index of the next token.
    tokens: usize,
    /// Offset of the game's first byte.
    game_start: usize,
    failure: Option<Rejection>,
    /// The move of the last SAN, when it was a main-line move that was played.
    last_main: Option<Move>,
}

/// Main-line moves room is made for at the start of a game that keeps them (most games are
/// shorter: the list is not grown and copied move by move).
const MOVES_RESERVED: usize = 128;

/// Recorded moves room is made for at the start of a game that keeps them: more than
/// [`MOVES_RESERVED`], since the history is cleared at each capture or pawn move and the
/// records are not (at 128, one game in five of a lichess-style file grew the list).
const RECORDS_RESERVED: usize = 256;

fn mix(h: u64) -> u64 {
    let mut z = h.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Describes why a SAN failed, for the user.
/// A move quoted the second time in a message: cut, without its length.
fn short(san: &str) -> String {
    format!("{:?}", super::cut_text(san, super::QUOTE_LIMIT))
}

fn san_failure(pos: &Position, san: &str, err: SanError) -> String {
    let side = pos.turn().name();
    match err {
        SanError::Ambiguous => format!("{} matches more than one legal {side} move", short(san)),
        SanError::Illegal if pos.is_check() => {
            format!("{side} is in check and {} does not answer it", short(san))
        }
        SanError::Illegal => format!("no legal {side} move matches {}", short(san)),
        _ => format!("{} is not a move in SAN", short(san)),
    }
}

/// The move number text for a ply, e.g. `12.` or `12...`.
fn move_label(pos: &Position) -> String {
    match pos.turn() {
        Color::White => format!("{}.", pos.fullmoves()),
        Color::Black => format!("{}...", pos.fullmoves()),
    }
}

impl Replay {
    /// Works out the rules and start position from the tags: a replay ready for the first
    /// move, or the verdict when the tags alone decide it (another variant, a bad FEN).
    pub fn start(
        tags: &[Tag<'_>],
        game_start: usize,
        opts: ValidateOptions,
    ) -> Result<Replay, Verdict> {
        Replay::start_from(tags, game_start, opts, None)
    }

    /// The start the game is replayed from.
    pub(super) fn start_position(&self) -> &Start {
        &self.start
    }

    /// As [`Replay::start`], but from `found` when given: a start the file does not give,
    /// found from the moves (a Chess960 game, with `found`'s repair).
    pub fn start_from(
        tags: &[Tag<'_>],
        game_start: usize,
        opts: ValidateOptions,
        found: Option<FoundStart>,
    ) -> Result<Replay, Verdict> {
        let mut repairs = Vec::new();
        let start = match found {
            Some(found) => {
                repairs.push(found.repair);
                Start {
                    kind: GameKind::Chess960,
                    class: found.position.classify_start(),
                    position: found.position,
                    had_fen: false,
                }
            }
            None => start_from_tags(tags, game_start, opts, &mut repairs)?,
        };
        let key_a = mix(start.position.zobrist());
        let (history, moves) = if opts.moves {
            let mut history = Vec::with_capacity(MOVES_RESERVED);
            history.push(start.position.zobrist());
            (history, Vec::with_capacity(RECORDS_RESERVED))
        } else {
            (Vec::new(), Vec::new())
        };
        // Make-move keeps the key only for what reads it: the dedupe key, repetitions.
        let current = if opts.dedupe_key || opts.moves {
            start.position.clone()
        } else {
            start.position.clone().without_key()
        };
        Ok(Replay {
            opts,
            lines: vec![Line {
                current,
                last: None,
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
            moves,
            start_annotations: Annotations::default(),
            history,
            tokens: 0,
            game_start,
            failure: None,
            last_main: None,
        })
    }

    /// Whether a move or variation has already made the game invalid (later tokens are
    /// ignored).
    pub fn has_failed(&self) -> bool {
        self.failure.is_some()
    }

    /// The main-line moves played so far.
    #[inline(always)]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The main-line move the last SAN played, what takes it back, and the position after
    /// it (`None` when the last SAN was in a variation or did not resolve).
    pub fn last_main_move(&self) -> Option<(Move, Undo, &Position)> {
        let m = self.last_main?;
        let main = self.lines.first()?;
        let (_, undo) = main.last?;
        Some((m, undo, &main.current))
    }

    fn fail(&mut self, rejection: Rejection) {
        if self.failure.is_none() {
            self.failure = Some(rejection);
        }
        // No move is played after a failure: none is the last main-line move either (a
        // failure at a comment or a variation left the move before it here, and the loop
        // told observers of it again at each later move).
        self.last_main = None;
    }

    /// A move in SAN at byte `offset`.
    #[inline]
    pub fn san(&mut self, text: &[u8], offset: usize) {
        self.play_san(|position| position.parse_san(text), text, offset);
    }

    /// A move the reader already decoded to `san`, written `text` at byte `offset`: as
    /// [`Replay::san`] without reading the text again (it is used for repairs and messages).
    #[inline]
    pub fn decoded_san(&mut self, san: San, text: &[u8], offset: usize) {
        self.play_san(|position| san.to_move(position), text, offset);
    }

    /// A move in SAN written `text`, found in the current position by `resolve`.
    #[inline]
    fn play_san(
        &mut self,
        resolve: impl FnOnce(&Position) -> Result<Move, SanError>,
        text: &[u8],
        offset: usize,
    ) {
        self.tokens += 1;
        self.last_main = None;
        if self.failure.is_some() {
            return;
        }
        let depth = self.lines.len();
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        if line.dropping {
            if self.opts.canonical_san {
                self.canonical.push(None);
            }
            return;
        }
        let m: Move = match resolve(&line.current) {
            Ok(m) => m,
            Err(err) => {
                let rejection = self.bad_move(text, offset, err, depth);
                if let Some(rejection) = rejection {
                    self.fail(rejection);
                }
                return;
            }
        };
        if text.first() == Some(&b'0') && !self.repairs.contains(&Repair::ZeroCastlingNotation) {
            self.repairs.push(Repair::ZeroCastlingNotation);
        }
        let record = self.opts.moves && depth == 1;
        // SAN without its mark here; `+`/`#` from the position after the move below (the
        // rule of `Position::san_plus`, without playing the move twice).
        // The canonical SAN from the text it was read from (`Position::san_written`).
        let san = (self.opts.canonical_san || record).then(|| line.current.san_written(m, text));
        line.last = Some((m, line.current.undo_record()));
        line.current.play_unchecked(m);
        let san = san.map(|san| SanPlus {
            san,
            suffix: suffix_after(&line.current, self.opts.canonical_san),
        });
        if let (true, Some(san)) = (self.opts.canonical_san, san) {
            if san.to_ascii().as_bytes() != text && !self.repairs.contains(&Repair::SanNormalised) {
                self.repairs.push(Repair::SanNormalised);
            }
            self.canonical.push(Some(san));
        }
        if let (true, Some(san)) = (record, san) {
            self.moves.push(MoveRecord {
                san,
                chess_move: m,
                annotations: Annotations::default(),
            });
        }
        if depth == 1 {
            self.last_main = Some(m);
            self.plies += 1;
            if self.opts.dedupe_key {
                let z = line.current.zobrist();
                self.key_a = mix(self.key_a ^ z);
                self.key_b = mix(self.key_b.rotate_left(17) ^ z);
            }
            if self.opts.moves {
                if m.is_zeroing() {
                    self.history.clear();
                }
                self.history.push(line.current.zobrist());
            }
        }
    }

    /// What a SAN that did not resolve does: `None` when its variation is dropped instead.
    fn bad_move(
        &mut self,
        text: &[u8],
        offset: usize,
        err: SanError,
        depth: usize,
    ) -> Option<Rejection> {
        let line = self.lines.last_mut()?;
        let san_text = String::from_utf8_lossy(text);
        let why = san_failure(&line.current, &san_text, err);
        let label = move_label(&line.current);
        if depth > 1 {
            if self.opts.drop_bad_variations {
                line.dropping = true;
                if self.opts.canonical_san {
                    self.canonical.push(None);
                }
                return None;
            }
            let (quoted, cut) = (
                super::quoted(&san_text),
                super::cut_text(&san_text, super::QUOTE_LIMIT),
            );
            let detail = format!("bad move {quoted} in a variation ({label} {cut}): {why}");
            return Some(Rejection::new(RejectReason::BadVariation, detail, offset));
        }
        let (reason, kind) = match err {
            SanError::Ambiguous => (RejectReason::AmbiguousMove, "ambiguous"),
            SanError::Illegal => (RejectReason::IllegalMove, "illegal"),
            _ => (RejectReason::MalformedMove, "malformed"),
        };
        let (quoted, cut) = (
            super::quoted(&san_text),
            super::cut_text(&san_text, super::QUOTE_LIMIT),
        );
        let detail = format!(
            "{kind} move {quoted} at ply {} ({label} {cut}): {why}",
            self.plies + 1
        );
        Some(Rejection::new(reason, detail, offset))
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
        self.fail(Rejection::new(RejectReason::NullMove, detail, offset));
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
        let current = match (parent.last, dropping) {
            (Some((m, undo)), _) => {
                let mut base = parent.current.clone();
                base.unplay(m, undo);
                base
            }
            (None, true) => parent.current.clone(),
            (None, false) => {
                let detail = "a variation before any move".to_string();
                let start = self.game_start;
                self.fail(Rejection::new(RejectReason::BadVariation, detail, start));
                return;
            }
        };
        self.lines.push(Line {
            current,
            last: None,
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

    /// A comment: its annotations ([`Annotations::parse_move`]) are kept with the main-line
    /// move before it (when [`ValidateOptions::moves`]).
    #[inline(always)]
    pub fn comment(&mut self, text: &[u8]) {
        self.tokens += 1;
        // Annotations are kept only with the moves: else a comment is a token only.
        if self.opts.moves {
            self.annotate(text);
        }
    }

    /// A comment the reader found to be a lone lichess clock, ` [%clk H:MM:SS] `
    /// ([`pgn_parse::lone_clock`] holds): as [`Replay::comment`], the clock read without
    /// testing the comment's shape again or working out the mover.
    #[inline(always)]
    pub fn clock_comment(&mut self, text: &[u8]) {
        self.tokens += 1;
        if self.opts.moves {
            self.annotate_clock(text);
        }
    }

    /// A main-line lone clock, kept on the last move (or the start).
    fn annotate_clock(&mut self, text: &[u8]) {
        if self.lines.len() != 1 || self.failure.is_some() {
            return;
        }
        match self.moves.last_mut() {
            Some(last) => last.annotations.read_lone_clock(text),
            None => self.start_annotations.read_lone_clock(text),
        }
    }

    /// A main-line comment's annotations, kept on the last move (or the start).
    fn annotate(&mut self, text: &[u8]) {
        if self.lines.len() != 1 || self.failure.is_some() {
            return;
        }
        let mover = match (self.moves.is_empty(), self.lines.first()) {
            (false, Some(line)) => Some(line.current.turn().other()),
            _ => None,
        };
        let annotations = match self.moves.last_mut() {
            Some(last) => &mut last.annotations,
            None => &mut self.start_annotations,
        };
        annotations.read_move(text, mover);
    }

    /// A NAG or suffix (counted, for token indices).
    pub fn other_token(&mut self) {
        self.tokens += 1;
    }

    /// The verdict, once the movetext is over; `tags` gives the `Result`, `Variant`, `SetUp`
    /// and `FEN` tags.
    pub fn finish(self, tags: &[Tag<'_>]) -> Verdict {
        if let Some(rejection) = self.failure {
            return Verdict::Invalid(rejection);
        }
        let mut repairs = self.repairs;
        let Some(main) = self.lines.into_iter().next() else {
            let detail = "empty game".to_string();
            return Verdict::Invalid(Rejection::new(
                RejectReason::ParseError,
                detail,
                self.game_start,
            ));
        };
        if let Some(min) = self.opts.min_plies {
            if self.plies < min {
                let detail = format!("{} plies, fewer than --min-plies {min}", self.plies);
                return Verdict::Invalid(Rejection::new(
                    RejectReason::TooShort,
                    detail,
                    self.game_start,
                ));
            }
        }
        let end = main.current;
        let termination = end.termination();
        let mut moves = self.moves;
        settle_mate(&mut moves, termination);
        let ended = (termination, end.turn());
        let result = settled_result(tags, self.movetext_result, ended, &mut repairs);
        let start = self.start;
        if let Some(style) = self.opts.normalise {
            normalising_repairs(&start, tags, (style, self.opts.variant_tag), &mut repairs);
            result_normalised(tags, result, &mut repairs);
        }
        let termination = match termination {
            None if self.opts.moves => repetition_or_fifty(&self.history, &end),
            t => t,
        };
        let plies = self.plies;
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
            moves,
            start_annotations: self.start_annotations,
        }))
    }
}

/// The mark of a SAN played into `after`: `+` for any check, `#` for a mate only when
/// `mate_now` (the canonical SAN, compared with the text when played). A recorded move's
/// mate is settled in `finish` ([`settle_mate`]: only the last move can mate, any later
/// main-line move shows a legal one), so that recording asks `has_legal_moves` once a game,
/// not once a check. Out of line: the check path of `play_san` keeps its registers.
#[inline(never)]
fn suffix_after(after: &Position, mate_now: bool) -> Option<SanSuffix> {
    after.is_check().then(|| {
        if mate_now && !after.has_legal_moves() {
            SanSuffix::Checkmate
        } else {
            SanSuffix::Check
        }
    })
}

/// The last recorded move's `+` made `#` when the final position (after it) is checkmate:
/// recording leaves every check `+`, and no move but the last can mate.
fn settle_mate(moves: &mut [MoveRecord], termination: Option<Termination>) {
    if let (Some(Termination::Checkmate), Some(last)) = (termination, moves.last_mut()) {
        last.san.suffix = Some(SanSuffix::Checkmate);
    }
}

/// The game's result: the movetext's (the `Result` tag's when the movetext has `*` or
/// none), corrected to what a checkmate or stalemate of the final position (its
/// termination and side to move) implies; the repairs say so.
fn settled_result(
    tags: &[Tag<'_>],
    movetext_result: Option<GameResult>,
    (termination, turn): (Option<Termination>, Color),
    repairs: &mut Vec<Repair>,
) -> GameResult {
    let tag_result = tag(tags, b"Result")
        .map(|t| GameResult::from_bytes(&t.value()))
        .unwrap_or(GameResult::Unknown);
    let result = match movetext_result {
        Some(GameResult::Unknown) => tag_result,
        // No result token: the structural verdict let the game through because its
        // Result tag gives a result.
        None => {
            repairs.push(Repair::ResultFromTag);
            tag_result
        }
        Some(r) => r,
    };
    let implied = match termination {
        Some(Termination::Checkmate) => Some(match turn {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        }),
        Some(Termination::Stalemate) => Some(GameResult::Draw),
        _ => None,
    };
    match implied {
        Some(implied) if implied != result => {
            repairs.push(Repair::ResultCorrected {
                old: result.as_str().to_string(),
            });
            implied
        }
        _ => result,
    }
}

/// When writing normalised: a `Result` tag not written as `result` is rewritten (unless the
/// result was corrected, which says so already).
fn result_normalised(tags: &[Tag<'_>], result: GameResult, repairs: &mut Vec<Repair>) {
    let corrected = repairs
        .iter()
        .any(|r| matches!(r, Repair::ResultCorrected { .. }));
    let written = tag(tags, b"Result").map(|t| t.value_str().trim().to_string());
    if !corrected && written.as_deref() != Some(result.as_str()) {
        repairs.push(Repair::ResultNormalised {
            old: written.unwrap_or_default(),
        });
    }
}

/// The start the tags give, or the verdict when they decide the game.
fn start_from_tags(
    tags: &[Tag<'_>],
    game_start: usize,
    opts: ValidateOptions,
    repairs: &mut Vec<Repair>,
) -> Result<Start, Verdict> {
    match resolve_start(&RuleTags::from_tags(tags), opts.missing_variant, repairs) {
        Ok(StartOutcome::Chess(start)) => Ok(start),
        Ok(StartOutcome::Unsupported(name)) => Err(Verdict::Unsupported(name)),
        Err((reason, detail)) => Err(Verdict::Invalid(Rejection::new(reason, detail, game_start))),
    }
}

/// The first tag named `name`.
fn tag<'t, 'a>(tags: &'t [Tag<'a>], name: &[u8]) -> Option<&'t Tag<'a>> {
    tags.iter().find(|t| t.name == name)
}

/// The repairs that writing the game normalised (X-FEN or Shredder-FEN) makes to its tags.
fn normalising_repairs(
    start: &Start,
    tags: &[Tag<'_>],
    (style, variant): (
        chess960_core::CastlingStyle,
        super::variant::VariantSpelling,
    ),
    repairs: &mut Vec<Repair>,
) {
    let roster = [
        &b"Event"[..],
        b"Site",
        b"Date",
        b"Round",
        b"White",
        b"Black",
    ];
    if roster.iter().any(|name| tag(tags, name).is_none()) {
        repairs.push(Repair::RosterCompleted);
    }
    let copies = super::tag_copies(tags);
    if copies.contains(&super::TagCopy::Same) {
        repairs.push(Repair::DuplicateTagDropped);
    }
    if copies.contains(&super::TagCopy::Different) {
        repairs.push(Repair::DuplicateTagRenamed);
    }
    let chess960 = start.kind == GameKind::Chess960;
    let spelled = |t: &Tag<'_>| t.value().as_ref() == variant.value().as_bytes();
    if chess960 && tag(tags, b"Variant").is_none_or(|t| !spelled(t)) {
        repairs.push(Repair::VariantNormalised);
    }
    let standard_start = !chess960 && !start.had_fen;
    if standard_start {
        return;
    }
    if tag(tags, b"SetUp").is_none_or(|t| t.value().trim_ascii() != b"1") {
        repairs.push(Repair::SetUpAdded);
    }
    let fen = super::start_fen(start.kind, &start.position, style);
    if tag(tags, b"FEN").is_some_and(|t| t.value().trim_ascii() != fen.as_bytes()) {
        repairs.push(Repair::FenRewritten);
    }
}

/// A draw by repetition or the fifty-move rule, from the main line's key history.
fn repetition_or_fifty(history: &[u64], end: &Position) -> Option<Termination> {
    let key = end.zobrist();
    let repetitions = history.iter().filter(|&&k| k == key).count();
    if repetitions >= 5 {
        Some(Termination::FivefoldRepetition)
    } else if end.halfmoves() >= 100 {
        Some(Termination::FiftyMoves)
    } else if repetitions >= 3 {
        Some(Termination::ThreefoldRepetition)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_clock_is_kept_as_the_same_comment_is() {
        // Clocks before the first move, on moves, in a variation, and after a bad move.
        let moves = [&b"e4"[..], b"e5", b"(", b"d5", b")", b"Nf3", b"Zz9", b"Nc6"];
        let clocks = [" [%clk 0:03:00] ", " [%clk 1:02:03] ", " [%clk 0:61:00] "];
        let opts = ValidateOptions {
            moves: true,
            ..ValidateOptions::default()
        };
        for (i, clock) in clocks.iter().enumerate() {
            let (Ok(mut general), Ok(mut lone)) =
                (Replay::start(&[], 0, opts), Replay::start(&[], 0, opts))
            else {
                panic!("no start");
            };
            for (j, token) in moves.iter().enumerate() {
                for replay in [&mut general, &mut lone] {
                    match *token {
                        b"(" => replay.begin_variation(),
                        b")" => replay.end_variation(),
                        san => replay.san(san, j),
                    }
                }
                if (i + j) % 2 == 0 {
                    general.comment(clock.as_bytes());
                    lone.clock_comment(clock.as_bytes());
                }
            }
            let annotations = |r: &Replay| {
                let mut all = vec![r.start_annotations];
                all.extend(r.moves.iter().map(|m| m.annotations));
                all
            };
            assert_eq!(annotations(&lone), annotations(&general), "{clock}");
            assert_eq!(lone.tokens, general.tokens);
        }
    }

    #[test]
    fn the_mark_from_the_position_after_is_the_cores_san_plus() {
        // Every legal move of positions with castling, promotions, checks and mates.
        for fen in [
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
            "6k1/5ppp/8/8/8/8/1r3PPP/R5K1 w - - 0 1",
            "7k/P5pp/8/8/8/8/6PP/6K1 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for &m in pos.legal_moves().iter() {
                let text = pos.san_plus(m).to_string();
                let mut replay = recording_from(&pos);
                replay.san(text.as_bytes(), 0);
                // The mate is settled when the game is over.
                let Verdict::Valid(game) = replay.finish(&[]) else {
                    panic!("{fen} {text}: not valid");
                };
                assert_eq!(game.moves[0].san, pos.san_plus(m), "{fen} {text}");
            }
        }
    }

    /// A replay of `start` recording its moves, as `Replay::start` would from a FEN tag.
    fn recording_from(start: &Position) -> Replay {
        Replay {
            lines: vec![Line {
                current: start.clone(),
                last: None,
                opened_at: 0,
                dropping: false,
            }],
            moves: Vec::new(),
            ..Replay::start(
                &[],
                0,
                ValidateOptions {
                    moves: true,
                    ..ValidateOptions::default()
                },
            )
            .ok()
            .unwrap()
        }
    }

    #[test]
    fn recorded_checks_and_mates_along_random_games_are_the_cores_san_plus() {
        // Random games from random SPs, checking moves chosen often (so that many end in
        // mate): every recorded SAN, the last one settled at the end, is `san_plus`.
        let mut rng = crate::test_rng::Rng(0x00c4_ec4a_7e5e);
        let (mut mates, mut checks) = (0, 0);
        for _ in 0..400 {
            let start = Position::from_sp(rng.below(960) as u16).unwrap();
            let (mut pos, mut expected) = (start.clone(), Vec::new());
            let mut replay = recording_from(&start);
            for _ in 0..rng.index(240) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let checking: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| pos.san_plus(m).suffix.is_some())
                    .collect();
                let m = match checking.is_empty() || rng.below(4) == 0 {
                    true => legal[rng.index(legal.len())],
                    false => checking[rng.index(checking.len())],
                };
                let san = pos.san_plus(m);
                replay.san(san.to_string().as_bytes(), 0);
                expected.push(san);
                pos.play_unchecked(m);
            }
            let Verdict::Valid(game) = replay.finish(&[]) else {
                panic!("not valid: {expected:?}");
            };
            let got: Vec<SanPlus> = game.moves.iter().map(|r| r.san).collect();
            assert_eq!(got, expected);
            mates +=
                usize::from(expected.last().and_then(|s| s.suffix) == Some(SanSuffix::Checkmate));
            checks += expected
                .iter()
                .filter(|s| s.suffix == Some(SanSuffix::Check))
                .count();
        }
        assert!(
            mates > 20 && checks > 1000,
            "{mates} mates, {checks} checks"
        );
    }
}
