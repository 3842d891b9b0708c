//! What `filter` and `split` share: each game of a chunk selected, not selected (with the
//! filter that dropped it) or rejected (with its reason), its text copied as read or
//! normalised as `clean` writes it; and the sink side that counts them and writes the
//! rejected games, so that games read = selected + not selected + rejected.
//!
//! Without `--normalise` a game is read by [`Gate`], a visitor around the library's
//! [`Validator`]: the selection's tag checks run when the tags are read, and a game they
//! drop has its movetext skipped, not validated (as `stats --headers-only` does). Such a
//! game counts as not selected unless the reader found it broken (a parse error, cut
//! short), which makes it rejected whatever the selection. With `--normalise` every game is
//! read whole and validated by [`validate_chunk`], then selected.

use super::chunk::{Players, Problem};
use super::render::render;
use super::{reject_row, ArchiveOptions};
use crate::driver::Driver;
use crate::output::Sink;
use crate::select::{FilteredBy, Selection, StartInfo};
use anyhow::Result;
use chess960_core::CastlingStyle;
use pgn960::input::{InputName, Source};
use pgn960::pipeline::{ChunkInfo, ChunkOutput, Cut};
use pgn960::validate::start::{resolve_start, RuleTags, StartOutcome};
use pgn960::validate::{
    parse_rejection, truncation, validate_chunk, MissingVariant, RejectReason, Rejection,
    ValidateOptions, Validator, Verdict,
};
use pgn_parse::{GameEnd, GameResult, Origin, Reader, Skip, Suffix, Tag, Visitor};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;

