//! Validating every game of a buffer, read the fastest way the options allow, with the
//! line and column of every problem.

use super::observe::{observe_chunk, over_limit, GameObserver, ReadMode};
use super::{parse_rejection, validate, ValidateOptions, Verdict};
use crate::pipeline::ChunkFailure;
use pgn_parse::{read_games_at, BadGame, ErrorKind, Game, LineIndex, Origin, Tag};
use std::ops::Range;

/// One game of a buffer with its verdict, handed to the caller of [`validate_chunk`].
pub struct Judged<'g, 'a> {
    /// 0-based index of the game in the buffer.
    pub index: u64,
    /// The game's bytes (absolute offsets).
    pub byte_range: Range<usize>,
    /// The game's tags, in file order.
    pub tags: &'g [Tag<'a>],
    /// The game read whole, when the options ask for canonical SAN (to write it again).
    pub game: Option<&'g Game<'a>>,
    /// The verdict.
    pub verdict: Verdict,
    /// The line of the game's first byte, counted from the buffer's [`Origin::line`]
    /// (for rejected games always, for the others when `locate_all` is given).
    pub line: Option<u32>,
    /// The (line, column) of the rejection's offset, for rejected games.
    pub problem_at: Option<(u32, u32)>,
    /// Whether the game's bytes go on in the next buffer(s): a game too large, handed out
    /// in pieces ([`pgn_parse::Part`]); `byte_range` is then its first piece.
    pub continues: bool,
}

/// What a buffer held besides its games.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkCounts {
    /// Games read.
    pub games: u64,
    /// Bytes between games that were not a game.
    pub junk_bytes: u64,
    /// The (line, column) of the first of them, counted from the buffer's origin.
    pub first_junk: Option<(u32, u32)>,
    /// Bytes scanned to find lines and columns: at most the buffer's length, however many
    /// games are rejected (the cost of locating them is linear).
    pub bytes_located: u64,
    /// Whether the buffer is a later piece of a game too large ([`Judged::continues`]):
    /// its bytes belong to the last game of the buffer before.
    pub continued: bool,
    /// For a later piece ([`ChunkCounts::continued`]): whether the game ends with it.
    pub last_piece: bool,
    /// How far the line lookup went: a local offset and the line breaks before it (see
    /// [`crate::pipeline::ChunkOutput::lines_seen`]).
    pub lines_seen: Option<(usize, u64)>,
    /// A game whose tokens the memory left could not hold: reading stopped before it
    /// (the run is to stop with an error, see [`crate::pipeline::ChunkOutput::failure`]).
    pub failure: Option<ChunkFailure>,
}

/// Lines of a buffer, located in increasing order.
pub(super) struct Lines<'b> {
    bytes: &'b [u8],
    base: usize,
    index: LineIndex,
}

impl<'b> Lines<'b> {
    /// The lines of `bytes`, a buffer starting at `origin`.
    pub(super) fn new(bytes: &'b [u8], origin: Origin) -> Lines<'b> {
        Lines {
            bytes,
            base: origin.offset,
            index: LineIndex::new(origin.line),
        }
    }

    /// The (line, column) of an absolute offset.
    pub(super) fn locate(&mut self, offset: usize) -> (u32, u32) {
        self.index
            .locate(self.bytes, offset.saturating_sub(self.base))
    }

    /// The line of a game (when rejected, or `all`) and the place of its problem.
    pub(super) fn locate_game(
        &mut self,
        verdict: &Verdict,
        range: &Range<usize>,
        all: bool,
    ) -> (Option<u32>, Option<(u32, u32)>) {
        let rejection = verdict.rejection();
        let line = (all || rejection.is_some()).then(|| self.locate(range.start).0);
        let problem_at = rejection.map(|r| self.locate(r.offset.max(range.start)));
        (line, problem_at)
    }

    /// Bytes scanned so far.
    pub(super) fn bytes_scanned(&self) -> u64 {
        self.index.bytes_scanned()
    }

    /// How far the lookup went: a local offset and the line breaks before it.
    pub(super) fn seen(&self) -> Option<(usize, u64)> {
        self.index.reached()
    }
}

/// Reads and validates every game of `bytes` (a buffer starting at `origin`), calling `f`
/// for each in order: [`observe_chunk`] with an observer that wants the judged games only.
/// With [`ValidateOptions::canonical_san`] each game is read whole (tokens kept for writing
/// it again); otherwise it is validated while it is read. Both give the same verdicts.
/// Locations are found for rejected games, and for every game when `locate_all`; they cost
/// a pass over the bytes before them, in increasing order only.
pub fn validate_chunk<'a>(
    bytes: &'a [u8],
    origin: Origin,
    opts: &ValidateOptions,
    locate_all: bool,
    f: impl FnMut(Judged<'_, 'a>),
) -> ChunkCounts {
    let mut observer = EachGame(f);
    observe_chunk(
        bytes,
        origin,
        opts,
        ReadMode::Replay,
        locate_all,
        &mut observer,
    )
}

