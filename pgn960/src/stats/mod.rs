//! Per-start-position statistics: the results of every game counted per SP (0..959),
//! Double Chess960 pairs apart, cut by `--by` keys, with significance per cell, evaluations
//! and engine-match pairs; tables written as CSV or JSON and merged back exactly.
//!
//! [`compute`] counts the games of some inputs into [`StatsCounts`] (which merge exactly:
//! counts of parts add up to the counts of the whole); [`write_table`] writes its cells as
//! the rows `pgn960 stats` writes; [`merge_csv`] adds up tables written earlier, tested
//! within the strata of the strata tables written beside them ([`write_strata`]) as one
//! run over the whole is.
//!
//! ```
//! use pgn960::stats::{compute, write_table, StatsOptions, TextFormat};
//!
//! let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
//! let counts = compute(&[fixtures.join("sample.pgn")], &StatsOptions::default())?;
//! assert!(counts.counted > 0);
//! let mut csv = Vec::new();
//! let tables = &counts.tables;
//! write_table(&mut csv, &tables.keys, tables.sp_cells(), false, TextFormat::Csv, |_| {})?;
//! assert_eq!(String::from_utf8_lossy(&csv).lines().count(), 961);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod by;
pub mod exact;
mod game;
pub mod groups;
mod left_out;
mod merge;
pub mod pairs;
pub mod pentanomial;
mod report;
pub mod significance;
mod strata;
pub mod table;
mod write;

pub use by::StrataKey;
pub use game::{black_moves_first, count_chunk, note_eval, Excluded, StatsCounts, StatsOptions};
pub use left_out::{
    why_nothing_counted, LeftOut, NO_RESULT_IN_TAGS, TREE_NEEDS_MOVES, TRY_HEADERS_ONLY,
};
pub use merge::{merge_csv, MergedTables, TableKind};
pub use report::{cell_report, dfrc_cell_report, pairs_report, CellReport, PairsReport};
pub use strata::{strata_header, write_strata, STRATUM_COLUMN_PREFIX};
pub use write::{write_pairs, write_table, TextFormat};

use crate::fold::{fold_inputs, FoldOptions};
use crate::Result;
use std::path::PathBuf;

/// Counts the games of `inputs` (paths; directories walked) in parallel: the per-SP and
/// Double Chess960 tables, the games left out and why, and with `options.pairs` the
/// counted games in input order for [`pairs::Pairer`].
pub fn compute(inputs: &[PathBuf], options: &StatsOptions) -> Result<StatsCounts> {
    let mut counts = StatsCounts::new(options.by.clone());
    counts.tables.strata = options.strata;
    let fold = FoldOptions {
        threads: options.threads,
        max_game_bytes: options.max_game_bytes,
        stop: options.stop,
        range: options.range,
    };
    fold_inputs(
        inputs,
        &fold,
        |bytes, origin| count_chunk(bytes, origin, options),
        |chunk| counts.merge(chunk),
    )?;
    Ok(counts)
}
