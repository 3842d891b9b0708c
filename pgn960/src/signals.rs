//! What signal handlers share with the writers of outputs: the flag a Ctrl-C sets, and
//! the registry of temporary output files that an abrupt exit must remove.
//!
//! The command line's first Ctrl-C sets [`INTERRUPTED`], which the pipeline checks between
//! chunks (temporary files are then dropped normally); a second one, for a run blocked
//! reading a terminal or a pipe, calls [`remove_temporary_files`] and exits at once, as a
//! SIGBUS does (a mapped input truncated by another program). The handlers themselves
//! belong to the program (`pgn960-cli`'s `handlers`); a library user installs its own.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// Set by the first Ctrl-C (or SIGTERM, SIGHUP); the pipeline stops between chunks when it
/// is set.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Set as soon as a run meets something invalid (a rejected game, an unreadable FEN, a
/// perft mismatch): the exit status of a run cut short by a closed output pipe.
static SEEN_INVALID: AtomicBool = AtomicBool::new(false);

/// Records that the run met something invalid.
pub fn note_invalid() {
    SEEN_INVALID.store(true, Ordering::Relaxed);
}

/// Whether the run met something invalid so far.
pub fn seen_invalid() -> bool {
    SEEN_INVALID.load(Ordering::Relaxed)
}

/// Whether a process with this id exists (it may belong to another user).
pub fn process_exists(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// How many temporary files can be open at once and still be removed by an abrupt exit.
const TEMPORARY_SLOTS: usize = 64;

/// Temporary files not yet committed or dropped, for [`remove_temporary_files`] and the
/// SIGBUS handler: each slot holds a NUL-terminated path, or null. Slots are read with
/// plain atomic loads, so a signal handler may walk them; the strings are never freed (a
/// few bytes per output file), so a pointer read from a slot is always valid.
pub static TEMPORARY_FILES: [AtomicPtr<libc::c_char>; TEMPORARY_SLOTS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; TEMPORARY_SLOTS];

/// A temporary file's slot in [`TEMPORARY_FILES`], emptied when this is dropped.
pub struct Registered(Option<usize>);

impl Registered {
    /// Registers `path` (until this is dropped).
    pub fn new(path: &Path) -> Registered {
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
