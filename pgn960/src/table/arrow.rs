//! The table as Arrow: the schema of a [`TableSpec`](super::TableSpec) (every column
//! nullable, lists of nullable items) and the rows of a chunk built into a record batch.
//! `pgn960 export` encodes these arrays into Parquet; the Python package hands them to
//! pyarrow.

use super::columns::{
    find_tag, plain_tag, value, Column, Field, GameView, Kind, MoveList, PlyView, Value, UCI_CODES,
};
use super::{table_rows, ExportCounts, TableSpec};
use crate::pipeline::ChunkInfo;
use crate::validate::MoveRecord;
use arrow_array::builder::{
    ArrayBuilder, BooleanBufferBuilder, BooleanBuilder, Float64Builder, Int32Builder, Int64Builder,
    StringBuilder,
};
use arrow_array::types::{ArrowPrimitiveType, Float64Type, Int32Type, UInt32Type};
use arrow_array::{
    Array, ArrayRef, DictionaryArray, ListArray, PrimitiveArray, RecordBatch, StringArray,
    UInt32Array,
};
use arrow_buffer::{Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field as ArrowField, Schema, SchemaRef};
use chess960_core::{Role, San, SanPlus, SanSuffix};
use pgn_parse::Origin;
use std::sync::Arc;

/// The Arrow type of a column kind.
pub fn data_type(kind: Kind) -> DataType {
    let item = |t| DataType::List(Arc::new(ArrowField::new("item", t, true)));
    match kind {
        Kind::Text => DataType::Utf8,
        Kind::Int32 => DataType::Int32,
        Kind::Int64 => DataType::Int64,
        Kind::Float => DataType::Float64,
        Kind::Bool => DataType::Boolean,
        Kind::TextList => item(DataType::Utf8),
        Kind::FloatList => item(DataType::Float64),
        Kind::Int32List => item(DataType::Int32),
    }
}

/// The Arrow schema of a table of `columns` (every column nullable).
pub fn schema(columns: &[Column]) -> SchemaRef {
    Arc::new(Schema::new(
        columns
            .iter()
            .map(|c| ArrowField::new(&c.name, data_type(c.field.kind()), true))
            .collect::<Vec<_>>(),
    ))
}

/// A list-of-text column of moves (SAN or UCI) written straight into the buffers of its
/// Arrow arrays: each move's bytes appended from the stack, no builder call, `String` or
/// UTF-8 check per move (the text is checked once, when the arrays are made).
struct MoveTexts {
    /// The moves' bytes, one after another.
    bytes: Vec<u8>,
    /// Where each move's text ends in `bytes`, after a leading 0.
    ends: Vec<i32>,
    /// Where each row's list ends in `ends`, after a leading 0.
    lists: Vec<i32>,
    /// Whether each row has a list (null otherwise).
    valid: BooleanBufferBuilder,
    /// Whether an offset went past `i32::MAX` (the arrays are refused then).
    overflow: bool,
}

impl MoveTexts {
    fn new() -> MoveTexts {
        MoveTexts::with_room(Room::default())
    }

    /// Empty, with room for `room` (rows, items, bytes of text).
    fn with_room(room: Room) -> MoveTexts {
        let mut ends = Vec::with_capacity(room.items.saturating_add(1));
        ends.push(0);
        let mut lists = Vec::with_capacity(room.rows.saturating_add(1));
        lists.push(0);
        MoveTexts {
            bytes: Vec::with_capacity(room.bytes),
            ends,
            lists,
            valid: BooleanBufferBuilder::new(room.rows.max(1024)),
            overflow: false,
        }
    }

    /// What the rows so far hold.
    fn room(&self) -> Room {
        Room {
            rows: self.lists.len() - 1,
            items: self.ends.len() - 1,
            bytes: self.bytes.len(),
        }
    }

    /// An offset as Arrow holds it.
    fn offset(&mut self, n: usize) -> i32 {
        i32::try_from(n).unwrap_or_else(|_| {
            self.overflow = true;
            0
        })
    }

    /// Appends the text of `m` in list `which` as an item (of the row not yet ended, as
    /// the dictionary of a [`MoveKeys`] column holds its texts); its index.
    #[cold]
    #[inline(never)]
    fn add(&mut self, which: MoveList, m: &MoveRecord) -> u32 {
        let key = (self.ends.len() - 1) as u32;
        which.append_text(m, &mut self.bytes);
        let end = self.offset(self.bytes.len());
        self.ends.push(end);
        key
    }

    /// Appends a row: the list `which` of `moves`, or null.
    fn push(&mut self, moves: Option<(&[MoveRecord], MoveList)>) {
        if let Some((moves, which)) = moves {
            self.ends.reserve(moves.len());
            for m in moves {
                which.append_text(m, &mut self.bytes);
                let end = self.offset(self.bytes.len());
                self.ends.push(end);
            }
        }
        let end = self.offset(self.ends.len() - 1);
        self.lists.push(end);
        self.valid.append(moves.is_some());
    }

    /// The list array of the rows so far (the buffers start again empty).
    fn finish(&mut self) -> Result<ArrayRef, ArrowError> {
        let done = std::mem::replace(self, MoveTexts::new());
        if done.overflow {
            return Err(ArrowError::OffsetOverflowError(done.bytes.len()));
        }
        let mut valid = done.valid;
        let items = StringArray::try_new(
            OffsetBuffer::new(ScalarBuffer::from(done.ends)),
            Buffer::from_vec(done.bytes),
            None,
        )?;
        let item = Arc::new(ArrowField::new("item", DataType::Utf8, true));
        let lists = ListArray::try_new(
            item,
            OffsetBuffer::new(ScalarBuffer::from(done.lists)),
            Arc::new(items),
            Some(NullBuffer::new(valid.finish())),
        )?;
        Ok(Arc::new(lists))
    }
}

