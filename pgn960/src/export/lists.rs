//! Our own Parquet encoder for the list columns (move texts, clocks and the other numbers
//! per move): a column chunk written page by page without the crate's column writer, the
//! same table as the crate writes. A dictionary keyed by the value's 16 bytes (a text of
//! at most 15 bytes with its length, a number's bits: one hash, no compare of bytes), or,
//! for a list of keyed texts (`export`'s move lists, keyed when the rows were pushed), the
//! list's own keys and dictionary as they are; repetition and definition levels written as RLE runs per row; the keys bit-packed;
//! data pages v1 (RLE_DICTIONARY), zstd level 1. A chunk it cannot write so (a longer
//! text, a large dictionary, no items at all, another shape of schema) is left to the
//! crate ([`encode`] returns `None`).

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, UInt32Type};
use arrow_array::{Array, ArrayRef, DictionaryArray, ListArray};
use arrow_schema::DataType;
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{ColumnChunkMetaData, OffsetIndexBuilder};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnPath};
use std::borrow::Cow;
use std::cell::RefCell;

/// The largest dictionary page we write (PLAIN bytes): the crate's default limit, past
/// which it falls back to PLAIN pages; we leave such a chunk to the crate.
pub(super) const DICTIONARY_LIMIT: usize = 1024 * 1024;

/// A data page ends at the first row boundary after this many items.
const PAGE_ITEMS: usize = 1 << 17;

/// The zstd level the file's writer properties name.
pub(super) const ZSTD_LEVEL: i32 = 1;

/// Whether the writer properties of the column at `path` are the ones this encoder
/// writes: a dictionary, zstd level 1, no statistics or bloom filter, data pages v1,
/// an offset index.
pub fn fits(props: &WriterProperties, path: &ColumnPath) -> bool {
    let zstd = ZstdLevel::try_new(ZSTD_LEVEL).map(Compression::ZSTD).ok();
    props.dictionary_enabled(path)
        && Some(props.compression(path)) == zstd
        && props.statistics_enabled(path) == EnabledStatistics::None
        && props.bloom_filter_properties(path).is_none()
        && props.writer_version() == WriterVersion::PARQUET_1_0
        && !props.offset_index_disabled()
        && props.dictionary_page_size_limit() >= DICTIONARY_LIMIT
}

/// One encoded column chunk: its bytes (dictionary page first) and what the row group
/// needs to append them.
pub struct ListChunk {
    /// The pages, as they go into the file.
    pub data: Bytes,
    /// The chunk's metadata, offsets relative to `data`.
    pub close: ColumnCloseResult,
}

