//! `pgn960 xfen`: convert every FEN between X-FEN and Shredder-FEN, in PGN `FEN` tags (the
//! rest of each game byte-identical) or in FEN/EPD lists (EPD operations kept as they are).

use crate::args::castling_style;
use crate::driver::{Driver, Globals};
use crate::output::{print_summary, AtomicFile, OutputPlan, Sink};
use anyhow::{bail, Result};
use chess960_core::{CastlingStyle, FenFieldSpans, Position, Setup};
use pgn960::input::{self, InputName, Source};
use pgn960::pipeline::{ChunkInfo, ChunkOutput, Cut};
use pgn960::validate::{
    observe_chunk, GameObserver, Judged, ReadMode, RejectReason, ValidateOptions,
};
use pgn_parse::{LineIndex, Origin, Skip, Tag};
use std::io::Write;
use std::path::PathBuf;

/// What the input holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum InputKind {
    /// Decide from the content: PGN if it starts with a tag pair, else a FEN/EPD list.
    #[default]
    Auto,
    /// PGN: convert the values of `FEN` tags.
    Pgn,
    /// One FEN or EPD per line.
    Fen,
}

/// Arguments of `pgn960 xfen`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("The counts and the FENs that could not be read go to standard error (-q: none).\n{}\n\nExamples:\n  pgn960 xfen openings.epd --to shredder -o openings.shredder.epd\n  pgn960 xfen games.pgn -o games.xfen.pgn\n  pgn960 xfen book.epd --in-place", crate::args::common_help())
)]
pub struct XfenArgs {
    /// PGN files or FEN/EPD lists (default: standard input).
    #[arg(default_value = "-")]
    pub inputs: Vec<PathBuf>,
    /// Output (default: standard output).
    #[arg(
        short,
        long,
        value_name = "FILE",
        default_value = "-",
        conflicts_with = "in_place"
    )]
    pub output: PathBuf,
    /// The notation to write: xfen (KQkq, a file letter only for an inner rook; python-chess
    /// `Board.fen()`) or shredder (file letters, king side first: HAha; `Board.shredder_fen()`).
    #[arg(long, value_name = "STYLE", value_parser = castling_style(), default_value = "xfen")]
    pub to: CastlingStyle,
    /// What the input holds.
    #[arg(long = "input", value_enum, default_value_t = InputKind::Auto)]
    pub input_kind: InputKind,
    /// Fail (exit 2, nothing written, not even to standard output) if any FEN cannot be
    /// read.
    #[arg(long)]
    pub strict: bool,
    /// Rewrite each input file in place (atomically, only once every input is done; a
    /// symbolic link's target is rewritten, its mode and owner kept).
    #[arg(long)]
    pub in_place: bool,
    /// Print the counts and the FENs that could not be read as JSON on standard output
    /// (with -o FILE or --in-place).
    #[arg(long)]
    pub json: bool,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// What `xfen --json` prints.
#[derive(Debug, Default, serde::Serialize)]
struct XfenReport {
    /// FENs read.
    fens: u64,
    /// FENs written differently from how they were read.
    rewritten: u64,
    /// FENs that could not be read (passed through unchanged).
    unreadable: u64,
    /// Where they are and why (the first 1,000).
    problems: Vec<XfenProblem>,
}

#[derive(Debug, serde::Serialize)]
struct XfenProblem {
    file: String,
    line: u64,
    reason: String,
}

impl XfenReport {
    /// Counts a converted chunk and notes its problems (the first 20 as messages, the
    /// first 1000 in the report).
    fn note(
        &mut self,
        chunk: &Converted,
        file: &str,
        info: &ChunkInfo,
        messages: &mut Vec<String>,
    ) {
        for p in &chunk.problems {
            if messages.len() < 20 {
                messages.push(format!("{file}:{}: {}", info.line(p.local_line), p.reason));
            }
            if self.problems.len() < 1000 {
                self.problems.push(XfenProblem {
                    file: file.to_string(),
                    line: info.line(p.local_line),
                    reason: p.reason.clone(),
                });
            }
        }
        self.fens += chunk.fens;
        self.rewritten += chunk.changed;
        self.unreadable += chunk.problems.len() as u64;
    }
}

/// A FEN that could not be read.
#[derive(Debug, Clone)]
struct FenProblem {
    local_line: u32,
    reason: String,
}

/// What one chunk became.
struct Converted {
    text: Vec<u8>,
    problems: Vec<FenProblem>,
    fens: u64,
    changed: u64,
}

impl ChunkOutput for Converted {
    fn games(&self) -> u64 {
        0
    }
}