/// Where each code of a [`MoveKeys`] column has its key: a table indexed by the code (UCI
/// codes are 15 bits, so are their keys: `u16`, [`NO_KEY`] for a code not seen), or, for
/// SAN codes, a table indexed by the common ones' [`simple_san`] (16 KB, where open
/// addressing over every code's (code, key) pairs outgrew the first-level cache) and open
/// addressing over the others' (and over any whose key is too large for `u16`).
enum CodeTable {
    Direct(Vec<u16>),
    Hashed {
        simple: Vec<u16>,
        slots: Vec<(u32, u32)>,
        shift: u32,
        /// The codes in `slots`.
        hashed: usize,
    },
}

/// The places of [`simple_san`]: 13 bits.
const SIMPLE_SANS: usize = 1 << 13;

/// Where a common SAN has its key in [`CodeTable::Hashed`]'s table of them: a piece or
/// pawn move without origin rank or promotion, with an origin file only as a pawn's
/// capture from the file beside its target; its role, capture (for a pawn, from which
/// side), target and suffix in 13 bits, read from its fields (no [`MoveList::code`]).
/// `None` for any other SAN (castling, promotions, disambiguated pieces).
#[inline(always)]
fn simple_san(san: &SanPlus) -> Option<usize> {
    let San::Normal {
        role,
        file,
        rank: None,
        capture,
        to,
        promotion: None,
    } = san.san
    else {
        return None;
    };
    let pawn_capture = role == Role::Pawn && capture;
    let to_file = to.file().index();
    let way = match file {
        None => u32::from(capture),
        Some(f) if pawn_capture && f.index() + 1 == to_file => 2,
        Some(f) if pawn_capture && f.index() == to_file + 1 => 3,
        Some(_) => return None,
    };
    let suffix = match san.suffix {
        None => 0,
        Some(SanSuffix::Check) => 1,
        Some(SanSuffix::Checkmate) => 2,
    };
    Some((role.index() as u32 | way << 3 | (to.index() as u32) << 5 | suffix << 11) as usize)
}

/// A code without a key yet in a [`CodeTable::Direct`] table.
const NO_KEY: u16 = u16::MAX;

impl CodeTable {
    fn new(which: MoveList) -> CodeTable {
        match which {
            MoveList::Uci(_) => CodeTable::Direct(vec![NO_KEY; UCI_CODES]),
            _ => CodeTable::Hashed {
                simple: vec![NO_KEY; SIMPLE_SANS],
                slots: vec![(u32::MAX, 0); 1 << 10],
                shift: 32 - 10,
                hashed: 0,
            },
        }
    }

    fn slot(code: u32, shift: u32) -> usize {
        (code.wrapping_mul(0x9e37_79b1) >> shift) as usize
    }

    /// The key of `code` in a hashed table, or `None` when it is new.
    #[inline(always)]
    fn find(slots: &[(u32, u32)], shift: u32, code: u32) -> Option<u32> {
        let mask = slots.len() - 1;
        let mut s = CodeTable::slot(code, shift);
        loop {
            let (c, key) = *slots.get(s)?;
            if c == code {
                return Some(key);
            }
            if c == u32::MAX {
                return None;
            }
            s = (s + 1) & mask;
        }
    }

    /// Records `key` for a new `code` in a hashed table; `keys`: how many codes there are
    /// with it.
    fn insert(slots: &mut Vec<(u32, u32)>, shift: &mut u32, code: u32, key: u32, keys: usize) {
        if keys * 2 > slots.len() {
            let old = std::mem::take(slots);
            *slots = vec![(u32::MAX, 0); old.len() * 2];
            *shift -= 1;
            for (c, k) in old.into_iter().filter(|&(c, _)| c != u32::MAX) {
                CodeTable::put(slots, *shift, c, k);
            }
        }
        CodeTable::put(slots, *shift, code, key);
    }

    fn put(slots: &mut [(u32, u32)], shift: u32, code: u32, key: u32) {
        let mask = slots.len() - 1;
        let mut s = CodeTable::slot(code, shift);
        while slots[s].0 != u32::MAX {
            s = (s + 1) & mask;
        }
        slots[s] = (code, key);
    }
}

/// A list-of-text column of moves kept as dictionary keys, for `export`'s Parquet encoder:
/// each move's [`MoveList::code`] looked up in a table of the codes seen, its text written
/// only the first time (a few thousand texts a chunk instead of one per move). Finished as
/// a list array of dictionary-encoded texts (`u32` keys), which the encoder writes as they
/// are, where [`MoveTexts`] would have it read every text back and hash it.
struct MoveKeys {
    /// The list the column holds (its codes' kind).
    which: MoveList,
    /// Every move's key.
    keys: Vec<u32>,
    /// Where each row's list ends in `keys`, after a leading 0.
    lists: Vec<i32>,
    /// Whether each row has a list (null otherwise).
    valid: BooleanBufferBuilder,
    /// The key of each code seen.
    codes: CodeTable,
    /// The dictionary: each key's text (one [`MoveTexts`] row of them).
    texts: MoveTexts,
    /// Whether an offset went past `i32::MAX` (the arrays are refused then).
    overflow: bool,
}

impl MoveKeys {
    /// Empty, with room for `room` (rows and items).
    fn with_room(which: MoveList, room: Room) -> MoveKeys {
        let mut lists = Vec::with_capacity(room.rows.saturating_add(1));
        lists.push(0);
        MoveKeys {
            which,
            keys: Vec::with_capacity(room.items),
            lists,
            valid: BooleanBufferBuilder::new(room.rows.max(1024)),
            codes: CodeTable::new(which),
            texts: MoveTexts::new(),
            overflow: false,
        }
    }

