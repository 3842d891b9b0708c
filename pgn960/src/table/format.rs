//! The formats of the tables the commands write (`export`, `stats`, `tree`): one
//! vocabulary, and the one rule that chooses a table's format ([`TableFormat::choose`]).

use crate::compression;
use std::path::Path;

/// A table format that cannot be chosen: its message says why (a `--format` the name
/// contradicts, a format the command does not write, none known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError(pub String);

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormatError {}

/// The formats of the tables the commands write: one vocabulary for all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum TableFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// JSON (an array of rows, or a tree).
    Json,
    /// One JSON object per line.
    Jsonl,
    /// Apache Parquet.
    Parquet,
}

impl TableFormat {
    /// The format's name, as `--format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            TableFormat::Csv => "csv",
            TableFormat::Json => "json",
            TableFormat::Jsonl => "jsonl",
            TableFormat::Parquet => "parquet",
        }
    }

    /// The format named `name` (`csv`, `json`, `jsonl`, `parquet`, as `--format` takes it).
    pub fn from_name(name: &str) -> Option<TableFormat> {
        use TableFormat::*;
        [Csv, Json, Jsonl, Parquet]
            .into_iter()
            .find(|f| f.name() == name)
    }

    /// The library's text format of a stats or tree table: json, else csv (the only text
    /// formats those tables have).
    pub fn text(self) -> crate::stats::TextFormat {
        match self {
            TableFormat::Json => crate::stats::TextFormat::Json,
            TableFormat::Csv | TableFormat::Jsonl | TableFormat::Parquet => {
                crate::stats::TextFormat::Csv
            }
        }
    }

    /// The format a file name's extension names, after a compression suffix
    /// (`t.csv.zst`: csv); `None` for standard output or another extension.
    pub fn of_path(path: &Path) -> Option<TableFormat> {
        use std::os::unix::ffi::OsStrExt;
        let name = path.file_name()?.as_bytes().to_ascii_lowercase();
        let mut stem = &name[..];
        let compression = compression::compression_of_name(path);
        if let Some(c) = compression::format_of(compression) {
            stem = &stem[..stem.len().saturating_sub(c.extension.len() + 1)];
        }
        let extension = stem
            .rsplit(|&b| b == b'.')
            .next()
            .filter(|_| stem.contains(&b'.'))?;
        match extension {
            b"csv" => Some(TableFormat::Csv),
            b"json" => Some(TableFormat::Json),
            b"jsonl" | b"ndjson" => Some(TableFormat::Jsonl),
            b"parquet" => Some(TableFormat::Parquet),
            _ => None,
        }
    }

    /// The one rule for a table's format: `--format` if given, else the extension of
    /// `path` (after a compression suffix), else `default`. An extension that names another
    /// format than `--format` is an error naming both; so is a format `command` does not
    /// write (`accepted`), or none known.
    pub fn choose(
        command: &str,
        path: &Path,
        given: Option<TableFormat>,
        accepted: &[TableFormat],
        default: Option<TableFormat>,
    ) -> Result<TableFormat, FormatError> {
        let names = accepted
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join(", ");
        let by_name = TableFormat::of_path(path);
        if let (Some(named), Some(given)) = (by_name, given) {
            if named != given {
                return Err(FormatError(format!(
                    "{} names a {} file but --format is {}: name the file .{} or drop --format",
                    path.display(),
                    named.name(),
                    given.name(),
                    given.name()
                )));
            }
        }
        let Some(format) = given.or(by_name).or(default) else {
            return Err(FormatError(format!(
                "cannot tell the format of {} from its extension: give --format ({names})",
                path.display()
            )));
        };
        if !accepted.contains(&format) {
            return Err(FormatError(format!(
                "{command} writes {names}, not {} ({})",
                format.name(),
                path.display()
            )));
        }
        Ok(format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TableFormat::*;

    #[test]
    fn the_format_comes_from_the_extension_after_the_compression() {
        assert_eq!(TableFormat::of_path(Path::new("t.csv")), Some(Csv));
        assert_eq!(TableFormat::of_path(Path::new("d/t.JSON.zst")), Some(Json));
        assert_eq!(TableFormat::of_path(Path::new("t.jsonl.xz")), Some(Jsonl));
        assert_eq!(TableFormat::of_path(Path::new("t.parquet")), Some(Parquet));
        assert_eq!(TableFormat::of_path(Path::new("json")), None);
        assert_eq!(TableFormat::of_path(Path::new("t.txt")), None);
        assert_eq!(TableFormat::of_path(Path::new("-")), None);
        for format in [Csv, Json, Jsonl, Parquet] {
            assert_eq!(TableFormat::from_name(format.name()), Some(format));
        }
        assert_eq!(TableFormat::from_name("tsv"), None);
    }

    #[test]
    fn a_mismatch_or_a_format_not_written_is_an_error() {
        let both = [Csv, Json];
        let choose = |p: &str, f| TableFormat::choose("stats", Path::new(p), f, &both, Some(Csv));
        assert_eq!(choose("x.json", None).unwrap(), Json);
        assert_eq!(choose("x.txt", None).unwrap(), Csv);
        assert_eq!(choose("-", Some(Json)).unwrap(), Json);
        assert_eq!(choose("x.csv.gz", Some(Csv)).unwrap(), Csv);
        let e = choose("x.json", Some(Csv)).unwrap_err().to_string();
        assert!(e.contains("json") && e.contains("csv"), "{e}");
        assert!(choose("x.parquet", None).is_err());
        assert!(TableFormat::choose("export", Path::new("-"), None, &both, None).is_err());
    }
}
