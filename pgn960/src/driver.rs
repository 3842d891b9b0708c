//! The one input driver of the runs that read games or FEN lists: inputs expanded
//! (directories walked), a thread pool, progress reported, each input opened and cut into
//! chunks processed in parallel, results handed over in input order with absolute lines
//! and game indices, and the run stopped cleanly when its stop flag is set (Ctrl-C).
//!
//! Errors are the caller's type `E` (anyhow's for the command line): a sink's errors come
//! back as they were; an error of reading an input is an [`Error::Reading`] naming it.

use crate::input::{self, Input, InputName};
use crate::pipeline::{self, ChunkInfo, ChunkOutput, Cut, PipelineOptions};
use crate::{Error, Result};
use pgn_parse::Origin;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What a run tells as it goes (the command line draws a progress bar from it).
pub trait Progress: Send {
    /// `bytes` more input bytes and `games` more games were handed over.
    fn advance(&mut self, bytes: u64, games: u64);
    /// The run is over.
    fn finish(&mut self) {}
}

/// No progress shown.
impl Progress for () {
    fn advance(&mut self, _: u64, _: u64) {}
}

/// How a run reads its inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct DriverOptions {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Games of more bytes are rejected as `too-large`, never held whole (0: no limit).
    pub max_game_bytes: usize,
    /// Checked between chunks: when set, the run stops with [`Error::Interrupted`].
    pub stop: Option<&'static AtomicBool>,
}

/// A run over every input, its errors of type `E` (its sinks' type; an error of reading is
/// made one by `From`).
pub struct Driver<E = Error> {
    names: Vec<InputName>,
    options: DriverOptions,
    pool: rayon::ThreadPool,
    progress: Box<dyn Progress>,
    started: Instant,
    errors: PhantomData<fn() -> E>,
}

/// One input of a run, open, with what [`InputRun::run`] needs.
pub struct InputRun<'d, E = Error> {
    /// The input's name.
    pub name: &'d InputName,
    /// The open input.
    pub input: Input,
    pool: &'d rayon::ThreadPool,
    progress: &'d mut dyn Progress,
    options: DriverOptions,
    errors: PhantomData<fn() -> E>,
}

impl<E: From<Error>> Driver<E> {
    /// Expands `inputs` and starts the pool; `progress` is made for the inputs' total size
    /// (unknown for standard input).
    pub fn new(
        inputs: &[PathBuf],
        options: DriverOptions,
        progress: impl FnOnce(Option<u64>) -> Box<dyn Progress>,
    ) -> Result<Driver<E>> {
        let started = Instant::now();
        let names = input::expand_inputs(inputs)?;
        let pool = pipeline::thread_pool(options.threads)?;
        let progress = progress(input::total_size(&names));
        Ok(Driver {
            names,
            options,
            pool,
            progress,
            started,
            errors: PhantomData,
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
        mut job: impl FnMut(&mut InputRun<'_, E>) -> Result<(), E>,
    ) -> Result<(), E> {
        for name in &self.names {
            let input = input::open(name)?;
            let mut run = InputRun {
                name,
                input,
                pool: &self.pool,
                progress: &mut *self.progress,
                options: self.options,
                errors: PhantomData,
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
        mut sink: impl FnMut(&InputName, T, &ChunkInfo) -> Result<(), E>,
    ) -> Result<(), E> {
        self.for_each_input(|run| {
            let (name, head) = (run.name, games_head(run)?);
            let mut games = 0;
            run.run(Cut::Games, &process, |value, info| {
                games += value.games();
                sink(name, value, info)
            })?;
            Ok(require_games(name, games, &head)?)
        })
    }

    /// [`Driver::run`] with `sink` called by the workers, in input order and one at a time
    /// ([`pipeline::run_chunks_committed`]): for a sink that writes outputs.
    pub fn run_committed<T: Send + ChunkOutput>(
        &mut self,
        process: impl Fn(&[u8], Origin) -> T + Sync,
        mut sink: impl FnMut(&InputName, T, &ChunkInfo) -> Result<(), E> + Send,
    ) -> Result<(), E>
    where
        E: Send,
    {
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
                    sink(name, value, &info).map_err(Stop::Sink)?;
                    progress.advance(info.source_bytes, chunk_games);
                    Ok(())
                },
            )
            .map_err(|e: Stop<E>| e.or_reading(name))?;
            Ok(require_games(name, games, &head)?)
        })
    }

    /// [`Driver::run`] over game chunks of about `chunk_bytes`, with `process` also given
    /// the input's name and the chunk's [`ChunkInfo`]; with `lines_at_cut`, its absolute
    /// first line (lines counted on the calling thread as chunks are cut; a Parquet
    /// input's always).
    pub fn run_chunks<T: Send + ChunkOutput>(
        &mut self,
        chunk_bytes: usize,
        lines_at_cut: bool,
        process: impl Fn(&InputName, &[u8], Origin, &ChunkInfo) -> T + Sync,
        mut sink: impl FnMut(&InputName, T, &ChunkInfo) -> Result<(), E>,
    ) -> Result<(), E> {
        self.for_each_input(|run| {
            let name = run.name;
            let process = &process;
            run.run_chunks(
                chunk_bytes,
                lines_at_cut,
                |bytes, origin, info| process(name, bytes, origin, info),
                |value, info| sink(name, value, info),
            )
        })
    }

    /// Ends the progress report; returns the seconds since the run started.
    pub fn finish(mut self) -> f64 {
        self.progress.finish();
        self.started.elapsed().as_secs_f64()
    }
}

/// The first bytes of an input of games, refused when they are of a format not read.
pub fn games_head<E>(run: &mut InputRun<'_, E>) -> Result<Vec<u8>> {
    let head = run.input.peek(256)?;
    if let Some(format) = crate::compression::unsupported_format(&head) {
        return Err(Error::Content {
            name: run.name.to_string(),
            message: format.to_string(),
        });
    }
    Ok(head)
}

/// An input in which no game was found is an error saying what its first bytes look like.
pub fn require_games(name: &InputName, games: u64, head: &[u8]) -> Result<()> {
    if games == 0 {
        return Err(Error::Content {
            name: name.to_string(),
            message: format!(
                "no game found: {}",
                crate::compression::describe_bytes(head)
            ),
        });
    }
    Ok(())
}

impl<E: From<Error>> InputRun<'_, E> {
    /// Runs `process` over every chunk of this input and `sink` over the results in input
    /// order, reporting progress.
    pub fn run<T: Send + ChunkOutput>(
        &mut self,
        cut: Cut,
        process: impl Fn(&[u8], Origin) -> T + Sync,
        sink: impl FnMut(T, &ChunkInfo) -> Result<(), E>,
    ) -> Result<(), E> {
        let chunk_bytes = PipelineOptions::default().chunk_bytes;
        self.run_with(cut, chunk_bytes, false, |b, o, _| process(b, o), sink)
    }

