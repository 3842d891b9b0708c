//! What `check` and `clean` share: reading every game of every input in parallel,
//! validating it, writing the kept games normalised and the rejected ones as they were,
//! and counting everything so that games read = written + rejected + deduplicated.

use crate::input;
use crate::output::Sink;
use crate::pipeline::{self, PipelineOptions};
use crate::progress::Progress;
use crate::validate::start::GameKind;
use crate::validate::{
    validate, RejectReason, Rejection, Repair, ValidGame, ValidateOptions, Validator, Verdict,
};
use anyhow::{Context, Result};
use chess960_core::{CastlingStyle, Color};
use pgn_parse::{
    count_line_breaks, read_games_at, ErrorKind, Game, LineIndex, Origin, PgnWriter, Reader, Tag,
    Termination, Token, SEVEN_TAG_ROSTER,
};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;

/// How the FEN tag of a written Chess960 game is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FenStyle {
    /// X-FEN: `KQkq`, a file letter only for an inner rook (python-chess `Board.fen()`).
    #[default]
    Xfen,
    /// Shredder-FEN: file letters (`HAha`), as some engines want.
    Shredder,
}

/// What to do with the games beyond checking them.
#[derive(Debug, Clone, Default)]
pub struct ArchiveOptions {
    /// Write kept games (clean) rather than only check.
    pub write: bool,
    /// FEN spelling for written games.
    pub fen_style: FenStyle,
    /// Leave comments out of written games.
    pub strip_comments: bool,
    /// Leave variations out of written games.
    pub strip_variations: bool,
    /// Drop variations with bad moves instead of rejecting the game.
    pub drop_bad_variations: bool,
    /// Reject games with fewer main-line plies.
    pub min_plies: Option<u32>,
    /// Drop repeated games (same start, same moves).
    pub dedupe: bool,
}

/// The fate of one game in a chunk.
enum Fate {
    /// Written (its text is `range` of the chunk's text), with its dedupe key.
    Kept {
        range: std::ops::Range<usize>,
        key: u128,
        repairs: Vec<Repair>,
    },
    /// Another variant, passed through untouched.
    Unsupported {
        range: std::ops::Range<usize>,
        variant: String,
    },
    /// Rejected, with its original bytes in `range` of the chunk's text.
    Rejected {
        range: std::ops::Range<usize>,
        problem: Problem,
    },
}

/// A rejected game's reason and location, chunk-local.
struct Problem {
    reason: RejectReason,
    detail: String,
    local_line: u32,
    column: u32,
    offset: usize,
    game_line: u32,
    label: String,
}

/// The result of processing one chunk.
pub struct ChunkOutcome {
    fates: Vec<Fate>,
    text: Vec<u8>,
    line_breaks: u64,
    junk_bytes: u64,
}

