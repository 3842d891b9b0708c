//! Validating while reading: a [`Visitor`] that feeds the reader's events to a [`Replay`].

use super::replay::Replay;
use super::{parse_rejection, truncation, RejectReason, Rejection, ValidateOptions, Verdict};
use chess960_core::{CastlingSide, Move, Position, San, Undo};
use pgn_parse::{DecodedSan, GameEnd, GameResult, SanAction, Skip, Tag, Visitor};

/// A [`Visitor`] that validates each game while it is read: no token list is built, the
/// movetext of a game whose tags already decide it is skipped, and the tags stay available
/// through [`Validator::tags`] until the next game. Each game's output is its final
/// verdict, parse errors and games cut short included.
///
/// ```
/// use pgn960::validate::{Validator, ValidateOptions, Verdict};
/// use pgn_parse::Reader;
///
/// let pgn = b"[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. d4 d5 2. Nf3 1-0\n";
/// let mut reader = Reader::new(pgn);
/// let mut validator = Validator::new(ValidateOptions::default());
/// let (_end, verdict) = reader.read_game(&mut validator).unwrap();
/// assert_eq!(verdict.valid().unwrap().plies, 3);
/// ```
pub struct Validator<'a> {
    opts: ValidateOptions,
    /// Whether moves are decoded by the reader (else read from their text).
    decode_san: bool,
    tags: Vec<Tag<'a>>,
    game_start: usize,
    /// The last offset of the current game within `--max-game-bytes` (`usize::MAX` without a
    /// limit): one compare per event in [`Validator::replay_at`].
    deadline: usize,
    state: State,
    /// The start of the next game, found from its moves (see [`super::FoundStart`]).
    found_start: Option<super::FoundStart>,
    /// The main-line plies the replay had played when the game was decided as too large.
    decided_plies: u32,
}

/// Where the validator is in the current game. Not boxed: there is one per validator, and a
/// box would cost an allocation per game.
#[allow(clippy::large_enum_variant)]
enum State {
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
            decode_san: true,
            tags: Vec::new(),
            game_start: 0,
            deadline: usize::MAX,
            state: State::Tags,
            found_start: None,
            decided_plies: 0,
        }
    }

    /// The same validator reading every move from its text, as [`super::validate`] does,
    /// instead of taking the move the reader decoded: the same verdicts, more slowly (for
    /// tests comparing the two paths).
    pub fn reading_san_as_text(self) -> Validator<'a> {
        Validator {
            decode_san: false,
            ..self
        }
    }

    /// The tags of the game read last.
    pub fn tags(&self) -> &[Tag<'a>] {
        &self.tags
    }

    /// The start of the game whose tags were read last, as its tags (or the start found for
    /// it) give it; `None` when they give none to replay from (the verdict says why).
    pub(super) fn tagged_start(&self) -> Option<super::start::TaggedStart> {
        use super::start::TaggedStart;
        match &self.state {
            State::Replaying(replay) => {
                let start = replay.start_position();
                Some(TaggedStart::Chess(start.kind, start.class.kind))
            }
            State::Decided(Verdict::Unsupported(_)) => Some(TaggedStart::Other),
            _ => None,
        }
    }

    /// The options (canonical SAN off).
    pub(super) fn options(&self) -> ValidateOptions {
        self.opts
    }

    /// Replays the next game read from `found` instead of the start its tags give.
    pub(super) fn start_next_from(&mut self, found: super::FoundStart) {
        self.found_start = Some(found);
    }

    /// What a game without a `Variant` tag is, for this validator.
    pub(super) fn missing_variant(&self) -> super::MissingVariant {
        self.opts.missing_variant
    }

    /// The main-line move the last SAN played, what takes it back, and the position after it.
    pub(super) fn last_main_move(&self) -> Option<(Move, Undo, &Position)> {
        match &self.state {
            State::Replaying(replay) => replay.last_main_move(),
            _ => None,
        }
    }

    /// The main-line plies played so far in the current game (those played before it was
    /// decided as too large, once it is; 0 before a replay starts).
    #[inline(always)]
    pub(super) fn main_plies(&self) -> u32 {
        match &self.state {
            State::Replaying(replay) => replay.plies(),
            _ => self.decided_plies,
        }
    }

    #[inline]
    fn replay(&mut self) -> Option<&mut Replay> {
        match &mut self.state {
            State::Replaying(replay) if !replay.has_failed() => Some(replay),
            _ => None,
        }
    }

    /// The replay, for an event at `offset`; none once the game has run past
    /// `--max-game-bytes`: it is then decided as too-large, and the moves after that point
    /// are not replayed or recorded (a mapped game is read whole, and its records would
    /// grow with it).
    // Always inlined: out of line it was a call on every move and comment (40 M
    // instructions of `check -j1` on bulk-26mb.pgn; 26.6 M fewer in all inlined).
    #[inline(always)]
    fn replay_at(&mut self, offset: usize) -> Option<&mut Replay> {
        if offset > self.deadline {
            self.decide_too_large(self.opts.max_game_bytes);
            return None;
        }
        self.replay()
    }

    /// The game has run past `--max-game-bytes` (`limit`): decided as too large, unless
    /// already decided (out of line: [`Validator::replay_at`] runs for every move and
    /// comment, and was a call of its own, 26 instructions each, while this was inside it).
    #[cold]
    #[inline(never)]
    fn decide_too_large(&mut self, limit: usize) {
        if let State::Replaying(replay) = &self.state {
            self.decided_plies = replay.plies();
            let verdict = Verdict::Invalid(super::too_large(limit, self.game_start));
            self.state = State::Decided(verdict);
        }
    }
}