    /// What the rows so far hold.
    fn room(&self) -> Room {
        Room {
            rows: self.lists.len() - 1,
            items: self.keys.len(),
            bytes: 0,
        }
    }

    /// Appends a row: this column's list of `moves`, or null.
    fn push(&mut self, moves: Option<&[MoveRecord]>) {
        if let Some(moves) = moves {
            let MoveKeys {
                which,
                keys,
                codes,
                texts,
                ..
            } = self;
            // One loop per kind of table (the kind chosen once a row), the keys written
            // by `extend` (room made once, not tested per key).
            match (*which, codes) {
                (MoveList::Uci(castling), CodeTable::Direct(table)) => {
                    let which = MoveList::Uci(castling);
                    keys.extend(moves.iter().map(|m| {
                        let code = which.code(m) as usize;
                        match table.get(code) {
                            Some(&key) if key != NO_KEY => u32::from(key),
                            _ => {
                                let key = texts.add(which, m);
                                if let Some(slot) = table.get_mut(code) {
                                    *slot = u16::try_from(key).unwrap_or(NO_KEY);
                                }
                                key
                            }
                        }
                    }))
                }
                (which, CodeTable::Direct(_)) => {
                    // Never made so (UCI lists only have direct tables): a text per move.
                    keys.extend(moves.iter().map(|m| texts.add(which, m)))
                }
                (
                    which,
                    CodeTable::Hashed {
                        simple,
                        slots,
                        shift,
                        hashed,
                    },
                ) => keys.extend(moves.iter().map(|m| {
                    let at = simple_san(&m.san);
                    match at.and_then(|i| simple.get(i)) {
                        Some(&key) if key != NO_KEY => return u32::from(key),
                        _ => {}
                    }
                    let code = MoveList::San.code(m);
                    if let Some(key) = CodeTable::find(slots, *shift, code) {
                        return key;
                    }
                    let key = texts.add(which, m);
                    let short = u16::try_from(key).ok().filter(|&k| k != NO_KEY);
                    match (at.and_then(|i| simple.get_mut(i)), short) {
                        (Some(slot), Some(short)) => *slot = short,
                        _ => {
                            *hashed += 1;
                            CodeTable::insert(slots, shift, code, key, *hashed);
                        }
                    }
                    key
                })),
            }
        }
        let end = i32::try_from(self.keys.len()).unwrap_or_else(|_| {
            self.overflow = true;
            0
        });
        self.lists.push(end);
        self.valid.append(moves.is_some());
    }

    /// The list array of the rows so far, its items dictionary-encoded (the buffers and the
    /// dictionary start again empty).
    fn finish(&mut self) -> Result<ArrayRef, ArrowError> {
        let mut done = std::mem::replace(self, MoveKeys::with_room(self.which, Room::default()));
        if done.overflow || done.texts.overflow {
            return Err(ArrowError::OffsetOverflowError(done.keys.len()));
        }
        let texts = StringArray::try_new(
            OffsetBuffer::new(ScalarBuffer::from(done.texts.ends)),
            Buffer::from_vec(done.texts.bytes),
            None,
        )?;
        let keys = UInt32Array::new(ScalarBuffer::from(done.keys), None);
        let items = DictionaryArray::<UInt32Type>::try_new(keys, Arc::new(texts))?;
        let item = Arc::new(ArrowField::new("item", items.data_type().clone(), true));
        let lists = ListArray::try_new(
            item,
            OffsetBuffer::new(ScalarBuffer::from(done.lists)),
            Arc::new(items),
            Some(NullBuffer::new(done.valid.finish())),
        )?;
        Ok(Arc::new(lists))
    }
}

/// A list-of-numbers column over moves (clocks, evaluations, move times, depths) written
/// straight into the buffers of its Arrow arrays, as [`MoveTexts`] does for texts: no
/// builder call per move.
struct MoveNumbers<T: ArrowPrimitiveType> {
    /// Every move's value (the type's default where the move has none).
    values: Vec<T::Native>,
    /// Whether each move has a value.
    present: NullBufferBuilder,
    /// Where each row's list ends in `values`, after a leading 0.
    lists: Vec<i32>,
    /// Whether each row has a list (null otherwise).
    valid: NullBufferBuilder,
    /// Whether an offset went past `i32::MAX` (the arrays are refused then).
    overflow: bool,
}

impl<T: ArrowPrimitiveType> MoveNumbers<T> {
    /// Empty, with room for `room` (rows and items).
    fn with_room(room: Room) -> MoveNumbers<T> {
        let mut lists = Vec::with_capacity(room.rows.saturating_add(1));
        lists.push(0);
        MoveNumbers {
            values: Vec::with_capacity(room.items),
            present: NullBufferBuilder::new(room.items.max(1024)),
            lists,
            valid: NullBufferBuilder::new(room.rows.max(1024)),
            overflow: false,
        }
    }

    /// What the rows so far hold.
    fn room(&self) -> Room {
        Room {
            rows: self.lists.len() - 1,
            items: self.values.len(),
            bytes: 0,
        }
    }

    /// Appends a row: the value `number` gives each of `moves`, or null.
    fn push(
        &mut self,
        moves: Option<&[MoveRecord]>,
        number: impl Fn(&MoveRecord) -> Option<T::Native>,
    ) {
        if let Some(moves) = moves {
            // Values first, in one pass; the validity bits one by one only for a list
            // with gaps (a clock list seldom has any).
            let mut gaps = false;
            self.values.extend(moves.iter().map(|m| {
                let value = number(m);
                gaps |= value.is_none();
                value.unwrap_or_default()
            }));
            if gaps {
                moves
                    .iter()
                    .for_each(|m| self.present.append(number(m).is_some()));
            } else {
                self.present.append_n_non_nulls(moves.len());
            }
        }
        let end = i32::try_from(self.values.len()).unwrap_or_else(|_| {
            self.overflow = true;
            0
        });
        self.lists.push(end);
        self.valid.append(moves.is_some());
    }

