//! Output files written atomically: a temporary file beside the target, renamed over it
//! only when everything was written; dropped without `commit`, nothing is left behind.
//! Every output of a run is planned and checked before anything is read
//! ([`OutputPlan`]); the command line and the Python package write through it.

use crate::compression::{self, FinishWrite};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why an output could not be planned, created, written or renamed into place. Its
/// message is the one the command line prints; an I/O cause is its `source()` (printed
/// after it by a chain printer such as anyhow's `{:#}`).
#[derive(Debug)]
pub enum OutputError {
    /// What failed, in a sentence, and the I/O error that made it fail.
    Failed {
        /// What failed (`cannot write out.pgn`, `refusing to write ...`).
        message: String,
        /// The I/O error behind it, if any.
        cause: Option<io::Error>,
    },
    /// An error of writing, already naming what was written.
    Io(io::Error),
    /// An error of writing a table row (its I/O error names the output).
    Table(csv::Error),
    /// The inputs could not be listed (to refuse an output that is one of them).
    Input(crate::Error),
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputError::Failed { message, .. } => f.write_str(message),
            OutputError::Io(e) => e.fmt(f),
            OutputError::Table(e) => e.fmt(f),
            OutputError::Input(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OutputError::Failed { cause, .. } => cause.as_ref().map(|e| e as _),
            OutputError::Io(e) => e.source(),
            OutputError::Table(e) => e.source(),
            OutputError::Input(e) => e.source(),
        }
    }
}

impl OutputError {
    /// The kind of the I/O error behind this one, if any (a closed pipe, a full disk).
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        match self {
            OutputError::Failed { cause, .. } => cause.as_ref().map(io::Error::kind),
            OutputError::Io(e) => Some(e.kind()),
            OutputError::Table(e) => match e.kind() {
                csv::ErrorKind::Io(e) => Some(e.kind()),
                _ => None,
            },
            OutputError::Input(_) => None,
        }
    }
}

impl From<io::Error> for OutputError {
    fn from(error: io::Error) -> OutputError {
        OutputError::Io(error)
    }
}

impl From<csv::Error> for OutputError {
    fn from(error: csv::Error) -> OutputError {
        OutputError::Table(error)
    }
}

impl From<crate::Error> for OutputError {
    fn from(error: crate::Error) -> OutputError {
        OutputError::Input(error)
    }
}

/// What outputs return.
pub type Result<T, E = OutputError> = std::result::Result<T, E>;

/// Names what failed when an I/O call fails.
pub(crate) trait Context<T> {
    /// The error, as the cause of `message`.
    fn context(self, message: &str) -> Result<T>;
    /// The error, as the cause of the message `message` makes.
    fn with_context(self, message: impl FnOnce() -> String) -> Result<T>;
}

impl<T> Context<T> for io::Result<T> {
    fn context(self, message: &str) -> Result<T> {
        self.with_context(|| message.to_string())
    }
    fn with_context(self, message: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|cause| OutputError::Failed {
            message: message(),
            cause: Some(cause),
        })
    }
}

/// Returns an [`OutputError`] with a message and no cause.
macro_rules! bail {
    ($($message:tt)*) => {
        return Err($crate::output::OutputError::Failed { message: format!($($message)*), cause: None })
    };
}
pub(crate) use bail;

/// Where output goes.
pub enum Sink {
    /// A regular file written atomically (temporary file, then rename).
    File(AtomicFile),
    /// An existing special file (`/dev/null`, a FIFO, a terminal), written in place: it must
    /// never be replaced by a regular file.
    Special(BufWriter<std::fs::File>, PathBuf),
    /// Standard output.
    Stdout(BufWriter<io::Stdout>),
    /// Standard output, held in an anonymous temporary file until the run succeeds (so a
    /// run that fails writes nothing there).
    Spool(BufWriter<std::fs::File>),
}

