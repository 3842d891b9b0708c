//! Our own Parquet encoder for the flat columns (tag texts, X-FENs, integers, the `valid`
//! flag): the column chunk of an optional leaf (definition levels 0 and 1) written page by
//! page without the crate's column writer, the same table and the same chunk statistics as
//! the crate writes (min/max, truncated as it truncates them; the null count; the
//! definition-level histogram; a text column's unencoded bytes). A column with a
//! dictionary: a PLAIN dictionary page (values in order of first sight) and RLE_DICTIONARY
//! data pages; without: PLAIN data pages; data pages v1, zstd level 1, at most
//! [`PAGE_ROWS`] rows and about [`PAGE_BYTES`] of values a page, as the crate's defaults. A
//! chunk it cannot write so (a dictionary over the crate's limit, another type) is left to
//! the crate ([`encode`] returns `None`).

use super::lists::{
    bits, compressed, put_keys, varint, with_compressor, Dictionary, ListChunk, DICTIONARY_LIMIT,
    ZSTD_LEVEL,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, BooleanArray, StringArray};
use arrow_buffer::NullBuffer;
use arrow_schema::DataType;
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, PageType, ZstdLevel};
use parquet::column::page::{Page, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::Result;
use parquet::file::metadata::{
    ColumnChunkMetaData, LevelHistogram, OffsetIndexBuilder, PageEncodingStats,
};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnPath};

/// A data page ends after this many rows (the crate's default row count limit).
const PAGE_ROWS: usize = 20_000;

/// A PLAIN data page ends at the first row after this many bytes of values (the crate's
/// default page size).
const PAGE_BYTES: usize = 1 << 20;

/// How the file's properties have a flat column written: with a dictionary or not, and
/// the length its min/max statistics are truncated to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Dictionary-encoded (RLE_DICTIONARY), else PLAIN.
    pub dictionary: bool,
    /// The longest min or max of a text column.
    pub truncate: Option<usize>,
}

/// The settings of the column at `path` when its writer properties are ones this encoder
/// writes (zstd level 1, chunk statistics without page header statistics, no bloom
/// filter, data pages v1, an offset index, the default page limits); `None` otherwise.
pub fn settings(props: &WriterProperties, path: &ColumnPath) -> Option<Settings> {
    let zstd = ZstdLevel::try_new(ZSTD_LEVEL).map(Compression::ZSTD).ok();
    let fits = Some(props.compression(path)) == zstd
        && props.statistics_enabled(path) == EnabledStatistics::Chunk
        && !props.write_page_header_statistics(path)
        && props.bloom_filter_properties(path).is_none()
        && props.encoding(path).is_none()
        && props.writer_version() == WriterVersion::PARQUET_1_0
        && !props.offset_index_disabled()
        && props.content_defined_chunking().is_none()
        && props.column_dictionary_page_size_limit(path) >= DICTIONARY_LIMIT
        && props.column_data_page_size_limit(path) >= PAGE_BYTES
        && props.data_page_row_count_limit() >= PAGE_ROWS;
    fits.then(|| Settings {
        dictionary: props.dictionary_enabled(path),
        truncate: props.statistics_truncate_length(),
    })
}

/// A flat column's values.
#[derive(Clone, Copy)]
enum Values<'a> {
    Text(&'a StringArray),
    Int32(&'a [i32]),
    Int64(&'a [i64]),
    Bool(&'a BooleanArray),
}

impl Values<'_> {
    /// Appends the PLAIN encoding of row `i`'s value (a boolean: see [`plain_bools`]).
    #[inline(always)]
    fn plain(self, i: usize, out: &mut Vec<u8>) {
        match self {
            Values::Text(a) => {
                let text = a.value(i).as_bytes();
                out.extend_from_slice(&(text.len() as u32).to_le_bytes());
                out.extend_from_slice(text);
            }
            Values::Int32(v) => out.extend_from_slice(&v[i].to_le_bytes()),
            Values::Int64(v) => out.extend_from_slice(&v[i].to_le_bytes()),
            Values::Bool(_) => {}
        }
    }
}

/// The rows of a chunk and which are null.
struct Rows<'a> {
    len: usize,
    nulls: Option<&'a NullBuffer>,
}

impl Rows<'_> {
    #[inline(always)]
    fn valid(&self, i: usize) -> bool {
        self.nulls.is_none_or(|n| n.is_valid(i))
    }

    fn null_count(&self) -> usize {
        self.nulls.map_or(0, NullBuffer::null_count)
    }
}