/// Converts one FEN, writing as many fields as it has (4, or 6 with the clocks).
pub fn convert_fen(fen: &str, to: CastlingStyle) -> Result<String, String> {
    let mut out = String::with_capacity(96);
    let spans = FenFieldSpans::of(fen);
    let placement = spans.span(0).map_or("", |r| &fen[r]);
    convert_fen_into(fen, placement, spans.len(), to, &mut out)?;
    Ok(out)
}

/// Appends the conversion of `fen` (which has `fields` fields, the first `placement`) to
/// `out`.
fn convert_fen_into(
    fen: &str,
    placement: &str,
    fields: usize,
    to: CastlingStyle,
    out: &mut String,
) -> Result<(), String> {
    let setup = Setup::from_ascii(fen.as_bytes()).map_err(|e| e.to_string())?;
    let (pos, _repairs) = Position::from_setup_lenient(&setup).map_err(|e| e.to_string())?;
    let start = out.len();
    let style = to;
    // A placement that was read is canonical unless two digits touch ("44" for "8"): then
    // it is copied, not written again from the board.
    let (mut previous_digit, mut digits_touch) = (false, false);
    for &b in placement.as_bytes() {
        let digit = b.wrapping_sub(b'0') < 10;
        digits_touch |= previous_digit & digit;
        previous_digit = digit;
    }
    let canonical = !digits_touch;
    if canonical {
        out.push_str(placement);
        pos.fen(style).append_tail_to(out);
    } else {
        pos.fen(style).append_to(out);
    }
    if fields < 6 {
        // Keep the first `max(fields, 4)` fields of the six written.
        let keep = fields.max(4);
        let cut = out.as_bytes()[start..]
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b' ')
            .nth(keep - 1)
            .map(|(i, _)| start + i);
        if let Some(cut) = cut {
            out.truncate(cut);
        }
    }
    Ok(())
}

/// Converts one line of a FEN/EPD list into `out`: the FEN part (4 fields, plus the clocks
/// when both are numbers) is rewritten, anything after it kept byte for byte. Returns
/// `Ok(false)` for lines that hold no FEN (blank, `#` comments), copied unchanged.
/// `scratch` is a reusable buffer.
fn convert_line(
    line: &str,
    to: CastlingStyle,
    out: &mut Vec<u8>,
    scratch: &mut String,
) -> Result<bool, String> {
    let bytes = line.as_bytes();
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        out.extend_from_slice(bytes);
        return Ok(false);
    }
    let spans = FenFieldSpans::of(line);
    let numeric = |i: usize| {
        spans.span(i).is_some_and(|r| {
            let f = &bytes[r];
            !f.is_empty() && f.iter().all(u8::is_ascii_digit)
        })
    };
    let fen_fields = if numeric(4) && numeric(5) {
        6
    } else {
        4.min(spans.len())
    };
    let last = fen_fields.checked_sub(1).and_then(|i| spans.span(i));
    let (Some(first), Some(last)) = (spans.span(0), last) else {
        return Err("not a FEN".into());
    };
    let (fen_start, fen_end) = (first.start, last.end);
    scratch.clear();
    // Field edges are ASCII white space or the ends of the line: char boundaries.
    let fen = &line[fen_start..fen_end];
    convert_fen_into(fen, &line[first], fen_fields, to, scratch)?;
    out.extend_from_slice(&bytes[..fen_start]);
    out.extend_from_slice(scratch.as_bytes());
    out.extend_from_slice(&bytes[fen_end..]);
    Ok(true)
}

fn convert_fen_list(bytes: &[u8], to: CastlingStyle) -> Converted {
    let mut out = Converted {
        text: Vec::with_capacity(bytes.len() + bytes.len() / 16),
        problems: Vec::new(),
        fens: 0,
        changed: 0,
    };
    let mut scratch = String::with_capacity(128);
    for (i, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let content_end = raw.len()
            - raw
                .iter()
                .rev()
                .take_while(|&&b| b == b'\n' || b == b'\r')
                .count();
        let (content, ending) = raw.split_at(content_end);
        let Ok(line) = std::str::from_utf8(content) else {
            out.problems.push(FenProblem {
                local_line: i as u32 + 1,
                reason: "not UTF-8 text".into(),
            });
            out.text.extend_from_slice(raw);
            continue;
        };
        let before = out.text.len();
        match convert_line(line, to, &mut out.text, &mut scratch) {
            Ok(true) => {
                out.fens += 1;
                if out.text[before..] != *content {
                    out.changed += 1;
                }
                out.text.extend_from_slice(ending);
            }
            Ok(false) => out.text.extend_from_slice(ending),
            Err(reason) => {
                out.text.truncate(before);
                out.fens += 1;
                out.problems.push(FenProblem {
                    local_line: i as u32 + 1,
                    reason,
                });
                out.text.extend_from_slice(raw);
            }
        }
    }
    out
}

/// What `xfen` sees of a chunk's games through the library's loop, in input order: each
/// `FEN` tag (the moves are skipped), and each game too large whose tags were not read.
#[derive(Default)]
struct FenTags<'a> {
    seen: Vec<Seen<'a>>,
}