    /// The list array of the rows so far (the buffers start again empty).
    fn finish(&mut self) -> Result<ArrayRef, ArrowError> {
        let mut done = std::mem::replace(self, MoveNumbers::with_room(Room::default()));
        if done.overflow {
            return Err(ArrowError::OffsetOverflowError(done.values.len()));
        }
        let items =
            PrimitiveArray::<T>::try_new(ScalarBuffer::from(done.values), done.present.finish())?;
        let item = Arc::new(ArrowField::new("item", T::DATA_TYPE, true));
        let lists = ListArray::try_new(
            item,
            OffsetBuffer::new(ScalarBuffer::from(done.lists)),
            Arc::new(items),
            done.valid.finish(),
        )?;
        Ok(Arc::new(lists))
    }
}

/// How much a column holds: rows, list items (or a text list's texts) and bytes of text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Room {
    rows: usize,
    items: usize,
    bytes: usize,
}

impl Room {
    /// This much and an eighth more (chunks differ a little).
    fn spare(self) -> Room {
        let more = |n: usize| n.saturating_add(n / 8);
        Room {
            rows: more(self.rows),
            items: more(self.items),
            bytes: more(self.bytes),
        }
    }
}

/// A column being built.
enum Builder {
    Text(StringBuilder),
    TagText(TagTexts),
    Int32(Int32Builder),
    Int64(Int64Builder),
    Float(Float64Builder),
    Bool(BooleanBuilder),
    TextList(MoveTexts),
    KeyedList(MoveKeys),
    FloatList(MoveNumbers<Float64Type>),
    Int32List(MoveNumbers<Int32Type>),
}

impl Builder {
    /// An empty builder of `kind` with room for `room`.
    fn new(kind: Kind, room: Room) -> Builder {
        let rows = room.rows;
        match kind {
            Kind::Text => Builder::Text(StringBuilder::with_capacity(rows, room.bytes)),
            Kind::Int32 => Builder::Int32(Int32Builder::with_capacity(rows)),
            Kind::Int64 => Builder::Int64(Int64Builder::with_capacity(rows)),
            Kind::Float => Builder::Float(Float64Builder::with_capacity(rows)),
            Kind::Bool => Builder::Bool(BooleanBuilder::with_capacity(rows)),
            Kind::TextList => Builder::TextList(MoveTexts::with_room(room)),
            Kind::FloatList => Builder::FloatList(MoveNumbers::with_room(room)),
            Kind::Int32List => Builder::Int32List(MoveNumbers::with_room(room)),
        }
    }

    /// The builder of a column, with room for `room`; with `keyed`, a move text list as
    /// dictionary keys ([`MoveKeys`]).
    fn of(field: &Field, keyed: bool, room: Room) -> Builder {
        match field {
            Field::MovesSan if keyed => {
                Builder::KeyedList(MoveKeys::with_room(MoveList::San, room))
            }
            Field::MovesUci(castling) if keyed => {
                Builder::KeyedList(MoveKeys::with_room(MoveList::Uci(*castling), room))
            }
            Field::Tag(_) if keyed => Builder::TagText(TagTexts::with_room(room)),
            _ => Builder::new(field.kind(), room),
        }
    }

    /// What the rows so far hold.
    fn room(&self) -> Room {
        let rows = |rows| Room {
            rows,
            ..Room::default()
        };
        match self {
            Builder::Text(b) => Room {
                rows: b.len(),
                items: 0,
                bytes: b.values_slice().len(),
            },
            Builder::TagText(b) => b.room(),
            Builder::Int32(b) => rows(b.len()),
            Builder::Int64(b) => rows(b.len()),
            Builder::Float(b) => rows(b.len()),
            Builder::Bool(b) => rows(b.len()),
            Builder::TextList(b) => b.room(),
            Builder::KeyedList(b) => b.room(),
            Builder::FloatList(b) => b.room(),
            Builder::Int32List(b) => b.room(),
        }
    }

    /// Appends a value (a value of another kind than the column's is null: never happens,
    /// the kinds come from the same field).
    fn push(&mut self, v: Value<'_>) {
        match (self, v) {
            (Builder::Text(b), Value::Text(t)) => b.append_value(t),
            (Builder::Text(b), Value::Move(m, which)) => b.append_value(&*which.text(m)),
            (Builder::Text(b), _) => b.append_null(),
            (Builder::TagText(b), Value::Text(t)) => b.push(Some(t.as_bytes())),
            (Builder::TagText(b), _) => b.push(None),
            (Builder::Int32(b), Value::Int(n)) => b.append_option(i32::try_from(n).ok()),
            (Builder::Int32(b), _) => b.append_null(),
            (Builder::Int64(b), Value::Int(n)) => b.append_value(n),
            (Builder::Int64(b), _) => b.append_null(),
            (Builder::Float(b), Value::Float(f)) => b.append_value(f),
            (Builder::Float(b), _) => b.append_null(),
            (Builder::Bool(b), Value::Bool(x)) => b.append_value(x),
            (Builder::Bool(b), _) => b.append_null(),
            (Builder::TextList(b), Value::Moves(moves, which)) => b.push(Some((moves, which))),
            (Builder::TextList(b), _) => b.push(None),
            (Builder::KeyedList(b), Value::Moves(moves, which)) if which == b.which => {
                b.push(Some(moves))
            }
            (Builder::KeyedList(b), _) => b.push(None),
            (Builder::FloatList(b), Value::Moves(moves, which)) => {
                b.push(Some(moves), |m| which.float(m))
            }
            (Builder::FloatList(b), _) => b.push(None, |_| None),
            (Builder::Int32List(b), Value::Moves(moves, which)) => {
                b.push(Some(moves), |m| which.int(m))
            }
            (Builder::Int32List(b), _) => b.push(None, |_| None),
        }
    }

