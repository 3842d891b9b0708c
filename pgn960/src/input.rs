//! Inputs as byte sources: memory-mapped files, or streams for standard input, any reader
//! and compressed files (the formats of [`COMPRESSIONS`], recognised by their magic bytes).

use crate::compression::{detect_compression, format_of, is_pgn_file, Compression, MAGIC_LEN};
use crate::error::{Error, Result};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Where a source's bytes come from, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputName {
    /// Standard input (`-`).
    Stdin,
    /// A file.
    File(PathBuf),
    /// Another source, named by its caller.
    Label(String),
}

impl std::fmt::Display for InputName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputName::Stdin => f.write_str("<stdin>"),
            InputName::File(p) => write!(f, "{}", p.display()),
            InputName::Label(label) => f.write_str(label),
        }
    }
}

/// The bytes of an input.
pub enum Source {
    /// The whole input in memory (mapped, or read when mapping is not possible), shared
    /// with the chunks being read.
    Whole(Arc<Bytes>),
    /// A stream read in blocks (stdin, decompressors).
    Stream {
        /// The decoded bytes.
        reader: Box<dyn Read + Send>,
        /// The size of the underlying file, if known (for progress).
        compressed_size: Option<u64>,
        /// Bytes of the underlying compressed file read so far; `None` when the stream is
        /// not compressed (progress then counts the decoded bytes).
        compressed_read: Option<Arc<AtomicU64>>,
    },
    /// A Parquet table of games, read row group by row group.
    #[cfg(feature = "parquet")]
    Parquet(Arc<crate::parquet::ParquetGames>),
}

/// A reader that counts the bytes read through it into a shared counter.
struct CountingReader<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A whole input's bytes.
pub enum Bytes {
    /// A read-only memory map, with the file it maps (kept open, so that a change of size is
    /// seen on the file read even if its name is moved meanwhile).
    Mapped(memmap2::Mmap, File),
    /// Bytes read into memory.
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m, _) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// One input: its name and its bytes.
pub struct Input {
    /// The name for messages.
    pub name: InputName,
    /// The bytes.
    pub source: Source,
}

/// Collects the PGN files below `dir`, sorted by path. Symbolic links to files are read;
/// symbolic links to directories are not followed, so a link loop cannot recurse forever.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let cannot = |cause| Error::Io {
        name: format!("directory {}", dir.display()),
        cause,
    };
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = std::fs::read_dir(dir)
        .map_err(cannot)?
        .map(|e| e.and_then(|e| Ok((e.path(), e.file_type()?))))
        .collect::<io::Result<_>>()
        .map_err(cannot)?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, kind) in entries {
        if kind.is_dir() {
            walk(&path, out)?;
        } else if is_pgn_file(&path) && (kind.is_file() || path.is_file()) {
            out.push(path);
        }
    }
    Ok(())
}

/// Expands command-line inputs: files as given, directories to all PGN files below them
/// (sorted; an error if there are none), `-` for standard input.
pub fn expand_inputs(args: &[PathBuf]) -> Result<Vec<InputName>> {
    let mut names = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            names.push(InputName::Stdin);
        } else if arg.is_dir() {
            let mut files = Vec::new();
            walk(arg, &mut files)?;
            if files.is_empty() {
                return Err(Error::EmptyDirectory { dir: arg.clone() });
            }
            names.extend(files.into_iter().map(InputName::File));
        } else {
            names.push(InputName::File(arg.clone()));
        }
    }
    Ok(names)
}

/// The total size of the inputs in bytes, if every one has a known size (a regular file:
/// not stdin, a FIFO or a device).
pub fn total_size(names: &[InputName]) -> Option<u64> {
    names
        .iter()
        .map(|n| match n {
            InputName::File(p) => std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
            InputName::Stdin | InputName::Label(_) => None,
        })
        .sum()
}

impl Input {
    /// Opens a file: a plain file is memory-mapped (read into memory where mapping fails);
    /// a compressed file or a special file (a FIFO) is streamed. Compression is recognised
    /// by its magic bytes.
    pub fn open(path: impl AsRef<Path>) -> Result<Input> {
        open(&InputName::File(path.as_ref().to_path_buf()))
    }

