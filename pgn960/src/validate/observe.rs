//! The one loop that reads a buffer's games: each game is read once, judged here (the size
//! limit, the oversized-piece rule, every structural verdict and every repair), and handed
//! to a [`GameObserver`] as it goes: its tags, each main-line move, the main line's
//! comments, and the judged game. Every command's view of the games is an observer.

use super::chunk::{note_invisible, note_latin1, oversized_part, read_whole, Lines};
use super::recover;
use super::start::{resolve_start, RuleTags, StartOutcome, TaggedStart};
use super::visitor::structural_rejection;
use super::{
    ChunkCounts, Judged, RejectReason, Rejection, ValidGame, ValidateOptions, Validator, Verdict,
};
use chess960_core::{Move, Position, Undo};
use pgn_parse::{
    read_games_at, DecodedSan, GameEnd, GameResult, Origin, Reader, Skip, Suffix, Tag, Visitor,
};
use std::ops::Range;

/// How much of each game [`observe_chunk`] reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ReadMode {
    /// Every move replayed and validated.
    #[default]
    Replay,
    /// The tags only, trusted for the start position and the result (`--headers-only`):
    /// the movetext is skipped, and only what the reader saw (a parse error, a game cut
    /// short) and the size limit can reject a game besides its tags. A game of tags only
    /// (no movetext) whose tags give a start and a result is valid. The valid game has no
    /// moves (`plies` is 0, `end` is the start).
    TagsOnly,
}

/// One main-line move that was played, handed to [`GameObserver::main_move`].
pub struct MainMove<'p, 'a> {
    /// The move.
    pub chess_move: Move,
    /// The position after it.
    pub after: &'p Position,
    /// The move as written in the file.
    pub written: &'a [u8],
    /// Its 1-based ply on the main line.
    pub ply: u32,
    /// What takes the move back (the position before it is made only when asked for).
    undo: Undo,
}

impl MainMove<'_, '_> {
    /// The position before the move: the position after it with the move taken back (made
    /// here when asked for; the replay keeps no copy of each position).
    pub fn before(&self) -> Position {
        let mut before = self.after.clone();
        before.unplay(self.chess_move, self.undo);
        before
    }
}

