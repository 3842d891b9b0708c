//! The strata table: per `--by` cell, stratum (an event, a speed) and SP, the W/D/L the
//! significance tests compare SPs within (`--strata`). It travels beside an SP table
//! (`stats --strata-table`, the metadata of Python's tables) and is merged with it by
//! [`super::merge_csv`], so that tables merged from parts are tested within the same
//! strata as one run over the whole: byte for byte, p- and q-values included.

use super::by::{ByKey, Key, KeyValue, StrataKey};
use super::significance::Wdl;
use super::table::SpTables;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// What begins the name of a strata table's stratum column: `stratum_event`,
/// `stratum_time_control`.
pub const STRATUM_COLUMN_PREFIX: &str = "stratum_";

/// The columns of a strata table after the key columns and the stratum's.
const COUNT_COLUMNS: [&str; 4] = ["sp", "white_wins", "draws", "black_wins"];

/// The header of a strata table cut by `keys`, stratified by `by`: the key columns, the
/// stratum's (`stratum_event`), `sp`, `white_wins`, `draws`, `black_wins`.
pub fn strata_header(keys: &[ByKey], by: ByKey) -> Vec<String> {
    let mut header: Vec<String> = keys.iter().map(|k| k.column().to_string()).collect();
    header.push(format!("{STRATUM_COLUMN_PREFIX}{}", by.column()));
    header.extend(COUNT_COLUMNS.map(str::to_string));
    header
}

/// The strata key of a header whose columns after the key columns are `rest`, when it is
/// the header of a strata table.
pub(super) fn strata_kind(rest: &[String]) -> Option<ByKey> {
    let (stratum, counts) = rest.split_first()?;
    let column = stratum.strip_prefix(STRATUM_COLUMN_PREFIX)?;
    let by = StrataKey::ALL
        .into_iter()
        .filter_map(StrataKey::by_key)
        .find(|k| k.column() == column)?;
    (counts == COUNT_COLUMNS).then_some(by)
}

/// Writes the strata table of `tables` as CSV ([`strata_header`]): a row per cell, stratum
/// and SP with games, in that order. An error of kind `InvalidInput` when `tables` keeps
/// no strata (`--strata none`, or tables merged without their strata tables).
pub fn write_strata(out: &mut impl Write, tables: &SpTables) -> io::Result<()> {
    let Some(by) = tables.strata else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "these tables keep no strata (--strata none, or merged without strata tables)",
        ));
    };
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(out);
    w.write_record(strata_header(&tables.keys, by))?;
    for (key, strata) in &tables.by_stratum {
        let labels: Vec<String> = key.iter().map(KeyValue::label).collect();
        for (value, rows) in strata {
            let stratum = value.label();
            for (sp, wdl) in rows.iter().filter(|(_, wdl)| wdl.games() > 0) {
                let counts = [u64::from(*sp), wdl.white_wins, wdl.draws, wdl.black_wins];
                let record = labels
                    .iter()
                    .cloned()
                    .chain([stratum.clone()])
                    .chain(counts.map(|n| n.to_string()));
                w.write_record(record)?;
            }
        }
    }
    w.flush()
}

/// One row of a strata table, read.
pub(super) struct StratumRow {
    /// The `--by` key values.
    pub key: Key,
    /// The stratum.
    pub stratum: KeyValue,
    /// The SP.
    pub sp: u16,
    /// Its results in the stratum.
    pub wdl: Wdl,
}

