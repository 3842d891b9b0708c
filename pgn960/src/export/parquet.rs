//! Parquet output: each worker builds the Arrow arrays of its chunk (the library's
//! [`crate::table::arrow`]: one schema for `export` and Python) and encodes them into
//! column chunks (zstd); the sink, in input order, only appends them to the file as one
//! row group per chunk.

use super::columns::{Column, Field, GameView, Kind, PlyView};
use crate::output::{OutputError, Result};
use crate::table::arrow::{schema, ArrowRows};
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use std::io::Write;
use std::sync::Arc;

/// The rows of one chunk, column by column.
pub struct ParquetRows(ArrowRows);

impl ParquetRows {
    /// Empty columns for `columns`.
    pub fn new(columns: &[Column]) -> ParquetRows {
        ParquetRows(ArrowRows::new(columns))
    }

    /// Appends one row.
    pub fn push(&mut self, columns: &[Column], game: &GameView<'_>, ply: Option<&PlyView<'_>>) {
        self.0.push(columns, game, ply);
    }

    /// Encodes the columns (in the worker): the column chunks of one row group.
    pub fn encode(mut self, encoder: &Encoder) -> Result<Vec<ArrowColumnChunk>> {
        let mut writers = encoder.factory.create_column_writers(0).map_err(written)?;
        let mut writer = writers.iter_mut();
        let arrays = self.0.finish_arrays().map_err(|e| OutputError::Failed {
            message: format!("internal error: the Arrow arrays of a chunk: {e}"),
            cause: None,
        })?;
        for (array, field) in arrays.iter().zip(encoder.schema.fields()) {
            for leaf in compute_leaves(field, array).map_err(written)? {
                let Some(column) = writer.next() else {
                    return Err(OutputError::Failed {
                        message: "internal error: more Parquet leaves than column writers".into(),
                        cause: None,
                    });
                };
                column.write(&leaf).map_err(written)?;
            }
        }
        let chunks = writers
            .into_iter()
            .map(|w| w.close())
            .collect::<parquet::errors::Result<Vec<_>>>()
            .map_err(written)?;
        Ok(chunks)
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
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
/// chunk (truncated to 64 bytes; no page index, so the footer stays small; none for list
/// items), dictionaries where values repeat ([`column_settings`]), the Arrow schema embedded
/// (so readers get the list and integer types back).
pub fn create<W: Write + Send>(out: W, columns: &[Column]) -> Result<(ParquetFile<W>, Encoder)> {
    let schema = schema(columns);
    let level = ZstdLevel::try_new(1).map_err(written)?;
    let builder = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_statistics_truncate_length(Some(64));
    let mut props = column_settings(builder, columns).build();
    add_encoded_arrow_schema_to_metadata(&schema, &mut props);
    let props = Arc::new(props);
    let parquet_schema = ArrowSchemaConverter::new()
        .with_coerce_types(props.coerce_types())
        .convert(&schema)
        .map_err(written)?;
    let writer =
        SerializedFileWriter::new(out, parquet_schema.root_schema_ptr(), props).map_err(written)?;
    let factory = ArrowRowGroupWriterFactory::new(&writer, Arc::clone(&schema));
    Ok((ParquetFile { writer }, Encoder { schema, factory }))
}

/// Per-column settings, measured on a lichess-style file (issue 25): no statistics for the
/// items of list columns (min/max of every move and clock cost 7% of an export and tell a
/// reader nothing); no dictionary for columns whose values rarely repeat within a row
/// group (the site URL, players, time, FENs, movetext, offsets: a little smaller and
/// faster without). The move lists keep theirs: without it the file was 28% larger and,
/// zstd compressing the longer pages, no faster.
fn column_settings(
    mut props: WriterPropertiesBuilder,
    columns: &[Column],
) -> WriterPropertiesBuilder {
    for c in columns {
        let list = matches!(
            c.field.kind(),
            Kind::TextList | Kind::FloatList | Kind::Int32List
        );
        if list {
            let path = ColumnPath::new(vec![c.name.clone(), "list".into(), "item".into()]);
            props = props.set_column_statistics_enabled(path, EnabledStatistics::None);
        } else if rarely_repeats(&c.field) {
            props = props.set_column_dictionary_enabled(ColumnPath::from(c.name.as_str()), false);
        }
    }
    props
}

/// Whether a column's values are mostly distinct within a row group.
fn rarely_repeats(field: &Field) -> bool {
    match field {
        Field::Tag(name) => ["Site", "White", "Black", "UTCTime", "FEN"].contains(&name.as_str()),
        Field::StartXfen
        | Field::FinalXfen
        | Field::Xfen
        | Field::Movetext
        | Field::Offset
        | Field::Location => true,
        _ => false,
    }
}

impl<W: Write + Send> ParquetFile<W> {
    /// Appends a chunk's column chunks as one row group.
    pub fn append(&mut self, chunks: Vec<ArrowColumnChunk>) -> Result<()> {
        let mut group = self.writer.next_row_group().map_err(written)?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut group).map_err(written)?;
        }
        group.close().map_err(written)?;
        Ok(())
    }

    /// Writes the footer; returns the output.
    pub fn finish(self) -> Result<W> {
        self.writer.into_inner().map_err(written)
    }
}

/// A Parquet writer's error. An error of the output itself comes out as that error: the
/// crate wraps it as `External`, and its cause was printed twice (`External: No space left
/// on device: No space left on device`).
fn written(error: parquet::errors::ParquetError) -> OutputError {
    match error {
        parquet::errors::ParquetError::External(inner) => {
            match inner.downcast::<std::io::Error>() {
                Ok(io) => OutputError::Io(*io),
                Err(other) => OutputError::Failed {
                    message: other.to_string(),
                    cause: None,
                },
            }
        }
        other => OutputError::Failed {
            message: other.to_string(),
            cause: None,
        },
    }
}
