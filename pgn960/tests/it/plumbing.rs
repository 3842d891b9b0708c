//! The plumbing every reader of archives shares: input expansion and decoding, the ordered
//! parallel pipeline.

use pgn960::input::{self, Input, InputName, Source};
use pgn960::pipeline::{self, ChunkOutput, Cut, PipelineOptions};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use test_support::{bzip2, gzip, zstd};

/// Numbered lines, about `bytes` long in all.
fn lines(bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes + 64);
    let mut i = 0u64;
    while out.len() < bytes {
        writeln!(
            out,
            "line {i} of the toy input, {}",
            "x".repeat((i % 50) as usize)
        )
        .unwrap();
        i += 1;
    }
    out
}

fn read_all(input: Input) -> Vec<u8> {
    match input.source {
        Source::Whole(bytes) => bytes.to_vec(),
        Source::Stream { mut reader, .. } => {
            let mut out = Vec::new();
            reader.read_to_end(&mut out).unwrap();
            out
        }
        #[allow(unreachable_patterns)]
        _ => panic!("not a PGN input"),
    }
}

fn files(names: &[InputName]) -> Vec<PathBuf> {
    names
        .iter()
        .map(|n| match n {
            InputName::File(p) => p.clone(),
            InputName::Stdin | InputName::Label(_) => PathBuf::from("-"),
        })
        .collect()
}

/// A chunk's bytes, upper-cased.
struct Upper(Vec<u8>);

impl ChunkOutput for Upper {
    fn games(&self) -> u64 {
        0
    }
}

/// Runs the pipeline with an uppercasing processor; returns the output and the sum of
/// `source_bytes` (what the progress bar advanced by).
fn uppercase(input: &mut Input, threads: usize, cut: Cut) -> (Vec<u8>, u64) {
    let pool = pipeline::thread_pool(threads).unwrap();
    let options = PipelineOptions {
        chunk_bytes: 64 << 10,
        cut,
        in_flight_per_thread: 2,
        stop: None,
        lines_at_cut: false,
        ..PipelineOptions::default()
    };
    let (mut out, mut source_bytes) = (Vec::new(), 0u64);
    pipeline::run(
        input,
        &pool,
        &options,
        |bytes, _| Upper(bytes.to_ascii_uppercase()),
        |chunk, info| {
            assert_eq!(chunk.0.len(), info.len);
            out.extend_from_slice(&chunk.0);
            source_bytes += info.source_bytes;
            Ok::<(), pgn960::Error>(())
        },
    )
    .unwrap();
    (out, source_bytes)
}

#[test]
fn directories_expand_to_sorted_pgn_files_and_link_loops_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for name in [
        "b.pgn",
        "a/z.pgn.gz",
        "a/c.txt",
        "a/y/x.PGN",
        "A.pgn.zst",
        "c.pgn.bz2",
        "c.pgn.tmp",
    ] {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"").unwrap();
    }
    std::os::unix::fs::symlink(root, root.join("a/loop")).unwrap();
    std::os::unix::fs::symlink(root.join("b.pgn"), root.join("link.pgn")).unwrap();
    let names = input::expand_inputs(&[root.to_path_buf(), PathBuf::from("-"), root.join("b.pgn")])
        .unwrap();
    let expected: Vec<PathBuf> = [
        "A.pgn.zst",
        "a/y/x.PGN",
        "a/z.pgn.gz",
        "b.pgn",
        "c.pgn.bz2",
        "link.pgn",
    ]
    .iter()
    .map(|n| root.join(n))
    .chain([PathBuf::from("-"), root.join("b.pgn")])
    .collect();
    assert_eq!(files(&names), expected);
    assert_eq!(names[6], InputName::Stdin);
}