/// The item values of a list column.
enum Items<'a> {
    Text(&'a arrow_array::StringArray),
    Float(&'a arrow_array::Float64Array),
    Int(&'a arrow_array::Int32Array),
    /// Texts already keyed: `u32` keys into a dictionary of texts.
    Keyed(&'a DictionaryArray<UInt32Type>),
}

impl Items<'_> {
    /// Appends the PLAIN encoding of a key's value.
    fn plain(&self, key: u128, out: &mut Vec<u8>) {
        let b = key.to_le_bytes();
        match self {
            Items::Text(_) => {
                let len = usize::from(b[15]);
                out.extend_from_slice(&(len as u32).to_le_bytes());
                out.extend_from_slice(&b[..len]);
            }
            Items::Float(_) => out.extend_from_slice(&b[..8]),
            Items::Int(_) | Items::Keyed(_) => out.extend_from_slice(&b[..4]),
        }
    }

    /// Whether item `i` is null.
    fn is_null(&self, i: usize) -> bool {
        match self {
            Items::Text(a) => a.is_null(i),
            Items::Float(a) => a.is_null(i),
            Items::Int(a) => a.is_null(i),
            Items::Keyed(a) => a.is_null(i),
        }
    }

    /// Whether any item is null.
    fn has_nulls(&self) -> bool {
        match self {
            Items::Text(a) => a.null_count() > 0,
            Items::Float(a) => a.null_count() > 0,
            Items::Int(a) => a.null_count() > 0,
            Items::Keyed(a) => a.null_count() > 0,
        }
    }
}

/// Whole numbers below this have their float's index in a table ([`Dictionary::float`]):
/// a clock list's seconds, nearly every value of a float list.
const WHOLE: usize = 1 << 14;

/// The distinct keys in order of first sight, with an open-addressing table of indices
/// (and, for floats, a table of the whole numbers' indices).
pub(super) struct Dictionary {
    pub(super) keys: Vec<u128>,
    slots: Vec<u32>,
    shift: u32,
    /// The index of each whole number below [`WHOLE`] seen (`u32::MAX`: not yet); empty
    /// but for a float list's dictionary.
    whole: Vec<u32>,
}

impl Dictionary {
    pub(super) fn new() -> Dictionary {
        Dictionary {
            keys: Vec::new(),
            slots: vec![u32::MAX; 1024],
            shift: 64 - 10,
            whole: Vec::new(),
        }
    }

    /// A dictionary of floats: whole numbers below [`WHOLE`] indexed by their value.
    fn floats() -> Dictionary {
        Dictionary {
            whole: vec![u32::MAX; WHOLE],
            ..Dictionary::new()
        }
    }

    /// The index of the float `v` (its key: its bits), added if new. A whole number below
    /// [`WHOLE`] (its bits those of its integer's: not -0.0) is found in `whole` by its
    /// value, no hash; any other value by [`Dictionary::index`]. A value always takes the
    /// same way, so each key is in the dictionary once, in order of first sight.
    #[inline(always)]
    fn float(&mut self, v: f64) -> u32 {
        let n = v as u32;
        let whole = f64::from(n).to_bits() == v.to_bits();
        match self.whole.get_mut(n as usize) {
            Some(&mut at) if whole && at != u32::MAX => at,
            Some(slot) if whole => {
                let at = self.keys.len() as u32;
                *slot = at;
                self.keys.push(u128::from(v.to_bits()));
                at
            }
            _ => self.index(u128::from(v.to_bits())),
        }
    }

    fn slot(&self, key: u128) -> usize {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        let h = (lo.wrapping_mul(K).rotate_left(26) ^ hi).wrapping_mul(K);
        (h >> self.shift) as usize
    }

    /// The index of `key`, added if new.
    #[inline(always)]
    pub(super) fn index(&mut self, key: u128) -> u32 {
        let mask = self.slots.len() - 1;
        let mut s = self.slot(key);
        loop {
            let at = self.slots[s];
            if at == u32::MAX {
                break;
            }
            if self.keys[at as usize] == key {
                return at;
            }
            s = (s + 1) & mask;
        }
        let at = self.keys.len() as u32;
        self.slots[s] = at;
        self.keys.push(key);
        if self.keys.len() * 2 > self.slots.len() {
            self.grow();
        }
        at
    }

    fn grow(&mut self) {
        self.slots = vec![u32::MAX; self.slots.len() * 2];
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for (at, &key) in self.keys.iter().enumerate() {
            let mut s = self.slot(key);
            while self.slots[s] != u32::MAX {
                s = (s + 1) & mask;
            }
            self.slots[s] = at as u32;
        }
    }
}

/// RLE runs of the RLE/bit-packing hybrid (levels of at most 8 bits), adjacent runs of
/// one value merged.
struct Runs {
    out: Vec<u8>,
    value: u8,
    count: u64,
}

impl Runs {
    fn new() -> Runs {
        Runs {
            out: Vec::new(),
            value: 0,
            count: 0,
        }
    }

    fn push(&mut self, value: u8, n: u64) {
        if n == 0 {
            return;
        }
        if value != self.value {
            self.flush();
            self.value = value;
        }
        self.count += n;
    }

    fn flush(&mut self) {
        if self.count > 0 {
            varint(self.count << 1, &mut self.out);
            self.out.push(self.value);
            self.count = 0;
        }
    }

    /// The runs with their 4-byte length before them (data page v1); starts again empty.
    fn take_into(&mut self, page: &mut Vec<u8>) {
        self.flush();
        page.extend_from_slice(&(self.out.len() as u32).to_le_bytes());
        page.append(&mut self.out);
    }
}

/// Appends `v` as a ULEB128 varint.
pub(super) fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The bits needed for values up to `max`.
pub(super) fn bits(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// Appends `keys` as the values of an RLE_DICTIONARY page: the bit width, then bit-packed
/// runs of at most 63 groups of 8 (the last group padded with zeros); one RLE run when
/// the width is 0.
pub(super) fn put_keys(keys: &[u32], width: u8, out: &mut Vec<u8>) {
    out.push(width);
    if keys.is_empty() {
        return;
    }
    if width == 0 {
        varint((keys.len() as u64) << 1, out);
        return;
    }
    for run in keys.chunks(63 * 8) {
        let groups = run.len().div_ceil(8);
        out.push(((groups as u8) << 1) | 1);
        if width <= 16 {
            pack_narrow(run, width, out);
        } else {
            pack_wide(run, width, out);
        }
    }
}

/// Bit-packs `run` in groups of 8 (the last padded with zeros), `width` at most 16: a
/// group in one 128-bit word, made of two 64-bit halves of four keys each, stored whole
/// (16 bytes, a store of fixed size) and the next group stored `width` bytes on, where a
/// copy of `width` bytes was a call to `memcpy` per group; the room past the end cut off.
fn pack_narrow(run: &[u32], width: u8, out: &mut Vec<u8>) {
    let w = usize::from(width);
    let start = out.len();
    let end = start + run.len().div_ceil(8) * w;
    out.resize(end + 16, 0);
    for (g, group) in run.chunks(8).enumerate() {
        let mut keys = [0u64; 8];
        for (key, &k) in keys.iter_mut().zip(group) {
            *key = u64::from(k);
        }
        let half = |k: &[u64]| k[0] | k[1] << w | k[2] << (2 * w) | k[3] << (3 * w);
        let acc = u128::from(half(&keys[..4])) | u128::from(half(&keys[4..])) << (4 * w);
        let at = start + g * w;
        if let Some(slot) = out.get_mut(at..at + 16) {
            slot.copy_from_slice(&acc.to_le_bytes());
        }
    }
    out.truncate(end);
}

/// Bit-packs `run` in groups of 8 (the last padded with zeros), any width up to 32.
fn pack_wide(run: &[u32], width: u8, out: &mut Vec<u8>) {
    let start = out.len();
    let mut acc: u64 = 0;
    let mut held: u32 = 0;
    for &k in run {
        acc |= u64::from(k) << held;
        held += u32::from(width);
        while held >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            held -= 8;
        }
    }
    // Pad to whole groups of 8 values: a group of 8 is `width` bytes.
    let end = start + run.len().div_ceil(8) * usize::from(width);
    while out.len() < end {
        out.push(acc as u8);
        acc >>= 8;
    }
}

/// The keys and levels of one column chunk, before paging.
struct Encoded<'a> {
    /// The dictionary page's values (PLAIN) and how many.
    dictionary: Vec<u8>,
    entries: u32,
    /// The dictionary index of every non-null item (a keyed list's own keys, where they
    /// are all of them: [`keyed`]).
    keys: Cow<'a, [u32]>,
    /// Per row: (repetition/definition levels, keys) counts, for paging at row ends.
    rows: RowSizes,
}

/// Per row of a list column: its (repetition/definition levels, keys) counts.
type RowSizes = Vec<(u32, u32)>;

/// Encodes `array` (a list column of texts or numbers) as one column chunk for `descr`,
/// or `None` when the chunk is better left to the crate.
pub fn encode(array: &ArrayRef, descr: &ColumnDescPtr) -> Result<Option<ListChunk>> {
    if descr.max_def_level() != 3 || descr.max_rep_level() != 1 {
        return Ok(None);
    }
    let Some(lists) = array.as_list_opt::<i32>() else {
        return Ok(None);
    };
    let values = lists.values();
    let items = match values.data_type() {
        DataType::Utf8 => Items::Text(values.as_string::<i32>()),
        DataType::Float64 => Items::Float(values.as_primitive::<Float64Type>()),
        DataType::Int32 => Items::Int(values.as_primitive::<Int32Type>()),
        DataType::Dictionary(k, v) if **k == DataType::UInt32 && **v == DataType::Utf8 => {
            Items::Keyed(values.as_dictionary::<UInt32Type>())
        }
        _ => return Ok(None),
    };
    let encoded = match items {
        Items::Keyed(a) => keyed(lists, a),
        _ => keys(lists, &items),
    };
    let Some(encoded) = encoded else {
        return Ok(None);
    };
    if encoded.keys.is_empty() || encoded.dictionary.len() > DICTIONARY_LIMIT {
        return Ok(None);
    }
    write_chunk(lists, &items, &encoded, descr).map(Some)
}

/// The keys of a list of keyed texts as they are (the valid ones), its dictionary's texts
/// PLAIN, and the rows' sizes; `None` where the dictionary has a null text.
fn keyed<'a>(lists: &ListArray, items: &'a DictionaryArray<UInt32Type>) -> Option<Encoded<'a>> {
    let texts = items.values().as_string_opt::<i32>()?;
    if texts.null_count() > 0 {
        return None;
    }
    let mut dictionary = Vec::with_capacity(texts.value_data().len() + 4 * texts.len());
    for text in texts.iter().flatten() {
        dictionary.extend_from_slice(&(text.len() as u32).to_le_bytes());
        dictionary.extend_from_slice(text.as_bytes());
    }
    let entries = texts.len() as u32;
    match keys_in_place(lists, items) {
        Some((keys, rows)) => Some(Encoded {
            dictionary,
            entries,
            keys: Cow::Borrowed(keys),
            rows,
        }),
        None => keyed_copied(lists, items, dictionary, entries),
    }
}