enum Seen<'a> {
    Fen(Tag<'a>),
    /// A game over `--max-game-bytes` handed over in pieces, at this absolute offset.
    Unread(usize),
}

impl<'a> GameObserver<'a> for FenTags<'a> {
    fn tags(&mut self, tags: &[Tag<'a>]) -> Skip {
        let fens = tags.iter().filter(|t| t.name == b"FEN");
        self.seen.extend(fens.copied().map(Seen::Fen));
        Skip(true)
    }
    fn end_game(&mut self, game: Judged<'_, 'a>) {
        let too_large = game.verdict.rejection().map(|r| r.reason) == Some(RejectReason::TooLarge);
        if too_large && game.tags.is_empty() {
            self.seen.push(Seen::Unread(game.byte_range.start));
        }
    }
}

fn convert_pgn(
    bytes: &[u8],
    origin: Origin,
    to: CastlingStyle,
    max_game_bytes: usize,
) -> Converted {
    let base = origin.offset;
    let mut out = Converted {
        text: Vec::with_capacity(bytes.len() + 64),
        problems: Vec::new(),
        fens: 0,
        changed: 0,
    };
    let mut seen = FenTags::default();
    let opts = ValidateOptions {
        max_game_bytes,
        ..ValidateOptions::default()
    };
    observe_chunk(bytes, origin, &opts, ReadMode::Replay, false, &mut seen);
    let mut lines = LineIndex::new(1);
    let mut copied = 0;
    for item in seen.seen {
        let tag = match item {
            Seen::Fen(tag) => tag,
            Seen::Unread(offset) => {
                out.problems.push(FenProblem {
                    local_line: lines.locate(bytes, offset - base).0,
                    reason: format!(
                        "a game of more than {} bytes (--max-game-bytes) is copied as written: a FEN in it is not converted",
                        pgn960::validate::thousands(max_game_bytes as u64)
                    ),
                });
                continue;
            }
        };
        out.fens += 1;
        let start = tag.raw_value.as_ptr() as usize - bytes.as_ptr() as usize;
        let end = start + tag.raw_value.len();
        let value = tag.value_str();
        match convert_fen(value.trim(), to) {
            Ok(new) if new.as_bytes() != tag.raw_value => {
                out.changed += 1;
                out.text.extend_from_slice(&bytes[copied..start]);
                out.text.extend_from_slice(new.as_bytes());
                copied = end;
            }
            Ok(_) => {}
            Err(reason) => out.problems.push(FenProblem {
                local_line: lines.locate(bytes, tag.offset - base).0,
                reason: format!("FEN {}: {reason}", pgn960::validate::quoted(&value)),
            }),
        }
    }
    out.text.extend_from_slice(&bytes[copied..]);
    out
}

fn detect_kind(kind: InputKind, name: &InputName, input: &mut input::Input) -> Result<InputKind> {
    if kind != InputKind::Auto {
        return Ok(kind);
    }
    if let InputName::File(p) = name {
        let lower = p.to_string_lossy().to_ascii_lowercase();
        if lower.ends_with(".pgn") || lower.contains(".pgn.") {
            return Ok(InputKind::Pgn);
        }
        if [".epd", ".fen"].iter().any(|e| lower.ends_with(e)) {
            return Ok(InputKind::Fen);
        }
    }
    // By content (standard input and compressed streams too): PGN starts with a tag pair.
    Ok(match input.first_non_blank(1 << 20)? {
        Some(b'[') => InputKind::Pgn,
        _ => InputKind::Fen,
    })
}