    fn finish(&mut self) -> Result<ArrayRef, ArrowError> {
        Ok(match self {
            Builder::Text(b) => Arc::new(b.finish()),
            Builder::TagText(b) => Arc::new(b.finish()?),
            Builder::Int32(b) => Arc::new(b.finish()),
            Builder::Int64(b) => Arc::new(b.finish()),
            Builder::Float(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::TextList(b) => b.finish()?,
            Builder::KeyedList(b) => b.finish()?,
            Builder::FloatList(b) => b.finish()?,
            Builder::Int32List(b) => b.finish()?,
        })
    }
}

/// A tag column's texts as bytes: a plain value ([`plain_tag`]) copied as it is, any
/// other as [`pgn_parse::Tag::value_str`] makes it; the UTF-8 of the whole column checked
/// once when the array is made (by `StringArray::try_new`), not value by value. The null
/// rows kept as a list (most columns have none), the validity made from it at the end.
struct TagTexts {
    offsets: Vec<i32>,
    values: Vec<u8>,
    /// The rows without the tag.
    nulls: Vec<usize>,
}

impl TagTexts {
    fn with_room(room: Room) -> TagTexts {
        let mut offsets = Vec::with_capacity(room.rows + 1);
        offsets.push(0);
        TagTexts {
            offsets,
            values: Vec::with_capacity(room.bytes),
            nulls: Vec::new(),
        }
    }

    fn room(&self) -> Room {
        Room {
            rows: self.offsets.len() - 1,
            items: 0,
            bytes: self.values.len(),
        }
    }

    /// Appends a tag's value, or null for a tag the game lacks.
    #[inline]
    fn push_tag(&mut self, tag: Option<&pgn_parse::Tag<'_>>) {
        match tag {
            Some(tag) => match plain_tag(tag) {
                Some(raw) => self.push(Some(raw)),
                None => self.push(Some(tag.value_str().as_bytes())),
            },
            None => self.push(None),
        }
    }

    /// Appends a text's bytes, or null. An offset past `i32` is left at `i32::MAX`, which
    /// [`TagTexts::finish`] refuses.
    #[inline]
    fn push(&mut self, text: Option<&[u8]>) {
        match text {
            Some(bytes) => self.values.extend_from_slice(bytes),
            None => self.nulls.push(self.offsets.len() - 1),
        }
        self.offsets
            .push(i32::try_from(self.values.len()).unwrap_or(i32::MAX));
    }

    /// The array (the builder starts again empty). The offsets only grow, so
    /// `OffsetBuffer::new` takes them; `try_new` checks the last against the bytes and the
    /// bytes' UTF-8.
    fn finish(&mut self) -> Result<StringArray, ArrowError> {
        let done = std::mem::replace(self, TagTexts::with_room(Room::default()));
        let rows = done.offsets.len() - 1;
        let nulls = (!done.nulls.is_empty()).then(|| {
            let mut valid = BooleanBufferBuilder::new(rows);
            valid.append_n(rows, true);
            for &row in &done.nulls {
                valid.set_bit(row, false);
            }
            NullBuffer::new(valid.finish())
        });
        StringArray::try_new(
            OffsetBuffer::new(ScalarBuffer::from(done.offsets)),
            Buffer::from_vec(done.values),
            nulls,
        )
    }
}

/// Rows being built into Arrow arrays, column by column.
pub struct ArrowRows {
    builders: Vec<Builder>,
    rows: usize,
}

impl ArrowRows {
    /// Empty columns for `columns`.
    pub fn new(columns: &[Column]) -> ArrowRows {
        ArrowRows::with(columns, false)
    }

    /// Empty columns for `columns`, the move text lists (`moves_san`, `moves_uci`) kept as
    /// dictionary keys: their arrays are lists of dictionary-encoded texts (`u32` keys),
    /// not of the schema's [`schema`] type, for `export`'s Parquet encoder (which writes
    /// the keys as they are, or the texts when it leaves a chunk to the crate).
    pub fn keyed(columns: &[Column]) -> ArrowRows {
        ArrowRows::with(columns, true)
    }

    /// As [`ArrowRows::keyed`], each column with room for what `rooms` says (as
    /// [`ArrowRows::rooms`] gave them for the last chunk: a column's buffers made once at
    /// about their final size, not grown by copying; missing rooms are empty).
    pub fn keyed_with_room(columns: &[Column], rooms: &[Room]) -> ArrowRows {
        ArrowRows::with_room(columns, true, rooms)
    }

    fn with(columns: &[Column], keyed: bool) -> ArrowRows {
        ArrowRows::with_room(columns, keyed, &[])
    }

    fn with_room(columns: &[Column], keyed: bool, rooms: &[Room]) -> ArrowRows {
        let room = |i| rooms.get(i).copied().unwrap_or_default();
        ArrowRows {
            builders: columns
                .iter()
                .enumerate()
                .map(|(i, c)| Builder::of(&c.field, keyed, room(i)))
                .collect(),
            rows: 0,
        }
    }

    /// What each column holds so far, with an eighth more to spare: the room to make the
    /// next chunk's columns with ([`ArrowRows::keyed_with_room`]).
    pub fn rooms(&self) -> Vec<Room> {
        self.builders.iter().map(|b| b.room().spare()).collect()
    }