/// The keys of a keyed list as the array holds them, with the rows' sizes, where those
/// are every valid item's key in order: no null item, and no item under a null row (as
/// [`crate::table::arrow::ArrowRows::keyed`] makes them). `None` otherwise.
fn keys_in_place<'a>(
    lists: &ListArray,
    items: &'a DictionaryArray<UInt32Type>,
) -> Option<(&'a [u32], RowSizes)> {
    let offsets = lists.value_offsets();
    let spans = |row: usize| offsets[row + 1] - offsets[row];
    if items.null_count() > 0 || (0..lists.len()).any(|r| lists.is_null(r) && spans(r) != 0) {
        return None;
    }
    let (first, last) = (*offsets.first()? as usize, *offsets.last()? as usize);
    let keys = items.keys().values().get(first..last)?;
    let rows = (0..lists.len())
        .map(|row| match spans(row) as u32 {
            0 => (1, 0),
            n => (n, n),
        })
        .collect();
    Some((keys, rows))
}

/// [`keyed`]'s keys copied, the valid items of the valid rows, and the rows' sizes.
fn keyed_copied<'a>(
    lists: &ListArray,
    items: &DictionaryArray<UInt32Type>,
    dictionary: Vec<u8>,
    entries: u32,
) -> Option<Encoded<'a>> {
    let all = items.keys().values();
    let mut keys = Vec::with_capacity(all.len());
    let mut rows = Vec::with_capacity(lists.len());
    let offsets = lists.value_offsets();
    for row in 0..lists.len() {
        let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
        if lists.is_null(row) || start == end {
            rows.push((1, 0));
            continue;
        }
        let before = keys.len();
        match items.nulls() {
            None => keys.extend_from_slice(all.get(start..end)?),
            Some(nulls) => keys.extend((start..end).filter(|&i| nulls.is_valid(i)).map(|i| all[i])),
        }
        rows.push(((end - start) as u32, (keys.len() - before) as u32));
    }
    Some(Encoded {
        dictionary,
        entries,
        keys: Cow::Owned(keys),
        rows,
    })
}

