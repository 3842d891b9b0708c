//! Judging one chunk for `check` and `clean`: every game validated by the library, the
//! kept ones rendered (when writing), the rejected ones copied as they were read, each
//! with its fate.

use super::render::render;
use super::ArchiveOptions;
use crate::pipeline::{ChunkFailure, ChunkOutput};
use crate::validate::{validate_chunk, Judged, RejectReason, Repair, ValidateOptions, Verdict};
use pgn_parse::{Origin, Tag};
use std::ops::Range;

/// The fate of one game in a chunk.
pub enum Fate {
    /// Kept (its text, when writing, is `range` of the chunk's text), with its dedupe key.
    Kept {
        /// Where its rendered text is.
        range: Range<usize>,
        /// Its dedupe key (0 unless deduplicating).
        key: u128,
        /// The repairs made.
        repairs: Vec<Repair>,
    },
    /// Another variant, passed through untouched.
    Unsupported {
        /// Where its original text is (when writing).
        range: Range<usize>,
        /// The variant, as named in the file.
        variant: String,
    },
    /// Rejected, with its original bytes in `range` of the chunk's text (when writing).
    Rejected {
        /// Where its original text is.
        range: Range<usize>,
        /// Why, and where.
        problem: Problem,
    },
}

/// A rejected game's reason and location, chunk-relative.
pub struct Problem {
    /// The reason.
    pub reason: RejectReason,
    /// A sentence for the user.
    pub detail: String,
    /// Line of the problem, counted from the chunk's start.
    pub local_line: u32,
    /// Column of the problem.
    pub column: u32,
    /// Absolute byte offset of the problem.
    pub offset: usize,
    /// Line of the game's start, counted from the chunk's start.
    pub game_line: u32,
    /// Who played, and where.
    pub players: Players,
}

/// The `White`, `Black` and `Site` tags of a game (`?` when absent), to name it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Players {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Where the game was played (`?` when unknown).
    pub site: String,
}

impl Players {
    /// Reads them from a game's tags.
    pub fn of(tags: &[Tag<'_>]) -> Players {
        let get = |name: &[u8]| {
            tags.iter()
                .find(|t| t.name == name)
                .map(|t| short_cell(&t.value_str()))
                .unwrap_or_else(|| "?".into())
        };
        Players {
            white: get(b"White"),
            black: get(b"Black"),
            site: get(b"Site"),
        }
    }
}

/// Longest tag value copied whole into a message or a TSV cell.
const CELL_LIMIT: usize = 100;

/// A tag value for a message or a TSV cell: cut, with its length, when longer than
/// [`CELL_LIMIT`] (the whole value is in the rejects file).
fn short_cell(value: &str) -> String {
    match crate::validate::cut_text(value, CELL_LIMIT) {
        std::borrow::Cow::Borrowed(whole) => whole.to_string(),
        cut => format!(
            "{cut} ({} bytes)",
            crate::validate::thousands(value.len() as u64)
        ),
    }
}

impl std::fmt::Display for Players {
    /// "White - Black, Site" (the site left out when unknown).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} - {}", self.white, self.black)?;
        if self.site != "?" {
            write!(f, ", {}", self.site)?;
        }
        Ok(())
    }
}

/// The result of judging one chunk.
pub struct ChunkOutcome {
    /// Each game's fate, in order.
    pub fates: Vec<Fate>,
    /// Rendered kept games and original texts, as the fates' ranges say.
    pub text: Vec<u8>,
    /// Bytes between games that were not a game.
    pub junk_bytes: u64,
    /// Where the first of them is (line from the chunk's start, column).
    pub first_junk: Option<(u32, u32)>,
    /// A later piece of a game too large, rejected in the chunk before: where its bytes
    /// are in `text` (when writing).
    pub continued: Option<Range<usize>>,
    /// A game the memory left could not hold (the run stops there).
    pub failure: Option<ChunkFailure>,
    /// How far the chunk's line lookup went ([`ChunkOutput::lines_seen`]).
    pub lines_seen: Option<(usize, u64)>,
}

