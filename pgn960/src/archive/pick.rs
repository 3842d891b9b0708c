//! What `filter` and `split` share: each game of a chunk selected, not selected (with the
//! filter that dropped it) or rejected (with its reason), its text copied as read or
//! normalised as `clean` writes it; and the sink side that counts them and writes the
//! rejected games, so that games read = selected + not selected + rejected.
//!
//! Games are read by the library's one loop ([`observe_chunk`]) with a [`Picker`] as the
//! observer.

use super::chunk::{Players, Problem};
use super::render::render;
use super::{reject_row, ArchiveOptions};
use crate::driver::Driver;
use crate::input::{Bytes, InputName, Source};
use crate::output::{bail, Result, Sink};
use crate::pipeline::{ChunkFailure, ChunkInfo, ChunkOutput, Cut};
use crate::select::{FilteredBy, Selection, TaggedStart};
use crate::validate::variant::VariantSpelling;
use crate::validate::GameKind;
use crate::validate::{
    observe_chunk, GameObserver, Judged, MissingVariant, ReadMode, RejectReason, Rejection,
    ValidateOptions, Verdict,
};
use chess960_core::CastlingStyle;
use pgn_parse::{Origin, Skip, Tag};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::sync::Arc;

/// A split key worked out in the workers from a valid (or other-variant) game's tags and
/// verdict: the raw key value.
pub type KeyFn = dyn Fn(&[Tag<'_>], &Verdict) -> Vec<u8> + Sync;

/// How to pick games.
pub struct PickOptions<'s> {
    /// The selection.
    pub selection: &'s Selection,
    /// Write selected games normalised with this FEN style (else as they were read).
    pub normalise: Option<CastlingStyle>,
    /// With `normalise`: the Variant tag written in Chess960 games.
    pub variant_tag: VariantSpelling,
    /// Copy the text of selected and rejected games (else only count them).
    pub write: bool,
    /// What games without a Variant tag are.
    pub missing_variant: MissingVariant,
    /// The split key of each selected game, if splitting.
    pub key: Option<&'s KeyFn>,
    /// Games of more bytes are rejected as `too-large` (`--max-game-bytes`; 0: no limit).
    pub max_game_bytes: usize,
    /// The start taken for a game whose start is ambiguous (`--assume-sp`).
    pub assume_sp: Option<chess960_core::SpPair>,
}

/// What became of one game.
pub enum Pick {
    /// Selected: its text is `range` of the chunk's text (or, `in_input`, of the input
    /// held whole, at absolute offsets: not copied), `key` its split key.
    Selected {
        /// Where its text is.
        range: Range<usize>,
        /// Whether `range` is of the input held whole.
        in_input: bool,
        /// Its split key (empty unless splitting).
        key: Vec<u8>,
    },
    /// Valid (or of another variant) but not selected, and by which filter.
    Dropped(FilteredBy),
    /// Rejected: its original text is `range` of the chunk's text.
    Rejected {
        /// Where its text is.
        range: Range<usize>,
        /// Why, and where.
        problem: Problem,
    },
    /// Rejected as too large (`--max-game-bytes`): its text is copied to the rejects
    /// piece by piece, never held whole.
    TooLarge {
        /// Where its text (or its first piece) is.
        text: LargeText,
        /// Why, and where.
        problem: Problem,
    },
}

/// Where the text of a game too large to hold is.
pub enum LargeText {
    /// A piece of a streamed game: `range` of the chunk's text, and whether the game ends
    /// with it (later pieces come as [`Picked::continued`]).
    Piece(Range<usize>, bool),
    /// Still in the input held whole (a mapped file), at these absolute offsets.
    InInput(Range<usize>),
}

/// A game over the limit no larger than this is copied in the worker (as a streamed block
/// may hold one when the limit is below the block size); a larger one, only found in an
/// input held whole, is copied from there by the sink.
const COPY_IN_WORKER: usize = 8 << 20;

/// The picks of one chunk.
pub struct Picked {
    /// Each game's fate, in order.
    pub picks: Vec<Pick>,
    /// The texts the picks' ranges point into.
    pub text: Vec<u8>,
    /// Bytes between games that were not a game.
    pub junk_bytes: u64,
    /// Where the first of them is (line from the chunk's start, column).
    pub first_junk: Option<(u32, u32)>,
    /// A later piece of a game too large, rejected in a chunk before: where its bytes are
    /// in `text`, and whether the game ends with it.
    pub continued: Option<(Range<usize>, bool)>,
    /// A game the memory left could not hold (the run stops there).
    pub failure: Option<ChunkFailure>,
    /// How far the chunk's line lookup went ([`ChunkOutput::lines_seen`]).
    pub lines_seen: Option<(usize, u64)>,
}

impl ChunkOutput for Picked {
    fn failure(&self) -> Option<&ChunkFailure> {
        self.failure.as_ref()
    }
    fn games(&self) -> u64 {
        self.picks.len() as u64
    }
    /// Lines are read for rejected games and junk only ([`tally`]).
    fn needs_lines(&self) -> bool {
        self.first_junk.is_some()
            || self
                .picks
                .iter()
                .any(|p| matches!(p, Pick::Rejected { .. } | Pick::TooLarge { .. }))
    }
    fn lines_seen(&self) -> Option<(usize, u64)> {
        self.lines_seen
    }
}

/// The validation a pick needs.
fn validate_options(opts: &PickOptions<'_>) -> ValidateOptions {
    ValidateOptions {
        canonical_san: opts.normalise.is_some(),
        normalise: opts.normalise,
        variant_tag: opts.variant_tag,
        moves: opts.selection.needs_moves(),
        missing_variant: opts.missing_variant,
        max_game_bytes: opts.max_game_bytes,
        assume_sp: opts.assume_sp,
        ..ValidateOptions::default()
    }
}

/// Whether a judged game is selected: `Ok` or the filter that drops it. `failed` is the
/// tag filter already known to fail, if the tags were checked.
fn decide(
    sel: &Selection,
    tags: &[Tag<'_>],
    verdict: &Verdict,
    failed: Option<Option<FilteredBy>>,
) -> Result<(), FilteredBy> {
    let failed = failed.unwrap_or_else(|| sel.check_tags(tags));
    let failed = failed.or_else(|| match verdict {
        Verdict::Valid(game) => sel.check_game(game),
        _ => sel.check_other_variant(),
    });
    match (failed, sel.invert) {
        (None, false) => Ok(()),
        (Some(f), false) => Err(f),
        (None, true) => Err(FilteredBy::Inverted),
        (Some(_), true) => Ok(()),
    }
}

/// Copies `bytes[range]` (absolute offsets from `base`) to `text`; returns where it is.
fn copy(text: &mut Vec<u8>, bytes: &[u8], base: usize, range: &Range<usize>) -> Range<usize> {
    let start = text.len();
    text.extend_from_slice(&bytes[range.start - base..range.end - base]);
    start..text.len()
}

/// A rejected game's problem, located in the chunk.
fn problem(rejection: Rejection, tags: &[Tag<'_>], game_line: u32, at: (u32, u32)) -> Problem {
    Problem {
        reason: rejection.reason,
        detail: rejection.detail,
        local_line: at.0,
        column: at.1,
        offset: rejection.offset,
        game_line,
        players: Players::of(tags),
    }
}

/// The pick of a game over the limit read whole from a chunk: its text left in the input
/// for the sink when the input is held whole and the game is large, else copied (a
/// streamed block or a Parquet row group holds games of a bounded size).
fn too_large_pick(
    text: &mut Vec<u8>,
    bytes: &[u8],
    base: usize,
    range: &Range<usize>,
    opts: &PickOptions<'_>,
    held: bool,
    problem: Problem,
) -> Pick {
    let text = match (opts.write, held && range.len() > COPY_IN_WORKER) {
        (false, _) => LargeText::Piece(0..0, true),
        (true, false) => LargeText::Piece(copy(text, bytes, base, range), true),
        (true, true) => LargeText::InInput(range.clone()),
    };
    Pick::TooLarge { text, problem }
}

/// The observer that picks games. Without `--normalise` the selection's tag checks run
/// when a game's tags are read, and a game they drop has its movetext skipped, not
/// validated (as `stats --headers-only` does): it counts as not selected unless the reader
/// found it broken or too large, which makes it rejected whatever the selection. With
/// `--normalise` every game is read whole and validated, then selected.
struct Picker<'p, 's, 'b> {
    opts: &'p PickOptions<'s>,
    bytes: &'b [u8],
    base: usize,
    held: bool,
    /// The games are Parquet rows ([`InputShape::rows`]).
    rows: bool,
    /// The tag filter the current game failed, once its tags were checked.
    failed: Option<Option<FilteredBy>>,
    picks: Vec<Pick>,
    text: Vec<u8>,
}

impl<'a> GameObserver<'a> for Picker<'_, '_, '_> {
    /// The judged game only: no moves.
    fn moves_wanted(&self) -> u32 {
        0
    }
    fn tags(&mut self, tags: &[Tag<'a>]) -> Skip {
        if self.opts.normalise.is_some() {
            self.failed = None;
            return Skip(false);
        }
        let sel = self.opts.selection;
        let failed = sel.check_tags(tags);
        self.failed = Some(failed);
        Skip(failed.is_some() && !sel.invert)
    }
    fn start(&mut self, start: Option<TaggedStart>) -> Skip {
        // The start filters, on the start the validator resolved (once per game).
        let sel = self.opts.selection;
        let tag_failed = matches!(self.failed, Some(Some(_)));
        if self.opts.normalise.is_some() || !sel.needs_start() || tag_failed {
            return Skip(false);
        }
        let failed = start.and_then(|s| sel.check_start(s));
        self.failed = Some(failed);
        Skip(failed.is_some() && !sel.invert)
    }
    fn end_game(&mut self, judged: Judged<'_, 'a>) {
        let pick = self.pick(judged);
        self.picks.push(pick);
    }
    fn skipped(&mut self, _byte_range: Range<usize>) {
        let filter = self.failed.flatten().unwrap_or(FilteredBy::Tag);
        self.picks.push(Pick::Dropped(filter));
    }
}

impl Picker<'_, '_, '_> {
    /// What becomes of a judged game.
    fn pick(&mut self, judged: Judged<'_, '_>) -> Pick {
        let (opts, bytes, base) = (self.opts, self.bytes, self.base);
        let text = &mut self.text;
        let at = judged.problem_at.unwrap_or((1, 1));
        let game_line = judged.line.unwrap_or(1);
        match judged.verdict {
            Verdict::Invalid(rejection) if rejection.reason == RejectReason::TooLarge => {
                let problem = problem(rejection, judged.tags, game_line, at);
                if judged.continues {
                    let range = if opts.write {
                        copy(text, bytes, base, &judged.byte_range)
                    } else {
                        0..0
                    };
                    return Pick::TooLarge {
                        text: LargeText::Piece(range, false),
                        problem,
                    };
                }
                too_large_pick(
                    text,
                    bytes,
                    base,
                    &judged.byte_range,
                    opts,
                    self.held,
                    problem,
                )
            }
            Verdict::Invalid(rejection) => {
                let range = if opts.write {
                    copy(text, bytes, base, &judged.byte_range)
                } else {
                    0..0
                };
                Pick::Rejected {
                    range,
                    problem: problem(rejection, judged.tags, game_line, at),
                }
            }
            verdict => match decide(opts.selection, judged.tags, &verdict, self.failed) {
                Err(f) => Pick::Dropped(f),
                Ok(()) => {
                    let key = opts.key.map_or(Vec::new(), |k| k(judged.tags, &verdict));
                    // A game written as read stays in an input held whole: the sink
                    // writes it from there.
                    let as_read = opts.normalise.is_none() && !self.rows;
                    if opts.write && as_read && self.held {
                        return Pick::Selected {
                            range: judged.byte_range,
                            in_input: true,
                            key,
                        };
                    }
                    let start = text.len();
                    if opts.write {
                        match (&verdict, judged.game, opts.normalise) {
                            (Verdict::Valid(valid), Some(game), Some(style)) => {
                                let archive = ArchiveOptions {
                                    write: true,
                                    fen_style: style,
                                    variant_tag: opts.variant_tag,
                                    ..ArchiveOptions::default()
                                };
                                render(game, valid, &archive, text)
                            }
                            (Verdict::Valid(valid), _, None) if self.rows => {
                                let chess960 = valid.kind == GameKind::Chess960;
                                let range = &judged.byte_range;
                                let game = &bytes[range.start - base..range.end - base];
                                write_row_game(game, judged.tags, chess960, text);
                            }
                            _ => {
                                copy(text, bytes, base, &judged.byte_range);
                            }
                        }
                    }
                    Pick::Selected {
                        range: start..text.len(),
                        in_input: false,
                        key,
                    }
                }
            },
        }
    }
}

/// What the games of a chunk are part of.
#[derive(Debug, Clone, Copy, Default)]
pub struct InputShape {
    /// An input held whole (a mapped file), from which the sink can copy a game too large
    /// ([`run_picks`]).
    pub held: bool,
    /// A Parquet table: a game's text is built from its row, and written in the normal
    /// form (`crate::parquet::write_row_game`).
    pub rows: bool,
}

/// Picks the games of one chunk of an input shaped as `shape` says.
pub fn pick_chunk(
    bytes: &[u8],
    origin: Origin,
    opts: &PickOptions<'_>,
    shape: InputShape,
) -> Picked {
    let mut picker = Picker {
        opts,
        bytes,
        base: origin.offset,
        held: shape.held,
        rows: shape.rows,
        failed: None,
        picks: Vec::new(),
        // The games written are about the chunk's bytes: reserved once, the text is not
        // copied again each time it grows (reallocations were 5% of `split`'s instructions).
        // Games written as read from an input held whole are not copied (see `pick`).
        text: Vec::with_capacity(match opts.write && !copied_in_place(opts, shape) {
            true => bytes.len(),
            false => 0,
        }),
    };
    let validate = validate_options(opts);
    let counts = observe_chunk(
        bytes,
        origin,
        &validate,
        ReadMode::Replay,
        false,
        &mut picker,
    );
    let mut text = picker.text;
    let continued = counts.continued.then(|| {
        let start = text.len();
        if opts.write {
            text.extend_from_slice(bytes);
        }
        (start..text.len(), counts.last_piece)
    });
    Picked {
        picks: picker.picks,
        text,
        junk_bytes: counts.junk_bytes,
        first_junk: counts.first_junk,
        continued,
        failure: counts.failure,
        lines_seen: counts.lines_seen,
    }
}

/// Whether the selected games of a chunk stay in the input, not copied: written as read
/// from an input held whole.
fn copied_in_place(opts: &PickOptions<'_>, shape: InputShape) -> bool {
    shape.held && !shape.rows && opts.normalise.is_none()
}

/// The counts of a `filter` or `split` run, as printed and written to `--report`.
#[derive(Debug, Default, Clone, Serialize)]
pub struct PickSummary {
    /// The inputs, in order.
    pub inputs: Vec<String>,
    /// Games read.
    pub games_read: u64,
    /// Games selected (written, unless --count).
    pub selected: u64,
    /// Games read but not selected.
    pub not_selected: u64,
    /// Games rejected as invalid (never selected).
    pub rejected: u64,
    /// Games not selected, by the first filter that dropped them.
    pub not_selected_by: BTreeMap<&'static str, u64>,
    /// Rejections by reason.
    pub rejected_by_reason: BTreeMap<&'static str, u64>,
    /// Bytes of text between games that was not a game.
    pub junk_bytes: u64,
    /// Where the first of them is (`file:line:column`).
    pub first_junk: Option<String>,
    /// Bytes read.
    pub bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl PickSummary {
    /// The summary lines printed at the end of a run.
    pub fn text(&self) -> String {
        let mut text = format!(
            "games read {} = selected {} + not selected {} + rejected {}\n",
            self.games_read, self.selected, self.not_selected, self.rejected
        );
        for (name, n) in &self.not_selected_by {
            text.push_str(&format!("  not selected, {name}: {n}\n"));
        }
        for (name, n) in &self.rejected_by_reason {
            text.push_str(&format!("  rejected, {name}: {n}\n"));
        }
        if self.junk_bytes > 0 {
            text.push_str(&format!(
                "  {} bytes between games were not a game (first at {})\n",
                self.junk_bytes,
                self.first_junk.as_deref().unwrap_or("?")
            ));
        }
        text
    }

    /// Checks that every game read is accounted for.
    pub fn check(&self) -> Result<()> {
        if self.selected + self.not_selected + self.rejected != self.games_read {
            bail!(
                "internal error: games read ({}) != selected ({}) + not selected ({}) + rejected ({}); outputs not written",
                self.games_read, self.selected, self.not_selected, self.rejected
            );
        }
        Ok(())
    }
}

/// Where rejected games go: the games as read and the TSV of reasons.
#[derive(Default)]
pub struct Rejects {
    /// Rejected games.
    pub games: Option<Sink>,
    /// The TSV sidecar.
    pub tsv: Option<csv::Writer<Sink>>,
}

/// What the sink does with each selected game: its text, where the text is in the input
/// held whole (when it is written from there) and its split key.
pub type Selected<'f> = dyn FnMut(&[u8], Option<usize>, Vec<u8>) -> Result<()> + 'f;

/// The sink side: counts every pick of a chunk and writes its rejected games; `selected`
/// gets each selected game's text and key in input order. `input` is the whole input when
/// it is held whole (a mapped file): a game too large is copied from there.
pub fn tally(
    summary: &mut PickSummary,
    rejects: &mut Rejects,
    file: &str,
    picked: Picked,
    info: &ChunkInfo,
    input: Option<&[u8]>,
    selected: &mut Selected<'_>,
) -> Result<()> {
    if let (Some((range, last)), Some(out)) = (&picked.continued, rejects.games.as_mut()) {
        write_piece(out, &picked.text[range.clone()], *last)?;
    }
    for (i, pick) in picked.picks.into_iter().enumerate() {
        summary.games_read += 1;
        let problem = match pick {
            Pick::Selected {
                range,
                in_input,
                key,
            } => {
                summary.selected += 1;
                let text = match in_input {
                    true => input.and_then(|bytes| bytes.get(range.clone())),
                    false => picked.text.get(range.clone()),
                };
                let Some(text) = text else {
                    bail!(
                        "internal error: {file}: the game at bytes {range:?} is not in the input; outputs not written"
                    );
                };
                selected(text, in_input.then_some(range.start), key)?;
                continue;
            }
            Pick::Dropped(f) => {
                summary.not_selected += 1;
                *summary.not_selected_by.entry(f.name()).or_default() += 1;
                continue;
            }
            Pick::Rejected { range, problem } => {
                if let Some(out) = rejects.games.as_mut() {
                    write_game(out, &picked.text[range], summary.rejected == 0)?;
                }
                problem
            }
            Pick::TooLarge { text, problem } => {
                if let Some(out) = rejects.games.as_mut() {
                    if summary.rejected > 0 {
                        out.write_all(b"\n")?;
                    }
                    match text {
                        LargeText::Piece(range, last) => {
                            write_piece(out, &picked.text[range], last)?
                        }
                        LargeText::InInput(range) => copy_from_input(out, input, range, file)?,
                    }
                }
                problem
            }
        };
        crate::signals::note_invalid();
        summary.rejected += 1;
        *summary
            .rejected_by_reason
            .entry(problem.reason.name())
            .or_default() += 1;
        if let Some(tsv) = rejects.tsv.as_mut() {
            tsv.serialize(reject_row(info, file, i, problem))?;
        }
    }
    summary.junk_bytes += picked.junk_bytes;
    if let (None, Some((line, column))) = (&summary.first_junk, picked.first_junk) {
        summary.first_junk = Some(format!("{file}:{}:{column}", info.line(line)));
    }
    summary.bytes += info.len as u64;
    Ok(())
}

/// Writes a piece of a game too large to hold: as read, or, for its last piece, up to its
/// last non-blank byte and a line break.
fn write_piece(out: &mut impl Write, piece: &[u8], last: bool) -> std::io::Result<()> {
    if last {
        out.write_all(piece.trim_ascii_end())?;
        out.write_all(b"\n")?;
    } else {
        out.write_all(piece)?;
    }
    Ok(())
}

/// Bytes of a game too large written at a time from an input held whole.
const PIECE: usize = 1 << 20;

/// Writes the game at `range` (absolute offsets) of an input held whole, piece by piece
/// (the pages of a mapped file are read in turn, no copy of the game is made), up to its
/// last non-blank byte and a line break.
fn copy_from_input(
    out: &mut impl Write,
    input: Option<&[u8]>,
    range: Range<usize>,
    file: &str,
) -> Result<()> {
    let Some(game) = input.and_then(|bytes| bytes.get(range.clone())) else {
        bail!(
            "internal error: {file}: the game at bytes {range:?} is not in the input; outputs not written"
        );
    };
    for piece in game.trim_ascii_end().chunks(PIECE) {
        out.write_all(piece)?;
    }
    out.write_all(b"\n")?;
    Ok(())
}

/// Runs `process` over the chunks of every input (as [`Driver::run`] does), told whether
/// the input is held whole (a mapped file), and `sink` over the results in input order,
/// with the input when it is held whole, for [`tally`] (and for a sink that keeps games
/// to write from it later).
pub fn run_picks<E: From<crate::Error>>(
    driver: &mut Driver<E>,
    process: impl Fn(&[u8], Origin, InputShape) -> Picked + Sync,
    mut sink: impl FnMut(&InputName, Picked, &ChunkInfo, Option<&Arc<Bytes>>) -> Result<(), E>,
) -> Result<(), E> {
    driver.for_each_input(|run| {
        let (name, head) = (run.name, crate::driver::games_head(run)?);
        let whole = match &run.input.source {
            Source::Whole(bytes) => Some(std::sync::Arc::clone(bytes)),
            _ => None,
        };
        let shape = InputShape {
            held: whole.is_some(),
            rows: is_parquet(&run.input.source),
        };
        let mut games = 0;
        run.run(
            Cut::Games,
            |b, o| process(b, o, shape),
            |picked, info| {
                games += picked.games();
                sink(name, picked, info, whole.as_ref())
            },
        )?;
        Ok(crate::driver::require_games(name, games, &head)?)
    })
}

/// Whether an input is a Parquet table.
fn is_parquet(source: &Source) -> bool {
    #[cfg(feature = "parquet")]
    return matches!(source, Source::Parquet(_));
    #[cfg(not(feature = "parquet"))]
    return {
        let _ = source;
        false
    };
}

/// A game built from a Parquet row, written in the normal form.
fn write_row_game(game: &[u8], tags: &[Tag<'_>], chess960: bool, text: &mut Vec<u8>) {
    #[cfg(feature = "parquet")]
    crate::parquet::write_row_game(game, tags, chess960, text);
    #[cfg(not(feature = "parquet"))]
    let _ = (game, tags, chess960, text);
}

/// Writes one game's text, a blank line before it unless it is the first: the game's bytes
/// up to its last non-blank byte, then a line break.
pub fn write_game(out: &mut impl Write, text: &[u8], first: bool) -> std::io::Result<()> {
    if !first {
        out.write_all(b"\n")?;
    }
    out.write_all(text.trim_ascii_end())?;
    out.write_all(b"\n")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The selected games' texts and the rejected count of `input`, cut in chunks of about
    /// `chunk` bytes, picked as from an input held whole (`held`: written from it) or not.
    fn selected_texts(input: &[u8], chunk: usize, held: bool) -> (Vec<Vec<u8>>, u64) {
        let selection = Selection::default();
        let opts = PickOptions {
            selection: &selection,
            normalise: None,
            variant_tag: VariantSpelling::default(),
            write: true,
            missing_variant: MissingVariant::Detect,
            key: None,
            max_game_bytes: 0,
            assume_sp: None,
        };
        let shape = InputShape { held, rows: false };
        let (mut summary, mut rejects, mut texts) =
            (PickSummary::default(), Rejects::default(), Vec::new());
        for c in pgn_parse::split_at_game_boundaries(input, chunk) {
            let picked = pick_chunk(&input[c.range.clone()], c.origin(), &opts, shape);
            let info = crate::pipeline::ChunkInfo {
                offset: c.range.start,
                len: c.range.len(),
                source_bytes: 0,
                first_line: 1,
                first_game: 0,
                rows: false,
                lines: None,
            };
            let whole = held.then_some(input);
            let mut write = |text: &[u8], _, _| {
                texts.push(text.to_vec());
                Ok(())
            };
            tally(
                &mut summary,
                &mut rejects,
                "f",
                picked,
                &info,
                whole,
                &mut write,
            )
            .unwrap();
        }
        (texts, summary.rejected)
    }

    #[test]
    fn games_written_from_the_input_held_whole_are_the_games_copied() {
        let fen = "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n";
        let mut rng = crate::test_rng::Rng(0x9a3e);
        let mut text = String::new();
        for g in 0..300 {
            text.push_str(&format!("[Event \"g{g}\"]\n{fen}\n1. d4 d5 2. c4 c6 "));
            text.push_str(
                ["3. Ke5 *\n\n", "3. Nd3 *  \n\n\n", "3. Nd3 *\n\njunk\n\n"][rng.index(3)],
            );
        }
        let generated = [
            text.clone().into_bytes(),
            text.replace('\n', "\r\n").into_bytes(),
        ];
        assert!(generated
            .iter()
            .all(|g| selected_texts(g, 1000, true).1 > 10));
        let mut inputs = generated.to_vec();
        let name = "games_written_from_the_input_held_whole_are_the_games_copied";
        if let Some(real) = test_support::read_shared(name, "corpus/lichess-style-4000.pgn") {
            inputs.push(real.into_bytes());
        }
        for input in &inputs {
            for chunk in [1, 1000, 1 << 20] {
                let (copied, rejected) = selected_texts(input, chunk, false);
                assert!(copied.len() > 100, "{} games", copied.len());
                assert_eq!(selected_texts(input, chunk, true), (copied, rejected));
            }
        }
    }
}
