//! Parquet tables of games as inputs, in the lichess dataset schema: one game a row, a
//! `movetext` column (the PGN movetext, with or without the trailing result), tag columns
//! (`Event`, `White`, `WhiteElo`, ..., any subset, strings or numbers) and `FEN` (empty or
//! null for the standard start). Every other scalar column is carried as a tag; columns of
//! other types (lists, structs, binary other than `movetext`) are left out.
//!
//! Each row group becomes a chunk of PGN text built in memory (tags, then movetext) that
//! the same pipeline reads, so a row gets exactly the verdict its game would get in a PGN
//! file. The text of row `r` (0-based in its file) is always [`LINES_PER_ROW`] lines: its
//! tags on one line, its movetext on one line, a blank line; a line of the text therefore
//! names its row ([`row_of_line`]). A row whose `movetext` is null carries the
//! [`ROW_ERROR_TAG`] tag and is rejected as `bad-row`.
//!
//! Row groups are built on the worker threads ([`crate::pipeline::ChunkData::Deferred`]),
//! so memory is bounded by the row groups in flight.

use crate::error::{Error, Result};
use crate::validate::start::{ROW_ERROR_TAG, ROW_IN_LARGE_PAGE, ROW_TOO_LARGE};
use crate::validate::thousands;
use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection,
    RowSelector,
};
use parquet::arrow::ProjectionMask;
use std::fmt::Write as _;

mod compact;
mod footer;
mod pages;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The first (and last) bytes of a Parquet file.
pub const MAGIC: &[u8; 4] = b"PAR1";

/// Lines of the text built for one row: tags, movetext, a blank line.
pub const LINES_PER_ROW: u64 = 3;

/// Rows read at a time inside a row group, at most.
const BATCH_ROWS: usize = 4096;

/// About how many bytes of decoded cells a batch of rows holds ([`BATCH_ROWS`] lichess
/// rows hold about 5 MB).
const BATCH_BYTES: u64 = 32 << 20;

/// Rows of a row group made into one chunk of text at most: a row group of a million rows
/// becomes many chunks, read in parallel, none holding the whole group's text.
pub const ROWS_PER_CHUNK: u64 = 16_384;

/// About how many bytes of rows one chunk of text is made from, at most (large rows make
/// chunks of fewer rows; [`ROWS_PER_CHUNK`] lichess rows hold about 20 MB).
const CHUNK_BYTES: u64 = 64 << 20;

/// The 0-based row of a Parquet input that an absolute 1-based line of its text is on.
pub fn row_of_line(line: u64) -> u64 {
    line.saturating_sub(1) / LINES_PER_ROW
}

/// Whether an absolute 1-based line of a Parquet input's text is a row's movetext line
/// (else its tag line or the blank line).
pub fn is_movetext_line(line: u64) -> bool {
    line.saturating_sub(1) % LINES_PER_ROW == 1
}

/// What a column of the table becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Role {
    /// The PGN movetext.
    Movetext,
    /// A tag (the `FEN` tag is left out when empty).
    Tag(String),
}

/// A Parquet file of games, open, ready to be read row group by row group from any thread.
pub struct ParquetGames {
    name: String,
    bytes: bytes::Bytes,
    metadata: ArrowReaderMetadata,
    projection: ProjectionMask,
    /// The role of each projected column, in file order.
    roles: Vec<Role>,
}

impl std::fmt::Debug for ParquetGames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetGames")
            .field("name", &self.name)
            .field("row_groups", &self.row_groups())
            .finish_non_exhaustive()
    }
}

/// Whether a column of this type can be read as a tag value.
fn is_scalar(data_type: &DataType) -> bool {
    match data_type {
        DataType::Dictionary(_, value) => is_scalar(value),
        t => {
            t.is_integer()
                || t.is_floating()
                || matches!(
                    t,
                    DataType::Utf8
                        | DataType::LargeUtf8
                        | DataType::Utf8View
                        | DataType::Boolean
                        | DataType::Date32
                        | DataType::Date64
                        | DataType::Time32(_)
                        | DataType::Time64(_)
                )
        }
    }
}

