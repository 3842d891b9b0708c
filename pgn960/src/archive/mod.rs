//! What `check` and `clean` share: every game of every input validated in parallel, the
//! kept games written normalised and the rejected ones as they were read, and everything
//! counted so that games read = written + rejected + deduplicated.
//!
//! [`chunk`] judges a chunk's games (in the workers), [`render`] writes a kept game,
//! [`summary`] holds the counts and how they are printed; [`run`] and [`write`] take the
//! chunks in input order. The command line's `check` and `clean` and the Python package's
//! `check` and `clean` are these calls. What `filter` and `split` share is [`pick`] (each
//! game selected, dropped or rejected); their runs, of the command line and of Python,
//! are [`filter::FilterRun`] and [`split::SplitRun`].

pub mod chunk;
pub mod clean;
pub mod filter;
pub mod pick;
pub mod render;
pub mod split;
pub mod summary;

use crate::driver::Driver;
use crate::output::{OutputError, Sink};
use crate::pipeline::ChunkInfo;
use crate::validate::variant::VariantSpelling;
use crate::validate::MissingVariant;
use chess960_core::CastlingStyle;
use chunk::{process_chunk, ChunkOutcome, Fate};
use std::collections::HashSet;
use std::io::Write;
pub use summary::{summary_text, ArchiveSummary, RejectRow};

/// What to do with the games beyond checking them.
#[derive(Debug, Clone)]
pub struct ArchiveOptions {
    /// Write kept games (clean) rather than only check.
    pub write: bool,
    /// FEN spelling for written Chess960 games.
    pub fen_style: CastlingStyle,
    /// The Variant tag written in Chess960 games.
    pub variant_tag: VariantSpelling,
    /// Leave comments out of written games.
    pub strip_comments: bool,
    /// With `strip_comments`: keep these `[%...]` commands of each comment (`clk`, `eval`;
    /// an empty list keeps every command).
    pub keep_annotations: Option<Vec<String>>,
    /// Leave variations out of written games.
    pub strip_variations: bool,
    /// Drop variations with bad moves instead of rejecting the game.
    pub drop_bad_variations: bool,
    /// Reject games with fewer main-line plies.
    pub min_plies: Option<u32>,
    /// Drop repeated games (same start, same moves).
    pub dedupe: bool,
    /// What games without a Variant tag are (`--variant`).
    pub missing_variant: MissingVariant,
    /// Games of more bytes are rejected as `too-large` (`--max-game-bytes`; the driver's
    /// limit too).
    pub max_game_bytes: usize,
    /// The start taken for a game whose start is ambiguous (`--assume-sp`).
    pub assume_sp: Option<chess960_core::SpPair>,
}

impl Default for ArchiveOptions {
    fn default() -> ArchiveOptions {
        ArchiveOptions {
            write: false,
            fen_style: CastlingStyle::Xfen,
            variant_tag: VariantSpelling::default(),
            strip_comments: false,
            keep_annotations: None,
            strip_variations: false,
            drop_bad_variations: false,
            min_plies: None,
            dedupe: false,
            missing_variant: MissingVariant::Detect,
            max_game_bytes: 0,
            assume_sp: None,
        }
    }
}

/// Where kept and rejected games go (clean), or nowhere (check).
#[derive(Default)]
pub struct Outputs {
    /// Kept games.
    pub kept: Option<Sink>,
    /// Rejected games as they were read.
    pub rejects: Option<Sink>,
    /// The TSV sidecar of rejects.
    pub rejects_tsv: Option<csv::Writer<Sink>>,
}

/// The sink of a run: counts, dedupe set and outputs, fed chunk by chunk in input order.
struct Collector<'o, R> {
    opts: &'o ArchiveOptions,
    outputs: &'o mut Outputs,
    on_reject: R,
    summary: ArchiveSummary,
    seen: HashSet<u128>,
    first_output: bool,
}

impl<R: FnMut(&RejectRow)> Collector<'_, R> {
    fn take(
        &mut self,
        file: &str,
        outcome: ChunkOutcome,
        info: &ChunkInfo,
    ) -> Result<(), OutputError> {
        let summary = &mut self.summary;
        if let (Some(range), Some(out)) = (outcome.continued, self.outputs.rejects.as_mut()) {
            out.write_all(&outcome.text[range])?;
        }
        for (i, fate) in outcome.fates.into_iter().enumerate() {
            summary.games_read += 1;
            match fate {
                Fate::Kept {
                    range,
                    key,
                    repairs,
                } => {
                    summary.valid += 1;
                    if self.opts.dedupe && !self.seen.insert(key) {
                        summary.deduplicated += 1;
                        continue;
                    }
                    for r in &repairs {
                        *summary.repairs.entry(r.name()).or_default() += 1;
                    }
                    let text = &outcome.text[range];
                    if write_game(&mut self.outputs.kept, text, &mut self.first_output)? {
                        summary.written += 1;
                    }
                }
                Fate::Unsupported { range, variant } => {
                    summary.unsupported_variant += 1;
                    *summary.unsupported_by_variant.entry(variant).or_default() += 1;
                    let text = &outcome.text[range];
                    if write_game(&mut self.outputs.kept, text, &mut self.first_output)? {
                        summary.written += 1;
                    }
                }
                Fate::Rejected { range, problem } => {
                    crate::signals::note_invalid();
                    summary.rejected += 1;
                    *summary
                        .rejected_by_reason
                        .entry(problem.reason.name())
                        .or_default() += 1;
                    let row = reject_row(info, file, i, problem);
                    if let Some(out) = self.outputs.rejects.as_mut() {
                        out.write_all(&outcome.text[range])?;
                    }
                    if let Some(tsv) = self.outputs.rejects_tsv.as_mut() {
                        tsv.serialize(&row)?;
                    }
                    (self.on_reject)(&row);
                }
            }
        }
        summary.junk_bytes += outcome.junk_bytes;
        if let (None, Some((line, column))) = (&summary.first_junk, outcome.first_junk) {
            summary.first_junk = Some(format!("{file}:{}:{column}", info.line(line)));
        }
        summary.bytes += info.len as u64;
        Ok(())
    }
}