/// Every valid item's dictionary key, and the rows' sizes; `None` for a text too long.
#[inline(never)]
fn keys<'a>(lists: &ListArray, items: &Items<'a>) -> Option<Encoded<'a>> {
    match *items {
        Items::Text(a) => {
            let index = TextIndex {
                offsets: a.value_offsets(),
                data: a.value_data(),
            };
            keys_of(lists, items, a, Dictionary::new(), index)
        }
        Items::Float(a) => keys_of(
            lists,
            items,
            a,
            Dictionary::floats(),
            FloatIndex(a.values()),
        ),
        Items::Int(a) => keys_of(lists, items, a, Dictionary::new(), IntIndex(a.values())),
        Items::Keyed(a) => keyed(lists, a),
    }
}

/// How [`keys_of`] finds a valid item's index in the dictionary (a trait, not a closure:
/// its method is inlined into the loop, where a closure was left a call per item).
trait ItemIndex {
    /// The index of item `i`, added when new; `None` for an item that cannot be keyed.
    fn index(&self, dictionary: &mut Dictionary, i: usize) -> Option<u32>;
}

/// Texts, keyed by [`text_key`].
struct TextIndex<'a> {
    offsets: &'a [i32],
    data: &'a [u8],
}

impl ItemIndex for TextIndex<'_> {
    #[inline(always)]
    fn index(&self, dictionary: &mut Dictionary, i: usize) -> Option<u32> {
        Some(dictionary.index(text_key(self.offsets, self.data, i)?))
    }
}