/// Whether a column of this type can hold movetext.
fn is_text(data_type: &DataType) -> bool {
    match data_type {
        DataType::Dictionary(_, value) => is_text(value),
        t => matches!(
            t,
            DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Utf8View
                | DataType::Binary
                | DataType::LargeBinary
                | DataType::BinaryView
        ),
    }
}

/// A tag name from a column name: letters, digits and `_` kept, anything else `_`, and a
/// letter first (`T` put in front otherwise).
fn tag_name(column: &str) -> String {
    let mut name: String = column
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert(0, 'T');
    }
    // The tag that carries a row's error is written by this reader alone: a column of that
    // name is carried under another, so that it cannot make a good row a bad one.
    if name.eq_ignore_ascii_case(ROW_ERROR_TAG) {
        name.insert_str(0, "Column_");
    }
    name
}

impl ParquetGames {
    /// Reads the footer of a Parquet file of games; `name` names it in errors. Not
    /// Parquet, or no `movetext` column: an error.
    pub fn open(name: &str, bytes: bytes::Bytes) -> Result<ParquetGames> {
        let bad = |message: String| Error::Parquet {
            name: name.to_string(),
            message,
        };
        // The Arrow schema a writer may embed (`ARROW:schema`, a flatbuffer) is not read:
        // arrow-ipc decodes it with `unwrap`s and panics on a malformed one (found by the
        // `parquet_rows` fuzz target). The Parquet schema alone gives every column a type
        // read here (strings as `Utf8`, dictionaries decoded).
        footer::check_footer(&bytes).map_err(bad)?;
        let options = ArrowReaderOptions::new().with_skip_arrow_metadata(true);
        let metadata =
            ArrowReaderMetadata::load(&bytes, options).map_err(|e| bad(e.to_string()))?;
        // Every column chunk must lie inside the file: the parquet crate asserts that its
        // offset and length are not negative when it reads the chunk (found by the
        // `parquet_rows` fuzz target), and an error here names the file.
        let file_len = bytes.len() as u64;
        for (g, group) in metadata.metadata().row_groups().iter().enumerate() {
            for column in group.columns() {
                let start = column
                    .dictionary_page_offset()
                    .unwrap_or(column.data_page_offset());
                let inside = u64::try_from(start)
                    .ok()
                    .zip(u64::try_from(column.compressed_size()).ok())
                    .is_some_and(|(start, len)| start.saturating_add(len) <= file_len);
                if !inside {
                    return Err(bad(format!(
                        "row group {g}: column {} lies outside the file",
                        column.column_path()
                    )));
                }
            }
        }
        let schema = metadata.schema().clone();
        let movetext = schema
            .fields()
            .iter()
            .position(|f| f.name() == "movetext")
            .or_else(|| {
                schema
                    .fields()
                    .iter()
                    .position(|f| f.name().eq_ignore_ascii_case("movetext"))
            })
            .ok_or_else(|| {
                let columns: Vec<&str> =
                    schema.fields().iter().map(|f| f.name().as_str()).collect();
                bad(format!(
                    "no movetext column (columns: {})",
                    columns.join(", ")
                ))
            })?;
        let movetext_type = schema.field(movetext).data_type();
        if !is_text(movetext_type) {
            return Err(bad(format!(
                "the movetext column holds {movetext_type}, not text"
            )));
        }
        let mut selected = Vec::new();
        let mut roles = Vec::new();
        for (i, field) in schema.fields().iter().enumerate() {
            if i == movetext {
                selected.push(i);
                roles.push(Role::Movetext);
            } else if is_scalar(field.data_type()) {
                selected.push(i);
                roles.push(Role::Tag(tag_name(field.name())));
            }
        }
        let projection =
            ProjectionMask::roots(metadata.metadata().file_metadata().schema_descr(), selected);
        Ok(ParquetGames {
            name: name.to_string(),
            bytes,
            metadata,
            projection,
            roles,
        })
    }

    /// The length of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The number of row groups.
    pub fn row_groups(&self) -> usize {
        self.metadata.metadata().num_row_groups()
    }

    /// The rows of row group `index`.
    pub fn row_group_rows(&self, index: usize) -> u64 {
        let groups = self.metadata.metadata().row_groups();
        groups
            .get(index)
            .map_or(0, |g| u64::try_from(g.num_rows()).unwrap_or(0))
    }