    /// Appends one row.
    pub fn push(&mut self, columns: &[Column], game: &GameView<'_>, ply: Option<&PlyView<'_>>) {
        for (builder, c) in self.builders.iter_mut().zip(columns) {
            match (builder, &c.field) {
                (Builder::TagText(b), Field::Tag(name)) => b.push_tag(find_tag(game.tags, name)),
                (builder, field) => builder.push(value(field, game, ply)),
            }
        }
        self.rows += 1;
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The arrays, one per column (the builders start again empty).
    pub fn finish_arrays(&mut self) -> Result<Vec<ArrayRef>, ArrowError> {
        self.rows = 0;
        self.builders.iter_mut().map(Builder::finish).collect()
    }

    /// The rows as a record batch of `schema` (the [`schema`] of the same columns; rows
    /// made by [`ArrowRows::new`]).
    pub fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(Arc::clone(schema), self.finish_arrays()?)
    }
}

/// Validates every game of a chunk into a record batch of the table `spec` describes
/// (see [`table_rows`]), with the counts.
pub fn chunk_batch(
    bytes: &[u8],
    origin: Origin,
    info: &ChunkInfo,
    source: &str,
    spec: &TableSpec,
    schema: &SchemaRef,
) -> (Result<RecordBatch, ArrowError>, ExportCounts) {
    let mut rows = ArrowRows::new(&spec.columns);
    let counts = table_rows(bytes, origin, info, source, spec, |game, ply| {
        rows.push(&spec.columns, game, ply)
    });
    (rows.finish(schema), counts)
}

#[cfg(test)]
mod tests {
    use super::super::columns::UciCastling;
    use super::super::Grain;
    use super::*;
    use crate::test_rng::Rng;
    use crate::validate::Verdict;
    use pgn_parse::Tag;

    #[test]
    fn batch_has_the_schema_and_a_row_per_game() {
        let pgn = b"[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 e5 *\n\n[Variant \"Chess960\"]\n\n1. Zz9 *\n\n";
        let info = ChunkInfo {
            offset: 0,
            len: pgn.len(),
            source_bytes: 0,
            first_line: 1,
            first_game: 0,
            rows: false,
            lines: None,
        };
        let spec = TableSpec::new(Grain::Game, &[], false, &[], true).unwrap();
        let schema = schema(&spec.columns);
        let (batch, counts) = chunk_batch(pgn, Origin::default(), &info, "t", &spec, &schema);
        let batch = batch.unwrap();
        assert_eq!(batch.schema(), schema);
        assert_eq!(batch.num_rows() as u64, counts.rows);
        assert_eq!(counts.rows, 2);
        let sp = batch.column_by_name("sp").unwrap();
        assert_eq!(sp.null_count(), 1);
    }

    /// A random game's moves from a random Chess960 start, castling, promotions (with the
    /// rook and bishop too) and checks chosen often when there are some.
    fn playout(rng: &mut Rng) -> Vec<MoveRecord> {
        use chess960_core::{Move, Position, Role};
        let mut pos = Position::from_sp(rng.index(960) as u16).unwrap();
        let mut moves = Vec::new();
        for _ in 0..rng.index(300) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let pick = |f: &dyn Fn(&Move) -> bool| legal.iter().copied().filter(|m| f(m)).collect();
            let special: Vec<Move> = pick(&|m| {
                matches!(m, Move::Castle { .. } | Move::EnPassant { .. })
                    || m.promotion().is_some()
                    || pos.played_unchecked(*m).is_check()
            });
            let pawns: Vec<Move> = pick(&|m| {
                matches!(
                    m,
                    Move::Normal {
                        role: Role::Pawn,
                        ..
                    }
                )
            });
            let from = match rng.index(4) {
                0 if !special.is_empty() => &special[..],
                1 if !pawns.is_empty() => &pawns[..],
                _ => &legal[..],
            };
            let m = from[rng.index(from.len())];
            moves.push(MoveRecord {
                chess_move: m,
                san: pos.san_plus(m),
                annotations: Default::default(),
            });
            pos.play(m).unwrap();
        }
        moves
    }

    /// Each row's list of texts of a text list or a keyed list (the key's text looked up).
    fn texts(array: &ArrayRef) -> Vec<Option<Vec<String>>> {
        use arrow_array::cast::AsArray;
        let lists = array.as_list::<i32>();
        let text = |items: ArrayRef, i: usize| match items.as_dictionary_opt::<UInt32Type>() {
            Some(keyed) => {
                let key = keyed.keys().value(i) as usize;
                keyed.values().as_string::<i32>().value(key).to_string()
            }
            None => items.as_string::<i32>().value(i).to_string(),
        };
        (0..lists.len())
            .map(|row| {
                lists.is_valid(row).then(|| {
                    let items = lists.value(row);
                    (0..items.len()).map(|i| text(items.clone(), i)).collect()
                })
            })
            .collect()
    }