/// "White - Black, Site" for messages.
fn label(tags: &[Tag<'_>]) -> String {
    let get = |name: &[u8]| {
        tags.iter()
            .find(|t| t.name == name)
            .map(|t| t.value_lossy_str().into_owned())
            .unwrap_or_else(|| "?".into())
    };
    let site = get(b"Site");
    if site == "?" {
        format!("{} - {}", get(b"White"), get(b"Black"))
    } else {
        format!("{} - {}, {site}", get(b"White"), get(b"Black"))
    }
}

/// Processes one chunk: every game read, validated, and (when writing) rendered.
pub fn process_chunk(bytes: &[u8], origin: Origin, opts: &ArchiveOptions) -> ChunkOutcome {
    let mut lines = LineIndex::new(1);
    let mut text = Vec::new();
    let mut fates = Vec::new();
    let validate_opts = ValidateOptions {
        canonical_san: opts.write,
        drop_bad_variations: opts.drop_bad_variations,
        dedupe_key: opts.dedupe,
    };
    let base = origin.offset;
    if !opts.write {
        return check_chunk(bytes, origin, opts, validate_opts);
    }
    let mut games = read_games_at(bytes, origin);
    for item in games.by_ref() {
        match item {
            Err(bad) => {
                let range = copy_original(&mut text, bytes, base, &bad.byte_range);
                let problem = parse_problem(
                    &bad.error,
                    &bad.byte_range,
                    &bad.tags,
                    bytes,
                    base,
                    &mut lines,
                );
                fates.push(Fate::Rejected { range, problem });
            }
            Ok(game) => {
                let view = GameView {
                    tags: &game.tags,
                    termination: game.termination,
                    byte_range: game.byte_range.clone(),
                };
                let fate = judge(
                    &view,
                    || validate(&game, validate_opts),
                    Some(&game),
                    bytes,
                    base,
                    opts,
                    &mut text,
                    &mut lines,
                );
                fates.push(fate);
            }
        }
    }
    let junk_bytes = games.reader().junk_bytes();
    ChunkOutcome {
        fates,
        text,
        line_breaks: count_line_breaks(bytes),
        junk_bytes,
    }
}

/// Appends a game's bytes as read (absolute `range`, chunk starting at `base`) and a blank
/// line to `text`; returns where they are in it.
fn copy_original(
    text: &mut Vec<u8>,
    bytes: &[u8],
    base: usize,
    range: &std::ops::Range<usize>,
) -> std::ops::Range<usize> {
    let start = text.len();
    text.extend_from_slice(&bytes[range.start - base..range.end - base]);
    text.extend_from_slice(b"\n\n");
    start..text.len()
}

/// What `judge` needs to know of a game read whole.
struct GameView<'g, 'a> {
    tags: &'g [Tag<'a>],
    termination: Termination,
    byte_range: std::ops::Range<usize>,
}