impl Sink {
    /// Opens `path` (`-` = standard output), refusing a path that is one of `inputs`.
    pub fn create(path: &Path, inputs: &[PathBuf]) -> Result<Sink> {
        if path.as_os_str() == "-" {
            return Ok(Sink::Stdout(BufWriter::with_capacity(
                1 << 20,
                io::stdout(),
            )));
        }
        refuse_input(path, inputs)?;
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => bail!("{} is a directory", path.display()),
            Ok(meta) if !meta.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .with_context(|| format!("cannot open {}", path.display()))?;
                Ok(Sink::Special(
                    BufWriter::with_capacity(1 << 20, file),
                    path.to_path_buf(),
                ))
            }
            _ => Ok(Sink::File(AtomicFile::create(path)?)),
        }
    }

    /// Standard output, written only when the run finishes well ([`Sink::finish`]).
    pub fn spooled_stdout() -> Result<Sink> {
        let file = tempfile::tempfile().context("cannot create a temporary file")?;
        Ok(Sink::Spool(BufWriter::with_capacity(1 << 20, file)))
    }

    /// Flushes everything written so far to the file (or standard output), naming the
    /// output in the error.
    pub fn flush_all(&mut self) -> Result<()> {
        match self {
            Sink::File(f) => f
                .flush()
                .with_context(|| format!("cannot write {}", f.target().display())),
            Sink::Special(w, path) => w
                .flush()
                .with_context(|| format!("cannot write {}", path.display())),
            Sink::Stdout(w) => w.flush().context("cannot write to standard output"),
            Sink::Spool(w) => w.flush().context("cannot write a temporary file"),
        }
    }

    /// Finishes: flush, and for regular files rename into place.
    pub fn commit(self) -> Result<()> {
        match self {
            Sink::File(f) => f.commit(),
            Sink::Special(mut w, path) => w
                .flush()
                .with_context(|| format!("cannot write {}", path.display())),
            Sink::Stdout(mut w) => w.flush().context("cannot write to standard output"),
            spool @ Sink::Spool(_) => spool.finish().map(|_| ()),
        }
    }
}

/// Set once bytes went to standard output: an interrupted run then cannot say that no
/// output was written.
pub static STDOUT_WRITTEN: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// The message of a write stopped by Ctrl-C or SIGTERM.
pub const STOPPED_WRITING: &str = "interrupted while writing";

/// Stops a write once the run is interrupted: a table written after the games were read
/// (`stats --by`) stops too, and nothing is committed.
fn stop_if_interrupted() -> io::Result<()> {
    if crate::signals::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(io::Error::other(STOPPED_WRITING));
    }
    Ok(())
}