    /// The bytes row group `index` takes in the file (compressed).
    pub fn row_group_bytes(&self, index: usize) -> u64 {
        let groups = self.metadata.metadata().row_groups();
        groups.get(index).map_or(0, |g| {
            g.columns()
                .iter()
                .map(|c| u64::try_from(c.compressed_size()).unwrap_or(0))
                .sum()
        })
    }

    /// The PGN text of the rows `rows` (counted within the group) of row group `index`:
    /// [`LINES_PER_ROW`] lines a row.
    /// A row whose cells hold more than `max_game_bytes` is not made into text: it is
    /// rejected as `too-large` ([`ROW_TOO_LARGE`]); so is a row in a data page larger than
    /// [`page_bound`] allows, without its page being decompressed (the parquet crate
    /// decompresses a page whole). An allocation that fails while the text is built is an
    /// error naming the file and row group, not an abort.
    pub fn row_group_text(
        &self,
        index: usize,
        rows: std::ops::Range<u64>,
        max_game_bytes: usize,
    ) -> Result<Vec<u8>> {
        let bad = |e: &dyn std::fmt::Display| Error::Parquet {
            name: self.name.clone(),
            message: format!("row group {index}: {e}"),
        };
        let skipped = self.rows_in_large_pages(index, max_game_bytes, &rows)?;
        let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(
            self.bytes.clone(),
            self.metadata.clone(),
        )
        .with_row_groups(vec![index])
        .with_row_selection(selection(&rows, &skipped))
        .with_projection(self.projection.clone())
        .with_batch_size(self.batch_rows(index));
        let mut reader = self
            .decoding(index, || builder.build())?
            .map_err(|e| bad(&e))?;
        // `--max-game-bytes 0`: no limit.
        let limit = if max_game_bytes == 0 {
            usize::MAX
        } else {
            max_game_bytes
        };
        let mut text = Vec::new();
        let mut value = String::new();
        let mut next_row = rows.start;
        let mut skips = skipped.iter().peekable();
        let mut write_skipped = |text: &mut Vec<u8>, up_to: u64, next_row: &mut u64| {
            while let Some(range) = skips.next_if(|range| range.start < up_to) {
                for _ in range.clone() {
                    write_tag(text, ROW_ERROR_TAG, &page_too_large(max_game_bytes));
                    text.extend_from_slice(b"\n*\n\n");
                }
                *next_row = range.end;
            }
        };
        while let Some(batch) = self.decoding(index, || reader.next())? {
            let batch = batch.map_err(|e| bad(&e))?;
            let columns = batch.columns();
            for row in 0..batch.num_rows() {
                write_skipped(&mut text, next_row + 1, &mut next_row);
                next_row += 1;
                let size: usize = columns.iter().map(|c| cell_len(c, row)).sum();
                let room = size.min(limit).saturating_add(1024);
                text.try_reserve(room).map_err(|_| {
                    bad(&format!(
                        "out of memory making the text of a {size}-byte row"
                    ))
                })?;
                if size > limit {
                    let why = format!(
                        "{ROW_TOO_LARGE} {} bytes (--max-game-bytes): its cells hold {}",
                        thousands(max_game_bytes as u64),
                        thousands(size as u64)
                    );
                    write_tag(&mut text, ROW_ERROR_TAG, &why);
                    text.extend_from_slice(b"\n*\n\n");
                    continue;
                }
                self.write_row(columns, row, &mut text, &mut value);
            }
        }
        write_skipped(&mut text, rows.end, &mut next_row);
        Ok(text)
    }

    /// Appends row `row` of a batch's `columns` as a game.
    fn write_row(&self, columns: &[ArrayRef], row: usize, text: &mut Vec<u8>, value: &mut String) {
        let mut movetext = None;
        let mut result = None;
        for (role, column) in self.roles.iter().zip(columns) {
            match role {
                Role::Movetext => movetext = cell_bytes(column, row),
                Role::Tag(name) => {
                    value.clear();
                    if !cell_text(column, row, value) {
                        continue;
                    }
                    if name == "FEN" && value.trim().is_empty() {
                        continue;
                    }
                    if name == "Result" {
                        result = Some(value.trim().to_string());
                    }
                    write_tag(text, name, value);
                }
            }
        }
        write_row_movetext(text, movetext, result.as_deref());
        text.extend_from_slice(b"\n\n");
    }