/// Floats, by [`Dictionary::float`].
struct FloatIndex<'a>(&'a [f64]);

impl ItemIndex for FloatIndex<'_> {
    #[inline(always)]
    fn index(&self, dictionary: &mut Dictionary, i: usize) -> Option<u32> {
        Some(dictionary.float(*self.0.get(i)?))
    }
}

/// Integers, keyed by their bits.
struct IntIndex<'a>(&'a [i32]);

impl ItemIndex for IntIndex<'_> {
    #[inline(always)]
    fn index(&self, dictionary: &mut Dictionary, i: usize) -> Option<u32> {
        Some(dictionary.index(u128::from(*self.0.get(i)? as u32)))
    }
}

/// The low `n` bytes of 16, for `n` up to 15.
const TEXT_MASKS: [u128; 16] = {
    let mut masks = [0u128; 16];
    let mut n = 0;
    while n < 16 {
        masks[n] = (1u128 << (n * 8)) - 1;
        n += 1;
    }
    masks
};

/// The key of text `i`: its bytes and its length in the top byte; `None` past 15 bytes.
#[inline]
fn text_key(offsets: &[i32], data: &[u8], i: usize) -> Option<u128> {
    let start = offsets[i] as usize;
    let len = (offsets[i + 1] as usize).checked_sub(start)?;
    if len > 15 {
        return None;
    }
    let tag = (len as u128) << 120;
    if let Some(word) = data.get(start..start + 16) {
        // 16 bytes at once, the ones past the text masked off.
        let mut b = [0u8; 16];
        b.copy_from_slice(word);
        return Some((u128::from_le_bytes(b) & TEXT_MASKS[len]) | tag);
    }
    let mut b = [0u8; 16];
    b[..len].copy_from_slice(data.get(start..start + len)?);
    Some(u128::from_le_bytes(b) | tag)
}

/// [`keys`] for one kind of item, `index` giving a valid item's index in `dictionary`
/// (adding it when new).
#[inline(always)]
fn keys_of(
    lists: &ListArray,
    items: &Items<'_>,
    values: &dyn Array,
    mut dictionary: Dictionary,
    index: impl ItemIndex,
) -> Option<Encoded<'static>> {
    let mut keys = Vec::with_capacity(values.len());
    let mut rows = Vec::with_capacity(lists.len());
    let offsets = lists.value_offsets();
    let nulls = values.nulls().filter(|n| n.null_count() > 0);
    for row in 0..lists.len() {
        let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
        if lists.is_null(row) || start == end {
            rows.push((1, 0));
            continue;
        }
        let before = keys.len();
        match nulls {
            None => {
                for i in start..end {
                    keys.push(index.index(&mut dictionary, i)?);
                }
            }
            Some(nulls) => {
                for i in (start..end).filter(|&i| nulls.is_valid(i)) {
                    keys.push(index.index(&mut dictionary, i)?);
                }
            }
        }
        rows.push(((end - start) as u32, (keys.len() - before) as u32));
    }
    let mut plain = Vec::new();
    for &key in &dictionary.keys {
        items.plain(key, &mut plain);
    }
    Some(Encoded {
        dictionary: plain,
        entries: dictionary.keys.len() as u32,
        keys: Cow::Owned(keys),
        rows,
    })
}

/// The repetition and definition levels of rows `rows` into `rep` and `def`.
fn levels(
    lists: &ListArray,
    items: &Items<'_>,
    rows: std::ops::Range<usize>,
    rep: &mut Runs,
    def: &mut Runs,
) {
    let offsets = lists.value_offsets();
    let nulls = items.has_nulls();
    for row in rows {
        let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
        if lists.is_null(row) {
            rep.push(0, 1);
            def.push(0, 1);
        } else if start == end {
            rep.push(0, 1);
            def.push(1, 1);
        } else {
            rep.push(0, 1);
            rep.push(1, (end - start - 1) as u64);
            if nulls {
                for i in start..end {
                    def.push(if items.is_null(i) { 2 } else { 3 }, 1);
                }
            } else {
                def.push(3, (end - start) as u64);
            }
        }
    }
}

