//! The table as Arrow: the schema of a [`TableSpec`](super::TableSpec) (every column
//! nullable, lists of nullable items) and the rows of a chunk built into a record batch.
//! `pgn960 export` encodes these arrays into Parquet; the Python package hands them to
//! pyarrow.

use super::columns::{value, Column, GameView, Kind, MoveList, PlyView, Value};
use super::{table_rows, ExportCounts, TableSpec};
use crate::pipeline::ChunkInfo;
use crate::validate::MoveRecord;
use arrow_array::builder::{
    BooleanBufferBuilder, BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::types::{ArrowPrimitiveType, Float64Type, Int32Type};
use arrow_array::{ArrayRef, ListArray, PrimitiveArray, RecordBatch, StringArray};
use arrow_buffer::{Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field as ArrowField, Schema, SchemaRef};
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
        MoveTexts {
            bytes: Vec::new(),
            ends: vec![0],
            lists: vec![0],
            valid: BooleanBufferBuilder::new(1024),
            overflow: false,
        }
    }

    /// An offset as Arrow holds it.
    fn offset(&mut self, n: usize) -> i32 {
        i32::try_from(n).unwrap_or_else(|_| {
            self.overflow = true;
            0
        })
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
    fn new() -> MoveNumbers<T> {
        MoveNumbers {
            values: Vec::new(),
            present: NullBufferBuilder::new(1024),
            lists: vec![0],
            valid: NullBufferBuilder::new(1024),
            overflow: false,
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
        let mut done = std::mem::replace(self, MoveNumbers::new());
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

/// A column being built.
enum Builder {
    Text(StringBuilder),
    Int32(Int32Builder),
    Int64(Int64Builder),
    Float(Float64Builder),
    Bool(BooleanBuilder),
    TextList(MoveTexts),
    FloatList(MoveNumbers<Float64Type>),
    Int32List(MoveNumbers<Int32Type>),
}

impl Builder {
    fn new(kind: Kind) -> Builder {
        match kind {
            Kind::Text => Builder::Text(StringBuilder::new()),
            Kind::Int32 => Builder::Int32(Int32Builder::new()),
            Kind::Int64 => Builder::Int64(Int64Builder::new()),
            Kind::Float => Builder::Float(Float64Builder::new()),
            Kind::Bool => Builder::Bool(BooleanBuilder::new()),
            Kind::TextList => Builder::TextList(MoveTexts::new()),
            Kind::FloatList => Builder::FloatList(MoveNumbers::new()),
            Kind::Int32List => Builder::Int32List(MoveNumbers::new()),
        }
    }

    /// Appends a value (a value of another kind than the column's is null: never happens,
    /// the kinds come from the same field).
    fn push(&mut self, v: Value<'_>) {
        match (self, v) {
            (Builder::Text(b), Value::Text(t)) => b.append_value(t),
            (Builder::Text(b), Value::Move(m, which)) => b.append_value(&*which.text(m)),
            (Builder::Text(b), _) => b.append_null(),
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
            Builder::Int32(b) => Arc::new(b.finish()),
            Builder::Int64(b) => Arc::new(b.finish()),
            Builder::Float(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::TextList(b) => b.finish()?,
            Builder::FloatList(b) => b.finish()?,
            Builder::Int32List(b) => b.finish()?,
        })
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
        ArrowRows {
            builders: columns
                .iter()
                .map(|c| Builder::new(c.field.kind()))
                .collect(),
            rows: 0,
        }
    }

    /// Appends one row.
    pub fn push(&mut self, columns: &[Column], game: &GameView<'_>, ply: Option<&PlyView<'_>>) {
        for (builder, c) in self.builders.iter_mut().zip(columns) {
            builder.push(value(&c.field, game, ply));
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

    /// The rows as a record batch of `schema` (the [`schema`] of the same columns).
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
    use super::super::Grain;
    use super::*;
    use arrow_array::Array;

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