    /// The rows among `rows` of row group `index` that lie in a data page of a read column
    /// larger than [`page_bound`] allows, as sorted disjoint ranges (each whole page's rows,
    /// cut to `rows`); an error for a dictionary page that large or an unreadable header.
    fn rows_in_large_pages(
        &self,
        index: usize,
        max_game_bytes: usize,
        rows: &std::ops::Range<u64>,
    ) -> Result<Vec<std::ops::Range<u64>>> {
        let Some(bound) = page_bound(max_game_bytes) else {
            return Ok(Vec::new());
        };
        let Some(group) = self.metadata.metadata().row_groups().get(index) else {
            return Ok(Vec::new());
        };
        let mut over = Vec::new();
        for (leaf, column) in group.columns().iter().enumerate() {
            let size = u64::try_from(column.uncompressed_size()).unwrap_or(u64::MAX);
            if !self.projection.leaf_included(leaf) || size <= bound {
                continue;
            }
            // Inside the file: checked when it was opened.
            let start = column
                .dictionary_page_offset()
                .unwrap_or(column.data_page_offset());
            let (start, len) = (start as usize, column.compressed_size() as usize);
            let chunk = self.bytes.get(start..start + len).unwrap_or_default();
            let pages = pages::rows_in_pages_over(chunk, bound).map_err(|e| Error::Parquet {
                name: self.name.clone(),
                message: format!("row group {index}: column {}: {e}", column.column_path()),
            })?;
            over.extend(pages);
        }
        over.sort_by_key(|range| range.start);
        let mut merged: Vec<std::ops::Range<u64>> = Vec::new();
        for range in over {
            let range = range.start.max(rows.start)..range.end.min(rows.end);
            if range.is_empty() {
                continue;
            }
            match merged.last_mut() {
                Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
                _ => merged.push(range),
            }
        }
        Ok(merged)
    }

    /// Rows of row group `index` made into one chunk of text: [`ROWS_PER_CHUNK`], fewer when
    /// its rows are large, so that a chunk's text is about [`CHUNK_BYTES`] (a group of eight
    /// 48 MB rows was one chunk of 384 MB of text).
    pub fn rows_per_chunk(&self, index: usize) -> u64 {
        (CHUNK_BYTES / self.row_bytes(index)).clamp(1, ROWS_PER_CHUNK)
    }

    /// The average uncompressed bytes of a row of row group `index` (at least 1).
    fn row_bytes(&self, index: usize) -> u64 {
        let groups = self.metadata.metadata().row_groups();
        groups.get(index).map_or(1, |group| {
            let bytes = u64::try_from(group.total_byte_size()).unwrap_or(0);
            let rows = u64::try_from(group.num_rows()).unwrap_or(0).max(1);
            (bytes / rows).max(1)
        })
    }

    /// Rows decoded at a time from row group `index`: [`BATCH_ROWS`], fewer when its rows
    /// are large (from the group's uncompressed size), so that a batch's arrays hold about
    /// [`BATCH_BYTES`] whatever the rows hold.
    fn batch_rows(&self, index: usize) -> usize {
        usize::try_from(BATCH_BYTES / self.row_bytes(index))
            .unwrap_or(BATCH_ROWS)
            .clamp(1, BATCH_ROWS)
    }

    /// Runs a step of the parquet/arrow decoder on row group `index`. Those crates assert on
    /// some malformed pages (a bit width over 32, a zero divisor in a byte-array page,
    /// definition levels past their buffer; found by the `parquet_rows` fuzz target) instead
    /// of returning an error: such a panic becomes an error naming the file and row group.
    fn decoding<T>(&self, index: usize, step: impl FnOnce() -> T) -> Result<T> {
        catch_unwind(AssertUnwindSafe(step)).map_err(|payload| {
            let what = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a panic");
            Error::Parquet {
                name: self.name.clone(),
                message: format!(
                    "row group {index}: malformed data the decoder stopped on ({what})"
                ),
            }
        })
    }
}

