//! The one input driver of the subcommands that read games or FEN lists: inputs expanded
//! (directories walked), a thread pool, a progress bar, each input opened and cut into
//! chunks processed in parallel, results handed over in input order with absolute lines
//! and game indices, and the run stopped cleanly on Ctrl-C.

use crate::progress::Progress;
use crate::signals::INTERRUPTED;
use anyhow::{bail, Result};
use pgn960::input::{self, Input, InputName};
use pgn960::pipeline::{self, ChunkInfo, ChunkOutput, Cut, PipelineOptions};
use pgn960::validate::MissingVariant;
use pgn_parse::Origin;
use std::path::PathBuf;
use std::time::Instant;

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
    pub assume_sp: Option<u16>,
}

/// A run over every input of a subcommand.
pub struct Driver {
    names: Vec<InputName>,
    max_game_bytes: usize,
    pool: rayon::ThreadPool,
    progress: Progress,
    started: Instant,
}

/// One input of a run, open, with what [`InputRun::run`] needs.
pub struct InputRun<'d> {
    /// The input's name.
    pub name: &'d InputName,
    /// The open input.
    pub input: Input,
    pool: &'d rayon::ThreadPool,
    progress: &'d mut Progress,
    max_game_bytes: usize,
}

impl Driver {
    /// Expands `inputs`, starts the pool and the progress bar.
    pub fn new(inputs: &[PathBuf], globals: Globals) -> Result<Driver> {
        let started = Instant::now();
        let names = input::expand_inputs(inputs)?;
        let pool = pipeline::thread_pool(globals.threads)?;
        let progress = Progress::new(input::total_size(&names), !globals.progress);
        Ok(Driver {
            names,
            max_game_bytes: globals.max_game_bytes,
            pool,
            progress,
            started,
        })
    }

    /// The inputs, expanded, in order.
    pub fn names(&self) -> &[InputName] {
        &self.names
    }

    /// Opens every input in turn and hands it to `job`, which runs it with
    /// [`InputRun::run`].
    pub fn for_each_input(
        &mut self,
        mut job: impl FnMut(&mut InputRun<'_>) -> Result<()>,
    ) -> Result<()> {
        for name in &self.names {
            let input = input::open(name)?;
            let mut run = InputRun {
                name,
                input,
                pool: &self.pool,
                progress: &mut self.progress,
                max_game_bytes: self.max_game_bytes,
            };
            job(&mut run)?;
        }
        Ok(())
    }

    /// Runs `process` over every chunk of every input of games and `sink` over the results
    /// in input order. An input in which no game is found is an error saying what its
    /// bytes look like.
    pub fn run<T: Send + ChunkOutput>(
        &mut self,
        process: impl Fn(&[u8], Origin) -> T + Sync,
        mut sink: impl FnMut(&InputName, T, &ChunkInfo) -> Result<()>,
    ) -> Result<()> {
        self.for_each_input(|run| {
            let (name, head) = (run.name, games_head(run)?);
            let mut games = 0;
            run.run(Cut::Games, &process, |value, info| {
                games += value.games();
                sink(name, value, info)
            })?;
            require_games(name, games, &head)
        })
    }

    /// [`Driver::run`] with `sink` called by the workers, in input order and one at a time
    /// ([`pipeline::run_chunks_committed`]): for a sink that writes outputs.
    pub fn run_committed<T: Send + ChunkOutput>(
        &mut self,
        process: impl Fn(&[u8], Origin) -> T + Sync,
        mut sink: impl FnMut(&InputName, T, &ChunkInfo) -> Result<()> + Send,
    ) -> Result<()> {
        self.for_each_input(|run| {
            let (name, head) = (run.name, games_head(run)?);
            let mut games = 0;
            let options = run.options(Cut::Games, PipelineOptions::default().chunk_bytes, false);
            let progress = &mut *run.progress;
            pipeline::run_chunks_committed(
                &mut run.input,
                run.pool,
                &options,
                |bytes, origin, _| process(bytes, origin),
                |value: T, info| {
                    let chunk_games = value.games();
                    games += chunk_games;
                    sink(name, value, &info).map_err(OutputError::wrap)?;
                    progress.advance(info.source_bytes, chunk_games);
                    Ok::<(), anyhow::Error>(())
                },
            )
            .map_err(|e| OutputError::or_reading(e, name))?;
            require_games(name, games, &head)
        })
    }

    /// [`Driver::run`] over game chunks of about `chunk_bytes`, with `process` also given
    /// the input's name and the chunk's [`ChunkInfo`] with its absolute first line (lines
    /// counted on the calling thread as chunks are cut).
    pub fn run_chunks<T: Send + ChunkOutput>(
        &mut self,
        chunk_bytes: usize,
        process: impl Fn(&InputName, &[u8], Origin, &ChunkInfo) -> T + Sync,
        mut sink: impl FnMut(&InputName, T, &ChunkInfo) -> Result<()>,
    ) -> Result<()> {
        self.for_each_input(|run| {
            let name = run.name;
            let process = &process;
            run.run_chunks(
                chunk_bytes,
                |bytes, origin, info| process(name, bytes, origin, info),
                |value, info| sink(name, value, info),
            )
        })
    }

    /// Removes the progress bar; returns the seconds since the run started.
    pub fn finish(self) -> f64 {
        self.progress.finish();
        self.started.elapsed().as_secs_f64()
    }
}

/// The first bytes of an input of games, refused when they are of a format not read.
pub(crate) fn games_head(run: &mut InputRun<'_>) -> Result<Vec<u8>> {
    let head = run.input.peek(256)?;
    if let Some(format) = pgn960::compression::unsupported_format(&head) {
        bail!("{}: {format}", run.name);
    }
    Ok(head)
}

/// An input in which no game was found is an error saying what its first bytes look like.
pub(crate) fn require_games(name: &InputName, games: u64, head: &[u8]) -> Result<()> {
    if games == 0 {
        bail!(
            "{name}: no game found: {}",
            pgn960::compression::describe_bytes(head)
        );
    }
    Ok(())
}

impl InputRun<'_> {
    /// Runs `process` over every chunk of this input and `sink` over the results in input
    /// order, advancing the progress bar.
    pub fn run<T: Send + ChunkOutput>(
        &mut self,
        cut: Cut,
        process: impl Fn(&[u8], Origin) -> T + Sync,
        sink: impl FnMut(T, &ChunkInfo) -> Result<()>,
    ) -> Result<()> {
        let chunk_bytes = PipelineOptions::default().chunk_bytes;
        self.run_with(cut, chunk_bytes, false, |b, o, _| process(b, o), sink)
    }

