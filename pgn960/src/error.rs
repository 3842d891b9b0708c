//! The errors of reading archives: each names the input and, where it can, the byte.

use std::io;
use std::path::PathBuf;

/// Why reading an input stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input could not be opened or read.
    #[error("cannot read {name}: {cause}")]
    Io {
        /// The input (a path, or `<stdin>`).
        name: String,
        /// The error, in the message (not also its `source()`, so that a chain printer
        /// such as anyhow's `{:#}` says it once).
        cause: io::Error,
    },
    /// An input stopped being readable (or decodable) part of the way through.
    #[error("cannot read past byte {offset} of the (decoded) input: {cause}")]
    ReadAt {
        /// Decoded bytes read before the error.
        offset: usize,
        /// The error, in the message (not also its `source()`, so that a chain printer
        /// such as anyhow's `{:#}` says it once).
        cause: io::Error,
    },
    /// A directory given as input holds no file of a known kind.
    #[error("no PGN files below {} (looked for {})", .dir.display(), crate::compression::pgn_patterns())]
    EmptyDirectory {
        /// The directory.
        dir: PathBuf,
    },
    /// A memory-mapped input changed length while it was read.
    #[error("{} changed size while it was read ({before} -> {after} bytes): results for it are unreliable", .path.display())]
    Changed {
        /// The file.
        path: PathBuf,
        /// Its length when mapped.
        before: u64,
        /// Its length afterwards.
        after: u64,
    },
    /// The run was asked to stop (see [`crate::pipeline::PipelineOptions::stop`]).
    #[error("interrupted")]
    Interrupted,
    /// A worker panicked on a part of the input: a bug, reported with where.
    #[error("internal error while processing bytes {start}..{end} (please report it with that part of the file)")]
    Internal {
        /// First byte of the part.
        start: usize,
        /// End of the part.
        end: usize,
    },
    /// A Parquet input that cannot be read as games (not Parquet, no `movetext` column, a
    /// damaged row group).
    #[error("cannot read {name} as a Parquet table of games: {message}")]
    Parquet {
        /// The input.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// A byte range that cannot be read (see [`crate::range`]).
    #[error("cannot read a range of {name}: {message}")]
    Range {
        /// The input.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// An input or a table whose content cannot be used: a format not read, no game in
    /// it, a table that is not one pgn960 writes (the message says which row).
    #[error("{name}: {message}")]
    Content {
        /// The input or table.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// A game that the memory left cannot hold (the limit lifted by `--max-game-bytes 0`,
    /// or memory limited below what the limit needs).
    #[error("not enough memory for the game at line {line}: {message}")]
    OutOfMemory {
        /// The game's first line.
        line: u64,
        /// What could not be held, and what to do.
        message: String,
    },
    /// The worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// An error while reading an input (see [`crate::driver`]), naming the input; the error
    /// itself is its `source()`.
    #[error("while reading {name}")]
    Reading {
        /// The input.
        name: String,
        /// What went wrong.
        source: Box<Error>,
    },
}

impl Error {
    /// The error behind [`Error::Reading`]'s naming of the input (itself otherwise).
    pub fn innermost(&self) -> &Error {
        match self {
            Error::Reading { source, .. } => source.innermost(),
            other => other,
        }
    }
}

/// A `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