#[test]
fn compressed_files_are_decoded_by_magic_bytes_whatever_their_name() {
    let dir = tempfile::tempdir().unwrap();
    let plain = lines(300_000);
    for (name, bytes) in [
        ("gz-named-plain.pgn", gzip(&plain)),
        ("bz2-named-zst.pgn.zst", bzip2(&plain)),
        ("zst.pgn.zst", zstd(&plain)),
        (
            "two-gzip-members.pgn.gz",
            [gzip(&plain), gzip(b"tail\n")].concat(),
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let input = input::open(&InputName::File(path)).unwrap();
        let Source::Stream {
            compressed_size,
            compressed_read,
            ..
        } = &input.source
        else {
            panic!("{name}: a compressed file must be streamed");
        };
        assert_eq!(*compressed_size, Some(bytes.len() as u64), "{name}");
        let counter = compressed_read
            .clone()
            .expect("compressed bytes are counted");
        let decoded = read_all(input);
        let expected = if name.starts_with("two") {
            [plain.as_slice(), b"tail\n"].concat()
        } else {
            plain.clone()
        };
        assert!(decoded == expected, "{name}: decoded bytes differ");
        assert_eq!(
            counter.load(Ordering::Relaxed),
            bytes.len() as u64,
            "{name}"
        );
    }
}

#[test]
fn plain_files_are_mapped_and_empty_files_read_as_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.pgn");
    std::fs::write(&path, b"[Event \"x\"]\n\n*\n").unwrap();
    let input = input::open(&InputName::File(path)).unwrap();
    assert!(matches!(
        input.source,
        Source::Whole(ref bytes) if matches!(**bytes, input::Bytes::Mapped(..))
    ));
    assert_eq!(read_all(input), b"[Event \"x\"]\n\n*\n");
    let empty = dir.path().join("e.pgn");
    std::fs::write(&empty, b"").unwrap();
    assert!(read_all(input::open(&InputName::File(empty)).unwrap()).is_empty());
}

#[test]
fn a_fifo_is_streamed_without_losing_its_first_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let plain = lines(200_000);
    for (name, bytes) in [("plain", plain.clone()), ("gzip", gzip(&plain))] {
        let fifo = dir.path().join(name);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .map(|s| s.success());
        if made.ok() != Some(true) {
            eprintln!("skipping: no mkfifo");
            return;
        }
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, bytes).unwrap())
        };
        let input = input::open(&InputName::File(fifo)).unwrap();
        assert!(matches!(input.source, Source::Stream { .. }), "{name}");
        assert!(read_all(input) == plain, "{name}: bytes differ");
        writer.join().unwrap();
    }
}

#[test]
fn output_is_identical_for_1_2_and_8_threads_mapped_and_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let plain = lines(6 << 20);
    let expected = plain.to_ascii_uppercase();
    let path = dir.path().join("big.pgn");
    std::fs::write(&path, &plain).unwrap();
    let gz = dir.path().join("big.pgn.gz");
    let gz_bytes = gzip(&plain);
    std::fs::write(&gz, &gz_bytes).unwrap();
    for threads in [1, 2, 8] {
        let mut mapped = input::open(&InputName::File(path.clone())).unwrap();
        let (out, advanced) = uppercase(&mut mapped, threads, Cut::Lines);
        assert!(out == expected, "mapped, {threads} threads");
        assert_eq!(advanced, plain.len() as u64);

        let mut stream = Input {
            name: InputName::Stdin,
            source: Source::Stream {
                reader: Box::new(std::io::Cursor::new(plain.clone())),
                compressed_size: None,
                compressed_read: None,
            },
        };
        let (out, advanced) = uppercase(&mut stream, threads, Cut::Lines);
        assert!(out == expected, "stream, {threads} threads");
        assert_eq!(advanced, plain.len() as u64);

        let mut compressed = input::open(&InputName::File(gz.clone())).unwrap();
        let (out, advanced) = uppercase(&mut compressed, threads, Cut::Lines);
        assert!(out == expected, "gzip, {threads} threads");
        // Progress over a compressed file advances by compressed bytes, up to its size.
        assert!(advanced <= gz_bytes.len() as u64 && advanced > gz_bytes.len() as u64 / 2);
    }
}

#[test]
fn game_cut_output_is_in_order_for_any_thread_count() {
    let mut text = Vec::new();
    for i in 0..60_000 {
        write!(text, "[Event \"game {i}\"]\n\n1. e4 e5 2. Nf3 *\n\n").unwrap();
    }
    let expected = text.to_ascii_uppercase();
    for threads in [1, 2, 8] {
        let mut stream = Input {
            name: InputName::Stdin,
            source: Source::Stream {
                reader: Box::new(std::io::Cursor::new(text.clone())),
                compressed_size: None,
                compressed_read: None,
            },
        };
        assert!(uppercase(&mut stream, threads, Cut::Games).0 == expected);
    }
}

/// Counts the results alive at once: created by workers, dropped by the sink.
struct Tracked {
    live: &'static AtomicUsize,
}

impl ChunkOutput for Tracked {
    fn games(&self) -> u64 {
        0
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.live.fetch_sub(1, Ordering::SeqCst);
    }
}