    /// Standard input, streamed (and decoded if compressed).
    pub fn stdin() -> Result<Input> {
        open(&InputName::Stdin)
    }

    /// Any reader, streamed (and decoded if its bytes are compressed); `label` names it in
    /// messages.
    pub fn from_reader(label: &str, mut reader: impl Read + Send + 'static) -> Result<Input> {
        let name = InputName::Label(label.to_string());
        let mut head = [0u8; MAGIC_LEN];
        let got = read_head(&mut reader, &mut head).map_err(|e| io_error(&name, e))?;
        if is_parquet(&head[..got]) {
            return parquet_file(&name, reader, &head[..got], None);
        }
        let compression = detect_compression(Path::new(""), &head[..got]);
        stream(&name, compression, &head[..got], Box::new(reader), None)
    }

    /// Bytes already in memory, read as they are (not decoded).
    pub fn from_bytes(label: &str, bytes: Vec<u8>) -> Input {
        Input {
            name: InputName::Label(label.to_string()),
            source: Source::Whole(Arc::new(Bytes::Owned(bytes))),
        }
    }
}

fn io_error(name: &InputName, cause: io::Error) -> Error {
    Error::Io {
        name: name.to_string(),
        cause,
    }
}

/// Opens an input by name (see [`Input::open`]; standard input is streamed).
pub fn open(name: &InputName) -> Result<Input> {
    let path = match name {
        InputName::File(p) => p,
        InputName::Stdin | InputName::Label(_) => {
            let mut stdin = io::stdin();
            let mut head = [0u8; MAGIC_LEN];
            let got = read_head(&mut stdin, &mut head).map_err(|e| io_error(name, e))?;
            if is_parquet(&head[..got]) {
                return parquet_file(name, stdin, &head[..got], None);
            }
            let compression = detect_compression(Path::new(""), &head[..got]);
            return stream(name, compression, &head[..got], Box::new(stdin), None);
        }
    };
    let mut file = File::open(path).map_err(|e| io_error(name, e))?;
    let meta = file.metadata().map_err(|e| io_error(name, e))?;
    let mut head = [0u8; MAGIC_LEN];
    let got = read_head(&mut file, &mut head).map_err(|e| io_error(name, e))?;
    if is_parquet(&head[..got]) {
        let map = if meta.is_file() {
            map_file(&file)
        } else {
            None
        };
        return parquet_file(name, file, &head[..got], map);
    }
    let compression = detect_compression(path, &head[..got]);
    if compression == Compression::None && meta.is_file() {
        return whole(name, file, &head[..got]);
    }
    let size = meta.is_file().then_some(meta.len());
    stream(name, compression, &head[..got], Box::new(file), size)
}

/// Whether an input's first bytes are Parquet's magic number.
pub fn is_parquet(head: &[u8]) -> bool {
    head.starts_with(b"PAR1")
}

/// A Parquet table of games: a regular file is memory-mapped (`map`), anything else read
/// into memory (Parquet is read from its footer, not as a stream). `head` holds the bytes
/// already read from `reader`.
#[cfg(feature = "parquet")]
fn parquet_file(
    name: &InputName,
    mut reader: impl Read,
    head: &[u8],
    map: Option<memmap2::Mmap>,
) -> Result<Input> {
    let bytes = match map {
        Some(map) => bytes::Bytes::from_owner(map),
        None => {
            let mut all = head.to_vec();
            reader
                .read_to_end(&mut all)
                .map_err(|e| io_error(name, e))?;
            bytes::Bytes::from(all)
        }
    };
    let games = crate::parquet::ParquetGames::open(&name.to_string(), bytes)?;
    Ok(Input {
        name: name.clone(),
        source: Source::Parquet(Arc::new(games)),
    })
}

/// Without the `parquet` feature, a Parquet input is an error that says so.
#[cfg(not(feature = "parquet"))]
fn parquet_file(
    name: &InputName,
    _: impl Read,
    _: &[u8],
    _: Option<memmap2::Mmap>,
) -> Result<Input> {
    Err(Error::Parquet {
        name: name.to_string(),
        message: "this build has no Parquet support (cargo feature `parquet`)".into(),
    })
}