/// An observer that hands every judged game to a closure.
struct EachGame<F>(F);

impl<'a, F: FnMut(Judged<'_, 'a>)> GameObserver<'a> for EachGame<F> {
    /// Judged games only: no moves.
    fn moves_wanted(&self) -> u32 {
        0
    }
    fn end_game(&mut self, game: Judged<'_, 'a>) {
        (self.0)(game);
    }
}

/// The failure of a game whose tokens were refused memory (`bad`, at `line` of its
/// buffer).
fn tokens_refused(bad: &BadGame<'_>, line: u32) -> ChunkFailure {
    ChunkFailure {
        line,
        message: format!(
            "its move tokens (about 30 bytes each) for {} bytes of game were refused; lower \
             --max-game-bytes or give the run more memory",
            bad.byte_range.len()
        ),
    }
}

/// The games of a buffer read whole (tokens kept, for writing them again), each validated
/// from its tokens and handed to `observer` (its `tags` are told, its skip ignored).
pub(super) fn read_whole<'a, O: GameObserver<'a>>(
    bytes: &'a [u8],
    origin: Origin,
    opts: &ValidateOptions,
    locate_all: bool,
    lines: &mut Lines<'_>,
    observer: &mut O,
) -> ChunkCounts {
    let mut counts = ChunkCounts::default();
    let mut games = read_games_at(bytes, origin).max_game_bytes(opts.max_game_bytes);
    for (index, item) in games.by_ref().enumerate() {
        if let Err(bad) = &item {
            if bad.error.kind == ErrorKind::OutOfMemory {
                let (line, _) = lines.locate(bad.byte_range.start);
                counts.failure = Some(tokens_refused(bad, line));
                return counts;
            }
        }
        let (tags, game, byte_range, verdict) = match &item {
            Ok(game) => {
                observer.tags(&game.tags);
                let mut verdict = validate(game, *opts);
                if let Some(too_large) = over_limit(opts, &game.byte_range) {
                    verdict = too_large;
                }
                note_latin1(&mut verdict, bytes, origin, &game.byte_range, opts);
                note_invisible(&mut verdict, bytes, origin, &game.tags);
                (&game.tags[..], Some(game), game.byte_range.clone(), verdict)
            }
            Err(bad) => {
                observer.tags(&bad.tags);
                let mut verdict = Verdict::Invalid(parse_rejection(&bad.error));
                if let Some(too_large) = over_limit(opts, &bad.byte_range) {
                    verdict = too_large;
                }
                (&bad.tags[..], None, bad.byte_range.clone(), verdict)
            }
        };
        let (line, problem_at) = lines.locate_game(&verdict, &byte_range, locate_all);
        observer.end_game(Judged {
            index: index as u64,
            byte_range,
            tags,
            game,
            verdict,
            line,
            problem_at,
            continues: false,
        });
        counts.games += 1;
    }
    counts.junk_bytes = games.reader().junk_bytes();
    counts.first_junk = games.reader().first_junk().map(|at| lines.locate(at));
    counts.bytes_located = lines.bytes_scanned();
    counts.lines_seen = lines.seen();
    counts
}

/// A piece of a stretch too large to hold: its first piece is a game rejected as
/// [`super::RejectReason::TooLarge`] (when the stretch is a game), later pieces continue it;
/// a stretch of junk is counted as junk.
pub(super) fn oversized_part<'a>(
    bytes: &'a [u8],
    origin: Origin,
    part: pgn_parse::Part,
    mut f: impl FnMut(Judged<'_, 'a>),
) -> ChunkCounts {
    let mut counts = ChunkCounts::default();
    if !part.game {
        counts.junk_bytes = bytes.len() as u64;
        counts.first_junk = part.first.then_some((origin.line, 1));
    } else if part.first {
        let at = (origin.line, 1);
        f(Judged {
            index: 0,
            byte_range: origin.offset..origin.offset + bytes.len(),
            tags: &[],
            game: None,
            verdict: Verdict::Invalid(super::too_large(part.limit, origin.offset)),
            line: Some(at.0),
            problem_at: Some(at),
            continues: !part.last,
        });
        counts.games = 1;
    } else {
        counts.continued = true;
        counts.last_piece = part.last;
    }
    counts
}

/// When normalising, a valid game whose text is not UTF-8 is read as Latin-1: a repair.
pub(super) fn note_latin1(
    verdict: &mut Verdict,
    bytes: &[u8],
    origin: Origin,
    range: &Range<usize>,
    opts: &ValidateOptions,
) {
    if let (Verdict::Valid(valid), Some(_)) = (verdict, opts.normalise) {
        let text = &bytes[range.start - origin.offset..range.end - origin.offset];
        if std::str::from_utf8(text).is_err() {
            valid.repairs.push(super::Repair::Latin1Decoded);
        }
    }
}

