//! What `check` and `clean` share is the library's [`pgn960::archive`] (judging chunks,
//! rendering kept games, the counts), run here over the command line's driver; what
//! `filter` and `split` share is the library's [`pick`].

pub use pgn960::archive::pick;

use crate::driver::{Driver, Globals};
use anyhow::Result;
pub use pgn960::archive::{
    chunk, location, reject_row, render, summary, summary_text, ArchiveOptions, ArchiveSummary,
    Outputs, RejectRow,
};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Runs the archive job over all inputs, the counting on the calling thread. `on_reject`
/// sees every rejected game in order.
pub fn run(
    inputs: &[PathBuf],
    globals: Globals,
    opts: &ArchiveOptions,
    outputs: &mut Outputs,
    on_reject: &mut dyn FnMut(&RejectRow),
) -> Result<ArchiveSummary> {
    let driver = Driver::new(inputs, globals)?;
    pgn960::archive::run(
        driver.into_library(),
        &with_globals(opts, globals),
        outputs,
        on_reject,
    )
}

/// Runs the archive job over all inputs, writing `outputs` ([`pgn960::archive::write`]).
pub fn write(
    inputs: &[PathBuf],
    globals: Globals,
    opts: &ArchiveOptions,
    outputs: &mut Outputs,
) -> Result<ArchiveSummary> {
    let driver = Driver::new(inputs, globals)?;
    pgn960::archive::write(driver.into_library(), &with_globals(opts, globals), outputs)
}

/// `opts` with what the global options say of games: `--variant`, `--max-game-bytes`.
pub fn with_globals(opts: &ArchiveOptions, globals: Globals) -> ArchiveOptions {
    ArchiveOptions {
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
        ..opts.clone()
    }
}

/// Writes a value as pretty JSON, with a final line break.
pub fn write_json(out: &mut impl Write, value: &impl Serialize) -> Result<()> {
    Ok(pgn960::archive::clean::write_json(out, value)?)
}

/// Writes a JSON report atomically.
pub fn write_json_report(
    path: &std::path::Path,
    value: &impl Serialize,
    inputs: &[PathBuf],
) -> Result<()> {
    let mut sink = crate::output::Sink::create(path, inputs)?;
    write_json(&mut sink, value)?;
    Ok(sink.commit()?)
}