/// The problem of a game the reader could not read whole.
fn parse_problem(
    error: &pgn_parse::ParseError,
    byte_range: &std::ops::Range<usize>,
    tags: &[Tag<'_>],
    bytes: &[u8],
    base: usize,
    lines: &mut LineIndex,
) -> Problem {
    let reason = match error.kind {
        ErrorKind::UnterminatedComment => RejectReason::UnterminatedComment,
        ErrorKind::BadTag | ErrorKind::UnterminatedVariation => RejectReason::ParseError,
    };
    let (line, column) = lines.locate(bytes, error.offset - base);
    let (game_line, _) = lines.locate(bytes, byte_range.start - base);
    let detail = match error.kind {
        ErrorKind::UnterminatedComment => "comment '{' not closed before the next game".to_string(),
        _ => format!(
            "{}: expected {}, found {}",
            error.kind.name(),
            error.expected,
            error.found
        ),
    };
    Problem {
        reason,
        detail,
        local_line: line,
        column,
        offset: error.offset,
        game_line,
        label: label(tags),
    }
}

/// Checks a chunk without writing: each game validated while it is read (no token lists).
fn check_chunk(
    bytes: &[u8],
    origin: Origin,
    opts: &ArchiveOptions,
    validate_opts: ValidateOptions,
) -> ChunkOutcome {
    let base = origin.offset;
    let mut lines = LineIndex::new(1);
    let mut text = Vec::new();
    let mut fates = Vec::new();
    let mut reader = Reader::with_origin(bytes, origin);
    let mut validator = Validator::new(validate_opts);
    while let Some((end, verdict)) = reader.read_game(&mut validator) {
        let tags = validator.tags();
        let fate = match &end.error {
            Some(error) => {
                let range = copy_original(&mut text, bytes, base, &end.byte_range);
                Fate::Rejected {
                    range,
                    problem: parse_problem(error, &end.byte_range, tags, bytes, base, &mut lines),
                }
            }
            None => {
                let view = GameView {
                    tags,
                    termination: end.termination,
                    byte_range: end.byte_range.clone(),
                };
                judge(
                    &view,
                    || verdict,
                    None,
                    bytes,
                    base,
                    opts,
                    &mut text,
                    &mut lines,
                )
            }
        };
        fates.push(fate);
    }
    ChunkOutcome {
        fates,
        text,
        line_breaks: count_line_breaks(bytes),
        junk_bytes: reader.junk_bytes(),
    }
}

/// What becomes of a game read whole: `verdict` is asked for only when the game has a
/// result; `game` (with its tokens) is needed only when writing.
#[allow(clippy::too_many_arguments)]
fn judge(
    game: &GameView<'_, '_>,
    verdict: impl FnOnce() -> Verdict,
    tokens: Option<&Game<'_>>,
    bytes: &[u8],
    base: usize,
    opts: &ArchiveOptions,
    text: &mut Vec<u8>,
    lines: &mut LineIndex,
) -> Fate {
    let mut reject = |text: &mut Vec<u8>, rejection: Rejection| {
        let offset = rejection.offset.unwrap_or(game.byte_range.start);
        let (line, column) = lines.locate(bytes, offset - base);
        let (game_line, _) = lines.locate(bytes, game.byte_range.start - base);
        Fate::Rejected {
            range: copy_original(text, bytes, base, &game.byte_range),
            problem: Problem {
                reason: rejection.reason,
                detail: rejection.detail,
                local_line: line,
                column,
                offset,
                game_line,
                label: label(game.tags),
            },
        }
    };
    if !matches!(game.termination, Termination::Result(_)) {
        let why = match game.termination {
            Termination::EndOfInput => "no result at the end of the file: the game was cut short",
            _ => "no result before the next game: the game was cut short",
        };
        let mut r = Rejection::new(RejectReason::Truncated, why.into());
        r.offset = Some(
            game.byte_range
                .end
                .saturating_sub(1)
                .max(game.byte_range.start),
        );
        return reject(text, r);
    }
    match verdict() {
        Verdict::Invalid(rejection) => reject(text, rejection),
        Verdict::Unsupported(variant) => {
            let range = if opts.write {
                copy_original(text, bytes, base, &game.byte_range)
            } else {
                text.len()..text.len()
            };
            Fate::Unsupported { range, variant }
        }
        Verdict::Valid(valid) => {
            if let Some(min) = opts.min_plies {
                if valid.plies < min {
                    let r = Rejection::new(
                        RejectReason::TooShort,
                        format!("{} plies, fewer than --min-plies {min}", valid.plies),
                    );
                    return reject(text, r);
                }
            }
            let mut repairs = valid.repairs.clone();
            let start = text.len();
            if let Some(game) = tokens.filter(|_| opts.write) {
                render(game, &valid, opts, text, &mut repairs);
            }
            Fate::Kept {
                range: start..text.len(),
                key: valid.dedupe_key,
                repairs,
            }
        }
    }
}

/// Writes a valid game normalised: roster first, Variant/SetUp/FEN for Chess960 games,
/// canonical SAN, comments/NAGs/variations as asked.
fn render(
    game: &Game<'_>,
    valid: &ValidGame,
    opts: &ArchiveOptions,
    text: &mut Vec<u8>,
    repairs: &mut Vec<Repair>,
) {
    let mut w = PgnWriter::new(&mut *text);
    let result = valid.result;
    // Writing into a Vec cannot fail.
    let _ = (|| -> std::io::Result<()> {
        w.begin_game()?;
        for (name, default) in SEVEN_TAG_ROSTER {
            if name == b"Result" {
                w.tag(name, result.as_str().as_bytes())?;
            } else {
                match game.tag(name) {
                    Some(t) => w.tag(name, t.value_lossy_str().as_bytes())?,
                    None => w.tag(name, default)?,
                }
            }
        }
        let chess960 = valid.kind == GameKind::Chess960;
        let fen = match (opts.fen_style, chess960) {
            (FenStyle::Shredder, true) => valid.start.fen(CastlingStyle::Shredder).to_string(),
            _ => valid.start.to_string(),
        };
        let standard_start = !chess960 && !valid.had_fen;
        if chess960 {
            if game
                .tag(b"Variant")
                .is_none_or(|t| t.value().as_ref() != b"Chess960")
            {
                repairs.push(Repair::VariantNormalised);
            }
            w.tag(b"Variant", b"Chess960")?;
        }
        if !standard_start {
            if game
                .tag(b"SetUp")
                .is_none_or(|t| t.value().trim_ascii() != b"1")
            {
                repairs.push(Repair::SetUpAdded);
            }
            if game
                .tag(b"FEN")
                .is_some_and(|t| t.value().trim_ascii() != fen.as_bytes())
            {
                repairs.push(Repair::FenRewritten);
            }
            w.tag(b"SetUp", b"1")?;
            w.tag(b"FEN", fen.as_bytes())?;
        }
        if let Some(Repair::ResultCorrected { old }) = valid
            .repairs
            .iter()
            .find(|r| matches!(r, Repair::ResultCorrected { .. }))
        {
            w.tag(b"OriginalResult", old.as_bytes())?;
        }
        for t in &game.tags {
            let skip = SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == t.name)
                || t.name == b"SetUp"
                || t.name == b"FEN"
                || (chess960 && t.name == b"Variant");
            if !skip {
                w.tag(t.name, t.value_lossy_str().as_bytes())?;
            }
        }
        w.begin_movetext(valid.start.fullmoves(), valid.start.turn() == Color::White)?;
        let mut san_index = 0usize;
        let mut skip_depth = 0usize;
        let mut dropped = valid.dropped_tokens.iter().peekable();
        let mut dropping_until: Option<usize> = None;
        for (i, token) in game.movetext.iter().enumerate() {
            if let Some(end) = dropping_until {
                if let Token::San { .. } = token {
                    san_index += 1;
                }
                if i == end {
                    dropping_until = None;
                }
                continue;
            }
            if dropped.peek().is_some_and(|(open, _)| *open == i) {
                if let Some(&(_, close)) = dropped.next() {
                    dropping_until = Some(close);
                }
                continue;
            }
            if opts.strip_variations {
                match token {
                    Token::BeginVariation => {
                        skip_depth += 1;
                        continue;
                    }
                    Token::EndVariation if skip_depth > 0 => {
                        skip_depth -= 1;
                        continue;
                    }
                    Token::San { .. } if skip_depth > 0 => {
                        san_index += 1;
                        continue;
                    }
                    _ if skip_depth > 0 => continue,
                    _ => {}
                }
            }
            match token {
                Token::San { .. } => {
                    let san = valid
                        .canonical
                        .get(san_index)
                        .map(String::as_bytes)
                        .unwrap_or(b"--");
                    san_index += 1;
                    w.san(san)?;
                }
                Token::Comment { .. } if opts.strip_comments => {}
                other => w.write_token(other)?,
            }
        }
        w.end_game(result)?;
        Ok(())
    })();
    text.push(b'\n');
}

