//! Parquet output: each worker builds the Arrow arrays of its chunk (the library's
//! [`crate::table::arrow`]: one schema for `export` and Python) and encodes them into
//! column chunks (zstd); the sink, in input order, only appends them to the file as one
//! row group per chunk.

use super::columns::{Column, Field, GameView, Kind, PlyView};
use super::lists::{self, ListChunk};
use crate::output::{OutputError, Result};
use crate::table::arrow::{schema, ArrowRows, Room};
use arrow_array::builder::StringBuilder;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt32Type;
use arrow_array::{Array, ArrayRef, ListArray};
use arrow_schema::{ArrowError, DataType, FieldRef, Schema, SchemaRef};
use parquet::arrow::arrow_writer::{
    compute_leaves, ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory,
};
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnDescPtr, ColumnPath};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The rows of one chunk, column by column.
pub struct ParquetRows(ArrowRows);

impl ParquetRows {
    /// Empty columns for `columns`, each with room for what it held in the last chunk
    /// `encoder` encoded.
    pub fn new(columns: &[Column], encoder: &Encoder) -> ParquetRows {
        let rooms = encoder.rooms.lock().map(|r| r.clone()).unwrap_or_default();
        ParquetRows(ArrowRows::keyed_with_room(columns, &rooms))
    }

    /// Appends one row.
    pub fn push(&mut self, columns: &[Column], game: &GameView<'_>, ply: Option<&PlyView<'_>>) {
        self.0.push(columns, game, ply);
    }