    /// Runs `process` over every game chunk of about `chunk_bytes` of this input, given
    /// the chunk's [`ChunkInfo`] (with `lines_at_cut` its absolute first line), and
    /// `sink` over the results in input order.
    pub fn run_chunks<T: Send + ChunkOutput>(
        &mut self,
        chunk_bytes: usize,
        lines_at_cut: bool,
        process: impl Fn(&[u8], Origin, &ChunkInfo) -> T + Sync,
        sink: impl FnMut(T, &ChunkInfo) -> Result<(), E>,
    ) -> Result<(), E> {
        self.run_with(Cut::Games, chunk_bytes, lines_at_cut, process, sink)
    }

    /// The pipeline options of this run.
    fn options(&self, cut: Cut, chunk_bytes: usize, lines_at_cut: bool) -> PipelineOptions {
        PipelineOptions {
            cut,
            chunk_bytes,
            stop: self.options.stop,
            max_game_bytes: self.options.max_game_bytes,
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
        mut sink: impl FnMut(T, &ChunkInfo) -> Result<(), E>,
    ) -> Result<(), E> {
        let options = self.options(cut, chunk_bytes, lines_at_cut);
        let progress = &mut *self.progress;
        pipeline::run_chunks(
            &mut self.input,
            self.pool,
            &options,
            process,
            |value: T, info| {
                let games = value.games();
                sink(value, &info).map_err(Stop::Sink)?;
                progress.advance(info.source_bytes, games);
                Ok(())
            },
        )
        .map_err(|e: Stop<E>| e.or_reading(self.name))
    }
}

/// Why the pipeline stopped: a command's sink (its outputs) failed, or reading did; kept
/// apart so that a sink's error is not called an error "while reading" the input (a full
/// disk named the input).
enum Stop<E> {
    Sink(E),
    Reading(Error),
}

impl<E> From<Error> for Stop<E> {
    fn from(error: Error) -> Stop<E> {
        Stop::Reading(error)
    }
}

impl<E: From<Error>> Stop<E> {
    /// The sink's error as it was; any other error is one while reading `name`.
    fn or_reading(self, name: &InputName) -> E {
        match self {
            Stop::Sink(error) => error,
            Stop::Reading(error) => E::from(Error::Reading {
                name: name.to_string(),
                source: Box::new(error),
            }),
        }
    }
}
