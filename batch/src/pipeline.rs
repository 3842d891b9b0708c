//! The parallel pipeline: an input cut into chunks of whole games, chunks processed on a
//! rayon pool, results handed to a sink strictly in input order.
//!
//! The calling thread reads the input (mapped slices, or blocks from a stream), spawns one
//! job per chunk with at most a few jobs per thread in flight, and feeds finished results
//! through a reorder buffer to the sink while the workers go on: there is no barrier
//! between batches, and memory is bounded by the in-flight limit, whatever the input size.

use crate::input::{Input, Source};
use anyhow::{anyhow, Context, Result};
use pgn_parse::{split_at_game_boundaries, Origin, StreamReader};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

/// Where a chunk was in its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkInfo {
    /// Absolute byte offset of the chunk's first byte.
    pub offset: usize,
    /// Its length in bytes.
    pub len: usize,
    /// Bytes of the underlying input (the compressed file, for compressed inputs) read
    /// since the previous chunk: what a progress bar over file sizes advances by.
    pub source_bytes: u64,
}

/// Where chunks may be cut: at game boundaries (PGN) or after line breaks (FEN/EPD lists).
pub use pgn_parse::Cut;

/// How to cut and schedule.
#[derive(Debug, Clone, Copy)]
pub struct PipelineOptions {
    /// Target chunk size in bytes.
    pub chunk_bytes: usize,
    /// Where chunks may be cut.
    pub cut: Cut,
    /// Jobs in flight per worker thread.
    pub in_flight_per_thread: usize,
}

impl Default for PipelineOptions {
    fn default() -> PipelineOptions {
        PipelineOptions {
            chunk_bytes: 2 << 20,
            cut: Cut::Games,
            in_flight_per_thread: 4,
        }
    }
}

/// Set by the Ctrl-C handler; the pipeline stops spawning when it is set.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The error returned when the run was interrupted.
#[derive(Debug)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// Yields the next chunk of an input, with where to read it from.
type ChunkSource<'a> = Box<dyn FnMut() -> Result<Option<(ChunkData<'a>, Origin, ChunkInfo)>> + 'a>;

enum ChunkData<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

/// Runs `process` over every chunk of `input` on `pool`, and `sink` over the results in
/// input order. A panic inside `process` becomes an error, not a crash.
///
/// Afterwards, a memory-mapped input whose file changed length during the run is an
/// error (see [`crate::input::check_unchanged`]).
pub fn run<T, P, S>(
    input: &mut Input,
    pool: &rayon::ThreadPool,
    options: PipelineOptions,
    process: P,
    mut sink: S,
) -> Result<()>
where
    T: Send,
    P: Fn(&[u8], Origin) -> T + Sync,
    S: FnMut(T, ChunkInfo) -> Result<()>,
{
    let max_in_flight =
        (pool.current_num_threads() * options.in_flight_per_thread.max(1)).max(2) as u64;
    let mut next_chunk: ChunkSource<'_> = match &mut input.source {
        Source::Whole(bytes) => {
            let bytes: &[u8] = bytes;
            let chunks = match options.cut {
                Cut::Games => split_at_game_boundaries(bytes, options.chunk_bytes),
                Cut::Lines => split_at_lines(bytes, options.chunk_bytes),
            };
            let mut chunks = chunks.into_iter();
            Box::new(move || {
                Ok(chunks.next().map(|c| {
                    let info = ChunkInfo {
                        offset: c.range.start,
                        len: c.range.len(),
                        source_bytes: c.range.len() as u64,
                    };
                    (
                        ChunkData::Borrowed(&bytes[c.range.clone()]),
                        c.origin(),
                        info,
                    )
                }))
            })
        }
        Source::Stream {
            reader,
            compressed_read,
            ..
        } => {
            let compressed_read = compressed_read.clone();
            let mut last_read = 0u64;
            let mut source_advance = move |decoded_read: u64| {
                let now = compressed_read
                    .as_ref()
                    .map_or(decoded_read, |c| c.load(Ordering::Relaxed));
                let advance = now.saturating_sub(last_read);
                last_read = now;
                advance
            };
            let mut stream =
                StreamReader::with_block_size(reader, options.chunk_bytes).with_cut(options.cut);
            Box::new(move || {
                let block = stream.next_block()?;
                Ok(block.map(|b| {
                    let origin = Origin {
                        line: 1,
                        ..b.origin()
                    };
                    let info = ChunkInfo {
                        offset: b.offset,
                        len: b.data.len(),
                        source_bytes: source_advance(stream.bytes_read()),
                    };
                    (ChunkData::Owned(b.data), origin, info)
                }))
            })
        }
    };
    let process = &process;
    let outcome = pool.in_place_scope(|scope| -> Result<()> {
        let (tx, rx) = std::sync::mpsc::channel::<(u64, std::thread::Result<T>, ChunkInfo)>();
        let (mut spawned, mut emitted) = (0u64, 0u64);
        let mut pending: BTreeMap<u64, (std::thread::Result<T>, ChunkInfo)> = BTreeMap::new();
        let mut exhausted = false;
        let mut read_to = 0usize;
        loop {
            while !exhausted && spawned - emitted < max_in_flight {
                if INTERRUPTED.load(Ordering::Relaxed) {
                    return Err(Interrupted.into());
                }
                let chunk = next_chunk().with_context(|| {
                    format!("cannot read past byte {read_to} of the (decoded) input")
                })?;
                match chunk {
                    Some((data, origin, info)) => {
                        read_to = info.offset + info.len;
                        let tx = tx.clone();
                        let id = spawned;
                        scope.spawn(move |_| {
                            let result = catch_unwind(AssertUnwindSafe(|| match &data {
                                ChunkData::Borrowed(b) => process(b, origin),
                                ChunkData::Owned(v) => process(v, origin),
                            }));
                            let _ = tx.send((id, result, info));
                        });
                        spawned += 1;
                    }
                    None => exhausted = true,
                }
            }
            if emitted == spawned {
                return Ok(());
            }
            let (id, result, info) = rx
                .recv()
                .map_err(|_| anyhow!("a worker thread stopped without a result"))?;
            pending.insert(id, (result, info));
            while let Some((result, info)) = pending.remove(&emitted) {
                emitted += 1;
                match result {
                    Ok(value) => sink(value, info)?,
                    Err(_) => {
                        return Err(anyhow!(
                            "internal error while processing bytes {}..{} (please report it with that part of the file)",
                            info.offset,
                            info.offset + info.len
                        ))
                    }
                }
                if INTERRUPTED.load(Ordering::Relaxed) {
                    return Err(Interrupted.into());
                }
            }
        }
    });
    drop(next_chunk);
    outcome?;
    crate::input::check_unchanged(input)
}