/// A page compressed with zstd, as the page writer takes it.
pub(super) fn compressed(
    zstd: &mut zstd::bulk::Compressor<'_>,
    page: &[u8],
    make: impl FnOnce(Bytes) -> Page,
) -> Result<CompressedPage> {
    let buf = zstd
        .compress(page)
        .map_err(|e| ParquetError::External(Box::new(e)))?;
    Ok(CompressedPage::new(make(Bytes::from(buf)), page.len()))
}

thread_local! {
    /// The thread's zstd context, made once: one per column chunk was an allocation of
    /// its tables, and their first touch, every time.
    static COMPRESSOR: RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { RefCell::new(None) };
}

/// Runs `f` with the thread's zstd context (level [`ZSTD_LEVEL`]); each page is a frame of
/// its own, so the output is the same as from a new context.
pub(super) fn with_compressor<R>(
    f: impl FnOnce(&mut zstd::bulk::Compressor<'static>) -> Result<R>,
) -> Result<R> {
    COMPRESSOR.with(|cell| {
        let mut slot = cell
            .try_borrow_mut()
            .map_err(|_| ParquetError::General("the zstd context is in use".into()))?;
        let zstd = match &mut *slot {
            Some(zstd) => zstd,
            None => slot.insert(
                zstd::bulk::Compressor::new(ZSTD_LEVEL)
                    .map_err(|e| ParquetError::External(Box::new(e)))?,
            ),
        };
        f(zstd)
    })
}

/// Writes the dictionary page and the data pages, and builds the chunk's metadata.
fn write_chunk(
    lists: &ListArray,
    items: &Items<'_>,
    encoded: &Encoded,
    descr: &ColumnDescPtr,
) -> Result<ListChunk> {
    with_compressor(|zstd| write_pages(lists, items, encoded, descr, zstd))
}

/// [`write_chunk`] with a zstd context.
fn write_pages(
    lists: &ListArray,
    items: &Items<'_>,
    encoded: &Encoded,
    descr: &ColumnDescPtr,
    zstd: &mut zstd::bulk::Compressor<'static>,
) -> Result<ListChunk> {
    let entries = encoded.entries;
    let width = bits(u64::from(entries.saturating_sub(1)));
    // Room for the pages as written (they hardly compress: keys and levels), so that the
    // chunk's buffer is not grown by copying it.
    let room = encoded.dictionary.len()
        + encoded.keys.len() * usize::from(width) / 8
        + encoded.rows.len() / 4
        + 4096;
    let mut sink = TrackedWrite::new(Vec::with_capacity(room));
    let mut pages = SerializedPageWriter::new(&mut sink);
    let page = compressed(zstd, &encoded.dictionary, |buf| Page::DictionaryPage {
        buf,
        num_values: entries,
        encoding: Encoding::PLAIN,
        is_sorted: false,
    })?;
    let dict_spec = pages.write_page(page)?;
    let mut specs: Vec<(PageWriteSpec, usize)> = Vec::new();
    let (mut rep, mut def) = (Runs::new(), Runs::new());
    let (mut row, mut key) = (0, 0);
    let mut page = Vec::new();
    while row < encoded.rows.len() {
        let (first, first_key) = (row, key);
        let (mut levels_n, mut items_n) = (0usize, 0usize);
        while row < encoded.rows.len() && items_n < PAGE_ITEMS {
            let (l, k) = encoded.rows[row];
            levels_n += l as usize;
            items_n += k as usize;
            row += 1;
        }
        key += items_n;
        levels(lists, items, first..row, &mut rep, &mut def);
        page.clear();
        rep.take_into(&mut page);
        def.take_into(&mut page);
        put_keys(&encoded.keys[first_key..key], width, &mut page);
        let data = compressed(zstd, &page, |buf| Page::DataPage {
            buf,
            num_values: levels_n as u32,
            encoding: Encoding::RLE_DICTIONARY,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        })?;
        specs.push((pages.write_page(data)?, row - first));
    }
    pages.close()?;
    let data = Bytes::from(sink.into_inner()?);
    close_result(data, dict_spec, &specs, encoded.rows.len(), descr)
}

/// The chunk's metadata and offset index from what the page writer reported.
fn close_result(
    data: Bytes,
    dict: PageWriteSpec,
    specs: &[(PageWriteSpec, usize)],
    rows: usize,
    descr: &ColumnDescPtr,
) -> Result<ListChunk> {
    let mut offsets = OffsetIndexBuilder::new();
    let (mut compressed, mut uncompressed) = (dict.compressed_size, dict.uncompressed_size);
    let mut values = 0i64;
    for (spec, page_rows) in specs {
        offsets.append_offset_and_size(spec.offset as i64, spec.compressed_size as i32);
        offsets.append_row_count(*page_rows as i64);
        compressed += spec.compressed_size;
        uncompressed += spec.uncompressed_size;
        values += i64::from(spec.num_values);
    }
    let first_data = specs.first().map_or(0, |(s, _)| s.offset as i64);
    let level = ZstdLevel::try_new(ZSTD_LEVEL)?;
    let metadata = ColumnChunkMetaData::builder(descr.clone())
        .set_encodings(vec![
            Encoding::PLAIN,
            Encoding::RLE,
            Encoding::RLE_DICTIONARY,
        ])
        .set_compression(Compression::ZSTD(level))
        .set_num_values(values)
        .set_total_compressed_size(compressed as i64)
        .set_total_uncompressed_size(uncompressed as i64)
        .set_data_page_offset(first_data)
        .set_dictionary_page_offset(Some(dict.offset as i64))
        .build()?;
    let close = ColumnCloseResult {
        bytes_written: data.len() as u64,
        rows_written: rows as u64,
        metadata,
        bloom_filter: None,
        column_index: None,
        offset_index: Some(offsets.build()),
    };
    Ok(ListChunk { data, close })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use arrow_array::builder::{Float64Builder, ListBuilder};

    /// A random list of keyed texts (8 texts): rows null one in `null_rows` (spanning
    /// items when `spanning`), items null one in `null_items` (0: none).
    fn keyed_lists(rng: &mut Rng, null_rows: u64, spanning: bool, null_items: u64) -> ListArray {
        use arrow_array::{StringArray, UInt32Array};
        use arrow_buffer::{NullBuffer, OffsetBuffer};
        let (mut offsets, mut valid, mut keys) = (vec![0i32], Vec::new(), Vec::new());
        for _ in 0..rng.below(300) + 1 {
            let null = null_rows > 0 && rng.below(null_rows) == 0;
            let n = if null && !spanning { 0 } else { rng.below(40) };
            for _ in 0..n {
                let null_item = null_items > 0 && rng.below(null_items) == 0;
                keys.push((!null_item).then(|| rng.below(8) as u32));
            }
            offsets.push(keys.len() as i32);
            valid.push(!null);
        }
        let texts = StringArray::from(vec!["a", "bb", "", "Nf3", "O-O", "e8=Q#", "x", "h1"]);
        let items = DictionaryArray::<UInt32Type>::try_new(
            keys.into_iter().collect::<UInt32Array>(),
            std::sync::Arc::new(texts),
        )
        .unwrap();
        let item = arrow_schema::Field::new("item", items.data_type().clone(), true);
        ListArray::try_new(
            std::sync::Arc::new(item),
            OffsetBuffer::new(offsets.into()),
            std::sync::Arc::new(items),
            Some(NullBuffer::from(valid)),
        )
        .unwrap()
    }

    #[test]
    fn keyed_keys_in_place_are_the_keys_copied() {
        let mut rng = Rng(0x0960_4e75_0000_0005);
        for round in 0..200 {
            let (null_rows, spanning, null_items) = match round % 4 {
                0 => (0, false, 0),
                1 => (5, false, 0),
                2 => (5, true, 0),
                _ => (0, false, 4),
            };
            let lists = keyed_lists(&mut rng, null_rows, spanning, null_items);
            let items = lists.values().as_dictionary::<UInt32Type>();
            let fast = keyed(&lists, items).unwrap();
            let copied = keyed_copied(&lists, items, fast.dictionary.clone(), fast.entries);
            let copied = copied.unwrap();
            assert_eq!(&*fast.keys, &*copied.keys, "round {round}");
            assert_eq!(fast.rows, copied.rows, "round {round}");
            let in_place = matches!(fast.keys, Cow::Borrowed(_));
            let spans_nulls =
                (0..lists.len()).any(|r| lists.is_null(r) && lists.value_length(r) > 0);
            let has_null_items = items.null_count() > 0;
            assert_eq!(in_place, !spans_nulls && !has_null_items, "round {round}");
        }
    }

    /// Every float keyed by its bits' hash, no table of whole numbers.
    struct HashedFloats<'a>(&'a [f64]);

    impl ItemIndex for HashedFloats<'_> {
        fn index(&self, dictionary: &mut Dictionary, i: usize) -> Option<u32> {
            Some(dictionary.index(u128::from(self.0[i].to_bits())))
        }
    }

    /// A random float: whole numbers on both sides of [`WHOLE`] most often, and the values
    /// a whole-number test could take for one (-0.0, NaNs, infinities, negative and huge
    /// whole numbers, fractions, the largest `u32`).
    fn float(rng: &mut Rng) -> f64 {
        let whole = rng.below(WHOLE as u64 + 300) as f64;
        match rng.below(16) {
            0 => -0.0,
            1 => f64::NAN,
            2 => f64::from_bits(f64::NAN.to_bits() | 1),
            3 => [f64::INFINITY, f64::NEG_INFINITY, f64::from(u32::MAX), 1e300]
                [rng.below(4) as usize],
            4 => -whole,
            5 => whole + 0.5,
            6 => (WHOLE as f64) + rng.below(3) as f64 - 1.0,
            _ => whole,
        }
    }

    #[test]
    fn float_keys_by_the_whole_number_table_are_the_hashed_keys() {
        let mut rng = Rng(0x0960_f10a_7000_0001);
        for round in 0..40 {
            let mut lists = ListBuilder::new(Float64Builder::new());
            for _ in 0..rng.below(400) + 1 {
                if rng.below(9) == 0 {
                    lists.append_null();
                    continue;
                }
                for _ in 0..rng.below(120) {
                    match rng.below(11) {
                        0 if round % 2 == 0 => lists.values().append_null(),
                        _ => lists.values().append_value(float(&mut rng)),
                    }
                }
                lists.append(true);
            }
            let lists = lists.finish();
            let values = lists.values().as_primitive::<Float64Type>();
            let items = Items::Float(values);
            let Some(fast) = keys(&lists, &items) else {
                panic!("no keys")
            };
            let bits = HashedFloats(values.values());
            let Some(hashed) = keys_of(&lists, &items, values, Dictionary::new(), bits) else {
                panic!("no keys")
            };
            assert!(fast.entries > 100, "{}", fast.entries);
            assert_eq!(fast.entries, hashed.entries);
            assert_eq!(fast.dictionary, hashed.dictionary);
            assert_eq!(fast.keys, hashed.keys);
            assert_eq!(fast.rows, hashed.rows);
        }
    }

    /// [`pack_narrow`] as it was: each group's `width` bytes copied from its 128-bit word.
    fn pack_narrow_copied(run: &[u32], width: u8, out: &mut Vec<u8>) {
        let w = usize::from(width);
        for group in run.chunks(8) {
            let mut acc: u128 = 0;
            for (j, &k) in group.iter().enumerate() {
                acc |= u128::from(k) << (j * w);
            }
            out.extend_from_slice(&acc.to_le_bytes()[..w]);
        }
    }

    #[test]
    fn narrow_keys_packed_whole_are_the_keys_packed_by_copies() {
        let mut rng = Rng(0x0960_9ac4_0000_0001);
        for round in 0..600 {
            let width = (round % 16 + 1) as u8;
            let len = rng.index(70);
            let keys: Vec<u32> = (0..len)
                .map(|_| match rng.below(4) {
                    0 => (1u32 << width) - 1,
                    _ => rng.below(1 << width) as u32,
                })
                .collect();
            let prefix: Vec<u8> = (0..rng.index(5)).map(|i| i as u8 + 1).collect();
            let (mut fast, mut copied) = (prefix.clone(), prefix);
            pack_narrow(&keys, width, &mut fast);
            pack_narrow_copied(&keys, width, &mut copied);
            assert_eq!(fast, copied, "width {width}, {len} keys");
            // Through put_keys too: runs of 63 groups.
            let many: Vec<u32> = (0..rng.index(2000))
                .map(|i| keys.get(i % 7).copied().unwrap_or(0))
                .collect();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            put_keys(&many, width, &mut a);
            b.push(width);
            for run in many.chunks(63 * 8) {
                if !run.is_empty() {
                    b.push(((run.len().div_ceil(8) as u8) << 1) | 1);
                    pack_narrow_copied(run, width, &mut b);
                }
            }
            assert_eq!(a, b, "width {width}, {} keys", many.len());
        }
    }
}