/// A split key worked out in the workers from a valid (or other-variant) game's tags and
/// verdict: the raw key value.
pub type KeyFn = dyn Fn(&[Tag<'_>], &Verdict) -> Vec<u8> + Sync;

/// How to pick games.
pub struct PickOptions<'s> {
    /// The selection.
    pub selection: &'s Selection,
    /// Write selected games normalised with this FEN style (else as they were read).
    pub normalise: Option<CastlingStyle>,
    /// Copy the text of selected and rejected games (else only count them).
    pub write: bool,
    /// What games without a Variant tag are.
    pub missing_variant: MissingVariant,
    /// The split key of each selected game, if splitting.
    pub key: Option<&'s KeyFn>,
    /// Games of more bytes are rejected as `too-large` (`--max-game-bytes`; 0: no limit).
    pub max_game_bytes: usize,
}

/// What became of one game.
pub enum Pick {
    /// Selected: its text is `range` of the chunk's text, `key` its split key.
    Selected {
        /// Where its text is.
        range: Range<usize>,
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
}

impl Picked {
    fn empty() -> Picked {
        Picked {
            picks: Vec::new(),
            text: Vec::new(),
            junk_bytes: 0,
            first_junk: None,
            continued: None,
        }
    }
}

impl ChunkOutput for Picked {
    fn games(&self) -> u64 {
        self.picks.len() as u64
    }
}

/// The verdict of [`Gate`] on one game.
enum GateVerdict {
    /// Dropped by its tags, movetext not validated.
    Dropped(FilteredBy),
    /// Validated; `failed` is the tag filter it failed (with `--invert`).
    Judged {
        verdict: Verdict,
        failed: Option<FilteredBy>,
    },
}

/// A [`Visitor`] that runs the selection's tag checks when a game's tags are read, skips
/// the movetext of the games they drop and hands the others to a [`Validator`].
struct Gate<'a, 's> {
    validator: Validator<'a>,
    selection: &'s Selection,
    missing: MissingVariant,
    failed: Option<FilteredBy>,
    skipping: bool,
}

/// The start position the tags give (`None` when they are invalid: the validator says why).
fn start_info(tags: &[Tag<'_>], missing: MissingVariant) -> Option<StartInfo> {
    match resolve_start(&RuleTags::from_tags(tags), missing, &mut Vec::new()) {
        Ok(StartOutcome::Chess(start)) => Some(StartInfo::Chess(start.kind, start.class.kind)),
        Ok(StartOutcome::Unsupported(_)) => Some(StartInfo::Other),
        Err(_) => None,
    }
}

/// The first filter the tags (and the start they give) drop a game by.
fn tag_filter(sel: &Selection, tags: &[Tag<'_>], missing: MissingVariant) -> Option<FilteredBy> {
    sel.check_tags(tags).or_else(|| {
        if sel.needs_start() {
            start_info(tags, missing).and_then(|s| sel.check_start(s))
        } else {
            None
        }
    })
}

impl<'a> Visitor<'a> for Gate<'a, '_> {
    type Output = (GameEnd, GateVerdict);

    fn begin_game(&mut self, offset: usize) {
        self.failed = None;
        self.skipping = false;
        self.validator.begin_game(offset);
    }
    fn tag(&mut self, tag: Tag<'a>) {
        self.validator.tag(tag);
    }
    fn end_tags(&mut self) -> Skip {
        self.failed = tag_filter(self.selection, self.validator.tags(), self.missing);
        if self.failed.is_some() && !self.selection.invert {
            self.skipping = true;
            return Skip(true);
        }
        self.validator.end_tags()
    }
    fn san(&mut self, san: &'a [u8], offset: usize) {
        self.validator.san(san, offset);
    }
    fn null_move(&mut self, offset: usize) {
        self.validator.null_move(offset);
    }
    fn comment(&mut self, text: &'a [u8], offset: usize) {
        self.validator.comment(text, offset);
    }
    fn nag(&mut self, nag: u16) {
        self.validator.nag(nag);
    }
    fn suffix(&mut self, suffix: Suffix) {
        self.validator.suffix(suffix);
    }
    fn begin_variation(&mut self) -> Skip {
        self.validator.begin_variation()
    }
    fn end_variation(&mut self) {
        self.validator.end_variation();
    }
    fn result(&mut self, result: GameResult) {
        self.validator.result(result);
    }
    fn end_game(&mut self, end: GameEnd) -> Self::Output {
        if !self.skipping {
            let (end, verdict) = self.validator.end_game(end);
            let failed = self.failed;
            return (end, GateVerdict::Judged { verdict, failed });
        }
        // The movetext was skipped: only what the reader saw can make the game invalid.
        let broken = match &end.error {
            Some(error) => Some(parse_rejection(error)),
            None => truncation(end.movetext_end, &end.byte_range),
        };
        let verdict = match (broken, self.failed) {
            (Some(rejection), _) => GateVerdict::Judged {
                verdict: Verdict::Invalid(rejection),
                failed: None,
            },
            (None, Some(f)) => GateVerdict::Dropped(f),
            (None, None) => GateVerdict::Dropped(FilteredBy::Tag),
        };
        (end, verdict)
    }
}

/// The validation a pick needs.
fn validate_options(opts: &PickOptions<'_>) -> ValidateOptions {
    ValidateOptions {
        canonical_san: opts.normalise.is_some(),
        normalise: opts.normalise,
        moves: opts.selection.needs_moves(),
        missing_variant: opts.missing_variant,
        max_game_bytes: opts.max_game_bytes,
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

/// A piece of a game too large to hold (`--max-game-bytes`): the first piece counts the
/// game once, rejected as too-large; its text and that of the later pieces are copied (when
/// writing), for the sink to write to the rejects piece by piece. Junk pieces are counted
/// as junk.
fn oversized_part(bytes: &[u8], origin: Origin, part: pgn_parse::Part, write: bool) -> Picked {
    let mut picked = Picked::empty();
    if !part.game {
        picked.junk_bytes = bytes.len() as u64;
        picked.first_junk = part.first.then_some((1, 1));
        return picked;
    }
    if write {
        picked.text.extend_from_slice(bytes);
    }
    let range = 0..picked.text.len();
    if part.first {
        let rejection = pgn960::validate::too_large(part.limit, origin.offset);
        picked.picks.push(Pick::TooLarge {
            text: LargeText::Piece(range, part.last),
            problem: problem(rejection, &[], 1, (1, 1)),
        });
    } else {
        picked.continued = Some((range, part.last));
    }
    picked
}

/// `verdict`, or the `too-large` rejection when the game at `range` is over `limit` bytes
/// (0: no limit): a game read whole from an input held whole (a mapped file) gets the
/// verdict a streamed one gets in pieces. For the subcommands that read games themselves.
pub fn limit_verdict(verdict: Verdict, range: &Range<usize>, limit: usize) -> Verdict {
    if limit > 0 && range.len() > limit {
        Verdict::Invalid(pgn960::validate::too_large(limit, range.start))
    } else {
        verdict
    }
}

/// Whether a game of `len` bytes is over the limit.
fn over_limit(opts: &PickOptions<'_>, len: usize) -> bool {
    opts.max_game_bytes > 0 && len > opts.max_game_bytes
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

/// Picks the games of one chunk. `held`: the chunk is part of an input held whole (a
/// mapped file), from which the sink can copy a game too large ([`run_picks`]).
pub fn pick_chunk(bytes: &[u8], origin: Origin, opts: &PickOptions<'_>, held: bool) -> Picked {
    let base = origin.offset;
    let mut text = Vec::new();
    let mut picks = Vec::new();
    let validate = validate_options(opts);
    let key =
        |tags: &[Tag<'_>], verdict: &Verdict| opts.key.map_or(Vec::new(), |k| k(tags, verdict));
    if let Some(part) = origin.part {
        return oversized_part(bytes, origin, part, opts.write);
    }
    if let Some(style) = opts.normalise {
        let archive = ArchiveOptions {
            write: true,
            fen_style: style,
            ..ArchiveOptions::default()
        };
        let counts = validate_chunk(bytes, origin, &validate, false, |judged| {
            let pick = match judged.verdict {
                Verdict::Invalid(rejection) if rejection.reason == RejectReason::TooLarge => {
                    let at = judged.problem_at.unwrap_or((1, 1));
                    let game_line = judged.line.unwrap_or(1);
                    let problem = problem(rejection, judged.tags, game_line, at);
                    too_large_pick(
                        &mut text,
                        bytes,
                        base,
                        &judged.byte_range,
                        opts,
                        held,
                        problem,
                    )
                }
                Verdict::Invalid(rejection) => {
                    let at = judged.problem_at.unwrap_or((1, 1));
                    let game_line = judged.line.unwrap_or(1);
                    let range = if opts.write {
                        copy(&mut text, bytes, base, &judged.byte_range)
                    } else {
                        0..0
                    };
                    Pick::Rejected {
                        range,
                        problem: problem(rejection, judged.tags, game_line, at),
                    }
                }
                verdict => match decide(opts.selection, judged.tags, &verdict, None) {
                    Err(f) => Pick::Dropped(f),
                    Ok(()) => {
                        let start = text.len();
                        if opts.write {
                            match (&verdict, judged.game) {
                                (Verdict::Valid(valid), Some(game)) => {
                                    render(game, valid, &archive, &mut text)
                                }
                                _ => {
                                    copy(&mut text, bytes, base, &judged.byte_range);
                                }
                            }
                        }
                        Pick::Selected {
                            range: start..text.len(),
                            key: key(judged.tags, &verdict),
                        }
                    }
                },
            };
            picks.push(pick);
        });
        return Picked {
            picks,
            text,
            junk_bytes: counts.junk_bytes,
            first_junk: counts.first_junk,
            continued: None,
        };
    }
    let mut reader = Reader::with_origin(bytes, origin);
    let mut gate = Gate {
        validator: Validator::new(validate),
        selection: opts.selection,
        missing: opts.missing_variant,
        failed: None,
        skipping: false,
    };
    while let Some((end, verdict)) = reader.read_game(&mut gate) {
        let tags = gate.validator.tags();
        if over_limit(opts, end.byte_range.len()) {
            // Whatever its tags and moves: a game over the limit is rejected, as in a stream.
            let range = &end.byte_range;
            let game_line = reader.locate(range.start).0;
            let rejection = pgn960::validate::too_large(opts.max_game_bytes, range.start);
            let problem = problem(rejection, tags, game_line, (game_line, 1));
            picks.push(too_large_pick(
                &mut text, bytes, base, range, opts, held, problem,
            ));
            continue;
        }
        let pick = match verdict {
            GateVerdict::Dropped(f) => Pick::Dropped(f),
            GateVerdict::Judged {
                verdict: Verdict::Invalid(rejection),
                ..
            } => {
                let range = &end.byte_range;
                let game_line = reader.locate(range.start).0;
                let at = reader.locate(rejection.offset.max(range.start));
                let text_range = if opts.write {
                    copy(&mut text, bytes, base, range)
                } else {
                    0..0
                };
                Pick::Rejected {
                    range: text_range,
                    problem: problem(rejection, tags, game_line, at),
                }
            }
            GateVerdict::Judged { verdict, failed } => {
                match decide(opts.selection, tags, &verdict, Some(failed)) {
                    Err(f) => Pick::Dropped(f),
                    Ok(()) => {
                        let range = if opts.write {
                            copy(&mut text, bytes, base, &end.byte_range)
                        } else {
                            0..0
                        };
                        Pick::Selected {
                            range,
                            key: key(tags, &verdict),
                        }
                    }
                }
            }
        };
        picks.push(pick);
    }
    Picked {
        picks,
        text,
        junk_bytes: reader.junk_bytes(),
        first_junk: reader.first_junk().map(|at| reader.locate(at)),
        continued: None,
    }
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
            anyhow::bail!(
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

/// What the sink does with each selected game: its text and split key.
pub type Selected<'f> = dyn FnMut(&[u8], Vec<u8>) -> Result<()> + 'f;

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
            Pick::Selected { range, key } => {
                summary.selected += 1;
                selected(&picked.text[range], key)?;
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
fn write_piece(out: &mut impl Write, piece: &[u8], last: bool) -> Result<()> {
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
        anyhow::bail!(
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
/// with the input's bytes when it is held whole, for [`tally`].
pub fn run_picks(
    driver: &mut Driver,
    process: impl Fn(&[u8], Origin, bool) -> Picked + Sync,
    mut sink: impl FnMut(&InputName, Picked, &ChunkInfo, Option<&[u8]>) -> Result<()>,
) -> Result<()> {
    driver.for_each_input(|run| {
        let (name, head) = (run.name, crate::driver::games_head(run)?);
        let whole = match &run.input.source {
            Source::Whole(bytes) => Some(std::sync::Arc::clone(bytes)),
            _ => None,
        };
        let held = whole.is_some();
        let mut games = 0;
        run.run(
            Cut::Games,
            |b, o| process(b, o, held),
            |picked, info| {
                games += picked.games();
                sink(name, picked, info, whole.as_deref().map(|b| &b[..]))
            },
        )?;
        crate::driver::require_games(name, games, &head)
    })
}

/// Writes one game's text, a blank line before it unless it is the first: the game's bytes
/// up to its last non-blank byte, then a line break.
pub fn write_game(out: &mut impl Write, text: &[u8], first: bool) -> Result<()> {
    if !first {
        out.write_all(b"\n")?;
    }
    out.write_all(text.trim_ascii_end())?;
    out.write_all(b"\n")?;
    Ok(())
}