/// Encodes `array` (texts, 32- or 64-bit integers, booleans) as one column chunk for
/// `descr` (an optional leaf of a flat field), or `None` when the chunk is left to the
/// crate.
pub fn encode(
    array: &ArrayRef,
    descr: &ColumnDescPtr,
    settings: Settings,
) -> Result<Option<ListChunk>> {
    if descr.max_def_level() != 1 || descr.max_rep_level() != 0 || array.is_empty() {
        return Ok(None);
    }
    let values = match array.data_type() {
        DataType::Utf8 => Values::Text(array.as_string::<i32>()),
        DataType::Int32 => Values::Int32(array.as_primitive::<Int32Type>().values()),
        DataType::Int64 => Values::Int64(array.as_primitive::<Int64Type>().values()),
        DataType::Boolean => Values::Bool(array.as_boolean()),
        _ => return Ok(None),
    };
    let rows = Rows {
        len: array.len(),
        nulls: array.nulls().filter(|n| n.null_count() > 0),
    };
    // Booleans have no dictionary in the crate's writer (data pages v1).
    let mut keyed = match values {
        Values::Bool(_) => None,
        _ if settings.dictionary => match dictionary(values, &rows) {
            Some(keyed) => Some(keyed),
            None => return Ok(None),
        },
        _ => None,
    };
    let min_max = match &mut keyed {
        Some(Keyed { min_max, .. }) => min_max.take(),
        None => None,
    }
    .unwrap_or_else(|| min_max(values, &rows));
    let stats = statistics(min_max, rows.null_count(), descr, settings.truncate);
    let chunk = with_compressor(|zstd| {
        let pages = match &keyed {
            Some(keyed) => keyed_pages(keyed, values, &rows, zstd)?,
            None => plain_pages(values, &rows, zstd)?,
        };
        close(pages, values, &rows, stats, descr)
    })?;
    Ok(Some(chunk))
}

/// A chunk's values as dictionary keys.
struct Keyed<'a> {
    /// The dictionary page's values (PLAIN) and how many.
    dictionary: Vec<u8>,
    entries: u32,
    /// Each valid row's key.
    keys: Vec<u32>,
    /// A text chunk's min and max, found among the distinct texts.
    min_max: Option<MinMax<'a>>,
}

/// The dictionary of a chunk's valid values and their keys; `None` when the dictionary is
/// over the crate's limit (which then writes PLAIN pages).
fn dictionary<'a>(values: Values<'a>, rows: &Rows<'_>) -> Option<Keyed<'a>> {
    let valid = (0..rows.len).filter(|&i| rows.valid(i));
    let mut keys = Vec::with_capacity(rows.len - rows.null_count());
    let mut dictionary = Vec::new();
    let entries;
    let mut min_max = None;
    match values {
        Values::Text(a) => {
            let mut texts = Texts::new();
            keys.extend(valid.map(|i| texts.index(a.value(i).as_bytes())));
            for text in &texts.values {
                dictionary.extend_from_slice(&(text.len() as u32).to_le_bytes());
                dictionary.extend_from_slice(text);
            }
            entries = texts.values.len();
            min_max = Some(MinMax::Text(fold(texts.values.iter().copied())));
        }
        Values::Int32(_) | Values::Int64(_) => {
            let mut numbers = Dictionary::new();
            let key = |i: usize| match values {
                Values::Int32(v) => u128::from(v[i] as u32),
                Values::Int64(v) => u128::from(v[i] as u64),
                _ => 0,
            };
            keys.extend(valid.map(|i| numbers.index(key(i))));
            let width = if matches!(values, Values::Int32(_)) {
                4
            } else {
                8
            };
            for n in &numbers.keys {
                dictionary.extend_from_slice(&n.to_le_bytes()[..width]);
            }
            entries = numbers.keys.len();
        }
        Values::Bool(_) => return None,
    }
    (dictionary.len() <= DICTIONARY_LIMIT).then_some(Keyed {
        dictionary,
        entries: entries as u32,
        keys,
        min_max,
    })
}