/// The most bytes a data page of a read column may hold decompressed before its rows are
/// rejected unread: four times `--max-game-bytes`, at least 64 MiB (writers make pages of about 1 MiB) (none when the limit
/// is lifted with 0).
pub fn page_bound(max_game_bytes: usize) -> Option<u64> {
    (max_game_bytes > 0).then(|| (4 * max_game_bytes as u64).max(64 << 20))
}

/// The row error of a row in a page over [`page_bound`].
fn page_too_large(max_game_bytes: usize) -> String {
    let bound = page_bound(max_game_bytes).unwrap_or(u64::MAX);
    format!(
        "{ROW_IN_LARGE_PAGE} {} bytes (4 x --max-game-bytes, at least 64 MiB): its page was \
         not decompressed",
        thousands(bound)
    )
}

/// The selection of `rows` of a row group without the rows `skipped` (sorted, disjoint,
/// within `rows`). A trailing skip is left out (reading stops after the last selected
/// row), and a skip is one selector, so that the reader skips a page wholly inside it
/// without decompressing it.
fn selection(rows: &std::ops::Range<u64>, skipped: &[std::ops::Range<u64>]) -> RowSelection {
    let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    let mut selectors = vec![RowSelector::skip(count(rows.start))];
    let mut at = rows.start;
    for range in skipped {
        if range.start > at {
            selectors.push(RowSelector::select(count(range.start - at)));
        }
        selectors.push(RowSelector::skip(count(range.end - range.start)));
        at = range.end;
    }
    if rows.end > at {
        selectors.push(RowSelector::select(count(rows.end - at)));
    }
    while selectors.last().is_some_and(|s| s.skip) {
        selectors.pop();
    }
    selectors.into_iter().collect()
}

