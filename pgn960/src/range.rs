//! Byte ranges of plain PGN files, for engines that read one file on many machines: a
//! range `[start, end)` holds the games from the first game boundary at or after `start`
//! to the first at or after `end` (the rule the splitter cuts chunks by:
//! [`pgn_parse::boundary`]), so ranges that meet cover every game exactly once, each read
//! as a read of the whole file reads it. [`partitions`] cuts inputs into such ranges (a
//! compressed file or a Parquet table is one); [`range_options`] reads one through the
//! pipeline ([`crate::pipeline::PipelineOptions::range`]).

use crate::error::{Error, Result};
use crate::input::{expand_inputs, Input, InputName, Source};
use crate::pipeline::PipelineOptions;
use pgn_parse::boundary::next_game_boundary;
use pgn_parse::count_line_breaks;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Where the games of a range that starts at `pos` begin: 0 at the start, the input's
/// end past it, else the first game boundary at or after `pos` (the end if none).
pub fn range_start(bytes: &[u8], pos: usize) -> usize {
    if pos == 0 {
        0
    } else if pos >= bytes.len() {
        bytes.len()
    } else {
        next_game_boundary(bytes, pos).unwrap_or(bytes.len())
    }
}

/// The bytes holding the games of the range `[start, end)` of `bytes`.
pub fn games_range(bytes: &[u8], start: usize, end: usize) -> Range<usize> {
    let from = range_start(bytes, start);
    from..range_start(bytes, end).max(from)
}

/// One part of the inputs: the games of bytes `[start, end)` of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// The file.
    pub path: PathBuf,
    /// First byte (a game boundary, or 0).
    pub start: u64,
    /// End (a game boundary, or the file's length).
    pub end: u64,
    /// The line of byte `start` (1-based), counted once while planning: give it to
    /// [`range_options`] so that reading the range does not count the lines before it.
    pub first_line: u64,
}

/// Cuts `paths` (files and directories, as the CLI takes them) into partitions of about
/// `target_bytes` each, in input order, every one starting at a game boundary: together
/// they hold every game exactly once. A compressed file or a Parquet table is one
/// partition `(0, its size)`; an empty plain file none. Standard input is refused. The
/// lines of each file are counted once, in the same pass, for [`Partition::first_line`].
pub fn partitions(paths: &[PathBuf], target_bytes: u64) -> Result<Vec<Partition>> {
    let target = usize::try_from(target_bytes.max(1)).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    for name in expand_inputs(paths)? {
        let InputName::File(path) = &name else {
            return Err(Error::Range {
                name: name.to_string(),
                message: "standard input cannot be partitioned".into(),
            });
        };
        let input = Input::open(path)?;
        let Source::Whole(bytes) = &input.source else {
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            out.push(partition(path, 0, size as usize, 1));
            continue;
        };
        let (mut start, mut line) = (0, 1);
        while start < bytes.len() {
            let end = range_start(bytes, start.saturating_add(target));
            out.push(partition(path, start, end, line));
            line += line_breaks_between(bytes, start, end);
            start = end;
        }
    }
    Ok(out)
}

/// The line breaks (`\n`, `\r\n`, a lone `\r`) in `bytes[from..to]`, a `\r\n` cut at `to`
/// counted once (with the range it ends in, not this one).
pub fn line_breaks_between(bytes: &[u8], from: usize, to: usize) -> u64 {
    let part = &bytes[from.min(to)..to];
    let cut_crlf = part.last() == Some(&b'\r') && bytes.get(to) == Some(&b'\n');
    count_line_breaks(part) - u64::from(cut_crlf)
}

fn partition(path: &Path, start: usize, end: usize, first_line: u64) -> Partition {
    Partition {
        path: path.to_path_buf(),
        start: start as u64,
        end: end as u64,
        first_line,
    }
}

/// A byte range `[start, end)` of one plain file to read (a [`Partition`]'s, or any
/// other), and the line of byte `start` when the planner knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteRange {
    /// First byte.
    pub start: u64,
    /// End.
    pub end: u64,
    /// The line of byte `start` (1-based); else the lines before it are counted.
    pub first_line: Option<u64>,
}

impl ByteRange {
    /// `options` narrowed to this range of `input` ([`range_options`]).
    pub fn options(&self, input: &Input, options: PipelineOptions) -> Result<PipelineOptions> {
        range_options(input, self.start, self.end, self.first_line, options)
    }
}

impl From<&Partition> for ByteRange {
    fn from(part: &Partition) -> ByteRange {
        ByteRange {
            start: part.start,
            end: part.end,
            first_line: Some(part.first_line),
        }
    }
}

/// `options` narrowed to the range `[start, end)` of `input`: a plain file's range, or the
/// whole of any other input when the range covers it (`start` 0, `end` at least its size
/// — what [`partitions`] gives); another range of a compressed, Parquet or streamed input
/// is an error. `first_line`, the line of byte `start` when known (a partition's
/// [`Partition::first_line`]), spares counting the lines before the range; without it they
/// are counted (one pass over the bytes before `start`). Either way the games' lines and
/// locations are those of the whole file.
pub fn range_options(
    input: &Input,
    start: u64,
    end: u64,
    first_line: Option<u64>,
    options: PipelineOptions,
) -> Result<PipelineOptions> {
    let bad = |message: String| Error::Range {
        name: input.name.to_string(),
        message,
    };
    if start > end {
        return Err(bad(format!("start {start} is after end {end}")));
    }
    let to_usize = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    match &input.source {
        Source::Whole(_) if first_line == Some(0) => Err(bad("lines are numbered from 1".into())),
        Source::Whole(_) => Ok(PipelineOptions {
            range: Some((to_usize(start), to_usize(end))),
            range_line: first_line,
            ..options
        }),
        _ => {
            let size = match &input.name {
                InputName::File(path) => std::fs::metadata(path).map_or(u64::MAX, |m| m.len()),
                _ => u64::MAX,
            };
            if start == 0 && end >= size {
                Ok(options)
            } else {
                Err(bad(format!(
                    "a compressed, Parquet or streamed input is read whole: its only range is 0..{size}"
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_start_at_boundaries() {
        let pgn = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let second = next_game_boundary(pgn, 1).unwrap();
        assert_eq!(games_range(pgn, 0, 1), 0..second);
        assert_eq!(games_range(pgn, 1, 5), second..second);
        assert_eq!(games_range(pgn, 5, 1000), second..pgn.len());
        assert_eq!(games_range(pgn, 0, 0), 0..0);
    }

    #[test]
    fn line_breaks_of_pieces_add_up() {
        let text = b"a\r\nb\rc\n\r\r\nd";
        let whole = count_line_breaks(text);
        for cut in 0..=text.len() {
            let pieces =
                line_breaks_between(text, 0, cut) + line_breaks_between(text, cut, text.len());
            assert_eq!(pieces, whole, "cut at {cut}");
        }
    }

    #[test]
    fn partitions_meet_and_cover() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.pgn");
        std::fs::write(&path, "[Event \"a\"]\n\n1. e4 *\n\n".repeat(50)).unwrap();
        let parts = partitions(std::slice::from_ref(&path), 100).unwrap();
        assert!(parts.len() > 5);
        assert_eq!(parts[0].start, 0);
        for pair in parts.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
        }
        assert_eq!(
            parts.last().unwrap().end,
            std::fs::metadata(&path).unwrap().len()
        );
    }
}
