//! The program's signal handlers: Ctrl-C (and SIGTERM, SIGHUP) and SIGBUS, over the flag
//! and the registry of temporary files of [`pgn960::signals`].

use pgn960::signals::{remove_temporary_files, INTERRUPTED};
use std::sync::atomic::Ordering;

/// Installs the Ctrl-C and SIGBUS handlers.
pub fn install(exit_interrupted: i32) {
    exit_cleanly_on_sigbus();
    let _ = ctrlc::set_handler(move || {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            remove_temporary_files();
            eprintln!("pgn960: interrupted again; stopped at once, no output was written");
            std::process::exit(exit_interrupted);
        }
    });
}

/// Installs a SIGBUS handler: a mapped input that shrinks under the reader (another
/// program truncated it) raises SIGBUS on the next page read. The handler removes the
/// temporary output files, says what happened and exits with status 2, instead of the
/// process dying with no word and leaving temporary files behind.
fn exit_cleanly_on_sigbus() {
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