/// Counts of a run, as printed and written to `--report` / `--json`.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Summary {
    /// The inputs, in order.
    pub inputs: Vec<String>,
    /// Games read.
    pub games_read: u64,
    /// Valid games (kept or deduplicated).
    pub valid: u64,
    /// Games written to the output (clean) — valid kept plus unsupported passed through.
    pub written: u64,
    /// Games of other variants (passed through untouched by clean).
    pub unsupported_variant: u64,
    /// Games rejected.
    pub rejected: u64,
    /// Valid games dropped as repeats (`--dedupe`).
    pub deduplicated: u64,
    /// Rejections by reason.
    pub rejected_by_reason: BTreeMap<&'static str, u64>,
    /// Other variants by name.
    pub unsupported_by_variant: BTreeMap<String, u64>,
    /// Repairs by kind (a game may have several).
    pub repairs: BTreeMap<&'static str, u64>,
    /// Bytes of text between games that was not a game.
    pub junk_bytes: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Summary {
    /// Whether games read = written + rejected + deduplicated (clean) or
    /// valid + unsupported + rejected (check).
    pub fn adds_up(&self) -> bool {
        self.games_read == self.valid + self.unsupported_variant + self.rejected
    }
}

/// A rejected game, for messages and the TSV sidecar.
#[derive(Debug, Clone, Serialize)]
pub struct RejectRow {
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The file.
    pub file: String,
    /// Line of the problem.
    pub line: u64,
    /// Column of the problem.
    pub column: u32,
    /// Byte offset of the problem.
    pub byte_offset: usize,
    /// 1-based line where the game starts.
    pub game_line: u64,
    /// Reason name.
    pub reason: &'static str,
    /// Explanation.
    pub detail: String,
    /// "White - Black, Site".
    pub players: String,
}