/// Runs `pgn960 xfen`; returns the number of FENs that could not be read.
pub fn run(args: &XfenArgs, globals: Globals) -> Result<u64> {
    let to_stdout = args.output.as_os_str() == "-";
    if args.json && to_stdout && !args.in_place {
        bail!("--json prints on standard output: name the converted output with -o FILE");
    }
    let mut plan = OutputPlan::new(&args.inputs, globals.quiet);
    let out_id = (!args.in_place).then(|| plan.add("-o", &args.output, "pgn or fen"));
    plan.check()?;
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut shared_out = match (out_id, to_stdout && args.strict) {
        (None, _) => None,
        (Some(_), true) => Some(Sink::spooled_stdout()?),
        (Some(id), false) => Some(plan.create(id)?),
    };
    let mut report = XfenReport::default();
    // Files rewritten in place are renamed over their inputs only once every input is done.
    let mut rewritten = Vec::new();
    let mut messages = Vec::new();
    let to = args.to;
    driver.for_each_input(|run| {
        if !matches!(run.input.source, Source::Whole(_) | Source::Stream { .. }) {
            bail!(
                "{}: xfen reads PGN files and FEN lists, not Parquet",
                run.name
            );
        }
        let kind = detect_kind(args.input_kind, run.name, &mut run.input)?;
        let mut in_place = open_in_place(args, run)?;
        let cut = match kind {
            InputKind::Pgn => Cut::Games,
            _ => Cut::Lines,
        };
        let name = run.name;
        run.run(
            cut,
            |bytes, origin| match kind {
                InputKind::Pgn => convert_pgn(bytes, origin, to, globals.max_game_bytes),
                _ => convert_fen_list(bytes, to),
            },
            |chunk, info| {
                // Noted before the write: a closed pipe (`xfen ... | head`) ends the run
                // with the status of what was read.
                if !chunk.problems.is_empty() {
                    crate::signals::note_invalid();
                }
                match (in_place.as_mut(), shared_out.as_mut()) {
                    (Some(f), _) => f.write_all(&chunk.text)?,
                    (None, Some(out)) => out.write_all(&chunk.text)?,
                    (None, None) => {}
                }
                report.note(&chunk, &name.to_string(), info, &mut messages);
                Ok(())
            },
        )?;
        if let Some(f) = in_place {
            rewritten.push(f.finish()?);
        }
        Ok(())
    })?;
    driver.finish();
    let failed = report.unreadable;
    print_summary(
        &summary_text(&messages, &report),
        globals.quiet || args.json,
    );
    if args.strict && failed > 0 {
        bail!("{failed} FENs could not be read (--strict): nothing written");
    }
    for done in rewritten {
        plan.finish_replaced(done);
    }
    if let Some(out) = shared_out {
        plan.finish(out)?;
    }
    plan.commit()?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    Ok(failed)
}

/// The file an input is rewritten to with `--in-place` (a plain file only).
fn open_in_place(args: &XfenArgs, run: &crate::driver::InputRun<'_>) -> Result<Option<AtomicFile>> {
    match (args.in_place, run.name) {
        (true, InputName::File(p)) => {
            if !matches!(run.input.source, Source::Whole(_)) {
                bail!("--in-place rewrites plain files only, not {}", p.display());
            }
            Ok(Some(AtomicFile::replacing(p)?))
        }
        (true, _) => bail!("--in-place needs files, not standard input"),
        _ => Ok(None),
    }
}

/// The FENs that could not be read (the first 20, escaped) and the counts.
fn summary_text(messages: &[String], report: &XfenReport) -> String {
    let mut text = String::new();
    for m in messages {
        text.push_str(&format!("{}\n", crate::output::escape_controls(m, false)));
    }
    let failed = report.unreadable;
    if failed as usize > messages.len() {
        text.push_str(&format!(
            "({} more FENs could not be read)\n",
            failed as usize - messages.len()
        ));
    }
    text.push_str(&format!(
        "{} FENs read, {} rewritten, {failed} could not be read (passed through unchanged)",
        report.fens, report.rewritten
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, to: CastlingStyle) -> Result<Option<String>, String> {
        let mut out = Vec::new();
        let is_fen = convert_line(text, to, &mut out, &mut String::new())?;
        Ok(is_fen.then(|| String::from_utf8(out).unwrap()))
    }

    #[test]
    fn lines_keep_epd_operations_and_spacing() {
        assert_eq!(
            line(
                "rkqrbbnn/pppppppp/8/8/8/8/PPPPPPPP/RKQRBBNN w DAda - 0 1 ;D1 19 ;D2 361",
                CastlingStyle::Xfen
            )
            .unwrap(),
            Some("rkqrbbnn/pppppppp/8/8/8/8/PPPPPPPP/RKQRBBNN w KQkq - 0 1 ;D1 19 ;D2 361".into())
        );
        assert_eq!(
            line(
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - bm e4; id \"x\";",
                CastlingStyle::Shredder
            )
            .unwrap(),
            Some(
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - bm e4; id \"x\";"
                    .into()
            )
        );
        assert_eq!(line("  # comment", CastlingStyle::Xfen).unwrap(), None);
        assert!(line("not a fen", CastlingStyle::Xfen).is_err());
        assert_eq!(
            line("4k3/8/8/8/8/8/8/4K2R w K", CastlingStyle::Shredder).unwrap(),
            Some("4k3/8/8/8/8/8/8/4K2R w H -".into())
        );
    }

    #[test]
    fn a_placement_with_touching_digits_is_written_canonically() {
        // Copied when canonical, rewritten from the board when two digits touch.
        assert_eq!(
            line("4k3/8/8/8/8/8/8/4K2R w K - 0 1", CastlingStyle::Xfen).unwrap(),
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".into())
        );
        assert_eq!(
            line("4k12/44/8/8/8/8/8/4K11R w K - 0 1", CastlingStyle::Xfen).unwrap(),
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".into())
        );
    }
}
