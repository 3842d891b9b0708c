//! Output files written atomically: a temporary file beside the target, renamed over it
//! only when everything was written; dropped without `commit`, nothing is left behind.

use anyhow::{bail, Context, Result};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, Ordering};

/// Where output goes.
pub enum Sink {
    /// A regular file written atomically (temporary file, then rename).
    File(AtomicFile),
    /// An existing special file (`/dev/null`, a FIFO, a terminal), written in place: it must
    /// never be replaced by a regular file.
    Special(BufWriter<std::fs::File>, PathBuf),
    /// Standard output.
    Stdout(BufWriter<io::Stdout>),
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
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::File(f) => f.write(buf),
            Sink::Special(w, _) => w.write(buf),
            Sink::Stdout(w) => w.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::File(f) => f.write_all(buf),
            Sink::Special(w, _) => w.write_all(buf),
            Sink::Stdout(w) => w.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Special(w, _) => w.flush(),
            Sink::Stdout(w) => w.flush(),
        }
    }
}

/// A file written to a temporary name in the target's directory and renamed on commit.
pub struct AtomicFile {
    target: PathBuf,
    writer: BufWriter<tempfile::NamedTempFile>,
    _registered: Registered,
}

/// How many temporary files can be open at once and still be removed by an abrupt exit.
const TEMPORARY_SLOTS: usize = 64;

/// Temporary files not yet committed or dropped, for [`remove_temporary_files`] and the
/// SIGBUS handler: each slot holds a NUL-terminated path, or null. Slots are read with
/// plain atomic loads, so a signal handler may walk them; the strings are never freed (a
/// few bytes per output file), so a pointer read from a slot is always valid.
static TEMPORARY_FILES: [AtomicPtr<libc::c_char>; TEMPORARY_SLOTS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; TEMPORARY_SLOTS];

/// A temporary file's slot in [`TEMPORARY_FILES`], emptied when this is dropped.
struct Registered(Option<usize>);

impl Registered {
    fn new(path: &Path) -> Registered {
        use std::os::unix::ffi::OsStrExt;
        let Ok(text) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return Registered(None);
        };
        let raw = text.into_raw();
        for (i, slot) in TEMPORARY_FILES.iter().enumerate() {
            if slot
                .compare_exchange(
                    std::ptr::null_mut(),
                    raw,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .is_ok()
            {
                return Registered(Some(i));
            }
        }
        // All slots taken: this file is still removed on drop, only not by an abrupt exit.
        Registered(None)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(i) = self.0 {
            // The string is leaked on purpose (see `TEMPORARY_FILES`).
            TEMPORARY_FILES[i].store(std::ptr::null_mut(), Ordering::Release);
        }
    }
}

/// Deletes every temporary file still open, for an exit that skips destructors (a second
/// Ctrl-C while the run is blocked reading). Returns how many were removed.
pub fn remove_temporary_files() -> usize {
    let mut removed = 0;
    for slot in &TEMPORARY_FILES {
        let path = slot.load(Ordering::Acquire);
        if !path.is_null() {
            // SAFETY: a non-null slot holds a leaked, never freed, NUL-terminated string.
            removed += usize::from(unsafe { libc::unlink(path) } == 0);
        }
    }
    removed
}

/// Installs a SIGBUS handler: a mapped input that shrinks under the reader (another
/// program truncated it) raises SIGBUS on the next page read. The handler removes the
/// temporary output files, says what happened and exits with status 2, instead of the
/// process dying with no word and leaving temporary files behind.
pub fn exit_cleanly_on_sigbus() {
    extern "C" fn on_sigbus(_: libc::c_int) {
        // Only async-signal-safe calls here: unlink, write, _exit.
        remove_temporary_files();
        let message = b"pgn960: error: an input file was truncated while it was being read \
(bus error on its memory map); stopped, no output was written\n";
        // SAFETY: writing a static buffer to stderr and exiting are async-signal-safe.
        unsafe {
            libc::write(2, message.as_ptr().cast(), message.len());
            libc::_exit(2);
        }
    }
    // SAFETY: installs a handler that makes only async-signal-safe calls.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

impl AtomicFile {
    /// The file this will become.
    pub fn target(&self) -> &Path {
        &self.target
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
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("output");
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(&dir)
            .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
        readable_by_all(temp.as_file());
        Ok(AtomicFile {
            target: target.to_path_buf(),
            _registered: Registered::new(temp.path()),
            writer: BufWriter::with_capacity(1 << 20, temp),
        })
    }

    /// Flushes, syncs and renames the temporary file to the target.
    pub fn commit(self) -> Result<()> {
        let target = self.target;
        let temp = self
            .writer
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("cannot write {}", target.display()))?;
        temp.as_file()
            .sync_all()
            .with_context(|| format!("cannot write {}", target.display()))?;
        temp.persist(&target)
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
pub(crate) fn readable_by_all(file: &std::fs::File) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o644));
    }
    #[cfg(not(unix))]
    let _ = file;
}

/// Same file: same device and inode (Unix), else same canonical path.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return ma.dev() == mb.dev() && ma.ino() == mb.ino();
        }
    }
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Refuses an output path that is one of the input files, including the PGN files found
/// below input directories (a second run must not read its own earlier output).
pub fn refuse_input(output: &Path, inputs: &[PathBuf]) -> Result<()> {
    for name in crate::input::expand_inputs(inputs)? {
        if let crate::input::InputName::File(input) = name {
            if same_file(output, &input) {
                bail!(
                    "refusing to write {}: it is one of the inputs ({}); inputs are never modified",
                    output.display(),
                    input.display()
                );
            }
        }
    }
    Ok(())
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
    fn open_temporary_files_are_registered_until_commit_or_drop() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let registered = |name: &str| {
            TEMPORARY_FILES.iter().any(|slot| {
                let p = slot.load(Ordering::Acquire);
                // SAFETY: a non-null slot holds a leaked NUL-terminated string.
                let p = (!p.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(p) });
                p.is_some_and(|p| {
                    let p = Path::new(std::ffi::OsStr::from_bytes(p.to_bytes()));
                    p.starts_with(dir.path()) && p.to_string_lossy().contains(&format!(".{name}."))
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
    fn full_disk_is_an_error_not_a_panic() {
        let Ok(devfull) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            return;
        };
        let mut w = BufWriter::new(devfull);
        let result = w.write_all(&[0u8; 1 << 20]).and_then(|_| w.flush());
        assert!(result.is_err());
    }
}