/// Distinct texts in order of first sight, with an open-addressing table of their indices.
struct Texts<'a> {
    values: Vec<&'a [u8]>,
    hashes: Vec<u64>,
    slots: Vec<u32>,
    shift: u32,
}

impl<'a> Texts<'a> {
    fn new() -> Texts<'a> {
        Texts {
            values: Vec::new(),
            hashes: Vec::new(),
            slots: vec![u32::MAX; 256],
            shift: 64 - 8,
        }
    }

    /// The index of `text`, added if new.
    #[inline]
    fn index(&mut self, text: &'a [u8]) -> u32 {
        let hash = hash(text);
        let mask = self.slots.len() - 1;
        let mut s = (hash >> self.shift) as usize;
        loop {
            let at = self.slots[s];
            if at == u32::MAX {
                break;
            }
            let i = at as usize;
            if self.hashes[i] == hash && self.values[i] == text {
                return at;
            }
            s = (s + 1) & mask;
        }
        let at = self.values.len() as u32;
        self.slots[s] = at;
        self.values.push(text);
        self.hashes.push(hash);
        if self.values.len() * 2 > self.slots.len() {
            self.grow();
        }
        at
    }

    fn grow(&mut self) {
        self.slots = vec![u32::MAX; self.slots.len() * 2];
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for (at, &hash) in self.hashes.iter().enumerate() {
            let mut s = (hash >> self.shift) as usize;
            while self.slots[s] != u32::MAX {
                s = (s + 1) & mask;
            }
            self.slots[s] = at as u32;
        }
    }
}

/// A hash of a text's bytes, eight at a time, with its length.
#[inline]
fn hash(text: &[u8]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mut h = (text.len() as u64).wrapping_mul(K);
    let mut words = text.chunks_exact(8);
    for word in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(word);
        h = (h ^ u64::from_le_bytes(b)).wrapping_mul(K).rotate_left(29);
    }
    let rest = words.remainder();
    let mut b = [0u8; 8];
    b[..rest.len()].copy_from_slice(rest);
    (h ^ u64::from_le_bytes(b)).wrapping_mul(K)
}