/// Cuts `input` into chunks of about `target` bytes, each ending after a line break.
pub fn split_at_lines(input: &[u8], target: usize) -> Vec<pgn_parse::Chunk> {
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let want = (start + target.max(1)).min(input.len());
        let end = match input[want..].iter().position(|&b| b == b'\n') {
            Some(i) => want + i + 1,
            None => input.len(),
        };
        chunks.push(pgn_parse::Chunk {
            range: start..end,
            followed_by_game: end < input.len(),
        });
        start = end;
    }
    chunks
}

/// A pool of `threads` workers (0 = one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("pgn960-worker-{i}"))
        .build()
        .map_err(|e| anyhow!("cannot start worker threads: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Bytes, InputName};

    fn sample(games: usize) -> Vec<u8> {
        let mut s = String::new();
        for i in 0..games {
            s.push_str(&format!(
                "[Event \"g{i}\"]\n\n1. e4 {{ [%clk 0:01:00] }} e5 *\n\n"
            ));
        }
        s.into_bytes()
    }

    fn collect(input: &mut Input, threads: usize, chunk: usize) -> Vec<u8> {
        let pool = thread_pool(threads).unwrap();
        let mut out = Vec::new();
        let options = PipelineOptions {
            chunk_bytes: chunk,
            cut: Cut::Games,
            in_flight_per_thread: 2,
        };
        run(
            input,
            &pool,
            options,
            |bytes, _| bytes.to_ascii_uppercase(),
            |v, _| {
                out.extend_from_slice(&v);
                Ok(())
            },
        )
        .unwrap();
        out
    }

    #[test]
    fn output_is_in_input_order_whatever_the_thread_count() {
        let data = sample(20_000);
        let expected = data.to_ascii_uppercase();
        for threads in [1, 2, 8] {
            let mut input = Input {
                name: InputName::Stdin,
                source: Source::Whole(Bytes::Owned(data.clone())),
            };
            assert_eq!(
                collect(&mut input, threads, 4096),
                expected,
                "{threads} threads"
            );
            let mut stream = Input {
                name: InputName::Stdin,
                source: Source::Stream {
                    reader: Box::new(std::io::Cursor::new(data.clone())),
                    compressed_size: None,
                    compressed_read: None,
                },
            };
            assert_eq!(
                collect(&mut stream, threads, 4096),
                expected,
                "stream, {threads} threads"
            );
        }
    }

    #[test]
    fn a_panic_in_a_worker_is_an_error() {
        let pool = thread_pool(2).unwrap();
        let mut input = Input {
            name: InputName::Stdin,
            source: Source::Whole(Bytes::Owned(sample(100))),
        };
        let result = run(
            &mut input,
            &pool,
            PipelineOptions::default(),
            |_, _| -> u8 { panic!("boom") },
            |_, _| Ok(()),
        );
        assert!(result.is_err());
    }
}