#[test]
fn results_waiting_for_their_turn_are_bounded() {
    static LIVE: AtomicUsize = AtomicUsize::new(0);
    static MOST: AtomicUsize = AtomicUsize::new(0);
    let (threads, per_thread) = (4, 2);
    let data = lines(4 << 20);
    let mut stream = Input {
        name: InputName::Stdin,
        source: Source::Stream {
            reader: Box::new(std::io::Cursor::new(data)),
            compressed_size: None,
            compressed_read: None,
        },
    };
    let pool = pipeline::thread_pool(threads).unwrap();
    let options = PipelineOptions {
        chunk_bytes: 16 << 10,
        cut: Cut::Lines,
        in_flight_per_thread: per_thread,
        stop: None,
        lines_at_cut: false,
        ..PipelineOptions::default()
    };
    let mut chunks = 0;
    pipeline::run(
        &mut stream,
        &pool,
        &options,
        |bytes, _| {
            // Early chunks finish last, so later results wait in the reorder buffer.
            if bytes.first() == Some(&b'l') && bytes.len() % 3 == 0 {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            let now = LIVE.fetch_add(1, Ordering::SeqCst) + 1;
            MOST.fetch_max(now, Ordering::SeqCst);
            Tracked { live: &LIVE }
        },
        |tracked, _| {
            drop(tracked);
            chunks += 1;
            Ok::<(), pgn960::Error>(())
        },
    )
    .unwrap();
    assert!(chunks > 200, "{chunks} chunks");
    let most = MOST.load(Ordering::SeqCst);
    assert!(
        most <= threads * per_thread,
        "{most} results alive at once, bound {}",
        threads * per_thread
    );
    assert_eq!(LIVE.load(Ordering::SeqCst), 0);
}

#[test]
fn a_mapped_file_that_changes_size_during_the_run_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grows.pgn");
    std::fs::write(&path, lines(1 << 20)).unwrap();
    let mut input = input::open(&InputName::File(path.clone())).unwrap();
    let pool = pipeline::thread_pool(2).unwrap();
    let options = PipelineOptions {
        chunk_bytes: 64 << 10,
        cut: Cut::Lines,
        in_flight_per_thread: 2,
        stop: None,
        lines_at_cut: false,
        ..PipelineOptions::default()
    };
    let mut first = true;
    let err = pipeline::run(
        &mut input,
        &pool,
        &options,
        |bytes, _| Upper(bytes.to_vec()),
        |_, _| {
            if std::mem::take(&mut first) {
                // Grow (never shrink: reading past a shrunk map's end would be SIGBUS).
                let grow = || -> std::io::Result<()> {
                    let mut f = std::fs::OpenOptions::new().append(true).open(&path)?;
                    f.write_all(b"appended\n")
                };
                grow().expect("appends");
            }
            Ok::<(), pgn960::Error>(())
        },
    )
    .unwrap_err();
    let message = format!("{err:#}");
    assert!(
        message.contains("changed size while it was read"),
        "{message}"
    );
    assert!(message.contains("grows.pgn"), "{message}");
}

#[test]
fn a_corrupt_compressed_stream_is_an_error_naming_the_byte() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = gzip(&lines(1 << 20));
    let middle = bytes.len() / 2;
    bytes[middle..].iter_mut().for_each(|b| *b = !*b);
    let path = dir.path().join("bad.pgn.gz");
    std::fs::write(&path, &bytes).unwrap();
    let mut input = input::open(&InputName::File(path)).unwrap();
    let pool = pipeline::thread_pool(2).unwrap();
    let err = pipeline::run(
        &mut input,
        &pool,
        &PipelineOptions {
            chunk_bytes: 64 << 10,
            cut: Cut::Lines,
            in_flight_per_thread: 2,
            stop: None,
            lines_at_cut: false,
            ..PipelineOptions::default()
        },
        |bytes, _| Upper(bytes.to_vec()),
        |_, _| Ok::<(), pgn960::Error>(()),
    )
    .unwrap_err();
    let message = format!("{err:#}");
    assert!(message.contains("cannot read past byte"), "{message}");
}

#[test]
fn an_input_renamed_while_read_has_not_changed_size_but_a_grown_one_has() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.pgn");
    std::fs::write(&path, b"[Event \"x\"]\n\n*\n").unwrap();
    let input = input::open(&InputName::File(path.clone())).unwrap();
    let moved = dir.path().join("moved.pgn");
    std::fs::rename(&path, &moved).unwrap();
    // The open file is what was read: its size is unchanged, whatever its name.
    input::check_unchanged(&input).unwrap();
    // Another file now at the old name does not matter either.
    std::fs::write(&path, b"").unwrap();
    input::check_unchanged(&input).unwrap();
    // The file read, grown under its new name, has changed.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&moved)
        .unwrap();
    file.write_all(b"more").unwrap();
    let err = input::check_unchanged(&input).unwrap_err().to_string();
    assert!(err.contains("changed size"), "{err}");
}