/// What a command sees of the games [`observe_chunk`] reads (ripgrep's sink to its
/// searcher). Every method but `end_game` does nothing by default. Each game gets `tags`,
/// then (unless skipped, and in [`ReadMode::Replay`]) its moves and comments, then exactly
/// one of `end_game` and `skipped`.
pub trait GameObserver<'a> {
    /// The game's tags were read. `Skip(true)` skips its moves: the game is then judged only
    /// by what the reader saw and the size limit, and goes to [`GameObserver::skipped`] when
    /// they find nothing wrong. Ignored when the game is read whole (canonical SAN).
    fn tags(&mut self, _tags: &[Tag<'a>]) -> Skip {
        Skip(false)
    }
    /// The start the validator resolved for a game whose moves `tags` did not skip (`None`
    /// when the tags give none to replay from: the verdict says why): an observer that
    /// selects by the start reads it here instead of resolving it again. `Skip(true)`
    /// skips the moves as from `tags`. Not called when the game is read whole.
    fn start(&mut self, _start: Option<TaggedStart>) -> Skip {
        Skip(false)
    }
    /// How many of a game's first main-line moves [`GameObserver::main_move`] is told of
    /// (asked as each game begins; default: all). An observer that reads no moves says 0
    /// and one that keeps the first few says how many: the loop does no work for the moves
    /// after them but a compare (and none at all for an observer that says 0 as a constant).
    #[inline(always)]
    fn moves_wanted(&self) -> u32 {
        u32::MAX
    }
    /// A main-line move resolved and played, within [`GameObserver::moves_wanted`] (not
    /// called when the game is read whole).
    fn main_move(&mut self, _step: MainMove<'_, 'a>) {}
    /// A comment on the main line after `ply` plies (0: before the first move).
    fn main_comment(&mut self, _text: &'a [u8], _ply: u32) {}
    /// A main-line comment that is a lone clock, ` [%clk H:MM:SS] ` (the reader's
    /// [`pgn_parse::lone_clock`]): by default [`GameObserver::main_comment`]; an observer that
    /// reads only evaluations does nothing here.
    #[inline(always)]
    fn main_clock(&mut self, text: &'a [u8], ply: u32) {
        self.main_comment(text, ply);
    }
    /// The game, judged.
    fn end_game(&mut self, game: Judged<'_, 'a>);
    /// A game whose moves the observer skipped and that nothing rejected.
    fn skipped(&mut self, _byte_range: Range<usize>) {}
}

/// Reads every game of `bytes` (a buffer starting at `origin`) once, judges it with `opts`
/// and hands it to `observer`; returns what the buffer held besides its games. With
/// [`ValidateOptions::canonical_san`] each game is read whole (tokens kept for writing it
/// again, in [`Judged::game`]); otherwise it is judged while it is read. Locations are
/// found for rejected games, and for every game when `locate_all`.
///
/// ```
/// use pgn960::validate::{observe_chunk, GameObserver, Judged, MainMove, ReadMode, ValidateOptions};
/// use pgn_parse::Origin;
///
/// #[derive(Default)]
/// struct FirstMoves(Vec<String>);
/// impl<'a> GameObserver<'a> for FirstMoves {
///     fn main_move(&mut self, step: MainMove<'_, 'a>) {
///         if step.ply == 1 {
///             self.0.push(step.before().san(step.chess_move).to_string());
///         }
///     }
///     fn end_game(&mut self, _game: Judged<'_, 'a>) {}
/// }
///
/// let pgn = b"[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. d4 d5 1-0\n";
/// let mut seen = FirstMoves::default();
/// let opts = ValidateOptions::default();
/// let counts = observe_chunk(pgn, Origin::default(), &opts, ReadMode::Replay, false, &mut seen);
/// assert_eq!((counts.games, seen.0), (1, vec!["d4".to_string()]));
/// ```
pub fn observe_chunk<'a, O: GameObserver<'a>>(
    bytes: &'a [u8],
    origin: Origin,
    opts: &ValidateOptions,
    mode: ReadMode,
    locate_all: bool,
    observer: &mut O,
) -> ChunkCounts {
    if let Some(part) = origin.part {
        return oversized_part(bytes, origin, part, |judged| observer.end_game(judged));
    }
    let mut lines = Lines::new(bytes, origin);
    if opts.canonical_san && mode == ReadMode::Replay {
        return read_whole(bytes, origin, opts, locate_all, &mut lines, observer);
    }
    let mut reader = Reader::with_origin(bytes, origin);
    let mut watch = Watch {
        validator: Validator::new(*opts),
        observer,
        mode,
        skipping: false,
        main_line: true,
        depth: 0,
        moves_left: 0,
    };
    let mut counts = ChunkCounts::default();
    while let Some((end, verdict)) = reader.read_game(&mut watch) {
        let Some(mut verdict) = verdict else {
            if let Some(verdict) = over_limit(opts, &end.byte_range) {
                judge(
                    &mut watch,
                    &mut lines,
                    &mut counts,
                    end.byte_range,
                    verdict,
                    locate_all,
                );
            } else {
                watch.observer.skipped(end.byte_range);
                counts.games += 1;
            }
            continue;
        };
        match over_limit(opts, &end.byte_range) {
            Some(too_large) => verdict = too_large,
            None => verdict = recover_start(&mut watch, bytes, origin, &end.byte_range, verdict),
        }
        note_latin1(&mut verdict, bytes, origin, &end.byte_range, opts);
        note_invisible(&mut verdict, bytes, origin, watch.validator.tags());
        judge(
            &mut watch,
            &mut lines,
            &mut counts,
            end.byte_range,
            verdict,
            locate_all,
        );
    }
    counts.junk_bytes = reader.junk_bytes();
    counts.first_junk = reader.first_junk().map(|at| lines.locate(at));
    counts.bytes_located = lines.bytes_scanned();
    counts.lines_seen = lines.seen();
    counts
}

/// Hands a judged game to the observer, located as asked.
fn judge<'a, O: GameObserver<'a>>(
    watch: &mut Watch<'_, 'a, O>,
    lines: &mut Lines<'_>,
    counts: &mut ChunkCounts,
    byte_range: Range<usize>,
    verdict: Verdict,
    locate_all: bool,
) {
    let (line, problem_at) = lines.locate_game(&verdict, &byte_range, locate_all);
    watch.observer.end_game(Judged {
        index: counts.games,
        byte_range,
        tags: watch.validator.tags(),
        game: None,
        verdict,
        line,
        problem_at,
        continues: false,
    });
    counts.games += 1;
}

/// A verdict a start found from the moves may overturn, settled: the game (bytes `range`
/// of the buffer `bytes` starting at `origin`) is read whole for its main line and, when a
/// start is found, read again from it with the observer told everything anew.
fn recover_start<'a, O: GameObserver<'a>>(
    watch: &mut Watch<'_, 'a, O>,
    bytes: &'a [u8],
    origin: Origin,
    range: &Range<usize>,
    verdict: Verdict,
) -> Verdict {
    let opts = watch.validator.options();
    let castling_at = |offset: usize| {
        let at = offset.wrapping_sub(origin.offset);
        bytes.get(at..).is_some_and(recover::is_castling)
    };
    let Some(search) =
        recover::worth_recovering(&verdict, watch.validator.tags(), &opts, castling_at)
    else {
        return verdict;
    };
    let local = range.start - origin.offset..range.end - origin.offset;
    let Some(game_bytes) = bytes.get(local) else {
        return verdict;
    };
    let game_origin = Origin {
        offset: range.start,
        first_index: 0,
        followed_by_game: false,
        part: None,
        ..origin
    };
    let Some(Ok(game)) = read_games_at(game_bytes, game_origin).next() else {
        return verdict;
    };
    recover::settle(
        verdict,
        search,
        &game.movetext,
        &opts,
        range.start,
        |found| {
            watch.validator.start_next_from(found);
            let mut reader = Reader::with_origin(game_bytes, game_origin);
            reader.read_game(watch).and_then(|(_, verdict)| verdict)
        },
    )
}

/// The `too-large` verdict of a game over [`ValidateOptions::max_game_bytes`]: a game read
/// whole from an input held whole (a mapped file) gets the verdict a streamed one gets in
/// pieces.
pub(super) fn over_limit(opts: &ValidateOptions, range: &Range<usize>) -> Option<Verdict> {
    let limit = opts.max_game_bytes;
    (limit > 0 && range.len() > limit)
        .then(|| Verdict::Invalid(super::too_large(limit, range.start)))
}

/// The verdict of a game judged by its tags alone ([`ReadMode::TagsOnly`]), `missing` the
/// rule for a game without a `Variant` tag.
fn tags_verdict(tags: &[Tag<'_>], game_start: usize, missing: super::MissingVariant) -> Verdict {
    let mut repairs = Vec::new();
    let start = match resolve_start(&RuleTags::from_tags(tags), missing, &mut repairs) {
        Ok(StartOutcome::Chess(start)) => start,
        Ok(StartOutcome::Unsupported(name)) => return Verdict::Unsupported(name),
        Err((reason, detail)) => {
            return Verdict::Invalid(Rejection::new(reason, detail, game_start))
        }
    };
    let result = tags
        .iter()
        .find(|t| t.name == b"Result")
        .map_or(GameResult::Unknown, |t| GameResult::from_bytes(&t.value()));
    Verdict::Valid(Box::new(ValidGame {
        kind: start.kind,
        end: start.position.clone(),
        start: start.position,
        class: start.class,
        had_fen: start.had_fen,
        plies: 0,
        result,
        termination: None,
        canonical: Vec::new(),
        dropped_tokens: Vec::new(),
        repairs,
        dedupe_key: 0,
        moves: Vec::new(),
        start_annotations: Default::default(),
    }))
}

/// Whether a verdict by the tags is a valid game with a result.
fn has_result(verdict: &Verdict) -> bool {
    verdict
        .valid()
        .is_some_and(|game| game.result != GameResult::Unknown)
}

/// The [`Visitor`] of the loop: a [`Validator`] that tells `observer` what it sees. Its
/// output is the verdict, `None` for a game whose moves were skipped and that the reader
/// found whole.
struct Watch<'o, 'a, O> {
    validator: Validator<'a>,
    observer: &'o mut O,
    mode: ReadMode,
    /// The current game's moves are skipped (by the observer or the mode).
    skipping: bool,
    /// Not inside a variation.
    main_line: bool,
    /// Variations open.
    depth: u32,
    /// Main-line moves the observer is still to be told of in this game.
    moves_left: u32,
}

impl<'a, O: GameObserver<'a>> Watch<'_, 'a, O> {
    /// Tells the observer of the move just read when it was a main-line move played and
    /// among those it wants ([`GameObserver::moves_wanted`]; its ply is the replay's count).
    #[inline(always)]
    fn after_san(&mut self, raw: &'a [u8]) {
        if self.observer.moves_wanted() == 0 || self.moves_left == 0 {
            return;
        }
        if let Some((chess_move, undo, after)) = self.validator.last_main_move() {
            self.moves_left -= 1;
            self.observer.main_move(MainMove {
                chess_move,
                after,
                written: raw,
                ply: self.validator.main_plies(),
                undo,
            });
        }
    }
}

// The per-move and per-comment events are `#[inline(always)]` here and in `Validator`: with
// this layer between the reader and the validator the inliner left them (and the reader's
// `known_word`) out of line, about 10% more instructions in `check` than 0469a43 (callgrind).
impl<'a, O: GameObserver<'a>> Visitor<'a> for Watch<'_, 'a, O> {
    type Output = (GameEnd, Option<Verdict>);

    fn begin_game(&mut self, offset: usize) {
        (self.skipping, self.main_line, self.depth) = (false, true, 0);
        self.moves_left = self.observer.moves_wanted();
        self.validator.begin_game(offset);
    }
    fn tag(&mut self, tag: Tag<'a>) {
        self.validator.tag(tag);
    }
    fn end_tags(&mut self) -> Skip {
        let skip = self.observer.tags(self.validator.tags());
        self.skipping = skip.0 || self.mode == ReadMode::TagsOnly;
        if self.skipping {
            return Skip(true);
        }
        let replay = self.validator.end_tags();
        if self.observer.start(self.validator.tagged_start()).0 {
            self.skipping = true;
            return Skip(true);
        }
        replay
    }
    fn san(&mut self, san: &'a [u8], offset: usize) {
        self.validator.san(san, offset);
        self.after_san(san);
    }
    fn wants_decoded_san(&self) -> bool {
        self.validator.wants_decoded_san()
    }
    #[inline(always)]
    fn decoded_san(&mut self, san: DecodedSan, raw: &'a [u8], offset: usize) {
        self.validator.decoded_san(san, raw, offset);
        self.after_san(raw);
    }
    fn null_move(&mut self, offset: usize) {
        self.validator.null_move(offset);
    }
    #[inline(always)]
    fn comment(&mut self, text: &'a [u8], offset: usize) {
        if self.main_line {
            self.observer
                .main_comment(text, self.validator.main_plies());
        }
        self.validator.comment(text, offset);
    }
    #[inline(always)]
    fn clock_comment(&mut self, text: &'a [u8], offset: usize) {
        if self.main_line {
            self.observer.main_clock(text, self.validator.main_plies());
        }
        self.validator.clock_comment(text, offset);
    }
    fn nag(&mut self, nag: u16) {
        self.validator.nag(nag);
    }
    fn suffix(&mut self, suffix: Suffix) {
        self.validator.suffix(suffix);
    }
    fn begin_variation(&mut self) -> Skip {
        let skip = self.validator.begin_variation();
        self.depth += u32::from(!skip.0);
        self.main_line = self.depth == 0;
        skip
    }
    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.main_line = self.depth == 0;
        self.validator.end_variation();
    }
    fn result(&mut self, result: GameResult) {
        self.validator.result(result);
    }
    fn end_game(&mut self, end: GameEnd) -> Self::Output {
        if !self.skipping {
            let (end, verdict) = self.validator.end_game(end);
            return (end, Some(verdict));
        }
        let tags = self.validator.tags();
        let structural = structural_rejection(&end, tags);
        let verdict = match (structural, self.mode) {
            (None, ReadMode::Replay) => None,
            (Some(rejection), ReadMode::Replay) => Some(Verdict::Invalid(rejection)),
            (structural, ReadMode::TagsOnly) => {
                let missing = self.validator.missing_variant();
                let by_tags = tags_verdict(tags, end.byte_range.start, missing);
                Some(match structural {
                    None => by_tags,
                    // A game of tags only (header-only archives): counted when its tags give
                    // a start and a result.
                    Some(r) if r.reason == RejectReason::NoMoves && has_result(&by_tags) => by_tags,
                    Some(r) => Verdict::Invalid(r),
                })
            }
        };
        (end, verdict)
    }
}