    #[test]
    fn simple_san_places_are_distinct_and_in_the_table() {
        use chess960_core::{File, Rank, Square};
        // Every piece or pawn SAN with or without origin file, rank, capture, promotion, on
        // every target, with every suffix: the common ones each at a place of their own.
        let mut seen = vec![false; SIMPLE_SANS];
        let mut common = 0;
        let roles = Role::ALL;
        let files = std::iter::once(None).chain((0..8).map(File::new));
        let suffixes = [None, Some(SanSuffix::Check), Some(SanSuffix::Checkmate)];
        for (role, file) in roles
            .iter()
            .flat_map(|&r| files.clone().map(move |f| (r, f)))
        {
            for (to, capture, rank, promotion) in (0..64u8).flat_map(|to| {
                [false, true].into_iter().flat_map(move |capture| {
                    [
                        (None, None),
                        (Rank::new(0), None),
                        (None, Some(Role::Queen)),
                    ]
                    .map(|(rank, promotion)| (to, capture, rank, promotion))
                })
            }) {
                for suffix in suffixes {
                    let san = SanPlus {
                        san: San::Normal {
                            role,
                            file,
                            rank,
                            capture,
                            to: Square::new(to).unwrap(),
                            promotion,
                        },
                        suffix,
                    };
                    if let Some(at) = simple_san(&san) {
                        assert!(at < SIMPLE_SANS, "{san}");
                        assert!(!std::mem::replace(&mut seen[at], true), "{san} at {at}");
                        common += 1;
                    }
                }
            }
        }
        // Three suffixes, 64 targets: five pieces with or without capture, a pawn's push,
        // capture without origin, and capture from either side (none from beyond an edge).
        assert_eq!(common, 3 * (64 * 14 - 16));
        // Castling and null moves are not common; the moves of random playouts are
        // exactly when they are quiet or capturing moves of a piece without origin, or
        // pawn moves without promotion.
        assert_eq!(
            simple_san(&SanPlus {
                san: San::Null,
                suffix: None
            }),
            None
        );
        let mut rng = Rng(0x0960_c0de_5eed_0002);
        for m in (0..50).flat_map(|_| playout(&mut rng)) {
            let common = match m.san.san {
                San::Normal {
                    role,
                    file,
                    rank: None,
                    promotion: None,
                    ..
                } => role == Role::Pawn || file.is_none(),
                _ => false,
            };
            assert_eq!(simple_san(&m.san).is_some(), common, "{}", m.san);
        }
    }

