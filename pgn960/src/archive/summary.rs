//! The counts of a `check` or `clean` run, how they are printed, and the rows of rejected
//! games.

use serde::Serialize;
use std::collections::BTreeMap;

/// Counts of a run, as printed and written to `--report` / `--json`.
#[derive(Debug, Default, Clone, Serialize)]
pub struct ArchiveSummary {
    /// The inputs, in order.
    pub inputs: Vec<String>,
    /// Games read.
    pub games_read: u64,
    /// Valid games (kept or deduplicated).
    pub valid: u64,
    /// Games written to the output (clean) — valid kept plus unsupported passed through.
    pub written: u64,
    /// Games of other variants (passed through untouched by clean).
    pub unsupported_variant: u64,
    /// Games rejected.
    pub rejected: u64,
    /// Valid games dropped as repeats (`--dedupe`).
    pub deduplicated: u64,
    /// Rejections by reason.
    pub rejected_by_reason: BTreeMap<&'static str, u64>,
    /// Other variants by name.
    pub unsupported_by_variant: BTreeMap<String, u64>,
    /// Repairs by kind (a game may have several).
    pub repairs: BTreeMap<&'static str, u64>,
    /// Bytes of text between games that was not a game.
    pub junk_bytes: u64,
    /// Where the first of them is (`file:line:column`).
    pub first_junk: Option<String>,
    /// Bytes read.
    pub bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A text cell of the TSV sidecar, safe to open in a spreadsheet
/// ([`crate::table::spreadsheet_text`]).
fn spreadsheet_text<S: serde::Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::table::spreadsheet_text(text))
}

/// A rejected game, for messages and the TSV sidecar.
#[derive(Debug, Clone, Serialize)]
pub struct RejectRow {
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The file.
    #[serde(serialize_with = "spreadsheet_text")]
    pub file: String,
    /// Line of the problem.
    pub line: u64,
    /// Column of the problem.
    pub column: u32,
    /// Byte offset of the problem.
    pub byte_offset: usize,
    /// 1-based line where the game starts.
    pub game_line: u64,
    /// Reason name.
    pub reason: &'static str,
    /// Explanation.
    #[serde(serialize_with = "spreadsheet_text")]
    pub detail: String,
    /// White's name (`?` when absent).
    #[serde(serialize_with = "spreadsheet_text")]
    pub white: String,
    /// Black's name.
    #[serde(serialize_with = "spreadsheet_text")]
    pub black: String,
    /// The `Site` tag.
    #[serde(serialize_with = "spreadsheet_text")]
    pub site: String,
    /// Whether the input is a Parquet table (`line` is then the 0-based row, `column` the
    /// column in its movetext, 0 when the problem is in its tags).
    #[serde(skip)]
    pub parquet_row: bool,
}

impl RejectRow {
    /// `file:line:col: game N (White - Black, Site): detail`, or for a Parquet input
    /// `file: row R: game N (...)`.
    pub fn message(&self) -> String {
        let players = super::chunk::Players {
            white: self.white.clone(),
            black: self.black.clone(),
            site: self.site.clone(),
        };
        if self.parquet_row {
            return format!(
                "{}: row {}: game {} ({players}): {}",
                self.file, self.line, self.game, self.detail
            );
        }
        format!(
            "{}:{}:{}: game {} ({players}): {}",
            self.file, self.line, self.column, self.game, self.detail
        )
    }
}

/// The human-readable summary printed at the end of a run.
pub fn summary_text(s: &ArchiveSummary, cleaning: bool) -> String {
    let mut out = String::new();
    let mb = s.bytes as f64 / 1e6;
    out.push_str(&format!(
        "games read:          {:>10}   ({:.1} MB in {:.2} s, {:.0} games/s)\n",
        s.games_read,
        mb,
        s.seconds,
        s.games_read as f64 / s.seconds.max(1e-9)
    ));
    out.push_str(&format!("valid:               {:>10}\n", s.valid));
    if cleaning {
        out.push_str(&format!("written:             {:>10}\n", s.written));
        out.push_str(&format!("deduplicated:        {:>10}\n", s.deduplicated));
    }
    out.push_str(&format!(
        "unsupported variant: {:>10}",
        s.unsupported_variant
    ));
    for (name, n) in &s.unsupported_by_variant {
        out.push_str(&format!("  {name}: {n}"));
    }
    out.push('\n');
    out.push_str(&format!("rejected:            {:>10}\n", s.rejected));
    for (reason, n) in &s.rejected_by_reason {
        out.push_str(&format!("  {reason:<22} {n:>8}\n"));
    }
    if !s.repairs.is_empty() {
        out.push_str("repairs:\n");
        for (repair, n) in &s.repairs {
            out.push_str(&format!("  {repair:<29} {n:>8}\n"));
        }
    }
    if s.junk_bytes > 0 {
        out.push_str(&format!(
            "warning: {} bytes between games were not PGN and were skipped (the first at {})\n",
            s.junk_bytes,
            s.first_junk.as_deref().unwrap_or("?")
        ));
    }
    out
}