    /// Runs `process` over every game chunk of about `chunk_bytes` of this input, given
    /// the chunk's absolute first line, and `sink` over the results in input order.
    pub fn run_chunks<T: Send + ChunkOutput>(
        &mut self,
        chunk_bytes: usize,
        process: impl Fn(&[u8], Origin, &ChunkInfo) -> T + Sync,
        sink: impl FnMut(T, &ChunkInfo) -> Result<()>,
    ) -> Result<()> {
        self.run_with(Cut::Games, chunk_bytes, true, process, sink)
    }

    /// The pipeline options of this run.
    fn options(&self, cut: Cut, chunk_bytes: usize, lines_at_cut: bool) -> PipelineOptions {
        PipelineOptions {
            cut,
            chunk_bytes,
            stop: Some(&INTERRUPTED),
            max_game_bytes: self.max_game_bytes,
            lines_at_cut,
            ..PipelineOptions::default()
        }
    }

    fn run_with<T: Send + ChunkOutput>(
        &mut self,
        cut: Cut,
        chunk_bytes: usize,
        lines_at_cut: bool,
        process: impl Fn(&[u8], Origin, &ChunkInfo) -> T + Sync,
        mut sink: impl FnMut(T, &ChunkInfo) -> Result<()>,
    ) -> Result<()> {
        let options = self.options(cut, chunk_bytes, lines_at_cut);
        let progress = &mut *self.progress;
        pipeline::run_chunks(
            &mut self.input,
            self.pool,
            &options,
            process,
            |value: T, info| {
                let games = value.games();
                sink(value, &info).map_err(OutputError::wrap)?;
                progress.advance(info.source_bytes, games);
                Ok::<(), anyhow::Error>(())
            },
        )
        .map_err(|e| OutputError::or_reading(e, self.name))
    }
}

/// An error of a command's sink (its outputs), carried through the reading loop so that it
/// is not called an error "while reading" the input (a full disk named the input).
#[derive(Debug)]
struct OutputError(anyhow::Error);

impl OutputError {
    fn wrap(error: anyhow::Error) -> anyhow::Error {
        anyhow::Error::new(OutputError(error))
    }

    /// The sink's error as it was; any other error is one while reading `name`.
    fn or_reading(error: anyhow::Error, name: &InputName) -> anyhow::Error {
        match error.downcast::<OutputError>() {
            Ok(OutputError(error)) => error,
            Err(error) => error.context(format!("while reading {name}")),
        }
    }
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for OutputError {}