/// A read-only map of a whole regular file, where mapping works.
fn map_file(file: &File) -> Option<memmap2::Mmap> {
    // SAFETY: as for PGN files (see `whole`): read-only; a truncation by another process
    // raises SIGBUS, which the binary handles; a change of length that raises no fault is
    // reported by `check_unchanged`.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::MmapOptions::new().map(file) };
    map.ok()
}

/// A plain regular file as one buffer: mapped, or read into memory where mapping fails.
/// `head` holds the bytes already read from `file`.
fn whole(name: &InputName, mut file: File, head: &[u8]) -> Result<Input> {
    let input = |bytes| Input {
        name: name.clone(),
        source: Source::Whole(Arc::new(bytes)),
    };
    if head.is_empty() {
        return Ok(input(Bytes::Owned(Vec::new())));
    }
    // SAFETY: the map is read-only. If another process truncates the file while we read
    // it, access past the new end raises SIGBUS, which a program using this crate on files
    // others may change should handle (the pgn960 binary removes its temporary outputs and
    // exits with status 2); a change of length that raises no fault is reported by
    // `check_unchanged` (called by `pipeline::run` after each input). Streamed inputs
    // avoid the map.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::MmapOptions::new().map(&file) };
    match map {
        Ok(map) => {
            let _ = map.advise(memmap2::Advice::Sequential);
            Ok(input(Bytes::Mapped(map, file)))
        }
        Err(_) => {
            let mut bytes = head.to_vec();
            file.read_to_end(&mut bytes)
                .map_err(|e| io_error(name, e))?;
            Ok(input(Bytes::Owned(bytes)))
        }
    }
}

/// A stream through the decoder for `compression`. `head` holds the bytes already read
/// from `raw`; `size` is the size of the underlying file, if known.
fn stream(
    name: &InputName,
    compression: Compression,
    head: &[u8],
    raw: Box<dyn Read + Send>,
    size: Option<u64>,
) -> Result<Input> {
    let count = Arc::new(AtomicU64::new(head.len() as u64));
    let raw: Box<dyn Read + Send> =
        Box::new(io::Cursor::new(head.to_vec()).chain(CountingReader {
            inner: raw,
            count: Arc::clone(&count),
        }));
    let reader = match format_of(compression) {
        None => raw,
        Some(format) => (format.decoder)(raw).map_err(|e| io_error(name, e))?,
    };
    Ok(Input {
        name: name.clone(),
        source: Source::Stream {
            reader,
            compressed_size: size,
            compressed_read: (compression != Compression::None).then_some(count),
        },
    })
}

impl Input {
    /// The first `n` bytes (fewer for a shorter input); for a stream, the bytes read are
    /// put back in front of it.
    pub fn peek(&mut self, n: usize) -> Result<Vec<u8>> {
        match &mut self.source {
            Source::Whole(bytes) => Ok(bytes[..n.min(bytes.len())].to_vec()),
            Source::Stream { reader, .. } => {
                let mut seen = vec![0u8; n];
                let got = read_head(reader, &mut seen).map_err(|e| io_error(&self.name, e))?;
                seen.truncate(got);
                let rest = std::mem::replace(reader, Box::new(io::empty()));
                *reader = Box::new(io::Cursor::new(seen.clone()).chain(rest));
                Ok(seen)
            }
            // Its magic number: "no game found" then says it is a Parquet table.
            #[cfg(feature = "parquet")]
            Source::Parquet(_) => Ok(b"PAR1".to_vec()),
        }
    }