impl Sink {
    fn note_stdout(&self, bytes: usize) {
        if bytes > 0 && matches!(self, Sink::Stdout(_)) {
            STDOUT_WRITTEN.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

impl Sink {
    /// An error of writing, naming what was written (a full disk says which output).
    fn naming(&self, error: io::Error) -> io::Error {
        let what = match self {
            Sink::File(f) => f.target().display().to_string(),
            Sink::Special(_, path) => path.display().to_string(),
            Sink::Stdout(_) => "standard output".to_string(),
            Sink::Spool(_) => "a temporary file".to_string(),
        };
        io::Error::new(error.kind(), format!("cannot write {what}: {error}"))
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        stop_if_interrupted()?;
        self.note_stdout(buf.len());
        let written = match self {
            Sink::File(f) => f.write(buf),
            Sink::Special(w, _) => w.write(buf),
            Sink::Stdout(w) => w.write(buf),
            Sink::Spool(w) => w.write(buf),
        };
        written.map_err(|e| self.naming(e))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        stop_if_interrupted()?;
        self.note_stdout(buf.len());
        let written = match self {
            Sink::File(f) => f.write_all(buf),
            Sink::Special(w, _) => w.write_all(buf),
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Spool(w) => w.write_all(buf),
        };
        written.map_err(|e| self.naming(e))
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Special(w, _) => w.flush(),
            Sink::Stdout(w) => w.flush(),
            Sink::Spool(w) => w.flush(),
        }
    }
}

/// A file written to a temporary name in the target's directory and renamed on commit,
/// compressed as its name says (`.zst`, `.gz`, `.bz2`, `.xz`: see
/// [`crate::compression::COMPRESSIONS`]).
///
/// The temporary name is short whatever the target's (`.pgn960-HASH.PID.RANDOM.tmp`, the
/// hash of the target's whole name), so a later run writing the same output finds the leftovers
/// of a run that was killed (its process gone) and removes them. While it is written, the
/// output is locked (`.pgn960-HASH.lock`, an advisory lock), so two runs writing the same
/// output at once cannot mix their files: the second is refused.
pub struct AtomicFile {
    target: PathBuf,
    temp: tempfile::NamedTempFile,
    writer: Box<dyn FinishWrite>,
    lock: OutputLock,
    _registered: crate::signals::Registered,
}

/// The key that names an output's temporary and lock files: 128 bits of the SHA-256 of
/// its whole name, so that two names never share a lock (a 32-bit hash did:
/// `out165320.pgn` blocked `out169377.pgn`).
fn name_hash(target: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let name = target.file_name().map_or(&b""[..], |n| n.as_bytes());
    crate::sha256::sha256(name)[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The directory an output goes to.
fn directory_of(target: &Path) -> PathBuf {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// An advisory lock on one output (a file, or the directory `split` writes), held while it
/// is written and removed after; its lock file is beside the output.
pub struct OutputLock {
    path: PathBuf,
    _file: std::fs::File,
    // Removed by an abrupt exit too (a second Ctrl-C), like the temporary files.
    _registered: crate::signals::Registered,
}

impl OutputLock {
    /// Locks `target`'s lock file, or fails when another run holds it.
    pub fn take(target: &Path) -> Result<OutputLock> {
        use std::os::unix::fs::MetadataExt;
        let path = directory_of(target).join(format!(".pgn960-{}.lock", name_hash(target)));
        loop {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .with_context(|| {
                    format!(
                        "cannot create a temporary file in {}",
                        directory_of(target).display()
                    )
                })?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => bail!(
                    "another pgn960 run is writing {} right now; wait for it to finish (or name another output)",
                    target.display()
                ),
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(e).with_context(|| format!("cannot lock {}", path.display()))
                }
            }
            // The file may have been removed by the run that held it before we locked it:
            // lock the one that is there now.
            let same = match (file.metadata(), std::fs::metadata(&path)) {
                (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
                _ => false,
            };
            if same {
                return Ok(OutputLock {
                    _registered: crate::signals::Registered::new(&path),
                    path,
                    _file: file,
                });
            }
        }
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Removes the temporary files of `target` left by runs whose process is gone (killed, or
/// the machine stopped); returns how many.
fn remove_stale_temporaries(target: &Path) -> usize {
    use std::os::unix::ffi::OsStrExt;
    let prefix = format!(".pgn960-{}.", name_hash(target));
    let Ok(entries) = std::fs::read_dir(directory_of(target)) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.as_bytes().strip_prefix(prefix.as_bytes()) else {
            continue;
        };
        if !rest.ends_with(b".tmp") {
            continue;
        }
        let pid = rest
            .split(|&b| b == b'.')
            .next()
            .and_then(|p| std::str::from_utf8(p).ok());
        let Some(pid) = pid.and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        if !crate::signals::process_exists(pid) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

impl AtomicFile {
    /// The file this will become.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Starts rewriting an existing file in place: a symbolic link is followed (its target
    /// is rewritten, the link stays), and the new file keeps the old one's mode and, when
    /// allowed, its owner and group.
    pub fn replacing(path: &Path) -> Result<AtomicFile> {
        use std::os::unix::fs::MetadataExt;
        let target = path
            .canonicalize()
            .with_context(|| format!("cannot read {}", path.display()))?;
        let meta = std::fs::metadata(&target)
            .with_context(|| format!("cannot read {}", target.display()))?;
        let file = AtomicFile::create(&target)?;
        let temp = file.temp.as_file();
        let _ = temp.set_permissions(meta.permissions());
        // Only root may give a file away; for anyone else the owner stays the caller.
        let _ = std::os::unix::fs::fchown(temp, Some(meta.uid()), Some(meta.gid()));
        Ok(file)
    }

    /// Starts writing `target`, which must be a regular file or not exist yet (a device or
    /// FIFO is never replaced: see [`Sink::create`]).
    pub fn create(target: &Path) -> Result<AtomicFile> {
        if std::fs::metadata(target).is_ok_and(|m| !m.is_file()) {
            bail!(
                "{} is not a regular file: refusing to replace it",
                target.display()
            );
        }
        let dir = directory_of(target);
        let lock = OutputLock::take(target)?;
        let stale = remove_stale_temporaries(target);
        if stale > 0 {
            eprintln!(
                "pgn960: removed {stale} temporary file(s) left by an interrupted run writing {}",
                target.display()
            );
        }
        let temp = tempfile::Builder::new()
            .prefix(&format!(
                ".pgn960-{}.{}.",
                name_hash(target),
                std::process::id()
            ))
            .suffix(".tmp")
            .rand_bytes(6)
            .tempfile_in(&dir)
            .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
        readable_by_all(temp.as_file());
        let cannot_write = || format!("cannot write {}", target.display());
        let file = temp.reopen().with_context(cannot_write)?;
        let buffered = Box::new(crate::direct_write::DirectWriter::new(file));
        let writer = compression::encoder(compression::compression_of_name(target), buffered)
            .with_context(cannot_write)?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            _registered: crate::signals::Registered::new(temp.path()),
            temp,
            writer,
            lock,
        })
    }

    /// Flushes, syncs and renames the temporary file to the target.
    pub fn commit(self) -> Result<()> {
        self.finish()?.commit()
    }

    /// Flushes and syncs the temporary file and closes it; the rename is left to
    /// [`Finished::commit`], so that a run can rename all its outputs only when all are
    /// complete.
    pub fn finish(self) -> Result<Finished> {
        let target = self.target;
        let temp = self.temp;
        self.writer
            .finish()
            .with_context(|| format!("cannot write {}", target.display()))?;
        temp.as_file()
            .sync_all()
            .with_context(|| format!("cannot write {}", target.display()))?;
        Ok(Finished {
            temp: temp.into_temp_path(),
            target,
            _lock: self.lock,
            _registered: self._registered,
        })
    }
}

/// A complete output still under its temporary name (removed if dropped).
pub struct Finished {
    temp: tempfile::TempPath,
    target: PathBuf,
    _lock: OutputLock,
    _registered: crate::signals::Registered,
}

impl Finished {
    /// The file this becomes.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Renames the temporary file to the target.
    pub fn commit(self) -> Result<()> {
        let target = self.target;
        self.temp
            .persist(&target)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot rename the temporary file to {}", target.display()))?;
        // Make the rename itself durable; some file systems cannot sync a directory.
        if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

/// Gives a new output file the usual permissions (temporary files start as 0600).
pub fn readable_by_all(file: &std::fs::File) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o644));
    }
    #[cfg(not(unix))]
    let _ = file;
}

/// What a path resolves to, for comparing outputs: device and inode when the file
/// exists, else the canonical directory joined with the file name (byte for byte).
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    Inode(u64, u64),
    Path(PathBuf),
}

fn identity(path: &Path) -> Identity {
    use std::os::unix::fs::MetadataExt;
    if let Ok(meta) = std::fs::metadata(path) {
        return Identity::Inode(meta.dev(), meta.ino());
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    Identity::Path(match path.file_name() {
        Some(name) => dir.join(name),
        None => path.to_path_buf(),
    })
}

/// Whether `path` is an existing file that is not a regular file (a device, a FIFO): it is
/// written in place, and several outputs may name it.
pub fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Refuses an output path that is one of the input files, including the PGN files found
/// below input directories (a second run must not read its own earlier output).
pub fn refuse_input(output: &Path, inputs: &[PathBuf]) -> Result<()> {
    if output.as_os_str() == "-" || is_special(output) {
        return Ok(());
    }
    InputFiles::of(inputs)?.refuse(output)
}

/// The input files of a run (input directories expanded as the run reads them), each with
/// its identity, found once: a run that checks many outputs against them (`split`'s files)
/// looks each output up once.
pub struct InputFiles {
    files: Vec<(PathBuf, Identity)>,
}

impl InputFiles {
    /// Finds the input files and their identities.
    pub fn of(inputs: &[PathBuf]) -> Result<InputFiles> {
        let mut files = Vec::new();
        for name in crate::input::expand_inputs(inputs)? {
            if let crate::input::InputName::File(input) = name {
                let id = identity(&input);
                files.push((input, id));
            }
        }
        Ok(InputFiles { files })
    }

    /// Refuses `output` if it is one of the input files (standard output and special files
    /// never are).
    pub fn refuse(&self, output: &Path) -> Result<()> {
        if output.as_os_str() == "-" || is_special(output) {
            return Ok(());
        }
        let id = identity(output);
        if let Some((input, _)) = self.files.iter().find(|(_, i)| *i == id) {
            bail!(
                "refusing to write {}: it is one of the inputs ({}); inputs are never modified",
                output.display(),
                input.display()
            );
        }
        Ok(())
    }
}

/// Checks every output of a run before anything is read: none is an input, and no two are
/// the same file however they are spelled (`out.pgn`, `./out.pgn`, a link), derived names
/// included. Standard output and special files (devices, FIFOs) may repeat.
pub fn check_outputs(outputs: &[(&str, &Path)], inputs: &[PathBuf]) -> Result<()> {
    let real: Vec<(&str, &Path, Identity)> = outputs
        .iter()
        .filter(|(_, p)| p.as_os_str() != "-" && !is_special(p))
        .map(|&(role, p)| (role, p, identity(p)))
        .collect();
    if real.is_empty() {
        return Ok(());
    }
    let input_files = InputFiles::of(inputs)?;
    for (i, (role, path, id)) in real.iter().enumerate() {
        if let Some((other_role, other, _)) = real[i + 1..].iter().find(|(_, _, o)| o == id) {
            bail!(
                "{} ({role}) and {} ({other_role}) are the same file: each output needs a file of its own",
                path.display(),
                other.display()
            );
        }
        input_files.refuse(path)?;
    }
    Ok(())
}

/// A name derived from `path` by replacing its extensions: `out.pgn.zst` with `.rejects`
/// and `pgn` gives `out.rejects.pgn.zst` (the compression kept when `keep_compression`).
/// Byte for byte: names that are not UTF-8 keep their bytes.
pub fn derived_name(path: &Path, infix: &str, extension: &str, keep_compression: bool) -> PathBuf {
    use std::ffi::OsString;
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let name = path.file_name().map_or(&b""[..], |n| n.as_bytes());
    let compression =
        compression::compression_of_name(Path::new(std::ffi::OsStr::from_bytes(name)));
    let mut stem = name;
    let mut suffix = Vec::new();
    if let Some(format) = compression::format_of(compression) {
        stem = &stem[..stem.len() - format.extension.len() - 1];
        if keep_compression {
            suffix = format!(".{}", format.extension).into_bytes();
        }
    }
    for known in [".pgn", ".PGN"] {
        if let Some(s) = stem.strip_suffix(known.as_bytes()) {
            stem = s;
            break;
        }
    }
    let mut out = stem.to_vec();
    out.extend_from_slice(infix.as_bytes());
    out.push(b'.');
    out.extend_from_slice(extension.as_bytes());
    out.extend_from_slice(&suffix);
    path.with_file_name(OsString::from_vec(out))
}

impl Sink {
    /// Finishes: everything flushed (a compressed file's trailer written); a regular file
    /// stays under its temporary name until [`commit_all`].
    pub fn finish(self) -> Result<Option<Finished>> {
        match self {
            Sink::File(f) => f.finish().map(Some),
            Sink::Special(mut w, path) => w
                .flush()
                .with_context(|| format!("cannot write {}", path.display()))
                .map(|()| None),
            Sink::Stdout(mut w) => w
                .flush()
                .context("cannot write to standard output")
                .map(|()| None),
            Sink::Spool(w) => {
                let mut file = w
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .context("cannot write a temporary file")?;
                use std::io::Seek;
                file.seek(io::SeekFrom::Start(0))
                    .context("cannot read a temporary file back")?;
                let mut stdout = io::stdout().lock();
                STDOUT_WRITTEN.store(true, std::sync::atomic::Ordering::Relaxed);
                io::copy(&mut file, &mut stdout).context("cannot write to standard output")?;
                stdout.flush().context("cannot write to standard output")?;
                Ok(None)
            }
        }
    }
}

/// Renames every finished output into place, once all of them are complete.
pub fn commit_all(finished: impl IntoIterator<Item = Option<Finished>>) -> Result<()> {
    for file in finished.into_iter().flatten() {
        file.commit()?;
    }
    Ok(())
}

/// One output a command plans to write: what it holds (the option that names it, or what
/// it is), its path and its format.
#[derive(Debug, Clone)]
pub struct PlannedOutput {
    /// What it holds: `-o`, `--rejects`, `reasons of rejected games`, ...
    pub role: &'static str,
    /// Where it goes (`-` for standard output).
    pub path: PathBuf,
    /// Its format (`pgn`, `tsv`, `csv`, `json`, `svg`, `html`, ...).
    pub format: &'static str,
}

/// An output's place in its [`OutputPlan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputId(usize);

/// Every output of a run, from its plan to its commit: a command adds its outputs (and
/// the directories it writes into), [`OutputPlan::check`]s them before any input is read
/// (no two the same file, none an input, none a directory's name, none inside a
/// directory another output writes into), creates each, hands each back finished, and
/// [`OutputPlan::commit`]s them all only when every one is complete and each can take its
/// name; dropped before, nothing is left. Its summary goes to standard error, never with
/// `-q`.
pub struct OutputPlan {
    inputs: Vec<PathBuf>,
    outputs: Vec<PlannedOutput>,
    directories: Vec<(&'static str, PathBuf)>,
    finished: Vec<Finished>,
    quiet: bool,
}

impl OutputPlan {
    /// An empty plan for a run over `inputs`; `quiet` silences its summary.
    pub fn new(inputs: &[PathBuf], quiet: bool) -> OutputPlan {
        OutputPlan {
            inputs: inputs.to_vec(),
            outputs: Vec::new(),
            directories: Vec::new(),
            finished: Vec::new(),
            quiet,
        }
    }

    /// Adds an output file.
    pub fn add(&mut self, role: &'static str, path: &Path, format: &'static str) -> OutputId {
        self.outputs.push(PlannedOutput {
            role,
            path: path.to_path_buf(),
            format,
        });
        OutputId(self.outputs.len() - 1)
    }

    /// Adds a directory the run writes files into (`split -o DIR`): no other output may
    /// be inside it.
    pub fn add_directory(&mut self, role: &'static str, dir: &Path) {
        self.directories.push((role, dir.to_path_buf()));
    }

    /// The planned output `id`.
    pub fn output(&self, id: OutputId) -> &PlannedOutput {
        &self.outputs[id.0]
    }

    /// Checks every output before anything is read or written.
    pub fn check(&self) -> Result<()> {
        use std::os::unix::ffi::OsStrExt;
        for out in &self.outputs {
            let bytes = out.path.as_os_str().as_bytes();
            let dir_name =
                bytes.ends_with(b"/") || bytes.ends_with(b"/.") || out.path.file_name().is_none();
            if out.path.as_os_str() != "-" && (dir_name || out.path.is_dir()) {
                bail!(
                    "{} {}: names a directory; {} is written to a file",
                    out.role,
                    out.path.display(),
                    out.role
                );
            }
        }
        let named: Vec<(&str, &Path)> = self
            .outputs
            .iter()
            .map(|o| (o.role, o.path.as_path()))
            .collect();
        check_outputs(&named, &self.inputs)?;
        for (dir_role, dir) in &self.directories {
            let dir_at = resolved(dir);
            for out in &self.outputs {
                if out.path.as_os_str() == "-" || is_special(&out.path) {
                    continue;
                }
                if resolved(&directory_of(&out.path)).starts_with(&dir_at) {
                    bail!(
                        "{} {} is inside {} ({dir_role}), which this run writes into: name a file outside it",
                        out.role,
                        out.path.display(),
                        dir.display()
                    );
                }
            }
        }
        Ok(())
    }

    /// Creates output `id` (checked by [`OutputPlan::check`]).
    pub fn create(&self, id: OutputId) -> Result<Sink> {
        Sink::create(&self.outputs[id.0].path, &self.inputs)
    }

    /// Creates output `id` as a tab-separated table (its header written by the caller).
    pub fn create_tsv(&self, id: OutputId) -> Result<csv::Writer<Sink>> {
        let mut writer = csv::WriterBuilder::new()
            .delimiter(b'\t')
            .from_writer(self.create(id)?);
        writer.flush()?;
        Ok(writer)
    }

    /// Takes back a complete output, to be committed with the others.
    pub fn finish(&mut self, sink: Sink) -> Result<()> {
        self.finish_if(sink, true)
    }

    /// [`OutputPlan::finish`], or, when not `keep`, finished and thrown away (a rejects
    /// file nobody asked for when no game was rejected).
    pub fn finish_if(&mut self, sink: Sink, keep: bool) -> Result<()> {
        if let Some(done) = sink.finish()? {
            if keep {
                self.finished.push(done);
            }
        }
        Ok(())
    }

    /// Takes back a file rewritten in place (`xfen --in-place`), to be committed with the
    /// others.
    pub fn finish_replaced(&mut self, done: Finished) {
        self.finished.push(done);
    }

    /// [`OutputPlan::finish`] for a table made by [`OutputPlan::create_tsv`] (or any CSV
    /// writer over a sink).
    pub fn finish_csv(&mut self, writer: csv::Writer<Sink>, keep: bool) -> Result<()> {
        let sink = writer.into_inner().map_err(|e| OutputError::Failed {
            message: format!("cannot write a table: {}", e.error()),
            cause: None,
        })?;
        self.finish_if(sink, keep)
    }

    /// Renames every finished output into place, once all are complete and each can take
    /// its name (its directory exists, it is not a directory).
    pub fn commit(&mut self) -> Result<()> {
        for done in &self.finished {
            let target = done.target();
            let dir = directory_of(target);
            if !dir.is_dir() {
                bail!(
                    "cannot write {}: {} is not a directory; nothing was written",
                    target.display(),
                    dir.display()
                );
            }
            if target.is_dir() {
                bail!(
                    "cannot write {}: it is a directory; nothing was written",
                    target.display()
                );
            }
        }
        commit_all(std::mem::take(&mut self.finished).into_iter().map(Some))
    }

    /// Prints a summary of the run on standard error, its control characters escaped;
    /// nothing with `-q`.
    pub fn summary(&self, text: &str) {
        print_summary(text, self.quiet);
    }
}

/// Prints a summary on standard error (never standard output, which may carry an
/// output), its control characters escaped; nothing when `quiet`.
pub fn print_summary(text: &str, quiet: bool) {
    if quiet || text.is_empty() {
        return;
    }
    let text = escape_controls(text, true);
    if text.ends_with('\n') {
        eprint!("{text}");
    } else {
        eprintln!("{text}");
    }
}

/// A path resolved for comparing places: canonical when it exists, else its nearest
/// existing ancestor's canonical path joined with the rest.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            resolved(parent).join(name)
        }
        _ => std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// `text` with its control characters written as escapes (`\u{1b}`), so that a name read
/// from a game cannot drive the terminal; line breaks are kept when `keep_newlines`.
pub fn escape_controls(text: &str, keep_newlines: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !(keep_newlines && c == '\n');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_renames_and_drop_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.pgn");
        let mut f = AtomicFile::create(&target).unwrap();
        f.write_all(b"hello").unwrap();
        assert!(!target.exists());
        f.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"hello");

        let other = dir.path().join("other.pgn");
        let mut f = AtomicFile::create(&other).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert!(!other.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    #[allow(unsafe_code)]
    fn open_temporary_files_are_registered_until_commit_or_drop() {
        use std::os::unix::ffi::OsStrExt;
        use std::sync::atomic::Ordering;
        let dir = tempfile::tempdir().unwrap();
        let registered = |name: &str| {
            crate::signals::TEMPORARY_FILES.iter().any(|slot| {
                let p = slot.load(Ordering::Acquire);
                // SAFETY: a non-null slot holds a leaked NUL-terminated string.
                let p = (!p.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(p) });
                p.is_some_and(|p| {
                    let p = Path::new(std::ffi::OsStr::from_bytes(p.to_bytes()));
                    let hash = name_hash(Path::new(name));
                    p.starts_with(dir.path())
                        && p.to_string_lossy().contains(&format!(".pgn960-{hash}."))
                })
            })
        };
        let a = AtomicFile::create(&dir.path().join("a.pgn")).unwrap();
        let b = AtomicFile::create(&dir.path().join("b.pgn")).unwrap();
        assert!(registered("a.pgn") && registered("b.pgn"));
        a.commit().unwrap();
        assert!(!registered("a.pgn") && registered("b.pgn"));
        drop(b);
        assert!(!registered("b.pgn"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn special_files_are_written_in_place_never_replaced() {
        use std::os::unix::fs::FileTypeExt;
        if !Path::new("/dev/null").exists() {
            return;
        }
        let mut sink = Sink::create(Path::new("/dev/null"), &[]).unwrap();
        assert!(matches!(sink, Sink::Special(..)));
        sink.write_all(b"discarded").unwrap();
        sink.commit().unwrap();
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        assert!(AtomicFile::create(Path::new("/dev/null")).is_err());
        let dir = tempfile::tempdir().unwrap();
        assert!(Sink::create(dir.path(), &[]).is_err());
    }

    #[test]
    fn output_equal_to_an_input_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.pgn");
        std::fs::write(&input, b"x").unwrap();
        let alias = dir.path().join(".").join("in.pgn");
        assert!(refuse_input(&alias, std::slice::from_ref(&input)).is_err());
        assert!(refuse_input(&dir.path().join("new.pgn"), &[input]).is_ok());
    }

    #[test]
    fn names_that_share_a_32_bit_hash_get_locks_of_their_own() {
        assert_ne!(
            name_hash(Path::new("out165320.pgn")),
            name_hash(Path::new("out169377.pgn"))
        );
        let dir = tempfile::tempdir().unwrap();
        let a = AtomicFile::create(&dir.path().join("out165320.pgn")).unwrap();
        let b = AtomicFile::create(&dir.path().join("out169377.pgn"));
        assert!(b.is_ok(), "{:?}", b.err());
        drop(a);
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("a\u{1b}[31mb", false), "a\\u{1b}[31mb");
        assert_eq!(escape_controls("a\nb", true), "a\nb");
        assert_eq!(escape_controls("a\nb", false), "a\\nb");
        assert_eq!(escape_controls("plain", false), "plain");
    }

    #[test]
    fn the_plan_refuses_outputs_inside_a_directory_it_writes_and_directory_names() {
        let dir = tempfile::tempdir().unwrap();
        let split = dir.path().join("split");
        let mut plan = OutputPlan::new(&[], true);
        plan.add_directory("-o", &split);
        plan.add("--rejects", &split.join("event-Open.pgn"), "pgn");
        assert!(plan.check().is_err());
        let mut plan = OutputPlan::new(&[], true);
        plan.add_directory("-o", &split);
        plan.add("--rejects", &dir.path().join("r.pgn"), "pgn");
        assert!(plan.check().is_ok());
        let mut plan = OutputPlan::new(&[], true);
        plan.add("-o", Path::new("nodir/"), "pgn");
        assert!(plan.check().is_err());
    }

    #[test]
    fn full_disk_is_an_error_not_a_panic() {
        let Ok(devfull) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            return;
        };
        let mut w = BufWriter::new(devfull);
        let result = w.write_all(&[0u8; 1 << 20]).and_then(|_| w.flush());
        assert!(result.is_err());
    }
}
