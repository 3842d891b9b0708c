//! Tables written by `pgn960 stats` (CSV) read back and added up exactly: the monoid of
//! `stats --merge` and `pgn960.merge_stats`. With their strata tables
//! ([`super::strata`]), the merged tables are tested within the same strata as one run.

use super::by::{ByKey, Key, KeyValue};
use super::strata::{add_stratum_row, check_strata, read_stratum_row, strata_kind};
use super::table::{csv_header, SpRow, SpTables};
use crate::input::{LineLimit, MAX_TABLE_LINE};
use crate::{Error, Result};
use std::collections::HashMap;
use std::io::Read;

/// The kinds of table `stats` writes, told apart by their header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// One row per SP.
    Sp,
    /// One row per (white SP, black SP) pair of Double Chess960.
    DoubleChess960,
    /// The strata of an SP table (`--strata-table`), stratified by this key.
    Strata(ByKey),
}

/// The tables read by [`merge_csv`], and which kinds were given.
#[derive(Debug)]
pub struct MergedTables {
    /// The sums.
    pub tables: SpTables,
    /// Whether SP tables were given.
    pub sp: bool,
    /// Whether Double Chess960 tables were given.
    pub double_chess960: bool,
    /// Whether strata tables were given (their key is `tables.strata`): the SP tables are
    /// then tested within those strata, as by the run that wrote them; without, as one
    /// table.
    pub strata: bool,
}

/// Reads tables written by `pgn960 stats` (CSV; each a name for messages and its bytes) and
/// adds them up exactly: SP tables, Double Chess960 tables and strata tables
/// ([`super::write_strata`]), told apart by their header. A table whose header is not one
/// of ours, whose `--by` keys differ from the first table's (or from `keys`, when given), a
/// row that cannot be (counts that do not add up, an SP out of range, a key value that is
/// none) or a sum past the counters' range is an [`Error::Content`] naming the table and
/// row. Strata tables must be of one key and add up to the SP tables (the strata table of
/// every SP table given, or none).
pub fn merge_csv<R: Read>(
    tables: impl IntoIterator<Item = (String, R)>,
    keys: &[ByKey],
) -> Result<MergedTables> {
    let mut merged = MergedTables {
        tables: SpTables::new(keys.to_vec()),
        sp: false,
        double_chess960: false,
        strata: false,
    };
    let mut first_keys: Option<Vec<ByKey>> = (!keys.is_empty()).then(|| keys.to_vec());
    for (name, bytes) in tables {
        let fail = |message: String| Error::Content {
            name: name.clone(),
            message,
        };
        let mut reader = csv::Reader::from_reader(LineLimit::new(bytes, MAX_TABLE_LINE));
        let header = reader
            .headers()
            .map_err(|e| fail(format!("cannot read: {e}")))?
            .clone();
        let file_keys: Vec<ByKey> = header.iter().map_while(ByKey::from_column).collect();
        let kind = table_kind(&header, file_keys.len()).ok_or_else(|| {
            let header: Vec<&str> = header.iter().collect();
            fail(format!(
                "not a table written by pgn960 stats (its header is {:?})",
                header.join(",")
            ))
        })?;
        match &first_keys {
            Some(expected) if *expected != file_keys => {
                return Err(fail(format!(
                    "a table with {}, not {}: tables merge only with tables of the same keys",
                    key_names(&file_keys),
                    key_names(expected)
                )))
            }
            Some(_) => {}
            None => first_keys = Some(file_keys.clone()),
        }
        merged.tables.keys = file_keys.clone();
        match kind {
            TableKind::Sp => merged.sp = true,
            TableKind::DoubleChess960 => merged.double_chess960 = true,
            TableKind::Strata(by) => {
                if merged.strata && merged.tables.strata != Some(by) {
                    return Err(fail(format!(
                        "a strata table by {}, not {}: strata tables merge only with strata \
                         tables of the same key",
                        by.column(),
                        merged.tables.strata.map_or("", ByKey::column)
                    )));
                }
                merged.strata = true;
                merged.tables.strata = Some(by);
                add_strata(&mut merged.tables, &file_keys, by, &mut reader).map_err(fail)?;
                continue;
            }
        }
        add_rows(&mut merged.tables, &file_keys, kind, &header, &mut reader).map_err(fail)?;
    }
    finish(merged)
}

/// The merged tables without the cells of all-zero rows, their strata checked against them.
fn finish(mut merged: MergedTables) -> Result<MergedTables> {
    // An all-zero row adds nothing: drop the cells it made, so that the merge of tables
    // equals the table of the games (whose cells exist only with games).
    let tables = &mut merged.tables;
    for cell in tables.by_sp.values_mut() {
        cell.retain(|_, c| c.games > 0);
    }
    tables.by_sp.retain(|_, cell| !cell.is_empty());
    tables.by_pair.retain(|_, c| c.games > 0);
    for strata in tables.by_stratum.values_mut() {
        for rows in strata.values_mut() {
            rows.retain(|_, wdl| wdl.games() > 0);
        }
        strata.retain(|_, rows| !rows.is_empty());
    }
    tables.by_stratum.retain(|_, strata| !strata.is_empty());
    if merged.strata {
        let fail = |message: String| Error::Content {
            name: "the strata tables".to_string(),
            message,
        };
        if !merged.sp {
            return Err(fail(
                "strata tables were given without the SP tables they go with".to_string(),
            ));
        }
        check_strata(&merged.tables).map_err(fail)?;
    }
    Ok(merged)
}