/// The absolute (line, column, game line) of a problem; for a Parquet input (row, column
/// in the row's movetext or 0 in its tags, row), rows 0-based.
pub fn location(info: &ChunkInfo, line: u32, column: u32, game_line: u32) -> (u64, u32, u64) {
    let (line, game_line) = (info.line(line), info.line(game_line));
    #[cfg(feature = "parquet")]
    if info.rows {
        use crate::parquet::{is_movetext_line, row_of_line};
        let column = if is_movetext_line(line) { column } else { 0 };
        return (row_of_line(line), column, row_of_line(game_line));
    }
    (line, column, game_line)
}

/// The reasons-file row of a rejected game: the `index`-th game (0-based) of the chunk
/// `info` of `file`.
pub fn reject_row(
    info: &ChunkInfo,
    file: &str,
    index: usize,
    problem: chunk::Problem,
) -> RejectRow {
    let (line, column, game_line) =
        location(info, problem.local_line, problem.column, problem.game_line);
    RejectRow {
        game: info.first_game + index as u64 + 1,
        file: file.to_string(),
        line,
        column,
        byte_offset: problem.offset,
        game_line,
        reason: problem.reason.name(),
        detail: problem.detail,
        white: problem.players.white,
        black: problem.players.black,
        site: problem.players.site,
        parquet_row: info.rows,
    }
}

/// Runs the archive job over every input of `driver`, the counting on the calling thread.
/// `on_reject` sees every rejected game in order.
pub fn run<E: From<crate::Error> + From<OutputError>>(
    mut driver: Driver<E>,
    opts: &ArchiveOptions,
    outputs: &mut Outputs,
    on_reject: &mut dyn FnMut(&RejectRow),
) -> Result<ArchiveSummary, E> {
    let mut collector = Collector::new(&driver, opts, outputs, on_reject);
    driver.run(
        |bytes, origin| process_chunk(bytes, origin, opts),
        |name, outcome, info| {
            collector
                .take(&name.to_string(), outcome, info)
                .map_err(E::from)
        },
    )?;
    Ok(collector.finish(driver))
}

/// Runs the archive job over every input of `driver`, writing `outputs`: each chunk is
/// counted and written by the worker that finishes it when its turn in input order comes
/// (an ordered commit: no writer thread of its own, and the same bytes as one thread would
/// write).
pub fn write<E: From<crate::Error> + From<OutputError> + Send>(
    mut driver: Driver<E>,
    opts: &ArchiveOptions,
    outputs: &mut Outputs,
) -> Result<ArchiveSummary, E> {
    let mut collector = Collector::new(&driver, opts, outputs, |_: &RejectRow| {});
    driver.run_committed(
        |bytes, origin| process_chunk(bytes, origin, opts),
        |name, outcome, info| {
            collector
                .take(&name.to_string(), outcome, info)
                .map_err(E::from)
        },
    )?;
    Ok(collector.finish(driver))
}

impl<'o, R: FnMut(&RejectRow)> Collector<'o, R> {
    fn new<E: From<crate::Error>>(
        driver: &Driver<E>,
        opts: &'o ArchiveOptions,
        outputs: &'o mut Outputs,
        on_reject: R,
    ) -> Self {
        let summary = ArchiveSummary {
            inputs: driver.names().iter().map(|n| n.to_string()).collect(),
            ..ArchiveSummary::default()
        };
        Collector {
            opts,
            outputs,
            on_reject,
            summary,
            seen: HashSet::new(),
            first_output: true,
        }
    }

    /// The counts, with the run's time.
    fn finish<E: From<crate::Error>>(self, driver: Driver<E>) -> ArchiveSummary {
        ArchiveSummary {
            seconds: driver.finish(),
            ..self.summary
        }
    }
}

/// Writes one game's text to the kept-games output, a blank line between games; returns
/// whether there was an output to write to.
fn write_game(out: &mut Option<Sink>, text: &[u8], first: &mut bool) -> Result<bool, OutputError> {
    let Some(out) = out.as_mut() else {
        return Ok(false);
    };
    if !*first {
        out.write_all(b"\n")?;
    }
    *first = false;
    out.write_all(text.trim_ascii_end())?;
    out.write_all(b"\n")?;
    Ok(true)
}