impl ChunkOutput for ChunkOutcome {
    fn failure(&self) -> Option<&ChunkFailure> {
        self.failure.as_ref()
    }
    fn games(&self) -> u64 {
        self.fates.len() as u64
    }
    /// Lines are read for rejected games and junk only.
    fn needs_lines(&self) -> bool {
        self.first_junk.is_some()
            || self
                .fates
                .iter()
                .any(|f| matches!(f, Fate::Rejected { .. }))
    }
    fn lines_seen(&self) -> Option<(usize, u64)> {
        self.lines_seen
    }
}

/// The validation `opts` asks for.
pub fn validate_options(opts: &ArchiveOptions) -> ValidateOptions {
    ValidateOptions {
        canonical_san: opts.write,
        drop_bad_variations: opts.drop_bad_variations,
        dedupe_key: opts.dedupe,
        min_plies: opts.min_plies,
        normalise: opts.write.then_some(opts.fen_style),
        moves: false,
        missing_variant: opts.missing_variant,
        max_game_bytes: opts.max_game_bytes,
        assume_sp: opts.assume_sp,
        variant_tag: opts.variant_tag,
    }
}

/// Judges one chunk: every game validated and, when writing, rendered or copied.
pub fn process_chunk(bytes: &[u8], origin: Origin, opts: &ArchiveOptions) -> ChunkOutcome {
    let mut text = Vec::new();
    let mut fates = Vec::new();
    let base = origin.offset;
    let validate = validate_options(opts);
    let counts = validate_chunk(bytes, origin, &validate, false, |judged| {
        fates.push(fate(judged, bytes, base, opts, &mut text));
    });
    let continued = counts.continued.then(|| {
        let start = text.len();
        if opts.write {
            text.extend_from_slice(bytes);
            if counts.last_piece {
                text.extend_from_slice(b"\n\n");
            }
        }
        start..text.len()
    });
    ChunkOutcome {
        fates,
        text,
        junk_bytes: counts.junk_bytes,
        first_junk: counts.first_junk,
        continued,
        failure: counts.failure,
        lines_seen: counts.lines_seen,
    }
}

/// What becomes of one judged game.
fn fate(
    judged: Judged<'_, '_>,
    bytes: &[u8],
    base: usize,
    opts: &ArchiveOptions,
    text: &mut Vec<u8>,
) -> Fate {
    let copy_original = |text: &mut Vec<u8>| {
        let start = text.len();
        if opts.write {
            let range = &judged.byte_range;
            text.extend_from_slice(&bytes[range.start - base..range.end - base]);
            if !judged.continues {
                text.extend_from_slice(b"\n\n");
            }
        }
        start..text.len()
    };
    match judged.verdict {
        Verdict::Invalid(rejection) => {
            let (local_line, column) = judged.problem_at.unwrap_or((1, 1));
            Fate::Rejected {
                range: copy_original(text),
                problem: Problem {
                    reason: rejection.reason,
                    detail: rejection.detail,
                    local_line,
                    column,
                    offset: rejection.offset,
                    game_line: judged.line.unwrap_or(1),
                    players: Players::of(judged.tags),
                },
            }
        }
        Verdict::Unsupported(variant) => Fate::Unsupported {
            range: copy_original(text),
            variant,
        },
        Verdict::Valid(valid) => {
            let start = text.len();
            if let Some(game) = judged.game.filter(|_| opts.write) {
                render(game, &valid, opts, text);
            }
            Fate::Kept {
                range: start..text.len(),
                key: valid.dedupe_key,
                repairs: valid.repairs,
            }
        }
    }
}

/// Processes a whole input as one chunk and counts what became of its games:
/// `(games, kept, unsupported, rejected)` (for fuzzing and tests).
pub fn process_chunk_counts(bytes: &[u8], opts: &ArchiveOptions) -> (u64, u64, u64, u64) {
    let outcome = process_chunk(bytes, Origin::default(), opts);
    let mut counts = (outcome.fates.len() as u64, 0, 0, 0);
    for fate in &outcome.fates {
        match fate {
            Fate::Kept { .. } => counts.1 += 1,
            Fate::Unsupported { .. } => counts.2 += 1,
            Fate::Rejected { .. } => counts.3 += 1,
        }
    }
    counts
}
