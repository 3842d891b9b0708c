//! Stats tables as text: the rows of `pgn960 stats`, as CSV or as a pretty JSON array, the
//! one definition the command line and the Python package both write.

use super::by::{ByKey, KeyValue};
use super::pairs::Pairer;
use super::table::{csv_header, SpCell, SpRow};
use std::io::{self, Write};

/// The text formats of a stats or tree table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextFormat {
    /// Comma-separated values with a header row.
    #[default]
    Csv,
    /// A pretty JSON array of rows (or, for a tree, a nested tree).
    Json,
}

/// Writes a table of cells (with its header even when it has no row): the `--by` key
/// columns first, then the row's; `pairs` for a Double Chess960 table. `seen` is called
/// with each cell once its rows are written.
pub fn write_table(
    out: &mut impl Write,
    keys: &[ByKey],
    cells: impl IntoIterator<Item = SpCell>,
    pairs: bool,
    format: TextFormat,
    seen: impl FnMut(&SpCell),
) -> io::Result<()> {
    match format {
        TextFormat::Csv => write_csv(out, keys, cells, pairs, seen),
        TextFormat::Json => write_json(out, keys, cells, seen),
    }
}

/// The rows of a cell that are written: all 960 of a table without `--by` keys (scripts
/// index it by SP), only those with games in a table cut by keys (long format: a cut by
/// player would otherwise write 960 rows per name).
fn written_rows<'c>(keys: &[ByKey], cell: &'c SpCell) -> impl Iterator<Item = &'c SpRow> {
    let all = keys.is_empty();
    cell.rows.iter().filter(move |r| all || r.games > 0)
}

fn write_csv(
    out: &mut impl Write,
    keys: &[ByKey],
    cells: impl IntoIterator<Item = SpCell>,
    pairs: bool,
    mut seen: impl FnMut(&SpCell),
) -> io::Result<()> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(out);
    let mut header: Vec<String> = keys.iter().map(|k| k.column().to_string()).collect();
    header.extend(csv_header(pairs));
    w.write_record(&header)?;
    for cell in cells {
        let labels: Vec<String> = cell.key.iter().map(KeyValue::label).collect();
        for row in written_rows(keys, &cell) {
            for label in &labels {
                w.write_field(label)?;
            }
            w.serialize(row)?;
        }
        seen(&cell);
    }
    w.flush()
}

fn write_json(
    out: &mut impl Write,
    keys: &[ByKey],
    cells: impl IntoIterator<Item = SpCell>,
    mut seen: impl FnMut(&SpCell),
) -> io::Result<()> {
    // Rows as serde_json writes a pretty array, the key fields first in each.
    let mut first = true;
    out.write_all(b"[")?;
    for cell in cells {
        let mut prefix = String::new();
        for (k, v) in keys.iter().zip(&cell.key) {
            let value = serde_json::to_string(&v.label())?;
            prefix.push_str(&format!("\n  \"{}\": {value},", k.column()));
        }
        for row in written_rows(keys, &cell) {
            let text = serde_json::to_string_pretty(row)?;
            let body = text.strip_prefix('{').unwrap_or(&text);
            let object = format!("{{{prefix}{body}").replace('\n', "\n  ");
            out.write_all(if first { &b"\n  "[..] } else { &b",\n  "[..] })?;
            out.write_all(object.as_bytes())?;
            first = false;
        }
        seen(&cell);
    }
    out.write_all(if first { &b"]\n"[..] } else { &b"\n]\n"[..] })
}

/// Writes the table of engine-match pairs (`--pairs`): a row per start position and the
/// total.
pub fn write_pairs(out: &mut impl Write, pairer: &Pairer, format: TextFormat) -> io::Result<()> {
    let rows = pairer.rows();
    match format {
        TextFormat::Csv => {
            let mut w = csv::Writer::from_writer(out);
            for row in &rows {
                w.serialize(row)?;
            }
            w.flush()
        }
        TextFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &rows)?;
            out.write_all(b"\n")
        }
    }
}
