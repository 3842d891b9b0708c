//! Chess960 games validated: read PGN archives, replay every game under Chess960 rules
//! (classical chess being start position 518), and get a verdict and a record per game.
//!
//! An [`Archive`] opens a path (plain files are memory-mapped; zstd, gzip and bzip2 are
//! recognised by content, and so are Parquet tables of games in the lichess dataset schema,
//! with the default `parquet` feature: see [`parquet`]), standard input, any reader or bytes
//! in memory, and yields a
//! [`GameRecord`] per game in input order: on the calling thread ([`Archive::records`])
//! or on a thread pool ([`Archive::par_records`]). A record holds the verdict (valid, with
//! the start position, its SP number, the final position, the result and the repairs made;
//! another variant; or invalid, with the reason and where), the tags, and on request the
//! main-line moves with their SAN, UCI and `[%clk]`/`[%eval]` annotations.
//!
//! ```no_run
//! use pgn960::Archive;
//!
//! fn main() -> Result<(), pgn960::Error> {
//!     for record in Archive::open("lichess_db_chess960_rated_2024-01.pgn.zst")?.records() {
//!         let record = record?;
//!         if let Some(game) = record.valid() {
//!             println!("SP {:?}: {}", game.sp(), game.final_xfen());
//!         }
//!     }
//!     Ok(())
//! }
//! ```
//!
//! The analyses of the command line are here too, as plain functions over inputs and
//! options returning plain data: [`stats::compute`] (per-SP tables, `--by` cuts,
//! significance, pairs), [`tree::compute`] (opening trees) and the game filters of
//! [`select`]; their rows are written by [`stats::write_table`] and [`tree::write_tree`].
//!
//! This crate has no command-line dependencies (clap only behind the `clap` feature, for
//! the filters' flags); the `pgn960` binary (crate `pgn960-cli`) stands on it. Lower layers are public for programs that want them: [`validate`] (the
//! rules of a verdict, as a [`pgn_parse::Visitor`] or over a parsed game), [`pipeline`]
//! (chunks processed in parallel, results in input order) and [`input`].
//!
//! Unsafe code: the memory map of a plain file (`input`). If another process truncates a
//! mapped file while it is read, the process gets SIGBUS; a program reading files others
//! may shorten should handle that signal or read them as streams ([`Archive::from_reader`]).

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod annotations;
pub mod archive;
pub mod book;
pub mod compression;
mod direct_write;
pub mod driver;
mod error;
pub mod export;
pub mod facts;
pub mod fold;
pub mod input;
pub mod output;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod pipeline;
pub mod range;
mod records;
pub mod select;
pub mod sha256;
#[allow(unsafe_code)]
pub mod signals;
pub mod stats;
pub mod table;
#[cfg(test)]
mod test_rng;
pub mod tree;
pub mod validate;

pub use error::{Error, Result};
pub use records::{chunk_records, ChunkRecords, GameRecord, ParRecords, RecordOptions, Records};
pub use validate::{RejectReason, Repair, ValidGame, Verdict};

use input::Input;
use std::sync::Arc;

/// An input of games with the options for reading it.
pub struct Archive {
    input: Input,
    options: RecordOptions,
}

impl Archive {
    /// Opens a file: plain (memory-mapped), compressed with zstd, gzip or bzip2, or a
    /// Parquet table of games (recognised by content).
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Archive> {
        Ok(Archive::from_input(Input::open(path)?))
    }

    /// Standard input (decoded if compressed).
    pub fn stdin() -> Result<Archive> {
        Ok(Archive::from_input(Input::stdin()?))
    }

    /// Any reader (decoded if its bytes are compressed); `label` names it in records and
    /// messages.
    pub fn from_reader(
        label: &str,
        reader: impl std::io::Read + Send + 'static,
    ) -> Result<Archive> {
        Ok(Archive::from_input(Input::from_reader(label, reader)?))
    }

    /// PGN text in memory.
    pub fn from_bytes(label: &str, bytes: impl Into<Vec<u8>>) -> Archive {
        Archive::from_input(Input::from_bytes(label, bytes.into()))
    }

    /// An input opened with [`input`].
    pub fn from_input(input: Input) -> Archive {
        Archive {
            input,
            options: RecordOptions::default(),
        }
    }

    /// Keeps every main-line move of valid games ([`ValidGame::moves`]): SAN as written,
    /// canonical SAN, UCI_Chess960, clock and evaluation.
    pub fn with_moves(mut self) -> Archive {
        self.options.validate.moves = true;
        self
    }

    /// Sets every option at once.
    pub fn with_options(mut self, options: RecordOptions) -> Archive {
        self.options = options;
        self
    }

    /// The records, read and validated on the calling thread.
    pub fn records(self) -> Records {
        Records::new(self.input, self.options)
    }

    /// The records, validated on `threads` worker threads (0: one per core), in input
    /// order.
    pub fn par_records(self, threads: usize) -> Result<ParRecords> {
        let pool = Arc::new(pipeline::thread_pool(threads)?);
        Ok(ParRecords::new(self.input, self.options, pool))
    }
}