    /// The first byte that is not white space, looking at most `limit` bytes ahead; for a
    /// stream, the bytes read are put back in front of it.
    pub fn first_non_blank(&mut self, limit: usize) -> Result<Option<u8>> {
        let blank = |b: &&u8| b.is_ascii_whitespace();
        match &mut self.source {
            Source::Whole(bytes) => Ok(bytes.iter().take(limit).find(|b| !blank(b)).copied()),
            // Read as PGN text built from its rows, which starts with a tag.
            #[cfg(feature = "parquet")]
            Source::Parquet(_) => Ok(Some(b'[')),
            Source::Stream { reader, .. } => {
                let mut seen = Vec::new();
                let mut found = None;
                let mut buf = [0u8; 8192];
                while seen.len() < limit {
                    let n = match reader.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(io_error(&self.name, e)),
                    };
                    seen.extend_from_slice(&buf[..n]);
                    found = buf[..n].iter().find(|b| !blank(b)).copied();
                    if found.is_some() {
                        break;
                    }
                }
                let rest = std::mem::replace(reader, Box::new(io::empty()));
                *reader = Box::new(io::Cursor::new(seen).chain(rest));
                Ok(found)
            }
        }
    }
}

/// Reads up to `head.len()` bytes, fewer only at the end of the input.
fn read_head(file: &mut impl Read, head: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Fails if a mapped file changed length while it was read (its bytes may be wrong),
/// as the open file says (`fstat`), whatever became of its name.
pub fn check_unchanged(input: &Input) -> Result<()> {
    #[cfg(feature = "parquet")]
    if let (InputName::File(path), Source::Parquet(games)) = (&input.name, &input.source) {
        let now = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if now != games.file_len() {
            return Err(Error::Changed {
                path: path.clone(),
                before: games.file_len(),
                after: now,
            });
        }
    }
    if let (InputName::File(path), Source::Whole(bytes)) = (&input.name, &input.source) {
        let Bytes::Mapped(map, file) = &**bytes else {
            return Ok(());
        };
        // The open file, not the path: a file renamed or replaced meanwhile is still the
        // file that was read.
        let now = file.metadata().map(|m| m.len()).unwrap_or(0);
        if now != map.len() as u64 {
            return Err(Error::Changed {
                path: path.clone(),
                before: map.len() as u64,
                after: now,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_size_is_known_for_regular_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.pgn");
        std::fs::write(&file, b"12345").unwrap();
        let file = InputName::File(file);
        assert_eq!(total_size(&[file.clone(), file.clone()]), Some(10));
        assert_eq!(total_size(&[file.clone(), InputName::Stdin]), None);
        let dev = InputName::File(PathBuf::from("/dev/null"));
        assert_eq!(total_size(&[file, dev]), None);
    }

    #[test]
    fn pgn_file_names() {
        assert!(is_pgn_file(Path::new("a/b.pgn")));
        assert!(is_pgn_file(Path::new("b.PGN.zst")));
        assert!(is_pgn_file(Path::new("b.pgn.xz")));
        assert!(!is_pgn_file(Path::new("b.txt")));
    }
}

/// The longest line a table read back (`stats --merge`, `tree --merge`) may have: rows of
/// our tables are far shorter (names are cut at 200 bytes, tree paths are a few bytes a
/// ply), and the CSV reader holds a row whole.
pub const MAX_TABLE_LINE: usize = 1 << 20;

/// A reader that fails, rather than hand on, a line longer than `limit` bytes, so that
/// whoever holds a line whole (a CSV record) holds a bounded one.
#[derive(Debug)]
pub struct LineLimit<R> {
    inner: R,
    limit: usize,
    line: usize,
}

impl<R: Read> LineLimit<R> {
    /// `inner` with lines of at most `limit` bytes (the line break not counted).
    pub fn new(inner: R, limit: usize) -> LineLimit<R> {
        LineLimit {
            inner,
            limit,
            line: 0,
        }
    }
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.line = 0;
            } else {
                self.line += 1;
                if self.line > self.limit {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("a line longer than {} bytes", self.limit),
                    ));
                }
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod line_limit_tests {
    use super::*;

    #[test]
    fn a_line_over_the_limit_is_an_error_and_shorter_lines_pass_whole() {
        let mut out = Vec::new();
        LineLimit::new(&b"abc\ndefg\n"[..], 4)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, b"abc\ndefg\n");
        let err = LineLimit::new(&b"abc\ndefgh\n"[..], 4)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("longer than 4 bytes"), "{err}");
    }
}
