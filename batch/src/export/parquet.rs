//! Parquet output: each worker builds the Arrow arrays of its chunk and encodes them into
//! column chunks (zstd); the sink, in input order, only appends them to the file as one
//! row group per chunk.

use super::columns::{value, Column, GameView, Kind, PlyView, Value};
use anyhow::{Context, Result};
use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, ListBuilder, StringBuilder,
};
use arrow_array::ArrayRef;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use std::io::Write;
use std::sync::Arc;

/// The Arrow type of a column kind.
fn data_type(kind: Kind) -> DataType {
    let item = |t| DataType::List(Arc::new(Field::new("item", t, true)));
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

/// The Arrow schema of a table.
pub fn schema(columns: &[Column]) -> SchemaRef {
    Arc::new(Schema::new(
        columns
            .iter()
            .map(|c| Field::new(&c.name, data_type(c.field.kind()), true))
            .collect::<Vec<_>>(),
    ))
}

/// A column being built.
enum Builder {
    Text(StringBuilder),
    Int32(Int32Builder),
    Int64(Int64Builder),
    Float(Float64Builder),
    Bool(BooleanBuilder),
    TextList(ListBuilder<StringBuilder>),
    FloatList(ListBuilder<Float64Builder>),
    Int32List(ListBuilder<Int32Builder>),
}

impl Builder {
    fn new(kind: Kind) -> Builder {
        match kind {
            Kind::Text => Builder::Text(StringBuilder::new()),
            Kind::Int32 => Builder::Int32(Int32Builder::new()),
            Kind::Int64 => Builder::Int64(Int64Builder::new()),
            Kind::Float => Builder::Float(Float64Builder::new()),
            Kind::Bool => Builder::Bool(BooleanBuilder::new()),
            Kind::TextList => Builder::TextList(ListBuilder::new(StringBuilder::new())),
            Kind::FloatList => Builder::FloatList(ListBuilder::new(Float64Builder::new())),
            Kind::Int32List => Builder::Int32List(ListBuilder::new(Int32Builder::new())),
        }
    }

    /// Appends a value (a value of another kind than the column's is null: never happens,
    /// the kinds come from the same field).
    fn push(&mut self, v: Value<'_>) {
        match (self, v) {
            (Builder::Text(b), Value::Text(t)) => b.append_value(t),
            (Builder::Text(b), _) => b.append_null(),
            (Builder::Int32(b), Value::Int(n)) => b.append_option(i32::try_from(n).ok()),
            (Builder::Int32(b), _) => b.append_null(),
            (Builder::Int64(b), Value::Int(n)) => b.append_value(n),
            (Builder::Int64(b), _) => b.append_null(),
            (Builder::Float(b), Value::Float(f)) => b.append_value(f),
            (Builder::Float(b), _) => b.append_null(),
            (Builder::Bool(b), Value::Bool(x)) => b.append_value(x),
            (Builder::Bool(b), _) => b.append_null(),
            (Builder::TextList(b), Value::Moves(moves, which)) => {
                for m in moves {
                    b.values().append_value(&*which.text(m));
                }
                b.append(true);
            }
            (Builder::TextList(b), _) => b.append(false),
            (Builder::FloatList(b), Value::Moves(moves, which)) => {
                for m in moves {
                    b.values().append_option(which.float(m));
                }
                b.append(true);
            }
            (Builder::FloatList(b), _) => b.append(false),
            (Builder::Int32List(b), Value::Moves(moves, which)) => {
                for m in moves {
                    b.values().append_option(which.int(m));
                }
                b.append(true);
            }
            (Builder::Int32List(b), _) => b.append(false),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Text(b) => Arc::new(b.finish()),
            Builder::Int32(b) => Arc::new(b.finish()),
            Builder::Int64(b) => Arc::new(b.finish()),
            Builder::Float(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::TextList(b) => Arc::new(b.finish()),
            Builder::FloatList(b) => Arc::new(b.finish()),
            Builder::Int32List(b) => Arc::new(b.finish()),
        }
    }
}

/// The rows of one chunk, column by column.
pub struct ParquetRows {
    builders: Vec<Builder>,
    rows: usize,
}

impl ParquetRows {
    /// Empty columns for `columns`.
    pub fn new(columns: &[Column]) -> ParquetRows {
        ParquetRows {
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

    /// Encodes the columns (in the worker): the column chunks of one row group.
    pub fn encode(mut self, encoder: &Encoder) -> Result<Vec<ArrowColumnChunk>> {
        let mut writers = encoder.factory.create_column_writers(0)?;
        let mut writer = writers.iter_mut();
        for (builder, field) in self.builders.iter_mut().zip(encoder.schema.fields()) {
            let array = builder.finish();
            for leaf in compute_leaves(field, &array)? {
                writer
                    .next()
                    .context("internal error: more Parquet leaves than column writers")?
                    .write(&leaf)?;
            }
        }
        let chunks = writers
            .into_iter()
            .map(|w| w.close())
            .collect::<parquet::errors::Result<Vec<_>>>()?;
        Ok(chunks)
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }
}

/// What the workers share to encode column chunks for one file.
pub struct Encoder {
    schema: SchemaRef,
    factory: ArrowRowGroupWriterFactory,
}

/// The Parquet file being written (in the sink).
pub struct ParquetFile<W: Write + Send> {
    writer: SerializedFileWriter<W>,
}

/// Starts a Parquet file for `columns` on `out`: zstd-compressed, statistics per column
/// chunk (truncated to 64 bytes; no page index, so the footer stays small), the Arrow
/// schema embedded (so readers get the list and integer types back).
pub fn create<W: Write + Send>(out: W, columns: &[Column]) -> Result<(ParquetFile<W>, Encoder)> {
    let schema = schema(columns);
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_statistics_truncate_length(Some(64))
        .build();
    add_encoded_arrow_schema_to_metadata(&schema, &mut props);
    let props = Arc::new(props);
    let parquet_schema = ArrowSchemaConverter::new()
        .with_coerce_types(props.coerce_types())
        .convert(&schema)?;
    let writer = SerializedFileWriter::new(out, parquet_schema.root_schema_ptr(), props)?;
    let factory = ArrowRowGroupWriterFactory::new(&writer, Arc::clone(&schema));
    Ok((ParquetFile { writer }, Encoder { schema, factory }))
}

impl<W: Write + Send> ParquetFile<W> {
    /// Appends a chunk's column chunks as one row group.
    pub fn append(&mut self, chunks: Vec<ArrowColumnChunk>) -> Result<()> {
        let mut group = self.writer.next_row_group()?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut group)?;
        }
        group.close()?;
        Ok(())
    }

    /// Writes the footer; returns the output.
    pub fn finish(self) -> Result<W> {
        Ok(self.writer.into_inner()?)
    }
}
