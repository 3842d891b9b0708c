//! Every input of a run folded in input order: each opened, refused when its bytes are of a
//! format not read, cut into chunks of games processed on a thread pool, and the chunks'
//! results handed to one sink in input order. What [`crate::stats::compute`] and
//! [`crate::tree::compute`] stand on; the command line adds a progress bar to the same steps.

use crate::input::{self, InputName};
use crate::pipeline::{self, ChunkOutput, PipelineOptions};
use crate::range::ByteRange;
use crate::{Error, Result};
use pgn_parse::Origin;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// How a fold reads its inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct FoldOptions {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Games of more bytes are rejected as `too-large` (0: no limit).
    pub max_game_bytes: usize,
    /// Checked between chunks: when set, the fold stops with [`Error::Interrupted`].
    pub stop: Option<&'static AtomicBool>,
    /// Only the games of this byte range of the one input (a partition of a plain file;
    /// a compressed file's or a Parquet table's only range is the whole). A range may hold
    /// no game.
    pub range: Option<ByteRange>,
}

/// Runs `process` over every chunk of games of every input (paths, directories walked) and
/// `sink` over the results in input order. An input of a format not read, or in which no
/// game is found (in the whole of it: a range may hold none), is an [`Error::Content`]
/// saying what its bytes look like. With [`FoldOptions::range`], `inputs` must name one
/// file.
pub fn fold_inputs<T: Send + ChunkOutput>(
    inputs: &[PathBuf],
    options: &FoldOptions,
    process: impl Fn(&[u8], Origin) -> T + Sync,
    mut sink: impl FnMut(T),
) -> Result<()> {
    let names = input::expand_inputs(inputs)?;
    if let (Some(_), [_, _, ..]) = (options.range, names.as_slice()) {
        return Err(Error::Range {
            name: names[0].to_string(),
            message: format!("a byte range is of one file, not of {} inputs", names.len()),
        });
    }
    let pool = pipeline::thread_pool(options.threads)?;
    let pipeline_options = PipelineOptions {
        stop: options.stop,
        max_game_bytes: options.max_game_bytes,
        ..PipelineOptions::default()
    };
    for name in &names {
        let mut input = input::open(name)?;
        let head = input.peek(256)?;
        if let Some(format) = crate::compression::unsupported_format(&head) {
            return Err(content(name, format));
        }
        let pipeline_options = match options.range {
            Some(range) => range.options(&input, pipeline_options)?,
            None => pipeline_options,
        };
        let mut games = 0;
        pipeline::run(
            &mut input,
            &pool,
            &pipeline_options,
            &process,
            |value: T, _| {
                games += value.games();
                sink(value);
                Ok::<(), Error>(())
            },
        )?;
        if games == 0 && options.range.is_none() {
            let what = crate::compression::describe_bytes(&head);
            return Err(content(name, format!("no game found: {what}")));
        }
    }
    Ok(())
}

fn content(name: &InputName, message: String) -> Error {
    Error::Content {
        name: name.to_string(),
        message,
    }
}