    #[test]
    fn keyed_move_lists_hold_the_texts_of_the_text_lists() {
        let mut rng = Rng(0x0960_c0de_5eed_0001);
        let games: Vec<Vec<MoveRecord>> = (0..400).map(|_| playout(&mut rng)).collect();
        let (mut castles, mut promotions, mut mates) = (0, 0, 0);
        for m in games.iter().flatten() {
            castles += usize::from(matches!(m.chess_move, chess960_core::Move::Castle { .. }));
            promotions += usize::from(m.chess_move.promotion().is_some());
            mates += usize::from(m.san.to_ascii().as_bytes().ends_with(b"#"));
        }
        assert!(
            castles > 50 && promotions > 50 && mates > 5,
            "{castles} {promotions} {mates}"
        );
        let fields = [
            Field::MovesSan,
            Field::MovesUci(UciCastling::KingTakesRook),
            Field::MovesUci(UciCastling::KingTwoSquares),
        ];
        for field in fields {
            let which = match field {
                Field::MovesUci(c) => MoveList::Uci(c),
                _ => MoveList::San,
            };
            let none = Room::default();
            let (mut plain, mut keyed) = (
                Builder::of(&field, false, none),
                Builder::of(&field, true, none),
            );
            assert!(matches!(keyed, Builder::KeyedList(_)));
            // Three batches (the dictionary starts again), null and empty rows among them.
            for batch in games.chunks(150) {
                for (i, moves) in batch.iter().enumerate() {
                    let value = match i % 7 {
                        0 => Value::Null,
                        1 => Value::Moves(&moves[..0], which),
                        _ => Value::Moves(moves, which),
                    };
                    plain.push(value.clone());
                    keyed.push(value);
                }
                let (plain, keyed) = (plain.finish().unwrap(), keyed.finish().unwrap());
                assert_eq!(plain.data_type(), &data_type(Kind::TextList));
                assert_eq!(texts(&plain), texts(&keyed), "{field:?}");
                // One dictionary entry per text: a code stands for exactly one text.
                let items = keyed.as_any().downcast_ref::<ListArray>().unwrap().values();
                let dictionary = items
                    .as_any()
                    .downcast_ref::<DictionaryArray<UInt32Type>>()
                    .unwrap()
                    .values()
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .unwrap();
                let mut seen: Vec<&str> = dictionary.iter().flatten().collect();
                let n = seen.len();
                assert!(n > 100, "{field:?}: {n} texts");
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), n, "{field:?}: a text twice in the dictionary");
            }
        }
    }

    #[test]
    fn builders_made_with_room_build_the_arrays_of_empty_ones() {
        // Each kind of column, batch after batch, built from empty and with the room the
        // last batch took (as `ParquetRows` makes them), a tenth of it and ten times it.
        let mut rng = Rng(0x0960_7007_5eed_0002);
        let games: Vec<Vec<MoveRecord>> = (0..300).map(|_| playout(&mut rng)).collect();
        let fields = [
            (Field::MovesSan, MoveList::San),
            (
                Field::MovesUci(UciCastling::KingTakesRook),
                MoveList::Uci(UciCastling::KingTakesRook),
            ),
        ];
        let kinds = [
            Kind::Text,
            Kind::Int32,
            Kind::Int64,
            Kind::Float,
            Kind::Bool,
        ];
        let lists = [
            (Kind::TextList, MoveList::San),
            (Kind::FloatList, MoveList::Clocks),
            (Kind::Int32List, MoveList::Depths),
        ];
        fn value(kind: Kind, which: MoveList, i: usize, moves: &[MoveRecord]) -> Value<'_> {
            const NAMES: [&str; 5] = ["", "a", "Carlsen, Magnus", "1-0", "Festival 2025"];
            match (kind, i % 5) {
                (_, 0) => Value::Null,
                (Kind::Text, _) => Value::Text(NAMES[i % NAMES.len()].into()),
                (Kind::Int32 | Kind::Int64, _) => Value::Int(i as i64 * 7919 - 40_000),
                (Kind::Float, _) => Value::Float(i as f64 / 3.0),
                (Kind::Bool, _) => Value::Bool(i.is_multiple_of(3)),
                (_, 1) => Value::Moves(&moves[..0], which),
                _ => Value::Moves(moves, which),
            }
        }
        let make = |kind: Kind, field: Option<&Field>, room: Room| match field {
            Some(field) => Builder::of(field, true, room),
            None => Builder::new(kind, room),
        };
        let columns = fields.iter().map(|(f, w)| (Kind::TextList, Some(f), *w));
        let columns = columns
            .chain(kinds.iter().map(|&k| (k, None, MoveList::San)))
            .chain(lists.iter().map(|&(k, w)| (k, None, w)));
        for (kind, field, which) in columns {
            let mut room = Room::default();
            for batch in games.chunks(100) {
                let rooms = [Room::default(), room, room.tenth(), room.times_ten()];
                let mut builders: Vec<Builder> =
                    rooms.iter().map(|&r| make(kind, field, r)).collect();
                for (i, moves) in batch.iter().enumerate() {
                    builders
                        .iter_mut()
                        .for_each(|b| b.push(value(kind, which, i, moves)));
                }
                room = builders[0].room().spare();
                let arrays: Vec<ArrayRef> =
                    builders.iter_mut().map(|b| b.finish().unwrap()).collect();
                for a in &arrays[1..] {
                    assert_eq!(a.to_data(), arrays[0].to_data(), "{kind:?} {field:?}");
                }
            }
            assert!(room.rows > 100, "{kind:?}: {room:?}");
        }
    }

    #[test]
    fn keyed_tag_columns_are_the_text_columns() {
        // Games with random tags (values escaped, Latin-1, UTF-8, numbers; names missing,
        // repeated, unknown): every column but the move lists the same array from the
        // keyed rows (tags as bytes, `TagTexts`) as from the plain ones, batch after batch.
        use super::super::columns::{game_columns, tests::random_raw};
        let mut rng = Rng(0x7a95_0960_1e7e_0004);
        let extra = ["ECO".to_string(), "Opening".to_string()];
        let columns = game_columns(&extra, false);
        let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
        let verdict = Verdict::Unsupported("crazyhouse".into());
        let (mut plain, mut keyed) = (ArrowRows::new(&columns), ArrowRows::keyed(&columns));
        let mut tagged = 0;
        for _ in 0..3 {
            let games: Vec<Vec<(Vec<u8>, Vec<u8>)>> = (0..400)
                .map(|_| {
                    (0..rng.index(24))
                        .map(|_| {
                            let name = match rng.index(10) {
                                0 => b"Unknown".to_vec(),
                                _ => names[rng.index(names.len())].as_bytes().to_vec(),
                            };
                            (name, random_raw(&mut rng))
                        })
                        .collect()
                })
                .collect();
            for game in &games {
                let tags: Vec<Tag> = game
                    .iter()
                    .map(|(name, raw)| Tag {
                        name,
                        raw_value: raw,
                        offset: 0,
                    })
                    .collect();
                tagged += tags.len();
                let view = GameView {
                    tags: &tags,
                    verdict: &verdict,
                    source: "t.pgn",
                    offset: 7,
                    location: None,
                    text: b"",
                    start: 0,
                    annotated: Default::default(),
                };
                plain.push(&columns, &view, None);
                keyed.push(&columns, &view, None);
            }
            let (a, b) = (
                plain.finish_arrays().unwrap(),
                keyed.finish_arrays().unwrap(),
            );
            for ((a, b), c) in a.iter().zip(&b).zip(&columns) {
                if !matches!(c.field, Field::MovesSan | Field::MovesUci(_)) {
                    assert_eq!(a.to_data(), b.to_data(), "{}", c.name);
                }
            }
        }
        assert!(tagged > 10_000, "{tagged}");
    }

    impl Room {
        fn tenth(self) -> Room {
            Room {
                rows: self.rows / 10,
                items: self.items / 10,
                bytes: self.bytes / 10,
            }
        }

        fn times_ten(self) -> Room {
            Room {
                rows: self.rows * 10,
                items: self.items * 10,
                bytes: self.bytes * 10,
            }
        }
    }

    #[test]
    fn number_lists_keep_gaps_and_null_rows() {
        // Clocks on every move; an evaluation on the first move only; a game without
        // annotations (null lists); an invalid game (null lists).
        let pgn = b"[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 { [%eval 0.25] [%clk 0:01:00] } 1... e5 { [%clk 0:00:59] } *\n\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. d4 d5 *\n\n[Variant \"Chess960\"]\n\n1. Zz9 *\n\n";
        let info = ChunkInfo {
            offset: 0,
            len: pgn.len(),
            source_bytes: 0,
            first_line: 1,
            first_game: 0,
            rows: false,
            lines: None,
        };
        let names = ["clocks", "evals"].map(String::from);
        let spec = TableSpec::new(Grain::Game, &[], false, &names, true).unwrap();
        let schema = schema(&spec.columns);
        let (batch, _) = chunk_batch(pgn, Origin::default(), &info, "t", &spec, &schema);
        let batch = batch.unwrap();
        let list = |name: &str| -> Vec<Option<Vec<Option<f64>>>> {
            let lists = batch
                .column_by_name(name)
                .unwrap()
                .as_any()
                .downcast_ref::<ListArray>()
                .unwrap();
            (0..lists.len())
                .map(|row| {
                    lists.is_valid(row).then(|| {
                        let items = lists.value(row);
                        let items = items
                            .as_any()
                            .downcast_ref::<arrow_array::Float64Array>()
                            .unwrap();
                        items.iter().collect()
                    })
                })
                .collect()
        };
        assert_eq!(
            list("clocks"),
            vec![Some(vec![Some(60.0), Some(59.0)]), None, None]
        );
        assert_eq!(
            list("evals"),
            vec![Some(vec![Some(0.25), None]), None, None]
        );
    }
}