/// Reads one row of a strata table cut by `keys` and stratified by `by`.
pub(super) fn read_stratum_row(
    keys: &[ByKey],
    by: ByKey,
    record: &csv::StringRecord,
) -> Result<StratumRow, String> {
    let wanted = keys.len() + 1 + COUNT_COLUMNS.len();
    if record.len() != wanted {
        return Err(format!(
            "a row of {} fields; a row of this strata table has {wanted}",
            record.len()
        ));
    }
    let key = keys
        .iter()
        .zip(record.iter())
        .map(|(&k, text)| KeyValue::parse(k, text))
        .collect::<Result<Key, String>>()?;
    let stratum = KeyValue::parse(by, &record[keys.len()])?;
    let number = |i: usize| -> Result<u64, String> {
        let (name, text) = (COUNT_COLUMNS[i], &record[keys.len() + 1 + i]);
        text.parse()
            .map_err(|_| format!("{name} {text:?} is not a count"))
    };
    let sp = u16::try_from(number(0)?)
        .ok()
        .filter(|&sp| sp < 960)
        .ok_or_else(|| format!("SP {} is out of range", &record[keys.len() + 1]))?;
    let wdl = Wdl::new(number(1)?, number(2)?, number(3)?);
    wdl.white_wins
        .checked_add(wdl.draws)
        .and_then(|n| n.checked_add(wdl.black_wins))
        .ok_or_else(|| "white_wins + draws + black_wins overflows".to_string())?;
    Ok(StratumRow {
        key,
        stratum,
        sp,
        wdl,
    })
}

/// Adds a row read by [`read_stratum_row`] to `tables`, or fails if a sum would overflow.
pub(super) fn add_stratum_row(tables: &mut SpTables, row: StratumRow) -> Result<(), String> {
    let slot = tables
        .by_stratum
        .entry(row.key)
        .or_default()
        .entry(row.stratum)
        .or_default()
        .entry(row.sp)
        .or_default();
    let sum = |a: u64, b: u64| a.checked_add(b);
    let wdl = Wdl::new(
        sum(slot.white_wins, row.wdl.white_wins).ok_or("the sums overflow")?,
        sum(slot.draws, row.wdl.draws).ok_or("the sums overflow")?,
        sum(slot.black_wins, row.wdl.black_wins).ok_or("the sums overflow")?,
    );
    wdl.white_wins
        .checked_add(wdl.draws)
        .and_then(|n| n.checked_add(wdl.black_wins))
        .ok_or("the sums overflow")?;
    *slot = wdl;
    Ok(())
}

/// Checks that the strata of `tables` add up, cell by cell and SP by SP, to the W/D/L of
/// its SP tables (as they do for the tables of one run): a strata table missing, or given
/// with the SP table of other games, shows as a difference, named in the message.
pub(super) fn check_strata(tables: &SpTables) -> Result<(), String> {
    let mut in_strata: BTreeMap<(&Key, u16), Wdl> = BTreeMap::new();
    for (key, strata) in &tables.by_stratum {
        for (&sp, wdl) in strata.values().flatten() {
            let sum = in_strata.entry((key, sp)).or_default();
            *sum = Wdl::new(
                sum.white_wins.saturating_add(wdl.white_wins),
                sum.draws.saturating_add(wdl.draws),
                sum.black_wins.saturating_add(wdl.black_wins),
            );
        }
    }
    in_strata.retain(|_, wdl| wdl.games() > 0);
    let in_tables: BTreeMap<(&Key, u16), Wdl> = tables
        .by_sp
        .iter()
        .flat_map(|(key, cell)| cell.iter().map(move |(&sp, c)| ((key, sp), Wdl::from(c))))
        .filter(|(_, wdl)| wdl.games() > 0)
        .collect();
    let differs = in_tables
        .iter()
        .map(|(at, wdl)| (*at, Some(*wdl), in_strata.get(at).copied()))
        .chain(
            in_strata
                .iter()
                .filter(|(at, _)| !in_tables.contains_key(*at))
                .map(|(at, wdl)| (*at, None, Some(*wdl))),
        )
        .find(|(_, table, strata)| table != strata);
    let Some(((key, sp), table, strata)) = differs else {
        return Ok(());
    };
    let text = |wdl: Option<Wdl>| {
        let wdl = wdl.unwrap_or_default();
        format!("{}/{}/{}", wdl.white_wins, wdl.draws, wdl.black_wins)
    };
    let cell = if key.is_empty() {
        String::new()
    } else {
        let labels: Vec<String> = key.iter().map(|v| format!("{:?}", v.label())).collect();
        format!(" of the cell {}", labels.join(", "))
    };
    Err(format!(
        "the strata tables do not add up to the SP tables: SP {sp}{cell} has W/D/L {} in the \
         SP tables and {} in the strata tables; give the strata table of every SP table \
         merged (or none: the merge is then tested as one table)",
        text(table),
        text(strata)
    ))
}