/// Appends the definition levels of rows `range` with their 4-byte length (data page
/// v1): one RLE run where every row is null or none is, else one bit-packed run of the
/// rows' validity, a bit a row (the last group of 8 padded with zeros), where RLE runs
/// took two bytes for each change between null and not.
fn levels(rows: &Rows<'_>, range: std::ops::Range<usize>, page: &mut Vec<u8>) {
    let at = page.len();
    page.extend_from_slice(&[0; 4]);
    let n = range.len();
    let nulls = rows
        .nulls
        .map_or(0, |nulls| nulls.slice(range.start, n).null_count());
    match nulls {
        0 => {
            varint((n as u64) << 1, page);
            page.push(1);
        }
        all if all == n => {
            varint((n as u64) << 1, page);
            page.push(0);
        }
        _ => {
            varint(((n.div_ceil(8) as u64) << 1) | 1, page);
            let mut byte = 0u8;
            for (j, i) in range.enumerate() {
                byte |= u8::from(rows.valid(i)) << (j % 8);
                if j % 8 == 7 {
                    page.push(byte);
                    byte = 0;
                }
            }
            if !n.is_multiple_of(8) {
                page.push(byte);
            }
        }
    }
    let len = (page.len() - at - 4) as u32;
    page[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// The pages written, in order, with the rows of each data page.
struct Pages {
    data: Vec<u8>,
    dictionary: Option<PageWriteSpec>,
    specs: Vec<(PageWriteSpec, usize)>,
    /// Each data page's bytes of text (unencoded; 0 for other values).
    text_bytes: Vec<i64>,
}

/// The dictionary page and RLE_DICTIONARY data pages of a keyed chunk.
fn keyed_pages(
    keyed: &Keyed<'_>,
    values: Values<'_>,
    rows: &Rows<'_>,
    zstd: &mut zstd::bulk::Compressor<'static>,
) -> Result<Pages> {
    let width = bits(u64::from(keyed.entries.saturating_sub(1)));
    let room = keyed.dictionary.len() + keyed.keys.len() * usize::from(width) / 8 + 4096;
    let mut sink = TrackedWrite::new(Vec::with_capacity(room));
    let mut writer = SerializedPageWriter::new(&mut sink);
    let page = compressed(zstd, &keyed.dictionary, |buf| Page::DictionaryPage {
        buf,
        num_values: keyed.entries,
        encoding: Encoding::PLAIN,
        is_sorted: false,
    })?;
    let dictionary = Some(writer.write_page(page)?);
    let (mut specs, mut text, mut page) = (Vec::new(), Vec::new(), Vec::new());
    let (mut row, mut key) = (0, 0);
    while row < rows.len {
        let end = (row + PAGE_ROWS).min(rows.len);
        let valid = match rows.nulls {
            None => end - row,
            Some(n) => (end - row) - n.slice(row, end - row).null_count(),
        };
        page.clear();
        levels(rows, row..end, &mut page);
        put_keys(&keyed.keys[key..key + valid], width, &mut page);
        let data = compressed(zstd, &page, |buf| data_page(buf, end - row, true))?;
        specs.push((writer.write_page(data)?, end - row));
        text.push(text_bytes(values, rows, row..end));
        (row, key) = (end, key + valid);
    }
    writer.close()?;
    Ok(Pages {
        data: sink.into_inner()?,
        dictionary,
        specs,
        text_bytes: text,
    })
}

/// A data page v1 of `rows` levels, RLE_DICTIONARY (`keyed`) or PLAIN.
fn data_page(buf: Bytes, rows: usize, keyed: bool) -> Page {
    Page::DataPage {
        buf,
        num_values: rows as u32,
        encoding: if keyed {
            Encoding::RLE_DICTIONARY
        } else {
            Encoding::PLAIN
        },
        def_level_encoding: Encoding::RLE,
        rep_level_encoding: Encoding::RLE,
        statistics: None,
    }
}

/// The PLAIN data pages of a chunk.
fn plain_pages(
    values: Values<'_>,
    rows: &Rows<'_>,
    zstd: &mut zstd::bulk::Compressor<'static>,
) -> Result<Pages> {
    let mut sink = TrackedWrite::new(Vec::new());
    let mut writer = SerializedPageWriter::new(&mut sink);
    let (mut specs, mut text) = (Vec::new(), Vec::new());
    let (mut page, mut plain) = (Vec::new(), Vec::new());
    let mut row = 0;
    while row < rows.len {
        let first = row;
        plain.clear();
        while row < rows.len && row - first < PAGE_ROWS && plain.len() < PAGE_BYTES {
            if rows.valid(row) {
                values.plain(row, &mut plain);
            }
            row += 1;
        }
        if let Values::Bool(a) = values {
            plain_bools(a, rows, first..row, &mut plain);
        }
        text.push(text_bytes(values, rows, first..row));
        page.clear();
        levels(rows, first..row, &mut page);
        page.extend_from_slice(&plain);
        let data = compressed(zstd, &page, |buf| data_page(buf, row - first, false))?;
        specs.push((writer.write_page(data)?, row - first));
    }
    writer.close()?;
    Ok(Pages {
        data: sink.into_inner()?,
        dictionary: None,
        specs,
        text_bytes: text,
    })
}

/// Appends the PLAIN encoding of the valid booleans of `range`: bit-packed, the first in
/// the lowest bit.
fn plain_bools(
    a: &BooleanArray,
    rows: &Rows<'_>,
    range: std::ops::Range<usize>,
    out: &mut Vec<u8>,
) {
    let (mut byte, mut held) = (0u8, 0);
    for i in range.filter(|&i| rows.valid(i)) {
        byte |= u8::from(a.value(i)) << held;
        held += 1;
        if held == 8 {
            out.push(byte);
            (byte, held) = (0, 0);
        }
    }
    if held > 0 {
        out.push(byte);
    }
}

/// The smallest and largest valid value of a chunk.
enum MinMax<'a> {
    Text(Option<(&'a [u8], &'a [u8])>),
    Int32(Option<(i32, i32)>),
    Int64(Option<(i64, i64)>),
    Bool(Option<(bool, bool)>),
}

/// The chunk's statistics as the crate writes them: min and max (a text's truncated to
/// `truncate` bytes, the max then incremented), the null count, no distinct count; the
/// deprecated min/max fields too for a signed sort order.
fn statistics(
    min_max: MinMax<'_>,
    nulls: usize,
    descr: &ColumnDescPtr,
    truncate: Option<usize>,
) -> Statistics {
    let nulls = Some(nulls as u64);
    let signed = descr.sort_order().is_signed();
    match min_max {
        MinMax::Text(Some((min, max))) => {
            let (min, cut_min) = truncate_min(min, truncate);
            let (max, cut_max) = truncate_max(max, truncate);
            let min_max = Some((ByteArray::from(min), ByteArray::from(max)));
            Statistics::ByteArray(
                value_stats(min_max, nulls, signed)
                    .with_max_is_exact(!cut_max)
                    .with_min_is_exact(!cut_min),
            )
        }
        MinMax::Text(None) => Statistics::ByteArray(value_stats(None, nulls, signed)),
        MinMax::Int32(m) => Statistics::Int32(value_stats(m, nulls, signed)),
        MinMax::Int64(m) => Statistics::Int64(value_stats(m, nulls, signed)),
        MinMax::Bool(m) => Statistics::Boolean(value_stats(m, nulls, signed)),
    }
}

/// Statistics of a min and max (none: every value null) and a null count.
fn value_stats<T>(min_max: Option<(T, T)>, nulls: Option<u64>, signed: bool) -> ValueStatistics<T> {
    let (min, max) = match min_max {
        Some((min, max)) => (Some(min), Some(max)),
        None => (None, None),
    };
    ValueStatistics::new(min, max, None, nulls, false).with_backwards_compatible_min_max(signed)
}

/// The min and max of the valid values (texts byte by byte, integers signed, `false`
/// before `true`).
fn min_max<'a>(values: Values<'a>, rows: &Rows<'_>) -> MinMax<'a> {
    let valid = (0..rows.len).filter(|&i| rows.valid(i));
    match values {
        Values::Text(a) => MinMax::Text(fold(valid.map(|i| a.value(i).as_bytes()))),
        Values::Int32(v) => MinMax::Int32(fold(valid.map(|i| v[i]))),
        Values::Int64(v) => MinMax::Int64(fold(valid.map(|i| v[i]))),
        Values::Bool(a) => MinMax::Bool(fold(valid.map(|i| a.value(i)))),
    }
}

/// The smallest and the largest of `values` (none when empty).
fn fold<T: Copy + PartialOrd>(values: impl Iterator<Item = T>) -> Option<(T, T)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((if v < lo { v } else { lo }, if v > hi { v } else { hi })),
    })
}

