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
use crate::output::Sink;
use crate::select::{FilteredBy, Selection, StartInfo};
use anyhow::Result;
use chess960_core::CastlingStyle;
use pgn960::pipeline::{ChunkInfo, ChunkOutput};
use pgn960::validate::start::{resolve_start, RuleTags, StartOutcome};
use pgn960::validate::{
    parse_rejection, truncation, validate_chunk, MissingVariant, Rejection, ValidateOptions,
    Validator, Verdict,
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
}

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
/// game once, rejected as too-large; its text is not copied (only `clean` streams such a
/// game to its rejects). Junk pieces are counted as junk.
fn oversized_part(len: usize, origin: Origin, part: pgn_parse::Part) -> Picked {
    let mut picked = Picked {
        picks: Vec::new(),
        text: Vec::new(),
        junk_bytes: 0,
        first_junk: None,
    };
    if !part.game {
        picked.junk_bytes = len as u64;
        picked.first_junk = part.first.then_some((1, 1));
    } else if part.first {
        let rejection = pgn960::validate::too_large(part.limit, origin.offset);
        picked.picks.push(Pick::Rejected {
            range: 0..0,
            problem: problem(rejection, &[], 1, (1, 1)),
        });
    }
    picked
}

/// Picks the games of one chunk.
pub fn pick_chunk(bytes: &[u8], origin: Origin, opts: &PickOptions<'_>) -> Picked {
    let base = origin.offset;
    let mut text = Vec::new();
    let mut picks = Vec::new();
    let validate = validate_options(opts);
    let key =
        |tags: &[Tag<'_>], verdict: &Verdict| opts.key.map_or(Vec::new(), |k| k(tags, verdict));
    if let Some(part) = origin.part {
        return oversized_part(bytes.len(), origin, part);
    }
    if let Some(style) = opts.normalise {
        let archive = ArchiveOptions {
            write: true,
            fen_style: style,
            ..ArchiveOptions::default()
        };
        let counts = validate_chunk(bytes, origin, &validate, false, |judged| {
            let pick = match judged.verdict {
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
/// gets each selected game's text and key in input order.
pub fn tally(
    summary: &mut PickSummary,
    rejects: &mut Rejects,
    file: &str,
    picked: Picked,
    info: &ChunkInfo,
    selected: &mut Selected<'_>,
) -> Result<()> {
    for (i, pick) in picked.picks.into_iter().enumerate() {
        summary.games_read += 1;
        match pick {
            Pick::Selected { range, key } => {
                summary.selected += 1;
                selected(&picked.text[range], key)?;
            }
            Pick::Dropped(f) => {
                summary.not_selected += 1;
                *summary.not_selected_by.entry(f.name()).or_default() += 1;
            }
            Pick::Rejected { range, problem } => {
                crate::signals::note_invalid();
                summary.rejected += 1;
                *summary
                    .rejected_by_reason
                    .entry(problem.reason.name())
                    .or_default() += 1;
                if let Some(out) = rejects.games.as_mut() {
                    write_game(out, &picked.text[range], summary.rejected == 1)?;
                }
                if let Some(tsv) = rejects.tsv.as_mut() {
                    tsv.serialize(reject_row(info, file, i, problem))?;
                }
            }
        }
    }
    summary.junk_bytes += picked.junk_bytes;
    if let (None, Some((line, column))) = (&summary.first_junk, picked.first_junk) {
        summary.first_junk = Some(format!("{file}:{}:{column}", info.line(line)));
    }
    summary.bytes += info.len as u64;
    Ok(())
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