/// A valid game with a tag line behind invisible characters (not the byte order mark that
/// starts the input): a repair, counted once per game.
pub(super) fn note_invisible(
    verdict: &mut Verdict,
    bytes: &[u8],
    origin: Origin,
    tags: &[Tag<'_>],
) {
    let Verdict::Valid(valid) = verdict else {
        return;
    };
    let hidden = tags.iter().any(|tag| {
        let at = tag.offset - origin.offset;
        let len = pgn_parse::boundary::invisible_before(bytes, at);
        let input_bom =
            origin.offset == 0 && at == 3 && len == 3 && bytes.starts_with(b"\xEF\xBB\xBF");
        len > 0 && !input_bom
    });
    if hidden {
        valid.repairs.push(super::Repair::InvisibleBeforeTagDropped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::Repair;

    /// Every verdict of a buffer, as text (kind, reason, where, detail, dedupe key, repairs).
    fn verdicts(bytes: &[u8], tokens: bool) -> Vec<String> {
        let opts = ValidateOptions {
            canonical_san: tokens,
            drop_bad_variations: true,
            dedupe_key: true,
            ..ValidateOptions::default()
        };
        let mut out = Vec::new();
        validate_chunk(bytes, Origin::default(), &opts, true, |judged| {
            out.push(match judged.verdict {
                Verdict::Valid(v) => format!(
                    "{:?} valid {:x} {:?} {:?}",
                    judged.line,
                    v.dedupe_key,
                    // Canonical SAN, and so `san-normalised`, is worked out only when the
                    // game is read whole to be written.
                    v.repairs
                        .iter()
                        .filter(|r| **r != Repair::SanNormalised)
                        .map(Repair::name)
                        .collect::<Vec<_>>(),
                    v.end.to_string()
                ),
                Verdict::Unsupported(variant) => format!("unsupported {variant}"),
                Verdict::Invalid(r) => format!(
                    "rejected {} {:?} @{} {:?} {:?}",
                    r.reason, judged.problem_at, r.offset, judged.line, r.detail,
                ),
            })
        });
        out
    }

    #[test]
    fn locating_rejected_games_is_linear_in_their_number() {
        // Every kind of small rejected game; 4x the games must cost at most 5x the work,
        // counted in bytes scanned for lines (each byte once), whichever way it is read.
        let games = [
            "[Event \"x\"]\n\n1. e4 e4 *\n\n",
            "[Event \"x\"]\n\n1. e4 (e5 *\n\n",
            "[Event \"x\"]\n\n1. e4 {open\n\n",
            "[Event \"x\"]\n\n1. e4 e5\n\n",
            "[Event \"x\"]\n[FEN \"bad\"]\n\n1. e4 *\n\n",
            "[Event \"x\"]\n\n1. Zz9 *\n\n",
            "[Event \"x\"]\n\n1. -- *\n\n",
            "[Variant \"Chess960\"]\n\n1. e4 *\n\n",
        ]
        .concat();
        for canonical_san in [false, true] {
            let opts = ValidateOptions {
                canonical_san,
                ..ValidateOptions::default()
            };
            let work = |copies: usize| {
                let bytes = games.repeat(copies);
                let mut rejected = 0;
                let counts =
                    validate_chunk(bytes.as_bytes(), Origin::default(), &opts, false, |j| {
                        rejected += u64::from(j.verdict.rejection().is_some());
                    });
                assert_eq!(rejected, 8 * copies as u64);
                assert!(counts.bytes_located <= bytes.len() as u64);
                counts.bytes_located
            };
            let (small, large) = (work(1_000), work(4_000));
            assert!(large <= 5 * small, "{small} -> {large} bytes scanned");
        }
    }

    #[test]
    fn validating_while_reading_agrees_with_validating_read_games() {
        // `check` validates from the reader's events, `clean` from token lists: the same
        // verdict, reason, position and repairs for every game of every fixture.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut games = 0;
        for dir in ["check", "pgn", "fuzz-regressions", "."] {
            for entry in std::fs::read_dir(root.join(dir)).into_iter().flatten() {
                let Ok(entry) = entry else { continue };
                let path = entry.path();
                if path.extension().is_none_or(|e| e != "pgn") {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap_or_default();
                let (streamed, collected) = (verdicts(&bytes, false), verdicts(&bytes, true));
                assert_eq!(streamed, collected, "{}", path.display());
                games += streamed.len();
            }
        }
        assert!(games > 100, "{games} games compared");
    }
}
