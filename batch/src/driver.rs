//! The command line's side of the one input driver ([`pgn960::driver`]): the global options
//! every subcommand takes, a progress bar on standard error, and Ctrl-C as the stop flag.

use crate::progress::Progress;
use crate::signals::INTERRUPTED;
use anyhow::Result;
use pgn960::driver::DriverOptions;
pub use pgn960::driver::{games_head, require_games};
use pgn960::validate::MissingVariant;
use std::path::PathBuf;

/// The global options every subcommand takes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Globals {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Print nothing but errors (no summary, no problem lines, no progress bar).
    pub quiet: bool,
    /// Draw a progress bar (when standard error is a terminal).
    pub progress: bool,
    /// What games without a Variant tag are (`--variant`).
    pub variant: MissingVariant,
    /// Games of more bytes are rejected as `too-large`, never held whole (0: no limit).
    pub max_game_bytes: usize,
    /// The start taken for a game whose start is ambiguous (`--assume-sp`).
    pub assume_sp: Option<chess960_core::SpPair>,
}

/// One input of a run ([`pgn960::driver::InputRun`]), its sinks' errors anyhow's.
pub type InputRun<'d> = pgn960::driver::InputRun<'d, anyhow::Error>;

/// The library's driver, its sinks' errors anyhow's.
type LibraryDriver = pgn960::driver::Driver<anyhow::Error>;

/// A run over every input of a subcommand: [`pgn960::driver::Driver`] with a progress bar,
/// stopped by Ctrl-C.
pub struct Driver(LibraryDriver);

impl Driver {
    /// Expands `inputs`, starts the pool and the progress bar.
    pub fn new(inputs: &[PathBuf], globals: Globals) -> Result<Driver> {
        let options = DriverOptions {
            threads: globals.threads,
            max_game_bytes: globals.max_game_bytes,
            stop: Some(&INTERRUPTED),
        };
        let hidden = !globals.progress;
        let driver = LibraryDriver::new(inputs, options, |total| {
            Box::new(Progress::new(total, hidden))
        })?;
        Ok(Driver(driver))
    }

    /// Removes the progress bar; returns the seconds since the run started.
    pub fn finish(self) -> f64 {
        self.0.finish()
    }

    /// The library's driver, for an engine of the library to run.
    pub fn into_library(self) -> LibraryDriver {
        self.0
    }
}

impl std::ops::Deref for Driver {
    type Target = LibraryDriver;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Driver {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl pgn960::driver::Progress for Progress {
    fn advance(&mut self, bytes: u64, games: u64) {
        Progress::advance(self, bytes, games);
    }
    fn finish(&mut self) {
        Progress::finish(self);
    }
}
