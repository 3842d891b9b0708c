//! Parquet output: each worker builds the Arrow arrays of its chunk (the library's
//! [`crate::table::arrow`]: one schema for `export` and Python) and encodes them into
//! column chunks (zstd); the sink, in input order, only appends them to the file as one
//! row group per chunk.

use super::columns::{Column, Field, GameView, Kind, PlyView};
use super::flat;
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
            Plan::Own {
                descr,
                fallback,
                flat,
            } => match own_chunk(array, descr, *flat).map_err(written)? {
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

/// `array`'s column chunk by our list encoder, or, for a flat field, by our flat one;
/// `None` where the encoder leaves it to the crate.
fn own_chunk(
    array: &ArrayRef,
    descr: &ColumnDescPtr,
    flat: Option<flat::Settings>,
) -> parquet::errors::Result<Option<ListChunk>> {
    match flat {
        Some(settings) => flat::encode(array, descr, settings),
        None => lists::encode(array, descr),
    }
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
    /// Our list encoder, or our flat one with the column's `flat` settings (the field's
    /// one leaf column `descr`), or, for a chunk it leaves, the crate's writer from
    /// `fallback`, made then.
    Own {
        descr: ColumnDescPtr,
        fallback: ArrowRowGroupWriterFactory,
        flat: Option<flat::Settings>,
    },
}

/// One encoded column chunk: by the crate's column writer or by our encoders.
pub enum Chunk {
    /// Written by the crate.
    Crate(ArrowColumnChunk),
    /// Written by [`super::lists`] or [`super::flat`].
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

/// [`create`] for an Arrow schema and writer properties; `own`: whether the list and flat
/// columns may take our encoders (where the properties are the ones they write).
fn create_with<W: Write + Send>(
    out: W,
    schema: SchemaRef,
    mut props: WriterProperties,
    own: bool,
) -> Result<(ParquetFile<W>, Encoder)> {
    add_encoded_arrow_schema_to_metadata(&schema, &mut props);
    let props = Arc::new(props);
    let parquet_schema = ArrowSchemaConverter::new()
        .with_coerce_types(props.coerce_types())
        .convert(&schema)
        .map_err(written)?;
    let owners = if own {
        own_leaves(&schema, &parquet_schema, &props)
    } else {
        vec![None; schema.fields().len()]
    };
    let mut plans = Vec::with_capacity(owners.len());
    let mut crate_fields = Vec::new();
    for (field, owner) in schema.fields().iter().zip(owners) {
        plans.push(match owner {
            Some((descr, flat)) => Plan::Own {
                descr,
                fallback: factory_of(&[Arc::clone(field)], &props)?,
                flat,
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

/// Per field, the leaf column our encoders write (with the flat encoder's settings for a
/// flat field), or `None` for a field the crate writes: a list field of one leaf our
/// list encoder fits, a text, integer or boolean field our flat encoder fits.
fn own_leaves(
    schema: &Schema,
    parquet_schema: &parquet::schema::types::SchemaDescriptor,
    props: &WriterProperties,
) -> Vec<Option<(ColumnDescPtr, Option<flat::Settings>)>> {
    let leaves = parquet_schema.columns();
    let roots: Vec<usize> = (0..leaves.len())
        .map(|i| parquet_schema.get_column_root_idx(i))
        .collect();
    let mut own = vec![None; schema.fields().len()];
    for (leaf, &root) in leaves.iter().zip(&roots) {
        if roots.iter().filter(|&&r| r == root).count() != 1 {
            continue;
        }
        let path = leaf.path();
        own[root] = match schema.field(root).data_type() {
            DataType::List(_) if lists::fits(props, path) => Some((Arc::clone(leaf), None)),
            DataType::Utf8 | DataType::Int32 | DataType::Int64 | DataType::Boolean => {
                flat::settings(props, path).map(|s| (Arc::clone(leaf), Some(s)))
            }
            _ => None,
        };
    }
    own
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
    use arrow_array::{Array, Int32Array, RecordBatch, StringArray};
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
        write_with(test_schema(), test_props(), groups, own)
    }

    /// [`write`] for a schema and writer properties.
    fn write_with(
        schema: SchemaRef,
        props: WriterProperties,
        groups: &[Vec<ArrayRef>],
        own: bool,
    ) -> (Vec<u8>, usize) {
        let (mut file, encoder) = create_with(Vec::new(), schema, props, own).unwrap();
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
        assert_eq!(run_on_both(&py, script, &own, &theirs), "5301");
    }

    /// Writes our file and the crate's to a directory and runs `script` with their paths
    /// (ours first); returns what it printed, failing the test if it failed.
    fn run_on_both(py: &str, script: &str, own: &[u8], theirs: &[u8]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (
            dir.path().join("own.parquet"),
            dir.path().join("crate.parquet"),
        );
        std::fs::write(&a, own).unwrap();
        std::fs::write(&b, theirs).unwrap();
        let out = std::process::Command::new(py)
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
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A random text for a flat column: empty, short and repeating, non-ASCII, or long
    /// (over the 64 bytes statistics keep, cut inside a multi-byte character or not).
    fn flat_text(rng: &mut Rng, distinct: u64) -> String {
        let v = rng.below(distinct);
        match rng.below(10) {
            0 => String::new(),
            1 => format!("é{v}ü€😀"),
            2 => format!("{}{v}", "x".repeat(62 + rng.index(4))),
            3 => format!("{}{v}", "é".repeat(30 + rng.index(4))),
            4 => format!("{}{v}", "\u{10FFFF}".repeat(17)),
            5 => "\u{7f}\u{ff}".repeat(40),
            _ => format!("Rated Chess960 game {v}"),
        }
    }

    /// Six random flat columns (texts with and without a dictionary, 32- and 64-bit
    /// integers with and without, booleans) of `rows` rows; one in `nulls` null (0:
    /// none; 1: every value null).
    fn flat_arrays(rng: &mut Rng, rows: usize, nulls: u64, distinct: u64) -> Vec<ArrayRef> {
        use arrow_array::builder::{BooleanBuilder, Int64Builder};
        let mut texts = [StringBuilder::new(), StringBuilder::new()];
        let mut int32 = Int32Builder::new();
        let mut int64 = [Int64Builder::new(), Int64Builder::new()];
        let mut bools = BooleanBuilder::new();
        let null = |rng: &mut Rng| nulls > 0 && rng.below(nulls) == 0;
        for _ in 0..rows {
            for t in &mut texts {
                let text = (!null(rng)).then(|| flat_text(rng, distinct));
                t.append_option(text);
            }
            let edge = [i32::MIN, i32::MAX, 0, -1][rng.index(4)];
            let n = if rng.below(50) == 0 {
                edge
            } else {
                rng.below(distinct) as i32 - 5
            };
            int32.append_option((!null(rng)).then_some(n));
            for i in &mut int64 {
                let wide = [i64::MIN, i64::MAX, 1 << 40][rng.index(3)];
                let n = if rng.below(50) == 0 {
                    wide
                } else {
                    i64::from(n) * 7
                };
                i.append_option((!null(rng)).then_some(n));
            }
            let b = rng.below(3) == 0;
            bools.append_option((!null(rng)).then_some(b));
        }
        let [t0, t1] = &mut texts;
        let [i0, i1] = &mut int64;
        vec![
            Arc::new(t0.finish()),
            Arc::new(t1.finish()),
            Arc::new(int32.finish()),
            Arc::new(i0.finish()),
            Arc::new(i1.finish()),
            Arc::new(bools.finish()),
        ]
    }

    const FLAT: [(&str, DataType, bool); 6] = [
        ("keyed_text", DataType::Utf8, true),
        ("plain_text", DataType::Utf8, false),
        ("int32", DataType::Int32, true),
        ("keyed_int64", DataType::Int64, true),
        ("plain_int64", DataType::Int64, false),
        ("flag", DataType::Boolean, true),
    ];

    fn flat_schema() -> SchemaRef {
        let fields: Vec<ArrowField> = FLAT
            .iter()
            .map(|(name, t, _)| ArrowField::new(*name, t.clone(), true))
            .collect();
        Arc::new(Schema::new(fields))
    }

    /// The file's properties for these columns (as [`create`]'s: zstd level 1, chunk
    /// statistics cut at 64 bytes, a dictionary where [`FLAT`] says).
    fn flat_props() -> WriterProperties {
        let mut builder = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(1).unwrap()))
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_statistics_truncate_length(Some(64));
        for (name, _, dictionary) in FLAT {
            builder = builder.set_column_dictionary_enabled(ColumnPath::from(name), dictionary);
        }
        builder.build()
    }

    /// Each column chunk's metadata readers use: statistics, values, levels, text bytes.
    fn chunk_facts(file: &[u8]) -> Vec<String> {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let reader = SerializedFileReader::new(bytes::Bytes::from(file.to_vec())).unwrap();
        let mut facts = Vec::new();
        for group in reader.metadata().row_groups() {
            for c in group.columns() {
                facts.push(format!(
                    "{} {:?} {} {:?} {:?} {:?}",
                    c.column_path(),
                    c.statistics(),
                    c.num_values(),
                    c.definition_level_histogram(),
                    c.repetition_level_histogram(),
                    c.unencoded_byte_array_data_bytes(),
                ));
            }
        }
        facts
    }

    /// Writes `groups` both ways; both read back equal to the arrays, with the same chunk
    /// statistics; returns the two files and how many chunks were ours.
    fn flat_both_ways(groups: &[Vec<ArrayRef>]) -> (Vec<u8>, Vec<u8>, usize) {
        let (own, ours) = write_with(flat_schema(), flat_props(), groups, true);
        let (theirs, none) = write_with(flat_schema(), flat_props(), groups, false);
        assert_eq!(none, 0);
        let wanted: Vec<RecordBatch> = groups
            .iter()
            .map(|g| RecordBatch::try_new(flat_schema(), g.clone()).unwrap())
            .collect();
        let a = rows(&read(own.clone()));
        assert!(
            a == rows(&read(theirs.clone())),
            "ours read back other than the crate's"
        );
        assert!(a == rows(&wanted), "ours read back other than the arrays");
        let (ours_facts, their_facts) = (chunk_facts(&own), chunk_facts(&theirs));
        assert_eq!(ours_facts.len(), their_facts.len());
        for (o, t) in ours_facts.iter().zip(&their_facts) {
            assert_eq!(o, t);
        }
        (own, theirs, ours)
    }

    /// Row groups of the sizes `sizes`, each of random flat columns.
    fn flat_groups(
        rng: &mut Rng,
        sizes: &[usize],
        nulls: u64,
        distinct: u64,
    ) -> Vec<Vec<ArrayRef>> {
        sizes
            .iter()
            .map(|&rows| flat_arrays(rng, rows, nulls, distinct))
            .collect()
    }

    #[test]
    fn our_flat_chunks_read_back_as_the_crates_with_its_statistics() {
        let mut rng = Rng(0x0960_f1a7_0000_0001);
        for (nulls, distinct) in [(0, 5), (7, 5), (3, 300), (1, 5), (0, 1), (20, 50_000)] {
            let groups = flat_groups(&mut rng, &[1, 2, 9, 700, 3000], nulls, distinct);
            let (_, _, ours) = flat_both_ways(&groups);
            assert_eq!(ours, 5 * 6, "nulls {nulls}, distinct {distinct}");
        }
        // Pages of at most 20,000 rows, and a PLAIN page's values cut at about 1 MB.
        let groups = flat_groups(&mut rng, &[45_000], 9, 40);
        let (own, _, ours) = flat_both_ways(&groups);
        assert_eq!(ours, 6);
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(own)).unwrap();
        assert!(reader.metadata().row_group(0).column(0).num_values() == 45_000);
    }

    #[test]
    fn a_flat_dictionary_over_the_limit_falls_back_to_the_crate() {
        // Texts mostly distinct, about 40 bytes each: a dictionary over 1 MB.
        let mut rng = Rng(5);
        let groups = flat_groups(&mut rng, &[40_000], 0, u64::MAX);
        let (_, _, ours) = flat_both_ways(&groups);
        // The keyed texts left to the crate; the other five ours.
        assert_eq!(ours, 5);
    }

    #[test]
    fn truncated_text_statistics_are_the_crates() {
        for text in [
            "a".repeat(65),
            "é".repeat(40),
            format!("{}é", "a".repeat(63)),
            "\u{10FFFF}".repeat(20),
            format!("{}\u{10FFFF}", "b".repeat(62)),
            "\u{7f}".repeat(70),
            "\u{ffff}".repeat(30),
            "x".repeat(64),
            String::new(),
        ] {
            let array: ArrayRef = Arc::new(StringArray::from(vec![Some(text.as_str()), None]));
            let groups = vec![vec![
                Arc::clone(&array),
                array,
                Arc::new(Int32Array::from(vec![Some(1), None])) as ArrayRef,
                Arc::new(arrow_array::Int64Array::from(vec![None, Some(-3)])),
                Arc::new(arrow_array::Int64Array::from(vec![Some(i64::MAX), None])),
                Arc::new(arrow_array::BooleanArray::from(vec![None, Some(true)])),
            ]];
            let (_, _, ours) = flat_both_ways(&groups);
            assert_eq!(ours, 6, "{text:?}");
        }
    }

    #[test]
    fn pyarrow_duckdb_and_polars_read_our_flat_chunks_as_the_crates() {
        let test = "pyarrow_duckdb_and_polars_read_our_flat_chunks_as_the_crates";
        let Some(py) = test_support::python_with(test, &["pyarrow", "duckdb", "polars"]) else {
            return;
        };
        let mut rng = Rng(17);
        let mut groups = flat_groups(&mut rng, &[1, 2500, 300], 6, 40);
        groups.extend(flat_groups(&mut rng, &[30], 1, 40));
        let (own, theirs, ours) = flat_both_ways(&groups);
        assert_eq!(ours, 4 * 6);
        let script = r#"
import sys, duckdb, pyarrow.parquet as pq, polars as pl
a, b = sys.argv[1:3]
ta, tb = pq.read_table(a), pq.read_table(b)
assert ta.schema.equals(tb.schema, check_metadata=True)
assert ta.equals(tb), "pyarrow"
ma, mb = pq.ParquetFile(a).metadata, pq.ParquetFile(b).metadata
for g in range(ma.num_row_groups):
    for c in range(ma.num_columns):
        sa, sb = ma.row_group(g).column(c).statistics, mb.row_group(g).column(c).statistics
        assert sa.null_count == sb.null_count and sa.has_min_max == sb.has_min_max, (g, c)
        assert not sa.has_min_max or (sa.min, sa.max) == (sb.min, sb.max), (g, c)
q = "select * from '{}'"
assert duckdb.sql(q.format(a)).fetchall() == duckdb.sql(q.format(b)).fetchall(), "duckdb"
q = "select count(*) from '{}' where keyed_text > 'Rated' and int32 < 3 and flag"
assert duckdb.sql(q.format(a)).fetchall() == duckdb.sql(q.format(b)).fetchall(), "duckdb"
assert pl.read_parquet(a).equals(pl.read_parquet(b)), "polars"
print(ta.num_rows)
"#;
        assert_eq!(run_on_both(&py, script, &own, &theirs), "2831");
    }
}