impl<'a> Visitor<'a> for Validator<'a> {
    type Output = (GameEnd, Verdict);

    fn begin_game(&mut self, offset: usize) {
        self.tags.clear();
        self.game_start = offset;
        let limit = self.opts.max_game_bytes;
        self.deadline = if limit > 0 {
            offset.saturating_add(limit)
        } else {
            usize::MAX
        };
        self.state = State::Tags;
        self.decided_plies = 0;
    }
    fn tag(&mut self, tag: Tag<'a>) {
        self.tags.push(tag);
    }
    fn end_tags(&mut self) -> Skip {
        let found = self.found_start.take();
        match Replay::start_from(&self.tags, self.game_start, self.opts, found) {
            Ok(replay) => {
                self.state = State::Replaying(replay);
                Skip(false)
            }
            Err(verdict) => {
                self.state = State::Decided(verdict);
                Skip(true)
            }
        }
    }
    fn san(&mut self, san: &'a [u8], offset: usize) {
        if let Some(replay) = self.replay_at(offset) {
            replay.san(san, offset);
        }
    }
    fn wants_decoded_san(&self) -> bool {
        self.decode_san
    }
    #[inline(always)]
    fn decoded_san(&mut self, san: DecodedSan, raw: &'a [u8], offset: usize) {
        if let Some(replay) = self.replay_at(offset) {
            match core_san(san) {
                Some(san) => replay.decoded_san(san, raw, offset),
                None => replay.san(raw, offset),
            }
        }
    }
    fn null_move(&mut self, offset: usize) {
        if let Some(replay) = self.replay_at(offset) {
            replay.null_move(offset);
        }
    }
    #[inline(always)]
    fn comment(&mut self, text: &'a [u8], offset: usize) {
        if let Some(replay) = self.replay_at(offset) {
            replay.comment(text);
        }
    }
    #[inline(always)]
    fn clock_comment(&mut self, text: &'a [u8], offset: usize) {
        if let Some(replay) = self.replay_at(offset) {
            replay.clock_comment(text);
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
        if let State::Replaying(replay) = &mut self.state {
            replay.result(result);
        }
    }
    fn end_game(&mut self, end: GameEnd) -> Self::Output {
        let state = std::mem::replace(&mut self.state, State::Tags);
        let structural = structural_rejection(&end, &self.tags);
        let verdict = match (structural, state) {
            (Some(rejection), _) => Verdict::Invalid(rejection),
            (None, State::Replaying(replay)) => replay.finish(&self.tags),
            (None, State::Decided(verdict)) => verdict,
            // A game that ended inside its tags without a parse error.
            (None, State::Tags) => Verdict::Invalid(Rejection::new(
                RejectReason::ParseError,
                "the game ends inside its tags".into(),
                self.game_start,
            )),
        };
        (end, verdict)
    }
}

/// The rejection the reader's view of a game alone decides: a parse error, or a movetext
/// cut short or missing (`None` when the game is whole); `tags` are the game's.
pub fn structural_rejection(end: &GameEnd, tags: &[Tag<'_>]) -> Option<Rejection> {
    match &end.error {
        Some(error) => Some(parse_rejection(error)),
        None => truncation(end.movetext_end, &end.byte_range, tags),
    }
}

/// The `chess960-core` SAN of a move the reader decoded (`None` if the parts make none: the
/// text is then read instead, so that its rules stay in one place).
#[inline]
pub fn core_san(decoded: DecodedSan) -> Option<San> {
    match decoded.action {
        SanAction::Castle { queen_side: false } => Some(San::Castle(CastlingSide::KingSide)),
        SanAction::Castle { queen_side: true } => Some(San::Castle(CastlingSide::QueenSide)),
        SanAction::Move {
            piece,
            from_file,
            from_rank,
            capture,
            to,
            promotion,
        } => San::from_parts(piece, from_file, from_rank, capture, to, promotion),
    }
}