impl RejectRow {
    /// `file:line:col: game N (White - Black, Site): detail`.
    pub fn message(&self) -> String {
        format!(
            "{}:{}:{}: game {} ({}): {}",
            self.file, self.line, self.column, self.game, self.players, self.detail
        )
    }
}

/// Where kept and rejected games go (clean), or nowhere (check).
pub struct Outputs {
    /// Kept games.
    pub kept: Option<Sink>,
    /// Rejected games as they were read.
    pub rejects: Option<Sink>,
    /// The TSV sidecar of rejects.
    pub rejects_tsv: Option<csv::Writer<Sink>>,
}

/// Runs the archive job over all inputs. `on_reject` sees every rejected game in order.
pub fn run(
    inputs: &[PathBuf],
    threads: usize,
    quiet: bool,
    opts: &ArchiveOptions,
    outputs: &mut Outputs,
    on_reject: &mut dyn FnMut(&RejectRow),
) -> Result<Summary> {
    let names = input::expand_inputs(inputs)?;
    let pool = pipeline::thread_pool(threads)?;
    let started = std::time::Instant::now();
    let total = input::total_size(&names);
    let mut progress = Progress::new(total, quiet);
    let mut summary = Summary::default();
    let mut seen: HashSet<u128> = HashSet::new();
    let mut first_output = true;
    for name in &names {
        summary.inputs.push(name.to_string());
        let mut input = input::open(name)?;
        let file = name.to_string();
        let (mut base_line, mut base_index) = (1u64, 0u64);
        pipeline::run(
            &mut input,
            &pool,
            PipelineOptions::default(),
            |bytes, origin| process_chunk(bytes, origin, opts),
            |outcome, info| {
                let games = outcome.fates.len() as u64;
                for (i, fate) in outcome.fates.into_iter().enumerate() {
                    summary.games_read += 1;
                    let index = base_index + i as u64;
                    match fate {
                        Fate::Kept {
                            range,
                            key,
                            repairs,
                        } => {
                            summary.valid += 1;
                            if opts.dedupe && !seen.insert(key) {
                                summary.deduplicated += 1;
                                continue;
                            }
                            for r in &repairs {
                                *summary.repairs.entry(r.name()).or_default() += 1;
                            }
                            if write_game(
                                &mut outputs.kept,
                                &outcome.text[range],
                                &mut first_output,
                            )? {
                                summary.written += 1;
                            }
                        }
                        Fate::Unsupported { range, variant } => {
                            summary.unsupported_variant += 1;
                            *summary.unsupported_by_variant.entry(variant).or_default() += 1;
                            if write_game(
                                &mut outputs.kept,
                                &outcome.text[range],
                                &mut first_output,
                            )? {
                                summary.written += 1;
                            }
                        }
                        Fate::Rejected { range, problem } => {
                            summary.rejected += 1;
                            *summary
                                .rejected_by_reason
                                .entry(problem.reason.name())
                                .or_default() += 1;
                            let row = RejectRow {
                                game: index + 1,
                                file: file.clone(),
                                line: base_line + u64::from(problem.local_line) - 1,
                                column: problem.column,
                                byte_offset: problem.offset,
                                game_line: base_line + u64::from(problem.game_line) - 1,
                                reason: problem.reason.name(),
                                detail: problem.detail,
                                players: problem.label,
                            };
                            if let Some(out) = outputs.rejects.as_mut() {
                                out.write_all(&outcome.text[range])?;
                            }
                            if let Some(tsv) = outputs.rejects_tsv.as_mut() {
                                tsv.serialize(&row)?;
                            }
                            on_reject(&row);
                        }
                    }
                }
                base_index += games;
                base_line += outcome.line_breaks;
                summary.junk_bytes += outcome.junk_bytes;
                summary.bytes += info.len as u64;
                progress.advance(info.source_bytes, games);
                Ok(())
            },
        )
        .with_context(|| format!("while reading {file}"))?;
    }
    progress.finish();
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// Writes one game's text to the kept-games output, a blank line between games; returns
/// whether there was an output to write to.
fn write_game(out: &mut Option<Sink>, text: &[u8], first: &mut bool) -> Result<bool> {
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

/// The human-readable summary printed at the end of a run.
pub fn summary_text(s: &Summary, cleaning: bool) -> String {
    let mut out = String::new();
    let mb = s.bytes as f64 / 1e6;
    out.push_str(&format!(
        "games read:          {:>10}   ({:.1} MB in {:.2} s, {:.0} games/s)\n",
        s.games_read,
        mb,
        s.seconds,
        s.games_read as f64 / s.seconds.max(1e-9)
    ));
    out.push_str(&format!("valid:               {:>10}\n", s.valid));
    if cleaning {
        out.push_str(&format!("written:             {:>10}\n", s.written));
        out.push_str(&format!("deduplicated:        {:>10}\n", s.deduplicated));
    }
    out.push_str(&format!(
        "unsupported variant: {:>10}",
        s.unsupported_variant
    ));
    for (name, n) in &s.unsupported_by_variant {
        out.push_str(&format!("  {name}: {n}"));
    }
    out.push('\n');
    out.push_str(&format!("rejected:            {:>10}\n", s.rejected));
    for (reason, n) in &s.rejected_by_reason {
        out.push_str(&format!("  {reason:<22} {n:>8}\n"));
    }
    if !s.repairs.is_empty() {
        out.push_str("repairs:\n");
        for (repair, n) in &s.repairs {
            out.push_str(&format!("  {repair:<29} {n:>8}\n"));
        }
    }
    if s.junk_bytes > 0 {
        out.push_str(&format!(
            "junk between games:  {:>10} bytes skipped\n",
            s.junk_bytes
        ));
    }
    out
}

/// Writes a JSON report atomically.
pub fn write_json_report(
    path: &std::path::Path,
    value: &impl Serialize,
    inputs: &[PathBuf],
) -> Result<()> {
    let mut sink = Sink::create(path, inputs)?;
    serde_json::to_writer_pretty(&mut sink, value)?;
    sink.write_all(b"\n")?;
    sink.commit()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fate of a chunk, as text (kind, reason, where, detail, dedupe key, repairs).
    fn fates(bytes: &[u8], write: bool) -> Vec<String> {
        let opts = ArchiveOptions {
            write,
            drop_bad_variations: true,
            dedupe: true,
            ..ArchiveOptions::default()
        };
        process_chunk(bytes, Origin::default(), &opts)
            .fates
            .iter()
            .map(|fate| match fate {
                Fate::Kept { key, repairs, .. } => format!(
                    "kept {key:x} {:?}",
                    // Repairs made while writing exist only when writing.
                    repairs
                        .iter()
                        .map(Repair::name)
                        .filter(
                            |r| !["variant-normalised", "setup-added", "fen-rewritten"].contains(r)
                        )
                        .collect::<Vec<_>>()
                ),
                Fate::Unsupported { variant, .. } => format!("unsupported {variant}"),
                Fate::Rejected { problem: p, .. } => format!(
                    "rejected {} {}:{} @{} game line {} {:?} {}",
                    p.reason.name(),
                    p.local_line,
                    p.column,
                    p.offset,
                    p.game_line,
                    p.detail,
                    p.label
                ),
            })
            .collect()
    }

    #[test]
    fn checking_while_reading_agrees_with_checking_read_games() {
        // `check` validates from the reader's events, `clean` from token lists: the same
        // verdict, reason, position and repairs for every game of every fixture.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut games = 0;
        for dir in ["check", "pgn", "fuzz-regressions", "."] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "pgn") {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap();
                let (streamed, collected) = (fates(&bytes, false), fates(&bytes, true));
                assert_eq!(streamed, collected, "{}", path.display());
                games += streamed.len();
            }
        }
        assert!(games > 100, "{games} games compared");
    }
}