/// Appends a game built from a Parquet row (`text`: its tag line, then its movetext line)
/// in the export's normal form: one tag per line (`tags`, the game's tags as read), then
/// `[Variant "Chess960"]` for a Chess960 game without a Variant tag and `[SetUp "1"]` for
/// a game with a FEN tag and no SetUp tag, a blank line and the movetext. So games that
/// `filter` and `split` copy from a table read back as the games they were.
pub fn write_row_game(text: &[u8], tags: &[pgn_parse::Tag<'_>], chess960: bool, out: &mut Vec<u8>) {
    let has = |name: &[u8]| tags.iter().any(|t| t.name == name);
    for tag in tags {
        out.push(b'[');
        out.extend_from_slice(tag.name);
        out.extend_from_slice(b" \"");
        out.extend_from_slice(tag.raw_value);
        out.extend_from_slice(b"\"]\n");
    }
    if chess960 && !has(b"Variant") {
        out.extend_from_slice(b"[Variant \"Chess960\"]\n");
    }
    if has(b"FEN") && !has(b"SetUp") {
        out.extend_from_slice(b"[SetUp \"1\"]\n");
    }
    let movetext = match memchr::memchr(b'\n', text) {
        Some(end_of_tags) => &text[end_of_tags + 1..],
        None => text,
    };
    out.push(b'\n');
    out.extend_from_slice(movetext.trim_ascii());
    out.extend_from_slice(b"\n\n");
}

/// Appends `[Name "value"] `, the value on one line, `\` and `"` escaped.
fn write_tag(text: &mut Vec<u8>, name: &str, value: &str) {
    text.push(b'[');
    text.extend_from_slice(name.as_bytes());
    text.extend_from_slice(b" \"");
    for b in value.bytes() {
        match b {
            b'\\' | b'"' => text.extend_from_slice(&[b'\\', b]),
            b'\n' | b'\r' | b'\t' => text.push(b' '),
            _ => text.push(b),
        }
    }
    text.extend_from_slice(b"\"] ");
}

/// Whether `word` is a game result.
fn is_result(word: &[u8]) -> bool {
    matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// Appends a row's movetext line after its tags (which are on the line before): the
/// movetext itself, or, when the row holds no one game, the [`ROW_ERROR_TAG`] tag saying why
/// (null, text after its result) and `*`.
fn write_row_movetext(text: &mut Vec<u8>, movetext: Option<&[u8]>, result: Option<&str>) {
    let tags_end = text.len();
    let why = match movetext {
        None => "movetext is null",
        Some(m) => {
            text.push(b'\n');
            match write_movetext(text, m, result) {
                Ok(()) => return,
                Err(why) => why,
            }
        }
    };
    text.truncate(tags_end);
    write_tag(text, ROW_ERROR_TAG, why);
    text.extend_from_slice(b"\n*");
}

/// What stops a row's movetext from being one game: a result followed by more text.
const TEXT_AFTER_RESULT: &str =
    "its movetext goes on after the game's result (a row holds one game)";

/// Appends the movetext on one line: line breaks become spaces, a `;` comment (which would
/// otherwise run to the end of the one line) becomes a `{ }` comment, a comment left open
/// is closed (a row is read to its own end, never into the next row), and the result is
/// appended when the movetext does not end with one (`result`, else `*`). A result
/// followed by more text (two games in one row) is an error.
fn write_movetext(
    text: &mut Vec<u8>,
    movetext: &[u8],
    result: Option<&str>,
) -> Result<(), &'static str> {
    let movetext = movetext.trim_ascii();
    if matches!(movetext.first(), Some(b'[' | b'%')) {
        text.push(b' ');
    }
    let mut line = OneLine::default();
    let mut words = Words::default();
    for (i, &b) in movetext.iter().enumerate() {
        if line.outside_comments() {
            words.read(movetext, i)?;
        }
        line.push(b, text);
    }
    let comment_left_open = line.close(text);
    let last_word = movetext
        .rsplit(|b| b.is_ascii_whitespace())
        .next()
        .unwrap_or_default();
    let left_open = comment_left_open || words.depth > 0;
    if left_open || !is_result(last_word) {
        // The Result column's result ends the game. Without one (`*`, null, no column) a
        // whole movetext stays as it is, a game cut short (`truncated`, as in a PGN file);
        // one left open is ended with `*`, so that the next row stays its own game.
        let given = result.filter(|r| is_result(r.as_bytes()) && *r != "*");
        if let Some(result) = given.or(left_open.then_some("*")) {
            if !movetext.is_empty() {
                text.push(b' ');
            }
            text.extend_from_slice(result.as_bytes());
        }
    }
    Ok(())
}

/// Which comment a movetext written on one line is in.
#[derive(Default)]
struct OneLine {
    in_brace: bool,
    in_semicolon: bool,
}

impl OneLine {
    /// Whether the next byte is outside comments.
    fn outside_comments(&self) -> bool {
        !self.in_brace && !self.in_semicolon
    }

    /// Appends `b` as it stands on one line: a line break is a space, and a `;` comment
    /// is written as a `{ }` comment.
    fn push(&mut self, b: u8, text: &mut Vec<u8>) {
        if self.in_semicolon {
            match b {
                b'\n' | b'\r' => {
                    text.extend_from_slice(b" } ");
                    self.in_semicolon = false;
                }
                b'}' => text.push(b')'),
                _ => text.push(b),
            }
        } else if self.in_brace {
            if b == b'}' {
                self.in_brace = false;
            }
            text.push(if b == b'\n' || b == b'\r' { b' ' } else { b });
        } else {
            match b {
                b'{' => {
                    self.in_brace = true;
                    text.push(b);
                }
                b';' => {
                    self.in_semicolon = true;
                    text.push(b'{');
                }
                b'\n' | b'\r' => text.push(b' '),
                _ => text.push(b),
            }
        }
    }

    /// Closes a comment left open; whether there was one.
    fn close(&self, text: &mut Vec<u8>) -> bool {
        let open = !self.outside_comments();
        if open {
            text.extend_from_slice(b" }");
        }
        open
    }
}

/// The words of a movetext outside comments: the variation depth, where the current word
/// began, and whether a result was read at depth 0.
#[derive(Default)]
struct Words {
    depth: usize,
    word_start: Option<usize>,
    ended: bool,
}

impl Words {
    /// Takes the byte at `i` (outside comments); an error when it goes on after a result.
    fn read(&mut self, movetext: &[u8], i: usize) -> Result<(), &'static str> {
        let b = movetext[i];
        let word_byte = !b.is_ascii_whitespace() && !matches!(b, b'{' | b';' | b'(' | b')');
        if word_byte {
            if self.ended {
                return Err(TEXT_AFTER_RESULT);
            }
            self.word_start.get_or_insert(i);
            return Ok(());
        }
        if let Some(start) = self.word_start.take() {
            self.ended = self.depth == 0 && is_result(&movetext[start..i]);
        }
        if self.ended && !b.is_ascii_whitespace() {
            return Err(TEXT_AFTER_RESULT);
        }
        match b {
            b'(' => self.depth += 1,
            b')' => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        Ok(())
    }
}

/// About how many bytes a cell adds to a row's text: a text or binary cell's length, 32
/// for any other value.
fn cell_len(column: &ArrayRef, row: usize) -> usize {
    if column.is_null(row) {
        return 0;
    }
    cell_bytes(column, row).map_or(32, <[u8]>::len)
}

/// The bytes of a text or binary cell; `None` when null.
fn cell_bytes(column: &ArrayRef, row: usize) -> Option<&[u8]> {
    if column.is_null(row) {
        return None;
    }
    let bytes = match column.data_type() {
        DataType::Utf8 => column.as_string::<i32>().value(row).as_bytes(),
        DataType::LargeUtf8 => column.as_string::<i64>().value(row).as_bytes(),
        DataType::Utf8View => column.as_string_view().value(row).as_bytes(),
        DataType::Binary => column.as_binary::<i32>().value(row),
        DataType::LargeBinary => column.as_binary::<i64>().value(row),
        DataType::BinaryView => column.as_binary_view().value(row),
        DataType::Dictionary(..) => {
            let dictionary = column.as_any_dictionary();
            let key = dictionary.normalized_keys().get(row).copied()?;
            return cell_bytes(dictionary.values(), key);
        }
        _ => return None,
    };
    Some(bytes)
}

/// Writes a scalar cell as tag text into `out`; false when null (or of no known type).
fn cell_text(column: &ArrayRef, row: usize, out: &mut String) -> bool {
    if column.is_null(row) {
        return false;
    }
    macro_rules! number {
        ($t:ty) => {{
            let _ = write!(out, "{}", column.as_primitive::<$t>().value(row));
        }};
    }
    match column.data_type() {
        DataType::Utf8 => out.push_str(column.as_string::<i32>().value(row)),
        DataType::LargeUtf8 => out.push_str(column.as_string::<i64>().value(row)),
        DataType::Utf8View => out.push_str(column.as_string_view().value(row)),
        DataType::Boolean => {
            let _ = write!(out, "{}", column.as_boolean().value(row));
        }
        DataType::Int8 => number!(Int8Type),
        DataType::Int16 => number!(Int16Type),
        DataType::Int32 => number!(Int32Type),
        DataType::Int64 => number!(Int64Type),
        DataType::UInt8 => number!(UInt8Type),
        DataType::UInt16 => number!(UInt16Type),
        DataType::UInt32 => number!(UInt32Type),
        DataType::UInt64 => number!(UInt64Type),
        DataType::Float16 => number!(Float16Type),
        DataType::Float32 => number!(Float32Type),
        DataType::Float64 => number!(Float64Type),
        DataType::Date32 => {
            let days = column.as_primitive::<Date32Type>().value(row);
            write_date(out, i64::from(days));
        }
        DataType::Date64 => {
            let ms = column.as_primitive::<Date64Type>().value(row);
            write_date(out, ms.div_euclid(86_400_000));
        }
        DataType::Time32(unit) => {
            let v = match unit {
                TimeUnit::Second => column.as_primitive::<Time32SecondType>().value(row),
                _ => column.as_primitive::<Time32MillisecondType>().value(row) / 1000,
            };
            write_time(out, i64::from(v));
        }
        DataType::Time64(unit) => {
            let v = match unit {
                TimeUnit::Nanosecond => {
                    column.as_primitive::<Time64NanosecondType>().value(row) / 1_000_000_000
                }
                _ => column.as_primitive::<Time64MicrosecondType>().value(row) / 1_000_000,
            };
            write_time(out, v);
        }
        DataType::Dictionary(..) => {
            let dictionary = column.as_any_dictionary();
            let Some(&key) = dictionary.normalized_keys().get(row) else {
                return false;
            };
            return cell_text(dictionary.values(), key, out);
        }
        _ => return false,
    }
    true
}

/// `YYYY.MM.DD` of a day count since 1970-01-01 (the PGN date form).
fn write_date(out: &mut String, days: i64) {
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let _ = write!(out, "{year:04}.{month:02}.{day:02}");
}

/// `HH:MM:SS` of seconds since midnight.
fn write_time(out: &mut String, seconds: i64) {
    let s = seconds.rem_euclid(86_400);
    let _ = write!(out, "{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn movetext(m: &str, result: Option<&str>) -> String {
        let mut out = Vec::new();
        write_row_movetext(&mut out, Some(m.as_bytes()), result);
        let text = String::from_utf8(out).unwrap();
        text.strip_prefix('\n').unwrap_or(&text).to_string()
    }

    #[test]
    fn a_row_is_one_game_read_to_its_own_end() {
        // A comment left open is closed before the result: the next row stays a game.
        assert_eq!(movetext("1. e4 { open", Some("1-0")), "1. e4 { open } 1-0");
        assert_eq!(movetext("1. e4 ( e5 { x", None), "1. e4 ( e5 { x } *");
        // Two games' text in one row: the row is rejected, no second game is made.
        for two in [
            "1. e4 e5 1-0 1. d4 d5 0-1",
            "1. e4 0-1 *",
            "1. e4 1-0 (1. d4)",
        ] {
            let text = movetext(two, None);
            assert!(
                text.starts_with("[Pgn960RowError \"its movetext goes on"),
                "{text}"
            );
            assert!(text.ends_with("\n*"), "{text}");
        }
        // A result inside a variation, or a word that only contains one, is not the end.
        assert_eq!(
            movetext("1. e4 (1. d4 1-0) e5 0-1", None),
            "1. e4 (1. d4 1-0) e5 0-1"
        );
        let mut out = Vec::new();
        write_row_movetext(&mut out, None, None);
        assert_eq!(out, b"[Pgn960RowError \"movetext is null\"] \n*");
        assert_eq!(tag_name("pgn960rowerror"), "Column_pgn960rowerror");
    }

    #[test]
    fn movetext_on_one_line_with_its_result() {
        assert_eq!(movetext("1. e4 e5 1-0", Some("0-1")), "1. e4 e5 1-0");
        assert_eq!(movetext("1. e4 e5", Some("1/2-1/2")), "1. e4 e5 1/2-1/2");
        // No result anywhere: the game is cut short, as it would be in a PGN file.
        assert_eq!(movetext("1. e4\n e5", None), "1. e4  e5");
        assert_eq!(movetext("1. e4 e5", Some("*")), "1. e4 e5");
        assert_eq!(movetext("1. e4 { a\nb } e5", Some("?")), "1. e4 { a b } e5");
        assert_eq!(movetext("", None), "");
        assert_eq!(
            movetext("1. e4 ; note }\n e5 0-1", None),
            "1. e4 { note ) }  e5 0-1"
        );
        assert_eq!(movetext("", Some("1-0")), "1-0");
        assert_eq!(movetext("[%x] 1. e4 *", None), " [%x] 1. e4 *");
    }

    #[test]
    fn tags_escaped_on_one_line() {
        let mut out = Vec::new();
        write_tag(&mut out, "White", "a \"b\"\\\nc");
        assert_eq!(out, b"[White \"a \\\"b\\\"\\\\ c\"] ");
        assert_eq!(tag_name("my col"), "my_col");
        assert_eq!(tag_name("1x"), "T1x");
    }

    #[test]
    fn dates_and_times() {
        let mut s = String::new();
        write_date(&mut s, 19_723); // 2024-01-01
        s.push(' ');
        write_date(&mut s, 0);
        s.push(' ');
        write_date(&mut s, 11_016); // 2000-02-29
        s.push(' ');
        write_time(&mut s, 3_725);
        assert_eq!(s, "2024.01.01 1970.01.01 2000.02.29 01:02:05");
    }

    #[test]
    fn rows_from_lines() {
        assert_eq!(row_of_line(1), 0);
        assert_eq!(row_of_line(3), 0);
        assert_eq!(row_of_line(4), 1);
        assert!(is_movetext_line(2) && is_movetext_line(5) && !is_movetext_line(4));
    }
}