/// Adds the rows of an SP or Double Chess960 table (`kind`) to `tables`; an error names
/// the line.
fn add_rows<R: Read>(
    tables: &mut SpTables,
    keys: &[ByKey],
    kind: TableKind,
    header: &csv::StringRecord,
    reader: &mut csv::Reader<R>,
) -> Result<(), String> {
    let mut seen: HashMap<(Vec<String>, u16, Option<u16>), u64> = HashMap::new();
    let mut rows = 0u64;
    let mut last_line = 1u64;
    for (i, record) in reader.records().enumerate() {
        let line = line_of(&record, i);
        let at = |why: String| format!("line {line}: {why}");
        let record = record.map_err(|e| at(format!("not a CSV row: {e}")))?;
        let row: SpRow = record
            .deserialize(Some(header))
            .map_err(|e| at(format!("not a pgn960 stats row: {e}")))?;
        let labels = record.iter().take(keys.len()).map(str::to_string);
        if let Some(first) = seen.insert((labels.collect(), row.sp, row.black_sp), line) {
            return Err(at(format!(
                "the row of {} is there twice (first on line {first}): a table of pgn960 \
                 stats has one row per cell and SP",
                row_name(&row)
            )));
        }
        add_row(tables, keys, &record, &row).map_err(at)?;
        rows += 1;
        last_line = line;
    }
    if kind == TableKind::Sp && keys.is_empty() && rows != 960 {
        return Err(format!(
            "line {last_line}: the table ends after {rows} rows; an SP table of pgn960 \
             stats without --by has 960, one per SP"
        ));
    }
    Ok(())
}

/// Adds the rows of a strata table (stratified by `by`) to `tables`; an error names the
/// line.
fn add_strata<R: Read>(
    tables: &mut SpTables,
    keys: &[ByKey],
    by: ByKey,
    reader: &mut csv::Reader<R>,
) -> Result<(), String> {
    let mut seen: HashMap<(Key, KeyValue, u16), u64> = HashMap::new();
    for (i, record) in reader.records().enumerate() {
        let line = line_of(&record, i);
        let at = |why: String| format!("line {line}: {why}");
        let record = record.map_err(|e| at(format!("not a CSV row: {e}")))?;
        let row = read_stratum_row(keys, by, &record).map_err(at)?;
        let place = (row.key.clone(), row.stratum.clone(), row.sp);
        if let Some(first) = seen.insert(place, line) {
            return Err(at(format!(
                "the row of SP {} in {} {:?} is there twice (first on line {first}): a strata \
                 table has one row per cell, stratum and SP",
                row.sp,
                by.column(),
                row.stratum.label()
            )));
        }
        add_stratum_row(tables, row).map_err(at)?;
    }
    Ok(())
}

/// The line a record starts on (1 is the header), else its place after the header.
fn line_of(record: &std::result::Result<csv::StringRecord, csv::Error>, i: usize) -> u64 {
    record
        .as_ref()
        .ok()
        .and_then(|r| r.position().map(|p| p.line()))
        .unwrap_or(i as u64 + 2)
}

/// "SP 12" or "SP pair 12/345".
fn row_name(row: &SpRow) -> String {
    match row.black_sp {
        Some(black) => format!("SP pair {}/{black}", row.sp),
        None => format!("SP {}", row.sp),
    }
}

/// The kind of table whose header, after `keys` key columns, is `header`.
fn table_kind(header: &csv::StringRecord, keys: usize) -> Option<TableKind> {
    let rest: Vec<String> = header.iter().skip(keys).map(str::to_string).collect();
    if let Some(by) = strata_kind(&rest) {
        return Some(TableKind::Strata(by));
    }
    [
        (TableKind::Sp, csv_header(false)),
        (TableKind::DoubleChess960, csv_header(true)),
    ]
    .into_iter()
    .find(|(_, h)| *h == rest)
    .map(|(kind, _)| kind)
}

/// `--by keys a,b`, or `no --by keys`.
fn key_names(keys: &[ByKey]) -> String {
    let names: Vec<&str> = keys.iter().map(|k| k.column()).collect();
    if names.is_empty() {
        "no --by keys".to_string()
    } else {
        format!("--by keys {}", names.join(","))
    }
}

/// Adds one row (`record`, read as `row`) to its cell of `tables`.
fn add_row(
    tables: &mut SpTables,
    keys: &[ByKey],
    record: &csv::StringRecord,
    row: &SpRow,
) -> Result<(), String> {
    let key = keys
        .iter()
        .zip(record.iter())
        .map(|(&k, text)| KeyValue::parse(k, text))
        .collect::<Result<Key, String>>()?;
    let counts = row.counts();
    counts.check()?;
    let target = match row.black_sp {
        Some(black) if black < 960 && row.sp < 960 => {
            tables.by_pair.entry((key, row.sp, black)).or_default()
        }
        None if row.sp < 960 => match tables.sp_counts(&key, row.sp) {
            Some(counts) => counts,
            None => return Err(format!("cannot count SP {}", row.sp)),
        },
        None => return Err(format!("SP {} is out of range", row.sp)),
        Some(black) => return Err(format!("SP pair {}/{black} is out of range", row.sp)),
    };
    target
        .checked_merge(&counts)
        .ok_or_else(|| "the sums overflow".to_string())
}