    /// Encodes the columns (in the worker): the column chunks of one row group.
    pub fn encode(mut self, encoder: &Encoder) -> Result<Vec<Chunk>> {
        if let Ok(mut rooms) = encoder.rooms.lock() {
            *rooms = self.0.rooms();
        }
        let arrays = self.0.finish_arrays().map_err(|e| OutputError::Failed {
            message: format!("internal error: the Arrow arrays of a chunk: {e}"),
            cause: None,
        })?;
        encode_arrays(&arrays, encoder)
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

/// The column chunks of one row group from its arrays (one per field of the encoder's
/// schema): the list columns by our own encoder ([`super::lists`]) where it can, the rest
/// by the crate (column writers made only for those).
fn encode_arrays(arrays: &[ArrayRef], encoder: &Encoder) -> Result<Vec<Chunk>> {
    let mut writers = encoder.factory.create_column_writers(0).map_err(written)?;
    let mut writers = writers.drain(..);
    let mut chunks = Vec::with_capacity(arrays.len());
    let fields = encoder.schema.fields().iter().zip(&encoder.plans);
    for (array, (field, plan)) in arrays.iter().zip(fields) {
        match plan {
            Plan::Crate => write_leaves(field, array, &mut writers, &mut chunks)?,
            Plan::Own { descr, fallback } => match lists::encode(array, descr).map_err(written)? {
                Some(chunk) => chunks.push(Chunk::Own(chunk)),
                None => {
                    let mut writers = fallback.create_column_writers(0).map_err(written)?;
                    write_leaves(field, array, &mut writers.drain(..), &mut chunks)?;
                }
            },
        }
    }
    Ok(chunks)
}

/// Writes `array`'s leaf columns (a keyed list's as its texts) with the next of `writers`.
fn write_leaves(
    field: &FieldRef,
    array: &ArrayRef,
    writers: &mut impl Iterator<Item = ArrowColumnWriter>,
    chunks: &mut Vec<Chunk>,
) -> Result<()> {
    let array = unkeyed(array).map_err(|e| OutputError::Failed {
        message: format!("internal error: a keyed list's texts: {e}"),
        cause: None,
    })?;
    for leaf in compute_leaves(field, &array).map_err(written)? {
        let mut column = writers.next().ok_or_else(|| OutputError::Failed {
            message: "internal error: more Parquet leaves than column writers".into(),
            cause: None,
        })?;
        column.write(&leaf).map_err(written)?;
        chunks.push(Chunk::Crate(column.close().map_err(written)?));
    }
    Ok(())
}

/// A list of keyed texts ([`ArrowRows::keyed`]) as the list of its texts, the schema's
/// type, for the crate's writer; any other array as it is.
fn unkeyed(array: &ArrayRef) -> std::result::Result<ArrayRef, ArrowError> {
    let Some(lists) = array.as_list_opt::<i32>() else {
        return Ok(Arc::clone(array));
    };
    let Some(items) = lists.values().as_dictionary_opt::<UInt32Type>() else {
        return Ok(Arc::clone(array));
    };
    let texts = items
        .values()
        .as_string_opt::<i32>()
        .ok_or_else(|| ArrowError::InvalidArgumentError("keys of other than texts".into()))?;
    let mut plain = StringBuilder::with_capacity(items.len(), items.len() * 8);
    for key in items.keys().iter() {
        match key.map(|k| k as usize).filter(|&k| texts.is_valid(k)) {
            Some(k) => plain.append_value(texts.value(k)),
            None => plain.append_null(),
        }
    }
    let item = Arc::new(arrow_schema::Field::new("item", DataType::Utf8, true));
    let plain = ListArray::try_new(
        item,
        lists.offsets().clone(),
        Arc::new(plain.finish()),
        lists.nulls().cloned(),
    )?;
    Ok(Arc::new(plain))
}

/// What the workers share to encode column chunks for one file.
pub struct Encoder {
    schema: SchemaRef,
    /// The crate's column writers of the fields [`Plan::Crate`] writes.
    factory: ArrowRowGroupWriterFactory,
    /// Who writes each field.
    plans: Vec<Plan>,
    /// What each column held in the last chunk encoded: the room the next chunk's are
    /// made with.
    rooms: Mutex<Vec<Room>>,
}

/// Who writes a field's column chunks.
enum Plan {
    /// The crate, with the writers of [`Encoder::factory`].
    Crate,
    /// Our list encoder (the field's one leaf column `descr`), or, for a chunk it leaves,
    /// the crate's writer from `fallback`, made then.
    Own {
        descr: ColumnDescPtr,
        fallback: ArrowRowGroupWriterFactory,
    },
}

/// One encoded column chunk: by the crate's column writer or by our list encoder.
pub enum Chunk {
    /// Written by the crate.
    Crate(ArrowColumnChunk),
    /// Written by [`super::lists`].
    Own(ListChunk),
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
    let level = ZstdLevel::try_new(1).map_err(written)?;
    let builder = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_statistics_truncate_length(Some(64));
    let props = column_settings(builder, columns).build();
    create_with(out, schema(columns), props, true)
}

/// [`create`] for an Arrow schema and writer properties; `own_lists`: whether the list
/// columns may take our encoder (where the properties are the ones it writes).
fn create_with<W: Write + Send>(
    out: W,
    schema: SchemaRef,
    mut props: WriterProperties,
    own_lists: bool,
) -> Result<(ParquetFile<W>, Encoder)> {
    add_encoded_arrow_schema_to_metadata(&schema, &mut props);
    let props = Arc::new(props);
    let parquet_schema = ArrowSchemaConverter::new()
        .with_coerce_types(props.coerce_types())
        .convert(&schema)
        .map_err(written)?;
    // A list field of one leaf our encoder may write is ours; the crate makes column
    // writers for the other fields only (and for one of ours only when it leaves a chunk).
    let leaves = parquet_schema.columns();
    let roots: Vec<usize> = (0..leaves.len())
        .map(|i| parquet_schema.get_column_root_idx(i))
        .collect();
    let mut own = vec![None; schema.fields().len()];
    for (leaf, &root) in leaves.iter().zip(&roots) {
        let list = matches!(schema.field(root).data_type(), DataType::List(_));
        let alone = roots.iter().filter(|&&r| r == root).count() == 1;
        if own_lists && list && alone && lists::fits(&props, leaf.path()) {
            own[root] = Some(Arc::clone(leaf));
        }
    }
    let mut plans = Vec::with_capacity(own.len());
    let mut crate_fields = Vec::new();
    for (field, descr) in schema.fields().iter().zip(own) {
        plans.push(match descr {
            Some(descr) => Plan::Own {
                descr,
                fallback: factory_of(&[Arc::clone(field)], &props)?,
            },
            None => {
                crate_fields.push(Arc::clone(field));
                Plan::Crate
            }
        });
    }
    let factory = factory_of(&crate_fields, &props)?;
    let writer =
        SerializedFileWriter::new(out, parquet_schema.root_schema_ptr(), props).map_err(written)?;
    Ok((
        ParquetFile { writer },
        Encoder {
            schema,
            factory,
            plans,
            rooms: Mutex::new(Vec::new()),
        },
    ))
}

/// The crate's column writers of `fields` alone (their leaf columns are the file's: the
/// same paths and types), made through a file writer of their own that writes nowhere.
fn factory_of(
    fields: &[FieldRef],
    props: &Arc<WriterProperties>,
) -> Result<ArrowRowGroupWriterFactory> {
    let schema = Arc::new(Schema::new(fields.to_vec()));
    let parquet_schema = ArrowSchemaConverter::new()
        .with_coerce_types(props.coerce_types())
        .convert(&schema)
        .map_err(written)?;
    let nowhere = SerializedFileWriter::new(
        std::io::sink(),
        parquet_schema.root_schema_ptr(),
        Arc::clone(props),
    )
    .map_err(written)?;
    Ok(ArrowRowGroupWriterFactory::new(&nowhere, schema))
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
    pub fn append(&mut self, chunks: Vec<Chunk>) -> Result<()> {
        let mut group = self.writer.next_row_group().map_err(written)?;
        for chunk in chunks {
            match chunk {
                Chunk::Crate(c) => c.append_to_row_group(&mut group),
                Chunk::Own(c) => group.append_column(&c.data, c.close),
            }
            .map_err(written)?;
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

#[cfg(test)]
mod tests {
    //! Our list encoder against the crate's: the same arrays written both ways, read back
    //! by the parquet crate (and pyarrow, DuckDB, polars where installed) as the same table.

    use super::*;
    use crate::test_rng::Rng;
    use arrow_array::builder::{Float64Builder, Int32Builder, ListBuilder, StringBuilder};
    use arrow_array::{Array, RecordBatch};
    use arrow_schema::{Field as ArrowField, Schema};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::file::properties::WriterVersion;

    /// How one test's random lists look.
    #[derive(Clone, Copy)]
    struct Shape {
        /// Distinct values to draw from (`u64::MAX`: any).
        distinct: u64,
        /// The longest list.
        longest: u64,
        /// Texts as long as this (some over the dictionary key's 15 bytes).
        text_len: usize,
        /// One in this many lists null, one in this many items null (0: none).
        null_lists: u64,
        null_items: u64,
    }

    /// The length of the next row's list, or `None` for a null list.
    fn list_len(rng: &mut Rng, shape: Shape) -> Option<u64> {
        if shape.null_lists > 0 && rng.below(shape.null_lists) == 0 {
            return None;
        }
        Some(if rng.below(8) == 0 {
            0
        } else {
            rng.below(shape.longest + 1)
        })
    }

    fn null_item(rng: &mut Rng, shape: Shape) -> bool {
        shape.null_items > 0 && rng.below(shape.null_items) == 0
    }

    /// Three random list columns (texts, floats, ints) of `rows` rows.
    fn arrays(rng: &mut Rng, rows: usize, shape: Shape) -> Vec<ArrayRef> {
        let mut texts = ListBuilder::new(StringBuilder::new());
        let mut floats = ListBuilder::new(Float64Builder::new());
        let mut ints = ListBuilder::new(Int32Builder::new());
        let special = [0.0, -0.0, f64::NAN, f64::INFINITY, -1.5];
        for _ in 0..rows {
            for column in 0..3 {
                let Some(n) = list_len(rng, shape) else {
                    match column {
                        0 => texts.append_null(),
                        1 => floats.append_null(),
                        _ => ints.append_null(),
                    }
                    continue;
                };
                for _ in 0..n {
                    let v = rng.below(shape.distinct);
                    let null = null_item(rng, shape);
                    match column {
                        0 if null => texts.values().append_null(),
                        0 => {
                            let len = (v as usize) % (shape.text_len + 1);
                            let text: String = format!("{v:x}{}", "é".repeat(len))
                                .chars()
                                .take(len)
                                .collect();
                            texts.values().append_value(text);
                        }
                        1 if null => floats.values().append_null(),
                        1 if v < 5 => floats.values().append_value(special[v as usize]),
                        1 => floats.values().append_value(f64::from_bits(v)),
                        _ if null => ints.values().append_null(),
                        _ => ints.values().append_value(v as i32),
                    }
                }
                match column {
                    0 => texts.append(true),
                    1 => floats.append(true),
                    _ => ints.append(true),
                }
            }
        }
        vec![
            Arc::new(texts.finish()),
            Arc::new(floats.finish()),
            Arc::new(ints.finish()),
        ]
    }

    fn test_schema() -> SchemaRef {
        let list = |t| DataType::List(Arc::new(ArrowField::new("item", t, true)));
        Arc::new(Schema::new(vec![
            ArrowField::new("texts", list(DataType::Utf8), true),
            ArrowField::new("floats", list(DataType::Float64), true),
            ArrowField::new("ints", list(DataType::Int32), true),
        ]))
    }

    fn test_props() -> WriterProperties {
        let mut builder = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(1).unwrap()))
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_writer_version(WriterVersion::PARQUET_1_0);
        for name in ["texts", "floats", "ints"] {
            let path = ColumnPath::new(vec![name.into(), "list".into(), "item".into()]);
            builder = builder.set_column_statistics_enabled(path, EnabledStatistics::None);
        }
        builder.build()
    }

    /// The row groups written into a file, by our encoder (`own`) or by the crate; with
    /// how many list chunks our encoder wrote.
    fn write(groups: &[Vec<ArrayRef>], own: bool) -> (Vec<u8>, usize) {
        let (mut file, encoder) =
            create_with(Vec::new(), test_schema(), test_props(), own).unwrap();
        let mut ours = 0;
        for arrays in groups {
            let chunks = encode_arrays(arrays, &encoder).unwrap();
            ours += chunks.iter().filter(|c| matches!(c, Chunk::Own(_))).count();
            file.append(chunks).unwrap();
        }
        (file.finish().unwrap(), ours)
    }

    /// The file read back by the parquet crate, one batch per row.
    fn read(file: Vec<u8>) -> Vec<RecordBatch> {
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(file))
            .unwrap()
            .with_batch_size(1)
            .build()
            .unwrap();
        reader.collect::<std::result::Result<Vec<_>, _>>().unwrap()
    }

    /// Each row's arrays.
    fn rows(batches: &[RecordBatch]) -> Vec<Vec<arrow_array::ArrayRef>> {
        batches
            .iter()
            .flat_map(|b| {
                (0..b.num_rows()).map(|r| b.columns().iter().map(|c| c.slice(r, 1)).collect())
            })
            .collect()
    }

    /// Writes `groups` both ways; both read back equal to the arrays (NaN bit for bit, as
    /// the arrays' data); returns the two files and how many chunks were ours.
    fn both_ways(groups: &[Vec<ArrayRef>]) -> (Vec<u8>, Vec<u8>, usize) {
        let (own, ours) = write(groups, true);
        let (theirs, none) = write(groups, false);
        assert_eq!(none, 0);
        let wanted: Vec<RecordBatch> = groups
            .iter()
            .map(|g| RecordBatch::try_new(test_schema(), g.clone()).unwrap())
            .collect();
        let a = rows(&read(own.clone()));
        let b = rows(&read(theirs.clone()));
        assert_eq!(a.len(), wanted.iter().map(|w| w.num_rows()).sum::<usize>());
        assert!(a == b, "our chunks read back other than the crate's");
        assert!(
            a == rows(&wanted),
            "our chunks read back other than the arrays"
        );
        (own, theirs, ours)
    }

    fn shape() -> Shape {
        Shape {
            distinct: 300,
            longest: 40,
            text_len: 8,
            null_lists: 10,
            null_items: 0,
        }
    }

    #[test]
    fn our_list_chunks_read_back_as_the_crates() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for shape in [
            shape(),
            Shape {
                null_items: 5,
                ..shape()
            },
            Shape {
                distinct: 1,
                ..shape()
            },
            Shape {
                distinct: 2,
                null_lists: 2,
                ..shape()
            },
            Shape {
                text_len: 15,
                ..shape()
            },
            Shape {
                distinct: 70_000,
                longest: 300,
                ..shape()
            },
        ] {
            let groups: Vec<_> = [1, 1, 7, 500, 3000]
                .into_iter()
                .map(|rows| arrays(&mut rng, rows, shape))
                .collect();
            let (_, _, ours) = both_ways(&groups);
            assert!(ours > 0);
        }
    }

    /// A list of texts as a list of keyed texts ([`ArrowRows::keyed`]'s form): each
    /// distinct text once in the dictionary, in reverse order of first sight.
    fn keyed_of(array: &ArrayRef) -> ArrayRef {
        use arrow_array::{DictionaryArray, StringArray, UInt32Array};
        let lists = array.as_list::<i32>();
        let texts = lists.values().as_string::<i32>();
        let mut distinct: Vec<&str> = Vec::new();
        for text in texts.iter().flatten() {
            if !distinct.contains(&text) {
                distinct.push(text);
            }
        }
        distinct.reverse();
        let keys: UInt32Array = texts
            .iter()
            .map(|t| t.map(|t| distinct.iter().position(|d| *d == t).unwrap() as u32))
            .collect();
        let values = StringArray::from(distinct);
        let items = DictionaryArray::<UInt32Type>::try_new(keys, Arc::new(values)).unwrap();
        let item = Arc::new(ArrowField::new("item", items.data_type().clone(), true));
        let offsets = lists.offsets().clone();
        Arc::new(
            ListArray::try_new(item, offsets, Arc::new(items), lists.nulls().cloned()).unwrap(),
        )
    }

    #[test]
    fn keyed_text_lists_read_back_as_their_texts_ours_or_the_crates() {
        let mut rng = Rng(23);
        for shape in [
            shape(),
            Shape {
                null_items: 5,
                ..shape()
            },
            Shape {
                distinct: 1,
                ..shape()
            },
            Shape {
                text_len: 30,
                ..shape()
            },
            Shape {
                longest: 0,
                ..shape()
            },
        ] {
            let groups: Vec<Vec<ArrayRef>> = [1, 7, 500, 3000]
                .into_iter()
                .map(|rows| arrays(&mut rng, rows, shape))
                .collect();
            let keyed: Vec<Vec<ArrayRef>> = groups
                .iter()
                .map(|g| {
                    let mut g = g.clone();
                    g[0] = keyed_of(&g[0]);
                    g
                })
                .collect();
            assert_ne!(keyed[3][0].data_type(), groups[3][0].data_type());
            let wanted = rows(&read(write(&groups, false).0));
            let (own, ours) = write(&keyed, true);
            assert!(rows(&read(own)) == wanted, "ours");
            // Every text list ours where there are items (long texts too: keyed).
            assert!(ours >= if shape.longest == 0 { 0 } else { 4 });
            let (theirs, none) = write(&keyed, false);
            assert_eq!(none, 0);
            assert!(rows(&read(theirs)) == wanted, "the crate's");
        }
    }

    #[test]
    fn long_texts_and_large_dictionaries_fall_back_to_the_crate() {
        let mut rng = Rng(7);
        // Texts of up to 30 bytes: over the 15-byte key, so the crate writes those chunks.
        let long = Shape {
            text_len: 30,
            ..shape()
        };
        let (_, _, ours) = both_ways(&[arrays(&mut rng, 400, long)]);
        assert_eq!(ours, 2);
        // Any 64-bit value: a float dictionary over 1 MB (the crate then goes PLAIN).
        // (The texts and ints still ours: over 131,072 items, so several data pages.)
        let any = Shape {
            distinct: u64::MAX,
            longest: 200,
            text_len: 4,
            null_lists: 10,
            null_items: 0,
        };
        let (_, _, ours) = both_ways(&[arrays(&mut rng, 2500, any)]);
        assert_eq!(ours, 2);
        // Only null and empty lists: no items, left to the crate.
        let empty = Shape {
            longest: 0,
            ..shape()
        };
        let (_, _, ours) = both_ways(&[arrays(&mut rng, 50, empty)]);
        assert_eq!(ours, 0);
    }

    #[test]
    fn pyarrow_duckdb_and_polars_read_our_chunks_as_the_crates() {
        let test = "pyarrow_duckdb_and_polars_read_our_chunks_as_the_crates";
        let Some(py) = test_support::python_with(test, &["pyarrow", "duckdb", "polars"]) else {
            return;
        };
        let mut rng = Rng(11);
        let groups: Vec<_> = [
            (1, shape()),
            (
                2000,
                Shape {
                    null_items: 4,
                    ..shape()
                },
            ),
            (
                3000,
                Shape {
                    distinct: 5000,
                    longest: 120,
                    ..shape()
                },
            ),
            (
                300,
                Shape {
                    text_len: 30,
                    ..shape()
                },
            ),
        ]
        .into_iter()
        .map(|(rows, shape)| arrays(&mut rng, rows, shape))
        .collect();
        let (own, theirs, ours) = both_ways(&groups);
        assert!(ours >= 8);
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (
            dir.path().join("own.parquet"),
            dir.path().join("crate.parquet"),
        );
        std::fs::write(&a, own).unwrap();
        std::fs::write(&b, theirs).unwrap();
        let script = r#"
import sys, duckdb, pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet as pq, polars as pl
a, b = sys.argv[1:3]
ta, tb = pq.read_table(a), pq.read_table(b)
assert ta.schema.equals(tb.schema, check_metadata=True)
# NaN is not equal to itself: the floats compared as text.
norm = lambda t: t.set_column(1, "floats", pc.cast(t.column("floats"), pa.list_(pa.string())))
assert norm(ta).equals(norm(tb)), "pyarrow"
q = "select texts, floats::varchar, ints from '{}'"
assert duckdb.sql(q.format(a)).fetchall() == duckdb.sql(q.format(b)).fetchall(), "duckdb"
assert pl.read_parquet(a).equals(pl.read_parquet(b)), "polars"
print(ta.num_rows)
"#;
        let out = std::process::Command::new(&py)
            .arg("-c")
            .arg(script)
            .arg(&a)
            .arg(&b)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "5301");
    }
}