/// A text min cut to at most `truncate` bytes at a character boundary (the crate's rule);
/// whether it was cut.
fn truncate_min(text: &[u8], truncate: Option<usize>) -> (Vec<u8>, bool) {
    let cut = truncate
        .filter(|&l| text.len() > l)
        .and_then(|l| match std::str::from_utf8(text) {
            Ok(s) => (1..=l)
                .rfind(|&x| s.is_char_boundary(x))
                .map(|at| text[..at].to_vec()),
            Err(_) => Some(text[..l].to_vec()),
        });
    match cut {
        Some(cut) => (cut, true),
        None => (text.to_vec(), false),
    }
}

/// A text max cut to at most `truncate` bytes and its last character incremented, so
/// that it stays an upper bound (the crate's rule); whether it was cut.
fn truncate_max(text: &[u8], truncate: Option<usize>) -> (Vec<u8>, bool) {
    let cut = truncate
        .filter(|&l| text.len() > l)
        .and_then(|l| match std::str::from_utf8(text) {
            Ok(s) => {
                let split = (l.saturating_sub(3)..=l).rfind(|&x| s.is_char_boundary(x))?;
                increment_utf8(s.get(..split)?)
            }
            Err(_) => increment(text[..l].to_vec()),
        });
    match cut {
        Some(cut) => (cut, true),
        None => (text.to_vec(), false),
    }
}

/// The text with its last character that can be incremented without changing its width
/// incremented, and the characters after it dropped; `None` when none can be.
fn increment_utf8(text: &str) -> Option<Vec<u8>> {
    for (at, c) in text.char_indices().rev() {
        let width = c.len_utf8();
        if let Some(next) = char::from_u32(c as u32 + 1).filter(|n| n.len_utf8() == width) {
            let mut out = text.as_bytes()[..at + width].to_vec();
            next.encode_utf8(&mut out[at..]);
            return Some(out);
        }
    }
    None
}

/// The bytes incremented as a big-endian number; `None` when all are 0xff.
fn increment(mut bytes: Vec<u8>) -> Option<Vec<u8>> {
    for b in bytes.iter_mut().rev() {
        let (next, overflow) = b.overflowing_add(1);
        *b = next;
        if !overflow {
            return Some(bytes);
        }
    }
    None
}

/// The chunk's metadata and offset index from the pages written.
fn close(
    pages: Pages,
    values: Values<'_>,
    rows: &Rows<'_>,
    statistics: Statistics,
    descr: &ColumnDescPtr,
) -> Result<ListChunk> {
    let mut offsets = OffsetIndexBuilder::new();
    let (mut compressed, mut uncompressed) = (0, 0);
    if let Some(d) = &pages.dictionary {
        (compressed, uncompressed) = (d.compressed_size, d.uncompressed_size);
    }
    let text = matches!(values, Values::Text(_));
    for (i, (spec, page_rows)) in pages.specs.iter().enumerate() {
        offsets.append_offset_and_size(spec.offset as i64, spec.compressed_size as i32);
        offsets.append_row_count(*page_rows as i64);
        compressed += spec.compressed_size;
        uncompressed += spec.uncompressed_size;
        if text {
            offsets.append_unencoded_byte_array_data_bytes(pages.text_bytes.get(i).copied());
        }
    }
    let unencoded = text.then(|| pages.text_bytes.iter().sum());
    let nulls = rows.null_count() as i64;
    let data_pages = pages.specs.len() as i32;
    let first_data = pages.specs.first().map_or(0, |(s, _)| s.offset as i64);
    let (encodings, stats) = match &pages.dictionary {
        Some(_) => (
            vec![Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY],
            vec![
                encoding_stats(PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1),
                encoding_stats(PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, data_pages),
            ],
        ),
        None => (
            vec![Encoding::PLAIN, Encoding::RLE],
            vec![encoding_stats(
                PageType::DATA_PAGE,
                Encoding::PLAIN,
                data_pages,
            )],
        ),
    };
    let metadata = ColumnChunkMetaData::builder(descr.clone())
        .set_encodings(encodings)
        .set_page_encoding_stats(stats)
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?))
        .set_num_values(rows.len as i64)
        .set_total_compressed_size(compressed as i64)
        .set_total_uncompressed_size(uncompressed as i64)
        .set_data_page_offset(first_data)
        .set_dictionary_page_offset(pages.dictionary.map(|d| d.offset as i64))
        .set_statistics(statistics)
        .set_unencoded_byte_array_data_bytes(unencoded)
        .set_definition_level_histogram(Some(LevelHistogram::from(vec![
            nulls,
            rows.len as i64 - nulls,
        ])))
        .build()?;
    let data = Bytes::from(pages.data);
    Ok(ListChunk {
        close: ColumnCloseResult {
            bytes_written: data.len() as u64,
            rows_written: rows.len as u64,
            metadata,
            bloom_filter: None,
            column_index: None,
            offset_index: Some(offsets.build()),
        },
        data,
    })
}

fn encoding_stats(page_type: PageType, encoding: Encoding, count: i32) -> PageEncodingStats {
    PageEncodingStats {
        page_type,
        encoding,
        count,
    }
}

/// The bytes of the valid texts of rows `range` (0 for values other than texts).
fn text_bytes(values: Values<'_>, rows: &Rows<'_>, range: std::ops::Range<usize>) -> i64 {
    let Values::Text(a) = values else { return 0 };
    let offsets = a.value_offsets();
    match rows.nulls {
        None => i64::from(offsets[range.end] - offsets[range.start]),
        Some(_) => range
            .filter(|&i| rows.valid(i))
            .map(|i| i64::from(offsets[i + 1] - offsets[i]))
            .sum(),
    }
}
